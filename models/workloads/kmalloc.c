// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/workloads/kmalloc.c - the kmalloc workload: a kfree(kmalloc())
 * loop of __GFP_ACCOUNT objects on every CPU of one memcg, the slab
 * microbenchmark of the object stock (Vlastimil Babka's "kfree(kmalloc())
 * loop of 10M iterations with/without __GFP_ACCOUNT", cited in "memcg:
 * combine slab obj stock charging and accounting", v6.16).
 *
 * Theory of operation: each task, one per CPU, allocates `objects`
 * objects of `size` bytes with kmalloc(size, GFP_KERNEL_ACCOUNT), then
 * frees them in the same order; that round is one operation. Every
 * kmalloc() and every kfree() spends half of `work_ns` in the slab
 * allocator outside the memory controller (its per-CPU freelist fast
 * path: about 58 cycles a pair, 581390144 cycles for 10M pairs without
 * __GFP_ACCOUNT in that commit message, some 20 ns at 3 GHz).
 *
 * kmalloc(size) takes an object of the kmalloc cache that fits (8, 16,
 * 32, 64, 96, 128, 192, 256, then powers of two up to 8192); with
 * kmem_accounting: objects each object is charged obj_full_size(s) = the
 * cache's object size + 8 bytes (the obj_cgroup pointer in the slab's
 * vector). What each operation does, by kernel key obj_stock_version
 * (models/kernel/mm/memcontrol.c, the object stock):
 *
 *   v5.13  kmalloc: slab_pre_alloc_hook() -> memcg_slab_pre_alloc_hook()
 *            -> obj_cgroup_charge(objcg, obj_full_size), before the
 *            object is taken from the freelist: consume_obj_stock()
 *            (interrupts off), else __memcg_kmem_charge() of a page and
 *            refill_obj_stock() with the rest (drained whole past a page);
 *          slab_post_alloc_hook() -> memcg_slab_post_alloc_hook() ->
 *            mod_objcg_state(+obj_full_size) -> mod_memcg_lruvec_state()
 *            (interrupts off): NR_SLAB_UNRECLAIMABLE_B of the memcg and
 *            its lruvec on this CPU, memcg_rstat_updated();
 *          kfree: memcg_slab_free_hook() -> obj_cgroup_uncharge()
 *            (refill_obj_stock()) and mod_objcg_state(-obj_full_size).
 *   v6.0   the same calls; mod_objcg_state() batches the bytes in the
 *          stock (nr_slab_unreclaimable_b), so a kfree() cancels its
 *          kmalloc()'s bytes there and no counter is touched until a page
 *          of them accumulates; whole pages charged ahead are uncharged
 *          as MEMCG_KMEM and the page stock refilled.
 *   v6.16  kmalloc, after the object is taken (v6.10 on):
 *            __memcg_slab_post_alloc_hook() ->
 *            obj_cgroup_charge_account(): the charge and the statistics
 *            under one local_trylock() of the separate obj_stock_pcp;
 *          kfree: __memcg_slab_free_hook() -> refill_obj_stock() with the
 *            negative statistics bytes, also one pass.
 *
 * kmem_accounting: off or pages charges nothing per object (pages: v4.8's
 * per-memcg caches charge whole slab pages when a slab grows; SIM: not
 * modelled, as in hackbench).
 *
 * SIM: every object is served from the CPU's slab freelist: new slab
 * pages (their node statistics, the obj_cgroups vector) are not
 * modelled; a slab's node is its CPU's; the objcg is the memcg's own
 * (current_obj_cgroup()).
 */
#include <stdlib.h>
#include <string.h>

#include "models/kernel/mm/memcontrol.h"
#include "models/workloads/workload.h"
#include "sim/co.h"
#include "sim/error.h"
#include "sim/util.h"

#define KMALLOC_MAX_CACHE_SIZE 8192 /* SLUB: 2 x PAGE_SIZE */

struct kmalloc_wl {
	uint64_t size, objects;
	sim_time_t work_ps;
	unsigned int obj_size; /* obj_full_size(s) */
	struct run *run;
	struct mem_cgroup *memcg;
};

static const struct scenario_key kmalloc_keys[] = {
	{
		.name = "size",
		.type = SCENARIO_KEY_SIZE,
		SCENARIO_KEY_MEMBER(struct kmalloc_wl, size),
		.min = 1,
		.max = KMALLOC_MAX_CACHE_SIZE,
		.def = 256,
		.doc = "The bytes asked of kmalloc() (at least 1); the object is the smallest kmalloc cache that fits (8 to 8192 bytes)",
	},
	{
		.name = "objects",
		.type = SCENARIO_KEY_U64,
		SCENARIO_KEY_MEMBER(struct kmalloc_wl, objects),
		.min = 1,
		.max = 1 << 20,
		.def = 1,
		.doc = "Objects allocated, then freed, per operation (1: a kfree(kmalloc()) loop)",
	},
	{
		.name = "work_ns",
		.type = SCENARIO_KEY_TIME,
		SCENARIO_KEY_MEMBER(struct kmalloc_wl, work_ps),
		.unit_ps = SIM_PS_PER_NS,
		.min = SIM_PS_PER_NS,
		.max = SIM_PS_PER_MS,
		.def = 20 * SIM_PS_PER_NS,
		.doc = "The slab allocator's own work per kmalloc() and kfree() pair, outside the memcg code (half each)",
	},
};

/*
 * kmalloc_size(): the kmalloc cache an allocation of @n bytes takes
 * (kmalloc_index(): 96 and 192 between the powers of two).
 */
static unsigned int kmalloc_cache_size(unsigned int n)
{
	unsigned int s = 8;

	if (n > 64 && n <= 96)
		return 96;
	if (n > 128 && n <= 192)
		return 192;
	while (s < n)
		s *= 2;
	return s;
}

static int kmalloc_parse(struct workload *w, const struct scenario_node *n,
			 const struct machine *m, struct sim_error *err)
{
	struct kmalloc_wl *km = calloc(1, sizeof(*km));

	(void)m;
	SIM_BUG_ON(!km);
	w->priv = km;
	if (scenario_keys_load(n, kmalloc_keys, ARRAY_SIZE(kmalloc_keys), km, w,
			       err))
		return -1;
	if (!km->size) {
		/* kmalloc(0) returns ZERO_SIZE_PTR: nothing to account */
		scenario_error(err, scenario_get(n, "size"),
			       "'size' must be at least 1");
		return -1;
	}
	/* obj_full_size(s): s->size + sizeof(struct obj_cgroup *) */
	km->obj_size = kmalloc_cache_size((unsigned int)km->size) + 8;
	return 0;
}

struct kmalloc_frame {
	struct co_frame co;
	struct sim_task *t;
	uint64_t i;
	int pgdat; /* slab_pgdat(slab): this CPU's node + 1 */
};

static int kmalloc_loop(struct sim_proc *p, void *frame)
{
	struct kmalloc_frame *f = frame;
	struct sim_task *t = f->t;
	struct kmalloc_wl *km = t->w->priv;
	bool objects = km->run->kernel->kmem_accounting == KMEM_OBJECTS;

	CO_BEGIN(f);
	while (task_running(t, km->run)) {
		task_op_begin(t);
		for (f->i = 0; f->i < km->objects; f->i++) {
			/* SIM: a million objects an operation is work too. */
			if (run_work(km->run, 1, t->proc.now))
				break;
			/* slab_alloc_node(): pre-alloc hook, freelist, post */
			if (objects)
				CO_CALL(f, p, memcg_slab_pre_alloc_hook,
					.objcg = &km->memcg->objcg,
					.obj_size = km->obj_size);
			KPROF_ENTER(&t->prof, KF_WORK, t->proc.now);
			coh_delay(t->k.cc, km->work_ps / 2);
			KPROF_EXIT(&t->prof, t->proc.now);
			if (objects)
				CO_CALL(f, p, memcg_slab_post_alloc_hook,
					.objcg = &km->memcg->objcg,
					.obj_size = km->obj_size,
					.pgdat = f->pgdat);
		}
		for (f->i = 0; f->i < km->objects; f->i++) {
			if (run_work(km->run, 1, t->proc.now))
				break;
			/* kfree() -> slab_free(): the hook, then the freelist */
			if (objects)
				CO_CALL(f, p, memcg_slab_free_hook,
					.objcg = &km->memcg->objcg,
					.obj_size = km->obj_size,
					.pgdat = f->pgdat);
			KPROF_ENTER(&t->prof, KF_WORK, t->proc.now);
			coh_delay(t->k.cc, km->work_ps - km->work_ps / 2);
			KPROF_EXIT(&t->prof, t->proc.now);
		}
		task_op_end(t, km->run);
		CO_AWAIT(f, sim_proc_sync(p));
	}
	CO_END(f, p);
}

static void kmalloc_setup(struct workload *w, struct run *run)
{
	struct kmalloc_wl *km = w->priv;
	unsigned int i;

	km->run = run;
	km->memcg = memcg_sim_find(run->memcg, w->cgroup);
	SIM_BUG_ON(!km->memcg);
	for (i = 0; i < w->nr_tasks; i++) {
		struct kmalloc_frame *f;

		f = co_push(&w->tasks[i].proc, kmalloc_loop, sizeof(*f));
		f->t = &w->tasks[i];
		f->pgdat = (int)run->machine.cpus[w->cpus[i]].socket + 1;
	}
}

static void kmalloc_destroy(struct workload *w)
{
	free(w->priv);
	w->priv = NULL;
}

/*
 * Each object is a unit of work twice (kmalloc() and kfree(), run_work()
 * in kmalloc_loop()), and an operation pays work_ns and the hooks once
 * per object.
 */
static double kmalloc_op_work(const struct workload *w, double *repeat)
{
	const struct kmalloc_wl *km = w->priv;

	*repeat = (double)km->objects;
	return 2.0 * (double)km->objects;
}

/*
 * v5.13's mod_objcg_state() of every kmalloc() and kfree() goes to the
 * counters; with stats_updates_atomic: always each update adds to the
 * global stats_flush_threshold (kmalloc-obj-stock's v5.13-atomic).
 */
static double kmalloc_shared_rmws(const struct workload *w,
				  const struct kernel_config *k)
{
	const struct kmalloc_wl *km = w->priv;

	if (!strcmp(w->cgroup, "/") || k->kmem_accounting != KMEM_OBJECTS ||
	    k->obj_stock_version != OBJ_STOCK_V5_13 ||
	    k->stats_updates_atomic != STATS_ATOMIC_ALWAYS)
		return 0;
	return 2.0 * (double)km->objects;
}

/* SIM: struct msg_msg on 64 bits: list_head, m_type, m_ts, next, security */
#define MSG_MSG_SIZE 48

/*
 * host-run's analogue: user space cannot call kmalloc(), but msgsnd()
 * does, once per message: load_msg() -> alloc_msg() kmalloc()s
 * sizeof(struct msg_msg) + the text with GFP_KERNEL_ACCOUNT (ipc/msgutil.c;
 * charged since "memcg: enable accounting of ipc resources", v5.15), and
 * msgrcv() kfree()s it (free_msg()). So a round is `objects` messages of
 * size - 48 bytes sent to the task's own queue, then received in order:
 * the same kmalloc cache, the same charge. The queue's locking and copies
 * are work the model's work_ns does not price: compare changes, not
 * rates. Sizes of 48 bytes or less (msg_msg alone is 48), or over a page
 * (the text would take a second, segment allocation), have no analogue.
 */
static int kmalloc_host(const struct workload *w, struct workload_host *h)
{
	const struct kmalloc_wl *km = w->priv;

	if (km->size <= MSG_MSG_SIZE || km->size > PAGE_SIZE) {
		snprintf(
			h->why, sizeof(h->why),
			"kmalloc size %llu: the host's analogue (msgsnd()'s msg_msg) allocates 49 to 4096 bytes",
			(unsigned long long)km->size);
		return -1;
	}
	h->kind = WH_KMALLOC;
	h->bytes = km->size - MSG_MSG_SIZE;
	h->objects = km->objects;
	return 0;
}

const struct workload_type kmalloc_type = {
	.name = "kmalloc",
	.summary =
		"a kfree(kmalloc()) loop of __GFP_ACCOUNT objects: the object stock and the slab statistics",
	.keys = kmalloc_keys,
	.nr_keys = ARRAY_SIZE(kmalloc_keys),
	.unit = "ops/s",
	.memcg = true,
	.parse = kmalloc_parse,
	.setup = kmalloc_setup,
	.destroy = kmalloc_destroy,
	.op_work = kmalloc_op_work,
	.op_shared_rmws = kmalloc_shared_rmws,
	.host = kmalloc_host,
};
