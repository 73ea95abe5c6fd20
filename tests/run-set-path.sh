#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-set-path.sh - a cgroup control (a key with a dot in it) set
# through a dotted path reaches the cgroup, by each of the three ways a
# path is given: run --set, a variant's set: and sweep --vary.
#
# tests/data/netperf-small.yaml charges /a/b, which has no memory.max, so
# the path cgroups./a/b.memory.max has no key to match and would split at
# its dot; quoted, cgroups./a/b."memory.max" names the one key.
#
# The reference is the same scenario with memory.max: 64K written in the
# file. 64K is 16 pages, half of one charge batch (32 pages), so charges
# of /a/b hit the limit (charge_failures > 0; 17 when this was written) and
# throughput falls by two orders of magnitude; without the limit there are
# no charge failures. So:
# 1. run --set 'cgroups./a/b."memory.max"=64K' prints byte for byte what
#    the file with the limit prints, and not what the file without it does;
# 2. a variant with set: {cgroups./a/b."memory.max": 64K} gives the same
#    metrics as the limited file's variant base (CSV row, variant name
#    aside);
# 3. sweep --vary 'cgroups./a/b."memory.max"=64K,max' gives, for 64K, the
#    limited file's metrics and, for max, the unlimited file's;
# 4. the unquoted path is refused (exit 2) with a hint at the quoted form.
#
# Environment: MEMCGSIM (the program) and top_srcdir, both set by
# `make check`. Quiet on success; each failure is explained on stdout.
set -eu

: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-set-path.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

failures=0
fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

src="$top_srcdir/tests/data/netperf-small.yaml"
grep -q '^  /a/b: {}$' "$src" || {
	echo "FAIL: $src no longer has '  /a/b: {}'"
	exit 1
}
sed 's|^  /a/b: {}$|  /a/b: {memory.max: 64K}|' "$src" >"$tmp/limited.yaml"
sed 's|^  - {name: batch64, .*$|  - {name: lim, set: {cgroups./a/b."memory.max": 64K}}|' \
	"$src" >"$tmp/variant.yaml"
grep -q '"memory.max"' "$tmp/variant.yaml" ||
	fail "the variant was not written into $tmp/variant.yaml"

# CSV without its first column (the variant) for one variant.
metrics()
{
	"$MEMCGSIM" run "$@" -q -f csv | grep -v '^#' | cut -d, -f2-
}

# The value of column NAME in line 2 of a CSV file.
column()
{
	awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++)
		if ($i == name) c = i } NR == 2 { print $c }' "$2"
}

# ---- the reference: the limit written in the file ----
"$MEMCGSIM" run "$tmp/limited.yaml" -q -v base -f csv | grep -v '^#' \
	>"$tmp/lim.csv"
"$MEMCGSIM" run "$src" -q -v base -f csv | grep -v '^#' >"$tmp/free.csv"
f=$(column charge_failures "$tmp/lim.csv")
awk -v f="$f" 'BEGIN { exit !(f > 0) }' ||
	fail "memory.max 64K in the file: charge_failures is '$f', expected > 0"
f=$(column charge_failures "$tmp/free.csv")
[ "$f" = 0 ] ||
	fail "no memory.max: charge_failures is '$f', expected 0"

# ---- 1. run --set ----
# The tables without their title lines ('#': the provenance, which names
# the --set options and the scenario's digest, differs by design).
"$MEMCGSIM" run "$tmp/limited.yaml" -q | grep -v '^#' >"$tmp/file.txt"
"$MEMCGSIM" run "$src" -q | grep -v '^#' >"$tmp/free.txt"
"$MEMCGSIM" run "$src" -q --set 'cgroups./a/b."memory.max"=64K' \
	>"$tmp/set.raw" || fail "run --set with a quoted segment failed"
grep -v '^#' "$tmp/set.raw" >"$tmp/set.txt"
cmp -s "$tmp/file.txt" "$tmp/set.txt" ||
	fail "--set 'cgroups./a/b.\"memory.max\"=64K' differs from the file with memory.max: 64K"
cmp -s "$tmp/free.txt" "$tmp/set.txt" &&
	fail "--set 'cgroups./a/b.\"memory.max\"=64K' changed nothing"
"$MEMCGSIM" run "$src" -q --set 'cgroups."/a/b"."memory.max"=64K' \
	>"$tmp/set2.raw" || fail "run --set with two quoted segments failed"
grep -v '^#' "$tmp/set2.raw" >"$tmp/set2.txt"
cmp -s "$tmp/file.txt" "$tmp/set2.txt" ||
	fail "--set 'cgroups.\"/a/b\".\"memory.max\"=64K' differs from the file"

# ---- 2. a variant's set: ----
metrics "$tmp/limited.yaml" -v base >"$tmp/a"
metrics "$tmp/variant.yaml" -v lim >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" ||
	fail "variant set: {cgroups./a/b.\"memory.max\": 64K} differs from the file"

# ---- 3. sweep --vary ----
if "$MEMCGSIM" sweep "$src" -q --vary 'cgroups./a/b."memory.max"=64K,max' \
	--out "$tmp/sweep" >/dev/null 2>"$tmp/sweep.err"; then
	grep -v "^#" "$tmp/sweep/sweep.csv" | head -1 | grep -q '^point,"cgroups./a/b.""memory.max""",variant,' ||
		fail "sweep.csv's header: $(grep -v "^#" "$tmp/sweep/sweep.csv" | head -1 | cut -c1-60)"
	grep '^0,64K,base,' "$tmp/sweep/sweep.csv" | cut -d, -f4- >"$tmp/a"
	tail -1 "$tmp/lim.csv" | cut -d, -f2- >"$tmp/b"
	cmp -s "$tmp/a" "$tmp/b" ||
		fail "sweep point memory.max=64K differs from the file's run"
	grep '^1,max,base,' "$tmp/sweep/sweep.csv" | cut -d, -f4- >"$tmp/a"
	tail -1 "$tmp/free.csv" | cut -d, -f2- >"$tmp/b"
	cmp -s "$tmp/a" "$tmp/b" ||
		fail "sweep point memory.max=max differs from the unlimited run"
else
	fail "sweep --vary with a quoted segment: $(cat "$tmp/sweep.err")"
fi

# ---- 4. unquoted: refused, with the quoted form as the hint ----
status=0
"$MEMCGSIM" run "$src" -q --set 'cgroups./a/b.memory.max=64K' \
	>"$tmp/out" 2>"$tmp/err" || status=$?
expect="--set: error: unknown key 'memory' in 'cgroups./a/b'; a key with dots is one path segment in double quotes: 'cgroups./a/b.\"memory.max\"'"
[ "$status" = 2 ] || fail "unquoted path: exit $status, expected 2"
[ ! -s "$tmp/out" ] || fail "unquoted path: output on stdout"
[ "$(cat "$tmp/err")" = "$expect" ] ||
	fail "unquoted path: stderr '$(cat "$tmp/err")', expected '$expect'"

[ "$failures" = 0 ] || exit 1
