#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-docs.sh - the sample outputs in the documents (README.md,
# doc/*.md) and the man pages are what memcgsim prints now: the default
# table, explain, run -f csv, a sweep's sweep.csv, compare and the
# teaching runs, each made again by tools/update-docs.sh and compared
# with the docs' text, and so are the tables of contents; `make
# update-docs` rewrites them. Then the checker's own rules: a block
# whose text differs, a sample name it does not know, a block without
# its end marker and a stale table of contents each fail (on copies of
# the files). Last, every Markdown document over 300 lines has a table
# of contents, and every relative link names a file and heading that
# are there.
#
# Environment: MEMCGSIM (the program) and top_srcdir, both set by
# `make check`.
set -eu

: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"
top=$(cd "$top_srcdir" && pwd)
case $MEMCGSIM in
/*) ;;
*) MEMCGSIM=$(pwd)/$MEMCGSIM ;;
esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-docs-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

failures=0
fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# The shipped docs against the program; the samples it makes are kept in
# $tmp/cache for the cases below, which need not run them again.
mkdir "$tmp/cache"
MEMCGSIM_DOCS_CACHE=$tmp/cache
export MEMCGSIM_DOCS_CACHE
if ! sh "$top/tools/update-docs.sh" "$MEMCGSIM" "$top" >"$tmp/out" 2>&1; then
	cat "$tmp/out"
	fail "a document shows output memcgsim no longer prints"
fi

# copy: a scratch source tree with the tools, scenarios and the docs.
copy()
{
	rm -rf "$tmp/src"
	mkdir -p "$tmp/src/tools"
	cp "$top/README.md" "$top/HACKING.md" "$tmp/src/"
	cp -R "$top/doc" "$tmp/src/"
	cp "$top/tools/update-docs.sh" "$tmp/src/tools/"
	ln -s "$top/scenarios" "$tmp/src/scenarios"
}

# the man page with the compare sample
cmpman=doc/memcgsim-compare.1

# expect STATUS WHAT GREP: update-docs on the scratch tree exits STATUS
# and says GREP.
expect()
{
	st=0
	sh "$tmp/src/tools/update-docs.sh" "$MEMCGSIM" "$tmp/src" \
		>"$tmp/out" 2>&1 || st=$?
	if test "$st" != "$1"; then
		fail "$2: exit status $st, expected $1"
		sed 's/^/	/' "$tmp/out"
	elif ! grep -F -- "$3" "$tmp/out" >/dev/null; then
		fail "$2: expected '$3' in"
		sed 's/^/	/' "$tmp/out"
	fi
}

# A README number that drifted (the review's 16368 for 16381), and a man
# page sample line changed: both found, the diff shown.
copy
awk '/^<!-- sample default -->$/ { d = 1 }
	d && /^throughput / { sub(/[0-9]+/, "99999"); d = 0 } { print }' \
	"$top/README.md" >"$tmp/src/README.md"
grep '^throughput (Mbit/s) *99999 ' "$tmp/src/README.md" >/dev/null ||
	fail "could not plant a wrong number in the README sample"
expect 1 "a README sample edited" "FAIL: the sample outputs or the contents in README.md"
grep -q '^-throughput (Mbit/s) *99999 ' "$tmp/out" ||
	fail "the diff does not show the edited README line"
copy
sed '/^\.\\" sample compare$/,/^\.\\" sample end$/s/^compare: .*/compare: 1 of 1 value changed/' \
	"$top/$cmpman" >"$tmp/src/$cmpman"
expect 1 "a man page sample edited" "FAIL: the sample outputs or the contents in $cmpman"

# --update puts back exactly the shipped text.
sh "$tmp/src/tools/update-docs.sh" "$MEMCGSIM" "$tmp/src" --update >/dev/null
cmp -s "$tmp/src/$cmpman" "$top/$cmpman" ||
	fail "update-docs --update did not restore $cmpman"

# A heading renamed without its table of contents: found; --update
# writes the new entry.
copy
sed 's/^## Sweeps$/## Sweeping/' "$top/doc/user-guide.md" \
	>"$tmp/src/doc/user-guide.md"
expect 1 "a heading renamed" "+- [Sweeping](#sweeping)"
sh "$tmp/src/tools/update-docs.sh" "$MEMCGSIM" "$tmp/src" --update >/dev/null
grep -qx -- '- \[Sweeping\](#sweeping)' "$tmp/src/doc/user-guide.md" ||
	fail "update-docs --update did not write the renamed heading's entry"

# An unknown sample name, and a sample without its end marker.
copy
sed 's/^<!-- sample run_csv -->$/<!-- sample run_cvs -->/' \
	"$top/doc/user-guide.md" >"$tmp/src/doc/user-guide.md"
expect 2 "an unknown sample" "no sample named run_cvs"
copy
awk '/^<!-- sample end -->$/ && !n++ { next } { print }' \
	"$top/README.md" >"$tmp/src/README.md"
expect 2 "a missing end marker" 'no "<!-- sample end -->" after it'

# Every Markdown document over 300 lines opens with a table of contents.
for f in "$top"/*.md "$top"/doc/*.md "$top"/doc/model/*.md; do
	test -f "$f" || continue
	test "$(wc -l <"$f")" -le 300 && continue
	grep -qx '<!-- toc -->' "$f" ||
		fail "${f#"$top"/} has $(wc -l <"$f") lines and no table of contents (<!-- toc --> <!-- toc end -->)"
done

# Every relative link of every Markdown document names a file that is
# there and, after a '#', a heading of that file (its GitHub anchor, as
# tools/update-docs.sh's toc() makes it).
anchors()
{
	awk '/^```/ { fence = !fence }
		!fence && /^#+ / {
			a = tolower(substr($0, index($0, " ") + 1))
			gsub(/[^a-z0-9 _-]/, "", a); gsub(/ /, "-", a)
			if (a in seen) print a "-" (++seen[a])
			else { seen[a] = 0; print a }
		}' "$1"
}
for f in "$top"/*.md "$top"/doc/*.md "$top"/doc/model/*.md; do
	test -f "$f" || continue
	dir=$(dirname "$f")
	grep -o '](\([^)]*\))' "$f" | sed 's/^](//; s/)$//' |
		grep -v '^[a-z]*:' | sort -u >"$tmp/links" || :
	while IFS= read -r link; do
		target=${link%%#*}
		anchor=
		case $link in *'#'*) anchor=${link#*#} ;; esac
		file=$f
		test -n "$target" && file=$dir/$target
		if ! test -e "$file"; then
			fail "${f#"$top"/}: link to $link: no such file"
		elif test -n "$anchor" &&
			! anchors "$file" | grep -qx -- "$anchor"; then
			fail "${f#"$top"/}: link to $link: no such heading"
		fi
	done <"$tmp/links"
done

test "$failures" = 0 || exit 1
echo "PASS: the documents' samples, contents and links match the program and the tree"
