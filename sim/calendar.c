// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/calendar.c - the pending-event set: slots, the overflow heap, the
 * ring and the (time, seq) order over them. See sim/calendar.h for the
 * theory of operation.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/calendar.h"

#define SLOT_BITS 24 /* pending events and processes: at most 2^24 */
#define SLOT_MASK ((1ull << SLOT_BITS) - 1)
#define SEQ_LIMIT (1ull << (64 - SLOT_BITS))
#define RING SIM__RING /* buckets in the ring: a power of two */
#define RING_MASK SIM__RING_MASK
#define RING_WORDS SIM__RING_WORDS
#define HEAP_D 4
#define HEAP_PAD 3 /* keys before the root: sibling groups 64-byte aligned */

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

/* ---- slots ---- */

static bool slots_grow(struct sim_calendar *c, size_t cap)
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
	if (c->slots)
		memcpy(slots, c->slots, c->cap * sizeof(*slots));
	free(c->slots);
	c->slots = slots;
	free_slots = realloc(c->free_slots, cap * sizeof(*free_slots));
	if (!free_slots)
		return false;
	c->free_slots = free_slots;
	/* new slots, pushed so that the lowest is handed out first; not 0 */
	for (i = cap; i > c->cap && i > 1; i--)
		c->free_slots[c->nr_free++] = (uint32_t)(i - 1);
	c->cap = cap;
	return true;
}

void __attribute__((noinline)) cal__slots_more(struct sim_calendar *c)
{
	/* out of memory, or 2^24 events pending: a clean error */
	SIM_OOM_ON(!slots_grow(c, 2 * c->cap));
}

/* ---- the overflow heap ---- */

/*
 * cal__set_limit() - end or due changed: the run loop's limit is the
 * earlier; 0 with pop_flat, so that every pop is cal_pop_far().
 */
static inline void cal__set_limit(struct sim_calendar *c)
{
	c->limit = c->end < c->due ? c->end : c->due;
	if (c->pop_flat)
		c->limit = 0;
}

/* heap_top() - the overflow's top changed: compute due again. */
static inline void heap_top(struct sim_calendar *c)
{
	c->due = ((c->heap[0].time >> c->shift) - (RING - 1)) << c->shift;
	cal__set_limit(c);
}

/*
 * heap_grow() - room for @cap events: the keys (with the padding before
 * the root and HEAP_D sentinels past the last).
 */
static bool heap_grow(struct sim_calendar *c, size_t cap)
{
	size_t nkeys = HEAP_PAD + cap + HEAP_D, bytes, i;
	struct sim_key *keys;

	bytes = (nkeys * sizeof(*keys) + 63) & ~(size_t)63;
	keys = aligned_alloc(64, bytes);
	if (!keys)
		return false;
	for (i = 0; i < nkeys; i++)
		keys[i] = key_sentinel;
	if (c->keys)
		memcpy(keys + HEAP_PAD, c->heap, c->nr * sizeof(*keys));
	free(c->keys);
	c->keys = keys;
	c->heap = keys + HEAP_PAD;
	c->heap_cap = cap;
	heap_top(c);
	return true;
}

static void heap_sift_up(struct sim_calendar *c, size_t i)
{
	struct sim_key *h = c->heap, k = h[i];

	while (i > 0) {
		size_t parent = (i - 1) / HEAP_D;

		if (!key_before(&k, &h[parent]))
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = k;
}

static void heap_sift_down(struct sim_calendar *c, size_t i)
{
	struct sim_key *h = c->heap, k = h[i];
	size_t nr = c->nr;

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

static void heap_push(struct sim_calendar *c, sim_time_t t, uint64_t seqslot)
{
	if (c->nr == c->heap_cap)
		SIM_OOM_ON(!heap_grow(c, 2 * c->heap_cap));
	c->heap[c->nr].time = t;
	c->heap[c->nr].seqslot = seqslot;
	heap_sift_up(c, c->nr++);
	heap_top(c);
}

/* heap_del() - drop the key at @i: the last takes its place. */
static void heap_del(struct sim_calendar *c, size_t i)
{
	struct sim_key last = c->heap[--c->nr];

	c->heap[c->nr] = key_sentinel;
	if (i != c->nr) {
		c->heap[i] = last;
		heap_sift_down(c, i);
		heap_sift_up(c, i);
	}
	heap_top(c);
}

/* ---- the ring ---- */

/*
 * cal__ring_insert() - cal__ring_add() when @slot goes before the last of its
 * non-empty bucket @r: walk back from the last. A new event earlier than
 * the bucket's first (as often as not, where buckets hold several) goes
 * first without the walk. Out of line, so that the common cases of
 * cal__ring_add() save no registers for the loop.
 */
void __attribute__((noinline))
cal__ring_insert(struct sim_calendar *c, uint32_t slot, uint32_t r, bool newest)
{
	struct sim_slot *l = c->slots;
	const struct sim_slot *x = &l[slot];
	uint32_t h = c->head[r], p;

	if (newest && x->time < l[h].time) {
		c->head[r] = slot;
		cal__link_after(l, slot, l[h].prev);
		return;
	}
	for (p = l[h].prev;
	     newest ? x->time < l[p].time : cal__slot_before(x, &l[p]);
	     p = l[p].prev) {
		if (p == h) { /* earliest of the bucket: first */
			c->head[r] = slot;
			p = l[h].prev;
			break;
		}
	}
	cal__link_after(l, slot, p);
}

/* ring_del() - take @slot out of its bucket. */
static inline void ring_del(struct sim_calendar *c, uint32_t slot)
{
	struct sim_slot *l = c->slots;
	uint32_t r = cal__bucket_of(c, l[slot].time), n = l[slot].next;

	if (n == slot) { /* the only one */
		c->head[r] = 0;
		c->bits[r / 64] &= ~(1ull << (r % 64));
		return;
	}
	l[n].prev = l[slot].prev;
	l[l[slot].prev].next = n;
	if (c->head[r] == slot)
		c->head[r] = n;
}

/*
 * ring_first() - the first non-empty bucket from the ring's start, RING
 * if the ring is empty.
 */
static inline uint32_t ring_first(const struct sim_calendar *c)
{
	/* cur's bucket: ring_end less RING, a multiple of RING */
	uint32_t r = (uint32_t)c->ring_end & RING_MASK, w = r / 64, i;
	uint64_t m = c->bits[w] & (~0ull << (r % 64));

	/* words in bucket order from cur, wrapping round to cur's again */
	for (i = 0; !m; i++) {
		if (i == RING_WORDS)
			return RING;
		w = (w + 1) % RING_WORDS;
		m = c->bits[w];
	}
	return w * 64 + (uint32_t)__builtin_ctzll(m);
}

/* ---- the pending set ---- */

/*
 * find_min() - the earliest pending event: the first of the first
 * non-empty bucket; when the ring is empty the overflow's top; 0 when
 * nothing is pending.
 */
static inline uint32_t find_min(struct sim_calendar *c)
{
	uint32_t r = ring_first(c);

	if (r == RING)
		return c->nr ? (uint32_t)(c->heap[0].seqslot & SLOT_MASK) : 0;
	return c->head[r];
}

static void seq_renumber(struct sim_calendar *c);

static inline uint64_t seq_draw(struct sim_calendar *c)
{
	if (c->seq >= SEQ_LIMIT)
		seq_renumber(c);
	return c->seq++;
}

/*
 * cal__push_far() - cal_push() past the ring's window: an overflow key, whose
 * seq must fit its 40 bits.
 */
void __attribute__((noinline))
cal__push_far(struct sim_calendar *c, uint32_t slot, sim_time_t t)
{
	bool earliest = t < c->clock.next;

	c->slots[slot].time = t;
	c->slots[slot].seq = seq_draw(c);
	if (cal__in_ring(c, t))
		cal__ring_add(c, slot, true);
	else
		heap_push(c, t, c->slots[slot].seq << SLOT_BITS | slot);
	if (earliest)
		cal__set_min(c, slot);
}

/*
 * cal__unlone() - another event comes, or the ring changes: the lone event
 * goes into its bucket, or the overflow past the ring's window, with its
 * seq (numbered 0 past the overflow keys' limit, as seq_renumber() would
 * number it, the one event pending).
 */
void __attribute__((noinline)) cal__unlone(struct sim_calendar *c)
{
	uint32_t slot = c->min;
	struct sim_slot *x = &c->slots[slot];

	/* nothing pending, or to come, is earlier than now */
	c->ring_end = (c->clock.now >> c->shift) + RING;
	if (cal__in_ring(c, x->time)) {
		cal__ring_add(c, slot, false);
		return;
	}
	if (x->seq >= SEQ_LIMIT) {
		x->seq = 0;
		c->seq = 1;
	}
	heap_push(c, x->time, x->seq << SLOT_BITS | slot);
}

/* overflow_due() - the window reaches the overflow's top. */
static inline bool overflow_due(const struct sim_calendar *c)
{
	return c->nr && cal__in_ring(c, c->heap[0].time);
}

/*
 * cal__refill() - after a pop that moved the window onto overflow events
 * (or took the overflow's top, the ring empty): they enter the ring, and
 * min is found again. Out of line: rare in a busy run.
 */
void __attribute__((noinline)) cal__refill(struct sim_calendar *c)
{
	while (overflow_due(c)) {
		uint32_t s = (uint32_t)(c->heap[0].seqslot & SLOT_MASK);

		heap_del(c, 0);
		cal__ring_add(c, s, false);
	}
	cal__set_min(c, find_min(c));
}

/*
 * ring_pop_flat() - cal_pop() without its branch on whether min is alone
 * in its bucket, for buckets narrower than 1 ns (pop_flat): at 1024
 * processes a 0.5 ns bucket holds another event about half the time, a
 * coin toss for the host's branch predictor at every pop (cachegrind,
 * 1024 x 1024, 3 ms: 1.94 M of 10.0 M mispredictions). min is unlinked
 * either way (alone, that writes its own links); alone, its bucket's
 * head and bit are cleared, by masks; then the first set bit from its
 * bucket on is the next bucket, or, not alone, its own (its bit is
 * still set, and forced for the lone event, whose bucket is empty), and
 * that bucket's head is min. Nothing in the word from its bucket on: the
 * scan of cal__refill() (rare: a word spans 64 buckets, about 50 events
 * at 1024 processes). `make bench-scale-sim`, 1024 x 1024, per event:
 * mispredictions 1.994 -> 1.604 (256 x 256 1.40: 1.42x -> 1.15x), for
 * 29 instructions more (524.5 -> 553.9: the call, and the flat pop's
 * work where the inline one would have only unlinked); LL misses
 * unchanged (0.73 and 5.99).
 */
static inline void ring_pop_flat(struct sim_calendar *c, uint32_t slot,
				 sim_time_t t)
{
	struct sim_slot *l = c->slots;
	uint64_t k = t >> c->shift, b, alone, word, m;
	uint32_t r = (uint32_t)k & RING_MASK, w = r / 64;
	uint32_t n = l[slot].next, p = l[slot].prev;

	c->ring_end = k + RING;
	l[n].prev = p;
	l[p].next = n;
	alone = -(uint64_t)(n == slot); /* all ones when alone */
	b = 1ull << (r % 64);
	c->head[r] = n & ~(uint32_t)alone;
	word = c->bits[w] ^ (b & alone);
	c->bits[w] = word;
	m = (word | (b & ~alone)) & -b;
	if (!m) {
		cal__refill(c);
		return;
	}
	cal__set_min(c, c->head[w * 64 + (uint32_t)__builtin_ctzll(m)]);
}

/*
 * cal_pop_far() - cal_pop() when the overflow's top is due (min's time @t
 * is after due): min is in the ring, or, the ring empty, it is the
 * overflow's top. Out of line: rare in a busy run, but every pop with
 * pop_flat, which the overflow mostly does not involve.
 */
static void __attribute__((noinline))
pop_far(struct sim_calendar *c, uint32_t slot, sim_time_t t)
{
	if (cal__lone(c))
		cal__unlone(c);
	c->ring_end = (t >> c->shift) + RING;
	if (c->nr && (c->heap[0].seqslot & SLOT_MASK) == slot)
		heap_del(c, 0);
	else
		ring_del(c, slot);
	cal__refill(c);
}

/*
 * The flat pop calls nothing but in tail position, so that it saves no
 * registers for pop_far()'s calls.
 */
void cal_pop_far(struct sim_calendar *c, uint32_t slot, sim_time_t t)
{
	if (c->pop_flat && t < c->due)
		ring_pop_flat(c, slot, t);
	else
		pop_far(c, slot, t);
}

/* cal_remove() - drop a pending event that is not running: rare. */
void cal_remove(struct sim_calendar *c, uint32_t slot)
{
	size_t i;

	if (cal__lone(c))
		cal__unlone(c);
	if (cal__in_ring(c, c->slots[slot].time)) {
		ring_del(c, slot);
	} else {
		for (i = 0; (c->heap[i].seqslot & SLOT_MASK) != slot; i++)
			;
		heap_del(c, i);
	}
	if (c->min == slot)
		cal__set_min(c, find_min(c));
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
 * the overflow's keys have 40, so only cal__push_far() checks the limit.)
 */
static void seq_renumber(struct sim_calendar *c)
{
	/* at most every slot is pending */
	struct seq_rank *sorted = malloc(c->cap * sizeof(*sorted));
	size_t nr = 0, i;
	uint32_t r, s;

	SIM_OOM_ON(!sorted);
	for (r = 0; r < RING; r++) {
		for (s = c->head[r]; s; s = c->slots[s].next) {
			sorted[nr++] = (struct seq_rank){ c->slots[s].time,
							  c->slots[s].seq, s };
			if (c->slots[s].next == c->head[r])
				break;
		}
	}
	for (i = 0; i < c->nr; i++) {
		s = (uint32_t)(c->heap[i].seqslot & SLOT_MASK);
		sorted[nr++] = (struct seq_rank){ c->slots[s].time,
						  c->slots[s].seq, s };
	}
	qsort(sorted, nr, sizeof(*sorted), rank_cmp);
	for (i = 0; i < nr; i++)
		c->slots[sorted[i].slot].seq = i;
	for (i = 0; i < c->nr; i++) {
		s = (uint32_t)(c->heap[i].seqslot & SLOT_MASK);
		c->heap[i].seqslot = c->slots[s].seq << SLOT_BITS | s;
	}
	free(sorted);
	c->seq = nr;
}

/*
 * cal_reshift() - make the ring's buckets 2^@shift ps wide. The pending
 * events are taken out of the ring and the overflow and put back where
 * the new width places them (the ring holds exactly the events of its
 * window, which cal_remove() relies on); their keys do not change, so
 * neither does any order. cur's bucket starts no later than before:
 * nothing pending is earlier. Rare: when the number of processes crosses
 * SIM_MANY_PROCS, at the start of a run (sim_engine_run()).
 */
void cal_reshift(struct sim_calendar *c, unsigned int shift)
{
	uint32_t *slots = malloc(c->cap * sizeof(*slots)), r, s;
	size_t nr = 0, i;

	SIM_OOM_ON(!slots);
	if (cal__lone(c))
		cal__unlone(c);
	/* an overflow key holds 40 bits of seq; the ring's may be past it */
	if (c->seq >= SEQ_LIMIT)
		seq_renumber(c);
	for (r = 0; r < RING; r++) {
		for (s = c->head[r]; s; s = c->slots[s].next) {
			slots[nr++] = s;
			if (c->slots[s].next == c->head[r])
				break;
		}
		c->head[r] = 0;
	}
	memset(c->bits, 0, sizeof(c->bits));
	while (c->nr) {
		slots[nr++] = (uint32_t)(c->heap[0].seqslot & SLOT_MASK);
		heap_del(c, 0);
	}
	c->ring_last = ((c->ring_end - RING) << c->shift) >> shift;
	c->ring_end = c->ring_last + RING;
	c->shift = shift;
	c->pop_flat = shift < SIM__RING_SHIFT_DENSE;
	for (i = 0; i < nr; i++) {
		s = slots[i];
		if (cal__in_ring(c, c->slots[s].time))
			cal__ring_add(c, s, false);
		else
			heap_push(c, c->slots[s].time,
				  c->slots[s].seq << SLOT_BITS | s);
	}
	free(slots);
	heap_top(c);
	cal__set_min(c, find_min(c));
}

_Static_assert(SIM__SEQ_RESERVE_LIMIT == SEQ_LIMIT / 2,
	       "cal_seq_reserve() stops at half the renumbering limit");

/*
 * cal_push_key() - the event in @slot at (@t, @seq): not the newest seq,
 * so the min test compares whole keys, and the ring places it by walking
 * its bucket.
 */
void cal_push_key(struct sim_calendar *c, uint32_t slot, sim_time_t t,
		  uint64_t seq)
{
	if (cal__lone(c))
		cal__unlone(c);
	c->slots[slot].time = t;
	c->slots[slot].seq = seq;
	if (cal__in_ring(c, t))
		cal__ring_add(c, slot, false);
	else
		heap_push(c, t, seq << SLOT_BITS | slot); /* < 2^39: fits */
	if (cal__slot_before(&c->slots[slot], &c->slots[c->min]))
		cal__set_min(c, slot);
}

void cal_set_end(struct sim_calendar *c, sim_time_t end)
{
	c->end = end;
	cal__set_limit(c);
}

bool cal_init(struct sim_calendar *c)
{
	if (!slots_grow(c, 1024) || !heap_grow(c, 64))
		return false;
	c->shift = SIM__RING_SHIFT;
	c->ring_end = RING; /* cur 0 */
	/* slot 0: "none", later than any event */
	c->slots[0].time = SIM_TIME_MAX;
	c->slots[0].seq = UINT64_MAX;
	c->clock.next = SIM_TIME_MAX;
	return true;
}

void cal_destroy(struct sim_calendar *c)
{
	free(c->slots);
	free(c->free_slots);
	free(c->keys);
}
