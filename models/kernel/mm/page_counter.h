/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Model of include/linux/page_counter.h (Linux v6.0 and v6.1).
 *
 * Theory of operation: a page_counter counts pages charged to a cgroup and
 * to all its ancestors (mm/page_counter.c, modelled in page_counter.c).
 * The struct keeps the kernel's members; their values are plain integers
 * (SIM: the engine runs one CPU at a time, so an atomic is a plain
 * operation whose cost and ordering come from the access before it). Each
 * member also has a place in simulated memory, a struct coh_field, so
 * every access the kernel makes is one coherence transaction: where the
 * members sit decides which CPUs fight over which line, and that is what
 * the v6.0 and v6.1 layouts change (page_counter_layout.h).
 *
 *	memcg /a/b          memcg /a            root
 *	+-----------+       +-----------+       +-----------+
 *	| memory    |------>| memory    |------>| memory    |---> NULL
 *	|  usage    | parent|  usage    | parent|  usage    |
 *	|  max ...  |       |  max ...  |       |  max ...  |
 *	+-----------+       +-----------+       +-----------+
 *	a charge adds to usage at every level; a level over max fails it
 *
 * Layering: models/kernel/ module; uses models/hw/cache.h,
 * models/kernel/compat/, models/kernel/sim/page_counter_layout.h, sim/co.h.
 */
#ifndef MODELS_KERNEL_PAGE_COUNTER_H
#define MODELS_KERNEL_PAGE_COUNTER_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "models/hw/cache.h"
#include "models/kernel/compat/sim.h"
#include "models/kernel/compat/kernel.h"
#include "models/kernel/sim/page_counter_layout.h"
#include "sim/co.h"

/*
 * struct page_counter - the kernel's members, plus where they live.
 */
struct page_counter {
	long usage; /* atomic_long_t */
	unsigned long min;
	unsigned long low;
	unsigned long high;
	unsigned long max;

	/* effective memory.min and memory.min usage tracking */
	unsigned long emin;
	long min_usage; /* atomic_long_t */
	long children_min_usage; /* atomic_long_t */

	/* effective memory.low and memory.low usage tracking */
	unsigned long elow;
	long low_usage; /* atomic_long_t */
	long children_low_usage; /* atomic_long_t */

	unsigned long watermark;
	unsigned long failcnt;

	struct page_counter *parent;

	/*
	 * SIM: the simulation's own state. Where each member lives, by
	 * index (enum page_counter_member) or by name for the compat
	 * macros (c->coh.usage; NULL: nowhere, free).
	 */
	union {
		struct coh_field *f[NR_PC_MEMBERS];
		struct {
			struct coh_field *usage, *min, *low, *high, *max;
			struct coh_field *emin, *min_usage, *children_min_usage;
			struct coh_field *elow, *low_usage, *children_low_usage;
			struct coh_field *watermark, *failcnt, *parent;
		} coh;
	};
	/* SIM: protected_usage_update: if_changed, v6.1's propagation */
	bool protected_if_changed;
	/*
	 * SIM: from later kernels (page_counter_init()'s third argument,
	 * from Roman Gushchin's 2024 page_counter series; v6.11 or v6.12,
	 * not checked: the stored kernel sources predate it): whether
	 * propagate_protected_usage() runs at all. v6.0
	 * always propagates; the model turns it off for cgroup v1's kmem
	 * counter, which no memory.min/low applies to.
	 */
	bool protection_support;
	uint64_t nr_xchg; /* protected-usage xchg()s done */
	uint64_t nr_warn; /* page_counter_cancel() underflows */
};

_Static_assert(sizeof(((struct page_counter *)0)->coh) ==
		       sizeof(((struct page_counter *)0)->f),
	       "page_counter: one named field per enum page_counter_member");

#define PAGE_COUNTER_MAX (0x7fffffffffffffffL / PAGE_SIZE)

/*
 * page_counter_init() - as the kernel's, plus the memory the members live
 * in: @fields[i] is member i (NULL for a counter only tests look at).
 */
static inline void page_counter_init(struct page_counter *counter,
				     struct page_counter *parent,
				     struct coh_field **fields)
{
	unsigned int i;

	memset(counter, 0, sizeof(*counter));
	counter->max = PAGE_COUNTER_MAX;
	/* SIM: mem_cgroup_css_alloc() sets high; done here for every one */
	counter->high = PAGE_COUNTER_MAX;
	counter->parent = parent;
	counter->protection_support = true;
	for (i = 0; i < NR_PC_MEMBERS; i++)
		counter->f[i] = fields ? fields[i] : NULL;
}

static inline unsigned long page_counter_read(struct page_counter *counter)
{
	return (unsigned long)counter->usage;
}

/*
 * The coroutines, one frame each: the kernel's parameters, then its
 * locals. The CPU doing the work is the process's (co_cpu(p); NULL: no
 * cost), e.g. CO_CALL(f, p, page_counter_uncharge, .counter = c,
 * .nr_pages = n). page_counter_try_charge() returns its bool in p->ret.
 */
struct propagate_protected_usage_frame {
	struct co_frame co;
	struct page_counter *c;
	unsigned long usage;
	/* locals */
	unsigned long protected, old_protected;
	unsigned long low, min;
	long delta;
};

struct page_counter_cancel_frame {
	struct co_frame co;
	struct page_counter *counter;
	unsigned long nr_pages;
	/* locals */
	long new;
};

struct page_counter_charge_frame {
	struct co_frame co;
	struct page_counter *counter;
	unsigned long nr_pages;
	/* locals */
	struct page_counter *c;
	long new;
};

struct page_counter_try_charge_frame {
	struct co_frame co;
	struct page_counter *counter;
	unsigned long nr_pages;
	struct page_counter **fail;
	/* locals */
	struct page_counter *c;
	long new;
};

struct page_counter_uncharge_frame {
	struct co_frame co;
	struct page_counter *counter;
	unsigned long nr_pages;
	/* locals */
	struct page_counter *c;
};

int propagate_protected_usage(struct sim_proc *p, void *frame);
int page_counter_cancel(struct sim_proc *p, void *frame);
int page_counter_charge(struct sim_proc *p, void *frame);
int page_counter_try_charge(struct sim_proc *p, void *frame);
int page_counter_uncharge(struct sim_proc *p, void *frame);

#endif /* MODELS_KERNEL_PAGE_COUNTER_H */
