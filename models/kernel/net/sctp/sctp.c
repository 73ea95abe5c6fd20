// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of the SCTP socket's memory accounting (net/sctp/socket.c,
 * net/sctp/ulpevent.c, net/sctp/sm_statefuns.c, Linux 6.0-rc1 and
 * v5.19). Theory of operation: see sctp.h.
 */
#include "models/kernel/sim/insn.h"
#include "models/kernel/net/sctp/sctp.h"

#define SKB_SHINFO 320 /* SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) */
#define SKB_HEAD 256 /* SKB_DATA_ALIGN(sizeof(struct sk_buff)) */
#define KMALLOC_MAX_CACHE_SIZE 8192

/* ksize() of kmalloc(@n): its kmalloc cache, or the pages it takes */
static unsigned int kmalloc_ksize(unsigned int n)
{
	unsigned int s = 8;

	if (n > 64 && n <= 96)
		return 96;
	if (n > 128 && n <= 192)
		return 192;
	if (n > KMALLOC_MAX_CACHE_SIZE) {
		/* kmalloc_large(): PAGE_SIZE << get_order(n) */
		s = (unsigned int)PAGE_SIZE;
		while (s < n)
			s *= 2;
		return s;
	}
	while (s < n)
		s *= 2;
	return s;
}

unsigned int sctp_alloc_skb_truesize(unsigned int size)
{
	/* size = SKB_DATA_ALIGN(size) + SKB_DATA_ALIGN(shinfo) */
	size = ((size + 63) & ~63u) + SKB_SHINFO;
	/* size = SKB_WITH_OVERHEAD(ksize(data)); SKB_TRUESIZE(size) */
	return kmalloc_ksize(size) - SKB_SHINFO + SKB_HEAD + SKB_SHINFO;
}

/**
 * sctp_sendmsg_to_asoc() - the send side's accounting of one message
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct sctp_sendmsg_to_asoc_frame: @sk, @msg_len
 *
 * Up to v5.19 (sk_reclaim: quantum), sk_under_memory_pressure(sk) first
 * (the memcg's socket-pressure walk; SIM: never under pressure, so no
 * sk_mem_reclaim()); 4890b686f4 removed it. Then
 * sk_wmem_schedule(sk, msg_len) (SIM: never under memory pressure, so
 * the memcg never makes it wait), then sctp_set_owner_w() of the one
 * DATA chunk: sk_wmem_queued and sndbuf_used grow by truesize +
 * sizeof(struct sctp_chunk) (no memcg), sk_mem_charge(sk, truesize).
 * The gate before (sctp_sndbuf_full(), sctp_wait_for_sndbuf()) sleeps,
 * so the caller, which owns the task, runs it.
 *
 * Context: the sender's task, lock_sock() held, the send buffer's gate
 * passed; may charge the memcg.
 */
int sctp_sendmsg_to_asoc(struct sim_proc *p, void *frame)
{
	struct sctp_sendmsg_to_asoc_frame *f = frame;

	CO_BEGIN(f);
	if (this_ms(p)->k->sk_reclaim == SK_RECLAIM_QUANTUM && f->sk->sk_memcg)
		CO_CALL(f, p, mem_cgroup_under_socket_pressure,
			.memcg = f->sk->sk_memcg);
	CO_CALL(f, p, sk_mem_schedule, .sk = f->sk, .size = (int)f->msg_len);
	/* sctp_set_owner_w(): its instructions, memcg or not (insn.h) */
	insn_charge(co_cpu(p), INSN_sctp_set_owner_w, 1);
	f->sk->sk_wmem_queued +=
		(int)sctp_chunk_truesize(f->msg_len) + SCTP_SIZEOF_CHUNK;
	sk_mem_charge(f->sk, (int)sctp_chunk_truesize(f->msg_len));
	CO_END(f, p);
}

/**
 * sctp_ulpevent_make_rcvmsg() - the receive side's accounting of a chunk
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct sctp_ulpevent_make_rcvmsg_frame: @sk, @msg_len
 *
 * sk_rmem_schedule(sk, skb, datalen), datalen the chunk's length
 * (ntohs(chunk_hdr->length) = 16 + msg), in softirq (GFP_NOWAIT); then
 * sctp_ulpevent_receive_data() -> sctp_ulpevent_set_owner() ->
 * sctp_skb_set_owner_r(): sk_rmem_alloc and sk_mem_charge() of
 * rmem_len = skb->len + sizeof(struct sk_buff) (sctp_rmem_len()).
 *
 * Context: softirq on co_cpu(p), bh_lock_sock() of @sk held by the caller.
 */
int sctp_ulpevent_make_rcvmsg(struct sim_proc *p, void *frame)
{
	struct sctp_ulpevent_make_rcvmsg_frame *f = frame;

	CO_BEGIN(f);
	CO_CALL(f, p, sk_mem_schedule, .sk = f->sk,
		.size = (int)(SCTP_DATA_CHUNK_HDR + f->msg_len),
		.softirq = true);
	/* sctp_ulpevent_receive_data() -> sctp_skb_set_owner_r() */
	insn_charge(co_cpu(p), INSN_sctp_ulpevent_receive_data, 1);
	sk_mem_charge(f->sk, (int)sctp_rmem_len(f->msg_len));
	CO_END(f, p);
}

/**
 * sctp_eat_data() - the receiving association takes in a DATA chunk
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct sctp_eat_data_frame: @sk, @msg_len
 *
 * sk_under_memory_pressure(sk): with a memcg, the memcg's socket-pressure
 * walk, every level (SIM: never under pressure, so no renege); then the
 * chunk goes to the ulpqueue, sctp_ulpevent_make_rcvmsg() (via
 * SCTP_CMD_CHUNK_ULP -> sctp_ulpq_tail_data()).
 *
 * Context: softirq on co_cpu(p), bh_lock_sock() of @sk held by the caller.
 */
int sctp_eat_data(struct sim_proc *p, void *frame)
{
	struct sctp_eat_data_frame *f = frame;

	CO_BEGIN(f);
	if (f->sk->sk_memcg)
		CO_CALL(f, p, mem_cgroup_under_socket_pressure,
			.memcg = f->sk->sk_memcg);
	CO_CALL(f, p, sctp_ulpevent_make_rcvmsg, .sk = f->sk,
		.msg_len = f->msg_len);
	CO_END(f, p);
}

/*
 * sctp_wake_up_waiters() of @sk's one association: __sctp_write_space()
 * wakes the writers on asoc->wait when sctp_wspace() is positive.
 */
static void sctp_wake_up_waiters(struct sim_proc *p, struct sock *sk)
{
	if (sctp_wspace(sk) > 0 && sk->sk_write_space)
		sk->sk_write_space(p, sk);
}

/**
 * sctp_outq_sack() - a SACK frees the acked chunks
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct sctp_outq_sack_frame: @sk, @msg_len, @nr
 *
 * sctp_check_transmitted() moves the @nr acked chunks to the sacked list
 * and sctp_chunk_free() drops them: sctp_wfree() of each chunk skb,
 * sk_mem_uncharge(sk, truesize), whole pages back to the memcg as the
 * socket's policy says (models/kernel/net/core/sock.c); sk_wmem_queued
 * less truesize + sizeof(struct sctp_chunk); sctp_wake_up_waiters().
 *
 * Context: softirq or release_sock() on co_cpu(p).
 */
int sctp_outq_sack(struct sim_proc *p, void *frame)
{
	struct sctp_outq_sack_frame *f = frame;

	CO_BEGIN(f);
	for (f->i = 0; f->i < f->nr; f->i++) {
		insn_charge(co_cpu(p), INSN_sctp_wfree,
			    1); /* its instructions */
		CO_CALL(f, p, sk_mem_uncharge, .sk = f->sk,
			.size = (int)sctp_chunk_truesize(f->msg_len));
		f->sk->sk_wmem_queued -= (int)sctp_chunk_truesize(f->msg_len) +
					 SCTP_SIZEOF_CHUNK;
		sctp_wake_up_waiters(p, f->sk);
	}
	CO_END(f, p);
}

/**
 * sctp_sock_rfree() - the reader frees a received message
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct sctp_sock_rfree_frame: @sk, @msg_len
 *
 * sctp_recvmsg() -> sctp_ulpevent_free() -> kfree_skb(): the destructor
 * sctp_sock_rfree() takes rmem_len (sctp_rmem_len()) off sk_rmem_alloc and
 * sk_mem_uncharge()s it.
 *
 * Context: the receiver's task, the socket's spinlock held by the caller.
 */
int sctp_sock_rfree(struct sim_proc *p, void *frame)
{
	struct sctp_sock_rfree_frame *f = frame;

	CO_BEGIN(f);
	insn_charge(co_cpu(p), INSN_sctp_sock_rfree, 1); /* its instructions */
	CO_CALL(f, p, sk_mem_uncharge, .sk = f->sk,
		.size = (int)sctp_rmem_len(f->msg_len));
	CO_END(f, p);
}
