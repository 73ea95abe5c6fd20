// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/report_yaml.c - a report as YAML, for programs, through the
 * libyaml emitter (sim/yaml_emit.h): scenario, seed, replications, the
 * provenance, the baseline and each variant's metrics, hot lines, kernel
 * functions and notes (sim/report.h has the format).
 */
#define _XOPEN_SOURCE 700 /* strdup() */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/report.h"
#include "sim/report_internal.h"
#include "sim/yaml_emit.h"

/* A number as sim_format_double() writes it; YAML's .nan, .inf, -.inf. */
static void y_num(struct sim_yaml *y, double v)
{
	char buf[40];

	if (isnan(v))
		snprintf(buf, sizeof(buf), ".nan");
	else if (isinf(v))
		snprintf(buf, sizeof(buf), "%s", v < 0 ? "-.inf" : ".inf");
	else
		sim_format_double(buf, sizeof(buf), v);
	sim_yaml_plain(y, buf);
}

static void y_kv_u64(struct sim_yaml *y, const char *key, uint64_t v)
{
	sim_yaml_plain(y, key);
	sim_yaml_u64(y, v);
}

static void y_kv_num(struct sim_yaml *y, const char *key, double v)
{
	sim_yaml_plain(y, key);
	y_num(y, v);
}

static void y_kv_str(struct sim_yaml *y, const char *key, const char *s)
{
	sim_yaml_plain(y, key);
	sim_yaml_str(y, s);
}

/* A fixed-size char array field that may lack its terminator. */
static void y_kv_field(struct sim_yaml *y, const char *key, const char *s,
		       size_t size)
{
	char buf[512];
	size_t len = strnlen(s, size);

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	y_kv_str(y, key, buf);
}

static void y_line(struct sim_yaml *y, const struct report_line *l)
{
	unsigned int i;

	sim_yaml_map_start(y, false);
	y_kv_field(y, "name", l->name, sizeof(l->name));
	y_kv_field(y, "fields", l->fields, sizeof(l->fields));
	y_kv_u64(y, "reads", l->reads);
	y_kv_u64(y, "writes", l->writes);
	y_kv_u64(y, "rmws", l->rmws);
	y_kv_u64(y, "hits", l->hits);
	y_kv_u64(y, "misses", l->misses);
	y_kv_u64(y, "transfers", l->transfers);
	sim_yaml_plain(y, "xfer_by_dist");
	sim_yaml_seq_start(y, true);
	for (i = 0; i < sizeof(l->xfer_by_dist) / sizeof(l->xfer_by_dist[0]);
	     i++)
		sim_yaml_u64(y, l->xfer_by_dist[i]);
	sim_yaml_seq_end(y);
	y_kv_num(y, "wait_ns", l->wait_ns);
	y_kv_num(y, "busy_ns", l->busy_ns);
	y_kv_num(y, "utilisation", l->utilisation);
	if (l->nr_cpus) {
		sim_yaml_plain(y, "transfers_to_cpu");
		sim_yaml_seq_start(y, true);
		for (i = 0; i < l->nr_cpus && i < REPORT_MAX_CPUS; i++)
			sim_yaml_u64(y, l->xfer_to_cpu[i]);
		sim_yaml_seq_end(y);
	}
	sim_yaml_map_end(y);
}

static void y_variant(struct sim_yaml *y, const struct report *r,
		      unsigned int var, int base)
{
	const struct report_variant *v = &r->variants[var];
	unsigned int i;

	base = report__variant_base(r, var, base);
	sim_yaml_map_start(y, false);
	y_kv_str(y, "name", v->name);
	if (v->baseline)
		y_kv_str(y, "baseline", v->baseline);
	sim_yaml_plain(y, "metrics");
	sim_yaml_map_start(y, false);
	for (i = 0; i < v->nr_values; i++) {
		const struct report_value *val = &v->values[i];
		const struct report_metric_def *m = &r->metrics[val->metric];
		const struct report_value *b;
		double pct;

		b = report__find_value(&r->variants[base], val->metric);
		sim_yaml_str(y, m->name);
		sim_yaml_map_start(y, false);
		y_kv_num(y, "value", val->value);
		y_kv_str(y, "unit", m->unit);
		y_kv_num(y, "ci95", val->ci95);
		if ((int)var != base && b &&
		    report__change_pct(val->value, b->value, &pct))
			y_kv_num(y, "change_pct", pct);
		sim_yaml_plain(y, "higher_is_better");
		sim_yaml_plain(y, m->higher_is_better ? "true" : "false");
		sim_yaml_map_end(y);
	}
	sim_yaml_map_end(y);
	sim_yaml_plain(y, "lines");
	sim_yaml_seq_start(y, false);
	for (i = 0; i < v->nr_lines; i++)
		y_line(y, &v->lines[i]);
	sim_yaml_seq_end(y);
	if (v->nr_fns) {
		sim_yaml_plain(y, "functions");
		sim_yaml_seq_start(y, false);
		for (i = 0; i < v->nr_fns; i++) {
			sim_yaml_map_start(y, false);
			y_kv_field(y, "name", v->fns[i].name,
				   sizeof(v->fns[i].name));
			y_kv_num(y, "self_pct", v->fns[i].self_pct);
			y_kv_num(y, "children_pct", v->fns[i].children_pct);
			y_kv_num(y, "calls_per_op", v->fns[i].calls_per_op);
			sim_yaml_map_end(y);
		}
		sim_yaml_seq_end(y);
	}
	if (v->events) {
		sim_yaml_plain(y, "events");
		sim_yaml_u64(y, v->events);
	}
	sim_yaml_plain(y, "notes");
	sim_yaml_seq_start(y, false);
	for (i = 0; i < v->nr_notes; i++)
		sim_yaml_str(y, v->notes[i]);
	sim_yaml_seq_end(y);
	sim_yaml_map_end(y);
}

/* provenance: {KEY: VALUE..., set: [VALUE...]}, in the order recorded. */
static void y_provenance(struct sim_yaml *y, const struct report *r)
{
	unsigned int i, j;
	bool sets = false;

	sim_yaml_plain(y, "provenance");
	sim_yaml_map_start(y, false);
	for (i = 0; i < r->nr_prov; i += 2) {
		if (strcmp(r->prov[i], "set")) {
			y_kv_str(y, r->prov[i], r->prov[i + 1]);
			continue;
		}
		if (sets)
			continue;
		sets = true;
		sim_yaml_plain(y, "set");
		sim_yaml_seq_start(y, true);
		for (j = i; j < r->nr_prov; j += 2)
			if (!strcmp(r->prov[j], "set"))
				sim_yaml_str(y, r->prov[j + 1]);
		sim_yaml_seq_end(y);
	}
	if (!sets) {
		sim_yaml_plain(y, "set");
		sim_yaml_seq_start(y, true);
		sim_yaml_seq_end(y);
	}
	sim_yaml_map_end(y);
}

int report__write_yaml(const struct report *r, FILE *out)
{
	int base = report__baseline_index(r);
	struct sim_yaml y;
	unsigned int i;

	sim_yaml_begin(&y, out);
	sim_yaml_map_start(&y, false);
	y_kv_str(&y, "scenario", r->scenario);
	y_kv_u64(&y, "seed", r->seed);
	y_kv_u64(&y, "replications", r->replications);
	if (r->nr_prov)
		y_provenance(&y, r);
	sim_yaml_plain(&y, "baseline");
	if (base >= 0)
		sim_yaml_str(&y, r->variants[base].name);
	else
		sim_yaml_plain(&y, "null");
	sim_yaml_plain(&y, "variants");
	sim_yaml_seq_start(&y, false);
	for (i = 0; i < r->nr_variants; i++)
		y_variant(&y, r, i, base);
	sim_yaml_seq_end(&y);
	sim_yaml_map_end(&y);
	if (sim_yaml_end(&y))
		return -1;
	return ferror(out) ? -1 : 0;
}
