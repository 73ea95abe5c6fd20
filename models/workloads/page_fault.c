// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/workloads/page_fault.c - the page_fault workload: will-it-scale
 * page_fault1 (each task maps `pages` of private anonymous memory,
 * touches every page, unmaps, repeats).
 *
 * Theory of operation (Linux v6.0; doc/socket-accounting.md section 3):
 *
 *   per fault, on the faulting CPU: `work_ns` of non-memcg work (the
 *   fault, zeroing the page, the PTE), then do_anonymous_page() ->
 *   mem_cgroup_charge() -> charge_memcg(): try_charge() of one page
 *   (from the per-CPU stock; a page_counter_try_charge() of
 *   charge_batch pages every charge_batch faults), commit_charge() and
 *   the charge statistics, then NR_ANON_MAPPED (the rmap) and the LRU
 *   size: three statistics updates, each counted towards the flush
 *   threshold (memcg_rstat_updated()).
 *
 *   per unmap, on the same CPU: zap_pte_range() gathers the pages in an
 *   mmu_gather (8 in the embedded batch, then batches of
 *   MAX_GATHER_BATCH = 510, at most 19 of them, before a forced flush);
 *   each flushed batch is one release_pages() -> uncharge_batch(): one
 *   page_counter_uncharge() of the whole batch, no stock. Removing the
 *   rmap and taking the page off the LRU are two statistics updates per
 *   page.
 *
 * An operation is a fault; throughput is faults per second.
 * SIM: THP is off (every fault is one 4K page); the memcg of every task
 * is the workload's cgroup.
 */
#include <stdlib.h>

#include "models/kernel/memcontrol.h"
#include "models/workloads/workload.h"
#include "sim/co.h"
#include "sim/error.h"
#include "sim/util.h"

#define MMU_GATHER_BUNDLE 8
#define MAX_GATHER_BATCH 510 /* (4096 - 16) / 8 */
#define MAX_GATHER_BATCH_COUNT 19 /* 10000 / 510 */

struct page_fault {
	uint64_t pages;
	sim_time_t work_ps;
	struct run *run;
	struct mem_cgroup *memcg;
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
	unsigned int slot, batch, k;
};

static int page_fault_loop(struct sim_proc *p, void *frame)
{
	struct page_fault_frame *f = frame;
	struct sim_task *t = f->t;
	struct page_fault *pf = t->w->priv;
	struct memcg_sim *ms = pf->run->memcg;

	CO_BEGIN(f);
	while (task_running(t, pf->run)) {
		for (f->i = 0; f->i < pf->pages && task_running(t, pf->run);
		     f->i++) {
			CO_AWAIT(f, sim_proc_sync(p));
			task_op_begin(t);
			KPROF_ENTER(&t->prof, KF_WORK, t->proc.now);
			coh_delay(t->cc, pf->work_ps);
			KPROF_EXIT(&t->prof, t->proc.now);
			/* handle_mm_fault(): count_memcg_event_mm(PGFAULT) */
			CO_CALL(f, p, count_memcg_events, .ms = ms, .cc = t->cc,
				.memcg = pf->memcg, .idx = SIM_PGFAULT,
				.count = 1);
			CO_CALL(f, p, charge_memcg, .ms = ms, .cc = t->cc,
				.memcg = pf->memcg, .nr_pages = 1,
				.gfp = GFP_KERNEL);
			/*
			 * page_add_new_anon_rmap(): NR_ANON_MAPPED; and the LRU
			 * size when the page reaches the inactive anon LRU
			 * (folio_add_lru()), each a __mod_lruvec_state() ->
			 * memcg_rstat_updated().
			 */
			CO_CALL(f, p, mod_lruvec_state, .ms = ms, .cc = t->cc,
				.memcg = pf->memcg, .idx = SIM_NR_ANON_MAPPED,
				.val = 1);
			CO_CALL(f, p, mod_lruvec_state, .ms = ms, .cc = t->cc,
				.memcg = pf->memcg, .idx = SIM_NR_INACTIVE_ANON,
				.val = 1);
			task_op_end(t, pf->run);
		}
		/*
		 * munmap(): zap_pte_range() removes each page's rmap
		 * (NR_ANON_MAPPED), release_pages() takes each off the LRU,
		 * both per page; then uncharge_batch() for the batch.
		 */
		for (f->slot = 0; f->i;) {
			f->batch = gather_next(f->i, &f->slot);
			f->i -= f->batch;
			for (f->k = 0; f->k < 2 * f->batch; f->k++)
				CO_CALL(f, p, mod_lruvec_state, .ms = ms,
					.cc = t->cc, .memcg = pf->memcg,
					.idx = f->k % 2 ? SIM_NR_INACTIVE_ANON :
							  SIM_NR_ANON_MAPPED,
					.val = -1);
			/* single-page folios: pgpgout is nr_memory */
			CO_CALL(f, p, uncharge_batch, .ms = ms, .cc = t->cc,
				.ug = { .memcg = pf->memcg,
					.nr_memory = f->batch,
					.pgpgout = f->batch });
		}
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

const struct workload_type page_fault_type = {
	.name = "page_fault",
	.summary =
		"will-it-scale page_fault1: fault in, charge, unmap, uncharge in batches",
	.keys = page_fault_keys,
	.nr_keys = ARRAY_SIZE(page_fault_keys),
	.unit = "faults/s",
	.memcg = true,
	.parse = page_fault_parse,
	.setup = page_fault_setup,
	.destroy = page_fault_destroy,
};
