/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/scenario_keys.h - a map's keys declared once, in a table.
 *
 * Theory of operation: a struct scenario_key names one key of a scenario
 * map: its type, range, default, the member of a struct it sets and a line
 * of doc. The same table drives the reader (scenario_keys_load() reads
 * each key with the typed getter of sim/scenario.h and stores it),
 * the unknown-key check (scenario_key_names()), and the documentation:
 * `memcgsim help keys`, memcgsim(1) and the bad-input tests print the
 * type, range and default in words (scenario_key_type_name(),
 * scenario_key_range(), scenario_key_default()).
 *
 * A key whose reading is special (a cpulist, a program, a map of maps) is
 * SCENARIO_KEY_CUSTOM: @parse reads it, or the caller does when @parse is
 * NULL; the table still holds its name, its form (@form) and its doc.
 *
 * Layering: sim/ primitive; uses sim/scenario.h only.
 */
#ifndef SIM_SCENARIO_KEYS_H
#define SIM_SCENARIO_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/scenario.h"

enum scenario_key_type {
	SCENARIO_KEY_U64, /* an integer: scenario_u64() */
	SCENARIO_KEY_BOOL, /* true or false: scenario_bool() */
	SCENARIO_KEY_ENUM, /* one of @names, stored as its index */
	SCENARIO_KEY_TIME, /* a duration in @unit_ps, stored in ps */
	SCENARIO_KEY_SIZE, /* bytes with K, M, G, T: scenario_size() */
	SCENARIO_KEY_DOUBLE, /* a decimal number: scenario_double() */
	SCENARIO_KEY_STRING, /* stored as a borrowed const char * */
	SCENARIO_KEY_CUSTOM, /* read by @parse, or by the caller */
};

struct scenario_key;

/*
 * scenario_key_parse_fn - read a SCENARIO_KEY_CUSTOM key of @map into
 * @base; @ctx is the caller's (scenario_keys_load()'s).
 */
typedef int scenario_key_parse_fn(const struct scenario_node *map,
				  const struct scenario_key *key, void *base,
				  const void *ctx, struct sim_error *err);

/**
 * struct scenario_key - one key of a scenario map, declared once.
 * @name: the key
 * @type: how its value is written
 * @required: absent, the map is refused ("missing key")
 * @offset: the member of the caller's struct it sets
 * @size: that member's size: 1 (bool), 4 or 8 (integers, enums as
 *	unsigned int, times, sizes), sizeof(double), sizeof(char *)
 *	(strings); 0: not stored
 *	(the caller reads it, or @parse does)
 * @min: the smallest value allowed (U64; TIME in ps)
 * @max: the largest (U64, SIZE; TIME in ps)
 * @max_fn: when set, the largest is computed from what was read before
 *	(cores_per_llc at most cores_per_socket); @max_doc says how
 * @max_doc: the largest in words
 * @dmin: SCENARIO_KEY_DOUBLE: the smallest value allowed
 * @dmax: the largest
 * @ddef: the default
 * @def: the default when absent (a number, ps, a bool or an index into
 *	@names)
 * @def_str: SCENARIO_KEY_STRING: the default (NULL: none)
 * @def_fn: when set, the default is computed from what was read before
 *	(@base) and the caller's context; @def_doc says how
 * @def_doc: the default in words, for a default that is no plain value
 * @unit_ps: SCENARIO_KEY_TIME: the unit of a bare number (1000: ns)
 * @names: SCENARIO_KEY_ENUM: the values, in the order of their enum
 * @nr_names: how many
 * @form: SCENARIO_KEY_CUSTOM: what the value looks like ("cpulist")
 * @parse: SCENARIO_KEY_CUSTOM: the reader (NULL: the caller reads it)
 * @doc: one line for `memcgsim help keys` and memcgsim(1)
 */
struct scenario_key {
	const char *name;
	enum scenario_key_type type;
	bool required;
	size_t offset, size;
	uint64_t min, max, def;
	uint64_t (*max_fn)(const void *base, const void *ctx);
	const char *max_doc;
	double dmin, dmax, ddef;
	const char *def_str;
	uint64_t (*def_fn)(const void *base, const void *ctx);
	const char *def_doc;
	uint64_t unit_ps;
	const char *const *names;
	unsigned int nr_names;
	const char *form;
	scenario_key_parse_fn *parse;
	const char *doc;
};

/*
 * SCENARIO_KEY_MEMBER() - the member a key sets, for an initializer:
 * SCENARIO_KEY_MEMBER(struct netperf, window).
 */
#define SCENARIO_KEY_MEMBER(type, m) \
	.offset = offsetof(type, m), .size = sizeof(((type *)0)->m)
#define SCENARIO_KEY_NAMES(a) \
	.names = (a), .nr_names = sizeof(a) / sizeof((a)[0])

/* A table and its length, for a registry of tables. */
struct scenario_key_table {
	const char *name; /* "netperf", "machine", ... */
	const struct scenario_key *keys;
	unsigned int nr;
};

/* The key called @name in @table, or NULL. */
const struct scenario_key *scenario_key_find(const struct scenario_key *table,
					     size_t nr, const char *name);
/*
 * Append the names of @table to @names (room for @max, @nr used); for
 * scenario_check_keys(). Return: the new count.
 */
size_t scenario_key_names(const struct scenario_key *table, size_t nr,
			  const char **names, size_t used, size_t max);
/* Read one key of @map into @base (its default when absent). */
int scenario_key_load(const struct scenario_node *map,
		      const struct scenario_key *key, void *base,
		      const void *ctx, struct sim_error *err);
/*
 * Read one key of @map into @out, a variable of the member's type (a key
 * whose @offset is into no struct of the caller's: a string read where it
 * is used). @key->def_fn and @key->max_fn get a NULL context.
 */
int scenario_key_get(const struct scenario_node *map,
		     const struct scenario_key *key, void *out,
		     struct sim_error *err);
/*
 * Read every key of @table from @map into @base, in the table's order;
 * stop at the first error. @map must have been checked for unknown keys.
 */
int scenario_keys_load(const struct scenario_node *map,
		       const struct scenario_key *table, size_t nr, void *base,
		       const void *ctx, struct sim_error *err);
/* Set every stored key of @table to its plain default (@def, @def_str). */
void scenario_keys_defaults(const struct scenario_key *table, size_t nr,
			    void *base);

/*
 * Whether every key of @table can be read and documented (a name given
 * once, a doc, a member size its type stores, a default in range ...);
 * -1 with "KEY: what is wrong" in @why if not. For the unit tests.
 */
int scenario_keys_sound(const struct scenario_key *table, size_t nr, char *why,
			size_t size);

/*
 * Words for help texts and the man page: the type ("integer", "duration",
 * "one of" ...), the range ("1 to 4096", "0 to 1000000 ns", "tcp, unix";
 * "" for none) and the default ("16", "100 ns", "required", "" for none).
 */
const char *scenario_key_type_name(const struct scenario_key *key);
void scenario_key_range(const struct scenario_key *key, char *buf, size_t size);
void scenario_key_default(const struct scenario_key *key, char *buf,
			  size_t size);
/* The unit of a bare number of a SCENARIO_KEY_TIME key: "ns", "us" ... */
const char *scenario_key_unit(const struct scenario_key *key);

#endif /* SIM_SCENARIO_KEYS_H */
