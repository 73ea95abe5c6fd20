#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-keys.sh - the table of `kernel:` keys (models/kernel/config.c)
# against the man page and against bad input.
#
# 1. doc/memcgsim.1's key list, between its BEGIN KEYS and END KEYS
#    comments, is what `memcgsim help keys --format man` prints, and
#    README.md's table what `memcgsim help keys --format markdown` prints.
# 2. For every key that `memcgsim help keys --format tsv` lists, a value
#    out of its range and a value of the wrong type are refused: exit 2,
#    nothing on stdout, one line on stderr, at the value's line and column
#    (line 5 of the scenario below; the column is the value's: the two
#    spaces of indentation, the key, ": ", so length + 5), naming the key
#    as kernel.KEY. The values are made from the table's type and range,
#    so a new key is tested as soon as it is declared.
#
# Environment: MEMCGSIM (the program) and top_srcdir, both set by
# `make check`. Quiet on success; each failure is explained on stdout.
set -eu

: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-keys.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

failures=0
fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# ---- 1. the man page and the README ----

sed -n '/^\.\\" BEGIN KEYS$/,/^\.\\" END KEYS$/p' \
	"$top_srcdir/doc/memcgsim.1" | sed '1d;$d' >"$tmp/man.txt"
"$MEMCGSIM" help keys --format man >"$tmp/table.txt"
test -s "$tmp/man.txt" || fail "doc/memcgsim.1 has no BEGIN KEYS ... END KEYS list"
if ! cmp -s "$tmp/man.txt" "$tmp/table.txt"; then
	fail "doc/memcgsim.1's key list differs from the table (regenerate it with memcgsim help keys --format man):"
	diff -u "$tmp/man.txt" "$tmp/table.txt" | sed 's/^/	/' || :
fi

sed -n '/^<!-- BEGIN KEYS -->$/,/^<!-- END KEYS -->$/p' \
	"$top_srcdir/README.md" | sed '1d;$d' >"$tmp/readme.txt"
"$MEMCGSIM" help keys --format markdown >"$tmp/table.md"
test -s "$tmp/readme.txt" || fail "README.md has no BEGIN KEYS ... END KEYS table"
if ! cmp -s "$tmp/readme.txt" "$tmp/table.md"; then
	fail "README.md's key table differs from the table (regenerate it with memcgsim help keys --format markdown):"
	diff -u "$tmp/readme.txt" "$tmp/table.md" | sed 's/^/	/' || :
fi

# ---- 2. bad values, made from the table ----

# refused KEY LINE5 [LINE6] [EXACT-PREFIX]: a scenario with "  LINE5" on
# line 5 (the key and its value) and LINE6 after it is refused at line 5,
# with EXACT-PREFIX (default: the value's column and the key's name).
refused()
{
	key=$1
	{
		echo 'scenario: keys'
		echo 'machine: skx-2s-72'
		echo 'duration_ms: 0.01'
		echo 'kernel:'
		echo "  $2"
		test -n "${3:-}" && echo "  $3"
		echo 'workloads:'
		echo '  - {type: atomic_counter, cpus: 0-3}'
	} >"$tmp/k.yaml"
	want=${4:-"k.yaml:5:$((${#key} + 5)): error: key 'kernel.$key'"}
	rc=0
	(cd "$tmp" && "$MEMCGSIM" run k.yaml --format csv) >"$tmp/out" \
		2>"$tmp/err" || rc=$?
	got=$(sed -n 1p "$tmp/err")
	if test "$rc" -ne 2; then
		fail "kernel: {$2}: exit status $rc, expected 2"
	elif test -s "$tmp/out"; then
		fail "kernel: {$2}: printed on stdout"
	elif test "$(wc -l <"$tmp/err")" -ne 1; then
		fail "kernel: {$2}: $(wc -l <"$tmp/err") lines on stderr"
	else
		case $got in
		"$want"*) return 0 ;;
		esac
		fail "kernel: {$2}: expected '$want...', got '$got'"
	fi
}

"$MEMCGSIM" help keys --format tsv >"$tmp/keys.tsv"
test "$(wc -l <"$tmp/keys.tsv")" -ge 20 ||
	fail "memcgsim help keys --format tsv lists $(wc -l <"$tmp/keys.tsv") keys"
tab=$(printf '\t')
nr=0
while IFS=$tab read -r key type min max first; do
	nr=$((nr + 1))
	case $type in
	integer)
		refused "$key" "$key: $((max + 1))"
		test "$min" -gt 0 && refused "$key" "$key: $((min - 1))"
		refused "$key" "$key: abc" ;;
	duration)
		refused "$key" "$key: $((max + 1))"
		refused "$key" "$key: 1 parsec" ;;
	enum)
		refused "$key" "$key: ${first}x"
		refused "$key" "$key: [$first]" ;;
	bool)
		refused "$key" "$key: 2"
		refused "$key" "$key: [true]" ;;
	map)
		# read only with page_counter_layout: custom; every member of
		# struct page_counter is at most 4096 bytes in
		refused "$key" "$key: {usage: 4097}" \
			"page_counter_layout: custom" \
			"k.yaml:5:$((${#key} + 13)): error: key 'kernel.$key.usage'"
		refused "$key" "$key: 5" "page_counter_layout: custom" ;;
	file)
		# read only with page_counter_layout: pahole
		refused "$key" "$key: no-such-file.txt" \
			"page_counter_layout: pahole"
		refused "$key" "$key: [a]" "page_counter_layout: pahole" ;;
	*)
		fail "$key: a type this test does not know: $type" ;;
	esac
done <"$tmp/keys.tsv"

if test "$failures" -ne 0; then
	echo "$failures failure(s) in $0 ($nr keys)"
	exit 1
fi
