// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_cache.c - the coherence model against arithmetic worked out
 * by hand, and queued spinlocks.
 *
 * The test machine has round numbers so the arithmetic is easy to follow:
 *
 *	2 sockets x 4 cores x 2 threads, threads_last numbering:
 *	  CPUs 0-3   socket 0, cores 0-3        CPUs 8-11  their SMT siblings
 *	  CPUs 4-7   socket 1, cores 4-7        CPUs 12-15 their SMT siblings
 *	l1_hit 1 ns, rmw_local 5 ns, memory 80 ns,
 *	xfer_smt 10 ns, xfer_llc 50 ns, xfer_socket 100 ns,
 *	inval_per_sharer 2 ns, xfer_per_waiter 0 ns (1 ns where stated),
 *	occupancy 1.0, strict hand-off (hold 20 ns where stated).
 *	The hand-off law's refinements are off (their defaults) except in
 *	the "law" cases, which add (law_keys below):
 *	xfer_socket_remote_home 160 ns, upgrade_llc 70 ns,
 *	upgrade_socket 200 ns, conflict_local 20 ns, conflict_remote 40 ns.
 *
 * Each simulated CPU runs a script of steps and records the time each step
 * completed (for a posted load or store: when it was issued; a fence
 * records when the posted accesses before it completed).
 */
#include "sim/util.h"
#include "tests/cache_test.h"

/*
 * An uncontended RMW. CPU 0 touches a cold line, then again.
 *
 *	0 ns  rmw a: nobody holds the line: memory, 80 ns  -> done at 80
 *	80 ns rmw a: owned by CPU 0: rmw_local, 5 ns         -> done at 85
 *	85 ns read b (same line): an L1 hit, 1 ns            -> done at 86
 *
 * Expect 80, 85, 86; the line moved once (from memory).
 */
START_TEST(coh_rmw_uncontended_local)
{
	const struct step s[] = { { .kind = RMW, .field = FA },
				  { .kind = RMW, .field = FA },
				  { .kind = READ, .field = FB } };

	cpu_script(0, 0, s, 3);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(0, 0), 80);
	ck_assert_uint_eq(done_ns(0, 1), 85);
	ck_assert_uint_eq(done_ns(0, 2), 86);
	ck_assert_uint_eq(line_of(FA)->transfers, 1);
	ck_assert_uint_eq(line_of(FA)->hits, 2);
}
END_TEST

/*
 * Two CPUs alternating RMWs on one line pay one transfer each, of their
 * distance class. CPU 0 starts; the other CPU's RMWs are 200 ns apart so
 * they never queue.
 *
 *	CPU 0:      rmw at 0 (memory, done 80), delay 200, rmw at 280:
 *	            the line is at the other CPU: done 280 + x
 *	the other:  rmw at 100 (from CPU 0, done 100 + x), delay 200,
 *	            rmw at 300 + x: the line is back at CPU 0: 300 + 2x
 *	x = 50 (CPU 1, same socket), 10 (CPU 8, SMT sibling),
 *	    100 (CPU 4, other socket)
 */
START_TEST(coh_rmw_alternating_by_distance)
{
	static const struct {
		unsigned int other;
		sim_time_t xfer;
	} cases[] = { { 1, 50 }, { 8, 10 }, { 4, 100 } };
	unsigned int i = (unsigned int)_i;
	const struct step s0[] = { { .kind = RMW, .field = FA },
				   { .kind = DELAY, .ps = 200 * NS },
				   { .kind = RMW, .field = FA } };
	const struct step s1[] = { { .kind = RMW, .field = FA },
				   { .kind = DELAY, .ps = 200 * NS },
				   { .kind = RMW, .field = FA } };
	sim_time_t x = cases[i].xfer;

	cpu_script(0, 0, s0, 3); /* rmw at 0 and at 80+200 */
	cpu_script(cases[i].other, 100, s1, 3); /* rmw at 100 and 300+x */
	run_ns(2000);
	ck_assert_uint_eq(done_ns(0, 0), 80);
	ck_assert_uint_eq(done_ns(cases[i].other, 0), 100 + x);
	/* CPU 0 again at 280: the line is at the other CPU. */
	ck_assert_uint_eq(done_ns(0, 2), 280 + x);
	/* The other again at 100 + x + 200: back from CPU 0. */
	ck_assert_uint_eq(done_ns(cases[i].other, 2), 300 + 2 * x);
	ck_assert_uint_eq(line_of(FA)->transfers, 4); /* memory + 3 */
	ck_assert_uint_eq(
		line_of(FA)->xfer_by_dist[machine_dist(&h.m, 0, cases[i].other)],
		3);
}
END_TEST

/*
 * N CPUs saturating one line: 4 cores of socket 0 loop on RMWs of a.
 * Every hand-off is same-socket (50 ns) and occupies the line for all of
 * it, so after the cold start the line completes one RMW per 50 ns:
 *
 *	CPU 0 runs first at 0 and is served at once, from memory: 80.
 *	Then completions at 80 + 50 k; those at or before 10080 ns:
 *	k = 0..200, 201 RMWs.
 *
 * With xfer_per_waiter = 1 ns: the cold RMW found nobody queued (the
 * others asked after it, at the same time), 80 ns; after that the three
 * other CPUs are queued at every hand-off: 50 + 3 = 53 ns. Completions
 * at 80 + 53 k <= 10080: k = 0..188, 189 RMWs.
 */
START_TEST(coh_rmw_saturated_line)
{
	uint64_t total = saturate_four_cpus();

	ck_assert_uint_eq(total, 201);
	/*
	 * Busy all the time: 80 ns from memory, then 200 hand-offs of 50 ns,
	 * and the 201st started at 10080: 80 + 201 x 50 = 10130 ns.
	 */
	ck_assert_uint_eq(line_of(FA)->busy_ps, 10130 * NS);
}
END_TEST

static void setup_waiter(void)
{
	harness_init("1", "strict");
}

START_TEST(coh_rmw_saturated_line_waiter_growth)
{
	uint64_t total = saturate_four_cpus();

	ck_assert_uint_eq(total, 189);
}
END_TEST

/*
 * Occupancy separate from latency: with occupancy 0.5 a same-socket
 * hand-off costs the requester 50 ns but holds the line only 25 ns, so
 * the next hand-off starts 25 ns later. Four CPUs each need 50 ns per RMW
 * and could ask for 4 / 50 ns = 0.08 per ns, more than the line serves,
 * so the line stays saturated at one RMW per 25 ns:
 *
 *	0   CPU 0 from memory: done 80, the line free at 40;
 *	40  CPU 1 served, done 90; 65 CPU 2, done 115; 90 CPU 3, 140; ...
 *	completions at 80, then 90 + 25 k <= 10080: k = 0..399: 401 RMWs.
 */
START_TEST(coh_rmw_saturated_line_occupancy)
{
	uint64_t total;

	harness_destroy();
	harness_init_occ("0", "strict", "0.5");
	total = saturate_four_cpus();
	ck_assert_uint_eq(total, 401);
}
END_TEST

/*
 * Packed fields bounce, padded ones do not. CPU 0 updates a, CPU 1 (same
 * socket) updates b 3 times each, both from time 0.
 *
 *	packed (a, b on line 0): the RMWs alternate on one line:
 *	  CPU0 0..80 (memory), CPU1 80..130, CPU0 130..180, CPU1 180..230,
 *	  CPU0 230..280, CPU1 280..330: CPU 1 finishes at 330.
 *	padded (a on line 0, c on line 1): CPU 0: 80, 85, 90;
 *	  CPU 1: 80, 85, 90 as well (its own cold line): no transfer.
 */
START_TEST(coh_false_sharing_packed_vs_padded)
{
	const struct step sa[] = { { .kind = RMW, .field = FA },
				   { .kind = RMW, .field = FA },
				   { .kind = RMW, .field = FA } };
	const struct step sb[] = { { .kind = RMW, .field = FB },
				   { .kind = RMW, .field = FB },
				   { .kind = RMW, .field = FB } };
	const struct step sc[] = { { .kind = RMW, .field = FC },
				   { .kind = RMW, .field = FC },
				   { .kind = RMW, .field = FC } };

	cpu_script(0, 0, sa, 3);
	cpu_script(1, 0, sb, 3);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(0, 2), 280);
	ck_assert_uint_eq(done_ns(1, 2), 330);
	ck_assert_uint_eq(line_of(FA)->transfers, 6);
	harness_destroy();

	harness_init("0", "strict");
	cpu_script(0, 0, sa, 3);
	cpu_script(1, 0, sc, 3);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(0, 2), 90);
	ck_assert_uint_eq(done_ns(1, 2), 90);
	ck_assert_uint_eq(line_of(FA)->transfers, 1);
	ck_assert_uint_eq(line_of(FC)->transfers, 1);
}
END_TEST

/*
 * A read of a line another CPU just wrote. CPU 0 RMWs a at 0 (done 80);
 * CPU 4 (other socket) reads a at 100 and fences.
 *
 *	The load is posted: issued at 100, 1 ns issue slot -> step done 101.
 *	It completes at 100 + 100 = 200: the fence ends at 200.
 *	Afterwards both CPUs share the line (M at 0 became S).
 */
START_TEST(coh_read_after_remote_write)
{
	const struct step w[] = { { .kind = RMW, .field = FA } };
	const struct step r[] = { { .kind = READ, .field = FA },
				  { .kind = FENCE } };

	cpu_script(0, 0, w, 1);
	cpu_script(4, 100, r, 2);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(4, 0), 101);
	ck_assert_uint_eq(done_ns(4, 1), 200);
	ck_assert_int_eq(line_of(FA)->owner, -1);
	ck_assert_uint_eq(line_of(FA)->nr_sharers, 2);
}
END_TEST

/*
 * Loads of a Shared line do not queue behind each other. CPU 0 owns the
 * line (RMW at 0, from memory: 80). At 100 CPUs 1, 2 and 3 (other cores
 * of socket 0) load it, then fence.
 *
 *	cpu 1: M at CPU 0 -> S, xfer_llc 50: done at 150; the line is busy
 *	       until 150 (occupancy 1.0)
 *	cpu 2, cpu 3: the line is Shared after a load: they join at once,
 *	       from the nearest sharer (another core: 50): done at 150,
 *	       occupying nothing
 *
 * Served one at a time they would finish at 150, 200 and 250. The line
 * was busy 80 (the memory fetch) + 50 ns, and moved 4 times.
 */
START_TEST(coh_reads_of_shared_line_join)
{
	const struct step w[] = { { .kind = RMW, .field = FA } };
	const struct step r[] = { { .kind = READ, .field = FA },
				  { .kind = FENCE } };

	cpu_script(0, 0, w, 1);
	cpu_script(1, 100, r, 2);
	cpu_script(2, 100, r, 2);
	cpu_script(3, 100, r, 2);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(1, 1), 150);
	ck_assert_uint_eq(done_ns(2, 1), 150);
	ck_assert_uint_eq(done_ns(3, 1), 150);
	ck_assert_uint_eq(line_of(FA)->busy_ps, 130 * NS);
	ck_assert_uint_eq(line_of(FA)->transfers, 4);
	ck_assert_uint_eq(line_of(FA)->nr_sharers, 4);
}
END_TEST

/*
 * Read-then-RMW is two transactions. CPU 0 owns the line (RMW at 0, 80).
 * CPU 1 at 100: read a, then RMW a.
 *
 *	read: posted, completes at 100 + 50 = 150 (CPU 0 -> S, CPU 1 S)
 *	rmw:  a locked RMW waits for the posted read (150), then needs the
 *	      line exclusive: invalidate CPU 0's copy, 50 ns -> 200.
 *
 * A blind RMW would have finished at 150: load + RMW costs 2x.
 */
START_TEST(coh_read_then_rmw_two_transactions)
{
	const struct step w[] = { { .kind = RMW, .field = FA } };
	const struct step s[] = { { .kind = READ, .field = FA },
				  { .kind = RMW, .field = FA } };

	cpu_script(0, 0, w, 1);
	cpu_script(1, 100, s, 2);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(1, 1), 200);
	ck_assert_uint_eq(line_of(FA)->transfers,
			  3); /* memory, read, upgrade */
	ck_assert_int_eq(line_of(FA)->owner, 1);
}
END_TEST

/*
 * Two posted reads of one line merge into one miss. CPU 0 owns line 0
 * (RMW a at 0, done 80). CPU 1 at 100 reads a, reads b, fences.
 *
 *	read a: miss, issued 100, 1 ns slot        -> 101
 *	read b: same line, merges into the miss     -> 102 (1 ns)
 *	fence:  the miss completes at 100 + 50      -> 150
 *	One transfer for the two reads; one merged access counted.
 */
START_TEST(coh_posted_reads_merge)
{
	const struct step w[] = { { .kind = RMW, .field = FA } };
	const struct step s[] = { { .kind = READ, .field = FA },
				  { .kind = READ, .field = FB },
				  { .kind = FENCE } };

	cpu_script(0, 0, w, 1);
	cpu_script(1, 100, s, 3);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(1, 0), 101);
	ck_assert_uint_eq(done_ns(1, 1), 102);
	ck_assert_uint_eq(done_ns(1, 2), 150);
	ck_assert_uint_eq(line_of(FA)->transfers, 2); /* memory + one read */
	ck_assert_uint_eq(line_of(FA)->merged, 1);
}
END_TEST

/*
 * RMW then read of the same line by two CPUs, both starting at 0, under
 * strict hand-off and under a 20 ns hold.
 *
 * strict:
 *	0   CPU 0 rmw: memory -> 80.     CPU 1 rmw queued behind it.
 *	80  CPU 0 read: it owns the line but CPU 1's RMW waits: strict sends
 *	    the read to the back of the queue (posted); CPU 0 fences.
 *	80  CPU 1 rmw served: 50 ns -> 130.
 *	130 CPU 1 read: it owns the line and only a load waits (CPU 0's);
 *	    loads do not conflict: a hit -> 131.
 *	130 CPU 0's read served: from CPU 1, 50 ns -> 180 (CPU 0's fence).
 * hold (20 ns):
 *	80  CPU 0 read: the line arrived at 80, within 20 ns: hit -> 81.
 *	100 the window closes; CPU 1's rmw served: 50 ns -> 150;
 *	150 its read: a hit -> 151.
 */
START_TEST(coh_rmw_then_read_strict_vs_hold)
{
	const struct step s[] = { { .kind = RMW, .field = FA },
				  { .kind = READ, .field = FA },
				  { .kind = FENCE } };

	cpu_script(0, 0, s, 3);
	cpu_script(1, 0, s, 3);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(0, 0), 80);
	ck_assert_uint_eq(done_ns(1, 0), 130);
	ck_assert_uint_eq(done_ns(0, 2), 180);
	ck_assert_uint_eq(done_ns(1, 2), 131);
	harness_destroy();

	harness_init("0", "hold");
	cpu_script(0, 0, s, 3);
	cpu_script(1, 0, s, 3);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(0, 2), 81);
	ck_assert_uint_eq(done_ns(1, 0), 150);
	ck_assert_uint_eq(done_ns(1, 2), 151);
}
END_TEST

/*
 * The hold window keeps the line for its owner against a queued request.
 * CPUs 0 and 1 RMW a at 0; CPU 0 RMWs it again 1 ns after its first
 * completes.
 *
 * strict: 0 CPU 0 from memory -> 80; 80 CPU 1 served -> 130; CPU 0's
 *	second RMW at 81 queues behind it: served at 130 -> 180.
 * hold (20 ns): CPU 0's second RMW at 81 is inside 80..100: a hit,
 *	rmw_local -> 86; CPU 1 is served when the window closes, 100 -> 150.
 */
START_TEST(coh_hold_window_keeps_line)
{
	const struct step s0[] = { { .kind = RMW, .field = FA },
				   { .kind = DELAY, .ps = 1 * NS },
				   { .kind = RMW, .field = FA } };
	const struct step s1[] = { { .kind = RMW, .field = FA } };

	cpu_script(0, 0, s0, 3);
	cpu_script(1, 0, s1, 1);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(0, 2), 180);
	ck_assert_uint_eq(done_ns(1, 0), 130);
	harness_destroy();

	harness_init("0", "hold");
	cpu_script(0, 0, s0, 3);
	cpu_script(1, 0, s1, 1);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(0, 2), 86);
	ck_assert_uint_eq(done_ns(1, 0), 150);
	ck_assert_uint_eq(line_of(FA)->hits, 1);
}
END_TEST

/*
 * An RMW of an idle line (nobody queued, the last hand-off over) is served
 * at once, without the queue (access()'s shortcut), except that under
 * the hold rule the line's owner keeps it until its window closes. CPU 0
 * RMWs a at 0 (memory: done 80, the line free at 80); CPU 1 RMWs it at
 * @at, from CPU 0 on its socket, 50 ns:
 *
 *	strict, at 85: the line is free: 85 + 50 = 135.
 *	hold (20 ns), at 85: CPU 0 holds it until 80 + 20 = 100: 150.
 *	hold, at 105: the window has closed: 105 + 50 = 155.
 *
 * Either way the line moved twice and nobody is left queued on it.
 */
START_TEST(coh_idle_line_served_at_once)
{
	static const struct {
		const char *handoff;
		sim_time_t at, done;
	} cases[] = {
		{ "strict", 85, 135 },
		{ "hold", 85, 150 },
		{ "hold", 105, 155 },
	};
	unsigned int i = (unsigned int)_i;
	const struct step s[] = { { .kind = RMW, .field = FA } };

	harness_destroy();
	harness_init("0", cases[i].handoff);
	cpu_script(0, 0, s, 1);
	cpu_script(1, cases[i].at, s, 1);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(0, 0), 80);
	ck_assert_uint_eq(done_ns(1, 0), cases[i].done);
	ck_assert_uint_eq(line_of(FA)->transfers, 2);
	ck_assert_uint_eq(line_of(FA)->q_len, 0);
	ck_assert_uint_eq(line_of(FA)->q_cpus, 0);
	ck_assert_int_eq(line_of(FA)->owner, 1);
}
END_TEST

/*
 * A CPU with two requests queued on one line counts once among the CPUs
 * queued there (l->q_cpus, which the legacy xfer_per_waiter term of 1 ns
 * prices), until its last one is served. CPU 0 RMWs a at 0 (memory, 80,
 * nobody else queued); CPU 1 posts a load of a at 10 and a store to it at
 * 11 (a store does not merge into a load), then fences; CPU 2 RMWs a at
 * 20. At 80 the queue is CPU 1's load, CPU 1's store, CPU 2's RMW:
 *
 *	80  CPU 1's load, from CPU 0 (50); the other CPUs queued: CPU 2
 *	    (CPU 1's store is its own): + 1 -> 131; the line is Shared.
 *	131 CPU 1's store: an upgrade against CPU 0's copy (upgrade_llc,
 *	    by default xfer_llc, 50); CPU 2 queued: + 1 -> 182, CPU 1's
 *	    fence done at 182.
 *	182 CPU 2's RMW from CPU 1: 50, nobody queued -> 232.
 *
 * Counting CPU 1 twice would make the first 52; dropping it at its first
 * request served, the second 50. CPU 1's posted load is the line's first
 * posted request: the line has l->q_last[] from then on, and CPU 1's
 * word is 0 once its store is served.
 */
START_TEST(coh_queued_cpu_counted_once)
{
	const struct step s0[] = { { .kind = RMW, .field = FA } };
	const struct step s1[] = { { .kind = READ, .field = FA },
				   { .kind = WRITE, .field = FA },
				   { .kind = FENCE } };
	const struct step s2[] = { { .kind = RMW, .field = FA } };

	cpu_script(0, 0, s0, 1);
	cpu_script(1, 10, s1, 3);
	cpu_script(2, 20, s2, 1);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(0, 0), 80);
	ck_assert_uint_eq(done_ns(1, 0), 11); /* posted: issued */
	ck_assert_uint_eq(done_ns(1, 1), 12);
	ck_assert_uint_eq(done_ns(1, 2), 182);
	ck_assert_uint_eq(done_ns(2, 0), 232);
	ck_assert_uint_eq(line_of(FA)->q_cpus, 0);
	ck_assert_uint_eq(line_of(FA)->q_writers, 0);
	ck_assert_ptr_nonnull(line_of(FA)->q_last);
	ck_assert_uint_eq(line_of(FA)->q_last[1], 0);
}
END_TEST

/*
 * Who is queued on a line (l->q_cpus, and each request's bit saying it is
 * its CPU's latest there) across a growth of the ring, which keeps every
 * request at its position. CPUs 0-3 are cores of socket 0 (xfer_llc 50
 * between them), 8 and 10 the siblings of 0 and 2; xfer_per_waiter 1 ns.
 *
 *	0   CPU 0 RMWs a: memory, 80; the line free at 80.
 *	10  CPUs 1..7 RMW a: queued at positions 0..6 (ring of 8). RMWs
 *	    only: the line has no l->q_last[] (at 90, CPUs 2..7 queued).
 *	80  CPU 1's RMW from CPU 0: 50 + 6 other CPUs queued -> 136; the
 *	    head is now position 1.
 *	100 CPU 8 posts a load of a: position 7, the line's first posted
 *	    request (its l->q_last[] from now); at 101 + 9 = 110, a store.
 *	105 CPU 10 posts a load of a: position 8, in slot 0 of the full
 *	    ring; at 106 it fences.
 *	110 CPU 8's store: the ring grows to 16, positions 1..8 stay in slots
 *	    1..8; the store is position 9, and takes the bit off position 7.
 *	    Queued: CPUs 2..7, 8 (twice) and 10, 8 CPUs. l->q_last[], 1 +
 *	    the slot of each CPU's latest posted request: CPU 10's went from
 *	    slot 0 (position 8 in the ring of 8) to slot 8 at the growth, 9;
 *	    CPU 8's is the store's, slot 9: 10; CPU 2's RMW, which it waits
 *	    for, is the only request of its CPU there and has no word: 0.
 *	136 CPU 2's RMW from CPU 1: 50 + 7 other CPUs -> 193.
 *
 * Re-basing the ring at its growth would have taken the bit off CPU 10's
 * load (then in slot 7), and CPU 8 would count twice or never leave.
 */
START_TEST(coh_queued_across_ring_growth)
{
	const struct step rmw[] = { { .kind = RMW, .field = FA } };
	const struct step s8[] = { { .kind = READ, .field = FA },
				   { .kind = DELAY, .ps = 9 * NS },
				   { .kind = WRITE, .field = FA },
				   { .kind = FENCE } };
	const struct step s10[] = { { .kind = READ, .field = FA },
				    { .kind = FENCE } };
	struct coh_line *l;
	unsigned int i;

	harness_destroy();
	harness_init("1", "strict");
	l = line_of(FA);
	cpu_script(0, 0, rmw, 1);
	for (i = 1; i <= 7; i++)
		cpu_script(i, 10, rmw, 1);
	cpu_script(8, 100, s8, 4);
	cpu_script(10, 105, s10, 2);
	run_ns(90);
	ck_assert_uint_eq(l->q_len, 6); /* CPU 1's served at 80 */
	ck_assert_ptr_null(l->q_last);
	run_ns(120);
	ck_assert_uint_eq(l->q_cap, 16);
	ck_assert_uint_eq(l->q_head, 1);
	ck_assert_uint_eq(l->q_len, 9);
	ck_assert_uint_eq(l->q_cpus, 8);
	ck_assert_uint_eq(l->q[7].cpu, 8);
	ck_assert_uint_eq(l->q[7].last, 0);
	ck_assert_uint_eq(l->q[8].cpu, 10);
	ck_assert_uint_eq(l->q[8].last, 1);
	ck_assert_uint_eq(l->q[9].cpu, 8);
	ck_assert_uint_eq(l->q[9].last, 1);
	ck_assert_uint_eq(l->q_last[10], 9);
	ck_assert_uint_eq(l->q_last[8], 10);
	ck_assert_uint_eq(l->q_last[2], 0); /* an RMW: waited for */
	ck_assert_uint_eq(l->q_last[1], 0); /* served */
	run_ns(5000);
	ck_assert_uint_eq(done_ns(1, 0), 136);
	ck_assert_uint_eq(done_ns(2, 0), 193);
	ck_assert_uint_eq(l->q_len, 0);
	ck_assert_uint_eq(l->q_cpus, 0);
	for (i = 0; i < 11; i++)
		ck_assert_uint_eq(l->q_last[i], 0);
}
END_TEST

/*
 * The nearest and the farthest sharer by distance class (sharer_dist()'s
 * bitmaps of the CPUs within each distance), not by CPU number. CPUs 5
 * and 6 are cores of socket 1, CPU 13 is CPU 5's SMT sibling; smt 10,
 * llc 50 ns, and with the law's refinements off an upgrade costs the
 * transfer of its class:
 *
 *	0   CPU 13 reads a: memory, 80, Exclusive.
 *	100 CPU 6 reads it from CPU 13: 50 -> 150; shared {6, 13}.
 *	200 CPU 5 reads it: the nearest sharer is its sibling 13 (10), not
 *	    the lower-numbered 6 (50): 210; shared {5, 6, 13}.
 *	300 CPU 13 RMWs it: an upgrade priced by the farthest other sharer,
 *	    6 (LLC), not the lower-numbered 5 (SMT), plus one more sharer to
 *	    invalidate: 50 + 2 -> 352.
 *	400 CPU 5 reads it from its sibling: 10 -> 410; shared {5, 13}.
 *	500 CPU 5 RMWs it: the farthest (only) other sharer is its sibling:
 *	    an SMT upgrade, 10 -> 510.
 */
START_TEST(coh_sharer_nearest_and_farthest)
{
	const struct step s13[] = { { .kind = READ, .field = FA },
				    { .kind = FENCE },
				    { .kind = DELAY, .ps = 220 * NS },
				    { .kind = RMW, .field = FA } };
	const struct step s5[] = { { .kind = READ, .field = FA },
				   { .kind = FENCE },
				   { .kind = DELAY, .ps = 190 * NS },
				   { .kind = READ, .field = FA },
				   { .kind = FENCE },
				   { .kind = DELAY, .ps = 90 * NS },
				   { .kind = RMW, .field = FA } };
	const struct step r[] = { { .kind = READ, .field = FA },
				  { .kind = FENCE } };

	cpu_script(13, 0, s13, 4);
	cpu_script(6, 100, r, 2);
	cpu_script(5, 200, s5, 7);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(13, 1), 80);
	ck_assert_uint_eq(done_ns(6, 1), 150);
	ck_assert_uint_eq(done_ns(5, 1), 210);
	ck_assert_uint_eq(done_ns(13, 3), 352);
	ck_assert_uint_eq(done_ns(5, 4), 410);
	ck_assert_uint_eq(done_ns(5, 6), 510);
	ck_assert_int_eq(line_of(FA)->owner, 5);
	ck_assert_uint_eq(line_of(FA)->nr_sharers, 0);
}
END_TEST

/*
 * The hot fields of every line are one host cache line (cache.h): lines
 * start on a 64-byte boundary, and ops, the first field after them, is at
 * 64. What an access or hand-off writes besides (the counts, the time
 * waited and busy, owner_since) is in the next three host lines, and a
 * field's counts in the first of its own.
 */
START_TEST(coh_line_hot_fields_one_host_line)
{
	unsigned int f;

	ck_assert_uint_eq(offsetof(struct coh_line, ops), 64);
	ck_assert_uint_lt(offsetof(struct coh_line, busy_ps), 4 * 64);
	ck_assert_uint_lt(offsetof(struct coh_line, owner_since), 4 * 64);
	ck_assert_uint_lt(offsetof(struct coh_field_stat, wait_ps), 64);
	for (f = FA; f <= FLOCK; f++)
		ck_assert_uint_eq((uintptr_t)line_of(f) % 64, 0);
}
END_TEST

/*
 * Invalidating sharers. CPUs 0, 1 and 4 read a (they share it); then
 * CPU 2 RMWs it: the line comes from the farthest sharer (CPU 4, other
 * socket, 100 ns) plus 2 ns for each further sharer (2 more): 104 ns.
 *
 *	0: CPU 0 read from memory (80, exclusive); 100: CPU 1 read from
 *	CPU 0 (50 -> 150); 200: CPU 4 read (nearest sharer is on the other
 *	socket: 100 -> 300); 400: CPU 2 rmw -> 400 + 100 + 2 * 2 = 504.
 */
START_TEST(coh_rmw_invalidates_sharers)
{
	const struct step r[] = { { .kind = READ, .field = FA },
				  { .kind = FENCE } };
	const struct step w[] = { { .kind = RMW, .field = FA } };

	cpu_script(0, 0, r, 2);
	cpu_script(1, 100, r, 2);
	cpu_script(4, 200, r, 2);
	cpu_script(2, 400, w, 1);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(1, 1), 150);
	ck_assert_uint_eq(done_ns(4, 1), 300);
	ck_assert_uint_eq(done_ns(2, 0), 504);
	ck_assert_uint_eq(line_of(FA)->nr_sharers, 0);
	ck_assert_int_eq(line_of(FA)->owner, 2);
}
END_TEST

/*
 * Lock hand-over order is FIFO. CPUs 3, 1, 2 ask for the lock at 0, 10
 * and 20 ns, and hold it for 300 ns each (longer than any transfer).
 * Expect acquisitions in arrival order 3, 1, 2 and each one at least
 * 300 ns after the previous; the lock word moved to every new holder.
 */
START_TEST(qspinlock_fifo_handover)
{
	const struct step s[] = { { .kind = LOCK },
				  { .kind = DELAY, .ps = 300 * NS },
				  { .kind = UNLOCK },
				  { .kind = FENCE } };

	cpu_script(3, 0, s, 4);
	cpu_script(1, 10, s, 4);
	cpu_script(2, 20, s, 4);
	run_ns(5000);
	ck_assert_uint_eq(ct.nr_order, 3);
	ck_assert_uint_eq(ct.order[0], 3);
	ck_assert_uint_eq(ct.order[1], 1);
	ck_assert_uint_eq(ct.order[2], 2);
	ck_assert_uint_eq(ct.lock.acquired, 3);
	ck_assert_uint_eq(ct.lock.contended, 2);
	ck_assert_uint_ge(done_ns(1, 0), done_ns(3, 0) + 300);
	ck_assert_uint_ge(done_ns(2, 0), done_ns(1, 0) + 300);
	ck_assert_int_eq(ct.lock.owner, -1);
}
END_TEST

/*
 * A dependent load waits; a posted one does not. CPU 0 RMWs a at 0
 * (memory, 80 ns; the line's home is socket 0).
 *
 *	CPU 4 at 100: read_dep a: the line is M at CPU 0, other socket,
 *	  homed at the holder's socket: xfer_socket 100 -> done at 200
 *	  (a posted read would be done at its issue, 101); then
 *	  read_dep b (same line, now Shared by CPU 4): an L1 hit -> 201.
 *	CPU 1 at 300: read c (line 1, cold: posted, issued -> 301), then
 *	  read_dep c again: it merges into the posted miss and waits for
 *	  it: memory, 300 + 80 = 380.
 */
START_TEST(coh_read_dep_waits)
{
	const struct step w[] = { { .kind = RMW, .field = FA } };
	const struct step r4[] = { { .kind = READ_DEP, .field = FA },
				   { .kind = READ_DEP, .field = FB } };
	const struct step r1[] = { { .kind = READ, .field = FC },
				   { .kind = READ_DEP, .field = FC } };

	cpu_script(0, 0, w, 1);
	cpu_script(4, 100, r4, 2);
	cpu_script(1, 300, r1, 2);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(4, 0), 200);
	ck_assert_uint_eq(done_ns(4, 1), 201);
	ck_assert_uint_eq(done_ns(1, 0), 301);
	ck_assert_uint_eq(done_ns(1, 1), 380);
}
END_TEST

/*
 * coh_set_mem_limit(): with the limit at what the harness's object took
 * plus 64 KiB, objects of test_layout (three lines each: fields at 0, 64
 * and 128) are placed until the next would pass it; from then on the coh
 * is failed with EFBIG, every new object's fields are on one spare line
 * (a, c and lock share it), the accounted bytes never pass the limit, and
 * nothing aborts (issue 14, item 4: line_get() was SIM_BUG_ON(!l)). A
 * line is over 400 bytes, so 64 KiB hold at most 64 Ki / (3 x 400) < 60
 * objects. Without a limit, 1000 objects place 3000 more lines.
 */
START_TEST(coh_mem_limit_fails_cleanly)
{
	uint64_t limit = coh_mem(h.coh) + (64u << 10);
	struct coh_object *o = NULL;
	unsigned int i;

	ck_assert_uint_gt(coh_mem(h.coh), 3 * 400);
	ck_assert_int_eq(coh_failed(h.coh), 0);
	coh_set_mem_limit(h.coh, limit);
	for (i = 0; i < 1000 && !coh_failed(h.coh); i++)
		o = coh_object_create(h.coh, "more", &test_layout, 0);
	ck_assert_int_eq(coh_failed(h.coh), EFBIG);
	ck_assert_uint_lt(i, 60);
	ck_assert_uint_le(coh_mem(h.coh), limit);
	o = coh_object_create(h.coh, "after", &test_layout, 0);
	ck_assert_ptr_nonnull(o);
	ck_assert_ptr_eq(coh_object_field(o, FA)->line,
			 coh_object_field(o, FC)->line);
	ck_assert_ptr_eq(coh_object_field(o, FA)->line,
			 coh_object_field(o, FLOCK)->line);
	ck_assert_uint_le(coh_mem(h.coh), limit);
	ck_assert_int_eq(coh_failed(h.coh), EFBIG);
}
END_TEST

START_TEST(coh_mem_no_limit)
{
	uint64_t before = coh_mem(h.coh);
	struct coh_object *o = NULL;
	unsigned int i;

	for (i = 0; i < 1000; i++)
		o = coh_object_create(h.coh, "more", &test_layout, 0);
	ck_assert_int_eq(coh_failed(h.coh), 0);
	ck_assert_ptr_ne(coh_object_field(o, FA)->line,
			 coh_object_field(o, FC)->line);
	ck_assert_uint_ge(coh_mem(h.coh) - before, 3000 * 400);
}
END_TEST

/*
 * coh_cpu.resume_inline: a CPU that promised to touch nothing shared after
 * an access it waited for goes on at once, its clock at the completion,
 * instead of being woken by an event there. The times are those of
 * coh_rmw_alternating_by_distance with CPU 1 (x = 50 ns): 80, 150 (100 +
 * x), 330 (280 + x), 400 (300 + 2x). Every RMW there is served on arrival
 * (the line is free), so each one's completion event goes:
 *
 *	plain:  CPU 0 start@0, done@80, rmw@280, done@330;
 *	        CPU 1 start@100, done@150, rmw@350, done@400   8 events
 *	inline: CPU 0 start@0 (rmw, delay, sync), rmw@280;
 *	        CPU 1 start@100, rmw@350                       4 events
 */
START_TEST(coh_resume_inline_alternating)
{
	const struct step s[] = { { .kind = RMW, .field = FA },
				  { .kind = DELAY, .ps = 200 * NS },
				  { .kind = RMW, .field = FA } };
	bool inl = _i;

	h.cc[0]->resume_inline = inl;
	h.cc[1]->resume_inline = inl;
	cpu_script(0, 0, s, 3);
	cpu_script(1, 100, s, 3);
	run_ns(2000);
	ck_assert_uint_eq(done_ns(0, 0), 80);
	ck_assert_uint_eq(done_ns(1, 0), 150);
	ck_assert_uint_eq(done_ns(0, 2), 330);
	ck_assert_uint_eq(done_ns(1, 2), 400);
	ck_assert_uint_eq(line_of(FA)->transfers, 4);
	ck_assert_uint_eq(sim_events(h.e), inl ? 4 : 8);
}
END_TEST

/*
 * Four CPUs saturating a line give the same answer with resume_inline as
 * without (coh_rmw_saturated_line: 201 RMWs complete by 10080 ns, the
 * line busy 10130 ns). The 202nd is served at 10080 and completes at
 * 10130, past the run's end: like its wake-up event, which the run never
 * reaches, it is not resumed inline (the 202nd does not count). With no
 * think time a CPU asks again the moment it is served, so its completion
 * is its next arrival either way: the same events, less one or two.
 */
START_TEST(coh_resume_inline_saturated)
{
	unsigned int cpu;
	uint64_t total;

	for (cpu = 0; cpu < 4; cpu++)
		h.cc[cpu]->resume_inline = _i;
	total = saturate_four_cpus();
	ck_assert_uint_eq(total, 201);
	ck_assert_uint_eq(line_of(FA)->busy_ps, 10130 * NS);
	ck_assert_uint_eq(line_of(FA)->transfers, 202); /* 201 + the 202nd */
}
END_TEST

/*
 * coh_rmw_ahead(): an RMW after a think is announced to its line when the
 * line's service event is pending and its queue lasts until the RMW
 * arrives (q_len x the hand-off in progress >= arrival - free_at); the
 * line takes it into its queue when it next serves. The same times and
 * counts as coh_rmw(), fewer events. CPUs 0-3 (same socket: 50 ns,
 * occupancy 1) loop { think 10 ns; rmw a } from 0 until 300 ns:
 *
 *	10   CPU 0 served at once (cold: memory), done 90, the line busy
 *	     until 90; it thinks to 100, the line not serving: a wake-up.
 *	     CPUs 1-3 queue; service at 90.
 *	90   serve CPU 1, done 140; it thinks to 150: 2 queued x 50 >= 10,
 *	     announced. 100: CPU 0 arrives, queues (the announced CPU 1 is
 *	     later).
 *	140  serve CPU 2 (done 190), announced for 200; 190: CPU 1 (150)
 *	     joins, serve CPU 3 (done 240), announced for 250; 240: CPU 2
 *	     joins, serve CPU 0 (done 290), announced for 300; 290: CPU 3
 *	     joins, serve CPU 1 (done 340: past the end, its wake-up).
 *	300  the end: CPU 0's RMW at 300 arrived (coh_settle() queues it).
 *
 * RMWs done: CPU 0 at 90 and 290, CPUs 1-3 at 140, 190, 240: 5. Issued:
 * 4 at 10, then at 100, 150, 200, 250, 300: 9. Transfers: memory + 5 = 6.
 * Queued at the end: CPUs 2, 3, 0. Events: 4 starts, 4 arrivals at 10,
 * the services at 90, 140, 190, 240, 290, CPU 0's arrival at 100; and,
 * plain, the arrivals at 150, 200, 250, 300 too: 14 against 18.
 */
START_TEST(coh_rmw_ahead_admitted)
{
	const struct step s[] = {
		{ .kind = LOOP_AHEAD, .field = FA, .ps = 300 * NS }
	};
	uint64_t total = 0;
	unsigned int cpu;

	ct.ahead = _i;
	for (cpu = 0; cpu < 4; cpu++) {
		h.cc[cpu]->resume_inline = true;
		cpu_script(cpu, 0, s, 1);
	}
	run_ns(300);
	coh_settle(h.coh);
	for (cpu = 0; cpu < 4; cpu++)
		total += ct.scripts[cpu].loops;
	ck_assert_uint_eq(total, 5);
	ck_assert_uint_eq(ct.scripts[0].loops, 2);
	ck_assert_uint_eq(line_of(FA)->ops[COH_RMW], 9);
	ck_assert_uint_eq(line_of(FA)->transfers, 6);
	ck_assert_uint_eq(line_of(FA)->q_len, 3);
	ck_assert_uint_eq(line_of(FA)->nr_ann, 0);
	ck_assert_uint_eq(sim_events(h.e), ct.ahead ? 14 : 18);
}
END_TEST

/*
 * An announced RMW that finds its line idle arrives in an event of its
 * own, at its place in the run order (ann_arrive()). Same socket, 50 ns:
 *
 *	0    CPU 0 rmw: cold, memory, done 80 (the line busy until 80)
 *	10   CPU 1 rmw: queued; 20: CPU 2 rmw: queued behind it
 *	80   serve CPU 1, done 130; it thinks 40 ns, to 170: 1 queued x 50
 *	     >= 170 - 130, announced
 *	130  serve CPU 2, done 180: the queue is empty, the line idle but
 *	     for CPU 1's RMW, whose arrival is set for 170
 *	170  CPU 1 arrives: the line busy until 180, it queues
 *	180  serve CPU 1 (from CPU 2), done 230
 *
 * Events: 3 starts, services at 80, 130, 180, and the arrival at 170 (a
 * wake-up, plain; the line's timer, announced): 7 either way; 8 with the
 * run stopped at 150 to look at the line, as CPU 2's completion at 180 is
 * then past the first run's end, where it is woken, not resumed inline.
 */
START_TEST(coh_rmw_ahead_idle_arrival)
{
	const struct step s0[] = { { .kind = RMW, .field = FA } };
	const struct step s1[] = {
		{ .kind = RMW, .field = FA },
		{ .kind = RMW_AHEAD, .field = FA, .ps = 40 * NS },
	};
	unsigned int cpu;

	ct.ahead = _i;
	for (cpu = 0; cpu < 3; cpu++)
		h.cc[cpu]->resume_inline = true;
	cpu_script(0, 0, s0, 1);
	cpu_script(1, 10, s1, 2);
	cpu_script(2, 20, s0, 1);
	/* at 150 the line is idle, CPU 1's RMW announced or its wake-up set */
	run_ns(150);
	ck_assert_uint_eq(line_of(FA)->nr_ann, ct.ahead ? 1 : 0);
	ck_assert(!line_of(FA)->serving);
	run_ns(1000);
	ck_assert_uint_eq(done_ns(0, 0), 80);
	ck_assert_uint_eq(done_ns(1, 0), 130);
	ck_assert_uint_eq(done_ns(2, 0), 180);
	ck_assert_uint_eq(done_ns(1, 1), 230);
	ck_assert_uint_eq(line_of(FA)->transfers, 4);
	ck_assert_uint_eq(line_of(FA)->wait_ps, (70 + 110 + 10) * NS);
	ck_assert_uint_eq(sim_events(h.e), 8);
}
END_TEST

/*
 * A line is "<object> line <n>" and a field "<object>.<field>", cut to
 * their arrays as snprintf() cuts. Object names are cut to 39
 * characters when the object is made (its own array), so a line's name
 * (64 bytes) never is; a field's (72 bytes) is, with a long field name:
 * objects named with 10, 39 and 90 characters, with a field of 45
 * characters at offset 64 (the object's line 1), give what snprintf()
 * gives, worked out here with it.
 */
static const struct coh_layout_field long_fields[] = {
	{ "a_field_name_of_forty_five_characters_long_xx", 64, 8 },
};
static const struct coh_layout long_layout = {
	.name = "long",
	.size = 128,
	.nr_fields = 1,
	.fields = long_fields,
};

START_TEST(coh_names_cut_as_snprintf)
{
	static const unsigned int lens[] = { 10, 39, 90 };
	char name[128], want[128];
	unsigned int i;

	ck_assert_uint_eq(strlen(long_fields[0].name), 45);
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		struct coh_object *o;
		struct coh_line *l;

		memset(name, 'a' + (int)i, lens[i]);
		name[lens[i]] = '\0';
		o = coh_object_create(h.coh, name, &long_layout, 0);
		l = coh_object_field(o, 0)->line;
		/* whole, then cut where an array of the name's size cuts */
		snprintf(want, sizeof(want), "%s line %u", o->name, 1);
		want[sizeof(l->name) - 1] = '\0';
		ck_assert_str_eq(l->name, want);
		snprintf(want, sizeof(want), "%s.%s", o->name,
			 long_fields[0].name);
		want[sizeof(l->fields[0].name) - 1] = '\0';
		ck_assert_uint_eq(strlen(want), i ? 71 : 56);
		ck_assert_str_eq(l->fields[coh_object_field(o, 0)->slot].name,
				 want);
	}
}
END_TEST

/*
 * The first n lines by busy time (then transfers, then address) are the
 * same whether they are picked one by one (n <= 64, a selection) or as
 * the head of all lines sorted (n > 64, qsort): 100 lines of the test
 * layout (3 lines each, so 301 with the harness's), whose busy times and
 * transfers are set here with many ties: busy (7 i) mod 23, transfers
 * i mod 5, so that every rule of the order decides somewhere.
 */
START_TEST(coh_lines_select_as_sort)
{
	struct coh_line **all, *some[20];
	unsigned int i, nr;

	for (i = 0; i < 100; i++) {
		struct coh_object *o =
			coh_object_create(h.coh, "more", &test_layout, 0);

		coh_object_field(o, FA)->line->busy_ps = (7 * i) % 23;
		coh_object_field(o, FA)->line->transfers = i % 5;
	}
	nr = coh_nr_lines(h.coh);
	ck_assert_uint_gt(nr, 64);
	all = calloc(nr, sizeof(*all));
	ck_assert_ptr_nonnull(all);
	coh_lines_sorted(h.coh, all, nr);
	coh_lines_sorted(h.coh, some, 20);
	for (i = 0; i < 20; i++)
		ck_assert_ptr_eq(some[i], all[i]);
	/* and the order itself, checked pairwise */
	for (i = 1; i < nr; i++)
		ck_assert(all[i - 1]->busy_ps > all[i]->busy_ps ||
			  (all[i - 1]->busy_ps == all[i]->busy_ps &&
			   (all[i - 1]->transfers > all[i]->transfers ||
			    (all[i - 1]->transfers == all[i]->transfers &&
			     all[i - 1]->addr < all[i]->addr))));
	free(all);
}
END_TEST

/*
 * The transfers to each CPU and the CPUs of each field, counted at each
 * access (_i = 0) or from the log (_i = 1: coh_set_log_bytes(0), as past
 * a megabyte of counters), come to the same. CPUs 0-3 loop on RMWs of a
 * (saturate_four_cpus()) until 30080 ns: CPU 0 from memory at 0, then a
 * hand-off of 50 ns each in FIFO order, CPU 1, 2, 3, 0, 1, ..., at
 * 80 + 50 k for k = 0..600: 602 transfers.
 *
 *	CPU 1: hand-offs 1, 5, ..., 601: 151
 *	CPU 2: 2, 6, ..., 598: 150; CPU 3: 3, ..., 599: 150
 *	CPU 0: 4, 8, ..., 600: 150, and memory's: 151
 *
 * Field a had 4 CPUs (0-3), b none. Counted at each access, all 602
 * at once. Logged, the line's log holds 32 entries (COH_XFER_LOG_MIN:
 * more than the 16 CPUs), each a transfer, an access, or an RMW's access
 * then its transfer (one served at once, nothing logged between), and is
 * counted each time it is full; all 602 after coh_settle(). Before it,
 * the transfers of the entries since the last count are missing. The
 * entries, in order (an access is logged when its RMW joins the queue;
 * a CPU served at t goes on at t + 50 and announces its next RMW for
 * then, behind the line's service event at t + 50, which was set first:
 * it joins at the service at t + 100, just before that one's transfer):
 *
 *	_i = 1, logged from the start (the first access, before the line
 *	has counters, goes to the bitmap): 0 ns the memory's transfer to
 *	CPU 0 (entry 1), the accesses of CPUs 1, 2, 3 (2-4); 80 CPU 0's
 *	access (5), the transfer to CPU 1 (6); 130 the transfer to CPU 2
 *	(7); from 180 (service k = 2) to 30080 (k = 600) an access, then a
 *	transfer: entries 8 + 2 (k - 2) and 9 + 2 (k - 2). 1205 entries,
 *	counted at 32, 64, ..., 1184; the transfers of entries 1185-1205,
 *	the odd ones, 11, are missing: 591 before coh_settle().
 *	_i = 2, logged from 10000 ns: the 200 transfers by then (the
 *	memory's and k = 0..198) counted at once; at 10030 the access
 *	joining (no log yet: the bitmap), then the transfer (k = 199: the
 *	log's entry 1); k = 200..600 an access and a transfer, entries 2 +
 *	2 (k - 200) and 3 + 2 (k - 200). 803 entries, counted at 800; the
 *	transfers of entries 801 and 803 are missing: 600.
 */
START_TEST(coh_stats_logged)
{
	const uint32_t want[MAX_CPUS] = { 151, 151, 150, 150 };
	struct coh_line *l = line_of(FA), *top = NULL;
	const struct step st[] = {
		{ .kind = LOOP_RMW, .field = FA, .ps = 30080 * NS }
	};
	uint64_t t1 = 0;
	uint32_t sum = 0;
	unsigned int i;

	if (_i == 1)
		coh_set_log_bytes(h.coh, 0);
	for (i = 0; i < 4; i++)
		cpu_script(i, 0, st, 1);
	if (_i == 2) {
		run_ns(10000);
		t1 = l->transfers;
		for (i = 0; i < MAX_CPUS; i++)
			sum += l->xfer_to[i];
		ck_assert_uint_eq(sum, t1);
		ck_assert_uint_eq(t1, 200); /* the memory's, k = 0..198 */
		coh_set_log_bytes(h.coh, 0);
	}
	run_ns(30080);
	ck_assert_uint_eq(l->transfers, 602);
	for (sum = 0, i = 0; i < MAX_CPUS; i++)
		sum += l->xfer_to[i];
	ck_assert_uint_eq(sum, _i == 0 ? 602 : _i == 1 ? 591 : 600);
	coh_settle(h.coh);
	for (i = 0; i < MAX_CPUS; i++)
		ck_assert_uint_eq(l->xfer_to[i], want[i]);
	/* the fields' counts of their CPUs: in the lines handed out */
	coh_lines_sorted(h.coh, &top, 1);
	ck_assert_ptr_eq(top, l);
	ck_assert_uint_eq(l->fields[field(FA)->slot].nr_cpus, 4);
	ck_assert_uint_eq(l->fields[field(FA)->slot].cpus[0], 0xf);
	ck_assert_uint_eq(l->fields[field(FB)->slot].nr_cpus, 0);
}
END_TEST

static Suite *cache_suite(void)
{
	Suite *s = suite_create("cache");
	TCase *tc = tcase_create("strict");

	tcase_add_checked_fixture(tc, setup_strict, teardown);
	tcase_add_test(tc, coh_rmw_uncontended_local);
	tcase_add_loop_test(tc, coh_rmw_alternating_by_distance, 0, 3);
	tcase_add_test(tc, coh_rmw_saturated_line);
	tcase_add_test(tc, coh_rmw_saturated_line_occupancy);
	tcase_add_test(tc, coh_false_sharing_packed_vs_padded);
	tcase_add_test(tc, coh_read_after_remote_write);
	tcase_add_test(tc, coh_reads_of_shared_line_join);
	tcase_add_test(tc, coh_read_then_rmw_two_transactions);
	tcase_add_test(tc, coh_posted_reads_merge);
	tcase_add_test(tc, coh_rmw_then_read_strict_vs_hold);
	tcase_add_test(tc, coh_hold_window_keeps_line);
	tcase_add_test(tc, coh_rmw_invalidates_sharers);
	tcase_add_loop_test(tc, coh_idle_line_served_at_once, 0, 3);
	tcase_add_test(tc, coh_line_hot_fields_one_host_line);
	tcase_add_test(tc, coh_sharer_nearest_and_farthest);
	tcase_add_test(tc, qspinlock_fifo_handover);
	tcase_add_test(tc, coh_mem_limit_fails_cleanly);
	tcase_add_test(tc, coh_mem_no_limit);
	tcase_add_loop_test(tc, coh_resume_inline_alternating, 0, 2);
	tcase_add_loop_test(tc, coh_resume_inline_saturated, 0, 2);
	tcase_add_loop_test(tc, coh_rmw_ahead_admitted, 0, 2);
	tcase_add_loop_test(tc, coh_rmw_ahead_idle_arrival, 0, 2);
	tcase_add_loop_test(tc, coh_stats_logged, 0, 3);
	tcase_add_test(tc, coh_lines_select_as_sort);
	tcase_add_test(tc, coh_names_cut_as_snprintf);
	suite_add_tcase(s, tc);
	tc = tcase_create("waiter");
	tcase_add_checked_fixture(tc, setup_waiter, teardown);
	tcase_add_test(tc, coh_rmw_saturated_line_waiter_growth);
	tcase_add_test(tc, coh_queued_cpu_counted_once);
	tcase_add_test(tc, coh_queued_across_ring_growth);
	suite_add_tcase(s, tc);
	tc = tcase_create("law");
	tcase_add_checked_fixture(tc, setup_law, teardown);
	tcase_add_test(tc, coh_read_dep_waits);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cache_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
