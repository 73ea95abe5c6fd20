#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-check.sh - what a run will cost, before it runs (issue 14,
# items 4 and 5; issue 16, item 6), and the clean failures around it:
#
# 1. memcgsim check SCENARIO...: exit 0 and an estimate row per variant
#    (as many as the file names) and an "all" row; a bad scenario: exit
#    2 and its file:line:col error, the good ones' tables still printed.
# 2. run --dry-run and sweep --dry-run: the estimate (sweep: a row per
#    point and variant, and the total), exit 0, and no file written: not
#    -o, not --trace, not the sweep's directory. The columns line up
#    under the header, however long a point's label.
# 3. --max-memory: a scenario estimated past the limit is refused before
#    anything is allocated (at once, exit 2, the flag named); the flag
#    raises the limit; the default refuses 4094 cgroups with the stats
#    item counts at their maxima (5 GB).
# 4. An allocation that fails (under ulimit -v, with --max-memory 0 so
#    the estimate lets the run start) is "out of memory while ...",
#    exit 2: no abort, no core, no BUG.
# 5. Progress and note lines escape the names they show (an ESC in a
#    sweep directory's name).
# 6. compare on a FIFO is refused at once, not blocked on.
#
# Environment: MEMCGSIM (the program) and top_srcdir, both set by
# `make check`. Quiet on success; each failure is explained on stdout.
set -eu

: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"

top=$(cd "$top_srcdir" && pwd)
. "$top/tests/lib.sh"
test_setup check
bad=$top/tests/bad
data=$top/tests/data

status_is()
{
	test "$rc" -eq "$2" && return 0
	fail "$1: exit status $rc, expected $2: $(head -c 400 "$tmp/err")"
	return 1
}

# rows_of FILE: the estimate rows of a table (name, runs, events, work,
# memory ...), header and "all" aside.
rows_of()
{
	grep -E '^  [^ ].* +[0-9]+ +[0-9.e+]+ +[0-9.e+]+ +[0-9.]+ [KMGT]?i?B ' "$1" |
		grep -v '^  all ' | grep -c . || :
}

# ---- 1. check ----

sc=$top/scenarios
for f in teaching/atomic-counter.yaml validation/charge-batch-2022.yaml; do
	# the variants, counted in the file itself
	want=$(grep -c '^  - {*name: ' "$sc/$f")
	run "$sc" check "$f"
	status_is "check $f" 0 || continue
	test "$(sed -n 1p "$tmp/out")" = "$f:" ||
		fail "check $f: first line '$(sed -n 1p "$tmp/out")'"
	got=$(rows_of "$tmp/out")
	test "$got" -eq "$want" ||
		fail "check $f: $got estimate rows, expected $want (one a variant)"
	grep -q "^  all  *$want " "$tmp/out" ||
		fail "check $f: no 'all' row of $want runs: $(tail -1 "$tmp/out")"
	test -s "$tmp/err" && fail "check $f: wrote to stderr: $(cat "$tmp/err")"
done

# Two at once with a bad one between: exit 2, the bad one's located
# error (its .expect), the good ones' tables all the same.
run "$bad" check "$sc/teaching/false-sharing.yaml" model-cpus-empty.yaml \
	"$sc/teaching/batching.yaml"
status_is "check good bad good" 2
test "$(cat "$tmp/err")" = "$(cat "$bad/model-cpus-empty.expect")" ||
	fail "check model-cpus-empty.yaml: '$(cat "$tmp/err")'"
test "$(grep -c '^  all ' "$tmp/out")" -eq 2 ||
	fail "check good bad good: not two tables: $(cat "$tmp/out")"
run "$bad" check
status_is "check (nothing)" 2
run "$bad" check "$sc/teaching/batching.yaml" --trace x.json
status_is "check --trace" 2

# ---- 2. --dry-run ----

mkdir "$tmp/dry"
run "$tmp/dry" run "$data/small.yaml" --dry-run -o out.csv --trace t.json
status_is "run --dry-run" 0
test -z "$(ls -A "$tmp/dry")" ||
	fail "run --dry-run wrote files: $(ls -A "$tmp/dry")"
want=$(grep -c '^  - {*name: ' "$data/small.yaml")
test "$(rows_of "$tmp/out")" -eq "$want" ||
	fail "run --dry-run: not $want rows: $(cat "$tmp/out")"
grep -q ' trace$' "$tmp/out" || fail "run --dry-run --trace: no trace column"
# every variant that runs is traced: a size on every row
test "$(grep -c ' -$' "$tmp/out")" -eq 0 ||
	fail "run --dry-run --trace: a variant without its trace's size"
run "$tmp/dry" run "$data/small.yaml" -n --variant batch4 --replications 3
status_is "run -n --variant --replications" 0
grep -q '^  batch4  *3 ' "$tmp/out" ||
	fail "run -n --replications 3: no row of 3 runs: $(cat "$tmp/out")"

# sweep: 2 seeds x 2 variants = 4 rows, the total, the time on 2 jobs;
# DIR is not created (nor sweep.meta)
run "$tmp/dry" sweep "$data/sweep-small.yaml" --vary seed=1,2 -o sw \
	--dry-run -j 2
status_is "sweep --dry-run" 0
test -z "$(ls -A "$tmp/dry")" ||
	fail "sweep --dry-run wrote files: $(ls -A "$tmp/dry")"
test "$(grep -c '^  [01] seed=[12] batch' "$tmp/out")" -eq 4 ||
	fail "sweep --dry-run: not 4 point rows: $(cat "$tmp/out")"
grep -q '^  all  *4 ' "$tmp/out" || fail "sweep --dry-run: no total of 4 runs"
grep -q '^  on 2 jobs: about ' "$tmp/out" || fail "sweep --dry-run: no time"
# The columns line up under their header whatever the labels' width
# (ux-review-3 finding 19): small.yaml's "0 workloads.0.think_ns=10
# batch1" is 32 characters, past the 28 of a variant column, so every
# row's runs count ends where the header's "runs" does.
run "$tmp/dry" sweep "$data/small.yaml" --vary workloads.0.think_ns=10,20 \
	-o sw --dry-run
status_is "sweep --dry-run of a longer key" 0
awk 'NR == 2 { end = index($0, "runs") + 3; next }
	/^  [0-9a]/ { if (substr($0, end, 1) !~ /[0-9]/ || substr($0, end + 1, 1) != " ") bad = 1; n++ }
	END { exit bad || n != 5 }' "$tmp/out" ||
	fail "sweep --dry-run: the runs column is not under its header: $(cat "$tmp/out")"

# ---- 3. --max-memory ----

# stats-small.yaml is estimated at some 6 MiB (the program alone is 4.5):
# refused under 1M before anything runs, allowed under 64M and with 0.
run "$data" run stats-small.yaml --max-memory 1M -f csv
status_is "run --max-memory 1M" 2
grep -q 'more than the limit of 1.0 MiB; raise it with --max-memory SIZE' \
	"$tmp/err" || fail "--max-memory 1M: $(cat "$tmp/err")"
test -s "$tmp/out" && fail "--max-memory 1M: wrote to stdout"
run "$data" check stats-small.yaml --max-memory 1M
status_is "check --max-memory 1M" 2
run "$data" check stats-small.yaml --max-memory 64M
status_is "check --max-memory 64M" 0
run "$data" run stats-small.yaml --max-memory 64M -f csv
status_is "run --max-memory 64M" 0

# 4094 cgroups with every stats item count at its maximum: 1292 lines of
# statistics per memcg (2 x (2048 + 1024) counters, and 2 nodes of 2 x
# 1024), over 5 GB: the default limit (4G at most) refuses it within the
# time limit, having allocated nothing of it.
header()
{
	echo "scenario: $1"
	echo 'machine: epyc-2s-256'
	echo 'duration_ms: 0.001'
	echo 'warmup_ms: 0'
}
{
	header huge
	echo 'kernel: {lruvec_stat_items: 1024, memcg_stat_items: 2048,'
	echo '         memcg_event_items: 1024}'
	echo 'cgroups:'
	echo '  "/c[1-4094]": {}'
	echo 'workloads:'
	echo '  - {type: page_fault, cgroup: /c1, cpus: 0-255, work_ns: 1000}'
} >"$tmp/huge.yaml"
# (In 200 MB of address space where that is possible, so that a
# regression fails here rather than taking the machine's memory.)
vlimit=:
if (ulimit -v 200000 && "$MEMCGSIM" --version) >/dev/null 2>&1; then
	vlimit="ulimit -v 200000"
fi
rc=0
($vlimit && $limit "$MEMCGSIM" run "$tmp/huge.yaml") \
	>"$tmp/out" 2>"$tmp/err" || rc=$?
status_is "run huge.yaml" 2 &&
	grep -q "huge.yaml:1:1: error: variant 'base': the run would take about [5-9].[0-9] GiB of memory (256 CPUs, 4095 cgroups, 2048+1024 stats items per memcg), more than the limit of" \
		"$tmp/err" || fail "run huge.yaml: $(cat "$tmp/err")"

# A machine of 1 ps latencies (issue 14, item 5): a think_ns 0 counter
# turns over as fast as the latencies let it, so its 0.05 ms take some
# 1e8 events (seconds) where skx-2s-72 takes 2e3: check says so. (The
# estimate scales the memory system's time by xfer_llc / 48 ns.)
fast='machine={name: fast, sockets: 1, cores_per_socket: 4, threads_per_core: 1, latencies: {l1_hit: {ns: 0.001, source: x}, llc_hit: {ns: 0.001, source: x}, memory: {ns: 0.001, source: x}, rmw_local: {ns: 0.001, source: x}, xfer_smt: {ns: 0.001, source: x}, xfer_llc: {ns: 0.001, source: x}, xfer_socket: {ns: 0.001, source: x}, inval_per_sharer: {ns: 0.001, source: x}}}'
run "$data" check small.yaml --set workloads.0.think_ns=0 \
	--set duration_ms=0.05 -v batch1
status_is "check small.yaml" 0
slow=$(awk '$1 == "all" { print $3 }' "$tmp/out")
run "$data" check small.yaml --set workloads.0.think_ns=0 \
	--set duration_ms=0.05 -v batch1 --set "$fast"
status_is "check small.yaml on 1 ps latencies" 0
quick=$(awk '$1 == "all" { print $3 }' "$tmp/out")
awk -v a="$slow" -v b="$quick" 'BEGIN { exit !(a > 0 && b >= 1e4 * a) }' ||
	fail "1 ps latencies: $quick events estimated, against $slow"

# ---- 4. out of memory ----

# 4094 cgroups at the default item counts on 256 CPUs: about 360 MB
# (74 lines a memcg, 256 CPUs x 64 lines, 46 MB of rstat per-CPU
# structures). Allowed by --max-memory 0, run in 150 MB of address space:
# an allocation fails, and that is an error, not an abort.
{
	header big
	echo 'cgroups:'
	echo '  "/c[1-4094]": {}'
	echo 'workloads:'
	echo '  - {type: page_fault, cgroup: /c1, cpus: 0-255, work_ns: 1000}'
} >"$tmp/big.yaml"
if (ulimit -v 150000 && "$MEMCGSIM" --version) >/dev/null 2>&1; then
	rc=0
	(ulimit -v 150000 && ulimit -c 0 &&
		cd "$tmp" && $limit "$MEMCGSIM" run big.yaml --max-memory 0 \
			-f csv) >"$tmp/out" 2>"$tmp/err" || rc=$?
	status_is "big.yaml in 150 MB" 2 &&
		grep -q "^big.yaml: error: out of memory\( while running variant 'base'\| after\)" \
			"$tmp/err" ||
		fail "big.yaml in 150 MB: $(cat "$tmp/err")"
	grep -q 'BUG' "$tmp/err" && fail "big.yaml in 150 MB: a BUG"
	test -s "$tmp/out" && fail "big.yaml in 150 MB: wrote to stdout"
	test -e "$tmp/core" && fail "big.yaml in 150 MB: left a core"
else
	echo "run-check.sh: 'ulimit -v 150000' leaves memcgsim no room here (ASan?); skipping the out-of-memory check"
fi

# ---- 5. escaped progress lines ----

esc=$(printf 'a\033[31mb')
run "$tmp" sweep "$data/sweep-small.yaml" --vary seed=1,2 -o sw
status_is "sweep -o sw" 0
mv "$tmp/sw" "$tmp/$esc"
run "$tmp" merge "$esc"
status_is "merge a<ESC>b" 0
grep -q "$(printf '\033')" "$tmp/err" &&
	fail "merge: an ESC reached the terminal raw: $(cat -v "$tmp/err")"
grep -q 'merged 2 points into a\\x1b\[31mb/sweep.csv' "$tmp/err" ||
	fail "merge: not escaped: $(cat -v "$tmp/err")"

# ---- 6. compare on a FIFO ----

if mkfifo "$tmp/fifo" 2>/dev/null; then
	"$MEMCGSIM" run "$data/small.yaml" -f csv -o "$tmp/r.csv" ||
		fail "run small.yaml -o r.csv"
	run "$tmp" compare fifo r.csv
	case $rc in
	124) fail "compare on a FIFO blocked (killed after 20 s)" ;;
	2) test "$(cat "$tmp/err")" = "fifo: error: cannot open: not a regular file" ||
		fail "compare on a FIFO: $(cat "$tmp/err")" ;;
	*) status_is "compare fifo r.csv" 2 ;;
	esac
fi

test "$failures" -eq 0 || {
	echo "run-check.sh: $failures failure(s)"
	exit 1
}
