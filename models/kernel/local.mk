# SPDX-License-Identifier: GPL-2.0-only
# models/kernel/: one file per kernel file it models, kernel names and
# order, plus the `kernel:` configuration keys and the SIM-only helpers
# (time by kernel function, pahole layouts). Includes only models/hw/ and
# sim/.
libsim_a_SOURCES += \
	%reldir%/config.c %reldir%/config.h \
	%reldir%/kprof.c %reldir%/kprof.h \
	%reldir%/insn.c %reldir%/insn.h \
	%reldir%/pahole.c %reldir%/pahole.h \
	%reldir%/qspinlock.c %reldir%/qspinlock.h \
	%reldir%/compat/access.h %reldir%/compat/kernel.h \
	%reldir%/page_counter.c %reldir%/page_counter.h \
	%reldir%/page_counter_layout.c %reldir%/page_counter_layout.h \
	%reldir%/memcontrol.c %reldir%/memcontrol.h \
	%reldir%/memcontrol_internal.h %reldir%/memcontrol_stats.c \
	%reldir%/memcg_sim.c \
	%reldir%/sock.c %reldir%/sock.h \
	%reldir%/sched_fair.c %reldir%/sched_fair.h \
	%reldir%/sctp.c %reldir%/sctp.h \
	%reldir%/rstat.c %reldir%/rstat.h \
	%reldir%/shmem.c %reldir%/shmem.h \
	%reldir%/mmap_lock.c %reldir%/mmap_lock.h
# the instruction counts insn.c compiles in, which tests/check_insn.c
# reads (tools/extract-insn-costs.py writes them)
EXTRA_DIST += %reldir%/insn-costs-6.1.tsv tools/extract-insn-costs.py \
	tools/extract-layouts.sh
