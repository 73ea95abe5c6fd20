# SPDX-License-Identifier: GPL-2.0-only
# cli/: memcgsim's commands. The program's main (memcgsim.c: the command
# table) with its option tables and parser (options.c), and one file per
# command; the run driver (run.c) is shared by run, sweep, validate and
# explain, and uses list.c's listing of the shipped machine profiles. May include every layer below it; nothing below includes cli/.
# The commands live in libsim.a too, so the Check suites can drive them.
# A command too big for one file is split at its seams (sweep: sweep_jobs,
# sweep_merge, sweep_verify; plot: plot_draw), and its files share a
# NAME_internal.h with NAME__ helpers that nothing else includes.
libsim_a_SOURCES += \
	%reldir%/run.c %reldir%/run.h %reldir%/run_internal.h \
	%reldir%/run_collect.c %reldir%/run_trace.c %reldir%/run_estimate.c \
	%reldir%/estimate.c %reldir%/estimate.h \
	%reldir%/list.c %reldir%/list.h \
	%reldir%/explain.c %reldir%/explain.h \
	%reldir%/validate.c %reldir%/validate.h \
	%reldir%/plot.c %reldir%/plot.h %reldir%/plot_internal.h \
	%reldir%/plot_draw.c \
	%reldir%/sweep.c %reldir%/sweep.h %reldir%/sweep_internal.h \
	%reldir%/sweep_jobs.c %reldir%/sweep_merge.c %reldir%/sweep_verify.c \
	%reldir%/sweep_override.c \
	%reldir%/compare.c %reldir%/compare.h %reldir%/compare_internal.h \
	%reldir%/compare_print.c
# memcgsim calibrate: pinned pthread microbenchmarks on this host (hwloc
# for the topology) and the same in the model (--check).
libsim_a_SOURCES += \
	%reldir%/calibrate.c %reldir%/calibrate.h \
	%reldir%/calibrate_bench.c %reldir%/calibrate_sim.c \
	%reldir%/calibrate_fit.c %reldir%/calibrate_io.c
AM_CFLAGS += $(HWLOC_CFLAGS)
LDADD += $(HWLOC_LIBS)
memcgsim_SOURCES = %reldir%/memcgsim.c %reldir%/options.c %reldir%/options.h \
	%reldir%/check.c %reldir%/check.h
