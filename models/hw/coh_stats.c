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

/* A line's first transfer: its xfer_to[] (xfer_to_count()). */
void coh__xfer_to_alloc(struct coh *c, struct coh_line *l)
{
	l->xfer_to = calloc(c->nr_cpus, sizeof(*l->xfer_to));
	SIM_OOM_ON(!l->xfer_to);
	c->xfer_bytes += c->nr_cpus * sizeof(*l->xfer_to);
	if (c->xfer_bytes >= c->log_bytes)
		c->log_stats = true;
}

void coh_set_log_bytes(struct coh *c, size_t bytes)
{
	c->log_bytes = bytes;
	c->log_stats = c->xfer_bytes >= bytes;
}

/*
 * coh_stats_flush() - count the statistics logged in c->xfers and
 * c->touches (coh_priv.h): loops of independent updates, whose misses of
 * the host overlap, where counting each at its access waited for one.
 */
void coh_stats_flush(struct coh *c)
{
	unsigned int i;

	for (i = 0; i < c->nr_xfers; i++)
		(*c->xfers[i])++;
	c->nr_xfers = 0;
	for (i = 0; i < c->nr_touches; i++)
		*c->touches[i].word |= c->touches[i].bit;
	c->nr_touches = 0;
}

/*
 * coh__stats_settle() - the statistics of every line up to date, for a
 * reader (coh_settle(), coh_lines_sorted()): the logs counted, and each
 * field's count of the CPUs that accessed it (which the hot path does not
 * keep: only their bitmap).
 */
void coh__stats_settle(struct coh *c)
{
	unsigned int i, j, w;

	coh_stats_flush(c);
	for (i = 0; i < c->nr_lines; i++) {
		struct coh_line *l = c->lines[i];

		for (j = 0; j < l->nr_fields; j++) {
			struct coh_field_stat *fs = &l->fields[j];

			fs->nr_cpus = 0;
			for (w = 0; w < MACHINE_MAX_CPUS / 64; w++)
				fs->nr_cpus +=
					(unsigned int)__builtin_popcountll(
						fs->cpus[w]);
		}
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

void coh_lines_sorted(struct coh *c, struct coh_line **out, unsigned int n)
{
	struct coh_line **all = malloc(c->nr_lines * sizeof(*all) + 1);
	unsigned int i;

	SIM_OOM_ON(!all);
	coh__stats_settle(c);
	memcpy(all, c->lines, c->nr_lines * sizeof(*all));
	qsort(all, c->nr_lines, sizeof(*all), line_cmp);
	for (i = 0; i < n && i < c->nr_lines; i++)
		out[i] = all[i];
	free(all);
}
