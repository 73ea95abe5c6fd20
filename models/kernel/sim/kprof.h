/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/kernel/sim/kprof.h - time by kernel function, perf-report style.
 *
 * Theory of operation: every modelled kernel function marks its entry and
 * its return (KPROF_ENTER/KPROF_EXIT). Each CPU keeps a small stack of the
 * functions it is in; the simulated time between two marks is charged to
 * the function on top of the stack ("self", perf's default) and, when the
 * function returns, its whole duration to its "children" total (perf
 * report --children). Time outside any modelled function is charged to
 * "[other]", and the whole time of a CPU that runs no task (netperf's CPUs
 * beyond its pairs) to "[no task]", not to [other]. Waiting for a cache line or a lock is part of the function
 * that waits, as a cycles profile shows it. Counting starts over at the
 * end of the warm-up (kprof_reset()).
 *
 * Function names are the kernel's; the table is in kprof.c. Workloads
 * account their non-memcg work to pseudo-functions in brackets, e.g.
 * "[tcp_sendmsg work]".
 *
 * Layering: models/ module; uses sim/engine.h only.
 */
#ifndef MODELS_KERNEL_KPROF_H
#define MODELS_KERNEL_KPROF_H

#include <stdint.h>

#include "sim/engine.h"
#include "sim/error.h"

enum kprof_fn {
	KF_OTHER, /* outside every modelled function */
	KF_IDLE, /* waiting for work (a message, a peer) */
	KF_WORK_SEND, /* workload: sender's non-memcg work */
	KF_WORK_RECV, /* workload: receiver's non-memcg work */
	KF_WORK, /* workload: other non-memcg work */
	KF_try_charge_memcg,
	KF_consume_stock,
	KF_refill_stock,
	KF_drain_stock,
	KF_page_counter_try_charge,
	KF_page_counter_charge,
	KF_page_counter_uncharge,
	KF_page_counter_cancel,
	KF_propagate_protected_usage,
	KF_try_charge_memcg_high, /* its memory.high check loop */
	KF_try_to_free_mem_cgroup_pages,
	KF_mem_cgroup_charge_skmem,
	KF_mem_cgroup_uncharge_skmem,
	KF_mem_cgroup_under_socket_pressure,
	KF_mod_memcg_state,
	KF_mod_lruvec_state,
	KF_count_memcg_events,
	KF_cgroup_rstat_updated,
	KF_mem_cgroup_flush_stats,
	KF_cgroup_rstat_flush,
	KF_mem_cgroup_css_rstat_flush,
	KF_memory_stat_show,
	KF_charge_memcg,
	KF_uncharge_batch,
	KF_memcg_kmem_charge_page,
	KF_memcg_kmem_uncharge_page,
	KF_obj_cgroup_charge,
	KF_obj_cgroup_uncharge,
	KF_consume_obj_stock,
	KF_refill_obj_stock,
	KF_drain_obj_stock,
	KF_mod_objcg_state,
	KF_memcg_slab_pre_alloc_hook,
	KF_memcg_slab_post_alloc_hook,
	KF_memcg_slab_free_hook,
	KF_shmem_get_folio_gfp,
	KF_shmem_add_to_page_cache,
	KF_shmem_undo_range,
	KF_folio_batch_move_lru,
	KF_lru_add_drain,
	KF_release_pages,
	KF__raw_spin_lock_irqsave, /* the LRU lock: its RMW and its wait */
	KF_WAKE, /* woken on an idle CPU: the IPI and the idle state's exit */
	KF_NO_TASK, /* a CPU of a workload's list that runs no task */
	NR_KPROF_FNS,
};

const char *kprof_name(enum kprof_fn fn);

#define KPROF_DEPTH 16

struct kprof_fn_stat {
	uint64_t calls;
	sim_time_t self_ps; /* time with the function on top */
	sim_time_t total_ps; /* time from entry to return */
	sim_time_t insn_ps; /* of self_ps, its instructions (insn.h) */
};

/*
 * struct kprof - one CPU's profile: its function stack and totals.
 * Invariant: @depth <= KPROF_DEPTH (deeper calls are counted on the
 * deepest slot; SIM_BUG_ON in practice, the models nest at most 6).
 */
struct kprof {
	unsigned int depth;
	struct {
		uint8_t fn;
		sim_time_t start;
	} stack[KPROF_DEPTH];
	sim_time_t mark; /* time charged up to here */
	struct kprof_fn_stat fn[NR_KPROF_FNS];
};

/* The function on top of @k's stack: the one running (KF_OTHER if none). */
static inline enum kprof_fn kprof_current(const struct kprof *k)
{
	return k->depth ? (enum kprof_fn)k->stack[k->depth - 1].fn : KF_OTHER;
}

/* kprof__settle() - charge the time since the last mark to the top. */
static inline void kprof__settle(struct kprof *k, sim_time_t now)
{
	unsigned int top = kprof_current(k);

	if (now > k->mark)
		k->fn[top].self_ps += now - k->mark;
	k->mark = now;
}

/* kprof__enter() - kprof_enter(), inline for insn_kprof_enter(). */
static inline void kprof__enter(struct kprof *k, enum kprof_fn fn,
				sim_time_t now)
{
	kprof__settle(k, now);
	SIM_BUG_ON(k->depth >= KPROF_DEPTH);
	k->stack[k->depth].fn = (uint8_t)fn;
	k->stack[k->depth].start = now;
	k->depth++;
	k->fn[fn].calls++;
}

void kprof_enter(struct kprof *k, enum kprof_fn fn, sim_time_t now);

/*
 * kprof_exit() - the function on top of @k's stack returns at @now. Inline:
 * every modelled function's return (KPROF_EXIT()) runs it.
 */
static inline void kprof_exit(struct kprof *k, sim_time_t now)
{
	unsigned int d = k->depth, fn;
	sim_time_t start;

	SIM_BUG_ON(!d);
	/* kprof__settle(): the function on top is the one returning */
	d--;
	fn = k->stack[d].fn;
	start = k->stack[d].start;
	if (now > k->mark)
		k->fn[fn].self_ps += now - k->mark;
	k->mark = now;
	k->depth = d;
	k->fn[fn].total_ps += now > start ? now - start : 0;
}

/*
 * kprof_caller() - the function on top of @k's stack, as the caller of a
 * coherence access (struct coh_cpu's @caller, for explain's per-field
 * function rows).
 */
unsigned int kprof_caller(const struct kprof *k);
/* Charge everything up to @now and zero the totals (end of warm-up). */
void kprof_reset(struct kprof *k, sim_time_t now);
/* Charge the time up to @now (end of the run). */
void kprof_settle(struct kprof *k, sim_time_t now);

/* For model code: @k may be NULL (no profile kept). */
#define KPROF_ENTER(k, id, now)                        \
	do {                                           \
		if (k)                                 \
			kprof_enter((k), (id), (now)); \
	} while (0)
#define KPROF_EXIT(k, now)                      \
	do {                                    \
		if (k)                          \
			kprof_exit((k), (now)); \
	} while (0)

#endif /* MODELS_KERNEL_KPROF_H */
