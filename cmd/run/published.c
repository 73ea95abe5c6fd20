// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/run/published.c - a scenario's `published:` block: what real
 * hardware measured ({source, metric, values, tolerance_pp}), its keys,
 * their check when the scenario loads, and the published value set
 * beside the model's in the results (row "published").
 */
#include <string.h>

#include "cmd/run/internal.h"
#include "sim/error.h"
#include "sim/stats.h"

const struct scenario_key run__published_keys[NR_PUB_KEYS] = {
	[PUB_SOURCE] = {
		.name = "source",
		.type = SCENARIO_KEY_STRING,
		.required = true,
		.size = sizeof(const char *),
		.doc = "Where the measurements were published",
	},
	[PUB_METRIC] = {
		.name = "metric",
		.type = SCENARIO_KEY_STRING,
		.size = sizeof(const char *),
		.def_str = "throughput",
		.doc = "The metric they measure",
	},
	[PUB_VALUES] = {
		.name = "values",
		.type = SCENARIO_KEY_CUSTOM,
		.required = true,
		.form = "map",
		.doc = "{VARIANT: NUMBER, ...}, the measured value of each variant named",
	},
	[PUB_TOLERANCE_PP] = {
		.name = "tolerance_pp",
		.type = SCENARIO_KEY_DOUBLE,
		.size = sizeof(double),
		.dmin = 0,
		.dmax = 100,
		.ddef = 3.0,
		.doc = "The largest error, in percentage points, that validate accepts between a predicted change and the published one",
	},
};

int run__check_published(const struct scenario_node *base,
			 const struct scenario_node *vars,
			 struct sim_error *err)
{
	const struct scenario_node *p = scenario_get(base, "published");
	const struct scenario_node *vals;
	const char *s;
	double d;
	size_t i, j;

	if (!p)
		return 0;
	if (run__check_keys(p, run__published_keys, NR_PUB_KEYS, err) ||
	    scenario_key_get(p, &run__published_keys[PUB_SOURCE], &s, err) ||
	    scenario_key_get(p, &run__published_keys[PUB_METRIC], &s, err) ||
	    scenario_key_get(p, &run__published_keys[PUB_TOLERANCE_PP], &d,
			     err))
		return -1;
	vals = scenario_get(p, "values");
	if (!vals || scenario_kind(vals) != SCENARIO_MAP) {
		scenario_error(
			err, vals ? vals : p,
			"expected 'values': a map of variant names to measured values");
		return -1;
	}
	for (i = 0; i < scenario_len(vals); i++) {
		const char *name = scenario_key(vals, i);
		bool found = false;

		for (j = 0; vars && j < scenario_len(vars); j++) {
			const char *vname = scenario_scalar(
				scenario_get(scenario_item(vars, j), "name"));

			if (vname && !strcmp(vname, name))
				found = true;
		}
		if (!found) {
			scenario_error(err, scenario_item(vals, i),
				       "no variant named '%s'", name);
			return -1;
		}
		if (scenario_double(vals, name, true, 0, -1e300, 1e300, &d,
				    err))
			return -1;
	}
	return 0;
}

/*
 * run__record() - the metrics of @variant's replications; right after the
 * published metric, the published value when there is one (row
 * "published"), so the table shows both changes side by side.
 */
void run__record(struct report *r, int variant, struct run_result *res,
		 unsigned int reps, const struct scenario_node *base,
		 const char *name)
{
	const struct scenario_node *pub = scenario_get(base, "published");
	const struct scenario_node *vals = scenario_get(pub, "values");
	const char *metric = NULL;
	unsigned int m, k;
	double x[1024], mean, half, pv;
	struct sim_error ignored;

	if (pub && scenario_key_get(pub, &run__published_keys[PUB_METRIC],
				    &metric, &ignored))
		metric = NULL;
	for (m = 0; m < res[0].nr; m++) {
		for (k = 0; k < reps; k++)
			x[k] = res[k].value[m];
		sim_ci95(x, reps, &mean, &half);
		report_metric(r, variant, res[0].name[m], res[0].unit[m], mean,
			      half, res[0].higher_is_better[m]);
		if (metric && !strcmp(metric, res[0].name[m]) && vals &&
		    scenario_get(vals, name) &&
		    !scenario_double(vals, name, false, 0, -1e300, 1e300, &pv,
				     &ignored))
			report_metric(r, variant, "published", res[0].unit[m],
				      pv, 0, res[0].higher_is_better[m]);
	}
}
