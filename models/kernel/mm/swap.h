/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/kernel/mm/swap.h - the LRU lock and the per-CPU LRU-add batches:
 * mm/swap.c (folio_add_lru(), folio_batch_move_lru(), lru_add_fn(),
 * lru_add_drain(), release_pages()) and the LRU list inlines of
 * include/linux/mm_inline.h (lruvec_add_folio(), lruvec_del_folio(),
 * update_lru_size()), Linux v6.0 and v6.8.
 *
 * Theory of operation. A new folio does not go onto its LRU list at
 * once: folio_add_lru() puts it in this CPU's lru_add folio_batch
 * (cpu_fbatches.lru_add, PAGEVEC_SIZE = 15 folios, under a local_lock: no
 * shared memory). When the batch is full, folio_batch_move_lru() takes
 * the folio's lruvec lock (per memcg and node since v5.11; per node from
 * v4.8) and moves every folio of the batch onto its list; lru_add_drain()
 * does the same for a batch that is not full. Freeing the last reference
 * of LRU folios, release_pages() takes the same lock and takes each off
 * its list, letting go of the lock every SWAP_CLUSTER_MAX (32) folios so
 * the interrupts-off hold stays short.
 *
 *	fault:  folio_add_lru()          15 folios per CPU, no lock
 *	           | batch full, or lru_add_drain()
 *	           v
 *	        folio_batch_move_lru()   spin_lock_irqsave(&lruvec->lru_lock)
 *	           lru_add_fn()  x n       update_lru_size(): __mod_lruvec_state()
 *	                                   (memcg statistics, inside the lock),
 *	                                   lru_zone_size[][]; list_add()
 *	        unlock
 *	unmap:  release_pages()          the same lock, 32 folios per hold
 *	           lruvec_del_folio() x n  list_del(); update_lru_size(-1)
 *	        unlock; mem_cgroup_uncharge_list() (outside the lock)
 *
 * Everything inside the lock is paid by every CPU waiting for it: the
 * statistics update (memcg_rstat_updated() and whatever a kernel version
 * adds to it), and the critical section's own line traffic: the list
 * head (lruvec->lists[lru], line 0 of struct lruvec), the neighbouring
 * folios' list pointers (struct page lines last written by the CPUs that
 * put those folios on the list), and the memcg's LRU size counter
 * (mem_cgroup_per_node.lru_zone_size[zone][lru]). The lock word
 * (lruvec->lru_lock, offset 80: after lists[NR_LRU_LISTS]) is line 1.
 *
 * SIM: only single-page anonymous or shmem folios on the inactive anon
 * list (the workloads' folios); no MGLRU (lru_gen_enabled() false: the
 * Debian and Fedora default at v6.0 and v6.8). A folio is its memcg and
 * the node of the CPU that added it. The struct pages of a CPU's folios
 * are one line per CPU (struct page is one 64-byte line; a folio's own
 * line is written by the CPU that faulted it in, so only a neighbour's
 * line can be elsewhere). Neighbours: list_add() at the head writes the
 * previous first folio's line (that of the CPU that added last);
 * list_del() writes its own batch's line and that of the folio below its
 * batch on the list (the first folio when this CPU's last batch went
 * in), or the list head when the list was empty then. The zone's own
 * per-CPU LRU counter (__mod_zone_page_state()) is per CPU, below its
 * threshold, and is in the callers' work; so are the instructions of
 * these functions (no row in insn-costs-6.1.tsv: no vmlinux to count
 * them on), and folios_put()'s reference drops (the folio's own line).
 *
 * Versions: the flow above is that of v6.0 (stored mm/swap.c of the
 * v6.0-v6.5 era read with the search tool: folio_batch_move_lru(),
 * lru_add_drain(), release_pages() with lock_batch) and of v6.8, whose
 * release_pages() still takes the lock per folio with the 32-folio
 * relock (the batched folios_put_refs() came after v6.8). v4.8 took the
 * node's lock (pgdat->lru_lock) for every memcg: lru_lock: per_node.
 *
 * Layering: models/kernel/ module; uses models/kernel/mm/memcontrol.h,
 * models/kernel/kernel/locking/qspinlock.h, models/hw/cache.h, sim/.
 */
#ifndef MODELS_KERNEL_SWAP_H
#define MODELS_KERNEL_SWAP_H

#include "models/kernel/compat/kernel.h"
#include "models/kernel/compat/sim.h"
#include "models/kernel/kernel/locking/qspinlock.h"
#include "models/kernel/mm/memcontrol.h"

#define FOLIO_BATCH_MAX 31 /* PAGEVEC_SIZE of v6.12 on, the key's maximum */

/*
 * struct lruvec - one (memcg, node) LRU: its list head, lock and size
 * counter. SIM: only the inactive anon list.
 */
struct lruvec {
	struct coh_object *obj; /* struct lruvec at mem_cgroup_per_node + 0 */
	struct coh_field *lists; /* lists[LRU_INACTIVE_ANON] */
	struct coh_field *lru_zone_size; /* the memcg's, in mem_cgroup_per_node */
	struct qspinlock lru_lock;
	struct mem_cgroup *memcg; /* SIM: whose statistics (root: per_node) */
	/* SIM: the list's shape, for the neighbours' lines */
	long nr_folios;
	int first_cpu; /* the CPU whose folio is first, -1 if empty */
	int *below; /* [nr_cpus]: first_cpu when that CPU's last batch went in */
	/* SIM: statistics */
	sim_time_t wait_ps; /* time CPUs spent waiting for lru_lock */
};

/* cpu_fbatches.lru_add of one CPU. SIM: a folio is its memcg. */
struct cpu_fbatches {
	unsigned int nr;
	struct mem_cgroup *lru_add[FOLIO_BATCH_MAX];
};

/* SIM: the LRUs of a run (in struct memcg_sim), NULL with lru_lock: off. */
struct lru_sim {
	unsigned int nr_cpus, nr_nodes, nr_lruvecs;
	unsigned int batch; /* PAGEVEC_SIZE */
	bool per_node; /* v4.8: pgdat->lru_lock for every memcg */
	struct lruvec *lruvecs; /* [memcg id * nr_nodes + node] */
	struct cpu_fbatches *fbatches; /* [nr_cpus] */
	struct coh_object **folio_lines; /* [nr_cpus]: struct page lines */
};

/**
 * lru_sim_create() - the LRUs of a run: a lruvec per memcg and node (one
 * per node with @k->lru_lock per_node or memcg disabled), a batch per CPU.
 * @ms: the memory controller (its memcgs, nodes and memory)
 *
 * Context: setup, after the memcgs are placed. Return: NULL when
 * @k->lru_lock is off; free with lru_sim_free().
 */
struct lru_sim *lru_sim_create(struct memcg_sim *ms);
void lru_sim_free(struct lru_sim *lru);

/* The lruvec of @memcg's folios added on @cpu: mem_cgroup_lruvec(). */
struct lruvec *lru_sim_lruvec(struct memcg_sim *ms, struct mem_cgroup *memcg,
			      unsigned int cpu);

/*
 * folio_add_lru(): one new folio of @memcg into this CPU's batch (with
 * lru_lock off: its NR_INACTIVE_ANON at once)
 */
struct folio_add_lru_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
};

int folio_add_lru(struct sim_proc *p, void *frame);

/* lru_add_drain(): this CPU's batch onto the LRU */
struct lru_add_drain_frame {
	struct co_frame co;
};

int lru_add_drain(struct sim_proc *p, void *frame);

/*
 * release_pages(): the last reference of @nr single-page LRU folios of
 * @memcg, added on this CPU (SIM: the CPU that frees them), then
 * mem_cgroup_uncharge_list() of them.
 */
struct release_pages_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	unsigned int nr;
	/* locals */
	struct lruvec *lruvec; /* held, or NULL */
	unsigned int i, lock_batch;
};

int release_pages(struct sim_proc *p, void *frame);

#endif /* MODELS_KERNEL_SWAP_H */
