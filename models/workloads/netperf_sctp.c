// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/workloads/netperf_sctp.c - netperf's protocol: sctp
 * (SCTP_STREAM and SCTP_STREAM_MANY). The socket accounting the kernel
 * does per message is in models/kernel/net/sctp/sctp.c; doc/socket-accounting.md
 * section 3a derives it. This file runs it from the pair's tasks, in the
 * af_unix-shaped loops of netperf.c, with the socket lock's ownership
 * and backlog of models/kernel/net/core/sock.h (net/sctp/socket.c,
 * net/sctp/input.c, v6.0).
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
 *   sender CPU, softirq (loopback): sctp_eat_data(): the memcg's
 *     socket-pressure walk; sctp_ulpevent_make_rcvmsg():
 *     sk_rmem_schedule(16 + msg), sk_mem_charge(msg + sizeof(sk_buff))
 *                                                        (receiver's socket)
 *   sender CPU, every second message: the SACK the receiving association
 *     sends back is processed here: sctp_wfree() of both chunks,
 *     sk_mem_uncharge(chunk truesize) x 2                (sender's socket)
 *   receiver CPU, task: sctp_recvmsg() -> sctp_sock_rfree():
 *     sk_mem_uncharge(msg + sizeof(sk_buff))             (receiver's socket)
 *
 * Socket ownership (`backlog: auto`): sctp_sendmsg() holds netperf's
 * socket (lock_sock()) from its start through the transmit to
 * release_sock(), and sctp_recvmsg() holds netserver's from its start
 * through the copy and sctp_ulpevent_free() to release_sock(). sctp_rcv()
 * takes the packet's socket's spinlock (bh_lock_sock()) and, if
 * sock_owned_by_user(), sctp_add_backlog() queues the packet uncharged;
 * release_sock() -> __release_sock() -> sctp_backlog_rcv() processes it
 * in the owner's process context, on the owner's CPU. So:
 *   a DATA packet arriving while netserver reads is charged (and its
 *     SACK sent) on the receiver's CPU, at netserver's release_sock();
 *   a SACK always finds netperf's socket owned when it is sent from
 *     the sender's softirq (netperf is inside sctp_sendmsg()): it waits
 *     for netperf's release_sock(), on the sender's CPU; a SACK sent
 *     from netserver's release_sock() is processed there, on the
 *     receiver's CPU, unless netperf holds its socket then.
 * `backlog: never` (SIM: teaching) leaves both sockets unowned: every
 * packet is processed in the softirq of the sender's CPU, the pipeline
 * the model had before ownership; `always` is refused for sctp.
 * The send buffer's gate (sctp.h): after lock_sock(), a sender whose
 * socket's sctp_wspace() is not positive waits in sctp_wait_for_sndbuf():
 * release_sock() (the SACKs backlogged meanwhile free their chunks),
 * sleep until a SACK frees enough, lock_sock(), as long as the message
 * does not fit. SIM: the sender is woken by the sctp_wfree() after which
 * the message fits, not by each one that leaves the space positive (it
 * would look, find too little, and sleep again).
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
	if (np->backlog == BACKLOG_ALWAYS) {
		scenario_error(
			err, scenario_get(n, "backlog"),
			"'backlog: always' is modelled for protocol tcp only (sctp: auto or never)");
		return -1;
	}
	return 0;
}

/* The pair's send buffer: netperf's socket, and the wake-up of its gate */
static void netperf_sctp_write_space(struct sim_proc *p, struct sock *sk);

void netperf_sctp_sock_init(struct netperf_pair *pp)
{
	sctp_init_sock(&pp->sk_s);
	sctp_init_sock(&pp->sk_r);
	pp->sk_s.sk_write_space = netperf_sctp_write_space;
}

/*
 * For CO_AWAIT() in sctp_wait_for_sndbuf(): true, the sender marked as
 * waiting, while its message does not fit.
 */
bool netperf_sctp_sndbuf_blocked(struct netperf_pair *pp, struct netperf *np)
{
	pp->snd_wspace_waiting =
		sctp_sndbuf_short(&pp->sk_s, (unsigned int)np->message_bytes);
	return pp->snd_wspace_waiting;
}

/* __sctp_write_space() by @p's task: the waiting sender woken, if it fits */
static void netperf_sctp_write_space(struct sim_proc *p, struct sock *sk)
{
	struct netperf_pair *pp = sk->sk_user_data;
	struct sim_task *waker = p->owner;
	struct netperf *np = waker->w->priv;

	if (!pp->snd_wspace_waiting ||
	    sctp_sndbuf_short(sk, (unsigned int)np->message_bytes))
		return;
	pp->snd_wspace_waiting = false;
	netperf_wake(np, pp->snd, waker, NOW(p));
}

/* Whether the pair's sockets are ever owned (`backlog: auto`). */
static bool sctp_owning(const struct netperf *np)
{
	return np->backlog == BACKLOG_AUTO;
}

/* The pair's tasks, as the frames below name the one running */
enum { SND, RCV };

/* Counts for backlog_share, after the warm-up: the packet at @sk. */
static void sctp_count(struct netperf *np, struct netperf_pair *pp, int sk,
		       sim_time_t now, bool backlogged)
{
	struct sock *s = sk == SK_S ? &pp->sk_s : &pp->sk_r;

	if (now < np->run->warmup_ps)
		return;
	s->arrived++;
	s->backlogged += backlogged;
}

/*
 * The SACK the receiving association sends after a DATA packet it has
 * processed (sctp_gen_sack(): every SCTP_SACKFREQ-th), transmitted over
 * loopback by task @who's CPU: sctp_rcv() on netperf's socket, under
 * its spinlock; backlogged if netperf owns it, else sctp_outq_sack() of
 * the acked chunks here.
 */
struct sctp_sack_arrive_frame {
	struct co_frame co;
	struct sim_task *t;
	struct netperf_pair *pp;
	int who;
	/* locals */
	bool backlogged;
};

static int sctp_sack_arrive(struct sim_proc *p, void *frame)
{
	struct sctp_sack_arrive_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct netperf_pair *pp = f->pp;
	struct sock *sk_r = &pp->sk_r;

	CO_BEGIN(f);
	/* the DATA packets processed so far: arrived, less those queued */
	if ((sk_r->rcv_skbs - sk_r->sk_backlog.len) % SCTP_SACKFREQ)
		CO_RETURN(f, p, 0);
	CO_AWAIT(f, sim_proc_sync(p));
	CO_AWAIT(f, bh_lock_sock(p, &pp->sk_s));
	f->backlogged = sk_rcv_or_backlog(&pp->sk_s, SCTP_SACKFREQ, false);
	sctp_count(np, pp, SK_S, NOW(p), f->backlogged);
	if (!f->backlogged) {
		CO_CALL(f, p, sctp_outq_sack, .sk = &pp->sk_s,
			.msg_len = (unsigned int)np->message_bytes,
			.nr = SCTP_SACKFREQ);
		CO_AWAIT(f, sim_proc_sync(p));
	}
	bh_unlock_sock(p, &pp->sk_s);
	CO_END(f, p);
}

/*
 * release_sock() of the pair's socket @sk by its task @who (SND or RCV):
 * under the spinlock, take the backlog's oldest packet, and process it
 * with the spinlock dropped and the socket still owned (__release_sock()
 * -> sctp_backlog_rcv()): on netperf's socket a SACK (its chunks freed),
 * on netserver's a DATA packet (sctp_eat_data(), then its SACK). When
 * the backlog is empty, the owner flag is cleared.
 */
struct sctp_release_sock_frame {
	struct co_frame co;
	struct sim_task *t;
	struct netperf_pair *pp;
	int sk, who;
	/* locals */
	int item; /* SK_S: chunks acked; SK_R: the message's bytes */
	bool more;
};

static int sctp_release_sock(struct sim_proc *p, void *frame)
{
	struct sctp_release_sock_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct netperf_pair *pp = f->pp;
	struct sock *sk = f->sk == SK_S ? &pp->sk_s : &pp->sk_r;

	CO_BEGIN(f);
	for (;;) {
		CO_AWAIT(f, sim_proc_sync(p));
		CO_AWAIT(f, bh_lock_sock(p, (f->sk == SK_S ? &pp->sk_s :
							     &pp->sk_r)));
		f->more = release_sock_next(sk, &f->item);
		bh_unlock_sock(p, (f->sk == SK_S ? &pp->sk_s : &pp->sk_r));
		if (!f->more)
			break;
		if (f->sk == SK_S) {
			CO_CALL(f, p, sctp_outq_sack, .sk = sk,
				.msg_len = (unsigned int)np->message_bytes,
				.nr = (unsigned int)f->item);
		} else {
			CO_CALL(f, p, sctp_eat_data, .sk = sk,
				.msg_len = (unsigned int)f->item);
			CO_CALL(f, p, sctp_sack_arrive, .t = t, .pp = pp,
				.who = f->who);
		}
	}
	CO_END(f, p);
}

/* lock_sock() of the pair's socket @sk by its task @who */
struct sctp_lock_sock_frame {
	struct co_frame co;
	struct sim_task *t;
	struct netperf_pair *pp;
	int sk, who;
};

static int sctp_lock_sock(struct sim_proc *p, void *frame)
{
	struct sctp_lock_sock_frame *f = frame;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	CO_AWAIT(f, sim_proc_sync(p));
	CO_AWAIT(f, bh_lock_sock(p, (f->sk == SK_S ? &pp->sk_s : &pp->sk_r)));
	sock_set_owned(f->sk == SK_S ? &pp->sk_s : &pp->sk_r);
	bh_unlock_sock(p, (f->sk == SK_S ? &pp->sk_s : &pp->sk_r));
	CO_END(f, p);
}

/*
 * sctp_sendmsg(): lock_sock(), the send buffer's gate
 * (sctp_wait_for_sndbuf()), the message's accounting and copy, its
 * transmit, whose loopback runs sctp_rcv() of the DATA packet in this
 * CPU's softirq (on netserver's socket: processed, or backlogged while
 * netserver owns it), then release_sock(): the SACKs backlogged.
 */
int netperf_sctp_send_accounting(struct sim_proc *p, void *frame)
{
	struct netperf_sctp_send_accounting_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	if (sctp_owning(np))
		CO_CALL(f, p, sctp_lock_sock, .t = t, .pp = pp, .sk = SK_S,
			.who = SND);
	if (sctp_sndbuf_full(&pp->sk_s)) {
		if (NOW(p) >= np->run->warmup_ps)
			pp->sndbuf_waits++;
		/* sctp_wait_for_sndbuf() */
		while (sctp_sndbuf_short(&pp->sk_s,
					 (unsigned int)np->message_bytes)) {
			if (sctp_owning(np))
				CO_CALL(f, p, sctp_release_sock, .t = t,
					.pp = pp, .sk = SK_S, .who = SND);
			CO_CALL(f, p, netperf_turn, .t = t, .pp = pp,
				.wait = NETPERF_WAIT_SNDBUF);
			if (sctp_owning(np))
				CO_CALL(f, p, sctp_lock_sock, .t = t, .pp = pp,
					.sk = SK_S, .who = SND);
		}
	}
	CO_CALL(f, p, sctp_sendmsg_to_asoc, .sk = &pp->sk_s,
		.msg_len = (unsigned int)np->message_bytes);
	coh_delay(t->k.cc, np->work_ps / 4);
	/* loopback: sctp_rcv() in this CPU's softirq, bh_lock_sock(sk_r) */
	CO_AWAIT(f, sim_proc_sync(p));
	CO_AWAIT(f, bh_lock_sock(p, &pp->sk_r));
	f->backlogged =
		sk_rcv_or_backlog(&pp->sk_r, (int)np->message_bytes, false);
	sctp_count(np, pp, SK_R, NOW(p), f->backlogged);
	if (!f->backlogged) {
		CO_CALL(f, p, sctp_eat_data, .sk = &pp->sk_r,
			.msg_len = (unsigned int)np->message_bytes);
		CO_AWAIT(f, sim_proc_sync(p));
	}
	bh_unlock_sock(p, &pp->sk_r);
	if (!f->backlogged)
		CO_CALL(f, p, sctp_sack_arrive, .t = t, .pp = pp, .who = SND);
	if (sctp_owning(np))
		CO_CALL(f, p, sctp_release_sock, .t = t, .pp = pp, .sk = SK_S,
			.who = SND);
	CO_END(f, p);
}

/*
 * sctp_recvmsg(): lock_sock(), the copy to user, sctp_ulpevent_free() of
 * the event (sctp_sock_rfree()), release_sock(): the DATA packets
 * backlogged meanwhile are charged here, on this CPU. Unowned (`backlog:
 * never`), the free takes the spinlock against the softirq's charge.
 */
int netperf_sctp_recv_accounting(struct sim_proc *p, void *frame)
{
	struct netperf_sctp_recv_accounting_frame *f = frame;
	struct sim_task *t = f->t;
	struct netperf *np = t->w->priv;
	struct netperf_pair *pp = f->pp;

	CO_BEGIN(f);
	if (sctp_owning(np)) {
		CO_CALL(f, p, sctp_lock_sock, .t = t, .pp = pp, .sk = SK_R,
			.who = RCV);
		coh_delay(t->k.cc, np->work_ps / 4);
		CO_CALL(f, p, sctp_sock_rfree, .sk = &pp->sk_r,
			.msg_len = (unsigned int)np->message_bytes);
		CO_CALL(f, p, sctp_release_sock, .t = t, .pp = pp, .sk = SK_R,
			.who = RCV);
		CO_RETURN(f, p, 0);
	}
	coh_delay(t->k.cc, np->work_ps / 4);
	CO_AWAIT(f, sim_proc_sync(p));
	CO_AWAIT(f, bh_lock_sock(p, &pp->sk_r));
	CO_CALL(f, p, sctp_sock_rfree, .sk = &pp->sk_r,
		.msg_len = (unsigned int)np->message_bytes);
	CO_AWAIT(f, sim_proc_sync(p));
	bh_unlock_sock(p, &pp->sk_r);
	CO_END(f, p);
}
