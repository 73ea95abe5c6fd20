/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/engine.h - the discrete-event engine: an integer picosecond clock, a
 * set of pending events ordered by (time, sequence), and processes.
 *
 * Theory of operation
 *
 * Simulated time is a count of picoseconds (sim_time_t). An event is a
 * small by-value record {time, seq, fn, arg, data}; sim_schedule() adds it
 * to the pending set (a calendar of 4 ns buckets, sim/engine.c), and the
 * run loop takes the earliest and calls fn(arg, data). Ties in time go to
 * the event scheduled first: seq is a counter incremented by every
 * scheduling. Nothing depends on wall-clock time, pointer values or hash
 * order, so the same inputs give the same run. A recurring event source
 * (a cache line's service) keeps one struct sim_timer instead: its event
 * fixed at sim_timer_init(), set again and again, each time with a fresh
 * seq exactly as sim_schedule() would draw.
 *
 * A process (struct sim_proc) is a simulated CPU running a stackless
 * coroutine (sim/co.h). A process has its own clock, proc->now, which it
 * advances as it pays latencies that do not interact with anybody else (an
 * L1 hit, non-memcg work). Before it touches shared state it calls
 * sim_proc_sync(): if no other event is due before proc->now, the engine
 * clock simply moves to proc->now (nothing else could have happened in
 * between); otherwise the process schedules its own wake-up at proc->now
 * and yields. Shared state is therefore always observed at the engine's
 * current time, in (time, seq) order. A process waits for one thing at a
 * time: it has at most one wake-up pending (a second is a bug).
 *
 *	 engine now ----------------------------->
 *	 cpu0  [work 900ns]--sync--[rmw: queued ......]--wake
 *	 cpu1        [work]--sync--[rmw]--wake
 *
 * Ownership: sim_engine_create()/sim_engine_free() (heap; its members
 * are private, defined here for the inline fast paths only). A
 * struct sim_proc is embedded and caller-allocated: sim_proc_init() and
 * sim_proc_destroy().
 *
 * Layering: sim/ primitive; includes only sim/error.h.
 */
#ifndef SIM_ENGINE_H
#define SIM_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/calendar.h"
#include "sim/error.h"

#define SIM_PS_PER_NS 1000ull
#define SIM_PS_PER_US 1000000ull
#define SIM_PS_PER_MS 1000000000ull

/*
 * A hint to the host CPU that the simulator writes *@p soon: start loading
 * its line. No effect on results (and none if @p is not a valid address).
 * A function made of prefetches alone must be SIM_PREFETCH_FN: GCC counts
 * a prefetch as no side effect, finds such a function pure, and drops its
 * calls, whose result nothing uses, unless it is inlined first.
 */
#define SIM_PREFETCH_W(p) __builtin_prefetch((p), 1)
#define SIM_PREFETCH_FN static inline __attribute__((always_inline))
/*
 * More than this many processes are many: their state (a task, its
 * frame, its CPU's struct coh_cpu: 5 or 6 host lines each) outgrows the
 * host's L1 of 32 to 48 KiB, so that prefetching it pays, and their
 * events are dense enough for the ring's narrow buckets (sim/engine.c).
 */
#define SIM_MANY_PROCS 32

struct sim_engine;

/* sim_event_seq() after a process ran ahead: later than every seq drawn */
#define SIM_SEQ_AHEAD UINT64_MAX

struct sim_engine *sim_engine_create(void);
void sim_engine_free(struct sim_engine *e);

static inline const struct sim_clock *sim_clock(const struct sim_engine *e)
{
	/* a pointer to a struct is one to its first member (C11 6.7.2.1) */
	return (const struct sim_clock *)(const void *)e;
}

static inline sim_time_t sim_now(const struct sim_engine *e)
{
	return sim_clock(e)->now;
}

/* Time of the earliest pending event, or SIM_TIME_MAX. */
static inline sim_time_t sim_next_time(const struct sim_engine *e)
{
	return sim_clock(e)->next;
}

/* The horizon of the sim_engine_run() in progress: it runs nothing later. */
static inline sim_time_t sim_horizon(const struct sim_engine *e)
{
	return sim_clock(e)->until;
}
/*
 * sim_key_before() - whether (@t1, @s1) comes before (@t2, @s2) in the
 * run order.
 */
static inline bool sim_key_before(sim_time_t t1, uint64_t s1, sim_time_t t2,
				  uint64_t s2)
{
	return t1 < t2 || (t1 == t2 && s1 < s2);
}

/*
 * sim_event_seq() - the place in the run order of what runs now: the
 * running event is (sim_now(), this). After a process moved the clock on
 * by itself (sim_proc_sync() without an event), SIM_SEQ_AHEAD: it runs
 * where a wake-up scheduled then would have, after every seq drawn so far.
 * Valid until the running event's own timer or process is pending again.
 */
static inline uint64_t sim_event_seq(const struct sim_engine *e);

/*
 * sim_seq_reserve() - draw a seq for an event that a model keeps outside
 * the engine for now (an arrival it announced to a cache line,
 * models/hw/cache.c), in *@seq, to run later where an event scheduled now
 * would: sim_timer_set_key() runs it, or the model compares it with
 * sim_event_seq(). Returns false (draws nothing) when seqs run short:
 * reserving stops at half the limit where the engine renumbers its
 * pending events (after 2^40 events: hours of simulation), which a seq
 * kept outside would miss; a reserved seq must be used within the 2^39
 * events between the two (an announced arrival lives one think time).
 */
static inline bool sim_seq_reserve(struct sim_engine *e, uint64_t *seq);

/* Events run so far. */
uint64_t sim_events(const struct sim_engine *e);

/*
 * sim_schedule() - run @fn(@arg, @data) at time @t (>= sim_now(), <
 * SIM_TIME_MAX, which means "never").
 * Context: any event or process.
 */
void sim_schedule(struct sim_engine *e, sim_time_t t, sim_event_fn fn,
		  void *arg, uint64_t data);

/*
 * struct sim_timer - a recurring event source's one event: a slot of its
 * own in the engine, as a process has for its wake-up, so that setting it
 * allocates nothing and stores no payload (fn, arg and data are fixed at
 * sim_timer_init()). A timer is pending at most once: setting a pending
 * timer moves it. Setting it draws a fresh seq, exactly as sim_schedule()
 * does, so a timer runs where the same sim_schedule() would, in (time,
 * seq) order.
 * @engine: the engine it runs in
 * @slot: its event's slot in the engine
 * @pending: set, not yet run
 */
struct sim_timer {
	struct sim_engine *engine;
	uint32_t slot;
	bool pending;
};

void sim_timer_init(struct sim_engine *e, struct sim_timer *t, sim_event_fn fn,
		    void *arg, uint64_t data);
/* Drops a pending event; the timer may then be initialised again. */
void sim_timer_destroy(struct sim_timer *t);

/* ---- the engine's state, for the inline fast paths below ---- */

#include "sim/engine_types.h"

/* Inline: an announced RMW asks both, per access (models/hw/cache.c). */
static inline uint64_t sim_event_seq(const struct sim_engine *e)
{
	return e->running ? e->cal.slots[e->running].seq : SIM_SEQ_AHEAD;
}

static inline bool sim_seq_reserve(struct sim_engine *e, uint64_t *seq)
{
	return cal_seq_reserve(&e->cal, seq);
}

/* sim__timer_set() - sim_timer_set() but for its common case. */
void sim__timer_set(struct sim_timer *t, sim_time_t when);

/*
 * sim_timer_set() - run the timer's fn(arg, data) at @when (>= sim_now(),
 * < SIM_TIME_MAX), with a fresh seq; if it was pending, at @when instead.
 * Context: any event or process. Inline whatever GCC's size heuristics
 * say: with the lone event's case (cal_append_lone()) it called a copy
 * of its own, 9 instructions more an event of a contended line.
 */
static inline __attribute__((always_inline)) void
sim_timer_set(struct sim_timer *t, sim_time_t when)
{
	/* SIM_TIME_MAX is never in the window: sim__timer_set() checks it */
	if (!t->pending && when >= sim_now(t->engine) &&
	    cal_append_lone(&t->engine->cal, t->slot, when)) {
		t->pending = true;
		return;
	}
	sim__timer_set(t, when);
}

/*
 * sim_timer_set_key() - sim_timer_set() with the seq @seq from
 * sim_seq_reserve() instead of a fresh one: the timer runs where the event
 * @seq was reserved for would have, (@when, @seq), which must be later
 * than what runs now.
 */
void sim_timer_set_key(struct sim_timer *t, sim_time_t when, uint64_t seq);
/* sim_timer_cancel() - a pending timer does not run; no-op when idle. */
void sim_timer_cancel(struct sim_timer *t);

static inline bool sim_timer_pending(const struct sim_timer *t)
{
	return t->pending;
}

/* sim__progress_tick() - the run loop's countdown to a progress call hit 0 */
void sim__progress_tick(struct sim_engine *e, sim_time_t t);

/*
 * sim_timer_rerun() - from @t's own event, which set @t again: when @t is
 * now the one event pending (the calendar's lone event, cal_append_lone())
 * and due before the run's end, run it from here. The clock moves to its
 * time and it counts as run, exactly as the run loop would pop it; true,
 * and the caller does the event's work again at sim_now(). Else false, and
 * @t stays pending for the run loop. What this saves is the run loop's
 * step: the return to it, its pop and its dispatch to the same function
 * (a contended line's service, which sets its own timer again at nearly
 * every event: 72 CPUs on one counter).
 */
static inline bool sim_timer_rerun(struct sim_timer *t)
{
	struct sim_engine *e = t->engine;
	sim_time_t when;

	if (!cal_pop_lone(&e->cal, t->slot, &when))
		return false;
	/* the run loop's steps, in its order (next_prefetch(): a hint) */
	e->cal.clock.now = when;
	e->running = t->slot;
	if (!--e->left)
		sim__progress_tick(e, when);
	t->pending = false;
	return true;
}

/*
 * sim_engine_run() - run events in (time, seq) order until none is left,
 * the next one is later than @until, or sim_engine_stop() was called.
 * The clock ends at @until when the events ran out or passed it.
 */
void sim_engine_run(struct sim_engine *e, sim_time_t until);
void sim_engine_stop(struct sim_engine *e);

/* For tests: the next sequence number is @seq (see seq_renumber()). */
void sim__engine_set_seq(struct sim_engine *e, uint64_t seq);
/* For tests: the ring's bucket width, log2 ps (sim/engine.c). */
unsigned int sim__engine_shift(const struct sim_engine *e);

/*
 * sim_engine_set_progress() - call @fn(@arg, now) about every @every events
 * (e.g. to draw a progress line); NULL turns it off.
 */
void sim_engine_set_progress(struct sim_engine *e, uint64_t every,
			     void (*fn)(void *arg, sim_time_t now), void *arg);

/* ---- processes ---- */

struct sim_proc;
struct co_frame;

/*
 * A coroutine body: runs from the frame's saved position until it finishes
 * (CO_DONE), waits for a wake-up (CO_WAIT), or pushed a callee (CO_CALL).
 */
typedef int (*co_fn)(struct sim_proc *p, void *frame);

enum co_status {
	CO_DONE,
	CO_WAIT,
	CO_CALL,
};

/*
 * struct co_frame - the header of every coroutine frame. A frame type is a
 * struct whose first member is `struct co_frame co`, followed by the
 * function's arguments and the locals that live across waits.
 */
struct co_frame {
	co_fn fn;
	unsigned int pc; /* resume point (a line number), 0 = start */
	unsigned int size; /* bytes, header included, rounded up */
	unsigned int caller; /* stack offset of the caller's frame */
};

/*
 * struct sim_proc - one simulated CPU's thread of control.
 * @engine: the engine it runs in
 * @now: this process's clock; >= sim_now() while it runs
 * @id: the CPU number
 * @ret: return value of the last callee that used CO_RETURN
 * @owner: the model object this process belongs to (e.g. its task), whose
 * first host line sim_proc_prefetch() loads with the process's; the
 * process itself if it has none (never NULL: see next_prefetch())
 */
struct sim_proc {
	/* what every run of the process reads and writes: 56 bytes */
	struct sim_engine *engine;
	sim_time_t now;
	unsigned char *stack; /* coroutine frames, bottom up */
	size_t sp;
	/*
	 * the running frame, if sp > 0 (a pointer, not an offset: one load
	 * fewer for every run of the process)
	 */
	struct co_frame *frame;
	unsigned int slot; /* its wake-up's payload slot in the engine */
	bool pending; /* a wake-up is scheduled */
	bool finished; /* the outermost frame returned */
	/* read by its code first, mostly (a task): sim_proc_prefetch() */
	void *owner;
	/* the rest */
	unsigned int id;
	unsigned int trace_tid; /* its track in a trace: id, or its own */
	long ret;
	size_t stack_size;
	unsigned char *stack_alloc; /* @stack is in it (sim_proc_init()) */
};

void sim_proc_init(struct sim_proc *p, struct sim_engine *e, unsigned int id,
		   size_t stack_size, void *owner);
void sim_proc_destroy(struct sim_proc *p);

/* Push a frame of @size bytes for @fn; returns it zeroed but for the header. */
void *co_push(struct sim_proc *p, co_fn fn, size_t size);

#define CO_ALIGN 16

/*
 * co__push() - co_push() without zeroing the frame past its header, for
 * CO_CALL(), which then fills the whole frame from a compound literal
 * (the members it does not name are zero): zeroing it first would write
 * it twice, and a call costs more than the push. Inline for that reason.
 */
static inline void *co__push(struct sim_proc *p, co_fn fn, size_t size)
{
	struct co_frame *f;

	size = (size + CO_ALIGN - 1) & ~(size_t)(CO_ALIGN - 1);
	/* A frame stack overflow is a model bug: call depth is static. */
	SIM_BUG_ON(p->sp + size > p->stack_size);
	f = (struct co_frame *)(void *)(p->stack + p->sp);
	f->fn = fn;
	f->pc = 0;
	f->size = (unsigned int)size;
	f->caller = (unsigned int)((unsigned char *)p->frame - p->stack);
	p->frame = f;
	p->sp += size;
	return f;
}

/*
 * sim_proc_start() - make @fn, with the frame prepared by co_push(), run at
 * time @at.
 */
void sim_proc_start(struct sim_proc *p, sim_time_t at);

/*
 * sim_proc_wake() - resume a waiting process at time @at. A process has at
 * most one wake-up pending: a second is a bug (SIM_BUG_ON). Its clock is
 * the later of its clock and @at from here on, not from when it runs:
 * nothing may write it meanwhile (checked in a checking build).
 */
void sim_proc_wake(struct sim_proc *p, sim_time_t at);

/*
 * sim_proc_sync() - bring the engine to this process's clock. Returns
 * false when the process may go on at once (the engine's clock now equals
 * p->now), true when it has scheduled its own wake-up at p->now and must
 * yield (return CO_WAIT).
 */
bool sim__proc_sync(struct sim_proc *p);

/*
 * sim_proc_must_yield() - sim_proc_sync() of @p, whose clock is ahead of
 * the engine's, would yield: an event is due before p->now (or at it),
 * or p->now is past the horizon (else sim_proc_sync() moves the engine's
 * clock to p->now).
 * Also for a caller that may do something else than yield then
 * (models/hw/cache.c: coh_rmw_ahead()), which then syncs as usual.
 */
static inline bool sim_proc_must_yield(const struct sim_proc *p)
{
	const struct sim_clock *clock = sim_clock(p->engine);

	return p->now >= clock->next || p->now > clock->until;
}

/*
 * sim_proc_sync_ahead() - sim_proc_sync() of a process whose clock is
 * ahead of the engine's (p->now > sim_now()) and that has no wake-up
 * pending: the running process once its clock has moved (coh_rmw_ahead()),
 * whose caller tested the first. Always inline: there, out of line (GCC's
 * choice for sim_proc_sync() with two callers), the call, a register
 * saved and the tests that fold away cost 12 instructions an atomic at
 * 256 CPUs on 16 counters (`make bench-insns INSNS_N=256 INSNS_K=16`: 617
 * -> 605; 72/16 602 -> 590, 8/16 485 -> 472, 8/1 579 -> 567).
 */
static inline __attribute__((always_inline)) bool
sim_proc_sync_ahead(struct sim_proc *p)
{
	struct sim_engine *e = p->engine;
	sim_time_t at = p->now;

	/*
	 * Nothing else is due before p->now: moving the clock there is what
	 * running a wake-up event would do, without the event.
	 */
	if (!sim_proc_must_yield(p)) {
		e->cal.clock.now = at;
		e->running = 0; /* sim_event_seq(): SIM_SEQ_AHEAD */
		return false;
	}
	/*
	 * A wake-up at p->now, to yield to the events due before: then not
	 * the new min (cal_append_later() leaves that test out, 2
	 * instructions a yield); else p->now is past the horizon (rare).
	 */
	if (at >= e->cal.clock.next && cal_append_later(&e->cal, p->slot, at)) {
		p->pending = true;
		return true;
	}
	/* the rest, and the checks' failures, are sim__proc_sync()'s */
	return sim__proc_sync(p);
}

static inline bool sim_proc_sync(struct sim_proc *p)
{
	struct sim_engine *e = p->engine;
	sim_time_t at = p->now;

	if (at == e->cal.clock.now)
		return false;
	if (at > e->cal.clock.now && !p->pending)
		return sim_proc_sync_ahead(p);
	return sim__proc_sync(p);
}

/*
 * SIM__CHECK() - SIM_BUG_ON() for a hot path's check of an invariant that
 * another check also guards, soon after: in a sanitizer's or unoptimised
 * build only, where the earlier report is worth its cost.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIM__CHECKS 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || !defined(__OPTIMIZE__)
#define SIM__CHECKS 1
#endif
#ifdef SIM__CHECKS
#define SIM__CHECK(cond) SIM_BUG_ON(cond)
#else
#define SIM__CHECK(cond) ((void)sizeof(cond))
#endif

/*
 * sim_timer_set_idle() - sim_timer_set() of a timer that is not pending,
 * at @when after sim_now(): a recurring event's own timer, set again from
 * that event (a line's service, models/hw/coh_serve.c), where the caller's
 * tests decide both. Checked in a checking build only: sim_timer_set()'s
 * tests of both are 4 instructions a setting.
 */
static inline __attribute__((always_inline)) void
sim_timer_set_idle(struct sim_timer *t, sim_time_t when)
{
	SIM__CHECK(t->pending || when <= sim_now(t->engine));
	if (cal_append_lone(&t->engine->cal, t->slot, when)) {
		t->pending = true;
		return;
	}
	sim__timer_set(t, when);
}

/* sim__proc_run_more() - sim__proc_run() once a frame returned @r. */
void sim__proc_run_more(struct sim_proc *p, int r);

/*
 * sim__proc_run() - run the process's coroutines until one waits or the
 * outermost returns. Inline in its two callers (the run loop, for the
 * process's one pending wake-up, and sim_proc_resume()): most runs are
 * one call of the running frame that waits again, and the rest of the
 * loop is sim__proc_run_more(), which finds the frame again, so that
 * only @p lives across the call. That the process is not finished is
 * checked where it was made to wait (proc_wake_at(), sim_proc_resume()):
 * a process that waits has not finished.
 */
static inline void sim__proc_run(struct sim_proc *p)
{
	struct co_frame *f = p->frame;
	int r = f->fn(p, f);

	if (r != CO_WAIT)
		sim__proc_run_more(p, r);
}

/*
 * sim_engine_many_procs() - whether @e has more than SIM_MANY_PROCS
 * processes, too many for their state to stay in the host's L1:
 * prefetching it then pays.
 */
static inline bool sim_engine_many_procs(const struct sim_engine *e)
{
	return e->nr_procs > SIM_MANY_PROCS;
}

/*
 * sim_proc_prefetch() - a hint that @p runs soon: start loading the host
 * lines its run reads first, its running frame and its owner's first line,
 * so that they are in the host's L1 when it runs (past SIM_MANY_PROCS
 * processes their state outgrows the L1, and a run began with a chain of
 * misses: its frame, then its task). @p's own line should be in the L1
 * already (prefetched a step before), or its load waits. No effect on
 * results.
 */
SIM_PREFETCH_FN void sim_proc_prefetch(const struct sim_proc *p)
{
	SIM_PREFETCH_W(p->frame);
	SIM_PREFETCH_W(p->owner);
}

/*
 * sim_proc_resume() - run a waiting process at once, from inside the
 * running event, its clock already set (p->now >= sim_now()) to when its
 * wait ended. Only for a process whose code from there to its next
 * sim_proc_sync() touches nothing another process could see (see
 * coh_cpu.resume_inline): it is the wake-up event at p->now without the
 * event. Inline: it runs once per resumed access.
 */
static inline void sim_proc_resume(struct sim_proc *p)
{
	/* a finished process has no frame (sp 0) */
	SIM_BUG_ON(!p->sp);
	/*
	 * A wake-up pending, or a clock behind the engine's: its next
	 * sim_proc_sync() reports either (sim__proc_sync()).
	 */
	SIM__CHECK(p->pending || p->now < sim_now(p->engine));
	sim__proc_run(p);
}

#endif /* SIM_ENGINE_H */
