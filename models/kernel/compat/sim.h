/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/kernel/compat/sim.h - the kernel's implicit context, and the
 * helpers every modelled kernel file shares.
 *
 * The kernel never passes the CPU it runs on: smp_processor_id() and the
 * this_cpu_*() operations find it, and the kernel's globals (here the
 * memcg world, struct memcg_sim) are simply there. A model coroutine
 * finds both through its process: sim_proc.owner points to an object
 * whose first member is a struct kernel_ctx (a workload's struct
 * sim_task, the run's kworker, a test's harness), so a call carries the
 * kernel's arguments and nothing else:
 *
 *	kernel                              model
 *	page_counter_cancel(c, nr_pages);   CO_CALL(f, p, page_counter_cancel,
 *	                                            .counter = c,
 *	                                            .nr_pages = n);
 *	smp_processor_id()                  co_cpu(p)->cpu
 *
 * Cost: co_cpu(p) is two loads, p->owner (on the process's first host
 * line) and the context (on its owner's first line, which the engine
 * loads with the process: sim_proc_prefetch()); a call no longer copies
 * either into the callee's frame.
 *
 * The helpers every modelled kernel file uses, defined here once: NOW(),
 * ENTER() and EXIT() (time and instructions by kernel function), and
 * irq_save_restore().
 *
 * Layering: models/kernel/ primitive; uses models/hw/cache.h,
 * models/kernel/sim/{insn,kprof}.h, sim/engine.h.
 */
#ifndef MODELS_KERNEL_COMPAT_SIM_H
#define MODELS_KERNEL_COMPAT_SIM_H

#include "models/hw/cache.h"
#include "models/kernel/sim/insn.h"
#include "models/kernel/sim/kprof.h"
#include "sim/engine.h"

struct memcg_sim;

/*
 * struct kernel_ctx - what kernel code reaches without being passed it.
 * @cc: the CPU the process runs on, or NULL (unit tests of the
 * arithmetic: every access is then free)
 * @ms: the memcg world, the kernel's globals of mm/memcontrol.c (SIM)
 */
struct kernel_ctx {
	struct coh_cpu *cc;
	struct memcg_sim *ms;
};

/* The context of @p: the first member of its owner. */
static inline struct kernel_ctx *kernel_ctx(const struct sim_proc *p)
{
	return (struct kernel_ctx *)p->owner;
}

/* The CPU @p runs on (smp_processor_id()'s), or NULL. */
static inline struct coh_cpu *co_cpu(const struct sim_proc *p)
{
	return kernel_ctx(p)->cc;
}

/* The memcg world @p's kernel code works in. */
static inline struct memcg_sim *this_ms(const struct sim_proc *p)
{
	return kernel_ctx(p)->ms;
}

/* SIM: the time kernel code runs at on @p's CPU (its process's clock). */
#define NOW(p) ((p)->now)

/*
 * ENTER(p, id) at a kernel function's entry, EXIT(p) at its returns (SIM):
 * the time spent in it, by function (models/kernel/sim/kprof.h), and its
 * per-call instructions (insn_enter()); nothing without a CPU.
 */
static inline struct kprof *co_prof(const struct sim_proc *p)
{
	struct coh_cpu *cc = co_cpu(p);

	return cc ? cc->prof : NULL;
}

#define ENTER(p, id) insn_kprof_enter(co_cpu(p), (id), NOW(p))
#define EXIT(p) KPROF_EXIT(co_prof(p), NOW(p))

/*
 * local_irq_save() and local_irq_restore() together (and the irqsave
 * forms of the locks): no shared memory, a fixed CPU cost from the
 * profile (irq_save_restore; 0 when the profile has none), paid when the
 * lock is taken with interrupts off.
 */
static inline void irq_save_restore(const struct sim_proc *p)
{
	struct coh_cpu *cc = co_cpu(p);

	coh_delay(cc, coh_machine(cc->coh)->irq_save_restore_ps);
}

#endif /* MODELS_KERNEL_COMPAT_SIM_H */
