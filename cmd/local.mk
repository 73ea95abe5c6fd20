# SPDX-License-Identifier: GPL-2.0-only
# cmd/: memcgsim's commands, one folder each. The run driver (cmd/run/)
# is shared by run, sweep, validate and explain, and uses cmd/list/'s
# listing of the shipped machine profiles. A command's files share
# cmd/NAME/internal.h, with NAME__ helpers that nothing outside the
# folder includes. May include sim/, models/ and cmd/; cli/ (main and
# its options) includes cmd/, never the other way.
# The commands live in libsim.a, so the Check suites can drive them.
libsim_a_SOURCES += \
	%reldir%/run/run.c %reldir%/run/run.h %reldir%/run/internal.h \
	%reldir%/run/collect.c %reldir%/run/trace.c %reldir%/run/limits.c \
	%reldir%/run/provenance.c %reldir%/run/published.c \
	%reldir%/run/estimate.c %reldir%/run/estimate.h \
	%reldir%/run/sensitivity.c %reldir%/run/sensitivity.h \
	%reldir%/list/list.c %reldir%/list/list.h \
	%reldir%/explain/explain.c %reldir%/explain/explain.h \
	%reldir%/validate/validate.c %reldir%/validate/validate.h \
	%reldir%/plot/plot.c %reldir%/plot/plot.h %reldir%/plot/internal.h \
	%reldir%/plot/draw.c %reldir%/plot/sweep.c \
	%reldir%/sweep/sweep.c %reldir%/sweep/sweep.h %reldir%/sweep/internal.h \
	%reldir%/sweep/jobs.c %reldir%/sweep/merge.c %reldir%/sweep/verify.c \
	%reldir%/sweep/override.c \
	%reldir%/compare/compare.c %reldir%/compare/compare.h \
	%reldir%/compare/internal.h %reldir%/compare/print.c \
	%reldir%/fit/fit.c %reldir%/fit/fit.h \
	%reldir%/usage.c %reldir%/usage.h
# memcgsim calibrate: pinned pthread microbenchmarks on this host (hwloc
# for the topology) and the same in the model (--check).
libsim_a_SOURCES += \
	%reldir%/calibrate/calibrate.c %reldir%/calibrate/calibrate.h \
	%reldir%/calibrate/bench.c %reldir%/calibrate/sim.c \
	%reldir%/calibrate/fit.c %reldir%/calibrate/io.c
AM_CFLAGS += $(HWLOC_CFLAGS)
LDADD += $(HWLOC_LIBS)
# memcgsim host-run: the scenario on this host's kernel, in real cgroups
# (fork, pthreads, sched_setaffinity), beside the model.
libsim_a_SOURCES += \
	%reldir%/host-run/host_run.c %reldir%/host-run/host_run.h \
	%reldir%/host-run/internal.h %reldir%/host-run/cgroupfs.c \
	%reldir%/host-run/bench.c %reldir%/host-run/profile.c \
	%reldir%/host-run/tracepoints.c
