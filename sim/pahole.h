/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/pahole.h - read a struct layout from the text `pahole -C <struct>`
 * prints, so that a scenario can lay out struct page_counter exactly as a
 * given kernel build does.
 *
 * Not a model of kernel code: pahole (dwarves) reads a binary's DWARF and
 * prints each struct as C with the offset and size of every member (its
 * comments are shown here as / * ... * /, since C comments do not nest):
 *
 *	struct page_counter {
 *		atomic_long_t      usage;            / *     0     8 * /
 *
 *		/ * XXX 56 bytes hole, try to pack * /
 *
 *		/ * --- cacheline 1 boundary (64 bytes) --- * /
 *		struct pc_padding  _pad1_ __attribute__((__aligned__(64)));
 *				/ *    64     0 * /	(the same line)
 *		long unsigned int  emin;             / *    64     8 * /
 *		...
 *		/ * size: 192, cachelines: 3, members: 16 * /
 *	} __attribute__((__aligned__(64)));
 *
 * Theory of operation: the text is read line by line. Outside a struct only
 * blank lines, comments and a `struct NAME {` (or `union NAME {`) header
 * may appear. Inside, a line is one of:
 *
 *	blank, or a comment alone	skipped, except the summary
 *					"size: N, ..." (the struct's size)
 *	TYPE DECLARATOR; / * OFF SIZE * /	a member (bitfields print
 *					"OFF: BIT SIZE"; the bit is ignored)
 *	... {				opens a nested struct or union
 *	} [NAME]; / * OFF SIZE * /	closes it
 *	};  or  } __attribute__(...);	closes the struct
 *
 * A leading comment on a line (pahole -E prints `/ * typedef x * / struct {`)
 * is dropped before the line is classified. A member's name is its
 * declarator's identifier: `x[4]` gives "x", `(*fn)(int)` gives "fn", and
 * attributes and bitfield widths are dropped.
 *
 * Nested aggregates: a named one (`} inner;`) is one member, whatever it
 * contains. An anonymous one (`};`) has no name of its own; as in C, its
 * members are members of the enclosing struct, so they are recorded in its
 * place (pahole prints their offsets from the start of the outermost
 * struct). Inner members are recorded as they come and dropped again when
 * their aggregate turns out to be named.
 *
 * Offsets and sizes are bytes, decimal or 0x-hex (pahole --hex). Lines and
 * columns in errors are one-based; a column counts bytes, so a tab is one.
 *
 * Invariants of a parsed struct: 0 <= nr_fields <= PAHOLE_MAX_FIELDS; fields
 * are in text order; names are unique and non-empty; offset + size <= size
 * for every field.
 *
 * Layering: models/ module; uses sim/error.h only.
 */
#ifndef MODELS_KERNEL_PAHOLE_H
#define MODELS_KERNEL_PAHOLE_H

#include "sim/error.h"

#define PAHOLE_NAME_MAX 64
#define PAHOLE_MAX_FIELDS 256

/*
 * struct pahole_field - one top-level member (or a member of an anonymous
 * struct or union at the top level).
 */
struct pahole_field {
	char name[PAHOLE_NAME_MAX]; /* "usage"; arrays without brackets */
	unsigned int offset; /* bytes from the start of the struct */
	unsigned int size; /* bytes; 0 for padding markers */
	unsigned int line; /* one-based line in the text */
};

/*
 * struct pahole_struct - a struct layout as pahole printed it.
 */
struct pahole_struct {
	char name[PAHOLE_NAME_MAX]; /* "page_counter" */
	unsigned int size; /* from the "size: N" summary comment */
	unsigned int nr_fields;
	struct pahole_field fields[PAHOLE_MAX_FIELDS];
};

/*
 * pahole_parse() - parse the first struct in @text, or the one named @want
 * when not NULL. @path names the text in errors. Return 0, or -1 with @err
 * set to path:line:col and what was expected and found.
 */
int pahole_parse(const char *text, const char *path, const char *want,
		 struct pahole_struct *out, struct sim_error *err);

/*
 * pahole_load() - read @path (at most 1 MiB) and parse it as pahole_parse()
 * does. Return 0, or -1 with @err set (cannot open, too big, not pahole
 * text).
 */
int pahole_load(const char *path, const char *want, struct pahole_struct *out,
		struct sim_error *err);

/* pahole_field() - the member named @name, or NULL. */
const struct pahole_field *pahole_field(const struct pahole_struct *ps,
					const char *name);

#endif /* MODELS_KERNEL_PAHOLE_H */
