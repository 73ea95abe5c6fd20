// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of the statistics of mm/memcontrol.c (Linux v6.0, v6.6, v6.8 by
 * stats_version; doc/memcg-stats.md has the kernel's code version by
 * version): memcg_rstat_updated() and the flush threshold, the flushes,
 * the per-CPU updates, the rstat flush callback and memory.stat. The
 * functions are in the kernel file's order. Theory of operation: see
 * memcontrol.h.
 */
#include <stdlib.h>
#include <string.h>

#include "models/kernel/compat/access.h"
#include "models/kernel/compat/kernel.h"
#include "models/kernel/mm/memcontrol_internal.h"
#include "sim/error.h"
#include "sim/util.h"

/* ---- statistics: where the kernel keeps them ---- */

/*
 * Positions in enum node_stat_item (doc/memcg-stats.md 1.1) and, after
 * the node items, in enum memcg_stat_item (1.2).
 */
enum {
	K_NR_INACTIVE_ANON = 0,
	K_NR_ACTIVE_ANON,
	K_NR_INACTIVE_FILE,
	K_NR_ACTIVE_FILE,
	K_NR_UNEVICTABLE,
	K_NR_SLAB_RECLAIMABLE_B,
	K_NR_SLAB_UNRECLAIMABLE_B,
	K_WORKINGSET_REFAULT_ANON = 10,
	K_WORKINGSET_REFAULT_FILE,
	K_WORKINGSET_ACTIVATE_ANON,
	K_WORKINGSET_ACTIVATE_FILE,
	K_WORKINGSET_RESTORE_ANON,
	K_WORKINGSET_RESTORE_FILE,
	K_WORKINGSET_NODERECLAIM,
	K_NR_ANON_MAPPED = 17,
	K_NR_FILE_MAPPED,
	K_NR_FILE_PAGES,
	K_NR_FILE_DIRTY,
	K_NR_WRITEBACK,
	K_NR_SHMEM = 23,
	K_NR_SHMEM_THPS,
	K_NR_FILE_THPS = 26,
	K_NR_ANON_THPS = 28,
	K_NR_KERNEL_STACK_KB = 37,
	K_NR_PAGETABLE,
	K_NR_SECONDARY_PAGETABLE,
	K_NR_SWAPCACHE,
};
#define K_MEMCG 1000 /* + enum memcg_stat_item */
enum {
	K_MEMCG_SWAP = K_MEMCG,
	K_MEMCG_SOCK,
	K_MEMCG_PERCPU_B,
	K_MEMCG_VMALLOC,
	K_MEMCG_KMEM,
	K_MEMCG_ZSWAP_B,
	K_MEMCG_ZSWAPPED,
};

static const int sim_state_k[NR_SIM_STATE] = {
	[SIM_NR_INACTIVE_ANON] = K_NR_INACTIVE_ANON,
	[SIM_NR_ANON_MAPPED] = K_NR_ANON_MAPPED,
	[SIM_NR_FILE_MAPPED] = K_NR_FILE_MAPPED,
	[SIM_NR_FILE_PAGES] = K_NR_FILE_PAGES,
	[SIM_NR_SHMEM] = K_NR_SHMEM,
	[SIM_NR_SLAB_UNRECLAIMABLE_B] = K_NR_SLAB_UNRECLAIMABLE_B,
	[SIM_MEMCG_SOCK] = K_MEMCG_SOCK,
	[SIM_MEMCG_KMEM] = K_MEMCG_KMEM,
};

/* A kernel state item's index in the memcg state arrays. */
unsigned int memcg__state_index(const struct memcg_sim *ms, int k)
{
	unsigned int s = ms->k->lruvec_stat_items;
	unsigned int i = k >= K_MEMCG ? s + (unsigned int)(k - K_MEMCG) :
					(unsigned int)k;

	/* SIM: a smaller array than the kernel's keeps its last slot */
	if (k < K_MEMCG && i >= s)
		i = s - 1;
	return i < ms->k->memcg_stat_items ? i : ms->k->memcg_stat_items - 1;
}

void memcg__stat_index_init(struct memcg_sim *ms)
{
	unsigned int i;

	for (i = 0; i < NR_SIM_STATE; i++)
		ms->stat_index[i] = memcg__state_index(ms, sim_state_k[i]);
}

/*
 * Events: v6.0 keeps every enum vm_event_item per CPU; v6.1 on keeps
 * memcg_vm_event_stat[] (memcg_events_index()). The v6.0 positions past
 * PGSCAN_DIRECT are approximate [doc 1.3]: they only decide which line
 * a read touches.
 */
enum {
	EV_PGPGIN,
	EV_PGPGOUT,
	EV_PGFAULT,
	EV_PGMAJFAULT,
	EV_PGREFILL,
	EV_PGACTIVATE,
	EV_PGDEACTIVATE,
	EV_PGLAZYFREE,
	EV_PGLAZYFREED,
	EV_PGSCAN_KSWAPD,
	EV_PGSCAN_DIRECT,
	EV_PGSCAN_KHUGEPAGED,
	EV_PGSTEAL_KSWAPD,
	EV_PGSTEAL_DIRECT,
	EV_PGSTEAL_KHUGEPAGED,
	EV_ZSWPIN,
	EV_ZSWPOUT,
	EV_ZSWPWB,
	EV_THP_FAULT_ALLOC,
	EV_THP_COLLAPSE_ALLOC,
	EV_THP_SWPOUT,
	EV_THP_SWPOUT_FALLBACK,
	NR_EV,
};

static const int ev_v6_0[NR_EV] = {
	[EV_PGPGIN] = 0,
	[EV_PGPGOUT] = 1,
	[EV_PGACTIVATE] = 17,
	[EV_PGDEACTIVATE] = 18,
	[EV_PGLAZYFREE] = 19,
	[EV_PGFAULT] = 20,
	[EV_PGMAJFAULT] = 21,
	[EV_PGLAZYFREED] = 22,
	[EV_PGREFILL] = 23,
	[EV_PGSTEAL_KSWAPD] = 25,
	[EV_PGSTEAL_DIRECT] = 26,
	[EV_PGSCAN_KSWAPD] = 29,
	[EV_PGSCAN_DIRECT] = 30,
	[EV_THP_FAULT_ALLOC] = 75,
	[EV_THP_COLLAPSE_ALLOC] = 78,
	[EV_ZSWPIN] = 104,
	[EV_ZSWPOUT] = 105,
	/* not in v6.0 */
	[EV_PGSCAN_KHUGEPAGED] = -1,
	[EV_PGSTEAL_KHUGEPAGED] = -1,
	[EV_ZSWPWB] = -1,
	[EV_THP_SWPOUT] = -1,
	[EV_THP_SWPOUT_FALLBACK] = -1,
};

/* memcg_vm_event_stat[] of v6.6 (19 entries) and v6.8 (22) */
static const int ev_v6_6[NR_EV] = {
	[EV_PGPGIN] = 0,
	[EV_PGPGOUT] = 1,
	[EV_PGSCAN_KSWAPD] = 2,
	[EV_PGSCAN_DIRECT] = 3,
	[EV_PGSCAN_KHUGEPAGED] = 4,
	[EV_PGSTEAL_KSWAPD] = 5,
	[EV_PGSTEAL_DIRECT] = 6,
	[EV_PGSTEAL_KHUGEPAGED] = 7,
	[EV_PGFAULT] = 8,
	[EV_PGMAJFAULT] = 9,
	[EV_PGREFILL] = 10,
	[EV_PGACTIVATE] = 11,
	[EV_PGDEACTIVATE] = 12,
	[EV_PGLAZYFREE] = 13,
	[EV_PGLAZYFREED] = 14,
	[EV_ZSWPIN] = 15,
	[EV_ZSWPOUT] = 16,
	[EV_THP_FAULT_ALLOC] = 17,
	[EV_THP_COLLAPSE_ALLOC] = 18,
	[EV_ZSWPWB] = -1,
	[EV_THP_SWPOUT] = -1,
	[EV_THP_SWPOUT_FALLBACK] = -1,
};

static const int ev_v6_8[NR_EV] = {
	[EV_PGPGIN] = 0,
	[EV_PGPGOUT] = 1,
	[EV_PGSCAN_KSWAPD] = 2,
	[EV_PGSCAN_DIRECT] = 3,
	[EV_PGSCAN_KHUGEPAGED] = 4,
	[EV_PGSTEAL_KSWAPD] = 5,
	[EV_PGSTEAL_DIRECT] = 6,
	[EV_PGSTEAL_KHUGEPAGED] = 7,
	[EV_PGFAULT] = 8,
	[EV_PGMAJFAULT] = 9,
	[EV_PGREFILL] = 10,
	[EV_PGACTIVATE] = 11,
	[EV_PGDEACTIVATE] = 12,
	[EV_PGLAZYFREE] = 13,
	[EV_PGLAZYFREED] = 14,
	[EV_ZSWPIN] = 15,
	[EV_ZSWPOUT] = 16,
	[EV_ZSWPWB] = 17,
	[EV_THP_FAULT_ALLOC] = 18,
	[EV_THP_COLLAPSE_ALLOC] = 19,
	[EV_THP_SWPOUT] = 20,
	[EV_THP_SWPOUT_FALLBACK] = 21,
};

const int memcg__sim_event_ev[NR_SIM_EVENTS] = {
	[SIM_PGPGIN] = EV_PGPGIN,
	[SIM_PGPGOUT] = EV_PGPGOUT,
	[SIM_PGFAULT] = EV_PGFAULT,
};

/* An event's index in the events arrays, or -1 if not kept. */
int memcg__event_index(const struct memcg_sim *ms, int ev)
{
	const int *map = ms->k->stats_version == STATS_V6_0 ? ev_v6_0 :
			 ms->k->stats_version == STATS_V6_6 ? ev_v6_6 :
							      ev_v6_8;
	int i = map[ev];

	if (i >= (int)ms->k->memcg_event_items)
		i = (int)ms->k->memcg_event_items - 1;
	return i;
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

static bool memcg_vmstats_needs_flush(struct memcg_sim *ms,
				      const struct memcg_vmstats *vmstats)
{
	return vmstats->stats_updates >
	       (long)ms->k->charge_batch * (long)ms->nr_cpus;
}

struct memcg_rstat_updated_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	long val;
	/* locals */
	unsigned int x; /* v6.0 */
	unsigned int stats_updates; /* v6.8 */
};

/*
 * memcg_rstat_updated() - link the memcg into this CPU's rstat tree and
 * count |val| towards a flush. global (v6.0; v6.1's skip as
 * stats_updates_atomic: below_threshold): a per-CPU count feeds the
 * global atomic every MEMCG_CHARGE_BATCH. per_memcg (v6.8, with
 * 8d59d2214c23's walk or 9cee7e8ef3e3's cached parent pointers): each
 * level's per-CPU count feeds that memcg's atomic vmstats->stats_updates,
 * skipped once it is flushable.
 */
static int memcg_rstat_updated(struct sim_proc *p, void *frame)
{
	struct memcg_rstat_updated_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);
	struct memcg_vmstats_percpu *statc;
	unsigned int cpu = co_cpu(p)->cpu;

	CO_BEGIN(f);
	/* "memcg: do not modify rstat tree for zero updates" (v6.4) */
	if (!f->val && ms->k->stats_version >= STATS_V6_6)
		CO_RETURN(f, p, 0);
	CO_CALL(f, p, cgroup_rstat_updated, .rs = ms->rstat,
		.cgrp = f->memcg->id);
	if (ms->k->stats_flush_threshold != FLUSH_PER_MEMCG)
		goto global;

	/* v6.8: for (; memcg; memcg = parent_mem_cgroup(memcg)) */
	for (; f->memcg; f->memcg = f->memcg->parent) {
		/*
		 * stats_updates = READ_ONCE(statc->stats_updates) + abs(val);
		 * WRITE_ONCE(statc->stats_updates, stats_updates);
		 */
		CO_AWAIT(f, co_access(co_cpu(p),
				      this_cpu_vmstats_field(p, f->memcg,
							     PA_HDR, 0),
				      COH_WRITE));
		statc = this_cpu_vmstats(p, f->memcg);
		statc->stats_updates += (unsigned int)labs(f->val);
		f->stats_updates = statc->stats_updates;
		if (f->stats_updates < ms->k->charge_batch)
			goto next;
		/*
		 * A memcg already due for a flush gets nothing from a
		 * bigger count: skip the atomic, the costly part.
		 */
		CO_LOAD_AT(f, stat_field(&ms->vmstats_sl, f->memcg->vmstats.obj,
					 VA_STATS_UPDATES, 0));
		if (!memcg_vmstats_needs_flush(ms, &f->memcg->vmstats)) {
			/* atomic64_add(stats_updates, &vmstats->stats_updates) */
			CO_ATOMIC_ADD_AT(
				f, this_cpu_vmstats(p, f->memcg)->stats_updates,
				f->memcg->vmstats.stats_updates,
				stat_field(&ms->vmstats_sl,
					   f->memcg->vmstats.obj,
					   VA_STATS_UPDATES, 0));
			ms->counts.stats_atomics++;
		}
		/* WRITE_ONCE(statc->stats_updates, 0): SIM: the line just written */
		this_cpu_vmstats(p, f->memcg)->stats_updates = 0;
next:
		/*
		 * 8d59d2214c23 found the next level through the memcg:
		 * parent_mem_cgroup() reads css.parent (and
		 * this_cpu_ptr(memcg->vmstats_percpu), read-mostly).
		 */
		if (ms->k->stats_parent_walk_memcg)
			CO_LOAD_DEP(f, f->memcg, parent);
	}
	CO_RETURN(f, p, 0);

global:
	/* v6.0: x = __this_cpu_add_return(stats_updates, abs(val)); */
	CO_THIS_CPU_ADD_AT(f, ms->stats_updates[cpu],
			   (unsigned int)labs(f->val),
			   coh_object_field(ms->pcpu_stats[cpu], 0));
	f->x = ms->stats_updates[cpu];
	if (f->x <= ms->k->charge_batch)
		CO_RETURN(f, p, 0);
	/* __this_cpu_write(stats_updates, 0): SIM: the line just written */
	ms->stats_updates[cpu] = 0;
	/*
	 * Once the threshold is past num_online_cpus(), the next flush is
	 * due anyway; adding more only costs an atomic on a line every CPU
	 * writes (v6.1 reads first: below_threshold).
	 */
	if (ms->k->stats_updates_atomic == STATS_ATOMIC_BELOW_THRESHOLD) {
		CO_LOAD_AT(f, coh_object_field(ms->flush_threshold, 0));
		if (ms->stats_flush_threshold > (long)ms->nr_cpus)
			CO_RETURN(f, p, 0);
	}
	/* atomic_add(x / MEMCG_CHARGE_BATCH, &stats_flush_threshold); */
	CO_ATOMIC_ADD_AT(f, f->x / ms->k->charge_batch,
			 ms->stats_flush_threshold,
			 coh_object_field(ms->flush_threshold, 0));
	ms->counts.stats_atomics++;
	CO_END(f, p);
}

struct do_flush_stats_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	/* locals */
	sim_time_t start; /* SIM: flush latency */
};

/*
 * do_flush_stats(memcg) (v6.6 name; v6.0 __mem_cgroup_flush_stats()):
 * stats_flush_skip: return if a flush is ongoing (v6.0 spin_trylock of
 * stats_flush_lock, v6.6 atomic stats_flush_ongoing): one flush does the
 * work for every reader, and readers that find one ongoing accept stats
 * that are a little stale rather than queue on cgroup_rstat_lock. Then
 * note the time for the ratelimited callers; flush the root (global) or
 * the memcg's subtree (per_memcg); reset the global threshold.
 */
static int do_flush_stats(struct sim_proc *p, void *frame)
{
	struct do_flush_stats_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);
	bool global = ms->k->stats_flush_threshold == FLUSH_GLOBAL;

	CO_BEGIN(f);
	if (ms->k->stats_flush_skip) {
		/*
		 * atomic_read(&stats_flush_ongoing) (v6.6), or the read
		 * queued_spin_trylock() does first (v6.0)
		 */
		CO_LOAD_AT(f, coh_object_field(ms->flush_lock, 0));
		if (ms->flush_ongoing)
			goto skip;
		/* the cmpxchg / atomic_xchg(&stats_flush_ongoing, 1) */
		CO_AWAIT(f, co_access(co_cpu(p),
				      coh_object_field(ms->flush_lock, 0),
				      COH_RMW));
		if (ms->flush_ongoing)
			goto skip;
		ms->flush_ongoing = true;
	}
	f->start = NOW(p);
	if (global || mem_cgroup_is_root(ms, f->memcg)) {
		/* flush_next_time = now + 2 * FLUSH_TIME (v6.8: last = now) */
		CO_STORE_AT(f, ms->flush_next_time,
			    NOW(p) + 2 * ms->flush_period_ps,
			    coh_object_field(ms->flush_time, 0));
	}
	CO_CALL(f, p, cgroup_rstat_flush, .rs = ms->rstat,
		.cgrp = global ? 0 : f->memcg->id);
	if (global) /* atomic_set(&stats_flush_threshold, 0); */
		CO_STORE_AT(f, ms->stats_flush_threshold, 0,
			    coh_object_field(ms->flush_threshold, 0));
	if (ms->k->stats_flush_skip)
		CO_STORE_AT(f, ms->flush_ongoing, false,
			    coh_object_field(ms->flush_lock, 0));
	ms->counts.flushes++;
	sim_stat_add(&ms->flush_lat,
		     (double)(NOW(p) - f->start) / SIM_PS_PER_NS);
	CO_RETURN(f, p, 0);
skip:
	ms->counts.flushes_skipped++;
	CO_END(f, p);
}

/**
 * mem_cgroup_flush_stats() - flush the statistics if enough changed
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct mem_cgroup_flush_stats_frame: @memcg about to be read
 *
 * Context: a coroutine on the simulated CPU co_cpu(p); may wait for another flush's
 * lock (stats_flush_skip off) and for every line it flushes.
 */
int mem_cgroup_flush_stats(struct sim_proc *p, void *frame)
{
	struct mem_cgroup_flush_stats_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	if (ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	ENTER(p, KF_mem_cgroup_flush_stats);
	if (!f->memcg)
		f->memcg = &ms->memcgs[0];
	if (ms->k->stats_flush_threshold == FLUSH_PER_MEMCG) {
		/* memcg_vmstats_needs_flush(memcg->vmstats) */
		CO_LOAD_AT(f, stat_field(&ms->vmstats_sl, f->memcg->vmstats.obj,
					 VA_STATS_UPDATES, 0));
		f->needs_flush =
			memcg_vmstats_needs_flush(ms, &f->memcg->vmstats);
	} else {
		/* atomic_read(&stats_flush_threshold) > num_online_cpus() */
		CO_LOAD_AT(f, coh_object_field(ms->flush_threshold, 0));
		f->needs_flush = ms->stats_flush_threshold > (long)ms->nr_cpus;
	}
	if (f->needs_flush)
		CO_CALL(f, p, do_flush_stats, .memcg = f->memcg);
	EXIT(p);
	CO_END(f, p);
}

/**
 * mem_cgroup_flush_stats_ratelimited() - flush, but not too often
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct mem_cgroup_flush_stats_ratelimited_frame: @memcg
 *
 * v6.0's mem_cgroup_flush_stats_delayed(): only when the last flush through
 * do_flush_stats() began 2 x FLUSH_TIME ago.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p); as
 * mem_cgroup_flush_stats().
 */
int mem_cgroup_flush_stats_ratelimited(struct sim_proc *p, void *frame)
{
	struct mem_cgroup_flush_stats_ratelimited_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	CO_LOAD_AT(f, coh_object_field(ms->flush_time, 0));
	if (NOW(p) > ms->flush_next_time)
		CO_CALL(f, p, mem_cgroup_flush_stats, .memcg = f->memcg);
	CO_END(f, p);
}

/**
 * flush_memcg_stats_dwork() - the periodic flush
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct flush_memcg_stats_dwork_frame
 *
 * Flushes the whole tree whatever the threshold.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p) (the kworker's); waits for
 * every line it flushes.
 */
int flush_memcg_stats_dwork(struct sim_proc *p, void *frame)
{
	struct flush_memcg_stats_dwork_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	ENTER(p, KF_mem_cgroup_flush_stats);
	CO_CALL(f, p, do_flush_stats, .memcg = &ms->memcgs[0]);
	EXIT(p);
	CO_END(f, p);
}

/**
 * memcg_stats_kworker() - SIM: the periodic flusher's loop
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct memcg_stats_kworker_frame: @end_ps
 *
 * flush_memcg_stats_dwork() runs on system_unbound_wq and queues itself again
 * FLUSH_TIME after it returns. The first run is one period after the start (the
 * model's time 0 is right after a flush).
 *
 * Context: a process of its own on a CPU no task uses (cmd/run/run.c), until
 * @end_ps.
 */
int memcg_stats_kworker(struct sim_proc *p, void *frame)
{
	struct memcg_stats_kworker_frame *f = frame;

	CO_BEGIN(f);
	for (;;) {
		p->now += this_ms(p)->flush_period_ps;
		if (p->now >= f->end_ps)
			break;
		CO_AWAIT(f, sim_proc_sync(p));
		CO_CALL(f, p, flush_memcg_stats_dwork);
	}
	CO_END(f, p);
}

struct __mod_memcg_state_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	int idx;
	long val;
};

static int __mod_memcg_state(struct sim_proc *p, void *frame)
{
	struct __mod_memcg_state_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	if (ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	/* __this_cpu_add(memcg->vmstats_percpu->state[idx], val); */
	CO_THIS_CPU_ADD_STAT(f, f->memcg, state, f->idx, f->val);
	truth_add(f->memcg, false, f->idx, f->val);
	CO_CALL(f, p, memcg_rstat_updated, .memcg = f->memcg, .val = f->val);
	CO_END(f, p);
}

/*
 * The kernel's static inline wrappers of include/linux/memcontrol.h:
 *
 *	local_irq_save(flags);
 *	__NAME(args);
 *	local_irq_restore(flags);
 *
 * DEFINE_IRQSAVE_WRAPPER(NAME, ...) defines int NAME(p, frame) so, with
 * NAME's ENTER/EXIT (SIM: the time by function, and NAME's instructions);
 * the rest are __NAME()'s frame initializers, from NAME's frame f.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p); interrupts are
 * simulated off around __NAME() (the flush-threshold atomics of
 * memcg_rstat_updated() touch shared lines).
 */
#define DEFINE_IRQSAVE_WRAPPER(name, ...)             \
	int name(struct sim_proc *p, void *frame)     \
	{                                             \
		struct name##_frame *f = frame;       \
                                                      \
		CO_BEGIN(f);                          \
		ENTER(p, KF_##name);                  \
		irq_save_restore(p);                  \
		CO_CALL(f, p, __##name, __VA_ARGS__); \
		EXIT(p);                              \
		CO_END(f, p);                         \
	}

/* mod_memcg_state(memcg, idx, val): __mod_memcg_state(), irqs saved */
DEFINE_IRQSAVE_WRAPPER(mod_memcg_state, .memcg = f->memcg, .idx = f->idx,
		       .val = f->val)

/*
 * __mod_node_page_state() (mm/vmstat.c): this CPU's s8 diff of the node
 * item; past the stat threshold it is folded into the node's and the
 * global counter, two atomics on lines every CPU shares. SIM:
 * stat_threshold is 125, the cap of calculate_normal_threshold() that
 * any server of the profiles' size reaches.
 */
#define SIM_STAT_THRESHOLD 125

struct __mod_node_page_state_frame {
	struct co_frame co;
	int item; /* SIM: a node item of enum memcg_stat_sim */
	long delta;
};

static int __mod_node_page_state(struct sim_proc *p, void *frame)
{
	struct __mod_node_page_state_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);
	unsigned int node = cpu_node(ms, co_cpu(p)->cpu);
	long *x = &ms->node_diff[((size_t)co_cpu(p)->cpu * ms->nr_nodes +
				  node) * NR_SIM_NODE_ITEMS +
				 (unsigned int)f->item];

	CO_BEGIN(f);
	/* x = delta + __this_cpu_read(*p); */
	CO_THIS_CPU_ADD_AT(
		f, *x, f->delta,
		coh_object_field(
			ms->node_pcp[co_cpu(p)->cpu * ms->nr_nodes + node], 0));
	if (*x <= SIM_STAT_THRESHOLD && *x >= -SIM_STAT_THRESHOLD)
		CO_RETURN(f, p, 0);
	*x = 0;
	/* node_page_state_add(): pgdat->vm_stat[item], vm_node_stat[item] */
	CO_AWAIT(f, co_access(co_cpu(p),
			      stat_field(&ms->lruvec_pcpu_sl,
					 ms->node_vm_stat[node], LPA_STATE,
					 memcg__stat_index(ms, f->item)),
			      COH_RMW));
	CO_AWAIT(f, co_access(co_cpu(p),
			      stat_field(&ms->lruvec_pcpu_sl, ms->vm_node_stat,
					 LPA_STATE,
					 memcg__stat_index(ms, f->item)),
			      COH_RMW));
	CO_END(f, p);
}

/*
 * __mod_lruvec_state(lruvec, idx, val) for a node item of the memcg on
 * this CPU's node: the node's vmstat, then __mod_memcg_lruvec_state():
 * the memcg's and the lruvec's per-CPU counters and memcg_rstat_updated().
 */
int __mod_lruvec_state(struct sim_proc *p, void *frame)
{
	struct __mod_lruvec_state_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);
	unsigned int node = cpu_node(ms, co_cpu(p)->cpu);

	CO_BEGIN(f);
	SIM_BUG_ON(f->idx >= NR_SIM_NODE_ITEMS);
	CO_CALL(f, p, __mod_node_page_state, .item = f->idx, .delta = f->val);
	if (ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	/*
	 * __mod_memcg_lruvec_state(lruvec, idx, val), inlined. SIM: a
	 * coroutine call here cost 1.2% more host instructions on
	 * page-fault-batch.yaml (callgrind), for the same simulated time.
	 */
	CO_THIS_CPU_ADD_STAT(f, f->memcg, state, f->idx, f->val);
	CO_THIS_CPU_ADD_LRUVEC_STAT(f, f->memcg, node, f->idx, f->val);
	truth_add(f->memcg, false, f->idx, f->val);
	CO_CALL(f, p, memcg_rstat_updated, .memcg = f->memcg, .val = f->val);
	CO_END(f, p);
}

/**
 * __mod_memcg_lruvec_state() - a node statistic of a memcg, not of the node
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct __mod_memcg_lruvec_state_frame: @memcg, @node, @idx,
 *	@val
 *
 * The memcg's and its lruvec's (on @node) per-CPU counters and
 * memcg_rstat_updated(); the node's own vmstat is left alone (slab
 * objects: the node counts whole slab pages, in the slab allocator).
 *
 * Context: a coroutine on the simulated CPU co_cpu(p), simulated interrupts
 * already off (or, v6.16, not needed).
 */
int __mod_memcg_lruvec_state(struct sim_proc *p, void *frame)
{
	struct __mod_memcg_lruvec_state_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);

	CO_BEGIN(f);
	SIM_BUG_ON(f->idx >= NR_SIM_NODE_ITEMS || f->node >= ms->nr_nodes);
	if (ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	CO_THIS_CPU_ADD_STAT(f, f->memcg, state, f->idx, f->val);
	CO_THIS_CPU_ADD_LRUVEC_STAT(f, f->memcg, f->node, f->idx, f->val);
	truth_add(f->memcg, false, f->idx, f->val);
	CO_CALL(f, p, memcg_rstat_updated, .memcg = f->memcg, .val = f->val);
	CO_END(f, p);
}

/* mod_lruvec_state(lruvec, idx, val): __mod_lruvec_state(), irqs saved */
DEFINE_IRQSAVE_WRAPPER(mod_lruvec_state, .memcg = f->memcg, .idx = f->idx,
		       .val = f->val)

/**
 * __count_memcg_events() - count a memcg event, interrupts already off
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct __count_memcg_events_frame: @memcg, @idx, @count
 *
 * Events the kernel version does not keep per memcg cost nothing.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p); the caller has simulated
 * interrupts off.
 */
int __count_memcg_events(struct sim_proc *p, void *frame)
{
	struct __count_memcg_events_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);
	int i = -1;

	CO_BEGIN(f);
	/*
	 * Its instructions here, not at count_memcg_events()'s ENTER():
	 * charge_memcg() and uncharge_batch() call it directly.
	 */
	insn_charge(co_cpu(p), INSN_count_memcg_events, 1);
	if (ms->k->memcg_disabled)
		CO_RETURN(f, p, 0);
	/* v6.1 on: memcg_events_index(); untracked events return */
	i = memcg__event_index(ms, memcg__sim_event_ev[f->idx]);
	if (i < 0)
		CO_RETURN(f, p, 0);
	/* __this_cpu_add(memcg->vmstats_percpu->events[idx], count); */
	CO_THIS_CPU_ADD_STAT(f, f->memcg, events, f->idx, f->count);
	truth_add(f->memcg, true, f->idx, f->count);
	CO_CALL(f, p, memcg_rstat_updated, .memcg = f->memcg, .val = f->count);
	CO_END(f, p);
}

/* count_memcg_events(memcg, idx, count): __count_memcg_events(), irqs saved */
DEFINE_IRQSAVE_WRAPPER(count_memcg_events, .memcg = f->memcg, .idx = f->idx,
		       .count = f->count)

/**
 * mem_cgroup_charge_statistics() - count a page-in or page-out
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct mem_cgroup_charge_statistics_frame: @memcg, @nr_pages
 *
 * A page-in (positive @nr_pages) or page-out (negative) is one event whatever
 * its size; nr_page_events counts the pages, for memcg_check_events().
 *
 * Context: a coroutine on the simulated CPU co_cpu(p); the caller has simulated
 * interrupts off.
 */
int mem_cgroup_charge_statistics(struct sim_proc *p, void *frame)
{
	struct mem_cgroup_charge_statistics_frame *f = frame;

	CO_BEGIN(f);
	insn_charge(co_cpu(p), INSN_mem_cgroup_charge_statistics, 1);
	if (f->nr_pages > 0) {
		CO_CALL(f, p, __count_memcg_events, .memcg = f->memcg,
			.idx = SIM_PGPGIN, .count = 1);
	} else {
		CO_CALL(f, p, __count_memcg_events, .memcg = f->memcg,
			.idx = SIM_PGPGOUT, .count = 1);
		f->nr_pages = -f->nr_pages; /* for event */
	}
	/* __this_cpu_add(memcg->vmstats_percpu->nr_page_events, nr_pages); */
	CO_THIS_CPU_ADD_AT(f, this_cpu_vmstats(p, f->memcg)->nr_page_events,
			   (unsigned long)f->nr_pages,
			   this_cpu_vmstats_field(p, f->memcg,
						  PA_NR_PAGE_EVENTS, 0));
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

/**
 * memcg_check_events() - the threshold and soft-limit checks
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct memcg_check_events_frame: @memcg
 *
 * v6.0 to v6.8 on both cgroup versions: every 128 page events of a CPU,
 * mem_cgroup_threshold() walks the ancestors (memcg->thresholds.primary,
 * read-mostly, and css.parent); every 1024, mem_cgroup_update_tree() walks them
 * reading soft_limit_excess(): memory.usage, the contended line, and
 * soft_limit. SIM: no thresholds or soft limits are set, so neither does more;
 * the thresholds pointer and soft_limit are counted as the css.parent load next
 * to them.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p); the caller has simulated
 * interrupts off; loads only.
 */
int memcg_check_events(struct sim_proc *p, void *frame)
{
	struct memcg_check_events_frame *f = frame;
	struct memcg_vmstats_percpu *statc;

	CO_BEGIN(f);
	insn_charge(co_cpu(p), INSN_memcg_check_events, 1);
	/* threshold event is triggered in finer grain than soft limit */
	statc = this_cpu_vmstats(p, f->memcg);
	if (!mem_cgroup_event_ratelimit(statc, 0))
		CO_RETURN(f, p, 0);
	f->do_softlimit = mem_cgroup_event_ratelimit(statc, 1);
	/* mem_cgroup_threshold(memcg) */
	for (f->iter = f->memcg; f->iter; f->iter = f->iter->parent)
		CO_LOAD_DEP(f, f->iter, parent);
	if (!f->do_softlimit)
		CO_RETURN(f, p, 0);
	/* mem_cgroup_update_tree(memcg, nid) */
	for (f->iter = f->memcg; f->iter; f->iter = f->iter->parent) {
		CO_LOAD(f, &f->iter->memory, usage);
		CO_LOAD_DEP(f, f->iter, parent);
	}
	CO_END(f, p);
}

/* ---- statistics: flushing ---- */

/*
 * struct aggregate_control - v6.8's description of one array of one
 * (memcg, CPU) for mem_cgroup_stat_aggregate(): the kernel's members,
 * then (SIM) where each lives in memory. The model uses it for every
 * version: before v6.8 the kernel wrote the same loop out once per array
 * in mem_cgroup_css_rstat_flush().
 */
struct aggregate_control {
	long *aggregate; /* the memcg's (CPU and subtree) counters */
	long *local; /* v6.6: its non-hierarchical ones, or NULL */
	long *pending; /* the children's, pending propagation */
	long *ppending; /* the parent's pending counters, or NULL */
	long *cstat; /* this CPU's counters */
	long *cstat_prev; /* this CPU's at the last flush */
	unsigned int size;
	/* SIM: kernel index -> SIM item, or -1 (items not modelled) */
	const int *slot;
	/* SIM: the layouts and objects of the memcg's, the parent's and
	 * the CPU's structs, and the array of each member (VA_, LA_, PA_,
	 * LPA_) */
	const struct stat_layout *asl, *psl;
	struct coh_object *agg, *pagg, *pcpu;
	unsigned int a_aggregate, a_local, a_pending, a_cstat, a_cstat_prev;
	enum insn_row insn_item; /* SIM: the loop's instructions per item */
};

/* mem_cgroup_css_rstat_flush()'s `ac` for the memcg's state items */
static struct aggregate_control ac_state(struct memcg_sim *ms,
					 struct mem_cgroup *memcg,
					 struct memcg_vmstats_percpu *statc)
{
	struct mem_cgroup *parent = memcg->parent;
	bool local = ms->k->local_stats == LOCAL_AGGREGATED;

	return (struct aggregate_control){
		.aggregate = memcg->vmstats.state,
		.local = local ? memcg->vmstats.state_local : NULL,
		.pending = memcg->vmstats.state_pending,
		.ppending = parent ? parent->vmstats.state_pending : NULL,
		.cstat = statc->state,
		.cstat_prev = statc->state_prev,
		.size = ms->k->memcg_stat_items,
		.slot = ms->state_slot,
		.asl = &ms->vmstats_sl,
		.psl = &ms->pcpu_sl,
		.agg = memcg->vmstats.obj,
		.pagg = parent ? parent->vmstats.obj : NULL,
		.pcpu = statc->obj,
		.a_aggregate = VA_STATE,
		.a_local = VA_STATE_LOCAL,
		.a_pending = VA_STATE_PENDING,
		.a_cstat = PA_STATE,
		.a_cstat_prev = PA_STATE_PREV,
		.insn_item = INSN_mem_cgroup_css_rstat_flush_state_item,
	};
}

/* ... for its events */
static struct aggregate_control ac_events(struct memcg_sim *ms,
					  struct mem_cgroup *memcg,
					  struct memcg_vmstats_percpu *statc)
{
	struct mem_cgroup *parent = memcg->parent;
	bool local = ms->k->local_stats == LOCAL_AGGREGATED;

	return (struct aggregate_control){
		.aggregate = memcg->vmstats.events,
		.local = local ? memcg->vmstats.events_local : NULL,
		.pending = memcg->vmstats.events_pending,
		.ppending = parent ? parent->vmstats.events_pending : NULL,
		.cstat = statc->events,
		.cstat_prev = statc->events_prev,
		.size = ms->k->memcg_event_items,
		.slot = ms->event_slot,
		.asl = &ms->vmstats_sl,
		.psl = &ms->pcpu_sl,
		.agg = memcg->vmstats.obj,
		.pagg = parent ? parent->vmstats.obj : NULL,
		.pcpu = statc->obj,
		.a_aggregate = VA_EVENTS,
		.a_local = VA_EVENTS_LOCAL,
		.a_pending = VA_EVENTS_PENDING,
		.a_cstat = PA_EVENTS,
		.a_cstat_prev = PA_EVENTS_PREV,
		.insn_item = INSN_mem_cgroup_css_rstat_flush_event_item,
	};
}

/* ... for its lruvec on node @nid */
static struct aggregate_control ac_lruvec(struct memcg_sim *ms,
					  struct mem_cgroup *memcg,
					  struct memcg_vmstats_percpu *statc,
					  unsigned int nid)
{
	struct mem_cgroup *parent = memcg->parent;
	struct lruvec_stats *pn = &memcg->lruvec_stats[nid];
	struct lruvec_stats *ppn = parent ? &parent->lruvec_stats[nid] : NULL;
	struct lruvec_stats_percpu *lstatc = &statc->lruvec[nid];
	bool local = ms->k->local_stats == LOCAL_AGGREGATED;

	return (struct aggregate_control){
		.aggregate = pn->state,
		.local = local ? pn->state_local : NULL,
		.pending = pn->state_pending,
		.ppending = ppn ? ppn->state_pending : NULL,
		.cstat = lstatc->state,
		.cstat_prev = lstatc->state_prev,
		.size = ms->k->lruvec_stat_items,
		.slot = ms->state_slot,
		.asl = &ms->lruvec_sl,
		.psl = &ms->lruvec_pcpu_sl,
		.agg = pn->obj,
		.pagg = ppn ? ppn->obj : NULL,
		.pcpu = lstatc->obj,
		.a_aggregate = LA_STATE,
		.a_local = LA_STATE_LOCAL,
		.a_pending = LA_STATE_PENDING,
		.a_cstat = LPA_STATE,
		.a_cstat_prev = LPA_STATE_PREV,
		.insn_item = INSN_mem_cgroup_css_rstat_flush_lruvec_item,
	};
}

/*
 * mem_cgroup_stat_aggregate(ac) - one array of one (memcg, CPU): for
 * each of the ac->size items, the pending count from the children, this
 * CPU's value and its previous value; a change goes to the memcg's
 * aggregate (and, v6.6 on, its local count) and to the parent's pending.
 * SIM: an item on the line just read costs a load hit (touch()) instead
 * of a transaction.
 */
struct mem_cgroup_stat_aggregate_frame {
	struct co_frame co;
	struct aggregate_control *ac;
	/* locals */
	unsigned int i;
	long delta, delta_cpu, v;
	struct coh_field *last[3]; /* SIM: the lines just read */
};

/* SIM: the item's field of array @a of @obj */
#define AC_FIELD(ac, sl, obj, a, i) stat_field((ac)->sl, (ac)->obj, (ac)->a, i)

static bool touch(struct sim_proc *p, struct mem_cgroup_stat_aggregate_frame *f,
		  unsigned int which, struct coh_field *fld)
{
	if (f->last[which] == fld) {
		coh_delay(co_cpu(p), coh_machine(this_ms(p)->coh)->l1_hit_ps);
		return false;
	}
	if (coh_read(co_cpu(p), fld))
		return true;
	f->last[which] = fld;
	return false;
}

static int mem_cgroup_stat_aggregate(struct sim_proc *p, void *frame)
{
	struct mem_cgroup_stat_aggregate_frame *f = frame;
	struct aggregate_control *ac = f->ac;
	int s;

	CO_BEGIN(f);
	for (f->i = 0; f->i < ac->size; f->i++) {
		insn_charge(co_cpu(p), ac->insn_item, 1);
		/* delta = ac->pending[i]: the children's, got by the first CPU */
		CO_AWAIT(f, touch(p, f, 0,
				  AC_FIELD(ac, asl, agg, a_pending, f->i)));
		s = ac->slot ? ac->slot[f->i] : -1;
		f->delta = s >= 0 ? ac->pending[s] : 0;
		if (f->delta)
			CO_STORE_AT(f, ac->pending[ac->slot[f->i]], 0,
				    AC_FIELD(ac, asl, agg, a_pending, f->i));
		/* v = READ_ONCE(ac->cstat[i]): the updater's line */
		CO_AWAIT(f, touch(p, f, 1,
				  AC_FIELD(ac, psl, pcpu, a_cstat, f->i)));
		s = ac->slot ? ac->slot[f->i] : -1;
		f->v = s >= 0 ? ac->cstat[s] : 0;
		CO_AWAIT(f, touch(p, f, 2,
				  AC_FIELD(ac, psl, pcpu, a_cstat_prev, f->i)));
		s = ac->slot ? ac->slot[f->i] : -1;
		f->delta_cpu = 0;
		if (s >= 0 && f->v != ac->cstat_prev[s]) {
			f->delta_cpu = f->v - ac->cstat_prev[s];
			f->delta += f->delta_cpu;
			CO_STORE_AT(f, ac->cstat_prev[ac->slot[f->i]], f->v,
				    AC_FIELD(ac, psl, pcpu, a_cstat_prev,
					     f->i));
		}
		/* v6.6: the non-hierarchical count */
		if (ac->local && f->delta_cpu)
			CO_ADD_AT(f, ac->local[ac->slot[f->i]], f->delta_cpu,
				  AC_FIELD(ac, asl, agg, a_local, f->i));
		if (!f->delta)
			continue;
		CO_ADD_AT(f, ac->aggregate[ac->slot[f->i]], f->delta,
			  AC_FIELD(ac, asl, agg, a_aggregate, f->i));
		if (ac->pagg)
			CO_ADD_AT(f, ac->ppending[ac->slot[f->i]], f->delta,
				  AC_FIELD(ac, asl, pagg, a_pending, f->i));
	}
	CO_END(f, p);
}

struct memcg_flush_cpu_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	unsigned int cpu;
	/* locals */
	unsigned int nid;
	struct aggregate_control ac;
};

/* mem_cgroup_css_rstat_flush(css, cpu) for one (memcg, CPU) */
static int memcg_flush_cpu(struct sim_proc *p, void *frame)
{
	struct memcg_flush_cpu_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);
	struct mem_cgroup *memcg = f->memcg;
	struct memcg_vmstats_percpu *statc =
		memcg__vmstats_percpu(ms, memcg, f->cpu);

	CO_BEGIN(f);
	ENTER(p, KF_mem_cgroup_css_rstat_flush);
	ms->counts.flushed_cpus++;
	f->ac = ac_state(ms, memcg, statc);
	CO_CALL(f, p, mem_cgroup_stat_aggregate, .ac = &f->ac);
	f->ac = ac_events(ms, memcg, statc);
	CO_CALL(f, p, mem_cgroup_stat_aggregate, .ac = &f->ac);
	/* for_each_node_state(nid, N_MEMORY): the lruvec counters */
	for (f->nid = 0; f->nid < ms->nr_nodes; f->nid++) {
		f->ac = ac_lruvec(ms, memcg, statc, f->nid);
		CO_CALL(f, p, mem_cgroup_stat_aggregate, .ac = &f->ac);
	}
	if (ms->k->stats_flush_threshold == FLUSH_PER_MEMCG) {
		/* v6.8: statc->stats_updates = 0, the updater's first line */
		CO_STORE_AT(f, statc->stats_updates, 0,
			    stat_field(&ms->pcpu_sl, statc->obj, PA_HDR, 0));
		/*
		 * Read before writing: the atomic write, which takes the
		 * line exclusive, is needed only once.
		 */
		CO_LOAD_AT(f, stat_field(&ms->vmstats_sl, memcg->vmstats.obj,
					 VA_STATS_UPDATES, 0));
		if (memcg->vmstats.stats_updates)
			CO_STORE_AT(f, memcg->vmstats.stats_updates, 0,
				    stat_field(&ms->vmstats_sl,
					       memcg->vmstats.obj,
					       VA_STATS_UPDATES, 0));
	}
	EXIT(p);
	CO_END(f, p);
}

/**
 * mem_cgroup_css_rstat_flush() - the rstat callback for one (memcg, CPU)
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct rstat_cb_frame: @cgrp, @cpu
 *
 * Folds @cpu's counters of the memcg into its aggregates and its parent's
 * pending counts (models/kernel/kernel/cgroup/rstat.h calls it).
 *
 * Context: a coroutine on the simulated CPU co_cpu(p), under cgroup_rstat_lock;
 * reads the updater's lines.
 */
int mem_cgroup_css_rstat_flush(struct sim_proc *p, void *frame)
{
	struct rstat_cb_frame *f = frame;
	struct memcg_sim *ms = f->ss;

	CO_BEGIN(f);
	CO_CALL(f, p, memcg_flush_cpu, .memcg = &ms->memcgs[f->cgrp],
		.cpu = f->cpu);
	CO_END(f, p);
}

/* ---- statistics: reads ---- */

/* memory.stat (v2, memory_stat_format()): memory_stats[] and "slab" */
static const int v2_state_reads[] = {
	K_NR_ANON_MAPPED,
	K_NR_FILE_PAGES,
	K_MEMCG_KMEM,
	K_NR_KERNEL_STACK_KB,
	K_NR_PAGETABLE,
	K_NR_SECONDARY_PAGETABLE,
	K_MEMCG_PERCPU_B,
	K_MEMCG_SOCK,
	K_MEMCG_VMALLOC,
	K_NR_SHMEM,
	K_MEMCG_ZSWAP_B,
	K_MEMCG_ZSWAPPED,
	K_NR_FILE_MAPPED,
	K_NR_FILE_DIRTY,
	K_NR_WRITEBACK,
	K_NR_SWAPCACHE,
	K_NR_ANON_THPS,
	K_NR_FILE_THPS,
	K_NR_SHMEM_THPS,
	K_NR_INACTIVE_ANON,
	K_NR_ACTIVE_ANON,
	K_NR_INACTIVE_FILE,
	K_NR_ACTIVE_FILE,
	K_NR_UNEVICTABLE,
	K_NR_SLAB_RECLAIMABLE_B,
	K_NR_SLAB_UNRECLAIMABLE_B,
	K_NR_SLAB_RECLAIMABLE_B, /* "slab": one more read */
	K_WORKINGSET_REFAULT_ANON,
	K_WORKINGSET_REFAULT_FILE,
	K_WORKINGSET_ACTIVATE_ANON,
	K_WORKINGSET_ACTIVATE_FILE,
	K_WORKINGSET_RESTORE_ANON,
	K_WORKINGSET_RESTORE_FILE,
	K_WORKINGSET_NODERECLAIM,
};

/* the v2 event lines: "pgscan" and "pgsteal" sum, then the table */
static const int v2_events_v6_0[] = {
	EV_PGSCAN_KSWAPD,
	EV_PGSCAN_DIRECT,
	EV_PGSTEAL_KSWAPD,
	EV_PGSTEAL_DIRECT,
	EV_PGSCAN_KSWAPD,
	EV_PGSCAN_DIRECT,
	EV_PGSTEAL_KSWAPD,
	EV_PGSTEAL_DIRECT,
	EV_PGFAULT,
	EV_PGMAJFAULT,
	EV_PGREFILL,
	EV_PGACTIVATE,
	EV_PGDEACTIVATE,
	EV_PGLAZYFREE,
	EV_PGLAZYFREED,
	EV_ZSWPIN,
	EV_ZSWPOUT,
	EV_THP_FAULT_ALLOC,
	EV_THP_COLLAPSE_ALLOC,
};

/* v1 (memcg_stat_show()): memcg1_stats[], memcg1_events[], the LRUs */
static const int v1_state_reads[] = {
	K_NR_FILE_PAGES,  K_NR_ANON_MAPPED, K_NR_ANON_THPS, K_NR_SHMEM,
	K_NR_FILE_MAPPED, K_NR_FILE_DIRTY,  K_NR_WRITEBACK, K_MEMCG_SWAP,
};
static const int v1_lru_reads[] = {
	K_NR_INACTIVE_ANON, K_NR_ACTIVE_ANON, K_NR_INACTIVE_FILE,
	K_NR_ACTIVE_FILE,   K_NR_UNEVICTABLE,
};
static const int v1_events[] = { EV_PGPGIN, EV_PGPGOUT, EV_PGFAULT,
				 EV_PGMAJFAULT };

struct stat_read_one_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	bool event, local;
	int k; /* kernel index */
	/* locals */
	unsigned int cpu;
	bool walk; /* this load of f->cpu's copy misses the TLB */
	long x;
};

static void error_note(struct memcg_sim *ms, long got, long truth, int s)
{
	double e = (double)(got > truth ? got - truth : truth - got);

	/* SIM: the slab item counts bytes; the error is in pages */
	if (s == SIM_NR_SLAB_UNRECLAIMABLE_B)
		e /= (double)PAGE_SIZE;

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
static unsigned int vmstats_array(const struct stat_read_one_frame *f)
{
	if (f->event)
		return f->local ? VA_EVENTS_LOCAL : VA_EVENTS;
	return f->local ? VA_STATE_LOCAL : VA_STATE;
}

/*
 * The bit in a reader's cold_seen[] that says the TLB holds the
 * translation of CPU @cpu's copy for the rest of this memory.stat read.
 */
static unsigned int tlb_bit(const struct memcg_sim *ms, unsigned int cpu)
{
	return ms->nr_cpus * pcpu_lines(ms) + cpu;
}

/* Whether @reader's cold_seen[] has @bit set; set it. */
static bool cold_test_and_set(struct memcg_sim *ms, unsigned int reader,
			      unsigned int bit)
{
	unsigned char *b = &ms->cold_seen[reader][bit / 8];
	bool was = *b & (1u << (bit % 8));

	*b |= (unsigned char)(1u << (bit % 8));
	return was;
}

/*
 * One counter: memcg_page_state()/memcg_events() read the flushed
 * aggregate; the _local() forms read state_local (aggregated) or sum
 * every possible CPU's copy (percpu_sum). A modelled item's value is
 * checked against the truth.
 */
static int stat_read_one(struct sim_proc *p, void *frame)
{
	struct stat_read_one_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);
	struct memcg_vmstats_percpu *statc = NULL;
	const int *slot = f->event ? ms->event_slot : ms->state_slot;
	unsigned int a = f->event ? PA_EVENTS : PA_STATE, line;
	long truth;
	int s;

	CO_BEGIN(f);
	/*
	 * The line's instructions: the item and its seq_buf_printf() (v2;
	 * v1's seq_printf() formats the same "%s %lu\n"), printed whether or
	 * not the model keeps the item.
	 */
	insn_charge(co_cpu(p), INSN_memory_stat_item, 1);
	if (f->k < 0)
		CO_RETURN(f, p, 0);
	if (!f->local || ms->k->local_stats == LOCAL_AGGREGATED) {
		CO_LOAD_AT(f, stat_field(&ms->vmstats_sl, f->memcg->vmstats.obj,
					 vmstats_array(f), (unsigned int)f->k));
		s = slot[f->k];
		if (s < 0)
			CO_RETURN(f, p, 0);
		f->x = f->event ?
			       (f->local ? f->memcg->vmstats.events_local[s] :
					   f->memcg->vmstats.events[s]) :
			       (f->local ? f->memcg->vmstats.state_local[s] :
					   f->memcg->vmstats.state[s]);
		goto check;
	}
	/* for_each_possible_cpu(cpu) x += per_cpu(...[idx], cpu) */
	f->x = 0;
	a = f->event ? PA_EVENTS : PA_STATE;
	for (f->cpu = 0; f->cpu < ms->nr_cpus; f->cpu++) {
		insn_charge(co_cpu(p), INSN_memcg_page_state_local_cpu, 1);
		statc = f->memcg->vmstats_percpu ?
				f->memcg->vmstats_percpu[f->cpu] :
				NULL;
		if (statc) {
			CO_LOAD_AT(
				f,
				stat_field(&ms->pcpu_sl,
					   f->memcg->vmstats_percpu[f->cpu]->obj,
					   f->event ? PA_EVENTS : PA_STATE,
					   (unsigned int)f->k));
			statc = f->memcg->vmstats_percpu[f->cpu];
			s = slot[f->k];
			if (s >= 0)
				f->x += f->event ? statc->events[s] :
						   statc->state[s];
			continue;
		}
		/*
		 * never written: from memory, once per line per read, from
		 * the node of f->cpu's copy, after a translation miss at the
		 * first load of that copy's page (alloc_percpu(): each CPU's
		 * on pages of its own) in this read
		 */
		line = f->cpu * pcpu_lines(ms) +
		       stat_line(&ms->pcpu_sl, a, (unsigned int)f->k);
		if (ms->cold_seen[co_cpu(p)->cpu][line / 8] &
		    (1u << (line % 8))) {
			coh_delay(co_cpu(p), coh_machine(ms->coh)->l1_hit_ps);
			continue;
		}
		f->walk = !cold_test_and_set(ms, co_cpu(p)->cpu,
					     tlb_bit(ms, f->cpu));
		CO_AWAIT(f, coh_read_cold_of(co_cpu(p), f->cpu, f->walk));
		line = f->cpu * pcpu_lines(ms) +
		       stat_line(&ms->pcpu_sl, f->event ? PA_EVENTS : PA_STATE,
				 (unsigned int)f->k);
		ms->cold_seen[co_cpu(p)->cpu][line / 8] |=
			(unsigned char)(1u << (line % 8));
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
	error_note(ms, f->x, truth, f->event ? -1 : s);
	CO_END(f, p);
}

static int stat_event_k(struct memcg_sim *ms, int ev)
{
	return memcg__event_index(ms, ev);
}

/**
 * memory_stat_show() - read memory.stat
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct memory_stat_show_frame: @memcg, @format (1 or 2),
 * 	@ratelimited
 *
 * Flushes as the kernel does, then reads every counter the file prints; a
 * modelled item's value is compared with the exact value (the stats error).
 *
 * Context: a coroutine on the simulated CPU co_cpu(p) (a reading task); may flush.
 */
int memory_stat_show(struct sim_proc *p, void *frame)
{
	struct memory_stat_show_frame *f = frame;
	struct memcg_sim *ms = this_ms(p);
	unsigned int nbytes;
	int k;

	CO_BEGIN(f);
	ENTER(p, KF_memory_stat_show);
	f->start = NOW(p);
	/* a bit per (CPU, line of its copy), then per CPU's copy (tlb_bit()) */
	nbytes = (ms->nr_cpus * pcpu_lines(ms) + ms->nr_cpus + 7) / 8;
	if (!ms->cold_seen[co_cpu(p)->cpu]) {
		ms->cold_seen[co_cpu(p)->cpu] = calloc(nbytes, 1);
		SIM_OOM_ON(!ms->cold_seen[co_cpu(p)->cpu]);
	}
	memset(ms->cold_seen[co_cpu(p)->cpu], 0, nbytes);
	/* mem_cgroup_flush_stats() (v6.8: of this memcg) */
	if (f->ratelimited)
		CO_CALL(f, p, mem_cgroup_flush_stats_ratelimited,
			.memcg = f->memcg);
	else
		CO_CALL(f, p, mem_cgroup_flush_stats, .memcg = f->memcg);
	if (f->format == 2) {
		for (f->i = 0; f->i < ARRAY_SIZE(v2_state_reads); f->i++)
			CO_CALL(f, p, stat_read_one, .memcg = f->memcg,
				.k = (int)memcg__state_index(
					ms, v2_state_reads[f->i]));
		if (ms->k->stats_version == STATS_V6_0) {
			for (f->i = 0; f->i < ARRAY_SIZE(v2_events_v6_0);
			     f->i++)
				CO_CALL(f, p, stat_read_one, .memcg = f->memcg,
					.event = true,
					.k = stat_event_k(
						ms, v2_events_v6_0[f->i]));
		} else {
			/*
			 * pgscan and pgsteal sum kswapd, direct and
			 * khugepaged; then every memcg_vm_event_stat[] entry
			 * but PGPGIN/PGPGOUT.
			 */
			for (f->i = 2; f->i < 8; f->i++)
				CO_CALL(f, p, stat_read_one, .memcg = f->memcg,
					.event = true, .k = (int)f->i);
			for (f->i = 2; f->i < ms->k->memcg_event_items; f->i++)
				CO_CALL(f, p, stat_read_one, .memcg = f->memcg,
					.event = true, .k = (int)f->i);
		}
		goto out;
	}
	/* v1: local, the hierarchical limits, then total_* */
	for (f->pass = 0; f->pass < 2; f->pass++) {
		for (f->i = 0; f->i < ARRAY_SIZE(v1_state_reads); f->i++) {
			/* swap only with swap accounting */
			if (v1_state_reads[f->i] == K_MEMCG_SWAP &&
			    !do_memsw_account(ms->k))
				continue;
			CO_CALL(f, p, stat_read_one, .memcg = f->memcg,
				.local = f->pass == 0,
				.k = (int)memcg__state_index(
					ms, v1_state_reads[f->i]));
		}
		for (f->i = 0; f->i < ARRAY_SIZE(v1_events); f->i++) {
			k = stat_event_k(ms, v1_events[f->i]);
			if (k < 0)
				continue;
			CO_CALL(f, p, stat_read_one, .memcg = f->memcg,
				.event = true, .local = f->pass == 0, .k = k);
		}
		for (f->i = 0; f->i < ARRAY_SIZE(v1_lru_reads); f->i++)
			CO_CALL(f, p, stat_read_one, .memcg = f->memcg,
				.local = f->pass == 0,
				.k = (int)memcg__state_index(
					ms, v1_lru_reads[f->i]));
		if (f->pass)
			break;
		/*
		 * hierarchical_memory_limit and _memsw_limit: memory.max
		 * and memsw.max up the tree. SIM: memsw.max is placed only
		 * with swap accounting, so without it its load is free.
		 */
		for (f->mi = f->memcg; f->mi; f->mi = f->mi->parent) {
			CO_LOAD(f, &f->mi->memory, max);
			if (do_memsw_account(ms->k))
				CO_LOAD(f, &f->mi->memsw, max);
		}
	}
out:
	CO_FENCE(f);
	ms->counts.stat_reads++;
	sim_stat_add(&ms->read_lat,
		     (double)(NOW(p) - f->start) / SIM_PS_PER_NS);
	EXIT(p);
	CO_END(f, p);
}
