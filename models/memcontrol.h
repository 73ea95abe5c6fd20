/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Model of the charge paths of mm/memcontrol.c and include/linux/memcontrol.h
 * (Linux v6.0; v4.8 for kmem page charging on cgroup v1).
 *
 * Theory of operation
 *
 * A struct mem_cgroup per cgroup of the scenario, each with its memory
 * page_counter whose parent is the parent cgroup's, up to the root. A
 * charge of nr_pages to a memcg, try_charge_memcg():
 *
 *   1. the root memcg is never charged (try_charge());
 *   2. consume_stock(): this CPU's stock (struct memcg_stock_pcp) caches
 *      pages already charged to one memcg (`stock_memcgs` of them in later
 *      kernels); if it holds enough for this memcg, take them: CPU-local,
 *      no shared line touched;
 *   3. otherwise page_counter_try_charge() of batch = max(charge_batch,
 *      nr_pages) pages up the hierarchy; if a level is over memory.max,
 *      retry with nr_pages alone, then reclaim (a cost per page reclaimed,
 *      from the cgroup's `reclaimable` pages) and retry, and fail with
 *      -ENOMEM when nothing can be reclaimed (counted in failcnt);
 *   4. refill_stock() with the surplus, batch - nr_pages: a stock caching
 *      another memcg is drained first (its pages uncharged up the
 *      hierarchy), and a stock holding more than charge_batch pages is
 *      drained whole;
 *   5. the memory.high check: at every level up to the root, read usage
 *      and memory.high (and swap's), the loads that put every charging
 *      CPU on the hot usage lines even when nothing is over high.
 *
 * Uncharges give pages back to the stock (socket memory, kmem objects) or
 * straight to the page counters (folios, in batches; kmem pages before
 * v5.9). Socket memory: mem_cgroup_charge_skmem()/_uncharge_skmem().
 * Slab objects (kmem_accounting: objects) go through the byte-granular
 * per-CPU obj_cgroup stock, which charges and uncharges whole pages
 * through the page stock.
 *
 * Where the members live: struct mem_cgroup starts with the css (200
 * bytes at v6.0 on x86_64 without lockdep) and the 8-byte memcg id, so
 * `memory` sits at byte 208, 16 bytes into a line, after css.parent and
 * id (kernel key memory_offset; v6.1's page_counter is line-aligned, so
 * there it is 0). The per-CPU stock and per-CPU statistics sit on lines
 * only their CPU touches.
 *
 * Statistics: mod_memcg_state() adds to this CPU's counter of the memcg
 * and counts the update towards the global flush threshold (an atomic
 * every MEMCG_CHARGE_BATCH updates per CPU; memcg_rstat_updated()).
 * SIM: the rstat trees and flushing come with models/rstat.c. No OOM killer: a
 * charge that cannot be satisfied fails.
 *
 * Layering: models/ module; uses models/page_counter.h, models/kernel.h,
 * models/cache.h, models/kprof.h, sim/.
 */
#ifndef MODELS_MEMCONTROL_H
#define MODELS_MEMCONTROL_H

#include <stdbool.h>
#include <stdint.h>

#include "models/cache.h"
#include "models/kernel.h"
#include "models/page_counter.h"
#include "sim/co.h"
#include "sim/stats.h"

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)

#ifndef ENOMEM
#define ENOMEM 12
#endif

/* gfp flags the model looks at */
#define GFP_KERNEL 0x1u
#define GFP_NOWAIT 0x2u		/* may not reclaim: softirq context */
#define __GFP_NOFAIL 0x4u

struct memcg_sim;

/* Members of struct mem_cgroup the model places in memory. */
enum memcg_member {
	MEMCG_CSS_PARENT,
	MEMCG_ID,
	MEMCG_SWAP_USAGE,
	MEMCG_SWAP_HIGH,
	MEMCG_SOCKET_PRESSURE,
	NR_MEMCG_MEMBERS,
};

struct obj_cgroup {
	struct mem_cgroup *memcg;
	long nr_charged_bytes;		/* atomic_t */
	struct coh_object *obj;
};

struct mem_cgroup {
	struct mem_cgroup *parent;	/* css.parent */
	unsigned int id;		/* index in the scenario's cgroups */
	const char *path;
	struct page_counter memory;
	struct page_counter kmem;	/* v1 only */
	struct obj_cgroup objcg;
	uint64_t reclaimable;		/* pages reclaim may free */

	/* SIM: where it lives and what happened to it */
	struct coh_object *obj;
	struct coh_object **vmstats_percpu;	/* [nr_cpus], on first use */
	long sock_pages;		/* MEMCG_SOCK */
	uint64_t nr_reclaimed, nr_failed;
};

struct memcg_stock_pcp {
	/* local_lock_t stock_lock: interrupts off, no shared memory */
	struct mem_cgroup *cached[MEMCG_STOCK_MAX];	/* never the root */
	unsigned int nr_pages[MEMCG_STOCK_MAX];
	struct obj_cgroup *cached_objcg;
	unsigned int nr_bytes;
	struct coh_object *obj;		/* SIM: its line */
	unsigned int evict;		/* SIM: next slot to evict */
};

/* What the charge paths did, for the report. */
struct memcg_counts {
	uint64_t charges;		/* try_charge_memcg() calls */
	uint64_t stock_hits;		/* served by consume_stock() */
	uint64_t pc_try_charges;	/* page_counter_try_charge() calls */
	uint64_t pc_uncharges;		/* page_counter_uncharge() calls */
	uint64_t drains;		/* drain_stock() with pages */
	uint64_t failures;		/* -ENOMEM */
	uint64_t reclaimed;		/* pages */
	uint64_t uncharges;		/* uncharge calls of any path */
};

/*
 * struct memcg_sim - the memory controller of one run: every memcg, every
 * CPU's stock, the knobs.
 */
struct memcg_sim {
	const struct kernel_config *k;
	struct coh *coh;
	unsigned int nr_cpus;
	unsigned int nr_memcgs;
	struct mem_cgroup *memcgs;	/* [0] is root_mem_cgroup */
	struct memcg_stock_pcp *stock;	/* [nr_cpus] */
	struct page_counter_layout pcl;
	struct coh_layout memcg_layout;
	struct coh_layout_field *memcg_fields;
	char member_names[2][NR_PC_MEMBERS][32];	/* memory.*, kmem.* */
	struct coh_layout stock_layout, pcpu_layout, objcg_layout;
	struct coh_layout pcpu_stats_layout, global_layout;
	struct coh_object **pcpu_stats;	/* [nr_cpus] stats_updates etc. */
	unsigned int *stats_updates;	/* [nr_cpus] */
	struct coh_object *flush_threshold;	/* stats_flush_threshold */
	long stats_flush_threshold;
	sim_time_t reclaim_ps;		/* per page reclaimed */
	struct memcg_counts counts;
	struct sim_stat charge_lat;	/* try_charge_memcg() that charged, ns */
};

/*
 * memcg_sim_create() - the memcgs of @tree with the knobs of @k, laid out
 * in @coh's memory. Returns NULL with @err set when a layout file cannot
 * be used.
 */
struct memcg_sim *memcg_sim_create(const struct kernel_config *k,
				   const struct cgroup_tree *tree,
				   struct coh *coh, unsigned int nr_cpus);
void memcg_sim_free(struct memcg_sim *ms);
void memcg_sim_reset_counts(struct memcg_sim *ms);
struct mem_cgroup *memcg_sim_find(struct memcg_sim *ms, const char *path);

static inline bool mem_cgroup_is_root(const struct memcg_sim *ms,
				      const struct mem_cgroup *memcg)
{
	return memcg == &ms->memcgs[0];
}

/*
 * The coroutines: CO_CALL(f, p, fn, struct memcg_frame, .ms = ms, .cc = cc,
 * .memcg = memcg, .nr_pages = n, .gfp = GFP_KERNEL). Results in p->ret:
 * try_charge() 0 or -ENOMEM, mem_cgroup_charge_skmem() bool.
 */
struct memcg_frame {
	struct co_frame co;
	struct memcg_sim *ms;
	struct coh_cpu *cc;
	struct mem_cgroup *memcg;
	unsigned int nr_pages;
	unsigned int gfp;
	/* locals */
	unsigned int batch, i;
	struct page_counter *counter;
	struct mem_cgroup *over, *m;
	struct memcg_stock_pcp *stock;
	sim_time_t start;
	bool drained;
	int retries;
	long ret;
};

int try_charge(struct sim_proc *p, void *frame);
/*
 * mod_memcg_state() - a statistics update of nr_pages (the absolute value
 * of the change) by this CPU: the per-CPU counter, and
 * memcg_rstat_updated()'s count towards the flush threshold.
 */
int mod_memcg_state(struct sim_proc *p, void *frame);
int consume_stock(struct sim_proc *p, void *frame);
int refill_stock(struct sim_proc *p, void *frame);
int mem_cgroup_charge_skmem(struct sim_proc *p, void *frame);
int mem_cgroup_uncharge_skmem(struct sim_proc *p, void *frame);
/*
 * mem_cgroup_under_socket_pressure(): read socket_pressure at every level
 * up to the root; returns bool in p->ret (SIM: never set, as vmpressure
 * is not modelled).
 */
int mem_cgroup_under_socket_pressure(struct sim_proc *p, void *frame);
/* A one-page folio charge (mem_cgroup_charge() -> charge_memcg()). */
int charge_memcg(struct sim_proc *p, void *frame);
/* uncharge_batch(): nr_pages folios of one memcg freed together. */
int uncharge_batch(struct sim_proc *p, void *frame);
/* kmem_accounting: pages. A page (nr_pages) allocated with __GFP_ACCOUNT. */
int memcg_kmem_charge_page(struct sim_proc *p, void *frame);
int memcg_kmem_uncharge_page(struct sim_proc *p, void *frame);

/* kmem_accounting: objects. @size bytes of slab objects. */
struct obj_frame {
	struct co_frame co;
	struct memcg_sim *ms;
	struct coh_cpu *cc;
	struct obj_cgroup *objcg;
	unsigned int size;
	/* locals */
	struct memcg_stock_pcp *stock;
	unsigned int nr_pages, nr_bytes;
	bool ok;
};

int obj_cgroup_charge(struct sim_proc *p, void *frame);
int obj_cgroup_uncharge(struct sim_proc *p, void *frame);

#endif /* MODELS_MEMCONTROL_H */
