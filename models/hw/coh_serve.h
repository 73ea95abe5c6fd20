/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/hw/coh_serve.h - a line's queue and its hand-off, inline: the
 * ring of requests and who is queued on it (queued_add(), line_enqueue(),
 * line_dequeue()), when the line is ready, and serve(), which prices a
 * hand-off and wakes the requester. The access path (cache.c), the
 * line's service event (coh_serve.c) and announced RMWs (coh_announce.c)
 * share them, and each is the hot path: a call costs more than most of
 * them, so they are inlined into each (COH_INLINE) and live here rather
 * than in one file. Their out-of-line part is coh_serve.c's.
 *
 * Layering: models/ module; include only from the coherence model's files.
 */
#ifndef MODELS_HW_COH_SERVE_H
#define MODELS_HW_COH_SERVE_H

#include "models/hw/cache.h"
#include "models/hw/coh_priv.h"
#include "sim/error.h"

/* a posted access's completion, not known yet (still queued) */
#define NO_DONE SIM_TIME_MAX

/* In coh_serve.c: the out-of-line part of a line's queue and service. */
void coh__line_timer_init(struct coh *c, struct coh_line *l) COH_COLD_DECL;
void coh__q_last_alloc(struct coh *c, struct coh_line *l) COH_COLD_DECL;
void coh__line_queue_grow(struct coh_line *l) COH_COLD_DECL;
void coh__pending_served(struct coh *c, unsigned int cpu, enum coh_op op,
			 struct coh_line *l, sim_time_t now, sim_time_t done);
void coh__line_serve(struct coh *c, struct coh_line *l, sim_time_t now);

/* In coh_announce.c: announced RMWs arriving (ann_admit() is below). */
void coh__ann_arm(struct coh *c, struct coh_line *l);
void coh__ann_arrive(struct coh *c, struct coh_line *l);
void coh__ann_admit_now(struct coh *c, struct coh_line *l) COH_COLD_DECL;

/* In cache.c: an access, not by one of the RMW shortcuts. */
bool coh__access_issue_any(struct coh_cpu *cc, struct coh_field *field,
			   enum coh_op op, bool dep);

/*
 * line_serve_again() - line_serve_at() of a line whose service event is
 * set up: line_serve_loop()'s, whose two callers are the event itself and
 * line_kick(), which sets it up first (2 instructions a hand-off).
 */
static COH_INLINE void line_serve_again(struct coh_line *l, sim_time_t when)
{
	l->serving = true;
	sim_timer_set(&l->serve_timer, when);
}

/*
 * line_serve_again_idle() - line_serve_again() where the caller's tests
 * decide sim_timer_set()'s: the timer is not pending (the line is not
 * serving, nor idle with an RMW announced, which coh__ann_arm() sets it
 * for), and @when is after now.
 */
static COH_INLINE void line_serve_again_idle(struct coh_line *l,
					     sim_time_t when)
{
	l->serving = true;
	sim_timer_set_idle(&l->serve_timer, when);
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
		coh__line_timer_init(c, l);
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

/* Request @r, in ring position @pos of @l, has joined the queue. */
static COH_INLINE void queued_add(struct coh *c, struct coh_line *l,
				  const struct coh_req *r, unsigned int pos)
{
	unsigned int cpu = r->cpu, prev = 0;

	if (r->posted) {
		if (coh_unlikely(!l->q_last))
			coh__q_last_alloc(c, l);
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

/*
 * queued_del() but l->last_to_queued, for a request that the line goes to
 * next (line_dequeue_writer()): serve_owned() sets it.
 */
static COH_INLINE void queued_del_cpus(struct coh_line *l,
				       const struct coh_req *r)
{
	if (r->posted)
		l->q_last[r->cpu] = 0;
	l->q_cpus--;
}

/* @r, its CPU's latest request on @l, has left the queue: @l is not its. */
static COH_INLINE void queued_del(struct coh_line *l, const struct coh_req *r)
{
	queued_del_cpus(l, r);
	if ((int)r->cpu == l->last_to)
		l->last_to_queued = false;
}

/* The request at the head of @l's queue, which must not be empty. */
static COH_INLINE struct coh_req *line_head(const struct coh_line *l)
{
	return &l->q[l->q_head & (l->q_cap - 1)];
}

/*
 * line_enqueue_room() - line_enqueue() of a line whose ring has room and
 * whose home is set (touched before), without a trace: it calls nothing,
 * nor does rmw_queued() with it.
 */
static COH_INLINE void line_enqueue_room(struct coh *c, struct coh_line *l,
					 const struct coh_req *r)
{
	/* q_cap is a power of two (8, doubled): a mask, not a division */
	unsigned int pos = l->q_head + l->q_len++;
	struct coh_req *slot = &l->q[pos & (l->q_cap - 1)];

	*slot = *r;
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
		coh__line_queue_grow(l);
	/* First touch: the line's memory is on the first requester's node. */
	if (coh_unlikely(l->home < 0))
		l->home = (int)c->m->cpus[r->cpu].socket;
	line_enqueue_room(c, l, r);
	if (coh_unlikely(c->trace != NULL))
		coh_trace_counters(c, l); /* reads q_len, nr_sharers */
}

/*
 * line_dequeue() - take the request at the head of @l's queue. It is
 * returned in place, in the ring slot it leaves free: valid until the next
 * line_enqueue() on @l, which nothing in a hand-off does (coh__line_serve()
 * only schedules wake-ups). A copy cost coh__line_serve() a dozen spills.
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
 * known to be a store or RMW and not a prefetch (serve_owned_may()),
 * which serve_owned() serves next: the same steps without the tests. Nor
 * is l->last_to_queued cleared when @r's CPU is l->last_to: serve_owned()
 * sets it, and its conflict_ps() reads it only when l->last_to is another
 * CPU (`make bench-insns INSNS_N=256 INSNS_K=16`: 651 -> 650 an atomic).
 */
static COH_INLINE void line_dequeue_writer(struct coh_line *l,
					   const struct coh_req *r)
{
	/* not adjacent: no vector pair (struct coh_line says why) */
	l->q_head++;
	if (r->last)
		queued_del_cpus(l, r);
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
		coh__line_timer_init(c, l);
	ready = line_ready_at(c, l);
	if (ready <= now || read_joins(l)) {
		coh__line_serve(c, l, now);
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
		lat = memory_from(c, l->home, cpu);
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
 * (coh__line_serve() counts them once for this and the legacy term); the
 * holder is among them when l->last_to_queued. The price by one load
 * indexed by the home test (c->conflict_ps[]), as xfer_keys() does, not
 * a select of the machine's two by masks (`make bench-peers-insns`:
 * 256/16 496.18 -> 491.96 an atomic, 72/1 478.26 -> 471.26).
 */
static COH_INLINE sim_time_t conflict_ps(const struct coh *c,
					 const struct coh_line *l,
					 unsigned int cpu, uint32_t cpu_key,
					 int holder, unsigned int waiters)
{
	/* the holder is no third CPU; without branches, as xfer_keys() */
	unsigned int third =
		waiters - ((holder != (int)cpu) & l->last_to_queued);
	bool local = l->home == (int)(cpu_key >> MACHINE_KEY_SOCKET_SHIFT);

	return third * c->conflict_ps[local];
}

/* serve_settle()'s count of @r's wait for @l, served at @now */
static COH_INLINE void serve_wait_count(struct coh_line *l,
					const struct coh_req *r, sim_time_t now)
{
	sim_time_t wait = now - r->enq;

	l->wait_ps += wait;
	l->fields[r->slot].wait_ps += wait;
}

/*
 * serve_resume_inline() - serve_settle()'s CPU @cc goes on inline, done
 * at @done: its clock, and how long the queue of @l lasts.
 */
static COH_INLINE void serve_resume_inline(struct coh_line *l,
					   struct coh_cpu *cc, sim_time_t now,
					   sim_time_t done, bool own)
{
	/* it waits no more: its clock can say when it is done */
	cc->proc->now = done;
	/* how long the queue lasts: coh_rmw_worth_announcing() */
	cc->ann_line = l;
	cc->ann_until = l->free_at +
			(own ? 0 : (sim_time_t)l->q_len * (l->free_at - now));
}

/*
 * serve_settle() - the end of serve() for a request somebody waits for
 * (not a prefetch): count its queueing time, and wake its CPU at @done (or
 * settle its posted access). @own: the requester when it is its caller's
 * own CPU, its RMW served at once on an idle line (rmw_idle()): it may go
 * on inline (c->inline_cpu would be its, and is left INLINE_NONE), it
 * started waiting at @now and nobody is queued; NULL for any other case,
 * a constant at each call. @inl: in a line's service (line_serve_event()),
 * its local for the CPU it resumes, NULL while none: anybody may be, once
 * (c->inline_cpu and c->inline_cc, which it set to "anybody" before,
 * cost it 6 stores, loads and tests more: `make bench-insns INSNS_N=256
 * INSNS_K=16`: 621 -> 619 an atomic, 72/1 580 -> 571); NULL elsewhere, a
 * constant at each call too.
 */
static COH_INLINE void serve_settle(struct coh *c, struct coh_line *l,
				    const struct coh_req *r, sim_time_t now,
				    sim_time_t done, struct coh_cpu *own,
				    struct coh_cpu **inl)
{
	struct coh_cpu *cc;

	serve_wait_count(l, r, now);
	if (r->posted) {
		coh__pending_served(c, r->cpu, (enum coh_op)r->op, l, now,
				    done);
		return;
	}
	cc = own ? own : &c->cpus[r->cpu];
	cc->wait_ps += done - (own ? now : cc->wait_start);
	/*
	 * Its caller resumes it (coh_cpu.resume_inline); not past the run's
	 * horizon, where its wake-up would not run either.
	 */
	if (coh_unlikely(cc->resume_inline) &&
	    (own || (inl ? !*inl : c->inline_cpu == (int)r->cpu)) &&
	    done <= sim_horizon(c->e)) {
		serve_resume_inline(l, cc, now, done, own);
		if (inl)
			*inl = cc;
		else
			c->inline_cc = cc;
		if (!own && !inl)
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
				 bool joined, struct coh_cpu **inl)
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
			xfer_to_count(c, l, r->cpu, dist, false);
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
		/* a joining load takes no link in the line's flow chain */
		coh_trace_serve(c, l, *r, now, done,
				joined ? COH_DIST_SELF : dist);
	if (r->prefetch)
		return;
	serve_settle(c, l, r, now, done, NULL, inl);
}

/*
 * serve_owned() - serve() of the request a contended line serves nearly
 * always: a store or RMW @r (not a prefetch) of @l, Modified at another
 * CPU, on a plain machine (c->plain: no hold rule, no drawn service time,
 * occupancy 1, no transfer for free; no trace), with the line free at @now
 * (not a joining load); @waiters: the CPUs queued on @l but the requester
 * (serve_any()'s). The same steps as serve() with what those conditions
 * decide folded away, in one straight line (doc/speed.md). @own:
 * serve_settle()'s, whose idle line has nobody queued: no waiter, no
 * conflict. Returns when the line is free for its next hand-off:
 * line_ready_at() without a hold rule. serve_owned_xfer(): its steps
 * before serve_settle(), the requester's completion in *@donep, for a
 * caller that settles it itself (line_serve_plain()); @own as a bool.
 */
static COH_INLINE sim_time_t serve_owned_xfer(struct coh *c, struct coh_line *l,
					      const struct coh_req *r,
					      sim_time_t now,
					      unsigned int waiters, bool own,
					      sim_time_t *donep)
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
	occ = lat;
	if (!own)
		occ += conflict_ps(c, l, cpu, key, l->last_to, waiters);
	l->busy_ps += occ;
	l->owner = (int)cpu;
	l->read_batch = false;
	/*
	 * @own's transfer counted with its log entry (xfer_to_count()): an
	 * RMW served at once then writes no third host line of the line's
	 * (`make bench-scale-sim`, 1024 x 1024, 512 KiB LL: 4.39 -> 3.94 misses
	 * an event). A service writes it anyway (l->wait_ps).
	 */
	if (!own) {
		l->transfers++;
		l->xfer_by_dist[dist]++;
	}
	l->last_to = (int)cpu;
	l->last_to_queued = !last;
	xfer_to_count(c, l, cpu, dist, own);
	done = now + lat;
	if (done < l->last_done)
		done = l->last_done;
	l->last_done = done;
	l->free_at = now + occ;
	/* no owner_since: the hold rule reads it, and plain has none */
	*donep = done;
	return now + occ;
}

static COH_INLINE sim_time_t serve_owned(struct coh *c, struct coh_line *l,
					 const struct coh_req *r,
					 sim_time_t now, unsigned int waiters,
					 struct coh_cpu *own,
					 struct coh_cpu **inl)
{
	sim_time_t done, ready;

	ready = serve_owned_xfer(c, l, r, now, waiters, own != NULL, &done);
	serve_settle(c, l, r, now, done, own, inl);
	return ready;
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
		serve_owned(c, l, r, now, l->q_cpus - !r->last, NULL, NULL);
	else
		serve_any(c, l, *r, now, joined, NULL);
}

/*
 * reads_join() - a load was just served on @l at @now and left it Shared
 * (l->read_batch): under the join and shared_first policies
 * (c->read_service) every load queued on the line joins it, served at
 * once wherever it stands in the queue, as the home serves every reader
 * of a line it has just downgraded to Shared; under fifo only those that
 * come to the head do (read_joins()). A joined load's slot stays in the
 * ring, marked served (and as a prefetch, so that it is nobody's), until
 * it reaches the head; who is queued is counted as it leaves now.
 */
static COH_INLINE void reads_join(struct coh *c, struct coh_line *l,
				  sim_time_t now, struct coh_cpu **inl)
{
	unsigned int a;

	for (a = l->q_head; a != l->q_head + l->q_len; a++) {
		struct coh_req *q = &l->q[a & (l->q_cap - 1)];
		struct coh_req r = *q;

		if (r.op != COH_READ || r.prefetch)
			continue;
		if (r.last)
			queued_del(l, q);
		q->last = 0;
		q->prefetch = 1;
		q->served = 1;
		serve_any(c, l, r, now, true, inl);
	}
}

/*
 * rmw_count_miss() - count a locked RMW by @cc (of @c, which its callers
 * have at hand) of field @slot of @l that misses: what access_issue()
 * counts of it, in the same order.
 */
static COH_INLINE void rmw_count_miss(struct coh *c, struct coh_line *l,
				      const struct coh_cpu *cc, uint8_t slot)
{
	l->ops[COH_RMW]++;
	/* and the field's ops[COH_RMW] and misses */
	field_cpu_count(c, l, slot, cc->cpu, true);
	l->misses++;
}

/*
 * rmw_enqueue() - a locked RMW by @cc of field @slot of @l arrives at @enq,
 * behind the line's pending service event: counted (a miss), queued and
 * waited for (@room: the caller knows the ring has room). rmw_queued()'s
 * work, and ann_enqueue()'s.
 */
static COH_INLINE void rmw_enqueue(struct coh *c, struct coh_line *l,
				   struct coh_cpu *cc, uint8_t slot,
				   sim_time_t enq, bool room)
{
	/* touched before: it is served, busy or has requests queued */
	SIM__CHECK(l->home < 0);
	rmw_count_miss(c, l, cc, slot);
	if (!room && coh_unlikely(l->q_len == l->q_cap))
		coh__line_queue_grow(l);
	line_enqueue_room(c, l,
			  &(struct coh_req){ .cpu = (uint16_t)cc->cpu,
					     .op = COH_RMW,
					     .slot = slot,
					     .enq = enq });
	cc->wait_start = enq;
}

/* ---- announced RMWs joining the queue (coh_announce.c) ---- */

/* The first RMW announced to @l (@a: its list) leaves the list: it arrives. */
static COH_INLINE struct coh_cpu *ann_pop(struct coh_ann *a, struct coh_line *l)
{
	struct coh_cpu *cc = a->first;

	a->first = cc->ann_next;
	l->nr_ann--;
	return cc;
}

/*
 * ann_enqueue() - the RMW @cc announced arrives at @l, whose service event
 * is pending: what coh_access_issue() does then, at the arrival time.
 * rmw_queued() for a CPU that does not own the line; for its owner
 * access_issue() comes to the same, since the queue holds others (not a
 * hit: strict hand-off serves them first).
 */
static COH_INLINE void ann_enqueue(struct coh *c, struct coh_line *l,
				   struct coh_cpu *cc)
{
	rmw_enqueue(c, l, cc, cc->ann_slot, cc->ann_at, false);
}

/*
 * ann_admit_at() - the RMWs announced to @l that arrive before what runs
 * now, (@now, sim_event_seq()), or with @ahead before (@now,
 * SIM_SEQ_AHEAD), join its queue (coh_announce.c); @now is sim_now(),
 * which the service reads once for this and its hand-off (GCC reloaded
 * it after the admission's stores: 523.7 -> 521.8 instructions an atomic,
 * `make bench-insns INSNS_N=72 INSNS_K=1`). Inline: a contended
 * line's service event runs it for every RMW it serves. The seq is read
 * on a tie of times only, which is rare (7 instructions an event).
 *
 * An RMW joins the queue only behind the line's pending service
 * (ann_enqueue()), so the line is serving with CPUs queued: checked for
 * the cold callers; @service says the caller is that service event,
 * which line_serve_event_ann() entered on l->serving, and only a
 * checking build tests it again there (5 instructions an atomic, `make
 * bench-insns INSNS_N=72 INSNS_K=1`: 572 -> 569).
 */
static COH_INLINE void ann_admit_at(struct coh *c, struct coh_line *l,
				    sim_time_t now, bool ahead, bool service)
{
	/* found once: c->ann[] grows only when an RMW is announced */
	struct coh_ann *a = &c->ann[l->index];
	struct coh_cpu *cc;

	/* to coh__ann_end at the latest, when none is left (l->nr_ann) */
	for (;;) {
		cc = a->first;
		if (cc->ann_at > now ||
		    (cc->ann_at == now &&
		     cc->ann_seq >=
			     (ahead ? SIM_SEQ_AHEAD : sim_event_seq(c->e))))
			break;
		if (service)
			SIM__CHECK(!l->serving || !l->q_cpus);
		else
			SIM_BUG_ON(!l->serving || !l->q_cpus);
		ann_enqueue(c, l, ann_pop(a, l));
	}
}

/* ann_admit_at() at sim_now(): for the callers but the service */
static COH_INLINE void ann_admit(struct coh *c, struct coh_line *l, bool ahead,
				 bool service)
{
	ann_admit_at(c, l, sim_now(c->e), ahead, service);
}

#endif /* MODELS_HW_COH_SERVE_H */
