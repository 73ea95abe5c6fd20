#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-determinism.sh - same inputs, same bytes (HACKING.md G8).
#
#  1. A scenario run twice gives byte-identical YAML and CSV (among them
#     will-it-scale-small: page_fault2/3, fallocate, tlb_flush).
#  2. --replications 3 run twice gives byte-identical YAML.
#  3. tests/data/random-think.yaml (exponential think times, a random
#     choice of counter): the same --seed reproduces the results, another
#     --seed changes them, and the seed is the one reported.
#  4. The Chrome trace (--trace FILE) of a run is byte-identical twice and
#     is valid JSON (checked with python3 -m json.tool when python3 is
#     there; skipped otherwise). Writing the trace does not change the
#     results.
#  5. --out FILE writes exactly what stdout would have shown.
#  6. The memcg charge path: a netperf scenario (seeded pair placement)
#     gives the same bytes twice, another seed changes it, and a variant
#     run alone gives the numbers it gives in the full run (variants do
#     not share state).
#  7. The scheduler (netperf sched: fair, the same scenario: its pairs
#     straddle the sockets): the same bytes twice, results and trace;
#     a sweep gives the same sweep.csv with -j 1 and -j 2; the trace has
#     the tasks' migrations and the softirq work, each named with the
#     CPU it ran on.
#
# Environment: MEMCGSIM (the program) and top_srcdir, both set by
# `make check`. Quiet on success.
set -eu

: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"

case $MEMCGSIM in
/*) ;;
*) MEMCGSIM=$(pwd)/$MEMCGSIM ;;
esac
data=$(cd "$top_srcdir/tests/data" && pwd)
teaching=$(cd "$top_srcdir/scenarios/teaching" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-det.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

failures=0
fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# sim OUT ARGS...: memcgsim ARGS > OUT; a failure to run is a test failure,
# and so is no output unless $quiet_ok.
quiet_ok=false
sim()
{
	out=$1
	shift
	rc=0
	"$MEMCGSIM" "$@" --quiet >"$out" 2>"$tmp/err" || rc=$?
	if test "$rc" -ne 0; then
		fail "memcgsim $*: exit status $rc"
		sed 's/^/	/' "$tmp/err"
		: >"$out"
		return 1
	fi
	if ! test -s "$out" && ! $quiet_ok; then
		fail "memcgsim $*: no output"
		return 1
	fi
	return 0
}

# same WHAT A B: A and B must be byte-identical.
same()
{
	cmp -s "$2" "$3" && return 0
	fail "$1: two runs differ:"
	diff -u "$2" "$3" | head -40 | sed 's/^/	/' || :
	return 1
}

# ---- 1. twice the same ----

for scen in "$teaching/false-sharing.yaml" "$data/random-think.yaml" \
	"$data/netperf-small.yaml" "$data/stats-small.yaml" \
	"$data/will-it-scale-small.yaml" "$data/kmalloc-small.yaml" \
	"$data/netperf-sctp-small.yaml"; do
	for fmt in yaml csv; do
		sim "$tmp/a.$fmt" run "$scen" --format "$fmt" || continue
		sim "$tmp/b.$fmt" run "$scen" --format "$fmt" || continue
		same "run ${scen##*/} --format $fmt" "$tmp/a.$fmt" "$tmp/b.$fmt"
	done
done

# ---- 2. replications ----

r=$data/random-think.yaml
if sim "$tmp/r1" run "$r" --format yaml --replications 3 &&
	sim "$tmp/r2" run "$r" --format yaml --replications 3; then
	same "run random-think.yaml --replications 3" "$tmp/r1" "$tmp/r2"
	grep '^replications: 3$' "$tmp/r1" >/dev/null ||
		fail "run random-think.yaml --replications 3: no 'replications: 3' in the YAML"
	# Three seeds: a confidence interval that is not zero somewhere.
	grep 'ci95: [1-9]' "$tmp/r1" >/dev/null ||
		grep 'ci95: 0\.[0-9]*[1-9]' "$tmp/r1" >/dev/null ||
		fail "run random-think.yaml --replications 3: every ci95 is 0; are the replications' seeds the same?"
fi

# ---- 3. seeds ----

if sim "$tmp/s7a" run "$r" --format csv --seed 7 &&
	sim "$tmp/s7b" run "$r" --format csv --seed 7 &&
	sim "$tmp/s8" run "$r" --format csv --seed 8 &&
	sim "$tmp/s42" run "$r" --format csv; then
	same "run random-think.yaml --seed 7" "$tmp/s7a" "$tmp/s7b"
	cmp -s "$tmp/s7a" "$tmp/s8" &&
		fail "run random-think.yaml: --seed 7 and --seed 8 give the same results; is the seed used?"
	cmp -s "$tmp/s7a" "$tmp/s42" &&
		fail "run random-think.yaml: --seed 7 and the scenario's seed 42 give the same results"
fi
if sim "$tmp/y7" run "$r" --format yaml --seed 7 &&
	sim "$tmp/y42" run "$r" --format yaml --seed 42 &&
	sim "$tmp/ydef" run "$r" --format yaml; then
	grep '^seed: 7$' "$tmp/y7" >/dev/null ||
		fail "run random-think.yaml --seed 7 --format yaml: the seed reported is not 7"
	same "run random-think.yaml: --seed 42 and the scenario's seed 42" \
		"$tmp/y42" "$tmp/ydef"
fi

# ---- 4. the trace ----

s=$data/small.yaml
if sim "$tmp/t1.csv" run "$s" --format csv --trace "$tmp/t1.json" &&
	sim "$tmp/t2.csv" run "$s" --format csv --trace "$tmp/t2.json" &&
	sim "$tmp/t0.csv" run "$s" --format csv; then
	if ! test -s "$tmp/t1.json"; then
		fail "run small.yaml --trace: no trace written"
	else
		same "run small.yaml --trace (the trace)" "$tmp/t1.json" "$tmp/t2.json"
		same "run small.yaml with and without --trace (the results)" \
			"$tmp/t0.csv" "$tmp/t1.csv"
		if command -v python3 >/dev/null 2>&1; then
			if ! python3 -m json.tool "$tmp/t1.json" >/dev/null 2>"$tmp/json.err"; then
				fail "run small.yaml --trace: the trace is not valid JSON:"
				sed 's/^/	/' "$tmp/json.err"
			fi
		fi
	fi
fi

# ---- 5. --out ----

if sim "$tmp/stdout.yaml" run "$s" --format yaml &&
	quiet_ok=true &&
	sim "$tmp/none" run "$s" --format yaml --out "$tmp/out.yaml"; then
	quiet_ok=false
	test -s "$tmp/none" && fail "run --out: also wrote to stdout"
	same "run small.yaml: --out and stdout" "$tmp/stdout.yaml" "$tmp/out.yaml"
fi

# ---- 6. the charge path ----

n=$data/netperf-small.yaml
if sim "$tmp/n1.csv" run "$n" --format csv &&
	sim "$tmp/n2.csv" run "$n" --format csv --seed 3 &&
	sim "$tmp/nv.csv" run "$n" --format csv --variant batch64; then
	cmp -s "$tmp/n1.csv" "$tmp/n2.csv" &&
		fail "run netperf-small.yaml: --seed 3 gives the scenario seed's results; is the placement seeded?"
	# every column but change_pct (4th), which needs the baseline
	grep '^batch64,' "$tmp/n1.csv" | cut -d, -f1-3,5- >"$tmp/nfull"
	grep '^batch64,' "$tmp/nv.csv" | cut -d, -f1-3,5- >"$tmp/nalone"
	test -s "$tmp/nfull" ||
		fail "run netperf-small.yaml: no batch64 row in the CSV"
	same "run netperf-small.yaml: variant batch64 alone and in the full run" \
		"$tmp/nfull" "$tmp/nalone"
fi

# ---- 7. the scheduler ----

if sim "$tmp/f1.csv" run "$n" --format csv --set workloads.0.sched=fair \
	--trace "$tmp/f1.json" &&
	sim "$tmp/f2.csv" run "$n" --format csv --set workloads.0.sched=fair \
		--trace "$tmp/f2.json"; then
	same "run netperf-small.yaml sched=fair" "$tmp/f1.csv" "$tmp/f2.csv"
	same "run netperf-small.yaml sched=fair (the trace)" "$tmp/f1.json" \
		"$tmp/f2.json"
	# kernel work is an async slice on "cpuN kernel work", named in
	# its "access" argument; a moving task's calls have a track of its own
	grep '"access":"migration"' "$tmp/f1.json" >/dev/null ||
		fail "run netperf-small.yaml sched=fair --trace: no migration in the trace"
	grep '"access":"softirq tcp_data_queue"' "$tmp/f1.json" >/dev/null ||
		fail "run netperf-small.yaml sched=fair --trace: no receive softirq in the trace"
	grep '"name":"task netserver 0"' "$tmp/f1.json" >/dev/null ||
		fail "run netperf-small.yaml sched=fair --trace: no track of netserver 0's own"
fi
quiet_ok=true
for j in 1 2; do
	sim "$tmp/none" sweep "$n" --set workloads.0.sched=fair \
		--vary kernel.stock_memcgs=1,7 -j "$j" --out "$tmp/sw$j" || :
done
quiet_ok=false
if test -s "$tmp/sw1/sweep.csv" && test -s "$tmp/sw2/sweep.csv"; then
	same "sweep netperf-small.yaml sched=fair: -j 1 and -j 2" \
		"$tmp/sw1/sweep.csv" "$tmp/sw2/sweep.csv"
else
	fail "sweep netperf-small.yaml sched=fair: no sweep.csv"
fi
# EEVDF (v6.6 on): deadlines, lag and wake-up preemption, twice the same
if sim "$tmp/e1.csv" run "$n" --format csv --set workloads.0.sched=fair \
	--set kernel.sched_class=eevdf &&
	sim "$tmp/e2.csv" run "$n" --format csv --set workloads.0.sched=fair \
		--set kernel.sched_class=eevdf; then
	same "run netperf-small.yaml sched=fair sched_class=eevdf" \
		"$tmp/e1.csv" "$tmp/e2.csv"
fi

# 8. the shortcuts off, every golden
if test -z "${ASAN_OPTIONS-}"; then
	scen=$(cd "$top_srcdir/scenarios" && pwd)
	golden=$(cd "$top_srcdir/tests/golden" && pwd)
	for f in "$scen"/*/*.yaml; do
		name=${f#"$scen"/}
		name=${name%.yaml}
		case $name in machines/*) continue ;; esac
		rc=0
		MEMCGSIM_SHORTCUTS=0 "$MEMCGSIM" run "$f" --format csv --quiet \
			>"$tmp/plain.csv" 2>"$tmp/err" || rc=$?
		if test "$rc" -ne 0; then
			fail "MEMCGSIM_SHORTCUTS=0 run scenarios/$name.yaml: exit status $rc"
			sed 's/^/	/' "$tmp/err"
			continue
		fi
		cmp -s "$golden/$name.csv" "$tmp/plain.csv" && continue
		if ! "$MEMCGSIM" compare "$golden/$name.csv" "$tmp/plain.csv" \
			>"$tmp/compare" 2>&1 ||
			! grep -q ' 0 of [0-9]* values changed' "$tmp/compare"; then
			fail "scenarios/$name.yaml: the shortcuts change its results:"
			sed 's/^/	/' "$tmp/compare"
			diff -u "$golden/$name.csv" "$tmp/plain.csv" |
				head -20 | sed 's/^/	/' || :
		fi
	done
fi

if test "$failures" -gt 0; then
	echo "$failures failure(s) in $0"
	exit 1
fi
exit 0
