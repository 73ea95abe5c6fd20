#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/scale.sh SRCDIR BUILD... - `make bench-scale`: what an event costs
# at 1024 CPUs x 1024 lines against 256 CPUs x 256 lines (the speed log's
# goal: at most 1.5x). Each CPU loops { think for an exponential time of
# mean 500 ns; a locked RMW on one of N counters, picked uniformly }
# (bench/lib.sh's contended-counter scenario, with K = N), on
# epyc-2s-256 and on the same profile with 8 sockets (1024 CPUs). The
# cost is marginal, per event: the CPU seconds of a 12 ms run minus a 4
# ms run, over the events between them, so that setting the run up and
# the end of the run cancel. Each of the four runs is the best (least CPU
# time) of ROUNDS (default 8), every build in turn, interleaved: single
# runs on a shared machine scatter the ratio from 1.3 to 1.9. BUILD: a
# build directory where `make tests/bench` has run. Test code: it reads
# the clock.
set -eu

if test $# -lt 2; then
	echo "usage: scale.sh SRCDIR BUILD..." >&2
	exit 2
fi
src=$1
shift
profile=$src/scenarios/machines/epyc-2s-256.yaml
if ! test -r "$profile"; then
	echo "scale.sh: $profile: not readable" >&2
	exit 2
fi
. "$(dirname "$0")/lib.sh"
builds_check scale.sh "$@"
rounds=${ROUNDS:-8}
case $rounds in
'' | *[!0-9]*) echo "scale.sh: ROUNDS is a number" >&2; exit 2 ;;
esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-scale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# the 1024-CPU machine: epyc-2s-256 with 8 sockets, under its own name
sed -e 's/^name: epyc-2s-256$/name: epyc-8s-1024/' \
	-e 's/^sockets: 2$/sockets: 8/' "$profile" >"$tmp/m1024.yaml"
if ! grep -q '^sockets: 8$' "$tmp/m1024.yaml"; then
	echo "scale.sh: $profile: no 'sockets: 2' line to change" >&2
	exit 2
fi

# N CPUs on N counters (bench/lib.sh's scenario), 4 and 12 ms
for ms in 4 12; do
	counter_yaml "$tmp/s1024-$ms.yaml" scale-1024 1024 1024 $ms 1 \
		"$tmp/m1024.yaml"
	counter_yaml "$tmp/s256-$ms.yaml" scale-256 256 256 $ms 1 epyc-2s-256
done

i=1
while test $i -le "$rounds"; do
	j=1
	for b in "$@"; do
		for s in s1024-4 s1024-12 s256-4 s256-12; do
			# name, cpus, events, atomics, wall_s, RSS, cpu_s
			if ! "$b/tests/bench" --raw "$tmp/$s.yaml" >"$tmp/one"
			then
				echo "scale.sh: $b/tests/bench failed" >&2
				exit 1
			fi
			awk -v j=$j -v s=$s '{ print j, s, $3, $7 }' "$tmp/one"
		done
		j=$((j + 1))
	done
	i=$((i + 1))
done >"$tmp/runs"

printf '1024 CPUs x 1024 lines against 256 x 256, CPU time per event, best of %s:\n' \
	"$rounds"
j=1
for b in "$@"; do
	awk -v j=$j -v b="$b" '
	$1 == j {
		ev[$2] = $3
		if (!($2 in t) || $4 < t[$2])
			t[$2] = $4
	}
	END {
		big = (t["s1024-12"] - t["s1024-4"]) / (ev["s1024-12"] - ev["s1024-4"])
		small = (t["s256-12"] - t["s256-4"]) / (ev["s256-12"] - ev["s256-4"])
		printf "%7.1f ns %7.1f ns  ratio %.2f (goal: at most 1.5)  %s\n", \
			big * 1e9, small * 1e9, big / small, b
	}' "$tmp/runs"
	j=$((j + 1))
done
