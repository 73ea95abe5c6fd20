#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-explain.sh - explain's verdict per hot line follows the access
# kinds of the line's fields, and its field table names the functions that
# made the accesses, on scenarios whose answer is known:
#
# 1. teaching/false-sharing.yaml -v packed: eight counters in one line,
#    each RMWed by its own CPU: FALSE SHARING (pad them); -v padded: each
#    counter alone, the line never moves. No function rows: the teaching
#    workloads run no modelled kernel function.
# 2. validation/charge-batch-2022.yaml -v 6.0-rc1 (v6.0's page_counter
#    layout: usage, min, low, high, max on the memcg's first line, next to
#    css.parent; the protection fields on the second):
#    - memcg(/top/mid/leaf) line 0: css.parent is loaded by every
#      socket-pressure walk (mem_cgroup_under_socket_pressure, twice per
#      operation) and
#      max, min, low by every charge, but only usage is written (an RMW
#      per page_counter charge and uncharge). The loads cost most of the
#      wait: FALSE SHARING OF READ-MOSTLY FIELDS, move memory.usage to its
#      own line (what v6.1's layout, variant +B, does). It is not TRUE
#      SHARING with batching as the remedy (the verdict before). Its
#      rows: css.parent's top function is mem_cgroup_under_socket_pressure;
#      usage's RMWs come from page_counter_try_charge and
#      page_counter_cancel (page_counter_uncharge's per-level step).
#    - memcg(/top) line 1: min_usage and low_usage are xchg()ed by
#      propagate_protected_usage on every charge and uncharge from all
#      CPUs: TRUE SHARING, with the advice to write less often.
# 3. the same with -v +B, its 8 busiest lines (with the spatial
#    prefetcher the pairs of / and /top/mid rank first): usage alone on
#    its line, only RMWed and loaded: memcg(/top/mid/leaf) line 1 is TRUE
#    SHARING of memory.usage.
# 4. lines are named by the cgroup's path (see below).
# 5. the function table splits self time into insn and mem/wait (issue
#    13): on every row insn + mem/wait = self (to the rounding of the
#    printed percentages), and the instruction time per call of the stock
#    hit is models/kernel/sim/insn-costs-6.1.tsv's count at skx-2s-72's insn
#    latency of 0.471 ns: try_charge_memcg/call 39 x 0.471 = 18.369 ns,
#    printed 18.4 ns; consume_stock/call 13 x 0.471 = 6.123 ns, 6.1 ns.
# 6. CPUs that run no task are [no task], not [other] (ux-review-3
#    finding 6): 2 netperf pairs on CPUs 0-7 leave 4 of the 8 CPUs
#    without a task for the whole run, 4/8 = 50% of the time, a little
#    less since a running task's last operation ends after the run's end
#    (49.9 to 50), in explain's table and in the results' functions;
#    false-sharing, which
#    runs no modelled function, says so instead of a one-row table.
# 7. the spatial prefetcher's share of a line's moves (issue 29's
#    diagnosis needed it): teaching/adjacent-line.yaml, two counters
#    each lock-added by two CPUs. -v pair (one 128-byte pair): every
#    demand miss of one line asks the prefetcher for the other, so on
#    each line the prefetches served plus dropped are at most the other
#    line's demand misses (its moves less its own prefetches), the
#    demand moves are at most its RMWs, and with 100 ns of work between
#    adds some prefetches find the line free (served > 0); -v
#    pair-saturated (20 ns): the lines are always queued on, every
#    prefetch is dropped (0 served, some dropped); -v apart (128 bytes
#    apart): no line has a placed pair line, so no prefetch and no
#    sentence.
#
# Environment: MEMCGSIM (the program) and top_srcdir, both set by
# `make check`. Quiet on success; each failure is explained on stdout.
set -eu

: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-explain.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

failures=0
fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# The paragraph of explain's output about line NAME, in FILE.
block()
{
	awk -v name="$1" '
		/^[0-9]+\. / { on = index($0, ". " name ": ") > 0 }
		/^$/ { on = 0 }
		on' "$2"
}

# expect FILE LINE TEXT: the block of LINE in FILE holds TEXT.
expect()
{
	block "$2" "$1" | tr '\n' ' ' | tr -s ' ' >"$tmp/block"
	grep -qF -- "$3" "$tmp/block" ||
		fail "$(basename "$1") '$2': no '$3' in: $(cut -c1-300 "$tmp/block")"
}

# refuse FILE LINE TEXT: the block of LINE in FILE does not hold TEXT.
refuse()
{
	block "$2" "$1" | tr '\n' ' ' | tr -s ' ' >"$tmp/block"
	[ -s "$tmp/block" ] || fail "$(basename "$1"): no line '$2'"
	! grep -qF -- "$3" "$tmp/block" ||
		fail "$(basename "$1") '$2': '$3' should not be there"
}

# The function rows under FIELD in the block of LINE: "name reads writes
# rmws misses", one a line (a name longer than its column is alone on its
# row, its numbers on the next, which this leaves out).
callers()
{
	block "$2" "$1" | awk -v field="$3" '
		/^    [^ ]/ { on = ($1 == field); next }
		on && /^      [^ ]/ { print }'
}

fs="$top_srcdir/scenarios/teaching/false-sharing.yaml"
cb="$top_srcdir/scenarios/validation/charge-batch-2022.yaml"

# ---- 1. teaching: false sharing ----
"$MEMCGSIM" explain "$fs" -q -v packed --lines 1 >"$tmp/packed.txt"
expect "$tmp/packed.txt" "packed line 0" "Why: FALSE SHARING. No two CPUs"
refuse "$tmp/packed.txt" "packed line 0" "by function"
"$MEMCGSIM" explain "$fs" -q -v padded --lines 1 >"$tmp/padded.txt"
expect "$tmp/padded.txt" "padded line 0" "Why: the line never moved"

# ---- 2. charge-batch-2022, 6.0-rc1 ----
"$MEMCGSIM" explain "$cb" -q -v 6.0-rc1 --lines 4 >"$tmp/rc1.txt"
l="memcg(/top/mid/leaf) line 0"
expect "$tmp/rc1.txt" "$l" "Why: FALSE SHARING OF READ-MOSTLY FIELDS."
expect "$tmp/rc1.txt" "$l" "fields that are hardly ever written: css.parent ("
expect "$tmp/rc1.txt" "$l" "Move memory.usage to a line of its own"
refuse "$tmp/rc1.txt" "$l" "TRUE SHARING."
expect "$tmp/rc1.txt" "$l" "field, by function"
callers "$tmp/rc1.txt" "$l" css.parent >"$tmp/rows"
[ "$(head -1 "$tmp/rows" | awk '{ print $1 }')" = \
	mem_cgroup_under_socket_pressure ] ||
	fail "$l: css.parent's first function: $(head -1 "$tmp/rows")"
callers "$tmp/rc1.txt" "$l" memory.usage |
	awk '$4 > 0 { print $1 }' | sort >"$tmp/rmw"
printf 'page_counter_cancel\npage_counter_try_charge\n' >"$tmp/want"
cmp -s "$tmp/rmw" "$tmp/want" ||
	fail "$l: memory.usage's RMWs from: $(tr '\n' ' ' <"$tmp/rmw")"
l="memcg(/top) line 1"
expect "$tmp/rc1.txt" "$l" "Why: TRUE SHARING."
expect "$tmp/rc1.txt" "$l" "memory.low_usage ("
expect "$tmp/rc1.txt" "$l" "memory.min_usage ("
expect "$tmp/rc1.txt" "$l" "skip a write that would not change the value"
callers "$tmp/rc1.txt" "$l" memory.min_usage | awk '{ print $1 }' >"$tmp/rows"
[ "$(cat "$tmp/rows")" = propagate_protected_usage ] ||
	fail "$l: memory.min_usage's functions: $(tr '\n' ' ' <"$tmp/rows")"

# the socket backlogs: the shares explain gives are the run's metrics
grep -q "^Socket backlogs (netperf, backlog: auto): " "$tmp/rc1.txt" ||
	fail "6.0-rc1: no socket backlog paragraph"
seg=$(sed -n 's/.*data segments, [0-9]* (\([0-9.]*\)%) arrived while$/\1/p' \
	"$tmp/rc1.txt")
met=$("$MEMCGSIM" run "$cb" -q -v 6.0-rc1 -f csv | grep -v '^#' | awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == "backlog_share_segments") c = i }
	NR == 2 { printf "%.1f", $c }')
[ -n "$seg" ] && [ "$seg" = "$met" ] ||
	fail "6.0-rc1: explain's segments backlogged '$seg' vs the metric '$met'"
"$MEMCGSIM" explain "$cb" -q -v 6.0-rc1 --lines 0 \
	--set workloads.0.backlog=never >"$tmp/never.txt"
grep -q "^Socket backlogs (netperf, backlog: never): 0.0% of the packets" \
	"$tmp/never.txt" || fail "backlog: never: packets backlogged"

# ---- 3. +B: usage alone ----
"$MEMCGSIM" explain "$cb" -q -v +B --lines 8 >"$tmp/b.txt"
l="memcg(/top/mid/leaf) line 1"
expect "$tmp/b.txt" "$l" "Why: TRUE SHARING."
expect "$tmp/b.txt" "$l" "fields that several CPUs write: memory.usage ("
refuse "$tmp/b.txt" "$l" "READ-MOSTLY"

# ---- 4. hot lines are named by cgroup path ----
# Two cgroups named leaf under /x and /y.z (a dot in a cgroup name), and a
# path of 38 bytes, longer than the 32 an object's name has room for
# after "memcg(" and ")": it keeps its last levels after "...", cut at a
# '/': ".../bbbbbbbbbb/cccccccccc/leaf". Each leaf's first line holds
# css.parent first, whatever dots its name has.
cat >"$tmp/names.yaml" <<'EOF2'
scenario: names
seed: 1
machine: skx-2s-72
duration_ms: 0.1
cgroups:
  /x: {memory.min: 1M}
  /x/leaf: {}
  /y.z: {memory.min: 1M}
  /y.z/leaf: {}
  /aaaaaaaaaa: {}
  /aaaaaaaaaa/bbbbbbbbbb: {}
  /aaaaaaaaaa/bbbbbbbbbb/cccccccccc: {}
  /aaaaaaaaaa/bbbbbbbbbb/cccccccccc/leaf: {}
workloads:
  - {type: netperf, instances: 2, message_bytes: 10240, cgroup: /x/leaf,
     cpus: "0-1,18-19", work_ns: 3000}
  - {type: netperf, instances: 2, message_bytes: 10240, cgroup: /y.z/leaf,
     cpus: "4-5,22-23", work_ns: 3000}
  - {type: netperf, instances: 2, message_bytes: 10240,
     cgroup: /aaaaaaaaaa/bbbbbbbbbb/cccccccccc/leaf,
     cpus: "8-9,26-27", work_ns: 3000}
EOF2
"$MEMCGSIM" run "$tmp/names.yaml" -q -f yaml --lines 64 >"$tmp/names.out" ||
	fail "names.yaml did not run"
for l in "memcg(/x/leaf) line 0" "memcg(/y.z/leaf) line 0" \
	"memcg(.../bbbbbbbbbb/cccccccccc/leaf) line 0"; do
	grep -A12 "name: '$l'" "$tmp/names.out" |
		grep -q "fields: css.parent id memory.usage" ||
		fail "no hot line '$l' with its fields: $(grep -c "name: 'memcg" "$tmp/names.out") memcg lines"
done
! grep -q "memcg(leaf)" "$tmp/names.out" || fail "a line is named memcg(leaf)"

# ---- 5. insn and mem/wait ----
"$MEMCGSIM" explain "$cb" -q -v +A+B+C --lines 0 >"$tmp/abc.txt"
grep -q "self    insn mem/wait  children   calls/op insn/call  function" \
	"$tmp/abc.txt" || fail "no insn and mem/wait columns"
awk '/insn\/call  function/ { on = 1; next } on && NF == 0 { on = 0 }
	on && $1 ~ /%$/ {
		d = $1 + 0 - ($2 + 0) - ($3 + 0)
		if (d > 0.011 || d < -0.011) print $NF ": " $0
	}' "$tmp/abc.txt" >"$tmp/sum"
[ ! -s "$tmp/sum" ] || fail "insn + mem/wait != self: $(cat "$tmp/sum")"
grep -Eq " 18\.4 ns  try_charge_memcg\$" "$tmp/abc.txt" ||
	fail "try_charge_memcg's insn/call: $(grep ' try_charge_memcg$' "$tmp/abc.txt")"
grep -Eq " 6\.1 ns  consume_stock\$" "$tmp/abc.txt" ||
	fail "consume_stock's insn/call: $(grep ' consume_stock$' "$tmp/abc.txt")"

# ---- 6. CPUs without a task ----
"$MEMCGSIM" explain "$cb" -q -v 6.0-rc1 --lines 0 --set workloads.0.instances=2 \
	--set workloads.0.cpus=0-7 --set duration_ms=0.2 >"$tmp/idle.txt"
awk '/ \[no task\]$/ { v = $1 + 0; ok = v >= 49.9 && v <= 50 } END { exit !ok }' \
	"$tmp/idle.txt" ||
	fail "4 of 8 CPUs without a task: no [no task] of 50%: $(grep -A3 'calls/op' "$tmp/idle.txt")"
grep -Eq "^ +[1-9][0-9.]*% .* \[other\]\$" "$tmp/idle.txt" &&
	fail "CPUs without a task: [other] over 1%: $(grep '\[other\]' "$tmp/idle.txt")"
"$MEMCGSIM" run "$cb" -q -v 6.0-rc1 --set workloads.0.instances=2 \
	--set workloads.0.cpus=0-7 --set duration_ms=0.2 -f yaml |
	awk '/name: .\[no task\]./ { getline; v = $2 + 0; ok = v >= 49.9 && v <= 50 }
		END { exit !ok }' ||
	fail "run -f yaml: the functions have no [no task] of 50%"
"$MEMCGSIM" explain "$top_srcdir/scenarios/teaching/false-sharing.yaml" -q \
	-v packed --lines 0 >"$tmp/fsf.txt"
grep -q "^Time by kernel function: none, the workload runs no modelled kernel\$" \
	"$tmp/fsf.txt" || fail "false-sharing: no line saying no function is modelled"
grep -q "\[other\]" "$tmp/fsf.txt" && fail "false-sharing: a function table of [other]"

# ---- 7. the spatial prefetcher's moves ----
al="$top_srcdir/scenarios/teaching/adjacent-line.yaml"
# pf FILE LINE: "moves rmws served dropped" of LINE's block
pf()
{
	block "$2" "$1" | tr '\n' ' ' | tr -s ' ' | awk '{
		for (i = 1; i <= NF; i++) {
			if ($i == "accesses:") a = 1
			if (a == 1 && $i == "atomic" && $(i + 1) == "RMWs.") {
				r = $(i - 1); a = 2
			}
			if ($i == "moved") m = $(i + 1)
			if ($i == "were" && $(i + 2) == "spatial") s = $(i - 4)
			if ($i == "dropped" && $(i - 1) == "were") d = $(i - 3)
		}
		print m + 0, r + 0, s + 0, d + 0 }'
}
"$MEMCGSIM" explain "$al" -q -v pair --lines 2 >"$tmp/pair.txt"
set -- $(pf "$tmp/pair.txt" "pair line 0") $(pf "$tmp/pair.txt" "pair line 1")
# $1..$4: line 0's moves, RMWs, served, dropped; $5..$8: line 1's
[ "$3" -gt 0 ] && [ "$7" -gt 0 ] ||
	fail "pair: no prefetch served: line 0 $*"
[ $(($3 + $4)) -le $(($5 - $7)) ] && [ $(($7 + $8)) -le $(($1 - $3)) ] ||
	fail "pair: prefetches past the other line's demand misses: $*"
[ $(($1 - $3)) -le "$2" ] && [ $(($5 - $7)) -le "$6" ] ||
	fail "pair: demand moves past the RMWs: $*"
"$MEMCGSIM" explain "$al" -q -v pair-saturated --lines 2 >"$tmp/pairsat.txt"
set -- $(pf "$tmp/pairsat.txt" "pair line 0") $(pf "$tmp/pairsat.txt" "pair line 1")
[ "$3" = 0 ] && [ "$7" = 0 ] && [ "$4" -gt 0 ] && [ "$8" -gt 0 ] ||
	fail "pair-saturated: prefetches served, or none dropped: $*"
"$MEMCGSIM" explain "$al" -q -v apart --lines 2 >"$tmp/apart.txt"
grep -q "apart line 0: " "$tmp/apart.txt" || fail "apart: no line 0"
grep -q "spatial prefetcher" "$tmp/apart.txt" &&
	fail "apart: a prefetcher sentence without a pair line"

[ "$failures" = 0 ] || exit 1
