/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/kernel/qspinlock.h - queued spinlocks (kernel/locking/qspinlock.c, v6.0).
 *
 * Theory of operation: acquiring the lock is a locked RMW on the lock word
 * (the fast path's atomic_try_cmpxchg_acquire). If the lock is held, or
 * others already wait, the CPU joins the tail of the waiter queue (the MCS
 * queue) and spins locally. queued_spin_unlock() is a release store to the
 * lock word; it hands the lock to the head of the queue, which then takes
 * the lock word with one RMW: one line transfer from the releaser. Waiters
 * are served strictly in arrival order (FIFO). The hold time is whatever
 * the critical section does.
 *
 * SIM: the MCS node hand-off (arch_mcs_spin_unlock_contended) and the
 * pending bit are not modelled separately; their cost is off the lock
 * word's critical path.
 */
#ifndef MODELS_KERNEL_QSPINLOCK_H
#define MODELS_KERNEL_QSPINLOCK_H

#include "models/hw/cache.h"
#include "sim/co.h"

/*
 * struct qspinlock - a lock word somewhere in memory and its waiters.
 * Invariant: @nr_waiters > 0 implies @owner >= 0 (the lock is held or
 * being handed over).
 */
struct qspinlock {
	struct coh_field *val;		/* the lock word */
	int owner;			/* holder or next holder, -1 if free */
	unsigned int *waiters;		/* FIFO ring of CPU numbers */
	unsigned int head, nr_waiters, cap;
	/* statistics */
	uint64_t acquired, contended;
	sim_time_t hold_start, hold_ps;
};

void qspinlock_init(struct qspinlock *lock, struct coh_field *val,
		    unsigned int nr_cpus);
void qspinlock_destroy(struct qspinlock *lock);

struct spin_lock_frame {
	struct co_frame co;
	struct coh_cpu *cc;
	struct qspinlock *lock;
	bool parked;
};

/*
 * spin_lock() - coroutine: acquire @lock on CPU @cc.
 * Context: CO_CALL(f, p, spin_lock, .cc = cc,
 * .lock = lock).
 */
int spin_lock(struct sim_proc *p, void *frame);

/*
 * spin_unlock() - release @lock (for CO_AWAIT): the release store, then
 * the hand-over to the next waiter, if any.
 */
bool spin_unlock(struct coh_cpu *cc, struct qspinlock *lock);

#endif /* MODELS_KERNEL_QSPINLOCK_H */
