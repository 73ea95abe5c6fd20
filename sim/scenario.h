/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/scenario.h - scenario YAML: a tree with source marks, overrides by
 * dotted path, and typed, range-checked getters whose errors name the file,
 * line, column and key.
 *
 * Theory of operation: scenario_load_file() parses a YAML file with libyaml
 * into a tree of maps, sequences and scalars. Every node remembers the file
 * it came from, its one-based line and column (libyaml marks + 1) and its
 * dotted path from the root ("workloads.0.cpus"). Variants and --set rewrite
 * the tree with scenario_set(); the replaced node carries the mark of the
 * text that set it, so an error in an overridden value points at the
 * variant's `set:` entry or at the command line. Consumers (models/) then
 * read typed values with the getters below, each of which range-checks and,
 * on failure, fills a struct sim_error and returns -1. Unknown keys are found
 * with scenario_check_keys(), which suggests the nearest valid key.
 *
 * Ownership: a tree is owned by whoever loaded or cloned it and is released
 * with scenario_free(). Nodes returned by lookups are borrowed and live as
 * long as the tree (until a scenario_set() replaces them).
 *
 * Layering: sim/ primitive; uses sim/error.h and libyaml only.
 */
#ifndef SIM_SCENARIO_H
#define SIM_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "sim/error.h"

enum scenario_kind {
	SCENARIO_SCALAR,
	SCENARIO_MAP,
	SCENARIO_SEQ,
};

struct scenario_node;

/* Loading and lifetime. Return NULL and fill @err on failure. */
struct scenario_node *scenario_load_file(const char *path,
					 struct sim_error *err);
struct scenario_node *scenario_load_named(const char *path, const char *what,
					  struct sim_error *err);
FILE *scenario_open_regular(const char *path, const char *what,
			    struct sim_error *err);
struct scenario_node *scenario_parse_string(const char *name, const char *text,
					    struct sim_error *err);
/* Any bytes, NUL included; at most 16 MiB. */
struct scenario_node *scenario_parse_buffer(const char *name, const void *buf,
					    size_t len, struct sim_error *err);
/* The same for results memcgsim wrote: up to 2000000 nodes, not 100000. */
struct scenario_node *scenario_parse_results(const char *name, const void *buf,
					     size_t len, struct sim_error *err);
struct scenario_node *scenario_clone(const struct scenario_node *node);
void scenario_free(struct scenario_node *node);

/* Inspection. */
enum scenario_kind scenario_kind(const struct scenario_node *node);
const char *scenario_file(const struct scenario_node *node);
unsigned int scenario_line(const struct scenario_node *node);
unsigned int scenario_col(const struct scenario_node *node);
const char *scenario_path(const struct scenario_node *node); /* "a.b.0" */
const char *scenario_scalar(const struct scenario_node *node); /* or NULL */
size_t scenario_len(const struct scenario_node *node); /* entries/items */
struct scenario_node *scenario_item(const struct scenario_node *node,
				    size_t i); /* map value or seq item */
const char *scenario_key(const struct scenario_node *map, size_t i);
struct scenario_node *scenario_get(const struct scenario_node *map,
				   const char *key); /* NULL if absent */
struct scenario_node *scenario_lookup(const struct scenario_node *root,
				      const char *dotted_path);

/* Fill @err with "<file>:<line>:<col>: key '<path>': <message>". */
void scenario_error(struct sim_error *err, const struct scenario_node *node,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * scenario_set() - override the value at @dotted_path with a copy of @value.
 * Intermediate maps are created when missing; sequence indices must exist.
 * The new node keeps @value's file and mark. Return 0, or -1 with @err set
 * (at @value's mark) when the path runs through a scalar or an index out of
 * range.
 */
int scenario_set(struct scenario_node *root, const char *dotted_path,
		 const struct scenario_node *value, struct sim_error *err);
/*
 * scenario_set_arg() - apply a command-line override "KEY=VALUE"; VALUE is
 * parsed as YAML (so "{a: 1}" and "[1, 2]" work), errors name "--set".
 */
int scenario_set_arg(struct scenario_node *root, const char *arg,
		     struct sim_error *err);

/*
 * scenario_check_keys() - every key of @map must be in @allowed. The error
 * for an unknown key names it, the map's path, and the nearest allowed key:
 *	unknown key 'nr_cpu' in 'machine'; did you mean 'nr_cpus'?
 * Also refuses a non-map @map and duplicate keys.
 */
int scenario_check_keys(const struct scenario_node *map,
			const char *const *allowed, size_t nr_allowed,
			struct sim_error *err);

/*
 * struct scenario_key_hint - the keys of the map under @parent, a key of
 * the map being checked, so that one of them given a level too high is
 * named where it belongs:
 *	unknown key 'charge_batch' at the top level; did you mean
 *	'kernel.charge_batch'?
 */
struct scenario_key_hint {
	const char *parent;
	const char *const *keys;
	size_t nr;
};

/*
 * scenario_check_keys_hinted() - scenario_check_keys(), and an unknown
 * key that is one of the keys of @hints[i] is suggested as
 * "PARENT.KEY" rather than by the nearest allowed key.
 */
int scenario_check_keys_hinted(const struct scenario_node *map,
			       const char *const *allowed, size_t nr_allowed,
			       const struct scenario_key_hint *hints,
			       size_t nr_hints, struct sim_error *err);

/*
 * Typed getters. Each reads @key of @map. When the key is absent: if
 * @required, fail ("missing key 'x' in 'y'"); otherwise store the default
 * and return 0. A present value is parsed and range-checked; the error
 * names the key's full path and says what was expected and what was found.
 */
int scenario_u64(const struct scenario_node *map, const char *key,
		 bool required, uint64_t def, uint64_t min, uint64_t max,
		 uint64_t *out, struct sim_error *err);
int scenario_double(const struct scenario_node *map, const char *key,
		    bool required, double def, double min, double max,
		    double *out, struct sim_error *err);
int scenario_bool(const struct scenario_node *map, const char *key,
		  bool required, bool def, bool *out, struct sim_error *err);
/* Borrowed string; @def may be NULL. */
int scenario_string(const struct scenario_node *map, const char *key,
		    bool required, const char *def, const char **out,
		    struct sim_error *err);
/* One of @names; the error lists them and suggests the nearest. */
int scenario_enum(const struct scenario_node *map, const char *key,
		  bool required, unsigned int def, const char *const *names,
		  unsigned int nr_names, unsigned int *out,
		  struct sim_error *err);
/*
 * A duration: a decimal number in @unit_ps picoseconds per unit ("7.5" with
 * unit_ps 1000 is 7500 ps), or with an explicit suffix ps, ns, us, ms, s.
 * Converted exactly with integer arithmetic; fractions of a picosecond are
 * refused.
 */
int scenario_time_ps(const struct scenario_node *map, const char *key,
		     bool required, uint64_t unit_ps, uint64_t def,
		     uint64_t min, uint64_t max, uint64_t *out,
		     struct sim_error *err);
/* The same, of the scalar @node itself (an item of a list). */
int scenario_node_time_ps(const struct scenario_node *node, uint64_t unit_ps,
			  uint64_t min, uint64_t max, uint64_t *out,
			  struct sim_error *err);
/* Bytes, with optional K, M, G, T suffix (powers of 1024); "max" = max. */
int scenario_size(const struct scenario_node *map, const char *key,
		  bool required, uint64_t def, uint64_t max, uint64_t *out,
		  struct sim_error *err);
/*
 * A Linux cpulist ("0-3,8,10-11"), every CPU below @nr_cpus. @mask has
 * room for @nr_cpus bits (64 per word); the order of first appearance is
 * also returned in @order (which may be NULL), its length in @nr_order.
 */
int scenario_cpulist(const struct scenario_node *map, const char *key,
		     bool required, const char *def, unsigned int nr_cpus,
		     uint64_t *mask, unsigned int *order,
		     unsigned int *nr_order, struct sim_error *err);

#endif /* SIM_SCENARIO_H */
