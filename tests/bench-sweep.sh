#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/bench-sweep.sh MEMCGSIM SCENARIO - part of `make bench`: the wall
# time of a 64-point sweep of SCENARIO (charge-batch-2022: 8 charge
# batches x 4 instance counts x 2 seeds, each point all six variants,
# shortened to 1 ms of simulated time) with -j 1 and with -j 2, and their
# ratio: the speed-up of local jobs. Both sweeps must give the same
# bytes. This is test code: it reads the wall clock.
set -eu

if test $# -ne 2; then
	echo "usage: bench-sweep.sh MEMCGSIM SCENARIO" >&2
	exit 2
fi
memcgsim=$1
scenario=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-bench-sweep.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

set -- --set duration_ms=1 --set warmup_ms=0.2 \
	--vary kernel.charge_batch=16,32,48,64,96,128,192,256 \
	--vary workloads.0.instances=8,16,24,36 \
	--vary seed=1,2

# seconds A B: B - A, two decimals
seconds()
{
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'
}

for j in 1 2; do
	start=$(date +%s.%N)
	"$memcgsim" sweep "$scenario" "$@" -j $j --out "$tmp/j$j" --quiet
	wall=$(seconds "$start" "$(date +%s.%N)")
	eval "wall$j=$wall"
done
if ! cmp -s "$tmp/j1/sweep.csv" "$tmp/j2/sweep.csv" ||
   ! cmp -s "$tmp/j1/sweep.yaml" "$tmp/j2/sweep.yaml"; then
	echo "bench-sweep.sh: -j 1 and -j 2 gave different results" >&2
	exit 1
fi
# shellcheck disable=SC2154
awk -v w1="$wall1" -v w2="$wall2" -v cpus="$(nproc 2>/dev/null || echo '?')" \
	'BEGIN {
		printf "sweep: 64 points of charge-batch-2022 (6 variants each): "
		printf "-j 1 %.2f s, -j 2 %.2f s, ratio %.2f (%s CPUs)\n",
		       w1, w2, (w2 > 0 ? w1 / w2 : 0), cpus
	}'
