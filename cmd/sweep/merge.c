// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/sweep/merge.c - `memcgsim merge`: a sweep's point files joined into
 * DIR/sweep.csv and DIR/sweep.yaml (the formats are in cmd/sweep/sweep.h).
 *
 * Two passes over the points' CSV files: the first gathers the union of
 * their columns, the second writes each point's rows in that order,
 * prefixed with the point and its key values; each field is read and
 * written again by sim/csv.h, which gives back the bytes memcgsim wrote.
 * sweep.yaml is built by forwarding each point report's parsed events to
 * the emitter, so values are copied exactly as the points wrote them.
 *
 * Both carry the sweep's provenance, as a run's results do (the "# KEY:
 * VALUE" lines of sweep.csv, sweep.yaml's `provenance:`): each key the
 * points' CSV comments give, with every value the points gave it joined
 * by ", " (a varied machine or duration lists each), except that `set`
 * is the sweep's own --set options (a point's also hold its --vary
 * values), followed by one `vary: KEY=V1,V2,...` a --vary option.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "cmd/compare/compare.h"
#include "cmd/sweep/sweep.h"
#include "cmd/sweep/internal.h"
#include "sim/csv.h"
#include "sim/file.h"
#include "sim/util.h"
#include "sim/yaml_emit.h"

#define MERGE_MAX_PROV 32 /* provenance keys; a point's has 10 */

/* One provenance key and the values the points gave it, in order. */
struct merge_prov {
	char *key;
	unsigned int nr;
	char **values;
};

/* The merge's state: the sweep, and the union of the points' columns. */
struct merge {
	const struct sweep *s;
	struct sweep__overrides ov; /* what the variants' own set: say */
	unsigned int nr_cols;
	char **cols; /* header fields, unquoted */
	unsigned int max_head; /* the most fields of a point's header */
	unsigned int nr_prov;
	struct merge_prov prov[MERGE_MAX_PROV];
	struct sim_error err; /* why a writer failed, if not I/O */
};

static int col_index(struct merge *m, const char *name, bool add)
{
	unsigned int i;
	char **grown;

	for (i = 0; i < m->nr_cols; i++)
		if (!strcmp(m->cols[i], name))
			return (int)i;
	if (!add)
		return -1;
	grown = realloc(m->cols, (m->nr_cols + 1) * sizeof(*grown));
	SIM_OOM_ON(!grown);
	m->cols = grown;
	m->cols[m->nr_cols] = sweep__xstrdup(name);
	return (int)m->nr_cols++;
}

/* A point's CSV file being read: its name and text outlive the reader. */
struct point_csv {
	char *path;
	char *buf;
	struct csv_reader r;
};

static void point_csv_close(struct point_csv *pc)
{
	csv_reader_release(&pc->r);
	free(pc->buf);
	free(pc->path);
}

/*
 * Start reading point @point's CSV file with @pc, and read its header.
 * Return 0, or -1 with @err set (and nothing to close).
 */
static int point_csv_open(const struct sweep *s, unsigned int point,
			  struct point_csv *pc, struct sim_error *err)
{
	size_t len;
	int got;

	pc->path = sweep__point_path(s, point, "csv");
	if (sim_read_file(pc->path, 0, &pc->buf, &len, err)) {
		free(pc->path);
		return -1;
	}
	csv_reader_init(&pc->r, pc->path, pc->buf, len,
			CSV_BLANK_LINES | CSV_NEWLINE_AT_END | CSV_COMMENTS);
	got = csv_read_record(&pc->r, err);
	if (!got ||
	    (got > 0 && pc->r.nr_fields == 1 && !pc->r.fields[0].text[0])) {
		sim_error_set(err, pc->path, 0, 0, "empty CSV file");
		got = -1;
	}
	if (got > 0)
		return 0;
	point_csv_close(pc);
	return -1;
}

/*
 * A point's CSV header is a run's (`run -f csv`: variant, then the
 * metrics), and none of its columns takes a name sweep.csv gives its own
 * first columns (point, the varied keys): else the merged header would
 * name a column twice. 0, or -1 with @err set.
 */
static int header_check(const struct sweep *s, const struct point_csv *pc,
			struct sim_error *err)
{
	const struct csv_reader *r = &pc->r;
	unsigned int i, k;

	if (strcmp(r->fields[0].text, "variant")) {
		sim_error_set(
			err, pc->path, r->fields[0].line, r->fields[0].col,
			"not a point's CSV report: its first column is '%s', expected 'variant'",
			r->fields[0].text);
		return -1;
	}
	for (i = 1; i < r->nr_fields; i++) {
		const char *name = r->fields[i].text;
		bool taken = !strcmp(name, "point");

		for (k = 0; k < s->nr_keys && !taken; k++)
			taken = !strcmp(name, s->keys[k].key);
		if (taken) {
			sim_error_set(
				err, pc->path, r->fields[i].line,
				r->fields[i].col,
				"not a point's CSV report: a column named '%s', which sweep.csv has already",
				name);
			return -1;
		}
	}
	return 0;
}

/* Note @value (@len bytes) of provenance @key (@klen) unless noted. */
static void prov_note(struct merge *m, const char *key, size_t klen,
		      const char *value, size_t len)
{
	struct merge_prov *p;
	unsigned int i, j;
	char **grown;

	for (i = 0; i < m->nr_prov; i++)
		if (strlen(m->prov[i].key) == klen &&
		    !strncmp(m->prov[i].key, key, klen))
			break;
	if (i == m->nr_prov) {
		if (m->nr_prov == MERGE_MAX_PROV)
			return;
		m->prov[i].key = strndup(key, klen);
		SIM_OOM_ON(!m->prov[i].key);
		m->nr_prov++;
	}
	p = &m->prov[i];
	for (j = 0; j < p->nr; j++)
		if (strlen(p->values[j]) == len &&
		    !strncmp(p->values[j], value, len))
			return;
	grown = realloc(p->values, (p->nr + 1) * sizeof(*grown));
	SIM_OOM_ON(!grown);
	p->values = grown;
	p->values[p->nr] = strndup(value, len);
	SIM_OOM_ON(!p->values[p->nr]);
	p->nr++;
}

/*
 * The "# KEY: VALUE" lines that open point file @pc (its run's
 * provenance, sim/report_csv.c) into @m, but its `set`: the sweep's
 * --set options stand for it (a point's hold its --vary values too).
 */
static void prov_gather(struct merge *m, const struct point_csv *pc)
{
	const char *p = pc->buf, *nl, *colon;

	while (*p == '#') {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		colon = memchr(p, ':', (size_t)(nl - p));
		if (p[1] == ' ' && colon && colon > p + 2 && colon[1] == ' ' &&
		    strncmp(p + 2, "set:", 4))
			prov_note(m, p + 2, (size_t)(colon - p - 2), colon + 2,
				  (size_t)(nl - colon - 2));
		p = nl + 1;
	}
}

static void prov_free(struct merge *m)
{
	unsigned int i, j;

	for (i = 0; i < m->nr_prov; i++) {
		for (j = 0; j < m->prov[i].nr; j++)
			free(m->prov[i].values[j]);
		free(m->prov[i].values);
		free(m->prov[i].key);
	}
}

/*
 * @nr @items joined by @sep, after "@key=" when @key is not NULL, as
 * one string: free() it.
 */
static char *joined(const char *key, char *const *items, unsigned int nr,
		    const char *sep)
{
	char *s = NULL;
	size_t len = 0;
	unsigned int i;
	FILE *f = open_memstream(&s, &len);

	SIM_OOM_ON(!f);
	if (key)
		fprintf(f, "%s=", key);
	for (i = 0; i < nr; i++)
		fprintf(f, "%s%s", i ? sep : "", items[i]);
	SIM_OOM_ON(fclose(f));
	return s;
}

/* Provenance @p's values as one string, ", "-joined: free() it. */
static char *prov_joined(const struct merge_prov *p)
{
	return joined(NULL, p->values, p->nr, ", ");
}

/* --vary option @k of @s as it was given: "KEY=V1,V2,..."; free() it. */
static char *vary_arg(const struct sweep *s, unsigned int k)
{
	return joined(s->keys[k].key, s->keys[k].values, s->keys[k].nr_values,
		      ",");
}

/* @s into @out, each control character as '?' (a point's file's text). */
static void put_clean(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
}

/* A "# KEY: VALUE" line of sweep.csv. */
static void csv_comment(FILE *out, const char *key, const char *value)
{
	fputs("# ", out);
	put_clean(out, key);
	fputs(": ", out);
	put_clean(out, value);
	fputc('\n', out);
}

/* sweep.csv's provenance lines (see the top of this file). */
static void csv_provenance(FILE *out, const struct merge *m)
{
	const struct sweep *s = m->s;
	unsigned int i;
	char *v;

	for (i = 0; i < m->nr_prov; i++) {
		v = prov_joined(&m->prov[i]);
		csv_comment(out, m->prov[i].key, v);
		free(v);
	}
	for (i = 0; i < s->nr_sets; i++)
		csv_comment(out, "set", s->sets[i]);
	for (i = 0; i < s->nr_keys; i++) {
		v = vary_arg(s, i);
		csv_comment(out, "vary", v);
		free(v);
	}
}

/*
 * sweep.yaml's provenance: map (see the top of this file): the keys but
 * scenario, seed and replications, which the report has at its top.
 */
static void yaml_provenance(struct sim_yaml *y, const struct merge *m)
{
	static const char *const top[] = { "scenario", "seed", "replications" };
	const struct sweep *s = m->s;
	unsigned int i, j;
	char *v;

	sim_yaml_map_start(y, false);
	for (i = 0; i < m->nr_prov; i++) {
		for (j = 0; j < ARRAY_SIZE(top); j++)
			if (!strcmp(m->prov[i].key, top[j]))
				break;
		if (j < ARRAY_SIZE(top))
			continue;
		v = prov_joined(&m->prov[i]);
		sim_yaml_plain(y, m->prov[i].key);
		sim_yaml_str(y, v);
		free(v);
	}
	sim_yaml_plain(y, "set");
	sim_yaml_seq_start(y, true);
	for (i = 0; i < s->nr_sets; i++)
		sim_yaml_str(y, s->sets[i]);
	sim_yaml_seq_end(y);
	sim_yaml_plain(y, "vary");
	sim_yaml_seq_start(y, true);
	for (i = 0; i < s->nr_keys; i++) {
		v = vary_arg(s, i);
		sim_yaml_str(y, v);
		free(v);
	}
	sim_yaml_seq_end(y);
	sim_yaml_map_end(y);
}

/* Pass 1: the union of the points' CSV columns and their provenance. */
static int merge_columns(struct merge *m, struct sim_error *err)
{
	struct point_csv pc;
	unsigned int i, j;

	for (i = 0; i < m->s->nr_points; i++) {
		if (point_csv_open(m->s, i, &pc, err))
			return -1;
		prov_gather(m, &pc);
		for (j = 0; j < pc.r.nr_fields; j++)
			col_index(m, pc.r.fields[j].text, true);
		if (pc.r.nr_fields > m->max_head)
			m->max_head = pc.r.nr_fields;
		point_csv_close(&pc);
	}
	return 0;
}

/* Point @point's rows, prefixed and in the union's column order. */
static int merge_csv_point(struct merge *m, unsigned int point, FILE *out,
			   int *map, const char **val)
{
	unsigned int idx[SWEEP_MAX_KEYS], i, nr_head, nr_fields, rows;
	const struct sweep *s = m->s;
	int variant = col_index(m, "variant", false);
	struct point_csv pc;
	struct csv_reader *r = &pc.r;
	int got;

	if (point_csv_open(s, point, &pc, &m->err))
		return -1;
	nr_fields = r->nr_fields;
	/* A file changed since pass 1 keeps its extra columns to itself. */
	nr_head = r->nr_fields < m->max_head ? r->nr_fields : m->max_head;
	for (i = 0; i < nr_head; i++)
		map[i] = col_index(m, r->fields[i].text, false);
	sweep__point_index(s, point, idx);
	for (rows = 0;; rows++) {
		got = csv_read_record(r, &m->err);
		if (got <= 0)
			break;
		if (r->nr_fields != nr_fields) {
			sim_error_set(
				&m->err, pc.path, r->fields[0].line, 1,
				"a row of %u fields under a header of %u: the file is cut short or not a point's",
				r->nr_fields, nr_fields);
			got = -1;
			break;
		}
		for (i = 0; i < m->nr_cols; i++)
			val[i] = NULL;
		for (i = 0; i < r->nr_fields && i < nr_head; i++)
			if (map[i] >= 0)
				val[map[i]] = r->fields[i].text;
		fprintf(out, "%u", point);
		for (i = 0; i < s->nr_keys; i++) {
			/* the value the row ran with: a variant's own wins */
			const char *ran = sweep__override(
				&m->ov, variant < 0 ? NULL : val[variant], i);

			fputc(',', out);
			csv_write_field(out,
					ran ? ran : s->keys[i].values[idx[i]]);
		}
		for (i = 0; i < m->nr_cols; i++) {
			fputc(',', out);
			if (val[i])
				csv_write_field(out, val[i]);
		}
		fputc('\n', out);
	}
	if (!got && !rows) {
		sim_error_set(&m->err, pc.path, 0, 0,
			      "a header and no rows: the file is cut short");
		got = -1;
	}
	point_csv_close(&pc);
	return got;
}

static int write_merged_csv(FILE *out, void *arg)
{
	struct merge *m = arg;
	int *map = calloc(m->max_head + 1, sizeof(*map));
	const char **val = calloc(m->nr_cols + 1, sizeof(*val));
	unsigned int i;
	int ret = 0;

	SIM_OOM_ON(!map || !val);
	csv_provenance(out, m);
	fputs("point", out);
	for (i = 0; i < m->s->nr_keys; i++) {
		fputc(',', out);
		csv_write_field(out, m->s->keys[i].key);
	}
	for (i = 0; i < m->nr_cols; i++) {
		fputc(',', out);
		csv_write_field(out, m->cols[i]);
	}
	fputc('\n', out);
	for (i = 0; i < m->s->nr_points && !ret; i++)
		ret = merge_csv_point(m, i, out, map, val);
	free(map);
	free(val);
	return ret || ferror(out) ? -1 : 0;
}

static void parse_error(struct sim_error *err, const char *path,
			const yaml_parser_t *parser)
{
	sim_error_set(err, path, (unsigned int)parser->problem_mark.line + 1,
		      (unsigned int)parser->problem_mark.column + 1, "%s",
		      parser->problem ? parser->problem : "cannot parse");
}

/*
 * Emit @ev, an event of a point's report, to @y. A plain scalar that the
 * emitter cannot write plain in its new place (a lone ':', say) is quoted,
 * and libyaml then adds the tag '!' unless a quoted style is implicit too:
 * mark it so, since the text is a string either way (reports have no
 * tags: point_reports_check() refused them).
 */
static void forward_event(struct sim_yaml *y, yaml_event_t *ev)
{
	if (ev->type == YAML_SCALAR_EVENT && !ev->data.scalar.tag &&
	    ev->data.scalar.plain_implicit)
		ev->data.scalar.quoted_implicit = 1;
	sim_yaml_event(y, ev, true);
}

/*
 * The next event of @parser: forwarded to @y if @forward, else dropped.
 * Returns its type, or YAML_NO_EVENT after a parse error (@err set).
 */
static yaml_event_type_t next_event(yaml_parser_t *parser, struct sim_yaml *y,
				    bool forward, yaml_event_t *key,
				    const char *path, struct sim_error *err)
{
	yaml_event_t ev;
	yaml_event_type_t type;

	if (!yaml_parser_parse(parser, &ev)) {
		parse_error(err, path, parser);
		return YAML_NO_EVENT;
	}
	type = ev.type;
	if (type == YAML_NO_EVENT || type == YAML_STREAM_END_EVENT) {
		sim_error_set(
			err, path, (unsigned int)parser->mark.line + 1,
			(unsigned int)parser->mark.column + 1,
			"the report ends early: the file is empty or cut short");
		yaml_event_delete(&ev);
		return YAML_NO_EVENT;
	}
	if (key && type == YAML_SCALAR_EVENT) {
		*key = ev; /* the caller decides */
		return type;
	}
	if (forward)
		forward_event(y, &ev);
	else
		yaml_event_delete(&ev);
	return type;
}

/* Forward or drop one node (scalar or whole collection); 0 or -1. */
static int pass_node(yaml_parser_t *parser, struct sim_yaml *y, bool forward,
		     const char *path, struct sim_error *err)
{
	int depth = 0;

	do {
		switch (next_event(parser, y, forward, NULL, path, err)) {
		case YAML_NO_EVENT:
			return -1;
		case YAML_MAPPING_START_EVENT:
		case YAML_SEQUENCE_START_EVENT:
			depth++;
			break;
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			depth--;
			break;
		default:
			break;
		}
	} while (depth > 0);
	return 0;
}

/*
 * Forward to @y the top-level entries of the report @path: with
 * @variants, the value of its `variants` key; else every entry but that.
 */
static int forward_report(struct sim_yaml *y, const char *path, bool variants,
			  const struct merge *m, struct sim_error *err)
{
	yaml_event_type_t type = YAML_NO_EVENT;
	yaml_parser_t parser;
	yaml_event_t key;
	bool found = false, want, is_variants;
	FILE *f = fopen(path, "rb");
	int i, ret = -1;

	if (!f) {
		sim_error_set(err, path, 0, 0, "cannot read: %s",
			      strerror(errno));
		return -1;
	}
	SIM_OOM_ON(!yaml_parser_initialize(&parser));
	yaml_parser_set_input_file(&parser, f);
	/* Stream, document and mapping start. */
	for (i = 0; i < 3; i++) {
		type = next_event(&parser, y, false, NULL, path, err);
		if (type == YAML_NO_EVENT)
			goto out;
	}
	if (type != YAML_MAPPING_START_EVENT)
		goto not_report;
	for (;;) {
		type = next_event(&parser, y, false, &key, path, err);
		if (type == YAML_NO_EVENT)
			goto out;
		if (type == YAML_MAPPING_END_EVENT)
			break;
		if (type != YAML_SCALAR_EVENT)
			goto not_report;
		is_variants =
			!strcmp((char *)key.data.scalar.value, "variants");
		found |= is_variants;
		if (!variants &&
		    (!strcmp((char *)key.data.scalar.value, "vary") ||
		     !strcmp((char *)key.data.scalar.value, "points"))) {
			/* sweep.yaml's own keys, written after these */
			sim_error_set(
				err, path,
				(unsigned int)key.start_mark.line + 1,
				(unsigned int)key.start_mark.column + 1,
				"not a point's report: a top-level '%s', which sweep.yaml has already",
				(char *)key.data.scalar.value);
			yaml_event_delete(&key);
			goto out;
		}
		want = variants ? is_variants : !is_variants;
		if (!variants &&
		    !strcmp((char *)key.data.scalar.value, "provenance")) {
			/* the sweep's, not the point's */
			forward_event(y, &key);
			yaml_provenance(y, m);
			want = false;
		} else if (want && !variants)
			/* The caller has emitted the key "variants" itself. */
			forward_event(y, &key);
		else
			yaml_event_delete(&key);
		if (pass_node(&parser, y, want, path, err))
			goto out;
	}
	if (variants && !found)
		goto not_report;
	ret = 0;
	goto out;
not_report:
	sim_error_set(err, path, 0, 0,
		      "not a memcgsim report: expected a map with 'variants'");
out:
	yaml_parser_delete(&parser);
	fclose(f);
	return ret;
}

static int write_merged_yaml(FILE *out, void *arg)
{
	struct merge *m = arg;
	const struct sweep *s = m->s;
	unsigned int idx[SWEEP_MAX_KEYS], i, k;
	struct sim_yaml y;
	char *path;
	int ret = 0;

	sim_yaml_begin(&y, out);
	sim_yaml_map_start(&y, false);
	path = sweep__point_path(s, 0, "yaml");
	ret = forward_report(&y, path, false, m, &m->err);
	free(path);
	sim_yaml_plain(&y, "vary");
	sim_yaml_seq_start(&y, false);
	for (k = 0; k < s->nr_keys; k++) {
		sim_yaml_map_start(&y, false);
		sim_yaml_plain(&y, "key");
		sim_yaml_plain(&y, s->keys[k].key);
		sim_yaml_plain(&y, "values");
		sim_yaml_seq_start(&y, true);
		for (i = 0; i < s->keys[k].nr_values; i++)
			sim_yaml_plain(&y, s->keys[k].values[i]);
		sim_yaml_seq_end(&y);
		sim_yaml_map_end(&y);
	}
	sim_yaml_seq_end(&y);
	sim_yaml_plain(&y, "points");
	sim_yaml_seq_start(&y, false);
	for (i = 0; i < s->nr_points && !ret && !y.failed; i++) {
		sweep__point_index(s, i, idx);
		sim_yaml_map_start(&y, false);
		sim_yaml_plain(&y, "point");
		sim_yaml_u64(&y, i);
		sim_yaml_plain(&y, "set");
		sim_yaml_map_start(&y, false);
		for (k = 0; k < s->nr_keys; k++) {
			sim_yaml_plain(&y, s->keys[k].key);
			sim_yaml_plain(&y, s->keys[k].values[idx[k]]);
		}
		sim_yaml_map_end(&y);
		sim_yaml_plain(&y, "variants");
		path = sweep__point_path(s, i, "yaml");
		ret = forward_report(&y, path, true, m, &m->err);
		free(path);
		sim_yaml_map_end(&y);
	}
	sim_yaml_seq_end(&y);
	if (ret)
		y.failed = true; /* @m->err says why */
	sim_yaml_map_end(&y);
	return sim_yaml_end(&y);
}

/* "3, 5-9, 12": the points of @s that are not done, at most @size bytes. */
static unsigned int missing_points(const struct sweep *s, char *buf,
				   size_t size)
{
	unsigned int i, first, n = 0;
	size_t len = 0;

	buf[0] = '\0';
	for (i = 0; i < s->nr_points; i++) {
		if (sweep_point_done(s, i))
			continue;
		first = i;
		while (i + 1 < s->nr_points && !sweep_point_done(s, i + 1))
			i++;
		n += i - first + 1;
		if (len >= size)
			continue;
		if (first == i)
			len += (size_t)snprintf(buf + len, size - len, "%s%u",
						len ? ", " : "", i);
		else
			len += (size_t)snprintf(buf + len, size - len,
						"%s%u-%u", len ? ", " : "",
						first, i);
	}
	return n;
}

/*
 * Write DIR/@name with @fn; a writer's own error wins over errno's. The
 * stop signals wait until the file is in place or removed, so that no
 * temporary file is left behind.
 */
static int merge_write(struct merge *m, const char *name,
		       int (*fn)(FILE *, void *), struct sim_error *err)
{
	char *path = sweep__xasprintf("%s/%s", m->s->dir, name);
	sigset_t saved;
	int ret;

	sim_error_clear(&m->err);
	sweep__hold_signals(true, &saved);
	ret = sim_write_atomic(path, fn, m, err);
	sweep__hold_signals(false, &saved);
	if (ret && m->err.msg[0])
		*err = m->err;
	free(path);
	return ret;
}

/*
 * Point @point's two reports are a run's: its CSV header is (see
 * header_check()), and both read as results, as `memcgsim compare` reads
 * them (well-formed, every row and metric once, no anchors or duplicate
 * keys), so that what merge writes of them compare and plot read too.
 * 0, or -1 with @err set at the place in the point's file.
 */
static int point_reports_check(const struct sweep *s, unsigned int point,
			       struct sim_error *err)
{
	static const char *const ext[] = { "csv", "yaml" };
	struct compare_file *f;
	struct point_csv pc;
	unsigned int i;
	char *path;
	int ret;

	if (point_csv_open(s, point, &pc, err))
		return -1;
	ret = header_check(s, &pc, err);
	point_csv_close(&pc);
	if (ret)
		return -1;
	for (i = 0; i < 2; i++) {
		path = sweep__point_path(s, point, ext[i]);
		f = compare_load(path, err);
		free(path);
		if (!f)
			return -1;
		compare_free(f);
	}
	return 0;
}

/**
 * sweep_merge() - join the point files of the sweep in @dir.
 * @dir: the sweep's output directory
 * @nr_points: set to the number of points merged
 * @err: filled on failure
 *
 * Reads DIR/sweep.meta and every point's files and writes DIR/sweep.csv
 * and DIR/sweep.yaml, each whole or not at all; the bytes depend only on
 * the point files. Nothing is written when a point is missing.
 *
 * Return: 0; SWEEP_BAD_INPUT with @err set when @dir is no sweep's;
 * SWEEP_FAILED with @err set when points are missing (named) or a file
 * cannot be read or written.
 */
int sweep_merge(const char *dir, unsigned int *nr_points, struct sim_error *err)
{
	struct merge m = { .nr_cols = 0 };
	struct sweep s;
	char list[400];
	unsigned int missing, i;
	int ret = SWEEP_BAD_INPUT;

	*nr_points = 0;
	sweep_init(&s);
	if (sweep__meta_read(&s, dir, err))
		goto out;
	/*
	 * Refuse a point whose files are there but not what it wrote, or
	 * not reports at all: its .sum vouches for their bytes, not for
	 * their form.
	 */
	for (i = 0; i < s.nr_points; i++) {
		int ok = sweep__point_check(&s, i, err);

		if (ok > 0)
			ok = point_reports_check(&s, i, err) ? -1 : 1;
		if (ok < 0) {
			char after[160];

			snprintf(
				after, sizeof(after),
				"; remove %s/points/%04u.* and run the point again",
				dir, i);
			sweep__wrap_msg(err, "", after);
			goto out;
		}
	}
	ret = SWEEP_FAILED;
	missing = missing_points(&s, list, sizeof(list));
	if (missing) {
		sim_error_set(
			err, "", 0, 0,
			"merge: %u of %u points missing in %s/points: %s%s; run them (the same sweep command, or the lines of its --plan) and merge again",
			missing, s.nr_points, dir, list,
			strlen(list) >= sizeof(list) - 1 ? "..." : "");
		goto out;
	}
	m.s = &s;
	if (sweep__overrides_load(&s, &m.ov, err) ||
	    sweep__outputs_check(&s, false, false, err)) {
		ret = SWEEP_BAD_INPUT;
		goto out;
	}
	if (merge_columns(&m, err) ||
	    merge_write(&m, "sweep.csv", write_merged_csv, err) ||
	    merge_write(&m, "sweep.yaml", write_merged_yaml, err))
		goto out;
	*nr_points = s.nr_points;
	ret = 0;
out:
	for (i = 0; i < m.nr_cols; i++)
		free(m.cols[i]);
	free(m.cols);
	prov_free(&m);
	sweep__overrides_free(&m.ov);
	sweep_destroy(&s);
	return ret;
}
