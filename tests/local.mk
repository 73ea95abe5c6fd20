# SPDX-License-Identifier: GPL-2.0-only
# One Check suite per module: tests/check_<module>.c
TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
TEST_LDADD = $(LDADD) $(CHECK_LIBS)

check_PROGRAMS += tests/check_scenario
tests_check_scenario_SOURCES = tests/check_scenario.c tests/scenario_test.h
tests_check_scenario_CFLAGS = $(TEST_CFLAGS)
tests_check_scenario_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_scenario_get
tests_check_scenario_get_SOURCES = tests/check_scenario_get.c tests/scenario_test.h
tests_check_scenario_get_CFLAGS = $(TEST_CFLAGS)
tests_check_scenario_get_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_scenario_keys
tests_check_scenario_keys_SOURCES = tests/check_scenario_keys.c
tests_check_scenario_keys_CFLAGS = $(TEST_CFLAGS)
tests_check_scenario_keys_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_machine
tests_check_machine_SOURCES = tests/check_machine.c
tests_check_machine_CFLAGS = $(TEST_CFLAGS)
tests_check_machine_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_report
tests_check_report_SOURCES = tests/check_report.c
tests_check_report_CFLAGS = $(TEST_CFLAGS)
tests_check_report_LDADD = $(TEST_LDADD)


check_PROGRAMS += tests/check_engine
tests_check_engine_SOURCES = tests/check_engine.c
tests_check_engine_CFLAGS = $(TEST_CFLAGS)
tests_check_engine_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_calendar
tests_check_calendar_SOURCES = tests/check_calendar.c
tests_check_calendar_CFLAGS = $(TEST_CFLAGS)
tests_check_calendar_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_stats
tests_check_stats_SOURCES = tests/check_stats.c
tests_check_stats_CFLAGS = $(TEST_CFLAGS)
tests_check_stats_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_cache
tests_check_cache_SOURCES = tests/check_cache.c tests/cache_test.h \
	tests/harness.c tests/harness.h tests/machine_test.h
tests_check_cache_CFLAGS = $(TEST_CFLAGS)
tests_check_cache_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_coh_law
tests_check_coh_law_SOURCES = tests/check_coh_law.c tests/cache_test.h \
	tests/harness.c tests/harness.h tests/machine_test.h
tests_check_coh_law_CFLAGS = $(TEST_CFLAGS)
tests_check_coh_law_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_contended
tests_check_contended_SOURCES = tests/check_contended.c tests/cache_test.h \
	tests/harness.c tests/harness.h tests/machine_test.h
tests_check_contended_CFLAGS = $(TEST_CFLAGS)
tests_check_contended_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_pahole
tests_check_pahole_SOURCES = tests/check_pahole.c
tests_check_pahole_CFLAGS = $(TEST_CFLAGS)
tests_check_pahole_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_insn
tests_check_insn_SOURCES = tests/check_insn.c tests/harness.c tests/harness.h \
	tests/machine_test.h
tests_check_insn_CFLAGS = $(TEST_CFLAGS)
tests_check_insn_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_page_counter
tests_check_page_counter_SOURCES = tests/check_page_counter.c tests/harness.c \
	tests/harness.h tests/machine_test.h
tests_check_page_counter_CFLAGS = $(TEST_CFLAGS)
tests_check_page_counter_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_sock
tests_check_sock_SOURCES = tests/check_sock.c tests/harness.c tests/harness.h \
	tests/machine_test.h
tests_check_sock_CFLAGS = $(TEST_CFLAGS)
tests_check_sock_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_sched
tests_check_sched_SOURCES = tests/check_sched.c
tests_check_sched_CFLAGS = $(TEST_CFLAGS)
tests_check_sched_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_memcontrol
tests_check_memcontrol_SOURCES = tests/check_memcontrol.c tests/harness.c \
	tests/harness.h tests/machine_test.h
tests_check_memcontrol_CFLAGS = $(TEST_CFLAGS)
tests_check_memcontrol_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_kmalloc
tests_check_kmalloc_SOURCES = tests/check_kmalloc.c tests/harness.c \
	tests/harness.h tests/machine_test.h
tests_check_kmalloc_CFLAGS = $(TEST_CFLAGS)
tests_check_kmalloc_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_sctp
tests_check_sctp_SOURCES = tests/check_sctp.c tests/harness.c tests/harness.h \
	tests/machine_test.h
tests_check_sctp_CFLAGS = $(TEST_CFLAGS)
tests_check_sctp_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_rstat
tests_check_rstat_SOURCES = tests/check_rstat.c tests/harness.c tests/harness.h \
	tests/machine_test.h
tests_check_rstat_CFLAGS = $(TEST_CFLAGS)
tests_check_rstat_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_qspinlock
tests_check_qspinlock_SOURCES = tests/check_qspinlock.c tests/harness.c \
	tests/harness.h tests/machine_test.h
tests_check_qspinlock_CFLAGS = $(TEST_CFLAGS)
tests_check_qspinlock_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_compare
tests_check_compare_SOURCES = tests/check_compare.c
tests_check_compare_CFLAGS = $(TEST_CFLAGS)
tests_check_compare_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_explain
tests_check_explain_SOURCES = tests/check_explain.c
tests_check_explain_CFLAGS = $(TEST_CFLAGS)
tests_check_explain_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_workload
tests_check_workload_SOURCES = tests/check_workload.c tests/harness.c \
	tests/harness.h tests/machine_test.h
tests_check_workload_CFLAGS = $(TEST_CFLAGS)
tests_check_workload_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_will_it_scale
tests_check_will_it_scale_SOURCES = tests/check_will_it_scale.c tests/harness.c \
	tests/harness.h tests/machine_test.h
tests_check_will_it_scale_CFLAGS = $(TEST_CFLAGS)
tests_check_will_it_scale_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_place
tests_check_place_SOURCES = tests/check_place.c tests/harness.c \
	tests/harness.h tests/machine_test.h
tests_check_place_CFLAGS = $(TEST_CFLAGS)
tests_check_place_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_host_cgroupfs
tests_check_host_cgroupfs_SOURCES = tests/check_host_cgroupfs.c
tests_check_host_cgroupfs_CFLAGS = $(TEST_CFLAGS)
tests_check_host_cgroupfs_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_run
tests_check_run_SOURCES = tests/check_run.c
tests_check_run_CFLAGS = $(TEST_CFLAGS)
tests_check_run_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_estimate
tests_check_estimate_SOURCES = tests/check_estimate.c
tests_check_estimate_CFLAGS = $(TEST_CFLAGS)
tests_check_estimate_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_config
tests_check_config_SOURCES = tests/check_config.c tests/scenario_test.h
tests_check_config_CFLAGS = $(TEST_CFLAGS)
tests_check_config_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_csv
tests_check_csv_SOURCES = tests/check_csv.c
tests_check_csv_CFLAGS = $(TEST_CFLAGS)
tests_check_csv_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_yaml_emit
tests_check_yaml_emit_SOURCES = tests/check_yaml_emit.c
tests_check_yaml_emit_CFLAGS = $(TEST_CFLAGS)
tests_check_yaml_emit_LDADD = $(TEST_LDADD)

# ---- Scenario-level tests: shell drivers, run with $(SHELL) ----
# tests/run-bad.sh          bad input is refused: exit 2, no output, the
#                           message in tests/bad/model-*.expect
# tests/run-golden.sh       every scenario gives tests/golden/*.{csv,yaml}
# tests/run-determinism.sh  same inputs and seed, same bytes
# tests/run-calibration.sh  the coherence model against the published
#                           contended-counter measurement it is calibrated on
# tests/run-validation.sh   the validation scenarios' predictions against the
#                           published results are the ones doc/validation.md
#                           records
# They find the program through $MEMCGSIM and the data through $top_srcdir
# (AM_TESTS_ENVIRONMENT, last in this file). The data directories are
# distributed whole, so new corpus entries, golden files and scenarios
# need no list here.
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
TESTS += \
	%reldir%/run-bad.sh \
	%reldir%/run-golden.sh \
	%reldir%/run-determinism.sh \
	%reldir%/run-calibration.sh \
	%reldir%/run-validation.sh
EXTRA_DIST += \
	%reldir%/run-bad.sh \
	%reldir%/run-golden.sh \
	%reldir%/run-determinism.sh \
	%reldir%/run-calibration.sh \
	%reldir%/run-validation.sh \
	%reldir%/bad \
	%reldir%/golden \
	%reldir%/data

# tests/run-sweep.sh        sweep: -j 1, -j 3 and --plan through GNU parallel
#                           then merge give the same bytes; resume, bad
#                           input, a failing point, a killed sweep
TESTS += %reldir%/run-sweep.sh
EXTRA_DIST += %reldir%/run-sweep.sh %reldir%/bench-sweep.sh

# tests/run-plots.sh        memcgsim plot: every picture of a run, a teaching
#                           scenario and a sweep (tests/data/plots) is a
#                           valid, non-trivial PNG and SVG; bad input; no
#                           gnuplot; the default experiment's plots
#                           (skipped without gnuplot)
TESTS += %reldir%/run-plots.sh
EXTRA_DIST += %reldir%/run-plots.sh

# tests/run-keys.sh         the key tables (kernel: and every table of
#                           sim/scenario_keys.h): doc/memcgsim.1's key lists
#                           are `memcgsim help keys SECTION --format man`;
#                           every key refuses a value out of range and one
#                           of the wrong type (exit 2, file:line:col, the key)
TESTS += %reldir%/run-keys.sh
EXTRA_DIST += %reldir%/run-keys.sh

# tests/run-set-path.sh     a cgroup control set by a quoted path segment
#                           (cgroups./a/b."memory.max") through run --set,
#                           a variant's set: and sweep --vary reaches the
#                           cgroup: the same results as the file with it
TESTS += %reldir%/run-set-path.sh
EXTRA_DIST += %reldir%/run-set-path.sh

# tests/run-fit.sh          memcgsim fit finds a scenario's calibrated
#                           work_ns again and writes it back (issue 32)
TESTS += %reldir%/run-fit.sh
EXTRA_DIST += %reldir%/run-fit.sh

# tests/run-idle.sh         a paced reader's sleeps pay the idle state's
#                           exit latency under menu and teo, not poll
TESTS += %reldir%/run-idle.sh
EXTRA_DIST += %reldir%/run-idle.sh

# tests/run-recipes.sh      each teaching scenario's scaling-curve sweep
#                           recipe (in its header) checks under --dry-run
TESTS += %reldir%/run-recipes.sh
EXTRA_DIST += %reldir%/run-recipes.sh

# tests/run-explain.sh      explain's verdict per hot line follows its
#                           fields' access kinds (false sharing of
#                           read-mostly fields next to an RMW one, true
#                           sharing), with the functions that made them
TESTS += %reldir%/run-explain.sh
EXTRA_DIST += %reldir%/run-explain.sh

# tests/run-check.sh        memcgsim check and run/sweep --dry-run: an
#                           estimate row per variant, nothing run or
#                           written; bad input located; --max-memory
#                           refuses before allocating; an allocation that
#                           fails is a clean error; progress lines escape
#                           names; compare refuses a FIFO at once
TESTS += %reldir%/run-check.sh
EXTRA_DIST += %reldir%/run-check.sh %reldir%/lib.sh
# tests/run-trace.sh        every shipped scenario's --trace passes
#                           tests/tracecheck (Perfetto's rules: JSON,
#                           nesting per track, b/e and s/f pairs, flows in
#                           slices, counters); kernel functions hold their
#                           accesses; window, --trace-variant, bad options,
#                           escaping, determinism. tracecheck alone (no
#                           file) is its own self-test on good and bad
#                           samples.
check_PROGRAMS += tests/tracecheck
tests_tracecheck_SOURCES = tests/tracecheck.c
tests_tracecheck_LDADD =
TESTS += %reldir%/run-trace.sh
EXTRA_DIST += %reldir%/run-trace.sh

# tests/run-estimate.sh     the memory estimate of check within the factor
#                           memcgsim(1) states of every shipped scenario's
#                           measured peak (issue 34, item 10)
TESTS += %reldir%/run-estimate.sh
EXTRA_DIST += %reldir%/run-estimate.sh

# tests/run-cli.sh          what every command shares: --no-plots (taken
#                           by all but plot, which refuses it), --max-time
#                           bounding the whole of sweep and validate
TESTS += %reldir%/run-cli.sh
EXTRA_DIST += %reldir%/run-cli.sh

# tests/run-list.sh         memcgsim list: every shipped profile and
#                           scenario with its description and size (CPUs,
#                           variants x simulated time), as in its file
TESTS += %reldir%/run-list.sh
EXTRA_DIST += %reldir%/run-list.sh

# tests/run-slurm.sh        contrib/slurm-sweep.sh's array tasks run by
#                           hand from the build tree, --vary values with
#                           spaces: the count, then the merge equal to
#                           sweep -j 1 byte for byte
TESTS += %reldir%/run-slurm.sh
EXTRA_DIST += %reldir%/run-slurm.sh

# tests/run-calibrate.sh    memcgsim calibrate --check on this build VM's
#                           recorded measurements (tests/data/calibrate)
#                           within the stated 25%, deterministic; bad
#                           --cpus, -o and measurement files refused with
#                           exit 2 and file:line:col. Never times anything.
TESTS += %reldir%/run-calibrate.sh
EXTRA_DIST += %reldir%/run-calibrate.sh

# tests/run-published.sh    memcgsim calibrate --check on the published
#                           W-2145, Skylake-client and 8-socket 8176
#                           points (tests/data/calibrate/published-*)
#                           against their machines' profiles, each row
#                           within its stated tolerance (fitted rows near
#                           0%, predictions, known misses flagged); the
#                           wrong machine's profile (skx-2s-72) runs and
#                           reports; --check agrees with the calibration
#                           scenarios replaying the same points.
TESTS += %reldir%/run-published.sh
EXTRA_DIST += %reldir%/run-published.sh

# tests/run-docs.sh         the sample outputs in the documents and man
#                           pages (the default table, explain, run -f csv,
#                           a sweep's CSV, compare, the teaching runs) and
#                           the tables of contents are what memcgsim and
#                           the headings make now (tools/update-docs.sh);
#                           a drifted number, an unknown sample and a
#                           missing end marker are each caught; every
#                           document over 300 lines has a table of contents
TESTS += %reldir%/run-docs.sh
EXTRA_DIST += %reldir%/run-docs.sh tools/update-docs.sh

# make update-golden: rerun every scenario and rewrite tests/golden/ in the
# source tree; review the diff before committing.
update-golden: memcgsim$(EXEEXT)
	MEMCGSIM='$(abs_top_builddir)/memcgsim$(EXEEXT)' \
	top_srcdir='$(top_srcdir)' \
	$(SHELL) $(srcdir)/%reldir%/run-golden.sh --update

# make bench: engine events per second (per wall and per CPU second),
# operations per second, wall time and peak memory of atomic_counter on
# 8, 72 and 256 CPUs (target: 30 M events/s), of charge-batch-2022's six
# variants (target: under 2 s) and of every shipped experiment, among
# them stat-read-1000 (memory.stat of 1000 memcgs on 256 CPUs, v1 and v2,
# both local_stats modes; target: under 10 s and 200 MB; its reads run
# mostly without engine events, so its ops/s is the measure), about 30 s
# in all; then the wall time of a 64-point sweep of
# charge-batch-2022 with -j 1 and -j 2, and their ratio
# (tests/bench-sweep.sh). Each scenario's events/s also shows as a ratio
# to its last run, kept in bench-history.tsv in the build directory.
# Built only here, never by make all or make check.
EXTRA_PROGRAMS = %reldir%/bench
%canon_reldir%_bench_SOURCES = %reldir%/bench.c
CLEANFILES += %reldir%/bench$(EXEEXT)
bench: %reldir%/bench$(EXEEXT) memcgsim$(EXEEXT)
	%reldir%/bench$(EXEEXT) --history bench-history.tsv \
		$(srcdir)/%reldir%/data/bench-8.yaml \
		$(srcdir)/%reldir%/data/bench-72.yaml \
		$(srcdir)/%reldir%/data/bench-256.yaml \
		$(top_srcdir)/scenarios/validation/charge-batch-2022.yaml \
		$(top_srcdir)/scenarios/experiments/*.yaml
	$(SHELL) $(srcdir)/%reldir%/bench-sweep.sh ./memcgsim$(EXEEXT) \
		$(top_srcdir)/scenarios/validation/charge-batch-2022.yaml

# make bench-peers: the contended-counter benchmark (N CPUs, K shared
# counters, exponential think time, a serialised locked RMW per operation)
# in memcgsim, SimGrid and SimPy, interleaved, for N in {8, 72, 256} x K in
# {1, 16}, and the ratios of atomics (and events) per wall second
# (bench/peers.sh; about a minute). The peers are not build or check
# dependencies: a missing one is skipped with the package that provides it
# (Debian: libsimgrid-dev, python3-simpy3).
EXTRA_DIST += bench/peers.sh bench/simgrid_counter.cpp bench/simpy_counter.py
bench-peers: %reldir%/bench$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/peers.sh %reldir%/bench$(EXEEXT) \
		$(top_srcdir)

# make bench-peers-insns [PEERS_ROWS="72/1 256/16"]: the same benchmark
# in memcgsim, SimGrid and SimPy counted in instructions per atomic and
# per event by callgrind (marginal pairs), and their ratios against the
# goals: figures any host reproduces, whatever its load
# (bench/peers-insns.sh; about 5 minutes; needs valgrind).
EXTRA_DIST += bench/peers-insns.sh
bench-peers-insns: %reldir%/bench$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/peers-insns.sh %reldir%/bench$(EXEEXT) \
		$(top_srcdir)

# make bench-insns [INSNS_N=256 INSNS_K=16]: host instructions per
# simulated atomic of that benchmark, counted by callgrind (marginal
# between a 20 ms and a 5 ms run, both shortened when they would
# straddle 2^20 atomics), and the functions they go to
# (bench/insns.sh; needs valgrind): a measure the machine's load does not
# move, to compare two versions of the code.
INSNS_N = 256
INSNS_K = 16
EXTRA_DIST += bench/insns.sh
bench-insns: %reldir%/bench$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/insns.sh %reldir%/bench$(EXEEXT) \
		'$(INSNS_N)' '$(INSNS_K)'

# make bench-wall [WALL_N=72 WALL_K=16] [WALL_OTHER=/other/build]: that
# benchmark's atomics per CPU second, best of 5, this build and another
# build directory's (where `make tests/bench` has run) in turn: the wall
# time, host cache misses included, of two versions of the code on a
# shared machine (bench/wall.sh).
WALL_N = 72
WALL_K = 16
WALL_OTHER =
EXTRA_DIST += bench/wall.sh bench/lib.sh
bench-wall: %reldir%/bench$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/wall.sh '$(WALL_N)' '$(WALL_K)' . \
		$(WALL_OTHER)

# make bench-scale [SCALE_OTHER=/other/build]: what an event costs at
# 1024 CPUs x 1024 lines against 256 x 256 (doc/speed.md: at most 1.5x),
# marginal between a 4 ms and a 12 ms run, each the best of 8 runs,
# this build and another build directory's interleaved (bench/scale.sh;
# about a minute a build).
SCALE_OTHER =
EXTRA_DIST += bench/scale.sh
bench-scale: %reldir%/bench$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/scale.sh $(top_srcdir) . $(SCALE_OTHER)

# make bench-scale-sim: the same two sizes under cachegrind with fixed
# cache geometries (32 KiB L1; 1 MiB 16-way and 512 KiB 8-way last
# level) and its branch model: instructions, misses and mispredicted
# branches per event, and the ratio, as no host's load moves them
# (bench/scale-sim.sh; about 5 minutes; needs valgrind).
EXTRA_DIST += bench/scale-sim.sh
bench-scale-sim: %reldir%/bench$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/scale-sim.sh $(top_srcdir) \
		%reldir%/bench$(EXEEXT)

# make bench-perf [PERF_N=72 PERF_K=1]: where the host waits in that
# benchmark, sampled by perf's cpu-clock (no hardware counters needed):
# the functions with the most samples and their hottest instructions
# (bench/perf.sh; needs perf, Debian's linux-perf).
PERF_N = 72
PERF_K = 1
EXTRA_DIST += bench/perf.sh
bench-perf: %reldir%/bench$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/perf.sh %reldir%/bench$(EXEEXT) \
		'$(PERF_N)' '$(PERF_K)'

# make validate: rerun the validation scenarios and rewrite the table of
# predicted against published results in doc/validation.md (misses
# included).
validate: memcgsim$(EXEEXT)
	$(SHELL) $(srcdir)/tools/validation-table.sh \
		'$(abs_top_builddir)/memcgsim$(EXEEXT)' $(srcdir) --update

# make update-docs: regenerate every generated part of the documents:
# the key lists, option lists and synopses of the man pages and the user
# guide (update-keys, what tests/run-keys.sh compares), doc/validation.md's
# table (validate, tests/run-validation.sh), then the sample outputs and
# tables of contents (tests/run-docs.sh), in that order, since a sample
# may show a table; review the diff before committing.
update-docs: memcgsim$(EXEEXT)
	$(SHELL) $(srcdir)/tools/update-keys.sh \
		'$(abs_top_builddir)/memcgsim$(EXEEXT)' $(srcdir)
	$(SHELL) $(srcdir)/tools/validation-table.sh \
		'$(abs_top_builddir)/memcgsim$(EXEEXT)' $(srcdir) --update
	$(SHELL) $(srcdir)/tools/update-docs.sh \
		'$(abs_top_builddir)/memcgsim$(EXEEXT)' $(srcdir) --update

# make update-keys: rewrite the man pages' key lists and the user guide's
# table of kernel: keys from the key tables (what tests/run-keys.sh compares).
update-keys: memcgsim$(EXEEXT)
	$(SHELL) $(srcdir)/tools/update-keys.sh \
		'$(abs_top_builddir)/memcgsim$(EXEEXT)' $(srcdir)
EXTRA_DIST += tools/update-keys.sh

.PHONY: update-golden bench bench-peers bench-insns bench-wall bench-scale \
	bench-perf bench-peers-insns bench-scale-sim \
	validate update-keys update-docs

# fuzz/replay-T: the fuzz harness fuzz/fuzz_T.c built with the normal
# compiler and fuzz/replay.c's main(), which runs it on every committed
# input of target T: the seeds (fuzz/corpus/T/) and the inputs that once
# crashed, leaked or broke an assertion (fuzz/regress/T/), so a fixed
# finding stays fixed without clang. A finding aborts the program; under
# CI's sanitizer build, so does any report. The harnesses are linked with
# --wrap (fuzz/fuzz.h: the sandbox), as `make fuzz` links them.
REPLAY_CPP = $(AM_CPPFLAGS) -DFUZZ_SRCDIR='"$(abs_top_srcdir)"'
REPLAY_WRAP = -Wl,--wrap=open,--wrap=open64,--wrap=fopen,--wrap=fopen64
REPLAY_COMMON = fuzz/fuzz.h fuzz/sandbox.c fuzz/replay.c
check_PROGRAMS += fuzz/replay-scenario fuzz/replay-pahole fuzz/replay-results \
	fuzz/replay-merge fuzz/replay-measurements fuzz/replay-simulate
fuzz_replay_scenario_SOURCES = fuzz/fuzz_scenario.c $(REPLAY_COMMON)
fuzz_replay_scenario_CPPFLAGS = $(REPLAY_CPP) \
	-DFUZZ_TARGET_NAME='"scenario"'
fuzz_replay_scenario_LDFLAGS = $(REPLAY_WRAP)
fuzz_replay_pahole_SOURCES = fuzz/fuzz_pahole.c $(REPLAY_COMMON)
fuzz_replay_pahole_CPPFLAGS = $(REPLAY_CPP) \
	-DFUZZ_TARGET_NAME='"pahole"'
fuzz_replay_pahole_LDFLAGS = $(REPLAY_WRAP)
fuzz_replay_results_SOURCES = fuzz/fuzz_results.c $(REPLAY_COMMON)
fuzz_replay_results_CPPFLAGS = $(REPLAY_CPP) \
	-DFUZZ_TARGET_NAME='"results"'
fuzz_replay_results_LDFLAGS = $(REPLAY_WRAP)
fuzz_replay_merge_SOURCES = fuzz/fuzz_merge.c $(REPLAY_COMMON)
fuzz_replay_merge_CPPFLAGS = $(REPLAY_CPP) -DFUZZ_TARGET_NAME='"merge"'
fuzz_replay_merge_LDFLAGS = $(REPLAY_WRAP)
fuzz_replay_measurements_SOURCES = fuzz/fuzz_measurements.c $(REPLAY_COMMON)
fuzz_replay_measurements_CPPFLAGS = $(REPLAY_CPP) \
	-DFUZZ_TARGET_NAME='"measurements"'
fuzz_replay_measurements_LDFLAGS = $(REPLAY_WRAP)
fuzz_replay_simulate_SOURCES = fuzz/fuzz_simulate.c $(REPLAY_COMMON)
fuzz_replay_simulate_CPPFLAGS = $(REPLAY_CPP) -DFUZZ_TARGET_NAME='"simulate"'
fuzz_replay_simulate_LDFLAGS = $(REPLAY_WRAP)
EXTRA_DIST += fuzz/fuzz.mk fuzz/corpus fuzz/regress fuzz/scenario.dict \
	fuzz/results.dict fuzz/measurements.dict

TESTS += $(check_PROGRAMS)
AM_TESTS_ENVIRONMENT = top_srcdir='$(top_srcdir)'; export top_srcdir; \
	MEMCGSIM='$(abs_top_builddir)/memcgsim$(EXEEXT)'; export MEMCGSIM;

# shared by the suites that load a cited machine profile
EXTRA_DIST += %reldir%/machine_test.h

check_PROGRAMS += tests/check_sha256
tests_check_sha256_SOURCES = tests/check_sha256.c
tests_check_sha256_CFLAGS = $(TEST_CFLAGS)
tests_check_sha256_LDADD = $(TEST_LDADD)

# tests/run-host-run.sh     memcgsim host-run on this host's kernel for a
#                           few seconds (root and a memory hierarchy, else
#                           skipped): the rows, what it cannot reproduce,
#                           and nothing left behind, after SIGINT too
TESTS += %reldir%/run-host-run.sh
EXTRA_DIST += %reldir%/run-host-run.sh
# tests/run-host-run-fake.sh  host-run end to end on fake v2 and v1 roots
#                           (MEMCGSIM_HOST_ROOT), without root: the kernel:
#                           keys it gives the model, nothing left behind
TESTS += %reldir%/run-host-run-fake.sh
EXTRA_DIST += %reldir%/run-host-run-fake.sh

check_PROGRAMS += tests/check_cpuidle
tests_check_cpuidle_SOURCES = tests/check_cpuidle.c
tests_check_cpuidle_CFLAGS = $(TEST_CFLAGS)
tests_check_cpuidle_LDADD = $(TEST_LDADD)
