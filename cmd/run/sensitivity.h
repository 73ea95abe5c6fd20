/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/run/sensitivity.h - how firm a prediction is: `run --sensitivity`
 * and `validate --sensitivity`.
 *
 * Theory of operation: a prediction near a knee of the model (a line about
 * to saturate) can swing by many points when an input moves by 1%; a user
 * who ranks designs by it must see that. sensitivity_run() runs the
 * scenario as given, then again with each step P of @s applied four ways:
 * every workload's work_ns times 1 - P% and 1 + P%, and every latency of
 * the machine profile times 1 - P% and 1 + P% (run_opts' nudges). For each
 * variant it prints the change against its baseline as given and, per
 * step, the lowest and highest change of the four nudged runs. A
 * prediction is flagged SIGN when some nudged run gives the change the
 * other sign, and RANK when some nudged run orders two variants of the
 * same baseline the other way round; the first nudge that did it is
 * named. Every variant runs (a change needs its baseline); with
 * --variant only its row is printed. Same scenario and seed, same
 * table: every run is deterministic.
 *
 * Layering: cmd/; runs scenarios through cmd/run/run.h.
 */
#ifndef CMD_RUN_SENSITIVITY_H
#define CMD_RUN_SENSITIVITY_H

#include <stdbool.h>
#include <stdio.h>

#include "cmd/run/run.h"

#define SENSITIVITY_MAX_STEPS 4
#define SENSITIVITY_MAX_VARIANTS 64

/* The steps, in percent (0 < P < 100); nr 0: off. */
struct sensitivity {
	unsigned int nr;
	double pct[SENSITIVITY_MAX_STEPS];
};

/*
 * sensitivity_parse() - "1,5" (or NULL: the default, 1 and 5) into @s.
 * Return: 0, or -1 (a step not in (0, 100), more than
 * SENSITIVITY_MAX_STEPS, or not a number).
 */
int sensitivity_parse(const char *arg, struct sensitivity *s);

/*
 * sensitivity_run() - run @path per @o as given and nudged by each step
 * of @s (see above), and print the table to @out. *@flagged is set to the
 * number of predictions flagged SIGN or RANK.
 * Return: 0, or -1 with @err set (the errors of scenario_run()).
 */
int sensitivity_run(const char *path, const struct run_opts *o,
		    const struct sensitivity *s, FILE *out,
		    unsigned int *flagged, struct sim_error *err);

/*
 * sensitivity_print() - sensitivity_run() without progress lines, to
 * stdout when @to_stdout (the report there, if any, is a table), else
 * to stderr (after a YAML or CSV report on stdout); its error printed to
 * stderr. Return: 0, or -1 (the exit status is 2).
 */
int sensitivity_print(const char *path, const struct run_opts *o,
		      const struct sensitivity *s, bool to_stdout);

#endif /* CMD_RUN_SENSITIVITY_H */
