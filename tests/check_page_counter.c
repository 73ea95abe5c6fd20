// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_page_counter.c - models/kernel/mm/page_counter.c against the kernel's
 * mm/page_counter.c (v6.0; propagate_protected_usage() also as in v6.1):
 * hierarchical charging, the limit and its undo, the watermark, the
 * protected usage and its xchg()s, underflow repair, the two layouts and
 * their pahole descriptions, and the cost of a charge on skx-2s-72
 * worked out by hand.
 *
 * The hierarchy of every test:
 *
 *	root            (no parent; only the protected-usage tests use it)
 *	  ^
 *	 top            top.parent = root, or NULL for a 3-level chain
 *	  ^
 *	 mid
 *	  ^
 *	 leaf
 *
 * Semantic tests run the coroutines with no CPU and counters without
 * memory (every member access is free and takes no simulated time: the
 * model allows that). The timing tests lay the counters out in a struct
 * coh on the skx-2s-72 profile, found under $top_srcdir (set by the
 * Makefile; "." when run by hand from the source tree).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/cache.h"
#include "models/hw/machine.h"
#include "models/kernel/mm/page_counter.h"
#include "sim/pahole.h"
#include "sim/co.h"
#include "sim/engine.h"
#include "sim/util.h"
#include "tests/harness.h"
#include "tests/machine_test.h"

enum { ROOT, TOP, MID, LEAF, NR_LEVELS };

/* The counters, beside the shared harness's CPU 0 (tests/harness.h). */
static struct {
	struct coh_layout_field fields[NR_PC_MEMBERS];
	struct coh_layout layout;
	struct coh_object *obj[NR_LEVELS];
	struct page_counter pc[NR_LEVELS];
} pcs;

static struct page_counter *const root = &pcs.pc[ROOT];
static struct page_counter *const top = &pcs.pc[TOP];
static struct page_counter *const mid = &pcs.pc[MID];
static struct page_counter *const leaf = &pcs.pc[LEAF];

/*
 * Chain leaf -> mid -> top, and top -> root when @with_root. Counters
 * take their members from pcs.obj[] when the harness has memory.
 */
static void chain_init(bool with_root)
{
	struct coh_field *f[NR_LEVELS][NR_PC_MEMBERS];
	unsigned int l, i;

	for (l = 0; l < NR_LEVELS; l++)
		for (i = 0; i < NR_PC_MEMBERS; i++)
			f[l][i] = h.coh ? coh_object_field(pcs.obj[l], i) :
					  NULL;
	page_counter_init(root, NULL, h.coh ? f[ROOT] : NULL);
	page_counter_init(top, with_root ? root : NULL, h.coh ? f[TOP] : NULL);
	page_counter_init(mid, top, h.coh ? f[MID] : NULL);
	page_counter_init(leaf, mid, h.coh ? f[LEAF] : NULL);
}

/* No machine: every member access is free (h.coh NULL). */
static void setup_bare(void)
{
	harness_setup_bare(1, 4096);
	memset(&pcs, 0, sizeof(pcs));
	chain_init(false);
}

/*
 * The 14 members at the offsets of @pcl, one object per level, each
 * starting on a fresh line (offset_in_line 0).
 */
static void setup_memory_layout(const struct page_counter_layout *pcl)
{
	static const char *const names[NR_LEVELS] = { "root", "top", "mid",
						      "leaf" };
	unsigned int i;

	memset(&h, 0, sizeof(h));
	load_profile("skx-2s-72", &h.m);
	/*
	 * The costs below are worked out without the spatial prefetcher,
	 * whose pair requests (lines 0 and 1 of each counter are a 128-byte
	 * pair) tests/check_contended.c works out by hand.
	 */
	h.m.adjacent_line_prefetch = false;
	harness_setup(NULL, 1, 4096);
	memset(&pcs, 0, sizeof(pcs));
	for (i = 0; i < NR_PC_MEMBERS; i++)
		pcs.fields[i] =
			(struct coh_layout_field){ page_counter_member_names[i],
						   pcl->offset[i], 8 };
	pcs.layout = (struct coh_layout){ .name = "page_counter",
					  .size = pcl->size,
					  .nr_fields = NR_PC_MEMBERS,
					  .fields = pcs.fields };
	for (i = 0; i < NR_LEVELS; i++)
		pcs.obj[i] = coh_object_create(h.coh, names[i], &pcs.layout, 0);
	chain_init(false);
}

static void setup_memory(void)
{
	setup_memory_layout(&page_counter_layout_v6_0);
}

static void teardown(void)
{
	harness_teardown();
}

static bool pc_try_charge(struct page_counter *c, unsigned long n,
			  struct page_counter **fail)
{
	return HARNESS_CALL(page_counter_try_charge, 0, .counter = c,
			    .nr_pages = n, .fail = fail) != 0;
}

static void pc_uncharge(struct page_counter *c, unsigned long n)
{
	HARNESS_CALL(page_counter_uncharge, 0, .counter = c, .nr_pages = n);
}

static void pc_charge(struct page_counter *c, unsigned long n)
{
	HARNESS_CALL(page_counter_charge, 0, .counter = c, .nr_pages = n);
}

static void check_usage(long l, long m, long t)
{
	ck_assert_msg(leaf->usage == l && mid->usage == m && top->usage == t,
		      "usage leaf %ld mid %ld top %ld, expected %ld %ld %ld",
		      leaf->usage, mid->usage, top->usage, l, m, t);
	ck_assert_uint_eq(page_counter_read(leaf), (unsigned long)l);
	ck_assert_uint_eq(page_counter_read(mid), (unsigned long)m);
	ck_assert_uint_eq(page_counter_read(top), (unsigned long)t);
}

/* ---- semantics, counters without memory ---- */

/*
 * A charge counts at its level and every ancestor; an uncharge too.
 *
 *	pc_try_charge(leaf, 10)	leaf 10  mid 10  top 10
 *	pc_try_charge(mid, 5)	leaf 10  mid 15  top 15
 *	pc_charge(top, 1)		leaf 10  mid 15  top 16
 *	pc_uncharge(leaf, 4)	leaf  6  mid 11  top 12
 *	pc_uncharge(mid, 11)	leaf  6  mid  0  top  1
 *
 * Expect those values at every level, and no time spent (no memory).
 * The last step leaves mid below its child: the counters do not check
 * that, as the kernel's do not.
 */
START_TEST(page_counter_charge_hierarchy)
{
	struct page_counter *fail = NULL;

	ck_assert(pc_try_charge(leaf, 10, &fail));
	check_usage(10, 10, 10);
	ck_assert(pc_try_charge(mid, 5, &fail));
	check_usage(10, 15, 15);
	pc_charge(top, 1);
	check_usage(10, 15, 16);
	pc_uncharge(leaf, 4);
	check_usage(6, 11, 12);
	pc_uncharge(mid, 11);
	check_usage(6, 0, 1);
	ck_assert_ptr_null(fail);
	ck_assert_uint_eq(h.last_ps, 0);
	ck_assert_uint_eq(leaf->nr_warn + mid->nr_warn + top->nr_warn, 0);
}
END_TEST

/*
 * mid.max = 10. pc_try_charge(leaf, 8) fits everywhere; pc_try_charge(leaf, 5)
 * takes leaf to 13 (fine, no limit), then mid to 13 > 10:
 *
 *	leaf  8 -> 13 -> cancelled back to 8 (the undo loop)
 *	mid   8 -> 13 -> 8 (atomic_long_sub), failcnt 1, *fail = mid
 *	top   8          untouched: the walk stopped at mid
 *
 * Expect false in p->ret, those usages, and the watermarks the kernel
 * leaves: leaf's rose to 13 during the speculative charge and stays there
 * (the undo does not lower it), mid's and top's stay 8. A charge that
 * brings mid exactly to its max (2 more: 10, not > 10) then succeeds.
 */
START_TEST(page_counter_try_charge_parent_at_max)
{
	struct page_counter *fail = NULL;

	mid->max = 10;
	ck_assert(pc_try_charge(leaf, 8, &fail));
	ck_assert_ptr_null(fail);

	ck_assert(!pc_try_charge(leaf, 5, &fail));
	ck_assert_int_eq(h.proc[0].ret, 0);
	ck_assert_ptr_eq(fail, mid);
	check_usage(8, 8, 8);
	ck_assert_uint_eq(mid->failcnt, 1);
	ck_assert_uint_eq(leaf->failcnt, 0);
	ck_assert_uint_eq(top->failcnt, 0);
	ck_assert_uint_eq(leaf->watermark, 13);
	ck_assert_uint_eq(mid->watermark, 8);
	ck_assert_uint_eq(top->watermark, 8);
	ck_assert_uint_eq(leaf->nr_warn, 0);

	fail = NULL;
	ck_assert(pc_try_charge(leaf, 2, &fail));
	ck_assert_ptr_null(fail);
	check_usage(10, 10, 10);
	ck_assert_uint_eq(mid->failcnt, 1);
}
END_TEST

/*
 * A limit on the charged level itself: leaf.max = 3, pc_try_charge(leaf, 4).
 * Expect *fail = leaf, nothing charged anywhere, leaf.failcnt 1, and no
 * watermark moved (the check comes before the watermark update).
 */
START_TEST(page_counter_try_charge_self_at_max)
{
	struct page_counter *fail = NULL;

	leaf->max = 3;
	ck_assert(!pc_try_charge(leaf, 4, &fail));
	ck_assert_ptr_eq(fail, leaf);
	check_usage(0, 0, 0);
	ck_assert_uint_eq(leaf->failcnt, 1);
	ck_assert_uint_eq(mid->failcnt, 0);
	ck_assert_uint_eq(leaf->watermark, 0);
}
END_TEST

/*
 * The watermark follows the highest usage and is never lowered:
 *
 *	pc_try_charge(leaf, 10)	usage 10  watermark 10
 *	pc_try_charge(leaf, 20)	usage 30  watermark 30
 *	pc_uncharge(leaf, 25)	usage  5  watermark 30
 *	pc_try_charge(leaf, 10)	usage 15  watermark 30
 *	pc_try_charge(leaf, 20)	usage 35  watermark 35
 *
 * at every level alike.
 */
START_TEST(page_counter_watermark_not_lowered)
{
	static const struct {
		bool charge;
		unsigned long n, usage, watermark;
	} steps[] = {
		{ true, 10, 10, 10 }, { true, 20, 30, 30 },
		{ false, 25, 5, 30 }, { true, 10, 15, 30 },
		{ true, 20, 35, 35 },
	};
	struct page_counter *fail = NULL;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		if (steps[i].charge)
			ck_assert(pc_try_charge(leaf, steps[i].n, &fail));
		else
			pc_uncharge(leaf, steps[i].n);
		check_usage((long)steps[i].usage, (long)steps[i].usage,
			    (long)steps[i].usage);
		ck_assert_msg(leaf->watermark == steps[i].watermark &&
				      mid->watermark == steps[i].watermark &&
				      top->watermark == steps[i].watermark,
			      "step %u: watermarks %lu %lu %lu, expected %lu",
			      i, leaf->watermark, mid->watermark,
			      top->watermark, steps[i].watermark);
	}
}
END_TEST

/*
 * More uncharges than charges: page_counter_cancel() WARNs and sets usage
 * to 0 at the level that went negative, and only there.
 *
 *	pc_try_charge(mid, 20)	leaf  0  mid 20  top 20
 *	pc_try_charge(leaf, 10)	leaf 10  mid 30  top 30
 *	pc_uncharge(leaf, 15)	leaf -5 -> 0 (warn)  mid 15  top 15
 *	pc_uncharge(leaf, 15)	leaf -15 -> 0 (warn) mid 0   top 0
 *	pc_uncharge(leaf, 1)	every level -1 -> 0 (warn)
 *
 * Expect nr_warn 3 at leaf, 1 at mid and top (the kernel's WARN_ONCE
 * prints once; the model counts every repair).
 */
START_TEST(page_counter_uncharge_underflow)
{
	struct page_counter *fail = NULL;

	ck_assert(pc_try_charge(mid, 20, &fail));
	ck_assert(pc_try_charge(leaf, 10, &fail));
	pc_uncharge(leaf, 15);
	check_usage(0, 15, 15);
	ck_assert_uint_eq(leaf->nr_warn, 1);
	ck_assert_uint_eq(mid->nr_warn, 0);
	pc_uncharge(leaf, 15);
	check_usage(0, 0, 0);
	ck_assert_uint_eq(leaf->nr_warn, 2);
	ck_assert_uint_eq(mid->nr_warn, 0);
	pc_uncharge(leaf, 1);
	check_usage(0, 0, 0);
	ck_assert_uint_eq(leaf->nr_warn, 3);
	ck_assert_uint_eq(mid->nr_warn, 1);
	ck_assert_uint_eq(top->nr_warn, 1);
}
END_TEST

/* ---- protected usage ---- */

static void protected_init(bool if_changed)
{
	unsigned int l;

	chain_init(true);
	for (l = 0; l < NR_LEVELS; l++)
		pcs.pc[l].protected_if_changed = if_changed;
	top->min = 100;
	top->low = 200;
}

/*
 * leaf -> mid -> top -> root; top has memory.min 100 pages, memory.low
 * 200. pc_try_charge(leaf, 500): at top, min_usage = min(500, 100) = 100
 * and low_usage = min(500, 200) = 200, and root's children sums follow.
 * leaf and mid (no protection) keep 0; root has no parent and is skipped.
 * Then pc_uncharge(leaf, 450): top usage 50, both protected usages 50.
 * The same in both modes (_i: 0 always, 1 if_changed).
 */
START_TEST(propagate_protected_usage_min_low)
{
	struct page_counter *fail = NULL;

	protected_init(_i);
	ck_assert(pc_try_charge(leaf, 500, &fail));
	ck_assert_int_eq(top->min_usage, 100);
	ck_assert_int_eq(top->low_usage, 200);
	ck_assert_int_eq(root->children_min_usage, 100);
	ck_assert_int_eq(root->children_low_usage, 200);
	ck_assert_int_eq(mid->min_usage + mid->low_usage, 0);
	ck_assert_int_eq(top->children_min_usage + top->children_low_usage, 0);
	ck_assert_int_eq(root->usage, 500);

	pc_uncharge(leaf, 450);
	ck_assert_int_eq(top->min_usage, 50);
	ck_assert_int_eq(top->low_usage, 50);
	ck_assert_int_eq(root->children_min_usage, 50);
	ck_assert_int_eq(root->children_low_usage, 50);
}
END_TEST

/*
 * The xchg()s of propagate_protected_usage(), on the hierarchy above:
 * 10 pc_try_charge(leaf, 50), then 10 pc_uncharge(leaf, 50). Only top has
 * min/low (leaf and mid have neither, nor any protected usage; root has
 * no parent), so only top exchanges.
 *
 * always (v6.0): 2 xchg (min_usage, low_usage) at top on each of the 20
 * calls, changed or not: 40.
 *
 * if_changed (v6.1): only when min(usage, min) or min(usage, low) moves.
 *
 *	charge k   top usage   min_usage     low_usage
 *	1          50          0->50   x     0->50    x
 *	2          100         50->100 x     50->100  x
 *	3          150         100           100->150 x
 *	4          200         100           150->200 x
 *	5..10      250..500    100           200
 *	uncharge j
 *	1..6       450..200    100           200
 *	7          150         100           200->150 x
 *	8          100         100           150->100 x
 *	9          50          100->50 x     100->50  x
 *	10         0           50->0   x     50->0    x
 *
 * charges 2 + 4, uncharges 2 + 4: 12. Every one of those changes a
 * value, so root's children sums are back to 0 at the end either way.
 */
START_TEST(propagate_protected_usage_xchg_count)
{
	static const uint64_t expect[2] = { 40, 12 };
	struct page_counter *fail = NULL;
	unsigned int i;

	protected_init(_i);
	for (i = 0; i < 10; i++)
		ck_assert(pc_try_charge(leaf, 50, &fail));
	ck_assert_uint_eq(top->nr_xchg, _i ? 6 : 20);
	ck_assert_int_eq(root->children_min_usage, 100);
	ck_assert_int_eq(root->children_low_usage, 200);
	for (i = 0; i < 10; i++)
		pc_uncharge(leaf, 50);
	ck_assert_uint_eq(top->nr_xchg, expect[_i]);
	ck_assert_uint_eq(leaf->nr_xchg + mid->nr_xchg + root->nr_xchg, 0);
	ck_assert_int_eq(root->children_min_usage, 0);
	ck_assert_int_eq(root->children_low_usage, 0);
	ck_assert_int_eq(top->min_usage + top->low_usage, 0);
}
END_TEST

/* ---- layouts ---- */

/*
 * v6.0: the 14 members in declaration order, 8 bytes each: member k at
 * 8k, 112 bytes, no alignment beyond 8.
 * v6.1: usage alone on line 0; _pad1_ (aligned 64) puts emin at 64, then
 * min_usage .. failcnt at 72 .. 120; _pad2_ puts min at 128, then low
 * 136, high 144, max 152, parent 160; 168 rounded up to the 64-byte
 * alignment: 192.
 */
static const unsigned int v60_offsets[NR_PC_MEMBERS] = {
	[PC_USAGE] = 0,
	[PC_MIN] = 8,
	[PC_LOW] = 16,
	[PC_HIGH] = 24,
	[PC_MAX] = 32,
	[PC_EMIN] = 40,
	[PC_MIN_USAGE] = 48,
	[PC_CHILDREN_MIN_USAGE] = 56,
	[PC_ELOW] = 64,
	[PC_LOW_USAGE] = 72,
	[PC_CHILDREN_LOW_USAGE] = 80,
	[PC_WATERMARK] = 88,
	[PC_FAILCNT] = 96,
	[PC_PARENT] = 104,
};

static const unsigned int v61_offsets[NR_PC_MEMBERS] = {
	[PC_USAGE] = 0,
	[PC_EMIN] = 64,
	[PC_MIN_USAGE] = 72,
	[PC_CHILDREN_MIN_USAGE] = 80,
	[PC_ELOW] = 88,
	[PC_LOW_USAGE] = 96,
	[PC_CHILDREN_LOW_USAGE] = 104,
	[PC_WATERMARK] = 112,
	[PC_FAILCNT] = 120,
	[PC_MIN] = 128,
	[PC_LOW] = 136,
	[PC_HIGH] = 144,
	[PC_MAX] = 152,
	[PC_PARENT] = 160,
};

static void check_layout(const struct page_counter_layout *l, unsigned int size,
			 unsigned int align, const unsigned int *offsets)
{
	unsigned int i;

	ck_assert_uint_eq(l->size, size);
	ck_assert_uint_eq(l->align, align);
	for (i = 0; i < NR_PC_MEMBERS; i++)
		ck_assert_msg(l->offset[i] == offsets[i],
			      "'%s' at %u, expected %u",
			      page_counter_member_names[i], l->offset[i],
			      offsets[i]);
}

/* Expect the two built-in layouts to be the tables above, and usable. */
START_TEST(page_counter_layout_v6_0_v6_1)
{
	char why[160] = "";

	check_layout(&page_counter_layout_v6_0, 112, 8, v60_offsets);
	check_layout(&page_counter_layout_v6_1, 192, 64, v61_offsets);
	ck_assert_int_eq(page_counter_layout_check(&page_counter_layout_v6_0,
						   why, sizeof(why)),
			 0);
	ck_assert_int_eq(page_counter_layout_check(&page_counter_layout_v6_1,
						   why, sizeof(why)),
			 0);
}
END_TEST

/*
 * page_counter_layout_check() refuses, each with its message:
 *	min moved onto usage (offset 0)		an overlap
 *	parent at 112 in a 112-byte struct	outside the struct
 *	low at 20				not 8-byte aligned
 *	alignment 32				neither 8 nor 64
 */
START_TEST(page_counter_layout_check_rejects)
{
	struct page_counter_layout l;
	char why[160];

	l = page_counter_layout_v6_0;
	l.offset[PC_MIN] = 0;
	ck_assert_int_eq(page_counter_layout_check(&l, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "'usage' and 'min' overlap at offset 0");

	l = page_counter_layout_v6_0;
	l.offset[PC_PARENT] = 112;
	ck_assert_int_eq(page_counter_layout_check(&l, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "'parent' at offset 112 is not an aligned "
			      "8-byte member inside a 112-byte struct");

	l = page_counter_layout_v6_0;
	l.offset[PC_LOW] = 20;
	ck_assert_int_eq(page_counter_layout_check(&l, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "'low' at offset 20 is not an aligned "
			      "8-byte member inside a 112-byte struct");

	l = page_counter_layout_v6_1;
	l.align = 32;
	ck_assert_int_eq(page_counter_layout_check(&l, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "alignment 32 is neither 8 nor 64");
}
END_TEST

/* About 20 KiB: static, not on the stack. */
static struct pahole_struct ps;

static void pahole_fixture(const char *name, char *path, size_t len)
{
	const char *t = getenv("top_srcdir");
	struct sim_error err;

	snprintf(path, len, "%s/tests/data/pahole/%s", t && t[0] ? t : ".",
		 name);
	sim_error_clear(&err);
	ck_assert_msg(pahole_load(path, "page_counter", &ps, &err) == 0,
		      "%s: %s:%u:%u: %s", path, err.file, err.line, err.col,
		      err.msg);
}

/*
 * Real pahole output (tests/data/pahole/README) of the two shapes. Expect
 * the hand-worked tables above; v6.1's _pad1_ (size 0 at 64) makes the
 * alignment 64, and --hex output gives the same.
 */
START_TEST(page_counter_layout_from_pahole_v6_0_v6_1)
{
	static const struct {
		const char *file;
		unsigned int size, align;
		const unsigned int *offsets;
	} cases[] = {
		{ "page_counter-v6.0.txt", 112, 8, v60_offsets },
		{ "page_counter-v6.0-expand.txt", 112, 8, v60_offsets },
		{ "page_counter-v6.1.txt", 192, 64, v61_offsets },
		{ "page_counter-v6.1-hex.txt", 192, 64, v61_offsets },
	};
	struct page_counter_layout l;
	struct sim_error err;
	char path[512];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		pahole_fixture(cases[i].file, path, sizeof(path));
		sim_error_clear(&err);
		ck_assert_msg(page_counter_layout_from_pahole(&ps, path, &l,
							      &err) == 0,
			      "%s: %s", cases[i].file, err.msg);
		check_layout(&l, cases[i].size, cases[i].align,
			     cases[i].offsets);
	}
}
END_TEST

/*
 * A struct page_counter with only usage, max, watermark, failcnt and
 * parent. Expect a refusal naming the first missing member (min, in
 * member order) and the file.
 */
START_TEST(page_counter_layout_from_pahole_missing_member)
{
	struct page_counter_layout l;
	struct sim_error err;
	char path[512];

	pahole_fixture("page_counter-partial.txt", path, sizeof(path));
	sim_error_clear(&err);
	ck_assert_int_eq(page_counter_layout_from_pahole(&ps, path, &l, &err),
			 -1);
	ck_assert_str_eq(err.msg, "struct page_counter has no member 'min': "
				  "not a struct page_counter");
	ck_assert_str_eq(err.file, path);
}
END_TEST

/* ---- cost, on skx-2s-72 ---- */

/*
 * One CPU charges a fresh leaf -> mid -> top (top without parent), v6.0
 * layout, each counter starting on its own line:
 *
 *	line 0: usage min low high max emin min_usage children_min_usage
 *	line 1: elow low_usage children_low_usage watermark failcnt parent
 *
 * skx-2s-72: l1_hit 1.6 ns, rmw_local 7.0 ns, memory 81.4 ns. Nothing
 * is cached: the first access to each line comes from memory (a line
 * nobody holds arrives Exclusive, so later stores to it are hits).
 *
 * First pc_try_charge(leaf, 1). At a level with a parent (leaf, mid), from
 * the time T its RMW is issued:
 *
 *	usage   RMW   line 0 from memory, the CPU waits	T + 81400
 *	max     read  hit					+ 1600
 *	parent  read  line 1 miss, posted (issue slot)		+ 1600
 *	              (arrives 1600 + 81400 after the RMW completes)
 *	min, min_usage, low: hits; low_usage, watermark:
 *	merge into the line 1 miss; watermark store: hit;
 *	parent read: merges				7 x 1600
 *	next level's RMW waits for the posted miss:
 *	              T + 81400 + 1600 + 81400 = T + 164400
 *
 * top: the same up to its parent read, which finds NULL and returns from
 * propagate_protected_usage(); the function's return (the fence) waits
 * for line 1: T + 81400 + 1600 + 81400 = T + 164400 as well.
 *
 *	3 x 164400 = 493200 ps
 *
 * Second pc_try_charge(leaf, 1): every line owned, nothing pending.
 *	leaf, mid: RMW 7000 + 9 hits (max, parent, min, min_usage, low,
 *	           low_usage, watermark read, watermark store, parent)
 *	           = 7000 + 14400 = 21400 each
 *	top:       RMW 7000 + 5 hits (max, parent, watermark read and
 *	           store, parent) = 15000
 *	2 x 21400 + 15000 = 57800 ps
 *
 * Expect those, and each of the 6 lines brought from memory once, plus
 * the instructions (models/kernel/sim/insn-costs-6.1.tsv, at skx-2s-72's
 * insn latency 0.471 ns): page_counter_try_charge/call 5, its level row
 * 14 at each of the 3 levels, and propagate_protected_usage/call 16 at
 * each (every level supports protection): 5 + 3 x (14 + 16) = 95
 * instructions, 95 x 471 = 44745 ps on each charge.
 */
START_TEST(page_counter_try_charge_cost_uncontended)
{
	struct page_counter *fail = NULL;
	unsigned int l;

	ck_assert(pc_try_charge(leaf, 1, &fail));
	ck_assert_uint_eq(h.last_ps, 493200 + 95 * 471);
	ck_assert(pc_try_charge(leaf, 1, &fail));
	ck_assert_uint_eq(h.last_ps, 57800 + 95 * 471);
	check_usage(2, 2, 2);
	for (l = TOP; l <= LEAF; l++) {
		struct coh_line *l0 = pcs.pc[l].f[PC_USAGE]->line;
		struct coh_line *l1 = pcs.pc[l].f[PC_PARENT]->line;

		ck_assert_ptr_ne(l0, l1);
		ck_assert_uint_eq(l0->transfers, 1);
		ck_assert_uint_eq(l0->xfer_by_dist[NR_COH_DIST], 1);
		ck_assert_uint_eq(l1->transfers, 1);
		ck_assert_uint_eq(l1->xfer_by_dist[NR_COH_DIST], 1);
	}
	/* root's lines were never touched */
	ck_assert_uint_eq(pcs.pc[ROOT].f[PC_USAGE]->line->transfers, 0);
}
END_TEST

static uint64_t rmws_on_all_lines(void)
{
	unsigned int i, n = coh_nr_lines(h.coh);
	struct coh_line **lines = calloc(n, sizeof(*lines));
	uint64_t sum = 0;

	ck_assert_ptr_nonnull(lines);
	coh_lines_sorted(h.coh, lines, n);
	for (i = 0; i < n; i++)
		sum += lines[i]->ops[COH_RMW];
	free(lines);
	return sum;
}

static uint64_t field_rmws(struct page_counter *c, enum page_counter_member m)
{
	struct coh_field *f = c->f[m];

	return f->line->fields[f->slot].ops[COH_RMW];
}

/*
 * The same 10 charges and 10 uncharges of 50 pages as
 * propagate_protected_usage_xchg_count, now in memory, counting the
 * locked RMWs the lines see:
 *
 *	usage add_return / sub_return: 4 levels (leaf, mid, top,
 *	root) x 20 calls					80
 *	root's children_{min,low}_usage adds: one per change	12
 *	top's xchg()s: always 40, if_changed 12
 *
 * Expect 132 RMWs in always, 104 in if_changed: the difference, 28, is
 * exactly the xchg()s if_changed saves.
 */
START_TEST(propagate_protected_usage_rmw_lines)
{
	uint64_t rmws[2];
	struct page_counter *fail = NULL;
	unsigned int mode, i;

	for (mode = 0; mode < 2; mode++) {
		if (mode) {
			teardown();
			setup_memory();
		}
		protected_init(mode);
		for (i = 0; i < 10; i++)
			ck_assert(pc_try_charge(leaf, 50, &fail));
		for (i = 0; i < 10; i++)
			pc_uncharge(leaf, 50);
		rmws[mode] = rmws_on_all_lines();
		ck_assert_uint_eq(top->nr_xchg, mode ? 12 : 40);
		/* and they are the RMWs on top's min_usage and low_usage */
		ck_assert_uint_eq(field_rmws(top, PC_MIN_USAGE) +
					  field_rmws(top, PC_LOW_USAGE),
				  top->nr_xchg);
	}
	ck_assert_uint_eq(rmws[0], 132);
	ck_assert_uint_eq(rmws[1], 104);
	ck_assert_uint_eq(rmws[0] - rmws[1], 40 - 12);
}
END_TEST

static Suite *page_counter_suite(void)
{
	Suite *s = suite_create("page_counter");
	TCase *tc = tcase_create("semantics");

	tcase_add_checked_fixture(tc, setup_bare, teardown);
	tcase_add_test(tc, page_counter_charge_hierarchy);
	tcase_add_test(tc, page_counter_try_charge_parent_at_max);
	tcase_add_test(tc, page_counter_try_charge_self_at_max);
	tcase_add_test(tc, page_counter_watermark_not_lowered);
	tcase_add_test(tc, page_counter_uncharge_underflow);
	tcase_add_loop_test(tc, propagate_protected_usage_min_low, 0, 2);
	tcase_add_loop_test(tc, propagate_protected_usage_xchg_count, 0, 2);
	suite_add_tcase(s, tc);

	tc = tcase_create("layouts");
	tcase_add_test(tc, page_counter_layout_v6_0_v6_1);
	tcase_add_test(tc, page_counter_layout_check_rejects);
	tcase_add_test(tc, page_counter_layout_from_pahole_v6_0_v6_1);
	tcase_add_test(tc, page_counter_layout_from_pahole_missing_member);
	suite_add_tcase(s, tc);

	tc = tcase_create("cost");
	tcase_add_checked_fixture(tc, setup_memory, teardown);
	tcase_add_test(tc, page_counter_try_charge_cost_uncontended);
	tcase_add_test(tc, propagate_protected_usage_rmw_lines);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(page_counter_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
