// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/engine.c - event heap, run loop and coroutine processes.
 *
 * The pending-event set is a 4-ary min-heap of by-value events in one
 * growing array: no allocation per event, and a shallower tree than a
 * binary heap, which matters because almost every pop is followed by a
 * push from the same handler.
 *
 * Replace-top: the run loop leaves the running event's slot at the root
 * (top_taken) until its handler returns. The handler's first
 * sim_schedule() - a process rescheduling itself, a line serving its
 * next request - then fills the root and sifts down once, instead of a
 * pop's sift-down followed by a push's sift-up; only a handler that
 * schedules nothing pays the pop afterwards. Keys (time, seq) are
 * unique, so the order events run in is the same either way.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/engine.h"
#include "sim/error.h"

struct sim_event {
	sim_time_t time;
	uint64_t seq;
	sim_event_fn fn;
	void *arg;
	uint64_t data;
};

struct sim_engine {
	sim_time_t now;
	uint64_t seq; /* next sequence number */
	uint64_t nr_events; /* events run */
	struct sim_event *heap;
	size_t nr, cap; /* nr counts the taken root, if any */
	bool top_taken; /* heap[0] is the running event's free slot */
	bool stop;
	sim_time_t until; /* horizon of the current sim_engine_run() */
	uint64_t progress_every;
	uint64_t progress_left; /* events until the next progress call */
	void (*progress_fn)(void *arg, sim_time_t now);
	void *progress_arg;
};

#define HEAP_D 4

static inline bool event_before(const struct sim_event *a,
				const struct sim_event *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->seq < b->seq;
}

struct sim_engine *sim_engine_create(void)
{
	struct sim_engine *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->cap = 1024;
	e->heap = malloc(e->cap * sizeof(*e->heap));
	if (!e->heap) {
		free(e);
		return NULL;
	}
	return e;
}

void sim_engine_free(struct sim_engine *e)
{
	if (!e)
		return;
	free(e->heap);
	free(e);
}

sim_time_t sim_now(const struct sim_engine *e)
{
	return e->now;
}

/* The earliest pending time: the root's, or its children's when taken. */
static inline sim_time_t next_time(const struct sim_engine *e)
{
	sim_time_t t = SIM_TIME_MAX;
	size_t c, last;

	if (!e->top_taken)
		return e->nr ? e->heap[0].time : SIM_TIME_MAX;
	last = e->nr < 1 + HEAP_D ? e->nr : 1 + HEAP_D;
	for (c = 1; c < last; c++)
		if (e->heap[c].time < t)
			t = e->heap[c].time;
	return t;
}

sim_time_t sim_next_time(const struct sim_engine *e)
{
	return next_time(e);
}

uint64_t sim_events(const struct sim_engine *e)
{
	return e->nr_events;
}

static void heap_sift_up(struct sim_engine *e, size_t i)
{
	struct sim_event ev = e->heap[i];

	while (i > 0) {
		size_t parent = (i - 1) / HEAP_D;

		if (!event_before(&ev, &e->heap[parent]))
			break;
		e->heap[i] = e->heap[parent];
		i = parent;
	}
	e->heap[i] = ev;
}

static void heap_sift_down(struct sim_engine *e, size_t i)
{
	struct sim_event ev = e->heap[i];

	for (;;) {
		size_t first = i * HEAP_D + 1, best, c, last;

		if (first >= e->nr)
			break;
		best = first;
		last = first + HEAP_D < e->nr ? first + HEAP_D : e->nr;
		for (c = first + 1; c < last; c++)
			if (event_before(&e->heap[c], &e->heap[best]))
				best = c;
		if (!event_before(&e->heap[best], &ev))
			break;
		e->heap[i] = e->heap[best];
		i = best;
	}
	e->heap[i] = ev;
}

void sim_schedule(struct sim_engine *e, sim_time_t t, sim_event_fn fn,
		  void *arg, uint64_t data)
{
	SIM_BUG_ON(t < e->now);
	if (e->top_taken) {
		/* replace-top: the running event's slot takes the new one */
		e->top_taken = false;
		e->heap[0] = (struct sim_event){
			.time = t,
			.seq = e->seq++,
			.fn = fn,
			.arg = arg,
			.data = data,
		};
		heap_sift_down(e, 0);
		return;
	}
	if (e->nr == e->cap) {
		struct sim_event *heap;

		heap = realloc(e->heap, 2 * e->cap * sizeof(*heap));
		SIM_OOM_ON(!heap); /* out of memory: nothing sensible to do */
		e->heap = heap;
		e->cap *= 2;
	}
	e->heap[e->nr] = (struct sim_event){
		.time = t,
		.seq = e->seq++,
		.fn = fn,
		.arg = arg,
		.data = data,
	};
	heap_sift_up(e, e->nr++);
}

void sim_engine_stop(struct sim_engine *e)
{
	e->stop = true;
}

void sim_engine_set_progress(struct sim_engine *e, uint64_t every,
			     void (*fn)(void *arg, sim_time_t now), void *arg)
{
	e->progress_every = fn ? every : 0;
	e->progress_left = e->progress_every;
	e->progress_fn = fn;
	e->progress_arg = arg;
}

void sim_engine_run(struct sim_engine *e, sim_time_t until)
{
	e->stop = false;
	e->until = until;
	while (e->nr && !e->stop) {
		struct sim_event ev = e->heap[0];

		if (ev.time > until)
			break;
		SIM_BUG_ON(ev.time < e->now);
		e->now = ev.time;
		e->nr_events++;
		e->top_taken = true;
		ev.fn(ev.arg, ev.data);
		if (e->top_taken) {
			/* the handler scheduled nothing: pop the slot */
			e->top_taken = false;
			e->heap[0] = e->heap[--e->nr];
			if (e->nr)
				heap_sift_down(e, 0);
		}
		if (e->progress_left && !--e->progress_left) {
			e->progress_left = e->progress_every;
			e->progress_fn(e->progress_arg, e->now);
		}
	}
	if (!e->stop && e->now < until)
		e->now = until;
}

/* ---- processes ---- */

#define CO_ALIGN 16

void sim_proc_init(struct sim_proc *p, struct sim_engine *e, unsigned int id,
		   size_t stack_size, void *owner)
{
	memset(p, 0, sizeof(*p));
	p->engine = e;
	p->id = id;
	p->trace_tid = id;
	p->owner = owner;
	p->stack_size = stack_size;
	p->stack = calloc(1, stack_size);
	SIM_OOM_ON(!p->stack);
}

void sim_proc_destroy(struct sim_proc *p)
{
	free(p->stack);
	memset(p, 0, sizeof(*p));
}

void *co_push(struct sim_proc *p, co_fn fn, size_t size)
{
	struct co_frame *f;

	size = (size + CO_ALIGN - 1) & ~(size_t)(CO_ALIGN - 1);
	/* A frame stack overflow is a model bug: call depth is static. */
	SIM_BUG_ON(p->sp + size > p->stack_size);
	f = (struct co_frame *)(p->stack + p->sp);
	memset(f, 0, size);
	f->fn = fn;
	f->size = size;
	f->caller = (unsigned int)p->top;
	p->top = p->sp;
	p->sp += size;
	return f;
}

static struct co_frame *co_top(struct sim_proc *p)
{
	return (struct co_frame *)(p->stack + p->top);
}

/*
 * proc_run() - run the process's coroutines until one waits or the
 * outermost returns.
 */
static void proc_run(struct sim_proc *p)
{
	struct co_frame *f = co_top(p);

	SIM_BUG_ON(p->running);
	p->running = true;
	for (;;) {
		int r = f->fn(p, f);

		if (r == CO_WAIT)
			break;
		if (r == CO_CALL) {
			f = co_top(p);
			continue;
		}
		/* CO_DONE: pop, resume the caller. */
		p->sp -= f->size;
		p->top = f->caller;
		if (!p->sp) {
			p->finished = true;
			break;
		}
		f = co_top(p);
	}
	p->running = false;
}

static void proc_wake_event(void *arg, uint64_t data)
{
	struct sim_proc *p = arg;

	(void)data;
	SIM_BUG_ON(p->finished || !p->sp);
	if (p->now < sim_now(p->engine))
		p->now = sim_now(p->engine);
	proc_run(p);
}

void sim_proc_start(struct sim_proc *p, sim_time_t at)
{
	p->finished = false;
	p->now = at;
	sim_schedule(p->engine, at, proc_wake_event, p, 0);
}

void sim_proc_wake(struct sim_proc *p, sim_time_t at)
{
	sim_schedule(p->engine, at, proc_wake_event, p, 0);
}

bool sim_proc_sync(struct sim_proc *p)
{
	struct sim_engine *e = p->engine;

	if (p->now == e->now)
		return false;
	SIM_BUG_ON(p->now < e->now);
	/*
	 * Nothing else is due before p->now: moving the clock there is what
	 * running a wake-up event would do, without the event.
	 */
	if (p->now < next_time(e) && p->now <= e->until) {
		e->now = p->now;
		return false;
	}
	sim_schedule(e, p->now, proc_wake_event, p, 0);
	return true;
}
