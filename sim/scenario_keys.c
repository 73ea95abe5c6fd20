// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/scenario_keys.c - reading and describing a map's keys from their
 * table (sim/scenario_keys.h).
 *
 * Theory of operation: scenario_key_load() is a switch over the key's type
 * that calls the typed getter of sim/scenario_get.c with the table's
 * required flag, default and range, so a key read from its table refuses
 * the same input, with the same message, as the getter called by hand;
 * then it stores the value into the member the table names, at that
 * member's width. The words of `memcgsim help keys` are made here too, so
 * that the help, the man page and the tests cannot drift from the reader.
 *
 * Layering: sim/ primitive; uses sim/scenario.h only.
 */
#include <stdio.h>
#include <string.h>

#include "sim/scenario_keys.h"

const struct scenario_key *scenario_key_find(const struct scenario_key *table,
					     size_t nr, const char *name)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

size_t scenario_key_names(const struct scenario_key *table, size_t nr,
			  const char **names, size_t used, size_t max)
{
	size_t i;

	for (i = 0; i < nr && used < max; i++)
		names[used++] = table[i].name;
	return used;
}

/* SIM: one writer for members of every width a table names. */
static void key_store(const struct scenario_key *key, void *base, uint64_t v)
{
	char *p = (char *)base + key->offset;
	uint32_t v32 = (uint32_t)v;
	bool b = v != 0;

	if (key->size == sizeof(bool))
		memcpy(p, &b, sizeof(b));
	else if (key->size == sizeof(v32))
		memcpy(p, &v32, sizeof(v32));
	else if (key->size == sizeof(v))
		memcpy(p, &v, sizeof(v));
}

static uint64_t key_def(const struct scenario_key *key, const void *base,
			const void *ctx)
{
	return key->def_fn ? key->def_fn(base, ctx) : key->def;
}

static int key_read(const struct scenario_node *map,
		    const struct scenario_key *key, uint64_t def, uint64_t max,
		    uint64_t *v, struct sim_error *err)
{
	unsigned int e;
	bool b;

	switch (key->type) {
	case SCENARIO_KEY_U64:
		return scenario_u64(map, key->name, key->required, def,
				    key->min, max, v, err);
	case SCENARIO_KEY_BOOL:
		if (scenario_bool(map, key->name, key->required, def != 0, &b,
				  err))
			return -1;
		*v = b;
		return 0;
	case SCENARIO_KEY_ENUM:
		if (scenario_enum(map, key->name, key->required,
				  (unsigned int)def, key->names, key->nr_names,
				  &e, err))
			return -1;
		*v = e;
		return 0;
	case SCENARIO_KEY_TIME:
		return scenario_time_ps(map, key->name, key->required,
					key->unit_ps, def, key->min, max, v,
					err);
	case SCENARIO_KEY_SIZE:
		return scenario_size(map, key->name, key->required, def, max, v,
				     err);
	case SCENARIO_KEY_DOUBLE:
	case SCENARIO_KEY_STRING:
	case SCENARIO_KEY_CUSTOM:
		break;
	}
	return 0;
}

/**
 * scenario_key_load() - read @key of @map into its member of @base.
 * @map: the map (checked for unknown keys by the caller)
 * @key: the key's declaration
 * @base: the struct the table's offsets are into
 * @ctx: passed to @key->def_fn and @key->parse
 * @err: set on failure, at the value (or at @map for a missing key)
 *
 * Return: 0, or -1 with @err set; the member is untouched then.
 */
int scenario_key_load(const struct scenario_node *map,
		      const struct scenario_key *key, void *base,
		      const void *ctx, struct sim_error *err)
{
	uint64_t v = 0, max = key->max_fn ? key->max_fn(base, ctx) : key->max;
	const char *s;
	double d;

	if (key->type == SCENARIO_KEY_CUSTOM)
		return key->parse ? key->parse(map, key, base, ctx, err) : 0;
	if (key->type == SCENARIO_KEY_STRING) {
		if (scenario_string(map, key->name, key->required, key->def_str,
				    &s, err))
			return -1;
		if (key->size == sizeof(s))
			memcpy((char *)base + key->offset, &s, sizeof(s));
		return 0;
	}
	if (key->type == SCENARIO_KEY_DOUBLE) {
		if (scenario_double(map, key->name, key->required, key->ddef,
				    key->dmin, key->dmax, &d, err))
			return -1;
		if (key->size == sizeof(d))
			memcpy((char *)base + key->offset, &d, sizeof(d));
		return 0;
	}
	if (key_read(map, key, key_def(key, base, ctx), max, &v, err))
		return -1;
	key_store(key, base, v);
	return 0;
}

int scenario_key_get(const struct scenario_node *map,
		     const struct scenario_key *key, void *out,
		     struct sim_error *err)
{
	struct scenario_key at = *key;

	at.offset = 0;
	return scenario_key_load(map, &at, out, NULL, err);
}

int scenario_keys_load(const struct scenario_node *map,
		       const struct scenario_key *table, size_t nr, void *base,
		       const void *ctx, struct sim_error *err)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (scenario_key_load(map, &table[i], base, ctx, err))
			return -1;
	return 0;
}

void scenario_keys_defaults(const struct scenario_key *table, size_t nr,
			    void *base)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (table[i].type == SCENARIO_KEY_CUSTOM || !table[i].size)
			continue;
		if (table[i].type == SCENARIO_KEY_DOUBLE) {
			if (table[i].size == sizeof(table[i].ddef))
				memcpy((char *)base + table[i].offset,
				       &table[i].ddef, sizeof(table[i].ddef));
			continue;
		}
		if (table[i].type == SCENARIO_KEY_STRING) {
			if (table[i].size == sizeof(table[i].def_str))
				memcpy((char *)base + table[i].offset,
				       &table[i].def_str,
				       sizeof(table[i].def_str));
			continue;
		}
		key_store(&table[i], base, table[i].def);
	}
}

/* The member's size the type stores into (0: none is stored). */
static bool size_ok(const struct scenario_key *key)
{
	switch (key->type) {
	case SCENARIO_KEY_BOOL:
		return key->size <= sizeof(bool) || key->size == 4 ||
		       key->size == 8;
	case SCENARIO_KEY_ENUM:
		/* SIM: a two-valued enum may be stored as a bool */
		return key->size == 0 || key->size == 4 || key->size == 8 ||
		       (key->size == sizeof(bool) && key->nr_names == 2);
	case SCENARIO_KEY_U64:
	case SCENARIO_KEY_TIME:
	case SCENARIO_KEY_SIZE:
		return key->size == 0 || key->size == 4 || key->size == 8;
	case SCENARIO_KEY_DOUBLE:
		return key->size == 0 || key->size == sizeof(double);
	case SCENARIO_KEY_STRING:
		return key->size == 0 || key->size == sizeof(const char *);
	case SCENARIO_KEY_CUSTOM:
		return key->size == 0;
	}
	return false;
}

/* A plain default (no def_fn, no words) within the key's range. */
static bool default_ok(const struct scenario_key *key)
{
	if (key->required || key->def_fn || key->def_doc)
		return true;
	switch (key->type) {
	case SCENARIO_KEY_ENUM:
		return key->def < key->nr_names;
	case SCENARIO_KEY_BOOL:
		return key->def <= 1;
	case SCENARIO_KEY_U64:
	case SCENARIO_KEY_TIME:
		return key->def >= key->min &&
		       (key->max_fn || key->def <= key->max);
	case SCENARIO_KEY_SIZE:
		return key->def <= key->max;
	case SCENARIO_KEY_DOUBLE:
		return key->ddef >= key->dmin && key->ddef <= key->dmax;
	case SCENARIO_KEY_STRING:
	case SCENARIO_KEY_CUSTOM:
		break;
	}
	return true;
}

static const char *key_unsound(const struct scenario_key *key)
{
	size_t len = key->doc ? strlen(key->doc) : 0;

	if (!key->name || !key->name[0])
		return "no name";
	if (!len || key->doc[len - 1] == '.')
		return "no doc, or a doc ending in '.' (the help adds it)";
	if (!size_ok(key))
		return "a member size its type does not store";
	if (key->type == SCENARIO_KEY_ENUM && (!key->names || !key->nr_names))
		return "an enum without names";
	if (key->type == SCENARIO_KEY_TIME && !key->unit_ps)
		return "a duration without a unit";
	if (key->type == SCENARIO_KEY_CUSTOM && !key->form)
		return "a custom key without a form";
	if ((key->type == SCENARIO_KEY_U64 || key->type == SCENARIO_KEY_TIME) &&
	    !key->max_fn && key->min > key->max)
		return "min above max";
	if (key->max_fn && !key->max_doc)
		return "a computed maximum without max_doc";
	if (key->def_fn && !key->def_doc)
		return "a computed default without def_doc";
	if (!default_ok(key))
		return "a default out of its range";
	return NULL;
}

/**
 * scenario_keys_sound() - whether a table can be read and documented.
 * @table: the table
 * @nr: its length
 * @why: set to "KEY: what is wrong" on failure
 * @size: room in @why
 *
 * Every key has a name, given once, a doc, a member size its type stores,
 * enum names, a unit, a form, a range with min <= max and a default in
 * it (or in words), as the reader and `memcgsim help keys` need.
 *
 * Return: 0, or -1 with @why set.
 */
int scenario_keys_sound(const struct scenario_key *table, size_t nr, char *why,
			size_t size)
{
	const char *bad;
	size_t i, j;

	for (i = 0; i < nr; i++) {
		bad = key_unsound(&table[i]);
		for (j = 0; !bad && j < i; j++)
			if (!strcmp(table[i].name, table[j].name))
				bad = "declared twice";
		if (bad) {
			snprintf(why, size, "%s: %s",
				 table[i].name ? table[i].name : "?", bad);
			return -1;
		}
	}
	return 0;
}

/* ---- words for the help, the man page and the tests ---- */

const char *scenario_key_type_name(const struct scenario_key *key)
{
	static const char *const names[] = {
		[SCENARIO_KEY_U64] = "integer",
		[SCENARIO_KEY_BOOL] = "bool",
		[SCENARIO_KEY_ENUM] = "enum",
		[SCENARIO_KEY_TIME] = "duration",
		[SCENARIO_KEY_SIZE] = "size",
		[SCENARIO_KEY_DOUBLE] = "number",
		[SCENARIO_KEY_STRING] = "string",
		[SCENARIO_KEY_CUSTOM] = "custom",
	};

	if (key->type == SCENARIO_KEY_CUSTOM && key->form)
		return key->form;
	return names[key->type];
}

static const struct {
	uint64_t ps;
	const char *name;
} time_units[] = {
	{ 1000000000000ull, "s" },
	{ 1000000000, "ms" },
	{ 1000000, "us" },
	{ 1000, "ns" },
	{ 1, "ps" },
};

const char *scenario_key_unit(const struct scenario_key *key)
{
	size_t i;

	for (i = 0; i < sizeof(time_units) / sizeof(time_units[0]); i++)
		if (time_units[i].ps == key->unit_ps)
			return time_units[i].name;
	return "ps";
}

static uint64_t in_unit(const struct scenario_key *key, uint64_t ps)
{
	return key->unit_ps ? ps / key->unit_ps : ps;
}

/*
 * A minimum below the key's unit in the largest unit that divides it:
 * "0 to 10000 ms", "1 us to 10000 ms", "1 ps to 1000000 ns".
 */
static void time_range(const struct scenario_key *key, char *buf, size_t size)
{
	size_t i = 0;

	if (!key->unit_ps || !(key->min % key->unit_ps)) {
		snprintf(buf, size, "%llu to %llu %s",
			 (unsigned long long)in_unit(key, key->min),
			 (unsigned long long)in_unit(key, key->max),
			 scenario_key_unit(key));
		return;
	}
	while (key->min % time_units[i].ps)
		i++;
	snprintf(buf, size, "%llu %s to %llu %s",
		 (unsigned long long)(key->min / time_units[i].ps),
		 time_units[i].name, (unsigned long long)in_unit(key, key->max),
		 scenario_key_unit(key));
}

void scenario_key_range(const struct scenario_key *key, char *buf, size_t size)
{
	size_t len = 0;
	unsigned int i;

	buf[0] = '\0';
	if (key->max_doc) {
		snprintf(buf, size, "%llu to %s", (unsigned long long)key->min,
			 key->max_doc);
		return;
	}
	switch (key->type) {
	case SCENARIO_KEY_U64:
		snprintf(buf, size, "%llu to %llu",
			 (unsigned long long)key->min,
			 (unsigned long long)key->max);
		break;
	case SCENARIO_KEY_DOUBLE:
		snprintf(buf, size, "%g to %g", key->dmin, key->dmax);
		break;
	case SCENARIO_KEY_TIME:
		time_range(key, buf, size);
		break;
	case SCENARIO_KEY_SIZE:
		snprintf(buf, size, "0 to %llu bytes",
			 (unsigned long long)key->max);
		break;
	case SCENARIO_KEY_BOOL:
		snprintf(buf, size, "true, false");
		break;
	case SCENARIO_KEY_ENUM:
		for (i = 0; i < key->nr_names && len + 1 < size; i++)
			len += (size_t)snprintf(buf + len, size - len, "%s%s",
						i ? ", " : "", key->names[i]);
		break;
	case SCENARIO_KEY_CUSTOM:
		/* {ns, source} entries give their range in ns */
		if (key->unit_ps && key->max)
			time_range(key, buf, size);
		break;
	case SCENARIO_KEY_STRING:
		break;
	}
}

void scenario_key_default(const struct scenario_key *key, char *buf,
			  size_t size)
{
	buf[0] = '\0';
	if (key->required)
		snprintf(buf, size, "required");
	else if (key->def_doc)
		snprintf(buf, size, "%s", key->def_doc);
	else if (key->type == SCENARIO_KEY_ENUM && key->def < key->nr_names)
		snprintf(buf, size, "%s", key->names[key->def]);
	else if (key->type == SCENARIO_KEY_BOOL)
		snprintf(buf, size, "%s", key->def ? "true" : "false");
	else if (key->type == SCENARIO_KEY_TIME)
		snprintf(buf, size, "%llu %s",
			 (unsigned long long)in_unit(key, key->def),
			 scenario_key_unit(key));
	else if (key->type == SCENARIO_KEY_STRING)
		snprintf(buf, size, "%s", key->def_str ? key->def_str : "");
	else if (key->type == SCENARIO_KEY_DOUBLE)
		snprintf(buf, size, "%g", key->ddef);
	else if (key->type != SCENARIO_KEY_CUSTOM)
		snprintf(buf, size, "%llu", (unsigned long long)key->def);
}
