// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/hw/coh_create.c - creating and freeing the memory system and its
 * CPUs: the CPUs' keys and the distance sets the hand-offs of Shared
 * lines use (keys_build(), within_build()), and the drawn service times
 * (coh__service_lat()).
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/cache.h"
#include "models/hw/coh_priv.h"
#include "sim/error.h"

#define COH_RESERVE (1u << 20)

static uint32_t *keys_build(const struct machine *m);
static uint64_t *within_build(const struct machine *m, const uint32_t *keys,
			      unsigned int words, bool *xfer_zero);

/*
 * smt_siblings_link() - with a profile whose smt_slowdown is above 1,
 * point each CPU at the other thread of its core. SIM: with more than
 * two threads a core, the next one of the core, in CPU order.
 */
static void smt_siblings_link(struct coh *c)
{
	const struct machine *m = c->m;
	unsigned int i, j;

	if (m->threads_per_core < 2 || m->smt_slowdown_1024 <= 1024)
		return;
	for (i = 0; i < c->nr_cpus; i++) {
		for (j = 1; j < c->nr_cpus; j++) {
			unsigned int k = (i + j) % c->nr_cpus;

			if (m->cpus[k].core != m->cpus[i].core)
				continue;
			c->cpus[i].smt_sibling = &c->cpus[k];
			c->cpus[k].smt_of = &c->cpus[i];
			c->cpus[i].smt_slowdown_1024 = m->smt_slowdown_1024;
			break;
		}
	}
}

struct coh *coh_create(const struct machine *m, struct sim_engine *e)
{
	struct coh *c = calloc(1, sizeof(*c));
	bool xfer_zero = false;
	unsigned int i;

	SIM_OOM_ON(!c);
	c->m = m;
	c->e = e;
	c->nr_cpus = m->nr_cpus;
	c->sharer_words = (m->nr_cpus + 63) / 64;
	/* struct coh_cpu is aligned to 64 bytes, and so its size */
	c->cpus = aligned_alloc(_Alignof(struct coh_cpu),
				m->nr_cpus * sizeof(*c->cpus));
	if (c->cpus)
		memset(c->cpus, 0, m->nr_cpus * sizeof(*c->cpus));
	c->cpu_key = keys_build(m);
	c->within = c->cpu_key ? within_build(m, c->cpu_key, c->sharer_words,
					      &xfer_zero) :
				 NULL;
	c->hash_cap = 1024;
	c->hash = calloc(c->hash_cap, sizeof(*c->hash));
	c->spare = calloc(1, sizeof(*c->spare) +
				     c->sharer_words * sizeof(uint64_t));
	/*
	 * SIM: a reserve given back when an allocation fails, so that the
	 * few small ones until the run is refused (the spare object) and
	 * the error message itself still succeed.
	 */
	c->reserve = malloc(COH_RESERVE);
	SIM_OOM_ON(!c->cpus || !c->within || !c->hash || !c->spare ||
		   !c->reserve);
	for (i = 0; i < m->nr_cpus; i++)
		c->cpus[i].machine = m;
	c->spare->owner = -1;
	c->spare->home = -1;
	c->spare->last_to = -1;
	c->spare->last_holder = -2;
	snprintf(c->spare->name, sizeof(c->spare->name), "(out of memory)");
	c->next_addr = 0x100000;
	c->inline_cpu = INLINE_NONE;
	c->hold = m->handoff == COH_HANDOFF_HOLD;
	c->hold_ps = c->hold ? m->hold_ps : 0;
	c->conflict_ps[0] = m->conflict_remote_ps;
	c->conflict_ps[1] = m->conflict_local_ps;
	c->read_service = m->read_service;
	c->rob_ps = (sim_time_t)m->rob_uops * m->insn_ps;
	c->no_ann = c->hold;
	c->log_bytes = COH_LOG_BYTES;
	c->machine_plain = !c->hold && !m->service_cv_1024 &&
			   m->occupancy_1024 == 1024 && !xfer_zero;
	c->shortcuts_on = true;
	coh_plain_update(c);
	smt_siblings_link(c);
	return c;
}

void coh_set_shortcuts(struct coh *c, bool on)
{
	c->shortcuts_on = on;
	if (!on)
		c->no_ann = true;
	coh_plain_update(c);
}

void coh_cpu_allow_resume(struct coh_cpu *cc)
{
	cc->resume_inline = cc->coh->shortcuts_on;
	cc->ann_line = NULL; /* set with resume_inline only: see there */
}

/* What @l points to; the line itself is in a chunk (line_alloc()). */
static void line_free(struct coh_line *l)
{
	unsigned int j;

	if (!l)
		return;
	sim_timer_destroy(&l->serve_timer); /* a no-op if never set up */
	free(l->q);
	free(l->q_last);
	free(l->xfer_to);
	for (j = 0; j < l->nr_fields; j++)
		free(l->fields[j].callers);
	free(l->fields);
}

void coh_free(struct coh *c)
{
	unsigned int i;

	if (!c)
		return;
	for (i = 0; i < c->nr_lines; i++)
		line_free(c->lines[i]);
	for (i = 0; i < c->nr_chunks; i++)
		free(c->chunks[i]);
	free(c->chunks);
	free(c->ann);
	free(c->log_lines);
	line_free(c->spare);
	free(c->spare);
	free(c->spare_obj);
	free(c->reserve);
	free(c->pcpu_next);
	free(c->cold_free);
	for (i = 0; i < c->nr_objs; i++)
		free(c->objs[i]);
	free(c->lines);
	free(c->trace_lines);
	free(c->hash);
	free(c->objs);
	free(c->cpus);
	free(c->within);
	free(c->cpu_key);
	free(c);
}

const struct machine *coh_machine(const struct coh *c)
{
	return c->m;
}

struct sim_engine *coh_engine(const struct coh *c)
{
	return c->e;
}

struct coh_cpu *coh_cpu_attach(struct coh *c, unsigned int cpu,
			       struct sim_proc *p)
{
	struct coh_cpu *cc = &c->cpus[cpu];

	SIM_BUG_ON(cpu >= c->nr_cpus);
	cc->coh = c;
	cc->proc = p;
	cc->cpu = (uint16_t)cpu; /* < MACHINE_MAX_CPUS, checked above */
	cc->resume_inline = false; /* the new process has not promised it */
	cc->ann_line = NULL; /* coh_rmw_announce() then needs no test of it */
	coh_cpu_smt_update(cc);
	return cc;
}

void coh_cpu_count_callers(struct coh_cpu *cc,
			   unsigned int (*caller)(const struct kprof *prof))
{
	cc->caller = caller;
	/*
	 * An announced RMW is made where its caller is not known: none then,
	 * for any CPU, which spares coh_rmw_announce_co() a test of its own
	 * (every CPU of a run counts callers, or none does).
	 */
	if (caller) {
		cc->coh->no_ann = true;
		ann_room_update(cc->coh);
	}
}

struct coh_cpu *coh_cpu(struct coh *c, unsigned int cpu)
{
	SIM_BUG_ON(cpu >= c->nr_cpus);
	return &c->cpus[cpu];
}

/* keys_build() - struct coh's cpu_key[] for machine @m; NULL: no memory. */
static uint32_t *keys_build(const struct machine *m)
{
	uint32_t *k = calloc(m->nr_cpus, sizeof(*k));
	unsigned int i;

	for (i = 0; k && i < m->nr_cpus; i++)
		k[i] = machine_cpu_key(&m->cpus[i]);
	return k;
}

/*
 * within_build() - struct coh's within[] for machine @m, from
 * machine_dist() itself: nr_cpus^2 distances once (a million at 1024
 * CPUs, a few ms), 3 bitmaps per CPU (384 KiB at 1024 CPUs). On the way,
 * every pair's machine_key_dist() from @keys is checked against it, and
 * *@xfer_zero
 * set if a transfer between two CPUs can cost 0. NULL when out of memory.
 */
static uint64_t *within_build(const struct machine *m, const uint32_t *keys,
			      unsigned int words, bool *xfer_zero)
{
	uint64_t *w =
		calloc((size_t)m->nr_cpus * COH_DIST_DIE * words, sizeof(*w));
	unsigned int a, b, d;

	if (!w)
		return NULL;
	for (a = 0; a < m->nr_cpus; a++) {
		for (b = 0; b < m->nr_cpus; b++) {
			enum coh_dist dist = machine_dist(m, a, b);

			SIM_BUG_ON(a != b &&
				   dist != machine_key_dist(keys[a] ^ keys[b]));
			if (dist != COH_DIST_SELF &&
			    (!m->xfer_ps[dist] ||
			     (dist == COH_DIST_SOCKET &&
			      !m->xfer_socket_remote_home_ps)))
				*xfer_zero = true;
			if (dist == COH_DIST_SELF || dist == COH_DIST_SOCKET)
				continue;
			for (d = dist; d <= COH_DIST_DIE; d++)
				w[((size_t)a * COH_DIST_DIE + d - COH_DIST_SMT) *
					  words +
				  b / 64] |= 1ull << (b % 64);
		}
	}
	return w;
}

/*
 * service_draw() - with service_cv c > 0, the factor a hand-off's time is
 * multiplied by: 1 - c + c E, E exponential with mean 1, so the mean is
 * kept and the coefficient of variation is c (c = 1: exponential service,
 * the memoryless queue). The draw is a hash of the line and its hand-off
 * count, so runs repeat exactly. SIM: the hardware's variance (conflict
 * retries, mesh and UPI contention) is not modelled as such; this only
 * gives it a measured size.
 */
static double service_draw(const struct machine *m, const struct coh_line *l)
{
	uint64_t x = l->addr * 0x9e3779b97f4a7c15ull + l->transfers;
	double u, cv = m->service_cv_1024 / 1024.0;

	/* splitmix64 */
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	x ^= x >> 31;
	u = (double)(x >> 11) / 9007199254740992.0; /* [0, 1) */
	return 1.0 - cv + cv * -log1p(-u);
}

/* A hand-off's time drawn around @lat (service_draw()): out of the way. */
sim_time_t coh__service_lat(const struct machine *m, const struct coh_line *l,
			    sim_time_t lat)
{
	return (sim_time_t)(lat * service_draw(m, l) + 0.5);
}
