#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-idle.sh - a sleep pays the exit latency of the idle state its
# CPU entered (issue 30 item 5), for a workload outside netperf: the
# paced memory.stat reader of tests/data/idle/reader.yaml, on
# tests/data/idle/one-state.yaml (skx-2s-72 with one idle state, exit
# 20 us, residency 1 us).
#
# Each pass reads one memory.stat, taking R us (the run's latency_mean),
# then sleeps 500 us. With cpuidle poll the wake-up is free: a pass every
# R + 500 us. With menu or teo the CPU enters the one state for each
# 500 us sleep (it is worth entering past 1 us; menu's prediction is at
# most the next tick, 1 ms, and at least the sleeps it has seen) and the
# wake-up pays its 20 us exit: a pass every R + 520 us. Throughput is
# passes per second over the 198 ms window, so it is exact to one pass:
# 1 / 0.198 s = 5.05 reads/s.
#
# Environment: MEMCGSIM and top_srcdir, set by `make check`.
set -eu

: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-idle.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
sc=$top_srcdir/tests/data/idle/reader.yaml

failures=0
fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# throughput and latency_mean of the run with kernel.cpuidle=$1
run_idle()
{
	"$MEMCGSIM" run "$sc" -q -f csv --set "kernel.cpuidle=$1" \
		>"$tmp/$1.csv" 2>"$tmp/err" ||
		{ fail "cpuidle $1: $(cat "$tmp/err")"; return 0; }
	awk -F, '/^variant,/ { for (i = 1; i <= NF; i++) c[$i] = i }
		/^base,/ { print $c["throughput"], $c["latency_mean"] }' \
		"$tmp/$1.csv"
}

for gov in poll menu teo; do
	set -- $(run_idle $gov)
	test $# -eq 2 || { fail "cpuidle $gov: no result"; continue; }
	exit_us=20
	test $gov = poll && exit_us=0
	awk -v t="$1" -v r="$2" -v x="$exit_us" 'BEGIN {
		want = 1e6 / (r / 1000 + 500 + x)
		exit !(t - want <= 5.06 && want - t <= 5.06) }' ||
		fail "cpuidle $gov: $1 reads/s, expected 1e6 / ($2 ns + 500 us + $exit_us us)"
done

if test "$failures" -gt 0; then
	echo "$failures failure(s) in $0"
	exit 1
fi
exit 0
