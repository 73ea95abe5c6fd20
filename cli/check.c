// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli/check.c - memcgsim check, run --dry-run and sweep --dry-run: each
 * run's estimate (cmd/run/estimate.h) in a table, nothing run or written.
 *
 *	SCENARIO:
 *	  variant                       runs     events       work     memory  wall time
 *	  root                             1    2.3e+06    1.9e+05   13.6 MiB      0.2 s
 *	  all                              6    1.4e+07    1.1e+06   13.6 MiB      1.0 s
 *
 * A row per run of a variant (times --replications); "all" adds events,
 * work, wall time and trace, and takes the peak memory (the variants run
 * one at a time). The work is what --max-events bounds besides the
 * events: operations, loop iterations, pages charged (struct run). Names
 * are escaped as errors escape them (sim_escape()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/check.h"
#include "cmd/run/estimate.h"
#include "sim/error.h"
#include "sim/file.h"
#include "sim/report.h"

#define ANNOUNCE_S 60.0 /* a run estimated longer says so first */

/*
 * A table of estimates, a row per run of a variant (times replications),
 * and a total: events, work, wall time and trace add up, memory is the peak
 * (variants run one at a time). The rows are held until the total, so
 * that the first column is as wide as its longest label (a sweep's
 * "0 workloads.0.think_ns=10 batch1" is wider than a variant's name;
 * ux-review-3 finding 19), and a scenario that fails to check prints
 * none of them.
 */
struct est_line {
	char label[160]; /* escaped */
	unsigned int runs;
	double events, work, memory, wall_s, trace_bytes;
};

struct est_table {
	FILE *out;
	unsigned int reps; /* --replications */
	bool trace; /* a trace column */
	const char *first; /* the first column's title: "variant" */
	unsigned int runs;
	double events, work, memory, wall_s, trace_bytes;
	struct est_line *lines;
	unsigned int nr_lines;
	size_t width; /* of the first column */
};

static void est_line(struct est_table *t, const char *label, unsigned int runs,
		     double events, double work, double memory, double wall_s,
		     double trace_bytes)
{
	struct est_line *grown, *l;
	size_t len;

	grown = realloc(t->lines, (t->nr_lines + 1) * sizeof(*grown));
	SIM_OOM_ON(!grown);
	t->lines = grown;
	l = &t->lines[t->nr_lines++];
	sim_escape(l->label, sizeof(l->label), label);
	l->runs = runs;
	l->events = events;
	l->work = work;
	l->memory = memory;
	l->wall_s = wall_s;
	l->trace_bytes = trace_bytes;
	len = strlen(l->label);
	if (len > t->width)
		t->width = len;
}

/* Print @t's lines under their header, and forget them. */
static void est_print(struct est_table *t)
{
	const char *first = t->first ? t->first : "variant";
	int w = (int)(t->width > strlen(first) ? t->width : strlen(first));
	char ev[32], wk[32], mem[32], wall[32], tr[32];
	unsigned int i;

	if (w < 28)
		w = 28;
	fprintf(t->out, "  %-*s %5s %10s %10s %10s %10s%s\n", w, first, "runs",
		"events", "work", "memory", "wall time",
		t->trace ? "      trace" : "");
	for (i = 0; i < t->nr_lines; i++) {
		const struct est_line *l = &t->lines[i];

		estimate_format_count(l->events, ev, sizeof(ev));
		estimate_format_count(l->work, wk, sizeof(wk));
		estimate_format_bytes(l->memory, mem, sizeof(mem));
		estimate_format_seconds(l->wall_s, wall, sizeof(wall));
		fprintf(t->out, "  %-*s %5u %10s %10s %10s %10s", w, l->label,
			l->runs, ev, wk, mem, wall);
		if (t->trace) {
			if (l->trace_bytes > 0)
				estimate_format_bytes(l->trace_bytes, tr,
						      sizeof(tr));
			else
				snprintf(tr, sizeof(tr), "-");
			fprintf(t->out, " %10s", tr);
		}
		fputc('\n', t->out);
	}
	free(t->lines);
	t->lines = NULL;
	t->nr_lines = 0;
}

static void est_row(void *arg, const char *variant, const struct estimate *e)
{
	struct est_table *t = arg;

	t->runs += t->reps;
	t->events += e->events * t->reps;
	t->work += e->work * t->reps;
	t->wall_s += e->wall_s * t->reps;
	t->trace_bytes += e->trace_bytes;
	if (e->memory > t->memory)
		t->memory = e->memory;
	est_line(t, variant, t->reps, e->events * t->reps, e->work * t->reps,
		 e->memory, e->wall_s * t->reps, e->trace_bytes);
}

static void est_total(struct est_table *t, const char *label)
{
	/*
	 * One trace file holds every variant, and its cap is the file's:
	 * the variants' traces add up to the cap at most (issue 32, item 6:
	 * 711 MiB announced for a file of 132).
	 */
	if (t->trace_bytes > estimate_trace_cap_bytes())
		t->trace_bytes = estimate_trace_cap_bytes();
	est_line(t, label, t->runs, t->events, t->work, t->memory, t->wall_s,
		 t->trace_bytes);
	est_print(t);
}

/*
 * One scenario's table: load and check it and every variant as a run
 * would, and print the estimate of each selected variant. 0, or an exit
 * status after printing the error.
 */
int cli_check_one(struct cli *c, const char *path, bool trace)
{
	struct est_table t = { .out = stdout,
			       .reps = c->o.replications,
			       .trace = trace };
	struct run_opts o = c->o;
	struct report *r = NULL;
	struct sim_error err;
	char shown[512];

	o.check_only = true;
	o.traced = trace;
	o.estimate = est_row;
	o.estimate_arg = &t;
	sim_error_clear(&err);
	printf("%s:\n", sim_escape(shown, sizeof(shown), path));
	if (scenario_run(path, &o, &r, &err)) {
		free(t.lines);
		fflush(stdout);
		sim_error_print(stderr, &err);
		return EXIT_BAD_INPUT;
	}
	report_free(r);
	est_total(&t, "all");
	return EXIT_SUCCESS;
}

/* memcgsim check SCENARIO... */
int cmd_check(struct cli *c, int nr_args, char **args)
{
	int i, ret = EXIT_SUCCESS;

	if (!nr_args)
		return cli_usage_error("check: %s", "missing SCENARIO");
	for (i = 0; i < nr_args; i++) {
		if (i)
			putchar('\n');
		if (cli_check_one(c, args[i], false))
			ret = EXIT_BAD_INPUT;
	}
	if (fflush(stdout)) {
		perror("memcgsim: stdout");
		return EXIT_RUN_FAILURE;
	}
	return ret;
}

/* sweep --dry-run: a row per point and variant, and the sweep's total. */
struct sweep_est {
	struct est_table t;
	unsigned int jobs;
};

static void sweep_est_row(void *arg, unsigned int point, const char *desc,
			  const char *variant, const struct estimate *e)
{
	struct sweep_est *se = arg;
	char label[640];

	snprintf(label, sizeof(label), "%u %s %s", point, desc, variant);
	est_row(&se->t, label, e);
}

/*
 * sweep --dry-run: each point's estimate and the sweep's, nothing run or
 * written (not even DIR/sweep.meta).
 */
int cli_sweep_dry_run(struct cli *c, struct sweep *s)
{
	struct sweep_est se = {
		.t = { .out = stdout,
		       .reps = c->o.replications,
		       .first = "point values variant" },
		.jobs = c->jobs,
	};
	struct sim_error err;
	char shown[4096], wall[32];

	sim_error_clear(&err);
	printf("%s: sweep of %u points:\n",
	       sim_escape(shown, sizeof(shown),
			  s->given ? s->given : s->scenario),
	       s->nr_points);
	if (sweep_estimate(s, sweep_est_row, &se, &err)) {
		free(se.t.lines);
		fflush(stdout);
		sim_error_print(stderr, &err);
		return EXIT_BAD_INPUT;
	}
	est_total(&se.t, "all");
	estimate_format_seconds(se.t.wall_s / c->jobs, wall, sizeof(wall));
	printf("  on %u job%s: about %s\n", c->jobs, c->jobs == 1 ? "" : "s",
	       wall);
	if (fflush(stdout)) {
		perror("memcgsim: stdout");
		return EXIT_RUN_FAILURE;
	}
	return EXIT_SUCCESS;
}

/*
 * A run estimated over a minute says so before it starts (issue 32, item
 * 6; before: nothing, even for an hour, under -q): the sum of the
 * variants' estimates, replications included.
 */
static void announce_add(void *arg, const char *variant,
			 const struct estimate *e)
{
	struct cli_announce *a = arg;

	(void)variant;
	a->runs += a->reps;
	a->wall_s += e->wall_s * a->reps;
}

static void announce(void *arg)
{
	struct cli_announce *a = arg;
	char wall[32];

	if (a->wall_s < ANNOUNCE_S)
		return;
	estimate_format_seconds(a->wall_s, wall, sizeof(wall));
	fprintf(stderr,
		"memcgsim: note: this run is estimated at about %s (%u run%s; memcgsim check prints each); Ctrl-C stops it and keeps nothing\n",
		wall, a->runs, a->runs == 1 ? "" : "s");
}

void cli_announce(struct cli *c, struct cli_announce *a)
{
	a->reps = c->o.replications;
	c->o.estimate = announce_add;
	c->o.estimate_arg = a;
	c->o.estimated = announce;
}

/* run --dry-run: the table of the one scenario, with the trace's size. */
/*
 * An output a dry run would have written: whether it could be (a file
 * created next to it and removed again), and a word that it was not.
 * 0, or the status of an output that cannot be written (as a real run's).
 */
static int dry_output(const char *path, const char *what)
{
	struct sim_error err;
	char shown[512];
	char *tmp;
	FILE *f;

	if (!path)
		return 0;
	sim_error_clear(&err);
	if (sim_output_check(path, &err)) {
		sim_error_print(stderr, &err);
		return EXIT_BAD_INPUT;
	}
	f = sim_atomic_open(path, &tmp, &err);
	if (!f) {
		sim_error_print(stderr, &err);
		return EXIT_RUN_FAILURE;
	}
	sim_atomic_close(f, path, tmp, false, &err);
	fprintf(stderr, "memcgsim: note: --dry-run: %s %s not written\n", what,
		sim_escape(shown, sizeof(shown), path));
	return 0;
}

int cli_run_dry_run(struct cli *c)
{
	int ret = cli_check_one(c, c->scenario, c->trace != NULL);

	if (fflush(stdout)) {
		perror("memcgsim: stdout");
		return EXIT_RUN_FAILURE;
	}
	/* The scenario and its profiles are read: check the outputs now. */
	if (!ret && c->out && strcmp(c->out, "-"))
		ret = dry_output(c->out, "--out");
	if (!ret)
		ret = dry_output(c->trace, "--trace");
	return ret;
}
