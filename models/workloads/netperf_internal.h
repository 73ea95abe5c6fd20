/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/workloads/netperf_internal.h - what netperf.c (the workload,
 * tcp and af_unix) and netperf_sctp.c (protocol: sctp) share: the pair
 * of sockets and tasks, the workload's settings, and the socket
 * spinlock. See netperf.c for the theory of operation.
 *
 * Layering: private to models/workloads/netperf*.c.
 */
#ifndef MODELS_WORKLOADS_NETPERF_INTERNAL_H
#define MODELS_WORKLOADS_NETPERF_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include "models/kernel/mm/memcontrol.h"
#include "models/kernel/drivers/cpuidle/menu.h"
#include "models/kernel/kernel/sched/fair.h"
#include "models/kernel/net/core/sock.h"
#include "models/kernel/net/ipv4/tcp.h"
#include "models/workloads/workload.h"
#include "sim/co.h"
#include "sim/scenario.h"

enum { PROTO_TCP, PROTO_UNIX, PROTO_SCTP };
enum { PLACE_RANDOM, PLACE_ADJACENT };
enum { SCHED_PINNED, SCHED_FAIR };
enum { FLOW_MESSAGES, FLOW_TCP };
enum {
	BACKLOG_AUTO = SK_BACKLOG_AUTO,
	BACKLOG_NEVER = SK_BACKLOG_NEVER,
	BACKLOG_ALWAYS = SK_BACKLOG_ALWAYS
};

struct netperf_pair {
	struct sim_task *snd, *rcv;
	struct sock sk_s, sk_r; /* netperf's and netserver's */
	struct tcp_sock tp_s, tp_r; /* tcp: their window state */
	struct mem_cgroup *memcg; /* netperf's: its socket, af_unix pages */
	struct mem_cgroup *s_memcg; /* netserver's: the accepted socket */
	unsigned int queued; /* messages at the receiver */
	unsigned int queued_max; /* the most, after the warm-up */
	unsigned int head; /* ring of their truesizes */
	int *truesize; /* [ring] */
	bool snd_waiting, rcv_waiting;
	bool snd_wspace_waiting; /* sctp: in sctp_wait_for_sndbuf() */
	uint64_t sndbuf_waits; /* sctp: sends that waited, after warm-up */
	bool *in_backlog; /* [ring]: on sk_r's backlog, not yet charged */
	/*
	 * tcp, flow_control tcp: the ACKs __tcp_ack_snd_check() sent while
	 * segments were processed, to deliver (tcp_v6_rcv() on sk_s) once
	 * that processing is done
	 */
	unsigned int nr_acks_owed;
	uint64_t sent; /* messages sent */
	/*
	 * When netperf_pkt_rcv() began on sk_s and on sk_r, for the trace
	 * (the socket's frame is the kernel's hook's): a socket processes
	 * one packet at a time, under its spinlock or as its owner
	 */
	sim_time_t pkt_start[2];
};

struct netperf {
	uint64_t instances, message_bytes, window;
	/*
	 * What stops the sender (`flow_control`): FLOW_MESSAGES, `window`
	 * messages queued at the receiver; FLOW_TCP (tcp), the window the
	 * receiver advertised. @ring: the most messages that can be queued
	 * (the rings' size): `window`, or for FLOW_TCP as many as the
	 * receive buffer holds.
	 */
	unsigned int flow, ring;
	sim_time_t work_ps;
	unsigned int protocol, placement;
	unsigned int report; /* 0: per instance, 1: the total */
	unsigned int backlog; /* BACKLOG_*: see the header */
	const char *server_cgroup; /* netserver's cgroup, as read */
	const char *client_cgroups; /* instance i's netperf: this + (i+1) */
	char server_path[128], client_prefix[128]; /* copies; "": none */
	unsigned int sched; /* SCHED_PINNED or SCHED_FAIR */
	struct sched_fair *sf; /* sched: fair */
	struct sched_task *se; /* [nr_tasks]: each task's, by index */
	unsigned int *ran_cpu; /* [nr_tasks]: where it last ran */
	/*
	 * With the profile's idle_states: each CPU's cpuidle device
	 * [nr_cpus], and what each task's wake-up onto an idle CPU costs
	 * it, paid when it runs [nr_tasks]; NULL: wake-ups are free.
	 */
	struct cpuidle_device *idle;
	sim_time_t *wake_pending;
	struct netperf_pair *pairs;
	struct run *run;
};

/* The pair's sockets, as indexes (netperf_report.c) */
enum { SK_S, SK_R };

/* `backlog:`'s values, by BACKLOG_* */
extern const char *const netperf_backlog_names[];

/* The backlog shares after the warm-up (netperf_report.c) */
unsigned int netperf_metrics(const struct workload *w,
			     struct workload_metric *m, unsigned int max);
void netperf_explain(const struct workload *w, FILE *out);

/* What a task waits for at the top of its loop or in a send */
enum netperf_wait {
	NETPERF_WAIT_WINDOW, /* the sender: the window is full */
	NETPERF_WAIT_DATA, /* the receiver: no message */
	NETPERF_WAIT_SNDBUF, /* sctp's sender: sctp_wait_for_sndbuf() */
};

/* netperf_turn(): wait, for @wait, as the task's scheduling says */
struct netperf_turn_frame {
	struct co_frame co;
	struct sim_task *t;
	struct netperf_pair *pp;
	enum netperf_wait wait;
};

int netperf_turn(struct sim_proc *p, void *frame);

/*
 * try_to_wake_up() of @wakee by @waker at @now (pinned: at once; fair:
 * where select_task_rq_fair() puts it)
 */
void netperf_wake(struct netperf *np, struct sim_task *wakee,
		  struct sim_task *waker, sim_time_t now);

/* protocol: sctp (netperf_sctp.c) */
void netperf_sctp_sock_init(struct netperf_pair *pp);
bool netperf_sctp_sndbuf_blocked(struct netperf_pair *pp, struct netperf *np);
int netperf_sctp_check(const struct scenario_node *n, const struct netperf *np,
		       struct sim_error *err);

struct netperf_sctp_send_accounting_frame {
	struct co_frame co;
	struct sim_task *t;
	struct netperf_pair *pp;
	/* locals */
	bool backlogged; /* the DATA packet went to sk_r's backlog */
};

struct netperf_sctp_recv_accounting_frame {
	struct co_frame co;
	struct sim_task *t;
	struct netperf_pair *pp;
};

int netperf_sctp_send_accounting(struct sim_proc *p, void *frame);
int netperf_sctp_recv_accounting(struct sim_proc *p, void *frame);

/*
 * @t, woken, pays its CPU's wake-up from an idle state (menu.h) as
 * [wake], before task_idle_end(): its SMT sibling runs unslowed meanwhile.
 */
static inline void netperf_woken(struct netperf *np, struct sim_task *t)
{
	sim_time_t cost;

	if (!np->idle)
		return;
	if (!np->sf)
		np->wake_pending[t->index] +=
			cpuidle_wake(&np->idle[t->k.cc->cpu], &np->run->machine,
				     NOW(&t->proc));
	cost = np->wake_pending[t->index];
	np->wake_pending[t->index] = 0;
	task_pay_wake(t, cost);
}

#endif /* MODELS_WORKLOADS_NETPERF_INTERNAL_H */
