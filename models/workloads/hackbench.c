// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/workloads/hackbench.c - the hackbench workload: groups of senders and
 * receivers passing small messages over af_unix stream sockets.
 *
 * Theory of operation: the workload's CPUs are cut into groups of 2 x
 * `fds`; in each group the first fds CPUs send and the others receive.
 * Every sender writes `message_bytes` to each receiver of its group in
 * turn; a receiver's socket holds at most `window` messages, beyond
 * which the sender waits. A message received is one operation. Each side
 * spends `work_ns` per message outside the memory controller.
 *
 * Memory accounting per message (doc/socket-accounting.md section 2.4):
 * unix_stream_sendmsg() of a small message allocates an sk_buff
 * (skbuff_head_cache, 256 bytes) and a kmalloc head
 * (SKB_DATA_ALIGN(size) + 320 bytes of shared info, rounded up to the
 * kmalloc size) and no page fragments; the receiver frees both in
 * unix_stream_read_generic() -> consume_skb().
 *   kmem_accounting: objects (v5.9 on) charges their bytes on the sender
 *     through the obj_cgroup stock (obj_cgroup_charge()) and uncharges
 *     them on the receiver (obj_cgroup_uncharge());
 *   pages (v4.8) allocates them from per-memcg slab caches, which charge
 *     whole slab pages only when a slab grows or is discarded: SIM: that
 *     rate is set by SLUB, not by af_unix, and is not modelled (no
 *     per-message charge);
 *   off charges nothing.
 * SIM: one task per CPU (real hackbench runs 40 tasks per group on
 * however many CPUs there are).
 *
 * Scheduling (`sched`): pinned, each task stays on its CPU; fair, every
 * task may run on any CPU of 'cpus' and models/kernel/kernel/sched/fair.c
 * places it: a message's sk_data_ready() and a receiver's
 * sk_write_space() wake with WF_SYNC (sched_wake_up()), a task with
 * nothing to do blocks in __schedule() (sched_sleep()), the slice and
 * the periodic load balance as for netperf. SIM: wake_wide() stays false
 * (see sched_fair.h), though a hackbench sender wakes fds receivers in
 * turn.
 */
#include <stdio.h>
#include <stdlib.h>

#include "models/kernel/drivers/cpuidle/menu.h"
#include "models/kernel/mm/memcontrol.h"
#include "models/kernel/kernel/sched/fair.h"
#include "models/workloads/workload.h"
#include "sim/co.h"
#include "sim/error.h"
#include "sim/trace.h"
#include "sim/util.h"

#define SKBUFF_HEAD_SIZE 256 /* skbuff_head_cache object */
#define SKB_SHINFO_SIZE 320 /* SKB_DATA_ALIGN(struct skb_shared_info) */

struct hb_receiver {
	struct sim_task *t;
	unsigned int queued;
	bool waiting;
};

struct hb_sender {
	struct sim_task *t;
	unsigned int next; /* receiver of the group, in turn */
	int blocked_on; /* receiver index, or -1 */
};

struct hackbench {
	uint64_t fds, message_bytes, window;
	sim_time_t work_ps;
	unsigned int objsize; /* bytes charged per message */
	unsigned int nr_groups;
	struct hb_sender *senders; /* [nr_groups * fds] */
	struct hb_receiver *receivers; /* [nr_groups * fds] */
	struct run *run;
	struct mem_cgroup *memcg;
	unsigned int sched; /* HB_SCHED_PINNED or HB_SCHED_FAIR */
	struct sched_fair *sf; /* sched: fair */
	struct sched_task *se; /* [nr_tasks] */
	unsigned int *ran_cpu; /* [nr_tasks]: where it last ran */
	/*
	 * With the profile's idle_states (and cpuidle not poll): each CPU's
	 * cpuidle device, [machine CPUs], and each task's wake-up cost not
	 * yet paid, [nr_tasks] (menu.h); NULL: wake-ups are free.
	 */
	struct cpuidle_device *idle;
	sim_time_t *wake_pending;
};

enum { HB_SCHED_PINNED, HB_SCHED_FAIR };
static const char *const hb_sched_names[] = { "pinned", "fair" };

/* hackbench's default: 20 fds per group, fewer when the CPUs are few. */
static uint64_t fds_default(const void *base, const void *ctx)
{
	const struct workload *w = ctx;

	(void)base;
	return w->nr_tasks >= 40 ? 20 : w->nr_tasks / 2;
}

static const struct scenario_key hackbench_keys[] = {
	{
		.name = "fds",
		.type = SCENARIO_KEY_U64,
		SCENARIO_KEY_MEMBER(struct hackbench, fds),
		.min = 1,
		.max = MACHINE_MAX_CPUS / 2,
		.def_fn = fds_default,
		.def_doc = "20, or half the CPUs when fewer than 40",
		.doc = "Senders (and receivers) per group; 'cpus' must be a multiple of 2 x fds",
	},
	{
		.name = "message_bytes",
		.type = SCENARIO_KEY_SIZE,
		SCENARIO_KEY_MEMBER(struct hackbench, message_bytes),
		.max = 3776,
		.def = 100,
		.doc = "The bytes of each message (hackbench's default 100); charged as one skb",
	},
	{
		.name = "work_ns",
		.type = SCENARIO_KEY_TIME,
		.required = true,
		SCENARIO_KEY_MEMBER(struct hackbench, work_ps),
		.unit_ps = SIM_PS_PER_NS,
		.min = SIM_PS_PER_NS,
		.max = SIM_PS_PER_MS,
		.doc = "The work of each send and receive outside the memcg code",
	},
	{
		.name = "window",
		.type = SCENARIO_KEY_U64,
		SCENARIO_KEY_MEMBER(struct hackbench, window),
		.min = 1,
		.max = 4096,
		.def = 16,
		.doc = "Messages a receiver may have queued before its sender blocks",
	},
	{
		.name = "sched",
		.type = SCENARIO_KEY_ENUM,
		SCENARIO_KEY_MEMBER(struct hackbench, sched),
		SCENARIO_KEY_NAMES(hb_sched_names),
		.def = HB_SCHED_PINNED,
		.doc = "pinned (each task stays on its CPU) or fair (tasks wake where the fair class's select_task_rq_fair() puts them, on any CPU of 'cpus', share a CPU in turn and are balanced; costs: the profile's context_switch and migration)",
	},
};

static unsigned int kmalloc_size(unsigned int n)
{
	unsigned int s = 8;

	while (s < n)
		s *= 2;
	return s;
}

static int hackbench_parse(struct workload *w, const struct scenario_node *n,
			   const struct machine *m, struct sim_error *err)
{
	struct hackbench *hb = calloc(1, sizeof(*hb));

	(void)m;
	SIM_OOM_ON(!hb);
	w->priv = hb;
	if (scenario_keys_load(n, hackbench_keys, ARRAY_SIZE(hackbench_keys),
			       hb, w, err))
		return -1;
	if (!hb->fds || w->nr_tasks % (2 * hb->fds)) {
		scenario_error(
			err, scenario_get(n, "cpus"),
			"hackbench needs groups of 2 x fds = %llu CPUs; 'cpus' lists %u",
			(unsigned long long)(2 * hb->fds), w->nr_tasks);
		return -1;
	}
	hb->nr_groups = w->nr_tasks / (unsigned int)(2 * hb->fds);
	hb->objsize =
		SKBUFF_HEAD_SIZE +
		kmalloc_size(((unsigned int)hb->message_bytes + 63) / 64 * 64 +
			     SKB_SHINFO_SIZE);
	return 0;
}

/*
 * sched: fair. A task runs only while it is its runqueue's curr, from
 * that CPU's memory-system view; a migration costs the profile's
 * `migration` (its cold private working set) on its first run there.
 */
static struct sched_task *hb_se(struct hackbench *hb, struct sim_task *t)
{
	return &hb->se[t->index];
}

static void hb_run(struct hackbench *hb, struct sched_task *se, sim_time_t at)
{
	struct sim_task *t = se->data;
	bool migrated = hb->ran_cpu[t->index] != se->cpu;
	struct sim_trace *tr;
	char name[64];

	if (migrated) {
		at += hb->run->machine.migration_ps;
		hb->ran_cpu[t->index] = se->cpu;
	}
	if (hb->idle)
		hb->wake_pending[t->index] +=
			cpuidle_wake(&hb->idle[se->cpu], &hb->run->machine, at);
	t->k.cc = coh_cpu_attach(hb->run->coh, se->cpu, &t->proc);
	t->k.cc->prof = &t->prof;
	coh_cpu_set_idle(t->k.cc, false);
	tr = coh_trace(t->k.cc->coh);
	if (migrated && tr) {
		/* the trace: the cold cache, on the new CPU's kernel work */
		snprintf(name, sizeof(name), "cpu%u kernel work", se->cpu);
		sim_trace_async(tr, coh_trace_pid_cpus(t->k.cc->coh),
				(int)se->cpu, name, "kernel", "migration",
				at - hb->run->machine.migration_ps, at, NULL);
	}
	sim_proc_wake(&t->proc, at);
}

/* try_to_wake_up() of @wakee by @waker, WF_SYNC (a socket wake-up). */
static void hb_wake(struct hackbench *hb, struct sim_task *wakee,
		    struct sim_task *waker, sim_time_t now)
{
	bool migrated;

	if (!hb->sf) {
		sim_proc_wake(&wakee->proc, now);
		return;
	}
	if (sched_wake_up(hb->sf, hb_se(hb, wakee), hb_se(hb, waker)->cpu, true,
			  now, &migrated))
		hb_run(hb, hb_se(hb, wakee), now);
}

/*
 * CPU @cpu goes to @next after a task-to-task switch, or idles:
 * cpuidle_idle_call() picks its state (do_idle()).
 */
static void hb_switch(struct hackbench *hb, unsigned int cpu,
		      struct sched_task *next, sim_time_t now)
{
	if (next)
		hb_run(hb, next, now + hb->run->machine.context_switch_ps);
	else if (hb->idle)
		cpuidle_idle_call(&hb->idle[cpu], &hb->run->machine, now);
}

/*
 * @t, woken, pays its CPU's wake-up from an idle state (menu.h) as
 * [wake] before it runs on: pinned, its own CPU idled while it waited
 * (hb_idle()); fair, hb_run() noted the cost of the CPU it runs on.
 */
static void hb_woken(struct hackbench *hb, struct sim_task *t)
{
	sim_time_t cost;

	if (!hb->idle)
		return;
	if (!hb->sf)
		hb->wake_pending[t->index] +=
			cpuidle_wake(&hb->idle[t->k.cc->cpu], &hb->run->machine,
				     t->proc.now);
	cost = hb->wake_pending[t->index];
	hb->wake_pending[t->index] = 0;
	task_pay_wake(t, cost);
}

/* pinned: @t's CPU idles while it waits (its own, no other task). */
static void hb_idle(struct hackbench *hb, struct sim_task *t)
{
	if (hb->idle)
		cpuidle_idle_call(&hb->idle[t->k.cc->cpu], &hb->run->machine,
				  t->proc.now);
}

/* For CO_AWAIT(): true until @t is woken (!@asleep) and on its CPU. */
static bool hb_wait(struct hackbench *hb, struct sim_task *t, bool asleep)
{
	struct sched_task *se = hb_se(hb, t);

	return asleep || hb->sf->rq[se->cpu].curr != se;
}

/* The tick on every CPU (HZ=1000): the periodic load balance. */
static void hb_tick(void *arg, uint64_t data)
{
	struct hackbench *hb = arg;
	sim_time_t now = sim_now(hb->run->engine);
	unsigned int i, n, max = hb->run->machine.nr_cpus;
	struct sched_task **started = calloc(max, sizeof(*started));

	(void)data;
	SIM_OOM_ON(!started);
	n = sched_balance_tick(hb->sf, now, started, max);
	for (i = 0; i < n; i++)
		hb_run(hb, started[i], now);
	free(started);
	if (now + SCHED_TICK_PS < hb->run->end_ps)
		sim_schedule(hb->run->engine, now + SCHED_TICK_PS, hb_tick, hb,
			     0);
}

struct hb_preempt_frame {
	struct co_frame co;
	struct sim_task *t;
};

/*
 * sched: fair, at the top of a loop: give the CPU up when the slice has
 * ended with others waiting (the tick's preemption). A switch is a full
 * barrier: the task's posted stores complete first.
 */
static int hb_preempt(struct sim_proc *p, void *frame)
{
	struct hb_preempt_frame *f = frame;
	struct sim_task *t = f->t;
	struct hackbench *hb = t->w->priv;

	CO_BEGIN(f);
	if (sched_slice_expired(hb->sf, hb_se(hb, t), t->proc.now)) {
		CO_AWAIT(f, coh_fence(t->k.cc));
		CO_AWAIT(f, sim_proc_sync(p));
		hb_switch(hb, t->k.cc->cpu,
			  sched_yield_to_next(hb->sf, hb_se(hb, t),
					      t->proc.now),
			  t->proc.now);
		CO_AWAIT(f, hb_wait(hb, t, false));
	}
	CO_END(f, p);
}

struct hb_frame {
	struct co_frame co;
	struct sim_task *t;
	unsigned int index; /* sender or receiver number */
	struct hb_receiver *r;
};

static bool sender_blocked(struct hb_sender *s, struct hb_receiver *r, int ri,
			   uint64_t window)
{
	s->blocked_on = r->queued >= window ? ri : -1;
	return s->blocked_on >= 0;
}

static bool receiver_idle(struct hb_receiver *r)
{
	r->waiting = !r->queued;
	return r->waiting;
}

static int hb_sender_loop(struct sim_proc *p, void *frame)
{
	struct hb_frame *f = frame;
	struct sim_task *t = f->t;
	struct hackbench *hb = t->w->priv;
	struct hb_sender *s = &hb->senders[f->index];
	unsigned int group = f->index / (unsigned int)hb->fds, ri;

	CO_BEGIN(f);
	while (task_running(t, hb->run)) {
		ri = group * (unsigned int)hb->fds + s->next;
		f->r = &hb->receivers[ri];
		CO_AWAIT(f, sim_proc_sync(p));
		if (hb->sf)
			CO_CALL(f, p, hb_preempt, .t = t);
		if (f->r->queued >= hb->window && hb->sf) {
			/* block: the CPU goes to the next task */
			task_idle_begin(t);
			CO_AWAIT(f, coh_fence(t->k.cc));
			CO_AWAIT(f, sim_proc_sync(p));
			if (sender_blocked(s, f->r, (int)(f->r - hb->receivers),
					   hb->window)) {
				hb_switch(hb, t->k.cc->cpu,
					  sched_sleep(hb->sf, hb_se(hb, t),
						      t->proc.now),
					  t->proc.now);
				CO_AWAIT(f, hb_wait(hb, t, s->blocked_on >= 0));
				hb_woken(hb, t);
			}
			task_idle_end(t);
			continue;
		}
		if (f->r->queued >= hb->window) {
			task_idle_begin(t);
			hb_idle(hb, t);
			CO_AWAIT(f, sender_blocked(s, f->r,
						   (int)(f->r - hb->receivers),
						   hb->window));
			hb_woken(hb, t);
			task_idle_end(t);
		}
		KPROF_ENTER(&t->prof, KF_WORK_SEND, t->proc.now);
		coh_delay(t->k.cc, hb->work_ps / 2);
		if (hb->run->kernel->kmem_accounting == KMEM_OBJECTS) {
			/* __alloc_skb(): the sk_buff, then the kmalloc head */
			CO_CALL(f, p, obj_cgroup_charge,
				.objcg = &hb->memcg->objcg,
				.size = SKBUFF_HEAD_SIZE);
			CO_CALL(f, p, obj_cgroup_charge,
				.objcg = &hb->memcg->objcg,
				.size = hb->objsize - SKBUFF_HEAD_SIZE);
		}
		coh_delay(t->k.cc, hb->work_ps - hb->work_ps / 2);
		KPROF_EXIT(&t->prof, t->proc.now);
		CO_AWAIT(f, sim_proc_sync(p));
		f->r->queued++;
		if (f->r->waiting) {
			f->r->waiting = false;
			hb_wake(hb, f->r->t, t, t->proc.now);
		}
		s->next = (s->next + 1) % (unsigned int)hb->fds;
	}
	CO_END(f, p);
}

static int hb_receiver_loop(struct sim_proc *p, void *frame)
{
	struct hb_frame *f = frame;
	struct sim_task *t = f->t;
	struct hackbench *hb = t->w->priv;
	struct hb_receiver *r = &hb->receivers[f->index];
	unsigned int group = f->index / (unsigned int)hb->fds, i;

	CO_BEGIN(f);
	while (task_running(t, hb->run)) {
		CO_AWAIT(f, sim_proc_sync(p));
		if (hb->sf)
			CO_CALL(f, p, hb_preempt, .t = t);
		if (!r->queued && hb->sf) {
			task_idle_begin(t);
			CO_AWAIT(f, coh_fence(t->k.cc));
			CO_AWAIT(f, sim_proc_sync(p));
			if (receiver_idle(r)) {
				hb_switch(hb, t->k.cc->cpu,
					  sched_sleep(hb->sf, hb_se(hb, t),
						      t->proc.now),
					  t->proc.now);
				CO_AWAIT(f, hb_wait(hb, t, r->waiting));
				hb_woken(hb, t);
			}
			task_idle_end(t);
			continue;
		}
		if (!r->queued) {
			task_idle_begin(t);
			hb_idle(hb, t);
			CO_AWAIT(f, receiver_idle(r));
			hb_woken(hb, t);
			task_idle_end(t);
		}
		task_op_begin(t);
		KPROF_ENTER(&t->prof, KF_WORK_RECV, t->proc.now);
		coh_delay(t->k.cc, hb->work_ps / 2);
		if (hb->run->kernel->kmem_accounting == KMEM_OBJECTS) {
			/* consume_skb(): the head, then the sk_buff */
			CO_CALL(f, p, obj_cgroup_uncharge,
				.objcg = &hb->memcg->objcg,
				.size = hb->objsize - SKBUFF_HEAD_SIZE);
			CO_CALL(f, p, obj_cgroup_uncharge,
				.objcg = &hb->memcg->objcg,
				.size = SKBUFF_HEAD_SIZE);
		}
		coh_delay(t->k.cc, hb->work_ps - hb->work_ps / 2);
		KPROF_EXIT(&t->prof, t->proc.now);
		CO_AWAIT(f, sim_proc_sync(p));
		r->queued--;
		/* wake the senders of the group waiting for this socket */
		for (i = 0; i < hb->fds; i++) {
			struct hb_sender *s = &hb->senders[group * hb->fds + i];

			if (s->blocked_on == (int)f->index) {
				s->blocked_on = -1;
				hb_wake(hb, s->t, t, t->proc.now);
			}
		}
		task_op_end(t, hb->run);
	}
	CO_END(f, p);
}

/*
 * sched: fair: every task may run on any CPU of the list and starts on
 * its own; a task that moves gets a trace track of its own.
 */
static void hb_sched_setup(struct hackbench *hb, struct workload *w)
{
	unsigned int i, j;

	hb->sf = sched_fair_create(&hb->run->machine,
				   hb->run->kernel->sched_class);
	hb->se = calloc(w->nr_tasks, sizeof(*hb->se));
	hb->ran_cpu = calloc(w->nr_tasks, sizeof(*hb->ran_cpu));
	SIM_OOM_ON(!hb->se || !hb->ran_cpu);
	for (i = 0; i < w->nr_tasks; i++) {
		struct sim_task *t = &w->tasks[i];
		struct sim_trace *tr = coh_trace(t->k.cc->coh);
		unsigned int in_group = i % (2 * (unsigned int)hb->fds);
		char name[48];

		hb->se[i].data = t;
		hb->ran_cpu[i] = t->k.cc->cpu;
		t->proc.trace_tid = hb->run->machine.nr_cpus + i;
		if (tr) {
			/* the trace: "task sender 3" (the sender number) */
			snprintf(name, sizeof(name), "task %s %u",
				 in_group < hb->fds ? "sender" : "receiver",
				 i / (2 * (unsigned int)hb->fds) *
						 (unsigned int)hb->fds +
					 in_group % (unsigned int)hb->fds);
			sim_trace_thread(tr, coh_trace_pid_cpus(t->k.cc->coh),
					 (int)t->proc.trace_tid, name,
					 (int)t->proc.trace_tid);
		}
		for (j = 0; j < w->nr_tasks; j++)
			sched_task_allow(&hb->se[i], w->cpus[j]);
		sched_task_start(hb->sf, &hb->se[i], t->k.cc->cpu, 0);
	}
	sim_schedule(hb->run->engine, SCHED_TICK_PS, hb_tick, hb, 0);
}

static void hackbench_setup(struct workload *w, struct run *run)
{
	struct hackbench *hb = w->priv;
	unsigned int g, i, nr = hb->nr_groups * (unsigned int)hb->fds;

	hb->run = run;
	hb->memcg = memcg_sim_find(run->memcg, w->cgroup);
	hb->senders = calloc(nr, sizeof(*hb->senders));
	hb->receivers = calloc(nr, sizeof(*hb->receivers));
	SIM_BUG_ON(!hb->memcg);
	SIM_OOM_ON(!hb->senders || !hb->receivers);
	for (g = 0; g < hb->nr_groups; g++) {
		for (i = 0; i < hb->fds; i++) {
			unsigned int k = g * (unsigned int)hb->fds + i;
			unsigned int base = g * 2 * (unsigned int)hb->fds;
			struct hb_frame *f;

			hb->senders[k].t = &w->tasks[base + i];
			hb->senders[k].blocked_on = -1;
			hb->receivers[k].t = &w->tasks[base + hb->fds + i];
			f = co_push(&hb->senders[k].t->proc, hb_sender_loop,
				    sizeof(*f));
			f->t = hb->senders[k].t;
			f->index = k;
			f = co_push(&hb->receivers[k].t->proc, hb_receiver_loop,
				    sizeof(*f));
			f->t = hb->receivers[k].t;
			f->index = k;
		}
	}
	if (run->machine.nr_idle_states &&
	    run->kernel->cpuidle != CPUIDLE_POLL) {
		hb->idle = cpuidle_devices_create(run->machine.nr_cpus,
						  run->kernel->cpuidle ==
							  CPUIDLE_TEO);
		hb->wake_pending =
			calloc(w->nr_tasks, sizeof(*hb->wake_pending));
		SIM_OOM_ON(!hb->wake_pending);
	}
	if (hb->sched == HB_SCHED_FAIR)
		hb_sched_setup(hb, w);
}

static void hackbench_destroy(struct workload *w)
{
	struct hackbench *hb = w->priv;

	if (!hb)
		return;
	free(hb->senders);
	free(hb->receivers);
	sched_fair_free(hb->sf);
	free(hb->se);
	free(hb->ran_cpu);
	free(hb->idle);
	free(hb->wake_pending);
	free(hb);
	w->priv = NULL;
}

/*
 * host-run's program: per group, a socketpair per receiver; each sender,
 * pinned where its task is, writes message_bytes to each receiver of its
 * group in turn, each receiver reads its own (a message read is one
 * operation), as hackbench's socket mode does. SIM: the host's socket
 * buffer bounds what is in flight, not `window`; sched: fair has no host
 * program (the tasks would not be pinned).
 */
static int hackbench_host(const struct workload *w, struct workload_host *h)
{
	const struct hackbench *hb = w->priv;

	if (hb->sched != HB_SCHED_PINNED) {
		snprintf(
			h->why, sizeof(h->why),
			"hackbench sched: fair: no host program (host-run pins every task)");
		return -1;
	}
	h->kind = WH_HACKBENCH;
	h->bytes = hb->message_bytes;
	h->fds = hb->fds;
	return 0;
}

const struct workload_type hackbench_type = {
	.name = "hackbench",
	.summary =
		"af_unix groups passing small messages; slab objects charged on send, freed on receive",
	.keys = hackbench_keys,
	.nr_keys = ARRAY_SIZE(hackbench_keys),
	.unit = "msgs/s",
	.memcg = true,
	.parse = hackbench_parse,
	.setup = hackbench_setup,
	.destroy = hackbench_destroy,
	.host = hackbench_host,
};
