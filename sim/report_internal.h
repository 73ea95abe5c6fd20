/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/report_internal.h - what the report's renderings share: the
 * report's own structs and the helpers sim/report.c lends the CSV and
 * YAML writers (sim/report_csv.c, sim/report_yaml.c). Nothing outside sim/report*.c includes this.
 */
#ifndef SIM_REPORT_INTERNAL_H
#define SIM_REPORT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/report.h"

struct report_metric_def {
	char *name;
	char *unit;
	bool higher_is_better;
};

struct report_value {
	unsigned int metric; /* index in report->metrics */
	double value, ci95;
};

struct report_variant {
	char *name;
	char *baseline; /* its own reference, or NULL */
	struct report_value *values; /* in the order recorded */
	unsigned int nr_values, alloc_values;
	struct report_line *lines;
	unsigned int nr_lines, alloc_lines;
	char **notes;
	unsigned int nr_notes, alloc_notes;
	uint64_t events; /* of its first run, warm-up included; 0: none */
	struct report_function *fns;
	unsigned int nr_fns, alloc_fns;
	char *legend; /* "KEY=VALUE, ..." of its set:, or NULL */
};

struct report {
	char *scenario;
	uint64_t seed;
	unsigned int replications;
	char *baseline; /* as named, NULL for the first variant */
	struct report_variant *variants;
	unsigned int nr_variants, alloc_variants;
	struct report_metric_def *metrics;
	unsigned int nr_metrics, alloc_metrics;
	char *description; /* the scenario's, or NULL */
	bool all_metrics; /* the table shows rows that are 0 everywhere */
	char **prov; /* key, value, key, value... (report_provenance()) */
	unsigned int nr_prov, alloc_prov; /* strings */
	bool oom; /* an allocation failed; writers refuse */
};

/* The baseline's index, or -1 with no variants. */
int report__baseline_index(const struct report *r);
/* The index variant @var's changes are measured against. */
int report__variant_base(const struct report *r, unsigned int var, int base);
/* @v's value of metric @m, or NULL. */
const struct report_value *report__find_value(const struct report_variant *v,
					      unsigned int m);
/* (@v - @base) / |@base| * 100 in *@pct; false when undefined. */
bool report__change_pct(double v, double base, double *pct);
/* @s on one line: each control character as '?'. */
void report__put_one_line(FILE *out, const char *s);
/* The CSV rendering (sim/report_csv.c). */
int report__write_csv(const struct report *r, FILE *out);
/* The YAML rendering (sim/report_yaml.c). */
int report__write_yaml(const struct report *r, FILE *out);

#endif /* SIM_REPORT_INTERNAL_H */
