#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-host-run.sh - memcgsim host-run on this host's kernel, for a
# few seconds, when it may create cgroups (root, and a hierarchy with the
# memory controller in /proc/self/mountinfo); skipped (77) with the reason
# otherwise. The scenario is af-unix-kmem-2016: one af_unix stream pair
# on CPUs 0 and 1, in /netperf.
#
#  1. -v base-1 -v patched-1 -r 2 -d 0.25 --machine host-2cpu.yaml
#     --no-profile: exit 0; the measured table has a row for root (added
#     by host-run: base-1 has its workload in /netperf, no variant is in
#     the root) and for base-1,
#     the verdict for base-1 (within noise or a measured change) with the
#     model's prediction beside it; patched-1 is listed as not
#     reproduced, because it sets kernel.kmem_accounting: pages where
#     base-1 has off (a kernel design choice); base-4 needs CPUs 0-7,
#     which a host of fewer than 8 CPUs lacks (not asked for with -v, so
#     not listed); --no-profile said; the header says which kernel:
#     keys host-run gave the model for this host, the cgroup version
#     first (this hierarchy's). Afterwards no memcgsim-host-run.PID
#     directory is left in the hierarchy and no process is in one.
# 1b. Where perf is installed, a profile row (the memcg functions' share)
#     for a single profiled run, and perf's directory removed after.
# 1c. The memcg tracepoints (where /proc/filesystems offers tracefs;
#     this part is skipped with the reason otherwise), from run 1: a
#     tracepoints section naming tracefs (and "mounted by host-run" when
#     it was not mounted before; then it is unmounted afterwards), and
#     memcg:mod_memcg_state per message above 0 in /netperf (each
#     message's skb memory is charged to that memcg since v5.9's
#     obj_cgroup accounting of af_unix skbs: MEMCG_KMEM and the slab
#     statistics move with it, at least one update a message) and above
#     root's (the root memcg charges no kmem: no objcg, no update).
#  2. SIGINT, then SIGTERM, mid-run (once the tree of a run exists, so
#     its pair of processes runs): exit 128 + the signal, nothing on
#     stdout, the private directory removed, every process it started
#     gone.
#  3. A -v that is no variant: exit 2, nothing on stdout, no directory.
#
# Timing: (1) is 2 variants x 2 repetitions x (0.25 s + 0.05 s warm-up)
# plus the model's runs: about 3 s; (1b) one run, perf's start and its
# report: 2 s idle, about 10 s with the load average at 20; (2) waits at
# most 15 s for the tree each time and is interrupted within a second of
# it: about 4 s. 16 s in all at a load average of 20.
#
# Environment: MEMCGSIM (the program) and top_srcdir, both set by `make
# check`.
set -eu

: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"
. "$top_srcdir/tests/lib.sh"

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: host-run creates cgroups: needs root"
	exit 77
fi
# The memory hierarchy, as cmd/host-run/cgroupfs.c finds it: a cgroup2
# mount listing memory in cgroup.controllers, else a v1 memory mount.
mount=
while read -r _ _ _ _ point _; do
	if [ -f "$point/cgroup.controllers" ] &&
		grep -qw memory "$point/cgroup.controllers" &&
		grep -qw memory "$point/cgroup.subtree_control"; then
		mount=$point
		break
	fi
done <<EOF
$(grep ' - cgroup2 ' /proc/self/mountinfo || true)
EOF
if [ -z "$mount" ]; then
	mount=$(awk '/ - cgroup / && $NF ~ /(^|,)memory(,|$)/ { print $5; exit }' \
		/proc/self/mountinfo)
fi
if [ -z "$mount" ] || [ ! -w "$mount" ]; then
	echo "SKIP: no writable cgroup hierarchy with the memory controller"
	exit 77
fi

test_setup host-run
top=$(cd "$top_srcdir" && pwd)
scenario=$top/scenarios/validation/af-unix-kmem-2016.yaml
profile=$top/tests/data/calibrate/host-2cpu.yaml
ncpus=$(nproc)
if [ "$ncpus" -lt 2 ]; then
	echo "SKIP: the af_unix pair needs CPUs 0 and 1; this host has $ncpus"
	exit 77
fi

# left_behind PID: the private directory of host-run PID, or a process
# in a cgroup below it, still there (says which).
left_behind()
{
	if [ -d "$mount/memcgsim-host-run.$1" ]; then
		echo "$mount/memcgsim-host-run.$1 is still there"
		return 0
	fi
	if grep -ls "memcgsim-host-run\.$1/" /proc/[0-9]*/cgroup 2>/dev/null; then
		echo "a process is still in a cgroup of host-run $1"
		return 0
	fi
	return 1
}

# 1. A short run, beside the model.
tracefs_before=$(grep -c ' - tracefs ' /proc/self/mountinfo || true)
rc=0
$limit "$MEMCGSIM" host-run "$scenario" -v base-1 -v patched-1 -r 2 \
	-d 0.25 --machine "$profile" --no-profile -q \
	>"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" = 0 ] || fail "host-run: exit $rc, expected 0: $(cat "$tmp/err")"
grep -q '^root  *//*  *[0-9]' "$tmp/out" ||
	fail "no measured row for root (the root run host-run adds)"
grep -q '^base-1  */netperf  *[0-9]' "$tmp/out" ||
	fail "no measured row for base-1 in /netperf"
grep -Eq '^base-1: CPU time per operation .*(within noise|a measured change); the model predicts' "$tmp/out" ||
	fail "no verdict with the model's prediction for base-1"
grep -q '^  patched-1: kernel.kmem_accounting: not as in base-1' "$tmp/out" ||
	fail "patched-1 not listed as not reproduced (kernel.kmem_accounting)"
v=1
[ -f "$mount/cgroup.controllers" ] && v=2
grep -q "^model: this host's kernel paths, set by host-run (a --set of yours wins): kernel.cgroup_version=$v, " "$tmp/out" ||
	fail "the table does not say host-run ran the model with kernel.cgroup_version=$v"
grep -q '^profiles: none (--no-profile)' "$tmp/out" ||
	fail "--no-profile: the table does not say there is no profile"
if grep -q 'base-4' "$tmp/out"; then
	fail "base-4 listed though -v did not ask for it"
fi

# 1c. The tracepoints of run 1.
if grep -qw tracefs /proc/filesystems; then
	grep -q '^tracepoints: per operation' "$tmp/out" ||
		fail "no tracepoints section: $(grep '^tracepoints' "$tmp/out")"
	tp_root=$(awk '/^tracepoints:/ { on = 1 } on && $1 == "root" &&
		$2 == "memcg:mod_memcg_state" { print $3 }' "$tmp/out")
	tp_nested=$(awk '/^tracepoints:/ { on = 1 } on && $1 == "base-1" &&
		$2 == "memcg:mod_memcg_state" { print $3 }' "$tmp/out")
	awk -v r="${tp_root:-x}" -v n="${tp_nested:-x}" \
		'BEGIN { exit !(r != "x" && n != "x" && n + 0 > 0 && n + 0 > r + 0) }' ||
		fail "mod_memcg_state per message: root '$tp_root', base-1 '$tp_nested'"
	if [ "$tracefs_before" = 0 ]; then
		grep -q 'mounted by host-run' "$tmp/out" ||
			fail "tracefs was not mounted: the table does not say host-run mounted it"
		[ "$(grep -c ' - tracefs ' /proc/self/mountinfo || true)" = 0 ] ||
			fail "tracefs still mounted after host-run mounted it"
	fi
else
	echo "SKIP (1c): no tracefs in /proc/filesystems"
	grep -q '^tracepoints: none: ' "$tmp/out" ||
		fail "no line saying why there are no tracepoint counts"
fi
pid=$(sed -n 's/.*memcgsim-host-run\.\([0-9][0-9]*\).*/\1/p' "$tmp/out" | head -1)

# 1b. Where perf is installed, the first run of each variant is profiled:
# will-it-scale-fallocate's own root variant alone (one profiled run: perf
# takes seconds to start and to report on a loaded 2-CPU VM) has a row of
# the memcg functions' share (the host's value, not checked); without
# perf the table says so. perf's data directory is gone afterwards.
rc=0
TMPDIR=$tmp $limit "$MEMCGSIM" host-run \
	"$top/scenarios/experiments/will-it-scale-fallocate.yaml" -v root \
	--set workloads.0.cpus=0-1 -r 1 -d 0.3 -q >"$tmp/out" 2>"$tmp/err" ||
	rc=$?
[ "$rc" = 0 ] || fail "profiled run: exit $rc, expected 0: $(cat "$tmp/err")"
if command -v perf >/dev/null 2>&1; then
	grep -q '^root  *memcg functions  *[0-9.]*%' "$tmp/out" ||
		fail "no profile row for root (perf is installed)"
else
	grep -q '^profiles: none: perf is not installed' "$tmp/out" ||
		fail "no line saying perf is not installed"
fi
if ls "$tmp" | grep -q '^memcgsim-perf'; then
	fail "perf's directory left behind"
fi
if [ -z "$pid" ]; then
	fail "the notes do not name the private directory"
elif left_behind "$pid"; then
	fail "something left behind after a run"
fi

# 2. A signal mid-run: every process ended, every cgroup removed.
for sig in INT TERM; do
	case $sig in
	INT) want=130 ;;
	TERM) want=143 ;;
	esac
	TMPDIR=$tmp "$MEMCGSIM" host-run "$scenario" -v base-1 -r 20 -d 1 -q \
		>"$tmp/out" 2>"$tmp/err" &
	pid=$!
	i=0
	while [ ! -d "$mount/memcgsim-host-run.$pid/netperf" ] && [ $i -lt 150 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.3
	children=$(ps -o pid= --ppid "$pid" || true)
	[ -n "$children" ] || fail "SIG$sig: no process running when signalled"
	kill -"$sig" "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = "$want" ] || fail "SIG$sig: exit $rc, expected $want"
	[ ! -s "$tmp/out" ] || fail "SIG$sig: something printed on stdout"
	grep -q "stopped by signal" "$tmp/err" ||
		fail "SIG$sig: no message saying why it stopped"
	for c in $children; do
		if kill -0 "$c" 2>/dev/null; then
			fail "SIG$sig: process $c is still there"
		fi
	done
	if left_behind "$pid"; then
		fail "SIG$sig: something left behind"
	fi
	if ls "$tmp" | grep -q '^memcgsim-perf'; then
		fail "SIG$sig: perf's directory left behind"
	fi
	if [ "$tracefs_before" = 0 ] &&
		grep -q ' - tracefs ' /proc/self/mountinfo; then
		fail "SIG$sig: tracefs left mounted"
	fi
done

# 3. Bad input: a variant the scenario lacks.
"$MEMCGSIM" host-run "$scenario" -v no-such -r 1 -d 0.1 -q \
	>"$tmp/out" 2>"$tmp/err" &
pid=$!
rc=0
wait "$pid" || rc=$?
[ "$rc" = 2 ] || fail "-v no-such: exit $rc, expected 2"
[ ! -s "$tmp/out" ] || fail "-v no-such: something printed on stdout"
grep -q "no-such" "$tmp/err" || fail "-v no-such: the error does not name it"
if left_behind "$pid"; then
	fail "-v no-such: something left behind"
fi

if [ "$failures" -gt 0 ]; then
	echo "$failures failure(s)"
	exit 1
fi
echo "PASS: host-run measures, lists what it cannot run, and leaves nothing behind"
