#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-golden.sh - the shipped scenarios give the results on record.
#
# For every scenario under scenarios/ (machine profiles in
# scenarios/machines/ are not scenarios), run
#	memcgsim run scenarios/DIR/NAME.yaml --format csv
#	memcgsim run scenarios/DIR/NAME.yaml --format yaml
# with the scenario's own seed and compare the output byte for byte with
# tests/golden/DIR/NAME.csv and tests/golden/DIR/NAME.yaml. On a
# difference, print which metrics moved and by how much (`memcgsim compare
# GOLDEN NEW`: once, for the CSV, or for the YAML when only it differs,
# i.e. the hot lines or kernel functions moved), then diff -u. A scenario
# without golden files, or golden files without a scenario, is a failure
# too, and so is a golden YAML that `memcgsim compare` does not find equal
# to its golden CSV (the two renderings of one run).
#
# Golden files are regenerated only by `make update-golden` (which runs
# this script with --update) and reviewed in the diff before committing,
# as libyaml's yaml-test-suite runner and G12 of HACKING.md ask.
#
# Known differences go in SKIP below, one "DIR/NAME: reason" a line.
#
# Environment: MEMCGSIM (the program) and top_srcdir, both set by
# `make check` and `make update-golden`.
set -eu

SKIP=''

: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"

update=false
case ${1-} in
--update) update=true ;;
'') ;;
*) echo "usage: $0 [--update]" >&2; exit 2 ;;
esac

case $MEMCGSIM in
/*) ;;
*) MEMCGSIM=$(pwd)/$MEMCGSIM ;;
esac
top=$(cd "$top_srcdir" && pwd)
golden=$top/tests/golden
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

failures=0
fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# The scenarios, as paths relative to scenarios/ without .yaml, sorted.
(cd "$top/scenarios" && find . -name '*.yaml' -not -path './machines/*') |
	sed 's|^\./||; s|\.yaml$||' | LC_ALL=C sort >"$tmp/scenarios"
if ! test -s "$tmp/scenarios"; then
	echo "FAIL: no scenarios found under $top/scenarios (are they in EXTRA_DIST?)"
	exit 1
fi

while read -r name; do
	if printf '%s\n' "$SKIP" | grep "^$name:" >/dev/null; then
		echo "skipped: $(printf '%s\n' "$SKIP" | grep "^$name:")"
		continue
	fi
	csv_differs=false
	for fmt in csv yaml; do
		want=$golden/$name.$fmt
		got=$tmp/got.$fmt
		rc=0
		(cd "$top" && "$MEMCGSIM" run "scenarios/$name.yaml" \
			--format "$fmt" --quiet) >"$got" 2>"$tmp/err" || rc=$?
		if test "$rc" -ne 0; then
			fail "scenarios/$name.yaml --format $fmt: exit status $rc"
			sed 's/^/	/' "$tmp/err"
			continue
		fi
		if test -s "$tmp/err"; then
			fail "scenarios/$name.yaml --format $fmt: wrote to stderr"
			sed 's/^/	/' "$tmp/err"
		fi
		if $update; then
			mkdir -p "${want%/*}"
			if ! cmp -s "$got" "$want"; then
				cp "$got" "$want"
				echo "updated tests/golden/$name.$fmt"
			fi
		elif ! test -f "$want"; then
			fail "scenarios/$name.yaml has no tests/golden/$name.$fmt; run 'make update-golden' and review the new file"
		elif ! cmp -s "$want" "$got"; then
			fail "scenarios/$name.yaml --format $fmt differs from tests/golden/$name.$fmt (if intended: make update-golden, and review the diff):"
			if test "$fmt" = csv || ! $csv_differs; then
				"$MEMCGSIM" compare "$want" "$got" 2>&1 |
					sed 's/^/	/' || :
			fi
			test "$fmt" = csv && csv_differs=true
			diff -u "$want" "$got" | sed 's/^/	/' || :
		fi
	done
	if ! $update && test -f "$golden/$name.yaml" &&
		test -f "$golden/$name.csv" &&
		! "$MEMCGSIM" compare "$golden/$name.yaml" "$golden/$name.csv" \
			>"$tmp/compare" 2>&1; then
		fail "memcgsim compare tests/golden/$name.yaml tests/golden/$name.csv: not equal"
		sed 's/^/	/' "$tmp/compare"
	fi
done <"$tmp/scenarios"

# Golden files whose scenario is gone.
if test -d "$golden"; then
	(cd "$golden" && find . -type f) | sed 's|^\./||' | LC_ALL=C sort |
	while read -r file; do
		name=${file%.*}
		case $file in
		*.csv | *.yaml)
			grep -x "$name" "$tmp/scenarios" >/dev/null && continue ;;
		esac
		if $update; then
			rm -f "$golden/$file"
			echo "removed tests/golden/$file: no scenarios/$name.yaml"
		else
			echo "FAIL: tests/golden/$file has no scenarios/$name.yaml; run 'make update-golden' to remove it"
			echo x >>"$tmp/orphans"
		fi
	done
fi
if test -f "$tmp/orphans"; then
	failures=$((failures + $(wc -l <"$tmp/orphans")))
fi

if test "$failures" -gt 0; then
	echo "$failures failure(s) in $0"
	exit 1
fi
exit 0
