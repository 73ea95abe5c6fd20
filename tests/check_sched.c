// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_sched.c - the fair class's placement decisions
 * (models/kernel/kernel/sched/fair.c), worked out by hand from v6.0's
 * kernel/sched/fair.c on the skx-2s-72 profile:
 *
 *	CPUs 0-17 socket 0, 18-35 socket 1, one LLC per socket; CPU n+36
 *	is the SMT sibling of CPU n (threads_last).
 *
 * A "busy" CPU runs a filler task started on it; the task under test
 * sleeps, with p->cpu its previous CPU, and is woken from CPU 0, where
 * the waker runs alone.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/run/run.h"
#include "models/hw/machine.h"
#include "models/kernel/kernel/sched/fair.h"
#include "sim/report.h"
#include "tests/machine_test.h"

static struct harness {
	struct machine m;
	struct sched_fair *s;
	struct sched_task filler[72];
	struct sched_task p, waker;
} h;

static void allow_all(struct sched_task *t)
{
	unsigned int cpu;

	memset(t, 0, sizeof(*t));
	t->recent_used_cpu = -1;
	for (cpu = 0; cpu < h.m.nr_cpus; cpu++)
		sched_task_allow(t, cpu);
}

static void setup(void)
{
	memset(&h, 0, sizeof(h));
	load_profile("skx-2s-72", &h.m);
	h.s = sched_fair_create(&h.m, SCHED_CLASS_CFS);
	allow_all(&h.p);
	allow_all(&h.waker);
	ck_assert(sched_task_start(h.s, &h.waker, 0, 0));
}

static void teardown(void)
{
	sched_fair_free(h.s);
	machine_destroy(&h.m);
}

/* A filler task on each CPU from @first to @last. */
static void busy(unsigned int first, unsigned int last)
{
	unsigned int cpu;

	for (cpu = first; cpu <= last; cpu++) {
		allow_all(&h.filler[cpu]);
		ck_assert(sched_task_start(h.s, &h.filler[cpu], cpu, 0));
	}
}

/* @p last ran on @prev and sleeps there: its CPU is idle. */
static void slept_on(unsigned int prev)
{
	h.p.cpu = prev;
	h.p.on_rq = false;
}

/*
 * Sync wake-up (a socket's sk_data_ready()) from CPU 0, the waker alone
 * there; @p slept on CPU 1, idle, same LLC.
 * wake_affine_idle(): CPU 0 is not idle; sync and nr_running 1: target
 * 0. select_idle_sibling(prev 1, target 0): 0 busy; 1 shares the LLC
 * and is idle: CPU 1. No migration; it runs at once.
 */
START_TEST(wake_idle_prev_in_wakers_llc)
{
	bool migrated = true;

	slept_on(1);
	ck_assert(sched_wake_up(h.s, &h.p, 0, true, 1000, &migrated));
	ck_assert_uint_eq(h.p.cpu, 1);
	ck_assert(!migrated);
	ck_assert_ptr_eq(h.s->rq[1].curr, &h.p);
}
END_TEST

/*
 * The same from a previous CPU on the other socket (20): target 0 busy,
 * 20 not in its LLC, no recent CPU: select_idle_cpu() scans socket 0's
 * LLC from CPU 1. Busy: CPUs 1-17 and the siblings 36-53, but for
 * CPU 5 and its sibling 41 (_i 0): core 5 is idle, has_idle_core: CPU 5.
 * _i 1: CPU 5 busy too, only 41 idle: no idle core, the first idle CPU:
 * 41. Either way the task migrates into the waker's LLC.
 */
START_TEST(wake_cross_socket_idle_sibling)
{
	bool migrated = false;
	unsigned int want = _i ? 41 : 5;

	busy(1, 4);
	busy(6, 17);
	busy(36, 40);
	busy(42, 53);
	if (_i)
		busy(5, 5);
	slept_on(20);
	ck_assert(sched_wake_up(h.s, &h.p, 0, true, 1000, &migrated));
	ck_assert_uint_eq(h.p.cpu, want);
	ck_assert(migrated);
	ck_assert_uint_eq(h.p.nr_migrations, 1);
	/* select_idle_sibling() remembered the previous CPU */
	ck_assert_int_eq(h.p.recent_used_cpu, 20);
}
END_TEST

/*
 * recent_used_cpu: @p slept on 20 and last used CPU 3 before. Busy:
 * 1, 2 (so the scan from 1 would find 4 first). recent 3 is not prev nor
 * target, shares 0's LLC and is idle: CPU 3.
 */
START_TEST(wake_recent_used_cpu)
{
	bool migrated;

	busy(1, 2);
	slept_on(20);
	h.p.recent_used_cpu = 3;
	sched_wake_up(h.s, &h.p, 0, true, 1000, &migrated);
	ck_assert_uint_eq(h.p.cpu, 3);
	ck_assert_int_eq(h.p.recent_used_cpu, 20);
}
END_TEST

/*
 * Socket 0 all busy (0-17, 36-53), @p slept on 20: target 0 busy, no
 * idle CPU in its LLC: select_idle_sibling() returns target 0, where it
 * waits behind the waker (nr_running 2); when the waker sleeps, it runs.
 */
START_TEST(wake_onto_busy_waker_cpu)
{
	bool migrated;

	busy(1, 17);
	busy(36, 53);
	slept_on(20);
	ck_assert(!sched_wake_up(h.s, &h.p, 0, true, 1000, &migrated));
	ck_assert_uint_eq(h.p.cpu, 0);
	ck_assert_uint_eq(h.s->rq[0].nr_running, 2);
	ck_assert_ptr_eq(h.s->rq[0].curr, &h.waker);
	ck_assert_ptr_eq(sched_sleep(h.s, &h.waker, 2000), &h.p);
	ck_assert_ptr_eq(h.s->rq[0].curr, &h.p);
	ck_assert_uint_eq(h.s->rq[0].nr_running, 1);
}
END_TEST

/*
 * Not sync (a plain wake-up) from busy CPU 0, @p slept on 20, idle:
 * wake_affine_idle(): 0 not idle, not sync, prev idle: 20.
 * select_idle_sibling(20, 20): target idle: it stays on the other socket.
 */
START_TEST(wake_not_sync_keeps_idle_prev)
{
	bool migrated;

	slept_on(20);
	ck_assert(sched_wake_up(h.s, &h.p, 0, false, 1000, &migrated));
	ck_assert_uint_eq(h.p.cpu, 20);
	ck_assert(!migrated);
}
END_TEST

/*
 * newidle_balance(): CPU 0 runs the waker with @p waiting; a filler on
 * CPU 36 (0's sibling) sleeps at time T. CPU 36's avg_idle is still its
 * initial 2 x 500 us, at least sysctl_sched_migration_cost: it pulls @p
 * if @p is not cache-hot, i.e. last ran 500 us or more before T.
 * @p last ran at 0 (its exec_start as queued). _i 0: T = 600 us, pulled
 * to 36 (a migration); _i 1: T = 400 us, hot: 36 goes idle.
 */
START_TEST(newidle_pulls_cold_task)
{
	sim_time_t t = (_i ? 400 : 600) * SIM_PS_PER_US;
	bool migrated;

	busy(1, 17);
	busy(36, 53);
	slept_on(20);
	ck_assert(!sched_wake_up(h.s, &h.p, 0, true, 0, &migrated));
	ck_assert_uint_eq(h.p.cpu, 0);
	if (_i) {
		ck_assert_ptr_null(sched_sleep(h.s, &h.filler[36], t));
		ck_assert(available_idle_cpu(h.s, 36));
		return;
	}
	ck_assert_ptr_eq(sched_sleep(h.s, &h.filler[36], t), &h.p);
	ck_assert_uint_eq(h.p.cpu, 36);
	ck_assert_uint_eq(h.s->rq[0].nr_running, 1);
	ck_assert_ptr_eq(h.s->rq[36].curr, &h.p);
}
END_TEST

/*
 * A CPU idle for short periods stops pulling: each wake-up after an idle
 * period of 1 us moves avg_idle 1/8 of the way to 1 us, from its initial
 * 1000 us. The first wake-up finds CPU 1 never idle (no update); after
 * six updates 1 + 999 x (7/8)^6 = 449.35 us < 500 us; after five, 513.4.
 */
START_TEST(newidle_gate_decays)
{
	sim_time_t now = 0;
	unsigned int i;
	bool migrated;

	for (i = 0; i < 7; i++) {
		if (i == 6)
			ck_assert_uint_gt(h.s->rq[1].avg_idle,
					  SCHED_MIGRATION_COST_PS);
		slept_on(1);
		sched_wake_up(h.s, &h.p, 0, true, now, &migrated);
		ck_assert_uint_eq(h.p.cpu, 1);
		now += SIM_PS_PER_US;
		ck_assert_ptr_null(sched_sleep(h.s, &h.p, now));
		now += SIM_PS_PER_US;
	}
	ck_assert_uint_lt(h.s->rq[1].avg_idle, SCHED_MIGRATION_COST_PS);
	ck_assert_uint_gt(h.s->rq[1].avg_idle, 449 * SIM_PS_PER_US);
	ck_assert_uint_lt(h.s->rq[1].avg_idle, 450 * SIM_PS_PER_US);
}
END_TEST

/*
 * sched_slice(): two tasks on a 72-CPU machine: sched_latency 6 ms x
 * (1 + ilog2(8)) = 24 ms shared by two: 12 ms. The waker, running since
 * 0 with @p waiting, is not preempted at 11.999 ms, is at 12 ms.
 */
START_TEST(slice_expires)
{
	bool migrated;

	busy(1, 17);
	busy(36, 53);
	slept_on(20);
	sched_wake_up(h.s, &h.p, 0, true, 0, &migrated);
	ck_assert(!sched_slice_expired(h.s, &h.waker,
				       12 * SIM_PS_PER_MS - SIM_PS_PER_US));
	ck_assert(sched_slice_expired(h.s, &h.waker, 12 * SIM_PS_PER_MS));
	ck_assert_ptr_eq(sched_yield_to_next(h.s, &h.waker, 12 * SIM_PS_PER_MS),
			 &h.p);
	ck_assert_ptr_eq(h.s->rq[0].head, &h.waker);
}
END_TEST

/*
 * The periodic load balance. Tasks @a and @b, allowed on CPU 0 and
 * @other only, wait on CPU 0 behind the waker; every other CPU is idle
 * (CPU_IDLE: idle since the start, not newly idle). sched_domains_init()
 * spreads the first balances: CPU n's at level L at jiffy
 * n x sd_weight(L) / 72 (SMT 2, MC 36, NUMA 72 CPUs), then every
 * balance_interval (sd_weight ms while idle; x16 - 1 while busy: CPU 0
 * does not balance before jiffy 31). At the tick of 1 ms the CPUs that
 * balance and find CPU 0's group busiest find @a and @b pinned, but for
 * @other.
 */
static struct sched_task lb_a, lb_b;

static void lb_setup(unsigned int other, sim_time_t last_ran)
{
	struct sched_task *t[2] = { &lb_a, &lb_b };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		memset(t[i], 0, sizeof(*t[i]));
		sched_task_allow(t[i], 0);
		sched_task_allow(t[i], other);
		ck_assert(!sched_task_start(h.s, t[i], 0, 0));
		t[i]->exec_start = last_ran;
	}
	ck_assert_uint_eq(h.s->rq[0].nr_running, 3);
}

/*
 * MC level, @a and @b allowed on 0 and 1, CPU 37 (1's sibling) busy.
 * CPU 1 at jiffy 1: SMT (due at 1 x 2 / 72 = 0): its only other group,
 * CPU 37, runs one task: balanced. MC (due at 0): should_we_balance():
 * CPU 1 is the first idle CPU of its group {1, 37}. Groups (cores):
 * {0, 36} 3 tasks, one busy CPU: util 1 of 2 CPUs < 100/117, so spare
 * capacity, not overloaded; the others idle. Busiest {0, 36}; local
 * {1, 37} has spare and 1 task; prefer_sibling (the SMT child) and
 * 3 > 1 + 1: force_balance; calculate_imbalance(): (3 - 1) >> 1 = 1
 * task. find_busiest_queue(): CPU 0. detach_tasks(): @a, ran 1 ms ago
 * (not hot) goes and runs on idle CPU 1; the imbalance is met.
 * CPU 36 (SMT due at jiffy 1) would pull @b but may not run it.
 */
START_TEST(periodic_balance_pulls_one)
{
	struct sched_task *started[4];

	busy(37, 37);
	lb_setup(1, 0);
	ck_assert_uint_eq(sched_balance_tick(h.s, SIM_PS_PER_MS, started, 4),
			  1);
	ck_assert_ptr_eq(started[0], &lb_a);
	ck_assert_uint_eq(lb_a.cpu, 1);
	ck_assert_uint_eq(lb_a.nr_migrations, 1);
	ck_assert_ptr_eq(h.s->rq[1].curr, &lb_a);
	ck_assert_uint_eq(h.s->rq[0].nr_running, 2);
	ck_assert_ptr_eq(h.s->rq[0].head, &lb_b);
	ck_assert_uint_eq(h.s->rq[1].sd[1].nr_pulled, 1);
	ck_assert_uint_eq(h.s->rq[1].sd[1].nr_balance_failed, 0);
}
END_TEST

/*
 * SMT level, @a and @b allowed on 0 and its sibling 36. CPU 36's SMT
 * balance is due at jiffy 36 x 2 / 72 = 1: the group {0} has 3 tasks on
 * one busy CPU (overloaded: 1 x 110 > 100), local {36} spare:
 * migrate_util, imbalance 1 idle CPU. _i 0: @a last ran at 0, 1 ms ago:
 * pulled, runs on 36. _i 1: both ran at 0.8 ms, 0.2 ms before the tick:
 * task_hot() (< 0.5 ms) and no failed balance yet (cache_nice_tries 0
 * at SMT): nothing moves, nr_balance_failed 1, the interval back to
 * sd_weight 2: next at jiffy 3, not 2. At 3 ms both ran at 2.9 ms, hot
 * again, but 1 failure > 0 tries: @a is pulled all the same.
 */
START_TEST(periodic_balance_cache_hot)
{
	struct sched_task *started[4];

	lb_setup(36, _i ? 800 * SIM_PS_PER_US : 0);
	if (!_i) {
		ck_assert_uint_eq(
			sched_balance_tick(h.s, SIM_PS_PER_MS, started, 4), 1);
		ck_assert_ptr_eq(started[0], &lb_a);
		ck_assert_ptr_eq(h.s->rq[36].curr, &lb_a);
		return;
	}
	ck_assert_uint_eq(sched_balance_tick(h.s, SIM_PS_PER_MS, started, 4),
			  0);
	ck_assert_uint_eq(h.s->rq[0].nr_running, 3);
	ck_assert_uint_eq(h.s->rq[36].sd[0].nr_balance_failed, 1);
	ck_assert_uint_eq(h.s->rq[36].sd[0].balance_interval, 2);
	ck_assert_uint_eq(
		sched_balance_tick(h.s, 2 * SIM_PS_PER_MS, started, 4), 0);
	lb_a.exec_start = lb_b.exec_start = 2900 * SIM_PS_PER_US;
	ck_assert_uint_eq(
		sched_balance_tick(h.s, 3 * SIM_PS_PER_MS, started, 4), 1);
	ck_assert_ptr_eq(started[0], &lb_a);
	ck_assert_uint_eq(lb_a.cpu, 36);
	ck_assert_uint_eq(h.s->rq[36].sd[0].nr_balance_failed, 0);
}
END_TEST

/*
 * A busy CPU balances busy_factor times less often, less a jiffy.
 * Fillers run on CPU 1 and its sibling 37; @a and @b, allowed on 1 and
 * 37 only, wait on 37, so no idle CPU may take them (all pinned). CPU
 * 1's SMT domain {1, 37}: interval 2 ms x 16 - 1 = 31 jiffies from its
 * spread start (last_balance 1 x 2 / 72 - 2 = -2): due at jiffy 29.
 * Then: local {1} fully busy (1 task, 1 busy CPU: 110% of it > 100%),
 * busiest {37} overloaded (3 tasks); migrate_load over the domain's 4
 * tasks on 2 CPUs (2 each): min(3 - 2, 2 - 1) = 1 task: @a (cold, at
 * the head) moves to CPU 1 and waits behind its filler (CPU_NOT_IDLE:
 * nothing starts).
 */
START_TEST(periodic_balance_busy_interval)
{
	struct sched_task *t[2] = { &lb_a, &lb_b }, *started[4];
	unsigned int i;

	busy(1, 1);
	busy(37, 37);
	for (i = 0; i < 2; i++) {
		memset(t[i], 0, sizeof(*t[i]));
		sched_task_allow(t[i], 1);
		sched_task_allow(t[i], 37);
		ck_assert(!sched_task_start(h.s, t[i], 37, 0));
	}
	for (i = 1; i < 29; i++)
		ck_assert_uint_eq(sched_balance_tick(h.s, i * SIM_PS_PER_MS,
						     started, 4),
				  0);
	ck_assert_uint_eq(lb_a.cpu, 37);
	ck_assert_uint_eq(h.s->rq[37].nr_running, 3);
	ck_assert_uint_eq(
		sched_balance_tick(h.s, 29 * SIM_PS_PER_MS, started, 4), 0);
	ck_assert_uint_eq(lb_a.cpu, 1);
	ck_assert_uint_eq(h.s->rq[1].nr_running, 2);
	ck_assert_ptr_eq(h.s->rq[1].head, &lb_a);
	ck_assert_uint_eq(h.s->rq[37].nr_running, 2);
	ck_assert_ptr_eq(h.s->rq[37].head, &lb_b);
}
END_TEST

/*
 * EEVDF (sched_class eevdf), on CPU 0 of the same machine with tasks
 * allowed there only. 72 CPUs: factor 1 + ilog2(8) = 4, base slice
 * 0.75 ms x 4 = 3 ms, a new task's first request half of it, 1.5 ms;
 * lag kept within +-max(2 x 3 ms, 1 ms). At one weight, a virtual time
 * is a wall-clock time and V the mean vruntime of the runqueue.
 */
static struct sched_fair *eevdf_only_cpu0(struct sched_task *t, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		memset(&t[i], 0, sizeof(t[i]));
		t[i].recent_used_cpu = -1;
		sched_task_allow(&t[i], 0);
	}
	return sched_fair_create(&h.m, SCHED_CLASS_EEVDF);
}

#define MS(x) ((sim_time_t)((x)*SIM_PS_PER_MS))

/*
 * Wake-up preemption. A and B start at 0: A runs (v 0, d 1.5), B waits
 * (v 0, d 1.5). At 1.5 A's vruntime reaches its deadline: new deadline
 * 4.5 and a reschedule; V = (1.5 + 0) / 2 = 0.75 < 1.5, A is not
 * eligible, B is: B runs from 1.5.
 * _i 0: B sleeps at 2 (v 0.5): V = (0.5 + 1.5) / 2 = 1, lag +0.5. Woken
 * at 2 beside A alone (n 1): lag x (n + 1) / n = 1, so v 1.5 - 1 = 0.5,
 * d 3.5. V = 1, A (1.5) is not eligible, B is and is picked: A is
 * preempted although RUN_TO_PARITY protects its slice.
 * _i 1: B runs on to 4 (v 2.5 >= d 1.5: d 5.5): V = (2.5 + 1.5) / 2 = 2,
 * lag -0.5. Woken at 4: v 1.5 + 1 = 2.5, d 5.5; V = 2, so B is not
 * eligible and A (eligible, d 4.5) goes on: no preemption.
 */
START_TEST(eevdf_wakeup_preempts)
{
	struct sched_task t[2];
	struct sched_fair *e = eevdf_only_cpu0(t, 2);
	sim_time_t sleep = _i ? MS(4) : MS(2);
	bool migrated;

	ck_assert(sched_task_start(e, &t[0], 0, 0));
	ck_assert(!sched_task_start(e, &t[1], 0, 0));
	ck_assert_int_eq(t[1].deadline, MS(1.5));
	ck_assert(!sched_slice_expired(e, &t[0], MS(1.5) - 1));
	ck_assert(sched_slice_expired(e, &t[0], MS(1.5)));
	ck_assert_int_eq(t[0].deadline, MS(4.5));
	ck_assert_ptr_eq(sched_yield_to_next(e, &t[0], MS(1.5)), &t[1]);
	ck_assert_ptr_eq(sched_sleep(e, &t[1], sleep), &t[0]);
	ck_assert_int_eq(t[1].vlag, _i ? -MS(0.5) : MS(0.5));
	ck_assert(!sched_wake_up(e, &t[1], 0, true, sleep, &migrated));
	ck_assert(!migrated);
	ck_assert_int_eq(t[1].vruntime, _i ? MS(2.5) : MS(0.5));
	ck_assert_int_eq(t[1].deadline, _i ? MS(5.5) : MS(3.5));
	ck_assert(e->rq[0].need_resched == !_i);
	ck_assert(sched_slice_expired(e, &t[0], sleep) == !_i);
	if (!_i)
		ck_assert_ptr_eq(sched_yield_to_next(e, &t[0], sleep), &t[1]);
	ck_assert_ptr_eq(e->rq[0].curr, _i ? &t[0] : &t[1]);
	sched_fair_free(e);
}
END_TEST

/*
 * RUN_TO_PARITY. A starts and sleeps at 0 alone (lag 0), then wakes on
 * the idle CPU: v 0, a full request, d 3, and runs. C starts at 1 ms
 * (A's v 1): v = V = 1, half a request, d 2.5. Both are eligible and C's
 * deadline is the earlier, but A has not renewed its request since it
 * was picked: no preemption. At 3 ms A's vruntime reaches its deadline
 * (new one 6, a reschedule); V = (3 + 1) / 2 = 2 < 3: A is no longer
 * eligible, and C runs.
 */
START_TEST(eevdf_run_to_parity)
{
	struct sched_task t[2], *a = &t[0], *c = &t[1];
	struct sched_fair *e = eevdf_only_cpu0(t, 2);
	bool migrated;

	ck_assert(sched_task_start(e, a, 0, 0));
	ck_assert_ptr_null(sched_sleep(e, a, 0));
	ck_assert(sched_wake_up(e, a, 0, true, 0, &migrated));
	ck_assert_int_eq(a->deadline, MS(3));
	ck_assert(!sched_task_start(e, c, 0, MS(1)));
	ck_assert_int_eq(c->vruntime, MS(1));
	ck_assert_int_eq(c->deadline, MS(2.5));
	ck_assert(!e->rq[0].need_resched);
	ck_assert(!sched_slice_expired(e, a, MS(3) - 1));
	ck_assert(sched_slice_expired(e, a, MS(3)));
	ck_assert_int_eq(a->deadline, MS(6));
	ck_assert_ptr_eq(sched_yield_to_next(e, a, MS(3)), c);
	sched_fair_free(e);
}
END_TEST

/*
 * The pick of three waiting tasks. B starts and sleeps at 0 alone (lag
 * 0); A starts at 0 (v 0, d 1.5). At 1 ms (A's v 1) B wakes: v 1, a full
 * request, d 4; C and D start: v 1, half a request, d 2.5 each; all
 * wait behind A, which RUN_TO_PARITY keeps. Every vruntime is 1, so all
 * are eligible as each runner sleeps at once. CFS (_i 0) runs them in
 * FIFO order B, C, D; EEVDF (_i 1) by deadline: C, D (equal deadlines:
 * the first enqueued), then B.
 */
START_TEST(pick_order_cfs_fifo_vs_eevdf_deadline)
{
	struct sched_task t[4], *a = &t[0], *b = &t[1], *c = &t[2], *d = &t[3];
	struct sched_fair *e = eevdf_only_cpu0(t, 4);
	struct sched_task *want[2][3] = { { b, c, d }, { c, d, b } };
	struct sched_task *run = a;
	bool migrated;
	unsigned int i;

	if (!_i) {
		sched_fair_free(e);
		e = sched_fair_create(&h.m, SCHED_CLASS_CFS);
	}
	ck_assert(sched_task_start(e, b, 0, 0));
	ck_assert_ptr_null(sched_sleep(e, b, 0));
	ck_assert(sched_task_start(e, a, 0, 0));
	ck_assert(!sched_wake_up(e, b, 0, true, MS(1), &migrated));
	ck_assert(!sched_task_start(e, c, 0, MS(1)));
	ck_assert(!sched_task_start(e, d, 0, MS(1)));
	ck_assert(!e->rq[0].need_resched);
	if (_i) {
		ck_assert_int_eq(b->deadline, MS(4));
		ck_assert_int_eq(c->deadline, MS(2.5));
		ck_assert_int_eq(d->deadline, MS(2.5));
	}
	for (i = 0; i < 3; i++) {
		run = sched_sleep(e, run, MS(1));
		ck_assert_ptr_eq(run, want[_i][i]);
	}
	sched_fair_free(e);
}
END_TEST

/*
 * hackbench under sched: fair, one group of one sender and one
 * receiver, work_ns 2000 each side, in the root cgroup (no memcg work),
 * a 3 ms measured window; window 16.
 *
 * CPUs 0 and 1 (one LLC): the sender, alone on CPU 0, wakes the
 * receiver (last on 1) with WF_SYNC: wake_affine_idle() targets 0 (sync,
 * nr_running 1), select_idle_sibling() finds 0 busy and prev 1 idle in
 * its LLC: 1. Likewise the receiver's wake-ups of the sender keep it on
 * 0. Nothing moves: the same throughput as pinned, bit for bit, 1 per
 * 2000 ns (each side works 2000 ns a message in parallel).
 *
 * CPUs 0 and 18 (two sockets): the first wake-up of the receiver (last
 * on 18, not in CPU 0's LLC) finds no allowed idle CPU in that LLC:
 * target 0, where it waits. From then on both tasks share CPU 0 (every
 * wake-up targets the waker's CPU and finds no idle one in its LLC; CPU
 * 18's first MC and NUMA balances are due at 9 and 18 ms): the sender
 * fills the window (16 messages) and blocks, the receiver drains it and
 * blocks: per 16 messages 16 x (2000 + 2000) ns + 2 switches x 500 ns
 * (skx-2s-72's context_switch) = 65,000 ns, 246,154 messages/s; the
 * window's edges cut a cycle (3 ms is 46.2 of them): within 1%.
 */
START_TEST(hackbench_fair)
{
	static const char text[] =
		"scenario: hb-sched\nseed: 1\nmachine: skx-2s-72\n"
		"duration_ms: 4\nwarmup_ms: 1\n"
		"workloads:\n"
		"  - {type: hackbench, fds: 1, cpus: '0,1', work_ns: 2000}\n"
		"variants:\n"
		"  - {name: pinned}\n"
		"  - {name: fair, set: {workloads.0.sched: fair}}\n"
		"  - {name: fair-x, set: {workloads.0.cpus: '0,18', "
		"workloads.0.sched: fair}}\n";
	const char *top = getenv("top_srcdir"), *tmp = getenv("TMPDIR");
	char datadir[512], file[256];
	struct run_opts o = { .replications = 1, .hot_lines = 1 };
	struct report *r = NULL;
	struct sim_error err;
	double pinned = 0, fair = 0, x = 0;
	FILE *f;
	int fd;

	snprintf(datadir, sizeof(datadir), "%s/scenarios",
		 top && top[0] ? top : ".");
	o.datadir = datadir;
	snprintf(file, sizeof(file), "%s/check_sched-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(file);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	sim_error_clear(&err);
	ck_assert_msg(!scenario_run(file, &o, &r, &err), "%s", err.msg);
	unlink(file);
	ck_assert(report_get(r, "pinned", "throughput", &pinned));
	ck_assert(report_get(r, "fair", "throughput", &fair));
	ck_assert(report_get(r, "fair-x", "throughput", &x));
	report_free(r);
	ck_assert(pinned > 500000 * 0.99 && pinned < 500000 * 1.01);
	ck_assert(fair == pinned);
	ck_assert_msg(x > 246154 * 0.99 && x < 246154 * 1.01, "%g", x);
}
END_TEST

static Suite *sched_suite(void)
{
	Suite *s = suite_create("sched");
	TCase *tc = tcase_create("select_task_rq_fair");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, wake_idle_prev_in_wakers_llc);
	tcase_add_loop_test(tc, wake_cross_socket_idle_sibling, 0, 2);
	tcase_add_test(tc, wake_recent_used_cpu);
	tcase_add_test(tc, wake_onto_busy_waker_cpu);
	tcase_add_test(tc, wake_not_sync_keeps_idle_prev);
	suite_add_tcase(s, tc);
	tc = tcase_create("runqueue");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, newidle_pulls_cold_task, 0, 2);
	tcase_add_test(tc, newidle_gate_decays);
	tcase_add_test(tc, slice_expires);
	tcase_add_loop_test(tc, eevdf_wakeup_preempts, 0, 2);
	tcase_add_loop_test(tc, pick_order_cfs_fifo_vs_eevdf_deadline, 0, 2);
	tcase_add_test(tc, eevdf_run_to_parity);
	suite_add_tcase(s, tc);
	tc = tcase_create("load_balance");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, periodic_balance_pulls_one);
	tcase_add_loop_test(tc, periodic_balance_cache_hot, 0, 2);
	tcase_add_test(tc, periodic_balance_busy_interval);
	suite_add_tcase(s, tc);
	tc = tcase_create("workloads");
	tcase_add_test(tc, hackbench_fair);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sched_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
