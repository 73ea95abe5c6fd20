// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/workloads/page_fault.c - the page_fault workload: will-it-scale
 * page_fault1, page_fault2 and page_fault3 (`test:`), each task mapping
 * `pages` (128 MB: 32768), writing one byte per page, unmapping, and
 * again, in its own process (`mode: per_process`) or as a thread of one
 * process (`per_thread`).
 *
 * Source note: no v6.0 tree was at hand; the paths are the v6.0 code as
 * recalled (doc/socket-accounting.md section 3.1 says the same), and
 * should be checked against the tag before numbers are frozen.
 *
 * Derived from will-it-scale tests/page_fault{1,2,3}.c (commit
 * 040e50f5103c) and Linux v6.0 (mm/memory.c, mm/shmem.c, mm/rmap.c,
 * mm/swap.c, mm/mmu_gather.c, mm/memcontrol.c); doc/socket-accounting.md
 * section 3 has the derivation. Per operation (a fault), with what each
 * charges (C), uncharges (U) and counts (S: a __mod_lruvec_state() or
 * __count_memcg_events(), each a memcg_rstat_updated()):
 *
 * page_fault1: mmap(MAP_PRIVATE | MAP_ANONYMOUS).
 *   fault: handle_mm_fault(): count_memcg_event_mm(PGFAULT) [S];
 *   do_anonymous_page(): mem_cgroup_charge() -> charge_memcg() [C 1 page;
 *   S PGPGIN inside]; page_add_new_anon_rmap() [S NR_ANON_MAPPED +1];
 *   lru_cache_add_inactive_or_unevictable() [S NR_INACTIVE_ANON +1].
 *   munmap: zap_pte_range(): page_remove_rmap() [S NR_ANON_MAPPED -1] per
 *   page into the mmu_gather (8 in the embedded batch, then batches of
 *   MAX_GATHER_BATCH = 510, at most MAX_GATHER_BATCH_COUNT = 19 before a
 *   forced flush); each flushed batch: free_pages_and_swap_cache() ->
 *   release_pages(): lruvec_del_folio() [S NR_INACTIVE_ANON -1] per page,
 *   then mem_cgroup_uncharge_list() -> uncharge_batch() [U the batch
 *   straight from the page counters; S PGPGOUT].
 *
 * page_fault2: mmap(MAP_PRIVATE) of an unlinked /tmp (tmpfs) file of 128
 *   MB, ftruncate()d, so a hole. fault (write, private): do_cow_fault():
 *   mem_cgroup_charge() of the new anon page [C 1]; __do_fault() ->
 *   shmem_fault() -> shmem_get_folio_gfp(SGP_CACHE): on the task's first
 *   pass the page is a hole: shmem_alloc_and_acct_folio(),
 *   shmem_add_to_page_cache(): mem_cgroup_charge() [C 1], then
 *   __lruvec_stat_mod_folio() [S NR_FILE_PAGES +1, S NR_SHMEM +1], then
 *   folio_add_lru() [S NR_INACTIVE_ANON +1: shmem is swap-backed, so on
 *   the anon LRU]; on later passes the page is in the cache: nothing
 *   charged or counted. copy_user_highpage(), finish_fault() ->
 *   do_set_pte(): page_add_new_anon_rmap() [S NR_ANON_MAPPED +1] and the
 *   LRU [S NR_INACTIVE_ANON +1]. The file page is not mapped (the private
 *   mapping maps the copy). munmap: as page_fault1 (only anon pages are
 *   mapped); the file's pages stay in the page cache, charged, until the
 *   file is closed: never, in the benchmark.
 *
 * page_fault3: mmap(MAP_SHARED) of the same kind of file. fault (write,
 *   shared): do_shared_fault(): __do_fault() -> shmem_fault() (first
 *   pass: the page-cache charge and its statistics, as page_fault2);
 *   shmem has no ->page_mkwrite; finish_fault() -> do_set_pte() ->
 *   page_add_file_rmap() [S NR_FILE_MAPPED +1]; fault_dirty_shared_page()
 *   -> folio_mark_dirty() -> shmem's noop_dirty_folio(): the dirty flag
 *   only, no NR_FILE_DIRTY and no memcg writeback accounting (shmem does
 *   no dirty accounting: its backing device has no BDI_CAP_WRITEBACK, so
 *   balance_dirty_pages_ratelimited() returns at once). munmap:
 *   zap_pte_range(): page_remove_rmap() -> page_remove_file_rmap() [S
 *   NR_FILE_MAPPED -1]; set_page_dirty() of a dirty PTE (noop again);
 *   mark_page_accessed() of a young one; the gathered pages go to
 *   release_pages(), which drops the mapping's reference only: the page
 *   cache still holds the page, so nothing leaves the LRU and
 *   mem_cgroup_uncharge_list() gets an empty list [no U].
 *
 * So in the steady state page_fault1 and page_fault2 charge one page per
 * fault and uncharge in mmu_gather batches; page_fault3 charges nothing
 * and counts NR_FILE_MAPPED +1 per fault and -1 per unmapped page. Each
 * task's first pass of page_fault2 and page_fault3 also charges the
 * page cache, one page per fault.
 *
 * Kernel versions: the charge and statistics calls above are the same at
 * v6.0, v6.6 and v6.8 (stats_version; the statistics code itself differs
 * in models/kernel/mm/memcontrol_stats.c). What differs is the fault's lock
 * in per_thread mode (models/kernel/mm/mmap_lock.h): v6.0 takes
 * mmap_read_lock() (an atomic on mm->mmap_lock.count down and up) per
 * fault; per-VMA locks (v6.4 on: lock_vma_under_rcu()) take the VMA's
 * own lock and only read mm->mm_lock_seq, which mmap_write_unlock()
 * writes, except where the fault retries under mmap_read_lock(): the
 * first fault of each round of page_fault1 and page_fault2 (the VMA's
 * anon_vma is made then) and, at v6.6 only, every fault of page_fault2
 * and page_fault3 (file-backed faults under the VMA lock came in v6.7).
 *
 * per_process and per_thread: the memcg calls are the same (every task
 * is in the workload's cgroup; get_mem_cgroup_from_mm() reads mm->owner,
 * a line nobody writes). What the model adds for per_thread is the one
 * mm's mmap_lock line, shared by every task: per fault as above, and per
 * mmap and munmap a down_write and up_write (v6.6/v6.8: and the
 * mm_lock_seq write). In per_process mode each task's mm is its own:
 * those accesses hit its cache and are part of work_ns.
 * SIM: the rwsem's exclusion (a writer waiting for the readers) is not
 * modelled, only its line; neither are mm->rss_stat (v6.0
 * SPLIT_RSS_COUNTING folds a task's counts every 64 faults; v6.2 on a
 * percpu_counter) nor the page-table locks (split per PTE page, and each
 * task maps its own range).
 *
 * An operation is a fault; throughput is faults per second.
 * LRU (kernel lru_lock, models/kernel/mm/swap.h): folio_add_lru() puts
 * each new anon folio (and page_fault2's page-cache folio) into the
 * CPU's batch of 15, moved onto the LRU under the lruvec lock with its
 * NR_INACTIVE_ANON update; munmap's unmap_region() drains the batch and
 * each gather batch's release_pages() takes the folios off the LRU under
 * the same lock, 32 per hold. With lru_lock: off a folio reaches the LRU
 * at once, without a lock (the model before issue 30).
 *
 * SIM: THP is off (every fault is one 4K page; shmem_enabled never); the
 * memcg of every task is the workload's cgroup; page-table
 * pages (__GFP_ACCOUNT, NR_PAGETABLE: one per 512 faults) are not
 * charged; the page_fault3 pages' LRU activation by mark_page_accessed()
 * on the second unmap (NR_INACTIVE_ANON -1, NR_ACTIVE_ANON +1,
 * PGACTIVATE, once per page) is not modelled.
 */
#include <stdio.h>
#include <stdlib.h>

#include "models/kernel/mm/memcontrol.h"
#include "models/kernel/mm/mmap_lock.h"
#include "models/kernel/mm/shmem.h"
#include "models/kernel/mm/swap.h"
#include "models/workloads/workload.h"
#include "sim/co.h"
#include "sim/error.h"
#include "sim/util.h"

#define MMU_GATHER_BUNDLE 8
#define MAX_GATHER_BATCH 510 /* (4096 - 16) / 8 */
#define MAX_GATHER_BATCH_COUNT 19 /* 10000 / 510 */

enum pf_test { PAGE_FAULT1, PAGE_FAULT2, PAGE_FAULT3 };
static const char *const test_names[] = { "page_fault1", "page_fault2",
					  "page_fault3" };
enum pf_mode { PER_PROCESS, PER_THREAD };
static const char *const mode_names[] = { "per_process", "per_thread" };

struct page_fault {
	uint64_t pages;
	sim_time_t work_ps;
	unsigned int test; /* enum pf_test */
	unsigned int mode; /* enum pf_mode */
	struct run *run;
	struct mem_cgroup *memcg;
	struct mm_struct mm; /* per_thread: the one mm; else private */
};

static const struct scenario_key page_fault_keys[] = {
	{
		.name = "pages",
		.type = SCENARIO_KEY_U64,
		SCENARIO_KEY_MEMBER(struct page_fault, pages),
		.min = 1,
		.max = 1 << 24,
		.def = 32768, /* page_fault1: MEMSIZE 128 MB */
		.doc = "The pages each task maps, touches and unmaps per round",
	},
	{
		.name = "work_ns",
		.type = SCENARIO_KEY_TIME,
		.required = true,
		SCENARIO_KEY_MEMBER(struct page_fault, work_ps),
		.unit_ps = SIM_PS_PER_NS,
		.min = SIM_PS_PER_NS,
		.max = SIM_PS_PER_MS,
		.doc = "The fault's work outside the memcg code (the fault, zeroing the page, the PTE)",
	},
	{
		.name = "test",
		.type = SCENARIO_KEY_ENUM,
		SCENARIO_KEY_MEMBER(struct page_fault, test),
		SCENARIO_KEY_NAMES(test_names),
		.def = PAGE_FAULT1,
		.doc = "page_fault1 (private anonymous), page_fault2 (private mapping of a tmpfs file: copy-on-write anon charges, the page cache charged on the first pass) or page_fault3 (shared mapping of a tmpfs file: NR_FILE_MAPPED per fault, the page cache charged on the first pass)",
	},
	{
		.name = "mode",
		.type = SCENARIO_KEY_ENUM,
		SCENARIO_KEY_MEMBER(struct page_fault, mode),
		SCENARIO_KEY_NAMES(mode_names),
		.def = PER_PROCESS,
		.doc = "per_process (an mm per task) or per_thread (one mm: its mmap_lock line is shared by every task)",
	},
};

static int page_fault_parse(struct workload *w, const struct scenario_node *n,
			    const struct machine *m, struct sim_error *err)
{
	struct page_fault *pf = calloc(1, sizeof(*pf));

	(void)m;
	SIM_OOM_ON(!pf);
	w->priv = pf;
	return scenario_keys_load(n, page_fault_keys,
				  ARRAY_SIZE(page_fault_keys), pf, w, err);
}

/*
 * The size of the next release_pages() batch when @left pages remain to
 * unmap; *@slot is the batch's place in the gather (0: the embedded one),
 * which starts over after a forced flush.
 */
static unsigned int gather_next(uint64_t left, unsigned int *slot)
{
	unsigned int size;

	if (*slot > MAX_GATHER_BATCH_COUNT)
		*slot = 0;
	size = *slot == 0 ? MMU_GATHER_BUNDLE : MAX_GATHER_BATCH;
	(*slot)++;
	return left < size ? (unsigned int)left : size;
}

struct page_fault_frame {
	struct co_frame co;
	struct sim_task *t;
	uint64_t i;
	uint64_t cached; /* page_fault2/3: the file's pages in the cache */
	unsigned int slot, batch, k;
};

/*
 * One fault of page i (@f->i), after the fault's own work: the memcg
 * calls of the test's fault path (the header's table).
 */
static int page_fault_memcg(struct sim_proc *p, void *frame)
{
	struct page_fault_frame *f = frame;
	struct sim_task *t = f->t;
	struct page_fault *pf = t->w->priv;

	CO_BEGIN(f);
	/* handle_mm_fault(): count_memcg_event_mm(PGFAULT) */
	CO_CALL(f, p, count_memcg_events, .memcg = pf->memcg,
		.idx = SIM_PGFAULT, .count = 1);
	/* do_anonymous_page() or do_cow_fault(): the anon page's charge */
	if (pf->test != PAGE_FAULT3)
		CO_CALL(f, p, charge_memcg, .memcg = pf->memcg, .nr_pages = 1,
			.gfp = GFP_KERNEL);
	/* __do_fault() -> shmem_fault() */
	if (pf->test != PAGE_FAULT1)
		CO_CALL(f, p, shmem_get_folio_gfp, .memcg = pf->memcg,
			.cached = f->i < f->cached);
	if (pf->test == PAGE_FAULT3) {
		/* do_set_pte() -> page_add_file_rmap() */
		CO_CALL(f, p, mod_lruvec_state, .memcg = pf->memcg,
			.idx = SIM_NR_FILE_MAPPED, .val = 1);
		CO_RETURN(f, p, 0);
	}
	/*
	 * page_add_new_anon_rmap(): NR_ANON_MAPPED; and the LRU size when
	 * the page reaches the inactive anon LRU (folio_add_lru()), each a
	 * __mod_lruvec_state() -> memcg_rstat_updated().
	 */
	CO_CALL(f, p, mod_lruvec_state, .memcg = pf->memcg,
		.idx = SIM_NR_ANON_MAPPED, .val = 1);
	CO_CALL(f, p, folio_add_lru, .memcg = pf->memcg);
	CO_END(f, p);
}

/*
 * munmap() of @f->i pages: zap_pte_range() removes each page's rmap; for
 * anon pages release_pages() takes each off the LRU, both per page, then
 * uncharge_batch() for the batch; page_fault3's pages stay in the cache.
 */
static int page_fault_unmap(struct sim_proc *p, void *frame)
{
	struct page_fault_frame *f = frame;
	struct sim_task *t = f->t;
	struct page_fault *pf = t->w->priv;

	CO_BEGIN(f);
	/* unmap_region(): lru_add_drain() first, whatever the mapping */
	if (pf->run->memcg->lru)
		CO_CALL(f, p, lru_add_drain);
	if (pf->test == PAGE_FAULT3) {
		for (; f->i; f->i--)
			CO_CALL(f, p, mod_lruvec_state, .memcg = pf->memcg,
				.idx = SIM_NR_FILE_MAPPED, .val = -1);
		CO_RETURN(f, p, 0);
	}
	if (pf->run->memcg->lru) {
		/*
		 * per gather batch zap_pte_range()'s page_remove_rmap() of
		 * each page, and tlb_flush_mmu() ->
		 * free_pages_and_swap_cache(): lru_add_drain() (empty by
		 * then) and release_pages()
		 */
		for (f->slot = 0; f->i;) {
			f->batch = gather_next(f->i, &f->slot);
			f->i -= f->batch;
			for (f->k = 0; f->k < f->batch; f->k++)
				CO_CALL(f, p, mod_lruvec_state,
					.memcg = pf->memcg,
					.idx = SIM_NR_ANON_MAPPED, .val = -1);
			CO_CALL(f, p, release_pages, .memcg = pf->memcg,
				.nr = f->batch);
		}
		CO_RETURN(f, p, 0);
	}
	/* SIM: lru_lock off: both statistics per page, no lock */
	for (f->slot = 0; f->i;) {
		f->batch = gather_next(f->i, &f->slot);
		f->i -= f->batch;
		for (f->k = 0; f->k < 2 * f->batch; f->k++)
			CO_CALL(f, p, mod_lruvec_state, .memcg = pf->memcg,
				.idx = f->k % 2 ? SIM_NR_INACTIVE_ANON :
						  SIM_NR_ANON_MAPPED,
				.val = -1);
		/* single-page folios: pgpgout is nr_memory */
		CO_CALL(f, p, uncharge_batch,
			.ug = { .memcg = pf->memcg,
				.nr_memory = f->batch,
				.pgpgout = f->batch });
	}
	CO_END(f, p);
}

/*
 * Whether fault @f->i finishes under the VMA lock (v6.6 on): the first
 * fault of a round makes the VMA's anon_vma (not page_fault3's, which
 * maps cache pages); v6.6 retries every file-backed fault.
 */
static bool fault_vma_locked(const struct page_fault_frame *f)
{
	const struct page_fault *pf = f->t->w->priv;

	return mm_fault_vma_locked(pf->run->kernel, pf->test != PAGE_FAULT1,
				   pf->test != PAGE_FAULT3 && f->i == 0);
}

static int page_fault_loop(struct sim_proc *p, void *frame)
{
	struct page_fault_frame *f = frame;
	struct sim_task *t = f->t;
	struct page_fault *pf = t->w->priv;
	const struct kernel_config *k = pf->run->kernel;

	CO_BEGIN(f);
	while (task_running(t, pf->run)) {
		/* mmap() */
		CO_CALL(f, p, mmap_write_lock, .mm = &pf->mm, .k = k);
		CO_CALL(f, p, mmap_write_unlock, .mm = &pf->mm, .k = k);
		for (f->i = 0; f->i < pf->pages && task_running(t, pf->run);
		     f->i++) {
			CO_AWAIT(f, sim_proc_sync(p));
			task_op_begin(t);
			KPROF_ENTER(&t->prof, KF_WORK, t->proc.now);
			coh_delay(t->k.cc, pf->work_ps);
			KPROF_EXIT(&t->prof, t->proc.now);
			CO_CALL(f, p, fault_lock, .mm = &pf->mm, .k = k,
				.vma_locked = fault_vma_locked(f));
			CO_CALL_INDIRECT(f, p, page_fault_memcg,
					 struct page_fault_frame, .t = t,
					 .i = f->i, .cached = f->cached);
			CO_CALL(f, p, fault_unlock, .mm = &pf->mm, .k = k,
				.vma_locked = fault_vma_locked(f));
			task_op_end(t, pf->run);
		}
		if (f->i > f->cached)
			f->cached = f->i;
		/* munmap() */
		CO_CALL(f, p, mmap_write_lock, .mm = &pf->mm, .k = k);
		CO_CALL_INDIRECT(f, p, page_fault_unmap,
				 struct page_fault_frame, .t = t, .i = f->i);
		CO_CALL(f, p, mmap_write_unlock, .mm = &pf->mm, .k = k);
	}
	CO_END(f, p);
}

static void page_fault_setup(struct workload *w, struct run *run)
{
	struct page_fault *pf = w->priv;
	unsigned int i;

	pf->run = run;
	pf->memcg = memcg_sim_find(run->memcg, w->cgroup);
	SIM_BUG_ON(!pf->memcg);
	mm_struct_init(&pf->mm, pf->mode == PER_THREAD ? run->coh : NULL,
		       "mm(page_fault)");
	if (pf->test != PAGE_FAULT1) {
		memcg_sim_model_stat(run->memcg, SIM_NR_FILE_PAGES);
		memcg_sim_model_stat(run->memcg, SIM_NR_SHMEM);
	}
	if (pf->test == PAGE_FAULT3)
		memcg_sim_model_stat(run->memcg, SIM_NR_FILE_MAPPED);
	for (i = 0; i < w->nr_tasks; i++) {
		struct page_fault_frame *f;

		f = co_push(&w->tasks[i].proc, page_fault_loop, sizeof(*f));
		f->t = &w->tasks[i];
	}
}

static void page_fault_destroy(struct workload *w)
{
	free(w->priv);
	w->priv = NULL;
}

/* host-run's program: will-it-scale's own loop, per process or thread. */
static int page_fault_host(const struct workload *w, struct workload_host *h)
{
	const struct page_fault *pf = w->priv;

	h->kind = WH_PAGE_FAULT;
	h->pages = pf->pages;
	h->test = pf->test + 1;
	h->threads = pf->mode == PER_THREAD;
	return 0;
}

/*
 * per_thread: a fault not finished under its VMA's lock takes the shared
 * mmap_lock for read: an atomic down and one up (mmap_read_lock()).
 */
static double page_fault_shared_rmws(const struct workload *w,
				     const struct kernel_config *k)
{
	const struct page_fault *pf = w->priv;

	if (pf->mode != PER_THREAD ||
	    mm_fault_vma_locked(k, pf->test != PAGE_FAULT1, false))
		return 0;
	return 2;
}

const struct workload_type page_fault_type = {
	.name = "page_fault",
	.summary =
		"will-it-scale page_fault1/2/3: fault in, charge, unmap, uncharge in batches",
	.keys = page_fault_keys,
	.nr_keys = ARRAY_SIZE(page_fault_keys),
	.unit = "faults/s",
	.memcg = true,
	.parse = page_fault_parse,
	.setup = page_fault_setup,
	.destroy = page_fault_destroy,
	.host = page_fault_host,
	.op_shared_rmws = page_fault_shared_rmws,
};
