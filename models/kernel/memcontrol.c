// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of the charge paths of mm/memcontrol.c: Linux v6.0 (try_charge_memcg,
 * consume_stock, refill_stock, drain_stock, mem_cgroup_charge_skmem,
 * charge_memcg, uncharge_batch, the obj_cgroup stock) and v4.8
 * (memcg_kmem_charge_memcg/memcg_kmem_uncharge for kmem pages on v1).
 * The functions are in the kernel file's order; the statistics are in
 * memcontrol_stats.c, the SIM setup in memcg_sim.c. Theory of operation:
 * see memcontrol.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/kernel/memcontrol_internal.h"
#include "sim/error.h"
#include "sim/util.h"

static struct coh_field *stock_field(struct memcg_stock_pcp *stock, int m)
{
	return coh_object_field(stock->obj, (unsigned int)m);
}

/* ---- the per-CPU stock ---- */

/* The slot of @stock caching @memcg, or -1. */
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

/*
 * consume_stock() - take nr_pages from this CPU's stock if it caches
 * enough for memcg. Interrupts are off around it (local_lock_irqsave):
 * no shared-memory access, the profile's irq_save_restore cost.
 */
int consume_stock(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;
	struct memcg_sim *ms = f->ms;
	int slot;

	CO_BEGIN(f);
	ENTER(f, KF_consume_stock);
	f->ret = false;
	if (f->nr_pages > ms->k->charge_batch)
		goto out;
	irq_save_restore(f->cc);
	f->stock = &ms->stock[f->cc->cpu];
	/* if (memcg == stock->cached && stock->nr_pages >= nr_pages) */
	CO_AWAIT(f, coh_read(f->cc, stock_field(f->stock, STOCK_CACHED)));
	slot = stock_slot(ms, f->stock, f->memcg);
	if (slot < 0)
		goto out;
	f->i = (unsigned int)slot;
	CO_AWAIT(f, coh_read(f->cc, stock_field(f->stock, STOCK_NR_PAGES)));
	if (f->stock->nr_pages[f->i] >= f->nr_pages) {
		CO_AWAIT(f, coh_write(f->cc,
				      stock_field(f->stock, STOCK_NR_PAGES)));
		f->stock->nr_pages[f->i] -= f->nr_pages;
		f->ret = true;
	}
out:
	EXIT(f);
	CO_RETURN(f, p, f->ret);
	CO_END(f, p);
}

/*
 * drain_stock() - give slot i's pages back to its memcg's counters and
 * forget the memcg.
 */
static int drain_stock(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;
	struct memcg_sim *ms = f->ms;

	CO_BEGIN(f);
	ENTER(f, KF_drain_stock);
	f->stock = &ms->stock[f->cc->cpu];
	CO_AWAIT(f, coh_read(f->cc, stock_field(f->stock, STOCK_CACHED)));
	f->m = f->stock->cached[f->i];
	if (!f->m)
		goto out;
	CO_AWAIT(f, coh_read(f->cc, stock_field(f->stock, STOCK_NR_PAGES)));
	if (f->stock->nr_pages[f->i]) {
		f->batch = f->stock->nr_pages[f->i];
		ms->counts.drains++;
		ms->counts.pc_uncharges++;
		CO_CALL(f, p, page_counter_uncharge, .cc = f->cc, .counter = &f->m->memory,
			.nr_pages = f->batch);
		/* SIM: no memsw: swap accounting is v1-only and off here. */
		CO_AWAIT(f, coh_write(f->cc,
				      stock_field(f->stock, STOCK_NR_PAGES)));
		f->stock->nr_pages[f->i] = 0;
	}
	/* css_put(&old->css): a per-CPU reference count, CPU-local. */
	CO_AWAIT(f, coh_write(f->cc, stock_field(f->stock, STOCK_CACHED)));
	f->stock->cached[f->i] = NULL;
out:
	EXIT(f);
	CO_END(f, p);
}

/*
 * refill_stock() - put nr_pages charged to memcg into this CPU's stock;
 * drain it when it caches another memcg, or holds more than a batch.
 * With stock_memcgs > 1 (later kernels) a free slot is used, or one is
 * evicted.
 */
int refill_stock(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;
	struct memcg_sim *ms = f->ms;
	int slot;

	CO_BEGIN(f);
	ENTER(f, KF_refill_stock);
	irq_save_restore(f->cc);
	f->stock = &ms->stock[f->cc->cpu];
	CO_AWAIT(f, coh_read(f->cc, stock_field(f->stock, STOCK_CACHED)));
	slot = stock_slot(ms, f->stock, f->memcg);
	if (slot < 0) {
		/* reset if necessary */
		slot = stock_slot(ms, f->stock, NULL);
		if (slot < 0) {
			/* SIM: evict round robin, not at random */
			slot = (int)(f->stock->evict++ % ms->k->stock_memcgs);
		}
		f->i = (unsigned int)slot;
		CO_CALL(f, p, drain_stock, .ms = f->ms,
			.cc = f->cc, .i = f->i);
		/* css_get(&memcg->css); stock->cached = memcg; */
		CO_AWAIT(f, coh_write(f->cc,
				      stock_field(f->stock, STOCK_CACHED)));
		f->stock->cached[f->i] = f->memcg;
	} else {
		f->i = (unsigned int)slot;
	}
	CO_AWAIT(f, coh_write(f->cc, stock_field(f->stock, STOCK_NR_PAGES)));
	f->stock->nr_pages[f->i] += f->nr_pages;
	if (f->stock->nr_pages[f->i] > ms->k->charge_batch)
		CO_CALL(f, p, drain_stock, .ms = f->ms,
			.cc = f->cc, .i = f->i);
	EXIT(f);
	CO_END(f, p);
}

/* ---- reclaim ---- */

/*
 * try_to_free_mem_cgroup_pages() - SIM: reclaim is a cost per page
 * reclaimed: up to max(nr_pages, SWAP_CLUSTER_MAX) of the `reclaimable`
 * pages of memcg and its descendants are freed (uncharged up the
 * hierarchy) at reclaim_ns each. Returns the number reclaimed.
 */
static int try_to_free_mem_cgroup_pages(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;
	struct memcg_sim *ms = f->ms;

	CO_BEGIN(f);
	ENTER(f, KF_try_to_free_mem_cgroup_pages);
	f->batch = f->nr_pages > SWAP_CLUSTER_MAX ? f->nr_pages :
						    SWAP_CLUSTER_MAX;
	f->ret = 0;
	for (f->i = 0; f->i < ms->nr_memcgs && f->batch; f->i++) {
		struct mem_cgroup *m = &ms->memcgs[f->i], *a;
		unsigned int take;

		for (a = m; a && a != f->memcg; a = a->parent)
			;
		if (!a || !m->reclaimable)
			continue;
		take = m->reclaimable < f->batch ? (unsigned int)m->reclaimable :
						  f->batch;
		m->reclaimable -= take;
		m->nr_reclaimed += take;
		f->batch -= take;
		f->ret += take;
		f->m = m;
		coh_delay(f->cc, (sim_time_t)take * ms->reclaim_ps);
		CO_CALL(f, p, page_counter_uncharge, .cc = f->cc, .counter = &f->m->memory,
			.nr_pages = take);
	}
	ms->counts.reclaimed += (uint64_t)f->ret;
	EXIT(f);
	CO_RETURN(f, p, f->ret);
	CO_END(f, p);
}

/* ---- try_charge ---- */

static struct mem_cgroup *mem_cgroup_from_counter(struct memcg_sim *ms,
						  struct page_counter *c)
{
	unsigned int i;

	for (i = 0; i < ms->nr_memcgs; i++)
		if (&ms->memcgs[i].memory == c || &ms->memcgs[i].kmem == c)
			return &ms->memcgs[i];
	SIM_BUG_ON(1);
	return NULL;
}
static bool over_high_read(struct coh_cpu *cc, struct mem_cgroup *m, int step)
{
	switch (step) {
	case 0:
		return coh_read(cc, m->memory.f[PC_USAGE]);
	case 1:
		return coh_read(cc, m->memory.f[PC_HIGH]);
	case 2:
		return coh_read(cc, memcg_field(m, MEMCG_SWAP_USAGE));
	default:
		return coh_read(cc, memcg_field(m, MEMCG_SWAP_HIGH));
	}
}

static int try_charge_memcg(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;
	struct memcg_sim *ms = f->ms;
	CO_BEGIN(f);
	ENTER(f, KF_try_charge_memcg);
	f->start = NOW(f);
	ms->counts.charges++;
	f->batch = ms->k->charge_batch > f->nr_pages ? ms->k->charge_batch :
						       f->nr_pages;
	f->retries = MAX_RECLAIM_RETRIES;
	f->drained = false;
retry:
	CO_CALL(f, p, consume_stock, .ms = f->ms,
		.cc = f->cc, .memcg = f->memcg, .nr_pages = f->nr_pages);
	if (p->ret) {
		ms->counts.stock_hits++;
		f->ret = 0;
		goto out;
	}
	ms->counts.pc_try_charges++;
	CO_CALL(f, p, page_counter_try_charge, .cc = f->cc, .counter = &f->memcg->memory,
		.nr_pages = f->batch, .fail = &f->counter);
	if (p->ret)
		goto done_restock;
	f->over = mem_cgroup_from_counter(ms, f->counter);

	if (f->batch > f->nr_pages) {
		f->batch = f->nr_pages;
		goto retry;
	}
	/* !gfpflags_allow_blocking(gfp_mask): softirq, atomic */
	if (!(f->gfp & GFP_KERNEL))
		goto nomem;

	CO_CALL(f, p, try_to_free_mem_cgroup_pages, .ms = f->ms, .cc = f->cc, .memcg = f->over,
		.nr_pages = f->nr_pages);
	f->ret = p->ret;	/* nr_reclaimed */
	/* mem_cgroup_margin(mem_over_limit) >= nr_pages */
	CO_AWAIT(f, coh_read(f->cc, f->over->memory.f[PC_USAGE]));
	CO_AWAIT(f, coh_read(f->cc, f->over->memory.f[PC_MAX]));
	if (f->over->memory.max >= page_counter_read(&f->over->memory) &&
	    f->over->memory.max - page_counter_read(&f->over->memory) >=
		    f->nr_pages)
		goto retry;
	if (!f->drained) {
		/* SIM: drain_all_stock() schedules work on the other CPUs;
		 * not modelled, the retry happens all the same. */
		f->drained = true;
		goto retry;
	}
	if (f->ret && f->nr_pages <= (1u << PAGE_ALLOC_COSTLY_ORDER))
		goto retry;
	if (f->retries-- > 0)
		goto retry;
	/* SIM: no OOM killer. */
nomem:
	if (!(f->gfp & __GFP_NOFAIL)) {
		ms->counts.failures++;
		f->memcg->nr_failed++;
		f->ret = -ENOMEM;
		goto out;
	}
	/* force: */
	CO_CALL(f, p, page_counter_charge, .cc = f->cc, .counter = &f->memcg->memory,
		.nr_pages = f->nr_pages);
	f->ret = 0;
	goto out;

done_restock:
	if (f->batch > f->nr_pages)
		CO_CALL(f, p, refill_stock, .ms = f->ms,
			.cc = f->cc, .memcg = f->memcg,
			.nr_pages = f->batch - f->nr_pages);
	/*
	 * If the hierarchy is above the normal consumption range, the
	 * kernel schedules reclaim on return to user space: read usage and
	 * high (of memory and swap) at every level up to the root.
	 */
	KPROF_ENTER(f->cc->prof, KF_try_charge_memcg_high, NOW(f));
	for (f->m = f->memcg; f->m;) {
		for (f->i = 0; f->i < 4; f->i++)
			CO_AWAIT(f, over_high_read(f->cc, f->m, (int)f->i));
		if (page_counter_read(&f->m->memory) > f->m->memory.high)
			break;	/* SIM: the over-high reclaim is not modelled */
		/* memcg = parent_mem_cgroup(memcg): css.parent */
		CO_AWAIT(f, coh_read(f->cc, memcg_field(f->m,
							MEMCG_CSS_PARENT)));
		f->m = f->m->parent;
	}
	KPROF_EXIT(f->cc->prof, NOW(f));
	f->ret = 0;
out:
	CO_AWAIT(f, coh_fence(f->cc));
	sim_stat_add(&ms->charge_lat, (double)(NOW(f) - f->start) / 1000.0);
	EXIT(f);
	CO_RETURN(f, p, f->ret);
	CO_END(f, p);
}

/* try_charge() - the root memcg is never charged. */
int try_charge(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;

	CO_BEGIN(f);
	if (f->ms->k->memcg_disabled || mem_cgroup_is_root(f->ms, f->memcg))
		CO_RETURN(f, p, 0);
	CO_CALL(f, p, try_charge_memcg, .ms = f->ms,
		.cc = f->cc, .memcg = f->memcg, .nr_pages = f->nr_pages,
		.gfp = f->gfp);
	CO_RETURN(f, p, p->ret);
	CO_END(f, p);
}

/* ---- kmem pages (before v5.9) ---- */

/*
 * memcg_kmem_charge_page() - v4.8 memcg_kmem_charge_memcg(): try_charge()
 * the pages, then on cgroup v1 the legacy kmem counter too.
 */
int memcg_kmem_charge_page(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;

	CO_BEGIN(f);
	/* mem_cgroup_disabled(): nothing is charged or uncharged */
	if (f->ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	ENTER(f, KF_memcg_kmem_charge_page);
	CO_CALL(f, p, try_charge, .ms = f->ms,
		.cc = f->cc, .memcg = f->memcg, .nr_pages = f->nr_pages,
		.gfp = f->gfp);
	f->ret = p->ret;
	if (f->ret || mem_cgroup_is_root(f->ms, f->memcg))
		goto out;
	if (f->ms->k->kmem_accounting == KMEM_OBJECTS) {
		/*
		 * v5.9 on: obj_cgroup_charge_pages() -> memcg_account_kmem():
		 * MEMCG_KMEM, and on v1 the kmem counter charged without a
		 * limit check (page_counter_charge()).
		 */
		CO_CALL(f, p, mod_memcg_state, .ms = f->ms,
			.cc = f->cc, .memcg = f->memcg, .idx = SIM_MEMCG_KMEM,
			.val = f->nr_pages);
		if (f->ms->k->cgroup_version == 1)
			CO_CALL(f, p, page_counter_charge, .cc = f->cc,
				.counter = &f->memcg->kmem,
				.nr_pages = f->nr_pages);
		goto out;
	}
	if (f->ms->k->cgroup_version == 1) {
		f->ms->counts.pc_try_charges++;
		CO_CALL(f, p, page_counter_try_charge, .cc = f->cc,
			.counter = &f->memcg->kmem, .nr_pages = f->nr_pages,
			.fail = &f->counter);
		if (!p->ret) {
			/* cancel_charge(memcg, nr_pages) */
			f->ms->counts.pc_uncharges++;
			CO_CALL(f, p, page_counter_uncharge, .cc = f->cc,
				.counter = &f->memcg->memory,
				.nr_pages = f->nr_pages);
			f->ret = -ENOMEM;
		}
	}
out:
	EXIT(f);
	CO_RETURN(f, p, f->ret);
	CO_END(f, p);
}

/*
 * memcg_kmem_uncharge_page() - v4.8 memcg_kmem_uncharge(): the kmem
 * counter (v1), then memory, straight to the page counters: no stock.
 */
int memcg_kmem_uncharge_page(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;

	CO_BEGIN(f);
	/* mem_cgroup_disabled(): nothing is charged or uncharged */
	if (f->ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	ENTER(f, KF_memcg_kmem_uncharge_page);
	f->ms->counts.uncharges++;
	if (mem_cgroup_is_root(f->ms, f->memcg))
		goto out;
	if (f->ms->k->kmem_accounting == KMEM_OBJECTS) {
		/* v5.9 on: obj_cgroup_uncharge_pages(): memcg_account_kmem(),
		 * then refill_stock() */
		CO_CALL(f, p, mod_memcg_state, .ms = f->ms,
			.cc = f->cc, .memcg = f->memcg, .idx = SIM_MEMCG_KMEM,
			.val = -(long)f->nr_pages);
		if (f->ms->k->cgroup_version == 1) {
			f->ms->counts.pc_uncharges++;
			CO_CALL(f, p, page_counter_uncharge, .cc = f->cc,
				.counter = &f->memcg->kmem,
				.nr_pages = f->nr_pages);
		}
		CO_CALL(f, p, refill_stock, .ms = f->ms,
			.cc = f->cc, .memcg = f->memcg,
			.nr_pages = f->nr_pages);
		goto out;
	}
	if (f->ms->k->cgroup_version == 1) {
		f->ms->counts.pc_uncharges++;
		CO_CALL(f, p, page_counter_uncharge, .cc = f->cc, .counter = &f->memcg->kmem,
			.nr_pages = f->nr_pages);
	}
	f->ms->counts.pc_uncharges++;
	CO_CALL(f, p, page_counter_uncharge, .cc = f->cc, .counter = &f->memcg->memory,
		.nr_pages = f->nr_pages);
out:
	EXIT(f);
	CO_END(f, p);
}

/* ---- kmem objects (v5.9 on): the obj_cgroup stock ---- */

static struct coh_field *objcg_field(struct memcg_sim *ms,
				     struct obj_cgroup *objcg)
{
	char name[40];

	if (!objcg->obj) {
		snprintf(name, sizeof(name), "objcg(%.28s)",
			 objcg->memcg->obj->name);
		objcg->obj = coh_object_create(ms->coh, name,
					       &ms->objcg_layout, 0);
	}
	return coh_object_field(objcg->obj, 0);
}

/* obj_cgroup_uncharge_pages(): memcg_account_kmem(-n) and refill_stock() */
static int obj_cgroup_uncharge_pages(struct sim_proc *p, void *frame)
{
	struct obj_frame *f = frame;

	CO_BEGIN(f);
	CO_CALL(f, p, mod_memcg_state, .ms = f->ms,
		.cc = f->cc, .memcg = f->objcg->memcg, .idx = SIM_MEMCG_KMEM,
		.val = -(long)f->nr_pages);
	if (f->ms->k->cgroup_version == 1) {
		f->ms->counts.pc_uncharges++;
		CO_CALL(f, p, page_counter_uncharge, .cc = f->cc, .counter = &f->objcg->memcg->kmem,
			.nr_pages = f->nr_pages);
	}
	CO_CALL(f, p, refill_stock, .ms = f->ms,
		.cc = f->cc, .memcg = f->objcg->memcg,
		.nr_pages = f->nr_pages);
	CO_END(f, p);
}

static int drain_obj_stock(struct sim_proc *p, void *frame)
{
	struct obj_frame *f = frame;

	CO_BEGIN(f);
	ENTER(f, KF_drain_obj_stock);
	f->stock = &f->ms->stock[f->cc->cpu];
	CO_AWAIT(f, coh_read(f->cc, stock_field(f->stock, STOCK_CACHED_OBJCG)));
	f->objcg = f->stock->cached_objcg;
	if (!f->objcg)
		goto out;
	CO_AWAIT(f, coh_read(f->cc, stock_field(f->stock, STOCK_NR_BYTES)));
	if (f->stock->nr_bytes) {
		f->nr_pages = f->stock->nr_bytes >> PAGE_SHIFT;
		f->nr_bytes = f->stock->nr_bytes & (PAGE_SIZE - 1);
		if (f->nr_pages)
			CO_CALL(f, p, obj_cgroup_uncharge_pages, .ms = f->ms, .cc = f->cc,
				.objcg = f->objcg, .nr_pages = f->nr_pages);
		/* the leftover goes to the memcg-wide count, even 0 */
		CO_AWAIT(f, coh_rmw(f->cc, objcg_field(f->ms, f->objcg)));
		f->objcg->nr_charged_bytes += f->nr_bytes;
		CO_AWAIT(f, coh_write(f->cc,
				      stock_field(f->stock, STOCK_NR_BYTES)));
		f->stock->nr_bytes = 0;
	}
	CO_AWAIT(f, coh_write(f->cc, stock_field(f->stock, STOCK_CACHED_OBJCG)));
	f->stock->cached_objcg = NULL;
out:
	EXIT(f);
	CO_END(f, p);
}

/* refill_obj_stock(objcg, size, allow_uncharge = ok) */
static int refill_obj_stock(struct sim_proc *p, void *frame)
{
	struct obj_frame *f = frame;

	CO_BEGIN(f);
	ENTER(f, KF_refill_obj_stock);
	irq_save_restore(f->cc);
	f->stock = &f->ms->stock[f->cc->cpu];
	CO_AWAIT(f, coh_read(f->cc, stock_field(f->stock, STOCK_CACHED_OBJCG)));
	if (f->stock->cached_objcg != f->objcg) {
		CO_CALL(f, p, drain_obj_stock, .ms = f->ms,
			.cc = f->cc);
		/* stock->nr_bytes = atomic_read(&objcg->nr_charged_bytes)
		 *	? atomic_xchg(&objcg->nr_charged_bytes, 0) : 0; */
		CO_AWAIT(f, coh_read(f->cc, objcg_field(f->ms, f->objcg)));
		f->nr_bytes = 0;
		if (f->objcg->nr_charged_bytes) {
			CO_AWAIT(f, coh_rmw(f->cc, objcg_field(f->ms, f->objcg)));
			f->nr_bytes = (unsigned int)f->objcg->nr_charged_bytes;
			f->objcg->nr_charged_bytes = 0;
		}
		CO_AWAIT(f, coh_write(f->cc, stock_field(f->stock,
							 STOCK_CACHED_OBJCG)));
		f->stock->cached_objcg = f->objcg;
		f->stock->nr_bytes = f->nr_bytes;
		/* allow uncharge when objcg changes */
		f->ok = true;
	}
	CO_AWAIT(f, coh_write(f->cc, stock_field(f->stock, STOCK_NR_BYTES)));
	f->stock->nr_bytes += f->size;
	f->nr_pages = 0;
	if (f->ok && f->stock->nr_bytes > PAGE_SIZE) {
		f->nr_pages = f->stock->nr_bytes >> PAGE_SHIFT;
		f->stock->nr_bytes &= PAGE_SIZE - 1;
	}
	if (f->nr_pages)
		CO_CALL(f, p, obj_cgroup_uncharge_pages, .ms = f->ms, .cc = f->cc, .objcg = f->objcg,
			.nr_pages = f->nr_pages);
	EXIT(f);
	CO_END(f, p);
}

int obj_cgroup_charge(struct sim_proc *p, void *frame)
{
	struct obj_frame *f = frame;

	CO_BEGIN(f);
	/* get_obj_cgroup_from_current(): the root memcg has no objcg */
	if (mem_cgroup_is_root(f->ms, f->objcg->memcg) ||
	    f->ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	ENTER(f, KF_obj_cgroup_charge);
	/* consume_obj_stock() */
	KPROF_ENTER(f->cc->prof, KF_consume_obj_stock, NOW(f));
	irq_save_restore(f->cc);
	f->stock = &f->ms->stock[f->cc->cpu];
	CO_AWAIT(f, coh_read(f->cc, stock_field(f->stock, STOCK_CACHED_OBJCG)));
	if (f->stock->cached_objcg == f->objcg) {
		CO_AWAIT(f, coh_read(f->cc, stock_field(f->stock,
							STOCK_NR_BYTES)));
		if (f->stock->nr_bytes >= f->size) {
			CO_AWAIT(f, coh_write(f->cc,
					      stock_field(f->stock,
							  STOCK_NR_BYTES)));
			f->stock->nr_bytes -= f->size;
			KPROF_EXIT(f->cc->prof, NOW(f));
			goto out;
		}
	}
	KPROF_EXIT(f->cc->prof, NOW(f));
	f->nr_pages = f->size >> PAGE_SHIFT;
	f->nr_bytes = f->size & (PAGE_SIZE - 1);
	if (f->nr_bytes)
		f->nr_pages += 1;
	/* obj_cgroup_charge_pages(): try_charge_memcg + memcg_account_kmem */
	CO_CALL(f, p, try_charge, .ms = f->ms,
		.cc = f->cc, .memcg = f->objcg->memcg,
		.nr_pages = f->nr_pages, .gfp = GFP_KERNEL);
	if (p->ret)
		goto out;
	if (f->ms->k->cgroup_version == 1) {
		f->ms->counts.pc_try_charges++;
		CO_CALL(f, p, page_counter_charge, .cc = f->cc, .counter = &f->objcg->memcg->kmem,
			.nr_pages = f->nr_pages);
	}
	CO_CALL(f, p, mod_memcg_state, .ms = f->ms,
		.cc = f->cc, .memcg = f->objcg->memcg, .idx = SIM_MEMCG_KMEM,
		.val = f->nr_pages);
	if (f->nr_bytes)
		CO_CALL(f, p, refill_obj_stock, .ms = f->ms,
			.cc = f->cc, .objcg = f->objcg,
			.size = (unsigned int)(PAGE_SIZE - f->nr_bytes),
			.ok = false);
out:
	EXIT(f);
	CO_END(f, p);
}

int obj_cgroup_uncharge(struct sim_proc *p, void *frame)
{
	struct obj_frame *f = frame;

	CO_BEGIN(f);
	if (mem_cgroup_is_root(f->ms, f->objcg->memcg) ||
	    f->ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	ENTER(f, KF_obj_cgroup_uncharge);
	f->ms->counts.uncharges++;
	CO_CALL(f, p, refill_obj_stock, .ms = f->ms,
		.cc = f->cc, .objcg = f->objcg, .size = f->size, .ok = true);
	EXIT(f);
	CO_END(f, p);
}

/* ---- folios ---- */

int charge_memcg(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;

	CO_BEGIN(f);
	/* mem_cgroup_disabled(): nothing is charged or uncharged */
	if (f->ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	ENTER(f, KF_charge_memcg);
	CO_CALL(f, p, try_charge, .ms = f->ms,
		.cc = f->cc, .memcg = f->memcg, .nr_pages = f->nr_pages,
		.gfp = f->gfp);
	f->ret = p->ret;
	if (f->ret)
		goto out;
	/*
	 * commit_charge() writes folio->memcg_data (the new folio's own
	 * line); mem_cgroup_charge_statistics() and memcg_check_events()
	 * update this CPU's counters of the memcg.
	 */
	CO_CALL(f, p, mem_cgroup_charge_statistics, .ms = f->ms, .cc = f->cc, .memcg = f->memcg, .idx = SIM_PGPGIN,
		.val = 1, .nr_pages = f->nr_pages);
out:
	EXIT(f);
	CO_RETURN(f, p, f->ret);
	CO_END(f, p);
}

int uncharge_batch(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;

	CO_BEGIN(f);
	/* mem_cgroup_disabled(): nothing is charged or uncharged */
	if (f->ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	ENTER(f, KF_uncharge_batch);
	f->ms->counts.uncharges++;
	if (f->nr_pages && !mem_cgroup_is_root(f->ms, f->memcg)) {
		f->ms->counts.pc_uncharges++;
		CO_CALL(f, p, page_counter_uncharge, .cc = f->cc, .counter = &f->memcg->memory,
			.nr_pages = f->nr_pages);
	}
	/*
	 * __count_memcg_events(PGPGOUT, ug->pgpgout), nr_page_events,
	 * memcg_check_events(); the model's folios are single pages, so
	 * pgpgout, the folio count, is nr_pages
	 */
	CO_CALL(f, p, mem_cgroup_charge_statistics, .ms = f->ms, .cc = f->cc, .memcg = f->memcg, .idx = SIM_PGPGOUT,
		.val = f->nr_pages, .nr_pages = f->nr_pages);
	EXIT(f);
	CO_END(f, p);
}

/* ---- socket memory ---- */

int mem_cgroup_charge_skmem(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;

	CO_BEGIN(f);
	ENTER(f, KF_mem_cgroup_charge_skmem);
	/* SIM: cgroup v2 only; v1's tcpmem counter is not modelled. */
	CO_CALL(f, p, try_charge, .ms = f->ms,
		.cc = f->cc, .memcg = f->memcg, .nr_pages = f->nr_pages,
		.gfp = f->gfp);
	if (p->ret == 0) {
		CO_CALL(f, p, mod_memcg_state, .ms = f->ms, .cc = f->cc, .memcg = f->memcg,
			.idx = SIM_MEMCG_SOCK, .val = f->nr_pages);
		f->memcg->sock_pages += f->nr_pages;
		f->ret = true;
		goto out;
	}
	/* over the limit: nothing charged (v5.15 on); the caller decides */
	f->ret = false;
out:
	EXIT(f);
	CO_RETURN(f, p, f->ret);
	CO_END(f, p);
}

int mem_cgroup_uncharge_skmem(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;

	CO_BEGIN(f);
	ENTER(f, KF_mem_cgroup_uncharge_skmem);
	f->ms->counts.uncharges++;
	CO_CALL(f, p, mod_memcg_state, .ms = f->ms,
		.cc = f->cc, .memcg = f->memcg, .idx = SIM_MEMCG_SOCK,
		.val = -(long)f->nr_pages);
	f->memcg->sock_pages -= f->nr_pages;
	if (!mem_cgroup_is_root(f->ms, f->memcg))
		CO_CALL(f, p, refill_stock, .ms = f->ms,
			.cc = f->cc, .memcg = f->memcg,
			.nr_pages = f->nr_pages);
	EXIT(f);
	CO_END(f, p);
}

int mem_cgroup_under_socket_pressure(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;

	CO_BEGIN(f);
	ENTER(f, KF_mem_cgroup_under_socket_pressure);
	/* cgroup v2: any level's socket_pressure deadline in the future */
	for (f->m = f->memcg; f->m;) {
		CO_AWAIT(f, coh_read(f->cc, memcg_field(f->m,
							MEMCG_SOCKET_PRESSURE)));
		CO_AWAIT(f, coh_read(f->cc, memcg_field(f->m,
							MEMCG_CSS_PARENT)));
		f->m = f->m->parent;
	}
	EXIT(f);
	CO_RETURN(f, p, false);
	CO_END(f, p);
}
