// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of net/ipv4/tcp.c's send path (tcp_sendpage(), do_tcp_sendpages())
 * and the receive's tcp_eat_recv_skb(), Linux 6.0-rc1, read at the index's v5.19-era tree (commit 0076cad3: the
 * same functions). Theory of operation: see tcp.h.
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
