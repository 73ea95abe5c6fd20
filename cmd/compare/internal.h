/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/compare/internal.h - what the two halves of compare share: a loaded
 * file's rows and values (compare.c reads them) and the helpers
 * compare_print.c needs to walk them. Nothing else includes this.
 */
#ifndef CLI_COMPARE_INTERNAL_H
#define CLI_COMPARE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/compare/compare.h"

#define TABLE_WIDTH 80
#define NUM_MAX 40 /* one sim_format_double() number */
#define NUM_SHORT 12 /* numbers up to this long are printed exactly */

/* One metric of one row. */
struct cmp_value {
	char *metric; /* as a CSV column: [a-z0-9_] */
	double value;
	double ci95; /* half-width of its 95% CI; NAN when not written */
};

/* A variant's results (in a sweep, at one point). */
struct cmp_row {
	char *name; /* "VARIANT" or "POINT/VARIANT" */
	char *point; /* sweep: the point; NULL otherwise */
	char *set; /* sweep: "KEY=VALUE, ..." of the point */
	char *set_values; /* sweep: "VALUE\nVALUE..." (compared) */
	struct cmp_value *values;
	unsigned int nr_values, alloc_values;
	/* Past VALUE_INDEX_MIN values: value index + 1, or 0 for empty. */
	unsigned int *vindex;
	unsigned int vindex_size; /* 0, or a power of two > 2 * nr_values */
};

struct compare_file {
	char *name;
	char *scenario; /* YAML: its scenario's name; CSV: NULL */
	bool sweep;
	/*
	 * Provenance: key, value, key, value... (seed, replications and
	 * the run's `provenance:`, or a CSV's "# KEY: VALUE" lines); "set"
	 * once, its values joined by ", ".
	 */
	char **prov;
	unsigned int nr_prov, alloc_prov; /* strings */
	struct cmp_row *rows;
	unsigned int nr_rows, alloc_rows;
	/* Open addressing on row names: row index + 1, or 0 for empty. */
	unsigned int *index;
	unsigned int index_size; /* a power of two, > 2 * nr_rows */
};

/*
 * A set of borrowed names, by open addressing: the CSV header's duplicate
 * and _ci95 checks and --metric's list of names, which would otherwise
 * compare every name with every other (100000 columns: minutes).
 */
struct name_set {
	const char **slot;
	unsigned int size, nr; /* size: 0 or a power of two > 2 * nr */
};

/* The provenance value of @key in @f, or NULL. */
const char *compare__prov(const struct compare_file *f, const char *key);
void *compare__grow(void *arr, unsigned int *alloc, unsigned int nr,
		    size_t size);
void compare__oom(struct sim_error *err, const char *file);
struct cmp_row *compare__find_row(const struct compare_file *f,
				  const char *name);
const struct cmp_value *compare__find_value(const struct cmp_row *row,
					    const char *metric);
int compare__name_set_add(struct name_set *set, const char *name);
void compare__name_set_free(struct name_set *set);

#endif /* CLI_COMPARE_INTERNAL_H */
