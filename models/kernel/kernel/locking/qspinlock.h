/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/kernel/kernel/locking/qspinlock.h - queued spinlocks: kernel/locking/qspinlock.c
 * and the inlines of include/asm-generic/qspinlock.h (Linux v6.0).
 *
 * Theory of operation. A qspinlock is one 32-bit word: a locked byte, a
 * pending bit and the tail of a queue of waiters. The queue is an MCS
 * lock: each waiter has a node in its own per-CPU memory (qnodes[]), the
 * lock word names the last node (the tail), and each node points at the
 * next. A waiter spins on its own node, a line nobody else writes until
 * its turn comes, instead of on the lock word that every waiter would
 * otherwise pull to itself again and again.
 *
 *	queued_spin_lock()        one locked RMW on the lock word
 *	  (fast path)             (atomic_try_cmpxchg_acquire 0 -> locked):
 *	                          a free lock is taken with it
 *	queued_spin_lock_slowpath()
 *	                          the lock is held: swap this CPU's node in
 *	                          as the tail and wait. Waiters are served
 *	                          strictly in arrival order (FIFO). The head
 *	                          of the queue waits for the locked byte to
 *	                          clear, then takes the lock word with one
 *	                          RMW: one line transfer from the releaser
 *	queued_spin_unlock()      a release store of 0 to the locked byte
 *
 *	lock word:  [ tail | pending | locked ]
 *	                |
 *	                v
 *	     node(CPU 3) -> node(CPU 1) -> node(CPU 2)      the MCS queue
 *	     head: spins on the lock word   the others: on their own node
 *
 * Hand-over. When the head has taken the lock it passes the head role to
 * the next node (arch_mcs_spin_unlock_contended(), a store to that
 * node's locked flag); that CPU then spins on the lock word in turn. So
 * at each release only one CPU is watching the lock word, and the line
 * moves once, from the releaser to the new holder. The hold time is
 * whatever the critical section does, and every waiter waits for the
 * critical sections of everyone queued before it.
 *
 * SIM: the per-CPU MCS nodes, the pending bit and the PV hooks are not
 * modelled: a CPU that finds the lock held queues at once (struct
 * qspinlock's @waiters ring stands for the queue of nodes), and the head
 * is woken by queued_spin_unlock() itself instead of seeing the locked
 * byte clear. The node-to-node hand-over happens while the lock is held
 * by the new holder, off the lock word's critical path, and costs
 * nothing here. Nor are the head's spinning loads of the lock word: it
 * takes the line with its one RMW. The word's value is not kept: @owner
 * and the queue say who holds the lock and who waits.
 *
 * Layering: models/kernel/ module; uses models/hw/cache.h and sim/co.h.
 */
#ifndef MODELS_KERNEL_QSPINLOCK_H
#define MODELS_KERNEL_QSPINLOCK_H

#include "models/hw/cache.h"
#include "models/kernel/compat/sim.h"
#include "sim/co.h"

/*
 * struct qspinlock - a lock word somewhere in memory and its waiters.
 * Invariant: @nr_waiters > 0 implies @owner >= 0 (the lock is held or
 * being handed over).
 */
struct qspinlock {
	struct coh_field *val; /* the lock word */
	/* SIM: the model's state in place of the word's value */
	int owner; /* holder or next holder, -1 if free */
	unsigned int *waiters; /* FIFO ring of CPU numbers */
	unsigned int head, nr_waiters, cap;
	/* statistics */
	uint64_t acquired, contended;
	sim_time_t hold_start, hold_ps;
};

/**
 * qspinlock_init() - set up @lock, free, with room for @nr_cpus waiters.
 * @lock: the lock (caller-allocated)
 * @val: the lock word's field, placed by the caller
 * @nr_cpus: CPUs that may wait for it
 *
 * Context: setup, before the simulation runs (SIM: the kernel's
 * __SPIN_LOCK_UNLOCKED() has no queue to allocate). Release with
 * qspinlock_destroy().
 */
void qspinlock_init(struct qspinlock *lock, struct coh_field *val,
		    unsigned int nr_cpus);

/**
 * qspinlock_destroy() - free @lock's queue and leave it as after a
 * zeroing, free.
 * @lock: the lock
 *
 * Context: teardown, after the simulation.
 */
void qspinlock_destroy(struct qspinlock *lock);

/* queued_spin_is_contended(): are there CPUs waiting for @lock? */
static inline bool queued_spin_is_contended(const struct qspinlock *lock)
{
	return lock->nr_waiters;
}

struct queued_spin_lock_frame {
	struct co_frame co;
	struct qspinlock *lock;
};

/**
 * queued_spin_lock() - coroutine: acquire @lock on this CPU.
 * @p: the process (its CPU: co_cpu(p))
 * @frame: struct queued_spin_lock_frame: @lock
 *
 * The fast path's RMW takes a free lock; a held one sends the CPU to
 * queued_spin_lock_slowpath(). Returns when the CPU holds @lock.
 *
 * Context: the simulated CPU co_cpu(p), in a coroutine:
 * CO_CALL(f, p, queued_spin_lock, .lock = lock). Interrupts
 * as the caller left them (SIM: raw_spin_lock_irqsave() is the caller's
 * irq cost plus this). May wait.
 */
int queued_spin_lock(struct sim_proc *p, void *frame);

/**
 * queued_spin_unlock() - release @lock held by CPU @cc.
 * @cc: the holder
 * @lock: the lock
 *
 * The release store to the lock word, then the hand-over to the head of
 * the queue, if any: that CPU is woken now, to take the lock word.
 *
 * Context: the simulated CPU @cc holding @lock, in a coroutine:
 * CO_AWAIT(f, queued_spin_unlock(cc, lock)).
 * Return: true while the store waits (call again), false when done.
 */
bool queued_spin_unlock(struct coh_cpu *cc, struct qspinlock *lock);

#endif /* MODELS_KERNEL_QSPINLOCK_H */
