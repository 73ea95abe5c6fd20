// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/run/trace.c - which runs `run --trace` traces, and how each traced
 * run appears in the trace (see sim/trace.h for the format).
 *
 * Every variant that runs is traced (its first replication), each as two
 * processes of the one file, in the order of the variants: "VARIANT: CPUs"
 * (pid 2k+1: a track per CPU with its operations, the modelled functions
 * and the accesses they waited for, "cpuN posted" tracks for the accesses
 * they did not wait for, and a mark where the warm-up ends) and "VARIANT: cache lines" (pid 2k+2: a
 * track per line with who held it, and counters of its queue and
 * sharers). --trace-variant NAME keeps one variant; --trace-from and
 * --trace-to keep a window of simulated time.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/run/internal.h"
#include "models/hw/cache.h"
#include "sim/trace.h"

/* The trace's processes for the variant in report column @col. */
static int pid_cpus(int col)
{
	return 2 * col + 1;
}

static int pid_lines(int col)
{
	return 2 * col + 2;
}

/**
 * run__trace_check() - refuse trace options that cannot be honoured.
 * @o: the options
 * @names: the scenario's variants
 * @nr: how many
 * @path: the scenario, for messages
 * @err: filled on failure
 *
 * Return: 0, or -1 with @err set.
 */
int run__trace_check(const struct run_opts *o, const char *const *names,
		     unsigned int nr, const char *path, struct sim_error *err)
{
	const char *near;
	unsigned int i;

	if (!o->trace && !o->traced &&
	    (o->trace_variant || o->trace_from || o->trace_to)) {
		sim_error_set(
			err, "", 0, 0,
			"--trace-variant, --trace-from and --trace-to need --trace FILE%s",
			"");
		return -1;
	}
	if (o->trace_to && o->trace_to <= o->trace_from) {
		sim_error_set(err, "", 0, 0,
			      "--trace-to must be later than --trace-from%s",
			      "");
		return -1;
	}
	if (!o->trace_variant)
		return 0;
	for (i = 0; i < nr; i++)
		if (!strcmp(names[i], o->trace_variant))
			break;
	if (i == nr) {
		near = sim_nearest(o->trace_variant, names, nr);
		sim_error_set(
			err, "", 0, 0,
			"--trace-variant: no variant named '%s' in %s%s%s%s",
			o->trace_variant, path, near ? "; did you mean '" : "",
			near ? near : "", near ? "'?" : "");
		return -1;
	}
	if (o->variant && strcmp(o->variant, o->trace_variant)) {
		sim_error_set(
			err, "", 0, 0,
			"--trace-variant '%s' does not run: --variant runs only '%s'",
			o->trace_variant, o->variant);
		return -1;
	}
	return 0;
}

/**
 * run__traced() - whether the first replication of variant @name is (or,
 * checking only, would be) traced.
 * @o: the options
 * @name: the variant
 */
bool run__traced(const struct run_opts *o, const char *name)
{
	return (o->trace || o->traced) &&
	       (!o->trace_variant || !strcmp(o->trace_variant, name));
}

/**
 * run__trace_begin() - trace @run, the variant in report column @col.
 * @run: set up, not started
 * @o: the options (o->trace, the window)
 * @col: the variant's column: its processes are 2 @col + 1 and + 2
 */
void run__trace_begin(struct run *run, const struct run_opts *o, int col)
{
	sim_trace_set_window(o->trace, o->trace_from,
			     o->trace_to ? o->trace_to : UINT64_MAX);
	coh_set_trace(run->coh, o->trace, pid_cpus(col), pid_lines(col));
	sim_trace_run_begin(o->trace, pid_cpus(col), run->end_ps);
	/* the results count what happens after it */
	if (run->warmup_ps)
		sim_trace_instant(o->trace, pid_cpus(col),
				  "warm-up ends: measuring", run->warmup_ps);
}

/* Does CPU @cpu of @run run a task of a workload or the kworker? */
static bool cpu_runs(const struct run *run, unsigned int cpu)
{
	unsigned int i, j;

	if (run->kworker_cpu == (int)cpu)
		return true;
	for (i = 0; i < run->nr_workloads; i++)
		for (j = 0; j < run->workloads[i].nr_tasks; j++)
			if (run->workloads[i].cpus[j] == cpu)
				return true;
	return false;
}

/**
 * run__trace_end() - @run, traced, is over: end what is still open, and
 * name its processes and tracks (the lines busiest first, those the trace
 * holds anything of).
 * @run: finished
 * @vname: the variant's name
 * @col: as for run__trace_begin()
 */
void run__trace_end(struct run *run, const char *vname, int col)
{
	struct sim_trace *t = coh_trace(run->coh);
	unsigned int i, nr = coh_nr_lines(run->coh);
	struct coh_line **lines;
	char name[128];

	if (!t)
		return;
	sim_trace_run_end(t, sim_now(run->engine));
	coh_trace_flush(run->coh);
	/* once: the first variant that met the cap */
	if (sim_trace_run_dropped(t) &&
	    sim_trace_run_dropped(t) == sim_trace_dropped(t))
		fprintf(stderr,
			"memcgsim: note: --trace: the trace met its cap of %" PRIu64
			" events in variant '%s'; later events were dropped (\"trace_truncated\" counts them): narrow it with --trace-from and --trace-to, or --trace-variant\n",
			sim_trace_max_events(t), vname);
	snprintf(name, sizeof(name), "%s: CPUs", vname);
	sim_trace_process(t, pid_cpus(col), name);
	sim_trace_process_sort(t, pid_cpus(col), pid_cpus(col));
	snprintf(name, sizeof(name), "%s: cache lines", vname);
	sim_trace_process(t, pid_lines(col), name);
	sim_trace_process_sort(t, pid_lines(col), pid_lines(col));
	/*
	 * Only the CPUs that run something get a named track: those of the
	 * workloads' lists and the statistics kworker's. Naming all 72 of
	 * a machine gave 256 empty tracks of 306 in a false-sharing trace
	 * (ux-review-3 finding 23).
	 */
	for (i = 0; i < run->machine.nr_cpus; i++) {
		if (!cpu_runs(run, i))
			continue;
		snprintf(name, sizeof(name), "cpu %u", i);
		sim_trace_thread(t, pid_cpus(col), (int)i, name, (int)i);
	}
	lines = calloc(nr + 1, sizeof(*lines));
	if (lines) {
		coh_lines_sorted(run->coh, lines, nr);
		for (i = 0; i < nr; i++)
			if (coh_trace_line_used(run->coh, lines[i]))
				sim_trace_thread(t, pid_lines(col),
						 (int)lines[i]->index,
						 lines[i]->name, (int)i);
		free(lines);
	}
	coh_set_trace(run->coh, NULL, 0, 0);
}
