// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_kmalloc.c - the slab hooks of the kmalloc workload
 * (models/kernel/mm/memcontrol.c, memcg_slab_post_alloc_hook() and
 * memcg_slab_free_hook()) against the kernel's code at each
 * obj_stock_version: what one kmalloc() and its kfree() charge, uncharge
 * and count, worked out by hand below from mm/memcontrol.c and
 * mm/slab.h (v5.13, v6.0, v6.16).
 *
 * Every test: skx-2s-72, v6.0 knobs (charge_batch 32, cgroup v2,
 * stats_version v6.0: memcg_rstat_updated() adds abs(val) to the
 * CPU's stats_updates and, past MEMCG_CHARGE_BATCH = 32, adds x / 32 to
 * the global stats_flush_threshold, one atomic), kmem_accounting:
 * objects, the cgroups / and /a, and kmalloc(256) on CPU 0 (node 0):
 * obj_full_size = 256 + 8 = 264 bytes per object.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/cache.h"
#include "models/hw/machine.h"
#include "models/kernel/sim/config.h"
#include "models/kernel/mm/memcontrol.h"
#include "sim/co.h"
#include "sim/engine.h"
#include "sim/util.h"
#include "tests/harness.h"

#define OBJ 264 /* obj_full_size(kmalloc-256) */
#define PGDAT 1 /* node 0 + 1 */

static struct mem_cgroup *memcg_a; /* /a, once created */

/* CPU 0 of skx-2s-72, v6.0 knobs, / and /a; create() builds the world */
static void setup(void)
{
	harness_setup("skx-2s-72", 1, 8192);
	h.k.charge_batch = 32;
	h.k.cgroup_version = 2;
	h.k.kmem_accounting = KMEM_OBJECTS;
	harness_cgroup("/", -1);
	harness_cgroup("/a", 0);
}

static void create(enum kernel_obj_stock v)
{
	h.k.obj_stock_version = v;
	harness_create();
	memcg_a = memcg_sim_find(h.ms, "/a");
	ck_assert_ptr_nonnull(memcg_a);
}

static void teardown(void)
{
	harness_teardown();
}

/* kmalloc(): the pre-alloc hook, then (the freelist) the post-alloc one */
static void kmalloc_obj(void)
{
	ck_assert_int_eq(HARNESS_CALL(memcg_slab_pre_alloc_hook, 0,
				      .objcg = &memcg_a->objcg,
				      .obj_size = OBJ),
			 0);
	ck_assert_int_eq(HARNESS_CALL(memcg_slab_post_alloc_hook, 0,
				      .objcg = &memcg_a->objcg, .obj_size = OBJ,
				      .pgdat = PGDAT),
			 0);
}

static void kfree_obj(void)
{
	HARNESS_CALL(memcg_slab_free_hook, 0, .objcg = &memcg_a->objcg,
		     .obj_size = OBJ, .pgdat = PGDAT);
}

/* CPU 0's copy of /a's counter @idx (0 if never written) */
static long pcpu(int idx)
{
	struct memcg_vmstats_percpu *statc =
		memcg_a->vmstats_percpu ? memcg_a->vmstats_percpu[0] : NULL;

	return statc ? statc->state[idx] : 0;
}

static long pcpu_lruvec(int idx)
{
	struct memcg_vmstats_percpu *statc =
		memcg_a->vmstats_percpu ? memcg_a->vmstats_percpu[0] : NULL;

	return statc ? statc->lruvec[0].state[idx] : 0;
}

/* The object stock of CPU 0: memcg_stock's before v6.16 */
static struct memcg_stock_pcp *obj_stock(void)
{
	return h.ms->obj_stock ? &h.ms->obj_stock[0] : &h.ms->stock[0];
}

/*
 * v5.13, one kmalloc(256) and its kfree() from empty stocks:
 *
 * kmalloc: memcg_slab_pre_alloc_hook() -> obj_cgroup_charge(objcg, 264):
 *   consume_obj_stock(): cached_objcg NULL, miss; nr_pages = 264 >> 12
 *   = 0, nr_bytes = 264: 1 page; __memcg_kmem_charge(memcg, 1):
 *   try_charge(): consume_stock() misses, page_counter_try_charge(32)
 *   (usage 32), refill_stock(31); v2: no kmem counter, no MEMCG_KMEM
 *   in v5.13. refill_obj_stock(objcg, 4096 - 264 = 3832): the stock is
 *   not /a's: drain_obj_stock() (nothing cached), cached_objcg = objcg,
 *   nr_bytes = atomic_xchg(&objcg->nr_charged_bytes, 0) = 0; + 3832;
 *   3832 > 4096? no.
 * memcg_slab_post_alloc_hook() -> mod_objcg_state(objcg, node 0,
 *   NR_SLAB_UNRECLAIMABLE_B, 264) (mm/slab.h) -> mod_memcg_lruvec_state()
 *   -> __mod_memcg_lruvec_state(): /a's CPU 0 counter and its node-0
 *   lruvec's += 264; memcg_rstat_updated(264): stats_updates 264 > 32:
 *   atomic_add(264 / 32 = 8, &stats_flush_threshold).
 * kfree: memcg_slab_free_hook() -> obj_cgroup_uncharge(objcg, 264):
 *   refill_obj_stock(): 3832 + 264 = 4096, not > 4096: kept;
 *   mod_objcg_state(-264): both counters back to 0, another atomic (+8).
 *
 * Expect usage 32, page stock 31, object stock 4096 bytes of /a,
 * NR_SLAB_UNRECLAIMABLE_B 264 after the kmalloc and 0 after the kfree,
 * MEMCG_KMEM 0, 2 atomics (threshold 16); nothing cached in the stock's
 * statistics members.
 */
START_TEST(v5_13_one_object)
{
	create(OBJ_STOCK_V5_13);
	kmalloc_obj();
	ck_assert_int_eq(memcg_a->memory.usage, 32);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 31);
	ck_assert_ptr_eq(obj_stock()->cached_objcg, &memcg_a->objcg);
	ck_assert_uint_eq(obj_stock()->nr_bytes, 3832);
	ck_assert_int_eq(pcpu(SIM_NR_SLAB_UNRECLAIMABLE_B), OBJ);
	ck_assert_int_eq(pcpu_lruvec(SIM_NR_SLAB_UNRECLAIMABLE_B), OBJ);
	ck_assert_int_eq(memcg_a->truth.state[SIM_NR_SLAB_UNRECLAIMABLE_B],
			 OBJ);
	ck_assert_int_eq(
		h.ms->memcgs[0].truth.state[SIM_NR_SLAB_UNRECLAIMABLE_B], OBJ);
	ck_assert_uint_eq(h.ms->counts.stats_atomics, 1);

	kfree_obj();
	ck_assert_int_eq(memcg_a->memory.usage, 32);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 31);
	ck_assert_uint_eq(obj_stock()->nr_bytes, 4096);
	ck_assert_int_eq(pcpu(SIM_NR_SLAB_UNRECLAIMABLE_B), 0);
	ck_assert_int_eq(pcpu_lruvec(SIM_NR_SLAB_UNRECLAIMABLE_B), 0);
	ck_assert_int_eq(pcpu(SIM_MEMCG_KMEM), 0);
	ck_assert_uint_eq(h.ms->counts.stats_atomics, 2);
	ck_assert_int_eq(h.ms->stats_flush_threshold, 16);
	ck_assert_int_eq(obj_stock()->nr_slab_unreclaimable_b, 0);
	ck_assert_uint_eq(h.ms->counts.charges, 1);
	ck_assert_uint_eq(h.ms->counts.pc_try_charges, 1);
	ck_assert_uint_eq(h.ms->counts.uncharges, 1);
}
END_TEST

/*
 * v6.0, the same kmalloc(256) and kfree() from empty stocks:
 *
 * kmalloc: obj_cgroup_charge(objcg, 264): as v5.13 up to the page:
 *   obj_cgroup_charge_pages(): try_charge_memcg(1) (usage 32, page stock
 *   31), then memcg_account_kmem(): MEMCG_KMEM += 1 (stats_updates 1,
 *   no atomic). refill_obj_stock(objcg, 3832, allow_uncharge = false):
 *   objcg changes: replace (nr_charged_bytes is 0: not exchanged),
 *   allow_uncharge = true; 3832 not > 4096.
 * mod_objcg_state(objcg, node 0, ..., 264), v6.0 (memcontrol.c): stock
 *   caches /a; cached_pgdat NULL != node 0: nothing to flush, cache
 *   node 0; nr_slab_unreclaimable_b is 0: it becomes 264, nr = 0: no
 *   counter touched.
 * kfree: obj_cgroup_uncharge(264): 4096 bytes, kept (not > 4096);
 *   mod_objcg_state(-264): 264 - 264 = 0, |0| <= 4096: nr = 0.
 *
 * Expect usage 32, page stock 31, 4096 bytes, the stock caching 264
 * bytes of node 0 between the two calls and 0 after, the per-CPU
 * NR_SLAB_UNRECLAIMABLE_B never touched (0), MEMCG_KMEM 1 and no atomic.
 */
START_TEST(v6_0_one_object)
{
	create(OBJ_STOCK_V6_0);
	kmalloc_obj();
	ck_assert_int_eq(memcg_a->memory.usage, 32);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 31);
	ck_assert_uint_eq(obj_stock()->nr_bytes, 3832);
	ck_assert_int_eq(obj_stock()->cached_pgdat, PGDAT);
	ck_assert_int_eq(obj_stock()->nr_slab_unreclaimable_b, OBJ);
	ck_assert_int_eq(pcpu(SIM_NR_SLAB_UNRECLAIMABLE_B), 0);
	ck_assert_int_eq(pcpu(SIM_MEMCG_KMEM), 1);

	kfree_obj();
	ck_assert_int_eq(memcg_a->memory.usage, 32);
	ck_assert_uint_eq(obj_stock()->nr_bytes, 4096);
	ck_assert_int_eq(obj_stock()->nr_slab_unreclaimable_b, 0);
	ck_assert_int_eq(pcpu(SIM_NR_SLAB_UNRECLAIMABLE_B), 0);
	ck_assert_int_eq(pcpu_lruvec(SIM_NR_SLAB_UNRECLAIMABLE_B), 0);
	ck_assert_int_eq(memcg_a->truth.state[SIM_NR_SLAB_UNRECLAIMABLE_B], 0);
	ck_assert_int_eq(pcpu(SIM_MEMCG_KMEM), 1);
	ck_assert_uint_eq(h.ms->counts.stats_atomics, 0);
	ck_assert_uint_eq(h.ms->stats_updates[0], 1);
}
END_TEST

/*
 * v6.16, the same from empty stocks:
 *
 * kmalloc: __memcg_slab_post_alloc_hook() -> obj_cgroup_charge_account(
 *   objcg, 264, node 0): consume_obj_stock() on obj_stock (its own
 *   per-CPU struct) misses; obj_cgroup_charge_pages(1): usage 32, page
 *   stock 31, MEMCG_KMEM 1; refill_obj_stock(objcg, 3832, false,
 *   nr_acct 264, node 0): replace, 3832 bytes, then
 *   __account_obj_stock(264): node 0 cached, 264 batched, nr = 0.
 * kfree: __memcg_slab_free_hook() -> refill_obj_stock(objcg, 264, true,
 *   -264, node 0): 4096 bytes, kept; __account_obj_stock(-264): 0.
 *
 * Expect what v6.0 gives, but in obj_stock: memcg_stock's object members
 * untouched (no objcg, 0 bytes).
 */
START_TEST(v6_16_one_object)
{
	create(OBJ_STOCK_V6_16);
	ck_assert_ptr_nonnull(h.ms->obj_stock);
	kmalloc_obj();
	ck_assert_int_eq(memcg_a->memory.usage, 32);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 31);
	ck_assert_ptr_eq(obj_stock()->cached_objcg, &memcg_a->objcg);
	ck_assert_uint_eq(obj_stock()->nr_bytes, 3832);
	ck_assert_int_eq(obj_stock()->nr_slab_unreclaimable_b, OBJ);
	ck_assert_int_eq(pcpu(SIM_MEMCG_KMEM), 1);

	kfree_obj();
	ck_assert_uint_eq(obj_stock()->nr_bytes, 4096);
	ck_assert_int_eq(obj_stock()->nr_slab_unreclaimable_b, 0);
	ck_assert_int_eq(pcpu(SIM_NR_SLAB_UNRECLAIMABLE_B), 0);
	ck_assert_ptr_null(h.ms->stock[0].cached_objcg);
	ck_assert_uint_eq(h.ms->stock[0].nr_bytes, 0);
	ck_assert_uint_eq(h.ms->counts.stats_atomics, 0);
	ck_assert_uint_eq(h.ms->counts.uncharges, 1);
}
END_TEST

/*
 * 16 objects, then their 16 frees, v5.13 and v6.0 (loop index 0, 1):
 *
 * Charges: object 1 as above (3832 bytes); objects 2-15 are stock hits,
 * 3832 - 14 x 264 = 136 bytes; object 16 misses (136 < 264): a page
 * from the page stock (31 -> 30; v6.0: MEMCG_KMEM 2), refill 3832 with
 * allow_uncharge false: 3968.
 * Frees: 3968 + 264 = 4232 > 4096 on the first.
 *   v5.13: drain_obj_stock(): 1 page back (refill_stock: 31), 136 bytes
 *     to objcg->nr_charged_bytes, nothing cached; the second free takes
 *     them back (atomic_xchg): 136 + 264 = 400; the other 14: 400 + 14
 *     x 264 = 4096, kept. Statistics: 32 per-object updates of 264, each
 *     an atomic.
 *   v6.0: 1 page back (MEMCG_KMEM 1), 136 kept; 136 + 15 x 264 = 4096.
 *     Statistics batched: 264 x 16 = 4224 > 4096 at the 16th kmalloc,
 *     pushed (+4224, one atomic: 2 + 4224 > 32); -4224 at the 16th
 *     kfree (another: 1 + 4224 > 32).
 * Expect usage 32, page stock 31, 4096 bytes cached for /a, per-CPU
 * NR_SLAB_UNRECLAIMABLE_B 0 at the end, and 32 (v5.13) or 2 (v6.0)
 * atomics; v6.0's counter holds 4224 between the two halves.
 */
START_TEST(sixteen_objects)
{
	unsigned int i;

	create(_i ? OBJ_STOCK_V6_0 : OBJ_STOCK_V5_13);
	for (i = 0; i < 16; i++)
		kmalloc_obj();
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 30);
	ck_assert_uint_eq(obj_stock()->nr_bytes, 3968);
	ck_assert_int_eq(pcpu(SIM_NR_SLAB_UNRECLAIMABLE_B), 16 * OBJ);
	ck_assert_int_eq(pcpu(SIM_MEMCG_KMEM), _i ? 2 : 0);
	ck_assert_int_eq(obj_stock()->nr_slab_unreclaimable_b, 0);
	kfree_obj();
	if (!_i) {
		ck_assert_ptr_null(obj_stock()->cached_objcg);
		ck_assert_int_eq(memcg_a->objcg.nr_charged_bytes, 136);
	} else {
		ck_assert_uint_eq(obj_stock()->nr_bytes, 136);
		ck_assert_int_eq(obj_stock()->nr_slab_unreclaimable_b, -OBJ);
	}
	for (i = 1; i < 16; i++)
		kfree_obj();
	ck_assert_int_eq(memcg_a->memory.usage, 32);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 31);
	ck_assert_ptr_eq(obj_stock()->cached_objcg, &memcg_a->objcg);
	ck_assert_uint_eq(obj_stock()->nr_bytes, 4096);
	ck_assert_int_eq(memcg_a->objcg.nr_charged_bytes, 0);
	ck_assert_int_eq(pcpu(SIM_NR_SLAB_UNRECLAIMABLE_B), 0);
	ck_assert_int_eq(pcpu(SIM_MEMCG_KMEM), _i ? 1 : 0);
	ck_assert_uint_eq(h.ms->counts.stats_atomics, _i ? 2 : 32);
}
END_TEST

/*
 * The root memcg has no objcg (current_obj_cgroup() is NULL): a
 * kmalloc() in / charges and counts nothing. Expect no charge, no
 * statistics, an empty stock.
 */
START_TEST(root_not_accounted)
{
	create(OBJ_STOCK_V6_0);
	HARNESS_CALL(memcg_slab_post_alloc_hook, 0,
		     .objcg = &h.ms->memcgs[0].objcg, .obj_size = OBJ,
		     .pgdat = PGDAT);
	ck_assert_uint_eq(h.ms->counts.charges, 0);
	ck_assert_ptr_null(obj_stock()->cached_objcg);
	ck_assert_int_eq(
		h.ms->memcgs[0].truth.state[SIM_NR_SLAB_UNRECLAIMABLE_B], 0);
}
END_TEST

static Suite *kmalloc_suite(void)
{
	Suite *s = suite_create("kmalloc");
	TCase *tc = tcase_create("slab hooks");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, v5_13_one_object);
	tcase_add_test(tc, v6_0_one_object);
	tcase_add_test(tc, v6_16_one_object);
	tcase_add_loop_test(tc, sixteen_objects, 0, 2);
	tcase_add_test(tc, root_not_accounted);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(kmalloc_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
