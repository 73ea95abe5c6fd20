/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Model of the fair scheduling class's placement decisions:
 * kernel/sched/fair.c (Linux v6.0) select_task_rq_fair()'s wake-up fast
 * path (wake_affine() with wake_affine_idle(), select_idle_sibling(),
 * select_idle_cpu() within the LLC), newidle_balance()'s gate and the
 * periodic load balance (rebalance_domains(), load_balance()), over a
 * runqueue per CPU (kernel/sched/sched.h struct rq).
 *
 * Theory of operation: a task (struct sched_task, task_struct's
 * scheduling fields) runs on one CPU of its affinity mask (cpus_ptr) or
 * sleeps. A CPU's runqueue has the task running on it (curr, NULL when
 * idle) and the tasks waiting for it, in FIFO order. When a task wakes
 * (try_to_wake_up() -> select_task_rq()), select_task_rq_fair() picks
 * its CPU from the waker's CPU and the task's previous one; the task then
 * runs at once on an idle CPU or waits in the runqueue of a busy one.
 * When the running task sleeps, the CPU picks the next waiting task
 * (pick_next_task_fair()) or goes idle; a CPU going idle may pull a
 * waiting task from another runqueue (newidle_balance()), but only when
 * its average idle time is at least sysctl_sched_migration_cost (500 us):
 * CPUs idle for microseconds at a time, as netperf's are, do not pull.
 * A running task with others waiting is preempted when its slice ends
 * (sched_slice()). At every tick each CPU runs the periodic load balance
 * (rebalance_domains()) on each domain level (SMT, MC = the LLC, DIE,
 * NUMA, those the profile's topology has) whose interval has passed:
 * sd->balance_interval ms, sd_weight at first, doubled while balanced up
 * to twice that, 16 times longer less a jiffy while the CPU is busy.
 * load_balance() finds the busiest group and its busiest runqueue and
 * pulls waiting tasks that may run here and are not cache-hot (task_hot():
 * ran in the last sysctl_sched_migration_cost), a hot one only after
 * more failed balances of the domain than its cache_nice_tries. At
 * these intervals (2 ms for SMT, the LLC's CPU count in ms for MC) a run
 * of a few ms sees a few balances per CPU.
 *
 * The pick follows the kernel's sched_class key (struct sched_fair's
 * eevdf; `version:` sets eevdf from v6.6). CFS, as above. EEVDF (v6.6's
 * fair.c, "sched/fair: Implement an EEVDF-like scheduling policy"): each
 * task has a vruntime, advancing with its runtime (update_curr()), and a
 * virtual deadline, vruntime plus a request of sysctl_sched_base_slice
 * (0.75 ms scaled as above; half of it for a new task), renewed when the
 * vruntime reaches it (update_deadline()), which asks for a reschedule
 * when others wait. A task is eligible when its vruntime is at most V,
 * the mean vruntime of the runqueue (avg_vruntime()); the CPU runs the
 * eligible task with the earliest deadline (pick_eevdf()), but keeps
 * the running one while it is eligible and has not renewed its request
 * since it was picked (RUN_TO_PARITY). A task that sleeps keeps its lag
 * V - v, clamped to two slices (update_entity_lag()); woken, it is
 * placed at V less that lag scaled by (n + 1) / n so that joining does
 * not change it (place_entity(), PLACE_LAG; an empty runqueue drops the
 * lag). A wake-up (and a balance's attach) preempts the running task
 * when the woken one is what pick_eevdf() would run
 * (check_preempt_wakeup_fair()). Placement (select_task_rq_fair()) and
 * the balances are the same code under both: EEVDF changed the pick,
 * not the wake-up's CPU selection.
 *
 * SIM (each marked in the code):
 *  - CFS: the waiting tasks are served in FIFO order, not by vruntime: every
 *    task here has the same weight and sleeps often, so the leftmost
 *    task is about the one that waited longest;
 *  - CFS: no wake-up preemption: at v6.0 a waking sleeper is placed half a
 *    sched_latency (3 ms scaled) behind min_vruntime, less than the
 *    wakeup granularity (1 ms scaled by 1 + ilog2(min(nr_cpus, 8)): 4 ms
 *    on 8 CPUs or more), so check_preempt_wakeup() does not preempt;
 *  - wake_affine_weight() (WA_WEIGHT) is not modelled: when
 *    wake_affine_idle() has no answer the previous CPU is kept, as
 *    wake_affine_weight() does between equally loaded CPUs;
 *  - wake_wide() is false (one waker per wakee: the pairs of netperf);
 *  - select_idle_cpu() scans the whole LLC (no SIS_UTIL limit): the
 *    LLCs modelled have at most 36 CPUs, and the limit only shortens the
 *    scan of a busy LLC;
 *  - the periodic load balance (sched_balance_tick(): rebalance_domains()
 *    and load_balance()) counts tasks, not PELT load and utilization:
 *    every task has the same weight, and a runnable task is taken to use
 *    its CPU fully (group_is_overloaded()'s utilization test is true when
 *    a group has more tasks than CPUs; migrate_util's spare capacity is
 *    the local group's idle CPUs); no active balance (need_active_balance()
 *    after cache_nice_tries + 2 failures stops a busiest CPU's running
 *    task), no LBF_DST_PINNED retarget and no redo without an all-pinned
 *    queue; idle CPUs balance at their own intervals, where the kernel's
 *    NOHZ idle balancer (kicked by a busy CPU's tick when it has two
 *    tasks, the only case with anything to pull) balances them in turn;
 *    HZ is 1000 (SCHED_TICK_PS);
 *  - EEVDF: every task at NICE_0's weight (a virtual time is a wall-clock
 *    time, V a plain mean); the runqueue is a list scanned for the pick
 *    and for min_vruntime, not the augmented rbtree (equal deadlines go
 *    to the task enqueued first, as rb_add_cached() orders them); a
 *    preemption a wake-up asks for, and a renewed deadline's reschedule,
 *    take effect at the running task's next scheduling point
 *    (sched_slice_expired()), as CFS's slice end does; a task picked
 *    again after a reschedule keeps running without a renewed
 *    RUN_TO_PARITY copy (pick_next_task_fair() with
 *    CONFIG_FAIR_GROUP_SCHED leaves a prev it picks again alone); the
 *    later features (DELAY_DEQUEUE, PREEMPT_SHORT, per-task slices:
 *    v6.12) are not modelled.
 *
 * Layering: models/kernel module; uses models/hw/machine.h.
 */
#ifndef MODELS_KERNEL_SCHED_FAIR_H
#define MODELS_KERNEL_SCHED_FAIR_H

#include <stdbool.h>
#include <stdint.h>

#include "models/hw/machine.h"
#include "models/kernel/sim/config.h"
#include "sim/engine.h"

/* sysctl_sched_migration_cost: a CPU idle for less on average won't pull */
#define SCHED_MIGRATION_COST_PS (500 * SIM_PS_PER_US)
/* sysctl_sched_latency and _min_granularity at v6.0, before scaling */
#define SCHED_LATENCY_PS (6 * SIM_PS_PER_MS)
#define SCHED_MIN_GRANULARITY_PS (750 * SIM_PS_PER_US)
#define SCHED_NR_LATENCY 8
/* sysctl_sched_base_slice (v6.6, EEVDF's request size), before scaling */
#define SCHED_BASE_SLICE_PS (750 * SIM_PS_PER_US)
/* SIM: the tick, HZ=1000: load balance runs at a tick (trigger_load_balance()) */
#define SCHED_TICK_PS SIM_PS_PER_MS
/* sd_init(): busy_factor; the domain levels: SMT, MC (LLC), DIE, NUMA */
#define SCHED_BUSY_FACTOR 16
#define SCHED_NR_LEVELS 4
/* load_balance(): MAX_PINNED_INTERVAL, in ms */
#define SCHED_MAX_PINNED_INTERVAL 512

/*
 * struct sched_task - a task's scheduling state (task_struct's fields).
 * @cpu: task_cpu(p), the CPU it runs or last ran on
 * @recent_used_cpu: p->recent_used_cpu, or -1
 * @cpus_ptr: the affinity mask, a bit per CPU
 * @on_rq: runnable: running or waiting in @cpu's runqueue
 * @next: the next waiting task in that runqueue
 * @exec_start: when it last started running (for the slice)
 * @nr_migrations, @nr_switches: SIM: counts
 * @data: SIM: the workload's task
 * EEVDF (sched_class eevdf; sched_entity's fields, in ps of virtual time,
 * which at the one weight modelled, NICE_0, runs at wall-clock speed):
 * @vruntime, @deadline: the virtual runtime and virtual deadline
 * @vlag: the lag kept across a sleep (update_entity_lag()); while it runs,
 *	a copy of @deadline as set_next_entity() stashes it (RUN_TO_PARITY)
 * @vr_stamp: when update_curr() last charged it (curr->exec_start)
 */
struct sched_task {
	unsigned int cpu;
	int recent_used_cpu;
	uint64_t cpus_ptr[MACHINE_MAX_CPUS / 64];
	bool on_rq;
	struct sched_task *next;
	sim_time_t exec_start;
	uint64_t nr_migrations, nr_switches;
	void *data;
	int64_t vruntime, deadline, vlag;
	sim_time_t vr_stamp;
};

/*
 * struct sched_domain_state - one CPU's sched_domain at one level (the
 * fields load_balance() changes). @last_balance: in jiffies (SIM: before
 * the run for the first balance: see sched_domains_init());
 * @balance_interval: in ms, sd_weight at first (sd_init()), doubled
 * while balanced up to 2 * sd_weight (max_interval);
 * @nr_balance_failed: balances in a row that found an imbalance and
 * moved nothing; @nr_pulled: SIM: tasks moved by it, a count.
 */
struct sched_domain_state {
	int64_t last_balance;
	unsigned int balance_interval, nr_balance_failed;
	uint64_t nr_pulled;
};

/*
 * struct rq - one CPU's runqueue.
 * @curr: the task running, NULL when the CPU is idle
 * @head, @tail: the tasks waiting, in FIFO order (SIM: not an rbtree)
 * @nr_running: the running task and the waiting ones
 * @idle_stamp: when the CPU last went idle
 * @avg_idle: rq->avg_idle, the average idle period (update_avg(): 1/8)
 * @min_vruntime: cfs_rq->min_vruntime (EEVDF: avg_vruntime()'s origin)
 * @need_resched: EEVDF: a wake-up asked to preempt @curr (resched_curr())
 */
struct rq {
	struct sched_task *curr;
	struct sched_task *head, *tail;
	unsigned int nr_running;
	sim_time_t idle_stamp, avg_idle;
	int64_t min_vruntime;
	bool need_resched;
	struct sched_domain_state sd[SCHED_NR_LEVELS];
};

/*
 * struct sched_fair - SIM: every CPU's runqueue, the machine's topology,
 * and the pick (@eevdf: sched_class eevdf).
 */
struct sched_fair {
	const struct machine *m;
	bool eevdf;
	unsigned int nr_cpus;
	struct rq *rq; /* [nr_cpus] */
};

static inline bool sched_task_allowed(const struct sched_task *p,
				      unsigned int cpu)
{
	return p->cpus_ptr[cpu / 64] & (1ull << (cpu % 64));
}

static inline void sched_task_allow(struct sched_task *p, unsigned int cpu)
{
	p->cpus_ptr[cpu / 64] |= 1ull << (cpu % 64);
}

/*
 * sched_fair_create() - idle runqueues for @m's CPUs, picking as @cls
 * (the kernel's sched_class key); never fails.
 */
struct sched_fair *sched_fair_create(const struct machine *m,
				     enum kernel_sched_class cls);
void sched_fair_free(struct sched_fair *s);

/* available_idle_cpu(): nothing runs on @cpu and nothing waits there. */
bool available_idle_cpu(const struct sched_fair *s, unsigned int cpu);
/* cpus_share_cache(): @a and @b share an LLC. */
bool cpus_share_cache(const struct sched_fair *s, unsigned int a,
		      unsigned int b);

/*
 * select_task_rq_fair() - the CPU for @p waking up, woken from
 * @this_cpu (the waker's), @sync when the waker is about to sleep or is
 * a socket wake-up (WF_SYNC). Updates p->recent_used_cpu as
 * select_idle_sibling() does.
 */
unsigned int select_task_rq_fair(struct sched_fair *s, struct sched_task *p,
				 unsigned int this_cpu, bool sync);

/*
 * sched_task_start() - @p starts on @cpu (wake_up_new_task(), or the
 * placement a scenario pins): it runs if @cpu is idle, else waits.
 * Return: true when it runs at once.
 */
bool sched_task_start(struct sched_fair *s, struct sched_task *p,
		      unsigned int cpu, sim_time_t now);

/*
 * sched_wake_up() - try_to_wake_up(): place @p (sleeping) with
 * select_task_rq_fair() and enqueue it. *@migrated is set when its CPU
 * changed. Return: true when it runs at once (the CPU was idle).
 */
bool sched_wake_up(struct sched_fair *s, struct sched_task *p,
		   unsigned int this_cpu, bool sync, sim_time_t now,
		   bool *migrated);

/*
 * sched_sleep() - @p, running, blocks (dequeue_task() then __schedule()):
 * its CPU runs the first waiting task, or pulls one (newidle_balance())
 * when its average idle period is long enough, or goes idle.
 * Return: the task that runs next on the CPU (its cpu is set; a pulled
 * one has migrated), or NULL.
 */
struct sched_task *sched_sleep(struct sched_fair *s, struct sched_task *p,
			       sim_time_t now);

/*
 * sched_slice_expired() - @p runs and others wait on its CPU, and it is
 * to give way: CFS, it has run its sched_slice() (check_preempt_tick());
 * EEVDF, its deadline passed (update_deadline()) or a wake-up asked to
 * preempt it (check_preempt_wakeup_fair()), and pick_eevdf() picks
 * another task. EEVDF charges @p's runtime up to @now (update_curr()).
 */
bool sched_slice_expired(struct sched_fair *s, struct sched_task *p,
			 sim_time_t now);

/*
 * sched_yield_to_next() - put @p, running, at the tail of its runqueue
 * and run the first waiting task (EEVDF: the one pick_eevdf() picks,
 * which sched_slice_expired() found not to be @p). Return: that task.
 */
struct sched_task *sched_yield_to_next(struct sched_fair *s,
				       struct sched_task *p, sim_time_t now);

/*
 * sched_balance_tick() - the scheduler tick at @now on every CPU, in CPU
 * order (trigger_load_balance() -> run_rebalance_domains()): each CPU
 * runs rebalance_domains() on the levels whose interval has passed, as
 * CPU_IDLE when nothing runs on it, else CPU_NOT_IDLE, and load_balance()
 * pulls waiting tasks that may run there and are not cache-hot.
 * @started gets the tasks that now run on a CPU that was idle (at most
 * @max; the rest wait there), each migrated. Return: how many.
 */
unsigned int sched_balance_tick(struct sched_fair *s, sim_time_t now,
				struct sched_task **started, unsigned int max);

#endif /* MODELS_KERNEL_SCHED_FAIR_H */
