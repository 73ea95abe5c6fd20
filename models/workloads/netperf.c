// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/workloads/netperf.c - the netperf workload: loopback stream pairs.
 *
 * This file is netperf's and netserver's user-space loop and the
 * scheduling around it; the kernel code they run is in
 * models/kernel/net/: lock_sock() and release_sock() (core/sock.c),
 * tcp_sendpage() (ipv4/tcp.c), tcp_v6_rcv() and tcp_v6_do_rcv()
 * (ipv6/tcp_ipv6.c), unix_stream_sendmsg() and unix_stream_recvmsg()
 * (unix/af_unix.c), SCTP in sctp/sctp.c (with netperf_sctp.c).
 *
 * Theory of operation
 *
 * `instances` netperf/netserver pairs, each a sender task and a receiver
 * task on two CPUs of the workload's list (placement: random, a seeded
 * shuffle, as the scheduler leaves them; or adjacent, pair i on the i-th
 * two CPUs of the list). The sender sends messages of `message_bytes`;
 * the receiver waits for data. What makes the sender wait is
 * `flow_control`:
 *   messages (the default) at most `window` messages are queued at the
 *            receiver, beyond which the sender waits (SIM: `window` stands
 *            for the socket buffers. With the socket backlogs an outcome
 *            it matters: how many messages wait decides how often
 *            netserver is inside tcp_recvmsg() when a segment lands;
 *            charge-batch-2022 moves by up to 10 points between 4, 16 and
 *            64, see doc/validation.md);
 *   tcp      (protocol tcp) TCP's flow control: the sender waits while
 *            its message does not fit the window netserver's last ACK
 *            advertised (tcp_snd_wnd_test()); `window` is not used. The
 *            window is the kernel's (ipv4/tcp_output.c, tcp_input.c):
 *            half the free receive buffer, at most rcv_ssthresh, never
 *            shrunk, zero below 1/16 free. SIM: the sender sleeps instead
 *            of queueing unsent data in its send buffer (sk_sndbuf,
 *            autotuned to 4 MB) for the ACK's softirq to push, and the
 *            steady state of a long stream is taken from the start
 *            (netperf_tcp_init()). netserver ACKs as the kernel decides
 *            (tcp_cleanup_rbuf() after a read, __tcp_ack_snd_check()
 *            after a segment: tcp.h); an ACK frees the skbs of every
 *            message it acks. SIM: the delayed-ACK timer (40 ms or
 *            more) never fires, a stream's reads ACKing first.
 * In either, the window state is kept for tcp (rcv_nxt, copied_seq,
 * rcv_wup, rcv_wnd, rcv_ssthresh, window_clamp, sk_rmem_alloc), so
 * whether __tcp_select_window() (each ACK, __tcp_ack_snd_check() after
 * each segment more than a frame past the last ACK, and with
 * flow_control tcp tcp_cleanup_rbuf()'s window test) and
 * tcp_grow_window() walk the memcg hierarchy is an outcome: with 16
 * messages the queue never reaches half the 6 MB buffer, so they do not
 * (doc/model/contended-lines.md, item 6). A message received is one
 * operation; throughput is reported in
 * netperf's unit, 10^6 bits/s per instance.
 *
 * Each side spends `work_ns` per message outside the memory controller
 * (the network stack, the copy, the wake-ups: calibrated on the root
 * memcg, where no memcg code runs). The accounting steps follow the
 * kernel; see doc/socket-accounting.md for the derivation.
 *
 * protocol: tcp (TCP_SENDFILE/TCP_STREAM over loopback, 6.0-rc1)
 *   sender CPU, in tcp_sendpage()/do_tcp_sendpages():
 *     tcp_stream_alloc_skb(): sk_wmem_schedule(skb head truesize),
 *       tcp_skb_entail() -> sk_mem_charge()             (sender's socket)
 *     sk_wmem_schedule(copy), sk_mem_charge(copy)       (sender's socket)
 *   loopback transmit -> netif_rx() -> NET_RX softirq on the SENDING CPU
 *     -> tcp_v6_rcv() on the receiver's socket: processed there
 *     (tcp_data_queue(): sk_rmem_schedule(skb->truesize),
 *     skb_set_owner_r(), in softirq, GFP_NOWAIT), or backlogged (below)
 *   receiver CPU, tcp_recvmsg(): after the copy, tcp_eat_recv_skb() ->
 *     sock_rfree() -> sk_mem_uncharge(truesize)         (receiver's socket)
 *   receiver CPU, tcp_cleanup_rbuf() -> tcp_send_ack() (flow_control:
 *     messages, SIM: one ACK a message read, none from
 *     __tcp_ack_snd_check(); tcp: when the kernel's tests say so, and
 *     __tcp_ack_snd_check()'s in the segment's processing): its window
 *     from tcp_select_window(); the ACK's softirq
 *     runs on the RECEIVING CPU -> tcp_v6_rcv() on the sender's socket:
 *     tcp_ack() -> tcp_clean_rtx_queue() frees the acked skb ->
 *     sk_mem_uncharge() (sender's socket), or backlogged (below)
 *   With sk_reclaim: page (6.0-rc1) every sk_mem_uncharge() returns the
 *   whole pages at once.
 *
 * The socket backlog is an outcome of the run (`backlog: auto`, the
 * default). Read at a v5.19-era tree of net/ipv4/tcp.c (the index's
 * stored version, commit 0076cad3: it has skb_attempt_defer_free() and
 * tcp_wmem_schedule(), not yet 6.0's READ_ONCE() sysctl fixes; these
 * functions are the same at v6.0): tcp_sendpage() is lock_sock(),
 * do_tcp_sendpages() (whose tcp_push() transmits), release_sock();
 * tcp_sendmsg() the same around tcp_sendmsg_locked(); tcp_recvmsg() is
 * lock_sock(), tcp_recvmsg_locked() (the receive-queue walk,
 * skb_copy_datagram_msg() to user, tcp_eat_recv_skb(), and
 * tcp_cleanup_rbuf()'s ACK), release_sock(). net/core/sock.c's
 * lock_sock() sets sk_lock.owned under the spinlock and drops it, so
 * softirqs run meanwhile; tcp_v6_rcv() (like tcp_v4_rcv()) takes
 * bh_lock_sock() and, if sock_owned_by_user(), tcp_add_backlog() queues
 * the skb uncharged; release_sock() -> __release_sock() ->
 * sk_backlog_rcv() processes it in the owner's process context on the
 * owner's CPU. A transmit's softirq runs on the transmitting CPU inside
 * the transmitting task's own locked section (the push is in
 * do_tcp_sendpages(), the ACK in tcp_recvmsg_locked()), so each side's
 * packets land while it holds its own socket and find the other side's
 * socket owned or not as the run has it. Each message's work is split
 * in eighths of work_ns (SND_*, RCV_*, PKT_RCV below):
 *   sender  out 3: sendfile() entry and the splice of the file's pages
 *                  into the pipe (page-cache lookups, pipe buffers), which
 *                  precede every tcp_sendpage();
 *           in  1: do_tcp_sendpages() of the pages (frags appended, no
 *                  copy: sendpage is zero-copy), with the charges above;
 *           in  1: tcp_push() through loopback_xmit() and, in the softirq,
 *                  ip6_rcv() and tcp_v6_rcv() to its ownership test;
 *           in  2: PKT_RCV, the segment's tcp_v6_do_rcv() (tcp_data_queue()
 *                  and the charge, sk_data_ready()), unless backlogged;
 *           out 1: the splice loop's end and sendfile()'s return.
 *   receiver out 1: recvfrom() to tcp_recvmsg()'s lock_sock();
 *           in  3: skb_copy_datagram_msg() (the only per-byte work of
 *                  either side: sendfile copies nothing) and
 *                  tcp_eat_recv_skb() with the uncharge;
 *           in  1: tcp_send_ack() through loopback and tcp_v6_rcv() on
 *                  the sender's socket to its ownership test;
 *           in  2: PKT_RCV, the ACK's tcp_ack() (the uncharge,
 *                  sk_write_space()), unless backlogged;
 *           out 1: recvfrom()'s return.
 *   The split of in and out, and which work moves with a backlogged
 *   packet (PKT_RCV, to the owner's release_sock()), follow the code
 *   above; the eighths within are a proposal ([P]: no per-function costs
 *   of these paths were found; the copy gets the largest in share as the
 *   one per-byte pass, the splice the largest out share as two passes
 *   over the pages' metadata per page against tcp_sendpage()'s one), set
 *   before the validation was rerun and not moved by it. So netperf
 *   holds its socket for half its work and netserver for three
 *   quarters; a backlogged segment is charged on the receiver's CPU in
 *   process context, a backlogged ACK uncharged on the sender's CPU.
 *   `backlog: never` processes every packet in the softirq (the model
 *   before this, and a socket lock held only for its spinlock);
 *   `always` backlogs every packet whose socket's task is awake (SIM:
 *   teaching overrides). explain and the backlog_share metrics report
 *   the shares.
 *   net/core/sock.c and tcp_ipv4.c's tcp_v4_rcv()/tcp_add_backlog() were
 *   read at the index's stored versions (doc 1.7a names them).
 *   SIM: a backlogged segment is not coalesced into the backlog's tail
 *   (tcp_add_backlog() tries to); one skb per message pushed by its own
 *   tcp_sendpage() (no Nagle-held tail pushed by an ACK, doc 1.5's
 *   T-A); one lock section per message where sendfile takes one per
 *   page; a backlogged next message is processed in the next recv(),
 *   not by tcp_recvmsg_locked()'s __sk_flush_backlog() in the same call.
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
 *   af_unix has no socket backlog (the sender queues the skb on the
 *   peer's receive queue itself, under its queue spinlock): each side
 *   spends half its work_ns before its accounting and half after.
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

#include "models/kernel/sim/insn.h"
#include "models/kernel/mm/memcontrol.h"
#include "models/kernel/drivers/cpuidle/menu.h"
#include "models/kernel/kernel/sched/fair.h"
#include "models/kernel/net/core/sock.h"
#include "models/kernel/net/ipv4/tcp.h"
#include "models/kernel/net/sctp/sctp.h"
#include "models/kernel/net/unix/af_unix.h"
#include "models/workloads/netperf_internal.h"
#include "models/workloads/workload.h"
#include "sim/co.h"
#include "sim/error.h"
#include "sim/trace.h"
#include "sim/util.h"

static const char *const proto_names[] = { "tcp", "unix", "sctp" };
static const char *const place_names[] = { "random", "adjacent" };
static const char *const report_names[] = { "per_instance", "total" };
static const char *const sched_names[] = { "pinned", "fair" };
const char *const netperf_backlog_names[] = { "auto", "never", "always" };
static const char *const flow_names[] = { "messages", "tcp" };

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
	NP_FLOW_CONTROL,
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
		.doc = "Messages queued at the receiver before the sender waits (flow_control: messages)",
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
		.type = SCENARIO_KEY_ENUM,
		SCENARIO_KEY_MEMBER(struct netperf, backlog),
		SCENARIO_KEY_NAMES(netperf_backlog_names),
		.def = BACKLOG_AUTO,
		.doc = "tcp: auto (a segment or ACK goes to its socket's backlog when it arrives while the socket's task holds lock_sock(), as tcp_v6_rcv() decides), or, for teaching, never (always processed in the softirq, on the transmitting CPU) or always (backlogged whenever the socket's task is awake)",
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
	[NP_FLOW_CONTROL] = {
		.name = "flow_control",
		.type = SCENARIO_KEY_ENUM,
		SCENARIO_KEY_MEMBER(struct netperf, flow),
		SCENARIO_KEY_NAMES(flow_names),
		.def = FLOW_MESSAGES,
		.doc = "What makes the sender wait: messages (more than 'window' messages queued at the receiver, standing for the socket buffers) or, protocol tcp, tcp (the window netserver's socket advertised in its last ACK, in bytes: its receive buffer at tcp_rmem[2], 6 MB, less what is queued; 'window' is then not used; netserver then ACKs as the kernel's tcp_cleanup_rbuf() and __tcp_ack_snd_check() decide, where messages sends one ACK per message read)",
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
	/* The default (half the CPUs) is 0 on one CPU: nothing would run. */
	if (!np->instances) {
		scenario_error(
			err, scenario_get(n, "cpus"),
			"netperf needs at least two CPUs in 'cpus' (a sender and a receiver for each instance), found %u",
			w->nr_tasks);
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
	    netperf_load(n, np, w, NP_FLOW_CONTROL, err) ||
	    netperf_cgroups_load(n, np, w, err))
		return -1;
	if (np->flow == FLOW_TCP && np->protocol != PROTO_TCP) {
		scenario_error(err, scenario_get(n, "flow_control"),
			       "'flow_control: tcp' needs 'protocol: tcp'");
		return -1;
	}
	/* SIM: a message is one segment, which must fit the window */
	if (np->flow == FLOW_TCP && np->message_bytes > TCP_RMEM_MAX / 2) {
		scenario_error(
			err, scenario_get(n, "message_bytes"),
			"'flow_control: tcp' sends a message as one segment: 'message_bytes' must be at most %d (the largest window, half of tcp_rmem[2])",
			TCP_RMEM_MAX / 2);
		return -1;
	}
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
	struct sim_trace *tr = coh_trace(t->k.cc->coh);
	char name[64];

	if (!tr)
		return;
	/*
	 * An async slice on a track of its own: the work was done on this
	 * CPU between @start and @end, but the model prices it after the
	 * fact, so it may overlap the calls on the CPU's own track.
	 */
	snprintf(name, sizeof(name), "cpu%u kernel work", t->k.cc->cpu);
	sim_trace_async(tr, coh_trace_pid_cpus(t->k.cc->coh), (int)t->k.cc->cpu,
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
	if (np->idle)
		np->wake_pending[t->index] +=
			cpuidle_wake(&np->idle[se->cpu], &np->run->machine, at);
	t->k.cc = coh_cpu_attach(np->run->coh, se->cpu, &t->proc);
	t->k.cc->prof = &t->prof;
	coh_cpu_set_idle(t->k.cc, false);
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
void netperf_wake(struct netperf *np, struct sim_task *wakee,
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
	insn_charge(waker->k.cc, INSN_select_task_rq_fair, 1);
	insn_charge(waker->k.cc, INSN_available_idle_cpu, 1);
	if (sched_wake_up(np->sf, task_se(np, wakee), task_se(np, waker)->cpu,
			  true, now, &migrated))
		netperf_run(np, task_se(np, wakee), now);
}

/*
 * @t, running, blocks or yields: its CPU goes to the next task, after a
 * context switch from task to task, or idles (pinned: always).
 */
static void netperf_switch(struct netperf *np, unsigned int cpu,
			   struct sched_task *next, sim_time_t now)
{
	if (next)
		netperf_run(np, next, now + np->run->machine.context_switch_ps);
	else if (np->idle)
		cpuidle_idle_call(&np->idle[cpu], &np->run->machine, now);
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

/*
 * The sender must wait before its next message: `window` messages
 * queued (FLOW_MESSAGES), or (FLOW_TCP) the message does not fit the
 * window netserver advertised (tcp_snd_wnd_test()), or the receive
 * buffer holds no more (SIM: stands for tcp_data_queue()'s drop and the
 * retransmit; a message whose truesize is under twice its payload never
 * gets there, the window closing at half the free buffer).
 */
static bool sender_must_wait(const struct netperf *np,
			     const struct netperf_pair *pp)
{
	if (np->flow == FLOW_MESSAGES)
		return pp->queued >= np->window;
	return pp->queued >= np->ring ||
	       !tcp_snd_wnd_test(&pp->tp_s, (uint32_t)np->message_bytes);
}

/* Wait conditions, for CO_AWAIT(): true while the task must sleep. */
static bool sender_blocked(struct netperf_pair *pp, struct netperf *np)
{
	pp->snd_waiting = sender_must_wait(np, pp);
	return pp->snd_waiting;
}

static bool receiver_idle(struct netperf_pair *pp)
{
	pp->rcv_waiting = pp->queued == 0;
	return pp->rcv_waiting;
}

/* The wait condition of @wait, for CO_AWAIT(): it marks the waiter. */
static bool task_blocked(struct netperf_pair *pp, struct netperf *np,
			 enum netperf_wait wait)
{
	if (wait == NETPERF_WAIT_WINDOW)
		return sender_blocked(pp, np);
	if (wait == NETPERF_WAIT_DATA)
		return receiver_idle(pp);
	return netperf_sctp_sndbuf_blocked(pp, np);
}

/*
 * The sender @t's message of @truesize bytes is on the receiver's queue
 * (@backlogged: on sk_r's backlog, not yet charged); the reader is woken
 * if it waits for data.
 */
static void msg_queued(struct netperf *np, struct netperf_pair *pp,
		       struct sim_task *t, int truesize, bool backlogged)
{
	unsigned int i = (pp->head + pp->queued) % np->ring;

	pp->truesize[i] = truesize;
	pp->in_backlog[i] = backlogged;
	pp->queued++;
	if (pp->queued > pp->queued_max && NOW(&t->proc) >= np->run->warmup_ps)
		pp->queued_max = pp->queued;
	pp->sent++;
	if (pp->rcv_waiting) {
		pp->rcv_waiting = false;
		netperf_wake(np, pp->rcv, t, NOW(&t->proc));
	}
}

/* @t wakes the sender if it waits and may send now. */
static void snd_wake(struct netperf *np, struct netperf_pair *pp,
		     struct sim_task *t)
{
	if (pp->snd_waiting && !sender_must_wait(np, pp)) {
		pp->snd_waiting = false;
		netperf_wake(np, pp->snd, t, NOW(&t->proc));
	}
}

/* The receiver @t has read the message at the head: the sender may send. */
static void msg_read(struct netperf *np, struct netperf_pair *pp,
		     struct sim_task *t)
{
	pp->head = (pp->head + 1) % np->ring;
	pp->queued--;
	snd_wake(np, pp, t);
}

/*
 * The frames of netperf's coroutines: the task and its pair, and the
 * locals each keeps across its waits.
 */
struct netperf_sender_tcp_frame {
	struct co_frame co;
	struct sim_task *t;
	struct netperf_pair *pp;
	/* locals */
	int truesize; /* of the message's skb */
	bool backlogged; /* the segment went to sk_r's backlog */
};

struct netperf_receiver_tcp_frame {
	struct co_frame co;
	struct sim_task *t;
	struct netperf_pair *pp;
	/* locals */
	int truesize; /* of the message's skb */
	bool ack; /* tcp_cleanup_rbuf(): time to ACK */
};

struct netperf_sender_unix_frame {
	struct co_frame co;
	struct sim_task *t;
	struct netperf_pair *pp;
	/* locals */
	int truesize;
};

struct netperf_receiver_unix_frame {
	struct co_frame co;
	struct sim_task *t;
	struct netperf_pair *pp;
	/* locals */
	int truesize;
};

struct netperf_idle_frame {
	struct co_frame co;
};

/*
 * The truesize of one message's skb (tcp: the head and the page
 * fragments; unix: the message, which unix_stream_sendmsg() cuts into
 * skbs).
 */
static int message_truesize(const struct netperf *np)
{
	if (np->protocol == PROTO_TCP)
		return TCP_SKB_HEAD_TRUESIZE + (int)np->message_bytes;
	return (int)np->message_bytes;
}

/*
 * Where a side's work_ns goes (protocol: tcp), in eighths; the header
 * comment derives them from the kernel code. The sender's work per
 * message and the receiver's each add up to eight eighths when every
 * packet is processed in the softirq; a backlogged packet's processing
 * (PKT_RCV) moves to the socket owner's release_sock().
 */
#define SND_SPLICE 3 /* out: sendfile(), splice of the pages into the pipe */
#define SND_SENDPAGE 1 /* in: do_tcp_sendpages() of the pages */
#define SND_XMIT 1 /* in: tcp_push() to loopback, ip6_rcv(), tcp_v6_rcv() */
#define SND_EXIT 1 /* out: the splice loop's end, sendfile()'s return */
#define RCV_ENTRY 1 /* out: recvfrom() to tcp_recvmsg()'s lock_sock() */
#define RCV_COPY 3 /* in: skb_copy_datagram_msg(), tcp_eat_recv_skb() */
#define RCV_ACK_XMIT 1 /* in: tcp_send_ack() to loopback, tcp_v6_rcv() */
#define RCV_EXIT 1 /* out: recvfrom()'s return */
#define PKT_RCV 2 /* tcp_v6_do_rcv(): a segment's or an ACK's processing */

static sim_time_t eighths(const struct netperf *np, unsigned int n)
{
	return np->work_ps * n / 8;
}

/*
 * The truesize netperf's socket frees for the ACK it processes
 * (tcp_clean_rtx_queue()) of @truesize: FLOW_TCP, the skbs of the
 * messages it acks (snd_una up to the rcv_wup it takes, SIM: whole
 * messages), the packet being the ACK's skb (TCP_SKB_HEAD_TRUESIZE:
 * tcp_send_ack()'s alloc_skb(MAX_TCP_HEADER)); FLOW_MESSAGES, as
 * before, the message it was sent for, which @truesize stands for.
 */
static int acked_truesize(const struct netperf *np,
			  const struct netperf_pair *pp, int truesize)
{
	if (np->flow != FLOW_TCP)
		return truesize;
	return (int)((pp->tp_r.rcv_wup - pp->tp_s.snd_una) /
		     np->message_bytes) *
	       message_truesize(np);
}

/*
 * The ACKs __tcp_ack_snd_check() sent while the running task processed
 * segments (in its CPU's softirq, or its release_sock()): each goes
 * through loopback to tcp_v6_rcv() on netperf's socket. SIM: after the
 * processing that sent it (netif_rx() queues it behind the segment in
 * the softirq; from release_sock() its softirq would run at once).
 */
struct netperf_acks_deliver_frame {
	struct co_frame co;
	struct netperf_pair *pp;
};

static int netperf_acks_deliver(struct sim_proc *p, void *frame)
{
	struct netperf_acks_deliver_frame *f = frame;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	while (pp->nr_acks_owed) {
		pp->nr_acks_owed--;
		CO_CALL(f, p, tcp_v6_rcv, .sk = &pp->sk_s,
			.truesize = TCP_SKB_HEAD_TRUESIZE);
	}
	CO_END(f, p);
}

/*
 * sk->sk_backlog_rcv() of the pair's sockets (sock.h): tcp_v6_do_rcv()
 * of one packet of @truesize on the pair's socket @sk by the running
 * task, in the softirq of its CPU or from the backlog at its
 * release_sock(): a data segment on sk_r is charged (and, from the
 * backlog, joins the messages queued), an ACK on sk_s frees the acked
 * skb; then the rest of PKT_RCV of work_ns.
 */
static int netperf_pkt_rcv(struct sim_proc *p, void *frame)
{
	struct sk_backlog_rcv_frame *f = frame;
	struct sim_task *t = p->owner;
	struct netperf *np = t->w->priv;
	struct netperf_pair *pp = f->sk->sk_user_data;
	bool data = f->sk == &pp->sk_r;
	unsigned int i;

	CO_BEGIN(f);
	pp->pkt_start[data] = NOW(p);
	if (data && !f->softirq) {
		/* the oldest backlogged message joins the queue */
		for (i = 0; i < pp->queued; i++)
			if (pp->in_backlog[(pp->head + i) % np->ring])
				break;
		SIM_BUG_ON(i >= pp->queued);
		pp->in_backlog[(pp->head + i) % np->ring] = false;
	}
	CO_CALL(f, p, tcp_v6_do_rcv, .sk = f->sk,
		.truesize = data ? f->truesize :
				   acked_truesize(np, pp, f->truesize),
		.softirq = f->softirq, .ack = !data);
	if (data && pp->tp_r.ack_sent_now) {
		/* __tcp_ack_snd_check()'s tcp_send_ack(), delivered later */
		pp->tp_r.ack_sent_now = false;
		pp->nr_acks_owed++;
		coh_delay(t->k.cc, eighths(np, RCV_ACK_XMIT));
	}
	/*
	 * FLOW_TCP: the ACK's window may let the sender go on
	 * (tcp_check_space() -> sk_write_space(); SIM: the sender waits for
	 * the window itself, not for send-buffer space)
	 */
	if (!data && np->flow == FLOW_TCP)
		snd_wake(np, pp, t);
	coh_delay(t->k.cc, eighths(np, PKT_RCV));
	CO_AWAIT(f, sim_proc_sync(p));
	trace_cpu_work(t,
		       !f->softirq ? "backlog release_sock" :
		       data	   ? "softirq tcp_data_queue" :
				     "softirq tcp_ack",
		       pp->pkt_start[data], NOW(p));
	CO_END(f, p);
}

struct netperf_schedule_frame {
	struct co_frame co;
	struct sim_task *t;
	struct netperf_pair *pp;
	enum netperf_wait wait;
};

static bool must_block(struct netperf *np, struct netperf_pair *pp,
		       enum netperf_wait wait)
{
	if (wait == NETPERF_WAIT_WINDOW)
		return sender_must_wait(np, pp);
	if (wait == NETPERF_WAIT_DATA)
		return !pp->queued;
	return sctp_sndbuf_short(&pp->sk_s, (unsigned int)np->message_bytes);
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
	if (sched_slice_expired(np->sf, task_se(np, t), NOW(&t->proc))) {
		CO_AWAIT(f, coh_fence(t->k.cc));
		CO_AWAIT(f, sim_proc_sync(p));
		netperf_switch(np, task_se(np, t)->cpu,
			       sched_yield_to_next(np->sf, task_se(np, t),
						   NOW(&t->proc)),
			       NOW(&t->proc));
		CO_AWAIT(f, netperf_wait(np, t, false));
		netperf_woken(np, t);
	}
	if (!must_block(np, pp, f->wait))
		CO_RETURN(f, p, 0);
	task_idle_begin(t);
	CO_AWAIT(f, coh_fence(t->k.cc));
	CO_AWAIT(f, sim_proc_sync(p));
	if (must_block(np, pp, f->wait)) {
		netperf_switch(np, task_se(np, t)->cpu,
			       sched_sleep(np->sf, task_se(np, t),
					   NOW(&t->proc)),
			       NOW(&t->proc));
		CO_AWAIT(f, netperf_wait(np, t, task_blocked(pp, np, f->wait)));
	}
	netperf_woken(np, t);
	task_idle_end(t);
	CO_END(f, p);
}

/*
 * The top of a task's loop: wait for its turn. Under sched: fair,
 * netperf_schedule() (block, or give the CPU up at the slice's end);
 * pinned, wait while there is nothing to do (the sender's window full,
 * no data for the receiver), counted as idle. Also SCTP's sender inside
 * sctp_wait_for_sndbuf() (netperf_sctp.c).
 */
int netperf_turn(struct sim_proc *p, void *frame)
{
	struct netperf_turn_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	CO_AWAIT(f, sim_proc_sync(p));
	if (np->sf) {
		CO_CALL(f, p, netperf_schedule, .t = t, .pp = pp,
			.wait = f->wait);
	} else if (must_block(np, pp, f->wait)) {
		task_idle_begin(t);
		netperf_switch(np, t->k.cc->cpu, NULL, NOW(&t->proc));
		CO_AWAIT(f, task_blocked(pp, np, f->wait));
		netperf_woken(np, t);
		task_idle_end(t);
	}
	CO_END(f, p);
}

/*
 * netperf (tcp): one sendfile() of a message a turn. The socket is held
 * (lock_sock()) from the first tcp_sendpage() through the push, whose
 * transmit runs the receive softirq on this CPU (tcp_v6_rcv() of the
 * segment at sk_r), to release_sock(), which processes the ACKs that
 * arrived meanwhile on this CPU.
 */
static int netperf_sender_tcp(struct sim_proc *p, void *frame)
{
	struct netperf_sender_tcp_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	while (task_running(t, np->run)) {
		CO_CALL(f, p, netperf_turn, .t = t, .pp = pp,
			.wait = NETPERF_WAIT_WINDOW);
		KPROF_ENTER(&t->prof, KF_WORK_SEND, NOW(&t->proc));
		coh_delay(t->k.cc, eighths(np, SND_SPLICE));
		f->truesize = message_truesize(np);
		/*
		 * SIM: the pages charged are work (--max-events), counted
		 * before the call that charges them all in one event.
		 */
		run_work(np->run,
			 (np->message_bytes + PAGE_SIZE - 1) / PAGE_SIZE,
			 t->proc.now);
		/* tcp_sendpage(): lock_sock(), the charges */
		CO_CALL(f, p, lock_sock, .sk = &pp->sk_s);
		CO_CALL(f, p, tcp_sendpage, .sk = &pp->sk_s,
			.offset = pp->sent * np->message_bytes,
			.size = (unsigned int)np->message_bytes);
		coh_delay(t->k.cc, eighths(np, SND_SENDPAGE + SND_XMIT));
		/* tcp_push() -> tcp_write_xmit() -> __tcp_transmit_skb() */
		CO_CALL(f, p, tcp_transmit_skb, .sk = &pp->sk_s,
			.len = (unsigned int)np->message_bytes);
		/* the segment, in this CPU's softirq: tcp_v6_rcv() on sk_r */
		CO_CALL(f, p, tcp_v6_rcv, .sk = &pp->sk_r,
			.truesize = f->truesize);
		f->backlogged = p->ret;
		/* queued, or on sk_r's backlog; the reader woken */
		CO_AWAIT(f, sim_proc_sync(p));
		msg_queued(np, pp, t, f->truesize, f->backlogged);
		/* the ACK the segment's processing sent, if any */
		if (pp->nr_acks_owed)
			CO_CALL(f, p, netperf_acks_deliver, .pp = pp);
		/* release_sock(): the ACKs backlogged meanwhile, on this CPU */
		CO_CALL(f, p, release_sock, .sk = &pp->sk_s);
		coh_delay(t->k.cc, eighths(np, SND_EXIT));
		KPROF_EXIT(&t->prof, NOW(&t->proc));
	}
	CO_END(f, p);
}

/*
 * netserver (tcp): one recv() a turn. tcp_recvmsg() holds the socket
 * from lock_sock() through tcp_recvmsg_locked(): the copy to user, the
 * skb's uncharge, and tcp_cleanup_rbuf()'s ACK, whose transmit runs the
 * receive softirq on this CPU (tcp_v6_rcv() of the ACK at sk_s);
 * release_sock() then charges the segments that arrived meanwhile, on
 * this CPU.
 */
static int netperf_receiver_tcp(struct sim_proc *p, void *frame)
{
	struct netperf_receiver_tcp_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	while (task_running(t, np->run)) {
		CO_CALL(f, p, netperf_turn, .t = t, .pp = pp,
			.wait = NETPERF_WAIT_DATA);
		task_op_begin(t);
		KPROF_ENTER(&t->prof, KF_WORK_RECV, NOW(&t->proc));
		coh_delay(t->k.cc, eighths(np, RCV_ENTRY));
		/* tcp_recvmsg(): lock_sock() */
		CO_CALL(f, p, lock_sock, .sk = &pp->sk_r);
		/*
		 * tcp_recvmsg_locked(): the next message still on the backlog
		 * (backlog: always) leaves the receive queue empty, and the
		 * wait for data (sk_wait_data()) processes the backlog first.
		 */
		while (pp->in_backlog[pp->head])
			CO_CALL(f, p, release_sock, .sk = &pp->sk_r,
				.flush = true);
		if (pp->nr_acks_owed)
			CO_CALL(f, p, netperf_acks_deliver, .pp = pp);
		f->truesize = pp->truesize[pp->head];
		coh_delay(t->k.cc, eighths(np, RCV_COPY));
		/* tcp_eat_recv_skb() -> sock_rfree() */
		CO_AWAIT(f, sim_proc_sync(p));
		if (np->backlog == BACKLOG_NEVER) {
			/* SIM: the softirq may be charging sk_r meanwhile */
			CO_AWAIT(f, bh_lock_sock(p, &pp->sk_r));
		}
		CO_CALL(f, p, tcp_eat_recv_skb, .sk = &pp->sk_r,
			.truesize = f->truesize,
			.len = (unsigned int)np->message_bytes);
		CO_AWAIT(f, sim_proc_sync(p));
		if (np->backlog == BACKLOG_NEVER)
			bh_unlock_sock(p, &pp->sk_r);
		/*
		 * tcp_cleanup_rbuf() -> tcp_send_ack(), in this CPU's softirq:
		 * FLOW_TCP, when the kernel's tests say so (SIM: no work
		 * without the ACK: its RCV_ACK_XMIT and, at netperf's socket,
		 * PKT_RCV are the ACK's); FLOW_MESSAGES, SIM: one ACK a
		 * message read, as before.
		 */
		f->ack = true;
		if (np->flow == FLOW_TCP) {
			CO_CALL(f, p, tcp_cleanup_rbuf, .sk = &pp->sk_r,
				.copied = (int)np->message_bytes);
			f->ack = p->ret;
		}
		if (f->ack) {
			coh_delay(t->k.cc, eighths(np, RCV_ACK_XMIT));
			CO_CALL(f, p, tcp_transmit_skb, .sk = &pp->sk_r,
				.len = 0);
			CO_CALL(f, p, tcp_v6_rcv, .sk = &pp->sk_s,
				.truesize = np->flow == FLOW_TCP ?
						    TCP_SKB_HEAD_TRUESIZE :
						    f->truesize);
		}
		/* the message is read; the ACK frees the sender's window */
		CO_AWAIT(f, sim_proc_sync(p));
		msg_read(np, pp, t);
		/* release_sock(): the segments backlogged meanwhile */
		CO_CALL(f, p, release_sock, .sk = &pp->sk_r);
		if (pp->nr_acks_owed)
			CO_CALL(f, p, netperf_acks_deliver, .pp = pp);
		coh_delay(t->k.cc, eighths(np, RCV_EXIT));
		KPROF_EXIT(&t->prof, NOW(&t->proc));
		task_op_end(t, np->run);
	}
	CO_END(f, p);
}

/*
 * netperf (unix: unix_stream_sendmsg(), no socket lock nor backlog; sctp:
 * sctp_sendmsg(), its accounting in netperf_sctp_send_accounting())
 */
static int netperf_sender_unix(struct sim_proc *p, void *frame)
{
	struct netperf_sender_unix_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	while (task_running(t, np->run)) {
		CO_CALL(f, p, netperf_turn, .t = t, .pp = pp,
			.wait = NETPERF_WAIT_WINDOW);
		KPROF_ENTER(&t->prof, KF_WORK_SEND, NOW(&t->proc));
		coh_delay(t->k.cc, np->work_ps / 2);
		f->truesize = message_truesize(np);
		CO_AWAIT(f, sim_proc_sync(p));
		if (np->protocol == PROTO_SCTP) {
			CO_CALL(f, p, netperf_sctp_send_accounting, .t = t,
				.pp = pp);
		} else {
			/* SIM: as tcp's pages: the skbs and pages are work */
			run_work(np->run,
				 (np->message_bytes + PAGE_SIZE - 1) /
					 PAGE_SIZE,
				 t->proc.now);
			CO_CALL(f, p, unix_stream_sendmsg, .memcg = pp->memcg,
				.len = np->message_bytes);
			coh_delay(t->k.cc, np->work_ps / 4);
		}
		/* the skb is on the peer's receive queue, the reader woken */
		CO_AWAIT(f, sim_proc_sync(p));
		msg_queued(np, pp, t, f->truesize, false);
		coh_delay(t->k.cc, np->work_ps / 2 - np->work_ps / 4);
		CO_AWAIT(f, sim_proc_sync(p));
		KPROF_EXIT(&t->prof, NOW(&t->proc));
	}
	CO_END(f, p);
}

/* netserver (unix: unix_stream_recvmsg(); sctp: sctp_recvmsg()) */
static int netperf_receiver_unix(struct sim_proc *p, void *frame)
{
	struct netperf_receiver_unix_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	while (task_running(t, np->run)) {
		CO_CALL(f, p, netperf_turn, .t = t, .pp = pp,
			.wait = NETPERF_WAIT_DATA);
		task_op_begin(t);
		f->truesize = pp->truesize[pp->head];
		KPROF_ENTER(&t->prof, KF_WORK_RECV, NOW(&t->proc));
		coh_delay(t->k.cc, np->work_ps / 2);
		if (np->protocol == PROTO_SCTP) {
			CO_CALL(f, p, netperf_sctp_recv_accounting, .t = t,
				.pp = pp);
		} else {
			run_work(np->run,
				 (np->message_bytes + PAGE_SIZE - 1) /
					 PAGE_SIZE,
				 t->proc.now);
			CO_CALL(f, p, unix_stream_recvmsg, .memcg = pp->memcg,
				.len = np->message_bytes);
			coh_delay(t->k.cc, np->work_ps / 4);
		}
		CO_AWAIT(f, sim_proc_sync(p));
		coh_delay(t->k.cc, np->work_ps / 2 - np->work_ps / 4);
		KPROF_EXIT(&t->prof, NOW(&t->proc));
		CO_AWAIT(f, sim_proc_sync(p));
		msg_read(np, pp, t);
		task_op_end(t, np->run);
	}
	CO_END(f, p);
}

/* A CPU of the list that no pair uses. */
static int netperf_idle(struct sim_proc *p, void *frame)
{
	struct netperf_idle_frame *f = frame;

	CO_BEGIN(f);
	CO_END(f, p);
}

/*
 * sched: fair, the scheduler tick on every CPU (HZ=1000): the periodic
 * load balance; a task pulled to an idle CPU runs there at once (a
 * migration: netperf_run() charges its cold cache), one pulled to a busy
 * CPU waits there for it.
 */
static void netperf_tick(void *arg, uint64_t data)
{
	struct netperf *np = arg;
	sim_time_t now = sim_now(np->run->engine);
	unsigned int i, n, max = np->run->machine.nr_cpus;
	struct sched_task **started = calloc(max, sizeof(*started));

	(void)data;
	SIM_OOM_ON(!started);
	n = sched_balance_tick(np->sf, now, started, max);
	for (i = 0; i < n; i++)
		netperf_run(np, started[i], now);
	free(started);
	if (now + SCHED_TICK_PS < np->run->end_ps)
		sim_schedule(np->run->engine, now + SCHED_TICK_PS, netperf_tick,
			     np, 0);
}

/* The trace: the name of @t's own track (sched: fair), "netperf 3". */
static void netperf_trace_name(struct sim_task *t, const char *role,
			       unsigned int pair)
{
	struct sim_trace *tr = coh_trace(t->k.cc->coh);
	char name[48];

	if (!tr)
		return;
	snprintf(name, sizeof(name), "task %s %u", role, pair);
	sim_trace_thread(tr, coh_trace_pid_cpus(t->k.cc->coh),
			 (int)t->proc.trace_tid, name, (int)t->proc.trace_tid);
}

/*
 * sched: fair: every task of a pair may run on any CPU of the list; each
 * starts on the CPU the placement gives it (one task a CPU).
 */
static void netperf_sched_setup(struct netperf *np, struct workload *w)
{
	unsigned int i, j;

	np->sf = sched_fair_create(&np->run->machine,
				   np->run->kernel->sched_class);
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

		sched_task_start(np->sf, task_se(np, pp->snd),
				 pp->snd->k.cc->cpu, 0);
		sched_task_start(np->sf, task_se(np, pp->rcv),
				 pp->rcv->k.cc->cpu, 0);
		netperf_trace_name(pp->snd, "netperf", i);
		netperf_trace_name(pp->rcv, "netserver", i);
	}
	sim_schedule(np->run->engine, SCHED_TICK_PS, netperf_tick, np, 0);
}

/* The first frame of @task's loop @fn, for @pair. */
#define NETPERF_PUSH(task, fn, pair)                                     \
	do {                                                             \
		struct fn##_frame *push_f_ = CO_PUSH(&(task)->proc, fn); \
		push_f_->t = (task);                                     \
		push_f_->pp = (pair);                                    \
	} while (0)

/*
 * The socket @sk of pair @pp, whose task waits while *@sleeps: its
 * receive goes through netperf_pkt_rcv(), tcp_v6_rcv() follows
 * `backlog:`, and its packets count from the warm-up's end.
 */
static void netperf_sock_init(const struct netperf *np, struct netperf_pair *pp,
			      struct sock *sk, const bool *sleeps)
{
	sk->sk_user_data = pp;
	sk->sk_backlog_rcv = netperf_pkt_rcv;
	sk->backlog_policy = (enum sk_backlog_policy)np->backlog;
	sk->owner_sleeps = sleeps;
	sk->count_from = np->run->warmup_ps;
	/* netperf's sender sleeps only for space: its window is full */
	if (sk == &pp->sk_s)
		sk->nospace = sleeps;
}

/*
 * tcp: the pair's window state. SIM: the steady state of a long stream.
 * netserver's receive buffer is at its autotuned bound, tcp_rmem[2]:
 * tcp_rcv_space_adjust() raises sk_rcvbuf once an RTT to
 * rcvwin / advmss * SKB_TRUESIZE(advmss + MAX_TCP_HEADER), rcvwin being
 * 2 * copied + 16 * advmss plus twice its growth over the last RTT's
 * copied, and never lowers it: on loopback (advmss 65476, truesize about
 * 66.4 KB a segment) the first RTT that copies anything more than the
 * last sets at least 16 * 66.4 KB = 1.06 MB, and each RTT that copies
 * more than the one before ratchets it on, up to tcp_rmem[2] (6291456)
 * over a run of millions of RTTs. netperf's socket never reads data:
 * its buffer stays at tcp_rmem[1] (131072) and its window, offered on
 * every segment it sends, always at the full space (no walk).
 */
static void netperf_tcp_init(const struct netperf *np, struct netperf_pair *pp)
{
	tcp_sock_init(&pp->sk_s, &pp->tp_s, TCP_RMEM_DEFAULT);
	tcp_sock_init(&pp->sk_r, &pp->tp_r, TCP_RMEM_MAX);
	pp->tp_s.peer = &pp->tp_r;
	pp->tp_r.peer = &pp->tp_s;
	/* FLOW_TCP: netserver ACKs as the kernel decides (tcp.h) */
	pp->tp_r.kernel_acks = np->flow == FLOW_TCP;
	/* the window of the handshake's last ACK */
	tcp_ack_update_window(&pp->tp_s);
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
	/* FLOW_TCP: as many messages as netserver's receive buffer holds */
	np->ring = np->flow == FLOW_TCP ?
			   (unsigned int)(TCP_RMEM_MAX / message_truesize(np)) :
			   (unsigned int)np->window;
	if (!np->ring)
		np->ring = 1;
	for (i = 0; i < np->instances; i++) {
		struct netperf_pair *pp = &np->pairs[i];

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
		/*
		 * mem_cgroup_sk_alloc(): a socket belongs to the memcg of the
		 * task that creates it (netperf's, in socket()) or accepts it
		 * (netserver's, in inet_csk_accept()); none in the root memcg,
		 * none on cgroup v1 until memory.kmem.tcp's limit is written.
		 */
		if (!run->kernel->memcg_disabled &&
		    (run->kernel->cgroup_version == 2 ||
		     memcg1_tcpmem_active(run->kernel))) {
			if (!mem_cgroup_is_root(run->memcg, pp->memcg))
				pp->sk_s.sk_memcg = pp->memcg;
			if (!mem_cgroup_is_root(run->memcg, pp->s_memcg))
				pp->sk_r.sk_memcg = pp->s_memcg;
		}
		pp->truesize = calloc(np->ring, sizeof(*pp->truesize));
		pp->in_backlog = calloc(np->ring, sizeof(*pp->in_backlog));
		SIM_OOM_ON(!pp->truesize || !pp->in_backlog);
		/*
		 * sk_r's backlog holds messages of the ring; sk_s's, one
		 * ACK per message read while netperf held its socket (SIM:
		 * twice the ring bounds what `backlog: always` can leave)
		 */
		sk_backlog_init(&pp->sk_r, np->ring);
		sk_backlog_init(&pp->sk_s, 2 * np->ring + 2);
		if (np->protocol == PROTO_TCP)
			netperf_tcp_init(np, pp);
		netperf_sock_init(np, pp, &pp->sk_s, &pp->snd_waiting);
		netperf_sock_init(np, pp, &pp->sk_r, &pp->rcv_waiting);
		if (np->protocol == PROTO_SCTP)
			netperf_sctp_sock_init(pp);
		if (np->protocol == PROTO_TCP) {
			NETPERF_PUSH(pp->snd, netperf_sender_tcp, pp);
			NETPERF_PUSH(pp->rcv, netperf_receiver_tcp, pp);
		} else {
			NETPERF_PUSH(pp->snd, netperf_sender_unix, pp);
			NETPERF_PUSH(pp->rcv, netperf_receiver_unix, pp);
		}
	}
	if (run->machine.nr_idle_states &&
	    run->kernel->cpuidle != CPUIDLE_POLL) {
		np->idle = cpuidle_devices_create(run->machine.nr_cpus,
						  run->kernel->cpuidle ==
							  CPUIDLE_TEO);
		np->wake_pending =
			calloc(w->nr_tasks, sizeof(*np->wake_pending));
		SIM_OOM_ON(!np->wake_pending);
	}
	if (np->sched == SCHED_FAIR)
		netperf_sched_setup(np, w);
	/*
	 * CPUs of the list beyond the pairs stay idle, their time [no task]
	 * in the profile: not [other], which is a task's time outside the
	 * modelled functions (ux-review-3 finding 6).
	 */
	for (i = 2 * (unsigned int)np->instances; i < w->nr_tasks; i++) {
		KPROF_ENTER(&w->tasks[order[i]].prof, KF_NO_TASK, 0);
		CO_PUSH(&w->tasks[order[i]].proc, netperf_idle);
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
			sk_backlog_free(&np->pairs[i].sk_r);
			sk_backlog_free(&np->pairs[i].sk_s);
			free(np->pairs[i].in_backlog);
		}
	}
	free(np->pairs);
	sched_fair_free(np->sf);
	free(np->se);
	free(np->ran_cpu);
	free(np->idle);
	free(np->wake_pending);
	free(np);
	w->priv = NULL;
}

/*
 * host-run's program: a pair of processes per instance, pinned where its
 * tasks are, streaming message_bytes over loopback (af_unix, TCP, or
 * SCTP's one-to-one sockets, where the host's kernel offers SCTP).
 */
static int netperf_host(const struct workload *w, struct workload_host *h)
{
	const struct netperf *np = w->priv;
	unsigned int i;

	if (np->server_path[0] || np->client_prefix[0]) {
		snprintf(
			h->why, sizeof(h->why),
			"netserver and netperf in cgroups of their own: not built on the host");
		return -1;
	}
	h->kind = np->protocol == PROTO_UNIX ? WH_UNIX_STREAM :
		  np->protocol == PROTO_SCTP ? WH_SCTP_STREAM :
					       WH_TCP_STREAM;
	h->bytes = np->message_bytes;
	h->nr_pairs = (unsigned int)np->instances;
	for (i = 0; i < h->nr_pairs; i++) {
		h->pair_task[2 * i] =
			(unsigned int)(np->pairs[i].snd - w->tasks);
		h->pair_task[2 * i + 1] =
			(unsigned int)(np->pairs[i].rcv - w->tasks);
	}
	return 0;
}

/*
 * A message's pages are units of work (run_work() in the senders and
 * unix's receiver): TCP's sender counts them, unix's sender and receiver
 * both, SCTP's accounting none. An operation is a message received.
 */
static double netperf_op_work(const struct workload *w, double *repeat)
{
	const struct netperf *np = w->priv;
	double pages =
		(double)((np->message_bytes + PAGE_SIZE - 1) / PAGE_SIZE);

	(void)repeat;
	if (np->protocol == PROTO_UNIX)
		return 2 * pages;
	return np->protocol == PROTO_TCP ? pages : 0;
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
	.metrics = netperf_metrics,
	.explain = netperf_explain,
	.host = netperf_host,
	.op_work = netperf_op_work,
};
