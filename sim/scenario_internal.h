/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/scenario_internal.h - what the files of the scenario module share
 * and nobody else sees: the node itself and the error helpers.
 *
 * The module is sim/scenario.c (the tree, the loader, inspection and
 * overrides), sim/scenario_file.c (reading a file for the loader) and
 * sim/scenario_get.c (key checks and the typed getters).
 * Its one public header is sim/scenario.h; include this one only from
 * those two files. The non-static helpers carry the scenario__ infix of
 * things private to the module (HACKING.md G2).
 *
 * Layering: sim/ primitive, private to sim/scenario*.c.
 */
#ifndef SIM_SCENARIO_INTERNAL_H
#define SIM_SCENARIO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "sim/error.h"
#include "sim/scenario.h"

#define SCENARIO_MAX_PATH 1024
#define SCENARIO_MAX_BYTES (16u << 20) /* of text in one file */

/**
 * struct scenario_node - one node of a scenario tree.
 * @kind: scalar, map or sequence
 * @file: file the node was read from ("--set" for the command line)
 * @line: one-based line of the node's first character, 0 if none
 * @col: one-based column of the node's first character, 0 if none
 * @path: dotted path from the root ("" for the root)
 * @scalar: NUL-terminated text of a scalar, NULL for collections
 * @keys: for a map, @len scalar nodes holding the keys; NULL otherwise
 * @items: map values or sequence items, @len of them
 * @len: number of entries or items
 * @cap: allocated room in @keys and @items
 * @quoted: a scalar written in quotes (or as a block): text, never a number
 */
struct scenario_node {
	enum scenario_kind kind;
	char *file;
	unsigned int line, col;
	char *path;
	char *scalar;
	struct scenario_node **keys;
	struct scenario_node **items;
	size_t len, cap;
	bool quoted;
};

/* "a map", "a sequence" or "a scalar", for messages. */
const char *scenario__kind_phrase(const struct scenario_node *node);
/* What a value is, for "found ...": 'text', nothing, a map, a sequence. */
void scenario__describe(char *buf, size_t size,
			const struct scenario_node *node);
/* An error at @node's mark (none when NULL) with no "key '...'" prefix. */
void scenario__error_at(struct sim_error *err, const struct scenario_node *node,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* SIM_SCENARIO_INTERNAL_H */
