/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/calendar.h - the engine's pending-event set: a calendar queue of
 * events ordered by (time, seq). The engine (sim/engine.c) is its one
 * user; it is a module of its own so that its order can be tested alone
 * against a plain heap (tests/check_calendar.c).
 *
 * Theory of operation
 *
 * Every pending event has a key (time, seq): seq is a counter drawn by
 * every scheduling, so keys are unique and the run order (time, seq) is
 * total. An event lives in a slot (struct sim_slot, one host line): its
 * key, its links in its bucket and what it runs; slots are reused, so
 * there is no allocation per event. Slot 0 is a sentinel, later than any
 * event (time SIM_TIME_MAX): min is 0 when nothing is pending.
 *
 * The pending set is a calendar (R. Brown, CACM 1988): a ring of RING
 * buckets, each 2^shift ps wide. An event at time t is in bucket
 * number k = t >> shift; the ring holds the buckets cur .. cur +
 * RING - 1 (cur is the bucket of the last event run: nothing pending is
 * earlier), and a bitmap says which are not empty. Events beyond the
 * ring's window wait in a 4-ary heap, the overflow, and enter the ring
 * when the window reaches them.
 *
 *	cur = 1000:  ring  [1000] -> e7        overflow heap: events of
 *	                   [1003] -> e2, e9    buckets >= 1000 + RING
 *	                   [1004] -> e4
 *
 * A bucket is a list in (time, seq) order (circular, threaded through
 * the slots), filled from its last: a new event has the newest seq and
 * mostly a later time than the others in its bucket, so it usually goes
 * last at once, and events due at the same time cost no walk at all.
 * Every event of an earlier bucket is earlier in time, so the earliest
 * pending event is the first of the first non-empty bucket from cur (a
 * bit scan), and the order is exactly (time, seq), as a heap would give,
 * at a constant cost per event instead of a sift through log(n) levels
 * with unpredictable branches.
 *
 * The width is the caller's choice (Brown's calendar resizes its
 * buckets to the spacing of the events; the engine lets the number of
 * processes stand for it, sim_engine_run()): 4.1 ns, a window of 16.8
 * us, for sparse events; 1.0 ns, a window of 4.2 us, for dense ones,
 * where a wider bucket holds a second event about half the time and so
 * makes every push and pop a coin toss for the host's branch predictor
 * (measurements: doc/speed.md). cal_reshift() changes it; the keys, and
 * so the order, do not depend on it.
 *
 * The earliest event, min, is always known, and its time is in the clock
 * (clock.next, cal__set_min()): sim_proc_sync() and the run loop read
 * it, a push compares itself with it (a new event has the newest seq, so
 * it is earlier only if its time is), and after each pop it is found
 * again.
 *
 * A timer's event pushed when nothing is pending (cal_append_lone()) is
 * the lone event: it is min, and no bucket holds it, until it is popped
 * or another event comes (cal__unlone() then puts it in its bucket);
 * the ring has no window meanwhile (ring_end 0). A contended line's
 * service timer, set again by its own event, is such an event nearly
 * always: it skips the bucket's links and bitmap at its push and its pop
 * (72 CPUs on one counter: 22 instructions an event).
 *
 * The common cases of a push - the event alone in its bucket, or behind
 * the bucket's last - are inline (cal_append(), cal_push()); the rest is
 * out of line. Whether a pop involves the overflow is the run loop's one
 * compare with limit (the earlier of the overflow's due time and the
 * run's end), and nothing counts the ring's events: that the ring is
 * empty shows as a scan of the bitmap that finds no bit (a count's
 * upkeep at every push and pop would cost more than the scan's bound).
 *
 * With buckets narrower than 1 ns (pop_flat: past DENSER_PROCS, in
 * sim/engine.c), where a bucket holds a second event about half the
 * time, limit is 0 and every pop is cal_pop_far(), whose flat pop has no
 * branch on that (measurements: ring_pop_flat(), sim/calendar.c).
 *
 * Sequence numbers: 64 bits in a slot, 40 in an overflow key (about
 * 10^12 events, hours of simulation); when an overflow key needs one past
 * 2^40, the pending events are renumbered 0, 1, ... in their (time, seq)
 * order, which keeps every order.
 *
 * Interface: cal_init()/cal_destroy(); a slot per event, cal_slot_alloc()
 * and cal_slot_free(); cal_push() (a fresh seq), cal_append() (cal_push()
 * for its inline common case, or false), cal_push_key() (a reserved seq);
 * cal_remove(). The earliest event is c->min, at time c->clock.next; the
 * run loop takes it with cal_pop() while its time is before c->limit,
 * else with cal_pop_far() (c->limit is the earlier of the overflow's due
 * time and the run's end, cal_set_end(); 0 with pop_flat). The members
 * are the calendar's own: the engine reads clock, min, limit and end,
 * and writes nothing but through these calls.
 *
 * Layering: sim/ primitive; includes only sim/error.h. Included by
 * sim/engine.h for the inline fast paths.
 */
#ifndef SIM_CALENDAR_H
#define SIM_CALENDAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/error.h"

typedef uint64_t sim_time_t;

#define SIM_TIME_MAX UINT64_MAX

/*
 * struct sim_clock - the engine's clock, the calendar's first member and
 * so the first of the opaque struct sim_engine, so that sim_now(),
 * sim_horizon() and the common case of sim_proc_sync() are inline: the
 * model reads the clock several times per event, and a call costs more
 * than the read.
 * @now: the current time
 * @next: the earliest pending event's time, SIM_TIME_MAX if none (kept
 *	by the calendar whenever its earliest event changes)
 * @until: the horizon of the sim_engine_run() in progress
 */
struct sim_clock {
	sim_time_t now;
	sim_time_t next;
	sim_time_t until;
};

/* An event callback: runs at sim_now(). */
typedef void (*sim_event_fn)(void *arg, uint64_t data);

struct sim_timer;

/*
 * A bucket is 2^shift ps wide: 4096 ps with few processes, 1024 ps with
 * more than SIM_MANY_PROCS, whose events are denser (cal_reshift()).
 */
#define SIM__RING_SHIFT 12
#define SIM__RING_SHIFT_DENSE 10
#define SIM__RING 4096u /* buckets in the ring: a power of two */
#define SIM__RING_MASK (SIM__RING - 1)
#define SIM__RING_WORDS (SIM__RING / 64)
/*
 * What runs: fn(arg, data), or with fn NULL the wake-up of process arg.
 * @timer: the timer that owns the slot, NULL for sim_schedule()'s events
 * (the slot is freed when the event runs) and processes. The engine's:
 * the calendar only keeps it beside the event's key.
 */
struct sim_payload {
	sim_event_fn fn;
	void *arg;
	uint64_t data;
	struct sim_timer *timer;
};

/*
 * struct sim_slot - a pending event: its key (@time, @seq), its
 * neighbours in its bucket, a circular list in (time, seq) order (the
 * first's @prev is the last), and what it runs, in one host line: a
 * push writes the key and links, a pop reads them and the payload, and
 * finding the next event reads its time and then its payload (three
 * arrays were three host lines an event, each a miss past 72 processes).
 */
struct sim_slot {
	sim_time_t time;
	uint64_t seq;
	uint32_t next, prev;
	struct sim_payload run;
} __attribute__((aligned(64)));

struct sim_key;

struct sim_calendar {
	struct sim_clock clock; /* first: sim_now() is inline (engine.h) */
	uint32_t min; /* the earliest pending event's slot (cal__set_min()) */
	unsigned int shift; /* a bucket is 2^shift ps wide (cal_reshift()) */
	/*
	 * Buckets narrower than 1 ns: the run loop's pops all go out of line
	 * (limit is 0), to ring_pop_flat() (calendar.c).
	 */
	bool pop_flat;
	/*
	 * The bucket number past the ring's window: cur + SIM__RING, where
	 * cur, the ring's first, is the bucket of the last event run (a
	 * push compares its bucket with it, no subtraction: nothing pushed
	 * is before cur). 0 while the lone event is pending (cal__lone()):
	 * every bucket is outside the window then, and a pop sets it again.
	 */
	uint64_t ring_end;
	/* at least the bucket number of every event in the ring (cal_pop()) */
	uint64_t ring_last;
	/*
	 * The first time whose pop brings the overflow's top into the ring's
	 * window (the start of its bucket - SIM__RING + 1; past any run's
	 * times when the overflow is empty, as its top is then a sentinel),
	 * kept by heap_top().
	 */
	sim_time_t due;
	uint64_t seq; /* next sequence number */
	/*
	 * The run loop runs events before end: the horizon plus one, 0 once
	 * the run is stopped (cal_set_end()). limit is the earlier of end and
	 * due: one compare per event says whether the run ends or the
	 * overflow is involved, and mostly neither.
	 */
	sim_time_t end, limit;
	struct sim_slot *slots; /* by slot number, 64-byte aligned */
	uint32_t *free_slots; /* a stack of unused slots */
	size_t nr_free, cap;
	uint64_t bits[SIM__RING_WORDS]; /* bucket r not empty */
	uint32_t head[SIM__RING]; /* bucket r's first event, 0: empty */
	/* the overflow: a 4-ary min-heap */
	struct sim_key *heap; /* HEAP_PAD keys past the start of keys */
	struct sim_key *keys; /* the allocation, 64-byte aligned */
	size_t nr, heap_cap;
};

/* cal_init() - an empty calendar in zeroed @c; false: out of memory. */
bool cal_init(struct sim_calendar *c);
void cal_destroy(struct sim_calendar *c);

/* the out-of-line halves of the inline paths below */
void cal__slots_more(struct sim_calendar *c);
void cal__ring_insert(struct sim_calendar *c, uint32_t slot, uint32_t r,
		      bool newest);
void cal__push_far(struct sim_calendar *c, uint32_t slot, sim_time_t t);
void cal__refill(struct sim_calendar *c);
void cal__unlone(struct sim_calendar *c);

/*
 * cal_pop_far() - cal_pop() when @t is not before c->limit: every pop
 * with pop_flat.
 */
void cal_pop_far(struct sim_calendar *c, uint32_t slot, sim_time_t t);
/* cal_remove() - drop a pending event that is not running: rare. */
void cal_remove(struct sim_calendar *c, uint32_t slot);
/*
 * cal_push_key() - make the event in @slot pending at (@t, @seq), a seq
 * drawn earlier (cal_seq_reserve()), not the newest.
 */
void cal_push_key(struct sim_calendar *c, uint32_t slot, sim_time_t t,
		  uint64_t seq);
/* cal_reshift() - make the ring's buckets 2^@shift ps wide; no order moves. */
void cal_reshift(struct sim_calendar *c, unsigned int shift);
/* cal_set_end() - the run loop runs events before @end (0: stop). */
void cal_set_end(struct sim_calendar *c, sim_time_t end);

/* cal__lone() - the lone event is pending: the ring has no window. */
static inline bool cal__lone(const struct sim_calendar *c)
{
	return !c->ring_end;
}

/* cal_slot_free() - @slot, not pending, may be handed out again. */
static inline void cal_slot_free(struct sim_calendar *c, uint32_t slot)
{
	c->free_slots[c->nr_free++] = slot;
}

static inline bool cal__slot_before(const struct sim_slot *a,
				    const struct sim_slot *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/*
 * cal__set_min() - @slot is the earliest pending event (0: none). Its time is
 * kept in the clock (clock.next), where sim_proc_sync(), cal_push() and
 * the run loop read it with one load, not three.
 */
static inline void cal__set_min(struct sim_calendar *c, uint32_t slot)
{
	c->min = slot;
	c->clock.next = c->slots[slot].time;
}

/*
 * cal__set_none() - cal__set_min(@c, 0): nothing pending. Slot 0's time is
 * SIM_TIME_MAX, set once (cal_init()): stored as the constant, without a
 * load of it, so that GCC need not pair it with a store of the clock's
 * @now through an SSE register either (the lone event's pop).
 */
static inline void cal__set_none(struct sim_calendar *c)
{
	c->min = 0;
	c->clock.next = SIM_TIME_MAX;
}

static inline uint32_t cal_slot_alloc(struct sim_calendar *c)
{
	if (!c->nr_free)
		cal__slots_more(c);
	return c->free_slots[--c->nr_free];
}

static inline uint32_t cal__bucket_of(const struct sim_calendar *c,
				      sim_time_t t)
{
	return (uint32_t)(t >> c->shift) & SIM__RING_MASK;
}

/*
 * cal__in_ring() - the ring holds exactly the events of buckets cur + [0,
 * SIM__RING): of those before ring_end, as no event pending or pushed is
 * before now, whose bucket is cur's or later.
 */
static inline bool cal__in_ring(const struct sim_calendar *c, sim_time_t t)
{
	return (t >> c->shift) < c->ring_end;
}

/* cal__link_after() - put @slot after @p in @p's bucket. */
static inline void cal__link_after(struct sim_slot *l, uint32_t slot,
				   uint32_t p)
{
	l[slot].prev = p;
	l[slot].next = l[p].next;
	l[l[p].next].prev = slot;
	l[p].next = slot;
}

/*
 * cal__ring_add() - put @slot in its bucket, in order. A new event (@newest:
 * it has the newest seq, so only its time can put it before another)
 * mostly has a later time than the others in its bucket, so look at the
 * last first: usually it goes last at once, and a run of events due at
 * the same time costs no walk at all; else cal__ring_insert() walks back.
 */
static inline void cal__ring_add(struct sim_calendar *c, uint32_t slot,
				 bool newest)
{
	struct sim_slot *l = c->slots;
	const struct sim_slot *x = &l[slot], *last;
	uint32_t r = cal__bucket_of(c, x->time), h = c->head[r];

	if (!h) {
		if ((x->time >> c->shift) > c->ring_last)
			c->ring_last = x->time >> c->shift;
		l[slot].next = l[slot].prev = slot;
		c->head[r] = slot;
		c->bits[r / 64] |= 1ull << (r % 64);
		return;
	}
	last = &l[l[h].prev];
	if (newest ? x->time >= last->time : cal__slot_before(last, x))
		cal__link_after(l, slot, l[h].prev);
	else
		cal__ring_insert(c, slot, r, newest);
}

/*
 * cal_push() - make the event in @slot pending at @t. It has the newest
 * seq, so it is the new min exactly when its time is earlier than min's.
 * The common case, in the ring, calls nothing but in tail position (the
 * rest is cal__push_far(), and cal__ring_insert() in cal__ring_add()), so that its
 * callers save no registers for it: min is set before cal__ring_add() for
 * that (cal__ring_add() does not read it).
 */
static inline void cal_push(struct sim_calendar *c, uint32_t slot, sim_time_t t)
{
	if (cal__lone(c))
		cal__unlone(c);
	if (!cal__in_ring(c, t)) {
		cal__push_far(c, slot, t);
		return;
	}
	c->slots[slot].time = t;
	if (t < c->clock.next) {
		c->min = slot;
		c->clock.next = t;
	}
	c->slots[slot].seq = c->seq++;
	cal__ring_add(c, slot, true);
}

/*
 * cal__pop() - cal_pop(): take out min, the first of its bucket (or, the
 * ring empty, the overflow's top); the ring moves on to its bucket,
 * overflow events the window now reaches enter the ring, and min is found
 * again: the bucket's next, if it has one (nothing else is earlier: the
 * overflow events are later than the whole ring), else the first of the
 * next non-empty bucket. The common cases work on locals (the bucket, its
 * bitmap word): the first non-empty bucket after a bucket just emptied
 * is mostly in the same word, which is then still in a register. The
 * caller, the run loop, has checked that the overflow is not involved: @t
 * is before due (when min is the overflow's top, @t is not: due is in an
 * earlier bucket). @shift is c->shift, which the caller knows as a
 * constant (the run loop's, for each width: a load and a variable shift
 * an event fewer).
 */
static inline __attribute__((always_inline)) void
cal__pop(struct sim_calendar *c, uint32_t slot, sim_time_t t,
	 unsigned int shift)
{
	struct sim_slot *l = c->slots;
	uint64_t k = t >> shift, word, m, b;
	/*
	 * r and w index arrays: at 64 bits GCC extends neither to an
	 * address (at 32, a move each, 2 instructions a pop)
	 */
	uint64_t r = k & SIM__RING_MASK, w = r / 64;
	uint32_t n, i;

	c->ring_end = k + SIM__RING;
	/*
	 * Not alone in its bucket; or the lone event, whose links point at
	 * slot 0 (cal_append_lone()): then this unlinks it from slot 0's
	 * links, which nothing reads, and min is slot 0 (none pending).
	 */
	n = l[slot].next;
	/*
	 * Mostly alone (256 CPUs on 16 counters: 97% of the pops): told so,
	 * GCC lays that case out straight, not behind a jump and back.
	 */
	if (__builtin_expect(n != slot, 0)) {
		l[n].prev = l[slot].prev;
		l[l[slot].prev].next = n;
		c->head[r] = n;
		cal__set_min(c, n);
		return;
	}
	/* the only one of its bucket */
	c->head[r] = 0;
	b = 1ull << (r % 64);
	word = c->bits[w] ^ b; /* its bit, which is set, cleared */
	c->bits[w] = word;
	m = word & -b; /* the later buckets of the word: -b is b and above */
	/*
	 * Words in bucket order, wrapping round to r's again; none has a
	 * bit: the ring is empty, min is the overflow's top, if any. (A
	 * count of the ring's events would say so at once, but cost more
	 * to keep than this loop's count.) The next word, which mostly has
	 * one, is read before the loop and its count.
	 */
	if (!m) {
		w = (w + 1) % SIM__RING_WORDS;
		m = c->bits[w];
	}
	if (!m) {
		/*
		 * Nothing later in the ring at all (it was the last bucket):
		 * no scan (a lone event, as a line's service timer under
		 * announced arrivals, comes and goes every event). Tested
		 * only past the next word, where the scan would begin: a
		 * bit there answers it too.
		 */
		if (k >= c->ring_last) {
			if (c->nr)
				cal__refill(c);
			else
				cal__set_none(c);
			return;
		}
		for (i = 1; !m; i++) {
			if (i == SIM__RING_WORDS) {
				cal__refill(c);
				return;
			}
			w = (w + 1) % SIM__RING_WORDS;
			m = c->bits[w];
		}
	}
	cal__set_min(c, c->head[w * 64 + (uint32_t)__builtin_ctzll(m)]);
}

/* cal_pop() - cal__pop() at the calendar's width, read (tests) */
static inline void cal_pop(struct sim_calendar *c, uint32_t slot, sim_time_t t)
{
	cal__pop(c, slot, t, c->shift);
}

/*
 * cal_append() - make the event in @slot pending at @t, when that is a
 * common case: @t in the ring's window (cal__in_ring()), and its bucket
 * empty, or its bucket's last event not later. The event goes last in
 * its bucket (it has the newest seq, so that is its place in (time, seq)
 * order), and, alone there, it is min if its time is earlier than min's
 * (behind another, it is not). Returns false, having done nothing,
 * otherwise: the caller's out-of-line path does it (cal_push()).
 * Exactly cal_push()'s work in these cases.
 */
static inline __attribute__((always_inline)) bool
cal__append(struct sim_calendar *c, uint32_t slot, sim_time_t t, bool later)
{
	uint64_t k = t >> c->shift;
	uint32_t r = (uint32_t)k & SIM__RING_MASK, h, last;
	struct sim_slot *l = c->slots;

	if (k >= c->ring_end)
		return false;
	h = c->head[r];
	/*
	 * Mostly empty (256 CPUs on 16 counters: 98% of the pushes): told
	 * so, GCC lays that case out straight, not behind a jump and back.
	 */
	if (__builtin_expect(!h, 1)) {
		if (k > c->ring_last)
			c->ring_last = k;
		if (!later && t < c->clock.next) {
			c->min = slot;
			c->clock.next = t;
		}
		/*
		 * The head's store between the two links: adjacent, GCC
		 * pairs them in a vector register, an instruction or two
		 * more than two stores (the same below, l[h].prev's between).
		 */
		l[slot].next = slot;
		c->head[r] = slot;
		l[slot].prev = slot;
		c->bits[r / 64] |= 1ull << (r % 64);
	} else {
		last = l[h].prev;
		if (t < l[last].time)
			return false;
		l[slot].prev = last;
		l[h].prev = slot;
		l[slot].next = h;
		l[last].next = slot;
	}
	l[slot].time = t;
	l[slot].seq = c->seq++;
	return true;
}

static inline bool cal_append(struct sim_calendar *c, uint32_t slot,
			      sim_time_t t)
{
	return cal__append(c, slot, t, false);
}

/*
 * cal_append_later() - cal_append() of an event whose caller knows @t is
 * not before min's time (clock.next): it is not the new min, and the
 * test that says so is left out (a process's wake-up to yield to the
 * events due before it, sim_proc_sync_ahead()).
 */
static inline bool cal_append_later(struct sim_calendar *c, uint32_t slot,
				    sim_time_t t)
{
	return cal__append(c, slot, t, true);
}

/*
 * cal_append_lone() - cal_append(), but with nothing pending the event is
 * the lone one, in no bucket: for a timer that its own event sets again
 * (a contended line's service), which is mostly the one event pending
 * then. Not for every push: where another event mostly follows, the
 * lone one would only move to its bucket then (cal__unlone()).
 */
static inline __attribute__((always_inline)) bool
cal_append_lone(struct sim_calendar *c, uint32_t slot, sim_time_t t)
{
	struct sim_slot *l = c->slots;

	if (c->min)
		return cal_append(c, slot, t);
	/*
	 * No window while it is pending: cal_append() finds every time
	 * outside it, and its callers' cal_push() moves the lone event to
	 * its bucket first (cal__unlone(), which sets the window again).
	 */
	c->ring_end = 0;
	c->min = slot;
	c->clock.next = t;
	/* its pop takes it out of slot 0's "bucket": cal_pop() */
	l[slot].next = 0;
	l[slot].prev = 0;
	l[slot].time = t;
	l[slot].seq = c->seq++;
	return true;
}

/*
 * cal_pop_lone() - the pop of the lone event when it is in @slot and
 * before c->end: true, with its time in *@t; else false and nothing
 * done. What cal_pop() and ring_pop_flat() do to it, but for the links
 * of slot 0 and of a bucket, which are 0 already and stay so. Against
 * end, not limit: with the lone event pending the overflow is empty
 * (its due past any time), and limit is 0 with pop_flat.
 */
static inline bool cal_pop_lone(struct sim_calendar *c, uint32_t slot,
				sim_time_t *t)
{
	if (!cal__lone(c) || c->min != slot || c->clock.next >= c->end)
		return false;
	*t = c->clock.next;
	c->ring_end = (*t >> c->shift) + SIM__RING;
	cal__set_none(c);
	return true;
}

/* half of sim/calendar.c's SEQ_LIMIT, where it renumbers */
#define SIM__SEQ_RESERVE_LIMIT (1ull << 39)

/* cal_seq_reserve() - sim_seq_reserve() (engine.h) */
static inline bool cal_seq_reserve(struct sim_calendar *c, uint64_t *seq)
{
	if (c->seq >= SIM__SEQ_RESERVE_LIMIT)
		return false;
	*seq = c->seq++;
	return true;
}

#endif /* SIM_CALENDAR_H */
