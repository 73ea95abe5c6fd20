/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/validate/validate.h - predicted against published results.
 *
 * Theory of operation: a scenario's `published:` block gives what real
 * hardware measured for some variants (metric, values, source, and a
 * tolerance in percentage points). validate_scenario() runs every variant
 * and, for each published variant other than a baseline, compares the
 * predicted change against its baseline (the variant's own `baseline:`,
 * else the scenario's) with the published change; the error is the
 * difference in percentage points. A prediction misses when the error
 * exceeds the tolerance. The order of the variants by published change
 * is also compared with the order by predicted change.
 *
 * Layering: models/ module; uses cmd/run/run.h.
 */
#ifndef CLI_VALIDATE_H
#define CLI_VALIDATE_H

#include <stdbool.h>
#include <stdio.h>

#include "cmd/run/run.h"

#define VALIDATE_MAX_ROWS 64
/* published.tolerance_pp when absent (doc/memcgsim.1; 0 to 100). */
#define VALIDATE_DEFAULT_TOLERANCE_PP 3.0

struct validate_row {
	char variant[64], baseline[64];
	double predicted, published; /* the metric, both */
	double pred_change, pub_change; /* percent against the baseline */
	double error_pp; /* pred_change - pub_change */
	bool miss;
};

struct validate_result {
	char scenario[128];
	char path[512];
	char metric[64];
	char source[512];
	double tolerance_pp;
	unsigned int nr;
	struct validate_row rows[VALIDATE_MAX_ROWS];
	bool order_ok; /* ranked alike, best to worst */
	unsigned int misses;
};

/*
 * validate_scenario() - run @path (per @o) and compare. Return 0 with
 * @res filled, or -1 with @err set (bad input, or no `published:`).
 */
int validate_scenario(const char *path, const struct run_opts *o,
		      struct validate_result *res, struct sim_error *err);

/* Print @res as a table for people, or as a Markdown table. */
void validate_print(FILE *out, const struct validate_result *res,
		    bool markdown);

/*
 * validate_dir_scenarios() - append the *.yaml files of @dir, sorted, to
 * the malloc'd array *@paths of *@nr malloc'd paths: 0, or -1 when @dir
 * cannot be read.
 */
int validate_dir_scenarios(const char *dir, char ***paths, unsigned int *nr);

#endif /* CLI_VALIDATE_H */
