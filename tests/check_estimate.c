// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_estimate.c - the run-cost estimator (cmd/run/estimate.c), on
 * numbers worked out by hand from the scenario's parameters and the
 * calibrated constants the estimator documents:
 *
 *	page_fault: 35 events per fault (25 in the root memcg), 1100 ns in
 *	    the memory system
 *	atomic_counter: 1 event per op, 20 ns; a shared line serialises
 *	    its RMWs at one per 50 ns (or the hand-off given), each one
 *	    event more
 *	kmalloc: 12 events and 300 ns per object pair in a memcg
 *	netperf: 30 events (at most 0.5 a task and one) and 1000 ns per
 *	    message, 90 ns per page charged
 *	work: each op 1 unit, plus the units inside it (op_units)
 *	memory: 4.5 MiB program, 8 KiB per task, 8 bytes per op (40 in a
 *	    memcg below the root, its charges' samples with it), 1000
 *	    bytes per simulated line, 44 bytes per (memcg, CPU) up front
 *	trace: 2.35 trace events per event, 69 bytes each
 *	wall: 1.3e7 events a second, 1.1 ns of set-up per byte
 *
 * The whole path is tested too: scenario_run() with check_only hands the
 * hook each variant's estimate, read from the loaded scenario, without
 * running anything.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "cmd/run/estimate.h"
#include "cmd/run/run.h"
#include "sim/report.h"
#include "sim/trace.h"

/*
 * Four CPUs of a 2-socket, 16-CPU machine fault pages in /a; work_ns 1000;
 * 0.9 ms measured after 0.1 ms of warm-up: one run is 1 ms. Its xfer_llc
 * is the calibration machine's, 48 ns: the latencies scale by 1.
 */
static const char scenario[] = "scenario: check-estimate\n"
			       "duration_ms: 0.9\n"
			       "warmup_ms: 0.1\n"
			       "machine:\n"
			       "  name: test-2s-16\n"
			       "  sockets: 2\n"
			       "  cores_per_socket: 4\n"
			       "  threads_per_core: 2\n"
			       "  latencies:\n"
			       "    l1_hit: {ns: 1, source: test}\n"
			       "    llc_hit: {ns: 20, source: test}\n"
			       "    memory: {ns: 80, source: test}\n"
			       "    rmw_local: {ns: 5, source: test}\n"
			       "    xfer_smt: {ns: 10, source: test}\n"
			       "    xfer_llc: {ns: 48, source: test}\n"
			       "    xfer_socket: {ns: 100, source: test}\n"
			       "    inval_per_sharer: {ns: 2, source: test}\n"
			       "  coherence:\n"
			       "    handoff: strict\n"
			       "    occupancy: {fraction: 1.0, source: test}\n"
			       "cgroups:\n"
			       "  /a: {}\n"
			       "workloads:\n"
			       "  - {type: page_fault, cgroup: /a, cpus: 0-3,\n"
			       "     work_ns: 1000}\n"
			       "variants:\n"
			       "  - name: four\n"
			       "  - name: one\n"
			       "    set: {workloads.0.cpus: '0'}\n"
			       "  - name: root\n"
			       "    set: {workloads.0.cgroup: /}\n";

#define MIB (1024.0 * 1024.0)

struct seen {
	unsigned int nr;
	char name[4][64];
	struct estimate est[4];
};

static void hook(void *arg, const char *variant, const struct estimate *est)
{
	struct seen *s = arg;

	ck_assert_uint_lt(s->nr, 4);
	snprintf(s->name[s->nr], sizeof(s->name[0]), "%s", variant);
	s->est[s->nr++] = *est;
}

static void check_scenario(struct seen *s, const char *const *sets,
			   unsigned int nr_sets)
{
	const char *tmp = getenv("TMPDIR");
	struct run_opts o = {
		.datadir = "/nonexistent", /* the machine is inline */
		.replications = 1,
		.hot_lines = 4,
		.check_only = true,
		.sets = sets,
		.nr_sets = nr_sets,
		.estimate = hook,
		.estimate_arg = s,
	};
	struct report *r = NULL;
	struct sim_error err;
	char path[256];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/check_estimate-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(scenario, f);
	ck_assert_int_eq(fclose(f), 0);
	memset(s, 0, sizeof(*s));
	sim_error_clear(&err);
	ck_assert_msg(!scenario_run(path, &o, &r, &err), "%s:%u:%u: %s",
		      err.file, err.line, err.col, err.msg);
	ck_assert_ptr_null(r); /* nothing ran */
	unlink(path);
}

/*
 * Variant four, by hand:
 *   ops    = 4 tasks x 1 ms / (1000 + 1100) ns = 1904.76
 *   events = 1904.76 x 35 = 66666.7
 *   memory = 4.5 MiB + 4 x 8 KiB + 1904.76 x 40 B
 *          + 1000 B x lines + 44 B x 16 CPUs x 2 memcgs, where lines =
 *            2 memcgs x (vmstats: 2 x (50 + 110) counters = 40 lines;
 *                        lruvec_stats: 2 nodes x ceil(2 x 43 / 8) = 22;
 *                        12 fixed)                              = 148
 *          + 4 (memcg, CPU) pairs x (percpu: ceil((320 + 6) / 8) = 41;
 *                        lruvec_pcpu: 2 x 11 = 22; rstat 1)      = 256
 *          + 16 CPUs x (4 + 2 nodes)                             =  96
 *          = 4718592 + 32768 + 76190.48 + 500000 + 1408 = 5328958.48
 *   wall   = 66666.7 / 1.3e7 + 5328958.48 x 1.1 ns (set-up) = 0.010990 s
 * Variant one: a lone task never waits: 0 events; 476.19 ops.
 * Variant root: the faults charge nothing: 25 events each, 47619.05.
 */
START_TEST(estimate_page_fault_by_hand)
{
	struct seen s;

	check_scenario(&s, NULL, 0);
	ck_assert_uint_eq(s.nr, 3);
	ck_assert_str_eq(s.name[0], "four");
	ck_assert_double_eq_tol(s.est[0].ops, 1904.7619, 1e-3);
	ck_assert_double_eq_tol(s.est[0].events, 66666.667, 1e-2);
	ck_assert_double_eq_tol(s.est[0].memory, 5328958.48, 1);
	ck_assert_double_eq_tol(s.est[0].wall_s,
				66666.667 / 1.3e7 + 5328958.48 * 1.1e-9, 1e-8);
	ck_assert_double_eq(s.est[0].trace_bytes, 0);
	ck_assert_str_eq(s.name[1], "one");
	ck_assert_double_eq_tol(s.est[1].ops, 476.1905, 1e-3);
	ck_assert_double_eq(s.est[1].events, 0);
	ck_assert_str_eq(s.name[2], "root");
	ck_assert_double_eq_tol(s.est[2].events, 47619.048, 1e-2);
}
END_TEST

/*
 * --set kernel.memcg_event_items=1024: vmstats = 2 x (50 + 1024) x 8 B
 * = 17184 B = 268.5 -> 269 lines per memcg (was 40), percpu = ceil((2 x
 * 1074 + 6) / 8) = 270 lines per pair (was 41): (229 x 2 + 229 x 4)
 * lines = 1374 more, 1374000 bytes more than variant four's.
 */
START_TEST(estimate_memory_follows_stat_items)
{
	static const char *const sets[] = { "kernel.memcg_event_items=1024" };
	struct seen s;

	check_scenario(&s, sets, 1);
	ck_assert_double_eq_tol(s.est[0].memory, 5328958.48 + 1374000, 1);
}
END_TEST

/*
 * Two tasks increment one shared counter, think 0, for 1 ms: alone each
 * could do 1 ms / 20 ns = 50000 ops, but the line passes one RMW per 50
 * ns: 20000 ops in all, each 1 event and 1 more for its line: 40000.
 * With batch 64 an RMW is every 64th op: the line would allow 1.28e6,
 * so the tasks' 100000 stand, with 1 + 1/64 events each: 101562.5.
 */
START_TEST(estimate_shared_line_serialises)
{
	struct estimate_input in = {
		.nr_cpus = 2,
		.nr_nodes = 1,
		.nr_memcgs = 1,
		.run_ps = SIM_PS_PER_MS,
		.nr_workloads = 1,
		.w = { { .type = "atomic_counter",
			 .nr_tasks = 2,
			 .serial_lines = 1,
			 .batch = 1 } },
	};
	struct estimate e;

	estimate_run(&in, &e);
	ck_assert_double_eq_tol(e.ops, 20000, 1e-6);
	ck_assert_double_eq_tol(e.events, 40000, 1e-6);
	/* no memcg: the program, 2 tasks and the ops' samples, 8 B each */
	ck_assert_double_eq_tol(e.memory, 4.5 * MIB + 2 * 8192 + 20000 * 8,
				1e-6);
	in.w[0].batch = 64;
	estimate_run(&in, &e);
	ck_assert_double_eq_tol(e.ops, 100000, 1e-6);
	ck_assert_double_eq_tol(e.events, 101562.5, 1e-6);
	/*
	 * A per_thread mm's mmap_lock: two RMWs an operation (batch 1/2)
	 * on a line whose hand-off is 135 ns (across sockets): 1 ms passes
	 * 7407.4 RMWs, 3703.7 operations, each its own event and one for
	 * each RMW: 11111.1 events; 3703.7 units of work (one an operation).
	 */
	in.w[0].batch = 0.5;
	in.w[0].serial_ps = 135 * SIM_PS_PER_NS;
	estimate_run(&in, &e);
	ck_assert_double_eq_tol(e.ops, 1e6 / 135 / 2, 1e-6);
	ck_assert_double_eq_tol(e.events, 3 * 1e6 / 135 / 2, 1e-6);
	ck_assert_double_eq_tol(e.work, 1e6 / 135 / 2, 1e-6);
}
END_TEST

/*
 * The work inside an operation (issue 34, item 2). kmalloc: two tasks in
 * /a, 1000 objects an operation, work_ns 20: an operation is 1000 x (20
 * + 300) ns = 320 us, so 1 ms makes 2 x 1 / 0.32 = 6.25 operations, each
 * 1 + 2 x 1000 units of work (12506.25) and 1000 x 12 events (75000).
 * netperf: two tasks, work_ns 0, 16 MiB messages, 4096 pages charged
 * each: a message is 1000 ns + 4096 x 90 ns = 369.64 us, 2 x 1 ms /
 * 369.64 us = 5.4107 messages, 4097 units each: 22167.7; one pair's
 * charges hardly wait: 0.5 events a task and one, 2 a message (not
 * 30): 10.82 events.
 */
START_TEST(estimate_counts_work_inside_ops)
{
	struct estimate_input in = {
		.nr_cpus = 2,
		.nr_nodes = 1,
		.nr_memcgs = 2,
		.run_ps = SIM_PS_PER_MS,
		.nr_workloads = 1,
		.w = { { .type = "kmalloc",
			 .nr_tasks = 2,
			 .self_ps = 20 * SIM_PS_PER_NS,
			 .memcg = true,
			 .depth = 1,
			 .op_units = 2000,
			 .repeat = 1000 } },
	};
	struct estimate e;

	estimate_run(&in, &e);
	ck_assert_double_eq_tol(e.ops, 6.25, 1e-9);
	ck_assert_double_eq_tol(e.work, 6.25 * 2001, 1e-6);
	ck_assert_double_eq_tol(e.events, 75000, 1e-6);
	in.w[0] = (struct estimate_workload){ .type = "netperf",
					      .nr_tasks = 2,
					      .memcg = true,
					      .depth = 1,
					      .op_units = 4096 };
	estimate_run(&in, &e);
	ck_assert_double_eq_tol(e.ops, 2e6 / (1000 + 4096 * 90.0), 1e-9);
	ck_assert_double_eq_tol(e.work, 4097 * 2e6 / (1000 + 4096 * 90.0),
				1e-6);
	ck_assert_double_eq_tol(e.events, 2 * 2e6 / (1000 + 4096 * 90.0), 1e-9);
}
END_TEST

/*
 * A lone task schedules no event, but its operations take host time
 * (issue 34, item 2). One atomic_counter task, think 0, every latency
 * 1 ps: latency_scale 1 ps / 48 ns, so its 20 ns in the memory system
 * become 0.417 ps, and an operation takes the floor of 1 ps: 1 ms is
 * 1e9 operations, 0 events, at 10 ns of host time each: 10 s (before:
 * 0 s), plus the set-up of its memory (the program, the task and
 * SIM_STAT_EXACT samples).
 */
START_TEST(estimate_lone_task_counts_its_work)
{
	struct estimate_input in = {
		.nr_cpus = 1,
		.nr_nodes = 1,
		.nr_memcgs = 1,
		.run_ps = SIM_PS_PER_MS,
		.latency_scale = 1.0 / 48000,
		.nr_workloads = 1,
		.w = { { .type = "atomic_counter", .nr_tasks = 1, .batch = 1 } },
	};
	struct estimate e;

	estimate_run(&in, &e);
	ck_assert_double_eq_tol(e.ops, 1e9, 1e-3);
	ck_assert_double_eq(e.events, 0);
	ck_assert_double_eq_tol(e.wall_s, 10 + e.memory * 1.1e-9, 1e-9);
}
END_TEST

/*
 * The traced run: 40000 events x 2.35 x 69 B = 6486000 B; one of 1 s
 * (20000 ops per ms: 4e7 events, 9.4e7 trace events) stops at
 * SIM_TRACE_MAX_EVENTS trace events, and keeps the samples of its first
 * 2^20 ops only.
 */
START_TEST(estimate_trace_size)
{
	struct estimate_input in = {
		.nr_cpus = 2,
		.nr_nodes = 1,
		.nr_memcgs = 1,
		.run_ps = SIM_PS_PER_MS,
		.trace = true,
		.nr_workloads = 1,
		.w = { { .type = "atomic_counter",
			 .nr_tasks = 2,
			 .serial_lines = 1,
			 .batch = 1 } },
	};
	struct estimate e;

	estimate_run(&in, &e);
	ck_assert_double_eq_tol(e.trace_bytes, 6486000, 1e-3);
	in.run_ps = 1000 * SIM_PS_PER_MS;
	estimate_run(&in, &e);
	ck_assert_double_eq_tol(e.trace_bytes,
				(double)SIM_TRACE_MAX_EVENTS * 69, 1e-3);
	/* 2e7 ops, but a statistic keeps 2^20 samples, then a histogram */
	ck_assert_double_eq_tol(e.ops, 2e7, 1e-3);
	ck_assert_double_eq_tol(e.memory,
				4.5 * MIB + 2 * 8192 + (1 << 20) * 8.0, 1e-3);
}
END_TEST

/*
 * --set machine.latencies.xfer_llc.ns=0.048: latencies 1000 times
 * shorter: a fault takes 1000 + 1.1 ns, 4 tasks x 1 ms / 1001.1 ns =
 * 3995.6 ops, 139846.2 events.
 */
START_TEST(estimate_scales_with_latencies)
{
	static const char *const sets[] = {
		"machine.latencies.xfer_llc.ns=0.048"
	};
	struct seen s;

	check_scenario(&s, sets, 1);
	ck_assert_double_eq_tol(s.est[0].ops, 4e6 / 1001.1, 1e-3);
	ck_assert_double_eq_tol(s.est[0].events, 35 * 4e6 / 1001.1, 1e-2);
}
END_TEST

START_TEST(estimate_formats)
{
	char buf[32];

	estimate_format_bytes(512, buf, sizeof(buf));
	ck_assert_str_eq(buf, "512 B");
	estimate_format_bytes(1.5 * MIB, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1.5 MiB");
	estimate_format_bytes(5.0 * 1024 * MIB, buf, sizeof(buf));
	ck_assert_str_eq(buf, "5.0 GiB");
	estimate_format_seconds(0.25, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0.2 s");
	estimate_format_seconds(3 * 3600, buf, sizeof(buf));
	ck_assert_str_eq(buf, "3.0 h");
	estimate_format_count(95238.1, buf, sizeof(buf));
	ck_assert_str_eq(buf, "9.5e+04");
}
END_TEST

static Suite *estimate_suite(void)
{
	Suite *s = suite_create("estimate");
	TCase *tc = tcase_create("estimate");

	tcase_add_test(tc, estimate_page_fault_by_hand);
	tcase_add_test(tc, estimate_memory_follows_stat_items);
	tcase_add_test(tc, estimate_shared_line_serialises);
	tcase_add_test(tc, estimate_counts_work_inside_ops);
	tcase_add_test(tc, estimate_lone_task_counts_its_work);
	tcase_add_test(tc, estimate_trace_size);
	tcase_add_test(tc, estimate_scales_with_latencies);
	tcase_add_test(tc, estimate_formats);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(estimate_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
