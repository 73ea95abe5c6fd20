// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_coh_law.c - the hand-off law (models/hw/coh_law.c and its
 * terms in models/hw/cache.c: the line's home, upgrades, conflicts at the
 * home, drawn service times) against arithmetic worked out by hand, on
 * tests/cache_test.h's machine (tests/check_cache.c gives its numbers;
 * the law's keys, law_keys there, add xfer_socket_remote_home 160 ns,
 * upgrade_llc 70 ns, upgrade_socket 200 ns, conflict_local 20 ns and
 * conflict_remote 40 ns).
 */
#include "tests/cache_test.h"

/*
 * Across sockets the price depends on the line's home (the socket of the
 * CPU that touched it first). Two CPUs alternate RMWs 200 ns apart:
 *
 *	case 0: CPU 0 first (home socket 0), CPU 4 at 100:
 *	  CPU 0 rmw at 0: memory -> 80
 *	  CPU 4 rmw at 100: from CPU 0, on the home socket: 100 -> 200
 *	  CPU 0 rmw at 280: from CPU 4, not on the home: 160 -> 440
 *	  CPU 4 rmw at 400: queued behind it; from CPU 0 (home) at 440:
 *	    100 -> 540
 *	case 1: CPU 4 first (home socket 1), CPU 0 at 100: the same times,
 *	  the roles swapped.
 */
START_TEST(coh_law_home_socket)
{
	unsigned int a = _i ? 4 : 0, b = _i ? 0 : 4;
	const struct step s[] = { { .kind = RMW, .field = FA },
				  { .kind = DELAY, .ps = 200 * NS },
				  { .kind = RMW, .field = FA } };

	cpu_script(a, 0, s, 3);
	cpu_script(b, 100, s, 3);
	run_ns(2000);
	ck_assert_int_eq(line_of(FA)->home, (int)h.m.cpus[a].socket);
	ck_assert_uint_eq(done_ns(a, 0), 80);
	ck_assert_uint_eq(done_ns(b, 0), 200);
	ck_assert_uint_eq(done_ns(a, 2), 440);
	ck_assert_uint_eq(done_ns(b, 2), 540);
}
END_TEST

/*
 * A load then an RMW by a sharer is an upgrade (perfbook's load-then-CAS).
 * CPU 0 owns the line (RMW at 0, memory: 80; home socket 0).
 *
 *	case 0, CPU 1 (same socket) at 100: read posted, done 150 (xfer_llc);
 *	  the RMW waits for it, then upgrades against CPU 0's copy:
 *	  upgrade_llc 70 -> 220.
 *	case 1, CPU 4 (other socket) at 100: read from the home socket's
 *	  holder 100 -> 200; upgrade against CPU 0: upgrade_socket 200 ->
 *	  400. A blind RMW would be done at 200: the pair costs 3.0x.
 */
START_TEST(coh_law_upgrade)
{
	unsigned int cpu = _i ? 4 : 1;
	const struct step w[] = { { .kind = RMW, .field = FA } };
	const struct step s[] = { { .kind = READ, .field = FA },
				  { .kind = RMW, .field = FA } };

	cpu_script(0, 0, w, 1);
	cpu_script(cpu, 100, s, 2);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(cpu, 1), _i ? 400 : 220);
	ck_assert_int_eq(line_of(FA)->owner, (int)cpu);
}
END_TEST

/*
 * A trace on @h.coh for the rest of the test, to a file dropped at
 * trace_stop(). A traced machine is not a plain one: every hand-off goes
 * through serve_any(), where an untraced run of the test profile serves
 * stores and RMWs of a line Modified elsewhere by serve_owned(), its
 * straight line. The cases that run both ways check that the two agree.
 */
static struct sim_trace *trace_start(void)
{
	struct sim_error err;
	struct sim_trace *t;
	char path[64];

	snprintf(path, sizeof(path), "/tmp/check_cache.%ld.json",
		 (long)getpid());
	t = sim_trace_open(path, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	coh_set_trace(h.coh, t, 1, 2);
	return t;
}

static void trace_stop(struct sim_trace *t)
{
	struct sim_error err;

	coh_set_trace(h.coh, NULL, 0, 0);
	ck_assert_int_eq(sim_trace_close(t, false, &err), 0);
}

/*
 * Four CPUs of socket 0 saturate one line (CPU 0 first: home socket 0).
 * After the cold start every hand-off has two third parties queued (four
 * CPUs: requester, holder, two more), so it occupies the line
 * xfer_llc 50 + 2 x conflict_local 20 = 90 ns; the requester sees 50:
 *
 *	CPU 0 from memory: done 80 (nobody else queued yet).
 *	hand-off k >= 1 starts at 80 + 90 (k - 1), done 50 later:
 *	130 + 90 (k - 1) <= 10080: k = 1..111, plus the first: 112 RMWs.
 *
 * Case 1 runs traced: the same through serve_any() (trace_start()).
 */
START_TEST(coh_law_conflict_local)
{
	struct sim_trace *t = _i ? trace_start() : NULL;
	uint64_t total = saturate_four_cpus();

	ck_assert_uint_eq(total, 112);
	if (t)
		trace_stop(t);
}
END_TEST

/*
 * Three RMWs each by CPU 0 (socket 0, first: home socket 0) and CPUs 4, 5
 * (socket 1), started at 0, 1 and 2 ns: served in the rotation 0, 4, 5.
 * Each hand-off: the idle transfer (home-dependent across sockets), plus a
 * conflict per third CPU queued (one here until the end: remote 40 for
 * CPUs 4 and 5, local 20 for CPU 0), which delays the next hand-off but
 * not the requester:
 *
 *	at   to  holder  transfer          conflict  done   line free
 *	0    0   -       memory 80         -         80     80
 *	80   4   0       home 100          40        180    220
 *	220  5   4       llc 50            40        270    310
 *	310  0   5       remote home 160   20        470    490
 *	490  4   0       100               40        590    630
 *	630  5   4       50                40        680    720
 *	720  0   5       160               20        880    900
 *	900  4   0       100               40 (5)    1000   1040
 *	1040 5   4       50                none      1090   1090
 *
 * Case 1 runs traced (trace_start()): the same times through serve_any().
 * The line busy 80 + 140 + 90 + 180 + 140 + 90 + 180 + 140 + 50 = 1090 ns,
 * 9 transfers: 1 from memory, 3 within socket 1 (llc), 5 across.
 */
START_TEST(coh_law_conflict_remote)
{
	const struct step s[] = { { .kind = RMW, .field = FA },
				  { .kind = RMW, .field = FA },
				  { .kind = RMW, .field = FA } };
	struct sim_trace *t = _i ? trace_start() : NULL;
	const struct coh_line *l = line_of(FA);

	cpu_script(0, 0, s, 3);
	cpu_script(4, 1, s, 3);
	cpu_script(5, 2, s, 3);
	run_ns(3000);
	ck_assert_uint_eq(done_ns(0, 0), 80);
	ck_assert_uint_eq(done_ns(4, 0), 180);
	ck_assert_uint_eq(done_ns(5, 0), 270);
	ck_assert_uint_eq(done_ns(0, 1), 470);
	ck_assert_uint_eq(done_ns(4, 1), 590);
	ck_assert_uint_eq(done_ns(5, 1), 680);
	ck_assert_uint_eq(done_ns(0, 2), 880);
	ck_assert_uint_eq(done_ns(4, 2), 1000);
	ck_assert_uint_eq(done_ns(5, 2), 1090);
	ck_assert_uint_eq(l->busy_ps, 1090 * NS);
	ck_assert_uint_eq(l->transfers, 9);
	ck_assert_uint_eq(l->xfer_by_dist[NR_COH_DIST], 1);
	ck_assert_uint_eq(l->xfer_by_dist[COH_DIST_LLC], 3);
	ck_assert_uint_eq(l->xfer_by_dist[COH_DIST_SOCKET], 5);
	if (t)
		trace_stop(t);
}
END_TEST

/*
 * Two parties never conflict: CPUs 0 and 1 alternate one line as fast as
 * they can; every hand-off after the first costs xfer_llc 50 and nothing
 * more (the holder is the only other CPU queued): CPU 0's three RMWs at
 * 80, 180, 280 and CPU 1's at 130, 230, 330.
 */
START_TEST(coh_law_two_parties_no_conflict)
{
	const struct step s[] = { { .kind = RMW, .field = FA },
				  { .kind = RMW, .field = FA },
				  { .kind = RMW, .field = FA } };

	cpu_script(0, 0, s, 3);
	cpu_script(1, 1, s, 3);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(0, 2), 280);
	ck_assert_uint_eq(done_ns(1, 2), 330);
}
END_TEST

/*
 * The CPU that just received a line RMWs it again while another waits:
 * no hit under strict hand-off, it queues behind the other (through
 * rmw_queued() untraced, case 0; through the general path traced, case
 * 1). CPU 0 RMWs a at 0, CPU 1 at 10 and again once done, CPU 2 at 20
 * (all socket 0, home socket 0):
 *
 *	0   CPU 0 from memory: done 80.
 *	80  CPU 1 from CPU 0: 50; CPU 2 queued, a third party (the holder,
 *	    CPU 0, is not queued): + conflict_local 20: done 130, the line
 *	    free at 150.
 *	130 CPU 1 owns the line and RMWs it: CPU 2 waits, so it queues.
 *	150 CPU 2 from CPU 1: 50; the only other CPU queued is the holder:
 *	    no conflict: done 200, free at 200.
 *	200 CPU 1 from CPU 2: 50, nobody queued: done 250.
 *
 * Four RMWs, each a miss and a transfer, no hit.
 */
START_TEST(coh_law_owner_rmw_queues)
{
	struct sim_trace *t = _i ? trace_start() : NULL;
	const struct step one[] = { { .kind = RMW, .field = FA } };
	const struct step two[] = { { .kind = RMW, .field = FA },
				    { .kind = RMW, .field = FA } };

	cpu_script(0, 0, one, 1);
	cpu_script(1, 10, two, 2);
	cpu_script(2, 20, one, 1);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(1, 0), 130);
	ck_assert_uint_eq(done_ns(2, 0), 200);
	ck_assert_uint_eq(done_ns(1, 1), 250);
	ck_assert_uint_eq(line_of(FA)->misses, 4);
	ck_assert_uint_eq(line_of(FA)->hits, 0);
	ck_assert_uint_eq(line_of(FA)->transfers, 4);
	if (t)
		trace_stop(t);
}
END_TEST

/*
 * Two CPUs that load then RMW one line without waiting for each other
 * overlap: a CPU whose load found the line Shared by the other's load
 * upgrades, and the other, invalidated, then takes the line blind. CPUs 0
 * and 1 (same socket): CPU 0's load cold 80, CPU 1's load 130, CPU 0's
 * upgrade 200, CPU 1's RMW (blind) 250; then a cycle of
 *	load 50 + upgrade 70 + blind transfer 50, twice: 340 ns, 4 ops,
 * 85 ns per operation instead of the 120 of a load + upgrade each:
 * CPU 0's RMWs complete at 200 + 340 k and 420 + 340 k, 294 + 294 of them
 * by 100080 ns, and CPU 1 the same. That is why coh_law_fit() takes
 * upgrades only from turn-by-turn (ping-pong) points, never from this
 * saturated pattern. Across sockets (CPU 4; home socket 0): the cycle is
 * 160 + 200 + 160 (towards the home) + 100 + 200 + 100 = 920 ns; CPU 0's
 * RMWs at 380 + 920 k and 1000 + 920 k: 109 + 108.
 */
START_TEST(coh_law_load_xchg_saturated)
{
	const struct step s[] = {
		{ .kind = LOOP_READ_RMW, .field = FA, .ps = 100080 * NS }
	};
	unsigned int other = _i ? 4 : 1;

	cpu_script(0, 0, s, 1);
	cpu_script(other, 1, s, 1);
	run_ns(100080);
	ck_assert_uint_eq(ct.scripts[0].loops, _i ? 217 : 588);
	ck_assert_uint_eq(ct.scripts[other].loops, _i ? 217 : 588);
}
END_TEST

static const unsigned int cpus_0123[] = { 0, 1, 2, 3 };
static const unsigned int cpus_045[] = { 0, 4, 5 };
static const unsigned int cpus_0415[] = { 0, 4, 1, 5 };
static const unsigned int cpus_01[] = { 0, 1 };
static const unsigned int cpus_04[] = { 0, 4 };

/*
 * The closed form on the law machine, worked out by hand:
 *	add {0,1,2,3}: 50 per hand-off + 2 third parties x 20 (all on the
 *	  home socket) = 90 ns: the simulated line of coh_law_conflict_local.
 *	add {0,4,5} (home socket 0): 0->4 100, 4->5 50, 5->0 160 (homed
 *	  away from the holder): mean 103.33; 1 third party: 4 and 5 pay
 *	  40, 0 pays 20: mean 33.33; 136.67 ns = the 410 ns cycle of three
 *	  operations simulated in coh_law_conflict_remote.
 *	xchg2 {0,1,2,3}: two hand-offs per operation, 180 ns.
 *	load_xchg_pingpong {0,1}: 50 + upgrade_llc 70 = 120;
 *	  {0,4}: (100 + 160) / 2 + upgrade_socket 200 = 330.
 *	one CPU: rmw_local, 5 ns. add_readers: no closed form, -1.
 */
START_TEST(coh_law_predict_by_hand)
{
	struct coh_law_point p = { .bench = COH_BENCH_ADD,
				   .nr_cpus = 4,
				   .cpus = cpus_0123 };

	ck_assert_double_eq_tol(coh_law_predict(&h.m, &p), 90.0, 1e-9);
	p.bench = COH_BENCH_XCHG2;
	ck_assert_double_eq_tol(coh_law_predict(&h.m, &p), 180.0, 1e-9);
	p.bench = COH_BENCH_ADD;
	p.nr_cpus = 3;
	p.cpus = cpus_045;
	ck_assert_double_eq_tol(coh_law_predict(&h.m, &p), 410.0 / 3, 1e-9);
	p.bench = COH_BENCH_LOAD_XCHG_PINGPONG;
	p.nr_cpus = 2;
	p.cpus = cpus_01;
	ck_assert_double_eq_tol(coh_law_predict(&h.m, &p), 120.0, 1e-9);
	p.cpus = cpus_04;
	ck_assert_double_eq_tol(coh_law_predict(&h.m, &p), 330.0, 1e-9);
	p.bench = COH_BENCH_ADD;
	p.nr_cpus = 1;
	ck_assert_double_eq_tol(coh_law_predict(&h.m, &p), 5.0, 1e-9);
	p.bench = COH_BENCH_ADD_READERS;
	p.nr_cpus = 2;
	ck_assert(coh_law_predict(&h.m, &p) < 0);
}
END_TEST

/*
 * The fit inverts the closed form: points made with conflict_local 20,
 * conflict_remote 40, upgrade_llc 70 and upgrade_socket 200, fitted on the
 * same machine with those four zeroed (and xfer_per_waiter 7 ns, which
 * the fit clears), give them back exactly: 4 parameters set. With only
 * one-socket points, conflict_remote is left as it was and so are the
 * upgrades: 1 parameter. With no usable point: -1.
 */
START_TEST(coh_law_fit_recovers)
{
	struct coh_law_point pts[] = {
		{ .bench = COH_BENCH_ADD, .nr_cpus = 4, .cpus = cpus_0123 },
		{ .bench = COH_BENCH_ADD, .nr_cpus = 3, .cpus = cpus_045 },
		{ .bench = COH_BENCH_ADD, .nr_cpus = 4, .cpus = cpus_0415 },
		{ .bench = COH_BENCH_LOAD_XCHG_PINGPONG,
		  .nr_cpus = 2,
		  .cpus = cpus_01 },
		{ .bench = COH_BENCH_LOAD_XCHG_PINGPONG,
		  .nr_cpus = 2,
		  .cpus = cpus_04 },
		{ .bench = COH_BENCH_ADD_READERS,
		  .nr_cpus = 2,
		  .cpus = cpus_01,
		  .readers = 1,
		  .ns_per_op = 99 },
	};
	unsigned int i;
	char why[512];

	for (i = 0; i < 5; i++)
		pts[i].ns_per_op = coh_law_predict(&h.m, &pts[i]);
	h.m.conflict_local_ps = h.m.conflict_remote_ps = 0;
	h.m.upgrade_ps[COH_DIST_LLC] = h.m.upgrade_ps[COH_DIST_SOCKET] = 0;
	h.m.xfer_per_waiter_ps = 7000;
	ck_assert_int_eq(coh_law_fit(pts, 6, &h.m, why, sizeof(why)), 4);
	ck_assert_uint_eq(h.m.conflict_local_ps, 20000);
	ck_assert_uint_eq(h.m.conflict_remote_ps, 40000);
	ck_assert_uint_eq(h.m.xfer_per_waiter_ps, 0);
	ck_assert_uint_eq(h.m.upgrade_ps[COH_DIST_LLC], 70000);
	ck_assert_uint_eq(h.m.upgrade_ps[COH_DIST_DIE], 70000);
	ck_assert_uint_eq(h.m.upgrade_ps[COH_DIST_SOCKET], 200000);
	ck_assert_msg(strstr(why, "conflict_local 20.00"), "%s", why);

	h.m.conflict_local_ps = 0;
	h.m.conflict_remote_ps = 1234;
	ck_assert_int_eq(coh_law_fit(pts, 1, &h.m, why, sizeof(why)), 1);
	ck_assert_uint_eq(h.m.conflict_local_ps, 20000);
	ck_assert_uint_eq(h.m.conflict_remote_ps, 1234);
	ck_assert_int_eq(coh_law_fit(&pts[5], 1, &h.m, why, sizeof(why)), -1);
}
END_TEST

/*
 * Service-time variance keeps the mean. Four CPUs saturate one line for
 * 100 us; with every hand-off 50 ns the line completes 80 + 50 k <= 100080:
 * 2001 RMWs. With service_cv 1 (exponential hand-offs of mean 50 ns) the
 * sum of 2000 of them has a standard deviation of 50 x sqrt(2000) = 2.2 us,
 * 2.2%: expect 2001 within 6%, but not exactly 2001 (the hand-offs do
 * vary), the line's busy time over its transfers within 6% of 50 ns, and
 * the same count again in a second run (the draws are reproducible).
 */
/*
 * socket_distances: the harness machine with an asymmetric matrix, socket
 * 0 to 1 130 ns, 1 to 0 170 ns (xfer_socket 100 ns, no home split, so
 * remote home at a pair = 100 x pair / 100 = the pair). CPU 0 (socket 0)
 * and CPU 4 (socket 1) take turns on a, far enough apart not to queue:
 *
 *	CPU 0  RMW at 0 from memory: 80; at 480 from CPU 4: 480 + 170 = 650
 *	CPU 4  RMW at 100 from CPU 0 (socket 0 the home): 100 + 130 = 230;
 *	       at 830 from CPU 0: 830 + 130 = 960
 *
 * Expect those four times: each crossing costs its pair, not xfer_socket.
 */
START_TEST(coh_socket_distances_per_pair)
{
	const struct step s0[] = { { .kind = RMW, .field = FA },
				   { .kind = DELAY, .ps = 400 * NS },
				   { .kind = RMW, .field = FA } };
	const struct step s1[] = { { .kind = RMW, .field = FA },
				   { .kind = DELAY, .ps = 600 * NS },
				   { .kind = RMW, .field = FA } };

	harness_destroy();
	extra_keys = "socket_distances:\n"
		     "  - {ns: [0, 130], source: test}\n"
		     "  - {ns: [170, 0], source: test}\n";
	harness_init("0", "strict");
	extra_keys = "";
	cpu_script(0, 0, s0, 3);
	cpu_script(4, 100, s1, 3);
	run_ns(2000);
	ck_assert_uint_eq(done_ns(0, 0), 80);
	ck_assert_uint_eq(done_ns(4, 0), 230);
	ck_assert_uint_eq(done_ns(0, 2), 650);
	ck_assert_uint_eq(done_ns(4, 2), 960);
}
END_TEST

START_TEST(coh_service_variance_keeps_mean)
{
	uint64_t total, again;
	double mean_ns;

	harness_destroy();
	extra_coherence = "  service_cv: {cv: 1.0, source: test}\n";
	harness_init("0", "strict");
	total = saturate_four_cpus_until(100080);
	mean_ns = (double)(line_of(FA)->busy_ps - 80 * NS) / NS /
		  (double)(line_of(FA)->transfers - 1);
	ck_assert_uint_ge(total, 1881);
	ck_assert_uint_le(total, 2121);
	ck_assert_uint_ne(total, 2001);
	ck_assert_double_le(fabs(mean_ns - 50.0), 3.0);
	harness_destroy();
	harness_init("0", "strict");
	again = saturate_four_cpus_until(100080);
	extra_coherence = "";
	ck_assert_uint_eq(again, total);
}
END_TEST

static Suite *coh_law_suite(void)
{
	Suite *s = suite_create("coh_law");
	TCase *tc = tcase_create("strict");

	tcase_add_checked_fixture(tc, setup_strict, teardown);
	tcase_add_test(tc, coh_service_variance_keeps_mean);
	tcase_add_test(tc, coh_socket_distances_per_pair);
	suite_add_tcase(s, tc);
	tc = tcase_create("law");
	tcase_add_checked_fixture(tc, setup_law, teardown);
	tcase_add_loop_test(tc, coh_law_home_socket, 0, 2);
	tcase_add_loop_test(tc, coh_law_upgrade, 0, 2);
	tcase_add_loop_test(tc, coh_law_conflict_local, 0, 2);
	tcase_add_loop_test(tc, coh_law_conflict_remote, 0, 2);
	tcase_add_test(tc, coh_law_two_parties_no_conflict);
	tcase_add_loop_test(tc, coh_law_owner_rmw_queues, 0, 2);
	tcase_add_loop_test(tc, coh_law_load_xchg_saturated, 0, 2);
	tcase_add_test(tc, coh_law_predict_by_hand);
	tcase_add_test(tc, coh_law_fit_recovers);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(coh_law_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
