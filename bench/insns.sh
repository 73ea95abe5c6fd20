#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/insns.sh BENCH [N K] - `make bench-insns`: what one simulated
# atomic of the contended-counter benchmark (bench/peers.sh's: N CPUs, K
# shared counters, exponential think time of mean 500 ns) costs in host
# instructions, counted by callgrind, so that the load of a shared
# machine does not move it. The count is marginal: a 20 ms run minus a 5
# ms run, divided by the atomics between them, so that setting the run up
# and the end of the run cancel. Both runs must stay on one side of 2^20
# atomics, where a run folds its latency samples into a histogram and
# skips the exact quantiles (bench/lib.sh's exact_guard): when the 20 ms
# run passes it and the 5 ms run does not (72/16), both are shortened in
# proportion, so that the long one makes about 900,000. Prints the total
# and the functions that take most of it. Default N=256 K=16
# (epyc-2s-256; N <= 72 runs on skx-2s-72). Needs valgrind; test code.
set -eu

. "$(dirname "$0")/lib.sh"
bench_args insns.sh 256 16 valgrind valgrind "$@"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-insns.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# one_run NAME MS: the run NAME of MS simulated ms, profiled
one_run()
{
	rm -f "$tmp/cg-$1".*
	counter_yaml "$tmp/c-$1.yaml" "insns-$n-$k" "$n" "$k" "$2" 1
	# tests/bench runs the scenario in a child: follow it
	valgrind --tool=callgrind --trace-children=yes \
		--callgrind-out-file="$tmp/cg-$1.%p" \
		"$bench" --raw "$tmp/c-$1.yaml" >"$tmp/out-$1" 2>"$tmp/err-$1"
	# the child's profile is the larger file
	callgrind_annotate --show-percs=no \
		"$(ls -S "$tmp"/cg-$1.* | head -1)" >"$tmp/ann-$1" 2>/dev/null
}
atomics() { awk '{ print $4 }' "$tmp/out-$1"; }

one_run long 20
one_run short 5
if test "$(atomics short)" -lt $STAT_EXACT &&
	test "$(atomics long)" -ge $STAT_EXACT; then
	f=$(awk -v a="$(atomics long)" 'BEGIN { printf "%.4f", 900000 / a }')
	one_run long "$(awk -v f="$f" 'BEGIN { printf "%.3f", 20 * f }')"
	one_run short "$(awk -v f="$f" 'BEGIN { printf "%.3f", 5 * f }')"
fi
exact_guard insns.sh "$(atomics short)" "$(atomics long)"
# per function: Ir of the long run minus the short run, per atomic
awk -v a5="$(atomics short)" -v a20="$(atomics long)" '
FNR == 1 { run++ }
# "Ir  file:function [object]" and "Ir  PROGRAM TOTALS"
$1 ~ /^[0-9,]+$/ && ($2 ~ /:/ || $2 == "PROGRAM") {
	v = $1; gsub(",", "", v)
	name = $2 == "PROGRAM" ? "PROGRAM" : $2
	sub(/.*\//, "", name)	# no directories
	ir[run, name] += v; seen[name] = 1
}
END {
	n = a20 - a5
	printf "N=%s K=%s: %.0f instructions per atomic\n", N, K, \
		(ir[2, "PROGRAM"] - ir[1, "PROGRAM"]) / n
	for (f in seen)
		if (f != "PROGRAM")
			printf "%9.1f %s\n", (ir[2, f] - ir[1, f]) / n, f
}' N="$n" K="$k" "$tmp/ann-short" "$tmp/ann-long" |
	{ read -r head; echo "$head"; sort -rn | head -15; }
