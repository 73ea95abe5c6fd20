// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of kernel/locking/qspinlock.c (Linux v6.0): queued spinlocks with
 * FIFO hand-over, and the inlines of include/asm-generic/qspinlock.h that
 * call it. See models/kernel/kernel/locking/qspinlock.h for the theory of operation.
 *
 * The file has three parts: the SIM-only setup, the kernel file's one
 * function (queued_spin_lock_slowpath()), and the header's inlines in
 * its order (queued_spin_lock(), queued_spin_unlock()).
 */
#include <stdlib.h>
#include <string.h>

#include "models/kernel/sim/insn.h"
#include "models/kernel/kernel/locking/qspinlock.h"
#include "sim/error.h"

/* SIM: setup. The kernel's locks are static initialisers. */

void qspinlock_init(struct qspinlock *lock, struct coh_field *val,
		    unsigned int nr_cpus)
{
	memset(lock, 0, sizeof(*lock));
	lock->val = val;
	lock->owner = -1;
	lock->cap = nr_cpus;
	lock->waiters = calloc(nr_cpus, sizeof(*lock->waiters));
	SIM_OOM_ON(!lock->waiters);
}

void qspinlock_destroy(struct qspinlock *lock)
{
	free(lock->waiters);
	memset(lock, 0, sizeof(*lock));
	lock->owner = -1;
}

/* kernel/locking/qspinlock.c */

struct queued_spin_lock_slowpath_frame {
	struct co_frame co;
	struct qspinlock *lock;
	/* SIM: no @val, the word the fast path saw: no value is kept */
	/* locals */
	bool queued; /* SIM: our node is in the queue (lock->waiters) */
};

/*
 * Put this CPU's node at the tail of the queue and wait until it is the
 * head and the holder has let go: true while waiting. SIM: xchg_tail(),
 * the wait on node->locked and the head's wait on the locked byte in one;
 * queued_spin_unlock() wakes the head with the lock already its own.
 */
static bool queue_and_wait(const struct sim_proc *p,
			   struct queued_spin_lock_slowpath_frame *f)
{
	struct qspinlock *lock = f->lock;
	unsigned int cpu = co_cpu(p)->cpu;

	if (f->queued) {
		/* Only queued_spin_unlock() wakes a queued CPU, with the lock. */
		SIM_BUG_ON(lock->owner != (int)cpu);
		f->queued = false;
		return false;
	}
	SIM_BUG_ON(lock->nr_waiters == lock->cap);
	lock->waiters[(lock->head + lock->nr_waiters++) % lock->cap] = cpu;
	lock->contended++;
	f->queued = true;
	return true;
}

/*
 * queued_spin_lock_slowpath(lock) - wait in the MCS queue for @lock.
 *
 * SIM: no pending bit and no second trylock after touching the per-CPU
 * node: a CPU that finds the lock held goes straight to the queue.
 */
static int queued_spin_lock_slowpath(struct sim_proc *p, void *frame)
{
	struct queued_spin_lock_slowpath_frame *f = frame;

	CO_BEGIN(f);
	insn_charge(co_cpu(p), INSN_queued_spin_lock_slowpath, 1);
	/*
	 * Publish our node as the new tail and link it behind the old one;
	 * then spin on our own node until the CPU ahead of us hands us the
	 * head role, and, as the head, on the lock word until the holder
	 * lets go. That last wait is a load-acquire: it pairs with the
	 * holder's store-release in queued_spin_unlock(), so that everything
	 * the holder did in its critical section happens before ours, since
	 * taking the lock below needs no full barrier of its own.
	 */
	CO_AWAIT(f, queue_and_wait(p, f));
	/*
	 * Claim the lock: the last node in the queue also clears the tail
	 * (a cmpxchg), any other just sets the locked byte and then passes
	 * the head role to the next node (SIM: that store to the next node
	 * is not modelled, see qspinlock.h). Either way the lock word comes
	 * over from the releaser: one line transfer.
	 */
	CO_AWAIT(f, coh_rmw(co_cpu(p), f->lock->val));
	CO_END(f, p);
}

/* include/asm-generic/qspinlock.h */

int queued_spin_lock(struct sim_proc *p, void *frame)
{
	struct queued_spin_lock_frame *f = frame;
	struct qspinlock *lock = f->lock;

	CO_BEGIN(f);
	/* atomic_try_cmpxchg_acquire(&lock->val, &val, _Q_LOCKED_VAL) */
	CO_AWAIT(f, coh_rmw(co_cpu(p), lock->val));
	if (lock->owner < 0) {
		/* the word was 0: the cmpxchg took the lock */
		lock->owner = (int)co_cpu(p)->cpu;
	} else {
		CO_CALL(f, p, queued_spin_lock_slowpath, .lock = lock);
	}
	/* SIM: statistics */
	lock->acquired++;
	lock->hold_start = p->now;
	CO_END(f, p);
}

bool queued_spin_unlock(struct coh_cpu *cc, struct qspinlock *lock)
{
	struct coh *c = cc->coh;
	unsigned int next;

	/*
	 * smp_store_release(&lock->locked, 0): the release keeps every load
	 * and store of the critical section before the store that frees the
	 * lock, so the next holder, whose wait is a load-acquire, sees them.
	 */
	if (coh_write(cc, lock->val))
		return true;
	SIM_BUG_ON(lock->owner != (int)cc->cpu);
	lock->hold_ps += cc->proc->now - lock->hold_start;
	if (!queued_spin_is_contended(lock)) {
		lock->owner = -1;
		return false;
	}
	/*
	 * SIM: the head of the queue, spinning on the lock word, would see
	 * the locked byte clear; here it is woken now, and the lock is its.
	 */
	next = lock->waiters[lock->head];
	lock->head = (lock->head + 1) % lock->cap;
	lock->nr_waiters--;
	lock->owner = (int)next;
	sim_proc_wake(coh_cpu(c, next)->proc, cc->proc->now);
	return false;
}
