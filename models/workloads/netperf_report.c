// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/workloads/netperf_report.c - what netperf reports beyond its
 * throughput: the share of data segments and ACKs that went through a
 * socket backlog (the backlog_share metrics, and explain's paragraph),
 * and (tcp) the socket-pressure walks by caller and the receive queue.
 */
#include <stdio.h>

#include "models/workloads/netperf_internal.h"

/* after the warm-up: [SK_S] ACKs, [SK_R] data segments, and how many of
 * them went through a backlog */
static void netperf_backlog_counts(const struct netperf *np, uint64_t *arrived,
				   uint64_t *backlogged)
{
	unsigned int i, k;

	arrived[SK_S] = arrived[SK_R] = 0;
	backlogged[SK_S] = backlogged[SK_R] = 0;
	for (i = 0; np->pairs && i < np->instances; i++) {
		for (k = SK_S; k <= SK_R; k++) {
			const struct sock *sk = k == SK_S ? &np->pairs[i].sk_s :
							    &np->pairs[i].sk_r;

			arrived[k] += sk->arrived;
			backlogged[k] += sk->backlogged;
		}
	}
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static double per(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

/*
 * backlog_share: of the data segments and ACKs (tcp), the percentage that
 * arrived while their socket's task held it and went through its backlog;
 * and each kind's own.
 */
unsigned int netperf_metrics(const struct workload *w,
			     struct workload_metric *m, unsigned int max)
{
	const struct netperf *np = w->priv;
	uint64_t arrived[2], backlogged[2];

	if (max < 3)
		return 0;
	netperf_backlog_counts(np, arrived, backlogged);
	m[0] = (struct workload_metric){ "backlog_share", "%",
					 share(backlogged[SK_S] +
						       backlogged[SK_R],
					       arrived[SK_S] + arrived[SK_R]) };
	m[1] = (struct workload_metric){ "backlog_share_segments", "%",
					 share(backlogged[SK_R],
					       arrived[SK_R]) };
	m[2] = (struct workload_metric){ "backlog_share_acks", "%",
					 share(backlogged[SK_S],
					       arrived[SK_S]) };
	return 3;
}

/*
 * protocol: sctp: the backlogs, and the sends that waited for the send
 * buffer (sctp_wait_for_sndbuf()) after the warm-up
 */
static void netperf_sctp_explain(const struct netperf *np, FILE *out)
{
	uint64_t arrived[2], backlogged[2], waits = 0, sent = 0;
	unsigned int i;

	netperf_backlog_counts(np, arrived, backlogged);
	for (i = 0; np->pairs && i < np->instances; i++) {
		waits += np->pairs[i].sndbuf_waits;
		sent += np->pairs[i].sk_r.arrived;
	}
	fprintf(out,
		"\nSocket backlogs (netperf, backlog: %s): of %llu DATA packets, %llu\n"
		"(%.1f%%) arrived while netserver held its socket (sctp_recvmsg()) and\n"
		"were charged at its release_sock(); of %llu SACKs, %llu (%.1f%%) waited\n"
		"for netperf's release_sock(). Send buffer: %llu sends (%.1f%%) found it\n"
		"full and waited in sctp_wait_for_sndbuf() for a SACK to free chunks.\n",
		netperf_backlog_names[np->backlog],
		(unsigned long long)arrived[SK_R],
		(unsigned long long)backlogged[SK_R],
		share(backlogged[SK_R], arrived[SK_R]),
		(unsigned long long)arrived[SK_S],
		(unsigned long long)backlogged[SK_S],
		share(backlogged[SK_S], arrived[SK_S]),
		(unsigned long long)waits, share(waits, sent));
}

/*
 * tcp: the walks of tcp_under_memory_pressure() by caller, per data
 * segment netserver's socket received after the warm-up, and the
 * deepest receive queue (messages)
 */
static void netperf_tcp_walks_explain(const struct netperf *np, FILE *out)
{
	uint64_t walks[2][TCP_WALK_NR] = { { 0 } }, segs = 0, acks = 0;
	unsigned int i, k, deepest = 0;

	for (i = 0; np->pairs && i < np->instances; i++) {
		const struct netperf_pair *pp = &np->pairs[i];

		segs += pp->sk_r.arrived;
		acks += pp->tp_r.acks;
		for (k = 0; k < TCP_WALK_NR; k++) {
			walks[SK_S][k] += pp->tp_s.walks[k];
			walks[SK_R][k] += pp->tp_r.walks[k];
		}
		if (pp->queued_max > deepest)
			deepest = pp->queued_max;
	}
	fprintf(out,
		"\nSocket-pressure walks per message (tcp_under_memory_pressure(),\n"
		"flow_control: %s):\n"
		"  __tcp_select_window()   netserver %.3f   netperf %.3f\n"
		"  tcp_grow_window()       netserver %.3f\n"
		"  tcp_check_space()       netperf %.3f\n"
		"netserver's deepest receive queue: %u messages. __tcp_select_window()\n"
		"walks past half its receive buffer (%d bytes of truesize, %llu\n"
		"messages), tcp_grow_window() while rcv_ssthresh can grow,\n"
		"tcp_check_space() while netperf waits for room.\n"
		"netserver's ACKs per message: %.3f (%s).\n",
		np->flow == FLOW_TCP ? "tcp" : "messages",
		per(walks[SK_R][TCP_WALK_SELECT_WINDOW], segs),
		per(walks[SK_S][TCP_WALK_SELECT_WINDOW], segs),
		per(walks[SK_R][TCP_WALK_GROW_WINDOW], segs),
		per(walks[SK_S][TCP_WALK_CHECK_SPACE], segs), deepest,
		np->pairs ? np->pairs[0].sk_r.sk_rcvbuf / 2 : 0,
		np->pairs ?
			(unsigned long long)(np->pairs[0].sk_r.sk_rcvbuf / 2 /
					     (TCP_SKB_HEAD_TRUESIZE +
					      (int)np->message_bytes)) :
			0ULL,
		per(acks, segs),
		np->flow == FLOW_TCP ?
			"as tcp_cleanup_rbuf() and\n__tcp_ack_snd_check() decide" :
			"SIM: one a message read");
}

void netperf_explain(const struct workload *w, FILE *out)
{
	const struct netperf *np = w->priv;
	uint64_t arrived[2], backlogged[2];

	if (np->protocol == PROTO_SCTP)
		netperf_sctp_explain(np, out);
	if (np->protocol != PROTO_TCP)
		return;
	netperf_backlog_counts(np, arrived, backlogged);
	fprintf(out,
		"\nSocket backlogs (netperf, backlog: %s): %.1f%% of the packets went\n"
		"through a backlog. Of %llu data segments, %llu (%.1f%%) arrived while\n"
		"netserver held its socket (tcp_recvmsg()) and were charged at its\n"
		"release_sock() on the receiver's CPU; the rest were charged in the\n"
		"receive softirq on the sender's CPU. Of %llu ACKs, %llu (%.1f%%) arrived\n"
		"while netperf held its socket (tcp_sendpage()) and were processed, the\n"
		"sent skb uncharged, at its release_sock() on the sender's CPU; the rest\n"
		"in the softirq on the receiver's CPU.\n",
		netperf_backlog_names[np->backlog],
		share(backlogged[SK_S] + backlogged[SK_R],
		      arrived[SK_S] + arrived[SK_R]),
		(unsigned long long)arrived[SK_R],
		(unsigned long long)backlogged[SK_R],
		share(backlogged[SK_R], arrived[SK_R]),
		(unsigned long long)arrived[SK_S],
		(unsigned long long)backlogged[SK_S],
		share(backlogged[SK_S], arrived[SK_S]));
	netperf_tcp_walks_explain(np, out);
}
