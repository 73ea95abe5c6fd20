// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/engine.c - the pending-event set, run loop and coroutine processes.
 *
 * Every pending event has a key (time, seq): seq is a counter drawn by
 * every scheduling, so keys are unique and the run order (time, seq) is
 * total. The key's word seqslot holds seq in its high bits and, in its
 * low SLOT_BITS bits, the event's payload slot {fn, arg, data}.
 *
 * The pending set is a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan,
 * 1990), which fits a discrete-event simulation because the clock never
 * goes back: every pending time is >= @last, the time of the last event
 * taken out. A key of time t sits in bucket i = the number of bits of
 * (t XOR last): bucket 0 holds the keys due at @last itself, bucket i > 0
 * those that first differ from @last at bit i - 1. Every key in bucket i
 * is earlier than every key in bucket i + 1, so
 *
 *  - scheduling is an append to one bucket: no sift, no comparison with
 *    other keys;
 *  - the next event is bucket 0's next key, if any; otherwise the lowest
 *    non-empty bucket (a bit scan of @nonempty) holds the earliest time
 *    (kept in bmin[]): @last moves there and that bucket's keys are
 *    spread over the buckets below it, the earliest ones into bucket 0.
 *    A key only ever moves down, at most 64 times; in practice a key
 *    moves two or three times between its scheduling and its run.
 *
 *	last = 0b1000; pending 8, 9, 12, 13:
 *	  bucket 0 {8}   1 {9}   3 {12, 13}
 *	after 8 and 9 ran (last = 9), the lowest bucket is 3: last = 12,
 *	and 12 goes to bucket 0, 13 to bucket 1.
 *
 * Ties in time: bucket 0 runs first in, first out. A key scheduled at
 * @last is the newest, so appending keeps bucket 0 in seq order; when a
 * bucket is spread, bucket 0 was empty and the keys it receives (those of
 * the bucket's earliest time) are sorted by seq. The order is therefore
 * exactly (time, seq), as a heap would give.
 *
 * A process's wake-up is a key like any other, with a payload slot of its
 * own (fn NULL: wake the process arg): no allocation per wake-up, and the
 * run loop calls the process directly. A process waits for one thing at a
 * time: a second wake-up pending is a model bug.
 *
 * The sequence field holds 2^SEQ_BITS numbers (about 10^12 events, hours
 * of simulation); when they run out, the pending events are renumbered
 * 0, 1, ... in their (time, seq) order, which keeps every order.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/engine.h"
#include "sim/error.h"

#define SLOT_BITS 24 /* pending events and processes: at most 2^24 */
#define SLOT_MASK ((1ull << SLOT_BITS) - 1)
#define SEQ_LIMIT (1ull << (64 - SLOT_BITS))
#define NR_BUCKETS 65 /* 0: due at last; i: first differs at bit i - 1 */

/* struct sim_key - an event's place in the order: (time, seq << 24 | slot) */
struct sim_key {
	sim_time_t time;
	uint64_t seqslot;
};

/* What runs: fn(arg, data), or with fn NULL the wake-up of process arg. */
struct sim_payload {
	sim_event_fn fn;
	void *arg;
	uint64_t data;
};

struct sim_bucket {
	struct sim_key *key;
	uint32_t nr, cap;
};

struct sim_engine {
	sim_time_t now;
	sim_time_t last; /* <= every pending time: the buckets' origin */
	uint64_t nonempty; /* bit i - 1 set: bucket i > 0 holds keys */
	uint32_t head; /* bucket 0's next key to run */
	bool stop;
	uint64_t seq; /* next sequence number */
	uint64_t nr_events; /* events run */
	uint64_t progress_at; /* nr_events at the next progress call */
	sim_time_t until; /* horizon of the current sim_engine_run() */
	struct sim_payload *payload; /* by slot */
	uint32_t *free_slots; /* a stack of unused payload slots */
	size_t nr_free, cap;
	uint64_t progress_every;
	void (*progress_fn)(void *arg, sim_time_t now);
	void *progress_arg;
	sim_time_t bmin[NR_BUCKETS]; /* bucket i's earliest time, i > 0 */
	struct sim_bucket b[NR_BUCKETS];
};

static bool slots_grow(struct sim_engine *e, size_t cap)
{
	struct sim_payload *payload;
	uint32_t *free_slots;
	size_t i;

	if (cap > SLOT_MASK + 1)
		return false;
	payload = realloc(e->payload, cap * sizeof(*payload));
	if (!payload)
		return false;
	e->payload = payload;
	free_slots = realloc(e->free_slots, cap * sizeof(*free_slots));
	if (!free_slots)
		return false;
	e->free_slots = free_slots;
	/* new slots, pushed so that the lowest is handed out first */
	for (i = cap; i > e->cap; i--)
		e->free_slots[e->nr_free++] = (uint32_t)(i - 1);
	e->cap = cap;
	return true;
}

static uint32_t slot_alloc(struct sim_engine *e)
{
	/* out of memory, or 2^24 events pending: a clean error */
	if (!e->nr_free)
		SIM_OOM_ON(!slots_grow(e, 2 * e->cap));
	return e->free_slots[--e->nr_free];
}

struct sim_engine *sim_engine_create(void)
{
	struct sim_engine *e = calloc(1, sizeof(*e));
	unsigned int i;

	if (!e)
		return NULL;
	if (!slots_grow(e, 1024)) {
		sim_engine_free(e);
		return NULL;
	}
	for (i = 0; i < NR_BUCKETS; i++)
		e->bmin[i] = SIM_TIME_MAX;
	e->progress_at = UINT64_MAX;
	return e;
}

void sim_engine_free(struct sim_engine *e)
{
	unsigned int i;

	if (!e)
		return;
	for (i = 0; i < NR_BUCKETS; i++)
		free(e->b[i].key);
	free(e->payload);
	free(e->free_slots);
	free(e);
}

sim_time_t sim_now(const struct sim_engine *e)
{
	return e->now;
}

/* The lowest non-empty bucket above 0; @nonempty must not be 0. */
static inline unsigned int low_bucket(uint64_t nonempty)
{
	return (unsigned int)__builtin_ctzll(nonempty) + 1;
}

/* The earliest pending time: bucket 0's, or the lowest bucket's minimum. */
static inline sim_time_t next_time(const struct sim_engine *e)
{
	if (e->head < e->b[0].nr)
		return e->last;
	if (!e->nonempty)
		return SIM_TIME_MAX;
	return e->bmin[low_bucket(e->nonempty)];
}

sim_time_t sim_next_time(const struct sim_engine *e)
{
	return next_time(e);
}

uint64_t sim_events(const struct sim_engine *e)
{
	return e->nr_events;
}

static void bucket_grow(struct sim_bucket *b)
{
	size_t cap = b->cap ? 2 * (size_t)b->cap : 16;
	struct sim_key *key;

	SIM_OOM_ON(cap > UINT32_MAX);
	key = realloc(b->key, cap * sizeof(*key));
	SIM_OOM_ON(!key);
	b->key = key;
	b->cap = (uint32_t)cap;
}

/*
 * key_push() - put a key in its bucket. The bucket is the bit length of
 * time XOR last: 0 for a key due at @last (appended: it is the newest,
 * so bucket 0 stays in seq order), else 1..64.
 */
static inline void key_push(struct sim_engine *e, sim_time_t t,
			    uint64_t seqslot)
{
	uint64_t x = t ^ e->last;
	unsigned int i = x ? 64 - (unsigned int)__builtin_clzll(x) : 0;
	struct sim_bucket *b = &e->b[i];

	if (b->nr == b->cap)
		bucket_grow(b);
	b->key[b->nr].time = t;
	b->key[b->nr].seqslot = seqslot;
	b->nr++;
	if (i) {
		e->nonempty |= 1ull << (i - 1);
		if (t < e->bmin[i])
			e->bmin[i] = t;
	}
}

/*
 * bucket_spread() - bucket 0 ran out: move @last to the earliest pending
 * time, the minimum of the lowest bucket @i, and push that bucket's keys
 * again. Each lands in a lower bucket (it agrees with the new @last on
 * bit i - 1 and above); those due at the new @last land in bucket 0, in
 * the bucket's order, so sort them by seq (usually there is one).
 */
static void bucket_spread(struct sim_engine *e, unsigned int i)
{
	struct sim_bucket *src = &e->b[i], *b0 = &e->b[0];
	uint32_t n = src->nr, j, k;

	e->last = e->bmin[i];
	e->bmin[i] = SIM_TIME_MAX;
	e->nonempty &= ~(1ull << (i - 1));
	src->nr = 0;
	for (j = 0; j < n; j++)
		key_push(e, src->key[j].time, src->key[j].seqslot);
	for (j = 1; j < b0->nr; j++) { /* insertion sort by seq */
		struct sim_key key = b0->key[j];

		for (k = j; k > 0 && b0->key[k - 1].seqslot > key.seqslot; k--)
			b0->key[k] = b0->key[k - 1];
		b0->key[k] = key;
	}
}

static int key_cmp(const void *a, const void *b)
{
	const struct sim_key *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seqslot < y->seqslot ? -1 : x->seqslot > y->seqslot;
}

/*
 * seq_renumber() - the sequence numbers ran out: give the pending events
 * 0, 1, ... in their (time, seq) order. Nothing moves: the buckets depend
 * on times only, and bucket 0 keeps its seq order.
 */
static void seq_renumber(struct sim_engine *e)
{
	struct sim_key *sorted, *k;
	size_t nr = 0, lo, hi, mid;
	unsigned int i, j;

	for (i = 0; i < NR_BUCKETS; i++)
		nr += e->b[i].nr;
	sorted = malloc((nr ? nr : 1) * sizeof(*sorted));
	SIM_OOM_ON(!sorted);
	nr = 0;
	for (i = 0; i < NR_BUCKETS; i++)
		for (j = i ? 0 : e->head; j < e->b[i].nr; j++)
			sorted[nr++] = e->b[i].key[j];
	qsort(sorted, nr, sizeof(*sorted), key_cmp);
	for (i = 0; i < NR_BUCKETS; i++) {
		for (j = i ? 0 : e->head; j < e->b[i].nr; j++) {
			k = &e->b[i].key[j];
			lo = 0;
			hi = nr;
			while (hi - lo > 1) { /* the key's rank: keys are unique */
				mid = lo + (hi - lo) / 2;
				if (key_cmp(k, &sorted[mid]) < 0)
					hi = mid;
				else
					lo = mid;
			}
			k->seqslot = ((uint64_t)lo << SLOT_BITS) |
				     (k->seqslot & SLOT_MASK);
		}
	}
	free(sorted);
	e->seq = nr;
}

static inline uint64_t seq_draw(struct sim_engine *e)
{
	if (e->seq == SEQ_LIMIT)
		seq_renumber(e);
	return e->seq++;
}

void sim_schedule(struct sim_engine *e, sim_time_t t, sim_event_fn fn,
		  void *arg, uint64_t data)
{
	uint32_t slot;

	SIM_BUG_ON(t < e->now || !fn);
	slot = slot_alloc(e);
	e->payload[slot] = (struct sim_payload){ fn, arg, data };
	key_push(e, t, seq_draw(e) << SLOT_BITS | slot);
}

void sim_engine_stop(struct sim_engine *e)
{
	e->stop = true;
}

void sim_engine_set_progress(struct sim_engine *e, uint64_t every,
			     void (*fn)(void *arg, sim_time_t now), void *arg)
{
	e->progress_every = fn ? every : 0;
	e->progress_at = e->progress_every ? e->nr_events + every : UINT64_MAX;
	e->progress_fn = fn;
	e->progress_arg = arg;
}

static void proc_run(struct sim_proc *p);

void sim_engine_run(struct sim_engine *e, sim_time_t until)
{
	struct sim_bucket *b0 = &e->b[0];

	e->stop = false;
	e->until = until;
	while (!e->stop) {
		struct sim_payload ev;
		struct sim_key k;
		uint32_t slot;

		if (e->head == b0->nr) {
			unsigned int i;

			if (!e->nonempty)
				break;
			i = low_bucket(e->nonempty);
			if (e->bmin[i] > until)
				break;
			bucket_spread(e, i);
		} else if (e->last > until) {
			break;
		}
		k = b0->key[e->head++];
		if (e->head == b0->nr) /* bucket 0 ran out: reuse it */
			e->head = b0->nr = 0;
		SIM_BUG_ON(k.time < e->now);
		e->now = k.time;
		slot = (uint32_t)(k.seqslot & SLOT_MASK);
		ev = e->payload[slot];
		if (++e->nr_events == e->progress_at) {
			e->progress_at += e->progress_every;
			e->progress_fn(e->progress_arg, e->now);
		}
		if (!ev.fn) {
			/* a process's wake-up: its slot stays its own */
			struct sim_proc *p = ev.arg;

			p->pending = false;
			if (p->now < k.time)
				p->now = k.time;
			proc_run(p);
		} else {
			e->free_slots[e->nr_free++] = slot;
			ev.fn(ev.arg, ev.data);
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
	p->slot = slot_alloc(e);
	e->payload[p->slot] = (struct sim_payload){ NULL, p, 0 };
}

/* key_remove() - drop the pending key of @slot (a process's): rare. */
static void key_remove(struct sim_engine *e, uint32_t slot)
{
	unsigned int i, j;

	for (i = 0; i < NR_BUCKETS; i++) {
		struct sim_bucket *b = &e->b[i];

		for (j = i ? 0 : e->head; j < b->nr; j++) {
			if ((b->key[j].seqslot & SLOT_MASK) != slot)
				continue;
			/* keep the order: bucket 0's is the run order */
			memmove(&b->key[j], &b->key[j + 1],
				(b->nr - j - 1) * sizeof(*b->key));
			b->nr--;
			if (!i && e->head == b->nr)
				e->head = b->nr = 0;
			return;
		}
	}
}

void sim_proc_destroy(struct sim_proc *p)
{
	struct sim_engine *e = p->engine;

	if (e) {
		/* a wake-up still pending (the run ended first) is dropped */
		if (p->pending)
			key_remove(e, p->slot);
		e->payload[p->slot].arg = NULL;
		e->free_slots[e->nr_free++] = p->slot;
	}
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

	SIM_BUG_ON(p->running || p->finished || !p->sp);
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

/*
 * proc_wake_at() - wake @p at @at: its own slot, a fresh seq. A process
 * waits for one thing at a time: a second wake-up pending is a model bug.
 */
static inline void proc_wake_at(struct sim_engine *e, struct sim_proc *p,
				sim_time_t at)
{
	SIM_BUG_ON(at < e->now || p->pending);
	p->pending = true;
	key_push(e, at, seq_draw(e) << SLOT_BITS | p->slot);
}

void sim_proc_start(struct sim_proc *p, sim_time_t at)
{
	p->finished = false;
	p->now = at;
	proc_wake_at(p->engine, p, at);
}

void sim_proc_wake(struct sim_proc *p, sim_time_t at)
{
	proc_wake_at(p->engine, p, at);
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
	proc_wake_at(e, p, p->now);
	return true;
}
