# SPDX-License-Identifier: GPL-2.0-only
# models/: what is simulated.
libsim_a_SOURCES += \
	%reldir%/machine.c %reldir%/machine.h \
	%reldir%/cache.c %reldir%/cache.h \
	%reldir%/spinlock.c %reldir%/spinlock.h \
	%reldir%/kernel.c %reldir%/kernel.h \
	%reldir%/kprof.c %reldir%/kprof.h \
	%reldir%/pahole.c %reldir%/pahole.h \
	%reldir%/page_counter.c %reldir%/page_counter.h \
	%reldir%/memcontrol.c %reldir%/memcontrol.h \
	%reldir%/workload.c %reldir%/workload.h \
	%reldir%/teaching.c \
	%reldir%/sock.c %reldir%/sock.h \
	%reldir%/rstat.c %reldir%/rstat.h \
	%reldir%/netperf.c \
	%reldir%/page_fault.c \
	%reldir%/hackbench.c \
	%reldir%/stat_reader.c \
	%reldir%/explain.c %reldir%/explain.h \
	%reldir%/validate.c %reldir%/validate.h \
	%reldir%/plot.c %reldir%/plot.h \
	%reldir%/run.c %reldir%/run.h \
	%reldir%/sweep.c %reldir%/sweep.h
