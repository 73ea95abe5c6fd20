#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/peers-insns.sh BENCH SRCDIR - `make bench-peers-insns`: the
# contended-counter benchmark of bench/peers.sh in memcgsim, SimGrid and
# SimPy, counted in host instructions by callgrind instead of timed, so
# that neither the machine's load nor its processor moves the ratios:
# the same binaries and libraries give the same counts on any host.
#
# Each tool runs the same workload twice, for two simulated lengths; its
# cost per atomic is marginal, (Ir of the long run - Ir of the short run)
# / (atomics between them), so that start-up (the interpreter, the
# platform, loading the scenario) and the end of the run cancel. The
# lengths are sized for the peers' model (bench/lib.sh's counter_ms):
# memcgsim 40,000 and 200,000 atomics (below 2^20, exact_guard), SimGrid
# 2,000 and 8,000, SimPy 1,000 and 5,000. Per event is per event the
# tool scheduled (memcgsim's engine events; SimPy's own count; SimGrid
# does not count its events). The goals (issue 35): memcgsim at least
# 30x fewer instructions per atomic than SimGrid and 100x fewer than
# SimPy on every row, and at most 490 per atomic at N >= 72, K = 1.
# About 5 minutes on a 2-core machine. A missing peer is skipped with the
# package that provides it. Needs valgrind. PEERS_ROWS="N/K ..." runs
# those rows only; PEERS_TOOLS="memcgsim ..." those tools only (memcgsim
# alone: 2 seconds a row, and its figures with two decimals, for
# comparing two versions of the code).
set -eu

if test $# -ne 2; then
	echo "usage: peers-insns.sh BENCH SRCDIR" >&2
	exit 2
fi
bench=$1
srcdir=$2
. "$srcdir/bench/lib.sh"
if ! command -v valgrind >/dev/null 2>&1; then
	echo "peers-insns.sh: needs valgrind (on Debian: apt-get install valgrind)" >&2
	exit 2
fi
rows=${PEERS_ROWS:-8/1 8/16 72/1 72/16 256/1 256/16}
tools=${PEERS_TOOLS:-memcgsim simgrid simpy}
for _t in $tools; do
	case $_t in
	memcgsim | simgrid | simpy) ;;
	*)
		echo "peers-insns.sh: PEERS_TOOLS: memcgsim, simgrid, simpy" >&2
		exit 2
		;;
	esac
done
has() { case " $tools " in *" $1 "*) return 0 ;; esac; return 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-peers-insns.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

simgrid=
simpy=
! has simgrid && ! has simpy || peers_find "$tmp" "$srcdir"

# pair TOOL N K A1 A2: "TOOL N K insn/atomic insn/event" from the two
# runs of about A1 and A2 atomics in the peers' model
pair()
{
	_t=$1 _n=$2 _k=$3
	for _a in "$4" "$5"; do
		_ms=$(counter_ms "$_n" "$_k" "$_a")
		_p=$tmp/$_t-$_n-$_k-$_a
		case $_t in
		memcgsim)
			counter_yaml "$_p.yaml" "insns-$_n-$_k" "$_n" "$_k" "$_ms" 1
			_ir=$(callgrind_ir "$_p" "$bench" --raw "$_p.yaml")
			# name cpus events atomics ...
			_at=$(awk '{ print $4 }' "$_p.out")
			_ev=$(awk '{ print $3 }' "$_p.out")
			;;
		simgrid)
			_ir=$(callgrind_ir "$_p" "$simgrid" "$_n" "$_k" \
				$COUNTER_THINK_NS $COUNTER_HOLD_NS "$_ms" 1 \
				--log=root.thres:critical)
			# simgrid N K atomics WALL_S
			_at=$(awk '{ print $4 }' "$_p.out")
			_ev=0
			;;
		simpy)
			_ir=$(callgrind_ir "$_p" "$simpy" \
				"$srcdir/bench/simpy_counter.py" "$_n" "$_k" \
				$COUNTER_THINK_NS $COUNTER_HOLD_NS "$_ms" 1)
			# simpy N K atomics EVENTS WALL_S
			_at=$(awk '{ print $4 }' "$_p.out")
			_ev=$(awk '{ print $5 }' "$_p.out")
			;;
		esac
		echo "$_ir $_at $_ev" >"$_p.n"
	done
	test "$_t" != memcgsim ||
		exact_guard peers-insns.sh "$(awk '{ print $2 }' "$tmp/$_t-$_n-$_k-$4.n")" \
			"$(awk '{ print $2 }' "$tmp/$_t-$_n-$_k-$5.n")"
	cat "$tmp/$_t-$_n-$_k-$4.n" "$tmp/$_t-$_n-$_k-$5.n" | awk -v t="$_t" \
		-v n="$_n" -v k="$_k" '
		NR == 1 { i = $1; a = $2; e = $3 }
		NR == 2 {
			pa = ($1 - i) / ($2 - a)
			pe = $3 > e ? ($1 - i) / ($3 - e) : 0
			printf "%s %s %s %.2f %.2f\n", t, n, k, pa, pe
		}'
}

: >"$tmp/rows"
for row in $rows; do
	n=${row%/*}
	k=${row#*/}
	case $n$k in
	'' | *[!0-9]*) echo "peers-insns.sh: PEERS_ROWS: N/K pairs" >&2; exit 2 ;;
	esac
	echo "row $n/$k ..." >&2
	! has memcgsim || pair memcgsim "$n" "$k" 40000 200000 >>"$tmp/rows"
	! has simgrid || test -z "$simgrid" ||
		pair simgrid "$n" "$k" 2000 8000 >>"$tmp/rows"
	! has simpy || test -z "$simpy" ||
		pair simpy "$n" "$k" 1000 5000 >>"$tmp/rows"
done

if test "$tools" = memcgsim; then
	awk '{ printf "N=%s K=%s: %.2f instructions per atomic, " \
		"%.2f per event\n", $2, $3, $4, $5 }' "$tmp/rows"
	exit 0
fi
awk -v rows="$rows" '
{ pa[$1 " " $2 " " $3] = $4; pe[$1 " " $2 " " $3] = $5 }
function r(x, y) { return y > 0 && x > 0 ? sprintf("%.1fx", x / y) : "-" }
function v(x) { return x > 0 ? sprintf("%.0f", x) : "-" }
END {
	printf "%4s %3s | %15s | %8s | %15s | %9s %9s %9s\n", "N", "K", \
		"memcgsim", "SimGrid", "SimPy", "SimGrid/", "SimPy/", "SimPy/"
	printf "%4s %3s | %7s %7s | %8s | %7s %7s | %9s %9s %9s\n", "", "", \
		"/atomic", "/event", "/atomic", "/atomic", "/event", \
		"atomics", "atomics", "events"
	nr = split(rows, list, " ")
	wg = wp = 0; k1 = 0
	for (i = 1; i <= nr; i++) {
		split(list[i], nk, "/")
		m = "memcgsim " nk[1] " " nk[2]
		g = "simgrid " nk[1] " " nk[2]
		p = "simpy " nk[1] " " nk[2]
		printf "%4d %3d | %7s %7s | %8s | %7s %7s | %9s %9s %9s\n", \
			nk[1], nk[2], v(pa[m]), v(pe[m]), v(pa[g]), v(pa[p]), \
			v(pe[p]), r(pa[g], pa[m]), r(pa[p], pa[m]), \
			r(pe[p], pe[m])
		if (pa[g] > 0 && (!wg || pa[g] / pa[m] < wg)) wg = pa[g] / pa[m]
		if (pa[p] > 0 && (!wp || pa[p] / pa[m] < wp)) wp = pa[p] / pa[m]
		if (nk[1] >= 72 && nk[2] == 1 && pa[m] > k1) k1 = pa[m]
	}
	if (wg)
		printf "SimGrid / memcgsim, instructions per atomic: at least %.1fx (goal: 30x) %s\n", \
			wg, (wg >= 30 ? "met" : "NOT met")
	if (wp)
		printf "SimPy / memcgsim, instructions per atomic:   at least %.1fx (goal: 100x) %s\n", \
			wp, (wp >= 100 ? "met" : "NOT met")
	if (k1)
		printf "memcgsim at N >= 72, K = 1: at most %.0f instructions per atomic (goal: 490) %s\n", \
			k1, (k1 <= 490 ? "met" : "NOT met")
}' "$tmp/rows"
