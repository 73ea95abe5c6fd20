// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of mm/swap.c's LRU batches and LRU lock, with the list inlines of
 * include/linux/mm_inline.h and mem_cgroup_update_lru_size() of
 * mm/memcontrol.c (Linux v6.0 and v6.8). Theory of operation: see
 * models/kernel/mm/swap.h.
 *
 * The file follows mm/swap.c's order: lru_add_fn(), folio_batch_move_lru(),
 * folio_add_lru(), lru_add_drain(), release_pages(); the SIM-only setup
 * comes first.
 */
#include <stdio.h>
#include <stdlib.h>

#include "models/kernel/compat/access.h"
#include "models/kernel/mm/memcontrol_internal.h"
#include "models/kernel/mm/swap.h"
#include "models/kernel/sim/insn.h"
#include "models/kernel/sim/kprof.h"
#include "sim/error.h"

/* SIM: setup */

/*
 * struct lruvec (include/linux/mmzone.h): lists[NR_LRU_LISTS] (5 x 16
 * bytes), then lru_lock at 80: the lock is on line 1, the inactive anon
 * head on line 0.
 */
static const struct coh_layout_field lruvec_fields[] = {
	{ "lists[LRU_INACTIVE_ANON]", 0, 16 },
	{ "lru_lock", 80, 4 },
};

static const struct coh_layout lruvec_layout = {
	.name = "lruvec",
	.size = 128,
	.nr_fields = ARRAY_SIZE(lruvec_fields),
	.fields = lruvec_fields,
};

/* mem_cgroup_per_node.lru_zone_size[ZONE_NORMAL][LRU_INACTIVE_ANON] */
static const struct coh_layout_field lru_size_fields[] = {
	{ "lru_zone_size[ZONE_NORMAL][LRU_INACTIVE_ANON]", 0, 8 },
};

static const struct coh_layout lru_size_layout = {
	.name = "mem_cgroup_per_node",
	.size = 64,
	.nr_fields = ARRAY_SIZE(lru_size_fields),
	.fields = lru_size_fields,
};

/* struct page: flags at 0, lru at 8 */
static const struct coh_layout_field page_fields[] = {
	{ "lru", 8, 16 },
};

static const struct coh_layout page_layout = {
	.name = "page",
	.size = 64,
	.nr_fields = ARRAY_SIZE(page_fields),
	.fields = page_fields,
};

static void lruvec_init(struct lru_sim *lru, struct lruvec *lruvec,
			struct memcg_sim *ms, struct mem_cgroup *memcg,
			unsigned int node)
{
	char name[160];

	snprintf(name, sizeof(name), "lruvec(%s)@node%u",
		 lru->per_node ? "pgdat" : memcg->path, node);
	lruvec->obj = coh_object_create(ms->coh, name, &lruvec_layout, 0);
	lruvec->lists = coh_object_field(lruvec->obj, 0);
	qspinlock_init(&lruvec->lru_lock, coh_object_field(lruvec->obj, 1),
		       lru->nr_cpus);
	/* SIM: the node's own lruvec (per_node) has no memcg size counter */
	if (!lru->per_node) {
		snprintf(name, sizeof(name), "lru_zone_size(%s)@node%u",
			 memcg->path, node);
		lruvec->lru_zone_size = coh_object_field(
			coh_object_create(ms->coh, name, &lru_size_layout, 0),
			0);
	}
	lruvec->memcg = memcg;
	lruvec->first_cpu = -1;
	lruvec->below = malloc(lru->nr_cpus * sizeof(*lruvec->below));
	SIM_OOM_ON(!lruvec->below);
	for (unsigned int i = 0; i < lru->nr_cpus; i++)
		lruvec->below[i] = -1;
}

struct lru_sim *lru_sim_create(struct memcg_sim *ms)
{
	const struct kernel_config *k = ms->k;
	struct lru_sim *lru;
	unsigned int i, nr_memcgs;
	char name[32];

	if (k->lru_lock == LRU_LOCK_OFF)
		return NULL;
	lru = calloc(1, sizeof(*lru));
	SIM_OOM_ON(!lru);
	lru->nr_cpus = ms->nr_cpus;
	lru->nr_nodes = ms->nr_nodes;
	lru->batch = k->lru_add_batch;
	lru->per_node = k->lru_lock == LRU_LOCK_PER_NODE || k->memcg_disabled;
	nr_memcgs = lru->per_node ? 1 : ms->nr_memcgs;
	lru->nr_lruvecs = nr_memcgs * lru->nr_nodes;
	lru->lruvecs = calloc(lru->nr_lruvecs, sizeof(*lru->lruvecs));
	lru->fbatches = calloc(lru->nr_cpus, sizeof(*lru->fbatches));
	lru->folio_lines = calloc(lru->nr_cpus, sizeof(*lru->folio_lines));
	SIM_OOM_ON(!lru->lruvecs || !lru->fbatches || !lru->folio_lines);
	for (i = 0; i < lru->nr_lruvecs; i++)
		lruvec_init(lru, &lru->lruvecs[i], ms,
			    &ms->memcgs[i / lru->nr_nodes], i % lru->nr_nodes);
	for (i = 0; i < lru->nr_cpus; i++) {
		/*
		 * the struct pages of the folios this CPU adds: the memmap's,
		 * not per-CPU data (check_place reads "@cpu" as per-CPU)
		 */
		snprintf(name, sizeof(name), "folios(cpu%u)", i);
		lru->folio_lines[i] =
			coh_object_create(ms->coh, name, &page_layout, 0);
	}
	return lru;
}

void lru_sim_free(struct lru_sim *lru)
{
	unsigned int i;

	if (!lru)
		return;
	for (i = 0; i < lru->nr_lruvecs; i++) {
		qspinlock_destroy(&lru->lruvecs[i].lru_lock);
		free(lru->lruvecs[i].below);
	}
	free(lru->lruvecs);
	free(lru->fbatches);
	free(lru->folio_lines);
	free(lru);
}

struct lruvec *lru_sim_lruvec(struct memcg_sim *ms, struct mem_cgroup *memcg,
			      unsigned int cpu)
{
	struct lru_sim *lru = ms->lru;
	unsigned int id = lru->per_node ? 0 : memcg->id;

	return &lru->lruvecs[id * lru->nr_nodes + cpu_node(ms, cpu)];
}

/* The list_head of a folio added on @cpu; @cpu -1: the list head itself. */
static struct coh_field *folio_lru(struct lru_sim *lru, struct lruvec *lruvec,
				   int cpu)
{
	if (cpu < 0)
		return lruvec->lists;
	return coh_object_field(lru->folio_lines[cpu], 0);
}

/*
 * folio_lruvec_relock_irqsave(folio, locked_lruvec, &flags) - hold
 * @lruvec's lock, letting go of @f->held first if it is another.
 */
struct lruvec_relock_frame {
	struct co_frame co;
	struct lruvec **held;
	struct lruvec *lruvec;
	sim_time_t start;
};

static int lruvec_relock(struct sim_proc *p, void *frame)
{
	struct lruvec_relock_frame *f = frame;

	CO_BEGIN(f);
	if (*f->held == f->lruvec)
		CO_RETURN(f, p, 0);
	if (*f->held) {
		/* unlock_page_lruvec_irqrestore() */
		CO_AWAIT(f,
			 queued_spin_unlock(co_cpu(p), &(*f->held)->lru_lock));
		*f->held = NULL;
	}
	/* folio_lruvec_lock_irqsave(): spin_lock_irqsave(&lruvec->lru_lock) */
	irq_save_restore(p);
	ENTER(p, KF__raw_spin_lock_irqsave);
	f->start = NOW(p);
	CO_CALL(f, p, queued_spin_lock, .lock = &f->lruvec->lru_lock);
	f->lruvec->wait_ps += NOW(p) - f->start;
	EXIT(p);
	*f->held = f->lruvec;
	CO_END(f, p);
}

/*
 * update_lru_size(lruvec, LRU_INACTIVE_ANON, ZONE_NORMAL, @nr):
 * __update_lru_size()'s __mod_lruvec_state() (the memcg statistics, under
 * the lock), then mem_cgroup_update_lru_size()'s lru_zone_size[][].
 */
struct update_lru_size_frame {
	struct co_frame co;
	struct lruvec *lruvec;
	long nr;
};

static int update_lru_size(struct sim_proc *p, void *frame)
{
	struct update_lru_size_frame *f = frame;

	CO_BEGIN(f);
	CO_CALL(f, p, __mod_lruvec_state, .memcg = f->lruvec->memcg,
		.idx = SIM_NR_INACTIVE_ANON, .val = f->nr);
	/* SIM: __mod_zone_page_state() is per CPU, in the callers' work */
	/* mem_cgroup_update_lru_size(): *lru_size += nr_pages */
	CO_AWAIT(f, co_access(co_cpu(p), f->lruvec->lru_zone_size, COH_WRITE));
	CO_END(f, p);
}

/*
 * lru_add_fn(lruvec, folio) -> lruvec_add_folio(): update_lru_size(), then
 * list_add(&folio->lru, &lruvec->lists[lru]): the head's next, the old
 * first folio's prev, and the folio's own pointers.
 */
struct lru_add_fn_frame {
	struct co_frame co;
	struct lruvec *lruvec;
};

static int lru_add_fn(struct sim_proc *p, void *frame)
{
	struct lru_add_fn_frame *f = frame;
	struct lru_sim *lru = this_ms(p)->lru;
	struct lruvec *lruvec = f->lruvec;
	struct coh_cpu *cc = co_cpu(p);
	int cpu = (int)cc->cpu;

	CO_BEGIN(f);
	CO_CALL(f, p, update_lru_size, .lruvec = lruvec, .nr = 1);
	CO_AWAIT(f, co_access(cc, lruvec->lists, COH_WRITE));
	CO_AWAIT(f, co_access(cc, folio_lru(lru, lruvec, lruvec->first_cpu),
			      COH_WRITE));
	CO_AWAIT(f, co_access(cc, folio_lru(lru, lruvec, cpu), COH_WRITE));
	/* SIM: the rest of the folio's work under the lock, as one delay */
	coh_delay(cc, this_ms(p)->k->lru_folio_ps);
	if (lruvec->first_cpu != cpu)
		lruvec->below[cpu] = lruvec->first_cpu;
	lruvec->first_cpu = cpu;
	lruvec->nr_folios++;
	CO_END(f, p);
}

/*
 * folio_batch_move_lru(fbatch, lru_add_fn): each folio under its
 * lruvec's lock (taken again only when the lruvec changes), one unlock
 * at the end; then folios_put() of the batch's references and
 * folio_batch_reinit().
 */
struct folio_batch_move_lru_frame {
	struct co_frame co;
	struct cpu_fbatches *fbatch;
	/* locals */
	struct lruvec *lruvec;
	unsigned int i;
};

static int folio_batch_move_lru(struct sim_proc *p, void *frame)
{
	struct folio_batch_move_lru_frame *f = frame;

	CO_BEGIN(f);
	ENTER(p, KF_folio_batch_move_lru);
	for (f->i = 0; f->i < f->fbatch->nr; f->i++) {
		CO_CALL(f, p, lruvec_relock, .held = &f->lruvec,
			.lruvec = lru_sim_lruvec(this_ms(p),
						 f->fbatch->lru_add[f->i],
						 co_cpu(p)->cpu));
		CO_CALL(f, p, lru_add_fn, .lruvec = f->lruvec);
		/* folio_set_lru(): the folio's own line */
	}
	if (f->lruvec)
		CO_AWAIT(f,
			 queued_spin_unlock(co_cpu(p), &f->lruvec->lru_lock));
	f->fbatch->nr = 0;
	EXIT(p);
	CO_END(f, p);
}

int folio_add_lru(struct sim_proc *p, void *frame)
{
	struct folio_add_lru_frame *f = frame;
	struct lru_sim *lru = this_ms(p)->lru;
	struct cpu_fbatches *fbatch = lru ? &lru->fbatches[co_cpu(p)->cpu] :
					    NULL;

	CO_BEGIN(f);
	if (!lru) {
		/* SIM: lru_lock off: onto the LRU at once, no lock */
		CO_CALL(f, p, mod_lruvec_state, .memcg = f->memcg,
			.idx = SIM_NR_INACTIVE_ANON, .val = 1);
		CO_RETURN(f, p, 0);
	}
	/*
	 * folio_get(); local_lock(&cpu_fbatches.lock);
	 * folio_batch_add_and_move(): move the batch once it is full
	 */
	fbatch->lru_add[fbatch->nr++] = f->memcg;
	if (fbatch->nr < lru->batch)
		CO_RETURN(f, p, 0);
	CO_CALL(f, p, folio_batch_move_lru, .fbatch = fbatch);
	CO_END(f, p);
}

int lru_add_drain(struct sim_proc *p, void *frame)
{
	struct lru_add_drain_frame *f = frame;
	struct cpu_fbatches *fbatch =
		&this_ms(p)->lru->fbatches[co_cpu(p)->cpu];

	CO_BEGIN(f);
	/*
	 * local_lock(&cpu_fbatches.lock); lru_add_drain_cpu(): the lru_add
	 * batch (SIM: the other batches are empty); mlock_drain_local()
	 */
	if (!fbatch->nr)
		CO_RETURN(f, p, 0);
	ENTER(p, KF_lru_add_drain);
	CO_CALL(f, p, folio_batch_move_lru, .fbatch = fbatch);
	EXIT(p);
	CO_END(f, p);
}

/*
 * lruvec_del_folio(): list_del(&folio->lru) writes the neighbours'
 * pointers (SIM: this CPU's batch and the folio below it, see swap.h)
 * and poisons the folio's own; then update_lru_size(-1).
 */
struct lruvec_del_folio_frame {
	struct co_frame co;
	struct lruvec *lruvec;
};

static int lruvec_del_folio(struct sim_proc *p, void *frame)
{
	struct lruvec_del_folio_frame *f = frame;
	struct lru_sim *lru = this_ms(p)->lru;
	struct lruvec *lruvec = f->lruvec;
	struct coh_cpu *cc = co_cpu(p);
	int cpu = (int)cc->cpu;

	CO_BEGIN(f);
	CO_AWAIT(f, co_access(cc, folio_lru(lru, lruvec, cpu), COH_WRITE));
	CO_AWAIT(f, co_access(cc, folio_lru(lru, lruvec, lruvec->below[cpu]),
			      COH_WRITE));
	if (lruvec->nr_folios > 0 && --lruvec->nr_folios == 0)
		lruvec->first_cpu = -1;
	/* SIM: the rest of the folio's work under the lock, as one delay */
	coh_delay(cc, this_ms(p)->k->lru_folio_ps);
	CO_CALL(f, p, update_lru_size, .lruvec = lruvec, .nr = -1);
	CO_END(f, p);
}

int release_pages(struct sim_proc *p, void *frame)
{
	struct release_pages_frame *f = frame;
	struct coh_cpu *cc = co_cpu(p);
	struct lruvec *lruvec = lru_sim_lruvec(this_ms(p), f->memcg, cc->cpu);

	CO_BEGIN(f);
	ENTER(p, KF_release_pages);
	for (f->i = 0; f->i < f->nr; f->i++) {
		/*
		 * Keep the interrupts-off hold short: let go every
		 * SWAP_CLUSTER_MAX folios of one lruvec.
		 */
		if (f->lruvec && ++f->lock_batch == SWAP_CLUSTER_MAX) {
			CO_AWAIT(f,
				 queued_spin_unlock(cc, &f->lruvec->lru_lock));
			f->lruvec = NULL;
		}
		/* folio_put_testzero(): the last reference; the folio's line */
		if (f->lruvec != lruvec)
			f->lock_batch = 0;
		CO_CALL(f, p, lruvec_relock, .held = &f->lruvec,
			.lruvec = lruvec);
		CO_CALL(f, p, lruvec_del_folio, .lruvec = f->lruvec);
		/* __folio_clear_lru_flags(); list_add(&pages_to_free) */
	}
	if (f->lruvec)
		CO_AWAIT(f, queued_spin_unlock(cc, &f->lruvec->lru_lock));
	EXIT(p);
	/* mem_cgroup_uncharge_list(): single-page folios */
	CO_CALL(f, p, uncharge_batch,
		.ug = { .memcg = f->memcg,
			.nr_memory = f->nr,
			.pgpgout = f->nr });
	/* SIM: free_unref_page_list() is in the callers' work */
	CO_END(f, p);
}
