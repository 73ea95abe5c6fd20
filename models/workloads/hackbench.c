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
 */
#include <stdlib.h>

#include "models/kernel/memcontrol.h"
#include "models/workloads/workload.h"
#include "sim/co.h"
#include "sim/error.h"
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
};

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
		if (f->r->queued >= hb->window) {
			KPROF_ENTER(&t->prof, KF_IDLE, t->proc.now);
			CO_AWAIT(f, sender_blocked(s, f->r,
						   (int)(f->r - hb->receivers),
						   hb->window));
			KPROF_EXIT(&t->prof, t->proc.now);
		}
		KPROF_ENTER(&t->prof, KF_WORK_SEND, t->proc.now);
		coh_delay(t->cc, hb->work_ps / 2);
		if (hb->run->kernel->kmem_accounting == KMEM_OBJECTS) {
			/* __alloc_skb(): the sk_buff, then the kmalloc head */
			CO_CALL(f, p, obj_cgroup_charge, .ms = hb->run->memcg,
				.cc = t->cc, .objcg = &hb->memcg->objcg,
				.size = SKBUFF_HEAD_SIZE);
			CO_CALL(f, p, obj_cgroup_charge, .ms = hb->run->memcg,
				.cc = t->cc, .objcg = &hb->memcg->objcg,
				.size = hb->objsize - SKBUFF_HEAD_SIZE);
		}
		coh_delay(t->cc, hb->work_ps - hb->work_ps / 2);
		KPROF_EXIT(&t->prof, t->proc.now);
		CO_AWAIT(f, sim_proc_sync(p));
		f->r->queued++;
		if (f->r->waiting) {
			f->r->waiting = false;
			sim_proc_wake(&f->r->t->proc, t->proc.now);
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
		if (!r->queued) {
			KPROF_ENTER(&t->prof, KF_IDLE, t->proc.now);
			CO_AWAIT(f, receiver_idle(r));
			KPROF_EXIT(&t->prof, t->proc.now);
		}
		task_op_begin(t);
		KPROF_ENTER(&t->prof, KF_WORK_RECV, t->proc.now);
		coh_delay(t->cc, hb->work_ps / 2);
		if (hb->run->kernel->kmem_accounting == KMEM_OBJECTS) {
			/* consume_skb(): the head, then the sk_buff */
			CO_CALL(f, p, obj_cgroup_uncharge, .ms = hb->run->memcg,
				.cc = t->cc, .objcg = &hb->memcg->objcg,
				.size = hb->objsize - SKBUFF_HEAD_SIZE);
			CO_CALL(f, p, obj_cgroup_uncharge, .ms = hb->run->memcg,
				.cc = t->cc, .objcg = &hb->memcg->objcg,
				.size = SKBUFF_HEAD_SIZE);
		}
		coh_delay(t->cc, hb->work_ps - hb->work_ps / 2);
		KPROF_EXIT(&t->prof, t->proc.now);
		CO_AWAIT(f, sim_proc_sync(p));
		r->queued--;
		/* wake the senders of the group waiting for this socket */
		for (i = 0; i < hb->fds; i++) {
			struct hb_sender *s = &hb->senders[group * hb->fds + i];

			if (s->blocked_on == (int)f->index) {
				s->blocked_on = -1;
				sim_proc_wake(&s->t->proc, t->proc.now);
			}
		}
		task_op_end(t, hb->run);
	}
	CO_END(f, p);
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
}

static void hackbench_destroy(struct workload *w)
{
	struct hackbench *hb = w->priv;

	if (!hb)
		return;
	free(hb->senders);
	free(hb->receivers);
	free(hb);
	w->priv = NULL;
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
};
