// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/hw/coh_place.c - placing lines and objects in the simulated
 * address space: the line hash, the chunks lines are carved from, the
 * memory accounting that makes a huge scenario an error, and objects
 * with their fields on lines (coh_object_create()).
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
 * pair_mark() - with the spatial prefetcher on, mark new line @l and the
 * other line of its 128-byte pair when that one is placed: the
 * prefetcher couples them, whichever objects they belong to. The
 * allocators' placement (coh_object_place()) decides which lines pair:
 * lines of one object, and one CPU's per-CPU copies packed side by side
 * in its unit; never a per-CPU copy with global data or another CPU's.
 */
static void pair_mark(struct coh *c, struct coh_line *l)
{
	struct coh_line *pair;

	if (!c->m->adjacent_line_prefetch)
		return;
	pair = coh_line_find(c, l->addr ^ COH_LINE_SIZE);
	if (pair)
		l->pair_prefetch = pair->pair_prefetch = true;
}

/*
 * name_add() - append @s to the name @dst of @size bytes, whose length is
 * *@len, cut as snprintf() cuts: a line and each of its fields are named
 * at creation, hundreds of thousands of them for memory.stat of 1000
 * memcgs, where snprintf()'s parsing of its format was a fifth of the run.
 */
static void name_add(char *dst, size_t size, size_t *len, const char *s)
{
	size_t n = strlen(s);

	if (*len + n >= size)
		n = size - 1 - *len;
	memcpy(dst + *len, s, n);
	*len += n;
	dst[*len] = '\0';
}

/* name_add() of the decimal digits of @v */
static void name_add_u64(char *dst, size_t size, size_t *len, uint64_t v)
{
	char digits[21], *p = digits + sizeof(digits) - 1;

	*p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	name_add(dst, size, len, p);
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
	size_t len;

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
	len = 0;
	l->name[0] = '\0';
	name_add(l->name, sizeof(l->name), &len, obj);
	name_add(l->name, sizeof(l->name), &len, " line ");
	name_add_u64(l->name, sizeof(l->name), &len,
		     (addr - obj_line) / COH_LINE_SIZE);
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
	pair_mark(c, l);
	return l;
}

static uint8_t line_add_field(struct coh *c, struct coh_line *l,
			      const char *obj, const char *field)
{
	struct coh_field_stat *fs;
	unsigned int cap;
	size_t len = 0;

	if (l->nr_fields == COH_LINE_FIELDS)
		return COH_LINE_FIELDS - 1; /* SIM: the rest share a slot */
	if (l->nr_fields == l->cap_fields) {
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
	name_add(fs->name, sizeof(fs->name), &len, obj);
	name_add(fs->name, sizeof(fs->name), &len, ".");
	name_add(fs->name, sizeof(fs->name), &len, field);
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

/*
 * The simulated address space. Global data and kmalloc from 1 MiB up
 * (coh_create()), in the order created; the per-CPU area far above it,
 * a unit of COH_PCPU_UNIT bytes a CPU (1024 units end below 2^46), each
 * unit's static data at its start and its dynamic chunk COH_PCPU_DYN
 * bytes in, so that a CPU's copies never share a line, a 128-byte pair or
 * a page with another CPU's or with global data, and dynamic areas not
 * with static ones. SIM: the real first chunk interleaves nothing either:
 * units are per CPU (mm/percpu.c pcpu_setup_first_chunk()); the sizes are
 * round, not the kernel's, as only separation matters here.
 */
#define COH_PCPU_BASE (1ull << 44)
#define COH_PCPU_UNIT (1ull << 32)
#define COH_PCPU_DYN (1ull << 31)

/* Where the next object of @at starts (aligned), and move past it. */
static uint64_t place_addr(struct coh *c, const struct coh_place *at,
			   unsigned int lsize)
{
	uint64_t align = at->align, *next = &c->next_addr, start;
	uint64_t size = at->size > at->offset + lsize ? at->size :
							at->offset + lsize;

	if (at->cpu >= 0) {
		unsigned int i, n = c->m->nr_cpus;

		if (!c->pcpu_next) {
			c->pcpu_next = calloc(2 * (size_t)n, sizeof(uint64_t));
			SIM_OOM_ON(!c->pcpu_next);
			for (i = 0; i < 2 * n; i++)
				c->pcpu_next[i] = COH_PCPU_BASE +
						  i / 2 * COH_PCPU_UNIT +
						  (i % 2 ? COH_PCPU_DYN : 0);
		}
		next = &c->pcpu_next[2 * (unsigned int)at->cpu + at->dynamic];
	}
	start = (*next + align - 1) & ~(align - 1);
	*next = start + (size ? size : 1);
	return start + at->offset;
}

/*
 * An object placed without a struct coh_place (global data, and kmalloc
 * objects whose place nothing models in detail) starts a 128-byte pair of
 * its own. SIM: a kmalloc object of 128 bytes or more is aligned at least
 * so (naturally aligned power-of-two caches); a static variable's real
 * neighbours in .data are not modelled, and are taken as cold lines
 * rather than as another modelled object.
 */
#define COH_PAIR_SIZE (2 * COH_LINE_SIZE)

struct coh_object *coh_object_create(struct coh *c, const char *name,
				     const struct coh_layout *layout,
				     unsigned int offset_in_line)
{
	struct coh_place at = { .align = COH_PAIR_SIZE, .cpu = -1 };

	SIM_BUG_ON(offset_in_line >= COH_LINE_SIZE);
	at.offset = offset_in_line;
	return coh_object_place(c, name, layout, &at);
}

struct coh_object *coh_object_place(struct coh *c, const char *name,
				    const struct coh_layout *layout,
				    const struct coh_place *at)
{
	struct coh_object *obj, **objs;
	uint64_t line0;
	unsigned int i, cap;
	size_t size;

	SIM_BUG_ON(at->align < COH_LINE_SIZE || (at->align & (at->align - 1)) ||
		   (at->cpu >= 0 && (unsigned int)at->cpu >= c->m->nr_cpus));
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
	obj->base = place_addr(c, at, layout->size);
	line0 = obj->base & ~(uint64_t)(COH_LINE_SIZE - 1);
	obj->layout = layout;
	for (i = 0; i < layout->nr_fields; i++) {
		const struct coh_layout_field *lf = &layout->fields[i];
		uint64_t addr = obj->base + lf->offset;
		struct coh_line *l;

		/* SIM: a field straddling two lines is counted on its first. */
		l = line_get(c, addr & ~(uint64_t)(COH_LINE_SIZE - 1),
			     obj->name, line0);
		obj->fields[i].line = l;
		obj->fields[i].slot = line_add_field(c, l, obj->name, lf->name);
		/* a per-CPU copy is on its CPU's node */
		if (at->cpu >= 0 && l->home < 0)
			l->home = (int)c->m->cpus[at->cpu].socket;
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
