// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/workloads/netperf.c - the netperf workload: loopback stream pairs.
 *
 * Theory of operation
 *
 * `instances` netperf/netserver pairs, each a sender task and a receiver
 * task on two CPUs of the workload's list (placement: random, a seeded
 * shuffle, as the scheduler leaves them; or adjacent, pair i on the i-th
 * two CPUs of the list). The sender sends messages of `message_bytes`;
 * at most `window` messages are queued at the receiver, beyond which the
 * sender waits (the socket buffers are full); the receiver waits for
 * data (SIM: `window` stands for the socket buffers; it only decouples
 * the two sides, and charge-batch-2022 gives the same results with 16 or
 * 64 and differs by half a point with 4). A message received is one
 * operation; throughput is reported in
 * netperf's unit, 10^6 bits/s per instance.
 *
 * Each side spends `work_ns` per message outside the memory controller
 * (the network stack, the copy, the wake-ups: calibrated on the root
 * memcg, where no memcg code runs), half before and half after its
 * memory-accounting steps. The accounting steps follow the kernel; see
 * doc/socket-accounting.md for the derivation.
 *
 * protocol: tcp (TCP_SENDFILE/TCP_STREAM over loopback, 6.0-rc1)
 *   sender CPU, in tcp_sendpage()/do_tcp_sendpages():
 *     tcp_stream_alloc_skb(): sk_wmem_schedule(skb head truesize),
 *       tcp_skb_entail() -> sk_mem_charge()             (sender's socket)
 *     sk_wmem_schedule(copy), sk_mem_charge(copy)       (sender's socket)
 *   sender CPU, loopback transmit -> netif_rx() -> NET_RX softirq ->
 *     tcp_v6_rcv() -> tcp_data_queue() -> tcp_try_rmem_schedule():
 *     sk_rmem_schedule(skb->truesize), skb_set_owner_r() (receiver's
 *     socket: the receiver's memcg is charged on the sender's CPU, in
 *     softirq, GFP_NOWAIT)
 *   receiver CPU, tcp_recvmsg(): after the copy, tcp_eat_recv_skb() ->
 *     sock_rfree() -> sk_mem_uncharge(truesize)         (receiver's socket)
 *   receiver CPU, tcp_cleanup_rbuf() -> tcp_send_ack(): the ACK is
 *     processed in the receiver's softirq: tcp_ack() ->
 *     tcp_clean_rtx_queue() frees the acked skb -> sk_mem_uncharge()
 *                                                       (sender's socket)
 *   The two sides' accounting on the receiver's socket is serialised by
 *   its spinlock (bh_lock_sock() / lock_sock()'s slock).
 *   `backlog` (default false, the placement above): when true, a socket
 *   owned by its task (lock_sock()) gets the other CPU's softirq work on
 *   its backlog, and the owner does it at release_sock(): the receiver
 *   charges backlogged skbs on its own CPU, the sender processes
 *   backlogged ACKs (uncharging its socket) on its own. How often that
 *   happens depends on how long each side holds its socket, which the
 *   model does not know (SIM: half of work_ns plus the accounting), so it
 *   is off by default; the results are sensitive to it (a CPU that both
 *   charges and uncharges drains and refills its stock about every
 *   message, whatever charge_batch is).
 *   With sk_reclaim: page (6.0-rc1) every sk_mem_uncharge() returns the
 *   whole pages at once, so the pages of every message are charged on
 *   the sender's CPU and uncharged on the receiver's.
 *
 * protocol: unix (af_unix SOCK_STREAM, v4.8): unix_stream_sendmsg()
 *   allocates an skb whose head (kmalloc) and page fragments hold the
 *   message (sock_alloc_send_pskb() -> alloc_skb_with_frags()); with
 *   kmem_accounting: pages ("af_unix: charge buffers to kmemcg") the
 *   fragment pages are charged on the sender's CPU
 *   (memcg_kmem_charge_page) and uncharged, straight to the page
 *   counters, when the receiver frees the skb in unix_stream_recvmsg().
 *   With kmem_accounting: objects the whole truesize goes through the
 *   obj_cgroup stock instead. With off, nothing is charged.
 *
 * Sockets belong to the memcg of the task that created or accepted them
 * (mem_cgroup_sk_alloc(), from socket() and inet_csk_accept()): the
 * sender's socket to netperf's cgroup (the workload's, or with
 * client_cgroups one per instance), the receiver's to netserver's
 * (server_cgroup). With the two apart, the sender's CPU charges two
 * memcgs in turn (its own socket, then in the softirq the receiver's)
 * and the receiver's CPU uncharges both: a one-slot stock switches and
 * drains on about every message (explain's per-CPU stock table).
 *
 * SIM: one skb per message (no coalescing of sends into one skb, no
 * GRO); the socket structures' own lines are not modelled (they move
 * between the pair's CPUs in every variant, the root's too, and are part
 * of work_ns).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "models/kernel/insn.h"
#include "models/kernel/memcontrol.h"
#include "models/kernel/sched_fair.h"
#include "models/kernel/sctp.h"
#include "models/kernel/sock.h"
#include "models/workloads/workload.h"
#include "sim/co.h"
#include "sim/error.h"
#include "sim/trace.h"
#include "sim/util.h"

/*
 * The truesize of the skb head tcp_stream_alloc_skb() allocates for
 * sendpage (x86_64, 6.0): alloc_skb_fclone(MAX_TCP_HEADER = 320) rounds
 * the head to kmalloc-1024, skb_end_offset() = 1024 - 320 (shared info)
 * = 704, and SKB_TRUESIZE() adds the sk_buff (256 aligned) and the
 * skb_shared_info (320): 704 + 256 + 320.
 */
#define TCP_SKB_HEAD_TRUESIZE 1280
/* af_unix: SKB_TRUESIZE of the head for a stream skb of page frags */
#define UNIX_SKB_HEAD_TRUESIZE 1280
/* SKB_MAX_ALLOC: unix_stream_sendmsg() puts more than this in frags */
#define UNIX_HEAD_MAX 3776 /* SKB_MAX_HEAD(0) at 4K pages */

/*
 * af_unix (v4.8 unix_stream_sendmsg()): a send is cut into skbs of at
 * most min(sndbuf / 2 - 64, SKB_MAX_HEAD(0) + UNIX_SKB_FRAGS_SZ) bytes;
 * an skb's data_len is the page-aligned part above SKB_MAX_HEAD(0), and
 * alloc_skb_with_frags() takes it in the largest orders that fit, from
 * order 3 (PAGE_ALLOC_COSTLY_ORDER) down. UNIX_SNDBUF is the default
 * sk_sndbuf (net.core.wmem_default, 212992 on x86_64).
 */
#define UNIX_SNDBUF 212992
#define UNIX_SKB_FRAGS_SZ (PAGE_SIZE << 3)
#define UNIX_MAX_ORDER 3

enum { PROTO_TCP, PROTO_UNIX, PROTO_SCTP };
enum { PLACE_RANDOM, PLACE_ADJACENT };
enum { SCHED_PINNED, SCHED_FAIR };

static const char *const proto_names[] = { "tcp", "unix", "sctp" };
static const char *const place_names[] = { "random", "adjacent" };
static const char *const report_names[] = { "per_instance", "total" };
static const char *const sched_names[] = { "pinned", "fair" };

struct netperf_pair {
	struct sim_task *snd, *rcv;
	struct sock sk_s, sk_r; /* netperf's and netserver's */
	struct mem_cgroup *memcg; /* netperf's: its socket, af_unix pages */
	struct mem_cgroup *s_memcg; /* netserver's: the accepted socket */
	unsigned int queued; /* messages at the receiver */
	unsigned int head; /* ring of their truesizes */
	int *truesize; /* [window] */
	bool snd_waiting, rcv_waiting;
	bool snd_owned; /* the sender holds lock_sock() */
	bool rcv_owned; /* the receiver holds lock_sock() */
	int sk_r_holder; /* bh_lock_sock(sk_r): 0 snd, 1 rcv, -1 */
	bool sk_r_waiting[2];
	bool *in_backlog; /* [window]: not yet queued and charged */
	unsigned int backlog; /* ACKs queued to the sender's backlog */
	int *backlog_truesize; /* [window] */
	uint64_t sent; /* messages sent */
};

struct netperf {
	uint64_t instances, message_bytes, window;
	sim_time_t work_ps;
	unsigned int protocol, placement;
	unsigned int report; /* 0: per instance, 1: the total */
	bool backlog; /* socket backlogs: see the header */
	const char *server_cgroup; /* netserver's cgroup, as read */
	const char *client_cgroups; /* instance i's netperf: this + (i+1) */
	char server_path[128], client_prefix[128]; /* copies; "": none */
	unsigned int sched; /* SCHED_PINNED or SCHED_FAIR */
	struct sched_fair *sf; /* sched: fair */
	struct sched_task *se; /* [nr_tasks]: each task's, by index */
	unsigned int *ran_cpu; /* [nr_tasks]: where it last ran */
	struct netperf_pair *pairs;
	struct netperf_pair **pair_of; /* [nr_tasks] */
	struct run *run;
};

/* netperf's default send size is the socket's send buffer */
static uint64_t message_bytes_default(const void *base, const void *ctx)
{
	const struct netperf *np = base;

	(void)ctx;
	return np->protocol == PROTO_UNIX ? UNIX_SNDBUF : 16384;
}

static uint64_t instances_default(const void *base, const void *ctx)
{
	const struct workload *w = ctx;

	(void)base;
	return w->nr_tasks / 2;
}

/* The keys, in the order `unknown key` suggestions prefer them. */
enum {
	NP_INSTANCES,
	NP_MESSAGE_BYTES,
	NP_WORK_NS,
	NP_WINDOW,
	NP_PLACEMENT,
	NP_PROTOCOL,
	NP_REPORT,
	NP_BACKLOG,
	NP_SERVER_CGROUP,
	NP_CLIENT_CGROUPS,
	NP_SCHED,
};

static const struct scenario_key netperf_keys[] = {
	[NP_INSTANCES] = {
		.name = "instances",
		.type = SCENARIO_KEY_U64,
		SCENARIO_KEY_MEMBER(struct netperf, instances),
		.min = 1,
		.max = MACHINE_MAX_CPUS / 2,
		.def_fn = instances_default,
		.def_doc = "half the CPUs",
		.doc = "netperf/netserver pairs; each takes two CPUs of 'cpus', a sender and a receiver",
	},
	[NP_MESSAGE_BYTES] = {
		.name = "message_bytes",
		.type = SCENARIO_KEY_SIZE,
		SCENARIO_KEY_MEMBER(struct netperf, message_bytes),
		.max = 1 << 24,
		.def_fn = message_bytes_default,
		.def_doc = "16384 (tcp, sctp), 212992 (unix): the socket's send buffer",
		.doc = "The bytes of each send (at least 1)",
	},
	[NP_WORK_NS] = {
		.name = "work_ns",
		.type = SCENARIO_KEY_TIME,
		.required = true,
		SCENARIO_KEY_MEMBER(struct netperf, work_ps),
		.unit_ps = SIM_PS_PER_NS,
		.min = SIM_PS_PER_NS,
		.max = SIM_PS_PER_MS,
		.doc = "The work of each send and receive outside the memcg code (the protocol stack, the copy)",
	},
	[NP_WINDOW] = {
		.name = "window",
		.type = SCENARIO_KEY_U64,
		SCENARIO_KEY_MEMBER(struct netperf, window),
		.min = 1,
		.max = 4096,
		.def = 16,
		.doc = "Messages queued at the receiver before the sender waits",
	},
	[NP_PLACEMENT] = {
		.name = "placement",
		.type = SCENARIO_KEY_ENUM,
		SCENARIO_KEY_MEMBER(struct netperf, placement),
		SCENARIO_KEY_NAMES(place_names),
		.def = PLACE_RANDOM,
		.doc = "Where the pairs' tasks go on the CPUs of 'cpus': random (a seeded shuffle, as the scheduler leaves them) or adjacent (pair i on the i-th two CPUs of the list)",
	},
	[NP_PROTOCOL] = {
		.name = "protocol",
		.type = SCENARIO_KEY_ENUM,
		SCENARIO_KEY_MEMBER(struct netperf, protocol),
		SCENARIO_KEY_NAMES(proto_names),
		.def = PROTO_TCP,
		.doc = "tcp (TCP_SENDFILE/TCP_STREAM over loopback), unix (af_unix SOCK_STREAM) or sctp (SCTP_STREAM and SCTP_STREAM_MANY over loopback)",
	},
	[NP_REPORT] = {
		.name = "report",
		.type = SCENARIO_KEY_ENUM,
		SCENARIO_KEY_MEMBER(struct netperf, report),
		SCENARIO_KEY_NAMES(report_names),
		.def = 0,
		.doc = "Throughput in 10^6 bits/s per instance (netperf's own line) or summed over the instances",
	},
	[NP_BACKLOG] = {
		.name = "backlog",
		.type = SCENARIO_KEY_BOOL,
		SCENARIO_KEY_MEMBER(struct netperf, backlog),
		.def = false,
		.doc = "Model the socket backlogs: a packet arriving while its socket is owned waits there, uncharged",
	},
	[NP_SERVER_CGROUP] = {
		.name = "server_cgroup",
		.type = SCENARIO_KEY_STRING,
		SCENARIO_KEY_MEMBER(struct netperf, server_cgroup),
		.def_doc = "the workload's cgroup",
		.doc = "The cgroup netserver runs in, listed in 'cgroups': the sockets it accepts are charged there (mem_cgroup_sk_alloc() in inet_csk_accept())",
	},
	[NP_CLIENT_CGROUPS] = {
		.name = "client_cgroups",
		.type = SCENARIO_KEY_STRING,
		SCENARIO_KEY_MEMBER(struct netperf, client_cgroups),
		.def_doc = "none (or \"\"): every netperf in the workload's cgroup",
		.doc = "PREFIX: instance i's netperf runs in cgroup PREFIX<i>, i from 1 (list them in 'cgroups' as \"PREFIX[1-N]\"); its socket is charged there",
	},
	[NP_SCHED] = {
		.name = "sched",
		.type = SCENARIO_KEY_ENUM,
		SCENARIO_KEY_MEMBER(struct netperf, sched),
		SCENARIO_KEY_NAMES(sched_names),
		.def = SCHED_PINNED,
		.doc = "pinned (each task stays on the CPU 'placement' gives it) or fair (tasks wake where the fair class's select_task_rq_fair() puts them, on any CPU of 'cpus', and share a CPU in turn; costs: the profile's context_switch and migration)",
	},
};

static int netperf_load(const struct scenario_node *n, struct netperf *np,
			const struct workload *w, unsigned int key,
			struct sim_error *err)
{
	return scenario_key_load(n, &netperf_keys[key], np, w, err);
}

/*
 * server_cgroup and client_cgroups: each cgroup they name must be listed
 * in 'cgroups'.
 */
static int netperf_cgroups_load(const struct scenario_node *n,
				struct netperf *np, const struct workload *w,
				struct sim_error *err)
{
	char path[sizeof(np->client_prefix) + 24];
	uint64_t i;

	if (netperf_load(n, np, w, NP_SERVER_CGROUP, err) ||
	    netperf_load(n, np, w, NP_CLIENT_CGROUPS, err))
		return -1;
	if (np->server_cgroup &&
	    cgroup_find(w->cgroups, np->server_cgroup) < 0) {
		scenario_error(err, scenario_get(n, "server_cgroup"),
			       "no cgroup '%s' in 'cgroups'",
			       np->server_cgroup);
		return -1;
	}
	if (np->server_cgroup)
		snprintf(np->server_path, sizeof(np->server_path), "%s",
			 np->server_cgroup);
	if (!np->client_cgroups || !np->client_cgroups[0])
		return 0;
	if (strlen(np->client_cgroups) >= sizeof(np->client_prefix)) {
		scenario_error(
			err, scenario_get(n, "client_cgroups"),
			"'client_cgroups' must be at most %zu characters",
			sizeof(np->client_prefix) - 1);
		return -1;
	}
	snprintf(np->client_prefix, sizeof(np->client_prefix), "%s",
		 np->client_cgroups);
	for (i = 1; i <= np->instances; i++) {
		snprintf(path, sizeof(path), "%s%llu", np->client_cgroups,
			 (unsigned long long)i);
		if (cgroup_find(w->cgroups, path) < 0) {
			scenario_error(
				err, scenario_get(n, "client_cgroups"),
				"no cgroup '%s' in 'cgroups' for instance %llu (list \"%s[1-%llu]\")",
				path, (unsigned long long)i, np->client_cgroups,
				(unsigned long long)np->instances);
			return -1;
		}
	}
	return 0;
}

static int netperf_sctp_check(const struct scenario_node *n,
			      const struct netperf *np, struct sim_error *err);

static int netperf_parse(struct workload *w, const struct scenario_node *n,
			 const struct machine *m, struct sim_error *err)
{
	struct netperf *np = calloc(1, sizeof(*np));

	(void)m;
	SIM_OOM_ON(!np);
	w->priv = np;
	/* protocol first: it sets message_bytes' default */
	if (netperf_load(n, np, w, NP_PROTOCOL, err) ||
	    scenario_keys_load(n, netperf_keys, NP_PLACEMENT + 1, np, w, err))
		return -1;
	if (np->message_bytes == 0) {
		scenario_error(err, scenario_get(n, "message_bytes"),
			       "'message_bytes' must be at least 1");
		return -1;
	}
	if (2 * np->instances > w->nr_tasks) {
		scenario_error(
			err,
			scenario_get(n, "instances") ?
				scenario_get(n, "instances") :
				scenario_get(n, "cpus"),
			"%llu instances need %llu CPUs (a sender and a receiver each), 'cpus' lists %u",
			(unsigned long long)np->instances,
			(unsigned long long)(2 * np->instances), w->nr_tasks);
		return -1;
	}
	if (netperf_load(n, np, w, NP_BACKLOG, err) ||
	    netperf_load(n, np, w, NP_REPORT, err) ||
	    netperf_load(n, np, w, NP_SCHED, err) ||
	    netperf_cgroups_load(n, np, w, err))
		return -1;
	if (np->protocol == PROTO_SCTP && netperf_sctp_check(n, np, err))
		return -1;
	/* 10^6 bits/s per instance (netperf's own line), or summed */
	w->scale = (double)np->message_bytes * 8.0 / 1e6;
	if (np->report == 0)
		w->scale /= (double)np->instances;
	return 0;
}

/*
 * sched: fair. A task runs on its runqueue's CPU only while it is that
 * CPU's curr; it then owns the CPU's memory-system view (its coh_cpu),
 * which a migration hands to the task on the new CPU.
 */
static struct sched_task *task_se(struct netperf *np, struct sim_task *t)
{
	return &np->se[t->index];
}

/*
 * The trace: kernel work @what (softirq, backlog, migration) of task @t
 * from @start to now, on its track, named with the CPU it ran on.
 */
static void trace_cpu_work(struct sim_task *t, const char *what,
			   sim_time_t start, sim_time_t end)
{
	struct sim_trace *tr = coh_trace(t->cc->coh);
	char name[64];

	if (!tr)
		return;
	/*
	 * An async slice on a track of its own: the work was done on this
	 * CPU between @start and @end, but the model prices it after the
	 * fact, so it may overlap the calls on the CPU's own track.
	 */
	snprintf(name, sizeof(name), "cpu%u kernel work", t->cc->cpu);
	sim_trace_async(tr, coh_trace_pid_cpus(t->cc->coh), (int)t->cc->cpu,
			name, "kernel", what, start, end, NULL);
}

static bool task_on_cpu(struct netperf *np, struct sim_task *t)
{
	struct sched_task *se = task_se(np, t);

	return np->sf->rq[se->cpu].curr == se;
}

/*
 * @se becomes its CPU's curr: its accesses come from that CPU, and it
 * resumes at @at, plus the cold cache of a migration.
 */
static void netperf_run(struct netperf *np, struct sched_task *se,
			sim_time_t at)
{
	struct sim_task *t = se->data;

	bool migrated = np->ran_cpu[t->index] != se->cpu;

	if (migrated) {
		at += np->run->machine.migration_ps;
		np->ran_cpu[t->index] = se->cpu;
	}
	t->cc = coh_cpu_attach(np->run->coh, se->cpu, &t->proc);
	t->cc->prof = &t->prof;
	if (migrated)
		trace_cpu_work(t, "migration",
			       at - np->run->machine.migration_ps, at);
	sim_proc_wake(&t->proc, at);
}

/*
 * try_to_wake_up() of @wakee by @waker (sk_data_ready() and
 * sk_write_space() wake with WF_SYNC): pinned, it resumes at once on its
 * CPU; fair, select_task_rq_fair() places it, and it runs if that CPU is
 * idle, else waits there for the CPU.
 */
static void netperf_wake(struct netperf *np, struct sim_task *wakee,
			 struct sim_task *waker, sim_time_t now)
{
	bool migrated;

	if (!np->sf) {
		sim_proc_wake(&wakee->proc, now);
		return;
	}
	/*
	 * select_task_rq_fair()'s instructions on the waker's CPU (a pinned
	 * task skips it: select_task_rq() calls it only for a task allowed
	 * on more than one CPU). SIM: the wake-up goes out at @now.
	 */
	insn_charge(waker->cc, INSN_select_task_rq_fair, 1);
	insn_charge(waker->cc, INSN_available_idle_cpu, 1);
	if (sched_wake_up(np->sf, task_se(np, wakee), task_se(np, waker)->cpu,
			  true, now, &migrated))
		netperf_run(np, task_se(np, wakee), now);
}

/*
 * @t, running, blocks or yields: its CPU goes to the next task, after a
 * context switch from task to task, or idles.
 */
static void netperf_switch(struct netperf *np, struct sched_task *next,
			   sim_time_t now)
{
	if (next)
		netperf_run(np, next, now + np->run->machine.context_switch_ps);
}

/*
 * For CO_AWAIT() after netperf_switch(): true while @t must wait, for
 * its wake-up (@blocked, the caller's wait condition) or, woken, for its
 * CPU.
 */
static bool netperf_wait(struct netperf *np, struct sim_task *t, bool blocked)
{
	if (blocked) {
		SIM_BUG_ON(task_se(np, t)->on_rq);
		return true;
	}
	return !task_on_cpu(np, t);
}

/* Wait conditions, for CO_AWAIT(): true while the task must sleep. */
static bool sender_blocked(struct netperf_pair *pp, struct netperf *np)
{
	pp->snd_waiting = pp->queued >= np->window;
	return pp->snd_waiting;
}

static bool receiver_idle(struct netperf_pair *pp)
{
	pp->rcv_waiting = pp->queued == 0;
	return pp->rcv_waiting;
}

/*
 * The receiver's socket spinlock (bh_lock_sock() in the sender's softirq,
 * the same sk_lock.slock under lock_sock() in tcp_recvmsg()): the
 * memory accounting of one side on sk_r does not interleave with the
 * other's. For CO_AWAIT(): true while @who must wait.
 */
static bool sk_r_lock(struct netperf_pair *pp, int who)
{
	if (pp->sk_r_holder < 0 || pp->sk_r_holder == who) {
		pp->sk_r_holder = who;
		pp->sk_r_waiting[who] = false;
		return false;
	}
	pp->sk_r_waiting[who] = true;
	return true;
}

static void sk_r_unlock(struct netperf_pair *pp, int who, sim_time_t now)
{
	struct sim_task *other = who ? pp->snd : pp->rcv;

	SIM_BUG_ON(pp->sk_r_holder != who);
	pp->sk_r_holder = -1;
	if (pp->sk_r_waiting[!who]) {
		pp->sk_r_waiting[!who] = false;
		sim_proc_wake(&other->proc, now);
	}
}

/* The sender's and the receiver's loop (and an idle CPU's). */
struct netperf_frame {
	struct co_frame co;
	struct sim_task *t;
	struct netperf_pair *pp;
	int truesize;
	unsigned int i;
	int piece;
	sim_time_t start; /* SIM: of backlog work, for the trace */
};

struct netperf_send_accounting_frame {
	struct co_frame co;
	struct sim_task *t;
	struct netperf_pair *pp;
	int truesize; /* of the message's skb */
	uint64_t off; /* file offset of the message (sendfile) */
	/* locals */
	sim_time_t start; /* SIM: of the softirq's work, for the trace */
	unsigned int i; /* tcp: bytes handed to TCP so far */
	int piece; /* tcp: the next page's part of the message */
	uint64_t done; /* unix: bytes of the message sent so far */
	unsigned int size; /* unix: the skb's bytes */
	unsigned int pages; /* unix: its data pages still to allocate */
	unsigned int frag; /* unix: pages of the next fragment */
};

struct netperf_recv_accounting_frame {
	struct co_frame co;
	struct sim_task *t;
	struct netperf_pair *pp;
	int truesize; /* of the message's skb */
	/* locals */
	sim_time_t start; /* SIM: of the softirq's work, for the trace */
	uint64_t done; /* unix: bytes of the message consumed */
	unsigned int size; /* unix: the skb's bytes */
	unsigned int pages; /* unix: its data pages still to free */
	unsigned int frag; /* unix: pages of the next fragment */
};

#define NOW(t) ((t)->proc.now)

static unsigned int unix_skb_size(unsigned int remaining)
{
	unsigned int max = UNIX_SNDBUF / 2 - 64;

	if (max > UNIX_HEAD_MAX + UNIX_SKB_FRAGS_SZ)
		max = UNIX_HEAD_MAX + UNIX_SKB_FRAGS_SZ;
	return remaining < max ? remaining : max;
}

/* The pages of the next fragment allocation for @npages still needed. */
static unsigned int unix_frag_order(unsigned int npages)
{
	unsigned int order = UNIX_MAX_ORDER;

	while (order && npages < (1u << order))
		order--;
	return order;
}

static unsigned int unix_data_pages(unsigned int size)
{
	unsigned int data_len = size > UNIX_HEAD_MAX ? size - UNIX_HEAD_MAX : 0;

	data_len = (data_len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	if (data_len > size)
		data_len = size & ~(PAGE_SIZE - 1);
	return data_len >> PAGE_SHIFT;
}

/*
 * The truesize of one message's skb (tcp: the head and the page
 * fragments; unix: the message, cut into skbs by unix_skb_size()).
 */
static int message_truesize(const struct netperf *np)
{
	if (np->protocol == PROTO_TCP)
		return TCP_SKB_HEAD_TRUESIZE + (int)np->message_bytes;
	return (int)np->message_bytes;
}

/*
 * ---- protocol: sctp (models/kernel/sctp.h has the kernel's paths) ----
 *
 * Per message, SCTP_STREAM (one-to-one socket) and SCTP_STREAM_MANY
 * (one-to-many, one association per socket as netperf opens them: the
 * socket style does not enter these paths), 6.0-rc1, sk_reclaim: page:
 *   sender CPU, task: sctp_sendmsg_to_asoc(): sk_wmem_schedule(msg),
 *     sctp_set_owner_w(): sk_mem_charge(chunk truesize)  (sender's socket)
 *   sender CPU, softirq (loopback): sctp_ulpevent_make_rcvmsg():
 *     sk_rmem_schedule(16 + msg), sk_mem_charge(packet truesize)
 *                                                        (receiver's socket)
 *   sender CPU, every second message: the SACK the receiving association
 *     sends back is processed here: sctp_wfree() of both chunks,
 *     sk_mem_uncharge(chunk truesize) x 2                (sender's socket)
 *   receiver CPU, task: sctp_recvmsg() -> sctp_sock_rfree():
 *     sk_mem_uncharge(packet truesize)                   (receiver's socket)
 * The receiver's socket is serialised as for tcp (bh_lock_sock() in the
 * softirq, the socket spinlock in sctp_recvmsg()).
 */
static int netperf_sctp_check(const struct scenario_node *n,
			      const struct netperf *np, struct sim_error *err)
{
	if (np->message_bytes > SCTP_LO_FRAG_MAX) {
		scenario_error(
			err, scenario_get(n, "message_bytes"),
			"protocol sctp models one DATA chunk per message: 'message_bytes' must be at most %d (the loopback fragmentation point)",
			SCTP_LO_FRAG_MAX);
		return -1;
	}
	if (np->backlog) {
		scenario_error(err, scenario_get(n, "backlog"),
			       "'backlog' is modelled for protocol tcp only");
		return -1;
	}
	return 0;
}

struct netperf_sctp_send_accounting_frame {
	struct co_frame co;
	struct sim_task *t;
	struct netperf_pair *pp;
};

struct netperf_sctp_recv_accounting_frame {
	struct co_frame co;
	struct sim_task *t;
	struct netperf_pair *pp;
};

static int netperf_sctp_send_accounting(struct sim_proc *p, void *frame)
{
	struct netperf_sctp_send_accounting_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct memcg_sim *ms = np->run->memcg;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	CO_CALL(f, p, sctp_sendmsg_to_asoc, .ms = ms, .cc = t->cc,
		.sk = &pp->sk_s, .msg_len = (unsigned int)np->message_bytes);
	coh_delay(t->cc, np->work_ps / 4);
	/* loopback: sctp_rcv() in this CPU's softirq, bh_lock_sock(sk_r) */
	CO_AWAIT(f, sim_proc_sync(p));
	CO_AWAIT(f, sk_r_lock(pp, 0));
	CO_CALL(f, p, sctp_ulpevent_make_rcvmsg, .ms = ms, .cc = t->cc,
		.sk = &pp->sk_r, .msg_len = (unsigned int)np->message_bytes);
	CO_AWAIT(f, sim_proc_sync(p));
	sk_r_unlock(pp, 0, NOW(t));
	/* sctp_gen_sack(): a SACK for every SCTP_SACKFREQ-th packet */
	if ((pp->sent + 1) % SCTP_SACKFREQ == 0)
		CO_CALL(f, p, sctp_outq_sack, .ms = ms, .cc = t->cc,
			.sk = &pp->sk_s,
			.msg_len = (unsigned int)np->message_bytes,
			.nr = SCTP_SACKFREQ);
	CO_END(f, p);
}

static int netperf_sctp_recv_accounting(struct sim_proc *p, void *frame)
{
	struct netperf_sctp_recv_accounting_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	CO_AWAIT(f, sim_proc_sync(p));
	CO_AWAIT(f, sk_r_lock(pp, 1));
	CO_CALL(f, p, sctp_sock_rfree, .ms = np->run->memcg, .cc = t->cc,
		.sk = &pp->sk_r, .msg_len = (unsigned int)np->message_bytes);
	CO_AWAIT(f, sim_proc_sync(p));
	sk_r_unlock(pp, 1, NOW(t));
	coh_delay(t->cc, np->work_ps / 4);
	CO_END(f, p);
}

/* Send-side accounting of one message (see the header comment). */
static int netperf_send_accounting(struct sim_proc *p, void *frame)
{
	struct netperf_send_accounting_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct memcg_sim *ms = np->run->memcg;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	if (np->protocol == PROTO_SCTP) {
		CO_CALL(f, p, netperf_sctp_send_accounting, .t = t, .pp = pp);
		CO_RETURN(f, p, 0);
	}
	if (np->protocol == PROTO_TCP) {
		/* tcp_stream_alloc_skb() and tcp_skb_entail() */
		CO_CALL(f, p, sk_mem_schedule, .ms = ms, .cc = t->cc,
			.sk = &pp->sk_s, .size = TCP_SKB_HEAD_TRUESIZE);
		sk_mem_charge(&pp->sk_s, TCP_SKB_HEAD_TRUESIZE);
		/*
		 * do_tcp_sendpages(): splice hands the file to TCP a page at
		 * a time; each piece is sk_wmem_schedule()d and charged.
		 */
		for (f->i = 0; f->i < (unsigned int)np->message_bytes;
		     f->i += (unsigned int)f->piece) {
			f->piece =
				(int)(PAGE_SIZE - (f->off + f->i) % PAGE_SIZE);
			if (f->piece > (int)np->message_bytes - (int)f->i)
				f->piece = (int)np->message_bytes - (int)f->i;
			CO_CALL(f, p, sk_mem_schedule, .ms = ms, .cc = t->cc,
				.sk = &pp->sk_s, .size = f->piece);
			sk_mem_charge(&pp->sk_s, f->piece);
		}
		coh_delay(t->cc, np->work_ps / 4);
		/*
		 * loopback: tcp_v6_rcv() in this CPU's softirq takes
		 * bh_lock_sock() of the receiver's socket. If the receiver
		 * owns it (inside tcp_recvmsg()), the skb goes to its backlog
		 * and the receiver's release_sock() queues and charges it on
		 * the receiver's CPU; otherwise tcp_data_queue() charges it
		 * here (sk_rmem_schedule(), skb_set_owner_r()).
		 */
		CO_AWAIT(f, sim_proc_sync(p));
		if (pp->rcv_owned && np->backlog)
			CO_RETURN(f, p, 1);
		f->start = NOW(t);
		CO_AWAIT(f, sk_r_lock(pp, 0));
		CO_CALL(f, p, sk_mem_schedule, .ms = ms, .cc = t->cc,
			.sk = &pp->sk_r, .size = f->truesize, .softirq = true);
		sk_mem_charge(&pp->sk_r, f->truesize);
		CO_AWAIT(f, sim_proc_sync(p));
		sk_r_unlock(pp, 0, NOW(t));
		trace_cpu_work(t, "softirq tcp_data_queue", f->start, NOW(t));
	} else {
		/*
		 * unix_stream_sendmsg(): per skb, sock_alloc_send_pskb()
		 * allocates the sk_buff and the head (slab objects: per-memcg
		 * caches, no page_counter work, before v5.9; the obj_cgroup
		 * stock after) and the fragment pages, each allocation
		 * charged with __GFP_ACCOUNT.
		 */
		for (f->done = 0; f->done < np->message_bytes;
		     f->done += f->size) {
			f->size = unix_skb_size(
				(unsigned int)(np->message_bytes - f->done));
			f->pages = unix_data_pages(f->size);
			/*
			 * v4.8: the sk_buff and its head come from
			 * memcg_kmem_get_cache()'s per-memcg caches, two
			 * lookups per skb (insn.h: SIM, its v6.1 stand-in).
			 */
			if (ms->k->kmem_accounting == KMEM_PAGES)
				insn_charge(t->cc, INSN_memcg_kmem_get_cache,
					    2);
			if (ms->k->kmem_accounting == KMEM_OBJECTS)
				CO_CALL(f, p, obj_cgroup_charge, .ms = ms,
					.cc = t->cc, .objcg = &pp->memcg->objcg,
					.size = UNIX_SKB_HEAD_TRUESIZE +
						(f->size -
						 (f->pages << PAGE_SHIFT)));
			while (f->pages && ms->k->kmem_accounting != KMEM_OFF) {
				f->frag = 1u << unix_frag_order(f->pages);
				f->pages -= f->frag;
				CO_CALL(f, p, memcg_kmem_charge_page, .ms = ms,
					.cc = t->cc, .memcg = pp->memcg,
					.nr_pages = f->frag, .gfp = GFP_KERNEL);
			}
		}
		coh_delay(t->cc, np->work_ps / 4);
	}
	CO_END(f, p);
}

static int netperf_recv_accounting(struct sim_proc *p, void *frame)
{
	struct netperf_recv_accounting_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct memcg_sim *ms = np->run->memcg;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	if (np->protocol == PROTO_SCTP) {
		CO_CALL(f, p, netperf_sctp_recv_accounting, .t = t, .pp = pp);
		CO_RETURN(f, p, 0);
	}
	if (np->protocol == PROTO_TCP) {
		/* tcp_eat_recv_skb() -> sock_rfree() */
		CO_AWAIT(f, sim_proc_sync(p));
		CO_AWAIT(f, sk_r_lock(pp, 1));
		CO_CALL(f, p, sk_mem_uncharge, .ms = ms, .cc = t->cc,
			.sk = &pp->sk_r, .size = f->truesize);
		CO_AWAIT(f, sim_proc_sync(p));
		sk_r_unlock(pp, 1, NOW(t));
		coh_delay(t->cc, np->work_ps / 4);
		/*
		 * The ACK (tcp_cleanup_rbuf() -> tcp_send_ack()) is processed
		 * in this CPU's softirq: tcp_v6_rcv() on the sender's socket.
		 * If the sender owns its socket (inside lock_sock()), the ACK
		 * goes to its backlog and release_sock() processes it on the
		 * sender's CPU; otherwise tcp_ack() -> tcp_clean_rtx_queue()
		 * frees the acked skb here.
		 */
		CO_AWAIT(f, sim_proc_sync(p));
		if (pp->snd_owned && np->backlog) {
			SIM_BUG_ON(pp->backlog > np->window);
			pp->backlog_truesize[pp->backlog++] = f->truesize;
		} else {
			f->start = NOW(t);
			CO_CALL(f, p, sk_mem_uncharge, .ms = ms, .cc = t->cc,
				.sk = &pp->sk_s, .size = f->truesize);
			trace_cpu_work(t, "softirq tcp_ack", f->start, NOW(t));
		}
	} else {
		/* unix_stream_recvmsg() consumes each skb: consume_skb() */
		for (f->done = 0; f->done < np->message_bytes;
		     f->done += f->size) {
			f->size = unix_skb_size(
				(unsigned int)(np->message_bytes - f->done));
			f->pages = unix_data_pages(f->size);
			while (f->pages && ms->k->kmem_accounting != KMEM_OFF) {
				f->frag = 1u << unix_frag_order(f->pages);
				f->pages -= f->frag;
				CO_CALL(f, p, memcg_kmem_uncharge_page,
					.ms = ms, .cc = t->cc,
					.memcg = pp->memcg,
					.nr_pages = f->frag);
			}
			if (ms->k->kmem_accounting == KMEM_OBJECTS)
				CO_CALL(f, p, obj_cgroup_uncharge, .ms = ms,
					.cc = t->cc, .objcg = &pp->memcg->objcg,
					.size = UNIX_SKB_HEAD_TRUESIZE +
						(f->size -
						 (unix_data_pages(f->size)
						  << PAGE_SHIFT)));
		}
		coh_delay(t->cc, np->work_ps / 4);
	}
	CO_END(f, p);
}

struct netperf_schedule_frame {
	struct co_frame co;
	struct sim_task *t;
	struct netperf_pair *pp;
	bool sender;
};

static bool must_block(struct netperf *np, struct netperf_pair *pp, bool sender)
{
	return sender ? pp->queued >= np->window : !pp->queued;
}

/*
 * sched: fair, at the top of a task's loop: block in __schedule() while
 * there is nothing to do (the window full, or no data), the CPU going to
 * the next task; and give the CPU up when the slice ends with others
 * waiting (the tick's preemption). Context: a switch is a full barrier,
 * so the task's posted stores complete before its CPU changes hands.
 */
static int netperf_schedule(struct sim_proc *p, void *frame)
{
	struct netperf_schedule_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	if (sched_slice_expired(np->sf, task_se(np, t), NOW(t))) {
		CO_AWAIT(f, coh_fence(t->cc));
		CO_AWAIT(f, sim_proc_sync(p));
		netperf_switch(
			np, sched_yield_to_next(np->sf, task_se(np, t), NOW(t)),
			NOW(t));
		CO_AWAIT(f, netperf_wait(np, t, false));
	}
	if (!must_block(np, pp, f->sender))
		CO_RETURN(f, p, 0);
	KPROF_ENTER(&t->prof, KF_IDLE, NOW(t));
	CO_AWAIT(f, coh_fence(t->cc));
	CO_AWAIT(f, sim_proc_sync(p));
	if (must_block(np, pp, f->sender)) {
		netperf_switch(np, sched_sleep(np->sf, task_se(np, t), NOW(t)),
			       NOW(t));
		CO_AWAIT(f, netperf_wait(np, t,
					 f->sender ? sender_blocked(pp, np) :
						     receiver_idle(pp)));
	}
	KPROF_EXIT(&t->prof, NOW(t));
	CO_END(f, p);
}

static int netperf_sender(struct sim_proc *p, void *frame)
{
	struct netperf_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	while (task_running(t, np->run)) {
		CO_AWAIT(f, sim_proc_sync(p));
		if (np->sf) {
			CO_CALL(f, p, netperf_schedule, .t = t, .pp = pp,
				.sender = true);
		} else if (pp->queued >= np->window) {
			KPROF_ENTER(&t->prof, KF_IDLE, NOW(t));
			CO_AWAIT(f, sender_blocked(pp, np));
			KPROF_EXIT(&t->prof, NOW(t));
		}
		KPROF_ENTER(&t->prof, KF_WORK_SEND, NOW(t));
		/* the system call and splice, before lock_sock() */
		coh_delay(t->cc, np->work_ps / 2);
		f->truesize = message_truesize(np);
		CO_AWAIT(f, sim_proc_sync(p));
		pp->snd_owned = true;
		CO_CALL(f, p, netperf_send_accounting, .t = t, .pp = pp,
			.truesize = f->truesize,
			.off = pp->sent * np->message_bytes);
		f->i = (unsigned int)p->ret; /* to the receiver's backlog */
		/* the skb is on the receive queue, the receiver is woken */
		CO_AWAIT(f, sim_proc_sync(p));
		pp->truesize[(pp->head + pp->queued) % np->window] =
			f->truesize;
		pp->in_backlog[(pp->head + pp->queued) % np->window] = f->i;
		pp->queued++;
		pp->sent++;
		if (pp->rcv_waiting) {
			pp->rcv_waiting = false;
			netperf_wake(np, pp->rcv, t, NOW(t));
		}
		coh_delay(t->cc, np->work_ps / 2 - np->work_ps / 4);
		/* release_sock(): process the backlog (ACKs), then unlock */
		for (;;) {
			CO_AWAIT(f, sim_proc_sync(p));
			if (!pp->backlog) {
				pp->snd_owned = false;
				break;
			}
			f->truesize = pp->backlog_truesize[--pp->backlog];
			f->start = NOW(t);
			CO_CALL(f, p, sk_mem_uncharge, .ms = np->run->memcg,
				.cc = t->cc, .sk = &pp->sk_s,
				.size = f->truesize);
			trace_cpu_work(t, "backlog release_sock", f->start,
				       NOW(t));
		}
		KPROF_EXIT(&t->prof, NOW(t));
	}
	CO_END(f, p);
}

static int netperf_receiver(struct sim_proc *p, void *frame)
{
	struct netperf_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	while (task_running(t, np->run)) {
		CO_AWAIT(f, sim_proc_sync(p));
		if (np->sf) {
			CO_CALL(f, p, netperf_schedule, .t = t, .pp = pp,
				.sender = false);
		} else if (!pp->queued) {
			KPROF_ENTER(&t->prof, KF_IDLE, NOW(t));
			CO_AWAIT(f, receiver_idle(pp));
			KPROF_EXIT(&t->prof, NOW(t));
		}
		task_op_begin(t);
		/* tcp_recvmsg(): lock_sock() */
		pp->rcv_owned = true;
		SIM_BUG_ON(pp->in_backlog[pp->head]);
		f->truesize = pp->truesize[pp->head];
		KPROF_ENTER(&t->prof, KF_WORK_RECV, NOW(t));
		coh_delay(t->cc, np->work_ps / 2);
		CO_CALL(f, p, netperf_recv_accounting, .t = t, .pp = pp,
			.truesize = f->truesize);
		/*
		 * release_sock(): the skbs the sender's softirq put on the
		 * backlog meanwhile are queued now, and charged on this CPU
		 * in process context (tcp_v6_do_rcv() -> tcp_data_queue()).
		 */
		for (;;) {
			CO_AWAIT(f, sim_proc_sync(p));
			for (f->i = 1; f->i < pp->queued; f->i++)
				if (pp->in_backlog[(pp->head + f->i) %
						   np->window])
					break;
			if (f->i >= pp->queued) {
				pp->rcv_owned = false;
				break;
			}
			f->i = (pp->head + f->i) % (unsigned int)np->window;
			pp->in_backlog[f->i] = false;
			f->piece = pp->truesize[f->i];
			f->start = NOW(t);
			CO_AWAIT(f, sk_r_lock(pp, 1));
			CO_CALL(f, p, sk_mem_schedule, .ms = np->run->memcg,
				.cc = t->cc, .sk = &pp->sk_r, .size = f->piece);
			sk_mem_charge(&pp->sk_r, f->piece);
			CO_AWAIT(f, sim_proc_sync(p));
			sk_r_unlock(pp, 1, NOW(t));
			trace_cpu_work(t, "backlog release_sock", f->start,
				       NOW(t));
		}
		coh_delay(t->cc, np->work_ps / 2 - np->work_ps / 4);
		KPROF_EXIT(&t->prof, NOW(t));
		CO_AWAIT(f, sim_proc_sync(p));
		pp->head = (pp->head + 1) % (unsigned int)np->window;
		pp->queued--;
		if (pp->snd_waiting) {
			pp->snd_waiting = false;
			netperf_wake(np, pp->snd, t, NOW(t));
		}
		task_op_end(t, np->run);
	}
	CO_END(f, p);
}

/* A CPU of the list that no pair uses. */
static int netperf_idle(struct sim_proc *p, void *frame)
{
	struct netperf_frame *f = frame;

	CO_BEGIN(f);
	CO_END(f, p);
}

/* The trace: the name of @t's own track (sched: fair), "netperf 3". */
static void netperf_trace_name(struct sim_task *t, const char *role,
			       unsigned int pair)
{
	struct sim_trace *tr = coh_trace(t->cc->coh);
	char name[48];

	if (!tr)
		return;
	snprintf(name, sizeof(name), "task %s %u", role, pair);
	sim_trace_thread(tr, coh_trace_pid_cpus(t->cc->coh),
			 (int)t->proc.trace_tid, name, (int)t->proc.trace_tid);
}

/*
 * sched: fair: every task of a pair may run on any CPU of the list; each
 * starts on the CPU the placement gives it (one task a CPU).
 */
static void netperf_sched_setup(struct netperf *np, struct workload *w)
{
	unsigned int i, j;

	np->sf = sched_fair_create(&np->run->machine);
	np->se = calloc(w->nr_tasks, sizeof(*np->se));
	np->ran_cpu = calloc(w->nr_tasks, sizeof(*np->ran_cpu));
	SIM_OOM_ON(!np->se || !np->ran_cpu);
	for (i = 0; i < w->nr_tasks; i++) {
		struct sim_task *t = &w->tasks[i];

		np->se[i].data = t;
		np->ran_cpu[i] = w->cpus[i];
		/*
		 * SIM: a task that moves gets a track of its own for its
		 * calls (a CPU's track would interleave two tasks' calls);
		 * its memory accesses stay on the CPU it ran on.
		 */
		t->proc.trace_tid = np->run->machine.nr_cpus + i;
		for (j = 0; j < w->nr_tasks; j++)
			sched_task_allow(&np->se[i], w->cpus[j]);
	}
	for (i = 0; i < np->instances; i++) {
		struct netperf_pair *pp = &np->pairs[i];

		sched_task_start(np->sf, task_se(np, pp->snd), pp->snd->cc->cpu,
				 0);
		sched_task_start(np->sf, task_se(np, pp->rcv), pp->rcv->cc->cpu,
				 0);
		netperf_trace_name(pp->snd, "netperf", i);
		netperf_trace_name(pp->rcv, "netserver", i);
	}
}

static void netperf_setup(struct workload *w, struct run *run)
{
	struct netperf *np = w->priv;
	struct mem_cgroup *memcg = memcg_sim_find(run->memcg, w->cgroup);
	struct mem_cgroup *s_memcg =
		np->server_path[0] ?
			memcg_sim_find(run->memcg, np->server_path) :
			memcg;
	char path[sizeof(np->client_prefix) + 24];
	unsigned int *order = malloc(w->nr_tasks * sizeof(*order));
	unsigned int i;
	gsl_rng *rng;

	SIM_BUG_ON(!memcg || !s_memcg);
	SIM_OOM_ON(!order);
	np->run = run;
	for (i = 0; i < w->nr_tasks; i++)
		order[i] = i;
	if (np->placement == PLACE_RANDOM) {
		/* SIM: a stream of its own, after the CPUs' streams */
		rng = sim_rng_stream(run->seed, MACHINE_MAX_CPUS + w->index);
		gsl_ran_shuffle(rng, order, w->nr_tasks, sizeof(*order));
		gsl_rng_free(rng);
	}
	np->pairs = calloc(np->instances, sizeof(*np->pairs));
	SIM_OOM_ON(!np->pairs);
	for (i = 0; i < np->instances; i++) {
		struct netperf_pair *pp = &np->pairs[i];
		struct netperf_frame *f;

		pp->snd = &w->tasks[order[2 * i]];
		pp->rcv = &w->tasks[order[2 * i + 1]];
		pp->memcg = memcg;
		if (np->client_prefix[0]) {
			snprintf(path, sizeof(path), "%s%u", np->client_prefix,
				 i + 1);
			pp->memcg = memcg_sim_find(run->memcg, path);
			SIM_BUG_ON(!pp->memcg);
		}
		pp->s_memcg = s_memcg;
		pp->sk_r_holder = -1;
		/*
		 * mem_cgroup_sk_alloc(): a socket belongs to the memcg of the
		 * task that creates it (netperf's, in socket()) or accepts it
		 * (netserver's, in inet_csk_accept()); none in the root memcg.
		 */
		if (!run->kernel->memcg_disabled) {
			if (!mem_cgroup_is_root(run->memcg, pp->memcg))
				pp->sk_s.sk_memcg = pp->memcg;
			if (!mem_cgroup_is_root(run->memcg, pp->s_memcg))
				pp->sk_r.sk_memcg = pp->s_memcg;
		}
		pp->truesize = calloc(np->window, sizeof(*pp->truesize));
		/* at most one ACK per message in flight, plus the one read */
		pp->backlog_truesize =
			calloc(np->window + 1, sizeof(*pp->backlog_truesize));
		pp->in_backlog = calloc(np->window, sizeof(*pp->in_backlog));
		SIM_OOM_ON(!pp->truesize || !pp->backlog_truesize ||
			   !pp->in_backlog);
		f = co_push(&pp->snd->proc, netperf_sender, sizeof(*f));
		f->t = pp->snd;
		f->pp = pp;
		f = co_push(&pp->rcv->proc, netperf_receiver, sizeof(*f));
		f->t = pp->rcv;
		f->pp = pp;
	}
	if (np->sched == SCHED_FAIR)
		netperf_sched_setup(np, w);
	/* CPUs of the list beyond the pairs stay idle */
	for (i = 2 * (unsigned int)np->instances; i < w->nr_tasks; i++) {
		struct netperf_frame *f;

		f = co_push(&w->tasks[order[i]].proc, netperf_idle, sizeof(*f));
		f->t = &w->tasks[order[i]];
		f->pp = NULL;
	}
	free(order);
}

static void netperf_destroy(struct workload *w)
{
	struct netperf *np = w->priv;
	unsigned int i;

	if (!np)
		return;
	if (np->pairs) {
		for (i = 0; i < np->instances; i++) {
			free(np->pairs[i].truesize);
			free(np->pairs[i].backlog_truesize);
			free(np->pairs[i].in_backlog);
		}
	}
	free(np->pairs);
	sched_fair_free(np->sf);
	free(np->se);
	free(np->ran_cpu);
	free(np);
	w->priv = NULL;
}

const struct workload_type netperf_type = {
	.name = "netperf",
	.summary =
		"loopback stream pairs charging socket memory (10^6 bits/s per instance)",
	.keys = netperf_keys,
	.nr_keys = ARRAY_SIZE(netperf_keys),
	.unit = "Mbit/s",
	.memcg = true,
	.parse = netperf_parse,
	.setup = netperf_setup,
	.destroy = netperf_destroy,
};
