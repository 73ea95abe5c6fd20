// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of kernel/cgroup/rstat.c (Linux v6.0; v6.6 and v6.8 where they
 * differ). Theory of operation: see rstat.h.
 *
 * The functions follow the kernel file's order: cgroup_rstat_cpu(),
 * cgroup_rstat_updated(), then the walk that takes the updated tree apart
 * (v6.0's cgroup_rstat_cpu_pop_updated(), or v6.8's
 * cgroup_rstat_push_children() and cgroup_rstat_updated_list() in its
 * place), cgroup_rstat_flush_locked(), cgroup_rstat_flush(), the setup
 * (cgroup_rstat_init() and cgroup_rstat_boot(): rstat_create()), and
 * cgroup_base_stat_flush() near the end.
 *
 * One kernel statement is one line: memory accesses use the access
 * macros of models/kernel/compat/access.h, which find a member's line in
 * the struct's coh part. The kernel's "a = b->x" with a load and a store
 * is a load line, then a store line.
 */
#include <stdio.h>
#include <stdlib.h>

#include "models/kernel/compat/access.h"
#include "models/kernel/sim/insn.h"
#include "models/kernel/sim/kprof.h"
#include "models/kernel/kernel/cgroup/rstat.h"
#include "sim/error.h"
#include "sim/util.h"

/*
 * struct cgroup_rstat_cpu's members. SIM: the v6.0 layout (bsync is empty
 * on 64-bit; bstat and last_bstat are 24 bytes each) for every version;
 * later kernels add subtree_bstat and last_subtree_bstat, which moves the
 * links to a second line of the same per-CPU struct.
 */
enum { RSTATC_BSTAT, RSTATC_LAST_BSTAT, RSTATC_CHILDREN, RSTATC_NEXT };

static const struct coh_layout_field rstatc_fields[] = {
	{ "bstat", 0, 24 },
	{ "last_bstat", 24, 24 },
	{ "updated_children", 48, 8 },
	{ "updated_next", 56, 8 },
};

static const struct coh_layout_field lock_fields[] = {
	{ "lock", 0, 4 },
};

/*
 * struct cgroup's rstat_flush_next and base stats, on the line after the
 * read-mostly rstat_cpu pointer (77070eeb8821's padding).
 */
enum { CGRP_FLUSH_NEXT, CGRP_BSTAT };

static const struct coh_layout_field cgrp_fields[] = {
	{ "rstat_flush_next", 0, 8 },
	{ "bstat", 32, 24 },
};

struct cgroup_base_stat_flush_frame {
	struct co_frame co;
	struct rstat *rs;
	int cgrp;
	unsigned int cpu;
	/* locals */
	struct cgroup_rstat_cpu *rstatc;
	int parent;
};

static int cgroup_base_stat_flush(struct sim_proc *p, void *frame);

/*
 * cgroup_rstat_cpu(cgrp, cpu) - @cgrp's struct cgroup_rstat_cpu on @cpu.
 * SIM: the first call places the struct's line (most cgroups are never
 * updated on most CPUs, and their lines cost nothing), so the lines are
 * laid out in the order of first use: call it just before the first
 * access, as the kernel does.
 */
static struct cgroup_rstat_cpu *cgroup_rstat_cpu(struct rstat *rs, int cgrp,
						 unsigned int cpu)
{
	struct cgroup_rstat_cpu *rstatc;
	struct coh_object *obj;
	char name[40];
	struct coh_place at;

	SIM_BUG_ON(cgrp < 0 || (unsigned int)cgrp >= rs->nr_cgroups);
	rstatc = &rs->rstatc[(size_t)cpu * rs->nr_cgroups + (unsigned int)cgrp];
	if (rstatc->coh.updated_next)
		return rstatc;
	snprintf(name, sizeof(name), "rstat_cpu(cgroup%d)@cpu%u", cgrp, cpu);
	/* cgroup_rstat_init(): cgrp->rstat_cpu = alloc_percpu() */
	at = coh_per_cpu(cpu, 0, true);
	obj = coh_object_place(rs->coh, name, &rs->rstatc_layout, &at);
	rstatc->coh.bstat = coh_object_field(obj, RSTATC_BSTAT);
	rstatc->coh.last_bstat = coh_object_field(obj, RSTATC_LAST_BSTAT);
	rstatc->coh.updated_children = coh_object_field(obj, RSTATC_CHILDREN);
	rstatc->coh.updated_next = coh_object_field(obj, RSTATC_NEXT);
	return rstatc;
}

/* SIM: struct cgroup @cgrp (the kernel's cgroups are pointers). */
static struct cgroup *cgroup(struct rstat *rs, int cgrp)
{
	SIM_BUG_ON(cgrp < 0 || (unsigned int)cgrp >= rs->nr_cgroups);
	return &rs->cgroups[cgrp];
}

int cgroup_rstat_updated(struct sim_proc *p, void *frame)
{
	struct cgroup_rstat_updated_frame *f = frame;
	struct rstat *rs = f->rs;

	CO_BEGIN(f);
	ENTER(p, KF_cgroup_rstat_updated);
	f->cpu = co_cpu(p)->cpu;
	f->cpu_lock = &rs->cpu_lock[f->cpu];
	/*
	 * A speculative test, without the lock, of whether @cgrp is on the
	 * tree already. A flush on another CPU may be taking it off at this
	 * very moment, after collecting its counters; then this update waits
	 * until a later one links @cgrp again: a short-lived inaccuracy, the
	 * price of keeping the lock off the common path.
	 *
	 * An updated_children list ends in its parent, not in NULL, so a
	 * NULL updated_next means "not on any list".
	 */
	f->rstatc = cgroup_rstat_cpu(rs, f->cgrp, f->cpu);
	CO_LOAD(f, f->rstatc, updated_next); /* data_race() */
	if (f->rstatc->updated_next >= 0)
		goto out;
	rs->slow_links++; /* SIM: statistics */
	insn_charge(co_cpu(p), INSN_cgroup_rstat_updated_link, 1);
	/* raw_spin_lock_irqsave(cpu_lock, flags) */
	irq_save_restore(p);
	CO_CALL(f, p, queued_spin_lock, .lock = f->cpu_lock);

	/* put @cgrp and all ancestors on the corresponding updated lists */
	for (;;) {
		f->rstatc = cgroup_rstat_cpu(rs, f->cgrp, f->cpu);
		f->parent = rs->parent[f->cgrp];
		/*
		 * Cgroups are linked and unlinked bottom-up: one already on
		 * the tree has all its ancestors on it too.
		 */
		CO_LOAD(f, f->rstatc, updated_next);
		if (f->rstatc->updated_next >= 0)
			break;
		/* the root has no list to join; it points at itself: busy */
		if (f->parent < 0) {
			CO_STORE(f, f->rstatc, updated_next, f->cgrp);
			break;
		}
		f->prstatc = cgroup_rstat_cpu(rs, f->parent, f->cpu);
		/* rstatc->updated_next = prstatc->updated_children; */
		CO_LOAD(f, f->prstatc, updated_children);
		CO_STORE(f, f->rstatc, updated_next,
			 f->prstatc->updated_children);
		CO_STORE(f, f->prstatc, updated_children, f->cgrp);
		f->cgrp = f->parent;
	}
	/* raw_spin_unlock_irqrestore(cpu_lock, flags) */
	CO_AWAIT(f, queued_spin_unlock(co_cpu(p), f->cpu_lock));
out:
	/* SIM: an exported function's return: the caller uses what it loaded */
	CO_FENCE(f);
	EXIT(p);
	CO_END(f, p);
}

/*
 * Unlink @pos from its parent's updated_children list on @cpu. The list
 * is singly linked, so it takes a walk to find the link that points at
 * @pos. SIM: v6.0's cgroup_rstat_cpu_pop_updated() and v6.8's
 * cgroup_rstat_updated_list() both do this walk inline; here they share
 * it.
 */
struct rstat_unlink_frame {
	struct co_frame co;
	struct rstat *rs;
	int pos;
	unsigned int cpu;
	/* locals */
	struct cgroup_rstat_cpu *rstatc, *prstatc, *nrstatc;
	int parent;
	int *nextp;
	struct coh_field *nextp_field; /* SIM: where *nextp lives */
};

static int rstat_unlink(struct sim_proc *p, void *frame)
{
	struct rstat_unlink_frame *f = frame;
	struct rstat *rs = f->rs;

	CO_BEGIN(f);
	f->rstatc = cgroup_rstat_cpu(rs, f->pos, f->cpu);
	f->parent = rs->parent[f->pos];
	if (f->parent < 0)
		CO_RETURN(f, p, 0);
	f->prstatc = cgroup_rstat_cpu(rs, f->parent, f->cpu);
	f->nextp = &f->prstatc->updated_children;
	f->nextp_field = COH_FIELD(f->prstatc, updated_children);
	CO_LOAD_DEP_AT(f, f->nextp_field);
	while (*f->nextp != f->pos) {
		f->nrstatc = cgroup_rstat_cpu(rs, *f->nextp, f->cpu);
		/* WARN_ON_ONCE(); SIM: a model bug, the list lost @pos */
		SIM_BUG_ON(*f->nextp == f->parent);
		f->nextp = &f->nrstatc->updated_next;
		f->nextp_field = COH_FIELD(f->nrstatc, updated_next);
		CO_LOAD_DEP_AT(f, f->nextp_field);
	}
	CO_STORE_AT(f, *f->nextp, f->rstatc->updated_next, f->nextp_field);
	CO_END(f, p);
}

/*
 * cgroup_rstat_cpu_pop_updated(pos, root, cpu) (v6.0) - the next cgroup
 * to flush below @root on @cpu, taken off the tree, or -1 at the end; -1
 * for @pos starts the walk. Called with @cpu's cgroup_rstat_cpu_lock
 * held. A child always comes before its parent.
 */
struct cgroup_rstat_cpu_pop_updated_frame {
	struct co_frame co;
	struct rstat *rs;
	int pos, root;
	unsigned int cpu;
	/* locals */
	struct cgroup_rstat_cpu *rstatc;
};

static int cgroup_rstat_cpu_pop_updated(struct sim_proc *p, void *frame)
{
	struct cgroup_rstat_cpu_pop_updated_frame *f = frame;
	struct rstat *rs = f->rs;

	CO_BEGIN(f);
	if (f->pos == f->root)
		CO_RETURN(f, p, -1);
	/*
	 * Walk down to the first leaf, and take it off. Any node not yet
	 * visited will do as the starting point: after @pos, its parent.
	 */
	if (f->pos < 0) {
		f->pos = f->root;
		/* -1 (NULL) if this subtree is not on the tree */
		f->rstatc = cgroup_rstat_cpu(rs, f->pos, f->cpu);
		CO_LOAD(f, f->rstatc, updated_next);
		if (f->rstatc->updated_next < 0)
			CO_RETURN(f, p, -1);
	} else {
		f->pos = rs->parent[f->pos];
	}

	/* walk down to the first leaf */
	for (;;) {
		f->rstatc = cgroup_rstat_cpu(rs, f->pos, f->cpu);
		CO_LOAD_DEP(f, f->rstatc, updated_children);
		if (f->rstatc->updated_children == f->pos)
			break;
		f->pos = f->rstatc->updated_children;
	}

	/*
	 * Unlink @pos from its parent's list. Walking down as above, @pos
	 * is first on that list nearly always; @root is the exception.
	 */
	CO_CALL(f, p, rstat_unlink, .rs = rs, .pos = f->pos, .cpu = f->cpu);
	CO_STORE(f, f->rstatc, updated_next, -1);
	CO_RETURN(f, p, f->pos);
	CO_END(f, p);
}

/*
 * cgroup_rstat_push_children(head, child, cpu) (v6.8, Waiman Long,
 * d499fd418fa1) - push @child and its siblings, then every level below
 * them, onto the list that starts at @head, and return the new head. The
 * list is built from the tail backward, like a stack, one level of the
 * tree after another, so that children end up before their parents. The
 * caller has pushed the subtree's root.
 */
struct cgroup_rstat_push_children_frame {
	struct co_frame co;
	struct rstat *rs;
	int head, child;
	unsigned int cpu;
	/* locals */
	int chead; /* the head of the child level */
	int ghead; /* the head of the grandchild level */
	int parent, grandchild;
	struct cgroup_rstat_cpu *crstatc;
};

static int cgroup_rstat_push_children(struct sim_proc *p, void *frame)
{
	struct cgroup_rstat_push_children_frame *f = frame;
	struct rstat *rs = f->rs;

	CO_BEGIN(f);
	f->chead = f->child;
	f->ghead = -1;
	CO_STORE(f, cgroup(rs, f->child), rstat_flush_next, -1);

next_level:
	while (f->chead >= 0) {
		f->child = f->chead;
		CO_READ_ONCE_DEP(f, f->chead, cgroup(rs, f->child),
				 rstat_flush_next);
		f->parent = rs->parent[f->child];

		/* a list of siblings ends in their parent */
		while (f->child != f->parent) {
			CO_STORE(f, cgroup(rs, f->child), rstat_flush_next,
				 f->head);
			f->head = f->child;
			f->crstatc = cgroup_rstat_cpu(rs, f->child, f->cpu);
			CO_READ_ONCE_DEP(f, f->grandchild, f->crstatc,
					 updated_children);
			if (f->grandchild != f->child) {
				/* the grandchildren wait for the next level */
				CO_STORE(f, f->crstatc, updated_children,
					 f->child);
				CO_STORE(f, cgroup(rs, f->grandchild),
					 rstat_flush_next, f->ghead);
				f->ghead = f->grandchild;
			}
			/* SIM: this load goes with the store's access */
			f->child = f->crstatc->updated_next;
			CO_STORE(f, f->crstatc, updated_next, -1);
		}
	}

	if (f->ghead >= 0) {
		f->chead = f->ghead;
		f->ghead = -1;
		goto next_level;
	}
	CO_RETURN(f, p, f->head);
	CO_END(f, p);
}

/*
 * cgroup_rstat_updated_list(root, cpu) (v6.8) - take @root's updated
 * subtree on @cpu off the tree, under @cpu's lock, as a list threaded
 * through struct cgroup's rstat_flush_next; return its head, or -1. In
 * the list a child always comes before its parent; that is the only
 * order promised.
 *
 * updated_children is self-terminated and, when not empty, heads a list
 * of children; updated_next links the siblings of that list and ends in
 * their parent. The root's updated_next may point at itself.
 */
struct cgroup_rstat_updated_list_frame {
	struct co_frame co;
	struct rstat *rs;
	int root;
	unsigned int cpu;
	/* locals */
	struct qspinlock *cpu_lock;
	struct cgroup_rstat_cpu *rstatc;
	int head, child;
};

static int cgroup_rstat_updated_list(struct sim_proc *p, void *frame)
{
	struct cgroup_rstat_updated_list_frame *f = frame;
	struct rstat *rs = f->rs;

	CO_BEGIN(f);
	f->cpu_lock = &rs->cpu_lock[f->cpu];
	f->head = -1;
	/* raw_spin_lock_irqsave(cpu_lock, flags) */
	irq_save_restore(p);
	CO_CALL(f, p, queued_spin_lock, .lock = f->cpu_lock);

	/* -1 (NULL) if this subtree is not on the tree */
	/* SIM: rstatc is looked up here, where its line is first used */
	f->rstatc = cgroup_rstat_cpu(rs, f->root, f->cpu);
	CO_LOAD(f, f->rstatc, updated_next);
	if (f->rstatc->updated_next < 0)
		goto unlock_ret;

	/* unlink @root from its parent's list */
	CO_CALL(f, p, rstat_unlink, .rs = rs, .pos = f->root, .cpu = f->cpu);
	CO_STORE(f, f->rstatc, updated_next, -1);

	/* push @root on the list first, then its children */
	f->head = f->root;
	CO_STORE(f, cgroup(rs, f->root), rstat_flush_next, -1);
	CO_READ_ONCE_DEP(f, f->child, f->rstatc, updated_children);
	CO_STORE(f, f->rstatc, updated_children, f->root);
	if (f->child != f->root) {
		CO_CALL(f, p, cgroup_rstat_push_children, .rs = rs,
			.head = f->head, .child = f->child, .cpu = f->cpu);
		f->head = (int)p->ret;
	}
unlock_ret:
	/* raw_spin_unlock_irqrestore(cpu_lock, flags) */
	CO_AWAIT(f, queued_spin_unlock(co_cpu(p), f->cpu_lock));
	CO_RETURN(f, p, f->head);
	CO_END(f, p);
}

/*
 * bpf_rstat_flush(), the hook for BPF statistics collectors, is not
 * modelled (SIM: no BPF programs).
 */

/*
 * cgroup_rstat_flush_locked(cgrp) - flush @cgrp's subtree on every CPU.
 * Called with cgroup_rstat_lock held; may drop and retake it between CPUs
 * (v6.6 on).
 */
struct cgroup_rstat_flush_locked_frame {
	struct co_frame co;
	struct rstat *rs;
	int cgrp;
	/* SIM: v6.0's @may_sleep is rs->version >= STATS_V6_6 */
	/* locals */
	unsigned int cpu;
	struct qspinlock *cpu_lock;
	int pos;
};

static int cgroup_rstat_flush_locked(struct sim_proc *p, void *frame)
{
	struct cgroup_rstat_flush_locked_frame *f = frame;
	struct rstat *rs = f->rs;

	CO_BEGIN(f);
	/* for_each_possible_cpu(cpu) */
	insn_charge(co_cpu(p), INSN_cgroup_rstat_flush_locked, 1);
	for (f->cpu = 0; f->cpu < rs->nr_cpus; f->cpu++) {
		insn_charge(co_cpu(p), INSN_cgroup_rstat_flush_locked_cpu, 1);
		f->cpu_lock = &rs->cpu_lock[f->cpu];
		if (rs->version >= STATS_V6_8) {
			/* the callbacks run after the CPU's lock is dropped */
			CO_CALL(f, p, cgroup_rstat_updated_list, .rs = rs,
				.root = f->cgrp, .cpu = f->cpu);
			for (f->pos = (int)p->ret; f->pos >= 0;
			     f->pos = cgroup(rs, f->pos)->rstat_flush_next) {
				insn_charge(
					co_cpu(p),
					INSN_cgroup_rstat_flush_locked_cgroup,
					1);
				CO_CALL(f, p, cgroup_base_stat_flush, .rs = rs,
					.cgrp = f->pos, .cpu = f->cpu);
				rs->flushed++; /* SIM: statistics */
				CO_CALL_INDIRECT(f, p, rs->css_rstat_flush,
						 struct rstat_cb_frame,
						 .ss = rs->ss,
						 .cgrp = (unsigned int)f->pos,
						 .cpu = f->cpu);
				/* pos = pos->rstat_flush_next */
				CO_LOAD_DEP(f, cgroup(rs, f->pos),
					    rstat_flush_next);
			}
		} else {
			/*
			 * raw_spin_lock_irqsave(cpu_lock, flags). The _irqsave
			 * matters on PREEMPT_RT, where cgroup_rstat_lock
			 * sleeps and its _irq form leaves interrupts on: the
			 * raw per-CPU lock turns them off in every
			 * configuration and restores them as they were.
			 */
			irq_save_restore(p);
			CO_CALL(f, p, queued_spin_lock, .lock = f->cpu_lock);
			/* the callbacks run under the CPU's lock */
			f->pos = -1;
			for (;;) {
				CO_CALL(f, p, cgroup_rstat_cpu_pop_updated,
					.rs = rs, .pos = f->pos,
					.root = f->cgrp, .cpu = f->cpu);
				f->pos = (int)p->ret;
				if (f->pos < 0)
					break;
				insn_charge(
					co_cpu(p),
					INSN_cgroup_rstat_flush_locked_cgroup,
					1);
				CO_CALL(f, p, cgroup_base_stat_flush, .rs = rs,
					.cgrp = f->pos, .cpu = f->cpu);
				rs->flushed++; /* SIM: statistics */
				CO_CALL_INDIRECT(f, p, rs->css_rstat_flush,
						 struct rstat_cb_frame,
						 .ss = rs->ss,
						 .cgrp = (unsigned int)f->pos,
						 .cpu = f->cpu);
			}
			/* raw_spin_unlock_irqrestore(cpu_lock, flags) */
			CO_AWAIT(f, queued_spin_unlock(co_cpu(p), f->cpu_lock));
		}

		/*
		 * Play nice (v6.0 only if @may_sleep, v6.6 on always): when
		 * another CPU waits for cgroup_rstat_lock, let it in between
		 * two CPUs. spin_needbreak() reads the lock word.
		 * SIM: CONFIG_PREEMPTION (PREEMPT_DYNAMIC distro builds);
		 * without it spin_needbreak() is 0 and the lock is held
		 * throughout, as v6.0's. need_resched() is never true (no
		 * scheduler).
		 */
		if (rs->version < STATS_V6_6)
			continue;
		CO_LOAD_AT(f, rs->cgroup_rstat_lock.val);
		if (queued_spin_is_contended(&rs->cgroup_rstat_lock)) {
			/*
			 * spin_unlock_irq(), cond_resched(), spin_lock_irq().
			 * SIM: this spin_lock_irq() pays no irq_save_restore(),
			 * while the first one, in cgroup_rstat_flush(), does:
			 * an open question of pricing, left as it was.
			 */
			CO_AWAIT(f, queued_spin_unlock(co_cpu(p),
						       &rs->cgroup_rstat_lock));
			CO_CALL(f, p, queued_spin_lock,
				.lock = &rs->cgroup_rstat_lock);
		}
	}
	CO_END(f, p);
}

int cgroup_rstat_flush(struct sim_proc *p, void *frame)
{
	struct cgroup_rstat_flush_frame *f = frame;
	struct rstat *rs = f->rs;

	CO_BEGIN(f);
	ENTER(p, KF_cgroup_rstat_flush);
	/* spin_lock_irq(&cgroup_rstat_lock) (v6.0: spin_lock_irqsave()) */
	irq_save_restore(p);
	CO_CALL(f, p, queued_spin_lock, .lock = &rs->cgroup_rstat_lock);
	CO_CALL(f, p, cgroup_rstat_flush_locked, .rs = rs, .cgrp = f->cgrp);
	/* spin_unlock_irq(&cgroup_rstat_lock) */
	CO_AWAIT(f, queued_spin_unlock(co_cpu(p), &rs->cgroup_rstat_lock));
	/* SIM: an exported function's return */
	CO_FENCE(f);
	EXIT(p);
	CO_END(f, p);
}

/*
 * SIM: setup. cgroup_rstat_init() for every cgroup and
 * cgroup_rstat_boot() in one, with the lines the model places.
 */
struct rstat *rstat_create(struct coh *coh, enum kernel_stats_version v,
			   unsigned int nr_cpus, const int *parent,
			   unsigned int nr_cgroups,
			   int (*css_rstat_flush)(struct sim_proc *, void *),
			   void *ss)
{
	struct rstat *rs = calloc(1, sizeof(*rs));
	struct coh_object *obj;
	unsigned int cpu, cg;
	char name[40];
	struct coh_place at;

	SIM_OOM_ON(!rs);
	rs->coh = coh;
	rs->version = v;
	rs->nr_cpus = nr_cpus;
	rs->nr_cgroups = nr_cgroups;
	rs->parent = parent;
	rs->css_rstat_flush = css_rstat_flush;
	rs->ss = ss;
	rs->rstatc_layout = (struct coh_layout){ "cgroup_rstat_cpu", 64,
						 ARRAY_SIZE(rstatc_fields),
						 rstatc_fields };
	rs->lock_layout = (struct coh_layout){ "spinlock_t", 4,
					       ARRAY_SIZE(lock_fields),
					       lock_fields };
	rs->cgrp_layout = (struct coh_layout){ "cgroup", 64,
					       ARRAY_SIZE(cgrp_fields),
					       cgrp_fields };
	rs->rstatc = calloc((size_t)nr_cpus * nr_cgroups, sizeof(*rs->rstatc));
	rs->cpu_lock = calloc(nr_cpus, sizeof(*rs->cpu_lock));
	rs->cpu_lock_obj = calloc(nr_cpus, sizeof(*rs->cpu_lock_obj));
	rs->cgroups = calloc(nr_cgroups, sizeof(*rs->cgroups));
	SIM_OOM_ON(!rs->rstatc || !rs->cpu_lock || !rs->cpu_lock_obj ||
		   !rs->cgroups);
	/* cgroup_rstat_init(): ->updated_children lists are self-terminated */
	for (cpu = 0; cpu < nr_cpus; cpu++)
		for (cg = 0; cg < nr_cgroups; cg++) {
			struct cgroup_rstat_cpu *rc =
				&rs->rstatc[(size_t)cpu * nr_cgroups + cg];

			rc->updated_children = (int)cg;
			rc->updated_next = -1;
		}
	rs->rstat_lock_obj = coh_object_create(coh, "cgroup_rstat_lock",
					       &rs->lock_layout, 0);
	qspinlock_init(&rs->cgroup_rstat_lock,
		       coh_object_field(rs->rstat_lock_obj, 0), nr_cpus);
	/* cgroup_rstat_boot(): every CPU's cgroup_rstat_cpu_lock */
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		snprintf(name, sizeof(name), "cgroup_rstat_cpu_lock@cpu%u",
			 cpu);
		/* static DEFINE_PER_CPU(raw_spinlock_t, ...) */
		at = coh_per_cpu(cpu, 0, false);
		rs->cpu_lock_obj[cpu] =
			coh_object_place(coh, name, &rs->lock_layout, &at);
		qspinlock_init(&rs->cpu_lock[cpu],
			       coh_object_field(rs->cpu_lock_obj[cpu], 0),
			       nr_cpus);
	}
	for (cg = 0; cg < nr_cgroups; cg++) {
		snprintf(name, sizeof(name), "cgroup%u", cg);
		obj = coh_object_create(coh, name, &rs->cgrp_layout, 0);
		rs->cgroups[cg].coh.rstat_flush_next =
			coh_object_field(obj, CGRP_FLUSH_NEXT);
		rs->cgroups[cg].coh.bstat = coh_object_field(obj, CGRP_BSTAT);
	}
	return rs;
}

void rstat_free(struct rstat *rs)
{
	unsigned int cpu;

	if (!rs)
		return;
	qspinlock_destroy(&rs->cgroup_rstat_lock);
	for (cpu = 0; cpu < rs->nr_cpus; cpu++)
		qspinlock_destroy(&rs->cpu_lock[cpu]);
	free(rs->rstatc);
	free(rs->cpu_lock);
	free(rs->cpu_lock_obj);
	free(rs->cgroups);
	free(rs);
}

bool rstat_linked(const struct rstat *rs, unsigned int cgrp, unsigned int cpu)
{
	const struct cgroup_rstat_cpu *rc =
		&rs->rstatc[(size_t)cpu * rs->nr_cgroups + cgrp];

	return rc->updated_next >= 0;
}

/*
 * cgroup_base_stat_flush(cgrp, cpu) - the cgroup's own statistics, CPU
 * time: collect @cpu's delta into the cgroup, and the cgroup's into its
 * parent. SIM: priced as the accesses to the lines it touches, one per
 * line (rstat.h); the values are not kept.
 */
static int cgroup_base_stat_flush(struct sim_proc *p, void *frame)
{
	struct cgroup_base_stat_flush_frame *f = frame;
	struct rstat *rs = f->rs;

	CO_BEGIN(f);
	f->parent = rs->parent[f->cgrp];
	/* the root's statistics come from the system-wide CPU statistics */
	if (f->parent < 0)
		CO_RETURN(f, p, 0);

	/* fetch the current per-cpu values (SIM: no u64_stats retry) */
	f->rstatc = cgroup_rstat_cpu(rs, f->cgrp, f->cpu);
	CO_LOAD(f, f->rstatc, bstat);
	/* propagate the per-cpu delta to the cgroup (SIM: stores, no value) */
	CO_AWAIT(f, coh_write(co_cpu(p), COH_FIELD(f->rstatc, last_bstat)));
	CO_AWAIT(f,
		 coh_write(co_cpu(p), COH_FIELD(cgroup(rs, f->cgrp), bstat)));
	/* and the cgroup's delta to its parent, unless that is the root */
	if (rs->parent[f->parent] >= 0)
		CO_AWAIT(f, coh_write(co_cpu(p),
				      COH_FIELD(cgroup(rs, f->parent), bstat)));
	CO_END(f, p);
}
