// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of kernel/locking/qspinlock.c (Linux v6.0): queued spinlocks with
 * FIFO hand-over. See models/kernel/qspinlock.h for the theory of operation.
 */
#include <stdlib.h>
#include <string.h>

#include "models/kernel/qspinlock.h"
#include "sim/error.h"

void qspinlock_init(struct qspinlock *lock, struct coh_field *val,
		    unsigned int nr_cpus)
{
	memset(lock, 0, sizeof(*lock));
	lock->val = val;
	lock->owner = -1;
	lock->cap = nr_cpus;
	lock->waiters = calloc(nr_cpus, sizeof(*lock->waiters));
	SIM_BUG_ON(!lock->waiters);
}

void qspinlock_destroy(struct qspinlock *lock)
{
	free(lock->waiters);
	memset(lock, 0, sizeof(*lock));
	lock->owner = -1;
}

/* Park @cc at the tail of the queue; true until the lock is handed over. */
static bool queue_wait(struct spin_lock_frame *f)
{
	struct qspinlock *lock = f->lock;
	unsigned int cpu = f->cc->cpu;

	if (f->parked) {
		/* Only spin_unlock() wakes a parked CPU, with the lock. */
		SIM_BUG_ON(lock->owner != (int)cpu);
		f->parked = false;
		return false;
	}
	SIM_BUG_ON(lock->nr_waiters == lock->cap);
	lock->waiters[(lock->head + lock->nr_waiters++) % lock->cap] = cpu;
	lock->contended++;
	f->parked = true;
	return true;
}

int spin_lock(struct sim_proc *p, void *frame)
{
	struct spin_lock_frame *f = frame;
	struct qspinlock *lock = f->lock;

	CO_BEGIN(f);
	/* queued_spin_lock(): atomic_try_cmpxchg_acquire(&lock->val, 0, 1) */
	CO_AWAIT(f, coh_rmw(f->cc, lock->val));
	if (lock->owner < 0) {
		lock->owner = f->cc->cpu;
	} else {
		/* queued_spin_lock_slowpath(): join the MCS queue */
		CO_AWAIT(f, queue_wait(f));
		/* The head takes the lock word from the releaser. */
		CO_AWAIT(f, coh_rmw(f->cc, lock->val));
	}
	lock->acquired++;
	lock->hold_start = p->now;
	CO_END(f, p);
}

bool spin_unlock(struct coh_cpu *cc, struct qspinlock *lock)
{
	struct coh *c = cc->coh;
	unsigned int next;

	/* queued_spin_unlock(): smp_store_release(&lock->locked, 0) */
	if (coh_write(cc, lock->val))
		return true;
	SIM_BUG_ON(lock->owner != (int)cc->cpu);
	lock->hold_ps += cc->proc->now - lock->hold_start;
	if (!lock->nr_waiters) {
		lock->owner = -1;
		return false;
	}
	next = lock->waiters[lock->head];
	lock->head = (lock->head + 1) % lock->cap;
	lock->nr_waiters--;
	lock->owner = next;
	sim_proc_wake(coh_cpu(c, next)->proc, cc->proc->now);
	return false;
}
