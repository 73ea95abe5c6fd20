/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/co.h - stackless coroutines for kernel-shaped model code.
 *
 * Theory of operation: a modelled kernel function is written as a C
 * function with the kernel's name, taking the process and a frame struct
 * that holds its arguments and the locals that must survive a wait. Its
 * body sits between CO_BEGIN and CO_END, which wrap it in a switch on the
 * frame's saved position (protothread style), so the body reads top to
 * bottom like the kernel function beside it:
 *
 *	struct foo_frame { struct co_frame co; struct page_counter *c; };
 *
 *	static int foo(struct sim_proc *p, void *frame)
 *	{
 *		struct foo_frame *f = frame;
 *
 *		CO_BEGIN(f);
 *		CO_AWAIT(f, coh_rmw(p, ...));	 // time passes here
 *		CO_CALL(f, p, bar, .x = 1);
 *		CO_END(f, p);
 *	}
 *
 * Rules, as for protothreads: locals that must live across CO_AWAIT or
 * CO_CALL belong in the frame; no CO_* inside a nested switch. These
 * macros return from the function by design (the one exception to the
 * kernel's "no macros that return"): a wait is a return to the engine.
 *
 * CO_AWAIT(f, expr) evaluates @expr, which returns true when the process
 * must wait (it has arranged its own wake-up) and false when it may go
 * on. On wake-up @expr is evaluated AGAIN, so waiting primitives are
 * written to be re-entered: they remember that their operation completed
 * and then return false (see coh_access()).
 *
 * A hot loop may be written as a state machine instead, without these
 * macros: each state a function of the frame, the frame's co.fn set to
 * the one to resume in before it waits (the engine calls p->frame->fn at
 * every run). Returning CO_CALL with no frame pushed runs the frame on
 * top, the same one, again at once (sim__proc_run_more(): a trampoline):
 * a state that goes on in another after a call may so end in that call,
 * with nothing of its own live across it. See counter_loop's functions
 * in models/workloads/teaching.c.
 */
#ifndef SIM_CO_H
#define SIM_CO_H

#include "sim/engine.h"
#include "sim/trace.h"

/* Tracing is off but while `run --trace` runs: the branch says so. */
#define co_unlikely(x) __builtin_expect(!!(x), 0)

/* Falling into a resume label is the point; say so to the compiler. */
#define co_fallthrough __attribute__((__fallthrough__))

#define CO_BEGIN(f)           \
	switch ((f)->co.pc) { \
	case 0:

#define CO_END(f, p)  \
	}             \
	(p)->ret = 0; \
	return CO_DONE

/* Finish and hand @v to the caller in p->ret. */
#define CO_RETURN(f, p, v)            \
	do {                          \
		(p)->ret = (long)(v); \
		return CO_DONE;       \
	} while (0)

#define CO_AWAIT(f, expr)               \
	do {                            \
		(f)->co.pc = __LINE__;  \
		co_fallthrough;         \
	case __LINE__:                  \
		if (expr)               \
			return CO_WAIT; \
	} while (0)

/*
 * CO_CALL() - run the coroutine @fn with a fresh frame, and continue here
 * when it is done; its result is in p->ret. The frame is `struct
 * @fn_frame`, derived from the function's name, so a call can only pass
 * the members of the function's own frame (a wrong frame does not
 * compile): the members after the header are set from the designated
 * initializers, e.g.
 *
 *	CO_CALL(f, p, page_counter_uncharge, .counter = c, .nr_pages = n);
 */
#define CO_CALL(f, p, fn, ...) \
	CO_CALL_INDIRECT(f, p, fn, struct fn##_frame, __VA_ARGS__)

/*
 * CO_CALL_INDIRECT() - the same through a function pointer @fn, whose
 * frame @type the caller names, as an ops table (ss->css_rstat_flush)
 * fixes the signature of whatever it points to.
 *
 * Tracing: while a run is traced (sim_trace_calls set), every call is a
 * slice on its CPU's track from the call to the return, named after @fn
 * (an ops call after its member); the memory accesses it waits for nest
 * inside. Off, the cost is one load and a branch each way.
 */
#define CO_CALL_INDIRECT(f, p, fn, type, ...)                                 \
	do {                                                                  \
		type *co_callee_ = co__push((p), (fn), sizeof(type));         \
		struct co_frame co_hdr_ = co_callee_->co;                     \
		*co_callee_ = (type){ __VA_ARGS__ };                          \
		co_callee_->co = co_hdr_;                                     \
		(f)->co.pc = __LINE__;                                        \
		if (co_unlikely(sim_trace_calls))                             \
			sim_trace_call_enter(sim_trace_calls, (p)->trace_tid, \
					     #fn, "kernel", (p)->now);        \
		return CO_CALL;                                               \
	case __LINE__:                                                        \
		if (co_unlikely(sim_trace_calls))                             \
			sim_trace_call_exit(sim_trace_calls, (p)->trace_tid,  \
					    (p)->now);                        \
	} while (0)

/*
 * CO_PUSH() - the first frame of a process: `struct @fn_frame`, zeroed
 * but for its header, for the caller to fill in before the process runs.
 */
#define CO_PUSH(p, fn) \
	((struct fn##_frame *)co_push((p), (fn), sizeof(struct fn##_frame)))

#endif /* SIM_CO_H */
