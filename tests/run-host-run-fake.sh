#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-host-run-fake.sh - memcgsim host-run end to end on fake roots
# (MEMCGSIM_HOST_ROOT: a directory with proc/self/mountinfo,
# proc/cmdline and a cgroup tree; cmd/host-run/cgroupfs.c), so that the
# v2 path runs on this project's v1-only hosts, and without root. The
# programs run for real (the af_unix pair of af-unix-kmem-2016's base-1,
# pinned to CPUs 0 and 1); joining a fake cgroup only writes a file.
#
#  1. A v2 root (memory in cgroup.controllers, delegated): exit 0; stderr
#     says the model runs with kernel.cgroup_version=2 and
#     kernel.kmem_accounting for this kernel's release, and no
#     swap_account or tcpmem_active (v1's); the header says the same;
#     the table names the v2 mount; patched-1 is listed (it sets
#     kmem_accounting: pages itself, a variant's key); nothing is left
#     below the fake root but what the test made.
#  2. A v1 root with memory.memsw.* and cgroup.memory=nokmem on the
#     command line, and the user's --set kernel.swap_account=false:
#     host-run gives cgroup_version=1, kmem_accounting=off and
#     tcpmem_active=true, and leaves swap_account to the user.
#  3. Neither hierarchy: exit 1, the error names the fake mountinfo,
#     nothing on stdout.
#  4. The other host programs, on the v1 root, each against the root run
#     host-run adds, on CPUs 0 and 1: kmalloc (kmalloc-obj-stock's v6.0:
#     msgsnd()/msgrcv() on a private SysV queue, which is gone
#     afterwards), hackbench (hackbench-objects' objects, one sender and
#     one receiver) and SCTP (netperf-sctp's sctp, one pair): each a
#     measured row, but SCTP where the kernel offers none, which is
#     listed with that reason instead.
#
# Timing: five runs of 2 variants x 1 repetition x (0.1 s + 0.02 s)
# plus the model's runs: about 4 s.
#
# Environment: MEMCGSIM (the program) and top_srcdir, both set by `make
# check`.
set -eu

: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"
. "$top_srcdir/tests/lib.sh"

ncpus=$(nproc)
if [ "$ncpus" -lt 2 ]; then
	echo "SKIP: the af_unix pair needs CPUs 0 and 1; this host has $ncpus"
	exit 77
fi
test_setup host-run-fake
top=$(cd "$top_srcdir" && pwd)
scenario=$top/scenarios/validation/af-unix-kmem-2016.yaml
profile=$top/tests/data/calibrate/host-2cpu.yaml
release=$(uname -r)
case $release in
[6-9].* | 5.9.* | 5.[1-9][0-9].*) kmem=objects ;;
5.* | 4.[6-9].* | 4.[1-9][0-9].*) kmem=pages ;;
*) kmem= ;;
esac

# make_root DIR MOUNTINFO-LINE: a fake root with that one mount
make_root()
{
	mkdir -p "$1/proc/self" "$1/sys/fs/cgroup/memory"
	printf '%s\n' "$2" >"$1/proc/self/mountinfo"
	echo "console=ttyS0 quiet" >"$1/proc/cmdline"
	: >"$1/sys/fs/cgroup/cgroup.procs"
	: >"$1/sys/fs/cgroup/memory/cgroup.procs"
}

# what is below DIR, sorted
tree()
{
	(cd "$1" && find . | sort)
}

# 1. v2
r=$tmp/v2
make_root "$r" "41 31 0:38 / /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw"
echo "cpu io memory pids" >"$r/sys/fs/cgroup/cgroup.controllers"
echo "memory" >"$r/sys/fs/cgroup/cgroup.subtree_control"
before=$(tree "$r")
rc=0
MEMCGSIM_HOST_ROOT=$r $limit "$MEMCGSIM" host-run "$scenario" -v base-1 \
	-v patched-1 -r 1 -d 0.1 --machine "$profile" --no-profile \
	>"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" = 0 ] || fail "v2: exit $rc, expected 0: $(cat "$tmp/err")"
want="kernel.cgroup_version=2${kmem:+, kernel.kmem_accounting=$kmem}"
grep -q "^memcgsim: host-run: the memory controller is on cgroup v2 here: the model runs this host's paths with $want (a --set of yours wins)\$" "$tmp/err" ||
	fail "v2: stderr does not say '$want': $(head -1 "$tmp/err")"
grep -q "^model: this host's kernel paths, set by host-run (a --set of yours wins): $want\$" "$tmp/out" ||
	fail "v2: the header does not say '$want'"
grep -q "^host: .*, cgroup v2 memory controller at $r/sys/fs/cgroup, " "$tmp/out" ||
	fail "v2: the table does not name the fake v2 mount"
grep -q '^base-1  */netperf  *[0-9]' "$tmp/out" ||
	fail "v2: no measured row for base-1"
grep -q '^  patched-1: kernel.kmem_accounting: not as in base-1' "$tmp/out" ||
	fail "v2: patched-1 (its own kmem_accounting) not listed"
[ "$(tree "$r")" = "$before" ] ||
	fail "v2: left behind: $(tree "$r" | grep memcgsim-host-run | head -3)"

# 2. v1 with swap accounting, nokmem, the user's swap_account
r=$tmp/v1
make_root "$r" "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory"
echo "quiet cgroup.memory=nokmem" >"$r/proc/cmdline"
: >"$r/sys/fs/cgroup/memory/memory.memsw.usage_in_bytes"
before=$(tree "$r")
rc=0
MEMCGSIM_HOST_ROOT=$r $limit "$MEMCGSIM" host-run "$scenario" -v base-1 \
	-r 1 -d 0.1 --machine "$profile" --no-profile \
	--set kernel.swap_account=false >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" = 0 ] || fail "v1: exit $rc, expected 0: $(cat "$tmp/err")"
want="kernel.cgroup_version=1, kernel.kmem_accounting=off, kernel.tcpmem_active=true"
grep -q "^model: this host's kernel paths, set by host-run (a --set of yours wins): $want\$" "$tmp/out" ||
	fail "v1: the header does not say '$want': $(grep '^model:' "$tmp/out")"
grep -q "cgroup v1 here: the model runs this host's paths with $want " "$tmp/err" ||
	fail "v1: stderr does not say '$want'"
[ "$(tree "$r")" = "$before" ] || fail "v1: something left behind"

# 4. kmalloc, hackbench, SCTP
queues()
{
	if [ -r /proc/sysvipc/msg ]; then
		wc -l </proc/sysvipc/msg
	else
		echo 0
	fi
}
q0=$(queues)
host_run()
{
	rc=0
	MEMCGSIM_HOST_ROOT=$r $limit "$MEMCGSIM" host-run "$@" -r 1 -d 0.1 \
		--machine "$profile" --no-profile -q >"$tmp/out" \
		2>"$tmp/err" || rc=$?
	[ "$rc" = 0 ] || fail "$1: exit $rc, expected 0: $(cat "$tmp/err")"
}
host_run "$top/scenarios/experiments/kmalloc-obj-stock.yaml" -v v6.0 \
	--set workloads.0.cpus=0-1
grep -q '^v6.0  */kmalloc  *[0-9]' "$tmp/out" ||
	fail "kmalloc: no measured row for v6.0"
[ "$(queues)" = "$q0" ] || fail "kmalloc: a SysV queue left behind"
host_run "$top/scenarios/experiments/hackbench-objects.yaml" -v objects \
	--set workloads.0.cpus=0-1 --set workloads.0.fds=1
grep -q '^objects  */hackbench  *[0-9]' "$tmp/out" ||
	fail "hackbench: no measured row for objects"
host_run "$top/scenarios/experiments/netperf-sctp.yaml" -v sctp \
	--set workloads.0.cpus=0-1 --set workloads.0.instances=1
grep -q '^sctp  */top/netperf  *[0-9]' "$tmp/out" ||
	grep -q '^  sctp: SCTP: this kernel offers none (socket(IPPROTO_SCTP): ' "$tmp/out" ||
	fail "SCTP: neither a measured row nor the reason there is none"
[ "$(tree "$r")" = "$before" ] || fail "4: something left behind"

# 3. neither
r=$tmp/none
make_root "$r" "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu"
rc=0
MEMCGSIM_HOST_ROOT=$r $limit "$MEMCGSIM" host-run "$scenario" -v base-1 \
	-r 1 -d 0.1 --no-profile >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || fail "neither: exit $rc, expected 1"
[ ! -s "$tmp/out" ] || fail "neither: something on stdout"
grep -q "^$r/proc/self/mountinfo: error: no cgroup hierarchy carries the memory controller" "$tmp/err" ||
	fail "neither: $(cat "$tmp/err")"

if [ "$failures" -ne 0 ]; then
	echo "$failures failure(s) in $0"
	exit 1
fi
echo "PASS: host-run on fake v2 and v1 roots"
