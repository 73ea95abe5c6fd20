// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_workload.c - the workload registry, and the atomic_counter
 * teaching workload against arithmetic worked out by hand.
 *
 * The registry (models/workloads/registry.c) is checked against the list
 * of built-in types that workload.h documents, and each type's
 * description against what the run driver and --help rely on.
 *
 * atomic_counter runs on the test machine of tests/check_cache.c, round
 * numbers so the arithmetic is easy to follow:
 *
 *	2 sockets x 4 cores x 2 threads, threads_last numbering:
 *	  CPUs 0-3 socket 0, one LLC; CPUs 4-7 socket 1; 8-15 SMT siblings
 *	l1_hit 1 ns, rmw_local 5 ns, memory 80 ns,
 *	xfer_smt 10 ns, xfer_llc 50 ns, xfer_socket 100 ns,
 *	inval_per_sharer 2 ns, xfer_per_waiter 0 ns,
 *	occupancy 1.0, strict hand-off.
 *
 * The harness does what cmd/run/run.c does for one workload (a task per CPU,
 * parse, setup, start), without the driver, and reads the tasks' counts
 * and the run's latency statistic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "models/hw/cache.h"
#include "models/hw/machine.h"
#include "models/kernel/sim/config.h"
#include "models/workloads/workload.h"
#include "sim/engine.h"
#include "sim/scenario.h"
#include "sim/stats.h"
#include "sim/util.h"
#include "tests/harness.h"

#define NS 1000ull /* ps per ns */

/* The machine of the header comment. */
static const char machine_yaml[] =
	"name: test-2s-16\n"
	"sockets: 2\n"
	"cores_per_socket: 4\n"
	"threads_per_core: 2\n"
	"latencies:\n"
	"  l1_hit: {ns: 1, source: test}\n"
	"  llc_hit: {ns: 20, source: test}\n"
	"  memory: {ns: 80, source: test}\n"
	"  rmw_local: {ns: 5, source: test}\n"
	"  xfer_smt: {ns: 10, source: test}\n"
	"  xfer_llc: {ns: 50, source: test}\n"
	"  xfer_socket: {ns: 100, source: test}\n"
	"  inval_per_sharer: {ns: 2, source: test}\n"
	"  xfer_per_waiter: {ns: 0, source: test}\n"
	"coherence:\n"
	"  handoff: strict\n"
	"  occupancy: {fraction: 1.0, source: test}\n";

/* ---- the registry ---- */

/* The built-in types workload.h documents, in --help order. */
static const char *const builtin_names[] = {
	"atomic_counter", "false_sharing", "ops",	"reader_chain",
	"netperf",	  "page_fault",	   "fallocate", "tlb_flush",
	"hackbench",	  "stat_reader",   "kmalloc",
};

/* The ones that run the memory controller's paths (type->memcg). */
static const char *const memcg_names[] = {
	"netperf",   "page_fault",  "fallocate", "tlb_flush",
	"hackbench", "stat_reader", "kmalloc",
};

/* The keys cmd/run/run.c accepts for every workload, besides a type's own. */
static const char *const common_keys[] = { "type", "cpus", "cgroup" };

static bool in(const char *name, const char *const *names, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/*
 * Every documented type is registered, once, under its name, in --help
 * order, and nothing else is.
 *
 * Expect workload_types() to list the eight names of builtin_names in
 * that order, and workload_type_find() to return each list entry.
 */
START_TEST(workload_types_lists_every_builtin)
{
	const struct workload_type *const *types;
	unsigned int i, nr = workload_types(&types);

	ck_assert_uint_eq(nr, ARRAY_SIZE(builtin_names));
	for (i = 0; i < nr; i++) {
		ck_assert_str_eq(types[i]->name, builtin_names[i]);
		ck_assert_ptr_eq(workload_type_find(builtin_names[i]),
				 types[i]);
	}
}
END_TEST

/* Two types with one name: the second could never be found. */
START_TEST(workload_types_names_unique)
{
	const struct workload_type *const *types;
	unsigned int i, j, nr = workload_types(&types);

	for (i = 0; i < nr; i++)
		for (j = 0; j < i; j++)
			ck_assert_msg(strcmp(types[i]->name, types[j]->name),
				      "'%s' registered twice", types[i]->name);
}
END_TEST

/*
 * Names are matched whole and exactly.
 *
 * Expect NULL for the empty name, an unknown one, a prefix, a name with
 * a trailing space, another case, and a scenario key that is no type.
 */
START_TEST(workload_type_find_unknown)
{
	static const char *const unknown[] = {
		"",
		"nope",
		"atomic_counte",
		"atomic_counter ",
		"Ops",
		"atomic_counters",
		"cpus",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(unknown); i++)
		ck_assert_msg(!workload_type_find(unknown[i]), "'%s' found",
			      unknown[i]);
}
END_TEST

/*
 * What each type declares is what the driver and --help rely on:
 *  - a name of [a-z_], at most 16 characters (usage()'s "%-16s" column);
 *  - a summary and a throughput unit;
 *  - parse and setup (destroy is optional: cmd/run/run.c checks for NULL);
 *  - @keys for its @nr_keys, each non-empty, unique, and none of the
 *    common keys (those the driver adds itself), with room for the
 *    common ones in the driver's list of 64; the table, and those of
 *    the maps inside its keys, sound (scenario_keys_sound(): a doc, a
 *    member size, a default in range);
 *  - @memcg set exactly for the memcg workloads.
 */
START_TEST(workload_type_declarations_consistent)
{
	const struct workload_type *const *types;
	unsigned int i, k, j, nr = workload_types(&types);
	char why[160];

	for (i = 0; i < nr; i++) {
		const struct workload_type *t = types[i];

		ck_assert_uint_gt(strlen(t->name), 0);
		ck_assert_uint_le(strlen(t->name), 16);
		ck_assert_uint_eq(strspn(t->name,
					 "abcdefghijklmnopqrstuvwxyz_"),
				  strlen(t->name));
		ck_assert_msg(t->summary && t->summary[0], "%s: no summary",
			      t->name);
		ck_assert_msg(t->unit && t->unit[0], "%s: no unit", t->name);
		ck_assert_msg(t->parse && t->setup, "%s: no parse or setup",
			      t->name);
		ck_assert_msg(!t->nr_keys || t->keys, "%s: keys", t->name);
		ck_assert_msg(!scenario_keys_sound(t->keys, t->nr_keys, why,
						   sizeof(why)),
			      "%s: %s", t->name, why);
		for (k = 0; k < t->nr_sub_keys; k++)
			ck_assert_msg(!scenario_keys_sound(t->sub_keys[k].keys,
							   t->sub_keys[k].nr,
							   why, sizeof(why)),
				      "%s: %s", t->sub_keys[k].name, why);
		ck_assert_uint_le(ARRAY_SIZE(common_keys) + t->nr_keys, 64);
		for (k = 0; k < t->nr_keys; k++) {
			ck_assert_msg(t->keys[k].name && t->keys[k].name[0],
				      "%s: empty key %u", t->name, k);
			ck_assert_msg(!in(t->keys[k].name, common_keys,
					  ARRAY_SIZE(common_keys)),
				      "%s: declares common key '%s'", t->name,
				      t->keys[k].name);
			for (j = 0; j < k; j++)
				ck_assert_msg(strcmp(t->keys[k].name,
						     t->keys[j].name),
					      "%s: key '%s' twice", t->name,
					      t->keys[k].name);
		}
		ck_assert_msg(t->memcg == in(t->name, memcg_names,
					     ARRAY_SIZE(memcg_names)),
			      "%s: memcg is %d", t->name, t->memcg);
	}
}
END_TEST

/*
 * atomic_counter declares exactly the keys its parse reads (teaching.c):
 * counters, batch, think_ns and think.
 */
START_TEST(atomic_counter_declares_its_keys)
{
	static const char *const want[] = { "counters", "batch", "think_ns",
					    "think" };
	const struct workload_type *t = workload_type_find("atomic_counter");
	unsigned int k;

	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(t->nr_keys, ARRAY_SIZE(want));
	for (k = 0; k < t->nr_keys; k++)
		ck_assert_str_eq(t->keys[k].name, want[k]);
	ck_assert_str_eq(t->unit, "ops/s");
}
END_TEST

/*
 * A minimal valid map of each type's own keys: parse accepts it. The
 * other types need none of their keys.
 */
static const struct {
	const char *type, *yaml;
} minimal[] = {
	{ "netperf", "{work_ns: 100}" },
	{ "page_fault", "{work_ns: 100}" },
	{ "fallocate", "{work_ns: 100, truncate_ns: 10}" },
	{ "tlb_flush", "{work_ns: 100}" },
	{ "hackbench", "{work_ns: 100}" },
	{ "stat_reader", "{read: /}" },
	{ "ops",
	  "{objects: [{name: s, fields: {a: 0}}], program: [{rmw: s.a}]}" },
};

static const char *minimal_yaml(const char *type)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(minimal); i++)
		if (!strcmp(minimal[i].type, type))
			return minimal[i].yaml;
	return "{}";
}

/*
 * parse_with() - run @t's parse on @n for a workload of 4 tasks (CPUs 0-3
 * of a 16-CPU machine, cgroup "/"), then its destroy. Return parse's
 * result, with @err set on failure.
 */
static int parse_with(const struct workload_type *t,
		      const struct scenario_node *n, const struct machine *m,
		      const struct cgroup_tree *cg, struct sim_error *err)
{
	unsigned int cpus[4] = { 0, 1, 2, 3 };
	struct sim_task tasks[4];
	struct workload w = {
		.type = t,
		.cgroup = "/",
		.nr_tasks = 4,
		.cpus = cpus,
		.tasks = tasks,
		.scale = 1.0,
		.cgroups = cg,
	};
	int ret;

	memset(tasks, 0, sizeof(tasks));
	ret = t->parse(&w, n, m, err);
	if (t->destroy)
		t->destroy(&w);
	return ret;
}

/*
 * Every key a type declares is one its parse reads: with the key set to
 * a map no key takes ({zz: [1]}) on top of the type's minimal map, parse
 * fails and the error names that key. A declared key that parse never
 * reads would be accepted by the driver and then silently ignored.
 *
 * Expect each type's minimal map to parse, and every declared key with
 * the bad value to be refused with "key '<key>..." in the message.
 */
START_TEST(workload_type_parse_reads_declared_keys)
{
	const struct workload_type *const *types;
	unsigned int i, k, nr = workload_types(&types);
	struct scenario_node *n, *bad, *base;
	struct cgroup_tree cg;
	struct sim_error err;
	struct machine m;
	char want[64];

	n = scenario_parse_string("test-machine", machine_yaml, &err);
	ck_assert_msg(n, "%s", err.msg);
	ck_assert_msg(!machine_load(&m, n, &err), "%s", err.msg);
	ck_assert_msg(!cgroup_tree_load(&cg, n, &err), "%s", err.msg);
	scenario_free(n);
	bad = scenario_parse_string("bad", "{zz: [1]}", &err);
	ck_assert_ptr_nonnull(bad);
	for (i = 0; i < nr; i++) {
		const char *yaml = minimal_yaml(types[i]->name);

		base = scenario_parse_string("minimal", yaml, &err);
		ck_assert_msg(base, "%s", err.msg);
		ck_assert_msg(!parse_with(types[i], base, &m, &cg, &err),
			      "%s: %s: %s", types[i]->name, yaml, err.msg);
		for (k = 0; k < types[i]->nr_keys; k++) {
			const char *key = types[i]->keys[k].name;

			n = scenario_clone(base);
			ck_assert_msg(!scenario_set(n, key, bad, &err), "%s",
				      err.msg);
			ck_assert_msg(parse_with(types[i], n, &m, &cg, &err),
				      "%s: '%s' is not read: %s with %s: "
				      "{zz: [1]} accepted",
				      types[i]->name, key, yaml, key);
			snprintf(want, sizeof(want), "key '%s", key);
			ck_assert_msg(strstr(err.msg, want), "%s: %s: %s",
				      types[i]->name, key, err.msg);
			scenario_free(n);
		}
		scenario_free(base);
	}
	scenario_free(bad);
	cgroup_tree_destroy(&cg);
	machine_destroy(&m);
}
END_TEST

/* ---- atomic_counter ---- */

/*
 * counter_init() - the run of one atomic_counter workload on @cpus, with
 * the workload's own keys in @keys_yaml (a YAML map), measuring from
 * @warmup_ns to @end_ns, on the machine of the header comment. Parses
 * and sets the workload up; nothing runs.
 */
static void counter_init(const unsigned int *cpus, unsigned int nr,
			 const char *keys_yaml, sim_time_t warmup_ns,
			 sim_time_t end_ns)
{
	harness_setup_yaml("test-machine", machine_yaml, 0, 0);
	harness_workload("atomic_counter", "", cpus, nr, keys_yaml,
			 warmup_ns * NS, end_ns * NS);
}

/* The line called @name ("counter[0] line 0"), or NULL. */
static struct coh_line *line_named(const char *name)
{
	unsigned int i, nr = coh_nr_lines(h.coh);
	struct coh_line *found = NULL, **lines = calloc(nr, sizeof(*lines));

	ck_assert_ptr_nonnull(lines);
	coh_lines_sorted(h.coh, lines, nr);
	for (i = 0; i < nr; i++)
		if (!strcmp(lines[i]->name, name))
			found = lines[i];
	free(lines);
	return found;
}

static uint64_t ops(void)
{
	uint64_t sum = 0;
	unsigned int j;

	for (j = 0; j < h.w.nr_tasks; j++)
		sum += h.tasks[j].ops;
	return sum;
}

/*
 * Setup places every counter on a line of its own, shared ones first:
 *
 *	counters: 3, CPUs 5 and 2
 *	  line 0 counter[0]   line 1 counter[1]   line 2 counter[2]
 *	  line 3 percpu[5]    line 4 percpu[2]    (named by CPU, in cpus order)
 *
 * Expect five lines in that order (nothing has run: all are idle, so
 * coh_lines_sorted() keeps creation order) and no access yet.
 */
START_TEST(atomic_counter_setup_one_line_per_counter)
{
	static const char *const want[] = {
		"counter[0] line 0", "counter[1] line 0", "counter[2] line 0",
		"percpu[5] line 0",  "percpu[2] line 0",
	};
	const unsigned int cpus[] = { 5, 2 };
	struct coh_line *lines[8];
	unsigned int i;

	counter_init(cpus, 2, "{counters: 3, batch: 4}", 0, 1000);
	ck_assert_uint_eq(coh_nr_lines(h.coh), ARRAY_SIZE(want));
	coh_lines_sorted(h.coh, lines, ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		ck_assert_str_eq(lines[i]->name, want[i]);
		ck_assert_uint_eq(lines[i]->addr % COH_LINE_SIZE, 0);
		ck_assert_uint_eq(lines[i]->ops[COH_RMW], 0);
	}
	harness_teardown();
}
END_TEST

/*
 * One CPU, batch 4, a fixed think time of 95 ns: every operation is a
 * local RMW of the per-CPU counter, every fourth also an RMW of the
 * shared one. Both lines start cold (memory, 80 ns), then CPU 0 owns
 * them (rmw_local, 5 ns). Latency runs from the end of the think time.
 *
 *	op  think to  local RMW          shared RMW         done  latency
 *	0   95        cold 80  -> 175                       175   80
 *	1   270       5        -> 275                       275    5
 *	2   370       5        -> 375                       375    5
 *	3   470       5        -> 475    cold 80 -> 555     555   85
 *	4   650       5        -> 655                       655    5
 *	5   750                                             755    5
 *	6   850                                             855    5
 *	7   950       5        -> 955    5       -> 960     960   10
 *	8   1055: past the end of the run (1000 ns): not counted
 *
 * Expect 8 operations, latency mean (80 + 5 + 5 + 85 + 5 + 5 + 5 + 10) / 8
 * = 25 ns, at most 85 ns, and 8 local RMWs, 2 shared ones, one transfer
 * (from memory) for each line.
 */
START_TEST(atomic_counter_batched_op_cost)
{
	const unsigned int cpus[] = { 0 };
	struct coh_line *local, *shared;

	counter_init(cpus, 1, "{batch: 4, think_ns: 95}", 0, 1000);
	harness_workload_run();
	ck_assert_uint_eq(ops(), 8);
	ck_assert_uint_eq(h.run.lat.n, 8);
	ck_assert_double_eq_tol(sim_stat_mean(&h.run.lat), 25.0, 1e-9);
	ck_assert_double_eq_tol(sim_stat_quantile(&h.run.lat, 1.0), 85.0, 1e-9);
	ck_assert_uint_eq(coh_nr_lines(h.coh), 2);
	local = line_named("percpu[0] line 0");
	shared = line_named("counter[0] line 0");
	ck_assert_ptr_nonnull(local);
	ck_assert_ptr_nonnull(shared);
	ck_assert_uint_eq(local->ops[COH_RMW], 8);
	ck_assert_uint_eq(shared->ops[COH_RMW], 2);
	ck_assert_uint_eq(local->transfers, 1);
	ck_assert_uint_eq(shared->transfers, 1);
	harness_teardown();
}
END_TEST

/*
 * Two CPUs of one socket (0 and 1: xfer_llc, 50 ns), one shared counter,
 * no batching, no think time: the line ping-pongs. CPU 0 asks first and
 * gets it from memory at 80 ns; CPU 1 queued at 0 and is served next,
 * from CPU 0: 80 + 50 = 130. Under the strict hand-off CPU 0's next RMW
 * (at 80) waits behind CPU 1's: 130 + 50 = 180; and so on, one hand-off
 * every 50 ns:
 *
 *	done at 80 + 50k ns, CPUs 0 and 1 alternating; from op 2 on each
 *	operation waits for the other CPU's hand-off and its own: 100 ns
 *
 * Measured from 1000 to 2000 ns: k = 19 (1030 ns) to k = 38 (1980 ns).
 * Expect 20 operations, 10 per CPU, every latency 100 ns, and 20
 * transfers of the line, all at distance LLC: throughput 1 / xfer_llc.
 */
START_TEST(atomic_counter_two_cpus_ping_pong)
{
	const unsigned int cpus[] = { 0, 1 };
	struct coh_line *shared;

	counter_init(cpus, 2, "{}", 1000, 2000);
	harness_workload_run();
	ck_assert_uint_eq(ops(), 20);
	ck_assert_uint_eq(h.tasks[0].ops, 10);
	ck_assert_uint_eq(h.tasks[1].ops, 10);
	ck_assert_double_eq_tol(sim_stat_quantile(&h.run.lat, 0.0), 100.0,
				1e-9);
	ck_assert_double_eq_tol(sim_stat_quantile(&h.run.lat, 1.0), 100.0,
				1e-9);
	shared = line_named("counter[0] line 0");
	ck_assert_ptr_nonnull(shared);
	ck_assert_uint_eq(shared->transfers, 20);
	ck_assert_uint_eq(shared->xfer_by_dist[COH_DIST_LLC], 20);
	/* batch 1: the per-CPU counters exist but are never touched */
	ck_assert_uint_eq(coh_nr_lines(h.coh), 3);
	ck_assert_uint_eq(line_named("percpu[0] line 0")->ops[COH_RMW], 0);
	ck_assert_uint_eq(line_named("percpu[1] line 0")->ops[COH_RMW], 0);
	harness_teardown();
}
END_TEST

static Suite *workload_suite(void)
{
	Suite *s = suite_create("workload");
	TCase *tc = tcase_create("registry");

	tcase_add_test(tc, workload_types_lists_every_builtin);
	tcase_add_test(tc, workload_types_names_unique);
	tcase_add_test(tc, workload_type_find_unknown);
	tcase_add_test(tc, workload_type_declarations_consistent);
	tcase_add_test(tc, atomic_counter_declares_its_keys);
	tcase_add_test(tc, workload_type_parse_reads_declared_keys);
	suite_add_tcase(s, tc);
	tc = tcase_create("atomic_counter");
	tcase_add_test(tc, atomic_counter_setup_one_line_per_counter);
	tcase_add_test(tc, atomic_counter_batched_op_cost);
	tcase_add_test(tc, atomic_counter_two_cpus_ping_pong);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(workload_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
