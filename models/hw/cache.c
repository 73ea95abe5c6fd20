// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/hw/cache.c - cache lines and the coherence model.
 *
 * See models/hw/cache.h for the rules. This file keeps them in three places:
 * line_is_hit() decides whether an access needs the line at all,
 * line_serve() serves queued requests in arrival order and serve() prices
 * each hand-off, and the pending[] array of struct coh_cpu holds a CPU's
 * posted misses until a fence waits for them. The trace is coh_trace.c's;
 * creating the model, placing lines and objects, and the statistics,
 * coh_place.c's; the Shared state (sharer bitmaps, the hand-offs of loads
 * and of Shared lines), coh_share.c's.
 *
 * Speed (doc/speed.md): an access and its hand-off are the simulator's inner
 * loop. Each shortcut is exact (the same hand-offs at the same times, in
 * the same order): the hot path's helpers are inlined (COH_INLINE), what
 * no shipped run executes is out of line (COH_COLD), an idle line serves
 * a request without the queue, the usual hand-off has a straight line
 * (serve_owned()), and an RMW after a think may be announced to a busy
 * line instead of arriving in an event of its own (coh_rmw_ahead()).
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

/* struct coh_cpu is an odd number of host lines (cache.h) */
_Static_assert(sizeof(struct coh_cpu) == 576,
	       "struct coh_cpu: not 9 host lines; see its padding");

/*
 * struct coh_line's hot fields fill its first 64 bytes, and what else an
 * access or hand-off writes the next three (cache.h).
 */
_Static_assert(offsetof(struct coh_line, ops) == 64,
	       "struct coh_line: the hot fields are not the first 64 bytes");
_Static_assert(offsetof(struct coh_line, serve_timer) <= 4 * 64,
	       "struct coh_line: the warm fields are not in the next 3 lines");

#define NO_DONE SIM_TIME_MAX

/* ---- serving requests ---- */

static void line_serve(struct coh *c, struct coh_line *l, sim_time_t now);

static void line_serve_event(void *arg, uint64_t data);
static void ann_arrive(struct coh *c, struct coh_line *l);
static void ann_arm(struct coh *c, struct coh_line *l);
static void ann_admit_now(struct coh *c, struct coh_line *l);

/* Set up @l's service event (line_serve_at()), at its first use. */
static COH_COLD void line_timer_init(struct coh *c, struct coh_line *l)
{
	sim_timer_init(c->e, &l->serve_timer, line_serve_event, c, l->index);
}

/*
 * line_serve_again() - line_serve_at() of a line whose service event is
 * set up: line_serve_loop()'s, whose two callers are the event itself and
 * line_kick(), which sets it up first (2 instructions a hand-off).
 */
static inline void line_serve_again(struct coh_line *l, sim_time_t when)
{
	l->serving = true;
	sim_timer_set(&l->serve_timer, when);
}

/*
 * line_serve_at() - serve @l's queue at @when: its service event, a timer
 * of its own (no allocation per hand-off), set up the first time the line
 * queues anybody, so that lines nobody waits for cost the engine nothing.
 */
static COH_INLINE void line_serve_at(struct coh *c, struct coh_line *l,
				     sim_time_t when)
{
	if (coh_unlikely(!l->serve_timer.engine))
		line_timer_init(c, l);
	line_serve_again(l, when);
}

/*
 * Who is queued on a line, without scanning (doc/speed.md). l->q_cpus counts
 * the CPUs with requests queued on @l, which the hand-off law asks at
 * every hand-off: is the requester still queued (one more request behind
 * this one), is the CPU the line last went to? Each request says whether
 * it is the latest of its CPU on the line (coh_req.last): when one with
 * the bit leaves the queue its CPU has nothing left there, and the
 * requester is still queued exactly when its request lacks the bit.
 * l->last_to_queued says the same of the CPU the line last went to. The
 * counts are those per-CPU request counts gave; only how they are found
 * changed. Prefetches are nobody's and stay out of it.
 *
 * Only a posted request can have another of its CPU's before it on the
 * line, or get one behind it: a CPU waits for one access at a time, an
 * RMW first waits for the CPU's posted accesses (a fence), and a load
 * the CPU waits for merges into its posted access to the same line
 * (coh_access_issue()); a posted load, then a posted store of the same
 * line, are two requests. So a request its CPU waits for is the only
 * one of its CPU's on the line while it is queued, and the latest at
 * once. The ring slot of each CPU's latest posted request, to take the
 * bit off it when another comes, is in l->q_last[cpu], plus one (0:
 * none), so that an enqueue and a last dequeue each read or write one
 * word (a CPU's list of the lines it is queued on, searched, cost 30
 * instructions an atomic of the contended counter). A line has the array
 * from its first posted request on: a line of RMWs only, as the
 * contended counter's, has none (2 KiB a line at 1024 CPUs, whose word
 * was a host cache miss an enqueue there).
 */

/* Whether @cpu has a request other than the one at @pos queued on @l. */
static inline bool queued_other(const struct coh_line *l, unsigned int cpu,
				unsigned int pos)
{
	const struct coh_req *q;
	unsigned int a;

	for (a = l->q_head; a != l->q_head + l->q_len; a++) {
		q = &l->q[a & (l->q_cap - 1)];
		if (a != pos && q->cpu == cpu && !q->prefetch)
			return true;
	}
	return false;
}

/* @l's first posted request: its q_last[], none queued yet. */
static COH_COLD void q_last_alloc(struct coh *c, struct coh_line *l)
{
	l->q_last = calloc(c->nr_cpus, sizeof(*l->q_last));
	SIM_OOM_ON(!l->q_last);
}

/* Request @r, in ring position @pos of @l, has joined the queue. */
static COH_INLINE void queued_add(struct coh *c, struct coh_line *l,
				  const struct coh_req *r, unsigned int pos)
{
	unsigned int cpu = r->cpu, prev = 0;

	if (r->posted) {
		if (coh_unlikely(!l->q_last))
			q_last_alloc(c, l);
		prev = l->q_last[cpu];
		l->q_last[cpu] = (uint16_t)((pos & (l->q_cap - 1)) + 1);
	} else {
		/* the one of its CPU's on the line (above) */
		SIM__CHECK(queued_other(l, cpu, pos));
	}
	if (prev) {
		/* the CPU's previous latest is not the latest now */
		l->q[prev - 1].last = 0;
		return;
	}
	l->q_cpus++;
	if ((int)cpu == l->last_to)
		l->last_to_queued = true;
}

/* @r, its CPU's latest request on @l, has left the queue: @l is not its. */
static COH_INLINE void queued_del(struct coh_line *l, const struct coh_req *r)
{
	if (r->posted)
		l->q_last[r->cpu] = 0;
	l->q_cpus--;
	if ((int)r->cpu == l->last_to)
		l->last_to_queued = false;
}

/*
 * The ring of @l is full: double it (8 the first time). Each request
 * keeps its position, which gives its slot in the new ring; l->q_last[]
 * follows the latest posted ones there.
 */
static COH_COLD void line_queue_grow(struct coh_line *l)
{
	unsigned int cap = l->q_cap ? 2 * l->q_cap : 8, i;
	struct coh_req *q;

	/* slot + 1 fits l->q_last[]'s 16 bits (cache.h says why it does) */
	SIM_BUG_ON(cap > 32768);
	q = malloc(cap * sizeof(*q));
	SIM_OOM_ON(!q);
	for (i = 0; i < l->q_len; i++) {
		unsigned int a = l->q_head + i, slot = a & (cap - 1);
		const struct coh_req *r = &q[slot];

		q[slot] = l->q[a & (l->q_cap - 1)];
		if (r->last && r->posted && !r->prefetch)
			l->q_last[r->cpu] = (uint16_t)(slot + 1);
	}
	free(l->q);
	l->q = q;
	l->q_cap = cap;
}

/* The request at the head of @l's queue, which must not be empty. */
static COH_INLINE struct coh_req *line_head(const struct coh_line *l)
{
	return &l->q[l->q_head & (l->q_cap - 1)];
}

/*
 * line_enqueue_room() - line_enqueue() of a line whose ring has room,
 * without a trace: it calls nothing, nor does rmw_queued() with it.
 */
static COH_INLINE void line_enqueue_room(struct coh *c, struct coh_line *l,
					 const struct coh_req *r)
{
	/* q_cap is a power of two (8, doubled): a mask, not a division */
	unsigned int pos = l->q_head + l->q_len++;
	struct coh_req *slot = &l->q[pos & (l->q_cap - 1)];

	*slot = *r;
	/* First touch: the line's memory is on the first requester's node. */
	if (coh_unlikely(l->home < 0))
		l->home = (int)c->m->cpus[r->cpu].socket;
	/* Prefetches are nobody's wait: they count as no waiter. */
	if (r->prefetch)
		return;
	slot->last = 1;
	queued_add(c, l, slot, pos);
	if (r->op != COH_READ)
		l->q_writers++;
}

static COH_INLINE void line_enqueue(struct coh *c, struct coh_line *l,
				    const struct coh_req *r)
{
	if (coh_unlikely(l->q_len == l->q_cap))
		line_queue_grow(l);
	line_enqueue_room(c, l, r);
	if (coh_unlikely(c->trace != NULL))
		coh_trace_counters(c, l); /* reads q_len, nr_sharers */
}

/*
 * line_dequeue() - take the request at the head of @l's queue. It is
 * returned in place, in the ring slot it leaves free: valid until the next
 * line_enqueue() on @l, which nothing in a hand-off does (line_serve()
 * only schedules wake-ups). A copy cost line_serve() a dozen spills.
 */
static COH_INLINE const struct coh_req *line_dequeue(struct coh_line *l)
{
	const struct coh_req *r = line_head(l);

	l->q_head++;
	l->q_len--;
	if (!r->prefetch) {
		if (r->last)
			queued_del(l, r);
		if (r->op != COH_READ)
			l->q_writers--;
	}
	return r;
}

/*
 * line_dequeue_writer() - line_dequeue() of @r, the head of @l's queue,
 * known to be a store or RMW and not a prefetch (serve_owned_may()): the
 * same steps without the tests.
 */
static COH_INLINE void line_dequeue_writer(struct coh_line *l,
					   const struct coh_req *r)
{
	/*
	 * The branch between the two keeps the compiler from pairing them in
	 * a vector register: 6 instructions for 2 (doc/speed.md).
	 */
	l->q_head++;
	if (r->last)
		queued_del(l, r);
	l->q_len--;
	l->q_writers--;
}

/*
 * line_ready_at() - when the line can start its next hand-off: when the
 * current one frees it and, under the hold rule, when the owner's window
 * closes (unless the owner itself is next).
 */
static COH_INLINE sim_time_t line_ready_at(const struct coh *c,
					   const struct coh_line *l)
{
	sim_time_t t = l->free_at, hold;

	if (!c->hold || !l->q_len || l->owner < 0 ||
	    line_head(l)->cpu == l->owner)
		return t;
	hold = l->owner_since + c->hold_ps;
	return hold > t ? hold : t;
}

/*
 * line_ready_for() - line_ready_at() of @l with a request of @cpu at the
 * head of its empty queue (coh_access_issue() serving one at once).
 */
static COH_INLINE sim_time_t line_ready_for(const struct coh *c,
					    const struct coh_line *l,
					    unsigned int cpu)
{
	sim_time_t t = l->free_at, hold;

	if (!c->hold || l->owner < 0 || cpu == (unsigned int)l->owner)
		return t;
	hold = l->owner_since + c->hold_ps;
	return hold > t ? hold : t;
}

/*
 * read_joins() - the request at the head of the queue is a load and the
 * line is Shared after a load: it joins the sharers at once, concurrently
 * with the hand-off in progress, as the LLC serves reads of a Shared line
 * without a snoop (it does not queue behind the other readers).
 */
static COH_INLINE bool read_joins(const struct coh_line *l)
{
	return l->read_batch && l->q_len && line_head(l)->op == COH_READ &&
	       !line_head(l)->prefetch && l->owner < 0 && l->nr_sharers;
}

static COH_INLINE void line_kick(struct coh *c, struct coh_line *l,
				 sim_time_t now)
{
	sim_time_t ready;

	if (l->serving)
		return;
	/* set up here for line_serve_loop() too */
	if (coh_unlikely(!l->serve_timer.engine))
		line_timer_init(c, l);
	ready = line_ready_at(c, l);
	if (ready <= now || read_joins(l)) {
		line_serve(c, l, now);
		return;
	}
	line_serve_again(l, ready);
}

/*
 * hand_off() - serve request @r on @l at @now: move the line and return
 * the latency the requester sees; *@dist is the distance class it came
 * from (NR_COH_DIST for memory, COH_DIST_SELF when it did not move).
 * Inline, a store or RMW of a line Modified elsewhere (a contended line's
 * case) is the path through here; loads and Shared lines take calls,
 * whose out-parameter is a local of theirs, so that @dist stays in a
 * register (doc/speed.md).
 */
static COH_INLINE sim_time_t hand_off(struct coh *c, struct coh_line *l,
				      const struct coh_req *r,
				      enum coh_dist *dist)
{
	const struct machine *m = c->m;
	unsigned int cpu = r->cpu;
	enum coh_dist d;
	sim_time_t lat;

	if (r->op == COH_READ) {
		lat = coh__hand_off_read(c, l, cpu, &d);
		*dist = d;
		return lat;
	}
	/* COH_WRITE and COH_RMW need the line Modified. */
	if (l->owner >= 0 && l->owner != (int)cpu) {
		lat = xfer(c, l, (unsigned int)l->owner, cpu, dist);
	} else if (l->owner == (int)cpu) {
		*dist = COH_DIST_SELF;
		return r->op == COH_RMW ? m->rmw_local_ps : m->l1_hit_ps;
	} else if (l->nr_sharers) {
		lat = coh__hand_off_shared(c, l, cpu, r->op, &d);
		*dist = d;
		return lat;
	} else {
		*dist = NR_COH_DIST;
		lat = m->memory_ps;
	}
	l->owner = cpu;
	return lat;
}

/*
 * conflict_ps() - a hand-off of @l from @holder (the CPU it last went to,
 * or -1) to request @r while a third CPU is queued on the line is a
 * conflict at the line's home agent: the new holder must complete the
 * transaction with the home (a round trip inside the home socket, or
 * across sockets) before the line may move on. Two CPUs passing a line
 * back and forth never conflict: that is what idle ping-pong figures
 * measure. @cpu: the requester, @cpu_key its key (its socket);
 * @waiters: the CPUs queued on @l other than the requester
 * (line_serve() counts them once for this and the legacy term); the
 * holder is among them when l->last_to_queued.
 */
static COH_INLINE sim_time_t conflict_ps(const struct coh *c,
					 const struct coh_line *l,
					 unsigned int cpu, uint32_t cpu_key,
					 int holder, unsigned int waiters)
{
	const struct machine *m = c->m;
	/* the holder is no third CPU; without branches, as xfer_keys() */
	unsigned int third =
		waiters - ((holder != (int)cpu) & l->last_to_queued);
	uint64_t local =
		-(uint64_t)(l->home ==
			    (int)(cpu_key >> MACHINE_KEY_SOCKET_SHIFT));

	return third * ((m->conflict_local_ps & local) |
			(m->conflict_remote_ps & ~local));
}

/* A posted access @r of @l completes at @done; @now is sim_now(). */
static void pending_served(struct coh *c, const struct coh_req *r,
			   struct coh_line *l, sim_time_t now, sim_time_t done)
{
	struct coh_cpu *cc = &c->cpus[r->cpu];
	sim_time_t last = 0;
	unsigned int i;
	bool known = true;

	for (i = 0; i < cc->nr_pending; i++) {
		if (cc->pending[i].line == l && cc->pending[i].op == r->op &&
		    cc->pending[i].done == NO_DONE) {
			cc->pending[i].done = done;
			break;
		}
	}
	if (cc->dep_line == l && r->op == COH_READ) {
		/* A dependent load merged into this miss: its value is here. */
		cc->dep_line = NULL;
		cc->access_done = true;
		cc->wait_ps += done - cc->wait_start;
		sim_proc_wake(cc->proc, done);
		return;
	}
	if (!cc->fence_waiting)
		return;
	for (i = 0; i < cc->nr_pending; i++) {
		if (cc->pending[i].done == NO_DONE)
			known = false;
		else if (cc->pending[i].done > last)
			last = cc->pending[i].done;
	}
	if (!known)
		return;
	cc->fence_waiting = false;
	if (last < now)
		last = now;
	cc->wait_ps += last - cc->wait_start;
	sim_proc_wake(cc->proc, last);
}

/*
 * serve_settle() - the end of serve() for a request somebody waits for
 * (not a prefetch): count its queueing time, and wake its CPU at @done (or
 * settle its posted access).
 */
static COH_INLINE void serve_settle(struct coh *c, struct coh_line *l,
				    const struct coh_req *r, sim_time_t now,
				    sim_time_t done)
{
	sim_time_t wait = now - r->enq;
	struct coh_cpu *cc;

	l->wait_ps += wait;
	l->fields[r->slot].wait_ps += wait;
	if (r->posted) {
		pending_served(c, r, l, now, done);
		return;
	}
	cc = &c->cpus[r->cpu];
	cc->wait_ps += done - cc->wait_start;
	/*
	 * Its caller resumes it (coh_cpu.resume_inline); not past the run's
	 * horizon, where its wake-up would not run either.
	 */
	if (coh_unlikely(cc->resume_inline) &&
	    ((c->inline_cpu == INLINE_ANY) | (c->inline_cpu == (int)r->cpu)) &&
	    done <= sim_horizon(c->e)) {
		/* it waits no more: its clock can say when it is done */
		cc->proc->now = done;
		c->inline_cc = cc;
		/* how long the queue lasts: coh_rmw_worth_announcing() */
		cc->ann_line = l;
		cc->ann_until =
			l->free_at + (sim_time_t)l->q_len * (l->free_at - now);
		c->inline_cpu = INLINE_NONE; /* one per caller */
		return;
	}
	cc->access_done = true;
	sim_proc_wake(cc->proc, done);
}

/*
 * serve() of any request (@req): see there. @req by value, so that a
 * caller building the request (coh_access_issue()'s idle line) need not
 * store it for serve_owned(), which serves the usual case (doc/speed.md).
 */
static COH_INLINE void serve_any(struct coh *c, struct coh_line *l,
				 const struct coh_req req, sim_time_t now,
				 bool joined)
{
	const struct coh_req *r = &req;
	const struct machine *m = c->m;
	sim_time_t lat, occ = 0, done;
	enum coh_dist dist;
	int holder = l->last_to;

	lat = hand_off(c, l, r, &dist);
	l->read_batch = r->op == COH_READ && l->owner < 0 && l->nr_sharers;
	if (dist != COH_DIST_SELF) {
		/*
		 * The other CPUs queued on the line: the requester aside (it
		 * may have more requests queued), counted once for the legacy
		 * term and conflict_ps().
		 */
		unsigned int waiters = l->q_cpus;

		if (!r->prefetch && !r->last)
			waiters--; /* it has more queued: see queued_add() */
		/*
		 * Legacy linear law: latency grows with the other CPUs queued
		 * on the line (0 in most shipped profiles).
		 */
		lat += (sim_time_t)waiters * m->xfer_per_waiter_ps;
		if (coh_unlikely(m->service_cv_1024))
			lat = coh__service_lat(m, l, lat);
		if (!lat)
			lat = 1; /* time must pass */
		occ = joined ? 0 :
			       lat * m->occupancy_1024 / 1024 +
				       conflict_ps(c, l, r->cpu,
						   c->cpu_key[r->cpu], holder,
						   waiters);
		l->transfers++;
		l->xfer_by_dist[dist]++;
		if (!r->prefetch) {
			l->last_to = r->cpu;
			l->last_to_queued = !r->last;
			xfer_to_count(c, l, r->cpu);
		}
	}
	/*
	 * SIM: with occupancy below 1 hand-offs overlap; the line still
	 * reaches its holders in the order it was handed to them.
	 */
	done = now + lat;
	if (done < l->last_done)
		done = l->last_done;
	l->last_done = done;
	if (!joined)
		l->free_at = now + occ;
	l->busy_ps += occ;
	l->owner_since = done;
	if (coh_unlikely(c->trace != NULL))
		coh_trace_serve(c, l, *r, now, done, dist);
	if (r->prefetch)
		return;
	serve_settle(c, l, r, now, done);
}

/*
 * serve_owned() - serve() of the request a contended line serves nearly
 * always: a store or RMW @r (not a prefetch) of @l, Modified at another
 * CPU, on a plain machine (c->plain: no hold rule, no drawn service time,
 * occupancy 1, no transfer for free; no trace), with the line free at @now
 * (not a joining load); @waiters: the CPUs queued on @l but the requester
 * (serve_any()'s). The same steps as serve() with what those conditions
 * decide folded away, in one straight line (doc/speed.md). Returns when the
 * line is free for its next hand-off: line_ready_at() without a hold rule.
 */
static COH_INLINE sim_time_t serve_owned(struct coh *c, struct coh_line *l,
					 const struct coh_req *r,
					 sim_time_t now, unsigned int waiters)
{
	const struct machine *m = c->m;
	/* read once: the stores below may alias them for the compiler */
	unsigned int cpu = r->cpu;
	bool last = r->last;
	uint32_t key = c->cpu_key[cpu];
	enum coh_dist dist;
	sim_time_t lat, occ, done;

	/* at least 1 ps: time passes (plain) */
	lat = xfer_keys(c, l, c->cpu_key[l->owner], key, &dist) +
	      (sim_time_t)waiters * m->xfer_per_waiter_ps; /* legacy term */
	/* occupancy 1: the latency (plain) */
	occ = lat + conflict_ps(c, l, cpu, key, l->last_to, waiters);
	l->busy_ps += occ;
	l->owner = (int)cpu;
	l->read_batch = false;
	l->transfers++;
	l->xfer_by_dist[dist]++;
	l->last_to = (int)cpu;
	l->last_to_queued = !last;
	xfer_to_count(c, l, cpu);
	done = now + lat;
	if (done < l->last_done)
		done = l->last_done;
	l->last_done = done;
	l->free_at = now + occ;
	l->owner_since = done;
	serve_settle(c, l, r, now, done);
	return now + occ;
}

/*
 * Whether serve_owned() may serve @r, at the head of @l free at now, on a
 * plain machine (c->plain, which the callers test).
 */
static COH_INLINE bool serve_owned_may(const struct coh_line *l,
				       const struct coh_req *r)
{
	return r->op != COH_READ && !r->prefetch && l->owner >= 0 &&
	       l->owner != (int)r->cpu;
}

/*
 * serve() - hand @l to request @r at @now: price the hand-off, count it,
 * and wake the CPU (or settle its posted access) when the line arrives.
 * @r has left the queue (line_dequeue()), or never entered it (an idle
 * line, coh_access_issue()); @joined: a load joining the sharers while
 * the line is busy. The usual case by serve_owned(), the rest by
 * serve_any().
 */
static COH_INLINE void serve(struct coh *c, struct coh_line *l,
			     const struct coh_req *r, sim_time_t now,
			     bool joined)
{
	if (!joined && c->plain && serve_owned_may(l, r))
		serve_owned(c, l, r, now, l->q_cpus - !r->last);
	else
		serve_any(c, l, *r, now, joined);
}

/*
 * The struct coh_cpu of the @k-th CPU queued on @l, or past the queue's
 * end the one whose request line_serve_loop() just took off it (in the
 * slot before the head): chosen by a mask, not a branch, as the queue's
 * length is a coin toss for the host's branch predictor at K=16 (a
 * switch on it cost 0.36 mispredictions an atomic in cachegrind's model).
 */
static COH_INLINE const struct coh_cpu *
queued_cc(const struct coh *c, const struct coh_line *l, unsigned int k)
{
	unsigned int in = -(unsigned int)(k < l->q_len);

	return &c->cpus[l->q[(l->q_head - 1 + ((k + 1) & in)) & (l->q_cap - 1)]
				.cpu];
}

/*
 * line_prefetch_next() - a hint: start loading the host lines of the CPUs
 * that @l serves next, a step of the chain at each of its services, so
 * that each is in the host's L1 when the line serves and resumes its CPU.
 * On a contended line (N >= 72, K=1) every hand-off goes to a CPU whose
 * state the other CPUs' runs have evicted since its last: its struct
 * coh_cpu, its process, frame and task, each a miss that waited for the
 * one before (doc/speed.md: 256 CPUs on one counter, 9 L1 misses an atomic).
 * Three steps along the queue: the third CPU's struct coh_cpu, the
 * second's process, and the next one's frame and task (through its
 * process, loaded at the step before); past the end of a short queue,
 * the CPU just served again. No effect on results.
 */
SIM_PREFETCH_FN void line_prefetch_next(const struct coh *c,
					const struct coh_line *l)
{
	/* its first two host lines: what an access reads (cache.h) */
	const struct coh_cpu *third = queued_cc(c, l, 2);

	SIM_PREFETCH_W(third);
	SIM_PREFETCH_W((const char *)third + 64);
	SIM_PREFETCH_W(queued_cc(c, l, 1)->proc);
	sim_proc_prefetch(queued_cc(c, l, 0)->proc);
}

/*
 * line_serve_loop() - line_serve_inline() on a machine that is @plain
 * (c->plain) or not, a constant at each of its two calls: on a plain one
 * the line is ready when it is free (no hold rule) and serve_owned()
 * serves stores and RMWs; on the other every request is serve_any()'s.
 */
static COH_INLINE void line_serve_loop(struct coh *c, struct coh_line *l,
				       sim_time_t now, bool plain)
{
	const struct coh_req *r;
	sim_time_t ready;

	if (!l->q_len)
		return;
	ready = plain ? l->free_at : line_ready_at(c, l);
	for (;;) {
		bool joined = ready > now;

		r = line_head(l);
		if (plain && !joined && serve_owned_may(l, r)) {
			/*
			 * The CPUs queued but the requester's: counted before
			 * its request leaves, whether or not it has more.
			 */
			unsigned int waiters = l->q_cpus - 1;

			line_dequeue_writer(l, r);
			if (sim_engine_many_procs(c->e))
				line_prefetch_next(c, l);
			/*
			 * Served by a store or RMW: the line is not Shared
			 * (no load joins), and with no hold rule it is ready
			 * when serve_owned() frees it.
			 */
			ready = serve_owned(c, l, r, now, waiters);
			if (!l->q_len)
				return;
			if (ready > now)
				break;
			continue;
		}
		if (joined && !read_joins(l))
			break;
		serve_any(c, l, *line_dequeue(l), now, joined);
		if (!l->q_len)
			return;
		ready = plain ? l->free_at : line_ready_at(c, l);
	}
	/*
	 * Neither caller has the event pending (l->serving), and serving the
	 * queue does not set it (serve() only schedules wake-ups).
	 */
	line_serve_again(l, ready);
}

/*
 * line_serve() - serve @l's queue at @now: every request the line is free
 * for, and loads that join a Shared line (read_joins()); then schedule
 * the line's service event for when it is free again. Its two callers
 * never call it while the event is pending (l->serving, which nothing
 * here sets before the end: serve() only schedules wake-ups), so the
 * event is scheduled without a test; and when the line is free for the
 * next request, worked out once per request, is the event's time too.
 * Inlined into line_serve_event(), which serves nearly every hand-off
 * of a contended line (doc/speed.md); line_kick() calls it. c->plain is
 * tested once here, not at every request.
 */
static COH_INLINE void line_serve_inline(struct coh *c, struct coh_line *l,
					 sim_time_t now)
{
	if (c->plain)
		line_serve_loop(c, l, now, true);
	else
		line_serve_loop(c, l, now, false);
}

static void line_serve(struct coh *c, struct coh_line *l, sim_time_t now)
{
	line_serve_inline(c, l, now);
}

/* ---- announced RMWs (coh_rmw_ahead()) ---- */

/*
 * A CPU that thinks and then RMWs a line (atomic_counter) would yield at
 * the end of its think to the events due before it, and come back in a
 * wake-up event of its own to queue on the line, which is mostly serving
 * others then: an event per atomic that does nothing but queue. Instead
 * the CPU announces the RMW to the line (coh_rmw_announce()): the line
 * keeps the announced RMWs in run order, (arrival time, a seq reserved
 * from the engine where the wake-up would have drawn one), and takes each
 * into its queue when the run reaches it. Whatever looks at the line
 * first admits the ones due before it: the line's service event
 * (ann_admit() in line_serve_event()), another CPU's access (in
 * coh_access_issue()), the end of the run (coh_settle()). While the
 * line's service event is pending its queue is not empty, so an arrival
 * is queued behind it: ann_enqueue() does what coh_access_issue() would
 * have done then. When the line falls idle with RMWs still announced, its
 * timer is set for the first one's arrival, at its reserved seq
 * (ann_arm()), and that event makes the access the wake-up would have
 * made (ann_arrive()). So every access happens at the same time, in the
 * same order, with the same line state as before: only the events that
 * did nothing but queue are gone. SIM: a simulator's shortcut, exact.
 */
#define COH_MAX_ANN 8 /* per line; past it, the CPU's own event */

/* The first RMW announced to @l leaves the list: it arrives. */
static COH_INLINE struct coh_cpu *ann_pop(struct coh *c, struct coh_line *l)
{
	struct coh_cpu *cc = c->ann_first[l->index];

	c->ann_first[l->index] = cc->ann_next;
	l->nr_ann--;
	return cc;
}

/*
 * rmw_count_miss() - count a locked RMW by @cc of field @slot of @l that
 * misses: what access_issue() counts of it, in the same order.
 */
static COH_INLINE void rmw_count_miss(struct coh_line *l,
				      const struct coh_cpu *cc, uint8_t slot)
{
	struct coh_field_stat *fs = &l->fields[slot];

	l->ops[COH_RMW]++;
	fs->ops[COH_RMW]++;
	field_cpu_count(cc->coh, fs, cc->cpu);
	l->misses++;
	fs->misses++;
}

/*
 * rmw_enqueue() - a locked RMW by @cc of field @slot of @l arrives at @enq,
 * behind the line's pending service event: counted (a miss), queued and
 * waited for (@room: the caller knows the ring has room). rmw_queued()'s
 * work, and ann_enqueue()'s.
 *
 * ann_enqueue() - the RMW @cc announced arrives at @l, whose service event
 * is pending: what coh_access_issue() does then, at the arrival time.
 * rmw_queued() for a CPU that does not own the line; for its owner
 * access_issue() comes to the same, since the queue holds others (not a
 * hit: strict hand-off serves them first).
 */
static COH_INLINE void rmw_enqueue(struct coh *c, struct coh_line *l,
				   struct coh_cpu *cc, uint8_t slot,
				   sim_time_t enq, bool room)
{
	rmw_count_miss(l, cc, slot);
	if (!room && coh_unlikely(l->q_len == l->q_cap))
		line_queue_grow(l);
	line_enqueue_room(c, l,
			  &(struct coh_req){ .cpu = (uint16_t)cc->cpu,
					     .op = COH_RMW,
					     .slot = slot,
					     .enq = enq });
	cc->wait_start = enq;
}

static COH_INLINE void ann_enqueue(struct coh *c, struct coh_line *l,
				   struct coh_cpu *cc)
{
	SIM_BUG_ON(!l->serving || !l->q_cpus);
	rmw_enqueue(c, l, cc, cc->ann_slot, cc->ann_at, false);
}

/* The RMWs announced to @l that arrive before (@now, @seq) join its queue. */
static COH_INLINE void ann_admit(struct coh *c, struct coh_line *l,
				 sim_time_t now, uint64_t seq)
{
	struct coh_cpu *cc;

	while (l->nr_ann) {
		cc = c->ann_first[l->index];
		if (!sim_key_before(cc->ann_at, cc->ann_seq, now, seq))
			break;
		ann_enqueue(c, l, ann_pop(c, l));
	}
}

/*
 * line_serve_event() - the line is free again: serve its queue. A CPU that
 * waited for the access served here and promised to touch nothing shared
 * before its next access (coh_cpu.resume_inline) goes on at once, its
 * clock at the completion: what its wake-up event at the completion would
 * do, without the event (doc/speed.md: 2.46 -> 1.49 events per atomic of the
 * contended counter). SIM: exact but for the order of events due at the
 * same picosecond, as its next event is scheduled from here.
 */
static COH_INLINE void line_service(struct coh *c, struct coh_line *l, bool ann)
{
	struct coh_cpu *cc;

	/* the RMWs announced to arrive before now join the queue first */
	if (ann)
		ann_admit(c, l, sim_now(c->e), sim_event_seq(c->e));
	l->serving = false;
	c->inline_cpu = INLINE_ANY;
	line_serve_inline(c, l, sim_now(c->e));
	c->inline_cpu = INLINE_NONE;
	/*
	 * Idle now, with RMWs still to arrive: the first one's event.
	 * Before the CPU served goes on, which may look at the clock.
	 */
	if (ann && l->nr_ann && !l->serving)
		ann_arm(c, l);
	cc = c->inline_cc;
	if (cc) {
		c->inline_cc = NULL;
		cc->access_done = true;
		sim_proc_resume(cc->proc);
	}
}

/*
 * line_serve_event_ann() - line_serve_event() of a line with RMWs
 * announced: its service, or (the line idle) the first one arriving.
 */
static void __attribute__((noinline))
line_serve_event_ann(struct coh *c, struct coh_line *l)
{
	if (!l->serving)
		ann_arrive(c, l);
	else
		line_service(c, l, true);
}

static void line_serve_event(void *arg, uint64_t data)
{
	struct coh *c = arg;
	struct coh_line *l = c->lines[data];

	/* an idle line's timer runs only for an RMW announced to it */
	if (coh_unlikely(l->nr_ann))
		line_serve_event_ann(c, l);
	else
		line_service(c, l, false);
}

/* ---- accesses ---- */

static bool line_is_hit(const struct coh *c, const struct coh_line *l,
			unsigned int cpu, enum coh_op op, sim_time_t now)
{
	if (op == COH_READ) {
		if (l->owner != (int)cpu && !sharer_test(l, cpu))
			return false;
		/* Loads do not conflict with queued loads. */
		if (!l->q_writers)
			return true;
	} else {
		if (l->owner != (int)cpu)
			return false;
		if (!l->q_cpus)
			return true;
	}
	/* Others wait: strict hand-off serves them first. */
	return c->hold && l->owner == (int)cpu &&
	       now < l->owner_since + c->hold_ps;
}

/* Drop posted accesses that have completed. */
static void pending_prune(struct coh_cpu *cc, sim_time_t now)
{
	unsigned int i, j = 0;

	for (i = 0; i < cc->nr_pending; i++) {
		if (cc->pending[i].done == NO_DONE || cc->pending[i].done > now)
			cc->pending[j++] = cc->pending[i];
		else
			cc->nr_posted -= cc->pending[i].count;
	}
	cc->nr_pending = j;
}

/*
 * fence_wait() - the CPU must not go on before its posted misses complete.
 * Completion times already known become a delay; unknown ones (still
 * queued on their lines) block the CPU until pending_served() wakes it.
 * Returns true when the process must wait. @now is sim_now(), which is
 * cc->proc->now: the callers have just synced. With nothing pending it
 * does nothing (p->now stays @now), so callers may skip it then.
 */
static bool fence_wait(struct coh_cpu *cc, sim_time_t now)
{
	struct sim_proc *p = cc->proc;
	sim_time_t last = now;
	unsigned int i;

	pending_prune(cc, now);
	for (i = 0; i < cc->nr_pending; i++) {
		if (cc->pending[i].done == NO_DONE) {
			cc->fence_waiting = true;
			cc->wait_start = now;
			return true;
		}
		if (cc->pending[i].done > last)
			last = cc->pending[i].done;
	}
	cc->nr_pending = 0;
	cc->nr_posted = 0;
	cc->wait_ps += last - now;
	p->now = last;
	return false;
}

bool coh_fence(struct coh_cpu *cc)
{
	if (sim_proc_sync(cc->proc))
		return true;
	/* synced: the engine's clock is proc->now; nothing posted, no wait */
	if (!cc->nr_pending)
		return false;
	return fence_wait(cc, cc->proc->now);
}

/*
 * pending_merge() - the pending access a new one merges into: for a load,
 * any posted access to the line (the miss in flight, or a store to
 * forward from); for a store, a store to the line not yet served. -1 if
 * none.
 */
static int pending_merge(const struct coh_cpu *cc, const struct coh_line *l,
			 enum coh_op op)
{
	unsigned int i;

	for (i = 0; i < cc->nr_pending; i++) {
		if (cc->pending[i].line != l)
			continue;
		if (op == COH_READ)
			return (int)i;
		if (op == COH_WRITE && cc->pending[i].op == COH_WRITE &&
		    cc->pending[i].done == NO_DONE)
			return (int)i;
	}
	return -1;
}

static void adjacent_prefetch(struct coh *c, struct coh_line *l,
			      unsigned int cpu, sim_time_t now)
{
	struct coh_line *buddy = coh_line_find(c, l->addr ^ COH_LINE_SIZE);
	struct coh_req r = {
		.cpu = (uint16_t)cpu, .op = COH_READ, .prefetch = 1, .enq = now
	};

	unsigned int i;

	if (!buddy || buddy->owner == (int)cpu || sharer_test(buddy, cpu))
		return;
	for (i = 0; i < buddy->q_len; i++) {
		const struct coh_req *q =
			&buddy->q[(buddy->q_head + i) & (buddy->q_cap - 1)];

		if (q->prefetch && q->cpu == cpu)
			return; /* already on its way */
	}
	line_enqueue(c, buddy, &r);
	line_kick(c, buddy, now);
}

/*
 * access_issue() - coh_access_issue()'s work, inlined there twice: once
 * for a locked RMW, whose @op and @dep are then constants (no merge, not
 * posted, a load's tests folded away: the contended counter's straight
 * line), once for the rest (doc/speed.md).
 */
static COH_INLINE bool access_issue(struct coh_cpu *cc, struct coh_field *field,
				    enum coh_op op, bool dep)
{
	struct coh *c = cc->coh;
	const struct machine *m = c->m;
	struct sim_proc *p = cc->proc;
	struct coh_line *l = field->line;
	struct coh_field_stat *fs;
	sim_time_t now;
	bool idle, posted;
	int i;

	/* synced (coh_access()): the engine's clock is p->now */
	now = p->now;
	/*
	 * A locked RMW waits for all posted accesses; so does a full buffer.
	 * With nothing pending (nr_posted is then 0 too) pruning and the
	 * fence are no-ops: an RMW that follows an RMW, the contended
	 * counter's case, skips both.
	 */
	if (cc->nr_pending) {
		pending_prune(cc, now);
		if (op == COH_RMW ||
		    (!dep && cc->nr_posted >= COH_MAX_PENDING)) {
			if (fence_wait(cc, now) || sim_proc_sync(p))
				return true;
			now = p->now;
		}
	}

	fs = &l->fields[field->slot];
	l->ops[op]++;
	fs->ops[op]++;
	if (coh_unlikely(cc->caller != NULL))
		coh__count_caller(cc, fs, op);
	field_cpu_count(c, fs, cc->cpu);
	i = op == COH_RMW ? -1 : pending_merge(cc, l, op);
	if (i >= 0) {
		/*
		 * A load merges into the miss in flight or forwards from the
		 * store buffer; a store joins the queued store to its line,
		 * to commit with it when the line arrives.
		 */
		l->merged++;
		if (op == COH_WRITE) {
			cc->pending[i].count++;
			cc->nr_posted++;
		}
		p->now += m->l1_hit_ps;
		if (!dep || cc->pending[i].op == COH_WRITE)
			return false; /* forwarded from the store buffer */
		if (cc->pending[i].done != NO_DONE) {
			if (cc->pending[i].done > p->now) {
				cc->wait_ps += cc->pending[i].done - p->now;
				p->now = cc->pending[i].done;
			}
			return false;
		}
		/* The miss it merged into is still queued: wait for it. */
		cc->dep_line = l;
		cc->wait_start = now;
		return true;
	}
	if (line_is_hit(c, l, cc->cpu, op, now)) {
		l->hits++;
		p->now += op == COH_RMW ? m->rmw_local_ps : m->l1_hit_ps;
		return false;
	}

	l->misses++;
	fs->misses++;
	if (coh_unlikely(cc->caller != NULL))
		cc->caller_stat->misses++;
	posted = op != COH_RMW && !dep;
	/*
	 * Nobody queued, no service event, the line free now: line_kick()
	 * would serve this request at once, taking it back off the ring it
	 * was just put on. serve() it without the ring: its queue counts
	 * (q_cpus, q_writers, the line's q_last[]) would go up and back down
	 * before anything read them. First touch still sets the home. Not
	 * with a trace, whose counters line_enqueue() writes.
	 */
	idle = !l->q_len && !l->serving && !c->trace &&
	       line_ready_for(c, l, cc->cpu) <= now;
	if (!idle) {
		/* built in its ring slot: a local copied there cost 10 */
		line_enqueue(c, l,
			     &(struct coh_req){ .cpu = (uint16_t)cc->cpu,
						.op = (uint8_t)op,
						.slot = field->slot,
						.posted = posted,
						.enq = now });
	} else if (l->home < 0) {
		l->home = (int)m->cpus[cc->cpu].socket;
	}
	if (posted) {
		SIM_BUG_ON(cc->nr_pending == COH_MAX_PENDING);
		cc->pending[cc->nr_pending].line = l;
		cc->pending[cc->nr_pending].op = (uint8_t)op;
		cc->pending[cc->nr_pending].count = 1;
		cc->pending[cc->nr_pending].done = NO_DONE;
		cc->nr_pending++;
		cc->nr_posted++;
		p->now += m->l1_hit_ps; /* the issue slot */
	} else {
		cc->wait_start = now;
	}
	/*
	 * Queued behind a service event (a contended line's case): that
	 * event serves it, and line_kick() would return at once. Otherwise
	 * serve it now or kick the line, after the pending[] entry or
	 * wait_start that serve() settles.
	 */
	if (idle || !l->serving) {
		c->inline_cpu = (int)cc->cpu;
		if (idle)
			serve(c, l,
			      &(struct coh_req){ .cpu = (uint16_t)cc->cpu,
						 .op = (uint8_t)op,
						 .slot = field->slot,
						 .posted = posted,
						 .last = 1, /* nothing queued */
						 .enq = now },
			      now, false);
		else
			line_kick(c, l, now);
		c->inline_cpu = INLINE_NONE;
	}
	if (coh_unlikely(m->adjacent_line_prefetch))
		adjacent_prefetch(c, l, cc->cpu, now);
	if (c->inline_cc) {
		/* Served at once, and it may go on: serve() set its clock. */
		SIM_BUG_ON(c->inline_cc != cc || posted);
		c->inline_cc = NULL;
		return false;
	}
	return !posted;
}

/*
 * coh_access_issue() - coh_access(), and with @dep a load the CPU waits for
 * (coh_read_dep()): not posted, so a miss blocks until served and a load
 * merging into a posted miss of the same line waits for that miss. The
 * wake-up of an access that waited (cc->access_done) and the sync are
 * done inline by those two, in cache.h: the process is synced.
 */
static bool __attribute__((noinline))
access_issue_any(struct coh_cpu *cc, struct coh_field *field, enum coh_op op,
		 bool dep)
{
	/* RMWs announced to arrive before this access join the queue first */
	if (coh_unlikely(field->line->nr_ann))
		ann_admit_now(cc->coh, field->line);
	if (op == COH_RMW)
		return access_issue(cc, field, COH_RMW, false);
	return access_issue(cc, field, op, dep);
}

/*
 * rmw_queued() - access_issue() of a locked RMW in the case a contended
 * line makes the usual one: the CPU has nothing posted, does not own the
 * line (or owns it with others queued, and there is no hold rule: no hit
 * then), and the line's service event is pending, so the RMW is counted
 * (a miss), queued and waited for, and nothing else happens (no prune,
 * no fence, no merge, no hit, no kick, no inline resume; no caller to
 * count, no adjacent prefetch; the ring has room and there is no trace).
 * The same steps, in a function of its own that calls nothing and so
 * saves few registers (doc/speed.md: at N=256 K=1, 111 instructions per
 * atomic in coh_access_issue() -> 92 with this test).
 */
static bool __attribute__((noinline))
rmw_queued(struct coh_cpu *cc, struct coh_field *field, struct coh_line *l)
{
	/* synced: the engine's clock is cc->proc->now */
	rmw_enqueue(cc->coh, l, cc, field->slot, cc->proc->now, true);
	return true;
}

/*
 * rmw_idle() - access_issue() of a locked RMW in the other usual case of
 * a contended line: the CPU has nothing posted, the line is Modified at
 * another CPU, nobody is queued or announced, no service event is pending
 * and the line is free now, on a plain machine (c->plain: no hold rule,
 * no trace). The RMW is counted (a miss) and served at once by
 * serve_owned(), which resumes the CPU inline when it may: the steps of
 * access_issue()'s idle line with what those conditions decide folded
 * away (doc/speed.md: at N=72 K=16 40% of the atomics come here and 30% to
 * rmw_busy(), 150 instructions each through access_issue_any(); here
 * about 100, mostly serve_owned()'s). Returns whether the CPU waits.
 */
static bool __attribute__((noinline))
rmw_idle(struct coh_cpu *cc, struct coh_field *field, struct coh_line *l)
{
	struct coh *c = cc->coh;
	/* synced: the engine's clock is the CPU's */
	sim_time_t now = cc->proc->now;

	rmw_count_miss(l, cc, field->slot);
	cc->wait_start = now;
	c->inline_cpu = (int)cc->cpu;
	serve_owned(c, l,
		    &(struct coh_req){ .cpu = (uint16_t)cc->cpu,
				       .op = COH_RMW,
				       .slot = field->slot,
				       .last = 1, /* nothing queued */
				       .enq = now },
		    now, l->q_cpus);
	c->inline_cpu = INLINE_NONE;
	if (c->inline_cc) {
		/* served at once, and it may go on: serve() set its clock */
		c->inline_cc = NULL;
		return false;
	}
	return true;
}

/*
 * rmw_busy() - access_issue() of a locked RMW in the third usual case of
 * a contended line: as rmw_idle(), but the line is still busy with the
 * hand-off it served last, nobody queued behind it, so no service event
 * is pending: the RMW is counted, queued, and the line's service event set
 * for when it is free (line_kick()). Returns true: the CPU waits.
 */
static bool __attribute__((noinline))
rmw_busy(struct coh_cpu *cc, struct coh_field *field, struct coh_line *l)
{
	/* synced: the engine's clock is the CPU's */
	sim_time_t now = cc->proc->now;

	rmw_enqueue(cc->coh, l, cc, field->slot, now, false);
	line_kick(cc->coh, l, now);
	return true;
}

bool coh_access_issue(struct coh_cpu *cc, struct coh_field *field,
		      enum coh_op op, bool dep)
{
	struct coh_line *l = field->line;
	const struct coh *c = cc->coh;

	if (op == COH_RMW && !l->nr_ann && !cc->nr_pending && !cc->caller &&
	    !c->m->adjacent_line_prefetch) {
		bool owner = l->owner == (int)cc->cpu;

		if (l->serving) {
			/*
			 * The owner's RMW with others queued is no hit
			 * without a hold rule: strict hand-off serves them
			 * first (line_is_hit()), so it queues behind them as
			 * anybody's does (make bench's CPUs, which RMW again
			 * as soon as they have the line).
			 */
			if (l->q_len != l->q_cap && !c->trace &&
			    (!owner || (l->q_cpus && !c->hold)))
				return rmw_queued(cc, field, l);
		} else if (!owner && c->plain && !l->q_len) {
			if (l->free_at > cc->proc->now)
				return rmw_busy(cc, field, l);
			if (l->owner >= 0 && l->home >= 0)
				return rmw_idle(cc, field, l);
		}
	}
	return access_issue_any(cc, field, op, dep);
}

/* ---- announced RMWs: announcing, arriving at an idle line ---- */

/*
 * coh_rmw_announce() - announce the RMW of @field that @cc makes at its
 * clock (ahead of the engine's) instead of yielding until then. Only when
 * the line's service event is pending, so that the arrival is mostly
 * queued at the next look (ann_enqueue()), and only with nothing in the
 * way of that: nothing posted (an RMW fences), no caller counted, no
 * trace (it records the queue as it grows), no hold rule (whose window
 * would make the owner's RMW a hit), no adjacent-line prefetch (queues
 * nobody waits for). Returns true when announced: the CPU waits.
 */
bool coh_rmw_announce(struct coh_cpu *cc, struct coh_field *field)
{
	struct coh *c = cc->coh;
	struct coh_line *l = field->line;
	sim_time_t at = cc->proc->now;
	struct coh_cpu **pp;
	uint64_t seq;

	if (!l->serving || l->nr_ann >= COH_MAX_ANN || !cc->resume_inline ||
	    cc->nr_pending || cc->caller || c->no_ann)
		return false;
	if (coh_unlikely(l->index >= c->cap_ann))
		coh__ann_grow(c, l->index);
	if (!sim_seq_reserve(c->e, &seq))
		return false;
	cc->ann_line = l;
	cc->ann_slot = field->slot;
	cc->ann_at = at;
	cc->ann_seq = seq;
	/* in run order: mostly last, as a new one has the newest seq */
	for (pp = &c->ann_first[l->index];
	     *pp && !sim_key_before(at, seq, (*pp)->ann_at, (*pp)->ann_seq);
	     pp = &(*pp)->ann_next)
		;
	cc->ann_next = *pp;
	*pp = cc;
	l->nr_ann++;
	return true;
}

/*
 * ann_arm() - @l is idle (no service event pending) with RMWs announced:
 * its timer runs when the first arrives, where that CPU's wake-up would
 * have run (its reserved seq).
 */
static void ann_arm(struct coh *c, struct coh_line *l)
{
	const struct coh_cpu *first = c->ann_first[l->index];

	SIM_BUG_ON(l->serving);
	sim_timer_set_key(&l->serve_timer, first->ann_at, first->ann_seq);
}

/*
 * ann_arrive() - the timer ann_arm() set: the first RMW announced to @l
 * arrives at the idle line. The CPU makes the access its wake-up would
 * have made (its clock is now), and goes on at once if it was a hit or
 * was served at once (resumed inline, its clock at the completion).
 */
static void ann_arrive(struct coh *c, struct coh_line *l)
{
	struct coh_cpu *cc = ann_pop(c, l);
	struct coh_field field = { .line = l, .slot = cc->ann_slot };
	bool wait;

	SIM_BUG_ON(cc->ann_at != sim_now(c->e) ||
		   cc->ann_seq != sim_event_seq(c->e) ||
		   cc->proc->now != cc->ann_at);
	wait = access_issue_any(cc, &field, COH_RMW, false);
	/* before the CPU goes on, which may look at the clock */
	if (l->nr_ann && !l->serving)
		ann_arm(c, l);
	if (wait)
		return;
	cc->access_done = true;
	sim_proc_resume(cc->proc);
}

/* ann_admit() before an access: out of line, as it is rare there. */
static COH_COLD void ann_admit_now(struct coh *c, struct coh_line *l)
{
	ann_admit(c, l, sim_now(c->e), sim_event_seq(c->e));
}

void coh_settle(struct coh *c)
{
	unsigned int i;

	/* an idle line's next arrival is later: its event would have run */
	for (i = 0; c->ann_first && i < c->nr_lines; i++)
		if (c->lines[i]->nr_ann)
			ann_admit(c, c->lines[i], sim_now(c->e), SIM_SEQ_AHEAD);
	coh__stats_settle(c);
}

bool coh_read_cold(struct coh_cpu *cc)
{
	struct coh *c = cc->coh;
	struct sim_proc *p = cc->proc;
	sim_time_t now;

	if (sim_proc_sync(p))
		return true;
	now = p->now; /* synced: the engine's clock */
	pending_prune(cc, now);
	if (cc->nr_posted >= COH_MAX_PENDING) {
		if (fence_wait(cc, now) || sim_proc_sync(p))
			return true;
		now = p->now;
	}
	SIM_BUG_ON(cc->nr_pending == COH_MAX_PENDING);
	cc->pending[cc->nr_pending].line = NULL;
	cc->pending[cc->nr_pending].op = COH_READ;
	cc->pending[cc->nr_pending].count = 1;
	cc->pending[cc->nr_pending].done = now + c->m->memory_ps;
	cc->nr_pending++;
	cc->nr_posted++;
	p->now += c->m->l1_hit_ps; /* the issue slot */
	return false;
}
