/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Model of socket memory accounting: include/net/sock.h and
 * net/core/sock.c (Linux 6.0-rc1, and v5.19 before "net: keep
 * sk->sk_forward_alloc as small as possible").
 *
 * Theory of operation: a socket pre-charges memory in whole pages and
 * keeps what it has charged but not yet used in sk_forward_alloc (bytes).
 * Queuing an skb uses forward-allocated bytes (sk_mem_charge); when too
 * few are left, sk_wmem_schedule()/sk_rmem_schedule() raise the
 * allocation by whole pages (__sk_mem_schedule() ->
 * __sk_mem_raise_allocated()), which charges the socket's memcg
 * (mem_cgroup_charge_skmem()). Freeing an skb gives its bytes back
 * (sk_mem_uncharge) and, when enough have come back, whole pages are
 * returned (__sk_mem_reclaim() -> __sk_mem_reduce_allocated() ->
 * mem_cgroup_uncharge_skmem()).
 *
 * When pages are returned is what changed in 6.0-rc1 (kernel key
 * `sk_reclaim`):
 *   page     (6.0-rc1 on) sk_mem_uncharge() reclaims as soon as a whole
 *            page is free: forward_alloc stays below one page, so every
 *            skb's pages are charged when it is queued and uncharged when
 *            it is freed;
 *   quantum  (up to v5.19) sk_mem_uncharge() reclaims only past 2 MB (1
 *            MB at a time), and a short forward allocation is raised by
 *            the whole size asked for; sk_mem_reclaim_partial() runs only
 *            from timers (the delayed-ACK timer, at most 25 times a second
 *            per socket: SIM: not modelled), so a busy socket reuses its
 *            forward allocation and does not touch the memcg.
 *
 * SIM: the protocol-wide memory_allocated counter (with its per-CPU
 * reserve since 6.0-rc1) is charged in every variant, the root memcg's
 * too, so its cost is in the workload's work_ns; memory pressure is not
 * modelled (nothing here comes near tcp_mem).
 *
 * Layering: models/ module; uses models/kernel/memcontrol.h.
 */
#ifndef MODELS_KERNEL_SOCK_H
#define MODELS_KERNEL_SOCK_H

#include "models/kernel/memcontrol.h"

#define SK_MEM_QUANTUM ((int)PAGE_SIZE)
#define SK_RECLAIM_THRESHOLD (1 << 21) /* v5.19 sk_mem_uncharge() */
#define SK_RECLAIM_CHUNK (1 << 20)

enum sk_reclaim_policy { SK_RECLAIM_PAGE, SK_RECLAIM_QUANTUM };

struct sock {
	int sk_forward_alloc;
	struct mem_cgroup *sk_memcg; /* NULL in the root memcg */
	/* SIM: counts */
	uint64_t pages_charged, pages_uncharged;
};

/*
 * The coroutines, one frame each: the context (SIM: @ms, @cc), then the
 * kernel function's parameters and locals.
 */
struct __sk_mem_reclaim_frame {
	struct co_frame co;
	struct memcg_sim *ms;
	struct coh_cpu *cc;
	struct sock *sk;
	int amount; /* bytes, then pages */
};

struct sk_mem_schedule_frame {
	struct co_frame co;
	struct memcg_sim *ms;
	struct coh_cpu *cc;
	struct sock *sk;
	int size; /* bytes */
	bool softirq; /* SIM: not in task context: GFP_NOWAIT */
	/* locals */
	int amt; /* __sk_mem_schedule(): pages */
};

struct sk_mem_uncharge_frame {
	struct co_frame co;
	struct memcg_sim *ms;
	struct coh_cpu *cc;
	struct sock *sk;
	int size; /* bytes */
};

static inline int sk_mem_pages(int amt)
{
	return (amt + SK_MEM_QUANTUM - 1) >> PAGE_SHIFT;
}

/* sk_wmem_schedule() and sk_rmem_schedule(): make room for size bytes. */
int sk_mem_schedule(struct sim_proc *p, void *frame);

/* sk_mem_charge(): use size forward-allocated bytes. */
static inline void sk_mem_charge(struct sock *sk, int size)
{
	sk->sk_forward_alloc -= size;
}

/* sk_mem_uncharge(): give size bytes back; reclaim per the policy. */
int sk_mem_uncharge(struct sim_proc *p, void *frame);

#endif /* MODELS_KERNEL_SOCK_H */
