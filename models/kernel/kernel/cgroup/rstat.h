/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/kernel/kernel/cgroup/rstat.h - model of kernel/cgroup/rstat.c: the per-CPU
 * "updated" trees and cgroup_rstat_flush(), at Linux v6.0 with the v6.6
 * and v6.8 differences (doc/memcg-stats.md sections 2 and 3).
 *
 * Theory of operation. Every cgroup has, on every possible CPU, a struct
 * cgroup_rstat_cpu holding two links: updated_children (the head of the
 * list of its children updated on this CPU, self-terminated: an empty
 * list points at the cgroup itself) and updated_next (its own place in
 * its parent's list; NULL while it is not linked). After updates of a1
 * and then of b on one CPU:
 *
 *	/ (root)     root   updated_children  b -> a -> root
 *	+-- a        root   updated_next      root (on the tree, no parent)
 *	|   +-- a1   a      updated_children  a1 -> a
 *	+-- b        a1, b  updated_children  themselves (no children)
 *
 * A list ends in the parent whose list it is, not in NULL.
 *
 * cgroup_rstat_updated(cgrp, cpu) is called on every statistics update.
 * When updated_next is already set (the common case) it returns after
 * that one CPU-local load. Otherwise it takes the CPU's raw spinlock
 * cgroup_rstat_cpu_lock and links the cgroup, then each ancestor not yet
 * linked, into its parent's list. The root links itself to itself.
 *
 * cgroup_rstat_flush(cgrp) takes the global cgroup_rstat_lock and, for
 * each possible CPU, takes that CPU's lock and pops the updated subtree
 * below @cgrp leaf first (a child is always flushed before its parent on
 * that CPU, so its deltas reach the parent's pending counts in time), and
 * calls the controller's css_rstat_flush(css, cpu) for each popped
 * cgroup. All of this touches the updater CPUs' own lines: the locks,
 * the links, and in the callback their counters.
 *
 * Versions:
 *  - v6.0 (cgroup_rstat_flush_irqsafe, memcg's only form): the global
 *    lock is held, interrupts off, across all CPUs, and each CPU's lock
 *    across its callbacks.
 *  - v6.6 (sleepable cgroup_rstat_flush): between CPUs the global lock is
 *    dropped and taken again when another CPU waits for it
 *    (spin_needbreak()).
 *  - v6.8 (Waiman Long, d499fd418fa1 "cgroup/rstat: Reduce cpu_lock hold
 *    time in cgroup_rstat_flush_locked()"): under each CPU's lock the
 *    updated subtree is only detached, level by level, into a list
 *    threaded through struct cgroup's rstat_flush_next
 *    (cgroup_rstat_updated_list()); the callbacks run after the lock is
 *    dropped, walking that list.
 *
 * Cgroups are numbered as the scenario's cgroup tree (0 is the root); the
 * model has one cgroup per memcg and memcg is the only controller.
 *
 * SIM: cgroup_base_stat_flush() (cputime) is priced as a read of the
 * per-CPU base stat and writes of the cgroup's and its parent's; the
 * scheduler's cputime accounting, which also calls cgroup_rstat_updated(),
 * is not modelled, so only statistics updates link cgroups. need_resched()
 * is never true (no scheduler): only a waiter on the lock makes a
 * sleepable flush drop it (spin_needbreak() with CONFIG_PREEMPTION, as
 * PREEMPT_DYNAMIC distro kernels have). BPF rstat flushers are absent.
 *
 * Layering: models/kernel/ module; uses models/hw/cache.h,
 * models/kernel/kernel/locking/qspinlock.h and sim/co.h; memcg's statistics call it.
 */
#ifndef MODELS_KERNEL_RSTAT_H
#define MODELS_KERNEL_RSTAT_H

#include <stdbool.h>

#include "models/hw/cache.h"
#include "models/kernel/compat/sim.h"
#include "models/kernel/sim/config.h"
#include "models/kernel/kernel/locking/qspinlock.h"
#include "sim/co.h"

/*
 * struct cgroup_rstat_cpu - a cgroup's rstat state on one CPU: the links,
 * as cgroup numbers, -1 for NULL.
 */
struct cgroup_rstat_cpu {
	int updated_children; /* its updated children; itself if none */
	int updated_next; /* its next sibling, ending in the parent */
	/*
	 * SIM: where the members live (compat/access.h), placed when
	 * cgroup_rstat_cpu() first returns the struct; bstat and last_bstat
	 * have no value in the model.
	 */
	struct {
		struct coh_field *bstat, *last_bstat;
		struct coh_field *updated_children, *updated_next;
	} coh;
};

/*
 * struct cgroup - what rstat uses of a cgroup. SIM: the model's cgroups
 * are numbers (the scenario's tree, 0 the root); of struct cgroup it has
 * v6.8's flush list link and the lines a flush touches.
 */
struct cgroup {
	int rstat_flush_next; /* v6.8: the next to flush, -1 for NULL */
	/* SIM: where the members live; bstat has no value in the model */
	struct {
		struct coh_field *rstat_flush_next, *bstat;
	} coh;
};

struct rstat;

/*
 * The controller's css_rstat_flush(css, cpu), a coroutine: its frame is
 * struct rstat_cb_frame.
 */
struct rstat_cb_frame {
	struct co_frame co;
	void *ss; /* the controller's state */
	unsigned int cgrp, cpu;
};

/*
 * struct rstat - rstat's state on one machine. SIM: the kernel's static
 * cgroup_rstat_lock and per-CPU cgroup_rstat_cpu_lock, every cgroup's
 * per-CPU struct cgroup_rstat_cpu and struct cgroup, in one place.
 */
struct rstat {
	struct coh *coh;
	enum kernel_stats_version version;
	unsigned int nr_cpus, nr_cgroups;
	const int *parent; /* [nr_cgroups], -1 for the root */
	struct cgroup_rstat_cpu *rstatc; /* [cpu * nr_cgroups + cgrp] */
	struct coh_layout rstatc_layout, lock_layout, cgrp_layout;
	struct qspinlock cgroup_rstat_lock;
	struct coh_object *rstat_lock_obj;
	struct qspinlock *cpu_lock; /* [nr_cpus] cgroup_rstat_cpu_lock */
	struct coh_object **cpu_lock_obj;
	struct cgroup *cgroups; /* [nr_cgroups] */
	int (*css_rstat_flush)(struct sim_proc *p, void *frame);
	void *ss;
	/* statistics */
	uint64_t slow_links; /* cgroup_rstat_updated() slow paths */
	uint64_t flushed; /* css_rstat_flush() calls */
};

/**
 * rstat_create() - the rstat state of a machine: every cgroup's per-CPU
 * struct cgroup_rstat_cpu, empty, and the locks.
 * @coh: the coherence model that places the lines
 * @v: the kernel version's flush (v6.0, v6.6 or v6.8)
 * @nr_cpus: possible CPUs
 * @parent: [@nr_cgroups] each cgroup's parent, -1 for the root; kept, so
 *	it must outlive the result
 * @nr_cgroups: cgroups, numbered as the scenario's tree (0 is the root)
 * @css_rstat_flush: the controller's callback, a coroutine whose frame is
 *	struct rstat_cb_frame
 * @ss: the controller's state, passed to @css_rstat_flush
 *
 * SIM: cgroup_rstat_init() for every cgroup and cgroup_rstat_boot() in
 * one.
 *
 * Context: setup, before the simulation runs.
 * Return: the state; free it with rstat_free(). Never NULL (asserts on
 * out of memory).
 */
struct rstat *rstat_create(struct coh *coh, enum kernel_stats_version v,
			   unsigned int nr_cpus, const int *parent,
			   unsigned int nr_cgroups,
			   int (*css_rstat_flush)(struct sim_proc *, void *),
			   void *ss);

/**
 * rstat_free() - free what rstat_create() made (not the lines: @rs's
 * coherence model owns them).
 * @rs: the state, or NULL
 *
 * Context: teardown, after the simulation.
 */
void rstat_free(struct rstat *rs);

/**
 * rstat_linked() - is @cgrp on @cpu's updated tree?
 * @rs: the state
 * @cgrp: the cgroup
 * @cpu: the CPU
 *
 * SIM: the model's view, for tests; no simulated access.
 *
 * Context: anywhere, outside simulated time.
 */
bool rstat_linked(const struct rstat *rs, unsigned int cgrp, unsigned int cpu);

struct cgroup_rstat_updated_frame {
	struct co_frame co;
	struct rstat *rs; /* SIM: the rstat globals */
	int cgrp;
	/* locals */
	unsigned int cpu; /* SIM: @cpu, always co_cpu(p)'s (below) */
	struct qspinlock *cpu_lock;
	struct cgroup_rstat_cpu *rstatc, *prstatc;
	int parent;
};

/**
 * cgroup_rstat_updated() - coroutine: @cgrp's statistics on this CPU
 * changed; make sure the next flush visits it.
 * @p: the process (its CPU: co_cpu(p))
 * @frame: struct cgroup_rstat_updated_frame: @rs, @cgrp
 *
 * Puts @cgrp on the updated_children list of its parent on the CPU, and
 * each ancestor not yet on the tree on its parent's, up to the root. A
 * cgroup already on the tree costs one CPU-local load.
 *
 * Context: the simulated CPU co_cpu(p), in a coroutine: CO_CALL(f, p,
 * cgroup_rstat_updated, .rs = rs, .cgrp = cgrp). SIM: the
 * kernel's @cpu is always co_cpu(p)'s (memcg passes smp_processor_id()).
 * Takes that CPU's cgroup_rstat_cpu_lock with interrupts off when it
 * links; may wait for it. Ends with a fence, as an exported function's
 * return.
 */
int cgroup_rstat_updated(struct sim_proc *p, void *frame);

struct cgroup_rstat_flush_frame {
	struct co_frame co;
	struct rstat *rs; /* SIM: the rstat globals */
	int cgrp;
};

/**
 * cgroup_rstat_flush() - coroutine: collect the per-CPU statistics of
 * @cgrp's subtree.
 * @p: the process (its CPU: co_cpu(p))
 * @frame: struct cgroup_rstat_flush_frame: @rs, @cgrp
 *
 * Takes cgroup_rstat_lock, takes every updated cgroup below @cgrp off
 * every CPU's tree, children before parents, and calls the controller's
 * css_rstat_flush() for each; releases the lock. Afterwards the subtree
 * is off every tree. SIM: v6.0's memcg calls cgroup_rstat_flush_irqsafe();
 * this one function stands for both forms: from v6.6 on it may let a
 * waiter have the lock between CPUs, as the sleepable form does.
 *
 * Context: the simulated CPU co_cpu(p), in a coroutine: CO_CALL(f, p,
 * cgroup_rstat_flush, .rs = rs, .cgrp = cgrp). Interrupts off
 * while it holds cgroup_rstat_lock; may wait for the locks and for every
 * updater CPU's lines. Ends with a fence.
 */
int cgroup_rstat_flush(struct sim_proc *p, void *frame);

#endif /* MODELS_KERNEL_RSTAT_H */
