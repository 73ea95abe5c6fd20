// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/explain/explain.c - the teaching view of a run. See cmd/explain/explain.h.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/explain/explain.h"
#include "models/kernel/sim/kprof.h"
#include "models/kernel/mm/memcontrol.h"
#include "sim/error.h"

static const char *const dist_words[NR_COH_DIST + 1] = {
	[COH_DIST_SMT] = "from the SMT sibling",
	[COH_DIST_LLC] = "from another core sharing the LLC",
	[COH_DIST_DIE] = "from another LLC domain of the socket",
	[COH_DIST_SOCKET] = "from another socket",
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

static uint64_t field_writes(const struct coh_field_stat *fs)
{
	return fs->ops[COH_WRITE] + fs->ops[COH_RMW];
}

/*
 * Read-mostly: loaded, and stored or RMWed at most once per 20 loads (a
 * watermark's rare raise, a limit set once). Its loads miss only because
 * something else on its line is written.
 */
static bool field_read_mostly(const struct coh_field_stat *fs)
{
	return fs->ops[COH_READ] && field_writes(fs) * 20 <= fs->ops[COH_READ];
}

/*
 * What a field cost its line: the time its accesses queued, or, on a line
 * where nobody queued, its misses.
 */
static double field_cost(const struct coh_line *l,
			 const struct coh_field_stat *fs)
{
	return l->wait_ps ? (double)fs->wait_ps : (double)fs->misses;
}

static double line_cost(const struct coh_line *l)
{
	double sum = 0;
	unsigned int j;

	if (l->wait_ps)
		return (double)l->wait_ps;
	for (j = 0; j < l->nr_fields; j++)
		sum += (double)l->fields[j].misses;
	return sum;
}

/* The text before a field's own name: "memcg(/a/b)." of "memcg(/a/b) line 0". */
static size_t object_prefix(const struct coh_line *l, char *buf, size_t size)
{
	const char *end = strstr(l->name, " line ");
	size_t n = end ? (size_t)(end - l->name) : strlen(l->name);
	unsigned int j;

	if (n + 2 > size)
		return 0;
	memcpy(buf, l->name, n);
	buf[n++] = '.';
	buf[n] = '\0';
	for (j = 0; j < l->nr_fields; j++)
		if (field_accesses(&l->fields[j]) &&
		    strncmp(l->fields[j].name, buf, n))
			return 0;
	return n;
}

static const char *caller_name(unsigned int id)
{
	return id == COH_CALLER_MIXED ? "[other functions]" :
					kprof_name((enum kprof_fn)(id - 1));
}

/*
 * Whether @fs's accesses came from modelled kernel functions: any caller
 * but [other] (the teaching workloads touch memory outside them).
 */
static bool field_has_callers(const struct coh_field_stat *fs)
{
	unsigned int i;

	for (i = 0; fs->callers && i < COH_FIELD_CALLERS; i++)
		if (fs->callers[i].id && fs->callers[i].id != KF_OTHER + 1)
			return true;
	return false;
}

static uint64_t caller_accesses(const struct coh_caller_stat *cs)
{
	return cs->ops[COH_READ] + cs->ops[COH_WRITE] + cs->ops[COH_RMW];
}

/*
 * The functions that made the accesses to @fs, most accesses first, as
 * perf c2c lists the code at each offset of a line: one row each under
 * the field's row, when the accesses came from modelled kernel code.
 */
static void explain_callers(FILE *out, const struct coh_field_stat *fs)
{
	const struct coh_caller_stat *order[COH_FIELD_CALLERS], *x;
	unsigned int i, j, n = 0;

	if (!field_has_callers(fs))
		return;
	for (i = 0; i < COH_FIELD_CALLERS; i++)
		if (fs->callers[i].id)
			order[n++] = &fs->callers[i];
	for (i = 1; i < n; i++) {
		x = order[i];
		for (j = i; j > 0 &&
			    caller_accesses(order[j - 1]) < caller_accesses(x);
		     j--)
			order[j] = order[j - 1];
		order[j] = x;
	}
	for (i = 0; i < n; i++) {
		const char *name = caller_name(order[i]->id);

		if (strlen(name) > 28)
			fprintf(out, "      %s\n      %-28s", name, "");
		else
			fprintf(out, "      %-28s", name);
		fprintf(out, " %7llu %7llu %7llu %7llu\n",
			(unsigned long long)order[i]->ops[COH_READ],
			(unsigned long long)order[i]->ops[COH_WRITE],
			(unsigned long long)order[i]->ops[COH_RMW],
			(unsigned long long)order[i]->misses);
	}
}

static void explain_fields(FILE *out, const struct coh_line *l)
{
	char prefix[sizeof(l->name) + 1];
	size_t skip = object_prefix(l, prefix, sizeof(prefix));
	double cost = line_cost(l);
	bool callers = false;
	unsigned int j;

	for (j = 0; j < l->nr_fields; j++)
		callers |= field_accesses(&l->fields[j]) &&
			   field_has_callers(&l->fields[j]);
	fprintf(out, "    %-30s %7s %7s %7s %7s %5s %7s\n",
		callers ? "field, by function" : "field", "reads", "writes",
		"rmws", "misses", "cpus", "wait%");
	for (j = 0; j < l->nr_fields; j++) {
		const struct coh_field_stat *fs = &l->fields[j];
		const char *name = fs->name + skip;

		if (!field_accesses(fs))
			continue;
		if (strlen(name) > 30)
			fprintf(out, "    %s\n    %-30s", name, "");
		else
			fprintf(out, "    %-30s", name);
		fprintf(out, " %7llu %7llu %7llu %7llu %5u %6.1f%%\n",
			(unsigned long long)fs->ops[COH_READ],
			(unsigned long long)fs->ops[COH_WRITE],
			(unsigned long long)fs->ops[COH_RMW],
			(unsigned long long)fs->misses, fs->nr_cpus,
			pct(field_cost(l, fs), cost));
		explain_callers(out, fs);
	}
}

/**
 * explain_diagnose() - name the sharing pattern of a line from the access
 * kinds of its fields.
 * @l: the line, with its statistics
 * @d: filled with the shares the words need
 *
 * A field is read-mostly when it is written at most once per 20 loads,
 * written otherwise. The cost of a field is the time its accesses queued
 * (its misses where nobody queued). In order:
 *  - the line never moved: EXPLAIN_NO_TRANSFERS;
 *  - two or more fields, each touched by one CPU: EXPLAIN_FALSE_SHARING;
 *  - read-mostly fields share the line with a written one and cost more
 *    than the written fields: EXPLAIN_READ_MOSTLY (separate them);
 *  - a field written by several CPUs: EXPLAIN_TRUE_SHARING (batch);
 *  - two or more fields: EXPLAIN_MIXED; else EXPLAIN_NONE.
 *
 * Return: the verdict.
 */
enum explain_verdict explain_diagnose(const struct coh_line *l,
				      struct explain_diagnosis *d)
{
	unsigned int j, used = 0, private = 0;
	double cost = line_cost(l), c;

	memset(d, 0, sizeof(*d));
	d->hot = -1;
	for (j = 0; j < l->nr_fields; j++) {
		const struct coh_field_stat *fs = &l->fields[j];

		if (!field_accesses(fs))
			continue;
		used++;
		private += fs->nr_cpus == 1;
		c = pct(field_cost(l, fs), cost);
		if (field_read_mostly(fs)) {
			d->read_mostly_pct += c;
			d->nr_read_mostly++;
			continue;
		}
		if (!field_writes(fs))
			continue;
		d->written_pct += c;
		if (fs->nr_cpus > 1) {
			d->shared_written_pct += c;
			d->nr_shared_written++;
		}
		if (d->hot < 0 ||
		    field_cost(l, fs) > field_cost(l, &l->fields[d->hot]) ||
		    (field_cost(l, fs) == field_cost(l, &l->fields[d->hot]) &&
		     field_writes(fs) > field_writes(&l->fields[d->hot])))
			d->hot = (int)j;
	}
	if (!l->transfers)
		return EXPLAIN_NO_TRANSFERS;
	if (used >= 2 && private == used)
		return EXPLAIN_FALSE_SHARING;
	if (d->hot >= 0 && d->nr_read_mostly &&
	    d->read_mostly_pct > d->written_pct)
		return EXPLAIN_READ_MOSTLY;
	if (d->nr_shared_written)
		return EXPLAIN_TRUE_SHARING;
	return used >= 2 ? EXPLAIN_MIXED : EXPLAIN_NONE;
}

/* A paragraph of explanation, built piece by piece, printed wrapped. */
struct para {
	char buf[2048];
	size_t len;
};

static void __attribute__((format(printf, 2, 3)))
para_add(struct para *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(p->buf + p->len, sizeof(p->buf) - p->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		p->len += (size_t)n;
	if (p->len >= sizeof(p->buf))
		p->len = sizeof(p->buf) - 1;
}

/* Print @p indented by two spaces, words wrapped at 72 columns. */
static void para_print(FILE *out, const struct para *p)
{
	const char *w = p->buf, *end;
	size_t col = 0, n;

	while (*w) {
		while (*w == ' ')
			w++;
		if (!*w)
			break;
		end = strchr(w, ' ');
		n = end ? (size_t)(end - w) : strlen(w);
		if (col && col + 1 + n > 72) {
			fputc('\n', out);
			col = 0;
		}
		fprintf(out, "%s%.*s", col ? " " : "  ", (int)n, w);
		col += (col ? 1 : 2) + n;
		w += n;
	}
	if (col)
		fputc('\n', out);
}

static bool field_in(const struct coh_field_stat *fs, bool read_mostly)
{
	if (!field_accesses(fs))
		return false;
	if (read_mostly)
		return field_read_mostly(fs);
	return !field_read_mostly(fs) && field_writes(fs) && fs->nr_cpus > 1;
}

/*
 * The read-mostly fields (@read_mostly) or the fields written by several
 * CPUs, costliest first with their share of the wait: "css.parent (61%),
 * memory.max (9%) and 3 more".
 */
static void list_fields(struct para *p, const struct coh_line *l,
			bool read_mostly, size_t skip)
{
	unsigned int order[COH_LINE_FIELDS], i, j, n = 0, x;
	double cost = line_cost(l);

	for (j = 0; j < l->nr_fields && n < COH_LINE_FIELDS; j++)
		if (field_in(&l->fields[j], read_mostly))
			order[n++] = j;
	for (i = 1; i < n; i++) {
		x = order[i];
		for (j = i; j > 0 && field_cost(l, &l->fields[order[j - 1]]) <
					     field_cost(l, &l->fields[x]);
		     j--)
			order[j] = order[j - 1];
		order[j] = x;
	}
	for (i = 0; i < n && i < 3; i++)
		para_add(p, "%s%s (%.0f%%)",
			 !i		      ? "" :
			 i == n - 1 && n <= 3 ? " and " :
						", ",
			 l->fields[order[i]].name + skip,
			 pct(field_cost(l, &l->fields[order[i]]), cost));
	if (n > 3)
		para_add(p, " and %u more", n - 3);
}

/*
 * explain_why() - the verdict of explain_diagnose() in words, with the
 * remedy that follows from the access kinds.
 */
static void explain_why(FILE *out, const struct coh_line *l, double util,
			uint64_t ops_total)
{
	struct explain_diagnosis d;
	char prefix[sizeof(l->name) + 1];
	size_t skip = object_prefix(l, prefix, sizeof(prefix));
	const struct coh_field_stat *hot;
	struct para p = { .len = 0 };

	switch (explain_diagnose(l, &d)) {
	case EXPLAIN_NO_TRANSFERS:
		fprintf(out,
			"  Why: the line never moved: every access was a hit in the\n"
			"  accessing CPU's own cache. It costs nothing extra.\n");
		return;
	case EXPLAIN_FALSE_SHARING:
		fprintf(out,
			"  Why: FALSE SHARING. No two CPUs touch the same field, yet the\n"
			"  fields share one 64-byte line, so every update takes the whole\n"
			"  line away from the others. Padding each field to its own line\n"
			"  (____cacheline_aligned_in_smp) removes these transfers.\n");
		break;
	case EXPLAIN_READ_MOSTLY:
		hot = &l->fields[d.hot];
		para_add(
			&p,
			"Why: FALSE SHARING OF READ-MOSTLY FIELDS. %.0f%% of the "
			"wait is loads of fields that are hardly ever written: ",
			d.read_mostly_pct);
		list_fields(&p, l, true, skip);
		para_add(
			&p,
			". They share the line with %s, which %u CPU%s write%s: "
			"each write takes the line from the readers, and their "
			"next load misses. Move %s to a line of its own "
			"(____cacheline_aligned_in_smp), or the read-mostly "
			"fields away from it: their loads then hit. Batching "
			"the writes cuts these misses only as far as it makes "
			"the writes rarer.",
			hot->name + skip, hot->nr_cpus,
			hot->nr_cpus == 1 ? "" : "s",
			hot->nr_cpus == 1 ? "s" : "", hot->name + skip);
		if (d.nr_shared_written && d.shared_written_pct >= 10) {
			para_add(&p,
				 " The written field%s own accesses, %.0f%% of "
				 "the wait, are true sharing: ",
				 d.nr_shared_written == 1 ? "'s" : "s'",
				 d.shared_written_pct);
			list_fields(&p, l, false, skip);
			para_add(&p, " from several CPUs, which batching "
				     "reduces.");
		}
		para_print(out, &p);
		break;
	case EXPLAIN_TRUE_SHARING:
		para_add(&p,
			 "Why: TRUE SHARING. %.0f%% of the wait is accesses to "
			 "fields that several CPUs write: ",
			 d.shared_written_pct);
		list_fields(&p, l, false, skip);
		para_add(
			&p,
			". The line must visit each writer in turn. Make the "
			"writes rarer: batch them (a per-CPU count added to the "
			"shared one every N updates), or skip a write that "
			"would not change the value. That divides how often the "
			"line is needed.");
		if (d.nr_read_mostly && d.read_mostly_pct >= 10) {
			para_add(
				&p,
				" Another %.0f%% is loads of read-mostly fields "
				"on the same line: ",
				d.read_mostly_pct);
			list_fields(&p, l, true, skip);
			para_add(&p, "; moving them to a line of their own "
				     "removes that part.");
		}
		para_print(out, &p);
		break;
	case EXPLAIN_MIXED:
		fprintf(out,
			"  Why: fields used by different CPUs share the line; reads of\n"
			"  one field pay for writes of another. Separating read-mostly\n"
			"  fields from written ones stops that.\n");
		break;
	case EXPLAIN_NONE:
		break;
	}
	if (util > 0.9)
		fprintf(out,
			"  The line is SATURATED (busy %.0f%% of the time): hand-offs are\n"
			"  back to back, so more CPUs only lengthen the queue. The\n"
			"  operations that need it go no faster than the line moves:\n"
			"  here %.2f operations per transfer.\n",
			100.0 * util, (double)ops_total / (double)l->transfers);
}

/*
 * explain_sockets() - which socket "another socket" is: the line's home
 * (its first requester's socket) and the profile's pair distances from
 * it (socket_distances); on more than two sockets, where the line went,
 * by socket.
 */
void explain_sockets(FILE *out, const struct coh_line *l,
		     const struct machine *m)
{
	uint64_t to[MACHINE_MAX_SOCKETS] = { 0 }, all = 0;
	unsigned int s, cpu, h = (unsigned int)l->home, other = !h;
	double lo = 0, hi = 0;
	const char *sep = "";

	if (l->home < 0 || h >= m->sockets)
		return;
	if (m->sockets == 2) {
		fprintf(out,
			" (%.1f ns from socket %u, the line's home, to %u; %.1f ns back)",
			m->socket_xfer_ps[h][other] / 1e3, h, other,
			m->socket_remote_home_ps[other][h] / 1e3);
		return;
	}
	for (s = 0; s < m->sockets; s++) {
		double x = m->socket_xfer_ps[h][s] / 1e3;

		if (s != h) {
			lo = lo > 0 && lo < x ? lo : x;
			hi = hi > x ? hi : x;
		}
	}
	fprintf(out, " (home: socket %u; pairs %.1f-%.1f ns)", h, lo, hi);
	for (cpu = 0; l->xfer_to && cpu < m->nr_cpus; cpu++) {
		to[m->cpus[cpu].socket] += l->xfer_to[cpu];
		all += l->xfer_to[cpu];
	}
	if (!all)
		return;
	fprintf(out, "\n           transfers into");
	for (s = 0; s < m->sockets; s++) {
		if (!to[s])
			continue;
		if (s == h)
			fprintf(out, "%s socket %u (the home)", sep, s);
		else
			fprintf(out, "%s socket %u (%.1f ns away)", sep, s,
				m->socket_xfer_ps[h][s] / 1e3);
		fprintf(out, " %.1f%%", pct((double)to[s], (double)all));
		sep = ",";
	}
}

static void explain_line(FILE *out, const struct coh_line *l,
			 const struct machine *m, double run_ps,
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
		if (l->xfer_by_dist[d]) {
			fprintf(out, "    %5.1f%% %s",
				pct((double)l->xfer_by_dist[d],
				    (double)l->transfers),
				dist_words[d]);
			if (d == COH_DIST_SOCKET)
				explain_sockets(out, l, m);
			fputc('\n', out);
		}
	/* the spatial prefetcher's share of the moves (models/hw/cache.c) */
	if (l->prefetches || l->prefetch_dropped)
		fprintf(out,
			"  %llu of the moves were the spatial prefetcher's, for misses of the\n"
			"  other line of its 128-byte pair; %llu more were dropped (the line\n"
			"  queued on or busy).\n",
			(unsigned long long)l->prefetches,
			(unsigned long long)l->prefetch_dropped);
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
	explain_why(out, l, util, ops_total);
}

/*
 * explain_functions() - time by kernel function over every CPU of the
 * run, as perf report shows it: self time (the function on top of the
 * stack) and children (entry to return, callees included), in percent
 * of all CPU time, and calls per operation. Self time is split into the
 * function's instructions (models/kernel/sim/insn.h: its instruction counts
 * at the profile's insn latency) and the rest, memory: its loads, stores
 * and atomics, and the waits for lines and locks; and the instruction
 * time per call in ns, so that a reader sees which of the two a design
 * change moves.
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
				sum[f].insn_ps += k->fn[f].insn_ps;
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
	/*
	 * A teaching workload calls no modelled function: its table would
	 * be one row, 100% [other] (ux-review-3 finding 6). Say so instead.
	 */
	for (i = 0; i < n; i++)
		if (order[i] != KF_OTHER && order[i] != KF_NO_TASK)
			break;
	if (i == n) {
		fprintf(out,
			"\nTime by kernel function: none, the workload runs no modelled kernel\n"
			"function (its time is its own accesses, in the lines below).\n");
		return;
	}
	/* by self time, largest first; ties by the table's order */
	for (i = 1; i < n; i++) {
		unsigned int x = order[i];

		for (j = i; j > 0 && sum[order[j - 1]].self_ps < sum[x].self_ps;
		     j--)
			order[j] = order[j - 1];
		order[j] = x;
	}
	fprintf(out,
		"\nTime by kernel function (all CPUs; self = insn + mem/wait, and with callees;\n"
		"insn: its instructions, mem/wait: its memory accesses and waits, or a\n"
		"[workload] row's own work):\n");
	fprintf(out, "    %7s %7s %8s %9s %10s %9s  %s\n", "self", "insn",
		"mem/wait", "children", "calls/op", "insn/call", "function");
	for (i = 0; i < n; i++) {
		f = order[i];
		fprintf(out,
			"    %6.2f%% %6.2f%% %7.2f%% %8.2f%% %10.3f %6.1f ns  %s\n",
			pct((double)sum[f].self_ps, total),
			pct((double)sum[f].insn_ps, total),
			pct((double)(sum[f].self_ps - sum[f].insn_ps), total),
			pct((double)sum[f].total_ps, total),
			ops ? (double)sum[f].calls / (double)ops : 0.0,
			sum[f].calls ? (double)sum[f].insn_ps / 1e3 /
					       (double)sum[f].calls :
				       0.0,
			kprof_name(f));
	}
}

/*
 * explain_stock() - each CPU's page stock: how often it switched to
 * another memcg (refill_stock() taking over a slot that cached one) and
 * drained pages back to the page counters, and which memcgs the CPU
 * charged (consume_stock() calls) or refilled the stock for
 * (refill_stock(): a charge's surplus, an uncharge), most first. A CPU
 * that alternates between more memcgs than the stock has slots
 * (stock_memcgs) switches and drains on about every change.
 */
static void explain_stock(FILE *out, const struct memcg_sim *ms)
{
	uint64_t switches = 0, drains = 0, charges = 0;
	unsigned int cpu, i, j, multi = 0, used = 0;

	for (cpu = 0; cpu < ms->nr_cpus; cpu++) {
		const struct memcg_stock_sim *s = &ms->stock[cpu].sim;

		switches += s->switches;
		drains += s->drains;
		used += s->nr_used > 0;
		multi += s->nr_used > 1;
		for (i = 0; i < s->nr_used; i++)
			charges += s->used[i].charges;
	}
	if (!used)
		return;
	fprintf(out,
		"\nPer-CPU charge stock (stock_memcgs %u): %u CPUs used it, %u of them\n"
		"for several memcgs; %llu switches and %llu drains in %llu charges.\n",
		ms->k->stock_memcgs, used, multi, (unsigned long long)switches,
		(unsigned long long)drains, (unsigned long long)charges);
	if (multi && switches)
		fprintf(out,
			"  A switch drains the slot's pages to the old memcg's page counters,\n"
			"  and the old memcg's next charge on that CPU misses the stock. More\n"
			"  slots (stock_memcgs) keep the memcgs a CPU alternates between.\n");
	fprintf(out, "    %5s %9s %9s  %s\n", "cpu", "switches", "drains",
		"memcg (charges/refills)");
	for (cpu = 0; cpu < ms->nr_cpus; cpu++) {
		const struct memcg_stock_sim *s = &ms->stock[cpu].sim;
		unsigned int order[MEMCG_STOCK_SEEN], x;

		if (!s->nr_used)
			continue;
		for (i = 0; i < s->nr_used; i++) {
			x = i;
			for (j = i;
			     j > 0 &&
			     s->used[order[j - 1]].charges +
					     s->used[order[j - 1]].refills <
				     s->used[x].charges + s->used[x].refills;
			     j--)
				order[j] = order[j - 1];
			order[j] = x;
		}
		fprintf(out, "    %5u %9llu %9llu ", cpu,
			(unsigned long long)s->switches,
			(unsigned long long)s->drains);
		for (i = 0; i < s->nr_used; i++)
			fprintf(out, " %s (%llu/%llu)",
				s->used[order[i]].memcg->path,
				(unsigned long long)s->used[order[i]].charges,
				(unsigned long long)s->used[order[i]].refills);
		if (s->used_other)
			fprintf(out, " others (%llu)",
				(unsigned long long)s->used_other);
		fprintf(out, "\n");
	}
}

void explain_run(FILE *out, const char *variant, struct run *run,
		 unsigned int nr_lines)
{
	unsigned int nr = coh_nr_lines(run->coh), i, j, shown = 0;
	double run_ps = (double)(run->end_ps - run->warmup_ps);
	struct coh_line **lines = calloc(nr + 1, sizeof(*lines));
	char name[4 * sizeof(run->machine.name)];
	uint64_t ops = 0;

	SIM_OOM_ON(!lines);
	for (i = 0; i < run->nr_workloads; i++)
		for (j = 0; j < run->workloads[i].nr_tasks; j++)
			ops += run->workloads[i].tasks[j].ops;
	coh_lines_sorted(run->coh, lines, nr);
	/* The events, warm-up included: what check estimates (issue 32). */
	fprintf(out,
		"== variant %s: %s, %llu operations in %.3f ms, %llu engine events ==\n",
		variant, sim_escape(name, sizeof(name), run->machine.name),
		(unsigned long long)ops, run_ps / 1e9,
		(unsigned long long)sim_events(run->engine));
	explain_functions(out, run, ops);
	for (i = 0; i < nr && shown < nr_lines; i++) {
		const struct coh_line *l = lines[i];

		if (!(l->ops[COH_READ] + l->ops[COH_WRITE] + l->ops[COH_RMW]))
			continue;
		explain_line(out, l, &run->machine, run_ps, ops,
			     run->memcg ? run->memcg->counts.charges : 0,
			     ++shown);
	}
	if (!shown)
		fprintf(out, "\nNo shared memory was touched.\n");
	if (run->memcg)
		explain_stock(out, run->memcg);
	for (i = 0; i < run->nr_workloads; i++)
		if (run->workloads[i].type->explain)
			run->workloads[i].type->explain(&run->workloads[i],
							out);
	fprintf(out, "\n");
	free(lines);
}
