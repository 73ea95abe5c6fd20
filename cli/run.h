/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli/run.h - running a scenario: variants, replications, results.
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

struct run_opts {
	const char *datadir; /* shipped scenarios: machines/, ... */
	const char *variant; /* NULL: all variants */
	const char *const *sets; /* --set KEY=VALUE, applied to the base */
	unsigned int nr_sets;
	bool seed_set;
	uint64_t seed; /* --seed */
	unsigned int replications; /* >= 1 */
	unsigned int hot_lines; /* lines reported per variant */
	struct sim_trace *trace; /* trace the first run, or NULL */
	bool check_only; /* check everything, run nothing */
	bool callers; /* count each field's accesses by function (explain) */
	/* Called now and then with the fraction of the whole job done. */
	void (*progress)(void *arg, double done);
	void *progress_arg;
	/* Called after each variant's first replication, e.g. by explain. */
	void (*inspect)(void *arg, const char *variant, struct run *run);
	void *inspect_arg;
};

/*
 * scenario_run() - run @path per @o. Return 0 with *@out set (the caller
 * frees it with report_free()), or -1 with @err set: 2 is the exit status
 * for errors in the input, which is all that can fail here. With
 * @o->check_only, the scenario and every variant are loaded and checked
 * as for a run, nothing runs, and 0 leaves *@out untouched.
 */
int scenario_run(const char *path, const struct run_opts *o,
		 struct report **out, struct sim_error *err);

#endif /* CLI_RUN_H */
