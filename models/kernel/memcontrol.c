// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of the charge paths of mm/memcontrol.c: Linux v6.0 (try_charge_memcg,
 * consume_stock, refill_stock, drain_stock, mem_cgroup_charge_skmem,
 * charge_memcg, uncharge_batch, the obj_cgroup stock) and v4.8
 * (memcg_kmem_charge_memcg/memcg_kmem_uncharge for kmem pages on v1).
 * Theory of operation: see memcontrol.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/kernel/kprof.h"
#include "models/kernel/memcontrol.h"
#include "models/kernel/pahole.h"
#include "sim/error.h"
#include "sim/util.h"

/* The stock's members, all on its CPU's own line. */
enum { STOCK_CACHED, STOCK_NR_PAGES, STOCK_CACHED_OBJCG, STOCK_NR_BYTES };

static const struct coh_layout_field stock_fields[] = {
	{ "cached", 0, 8 },
	{ "nr_pages", 8, 4 },
	{ "cached_objcg", 16, 8 },
	{ "nr_bytes", 32, 4 },
};

/* pgdat->per_cpu_nodestats: this CPU's s8 diffs of the node items */
static const struct coh_layout_field node_pcp_fields[] = {
	{ "vm_node_stat_diff", 0, 48 },
};

/* DEFINE_PER_CPU(unsigned int, stats_updates) (v6.0 to v6.7) */
static const struct coh_layout_field pcpu_stats_fields[] = {
	{ "stats_updates", 0, 4 },
};

static const struct coh_layout_field global_fields[] = {
	{ "counter", 0, 4 },
};

static const struct coh_layout_field objcg_fields[] = {
	{ "nr_charged_bytes", 24, 4 },
};


static void memcg_stats_init(struct memcg_sim *ms);
static void memcg_stats_free(struct memcg_sim *ms);

/* ---- building the memcgs ---- */

static unsigned int round_up(unsigned int x, unsigned int a)
{
	return (x + a - 1) / a * a;
}

/*
 * The layout of struct mem_cgroup as far as the model touches it: the
 * object starts on a line boundary; css.parent and id are the 16 bytes
 * before `memory` (v6.0: css is 200 bytes, id 8, so memory is at 208 = 16
 * into a line); then memory, swap (memsw on v1) and kmem page_counters.
 */
static void memcg_layout_build(struct memcg_sim *ms, unsigned int mo)
{
	const struct page_counter_layout *pcl = &ms->pcl;
	unsigned int m = mo >= 16 ? mo : mo + 64;
	unsigned int stride = round_up(pcl->size, pcl->align);
	unsigned int nr = NR_MEMCG_MEMBERS + 2 * NR_PC_MEMBERS, i, n = 0;
	struct coh_layout_field *fl = calloc(nr, sizeof(*fl));

	/* "memory.usage" ... "kmem.parent": the page_counter names, prefixed */
	for (i = 0; i < NR_PC_MEMBERS; i++) {
		snprintf(ms->member_names[0][i], sizeof(ms->member_names[0][i]),
			 "memory.%s", page_counter_member_names[i]);
		snprintf(ms->member_names[1][i], sizeof(ms->member_names[1][i]),
			 "kmem.%s", page_counter_member_names[i]);
	}
	SIM_BUG_ON(!fl);
	fl[n++] = (struct coh_layout_field){ "css.parent", m - 16, 8 };
	fl[n++] = (struct coh_layout_field){ "id", m - 8, 8 };
	fl[n++] = (struct coh_layout_field){
		"swap.usage", m + stride + pcl->offset[PC_USAGE], 8 };
	fl[n++] = (struct coh_layout_field){
		"swap.high", m + stride + pcl->offset[PC_HIGH], 8 };
	/*
	 * socket_pressure sits far into the struct, among read-mostly
	 * members (after the statistics): SIM: a line of its own.
	 */
	fl[n++] = (struct coh_layout_field){
		"socket_pressure", round_up(m + 3 * stride, 64), 8 };
	for (i = 0; i < NR_PC_MEMBERS; i++)
		fl[n++] = (struct coh_layout_field){ ms->member_names[0][i],
						     m + pcl->offset[i], 8 };
	for (i = 0; i < NR_PC_MEMBERS; i++)
		fl[n++] = (struct coh_layout_field){
			ms->member_names[1][i], m + 2 * stride + pcl->offset[i],
			8 };
	ms->memcg_fields = fl;
	ms->memcg_layout = (struct coh_layout){
		.name = "mem_cgroup", .size = round_up(m + 3 * stride, 64) + 64,
		.nr_fields = n, .fields = fl,
	};
}

static int layout_resolve(struct memcg_sim *ms, const struct kernel_config *k)
{
	switch (k->page_counter_layout) {
	case PC_LAYOUT_V6_0:
		ms->pcl = page_counter_layout_v6_0;
		break;
	case PC_LAYOUT_V6_1:
		ms->pcl = page_counter_layout_v6_1;
		break;
	case PC_LAYOUT_CUSTOM:
	case PC_LAYOUT_PAHOLE:
		ms->pcl = k->pc_layout;
		break;
	}
	return 0;
}

static void page_counter_place(struct page_counter *pc, struct coh_object *obj,
			       unsigned int first)
{
	unsigned int i;

	for (i = 0; i < NR_PC_MEMBERS; i++)
		pc->f[i] = coh_object_field(obj, first + i);
}

struct memcg_sim *memcg_sim_create(const struct kernel_config *k,
				   const struct cgroup_tree *tree,
				   struct coh *coh, unsigned int nr_cpus)
{
	struct memcg_sim *ms = calloc(1, sizeof(*ms));
	unsigned int i, mo;
	char name[40];

	SIM_BUG_ON(!ms);
	ms->k = k;
	ms->coh = coh;
	ms->nr_cpus = nr_cpus;
	layout_resolve(ms, k);
	mo = k->memory_offset >= 0 ? (unsigned int)k->memory_offset :
	     ms->pcl.align == 64 ? 0 : 16;
	memcg_layout_build(ms, mo);
	ms->stock_layout = (struct coh_layout){ "memcg_stock_pcp", 64,
		ARRAY_SIZE(stock_fields), stock_fields };
	ms->objcg_layout = (struct coh_layout){ "obj_cgroup", 64,
		ARRAY_SIZE(objcg_fields), objcg_fields };
	ms->pcpu_stats_layout = (struct coh_layout){ "percpu", 64,
		ARRAY_SIZE(pcpu_stats_fields), pcpu_stats_fields };
	ms->global_layout = (struct coh_layout){ "atomic_t", 64,
		ARRAY_SIZE(global_fields), global_fields };
	ms->reclaim_ps = k->reclaim_ps;
	sim_stat_init(&ms->charge_lat);

	ms->nr_memcgs = tree->nr;
	ms->memcgs = calloc(tree->nr, sizeof(*ms->memcgs));
	SIM_BUG_ON(!ms->memcgs);
	for (i = 0; i < tree->nr; i++) {
		const struct cgroup_config *cg = &tree->cg[i];
		struct mem_cgroup *memcg = &ms->memcgs[i];
		struct mem_cgroup *parent =
			cg->parent >= 0 ? &ms->memcgs[cg->parent] : NULL;
		struct mem_cgroup *pc_parent;
		const char *base = strrchr(cg->path, '/');

		memcg->id = i;
		memcg->path = cg->path;
		memcg->parent = parent;
		snprintf(name, sizeof(name), "memcg(%s)",
			 base && base[1] ? base + 1 : "/");
		memcg->obj = coh_object_create(coh, name, &ms->memcg_layout, 0);
		/*
		 * SIM: on cgroup v1 the root's use_hierarchy is 0 by default
		 * (v4.x), so a top-level memcg's counters have no parent.
		 */
		if (k->cgroup_version == 1 && parent && !parent->parent)
			pc_parent = NULL;
		else
			pc_parent = parent;
		page_counter_init(&memcg->memory,
				  pc_parent ? &pc_parent->memory : NULL, NULL);
		page_counter_place(&memcg->memory, memcg->obj,
				   NR_MEMCG_MEMBERS);
		memcg->memory.protected_if_changed =
			k->protected_usage_update == PROTECTED_IF_CHANGED;
		memcg->memory.min = cg->min >> PAGE_SHIFT;
		memcg->memory.low = cg->low >> PAGE_SHIFT;
		if (cg->high != UINT64_MAX)
			memcg->memory.high = cg->high >> PAGE_SHIFT;
		if (cg->max != UINT64_MAX)
			memcg->memory.max = cg->max >> PAGE_SHIFT;
		memcg->reclaimable = cg->reclaimable >> PAGE_SHIFT;
		page_counter_init(&memcg->kmem,
				  pc_parent ? &pc_parent->kmem : NULL, NULL);
		page_counter_place(&memcg->kmem, memcg->obj,
				   NR_MEMCG_MEMBERS + NR_PC_MEMBERS);
		/* v1's kmem counter has no protection (memcg_online_kmem) */
		memcg->kmem.protection_support = false;
		memcg->objcg.memcg = memcg;
	}
	ms->stock = calloc(nr_cpus, sizeof(*ms->stock));
	ms->pcpu_stats = calloc(nr_cpus, sizeof(*ms->pcpu_stats));
	ms->stats_updates = calloc(nr_cpus, sizeof(*ms->stats_updates));
	SIM_BUG_ON(!ms->stock || !ms->pcpu_stats || !ms->stats_updates);
	ms->flush_threshold = coh_object_create(coh, "stats_flush_threshold",
						&ms->global_layout, 0);
	for (i = 0; i < nr_cpus; i++) {
		snprintf(name, sizeof(name), "memcg_stock@cpu%u", i);
		ms->stock[i].obj = coh_object_create(coh, name,
						     &ms->stock_layout, 0);
		snprintf(name, sizeof(name), "stats_updates@cpu%u", i);
		ms->pcpu_stats[i] = coh_object_create(coh, name,
						      &ms->pcpu_stats_layout, 0);
	}
	memcg_stats_init(ms);
	return ms;
}

void memcg_sim_free(struct memcg_sim *ms)
{
	if (!ms)
		return;
	memcg_stats_free(ms);
	free(ms->memcgs);
	free(ms->stock);
	free(ms->pcpu_stats);
	free(ms->stats_updates);
	free(ms->memcg_fields);
	sim_stat_destroy(&ms->charge_lat);
	free(ms);
}

void memcg_sim_reset_counts(struct memcg_sim *ms)
{
	memset(&ms->counts, 0, sizeof(ms->counts));
	sim_stat_reset(&ms->charge_lat);
	sim_stat_reset(&ms->flush_lat);
	sim_stat_reset(&ms->read_lat);
	sim_stat_reset(&ms->pass_lat);
}

struct mem_cgroup *memcg_sim_find(struct memcg_sim *ms, const char *path)
{
	unsigned int i;

	for (i = 0; i < ms->nr_memcgs; i++)
		if (!strcmp(ms->memcgs[i].path, path))
			return &ms->memcgs[i];
	return NULL;
}

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

/* ---- helpers ---- */

#define NOW(f) ((f)->cc->proc->now)
#define ENTER(f, id) KPROF_ENTER((f)->cc->prof, (id), NOW(f))
#define EXIT(f) KPROF_EXIT((f)->cc->prof, NOW(f))

static struct coh_field *memcg_field(struct mem_cgroup *memcg,
				     enum memcg_member m)
{
	return coh_object_field(memcg->obj, m);
}

static struct coh_field *stock_field(struct memcg_stock_pcp *stock, int m)
{
	return coh_object_field(stock->obj, (unsigned int)m);
}

/*
 * local_lock_irqsave()/local_irq_save() and the matching restore: no
 * shared memory, a fixed CPU cost from the profile (irq_save_restore;
 * 0 when the profile has none).
 */
static void irq_save_restore(struct coh_cpu *cc)
{
	coh_delay(cc, coh_machine(cc->coh)->irq_save_restore_ps);
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

/* ---- statistics: where the kernel keeps them ---- */

/*
 * Positions in enum node_stat_item (doc/memcg-stats.md 1.1) and, after
 * the node items, in enum memcg_stat_item (1.2).
 */
enum {
	K_NR_INACTIVE_ANON = 0, K_NR_ACTIVE_ANON, K_NR_INACTIVE_FILE,
	K_NR_ACTIVE_FILE, K_NR_UNEVICTABLE, K_NR_SLAB_RECLAIMABLE_B,
	K_NR_SLAB_UNRECLAIMABLE_B,
	K_WORKINGSET_REFAULT_ANON = 10, K_WORKINGSET_REFAULT_FILE,
	K_WORKINGSET_ACTIVATE_ANON, K_WORKINGSET_ACTIVATE_FILE,
	K_WORKINGSET_RESTORE_ANON, K_WORKINGSET_RESTORE_FILE,
	K_WORKINGSET_NODERECLAIM,
	K_NR_ANON_MAPPED = 17, K_NR_FILE_MAPPED, K_NR_FILE_PAGES,
	K_NR_FILE_DIRTY, K_NR_WRITEBACK,
	K_NR_SHMEM = 23, K_NR_SHMEM_THPS, K_NR_FILE_THPS = 26,
	K_NR_ANON_THPS = 28,
	K_NR_KERNEL_STACK_KB = 37, K_NR_PAGETABLE, K_NR_SECONDARY_PAGETABLE,
	K_NR_SWAPCACHE,
};
#define K_MEMCG 1000	/* + enum memcg_stat_item */
enum {
	K_MEMCG_SWAP = K_MEMCG, K_MEMCG_SOCK, K_MEMCG_PERCPU_B,
	K_MEMCG_VMALLOC, K_MEMCG_KMEM, K_MEMCG_ZSWAP_B, K_MEMCG_ZSWAPPED,
};

static const int sim_state_k[NR_SIM_STATE] = {
	[SIM_NR_INACTIVE_ANON] = K_NR_INACTIVE_ANON,
	[SIM_NR_ANON_MAPPED] = K_NR_ANON_MAPPED,
	[SIM_MEMCG_SOCK] = K_MEMCG_SOCK,
	[SIM_MEMCG_KMEM] = K_MEMCG_KMEM,
};

/* A kernel state item's index in the memcg state arrays. */
static unsigned int state_index(const struct memcg_sim *ms, int k)
{
	unsigned int s = ms->k->lruvec_stat_items;
	unsigned int i = k >= K_MEMCG ? s + (unsigned int)(k - K_MEMCG) :
			 (unsigned int)k;

	/* SIM: a smaller array than the kernel's keeps its last slot */
	if (k < K_MEMCG && i >= s)
		i = s - 1;
	return i < ms->k->memcg_stat_items ? i : ms->k->memcg_stat_items - 1;
}

/* The index of SIM_* state item @idx in the kernel's state arrays. */
static unsigned int memcg_stat_index(const struct memcg_sim *ms, int idx)
{
	return state_index(ms, sim_state_k[idx]);
}

/*
 * Events: v6.0 keeps every enum vm_event_item per CPU; v6.1 on keeps
 * memcg_vm_event_stat[] (memcg_events_index()). The v6.0 positions past
 * PGSCAN_DIRECT are approximate [doc 1.3]: they only decide which line
 * a read touches.
 */
enum {
	EV_PGPGIN, EV_PGPGOUT, EV_PGFAULT, EV_PGMAJFAULT, EV_PGREFILL,
	EV_PGACTIVATE, EV_PGDEACTIVATE, EV_PGLAZYFREE, EV_PGLAZYFREED,
	EV_PGSCAN_KSWAPD, EV_PGSCAN_DIRECT, EV_PGSCAN_KHUGEPAGED,
	EV_PGSTEAL_KSWAPD, EV_PGSTEAL_DIRECT, EV_PGSTEAL_KHUGEPAGED,
	EV_ZSWPIN, EV_ZSWPOUT, EV_ZSWPWB, EV_THP_FAULT_ALLOC,
	EV_THP_COLLAPSE_ALLOC, EV_THP_SWPOUT, EV_THP_SWPOUT_FALLBACK,
	NR_EV,
};

static const int ev_v6_0[NR_EV] = {
	[EV_PGPGIN] = 0, [EV_PGPGOUT] = 1, [EV_PGACTIVATE] = 17,
	[EV_PGDEACTIVATE] = 18, [EV_PGLAZYFREE] = 19, [EV_PGFAULT] = 20,
	[EV_PGMAJFAULT] = 21, [EV_PGLAZYFREED] = 22, [EV_PGREFILL] = 23,
	[EV_PGSTEAL_KSWAPD] = 25, [EV_PGSTEAL_DIRECT] = 26,
	[EV_PGSCAN_KSWAPD] = 29, [EV_PGSCAN_DIRECT] = 30,
	[EV_THP_FAULT_ALLOC] = 75, [EV_THP_COLLAPSE_ALLOC] = 78,
	[EV_ZSWPIN] = 104, [EV_ZSWPOUT] = 105,
	/* not in v6.0 */
	[EV_PGSCAN_KHUGEPAGED] = -1, [EV_PGSTEAL_KHUGEPAGED] = -1,
	[EV_ZSWPWB] = -1, [EV_THP_SWPOUT] = -1, [EV_THP_SWPOUT_FALLBACK] = -1,
};

/* memcg_vm_event_stat[] of v6.6 (19 entries) and v6.8 (22) */
static const int ev_v6_6[NR_EV] = {
	[EV_PGPGIN] = 0, [EV_PGPGOUT] = 1, [EV_PGSCAN_KSWAPD] = 2,
	[EV_PGSCAN_DIRECT] = 3, [EV_PGSCAN_KHUGEPAGED] = 4,
	[EV_PGSTEAL_KSWAPD] = 5, [EV_PGSTEAL_DIRECT] = 6,
	[EV_PGSTEAL_KHUGEPAGED] = 7, [EV_PGFAULT] = 8, [EV_PGMAJFAULT] = 9,
	[EV_PGREFILL] = 10, [EV_PGACTIVATE] = 11, [EV_PGDEACTIVATE] = 12,
	[EV_PGLAZYFREE] = 13, [EV_PGLAZYFREED] = 14, [EV_ZSWPIN] = 15,
	[EV_ZSWPOUT] = 16, [EV_THP_FAULT_ALLOC] = 17,
	[EV_THP_COLLAPSE_ALLOC] = 18, [EV_ZSWPWB] = -1, [EV_THP_SWPOUT] = -1,
	[EV_THP_SWPOUT_FALLBACK] = -1,
};

static const int ev_v6_8[NR_EV] = {
	[EV_PGPGIN] = 0, [EV_PGPGOUT] = 1, [EV_PGSCAN_KSWAPD] = 2,
	[EV_PGSCAN_DIRECT] = 3, [EV_PGSCAN_KHUGEPAGED] = 4,
	[EV_PGSTEAL_KSWAPD] = 5, [EV_PGSTEAL_DIRECT] = 6,
	[EV_PGSTEAL_KHUGEPAGED] = 7, [EV_PGFAULT] = 8, [EV_PGMAJFAULT] = 9,
	[EV_PGREFILL] = 10, [EV_PGACTIVATE] = 11, [EV_PGDEACTIVATE] = 12,
	[EV_PGLAZYFREE] = 13, [EV_PGLAZYFREED] = 14, [EV_ZSWPIN] = 15,
	[EV_ZSWPOUT] = 16, [EV_ZSWPWB] = 17, [EV_THP_FAULT_ALLOC] = 18,
	[EV_THP_COLLAPSE_ALLOC] = 19, [EV_THP_SWPOUT] = 20,
	[EV_THP_SWPOUT_FALLBACK] = 21,
};

static const int sim_event_ev[NR_SIM_EVENTS] = {
	[SIM_PGPGIN] = EV_PGPGIN,
	[SIM_PGPGOUT] = EV_PGPGOUT,
	[SIM_PGFAULT] = EV_PGFAULT,
};

/* An event's index in the events arrays, or -1 if not kept. */
static int event_index(const struct memcg_sim *ms, int ev)
{
	const int *map = ms->k->stats_version == STATS_V6_0 ? ev_v6_0 :
			 ms->k->stats_version == STATS_V6_6 ? ev_v6_6 :
							      ev_v6_8;
	int i = map[ev];

	if (i >= (int)ms->k->memcg_event_items)
		i = (int)ms->k->memcg_event_items - 1;
	return i;
}

/* The members of each statistics struct, as arrays of longs. */
enum { PA_HDR, PA_STATE, PA_EVENTS, PA_STATE_PREV, PA_EVENTS_PREV,
       PA_NR_PAGE_EVENTS };
enum { VA_STATE, VA_EVENTS, VA_STATE_LOCAL, VA_EVENTS_LOCAL,
       VA_STATE_PENDING, VA_EVENTS_PENDING, VA_STATS_UPDATES };
enum { LPA_STATE, LPA_STATE_PREV };
enum { LA_STATE, LA_STATE_LOCAL, LA_STATE_PENDING };

static void stat_layout_add(struct stat_layout *sl, const char *name,
			    unsigned int n, unsigned int align)
{
	unsigned int a = sl->nr_arrays++, off = sl->l.size;

	SIM_BUG_ON(a >= STAT_MAX_ARRAYS);
	if (align)
		off = round_up(off, align);
	sl->a[a].off = off;
	sl->a[a].n = n;
	sl->l.size = off + 8 * n;
	sl->l.name = sl->l.name ? sl->l.name : name;
}

/* Split each array into fields at line boundaries. */
static void stat_layout_finish(struct stat_layout *sl, const char *type,
			       const char *const *names, unsigned int align)
{
	unsigned int a, nr = 0, off, end;

	sl->l.name = type;
	if (align)
		sl->l.size = round_up(sl->l.size, align);
	for (a = 0; a < sl->nr_arrays; a++)
		if (sl->a[a].n)
			nr += (sl->a[a].off + 8 * sl->a[a].n - 1) / 64 -
			      sl->a[a].off / 64 + 1;
	sl->fields = calloc(nr, sizeof(*sl->fields));
	sl->names = calloc(nr, sizeof(*sl->names));
	SIM_BUG_ON(!sl->fields || !sl->names);
	nr = 0;
	for (a = 0; a < sl->nr_arrays; a++) {
		sl->a[a].first = nr;
		for (off = sl->a[a].off; off < sl->a[a].off + 8 * sl->a[a].n;
		     off = end) {
			end = round_up(off + 1, 64);
			if (end > sl->a[a].off + 8 * sl->a[a].n)
				end = sl->a[a].off + 8 * sl->a[a].n;
			if (sl->a[a].n == 1)
				snprintf(sl->names[nr], sizeof(sl->names[nr]),
					 "%s", names[a]);
			else
				snprintf(sl->names[nr], sizeof(sl->names[nr]),
					 "%s[%u-%u]", names[a],
					 (off - sl->a[a].off) / 8,
					 (end - sl->a[a].off) / 8 - 1);
			sl->fields[nr] = (struct coh_layout_field){
				sl->names[nr], off, end - off };
			nr++;
		}
	}
	sl->l.nr_fields = nr;
	sl->l.fields = sl->fields;
}

static void stat_layout_free(struct stat_layout *sl)
{
	free(sl->fields);
	free(sl->names);
}

static struct coh_field *stat_field(const struct stat_layout *sl,
				    struct coh_object *obj, unsigned int a,
				    unsigned int i)
{
	unsigned int off = sl->a[a].off;

	SIM_BUG_ON(i >= sl->a[a].n);
	return coh_object_field(obj, sl->a[a].first +
				     (off + 8 * i) / 64 - off / 64);
}

/* The line number of element i of array a within its struct. */
static unsigned int stat_line(const struct stat_layout *sl, unsigned int a,
			      unsigned int i)
{
	return (sl->a[a].off + 8 * i) / 64;
}

/*
 * The layouts of doc/memcg-stats.md 1.4 for the configured sizes: M state
 * items, E events, S node items.
 */
static void stats_layouts_build(struct memcg_sim *ms)
{
	static const char *const pa[] = { "stats_updates", "state", "events",
		"state_prev", "events_prev", "nr_page_events" };
	static const char *const va[] = { "state", "events", "state_local",
		"events_local", "state_pending", "events_pending",
		"stats_updates" };
	static const char *const lpa[] = { "state", "state_prev" };
	static const char *const la[] = { "state", "state_local",
					   "state_pending" };
	const struct kernel_config *k = ms->k;
	unsigned int m = k->memcg_stat_items, e = k->memcg_event_items;
	unsigned int s = k->lruvec_stat_items;
	/* the v6.8 header came with the per-memcg threshold */
	bool v68 = k->stats_flush_threshold == FLUSH_PER_MEMCG;
	bool tail = v68 && k->stats_parent_walk_memcg;
	bool local = k->local_stats == LOCAL_AGGREGATED;

	/*
	 * v6.8 (9cee7e8ef3e3) puts stats_updates and the cached parent and
	 * vmstats pointers first (24 bytes: state[0..4] share their line)
	 * and aligns the struct to a line; 8d59d2214c23 before it
	 * (stats_parent_walk: parent_mem_cgroup) had stats_updates alone at
	 * the end.
	 */
	stat_layout_add(&ms->pcpu_sl, "", v68 && !tail ? 3 : 0, 0);
	stat_layout_add(&ms->pcpu_sl, "", m, 0);
	stat_layout_add(&ms->pcpu_sl, "", e, 0);
	stat_layout_add(&ms->pcpu_sl, "", m, 0);
	stat_layout_add(&ms->pcpu_sl, "", e, 0);
	stat_layout_add(&ms->pcpu_sl, "", 1, 0);	/* + targets[2] */
	ms->pcpu_sl.l.size += 16;
	if (tail) {
		/* the header array moves to the end: one slot */
		ms->pcpu_sl.a[PA_HDR].off = ms->pcpu_sl.l.size;
		ms->pcpu_sl.a[PA_HDR].n = 1;
		ms->pcpu_sl.l.size += 8;
	}
	stat_layout_finish(&ms->pcpu_sl, "memcg_vmstats_percpu", pa,
			   v68 && !tail ? 64 : 0);

	stat_layout_add(&ms->vmstats_sl, "", m, 0);
	stat_layout_add(&ms->vmstats_sl, "", e, 0);
	stat_layout_add(&ms->vmstats_sl, "", local ? m : 0, 0);
	stat_layout_add(&ms->vmstats_sl, "", local ? e : 0, 0);
	stat_layout_add(&ms->vmstats_sl, "", m, 0);
	stat_layout_add(&ms->vmstats_sl, "", e, 0);
	stat_layout_add(&ms->vmstats_sl, "", v68 ? 1 : 0, 0);
	stat_layout_finish(&ms->vmstats_sl, "memcg_vmstats", va, 0);

	stat_layout_add(&ms->lruvec_pcpu_sl, "", s, 0);
	stat_layout_add(&ms->lruvec_pcpu_sl, "", s, 0);
	stat_layout_finish(&ms->lruvec_pcpu_sl, "lruvec_stats_percpu", lpa, 0);

	stat_layout_add(&ms->lruvec_sl, "", s, 0);
	stat_layout_add(&ms->lruvec_sl, "", local ? s : 0, 0);
	stat_layout_add(&ms->lruvec_sl, "", s, 0);
	stat_layout_finish(&ms->lruvec_sl, "lruvec_stats", la, 0);
}

/* The node of a CPU: its socket (N_MEMORY nodes are the sockets). */
static unsigned int cpu_node(const struct memcg_sim *ms, unsigned int cpu)
{
	return coh_machine(ms->coh)->cpus[cpu].socket;
}

/* this_cpu_ptr(memcg->vmstats_percpu) on @cpu, made on first use */
static struct memcg_vmstats_percpu *
memcg_vmstats_percpu(struct memcg_sim *ms, struct mem_cgroup *memcg,
		     unsigned int cpu)
{
	struct memcg_vmstats_percpu *statc = NULL;
	char name[64];
	unsigned int node;

	if (!memcg->vmstats_percpu) {
		memcg->vmstats_percpu = calloc(ms->nr_cpus,
					       sizeof(*memcg->vmstats_percpu));
		SIM_BUG_ON(!memcg->vmstats_percpu);
	}
	statc = memcg->vmstats_percpu[cpu];
	if (statc)
		return statc;
	statc = calloc(1, sizeof(*statc));
	SIM_BUG_ON(!statc);
	statc->lruvec = calloc(ms->nr_nodes, sizeof(*statc->lruvec));
	SIM_BUG_ON(!statc->lruvec);
	snprintf(name, sizeof(name), "vmstats_percpu(%.16s)@cpu%u",
		 memcg->obj->name, cpu);
	statc->obj = coh_object_create(ms->coh, name, &ms->pcpu_sl.l, 0);
	for (node = 0; node < ms->nr_nodes; node++) {
		snprintf(name, sizeof(name), "lruvec_pcpu(%.16s,%u)@cpu%u",
			 memcg->obj->name, node, cpu);
		statc->lruvec[node].obj = coh_object_create(
			ms->coh, name, &ms->lruvec_pcpu_sl.l, 0);
	}
	memcg->vmstats_percpu[cpu] = statc;
	return statc;
}

static void memcg_stats_init(struct memcg_sim *ms)
{
	const struct machine *m = coh_machine(ms->coh);
	unsigned int i, node, cpu;
	char name[64];

	ms->nr_nodes = m->sockets;
	stats_layouts_build(ms);
	ms->node_pcp_layout = (struct coh_layout){ "per_cpu_nodestats", 64,
		ARRAY_SIZE(node_pcp_fields), node_pcp_fields };
	ms->state_slot = malloc(ms->k->memcg_stat_items *
				sizeof(*ms->state_slot));
	ms->event_slot = malloc(ms->k->memcg_event_items *
				sizeof(*ms->event_slot));
	SIM_BUG_ON(!ms->state_slot || !ms->event_slot);
	for (i = 0; i < ms->k->memcg_stat_items; i++)
		ms->state_slot[i] = -1;
	for (i = 0; i < ms->k->memcg_event_items; i++)
		ms->event_slot[i] = -1;
	for (i = 0; i < NR_SIM_STATE; i++)
		ms->state_slot[memcg_stat_index(ms, (int)i)] = (int)i;
	for (i = 0; i < NR_SIM_EVENTS; i++)
		ms->event_slot[event_index(ms, sim_event_ev[i])] = (int)i;
	ms->flush_period_ps = (sim_time_t)ms->k->stats_flush_period_ms *
			      SIM_PS_PER_MS;
	/* as if the periodic flusher had just run at time 0 */
	ms->flush_next_time = 2 * ms->flush_period_ps;
	sim_stat_init(&ms->flush_lat);
	sim_stat_init(&ms->read_lat);
	sim_stat_init(&ms->pass_lat);

	ms->cgroup_parent = calloc(ms->nr_memcgs, sizeof(*ms->cgroup_parent));
	SIM_BUG_ON(!ms->cgroup_parent);
	for (i = 0; i < ms->nr_memcgs; i++) {
		struct mem_cgroup *memcg = &ms->memcgs[i];

		ms->cgroup_parent[i] = memcg->parent ? (int)memcg->parent->id :
						       -1;
		snprintf(name, sizeof(name), "vmstats(%.24s)", memcg->obj->name);
		memcg->vmstats.obj = coh_object_create(ms->coh, name,
						       &ms->vmstats_sl.l, 0);
		memcg->lruvec_stats = calloc(ms->nr_nodes,
					     sizeof(*memcg->lruvec_stats));
		SIM_BUG_ON(!memcg->lruvec_stats);
		for (node = 0; node < ms->nr_nodes; node++) {
			snprintf(name, sizeof(name), "lruvec_stats(%.16s,%u)",
				 memcg->obj->name, node);
			memcg->lruvec_stats[node].obj = coh_object_create(
				ms->coh, name, &ms->lruvec_sl.l, 0);
		}
	}
	ms->rstat = rstat_create(ms->coh, ms->k->stats_version, ms->nr_cpus,
				 ms->cgroup_parent, ms->nr_memcgs,
				 mem_cgroup_css_rstat_flush, ms);
	ms->flush_lock = coh_object_create(ms->coh, "stats_flush_lock",
					   &ms->global_layout, 0);
	ms->flush_time = coh_object_create(ms->coh, "flush_next_time",
					   &ms->global_layout, 0);
	ms->node_pcp = calloc((size_t)ms->nr_cpus * ms->nr_nodes,
			      sizeof(*ms->node_pcp));
	ms->node_diff = calloc((size_t)ms->nr_cpus * ms->nr_nodes *
				       NR_SIM_NODE_ITEMS,
			       sizeof(*ms->node_diff));
	ms->node_vm_stat = calloc(ms->nr_nodes, sizeof(*ms->node_vm_stat));
	ms->cold_seen = calloc(ms->nr_cpus, sizeof(*ms->cold_seen));
	SIM_BUG_ON(!ms->node_pcp || !ms->node_diff || !ms->node_vm_stat ||
		   !ms->cold_seen);
	for (cpu = 0; cpu < ms->nr_cpus; cpu++)
		for (node = 0; node < ms->nr_nodes; node++) {
			snprintf(name, sizeof(name), "nodestats%u@cpu%u", node,
				 cpu);
			ms->node_pcp[cpu * ms->nr_nodes + node] =
				coh_object_create(ms->coh, name,
						  &ms->node_pcp_layout, 0);
		}
	for (node = 0; node < ms->nr_nodes; node++) {
		snprintf(name, sizeof(name), "pgdat%u->vm_stat", node);
		ms->node_vm_stat[node] = coh_object_create(
			ms->coh, name, &ms->lruvec_pcpu_sl.l, 0);
	}
	ms->vm_node_stat = coh_object_create(ms->coh, "vm_node_stat",
					     &ms->lruvec_pcpu_sl.l, 0);
}

static void memcg_stats_free(struct memcg_sim *ms)
{
	unsigned int i, cpu;

	for (i = 0; i < ms->nr_memcgs; i++) {
		struct mem_cgroup *memcg = &ms->memcgs[i];

		if (memcg->vmstats_percpu)
			for (cpu = 0; cpu < ms->nr_cpus; cpu++)
				if (memcg->vmstats_percpu[cpu]) {
					free(memcg->vmstats_percpu[cpu]->lruvec);
					free(memcg->vmstats_percpu[cpu]);
				}
		free(memcg->vmstats_percpu);
		free(memcg->lruvec_stats);
	}
	for (cpu = 0; cpu < ms->nr_cpus; cpu++)
		free(ms->cold_seen[cpu]);
	free(ms->cold_seen);
	rstat_free(ms->rstat);
	free(ms->cgroup_parent);
	free(ms->state_slot);
	free(ms->event_slot);
	free(ms->node_pcp);
	free(ms->node_diff);
	free(ms->node_vm_stat);
	stat_layout_free(&ms->pcpu_sl);
	stat_layout_free(&ms->vmstats_sl);
	stat_layout_free(&ms->lruvec_pcpu_sl);
	stat_layout_free(&ms->lruvec_sl);
	sim_stat_destroy(&ms->flush_lat);
	sim_stat_destroy(&ms->read_lat);
	sim_stat_destroy(&ms->pass_lat);
}

/* SIM: the exact values, for the stats error */
static void truth_add(struct mem_cgroup *memcg, bool event, int s, long val)
{
	struct mem_cgroup *m;

	if (event)
		memcg->truth.events_local[s] += val;
	else
		memcg->truth.state_local[s] += val;
	for (m = memcg; m; m = m->parent) {
		if (event)
			m->truth.events[s] += val;
		else
			m->truth.state[s] += val;
	}
}

/* ---- statistics: updates ---- */

/* this_cpu_ptr(f->memcg->vmstats_percpu) */
#define PCPU(f) memcg_vmstats_percpu((f)->ms, (f)->memcg, (f)->cc->cpu)

static bool memcg_vmstats_needs_flush(struct memcg_sim *ms,
				      const struct memcg_vmstats *vmstats)
{
	return vmstats->stats_updates >
	       (long)ms->k->charge_batch * (long)ms->nr_cpus;
}

/*
 * memcg_rstat_updated(memcg, val): link the memcg into this CPU's rstat
 * tree and count |val| towards a flush. global (v6.0; v6.1's skip as
 * stats_updates_atomic: below_threshold): a per-CPU count feeds the
 * global atomic every MEMCG_CHARGE_BATCH. per_memcg (v6.8, with 9cee7e8ef3e3's
 * cached parent pointers): each level's per-CPU count feeds that memcg's
 * atomic vmstats->stats_updates, skipped once it is flushable.
 */
static int memcg_rstat_updated(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;
	struct memcg_sim *ms = f->ms;
	struct memcg_vmstats_percpu *statc = NULL;
	unsigned int *x;

	CO_BEGIN(f);
	/* "memcg: do not modify rstat tree for zero updates" (v6.4) */
	if (!f->val && ms->k->stats_version >= STATS_V6_6)
		CO_RETURN(f, p, 0);
	CO_CALL(f, p, cgroup_rstat_updated, .rs = ms->rstat,
		.cc = f->cc, .cgrp = f->memcg->id);
	f->batch = (unsigned int)(f->val < 0 ? -f->val : f->val);
	if (ms->k->stats_flush_threshold == FLUSH_PER_MEMCG) {
		for (f->m = f->memcg; f->m; f->m = f->m->parent) {
			/* statc->stats_updates += abs(val); statc->parent */
			CO_AWAIT(f, coh_write(f->cc, stat_field(
					&ms->pcpu_sl,
					memcg_vmstats_percpu(ms, f->m,
							     f->cc->cpu)->obj,
					PA_HDR, 0)));
			statc = memcg_vmstats_percpu(ms, f->m, f->cc->cpu);
			statc->stats_updates += f->batch;
			if (statc->stats_updates < ms->k->charge_batch)
				goto next;
			CO_AWAIT(f, coh_read(f->cc, stat_field(
						    &ms->vmstats_sl,
						    f->m->vmstats.obj,
						    VA_STATS_UPDATES, 0)));
			if (!memcg_vmstats_needs_flush(ms, &f->m->vmstats)) {
				CO_AWAIT(f, coh_rmw(f->cc, stat_field(
						    &ms->vmstats_sl,
						    f->m->vmstats.obj,
						    VA_STATS_UPDATES, 0)));
				statc = memcg_vmstats_percpu(ms, f->m,
							     f->cc->cpu);
				f->m->vmstats.stats_updates +=
					statc->stats_updates;
				ms->counts.stats_atomics++;
			}
			memcg_vmstats_percpu(ms, f->m, f->cc->cpu)->stats_updates = 0;
next:
			/*
			 * 8d59d2214c23 found the next level through the
			 * memcg: parent_mem_cgroup() reads css.parent (and
			 * this_cpu_ptr(memcg->vmstats_percpu), read-mostly).
			 */
			if (ms->k->stats_parent_walk_memcg)
				CO_AWAIT(f, coh_read(f->cc, memcg_field(
							    f->m,
							    MEMCG_CSS_PARENT)));
		}
		CO_RETURN(f, p, 0);
	}
	/* x = __this_cpu_add_return(stats_updates, abs(val)) */
	CO_AWAIT(f, coh_write(f->cc, coh_object_field(
					     ms->pcpu_stats[f->cc->cpu], 0)));
	x = &ms->stats_updates[f->cc->cpu];
	*x += f->batch;
	if (*x <= ms->k->charge_batch)
		CO_RETURN(f, p, 0);
	f->batch = *x / ms->k->charge_batch;
	*x = 0;
	if (ms->k->stats_updates_atomic == STATS_ATOMIC_BELOW_THRESHOLD) {
		CO_AWAIT(f, coh_read(f->cc, coh_object_field(
						    ms->flush_threshold, 0)));
		if (ms->stats_flush_threshold > (long)ms->nr_cpus)
			CO_RETURN(f, p, 0);
	}
	/* atomic_add(x / MEMCG_CHARGE_BATCH, &stats_flush_threshold) */
	CO_AWAIT(f, coh_rmw(f->cc, coh_object_field(ms->flush_threshold, 0)));
	ms->stats_flush_threshold += f->batch;
	ms->counts.stats_atomics++;
	CO_END(f, p);
}

/* __mod_memcg_state(memcg, idx, val) */
static int __mod_memcg_state(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;
	struct memcg_sim *ms = f->ms;

	CO_BEGIN(f);
	if (ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	/* __this_cpu_add(memcg->vmstats_percpu->state[idx], val) */
	CO_AWAIT(f, coh_write(f->cc, stat_field(&ms->pcpu_sl,
						PCPU(f)->obj, PA_STATE,
						memcg_stat_index(ms, f->idx))));
	PCPU(f)->state[f->idx] += f->val;
	truth_add(f->memcg, false, f->idx, f->val);
	CO_CALL(f, p, memcg_rstat_updated, .ms = ms,
		.cc = f->cc, .memcg = f->memcg, .val = f->val);
	CO_END(f, p);
}

int mod_memcg_state(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;

	CO_BEGIN(f);
	ENTER(f, KF_mod_memcg_state);
	/* local_irq_save(flags) ... local_irq_restore(flags) */
	irq_save_restore(f->cc);
	CO_CALL(f, p, __mod_memcg_state, .ms = f->ms,
		.cc = f->cc, .memcg = f->memcg, .idx = f->idx, .val = f->val);
	EXIT(f);
	CO_END(f, p);
}

/*
 * __mod_node_page_state(): this CPU's s8 diff of the node item; past the
 * stat threshold it is folded into the node's and the global counter,
 * two atomics on lines every CPU shares. SIM: stat_threshold is 125,
 * the cap of calculate_normal_threshold() that any server of the
 * profiles' size reaches.
 */
#define SIM_STAT_THRESHOLD 125

static int __mod_node_page_state(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;
	struct memcg_sim *ms = f->ms;
	unsigned int node = cpu_node(ms, f->cc->cpu);
	long *x;

	CO_BEGIN(f);
	CO_AWAIT(f, coh_write(f->cc, coh_object_field(
					     ms->node_pcp[f->cc->cpu *
							  ms->nr_nodes + node],
					     0)));
	x = &ms->node_diff[((size_t)f->cc->cpu * ms->nr_nodes + node) *
				   NR_SIM_NODE_ITEMS + (unsigned int)f->idx];
	*x += f->val;
	if (*x <= SIM_STAT_THRESHOLD && *x >= -SIM_STAT_THRESHOLD)
		CO_RETURN(f, p, 0);
	*x = 0;
	/* node_page_state_add(): pgdat->vm_stat[item], vm_node_stat[item] */
	CO_AWAIT(f, coh_rmw(f->cc, stat_field(&ms->lruvec_pcpu_sl,
					      ms->node_vm_stat[node], LPA_STATE,
					      memcg_stat_index(ms, f->idx))));
	CO_AWAIT(f, coh_rmw(f->cc, stat_field(&ms->lruvec_pcpu_sl,
					      ms->vm_node_stat, LPA_STATE,
					      memcg_stat_index(ms, f->idx))));
	CO_END(f, p);
}

/*
 * __mod_lruvec_state(lruvec, idx, val) for a node item of the memcg on
 * this CPU's node: the node's vmstat, then __mod_memcg_lruvec_state():
 * the memcg's and the lruvec's per-CPU counters and memcg_rstat_updated().
 */
static int __mod_lruvec_state(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;
	struct memcg_sim *ms = f->ms;
	struct memcg_vmstats_percpu *statc = NULL;
	unsigned int node = cpu_node(ms, f->cc->cpu);

	CO_BEGIN(f);
	SIM_BUG_ON(f->idx >= NR_SIM_NODE_ITEMS);
	CO_CALL(f, p, __mod_node_page_state, .ms = ms,
		.cc = f->cc, .idx = f->idx, .val = f->val);
	if (ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	CO_AWAIT(f, coh_write(f->cc, stat_field(&ms->pcpu_sl,
						PCPU(f)->obj, PA_STATE,
						memcg_stat_index(ms, f->idx))));
	CO_AWAIT(f, coh_write(f->cc, stat_field(&ms->lruvec_pcpu_sl,
						PCPU(f)->lruvec[node].obj,
						LPA_STATE,
						memcg_stat_index(ms, f->idx))));
	statc = PCPU(f);
	statc->state[f->idx] += f->val;
	statc->lruvec[node].state[f->idx] += f->val;
	truth_add(f->memcg, false, f->idx, f->val);
	CO_CALL(f, p, memcg_rstat_updated, .ms = ms,
		.cc = f->cc, .memcg = f->memcg, .val = f->val);
	CO_END(f, p);
}

int mod_lruvec_state(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;

	CO_BEGIN(f);
	ENTER(f, KF_mod_lruvec_state);
	irq_save_restore(f->cc);
	CO_CALL(f, p, __mod_lruvec_state, .ms = f->ms,
		.cc = f->cc, .memcg = f->memcg, .idx = f->idx, .val = f->val);
	EXIT(f);
	CO_END(f, p);
}

/* __count_memcg_events(memcg, idx, count) */
static int __count_memcg_events(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;
	struct memcg_sim *ms = f->ms;
	int i = -1;

	CO_BEGIN(f);
	if (ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	/* v6.1 on: memcg_events_index(); untracked events return */
	i = event_index(ms, sim_event_ev[f->idx]);
	if (i < 0)
		CO_RETURN(f, p, 0);
	CO_AWAIT(f, coh_write(f->cc, stat_field(
			&ms->pcpu_sl, PCPU(f)->obj, PA_EVENTS,
			(unsigned int)event_index(ms, sim_event_ev[f->idx]))));
	PCPU(f)->events[f->idx] += f->val;
	truth_add(f->memcg, true, f->idx, f->val);
	CO_CALL(f, p, memcg_rstat_updated, .ms = ms,
		.cc = f->cc, .memcg = f->memcg, .val = f->val);
	CO_END(f, p);
}

int count_memcg_events(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;

	CO_BEGIN(f);
	ENTER(f, KF_count_memcg_events);
	irq_save_restore(f->cc);
	CO_CALL(f, p, __count_memcg_events, .ms = f->ms,
		.cc = f->cc, .memcg = f->memcg, .idx = f->idx, .val = f->val);
	EXIT(f);
	CO_END(f, p);
}

#define THRESHOLDS_EVENTS_TARGET 128
#define SOFTLIMIT_EVENTS_TARGET 1024

/*
 * mem_cgroup_event_ratelimit(memcg, target): this CPU's nr_page_events
 * against its next target (both on the line just written).
 */
static bool mem_cgroup_event_ratelimit(struct memcg_vmstats_percpu *statc,
				       unsigned int target)
{
	static const unsigned long step[] = { THRESHOLDS_EVENTS_TARGET,
					      SOFTLIMIT_EVENTS_TARGET };

	if ((long)(statc->targets[target] - statc->nr_page_events) >= 0)
		return false;
	statc->targets[target] = statc->nr_page_events + step[target];
	return true;
}

/*
 * memcg_check_events(memcg, nid), v6.0 to v6.8 on both cgroup versions:
 * every 128 page events of a CPU, mem_cgroup_threshold() walks the
 * ancestors (memcg->thresholds.primary, read-mostly, and css.parent);
 * every 1024, mem_cgroup_update_tree() walks them reading
 * soft_limit_excess(): memory.usage, the contended line, and soft_limit.
 * SIM: no thresholds or soft limits are set, so neither does more; the
 * thresholds pointer and soft_limit are counted as the css.parent load
 * next to them.
 */
static int memcg_check_events(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;
	struct memcg_vmstats_percpu *statc;

	CO_BEGIN(f);
	statc = PCPU(f);
	if (!mem_cgroup_event_ratelimit(statc, 0))
		CO_RETURN(f, p, 0);
	f->drained = mem_cgroup_event_ratelimit(statc, 1);
	for (f->m = f->memcg; f->m; f->m = f->m->parent)
		CO_AWAIT(f, coh_read(f->cc, memcg_field(f->m,
							MEMCG_CSS_PARENT)));
	if (!f->drained)
		CO_RETURN(f, p, 0);
	for (f->m = f->memcg; f->m; f->m = f->m->parent) {
		CO_AWAIT(f, coh_read(f->cc, f->m->memory.f[PC_USAGE]));
		CO_AWAIT(f, coh_read(f->cc, memcg_field(f->m,
							MEMCG_CSS_PARENT)));
	}
	CO_END(f, p);
}

/*
 * mem_cgroup_charge_statistics(memcg, nr_pages): PGPGIN, one per call
 * ("pagein of a big page is an event"), and this CPU's nr_page_events,
 * under local_irq_disable(); then memcg_check_events(). uncharge_batch()
 * does the same with PGPGOUT counted per folio. .idx and .val are the
 * event and its count, .nr_pages the pages.
 */
static int mem_cgroup_charge_statistics(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;
	struct memcg_sim *ms = f->ms;

	CO_BEGIN(f);
	if (ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	irq_save_restore(f->cc);
	CO_CALL(f, p, __count_memcg_events, .ms = ms,
		.cc = f->cc, .memcg = f->memcg, .idx = f->idx, .val = f->val);
	/* __this_cpu_add(memcg->vmstats_percpu->nr_page_events, nr_pages) */
	CO_AWAIT(f, coh_write(f->cc, stat_field(&ms->pcpu_sl, PCPU(f)->obj,
						PA_NR_PAGE_EVENTS, 0)));
	PCPU(f)->nr_page_events += f->nr_pages;
	CO_CALL(f, p, memcg_check_events, .ms = ms,
		.cc = f->cc, .memcg = f->memcg);
	CO_END(f, p);
}

/* ---- statistics: flushing ---- */

/*
 * One array of one (memcg, CPU) in mem_cgroup_css_rstat_flush(): for
 * each of the n items, the pending count from the children, this CPU's
 * value and its previous value; a change goes to the memcg's aggregate
 * (and, v6.6 on, its local count) and to the parent's pending. Items on
 * the line just read cost a load hit each.
 */
struct flush_array_frame {
	struct co_frame co;
	struct memcg_sim *ms;
	struct coh_cpu *cc;
	unsigned int n;
	const int *slot;		/* kernel index -> SIM item, or -1 */
	const struct stat_layout *asl, *psl;
	struct coh_object *agg, *pcpu, *pagg;
	unsigned int a_pend, a_val, a_local, a_cur, a_prev;
	long *pending, *value, *local, *cur, *prev, *ppending;
	/* locals */
	unsigned int i;
	long delta, delta_cpu, v;
	struct coh_field *last[3];
};

static bool touch(struct flush_array_frame *f, unsigned int which,
		  struct coh_field *fld)
{
	if (f->last[which] == fld) {
		coh_delay(f->cc, coh_machine(f->ms->coh)->l1_hit_ps);
		return false;
	}
	if (coh_read(f->cc, fld))
		return true;
	f->last[which] = fld;
	return false;
}

static int flush_array(struct sim_proc *p, void *frame)
{
	struct flush_array_frame *f = frame;
	int s;

	CO_BEGIN(f);
	for (f->i = 0; f->i < f->n; f->i++) {
		s = f->slot ? f->slot[f->i] : -1;
		/* delta = pending[i]: the children's, got by the first CPU */
		CO_AWAIT(f, touch(f, 0, stat_field(f->asl, f->agg, f->a_pend,
						   f->i)));
		s = f->slot ? f->slot[f->i] : -1;
		f->delta = s >= 0 ? f->pending[s] : 0;
		if (f->delta) {
			CO_AWAIT(f, coh_write(f->cc, stat_field(f->asl, f->agg,
								f->a_pend,
								f->i)));
			f->pending[f->slot[f->i]] = 0;
		}
		/* v = READ_ONCE(statc->state[i]): the updater's line */
		CO_AWAIT(f, touch(f, 1, stat_field(f->psl, f->pcpu, f->a_cur,
						   f->i)));
		s = f->slot ? f->slot[f->i] : -1;
		f->v = s >= 0 ? f->cur[s] : 0;
		CO_AWAIT(f, touch(f, 2, stat_field(f->psl, f->pcpu, f->a_prev,
						   f->i)));
		s = f->slot ? f->slot[f->i] : -1;
		f->delta_cpu = 0;
		if (s >= 0 && f->v != f->prev[s]) {
			f->delta_cpu = f->v - f->prev[s];
			f->delta += f->delta_cpu;
			CO_AWAIT(f, coh_write(f->cc, stat_field(f->psl, f->pcpu,
								f->a_prev,
								f->i)));
			f->prev[f->slot[f->i]] = f->v;
		}
		if (f->local && f->delta_cpu) {
			/* v6.6: the non-hierarchical count */
			CO_AWAIT(f, coh_write(f->cc, stat_field(f->asl, f->agg,
								f->a_local,
								f->i)));
			f->local[f->slot[f->i]] += f->delta_cpu;
		}
		if (!f->delta)
			continue;
		CO_AWAIT(f, coh_write(f->cc, stat_field(f->asl, f->agg,
							f->a_val, f->i)));
		f->value[f->slot[f->i]] += f->delta;
		if (f->pagg) {
			CO_AWAIT(f, coh_write(f->cc, stat_field(f->asl, f->pagg,
								f->a_pend,
								f->i)));
			f->ppending[f->slot[f->i]] += f->delta;
		}
	}
	CO_END(f, p);
}

struct css_flush_frame {
	struct co_frame co;
	struct memcg_sim *ms;
	struct coh_cpu *cc;
	struct mem_cgroup *memcg;
	unsigned int cpu;
	/* locals */
	unsigned int node;
	int *lru_slot;
};
/* SIM: transitional: these functions still share struct css_flush_frame */
#define memcg_flush_cpu_frame css_flush_frame

/* mem_cgroup_css_rstat_flush(css, cpu) for one (memcg, CPU) */
static int memcg_flush_cpu(struct sim_proc *p, void *frame)
{
	struct css_flush_frame *f = frame;
	struct memcg_sim *ms = f->ms;
	struct mem_cgroup *memcg = f->memcg, *parent = memcg->parent;
	struct memcg_vmstats_percpu *statc = NULL;
	bool local = ms->k->local_stats == LOCAL_AGGREGATED;
	struct lruvec_stats *pn, *ppn;

	CO_BEGIN(f);
	KPROF_ENTER(f->cc->prof, KF_mem_cgroup_css_rstat_flush, f->cc->proc->now);
	ms->counts.flushed_cpus++;
	statc = memcg_vmstats_percpu(ms, memcg, f->cpu);
	CO_CALL(f, p, flush_array, .ms = ms,
		.cc = f->cc, .n = ms->k->memcg_stat_items,
		.slot = ms->state_slot, .asl = &ms->vmstats_sl,
		.psl = &ms->pcpu_sl, .agg = memcg->vmstats.obj,
		.pcpu = statc->obj, .pagg = parent ? parent->vmstats.obj : NULL,
		.a_pend = VA_STATE_PENDING, .a_val = VA_STATE,
		.a_local = VA_STATE_LOCAL, .a_cur = PA_STATE,
		.a_prev = PA_STATE_PREV,
		.pending = memcg->vmstats.state_pending,
		.value = memcg->vmstats.state,
		.local = local ? memcg->vmstats.state_local : NULL,
		.cur = statc->state, .prev = statc->state_prev,
		.ppending = parent ? parent->vmstats.state_pending : NULL);
	statc = memcg_vmstats_percpu(ms, memcg, f->cpu);
	CO_CALL(f, p, flush_array, .ms = ms,
		.cc = f->cc, .n = ms->k->memcg_event_items,
		.slot = ms->event_slot, .asl = &ms->vmstats_sl,
		.psl = &ms->pcpu_sl, .agg = memcg->vmstats.obj,
		.pcpu = statc->obj, .pagg = parent ? parent->vmstats.obj : NULL,
		.a_pend = VA_EVENTS_PENDING, .a_val = VA_EVENTS,
		.a_local = VA_EVENTS_LOCAL, .a_cur = PA_EVENTS,
		.a_prev = PA_EVENTS_PREV,
		.pending = memcg->vmstats.events_pending,
		.value = memcg->vmstats.events,
		.local = local ? memcg->vmstats.events_local : NULL,
		.cur = statc->events, .prev = statc->events_prev,
		.ppending = parent ? parent->vmstats.events_pending : NULL);
	/* for_each_node_state(nid, N_MEMORY): the lruvec counters */
	for (f->node = 0; f->node < ms->nr_nodes; f->node++) {
		statc = memcg_vmstats_percpu(ms, memcg, f->cpu);
		pn = &memcg->lruvec_stats[f->node];
		ppn = parent ? &parent->lruvec_stats[f->node] : NULL;
		CO_CALL(f, p, flush_array, .ms = ms,
			.cc = f->cc, .n = ms->k->lruvec_stat_items,
			.slot = ms->state_slot, .asl = &ms->lruvec_sl,
			.psl = &ms->lruvec_pcpu_sl, .agg = pn->obj,
			.pcpu = statc->lruvec[f->node].obj,
			.pagg = ppn ? ppn->obj : NULL,
			.a_pend = LA_STATE_PENDING, .a_val = LA_STATE,
			.a_local = LA_STATE_LOCAL, .a_cur = LPA_STATE,
			.a_prev = LPA_STATE_PREV, .pending = pn->state_pending,
			.value = pn->state, .local = local ? pn->state_local : NULL,
			.cur = statc->lruvec[f->node].state,
			.prev = statc->lruvec[f->node].state_prev,
			.ppending = ppn ? ppn->state_pending : NULL);
	}
	if (ms->k->stats_flush_threshold == FLUSH_PER_MEMCG) {
		/* v6.8: statc->stats_updates = 0, the updater's first line */
		CO_AWAIT(f, coh_write(f->cc, stat_field(
				&ms->pcpu_sl,
				memcg_vmstats_percpu(ms, memcg, f->cpu)->obj,
				PA_HDR, 0)));
		memcg_vmstats_percpu(ms, memcg, f->cpu)->stats_updates = 0;
		/* only do the atomic write once */
		CO_AWAIT(f, coh_read(f->cc, stat_field(&ms->vmstats_sl,
						       memcg->vmstats.obj,
						       VA_STATS_UPDATES, 0)));
		if (memcg->vmstats.stats_updates) {
			CO_AWAIT(f, coh_write(f->cc, stat_field(
					    &ms->vmstats_sl, memcg->vmstats.obj,
					    VA_STATS_UPDATES, 0)));
			memcg->vmstats.stats_updates = 0;
		}
	}
	KPROF_EXIT(f->cc->prof, f->cc->proc->now);
	CO_END(f, p);
}

int mem_cgroup_css_rstat_flush(struct sim_proc *p, void *frame)
{
	struct rstat_cb_frame *f = frame;
	struct memcg_sim *ms = f->ss;

	CO_BEGIN(f);
	CO_CALL(f, p, memcg_flush_cpu, .ms = ms,
		.cc = f->cc, .memcg = &ms->memcgs[f->cgrp], .cpu = f->cpu);
	CO_END(f, p);
}

/*
 * do_flush_stats(memcg) (v6.6 name; v6.0 __mem_cgroup_flush_stats()):
 * stats_flush_skip: return if a flush is ongoing (v6.0 spin_trylock of
 * stats_flush_lock, v6.6 atomic stats_flush_ongoing); note the time for
 * the ratelimited callers; flush the root (global) or the memcg's subtree
 * (per_memcg); reset the global threshold.
 */
static int do_flush_stats(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;
	struct memcg_sim *ms = f->ms;
	bool global = ms->k->stats_flush_threshold == FLUSH_GLOBAL;

	CO_BEGIN(f);
	if (ms->k->stats_flush_skip) {
		/*
		 * atomic_read(&stats_flush_ongoing) (v6.6), or the read
		 * queued_spin_trylock() does first (v6.0)
		 */
		CO_AWAIT(f, coh_read(f->cc, coh_object_field(ms->flush_lock,
							     0)));
		if (ms->flush_ongoing)
			goto skip;
		/* the cmpxchg / atomic_xchg(&stats_flush_ongoing, 1) */
		CO_AWAIT(f, coh_rmw(f->cc, coh_object_field(ms->flush_lock, 0)));
		if (ms->flush_ongoing)
			goto skip;
		ms->flush_ongoing = true;
	}
	f->start = NOW(f);
	if (global || mem_cgroup_is_root(ms, f->memcg)) {
		/* flush_next_time = now + 2 * FLUSH_TIME (v6.8: last = now) */
		CO_AWAIT(f, coh_write(f->cc, coh_object_field(ms->flush_time,
							      0)));
		ms->flush_next_time = NOW(f) + 2 * ms->flush_period_ps;
	}
	CO_CALL(f, p, cgroup_rstat_flush, .rs = ms->rstat,
		.cc = f->cc, .cgrp = global ? 0 : f->memcg->id);
	if (global) {
		/* atomic_set(&stats_flush_threshold, 0) */
		CO_AWAIT(f, coh_write(f->cc, coh_object_field(
						     ms->flush_threshold, 0)));
		ms->stats_flush_threshold = 0;
	}
	if (ms->k->stats_flush_skip) {
		CO_AWAIT(f, coh_write(f->cc, coh_object_field(ms->flush_lock,
							      0)));
		ms->flush_ongoing = false;
	}
	ms->counts.flushes++;
	sim_stat_add(&ms->flush_lat, (double)(NOW(f) - f->start) /
					     SIM_PS_PER_NS);
	CO_RETURN(f, p, 0);
skip:
	ms->counts.flushes_skipped++;
	CO_END(f, p);
}

int mem_cgroup_flush_stats(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;
	struct memcg_sim *ms = f->ms;

	CO_BEGIN(f);
	if (ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	ENTER(f, KF_mem_cgroup_flush_stats);
	if (!f->memcg)
		f->memcg = &ms->memcgs[0];
	if (ms->k->stats_flush_threshold == FLUSH_PER_MEMCG) {
		/* memcg_vmstats_needs_flush(memcg->vmstats) */
		CO_AWAIT(f, coh_read(f->cc, stat_field(&ms->vmstats_sl,
						       f->memcg->vmstats.obj,
						       VA_STATS_UPDATES, 0)));
		f->drained = memcg_vmstats_needs_flush(ms, &f->memcg->vmstats);
	} else {
		/* atomic_read(&stats_flush_threshold) > num_online_cpus() */
		CO_AWAIT(f, coh_read(f->cc, coh_object_field(
						    ms->flush_threshold, 0)));
		f->drained = ms->stats_flush_threshold > (long)ms->nr_cpus;
	}
	if (f->drained)
		CO_CALL(f, p, do_flush_stats, .ms = ms,
			.cc = f->cc, .memcg = f->memcg);
	EXIT(f);
	CO_END(f, p);
}

/*
 * mem_cgroup_flush_stats_ratelimited() (v6.0 _delayed()): only when the
 * last flush through do_flush_stats() began 2 x FLUSH_TIME ago.
 */
int mem_cgroup_flush_stats_ratelimited(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;
	struct memcg_sim *ms = f->ms;

	CO_BEGIN(f);
	CO_AWAIT(f, coh_read(f->cc, coh_object_field(ms->flush_time, 0)));
	if (NOW(f) > ms->flush_next_time)
		CO_CALL(f, p, mem_cgroup_flush_stats, .ms = ms, .cc = f->cc, .memcg = f->memcg);
	CO_END(f, p);
}

int flush_memcg_stats_dwork(struct sim_proc *p, void *frame)
{
	struct memcg_frame *f = frame;
	struct memcg_sim *ms = f->ms;

	CO_BEGIN(f);
	ENTER(f, KF_mem_cgroup_flush_stats);
	CO_CALL(f, p, do_flush_stats, .ms = ms,
		.cc = f->cc, .memcg = &ms->memcgs[0]);
	EXIT(f);
	CO_END(f, p);
}

/*
 * The periodic flusher: flush_memcg_stats_dwork() runs on
 * system_unbound_wq and queues itself again FLUSH_TIME after it returns.
 * The first run is one period after the start (the model's time 0 is
 * right after a flush).
 */
int memcg_stats_kworker(struct sim_proc *p, void *frame)
{
	struct kworker_frame *f = frame;

	CO_BEGIN(f);
	for (;;) {
		p->now += f->ms->flush_period_ps;
		if (p->now >= f->end_ps)
			break;
		CO_AWAIT(f, sim_proc_sync(p));
		CO_CALL(f, p, flush_memcg_stats_dwork, .ms = f->ms, .cc = f->cc);
	}
	CO_END(f, p);
}

/* ---- statistics: reads ---- */

/* memory.stat (v2, memory_stat_format()): memory_stats[] and "slab" */
static const int v2_state_reads[] = {
	K_NR_ANON_MAPPED, K_NR_FILE_PAGES, K_MEMCG_KMEM, K_NR_KERNEL_STACK_KB,
	K_NR_PAGETABLE, K_NR_SECONDARY_PAGETABLE, K_MEMCG_PERCPU_B,
	K_MEMCG_SOCK, K_MEMCG_VMALLOC, K_NR_SHMEM, K_MEMCG_ZSWAP_B,
	K_MEMCG_ZSWAPPED, K_NR_FILE_MAPPED, K_NR_FILE_DIRTY, K_NR_WRITEBACK,
	K_NR_SWAPCACHE, K_NR_ANON_THPS, K_NR_FILE_THPS, K_NR_SHMEM_THPS,
	K_NR_INACTIVE_ANON, K_NR_ACTIVE_ANON, K_NR_INACTIVE_FILE,
	K_NR_ACTIVE_FILE, K_NR_UNEVICTABLE, K_NR_SLAB_RECLAIMABLE_B,
	K_NR_SLAB_UNRECLAIMABLE_B,
	K_NR_SLAB_RECLAIMABLE_B,	/* "slab": one more read */
	K_WORKINGSET_REFAULT_ANON, K_WORKINGSET_REFAULT_FILE,
	K_WORKINGSET_ACTIVATE_ANON, K_WORKINGSET_ACTIVATE_FILE,
	K_WORKINGSET_RESTORE_ANON, K_WORKINGSET_RESTORE_FILE,
	K_WORKINGSET_NODERECLAIM,
};

/* the v2 event lines: "pgscan" and "pgsteal" sum, then the table */
static const int v2_events_v6_0[] = {
	EV_PGSCAN_KSWAPD, EV_PGSCAN_DIRECT, EV_PGSTEAL_KSWAPD,
	EV_PGSTEAL_DIRECT, EV_PGSCAN_KSWAPD, EV_PGSCAN_DIRECT,
	EV_PGSTEAL_KSWAPD, EV_PGSTEAL_DIRECT, EV_PGFAULT, EV_PGMAJFAULT,
	EV_PGREFILL, EV_PGACTIVATE, EV_PGDEACTIVATE, EV_PGLAZYFREE,
	EV_PGLAZYFREED, EV_ZSWPIN, EV_ZSWPOUT, EV_THP_FAULT_ALLOC,
	EV_THP_COLLAPSE_ALLOC,
};

/* v1 (memcg_stat_show()): memcg1_stats[], memcg1_events[], the LRUs */
static const int v1_state_reads[] = {
	K_NR_FILE_PAGES, K_NR_ANON_MAPPED, K_NR_ANON_THPS, K_NR_SHMEM,
	K_NR_FILE_MAPPED, K_NR_FILE_DIRTY, K_NR_WRITEBACK, K_MEMCG_SWAP,
};
static const int v1_lru_reads[] = {
	K_NR_INACTIVE_ANON, K_NR_ACTIVE_ANON, K_NR_INACTIVE_FILE,
	K_NR_ACTIVE_FILE, K_NR_UNEVICTABLE,
};
static const int v1_events[] = { EV_PGPGIN, EV_PGPGOUT, EV_PGFAULT,
				 EV_PGMAJFAULT };

struct stat_read_frame {
	struct co_frame co;
	struct memcg_sim *ms;
	struct coh_cpu *cc;
	struct mem_cgroup *memcg;
	bool event, local;
	int k;			/* kernel index */
	/* locals */
	unsigned int cpu;
	long x;
	struct coh_field *last;
};
/* SIM: transitional: these functions still share struct stat_read_frame */
#define stat_read_one_frame stat_read_frame

static void error_note(struct memcg_sim *ms, long got, long truth)
{
	double e = (double)(got > truth ? got - truth : truth - got);

	ms->counts.error_reads++;
	ms->counts.error_sum += e;
	if (e > ms->counts.error_max)
		ms->counts.error_max = e;
}

/* Lines of one CPU's copy of struct memcg_vmstats_percpu. */
static unsigned int pcpu_lines(const struct memcg_sim *ms)
{
	return (ms->pcpu_sl.l.size + 63) / 64;
}

/* The array of struct memcg_vmstats a read of the aggregate reads. */
static unsigned int vmstats_array(const struct stat_read_frame *f)
{
	if (f->event)
		return f->local ? VA_EVENTS_LOCAL : VA_EVENTS;
	return f->local ? VA_STATE_LOCAL : VA_STATE;
}

/*
 * One counter: memcg_page_state()/memcg_events() read the flushed
 * aggregate; the _local() forms read state_local (aggregated) or sum
 * every possible CPU's copy (percpu_sum). A modelled item's value is
 * checked against the truth.
 */
static int stat_read_one(struct sim_proc *p, void *frame)
{
	struct stat_read_frame *f = frame;
	struct memcg_sim *ms = f->ms;
	struct memcg_vmstats_percpu *statc = NULL;
	const int *slot = f->event ? ms->event_slot : ms->state_slot;
	unsigned int a = f->event ? PA_EVENTS : PA_STATE, line;
	long truth;
	int s;

	CO_BEGIN(f);
	if (f->k < 0)
		CO_RETURN(f, p, 0);
	if (!f->local || ms->k->local_stats == LOCAL_AGGREGATED) {
		CO_AWAIT(f, coh_read(f->cc, stat_field(&ms->vmstats_sl,
						       f->memcg->vmstats.obj,
						       vmstats_array(f),
						       (unsigned int)f->k)));
		s = slot[f->k];
		if (s < 0)
			CO_RETURN(f, p, 0);
		f->x = f->event ? (f->local ? f->memcg->vmstats.events_local[s] :
					      f->memcg->vmstats.events[s]) :
				  (f->local ? f->memcg->vmstats.state_local[s] :
					      f->memcg->vmstats.state[s]);
		goto check;
	}
	/* for_each_possible_cpu(cpu) x += per_cpu(...[idx], cpu) */
	f->x = 0;
	a = f->event ? PA_EVENTS : PA_STATE;
	for (f->cpu = 0; f->cpu < ms->nr_cpus; f->cpu++) {
		statc = f->memcg->vmstats_percpu ?
				f->memcg->vmstats_percpu[f->cpu] : NULL;
		if (statc) {
			CO_AWAIT(f, coh_read(f->cc, stat_field(
				    &ms->pcpu_sl,
				    f->memcg->vmstats_percpu[f->cpu]->obj,
				    f->event ? PA_EVENTS : PA_STATE,
				    (unsigned int)f->k)));
			statc = f->memcg->vmstats_percpu[f->cpu];
			s = slot[f->k];
			if (s >= 0)
				f->x += f->event ? statc->events[s] :
						   statc->state[s];
			continue;
		}
		/* never written: from memory, once per line per read */
		line = f->cpu * pcpu_lines(ms) + stat_line(&ms->pcpu_sl, a,
					       (unsigned int)f->k);
		if (ms->cold_seen[f->cc->cpu][line / 8] & (1u << (line % 8))) {
			coh_delay(f->cc, coh_machine(ms->coh)->l1_hit_ps);
			continue;
		}
		CO_AWAIT(f, coh_read_cold(f->cc));
		line = f->cpu * pcpu_lines(ms) +
		       stat_line(&ms->pcpu_sl, f->event ? PA_EVENTS : PA_STATE,
				 (unsigned int)f->k);
		ms->cold_seen[f->cc->cpu][line / 8] |= (unsigned char)(1u << (line % 8));
	}
	s = slot[f->k];
	if (s < 0)
		CO_RETURN(f, p, 0);
check:
	s = slot[f->k];
	truth = f->event ? (f->local ? f->memcg->truth.events_local[s] :
				       f->memcg->truth.events[s]) :
			   (f->local ? f->memcg->truth.state_local[s] :
				       f->memcg->truth.state[s]);
	error_note(ms, f->x, truth);
	CO_END(f, p);
}


static int stat_event_k(struct memcg_sim *ms, int ev)
{
	return event_index(ms, ev);
}

int memory_stat_show(struct sim_proc *p, void *frame)
{
	struct stat_show_frame *f = frame;
	struct memcg_sim *ms = f->ms;
	unsigned int nbytes;
	int k;

	CO_BEGIN(f);
	ENTER(f, KF_memory_stat_show);
	f->start = NOW(f);
	/* a bit per (CPU, line of its copy) */
	nbytes = (ms->nr_cpus * pcpu_lines(ms) + 7) / 8;
	if (!ms->cold_seen[f->cc->cpu]) {
		ms->cold_seen[f->cc->cpu] = calloc(nbytes, 1);
		SIM_BUG_ON(!ms->cold_seen[f->cc->cpu]);
	}
	memset(ms->cold_seen[f->cc->cpu], 0, nbytes);
	/* mem_cgroup_flush_stats() (v6.8: of this memcg) */
	if (f->ratelimited)
		CO_CALL(f, p, mem_cgroup_flush_stats_ratelimited, .ms = ms, .cc = f->cc,
			.memcg = f->memcg);
	else
		CO_CALL(f, p, mem_cgroup_flush_stats, .ms = ms, .cc = f->cc, .memcg = f->memcg);
	if (f->format == 2) {
		for (f->i = 0; f->i < ARRAY_SIZE(v2_state_reads); f->i++)
			CO_CALL(f, p, stat_read_one, .ms = ms, .cc = f->cc, .memcg = f->memcg,
				.k = (int)state_index(ms, v2_state_reads[f->i]));
		if (ms->k->stats_version == STATS_V6_0) {
			for (f->i = 0; f->i < ARRAY_SIZE(v2_events_v6_0); f->i++)
				CO_CALL(f, p, stat_read_one, .ms = ms,
					.cc = f->cc, .memcg = f->memcg,
					.event = true,
					.k = stat_event_k(ms, v2_events_v6_0[f->i]));
		} else {
			/*
			 * pgscan and pgsteal sum kswapd, direct and
			 * khugepaged; then every memcg_vm_event_stat[] entry
			 * but PGPGIN/PGPGOUT.
			 */
			for (f->i = 2; f->i < 8; f->i++)
				CO_CALL(f, p, stat_read_one, .ms = ms,
					.cc = f->cc, .memcg = f->memcg,
					.event = true, .k = (int)f->i);
			for (f->i = 2; f->i < ms->k->memcg_event_items; f->i++)
				CO_CALL(f, p, stat_read_one, .ms = ms,
					.cc = f->cc, .memcg = f->memcg,
					.event = true, .k = (int)f->i);
		}
		goto out;
	}
	/* v1: local, the hierarchical limits, then total_* */
	for (f->pass = 0; f->pass < 2; f->pass++) {
		for (f->i = 0; f->i < ARRAY_SIZE(v1_state_reads); f->i++)
			CO_CALL(f, p, stat_read_one, .ms = ms, .cc = f->cc, .memcg = f->memcg,
				.local = f->pass == 0,
				.k = (int)state_index(ms, v1_state_reads[f->i]));
		for (f->i = 0; f->i < ARRAY_SIZE(v1_events); f->i++) {
			k = stat_event_k(ms, v1_events[f->i]);
			if (k < 0)
				continue;
			CO_CALL(f, p, stat_read_one, .ms = ms, .cc = f->cc, .memcg = f->memcg,
				.event = true, .local = f->pass == 0, .k = k);
		}
		for (f->i = 0; f->i < ARRAY_SIZE(v1_lru_reads); f->i++)
			CO_CALL(f, p, stat_read_one, .ms = ms, .cc = f->cc, .memcg = f->memcg,
				.local = f->pass == 0,
				.k = (int)state_index(ms, v1_lru_reads[f->i]));
		if (f->pass)
			break;
		/*
		 * hierarchical_memory_limit: memory.max up the tree. SIM:
		 * memsw.max, read next to it, is not placed.
		 */
		for (f->m = f->memcg; f->m; f->m = f->m->parent)
			CO_AWAIT(f, coh_read(f->cc, f->m->memory.f[PC_MAX]));
	}
out:
	CO_AWAIT(f, coh_fence(f->cc));
	ms->counts.stat_reads++;
	sim_stat_add(&ms->read_lat, (double)(NOW(f) - f->start) /
					    SIM_PS_PER_NS);
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
