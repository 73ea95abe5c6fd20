// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/engine.c - the run loop, timers and coroutine processes, over the
 * pending-event set of sim/calendar.[ch].
 *
 * Every pending event has a key (time, seq): seq is a counter drawn by
 * every scheduling, so keys are unique and the run order (time, seq) is
 * total. An event lives in a slot of the calendar (struct sim_slot, one
 * host line): its key, its links and what it runs; slots are reused, so
 * there is no allocation per event. Slot 0 is a sentinel, later than any
 * event (time SIM_TIME_MAX), whose function is never run.
 *
 * A process's wake-up uses a slot of its own (fn NULL: wake the process
 * arg): the run loop calls the process directly. A process waits for one
 * thing at a time: a second wake-up pending is a model bug. A timer
 * (struct sim_timer) has a slot of its own too, its payload written once:
 * setting it is cal_push() alone, with no slot to allocate and free and
 * no payload to store per event.
 *
 * The common cases of a timer's setting and of a wake-up at
 * sim_proc_sync() are inline in the caller (cal_append(), through
 * engine.h, where struct sim_engine is defined for it: engine_types.h);
 * cal_push() does the rest.
 *
 * The calendar's bucket width is a run's choice, made from the number of
 * processes (sim_engine_run(): 4.1 ns buckets up to SIM_MANY_PROCS
 * processes, 1.0 ns with more, whose events are denser, 0.5 ns past
 * DENSER_PROCS); the keys, and so the order, do not depend on it.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/engine.h"
#include "sim/error.h"

#define PROC_COLOURS 64 /* stack offsets, in host lines: sim_proc_init() */
/*
 * More processes than this: 0.5 ns buckets. At 1024 of them (atomic_counter,
 * 500 ns of think: an event every 0.5 ns) a 1 ns bucket held a second event
 * about half the time, a coin toss for the host's branch predictor at every
 * push and pop (cachegrind, 1024 x 1024: 15% of the mispredictions); 0.25 ns
 * buckets, a window of 1 us, sent the longer thinks to the overflow heap.
 */
#define DENSER_PROCS 512
/* the progress countdown without progress calls: never reached, in effect */
#define PROGRESS_NONE (1ull << 62)

/* struct sim_proc's hot fields, @owner the last, fit one host line */
_Static_assert(offsetof(struct sim_proc, id) <= 64,
	       "struct sim_proc: the hot fields are not in 64 bytes");

void sim__engine_set_seq(struct sim_engine *e, uint64_t seq)
{
	e->cal.seq = seq;
}

unsigned int sim__engine_shift(const struct sim_engine *e)
{
	return e->cal.shift;
}

/* ---- the engine ---- */

/* Slot 0 is never run: sim_engine_run() stops before SIM_TIME_MAX. */
static void slot0_run(void *arg, uint64_t data)
{
	(void)arg;
	(void)data;
	SIM_BUG_ON(1);
}

struct sim_engine *sim_engine_create(void)
{
	struct sim_engine *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	if (!cal_init(&e->cal)) {
		sim_engine_free(e);
		return NULL;
	}
	/* slot 0: "none", later than any event; no process (next_prefetch()) */
	e->cal.slots[0].run = (struct sim_payload){ .fn = slot0_run };
	e->left = e->tick_at = PROGRESS_NONE;
	return e;
}

void sim_engine_free(struct sim_engine *e)
{
	if (!e)
		return;
	cal_destroy(&e->cal);
	free(e);
}

uint64_t sim_events(const struct sim_engine *e)
{
	return e->tick_at - e->left;
}

void sim_schedule(struct sim_engine *e, sim_time_t t, sim_event_fn fn,
		  void *arg, uint64_t data)
{
	uint32_t slot;

	/* SIM_TIME_MAX is slot 0's: "never" */
	SIM_BUG_ON(t < e->cal.clock.now || t == SIM_TIME_MAX || !fn);
	slot = cal_slot_alloc(&e->cal);
	e->cal.slots[slot].run = (struct sim_payload){ fn, arg, data, NULL };
	cal_push(&e->cal, slot, t);
}

/* ---- timers ---- */

void sim_timer_init(struct sim_engine *e, struct sim_timer *t, sim_event_fn fn,
		    void *arg, uint64_t data)
{
	SIM_BUG_ON(!fn);
	t->engine = e;
	t->pending = false;
	t->slot = cal_slot_alloc(&e->cal);
	e->cal.slots[t->slot].run = (struct sim_payload){ fn, arg, data, t };
}

void sim_timer_cancel(struct sim_timer *t)
{
	if (t->pending)
		cal_remove(&t->engine->cal, t->slot);
	t->pending = false;
}

void sim_timer_destroy(struct sim_timer *t)
{
	struct sim_engine *e = t->engine;

	if (!e)
		return;
	sim_timer_cancel(t);
	e->cal.slots[t->slot].run.timer = NULL;
	cal_slot_free(&e->cal, t->slot);
	t->engine = NULL;
}

void sim_timer_set_key(struct sim_timer *t, sim_time_t when, uint64_t seq)
{
	struct sim_engine *e = t->engine;

	SIM_BUG_ON(
		seq >= e->cal.seq || when == SIM_TIME_MAX ||
		!sim_key_before(e->cal.clock.now, sim_event_seq(e), when, seq));
	if (t->pending)
		cal_remove(&e->cal, t->slot);
	t->pending = true;
	cal_push_key(&e->cal, t->slot, when, seq);
}

/* timer_move() - sim_timer_set() of a pending timer: rare. */
static void __attribute__((noinline))
timer_move(struct sim_timer *t, sim_time_t when)
{
	cal_remove(&t->engine->cal, t->slot);
	t->pending = false;
	sim__timer_set(t, when);
}

void sim__timer_set(struct sim_timer *t, sim_time_t when)
{
	struct sim_engine *e = t->engine;

	/* SIM_TIME_MAX is slot 0's: "never" */
	SIM_BUG_ON(when < e->cal.clock.now || when == SIM_TIME_MAX);
	if (t->pending) {
		timer_move(t, when);
		return;
	}
	t->pending = true;
	cal_push(&e->cal, t->slot, when);
}

/* ---- the run loop ---- */

void sim_engine_stop(struct sim_engine *e)
{
	e->stop = true;
	cal_set_end(&e->cal, 0);
}

void sim_engine_set_progress(struct sim_engine *e, uint64_t every,
			     void (*fn)(void *arg, sim_time_t now), void *arg)
{
	uint64_t nr = sim_events(e);

	e->progress_every = fn ? every : 0;
	e->progress_fn = fn;
	e->progress_arg = arg;
	e->left = e->progress_every ? e->progress_every : PROGRESS_NONE;
	e->tick_at = nr + e->left;
}

/* The countdown reached 0: sim_events() is tick_at. */
void __attribute__((noinline))
sim__progress_tick(struct sim_engine *e, sim_time_t t)
{
	e->left = e->progress_every ? e->progress_every : PROGRESS_NONE;
	e->tick_at += e->left;
	if (e->progress_every)
		e->progress_fn(e->progress_arg, t);
}

/*
 * next_prefetch() - a hint: the event after the one starting now is,
 * mostly, the one now earliest (e->cal.min; the running event may
 * schedule an earlier one). If it wakes a process, start loading the
 * process's state, so that it is in the host's L1 when its run begins:
 * with tens of processes it is not, and the run began with a chain of
 * misses, its process, frame and task one after the other. No effect on
 * results. Slot 0 (none pending) is not a process's: it has a function.
 */
SIM_PREFETCH_FN void next_prefetch(const struct sim_engine *e)
{
	/*
	 * Not a process: its pointers point at itself, a host line in the
	 * L1, not at NULL. A prefetch of an address that no page maps is
	 * not free: the host walks the page tables for it, and caches no
	 * failed walk, so that on a virtual machine (nested page tables)
	 * every such prefetch costs a walk of both.
	 */
	static const struct sim_proc none = {
		.frame = (struct co_frame *)(uintptr_t)&none,
		.owner = (void *)(uintptr_t)&none,
	};
	const struct sim_payload *pl = &e->cal.slots[e->cal.min].run;
	/* loaded whatever the event: the choice below can be a cmov */
	const struct sim_proc *arg = pl->arg;
	/*
	 * A conditional move, not a branch: whether the next event wakes a
	 * process or runs a function is a coin toss for the host's branch
	 * predictor at N=72 K=16, and the run loop asks it again at once
	 * (cachegrind's branch model finds such coin tosses). GCC's cmov is
	 * 5 instructions fewer an event than a mask (clang branches on
	 * either).
	 */
	const struct sim_proc *p = pl->fn ? &none : arg;

	SIM_PREFETCH_W(p);
	sim_proc_prefetch(p);
}

/*
 * run_loop() - sim_engine_run()'s loop, with @prefetch (sim_engine_many_procs()) a
 * constant at each of its two calls: the test is made once a run, not at
 * every event. The bucket width follows from it (sim_engine_run()): 4.1
 * ns with few processes, 1.0 ns with many, where the inline pop's is a
 * constant too (past DENSER_PROCS every pop is cal_pop_far()).
 */
static inline __attribute__((always_inline)) void run_loop(struct sim_engine *e,
							   bool prefetch)
{
	unsigned int shift = prefetch ? SIM__RING_SHIFT_DENSE : SIM__RING_SHIFT;

	for (;;) {
		uint32_t slot = e->cal.min;
		sim_time_t t = e->cal.clock.next;
		const struct sim_payload *pl = &e->cal.slots[slot].run;

		/*
		 * Told that the pop is mostly inline (with cal_pop()'s "alone
		 * in its bucket"), GCC lays the loop out with it straight:
		 * before, both were behind a jump and back at every event.
		 * Not so with pop_flat (past 512 processes), where limit is 0.
		 */
		if (__builtin_expect(t < e->cal.limit, 1)) {
			SIM__CHECK(e->cal.shift != shift);
			cal__pop(&e->cal, slot, t, shift);
		} else {
			/* the run ends, or the overflow is involved */
			if (t >= e->cal.end)
				break;
			cal_pop_far(&e->cal, slot, t);
		}
		e->cal.clock.now = t;
		e->running = slot;
		if (prefetch)
			next_prefetch(e);
		if (!--e->left)
			sim__progress_tick(e, t);
		if (!pl->fn) {
			/* a process's wake-up: its slot stays its own */
			struct sim_proc *p = pl->arg;
			struct co_frame *f;
			int r;

			p->pending = false;
			/*
			 * Its clock is its wake-up's time or later already: set
			 * so where the wake-up was pushed (sim_proc_wake()).
			 */
			SIM__CHECK(p->now < t);
			f = p->frame;
			r = f->fn(p, f);
			/*
			 * sim__proc_run(), but @p found again from its
			 * slot, which stays its own, when it did not wait
			 * (rare): @p kept across the call was a spill an
			 * event
			 */
			if (r != CO_WAIT)
				sim__proc_run_more(e->cal.slots[slot].run.arg,
						   r);
		} else if (pl->timer) {
			/* a timer: its slot and payload stay its own */
			pl->timer->pending = false;
			pl->fn(pl->arg, pl->data);
		} else {
			/*
			 * Its slot is free once it has run, not before: until
			 * then its seq is sim_event_seq()'s (a reuse would
			 * overwrite it).
			 */
			pl->fn(pl->arg, pl->data);
			cal_slot_free(&e->cal, slot);
		}
	}
}

void sim_engine_run(struct sim_engine *e, sim_time_t until)
{
	unsigned int shift = SIM__RING_SHIFT;

	if (e->nr_procs > DENSER_PROCS)
		shift = SIM__RING_SHIFT_DENSE - 1;
	else if (sim_engine_many_procs(e))
		shift = SIM__RING_SHIFT_DENSE;

	if (e->cal.shift != shift)
		cal_reshift(&e->cal, shift);
	/* slot 0 (none pending) is at SIM_TIME_MAX: never run it */
	cal_set_end(&e->cal, until < SIM_TIME_MAX ? until + 1 : SIM_TIME_MAX);
	e->stop = false;
	e->cal.clock.until = until;
	if (sim_engine_many_procs(e))
		run_loop(e, true);
	else
		run_loop(e, false);
	if (!e->stop && e->cal.clock.now < until)
		e->cal.clock.now = until;
}

/* ---- processes ---- */

void sim_proc_init(struct sim_proc *p, struct sim_engine *e, unsigned int id,
		   size_t stack_size, void *owner)
{
	memset(p, 0, sizeof(*p));
	p->engine = e;
	p->id = id;
	p->trace_tid = id;
	/* no owner: its own line, which its run reads anyway (next_prefetch()) */
	p->owner = owner ? owner : p;
	p->stack_size = stack_size;
	e->nr_procs++;
	/*
	 * Each process's frames start at its own offset in the host's
	 * 64-byte lines modulo 4 KiB, (id % 64) lines in: stacks allocated
	 * one after the other, 4 KiB each, would put every process's
	 * outermost frame in the same few sets of the host's L1, where they
	 * evict each other. A hint: no effect on results. From a 64-byte
	 * boundary, so that a frame of 64 bytes or less (an outermost
	 * loop's, which every run of the process reads) is one host line,
	 * not two, as calloc()'s 16-byte alignment left most of them
	 * (`make bench-scale-sim`'s 1024 x 1024 scenario under cachegrind,
	 * 512 KiB 8-way LL: 5.99 -> 5.13 misses an event).
	 */
	p->stack_alloc = calloc(1, stack_size + PROC_COLOURS * 64 + 63);
	SIM_OOM_ON(!p->stack_alloc);
	p->stack = (unsigned char *)(((uintptr_t)p->stack_alloc + 63) &
				     ~(uintptr_t)63) +
		   (id % PROC_COLOURS) * 64;
	p->frame = (struct co_frame *)(void *)p->stack; /* none: offset 0 */
	p->slot = cal_slot_alloc(&e->cal);
	e->cal.slots[p->slot].run = (struct sim_payload){ NULL, p, 0, NULL };
}

void sim_proc_destroy(struct sim_proc *p)
{
	struct sim_engine *e = p->engine;

	if (e) {
		e->nr_procs--;
		/* a wake-up still pending (the run ended first) is dropped */
		if (p->pending)
			cal_remove(&e->cal, p->slot);
		e->cal.slots[p->slot].run.arg = NULL;
		cal_slot_free(&e->cal, p->slot);
	}
	free(p->stack_alloc);
	memset(p, 0, sizeof(*p));
}

void *co_push(struct sim_proc *p, co_fn fn, size_t size)
{
	struct co_frame *f = co__push(p, fn, size);

	memset(f + 1, 0, f->size - sizeof(*f));
	return f;
}

/*
 * sim__proc_run_more() - the running frame returned @r, not CO_WAIT: go on
 * with the callee it pushed (now the top frame) or pop it (it is still
 * the top frame) and resume its caller, until one waits or the outermost
 * returns.
 */
void __attribute__((noinline)) sim__proc_run_more(struct sim_proc *p, int r)
{
	for (;;) {
		struct co_frame *f = p->frame;

		if (r == CO_WAIT)
			break;
		if (r == CO_DONE) {
			/* pop, resume the caller */
			p->sp -= f->size;
			p->frame = (struct co_frame *)(void *)(p->stack +
							       f->caller);
			if (!p->sp) {
				p->finished = true;
				break;
			}
			f = p->frame;
		}
		r = f->fn(p, f);
	}
}

/*
 * proc_wake_at() - wake @p at @at: its own slot, a fresh seq. A process
 * waits for one thing at a time: a second wake-up pending is a model bug.
 */
static inline void proc_wake_at(struct sim_engine *e, struct sim_proc *p,
				sim_time_t at)
{
	SIM_BUG_ON(at < e->cal.clock.now || p->pending || !p->sp);
	p->pending = true;
	cal_push(&e->cal, p->slot, at);
}

void sim_proc_start(struct sim_proc *p, sim_time_t at)
{
	p->finished = false;
	p->now = at;
	proc_wake_at(p->engine, p, at);
}

void sim_proc_wake(struct sim_proc *p, sim_time_t at)
{
	/*
	 * It runs at the later of its clock and @at: its clock is set so
	 * here, not in the run loop, where a process's wake-up from its
	 * own sync (nearly all of them) is at its clock already, 4
	 * instructions an event. Nothing reads or writes a waiting
	 * process's clock. By a select: whether a process ran ahead of its
	 * wake-up is a coin toss for the host's branch predictor at 1024
	 * processes.
	 */
	p->now = p->now < at ? at : p->now;
	proc_wake_at(p->engine, p, at);
}

/*
 * sim__proc_sync() - sim_proc_sync() but for its common cases (inline in
 * engine.h): the wake-up goes to a bucket not empty or past the window,
 * or a check fails.
 */
bool sim__proc_sync(struct sim_proc *p)
{
	struct sim_engine *e = p->engine;
	sim_time_t at = p->now;

	/*
	 * Nothing else is due before p->now: moving the clock there is what
	 * running a wake-up event would do, without the event.
	 */
	if (!sim_proc_must_yield(p)) {
		SIM_BUG_ON(at < e->cal.clock.now);
		e->cal.clock.now = at;
		e->running = 0; /* sim_event_seq(): SIM_SEQ_AHEAD */
		return false;
	}
	/* the running process: not finished, not pending, at >= sim_now() */
	SIM_BUG_ON(at < e->cal.clock.now || p->pending);
	p->pending = true;
	cal_push(&e->cal, p->slot, at);
	return true;
}
