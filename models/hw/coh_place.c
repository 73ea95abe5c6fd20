// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/hw/coh_place.c - creating and freeing the memory system and its
 * CPUs, placing lines and objects in the simulated address space (memory
 * accounting, the line hash), the statistics of lines and callers, and
 * the drawn service times; out of models/hw/cache.c, which keeps the
 * coherence rules and their hot path (a file holds at most 1,500 lines).
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

#define COH_CHUNK (64u << 10) /* bytes of lines allocated at once */
#define COH_RESERVE (1u << 20)

/* ---- the memory system ---- */

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
			c->cpus[i].smt_slowdown_1024 = m->smt_slowdown_1024;
			break;
		}
	}
}

struct coh *coh_create(const struct machine *m, struct sim_engine *e)
{
	struct coh *c = calloc(1, sizeof(*c));
	bool xfer_zero = false;

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
	c->spare->owner = -1;
	c->spare->home = -1;
	c->spare->last_to = -1;
	c->spare->last_holder = -2;
	snprintf(c->spare->name, sizeof(c->spare->name), "(out of memory)");
	c->next_addr = 0x100000;
	c->inline_cpu = INLINE_NONE;
	c->hold = m->handoff == COH_HANDOFF_HOLD;
	c->hold_ps = c->hold ? m->hold_ps : 0;
	c->no_ann = c->hold || m->adjacent_line_prefetch;
	c->log_bytes = COH_LOG_BYTES;
	c->machine_plain = !c->hold && !m->service_cv_1024 &&
			   m->occupancy_1024 == 1024 && !xfer_zero;
	coh_plain_update(c);
	smt_siblings_link(c);
	return c;
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
	free(c->ann_first);
	line_free(c->spare);
	free(c->spare);
	free(c->spare_obj);
	free(c->reserve);
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
	return cc;
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

/* Count an access for its caller (explain's runs only: out of the way). */
void coh__count_caller(struct coh_cpu *cc, struct coh_field_stat *fs,
		       enum coh_op op)
{
	cc->caller_stat = coh_caller_slot(fs, cc->caller(cc->prof));
	cc->caller_stat->ops[op]++;
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

/**
 * coh_set_mem_limit() - refuse to grow past @bytes of lines and objects.
 * @c: the memory system, before its first object
 * @bytes: the limit; 0 for none
 */
void coh_set_mem_limit(struct coh *c, uint64_t bytes)
{
	c->mem_limit = bytes;
}

/**
 * coh_mem() - the bytes of lines and objects placed so far.
 * @c: the memory system
 *
 * Return: the bytes, up to the limit once coh_failed().
 */
uint64_t coh_mem(const struct coh *c)
{
	return c->mem;
}

/**
 * coh_failed() - whether placing lines and objects has failed.
 * @c: the memory system
 *
 * Return: 0; EFBIG when they would pass the coh_set_mem_limit() limit;
 * ENOMEM when an allocation failed. A failed coh has handed out a spare
 * line and object in place of the new ones: it must not run.
 */
int coh_failed(const struct coh *c)
{
	return c->failed;
}

/* ---- lines and objects ---- */

static void hash_insert(struct coh *c, struct coh_line *l)
{
	unsigned int i = coh_hash_slot(c, l->addr);

	while (c->hash[i])
		i = (i + 1) & (c->hash_cap - 1);
	c->hash[i] = l;
}

/* The coh has failed for @why (EFBIG, ENOMEM): keep the first reason. */
static void coh_fail(struct coh *c, int why)
{
	if (!c->failed)
		c->failed = why;
	if (why == ENOMEM) {
		free(c->reserve);
		c->reserve = NULL;
	}
}

/*
 * Account @bytes more; false (and the coh failed with EFBIG) when that
 * passes the limit.
 */
static bool mem_charge(struct coh *c, size_t bytes)
{
	if (c->mem_limit && c->mem + bytes > c->mem_limit) {
		coh_fail(c, EFBIG);
		return false;
	}
	c->mem += bytes;
	return true;
}

static struct coh_line *line_failed(struct coh *c, int why)
{
	coh_fail(c, why);
	return c->spare;
}

/*
 * line_alloc() - a zeroed line of @size bytes, or NULL. Lines are carved
 * from chunks of COH_CHUNK bytes at multiples of 64 bytes, so that the
 * hot fields of each (the first 64 bytes of struct coh_line, cache.h)
 * are one host cache line. Rounded to 64 bytes a line takes what
 * calloc() took with its header and 16-byte rounding (+ 0..48 bytes),
 * without a call per line; the chunks are freed with the coh.
 */
static struct coh_line *line_alloc(struct coh *c, size_t size)
{
	size_t stride = (size + COH_LINE_SIZE - 1) &
			~(size_t)(COH_LINE_SIZE - 1);
	struct coh_line *l;

	if (stride > c->chunk_left) {
		size_t bytes = stride > COH_CHUNK ? stride : COH_CHUNK;
		unsigned int cap;
		void *p, **grown;

		if (c->nr_chunks == c->cap_chunks) {
			cap = c->cap_chunks ? 2 * c->cap_chunks : 16;
			grown = realloc(c->chunks, cap * sizeof(*grown));
			if (!grown)
				return NULL;
			c->chunks = grown;
			c->cap_chunks = cap;
		}
		p = aligned_alloc(COH_LINE_SIZE, bytes);
		if (!p)
			return NULL;
		c->chunks[c->nr_chunks++] = p;
		c->chunk = p;
		c->chunk_left = bytes;
	}
	l = (struct coh_line *)(void *)c->chunk;
	c->chunk += stride;
	c->chunk_left -= stride;
	memset(l, 0, size);
	return l;
}

/*
 * The line at @addr, created if need be. SIM: once the memory limit is
 * passed or an allocation fails, every new line is the one spare line and
 * the coh is failed (coh_failed()): setup goes on harmlessly, and the run
 * is refused before it starts, instead of aborting here.
 */
static struct coh_line *line_get(struct coh *c, uint64_t addr, const char *obj,
				 uint64_t obj_line)
{
	struct coh_line *l = coh_line_find(c, addr), **grown, **hash;
	size_t size = sizeof(*l) + c->sharer_words * sizeof(uint64_t);
	unsigned int i, cap;

	if (l)
		return l;
	if (c->failed || !mem_charge(c, size))
		return line_failed(c, EFBIG);
	l = line_alloc(c, size);
	if (!l)
		return line_failed(c, ENOMEM);
	l->addr = addr;
	l->owner = -1;
	l->home = -1;
	l->last_to = -1;
	l->last_holder = -2;
	snprintf(l->name, sizeof(l->name), "%s line %llu", obj,
		 (unsigned long long)((addr - obj_line) / COH_LINE_SIZE));
	if (c->nr_lines == c->cap_lines) {
		cap = c->cap_lines ? 2 * c->cap_lines : 64;
		grown = realloc(c->lines, cap * sizeof(*c->lines));
		if (!grown) /* @l is freed with its chunk */
			return line_failed(c, ENOMEM);
		c->lines = grown;
		c->cap_lines = cap;
	}
	if (2 * (c->nr_lines + 1) > c->hash_cap) {
		hash = calloc(2 * c->hash_cap, sizeof(*c->hash));
		if (!hash) /* as above */
			return line_failed(c, ENOMEM);
		free(c->hash);
		c->hash = hash;
		c->hash_cap *= 2;
		for (i = 0; i < c->nr_lines; i++)
			hash_insert(c, c->lines[i]);
	}
	l->index = c->nr_lines;
	c->lines[c->nr_lines++] = l;
	hash_insert(c, l);
	return l;
}

static uint8_t line_add_field(struct coh *c, struct coh_line *l,
			      const char *obj, const char *field)
{
	struct coh_field_stat *fs;
	unsigned int cap;

	if (l->nr_fields == COH_LINE_FIELDS)
		return COH_LINE_FIELDS - 1; /* SIM: the rest share a slot */
	if (l->nr_fields == l->cap_fields) {
		coh_stats_flush(c); /* c->touches point into l->fields */
		cap = l->cap_fields ? 2 * l->cap_fields : 2;
		fs = NULL;
		if (l == c->spare ||
		    mem_charge(c, (cap - l->cap_fields) * sizeof(*fs)))
			fs = realloc(l->fields, cap * sizeof(*fs));
		if (!fs) {
			/* Failed: the run is refused before it starts. */
			coh_fail(c, c->failed ? c->failed : ENOMEM);
			return 0;
		}
		l->fields = fs;
		l->cap_fields = cap;
	}
	fs = &l->fields[l->nr_fields];
	memset(fs, 0, sizeof(*fs));
	snprintf(fs->name, sizeof(fs->name), "%s.%s", obj, field);
	return (uint8_t)l->nr_fields++;
}

/*
 * Once the coh has failed: the one spare object, every field on the spare
 * line, grown to @layout's fields. Only its last resort, an allocation of
 * a few bytes per field of the largest layout, can still abort.
 */
static struct coh_object *spare_object(struct coh *c, const char *name,
				       const struct coh_layout *layout)
{
	struct coh_object *obj = c->spare_obj;
	unsigned int i;

	if (!obj || layout->nr_fields > c->spare_obj_fields) {
		obj = realloc(c->spare_obj,
			      sizeof(*obj) + layout->nr_fields *
						     sizeof(obj->fields[0]));
		SIM_OOM_ON(!obj);
		c->spare_obj = obj;
		c->spare_obj_fields = layout->nr_fields;
	}
	snprintf(obj->name, sizeof(obj->name), "%s", name);
	obj->base = c->spare->addr;
	obj->layout = layout;
	for (i = 0; i < layout->nr_fields; i++) {
		obj->fields[i].line = c->spare;
		obj->fields[i].slot = 0;
	}
	return obj;
}

struct coh_object *coh_object_create(struct coh *c, const char *name,
				     const struct coh_layout *layout,
				     unsigned int offset_in_line)
{
	struct coh_object *obj, **objs;
	uint64_t line0;
	unsigned int i, cap;
	size_t size;

	SIM_BUG_ON(offset_in_line >= COH_LINE_SIZE);
	size = sizeof(*obj) + layout->nr_fields * sizeof(struct coh_field);
	obj = NULL;
	if (!c->failed && mem_charge(c, size)) {
		obj = calloc(1, size);
		if (!obj)
			coh_fail(c, ENOMEM);
	}
	if (!obj)
		return spare_object(c, name, layout);
	snprintf(obj->name, sizeof(obj->name), "%s", name);
	line0 = (c->next_addr + COH_LINE_SIZE - 1) &
		~(uint64_t)(COH_LINE_SIZE - 1);
	obj->base = line0 + offset_in_line;
	obj->layout = layout;
	c->next_addr = obj->base + (layout->size ? layout->size : 1);
	for (i = 0; i < layout->nr_fields; i++) {
		const struct coh_layout_field *lf = &layout->fields[i];
		uint64_t addr = obj->base + lf->offset;
		struct coh_line *l;

		/* SIM: a field straddling two lines is counted on its first. */
		l = line_get(c, addr & ~(uint64_t)(COH_LINE_SIZE - 1),
			     obj->name, line0);
		obj->fields[i].line = l;
		obj->fields[i].slot = line_add_field(c, l, obj->name, lf->name);
	}
	if (c->nr_objs == c->cap_objs) {
		cap = c->cap_objs ? 2 * c->cap_objs : 16;
		objs = realloc(c->objs, cap * sizeof(*c->objs));
		if (!objs) {
			free(obj);
			coh_fail(c, ENOMEM);
			return spare_object(c, name, layout);
		}
		c->objs = objs;
		c->cap_objs = cap;
	}
	c->objs[c->nr_objs++] = obj;
	return obj;
}

/* ---- statistics ---- */

/* A line's first transfer: its xfer_to[] (xfer_to_count()). */
void coh__xfer_to_alloc(struct coh *c, struct coh_line *l)
{
	l->xfer_to = calloc(c->nr_cpus, sizeof(*l->xfer_to));
	SIM_OOM_ON(!l->xfer_to);
	c->xfer_bytes += c->nr_cpus * sizeof(*l->xfer_to);
	if (c->xfer_bytes >= c->log_bytes)
		c->log_stats = true;
}

void coh_set_log_bytes(struct coh *c, size_t bytes)
{
	c->log_bytes = bytes;
	c->log_stats = c->xfer_bytes >= bytes;
}

/*
 * coh_stats_flush() - count the statistics logged in c->xfers and
 * c->touches (coh_priv.h): loops of independent updates, whose misses of
 * the host overlap, where counting each at its access waited for one.
 */
void coh_stats_flush(struct coh *c)
{
	unsigned int i;

	for (i = 0; i < c->nr_xfers; i++)
		(*c->xfers[i])++;
	c->nr_xfers = 0;
	for (i = 0; i < c->nr_touches; i++)
		*c->touches[i].word |= c->touches[i].bit;
	c->nr_touches = 0;
}

/*
 * coh__stats_settle() - the statistics of every line up to date, for a
 * reader (coh_settle(), coh_lines_sorted()): the logs counted, and each
 * field's count of the CPUs that accessed it (which the hot path does not
 * keep: only their bitmap).
 */
void coh__stats_settle(struct coh *c)
{
	unsigned int i, j, w;

	coh_stats_flush(c);
	for (i = 0; i < c->nr_lines; i++) {
		struct coh_line *l = c->lines[i];

		for (j = 0; j < l->nr_fields; j++) {
			struct coh_field_stat *fs = &l->fields[j];

			fs->nr_cpus = 0;
			for (w = 0; w < MACHINE_MAX_CPUS / 64; w++)
				fs->nr_cpus +=
					(unsigned int)__builtin_popcountll(
						fs->cpus[w]);
		}
	}
}

void coh_stats_reset(struct coh *c)
{
	unsigned int i, j;

	/*
	 * before the reset too: a line with transfers then and none since
	 * reports its zeros, as when each hand-off counted its own
	 */
	coh_stats_flush(c);
	for (i = 0; i < c->nr_lines; i++) {
		struct coh_line *l = c->lines[i];

		memset(l->ops, 0, sizeof(l->ops));
		l->hits = l->misses = l->merged = l->transfers = 0;
		memset(l->xfer_by_dist, 0, sizeof(l->xfer_by_dist));
		if (l->xfer_to)
			memset(l->xfer_to, 0, c->nr_cpus * sizeof(*l->xfer_to));
		l->wait_ps = l->busy_ps = 0;
		for (j = 0; j < l->nr_fields; j++) {
			memset(l->fields[j].ops, 0, sizeof(l->fields[j].ops));
			l->fields[j].misses = 0;
			l->fields[j].wait_ps = 0;
			l->fields[j].nr_cpus = 0;
			memset(l->fields[j].cpus, 0, sizeof(l->fields[j].cpus));
			if (l->fields[j].callers)
				memset(l->fields[j].callers, 0,
				       COH_FIELD_CALLERS *
					       sizeof(*l->fields[j].callers));
		}
	}
	for (i = 0; i < c->nr_cpus; i++)
		c->cpus[i].wait_ps = 0;
}

struct coh_caller_stat *coh_caller_slot(struct coh_field_stat *fs,
					unsigned int caller)
{
	struct coh_caller_stat *cs;
	unsigned int i;

	if (!fs->callers) {
		fs->callers = calloc(COH_FIELD_CALLERS, sizeof(*fs->callers));
		SIM_OOM_ON(!fs->callers);
	}
	cs = fs->callers;
	for (i = 0; i < COH_FIELD_CALLERS - 1; i++, cs++)
		if (cs->id == caller + 1 || !cs->id)
			break;
	if (!cs->id)
		cs->id = caller + 1;
	else if (cs->id != caller + 1)
		cs->id = COH_CALLER_MIXED;
	return cs;
}

unsigned int coh_nr_lines(const struct coh *c)
{
	return c->nr_lines;
}

unsigned int coh_nr_cpus(const struct coh *c)
{
	return c->nr_cpus;
}

static int line_cmp(const void *a, const void *b)
{
	const struct coh_line *x = *(struct coh_line *const *)a;
	const struct coh_line *y = *(struct coh_line *const *)b;

	if (x->busy_ps != y->busy_ps)
		return x->busy_ps > y->busy_ps ? -1 : 1;
	if (x->transfers != y->transfers)
		return x->transfers > y->transfers ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return 0;
}

void coh_lines_sorted(struct coh *c, struct coh_line **out, unsigned int n)
{
	struct coh_line **all = malloc(c->nr_lines * sizeof(*all) + 1);
	unsigned int i;

	SIM_OOM_ON(!all);
	coh__stats_settle(c);
	memcpy(all, c->lines, c->nr_lines * sizeof(*all));
	qsort(all, c->nr_lines, sizeof(*all), line_cmp);
	for (i = 0; i < n && i < c->nr_lines; i++)
		out[i] = all[i];
	free(all);
}

/* c->ann_first[] to hold line @index (coh_rmw_announce()). */
void coh__ann_grow(struct coh *c, unsigned int index)
{
	unsigned int cap = c->cap_lines > index ? c->cap_lines : index + 1;
	struct coh_cpu **a = realloc(c->ann_first, cap * sizeof(*a));

	SIM_OOM_ON(!a);
	memset(a + c->cap_ann, 0, (cap - c->cap_ann) * sizeof(*a));
	c->ann_first = a;
	c->cap_ann = cap;
}
