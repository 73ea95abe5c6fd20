# SPDX-License-Identifier: GPL-2.0-only
# cli/: memcgsim's commands. The program's main (memcgsim.c) and one file per
# command; the run driver (run.c) is shared by run, sweep, validate and
# explain. May include every layer below it; nothing below includes cli/.
# The commands live in libsim.a too, so the Check suites can drive them.
# A command too big for one file is split at its seams (sweep: sweep_jobs,
# sweep_merge; plot: plot_draw), and its files share a NAME_internal.h
# with NAME__ helpers that nothing else includes.
libsim_a_SOURCES += \
	%reldir%/run.c %reldir%/run.h \
	%reldir%/explain.c %reldir%/explain.h \
	%reldir%/validate.c %reldir%/validate.h \
	%reldir%/plot.c %reldir%/plot.h %reldir%/plot_internal.h \
	%reldir%/plot_draw.c \
	%reldir%/sweep.c %reldir%/sweep.h %reldir%/sweep_internal.h \
	%reldir%/sweep_jobs.c %reldir%/sweep_merge.c \
	%reldir%/compare.c %reldir%/compare.h
memcgsim_SOURCES = %reldir%/memcgsim.c
