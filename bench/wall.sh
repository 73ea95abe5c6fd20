#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/wall.sh N K BUILD... - the contended-counter benchmark of
# bench/peers.sh (N CPUs, K counters, exponential think of mean 500 ns;
# skx-2s-72 for N <= 72, else epyc-2s-256), sized for about 4 M atomics,
# run by several builds of memcgsim (their build directories, where `make
# tests/bench` has built tests/bench) in turn, ROUNDS times (default 5),
# and each build's best rate: atomics per CPU second of the run. To
# compare two versions of the code by wall time on a shared machine,
# where one-off rates move by 10% or more: interleaving the builds and
# keeping the best of each cancels most of the load. Instruction counts
# (bench/insns.sh) do not see host cache misses; this does. Test code: it
# reads the clock.
set -eu

if test $# -lt 3; then
	echo "usage: wall.sh N K BUILD..." >&2
	exit 2
fi
n=$1
k=$2
shift 2
case $n$k in
*[!0-9]*) echo "wall.sh: N and K are numbers" >&2; exit 2 ;;
esac
. "$(dirname "$0")/lib.sh"
builds_check wall.sh "$@"
rounds=${ROUNDS:-5}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-wall.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# sized as bench/peers.sh's memcgsim runs
counter_yaml "$tmp/c.yaml" "wall-$n-$k" "$n" "$k" \
	"$(counter_ms "$n" "$k" 4000000)" 1
i=1
while test $i -le "$rounds"; do
	j=1
	for b in "$@"; do
		# name, cpus, events, atomics, wall_s, RSS, cpu_s
		if ! "$b/tests/bench" --raw "$tmp/c.yaml" >"$tmp/one"; then
			echo "wall.sh: $b/tests/bench failed" >&2
			exit 1
		fi
		awk -v j=$j '{ printf "%d %.3f\n", j, $4 / $7 / 1e6 }' \
			"$tmp/one"
		j=$((j + 1))
	done
	i=$((i + 1))
done >"$tmp/runs"
printf 'N=%s K=%s, best of %s, M atomics per CPU second:\n' "$n" "$k" "$rounds"
j=1
for b in "$@"; do
	best=$(awk -v j=$j '$1 == j && $2 > m { m = $2 } END { printf "%.3f", m }' \
		"$tmp/runs")
	printf '%10s  %s\n' "$best" "$b"
	j=$((j + 1))
done
