// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/kernel/sim/kprof.c - time by kernel function (see kprof.h).
 */
#include <string.h>

#include "models/kernel/sim/kprof.h"
#include "sim/error.h"

static const char *const names[NR_KPROF_FNS] = {
	[KF_OTHER] = "[other]",
	[KF_IDLE] = "[idle]",
	[KF_WAKE] = "[wake]",
	[KF_NO_TASK] = "[no task]",
	[KF_WORK_SEND] = "[send work]",
	[KF_WORK_RECV] = "[receive work]",
	[KF_WORK] = "[work]",
	[KF_try_charge_memcg] = "try_charge_memcg",
	[KF_consume_stock] = "consume_stock",
	[KF_refill_stock] = "refill_stock",
	[KF_drain_stock] = "drain_stock",
	[KF_page_counter_try_charge] = "page_counter_try_charge",
	[KF_page_counter_charge] = "page_counter_charge",
	[KF_page_counter_uncharge] = "page_counter_uncharge",
	[KF_page_counter_cancel] = "page_counter_cancel",
	[KF_propagate_protected_usage] = "propagate_protected_usage",
	[KF_try_charge_memcg_high] = "try_charge_memcg:high",
	[KF_try_to_free_mem_cgroup_pages] = "try_to_free_mem_cgroup_pages",
	[KF_mem_cgroup_charge_skmem] = "mem_cgroup_charge_skmem",
	[KF_mem_cgroup_uncharge_skmem] = "mem_cgroup_uncharge_skmem",
	[KF_mem_cgroup_under_socket_pressure] =
		"mem_cgroup_under_socket_pressure",
	[KF_mod_memcg_state] = "mod_memcg_state",
	[KF_mod_lruvec_state] = "mod_lruvec_state",
	[KF_count_memcg_events] = "count_memcg_events",
	[KF_cgroup_rstat_updated] = "cgroup_rstat_updated",
	[KF_mem_cgroup_flush_stats] = "mem_cgroup_flush_stats",
	[KF_cgroup_rstat_flush] = "cgroup_rstat_flush",
	[KF_mem_cgroup_css_rstat_flush] = "mem_cgroup_css_rstat_flush",
	[KF_memory_stat_show] = "memory_stat_show",
	[KF_charge_memcg] = "charge_memcg",
	[KF_uncharge_batch] = "uncharge_batch",
	[KF_memcg_kmem_charge_page] = "__memcg_kmem_charge_page",
	[KF_memcg_kmem_uncharge_page] = "__memcg_kmem_uncharge_page",
	[KF_obj_cgroup_charge] = "obj_cgroup_charge",
	[KF_obj_cgroup_uncharge] = "obj_cgroup_uncharge",
	[KF_consume_obj_stock] = "consume_obj_stock",
	[KF_refill_obj_stock] = "refill_obj_stock",
	[KF_drain_obj_stock] = "drain_obj_stock",
	[KF_mod_objcg_state] = "mod_objcg_state",
	[KF_memcg_slab_pre_alloc_hook] = "memcg_slab_pre_alloc_hook",
	[KF_memcg_slab_post_alloc_hook] = "memcg_slab_post_alloc_hook",
	[KF_memcg_slab_free_hook] = "memcg_slab_free_hook",
	[KF_shmem_get_folio_gfp] = "shmem_get_folio_gfp",
	[KF_shmem_add_to_page_cache] = "shmem_add_to_page_cache",
	[KF_shmem_undo_range] = "shmem_undo_range",
	[KF_folio_batch_move_lru] = "folio_batch_move_lru",
	[KF_lru_add_drain] = "lru_add_drain",
	[KF_release_pages] = "release_pages",
	[KF__raw_spin_lock_irqsave] = "_raw_spin_lock_irqsave",
};

const char *kprof_name(enum kprof_fn fn)
{
	SIM_BUG_ON(fn >= NR_KPROF_FNS);
	return names[fn];
}

/* Charge the time since the last mark to the function on top. */
static void settle(struct kprof *k, sim_time_t now)
{
	kprof__settle(k, now);
}

void kprof_enter(struct kprof *k, enum kprof_fn fn, sim_time_t now)
{
	kprof__enter(k, fn, now);
}

void kprof_reset(struct kprof *k, sim_time_t now)
{
	unsigned int i;

	settle(k, now);
	memset(k->fn, 0, sizeof(k->fn));
	/* Functions in progress count from here. */
	for (i = 0; i < k->depth; i++)
		k->stack[i].start = now;
}

void kprof_settle(struct kprof *k, sim_time_t now)
{
	settle(k, now);
}

unsigned int kprof_caller(const struct kprof *k)
{
	return kprof_current(k);
}
