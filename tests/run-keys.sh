#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-keys.sh - the key tables (the `kernel:` keys of
# models/kernel/sim/config.c and every table of sim/scenario_keys.h) against
# the man page and against bad input.
#
# 1. The man pages' kernel: key list (memcgsim-scenario(5)), between its
#    BEGIN KEYS and END KEYS comments, is what `memcgsim help keys
#    --format man` prints, and
#    doc/user-guide.md's table what `memcgsim help keys --format markdown` prints;
#    the same for every other section of `memcgsim help keys all` (the
#    tables of sim/scenario_keys.h: scenario, variants, published,
#    workloads, each workload type, ops.objects and ops.program, cgroups,
#    machine, coherence, latencies), between BEGIN KEYS SECTION and
#    END KEYS SECTION of a man page (and of doc/user-guide.md, as
#    Markdown, where it has that section's table). Each command's page,
#    doc/memcgsim-NAME.1, has a SYNOPSIS and OPTIONS, between BEGIN HELP
#    NAME and END HELP NAME, that are what `memcgsim help NAME --format
#    man` prints (the text `memcgsim help NAME` prints, in roff), and
#    memcgsim(1)'s list of commands is `memcgsim help --format man`.
# 2. For every key that `memcgsim help keys --format tsv` lists, a value
#    out of its range and a value of the wrong type are refused: exit 2,
#    nothing on stdout, one line on stderr, at the value's line and column
#    (line 5 of the scenario below; the column is the value's: the two
#    spaces of indentation, the key, ": ", so length + 5), naming the key
#    as kernel.KEY. The values are made from the table's type and range,
#    so a new key is tested as soon as it is declared.
# 3. The same for every key of every other section: each section's key
#    goes on the first line of its map in a scenario made for the section
#    (see place() below, which works out the line and column), and its
#    value is made from the TSV line (type, min, max, first enum value):
#    past the maximum (the maximum's digits with a 0 appended, so that
#    even 2^64 - 1 has one), below a minimum above 0, and of the wrong
#    type. Maps, lists and cpulists read by their own code are tested
#    where their form says what is wrong ({ns, source}: a bare number
#    and ns past its maximum; {VALUE, source}: a bare number; a cpulist:
#    a CPU the machine lacks and a word; an ops operand: an object that
#    is not there and a list).
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

# same GOT WANT MISSING DIFFERS: fail saying MISSING when the file GOT is
# empty, or DIFFERS and the diff when it is not the file WANT.
same()
{
	if ! test -s "$1"; then
		fail "$3"
	elif ! cmp -s "$1" "$2"; then
		fail "$4"
		diff -u "$1" "$2" | sed 's/^/	/' || :
	fi
}

# ---- 1. the man pages and the user guide ----

# every man page, one after the other
cat "$top_srcdir"/doc/memcgsim*.1 "$top_srcdir"/doc/memcgsim*.5 >"$tmp/pages"
sed -n '/^\.\\" BEGIN KEYS$/,/^\.\\" END KEYS$/p' \
	"$tmp/pages" | sed '1d;$d' >"$tmp/man.txt"
"$MEMCGSIM" help keys --format man >"$tmp/table.txt"
test -s "$tmp/man.txt" || fail "no man page has a BEGIN KEYS ... END KEYS list"
if ! cmp -s "$tmp/man.txt" "$tmp/table.txt"; then
	fail "the man pages' kernel: key list differs from the table (make update-keys regenerates it):"
	diff -u "$tmp/man.txt" "$tmp/table.txt" | sed 's/^/	/' || :
fi

sed -n '/^<!-- BEGIN KEYS -->$/,/^<!-- END KEYS -->$/p' \
	"$top_srcdir/doc/user-guide.md" | sed '1d;$d' >"$tmp/readme.txt"
"$MEMCGSIM" help keys --format markdown >"$tmp/table.md"
test -s "$tmp/readme.txt" || fail "doc/user-guide.md has no BEGIN KEYS ... END KEYS table"
if ! cmp -s "$tmp/readme.txt" "$tmp/table.md"; then
	fail "doc/user-guide.md's key table differs from the table (make update-keys regenerates it):"
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

# ---- 1b. every other section's list in the man page ----

"$MEMCGSIM" help keys all --format tsv >"$tmp/all.tsv"
sections=$(sed -n 's/^\[\(.*\)\]$/\1/p' "$tmp/all.tsv" | grep -v '^kernel$')
test "$(echo "$sections" | wc -l)" -ge 15 ||
	fail "memcgsim help keys all lists only: $sections"
for sec in $sections; do
	sed -n "/^\\.\\\\\\\" BEGIN KEYS $sec\$/,/^\\.\\\\\\\" END KEYS $sec\$/p" \
		"$tmp/pages" | sed '1d;$d' >"$tmp/man-$sec.txt"
	"$MEMCGSIM" help keys "$sec" --format man >"$tmp/table-$sec.txt"
	same "$tmp/man-$sec.txt" "$tmp/table-$sec.txt" \
		"no man page has a BEGIN KEYS $sec ... END KEYS $sec list" \
		"the man pages' $sec keys differ from the table (make update-keys regenerates it):"
	# the user guide's tables of a section, where it has one
	grep -qx "<!-- BEGIN KEYS $sec -->" "$top_srcdir/doc/user-guide.md" ||
		continue
	sed -n "/^<!-- BEGIN KEYS $sec -->\$/,/^<!-- END KEYS $sec -->\$/p" \
		"$top_srcdir/doc/user-guide.md" | sed '1d;$d' >"$tmp/md-$sec.txt"
	"$MEMCGSIM" help keys "$sec" --format markdown >"$tmp/table-$sec.md"
	same "$tmp/md-$sec.txt" "$tmp/table-$sec.md" \
		"doc/user-guide.md's $sec table is empty" \
		"doc/user-guide.md's $sec table differs from the table (make update-keys regenerates it):"
done

# ---- 1c. the command pages ----

# block FILE NAME: FILE's lines between BEGIN HELP[ NAME] and END HELP[ NAME]
block()
{
	b='.\" BEGIN HELP' e='.\" END HELP'
	test -n "$2" && b="$b $2" e="$e $2"
	B=$b E=$e awk '$0 == ENVIRON["E"] { on = 0 } on { print }
		$0 == ENVIRON["B"] { on = 1 }' "$1"
}
block "$top_srcdir/doc/memcgsim.1" "" >"$tmp/man-commands.txt"
"$MEMCGSIM" help --format man >"$tmp/commands.txt"
same "$tmp/man-commands.txt" "$tmp/commands.txt" \
	"doc/memcgsim.1 has no BEGIN HELP ... END HELP list of commands" \
	"doc/memcgsim.1's list of commands differs from the command table (make update-keys regenerates it):"
commands=$(sed -n 's/^\\fB\([a-z]*\)\\fR.*/\1/p' "$tmp/commands.txt")
test "$(echo "$commands" | wc -w)" -ge 10 ||
	fail "memcgsim help --format man lists only: $commands"
for cmd in $commands; do
	page=$top_srcdir/doc/memcgsim-$cmd.1
	if ! test -f "$page"; then
		fail "command $cmd has no page doc/memcgsim-$cmd.1"
		continue
	fi
	block "$page" "$cmd" >"$tmp/man-$cmd.txt"
	"$MEMCGSIM" help "$cmd" --format man >"$tmp/help-$cmd.txt"
	same "$tmp/man-$cmd.txt" "$tmp/help-$cmd.txt" \
		"doc/memcgsim-$cmd.1 has no BEGIN HELP $cmd ... END HELP $cmd" \
		"doc/memcgsim-$cmd.1's synopsis and options differ from the tables (make update-keys regenerates them):"
	# the text help prints the same options, in the same order
	"$MEMCGSIM" help "$cmd" </dev/null >"$tmp/text-$cmd.txt"
	sed -n 's/^\.B \(\\-[a-z], \)\{0,1\}\\-\\-\([a-z-]*\).*/\2/p' \
		"$tmp/help-$cmd.txt" | sed 's/\\-/-/g' >"$tmp/opts-man-$cmd.txt"
	sed -n -e 's/^  -[a-z], --\([a-z-]*\).*/\1/p' \
		-e 's/^      --\([a-z-]*\).*/\1/p' \
		"$tmp/text-$cmd.txt" >"$tmp/opts-text-$cmd.txt"
	cmp -s "$tmp/opts-man-$cmd.txt" "$tmp/opts-text-$cmd.txt" ||
		fail "memcgsim help $cmd and its page list other options: $(tr '\n' ' ' <"$tmp/opts-text-$cmd.txt") against $(tr '\n' ' ' <"$tmp/opts-man-$cmd.txt")"
done

# ---- 3. bad values for every other section's keys ----

# The machine of the machine, coherence and latencies tests: one socket of
# four cores sharing an LLC, so the latencies below are the required ones.
machine_head='machine:
  name: t
  sockets: 1
  cores_per_socket: 4
  threads_per_core: 1'
latencies='l1_hit: {ns: 1, source: s}
llc_hit: {ns: 10, source: s}
memory: {ns: 80, source: s}
rmw_local: {ns: 5, source: s}
inval_per_sharer: {ns: 0, source: s}
xfer_llc: {ns: 40, source: s}'
one_workload='workloads:
  - {type: atomic_counter, cpus: 0-3}'

# without: stdin but the lines matching $drop (none left is no failure)
without()
{
	grep -v "$drop" || :
}

# place SEC KEY VALUE: write k.yaml with "KEY: VALUE" as the first entry
# of SECTION's map, set $line, $col (the value's) and $path (the key's).
# Template lines naming KEY are left out (it is given once).
place()
{
	sec=$1 key=$2 val=$3
	drop="^ *-\{0,1\} *$key:"
	case $sec in
	scenario)
		line=1 col=$((${#key} + 3)) path=$key
		{
			echo "$key: $val"
			printf '%s\n' 'machine: skx-2s-72' "$one_workload"
		} | sed "2,\$ { /^$key:/d; }" >"$tmp/k.yaml" ;;
	variants)
		line=2 col=$((${#key} + 7)) path=variants.0.$key
		{
			echo 'variants:'
			echo "  - $key: $val"
			echo '    name: a' | without
			printf '%s\n' 'machine: skx-2s-72' "$one_workload"
		} >"$tmp/k.yaml" ;;
	published)
		line=2 col=$((${#key} + 5)) path=published.$key
		{
			echo 'published:'
			echo "  $key: $val"
			printf '  %s\n' 'source: s' 'values: {}' | without
			printf '%s\n' 'machine: skx-2s-72' "$one_workload"
		} >"$tmp/k.yaml" ;;
	cgroups)
		line=3 col=$((${#key} + 7)) path="cgroups./a.$key"
		{
			printf '%s\n' 'cgroups:' '  /a:' "    $key: $val"
			printf '%s\n' 'machine: skx-2s-72' "$one_workload"
		} >"$tmp/k.yaml" ;;
	machine)
		line=2 col=$((${#key} + 5)) path=machine.$key
		{
			echo 'machine:'
			echo "  $key: $val"
			echo "$machine_head" | sed 1d | without
			echo '  latencies:'
			echo "$latencies" | sed 's/^/    /'
			echo "$one_workload"
		} >"$tmp/k.yaml" ;;
	coherence | latencies)
		line=7 col=$((${#key} + 7)) path=machine.$sec.$key
		{
			echo "$machine_head"
			if test "$sec" = coherence; then
				echo '  coherence:'
				echo "    $key: $val"
				echo '  latencies:'
				echo "$latencies" | sed 's/^/    /'
			else
				echo '  latencies:'
				echo "    $key: $val"
				echo "$latencies" | sed "/^$key:/d; s/^/    /"
			fi
			echo "$one_workload"
		} >"$tmp/k.yaml" ;;
	ops.objects | ops.program)
		# an object x with a field a, and a program that uses it
		line=5 col=$((${#key} + 11)) path=workloads.0.${sec#ops.}.0.$key
		{
			printf '%s\n' 'workloads:' '  - type: ops' '    cpus: 0-3'
			if test "$sec" = ops.objects; then
				echo '    objects:'
				echo "      - $key: $val"
				printf '        %s\n' 'name: x' 'fields: {a: 0}' |
					without
				printf '%s\n' '    program:' '      - {rmw: x.a}'
			else
				line=7
				echo '    objects:'
				echo '      - {name: x, fields: {a: 0}}'
				echo '    program:'
				echo "      - $key: $val"
			fi
			echo 'machine: skx-2s-72'
		} >"$tmp/k.yaml" ;;
	*)
		# workloads (the common keys) or a workload type
		type=$sec
		test "$sec" = workloads && type=atomic_counter
		line=2 col=$((${#key} + 7)) path=workloads.0.$key
		{
			echo 'workloads:'
			echo "  - $key: $val"
			{
				echo "    type: $type"
				echo '    cpus: 0-3'
				# the type's other required keys, at their minimum
				awk -F '\t' -v k="$key" \
					'$6 == "required" && $1 != k && $3 != "-" {
						print "    " $1 ": " ($3 > 0 ? $3 : 1) }' \
					"$tmp/sec-$sec.tsv"
			} | without
			echo 'machine: skx-2s-72'
		} >"$tmp/k.yaml" ;;
	esac
}

# bad SEC KEY VALUE [SUFFIX]: refused at the value (SUFFIX: a member of
# a {VALUE, source} map, further along the line, e.g. ".ns" and 5).
bad()
{
	place "$1" "$2" "$3"
	test -n "${4:-}" && path=$path$4 && col=$((col + $5))
	want="k.yaml:$line:$col: error: key '$path'"
	rc=0
	(cd "$tmp" && "$MEMCGSIM" run k.yaml --format csv) >"$tmp/out" \
		2>"$tmp/err" || rc=$?
	got=$(sed -n 1p "$tmp/err")
	if test "$rc" -ne 2; then
		fail "$1: {$2: $3}: exit status $rc, expected 2"
	elif test -s "$tmp/out"; then
		fail "$1: {$2: $3}: printed on stdout"
	elif test "$(wc -l <"$tmp/err")" -ne 1; then
		fail "$1: {$2: $3}: $(wc -l <"$tmp/err") lines on stderr"
	else
		case $got in
		"$want"*) return 0 ;;
		esac
		fail "$1: {$2: $3}: expected '$want...', got '$got'"
	fi
}

nr_other=0
for sec in $sections; do
	"$MEMCGSIM" help keys "$sec" --format tsv >"$tmp/sec-$sec.tsv"
	while IFS=$tab read -r key type min max first req; do
		nr_other=$((nr_other + 1))
		case $type in
		integer)
			test "$max" != - && bad "$sec" "$key" "${max}0"
			test "$min" -gt 0 && bad "$sec" "$key" "$((min - 1))"
			bad "$sec" "$key" abc ;;
		duration)
			bad "$sec" "$key" "${max}0"
			bad "$sec" "$key" "1 parsec" ;;
		size)
			bad "$sec" "$key" "${max}0"
			bad "$sec" "$key" "1 parsec" ;;
		number)
			bad "$sec" "$key" "${max}0"
			bad "$sec" "$key" abc ;;
		enum)
			bad "$sec" "$key" "${first}x"
			bad "$sec" "$key" "[$first]" ;;
		bool)
			bad "$sec" "$key" 2
			bad "$sec" "$key" "[true]" ;;
		string)
			bad "$sec" "$key" "[a]"
			bad "$sec" "$key" "{a: b}" ;;
		'{ns, source}')
			bad "$sec" "$key" 5
			bad "$sec" "$key" "{ns: ${max}0, source: s}" .ns 5 ;;
		'{'* | '['*)
			bad "$sec" "$key" 5 ;;
		cpulist)
			bad "$sec" "$key" 0-100000
			bad "$sec" "$key" abc ;;
		OBJECT.FIELD | LOCK)
			bad "$sec" "$key" nosuch.a
			bad "$sec" "$key" "[a]" ;;
		map | list | profile | 'cgroup paths') ;; # read by their own code
		*)
			fail "$sec.$key: a type this test does not know: $type" ;;
		esac
	done <"$tmp/sec-$sec.tsv"
done
test "$nr_other" -ge 60 ||
	fail "the sections besides kernel list only $nr_other keys"

if test "$failures" -ne 0; then
	echo "$failures failure(s) in $0 ($nr kernel keys, $nr_other others)"
	exit 1
fi
