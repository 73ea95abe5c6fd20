/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/kernel/mm/memcontrol_internal.h - what the files modelling
 * mm/memcontrol.c share, and nothing else includes:
 *
 *   memcontrol.c        the charge paths (per-CPU stock, try_charge_memcg,
 *                       kmem pages, the obj_cgroup stock, folios), in
 *                       mm/memcontrol.c's order
 *   memcontrol_sock.c   socket memory (split from memcontrol.c for size)
 *   memcontrol_stats.c  the statistics: updates, flushing, memory.stat,
 *                       in mm/memcontrol.c's order
 *   memcg_sim.c         SIM only: building the memcgs, the stocks and the
 *                       statistics structs of a run, and their layouts
 *
 * The SIM helpers shared between these files are named memcg__*, the
 * directory-private prefix (STYLE G2); the kernel's functions keep the
 * kernel's names.
 *
 * Layering: models/kernel/ internal header; uses memcontrol.h, kprof.h.
 */
#ifndef MODELS_KERNEL_MEMCONTROL_INTERNAL_H
#define MODELS_KERNEL_MEMCONTROL_INTERNAL_H

#include "models/kernel/sim/insn.h"
#include "models/kernel/sim/kprof.h"
#include "models/kernel/mm/memcontrol.h"

/* The stock's members, all on its CPU's own line. */
enum { STOCK_CACHED, STOCK_NR_PAGES, STOCK_CACHED_OBJCG, STOCK_NR_BYTES };

/* The members of each statistics struct, as arrays of longs. */
enum {
	PA_HDR,
	PA_STATE,
	PA_EVENTS,
	PA_STATE_PREV,
	PA_EVENTS_PREV,
	PA_NR_PAGE_EVENTS
};
enum {
	VA_STATE,
	VA_EVENTS,
	VA_STATE_LOCAL,
	VA_EVENTS_LOCAL,
	VA_STATE_PENDING,
	VA_EVENTS_PENDING,
	VA_STATS_UPDATES
};
enum { LPA_STATE, LPA_STATE_PREV };
enum { LA_STATE, LA_STATE_LOCAL, LA_STATE_PENDING };

static inline struct coh_field *stat_field(const struct stat_layout *sl,
					   struct coh_object *obj,
					   unsigned int a, unsigned int i)
{
	unsigned int off = sl->a[a].off;

	SIM_BUG_ON(i >= sl->a[a].n);
	return coh_object_field(obj,
				sl->a[a].first + (off + 8 * i) / 64 - off / 64);
}

/* The line number of element i of array a within its struct. */
static inline unsigned int stat_line(const struct stat_layout *sl,
				     unsigned int a, unsigned int i)
{
	return (sl->a[a].off + 8 * i) / 64;
}

/* The node of a CPU: its socket (N_MEMORY nodes are the sockets). */
static inline unsigned int cpu_node(const struct memcg_sim *ms,
				    unsigned int cpu)
{
	return coh_machine(ms->coh)->cpus[cpu].socket;
}

/* memcg_sim.c: memcg__vmstats_percpu()'s first use on @cpu: made there */
struct memcg_vmstats_percpu *
memcg__vmstats_percpu_make(struct memcg_sim *ms, struct mem_cgroup *memcg,
			   unsigned int cpu);

/*
 * this_cpu_ptr(memcg->vmstats_percpu) on @cpu, made on first use. SIM:
 * the lookup inline, the making out of line (its frame of names cost 26
 * instructions a call: doc/speed.md).
 */
static inline struct memcg_vmstats_percpu *
memcg__vmstats_percpu(struct memcg_sim *ms, struct mem_cgroup *memcg,
		      unsigned int cpu)
{
	if (memcg->vmstats_percpu && memcg->vmstats_percpu[cpu])
		return memcg->vmstats_percpu[cpu];
	return memcg__vmstats_percpu_make(ms, memcg, cpu);
}

/* memcontrol_stats.c: where the kernel keeps the statistics items */
unsigned int memcg__state_index(const struct memcg_sim *ms, int k);
/* memcg__stat_index()'s table, ms->stat_index[], filled at setup */
void memcg__stat_index_init(struct memcg_sim *ms);

/* The index of SIM_* state item @idx in the kernel's state arrays. */
static inline unsigned int memcg__stat_index(const struct memcg_sim *ms,
					     int idx)
{
	return ms->stat_index[idx];
}
int memcg__event_index(const struct memcg_sim *ms, int ev);
extern const int memcg__sim_event_ev[NR_SIM_EVENTS];

/*
 * this_cpu_ptr(memcg->vmstats_percpu) for the process's CPU, and the field
 * of element @i of its array @a (PA_*).
 */
#define this_cpu_vmstats(p, memcg) \
	memcg__vmstats_percpu(this_ms(p), (memcg), co_cpu(p)->cpu)
#define this_cpu_vmstats_field(p, memcg, a, i)                                 \
	stat_field(&this_ms(p)->pcpu_sl, this_cpu_vmstats(p, memcg)->obj, (a), \
		   (i))

/*
 * memcg_stat_field(p, memcg, member, idx) - where this CPU's
 * memcg->vmstats_percpu->@member[@idx] lives (member: state, events):
 * the line follows the kernel's index of the SIM item @idx, not the
 * model's. lruvec_stat_field(p, memcg, nid, idx) - the same for
 * pn->lruvec_stats_percpu->state[idx] of node @nid.
 */
#define STATC_ARRAY_state PA_STATE
#define STATC_ARRAY_events PA_EVENTS
#define STATC_INDEX_state(ms, idx) memcg__stat_index(ms, idx)
#define STATC_INDEX_events(ms, idx) \
	((unsigned int)memcg__event_index(ms, memcg__sim_event_ev[idx]))
#define memcg_stat_field(p, memcg, member, idx)                \
	this_cpu_vmstats_field(p, memcg, STATC_ARRAY_##member, \
			       STATC_INDEX_##member(this_ms(p), idx))
#define lruvec_stat_field(p, memcg, nid, idx)                              \
	stat_field(&this_ms(p)->lruvec_pcpu_sl,                            \
		   this_cpu_vmstats(p, memcg)->lruvec[nid].obj, LPA_STATE, \
		   memcg__stat_index(this_ms(p), idx))

/*
 * The kernel's __this_cpu_add() of a memcg statistic, one statement:
 *
 *	kernel                                    model
 *	__this_cpu_add(memcg->vmstats_percpu->    CO_THIS_CPU_ADD_STAT(f,
 *		state[i], val);                       memcg, state, idx, val);
 *	__this_cpu_add(pn->lruvec_stats_percpu->  CO_THIS_CPU_ADD_LRUVEC_STAT(
 *		state[i], val);                       f, memcg, nid, idx, val);
 *
 * SIM: @idx is the model's item (enum memcg_stat_sim, memcg_event_sim),
 * the kernel's index i its memcg__stat_index()/memcg__event_index().
 */
#define CO_THIS_CPU_ADD_STAT(f, memcg, member, idx, val)                    \
	CO_THIS_CPU_ADD_AT(f, this_cpu_vmstats(p, memcg)->member[idx], val, \
			   memcg_stat_field(p, memcg, member, idx))
#define CO_THIS_CPU_ADD_LRUVEC_STAT(f, memcg, nid, idx, val)                   \
	CO_THIS_CPU_ADD_AT(f,                                                  \
			   this_cpu_vmstats(p, memcg)->lruvec[nid].state[idx], \
			   val, lruvec_stat_field(p, memcg, nid, idx))

/* memcontrol_stats.c, for charge_memcg() and uncharge_batch() */
struct __count_memcg_events_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	int idx; /* SIM: enum memcg_event_sim */
	long count;
};

int __count_memcg_events(struct sim_proc *p, void *frame);

/* memcontrol_stats.c, for the slab statistics of the object stock */
struct __mod_memcg_lruvec_state_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	unsigned int node; /* SIM: the lruvec's */
	int idx; /* a node item of enum memcg_stat_sim */
	long val;
};

int __mod_memcg_lruvec_state(struct sim_proc *p, void *frame);

struct mem_cgroup_charge_statistics_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	int nr_pages;
};

int mem_cgroup_charge_statistics(struct sim_proc *p, void *frame);

struct memcg_check_events_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	/* locals */
	bool do_softlimit;
	struct mem_cgroup *iter; /* the ancestor walks */
};

int memcg_check_events(struct sim_proc *p, void *frame);

#endif /* MODELS_KERNEL_MEMCONTROL_INTERNAL_H */
