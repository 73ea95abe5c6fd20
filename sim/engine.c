// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/engine.c - the pending-event set, run loop and coroutine processes.
 *
 * Every pending event has a key (time, seq): seq is a counter drawn by
 * every scheduling, so keys are unique and the run order (time, seq) is
 * total. The set has two parts:
 *
 * Timers. Every process has one timer, its wake-up: a process waits for
 * at most one thing at a time. The timers are the leaves of a winner
 * tree (a tournament): leaf i sits at tree[n + i], n the number of
 * leaves, and every inner node tree[k] holds the earlier of its children
 * tree[2k] and tree[2k + 1], so the root tree[1] is the earliest pending
 * timer. Setting a timer writes its leaf and replays the matches on the
 * leaf's path to the root: log2(n) comparisons of one key against its
 * sibling, with a conditional move and no unpredictable branch, no
 * payload array and no free-slot stack. A key's low SLOT_BITS bits name
 * its leaf, so the root says which timer is due. An idle timer's key is
 * (SIM_TIME_MAX, IDLE_SEQ), later than any event.
 *
 *	            [1] min
 *	       [2]         [3]		n = 4 leaves: timers 0..3
 *	   [4] t0  [5] t1  [6] t2  [7] t3
 *
 * Generic events. sim_schedule() (kernel timers, network messages, a
 * cache line's service) keeps a 4-ary min-heap of keys with a payload
 * {fn, arg, data} per key, and the heap's earliest key is leaf 0 of the
 * tree. A heap key's low bits name its payload slot. The heap arrays
 * are offset so that every group of four siblings shares a 64-byte line,
 * and the positions past the last key hold sentinels (later than any
 * event), so a sift compares four children without a bound check.
 *
 * Replace-top. The run loop leaves the running event's key where it is
 * (top_taken) until the event is done: if its handler sets the same
 * timer again (a process waiting for its own next step, the common
 * case), the leaf is replayed once, instead of once to retire it and
 * once more to set it; for the heap, the handler's first sim_schedule()
 * reuses the running event's slot and sifts down once, instead of a pop
 * and a push. Only an event that schedules nothing of its own kind is
 * retired afterwards. The running event's key is the smallest in the
 * set (everything pending is later, or as early with a larger seq), so
 * it stays the root while it is taken and the order is as without.
 *
 * The sequence field holds 2^SEQ_BITS numbers (about 10^12 events, hours
 * of simulation); when they run out, the pending events are renumbered
 * 0, 1, ... in their (time, seq) order, which keeps every order.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/engine.h"
#include "sim/error.h"

#define HEAP_D 4
#define SLOT_BITS 24 /* heap slots and timers: at most 2^24 each */
#define SLOT_MASK ((1ull << SLOT_BITS) - 1)
#define SEQ_BITS (64 - SLOT_BITS)
#define IDLE_SEQ ((1ull << SEQ_BITS) - 1) /* an idle timer's; never drawn */
#define HEAP_PAD 3 /* keys before the root: sibling groups 64-byte aligned */
#define HEAP_LEAF 0 /* the tree leaf that holds the heap's earliest key */

/*
 * struct sim_key - an event's place in the order: (time, seq << 24 |
 * slot), the slot being a heap payload slot or a timer (a tree leaf).
 */
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
	/* the timers' winner tree: tree[1] the root, leaf i at tree[n + i] */
	struct sim_key *tree;
	size_t nr_leaves; /* n: leaf 0 is the heap's, the others timers */
	struct sim_proc **leaf_proc; /* by leaf: the process it wakes */
	uint32_t *free_leaves; /* a stack of unused leaves */
	size_t nr_free_leaves;
	uint32_t top_leaf; /* the running event's leaf */
	bool top_taken; /* ... and its key is still there (replace-top) */
	bool stop;
	sim_time_t until; /* horizon of the current sim_engine_run() */
	/* the generic events' heap */
	struct sim_key *heap; /* HEAP_PAD keys past the start of keys */
	struct sim_key *keys; /* the allocation, 64-byte aligned */
	struct sim_payload *payload; /* by slot */
	uint32_t *free_slots; /* a stack of unused payload slots */
	size_t nr_free;
	size_t nr, cap; /* nr counts the taken root, if any */
	uint64_t progress_every;
	uint64_t progress_at; /* nr_events at the next progress call */
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

static inline struct sim_key idle_key(uint32_t leaf)
{
	return (struct sim_key){ SIM_TIME_MAX, IDLE_SEQ << SLOT_BITS | leaf };
}

/* ---- the timers' winner tree ---- */

/*
 * tree_replay() - set @leaf's key to @k and replay its path to the root.
 * The path's nodes held @leaf's old key (it was the root's winner), so
 * every one of them changes: no early stop to test for. The choice of
 * the earlier key is written as conditional moves, not a branch: which
 * one wins is a coin toss to the branch predictor.
 */
static inline void tree_replay(struct sim_engine *e, uint32_t leaf,
			       struct sim_key k)
{
	struct sim_key *t = e->tree;
	size_t i = e->nr_leaves + leaf;

	t[i] = k;
	for (; i > 1; i >>= 1) {
		struct sim_key s = t[i ^ 1];
		bool b;

		__asm__("" : "+r"(s.time), "+r"(s.seqslot));
		b = key_before(&s, &k);
		k.time = b ? s.time : k.time;
		k.seqslot = b ? s.seqslot : k.seqslot;
		t[i >> 1] = k;
	}
}

/*
 * tree_update() - set a leaf that is not the root's winner: replay its
 * path only while the winners change. A node that already holds the
 * key it would get leaves everything above it as it was; a seqslot
 * names one key (a seq is drawn once, an idle key is its leaf's), so
 * comparing it suffices. A wake-up due later than its sibling subtree's
 * earliest stops after one or two levels.
 */
static inline void tree_update(struct sim_engine *e, uint32_t leaf,
			       struct sim_key k)
{
	struct sim_key *t = e->tree;
	size_t i = e->nr_leaves + leaf;

	t[i] = k;
	for (; i > 1; i >>= 1) {
		struct sim_key s = t[i ^ 1];
		bool b;

		__asm__("" : "+r"(s.time), "+r"(s.seqslot));
		b = key_before(&s, &k);
		k.time = b ? s.time : k.time;
		k.seqslot = b ? s.seqslot : k.seqslot;
		if (t[i >> 1].seqslot == k.seqslot)
			break;
		t[i >> 1] = k;
	}
}

/* tree_build() - every inner node from the leaves, bottom up. */
static void tree_build(struct sim_engine *e)
{
	struct sim_key *t = e->tree;
	size_t k;

	for (k = e->nr_leaves - 1; k >= 1; k--)
		t[k] = key_before(&t[2 * k + 1], &t[2 * k]) ? t[2 * k + 1] :
							      t[2 * k];
}

/*
 * tree_grow() - room for @n leaves: the new ones idle and free. The
 * leaves move (leaf i is at tree[n + i]), so the inner nodes are built
 * again; that happens while processes are created, not per event.
 */
static bool tree_grow(struct sim_engine *e, size_t n)
{
	size_t old = e->nr_leaves, i;
	struct sim_key *t;
	struct sim_proc **lp;
	uint32_t *fl;

	if (n > SLOT_MASK + 1)
		return false;
	t = aligned_alloc(64, (2 * n * sizeof(*t) + 63) & ~(size_t)63);
	if (!t)
		return false;
	lp = realloc(e->leaf_proc, n * sizeof(*lp));
	if (!lp) {
		free(t);
		return false;
	}
	e->leaf_proc = lp;
	fl = realloc(e->free_leaves, n * sizeof(*fl));
	if (!fl) {
		free(t);
		return false;
	}
	e->free_leaves = fl;
	t[0] = key_sentinel; /* unused */
	for (i = 0; i < n; i++)
		t[n + i] = i < old ? e->tree[old + i] : idle_key((uint32_t)i);
	/* new leaves, pushed so that the lowest is handed out first */
	for (i = n; i > old; i--) {
		lp[i - 1] = NULL;
		fl[e->nr_free_leaves++] = (uint32_t)(i - 1);
	}
	free(e->tree);
	e->tree = t;
	e->nr_leaves = n;
	tree_build(e);
	return true;
}

static uint32_t leaf_alloc(struct sim_engine *e, struct sim_proc *p)
{
	uint32_t leaf;

	/* a few idle leaves to spare: a rebuild per eighth, not per leaf */
	if (!e->nr_free_leaves)
		SIM_OOM_ON(!tree_grow(e, e->nr_leaves + e->nr_leaves / 8 + 1));
	leaf = e->free_leaves[--e->nr_free_leaves];
	e->leaf_proc[leaf] = p;
	return leaf;
}

/* ---- the generic events' heap ---- */

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

/*
 * heap_leaf_key() - leaf 0's key: the heap's earliest, its slot bits
 * naming the leaf. An empty heap's sentinel gives the idle key.
 */
static inline struct sim_key heap_leaf_key(const struct sim_engine *e)
{
	return (struct sim_key){ e->heap[0].time,
				 (e->heap[0].seqslot & ~SLOT_MASK) |
					 HEAP_LEAF };
}

static size_t heap_sift_up(struct sim_engine *e, size_t i)
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
	return i;
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

/* heap_pop() - drop the heap's earliest event (the one that ran). */
static void heap_pop(struct sim_engine *e)
{
	struct sim_key last = e->heap[e->nr - 1];

	e->free_slots[e->nr_free++] = (uint32_t)(e->heap[0].seqslot & SLOT_MASK);
	e->heap[--e->nr] = key_sentinel;
	if (e->nr) {
		e->heap[0] = last;
		heap_sift_down(e, 0);
	}
}

/* ---- the engine ---- */

struct sim_engine *sim_engine_create(void)
{
	struct sim_engine *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	if (!heap_grow(e, 1024) || !tree_grow(e, 1)) {
		sim_engine_free(e);
		return NULL;
	}
	/* leaf 0 is the heap's */
	e->nr_free_leaves = 0;
	e->progress_at = UINT64_MAX;
	return e;
}

void sim_engine_free(struct sim_engine *e)
{
	if (!e)
		return;
	free(e->tree);
	free(e->leaf_proc);
	free(e->free_leaves);
	free(e->keys);
	free(e->payload);
	free(e->free_slots);
	free(e);
}

sim_time_t sim_now(const struct sim_engine *e)
{
	return e->now;
}

/*
 * sim_next_time() - the earliest pending time but the running event's.
 * While that one is taken it is the root, so look past it: the other
 * leaves, and for a heap event the heap's next. Tests and tools ask;
 * the hot path (sim_proc_sync()) reads the root.
 */
sim_time_t sim_next_time(const struct sim_engine *e)
{
	sim_time_t t = SIM_TIME_MAX;
	size_t i;

	if (!e->top_taken)
		return e->tree[1].time;
	for (i = 0; i < e->nr_leaves; i++)
		if (i != e->top_leaf && e->tree[e->nr_leaves + i].time < t)
			t = e->tree[e->nr_leaves + i].time;
	if (e->top_leaf == HEAP_LEAF)
		for (i = 1; i <= HEAP_D; i++) /* sentinels past the last */
			if (e->heap[i].time < t)
				t = e->heap[i].time;
	return t;
}

uint64_t sim_events(const struct sim_engine *e)
{
	return e->nr_events;
}

static int key_cmp(const void *a, const void *b)
{
	const struct sim_key *x = a, *y = b;

	return key_before(x, y) ? -1 : key_before(y, x) ? 1 : 0;
}

/* The rank of @k among the @n sorted keys (keys are unique). */
static uint64_t key_rank(const struct sim_key *sorted, size_t n,
			 const struct sim_key *k)
{
	size_t lo = 0, hi = n, mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (key_before(k, &sorted[mid]))
			hi = mid;
		else
			lo = mid;
	}
	return lo;
}

static inline bool leaf_idle(const struct sim_key *k)
{
	return (k->seqslot >> SLOT_BITS) == IDLE_SEQ;
}

/*
 * seq_renumber() - the sequence numbers ran out: give the pending events
 * (heap keys and timers, a taken one included) 0, 1, ... in their order.
 * The map keeps every order, so the heap stays a heap as it is; the tree
 * is built again (leaf 0 from the heap's new earliest key).
 */
static void seq_renumber(struct sim_engine *e)
{
	size_t n = e->nr_leaves, nr = 0, i;
	struct sim_key *sorted = malloc((e->nr + n) * sizeof(*sorted)), *k;

	SIM_OOM_ON(!sorted);
	for (i = 0; i < e->nr; i++)
		sorted[nr++] = e->heap[i];
	for (i = 1; i < n; i++)
		if (!leaf_idle(&e->tree[n + i]))
			sorted[nr++] = e->tree[n + i];
	qsort(sorted, nr, sizeof(*sorted), key_cmp);
	for (i = 0; i < e->nr; i++) {
		k = &e->heap[i];
		k->seqslot = key_rank(sorted, nr, k) << SLOT_BITS |
			     (k->seqslot & SLOT_MASK);
	}
	for (i = 1; i < n; i++) {
		k = &e->tree[n + i];
		if (!leaf_idle(k))
			k->seqslot = key_rank(sorted, nr, k) << SLOT_BITS |
				     (k->seqslot & SLOT_MASK);
	}
	e->tree[n + HEAP_LEAF] = heap_leaf_key(e);
	tree_build(e);
	free(sorted);
	e->seq = nr;
}

static inline uint64_t seq_draw(struct sim_engine *e)
{
	if (e->seq == IDLE_SEQ)
		seq_renumber(e);
	return e->seq++;
}

void sim_schedule(struct sim_engine *e, sim_time_t t, sim_event_fn fn,
		  void *arg, uint64_t data)
{
	uint64_t seq;
	uint32_t slot;

	/* SIM_TIME_MAX is an idle timer's time: never an event's */
	SIM_BUG_ON(t < e->now || t == SIM_TIME_MAX);
	seq = seq_draw(e);
	if (e->top_taken && e->top_leaf == HEAP_LEAF) {
		/* replace-top: the running event's key and slot take the new one */
		e->top_taken = false;
		slot = (uint32_t)(e->heap[0].seqslot & SLOT_MASK);
		e->payload[slot] = (struct sim_payload){ fn, arg, data };
		e->heap[0].time = t;
		e->heap[0].seqslot = seq << SLOT_BITS | slot;
		heap_sift_down(e, 0);
		tree_replay(e, HEAP_LEAF, heap_leaf_key(e));
		return;
	}
	/* out of memory, or 2^24 events pending: a clean error */
	if (e->nr == e->cap)
		SIM_OOM_ON(!heap_grow(e, 2 * e->cap));
	slot = e->free_slots[--e->nr_free];
	e->payload[slot] = (struct sim_payload){ fn, arg, data };
	e->heap[e->nr].time = t;
	e->heap[e->nr].seqslot = seq << SLOT_BITS | slot;
	if (!heap_sift_up(e, e->nr++))
		tree_update(e, HEAP_LEAF, heap_leaf_key(e));
}

/*
 * top_retire() - the running event is done and scheduled nothing in its
 * place: a timer goes idle, a heap event is popped.
 */
static void top_retire(struct sim_engine *e)
{
	e->top_taken = false;
	if (e->top_leaf == HEAP_LEAF) {
		heap_pop(e);
		tree_replay(e, HEAP_LEAF, heap_leaf_key(e));
	} else {
		tree_replay(e, e->top_leaf, idle_key(e->top_leaf));
	}
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
	/* an idle timer's time is SIM_TIME_MAX: never run one */
	sim_time_t last = until < SIM_TIME_MAX ? until : SIM_TIME_MAX - 1;

	e->stop = false;
	e->until = until;
	while (!e->stop) {
		struct sim_key top = e->tree[1];
		uint64_t nr;
		uint32_t leaf = (uint32_t)(top.seqslot & SLOT_MASK);

		if (top.time > last)
			break;
		SIM_BUG_ON(top.time < e->now);
		e->now = top.time;
		e->top_leaf = leaf;
		e->top_taken = true;
		nr = ++e->nr_events;
		if (leaf != HEAP_LEAF) {
			/* a process's wake-up: no payload, no indirect call */
			struct sim_proc *p = e->leaf_proc[leaf];

			if (p->now < top.time)
				p->now = top.time;
			proc_run(p);
		} else {
			struct sim_payload ev =
				e->payload[e->heap[0].seqslot & SLOT_MASK];

			ev.fn(ev.arg, ev.data);
		}
		if (e->top_taken)
			top_retire(e);
		if (nr == e->progress_at) {
			e->progress_at += e->progress_every;
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
	p->leaf = leaf_alloc(e, p);
}

void sim_proc_destroy(struct sim_proc *p)
{
	struct sim_engine *e = p->engine;

	if (e) {
		/* a wake-up still pending (the run ended first) is dropped */
		if (e->top_taken && e->top_leaf == p->leaf)
			e->top_taken = false;
		tree_replay(e, p->leaf, idle_key(p->leaf));
		e->leaf_proc[p->leaf] = NULL;
		e->free_leaves[e->nr_free_leaves++] = p->leaf;
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
 * proc_timer_set() - wake @p at @at: its timer takes the next seq. When
 * it is the running event's timer (a process scheduling its own next
 * step), the taken key is replaced; otherwise the timer must be idle: a
 * process waits for one thing at a time, so a second wake-up pending is
 * a model bug.
 */
static inline uint64_t proc_timer_set(struct sim_engine *e, struct sim_proc *p,
				      sim_time_t at)
{
	uint32_t leaf = p->leaf;
	struct sim_key k;

	SIM_BUG_ON(at < e->now || at == SIM_TIME_MAX);
	k.time = at;
	k.seqslot = seq_draw(e) << SLOT_BITS | leaf;
	if (e->top_taken && e->top_leaf == leaf) {
		e->top_taken = false;
		tree_replay(e, leaf, k);
	} else {
		SIM_BUG_ON(!leaf_idle(&e->tree[e->nr_leaves + leaf]));
		tree_update(e, leaf, k);
	}
	return k.seqslot;
}

void sim_proc_start(struct sim_proc *p, sim_time_t at)
{
	p->finished = false;
	p->now = at;
	proc_timer_set(p->engine, p, at);
}

void sim_proc_wake(struct sim_proc *p, sim_time_t at)
{
	proc_timer_set(p->engine, p, at);
}

bool sim_proc_sync(struct sim_proc *p)
{
	struct sim_engine *e = p->engine;
	uint64_t mine;

	if (p->now == e->now)
		return false;
	SIM_BUG_ON(p->now < e->now);
	/* called from another event than @p's wake-up: that one is done */
	if (e->top_taken && e->top_leaf != p->leaf)
		top_retire(e);
	/*
	 * Schedule the wake-up, then look at the root. The wake-up has the
	 * newest seq, so it is the root exactly when nothing else is due at
	 * or before p->now: then moving the clock there is what running it
	 * would do, and it is taken at once, without counting an event.
	 */
	mine = proc_timer_set(e, p, p->now);
	if (e->tree[1].seqslot == mine && p->now <= e->until) {
		e->now = p->now;
		e->top_leaf = p->leaf;
		e->top_taken = true;
		return false;
	}
	return true;
}
