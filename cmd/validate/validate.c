// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/validate/validate.c - predicted against published results (validate.h).
 */
#define _GNU_SOURCE /* asprintf */

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/validate/validate.h"
#include "sim/error.h"
#include "sim/report.h"
#include "sim/scenario.h"

static void copy(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

/* The baseline @variant is compared with. */
static const char *variant_baseline(const struct scenario_node *root,
				    const char *variant)
{
	const struct scenario_node *vars = scenario_get(root, "variants");
	const struct scenario_node *b = scenario_get(root, "baseline");
	size_t i;

	for (i = 0; vars && i < scenario_len(vars); i++) {
		const struct scenario_node *v = scenario_item(vars, i);
		const struct scenario_node *n = scenario_get(v, "name");
		const struct scenario_node *vb = scenario_get(v, "baseline");

		if (n && scenario_scalar(n) &&
		    !strcmp(scenario_scalar(n), variant) && vb)
			return scenario_scalar(vb);
	}
	if (b && scenario_scalar(b))
		return scenario_scalar(b);
	if (vars && scenario_len(vars)) {
		const struct scenario_node *n =
			scenario_get(scenario_item(vars, 0), "name");

		return n ? scenario_scalar(n) : NULL;
	}
	return NULL;
}

/* Is @name some variant's baseline (a calibration run, not a prediction)? */
static bool is_baseline(const struct scenario_node *root, const char *name)
{
	const struct scenario_node *vars = scenario_get(root, "variants");
	size_t i;

	for (i = 0; vars && i < scenario_len(vars); i++) {
		const struct scenario_node *n =
			scenario_get(scenario_item(vars, i), "name");
		const char *b;

		if (!n || !scenario_scalar(n))
			continue;
		b = variant_baseline(root, scenario_scalar(n));
		if (b && !strcmp(b, name))
			return true;
	}
	return false;
}

/*
 * A source may be a folded YAML block (`source: >`): its newlines and tabs
 * become spaces, trailing ones dropped, so that it stays on its line of
 * the report and in its Markdown paragraph. (The loader refused every
 * other control character.)
 */
static void flatten(char *s)
{
	size_t n = strlen(s);
	char *p;

	for (p = s; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	while (n && s[n - 1] == ' ')
		s[--n] = '\0';
}

/*
 * validate_row() - @row for the published value of variant @name against
 * its baseline @base (both in @vals, of the `published:` block @pub):
 * the predicted and published changes of @metric and the error, a miss
 * past @tol percentage points. -1 when a change cannot be computed.
 */
static int validate_row(struct validate_row *row,
			const struct scenario_node *pub,
			const struct scenario_node *vals, struct report *r,
			const char *metric, double tol, const char *name,
			const char *base, struct sim_error *err)
{
	double pb, pv, bv, v;

	if (scenario_double(vals, name, true, 0, -INFINITY, INFINITY, &pv,
			    err) ||
	    scenario_double(vals, base, true, 0, -INFINITY, INFINITY, &pb,
			    err)) {
		if (!scenario_get(vals, base))
			scenario_error(
				err, vals,
				"'%s' is compared with '%s', which has no published value",
				name, base);
		return -1;
	}
	/* A change against 0 is no number: refuse, do not pass it. */
	if (!pb || !isfinite(pb) || !isfinite(pv)) {
		scenario_error(
			err,
			scenario_get(vals, pb && isfinite(pb) ? name : base),
			"published value %g: a change against it cannot be computed; expected a finite number%s",
			pb && isfinite(pb) ? pv : pb,
			pb ? "" : " other than 0 for a baseline");
		return -1;
	}
	copy(row->variant, sizeof(row->variant), name);
	copy(row->baseline, sizeof(row->baseline), base);
	if (!report_get(r, name, metric, &v) ||
	    !report_get(r, base, metric, &bv)) {
		scenario_error(err, pub,
			       "no metric '%s' predicted for '%s' and '%s'",
			       metric, name, base);
		return -1;
	}
	if (!bv || !isfinite(bv) || !isfinite(v)) {
		scenario_error(
			err, pub,
			"the predicted %s of '%s' is %g: no change against it can be compared",
			metric, isfinite(v) && bv ? name : base,
			isfinite(v) && bv ? v : bv);
		return -1;
	}
	row->predicted = v;
	row->published = pv;
	row->pred_change = (v - bv) / fabs(bv) * 100;
	row->pub_change = (pv - pb) / fabs(pb) * 100;
	row->error_pp = row->pred_change - row->pub_change;
	row->miss = fabs(row->error_pp) > tol;
	return 0;
}

/* Same order, best to worst, for the rows sharing one baseline? */
static bool same_order(const struct validate_result *res)
{
	const struct validate_row *a, *b;
	unsigned int j, k;

	for (j = 0; j < res->nr; j++) {
		for (k = 0; k < res->nr; k++) {
			a = &res->rows[j];
			b = &res->rows[k];
			if (!strcmp(a->baseline, b->baseline) &&
			    (a->pub_change > b->pub_change) !=
				    (a->pred_change > b->pred_change) &&
			    a->pub_change != b->pub_change)
				return false;
		}
	}
	return true;
}

int validate_scenario(const char *path, const struct run_opts *o,
		      struct validate_result *res, struct sim_error *err)
{
	struct scenario_node *root;
	const struct scenario_node *pub, *vals;
	struct report *r = NULL;
	const char *metric = "throughput", *s;
	double tol = VALIDATE_DEFAULT_TOLERANCE_PP;
	size_t i;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	copy(res->path, sizeof(res->path), path);
	root = scenario_load_file(path, err);
	if (!root)
		return -1;
	pub = scenario_get(root, "published");
	if (!pub) {
		sim_error_set(
			err, path, 0, 0,
			"no 'published' block: nothing to validate against");
		goto out;
	}
	if (scenario_string(pub, "metric", false, "throughput", &metric, err) ||
	    scenario_double(pub, "tolerance_pp", false,
			    VALIDATE_DEFAULT_TOLERANCE_PP, 0, 100, &tol, err) ||
	    scenario_string(pub, "source", false, "", &s, err))
		goto out;
	copy(res->source, sizeof(res->source), s);
	flatten(res->source);
	copy(res->metric, sizeof(res->metric), metric);
	res->tolerance_pp = tol;
	s = scenario_scalar(scenario_get(root, "scenario"));
	copy(res->scenario, sizeof(res->scenario), s ? s : path);

	if (scenario_run(path, o, &r, err))
		goto out;
	vals = scenario_get(pub, "values");
	for (i = 0; vals && i < scenario_len(vals); i++) {
		const char *name = scenario_key(vals, i);
		const char *base = variant_baseline(root, name);

		if (!base || is_baseline(root, name) ||
		    res->nr == VALIDATE_MAX_ROWS)
			continue;
		if (validate_row(&res->rows[res->nr], pub, vals, r, metric, tol,
				 name, base, err))
			goto out;
		res->misses += res->rows[res->nr].miss;
		res->nr++;
	}
	if (!res->nr) {
		scenario_error(
			err, vals ? vals : pub,
			"no published value to validate: 'values' must give a variant other than the baselines, and its baseline");
		goto out;
	}
	res->order_ok = same_order(res);
	ret = 0;
out:
	report_free(r);
	scenario_free(root);
	return ret;
}

void validate_print(FILE *out, const struct validate_result *res, bool markdown)
{
	char path[2048], scenario[512], metric[256], source[2048];
	unsigned int i;

	/* Names from the input, inert on a terminal and one line each. */
	sim_escape(path, sizeof(path), res->path);
	sim_escape(scenario, sizeof(scenario), res->scenario);
	sim_escape(metric, sizeof(metric), res->metric);
	sim_escape(source, sizeof(source), res->source);
	if (markdown) {
		fprintf(out, "**%s** (%s; tolerance %.1f pp): %s\n\n", scenario,
			metric, res->tolerance_pp, source);
		fprintf(out,
			"| variant | vs | predicted | published | error | |\n");
		fprintf(out, "| --- | --- | ---: | ---: | ---: | --- |\n");
		for (i = 0; i < res->nr; i++) {
			const struct validate_row *w = &res->rows[i];

			fprintf(out,
				"| %s | %s | %+.1f%% | %+.1f%% | %+.1f pp | %s |\n",
				w->variant, w->baseline, w->pred_change,
				w->pub_change, w->error_pp,
				w->miss ? "**miss**" : "ok");
		}
		fprintf(out, "\nOrder of the variants: %s.\n\n",
			res->order_ok ? "as published" :
					"**differs from the published order**");
		return;
	}
	fprintf(out, "%s: %s, tolerance %.1f pp\n  published: %s\n", path,
		metric, res->tolerance_pp, source);
	fprintf(out, "  %-14s %-10s %10s %10s %9s\n", "variant", "vs",
		"predicted", "published", "error");
	for (i = 0; i < res->nr; i++) {
		const struct validate_row *w = &res->rows[i];

		fprintf(out, "  %-14s %-10s %+9.1f%% %+9.1f%% %+6.1f pp%s\n",
			w->variant, w->baseline, w->pred_change, w->pub_change,
			w->error_pp, w->miss ? "  MISS" : "");
	}
	fprintf(out, "  order: %s; %u of %u outside tolerance\n",
		res->order_ok ? "as published" : "DIFFERS from published",
		res->misses, res->nr);
}

/*
 * validate_dir_scenarios() - the .yaml files of @dir, sorted, appended to
 * *@paths (malloc'd, as is each path; *@nr counts them). Return 0, or -1
 * when @dir cannot be read.
 */
int validate_dir_scenarios(const char *dir, char ***paths, unsigned int *nr)
{
	struct dirent **ents;
	int n, i;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		size_t len = strlen(ents[i]->d_name);
		char **grown;

		if (len > 5 && !strcmp(ents[i]->d_name + len - 5, ".yaml")) {
			grown = realloc(*paths, (*nr + 1) * sizeof(**paths));
			if (grown) {
				*paths = grown;
				if (asprintf(&grown[*nr], "%s/%s", dir,
					     ents[i]->d_name) >= 0)
					(*nr)++;
			}
		}
		free(ents[i]);
	}
	free(ents);
	return 0;
}
