// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of net/ipv4/tcp_input.c's send-space check after an ACK
 * (tcp_check_space(), tcp_new_space(), tcp_should_expand_sndbuf()), its
 * receive of in-order data as far as the window goes (tcp_data_queue(),
 * tcp_event_data_recv(), tcp_measure_rcv_mss(), tcp_grow_window(),
 * __tcp_ack_snd_check(), tcp_ack_update_window()) and include/net/tcp.h's
 * tcp_under_memory_pressure(), Linux v6.0 (after "tcp: remove
 * SOCK_QUEUE_SHRUNK": every ACK checks SOCK_NOSPACE). The receive side
 * was read in a stored v5.15-or-later tcp_input.c (an annotated copy: its
 * tcp_grow_window() returns early when room <= 0 and calls
 * tcp_adjust_rcv_ssthresh() under pressure, as v6.0's; truesize_adjust(),
 * __tcp_grow_window(), tcp_event_data_recv(), tcp_rcv_space_adjust(),
 * tcp_clamp_window()) and __tcp_ack_snd_check() in stored excerpts of
 * v6.x trees (its first test unchanged since v5.x). Theory of operation:
 * see tcp.h.
 */
#include "models/kernel/net/ipv4/tcp.h"

int tcp_under_memory_pressure(struct sim_proc *p, void *frame)
{
	struct tcp_under_memory_pressure_frame *f = frame;

	CO_BEGIN(f);
	/* mem_cgroup_sockets_enabled && sk->sk_memcg && ... */
	if (f->sk->sk_memcg) {
		if (tcp_sk(f->sk) && NOW(p) >= f->sk->count_from)
			tcp_sk(f->sk)->walks[f->caller]++;
		CO_CALL(f, p, mem_cgroup_under_socket_pressure,
			.memcg = f->sk->sk_memcg);
		if (p->ret)
			CO_RETURN(f, p, true);
	}
	/* READ_ONCE(tcp_memory_pressure): SIM: never set (sock.h) */
	CO_RETURN(f, p, false);
	CO_END(f, p);
}

/*
 * tcp_should_expand_sndbuf(). SIM: no SOCK_SNDBUF_LOCK (netperf sets no
 * SO_SNDBUF); past the walk its answer only sizes sk_sndbuf, which the
 * model does not keep (the workload's window stands for the buffers).
 */
struct tcp_should_expand_sndbuf_frame {
	struct co_frame co;
	struct sock *sk;
};

static int tcp_should_expand_sndbuf(struct sim_proc *p, void *frame)
{
	struct tcp_should_expand_sndbuf_frame *f = frame;

	CO_BEGIN(f);
	/* if (tcp_under_memory_pressure(sk)) return false; */
	CO_CALL(f, p, tcp_under_memory_pressure, .sk = f->sk,
		.caller = TCP_WALK_CHECK_SPACE);
	CO_RETURN(f, p, !p->ret);
	CO_END(f, p);
}

/*
 * tcp_new_space(): tcp_sndbuf_expand() if it should (SIM: not kept),
 * then sk->sk_write_space(), the workload's wake-up of the writer.
 */
struct tcp_new_space_frame {
	struct co_frame co;
	struct sock *sk;
};

static int tcp_new_space(struct sim_proc *p, void *frame)
{
	struct tcp_new_space_frame *f = frame;

	CO_BEGIN(f);
	CO_CALL(f, p, tcp_should_expand_sndbuf, .sk = f->sk);
	CO_END(f, p);
}

int tcp_check_space(struct sim_proc *p, void *frame)
{
	struct tcp_check_space_frame *f = frame;

	CO_BEGIN(f);
	/*
	 * smp_mb(), pairing with tcp_poll(). SIM: not modelled here (this
	 * models the walk; the barrier would be a mechanism of its own).
	 */
	if (f->sk->nospace && *f->sk->nospace)
		CO_CALL(f, p, tcp_new_space, .sk = f->sk);
	CO_END(f, p);
}

void tcp_sock_init(struct sock *sk, struct tcp_sock *tp, int rcvbuf)
{
	uint32_t space = TCP_RMEM_MAX;

	*tp = (struct tcp_sock){ .advmss = TCP_LO6_ADVMSS,
				 .rcv_mss = TCP_MSS_DEFAULT };
	sk->tp = tp;
	sk->sk_rcvbuf = rcvbuf;
	/*
	 * tcp_select_initial_window(): rcv_wscale = ilog2(max(tcp_rmem[2],
	 * rmem_max)) - 15, at most 14 (6291456: 22 - 15 = 7)
	 */
	while (space >> (tp->rcv_wscale + 16) &&
	       tp->rcv_wscale < TCP_MAX_WSCALE)
		tp->rcv_wscale++;
	tp->window_clamp = (uint32_t)tcp_win_from_space(sk, rcvbuf);
	tp->rcv_ssthresh = tp->window_clamp;
	/* the window __tcp_select_window() gives an empty queue */
	tp->rcv_wnd = min((uint32_t)tcp_space(sk), tp->rcv_ssthresh);
	tp->rcv_wnd = (tp->rcv_wnd + (1U << tp->rcv_wscale) - 1) &
		      ~((1U << tp->rcv_wscale) - 1);
}

void tcp_ack_update_window(struct tcp_sock *tp)
{
	const struct tcp_sock *peer = tp->peer;

	/* tcp_ack(): ack_seq; the window field: rcv_wnd >> rcv_wscale */
	tp->snd_una = peer->rcv_wup;
	tp->snd_wnd = min(peer->rcv_wnd, 65535U << peer->rcv_wscale) >>
		      peer->rcv_wscale << peer->rcv_wscale;
}

/*
 * __tcp_grow_window(): how much a segment of @len whose buffer takes
 * @skbtruesize may grow rcv_ssthresh, when that truesize is over twice
 * the payload.
 */
static int __tcp_grow_window(const struct sock *sk, unsigned int len,
			     int skbtruesize)
{
	struct tcp_sock *tp = tcp_sk(sk);
	int truesize = tcp_win_from_space(sk, skbtruesize) >> 1;
	int window = tcp_win_from_space(sk, TCP_RMEM_MAX) >> 1;

	while (tp->rcv_ssthresh <= (uint32_t)window) {
		if (truesize <= (int)len)
			return 2 * (int)tp->rcv_mss;
		truesize >>= 1;
		window >>= 1;
	}
	return 0;
}

/*
 * The room tcp_grow_window() has: what rcv_ssthresh may grow to, less
 * what it is.
 */
static int tcp_grow_window_room(const struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	return min((int)tp->window_clamp, tcp_space(sk)) -
	       (int)tp->rcv_ssthresh;
}

/*
 * tcp_grow_window(): while rcv_ssthresh is below what the window could
 * be, and no memory pressure (the walk), raise it. @truesize is the
 * skb's, @len its payload.
 */
struct tcp_grow_window_frame {
	struct co_frame co;
	struct sock *sk;
	int truesize;
	unsigned int len;
	/* locals */
	int room;
};

static int tcp_grow_window(struct sim_proc *p, void *frame)
{
	struct tcp_grow_window_frame *f = frame;
	struct tcp_sock *tp = tcp_sk(f->sk);
	int truesize, incr;

	CO_BEGIN(f);
	f->room = tcp_grow_window_room(f->sk);
	if (f->room <= 0)
		CO_RETURN(f, p, 0);
	/* Check #1 */
	CO_CALL(f, p, tcp_under_memory_pressure, .sk = f->sk,
		.caller = TCP_WALK_GROW_WINDOW);
	/* else tcp_adjust_rcv_ssthresh(): SIM: never under pressure */
	if (p->ret)
		CO_RETURN(f, p, 0);
	/*
	 * truesize_adjust(): an skb with no payload in its head (sendpage's:
	 * the headers pulled) counts its frags only. SIM: the head is
	 * TCP_SKB_HEAD_TRUESIZE, as the sender's.
	 */
	truesize = f->truesize - TCP_SKB_HEAD_TRUESIZE;
	if (truesize < (int)f->len)
		truesize = f->truesize;
	/* Check #2: the skb's overhead will fit the receive buffer */
	if (tcp_win_from_space(f->sk, truesize) <= (int)f->len)
		incr = 2 * (int)tp->advmss;
	else
		incr = __tcp_grow_window(f->sk, f->len, truesize);
	if (incr) {
		incr = max(incr, 2 * (int)f->len);
		tp->rcv_ssthresh += (uint32_t)min(f->room, incr);
		tp->ack_quick |= 1; /* inet_csk(sk)->icsk_ack.quick |= 1 */
	}
	CO_END(f, p);
}

/*
 * tcp_measure_rcv_mss(): a segment of @len payload bytes (SIM: no GSO;
 * every segment here is a message, pushed: PSH set) raises rcv_mss up to
 * advmss. A shorter one of 524 bytes or more (536 + the 20-byte header
 * less the 32-byte header with timestamps, which loopback has) is
 * remembered (last_seg_size), and two alike in a row make its length
 * rcv_mss; otherwise (the second test, TCP_REMNANT, fails on PSH) it
 * marks the ACK pushed (ICSK_ACK_PUSHED, then PUSHED2).
 */
static void tcp_measure_rcv_mss(struct tcp_sock *tp, unsigned int len)
{
	unsigned int lss = tp->last_seg_size;

	tp->last_seg_size = 0;
	if (len >= tp->rcv_mss) {
		tp->rcv_mss = min(len, tp->advmss);
		return;
	}
	/* len += the header; len -= tcp_header_len: the same 32 */
	if (len + TCP_HEADER_LEN_TS >= TCP_MSS_DEFAULT + TCP_HDR_BYTES) {
		tp->last_seg_size = len;
		if (len == lss) {
			tp->rcv_mss = len;
			return;
		}
	}
	if (tp->ack_pending & ICSK_ACK_PUSHED)
		tp->ack_pending |= ICSK_ACK_PUSHED2;
	tp->ack_pending |= ICSK_ACK_PUSHED;
}

/*
 * tcp_event_data_recv(): after an in-order segment of @len is queued:
 * inet_csk_schedule_ack(), tcp_measure_rcv_mss(), tcp_grow_window().
 * SIM: tcp_rcv_rtt_measure() and the ato update are not kept (ato is
 * set: the first segment's tcp_incr_quickack() is long past; a gap over
 * the RTO, whose tcp_incr_quickack() would restart quick ACKs, does not
 * happen in a run). SIM: a plain call, which returns whether
 * tcp_grow_window() has room; the caller then calls it (it walks, and
 * may wait), where without room it would return at once: no frame for
 * that, the common case.
 */
static bool tcp_event_data_recv(struct sock *sk, unsigned int len)
{
	struct tcp_sock *tp = tcp_sk(sk);

	tp->ack_pending |= ICSK_ACK_SCHED; /* inet_csk_schedule_ack() */
	tcp_measure_rcv_mss(tp, len);
	return len >= 128 && tcp_grow_window_room(sk) > 0;
}

int tcp_data_queue(struct sim_proc *p, void *frame)
{
	struct tcp_data_queue_frame *f = frame;
	struct tcp_sock *tp = tcp_sk(f->sk);

	CO_BEGIN(f);
	/* tcp_try_rmem_schedule() */
	CO_CALL(f, p, sk_mem_schedule, .sk = f->sk, .size = f->truesize,
		.softirq = f->softirq);
	/* tcp_queue_rcv(): skb_set_owner_r() */
	sk_mem_charge(f->sk, f->truesize);
	f->sk->sk_rmem_alloc += f->truesize;
	if (!tp)
		CO_RETURN(f, p, 0);
	/*
	 * tcp_rcv_nxt_update(). SIM: the payload is the truesize less the
	 * head (one skb a message, its pages in frags).
	 */
	f->len = (unsigned int)(f->truesize - TCP_SKB_HEAD_TRUESIZE);
	tp->rcv_nxt += f->len;
	if (f->len && tcp_event_data_recv(f->sk, f->len))
		CO_CALL(f, p, tcp_grow_window, .sk = f->sk,
			.truesize = f->truesize, .len = f->len);
	CO_END(f, p);
}

int __tcp_ack_snd_check(struct sim_proc *p, void *frame)
{
	struct __tcp_ack_snd_check_frame *f = frame;
	struct tcp_sock *tp = tcp_sk(f->sk);

	CO_BEGIN(f);
	/*
	 * More than one full frame received, and the right edge advances
	 * far enough: all was read (rcv_nxt - copied_seq < sk_rcvlowat, 1),
	 * or the window now is no smaller than the one last sent.
	 */
	if (tp->rcv_nxt - tp->rcv_wup > tp->rcv_mss) {
		if (tp->rcv_nxt - tp->copied_seq < 1)
			goto send_now;
		CO_TCP_SELECT_WINDOW(f, p, f->win, f->sk);
		if ((uint32_t)f->win >= tp->rcv_wnd)
			goto send_now;
	}
	/* We ACK each frame, or protocol state mandates it */
	if (tcp_in_quickack_mode(tp) || tp->ack_pending & ICSK_ACK_NOW)
		goto send_now;
	/*
	 * No out-of-order queue (SIM: no loss on loopback):
	 * tcp_send_delayed_ack(). SIM: the timer is not armed (at least
	 * TCP_DELACK_MIN, 40 ms, ahead: a stream's reads ACK first), so its
	 * "about to expire, send now" never holds.
	 */
	tp->ack_pending |= ICSK_ACK_SCHED | ICSK_ACK_TIMER;
	CO_RETURN(f, p, 0);
send_now:
	/*
	 * tcp_send_ack(). SIM: only with kernel_acks; without, the model's
	 * ACKs are one per message read (netperf.c).
	 */
	if (tp->kernel_acks) {
		CO_CALL(f, p, tcp_transmit_skb, .sk = f->sk, .len = 0);
		tp->ack_sent_now = true;
	}
	CO_END(f, p);
}
