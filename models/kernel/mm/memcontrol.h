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
 * Statistics (memcontrol_stats.c; doc/memcg-stats.md has
 * the kernel's code described version by version):
 *  - Updates. __mod_memcg_state(), __mod_lruvec_state() and
 *    __count_memcg_events() add to this CPU's copy of the memcg's
 *    counters (struct memcg_vmstats_percpu; for node items also the
 *    per-node lruvec copy and the node's vmstat diff), then
 *    memcg_rstat_updated() links the memcg into this CPU's rstat tree
 *    (models/kernel/kernel/cgroup/rstat.c) and counts the change towards a flush:
 *    stats_flush_threshold: global (v6.0) adds to a per-CPU count and,
 *    every MEMCG_CHARGE_BATCH, to the global atomic stats_flush_threshold
 *    (v6.1 skips the atomic once a flush is due); per_memcg (v6.8) walks
 *    the ancestors' per-CPU counts and adds to each one's atomic
 *    vmstats->stats_updates unless that memcg is already flushable.
 *  - Flushes. Readers call mem_cgroup_flush_stats(), which flushes when
 *    the threshold passes MEMCG_CHARGE_BATCH x num_online_cpus(): the
 *    whole tree (global) or the subtree of the memcg read (per_memcg).
 *    stats_flush_skip: a flush that finds another ongoing returns at once
 *    (v6.0 trylock, v6.6 atomic), else it waits for cgroup_rstat_lock.
 *    The rstat callback mem_cgroup_css_rstat_flush() walks every item of
 *    a (memcg, CPU): the pending count from the children, the CPU's
 *    counter (a remote read: the line leaves the updater) and its
 *    previous value, and adds the delta to the memcg and the parent's
 *    pending. A periodic worker flushes every stats_flush_period_ms;
 *    ratelimited callers flush only 2 periods after the last one.
 *  - Reads. memory.stat v2 reads the flushed hierarchical counters; v1
 *    also reads local ones: local_stats: percpu_sum sums the counter over
 *    every possible CPU (v6.0), aggregated reads the flush's state_local
 *    (v6.6). Every read of a modelled item is compared with the exact
 *    value: the stats error.
 *
 * SIM: No OOM killer: a charge that cannot be satisfied fails.
 *
 * Where things are: memcontrol.c the charge paths, memcontrol_stats.c the
 * statistics, each in mm/memcontrol.c's order; memcg_sim.c the SIM setup
 * (memcg_sim_create() and the layouts); memcontrol_internal.h what they
 * share.
 *
 * Layering: models/ module; uses models/kernel/mm/page_counter.h, models/kernel/sim/config.h,
 * models/hw/cache.h, models/kernel/sim/kprof.h, sim/.
 */
#ifndef MODELS_KERNEL_MEMCONTROL_H
#define MODELS_KERNEL_MEMCONTROL_H

#include <stdbool.h>
#include <stdint.h>

#include "models/hw/cache.h"
#include "models/kernel/compat/kernel.h"
#include "models/kernel/sim/config.h"
#include "models/kernel/mm/page_counter.h"
#include "models/kernel/kernel/cgroup/rstat.h"
#include "sim/co.h"
#include "sim/stats.h"

struct memcg_sim;
struct lru_sim;

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
	long nr_charged_bytes; /* atomic_t */
	struct coh_object *obj;
};

/*
 * The statistics items the modelled paths update, and where the kernel
 * keeps them (memcg__stat_index() and memcg__event_index() in
 * memcontrol_stats.c give their indexes in the kernel's arrays). SIM:
 * only these hold values; every other item of the arrays costs what its
 * lines cost and stays 0.
 */
enum memcg_stat_sim {
	/* enum node_stat_item: memcg and per-node lruvec counters */
	SIM_NR_INACTIVE_ANON, /* NR_LRU_BASE + LRU_INACTIVE_ANON */
	SIM_NR_ANON_MAPPED,
	/*
	 * File and shmem items (the will-it-scale file workloads): held
	 * and read as modelled only in runs whose workloads call
	 * memcg_sim_model_stat() for them.
	 */
	SIM_NR_FILE_MAPPED,
	SIM_NR_FILE_PAGES,
	SIM_NR_SHMEM,
	SIM_NR_SLAB_UNRECLAIMABLE_B, /* bytes; kmalloc caches */
	/* enum memcg_stat_item: memcg counters only */
	SIM_MEMCG_SOCK,
	SIM_MEMCG_KMEM,
	NR_SIM_STATE,
};
#define NR_SIM_NODE_ITEMS 6 /* the first ones above */

enum memcg_event_sim { SIM_PGPGIN, SIM_PGPGOUT, SIM_PGFAULT, NR_SIM_EVENTS };

/* mem_cgroup_per_node->lruvec_stats_percpu, one CPU's copy */
struct lruvec_stats_percpu {
	long state[NR_SIM_NODE_ITEMS];
	long state_prev[NR_SIM_NODE_ITEMS];
	struct coh_object *obj;
};

/* memcg->vmstats_percpu, one CPU's copy; made on first use */
struct memcg_vmstats_percpu {
	unsigned int stats_updates; /* v6.8: this CPU's pending count */
	long state[NR_SIM_STATE];
	long events[NR_SIM_EVENTS];
	long state_prev[NR_SIM_STATE];
	long events_prev[NR_SIM_EVENTS];
	unsigned long nr_page_events; /* memcg_check_events() */
	unsigned long targets[2]; /* MEM_CGROUP_NTARGETS */
	struct coh_object *obj;
	struct lruvec_stats_percpu *lruvec; /* [nr_nodes] */
};

/* mem_cgroup_per_node->lruvec_stats */
struct lruvec_stats {
	long state[NR_SIM_NODE_ITEMS];
	long state_local[NR_SIM_NODE_ITEMS]; /* v6.6 on */
	long state_pending[NR_SIM_NODE_ITEMS];
	struct coh_object *obj;
};

/* memcg->vmstats: the flushed (aggregated) counters */
struct memcg_vmstats {
	long state[NR_SIM_STATE];
	long events[NR_SIM_EVENTS];
	long state_local[NR_SIM_STATE]; /* v6.6 on */
	long events_local[NR_SIM_EVENTS];
	long state_pending[NR_SIM_STATE];
	long events_pending[NR_SIM_EVENTS];
	long stats_updates; /* v6.8 atomic64_t */
	struct coh_object *obj;
};

/* SIM: the exact values, every update applied at once: the stats error */
struct memcg_stats_truth {
	long state[NR_SIM_STATE], state_local[NR_SIM_STATE];
	long events[NR_SIM_EVENTS], events_local[NR_SIM_EVENTS];
};

/*
 * struct stat_layout - a statistics struct whose members are arrays of
 * longs: each array is split into fields at line boundaries, so element i
 * of array a is the field of its line.
 */
#define STAT_MAX_ARRAYS 8
struct stat_layout {
	struct coh_layout l;
	struct coh_layout_field *fields;
	char (*names)[32];
	unsigned int nr_arrays;
	struct {
		unsigned int off, n, first;
	} a[STAT_MAX_ARRAYS];
};

struct mem_cgroup {
	struct mem_cgroup *parent; /* css.parent */
	unsigned int id; /* index in the scenario's cgroups */
	const char *path;
	struct page_counter memory;
	/*
	 * v2's swap and v1's memsw share their storage, as in the kernel.
	 * SIM: swap is never charged (no swap-out is modelled); only its
	 * usage and high are placed, for the loads of try_charge_memcg()'s
	 * memory.high check. memsw is placed whole, and charged, when
	 * do_memsw_account().
	 */
	union {
		struct page_counter swap; /* v2 only */
		struct page_counter memsw; /* v1 only */
	};
	struct page_counter kmem; /* v1 only */
	/* v1 with tcpmem_active: socket memory (memory.kmem.tcp.*) */
	struct page_counter tcpmem;
	unsigned long socket_pressure; /* SIM: never set (no vmpressure) */
	int tcpmem_pressure; /* v1: the last tcpmem charge failed */
	struct obj_cgroup objcg;
	uint64_t reclaimable; /* pages reclaim may free */

	/* SIM: where it lives and what happened to it */
	struct coh_object *obj;
	struct {
		struct coh_field *parent, *id, *socket_pressure;
		struct coh_field *tcpmem_pressure;
	} coh; /* for the compat macros */
	struct memcg_vmstats vmstats;
	struct lruvec_stats *lruvec_stats; /* [nr_nodes] */
	struct memcg_vmstats_percpu **vmstats_percpu; /* [nr_cpus] */
	struct memcg_stats_truth truth;
	long sock_pages; /* MEMCG_SOCK */
	uint64_t nr_reclaimed, nr_failed;
};

/*
 * struct memcg_stock_sim - SIM: what one CPU's page stock did, for explain
 * (reset at the end of the warm-up; not in the simulated memory).
 * @switches: refill_stock() calls that cached a memcg in a slot holding
 *	another (drained first)
 * @drains: drain_stock() calls that gave pages back
 * @used: the first MEMCG_STOCK_SEEN memcgs this CPU charged
 *	(consume_stock() calls) or refilled the stock for (refill_stock()),
 *	with both counts; @used_other counts the calls for further memcgs
 */
#define MEMCG_STOCK_SEEN 8
struct memcg_stock_sim {
	uint64_t switches, drains;
	unsigned int nr_used;
	struct {
		const struct mem_cgroup *memcg;
		uint64_t charges, refills;
	} used[MEMCG_STOCK_SEEN];
	uint64_t used_other;
};

/*
 * struct memcg_stock_pcp - a CPU's stock of pre-charged pages and bytes.
 * local_lock_t stock_lock: interrupts off, no shared memory. SIM: v6.0
 * caches one memcg; later kernels several (stock_memcgs), in slots that
 * share the line and, here, one field per member.
 */
struct memcg_stock_pcp {
	struct mem_cgroup *cached[MEMCG_STOCK_MAX]; /* never the root */
	unsigned int nr_pages[MEMCG_STOCK_MAX];
	struct obj_cgroup *cached_objcg;
	unsigned int nr_bytes;
	/*
	 * v5.14 on: slab statistics not yet in the per-CPU counters.
	 * SIM: cached_pgdat is the node + 1 (0: NULL); the three share the
	 * line with nr_bytes and are reached through its field.
	 */
	int cached_pgdat;
	int nr_slab_reclaimable_b, nr_slab_unreclaimable_b;
	/* SIM: its line, and the fields for the compat macros */
	struct coh_object *obj;
	struct {
		struct coh_field *cached, *nr_pages, *cached_objcg, *nr_bytes;
	} coh;
	unsigned int evict; /* SIM: next slot to evict */
	struct memcg_stock_sim sim;
};

/* What the charge paths did, for the report. */
struct memcg_counts {
	uint64_t charges; /* try_charge_memcg() calls */
	uint64_t stock_hits; /* served by consume_stock() */
	uint64_t pc_try_charges; /* page_counter_try_charge() calls */
	uint64_t pc_uncharges; /* page_counter_uncharge() calls */
	uint64_t drains; /* drain_stock() with pages */
	uint64_t failures; /* -ENOMEM */
	uint64_t reclaimed; /* pages */
	uint64_t uncharges; /* uncharge calls of any path */
	/* statistics */
	uint64_t stats_atomics; /* RMWs on flush-threshold counters */
	uint64_t flushed_cpus; /* (memcg, CPU) pairs flushed */
	uint64_t flushes; /* do_flush_stats() that flushed */
	uint64_t flushes_skipped; /* ... that found one ongoing */
	uint64_t stat_reads; /* memory.stat reads */
	uint64_t error_reads; /* counters checked against truth */
	double error_sum, error_max; /* pages (events: counts) */
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
	struct mem_cgroup *memcgs; /* [0] is root_mem_cgroup */
	struct memcg_stock_pcp *stock; /* [nr_cpus] */
	/*
	 * obj_stock_version v6.16: DEFINE_PER_CPU(struct obj_stock_pcp),
	 * [nr_cpus]. SIM: a struct memcg_stock_pcp of its own line whose
	 * object members (cached_objcg, nr_bytes, the slab statistics) are
	 * the kernel's; its page members are unused. NULL before v6.16,
	 * where the object stock is part of memcg_stock_pcp.
	 */
	struct memcg_stock_pcp *obj_stock;
	struct page_counter_layout pcl;
	struct coh_layout memcg_layout;
	struct coh_layout_field *memcg_fields;
	/* memory, kmem, tcpmem, memsw */
	char member_names[4][NR_PC_MEMBERS][32];
	/* SIM: the memsw members but usage and high (do_memsw_account()) */
	unsigned int memsw_first;
	struct coh_layout stock_layout, objcg_layout, obj_stock_layout;
	struct coh_layout pcpu_stats_layout, global_layout;
	struct coh_object **pcpu_stats; /* [nr_cpus] stats_updates etc. */
	unsigned int *stats_updates; /* [nr_cpus] */
	struct coh_object *flush_threshold; /* stats_flush_threshold */
	long stats_flush_threshold;
	/* statistics (memcontrol_stats.c) */
	unsigned int nr_nodes; /* N_MEMORY nodes: the sockets */
	struct stat_layout pcpu_sl, vmstats_sl, lruvec_pcpu_sl, lruvec_sl;
	struct coh_layout node_pcp_layout;
	int *state_slot, *event_slot; /* kernel index -> SIM_*, or -1 */
	/* SIM_* -> kernel index: memcg__stat_index(), once for every update */
	unsigned int stat_index[NR_SIM_STATE];
	struct rstat *rstat;
	int *cgroup_parent; /* [nr_memcgs] for rstat */
	struct coh_object *flush_lock; /* stats_flush_lock / _ongoing */
	struct coh_object *flush_time; /* flush_next_time / last_time */
	bool flush_ongoing;
	sim_time_t flush_next_time; /* v6.8: flush_last_time + 4 s */
	sim_time_t flush_period_ps; /* FLUSH_TIME */
	struct coh_object **node_pcp; /* [cpu * nr_nodes + node] */
	long *node_diff; /* [(cpu * nr_nodes + node) * 2 + i] */
	struct coh_object **node_vm_stat; /* [nr_nodes] pgdat->vm_stat */
	struct coh_object *vm_node_stat; /* the global one */
	unsigned char **cold_seen; /* [reader cpu]: (cpu, line) bitmap */
	struct sim_stat flush_lat; /* do_flush_stats() that flushed, ns */
	struct sim_stat read_lat; /* memory.stat reads, ns */
	struct sim_stat pass_lat; /* stat_reader passes, ns */
	sim_time_t reclaim_ps; /* per page reclaimed */
	struct memcg_counts counts;
	struct sim_stat charge_lat; /* try_charge_memcg() that charged, ns */
	struct lru_sim *lru; /* models/kernel/mm/swap.h; NULL: lru_lock off */
};

/**
 * memcg_sim_create() - the memory controller of a run (memcg_sim.c)
 * @k: the kernel configuration; its layouts were checked when the
 *	scenario was loaded, so nothing here can fail on user input
 * @tree: the cgroups, root first
 * @coh: the memory the memcgs, stocks and statistics are placed in
 * @nr_cpus: CPUs with a stock and per-CPU statistics
 *
 * Context: setup, before the engine runs; SIM only.
 * Return: the controller, never NULL (out of host memory is a
 * SIM_BUG_ON); free it with memcg_sim_free(). It keeps pointers to @k,
 * @tree's paths and @coh, which must outlive it.
 */
struct memcg_sim *memcg_sim_create(const struct kernel_config *k,
				   const struct cgroup_tree *tree,
				   struct coh *coh, unsigned int nr_cpus);
/* memcg_sim_free() - free @ms and what it allocated; NULL is a no-op. */
void memcg_sim_free(struct memcg_sim *ms);
/* memcg_sim_reset_counts() - zero the counts and latencies (warm-up). */
void memcg_sim_reset_counts(struct memcg_sim *ms);
struct mem_cgroup *memcg_sim_find(struct memcg_sim *ms, const char *path);
void memcg_sim_model_stat(struct memcg_sim *ms, int idx);

/*
 * memcg1_tcpmem_active() - v1 charges socket memory (to memcg->tcpmem)
 * once memory.kmem.tcp.limit_in_bytes has been written (mm/memcontrol-v1.c,
 * v6.11 on; memcg->tcpmem_active in v6.0's mm/memcontrol.c). SIM: of the
 * run, kernel.tcpmem_active, not of each memcg: host-run writes the limit
 * in every memcg it makes.
 */
static inline bool memcg1_tcpmem_active(const struct kernel_config *k)
{
	return k->cgroup_version == 1 && k->tcpmem_active;
}

/*
 * do_memsw_account() - v1's memory+swap counter is charged beside memory
 * (mm/memcontrol.c, v6.0: !cgroup_subsys_on_dfl(memory_cgrp_subsys) &&
 * !cgroup_memory_noswap; v4.8: && do_swap_account; mm/memcontrol-v1.h
 * from v6.11, v1 alone). SIM: cgroup_memory_noswap is !swap_account.
 */
static inline bool do_memsw_account(const struct kernel_config *k)
{
	return k->cgroup_version == 1 && k->swap_account;
}

static inline bool mem_cgroup_is_root(const struct memcg_sim *ms,
				      const struct mem_cgroup *memcg)
{
	return memcg == &ms->memcgs[0];
}

/*
 * The coroutines, one frame each, `struct <function>_frame`: the kernel
 * function's parameters, then its locals, under the kernel's names. The
 * CPU and the memcg world are the process's (compat/sim.h). Call them
 * with CO_CALL(f, p, fn, .memcg = memcg, ...). Results are in p->ret.
 */

/* consume_stock(): returns bool, whether the stock served the charge */
struct consume_stock_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	unsigned int nr_pages;
	/* locals */
	struct memcg_stock_pcp *stock;
	bool ret;
	unsigned int slot; /* SIM: stock_memcgs > 1 */
};

int consume_stock(struct sim_proc *p, void *frame);

struct refill_stock_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	unsigned int nr_pages;
	/* locals */
	struct memcg_stock_pcp *stock;
	unsigned int slot; /* SIM: stock_memcgs > 1 */
};

int refill_stock(struct sim_proc *p, void *frame);

/* try_charge(): returns 0 or -ENOMEM; the root memcg is never charged */
struct try_charge_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	unsigned int gfp_mask;
	unsigned int nr_pages;
};

int try_charge(struct sim_proc *p, void *frame);

/*
 * memcg_kmem_charge_page(), kmem_accounting: pages. A page of nr_pages
 * allocated with __GFP_ACCOUNT (v4.8 memcg_kmem_charge_memcg()); returns
 * 0 or -ENOMEM.
 */
struct memcg_kmem_charge_page_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	unsigned int gfp;
	unsigned int nr_pages;
	/* locals */
	struct page_counter *counter;
	int ret;
};

int memcg_kmem_charge_page(struct sim_proc *p, void *frame);

struct memcg_kmem_uncharge_page_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	unsigned int nr_pages;
};

int memcg_kmem_uncharge_page(struct sim_proc *p, void *frame);

/* kmem_accounting: objects. @size bytes of slab objects. */
struct obj_cgroup_charge_frame {
	struct co_frame co;
	struct obj_cgroup *objcg;
	size_t size; /* SIM: no gfp: GFP_KERNEL */
	/*
	 * v6.16's obj_cgroup_charge_account(): the slab's node + 1, to
	 * count @size in NR_SLAB_UNRECLAIMABLE_B there; 0 (pgdat NULL):
	 * obj_cgroup_charge(), no statistics.
	 */
	int pgdat;
	/* locals */
	unsigned int nr_pages, nr_bytes;
	int ret;
	struct memcg_stock_pcp *stock; /* consume_obj_stock(), inlined */
};

int obj_cgroup_charge(struct sim_proc *p, void *frame);

struct obj_cgroup_uncharge_frame {
	struct co_frame co;
	struct obj_cgroup *objcg;
	size_t size;
};

int obj_cgroup_uncharge(struct sim_proc *p, void *frame);

/*
 * The slab hooks of a __GFP_ACCOUNT object (mm/slab.h in v5.13 and v6.0,
 * mm/memcontrol.c later): the charge (before the allocation up to v6.0,
 * after it at v6.16) and the NR_SLAB_UNRECLAIMABLE_B update of one
 * object of @obj_size bytes (obj_full_size(s): the cache's object size
 * plus the 8-byte objcg pointer), on a slab of node @pgdat - 1, by
 * obj_stock_version.
 */
struct memcg_slab_pre_alloc_hook_frame {
	struct co_frame co;
	struct obj_cgroup *objcg;
	unsigned int obj_size;
	/* locals */
	int ret;
};

int memcg_slab_pre_alloc_hook(struct sim_proc *p, void *frame);

struct memcg_slab_post_alloc_hook_frame {
	struct co_frame co;
	struct obj_cgroup *objcg;
	unsigned int obj_size;
	int pgdat; /* node + 1 */
	/* locals */
	int ret;
};

int memcg_slab_post_alloc_hook(struct sim_proc *p, void *frame);

struct memcg_slab_free_hook_frame {
	struct co_frame co;
	struct obj_cgroup *objcg;
	unsigned int obj_size;
	int pgdat; /* node + 1 */
};

int memcg_slab_free_hook(struct sim_proc *p, void *frame);

/* charge_memcg(): a folio of nr_pages; returns 0 or -ENOMEM */
struct charge_memcg_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	unsigned int gfp;
	unsigned int nr_pages; /* folio_nr_pages(folio) */
	/* locals */
	int ret;
};

int charge_memcg(struct sim_proc *p, void *frame);

/* What uncharge_folio() gathered: folios of one memcg freed together. */
struct uncharge_gather {
	struct mem_cgroup *memcg;
	unsigned long nr_memory; /* pages */
	unsigned long pgpgout; /* folios */
};

struct uncharge_batch_frame {
	struct co_frame co;
	struct uncharge_gather ug; /* SIM: by value, not const * */
};

int uncharge_batch(struct sim_proc *p, void *frame);

/* mem_cgroup_charge_skmem(): returns bool, whether it charged */
struct mem_cgroup_charge_skmem_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	unsigned int nr_pages;
	unsigned int gfp_mask;
	/* locals */
	struct page_counter *fail; /* v1 */
};

int mem_cgroup_charge_skmem(struct sim_proc *p, void *frame);

struct mem_cgroup_uncharge_skmem_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	unsigned int nr_pages;
};

int mem_cgroup_uncharge_skmem(struct sim_proc *p, void *frame);

/*
 * mem_cgroup_under_socket_pressure(): read socket_pressure at every level
 * up to the root; returns bool (SIM: never set, as vmpressure is not
 * modelled).
 */
struct mem_cgroup_under_socket_pressure_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
};

int mem_cgroup_under_socket_pressure(struct sim_proc *p, void *frame);

/*
 * mod_memcg_state() - a statistics update by this CPU: the per-CPU
 * counter, and memcg_rstat_updated()'s count towards the flush threshold.
 * @idx is a SIM item (enum memcg_stat_sim).
 */
struct mod_memcg_state_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	int idx;
	long val;
};

int mod_memcg_state(struct sim_proc *p, void *frame);

/*
 * mod_lruvec_state(): a node item, on this CPU's node. SIM: the lruvec
 * is named by its memcg; the node is the CPU's.
 */
struct mod_lruvec_state_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	int idx;
	long val;
};

int mod_lruvec_state(struct sim_proc *p, void *frame);

/*
 * __mod_lruvec_state(): the same with interrupts already off (under the
 * LRU lock: models/kernel/mm/swap.c).
 */
struct __mod_lruvec_state_frame {
	struct co_frame co;
	struct mem_cgroup *memcg; /* SIM: the lruvec's */
	int idx;
	long val;
};

int __mod_lruvec_state(struct sim_proc *p, void *frame);

/* count_memcg_events(): @idx is a SIM event (enum memcg_event_sim) */
struct count_memcg_events_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	int idx;
	long count;
};

int count_memcg_events(struct sim_proc *p, void *frame);

/*
 * mem_cgroup_flush_stats(): flush if the threshold says so. @memcg is the
 * one about to be read (v6.8 flushes its subtree; before, the root's;
 * NULL: the root).
 */
struct mem_cgroup_flush_stats_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	/* locals */
	bool needs_flush;
};

int mem_cgroup_flush_stats(struct sim_proc *p, void *frame);

struct mem_cgroup_flush_stats_ratelimited_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
};

int mem_cgroup_flush_stats_ratelimited(struct sim_proc *p, void *frame);

/* flush_memcg_stats_dwork(): the periodic flush, whatever the threshold */
struct flush_memcg_stats_dwork_frame {
	struct co_frame co;
};

int flush_memcg_stats_dwork(struct sim_proc *p, void *frame);

/*
 * memcg_stats_kworker() - SIM: the periodic flusher's loop, on a CPU no
 * task uses (cmd/run/run.c), until @end_ps.
 */
struct memcg_stats_kworker_frame {
	struct co_frame co;
	sim_time_t end_ps;
};

int memcg_stats_kworker(struct sim_proc *p, void *frame);

/* memory_stat_show(): memory.stat of @memcg in cgroup v1 or v2 format */
struct memory_stat_show_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	unsigned int format; /* SIM: 1 or 2 */
	bool ratelimited; /* SIM: flush as an in-kernel reader would */
	/* locals */
	unsigned int i;
	unsigned int pass; /* v1: local, then total_ */
	struct mem_cgroup
		*mi; /* v1: for_each_mem_cgroup_tree()'s ancestor walk */
	sim_time_t start; /* SIM: read latency */
};

int memory_stat_show(struct sim_proc *p, void *frame);

/* The rstat callback (models/kernel/kernel/cgroup/rstat.h struct rstat_cb_frame). */
int mem_cgroup_css_rstat_flush(struct sim_proc *p, void *frame);

#endif /* MODELS_KERNEL_MEMCONTROL_H */
