/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Model of the page-cache accounting of mm/shmem.c and mm/filemap.c
 * (Linux v6.0; the same calls at v6.6 and v6.8) as the will-it-scale
 * tmpfs tests drive it: a page added to a tmpfs file's page cache
 * (shmem_get_folio_gfp() on a hole) and the pages a truncation removes
 * (shmem_undo_range()).
 *
 * Source note: no v6.0 tree was at hand; the paths are the v6.0 code as
 * recalled (doc/socket-accounting.md section 3.1 says the same), and
 * should be checked against the tag before numbers are frozen.
 *
 * Theory of operation
 *
 *   add, one 4K page (shmem_get_folio_gfp() on a hole, SGP_CACHE from
 *   shmem_fault() or SGP_FALLOC from shmem_fallocate()):
 *     shmem_alloc_and_acct_folio()      no memcg work (shmem's own
 *                                       block accounting: SIM: in the
 *                                       workload's work)
 *     shmem_add_to_page_cache()
 *       mem_cgroup_charge()            charge 1 page (charge_memcg():
 *                                       try_charge, PGPGIN)
 *       __lruvec_stat_mod_folio()       NR_FILE_PAGES +1
 *       __lruvec_stat_mod_folio()       NR_SHMEM +1
 *     folio_add_lru()                   NR_INACTIVE_ANON +1 (shmem is
 *                                       swap-backed: the anon LRU)
 *   A page already in the cache costs no memcg work.
 *
 *   truncate, nr pages (shmem_truncate_range() -> shmem_undo_range()):
 *   find_lock_entries() fills a folio_batch of PAGEVEC_SIZE = 15; per
 *   batch:
 *     per folio: truncate_inode_folio() -> filemap_remove_folio() ->
 *       __filemap_remove_folio() -> filemap_unaccount_folio():
 *                                       NR_FILE_PAGES -1, NR_SHMEM -1
 *     folio_batch_release() -> release_pages(): the last reference:
 *       per folio lruvec_del_folio()    NR_INACTIVE_ANON -1
 *       mem_cgroup_uncharge_list()      one uncharge_batch() of the
 *                                       batch: page_counter_uncharge()
 *                                       of its pages, PGPGOUT
 *   So 256 pages: 17 batches of 15 and one of 1, 18 uncharges.
 *
 * Versions: v6.7 moved mem_cgroup_charge() from shmem_add_to_page_cache()
 * to shmem_alloc_and_add_folio() (same charge, same order); v6.9 makes the
 * folio batch 31 and release_pages() folios_put_refs(): not a version the
 * model supports, so the batch is 15 at every stats_version.
 *
 * SIM: a folio reaches the LRU at once (the per-CPU lru_add batch is not
 * modelled), so every truncated page is on the LRU and freed by the
 * truncation's release_pages(); THP is off (shmem_enabled: never); the
 * memcg charged is the caller's (charge_mm: the faulting mm, or NULL and
 * so current's memcg for fallocate).
 *
 * Layering: models/ module; uses models/kernel/mm/memcontrol.h, insn.h
 * (instruction costs), kprof.h.
 */
#ifndef MODELS_KERNEL_SHMEM_H
#define MODELS_KERNEL_SHMEM_H

#include "models/kernel/mm/memcontrol.h"

#define PAGEVEC_SIZE 15

/*
 * shmem_get_folio_gfp(): one page of a tmpfs file; @cached: SIM: whether
 * the index is already in the page cache. Returns 0 or -ENOMEM in p->ret.
 */
struct shmem_get_folio_gfp_frame {
	struct co_frame co;
	struct mem_cgroup *memcg; /* SIM: charge_mm's, or current's */
	bool cached;
};

int shmem_get_folio_gfp(struct sim_proc *p, void *frame);

/* shmem_add_to_page_cache(): charge and count one page; 0 or -ENOMEM */
struct shmem_add_to_page_cache_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
};

int shmem_add_to_page_cache(struct sim_proc *p, void *frame);

/* shmem_undo_range(): remove @nr_pages cached pages of @memcg's */
struct shmem_undo_range_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	unsigned long nr_pages;
	/* locals */
	unsigned int batch, i;
	bool drained; /* the folio_batch's percpu_pvec_drained */
};

int shmem_undo_range(struct sim_proc *p, void *frame);

/*
 * shmem_uncharge_batches() - SIM: the uncharge_batch() calls a truncation
 * of @nr_pages makes (one per folio_batch), for tests and documents.
 */
static inline unsigned long shmem_uncharge_batches(unsigned long nr_pages)
{
	return (nr_pages + PAGEVEC_SIZE - 1) / PAGEVEC_SIZE;
}

#endif /* MODELS_KERNEL_SHMEM_H */
