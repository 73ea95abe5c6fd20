# SPDX-License-Identifier: GPL-2.0-only
# models/: what is simulated.
libsim_a_SOURCES += \
	%reldir%/machine.c %reldir%/machine.h \
	%reldir%/cache.c %reldir%/cache.h \
	%reldir%/spinlock.c %reldir%/spinlock.h \
	%reldir%/kernel.c %reldir%/kernel.h \
	%reldir%/workload.c %reldir%/workload.h \
	%reldir%/teaching.c \
	%reldir%/explain.c %reldir%/explain.h \
	%reldir%/run.c %reldir%/run.h
