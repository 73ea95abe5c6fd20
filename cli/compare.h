/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli/compare.h - read two result files and compare their metrics, for
 * `memcgsim compare OLD NEW` and for whoever broke a golden file.
 *
 * Theory of operation: compare_load() reads a file that memcgsim wrote
 * and keeps only what can be compared: rows, each a variant (in a sweep,
 * a variant at one point), and in each row its metrics as numbers. The
 * kind of file is found from its text, not its name:
 *
 *	run -f csv     variant,throughput,unit,change_pct,METRIC...[,X_ci95...]
 *	sweep.csv      point,KEY...,variant,throughput,unit,change_pct,...
 *	run -f yaml    {scenario, ..., variants: [{name, metrics: {M: {value,
 *	               unit, ci95, change_pct, higher_is_better}}, lines, ...}]}
 *	sweep.yaml     {..., points: [{point, set: {KEY: VALUE}, variants:
 *	               [as run -f yaml]}]}
 *
 * A directory is read as a sweep's: its sweep.csv. "-" is standard input.
 *
 * A row is named by its variant, or "POINT/VARIANT" in a sweep. Metric
 * names are written as CSV columns are ([a-z0-9_], "stock hit rate"
 * becomes "stock_hit_rate"), so the YAML and the CSV of one run hold the
 * same rows with the same values: the CSV's "throughput" is each
 * variant's first metric, which is "throughput" in the YAML too. Left out,
 * because they are not measurements of their own: change_pct (derived
 * from two values that are compared anyway), the confidence intervals,
 * units, hot lines, kernel functions and notes.
 *
 * compare_print() then walks OLD's rows in order, then the rows only NEW
 * has, and prints a table of the values that changed (all of them with
 * @all), then, for sweeps, the settings of the points in it, and one
 * summary line (here at --tolerance 0.5):
 *
 *	variant  metric              old      new       change
 *	+A       throughput      17533.2  17883.9          +2%  *
 *	+A       stock_hit_rate  94.9195  94.9201  +0.0006321%
 *	+C       (variant)             -        -  only in OLD  *
 *	compare: 2 of 120 values changed, 1 over 0.5%, 1 only in OLD
 *
 * Numbers have six significant digits, or as many as it takes to tell
 * the two apart (sim_format_double() when short), so that the table
 * stays within 80 columns.
 *
 * The change is (new - old) / |old| * 100; from 0 to anything else it is
 * infinite. A change over the tolerance, a row or metric in only one file,
 * and a sweep point set to other values in the two files are failures,
 * marked "*". The model is deterministic, so the default tolerance is 0:
 * any difference is a failure.
 *
 * Errors in a file fill a struct sim_error with its file, line and column.
 * Ownership: a struct compare_file is the caller's from compare_load() to
 * compare_free().
 *
 * Layering: cli/ command; uses sim/error.h, sim/csv.h (the CSV reader),
 * sim/scenario.h (the YAML tree) and sim/report.h (sim_format_double()).
 */
#ifndef CLI_COMPARE_H
#define CLI_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sim/error.h"

/* Exit statuses of `memcgsim compare`, also compare_print()'s results. */
#define COMPARE_SAME 0 /* every value within the tolerance */
#define COMPARE_DIFFERENT 1 /* some value over it, or in one file only */

struct compare_file;

/**
 * struct compare_opts - what to compare and what to print.
 * @tolerance: largest change that passes, in percent, >= 0
 * @metrics: compare only these metrics; NULL or none: every metric
 * @nr_metrics: entries of @metrics
 * @all: print every value, not only those that changed
 */
struct compare_opts {
	double tolerance;
	const char *const *metrics;
	unsigned int nr_metrics;
	bool all;
};

/**
 * struct compare_counts - what compare_print() found.
 * @values: values present in both files (and selected)
 * @changed: of those, the ones that differ
 * @over: of those, the ones over the tolerance
 * @only_old: rows or metrics only OLD has
 * @only_new: rows or metrics only NEW has
 * @set_differs: sweep points whose settings differ between the files
 */
struct compare_counts {
	unsigned int values, changed, over;
	unsigned int only_old, only_new, set_differs;
};

struct compare_file *compare_load(const char *path, struct sim_error *err);
struct compare_file *compare_parse(const char *name, const void *buf,
				   size_t len, struct sim_error *err);
void compare_free(struct compare_file *f);

int compare_check_metric(const struct compare_file *old,
			 const struct compare_file *new, const char *metric,
			 struct sim_error *err);
int compare_print(FILE *out, const struct compare_file *old,
		  const struct compare_file *new,
		  const struct compare_opts *opts,
		  struct compare_counts *counts);

#endif /* CLI_COMPARE_H */
