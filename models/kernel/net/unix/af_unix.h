/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/kernel/net/unix/af_unix.h - the memory accounting of an af_unix
 * SOCK_STREAM send and receive (net/unix/af_unix.c, Linux v4.8, and the
 * kmem_accounting variants after it).
 *
 * Theory of operation: unix_stream_sendmsg() cuts a send into skbs
 * (unix_skb_size()) and allocates each one's head (kmalloc) and page
 * fragments (sock_alloc_send_pskb() -> alloc_skb_with_frags()). With
 * kmem_accounting: pages ("af_unix: charge buffers to kmemcg") the
 * fragment pages are charged on the sender's CPU
 * (memcg_kmem_charge_page()) and uncharged, straight to the page
 * counters, when unix_stream_recvmsg() frees the skb; with objects the
 * whole truesize goes through the obj_cgroup stock instead; with off,
 * nothing is charged. af_unix has no socket backlog: the sender queues
 * the skb on the peer's receive queue itself.
 *
 * Layering: models/kernel/ module; uses mm/memcontrol.h.
 */
#ifndef MODELS_KERNEL_NET_UNIX_AF_UNIX_H
#define MODELS_KERNEL_NET_UNIX_AF_UNIX_H

#include <stdint.h>

#include "models/kernel/mm/memcontrol.h"

/* the default sk_sndbuf (net.core.wmem_default, 212992 on x86_64) */
#define UNIX_SNDBUF 212992

/*
 * unix_stream_sendmsg() - coroutine: the charges of a send of @len
 * bytes by a task of @memcg (SIM: __GFP_ACCOUNT charges the current
 * task's memcg). Context: the sender's task; may charge the memcg.
 */
struct unix_stream_sendmsg_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	uint64_t len;
	/* locals */
	uint64_t sent; /* bytes of the message sent so far */
	unsigned int size; /* the skb's bytes */
	unsigned int pages; /* its data pages still to allocate */
	unsigned int frag; /* pages of the next fragment */
};

int unix_stream_sendmsg(struct sim_proc *p, void *frame);

/*
 * unix_stream_recvmsg() - coroutine: the uncharges of consuming @len
 * bytes sent by a task of @memcg: consume_skb() of each skb.
 */
struct unix_stream_recvmsg_frame {
	struct co_frame co;
	struct mem_cgroup *memcg;
	uint64_t len;
	/* locals */
	uint64_t copied; /* bytes of the message consumed */
	unsigned int size; /* the skb's bytes */
	unsigned int pages; /* its data pages still to free */
	unsigned int frag; /* pages of the next fragment */
};

int unix_stream_recvmsg(struct sim_proc *p, void *frame);

#endif /* MODELS_KERNEL_NET_UNIX_AF_UNIX_H */
