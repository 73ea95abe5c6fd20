// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of the SCTP socket's memory accounting (net/sctp/socket.c,
 * net/sctp/ulpevent.c, Linux 6.0-rc1). Theory of operation: see sctp.h.
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
 * sk_wmem_schedule(sk, msg_len) (SIM: the room is always there: the
 * sender waits in sctp_wait_for_sndbuf() only for the window, which the
 * workload models), then sctp_set_owner_w() of the one DATA chunk:
 * sk_wmem_queued and sndbuf_used grow by truesize + sizeof(struct
 * sctp_chunk) (no memcg), sk_mem_charge(sk, truesize).
 *
 * Context: the sender's task, lock_sock() held; may charge the memcg.
 */
int sctp_sendmsg_to_asoc(struct sim_proc *p, void *frame)
{
	struct sctp_sendmsg_to_asoc_frame *f = frame;

	CO_BEGIN(f);
	CO_CALL(f, p, sk_mem_schedule, .sk = f->sk, .size = (int)f->msg_len);
	/* sctp_set_owner_w(): its instructions, memcg or not (insn.h) */
	insn_charge(co_cpu(p), INSN_sctp_set_owner_w, 1);
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
 * rmem_len, the received skb's truesize.
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
	sk_mem_charge(f->sk, (int)sctp_packet_truesize(f->msg_len));
	CO_END(f, p);
}

/**
 * sctp_outq_sack() - a SACK frees the acked chunks
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct sctp_outq_sack_frame: @sk, @msg_len, @nr
 *
 * sctp_check_transmitted() moves the @nr acked chunks to the sacked list
 * and sctp_chunk_free() drops them: sctp_wfree() of each chunk skb,
 * sk_mem_uncharge(sk, truesize), whole pages back to the memcg as the
 * socket's policy says (models/kernel/net/core/sock.c).
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
	}
	CO_END(f, p);
}

/**
 * sctp_sock_rfree() - the reader frees a received message
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct sctp_sock_rfree_frame: @sk, @msg_len
 *
 * sctp_recvmsg() -> sctp_ulpevent_free() -> kfree_skb(): the destructor
 * sctp_sock_rfree() takes rmem_len off sk_rmem_alloc and
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
		.size = (int)sctp_packet_truesize(f->msg_len));
	CO_END(f, p);
}
