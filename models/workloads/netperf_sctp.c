// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/workloads/netperf_sctp.c - netperf's protocol: sctp
 * (SCTP_STREAM and SCTP_STREAM_MANY). The socket accounting the kernel
 * does per message is in models/kernel/net/sctp/sctp.c; doc/socket-accounting.md
 * section 3a derives it. This file runs it from the pair's tasks, in the
 * af_unix-shaped loops of netperf.c (no socket backlog is modelled).
 */
#include "models/kernel/net/sctp/sctp.h"
#include "models/workloads/netperf_internal.h"
#include "sim/error.h"

/*
 * ---- protocol: sctp (models/kernel/net/sctp/sctp.h has the kernel's paths) ----
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
int netperf_sctp_check(const struct scenario_node *n, const struct netperf *np,
		       struct sim_error *err)
{
	if (np->message_bytes > SCTP_LO_FRAG_MAX) {
		scenario_error(
			err, scenario_get(n, "message_bytes"),
			"protocol sctp models one DATA chunk per message: 'message_bytes' must be at most %d (the loopback fragmentation point)",
			SCTP_LO_FRAG_MAX);
		return -1;
	}
	if (np->backlog != BACKLOG_AUTO) {
		scenario_error(err, scenario_get(n, "backlog"),
			       "'backlog' is modelled for protocol tcp only");
		return -1;
	}
	return 0;
}

int netperf_sctp_send_accounting(struct sim_proc *p, void *frame)
{
	struct netperf_sctp_send_accounting_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	CO_CALL(f, p, sctp_sendmsg_to_asoc, .sk = &pp->sk_s,
		.msg_len = (unsigned int)np->message_bytes);
	coh_delay(t->k.cc, np->work_ps / 4);
	/* loopback: sctp_rcv() in this CPU's softirq, bh_lock_sock(sk_r) */
	CO_AWAIT(f, sim_proc_sync(p));
	CO_AWAIT(f, bh_lock_sock(p, &pp->sk_r));
	CO_CALL(f, p, sctp_ulpevent_make_rcvmsg, .sk = &pp->sk_r,
		.msg_len = (unsigned int)np->message_bytes);
	CO_AWAIT(f, sim_proc_sync(p));
	bh_unlock_sock(p, &pp->sk_r);
	/* sctp_gen_sack(): a SACK for every SCTP_SACKFREQ-th packet */
	if ((pp->sent + 1) % SCTP_SACKFREQ == 0)
		CO_CALL(f, p, sctp_outq_sack, .sk = &pp->sk_s,
			.msg_len = (unsigned int)np->message_bytes,
			.nr = SCTP_SACKFREQ);
	CO_END(f, p);
}

int netperf_sctp_recv_accounting(struct sim_proc *p, void *frame)
{
	struct netperf_sctp_recv_accounting_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	CO_AWAIT(f, sim_proc_sync(p));
	CO_AWAIT(f, bh_lock_sock(p, &pp->sk_r));
	CO_CALL(f, p, sctp_sock_rfree, .sk = &pp->sk_r,
		.msg_len = (unsigned int)np->message_bytes);
	CO_AWAIT(f, sim_proc_sync(p));
	bh_unlock_sock(p, &pp->sk_r);
	coh_delay(t->k.cc, np->work_ps / 4);
	CO_END(f, p);
}
