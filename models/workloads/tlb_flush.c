// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/workloads/tlb_flush.c - the tlb_flush workload: will-it-scale
 * tlb_flush2. Each task maps `pages` (MEMORYSIZE = 1 MB: 256) of
 * private anonymous memory and, page by page, writes it,
 * madvise(MADV_DONTNEED)s it and reads it back (the assert); then unmaps
 * and maps again. An operation is one page's write, madvise and read.
 *
 * Source note: no v6.0 tree was at hand; the paths are the v6.0 code as
 * recalled (doc/socket-accounting.md section 3.1 says the same), and
 * should be checked against the tag before numbers are frozen.
 *
 * Derived from will-it-scale tests/tlb_flush2.c (commit d3c4aa244cfd)
 * and Linux v6.0 mm/memory.c, mm/madvise.c, mm/mmu_gather.c, mm/swap.c
 * and mm/memcontrol.c. Per operation, with what each charges (C),
 * uncharges (U) and counts (S):
 *
 *   write: handle_mm_fault(): count_memcg_event_mm(PGFAULT) [S];
 *     do_anonymous_page(): mem_cgroup_charge() -> charge_memcg() [C 1
 *     page, from the stock; S PGPGIN]; page_add_new_anon_rmap() [S
 *     NR_ANON_MAPPED +1]; the LRU [S NR_INACTIVE_ANON +1].
 *   madvise(addr, 4096, MADV_DONTNEED) -> madvise_dontneed_free() ->
 *     madvise_dontneed_single_vma() -> zap_page_range() (v6.6 on
 *     zap_page_range_single()): lru_add_drain(); tlb_gather_mmu();
 *     zap_pte_range(): page_remove_rmap() [S NR_ANON_MAPPED -1], the page
 *     into the gather; tlb_finish_mmu() -> tlb_flush_mmu(): the TLB
 *     flush, then free_pages_and_swap_cache() -> release_pages() of a
 *     batch of ONE page: lruvec_del_folio() [S NR_INACTIVE_ANON -1],
 *     mem_cgroup_uncharge_list() -> uncharge_batch() [U 1 page, straight
 *     from the page counters, no stock; S PGPGOUT].
 *   read: handle_mm_fault() [S PGFAULT]; do_anonymous_page() maps the
 *     zero page: no charge, no rmap statistics.
 *   every `pages` operations: munmap() of zero-page PTEs (no memcg work)
 *     and mmap().
 *
 * So where page_fault1 uncharges in batches of up to 510 pages,
 * tlb_flush2 makes one uncharge_batch() -> page_counter_uncharge() up
 * the hierarchy per page: the charge comes from the per-CPU stock, the
 * uncharge goes to the shared page counters every time.
 *
 * Kernel versions: the same calls at v6.0, v6.6 and v6.8. The lock a
 * fault takes differs (models/kernel/mm/mmap_lock.h): v6.0 mmap_read_lock(),
 * v6.4 on the VMA's lock (but for the first write fault after each
 * mmap(), which makes the VMA's anon_vma under mmap_read_lock());
 * madvise(MADV_DONTNEED) takes mmap_read_lock() at all three.
 *
 * per_process and per_thread (`mode`): the memcg calls are the same. In
 * per_thread mode the tasks share one mm, whose mmap_lock line the model
 * shares (two faults and a madvise per operation). SIM: not modelled:
 * the TLB shootdown IPIs that per_thread's madvise sends to every other
 * CPU running the mm (flush_tlb_mm_range(), what tlb_flush2 measures
 * besides the memcg), mm->rss_stat, and the page-table page
 * (__GFP_ACCOUNT, NR_PAGETABLE) charged per mmap and freed per munmap.
 * A folio reaches the LRU at the fault (in the kernel at the madvise's
 * lru_add_drain(): the same two updates).
 */
#include <stdlib.h>

#include "models/kernel/mm/memcontrol.h"
#include "models/kernel/mm/mmap_lock.h"
#include "models/kernel/mm/swap.h"
#include "models/workloads/workload.h"
#include "sim/co.h"
#include "sim/error.h"
#include "sim/util.h"

enum tlb_mode { PER_PROCESS, PER_THREAD };
static const char *const mode_names[] = { "per_process", "per_thread" };

struct tlb_flush {
	uint64_t pages;
	sim_time_t work_ps;
	unsigned int mode; /* enum tlb_mode */
	struct run *run;
	struct mem_cgroup *memcg;
	struct mm_struct mm; /* per_thread: the one mm; else private */
};

static const struct scenario_key tlb_flush_keys[] = {
	{
		.name = "pages",
		.type = SCENARIO_KEY_U64,
		SCENARIO_KEY_MEMBER(struct tlb_flush, pages),
		.min = 1,
		.max = 1 << 24,
		.def = 256, /* MEMORYSIZE 1 MB */
		.doc = "The pages each task maps and goes through before it unmaps and maps again",
	},
	{
		.name = "work_ns",
		.type = SCENARIO_KEY_TIME,
		.required = true,
		SCENARIO_KEY_MEMBER(struct tlb_flush, work_ps),
		.unit_ps = SIM_PS_PER_NS,
		.min = SIM_PS_PER_NS,
		.max = SIM_PS_PER_MS,
		.doc = "An operation's work outside the memcg code (two faults, zeroing the page, the madvise, the local TLB flush, freeing the page)",
	},
	{
		.name = "mode",
		.type = SCENARIO_KEY_ENUM,
		SCENARIO_KEY_MEMBER(struct tlb_flush, mode),
		SCENARIO_KEY_NAMES(mode_names),
		.def = PER_PROCESS,
		.doc = "per_process (an mm per task) or per_thread (one mm: its mmap_lock line is shared by every task; the TLB shootdown IPIs are not modelled)",
	},
};

static int tlb_flush_parse(struct workload *w, const struct scenario_node *n,
			   const struct machine *m, struct sim_error *err)
{
	struct tlb_flush *tf = calloc(1, sizeof(*tf));

	(void)m;
	SIM_OOM_ON(!tf);
	w->priv = tf;
	return scenario_keys_load(n, tlb_flush_keys, ARRAY_SIZE(tlb_flush_keys),
				  tf, w, err);
}

struct tlb_flush_frame {
	struct co_frame co;
	struct sim_task *t;
	uint64_t i;
};

/* One page: the write fault, the madvise(MADV_DONTNEED), the read fault. */
static int tlb_flush_page(struct sim_proc *p, void *frame)
{
	struct tlb_flush_frame *f = frame;
	struct sim_task *t = f->t;
	struct tlb_flush *tf = t->w->priv;
	const struct kernel_config *k = tf->run->kernel;

	CO_BEGIN(f);
	/* the write fault: do_anonymous_page(); the first makes anon_vma */
	CO_CALL(f, p, fault_lock, .mm = &tf->mm, .k = k,
		.vma_locked = mm_fault_vma_locked(k, false, f->i == 0));
	CO_CALL(f, p, count_memcg_events, .memcg = tf->memcg,
		.idx = SIM_PGFAULT, .count = 1);
	CO_CALL(f, p, charge_memcg, .memcg = tf->memcg, .nr_pages = 1,
		.gfp = GFP_KERNEL);
	CO_CALL(f, p, mod_lruvec_state, .memcg = tf->memcg,
		.idx = SIM_NR_ANON_MAPPED, .val = 1);
	CO_CALL(f, p, folio_add_lru, .memcg = tf->memcg);
	CO_CALL(f, p, fault_unlock, .mm = &tf->mm, .k = k,
		.vma_locked = mm_fault_vma_locked(k, false, f->i == 0));
	/* madvise(MADV_DONTNEED) of the page: zap, flush, release */
	CO_CALL(f, p, mmap_read_lock, .mm = &tf->mm, .k = k);
	if (tf->run->memcg->lru) {
		/*
		 * zap_page_range(): lru_add_drain() (the fault's folio: the
		 * LRU lock), zap: page_remove_rmap(); tlb_finish_mmu() ->
		 * free_pages_and_swap_cache() -> release_pages() (the lock
		 * again) and the uncharge
		 */
		CO_CALL(f, p, lru_add_drain);
		CO_CALL(f, p, mod_lruvec_state, .memcg = tf->memcg,
			.idx = SIM_NR_ANON_MAPPED, .val = -1);
		CO_CALL(f, p, release_pages, .memcg = tf->memcg, .nr = 1);
	} else {
		CO_CALL(f, p, mod_lruvec_state, .memcg = tf->memcg,
			.idx = SIM_NR_ANON_MAPPED, .val = -1);
		CO_CALL(f, p, mod_lruvec_state, .memcg = tf->memcg,
			.idx = SIM_NR_INACTIVE_ANON, .val = -1);
		CO_CALL(f, p, uncharge_batch,
			.ug = { .memcg = tf->memcg,
				.nr_memory = 1,
				.pgpgout = 1 });
	}
	CO_CALL(f, p, mmap_read_unlock, .mm = &tf->mm, .k = k);
	/* the read fault: the zero page, no anon_vma needed */
	CO_CALL(f, p, fault_lock, .mm = &tf->mm, .k = k,
		.vma_locked = mm_fault_vma_locked(k, false, false));
	CO_CALL(f, p, count_memcg_events, .memcg = tf->memcg,
		.idx = SIM_PGFAULT, .count = 1);
	CO_CALL(f, p, fault_unlock, .mm = &tf->mm, .k = k,
		.vma_locked = mm_fault_vma_locked(k, false, false));
	CO_END(f, p);
}

static int tlb_flush_loop(struct sim_proc *p, void *frame)
{
	struct tlb_flush_frame *f = frame;
	struct sim_task *t = f->t;
	struct tlb_flush *tf = t->w->priv;
	const struct kernel_config *k = tf->run->kernel;

	CO_BEGIN(f);
	while (task_running(t, tf->run)) {
		/* mmap() */
		CO_CALL(f, p, mmap_write_lock, .mm = &tf->mm, .k = k);
		CO_CALL(f, p, mmap_write_unlock, .mm = &tf->mm, .k = k);
		for (f->i = 0; f->i < tf->pages && task_running(t, tf->run);
		     f->i++) {
			CO_AWAIT(f, sim_proc_sync(p));
			task_op_begin(t);
			KPROF_ENTER(&t->prof, KF_WORK, t->proc.now);
			coh_delay(t->k.cc, tf->work_ps);
			KPROF_EXIT(&t->prof, t->proc.now);
			CO_CALL_INDIRECT(f, p, tlb_flush_page,
					 struct tlb_flush_frame, .t = t,
					 .i = f->i);
			task_op_end(t, tf->run);
		}
		/* munmap(): only zero-page PTEs are left */
		CO_CALL(f, p, mmap_write_lock, .mm = &tf->mm, .k = k);
		CO_CALL(f, p, mmap_write_unlock, .mm = &tf->mm, .k = k);
	}
	CO_END(f, p);
}

static void tlb_flush_setup(struct workload *w, struct run *run)
{
	struct tlb_flush *tf = w->priv;
	unsigned int i;

	tf->run = run;
	tf->memcg = memcg_sim_find(run->memcg, w->cgroup);
	SIM_BUG_ON(!tf->memcg);
	mm_struct_init(&tf->mm, tf->mode == PER_THREAD ? run->coh : NULL,
		       "mm(tlb_flush)");
	for (i = 0; i < w->nr_tasks; i++) {
		struct tlb_flush_frame *f;

		f = co_push(&w->tasks[i].proc, tlb_flush_loop, sizeof(*f));
		f->t = &w->tasks[i];
	}
}

static void tlb_flush_destroy(struct workload *w)
{
	free(w->priv);
	w->priv = NULL;
}

/*
 * per_thread: each page's madvise() takes the shared mmap_lock for read
 * (two atomics), and so do its two faults unless they finish under the
 * VMA's lock (tlb_flush_page()).
 */
static double tlb_flush_shared_rmws(const struct workload *w,
				    const struct kernel_config *k)
{
	const struct tlb_flush *tf = w->priv;

	if (tf->mode != PER_THREAD)
		return 0;
	return mm_fault_vma_locked(k, false, false) ? 2 : 6;
}

const struct workload_type tlb_flush_type = {
	.name = "tlb_flush",
	.summary =
		"will-it-scale tlb_flush2: fault, madvise(MADV_DONTNEED), uncharge one page at a time",
	.keys = tlb_flush_keys,
	.nr_keys = ARRAY_SIZE(tlb_flush_keys),
	.unit = "pages/s",
	.memcg = true,
	.parse = tlb_flush_parse,
	.setup = tlb_flush_setup,
	.destroy = tlb_flush_destroy,
	.op_shared_rmws = tlb_flush_shared_rmws,
};
