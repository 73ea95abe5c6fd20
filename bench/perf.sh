#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/perf.sh BENCH [N K] - `make bench-perf`: where the host waits in
# the contended-counter benchmark (bench/lib.sh's: N CPUs, K shared
# counters, exponential think time of mean 500 ns), sampled by perf's
# cpu-clock event at 20 kHz. The VMs this project is built on expose no
# hardware counters, but a timer's sample still lands at the instruction
# the host was stalled on (or the one after it), which is what callgrind
# and cachegrind cannot show: they count instructions and model caches,
# not time. That is how the NULL prefetch of the sixth round (doc/speed.md) was
# found (a third of the samples on one prefetch, invisible to both).
# Prints the functions with the most samples, then for each of the first
# three its hottest instructions, each under the source line it belongs
# to, with its share of all samples. Default N=72 K=1 (skx-2s-72; N > 72
# runs on epyc-2s-256). Needs perf (Debian: linux-perf); test code.
set -eu

. "$(dirname "$0")/lib.sh"
bench_args perf.sh 72 1 perf linux-perf "$@"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-perf.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# about 4 M atomics, as bench/peers.sh's memcgsim runs
counter_yaml "$tmp/c.yaml" "perf-$n-$k" "$n" "$k" \
	"$(counter_ms "$n" "$k" 4000000)" 1
# tests/bench runs the scenario in a child: perf follows it
if ! perf record -q -F 20000 -e cpu-clock -o "$tmp/perf.data" \
	"$bench" --raw "$tmp/c.yaml" >"$tmp/out" 2>"$tmp/err"; then
	cat "$tmp/err" >&2
	echo "perf.sh: perf record failed (perf_event_paranoid?)" >&2
	exit 1
fi
# "    39.89%  [.] line_serve_event_ann ...": share and symbol
perf report -i "$tmp/perf.data" --no-children --stdio --sort symbol \
	2>/dev/null | awk '$1 ~ /%$/ && $2 ~ /^\[/ { print $1, $3 }' \
	>"$tmp/top"
printf 'N=%s K=%s: samples by function (cpu-clock)\n' "$n" "$k"
head -12 "$tmp/top" | awk '{ printf "%8s  %s\n", $1, $2 }'
# the first three functions' hottest instructions, as shares of all
head -3 "$tmp/top" | while read -r share sym; do
	printf '\n%s (%s): hottest instructions, %% of all samples\n' \
		"$sym" "$share"
	perf annotate -i "$tmp/perf.data" --stdio -s "$sym" 2>/dev/null |
		awk -v f="${share%\%}" '
		# "   12.34 :   27ba3:  cmpb ..." is an instruction;
		# "         : 575   return r->op ..." the source above it
		$1 ~ /^[0-9]+\.[0-9]+$/ && $2 == ":" {
			insn = $0; sub(/^[^:]*:[ \t]*/, "", insn)
			printf "%6.2f  %-40.40s | %s\n", $1 * f / 100, insn, src
			next
		}
		$1 == ":" && NF > 2 {
			src = $0; sub(/^[ \t]*:[ \t]*[0-9]+[ \t]*/, "", src)
			gsub(/\t/, " ", src)
		}' | sort -rn | head -6
done
