// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli/explain.c - the teaching view of a run. See cli/explain.h.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/explain.h"
#include "models/kernel/memcontrol.h"
#include "sim/error.h"

static const char *const dist_words[NR_COH_DIST + 1] = {
	[COH_DIST_SMT] = "from the SMT sibling",
	[COH_DIST_LLC] = "from another core sharing the LLC",
	[COH_DIST_DIE] = "from another LLC domain of the socket",
	[COH_DIST_SOCKET] = "from the other socket",
	[NR_COH_DIST] = "from memory",
};

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

static uint64_t field_accesses(const struct coh_field_stat *fs)
{
	return fs->ops[COH_READ] + fs->ops[COH_WRITE] + fs->ops[COH_RMW];
}

static void explain_fields(FILE *out, const struct coh_line *l)
{
	unsigned int j;

	fprintf(out, "    %-28s %9s %9s %9s %7s %8s\n", "field", "reads",
		"writes", "rmws", "cpus", "wait%");
	for (j = 0; j < l->nr_fields; j++) {
		const struct coh_field_stat *fs = &l->fields[j];

		if (!field_accesses(fs))
			continue;
		fprintf(out, "    %-28.28s %9llu %9llu %9llu %7u %7.1f%%\n",
			fs->name, (unsigned long long)fs->ops[COH_READ],
			(unsigned long long)fs->ops[COH_WRITE],
			(unsigned long long)fs->ops[COH_RMW], fs->nr_cpus,
			pct((double)fs->wait_ps, (double)l->wait_ps));
	}
}

/*
 * explain_diagnosis() - name the pattern. False sharing: two or more
 * fields on the line, each touched by one CPU only, and the line moves.
 * True sharing: one field written by several CPUs.
 */
static void explain_diagnosis(FILE *out, const struct coh_line *l, double util,
			      uint64_t ops_total)
{
	unsigned int j, used = 0, private = 0, shared_written = 0;

	for (j = 0; j < l->nr_fields; j++) {
		const struct coh_field_stat *fs = &l->fields[j];

		if (!field_accesses(fs))
			continue;
		used++;
		if (fs->nr_cpus == 1)
		private++;
		if (fs->nr_cpus > 1 && fs->ops[COH_WRITE] + fs->ops[COH_RMW])
			shared_written++;
	}
	if (!l->transfers) {
		fprintf(out,
			"  Why: the line never moved: every access was a hit in the\n"
			"  accessing CPU's own cache. It costs nothing extra.\n");
		return;
	}
	if (used >= 2 && private == used)
		fprintf(out,
			"  Why: FALSE SHARING. No two CPUs touch the same field, yet the\n"
			"  fields share one 64-byte line, so every update takes the whole\n"
			"  line away from the others. Padding each field to its own line\n"
			"  (____cacheline_aligned_in_smp) removes these transfers.\n");
	else if (shared_written)
		fprintf(out,
			"  Why: TRUE SHARING. Several CPUs write the same variable, so\n"
			"  the line must visit each writer in turn. Batching (a per-CPU\n"
			"  count added to the shared one every N updates) divides how\n"
			"  often the line is needed.\n");
	else if (used >= 2)
		fprintf(out,
			"  Why: fields used by different CPUs share the line; reads of\n"
			"  one field pay for writes of another. Separating read-mostly\n"
			"  fields from written ones stops that.\n");
	if (util > 0.9)
		fprintf(out,
			"  The line is SATURATED (busy %.0f%% of the time): hand-offs are\n"
			"  back to back, so more CPUs only lengthen the queue. The\n"
			"  operations that need it go no faster than the line moves:\n"
			"  here %.2f operations per transfer.\n",
			100.0 * util, (double)ops_total / (double)l->transfers);
}

static void explain_line(FILE *out, const struct coh_line *l, double run_ps,
			 uint64_t ops_total, uint64_t charges,
			 unsigned int rank)
{
	uint64_t acc = l->ops[COH_READ] + l->ops[COH_WRITE] + l->ops[COH_RMW];
	double util = (double)l->busy_ps / run_ps;

	if (util > 1.0)
		util = 1.0; /* SIM: see run_collect() */
	unsigned int d;

	fprintf(out, "\n%u. %s: busy %.1f%% of the time\n", rank, l->name,
		100.0 * util);
	fprintf(out,
		"  %llu accesses: %llu reads, %llu writes, %llu atomic RMWs.\n",
		(unsigned long long)acc, (unsigned long long)l->ops[COH_READ],
		(unsigned long long)l->ops[COH_WRITE],
		(unsigned long long)l->ops[COH_RMW]);
	fprintf(out,
		"  %.1f%% were hits in the CPU's own cache, %.1f%% needed the line,\n"
		"  %.1f%% merged into a miss already in flight.\n",
		pct((double)l->hits, (double)acc),
		pct((double)l->misses, (double)acc),
		pct((double)l->merged, (double)acc));
	fprintf(out, "  The line moved %llu times",
		(unsigned long long)l->transfers);
	if (ops_total)
		fprintf(out, " (%.2f per operation)",
			(double)l->transfers / (double)ops_total);
	fprintf(out, ":\n");
	for (d = COH_DIST_SMT; d <= NR_COH_DIST; d++)
		if (l->xfer_by_dist[d])
			fprintf(out, "    %5.1f%% %s\n",
				pct((double)l->xfer_by_dist[d],
				    (double)l->transfers),
				dist_words[d]);
	if (l->misses)
		fprintf(out,
			"  CPUs queued for it %.1f us in all, %.1f ns per miss.\n",
			(double)l->wait_ps / 1e6,
			(double)l->wait_ps / 1e3 / (double)l->misses);
	if (charges)
		fprintf(out,
			"  Per memcg charge (try_charge_memcg call): %.3f transfers, %.1f ns queued.\n",
			(double)l->transfers / (double)charges,
			(double)l->wait_ps / 1e3 / (double)charges);
	explain_fields(out, l);
	explain_diagnosis(out, l, util, ops_total);
}

/*
 * explain_functions() - time by kernel function over every CPU of the
 * run, as perf report shows it: self time (the function on top of the
 * stack) and children (entry to return, callees included), in percent
 * of all CPU time, and calls per operation.
 */
static void explain_functions(FILE *out, struct run *run, uint64_t ops)
{
	struct kprof_fn_stat sum[NR_KPROF_FNS];
	double total = 0;
	unsigned int i, j, f, order[NR_KPROF_FNS], n = 0;

	memset(sum, 0, sizeof(sum));
	for (i = 0; i < run->nr_workloads; i++) {
		for (j = 0; j < run->workloads[i].nr_tasks; j++) {
			const struct kprof *k =
				&run->workloads[i].tasks[j].prof;

			for (f = 0; f < NR_KPROF_FNS; f++) {
				sum[f].calls += k->fn[f].calls;
				sum[f].self_ps += k->fn[f].self_ps;
				sum[f].total_ps += k->fn[f].total_ps;
			}
		}
	}
	for (f = 0; f < NR_KPROF_FNS; f++)
		total += (double)sum[f].self_ps;
	for (f = 0; f < NR_KPROF_FNS; f++)
		if (sum[f].self_ps || sum[f].calls)
			order[n++] = f;
	if (!n || total <= 0)
		return;
	/* by self time, largest first; ties by the table's order */
	for (i = 1; i < n; i++) {
		unsigned int x = order[i];

		for (j = i; j > 0 && sum[order[j - 1]].self_ps < sum[x].self_ps;
		     j--)
			order[j] = order[j - 1];
		order[j] = x;
	}
	fprintf(out,
		"\nTime by kernel function (all CPUs; self, and with callees):\n");
	fprintf(out, "    %7s %9s %10s  %s\n", "self", "children", "calls/op",
		"function");
	for (i = 0; i < n; i++) {
		f = order[i];
		fprintf(out, "    %6.2f%% %8.2f%% %10.3f  %s\n",
			pct((double)sum[f].self_ps, total),
			pct((double)sum[f].total_ps, total),
			ops ? (double)sum[f].calls / (double)ops : 0.0,
			kprof_name(f));
	}
}

void explain_run(FILE *out, const char *variant, struct run *run,
		 unsigned int nr_lines)
{
	unsigned int nr = coh_nr_lines(run->coh), i, j, shown = 0;
	double run_ps = (double)(run->end_ps - run->warmup_ps);
	struct coh_line **lines = calloc(nr + 1, sizeof(*lines));
	uint64_t ops = 0;

	SIM_BUG_ON(!lines);
	for (i = 0; i < run->nr_workloads; i++)
		for (j = 0; j < run->workloads[i].nr_tasks; j++)
			ops += run->workloads[i].tasks[j].ops;
	coh_lines_sorted(run->coh, lines, nr);
	fprintf(out, "== variant %s: %s, %llu operations in %.3f ms ==\n",
		variant, run->machine.name, (unsigned long long)ops,
		run_ps / 1e9);
	explain_functions(out, run, ops);
	for (i = 0; i < nr && shown < nr_lines; i++) {
		const struct coh_line *l = lines[i];

		if (!(l->ops[COH_READ] + l->ops[COH_WRITE] + l->ops[COH_RMW]))
			continue;
		explain_line(out, l, run_ps, ops,
			     run->memcg ? run->memcg->counts.charges : 0,
			     ++shown);
	}
	if (!shown)
		fprintf(out, "\nNo shared memory was touched.\n");
	fprintf(out, "\n");
	free(lines);
}
