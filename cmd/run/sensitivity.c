// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/run/sensitivity.c - how firm a prediction is (sensitivity.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/run/sensitivity.h"
#include "sim/util.h"

/* The four nudges of a step: work_ns down, up; every latency down, up. */
#define NR_NUDGES 4

struct sens_variant {
	const char *name, *baseline; /* borrowed from the unnudged report */
	bool has; /* a change is defined */
	double change; /* as given */
	double lo[SENSITIVITY_MAX_STEPS], hi[SENSITIVITY_MAX_STEPS];
	char sign[48], rank[112]; /* the first nudge that flipped it */
};

struct sens_table {
	struct report *given;
	unsigned int nr;
	struct sens_variant v[SENSITIVITY_MAX_VARIANTS];
};

int sensitivity_parse(const char *arg, struct sensitivity *s)
{
	const char *p = arg;

	memset(s, 0, sizeof(*s));
	if (!arg) {
		s->nr = 2;
		s->pct[0] = 1;
		s->pct[1] = 5;
		return 0;
	}
	for (;;) {
		char *end;
		double v;

		if (s->nr == SENSITIVITY_MAX_STEPS || (*p < '0' || *p > '9'))
			return -1;
		errno = 0;
		v = strtod(p, &end);
		if (errno || end == p || !(v > 0 && v < 100))
			return -1;
		s->pct[s->nr++] = v;
		if (*end == '%')
			end++;
		if (!*end)
			return 0;
		if (*end != ',')
			return -1;
		p = end + 1;
	}
}

static void nudge_name(char *buf, size_t size, unsigned int k, double pct)
{
	snprintf(buf, size, "%s %c%g%%", k < 2 ? "work_ns" : "latencies",
		 k % 2 ? '+' : '-', pct);
}

/* The nudged run's changes, into @t's ranges for step @step. */
static void take(struct sens_table *t, const struct report *r,
		 unsigned int step, const char *nudge)
{
	double now[SENSITIVITY_MAX_VARIANTS];
	bool has[SENSITIVITY_MAX_VARIANTS];
	unsigned int i, j;

	for (i = 0; i < t->nr; i++) {
		struct sens_variant *v = &t->v[i];
		const char *name, *base;

		has[i] = i < report_nr_variants(r) &&
			 report_change(r, i, &name, &base, &now[i]) && v->has &&
			 !strcmp(name, v->name);
		if (!has[i])
			continue;
		v->lo[step] = fmin(v->lo[step], now[i]);
		v->hi[step] = fmax(v->hi[step], now[i]);
		if (!v->sign[0] && v->change * now[i] < 0)
			snprintf(v->sign, sizeof(v->sign), "%s", nudge);
	}
	for (i = 0; i < t->nr; i++)
		for (j = 0; j < t->nr; j++) {
			struct sens_variant *a = &t->v[i], *b = &t->v[j];

			if (!has[i] || !has[j] || a->change <= b->change ||
			    strcmp(a->baseline, b->baseline) || now[i] > now[j])
				continue;
			if (!a->rank[0])
				snprintf(a->rank, sizeof(a->rank),
					 "below %s under %s", b->name, nudge);
			if (!b->rank[0])
				snprintf(b->rank, sizeof(b->rank),
					 "above %s under %s", a->name, nudge);
		}
}

static void print_table(FILE *out, const struct sens_table *t,
			const struct sensitivity *s, const char *only,
			unsigned int *flagged)
{
	unsigned int i, k, nr = 0;

	fprintf(out,
		"\nsensitivity: each change against its baseline as given, and its range\n"
		"with work_ns and every latency of the profile nudged down and up\n");
	fprintf(out, "  %-14s %-10s %7s", "variant", "vs", "change");
	for (k = 0; k < s->nr; k++) {
		char h[24];

		snprintf(h, sizeof(h), "+-%g%%", s->pct[k]);
		fprintf(out, "  %15s", h);
	}
	fputc('\n', out);
	for (i = 0; i < t->nr; i++) {
		const struct sens_variant *v = &t->v[i];

		if (!v->has || (only && strcmp(only, v->name)))
			continue;
		nr++;
		fprintf(out, "  %-14s %-10s %+6.1f%%", v->name, v->baseline,
			v->change);
		for (k = 0; k < s->nr; k++)
			fprintf(out, "  %+6.1f..%+6.1f", v->lo[k], v->hi[k]);
		fprintf(out, "%s%s\n", v->sign[0] ? "  SIGN" : "",
			v->rank[0] ? "  RANK" : "");
		if (v->sign[0])
			fprintf(out,
				"    SIGN: the change turns over under %s\n",
				v->sign);
		if (v->rank[0])
			fprintf(out, "    RANK: %s\n", v->rank);
		*flagged += v->sign[0] || v->rank[0];
	}
	fprintf(out, "  %u of %u predictions flagged: %s\n", *flagged, nr,
		*flagged ?
			"their sign or ranking is a coin toss within the nudges" :
			"each keeps its sign and ranking under every nudge");
}

int sensitivity_run(const char *path, const struct run_opts *o,
		    const struct sensitivity *s, FILE *out,
		    unsigned int *flagged, struct sim_error *err)
{
	struct sens_table *t = calloc(1, sizeof(*t));
	struct run_opts n = *o;
	unsigned int i, step, k;
	int ret = -1;

	SIM_OOM_ON(!t);
	*flagged = 0;
	/* the runs are for the table alone: no trace, inspection, estimate */
	n.trace = NULL;
	n.inspect = NULL;
	n.estimate = NULL;
	n.variant =
		NULL; /* its baseline runs too; --variant's row is printed */
	n.nudge_work_ppm = n.nudge_latency_ppm = 0;
	if (scenario_run(path, &n, &t->given, err))
		goto out;
	t->nr = report_nr_variants(t->given);
	if (t->nr > SENSITIVITY_MAX_VARIANTS)
		t->nr = SENSITIVITY_MAX_VARIANTS;
	for (i = 0; i < t->nr; i++) {
		struct sens_variant *v = &t->v[i];

		v->has = report_change(t->given, i, &v->name, &v->baseline,
				       &v->change);
		for (step = 0; step < s->nr; step++)
			v->lo[step] = v->hi[step] = v->change;
	}
	for (step = 0; step < s->nr; step++)
		for (k = 0; k < NR_NUDGES; k++) {
			int32_t ppm = (int32_t)lround(s->pct[step] * 1e4);
			struct report *r = NULL;
			char name[48];

			n.nudge_work_ppm = k < 2 ? (k % 2 ? ppm : -ppm) : 0;
			n.nudge_latency_ppm = k < 2 ? 0 : (k % 2 ? ppm : -ppm);
			if (scenario_run(path, &n, &r, err))
				goto out;
			nudge_name(name, sizeof(name), k, s->pct[step]);
			take(t, r, step, name);
			report_free(r);
		}
	print_table(out, t, s, o->variant, flagged);
	ret = 0;
out:
	report_free(t->given);
	free(t);
	return ret;
}

int sensitivity_print(const char *path, const struct run_opts *o,
		      const struct sensitivity *s, bool to_stdout)
{
	struct run_opts quiet = *o;
	struct sim_error err;
	unsigned int flagged;

	quiet.progress = NULL;
	sim_error_clear(&err);
	if (sensitivity_run(path, &quiet, s, to_stdout ? stdout : stderr,
			    &flagged, &err)) {
		sim_error_print(stderr, &err);
		return -1;
	}
	return 0;
}
