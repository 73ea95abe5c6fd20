// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/hw/coh_stats.c - the statistics of lines, fields and callers:
 * the logged counts and their flush (coh_stats_flush()), reset, the
 * callers' slots, and the lines sorted for the reports.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/cache.h"
#include "models/hw/coh_priv.h"
#include "sim/error.h"

/* Count an access for its caller (explain's runs only: out of the way). */
void coh__count_caller(struct coh_cpu *cc, struct coh_field_stat *fs,
		       enum coh_op op)
{
	cc->caller_stat = coh_caller_slot(fs, cc->caller(cc->prof));
	cc->caller_stat->ops[op]++;
}

/* @l has a log of transfers now: among c->log_lines. */
static void log_line_add(struct coh *c, struct coh_line *l)
{
	if (c->nr_log_lines == c->cap_log_lines) {
		unsigned int cap = c->cap_log_lines ? 2 * c->cap_log_lines : 64;
		struct coh_line **a =
			realloc(c->log_lines, cap * sizeof(*c->log_lines));

		SIM_OOM_ON(!a);
		c->log_lines = a;
		c->cap_log_lines = cap;
	}
	c->log_lines[c->nr_log_lines++] = l;
}

/*
 * A line's first transfer: its xfer_to[] (xfer_to_count()), and its log
 * after it once they are logged, with the zero entry past its end.
 */
void coh__xfer_to_alloc(struct coh *c, struct coh_line *l)
{
	size_t bytes = c->nr_cpus * sizeof(*l->xfer_to);

	c->xfer_bytes += bytes;
	if (c->xfer_bytes >= c->log_bytes)
		c->log_stats = true;
	l->xfer_left = c->log_stats ? xfer_log_cap(c) : 0;
	/*
	 * The log is written before it is read, from its end down, so only
	 * the counts and the entry past the log's end are cleared (calloc()
	 * cleared the log too, at 32-bit entries 42 M instructions of
	 * stat-read-1000's 2.02 G).
	 */
	l->xfer_to = malloc(bytes + (l->xfer_left + 1) * sizeof(uint32_t));
	SIM_OOM_ON(!l->xfer_to);
	memset(l->xfer_to, 0, bytes);
	xfer_log(c, l)[l->xfer_left] = 0; /* no access for a transfer to join */
	if (l->xfer_left)
		log_line_add(c, l);
}

/* @l's first logged transfer, its xfer_to[] made before: the log after it. */
void coh__xfer_log_alloc(struct coh *c, struct coh_line *l)
{
	unsigned int n = xfer_log_cap(c);
	uint32_t *to = realloc(l->xfer_to, c->nr_cpus * sizeof(*to) +
						   (n + 1) * sizeof(uint32_t));

	SIM_OOM_ON(!to);
	l->xfer_to = to;
	l->xfer_left = n;
	xfer_log(c, l)[n] = 0; /* no access for a transfer to join */
	log_line_add(c, l);
}

/*
 * Count @l's log into its xfer_to[] and its fields' bitmaps: one line's
 * counters, which stay in the host's cache while it does (struct coh:
 * log_stats). Each entry counts in both, by its two flags, without a
 * branch: which kind comes next is no branch to predict (an entry of a
 * transfer alone ORs 0 into its line's first field, which it has: a
 * transfer is an access to one). So do the locked RMWs' misses, in their
 * fields' counts, and the distances of the transfers the line has not
 * counted, in its transfers and xfer_by_dist[].
 */
void coh__xfer_log_flush(struct coh *c, struct coh_line *l)
{
	const uint32_t *log = xfer_log(c, l);
	uint32_t *to = l->xfer_to;
	struct coh_field_stat *fs = l->fields;
	unsigned int i, j, d, n = xfer_log_cap(c);
	/*
	 * the entries by e >> COH_LOG_DIST_SHIFT, 1 + the slot of an RMW's
	 * miss (0: none) and distance (COH_DIST_SELF: none): one count an
	 * entry, in locals, which the stores cannot alias
	 */
	uint64_t by[(COH_LINE_FIELDS + 1) << COH_LOG_DIST_BITS];

	/*
	 * coh_stats_flush() flushes every logged line at each settle, and
	 * most have logged nothing since: the counts by distance cost their
	 * clearing and their walk even so (stat-read-1000: 130 k flushes,
	 * 577 instructions each)
	 */
	if (l->xfer_left == n)
		return;
	memset(by, 0,
	       ((size_t)l->nr_fields + 1) * sizeof(by[0]) << COH_LOG_DIST_BITS);
	/* filled from its end: the entries from l->xfer_left on */
	for (i = l->xfer_left; i < n; i++) {
		unsigned int e = log[i], cpu = e & COH_LOG_CPU;
		unsigned int slot = (e & (COH_LOG_XFER - 1)) >>
				    COH_LOG_SLOT_SHIFT;
		uint64_t touch = (e & COH_LOG_TOUCH) != 0;

		to[cpu] += (e & COH_LOG_XFER) != 0;
		fs[slot].cpus[cpu / 64] |= touch << cpu % 64;
		by[e >> COH_LOG_DIST_SHIFT]++;
	}
	l->xfer_left = n;
	for (j = 0; j <= l->nr_fields; j++)
		for (d = COH_DIST_SELF; d <= NR_COH_DIST; d++) {
			uint64_t k = by[j << COH_LOG_DIST_BITS | d];

			if (j) {
				fs[j - 1].ops[COH_RMW] += k;
				fs[j - 1].misses += k;
			}
			if (d != COH_DIST_SELF) {
				l->transfers += k;
				l->xfer_by_dist[d] += k;
			}
		}
}

void coh_set_log_bytes(struct coh *c, size_t bytes)
{
	c->log_bytes = bytes;
	c->log_stats = c->xfer_bytes >= bytes;
}

/* coh_stats_flush() - count the statistics logged: each line's log. */
void coh_stats_flush(struct coh *c)
{
	unsigned int i;

	for (i = 0; i < c->nr_log_lines; i++)
		coh__xfer_log_flush(c, c->log_lines[i]);
}

/*
 * line_count_cpus() - each field of @l counts the CPUs that accessed it
 * (which the hot path does not keep: only their bitmap), for a reader of
 * the line (coh_lines_sorted()). The bitmap's words past the machine's
 * CPUs are never set.
 */
static void line_count_cpus(const struct coh *c, struct coh_line *l)
{
	unsigned int j, w, words = (c->nr_cpus + 63) / 64;

	for (j = 0; j < l->nr_fields; j++) {
		struct coh_field_stat *fs = &l->fields[j];

		fs->nr_cpus = 0;
		for (w = 0; w < words; w++)
			fs->nr_cpus +=
				(unsigned int)__builtin_popcountll(fs->cpus[w]);
	}
}

void coh_stats_reset(struct coh *c)
{
	unsigned int i, j;

	/*
	 * before the reset too: a line with transfers then and none since
	 * reports its zeros, as when each hand-off counted its own
	 */
	coh_stats_flush(c);
	for (i = 0; i < c->nr_lines; i++) {
		struct coh_line *l = c->lines[i];

		memset(l->ops, 0, sizeof(l->ops));
		l->hits = l->misses = l->merged = l->transfers = 0;
		memset(l->xfer_by_dist, 0, sizeof(l->xfer_by_dist));
		if (l->xfer_to)
			memset(l->xfer_to, 0, c->nr_cpus * sizeof(*l->xfer_to));
		l->wait_ps = l->busy_ps = 0;
		l->prefetches = l->prefetch_dropped = 0;
		for (j = 0; j < l->nr_fields; j++) {
			memset(l->fields[j].ops, 0, sizeof(l->fields[j].ops));
			l->fields[j].misses = 0;
			l->fields[j].wait_ps = 0;
			l->fields[j].nr_cpus = 0;
			memset(l->fields[j].cpus, 0, sizeof(l->fields[j].cpus));
			if (l->fields[j].callers)
				memset(l->fields[j].callers, 0,
				       COH_FIELD_CALLERS *
					       sizeof(*l->fields[j].callers));
		}
	}
	for (i = 0; i < c->nr_cpus; i++)
		c->cpus[i].wait_ps = 0;
}

struct coh_caller_stat *coh_caller_slot(struct coh_field_stat *fs,
					unsigned int caller)
{
	struct coh_caller_stat *cs;
	unsigned int i;

	if (!fs->callers) {
		fs->callers = calloc(COH_FIELD_CALLERS, sizeof(*fs->callers));
		SIM_OOM_ON(!fs->callers);
	}
	cs = fs->callers;
	for (i = 0; i < COH_FIELD_CALLERS - 1; i++, cs++)
		if (cs->id == caller + 1 || !cs->id)
			break;
	if (!cs->id)
		cs->id = caller + 1;
	else if (cs->id != caller + 1)
		cs->id = COH_CALLER_MIXED;
	return cs;
}

unsigned int coh_nr_lines(const struct coh *c)
{
	return c->nr_lines;
}

unsigned int coh_nr_cpus(const struct coh *c)
{
	return c->nr_cpus;
}

static int line_cmp(const void *a, const void *b)
{
	const struct coh_line *x = *(struct coh_line *const *)a;
	const struct coh_line *y = *(struct coh_line *const *)b;

	if (x->busy_ps != y->busy_ps)
		return x->busy_ps > y->busy_ps ? -1 : 1;
	if (x->transfers != y->transfers)
		return x->transfers > y->transfers ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return 0;
}

void coh_lines_sum(struct coh *c, uint64_t *transfers, sim_time_t *busy_max)
{
	unsigned int i;

	coh_stats_flush(c);
	*transfers = 0;
	*busy_max = 0;
	for (i = 0; i < c->nr_lines; i++) {
		*transfers += c->lines[i]->transfers;
		if (c->lines[i]->busy_ps > *busy_max)
			*busy_max = c->lines[i]->busy_ps;
	}
}

/* past this many asked for, a sort of them all beats the selection */
#define LINES_SELECT_MAX 64

/*
 * lines_select() - the first @n of all lines in line_cmp() order, into
 * @out: each line goes into its place among the best so far, if it is
 * better than the last of them (a total order: the addresses differ).
 */
static void lines_select(const struct coh *c, struct coh_line **out,
			 unsigned int n)
{
	unsigned int i, k, have = 0;

	for (i = 0; n && i < c->nr_lines; i++) {
		struct coh_line *l = c->lines[i];

		if (have == n && line_cmp(&l, &out[n - 1]) >= 0)
			continue;
		k = have < n ? have++ : n - 1;
		for (; k > 0 && line_cmp(&l, &out[k - 1]) < 0; k--)
			out[k] = out[k - 1];
		out[k] = l;
	}
}

void coh_lines_sorted(struct coh *c, struct coh_line **out, unsigned int n)
{
	struct coh_line **all;
	unsigned int i;

	coh_stats_flush(c);
	if (n > c->nr_lines)
		n = c->nr_lines;
	if (n <= LINES_SELECT_MAX) {
		lines_select(c, out, n);
	} else {
		all = malloc(c->nr_lines * sizeof(*all) + 1);
		SIM_OOM_ON(!all);
		memcpy(all, c->lines, c->nr_lines * sizeof(*all));
		qsort(all, c->nr_lines, sizeof(*all), line_cmp);
		memcpy(out, all, n * sizeof(*out));
		free(all);
	}
	for (i = 0; i < n; i++)
		line_count_cpus(c, out[i]);
}
