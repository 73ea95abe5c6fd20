// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/hw/cache.c - the access path of the coherence model: a CPU's
 * load, store or RMW of a line, from its issue to its wait.
 *
 * See models/hw/cache.h for the rules. Here: line_is_hit() decides whether
 * an access needs the line at all; a miss joins the line's queue (or is
 * served at once on an idle line) and the line's service serves it
 * (coh_serve.c, the hand-off priced by coh_serve.h's serve()); the
 * pending[] array of struct coh_cpu holds a CPU's posted misses until a
 * fence waits for them (fence_wait(), coh_fence()). The other concepts
 * have files of their own: the queue and the hand-off (coh_serve.h,
 * coh_serve.c), announced RMWs (coh_announce.c), the Shared state
 * (coh_share.c), creating the model (coh_create.c), placing lines and
 * objects (coh_place.c), the statistics (coh_stats.c) and the trace
 * (coh_trace.c).
 *
 * Speed: an access and its hand-off are the simulator's inner loop. Each
 * shortcut is exact (the same hand-offs at the same times, in the same
 * order): the hot path's helpers are inlined (COH_INLINE, coh_serve.h),
 * what no shipped run executes is out of line (COH_COLD), an idle line
 * serves a request without the queue, the usual hand-off has a straight
 * line (serve_owned()), and an RMW after a think may be announced to a
 * busy line instead of arriving in an event of its own (coh_rmw_ahead(),
 * coh_announce.c).
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

static COH_INLINE bool line_is_hit(const struct coh *c,
				   const struct coh_line *l, unsigned int cpu,
				   enum coh_op op, sim_time_t now)
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

/*
 * chase_settle() - the CPU's next access (or fence) after a dependent load
 * it went on past (cc->chase_line, coh.rob_ps): that load's value is
 * needed now. The CPU ran the work since it issued the load, @now -
 * cc->chase_issue; what of that exceeded the reorder buffer's window
 * could not start before the load completed, and runs after it. So the
 * CPU goes on at the later of @now and the completion plus that excess:
 * at once when the completion is known, else it blocks until the line
 * serves the load (coh__pending_served() wakes it). Returns true when
 * the process must wait. Before pending_prune(), which would drop the
 * load's entry once complete.
 */
static bool chase_settle(struct coh_cpu *cc, sim_time_t now)
{
	sim_time_t work = now - cc->chase_issue, rob = cc->coh->rob_ps;
	sim_time_t extra = work > rob ? work - rob : 0, done, at;
	unsigned int i;

	for (i = 0; i < cc->nr_pending; i++)
		if (cc->pending[i].line == cc->chase_line &&
		    cc->pending[i].op == COH_READ)
			break;
	SIM_BUG_ON(i == cc->nr_pending);
	done = cc->pending[i].done;
	/* NO_DONE only on a line: a cold read's completion is known */
	if (done == NO_DONE) {
		cc->chase_waiting = true;
		cc->chase_extra = extra;
		cc->wait_start = now;
		return true;
	}
	cc->chasing = false;
	cc->chase_line = NULL;
	at = done + extra;
	if (at > now) {
		cc->wait_ps += at - now;
		cc->proc->now = at;
	}
	return false;
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
 * queued on their lines) block the CPU until coh__pending_served() wakes it.
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
	if (coh_unlikely(cc->chasing)) {
		if (chase_settle(cc, cc->proc->now) || sim_proc_sync(cc->proc))
			return true;
	}
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

/*
 * spatial_prefetch() - the L2 spatial prefetcher ("adjacent cache line
 * prefetch"): a demand miss of @cpu on @l that goes past its L2 (a load,
 * or an RFO: @op a store or RMW) requests the other line of the 128-byte
 * aligned pair, a read after a load, an RFO prefetch after a store or
 * RMW. A prefetch is low priority and may be dropped: it is dropped when
 * that line is queued on, has a service event or RMWs announced, or is
 * still busy with a hand-off, so it never goes ahead of a demand request
 * nor waits for one; and when @cpu holds the line as the request would.
 * Otherwise the line is handed to @cpu at once, as a request nobody
 * waits for: the hand-off occupies the line and moves it away from its
 * holder as a demand one does, which is how two lines of one pair
 * interfere. SIM: the prefetcher's other triggers (L2 hits, its
 * throttling under L2 pressure) are not modelled; the drop rule is its
 * only throttle. Any two lines of a pair couple, of one object or of two:
 * the allocators' placement (coh_object_place()) puts the objects where
 * the kernel does, so a pair of two objects is a real one (one CPU's
 * per-CPU copies side by side in its unit).
 */
static COH_COLD void spatial_prefetch(struct coh *c, const struct coh_line *l,
				      unsigned int cpu, enum coh_op op,
				      sim_time_t now)
{
	struct coh_line *buddy = coh_line_find(c, l->addr ^ COH_LINE_SIZE);
	bool rfo = op != COH_READ;

	if (!buddy || buddy->owner == (int)cpu ||
	    (!rfo && sharer_test(buddy, cpu)))
		return;
	if (buddy->q_len || buddy->serving || buddy->nr_ann ||
	    line_ready_for(c, buddy, cpu) > now) {
		buddy->prefetch_dropped++;
		return;
	}
	if (buddy->home < 0)
		buddy->home = (int)c->m->cpus[cpu].socket;
	buddy->prefetches++;
	serve(c, buddy,
	      &(struct coh_req){ .cpu = (uint16_t)cpu,
				 .op = (uint8_t)(rfo ? COH_WRITE : COH_READ),
				 .prefetch = 1,
				 .last = 1, /* nothing queued */
				 .enq = now },
	      now, false);
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
	bool free, idle, joins, posted, chase;
	int i;

	/* synced (coh_access()): the engine's clock is p->now */
	now = p->now;
	/* the value of the dependent load before is needed now */
	if (coh_unlikely(cc->chasing)) {
		if (chase_settle(cc, now) || sim_proc_sync(p))
			return true;
		now = p->now;
	}
	/* a dependent load that misses, under the reorder buffer's window */
	chase = dep && op == COH_READ && c->rob_ps;
	/*
	 * A locked RMW waits for all posted accesses; so does a full buffer.
	 * With nothing pending (nr_posted is then 0 too) pruning and the
	 * fence are no-ops: an RMW that follows an RMW, the contended
	 * counter's case, skips both.
	 */
	if (cc->nr_pending) {
		pending_prune(cc, now);
		if (op == COH_RMW ||
		    ((!dep || chase) && cc->nr_posted >= COH_MAX_PENDING)) {
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
	field_cpu_count(c, l, field->slot, cc->cpu, false);
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
	posted = op != COH_RMW && (!dep || chase);
	/*
	 * Nobody queued, no service event, the line free now: line_kick()
	 * would serve this request at once, taking it back off the ring it
	 * was just put on. serve() it without the ring: its queue counts
	 * (q_cpus, q_writers, the line's q_last[]) would go up and back down
	 * before anything read them. First touch still sets the home. Not
	 * with a trace, whose counters line_enqueue() writes (c->shortcuts).
	 */
	free = !l->q_len && !l->serving && line_ready_for(c, l, cc->cpu) <= now;
	idle = free && c->shortcuts;
	/*
	 * shared_first (c->read_service): a load that finds the line Shared
	 * after a load (l->read_batch) joins the sharers at once, ahead of
	 * the requests queued on it, as the home serves a read of a Shared
	 * line from the LLC without waiting for the RFOs behind.
	 */
	joins = !free && op == COH_READ &&
		coh_unlikely(c->read_service == COH_READ_SHARED_FIRST) &&
		l->read_batch;
	if (!idle && !joins) {
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
		if (chase) {
			cc->chasing = true;
			cc->chase_line = l;
			cc->chase_issue = now;
		}
	} else {
		cc->wait_start = now;
	}
	/*
	 * Queued behind a service event (a contended line's case): that
	 * event serves it, and line_kick() would return at once. Otherwise
	 * serve it now or kick the line, after the pending[] entry or
	 * wait_start that serve() settles.
	 */
	if (idle || joins || !l->serving) {
		c->inline_cpu = (int)cc->cpu;
		if (idle || joins)
			serve(c, l,
			      &(struct coh_req){ .cpu = (uint16_t)cc->cpu,
						 .op = (uint8_t)op,
						 .slot = field->slot,
						 .posted = posted,
						 .last = 1, /* nothing queued */
						 .enq = now },
			      now, joins);
		else
			line_kick(c, l, now);
		c->inline_cpu = INLINE_NONE;
	}
	if (coh_unlikely(l->pair_prefetch))
		spatial_prefetch(c, l, cc->cpu, op, now);
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
bool __attribute__((noinline))
coh__access_issue_any(struct coh_cpu *cc, struct coh_field *field,
		      enum coh_op op, bool dep)
{
	/* RMWs announced to arrive before this access join the queue first */
	if (coh_unlikely(field->line->nr_ann))
		coh__ann_admit_now(cc->coh, field->line);
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
 * count, no spatial prefetch; the ring has room and there is no trace).
 * The same steps, in a function of its own that calls nothing and so
 * saves few registers (doc/speed.md: at N=256 K=1, 111 instructions per
 * atomic in coh_access_issue() -> 92 with this test). The statistics'
 * log (struct coh: log_stats), whose flush is a call, in one of its own
 * too: without it this one saves none (`make bench-insns INSNS_N=256
 * INSNS_K=16`: 624 -> 621 an atomic).
 */
static bool __attribute__((noinline))
rmw_queued_log(struct coh_cpu *cc, struct coh_field *field, struct coh_line *l)
{
	/*
	 * synced: the engine's clock is cc->proc->now. Its ring's room
	 * tested again (rmw_queued()'s caller did): else the compiler
	 * finds it the same as rmw_queued()'s tail and makes it that.
	 */
	rmw_enqueue(cc->coh, l, cc, field->slot, cc->proc->now, false);
	return true;
}

static bool __attribute__((noinline))
rmw_queued(struct coh_cpu *cc, struct coh_field *field, struct coh_line *l,
	   struct coh *c, sim_time_t now)
{
	if (coh_unlikely(c->log_stats))
		return rmw_queued_log(cc, field, l);
	/* synced: the engine's clock is @now, cc->proc->now */
	rmw_enqueue(c, l, cc, field->slot, now, true);
	return true;
}

/* rmw_idle()'s steps, whichever case (rmw_idle_any()'s or not) */
static COH_INLINE bool rmw_idle_serve(struct coh *c, struct coh_cpu *cc,
				      struct coh_field *field,
				      struct coh_line *l, sim_time_t now)
{
	/* the CPU if it goes on (serve_settle()) */
	struct coh_cpu *inl = NULL;

	/* nobody queued: no waiter, and the last holder is not */
	SIM__CHECK(l->q_cpus || l->last_to_queued || l->home < 0);
	rmw_count_miss(c, l, cc, field->slot);
	cc->wait_start = now;
	serve_owned(c, l,
		    &(struct coh_req){ .cpu = (uint16_t)cc->cpu,
				       .op = COH_RMW,
				       .slot = field->slot,
				       .last = 1, /* nothing queued */
				       .enq = now },
		    now, 0, cc, &inl);
	/* served at once, and it may go on: serve() set its clock */
	return !inl;
}

/*
 * rmw_idle_any() - rmw_idle() in every case: the line without its
 * transfer counts yet, the counts logged (struct coh: log_stats), the CPU
 * not resumed by its caller (coh_cpu.resume_inline). Not cold: with the
 * counts logged (1024 CPUs on 1024 counters) every idle RMW comes here.
 */
static bool __attribute__((noinline))
rmw_idle_any(struct coh_cpu *cc, struct coh_field *field, struct coh_line *l)
{
	/* synced: the engine's clock is the CPU's */
	return rmw_idle_serve(cc->coh, cc, field, l, cc->proc->now);
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
 * rmw_busy(), 150 instructions each through coh__access_issue_any(); here
 * about 100, mostly serve_owned()'s). The CPU served is the caller's own
 * and nobody is queued: serve_owned() with @own folds away the conflict
 * and legacy terms, the CPU's lookup and c->inline_cpu (`make bench-insns
 * INSNS_N=256 INSNS_K=16`: 673 -> 654 an atomic). Returns whether the CPU
 * waits.
 *
 * Its usual case, in which it calls nothing out of line but the CPU's
 * wake-up past the run's horizon, after which nothing is live: the calls
 * of rmw_idle_any()'s cases, which its values lived across, cost it six
 * registers saved and a stack adjustment at its entry, now five after
 * its first tests; and the CPU that goes on is returned by serve_owned()
 * in a local, not in c->inline_cc (`make bench-insns INSNS_N=256
 * INSNS_K=16`: 508.6 -> 502.1 an atomic).
 */
static bool __attribute__((noinline))
rmw_idle(struct coh_cpu *cc, struct coh_field *field, struct coh_line *l,
	 struct coh *c, sim_time_t now)
{
	if (coh_unlikely(c->log_stats || !l->xfer_to || !cc->resume_inline))
		return rmw_idle_any(cc, field, l);
	/* synced: the engine's clock is @now, the CPU's */
	return rmw_idle_serve(c, cc, field, l, now);
}

/*
 * rmw_busy_any() - rmw_busy() in every case: the line's ring may be full,
 * its service event not yet set up, its counts logged (struct coh:
 * log_stats). Not cold: with the counts logged (1024 CPUs on 1024
 * counters) every busy RMW comes here.
 */
static bool __attribute__((noinline))
rmw_busy_any(struct coh_cpu *cc, struct coh_field *field, struct coh_line *l)
{
	/* synced: the engine's clock is the CPU's */
	rmw_enqueue(cc->coh, l, cc, field->slot, cc->proc->now, false);
	if (!l->serve_timer.engine)
		coh__line_timer_init(cc->coh, l);
	line_serve_again_idle(l, l->free_at);
	return true;
}

/*
 * rmw_busy() - access_issue() of a locked RMW in the third usual case of
 * a contended line: as rmw_idle(), but the line is still busy with the
 * hand-off it served last, nobody queued behind it, so no service event
 * is pending: the RMW is counted, queued, and the line's service event set
 * for when it is free: line_kick()'s, whose tests the caller's decide
 * (no event pending, no hold rule, the line busy past now, a head that is
 * no load to join; `make bench-insns INSNS_N=256 INSNS_K=16`: 654 -> 651
 * an atomic). Returns true: the CPU waits.
 *
 * Its usual case, in which it calls nothing out of line but the
 * calendar's push: the ring's growth, the service event's set-up and the
 * log's flush, calls that its arguments lived across, cost it four
 * registers saved and a stack adjustment at its entry, now three after
 * its tests (`make bench-insns INSNS_N=256 INSNS_K=16`: 509.9 -> 508.6
 * an atomic); rmw_busy_any() does those cases.
 */
static bool __attribute__((noinline))
rmw_busy(struct coh_cpu *cc, struct coh_field *field, struct coh_line *l,
	 struct coh *c, sim_time_t now)
{
	/* nobody queued (the caller's test): the ring is full if it is none */
	SIM__CHECK(l->q_len);
	if (coh_unlikely(c->log_stats || !l->q_cap || !l->serve_timer.engine))
		return rmw_busy_any(cc, field, l);
	/* synced: the engine's clock is @now, the CPU's */
	rmw_enqueue(c, l, cc, field->slot, now, true);
	/* no RMW announced (the caller's test): no timer pending */
	line_serve_again_idle(l, l->free_at);
	return true;
}

/*
 * access_hit() - access_issue() of an access that hits, in the case of
 * most (charge-batch-2022: 80% of its accesses, mostly the socket-pressure
 * walk's loads): nothing posted (no prune, fence or merge), no dependent
 * load to settle, no RMWs announced to the line, no caller to count, no
 * log of the CPUs that touch a field (a leaf: nothing to call). The
 * counts access_issue() makes and the hit's latency, without its call and
 * its register saves (doc/speed.md). An exact shortcut: not with them off.
 */
static COH_INLINE bool access_hit(const struct coh *c, struct coh_cpu *cc,
				  struct coh_field *field, enum coh_op op)
{
	struct coh_line *l = field->line;
	struct coh_field_stat *fs;

	if (cc->nr_pending || cc->chasing || l->nr_ann || cc->caller ||
	    !c->shortcuts || c->log_stats ||
	    !line_is_hit(c, l, cc->cpu, op, cc->proc->now))
		return false;
	fs = &l->fields[field->slot];
	l->ops[op]++;
	fs->ops[op]++;
	fs->cpus[cc->cpu / 64] |= 1ull << cc->cpu % 64; /* field_cpu_count() */
	l->hits++;
	cc->proc->now += op == COH_RMW ? c->m->rmw_local_ps : c->m->l1_hit_ps;
	return true;
}

/*
 * coh__access_rmw() - coh_access_issue() of a locked RMW: the usual cases
 * of a contended line first, then a hit, then the rest. Out of line, so
 * that a load's or store's hit saves no registers (a tail call).
 */
bool __attribute__((noinline))
coh__access_rmw(struct coh_cpu *cc, struct coh_field *field)
{
	struct coh_line *l = field->line;
	struct coh *c = cc->coh;

	if (!l->nr_ann && !cc->nr_pending && !cc->caller && !l->pair_prefetch) {
		bool owner = l->owner == (int)cc->cpu;
		/* synced: the engine's clock */
		sim_time_t now = cc->proc->now;

		if (l->serving) {
			/*
			 * The owner's RMW with others queued is no hit
			 * without a hold rule: strict hand-off serves them
			 * first (line_is_hit()), so it queues behind them as
			 * anybody's does (make bench's CPUs, which RMW again
			 * as soon as they have the line).
			 */
			if (l->q_len != l->q_cap && c->shortcuts &&
			    (!owner || (l->q_cpus && !c->hold)))
				return rmw_queued(cc, field, l, c, now);
		} else if (!owner && c->plain && !l->q_len) {
			if (l->free_at > now)
				return rmw_busy(cc, field, l, c, now);
			/* an owner has a home: the line was touched */
			if (l->owner >= 0)
				return rmw_idle(cc, field, l, c, now);
		}
	}
	if (access_hit(c, cc, field, COH_RMW))
		return false;
	return coh__access_issue_any(cc, field, COH_RMW, false);
}

bool coh_access_issue(struct coh_cpu *cc, struct coh_field *field,
		      enum coh_op op, bool dep)
{
	if (op == COH_RMW)
		return coh__access_rmw(cc, field);
	if (access_hit(cc->coh, cc, field, op))
		return false;
	return coh__access_issue_any(cc, field, op, dep);
}

/*
 * cold_slot() - the earliest free of @n resources whose next-free times
 * are @slot[0..n): the request needing one at @at starts at the later of
 * @at and that time, holds it for @hold, and the start is returned. With
 * @n 0 there is no bound: it starts at @at. Ties go to the lowest index.
 */
static sim_time_t cold_slot(sim_time_t *slot, unsigned int n, sim_time_t at,
			    sim_time_t hold)
{
	unsigned int i, best = 0;

	if (!n)
		return at;
	for (i = 1; i < n; i++)
		if (slot[i] < slot[best])
			best = i;
	if (slot[best] > at)
		at = slot[best];
	slot[best] = at + hold;
	return at;
}

/*
 * cold_done() - when a cold read by @cc issued at @now completes: after a
 * translation miss if @walk (page_walk, on one of the core's page walkers
 * once one is free), then the line from the memory of socket @home (-1:
 * the reader's) on one of its fill buffers once one is free. SIM: the
 * fill buffers and walkers count the cold reads only; misses of the
 * modelled lines stay bounded by COH_MAX_PENDING alone.
 */
static sim_time_t cold_done(struct coh_cpu *cc, int home, bool walk,
			    sim_time_t now)
{
	struct coh *c = cc->coh;
	const struct machine *m = c->m;
	sim_time_t lat = memory_from(c, home, cc->cpu), t = now, *slot;

	if (!m->fill_buffers && !m->page_walkers)
		return now + (walk ? m->page_walk_ps : 0) + lat;
	if (!c->cold_free) {
		c->cold_free = calloc((size_t)c->nr_cpus * COH_COLD_SLOTS,
				      sizeof(*c->cold_free));
		SIM_OOM_ON(!c->cold_free);
	}
	slot = &c->cold_free[(size_t)cc->cpu * COH_COLD_SLOTS];
	if (walk && m->page_walk_ps)
		t = cold_slot(slot + MACHINE_MAX_FILL_BUFFERS, m->page_walkers,
			      t, m->page_walk_ps) +
		    m->page_walk_ps;
	return cold_slot(slot, m->fill_buffers, t, lat) + lat;
}

/*
 * read_cold() - coh_read_cold_of(), and with @dep coh_read_cold_dep():
 * under the reorder buffer's window (coh.rob_ps) the CPU goes on and its
 * next access waits for the value (chase_settle()); without it, it waits
 * now. @home, @walk: as cold_done().
 */
static bool read_cold(struct coh_cpu *cc, int home, bool walk, bool dep)
{
	struct coh *c = cc->coh;
	struct sim_proc *p = cc->proc;
	sim_time_t now;

	if (sim_proc_sync(p))
		return true;
	now = p->now; /* synced: the engine's clock */
	if (coh_unlikely(cc->chasing)) {
		if (chase_settle(cc, now) || sim_proc_sync(p))
			return true;
		now = p->now;
	}
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
	cc->pending[cc->nr_pending].done = cold_done(cc, home, walk, now);
	cc->nr_pending++;
	cc->nr_posted++;
	p->now += c->m->l1_hit_ps; /* the issue slot */
	if (dep) {
		cc->chasing = true;
		cc->chase_line = NULL;
		cc->chase_issue = now;
		if (!c->rob_ps)
			return chase_settle(cc, p->now);
	}
	return false;
}

bool coh_read_cold(struct coh_cpu *cc)
{
	return read_cold(cc, -1, false, false);
}

bool coh_read_cold_of(struct coh_cpu *cc, unsigned int owner, bool walk)
{
	const struct machine *m = cc->coh->m;

	SIM_BUG_ON(owner >= cc->coh->nr_cpus);
	return read_cold(cc, (int)m->cpus[owner].socket,
			 walk && owner != cc->cpu, false);
}

bool coh_read_cold_dep(struct coh_cpu *cc)
{
	return read_cold(cc, -1, false, true);
}
