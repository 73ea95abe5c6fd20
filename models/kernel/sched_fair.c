// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of kernel/sched/fair.c's placement decisions (Linux v6.0):
 * select_task_rq_fair(), wake_affine(), select_idle_sibling(),
 * select_idle_cpu(), newidle_balance()'s gate and pull, sched_slice().
 * Theory of operation: see sched_fair.h.
 */
#include <stdlib.h>
#include <string.h>

#include "models/kernel/sched_fair.h"
#include "sim/error.h"

struct sched_fair *sched_fair_create(const struct machine *m)
{
	struct sched_fair *s = calloc(1, sizeof(*s));
	unsigned int i;

	SIM_OOM_ON(!s);
	s->m = m;
	s->nr_cpus = m->nr_cpus;
	s->rq = calloc(m->nr_cpus, sizeof(*s->rq));
	SIM_OOM_ON(!s->rq);
	/* sched_init(): rq->avg_idle = 2 * sysctl_sched_migration_cost */
	for (i = 0; i < m->nr_cpus; i++)
		s->rq[i].avg_idle = 2 * SCHED_MIGRATION_COST_PS;
	return s;
}

void sched_fair_free(struct sched_fair *s)
{
	if (!s)
		return;
	free(s->rq);
	free(s);
}

bool available_idle_cpu(const struct sched_fair *s, unsigned int cpu)
{
	const struct rq *rq = &s->rq[cpu];

	return !rq->curr && !rq->nr_running;
}

bool cpus_share_cache(const struct sched_fair *s, unsigned int a,
		      unsigned int b)
{
	return s->m->cpus[a].llc == s->m->cpus[b].llc;
}

/* The CPUs of @cpu's core (cpu_smt_mask()), in CPU order. */
static bool same_core(const struct sched_fair *s, unsigned int a,
		      unsigned int b)
{
	return s->m->cpus[a].core == s->m->cpus[b].core;
}

static bool core_idle(const struct sched_fair *s, unsigned int core_cpu)
{
	unsigned int cpu;

	for (cpu = 0; cpu < s->nr_cpus; cpu++)
		if (same_core(s, cpu, core_cpu) && !available_idle_cpu(s, cpu))
			return false;
	return true;
}

/*
 * wake_affine_idle() - the waker's CPU when it is idle (or prev, idle
 * too, in the same LLC), or when a sync waker runs alone there; prev
 * when it is idle; else no answer (-1).
 */
static int wake_affine_idle(const struct sched_fair *s, unsigned int this_cpu,
			    unsigned int prev_cpu, bool sync)
{
	if (available_idle_cpu(s, this_cpu) &&
	    cpus_share_cache(s, this_cpu, prev_cpu))
		return available_idle_cpu(s, prev_cpu) ? (int)prev_cpu :
							 (int)this_cpu;
	if (sync && s->rq[this_cpu].nr_running == 1)
		return (int)this_cpu;
	if (available_idle_cpu(s, prev_cpu))
		return (int)prev_cpu;
	return -1;
}

static unsigned int wake_affine(const struct sched_fair *s,
				unsigned int this_cpu, unsigned int prev_cpu,
				bool sync)
{
	int target = wake_affine_idle(s, this_cpu, prev_cpu, sync);

	/* SIM: no wake_affine_weight(): between equal loads it keeps prev */
	return target < 0 ? prev_cpu : (unsigned int)target;
}

/*
 * select_idle_cpu() - scan the LLC of @target from target + 1, wrapping:
 * with an idle core somewhere in it, the first CPU whose whole core is
 * idle (select_idle_core()), falling back to the first idle CPU seen;
 * else the first idle CPU. -1 when none is idle.
 */
static int select_idle_cpu(const struct sched_fair *s,
			   const struct sched_task *p, bool has_idle_core,
			   unsigned int target)
{
	unsigned int i, cpu;
	int idle_cpu = -1;

	for (i = 1; i <= s->nr_cpus; i++) {
		cpu = (target + i) % s->nr_cpus;
		if (!cpus_share_cache(s, cpu, target) ||
		    !sched_task_allowed(p, cpu))
			continue;
		if (!available_idle_cpu(s, cpu))
			continue;
		if (!has_idle_core)
			return (int)cpu;
		if (core_idle(s, cpu))
			return (int)cpu;
		if (idle_cpu < 0)
			idle_cpu = (int)cpu;
	}
	return idle_cpu;
}

/* test_idle_cores(): SIM: computed, not the has_idle_cores hint. */
static bool test_idle_cores(const struct sched_fair *s, unsigned int target)
{
	unsigned int cpu;

	if (s->m->threads_per_core < 2)
		return false;
	for (cpu = 0; cpu < s->nr_cpus; cpu++)
		if (cpus_share_cache(s, cpu, target) && core_idle(s, cpu))
			return true;
	return false;
}

/*
 * select_idle_sibling() - @target if idle; else @prev if idle and in
 * target's LLC; else the recently used CPU likewise; else an idle CPU of
 * target's LLC; else @target.
 */
static unsigned int select_idle_sibling(const struct sched_fair *s,
					struct sched_task *p, unsigned int prev,
					unsigned int target)
{
	int recent_used_cpu, i;

	if (available_idle_cpu(s, target))
		return target;
	if (prev != target && cpus_share_cache(s, prev, target) &&
	    available_idle_cpu(s, prev))
		return prev;
	recent_used_cpu = p->recent_used_cpu;
	p->recent_used_cpu = (int)prev;
	if (recent_used_cpu >= 0 && (unsigned int)recent_used_cpu != prev &&
	    (unsigned int)recent_used_cpu != target &&
	    cpus_share_cache(s, (unsigned int)recent_used_cpu, target) &&
	    available_idle_cpu(s, (unsigned int)recent_used_cpu) &&
	    sched_task_allowed(p, (unsigned int)recent_used_cpu))
		return (unsigned int)recent_used_cpu;
	i = select_idle_cpu(s, p, test_idle_cores(s, target), target);
	return i >= 0 ? (unsigned int)i : target;
}

/**
 * select_task_rq_fair() - where a waking task runs
 * @s: the runqueues
 * @p: the task, sleeping; p->cpu is its previous CPU
 * @this_cpu: the waker's CPU
 * @sync: WF_SYNC (a socket's sk_data_ready() wakes with it)
 *
 * want_affine when the waker's CPU is in @p's mask (SIM: wake_wide() is
 * false); every domain level of the modelled machines has
 * SD_WAKE_AFFINE, so the affine domain spans both CPUs: wake_affine()
 * picks the target, select_idle_sibling() the CPU.
 *
 * Return: the CPU, one of @p's mask.
 */
unsigned int select_task_rq_fair(struct sched_fair *s, struct sched_task *p,
				 unsigned int this_cpu, bool sync)
{
	unsigned int prev_cpu = p->cpu, new_cpu = prev_cpu;

	if (sched_task_allowed(p, this_cpu) && this_cpu != prev_cpu)
		new_cpu = wake_affine(s, this_cpu, prev_cpu, sync);
	new_cpu = select_idle_sibling(s, p, prev_cpu, new_cpu);
	SIM_BUG_ON(!sched_task_allowed(p, new_cpu));
	return new_cpu;
}

/* Put @p on @cpu's runqueue; it runs if the CPU is idle. */
static bool enqueue_task(struct sched_fair *s, struct sched_task *p,
			 unsigned int cpu, sim_time_t now)
{
	struct rq *rq = &s->rq[cpu];
	sim_time_t delta;

	p->cpu = cpu;
	p->on_rq = true;
	p->next = NULL;
	rq->nr_running++;
	if (rq->idle_stamp) {
		/* ttwu_do_wakeup(): update_avg(&rq->avg_idle, delta) */
		delta = now - rq->idle_stamp;
		if (delta >= rq->avg_idle)
			rq->avg_idle += (delta - rq->avg_idle) / 8;
		else
			rq->avg_idle -= (rq->avg_idle - delta) / 8;
		if (rq->avg_idle > 2 * SCHED_MIGRATION_COST_PS)
			rq->avg_idle = 2 * SCHED_MIGRATION_COST_PS;
		rq->idle_stamp = 0;
	}
	if (!rq->curr) {
		rq->curr = p;
		p->exec_start = now;
		return true;
	}
	if (rq->tail)
		rq->tail->next = p;
	else
		rq->head = p;
	rq->tail = p;
	return false;
}

static struct sched_task *dequeue_head(struct rq *rq)
{
	struct sched_task *p = rq->head;

	if (p) {
		rq->head = p->next;
		if (!rq->head)
			rq->tail = NULL;
		p->next = NULL;
	}
	return p;
}

bool sched_task_start(struct sched_fair *s, struct sched_task *p,
		      unsigned int cpu, sim_time_t now)
{
	SIM_BUG_ON(!sched_task_allowed(p, cpu) || p->on_rq);
	p->recent_used_cpu = -1;
	return enqueue_task(s, p, cpu, now);
}

bool sched_wake_up(struct sched_fair *s, struct sched_task *p,
		   unsigned int this_cpu, bool sync, sim_time_t now,
		   bool *migrated)
{
	unsigned int cpu;

	SIM_BUG_ON(p->on_rq);
	cpu = select_task_rq_fair(s, p, this_cpu, sync);
	*migrated = cpu != p->cpu;
	if (*migrated)
		p->nr_migrations++;
	return enqueue_task(s, p, cpu, now);
}

/*
 * can_migrate_task(): allowed on @cpu, waiting (not running), and not
 * cache-hot: it last ran at least sysctl_sched_migration_cost ago.
 */
static bool can_migrate_task(const struct sched_task *p, unsigned int cpu,
			     sim_time_t now)
{
	return sched_task_allowed(p, cpu) &&
	       now - p->exec_start >= SCHED_MIGRATION_COST_PS;
}

/* Unlink @p, waiting in @rq, from the queue. */
static void unlink_waiting(struct rq *rq, struct sched_task *p)
{
	struct sched_task **pp = &rq->head, *prev = NULL;

	while (*pp && *pp != p) {
		prev = *pp;
		pp = &(*pp)->next;
	}
	SIM_BUG_ON(!*pp);
	*pp = p->next;
	if (rq->tail == p)
		rq->tail = prev;
	p->next = NULL;
}

/*
 * newidle_balance() - @cpu goes idle: when its average idle period is at
 * least sysctl_sched_migration_cost, pull a migratable waiting task from
 * the busiest runqueue, the nearest domain first (the SMT siblings, the
 * LLC, then the rest). SIM: the busiest is the one with most waiting.
 */
static struct sched_task *newidle_balance(struct sched_fair *s,
					  unsigned int cpu, sim_time_t now)
{
	static const enum coh_dist levels[] = { COH_DIST_SMT, COH_DIST_LLC,
						COH_DIST_DIE, COH_DIST_SOCKET };
	struct rq *this_rq = &s->rq[cpu];
	unsigned int l, i, best_n;
	struct sched_task *p, *pick;

	if (this_rq->avg_idle < SCHED_MIGRATION_COST_PS)
		return NULL;
	for (l = 0; l < sizeof(levels) / sizeof(levels[0]); l++) {
		pick = NULL;
		best_n = 0;
		for (i = 0; i < s->nr_cpus; i++) {
			struct rq *rq = &s->rq[i];

			if (machine_dist(s->m, cpu, i) != levels[l] ||
			    rq->nr_running < 2 || rq->nr_running <= best_n)
				continue;
			for (p = rq->head; p; p = p->next)
				if (can_migrate_task(p, cpu, now))
					break;
			if (p) {
				pick = p;
				best_n = rq->nr_running;
			}
		}
		if (pick) {
			this_rq->idle_stamp = 0; /* pulled: not idle */
			unlink_waiting(&s->rq[pick->cpu], pick);
			s->rq[pick->cpu].nr_running--;
			pick->on_rq = false;
			pick->nr_migrations++;
			enqueue_task(s, pick, cpu, now);
			return pick;
		}
	}
	return NULL;
}

struct sched_task *sched_sleep(struct sched_fair *s, struct sched_task *p,
			       sim_time_t now)
{
	struct rq *rq = &s->rq[p->cpu];
	struct sched_task *next;

	SIM_BUG_ON(rq->curr != p);
	p->on_rq = false;
	p->exec_start = now; /* SIM: when it last ran, for task_hot() */
	rq->nr_running--;
	rq->curr = NULL;
	next = dequeue_head(rq);
	if (next) {
		rq->curr = next;
		next->exec_start = now;
		next->nr_switches++;
		return next;
	}
	rq->idle_stamp = now;
	next = newidle_balance(s, p->cpu, now);
	if (next)
		next->nr_switches++;
	return next;
}

/*
 * sched_slice() - the period (sched_latency, or nr_running minimum
 * granularities past sched_nr_latency) shared equally among the tasks
 * of the runqueue (SIM: equal weights); both scaled, as
 * SCHED_TUNABLESCALING_LOG does, by 1 + ilog2(min(nr_cpus, 8)).
 */
static sim_time_t sched_slice(const struct sched_fair *s, unsigned int nr)
{
	unsigned int cpus = s->nr_cpus < 8 ? s->nr_cpus : 8, factor = 1;
	sim_time_t period;

	while (cpus > 1) {
		factor++;
		cpus >>= 1;
	}
	period = nr > SCHED_NR_LATENCY ? nr * SCHED_MIN_GRANULARITY_PS :
					 SCHED_LATENCY_PS;
	return period * factor / (nr ? nr : 1);
}

bool sched_slice_expired(const struct sched_fair *s, const struct sched_task *p,
			 sim_time_t now)
{
	const struct rq *rq = &s->rq[p->cpu];

	return rq->curr == p && rq->nr_running > 1 &&
	       now - p->exec_start >= sched_slice(s, rq->nr_running);
}

struct sched_task *sched_yield_to_next(struct sched_fair *s,
				       struct sched_task *p, sim_time_t now)
{
	struct rq *rq = &s->rq[p->cpu];
	struct sched_task *next;

	SIM_BUG_ON(rq->curr != p || !rq->head);
	next = dequeue_head(rq);
	p->next = NULL;
	if (rq->tail)
		rq->tail->next = p;
	else
		rq->head = p;
	rq->tail = p;
	rq->curr = next;
	next->exec_start = now;
	next->nr_switches++;
	return next;
}
