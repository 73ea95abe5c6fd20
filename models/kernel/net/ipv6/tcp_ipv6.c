// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of net/ipv6/tcp_ipv6.c's receive path (tcp_v6_rcv(),
 * tcp_v6_do_rcv()), Linux 6.0-rc1, with tcp_add_backlog() of
 * net/ipv4/tcp_ipv4.c, read at the index's stored versions
 * (doc/socket-accounting.md 1.7a). Theory of operation: see
 * models/kernel/net/ipv4/tcp.h.
 */
#include "models/kernel/net/ipv4/tcp.h"

int tcp_v6_rcv(struct sim_proc *p, void *frame)
{
	struct tcp_v6_rcv_frame *f = frame;
	struct sock *sk = f->sk;

	CO_BEGIN(f);
	/* bh_lock_sock_nested(sk) */
	CO_AWAIT(f, sim_proc_sync(p));
	CO_AWAIT(f, bh_lock_sock(p, sk));
	/*
	 * if (!sock_owned_by_user(sk)) tcp_v6_do_rcv(); else
	 * tcp_add_backlog(). SIM: or as the socket's policy says.
	 */
	f->backlogged =
		sk->backlog_policy != SK_BACKLOG_NEVER &&
		sk_rcv_or_backlog(sk, f->truesize,
				  sk->backlog_policy == SK_BACKLOG_ALWAYS &&
					  !*sk->owner_sleeps);
	if (NOW(p) >= sk->count_from) {
		sk->arrived++;
		sk->backlogged += f->backlogged;
	}
	if (!f->backlogged) {
		/* SIM: through the socket's hook (sock.h) */
		CO_CALL_INDIRECT(f, p, sk->sk_backlog_rcv,
				 struct sk_backlog_rcv_frame, .sk = sk,
				 .truesize = f->truesize, .softirq = true);
		CO_AWAIT(f, sim_proc_sync(p));
	}
	bh_unlock_sock(p, sk);
	CO_RETURN(f, p, f->backlogged);
	CO_END(f, p);
}

int tcp_v6_do_rcv(struct sim_proc *p, void *frame)
{
	struct tcp_v6_do_rcv_frame *f = frame;

	CO_BEGIN(f);
	if (!f->ack) {
		/* tcp_rcv_established(): tcp_data_queue() */
		CO_CALL(f, p, tcp_data_queue, .sk = f->sk,
			.truesize = f->truesize, .softirq = f->softirq);
		/* tcp_ack_snd_check() */
		if (tcp_sk(f->sk))
			CO_CALL(f, p, __tcp_ack_snd_check, .sk = f->sk);
	} else {
		/* tcp_ack(): snd_una, the window (SIM: from the peer) */
		if (tcp_sk(f->sk) && tcp_sk(f->sk)->peer)
			tcp_ack_update_window(tcp_sk(f->sk));
		/* tcp_clean_rtx_queue(): the acked skb freed */
		CO_CALL(f, p, sk_mem_uncharge, .sk = f->sk,
			.size = f->truesize);
		/* tcp_rcv_established(): tcp_data_snd_check() */
		CO_CALL(f, p, tcp_check_space, .sk = f->sk);
	}
	CO_END(f, p);
}
