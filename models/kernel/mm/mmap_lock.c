// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of the mm's locks' cache lines (include/linux/mmap_lock.h,
 * kernel/locking/rwsem.c, mm/memory.c lock_vma_under_rcu()), Linux v6.0,
 * v6.6, v6.8. Theory of operation: see mmap_lock.h.
 */
#include "models/kernel/compat/access.h"
#include "models/kernel/sim/insn.h"
#include "models/kernel/mm/mmap_lock.h"
#include "sim/error.h"

/* mm_struct's first line: the rwsem (40 bytes), then mm_lock_seq */
static const struct coh_layout_field mm_fields[] = {
	{ "mmap_lock.count", 0, 8 },
	{ "mmap_lock.owner", 8, 8 },
	{ "mm_lock_seq", 40, 4 },
};

static const struct coh_layout mm_layout = {
	.name = "mm_struct",
	.size = 64,
	.nr_fields = ARRAY_SIZE(mm_fields),
	.fields = mm_fields,
};

void mm_struct_init(struct mm_struct *mm, struct coh *coh, const char *name)
{
	*mm = (struct mm_struct){ 0 };
	if (!coh)
		return;
	mm->obj = coh_object_create(coh, name, &mm_layout, 0);
	SIM_BUG_ON(!mm->obj);
	mm->count = coh_object_field(mm->obj, 0);
	mm->owner = coh_object_field(mm->obj, 1);
	mm->mm_lock_seq = coh_object_field(mm->obj, 2);
}

/*
 * The instructions of @row (insn.h) for a shared mm. SIM: a private mm's
 * locking, its instructions as its lines, is in the workload's work_ns.
 */
static void mm_insn(const struct sim_proc *p, const struct mmap_lock_frame *f,
		    enum insn_row row)
{
	if (f->mm->obj)
		insn_charge(co_cpu(p), row, 1);
}

/* down_read(), down_write(): the atomic on count, then the owner store */
int mmap_read_lock(struct sim_proc *p, void *frame)
{
	struct mmap_lock_frame *f = frame;

	CO_BEGIN(f);
	mm_insn(p, f, INSN_down_read);
	CO_AWAIT(f, co_access(co_cpu(p), f->mm->count, COH_RMW));
	CO_AWAIT(f, co_access(co_cpu(p), f->mm->owner, COH_WRITE));
	CO_END(f, p);
}

/* up_read(): the atomic on count */
int mmap_read_unlock(struct sim_proc *p, void *frame)
{
	struct mmap_lock_frame *f = frame;

	CO_BEGIN(f);
	mm_insn(p, f, INSN_up_read);
	CO_AWAIT(f, co_access(co_cpu(p), f->mm->count, COH_RMW));
	CO_END(f, p);
}

int mmap_write_lock(struct sim_proc *p, void *frame)
{
	struct mmap_lock_frame *f = frame;

	CO_BEGIN(f);
	mm_insn(p, f, INSN_down_write);
	CO_AWAIT(f, co_access(co_cpu(p), f->mm->count, COH_RMW));
	CO_AWAIT(f, co_access(co_cpu(p), f->mm->owner, COH_WRITE));
	CO_END(f, p);
}

/* v6.4 on: vma_end_write_all() bumps mm_lock_seq; then up_write() */
int mmap_write_unlock(struct sim_proc *p, void *frame)
{
	struct mmap_lock_frame *f = frame;

	CO_BEGIN(f);
	mm_insn(p, f, INSN_up_write);
	if (mm_per_vma_locks(f->k))
		CO_AWAIT(f,
			 co_access(co_cpu(p), f->mm->mm_lock_seq, COH_WRITE));
	CO_AWAIT(f, co_access(co_cpu(p), f->mm->owner, COH_WRITE));
	CO_AWAIT(f, co_access(co_cpu(p), f->mm->count, COH_RMW));
	CO_END(f, p);
}

int fault_lock(struct sim_proc *p, void *frame)
{
	struct mmap_lock_frame *f = frame;

	CO_BEGIN(f);
	if (mm_per_vma_locks(f->k)) {
		/*
		 * vma_start_read(): mm_lock_seq before and after the VMA's
		 * down_read_trylock() (its own line: SIM: free; its
		 * instructions down_read_trylock()'s, insn.h)
		 */
		mm_insn(p, f, INSN_down_read_trylock);
		CO_AWAIT(f, co_access(co_cpu(p), f->mm->mm_lock_seq, COH_READ));
		CO_AWAIT(f, co_access(co_cpu(p), f->mm->mm_lock_seq, COH_READ));
		if (f->vma_locked)
			CO_RETURN(f, p, 0);
		/* VM_FAULT_RETRY: vma_end_read(), then the mmap_lock */
	}
	CO_CALL(f, p, mmap_read_lock, .mm = f->mm, .k = f->k);
	CO_END(f, p);
}

int fault_unlock(struct sim_proc *p, void *frame)
{
	struct mmap_lock_frame *f = frame;

	CO_BEGIN(f);
	/* vma_end_read(): the VMA's own lock (SIM: free): up_read() */
	if (mm_per_vma_locks(f->k))
		mm_insn(p, f, INSN_up_read);
	if (!mm_per_vma_locks(f->k) || !f->vma_locked)
		CO_CALL(f, p, mmap_read_unlock, .mm = f->mm, .k = f->k);
	CO_END(f, p);
}
