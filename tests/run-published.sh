#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-published.sh - memcgsim calibrate --check on the published
# multi-CPU measurements, recorded by hand in calibrate's measurement
# format (tests/data/calibrate/published-*.measurements.yaml, each number
# with its citation), against the shipped profile of the same machine.
# Nothing is timed. Every row is held to its own tolerance, and which rows
# a profile was derived from (a consistency check) and which it predicts
# (a validation) is said for each:
#
#  1. published-w2145 on xeon-w2145 (wtarreau/atomic-tests, W-2145):
#     fitted: xfer_smt 4 and xfer_llc 41 ns (the profile's own numbers,
#     0%: within 0.5%); load_xchg_pingpong between cores (upgrade_llc is
#     89.5 - 41 from the range's midpoint, against the matrix's median 88:
#     +1.7%, within 3%); add on 16 CPUs (conflict_local = (53.9 - 41) / 14
#     from this very point: within 1%). Predicted: load_xchg_pingpong
#     between SMT siblings, 12 ns published; the model prices an SMT
#     upgrade as one more xfer_smt (models/hw/coh_law.c), 8 ns, -33%: a
#     known miss, asserted to be flagged at the default 25% so that it is
#     not lost from sight (and this file changes when the model does).
#  2. published-skl-4c on desktop-4c8t (travisdowns' Skylake client):
#     the growth of add from 2 to 4 threads is what conflict_local was
#     fitted from: within 3% (published 24.10 / 22.05 = 1.093, predicted
#     22.16 / 20 = 1.108). The levels are predictions: the profile's
#     xfer_llc (20 ns) is another i7-6700K's ping-pong, 2 ns below this
#     machine's two-thread cost, so every level is 8-10% low: within 12%,
#     as tests/run-calibration.sh holds the same points. rmw_local (one
#     thread, 7.0 ns) against the profile's 6.2 ns, perfbook's i7-8750H:
#     -11%, within 15%.
#  3. published-8176-8s on xeon-8176-8s (perfbook's 8-socket 8176):
#     fitted: rmw_local, the blind CASes On-Core, Off-Core, Off-Socket and
#     the load-then-CASes Off-Core and Off-Socket are the profile's own
#     numbers: within 0.5%. Predicted: the On-Core load-then-CAS, 18.0 ns
#     published, 14.4 (two xfer_smt) predicted, -20%: within 25%. The
#     Cross-Interconnect rows (CPU 112, the box's other four-socket half):
#     the blind CAS is the profile's socket_distances pair 0-4, 336.6 ns,
#     within 0.5%; the load-then-CAS a prediction, 336.6 + the upgrade at
#     that pair's distance 294.1 x 336.6 / 148.8 = 665.3 = 1001.9 ns
#     against 944.8 published, +6.0%.
#  4. A wrong machine: the shipped skx-2s-72 (2 x 18-core Skylake-SP)
#     against the W-2145 and the 8176 points runs and prints every row
#     with an error (no tolerance asserted: the errors are the distance
#     between the machines); the 8176's Cross-Interconnect points (socket
#     4) are left out for it, and with them --check refuses the file
#     (exit 2), naming the CPU the profile lacks.
#  5. Each --check agrees with the scenario that replays the same point
#     (scenarios/calibration/, memcgsim run): the 16-CPU add with
#     contended-cas-w2145's 16threads, the 2 to 4 thread adds with
#     contended-add-skl, within 0.2% (both simulate the same loop on the
#     same profile; the windows differ).
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
data=$(cd "$top_srcdir/tests/data/calibrate" && pwd)
machines=$(cd "$top_srcdir/scenarios/machines" && pwd)
calibration=$(cd "$top_srcdir/scenarios/calibration" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-pub.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
cd "$tmp"

failures=0
fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# check PROFILE FILE STATUS: calibrate --check at the default 25% into out.
check()
{
	rc=0
	"$MEMCGSIM" calibrate --check "$machines/$1.yaml" "$2" >out 2>err ||
		rc=$?
	if test "$rc" -ne "$3"; then
		fail "--check $1 $(basename "$2"): exit status $rc, expected $3"
		sed 's/^/	/' err out
		return 1
	fi
	return 0
}

# row BENCHMARK CPUS LO HI [flagged]: the row of BENCHMARK on CPUS (as
# --check prints them) has an error from LO to HI percent, and is flagged
# '!' exactly when the last argument says so.
row()
{
	awk -v b="$1" -v c="$2" -v lo="$3" -v hi="$4" -v flag="${5:-}" '
		$1 == b && $4 == c {
			found = 1
			e = $10; sub(/%/, "", e); e += 0
			if (e < lo || e > hi) {
				printf "FAIL: %s on %s: error %+.1f%%, expected %g%% to %g%%\n", b, c, e, lo, hi
				bad = 1
			}
			if ((($11 == "!") ? "flagged" : "") != flag) {
				printf "FAIL: %s on %s: flagged \"%s\", expected \"%s\"\n", b, c, $11, flag
				bad = 1
			}
		}
		END {
			if (!found) {
				printf "FAIL: no row for %s on %s\n", b, c
				bad = 1
			}
			exit bad
		}' out || failures=$((failures + 1))
}

# predicted BENCHMARK CPUS: the row's prediction, ns
predicted()
{
	awk -v b="$1" -v c="$2" '$1 == b && $4 == c { print $9 }' out
}

# within NAME VALUE EXPECTED PERCENT
within()
{
	awk -v n="$1" -v v="$2" -v x="$3" -v p="$4" 'BEGIN {
		e = (v - x) / x * 100
		if (!(e >= -p && e <= p)) {
			printf "FAIL: %s: %s, %.2f%% from %s (tolerance %g%%)\n", n, v, e, x, p
			exit 1
		}
	}' || failures=$((failures + 1))
}

# scenario_ns SCENARIO VARIANT: 1e9 / its throughput
scenario_ns()
{
	"$MEMCGSIM" run "$calibration/$1.yaml" --format csv | grep -v '^#' |
		awk -F, -v v="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == v { printf "%.4f\n", 1e9 / $col["throughput"] }'
}

# 1. The W-2145.
if check xeon-w2145 "$data/published-w2145.measurements.yaml" 1; then
	row xfer_smt 0,8 -0.5 0.5
	row xfer_llc 0,4 -0.5 0.5
	row load_xchg_pingpong 0,4 -3 3
	row add 0-15 -1 1
	row load_xchg_pingpong 0,8 -35 -30 flagged
	grep -q '^4 of 5 points within 25%' out ||
		fail "w2145: expected '4 of 5 points within 25%'"
	within "w2145 add 16 CPUs, --check against contended-cas-w2145" \
		"$(predicted add 0-15)" \
		"$(scenario_ns contended-cas-w2145 16threads)" 0.2
fi

# 2. The Skylake client.
if check desktop-4c8t "$data/published-skl-4c.measurements.yaml" 0; then
	row rmw_local 0 -15 15
	row add 0-1 -12 12
	row add 0-2 -12 12
	row add 0-3 -12 12
	p2=$(predicted add 0-1)
	p4=$(predicted add 0-3)
	within "skl growth of add, 2 to 4 threads" \
		"$(awk -v a="$p4" -v b="$p2" 'BEGIN { print a / b }')" \
		"$(awk 'BEGIN { print 24.10 / 22.05 }')" 3
	for n in 2 3 4; do
		within "skl add $n threads, --check against contended-add-skl" \
			"$(predicted add "0-$((n - 1))")" \
			"$(scenario_ns contended-add-skl "${n}threads")" 0.2
	done
fi

# 3. perfbook's 8176.
if check xeon-8176-8s "$data/published-8176-8s.measurements.yaml" 0; then
	row rmw_local 0 -0.5 0.5
	row xfer_smt 0,224 -0.5 0.5
	row xfer_llc 0-1 -0.5 0.5
	row xfer_socket 0,28 -0.5 0.5
	row load_xchg_pingpong 0-1 -0.5 0.5
	row load_xchg_pingpong 0,28 -0.5 0.5
	row load_xchg_pingpong 0,224 -25 25
	row xfer_socket 0,112 -0.5 0.5
	row load_xchg_pingpong 0,112 5.5 6.5
	grep -q '^9 of 9 points within 25%' out ||
		fail "8176: expected '9 of 9 points within 25%'"
fi

# 3b. calibrate --fit of the 8176 points (with idle latencies added, which
# perfbook does not give) writes socket_distances: pairs 0-1 148.8 and
# 0-4 336.6 ns as measured, the others xfer_socket, said in the rows'
# sources; the profile loads and --check predicts the pair 0-4 from it.
# With hand-off spreads added to the transfer points (SMT 0.1, LLC 0.3,
# socket 0.2, and 0.9 for the pair 0-4, not a class's own point) the
# profile's service_cv is the median of the classes' three: 0.2.
sed 's/^points:$/points:\
- {benchmark: l1_hit, placement: idle, cpus: [0], samples: [1.9]}\
- {benchmark: llc_hit, placement: idle, cpus: [0], samples: [36.7]}\
- {benchmark: memory, placement: idle, cpus: [0], samples: [81.4]}/' \
	"$data/published-8176-8s.measurements.yaml" |
	sed 's/cpus: \[0, 224\], samples: \[7.2\]/&, cv: 0.1/
s/cpus: \[0, 1\], samples: \[47.5\]/&, cv: 0.3/
s/cpus: \[0, 28\], samples: \[148.8\]/&, cv: 0.2/
s/cpus: \[0, 112\], samples: \[336.6\]/&, cv: 0.9/' >m8.measurements.yaml
if "$MEMCGSIM" calibrate --fit m8.measurements.yaml -o m8.yaml -q 2>err; then
	grep -q '^- ns: \[0.00, 148.80, 148.80, 148.80, 336.60, 148.80, 148.80, 148.80\]$' m8.yaml ||
		fail "8176 --fit: socket 0's row of socket_distances"
	grep -q "socket 4's row: the median of each pair's ping-pong; pairs not measured take xfer_socket" m8.yaml ||
		fail "8176 --fit: socket 4's row's source"
	"$MEMCGSIM" calibrate --check m8.yaml m8.measurements.yaml >out 2>err ||
		fail "8176 --fit: --check of the fitted profile"
	# within 10%: service_cv 0.2 draws each of the window's 50 hand-offs
	# around the pair's 336.6 ns, sd 0.2 / sqrt(50) = 2.8% of the mean
	row xfer_socket 0,112 -10 10
	grep -A1 '^  service_cv:$' m8.yaml | grep -q '^    cv: 0.200$' ||
		fail "8176 --fit: service_cv 0.200, the median of the classes' spreads"
else
	fail "8176 --fit: $(cat err)"
fi

# 4. A wrong machine's profile: it runs and reports, nothing more.
# rows N: N benchmark rows, each with a signed error
rows()
{
	got=$(grep -cE '^[a-z_0-9]+ +(idle|compact|spread) .*[-+][0-9.]+%( !)?$' out || :)
	test "$got" -eq "$1" || fail "skx-2s-72 $2: $got rows with an error, expected $1"
}
rc=0
"$MEMCGSIM" calibrate --check "$machines/skx-2s-72.yaml" \
	"$data/published-w2145.measurements.yaml" >out 2>err || rc=$?
test "$rc" -le 1 || fail "skx-2s-72 on the W-2145 points: exit status $rc"
rows 5 "on the W-2145 points"
grep -v 'cpus: \[0, 112\]' "$data/published-8176-8s.measurements.yaml" \
	>published-8176-2s.measurements.yaml
rc=0
"$MEMCGSIM" calibrate --check "$machines/skx-2s-72.yaml" \
	published-8176-2s.measurements.yaml >out 2>err || rc=$?
test "$rc" -le 1 || fail "skx-2s-72 on the 8176 points: exit status $rc"
rows 7 "on the 8176 points (sockets 0 and 1)"
rc=0
"$MEMCGSIM" calibrate --check "$machines/skx-2s-72.yaml" \
	"$data/published-8176-8s.measurements.yaml" >out 2>err || rc=$?
test "$rc" -eq 2 || fail "skx-2s-72 on all the 8176 points: exit status $rc, expected 2"
grep -q "^memcgsim: error: profile 'skx-2s-72' (2 sockets x 18 cores x 2 threads) has no CPU at socket 4, core 0, thread 0, where measured CPU 112 is$" err ||
	fail "skx-2s-72 on all the 8176 points: expected the missing-CPU error"

if test "$failures" -ne 0; then
	echo "$failures failure(s)"
	exit 1
fi
exit 0
