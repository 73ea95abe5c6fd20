# SPDX-License-Identifier: GPL-2.0-only
# models/kernel/: the kernel's tree, mirrored: one file per kernel file it
# models (mm/, kernel/cgroup/, kernel/sched/, kernel/locking/, net/), with
# the kernel's names and order of operations; compat/ holds the access
# macros that stand for the kernel's primitives; sim/ holds the
# simulator's own machinery that builds and configures the kernel
# structs (the `kernel:` keys, the memcg world, struct layouts,
# instruction costs, time by kernel function): SIM only, no kernel file
# behind it. Includes only models/hw/ and sim/ (the top-level sim/).
libsim_a_SOURCES += \
	%reldir%/compat/access.h %reldir%/compat/kernel.h %reldir%/compat/sim.h \
	%reldir%/mm/page_counter.c %reldir%/mm/page_counter.h \
	%reldir%/mm/memcontrol.c %reldir%/mm/memcontrol.h \
	%reldir%/mm/memcontrol_internal.h %reldir%/mm/memcontrol_stats.c \
	%reldir%/mm/memcontrol_sock.c \
	%reldir%/mm/shmem.c %reldir%/mm/shmem.h \
	%reldir%/mm/swap.c %reldir%/mm/swap.h \
	%reldir%/mm/mmap_lock.c %reldir%/mm/mmap_lock.h \
	%reldir%/kernel/cgroup/rstat.c %reldir%/kernel/cgroup/rstat.h \
	%reldir%/kernel/sched/fair.c %reldir%/kernel/sched/fair.h \
	%reldir%/drivers/cpuidle/menu.c %reldir%/drivers/cpuidle/menu.h \
	%reldir%/drivers/cpuidle/teo.c %reldir%/drivers/cpuidle/teo.h \
	%reldir%/kernel/locking/qspinlock.c \
	%reldir%/kernel/locking/qspinlock.h \
	%reldir%/net/core/sock.c %reldir%/net/core/sock.h \
	%reldir%/net/ipv4/tcp.c %reldir%/net/ipv4/tcp.h \
	%reldir%/net/ipv4/tcp_input.c %reldir%/net/ipv4/tcp_output.c \
	%reldir%/net/ipv6/tcp_ipv6.c \
	%reldir%/net/unix/af_unix.c %reldir%/net/unix/af_unix.h \
	%reldir%/net/sctp/sctp.c %reldir%/net/sctp/sctp.h \
	%reldir%/sim/config.c %reldir%/sim/config.h \
	%reldir%/sim/kprof.c %reldir%/sim/kprof.h \
	%reldir%/sim/insn.c %reldir%/sim/insn.h \
	%reldir%/sim/page_counter_layout.c \
	%reldir%/sim/page_counter_layout.h \
	%reldir%/sim/memcg_sim.c
# the instruction counts insn.c compiles in, which tests/check_insn.c
# reads (tools/extract-insn-costs.py writes them)
EXTRA_DIST += %reldir%/sim/insn-costs-6.1.tsv tools/extract-insn-costs.py \
	tools/extract-layouts.sh
