#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/insns.sh BENCH [N K] - `make bench-insns`: what one simulated
# atomic of the contended-counter benchmark (bench/peers.sh's: N CPUs, K
# shared counters, exponential think time of mean 500 ns) costs in host
# instructions, counted by callgrind, so that the load of a shared
# machine does not move it. The count is marginal: a 20 ms run minus a 5
# ms run, divided by the atomics between them, so that setting the run up
# and the end of the run cancel. Prints the total and the functions that
# take most of it. Default N=256 K=16 (epyc-2s-256; N <= 72 runs on
# skx-2s-72). Needs valgrind; test code.
set -eu

. "$(dirname "$0")/lib.sh"
bench_args insns.sh 256 16 valgrind valgrind "$@"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-insns.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

for ms in 5 20; do
	counter_yaml "$tmp/c-$ms.yaml" "insns-$n-$k" "$n" "$k" "$ms" 1
	# tests/bench runs the scenario in a child: follow it
	valgrind --tool=callgrind --trace-children=yes \
		--callgrind-out-file="$tmp/cg-$ms.%p" \
		"$bench" --raw "$tmp/c-$ms.yaml" >"$tmp/out-$ms" 2>"$tmp/err-$ms"
	# the child's profile is the larger file
	callgrind_annotate --show-percs=no \
		"$(ls -S "$tmp"/cg-$ms.* | head -1)" >"$tmp/ann-$ms" 2>/dev/null
done
# per function: Ir of the 20 ms run minus the 5 ms run, per atomic
awk -v a5="$(awk '{ print $4 }' "$tmp/out-5")" \
	-v a20="$(awk '{ print $4 }' "$tmp/out-20")" '
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
}' N="$n" K="$k" "$tmp/ann-5" "$tmp/ann-20" |
	{ read -r head; echo "$head"; sort -rn | head -15; }
