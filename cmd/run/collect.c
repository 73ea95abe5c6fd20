// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/run/collect.c - a finished run's numbers: throughput, latencies,
 * the charge path's counts and the statistics' (run__collect()), the
 * hottest cache lines and time by kernel function for the report. The
 * other half of the run driver, cmd/run/run.c, reads and runs the variants.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/run/internal.h"
#include "models/kernel/sim/config.h"
#include "models/kernel/mm/memcontrol.h"
#include "sim/error.h"
#include "sim/stats.h"
#include "sim/util.h"

/* The percentiles reported, each set asked of its statistic at once */
static const double p50_90_99[] = { 0.50, 0.90, 0.99 };
static const double p50_99[] = { 0.50, 0.99 };

static void result_add(struct run_result *res, const char *name,
		       const char *unit, double v, bool higher_is_better)
{
	SIM_BUG_ON(res->nr == MAX_METRICS);
	res->name[res->nr] = name;
	res->unit[res->nr] = unit;
	res->higher_is_better[res->nr] = higher_is_better;
	res->value[res->nr++] = v;
}

static void result_note(struct run_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void result_note(struct run_result *res, const char *fmt, ...)
{
	va_list ap;

	if (res->nr_notes == RUN_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(res->notes[res->nr_notes++], sizeof(res->notes[0]), fmt, ap);
	va_end(ap);
}

/*
 * Percentiles of @s (named @what) rest on its samples: say so when there
 * are a few (fewer than RUN_FEW_SAMPLES; @s->n counts every sample
 * exactly below SIM_STAT_EXACT, far above that).
 */
static void few_samples(struct run_result *res, const char *what,
			const struct sim_stat *s)
{
	if (s->n && s->n < RUN_FEW_SAMPLES)
		result_note(
			res,
			"%s rest on %zu samples (fewer than %u): rough; lengthen duration_ms for more",
			what, s->n, RUN_FEW_SAMPLES);
}

/*
 * The periodic stats flusher first runs at twice its period (as the
 * kernel's first flush_memcg_stats_dwork: see memcg_sim.c): a run that
 * ends before then never sees it, and ratelimited flushes never wait it
 * out. Say so, since stats_flush_period_ms then changes nothing.
 */
static void period_note(struct run *run, struct run_result *res)
{
	uint64_t first = 2ull * run->kernel->stats_flush_period_ms;
	char end[40];

	if (first * SIM_PS_PER_MS <= run->end_ps)
		return;
	sim_format_double(end, sizeof(end),
			  (double)run->end_ps / (double)SIM_PS_PER_MS);
	result_note(
		res,
		"every variant with stats_flush_period_ms %u: the periodic flusher would first run at %llu ms, after the run ends at %s ms, so it never runs",
		run->kernel->stats_flush_period_ms, (unsigned long long)first,
		end);
}

static double percent(double part, double whole)
{
	double p = whole > 0 ? 100.0 * part / whole : 0.0;

	return p > 100.0 ? 100.0 : p;
}

/* The charge path's own metrics (doc/design.md section 8). */
/*
 * lru_lock_share: of all tasks' time in the window, the share spent in
 * spin_lock_irqsave() of an LRU lock (its wait and its RMW), as perf's
 * profile of the same run would show _raw_spin_lock_irqsave() with
 * native_queued_spin_lock_slowpath() under it. Only for runs that take
 * the lock: it is what `fit --metric2` matches a real profile's share to.
 */
static void lru_lock_collect(struct run *run, struct run_result *res)
{
	sim_time_t in_lock = 0;
	uint64_t calls = 0;
	unsigned int i, j, nr_tasks = 0;

	if (!run->memcg->lru)
		return;
	for (i = 0; i < run->nr_workloads; i++) {
		struct workload *w = &run->workloads[i];

		for (j = 0; j < w->nr_tasks; j++) {
			const struct kprof_fn_stat *s =
				&w->tasks[j].prof.fn[KF__raw_spin_lock_irqsave];

			in_lock += s->self_ps;
			calls += s->calls;
		}
		nr_tasks += w->nr_tasks;
	}
	if (!calls)
		return;
	result_add(res, "lru_lock_share", "%",
		   percent((double)in_lock,
			   (double)nr_tasks *
				   (double)(run->end_ps - run->warmup_ps)),
		   false);
}

static void memcg_collect(struct run *run, struct run_result *res, uint64_t ops,
			  double secs)
{
	struct memcg_sim *ms = run->memcg;
	const struct memcg_counts *c = &ms->counts;
	double per_op = ops ? 1.0 / (double)ops : 0.0, p[3];
	bool charging = false, reading = false;
	unsigned int i;

	/* rows by the workloads present, so that variants line up */
	for (i = 0; i < run->nr_workloads; i++) {
		if (run->workloads[i].type == &stat_reader_type)
			reading = true;
		else if (run->workloads[i].type->memcg)
			charging = true;
	}
	period_note(run, res);
	if (!charging)
		goto stats;
	few_samples(res, "charge_latency_p50/p90/p99", &ms->charge_lat);
	result_add(res, "charge_latency_mean", "ns",
		   sim_stat_mean(&ms->charge_lat), false);
	sim_stat_quantile_each(&ms->charge_lat, p50_90_99, 3, p);
	result_add(res, "charge_latency_p50", "ns", p[0], false);
	result_add(res, "charge_latency_p90", "ns", p[1], false);
	result_add(res, "charge_latency_p99", "ns", p[2], false);
	result_add(res, "charges_per_op", "calls", (double)c->charges * per_op,
		   false);
	result_add(res, "stock_hit_rate", "%",
		   percent((double)c->stock_hits, (double)c->charges), false);
	result_add(res, "page_counter_charges_per_op", "calls",
		   (double)c->pc_try_charges * per_op, false);
	result_add(res, "page_counter_uncharges_per_op", "calls",
		   (double)c->pc_uncharges * per_op, false);
	result_add(res, "charge_failures", "calls", (double)c->failures, false);
	lru_lock_collect(run, res);
stats:
	/* statistics (doc/design.md section 5) */
	result_add(res, "stats_atomics_per_op", "calls",
		   (double)c->stats_atomics * per_op, false);
	result_add(res, "flushes_per_s", "1/s", (double)c->flushes / secs,
		   false);
	result_add(res, "flushes_skipped", "calls", (double)c->flushes_skipped,
		   false);
	few_samples(res, "flush_time_p50/p99", &ms->flush_lat);
	sim_stat_quantile_each(&ms->flush_lat, p50_99, 2, p);
	result_add(res, "flush_time_p50", "ns", p[0], false);
	result_add(res, "flush_time_p99", "ns", p[1], false);
	if (!reading)
		return;
	result_add(res, "stat_read_latency_mean", "ns",
		   sim_stat_mean(&ms->read_lat), false);
	few_samples(res, "stat_read_latency_p50/p99", &ms->read_lat);
	sim_stat_quantile_each(&ms->read_lat, p50_99, 2, p);
	result_add(res, "stat_read_latency_p50", "ns", p[0], false);
	result_add(res, "stat_read_latency_p99", "ns", p[1], false);
	result_add(res, "stat_pass_time_mean", "us",
		   sim_stat_mean(&ms->pass_lat) / 1000.0, false);
	result_add(res, "stats_error_max", "pages", c->error_max, false);
	result_add(res, "stats_error_mean", "pages",
		   c->error_reads ? c->error_sum / (double)c->error_reads : 0.0,
		   false);
}

void run__collect(struct run *run, struct run_result *res)
{
	double secs = (double)(run->end_ps - run->warmup_ps) / 1e12, tput = 0;
	double p[3];
	uint64_t ops = 0, transfers = 0;
	sim_time_t wait = 0, busy_max = 0;
	unsigned int i, j, nr_tasks = 0;

	for (i = 0; i < run->nr_workloads; i++) {
		struct workload *w = &run->workloads[i];

		for (j = 0; j < w->nr_tasks; j++) {
			struct sim_task *t = &w->tasks[j];

			ops += t->ops;
			/* per CPU of the list: a task may have moved (sched) */
			wait += coh_cpu(run->coh, w->cpus[j])->wait_ps;
			/* throughput adds up the workloads of one unit */
			if (!strcmp(w->type->unit,
				    run->workloads[0].type->unit))
				tput += (double)t->ops * w->scale;
		}
		nr_tasks += w->nr_tasks;
	}
	result_add(res, "throughput", run->workloads[0].type->unit, tput / secs,
		   true);
	if (run->nr_workloads > 1) {
		static const char *const names[] = {
			"workload0_throughput", "workload1_throughput",
			"workload2_throughput", "workload3_throughput",
			"workload4_throughput", "workload5_throughput",
			"workload6_throughput", "workload7_throughput",
		};

		/* The first eight, as separate metrics. */
		for (i = 0; i < run->nr_workloads && i < 8; i++) {
			struct workload *w = &run->workloads[i];
			uint64_t wops = 0;

			for (j = 0; j < w->nr_tasks; j++)
				wops += w->tasks[j].ops;
			result_add(res, names[i], w->type->unit,
				   (double)wops / secs * w->scale, true);
		}
	}
	result_add(res, "latency_mean", "ns", sim_stat_mean(&run->lat), false);
	few_samples(res, "latency_p50/p90/p99", &run->lat);
	sim_stat_quantile_each(&run->lat, p50_90_99, 3, p);
	result_add(res, "latency_p50", "ns", p[0], false);
	result_add(res, "latency_p90", "ns", p[1], false);
	result_add(res, "latency_p99", "ns", p[2], false);

	coh_lines_sum(run->coh, &transfers, &busy_max);
	result_add(res, "transfers_per_op", "lines",
		   ops ? (double)transfers / (double)ops : 0.0, false);
	/*
	 * SIM: a hand-off or a wait is counted whole when it is served, so
	 * one in progress at the end of the window counts a little past it
	 * (and one begun before the warm-up ended, not at all): clamp.
	 */
	result_add(res, "hottest_line_util", "%",
		   percent((double)busy_max,
			   (double)(run->end_ps - run->warmup_ps)),
		   false);
	result_add(res, "cpu_waiting", "%",
		   percent((double)wait,
			   (double)nr_tasks *
				   (double)(run->end_ps - run->warmup_ps)),
		   false);
	if (run->memcg)
		memcg_collect(run, res, ops, secs);
	/* the workload types' own metrics, of the first workload of each */
	for (i = 0; i < run->nr_workloads; i++) {
		struct workload *w = &run->workloads[i];
		struct workload_metric m[8];
		unsigned int n;

		if (!w->type->metrics)
			continue;
		for (j = 0; j < i; j++)
			if (run->workloads[j].type == w->type)
				break;
		if (j < i)
			continue;
		n = w->type->metrics(w, m, ARRAY_SIZE(m));
		for (j = 0; j < n; j++)
			result_add(res, m[j].name, m[j].unit, m[j].value,
				   false);
	}
}

void run__lines_report(struct run *run, struct report *r, int variant,
		       unsigned int n)
{
	struct coh_line **lines = calloc(n + 1, sizeof(*lines));
	double secs_ps = (double)(run->end_ps - run->warmup_ps);
	unsigned int i, j;

	SIM_OOM_ON(!lines);
	if (n > coh_nr_lines(run->coh))
		n = coh_nr_lines(run->coh);
	coh_lines_sorted(run->coh, lines, n);
	for (i = 0; i < n; i++) {
		struct coh_line *l = lines[i];
		struct report_line rl = { 0 };
		size_t len = 0, olen;

		if (!l->ops[COH_READ] && !l->ops[COH_WRITE] && !l->ops[COH_RMW])
			break;
		snprintf(rl.name, sizeof(rl.name), "%s", l->name);
		/* the line's object, whose name may hold dots: memcg(/a.b) */
		olen = strstr(l->name, " line ") ?
			       (size_t)(strstr(l->name, " line ") - l->name) :
			       0;
		for (j = 0; j < l->nr_fields && len < sizeof(rl.fields) - 1;
		     j++) {
			const char *f = l->fields[j].name,
				   *dot = strchr(f, '.');

			if (olen && !strncmp(f, l->name, olen) &&
			    f[olen] == '.')
				f += olen + 1;
			else if (dot)
				f = dot + 1;
			len += (size_t)snprintf(rl.fields + len,
						sizeof(rl.fields) - len, "%s%s",
						j ? " " : "", f);
		}
		rl.reads = l->ops[COH_READ];
		rl.writes = l->ops[COH_WRITE];
		rl.rmws = l->ops[COH_RMW];
		rl.hits = l->hits;
		rl.misses = l->misses;
		rl.transfers = l->transfers;
		for (j = 1; j < NR_COH_DIST; j++)
			rl.xfer_by_dist[j - 1] = l->xfer_by_dist[j];
		rl.xfer_by_dist[4] = l->xfer_by_dist[NR_COH_DIST];
		if (l->xfer_to) {
			rl.nr_cpus = coh_nr_cpus(run->coh);
			if (rl.nr_cpus > REPORT_MAX_CPUS)
				rl.nr_cpus = REPORT_MAX_CPUS;
			for (j = 0; j < rl.nr_cpus; j++)
				rl.xfer_to_cpu[j] = l->xfer_to[j];
		}
		rl.wait_ns = (double)l->wait_ps / 1000.0;
		rl.busy_ns = (double)l->busy_ps / 1000.0;
		rl.utilisation = percent((double)l->busy_ps, secs_ps) / 100.0;
		report_line(r, variant, &rl);
	}
	free(lines);
}

/*
 * functions_report() - time by kernel function over every task of the
 * run (models/kernel/sim/kprof.h), for the memcg workloads.
 */
void run__functions_report(struct run *run, struct report *r, int variant)
{
	struct kprof_fn_stat sum[NR_KPROF_FNS];
	struct report_function rf;
	double total = 0;
	uint64_t ops = 0;
	unsigned int i, j, f;

	memset(sum, 0, sizeof(sum));
	for (i = 0; i < run->nr_workloads; i++) {
		for (j = 0; j < run->workloads[i].nr_tasks; j++) {
			const struct sim_task *t = &run->workloads[i].tasks[j];

			ops += t->ops;
			for (f = 0; f < NR_KPROF_FNS; f++) {
				sum[f].calls += t->prof.fn[f].calls;
				sum[f].self_ps += t->prof.fn[f].self_ps;
				sum[f].total_ps += t->prof.fn[f].total_ps;
			}
		}
	}
	for (f = 0; f < NR_KPROF_FNS; f++)
		total += (double)sum[f].self_ps;
	if (total <= 0)
		return;
	for (f = 0; f < NR_KPROF_FNS; f++) {
		if (!sum[f].self_ps && !sum[f].calls)
			continue;
		memset(&rf, 0, sizeof(rf));
		snprintf(rf.name, sizeof(rf.name), "%s", kprof_name(f));
		rf.self_pct = 100.0 * (double)sum[f].self_ps / total;
		rf.children_pct = 100.0 * (double)sum[f].total_ps / total;
		rf.calls_per_op = ops ? (double)sum[f].calls / (double)ops : 0;
		report_function(r, variant, &rf);
	}
}
