// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of kernel/sched/fair.c's placement decisions (Linux v6.0):
 * select_task_rq_fair(), wake_affine(), select_idle_sibling(),
 * select_idle_cpu(), newidle_balance()'s gate and pull, sched_slice(),
 * and the periodic load balance: rebalance_domains(), load_balance()
 * with should_we_balance(), find_busiest_group() (update_sd_lb_stats(),
 * calculate_imbalance()), find_busiest_queue(), detach_tasks() and
 * can_migrate_task()/task_hot(); read in torvalds/linux
 * kernel/sched/fair.c as stored at 000619680c37 (a v5.5-era tree, after
 * the v5.5 rework of load_balance() whose structure v6.0 keeps) and
 * sd_init() in kernel/sched/topology.c (busy_factor 16, intervals
 * sd_weight ms); v6.0's adjust_numa_imbalance() from its imb_numa_nr.
 * EEVDF (sched_class eevdf, v6.6 on): avg_vruntime(), entity_eligible(),
 * update_entity_lag(), place_entity(), update_deadline(), pick_eevdf()
 * with RUN_TO_PARITY and check_preempt_wakeup_fair(); no v6.6 fair.c is
 * stored here (torvalds/linux has 000619680c37 and an older tree), so
 * these were read from the v6.6-era patches quoted in the stored LKML
 * threads (the EEVDF series, "sched/eevdf: Curb wakeup-preemption" for
 * RUN_TO_PARITY, update_entity_lag()'s clamp) and v6.6's features.h.
 * Theory of operation: see sched_fair.h.
 */
#include <stdlib.h>
#include <string.h>

#include "models/kernel/kernel/sched/fair.h"
#include "sim/error.h"

/* The domain levels (SMT, MC, DIE, NUMA): a CPU's span at each. */
static const enum coh_dist sd_level_dist[SCHED_NR_LEVELS] = {
	COH_DIST_SMT, COH_DIST_LLC, COH_DIST_DIE, COH_DIST_SOCKET
};

static bool sd_in_span(const struct sched_fair *s, unsigned int cpu,
		       unsigned int other, int level)
{
	if (level < 0)
		return cpu == other;
	return machine_dist(s->m, cpu, other) <= sd_level_dist[level];
}

static unsigned int sd_weight(const struct sched_fair *s, unsigned int cpu,
			      int level)
{
	unsigned int i, n = 0;

	for (i = 0; i < s->nr_cpus; i++)
		n += sd_in_span(s, cpu, i, level);
	return n;
}

/*
 * A level is a domain of @cpu when it spans more CPUs than the level
 * below (the kernel removes degenerate domains: a socket with one LLC
 * has no DIE level). Return: the child level, -1 for none (the
 * groups are single CPUs), or -2 when @level is not a domain.
 */
static int sd_child(const struct sched_fair *s, unsigned int cpu, int level)
{
	int child;

	for (child = level - 1; child >= 0; child--)
		if (sd_weight(s, cpu, child) > sd_weight(s, cpu, child - 1))
			break;
	if (sd_weight(s, cpu, level) <= sd_weight(s, cpu, child))
		return -2;
	return child;
}

static void sched_domains_init(struct sched_fair *s, unsigned int cpu)
{
	int l;

	/*
	 * sd_init(): .balance_interval = sd_weight, .last_balance = jiffies.
	 * SIM: a run is a window of a machine up for long, on which each
	 * CPU's balances have drifted apart (intervals doubled while
	 * balanced, reset on an imbalance, times busy_factor while busy):
	 * the CPUs' first balances at each level are spread evenly over one
	 * interval, CPU n's at jiffy n x interval / nr_cpus.
	 */
	for (l = 0; l < SCHED_NR_LEVELS; l++) {
		struct sched_domain_state *sd = &s->rq[cpu].sd[l];

		sd->balance_interval = sd_weight(s, cpu, l);
		sd->last_balance =
			(int64_t)(cpu * sd->balance_interval / s->nr_cpus) -
			(int64_t)sd->balance_interval;
	}
}

struct sched_fair *sched_fair_create(const struct machine *m,
				     enum kernel_sched_class cls)
{
	struct sched_fair *s = calloc(1, sizeof(*s));
	unsigned int i;

	SIM_OOM_ON(!s);
	s->m = m;
	s->eevdf = cls == SCHED_CLASS_EEVDF;
	s->nr_cpus = m->nr_cpus;
	s->rq = calloc(m->nr_cpus, sizeof(*s->rq));
	SIM_OOM_ON(!s->rq);
	/* sched_init(): rq->avg_idle = 2 * sysctl_sched_migration_cost */
	for (i = 0; i < m->nr_cpus; i++) {
		s->rq[i].avg_idle = 2 * SCHED_MIGRATION_COST_PS;
		sched_domains_init(s, i);
	}
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

/*
 * EEVDF (sched_class eevdf): kernel/sched/fair.c from v6.6, every task
 * at NICE_0's weight, so a virtual time is a wall-clock time and the
 * weighted average is the plain mean.
 */

/* get_update_sysctl_factor(), SCHED_TUNABLESCALING_LOG: 1 + ilog2(min(nr_cpus, 8)) */
static unsigned int sysctl_factor(const struct sched_fair *s)
{
	unsigned int cpus = s->nr_cpus < 8 ? s->nr_cpus : 8, factor = 1;

	while (cpus > 1) {
		factor++;
		cpus >>= 1;
	}
	return factor;
}

/* sysctl_sched_base_slice, scaled: se->slice, the request */
static int64_t base_slice(const struct sched_fair *s)
{
	return (int64_t)SCHED_BASE_SLICE_PS * sysctl_factor(s);
}

/*
 * cfs_rq->avg_vruntime and avg_load with curr: the sum of the entities'
 * keys (vruntime - min_vruntime) and their number.
 */
static int64_t avg_key_sum(const struct rq *rq, int64_t *load)
{
	const struct sched_task *p;
	int64_t sum = 0;

	*load = 0;
	if (rq->curr && rq->curr->on_rq) {
		sum += rq->curr->vruntime - rq->min_vruntime;
		(*load)++;
	}
	for (p = rq->head; p; p = p->next) {
		sum += p->vruntime - rq->min_vruntime;
		(*load)++;
	}
	return sum;
}

/* avg_vruntime(): V, the mean vruntime (rounded down), or min_vruntime */
static int64_t avg_vruntime(const struct rq *rq)
{
	int64_t load, avg = avg_key_sum(rq, &load);

	if (load) {
		if (avg < 0)
			avg -= load - 1;
		avg /= load;
	}
	return rq->min_vruntime + avg;
}

/* entity_eligible(): lag >= 0, V >= v, without the division */
static bool entity_eligible(const struct rq *rq, const struct sched_task *se)
{
	int64_t load, avg = avg_key_sum(rq, &load);

	return avg >= (se->vruntime - rq->min_vruntime) * load;
}

/*
 * update_min_vruntime(): the smallest vruntime of curr and the waiting
 * tasks, never going back. SIM: the waiting list is scanned (the kernel
 * reads the augmented rbtree).
 */
static void update_min_vruntime(struct rq *rq)
{
	const struct sched_task *p;
	bool any = rq->curr && rq->curr->on_rq;
	int64_t v = any ? rq->curr->vruntime : 0;

	for (p = rq->head; p; p = p->next) {
		if (!any || p->vruntime < v)
			v = p->vruntime;
		any = true;
	}
	if (any && v > rq->min_vruntime)
		rq->min_vruntime = v;
}

/*
 * update_curr() with update_deadline(): charge curr its runtime; once
 * its vruntime reaches its deadline it gets a new request (deadline =
 * vruntime + slice) and, with others waiting, is to reschedule.
 */
static void update_curr(const struct sched_fair *s, struct rq *rq,
			sim_time_t now)
{
	struct sched_task *curr = rq->curr;

	if (!curr || now <= curr->vr_stamp)
		return;
	curr->vruntime += (int64_t)(now - curr->vr_stamp);
	curr->vr_stamp = now;
	if (curr->vruntime >= curr->deadline) {
		curr->deadline = curr->vruntime + base_slice(s);
		if (rq->nr_running > 1)
			rq->need_resched = true;
	}
	update_min_vruntime(rq);
}

/*
 * update_entity_lag(): @se, on @rq, is dequeued: keep V - v, clamped to
 * the larger of two slices and a tick.
 */
static void update_entity_lag(const struct sched_fair *s, const struct rq *rq,
			      struct sched_task *se)
{
	int64_t lag = avg_vruntime(rq) - se->vruntime;
	int64_t limit = 2 * base_slice(s);

	if (limit < (int64_t)SCHED_TICK_PS)
		limit = SCHED_TICK_PS;
	se->vlag = lag < -limit ? -limit : lag > limit ? limit : lag;
}

/*
 * place_entity() (PLACE_LAG, PLACE_DEADLINE_INITIAL): @se joins @rq at
 * V less its lag, inflated by (n + 1) / n so that adding it leaves its
 * lag as it was; an empty runqueue drops the lag. A new task's first
 * request is half a slice.
 */
static void place_entity(const struct sched_fair *s, const struct rq *rq,
			 struct sched_task *se, bool initial)
{
	int64_t lag = 0, vslice = base_slice(s);
	int64_t load = rq->nr_running;

	if (load)
		lag = se->vlag * (load + 1) / load;
	se->vruntime = avg_vruntime(rq) - lag;
	if (initial)
		vslice /= 2;
	se->deadline = se->vruntime + vslice;
}

/*
 * pick_eevdf() - of @curr (when eligible) and the waiting tasks, the
 * eligible one with the earliest deadline; @curr while RUN_TO_PARITY
 * protects its slice (vlag is the copy of its deadline set_next_entity()
 * made: no new request since it was picked). Pass @curr NULL to leave
 * it out. SIM: a scan of the waiting list, not the augmented rbtree;
 * equal deadlines go to the one enqueued first, as rb_add_cached()
 * orders them.
 */
static struct sched_task *pick_eevdf(const struct rq *rq,
				     struct sched_task *curr)
{
	struct sched_task *best = NULL, *left = NULL, *p;

	if (curr && !entity_eligible(rq, curr))
		curr = NULL;
	if (curr && curr->vlag == curr->deadline)
		return curr;
	for (p = rq->head; p; p = p->next) {
		if (!left || p->deadline < left->deadline)
			left = p;
		if (entity_eligible(rq, p) &&
		    (!best || p->deadline < best->deadline))
			best = p;
	}
	if (!best || (curr && curr->deadline < best->deadline))
		best = curr;
	return best ? best : left;
}

/* set_next_entity(): @se runs from @now; RUN_TO_PARITY's copy */
static void set_next_entity(struct rq *rq, struct sched_task *se,
			    sim_time_t now)
{
	se->vlag = se->deadline;
	se->vr_stamp = now;
	rq->need_resched = false;
}

/* dequeue_entity() of a waiting task that migrates: its lag on @rq */
static void migrate_lag(const struct sched_fair *s, struct rq *rq,
			struct sched_task *p, sim_time_t now)
{
	if (!s->eevdf)
		return;
	update_curr(s, rq, now);
	update_entity_lag(s, rq, p);
}

/* Put @p on @cpu's runqueue; it runs if the CPU is idle. */
static bool enqueue_task(struct sched_fair *s, struct sched_task *p,
			 unsigned int cpu, sim_time_t now, bool initial)
{
	struct rq *rq = &s->rq[cpu];
	sim_time_t delta;

	if (s->eevdf) {
		update_curr(s, rq, now);
		place_entity(s, rq, p, initial);
	}
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
		if (s->eevdf)
			set_next_entity(rq, p, now);
		return true;
	}
	if (rq->tail)
		rq->tail->next = p;
	else
		rq->head = p;
	rq->tail = p;
	/*
	 * EEVDF: check_preempt_wakeup_fair() (also from attach_task()):
	 * unless curr is already to reschedule, preempt it when the woken
	 * task is the one pick_eevdf() would run. SIM: the preemption
	 * happens at curr's next scheduling point (sched_slice_expired()).
	 */
	if (s->eevdf && !rq->need_resched && pick_eevdf(rq, rq->curr) == p)
		rq->need_resched = true;
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
	p->vlag = 0;
	return enqueue_task(s, p, cpu, now, true);
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
	return enqueue_task(s, p, cpu, now, false);
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
			migrate_lag(s, &s->rq[pick->cpu], pick, now);
			unlink_waiting(&s->rq[pick->cpu], pick);
			s->rq[pick->cpu].nr_running--;
			pick->on_rq = false;
			pick->nr_migrations++;
			enqueue_task(s, pick, cpu, now, false);
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
	if (s->eevdf) {
		/* dequeue_entity(): update_curr(), update_entity_lag() */
		update_curr(s, rq, now);
		update_entity_lag(s, rq, p);
	}
	p->on_rq = false;
	p->exec_start = now; /* SIM: when it last ran, for task_hot() */
	rq->nr_running--;
	rq->curr = NULL;
	if (s->eevdf) {
		update_min_vruntime(rq);
		next = pick_eevdf(rq, NULL);
		if (next)
			unlink_waiting(rq, next);
	} else {
		next = dequeue_head(rq);
	}
	if (next) {
		rq->curr = next;
		next->exec_start = now;
		next->nr_switches++;
		if (s->eevdf)
			set_next_entity(rq, next, now);
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
	sim_time_t period;

	period = nr > SCHED_NR_LATENCY ? nr * SCHED_MIN_GRANULARITY_PS :
					 SCHED_LATENCY_PS;
	return period * sysctl_factor(s) / (nr ? nr : 1);
}

/*
 * EEVDF: the deadline passed or a wake-up preempts, and __schedule()'s
 * pick_eevdf() runs another task; when it picks @p again, @p goes on
 * (SIM: without renewing RUN_TO_PARITY's copy, as pick_next_task_fair()
 * keeps a prev it picks again with CONFIG_FAIR_GROUP_SCHED).
 */
bool sched_slice_expired(struct sched_fair *s, struct sched_task *p,
			 sim_time_t now)
{
	struct rq *rq = &s->rq[p->cpu];

	if (rq->curr != p || rq->nr_running < 2)
		return false;
	if (!s->eevdf)
		return now - p->exec_start >= sched_slice(s, rq->nr_running);
	update_curr(s, rq, now);
	if (!rq->need_resched)
		return false;
	if (pick_eevdf(rq, p) == p) {
		rq->need_resched = false;
		return false;
	}
	return true;
}

struct sched_task *sched_yield_to_next(struct sched_fair *s,
				       struct sched_task *p, sim_time_t now)
{
	struct rq *rq = &s->rq[p->cpu];
	struct sched_task *next;

	SIM_BUG_ON(rq->curr != p || !rq->head);
	if (s->eevdf) {
		/*
		 * put_prev_entity(), then the pick among the waiting (SIM:
		 * @p left out: the pick sched_slice_expired() made, which a
		 * balance in between may have changed).
		 */
		update_curr(s, rq, now);
		next = pick_eevdf(rq, NULL);
		unlink_waiting(rq, next);
		set_next_entity(rq, next, now);
	} else {
		next = dequeue_head(rq);
	}
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

/* sd_init(): imbalance_pct 110 for SMT (SD_SHARE_CPUCAPACITY), else 117 */
static unsigned int imbalance_pct(int level)
{
	return level == 0 ? 110 : 117;
}

/* The group types load_balance() tells apart here (enum group_type). */
enum group_type { group_has_spare, group_fully_busy, group_overloaded };

/* struct sg_lb_stats - one sched_group's counts (update_sg_lb_stats()). */
struct sg_lb_stats {
	unsigned int first, weight, nr_running, idle_cpus;
	enum group_type type;
};

/*
 * The sched_group of @cpu in a domain of level @child's parent: its
 * child domain's span, named by its first CPU.
 */
static unsigned int sg_first(const struct sched_fair *s, unsigned int cpu,
			     int child)
{
	unsigned int i;

	for (i = 0; i < s->nr_cpus; i++)
		if (sd_in_span(s, cpu, i, child))
			return i;
	return cpu;
}

/* The LLCs in @cpu's domain at @level: v6.0's imb_numa_nr above them. */
static unsigned int sd_nr_llcs(const struct sched_fair *s, unsigned int cpu,
			       int level)
{
	unsigned int i, n = 0;

	for (i = 0; i < s->nr_cpus; i++)
		if (sd_in_span(s, cpu, i, level) && sg_first(s, i, 1) == i)
			n++;
	return n ? n : 1;
}

static void update_sg_lb_stats(const struct sched_fair *s, unsigned int cpu,
			       int level, int child, struct sg_lb_stats *sgs)
{
	unsigned int i, busy;

	memset(sgs, 0, sizeof(*sgs));
	sgs->first = sg_first(s, cpu, child);
	for (i = 0; i < s->nr_cpus; i++) {
		if (!sd_in_span(s, cpu, i, level) ||
		    sg_first(s, i, child) != sgs->first)
			continue;
		sgs->weight++;
		sgs->nr_running += s->rq[i].nr_running;
		sgs->idle_cpus += available_idle_cpu(s, i);
	}
	/*
	 * group_classify() with group_is_overloaded() and
	 * group_has_capacity() at the domain's imbalance_pct. SIM: no PELT: a CPU
	 * running a task is fully utilized, an idle one not at all, so the
	 * group's utilization is its busy CPUs.
	 */
	busy = sgs->weight - sgs->idle_cpus;
	if (sgs->nr_running > sgs->weight &&
	    busy * imbalance_pct(level) > sgs->weight * 100)
		sgs->type = group_overloaded;
	else if (sgs->nr_running < sgs->weight ||
		 sgs->weight * 100 > busy * imbalance_pct(level))
		sgs->type = group_has_spare;
	else
		sgs->type = group_fully_busy;
}

/* a's load per CPU above b's (avg_load, equal capacities) */
static bool avg_load_above(const struct sg_lb_stats *a,
			   const struct sg_lb_stats *b)
{
	return (uint64_t)a->nr_running * b->weight >
	       (uint64_t)b->nr_running * a->weight;
}

/*
 * update_sd_pick_busiest(): @sgs is busier than @busiest: a higher group
 * type; at equal type, the higher load per CPU, or for groups with spare
 * capacity fewer idle CPUs, then more tasks. The first wins a tie.
 */
static bool update_sd_pick_busiest(const struct sg_lb_stats *sgs,
				   const struct sg_lb_stats *busiest)
{
	if (!sgs->nr_running)
		return false;
	if (!busiest->weight || sgs->type > busiest->type)
		return true;
	if (sgs->type < busiest->type)
		return false;
	if (sgs->type != group_has_spare)
		return avg_load_above(sgs, busiest);
	if (sgs->idle_cpus != busiest->idle_cpus)
		return sgs->idle_cpus < busiest->idle_cpus;
	return sgs->nr_running > busiest->nr_running;
}

enum cpu_idle_type { CPU_IDLE, CPU_NOT_IDLE };

/*
 * struct lb_env - one load_balance(): the imbalance to move is
 * @imbalance / @den tasks (migrate_load's share is a fraction; a task
 * moves while its load / 2 does not exceed it).
 */
struct lb_env {
	unsigned int dst_cpu;
	int level;
	enum cpu_idle_type idle;
	bool load;
	int64_t imbalance, den;
	bool all_pinned;
};

/*
 * find_busiest_group() with calculate_imbalance(): the busiest group of
 * @env's domain and the imbalance to pull from it, or false when the
 * domain is balanced.
 */
static bool find_busiest_group(const struct sched_fair *s, struct lb_env *env,
			       int child, struct sg_lb_stats *busiest)
{
	struct sg_lb_stats local, sgs;
	unsigned int i, total_nr = 0, total_w = 0;
	bool prefer_sibling = child >= 0; /* the child has SD_PREFER_SIBLING */
	int64_t a, b;

	memset(busiest, 0, sizeof(*busiest));
	update_sg_lb_stats(s, env->dst_cpu, env->level, child, &local);
	for (i = 0; i < s->nr_cpus; i++) {
		if (!sd_in_span(s, env->dst_cpu, i, env->level) ||
		    sg_first(s, i, child) != i)
			continue;
		update_sg_lb_stats(s, i, env->level, child, &sgs);
		total_nr += sgs.nr_running;
		total_w += sgs.weight;
		if (i != local.first && update_sd_pick_busiest(&sgs, busiest))
			*busiest = sgs;
	}
	if (!busiest->weight || !busiest->nr_running)
		return false;
	if (local.type > busiest->type)
		return false;
	if (local.type == group_overloaded) {
		/* local avg_load >= sds avg_load, or within imbalance_pct */
		if ((uint64_t)local.nr_running * total_w >=
		    (uint64_t)total_nr * local.weight)
			return false;
		if ((uint64_t)100 * busiest->nr_running * local.weight <=
		    (uint64_t)imbalance_pct(env->level) * local.nr_running *
			    busiest->weight)
			return false;
	}
	if (!(prefer_sibling && local.type == group_has_spare &&
	      busiest->nr_running > local.nr_running + 1) &&
	    busiest->type != group_overloaded) {
		if (env->idle == CPU_NOT_IDLE)
			return false;
		if (busiest->weight > 1 &&
		    local.idle_cpus <= busiest->idle_cpus + 1)
			return false;
		if (busiest->nr_running == 1)
			return false;
	}
	/* calculate_imbalance() */
	env->load = false;
	env->den = 1;
	if (local.type == group_has_spare) {
		if (busiest->type == group_overloaded) {
			/* migrate_util: fill the local spare capacity */
			env->imbalance = local.idle_cpus;
			if (env->idle != CPU_NOT_IDLE && !env->imbalance)
				env->imbalance = 1;
			return true;
		}
		if (busiest->weight == 1 || prefer_sibling)
			env->imbalance = busiest->nr_running >
							 local.nr_running ?
						 (busiest->nr_running -
						  local.nr_running) >>
							 1 :
						 0;
		else
			env->imbalance = local.idle_cpus > busiest->idle_cpus ?
						 (local.idle_cpus -
						  busiest->idle_cpus) >>
							 1 :
						 0;
		/*
		 * adjust_numa_imbalance() (v6.0): a NUMA domain tolerates
		 * up to NUMA_IMBALANCE_MIN (2) tasks while the local group
		 * runs no more than imb_numa_nr, its number of LLCs.
		 */
		if (sd_level_dist[env->level] == COH_DIST_SOCKET &&
		    local.nr_running + 1 <=
			    sd_nr_llcs(s, env->dst_cpu, env->level) &&
		    env->imbalance <= 2)
			env->imbalance = 0;
		return env->imbalance > 0;
	}
	if (busiest->type != group_overloaded)
		return false;
	/*
	 * migrate_load: min((busiest avg - domain avg) x busiest capacity,
	 * (domain avg - local avg) x local capacity), in tasks: over the
	 * domain's weight.
	 */
	a = (int64_t)busiest->nr_running * total_w -
	    (int64_t)total_nr * busiest->weight;
	b = (int64_t)total_nr * local.weight -
	    (int64_t)local.nr_running * total_w;
	env->load = true;
	env->den = total_w;
	env->imbalance = a < b ? a : b;
	return env->imbalance > 0;
}

/*
 * find_busiest_queue(): the runqueue of @sg with the most tasks (equal
 * weights and capacities: the most load, utilization or tasks alike);
 * under migrate_load one running task alone is skipped when it is more
 * than the imbalance.
 */
static int find_busiest_queue(const struct sched_fair *s,
			      const struct lb_env *env, int child,
			      const struct sg_lb_stats *sg)
{
	unsigned int i, best = 0;
	int busiest = -1;

	for (i = 0; i < s->nr_cpus; i++) {
		const struct rq *rq = &s->rq[i];

		if (!sd_in_span(s, env->dst_cpu, i, env->level) ||
		    sg_first(s, i, child) != sg->first)
			continue;
		if (env->load && rq->nr_running == 1 &&
		    env->den > env->imbalance)
			continue;
		if (rq->nr_running > best) {
			best = rq->nr_running;
			busiest = (int)i;
		}
	}
	return busiest;
}

/* task_hot(): it ran on its CPU less than sysctl_sched_migration_cost ago */
static bool task_hot(const struct sched_task *p, sim_time_t now)
{
	return now - p->exec_start < SCHED_MIGRATION_COST_PS;
}

/*
 * detach_tasks() and attach_tasks(): from the head of @src's waiting
 * tasks (the least recently run, cfs_tasks' tail), move those
 * can_migrate_task() allows to @env's CPU until the imbalance is met,
 * leaving @src one task when this CPU is idle. A cache-hot task moves
 * only after more failed balances than the domain's cache_nice_tries.
 * Return: how many moved; *@started the one that runs at once.
 */
static unsigned int detach_tasks(struct sched_fair *s, struct lb_env *env,
				 unsigned int src, sim_time_t now,
				 struct sched_task **started)
{
	struct rq *src_rq = &s->rq[src];
	struct sched_domain_state *sd = &s->rq[env->dst_cpu].sd[env->level];
	/* sd_init(): cache_nice_tries 0 for SMT, 2 for NUMA, else 1 */
	unsigned int nice_tries = env->level == 0 ? 0 :
				  sd_level_dist[env->level] == COH_DIST_SOCKET ?
						    2 :
						    1;
	struct sched_task *p = src_rq->head, *next;
	unsigned int detached = 0;

	env->all_pinned = true;
	for (; p && env->imbalance > 0; p = next) {
		next = p->next;
		if (env->idle != CPU_NOT_IDLE && src_rq->nr_running <= 1)
			break;
		if (!sched_task_allowed(p, env->dst_cpu))
			continue;
		env->all_pinned = false;
		if (task_hot(p, now) && sd->nr_balance_failed <= nice_tries)
			continue;
		if (env->load && 2 * env->imbalance < env->den &&
		    sd->nr_balance_failed <= nice_tries)
			continue;
		env->imbalance -= env->den;
		migrate_lag(s, src_rq, p, now);
		unlink_waiting(src_rq, p);
		src_rq->nr_running--;
		p->on_rq = false;
		p->nr_migrations++;
		/* migrate_task_rq_fair(): no longer cache-hot */
		if (enqueue_task(s, p, env->dst_cpu, now, false))
			*started = p;
		detached++;
	}
	return detached;
}

/*
 * should_we_balance(): of the local group, the first idle CPU
 * balances, or its first CPU when none is idle.
 */
static bool should_we_balance(const struct sched_fair *s, unsigned int cpu,
			      int level, int child)
{
	unsigned int i, first = sg_first(s, cpu, child);

	for (i = 0; i < s->nr_cpus; i++)
		if (sd_in_span(s, cpu, i, level) &&
		    sg_first(s, i, child) == first && available_idle_cpu(s, i))
			return i == cpu;
	return first == cpu;
}

/*
 * load_balance() - one balance of @cpu's domain at @level; sets
 * *@cont false when another CPU of the group balances instead.
 * Return: the tasks moved here.
 */
static unsigned int load_balance(struct sched_fair *s, unsigned int cpu,
				 int level, int child, enum cpu_idle_type idle,
				 sim_time_t now, bool *cont,
				 struct sched_task **started)
{
	struct sched_domain_state *sd = &s->rq[cpu].sd[level];
	unsigned int max_interval = 2 * sd_weight(s, cpu, level);
	struct lb_env env = { .dst_cpu = cpu, .level = level, .idle = idle };
	struct sg_lb_stats busiest;
	unsigned int moved = 0;
	int src;

	if (!should_we_balance(s, cpu, level, child)) {
		*cont = false;
		goto out_balanced;
	}
	if (!find_busiest_group(s, &env, child, &busiest))
		goto out_balanced;
	src = find_busiest_queue(s, &env, child, &busiest);
	if (src < 0)
		goto out_balanced;
	if (s->rq[src].nr_running > 1) {
		moved = detach_tasks(s, &env, (unsigned int)src, now, started);
		/* SIM: no redo without the all-pinned queue */
		if (env.all_pinned)
			goto out_all_pinned;
	}
	if (!moved) {
		sd->nr_balance_failed++;
		/* SIM: no active balance */
	} else {
		sd->nr_balance_failed = 0;
		sd->nr_pulled += moved;
	}
	/* unbalanced: reset the balancing interval */
	sd->balance_interval = sd_weight(s, cpu, level);
	return moved;

out_balanced:
out_all_pinned:
	sd->nr_balance_failed = 0;
	/* tune up the balancing interval */
	if ((env.all_pinned &&
	     sd->balance_interval < SCHED_MAX_PINNED_INTERVAL) ||
	    sd->balance_interval < max_interval)
		sd->balance_interval *= 2;
	return 0;
}

/*
 * get_sd_balance_interval(): in jiffies (ms at HZ=1000); a busy CPU
 * balances busy_factor times less often, less a jiffy.
 */
static uint64_t get_sd_balance_interval(const struct sched_domain_state *sd,
					bool busy)
{
	uint64_t interval = sd->balance_interval;

	if (busy)
		interval = interval * SCHED_BUSY_FACTOR - 1;
	return interval ? interval : 1;
}

/* rebalance_domains() of @cpu at @now, from the lowest level up. */
static void rebalance_domains(struct sched_fair *s, unsigned int cpu,
			      sim_time_t now, struct sched_task **started)
{
	int64_t jiffies = (int64_t)(now / SCHED_TICK_PS);
	enum cpu_idle_type idle = available_idle_cpu(s, cpu) ? CPU_IDLE :
							       CPU_NOT_IDLE;
	bool cont = true;
	int l, child;

	for (l = 0; l < SCHED_NR_LEVELS && cont; l++) {
		struct sched_domain_state *sd = &s->rq[cpu].sd[l];

		child = sd_child(s, cpu, l);
		if (child == -2)
			continue;
		if (jiffies <
		    sd->last_balance + (int64_t)get_sd_balance_interval(
					       sd, idle != CPU_IDLE))
			continue;
		if (load_balance(s, cpu, l, child, idle, now, &cont, started))
			idle = available_idle_cpu(s, cpu) ? CPU_IDLE :
							    CPU_NOT_IDLE;
		sd->last_balance = jiffies;
	}
}

unsigned int sched_balance_tick(struct sched_fair *s, sim_time_t now,
				struct sched_task **started, unsigned int max)
{
	unsigned int cpu, n = 0;

	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct sched_task *p = NULL;

		rebalance_domains(s, cpu, now, &p);
		if (p && n < max)
			started[n++] = p;
	}
	return n;
}
