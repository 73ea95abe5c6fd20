// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of net/ipv4/tcp.c's send path (tcp_sendpage(), do_tcp_sendpages())
 * and the receive's tcp_eat_recv_skb(), Linux 6.0-rc1, read at the index's v5.19-era tree (commit 0076cad3: the
 * same functions), and tcp_cleanup_rbuf()'s ACK decision, read in stored
 * v5.x-v6.x copies (after "tcp: remove icsk_ack.blocked", which only
 * the delayed-ACK timer set: the same tests). Theory of operation: see
 * tcp.h.
 */
#include "models/kernel/compat/kernel.h"
#include "models/kernel/net/ipv4/tcp.h"

int tcp_sendpage(struct sim_proc *p, void *frame)
{
	struct tcp_sendpage_frame *f = frame;

	CO_BEGIN(f);
	/* tcp_stream_alloc_skb() and tcp_skb_entail() */
	CO_CALL(f, p, sk_mem_schedule, .sk = f->sk,
		.size = TCP_SKB_HEAD_TRUESIZE);
	sk_mem_charge(f->sk, TCP_SKB_HEAD_TRUESIZE);
	/*
	 * do_tcp_sendpages(): splice hands the file to TCP a page at a
	 * time; each piece is sk_wmem_schedule()d and charged.
	 */
	for (f->i = 0; f->i < f->size; f->i += (unsigned int)f->piece) {
		f->piece = (int)(PAGE_SIZE - (f->offset + f->i) % PAGE_SIZE);
		if (f->piece > (int)f->size - (int)f->i)
			f->piece = (int)f->size - (int)f->i;
		CO_CALL(f, p, sk_mem_schedule, .sk = f->sk, .size = f->piece);
		sk_mem_charge(f->sk, f->piece);
	}
	CO_END(f, p);
}

int tcp_eat_recv_skb(struct sim_proc *p, void *frame)
{
	struct tcp_eat_recv_skb_frame *f = frame;

	CO_BEGIN(f);
	/* tcp_recvmsg_locked(): *seq += used (copied_seq) */
	if (tcp_sk(f->sk))
		tcp_sk(f->sk)->copied_seq += f->len;
	/* __skb_unlink(), then skb's destructor: sock_rfree() */
	f->sk->sk_rmem_alloc -= f->truesize;
	CO_CALL(f, p, sk_mem_uncharge, .sk = f->sk, .size = f->truesize);
	CO_END(f, p);
}

int tcp_cleanup_rbuf(struct sim_proc *p, void *frame)
{
	struct tcp_cleanup_rbuf_frame *f = frame;
	struct tcp_sock *tp = tcp_sk(f->sk);
	bool time_to_ack = false;

	CO_BEGIN(f);
	if (tp->ack_pending & ICSK_ACK_SCHED) {
		/* Once-per-two-segments ACK was not sent by tcp_input.c */
		if (tp->rcv_nxt - tp->rcv_wup > tp->rcv_mss)
			time_to_ack = true;
		/*
		 * This read emptied the buffer after a small pushed segment
		 * (SIM: never pingpong)
		 */
		if (f->copied > 0 &&
		    tp->ack_pending & (ICSK_ACK_PUSHED2 | ICSK_ACK_PUSHED) &&
		    !f->sk->sk_rmem_alloc)
			time_to_ack = true;
	}
	if (time_to_ack || f->copied <= 0)
		CO_RETURN(f, p, time_to_ack);
	/*
	 * A non-zero window raised "significantly" (SIM: never
	 * RCV_SHUTDOWN). Optimize, __tcp_select_window() is not cheap.
	 */
	f->rcv_window_now = tcp_receive_window(tp);
	if (2 * f->rcv_window_now > tp->window_clamp)
		CO_RETURN(f, p, false);
	CO_TCP_SELECT_WINDOW(f, p, f->new_window, f->sk);
	/* "Lots" means "at least twice" here */
	CO_RETURN(f, p,
		  f->new_window &&
			  (uint32_t)f->new_window >= 2 * f->rcv_window_now);
	CO_END(f, p);
}
