/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Model of the SCTP socket's memory accounting: net/sctp/socket.c
 * (sctp_sendmsg_to_asoc(), sctp_set_owner_w(), sctp_wfree(),
 * sctp_sock_rfree()), net/sctp/ulpevent.c (sctp_ulpevent_make_rcvmsg(),
 * sctp_ulpevent_receive_data() -> sctp_skb_set_owner_r()) and the SACK
 * rule of net/sctp/sm_statefuns.c (sctp_gen_sack()), Linux 6.0-rc1, on
 * the socket accounting of models/kernel/net/core/sock.h.
 *
 * Theory of operation: one DATA chunk per message (a message up to the
 * loopback fragmentation point, SCTP_LO_FRAG_MAX), one packet per chunk.
 *
 *   send (the sender's task, lock_sock()):
 *     sctp_sendmsg_to_asoc(): sk_wmem_schedule(sk, msg_len) - the
 *       message's bytes, not its skb's - then per chunk
 *       sctp_set_owner_w(): sk_mem_charge(sk, chunk->skb->truesize);
 *       the chunk skb is alloc_skb(16 + msg), so its truesize is about
 *       twice a 16K message: the forward allocation goes negative and
 *       the next sk_wmem_schedule() raises it by what is missing;
 *   receive (the same CPU's softirq: loopback, sctp_rcv() under
 *     bh_lock_sock() of the receiver's socket):
 *     sctp_eat_data(): sk_under_memory_pressure(sk), the memcg's
 *       socket-pressure walk (mem_cgroup_under_socket_pressure()) of
 *       every DATA chunk;
 *     sctp_ulpevent_make_rcvmsg(): sk_rmem_schedule(sk, skb, datalen)
 *       (the chunk's length: 16 + msg) with GFP_NOWAIT, then
 *       sctp_skb_set_owner_r(): sk_mem_charge(sk, rmem_len), rmem_len
 *       being skb->len + sizeof(struct sk_buff) of the event's clone,
 *       trimmed to the chunk's data (sctp_ulpevent_init()): the message
 *       plus 232, not the received packet's truesize;
 *   SACK: the receiving association SACKs every sackfreq = 2nd packet
 *     (sctp_gen_sack()), from the same softirq; over loopback the SACK
 *     is processed on the same CPU (on the sender's socket backlog while
 *     the sender owns it, at its release_sock()): sctp_outq_sack() frees
 *     the acked chunks, sctp_wfree(): sk_mem_uncharge(sk, truesize);
 *   read (the receiver's task): sctp_recvmsg() frees the event's skb,
 *     sctp_sock_rfree(): sk_mem_uncharge(sk, rmem_len).
 *
 * The send buffer's gate (net/sctp/socket.c, v6.0): sctp_set_owner_w()
 * adds each chunk's truesize + sizeof(struct sctp_chunk) to
 * sk_wmem_queued, sctp_wfree() takes it off when a SACK frees the chunk.
 * sctp_sendmsg_to_asoc() goes to sctp_wait_for_sndbuf() when
 * sctp_wspace() (sndbuf_policy 0: sk_stream_wspace(), sk_sndbuf -
 * sk_wmem_queued) is not positive, and that sleeps - its socket released
 * - until the message fits, msg_len <= sctp_wspace(); each sctp_wfree()
 * that leaves the space positive wakes it (sctp_wake_up_waiters() ->
 * __sctp_write_space()). sk_sndbuf is sock_init_data()'s
 * net.core.wmem_default (sctp_init_sock() sets none: ip-sysctl.rst,
 * "sctp_wmem ... default and max are ignored"), and netperf sets no
 * SO_SNDBUF without -s. With 16K messages (33280 bytes queued each) the
 * gate closes once 7 are unacked and opens at 5: it binds only when
 * SACKs are held back (the receiver's socket owned, its DATA packets on
 * the backlog).
 *
 * Up to v5.19 (kernel key sk_reclaim: quantum) sctp_sendmsg_to_asoc()
 * also asked sk_under_memory_pressure(sk) of every message (and
 * sk_mem_reclaim()ed under pressure); 4890b686f4 ("net: keep
 * sk->sk_forward_alloc as small as possible", v6.0) removed that and
 * sctp_wait_for_sndbuf()'s, and left sctp_eat_data()'s.
 *
 * So, unlike TCP (whose ACK is processed on the receiver's CPU), the
 * sender's socket is charged and uncharged on the sender's CPU, and the
 * receiver's socket charged there and uncharged on the receiver's.
 *
 * SIM: window-update SACKs (sctp_assoc_rwnd_increase() once the window
 * has opened by max(rcvbuf >> 4, pathmtu)) and the SACK timer (200 ms)
 * are not modelled: the DATA-driven SACK of every second packet frees
 * the chunks first in a stream. Fragmented messages (more than one
 * chunk, reassembled in the ulpqueue) are refused. IPv4 loopback;
 * MAX_HEADER of a distro kernel (LL_MAX_HEADER 128 with
 * CONFIG_HYPERV_NET, plus 48 for tunnels).
 *
 * Instructions: each of the functions above charges its 6.1 count
 * (sctp.ko's, models/kernel/sim/insn-costs-6.1.tsv) in every variant, the
 * root memcg's too: they run with or without a memcg.
 *
 * Layering: models/ module; uses models/kernel/net/core/sock.h, insn.h.
 */
#ifndef MODELS_KERNEL_SCTP_H
#define MODELS_KERNEL_SCTP_H

#include "models/kernel/net/core/sock.h"

#define SCTP_SACKFREQ 2 /* net.sctp.sack_freq default: asoc->sackfreq */
#define SCTP_DATA_CHUNK_HDR 16 /* struct sctp_data_chunk */
#define SCTP_COMMON_HDR 12 /* struct sctphdr */
#define SCTP_IP_HDR 20 /* struct iphdr, IPv4 loopback */
#define SCTP_MAX_HEADER 176 /* MAX_HEADER, see the header comment */
/*
 * sizeof(struct sk_buff), x86_64, v6.0 (SIM: pahole of a distro config,
 * 232; SKB_DATA_ALIGN() of it is the 256 of sctp_alloc_skb_truesize())
 */
#define SCTP_SIZEOF_SK_BUFF 232
/*
 * sizeof(struct sctp_chunk), x86_64 (SIM: 256 [recall, not read]: for 16K
 * messages any size below 2474 gives the same gate)
 */
#define SCTP_SIZEOF_CHUNK 256
/*
 * sk_sndbuf: net.core.wmem_default, SK_WMEM_MAX = 256 * SKB_TRUESIZE(256)
 * = 256 * (256 + 256 + 320) on x86_64 (include/net/sock.h, v6.0)
 */
#define SCTP_SK_SNDBUF 212992
/* sctp_frag_point() at the loopback MTU (65536) */
#define SCTP_LO_FRAG_MAX \
	(65536 - SCTP_IP_HDR - SCTP_COMMON_HDR - SCTP_DATA_CHUNK_HDR)

/*
 * The truesize of an skb from alloc_skb(@size) (v6.0 __alloc_skb()): the
 * head is SKB_DATA_ALIGN(size) + the aligned skb_shared_info (320),
 * rounded up by kmalloc (its caches up to 8K, pages beyond), and
 * SKB_TRUESIZE() adds the aligned sk_buff (256) and shared info.
 */
unsigned int sctp_alloc_skb_truesize(unsigned int size);

/* The DATA chunk skb of a @msg-byte message (sctp_make_data()). */
static inline unsigned int sctp_chunk_truesize(unsigned int msg)
{
	return sctp_alloc_skb_truesize(SCTP_DATA_CHUNK_HDR + ((msg + 3) & ~3u));
}

/*
 * The receive event's rmem_len (sctp_ulpevent_make_rcvmsg()): the clone
 * trimmed to the chunk's data, its padding excluded, plus the sk_buff.
 */
static inline unsigned int sctp_rmem_len(unsigned int msg)
{
	return msg + SCTP_SIZEOF_SK_BUFF;
}

/* sctp_init_sock() and sock_init_data(): the send buffer */
static inline void sctp_init_sock(struct sock *sk)
{
	sk->sk_sndbuf = SCTP_SK_SNDBUF;
	sk->sk_wmem_queued = 0;
}

/* sctp_wspace(), sndbuf_policy 0 (the default): sk_stream_wspace() */
static inline int sctp_wspace(const struct sock *sk)
{
	return sk->sk_sndbuf - sk->sk_wmem_queued;
}

/* sctp_sendmsg_to_asoc(): whether it calls sctp_wait_for_sndbuf() */
static inline bool sctp_sndbuf_full(const struct sock *sk)
{
	return sctp_wspace(sk) <= 0;
}

/* sctp_wait_for_sndbuf(): whether a @msg_len message must wait on */
static inline bool sctp_sndbuf_short(const struct sock *sk,
				     unsigned int msg_len)
{
	return (int)msg_len > sctp_wspace(sk);
}

/* The coroutines: the kernel's parameters (the context: compat/sim.h). */
struct sctp_sendmsg_to_asoc_frame {
	struct co_frame co;
	struct sock *sk;
	unsigned int msg_len;
};

/* sk_wmem_schedule(msg_len), then sctp_set_owner_w() of the chunk. */
int sctp_sendmsg_to_asoc(struct sim_proc *p, void *frame);

struct sctp_ulpevent_make_rcvmsg_frame {
	struct co_frame co;
	struct sock *sk;
	unsigned int msg_len; /* the chunk's data */
};

/* sk_rmem_schedule(datalen) in softirq, then sctp_skb_set_owner_r(). */
int sctp_ulpevent_make_rcvmsg(struct sim_proc *p, void *frame);

struct sctp_eat_data_frame {
	struct co_frame co;
	struct sock *sk;
	unsigned int msg_len; /* the chunk's data */
};

/* sk_under_memory_pressure(), then the event: sctp_ulpevent_make_rcvmsg(). */
int sctp_eat_data(struct sim_proc *p, void *frame);

struct sctp_outq_sack_frame {
	struct co_frame co;
	struct sock *sk;
	unsigned int msg_len;
	unsigned int nr; /* chunks acked */
	/* locals */
	unsigned int i;
};

/*
 * The SACK frees @nr acked chunks: sctp_wfree() of each, which wakes a
 * sender waiting for space (sk->sk_write_space()).
 */
int sctp_outq_sack(struct sim_proc *p, void *frame);

struct sctp_sock_rfree_frame {
	struct co_frame co;
	struct sock *sk;
	unsigned int msg_len;
};

/* sctp_recvmsg() frees the event: sk_mem_uncharge(rmem_len). */
int sctp_sock_rfree(struct sim_proc *p, void *frame);

#endif /* MODELS_KERNEL_SCTP_H */
