// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_config.c - the `kernel:` keys (models/kernel/sim/config.c): the
 * defaults, each as Linux has it at the version the table says; the table
 * itself (names once, defaults in range); version-dependent defaults and
 * a key given on its own winning over them; ranges at their boundaries;
 * enum names; unknown keys with their suggestion; and file:line:col in
 * every error.
 *
 * The expected values come from the kernel sources, not from the table:
 * MEMCG_CHARGE_BATCH is 32 in include/linux/memcontrol.h up to v6.0;
 * v6.0's memcg keeps all NR_VM_EVENT_ITEMS per CPU (about 110 on a distro
 * configuration), v6.6 the 19 memcg_vm_event_stat[] entries, v6.8 22;
 * NR_VM_NODE_STAT_ITEMS is 43 and MEMCG_NR_STAT 7 more; the periodic
 * flusher runs every 2 s (FLUSH_TIME).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/kernel/sim/config.h"
#include "sim/engine.h"
#include "sim/scenario.h"
#include "tests/scenario_test.h"

/* Load "kernel:\n" @body ("  key: value" lines) into @k; 0 or -1. */
static int load(const char *body, struct kernel_config *k,
		struct sim_error *err)
{
	char text[2048];
	struct scenario_node *root;
	int ret;

	snprintf(text, sizeof(text), "kernel:\n%s", body);
	root = scenario_parse_string("t.yaml", text, err);
	ck_assert_msg(root, "parse failed: %s", err_line(err));
	ret = kernel_config_load(k, root, err);
	scenario_free(root);
	return ret;
}

static void load_ok(const char *body, struct kernel_config *k)
{
	struct sim_error err;

	sim_error_clear(&err);
	ck_assert_msg(!load(body, k, &err), "%s: %s", body, err_line(&err));
}

static void load_fails(const char *body, const char *expect)
{
	struct kernel_config k;
	struct sim_error err;

	sim_error_clear(&err);
	ck_assert_msg(load(body, &k, &err), "%s: accepted", body);
	ck_assert_str_eq(err_line(&err), expect);
}

START_TEST(defaults_are_v6_0)
{
	struct kernel_config k;

	kernel_config_defaults(&k);
	ck_assert(!k.memcg_disabled);
	ck_assert_uint_eq(k.charge_batch, 32);
	ck_assert_uint_eq(k.stock_memcgs, 1);
	ck_assert_int_eq(k.page_counter_layout, PC_LAYOUT_V6_0);
	ck_assert_int_eq(k.memory_offset, -1); /* by layout */
	ck_assert_uint_eq(k.cgroup_version, 2);
	/* v1 charges no socket memory until memory.kmem.tcp is limited */
	ck_assert(!k.tcpmem_active);
	ck_assert_uint_eq(k.reclaim_ps, 1000 * SIM_PS_PER_NS);
	ck_assert_uint_eq(k.sk_reclaim, 0); /* page */
	ck_assert_int_eq(k.protected_usage_update, PROTECTED_ALWAYS);
	ck_assert_int_eq(k.kmem_accounting, KMEM_OFF);
	ck_assert_int_eq(k.stats_version, STATS_V6_0);
	ck_assert_int_eq(k.stats_flush_threshold, FLUSH_GLOBAL);
	ck_assert_int_eq(k.stats_updates_atomic, STATS_ATOMIC_ALWAYS);
	ck_assert_int_eq(k.local_stats, LOCAL_PERCPU_SUM);
	ck_assert_uint_eq(k.stats_flush_period_ms, 2000);
	ck_assert_uint_eq(k.lruvec_stat_items, 43);
	ck_assert_uint_eq(k.memcg_stat_items, 50);
	ck_assert_uint_eq(k.memcg_event_items, 110);
	/* slab statistics in the stock since v5.14; its own stock at v6.16 */
	ck_assert_int_eq(k.obj_stock_version, OBJ_STOCK_V6_0);
	ck_assert(k.stats_flush_skip);
	ck_assert(!k.stats_parent_walk_memcg);
}
END_TEST

/* No `kernel:` and an empty one give the same bytes as the defaults. */
START_TEST(absent_kernel_map_is_defaults)
{
	struct kernel_config def, k;
	struct scenario_node *root;
	struct sim_error err;

	kernel_config_defaults(&def);
	root = scenario_parse_string("t.yaml", "scenario: t\n", &err);
	ck_assert_ptr_nonnull(root);
	ck_assert_int_eq(kernel_config_load(&k, root, &err), 0);
	scenario_free(root);
	ck_assert(!memcmp(&def, &k, sizeof(k)));
	load_ok("  {}\n", &k);
	ck_assert(!memcmp(&def, &k, sizeof(k)));
}
END_TEST

START_TEST(table_is_sound)
{
	unsigned int nr, i, j, v;
	const struct kernel_key *keys = kernel_keys(&nr);

	ck_assert_uint_eq(nr, 31);
	for (i = 0; i < nr; i++) {
		const struct kernel_key *key = &keys[i];

		ck_assert_msg(key->doc && key->doc[0], "%s: no doc", key->name);
		ck_assert_ptr_eq(kernel_key_find(key->name), key);
		for (j = 0; j < i; j++)
			ck_assert_str_ne(keys[j].name, key->name);
		for (v = 0; v < NR_STATS_VERSIONS; v++) {
			int64_t d = key->def[v];

			if (key->type == KEY_ENUM)
				ck_assert_msg(
					d >= 0 && d < (int64_t)key->nr_names,
					"%s", key->name);
			else if ((key->type == KEY_U32 ||
				  key->type == KEY_TIME) &&
				 !key->optional)
				ck_assert_msg(d >= (int64_t)key->min &&
						      d <= (int64_t)key->max,
					      "%s: default %lld out of range",
					      key->name, (long long)d);
		}
	}
	ck_assert_ptr_null(kernel_key_find("nokey"));
}
END_TEST

START_TEST(stats_version_sets_defaults)
{
	struct kernel_config k;

	load_ok("  stats_version: v6.6\n", &k);
	ck_assert_uint_eq(k.memcg_event_items, 19);
	ck_assert_int_eq(k.stats_updates_atomic, STATS_ATOMIC_BELOW_THRESHOLD);
	ck_assert_int_eq(k.stats_flush_threshold, FLUSH_GLOBAL);
	ck_assert_int_eq(k.local_stats, LOCAL_AGGREGATED);
	ck_assert(k.stats_flush_skip);
	load_ok("  stats_version: v6.8\n", &k);
	ck_assert_uint_eq(k.memcg_event_items, 22);
	ck_assert_int_eq(k.stats_updates_atomic, STATS_ATOMIC_BELOW_THRESHOLD);
	ck_assert_int_eq(k.stats_flush_threshold, FLUSH_PER_MEMCG);
	ck_assert_int_eq(k.local_stats, LOCAL_AGGREGATED);
	ck_assert(!k.stats_flush_skip);
	/* The keys the version does not touch keep v6.0's. */
	ck_assert_uint_eq(k.charge_batch, 32);
	ck_assert_uint_eq(k.lruvec_stat_items, 43);
	ck_assert_uint_eq(k.memcg_stat_items, 50);
}
END_TEST

/* A key given on its own wins, whether it comes before or after. */
START_TEST(own_key_wins_over_version)
{
	struct kernel_config k;

	load_ok("  local_stats: percpu_sum\n  stats_version: v6.8\n"
		"  stats_flush_skip: true\n  memcg_event_items: 40\n",
		&k);
	ck_assert_int_eq(k.stats_version, STATS_V6_8);
	ck_assert_int_eq(k.local_stats, LOCAL_PERCPU_SUM);
	ck_assert(k.stats_flush_skip);
	ck_assert_uint_eq(k.memcg_event_items, 40);
	ck_assert_int_eq(k.stats_flush_threshold, FLUSH_PER_MEMCG);
}
END_TEST

/*
 * version: sets every default as that kernel has it, from the kernel
 * sources (not from the preset table): MEMCG_CHARGE_BATCH 32 up to v6.0,
 * 64 from v6.1 (1813e51eece0); NR_MEMCG_STOCK 7 in the multi-memcg stock
 * (v6.16, so stable); struct page_counter rearranged and min/low_usage
 * exchanged only when changed from v6.1; af_unix pages charged whole in
 * v4.8 and slab objects through obj_cgroup from v5.9; socket forward
 * allocation returned past 2 MB up to v5.19, per page from 6.0-rc1; the
 * statistics as stats_version v6.0 (v4.8, v6.0, v6.1 with the v6.1
 * below_threshold read), v6.6 and v6.8 (v6.8 and stable); the fair
 * class's pick CFS up to v6.1 (and v6.5), EEVDF from v6.6-rc1
 * (147f3efaa241 "sched/fair: Implement an EEVDF-like scheduling policy").
 */
START_TEST(version_sets_defaults)
{
	struct kernel_config k;

	load_ok("  version: v4.8\n", &k);
	ck_assert_int_eq(k.version, KV_4_8);
	ck_assert_uint_eq(k.charge_batch, 32);
	ck_assert_uint_eq(k.stock_memcgs, 1);
	ck_assert_int_eq(k.kmem_accounting, KMEM_PAGES);
	ck_assert_uint_eq(k.sk_reclaim, 1); /* SK_RECLAIM_QUANTUM */
	ck_assert_int_eq(k.page_counter_layout, PC_LAYOUT_V6_0);
	ck_assert_int_eq(k.stats_version, STATS_V6_0);
	ck_assert_int_eq(k.obj_stock_version, OBJ_STOCK_V5_13);

	load_ok("  version: v6.0\n", &k);
	ck_assert_uint_eq(k.charge_batch, 32);
	ck_assert_int_eq(k.protected_usage_update, PROTECTED_ALWAYS);
	ck_assert_int_eq(k.kmem_accounting, KMEM_OBJECTS);
	ck_assert_uint_eq(k.sk_reclaim, 0); /* SK_RECLAIM_PAGE */
	ck_assert_int_eq(k.stats_updates_atomic, STATS_ATOMIC_ALWAYS);

	load_ok("  version: v6.1\n", &k);
	ck_assert_uint_eq(k.charge_batch, 64);
	ck_assert_int_eq(k.page_counter_layout, PC_LAYOUT_V6_1);
	ck_assert_int_eq(k.protected_usage_update, PROTECTED_IF_CHANGED);
	ck_assert_int_eq(k.stats_version, STATS_V6_0);
	ck_assert_int_eq(k.stats_updates_atomic, STATS_ATOMIC_BELOW_THRESHOLD);
	ck_assert_uint_eq(k.memcg_event_items, 110);
	ck_assert_int_eq(k.sched_class, SCHED_CLASS_CFS);

	load_ok("  version: v6.6\n", &k);
	ck_assert_int_eq(k.sched_class, SCHED_CLASS_EEVDF);
	ck_assert_int_eq(k.stats_version, STATS_V6_6);
	ck_assert_int_eq(k.local_stats, LOCAL_AGGREGATED);
	ck_assert_uint_eq(k.memcg_event_items, 19);
	ck_assert_uint_eq(k.stock_memcgs, 1);

	load_ok("  version: v6.8\n", &k);
	ck_assert_int_eq(k.stats_flush_threshold, FLUSH_PER_MEMCG);
	ck_assert(!k.stats_flush_skip);
	ck_assert_uint_eq(k.stock_memcgs, 1);

	load_ok("  version: stable\n", &k);
	ck_assert_uint_eq(k.charge_batch, 64);
	ck_assert_uint_eq(k.stock_memcgs, 7);
	ck_assert_int_eq(k.page_counter_layout, PC_LAYOUT_V6_1);
	ck_assert_int_eq(k.stats_flush_threshold, FLUSH_PER_MEMCG);
	ck_assert_uint_eq(k.memcg_event_items, 22);
	ck_assert_int_eq(k.obj_stock_version, OBJ_STOCK_V6_16);
	ck_assert_int_eq(k.sched_class, SCHED_CLASS_EEVDF);
	/* what no version sets keeps the table's default */
	ck_assert_uint_eq(k.cgroup_version, 2);
	/* v1 charges no socket memory until memory.kmem.tcp is limited */
	ck_assert(!k.tcpmem_active);
	ck_assert_uint_eq(k.stats_flush_period_ms, 2000);
}
END_TEST

/*
 * Under a version, a key given on its own wins, before or after it, and
 * stats_version given on its own sets the statistics keys the version
 * leaves; without version nothing moves from the model's defaults.
 */
START_TEST(own_key_wins_over_kernel_version)
{
	struct kernel_config k, d;

	load_ok("  charge_batch: 32\n  version: stable\n  stock_memcgs: 1\n",
		&k);
	ck_assert_uint_eq(k.charge_batch, 32);
	ck_assert_uint_eq(k.stock_memcgs, 1);
	ck_assert_int_eq(k.page_counter_layout, PC_LAYOUT_V6_1);

	load_ok("  version: v6.8\n  sched_class: cfs\n", &k);
	ck_assert_int_eq(k.sched_class, SCHED_CLASS_CFS);

	load_ok("  version: v6.0\n  stats_version: v6.8\n", &k);
	ck_assert_uint_eq(k.charge_batch, 32);
	ck_assert_int_eq(k.stats_flush_threshold, FLUSH_PER_MEMCG);
	ck_assert_uint_eq(k.memcg_event_items, 22);

	load_ok("  version: none\n", &k);
	kernel_config_defaults(&d);
	ck_assert(!memcmp(&k, &d, sizeof(k)));
	load_fails(
		"  version: v6.2\n",
		"t.yaml:2:12: error: key 'kernel.version': expected one of 'none', 'v4.8', 'v6.0', 'v6.1', 'v6.6', 'v6.8', 'stable', found 'v6.2'; did you mean 'v6.0'?");
}
END_TEST

/* MEMCG_NR_STAT is the node items plus 7, whatever their number. */
START_TEST(memcg_stat_items_follow_lruvec)
{
	struct kernel_config k;

	load_ok("  lruvec_stat_items: 30\n", &k);
	ck_assert_uint_eq(k.memcg_stat_items, 37);
	load_ok("  lruvec_stat_items: 30\n  memcg_stat_items: 35\n", &k);
	ck_assert_uint_eq(k.memcg_stat_items, 35);
}
END_TEST

START_TEST(each_type_sets_its_member)
{
	struct kernel_config k;

	load_ok("  memcg: disabled\n  charge_batch: 64\n  stock_memcgs: 7\n"
		"  page_counter_layout: v6.1\n  memory_offset: 8\n"
		"  cgroup_version: 1\n  reclaim_ns: 2 us\n"
		"  sk_reclaim: quantum\n  kmem_accounting: objects\n"
		"  protected_usage_update: if_changed\n"
		"  stats_flush_period_ms: 500\n"
		"  stats_parent_walk: parent_mem_cgroup\n",
		&k);
	ck_assert(k.memcg_disabled);
	ck_assert_uint_eq(k.charge_batch, 64);
	ck_assert_uint_eq(k.stock_memcgs, 7);
	ck_assert_int_eq(k.page_counter_layout, PC_LAYOUT_V6_1);
	ck_assert_int_eq(k.memory_offset, 8);
	ck_assert_uint_eq(k.cgroup_version, 1);
	ck_assert_uint_eq(k.reclaim_ps, 2 * SIM_PS_PER_US);
	ck_assert_uint_eq(k.sk_reclaim, 1);
	ck_assert_int_eq(k.kmem_accounting, KMEM_OBJECTS);
	ck_assert_int_eq(k.protected_usage_update, PROTECTED_IF_CHANGED);
	ck_assert_uint_eq(k.stats_flush_period_ms, 500);
	ck_assert(k.stats_parent_walk_memcg);
	/* reclaim_ns without a unit is in ns, to the picosecond */
	load_ok("  reclaim_ns: 1.5\n", &k);
	ck_assert_uint_eq(k.reclaim_ps, 1500);
}
END_TEST

/* Each range at both ends: the last value in, the first one out. */
START_TEST(ranges_at_their_ends)
{
	struct kernel_config k;

	load_ok("  charge_batch: 1\n", &k);
	load_ok("  charge_batch: 1024\n", &k);
	ck_assert_uint_eq(k.charge_batch, 1024);
	load_fails(
		"  charge_batch: 0\n",
		"t.yaml:2:17: error: key 'kernel.charge_batch': expected an integer from 1 to 1024, found '0'");
	load_fails(
		"  charge_batch: 1025\n",
		"t.yaml:2:17: error: key 'kernel.charge_batch': expected an integer from 1 to 1024, found '1025'");
	load_ok("  stock_memcgs: 8\n", &k);
	load_fails(
		"  stock_memcgs: 9\n",
		"t.yaml:2:17: error: key 'kernel.stock_memcgs': expected an integer from 1 to 8, found '9'");
	load_ok("  memory_offset: 56\n", &k);
	ck_assert_int_eq(k.memory_offset, 56);
	load_fails(
		"  memory_offset: 60\n",
		"t.yaml:2:18: error: key 'kernel.memory_offset': 'memory_offset' must be a multiple of 8, found 60");
	load_fails(
		"  memory_offset: 64\n",
		"t.yaml:2:18: error: key 'kernel.memory_offset': expected an integer from 0 to 63, found '64'");
	load_ok("  reclaim_ns: 1 ms\n", &k);
	ck_assert_uint_eq(k.reclaim_ps, SIM_PS_PER_MS);
	load_fails(
		"  reclaim_ns: 1000001\n",
		"t.yaml:2:15: error: key 'kernel.reclaim_ns': expected a duration from 0 ps to 1 ms, found '1000001'");
	load_fails(
		"  cgroup_version: 3\n",
		"t.yaml:2:19: error: key 'kernel.cgroup_version': expected an integer from 1 to 2, found '3'");
}
END_TEST

START_TEST(wrong_types_refused)
{
	load_fails(
		"  charge_batch: many\n",
		"t.yaml:2:17: error: key 'kernel.charge_batch': expected an integer from 1 to 1024, found 'many'");
	load_fails(
		"  stats_flush_skip: 1\n",
		"t.yaml:2:21: error: key 'kernel.stats_flush_skip': expected true or false, found '1'");
	load_fails(
		"  memcg: [enabled]\n",
		"t.yaml:2:10: error: key 'kernel.memcg': expected one of 'enabled', 'disabled', found a sequence");
}
END_TEST

START_TEST(enum_names)
{
	load_fails(
		"  kmem_accounting: slab\n",
		"t.yaml:2:20: error: key 'kernel.kmem_accounting': expected one of 'off', 'pages', 'objects', found 'slab'");
	load_fails(
		"  stats_version: 6.8\n",
		"t.yaml:2:18: error: key 'kernel.stats_version': expected one of 'v6.0', 'v6.6', 'v6.8', found '6.8'; did you mean 'v6.8'?");
	load_fails(
		"  stats_flush_threshold: per-memcg\n",
		"t.yaml:2:26: error: key 'kernel.stats_flush_threshold': expected one of 'global', 'per_memcg', found 'per-memcg'; did you mean 'per_memcg'?");
}
END_TEST

/*
 * An unknown key names the nearest; of equally near ones, the first in
 * the table (so "stats_flush", a prefix of three keys, suggests
 * stats_flush_threshold as it always has).
 */
START_TEST(unknown_key_suggests)
{
	load_fails(
		"  charge_bach: 64\n",
		"t.yaml:2:3: error: unknown key 'charge_bach' in 'kernel'; did you mean 'charge_batch'?");
	load_fails(
		"  stats_flush: 1\n",
		"t.yaml:2:3: error: unknown key 'stats_flush' in 'kernel'; did you mean 'stats_flush_threshold'?");
	load_fails(
		"  stock_memcg: 2\n",
		"t.yaml:2:3: error: unknown key 'stock_memcg' in 'kernel'; did you mean 'stock_memcgs'?");
	load_fails("  swappiness: 60\n",
		   "t.yaml:2:3: error: unknown key 'swappiness' in 'kernel'");
}
END_TEST

/* The checks across keys point at the key, or at the map without it. */
START_TEST(cross_key_checks)
{
	struct kernel_config k;

	load_fails(
		"  memcg_event_items: 20\n",
		"t.yaml:2:22: error: key 'kernel.memcg_event_items': 'memcg_event_items' must be at least 21 for stats_version v6.0 (PGFAULT is event 20), found 20");
	load_ok("  stats_version: v6.6\n  memcg_event_items: 9\n", &k);
	load_fails(
		"  lruvec_stat_items: 100\n  memcg_stat_items: 104\n",
		"t.yaml:3:21: error: key 'kernel.memcg_stat_items': 'memcg_stat_items' (MEMCG_NR_STAT) must be at least 105: the 100 node items, then the memcg items up to MEMCG_KMEM; found 104");
	load_fails(
		"  page_counter_offsets: {usage: 0}\n",
		"t.yaml:2:25: error: key 'kernel.page_counter_offsets': only used with 'page_counter_layout: custom' or 'pahole'");
}
END_TEST

/* The words of `memcgsim help keys` and memcgsim(1). */
START_TEST(help_words)
{
	char buf[256];

	kernel_key_range(kernel_key_find("charge_batch"), buf, sizeof(buf));
	ck_assert_str_eq(buf, "1 to 1024");
	kernel_key_range(kernel_key_find("memory_offset"), buf, sizeof(buf));
	ck_assert_str_eq(buf, "0 to 56, a multiple of 8");
	kernel_key_range(kernel_key_find("reclaim_ns"), buf, sizeof(buf));
	ck_assert_str_eq(buf, "0 to 1000000 ns");
	kernel_key_range(kernel_key_find("kmem_accounting"), buf, sizeof(buf));
	ck_assert_str_eq(buf, "off, pages, objects");
	kernel_key_default(kernel_key_find("charge_batch"), buf, sizeof(buf));
	ck_assert_str_eq(buf, "32");
	kernel_key_default(kernel_key_find("reclaim_ns"), buf, sizeof(buf));
	ck_assert_str_eq(buf, "1000 ns");
	kernel_key_default(kernel_key_find("memcg_event_items"), buf,
			   sizeof(buf));
	ck_assert_str_eq(buf, "110 (v6.0), 19 (v6.6), 22 (v6.8)");
	kernel_key_default(kernel_key_find("stats_flush_skip"), buf,
			   sizeof(buf));
	ck_assert_str_eq(buf, "true (v6.0, v6.6), false (v6.8)");
	kernel_key_default(kernel_key_find("memcg_stat_items"), buf,
			   sizeof(buf));
	ck_assert_str_eq(buf, "lruvec_stat_items + 7");
	/* too small a buffer is cut, not overrun */
	kernel_key_default(kernel_key_find("memcg_event_items"), buf, 8);
	ck_assert_str_eq(buf, "110 (v6");
	ck_assert_str_eq(kernel_key_type_name(kernel_key_find("memcg")),
			 "enum");
}
END_TEST

/*
 * A cgroup listed with no settings ("/a:") has the kernel's defaults, as
 * one written "/a: {}": memory.min and memory.low 0, memory.high and
 * memory.max "max" (PAGE_COUNTER_MAX), nothing reclaimable. Before the
 * cgroup keys were a table, "/a:" left memory.high and memory.max at 0.
 */
START_TEST(empty_cgroup_has_defaults)
{
	static const char *const texts[] = {
		"cgroups:\n  /a:\n  /a/b: {memory.max: 4K}\n",
		"cgroups:\n  /a: {}\n  /a/b: {memory.max: 4K}\n",
	};
	unsigned int i;

	for (i = 0; i < 2; i++) {
		struct scenario_node *root;
		struct cgroup_tree t;
		struct sim_error err;

		sim_error_clear(&err);
		root = scenario_parse_string("t.yaml", texts[i], &err);
		ck_assert_ptr_nonnull(root);
		ck_assert_msg(!cgroup_tree_load(&t, root, &err), "%s",
			      err_line(&err));
		ck_assert_uint_eq(t.nr, 3);
		ck_assert_str_eq(t.cg[1].path, "/a");
		ck_assert_uint_eq(t.cg[1].min, 0);
		ck_assert_uint_eq(t.cg[1].low, 0);
		ck_assert_uint_eq(t.cg[1].high, UINT64_MAX);
		ck_assert_uint_eq(t.cg[1].max, UINT64_MAX);
		ck_assert_uint_eq(t.cg[1].reclaimable, 0);
		ck_assert_uint_eq(t.cg[2].max, 4096);
		ck_assert_uint_eq(t.cg[2].high, UINT64_MAX);
		cgroup_tree_destroy(&t);
		scenario_free(root);
	}
}
END_TEST

/* The table of a cgroup's keys is sound, in the order they are read. */
START_TEST(cgroup_key_table_sound)
{
	static const char *const want[] = { "memory.min", "memory.low",
					    "memory.high", "memory.max",
					    "reclaimable" };
	unsigned int i, nr;
	const struct scenario_key *keys = cgroup_keys(&nr);
	char why[160];

	ck_assert_msg(!scenario_keys_sound(keys, nr, why, sizeof(why)), "%s",
		      why);
	ck_assert_uint_eq(nr, 5);
	for (i = 0; i < nr; i++)
		ck_assert_str_eq(keys[i].name, want[i]);
}
END_TEST

static Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("kernel keys");

	tcase_add_test(tc, defaults_are_v6_0);
	tcase_add_test(tc, absent_kernel_map_is_defaults);
	tcase_add_test(tc, table_is_sound);
	tcase_add_test(tc, stats_version_sets_defaults);
	tcase_add_test(tc, own_key_wins_over_version);
	tcase_add_test(tc, version_sets_defaults);
	tcase_add_test(tc, own_key_wins_over_kernel_version);
	tcase_add_test(tc, memcg_stat_items_follow_lruvec);
	tcase_add_test(tc, each_type_sets_its_member);
	tcase_add_test(tc, ranges_at_their_ends);
	tcase_add_test(tc, wrong_types_refused);
	tcase_add_test(tc, enum_names);
	tcase_add_test(tc, unknown_key_suggests);
	tcase_add_test(tc, cross_key_checks);
	tcase_add_test(tc, help_words);
	tcase_add_test(tc, empty_cgroup_has_defaults);
	tcase_add_test(tc, cgroup_key_table_sound);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(config_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
