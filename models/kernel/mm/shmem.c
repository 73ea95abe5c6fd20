// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of the page-cache accounting of mm/shmem.c (with
 * filemap_unaccount_folio() of mm/filemap.c and the part of
 * release_pages() of mm/swap.c a truncation runs), Linux v6.0. Theory of
 * operation: see shmem.h.
 */
#include "models/kernel/compat/sim.h"
#include "models/kernel/sim/insn.h"
#include "models/kernel/sim/kprof.h"
#include "models/kernel/mm/shmem.h"
#include "models/kernel/mm/swap.h"

/**
 * shmem_add_to_page_cache() - charge a new page and count it as cache
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct shmem_add_to_page_cache_frame: @memcg
 *
 * mem_cgroup_charge() of one page, then NR_FILE_PAGES and NR_SHMEM.
 *
 * Context: a coroutine on the simulated CPU co_cpu(p), process context.
 * Return: in p->ret, 0 or -ENOMEM (nothing counted).
 */
int shmem_add_to_page_cache(struct sim_proc *p, void *frame)
{
	struct shmem_add_to_page_cache_frame *f = frame;

	CO_BEGIN(f);
	ENTER(p, KF_shmem_add_to_page_cache);
	/* if (!folio_test_swapcache(folio)) mem_cgroup_charge(...) */
	CO_CALL(f, p, charge_memcg, .memcg = f->memcg, .nr_pages = 1,
		.gfp = GFP_KERNEL);
	if (p->ret) {
		EXIT(p);
		CO_RETURN(f, p, p->ret);
	}
	/* under xa_lock_irq(): interrupts are off already */
	CO_CALL(f, p, mod_lruvec_state, .memcg = f->memcg,
		.idx = SIM_NR_FILE_PAGES, .val = 1);
	CO_CALL(f, p, mod_lruvec_state, .memcg = f->memcg, .idx = SIM_NR_SHMEM,
		.val = 1);
	EXIT(p);
	CO_RETURN(f, p, 0);
	CO_END(f, p);
}

/**
 * shmem_get_folio_gfp() - find or add one page of a tmpfs file
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct shmem_get_folio_gfp_frame: @memcg, @cached
 *
 * A page in the cache (@cached) is found without memcg work; a hole is
 * filled: shmem_add_to_page_cache(), then folio_add_lru().
 *
 * Context: a coroutine on the simulated CPU co_cpu(p), process context.
 * Return: in p->ret, 0 or -ENOMEM.
 */
int shmem_get_folio_gfp(struct sim_proc *p, void *frame)
{
	struct shmem_get_folio_gfp_frame *f = frame;

	CO_BEGIN(f);
	if (f->cached) {
		/* __filemap_get_folio() finds it: the cached row */
		KPROF_ENTER(co_cpu(p)->prof, KF_shmem_get_folio_gfp, NOW(p));
		insn_charge(co_cpu(p), INSN_shmem_get_folio_gfp_cached, 1);
		EXIT(p);
		CO_RETURN(f, p, 0);
	}
	ENTER(p, KF_shmem_get_folio_gfp);
	CO_CALL(f, p, shmem_add_to_page_cache, .memcg = f->memcg);
	if (p->ret) {
		EXIT(p);
		CO_RETURN(f, p, p->ret);
	}
	CO_CALL(f, p, folio_add_lru, .memcg = f->memcg);
	EXIT(p);
	CO_RETURN(f, p, 0);
	CO_END(f, p);
}

/**
 * shmem_undo_range() - truncate @nr_pages cached pages
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct shmem_undo_range_frame: @memcg, @nr_pages
 *
 * Per folio_batch of up to PAGEVEC_SIZE: each folio leaves the page
 * cache (NR_FILE_PAGES and NR_SHMEM -1), then release_pages() takes each
 * off the LRU and uncharges the batch with one uncharge_batch().
 *
 * Context: a coroutine on the simulated CPU co_cpu(p), process context.
 */
int shmem_undo_range(struct sim_proc *p, void *frame)
{
	struct shmem_undo_range_frame *f = frame;

	CO_BEGIN(f);
	ENTER(p, KF_shmem_undo_range);
	while (f->nr_pages) {
		/* find_lock_entries() */
		f->batch = f->nr_pages < PAGEVEC_SIZE ?
				   (unsigned int)f->nr_pages :
				   PAGEVEC_SIZE;
		f->nr_pages -= f->batch;
		/* truncate_inode_folio() -> filemap_unaccount_folio() */
		for (f->i = 0; f->i < f->batch; f->i++) {
			/* its loop; filemap_unaccount_folio()'s own */
			insn_charge(co_cpu(p), INSN_shmem_undo_range_folio, 1);
			insn_charge(co_cpu(p), INSN_filemap_unaccount_folio, 1);
			CO_CALL(f, p, mod_lruvec_state, .memcg = f->memcg,
				.idx = SIM_NR_FILE_PAGES, .val = -1);
			CO_CALL(f, p, mod_lruvec_state, .memcg = f->memcg,
				.idx = SIM_NR_SHMEM, .val = -1);
		}
		/* folio_batch_release() -> release_pages() */
		/*
		 * folio_batch_release(): lru_add_drain() before the first
		 * batch (percpu_pvec_drained), then release_pages(), which
		 * uncharges the batch
		 */
		if (this_ms(p)->lru) {
			if (!f->drained)
				CO_CALL(f, p, lru_add_drain);
			f->drained = true;
			CO_CALL(f, p, release_pages, .memcg = f->memcg,
				.nr = f->batch);
			continue;
		}
		/* SIM: lru_lock off: release_pages() without the lock */
		for (f->i = 0; f->i < f->batch; f->i++)
			CO_CALL(f, p, mod_lruvec_state, .memcg = f->memcg,
				.idx = SIM_NR_INACTIVE_ANON, .val = -1);
		/* mem_cgroup_uncharge_list(): single-page folios */
		CO_CALL(f, p, uncharge_batch,
			.ug = { .memcg = f->memcg,
				.nr_memory = f->batch,
				.pgpgout = f->batch });
	}
	EXIT(p);
	CO_END(f, p);
}
