// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/workloads/fallocate.c - the fallocate workload: will-it-scale
 * fallocate1. Each task has an unlinked tmpfs file; it fallocate()s the
 * next `len_pages` (BUFLEN = 8 KB: 2 pages) of it, and when the file has
 * reached `file_pages` (FILESIZE = 1 MB: 256 pages) it ftruncate()s it to
 * 0; an operation is one fallocate() (with the truncation, every 128th).
 *
 * Source note: no v6.0 tree was at hand; the paths are the v6.0 code as
 * recalled (doc/socket-accounting.md section 3.1 says the same), and
 * should be checked against the tag before numbers are frozen.
 *
 * Derived from will-it-scale tests/fallocate1.c (commit 9c374d39a398:
 * /dev/shm) and Linux v6.0 mm/shmem.c, mm/filemap.c, mm/swap.c and
 * mm/memcontrol.c; models/kernel/mm/shmem.h has the kernel paths. With what
 * each charges (C), uncharges (U) and counts (S):
 *
 *   fallocate(fd, 0, place, 8K) -> shmem_fallocate(): per page,
 *     shmem_get_folio(SGP_FALLOC) on a hole -> shmem_add_to_page_cache():
 *     mem_cgroup_charge() [C 1 page; S PGPGIN], NR_FILE_PAGES +1,
 *     NR_SHMEM +1 [S, S]; folio_add_lru() [S NR_INACTIVE_ANON +1];
 *     folio_mark_dirty(): shmem's noop_dirty_folio(), no dirty
 *     accounting. (The charge goes to current's memcg: no vma, so
 *     charge_mm is NULL.)
 *   ftruncate(fd, 0) -> shmem_setattr() -> shmem_truncate_range() ->
 *     shmem_undo_range(): per folio_batch of 15: per page
 *     filemap_unaccount_folio() [S NR_FILE_PAGES -1, S NR_SHMEM -1], then
 *     release_pages(): per page [S NR_INACTIVE_ANON -1], one
 *     uncharge_batch() of the batch [U up to 15 pages; S PGPGOUT]. 256
 *     pages: 17 batches of 15 and one of 1.
 *
 * Per 128 operations: 256 charges, 1 truncation with 18 uncharges;
 * 5 x 256 page statistics updates plus the PGPGIN/PGPGOUT events.
 *
 * Kernel versions: the same calls at v6.0, v6.6 and v6.8 (v6.7 moves the
 * charge into shmem_alloc_and_add_folio(), same count and order).
 * per_process and per_thread: will-it-scale's two modes differ here in
 * the file table and the inode locks only (each task has its own file,
 * so its own inode lock); nothing the model has differs, so this
 * workload has no mode key.
 *
 * SIM: the fallocate's and the truncation's work outside the memcg code
 * (shmem's block accounting, the xarray, the inode lock) is `work_ns`
 * per fallocate() and `truncate_ns` per page truncated; THP is off; a
 * folio reaches the LRU at once (models/kernel/mm/shmem.h).
 */
#include <stdlib.h>

#include "models/kernel/mm/memcontrol.h"
#include "models/kernel/mm/shmem.h"
#include "models/workloads/workload.h"
#include "sim/co.h"
#include "sim/error.h"
#include "sim/util.h"

struct fallocate {
	uint64_t file_pages; /* FILESIZE */
	uint64_t len_pages; /* BUFLEN */
	sim_time_t work_ps, truncate_ps;
	struct run *run;
	struct mem_cgroup *memcg;
};

static const struct scenario_key fallocate_keys[] = {
	{
		.name = "file_pages",
		.type = SCENARIO_KEY_U64,
		SCENARIO_KEY_MEMBER(struct fallocate, file_pages),
		.min = 1,
		.max = 1 << 24,
		.def = 256, /* FILESIZE 1 MB */
		.doc = "The file's size in pages when it is truncated to 0",
	},
	{
		.name = "len_pages",
		.type = SCENARIO_KEY_U64,
		SCENARIO_KEY_MEMBER(struct fallocate, len_pages),
		.min = 1,
		.max = 1 << 24,
		.def = 2, /* BUFLEN = FILESIZE / 128 = 8 KB */
		.doc = "The pages one fallocate() allocates",
	},
	{
		.name = "work_ns",
		.type = SCENARIO_KEY_TIME,
		.required = true,
		SCENARIO_KEY_MEMBER(struct fallocate, work_ps),
		.unit_ps = SIM_PS_PER_NS,
		.min = SIM_PS_PER_NS,
		.max = SIM_PS_PER_MS,
		.doc = "A fallocate()'s work outside the memcg code (the system call, shmem's accounting, the page allocations, the xarray)",
	},
	{
		.name = "truncate_ns",
		.type = SCENARIO_KEY_TIME,
		.required = true,
		SCENARIO_KEY_MEMBER(struct fallocate, truncate_ps),
		.unit_ps = SIM_PS_PER_NS,
		.min = SIM_PS_PER_NS,
		.max = SIM_PS_PER_MS,
		.doc = "The truncation's work per page outside the memcg code (the xarray, freeing the page)",
	},
};

static int fallocate_parse(struct workload *w, const struct scenario_node *n,
			   const struct machine *m, struct sim_error *err)
{
	struct fallocate *fa = calloc(1, sizeof(*fa));

	(void)m;
	SIM_OOM_ON(!fa);
	w->priv = fa;
	return scenario_keys_load(n, fallocate_keys, ARRAY_SIZE(fallocate_keys),
				  fa, w, err);
}

struct fallocate_frame {
	struct co_frame co;
	struct sim_task *t;
	uint64_t place; /* pages allocated in the file */
	uint64_t k;
};

static int fallocate_loop(struct sim_proc *p, void *frame)
{
	struct fallocate_frame *f = frame;
	struct sim_task *t = f->t;
	struct fallocate *fa = t->w->priv;

	CO_BEGIN(f);
	while (task_running(t, fa->run)) {
		CO_AWAIT(f, sim_proc_sync(p));
		task_op_begin(t);
		KPROF_ENTER(&t->prof, KF_WORK, t->proc.now);
		coh_delay(t->k.cc, fa->work_ps);
		KPROF_EXIT(&t->prof, t->proc.now);
		/* shmem_fallocate(): every page of the range is a hole */
		for (f->k = 0; f->k < fa->len_pages; f->k++)
			CO_CALL(f, p, shmem_get_folio_gfp, .memcg = fa->memcg,
				.cached = false);
		f->place += fa->len_pages;
		if (f->place >= fa->file_pages) {
			/* ftruncate(fd, 0) */
			KPROF_ENTER(&t->prof, KF_WORK, t->proc.now);
			coh_delay(t->k.cc, fa->truncate_ps * f->place);
			KPROF_EXIT(&t->prof, t->proc.now);
			CO_CALL(f, p, shmem_undo_range, .memcg = fa->memcg,
				.nr_pages = f->place);
			f->place = 0;
		}
		task_op_end(t, fa->run);
	}
	CO_END(f, p);
}

static void fallocate_setup(struct workload *w, struct run *run)
{
	struct fallocate *fa = w->priv;
	unsigned int i;

	fa->run = run;
	fa->memcg = memcg_sim_find(run->memcg, w->cgroup);
	SIM_BUG_ON(!fa->memcg);
	memcg_sim_model_stat(run->memcg, SIM_NR_FILE_PAGES);
	memcg_sim_model_stat(run->memcg, SIM_NR_SHMEM);
	for (i = 0; i < w->nr_tasks; i++) {
		struct fallocate_frame *f;

		f = co_push(&w->tasks[i].proc, fallocate_loop, sizeof(*f));
		f->t = &w->tasks[i];
	}
}

static void fallocate_destroy(struct workload *w)
{
	free(w->priv);
	w->priv = NULL;
}

/* host-run's program: will-it-scale fallocate1 on a memfd (shmem). */
static int fallocate_host(const struct workload *w, struct workload_host *h)
{
	const struct fallocate *fa = w->priv;

	h->kind = WH_FALLOCATE;
	h->pages = fa->file_pages;
	h->len_pages = fa->len_pages;
	return 0;
}

const struct workload_type fallocate_type = {
	.name = "fallocate",
	.summary =
		"will-it-scale fallocate1: tmpfs page-cache charges, truncation's batched uncharges",
	.keys = fallocate_keys,
	.nr_keys = ARRAY_SIZE(fallocate_keys),
	.unit = "fallocates/s",
	.memcg = true,
	.parse = fallocate_parse,
	.setup = fallocate_setup,
	.destroy = fallocate_destroy,
	.host = fallocate_host,
};
