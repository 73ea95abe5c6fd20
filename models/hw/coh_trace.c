// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/hw/coh_trace.c - the coherence model's trace (Chrome trace events,
 * sim/trace.h): each line's holder and counters on the tracks of the
 * lines' process, each access that waited as a slice on its CPU's track,
 * linked by the line's flow arrows. Out of cache.c, whose hot path calls
 * in only when a trace is set (coh_set_trace()).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "models/hw/cache.h"
#include "models/hw/coh_priv.h"
#include "sim/trace.h"

/*
 * What the trace remembers of a line, beside it so that a run without a
 * trace neither pays for it nor changes its memory accounting: where the
 * last access that waited for it was (the tail of a hand-off arrow), and
 * the counters last written.
 */
struct coh_trace_line {
	bool chained; /* the line's flow chain has its first slice */
	unsigned int queued, sharers; /* counters as last written */
	bool counted; /* counters written once */
	bool used; /* something of it was written: name its track */
	/* the values at @pend_at, written once time moves past it */
	unsigned int pend_queued, pend_sharers;
	sim_time_t pend_at;
	bool pending;
};

static struct coh_trace_line *trace_line(struct coh *c,
					 const struct coh_line *l)
{
	struct coh_trace_line *tl;
	unsigned int n, i;

	if (l->index >= c->cap_trace_lines) {
		n = c->cap_trace_lines ? 2 * c->cap_trace_lines : 64;
		while (n <= l->index)
			n *= 2;
		tl = realloc(c->trace_lines, n * sizeof(*tl));
		if (!tl)
			return NULL;
		for (i = c->cap_trace_lines; i < n; i++)
			tl[i] = (struct coh_trace_line){ .chained = false };
		c->trace_lines = tl;
		c->cap_trace_lines = n;
	}
	return &c->trace_lines[l->index];
}

static void trace_holder_slice(struct coh *c, struct coh_line *l,
			       sim_time_t now)
{
	char name[48];

	if (l->last_holder != -2 && now > l->last_holder_since) {
		if (l->last_holder >= 0)
			snprintf(name, sizeof(name), "cpu %d", l->last_holder);
		else
			snprintf(name, sizeof(name), "shared");
		if (sim_trace_slice(c->trace, c->trace_pid_lines, l->index,
				    name, "holder", l->last_holder_since,
				    now - l->last_holder_since)) {
			struct coh_trace_line *tl = trace_line(c, l);

			if (tl)
				tl->used = true;
		}
	}
}

static void trace_holder(struct coh *c, struct coh_line *l, sim_time_t now)
{
	int holder = l->owner >= 0 ? l->owner : -1;

	if (!c->trace || holder == l->last_holder)
		return;
	trace_holder_slice(c, l, now);
	l->last_holder = holder;
	l->last_holder_since = now;
}

/* Write the pending counters of @l, if they changed. */
static void counters_write(struct coh *c, const struct coh_line *l,
			   struct coh_trace_line *tl)
{
	static const char *const keys[] = { "queued", "sharers" };
	double v[2];

	tl->pending = false;
	if (tl->counted && tl->queued == tl->pend_queued &&
	    tl->sharers == tl->pend_sharers)
		return;
	tl->counted = true;
	tl->queued = tl->pend_queued;
	tl->sharers = tl->pend_sharers;
	v[0] = tl->queued;
	v[1] = tl->sharers;
	if (sim_trace_counters(c->trace, c->trace_pid_lines, l->name,
			       tl->pend_at, 2, keys, v))
		tl->used = true;
}

/*
 * coh_trace_counters() - the line's "queued" (requests waiting, prefetches
 * included) and "sharers" counters. Several changes at one time give one
 * event, with the last values: a value is written when time moves on.
 */
void coh_trace_counters(struct coh *c, struct coh_line *l)
{
	struct coh_trace_line *tl;
	sim_time_t now = sim_now(c->e);

	if (!c->trace)
		return;
	tl = trace_line(c, l);
	if (!tl)
		return;
	if (tl->pending && tl->pend_at < now)
		counters_write(c, l, tl);
	tl->pending = true;
	tl->pend_at = now;
	tl->pend_queued = l->q_len;
	tl->pend_sharers = l->nr_sharers;
}

static const char *const op_names[NR_COH_OPS] = { "read", "write", "rmw" };

/*
 * trace_wait() - the access @r waited on @l from r->enq to @done: a slice
 * on its CPU's track inside the function that made it or, posted (the CPU
 * went on), an async slice on the track "cpuN posted". When the line came
 * from another CPU (@dist), the slice is the next link of the line's flow
 * chain: an arrow from the access that took it before.
 */
static void trace_wait(struct coh *c, const struct coh_req *r,
		       const struct coh_line *l, sim_time_t done,
		       enum coh_dist dist)
{
	struct sim_trace_flow flow = { 0 }, *fl = NULL;
	struct coh_trace_line *tl;
	char name[96], track[32];
	bool written;

	if (!c->trace || r->prefetch)
		return;
	snprintf(name, sizeof(name), "%s %s", op_names[r->op],
		 l->fields[r->slot].name);
	tl = trace_line(c, l);
	if (tl && dist != COH_DIST_SELF) {
		/* one chain per line and traced run */
		flow.id = (uint64_t)c->trace_pid_lines << 32 | (l->index + 1u);
		flow.in = tl->chained;
		fl = &flow;
	}
	if (r->posted) {
		snprintf(track, sizeof(track), "cpu%u posted", r->cpu);
		written = sim_trace_async(c->trace, c->trace_pid_cpus, r->cpu,
					  track, "posted", name, r->enq, done,
					  fl);
	} else {
		written = sim_trace_leaf(c->trace, r->cpu, name, "miss", r->enq,
					 done, fl);
	}
	if (written && fl)
		tl->chained = true;
}

/* The trace of a hand-off of @r: the line's tracks and the CPU's slice. */
void coh_trace_serve(struct coh *c, struct coh_line *l, struct coh_req r,
		     sim_time_t now, sim_time_t done, enum coh_dist dist)
{
	trace_holder(c, l, now);
	coh_trace_counters(c, l);
	trace_wait(c, &r, l, done, dist);
}

void coh_set_trace(struct coh *c, struct sim_trace *t, int pid_cpus,
		   int pid_lines)
{
	c->trace = t;
	c->no_ann = true; /* the trace records the queues as they grow */
	coh_plain_update(c);
	c->trace_pid_cpus = pid_cpus;
	c->trace_pid_lines = pid_lines;
}

struct sim_trace *coh_trace(const struct coh *c)
{
	return c->trace;
}

/* The trace process that holds the CPU tracks (coh_set_trace()). */
int coh_trace_pid_cpus(const struct coh *c)
{
	return c->trace_pid_cpus;
}

bool coh_trace_line_used(const struct coh *c, const struct coh_line *l)
{
	return l->index < c->cap_trace_lines && c->trace_lines[l->index].used;
}

/* Close the holder slices still open at the end of the run. */
void coh_trace_flush(struct coh *c)
{
	sim_time_t now = sim_now(c->e);
	unsigned int i;

	if (!c->trace)
		return;
	for (i = 0; i < c->nr_lines; i++) {
		trace_holder_slice(c, c->lines[i], now);
		if (i < c->cap_trace_lines && c->trace_lines[i].pending)
			counters_write(c, c->lines[i], &c->trace_lines[i]);
	}
}
