// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/engine.c - event heap, run loop and coroutine processes.
 *
 * The pending-event set is a 4-ary min-heap of 16-byte keys in one
 * growing array: no allocation per event, and a shallower tree than a
 * binary heap. A key is the event's time and, in one word, its sequence
 * number (high bits) and the slot of its payload {fn, arg, data} (low
 * SLOT_BITS bits) in a separate array. Sequence numbers are unique, so
 * the slot bits never decide an order, and comparing two keys is one
 * 128-bit comparison; a sift moves 16 bytes a level instead of the whole
 * event, and the four children of a node share one 64-byte line (the
 * array is offset so that every group of siblings is aligned). The
 * positions past the last key hold sentinels (all ones, later than any
 * event), so a sift always compares four children without a bound check.
 *
 * Replace-top: the run loop leaves the running event's key at the root
 * (top_taken) until its handler returns. The handler's first
 * sim_schedule() - a process rescheduling itself, a line serving its
 * next request - then fills the root, reusing the running event's
 * payload slot, and sifts down once, instead of a pop's sift-down
 * followed by a push's sift-up; only a handler that schedules nothing
 * pays the pop afterwards. Keys (time, seq) are unique, so the order
 * events run in is the same either way.
 *
 * The sequence field holds 2^SEQ_BITS numbers (about 10^12 events, hours
 * of simulation); when they run out, the pending events are renumbered
 * 0, 1, ... in their (time, seq) order, which keeps every order and the
 * heap itself as they were.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/engine.h"
#include "sim/error.h"

#define HEAP_D 4
#define SLOT_BITS 24 /* pending events: at most 2^24 */
#define SLOT_MASK ((1ull << SLOT_BITS) - 1)
#define SEQ_LIMIT (1ull << (64 - SLOT_BITS))
#define HEAP_PAD 3 /* keys before the root: sibling groups 64-byte aligned */

/* struct sim_key - an event's place in the order: (time, seq << 24 | slot) */
struct sim_key {
	sim_time_t time;
	uint64_t seqslot;
};

struct sim_payload {
	sim_event_fn fn;
	void *arg;
	uint64_t data;
};

struct sim_engine {
	sim_time_t now;
	uint64_t seq; /* next sequence number */
	uint64_t nr_events; /* events run */
	struct sim_key *heap; /* HEAP_PAD keys past the start of keys */
	struct sim_key *keys; /* the allocation, 64-byte aligned */
	struct sim_payload *payload; /* by slot */
	uint32_t *free_slots; /* a stack of unused payload slots */
	size_t nr_free;
	size_t nr, cap; /* nr counts the taken root, if any */
	uint32_t top_slot; /* the running event's payload slot */
	bool top_taken; /* heap[0] is the running event's free slot */
	bool stop;
	sim_time_t until; /* horizon of the current sim_engine_run() */
	uint64_t progress_every;
	uint64_t progress_left; /* events until the next progress call */
	void (*progress_fn)(void *arg, sim_time_t now);
	void *progress_arg;
};

static const struct sim_key key_sentinel = { SIM_TIME_MAX, UINT64_MAX };

static inline bool key_before(const struct sim_key *a, const struct sim_key *b)
{
#ifdef __SIZEOF_INT128__
	unsigned __int128 ka = ((unsigned __int128)a->time << 64) | a->seqslot;
	unsigned __int128 kb = ((unsigned __int128)b->time << 64) | b->seqslot;

	return ka < kb;
#else
	if (a->time != b->time)
		return a->time < b->time;
	return a->seqslot < b->seqslot;
#endif
}

/*
 * heap_grow() - room for @cap events: the keys (with the padding before
 * the root and HEAP_D sentinels past the last), payloads and free slots.
 */
static bool heap_grow(struct sim_engine *e, size_t cap)
{
	size_t nkeys = HEAP_PAD + cap + HEAP_D, bytes, i;
	struct sim_key *keys;
	struct sim_payload *payload;
	uint32_t *free_slots;

	if (cap > SLOT_MASK + 1)
		return false;
	bytes = (nkeys * sizeof(*keys) + 63) & ~(size_t)63;
	keys = aligned_alloc(64, bytes);
	if (!keys)
		return false;
	payload = realloc(e->payload, cap * sizeof(*payload));
	if (!payload) {
		free(keys);
		return false;
	}
	e->payload = payload;
	free_slots = realloc(e->free_slots, cap * sizeof(*free_slots));
	if (!free_slots) {
		free(keys);
		return false;
	}
	e->free_slots = free_slots;
	for (i = 0; i < nkeys; i++)
		keys[i] = key_sentinel;
	if (e->keys)
		memcpy(keys + HEAP_PAD, e->heap, e->nr * sizeof(*keys));
	free(e->keys);
	e->keys = keys;
	e->heap = keys + HEAP_PAD;
	/* new slots, pushed so that the lowest is handed out first */
	for (i = cap; i > e->cap; i--)
		e->free_slots[e->nr_free++] = (uint32_t)(i - 1);
	e->cap = cap;
	return true;
}

struct sim_engine *sim_engine_create(void)
{
	struct sim_engine *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	if (!heap_grow(e, 1024)) {
		sim_engine_free(e);
		return NULL;
	}
	return e;
}

void sim_engine_free(struct sim_engine *e)
{
	if (!e)
		return;
	free(e->keys);
	free(e->payload);
	free(e->free_slots);
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
	size_t c;

	if (!e->top_taken)
		return e->heap[0].time; /* a sentinel's when empty */
	for (c = 1; c <= HEAP_D; c++) /* sentinels past the last */
		if (e->heap[c].time < t)
			t = e->heap[c].time;
	return t;
}

sim_time_t sim_next_time(const struct sim_engine *e)
{
	return next_time(e);
}

sim_time_t sim_horizon(const struct sim_engine *e)
{
	return e->until;
}

uint64_t sim_events(const struct sim_engine *e)
{
	return e->nr_events;
}

static void heap_sift_up(struct sim_engine *e, size_t i)
{
	struct sim_key *h = e->heap, k = h[i];

	while (i > 0) {
		size_t parent = (i - 1) / HEAP_D;

		if (!key_before(&k, &h[parent]))
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = k;
}

static void heap_sift_down(struct sim_engine *e, size_t i)
{
	struct sim_key *h = e->heap, k = h[i];
	size_t nr = e->nr;

	for (;;) {
		size_t first = i * HEAP_D + 1, best = first;

		if (first >= nr)
			break;
		/* the children past the last are sentinels, never chosen */
		if (key_before(&h[first + 1], &h[best]))
			best = first + 1;
		if (key_before(&h[first + 2], &h[best]))
			best = first + 2;
		if (key_before(&h[first + 3], &h[best]))
			best = first + 3;
		if (!key_before(&h[best], &k))
			break;
		h[i] = h[best];
		i = best;
	}
	h[i] = k;
}

static int key_cmp(const void *a, const void *b)
{
	const struct sim_key *x = a, *y = b;

	return key_before(x, y) ? -1 : key_before(y, x) ? 1 : 0;
}

/*
 * seq_renumber() - the sequence numbers ran out: give the pending events
 * (a taken root included) 0, 1, ... in their order. The map keeps every
 * order, so the heap stays a heap as it is.
 */
static void seq_renumber(struct sim_engine *e)
{
	struct sim_key *sorted = malloc(e->nr * sizeof(*sorted));
	size_t i, lo, hi, mid;

	SIM_OOM_ON(e->nr && !sorted);
	memcpy(sorted, e->heap, e->nr * sizeof(*sorted));
	qsort(sorted, e->nr, sizeof(*sorted), key_cmp);
	for (i = 0; i < e->nr; i++) {
		struct sim_key *k = &e->heap[i];

		lo = 0;
		hi = e->nr;
		while (hi - lo > 1) { /* the key's rank: keys are unique */
			mid = lo + (hi - lo) / 2;
			if (key_before(k, &sorted[mid]))
				hi = mid;
			else
				lo = mid;
		}
		k->seqslot = ((uint64_t)lo << SLOT_BITS) |
			     (k->seqslot & SLOT_MASK);
	}
	free(sorted);
	e->seq = e->nr;
}

void sim_schedule(struct sim_engine *e, sim_time_t t, sim_event_fn fn,
		  void *arg, uint64_t data)
{
	uint32_t slot;

	SIM_BUG_ON(t < e->now);
	if (e->seq == SEQ_LIMIT)
		seq_renumber(e);
	if (e->top_taken) {
		/* replace-top: the running event's key and slot take the new one */
		e->top_taken = false;
		slot = e->top_slot;
		e->payload[slot] = (struct sim_payload){ fn, arg, data };
		e->heap[0].time = t;
		e->heap[0].seqslot = (e->seq++ << SLOT_BITS) | slot;
		heap_sift_down(e, 0);
		return;
	}
	/* out of memory, or 2^24 events pending: a clean error */
	if (e->nr == e->cap)
		SIM_OOM_ON(!heap_grow(e, 2 * e->cap));
	slot = e->free_slots[--e->nr_free];
	e->payload[slot] = (struct sim_payload){ fn, arg, data };
	e->heap[e->nr].time = t;
	e->heap[e->nr].seqslot = (e->seq++ << SLOT_BITS) | slot;
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
		struct sim_key top = e->heap[0];
		struct sim_payload ev;

		if (top.time > until)
			break;
		SIM_BUG_ON(top.time < e->now);
		e->now = top.time;
		e->nr_events++;
		e->top_slot = (uint32_t)(top.seqslot & SLOT_MASK);
		ev = e->payload[e->top_slot];
		e->top_taken = true;
		ev.fn(ev.arg, ev.data);
		if (e->top_taken) {
			/* the handler scheduled nothing: pop the slot */
			struct sim_key last = e->heap[e->nr - 1];

			e->top_taken = false;
			e->free_slots[e->nr_free++] = e->top_slot;
			e->heap[--e->nr] = key_sentinel;
			if (e->nr) {
				e->heap[0] = last;
				heap_sift_down(e, 0);
			}
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

void sim_proc_resume(struct sim_proc *p)
{
	SIM_BUG_ON(p->finished || !p->sp || p->now < sim_now(p->engine));
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
