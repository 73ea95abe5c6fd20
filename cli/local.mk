# SPDX-License-Identifier: GPL-2.0-only
# cli/: memcgsim's commands. The program's main (memcgsim.c) and one file per
# command; the run driver (run.c) is shared by run, sweep, validate and
# explain. May include every layer below it; nothing below includes cli/.
# The commands live in libsim.a too, so the Check suites can drive them.
libsim_a_SOURCES += \
	%reldir%/run.c %reldir%/run.h \
	%reldir%/explain.c %reldir%/explain.h \
	%reldir%/validate.c %reldir%/validate.h \
	%reldir%/plot.c %reldir%/plot.h \
	%reldir%/sweep.c %reldir%/sweep.h \
	%reldir%/compare.c %reldir%/compare.h
# memcgsim calibrate: pinned pthread microbenchmarks on this host (hwloc
# for the topology) and the same in the model (--check).
libsim_a_SOURCES += \
	%reldir%/calibrate.c %reldir%/calibrate.h \
	%reldir%/calibrate_bench.c %reldir%/calibrate_sim.c \
	%reldir%/calibrate_fit.c %reldir%/calibrate_io.c
AM_CFLAGS += $(HWLOC_CFLAGS)
LDADD += $(HWLOC_LIBS)
memcgsim_SOURCES = %reldir%/memcgsim.c
