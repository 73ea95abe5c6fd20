/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/run/run.h - running a scenario: variants, replications, results.
 *
 * Theory of operation: scenario_run() loads the scenario file, applies the
 * command line's --set overrides to it, and checks every variant up front
 * (variant `set:` applied on top, then machine, kernel, cgroups and
 * workloads read and range-checked), so that bad input is refused before
 * anything runs and nothing half-done is printed. It then runs each
 * selected variant `replications` times, seeding replication r with a
 * seed derived from the scenario seed and r (replication 0 uses the
 * scenario seed itself), and records every metric's mean and 95%
 * confidence interval in a struct report.
 *
 * One variant's run: build the machine and the memory system, place one
 * task on each CPU of each workload, run the engine to the end of the
 * warm-up, reset all counts, run to the end, and read the counts.
 *
 * Layering: models/ module; the command line (cli/memcgsim.c) calls it.
 */
#ifndef CLI_RUN_H
#define CLI_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "models/workloads/workload.h"
#include "sim/error.h"
#include "sim/report.h"

struct sim_trace;

/*
 * --max-memory's default: 4 GiB, or half of this machine's memory, the
 * memory limit of its cgroup or RLIMIT_AS when one of those is less
 * (run_default_max_memory()). Half, because a sweep runs -j N
 * points at once and the system and the other points need the rest; 4
 * GiB, because no shipped scenario needs a tenth of it (stat-read-1000,
 * the largest, peaks at 140 MB) and a run past it is more often a
 * scenario written by mistake (1024 CPUs x 4094 cgroups with the stats
 * item counts at their maxima) than an experiment. The limit only decides
 * whether a run starts, never what it computes, so results stay the same
 * on every machine; a refusal names --max-memory.
 */
#define RUN_DEFAULT_MAX_MEMORY (4ull << 30)
#define RUN_DEFAULT_MAX_EVENTS 20000000000ull /* --max-events: 2e10 */
/*
 * For the --max-events message only, the same text on every machine:
 * what one core of a 2020s server runs (8.5e6 seen; 1.3e7 on the build
 * VM, cmd/run/estimate.c, whose estimates use that).
 */
#define RUN_EVENTS_PER_SECOND 1e7

struct estimate;

struct run_opts {
	const char *datadir; /* shipped scenarios: machines/, ... */
	const char *variant; /* NULL: all variants */
	const char *const *sets; /* --set KEY=VALUE, applied to the base */
	unsigned int nr_sets;
	bool seed_set;
	uint64_t seed; /* --seed */
	unsigned int replications; /* >= 1 */
	unsigned int hot_lines; /* lines reported per variant */
	bool all_metrics; /* --all-metrics: the table keeps all-zero rows */
	/*
	 * --trace: the first replication of each variant that runs, or of
	 * trace_variant only, from trace_from to trace_to (0: the end).
	 */
	struct sim_trace *trace;
	const char *trace_variant;
	uint64_t trace_from, trace_to; /* ps */
	/*
	 * Files the command will write (NULL entries ignored): refused once
	 * every variant is loaded (the scenario and every profile it names
	 * read), before anything runs, when one resolves to an input
	 * (sim/file.h).
	 */
	const char *outputs[2];
	bool check_only; /* check everything, run nothing */
	bool traced; /* --trace given (check_only: for the estimate) */
	/*
	 * Peak memory a run may take, as estimated before it starts
	 * (cmd/run/estimate.h), and the simulated cache lines and objects it
	 * places (models/hw/cache.c) while it sets up: 0 for
	 * run_default_max_memory(), UINT64_MAX for no limit. A run past
	 * it is refused before anything is allocated.
	 */
	uint64_t max_memory;
	/*
	 * Events a run may take, as estimated from its first 2^20 (events
	 * so far x the run's simulated time / the time so far): 0 for
	 * RUN_DEFAULT_MAX_EVENTS, UINT64_MAX for no limit. A run past it
	 * stops at that estimate and is refused.
	 */
	uint64_t max_events;

	/*
	 * --sensitivity: every workload's work_ns, and every latency of the
	 * machine profile, scaled by 1 + ppm / 1e6 after the variant's
	 * settings (0: as written).
	 */
	int32_t nudge_work_ppm, nudge_latency_ppm;

	bool callers; /* count each field's accesses by function (explain) */
	/* Called now and then with the fraction of the whole job done. */
	void (*progress)(void *arg, double done);
	void *progress_arg;
	/* Called after each variant's first replication, e.g. by explain. */
	void (*inspect)(void *arg, const char *variant, struct run *run);
	void *inspect_arg;
	/*
	 * Called with @running true just before the engine runs each
	 * replication (its setup done) and false just after (its reports
	 * not begun): tests/bench times the simulation alone there, as the
	 * peers' benchmarks time theirs (bench/peers.sh).
	 */
	void (*run_phase)(void *arg, bool running);
	void *run_phase_arg;
	/*
	 * Called with each selected variant's estimate as it is checked
	 * (one run of it: a replication), before the memory limit is
	 * applied: check and --dry-run print it.
	 */
	void (*estimate)(void *arg, const char *variant,
			 const struct estimate *est);
	void *estimate_arg;
	/*
	 * Called once every variant is checked (and @estimate called for
	 * each), just before the first runs: run announces a long run.
	 */
	void (*estimated)(void *arg);
	/*
	 * --max-time: true once the command's wall time is up (cli/ reads
	 * the clock); asked with the event and work budgets (every 2^20
	 * events, 2^16 operations), and a run then stops and is refused.
	 * NULL: no limit.
	 */
	bool (*time_up)(void *arg);
	void *time_up_arg;
};

/* The profile file a `machine:` value names (cmd/run/run.c). */
bool run_machine_path(const char *name, const char *dir, const char *datadir,
		      char *path, size_t size);

/*
 * --max-memory's default on this machine: the smallest of
 * RUN_DEFAULT_MAX_MEMORY, half of its memory, this process's cgroup
 * memory limit and RLIMIT_AS.
 */
uint64_t run_default_max_memory(void);
/*
 * run_cgroup_memory_limit() - the smallest memory limit on the way from
 * the cgroups that @self_cgroup (the text of /proc/self/cgroup) names up
 * to the root, read under @root (/sys/fs/cgroup): memory.max of the
 * unified hierarchy (v2, the "0::PATH" line), memory.limit_in_bytes of
 * memory/ (v1, the line whose controllers include memory). UINT64_MAX
 * when none is set or readable.
 */
uint64_t run_cgroup_memory_limit(const char *self_cgroup, const char *root);

/*
 * scenario_run() - run @path per @o. Return 0 with *@out set (the caller
 * frees it with report_free()), or -1 with @err set: 2 is the exit status
 * for errors in the input and for a run refused or out of memory, which
 * is all that can fail here (an allocation that fails anywhere below is
 * caught here: "out of memory while running variant 'x'"). With
 * @o->check_only, the scenario and every variant are loaded and checked
 * as for a run, estimated, nothing runs, and 0 leaves *@out untouched.
 */
/*
 * The keys of a scenario's top level, of a variant, of `published:` and
 * those every workload has, as they are read (for `memcgsim help keys`):
 * *tables is set to the four, the count is returned.
 */
unsigned int run_key_tables(const struct scenario_key_table **tables);

int scenario_run(const char *path, const struct run_opts *o,
		 struct report **out, struct sim_error *err);

#endif /* CLI_RUN_H */
