// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_calendar.c - the pending-event set (sim/calendar.[ch]) on
 * its own, against the simplest structure that gives the same order: a
 * plain binary min-heap of (time, seq) keys, written here from the
 * textbook (sift up on insert, sift down on extract), with lazy removal
 * (a removed key stays until it reaches the top, and is then dropped). Every operation the engine makes (a push with a fresh
 * seq, the inline append, a timer's append that may make it the lone
 * event, a push with a reserved seq, a removal, the pop
 * of the earliest event, a change of bucket width, the renumbering of
 * seqs) is drawn at random, on both sides, and the two must hand out the
 * same slots in the same order. Times are drawn at three scales, so that
 * events land in one bucket, across the ring and past its window in the
 * overflow.
 */
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <gsl/gsl_rng.h>

#include "sim/calendar.h"

/* ---- the reference: a binary heap of (time, seq, slot) ---- */

struct ref_key {
	sim_time_t time;
	uint64_t seq; /* the order of drawing, never renumbered: unique */
	uint32_t slot;
};

struct ref_heap {
	struct ref_key *k;
	size_t nr, cap;
};

static bool ref_before(const struct ref_key *a, const struct ref_key *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void ref_swap(struct ref_heap *h, size_t i, size_t j)
{
	struct ref_key t = h->k[i];

	h->k[i] = h->k[j];
	h->k[j] = t;
}

static void ref_up(struct ref_heap *h, size_t i)
{
	while (i && ref_before(&h->k[i], &h->k[(i - 1) / 2])) {
		ref_swap(h, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void ref_down(struct ref_heap *h, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < h->nr && ref_before(&h->k[l], &h->k[m]))
			m = l;
		if (r < h->nr && ref_before(&h->k[r], &h->k[m]))
			m = r;
		if (m == i)
			return;
		ref_swap(h, i, m);
		i = m;
	}
}

static void ref_push(struct ref_heap *h, sim_time_t t, uint64_t seq,
		     uint32_t slot)
{
	if (h->nr == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 64;
		h->k = realloc(h->k, h->cap * sizeof(*h->k));
		ck_assert_ptr_nonnull(h->k);
	}
	h->k[h->nr] = (struct ref_key){ t, seq, slot };
	ref_up(h, h->nr++);
}

static void ref_pop(struct ref_heap *h)
{
	h->k[0] = h->k[--h->nr];
	if (h->nr)
		ref_down(h, 0);
}

/* ---- the two side by side ---- */

struct pair {
	struct sim_calendar cal;
	struct ref_heap ref;
	uint64_t ref_seq; /* the reference's draw counter */
	sim_time_t now; /* the last popped event's time */
	gsl_rng *rng;
	uint32_t *pending; /* slots pending, in no order */
	size_t nr_pending;
	uint32_t *where; /* by slot: its index in pending[] */
	uint64_t *live; /* by slot: the seq of its pending event in ref */
	uint64_t pops;
};

#define MAX_SLOTS (1u << 16)

static void pair_init(struct pair *p, unsigned long seed)
{
	memset(p, 0, sizeof(*p));
	ck_assert(cal_init(&p->cal));
	cal_set_end(&p->cal, SIM_TIME_MAX);
	p->rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(p->rng, seed);
	p->pending = calloc(MAX_SLOTS, sizeof(*p->pending));
	p->where = calloc(MAX_SLOTS, sizeof(*p->where));
	p->live = calloc(MAX_SLOTS, sizeof(*p->live));
	ck_assert(p->pending && p->where && p->live);
}

static void pair_free(struct pair *p)
{
	cal_destroy(&p->cal);
	free(p->ref.k);
	free(p->pending);
	free(p->where);
	free(p->live);
	gsl_rng_free(p->rng);
}

static void pending_add(struct pair *p, uint32_t slot, sim_time_t t,
			uint64_t ref_seq)
{
	ck_assert_uint_lt(slot, MAX_SLOTS);
	ref_push(&p->ref, t, ref_seq, slot);
	p->live[slot] = ref_seq;
	p->where[slot] = (uint32_t)p->nr_pending;
	p->pending[p->nr_pending++] = slot;
}

static void pending_del(struct pair *p, uint32_t slot)
{
	uint32_t i = p->where[slot], last = p->pending[--p->nr_pending];

	p->pending[i] = last;
	p->where[last] = i;
	p->live[slot] = UINT64_MAX; /* its key in ref is dead */
}

/* the reference's earliest live key: dead ones are dropped on the way */
static const struct ref_key *ref_top(struct pair *p)
{
	while (p->ref.nr && p->live[p->ref.k[0].slot] != p->ref.k[0].seq)
		ref_pop(&p->ref);
	return p->ref.nr ? &p->ref.k[0] : NULL;
}

/*
 * A time from now: within a bucket (up to 1 ns), across the ring (up to
 * 10 us, the window is 4.2 or 16.8 us) or past it (up to 1 ms), with
 * many ties at the smallest scale.
 */
static sim_time_t draw_time(struct pair *p)
{
	switch (gsl_rng_uniform_int(p->rng, 3)) {
	case 0:
		return p->now + gsl_rng_uniform_int(p->rng, 1000);
	case 1:
		return p->now + gsl_rng_uniform_int(p->rng, 10000000);
	default:
		return p->now + gsl_rng_uniform_int(p->rng, 1000000000);
	}
}

/*
 * a push with a fresh seq: the inline append when it can, or a timer's
 * (the lone event when nothing is pending), as the engine
 */
static void pair_push(struct pair *p)
{
	uint32_t slot = cal_slot_alloc(&p->cal);
	sim_time_t t = draw_time(p);
	unsigned long how = gsl_rng_uniform_int(p->rng, 3);

	if (!how || (how == 1 && !cal_append(&p->cal, slot, t)) ||
	    (how == 2 && !cal_append_lone(&p->cal, slot, t)))
		cal_push(&p->cal, slot, t);
	pending_add(p, slot, t, p->ref_seq++);
}

/*
 * A push with a reserved seq: reserved now, used at once for an event at
 * a time after now, so (t, seq) is after what runs (cal_push_key()'s
 * rule); other pushes drawn in between come after it among equal times.
 */
static void pair_push_key(struct pair *p)
{
	uint32_t slot;
	uint64_t seq, ref_seq = p->ref_seq++;
	sim_time_t t = draw_time(p) + 1;

	ck_assert(cal_seq_reserve(&p->cal, &seq));
	/* one fresh push between the reservation and its use */
	pair_push(p);
	slot = cal_slot_alloc(&p->cal);
	cal_push_key(&p->cal, slot, t, seq);
	pending_add(p, slot, t, ref_seq);
}

static void pair_remove(struct pair *p)
{
	uint32_t slot;

	if (!p->nr_pending)
		return;
	slot = p->pending[gsl_rng_uniform_int(p->rng, p->nr_pending)];
	cal_remove(&p->cal, slot);
	pending_del(p, slot);
	cal_slot_free(&p->cal, slot);
}

/*
 * the earliest event, as the engine's run loop takes it; the lone event,
 * every other time, as its timer's own event does (sim_timer_rerun())
 */
static void pair_pop(struct pair *p)
{
	uint32_t slot = p->cal.min;
	sim_time_t t = p->cal.clock.next;
	const struct ref_key *top = ref_top(p);

	if (!top) {
		ck_assert_uint_eq(slot, 0);
		ck_assert_uint_eq(t, SIM_TIME_MAX);
		return;
	}
	ck_assert_uint_eq(slot, top->slot);
	ck_assert_uint_eq(t, top->time);
	if (cal__lone(&p->cal) && p->pops % 2) {
		sim_time_t at;

		ck_assert(!cal_pop_lone(&p->cal, slot ^ 1, &at));
		ck_assert(cal_pop_lone(&p->cal, slot, &at));
		ck_assert_uint_eq(at, t);
	} else if (t < p->cal.limit) {
		cal_pop(&p->cal, slot, t);
	} else {
		cal_pop_far(&p->cal, slot, t);
	}
	pending_del(p, slot);
	p->now = t;
	cal_slot_free(&p->cal, slot);
	p->pops++;
}

/*
 * next_shift() - the widths in turn: 4.1 ns, 1.0 ns, and 0.5 ns, whose
 * pops are all cal_pop_far() (pop_flat).
 */
static unsigned int next_shift(unsigned int shift)
{
	if (shift == SIM__RING_SHIFT)
		return SIM__RING_SHIFT_DENSE;
	if (shift == SIM__RING_SHIFT_DENSE)
		return SIM__RING_SHIFT_DENSE - 1;
	return SIM__RING_SHIFT;
}

/*
 * @n random operations after 2000 pushes: as many events pop or are
 * removed as are pushed, so about 2000 stay pending; with @reshift, the
 * bucket width changes every 5000 operations.
 */
static void pair_run(struct pair *p, unsigned int n, bool reshift)
{
	unsigned int i;

	for (i = 0; i < 2000; i++)
		pair_push(p);
	for (i = 0; i < n; i++) {
		unsigned long op = gsl_rng_uniform_int(p->rng, 12);

		if (reshift && i % 5000 == 4999)
			cal_reshift(&p->cal, next_shift(p->cal.shift));
		/* 4 pushes, 1 push_key (2 pushes), 5 pops, 1 removal */
		if (op < 4)
			pair_push(p);
		else if (op < 5)
			pair_push_key(p);
		else if (op < 10)
			pair_pop(p);
		else if (op < 11)
			pair_remove(p);
	}
	while (p->nr_pending)
		pair_pop(p);
	pair_pop(p); /* empty: min is slot 0, at SIM_TIME_MAX */
}

START_TEST(calendar_order_as_heap)
{
	struct pair p;

	pair_init(&p, 1);
	pair_run(&p, 200000, false);
	/* 5 of 12 operations pop: about 83,000 */
	ck_assert_uint_gt(p.pops, 70000);
	pair_free(&p);
}
END_TEST

START_TEST(calendar_order_as_heap_dense)
{
	struct pair p;

	pair_init(&p, 2);
	cal_reshift(&p.cal, SIM__RING_SHIFT_DENSE);
	pair_run(&p, 200000, false);
	pair_free(&p);
}
END_TEST

START_TEST(calendar_order_as_heap_flat)
{
	struct pair p;

	pair_init(&p, 6);
	cal_reshift(&p.cal, SIM__RING_SHIFT_DENSE - 1);
	ck_assert(p.cal.pop_flat);
	pair_run(&p, 200000, false);
	pair_free(&p);
}
END_TEST

/* A change of width keeps every order: the keys do not depend on it. */
START_TEST(calendar_order_across_reshift)
{
	struct pair p;

	pair_init(&p, 3);
	pair_run(&p, 100000, true);
	pair_free(&p);
}
END_TEST

/*
 * A few events pending, often none: the lone event comes and goes, and
 * moves to its bucket or the overflow when another comes, is removed or
 * the width changes (cal__unlone()).
 */
START_TEST(calendar_order_lone)
{
	struct pair p;
	unsigned int i, lone = 0;

	pair_init(&p, 5);
	for (i = 0; i < 200000; i++) {
		unsigned long op = gsl_rng_uniform_int(p.rng, 8);

		if (i % 1000 == 999)
			cal_reshift(&p.cal, next_shift(p.cal.shift));
		lone += cal__lone(&p.cal);
		if (p.nr_pending >= 3 || (op >= 4 && op < 7))
			pair_pop(&p);
		else if (op < 3)
			pair_push(&p);
		else if (op < 4)
			pair_push_key(&p);
		else
			pair_remove(&p);
	}
	ck_assert_uint_gt(lone, 2000);
	while (p.nr_pending)
		pair_pop(&p);
	pair_pop(&p);
	pair_free(&p);
}
END_TEST

/*
 * Seqs near the overflow keys' 40-bit limit: pushes past the window
 * draw past it, the calendar renumbers its pending events, and the
 * order (which the reference keeps with its own counter) does not move.
 * 2^40 - 5000: the limit is crossed early in the run.
 */
START_TEST(calendar_order_across_renumber)
{
	struct pair p;
	unsigned int i;

	pair_init(&p, 4);
	p.cal.seq = (1ull << 40) - 5000;
	for (i = 0; i < 20000; i++) {
		unsigned long op = gsl_rng_uniform_int(p.rng, 3);

		if (op == 0)
			pair_pop(&p);
		else
			pair_push(&p);
	}
	ck_assert_uint_lt(p.cal.seq, 1ull << 40);
	while (p.nr_pending)
		pair_pop(&p);
	pair_free(&p);
}
END_TEST

static Suite *calendar_suite(void)
{
	Suite *s = suite_create("calendar");
	TCase *tc = tcase_create("order");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, calendar_order_as_heap);
	tcase_add_test(tc, calendar_order_as_heap_dense);
	tcase_add_test(tc, calendar_order_as_heap_flat);
	tcase_add_test(tc, calendar_order_across_reshift);
	tcase_add_test(tc, calendar_order_lone);
	tcase_add_test(tc, calendar_order_across_renumber);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(calendar_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
