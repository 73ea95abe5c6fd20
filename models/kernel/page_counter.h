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
 * the v6.0 and v6.1 layouts change.
 *
 * Layouts (x86_64, unsigned long and pointers 8 bytes):
 *
 *   v6.0 (declaration order, packed, 112 bytes)
 *	usage 0, min 8, low 16, high 24, max 32, emin 40, min_usage 48,
 *	children_min_usage 56, elow 64, low_usage 72, children_low_usage 80,
 *	watermark 88, failcnt 96, parent 104
 *   v6.1 ("mm: page_counter: rearrange struct page_counter fields": usage
 *	alone on its line, the protection fields on the next, read-mostly
 *	min/low/high/max/parent on a third; the padding members are aligned
 *	to the line, so the struct is line-aligned too, 192 bytes)
 *	usage 0 | emin 64, min_usage 72, children_min_usage 80, elow 88,
 *	low_usage 96, children_low_usage 104, watermark 112, failcnt 120 |
 *	min 128, low 136, high 144, max 152, parent 160
 *
 * A layout can also be given member by member in the scenario, or read
 * from the text `pahole -C page_counter` prints (models/kernel/pahole.h).
 *
 * Layering: models/ module; uses models/hw/cache.h, models/kernel/kprof.h, sim/co.h.
 */
#ifndef MODELS_KERNEL_PAGE_COUNTER_H
#define MODELS_KERNEL_PAGE_COUNTER_H

#include <stdbool.h>

#include "models/hw/cache.h"
#include "sim/co.h"
#include "sim/error.h"

struct pahole_struct;

/* The members, in v6.0 declaration order. */
enum page_counter_member {
	PC_USAGE,
	PC_MIN,
	PC_LOW,
	PC_HIGH,
	PC_MAX,
	PC_EMIN,
	PC_MIN_USAGE,
	PC_CHILDREN_MIN_USAGE,
	PC_ELOW,
	PC_LOW_USAGE,
	PC_CHILDREN_LOW_USAGE,
	PC_WATERMARK,
	PC_FAILCNT,
	PC_PARENT,
	NR_PC_MEMBERS,
};

extern const char *const page_counter_member_names[NR_PC_MEMBERS];

struct page_counter_layout {
	unsigned int size;	/* sizeof(struct page_counter) */
	unsigned int align;	/* its alignment: 8, or 64 when padded */
	unsigned int offset[NR_PC_MEMBERS];
};

extern const struct page_counter_layout page_counter_layout_v6_0;
extern const struct page_counter_layout page_counter_layout_v6_1;

/*
 * page_counter_layout_from_pahole() - take the members' offsets from
 * pahole's description of struct page_counter. Every member must be
 * there; members the kernel added later are ignored. Errors name @path and
 * the line.
 */
int page_counter_layout_from_pahole(const struct pahole_struct *ps,
				    const char *path,
				    struct page_counter_layout *out,
				    struct sim_error *err);

/*
 * page_counter_layout_check() - a layout is usable when its members lie
 * inside the struct and do not overlap (8 bytes each).
 */
int page_counter_layout_check(const struct page_counter_layout *l,
			      char *why, size_t len);

#define PAGE_COUNTER_MAX (0x7fffffffffffffffL / 4096)

/*
 * struct page_counter - the kernel's members, plus where they live.
 */
struct page_counter {
	long usage;			/* atomic_long_t */
	unsigned long min;
	unsigned long low;
	unsigned long high;
	unsigned long max;

	/* effective memory.min and memory.min usage tracking */
	unsigned long emin;
	long min_usage;			/* atomic_long_t */
	long children_min_usage;	/* atomic_long_t */

	/* effective memory.low and memory.low usage tracking */
	unsigned long elow;
	long low_usage;			/* atomic_long_t */
	long children_low_usage;	/* atomic_long_t */

	unsigned long watermark;
	unsigned long failcnt;

	struct page_counter *parent;

	/* SIM: the simulation's own state */
	struct coh_field *f[NR_PC_MEMBERS];	/* the members in memory */
	bool protected_if_changed;	/* v6.1 propagate_protected_usage */
	bool protection_support;	/* propagate at all (memory, not kmem) */
	uint64_t nr_xchg;		/* protected-usage xchg()s done */
	uint64_t nr_warn;		/* page_counter_cancel() underflows */
};

/*
 * page_counter_init() - as the kernel's, plus the memory the members live
 * in: @fields[i] is member i (NULL for a counter only tests look at).
 */
void page_counter_init(struct page_counter *counter,
		       struct page_counter *parent, struct coh_field **fields);

static inline unsigned long page_counter_read(struct page_counter *counter)
{
	return (unsigned long)counter->usage;
}

/*
 * The coroutines. Each frame starts with the CPU doing the work; call them
 * with CO_CALL(f, p, fn, .cc = cc, ...).
 * page_counter_try_charge() returns its bool in p->ret.
 */
struct page_counter_frame {
	struct co_frame co;
	struct coh_cpu *cc;
	struct page_counter *counter;
	unsigned long nr_pages;
	struct page_counter **fail;	/* try_charge only */
	/* locals */
	struct page_counter *c;
	long new;
};
/* SIM: transitional: these functions still share struct page_counter_frame */
#define page_counter_cancel_frame page_counter_frame
#define page_counter_charge_frame page_counter_frame
#define page_counter_try_charge_frame page_counter_frame
#define page_counter_uncharge_frame page_counter_frame

struct propagate_protected_usage_frame {
	struct co_frame co;
	struct coh_cpu *cc;
	struct page_counter *c;
	unsigned long usage;
	/* locals */
	unsigned long protected, old_protected, min, low;
	long delta;
};

int propagate_protected_usage(struct sim_proc *p, void *frame);
int page_counter_cancel(struct sim_proc *p, void *frame);
int page_counter_charge(struct sim_proc *p, void *frame);
int page_counter_try_charge(struct sim_proc *p, void *frame);
int page_counter_uncharge(struct sim_proc *p, void *frame);

#endif /* MODELS_KERNEL_PAGE_COUNTER_H */
