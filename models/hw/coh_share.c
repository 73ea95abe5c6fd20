// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/hw/coh_share.c - the Shared state of the coherence model: the
 * sharer bitmaps of a line, its nearest and farthest sharer from a CPU,
 * and the hand-offs that read or end the Shared state (a load; a store
 * or RMW of a line CPUs share). See models/hw/cache.h for the rules and
 * coh_serve.h's hand_off(), which calls these two: the contended line's
 * usual hand-off, a store or RMW of a line Modified elsewhere, stays
 * inline there (doc/speed.md).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "models/hw/cache.h"
#include "models/hw/coh_priv.h"

static inline void sharer_set(struct coh *c, struct coh_line *l,
			      unsigned int cpu)
{
	if (!sharer_test(l, cpu)) {
		l->sharers[cpu / 64] |= 1ull << (cpu % 64);
		l->nr_sharers++;
	}
}

static void sharers_clear(struct coh *c, struct coh_line *l)
{
	memset(l->sharers, 0, c->sharer_words * sizeof(uint64_t));
	l->nr_sharers = 0;
}

/* The bitmap of the CPUs other than @cpu within distance @d (SMT..DIE). */
static inline const uint64_t *within(const struct coh *c, unsigned int cpu,
				     enum coh_dist d)
{
	return &c->within[((size_t)cpu * COH_DIST_DIE + d - COH_DIST_SMT) *
			  c->sharer_words];
}

/*
 * first_of() - the lowest CPU in @a & @b & ~@c (@b, @c may be NULL: all
 * ones, none) of @words words, except @cpu; -1 if none. Inline: each
 * call site's @b and @c fold away (a call cost 10 instructions of 40).
 */
static COH_INLINE int first_of(const uint64_t *a, const uint64_t *b,
			       const uint64_t *c, unsigned int words,
			       unsigned int cpu)
{
	unsigned int w;

	for (w = 0; w < words; w++) {
		uint64_t bits = a[w] & (b ? b[w] : ~0ull) & (c ? ~c[w] : ~0ull);

		if (w == cpu / 64)
			bits &= ~(1ull << (cpu % 64));
		if (bits)
			return (int)(w * 64 + __builtin_ctzll(bits));
	}
	return -1;
}

/*
 * sharer_dist() - the nearest (@far false) or farthest (@far true) sharer
 * of @l from @cpu, @cpu itself excluded: its distance class, and in *@who
 * the lowest-numbered sharer at that distance (*@who unchanged, and
 * COH_DIST_SOCKET near or COH_DIST_SELF far, when there is none). By
 * class, nearest or farthest first, against the bitmaps of the CPUs
 * within each distance (c->within): a few words per class where asking
 * machine_dist() of every sharer took 15 instructions a sharer, on lines
 * hundreds of CPUs read (doc/speed.md). The same answer: the lowest CPU of the
 * first class with a sharer.
 */
static enum coh_dist sharer_dist(struct coh *c, const struct coh_line *l,
				 unsigned int cpu, bool far, unsigned int *who)
{
	unsigned int words = c->sharer_words;
	int s, d;

	if (!far) {
		/* within SMT, then LLC, then DIE, then any: across sockets */
		s = -1;
		for (d = COH_DIST_SMT; s < 0 && d <= COH_DIST_DIE; d++)
			s = first_of(l->sharers, within(c, cpu, d), NULL, words,
				     cpu);
		if (s >= 0)
			d--; /* the class it was found in */
		else
			s = first_of(l->sharers, NULL, NULL, words, cpu);
		if (s < 0)
			return COH_DIST_SOCKET;
	} else {
		/* across sockets (not within DIE), then DIE, LLC, SMT */
		s = first_of(l->sharers, NULL, within(c, cpu, COH_DIST_DIE),
			     words, cpu);
		d = COH_DIST_SOCKET;
		while (s < 0 && --d >= COH_DIST_SMT)
			s = first_of(l->sharers, within(c, cpu, d),
				     d > COH_DIST_SMT ? within(c, cpu, d - 1) :
							NULL,
				     words, cpu);
		if (s < 0)
			return COH_DIST_SELF;
	}
	*who = (unsigned int)s;
	return (enum coh_dist)d;
}

/*
 * socket_upgrade() - the upgrade by @cpu of @l, which @who (the lowest
 * sharer on another socket) and maybe others share: priced by the
 * farthest socket holding a copy, by the profile's socket_distances (on
 * a 2-socket machine, the one other socket: @who's).
 */
static sim_time_t socket_upgrade(const struct coh *c, const struct coh_line *l,
				 unsigned int cpu, unsigned int who)
{
	const struct machine *m = c->m;
	unsigned int me = m->cpus[cpu].socket, far = m->cpus[who].socket;
	unsigned int w;

	for (w = 0; m->socket_matrix && w < c->sharer_words; w++) {
		uint64_t bits = l->sharers[w];

		while (bits) {
			unsigned int s =
				m->cpus[w * 64 + __builtin_ctzll(bits)].socket;

			if (m->socket_xfer_ps[s][me] >
			    m->socket_xfer_ps[far][me])
				far = s;
			bits &= bits - 1;
		}
	}
	return m->socket_upgrade_ps[far][me];
}

/* hand_off() for a load; see there. */
sim_time_t coh__hand_off_read(struct coh *c, struct coh_line *l,
			      unsigned int cpu, enum coh_dist *dist)
{
	const struct machine *m = c->m;
	unsigned int who = 0;
	sim_time_t lat;

	*dist = COH_DIST_SELF;
	if (l->owner == (int)cpu || sharer_test(l, cpu))
		return m->l1_hit_ps;
	if (l->owner >= 0) {
		/* M -> S at the old owner, S at the requester. */
		lat = xfer(c, l, (unsigned int)l->owner, cpu, dist);
		sharer_set(c, l, l->owner);
		l->owner = -1;
		sharer_set(c, l, cpu);
		return lat;
	}
	if (l->nr_sharers) {
		sharer_dist(c, l, cpu, false, &who);
		lat = xfer(c, l, who, cpu, dist);
		sharer_set(c, l, cpu);
		return lat;
	}
	/* Nobody holds it: from memory (its home node's), Exclusive. */
	*dist = NR_COH_DIST;
	l->owner = cpu;
	return memory_from(c, l->home, cpu);
}

/*
 * hand_off() for a store or RMW (@op) of a line that CPUs share; see
 * there. The requester takes it Modified.
 */
sim_time_t coh__hand_off_shared(struct coh *c, struct coh_line *l,
				unsigned int cpu, enum coh_op op,
				enum coh_dist *dist)
{
	const struct machine *m = c->m;
	unsigned int others, who = 0;
	sim_time_t lat;

	*dist = COH_DIST_SELF;
	others = l->nr_sharers - (sharer_test(l, cpu) ? 1 : 0);
	if (!others) {
		/* The only sharer upgrades in place. */
		lat = op == COH_RMW ? m->rmw_local_ps : m->l1_hit_ps;
	} else if (sharer_test(l, cpu)) {
		/*
		 * A sharer upgrades: the home invalidates the other copies
		 * and grants ownership (perfbook's load-then-CAS against a
		 * blind CAS), priced by the farthest one.
		 */
		*dist = sharer_dist(c, l, cpu, true, &who);
		lat = *dist == COH_DIST_SOCKET ?
			      socket_upgrade(c, l, cpu, who) :
			      m->upgrade_ps[*dist];
		lat += (others - 1) * m->inval_per_sharer_ps;
	} else {
		sharer_dist(c, l, cpu, true, &who);
		lat = xfer(c, l, who, cpu, dist) +
		      (others - 1) * m->inval_per_sharer_ps;
	}
	sharers_clear(c, l);
	l->owner = cpu;
	return lat;
}
