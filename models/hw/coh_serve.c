// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/hw/coh_serve.c - serving a line's queue: the line's service
 * event (line_serve_event()), which serves, in arrival order, every
 * request the line is free for and the loads that join a Shared line
 * (coh__line_serve(), line_serve_loop()), and settles posted accesses
 * (coh__pending_served()); the ring's growth. The inline helpers it
 * shares with the access path, the queue and the hand-off's price
 * (serve()), are in coh_serve.h.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/cache.h"
#include "models/hw/coh_priv.h"
#include "models/hw/coh_serve.h"
#include "sim/error.h"

static void line_serve_event(void *arg, uint64_t data);

/*
 * Set up @l's service event (line_serve_at()), at its first use. Its data
 * is @l itself, which stays where it is (its chunk): no load of c->lines
 * an event.
 */
COH_COLD void coh__line_timer_init(struct coh *c, struct coh_line *l)
{
	sim_timer_init(c->e, &l->serve_timer, line_serve_event, c,
		       (uintptr_t)l);
}

/* @l's first posted request: its q_last[], none queued yet. */
COH_COLD void coh__q_last_alloc(struct coh *c, struct coh_line *l)
{
	l->q_last = calloc(c->nr_cpus, sizeof(*l->q_last));
	SIM_OOM_ON(!l->q_last);
}

/*
 * The ring of @l is full: double it (8 the first time). Each request
 * keeps its position, which gives its slot in the new ring; l->q_last[]
 * follows the latest posted ones there.
 */
COH_COLD void coh__line_queue_grow(struct coh_line *l)
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

/*
 * A posted access (@op) of @cpu to @l completes at @done; @now is
 * sim_now(). The request's fields, not the request: its address would
 * make the hot path's callers build it in memory.
 */
void coh__pending_served(struct coh *c, unsigned int cpu, enum coh_op op,
			 struct coh_line *l, sim_time_t now, sim_time_t done)
{
	struct coh_cpu *cc = &c->cpus[cpu];
	sim_time_t last = 0;
	unsigned int i;
	bool known = true;

	for (i = 0; i < cc->nr_pending; i++) {
		if (cc->pending[i].line == l && cc->pending[i].op == op &&
		    cc->pending[i].done == NO_DONE) {
			cc->pending[i].done = done;
			break;
		}
	}
	if (cc->chase_waiting && cc->chase_line == l && op == COH_READ) {
		/* the access after a dependent load waited for it */
		cc->chase_waiting = false;
		cc->chasing = false;
		cc->chase_line = NULL;
		cc->wait_ps += done + cc->chase_extra - cc->wait_start;
		sim_proc_wake(cc->proc, done + cc->chase_extra);
		return;
	}
	if (cc->dep_line == l && op == COH_READ) {
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
 *
 * @ann: the line has RMWs announced (line_serve_event_ann()), a constant
 * too, which says where line_prefetch_next() pays. Such a line is one
 * whose queue stays long (N >= 72, K=1): the hint goes before the
 * hand-off, whose values it shares. Other lines' queues are short, and
 * often empty once served (256 CPUs on 16 counters: half the services),
 * when the hint would load the CPU just served, whose state the hand-off
 * has just touched: it comes after the test of the queue's end (`make
 * bench-insns INSNS_N=256 INSNS_K=16`: 650 -> 636 an atomic; after it at
 * every line, 72/1 and 256/1 paid 6 more for the values it reloads).
 */
static COH_INLINE void line_serve_loop(struct coh *c, struct coh_line *l,
				       sim_time_t now, bool plain, bool ann,
				       struct coh_cpu **inl)
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
			if (ann && sim_engine_many_procs(c->e))
				line_prefetch_next(c, l);
			/*
			 * Served by a store or RMW: the line is not Shared
			 * (no load joins), and with no hold rule it is ready
			 * when serve_owned() frees it.
			 */
			ready = serve_owned(c, l, r, now, waiters, NULL, inl);
			if (!l->q_len)
				return;
			if (!ann && sim_engine_many_procs(c->e))
				line_prefetch_next(c, l);
			/*
			 * A transfer takes at least 1 ps on a plain
			 * machine: the line is busy past now. The loop back
			 * from here, never taken, cost a plain line's
			 * service its register shuffles, and (once an
			 * announced line's usual service went to
			 * line_serve_ann_owned()) an announced line's too.
			 */
			SIM__CHECK(ready <= now);
			break;
		}
		if (coh_unlikely(r->served)) {
			/* joined a downgrade already (reads_join()) */
			line_dequeue(l);
			if (!l->q_len)
				return;
			continue;
		}
		if (joined && !read_joins(l))
			break;
		r = line_dequeue(l);
		serve_any(c, l, *r, now, joined, inl);
		if (coh_unlikely(c->read_service != COH_READ_FIFO) &&
		    l->read_batch && r->op == COH_READ)
			reads_join(c, l, now, inl);
		if (!l->q_len)
			return;
		ready = plain ? l->free_at : line_ready_at(c, l);
	}
	/*
	 * Neither caller has the event pending (l->serving), and serving the
	 * queue does not set it (serve() only schedules wake-ups).
	 */
	if (inl) {
		/*
		 * The service event's own (line_serve_event()), whose timer has
		 * run (an idle line's is set for an RMW announced only after
		 * this, coh__ann_arm()): it is not pending, and @ready is
		 * after @now (the loop ends so).
		 */
		line_serve_again_idle(l, ready);
		return;
	}
	line_serve_again(l, ready);
}

/*
 * coh__line_serve() - serve @l's queue at @now: every request the line is free
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
					 sim_time_t now, bool ann,
					 struct coh_cpu **inl)
{
	if (c->plain)
		line_serve_loop(c, l, now, true, ann, inl);
	else
		line_serve_loop(c, l, now, false, ann, inl);
}

void coh__line_serve(struct coh *c, struct coh_line *l, sim_time_t now)
{
	line_serve_inline(c, l, now, false, NULL);
}

/*
 * line_serve_ann_owned() - the service at @now of @l, with RMWs announced,
 * on a plain machine (c->plain), in its usual case: serve_owned() serves
 * the request at the head. line_serve_loop()'s steps then, without three
 * of its tests: its service event was set for when the line is free (no
 * hold rule) and the queue has not been empty since (the event is
 * pending only for a queue, and only the event serves it), so the line
 * is free now with a request at the head; and serve_owned() takes time
 * (1 ps at least), so the line is busy again after it, and its event is
 * set again if anybody is still queued. l->serving stays set meanwhile
 * (nothing here reads it), cleared only when nobody is, and then the
 * first RMW announced arrives by an event of its own (coh__ann_arm()),
 * as line_service() does after line_serve_inline(). False, and nothing
 * done, when the head is not serve_owned()'s (line_serve_inline() then).
 * `make bench-insns INSNS_N=72 INSNS_K=1`: 545.8 -> 527.7 instructions
 * an atomic (256/1 531.6 -> 513.8).
 */
static COH_INLINE bool line_serve_ann_owned(struct coh *c, struct coh_line *l,
					    sim_time_t now,
					    struct coh_cpu **inl)
{
	const struct coh_req *r = line_head(l);
	unsigned int waiters;
	sim_time_t ready;

	SIM__CHECK(!l->serving || !l->q_len || l->free_at > now);
	if (!serve_owned_may(l, r))
		return false;
	/* counted before the request leaves (line_serve_loop()) */
	waiters = l->q_cpus - 1;
	line_dequeue_writer(l, r);
	if (sim_engine_many_procs(c->e))
		line_prefetch_next(c, l);
	ready = serve_owned(c, l, r, now, waiters, NULL, inl);
	/* its own event runs: the timer is not pending (sim_timer_set_idle()) */
	SIM__CHECK(ready <= now || sim_timer_pending(&l->serve_timer));
	if (l->q_len) {
		sim_timer_set_idle(&l->serve_timer, ready);
		return true;
	}
	/* idle: line_service()'s end, as line_serve_loop() leaves it */
	l->serving = false;
	if (l->nr_ann)
		coh__ann_arm(c, l);
	return true;
}

/*
 * line_serve_rest() - line_serve_inline() out of line, for a line without
 * RMWs announced whose service is not line_serve_plain_owned()'s: the CPU
 * it resumes (serve_settle()'s @inl), returned, not written through a
 * pointer, which would keep the caller's in memory.
 */
static struct coh_cpu *__attribute__((noinline))
line_serve_rest(struct coh *c, struct coh_line *l, sim_time_t now)
{
	struct coh_cpu *cc = NULL;

	line_serve_inline(c, l, now, false, &cc);
	return cc;
}

/*
 * line_serve_plain_owned() - the service at @now of @l, without RMWs
 * announced, on a plain machine (c->plain), in its usual case: the line
 * is free and serve_owned() serves the request at the head. What
 * line_serve_loop() does then; its loop for loads and other machines (the
 * served and serve_any() paths) is line_serve_rest()'s, out of line:
 * inlined, the values that live across it cost the plain line's service
 * a shuffle of its registers and a larger frame at every service (`make
 * bench-insns INSNS_N=256 INSNS_K=16`: 521.5 -> 513.0 an atomic). False,
 * and nothing done, otherwise. line_serve_plain() has its steps inline;
 * here for line_serve_plain_any().
 */
static COH_INLINE bool line_serve_plain_owned(struct coh *c, struct coh_line *l,
					      sim_time_t now,
					      struct coh_cpu **inl)
{
	const struct coh_req *r;
	unsigned int waiters;
	sim_time_t ready;

	if (!l->q_len)
		return true;
	r = line_head(l);
	if (l->free_at > now || !serve_owned_may(l, r))
		return false;
	/* counted before the request leaves (line_serve_loop()) */
	waiters = l->q_cpus - 1;
	line_dequeue_writer(l, r);
	ready = serve_owned(c, l, r, now, waiters, NULL, inl);
	if (!l->q_len)
		return true;
	if (sim_engine_many_procs(c->e))
		line_prefetch_next(c, l);
	/* busy past now: line_serve_loop() says why */
	SIM__CHECK(ready <= now);
	line_serve_again_idle(l, ready);
	return true;
}

/*
 * line_resume() - the CPU @cc that a line's service served goes on at once
 * (coh_cpu.resume_inline), its clock at the completion: what its wake-up
 * event at the completion would do, without the event (doc/speed.md: 2.46
 * -> 1.49 events per atomic of the contended counter). SIM: exact but for
 * the order of events due at the same picosecond, as its next event is
 * scheduled from here.
 */
static COH_INLINE void line_resume(struct coh_cpu *cc)
{
	cc->access_done = true;
	sim_proc_resume(cc->proc);
}

/* The service of @l with RMWs announced (line_serve_event_ann()). */
static COH_INLINE void line_service(struct coh *c, struct coh_line *l)
{
	/* the CPU it resumes: serve_settle()'s @inl */
	struct coh_cpu *cc = NULL;
	/* read before the admission's stores, which GCC takes to alias it */
	sim_time_t now = sim_now(c->e);

	/* the RMWs announced to arrive before now join the queue first */
	ann_admit_at(c, l, now, false, true);
	if (!c->plain || !line_serve_ann_owned(c, l, now, &cc)) {
		l->serving = false;
		line_serve_inline(c, l, now, true, &cc);
		/*
		 * Idle now, with RMWs still to arrive: the first one's event.
		 * Before the CPU served goes on, which may look at the clock.
		 */
		if (l->nr_ann && !l->serving)
			coh__ann_arm(c, l);
	}
	if (cc)
		line_resume(cc);
}

/*
 * line_serve_event_ann() - line_serve_event() of a line with RMWs
 * announced: its service, or (the line idle) the first one arriving.
 * Again from here while its timer, set again, is the next event and the
 * only one pending (sim_timer_rerun()): on a contended line nearly every
 * time (72 CPUs on one counter: the announced RMWs are not events), and
 * a step of the run loop fewer an atomic. Once the line has lost its
 * announced RMWs, line_serve_event() serves it as a plain one, which
 * never comes back here (the stack stays bounded where calls in tail
 * position are not jumps: -O0).
 */
static void __attribute__((noinline))
line_serve_event_ann(struct coh *c, struct coh_line *l)
{
	do {
		if (!l->serving)
			coh__ann_arrive(c, l);
		else
			line_service(c, l);
		if (!sim_timer_rerun(&l->serve_timer))
			return;
	} while (l->nr_ann);
	line_serve_event(c, (uintptr_t)l);
}

/*
 * line_serve_plain_any() - the service of @l without RMWs announced, in
 * every case, and the CPU it resumes. Not cold: with the
 * counts logged (struct coh: log_stats, 1024 CPUs on 1024 counters)
 * every service comes here, and finds line_serve_plain_owned() inline;
 * so does every service of the kernel's model, whose CPUs do not resume
 * inline (charge-batch-2022).
 */
static void __attribute__((noinline))
line_serve_plain_any(struct coh *c, struct coh_line *l)
{
	struct coh_cpu *cc = NULL;
	sim_time_t now = sim_now(c->e);

	l->serving = false;
	if (!c->plain || !line_serve_plain_owned(c, l, now, &cc))
		cc = line_serve_rest(c, l, now);
	if (cc)
		line_resume(cc);
}

/*
 * line_serve_plain_next() - the end of line_serve_plain()'s service of @l,
 * free again at @ready: its event set again if anybody is still queued,
 * else the line idle. l->serving, set while the event was pending, is
 * left so in the first case, not cleared and set again (a store a
 * service).
 */
static COH_INLINE void line_serve_plain_next(struct coh *c, struct coh_line *l,
					     sim_time_t ready)
{
	if (!l->q_len) {
		l->serving = false;
		return;
	}
	if (sim_engine_many_procs(c->e))
		line_prefetch_next(c, l);
	sim_timer_set_idle(&l->serve_timer, ready);
}

/*
 * line_serve_plain_wake() - line_serve_plain()'s service past the run's
 * horizon: its CPU @cc, done at @done, is woken by an event (which does
 * not run), before the line's own is set again (for @ready), as
 * serve_settle() and line_serve_plain_owned() would order them.
 */
static void __attribute__((noinline))
line_serve_plain_wake(struct coh *c, struct coh_line *l, struct coh_cpu *cc,
		      sim_time_t done, sim_time_t ready)
{
	cc->access_done = true;
	sim_proc_wake(cc->proc, done);
	line_serve_plain_next(c, l, ready);
}

/*
 * line_serve_plain() - the service of @l without RMWs announced, and the
 * CPU it resumes. Its usual case inline (line_serve_plain_owned()'s with
 * the requester resumed inline); every case that calls out of line
 * (another machine, a CPU that does not resume inline, the counts logged
 * or not allocated yet, a load, a posted request) tested before anything
 * is done and sent to line_serve_plain_any(), and the wake-up past the
 * horizon to line_serve_plain_wake(), each called last. The values that
 * lived across those calls cost the service a larger frame and their
 * shuffles (`make bench-peers-insns`, 256/16: 504.99 -> 502.87 an
 * atomic, with l->serving kept, line_serve_plain_next()). Another
 * machine and the counts logged are tested first, before the service's
 * prologue (GCC shrink-wraps it): 1024 CPUs on 1024 counters log, and
 * their every service goes at once to line_serve_plain_any() (`make
 * bench-scale-sim`, 1024 x 1024: 508.4 -> 501.1 instructions an event,
 * 502.5 before the service went out of line). The CPU's test comes next:
 * the kernel's model fails it at every service, and the tests before it
 * were 3 M instructions of charge-batch-2022's 6.99 G.
 */
static COH_INLINE void line_serve_plain(struct coh *c, struct coh_line *l)
{
	sim_time_t now, ready, done;
	const struct coh_req *r;
	struct coh_cpu *cc;
	unsigned int waiters;

	if (coh_unlikely(!c->plain || c->log_stats))
		goto any;
	/* read before the service's stores, which GCC takes to alias it */
	now = sim_now(c->e);
	if (!l->q_len) {
		l->serving = false;
		return;
	}
	/* requests queue behind the pending event (line_kick()) */
	SIM__CHECK(!l->serving);
	/*
	 * On a plain machine the event was set for when the line is free
	 * (line_serve_again_idle(), rmw_busy()), and nothing else serves
	 * it meanwhile: it is free now.
	 */
	SIM__CHECK(l->free_at > now);
	r = line_head(l);
	cc = &c->cpus[r->cpu];
	if (coh_unlikely(!cc->resume_inline || !l->xfer_to ||
			 !serve_owned_may(l, r) || r->posted))
		goto any;
	/* counted before the request leaves (line_serve_loop()) */
	waiters = l->q_cpus - 1;
	line_dequeue_writer(l, r);
	ready = serve_owned_xfer(c, l, r, now, waiters, false, &done);
	/* serve_settle()'s steps, which its tests above decided */
	serve_wait_count(l, r, now);
	cc->wait_ps += done - cc->wait_start;
	if (coh_unlikely(done > sim_horizon(c->e))) {
		line_serve_plain_wake(c, l, cc, done, ready);
		return;
	}
	serve_resume_inline(l, cc, now, done, false);
	/* busy past now: line_serve_loop() says why */
	SIM__CHECK(ready <= now);
	/*
	 * The queue's ring and the CPUs, which line_prefetch_next() reads,
	 * loaded again, not kept from the tests above across the hand-off,
	 * which spilled three values (`make bench-peers-insns`, 256/16:
	 * 502.87 -> 500.78 an atomic).
	 */
	coh_reload();
	line_serve_plain_next(c, l, ready);
	line_resume(cc);
	return;
any:
	line_serve_plain_any(c, l);
}

/*
 * line_serve_event() - the line is free again: serve its queue, and
 * resume the CPU served (line_resume()). A line with RMWs announced is
 * line_serve_event_ann()'s, called last, before the plain service's
 * prologue (GCC shrink-wraps it: 72 CPUs on one counter, where nearly
 * every event is announced, pays none of it). A plain line's service
 * does not run its timer again from here (sim_timer_rerun()), as the
 * announced one does: the timer set again was never the one event
 * pending after the CPU went on (8/1, 8/16, 72/16, 256/16 of `make
 * bench-peers-insns`), and the test cost 4 instructions a service; the
 * run loop runs it, in the same order, when it is (`make
 * bench-peers-insns`, 256/16: 500.78 -> 497.71 an atomic; 497.20 with
 * the plain service inline here).
 */
static void line_serve_event(void *arg, uint64_t data)
{
	struct coh *c = arg;
	struct coh_line *l = (struct coh_line *)(uintptr_t)data;

	/* an idle line's timer runs only for an RMW announced to it */
	if (coh_unlikely(l->nr_ann))
		line_serve_event_ann(c, l);
	else
		line_serve_plain(c, l);
}
