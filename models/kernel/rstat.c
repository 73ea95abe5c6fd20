// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of kernel/cgroup/rstat.c (Linux v6.0; v6.6 and v6.8 where they
 * differ). Theory of operation: see rstat.h.
 */
#include <stdio.h>
#include <stdlib.h>

#include "models/kernel/kprof.h"
#include "models/kernel/rstat.h"
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


#define NOW(f) ((f)->cc->proc->now)
#define ENTER(f, id) KPROF_ENTER((f)->cc->prof, (id), NOW(f))
#define EXIT(f) KPROF_EXIT((f)->cc->prof, NOW(f))

struct rstat *rstat_create(struct coh *coh, enum kernel_stats_version v,
			   unsigned int nr_cpus, const int *parent,
			   unsigned int nr_cgroups,
			   int (*css_rstat_flush)(struct sim_proc *, void *),
			   void *ss)
{
	struct rstat *rs = calloc(1, sizeof(*rs));
	unsigned int cpu, cg;
	char name[40];

	SIM_BUG_ON(!rs);
	rs->coh = coh;
	rs->version = v;
	rs->nr_cpus = nr_cpus;
	rs->nr_cgroups = nr_cgroups;
	rs->parent = parent;
	rs->css_rstat_flush = css_rstat_flush;
	rs->ss = ss;
	rs->rstatc_layout = (struct coh_layout){ "cgroup_rstat_cpu", 64,
		ARRAY_SIZE(rstatc_fields), rstatc_fields };
	rs->lock_layout = (struct coh_layout){ "spinlock_t", 4,
		ARRAY_SIZE(lock_fields), lock_fields };
	rs->cgrp_layout = (struct coh_layout){ "cgroup", 64,
		ARRAY_SIZE(cgrp_fields), cgrp_fields };
	rs->rstatc = calloc((size_t)nr_cpus * nr_cgroups, sizeof(*rs->rstatc));
	rs->cpu_lock = calloc(nr_cpus, sizeof(*rs->cpu_lock));
	rs->cpu_lock_obj = calloc(nr_cpus, sizeof(*rs->cpu_lock_obj));
	rs->cgrp_obj = calloc(nr_cgroups, sizeof(*rs->cgrp_obj));
	rs->flush_next = calloc(nr_cgroups, sizeof(*rs->flush_next));
	SIM_BUG_ON(!rs->rstatc || !rs->cpu_lock || !rs->cpu_lock_obj ||
		   !rs->cgrp_obj || !rs->flush_next);
	/* cgroup_rstat_init(): every list starts empty, self-terminated */
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
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		snprintf(name, sizeof(name), "cgroup_rstat_cpu_lock@cpu%u", cpu);
		rs->cpu_lock_obj[cpu] = coh_object_create(coh, name,
							  &rs->lock_layout, 0);
		qspinlock_init(&rs->cpu_lock[cpu],
			       coh_object_field(rs->cpu_lock_obj[cpu], 0),
			       nr_cpus);
	}
	for (cg = 0; cg < nr_cgroups; cg++) {
		snprintf(name, sizeof(name), "cgroup%u", cg);
		rs->cgrp_obj[cg] = coh_object_create(coh, name,
						     &rs->cgrp_layout, 0);
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
	free(rs->cgrp_obj);
	free(rs->flush_next);
	free(rs);
}

static struct cgroup_rstat_cpu *cgroup_rstat_cpu(struct rstat *rs, int cgrp,
						 unsigned int cpu)
{
	SIM_BUG_ON(cgrp < 0 || (unsigned int)cgrp >= rs->nr_cgroups);
	return &rs->rstatc[(size_t)cpu * rs->nr_cgroups + (unsigned int)cgrp];
}

bool rstat_linked(const struct rstat *rs, unsigned int cgrp, unsigned int cpu)
{
	return rs->rstatc[(size_t)cpu * rs->nr_cgroups + cgrp].updated_next >= 0;
}

/* The line of one member of cgroup_rstat_cpu(cgrp, cpu), made on first use. */
static struct coh_field *rstatc_field(struct rstat *rs, int cgrp,
				      unsigned int cpu, unsigned int member)
{
	struct cgroup_rstat_cpu *rc = cgroup_rstat_cpu(rs, cgrp, cpu);
	char name[40];

	if (!rc->obj) {
		snprintf(name, sizeof(name), "rstat_cpu(cgroup%d)@cpu%u", cgrp,
			 cpu);
		rc->obj = coh_object_create(rs->coh, name, &rs->rstatc_layout,
					    0);
	}
	return coh_object_field(rc->obj, member);
}

static void irq_save_restore(struct coh_cpu *cc)
{
	coh_delay(cc, coh_machine(cc->coh)->irq_save_restore_ps);
}

int cgroup_rstat_updated(struct sim_proc *p, void *frame)
{
	struct rstat_frame *f = frame;
	struct rstat *rs = f->rs;
	struct cgroup_rstat_cpu *rc, *prc;

	CO_BEGIN(f);
	ENTER(f, KF_cgroup_rstat_updated);
	f->cpu = f->cc->cpu;
	/*
	 * Lockless: a cgroup already on this CPU's tree stays there until a
	 * flush pops it (data_race() read of updated_next).
	 */
	CO_AWAIT(f, coh_read(f->cc, rstatc_field(rs, (int)f->cgrp, f->cpu,
						 RSTATC_NEXT)));
	if (cgroup_rstat_cpu(rs, (int)f->cgrp, f->cpu)->updated_next >= 0)
		goto out;
	rs->slow_links++;
	/* raw_spin_lock_irqsave(cpu_lock, flags) */
	irq_save_restore(f->cc);
	CO_CALL(f, p, queued_spin_lock, .cc = f->cc,
		.lock = &rs->cpu_lock[f->cpu]);
	f->pos = (int)f->cgrp;
	for (;;) {
		CO_AWAIT(f, coh_read(f->cc, rstatc_field(rs, f->pos, f->cpu,
							 RSTATC_NEXT)));
		/* someone else linked it: so are its ancestors */
		if (cgroup_rstat_cpu(rs, f->pos, f->cpu)->updated_next >= 0)
			break;
		f->parent = rs->parent[f->pos];
		if (f->parent < 0) {
			/* the root marks itself busy by pointing at itself */
			CO_AWAIT(f, coh_write(f->cc,
					      rstatc_field(rs, f->pos, f->cpu,
							   RSTATC_NEXT)));
			cgroup_rstat_cpu(rs, f->pos, f->cpu)->updated_next =
				f->pos;
			break;
		}
		CO_AWAIT(f, coh_read(f->cc, rstatc_field(rs, f->parent, f->cpu,
							 RSTATC_CHILDREN)));
		CO_AWAIT(f, coh_write(f->cc, rstatc_field(rs, f->pos, f->cpu,
							  RSTATC_NEXT)));
		CO_AWAIT(f, coh_write(f->cc, rstatc_field(rs, f->parent,
							  f->cpu,
							  RSTATC_CHILDREN)));
		/* push @pos at the head of the parent's list */
		rc = cgroup_rstat_cpu(rs, f->pos, f->cpu);
		prc = cgroup_rstat_cpu(rs, f->parent, f->cpu);
		rc->updated_next = prc->updated_children;
		prc->updated_children = f->pos;
		f->pos = f->parent;
	}
	CO_AWAIT(f, queued_spin_unlock(f->cc, &rs->cpu_lock[f->cpu]));
out:
	/* an exported function's return: the caller uses what it loaded */
	CO_AWAIT(f, coh_fence(f->cc));
	EXIT(f);
	CO_END(f, p);
}

/*
 * Unlink @pos from its parent's updated_children list on @cpu: the list
 * is singly linked, so walk it to the removal point. Both v6.0's
 * cgroup_rstat_cpu_pop_updated() and v6.8's cgroup_rstat_updated_list()
 * do this walk (SIM: one helper for the two copies).
 */
struct unlink_frame {
	struct co_frame co;
	struct rstat *rs;
	struct coh_cpu *cc;
	int pos;
	unsigned int cpu;
	/* locals */
	int parent, at, cur;
};
/* SIM: transitional: these functions still share struct unlink_frame */
#define rstat_unlink_frame unlink_frame

static int rstat_unlink(struct sim_proc *p, void *frame)
{
	struct unlink_frame *f = frame;
	struct rstat *rs = f->rs;

	CO_BEGIN(f);
	f->parent = rs->parent[f->pos];
	if (f->parent < 0)
		CO_RETURN(f, p, 0);
	CO_AWAIT(f, coh_read(f->cc, rstatc_field(rs, f->parent, f->cpu,
						 RSTATC_CHILDREN)));
	f->at = -1;	/* the parent's updated_children */
	f->cur = cgroup_rstat_cpu(rs, f->parent, f->cpu)->updated_children;
	while (f->cur != f->pos) {
		SIM_BUG_ON(f->cur == f->parent);
		CO_AWAIT(f, coh_read(f->cc, rstatc_field(rs, f->cur, f->cpu,
							 RSTATC_NEXT)));
		f->at = f->cur;
		f->cur = cgroup_rstat_cpu(rs, f->cur, f->cpu)->updated_next;
	}
	if (f->at < 0) {
		CO_AWAIT(f, coh_write(f->cc, rstatc_field(rs, f->parent, f->cpu,
							  RSTATC_CHILDREN)));
		cgroup_rstat_cpu(rs, f->parent, f->cpu)->updated_children =
			cgroup_rstat_cpu(rs, f->pos, f->cpu)->updated_next;
	} else {
		CO_AWAIT(f, coh_write(f->cc, rstatc_field(rs, f->at, f->cpu,
							  RSTATC_NEXT)));
		cgroup_rstat_cpu(rs, f->at, f->cpu)->updated_next =
			cgroup_rstat_cpu(rs, f->pos, f->cpu)->updated_next;
	}
	CO_END(f, p);
}

/* cgroup_rstat_cpu_pop_updated(pos, root, cpu): the next to flush, or -1 */
struct pop_frame {
	struct co_frame co;
	struct rstat *rs;
	struct coh_cpu *cc;
	int pos, root;
	unsigned int cpu;
};
/* SIM: transitional: these functions still share struct pop_frame */
#define cgroup_rstat_cpu_pop_updated_frame pop_frame

static int cgroup_rstat_cpu_pop_updated(struct sim_proc *p, void *frame)
{
	struct pop_frame *f = frame;
	struct rstat *rs = f->rs;
	struct cgroup_rstat_cpu *rc;

	CO_BEGIN(f);
	if (f->pos == f->root)
		CO_RETURN(f, p, -1);
	if (f->pos < 0) {
		/* the first call: nothing if @root is not on the tree */
		f->pos = f->root;
		CO_AWAIT(f, coh_read(f->cc, rstatc_field(rs, f->pos, f->cpu,
							 RSTATC_NEXT)));
		if (cgroup_rstat_cpu(rs, f->pos, f->cpu)->updated_next < 0)
			CO_RETURN(f, p, -1);
	} else {
		/* @pos was popped: its parent's remaining subtree is next */
		f->pos = rs->parent[f->pos];
	}
	/* walk down to the first leaf */
	for (;;) {
		CO_AWAIT(f, coh_read(f->cc, rstatc_field(rs, f->pos, f->cpu,
							 RSTATC_CHILDREN)));
		rc = cgroup_rstat_cpu(rs, f->pos, f->cpu);
		if (rc->updated_children == f->pos)
			break;
		f->pos = rc->updated_children;
	}
	/* unlink @pos from its parent's list */
	CO_CALL(f, p, rstat_unlink, .rs = rs, .cc = f->cc,
		.pos = f->pos, .cpu = f->cpu);
	CO_AWAIT(f, coh_write(f->cc, rstatc_field(rs, f->pos, f->cpu,
						  RSTATC_NEXT)));
	cgroup_rstat_cpu(rs, f->pos, f->cpu)->updated_next = -1;
	CO_RETURN(f, p, f->pos);
	CO_END(f, p);
}

/*
 * One popped cgroup: cgroup_base_stat_flush(pos, cpu), then the
 * controller's css_rstat_flush(css, cpu).
 */
static int rstat_flush_one(struct sim_proc *p, void *frame)
{
	struct rstat_frame *f = frame;
	struct rstat *rs = f->rs;

	CO_BEGIN(f);
	f->parent = rs->parent[f->pos];
	if (f->parent >= 0) {
		/* the root's base stat is the whole system's: not flushed */
		CO_AWAIT(f, coh_read(f->cc, rstatc_field(rs, f->pos, f->cpu,
							 RSTATC_BSTAT)));
		CO_AWAIT(f, coh_write(f->cc, rstatc_field(rs, f->pos, f->cpu,
							  RSTATC_LAST_BSTAT)));
		CO_AWAIT(f, coh_write(f->cc, coh_object_field(
						     rs->cgrp_obj[f->pos],
						     CGRP_BSTAT)));
		if (rs->parent[f->parent] >= 0)
			CO_AWAIT(f, coh_write(f->cc, coh_object_field(
						     rs->cgrp_obj[f->parent],
						     CGRP_BSTAT)));
	}
	rs->flushed++;
	CO_CALL_INDIRECT(f, p, rs->css_rstat_flush, struct rstat_cb_frame, .ss = rs->ss,
		.cc = f->cc, .cgrp = (unsigned int)f->pos, .cpu = f->cpu);
	CO_END(f, p);
}

/*
 * v6.8 (Waiman Long, d499fd418fa1): cgroup_rstat_updated_list(root, cpu)
 * detaches @root's updated subtree on @cpu under the CPU's lock and
 * threads it through struct cgroup's rstat_flush_next, children before
 * parents: cgroup_rstat_push_children() visits each linked cgroup once,
 * level by level, resets its links and pushes it on the list. Returns
 * the head, or -1.
 */
struct list_frame {
	struct co_frame co;
	struct rstat *rs;
	struct coh_cpu *cc;
	int root;
	unsigned int cpu;
	/* locals */
	int head, parent, chead, ghead, child, gchild;
};
/* SIM: transitional: these functions still share struct list_frame */
#define cgroup_rstat_updated_list_frame list_frame

static int cgroup_rstat_updated_list(struct sim_proc *p, void *frame)
{
	struct list_frame *f = frame;
	struct rstat *rs = f->rs;
	struct cgroup_rstat_cpu *rc;

	CO_BEGIN(f);
	f->head = -1;
	/* raw_spin_lock_irqsave(cpu_lock, flags) */
	irq_save_restore(f->cc);
	CO_CALL(f, p, queued_spin_lock, .cc = f->cc,
		.lock = &rs->cpu_lock[f->cpu]);
	/* NULL if this subtree is not on-list */
	CO_AWAIT(f, coh_read(f->cc, rstatc_field(rs, f->root, f->cpu,
						 RSTATC_NEXT)));
	if (cgroup_rstat_cpu(rs, f->root, f->cpu)->updated_next < 0)
		goto unlock;
	/* unlink @root from its parent's list */
	CO_CALL(f, p, rstat_unlink, .rs = rs, .cc = f->cc,
		.pos = f->root, .cpu = f->cpu);
	CO_AWAIT(f, coh_write(f->cc, rstatc_field(rs, f->root, f->cpu,
						  RSTATC_NEXT)));
	cgroup_rstat_cpu(rs, f->root, f->cpu)->updated_next = -1;
	/* push @root first, then its children */
	f->head = f->root;
	CO_AWAIT(f, coh_write(f->cc, coh_object_field(rs->cgrp_obj[f->root],
						      CGRP_FLUSH_NEXT)));
	rs->flush_next[f->root] = -1;
	CO_AWAIT(f, coh_read(f->cc, rstatc_field(rs, f->root, f->cpu,
						 RSTATC_CHILDREN)));
	f->chead = cgroup_rstat_cpu(rs, f->root, f->cpu)->updated_children;
	CO_AWAIT(f, coh_write(f->cc, rstatc_field(rs, f->root, f->cpu,
						  RSTATC_CHILDREN)));
	cgroup_rstat_cpu(rs, f->root, f->cpu)->updated_children = f->root;
	if (f->chead == f->root)
		goto unlock;
	/* cgroup_rstat_push_children(head, child, cpu) */
	CO_AWAIT(f, coh_write(f->cc, coh_object_field(rs->cgrp_obj[f->chead],
						      CGRP_FLUSH_NEXT)));
	rs->flush_next[f->chead] = -1;
	f->ghead = -1;
	while (f->chead >= 0) {
		while (f->chead >= 0) {
			f->child = f->chead;
			CO_AWAIT(f, coh_read(f->cc, coh_object_field(
						    rs->cgrp_obj[f->child],
						    CGRP_FLUSH_NEXT)));
			f->chead = rs->flush_next[f->child];
			f->parent = rs->parent[f->child];
			/* updated_next is parent cgroup terminated */
			while (f->child != f->parent) {
				CO_AWAIT(f, coh_write(f->cc, coh_object_field(
						     rs->cgrp_obj[f->child],
						     CGRP_FLUSH_NEXT)));
				rs->flush_next[f->child] = f->head;
				f->head = f->child;
				CO_AWAIT(f, coh_read(f->cc, rstatc_field(
						    rs, f->child, f->cpu,
						    RSTATC_CHILDREN)));
				rc = cgroup_rstat_cpu(rs, f->child, f->cpu);
				f->gchild = rc->updated_children;
				if (f->gchild != f->child) {
					/* the grandchild goes a level down */
					CO_AWAIT(f, coh_write(f->cc, rstatc_field(
						    rs, f->child, f->cpu,
						    RSTATC_CHILDREN)));
					cgroup_rstat_cpu(rs, f->child, f->cpu)
						->updated_children = f->child;
					CO_AWAIT(f, coh_write(f->cc, coh_object_field(
						    rs->cgrp_obj[f->gchild],
						    CGRP_FLUSH_NEXT)));
					rs->flush_next[f->gchild] = f->ghead;
					f->ghead = f->gchild;
				}
				CO_AWAIT(f, coh_write(f->cc, rstatc_field(
						    rs, f->child, f->cpu,
						    RSTATC_NEXT)));
				rc = cgroup_rstat_cpu(rs, f->child, f->cpu);
				f->child = rc->updated_next;
				rc->updated_next = -1;
			}
		}
		f->chead = f->ghead;
		f->ghead = -1;
	}
unlock:
	CO_AWAIT(f, queued_spin_unlock(f->cc, &rs->cpu_lock[f->cpu]));
	CO_RETURN(f, p, f->head);
	CO_END(f, p);
}

/* cgroup_rstat_flush_locked(cgrp): called with cgroup_rstat_lock held */
static int cgroup_rstat_flush_locked(struct sim_proc *p, void *frame)
{
	struct rstat_frame *f = frame;
	struct rstat *rs = f->rs;

	CO_BEGIN(f);
	for (f->cpu = 0; f->cpu < rs->nr_cpus; f->cpu++) {
		if (rs->version >= STATS_V6_8) {
			CO_CALL(f, p, cgroup_rstat_updated_list, .rs = rs, .cc = f->cc,
				.root = (int)f->cgrp, .cpu = f->cpu);
			/* for (; pos; pos = pos->rstat_flush_next) */
			for (f->pos = (int)p->ret; f->pos >= 0;
			     f->pos = rs->flush_next[f->pos]) {
				CO_CALL(f, p, rstat_flush_one, .rs = rs,
					.cc = f->cc, .pos = f->pos,
					.cpu = f->cpu);
				CO_AWAIT(f, coh_read(f->cc, coh_object_field(
						    rs->cgrp_obj[f->pos],
						    CGRP_FLUSH_NEXT)));
			}
			goto cpu_done;
		}
		/* raw_spin_lock_irqsave(cpu_lock, flags) */
		irq_save_restore(f->cc);
		CO_CALL(f, p, queued_spin_lock, .cc = f->cc,
			.lock = &rs->cpu_lock[f->cpu]);
		/* the callbacks run under the CPU's lock */
		f->pos = -1;
		for (;;) {
			CO_CALL(f, p, cgroup_rstat_cpu_pop_updated, .rs = rs, .cc = f->cc,
				.pos = f->pos, .root = (int)f->cgrp,
				.cpu = f->cpu);
			f->pos = (int)p->ret;
			if (f->pos < 0)
				break;
			CO_CALL(f, p, rstat_flush_one, .rs = rs, .cc = f->cc, .pos = f->pos,
				.cpu = f->cpu);
		}
		CO_AWAIT(f, queued_spin_unlock(f->cc, &rs->cpu_lock[f->cpu]));
cpu_done:
		/*
		 * The sleepable flush (v6.6 on) lets a waiting CPU in between
		 * CPUs: spin_needbreak(&cgroup_rstat_lock) reads the lock
		 * word. SIM: CONFIG_PREEMPTION (PREEMPT_DYNAMIC distro
		 * builds); without it spin_needbreak() is 0 and the lock is
		 * held throughout, as v6.0's.
		 */
		if (rs->version < STATS_V6_6)
			continue;
		CO_AWAIT(f, coh_read(f->cc, rs->cgroup_rstat_lock.val));
		if (rs->cgroup_rstat_lock.nr_waiters) {
			CO_AWAIT(f, queued_spin_unlock(f->cc, &rs->cgroup_rstat_lock));
			CO_CALL(f, p, queued_spin_lock, .cc = f->cc, .lock = &rs->cgroup_rstat_lock);
		}
	}
	CO_END(f, p);
}

int cgroup_rstat_flush(struct sim_proc *p, void *frame)
{
	struct rstat_frame *f = frame;
	struct rstat *rs = f->rs;

	CO_BEGIN(f);
	ENTER(f, KF_cgroup_rstat_flush);
	/* spin_lock_irq(&cgroup_rstat_lock) (v6.0: _irqsave) */
	irq_save_restore(f->cc);
	CO_CALL(f, p, queued_spin_lock, .cc = f->cc,
		.lock = &rs->cgroup_rstat_lock);
	CO_CALL(f, p, cgroup_rstat_flush_locked, .rs = rs,
		.cc = f->cc, .cgrp = f->cgrp);
	CO_AWAIT(f, queued_spin_unlock(f->cc, &rs->cgroup_rstat_lock));
	CO_AWAIT(f, coh_fence(f->cc));
	EXIT(f);
	CO_END(f, p);
}
