// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of the charge paths of mm/memcontrol.c: Linux v6.0 (try_charge_memcg,
 * consume_stock, refill_stock, drain_stock, mem_cgroup_charge_skmem,
 * charge_memcg, uncharge_batch, the obj_cgroup stock) and v4.8
 * (memcg_kmem_charge_memcg/memcg_kmem_uncharge for kmem pages on v1).
 * On cgroup v1 with swap accounting (do_memsw_account()) every charge of
 * memory is also one of memsw, tried first, and every uncharge of memory is
 * followed by one of memsw, as in v6.0 and v4.8.
 *
 * The functions are in the kernel file's order: the per-CPU stock, the
 * charge, kmem pages, the obj_cgroup stock, folios; socket memory is in
 * memcontrol_sock.c, the statistics in memcontrol_stats.c, the SIM setup
 * in memcg_sim.c.
 * Theory of operation: see memcontrol.h. Each kernel access is one line
 * (models/kernel/compat/access.h); each function has its own frame,
 * struct <function>_frame, whose members are the kernel's parameters and
 * locals.
 */
#include <stdio.h>
#include <stdlib.h>

#include "models/kernel/compat/access.h"
#include "models/kernel/compat/kernel.h"
#include "models/kernel/mm/memcontrol_internal.h"
#include "sim/error.h"

/* ---- the per-CPU stock ---- */

/* SIM: the slot of @stock caching @memcg, or -1 (stock_memcgs > 1). */
static int stock_slot(const struct memcg_sim *ms,
		      const struct memcg_stock_pcp *stock,
		      const struct mem_cgroup *memcg)
{
	unsigned int i;

	for (i = 0; i < ms->k->stock_memcgs; i++)
		if (stock->cached[i] == memcg)
			return (int)i;
	return -1;
}

/* SIM: count a charge (or a refill) of @memcg on @stock's CPU, for explain. */
static void stock_note(struct memcg_stock_pcp *stock,
		       const struct mem_cgroup *memcg, bool refill)
{
	struct memcg_stock_sim *s = &stock->sim;
	unsigned int i;

	for (i = 0; i < s->nr_used; i++)
		if (s->used[i].memcg == memcg)
			break;
	if (i == s->nr_used) {
		if (i == MEMCG_STOCK_SEEN) {
			s->used_other++;
			return;
		}
		s->used[i].memcg = memcg;
		s->nr_used++;
	}
	if (refill)
		s->used[i].refills++;
	else
		s->used[i].charges++;
}

/**
 * consume_stock() - take pages from this CPU's stock
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct consume_stock_frame: @memcg, @nr_pages
 *
 * The stock serves the charge only if it caches @memcg and holds at least
 * @nr_pages; otherwise it is left alone and the caller charges the page
 * counters, refilling the stock afterwards.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p), simulated interrupts off
 * around the stock (local_lock_irqsave: the profile's irq_save_restore);
 * touches only this CPU's stock line.
 * Return: in p->ret, true when the stock served the charge.
 */
int consume_stock(struct sim_proc *p, void *frame)
{
	struct consume_stock_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);
	int slot;

	CO_BEGIN(f);
	ENTER(p, KF_consume_stock);
	f->ret = false;
	stock_note(&ms->stock[co_cpu(p)->cpu], f->memcg, false);
	/* SIM: MEMCG_CHARGE_BATCH is the charge_batch key */
	if (f->nr_pages > ms->k->charge_batch)
		goto out;
	irq_save_restore(p);
	f->stock = &ms->stock[co_cpu(p)->cpu]; /* this_cpu_ptr(&memcg_stock) */
	/* if (memcg == stock->cached && stock->nr_pages >= nr_pages) */
	CO_LOAD(f, f->stock, cached);
	slot = stock_slot(ms, f->stock, f->memcg);
	if (slot < 0)
		goto out;
	f->slot = (unsigned int)slot;
	CO_LOAD(f, f->stock, nr_pages);
	if (f->stock->nr_pages[f->slot] >= f->nr_pages) {
		CO_STORE_ELEM(f, f->stock, nr_pages, f->slot,
			      f->stock->nr_pages[f->slot] - f->nr_pages);
		f->ret = true;
	}
out:
	EXIT(p);
	CO_RETURN(f, p, f->ret);
	CO_END(f, p);
}

struct memcg_uncharge_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	unsigned int nr_pages;
};

/*
 * memcg_uncharge() - page_counter_uncharge() of memory, then of memsw when
 * do_memsw_account(). SIM: v6.0 writes the pair out in each caller
 * (drain_stock(), uncharge_batch(), cancel_charge()); later kernels share
 * it under this name.
 */
static int memcg_uncharge(struct sim_proc *p, void *frame)
{
	struct memcg_uncharge_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	ms->counts.pc_uncharges++;
	CO_CALL(f, p, page_counter_uncharge, .counter = &f->memcg->memory,
		.nr_pages = f->nr_pages);
	if (do_memsw_account(ms->k)) {
		ms->counts.pc_uncharges++;
		CO_CALL(f, p, page_counter_uncharge,
			.counter = &f->memcg->memsw, .nr_pages = f->nr_pages);
	}
	CO_END(f, p);
}

struct drain_stock_frame {
	struct co_frame co;
	struct memcg_stock_pcp *stock;
	unsigned int slot; /* SIM: which cached memcg */
	/* locals */
	struct mem_cgroup *old;
};

/*
 * drain_stock() - give the stock's pages back to its memcg's counters and
 * forget the memcg.
 */
static int drain_stock(struct sim_proc *p, void *frame)
{
	struct drain_stock_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	ENTER(p, KF_drain_stock);
	CO_READ_ONCE_AT(f, f->old, f->stock->cached[f->slot],
			COH_FIELD(f->stock, cached));
	if (!f->old)
		goto out;
	CO_LOAD(f, f->stock, nr_pages);
	if (f->stock->nr_pages[f->slot]) {
		ms->counts.drains++;
		f->stock->sim.drains++;
		CO_CALL(f, p, memcg_uncharge, .memcg = f->old,
			.nr_pages = f->stock->nr_pages[f->slot]);
		CO_STORE_ELEM(f, f->stock, nr_pages, f->slot, 0);
	}
	/* css_put(&old->css): a per-CPU reference count, CPU-local. */
	CO_STORE_ELEM(f, f->stock, cached, f->slot, NULL);
out:
	EXIT(p);
	CO_END(f, p);
}

/**
 * refill_stock() - keep charged pages in this CPU's stock
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct refill_stock_frame: @memcg, @nr_pages
 *
 * Pages already charged to @memcg go to the stock for consume_stock() to hand
 * out later. A stock caching another memcg is drained first, and a stock over
 * the charge batch is drained whole. SIM: with stock_memcgs > 1 (later kernels)
 * a free slot is used, or one is evicted round robin.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p), simulated interrupts off; a
 * drain uncharges up the hierarchy and waits for those lines.
 */
int refill_stock(struct sim_proc *p, void *frame)
{
	struct refill_stock_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);
	int slot;

	CO_BEGIN(f);
	ENTER(p, KF_refill_stock);
	irq_save_restore(p);
	f->stock = &ms->stock[co_cpu(p)->cpu];
	stock_note(f->stock, f->memcg, true);
	CO_LOAD(f, f->stock, cached);
	slot = stock_slot(ms, f->stock, f->memcg);
	if (slot < 0) { /* reset if necessary */
		slot = stock_slot(ms, f->stock, NULL);
		if (slot < 0) /* SIM: evict round robin, not at random */
			slot = (int)(f->stock->evict++ % ms->k->stock_memcgs);
		f->slot = (unsigned int)slot;
		if (f->stock->cached[f->slot]) /* SIM: for explain */
			f->stock->sim.switches++;
		CO_CALL(f, p, drain_stock, .stock = f->stock, .slot = f->slot);
		/* css_get(&memcg->css); */
		CO_STORE_ELEM(f, f->stock, cached, f->slot, f->memcg);
	} else {
		f->slot = (unsigned int)slot;
	}
	CO_STORE_ELEM(f, f->stock, nr_pages, f->slot,
		      f->stock->nr_pages[f->slot] + f->nr_pages);
	if (f->stock->nr_pages[f->slot] > ms->k->charge_batch)
		CO_CALL(f, p, drain_stock, .stock = f->stock, .slot = f->slot);
	EXIT(p);
	CO_END(f, p);
}

/* ---- the charge ---- */

struct try_to_free_mem_cgroup_pages_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	unsigned int nr_pages;
	/* locals */
	unsigned long nr_to_reclaim; /* sc.nr_to_reclaim */
	unsigned long nr_reclaimed;
	unsigned int i; /* SIM: the memcg visited */
	struct mem_cgroup *m;
	unsigned long take; /* SIM: its pages reclaimed */
};

/*
 * try_to_free_mem_cgroup_pages() (mm/vmscan.c) - SIM: reclaim is a cost
 * per page reclaimed: up to max(nr_pages, SWAP_CLUSTER_MAX) of the
 * `reclaimable` pages of memcg and its descendants are freed (uncharged up
 * the hierarchy) at reclaim_ns each. Returns the number reclaimed.
 */
static int try_to_free_mem_cgroup_pages(struct sim_proc *p, void *frame)
{
	struct try_to_free_mem_cgroup_pages_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	ENTER(p, KF_try_to_free_mem_cgroup_pages);
	f->nr_to_reclaim = max((unsigned long)f->nr_pages, SWAP_CLUSTER_MAX);
	f->nr_reclaimed = 0;
	for (f->i = 0; f->i < ms->nr_memcgs && f->nr_to_reclaim; f->i++) {
		struct mem_cgroup *m = &ms->memcgs[f->i], *a;
		unsigned long take;

		for (a = m; a && a != f->memcg; a = a->parent)
			;
		if (!a || !m->reclaimable)
			continue;
		take = min((unsigned long)m->reclaimable, f->nr_to_reclaim);
		m->reclaimable -= take;
		m->nr_reclaimed += take;
		f->nr_to_reclaim -= take;
		f->nr_reclaimed += take;
		f->m = m;
		f->take = take;
		coh_delay(co_cpu(p), (sim_time_t)take * ms->reclaim_ps);
		CO_CALL(f, p, page_counter_uncharge, .counter = &f->m->memory,
			.nr_pages = take);
		/*
		 * SIM: reclaimed pages are dropped, memsw falls with memory;
		 * a swapped-out page would keep its memsw charge.
		 */
		if (do_memsw_account(ms->k))
			CO_CALL(f, p, page_counter_uncharge,
				.counter = &f->m->memsw, .nr_pages = f->take);
	}
	ms->counts.reclaimed += f->nr_reclaimed;
	EXIT(p);
	CO_RETURN(f, p, f->nr_reclaimed);
	CO_END(f, p);
}

/*
 * mem_cgroup_from_counter(counter, memory) - SIM: a search, as the model's
 * counter does not sit in a struct that container_of() could recover.
 */
static struct mem_cgroup *mem_cgroup_from_counter(struct memcg_sim *ms,
						  struct page_counter *c)
{
	unsigned int i;

	for (i = 0; i < ms->nr_memcgs; i++)
		if (&ms->memcgs[i].memory == c || &ms->memcgs[i].kmem == c ||
		    &ms->memcgs[i].memsw == c)
			return &ms->memcgs[i];
	SIM_BUG_ON(1);
	return NULL;
}

/* pages @c can still charge below its max */
static unsigned long margin(struct page_counter *c)
{
	unsigned long count = page_counter_read(c);
	unsigned long limit = c->max;

	return count < limit ? limit - count : 0;
}

/* mem_cgroup_margin(): the smaller of memory's and, if charged, memsw's */
static unsigned long mem_cgroup_margin(const struct memcg_sim *ms,
				       struct mem_cgroup *memcg)
{
	unsigned long m = margin(&memcg->memory);

	if (do_memsw_account(ms->k))
		m = min(m, margin(&memcg->memsw));
	return m;
}

struct try_charge_memcg_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	unsigned int gfp_mask;
	unsigned int nr_pages;
	/* locals */
	unsigned int batch;
	int nr_retries;
	struct mem_cgroup *mem_over_limit;
	struct page_counter *counter;
	unsigned long nr_reclaimed;
	bool drained;
	bool mem_high, swap_high;
	int ret; /* SIM: one exit, for the latency */
	sim_time_t start; /* SIM: charge latency */
};

static int try_charge_memcg(struct sim_proc *p, void *frame)
{
	struct try_charge_memcg_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	ENTER(p, KF_try_charge_memcg);
	f->start = NOW(p);
	ms->counts.charges++;
	f->batch = max(ms->k->charge_batch, f->nr_pages);
	f->nr_retries = MAX_RECLAIM_RETRIES;
	f->drained = false;
retry:
	CO_CALL(f, p, consume_stock, .memcg = f->memcg,
		.nr_pages = f->nr_pages);
	if (p->ret) {
		ms->counts.stock_hits++;
		f->ret = 0;
		goto out;
	}
	/* v1 with swap accounting: memsw first, then memory */
	if (do_memsw_account(ms->k)) {
		ms->counts.pc_try_charges++;
		CO_CALL(f, p, page_counter_try_charge,
			.counter = &f->memcg->memsw, .nr_pages = f->batch,
			.fail = &f->counter);
		if (!p->ret) {
			/* SIM: may_swap = false; reclaim never swaps here */
			f->mem_over_limit =
				mem_cgroup_from_counter(ms, f->counter);
			goto over_limit;
		}
	}
	ms->counts.pc_try_charges++;
	CO_CALL(f, p, page_counter_try_charge, .counter = &f->memcg->memory,
		.nr_pages = f->batch, .fail = &f->counter);
	if (p->ret)
		goto done_restock;
	if (do_memsw_account(ms->k)) {
		ms->counts.pc_uncharges++;
		CO_CALL(f, p, page_counter_uncharge,
			.counter = &f->memcg->memsw, .nr_pages = f->batch);
	}
	f->mem_over_limit = mem_cgroup_from_counter(ms, f->counter);
over_limit:

	/*
	 * Over the limit with a batch: try again with only what was asked
	 * for before reclaiming for the surplus.
	 */
	if (f->batch > f->nr_pages) {
		f->batch = f->nr_pages;
		goto retry;
	}
	/* !gfpflags_allow_blocking(gfp_mask): softirq, atomic */
	if (!(f->gfp_mask & GFP_KERNEL))
		goto nomem;

	CO_CALL(f, p, try_to_free_mem_cgroup_pages, .memcg = f->mem_over_limit,
		.nr_pages = f->nr_pages);
	f->nr_reclaimed = (unsigned long)p->ret;

	/* mem_cgroup_margin(mem_over_limit) >= nr_pages */
	CO_LOAD(f, &f->mem_over_limit->memory, usage);
	CO_LOAD(f, &f->mem_over_limit->memory, max);
	if (do_memsw_account(ms->k)) {
		CO_LOAD(f, &f->mem_over_limit->memsw, usage);
		CO_LOAD(f, &f->mem_over_limit->memsw, max);
	}
	if (mem_cgroup_margin(ms, f->mem_over_limit) >= f->nr_pages)
		goto retry;

	if (!f->drained) {
		/*
		 * Other CPUs' stocks may hold pages charged to this
		 * hierarchy: drain them and try again. SIM:
		 * drain_all_stock() schedules work on the other CPUs; that
		 * is not modelled, the retry happens all the same.
		 */
		f->drained = true;
		goto retry;
	}
	/*
	 * Reclaim freed something but the charge still does not fit:
	 * another task may have taken the room. Small charges are worth
	 * retrying; a large one (a huge page) has little chance this close
	 * to the limit, and its caller can fall back to small pages.
	 */
	if (f->nr_reclaimed && f->nr_pages <= (1u << PAGE_ALLOC_COSTLY_ORDER))
		goto retry;
	if (f->nr_retries--)
		goto retry;
	/* SIM: no OOM killer. */
nomem:
	if (!(f->gfp_mask & __GFP_NOFAIL)) {
		ms->counts.failures++;
		f->memcg->nr_failed++;
		f->ret = -ENOMEM;
		goto out;
	}
	/*
	 * force: the charge must not fail, or will free memory soon; let
	 * usage go over the limit for a while.
	 */
	CO_CALL(f, p, page_counter_charge, .counter = &f->memcg->memory,
		.nr_pages = f->nr_pages);
	if (do_memsw_account(ms->k))
		CO_CALL(f, p, page_counter_charge, .counter = &f->memcg->memsw,
			.nr_pages = f->nr_pages);
	f->ret = 0;
	goto out;

done_restock:
	if (f->batch > f->nr_pages)
		CO_CALL(f, p, refill_stock, .memcg = f->memcg,
			.nr_pages = f->batch - f->nr_pages);
	/*
	 * If the hierarchy is above its normal range (memory.high), the
	 * kernel does not reclaim here: it notes the excess and reclaims
	 * on the way back to user space, so that every caller, atomic ones
	 * too, can charge the same way. Either way every charge reads
	 * usage and high at every level up to the root, the loads that put
	 * every charging CPU on the hot usage lines.
	 */
	KPROF_ENTER(co_cpu(p)->prof, KF_try_charge_memcg_high, NOW(p));
	insn_enter(co_cpu(p), KF_try_charge_memcg_high); /* the miss path */
	do {
		insn_charge(co_cpu(p), INSN_try_charge_memcg_high_level, 1);
		CO_LOAD(f, &f->memcg->memory, usage);
		CO_LOAD(f, &f->memcg->memory, high);
		f->mem_high = page_counter_read(&f->memcg->memory) >
			      f->memcg->memory.high;
		CO_LOAD(f, &f->memcg->swap, usage);
		CO_LOAD(f, &f->memcg->swap, high);
		f->swap_high = page_counter_read(&f->memcg->swap) >
			       f->memcg->swap.high;
		/* SIM: the over-high reclaim is not modelled */
		if (f->mem_high || f->swap_high)
			break;
		/* memcg = parent_mem_cgroup(memcg): css.parent */
		CO_READ_ONCE_DEP(f, f->memcg, f->memcg, parent);
	} while (f->memcg);
	KPROF_EXIT(co_cpu(p)->prof, NOW(p));
	f->ret = 0;
out:
	CO_FENCE(f);
	sim_stat_add(&ms->charge_lat, (double)(NOW(p) - f->start) / 1000.0);
	EXIT(p);
	CO_RETURN(f, p, f->ret);
	CO_END(f, p);
}

/**
 * try_charge() - charge pages to a memcg
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct try_charge_frame: @memcg, @gfp_mask, @nr_pages
 *
 * The root memcg (and every memcg with memcg_disabled) is never charged; any
 * other goes through try_charge_memcg(): the stock, the page counters, reclaim
 * and retries.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p); may wait for the page
 * counters' lines, reclaim (reclaim_ns per page) and, for @gfp_mask without
 * GFP_KERNEL, fails instead of reclaiming.
 * Return: in p->ret, 0 or -ENOMEM.
 */
int try_charge(struct sim_proc *p, void *frame)
{
	struct try_charge_frame *f = frame;

	CO_BEGIN(f);
	/* SIM: memcg_disabled, the kernel's mem_cgroup_disabled() */
	if (this_ms(p)->k->memcg_disabled ||
	    mem_cgroup_is_root(this_ms(p), f->memcg))
		CO_RETURN(f, p, 0);
	CO_CALL(f, p, try_charge_memcg, .memcg = f->memcg,
		.gfp_mask = f->gfp_mask, .nr_pages = f->nr_pages);
	CO_RETURN(f, p, p->ret);
	CO_END(f, p);
}

/* ---- kmem: the page side of the obj_cgroup charge (v5.9 on) ---- */

/*
 * SIM: objcg->nr_charged_bytes, placed in memory on first use so that
 * runs without slab accounting keep their layout.
 */
static struct coh_field *objcg_field(struct memcg_sim *ms,
				     struct obj_cgroup *objcg)
{
	char name[40];

	if (!objcg->obj) {
		snprintf(name, sizeof(name), "objcg(%.28s)",
			 objcg->memcg->obj->name);
		objcg->obj =
			coh_object_create(ms->coh, name, &ms->objcg_layout, 0);
	}
	return coh_object_field(objcg->obj, 0);
}

struct obj_cgroup_uncharge_pages_frame {
	struct co_frame co;
	struct obj_cgroup *objcg;
	unsigned int nr_pages;
};

/* obj_cgroup_uncharge_pages(): memcg_account_kmem(-n) and refill_stock() */
static int obj_cgroup_uncharge_pages(struct sim_proc *p, void *frame)
{
	struct obj_cgroup_uncharge_pages_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);
	struct mem_cgroup *memcg = f->objcg->memcg;

	CO_BEGIN(f);
	insn_charge(co_cpu(p), INSN_obj_cgroup_uncharge_pages, 1);
	/* v5.13's __memcg_kmem_uncharge() has no MEMCG_KMEM statistic */
	if (ms->k->obj_stock_version != OBJ_STOCK_V5_13)
		CO_CALL(f, p, mod_memcg_state, .memcg = memcg,
			.idx = SIM_MEMCG_KMEM, .val = -(long)f->nr_pages);
	if (ms->k->cgroup_version == 1) {
		ms->counts.pc_uncharges++;
		CO_CALL(f, p, page_counter_uncharge, .counter = &memcg->kmem,
			.nr_pages = f->nr_pages);
	}
	CO_CALL(f, p, refill_stock, .memcg = memcg, .nr_pages = f->nr_pages);
	CO_END(f, p);
}

/*
 * ---- kmem pages (before v5.9) ----
 *
 * SIM: v4.8's memcg_kmem_charge_memcg()/memcg_kmem_uncharge() stand where
 * v6.0 has __memcg_kmem_charge_page()/__memcg_kmem_uncharge_page().
 */

/**
 * memcg_kmem_charge_page() - charge a kernel page (__GFP_ACCOUNT)
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct memcg_kmem_charge_page_frame: @memcg, @gfp, @nr_pages
 *
 * v4.8's memcg_kmem_charge_memcg(): try_charge() the pages, then on cgroup v1
 * the legacy kmem counter; with kmem_accounting: objects, v5.9's
 * obj_cgroup_charge_pages() path instead.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p); may wait as try_charge()
 * does.
 * Return: in p->ret, 0 or -ENOMEM.
 */
int memcg_kmem_charge_page(struct sim_proc *p, void *frame)
{
	struct memcg_kmem_charge_page_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	/* mem_cgroup_disabled(): nothing is charged or uncharged */
	if (ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	ENTER(p, KF_memcg_kmem_charge_page);
	CO_CALL(f, p, try_charge, .memcg = f->memcg, .gfp_mask = f->gfp,
		.nr_pages = f->nr_pages);
	f->ret = (int)p->ret;
	if (f->ret || mem_cgroup_is_root(ms, f->memcg))
		goto out;
	if (ms->k->kmem_accounting == KMEM_OBJECTS) {
		/*
		 * v5.9 on: obj_cgroup_charge_pages() -> memcg_account_kmem():
		 * MEMCG_KMEM, and on v1 the kmem counter charged without a
		 * limit check (page_counter_charge()).
		 */
		CO_CALL(f, p, mod_memcg_state, .memcg = f->memcg,
			.idx = SIM_MEMCG_KMEM, .val = f->nr_pages);
		if (ms->k->cgroup_version == 1)
			CO_CALL(f, p, page_counter_charge,
				.counter = &f->memcg->kmem,
				.nr_pages = f->nr_pages);
		goto out;
	}
	if (ms->k->cgroup_version == 1) {
		ms->counts.pc_try_charges++;
		CO_CALL(f, p, page_counter_try_charge,
			.counter = &f->memcg->kmem, .nr_pages = f->nr_pages,
			.fail = &f->counter);
		if (!p->ret) {
			/* cancel_charge(memcg, nr_pages) */
			CO_CALL(f, p, memcg_uncharge, .memcg = f->memcg,
				.nr_pages = f->nr_pages);
			f->ret = -ENOMEM;
		}
	}
out:
	EXIT(p);
	CO_RETURN(f, p, f->ret);
	CO_END(f, p);
}

/**
 * memcg_kmem_uncharge_page() - uncharge a kernel page
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct memcg_kmem_uncharge_page_frame: @memcg, @nr_pages
 *
 * v4.8's memcg_kmem_uncharge(): straight to the page counters (kmem on v1, then
 * memory, then memsw with swap accounting), no stock; with kmem_accounting: objects, through the page stock as
 * v5.9 does.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p); waits for the page
 * counters' lines.
 */
int memcg_kmem_uncharge_page(struct sim_proc *p, void *frame)
{
	struct memcg_kmem_uncharge_page_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	/* mem_cgroup_disabled(): nothing is charged or uncharged */
	if (ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	ENTER(p, KF_memcg_kmem_uncharge_page);
	ms->counts.uncharges++;
	if (mem_cgroup_is_root(ms, f->memcg))
		goto out;
	if (ms->k->kmem_accounting == KMEM_OBJECTS) {
		/*
		 * v5.9 on: obj_cgroup_uncharge_pages(): memcg_account_kmem(),
		 * then refill_stock()
		 */
		CO_CALL(f, p, mod_memcg_state, .memcg = f->memcg,
			.idx = SIM_MEMCG_KMEM, .val = -(long)f->nr_pages);
		if (ms->k->cgroup_version == 1) {
			ms->counts.pc_uncharges++;
			CO_CALL(f, p, page_counter_uncharge,
				.counter = &f->memcg->kmem,
				.nr_pages = f->nr_pages);
		}
		CO_CALL(f, p, refill_stock, .memcg = f->memcg,
			.nr_pages = f->nr_pages);
		goto out;
	}
	if (ms->k->cgroup_version == 1) {
		ms->counts.pc_uncharges++;
		CO_CALL(f, p, page_counter_uncharge, .counter = &f->memcg->kmem,
			.nr_pages = f->nr_pages);
	}
	CO_CALL(f, p, memcg_uncharge, .memcg = f->memcg,
		.nr_pages = f->nr_pages);
out:
	EXIT(p);
	CO_END(f, p);
}

/* ---- kmem objects (v5.9 on): the obj_cgroup stock ---- */

/*
 * The object stock by obj_stock_version (kernel key):
 *
 *   v5.13  memcg_stock_pcp's cached_objcg and nr_bytes, interrupts off
 *          (local_irq_save()). A refill that takes the stock past a page
 *          drains it whole (drain_obj_stock(): its pages uncharged, the
 *          bytes short of a page to the objcg's nr_charged_bytes, the
 *          objcg forgotten). The slab hooks (mm/slab.h) charge the
 *          object, then mod_objcg_state(): mod_memcg_lruvec_state(),
 *          interrupts off a second time, the per-CPU counters updated for
 *          every object. No MEMCG_KMEM statistic yet.
 *   v6.0   v5.14's series ("mm/memcg: cache vmstat data in percpu
 *          memcg_stock_pcp", "improve refill_obj_stock() performance"):
 *          mod_objcg_state() keeps the slab statistics in the stock
 *          (cached_pgdat, nr_slab_[un]reclaimable_b) and pushes them to
 *          the counters only past a page of bytes, when the node changes
 *          or when the stock is drained; a refill uncharges whole pages
 *          and keeps the rest. The charge and the statistics still take
 *          the stock lock once each. SIM: the v5.14 to v5.17 split into a
 *          task and an irq stock (preempt_disable() in task context) is
 *          not modelled: this is v6.0's local_lock_irqsave().
 *   v6.16  a per-CPU obj_stock_pcp of its own line, under local_trylock()
 *          (preemption off, interrupts on; SIM: free, the lock word being
 *          on the stock's own line, and never contended: nothing here
 *          allocates from interrupts); obj_cgroup_charge_account() and
 *          refill_obj_stock() update the statistics in the same pass as
 *          the bytes (__account_obj_stock(), "memcg: combine slab obj
 *          stock charging and accounting").
 *
 * SIM: the slab item is NR_SLAB_UNRECLAIMABLE_B (kmalloc caches);
 * nr_slab_reclaimable_b stays 0. A slab's node is its CPU's.
 */

/* this_cpu_ptr(&obj_stock) (v6.16) or this_cpu_ptr(&memcg_stock) */
static struct memcg_stock_pcp *obj_stock_this_cpu(const struct sim_proc *p)
{
	struct memcg_sim *ms = this_ms(p);
	unsigned int cpu = co_cpu(p)->cpu;

	return ms->obj_stock ? &ms->obj_stock[cpu] : &ms->stock[cpu];
}

/* local_irq_save()/local_lock_irqsave(), or v6.16's local_trylock() */
static void obj_stock_lock(const struct sim_proc *p)
{
	if (this_ms(p)->k->obj_stock_version != OBJ_STOCK_V6_16)
		irq_save_restore(p);
}

/*
 * SIM: the slab item's slot in the statistics arrays, given at its first
 * update (memcg_sim.c leaves it out).
 */
static void slab_stat_slot(struct memcg_sim *ms)
{
	unsigned int i = memcg__stat_index(ms, SIM_NR_SLAB_UNRECLAIMABLE_B);

	if (ms->state_slot[i] < 0)
		ms->state_slot[i] = SIM_NR_SLAB_UNRECLAIMABLE_B;
}

struct __mod_objcg_mlstate_frame {
	struct co_frame co;
	struct obj_cgroup *objcg;
	int pgdat; /* node + 1 */
	int idx;
	int nr;
};

/*
 * __mod_objcg_mlstate(): rcu_read_lock(); memcg = obj_cgroup_memcg(objcg);
 * lruvec = mem_cgroup_lruvec(memcg, pgdat); __mod_memcg_lruvec_state().
 */
static int __mod_objcg_mlstate(struct sim_proc *p, void *frame)
{
	struct __mod_objcg_mlstate_frame *f = frame;

	CO_BEGIN(f);
	slab_stat_slot(this_ms(p));
	/* its instructions, mod_memcg_lruvec_state()'s and the callee's */
	insn_charge(co_cpu(p), INSN_mod_objcg_mlstate, 1);
	insn_charge(co_cpu(p), INSN_mod_memcg_lruvec_state, 1);
	insn_charge(co_cpu(p), INSN___mod_memcg_lruvec_state, 1);
	CO_CALL(f, p, __mod_memcg_lruvec_state, .memcg = f->objcg->memcg,
		.node = (unsigned int)f->pgdat - 1, .idx = f->idx,
		.val = f->nr);
	CO_END(f, p);
}

struct drain_obj_stock_frame {
	struct co_frame co;
	struct memcg_stock_pcp *stock;
	/* locals */
	struct obj_cgroup *old;
	unsigned int nr_pages, nr_bytes;
};

static int drain_obj_stock(struct sim_proc *p, void *frame)
{
	struct drain_obj_stock_frame *f = frame;

	CO_BEGIN(f);
	ENTER(p, KF_drain_obj_stock);
	CO_READ_ONCE(f, f->old, f->stock, cached_objcg);
	if (!f->old)
		goto out;
	/* SIM: the slab statistics are read with nr_bytes: the same line */
	CO_LOAD(f, f->stock, nr_bytes);
	if (f->stock->nr_bytes) {
		f->nr_pages = f->stock->nr_bytes >> PAGE_SHIFT;
		f->nr_bytes = f->stock->nr_bytes & (PAGE_SIZE - 1);
		if (f->nr_pages)
			CO_CALL(f, p, obj_cgroup_uncharge_pages,
				.objcg = f->old, .nr_pages = f->nr_pages);
		/*
		 * The bytes short of a page go to the memcg-wide count,
		 * even 0; the next refill_obj_stock() of this objcg, maybe
		 * on another CPU, takes them into its stock. Flushing more
		 * often would enforce the limit more exactly, at the cost of
		 * more atomics on a shared line.
		 */
		CO_ATOMIC_ADD_AT(f, f->nr_bytes, f->old->nr_charged_bytes,
				 objcg_field(this_ms(p), f->old));
		CO_STORE(f, f->stock, nr_bytes, 0);
	}
	/* v5.14 on: flush the vmstat data in the stock (0 before) */
	if (f->stock->nr_slab_reclaimable_b ||
	    f->stock->nr_slab_unreclaimable_b) {
		if (f->stock->nr_slab_unreclaimable_b) {
			CO_CALL(f, p, __mod_objcg_mlstate, .objcg = f->old,
				.pgdat = f->stock->cached_pgdat,
				.idx = SIM_NR_SLAB_UNRECLAIMABLE_B,
				.nr = f->stock->nr_slab_unreclaimable_b);
			CO_STORE_AT(f, f->stock->nr_slab_unreclaimable_b, 0,
				    COH_FIELD(f->stock, nr_bytes));
		}
		CO_STORE_AT(f, f->stock->cached_pgdat, 0,
			    COH_FIELD(f->stock, nr_bytes));
	}
	CO_STORE(f, f->stock, cached_objcg, NULL);
out:
	EXIT(p);
	CO_END(f, p);
}

struct replace_stock_objcg_frame {
	struct co_frame co;
	struct memcg_stock_pcp *stock;
	struct obj_cgroup *objcg;
	/* locals */
	unsigned int charged; /* SIM: the objcg's bytes, until stored */
};

/*
 * replace_stock_objcg() (the "reset if necessary" of refill_obj_stock()
 * and mod_objcg_state() before it had a name): drain, then take the
 * objcg's leftover bytes.
 */
static int replace_stock_objcg(struct sim_proc *p, void *frame)
{
	struct replace_stock_objcg_frame *f = frame;

	CO_BEGIN(f);
	CO_CALL(f, p, drain_obj_stock, .stock = f->stock);
	f->charged = 0;
	if (this_ms(p)->k->obj_stock_version == OBJ_STOCK_V5_13) {
		/* stock->nr_bytes = atomic_xchg(&objcg->nr_charged_bytes, 0) */
		CO_XCHG_AT(f, f->charged, f->objcg->nr_charged_bytes, 0,
			   objcg_field(this_ms(p), f->objcg));
	} else {
		/*
		 * stock->nr_bytes = atomic_read(&objcg->nr_charged_bytes)
		 *	? atomic_xchg(&objcg->nr_charged_bytes, 0) : 0;
		 */
		CO_LOAD_AT(f, objcg_field(this_ms(p), f->objcg));
		if (f->objcg->nr_charged_bytes)
			CO_XCHG_AT(f, f->charged, f->objcg->nr_charged_bytes, 0,
				   objcg_field(this_ms(p), f->objcg));
	}
	/*
	 * obj_cgroup_get(objcg); stock->cached_objcg = objcg;
	 * SIM: stored after the exchange, where v5.13 stores it before;
	 * both stores are to this CPU's own line.
	 */
	CO_STORE(f, f->stock, cached_objcg, f->objcg);
	f->stock->nr_bytes = f->charged;
	CO_END(f, p);
}

struct __account_obj_stock_frame {
	struct co_frame co;
	struct obj_cgroup *objcg;
	struct memcg_stock_pcp *stock;
	int nr;
	int pgdat; /* node + 1 */
	bool pgdat_set; /* SIM: v6.0's replace branch set cached_pgdat */
	/* locals */
	int *bytes;
	int old;
};

/*
 * __account_obj_stock() (v6.16; in v6.0 the body of mod_objcg_state()):
 * batch @nr bytes of the slab item in the stock, pushing them to the
 * per-CPU counters past a page, and the batch of another node first.
 */
static int __account_obj_stock(struct sim_proc *p, void *frame)
{
	struct __account_obj_stock_frame *f = frame;

	CO_BEGIN(f);
	/* v6.0's instructions are mod_objcg_state()'s (insn.h: SIM) */
	if (this_ms(p)->k->obj_stock_version == OBJ_STOCK_V6_16)
		insn_charge(co_cpu(p), INSN___account_obj_stock, 1);
	if (!f->pgdat_set) {
		/* SIM: cached_pgdat shares the line with nr_bytes */
		CO_LOAD_AT(f, COH_FIELD(f->stock, nr_bytes));
		if (f->stock->cached_pgdat != f->pgdat) {
			/* flush the existing cached vmstat data */
			f->old = f->stock->cached_pgdat;
			if (f->stock->nr_slab_unreclaimable_b) {
				CO_CALL(f, p, __mod_objcg_mlstate,
					.objcg = f->objcg, .pgdat = f->old,
					.idx = SIM_NR_SLAB_UNRECLAIMABLE_B,
					.nr = f->stock->nr_slab_unreclaimable_b);
				CO_STORE_AT(f,
					    f->stock->nr_slab_unreclaimable_b,
					    0, COH_FIELD(f->stock, nr_bytes));
			}
			CO_STORE_AT(f, f->stock->cached_pgdat, f->pgdat,
				    COH_FIELD(f->stock, nr_bytes));
		}
	}
	/*
	 * bytes = (idx == NR_SLAB_RECLAIMABLE_B) ?
	 *	&stock->nr_slab_reclaimable_b : &stock->nr_slab_unreclaimable_b;
	 * even an object over a page is cached once before it is pushed
	 */
	f->bytes = &f->stock->nr_slab_unreclaimable_b;
	if (!*f->bytes) {
		f->old = f->nr;
		f->nr = 0;
	} else {
		f->old = *f->bytes + f->nr;
		if (abs(f->old) > (int)PAGE_SIZE) {
			f->nr = f->old;
			f->old = 0;
		} else {
			f->nr = 0;
		}
	}
	CO_STORE_AT(f, *f->bytes, f->old, COH_FIELD(f->stock, nr_bytes));
	if (f->nr)
		CO_CALL(f, p, __mod_objcg_mlstate, .objcg = f->objcg,
			.pgdat = f->pgdat, .idx = SIM_NR_SLAB_UNRECLAIMABLE_B,
			.nr = f->nr);
	CO_END(f, p);
}

struct mod_objcg_state_frame {
	struct co_frame co;
	struct obj_cgroup *objcg;
	int pgdat; /* node + 1 */
	int nr;
	/* locals */
	struct memcg_stock_pcp *stock;
	bool replaced;
};

/*
 * mod_objcg_state(objcg, pgdat, NR_SLAB_UNRECLAIMABLE_B, nr): v5.13's
 * (mm/slab.h) straight to the counters, interrupts off; v6.0's through
 * the stock.
 */
static int mod_objcg_state(struct sim_proc *p, void *frame)
{
	struct mod_objcg_state_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	ENTER(p, KF_mod_objcg_state);
	if (ms->k->obj_stock_version == OBJ_STOCK_V5_13) {
		/* mod_memcg_lruvec_state(): local_irq_save() ... restore() */
		irq_save_restore(p);
		CO_CALL(f, p, __mod_objcg_mlstate, .objcg = f->objcg,
			.pgdat = f->pgdat, .idx = SIM_NR_SLAB_UNRECLAIMABLE_B,
			.nr = f->nr);
		goto out;
	}
	irq_save_restore(p); /* local_lock_irqsave(&memcg_stock...) */
	insn_charge(co_cpu(p), INSN_mod_objcg_state, 1);
	f->stock = obj_stock_this_cpu(p);
	CO_LOAD(f, f->stock, cached_objcg);
	f->replaced = false;
	if (f->stock->cached_objcg != f->objcg) {
		CO_CALL(f, p, replace_stock_objcg, .stock = f->stock,
			.objcg = f->objcg);
		CO_STORE_AT(f, f->stock->cached_pgdat, f->pgdat,
			    COH_FIELD(f->stock, nr_bytes));
		f->replaced = true;
	}
	CO_CALL(f, p, __account_obj_stock, .objcg = f->objcg, .stock = f->stock,
		.nr = f->nr, .pgdat = f->pgdat, .pgdat_set = f->replaced);
out:
	EXIT(p);
	CO_END(f, p);
}

struct refill_obj_stock_frame {
	struct co_frame co;
	struct obj_cgroup *objcg;
	unsigned int nr_bytes;
	bool allow_uncharge;
	int nr_acct; /* v6.16: the statistics' bytes, with pgdat */
	int pgdat; /* v6.16: node + 1, or 0 (NULL): no statistics */
	/* locals */
	struct memcg_stock_pcp *stock;
	unsigned int nr_pages;
};

static int refill_obj_stock(struct sim_proc *p, void *frame)
{
	struct refill_obj_stock_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	ENTER(p, KF_refill_obj_stock);
	obj_stock_lock(p);
	f->stock = obj_stock_this_cpu(p);
	CO_LOAD(f, f->stock, cached_objcg);
	if (f->stock->cached_objcg != f->objcg) { /* reset if necessary */
		CO_CALL(f, p, replace_stock_objcg, .stock = f->stock,
			.objcg = f->objcg);
		f->allow_uncharge = true; /* when objcg changes */
	}
	CO_STORE(f, f->stock, nr_bytes, f->stock->nr_bytes + f->nr_bytes);
	if (f->pgdat)
		CO_CALL(f, p, __account_obj_stock, .objcg = f->objcg,
			.stock = f->stock, .nr = f->nr_acct, .pgdat = f->pgdat);
	if (ms->k->obj_stock_version == OBJ_STOCK_V5_13) {
		if (f->stock->nr_bytes > PAGE_SIZE)
			CO_CALL(f, p, drain_obj_stock, .stock = f->stock);
		goto out;
	}
	f->nr_pages = 0;
	if (f->allow_uncharge && f->stock->nr_bytes > PAGE_SIZE) {
		f->nr_pages = f->stock->nr_bytes >> PAGE_SHIFT;
		f->stock->nr_bytes &= PAGE_SIZE - 1;
	}
	if (f->nr_pages)
		CO_CALL(f, p, obj_cgroup_uncharge_pages, .objcg = f->objcg,
			.nr_pages = f->nr_pages);
out:
	EXIT(p);
	CO_END(f, p);
}

/**
 * obj_cgroup_charge() - charge bytes of slab objects
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct obj_cgroup_charge_frame: @objcg, @size; @pgdat for
 *	v6.16's obj_cgroup_charge_account()
 *
 * From this CPU's byte stock when it caches @objcg and holds enough; else whole
 * pages through try_charge(), the bytes short of the last page going to the
 * byte stock. With @pgdat (v6.16) the object's bytes are counted in
 * NR_SLAB_UNRECLAIMABLE_B in the same pass. SIM: always GFP_KERNEL.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p), simulated interrupts off
 * around the stock (not in v6.16); may wait as try_charge() does.
 * Return: in p->ret, 0 or -ENOMEM.
 */
int obj_cgroup_charge(struct sim_proc *p, void *frame)
{
	struct obj_cgroup_charge_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	/* get_obj_cgroup_from_current(): the root memcg has no objcg */
	if (mem_cgroup_is_root(ms, f->objcg->memcg) || ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	/*
	 * The slab hook took the objcg of current before the charge:
	 * get_obj_cgroup_from_current(), in the caller's profile. SIM:
	 * every modelled charge of objects is a slab allocation's; v6.16's
	 * current_obj_cgroup() takes no reference ("mm: kmem: scoped objcg
	 * protection", v6.5) and has no 6.1 code: nothing charged for it.
	 */
	if (ms->k->obj_stock_version != OBJ_STOCK_V6_16) {
		insn_charge(co_cpu(p), INSN_get_obj_cgroup_from_current, 1);
		insn_charge(co_cpu(p), INSN___get_obj_cgroup_from_memcg, 1);
	}
	ENTER(p, KF_obj_cgroup_charge);
	/* if (consume_obj_stock(objcg, size)) return 0; inlined */
	KPROF_ENTER(co_cpu(p)->prof, KF_consume_obj_stock, NOW(p));
	insn_enter(co_cpu(p), KF_consume_obj_stock);
	obj_stock_lock(p);
	f->stock = obj_stock_this_cpu(p);
	CO_LOAD(f, f->stock, cached_objcg);
	if (f->stock->cached_objcg == f->objcg) {
		CO_LOAD(f, f->stock, nr_bytes);
		if (f->stock->nr_bytes >= f->size) {
			CO_STORE(f, f->stock, nr_bytes,
				 f->stock->nr_bytes - f->size);
			if (f->pgdat)
				CO_CALL(f, p, __account_obj_stock,
					.objcg = f->objcg, .stock = f->stock,
					.nr = (int)f->size, .pgdat = f->pgdat);
			KPROF_EXIT(co_cpu(p)->prof, NOW(p));
			f->ret = 0;
			goto out;
		}
	}
	KPROF_EXIT(co_cpu(p)->prof, NOW(p));
	/*
	 * The objcg's shared nr_charged_bytes might cover the charge, but
	 * taking from it costs two atomics on a line every CPU of the memcg
	 * shares; whole pages are cheaper. Bytes the stock holds are not
	 * counted either: they can change outside the stock functions. So
	 * that the last page's remainder is not uncharged at once, the
	 * refill below may leave the stock over a page
	 * (allow_uncharge = false).
	 */
	f->nr_pages = (unsigned int)(f->size >> PAGE_SHIFT);
	f->nr_bytes = (unsigned int)(f->size & (PAGE_SIZE - 1));
	if (f->nr_bytes)
		f->nr_pages += 1;
	/*
	 * obj_cgroup_charge_pages(): try_charge_memcg + memcg_account_kmem;
	 * v5.13's __memcg_kmem_charge(): try_charge() and v1's kmem counter
	 */
	CO_CALL(f, p, try_charge, .memcg = f->objcg->memcg,
		.gfp_mask = GFP_KERNEL, .nr_pages = f->nr_pages);
	f->ret = (int)p->ret;
	if (f->ret)
		goto out;
	if (ms->k->cgroup_version == 1) {
		ms->counts.pc_try_charges++;
		CO_CALL(f, p, page_counter_charge,
			.counter = &f->objcg->memcg->kmem,
			.nr_pages = f->nr_pages);
	}
	if (ms->k->obj_stock_version != OBJ_STOCK_V5_13)
		CO_CALL(f, p, mod_memcg_state, .memcg = f->objcg->memcg,
			.idx = SIM_MEMCG_KMEM, .val = f->nr_pages);
	if (f->nr_bytes || f->pgdat)
		CO_CALL(f, p, refill_obj_stock, .objcg = f->objcg,
			.nr_bytes = f->nr_bytes ? (unsigned int)(PAGE_SIZE -
								 f->nr_bytes) :
						  0,
			.allow_uncharge = false, .nr_acct = (int)f->size,
			.pgdat = f->pgdat);
out:
	EXIT(p);
	CO_RETURN(f, p, f->ret);
	CO_END(f, p);
}

/**
 * obj_cgroup_uncharge() - uncharge bytes of slab objects
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct obj_cgroup_uncharge_frame: @objcg, @size
 *
 * The bytes go back to this CPU's byte stock; whole pages beyond a page go on
 * to the page stock (v5.13: past a page the byte stock is drained whole).
 *
 * Context: a coroutine on the simulated CPU co_cpu(p), simulated interrupts off
 * around the stock (not in v6.16).
 */
int obj_cgroup_uncharge(struct sim_proc *p, void *frame)
{
	struct obj_cgroup_uncharge_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	if (mem_cgroup_is_root(ms, f->objcg->memcg) || ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	ENTER(p, KF_obj_cgroup_uncharge);
	ms->counts.uncharges++;
	CO_CALL(f, p, refill_obj_stock, .objcg = f->objcg,
		.nr_bytes = (unsigned int)f->size, .allow_uncharge = true);
	EXIT(p);
	CO_END(f, p);
}

/**
 * memcg_slab_pre_alloc_hook() - charge a slab object before allocating it
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct memcg_slab_pre_alloc_hook_frame: @objcg, @obj_size
 *	(obj_full_size())
 *
 * v5.13 and v6.0 (mm/slab.h): slab_pre_alloc_hook() ->
 * memcg_slab_pre_alloc_hook(): get_obj_cgroup_from_current(), then
 * obj_cgroup_charge(objcg, flags, objects * obj_full_size(s)) before the
 * object is taken from the freelist. v6.10 on charges in the post-alloc
 * hook instead ("mm, slab: move memcg charging to post-alloc hook"):
 * nothing here at v6.16.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p); may wait as
 * try_charge() does.
 * Return: in p->ret, 0 or -ENOMEM (the allocation fails).
 */
int memcg_slab_pre_alloc_hook(struct sim_proc *p, void *frame)
{
	struct memcg_slab_pre_alloc_hook_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	/* current_obj_cgroup(): NULL in the root memcg, nothing accounted */
	if (mem_cgroup_is_root(ms, f->objcg->memcg) || ms->k->memcg_disabled ||
	    ms->k->obj_stock_version == OBJ_STOCK_V6_16)
		CO_RETURN(f, p, 0);
	ENTER(p, KF_memcg_slab_pre_alloc_hook);
	CO_CALL(f, p, obj_cgroup_charge, .objcg = f->objcg,
		.size = f->obj_size);
	f->ret = (int)p->ret;
	EXIT(p);
	CO_RETURN(f, p, f->ret);
	CO_END(f, p);
}

/**
 * memcg_slab_post_alloc_hook() - account one new slab object
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct memcg_slab_post_alloc_hook_frame: @objcg, @obj_size
 *	(obj_full_size()), @pgdat (the slab's node + 1)
 *
 * v5.13 and v6.0: the object was charged by memcg_slab_pre_alloc_hook();
 * store the objcg in the slab's obj_cgroups vector and mod_objcg_state();
 * v6.16: __memcg_slab_post_alloc_hook() calls obj_cgroup_charge_account()
 * per object, charge and statistics together. SIM: the objcg pointer
 * stored in the slab's vector is on the slab's own line (not placed), and
 * the vector is allocated with the slab (not modelled).
 *
 * Context: a coroutine on the simulated CPU co_cpu(p); v6.16 may wait as
 * try_charge() does.
 * Return: in p->ret, 0 or -ENOMEM (v6.16: the object is freed).
 */
int memcg_slab_post_alloc_hook(struct sim_proc *p, void *frame)
{
	struct memcg_slab_post_alloc_hook_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	/* current_obj_cgroup(): NULL in the root memcg, nothing accounted */
	if (mem_cgroup_is_root(ms, f->objcg->memcg) || ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	ENTER(p, KF_memcg_slab_post_alloc_hook);
	f->ret = 0;
	if (ms->k->obj_stock_version == OBJ_STOCK_V6_16) {
		CO_CALL(f, p, obj_cgroup_charge, .objcg = f->objcg,
			.size = f->obj_size, .pgdat = f->pgdat);
		f->ret = (int)p->ret;
		goto out;
	}
	CO_CALL(f, p, mod_objcg_state, .objcg = f->objcg, .pgdat = f->pgdat,
		.nr = (int)f->obj_size);
out:
	EXIT(p);
	CO_RETURN(f, p, f->ret);
	CO_END(f, p);
}

/**
 * memcg_slab_free_hook() - uncharge and count one freed slab object
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct memcg_slab_free_hook_frame: @objcg, @obj_size, @pgdat
 *
 * v5.13 and v6.0: obj_cgroup_uncharge(), then mod_objcg_state() of minus
 * the object's bytes; v6.16: one refill_obj_stock() doing both.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p); a drain may uncharge
 * pages up the hierarchy.
 */
int memcg_slab_free_hook(struct sim_proc *p, void *frame)
{
	struct memcg_slab_free_hook_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	if (mem_cgroup_is_root(ms, f->objcg->memcg) || ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	ENTER(p, KF_memcg_slab_free_hook);
	if (ms->k->obj_stock_version == OBJ_STOCK_V6_16) {
		ms->counts.uncharges++;
		CO_CALL(f, p, refill_obj_stock, .objcg = f->objcg,
			.nr_bytes = f->obj_size, .allow_uncharge = true,
			.nr_acct = -(int)f->obj_size, .pgdat = f->pgdat);
		goto out;
	}
	CO_CALL(f, p, obj_cgroup_uncharge, .objcg = f->objcg,
		.size = f->obj_size);
	CO_CALL(f, p, mod_objcg_state, .objcg = f->objcg, .pgdat = f->pgdat,
		.nr = -(int)f->obj_size);
out:
	EXIT(p);
	CO_END(f, p);
}

/* ---- folios ---- */

/**
 * charge_memcg() - charge a new folio
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct charge_memcg_frame: @memcg, @gfp, @nr_pages (the
 * 	folio's)
 *
 * try_charge() the folio's pages, then count the page-in on this CPU
 * (mem_cgroup_charge_statistics(), memcg_check_events()).
 *
 * Context: a coroutine on the simulated CPU co_cpu(p); may wait as try_charge()
 * does; the statistics run with simulated interrupts off.
 * Return: in p->ret, 0 or -ENOMEM.
 */
int charge_memcg(struct sim_proc *p, void *frame)
{
	struct charge_memcg_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	/* mem_cgroup_disabled(): nothing is charged or uncharged */
	if (ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	ENTER(p, KF_charge_memcg);
	CO_CALL(f, p, try_charge, .memcg = f->memcg, .gfp_mask = f->gfp,
		.nr_pages = f->nr_pages);
	f->ret = (int)p->ret;
	if (f->ret)
		goto out;
	/*
	 * css_get(); commit_charge() writes folio->memcg_data (the new
	 * folio's own line); then, interrupts off, this CPU's counters of
	 * the memcg.
	 */
	irq_save_restore(p); /* local_irq_disable() ... enable() */
	CO_CALL(f, p, mem_cgroup_charge_statistics, .memcg = f->memcg,
		.nr_pages = (int)f->nr_pages);
	CO_CALL(f, p, memcg_check_events, .memcg = f->memcg);
out:
	EXIT(p);
	CO_RETURN(f, p, f->ret);
	CO_END(f, p);
}

/**
 * uncharge_batch() - uncharge folios of one memcg together
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct uncharge_batch_frame: @ug, what uncharge_folio()
 * 	gathered
 *
 * One page_counter_uncharge() for the whole batch, then the page-outs on this
 * CPU's counters.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p); waits for the page
 * counters' lines; the statistics run with simulated interrupts off.
 */
int uncharge_batch(struct sim_proc *p, void *frame)
{
	struct uncharge_batch_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);
	struct uncharge_gather *ug = &f->ug;

	CO_BEGIN(f);
	/* mem_cgroup_disabled(): nothing is charged or uncharged */
	if (ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	ENTER(p, KF_uncharge_batch);
	ms->counts.uncharges++;
	/* SIM: the root's folios were never charged */
	if (ug->nr_memory && !mem_cgroup_is_root(ms, ug->memcg))
		CO_CALL(f, p, memcg_uncharge, .memcg = ug->memcg,
			.nr_pages = ug->nr_memory);
	irq_save_restore(p); /* local_irq_save() ... restore() */
	CO_CALL(f, p, __count_memcg_events, .memcg = ug->memcg,
		.idx = SIM_PGPGOUT, .count = (long)ug->pgpgout);
	/* __this_cpu_add(ug->memcg->vmstats_percpu->nr_page_events, ...) */
	CO_THIS_CPU_ADD_AT(f, this_cpu_vmstats(p, ug->memcg)->nr_page_events,
			   ug->nr_memory,
			   this_cpu_vmstats_field(p, ug->memcg,
						  PA_NR_PAGE_EVENTS, 0));
	CO_CALL(f, p, memcg_check_events, .memcg = ug->memcg);
	EXIT(p);
	CO_END(f, p);
}
