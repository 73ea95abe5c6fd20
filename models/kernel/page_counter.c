// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of mm/page_counter.c (Linux v6.0; propagate_protected_usage() also
 * as in v6.1, commit "mm: page_counter: remove unneeded atomic ops for
 * low/min").
 *
 * Theory of operation: page_counter_try_charge() walks from a counter to
 * the root. At every level it adds to usage with one atomic add_return (a
 * locked RMW on usage's line), compares the result with max (a load), and
 * on success propagates the protected usage and raises the watermark; when
 * a level is over its max it takes the pages back from that level, counts
 * the failure in its failcnt, and cancels the levels already charged.
 * page_counter_uncharge() cancels at every level.
 *
 * propagate_protected_usage() keeps min_usage/low_usage (the part of usage
 * that memory.min/memory.low protect) and the parent's children_*_usage
 * sums. v6.0 (`protected_usage_update: always`) exchanges min_usage and
 * low_usage whenever min/low or their usage is set: a locked RMW at every
 * protected level on every charge, even when nothing changes. v6.1
 * (`if_changed`) reads first and exchanges only on a change.
 *
 * Every member access below is a coherence transaction on the member's
 * line (models/hw/cache.h), in the kernel's order; the value is taken when
 * the access completes. Loads are posted: they go on in the background
 * and merge per line; the locked RMWs (add_return, xchg) and the return
 * of an exported function wait for them.
 */
#include <stdio.h>
#include <string.h>

#include "models/kernel/kprof.h"
#include "models/kernel/page_counter.h"
#include "models/kernel/pahole.h"

const char *const page_counter_member_names[NR_PC_MEMBERS] = {
	"usage", "min", "low", "high", "max", "emin", "min_usage",
	"children_min_usage", "elow", "low_usage", "children_low_usage",
	"watermark", "failcnt", "parent",
};

const struct page_counter_layout page_counter_layout_v6_0 = {
	.size = 112,
	.align = 8,
	.offset = { 0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104 },
};

const struct page_counter_layout page_counter_layout_v6_1 = {
	.size = 192,
	.align = 64,
	.offset = {
		[PC_USAGE] = 0,
		[PC_EMIN] = 64, [PC_MIN_USAGE] = 72,
		[PC_CHILDREN_MIN_USAGE] = 80, [PC_ELOW] = 88,
		[PC_LOW_USAGE] = 96, [PC_CHILDREN_LOW_USAGE] = 104,
		[PC_WATERMARK] = 112, [PC_FAILCNT] = 120,
		[PC_MIN] = 128, [PC_LOW] = 136, [PC_HIGH] = 144,
		[PC_MAX] = 152, [PC_PARENT] = 160,
	},
};

int page_counter_layout_check(const struct page_counter_layout *l,
			      char *why, size_t len)
{
	unsigned int i, j;

	if (l->align != 8 && l->align != 64) {
		snprintf(why, len, "alignment %u is neither 8 nor 64", l->align);
		return -1;
	}
	for (i = 0; i < NR_PC_MEMBERS; i++) {
		if (l->offset[i] % 8 || l->offset[i] + 8 > l->size) {
			snprintf(why, len,
				 "'%s' at offset %u is not an aligned 8-byte member inside a %u-byte struct",
				 page_counter_member_names[i], l->offset[i],
				 l->size);
			return -1;
		}
		for (j = 0; j < i; j++) {
			if (l->offset[i] == l->offset[j]) {
				snprintf(why, len, "'%s' and '%s' overlap at offset %u",
					 page_counter_member_names[j],
					 page_counter_member_names[i],
					 l->offset[i]);
				return -1;
			}
		}
	}
	return 0;
}

int page_counter_layout_from_pahole(const struct pahole_struct *ps,
				    const char *path,
				    struct page_counter_layout *out,
				    struct sim_error *err)
{
	char why[160];
	unsigned int i;

	memset(out, 0, sizeof(*out));
	out->size = ps->size;
	out->align = 8;
	for (i = 0; i < NR_PC_MEMBERS; i++) {
		const struct pahole_field *pf =
			pahole_field(ps, page_counter_member_names[i]);

		if (!pf) {
			sim_error_set(err, path, 0, 0,
				      "struct %s has no member '%s': not a struct page_counter",
				      ps->name, page_counter_member_names[i]);
			return -1;
		}
		if (pf->size != 8) {
			sim_error_set(err, path, pf->line, 0,
				      "member '%s' is %u bytes, expected 8",
				      pf->name, pf->size);
			return -1;
		}
		out->offset[i] = pf->offset;
	}
	/* A zero-size member on a line boundary is a cacheline padding. */
	for (i = 0; i < ps->nr_fields; i++)
		if (ps->fields[i].size == 0 && ps->fields[i].offset % 64 == 0)
			out->align = 64;
	if (page_counter_layout_check(out, why, sizeof(why))) {
		sim_error_set(err, path, 0, 0, "struct page_counter: %s", why);
		return -1;
	}
	return 0;
}

void page_counter_init(struct page_counter *counter,
		       struct page_counter *parent, struct coh_field **fields)
{
	unsigned int i;

	memset(counter, 0, sizeof(*counter));
	counter->max = PAGE_COUNTER_MAX;
	counter->high = PAGE_COUNTER_MAX;	/* mem_cgroup_css_alloc() */
	counter->parent = parent;
	counter->protection_support = true;
	for (i = 0; i < NR_PC_MEMBERS; i++)
		counter->f[i] = fields ? fields[i] : NULL;
}

/*
 * SIM: a counter without memory (unit tests of the arithmetic) costs
 * nothing; these wrap the coherence calls for CO_AWAIT().
 */
static bool pc_access(struct coh_cpu *cc, struct page_counter *c,
		      enum page_counter_member m, enum coh_op op)
{
	if (!cc || !c->f[m])
		return false;
	return coh_access(cc, c->f[m], op);
}

static bool pc_fence(struct coh_cpu *cc)
{
	return cc ? coh_fence(cc) : false;
}

static sim_time_t pc_now(const struct coh_cpu *cc)
{
	return cc ? cc->proc->now : 0;
}

static struct kprof *pc_prof(const struct coh_cpu *cc)
{
	return cc ? cc->prof : NULL;
}

#define ENTER(f, id) KPROF_ENTER(pc_prof((f)->cc), (id), pc_now((f)->cc))
#define EXIT(f) KPROF_EXIT(pc_prof((f)->cc), pc_now((f)->cc))

int propagate_protected_usage(struct sim_proc *p, void *frame)
{
	struct propagate_protected_usage_frame *f = frame;
	struct page_counter *c = f->c;

	CO_BEGIN(f);
	ENTER(f, KF_propagate_protected_usage);
	/* if (!c->parent) return; */
	CO_AWAIT(f, pc_access(f->cc, c, PC_PARENT, COH_READ));
	if (!c->parent)
		goto out;

	/* min = READ_ONCE(c->min); */
	CO_AWAIT(f, pc_access(f->cc, c, PC_MIN, COH_READ));
	f->min = c->min;
	if (!f->min) {
		/* || atomic_long_read(&c->min_usage) */
		CO_AWAIT(f, pc_access(f->cc, c, PC_MIN_USAGE, COH_READ));
	}
	if (f->min || c->min_usage) {
		f->protected = f->usage < f->min ? f->usage : f->min;
		if (c->protected_if_changed) {
			/* v6.1: skip the xchg when nothing changes */
			CO_AWAIT(f, pc_access(f->cc, c, PC_MIN_USAGE, COH_READ));
			if (f->protected == (unsigned long)c->min_usage)
				goto low;
		}
		/* old_protected = atomic_long_xchg(&c->min_usage, protected); */
		CO_AWAIT(f, pc_access(f->cc, c, PC_MIN_USAGE, COH_RMW));
		f->old_protected = (unsigned long)c->min_usage;
		c->min_usage = (long)f->protected;
		c->nr_xchg++;
		f->delta = (long)(f->protected - f->old_protected);
		if (f->delta) {
			CO_AWAIT(f, pc_access(f->cc, c->parent,
					      PC_CHILDREN_MIN_USAGE, COH_RMW));
			c->parent->children_min_usage += f->delta;
		}
	}
low:
	/* low = READ_ONCE(c->low); */
	CO_AWAIT(f, pc_access(f->cc, c, PC_LOW, COH_READ));
	f->low = c->low;
	if (!f->low)
		CO_AWAIT(f, pc_access(f->cc, c, PC_LOW_USAGE, COH_READ));
	if (f->low || c->low_usage) {
		f->protected = f->usage < f->low ? f->usage : f->low;
		if (c->protected_if_changed) {
			CO_AWAIT(f, pc_access(f->cc, c, PC_LOW_USAGE, COH_READ));
			if (f->protected == (unsigned long)c->low_usage)
				goto out;
		}
		CO_AWAIT(f, pc_access(f->cc, c, PC_LOW_USAGE, COH_RMW));
		f->old_protected = (unsigned long)c->low_usage;
		c->low_usage = (long)f->protected;
		c->nr_xchg++;
		f->delta = (long)(f->protected - f->old_protected);
		if (f->delta) {
			CO_AWAIT(f, pc_access(f->cc, c->parent,
					      PC_CHILDREN_LOW_USAGE, COH_RMW));
			c->parent->children_low_usage += f->delta;
		}
	}
out:
	/* SIM: static, inlined into its callers: no fence at its return. */
	EXIT(f);
	CO_END(f, p);
}

int page_counter_cancel(struct sim_proc *p, void *frame)
{
	struct page_counter_frame *f = frame;
	struct page_counter *counter = f->counter;

	CO_BEGIN(f);
	ENTER(f, KF_page_counter_cancel);
	/* new = atomic_long_sub_return(nr_pages, &counter->usage); */
	CO_AWAIT(f, pc_access(f->cc, counter, PC_USAGE, COH_RMW));
	counter->usage -= (long)f->nr_pages;
	f->new = counter->usage;
	/* More uncharges than charges? WARN_ONCE and repair. */
	if (f->new < 0) {
		counter->nr_warn++;
		f->new = 0;
		CO_AWAIT(f, pc_access(f->cc, counter, PC_USAGE, COH_WRITE));
		counter->usage = 0;
	}
	if (counter->protection_support)
		CO_CALL(f, p, propagate_protected_usage, .cc = f->cc,
			.c = counter, .usage = (unsigned long)f->new);
	CO_AWAIT(f, pc_fence(f->cc));
	EXIT(f);
	CO_END(f, p);
}

int page_counter_charge(struct sim_proc *p, void *frame)
{
	struct page_counter_frame *f = frame;

	CO_BEGIN(f);
	ENTER(f, KF_page_counter_charge);
	for (f->c = f->counter; f->c;) {
		/* new = atomic_long_add_return(nr_pages, &c->usage); */
		CO_AWAIT(f, pc_access(f->cc, f->c, PC_USAGE, COH_RMW));
		f->c->usage += (long)f->nr_pages;
		f->new = f->c->usage;
		if (f->c->protection_support)
			CO_CALL(f, p, propagate_protected_usage, .cc = f->cc, .c = f->c,
				.usage = (unsigned long)f->new);
		CO_AWAIT(f, pc_access(f->cc, f->c, PC_WATERMARK, COH_READ));
		if ((unsigned long)f->new > f->c->watermark) {
			CO_AWAIT(f, pc_access(f->cc, f->c, PC_WATERMARK,
					      COH_WRITE));
			f->c->watermark = (unsigned long)f->new;
		}
		/* c = c->parent */
		CO_AWAIT(f, pc_access(f->cc, f->c, PC_PARENT, COH_READ));
		f->c = f->c->parent;
	}
	CO_AWAIT(f, pc_fence(f->cc));
	EXIT(f);
	CO_END(f, p);
}

int page_counter_try_charge(struct sim_proc *p, void *frame)
{
	struct page_counter_frame *f = frame;

	CO_BEGIN(f);
	ENTER(f, KF_page_counter_try_charge);
	for (f->c = f->counter; f->c;) {
		/*
		 * Charge speculatively: the add_return is a full barrier
		 * between the increment and the read of the limit.
		 */
		CO_AWAIT(f, pc_access(f->cc, f->c, PC_USAGE, COH_RMW));
		f->c->usage += (long)f->nr_pages;
		f->new = f->c->usage;
		CO_AWAIT(f, pc_access(f->cc, f->c, PC_MAX, COH_READ));
		if ((unsigned long)f->new > f->c->max) {
			/* atomic_long_sub(nr_pages, &c->usage); */
			CO_AWAIT(f, pc_access(f->cc, f->c, PC_USAGE, COH_RMW));
			f->c->usage -= (long)f->nr_pages;
			/* data_race(c->failcnt++); */
			CO_AWAIT(f, pc_access(f->cc, f->c, PC_FAILCNT,
					      COH_WRITE));
			f->c->failcnt++;
			*f->fail = f->c;
			goto failed;
		}
		if (f->c->protection_support)
			CO_CALL(f, p, propagate_protected_usage, .cc = f->cc, .c = f->c,
				.usage = (unsigned long)f->new);
		CO_AWAIT(f, pc_access(f->cc, f->c, PC_WATERMARK, COH_READ));
		if ((unsigned long)f->new > f->c->watermark) {
			CO_AWAIT(f, pc_access(f->cc, f->c, PC_WATERMARK,
					      COH_WRITE));
			f->c->watermark = (unsigned long)f->new;
		}
		CO_AWAIT(f, pc_access(f->cc, f->c, PC_PARENT, COH_READ));
		f->c = f->c->parent;
	}
	CO_AWAIT(f, pc_fence(f->cc));
	EXIT(f);
	CO_RETURN(f, p, true);

failed:
	for (f->c = f->counter; f->c != *f->fail;) {
		CO_CALL(f, p, page_counter_cancel, .cc = f->cc, .counter = f->c, .nr_pages = f->nr_pages);
		CO_AWAIT(f, pc_access(f->cc, f->c, PC_PARENT, COH_READ));
		f->c = f->c->parent;
	}
	CO_AWAIT(f, pc_fence(f->cc));
	EXIT(f);
	CO_RETURN(f, p, false);
	CO_END(f, p);
}

int page_counter_uncharge(struct sim_proc *p, void *frame)
{
	struct page_counter_frame *f = frame;

	CO_BEGIN(f);
	ENTER(f, KF_page_counter_uncharge);
	for (f->c = f->counter; f->c;) {
		CO_CALL(f, p, page_counter_cancel, .cc = f->cc, .counter = f->c, .nr_pages = f->nr_pages);
		CO_AWAIT(f, pc_access(f->cc, f->c, PC_PARENT, COH_READ));
		f->c = f->c->parent;
	}
	CO_AWAIT(f, pc_fence(f->cc));
	EXIT(f);
	CO_END(f, p);
}
