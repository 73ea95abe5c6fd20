/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/report.h - results of a scenario run, and their three renderings:
 * a table for people (mmtests compare-kernels style: a row per metric, a
 * column per variant, each value followed by its change against the
 * baseline in parentheses, at most 80 columns wide), YAML (through the
 * libyaml emitter) and CSV, for programs.
 *
 * Theory of operation: the runner creates a report, adds variants in
 * scenario order, and records for each variant its metrics (mean over
 * replications and the half-width of the 95% confidence interval) and its
 * hottest cache lines. The first metric recorded for a variant is its
 * primary metric (throughput). Writers never print pointers, times of day
 * or anything else that varies between runs: same report, same bytes.
 *
 * Renderings (decided in sim/report.c, whose header shows a table):
 *  - table: "# scenario NAME, seed N, R replication(s)", a blank line,
 *    then blocks of at most 80 columns: a heading row of variant names,
 *    one row per metric, "metric (unit)" then per variant "value" or
 *    "value +-ci95" (replications > 1) and "(+12.34%)" against the
 *    baseline, whose own column shows values only. A row prints all its
 *    values with the same decimals (five significant digits for its
 *    largest value). Then a "hot lines: VARIANT" section per variant with
 *    lines, and the notes.
 *  - YAML: scenario, seed, replications, provenance, baseline,
 *    variants: [{name,
 *    metrics: {metric: {value, unit, ci95, change_pct, higher_is_better}},
 *    lines, notes}]. change_pct is left out for the baseline and where the
 *    baseline's value is 0 or missing. Numbers use sim_format_double().
 *  - CSV: variant,throughput,unit,change_pct, then the other metrics
 *    (names reduced to [a-z0-9_]), then with replications > 1 a _ci95
 *    column for throughput and each other metric, in the same order.
 *    "throughput" is each variant's primary metric; change_pct compares
 *    it with the baseline's primary metric (0 for the baseline itself,
 *    empty when undefined). Missing values are empty fields.
 *
 * Layering: sim/ primitive; uses sim/error.h, and writes through
 * sim/yaml_emit.h and sim/csv.h.
 */
#ifndef SIM_REPORT_H
#define SIM_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/error.h"

enum report_format {
	REPORT_TABLE,
	REPORT_YAML,
	REPORT_CSV,
};

/*
 * struct report_line - one hot cache line, as the teaching view shows it.
 */
#define REPORT_MAX_CPUS 1024

struct report_line {
	char name[96]; /* "counter[0]" or "page_counter@top line 0" */
	char fields[256]; /* "usage min low high max" */
	uint64_t reads, writes, rmws; /* accesses by kind */
	uint64_t hits, misses; /* served locally / needed the line */
	uint64_t transfers; /* moves between CPUs */
	uint64_t xfer_by_dist[5]; /* smt, llc, die, socket, memory */
	double wait_ns; /* total time requesters queued */
	double busy_ns; /* total time the line was occupied */
	double utilisation; /* busy / run time, 0..1 */
	unsigned int nr_cpus; /* entries of xfer_to_cpu */
	uint32_t xfer_to_cpu[REPORT_MAX_CPUS]; /* transfers to each CPU */
};

/*
 * struct report_function - time by kernel function, as perf report: self
 * and children in percent of all CPU time, calls per operation.
 */
struct report_function {
	char name[48];
	double self_pct, children_pct, calls_per_op;
};

struct report;

struct report *report_create(const char *scenario, uint64_t seed,
			     unsigned int replications);
void report_free(struct report *r);

/* Add a variant (column); returns its index. */
int report_variant(struct report *r, const char *name);
/* Name the baseline variant; NULL or unknown means the first variant. */
void report_set_baseline(struct report *r, const char *name);
/*
 * Give variant @variant its own baseline: its changes are measured
 * against @name instead (e.g. each client count against its own base).
 */
void report_variant_baseline(struct report *r, int variant, const char *name);

/*
 * report_metric() - record @metric for @variant. @ci95 is the half-width
 * of the 95% confidence interval, 0 with a single replication. Metrics
 * appear in the order first recorded. @higher_is_better decides nothing
 * numeric; it is written to YAML for tools such as compare.
 */
void report_metric(struct report *r, int variant, const char *metric,
		   const char *unit, double value, double ci95,
		   bool higher_is_better);
/* The value of @metric for @variant: false when there is none. */
bool report_get(const struct report *r, const char *variant, const char *metric,
		double *value);
/* The same, with the half-width of its 95% confidence interval. */
bool report_get_ci(const struct report *r, const char *variant,
		   const char *metric, double *value, double *ci95);
/* The variants recorded, and each one's change (see report.c). */
unsigned int report_nr_variants(const struct report *r);
bool report_change(const struct report *r, unsigned int i, const char **name,
		   const char **baseline, double *pct);
/* The first metric of @variant whose value or interval is not finite
 * (nan, inf), or NULL: a result file holds numbers only. */
const char *report_nonfinite(const struct report *r, int variant);
/*
 * report_events() - the engine events @variant's first run took, warm-up
 * included, as check estimates them: written to YAML as `events`, so an
 * estimate can be checked.
 */
void report_events(struct report *r, int variant, uint64_t events);
void report_line(struct report *r, int variant, const struct report_line *line);
void report_function(struct report *r, int variant,
		     const struct report_function *fn);
/* Free-form note for a variant, e.g. a kernel WARN that fired. */
void report_note(struct report *r, int variant, const char *note);

/*
 * report_provenance() - record where the results come from: @key and
 * @value (both copied), kept in the order given. The key "set" may
 * repeat, once per --set. Every rendering carries them: YAML as a
 * `provenance:` map (the "set" values as one list), CSV as "# KEY: VALUE"
 * lines above the header (after "# scenario", "# seed" and
 * "# replications"), the table as the line under its title. A value is
 * one line: control characters are written as '?' in CSV and the table.
 */
void report_provenance(struct report *r, const char *key, const char *value);
/* The value recorded for @key (the first, for "set"), or NULL. */
const char *report_provenance_get(const struct report *r, const char *key);

/*
 * What the table prints for people under its title (the table only: the
 * YAML and CSV carry the scenario's own file through its digest):
 * report_describe() the scenario's description, report_variant_legend()
 * a variant's settings ("kernel.charge_batch=64, ..."; "" for a variant
 * that sets nothing), one "# NAME: SETTINGS" line each, wrapped at 80.
 */
void report_describe(struct report *r, const char *text);
void report_variant_legend(struct report *r, int variant, const char *text);
/*
 * report_all_metrics() - with @all false (the default) the table leaves
 * out the rows whose value is 0 in every variant and says so in one line
 * at the end (--all-metrics shows them); YAML and CSV keep every metric.
 */
void report_all_metrics(struct report *r, bool all);
/* The name of variant @i in the order added, or NULL past the last. */
const char *report_variant_name(const struct report *r, unsigned int i);

int report_write(const struct report *r, enum report_format fmt, FILE *out);

/*
 * report_column_name() - the CSV column a metric is written under:
 * lower case, [a-z0-9_], runs of others as one '_' (malloc'd; NULL
 * without memory). Columns that would clash get a _2, _3... suffix.
 */
char *report_column_name(const char *metric);

/*
 * sim_format_double() - the shortest of "%.15g", "%.16g", "%.17g" that
 * reads back as exactly @v: deterministic and round-trip exact. Non-finite
 * values are written "nan", "inf" and "-inf"; callers with another
 * spelling (YAML's ".nan") check isfinite() first.
 */
void sim_format_double(char *buf, size_t size, double v);

#endif /* SIM_REPORT_H */
