// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of mm/page_counter.c (Linux v6.0; propagate_protected_usage() also
 * as in v6.1, commit "mm: page_counter: remove unneeded atomic ops for
 * low/min").
 *
 * Theory of operation: page_counter_try_charge() walks from a counter to
 * the root. At every level it adds to usage with one atomic add_return (a
 * locked RMW on usage's line), compares the result with max (a load), and
 * on success propagates the protected usage and raises the watermark; when
 * a level is over its max it takes the pages back from that level, counts
 * the failure in its failcnt, and cancels the levels already charged.
 * page_counter_uncharge() cancels at every level.
 *
 * propagate_protected_usage() keeps min_usage/low_usage (the part of usage
 * that memory.min/memory.low protect) and the parent's children_*_usage
 * sums. v6.0 (`protected_usage_update: always`) exchanges min_usage and
 * low_usage whenever min/low or their usage is set: a locked RMW at every
 * protected level on every charge, even when nothing changes. v6.1
 * (`if_changed`) reads first and exchanges only on a change. Each
 * version's text is modelled as it is, one body after the other.
 *
 * Every member access below is a coherence transaction on the member's
 * line (models/hw/cache.h), in the kernel's order, written with the
 * compat macros (models/kernel/compat/access.h): one kernel statement, one
 * line; the value is taken when the access completes. Loads are posted:
 * they go on in the background and merge per line; the locked RMWs
 * (add_return, xchg) and the return of an exported function wait for
 * them. A `for` loop's `c = c->parent` is a load too, so it closes the
 * loop body; and a dependent one (CO_READ_ONCE_DEP): the next level's
 * accesses need its value as their address, so the CPU waits for it.
 *
 * The layouts of struct page_counter are SIM configuration and live in
 * page_counter_layout.c.
 */
#include "models/kernel/mm/page_counter.h"

#include "models/kernel/compat/access.h"
#include "models/kernel/compat/kernel.h"
#include "models/kernel/sim/insn.h"
#include "models/kernel/sim/kprof.h"

/*
 * propagate_protected_usage() - after @c's usage moved to @usage, bring
 * its protected usage (the part of usage that memory.min and memory.low
 * cover) up to date, and the parent's sums of its children's.
 */
int propagate_protected_usage(struct sim_proc *p, void *frame)
{
	struct propagate_protected_usage_frame *f = frame;
	struct page_counter *c = f->c;

	CO_BEGIN(f);
	ENTER(p, KF_propagate_protected_usage);
	CO_LOAD(f, c, parent);
	if (!c->parent)
		goto out;
	/* SIM: protected_usage_update chooses the version's text */
	if (c->protected_if_changed)
		goto v6_1;

	/* v6.0: exchange whenever min or the protected usage is set */
	CO_READ_ONCE(f, f->min, c, min);
	if (!f->min) /* || atomic_long_read(&c->min_usage) */
		CO_LOAD(f, c, min_usage);
	if (f->min || c->min_usage) {
		f->protected = min(f->usage, f->min);
		CO_ATOMIC_LONG_XCHG(f, f->old_protected, c, min_usage,
				    (long)f->protected);
		c->nr_xchg++; /* SIM: counted for the report */
		f->delta = (long)(f->protected - f->old_protected);
		if (f->delta)
			CO_ATOMIC_LONG_ADD(f, f->delta, c->parent,
					   children_min_usage);
	}

	CO_READ_ONCE(f, f->low, c, low);
	if (!f->low) /* || atomic_long_read(&c->low_usage) */
		CO_LOAD(f, c, low_usage);
	if (f->low || c->low_usage) {
		f->protected = min(f->usage, f->low);
		CO_ATOMIC_LONG_XCHG(f, f->old_protected, c, low_usage,
				    (long)f->protected);
		c->nr_xchg++;
		f->delta = (long)(f->protected - f->old_protected);
		if (f->delta)
			CO_ATOMIC_LONG_ADD(f, f->delta, c->parent,
					   children_low_usage);
	}
	goto out;

v6_1:
	/*
	 * v6.1: the xchg is a locked RMW that takes the line exclusive on
	 * every charge; most charges do not change the protected usage, so
	 * read it first and exchange only when it moves.
	 */
	CO_LOAD(f, c, min); /* protected = min(usage, READ_ONCE(c->min)); */
	f->protected = min(f->usage, c->min);
	CO_ATOMIC_LONG_READ(f, f->old_protected, c, min_usage);
	if (f->protected != f->old_protected) {
		CO_ATOMIC_LONG_XCHG(f, f->old_protected, c, min_usage,
				    (long)f->protected);
		c->nr_xchg++;
		f->delta = (long)(f->protected - f->old_protected);
		if (f->delta)
			CO_ATOMIC_LONG_ADD(f, f->delta, c->parent,
					   children_min_usage);
	}

	CO_LOAD(f, c, low); /* protected = min(usage, READ_ONCE(c->low)); */
	f->protected = min(f->usage, c->low);
	CO_ATOMIC_LONG_READ(f, f->old_protected, c, low_usage);
	if (f->protected != f->old_protected) {
		CO_ATOMIC_LONG_XCHG(f, f->old_protected, c, low_usage,
				    (long)f->protected);
		c->nr_xchg++;
		f->delta = (long)(f->protected - f->old_protected);
		if (f->delta)
			CO_ATOMIC_LONG_ADD(f, f->delta, c->parent,
					   children_low_usage);
	}
out:
	/* SIM: static, inlined into its callers: no fence at its return. */
	EXIT(p);
	CO_END(f, p);
}

/**
 * page_counter_cancel() - take pages out of the local counter
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct page_counter_cancel_frame: @counter, @nr_pages
 *
 * Context: a coroutine on the simulated CPU co_cpu(p) (NULL: no memory costs);
 * waits for the counter's lines, and for every posted access at return.
 */
int page_counter_cancel(struct sim_proc *p, void *frame)
{
	struct page_counter_cancel_frame *f = frame;
	struct page_counter *counter = f->counter;

	CO_BEGIN(f);
	ENTER(p, KF_page_counter_cancel);
	CO_ATOMIC_LONG_SUB_RETURN(f, f->new, f->nr_pages, counter, usage);
	/*
	 * More uncharges than charges? The kernel WARNs once and repairs
	 * the counter; SIM: the run counts the warnings instead.
	 */
	if (f->new < 0) {
		counter->nr_warn++;
		f->new = 0;
		CO_ATOMIC_LONG_SET(f, counter, usage, f->new);
	}
	if (counter->protection_support) /* SIM: see the member */
		CO_CALL(f, p, propagate_protected_usage, .c = counter,
			.usage = (unsigned long)f->new);
	CO_FENCE(f);
	EXIT(p);
	CO_END(f, p);
}

/**
 * page_counter_charge() - hierarchically charge pages
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct page_counter_charge_frame: @counter, @nr_pages
 *
 * This does not consider any configured counter limits.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p) (NULL: no memory costs);
 * waits for the counters' lines, and for every posted access at return.
 */
int page_counter_charge(struct sim_proc *p, void *frame)
{
	struct page_counter_charge_frame *f = frame;

	CO_BEGIN(f);
	ENTER(p, KF_page_counter_charge);
	for (f->c = f->counter; f->c;) {
		insn_charge(co_cpu(p), INSN_page_counter_charge_level, 1);
		CO_ATOMIC_LONG_ADD_RETURN(f, f->new, f->nr_pages, f->c, usage);
		if (f->c->protection_support)
			CO_CALL(f, p, propagate_protected_usage, .c = f->c,
				.usage = (unsigned long)f->new);
		/*
		 * Two CPUs can both read an old watermark and the smaller
		 * new usage can be written last: the watermark may come out
		 * a little low. It is only reported, so the kernel accepts
		 * that rather than pay for an atomic here.
		 */
		CO_LOAD(f, f->c, watermark);
		if ((unsigned long)f->new > f->c->watermark)
			CO_WRITE_ONCE(f, f->c, watermark,
				      (unsigned long)f->new);
		CO_READ_ONCE_DEP(f, f->c, f->c, parent); /* c = c->parent */
	}
	CO_FENCE(f);
	EXIT(p);
	CO_END(f, p);
}

/**
 * page_counter_try_charge() - try to hierarchically charge pages
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct page_counter_try_charge_frame: @counter, @nr_pages, and
 *	@fail, set to the first counter to hit its limit, if any
 *
 * Context: a coroutine on the simulated CPU co_cpu(p) (NULL: no memory costs);
 * waits for the counters' lines, and for every posted access at return.
 * Return: in p->ret, true on success, or false with *@fail set when the
 * counter or one of its ancestors is at its limit.
 */
int page_counter_try_charge(struct sim_proc *p, void *frame)
{
	struct page_counter_try_charge_frame *f = frame;

	CO_BEGIN(f);
	ENTER(p, KF_page_counter_try_charge);
	for (f->c = f->counter; f->c;) {
		insn_charge(co_cpu(p), INSN_page_counter_try_charge_level, 1);
		/*
		 * Charge first and check the limit after, instead of a
		 * compare-and-swap loop. The price: a large charge that
		 * fails can, for the moment it is counted, push a small
		 * racing charge over the limit and into reclaim early, but
		 * never by more than the large charge's size.
		 *
		 * The add_return is a full barrier between the increment
		 * and the read of max, so a racing page_counter_set_max()
		 * either sees our usage and retries, or we see its limit.
		 */
		CO_ATOMIC_LONG_ADD_RETURN(f, f->new, f->nr_pages, f->c, usage);
		CO_LOAD(f, f->c, max);
		if ((unsigned long)f->new > f->c->max) {
			CO_ATOMIC_LONG_SUB(f, f->nr_pages, f->c, usage);
			/*
			 * failcnt++ is not atomic, so racing failures can
			 * lose a count; it only feeds statistics, and the
			 * kernel marks the race as intended (data_race()).
			 */
			CO_STORE(f, f->c, failcnt, f->c->failcnt + 1);
			*f->fail = f->c;
			goto failed;
		}
		if (f->c->protection_support)
			CO_CALL(f, p, propagate_protected_usage, .c = f->c,
				.usage = (unsigned long)f->new);
		/* The same lost-update race as failcnt's, and as harmless. */
		CO_LOAD(f, f->c, watermark);
		if ((unsigned long)f->new > f->c->watermark)
			CO_WRITE_ONCE(f, f->c, watermark,
				      (unsigned long)f->new);
		CO_READ_ONCE_DEP(f, f->c, f->c, parent); /* c = c->parent */
	}
	CO_FENCE(f);
	EXIT(p);
	CO_RETURN(f, p, true);

failed:
	for (f->c = f->counter; f->c != *f->fail;) {
		CO_CALL(f, p, page_counter_cancel, .counter = f->c,
			.nr_pages = f->nr_pages);
		CO_READ_ONCE_DEP(f, f->c, f->c, parent); /* c = c->parent */
	}
	CO_FENCE(f);
	EXIT(p);
	CO_RETURN(f, p, false);
	CO_END(f, p);
}

/**
 * page_counter_uncharge() - hierarchically uncharge pages
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct page_counter_uncharge_frame: @counter, @nr_pages
 *
 * Context: a coroutine on the simulated CPU co_cpu(p) (NULL: no memory costs);
 * waits for the counters' lines, and for every posted access at return.
 */
int page_counter_uncharge(struct sim_proc *p, void *frame)
{
	struct page_counter_uncharge_frame *f = frame;

	CO_BEGIN(f);
	ENTER(p, KF_page_counter_uncharge);
	for (f->c = f->counter; f->c;) {
		CO_CALL(f, p, page_counter_cancel, .counter = f->c,
			.nr_pages = f->nr_pages);
		CO_READ_ONCE_DEP(f, f->c, f->c, parent); /* c = c->parent */
	}
	CO_FENCE(f);
	EXIT(p);
	CO_END(f, p);
}
