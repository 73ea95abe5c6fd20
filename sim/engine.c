// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/engine.c - the pending-event set, run loop and coroutine processes.
 *
 * Every pending event has a key (time, seq): seq is a counter drawn by
 * every scheduling, so keys are unique and the run order (time, seq) is
 * total. An event lives in a slot (struct sim_slot, one host line): its
 * key, its links in its bucket and what it runs; slots are reused, so
 * there is no allocation per event. Slot 0 is a sentinel, later than any
 * event (time SIM_TIME_MAX).
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
 * The width is a run's choice (Brown's calendar resizes its buckets to
 * the spacing of the events; here the number of processes stands for
 * it): 4.1 ns, a window of 16.8 us, with up to SIM_MANY_PROCS
 * processes; 1.0 ns, a window of 4.2 us, with more, whose events are
 * denser. With buckets that hold an event about half the time, whether a
 * bucket holds another is a coin toss for the host's branch predictor at
 * every push and pop: at 72 CPUs on 16 contended counters (an event
 * every 6 ns) the narrower buckets run 11% more events a second, and the
 * memcg experiments 2-4%; at 8 CPUs (an event every 80 ns) they cost
 * 9%, the bit scans longer (doc/speed.md). sim_engine_run() sets the width
 * (ring_reshift()) before it runs anything; the keys, and so the order,
 * do not depend on it.
 *
 * The earliest event, min, is always known, and its time is in the clock
 * (clock.next, set_min()): sim_proc_sync() and the run loop read it, a
 * scheduling compares itself with it (a new event has the newest seq, so
 * it is earlier only if its time is), and after each event it is found
 * again.
 *
 * A process's wake-up uses a slot of its own (fn NULL: wake the process
 * arg): the run loop calls the process directly. A process waits for one
 * thing at a time: a second wake-up pending is a model bug. A timer
 * (struct sim_timer) has a slot of its own too, its payload written once:
 * setting it is ev_push() alone, with no slot to allocate and free and
 * no payload to store per event.
 *
 * The common cases of a timer's setting and of a wake-up at
 * sim_proc_sync() - the event alone in its bucket, or behind the
 * bucket's last - are inline in the caller (sim__ev_append(), engine.h,
 * where struct sim_engine is defined for it); ev_push() does the rest.
 * Whether a pop involves the overflow is the run loop's one compare with
 * the horizon (limit, the earlier of the two), and nothing
 * counts the ring's events: that the ring is empty shows as a scan of the
 * bitmap that finds no bit (doc/speed.md: a count's upkeep at every push and
 * pop cost more than the scan's bound).
 *
 * Sequence numbers: 64 bits in a slot, 40 in an overflow key (about
 * 10^12 events, hours of simulation); when an overflow key needs one past
 * 2^40, the pending events are renumbered 0, 1, ... in their (time, seq)
 * order, which keeps every order.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/engine.h"
#include "sim/error.h"

#define PROC_COLOURS 64 /* stack offsets, in host lines: sim_proc_init() */
#define SLOT_BITS 24 /* pending events and processes: at most 2^24 */
#define SLOT_MASK ((1ull << SLOT_BITS) - 1)
#define SEQ_LIMIT (1ull << (64 - SLOT_BITS))
#define RING SIM__RING /* buckets in the ring: a power of two */
#define RING_MASK (RING - 1)
#define RING_WORDS SIM__RING_WORDS
#define HEAP_D 4
#define HEAP_PAD 3 /* keys before the root: sibling groups 64-byte aligned */
/* the progress countdown without progress calls: never reached, in effect */
#define PROGRESS_NONE (1ull << 62)

/* struct sim_proc's hot fields, @owner the last, fit one host line */
_Static_assert(offsetof(struct sim_proc, id) <= 64,
	       "struct sim_proc: the hot fields are not in 64 bytes");

/* struct sim_key - an overflow event: (time, seq << 24 | slot) */
struct sim_key {
	sim_time_t time;
	uint64_t seqslot;
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

static inline bool slot_before(const struct sim_slot *a,
			       const struct sim_slot *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/*
 * set_min() - @slot is the earliest pending event (0: none). Its time is
 * kept in the clock (clock.next), where sim_proc_sync(), ev_push() and
 * the run loop read it with one load, not three.
 */
static inline void set_min(struct sim_engine *e, uint32_t slot)
{
	e->min = slot;
	e->clock.next = e->slots[slot].time;
}

/* ---- slots ---- */

static bool slots_grow(struct sim_engine *e, size_t cap)
{
	struct sim_slot *slots;
	uint32_t *free_slots;
	size_t i;

	if (cap > SLOT_MASK + 1)
		return false;
	/* aligned: realloc() keeps no alignment */
	slots = aligned_alloc(64, cap * sizeof(*slots));
	if (!slots)
		return false;
	if (e->slots)
		memcpy(slots, e->slots, e->cap * sizeof(*slots));
	free(e->slots);
	e->slots = slots;
	free_slots = realloc(e->free_slots, cap * sizeof(*free_slots));
	if (!free_slots)
		return false;
	e->free_slots = free_slots;
	/* new slots, pushed so that the lowest is handed out first; not 0 */
	for (i = cap; i > e->cap && i > 1; i--)
		e->free_slots[e->nr_free++] = (uint32_t)(i - 1);
	e->cap = cap;
	return true;
}

static void __attribute__((noinline)) slots_more(struct sim_engine *e)
{
	/* out of memory, or 2^24 events pending: a clean error */
	SIM_OOM_ON(!slots_grow(e, 2 * e->cap));
}

static inline uint32_t slot_alloc(struct sim_engine *e)
{
	if (!e->nr_free)
		slots_more(e);
	return e->free_slots[--e->nr_free];
}

/* ---- the overflow heap ---- */

/* set_limit() - end or due changed: the run loop's limit is the earlier. */
static inline void set_limit(struct sim_engine *e)
{
	e->limit = e->end < e->due ? e->end : e->due;
}

/* heap_top() - the overflow's top changed: compute due again. */
static inline void heap_top(struct sim_engine *e)
{
	e->due = ((e->heap[0].time >> e->shift) - (RING - 1)) << e->shift;
	set_limit(e);
}

/*
 * heap_grow() - room for @cap events: the keys (with the padding before
 * the root and HEAP_D sentinels past the last).
 */
static bool heap_grow(struct sim_engine *e, size_t cap)
{
	size_t nkeys = HEAP_PAD + cap + HEAP_D, bytes, i;
	struct sim_key *keys;

	bytes = (nkeys * sizeof(*keys) + 63) & ~(size_t)63;
	keys = aligned_alloc(64, bytes);
	if (!keys)
		return false;
	for (i = 0; i < nkeys; i++)
		keys[i] = key_sentinel;
	if (e->keys)
		memcpy(keys + HEAP_PAD, e->heap, e->nr * sizeof(*keys));
	free(e->keys);
	e->keys = keys;
	e->heap = keys + HEAP_PAD;
	e->heap_cap = cap;
	heap_top(e);
	return true;
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

static void heap_push(struct sim_engine *e, sim_time_t t, uint64_t seqslot)
{
	if (e->nr == e->heap_cap)
		SIM_OOM_ON(!heap_grow(e, 2 * e->heap_cap));
	e->heap[e->nr].time = t;
	e->heap[e->nr].seqslot = seqslot;
	heap_sift_up(e, e->nr++);
	heap_top(e);
}

/* heap_del() - drop the key at @i: the last takes its place. */
static void heap_del(struct sim_engine *e, size_t i)
{
	struct sim_key last = e->heap[--e->nr];

	e->heap[e->nr] = key_sentinel;
	if (i != e->nr) {
		e->heap[i] = last;
		heap_sift_down(e, i);
		heap_sift_up(e, i);
	}
	heap_top(e);
}

/* ---- the ring ---- */

static inline uint32_t bucket_of(const struct sim_engine *e, sim_time_t t)
{
	return (uint32_t)(t >> e->shift) & RING_MASK;
}

/* in_ring() - the ring holds exactly the events of buckets cur + [0, RING) */
static inline bool in_ring(const struct sim_engine *e, sim_time_t t)
{
	return (t >> e->shift) - e->cur < RING;
}

/* link_after() - put @slot after @p in @p's bucket. */
static inline void link_after(struct sim_slot *l, uint32_t slot, uint32_t p)
{
	l[slot].prev = p;
	l[slot].next = l[p].next;
	l[l[p].next].prev = slot;
	l[p].next = slot;
}

/*
 * ring_insert() - ring_add() when @slot goes before the last of its
 * non-empty bucket @r: walk back from the last. A new event earlier than
 * the bucket's first (as often as not, where buckets hold several) goes
 * first without the walk. Out of line, so that the common cases of
 * ring_add() save no registers for the loop.
 */
static void __attribute__((noinline))
ring_insert(struct sim_engine *e, uint32_t slot, uint32_t r, bool newest)
{
	struct sim_slot *l = e->slots;
	const struct sim_slot *x = &l[slot];
	uint32_t h = e->head[r], p;

	if (newest && x->time < l[h].time) {
		e->head[r] = slot;
		link_after(l, slot, l[h].prev);
		return;
	}
	for (p = l[h].prev;
	     newest ? x->time < l[p].time : slot_before(x, &l[p]);
	     p = l[p].prev) {
		if (p == h) { /* earliest of the bucket: first */
			e->head[r] = slot;
			p = l[h].prev;
			break;
		}
	}
	link_after(l, slot, p);
}

/*
 * ring_add() - put @slot in its bucket, in order. A new event (@newest:
 * it has the newest seq, so only its time can put it before another)
 * mostly has a later time than the others in its bucket, so look at the
 * last first: usually it goes last at once, and a run of events due at
 * the same time costs no walk at all; else ring_insert() walks back.
 */
static inline void ring_add(struct sim_engine *e, uint32_t slot, bool newest)
{
	struct sim_slot *l = e->slots;
	const struct sim_slot *x = &l[slot], *last;
	uint32_t r = bucket_of(e, x->time), h = e->head[r];

	if (!h) {
		if ((x->time >> e->shift) > e->ring_last)
			e->ring_last = x->time >> e->shift;
		l[slot].next = l[slot].prev = slot;
		e->head[r] = slot;
		e->bits[r / 64] |= 1ull << (r % 64);
		return;
	}
	last = &l[l[h].prev];
	if (newest ? x->time >= last->time : slot_before(last, x))
		link_after(l, slot, l[h].prev);
	else
		ring_insert(e, slot, r, newest);
}

/* ring_del() - take @slot out of its bucket. */
static inline void ring_del(struct sim_engine *e, uint32_t slot)
{
	struct sim_slot *l = e->slots;
	uint32_t r = bucket_of(e, l[slot].time), n = l[slot].next;

	if (n == slot) { /* the only one */
		e->head[r] = 0;
		e->bits[r / 64] &= ~(1ull << (r % 64));
		return;
	}
	l[n].prev = l[slot].prev;
	l[l[slot].prev].next = n;
	if (e->head[r] == slot)
		e->head[r] = n;
}

/*
 * ring_first() - the first non-empty bucket from the ring's start, RING
 * if the ring is empty.
 */
static inline uint32_t ring_first(const struct sim_engine *e)
{
	uint32_t r = (uint32_t)e->cur & RING_MASK, w = r / 64, i;
	uint64_t m = e->bits[w] & (~0ull << (r % 64));

	/* words in bucket order from cur, wrapping round to cur's again */
	for (i = 0; !m; i++) {
		if (i == RING_WORDS)
			return RING;
		w = (w + 1) % RING_WORDS;
		m = e->bits[w];
	}
	return w * 64 + (uint32_t)__builtin_ctzll(m);
}

/* ---- the pending set ---- */

/*
 * find_min() - the earliest pending event: the first of the first
 * non-empty bucket; when the ring is empty the overflow's top; 0 when
 * nothing is pending.
 */
static inline uint32_t find_min(struct sim_engine *e)
{
	uint32_t r = ring_first(e);

	if (r == RING)
		return e->nr ? (uint32_t)(e->heap[0].seqslot & SLOT_MASK) : 0;
	return e->head[r];
}

static void seq_renumber(struct sim_engine *e);

static inline uint64_t seq_draw(struct sim_engine *e)
{
	if (e->seq >= SEQ_LIMIT)
		seq_renumber(e);
	return e->seq++;
}

/*
 * ev_push_far() - ev_push() past the ring's window: an overflow key, whose
 * seq must fit its 40 bits.
 */
static void __attribute__((noinline))
ev_push_far(struct sim_engine *e, uint32_t slot, sim_time_t t)
{
	bool earliest = t < e->clock.next;

	e->slots[slot].time = t;
	e->slots[slot].seq = seq_draw(e);
	if (in_ring(e, t))
		ring_add(e, slot, true);
	else
		heap_push(e, t, e->slots[slot].seq << SLOT_BITS | slot);
	if (earliest)
		set_min(e, slot);
}

/*
 * ev_push() - make the event in @slot pending at @t. It has the newest
 * seq, so it is the new min exactly when its time is earlier than min's.
 * The common case, in the ring, calls nothing but in tail position (the
 * rest is ev_push_far(), and ring_insert() in ring_add()), so that its
 * callers save no registers for it: min is set before ring_add() for
 * that (ring_add() does not read it).
 */
static inline void ev_push(struct sim_engine *e, uint32_t slot, sim_time_t t)
{
	if (!in_ring(e, t)) {
		ev_push_far(e, slot, t);
		return;
	}
	e->slots[slot].time = t;
	if (t < e->clock.next) {
		e->min = slot;
		e->clock.next = t;
	}
	e->slots[slot].seq = e->seq++;
	ring_add(e, slot, true);
}

/* overflow_due() - the window reaches the overflow's top. */
static inline bool overflow_due(const struct sim_engine *e)
{
	return e->nr && in_ring(e, e->heap[0].time);
}

/*
 * ev_refill() - after a pop that moved the window onto overflow events
 * (or took the overflow's top, the ring empty): they enter the ring, and
 * min is found again. Out of line: rare in a busy run.
 */
static void __attribute__((noinline)) ev_refill(struct sim_engine *e)
{
	while (overflow_due(e)) {
		uint32_t s = (uint32_t)(e->heap[0].seqslot & SLOT_MASK);

		heap_del(e, 0);
		ring_add(e, s, false);
	}
	set_min(e, find_min(e));
}

/*
 * ev_pop_far() - ev_pop() when the overflow's top is due (min's time @t
 * is after due): min is in the ring, or, the ring empty, it is the
 * overflow's top. Out of line: rare in a busy run.
 */
static void __attribute__((noinline))
ev_pop_far(struct sim_engine *e, uint32_t slot, sim_time_t t)
{
	e->cur = t >> e->shift;
	if (e->nr && (e->heap[0].seqslot & SLOT_MASK) == slot)
		heap_del(e, 0);
	else
		ring_del(e, slot);
	ev_refill(e);
}

/*
 * ev_pop() - take out min, the first of its bucket (or, the ring empty,
 * the overflow's top); the ring moves on to its bucket, overflow events
 * the window now reaches enter the ring, and min is found again: the
 * bucket's next, if it has one (nothing else is earlier: the overflow
 * events are later than the whole ring), else the first of the next
 * non-empty bucket. The common cases work on locals (the bucket, its
 * bitmap word): the first non-empty bucket after a bucket just emptied
 * is mostly in the same word, which is then still in a register. The
 * caller, the run loop, has checked that the overflow is not involved: @t
 * is before due (when min is the overflow's top, @t is not: due is in an
 * earlier bucket).
 */
static inline void ev_pop(struct sim_engine *e, uint32_t slot, sim_time_t t)
{
	struct sim_slot *l = e->slots;
	uint64_t k = t >> e->shift, word, m, b;
	uint32_t r = (uint32_t)k & RING_MASK, w = r / 64, n, i;

	e->cur = k;
	n = l[slot].next;
	if (n != slot) {
		l[n].prev = l[slot].prev;
		l[l[slot].prev].next = n;
		e->head[r] = n;
		set_min(e, n);
		return;
	}
	/* the only one of its bucket */
	e->head[r] = 0;
	b = 1ull << (r % 64);
	word = e->bits[w] ^ b; /* its bit, which is set, cleared */
	e->bits[w] = word;
	m = word & -b; /* the later buckets of the word: -b is b and above */
	/*
	 * Words in bucket order, wrapping round to r's again; none has a
	 * bit: the ring is empty, min is the overflow's top, if any. (A
	 * count of the ring's events would say so at once, but cost more
	 * to keep than this loop's count.) The next word, which mostly has
	 * one, is read before the loop and its count.
	 */
	if (!m) {
		/*
		 * Nothing later in the ring at all (it was the last bucket):
		 * no scan (a lone event, as a line's service timer under
		 * announced arrivals, comes and goes every event).
		 */
		if (k >= e->ring_last) {
			if (e->nr)
				ev_refill(e);
			else
				set_min(e, 0);
			return;
		}
		w = (w + 1) % RING_WORDS;
		m = e->bits[w];
		for (i = 1; !m; i++) {
			if (i == RING_WORDS) {
				ev_refill(e);
				return;
			}
			w = (w + 1) % RING_WORDS;
			m = e->bits[w];
		}
	}
	set_min(e, e->head[w * 64 + (uint32_t)__builtin_ctzll(m)]);
}

/* ev_remove() - drop a pending event that is not running: rare. */
static void ev_remove(struct sim_engine *e, uint32_t slot)
{
	size_t i;

	if (in_ring(e, e->slots[slot].time)) {
		ring_del(e, slot);
	} else {
		for (i = 0; (e->heap[i].seqslot & SLOT_MASK) != slot; i++)
			;
		heap_del(e, i);
	}
	if (e->min == slot)
		set_min(e, find_min(e));
}

/* struct seq_rank - a pending event, for seq_renumber()'s sort */
struct seq_rank {
	sim_time_t time;
	uint64_t seq;
	uint32_t slot;
};

static int rank_cmp(const void *a, const void *b)
{
	const struct seq_rank *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq ? 1 : 0;
}

/*
 * seq_renumber() - the sequence numbers ran out for the overflow's keys:
 * give the pending events 0, 1, ... in their (time, seq) order. Nothing
 * moves: the ring depends on times only, and the keys keep the heap's
 * order. (The ring's events read their seqs from their slots, 64 bits: only
 * the overflow's keys have 40, so only ev_push_far() checks the limit.)
 */
static void seq_renumber(struct sim_engine *e)
{
	/* at most every slot is pending */
	struct seq_rank *sorted = malloc(e->cap * sizeof(*sorted));
	size_t nr = 0, i;
	uint32_t r, s;

	SIM_OOM_ON(!sorted);
	for (r = 0; r < RING; r++) {
		for (s = e->head[r]; s; s = e->slots[s].next) {
			sorted[nr++] = (struct seq_rank){ e->slots[s].time,
							  e->slots[s].seq, s };
			if (e->slots[s].next == e->head[r])
				break;
		}
	}
	for (i = 0; i < e->nr; i++) {
		s = (uint32_t)(e->heap[i].seqslot & SLOT_MASK);
		sorted[nr++] = (struct seq_rank){ e->slots[s].time,
						  e->slots[s].seq, s };
	}
	qsort(sorted, nr, sizeof(*sorted), rank_cmp);
	for (i = 0; i < nr; i++)
		e->slots[sorted[i].slot].seq = i;
	for (i = 0; i < e->nr; i++) {
		s = (uint32_t)(e->heap[i].seqslot & SLOT_MASK);
		e->heap[i].seqslot = e->slots[s].seq << SLOT_BITS | s;
	}
	free(sorted);
	e->seq = nr;
}

/*
 * ring_reshift() - make the ring's buckets 2^@shift ps wide. The pending
 * events are taken out of the ring and the overflow and put back where
 * the new width places them (the ring holds exactly the events of its
 * window, which ev_remove() relies on); their keys do not change, so
 * neither does any order. cur's bucket starts no later than before:
 * nothing pending is earlier. Rare: when the number of processes crosses
 * SIM_MANY_PROCS, at the start of a run (sim_engine_run()).
 */
static void ring_reshift(struct sim_engine *e, unsigned int shift)
{
	uint32_t *slots = malloc(e->cap * sizeof(*slots)), r, s;
	size_t nr = 0, i;

	SIM_OOM_ON(!slots);
	/* an overflow key holds 40 bits of seq; the ring's may be past it */
	if (e->seq >= SEQ_LIMIT)
		seq_renumber(e);
	for (r = 0; r < RING; r++) {
		for (s = e->head[r]; s; s = e->slots[s].next) {
			slots[nr++] = s;
			if (e->slots[s].next == e->head[r])
				break;
		}
		e->head[r] = 0;
	}
	memset(e->bits, 0, sizeof(e->bits));
	while (e->nr) {
		slots[nr++] = (uint32_t)(e->heap[0].seqslot & SLOT_MASK);
		heap_del(e, 0);
	}
	e->cur = (e->cur << e->shift) >> shift;
	e->ring_last = e->cur;
	e->shift = shift;
	for (i = 0; i < nr; i++) {
		s = slots[i];
		if (in_ring(e, e->slots[s].time))
			ring_add(e, s, false);
		else
			heap_push(e, e->slots[s].time,
				  e->slots[s].seq << SLOT_BITS | s);
	}
	free(slots);
	heap_top(e);
	set_min(e, find_min(e));
}

_Static_assert(SIM__SEQ_RESERVE_LIMIT == SEQ_LIMIT / 2,
	       "sim_seq_reserve() stops at half the renumbering limit");

void sim__engine_set_seq(struct sim_engine *e, uint64_t seq)
{
	e->seq = seq;
}

unsigned int sim__engine_shift(const struct sim_engine *e)
{
	return e->shift;
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
	if (!slots_grow(e, 1024) || !heap_grow(e, 64)) {
		sim_engine_free(e);
		return NULL;
	}
	e->shift = SIM__RING_SHIFT;
	/* slot 0: "none", later than any event; no process (next_prefetch()) */
	e->slots[0].time = SIM_TIME_MAX;
	e->slots[0].seq = UINT64_MAX;
	e->slots[0].run = (struct sim_payload){ .fn = slot0_run };
	e->clock.next = SIM_TIME_MAX;
	e->left = e->tick_at = PROGRESS_NONE;
	return e;
}

void sim_engine_free(struct sim_engine *e)
{
	if (!e)
		return;
	free(e->slots);
	free(e->free_slots);
	free(e->keys);
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
	SIM_BUG_ON(t < e->clock.now || t == SIM_TIME_MAX || !fn);
	slot = slot_alloc(e);
	e->slots[slot].run = (struct sim_payload){ fn, arg, data, NULL };
	ev_push(e, slot, t);
}

/* ---- timers ---- */

void sim_timer_init(struct sim_engine *e, struct sim_timer *t, sim_event_fn fn,
		    void *arg, uint64_t data)
{
	SIM_BUG_ON(!fn);
	t->engine = e;
	t->pending = false;
	t->slot = slot_alloc(e);
	e->slots[t->slot].run = (struct sim_payload){ fn, arg, data, t };
}

void sim_timer_cancel(struct sim_timer *t)
{
	if (t->pending)
		ev_remove(t->engine, t->slot);
	t->pending = false;
}

void sim_timer_destroy(struct sim_timer *t)
{
	struct sim_engine *e = t->engine;

	if (!e)
		return;
	sim_timer_cancel(t);
	e->slots[t->slot].run.timer = NULL;
	e->free_slots[e->nr_free++] = t->slot;
	t->engine = NULL;
}

/*
 * ev_push_key() - make the event in @slot pending at (@t, @seq), a seq
 * drawn earlier (sim_seq_reserve()): not the newest, so the min test
 * compares whole keys, and the ring places it by walking its bucket.
 */
static void ev_push_key(struct sim_engine *e, uint32_t slot, sim_time_t t,
			uint64_t seq)
{
	e->slots[slot].time = t;
	e->slots[slot].seq = seq;
	if (in_ring(e, t))
		ring_add(e, slot, false);
	else
		heap_push(e, t, seq << SLOT_BITS | slot); /* < 2^39: fits */
	if (slot_before(&e->slots[slot], &e->slots[e->min]))
		set_min(e, slot);
}

void sim_timer_set_key(struct sim_timer *t, sim_time_t when, uint64_t seq)
{
	struct sim_engine *e = t->engine;

	SIM_BUG_ON(seq >= e->seq || when == SIM_TIME_MAX ||
		   !sim_key_before(e->clock.now, sim_event_seq(e), when, seq));
	if (t->pending)
		ev_remove(e, t->slot);
	t->pending = true;
	ev_push_key(e, t->slot, when, seq);
}

/* timer_move() - sim_timer_set() of a pending timer: rare. */
static void __attribute__((noinline))
timer_move(struct sim_timer *t, sim_time_t when)
{
	ev_remove(t->engine, t->slot);
	t->pending = false;
	sim__timer_set(t, when);
}

void sim__timer_set(struct sim_timer *t, sim_time_t when)
{
	struct sim_engine *e = t->engine;

	/* SIM_TIME_MAX is slot 0's: "never" */
	SIM_BUG_ON(when < e->clock.now || when == SIM_TIME_MAX);
	if (t->pending) {
		timer_move(t, when);
		return;
	}
	t->pending = true;
	ev_push(e, t->slot, when);
}

/* ---- the run loop ---- */

void sim_engine_stop(struct sim_engine *e)
{
	e->stop = true;
	e->end = 0;
	set_limit(e);
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

/* progress_tick() - the countdown reached 0: sim_events() is tick_at. */
static void __attribute__((noinline))
progress_tick(struct sim_engine *e, sim_time_t t)
{
	e->left = e->progress_every ? e->progress_every : PROGRESS_NONE;
	e->tick_at += e->left;
	if (e->progress_every)
		e->progress_fn(e->progress_arg, t);
}

/*
 * next_prefetch() - a hint: the event after the one starting now is,
 * mostly, the one now earliest (e->min; the running event may schedule an
 * earlier one). If it wakes a process, start loading the process's state,
 * so that it is in the host's L1 when its run begins: with tens of
 * processes it is not, and the run began with a chain of misses, its
 * process, frame and task one after the other (doc/speed.md: 72 CPUs on 256
 * idle counters, +11% atomics per second). No effect on results. Slot 0
 * (none pending) is not a process's: it has a function.
 */
SIM_PREFETCH_FN void next_prefetch(const struct sim_engine *e)
{
	/*
	 * Not a process: its pointers point at itself, a host line in the
	 * L1, not at NULL. A prefetch of an address that no page maps is
	 * not free: the host walks the page tables for it, and caches no
	 * failed walk, so that on a virtual machine (nested page tables)
	 * every such prefetch costs a walk of both (doc/speed.md: two NULL
	 * prefetches per timer event were a third of the run's time at
	 * N=72 K=1 on a Zen 1 KVM guest).
	 */
	static const struct sim_proc none = {
		.frame = (struct co_frame *)(uintptr_t)&none,
		.owner = (void *)(uintptr_t)&none,
	};
	const struct sim_payload *pl = &e->slots[e->min].run;
	/* all ones if a process's, else 0 */
	uintptr_t proc = -(uintptr_t)(pl->fn == NULL);
	const struct sim_proc *p = (const void *)(((uintptr_t)pl->arg & proc) |
						  ((uintptr_t)&none & ~proc));

	/*
	 * Chosen by a mask, not a branch: whether the next event wakes a
	 * process or runs a function is a coin toss for the host's branch
	 * predictor at N=72 K=16, and the run loop asks it again at once
	 * (doc/speed.md: cachegrind's branch model counted 0.7 mispredictions
	 * an atomic on each test).
	 */
	SIM_PREFETCH_W(p);
	sim_proc_prefetch(p);
}

/*
 * run_loop() - sim_engine_run()'s loop, with @prefetch (sim_engine_many_procs()) a
 * constant at each of its two calls: the test is made once a run, not at
 * every event (doc/speed.md).
 */
static inline __attribute__((always_inline)) void run_loop(struct sim_engine *e,
							   bool prefetch)
{
	for (;;) {
		uint32_t slot = e->min;
		sim_time_t t = e->clock.next;
		const struct sim_payload *pl = &e->slots[slot].run;

		if (t < e->limit) {
			ev_pop(e, slot, t);
		} else {
			/* the run ends, or the overflow is involved */
			if (t >= e->end)
				break;
			ev_pop_far(e, slot, t);
		}
		e->clock.now = t;
		e->running = slot;
		if (prefetch)
			next_prefetch(e);
		if (!--e->left)
			progress_tick(e, t);
		if (!pl->fn) {
			/* a process's wake-up: its slot stays its own */
			struct sim_proc *p = pl->arg;

			p->pending = false;
			if (p->now < t)
				p->now = t;
			sim__proc_run(p);
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
			e->free_slots[e->nr_free++] = slot;
		}
	}
}

void sim_engine_run(struct sim_engine *e, sim_time_t until)
{
	unsigned int shift = sim_engine_many_procs(e) ? SIM__RING_SHIFT_DENSE :
							SIM__RING_SHIFT;

	if (e->shift != shift)
		ring_reshift(e, shift);
	/* slot 0 (none pending) is at SIM_TIME_MAX: never run it */
	e->end = until < SIM_TIME_MAX ? until + 1 : SIM_TIME_MAX;
	set_limit(e);
	e->stop = false;
	e->clock.until = until;
	if (sim_engine_many_procs(e))
		run_loop(e, true);
	else
		run_loop(e, false);
	if (!e->stop && e->clock.now < until)
		e->clock.now = until;
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
	 * evict each other (doc/speed.md). A hint: no effect on results.
	 */
	p->stack_alloc = calloc(1, stack_size + PROC_COLOURS * 64);
	SIM_OOM_ON(!p->stack_alloc);
	p->stack = p->stack_alloc + (id % PROC_COLOURS) * 64;
	p->frame = (struct co_frame *)(void *)p->stack; /* none: offset 0 */
	p->slot = slot_alloc(e);
	e->slots[p->slot].run = (struct sim_payload){ NULL, p, 0, NULL };
}

void sim_proc_destroy(struct sim_proc *p)
{
	struct sim_engine *e = p->engine;

	if (e) {
		e->nr_procs--;
		/* a wake-up still pending (the run ended first) is dropped */
		if (p->pending)
			ev_remove(e, p->slot);
		e->slots[p->slot].run.arg = NULL;
		e->free_slots[e->nr_free++] = p->slot;
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
	SIM_BUG_ON(at < e->clock.now || p->pending || !p->sp);
	p->pending = true;
	ev_push(e, p->slot, at);
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
		SIM_BUG_ON(at < e->clock.now);
		e->clock.now = at;
		e->running = 0; /* sim_event_seq(): SIM_SEQ_AHEAD */
		return false;
	}
	/* the running process: not finished, not pending, at >= sim_now() */
	SIM_BUG_ON(at < e->clock.now || p->pending);
	p->pending = true;
	ev_push(e, p->slot, at);
	return true;
}
