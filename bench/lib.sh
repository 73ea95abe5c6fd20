# SPDX-License-Identifier: GPL-2.0-only
#
# bench/lib.sh - the contended-counter benchmark that bench/peers.sh,
# bench/insns.sh and bench/wall.sh run in memcgsim: N CPUs, K shared
# counters; every CPU loops { think for an exponential time of mean
# COUNTER_THINK_NS; pick a counter uniformly; a locked RMW on it }, on
# skx-2s-72 (N <= 72) or epyc-2s-256; and the check of the build
# directories the scripts compare (bench/scale.sh too), and the arguments
# of insns.sh and perf.sh. Sourced, not run.

COUNTER_THINK_NS=500
COUNTER_HOLD_NS=100 # the peers' mutex hold time, for the sizing below

# counter_ms N K ATOMICS: simulated ms for about ATOMICS atomics if an RMW
# held its counter for COUNTER_HOLD_NS (the peers' model; memcgsim's own
# hand-offs are slower, so it does fewer in that time)
counter_ms()
{
	awk -v n="$1" -v k="$2" -v a="$3" -v t=$COUNTER_THINK_NS \
		-v h=$COUNTER_HOLD_NS 'BEGIN {
		r = n / (t + h); if (k / h < r) r = k / h
		printf "%.3f", a / r / 1e6
	}'
}

# counter_yaml FILE NAME N K MS SEED [MACHINE]: write the scenario to
# FILE; MACHINE by default skx-2s-72 for N <= 72, else epyc-2s-256
counter_yaml()
{
	_machine=skx-2s-72
	test "$3" -le 72 || _machine=epyc-2s-256
	test $# -lt 7 || _machine=$7
	cat >"$1" <<-EOT
	scenario: $2
	seed: $6
	machine: $_machine
	duration_ms: $5
	warmup_ms: 0
	workloads:
	  - {type: atomic_counter, cpus: 0-$(($3 - 1)), counters: $4, think_ns: $COUNTER_THINK_NS, think: exponential}
	EOT
}

# builds_check SCRIPT BUILD...: each BUILD has a tests/bench, or exit 2
builds_check()
{
	_script=$1
	shift
	for _b in "$@"; do
		if ! test -x "$_b/tests/bench"; then
			echo "$_script: $_b/tests/bench: not built" \
				"(make tests/bench there)" >&2
			exit 2
		fi
	done
}

# bench_args SCRIPT N0 K0 TOOL PACKAGE ARGS...: the arguments BENCH [N K]
# of insns.sh and perf.sh, in bench, n and k (N0 and K0 when not given),
# or exit 2 with a usage line; also when TOOL (Debian's PACKAGE) is not
# installed
bench_args()
{
	_script=$1
	_n0=$2
	_k0=$3
	_tool=$4
	_pkg=$5
	shift 5
	if test $# -ne 1 && test $# -ne 3; then
		echo "usage: $_script BENCH [N K]" >&2
		exit 2
	fi
	bench=$1
	n=${2:-$_n0}
	k=${3:-$_k0}
	case $n$k in
	'' | *[!0-9]*) echo "$_script: N and K are numbers" >&2; exit 2 ;;
	esac
	if ! command -v "$_tool" >/dev/null 2>&1; then
		echo "$_script: needs $_tool (on Debian: apt-get install $_pkg)" >&2
		exit 2
	fi
}

# SIM_STAT_EXACT (sim/stats.h): past this many samples a run folds its
# latencies into a histogram and skips the exact quantiles at its end
STAT_EXACT=1048576

# exact_guard SCRIPT A1 A2: the two runs of a marginal pair (A1 and A2
# atomics) must be on the same side of STAT_EXACT, or the difference
# credits the longer run with the cheaper statistics; else exit 2
exact_guard()
{
	if { test "$2" -lt $STAT_EXACT && test "$3" -ge $STAT_EXACT; } ||
		{ test "$2" -ge $STAT_EXACT && test "$3" -lt $STAT_EXACT; }; then
		echo "$1: the pair's runs ($2 and $3 atomics) straddle" \
			"$STAT_EXACT exact latency samples: choose other lengths" >&2
		exit 2
	fi
}

# callgrind_ir OUT_PREFIX CMD...: run CMD under callgrind (children
# followed) and print the instructions of its largest profile (a forking
# program's child)
callgrind_ir()
{
	_p=$1
	shift
	valgrind --tool=callgrind --trace-children=yes \
		--callgrind-out-file="$_p.cg.%p" "$@" >"$_p.out" 2>"$_p.err" ||
		{ echo "callgrind: $*: failed" >&2; sed 's/^/	/' "$_p.err" >&2; exit 1; }
	grep -E '^(summary|totals):' "$(ls -S "$_p".cg.* | head -n 1)" |
		head -n 1 | awk '{ print $2 }'
}

# peers_find TMP SRCDIR: build the SimGrid peer into TMP and find a Python
# with SimPy, in simgrid and simpy (empty, with a line saying how to get
# it, when missing): bench/peers.sh and bench/peers-insns.sh
peers_find()
{
	simgrid=
	if ${CXX:-c++} -O2 -o "$1/simgrid_counter" \
		"$2/bench/simgrid_counter.cpp" -lsimgrid >"$1/cxx.log" 2>&1; then
		simgrid=$1/simgrid_counter
	else
		echo "SimGrid: skipped (no libsimgrid-dev or no C++ compiler;" \
			"on Debian: apt-get install libsimgrid-dev g++)"
	fi
	simpy=
	for _py in ${PYTHON:-} /usr/bin/python3 python3; do
		if "$_py" -c 'import simpy' >/dev/null 2>&1; then
			simpy=$_py
			break
		fi
	done
	test -n "$simpy" ||
		echo "SimPy: skipped (not found; on Debian: apt-get install python3-simpy3)"
}
