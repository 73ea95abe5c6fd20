// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_contended.c - how the coherence model serves contended
 * lines (doc/model/contended-lines.md), against arithmetic worked out by
 * hand on tests/cache_test.h's machine:
 *
 *	2 sockets x 4 cores x 2 threads (CPUs 0-3 socket 0, 4-7 socket 1,
 *	8-15 their SMT siblings); l1_hit 1 ns, rmw_local 5 ns, memory 80 ns,
 *	xfer_llc 50 ns, xfer_socket 100 ns, occupancy 1.0, strict hand-off.
 *
 * The test object's lines: a and b on line 0 (0x100000), c on line 1
 * (0x100040): one 128-byte aligned pair; the lock on line 2 (0x100080),
 * whose pair line nothing places.
 */
#include "tests/cache_test.h"

static void setup_prefetch(void)
{
	extra_coherence =
		"  adjacent_line_prefetch: {enabled: true, source: test}\n";
	harness_init("0", "strict");
	extra_coherence = "";
}

/*
 * The spatial prefetcher's RFO prefetch moves the pair's other line.
 *
 *	CPU 0 at 0:    rmw c: line 1 from memory, 80 ns      -> done 80;
 *	               its pair line 0 is idle: an RFO prefetch, from
 *	               memory too: line 0 is CPU 0's, busy until 80
 *	CPU 1 at 200:  rmw a: line 0 at CPU 0, idle: 50 ns   -> done 250;
 *	               line 1 is idle at CPU 0: prefetched, line 1 is
 *	               CPU 1's (busy 200..250)
 *	CPU 0 at 300:  rmw c (after delay 220 from 80): line 1 is at CPU 1
 *	               now: 50 ns                            -> done 350
 *	               (without the prefetcher a hit: 300 + 5 = 305)
 *
 * Line 1: memory, CPU 1's prefetch, CPU 0's rmw: 3 transfers, one of
 * them a prefetch. Line 0: CPU 0's prefetch, CPU 1's rmw, CPU 0's second
 * prefetch (idle again at 300): 3 transfers, 2 prefetches.
 */
static void pair_scripts(void)
{
	const struct step s0[] = { { .kind = RMW, .field = FC },
				   { .kind = DELAY, .ps = 220 * NS },
				   { .kind = RMW, .field = FC } };

	cpu_script(0, 0, s0, 3);
	cpu_step(1, 200, RMW, FA);
	run_ns(1000);
}

START_TEST(coh_prefetch_rfo_moves_pair_line)
{
	pair_scripts();
	ck_assert_uint_eq(done_ns(0, 0), 80);
	ck_assert_uint_eq(done_ns(1, 0), 250);
	ck_assert_uint_eq(done_ns(0, 2), 350);
	ck_assert_uint_eq(line_of(FC)->transfers, 3);
	ck_assert_uint_eq(line_of(FC)->prefetches, 1);
	ck_assert_uint_eq(line_of(FA)->transfers, 3);
	ck_assert_uint_eq(line_of(FA)->prefetches, 2);
}
END_TEST

/* The same scripts without the prefetcher: CPU 0's second rmw hits. */
START_TEST(coh_prefetch_off_pair_independent)
{
	pair_scripts();
	ck_assert_uint_eq(done_ns(0, 0), 80);
	/* line 0 cold: from memory, 80 ns */
	ck_assert_uint_eq(done_ns(1, 0), 280);
	ck_assert_uint_eq(done_ns(0, 2), 305);
	ck_assert_uint_eq(line_of(FC)->prefetches, 0);
}
END_TEST

/*
 * A prefetch is dropped when its line is busy: it never waits, nor goes
 * ahead of a demand request.
 *
 *	CPU 1 at 0:    rmw a: line 0 from memory             -> done 80,
 *	               line 0 busy until 80; line 1 idle: prefetched
 *	               (RFO, from memory): CPU 1's, busy until 80
 *	CPU 0 at 10:   rmw c: line 1 busy until 80, queued; served at 80
 *	               from CPU 1, 50 ns                     -> done 130;
 *	               line 0 is busy (until 80) at 10: the prefetch is
 *	               dropped, line 0 stays CPU 1's
 *	CPU 1 at 200:  rmw a (delay 120 from 80): a hit, 5   -> done 205
 */
START_TEST(coh_prefetch_dropped_when_busy)
{
	const struct step s1[] = { { .kind = RMW, .field = FA },
				   { .kind = DELAY, .ps = 120 * NS },
				   { .kind = RMW, .field = FA } };

	cpu_script(1, 0, s1, 3);
	cpu_step(0, 10, RMW, FC);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(1, 0), 80);
	ck_assert_uint_eq(done_ns(0, 0), 130);
	ck_assert_uint_eq(done_ns(1, 2), 205);
	ck_assert_uint_eq(line_of(FA)->prefetch_dropped, 1);
	ck_assert_uint_eq(line_of(FA)->prefetches, 0);
	ck_assert_uint_eq(line_of(FC)->prefetches, 1);
}
END_TEST

/*
 * A load miss prefetches the pair line for reading: a later load of it
 * hits.
 *
 *	CPU 0 at 0:   dependent load of c: memory, 80 ns     -> done 80;
 *	              line 0 idle: a read prefetch, from memory: CPU 0
 *	              shares it (arriving at 80)
 *	CPU 0 at 80:  dependent load of a: a hit, 1 ns       -> done 81
 *	              (without the prefetcher: 80 + 80 = 160)
 */
START_TEST(coh_prefetch_read_then_hit)
{
	const struct step s0[] = { { .kind = READ_DEP, .field = FC },
				   { .kind = READ_DEP, .field = FA } };

	cpu_script(0, 0, s0, 2);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(0, 0), 80);
	ck_assert_uint_eq(done_ns(0, 1), 81);
	ck_assert_uint_eq(line_of(FA)->prefetches, 1);
	ck_assert_uint_eq(line_of(FA)->hits, 1);
}
END_TEST

/* The lock's line (0x100080) has no modelled pair line: no prefetch. */
START_TEST(coh_prefetch_no_pair_line)
{
	const struct step s0[] = { { .kind = RMW, .field = FLOCK },
				   { .kind = READ_DEP, .field = FA } };

	cpu_script(0, 0, s0, 2);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(0, 0), 80);
	/* line 0 is not line 2's pair: cold, 80 ns more */
	ck_assert_uint_eq(done_ns(0, 1), 160);
}
END_TEST

/*
 * Two objects in one 128-byte pair couple too: CPU 0's copies of two
 * static per-CPU variables of 64 bytes, side by side at the start of its
 * unit (coh_per_cpu()): x on the pair's even line, y on its odd one.
 */
static void place_two_copies(void)
{
	static const struct coh_layout_field one[] = { { "v", 0, 8 } };
	static const struct coh_layout word = {
		.name = "word", .size = 64, .nr_fields = 1, .fields = one
	};
	struct coh_place at = coh_per_cpu(0, 64, false);

	ct.extra[0] = coh_object_field(
		coh_object_place(h.coh, "x@cpu0", &word, &at), 0);
	ct.extra[1] = coh_object_field(
		coh_object_place(h.coh, "y@cpu0", &word, &at), 0);
}

/*
 *	CPU 0 at 0:    rmw x: from memory (its node), 80 ns  -> done 80;
 *	               y's line is idle: an RFO prefetch, from memory:
 *	               CPU 0's, busy until 80
 *	CPU 0 at 80:   rmw y: a hit, 5 ns                    -> done 85
 *	CPU 1 at 200:  load x: M at CPU 0, same LLC, 50 ns   -> done 250;
 *	               y's line idle at CPU 0: a read prefetch, y Shared
 *	               by CPUs 0 and 1 (busy 200..250)
 *	CPU 0 at 300:  rmw y (delay 215 from 85): CPU 0 a sharer with one
 *	               other: an upgrade in the LLC (upgrade_llc, absent:
 *	               xfer_llc, 50 ns), no extra sharer    -> done 350
 *
 * Without the prefetcher: y from memory at 80 (160), x's load 50 ns
 * (250), and y a hit again at 375: 380.
 */
static void two_copies_scripts(void)
{
	const struct step s0[] = { { .kind = RMW, .field = FX },
				   { .kind = RMW, .field = FX + 1 },
				   { .kind = DELAY, .ps = 215 * NS },
				   { .kind = RMW, .field = FX + 1 } };

	place_two_copies();
	cpu_script(0, 0, s0, 4);
	cpu_step(1, 200, READ_DEP, FX);
	run_ns(1000);
}

START_TEST(coh_prefetch_two_objects)
{
	two_copies_scripts();
	ck_assert_uint_eq(done_ns(0, 0), 80);
	ck_assert_uint_eq(done_ns(0, 1), 85);
	ck_assert_uint_eq(done_ns(1, 0), 250);
	ck_assert_uint_eq(done_ns(0, 3), 350);
	ck_assert_uint_eq(field(FX + 1)->line->prefetches, 2);
}
END_TEST

START_TEST(coh_prefetch_off_two_objects)
{
	two_copies_scripts();
	ck_assert_uint_eq(done_ns(0, 1), 160);
	ck_assert_uint_eq(done_ns(1, 0), 250);
	ck_assert_uint_eq(done_ns(0, 3), 380);
	ck_assert_uint_eq(field(FX + 1)->line->prefetches, 0);
}
END_TEST

/* ---- item 3: how a contended line serves loads ---- */

/* The harness with coherence.read_service @policy. */
static void harness_read_service(const char *policy)
{
	static char keys[128];

	snprintf(keys, sizeof(keys),
		 "  read_service: {policy: %s, source: test}\n", policy);
	extra_coherence = keys;
	harness_init("0", "strict");
	extra_coherence = "";
}

static void setup_join(void)
{
	harness_read_service("join");
}

static void setup_shared_first(void)
{
	harness_read_service("shared_first");
}

/*
 * Two loads queued apart, an RMW between them:
 *
 *	CPU 0 at 0:    rmw a: memory                        -> 80
 *	CPU 1 at 100:  rmw a: from CPU 0, the line free     -> 150
 *	CPU 2 at 110:  load of b (dependent): queued
 *	CPU 3 at 120:  rmw a: queued behind it
 *	CPU 8 at 130:  load of b: queued behind that (CPU 8: core 0's
 *	               sibling, socket 0: 50 ns from cores 1-3)
 *
 * fifo: at 150 CPU 2's load downgrades the line from CPU 1, 50 ns -> 200
 * (Shared by 1 and 2, busy until 200); at 200 CPU 3's rmw invalidates
 * both, 50 + 2 x (2 - 1) = 52 -> 252; at 252 CPU 8's load downgrades it
 * from CPU 3 -> 302.
 * join: CPU 8's load joins CPU 2's downgrade at 150, from the nearest
 * sharer (50 ns), not before the downgrade completes -> 200; CPU 3's rmw
 * at 200 invalidates three sharers: 50 + 2 x 2 = 54 -> 254.
 */
static void two_loads_apart(void)
{
	cpu_step(0, 0, RMW, FA);
	cpu_step(1, 100, RMW, FA);
	cpu_step(2, 110, READ_DEP, FB);
	cpu_step(3, 120, RMW, FA);
	cpu_step(8, 130, READ_DEP, FB);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(0, 0), 80);
	ck_assert_uint_eq(done_ns(1, 0), 150);
	ck_assert_uint_eq(done_ns(2, 0), 200);
}

START_TEST(coh_read_service_fifo)
{
	two_loads_apart();
	ck_assert_uint_eq(done_ns(3, 0), 252);
	ck_assert_uint_eq(done_ns(8, 0), 302);
}
END_TEST

START_TEST(coh_read_service_join)
{
	two_loads_apart();
	ck_assert_uint_eq(done_ns(3, 0), 254);
	ck_assert_uint_eq(done_ns(8, 0), 200);
}
END_TEST

/*
 * A load that finds the line Shared after a load, an RMW queued:
 *
 *	CPU 0 at 0:    rmw a: memory                        -> 80
 *	CPU 3 at 100:  load of b: downgrades it from CPU 0  -> 150,
 *	               Shared by 0 and 3, busy until 150
 *	CPU 1 at 110:  rmw a: queued
 *	CPU 2 at 120:  load of b
 *
 * fifo (and join: it is the only load queued): CPU 2 waits behind the
 * rmw, which at 150 invalidates two sharers, 50 + 2 = 52 -> 202; CPU 2's
 * load then downgrades the line from CPU 1 -> 252.
 * shared_first: CPU 2's load is served at once from the nearest sharer,
 * 50 ns -> 170; at 150 the rmw invalidates three, 50 + 2 x 2 -> 204.
 */
static void load_while_shared(void)
{
	cpu_step(0, 0, RMW, FA);
	cpu_step(3, 100, READ_DEP, FB);
	cpu_step(1, 110, RMW, FA);
	cpu_step(2, 120, READ_DEP, FB);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(0, 0), 80);
	ck_assert_uint_eq(done_ns(3, 0), 150);
}

START_TEST(coh_read_service_fifo_while_shared)
{
	load_while_shared();
	ck_assert_uint_eq(done_ns(1, 0), 202);
	ck_assert_uint_eq(done_ns(2, 0), 252);
}
END_TEST

START_TEST(coh_read_service_shared_first)
{
	load_while_shared();
	ck_assert_uint_eq(done_ns(1, 0), 204);
	ck_assert_uint_eq(done_ns(2, 0), 170);
}
END_TEST

/* ---- item 4: dependent loads overlap a bounded window ---- */

/* insn 1 ns, a reorder buffer of 20 micro-ops: a 20 ns window. */
static void setup_rob(void)
{
	extra_keys = "  insn: {ns: 1, source: test}\n";
	extra_coherence = "  rob: {uops: 20, source: test}\n";
	harness_init("0", "strict");
	extra_keys = "";
	extra_coherence = "";
}

/*
 * A chase through two cold lines with work between the loads. A step's
 * time is when the CPU goes on after it.
 *
 *	0:   load a (dependent): line 0 from memory, done at 80; the CPU
 *	     goes on after the issue slot                       -> 1
 *	1:   30 ns of work                                      -> 31
 *	2:   load c needs a's value: 31 ns of work since a's issue, 11 past
 *	     the 20 ns window, which ran after a completed: 80 + 11 = 91;
 *	     c issued at 91 (memory: done at 171), go on        -> 92
 *	3:   10 ns of work                                      -> 102
 *	4:   load a needs c's value: 11 ns of work since c's issue, within
 *	     the window: at 171; a is a hit, 1 ns               -> 172
 *
 * Without the window (rob 0, the strict harness): 80, 110, 190, 200, 201.
 */
static void chase_two_lines(void)
{
	const struct step s0[] = { { .kind = READ_DEP, .field = FA },
				   { .kind = DELAY, .ps = 30 * NS },
				   { .kind = READ_DEP, .field = FC },
				   { .kind = DELAY, .ps = 10 * NS },
				   { .kind = READ_DEP, .field = FA } };

	cpu_script(0, 0, s0, 5);
	run_ns(1000);
}

START_TEST(coh_rob_window_chase)
{
	chase_two_lines();
	ck_assert_uint_eq(done_ns(0, 0), 1);
	ck_assert_uint_eq(done_ns(0, 1), 31);
	ck_assert_uint_eq(done_ns(0, 2), 92);
	ck_assert_uint_eq(done_ns(0, 3), 102);
	ck_assert_uint_eq(done_ns(0, 4), 172);
}
END_TEST

START_TEST(coh_rob_none_chase)
{
	chase_two_lines();
	ck_assert_uint_eq(done_ns(0, 0), 80);
	ck_assert_uint_eq(done_ns(0, 2), 190);
	ck_assert_uint_eq(done_ns(0, 4), 201);
}
END_TEST

/*
 * The next load comes while the dependent one is still queued:
 *
 *	CPU 1 at 0:   rmw a: memory, line 0 busy until 80      -> 80
 *	CPU 0 at 10:  load a (dependent): queued; goes on       -> 11
 *	              30 ns of work                             -> 41
 *	              load c: a's value is not known: CPU 0 blocks; at 80
 *	              line 0 serves a from CPU 1, 50 ns: done at 130; the
 *	              work past the window, 31 - 20 = 11 ns, runs after it:
 *	              141; c issued (memory), go on             -> 142
 */
START_TEST(coh_rob_window_queued)
{
	const struct step s0[] = { { .kind = READ_DEP, .field = FA },
				   { .kind = DELAY, .ps = 30 * NS },
				   { .kind = READ_DEP, .field = FC } };

	cpu_step(1, 0, RMW, FA);
	cpu_script(0, 10, s0, 3);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(1, 0), 80);
	ck_assert_uint_eq(done_ns(0, 0), 11);
	ck_assert_uint_eq(done_ns(0, 1), 41);
	ck_assert_uint_eq(done_ns(0, 2), 142);
}
END_TEST

/* ---- item 1: cold reads of other CPUs' per-CPU copies ---- */

/*
 * Another node's memory 130 ns, a translation miss 30 ns, two fill
 * buffers and one page walker; with @bounded false neither bound.
 */
static void harness_cold(bool bounded)
{
	extra_keys = "  memory_remote: {ns: 130, source: test}\n"
		     "  page_walk: {ns: 30, source: test}\n";
	extra_coherence = bounded ?
				  "  fill_buffers: {count: 2, source: test}\n"
				  "  page_walkers: {count: 1, source: test}\n" :
				  "";
	harness_init("0", "strict");
	extra_keys = "";
	extra_coherence = "";
}

static void setup_cold(void)
{
	harness_cold(true);
}

static void setup_cold_unbounded(void)
{
	harness_cold(false);
}

/*
 * CPU 0 sums four other CPUs' copies, each on a page of its own (a walk
 * each), then fences. CPUs 4-6 are on socket 1, CPU 1 on CPU 0's.
 *
 *	at 0: CPU 4's: walker 0..30, fill buffer A 30..160 (remote 130)
 *	at 1: CPU 5's: walker busy until 30: 30..60; buffer B 60..190
 *	at 2: CPU 6's: walker 60..90; both buffers busy, A first free at
 *	      160: 160..290
 *	at 3: CPU 1's: walker 90..120; B free at 190: 190..270 (local 80)
 *	fence at 4: waits for the last, 290
 *
 * Each issue takes the 1 ns issue slot. Unbounded, every miss starts at
 * its issue: 0+30+130 = 160, 161, 162, 3+30+80 = 113: the fence at 162.
 * A read of the CPU's own copy never walks: 80 ns.
 */
static void sum_four_copies(void)
{
	const struct step s0[] = { { .kind = COLD_OF_WALK, .field = 4 },
				   { .kind = COLD_OF_WALK, .field = 5 },
				   { .kind = COLD_OF_WALK, .field = 6 },
				   { .kind = COLD_OF_WALK, .field = 1 },
				   { .kind = FENCE },
				   { .kind = COLD_OF_WALK, .field = 0 },
				   { .kind = FENCE },
				   { .kind = COLD_OF, .field = 7 },
				   { .kind = FENCE } };

	cpu_script(0, 0, s0, 9);
	run_ns(2000);
}

START_TEST(coh_cold_bounded)
{
	sum_four_copies();
	ck_assert_uint_eq(done_ns(0, 3), 4);
	ck_assert_uint_eq(done_ns(0, 4), 290);
	/* own copy (B, free since 270): 290 + 80; CPU 7's, no walk: 370 + 130 */
	ck_assert_uint_eq(done_ns(0, 6), 370);
	ck_assert_uint_eq(done_ns(0, 8), 500);
}
END_TEST

START_TEST(coh_cold_unbounded)
{
	sum_four_copies();
	ck_assert_uint_eq(done_ns(0, 4), 162);
	/* 162 + 80, then 242 + 130 */
	ck_assert_uint_eq(done_ns(0, 6), 242);
	ck_assert_uint_eq(done_ns(0, 8), 372);
}
END_TEST

static Suite *contended_suite(void)
{
	Suite *s = suite_create("contended");
	TCase *tc = tcase_create("prefetch");

	tcase_add_checked_fixture(tc, setup_prefetch, teardown);
	tcase_add_test(tc, coh_prefetch_rfo_moves_pair_line);
	tcase_add_test(tc, coh_prefetch_dropped_when_busy);
	tcase_add_test(tc, coh_prefetch_read_then_hit);
	tcase_add_test(tc, coh_prefetch_no_pair_line);
	tcase_add_test(tc, coh_prefetch_two_objects);
	suite_add_tcase(s, tc);
	tc = tcase_create("fifo");
	tcase_add_checked_fixture(tc, setup_strict, teardown);
	tcase_add_test(tc, coh_prefetch_off_pair_independent);
	tcase_add_test(tc, coh_prefetch_off_two_objects);
	tcase_add_test(tc, coh_read_service_fifo);
	tcase_add_test(tc, coh_read_service_fifo_while_shared);
	tcase_add_test(tc, coh_rob_none_chase);
	suite_add_tcase(s, tc);
	tc = tcase_create("rob");
	tcase_add_checked_fixture(tc, setup_rob, teardown);
	tcase_add_test(tc, coh_rob_window_chase);
	tcase_add_test(tc, coh_rob_window_queued);
	suite_add_tcase(s, tc);
	tc = tcase_create("read-join");
	tcase_add_checked_fixture(tc, setup_join, teardown);
	tcase_add_test(tc, coh_read_service_join);
	suite_add_tcase(s, tc);
	tc = tcase_create("read-shared-first");
	tcase_add_checked_fixture(tc, setup_shared_first, teardown);
	tcase_add_test(tc, coh_read_service_shared_first);
	suite_add_tcase(s, tc);
	tc = tcase_create("cold");
	tcase_add_checked_fixture(tc, setup_cold, teardown);
	tcase_add_test(tc, coh_cold_bounded);
	suite_add_tcase(s, tc);
	tc = tcase_create("cold-unbounded");
	tcase_add_checked_fixture(tc, setup_cold_unbounded, teardown);
	tcase_add_test(tc, coh_cold_unbounded);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(contended_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
