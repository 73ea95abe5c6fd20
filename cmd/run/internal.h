/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/run/internal.h - what the run driver's two halves share: reading
 * and running the variants (run.c), collecting a run's numbers into
 * results and the report (run_collect.c), and tracing (run_trace.c).
 *
 * Layering: private to cli/run*.c.
 */
#ifndef CLI_RUN_INTERNAL_H
#define CLI_RUN_INTERNAL_H

#include <stdbool.h>

#include "cmd/run/estimate.h"
#include "cmd/run/run.h"
#include "models/hw/machine.h"
#include "models/kernel/sim/config.h"
#include "models/kernel/mm/memcontrol.h"
#include "models/workloads/workload.h"
#include "sim/report.h"
#include "sim/sha256.h"

#define MAX_METRICS 64
#define MAX_VARIANTS 256
#define MAX_WORKLOADS 64
#define PROC_STACK 4096

/* A scenario with one variant's settings applied, checked and read. */
struct variant {
	char name[64];
	struct scenario_node *tree;
	uint64_t seed;
	sim_time_t warmup_ps, duration_ps;
	struct machine machine;
	struct kernel_config kernel;
	struct cgroup_tree cgroups;
	unsigned int nr_workloads;
	struct workload workloads[MAX_WORKLOADS];
	/*
	 * --set machine=PROFILE: a variant naming a CPU the profile lacks
	 * (a calibrated 2-CPU host under a 72-CPU scenario) is skipped, not
	 * refused; misfit is that CPU + 1 and misfit_at its `cpus`.
	 */
	bool machine_from_cli;
	unsigned int misfit;
	const struct scenario_node *misfit_at;
	/* The machine profile file loaded; "" for an inline profile. */
	char profile[1024];
	/* Checked, then unloaded but for @name and @seed: see variant_park(). */
	bool parked;
};

struct run_result;

/* What the results come from (cmd/run/provenance.c). */
#define RUN_PROV_MAX_PROFILES 16
#define RUN_PROV_MAX_NOTES 32
struct run_prov {
	char machine[256], duration[128], warmup[128]; /* "a, b" lists */
	char socket_cpus[1024]; /* likewise, each "0-17,36-53; 18-35,54-71" */
	struct sim_sha256 profiles; /* of each profile file, once */
	char profile_paths[RUN_PROV_MAX_PROFILES][1024];
	unsigned int nr_profiles;
	/* notes already in the report, said once (note_once() in run.c) */
	char noted[RUN_PROV_MAX_NOTES][256];
	unsigned int nr_noted;
};

void run__prov_init(struct run_prov *p);
void run__prov_add(struct run_prov *p, const struct variant *v);
void run__prov_record(struct report *r, struct run_prov *p, const char *path,
		      const struct run_opts *o);
/* Variant @col's legend: its set: as "KEY=VALUE, ..." ("" for none). */
void run__variant_legend(struct report *r, int col,
			 const struct scenario_node *vn);
/* @res's notes for variant @col, each said once in the report. */
void run__note_once(struct report *r, int col, const struct run_result *res,
		    struct run_prov *p);

/* The names of @table's @nr keys, checked against @map's (run.c). */
int run__check_keys(const struct scenario_node *map,
		    const struct scenario_key *table, size_t nr,
		    struct sim_error *err);

/* A scenario's `published:` block (cmd/run/published.c). */
enum { PUB_SOURCE, PUB_METRIC, PUB_VALUES, PUB_TOLERANCE_PP, NR_PUB_KEYS };
extern const struct scenario_key run__published_keys[NR_PUB_KEYS];
/* run__check_published() - refuse a published value of no variant in @vars. */
int run__check_published(const struct scenario_node *base,
			 const struct scenario_node *vars,
			 struct sim_error *err);
/*
 * run__record() - the metrics of @variant's @reps replications into @r;
 * right after the published metric, the published value of variant
 * @name when there is one (row "published").
 */
void run__record(struct report *r, int variant, struct run_result *res,
		 unsigned int reps, const struct scenario_node *base,
		 const char *name);

/* --max-memory, or the default limit when it is not given. */
uint64_t run__max_memory(const struct run_opts *o);
/* The estimate of one run of the loaded variant @v (cmd/run/estimate.h). */
void run__variant_estimate(const struct variant *v, bool traced,
			   struct estimate *est);
/* A run's progress and budgets, as cmd/run/run.c checks them. */
struct progress_ctx {
	const struct run_opts *o;
	double done, share; /* job fraction before this run, its share */
	sim_time_t end;
	/* The event budget (--max-events): 0 for none. */
	struct sim_engine *e;
	uint64_t max_events;
	double estimate; /* the events the run would take, once over */
	sim_time_t at; /* when that was found */
	bool trace_failed; /* a write of the trace failed: stopped */
	bool timed_out; /* --max-time was up: stopped */
	uint64_t work; /* the work units when the budget stopped it, or 0 */
};

/* The run stopped at --max-events: say how long it is, and the way out. */
void run__events_error(const struct variant *v, const struct progress_ctx *pc,
		       struct sim_error *err);
/*
 * run__mem_error() - the run's simulated memory passed --max-memory
 * (@limit), or could not be allocated: the error, with what makes it big
 * and how to go on.
 */
void run__mem_error(const struct variant *v, const struct run *run,
		    uint64_t limit, struct sim_error *err);
/*
 * run__check_outputs() - refuse @o's outputs that resolve to a file read
 * as input (sim/file.h), once a variant and its profiles are loaded.
 */
int run__check_outputs(const struct run_opts *o, struct sim_error *err);

/*
 * run__check_limits() - refuse @v when its estimated peak memory passes
 * --max-memory, or its estimated events or work (the larger: what
 * --max-events bounds while it runs) pass --max-events (-1 and @err),
 * before anything of its run is allocated (issue 34, item 2).
 */
int run__check_limits(const struct variant *v, const struct estimate *est,
		      const struct run_opts *o, struct sim_error *err);

/* MEMCGSIM_COUNTS=1: @run's events and work on stderr (cmd/run/limits.c). */
void run__counts_note(const struct variant *v, const struct run *run);

#define RUN_MAX_NOTES 4
#define RUN_FEW_SAMPLES 100 /* percentiles on fewer are noted as rough */

/* One run's numbers, before replications are combined. */
struct run_result {
	unsigned int nr;
	const char *name[MAX_METRICS];
	const char *unit[MAX_METRICS];
	bool higher_is_better[MAX_METRICS];
	double value[MAX_METRICS];
	/* What the numbers cannot say (few samples, a period never reached) */
	char notes[RUN_MAX_NOTES][256];
	unsigned int nr_notes;
};

/* run__collect() - the metrics of one finished run into @res. */
void run__collect(struct run *run, struct run_result *res);
/* run__lines_report() - the @hot_lines hottest cache lines into @r. */
void run__lines_report(struct run *run, struct report *r, int variant,
		       unsigned int hot_lines);
/* run__functions_report() - time by kernel function into @r. */
void run__functions_report(struct run *run, struct report *r, int variant);

/* Tracing (cmd/run/trace.c). */
int run__trace_check(const struct run_opts *o, const char *const *names,
		     unsigned int nr, const char *path, struct sim_error *err);
bool run__traced(const struct run_opts *o, const char *name);
void run__trace_begin(struct run *run, const struct run_opts *o, int col);
void run__trace_end(struct run *run, const char *vname, int col);

#endif /* CLI_RUN_INTERNAL_H */
