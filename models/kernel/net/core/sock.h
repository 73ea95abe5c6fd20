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
 * The socket lock (net/core/sock.c, read at v5.19/v6.0; see
 * doc/socket-accounting.md 1.7a): lock_sock() marks the socket owned by its
 * task (sk_lock.owned) and drops the spinlock, so a task holds its socket
 * through tcp_sendmsg_locked()/do_tcp_sendpages() or tcp_recvmsg_locked()
 * with bottom halves enabled. A packet for the socket, processed in a
 * softirq (tcp_v4_rcv()/tcp_v6_rcv()), takes the spinlock
 * (bh_lock_sock()) and, if sock_owned_by_user(), only appends the skb to
 * sk_backlog (tcp_add_backlog(): no memory charged); otherwise it is
 * processed there (tcp_v6_do_rcv()), on the CPU of the softirq.
 * release_sock() runs __release_sock(): every backlogged skb goes through
 * sk_backlog_rcv() (tcp_v6_do_rcv() again) in the owner's process
 * context, on the owner's CPU, before the owner flag is cleared. The
 * owner flag, the backlog (a FIFO of the skbs' truesizes) and the
 * spinlock (the process holding it, and the one spinning) are the
 * socket's.
 *
 * Layering: models/ module; uses models/kernel/mm/memcontrol.h.
 */
#ifndef MODELS_KERNEL_SOCK_H
#define MODELS_KERNEL_SOCK_H

#include "models/kernel/mm/memcontrol.h"

#define SK_MEM_QUANTUM ((int)PAGE_SIZE)
#define SK_RECLAIM_THRESHOLD (1 << 21) /* v5.19 sk_mem_uncharge() */
#define SK_RECLAIM_CHUNK (1 << 20)

enum sk_reclaim_policy { SK_RECLAIM_PAGE, SK_RECLAIM_QUANTUM };

/* sk->sk_backlog: the skbs queued while the socket was owned, in order */
struct sk_backlog {
	int *truesize; /* SIM: a ring of @size; only the truesizes matter */
	unsigned int size, head, len; /* SIM: @len counts skbs */
	int rmem; /* the kernel's sk_backlog.len: the skbs' truesize, bytes */
};

struct tcp_sock; /* models/kernel/net/ipv4/tcp.h */

/* SIM: tcp_v6_rcv()'s choice (netperf's `backlog:`; AUTO: the kernel's) */
enum sk_backlog_policy { SK_BACKLOG_AUTO, SK_BACKLOG_NEVER, SK_BACKLOG_ALWAYS };

struct sock {
	int sk_forward_alloc;
	struct mem_cgroup *sk_memcg; /* NULL in the root memcg */
	bool owned; /* sk_lock.owned: sock_owned_by_user() */
	/* sk_lock.slock: the process holding it, and the one spinning */
	struct sim_proc *slock_owner, *slock_waiter;
	struct sk_backlog sk_backlog;
	void *sk_user_data; /* the socket's user's (netperf: its pair) */
	/*
	 * sk->sk_backlog_rcv(): the receive of one skb (frame struct
	 * sk_backlog_rcv_frame), from the backlog by release_sock() and,
	 * SIM, from the softirq by tcp_v6_rcv() too: the workload's hook
	 * around tcp_v6_do_rcv(), which adds its share of work_ns.
	 */
	co_fn sk_backlog_rcv;
	/* SIM: tcp_v6_rcv()'s policy; for ALWAYS, whether the owner sleeps */
	enum sk_backlog_policy backlog_policy;
	const bool *owner_sleeps;
	/*
	 * SIM: SOCK_NOSPACE, set while the writer sleeps for buffer space
	 * (netperf: its window is full); NULL: never
	 */
	const bool *nospace;
	/*
	 * The send buffer (SCTP's sctp_wspace(): sk_sndbuf less
	 * sk_wmem_queued, the queued chunks' truesize and struct sctp_chunk)
	 */
	int sk_sndbuf, sk_wmem_queued;
	/*
	 * The receive buffer (TCP's tcp_space()): sk_rcvbuf, and
	 * sk_rmem_alloc, the truesize of the skbs on the receive queue
	 * (skb_set_owner_r() adds it, sock_rfree() takes it back)
	 */
	int sk_rcvbuf, sk_rmem_alloc;
	/*
	 * SIM: tcp_sk(sk), the TCP state of a TCP socket (in the kernel
	 * struct tcp_sock embeds struct sock); NULL: none kept (SCTP,
	 * af_unix, tests of the accounting alone)
	 */
	struct tcp_sock *tp;
	/*
	 * sk->sk_write_space() as SCTP's sctp_wake_up_waiters() runs it
	 * (__sctp_write_space(): wake_up_interruptible(&asoc->wait)), run
	 * by @p whose sctp_wfree() left room; SIM: the wait queue is the
	 * workload's, so is the hook; NULL: nobody waits
	 */
	void (*sk_write_space)(struct sim_proc *p, struct sock *sk);
	/* SIM: packets tcp_v6_rcv() saw from @count_from on, and backlogged */
	sim_time_t count_from;
	uint64_t arrived, backlogged;
	/* SIM: counts */
	uint64_t pages_charged, pages_uncharged;
	uint64_t rcv_skbs, backlog_skbs; /* packets arrived, backlogged */
};

/*
 * The coroutines, one frame each: the kernel function's parameters
 * and locals; the CPU and the memcg world are the process's
 * (compat/sim.h).
 */
struct __sk_mem_reclaim_frame {
	struct co_frame co;
	struct sock *sk;
	int amount; /* bytes, then pages */
};

struct sk_mem_schedule_frame {
	struct co_frame co;
	struct sock *sk;
	int size; /* bytes */
	bool softirq; /* SIM: not in task context: GFP_NOWAIT */
	/* locals */
	int amt; /* __sk_mem_schedule(): pages */
};

struct sk_mem_uncharge_frame {
	struct co_frame co;
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

/* SIM: room for @size skbs on the backlog (0: none); freed by _free. */
void sk_backlog_init(struct sock *sk, unsigned int size);
void sk_backlog_free(struct sock *sk);

/* lock_sock()'s effect, without its spinlock: the task owns @sk. */
static inline void sock_set_owned(struct sock *sk)
{
	SIM_BUG_ON(sk->owned);
	sk->owned = true;
}

static inline bool sock_owned_by_user(const struct sock *sk)
{
	return sk->owned;
}

/*
 * tcp_v6_rcv()'s choice for a packet of @truesize bytes, made under
 * bh_lock_sock(): if @sk is owned (or @force, SIM: netperf's `backlog:
 * always`), tcp_add_backlog() queues it and it returns true (the owner's
 * release_sock() processes it); otherwise false: process it now.
 */
bool sk_rcv_or_backlog(struct sock *sk, int truesize, bool force);

/*
 * __release_sock(), one skb at a time: if the backlog holds one, take the
 * oldest (its truesize in *@truesize) for sk_backlog_rcv() and return
 * true; when it is empty, the owner flag is cleared (release_sock()'s
 * end) and it returns false.
 */
bool release_sock_next(struct sock *sk, int *truesize);

/* __sk_flush_backlog(): the same, keeping ownership at the end. */
bool sk_flush_backlog_next(struct sock *sk, int *truesize);

/*
 * bh_lock_sock() - for CO_AWAIT(): take @sk's spinlock for @p (held by
 * @p already: taken); true while @p must spin. bh_unlock_sock() drops
 * it and wakes the process spinning, at @p's time.
 */
bool bh_lock_sock(struct sim_proc *p, struct sock *sk);
void bh_unlock_sock(struct sim_proc *p, struct sock *sk);

/* sk->sk_backlog_rcv(sk, skb): one skb of @truesize */
struct sk_backlog_rcv_frame {
	struct co_frame co;
	struct sock *sk;
	int truesize;
	bool softirq; /* SIM: from tcp_v6_rcv()'s softirq, not the backlog */
};

/*
 * lock_sock() - coroutine: the task of @p takes ownership of @sk, under
 * its spinlock (spinning while a softirq holds it).
 */
struct lock_sock_frame {
	struct co_frame co;
	struct sock *sk;
};

int lock_sock(struct sim_proc *p, void *frame);

/*
 * release_sock() - coroutine: __release_sock(): under the spinlock, take
 * the backlog's oldest skb and process it (sk->sk_backlog_rcv()) with
 * the spinlock dropped and the socket still owned; when the backlog is
 * empty the owner flag is cleared. With @flush (SIM), the
 * __sk_flush_backlog() of one skb that tcp_recvmsg_locked() waits for,
 * keeping ownership.
 */
struct release_sock_frame {
	struct co_frame co;
	struct sock *sk;
	bool flush;
	/* locals */
	int truesize;
	bool more;
};

int release_sock(struct sim_proc *p, void *frame);

#endif /* MODELS_KERNEL_SOCK_H */
