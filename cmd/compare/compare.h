/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/compare/compare.h - read result files and compare their metrics with the
 * first's, for `memcgsim compare OLD NEW...` and for whoever broke a
 * golden file.
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
 * from two values that are compared anyway), units, hot lines, kernel
 * functions and notes; a metric's confidence interval is kept with it.
 *
 * compare_print() then walks the first file's (the baseline's, OLD's)
 * rows in order, then the rows only the others have, and prints a table
 * of the values that changed (all of them with @all), each file's value
 * beside the baseline's, then, for sweeps, the settings of the points in
 * it, and a summary line per file (here at --tolerance 0.5):
 *
 *	variant  metric              old      new       change
 *	+A       throughput      17533.2  17883.9          +2%  better
 *	+A       latency_p99      9133.1   9412.5      +3.059%  worse *
 *	+A       stock_hit_rate  94.9195  94.9201  +0.0006321%
 *	+C       (variant)             -        -  only in OLD  *
 *	compare: 3 of 120 values changed, 2 over 0.5% (1 better, 1 worse,
 *	0 with no direction), 1 only in OLD
 *
 * Before a summary, a note names the two scenarios when two YAML files
 * are runs of different ones.
 *
 * With more than two files the columns are labelled base, new1, new2...
 * (a legend above the table says which file is which), and each file
 * has its value, change and verdict.
 *
 * Numbers have six significant digits, or as many as it takes to tell
 * a changed value from the baseline's (sim_format_double() when short).
 *
 * The change is (new - old) / |old| * 100; from 0 to anything else it is
 * infinite. Values within COMPARE_NOISE of each other (relative) are
 * equal: 14.239999999999998 and 14.24 are one sum added up in two
 * orders. A change over the tolerance is judged by the metric's
 * direction (compare_direction(), a table by name): better or worse, or
 * "changed" for a metric without one. Where the files carry 95%
 * confidence intervals (run -r N: _ci95 columns, ci95 keys), a change
 * within sqrt(ci_old^2 + ci_new^2) is "within CI" instead. Worse,
 * changed, a row or metric in only one file, and a sweep point set to
 * other values are failures, marked "*"; better is not. The model is
 * deterministic, so the default tolerance is 0: any change beyond
 * rounding is judged.
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
#define COMPARE_SAME 0 /* nothing worse, nothing missing */
#define COMPARE_DIFFERENT 1 /* something worse, changed, or in one file */

/* Values this close, relative to the larger, are equal: rounding. */
#define COMPARE_NOISE 1e-9

/* The most files one comparison takes: the baseline and 15 more. */
#define COMPARE_MAX_FILES 16

/* Directions of a metric (compare_direction()). */
#define COMPARE_NONE 0 /* a change is only reported */
#define COMPARE_HIGHER 1 /* higher is better */
#define COMPARE_LOWER (-1) /* lower is better */

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
 * struct compare_counts - what compare_print() found, over all files.
 * @values: values present in the baseline and a file (and selected)
 * @changed: of those, the ones that differ by more than rounding
 * @noise: the ones equal but for rounding (COMPARE_NOISE)
 * @over: changed by more than the tolerance, outside any CI: the sum
 *	of @better, @worse and @undirected
 * @better: of those, the ones better by the metric's direction
 * @worse: the ones worse
 * @undirected: the ones of a metric without a direction
 * @within_ci: over the tolerance, within the confidence intervals
 * @only_old: rows or metrics the baseline has and a file not
 * @only_new: rows or metrics a file has and the baseline not
 * @set_differs: sweep points whose settings differ from the baseline's
 */
struct compare_counts {
	unsigned int values, changed, noise, over;
	unsigned int better, worse, undirected, within_ci;
	unsigned int only_old, only_new, set_differs;
};

struct compare_file *compare_load(const char *path, struct sim_error *err);
struct compare_file *compare_parse(const char *name, const void *buf,
				   size_t len, struct sim_error *err);
void compare_free(struct compare_file *f);

int compare_direction(const char *metric);
int compare_check_metric(const struct compare_file *const *files,
			 unsigned int nr, const char *metric,
			 struct sim_error *err);
int compare_print(FILE *out, const struct compare_file *const *files,
		  unsigned int nr, const struct compare_opts *opts,
		  struct compare_counts *counts);

#endif /* CLI_COMPARE_H */
