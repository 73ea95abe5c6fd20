// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_qspinlock.c - queued spinlocks (models/kernel/kernel/locking/qspinlock.c,
 * kernel/locking/qspinlock.c) against arithmetic worked out by hand.
 *
 * The machine is an inline profile with round numbers: one socket of
 * four cores (no SMT),
 *
 *	l1_hit 1 ns (a store that hits; a posted store's issue slot)
 *	rmw_local 10 ns (a locked RMW of a line the CPU owns)
 *	memory 100 ns (a line nobody holds)
 *	every transfer between two CPUs 50 ns
 *	inval_per_sharer 0, xfer_per_waiter 0, occupancy 1.0, strict
 *	hand-off: a line being handed to one CPU is busy for the 50 ns of
 *	the transfer, and the next request for it waits until then.
 *
 * The lock word is the only field of its line. Each CPU runs a locker:
 * from its start time, @rounds times, queued_spin_lock(), a critical
 * section of @hold ns that touches no shared line, queued_spin_unlock().
 * The locker records the time of each acquisition, of the start of each
 * unlock and of its end, and the lock word's line transfers at those
 * moments.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/cache.h"
#include "models/hw/machine.h"
#include "models/kernel/kernel/locking/qspinlock.h"
#include "sim/co.h"
#include "sim/engine.h"
#include "sim/scenario.h"
#include "tests/harness.h"

#define NS 1000ull /* ps per ns */
#define NR_CPUS 4
#define MAX_ROUNDS 2

static const char profile[] = "name: tiny-4\n"
			      "description: round numbers for hand arithmetic\n"
			      "sockets: 1\n"
			      "cores_per_socket: 4\n"
			      "threads_per_core: 1\n"
			      "latencies:\n"
			      "  l1_hit: {ns: 1, source: test}\n"
			      "  llc_hit: {ns: 10, source: test}\n"
			      "  memory: {ns: 100, source: test}\n"
			      "  rmw_local: {ns: 10, source: test}\n"
			      "  xfer_smt: {ns: 50, source: test}\n"
			      "  xfer_llc: {ns: 50, source: test}\n"
			      "  inval_per_sharer: {ns: 0, source: test}\n"
			      "  xfer_per_waiter: {ns: 0, source: test}\n"
			      "coherence:\n"
			      "  handoff: strict\n"
			      "  occupancy: {fraction: 1.0, source: test}\n";

struct locker {
	sim_time_t hold_ns; /* the critical section */
	unsigned int rounds;
	/* what happened, in ns */
	sim_time_t acquired[MAX_ROUNDS], unlock[MAX_ROUNDS];
	sim_time_t released[MAX_ROUNDS];
	uint64_t xfers_acquired[MAX_ROUNDS], xfers_unlock[MAX_ROUNDS];
};

/* The lock and its lockers, beside the shared harness's CPUs. */
static struct {
	struct locker lk[NR_CPUS];
	struct coh_object *obj;
	struct qspinlock lock;
	unsigned int order[NR_CPUS * MAX_ROUNDS], nr_order;
} q;

static const struct coh_layout_field lock_fields[] = {
	{ "val", 0, 4 },
};
static const struct coh_layout lock_layout = {
	.name = "qspinlock",
	.size = 4,
	.nr_fields = 1,
	.fields = lock_fields,
};

static void setup(void)
{
	harness_setup_yaml("tiny-4.yaml", profile, NR_CPUS, 1024);
	memset(&q, 0, sizeof(q));
	q.obj = coh_object_create(h.coh, "lock", &lock_layout, 0);
	qspinlock_init(&q.lock, coh_object_field(q.obj, 0), NR_CPUS);
}

static void teardown(void)
{
	qspinlock_destroy(&q.lock);
	harness_teardown();
}

static uint64_t lock_xfers(void)
{
	return coh_object_field(q.obj, 0)->line->transfers;
}

struct locker_frame {
	struct co_frame co;
	unsigned int round;
};

static int locker(struct sim_proc *p, void *frame)
{
	struct locker_frame *f = frame;
	struct locker *lk = &q.lk[p->id];
	struct coh_cpu *cc = h.cc[p->id];

	CO_BEGIN(f);
	for (f->round = 0; f->round < lk->rounds; f->round++) {
		CO_CALL(f, p, queued_spin_lock, .lock = &q.lock);
		lk->acquired[f->round] = p->now / NS;
		lk->xfers_acquired[f->round] = lock_xfers();
		q.order[q.nr_order++] = p->id;
		/* the critical section; then bring the engine to our clock */
		coh_delay(cc, lk->hold_ns * NS);
		CO_AWAIT(f, sim_proc_sync(p));
		lk->unlock[f->round] = p->now / NS;
		lk->xfers_unlock[f->round] = lock_xfers();
		CO_AWAIT(f, queued_spin_unlock(cc, &q.lock));
		lk->released[f->round] = p->now / NS;
	}
	CO_END(f, p);
}

/* CPU @cpu takes the lock @rounds times from @start_ns, holding it @hold_ns. */
static void cpu_locker(unsigned int cpu, sim_time_t start_ns,
		       sim_time_t hold_ns, unsigned int rounds)
{
	q.lk[cpu].hold_ns = hold_ns;
	q.lk[cpu].rounds = rounds;
	CO_PUSH(&h.proc[cpu], locker);
	sim_proc_start(&h.proc[cpu], start_ns * NS);
}

static void run(void)
{
	unsigned int i;

	sim_engine_run(h.e, 100000 * NS);
	for (i = 0; i < NR_CPUS; i++)
		ck_assert(!q.lk[i].rounds || h.proc[i].finished);
}

/*
 * Uncontended: CPU 0 alone, twice, holding the lock 20 ns.
 *
 *	0    lock: RMW of the cold lock word, from memory       100 -> 100
 *	100  critical section                                   20 -> 120
 *	120  unlock: store, CPU 0 owns the line: a hit            1 -> 121
 *	121  lock: RMW of a line CPU 0 owns: rmw_local           10 -> 131
 *	131  critical section                                   20 -> 151
 *	151  unlock: a hit                                        1 -> 152
 *
 * Expect acquisitions at 100 and 131, releases done at 121 and 152, one
 * transfer in all (from memory), no CPU queued, and 21 + 21 = 42 ns held
 * (from acquisition to the end of the release store).
 */
START_TEST(queued_spin_lock_uncontended)
{
	cpu_locker(0, 0, 20, 2);
	run();
	ck_assert_uint_eq(q.lk[0].acquired[0], 100);
	ck_assert_uint_eq(q.lk[0].released[0], 121);
	ck_assert_uint_eq(q.lk[0].acquired[1], 131);
	ck_assert_uint_eq(q.lk[0].released[1], 152);
	ck_assert_uint_eq(lock_xfers(), 1);
	ck_assert_uint_eq(q.lock.acquired, 2);
	ck_assert_uint_eq(q.lock.contended, 0);
	ck_assert_uint_eq(q.lock.hold_ps, 42 * NS);
	ck_assert_int_eq(q.lock.owner, -1);
}
END_TEST

/*
 * Two CPUs: the waiter waits for the holder's critical section. CPU 0
 * starts at 0 and holds the lock H ns (H = 300, 600, 1000); CPU 1 asks
 * at 150.
 *
 *	0        CPU 0 lock: from memory                        -> 100
 *	150      CPU 1 fast path: RMW, the line from CPU 0 (50) -> 200;
 *	         the lock is held: CPU 1 queues
 *	100 + H  CPU 0 unlock: the line is at CPU 1 now, so the store
 *	         misses: posted, the CPU goes on after its issue slot (1)
 *	         and wakes CPU 1; the store takes the line back, 50 ns
 *	101 + H  CPU 1 claims the lock word: its RMW waits for the line
 *	         to arrive at CPU 0 (150 + H), then takes it over (50)
 *	                                                        -> 200 + H
 *
 * Expect CPU 1 to get the lock at 200 + H: 100 ns after the end of
 * CPU 0's critical section whatever its length; CPU 1 waited 50 + H.
 */
START_TEST(queued_spin_lock_slowpath_waits_for_holder)
{
	static const sim_time_t holds[] = { 300, 600, 1000 };
	sim_time_t hold = holds[_i];

	cpu_locker(0, 0, hold, 1);
	cpu_locker(1, 150, 50, 1);
	run();
	ck_assert_uint_eq(q.lk[0].acquired[0], 100);
	ck_assert_uint_eq(q.lk[0].unlock[0], 100 + hold);
	ck_assert_uint_eq(q.lk[0].released[0], 101 + hold);
	ck_assert_uint_eq(q.lk[1].acquired[0], 200 + hold);
	ck_assert_uint_eq(q.lock.contended, 1);
	ck_assert_uint_eq(q.nr_order, 2);
	ck_assert_uint_eq(q.order[0], 0);
	ck_assert_uint_eq(q.order[1], 1);
}
END_TEST

/*
 * Three CPUs, served in arrival order, not CPU order. CPU 0 starts at 0,
 * CPU 2 at 150, CPU 1 at 250; each holds the lock 300 ns.
 *
 *	0    CPU 0 lock: from memory                            -> 100
 *	150  CPU 2 fast path: the line from CPU 0 (50)          -> 200; queues
 *	250  CPU 1 fast path: the line from CPU 2 (50)          -> 300; queues
 *	400  CPU 0 unlock: store misses (the line is at CPU 1): issue slot
 *	     -> 401, hand-over to the head, CPU 2; the store is served at
 *	     once and holds the line until 450
 *	401  CPU 2 claims: waits for the line, takes it from CPU 0 -> 500
 *	800  CPU 2 unlock: the line is CPU 2's (its claim took it): a hit
 *	     -> 801, hand-over to CPU 1
 *	801  CPU 1 claims: the line from CPU 2 (50)             -> 851
 *	1151 CPU 1 unlock: a hit                                -> 1152
 *
 * Expect the order 0, 2, 1, acquisitions at 100, 500 and 851, and
 * each waiter got the lock only after its predecessor's 300 ns.
 */
START_TEST(queued_spin_lock_slowpath_fifo_three_cpus)
{
	cpu_locker(0, 0, 300, 1);
	cpu_locker(2, 150, 300, 1);
	cpu_locker(1, 250, 300, 1);
	run();
	ck_assert_uint_eq(q.nr_order, 3);
	ck_assert_uint_eq(q.order[0], 0);
	ck_assert_uint_eq(q.order[1], 2);
	ck_assert_uint_eq(q.order[2], 1);
	ck_assert_uint_eq(q.lk[0].acquired[0], 100);
	ck_assert_uint_eq(q.lk[2].acquired[0], 500);
	ck_assert_uint_eq(q.lk[1].acquired[0], 851);
	ck_assert_uint_eq(q.lk[1].released[0], 1152);
	ck_assert_uint_eq(q.lock.acquired, 3);
	ck_assert_uint_eq(q.lock.contended, 2);
	ck_assert_int_eq(q.lock.owner, -1);
}
END_TEST

/*
 * The hand-over costs one line transfer: in the three-CPU run above,
 * count the lock word's transfers between the start of an unlock and the
 * next acquisition.
 *
 *	transfers: memory (CPU 0) 1, CPU 2's fast path 2, CPU 1's 3
 *	CPU 0 -> CPU 2 (400 .. 500): CPU 0's store fetches the line back
 *	     from CPU 1, whose failed fast path took it (4), and CPU 2's
 *	     claim takes it from CPU 0 (5): two, because of that steal
 *	CPU 2 -> CPU 1 (800 .. 851): CPU 2's store hits, CPU 1's claim
 *	     takes the line from CPU 2 (6): one, of 50 ns; with the store's
 *	     1 ns, 51 ns from the unlock to the new holder
 *
 * Expect 3 transfers at CPU 0's unlock, 5 at CPU 2's acquisition and at
 * its unlock, 6 at CPU 1's acquisition, which is 51 ns after CPU 2's
 * unlock began.
 */
START_TEST(queued_spin_unlock_handover_one_transfer)
{
	cpu_locker(0, 0, 300, 1);
	cpu_locker(2, 150, 300, 1);
	cpu_locker(1, 250, 300, 1);
	run();
	ck_assert_uint_eq(q.lk[0].xfers_unlock[0], 3);
	ck_assert_uint_eq(q.lk[2].xfers_acquired[0], 5);
	ck_assert_uint_eq(q.lk[2].xfers_unlock[0], 5);
	ck_assert_uint_eq(q.lk[1].xfers_acquired[0], 6);
	ck_assert_uint_eq(q.lk[2].unlock[0], 800);
	ck_assert_uint_eq(q.lk[1].acquired[0] - q.lk[2].unlock[0], 51);
	ck_assert_uint_eq(lock_xfers(), 6);
}
END_TEST

static Suite *qspinlock_suite(void)
{
	Suite *s = suite_create("qspinlock");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, queued_spin_lock_uncontended);
	tcase_add_loop_test(tc, queued_spin_lock_slowpath_waits_for_holder, 0,
			    3);
	tcase_add_test(tc, queued_spin_lock_slowpath_fifo_three_cpus);
	tcase_add_test(tc, queued_spin_unlock_handover_one_transfer);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(qspinlock_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
