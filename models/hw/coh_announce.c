// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/hw/coh_announce.c - announced RMWs: an RMW after a think
 * announced to a busy line (coh_rmw_announce()) instead of arriving in a
 * wake-up event of its own, admitted to the line's queue when the run
 * reaches it (ann_admit()), or arriving at the line once it is idle
 * (coh__ann_arm(), coh__ann_arrive()). A simulator's shortcut, exact:
 * the comment below says why.
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
 * (coh__ann_arm()), and that event makes the access the wake-up would have
 * made (coh__ann_arrive()). So every access happens at the same time, in the
 * same order, with the same line state as before: only the events that
 * did nothing but queue are gone. SIM: a simulator's shortcut, exact.
 */
#define COH_MAX_ANN 8 /* per line; past it, the CPU's own event */

struct coh_cpu coh__ann_end = { .ann_at = SIM_TIME_MAX };

/* ---- announced RMWs: announcing, arriving at an idle line ---- */

/*
 * coh_rmw_announce_co() - announce the RMW of @field that @cc makes at its
 * clock (ahead of the engine's) instead of yielding until then. Only when
 * the line's service event is pending, so that the arrival is mostly
 * queued at the next look (ann_enqueue()), and only with nothing in the
 * way of that: nothing posted (an RMW fences), no caller counted, no
 * trace (it records the queue as it grows), no hold rule (whose window
 * would make the owner's RMW a hit), no spatial prefetch (queues
 * nobody waits for). Only after coh_rmw_worth_announcing(), which found
 * the line to be cc->ann_line. Returns CO_WAIT when announced (the CPU
 * waits), else CO_CALL: a coroutine step's result, so that a step that
 * ends in the announcement (counter_next()) jumps here instead of calling
 * and converting a bool (490.66 -> 486.70 instructions an atomic, `make
 * bench-insns INSNS_N=72 INSNS_K=1`, two decimals).
 */
static int rmw_announce_cold(struct coh_cpu *cc, struct coh_field *field);

static COH_INLINE int rmw_announce(struct coh_cpu *cc, struct coh_field *field)
{
	struct coh *c = cc->coh;
	struct coh_line *l = field->line;
	sim_time_t at;
	struct coh_ann *a;
	struct coh_cpu **pp;
	uint64_t seq;

	/*
	 * Its line already (coh_rmw_worth_announcing() asked), so it resumes
	 * inline (coh_cpu.ann_line says why); the trace, the hold rule and
	 * the shortcuts off are in c->ann_room, 0 then (rmw_announce_cold()
	 * says no). Two tests fewer: 651 -> 645 instructions an atomic, `make
	 * bench-insns INSNS_N=72 INSNS_K=1` (256/1: 633 -> 629). Callers
	 * counted are in it too (coh_cpu_count_callers()): 486.70 -> 484.45.
	 */
	SIM__CHECK(cc->ann_line != l || !cc->resume_inline);
	SIM__CHECK(cc->caller && l->index < c->ann_room);
	if (!l->serving || l->nr_ann >= COH_MAX_ANN || cc->nr_pending ||
	    l->pair_prefetch)
		return CO_CALL;
	if (coh_unlikely(l->index >= c->ann_room))
		return rmw_announce_cold(cc, field);
	/*
	 * The line's list and ann_slot before the seq is drawn, the clock
	 * read after, and ann_at stored apart from ann_seq: what is live at
	 * sim_seq_reserve() then fits in the registers a function may use
	 * without saving them (none saved, where it saved two), and GCC
	 * does not pair the two stores through an SSE register (4
	 * instructions for 2). ann_slot means nothing until the RMW is
	 * announced.
	 */
	a = &c->ann[l->index];
	cc->ann_slot = field->slot;
	if (!sim_seq_reserve(c->e, &seq))
		return CO_CALL;
	at = cc->proc->now;
	cc->ann_seq = seq;
	/*
	 * In run order: after the last without a walk when it is due by then
	 * (4 instructions an atomic of 72 CPUs on one counter); else where a
	 * walk from the first finds its place, before the last (73% of them
	 * at 72 CPUs on one counter: exponential thinks). @seq is the newest
	 * drawn, later than every seq announced (renumbering aside, which
	 * sim_seq_reserve() keeps away from them), so a tie of times goes
	 * after, and the walk compares the times alone (4 instructions a
	 * step, where sim_key_before() took 10). Both: 645 -> 636
	 * instructions an atomic, `make bench-insns INSNS_N=72 INSNS_K=1`.
	 */
	if (!l->nr_ann || at >= a->last->ann_at) {
		pp = l->nr_ann ? &a->last->ann_next : &a->first;
		a->last = cc;
	} else {
		for (pp = &a->first; (*pp)->ann_at <= at; pp = &(*pp)->ann_next)
			SIM__CHECK((*pp)->ann_seq >= seq);
	}
	cc->ann_at = at;
	cc->ann_next = *pp;
	*pp = cc;
	l->nr_ann++;
	return CO_WAIT;
}

int coh_rmw_announce_co(struct coh_cpu *cc, struct coh_field *field)
{
	return rmw_announce(cc, field);
}

/* coh_rmw_announce_co() as a bool, true when announced (coh_rmw_ahead()) */
bool coh_rmw_announce(struct coh_cpu *cc, struct coh_field *field)
{
	return rmw_announce(cc, field) == CO_WAIT;
}

/*
 * rmw_announce_cold() - coh_rmw_announce_co() of a line past c->ann_room:
 * none with c->no_ann, else c->ann[] grown first. Its own function, called
 * last, so that coh_rmw_announce_co() calls nothing else and keeps what it
 * needs in the registers a call may clobber: no register saved or
 * restored (12 instructions an announced RMW, nearly every atomic of 72
 * CPUs on one counter).
 */
static COH_COLD int rmw_announce_cold(struct coh_cpu *cc,
				      struct coh_field *field)
{
	if (cc->coh->no_ann)
		return CO_CALL;
	coh__ann_grow(cc->coh, field->line->index);
	return coh_rmw_announce_co(cc, field);
}

/*
 * coh__ann_arm() - @l is idle (no service event pending) with RMWs announced:
 * its timer runs when the first arrives, where that CPU's wake-up would
 * have run (its reserved seq).
 */
void coh__ann_arm(struct coh *c, struct coh_line *l)
{
	const struct coh_cpu *first = c->ann[l->index].first;

	SIM_BUG_ON(l->serving);
	sim_timer_set_key(&l->serve_timer, first->ann_at, first->ann_seq);
}

/*
 * coh__ann_arrive() - the timer coh__ann_arm() set: the first RMW announced to @l
 * arrives at the idle line. The CPU makes the access its wake-up would
 * have made (its clock is now), and goes on at once if it was a hit or
 * was served at once (resumed inline, its clock at the completion).
 */
void coh__ann_arrive(struct coh *c, struct coh_line *l)
{
	struct coh_cpu *cc = ann_pop(&c->ann[l->index], l);
	struct coh_field field = { .line = l, .slot = cc->ann_slot };
	bool wait;

	SIM_BUG_ON(cc->ann_at != sim_now(c->e) ||
		   cc->ann_seq != sim_event_seq(c->e) ||
		   cc->proc->now != cc->ann_at);
	wait = coh__access_issue_any(cc, &field, COH_RMW, false);
	/* before the CPU goes on, which may look at the clock */
	if (l->nr_ann && !l->serving)
		coh__ann_arm(c, l);
	if (wait)
		return;
	cc->access_done = true;
	sim_proc_resume(cc->proc);
}

/* ann_admit() before an access: out of line, as it is rare there. */
COH_COLD void coh__ann_admit_now(struct coh *c, struct coh_line *l)
{
	ann_admit(c, l, false, false);
}

void coh_settle(struct coh *c)
{
	unsigned int i;

	/* an idle line's next arrival is later: its event would have run */
	for (i = 0; c->ann && i < c->nr_lines; i++)
		if (c->lines[i]->nr_ann)
			ann_admit(c, c->lines[i], true, false);
	coh_stats_flush(c);
}

/* c->ann[] to hold line @index (coh_rmw_announce()). */
void coh__ann_grow(struct coh *c, unsigned int index)
{
	unsigned int cap = c->cap_lines > index ? c->cap_lines : index + 1;
	struct coh_ann *a = realloc(c->ann, cap * sizeof(*a));
	unsigned int i;

	SIM_OOM_ON(!a);
	for (i = c->cap_ann; i < cap; i++)
		a[i] = (struct coh_ann){ .first = &coh__ann_end,
					 .last = &coh__ann_end };
	c->ann = a;
	c->cap_ann = cap;
	ann_room_update(c);
}
