// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/kernel/sim/insn.c - instruction costs of the modelled kernel paths
 * (see insn.h). The table is models/kernel/sim/insn-costs-6.1.tsv, column for
 * column; tests/check_insn.c holds the two together.
 */
#include "models/hw/machine.h"
#include "models/kernel/sim/insn.h"
#include "sim/error.h"

const struct insn_cost insn_table[NR_INSN_ROWS] = {
	/* generated: tools/extract-insn-costs.py --c */
	[INSN_try_charge_memcg] = { "try_charge_memcg", "call", 39 },
	[INSN_consume_stock] = { "consume_stock", "call", 13 },
	[INSN_try_charge_memcg_miss] = { "try_charge_memcg", "miss", 7 },
	[INSN_try_charge_memcg_high_level] = { "try_charge_memcg", "high_level",
					       12 },
	[INSN_refill_stock] = { "refill_stock", "call", 10 },
	[INSN_drain_stock] = { "drain_stock", "call", 20 },
	[INSN_page_counter_try_charge] = { "page_counter_try_charge", "call",
					   5 },
	[INSN_page_counter_try_charge_level] = { "page_counter_try_charge",
						 "level", 14 },
	[INSN_page_counter_charge] = { "page_counter_charge", "call", 4 },
	[INSN_page_counter_charge_level] = { "page_counter_charge", "level",
					     12 },
	[INSN_page_counter_uncharge] = { "page_counter_uncharge", "call", 12 },
	[INSN_page_counter_cancel] = { "page_counter_cancel", "call", 9 },
	[INSN_propagate_protected_usage] = { "propagate_protected_usage",
					     "call", 16 },
	[INSN___mod_memcg_state] = { "__mod_memcg_state", "call", 21 },
	[INSN___mod_lruvec_state] = { "__mod_lruvec_state", "call", 18 },
	[INSN___mod_memcg_lruvec_state] = { "__mod_memcg_lruvec_state", "call",
					    26 },
	[INSN___mod_node_page_state] = { "__mod_node_page_state", "call", 22 },
	[INSN_mod_lruvec_state] = { "mod_lruvec_state", "call", 66 },
	[INSN_count_memcg_events] = { "count_memcg_events", "call", 24 },
	[INSN_cgroup_rstat_updated] = { "cgroup_rstat_updated", "call", 14 },
	[INSN_cgroup_rstat_updated_link] = { "cgroup_rstat_updated", "link",
					     26 },
	[INSN_memcg_check_events] = { "memcg_check_events", "call", 7 },
	[INSN_mem_cgroup_charge_statistics] = { "mem_cgroup_charge_statistics",
						"call", 9 },
	[INSN_charge_memcg] = { "charge_memcg", "call", 35 },
	[INSN_uncharge_batch] = { "uncharge_batch", "call", 39 },
	[INSN_mem_cgroup_flush_stats] = { "mem_cgroup_flush_stats", "call", 6 },
	[INSN_cgroup_rstat_flush] = { "cgroup_rstat_flush", "call", 12 },
	[INSN_cgroup_rstat_flush_locked] = { "cgroup_rstat_flush_locked",
					     "call", 31 },
	[INSN_cgroup_rstat_flush_locked_cpu] = { "cgroup_rstat_flush_locked",
						 "cpu", 25 },
	[INSN_cgroup_rstat_flush_locked_cgroup] = { "cgroup_rstat_flush_locked",
						    "cgroup", 46 },
	[INSN_mem_cgroup_css_rstat_flush] = { "mem_cgroup_css_rstat_flush",
					      "call", 40 },
	[INSN_mem_cgroup_css_rstat_flush_state_item] = { "mem_cgroup_css_rstat_flush",
							 "state_item", 13 },
	[INSN_mem_cgroup_css_rstat_flush_event_item] = { "mem_cgroup_css_rstat_flush",
							 "event_item", 15 },
	[INSN_mem_cgroup_css_rstat_flush_lruvec_item] = { "mem_cgroup_css_rstat_flush",
							  "lruvec_item", 11 },
	[INSN_queued_spin_lock_slowpath] = { "queued_spin_lock_slowpath",
					     "call", 19 },
	[INSN___memcg_kmem_charge_page] = { "__memcg_kmem_charge_page", "call",
					    60 },
	[INSN___memcg_kmem_uncharge_page] = { "__memcg_kmem_uncharge_page",
					      "call", 26 },
	[INSN_obj_cgroup_uncharge_pages] = { "obj_cgroup_uncharge_pages",
					     "call", 24 },
	[INSN___get_obj_cgroup_from_memcg] = { "__get_obj_cgroup_from_memcg",
					       "call", 10 },
	[INSN_get_obj_cgroup_from_current] = { "get_obj_cgroup_from_current",
					       "call", 23 },
	[INSN_obj_cgroup_charge] = { "obj_cgroup_charge", "call", 18 },
	[INSN_consume_obj_stock] = { "consume_obj_stock", "call", 12 },
	[INSN_obj_cgroup_uncharge] = { "obj_cgroup_uncharge", "call", 3 },
	[INSN_refill_obj_stock] = { "refill_obj_stock", "call", 31 },
	[INSN_drain_obj_stock] = { "drain_obj_stock", "call", 48 },
	[INSN_memcg_kmem_get_cache] = { "memcg_kmem_get_cache", "call", 33 },
	[INSN_mem_cgroup_charge_skmem] = { "mem_cgroup_charge_skmem", "call",
					   30 },
	[INSN_mem_cgroup_uncharge_skmem] = { "mem_cgroup_uncharge_skmem",
					     "call", 15 },
	[INSN_mem_cgroup_under_socket_pressure_level] = { "mem_cgroup_under_socket_pressure",
							  "level", 12 },
	[INSN___sk_mem_raise_allocated] = { "__sk_mem_raise_allocated", "call",
					    59 },
	[INSN___sk_mem_raise_allocated_nomemcg] = { "__sk_mem_raise_allocated",
						    "nomemcg", 47 },
	[INSN___sk_mem_raise_allocated_memcg] = { "__sk_mem_raise_allocated",
						  "memcg", 12 },
	[INSN___sk_mem_schedule] = { "__sk_mem_schedule", "call", 20 },
	[INSN___sk_mem_reduce_allocated] = { "__sk_mem_reduce_allocated",
					     "call", 22 },
	[INSN___sk_mem_reduce_allocated_nomemcg] = { "__sk_mem_reduce_allocated",
						     "nomemcg", 20 },
	[INSN___sk_mem_reduce_allocated_memcg] = { "__sk_mem_reduce_allocated",
						   "memcg", 2 },
	[INSN_memcg_slab_pre_alloc_hook] = { "memcg_slab_pre_alloc_hook",
					     "call", 14 },
	[INSN_memcg_slab_post_alloc_hook] = { "memcg_slab_post_alloc_hook",
					      "call", 95 },
	[INSN_memcg_slab_free_hook] = { "memcg_slab_free_hook", "call", 18 },
	[INSN_mod_objcg_state] = { "mod_objcg_state", "call", 43 },
	[INSN___account_obj_stock] = { "__account_obj_stock", "call", 31 },
	[INSN_mod_objcg_mlstate] = { "mod_objcg_mlstate", "call", 14 },
	[INSN_mod_memcg_lruvec_state] = { "mod_memcg_lruvec_state", "call", 9 },
	[INSN_shmem_get_folio_gfp] = { "shmem_get_folio_gfp", "call", 129 },
	[INSN_shmem_get_folio_gfp_cached] = { "shmem_get_folio_gfp", "cached",
					      66 },
	[INSN_shmem_add_to_page_cache] = { "shmem_add_to_page_cache", "call",
					   122 },
	[INSN_shmem_undo_range] = { "shmem_undo_range", "call", 101 },
	[INSN_shmem_undo_range_folio] = { "shmem_undo_range", "folio", 20 },
	[INSN_filemap_unaccount_folio] = { "filemap_unaccount_folio", "call",
					   39 },
	[INSN_down_read] = { "down_read", "call", 19 },
	[INSN_up_read] = { "up_read", "call", 11 },
	[INSN_down_write] = { "down_write", "call", 15 },
	[INSN_up_write] = { "up_write", "call", 10 },
	[INSN_down_read_trylock] = { "down_read_trylock", "call", 11 },
	[INSN_sctp_set_owner_w] = { "sctp_set_owner_w", "call", 46 },
	[INSN_sctp_wfree] = { "sctp_wfree", "call", 47 },
	[INSN_sctp_sock_rfree] = { "sctp_sock_rfree", "call", 10 },
	[INSN_sctp_ulpevent_receive_data] = { "sctp_ulpevent_receive_data",
					      "call", 41 },
	[INSN_select_task_rq_fair] = { "select_task_rq_fair", "call", 63 },
	[INSN_available_idle_cpu] = { "available_idle_cpu", "call", 10 },
	[INSN_memory_stat_format_item] = { "memory_stat_format", "item", 20 },
	[INSN_memory_stat_format_event] = { "memory_stat_format", "event", 16 },
	[INSN_memcg_page_state_local_cpu] = { "memcg_page_state_local", "cpu",
					      12 },
	[INSN_seq_buf_printf] = { "seq_buf_printf", "call", 35 },
	[INSN_seq_buf_vprintf] = { "seq_buf_vprintf", "call", 25 },
	[INSN_vsnprintf] = { "vsnprintf", "call", 38 },
	[INSN_vsnprintf_spec] = { "vsnprintf", "spec", 18 },
	[INSN_format_decode] = { "format_decode", "call", 21 },
	[INSN_string_char] = { "string", "char", 10 },
	[INSN_string] = { "string", "call", 14 },
	[INSN_number] = { "number", "call", 93 },
	[INSN_put_dec] = { "put_dec", "call", 5 },
	[INSN_put_dec_trunc8] = { "put_dec_trunc8", "call", 11 },
	[INSN_memory_stat_item] = { "memory_stat", "item", 517 },
	/* end generated */
};

/*
 * The per-call row of each function the model marks with ENTER(). SIM:
 * mod_memcg_state and mod_lruvec_state are the irq-safe wrappers; their
 * local_irq_save/restore is the profile's irq_save_restore, so the rows
 * are those of __mod_memcg_state and __mod_lruvec_state with its callees.
 */
const int insn_kf_row[NR_KPROF_FNS] = {
	[KF_OTHER] = -1,
	[KF_IDLE] = -1,
	[KF_WAKE] = -1,
	[KF_NO_TASK] = -1,
	[KF_WORK_SEND] = -1,
	[KF_WORK_RECV] = -1,
	[KF_WORK] = -1,
	[KF_try_charge_memcg] = INSN_try_charge_memcg,
	[KF_consume_stock] = INSN_consume_stock,
	[KF_refill_stock] = INSN_refill_stock,
	[KF_drain_stock] = INSN_drain_stock,
	[KF_page_counter_try_charge] = INSN_page_counter_try_charge,
	[KF_page_counter_charge] = INSN_page_counter_charge,
	[KF_page_counter_uncharge] = INSN_page_counter_uncharge,
	[KF_page_counter_cancel] = INSN_page_counter_cancel,
	[KF_propagate_protected_usage] = INSN_propagate_protected_usage,
	[KF_try_charge_memcg_high] = INSN_try_charge_memcg_miss,
	[KF_try_to_free_mem_cgroup_pages] = -1, /* reclaim: reclaim_ns */
	[KF_mem_cgroup_charge_skmem] = INSN_mem_cgroup_charge_skmem,
	[KF_mem_cgroup_uncharge_skmem] = INSN_mem_cgroup_uncharge_skmem,
	[KF_mem_cgroup_under_socket_pressure] = -1, /* per level */
	[KF_mod_memcg_state] = INSN___mod_memcg_state,
	[KF_mod_lruvec_state] = INSN_mod_lruvec_state,
	[KF_count_memcg_events] = -1, /* in __count_memcg_events() */
	[KF_cgroup_rstat_updated] = INSN_cgroup_rstat_updated,
	[KF_mem_cgroup_flush_stats] = INSN_mem_cgroup_flush_stats,
	[KF_cgroup_rstat_flush] = INSN_cgroup_rstat_flush,
	[KF_mem_cgroup_css_rstat_flush] = INSN_mem_cgroup_css_rstat_flush,
	[KF_memory_stat_show] = -1, /* per line: memory_stat_item */
	[KF_charge_memcg] = INSN_charge_memcg,
	[KF_uncharge_batch] = INSN_uncharge_batch,
	/*
	 * SIM: with kmem_accounting: pages these stand for v4.8's
	 * memcg_kmem_charge() (the memcg of current, css_tryget, the page
	 * counters, PageKmemcg set, css_put) and memcg_kmem_uncharge() (the
	 * PageKmemcg page's free path): that code is gone from 6.1, whose
	 * nearest equivalents, __memcg_kmem_charge_page() and
	 * __memcg_kmem_uncharge_page() (objcg of current, its reference,
	 * page->memcg_data), are what the binary holds to count.
	 */
	[KF_memcg_kmem_charge_page] = INSN___memcg_kmem_charge_page,
	[KF_memcg_kmem_uncharge_page] = INSN___memcg_kmem_uncharge_page,
	[KF_obj_cgroup_charge] = INSN_obj_cgroup_charge,
	[KF_obj_cgroup_uncharge] = INSN_obj_cgroup_uncharge,
	[KF_consume_obj_stock] = INSN_consume_obj_stock,
	[KF_refill_obj_stock] = INSN_refill_obj_stock,
	[KF_drain_obj_stock] = INSN_drain_obj_stock,
	/* by version: v6.0's stock path, or v5.13's mod_objcg_mlstate() */
	[KF_mod_objcg_state] = -1,
	[KF_memcg_slab_pre_alloc_hook] = INSN_memcg_slab_pre_alloc_hook,
	[KF_memcg_slab_post_alloc_hook] = INSN_memcg_slab_post_alloc_hook,
	[KF_memcg_slab_free_hook] = INSN_memcg_slab_free_hook,
	/* a hole filled; a cached page is its cached row */
	[KF_shmem_get_folio_gfp] = INSN_shmem_get_folio_gfp,
	[KF_shmem_add_to_page_cache] = INSN_shmem_add_to_page_cache,
	[KF_shmem_undo_range] = INSN_shmem_undo_range,
	/* SIM: no rows: no vmlinux at hand to count them (mm/swap.h) */
	[KF_folio_batch_move_lru] = -1,
	[KF_lru_add_drain] = -1,
	[KF_release_pages] = -1,
	[KF__raw_spin_lock_irqsave] = -1,
};

void insn_enter(struct coh_cpu *cc, enum kprof_fn kf)
{
	int row = insn_row_of(kf);

	if (cc && row >= 0)
		insn__charge(cc, (enum insn_row)row, 1,
			     cc->prof ? kprof_current(cc->prof) : KF_OTHER);
}
