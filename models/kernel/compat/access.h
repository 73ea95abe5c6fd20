/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/kernel/compat/access.h - the kernel's memory accesses as
 * coroutine statements: one kernel statement, one line of model.
 *
 * Theory of operation
 *
 * In the kernel an access to shared memory is an expression:
 *
 *	new = atomic_long_add_return(nr_pages, &c->usage);
 *
 * In the model the same access is a coherence transaction
 * (models/hw/cache.h) during which simulated time passes, so the
 * coroutine must wait for it (CO_AWAIT, sim/co.h), and the value is
 * taken when the access completes, the rule of models/hw/cache.h. A wait
 * is a `case` label, and a case label cannot sit inside a GNU statement
 * expression, so an access cannot hand its value back as an expression.
 * The value goes to a named destination instead, written first, where the
 * kernel has its assignment; the kernel's arguments follow in the
 * kernel's order, with `&obj->member` split into `obj, member`:
 *
 *	kernel (mm/page_counter.c)          model (a coroutine, frame f)
 *	new = atomic_long_add_return(       CO_ATOMIC_LONG_ADD_RETURN(f,
 *		nr_pages, &c->usage);           f->new, f->nr_pages, f->c, usage);
 *	atomic_long_sub(nr_pages,           CO_ATOMIC_LONG_SUB(f, f->nr_pages,
 *		&c->usage);                     f->c, usage);
 *	old = atomic_long_xchg(             CO_ATOMIC_LONG_XCHG(f, f->old,
 *		&c->min_usage, protected);      f->c, min_usage, f->protected);
 *	min = READ_ONCE(c->min);            CO_READ_ONCE(f, f->min, f->c, min);
 *	WRITE_ONCE(x->high, v);             CO_WRITE_ONCE(f, f->x, high, v);
 *	if (new > c->watermark)             CO_LOAD(f, f->c, watermark);
 *		c->watermark = new;         if (f->new > f->c->watermark)
 *		                                CO_STORE(f, f->c, watermark,
 *		                                         f->new);
 *
 * Where a member lives. The field of `obj->member` is `obj->coh.member`:
 * a modelled struct that the macros reach by member carries, as its SIM
 * part, a struct named `coh` of `struct coh_field *` with the kernel
 * members' names (struct page_counter, struct mem_cgroup, struct
 * memcg_stock_pcp). A member with no place in memory has a NULL field,
 * and an access to it, or by a NULL CPU (unit tests of the arithmetic),
 * costs nothing. The _AT forms take the field explicitly, for memory
 * laid out at run time such as the statistics arrays, whose line follows
 * the kernel's index rather than the model's.
 *
 * Rules:
 *  - each macro is one statement with exactly one wait: never two on one
 *    source line (the resume label is __LINE__), never inside a nested
 *    switch (sim/co.h);
 *  - the destination and the arguments are evaluated again after the
 *    wait, on resumption, so they must live in the frame (or in C locals
 *    set from the frame before CO_BEGIN, at every entry);
 *  - the CPU is the process's, co_cpu(p) (compat/sim.h): the macros
 *    name the coroutine's process `p`, as every coroutine does.
 *
 * Pointer chases. x86 issues a load before earlier loads have returned
 * (the model posts it, models/hw/cache.h), but not a load whose address
 * an earlier load has yet to deliver: `c = c->parent` then `c->usage`
 * waits for `c->parent`. The _DEP forms are such loads: the CPU waits for
 * the value (coh_read_dep()). They stand wherever the kernel follows a
 * pointer it has just loaded: the page_counter and css.parent walks up
 * the hierarchy, and the rstat lists.
 *
 *	kernel                              model
 *	c = c->parent;                      CO_READ_ONCE_DEP(f, f->c, f->c,
 *		                                         parent);
 *
 * SIM: in a single-threaded engine an atomic is a plain operation; its
 * atomicity, cost and ordering come from the access before it. A
 * READ_ONCE() and a plain load are the same load; so are WRITE_ONCE() and
 * a plain store.
 *
 * Layering: models/kernel/ primitive; uses models/hw/cache.h, sim/co.h.
 */
#ifndef MODELS_KERNEL_COMPAT_ACCESS_H
#define MODELS_KERNEL_COMPAT_ACCESS_H

#include <stdbool.h>

#include "models/hw/cache.h"
#include "models/kernel/compat/sim.h"
#include "sim/co.h"

/*
 * co_access() - coh_access() for CO_AWAIT(), free without a CPU or a
 * field. Returns true when the process must wait.
 */
static inline bool co_access(struct coh_cpu *cc, struct coh_field *fld,
			     enum coh_op op)
{
	if (!cc || !fld)
		return false;
	return coh_access(cc, fld, op);
}

/*
 * co_access_dep() - coh_read_dep() for CO_AWAIT(): a load the CPU waits
 * for; free without a CPU or a field.
 */
static inline bool co_access_dep(struct coh_cpu *cc, struct coh_field *fld)
{
	if (!cc || !fld)
		return false;
	return coh_read_dep(cc, fld);
}

/* co_fence() - coh_fence() for CO_AWAIT(), free without a CPU. */
static inline bool co_fence(struct coh_cpu *cc)
{
	return cc ? coh_fence(cc) : false;
}

/* The field where obj->member lives. */
#define COH_FIELD(obj, member) ((obj)->coh.member)

/* ---- explicit field: @lval is the value, @fld where it lives ---- */

/* A load of @fld; use the value after it. */
#define CO_LOAD_AT(f, fld) CO_AWAIT(f, co_access(co_cpu(p), (fld), COH_READ))

/* A load of @fld whose value the CPU waits for: a pointer chase. */
#define CO_LOAD_DEP_AT(f, fld) CO_AWAIT(f, co_access_dep(co_cpu(p), (fld)))

/* dst = READ_ONCE(lval), where dst is followed next: a pointer chase. */
#define CO_READ_ONCE_DEP_AT(f, dst, lval, fld) \
	do {                                   \
		CO_LOAD_DEP_AT(f, fld);        \
		(dst) = (lval);                \
	} while (0)

/* A store of @fld that leaves @val in @lval. */
#define CO_STORE_AT(f, lval, val, fld)                               \
	do {                                                         \
		CO_AWAIT(f, co_access(co_cpu(p), (fld), COH_WRITE)); \
		(lval) = (val);                                      \
	} while (0)

/* dst = READ_ONCE(lval), or atomic_long_read(&lval). */
#define CO_READ_ONCE_AT(f, dst, lval, fld) \
	do {                               \
		CO_LOAD_AT(f, fld);        \
		(dst) = (lval);            \
	} while (0)

/*
 * lval += i, not atomic: a read-modify-write the CPU does in its cache, a
 * store to the line.
 */
#define CO_ADD_AT(f, lval, i, fld)                                   \
	do {                                                         \
		CO_AWAIT(f, co_access(co_cpu(p), (fld), COH_WRITE)); \
		(lval) += (i);                                       \
	} while (0)

/* __this_cpu_add(lval, i): the same on this CPU's own counter */
#define CO_THIS_CPU_ADD_AT(f, lval, i, fld) CO_ADD_AT(f, lval, i, fld)

/* A locked RMW of @fld that adds @i to @lval. */
#define CO_ATOMIC_ADD_AT(f, i, lval, fld)                          \
	do {                                                       \
		CO_AWAIT(f, co_access(co_cpu(p), (fld), COH_RMW)); \
		(lval) += (__typeof__(lval))(i);                   \
	} while (0)

/* dst = atomic_add_return(i, &lval): the sum */
#define CO_ATOMIC_ADD_RETURN_AT(f, dst, i, lval, fld) \
	do {                                          \
		CO_ATOMIC_ADD_AT(f, i, lval, fld);    \
		(dst) = (lval);                       \
	} while (0)

/* A locked RMW of @fld that subtracts @i from @lval. */
#define CO_ATOMIC_SUB_AT(f, i, lval, fld)                          \
	do {                                                       \
		CO_AWAIT(f, co_access(co_cpu(p), (fld), COH_RMW)); \
		(lval) -= (__typeof__(lval))(i);                   \
	} while (0)

/* dst = atomic_sub_return(i, &lval): the difference */
#define CO_ATOMIC_SUB_RETURN_AT(f, dst, i, lval, fld) \
	do {                                          \
		CO_ATOMIC_SUB_AT(f, i, lval, fld);    \
		(dst) = (lval);                       \
	} while (0)

/* dst = xchg(&lval, val): the old value */
#define CO_XCHG_AT(f, dst, lval, val, fld)                         \
	do {                                                       \
		CO_AWAIT(f, co_access(co_cpu(p), (fld), COH_RMW)); \
		(dst) = (lval);                                    \
		(lval) = (val);                                    \
	} while (0)

/* ---- by member: the kernel's `&obj->member` as `obj, member` ---- */

/* A plain load of obj->member: `if (x > obj->member)`. */
#define CO_LOAD(f, obj, member) CO_LOAD_AT(f, COH_FIELD(obj, member))

/* A plain store: obj->member = val; */
#define CO_STORE(f, obj, member, val) \
	CO_STORE_AT(f, (obj)->member, val, COH_FIELD(obj, member))

/*
 * obj->member[i] = val; for an array member whose elements share one
 * field, obj->coh.member (SIM: the stock's slots).
 */
#define CO_STORE_ELEM(f, obj, member, i, val) \
	CO_STORE_AT(f, (obj)->member[i], val, COH_FIELD(obj, member))

/* dst = READ_ONCE(obj->member); */
#define CO_READ_ONCE(f, dst, obj, member) \
	CO_READ_ONCE_AT(f, dst, (obj)->member, COH_FIELD(obj, member))

/* A load of obj->member that a pointer chase waits for: `if (!c->parent)`. */
#define CO_LOAD_DEP(f, obj, member) CO_LOAD_DEP_AT(f, COH_FIELD(obj, member))

/* dst = obj->member, a pointer followed next: `c = c->parent;` */
#define CO_READ_ONCE_DEP(f, dst, obj, member) \
	CO_READ_ONCE_DEP_AT(f, dst, (obj)->member, COH_FIELD(obj, member))

/* WRITE_ONCE(obj->member, val); */
#define CO_WRITE_ONCE(f, obj, member, val) CO_STORE(f, obj, member, val)

/* dst = atomic_long_read(&obj->member); */
#define CO_ATOMIC_LONG_READ(f, dst, obj, member) \
	CO_READ_ONCE(f, dst, obj, member)

/* atomic_long_set(&obj->member, val); */
#define CO_ATOMIC_LONG_SET(f, obj, member, val) CO_STORE(f, obj, member, val)

/* atomic_long_add(i, &obj->member); */
#define CO_ATOMIC_LONG_ADD(f, i, obj, member) \
	CO_ATOMIC_ADD_AT(f, i, (obj)->member, COH_FIELD(obj, member))

/* atomic_long_sub(i, &obj->member); */
#define CO_ATOMIC_LONG_SUB(f, i, obj, member) \
	CO_ATOMIC_SUB_AT(f, i, (obj)->member, COH_FIELD(obj, member))

/* dst = atomic_long_add_return(i, &obj->member); */
#define CO_ATOMIC_LONG_ADD_RETURN(f, dst, i, obj, member) \
	CO_ATOMIC_ADD_RETURN_AT(f, dst, i, (obj)->member, \
				COH_FIELD(obj, member))

/* dst = atomic_long_sub_return(i, &obj->member); */
#define CO_ATOMIC_LONG_SUB_RETURN(f, dst, i, obj, member) \
	CO_ATOMIC_SUB_RETURN_AT(f, dst, i, (obj)->member, \
				COH_FIELD(obj, member))

/* dst = atomic_long_xchg(&obj->member, val); */
#define CO_ATOMIC_LONG_XCHG(f, dst, obj, member, val) \
	CO_XCHG_AT(f, dst, (obj)->member, val, COH_FIELD(obj, member))

/*
 * The end of an exported kernel function: wait for this CPU's posted
 * accesses (models/hw/cache.h, coh_fence()).
 */
#define CO_FENCE(f) CO_AWAIT(f, co_fence(co_cpu(p)))

#endif /* MODELS_KERNEL_COMPAT_ACCESS_H */
