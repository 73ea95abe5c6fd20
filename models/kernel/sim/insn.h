/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/kernel/sim/insn.h - the CPU's own work in the modelled kernel
 * functions: instructions on the path the model takes, as CPU busy time
 * (issue 13).
 *
 * Theory of operation
 *
 * The counts are models/kernel/sim/insn-costs-6.1.tsv, which
 * tools/extract-insn-costs.py counted in Debian 12's Linux 6.1 vmlinux
 * (linux-image-amd64-dbg, the package version, addresses and the rule of
 * each row are in the file): per call of a function, and per iteration
 * where the kernel loops (a level of the hierarchy, a CPU of a flush, a
 * statistics item, a line of memory.stat). insn_table[] below holds the
 * same numbers; tests/check_insn.c checks that it matches the file row for
 * row, so a rerun of the script that moves a count fails the tests until
 * the table follows.
 *
 * An instruction costs the machine profile's `insn` latency (one kernel
 * instruction at the profile's clock and IPC, with its source); a profile
 * without it runs every instruction for free, as memcgsim did before.
 * insn_enter() charges a function's per-call row where the model marks
 * the function's entry (the ENTER() macros, keyed by its kprof id);
 * insn_charge() charges a row at the model's branch or loop. The time is
 * busy time on the CPU (coh_delay()), and is also added to the running
 * function's kprof insn_ps, so that explain can show it apart from the
 * memory time.
 *
 * Layering: models/kernel/ primitive; uses models/hw/cache.h, kprof.h.
 */
#ifndef MODELS_KERNEL_INSN_H
#define MODELS_KERNEL_INSN_H

#include "models/hw/cache.h"
#include "models/hw/machine.h"
#include "models/kernel/sim/kprof.h"

enum insn_row {
	/* generated: tools/extract-insn-costs.py --c */
	INSN_try_charge_memcg,
	INSN_consume_stock,
	INSN_try_charge_memcg_miss,
	INSN_try_charge_memcg_high_level,
	INSN_refill_stock,
	INSN_drain_stock,
	INSN_page_counter_try_charge,
	INSN_page_counter_try_charge_level,
	INSN_page_counter_charge,
	INSN_page_counter_charge_level,
	INSN_page_counter_uncharge,
	INSN_page_counter_cancel,
	INSN_propagate_protected_usage,
	INSN___mod_memcg_state,
	INSN___mod_lruvec_state,
	INSN___mod_memcg_lruvec_state,
	INSN___mod_node_page_state,
	INSN_mod_lruvec_state,
	INSN_count_memcg_events,
	INSN_cgroup_rstat_updated,
	INSN_cgroup_rstat_updated_link,
	INSN_memcg_check_events,
	INSN_mem_cgroup_charge_statistics,
	INSN_charge_memcg,
	INSN_uncharge_batch,
	INSN_mem_cgroup_flush_stats,
	INSN_cgroup_rstat_flush,
	INSN_cgroup_rstat_flush_locked,
	INSN_cgroup_rstat_flush_locked_cpu,
	INSN_cgroup_rstat_flush_locked_cgroup,
	INSN_mem_cgroup_css_rstat_flush,
	INSN_mem_cgroup_css_rstat_flush_state_item,
	INSN_mem_cgroup_css_rstat_flush_event_item,
	INSN_mem_cgroup_css_rstat_flush_lruvec_item,
	INSN_queued_spin_lock_slowpath,
	INSN___memcg_kmem_charge_page,
	INSN___memcg_kmem_uncharge_page,
	INSN_obj_cgroup_uncharge_pages,
	INSN___get_obj_cgroup_from_memcg,
	INSN_get_obj_cgroup_from_current,
	INSN_obj_cgroup_charge,
	INSN_consume_obj_stock,
	INSN_obj_cgroup_uncharge,
	INSN_refill_obj_stock,
	INSN_drain_obj_stock,
	INSN_memcg_kmem_get_cache,
	INSN_mem_cgroup_charge_skmem,
	INSN_mem_cgroup_uncharge_skmem,
	INSN_mem_cgroup_under_socket_pressure_level,
	INSN___sk_mem_raise_allocated,
	INSN___sk_mem_raise_allocated_nomemcg,
	INSN___sk_mem_raise_allocated_memcg,
	INSN___sk_mem_schedule,
	INSN___sk_mem_reduce_allocated,
	INSN___sk_mem_reduce_allocated_nomemcg,
	INSN___sk_mem_reduce_allocated_memcg,
	INSN_memcg_slab_pre_alloc_hook,
	INSN_memcg_slab_post_alloc_hook,
	INSN_memcg_slab_free_hook,
	INSN_mod_objcg_state,
	INSN___account_obj_stock,
	INSN_mod_objcg_mlstate,
	INSN_mod_memcg_lruvec_state,
	INSN_shmem_get_folio_gfp,
	INSN_shmem_get_folio_gfp_cached,
	INSN_shmem_add_to_page_cache,
	INSN_shmem_undo_range,
	INSN_shmem_undo_range_folio,
	INSN_filemap_unaccount_folio,
	INSN_down_read,
	INSN_up_read,
	INSN_down_write,
	INSN_up_write,
	INSN_down_read_trylock,
	INSN_sctp_set_owner_w,
	INSN_sctp_wfree,
	INSN_sctp_sock_rfree,
	INSN_sctp_ulpevent_receive_data,
	INSN_select_task_rq_fair,
	INSN_available_idle_cpu,
	INSN_memory_stat_format_item,
	INSN_memory_stat_format_event,
	INSN_memcg_page_state_local_cpu,
	INSN_seq_buf_printf,
	INSN_seq_buf_vprintf,
	INSN_vsnprintf,
	INSN_vsnprintf_spec,
	INSN_format_decode,
	INSN_string_char,
	INSN_string,
	INSN_number,
	INSN_put_dec,
	INSN_put_dec_trunc8,
	INSN_memory_stat_item,
	/* end generated */
	NR_INSN_ROWS,
};

/* struct insn_cost - one row of insn-costs-6.1.tsv */
struct insn_cost {
	const char *fn; /* the kernel function (or the SIM name of a sum) */
	const char *part; /* call, or the loop or branch it is per */
	unsigned int insns;
};

extern const struct insn_cost insn_table[NR_INSN_ROWS];

/* insn_enter() - the per-call row of the function @kf, if it has one. */
void insn_enter(struct coh_cpu *cc, enum kprof_fn kf);

/* insn_row_of()'s table (insn.c) */
extern const int insn_kf_row[NR_KPROF_FNS];

/*
 * insn_row_of() - the per-call row of @kf, or -1. Inline: with @kf a
 * constant (insn_kprof_enter()), one load.
 */
static inline int insn_row_of(enum kprof_fn kf)
{
	SIM_BUG_ON((unsigned int)kf >= NR_KPROF_FNS);
	return insn_kf_row[kf];
}

/*
 * insn__charge() - insn_charge() of a CPU (@cc not NULL), charged to @top,
 * the function on top of its profile's stack if it keeps one.
 */
static inline void insn__charge(struct coh_cpu *cc, enum insn_row row,
				unsigned int times, enum kprof_fn top)
{
	sim_time_t ps;

	SIM_BUG_ON((unsigned int)row >= NR_INSN_ROWS);
	ps = (sim_time_t)insn_table[row].insns * times * cc->machine->insn_ps;
	if (!ps)
		return;
	coh_delay(cc, ps);
	if (cc->prof)
		cc->prof->fn[top].insn_ps += ps;
}

/*
 * insn_charge() - @cc runs @times instructions of row @row: busy time at
 * the profile's insn latency, charged to the running function's profile.
 * Inline, as insn_kprof_enter(): with @row a constant, its count is one
 * load.
 */
static inline void insn_charge(struct coh_cpu *cc, enum insn_row row,
			       unsigned int times)
{
	if (cc)
		insn__charge(cc, row, times,
			     cc->prof ? kprof_current(cc->prof) : KF_OTHER);
}

/*
 * insn_kprof_enter() - the entry of kernel function @kf on @cc at @now
 * (ENTER()): kprof_enter() of @cc's profile, if it keeps one, then
 * insn_enter(); nothing without a CPU. Inline: every modelled function
 * runs it, and with @kf a constant its row is one load.
 */
static inline void insn_kprof_enter(struct coh_cpu *cc, enum kprof_fn kf,
				    sim_time_t now)
{
	int row = insn_row_of(kf);

	if (!cc)
		return;
	if (cc->prof)
		kprof__enter(cc->prof, kf, now);
	/* @kf is on top of the profile's stack now */
	if (row >= 0)
		insn__charge(cc, (enum insn_row)row, 1, kf);
}

#endif /* MODELS_KERNEL_INSN_H */
