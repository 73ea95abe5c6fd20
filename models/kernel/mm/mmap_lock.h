/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Model of the mm's locks a page fault and an mmap/munmap/madvise take:
 * include/linux/mmap_lock.h and kernel/locking/rwsem.c for mm->mmap_lock,
 * and the per-VMA lock of mm/memory.c lock_vma_under_rcu() (v6.4 on),
 * Linux v6.0 / v6.6 / v6.8, as far as their cache lines go.
 *
 * Theory of operation: a fault at v6.0 takes mmap_read_lock(): down_read()
 * is an atomic add on mm->mmap_lock.count and a store to its owner field
 * (rwsem_set_reader_owned()), up_read() another atomic add. From v6.4 a
 * fault first tries lock_vma_under_rcu(): vma_start_read() reads
 * mm->mm_lock_seq, takes the VMA's own rwsem and reads mm_lock_seq again,
 * so a thread faulting on its own mapping shares only those reads with
 * the others. The fault retries under mmap_read_lock() (after the
 * attempt's reads) when it cannot finish under the VMA lock
 * (mm_fault_vma_locked()):
 *   - the first anon or copy-on-write fault of a VMA, which has no
 *     anon_vma yet (v6.6: lock_vma_under_rcu() refuses such a VMA; v6.8:
 *     vmf_anon_prepare() returns VM_FAULT_RETRY);
 *   - v6.6: every fault of a file-backed VMA (v6.5's do_fault() returns
 *     VM_FAULT_RETRY under the VMA lock; v6.7's "handle shared/COW/read
 *     faults under the VMA lock" lifts it: shmem has ->map_pages, so
 *     vmf_can_call_fault() lets it through at v6.8).
 * mmap(), munmap() take mmap_write_lock(): an atomic on count and the
 * owner store; mmap_write_unlock() at v6.4 on first bumps mm_lock_seq
 * (vma_end_write_all()). madvise(MADV_DONTNEED) takes mmap_read_lock()
 * at every version modelled.
 *
 * SIM: only the lines: the rwsem's exclusion (a writer waiting for the
 * readers, readers for a writer) is not modelled, nor its wait list; the
 * VMA's own lock is the task's, on a line no other task touches, and
 * costs nothing here. An mm whose fields are NULL (a task's private mm,
 * whose lines stay in its cache: that cost is in the workload's work)
 * costs nothing. stats_version stands for the kernel version: v6.0 has
 * no per-VMA locks, v6.6 and v6.8 have them.
 *
 * Layering: models/ module; uses models/hw/cache.h,
 * models/kernel/sim/config.h, sim/.
 */
#ifndef MODELS_KERNEL_MMAP_LOCK_H
#define MODELS_KERNEL_MMAP_LOCK_H

#include <stdbool.h>

#include "models/hw/cache.h"
#include "models/kernel/compat/sim.h"
#include "models/kernel/sim/config.h"
#include "sim/co.h"

/* struct mm_struct: the fields modelled, each NULL when private */
struct mm_struct {
	struct coh_object *obj;
	struct coh_field *count; /* mmap_lock.count */
	struct coh_field *owner; /* mmap_lock.owner */
	struct coh_field *mm_lock_seq; /* v6.4 on */
};

/*
 * mm_struct_init() - SIM: place a shared mm's first line in @coh, or
 * (@coh NULL) make @mm a private one that costs nothing.
 */
void mm_struct_init(struct mm_struct *mm, struct coh *coh, const char *name);

/* Whether the kernel has per-VMA locks (v6.4 on). */
static inline bool mm_per_vma_locks(const struct kernel_config *k)
{
	return k->stats_version != STATS_V6_0;
}

/*
 * mm_fault_vma_locked() - whether a fault finishes under its VMA's lock
 * @k: the kernel (stats_version stands for its version)
 * @file: the VMA maps a file (page_fault2, page_fault3)
 * @needs_anon_vma: the fault makes an anon page (anon or copy-on-write)
 *	and the VMA has no anon_vma yet: its first such fault since mmap()
 */
static inline bool mm_fault_vma_locked(const struct kernel_config *k, bool file,
				       bool needs_anon_vma)
{
	if (!mm_per_vma_locks(k) || needs_anon_vma)
		return false;
	return !(file && k->stats_version == STATS_V6_6);
}

struct mmap_lock_frame {
	struct co_frame co;
	struct mm_struct *mm;
	const struct kernel_config *k;
	bool vma_locked; /* fault_*: mm_fault_vma_locked() of the fault */
};

/* mmap_read_lock(), mmap_read_unlock(), mmap_write_lock(), ..._unlock() */
int mmap_read_lock(struct sim_proc *p, void *frame);
int mmap_read_unlock(struct sim_proc *p, void *frame);
int mmap_write_lock(struct sim_proc *p, void *frame);
int mmap_write_unlock(struct sim_proc *p, void *frame);

/*
 * The fault's lock: lock_vma_under_rcu() (v6.4 on; SIM: the VMA is never
 * being changed, so vma_start_read() succeeds), then, unless @vma_locked,
 * mmap_read_lock() for the retry; and its release, vma_end_read() or
 * mmap_read_unlock().
 */
int fault_lock(struct sim_proc *p, void *frame);
int fault_unlock(struct sim_proc *p, void *frame);

/* The frames, one type for all (CO_CALL names them by function). */
#define mmap_read_lock_frame mmap_lock_frame
#define mmap_read_unlock_frame mmap_lock_frame
#define mmap_write_lock_frame mmap_lock_frame
#define mmap_write_unlock_frame mmap_lock_frame
#define fault_lock_frame mmap_lock_frame
#define fault_unlock_frame mmap_lock_frame

#endif /* MODELS_KERNEL_MMAP_LOCK_H */
