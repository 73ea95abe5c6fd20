/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli/run_internal.h - what the run driver's two halves share: reading
 * and running the variants (run.c), collecting a run's numbers into
 * results and the report (run_collect.c), and tracing (run_trace.c).
 *
 * Layering: private to cli/run*.c.
 */
#ifndef CLI_RUN_INTERNAL_H
#define CLI_RUN_INTERNAL_H

#include <stdbool.h>

#include "cli/run.h"
#include "models/workloads/workload.h"
#include "sim/report.h"

#define MAX_METRICS 64

/* One run's numbers, before replications are combined. */
struct run_result {
	unsigned int nr;
	const char *name[MAX_METRICS];
	const char *unit[MAX_METRICS];
	bool higher_is_better[MAX_METRICS];
	double value[MAX_METRICS];
};

/* run__collect() - the metrics of one finished run into @res. */
void run__collect(struct run *run, struct run_result *res);
/* run__lines_report() - the @hot_lines hottest cache lines into @r. */
void run__lines_report(struct run *run, struct report *r, int variant,
		       unsigned int hot_lines);
/* run__functions_report() - time by kernel function into @r. */
void run__functions_report(struct run *run, struct report *r, int variant);

/* Tracing (cli/run_trace.c). */
int run__trace_check(const struct run_opts *o, const char *const *names,
		     unsigned int nr, const char *path, struct sim_error *err);
bool run__traced(const struct run_opts *o, const char *name);
void run__trace_begin(struct run *run, const struct run_opts *o, int col);
void run__trace_end(struct run *run, const char *vname, int col);

#endif /* CLI_RUN_INTERNAL_H */
