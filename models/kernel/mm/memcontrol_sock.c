// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of the socket-memory charge of mm/memcontrol.c, Linux v6.0
 * (mem_cgroup_charge_skmem(), mem_cgroup_uncharge_skmem()) and of
 * include/linux/memcontrol.h's mem_cgroup_under_socket_pressure(): on
 * cgroup v2 through try_charge() and the per-CPU stock, on v1 (with
 * tcpmem_active) to the unbatched tcpmem page_counter alone, as v6.11 on
 * does in mm/memcontrol-v1.c (memcg1_charge_skmem(),
 * memcg1_uncharge_skmem()). SIM: a file of its own only to keep
 * memcontrol.c under the project's size limit; the functions are in the
 * kernel file's order. Theory of operation: see memcontrol.h.
 */
#include "models/kernel/compat/access.h"
#include "models/kernel/compat/kernel.h"
#include "models/kernel/mm/memcontrol_internal.h"

/**
 * mem_cgroup_charge_skmem() - charge socket memory
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct mem_cgroup_charge_skmem_frame: @memcg, @nr_pages,
 * 	@gfp_mask
 *
 * try_charge() the pages and count them in MEMCG_SOCK. On cgroup v1 (with
 * tcpmem_active: without it no socket has a memcg), v6.0's first branch,
 * memcg1_charge_skmem() in v6.11 on (mm/memcontrol-v1.c): the unbatched
 * tcpmem page_counter alone, level by level, no stock, no MEMCG_SOCK.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p); may wait as try_charge()
 * does.
 * Return: in p->ret, true when charged; over the limit nothing is charged
 * (v5.15 on) and the caller decides.
 */
int mem_cgroup_charge_skmem(struct sim_proc *p, void *frame)
{
	struct mem_cgroup_charge_skmem_frame *f = frame;

	CO_BEGIN(f);
	ENTER(p, KF_mem_cgroup_charge_skmem);
	/* !cgroup_subsys_on_dfl(memory_cgrp_subsys) */
	if (this_ms(p)->k->cgroup_version == 1) {
		this_ms(p)->counts.pc_try_charges++;
		CO_CALL(f, p, page_counter_try_charge,
			.counter = &f->memcg->tcpmem, .nr_pages = f->nr_pages,
			.fail = &f->fail);
		if (p->ret) {
			CO_STORE(f, f->memcg, tcpmem_pressure, 0);
			EXIT(p);
			CO_RETURN(f, p, true);
		}
		CO_STORE(f, f->memcg, tcpmem_pressure, 1);
		if (f->gfp_mask & __GFP_NOFAIL) {
			CO_CALL(f, p, page_counter_charge,
				.counter = &f->memcg->tcpmem,
				.nr_pages = f->nr_pages);
			EXIT(p);
			CO_RETURN(f, p, true);
		}
		EXIT(p);
		CO_RETURN(f, p, false);
	}
	CO_CALL(f, p, try_charge, .memcg = f->memcg, .gfp_mask = f->gfp_mask,
		.nr_pages = f->nr_pages);
	if (p->ret == 0) {
		CO_CALL(f, p, mod_memcg_state, .memcg = f->memcg,
			.idx = SIM_MEMCG_SOCK, .val = f->nr_pages);
		f->memcg->sock_pages += f->nr_pages;
		EXIT(p);
		CO_RETURN(f, p, true);
	}
	/* over the limit: nothing charged (v5.15 on); the caller decides */
	EXIT(p);
	CO_RETURN(f, p, false);
	CO_END(f, p);
}

/**
 * mem_cgroup_uncharge_skmem() - uncharge socket memory
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct mem_cgroup_uncharge_skmem_frame: @memcg, @nr_pages
 *
 * MEMCG_SOCK down, and the pages to this CPU's stock; on cgroup v1, the
 * tcpmem page_counter uncharged (v6.0; memcg1_uncharge_skmem() in v6.11 on).
 *
 * Context: a coroutine on the simulated CPU co_cpu(p).
 */
int mem_cgroup_uncharge_skmem(struct sim_proc *p, void *frame)
{
	struct mem_cgroup_uncharge_skmem_frame *f = frame;

	CO_BEGIN(f);
	ENTER(p, KF_mem_cgroup_uncharge_skmem);
	this_ms(p)->counts.uncharges++;
	if (this_ms(p)->k->cgroup_version == 1) {
		this_ms(p)->counts.pc_uncharges++;
		CO_CALL(f, p, page_counter_uncharge,
			.counter = &f->memcg->tcpmem, .nr_pages = f->nr_pages);
		EXIT(p);
		CO_RETURN(f, p, 0);
	}
	CO_CALL(f, p, mod_memcg_state, .memcg = f->memcg, .idx = SIM_MEMCG_SOCK,
		.val = -(long)f->nr_pages);
	f->memcg->sock_pages -= f->nr_pages;
	/* SIM: the root's pages were never charged */
	if (!mem_cgroup_is_root(this_ms(p), f->memcg))
		CO_CALL(f, p, refill_stock, .memcg = f->memcg,
			.nr_pages = f->nr_pages);
	EXIT(p);
	CO_END(f, p);
}

/**
 * mem_cgroup_under_socket_pressure() - is any level under socket pressure
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct mem_cgroup_under_socket_pressure_frame: @memcg
 *
 * include/linux/memcontrol.h: on cgroup v2, whether any level's socket_pressure
 * deadline is still ahead. SIM: never set, as vmpressure is not modelled, but
 * the loads up the hierarchy are paid.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p); loads only.
 * Return: in p->ret, false.
 */
int mem_cgroup_under_socket_pressure(struct sim_proc *p, void *frame)
{
	struct mem_cgroup_under_socket_pressure_frame *f = frame;

	CO_BEGIN(f);
	ENTER(p, KF_mem_cgroup_under_socket_pressure);
	/* v1: return !!memcg->tcpmem_pressure; this level's only */
	if (this_ms(p)->k->cgroup_version == 1) {
		insn_charge(co_cpu(p),
			    INSN_mem_cgroup_under_socket_pressure_level, 1);
		CO_LOAD(f, f->memcg, tcpmem_pressure);
		EXIT(p);
		CO_RETURN(f, p, f->memcg->tcpmem_pressure != 0);
	}
	do {
		insn_charge(co_cpu(p),
			    INSN_mem_cgroup_under_socket_pressure_level, 1);
		/* time_before(jiffies, READ_ONCE(memcg->socket_pressure)) */
		CO_LOAD(f, f->memcg, socket_pressure);
		/* memcg = parent_mem_cgroup(memcg) */
		CO_READ_ONCE_DEP(f, f->memcg, f->memcg, parent);
	} while (f->memcg);
	EXIT(p);
	CO_RETURN(f, p, false);
	CO_END(f, p);
}
