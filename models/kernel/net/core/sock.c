// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of socket memory accounting (include/net/sock.h, net/core/sock.c,
 * Linux 6.0-rc1 and v5.19). Theory of operation: see sock.h.
 */
#include <stdlib.h>

#include "models/kernel/sim/insn.h"
#include "models/kernel/net/core/sock.h"

/*
 * __sk_mem_reclaim() - return whole pages of forward allocation:
 * __sk_mem_reduce_allocated() uncharges them from the memcg.
 */
static int __sk_mem_reclaim(struct sim_proc *p, void *frame)
{
	struct __sk_mem_reclaim_frame *f = frame;

	CO_BEGIN(f);
	f->amount >>= PAGE_SHIFT;
	if (!f->amount)
		CO_RETURN(f, p, 0);
	f->sk->sk_forward_alloc -= f->amount << PAGE_SHIFT;
	/* __sk_mem_reduce_allocated(sk, amount) */
	f->sk->pages_uncharged += (uint64_t)f->amount;
	if (f->sk->sk_memcg) {
		/*
		 * SIM: of the socket layer's instructions only what a memcg
		 * socket adds; the rest runs without a memcg too and is in
		 * the workload's work_ns, fitted on such a baseline.
		 */
		insn_charge(co_cpu(p), INSN___sk_mem_reduce_allocated_memcg, 1);
		CO_CALL(f, p, mem_cgroup_uncharge_skmem,
			.memcg = f->sk->sk_memcg,
			.nr_pages = (unsigned int)f->amount);
		/* if (sk_under_memory_pressure(sk) && ...) */
		CO_CALL(f, p, mem_cgroup_under_socket_pressure,
			.memcg = f->sk->sk_memcg);
	}
	CO_END(f, p);
}

/**
 * sk_mem_schedule() - make room for @size bytes in the forward allocation
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct sk_mem_schedule_frame: @sk, @size, @softirq
 *
 * sk_wmem_schedule()/sk_rmem_schedule(): if the forward allocation does
 * not cover @size, __sk_mem_schedule() raises it by sk_mem_pages(size -
 * forward_alloc) pages and charges them (__sk_mem_raise_allocated() ->
 * mem_cgroup_charge_skmem(); from softirq with GFP_NOWAIT,
 * gfp_memcg_charge()).
 *
 * Context: a coroutine on the simulated CPU co_cpu(p), in task context or
 * (@softirq) the CPU's softirq; may wait as try_charge() does.
 * Return: in p->ret, 1 (SIM: the allocation always goes ahead).
 */
int sk_mem_schedule(struct sim_proc *p, void *frame)
{
	struct sk_mem_schedule_frame *f = frame;
	int delta;

	CO_BEGIN(f);
	delta = f->size - f->sk->sk_forward_alloc;
	if (delta <= 0)
		CO_RETURN(f, p, 1);
	/* v5.19 asked for the whole size ("net: fix sk_wmem_schedule() and
	 * sk_rmem_schedule() errors" asks for the missing part) */
	f->amt = sk_mem_pages(this_ms(p)->k->sk_reclaim == SK_RECLAIM_QUANTUM ?
				      f->size :
				      delta);
	f->sk->sk_forward_alloc += f->amt << PAGE_SHIFT;
	f->sk->pages_charged += (uint64_t)f->amt;
	if (!f->sk->sk_memcg)
		CO_RETURN(f, p, 1);
	/* SIM: as in __sk_mem_reclaim(), what a memcg socket adds */
	insn_charge(co_cpu(p), INSN___sk_mem_raise_allocated_memcg, 1);
	CO_CALL(f, p, mem_cgroup_charge_skmem, .memcg = f->sk->sk_memcg,
		.nr_pages = (unsigned int)f->amt,
		.gfp_mask = f->softirq ? GFP_NOWAIT : GFP_KERNEL);
	if (!p->ret) {
		/*
		 * suppress_allocation: SIM: the allocation goes ahead with a
		 * forced charge (__GFP_NOFAIL), as the kernel does for a
		 * socket under its minimum; memory pressure is not modelled.
		 */
		CO_CALL(f, p, mem_cgroup_charge_skmem, .memcg = f->sk->sk_memcg,
			.nr_pages = (unsigned int)f->amt,
			.gfp_mask = (f->softirq ? GFP_NOWAIT : GFP_KERNEL) |
				    __GFP_NOFAIL);
	}
	CO_RETURN(f, p, 1);
	CO_END(f, p);
}

/**
 * sk_mem_uncharge() - give @size bytes back to the forward allocation
 * @p: the process running on the CPU co_cpu(p)
 * @frame: struct sk_mem_uncharge_frame: @sk, @size
 *
 * Whole pages go back to the memcg when the forward allocation reaches a
 * page (6.0-rc1) or SK_RECLAIM_THRESHOLD (v5.19, per sk_reclaim).
 *
 * Context: a coroutine on the simulated CPU co_cpu(p); a reclaim waits as
 * mem_cgroup_uncharge_skmem() does.
 */
int sk_mem_uncharge(struct sim_proc *p, void *frame)
{
	struct sk_mem_uncharge_frame *f = frame;

	CO_BEGIN(f);
	f->sk->sk_forward_alloc += f->size;
	if (this_ms(p)->k->sk_reclaim == SK_RECLAIM_PAGE) {
		/* sk_mem_reclaim(): reclaimable >= PAGE_SIZE */
		if (f->sk->sk_forward_alloc >= (int)PAGE_SIZE)
			CO_CALL(f, p, __sk_mem_reclaim, .sk = f->sk,
				.amount = f->sk->sk_forward_alloc);
	} else {
		/* Avoid a possible overflow (TCP send queues). */
		if (f->sk->sk_forward_alloc >= SK_RECLAIM_THRESHOLD)
			CO_CALL(f, p, __sk_mem_reclaim, .sk = f->sk,
				.amount = SK_RECLAIM_CHUNK);
	}
	CO_END(f, p);
}

void sk_backlog_init(struct sock *sk, unsigned int size)
{
	sk->sk_backlog.size = size;
	sk->sk_backlog.head = sk->sk_backlog.len = 0;
	sk->sk_backlog.rmem = 0;
	sk->sk_backlog.truesize =
		size ? calloc(size, sizeof(*sk->sk_backlog.truesize)) : NULL;
	SIM_BUG_ON(size && !sk->sk_backlog.truesize);
}

void sk_backlog_free(struct sock *sk)
{
	free(sk->sk_backlog.truesize);
	sk->sk_backlog.truesize = NULL;
	sk->sk_backlog.size = 0;
}

bool sk_rcv_or_backlog(struct sock *sk, int truesize, bool force)
{
	struct sk_backlog *bl = &sk->sk_backlog;

	sk->rcv_skbs++;
	if (!sock_owned_by_user(sk) && !force)
		return false;
	/*
	 * tcp_add_backlog(): SIM: the limit (sk_rcvbuf + sk_sndbuf) is far
	 * above the packets one pair keeps in flight; nothing is dropped.
	 */
	SIM_BUG_ON(bl->len >= bl->size);
	bl->truesize[(bl->head + bl->len++) % bl->size] = truesize;
	bl->rmem += truesize;
	sk->backlog_skbs++;
	return true;
}

bool sk_flush_backlog_next(struct sock *sk, int *truesize)
{
	struct sk_backlog *bl = &sk->sk_backlog;

	if (!bl->len)
		return false;
	*truesize = bl->truesize[bl->head];
	bl->rmem -= *truesize;
	bl->head = (bl->head + 1) % bl->size;
	bl->len--;
	return true;
}

bool release_sock_next(struct sock *sk, int *truesize)
{
	if (sk_flush_backlog_next(sk, truesize))
		return true;
	sk->owned = false;
	return false;
}

bool bh_lock_sock(struct sim_proc *p, struct sock *sk)
{
	if (!sk->slock_owner || sk->slock_owner == p) {
		sk->slock_owner = p;
		if (sk->slock_waiter == p)
			sk->slock_waiter = NULL;
		return false;
	}
	sk->slock_waiter = p;
	return true;
}

void bh_unlock_sock(struct sim_proc *p, struct sock *sk)
{
	struct sim_proc *waiter = sk->slock_waiter;

	SIM_BUG_ON(sk->slock_owner != p);
	sk->slock_owner = NULL;
	if (waiter) {
		sk->slock_waiter = NULL;
		sim_proc_wake(waiter, NOW(p));
	}
}

int lock_sock(struct sim_proc *p, void *frame)
{
	struct lock_sock_frame *f = frame;

	CO_BEGIN(f);
	/* spin_lock_bh(&sk->sk_lock.slock) */
	CO_AWAIT(f, sim_proc_sync(p));
	CO_AWAIT(f, bh_lock_sock(p, f->sk));
	sock_set_owned(f->sk); /* sk->sk_lock.owned = 1 */
	bh_unlock_sock(p, f->sk);
	CO_END(f, p);
}

int release_sock(struct sim_proc *p, void *frame)
{
	struct release_sock_frame *f = frame;
	struct sock *sk = f->sk;

	CO_BEGIN(f);
	for (;;) {
		CO_AWAIT(f, sim_proc_sync(p));
		CO_AWAIT(f, bh_lock_sock(p, sk));
		f->more = f->flush ? sk_flush_backlog_next(sk, &f->truesize) :
				     release_sock_next(sk, &f->truesize);
		bh_unlock_sock(p, sk);
		if (!f->more)
			break;
		/* sk_backlog_rcv(sk, skb), the spinlock dropped */
		CO_CALL_INDIRECT(f, p, sk->sk_backlog_rcv,
				 struct sk_backlog_rcv_frame, .sk = sk,
				 .truesize = f->truesize, .softirq = false);
		if (f->flush)
			break;
	}
	CO_END(f, p);
}
