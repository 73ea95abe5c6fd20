// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/scenario_get.c - reading a scenario tree: unknown-key checks and the
 * typed, range-checked getters, with their unit syntax (durations, sizes,
 * cpulists).
 *
 * Theory of operation: every getter finds its key in a map (find_value(),
 * find_scalar()), parses the text with a parser of its own that accepts
 * exactly the documented syntax, checks the range and either stores the
 * value or fills the error at the value's mark:
 *
 *	x.yaml:7:49: error: key 'workloads.0.counters': expected an
 *	integer from 1 to 4096, found 'many'
 *
 * Durations and sizes are converted with integer arithmetic only, so that
 * "7.5" ns is exactly 7500 ps. The tree itself, its loader and the
 * overrides are in sim/scenario.c; sim/scenario.h documents the interface.
 *
 * Layering: sim/ primitive; uses sim/error.h only.
 */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/error.h"
#include "sim/scenario.h"
#include "sim/scenario_internal.h"

/* ------------------------------------------------------------------ */
/* Keys.                                                               */

/*
 * Whether @key with the map @value of one key is an allowed dotted key
 * split by a path: --set 'cgroups./a.memory.max=1M' makes {memory: {max:}}.
 */
static bool dotted_key(const char *key, const struct scenario_node *value,
		       const char *const *allowed, size_t nr)
{
	size_t j, klen = strlen(key);

	if (value->kind != SCENARIO_MAP || value->len != 1)
		return false;
	for (j = 0; j < nr; j++)
		if (!strncmp(allowed[j], key, klen) &&
		    allowed[j][klen] == '.' &&
		    !strcmp(allowed[j] + klen + 1, value->keys[0]->scalar))
			return true;
	return false;
}

static void unknown_key(struct sim_error *err, const struct scenario_node *map,
			size_t i, const char *const *allowed, size_t nr,
			const struct scenario_key_hint *hints, size_t nr_hints)
{
	const struct scenario_node *key = map->keys[i];
	const char *near;
	char where[SCENARIO_MAX_PATH + 16];
	char hint[SCENARIO_MAX_PATH + 32] = "";
	size_t h, j;

	near = sim_nearest(key->scalar, allowed, (unsigned int)nr);
	if (near)
		snprintf(hint, sizeof(hint), "; did you mean '%s'?", near);
	/* A key of a map below, given at this level: say where it goes. */
	for (h = 0; h < nr_hints; h++)
		for (j = 0; j < hints[h].nr; j++)
			if (!strcmp(key->scalar, hints[h].keys[j]))
				snprintf(hint, sizeof(hint),
					 "; did you mean '%s%s%s.%s'?",
					 map->path, map->path[0] ? "." : "",
					 hints[h].parent, key->scalar);
	if (dotted_key(key->scalar, map->items[i], allowed, nr))
		snprintf(hint, sizeof(hint),
			 "; a key with dots is one path segment in double "
			 "quotes: '%s%s\"%s.%s\"'",
			 map->path, map->path[0] ? "." : "", key->scalar,
			 map->items[i]->keys[0]->scalar);
	if (map->path[0])
		snprintf(where, sizeof(where), "in '%s'", map->path);
	else
		snprintf(where, sizeof(where), "at the top level");
	scenario__error_at(err, key, "unknown key '%s' %s%s", key->scalar,
			   where, hint);
}

/**
 * scenario_check_keys_hinted() - every key of @map must be in @allowed.
 * @map: the map to check
 * @allowed: the valid keys
 * @nr_allowed: how many
 * @hints: the keys of maps under @map, suggested as PARENT.KEY for an
 *	unknown key that is one of them; may be NULL
 * @nr_hints: how many
 * @err: filled on failure, at the offending key
 *
 * Return: 0, or -1 with @err set for a non-map @map, an unknown key (with
 * the nearest allowed key, or the place of a key of a map below,
 * suggested) or a duplicate key.
 */
int scenario_check_keys_hinted(const struct scenario_node *map,
			       const char *const *allowed, size_t nr_allowed,
			       const struct scenario_key_hint *hints,
			       size_t nr_hints, struct sim_error *err)
{
	size_t i, j;

	if (map->kind != SCENARIO_MAP) {
		scenario_error(err, map, "expected a map, found %s",
			       scenario__kind_phrase(map));
		return -1;
	}
	for (i = 0; i < map->len; i++) {
		for (j = 0; j < nr_allowed; j++)
			if (!strcmp(map->keys[i]->scalar, allowed[j]))
				break;
		if (j == nr_allowed) {
			unknown_key(err, map, i, allowed, nr_allowed, hints,
				    nr_hints);
			return -1;
		}
		for (j = 0; j < i; j++) {
			if (strcmp(map->keys[i]->scalar, map->keys[j]->scalar))
				continue;
			scenario__error_at(err, map->keys[i],
					   "duplicate key '%s'; first "
					   "defined on line %u",
					   map->keys[i]->scalar,
					   map->keys[j]->line);
			return -1;
		}
	}
	return 0;
}

/**
 * scenario_check_keys() - every key of @map must be in @allowed.
 * @map: the map to check
 * @allowed: the valid keys
 * @nr_allowed: how many
 * @err: filled on failure, at the offending key
 *
 * Return: 0, or -1 with @err set for a non-map @map, an unknown key (with
 * the nearest allowed key suggested) or a duplicate key.
 */
int scenario_check_keys(const struct scenario_node *map,
			const char *const *allowed, size_t nr_allowed,
			struct sim_error *err)
{
	return scenario_check_keys_hinted(map, allowed, nr_allowed, NULL, 0,
					  err);
}

/* ------------------------------------------------------------------ */
/* Typed getters.                                                      */

/* "expected WANT, found WHAT" at @node. */
static void refuse(struct sim_error *err, const struct scenario_node *node,
		   const char *want)
{
	char found[128];

	scenario__describe(found, sizeof(found), node);
	scenario_error(err, node, "expected %s, found %s", want, found);
}

/*
 * Find @key in @map: 1 with @out set when present, 0 when absent and
 * optional, -1 (@err set) when missing but required or @map is no map.
 */
static int find_value(const struct scenario_node *map, const char *key,
		      bool required, const struct scenario_node **out,
		      struct sim_error *err)
{
	const struct scenario_node *node;

	if (map && map->kind != SCENARIO_MAP) {
		scenario_error(err, map, "expected a map, found %s",
			       scenario__kind_phrase(map));
		return -1;
	}
	node = scenario_get(map, key);
	if (node) {
		*out = node;
		return 1;
	}
	if (!required)
		return 0;
	/* the one key a scenario calibrates: where to learn its value */
	if (map && map->path[0] && !strcmp(key, "work_ns"))
		scenario__error_at(
			err, map,
			"missing key 'work_ns' in '%s': the work per operation outside the memcg code, calibrated against a measured baseline (see 'Choosing work_ns' in the user guide, and memcgsim fit --help)",
			map->path);
	else if (map && map->path[0])
		scenario__error_at(err, map, "missing key '%s' in '%s'", key,
				   map->path);
	else if (map)
		scenario__error_at(err, map,
				   "missing key '%s' at the top level", key);
	else
		scenario__error_at(err, NULL, "missing key '%s'", key);
	return -1;
}

/* As find_value(), and a present value must be a scalar (else @want). */
static int find_scalar(const struct scenario_node *map, const char *key,
		       bool required, const char *want,
		       const struct scenario_node **out, struct sim_error *err)
{
	int ret = find_value(map, key, required, out, err);

	if (ret == 1 && (*out)->kind != SCENARIO_SCALAR) {
		refuse(err, *out, want);
		return -1;
	}
	return ret;
}

/*
 * A number, a time, a size or a boolean that parses but was written in
 * quotes: YAML's '0.01' is a string, not 0.01, so it is refused. Called
 * after the parse so that what is no number at all keeps its message.
 */
static int quoted_number(const struct scenario_node *node, const char *want,
			 struct sim_error *err)
{
	char found[128];

	if (!node->quoted)
		return 0;
	scenario__describe(found, sizeof(found), node);
	scenario_error(err, node,
		       "expected %s, found the quoted string %s: write it "
		       "without quotes",
		       want, found);
	return -1;
}

/* Parse a run of decimal digits; the count goes to @nr_digits. */
static bool parse_digits(const char **s, uint64_t *out, size_t *nr_digits)
{
	const char *p = *s;
	uint64_t v = 0;
	bool ok = true;

	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = *p - '0';

		if (v > (UINT64_MAX - d) / 10)
			ok = false;
		else
			v = v * 10 + d;
	}
	*nr_digits = p - *s;
	*s = p;
	*out = v;
	return ok;
}

/* A whole decimal number and nothing else; false if none or too large. */
static bool parse_u64(const char *s, uint64_t *out)
{
	size_t n;

	return parse_digits(&s, out, &n) && n && !*s;
}

/**
 * scenario_u64() - read a decimal integer from @min to @max.
 * @map: the map holding @key, or NULL (every key absent)
 * @key: the key
 * @required: whether an absent key is an error
 * @def: stored when the key is absent and not @required
 * @min: smallest value accepted
 * @max: largest value accepted
 * @out: the value
 * @err: filled on failure
 *
 * Only digits are accepted: no sign, fraction, exponent or hex.
 *
 * Return: 0, or -1 with @err set and @out untouched.
 */
int scenario_u64(const struct scenario_node *map, const char *key,
		 bool required, uint64_t def, uint64_t min, uint64_t max,
		 uint64_t *out, struct sim_error *err)
{
	const struct scenario_node *node;
	char want[96];
	uint64_t v;
	int ret;

	if (max == UINT64_MAX && min == 0)
		snprintf(want, sizeof(want), "a non-negative integer");
	else if (max == UINT64_MAX)
		snprintf(want, sizeof(want), "an integer of at least %" PRIu64,
			 min);
	else
		snprintf(want, sizeof(want),
			 "an integer from %" PRIu64 " to %" PRIu64, min, max);
	ret = find_scalar(map, key, required, want, &node, err);
	if (ret <= 0) {
		if (!ret)
			*out = def;
		return ret;
	}
	if (!parse_u64(node->scalar, &v) || v < min || v > max) {
		refuse(err, node, want);
		return -1;
	}
	if (quoted_number(node, want, err))
		return -1;
	*out = v;
	return 0;
}

static void format_double(char *buf, size_t size, const char *what, double min,
			  double max)
{
	if (min == -HUGE_VAL || min == -DBL_MAX) {
		if (max == HUGE_VAL || max == DBL_MAX)
			snprintf(buf, size, "%s", what);
		else
			snprintf(buf, size, "%s of at most %g", what, max);
	} else if (max == HUGE_VAL || max == DBL_MAX) {
		snprintf(buf, size, "%s of at least %g", what, min);
	} else {
		snprintf(buf, size, "%s from %g to %g", what, min, max);
	}
}

/* A finite decimal number: digits, sign, point and exponent only. */
static bool parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!*s || strspn(s, "0123456789+-.eE") != strlen(s))
		return false;
	v = strtod(s, &end);
	if (*end || !isfinite(v))
		return false;
	*out = v;
	return true;
}

/**
 * scenario_double() - read a finite decimal number from @min to @max.
 * @map: the map holding @key, or NULL
 * @key: the key
 * @required: whether an absent key is an error
 * @def: stored when the key is absent and not @required
 * @min: smallest value accepted
 * @max: largest value accepted
 * @out: the value
 * @err: filled on failure
 *
 * Return: 0, or -1 with @err set and @out untouched.
 */
int scenario_double(const struct scenario_node *map, const char *key,
		    bool required, double def, double min, double max,
		    double *out, struct sim_error *err)
{
	const struct scenario_node *node;
	char want[96];
	double v;
	int ret;

	format_double(want, sizeof(want), "a number", min, max);
	ret = find_scalar(map, key, required, want, &node, err);
	if (ret <= 0) {
		if (!ret)
			*out = def;
		return ret;
	}
	if (!parse_double(node->scalar, &v) || v < min || v > max) {
		refuse(err, node, want);
		return -1;
	}
	if (quoted_number(node, want, err))
		return -1;
	*out = v;
	return 0;
}

/**
 * scenario_bool() - read true/yes/on or false/no/off.
 * @map: the map holding @key, or NULL
 * @key: the key
 * @required: whether an absent key is an error
 * @def: stored when the key is absent and not @required
 * @out: the value
 * @err: filled on failure
 *
 * Return: 0, or -1 with @err set and @out untouched.
 */
int scenario_bool(const struct scenario_node *map, const char *key,
		  bool required, bool def, bool *out, struct sim_error *err)
{
	static const char *const yes[] = { "true", "yes", "on" };
	static const char *const no[] = { "false", "no", "off" };
	static const char want[] = "true or false";
	const struct scenario_node *node;
	size_t i;
	int ret;

	ret = find_scalar(map, key, required, want, &node, err);
	if (ret <= 0) {
		if (!ret)
			*out = def;
		return ret;
	}
	for (i = 0; i < 3; i++) {
		if (!strcmp(node->scalar, yes[i]) ||
		    !strcmp(node->scalar, no[i])) {
			if (quoted_number(node, want, err))
				return -1;
			*out = !strcmp(node->scalar, yes[i]);
			return 0;
		}
	}
	refuse(err, node, want);
	return -1;
}

/**
 * scenario_string() - read any scalar as text.
 * @map: the map holding @key, or NULL
 * @key: the key
 * @required: whether an absent key is an error
 * @def: stored when the key is absent and not @required; may be NULL
 * @out: the text, borrowed from the tree
 * @err: filled on failure (the value is a map or sequence)
 *
 * Return: 0, or -1 with @err set and @out untouched.
 */
int scenario_string(const struct scenario_node *map, const char *key,
		    bool required, const char *def, const char **out,
		    struct sim_error *err)
{
	const struct scenario_node *node;
	int ret;

	ret = find_scalar(map, key, required, "a string", &node, err);
	if (ret <= 0) {
		if (!ret)
			*out = def;
		return ret;
	}
	*out = node->scalar;
	return 0;
}

/**
 * scenario_enum() - read one of @names.
 * @map: the map holding @key, or NULL
 * @key: the key
 * @required: whether an absent key is an error
 * @def: index stored when the key is absent and not @required
 * @names: the valid names
 * @nr_names: how many
 * @out: the index of the name found
 * @err: filled on failure; lists @names and suggests the nearest
 *
 * Return: 0, or -1 with @err set and @out untouched.
 */
int scenario_enum(const struct scenario_node *map, const char *key,
		  bool required, unsigned int def, const char *const *names,
		  unsigned int nr_names, unsigned int *out,
		  struct sim_error *err)
{
	const struct scenario_node *node;
	char want[SIM_ERROR_MSG_MAX / 2] = "one of ", found[128];
	const char *near;
	size_t n = strlen(want);
	unsigned int i;
	int ret;

	for (i = 0; i < nr_names && n < sizeof(want); i++)
		n += snprintf(want + n, sizeof(want) - n, "%s'%s'",
			      i ? ", " : "", names[i]);
	ret = find_scalar(map, key, required, want, &node, err);
	if (ret <= 0) {
		if (!ret)
			*out = def;
		return ret;
	}
	for (i = 0; i < nr_names; i++) {
		if (!strcmp(node->scalar, names[i])) {
			*out = i;
			return 0;
		}
	}
	scenario__describe(found, sizeof(found), node);
	near = sim_nearest(node->scalar, names, nr_names);
	if (near)
		scenario_error(err, node,
			       "expected %s, found %s; did you "
			       "mean '%s'?",
			       want, found, near);
	else
		scenario_error(err, node, "expected %s, found %s", want, found);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Durations and sizes.                                                */

static const struct {
	const char *name;
	uint64_t ps;
} time_units[] = {
	{ "s", 1000000000000ull },
	{ "ms", 1000000000ull },
	{ "us", 1000000ull },
	{ "ns", 1000ull },
	{ "ps", 1ull },
};

#define NR_TIME_UNITS (sizeof(time_units) / sizeof(time_units[0]))

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* "7.5 ns" for 7500; exact, in the largest unit not above @ps. */
static void format_ps(char *buf, size_t size, uint64_t ps)
{
	size_t i, n, digits = 0;
	uint64_t unit, rem, u;

	for (i = 0; i < NR_TIME_UNITS - 1; i++)
		if (ps >= time_units[i].ps)
			break;
	unit = time_units[i].ps;
	rem = ps % unit;
	n = snprintf(buf, size, "%" PRIu64, ps / unit);
	for (u = unit; u > 1; u /= 10)
		digits++;
	while (rem && rem % 10 == 0) {
		rem /= 10;
		digits--;
	}
	if (rem && n < size)
		n += snprintf(buf + n, size - n, ".%0*" PRIu64, (int)digits,
			      rem);
	if (n < size)
		snprintf(buf + n, size - n, " %s", time_units[i].name);
}

/*
 * Parse "INT[.FRAC][ ][UNIT]" into picoseconds, the number being in
 * @unit_ps when no unit is given. Returns 0, -ERANGE when larger than
 * UINT64_MAX ps, -EDOM for a fraction of a picosecond, -EINVAL otherwise.
 */
static int parse_time(const char *s, uint64_t unit_ps, uint64_t *out)
{
	uint64_t whole, frac = 0, scale = 1, g, ps;
	size_t n, nf = 0, i;
	bool ok = parse_digits(&s, &whole, &n);

	if (!n)
		return -EINVAL;
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') {
			if (*s != '0' && nf >= 19)
				return -EDOM; /* 20 digits: < 1e-19 unit */
			if (nf < 19) {
				frac = frac * 10 + (*s - '0');
				scale *= 10;
				nf++;
			}
			s++;
		}
		if (!nf)
			return -EINVAL;
	}
	if (*s == ' ')
		s++;
	if (*s) {
		for (i = 0; i < NR_TIME_UNITS; i++)
			if (!strcmp(s, time_units[i].name))
				break;
		if (i == NR_TIME_UNITS)
			return -EINVAL;
		unit_ps = time_units[i].ps;
	}
	if (!ok)
		return -ERANGE;
	/* frac / scale of a unit: exact iff (scale / g) divides unit_ps. */
	g = gcd(frac, scale);
	if (unit_ps % (scale / g))
		return -EDOM;
	ps = frac / g * (unit_ps / (scale / g));
	if (whole && unit_ps > (UINT64_MAX - ps) / whole)
		return -ERANGE;
	*out = whole * unit_ps + ps;
	return 0;
}

static const char *time_unit_name(uint64_t unit_ps)
{
	size_t i;

	for (i = 0; i < NR_TIME_UNITS; i++)
		if (time_units[i].ps == unit_ps)
			return time_units[i].name;
	return NULL;
}

static void time_want(char *buf, size_t size, uint64_t min, uint64_t max)
{
	char lo[48], hi[48];

	format_ps(lo, sizeof(lo), min);
	format_ps(hi, sizeof(hi), max);
	if (min == 0 && max == UINT64_MAX)
		snprintf(buf, size, "a duration");
	else if (max == UINT64_MAX)
		snprintf(buf, size, "a duration of at least %s", lo);
	else
		snprintf(buf, size, "a duration from %s to %s", lo, hi);
}

static void time_syntax_error(struct sim_error *err,
			      const struct scenario_node *node,
			      uint64_t unit_ps, int why)
{
	const char *unit = time_unit_name(unit_ps);
	char found[128], in[48];

	const char *s = node->scalar;
	bool bare = *s && s[strlen(s) - 1] >= '0' && s[strlen(s) - 1] <= '9';

	scenario__describe(found, sizeof(found), node);
	if (unit)
		snprintf(in, sizeof(in), "%s", unit);
	else
		snprintf(in, sizeof(in), "units of %" PRIu64 " ps", unit_ps);
	if (why == -EDOM)
		scenario_error(err, node,
			       "expected a whole number of "
			       "picoseconds, found %s%s%s%s",
			       found, bare ? " (in " : "", bare ? in : "",
			       bare ? ")" : "");
	else
		scenario_error(err, node,
			       "expected a duration in %s, or with "
			       "a unit ps, ns, us, ms or s, found %s",
			       in, found);
}

/**
 * scenario_time_ps() - read a duration, exactly, in picoseconds.
 * @map: the map holding @key, or NULL
 * @key: the key
 * @required: whether an absent key is an error
 * @unit_ps: picoseconds per unit of a number without a unit suffix
 * @def: stored (in ps) when the key is absent and not @required
 * @min: smallest value accepted, in ps
 * @max: largest value accepted, in ps
 * @out: the value in ps
 * @err: filled on failure
 *
 * "7.5" with @unit_ps 1000 is 7500 ps; "7.5ns", "7.5 ns" and "7500ps" are
 * the same. The suffixes are ps, ns, us, ms and s. A value that is not a
 * whole number of picoseconds ("0.0001" ns) is refused, not rounded.
 *
 * Return: 0, or -1 with @err set and @out untouched.
 */
int scenario_time_ps(const struct scenario_node *map, const char *key,
		     bool required, uint64_t unit_ps, uint64_t def,
		     uint64_t min, uint64_t max, uint64_t *out,
		     struct sim_error *err)
{
	const struct scenario_node *node;
	char want[128];
	int ret;

	time_want(want, sizeof(want), min, max);
	ret = find_scalar(map, key, required, want, &node, err);
	if (ret <= 0) {
		if (!ret)
			*out = def;
		return ret;
	}
	return scenario_node_time_ps(node, unit_ps, min, max, out, err);
}

/**
 * scenario_node_time_ps() - scenario_time_ps() of the value @node itself
 * (an item of a list, say), which must be a scalar.
 *
 * Return: 0, or -1 with @err set and @out untouched.
 */
int scenario_node_time_ps(const struct scenario_node *node, uint64_t unit_ps,
			  uint64_t min, uint64_t max, uint64_t *out,
			  struct sim_error *err)
{
	char want[128];
	uint64_t v = 0;
	int ret;

	time_want(want, sizeof(want), min, max);
	if (node->kind != SCENARIO_SCALAR) {
		refuse(err, node, want);
		return -1;
	}
	ret = parse_time(node->scalar, unit_ps, &v);
	if (ret == -EINVAL || ret == -EDOM) {
		time_syntax_error(err, node, unit_ps, ret);
		return -1;
	}
	if (ret == -ERANGE || v < min || v > max) {
		refuse(err, node, want);
		return -1;
	}
	if (quoted_number(node, want, err))
		return -1;
	*out = v;
	return 0;
}

static const char size_suffixes[] = "KMGT";

/* "16G" when exact, else the number of bytes. */
static void format_size(char *buf, size_t size, uint64_t bytes)
{
	int shift = 40, i = 3;

	for (; i >= 0; i--, shift -= 10) {
		if (bytes && !(bytes & ((1ull << shift) - 1))) {
			snprintf(buf, size, "%" PRIu64 "%c", bytes >> shift,
				 size_suffixes[i]);
			return;
		}
	}
	snprintf(buf, size, "%" PRIu64, bytes);
}

/*
 * Parse "N", "N[K|M|G|T]", "N[K|M|G|T]iB" (either case for the letter;
 * powers of 1024), "NB" or "max". Returns 0, -ERANGE when above
 * UINT64_MAX, -EDOM for "N[K|M|G|T]B", which reads as a power of 1000
 * to some and of 1024 to others, and -EINVAL otherwise.
 */
static int parse_size(const char *s, uint64_t max, uint64_t *out)
{
	const char *suffix;
	unsigned int shift = 0;
	uint64_t v;
	size_t n;
	bool ok;
	char c;

	if (!strcmp(s, "max")) {
		*out = max;
		return 0;
	}
	ok = parse_digits(&s, &v, &n);
	if (!n)
		return -EINVAL;
	c = *s;
	if (c >= 'a' && c <= 'z')
		c -= 'a' - 'A';
	suffix = c ? strchr(size_suffixes, c) : NULL;
	if (suffix) {
		shift = 10 * (unsigned int)(suffix - size_suffixes + 1);
		s++;
		if (!strcmp(s, "B"))
			return -EDOM;
		if (!strcmp(s, "iB"))
			s += 2;
	} else if (*s == 'B') {
		s++;
	}
	if (*s)
		return -EINVAL;
	if (!ok || v > UINT64_MAX >> shift)
		return -ERANGE;
	*out = v << shift;
	return 0;
}

/*
 * "16GB": say what G is here and how to write either reading of it,
 * "16G" or "16GiB" for 16 x 2^30 and the digits in full for 16 x 10^9.
 */
static void si_size_error(struct sim_error *err,
			  const struct scenario_node *node, const char *syntax)
{
	const char *text = node->scalar;
	size_t n = strlen(text) - 2; /* the digits */
	char letter = text[n];
	unsigned int power;

	if (letter >= 'a' && letter <= 'z')
		letter -= 'a' - 'A';
	power = (unsigned int)(strchr(size_suffixes, letter) - size_suffixes +
			       1);
	scenario_error(
		err, node,
		"expected %s, found '%s': %c is 2^%u bytes here, as in memory.max; write '%.*s' or '%.*siB' for that, or '%.*s%.*s' for %.*s x 10^%u",
		syntax, text, letter, 10 * power, (int)n + 1, text, (int)n + 1,
		text, (int)n, text, (int)(3 * power), "000000000000", (int)n,
		text, 3 * power);
}

/**
 * scenario_size() - read a size in bytes.
 * @map: the map holding @key, or NULL
 * @key: the key
 * @required: whether an absent key is an error
 * @def: stored when the key is absent and not @required
 * @max: largest value accepted; also the value of "max"
 * @out: the value in bytes
 * @err: filled on failure
 *
 * A whole number with an optional K, M, G or T (either case; powers of
 * 1024, as the kernel's memparse() reads memory.max) or KiB, MiB, GiB,
 * TiB: "4096", "4K", "16GiB", "100B", or "max". "16GB" is refused with a
 * hint: it means 16 x 10^9 to a disk vendor and 16 x 2^30 to many
 * people, and a silent guess is wrong for one of them.
 *
 * Return: 0, or -1 with @err set and @out untouched.
 */
int scenario_size(const struct scenario_node *map, const char *key,
		  bool required, uint64_t def, uint64_t max, uint64_t *out,
		  struct sim_error *err)
{
	static const char syntax[] = "a size in bytes with an optional K, M, "
				     "G or T suffix (or KiB, MiB, GiB, TiB: "
				     "powers of 1024), or max";
	const struct scenario_node *node;
	char want[96], limit[32];
	uint64_t v = 0;
	int ret;

	ret = find_scalar(map, key, required, syntax, &node, err);
	if (ret <= 0) {
		if (!ret)
			*out = def;
		return ret;
	}
	ret = parse_size(node->scalar, max, &v);
	if (ret == -EINVAL) {
		refuse(err, node, syntax);
		return -1;
	}
	if (ret == -EDOM) {
		si_size_error(err, node, syntax);
		return -1;
	}
	if (ret == -ERANGE || v > max) {
		format_size(limit, sizeof(limit), max);
		snprintf(want, sizeof(want), "a size of at most %s", limit);
		refuse(err, node, want);
		return -1;
	}
	if (quoted_number(node, syntax, err))
		return -1;
	*out = v;
	return 0;
}

/* ------------------------------------------------------------------ */
/* CPU lists.                                                          */

/* The result of parsing a cpulist. */
struct cpulist {
	unsigned int nr_cpus;
	uint64_t *mask;
	unsigned int *order;
	unsigned int nr_order;
	char why[160]; /* what is wrong, when parsing fails */
};

static int cpulist_add(struct cpulist *cl, uint64_t lo, uint64_t hi)
{
	uint64_t cpu, bit;

	if (hi >= cl->nr_cpus) {
		cpu = lo >= cl->nr_cpus ? lo : hi;
		if (cl->nr_cpus == 1)
			snprintf(cl->why, sizeof(cl->why),
				 "CPU %" PRIu64
				 " is out of range: the machine has 1 CPU (0)",
				 cpu);
		else
			snprintf(cl->why, sizeof(cl->why),
				 "CPU %" PRIu64
				 " is out of range: the machine has %u CPUs "
				 "(0-%u)",
				 cpu, cl->nr_cpus, cl->nr_cpus - 1);
		return -1;
	}
	for (cpu = lo; cpu <= hi; cpu++) {
		bit = 1ull << (cpu % 64);
		if (cl->mask[cpu / 64] & bit) {
			snprintf(cl->why, sizeof(cl->why),
				 "CPU %" PRIu64 " is listed twice", cpu);
			return -1;
		}
		cl->mask[cpu / 64] |= bit;
		if (cl->order)
			cl->order[cl->nr_order] = (unsigned int)cpu;
		cl->nr_order++;
	}
	return 0;
}

/* One "N" or "N-M" element; @s is advanced past it. */
static int cpulist_range(struct cpulist *cl, const char **s, const char *text)
{
	const char *start = *s;
	uint64_t lo, hi;
	size_t n;
	bool ok;

	ok = parse_digits(s, &lo, &n);
	hi = lo;
	if (n && **s == '-') {
		(*s)++;
		ok = parse_digits(s, &hi, &n) && ok;
	}
	if (!n || !ok || (**s && **s != ',')) {
		snprintf(cl->why, sizeof(cl->why),
			 "expected a cpulist such "
			 "as '0-3,8,10-11', found '%.64s'",
			 text);
		return -1;
	}
	if (hi < lo) {
		snprintf(cl->why, sizeof(cl->why),
			 "CPU range '%.*s' is "
			 "reversed",
			 (int)(*s - start), start);
		return -1;
	}
	return cpulist_add(cl, lo, hi);
}

static int cpulist_parse(struct cpulist *cl, const char *text)
{
	const char *s = text;

	memset(cl->mask, 0, (cl->nr_cpus + 63) / 64 * sizeof(*cl->mask));
	cl->nr_order = 0;
	if (!*s) {
		snprintf(cl->why, sizeof(cl->why),
			 "expected a cpulist such "
			 "as '0-3,8,10-11', found nothing");
		return -1;
	}
	for (;;) {
		if (cpulist_range(cl, &s, text))
			return -1;
		if (!*s)
			return 0;
		s++; /* ',' */
		while (*s == ' ')
			s++;
	}
}

/**
 * scenario_cpulist() - read a Linux cpulist such as "0-3,8,10-11".
 * @map: the map holding @key, or NULL
 * @key: the key
 * @required: whether an absent key is an error
 * @def: cpulist used when the key is absent and not @required; NULL for
 *	the empty set
 * @nr_cpus: CPUs of the machine; every CPU listed must be below it
 * @mask: (@nr_cpus + 63) / 64 words, overwritten with the set
 * @order: room for @nr_cpus CPUs in the order listed, or NULL
 * @nr_order: how many CPUs were listed, or NULL
 * @err: filled on failure
 *
 * A YAML integer (5) is a list of one CPU. Reversed ranges, CPUs listed
 * twice, CPUs out of range and an empty list are refused.
 *
 * Return: 0, or -1 with @err set; @mask and @order may then hold part of
 * the list.
 */
int scenario_cpulist(const struct scenario_node *map, const char *key,
		     bool required, const char *def, unsigned int nr_cpus,
		     uint64_t *mask, unsigned int *order,
		     unsigned int *nr_order, struct sim_error *err)
{
	static const char want[] = "a cpulist such as '0-3,8,10-11'";
	const struct scenario_node *node = NULL;
	struct cpulist cl = {
		.nr_cpus = nr_cpus,
		.mask = mask,
		.order = order,
	};
	int ret;

	ret = find_scalar(map, key, required, want, &node, err);
	if (ret < 0)
		return -1;
	if (!ret && !def) {
		memset(mask, 0, (nr_cpus + 63) / 64 * sizeof(*mask));
		if (nr_order)
			*nr_order = 0;
		return 0;
	}
	if (cpulist_parse(&cl, ret ? node->scalar : def)) {
		if (ret)
			scenario_error(err, node, "%s", cl.why);
		else if (map && map->path[0])
			scenario__error_at(err, map,
					   "key '%s.%s': default '%s': %s",
					   map->path, key, def, cl.why);
		else
			scenario__error_at(err, map,
					   "key '%s': default '%s': %s", key,
					   def, cl.why);
		return -1;
	}
	if (nr_order)
		*nr_order = cl.nr_order;
	return 0;
}
