/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/kernel/net/ipv4/tcp.h - the TCP paths of a loopback stream that
 * touch socket memory (include/net/tcp.h, Linux 6.0-rc1): the send in
 * net/ipv4/tcp.c (tcp_sendpage()), the receive in net/ipv6/tcp_ipv6.c
 * (tcp_v6_rcv(), tcp_v6_do_rcv()).
 *
 * Theory of operation: tcp_sendpage() charges the skb it queues to the
 * sender's socket (sk_wmem_schedule(), sk_mem_charge()). Over loopback
 * the transmit runs the receive softirq on the transmitting CPU:
 * tcp_v6_rcv() takes the receiving socket's spinlock and either appends
 * the skb to its backlog, uncharged, if the socket's task owns it
 * (tcp_add_backlog()), or processes it there: sk->sk_backlog_rcv(), the
 * protocol's tcp_v6_do_rcv(), which charges a data segment to the
 * receiver's socket (tcp_data_queue()) or frees the acked skb of an ACK
 * (tcp_ack() -> tcp_clean_rtx_queue(): sk_mem_uncharge()). The owner's
 * release_sock() (net/core/sock.c) processes its backlog later, on its
 * CPU. The socket lock and the backlog are in models/kernel/net/core/.
 *
 * Layering: models/kernel/ module; uses net/core/sock.h.
 */
#ifndef MODELS_KERNEL_NET_IPV4_TCP_H
#define MODELS_KERNEL_NET_IPV4_TCP_H

#include <stdint.h>

#include "models/kernel/net/core/sock.h"

/*
 * The truesize of the skb head tcp_stream_alloc_skb() allocates for
 * sendpage (x86_64, 6.0): alloc_skb_fclone(MAX_TCP_HEADER = 320) rounds
 * the head to kmalloc-1024, skb_end_offset() = 1024 - 320 (shared info)
 * = 704, and SKB_TRUESIZE() adds the sk_buff (256 aligned) and the
 * skb_shared_info (320): 704 + 256 + 320.
 */
#define TCP_SKB_HEAD_TRUESIZE 1280

/*
 * tcp_sendpage() - coroutine: the charges of @size bytes of a file at
 * @offset sent on @sk: tcp_stream_alloc_skb()'s head (sk_wmem_schedule(),
 * tcp_skb_entail()'s sk_mem_charge()), then do_tcp_sendpages() a page at
 * a time, each piece scheduled and charged. SIM: one call for a whole
 * message's pages (splice hands them over a page at a time) and one skb.
 * Context: the sender's task, lock_sock() held; may charge the memcg.
 */
struct tcp_sendpage_frame {
	struct co_frame co;
	struct sock *sk;
	uint64_t offset;
	unsigned int size;
	/* locals */
	unsigned int i; /* bytes handed to TCP so far */
	int piece; /* the next page's part of the message */
};

int tcp_sendpage(struct sim_proc *p, void *frame);

/*
 * tcp_v6_rcv() - coroutine: a packet of @truesize for @sk arrives in the
 * softirq of this CPU (loopback: the transmitting one). Under the
 * socket's spinlock it goes to the backlog if the socket's task owns it
 * (or as sk->backlog_policy says, SIM), and is processed here otherwise,
 * the spinlock held. Returns, in p->ret, 1 if it was backlogged.
 */
struct tcp_v6_rcv_frame {
	struct co_frame co;
	struct sock *sk;
	int truesize;
	/* locals */
	bool backlogged;
};

int tcp_v6_rcv(struct sim_proc *p, void *frame);

/*
 * tcp_v6_do_rcv() - coroutine: one packet for @sk, in the softirq
 * (@softirq: GFP_NOWAIT) or from the backlog: a data segment of
 * @truesize is charged (tcp_rcv_established() -> tcp_data_queue():
 * sk_rmem_schedule(), skb_set_owner_r()); an ACK (@ack, SIM: the stream
 * is one-way) frees the acked skb of @truesize (tcp_ack() ->
 * tcp_clean_rtx_queue(): sk_mem_uncharge()).
 */
struct tcp_v6_do_rcv_frame {
	struct co_frame co;
	struct sock *sk;
	int truesize;
	bool softirq;
	bool ack;
};

int tcp_v6_do_rcv(struct sim_proc *p, void *frame);

/*
 * tcp_check_space() - coroutine (net/ipv4/tcp_input.c), after an ACK
 * freed sent data (tcp_data_snd_check()): if the writer waits for space
 * (SOCK_NOSPACE), tcp_new_space() asks tcp_should_expand_sndbuf(), whose
 * tcp_under_memory_pressure() walks the socket's memcg hierarchy
 * (mem_cgroup_under_socket_pressure()), then wakes the writer
 * (sk_write_space(): the workload's).
 */
struct tcp_check_space_frame {
	struct co_frame co;
	struct sock *sk;
};

int tcp_check_space(struct sim_proc *p, void *frame);

#endif /* MODELS_KERNEL_NET_IPV4_TCP_H */
