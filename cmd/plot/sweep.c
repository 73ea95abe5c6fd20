// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/plot/sweep.c - planning the pictures of a sweep: its sweep.csv read
 * (sim/csv.h), a metric against each varied key, one panel per
 * combination of the other keys' values in value order, one line per
 * variant, the seeds averaged. See cmd/plot/plot.h.
 */
#define _XOPEN_SOURCE 700 /* POSIX 2008 and realpath() */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cmd/plot/plot.h"
#include "cmd/plot/internal.h"
#include "sim/csv.h"
#include "sim/error.h"
#include "sim/file.h"
#include "sim/report.h"
#include "sim/scenario.h"

/* ---- a sweep (CSV) ---- */

/* A sweep.csv in memory: its records, the header first. */
struct sheet_row {
	struct csv_field *f; /* fields, unquoted (sim/csv.h) */
	unsigned int n;
	unsigned int line; /* one-based line of the file */
};

struct sheet {
	struct sheet_row *rows;
	unsigned int nr;
};

static void sheet_release(struct sheet *c)
{
	unsigned int i;

	for (i = 0; i < c->nr; i++)
		csv_fields_free(c->rows[i].f, c->rows[i].n);
	free(c->rows);
	c->rows = NULL;
	c->nr = 0;
}

/* Parse @len bytes at @buf into @c: RFC 4180, blank lines skipped. */
static int sheet_parse(const char *path, const char *buf, size_t len,
		       struct sheet *c, struct sim_error *err)
{
	struct sheet_row *grown, *row;
	struct csv_reader r;
	int got;

	csv_reader_init(&r, path, buf, len, CSV_BLANK_LINES | CSV_COMMENTS);
	for (;;) {
		got = csv_read_record(&r, err);
		if (got <= 0)
			break;
		grown = realloc(c->rows, (c->nr + 1) * sizeof(*grown));
		if (!grown) {
			sim_error_set(err, path, 0, 0, "out of memory");
			got = -1;
			break;
		}
		c->rows = grown;
		row = &grown[c->nr++];
		row->line = r.fields[0].line;
		row->f = csv_take_fields(&r, &row->n);
	}
	csv_reader_release(&r);
	return got < 0 ? -EINVAL : 0;
}

/* Read @path whole (at most 64 MiB) and parse it. */
static int sheet_read(const char *path, struct sheet *c, struct sim_error *err)
{
	size_t len;
	char *buf;
	int ret;

	if (sim_read_file(path, 64u << 20, &buf, &len, err))
		return -EINVAL;
	sim_input_note_path(path);
	if (memchr(buf, '\0', len)) {
		sim_error_set(err, path, 0, 0,
			      "not a sweep.csv: binary data (a NUL byte)");
		ret = -EINVAL;
	} else {
		ret = sheet_parse(path, buf, len, c, err);
	}
	free(buf);
	return ret;
}

/* A whole field as a number: nan and inf too (the report's spelling). */
static bool is_number(const char *s, double *v)
{
	char *end;

	if (!*s)
		return false;
	*v = strtod(s, &end);
	return !*end;
}

/* A whole field as a finite number. */
static bool parse_number(const char *s, double *v)
{
	return is_number(s, v) && isfinite(*v);
}

static int sheet_col(const struct sheet_row *h, const char *name)
{
	unsigned int i;

	for (i = 0; i < h->n; i++)
		if (!strcmp(h->f[i].text, name))
			return (int)i;
	return -1;
}

/* Is key column @k a replication (seed) key, averaged over, not drawn? */
static bool rep_key(const struct sheet_row *h, int k)
{
	return !strcmp(h->f[k].text, "seed") ||
	       !strcmp(h->f[k].text, "replication");
}

/* The distinct texts of column @k (or of @k's combination, see below). */
struct names {
	char **v;
	unsigned int n;
};

static void names_release(struct names *n)
{
	unsigned int i;

	for (i = 0; i < n->n; i++)
		free(n->v[i]);
	free(n->v);
	n->v = NULL;
	n->n = 0;
}

/* The index of @s in @n, added when new; -1 when out of memory. */
static int names_index(struct names *n, const char *s)
{
	char **grown;
	unsigned int i;

	for (i = 0; i < n->n; i++)
		if (!strcmp(n->v[i], s))
			return (int)i;
	grown = realloc(n->v, (n->n + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	n->v = grown;
	n->v[n->n] = strdup(s);
	if (!n->v[n->n])
		return -1;
	return (int)n->n++;
}

/*
 * The facet of @row in the picture against @x: "KEY=VALUE, KEY=VALUE" of
 * the other keys but the replication ones; "" when there are none.
 */
static char *facet_title(const struct sheet_row *h, const struct sheet_row *row,
			 int x, int variant)
{
	struct text t;
	bool first = true;
	int j;

	if (plot__text_open(&t))
		return NULL;
	for (j = 1; j < variant; j++) {
		if (j == x || rep_key(h, j))
			continue;
		fprintf(t.f, "%s%s=%s", first ? "" : ", ", h->f[j].text,
			row->f[j].text);
		first = false;
	}
	if (plot__text_close(&t))
		return NULL;
	return t.buf;
}

/* Two-sided 95% Student t for @df degrees of freedom (1.96 past 30). */
static double t95(unsigned int df)
{
	static const double t[] = { 0,	   12.706, 4.303, 3.182, 2.776, 2.571,
				    2.447, 2.365,  2.306, 2.262, 2.228, 2.201,
				    2.179, 2.160,  2.145, 2.131, 2.120, 2.110,
				    2.101, 2.093,  2.086, 2.080, 2.074, 2.069,
				    2.064, 2.060,  2.056, 2.052, 2.048, 2.045,
				    2.042 };

	return df < sizeof(t) / sizeof(t[0]) ? t[df] : 1.96;
}

/* One cell of a picture: the values of (facet, variant, x) over seeds. */
struct cell {
	double sum, sum2;
	unsigned int n;
};

/* Compare two values of a key: as numbers when both are, else as text. */
static int value_cmp(const char *a, size_t la, const char *b, size_t lb)
{
	char sa[128], sb[128];
	double x, y;
	int r;

	snprintf(sa, sizeof(sa), "%.*s", (int)la, a);
	snprintf(sb, sizeof(sb), "%.*s", (int)lb, b);
	if (parse_number(sa, &x) && parse_number(sb, &y))
		return (x > y) - (x < y);
	r = strcmp(sa, sb);
	return r;
}

/*
 * Panels in value order: "k1=V, k2=W" titles compared key by key, each
 * value as value_cmp() does (16 before 32 before 64 before 128; the rows
 * come in the order of the points, where a variant's own set: of a key
 * can bring 64 before 32).
 */
static int facet_cmp(const void *pa, const void *pb)
{
	const char *a = *(char *const *)pa, *b = *(char *const *)pb;
	size_t la, lb;
	int r;

	for (;;) {
		a = strchr(a, '=');
		b = strchr(b, '=');
		if (!a || !b)
			return (a != NULL) - (b != NULL);
		a++;
		b++;
		la = strcspn(a, ",");
		lb = strcspn(b, ",");
		r = value_cmp(a, la, b, lb);
		if (r)
			return r;
		a += la;
		b += lb;
	}
}

/* Values of the x key in value order (for the ranks of categories). */
static int xvalue_cmp(const void *pa, const void *pb)
{
	const char *a = *(char *const *)pa, *b = *(char *const *)pb;

	return value_cmp(a, strlen(a), b, strlen(b));
}

/*
 * One picture of plan_sweep_key(): metric column @m against key column
 * @x, its axes in order of appearance, and the cells (facet, variant, x).
 */
struct sweep_pic {
	const struct sheet *c;
	int x, variant, m, unit;
	struct names xs, facets, vars;
	bool numeric; /* every x value is a number */
	double lo, hi; /* the x values' range, when numeric */
	struct cell *cells; /* [facet][variant][x value] */
	const char *u; /* the metric's unit, or "" */
	double ylo, yhi; /* the means' range */
	double ypos; /* the smallest mean above 0 */
	bool bars; /* a cell has two or more values */
	double *xval; /* x of each value: the number, else the rank */
	unsigned int *order; /* the x values in order of xval */
};

/* The axes: x values, facets, variants, in order of appearance, sorted. */
static int sweep_axes(struct sweep_pic *s)
{
	const struct sheet_row *h = &s->c->rows[0];
	char *title;
	unsigned int i;
	double v;
	int fi;

	s->numeric = true;
	s->lo = INFINITY;
	s->hi = -INFINITY;
	for (i = 1; i < s->c->nr; i++) {
		const struct sheet_row *row = &s->c->rows[i];

		if (names_index(&s->xs, row->f[s->x].text) < 0 ||
		    names_index(&s->vars, row->f[s->variant].text) < 0)
			return -1;
		title = facet_title(h, row, s->x, s->variant);
		if (!title)
			return -1;
		fi = names_index(&s->facets, title);
		free(title);
		if (fi < 0)
			return -1;
		if (parse_number(row->f[s->x].text, &v)) {
			s->lo = v < s->lo ? v : s->lo;
			s->hi = v > s->hi ? v : s->hi;
		} else {
			s->numeric = false;
		}
	}
	qsort(s->facets.v, s->facets.n, sizeof(*s->facets.v), facet_cmp);
	qsort(s->xs.v, s->xs.n, sizeof(*s->xs.v), xvalue_cmp);
	return 0;
}

/* The cell of @s's facet @f, variant @sv and x value @xv. */
static struct cell *sweep_cell(const struct sweep_pic *s, size_t f, size_t sv,
			       size_t xv)
{
	return &s->cells[(f * s->vars.n + sv) * s->xs.n + xv];
}

/* Each row's metric into its cell; the means' range. */
static int sweep_cells(struct sweep_pic *s)
{
	const struct sheet_row *h = &s->c->rows[0];
	unsigned int i, n = s->facets.n * s->vars.n * s->xs.n;
	struct cell *cell;
	double v, mean;
	char *title;
	int fi, vi, xv;

	s->cells = calloc(n ? n : 1, sizeof(*s->cells));
	if (!s->cells)
		return -1;
	for (i = 1; i < s->c->nr; i++) {
		const struct sheet_row *row = &s->c->rows[i];

		if (!parse_number(row->f[s->m].text, &v))
			continue; /* no result at this point */
		if (!*s->u && s->unit >= 0 &&
		    !strcmp(h->f[s->m].text, "throughput"))
			s->u = row->f[s->unit].text;
		title = facet_title(h, row, s->x, s->variant);
		if (!title)
			return -1;
		fi = names_index(&s->facets, title);
		free(title);
		vi = names_index(&s->vars, row->f[s->variant].text);
		xv = names_index(&s->xs, row->f[s->x].text);
		if (fi < 0 || vi < 0 || xv < 0)
			return -1;
		cell = sweep_cell(s, (size_t)fi, (size_t)vi, (size_t)xv);
		cell->sum += v;
		cell->sum2 += v * v;
		cell->n++;
	}
	s->ylo = s->ypos = INFINITY;
	s->yhi = -INFINITY;
	for (i = 0; i < n; i++) {
		if (!s->cells[i].n)
			continue;
		mean = s->cells[i].sum / s->cells[i].n;
		if (mean > 0 && mean < s->ypos)
			s->ypos = mean;
		s->ylo = mean < s->ylo ? mean : s->ylo;
		s->yhi = mean > s->yhi ? mean : s->yhi;
		s->bars |= s->cells[i].n > 1;
	}
	return 0;
}

/* x of each value (the number, else the rank), and their order. */
static int sweep_order(struct sweep_pic *s)
{
	unsigned int xi, j, k, n = s->xs.n;

	s->order = malloc((n ? n : 1) * sizeof(*s->order));
	s->xval = malloc((n ? n : 1) * sizeof(*s->xval));
	if (!s->order || !s->xval)
		return -1;
	for (xi = 0; xi < n; xi++) {
		s->xval[xi] = xi;
		if (s->numeric)
			parse_number(s->xs.v[xi], &s->xval[xi]);
		s->order[xi] = xi;
	}
	for (xi = 1; xi < n; xi++) {
		k = s->order[xi];
		for (j = xi; j > 0 && s->xval[s->order[j - 1]] > s->xval[k];
		     j--)
			s->order[j] = s->order[j - 1];
		s->order[j] = k;
	}
	return 0;
}

/*
 * The data blocks: one per (facet, variant), "x mean ci label" a line in
 * x order ("nan nan 0" when empty), then the tic labels' block.
 */
static void sweep_data(const struct sweep_pic *s, FILE *out)
{
	const struct cell *cell;
	unsigned int f, sv, xi;
	double v, mean, ci;
	bool any;

	for (f = 0; f < s->facets.n; f++) {
		for (sv = 0; sv < s->vars.n; sv++) {
			if (f || sv)
				fputs("\n\n", out);
			plot__put_data_str(out, s->vars.v[sv]);
			fputc('\n', out);
			any = false;
			for (xi = 0; xi < s->xs.n; xi++) {
				cell = sweep_cell(s, f, sv, s->order[xi]);
				if (!cell->n)
					continue;
				mean = cell->sum / cell->n;
				ci = 0;
				if (cell->n > 1) {
					v = (cell->sum2 -
					     cell->n * mean * mean) /
					    (cell->n - 1);
					ci = t95(cell->n - 1) *
					     sqrt(v > 0 ? v : 0) /
					     sqrt(cell->n);
				}
				fprintf(out, "%.10g %.10g %.10g ",
					s->xval[s->order[xi]], mean, ci);
				plot__put_data_str(out, s->xs.v[s->order[xi]]);
				fputc('\n', out);
				any = true;
			}
			if (!any)
				fputs("nan nan 0 \"\"\n", out);
		}
	}
	/* the tic labels, every x value once: the last block */
	fputs("\n\n\"(tics)\"\n", out);
	for (xi = 0; xi < s->xs.n; xi++) {
		fprintf(out, "%.10g nan 0 ", s->xval[s->order[xi]]);
		plot__put_data_str(out, s->xs.v[s->order[xi]]);
		fputc('\n', out);
	}
}

/* The gnuplot variables of plots/throughput.gp for @s. */
static void sweep_gp(const struct sweep_pic *s, const char *name, FILE *out)
{
	const struct sheet_row *h = &s->c->rows[0];
	char label[512], var[32];
	unsigned int f;

	snprintf(label, sizeof(label), "%s: %s against %s", name,
		 h->f[s->m].text, h->f[s->x].text);
	plot__put_gp_var(out, "title", label);
	plot__put_gp_var(out, "xlabel", h->f[s->x].text);
	if (*s->u)
		snprintf(label, sizeof(label), "%s (%s)", h->f[s->m].text,
			 s->u);
	else
		snprintf(label, sizeof(label), "%s", h->f[s->m].text);
	plot__put_gp_var(out, "ylabel", label);
	for (f = 0; f < s->facets.n; f++) {
		snprintf(var, sizeof(var), "facet%u", f + 1);
		plot__put_gp_var(out, var, s->facets.v[f]);
	}
	/* Batch sizes and CPU counts grow by factors: a log scale. */
	fprintf(out,
		"logx=%d; categories=%d; logy=%d; errorbars=%d; nfacets=%u; nseries=%u; ",
		s->numeric && s->lo > 0 && s->hi / s->lo >= 8 ? 1 : 0,
		s->numeric ? 0 : 1,
		isfinite(s->ypos) && s->yhi / s->ypos >= 100 ? 1 : 0,
		s->bars ? 1 : 0, s->facets.n, s->vars.n);
	if (isfinite(s->ypos))
		fprintf(out, "ypos=%.10g; ", s->ypos);
}

/*
 * plan_sweep_key() - metric column @m against key column @x: one panel
 * (facet) per combination of the other keys' values, one line per variant
 * in each, the replication keys (seed) averaged: the mean, with the 95%
 * confidence interval as an error bar when there are two or more. x is the
 * key's value when every value is a number, else the rank of the value in
 * value order; the panels come in value order too (facet_cmp()). The tic
 * labels come from a block of every x value, drawn last in each panel.
 * The y axis is logarithmic when the means above 0 span a factor of 100
 * or more (the zeros are then not drawn).
 */
static int plan_sweep_key(struct plot_plan *p, const struct sheet *c, int x,
			  int variant, int m, int unit, const char *munit,
			  struct sim_error *err)
{
	struct sweep_pic s = { .c = c,
			       .x = x,
			       .variant = variant,
			       .m = m,
			       .unit = unit,
			       .u = munit };
	const struct sheet_row *h = &c->rows[0];
	char esc[3][512]; /* names for a comment line, escaped */
	struct text data, gp;
	char label[512];
	int ret = -ENOMEM;

	if (sweep_axes(&s) || sweep_cells(&s))
		goto out;
	if (!isfinite(s.ylo)) {
		ret = 0;
		goto out_free;
	}
	if (sweep_order(&s))
		goto out;
	if (plot__texts_open(&data, &gp, err))
		goto out_free;
	fprintf(data.f,
		"# memcgsim plot: %s against %s, %s; plots/throughput.gp\n"
		"# %u panel(s) x %u line(s): block F * %u + V is panel F's line V\n",
		sim_escape(esc[0], sizeof(esc[0]), h->f[m].text),
		sim_escape(esc[1], sizeof(esc[1]), h->f[x].text),
		sim_escape(esc[2], sizeof(esc[2]), p->name), s.facets.n,
		s.vars.n, s.vars.n);
	sweep_data(&s, data.f);
	sweep_gp(&s, p->name, gp.f);
	snprintf(label, sizeof(label), "%s-vs-%s", h->f[m].text, h->f[x].text);
	ret = plot__plan_finish(p, PLOT_THROUGHPUT, "", label, &data, &gp, err);
	goto out_free;
out:
	sim_error_set(err, "", 0, 0, "out of memory");
out_free:
	free(s.cells);
	free(s.order);
	free(s.xval);
	names_release(&s.xs);
	names_release(&s.facets);
	names_release(&s.vars);
	return ret;
}

/* The last component of @path, without a trailing slash. */
static void base_name(char *dst, size_t size, const char *path)
{
	size_t len = strlen(path);
	const char *s;

	while (len > 1 && path[len - 1] == '/')
		len--;
	s = path + len;
	while (s > path && s[-1] != '/')
		s--;
	snprintf(dst, size, "%.*s", (int)(path + len - s), s);
}

/*
 * The name of a sweep: its directory's, for DIR or DIR/sweep.csv, less the
 * "sweep-" that `memcgsim sweep` puts before the scenario's name; the
 * file's without .csv for any other file.
 */
void plot__sweep_name(char *dst, size_t size, const char *path, bool dir)
{
	char *real = realpath(path, NULL);
	const char *p = real ? real : path;
	size_t len;

	base_name(dst, size, p);
	if (!dir && !strcmp(dst, "sweep.csv")) {
		char *parent = strdup(p);

		if (parent) {
			char *slash = strrchr(parent, '/');

			if (slash && slash != parent) {
				*slash = '\0';
				base_name(dst, size, parent);
			} else {
				snprintf(dst, size, "sweep");
			}
			free(parent);
		}
	}
	len = strlen(dst);
	if (len > 4 && !strcmp(dst + len - 4, ".csv"))
		dst[len - 4] = '\0';
	if (!strncmp(dst, "sweep-", 6) && dst[6])
		memmove(dst, dst + 6, strlen(dst + 6) + 1);
	free(real);
}

/*
 * The unit of the metric of column @col of the sweep.csv @csv into @out
 * (@size bytes), for the y axis: sweep.csv has a unit column for
 * throughput alone, so it is read from the sweep.yaml beside it, the
 * first variant of its first point that has the metric (its key written
 * as a column, report_column_name()). "" when there is no sweep.yaml,
 * it does not read, has no such metric or unit, or the unit is not
 * short printable text.
 */
static void metric_unit(const char *csv, const char *col, char *out,
			size_t size)
{
	const struct scenario_node *pts, *vars, *m, *u;
	struct scenario_node *root = NULL;
	struct sim_error ignored;
	const char *slash = strrchr(csv, '/'), *v;
	size_t len, i, j, plen = strlen(csv) + sizeof("sweep.yaml");
	char *path, *name, *buf, what[64];

	out[0] = '\0';
	path = malloc(plen);
	if (!path)
		return;
	snprintf(path, plen, "%.*ssweep.yaml",
		 slash ? (int)(slash - csv + 1) : 0, csv);
	if (sim_read_file(path, 64u << 20, &buf, &len, &ignored))
		goto out;
	root = scenario_parse_results(path, buf, len, &ignored);
	free(buf);
	pts = root ? scenario_get(root, "points") : NULL;
	if (!pts || scenario_kind(pts) != SCENARIO_SEQ || !scenario_len(pts))
		goto out;
	vars = scenario_get(scenario_item(pts, 0), "variants");
	for (i = 0; vars && scenario_kind(vars) == SCENARIO_SEQ &&
		    i < scenario_len(vars) && !out[0];
	     i++) {
		m = scenario_get(scenario_item(vars, i), "metrics");
		for (j = 0; m && scenario_kind(m) == SCENARIO_MAP &&
			    j < scenario_len(m) && !out[0];
		     j++) {
			name = report_column_name(scenario_key(m, j));
			if (!name || strcmp(name, col)) {
				free(name);
				continue;
			}
			free(name);
			u = scenario_get(scenario_item(m, j), "unit");
			v = u ? scenario_scalar(u) : NULL;
			if (v && strlen(v) < size && strlen(v) < 32 &&
			    !sim_control_char(what, sizeof(what),
					      (const unsigned char *)v,
					      strlen(v), false))
				snprintf(out, size, "%s", v);
			break;
		}
	}
out:
	scenario_free(root);
	free(path);
}

/* The metric column of header @h nearest @word, for "did you mean". */
static const char *metric_near(const struct sheet_row *h, int variant, int unit,
			       const char *word)
{
	const char *names[256];
	unsigned int i, n = 0;

	for (i = (unsigned int)variant + 1; i < h->n && n < 256; i++)
		if ((int)i != unit)
			names[n++] = h->f[i].text;
	return sim_nearest(word, names, n);
}

/* The columns of a sweep.csv that plot__plan_sweep() reads. */
struct sweep_cols {
	int variant, thr, unit; /* variant, throughput, unit (or -1) */
	int metric; /* the metric drawn (--metric, else throughput) */
	int xk; /* --x's key, or -1 */
};

/*
 * sweep_header() - @c's header and rows checked as a sweep.csv's: point
 * first, variant after the keys, throughput, every row as wide as the
 * header with a throughput in range, and one row at least.
 */
static int sweep_header(const char *path, const struct sheet *c,
			struct sweep_cols *k, struct sim_error *err)
{
	const struct sheet_row *h = &c->rows[0];
	unsigned int i;
	double x;

	if (strcmp(h->f[0].text, "point")) {
		/* `memcgsim run -f csv` starts with the variant. */
		const char *hint =
			" (the CSV of one run: plot its YAML instead, memcgsim run -f yaml -o results.yaml)";

		sim_error_set(
			err, path, 1, 1,
			"not a sweep.csv: the first column is '%s', expected 'point'%s",
			h->f[0].text,
			strcmp(h->f[0].text, "variant") ? "" : hint);
		return -EINVAL;
	}
	k->variant = sheet_col(h, "variant");
	k->thr = sheet_col(h, "throughput");
	k->unit = sheet_col(h, "unit");
	if (k->variant < 2 || k->thr < 0) {
		sim_error_set(
			err, path, 1, 1,
			"not a sweep.csv: expected the columns point, the varied keys, variant, throughput, unit, ...");
		return -EINVAL;
	}
	for (i = 1; i < c->nr; i++) {
		const struct sheet_row *row = &c->rows[i];

		if (row->n != h->n) {
			sim_error_set(
				err, path, row->line, 1,
				"expected %u fields, as the header has, found %u",
				h->n, row->n);
			return -EINVAL;
		}
		if (*row->f[k->thr].text &&
		    (!is_number(row->f[k->thr].text, &x) ||
		     (!isnan(x) && (x < 0 || x > PLOT_MAX_VALUE)))) {
			sim_error_set(
				err, path, row->line, 1,
				"throughput: expected a number from 0 to %g, found '%s'",
				PLOT_MAX_VALUE, row->f[k->thr].text);
			return -EINVAL;
		}
	}
	if (c->nr < 2) {
		sim_error_set(err, path, 1, 1, "no results: the header only");
		return -EINVAL;
	}
	return 0;
}

/* sweep_metric() - --metric's column, its values numbers, and --x's key. */
static int sweep_metric(const char *path, const struct sheet *c,
			const struct plot_opts *o, struct sweep_cols *k,
			struct sim_error *err)
{
	const struct sheet_row *h = &c->rows[0];
	unsigned int i;
	double x;

	k->metric = o->metric ? sheet_col(h, o->metric) : k->thr;
	if (k->metric < 0 || k->metric <= k->variant || k->metric == k->unit) {
		const char *near =
			metric_near(h, k->variant, k->unit, o->metric);

		sim_error_set(
			err, path, 1, 1,
			"--metric: no metric '%s' in the sweep (its columns "
			"after 'variant' are the metrics)%s%s%s",
			o->metric, near ? "; did you mean '" : "",
			near ? near : "", near ? "'?" : "");
		return -EINVAL;
	}
	for (i = 1; i < c->nr; i++) {
		if (*c->rows[i].f[k->metric].text &&
		    !is_number(c->rows[i].f[k->metric].text, &x)) {
			sim_error_set(err, path, c->rows[i].line, 1,
				      "%s: expected a number, found '%s'",
				      h->f[k->metric].text,
				      c->rows[i].f[k->metric].text);
			return -EINVAL;
		}
	}
	k->xk = -1;
	if (o->x_key) {
		k->xk = sheet_col(h, o->x_key);
		if (k->xk < 1 || k->xk >= k->variant) {
			sim_error_set(err, path, 1, 1,
				      "--x: '%s' is not a varied key of the "
				      "sweep; its keys are the columns between "
				      "'point' and 'variant'",
				      o->x_key);
			return -EINVAL;
		}
	}
	return 0;
}

/* plan_sweep() - a picture per varied key of @path (a sweep.csv). */
int plot__plan_sweep(struct plot_plan *p, const char *path,
		     const struct plot_opts *o, struct sim_error *err)
{
	struct sheet c = { 0 };
	const struct sheet_row *h;
	struct sweep_cols k;
	char munit[32] = "";
	int key, ret, axes = 0;

	ret = sheet_read(path, &c, err);
	if (ret)
		goto out;
	if (!c.nr) {
		sim_error_set(err, path, 0, 0, "not a sweep.csv: empty");
		ret = -EINVAL;
		goto out;
	}
	ret = sweep_header(path, &c, &k, err) ?:
		      sweep_metric(path, &c, o, &k, err);
	if (ret)
		goto out;
	h = &c.rows[0];
	if (k.metric != k.thr)
		metric_unit(path, h->f[k.metric].text, munit, sizeof(munit));
	if (!plot__wanted(o, PLOT_THROUGHPUT))
		goto out;
	/* Replication keys (seed) are averaged, unless all there is. */
	for (key = 1; key < k.variant; key++)
		axes += !rep_key(h, key);
	for (key = 1; key < k.variant && !ret; key++)
		if ((o->x_key && key == k.xk) ||
		    (!o->x_key && (!axes || !rep_key(h, key))))
			ret = plan_sweep_key(p, &c, key, k.variant, k.metric,
					     k.unit, munit, err);
out:
	sheet_release(&c);
	return ret;
}
