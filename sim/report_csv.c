// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/report_csv.c - a report as CSV, for programs: the provenance as
 * "# KEY: VALUE" lines, then variant,throughput,unit,change_pct and the
 * other metrics (sim/report.h has the format).
 */
#define _XOPEN_SOURCE 700 /* strdup() */

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/csv.h"
#include "sim/report.h"
#include "sim/report_internal.h"

static void csv_num(FILE *out, double v)
{
	char buf[40];

	sim_format_double(buf, sizeof(buf), v);
	fputs(buf, out);
}

char *report_column_name(const char *metric)
{
	size_t n = 0;
	char *s = malloc(strlen(metric) + 16);

	if (!s)
		return NULL;
	for (; *metric; metric++) {
		unsigned char c = (unsigned char)*metric;

		c = (unsigned char)tolower(c);
		if (!isalnum(c) || c >= 0x80)
			c = '_';
		if (c == '_' && (!n || s[n - 1] == '_'))
			continue;
		s[n++] = (char)c;
	}
	while (n && s[n - 1] == '_')
		n--;
	if (!n) {
		memcpy(s, "metric", 6);
		n = 6;
	}
	s[n] = '\0';
	return s;
}

/* Column name of metric @m: [a-z0-9_], unique among @names[0..@nr). */
static char *csv_column_name(const char *metric, char *const *names,
			     unsigned int nr)
{
	unsigned int i, suffix = 1;
	char *s = report_column_name(metric);
	size_t n;
	bool clash;

	if (!s)
		return NULL;
	n = strlen(s);
	do {
		clash = false;
		for (i = 0; i < nr && !clash; i++)
			clash = names[i] && !strcmp(names[i], s);
		if (clash)
			snprintf(s + n, 16, "_%u", ++suffix);
	} while (clash);
	return s;
}

/* "# KEY: VALUE" lines: the scenario, seed, replications, provenance. */
static void csv_provenance(FILE *out, const struct report *r)
{
	unsigned int i;

	fputs("# scenario: ", out);
	report__put_one_line(out, r->scenario);
	fprintf(out, "\n# seed: %llu\n# replications: %u\n",
		(unsigned long long)r->seed, r->replications);
	for (i = 0; i < r->nr_prov; i += 2) {
		fprintf(out, "# %s: ", r->prov[i]);
		report__put_one_line(out, r->prov[i + 1]);
		fputc('\n', out);
	}
}

int report__write_csv(const struct report *r, FILE *out)
{
	static const char *const fixed[] = {
		"variant",
		"throughput",
		"unit",
		"change_pct",
	};
	unsigned int nr_fixed = 4, i, m, nr = 0;
	int base = report__baseline_index(r);
	const struct report_value *bp = NULL;
	int primary = -1;
	char **names;
	int ret = -1;

	if (base >= 0 && r->variants[base].nr_values) {
		bp = &r->variants[base].values[0];
		primary = (int)bp->metric;
	} else if (r->nr_metrics) {
		primary = 0;
	}
	names = calloc(nr_fixed + r->nr_metrics, sizeof(*names));
	if (!names)
		goto out_nomem;
	for (i = 0; i < nr_fixed; i++) {
		names[nr] = strdup(fixed[i]);
		if (!names[nr++])
			goto out_free_names;
	}
	for (m = 0; m < r->nr_metrics; m++) {
		if ((int)m == primary)
			continue;
		names[nr] = csv_column_name(r->metrics[m].name, names, nr);
		if (!names[nr++])
			goto out_free_names;
	}

	csv_provenance(out, r);
	for (i = 0; i < nr; i++)
		fprintf(out, "%s%s", i ? "," : "", names[i]);
	for (i = 1; r->replications > 1 && i < nr; i++)
		if (i != 2 && i != 3)
			fprintf(out, ",%s_ci95", names[i]);
	fputc('\n', out);

	for (i = 0; i < r->nr_variants; i++) {
		const struct report_variant *v = &r->variants[i];
		const struct report_value *p = v->nr_values ? &v->values[0] :
							      NULL;
		const struct report_value *val, *vbp;
		double pct;
		int vb;

		csv_write_field(out, v->name);
		fputc(',', out);
		if (p)
			csv_num(out, p->value);
		fputc(',', out);
		if (p)
			csv_write_field(out, r->metrics[p->metric].unit);
		fputc(',', out);
		vb = report__variant_base(r, i, base);
		vbp = vb >= 0 && r->variants[vb].nr_values ?
			      &r->variants[vb].values[0] :
			      NULL;
		if (p && (int)i == vb)
			fputc('0', out);
		else if (p && vbp && bp && p->metric == bp->metric &&
			 vbp->metric == bp->metric &&
			 report__change_pct(p->value, vbp->value, &pct))
			csv_num(out, pct);
		for (m = 0; m < r->nr_metrics; m++) {
			if ((int)m == primary)
				continue;
			fputc(',', out);
			val = report__find_value(v, m);
			if (val)
				csv_num(out, val->value);
		}
		if (r->replications > 1) {
			fputc(',', out);
			if (p)
				csv_num(out, p->ci95);
			for (m = 0; m < r->nr_metrics; m++) {
				if ((int)m == primary)
					continue;
				fputc(',', out);
				val = report__find_value(v, m);
				if (val)
					csv_num(out, val->ci95);
			}
		}
		fputc('\n', out);
	}
	ret = ferror(out) ? -1 : 0;

out_free_names:
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	if (ret)
		errno = errno ? errno : ENOMEM;
	return ret;

out_nomem:
	errno = ENOMEM;
	return -1;
}
