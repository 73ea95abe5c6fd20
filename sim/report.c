// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/report.c - results of a scenario run and their three renderings.
 *
 * Theory of operation: a report is a list of variants (columns) and a list
 * of metric definitions (rows) in the order first recorded. Each variant
 * keeps its own values in the order it recorded them, so its first value
 * is its primary metric. A metric's unit and direction are those given the
 * first time the metric is recorded by any variant.
 *
 *	struct report
 *	  metrics[]:  "throughput" ops/s | "p99" ns | "stock hit rate" %
 *	  variants[]: "base"  values[] = {m0 200, m1 90, ...}  lines[] notes[]
 *	              "new"   values[] = {m0 150, m2 12, ...}  lines[] notes[]
 *
 * The table for people (REPORT_TABLE), 80 columns at most:
 *
 *	# scenario demo, seed 42, 1 replication
 *
 *	                      base               new
 *	throughput (ops/s)  200.00  150.00 (-25.00%)
 *	stock hit rate (%)  90.000  45.500 (-49.44%)
 *
 * Each row is printed with one number of decimals, chosen so that its
 * largest value shows five significant digits (at most three decimals
 * when it is 1 or more; scientific notation outside 1e-4..1e10). With more
 * than one replication each value is followed by "+-" and the half-width
 * of its 95% confidence interval. The baseline column shows values only.
 * Variants that do not fit in 80 columns continue in further blocks, which
 * repeat the metric names. Variant names wider than their column are
 * split over several heading lines; metric labels wider than 30 columns
 * get a line of their own.
 *
 * YAML (REPORT_YAML) goes through the libyaml emitter; numbers are written
 * with sim_format_double(), strings that could read back as something else
 * than a string are single-quoted. CSV (REPORT_CSV) follows RFC 4180,
 * through sim/csv.h.
 *
 * Allocation failures are sticky: the recording functions return nothing,
 * so they mark the report, and report_write() then fails with ENOMEM.
 */
#define _XOPEN_SOURCE 700 /* strdup() */

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sim/report.h"
#include "sim/report_internal.h"

#define TABLE_WIDTH 80
#define LABEL_MAX 30 /* widest metric label kept on its row */
#define HEAD_MAX 16 /* a column widens up to this for its name */
#define CELL_MAX 32 /* one formatted number */
#define HOT_NAME_MAX 24 /* widest hot-line name kept on its row */

/* Make room for @nr elements of @size bytes in the array *@arrp. */
static bool grow(void *arrp, unsigned int *alloc, unsigned int nr, size_t size)
{
	unsigned int n;
	void *arr, *p;

	if (nr <= *alloc)
		return true;
	n = *alloc ? *alloc * 2 : 4;
	if (n < nr)
		n = nr;
	memcpy(&arr, arrp, sizeof(arr));
	p = realloc(arr, (size_t)n * size);
	if (!p)
		return false;
	memcpy(arrp, &p, sizeof(p));
	*alloc = n;
	return true;
}

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

/**
 * report_create() - start an empty report.
 * @scenario: scenario name, printed in every rendering
 * @seed: the scenario's seed
 * @replications: number of replications behind each value
 *
 * Return: a report to free with report_free(), or NULL without memory.
 */
struct report *report_create(const char *scenario, uint64_t seed,
			     unsigned int replications)
{
	struct report *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->scenario = dup_or_empty(scenario);
	if (!r->scenario) {
		free(r);
		return NULL;
	}
	r->seed = seed;
	r->replications = replications;
	return r;
}

/**
 * report_free() - free @r and everything recorded in it.
 * @r: report, or NULL
 */
void report_free(struct report *r)
{
	unsigned int i, j;

	if (!r)
		return;
	for (i = 0; i < r->nr_variants; i++) {
		struct report_variant *v = &r->variants[i];

		free(v->name);
		free(v->legend);
		free(v->baseline);
		free(v->fns);
		free(v->values);
		free(v->lines);
		for (j = 0; j < v->nr_notes; j++)
			free(v->notes[j]);
		free(v->notes);
	}
	free(r->variants);
	for (i = 0; i < r->nr_metrics; i++) {
		free(r->metrics[i].name);
		free(r->metrics[i].unit);
	}
	free(r->metrics);
	for (i = 0; i < r->nr_prov; i++)
		free(r->prov[i]);
	free(r->prov);
	free(r->description);
	free(r->baseline);
	free(r->scenario);
	free(r);
}

/**
 * report_variant() - add a variant (a column of the table).
 * @r: report
 * @name: variant name, copied
 *
 * Adding a name twice returns the index of the first.
 *
 * Return: the variant's index, or -1 without memory.
 */
int report_variant(struct report *r, const char *name)
{
	struct report_variant *v;
	unsigned int i;

	for (i = 0; i < r->nr_variants; i++)
		if (!strcmp(r->variants[i].name, name))
			return (int)i;
	if (!grow(&r->variants, &r->alloc_variants, r->nr_variants + 1,
		  sizeof(*v)))
		goto out_oom;
	v = &r->variants[r->nr_variants];
	memset(v, 0, sizeof(*v));
	v->name = strdup(name);
	if (!v->name)
		goto out_oom;
	return (int)r->nr_variants++;

out_oom:
	r->oom = true;
	return -1;
}

/**
 * report_set_baseline() - name the variant changes are measured against.
 * @r: report
 * @name: a variant name; NULL or unknown (at write time) means the first
 */
void report_set_baseline(struct report *r, const char *name)
{
	free(r->baseline);
	r->baseline = NULL;
	if (!name)
		return;
	r->baseline = strdup(name);
	if (!r->baseline)
		r->oom = true;
}

int report__baseline_index(const struct report *r)
{
	unsigned int i;

	if (!r->nr_variants)
		return -1;
	for (i = 0; r->baseline && i < r->nr_variants; i++)
		if (!strcmp(r->variants[i].name, r->baseline))
			return (int)i;
	return 0;
}

/* The variant @var is compared with: its own baseline, or @base. */
int report__variant_base(const struct report *r, unsigned int var, int base)
{
	const char *name = r->variants[var].baseline;
	unsigned int i;

	for (i = 0; name && i < r->nr_variants; i++)
		if (!strcmp(r->variants[i].name, name))
			return (int)i;
	return base;
}

static struct report_variant *get_variant(struct report *r, int variant)
{
	SIM_BUG_ON(variant < 0 || (unsigned int)variant >= r->nr_variants);
	return &r->variants[variant];
}

void report_variant_baseline(struct report *r, int variant, const char *name)
{
	struct report_variant *v;

	if (variant < 0)
		return;
	v = get_variant(r, variant);
	free(v->baseline);
	v->baseline = name ? strdup(name) : NULL;
	if (name && !v->baseline)
		r->oom = true;
}

static int find_metric(const struct report *r, const char *name)
{
	unsigned int i;

	for (i = 0; i < r->nr_metrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return (int)i;
	return -1;
}

static int add_metric(struct report *r, const char *name, const char *unit,
		      bool higher_is_better)
{
	struct report_metric_def *m;

	if (!grow(&r->metrics, &r->alloc_metrics, r->nr_metrics + 1,
		  sizeof(*m)))
		return -1;
	m = &r->metrics[r->nr_metrics];
	m->name = strdup(name);
	m->unit = dup_or_empty(unit);
	m->higher_is_better = higher_is_better;
	if (!m->name || !m->unit) {
		free(m->name);
		free(m->unit);
		return -1;
	}
	return (int)r->nr_metrics++;
}

const struct report_value *report__find_value(const struct report_variant *v,
					      unsigned int metric)
{
	unsigned int i;

	for (i = 0; i < v->nr_values; i++)
		if (v->values[i].metric == metric)
			return &v->values[i];
	return NULL;
}

bool report_get(const struct report *r, const char *variant, const char *metric,
		double *value)
{
	double ci95;

	return report_get_ci(r, variant, metric, value, &ci95);
}

bool report_get_ci(const struct report *r, const char *variant,
		   const char *metric, double *value, double *ci95)
{
	unsigned int i, m;

	for (m = 0; m < r->nr_metrics; m++)
		if (!strcmp(r->metrics[m].name, metric))
			break;
	if (m == r->nr_metrics)
		return false;
	for (i = 0; i < r->nr_variants; i++) {
		const struct report_value *v;

		if (strcmp(r->variants[i].name, variant))
			continue;
		v = report__find_value(&r->variants[i], m);
		if (!v)
			return false;
		*value = v->value;
		*ci95 = v->ci95;
		return true;
	}
	return false;
}

void report_events(struct report *r, int variant, uint64_t events)
{
	r->variants[variant].events = events;
}

const char *report_nonfinite(const struct report *r, int variant)
{
	const struct report_variant *v = &r->variants[variant];
	unsigned int i;

	for (i = 0; i < v->nr_values; i++)
		if (!isfinite(v->values[i].value) ||
		    !isfinite(v->values[i].ci95))
			return r->metrics[v->values[i].metric].name;
	return NULL;
}

/**
 * report_change() - variant @i's primary metric (its first recorded)
 * against its baseline's, in percent.
 * @r: report
 * @i: the variant's index, below report_nr_variants()
 * @name: set to the variant's name (borrowed)
 * @baseline: set to its baseline's name (borrowed)
 * @pct: the change
 *
 * Return: false for the baseline itself and where no change is defined
 * (no value, or a baseline value of 0); @name and @baseline are set even
 * so.
 */
bool report_change(const struct report *r, unsigned int i, const char **name,
		   const char **baseline, double *pct)
{
	const struct report_variant *v = &r->variants[i];
	int b = report__variant_base(r, i, report__baseline_index(r));
	const struct report_value *bv;

	SIM_BUG_ON(i >= r->nr_variants || b < 0);
	*name = v->name;
	*baseline = r->variants[b].name;
	if ((unsigned int)b == i || !v->nr_values || !r->variants[b].nr_values)
		return false;
	bv = report__find_value(&r->variants[b], v->values[0].metric);
	return bv && report__change_pct(v->values[0].value, bv->value, pct);
}

unsigned int report_nr_variants(const struct report *r)
{
	return r->nr_variants;
}

/**
 * report_metric() - record @metric for @variant.
 * @r: report
 * @variant: index from report_variant()
 * @metric: metric name, e.g. "throughput"
 * @unit: its unit, e.g. "ops/s"; the first unit recorded for a name wins
 * @value: mean over the replications
 * @ci95: half-width of the 95% confidence interval, 0 with one replication
 * @higher_is_better: direction, written to YAML only
 *
 * Recording a metric twice for a variant replaces its value.
 */
void report_metric(struct report *r, int variant, const char *metric,
		   const char *unit, double value, double ci95,
		   bool higher_is_better)
{
	struct report_variant *v = get_variant(r, variant);
	struct report_value *val;
	int m;

	m = find_metric(r, metric);
	if (m < 0)
		m = add_metric(r, metric, unit, higher_is_better);
	if (m < 0)
		goto out_oom;
	val = (struct report_value *)report__find_value(v, (unsigned int)m);
	if (!val) {
		if (!grow(&v->values, &v->alloc_values, v->nr_values + 1,
			  sizeof(*val)))
			goto out_oom;
		val = &v->values[v->nr_values++];
		val->metric = (unsigned int)m;
	}
	val->value = value;
	val->ci95 = ci95;
	return;

out_oom:
	r->oom = true;
}

/**
 * report_line() - record one of @variant's hottest cache lines.
 * @r: report
 * @variant: index from report_variant()
 * @line: copied; lines are printed in the order recorded
 */
void report_line(struct report *r, int variant, const struct report_line *line)
{
	struct report_variant *v = get_variant(r, variant);

	if (!grow(&v->lines, &v->alloc_lines, v->nr_lines + 1, sizeof(*line))) {
		r->oom = true;
		return;
	}
	v->lines[v->nr_lines++] = *line;
}

void report_function(struct report *r, int variant,
		     const struct report_function *fn)
{
	struct report_variant *v = get_variant(r, variant);

	if (!grow(&v->fns, &v->alloc_fns, v->nr_fns + 1, sizeof(*fn))) {
		r->oom = true;
		return;
	}
	v->fns[v->nr_fns++] = *fn;
}

/**
 * report_note() - attach a free-form note to @variant.
 * @r: report
 * @variant: index from report_variant()
 * @note: copied, e.g. "page_counter_cancel: usage underflow (WARN)"
 */
void report_note(struct report *r, int variant, const char *note)
{
	struct report_variant *v = get_variant(r, variant);
	char *copy;

	if (!grow(&v->notes, &v->alloc_notes, v->nr_notes + 1,
		  sizeof(*v->notes)))
		goto out_oom;
	copy = strdup(note);
	if (!copy)
		goto out_oom;
	v->notes[v->nr_notes++] = copy;
	return;

out_oom:
	r->oom = true;
}

/**
 * sim_format_double() - write @v exactly and deterministically.
 * @buf: output
 * @size: size of @buf, at least 32
 * @v: value
 */
void sim_format_double(char *buf, size_t size, double v)
{
	int prec;

	if (isnan(v)) {
		snprintf(buf, size, "nan");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, size, "%s", v < 0 ? "-inf" : "inf");
		return;
	}
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, size, "%.17g", v);
}

/*
 * Change of @v against @base in percent; false when it has no meaning
 * (zero or non-finite baseline).
 */
bool report__change_pct(double v, double base, double *pct)
{
	if (base == 0 || !isfinite(base))
		return false;
	*pct = (v - base) / fabs(base) * 100;
	return true;
}

/* ------------------------------------------------------------------ */
/* Table for people                                                   */

/* One output line, built whole so that it can be measured and trimmed. */
struct linebuf {
	char s[512];
	size_t len;
};

static void lb_vprintf(struct linebuf *lb, const char *fmt, va_list ap)
{
	size_t room = sizeof(lb->s) - lb->len;
	int n = vsnprintf(lb->s + lb->len, room, fmt, ap);

	if (n < 0)
		return;
	lb->len += (size_t)n < room ? (size_t)n : room - 1;
}

__attribute__((format(printf, 2, 3))) static void
lb_printf(struct linebuf *lb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lb_vprintf(lb, fmt, ap);
	va_end(ap);
}

/* Columns a UTF-8 string takes: count every byte but continuations. */
static size_t display_width(const char *s, size_t len)
{
	size_t i, w = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			w++;
	return w;
}

/* Bytes of @s that fit in @cols columns without splitting a character. */
static size_t fit_bytes(const char *s, size_t cols)
{
	size_t i, w = 0;

	for (i = 0; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (w == cols)
				break;
			w++;
		}
	}
	return i;
}

/* Append @s left-aligned (@left) or right-aligned in @width columns. */
static void lb_field(struct linebuf *lb, const char *s, size_t len,
		     size_t width, bool left)
{
	size_t w = display_width(s, len);
	int pad = w < width ? (int)(width - w) : 0;

	if (left)
		lb_printf(lb, "%.*s%*s", (int)len, s, pad, "");
	else
		lb_printf(lb, "%*s%.*s", pad, "", (int)len, s);
}

static int lb_flush(struct linebuf *lb, FILE *out)
{
	while (lb->len && lb->s[lb->len - 1] == ' ')
		lb->len--;
	SIM_BUG_ON(display_width(lb->s, lb->len) > TABLE_WIDTH);
	lb->s[lb->len] = '\0';
	fprintf(out, "%s\n", lb->s);
	lb->len = 0;
	return ferror(out) ? -1 : 0;
}

/* Print @text (possibly long) on lines of its own, cut at 80 columns. */
static void put_long(FILE *out, const char *prefix, const char *text)
{
	struct linebuf lb = { .len = 0 };
	size_t room = TABLE_WIDTH - strlen(prefix);

	lb_printf(&lb, "%s%.*s", prefix, (int)fit_bytes(text, room), text);
	lb_flush(&lb, out);
}

/* How a row of the table prints its numbers. */
struct numfmt {
	bool sci; /* "%.4e" */
	int decimals; /* otherwise "%.*f" */
};

static struct numfmt row_format(double maxabs)
{
	struct numfmt f = { .sci = false, .decimals = 0 };
	int e;

	if (maxabs == 0 || !isfinite(maxabs))
		return f;
	if (maxabs < 1e-4 || maxabs >= 1e10) {
		f.sci = true;
		return f;
	}
	e = (int)floor(log10(maxabs));
	/* five significant digits for the largest value, four below 1 */
	f.decimals = e >= 0 ? 4 - e : 3 - e;
	if (f.decimals < 0)
		f.decimals = 0;
	if (e >= 0 && f.decimals > 3)
		f.decimals = 3;
	return f;
}

static void format_num(char *buf, size_t size, double v, struct numfmt f)
{
	if (!isfinite(v))
		sim_format_double(buf, size, v);
	else if (f.sci || fabs(v) >= 1e10) /* a wide interval, too */
		snprintf(buf, size, "%.4e", v);
	else
		snprintf(buf, size, "%.*f", f.decimals, v);
}

static void format_pct(char *buf, size_t size, double pct)
{
	if (fabs(pct) < 0.005)
		pct = 0;
	if (fabs(pct) < 1000)
		snprintf(buf, size, "(%+.2f%%)", pct);
	else if (fabs(pct) < 1e6)
		snprintf(buf, size, "(%+.0f%%)", pct);
	else
		snprintf(buf, size, "(%+.2e%%)", pct);
}

/* The formatted pieces of one cell; empty strings are left out. */
struct cell {
	char val[CELL_MAX];
	char ci[CELL_MAX + 2];
	char chg[CELL_MAX];
};

/* Widths of one column: its three pieces and the whole. */
struct column {
	size_t val, ci, chg, width;
};

static void fill_cell(const struct report *r, unsigned int m, unsigned int var,
		      int base, struct numfmt f, struct cell *c)
{
	const struct report_value *v, *b;
	char num[CELL_MAX];
	double pct;

	memset(c, 0, sizeof(*c));
	v = report__find_value(&r->variants[var], m);
	if (!v) {
		snprintf(c->val, sizeof(c->val), "-");
		return;
	}
	format_num(c->val, sizeof(c->val), v->value, f);
	if (r->replications > 1) {
		format_num(num, sizeof(num), v->ci95, f);
		snprintf(c->ci, sizeof(c->ci), "+-%s", num);
	}
	base = report__variant_base(r, var, base);
	if ((int)var == base)
		return;
	b = report__find_value(&r->variants[base], m);
	if (b && report__change_pct(v->value, b->value, &pct)) {
		format_pct(c->chg, sizeof(c->chg), pct);
		/* the two intervals overlap: not a significant change */
		if (r->replications > 1 && pct != 0 &&
		    fabs(v->value - b->value) <= v->ci95 + b->ci95) {
			memmove(c->chg + 2, c->chg + 1, strlen(c->chg));
			c->chg[1] = '~'; /* "(~+2.96%)" */
		}
	} else
		snprintf(c->chg, sizeof(c->chg), "(n/a)");
}

static void measure_column(const struct cell *cells, unsigned int nr_rows,
			   unsigned int stride, const char *name,
			   struct column *col)
{
	size_t name_len = strlen(name);
	unsigned int i;

	memset(col, 0, sizeof(*col));
	for (i = 0; i < nr_rows; i++) {
		const struct cell *c = &cells[(size_t)i * stride];

		if (strlen(c->val) > col->val)
			col->val = strlen(c->val);
		if (strlen(c->ci) > col->ci)
			col->ci = strlen(c->ci);
		if (strlen(c->chg) > col->chg)
			col->chg = strlen(c->chg);
	}
	col->width = col->val + (col->ci ? 1 + col->ci : 0) +
		     (col->chg ? 1 + col->chg : 0);
	name_len = display_width(name, name_len);
	if (name_len > HEAD_MAX)
		name_len = HEAD_MAX;
	if (name_len > col->width)
		col->width = name_len;
}

static void put_cell(struct linebuf *lb, const struct cell *c,
		     const struct column *col)
{
	size_t used = col->val + (col->ci ? 1 + col->ci : 0) +
		      (col->chg ? 1 + col->chg : 0);

	lb_printf(lb, "  %*s", (int)(col->width - used), "");
	lb_field(lb, c->val, strlen(c->val), col->val, false);
	if (col->ci) {
		lb_printf(lb, " ");
		lb_field(lb, c->ci, strlen(c->ci), col->ci, false);
	}
	if (col->chg) {
		lb_printf(lb, " ");
		lb_field(lb, c->chg, strlen(c->chg), col->chg, false);
	}
}

static void metric_label(const struct report_metric_def *m, char *buf,
			 size_t size)
{
	if (m->unit[0])
		snprintf(buf, size, "%s (%s)", m->name, m->unit);
	else
		snprintf(buf, size, "%s", m->name);
}

/*
 * Bytes of the next heading chunk of @s in @width columns: all of it if it
 * fits, else up to the last '-', '_', '.', '/' or ' ' that fits, else a
 * hard cut.
 */
static size_t head_chunk(const char *s, size_t width)
{
	size_t n = fit_bytes(s, width), i;

	if (!s[n])
		return n;
	for (i = n; i > 0; i--)
		if (strchr("-_./ ", s[i - 1]))
			return i;
	return n;
}

static unsigned int head_chunks(const char *s, size_t width)
{
	unsigned int n = 1;

	s += head_chunk(s, width);
	for (; *s; n++)
		s += head_chunk(s, width);
	return n;
}

/* Heading lines of a block: names split in chunks, bottom-aligned. */
static void put_heads(FILE *out, const struct report *r,
		      const struct column *cols, unsigned int first,
		      unsigned int last, size_t label_w)
{
	unsigned int i, k, row, nr_rows = 1;
	struct linebuf lb = { .len = 0 };

	for (i = first; i < last; i++) {
		unsigned int n =
			head_chunks(r->variants[i].name, cols[i].width);

		if (n > nr_rows)
			nr_rows = n;
	}
	for (row = 0; row < nr_rows; row++) {
		lb_printf(&lb, "%*s", (int)label_w, "");
		for (i = first; i < last; i++) {
			const char *s = r->variants[i].name;
			size_t w = cols[i].width;
			unsigned int n = head_chunks(s, w);

			lb_printf(&lb, "  ");
			if (row < nr_rows - n) {
				lb_printf(&lb, "%*s", (int)w, "");
				continue;
			}
			for (k = 0; k < row - (nr_rows - n); k++)
				s += head_chunk(s, w);
			lb_field(&lb, s, head_chunk(s, w), w, false);
		}
		lb_flush(&lb, out);
	}
}

static void put_block(FILE *out, const struct report *r,
		      const struct cell *cells, const struct column *cols,
		      unsigned int first, unsigned int last, size_t label_w,
		      const bool *hide)
{
	struct linebuf lb = { .len = 0 };
	char label[256];
	unsigned int m, i;

	put_heads(out, r, cols, first, last, label_w);
	for (m = 0; m < r->nr_metrics; m++) {
		if (hide[m])
			continue;
		metric_label(&r->metrics[m], label, sizeof(label));
		if (display_width(label, strlen(label)) > label_w) {
			put_long(out, "", label);
			lb_printf(&lb, "%*s", (int)label_w, "");
		} else {
			lb_field(&lb, label, strlen(label), label_w, true);
		}
		for (i = first; i < last; i++)
			put_cell(&lb, &cells[(size_t)m * r->nr_variants + i],
				 &cols[i]);
		lb_flush(&lb, out);
	}
}

/* A count in at most six columns: exact below 100000, then k, M, G... */
static void format_count(char *buf, size_t size, uint64_t n)
{
	static const char suffix[] = "kMGTPE";
	double v = (double)n;
	unsigned int i = 0;

	if (n < 100000) {
		snprintf(buf, size, "%llu", (unsigned long long)n);
		return;
	}
	v /= 1000;
	while (v >= 999.5 && i < sizeof(suffix) - 2) {
		v /= 1000;
		i++;
	}
	snprintf(buf, size, "%.3g%c", v, suffix[i]);
}

static void format_ns(char *buf, size_t size, double ns)
{
	if (!isfinite(ns) || ns < 0)
		sim_format_double(buf, size, ns);
	else if (ns < 100000)
		snprintf(buf, size, "%.1f", ns);
	else
		format_count(buf, size, (uint64_t)llround(ns));
}

/* Wrap the words of @text on lines indented by @indent. */
static void put_wrapped(FILE *out, size_t indent, const char *text)
{
	struct linebuf lb = { .len = 0 };
	size_t col = indent, len;
	const char *p = text;

	lb_printf(&lb, "%*s", (int)indent, "");
	while (*p) {
		while (*p == ' ')
			p++;
		len = strcspn(p, " ");
		if (!len)
			break;
		if (len > TABLE_WIDTH - indent)
			len = fit_bytes(p, TABLE_WIDTH - indent);
		if (col > indent && col + 1 + len > TABLE_WIDTH) {
			lb_flush(&lb, out);
			lb_printf(&lb, "%*s", (int)indent, "");
			col = indent;
		}
		if (col > indent) {
			lb_printf(&lb, " ");
			col++;
		}
		lb_printf(&lb, "%.*s", (int)len, p);
		col += display_width(p, len);
		p += strcspn(p, " ");
	}
	if (col > indent)
		lb_flush(&lb, out);
}

struct hot_row {
	char acc[64], xfer[16], wait[24], util[16];
};

static void put_hot_lines(FILE *out, const struct report_variant *v,
			  const struct report *r)
{
	size_t name_w = 4, acc_w = 14, xfer_w = 5, wait_w = 7, util_w = 5;
	struct linebuf lb = { .len = 0 };
	struct hot_row *rows;
	unsigned int i;
	size_t used;

	rows = calloc(v->nr_lines, sizeof(*rows));
	if (!rows) {
		fprintf(out, "hot lines: %s\n", strerror(ENOMEM));
		return;
	}
	for (i = 0; i < v->nr_lines; i++) {
		const struct report_line *l = &v->lines[i];
		struct hot_row *h = &rows[i];
		char a[16], b[16], c[16];
		size_t w = display_width(l->name,
					 strnlen(l->name, sizeof(l->name)));

		format_count(a, sizeof(a), l->reads);
		format_count(b, sizeof(b), l->writes);
		format_count(c, sizeof(c), l->rmws);
		snprintf(h->acc, sizeof(h->acc), "%s/%s/%s", a, b, c);
		format_count(h->xfer, sizeof(h->xfer), l->transfers);
		format_ns(h->wait, sizeof(h->wait), l->wait_ns);
		snprintf(h->util, sizeof(h->util), "%.1f",
			 l->utilisation * 100);
		if (w > name_w && w <= HOT_NAME_MAX)
			name_w = w;
		if (strlen(h->acc) > acc_w)
			acc_w = strlen(h->acc);
		if (strlen(h->xfer) > xfer_w)
			xfer_w = strlen(h->xfer);
		if (strlen(h->wait) > wait_w)
			wait_w = strlen(h->wait);
		if (strlen(h->util) > util_w)
			util_w = strlen(h->util);
	}

	put_long(out, "hot lines: ", v->name);
	/* the lines are counted in one run, the values above averaged */
	if (r->replications > 1)
		fprintf(out, "(counted in the first replication, seed %llu)\n",
			(unsigned long long)r->seed);
	lb_printf(&lb, "  %-*s  %*s  %*s  %*s  %*s  fields", (int)name_w,
		  "line", (int)acc_w, "accesses r/w/rmw", (int)xfer_w, "xfers",
		  (int)wait_w, "wait ns", (int)util_w, "util%");
	lb_flush(&lb, out);
	used = 2 + name_w + 2 + acc_w + 2 + xfer_w + 2 + wait_w + 2 + util_w;
	for (i = 0; i < v->nr_lines; i++) {
		const struct report_line *l = &v->lines[i];
		size_t name_len = strnlen(l->name, sizeof(l->name));
		size_t fields_len = strnlen(l->fields, sizeof(l->fields));
		char fields[sizeof(l->fields) + 1];

		memcpy(fields, l->fields, fields_len);
		fields[fields_len] = '\0';
		if (display_width(l->name, name_len) > name_w) {
			lb_printf(&lb, "  %.*s",
				  (int)fit_bytes(l->name, TABLE_WIDTH - 2),
				  l->name);
			lb_flush(&lb, out);
			lb_printf(&lb, "  %*s", (int)name_w, "");
		} else {
			lb_printf(&lb, "  ");
			lb_field(&lb, l->name, name_len, name_w, true);
		}
		lb_printf(&lb, "  %*s  %*s  %*s  %*s", (int)acc_w, rows[i].acc,
			  (int)xfer_w, rows[i].xfer, (int)wait_w, rows[i].wait,
			  (int)util_w, rows[i].util);
		if (used + 2 + display_width(fields, fields_len) <=
		    TABLE_WIDTH) {
			lb_printf(&lb, "  %s", fields);
			lb_flush(&lb, out);
		} else {
			lb_flush(&lb, out);
			put_wrapped(out, 4 + name_w, fields);
		}
	}
	free(rows);
}

void report_describe(struct report *r, const char *text)
{
	free(r->description);
	r->description = text ? strdup(text) : NULL;
	if (text && !r->description)
		r->oom = true;
}

void report_variant_legend(struct report *r, int variant, const char *text)
{
	struct report_variant *v = get_variant(r, variant);

	if (!v)
		return;
	free(v->legend);
	v->legend = strdup(text);
	if (!v->legend)
		r->oom = true;
}

void report_all_metrics(struct report *r, bool all)
{
	r->all_metrics = all;
}

const char *report_variant_name(const struct report *r, unsigned int i)
{
	return i < r->nr_variants ? r->variants[i].name : NULL;
}

/*
 * @text's words after @head on lines of at most 80 columns, the first
 * starting "# HEAD" and the next ones "#  "; newlines and tabs in @text
 * are spaces, other control characters '?'.
 */
static void put_comment(FILE *out, const char *head, const char *text)
{
	struct linebuf lb = { .len = 0 };
	const char *p = text;
	size_t col, len, i;

	lb_printf(&lb, "#%s%s", *head ? " " : "", head);
	col = 1 + (*head ? 1 + display_width(head, strlen(head)) : 0);
	while (*p) {
		p += strspn(p, " \n\t");
		len = strcspn(p, " \n\t");
		if (!len)
			break;
		if (len > TABLE_WIDTH - 4)
			len = fit_bytes(p, TABLE_WIDTH - 4);
		if (col > 3 && col + 1 + len > TABLE_WIDTH) {
			lb_flush(&lb, out);
			lb_printf(&lb, "#  ");
			col = 3;
		}
		lb_printf(&lb, " ");
		for (i = 0; i < len; i++)
			lb_printf(&lb, "%c",
				  (unsigned char)p[i] < 0x20 || p[i] == 0x7f ?
					  '?' :
					  p[i]);
		col += 1 + display_width(p, len);
		p += len;
		p += strcspn(p, " \n\t");
	}
	lb_flush(&lb, out);
}

/* The description, then a legend line per variant with settings. */
static void put_legend(FILE *out, const struct report *r)
{
	char head[80];
	unsigned int i;

	if (r->description && *r->description)
		put_comment(out, "", r->description);
	for (i = 0; i < r->nr_variants; i++) {
		if (!r->variants[i].legend)
			continue;
		snprintf(head, sizeof(head),
			 "%.*s:", (int)fit_bytes(r->variants[i].name, 40),
			 r->variants[i].name);
		put_comment(out, head,
			    *r->variants[i].legend ?
				    r->variants[i].legend :
				    "(the scenario as written)");
	}
}

/* @s on one line: each control character as '?'. */
void report__put_one_line(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
}

/*
 * The table's second line: "# memcgsim 0.1, machine M, 20 ms after a
 * 2 ms warm-up" and the --set options; at most 80 columns, wrapped.
 */
static void put_provenance(FILE *out, const struct report *r)
{
	const char *ver = report_provenance_get(r, "memcgsim");
	const char *mach = report_provenance_get(r, "machine");
	const char *dur = report_provenance_get(r, "duration_ms");
	const char *warm = report_provenance_get(r, "warmup_ms");
	size_t col;
	unsigned int i;

	if (!ver)
		return;
	col = (size_t)fprintf(out, "# memcgsim %s", ver);
	if (mach) {
		fputs(", machine ", out);
		report__put_one_line(out, mach);
		col += 10 + strlen(mach);
	}
	if (dur)
		col += (size_t)fprintf(out, ", %s ms", dur);
	if (dur && warm)
		col += (size_t)fprintf(out, " after a %s ms warm-up", warm);
	for (i = 0; i < r->nr_prov; i += 2) {
		size_t w = strlen(r->prov[i + 1]) + 8;

		if (strcmp(r->prov[i], "set"))
			continue;
		if (col + w > TABLE_WIDTH) {
			fputs(",\n#", out);
			col = 1;
		} else {
			fputc(',', out);
		}
		fputs(" --set ", out);
		report__put_one_line(out, r->prov[i + 1]);
		col += w;
	}
	fputc('\n', out);
}

static void put_title(FILE *out, const struct report *r)
{
	char tail[96];
	size_t room;

	snprintf(tail, sizeof(tail), ", seed %llu, %u replication%s",
		 (unsigned long long)r->seed, r->replications,
		 r->replications == 1 ? "" : "s");
	room = TABLE_WIDTH - strlen("# scenario ") - strlen(tail);
	fprintf(out, "# scenario %.*s%s\n", (int)fit_bytes(r->scenario, room),
		r->scenario, tail);
	put_provenance(out, r);
	put_legend(out, r);
	fputc('\n', out);
}

/* Is metric @m 0 (and its CI 0) in every variant that has it? */
static bool all_zero(const struct report *r, unsigned int m)
{
	const struct report_value *v;
	unsigned int i, seen = 0;

	for (i = 0; i < r->nr_variants; i++) {
		v = report__find_value(&r->variants[i], m);
		if (!v)
			continue;
		if (v->value != 0 || v->ci95 != 0)
			return false;
		seen++;
	}
	return seen > 0;
}

/* "(0 in every variant, not shown: a, b; --all-metrics shows them)" */
static void put_hidden(FILE *out, const struct report *r, const bool *hide)
{
	char *list = NULL;
	size_t len = 0;
	unsigned int m, n = 0;
	FILE *f = open_memstream(&list, &len);

	if (!f)
		return;
	for (m = 0; m < r->nr_metrics; m++)
		if (hide[m])
			fprintf(f, "%s%s", n++ ? ", " : "", r->metrics[m].name);
	fprintf(f, " (--all-metrics shows %s)", n == 1 ? "it" : "them");
	if (fclose(f)) {
		free(list);
		return;
	}
	fputs("\n0 in every variant, not shown:\n", out);
	put_wrapped(out, 2, list);
	free(list);
}

static int write_table(const struct report *r, FILE *out)
{
	unsigned int nr_v = r->nr_variants, m, i, first, nr_hidden = 0;
	size_t label_w = 0, used;
	bool *hide;
	struct column *cols;
	struct cell *cells;
	int base = report__baseline_index(r);
	char label[256];

	put_title(out, r);
	if (!nr_v)
		return ferror(out) ? -1 : 0;
	cells = calloc((size_t)(r->nr_metrics ? r->nr_metrics : 1) * nr_v,
		       sizeof(*cells));
	cols = calloc(nr_v, sizeof(*cols));
	hide = calloc(r->nr_metrics ? r->nr_metrics : 1, sizeof(*hide));
	if (!cells || !cols || !hide)
		goto out_free;

	for (m = 0; m < r->nr_metrics; m++) {
		double maxabs = 0;
		struct numfmt f;
		size_t w;

		hide[m] = !r->all_metrics && all_zero(r, m);
		nr_hidden += hide[m];
		if (hide[m])
			continue;

		for (i = 0; i < nr_v; i++) {
			const struct report_value *v;

			v = report__find_value(&r->variants[i], m);
			if (v && isfinite(v->value) && fabs(v->value) > maxabs)
				maxabs = fabs(v->value);
		}
		f = row_format(maxabs);
		for (i = 0; i < nr_v; i++)
			fill_cell(r, m, i, base, f,
				  &cells[(size_t)m * nr_v + i]);
		metric_label(&r->metrics[m], label, sizeof(label));
		w = display_width(label, strlen(label));
		if (w > label_w)
			label_w = w;
	}
	if (label_w > LABEL_MAX)
		label_w = LABEL_MAX;
	for (i = 0; i < nr_v; i++)
		measure_column(&cells[i], r->nr_metrics, nr_v,
			       r->variants[i].name, &cols[i]);

	for (first = 0; first < nr_v; first = i) {
		used = label_w;
		for (i = first; i < nr_v; i++) {
			if (i > first && used + 2 + cols[i].width > TABLE_WIDTH)
				break;
			used += 2 + cols[i].width;
		}
		if (first)
			fputc('\n', out);
		put_block(out, r, cells, cols, first, i, label_w, hide);
	}
	for (i = 0; i < (size_t)r->nr_metrics * nr_v; i++)
		if (cells[i].chg[1] == '~')
			break;
	if (i < (size_t)r->nr_metrics * nr_v)
		fputs("\n~: within the 95% confidence intervals of both values, not a\n"
		      "significant change\n",
		      out);
	if (nr_hidden)
		put_hidden(out, r, hide);

	for (i = 0; i < nr_v; i++) {
		const struct report_variant *v = &r->variants[i];

		if (!v->nr_lines)
			continue;
		fputc('\n', out);
		put_hot_lines(out, v, r);
	}
	for (i = 0; i < nr_v; i++) {
		const struct report_variant *v = &r->variants[i];
		unsigned int n;

		for (n = 0; n < v->nr_notes; n++) {
			if (!n)
				fputc('\n', out);
			put_long(out, "note: ", v->name);
			put_wrapped(out, 2, v->notes[n]);
		}
	}
	free(hide);
	free(cols);
	free(cells);
	return ferror(out) ? -1 : 0;

out_free:
	free(hide);
	free(cols);
	free(cells);
	errno = ENOMEM;
	return -1;
}

/**
 * report_provenance() - record @key: @value where the results come from.
 * @r: report
 * @key: "memcgsim", "scenario_digest", "machine", "set"...
 * @value: its value, one line
 *
 * Copied; on failure the report is marked and its writers refuse.
 */
void report_provenance(struct report *r, const char *key, const char *value)
{
	if (!grow(&r->prov, &r->alloc_prov, r->nr_prov + 2, sizeof(*r->prov))) {
		r->oom = true;
		return;
	}
	r->prov[r->nr_prov] = strdup(key);
	r->prov[r->nr_prov + 1] = strdup(value);
	if (!r->prov[r->nr_prov] || !r->prov[r->nr_prov + 1]) {
		free(r->prov[r->nr_prov]);
		free(r->prov[r->nr_prov + 1]);
		r->oom = true;
		return;
	}
	r->nr_prov += 2;
}

const char *report_provenance_get(const struct report *r, const char *key)
{
	unsigned int i;

	for (i = 0; i < r->nr_prov; i += 2)
		if (!strcmp(r->prov[i], key))
			return r->prov[i + 1];
	return NULL;
}

/**
 * report_write() - render @r to @out.
 * @r: report
 * @fmt: REPORT_TABLE, REPORT_YAML or REPORT_CSV
 * @out: stream, left open
 *
 * The same report always gives the same bytes.
 *
 * Return: 0, or -1 with errno set (ENOMEM when a recording function or
 * the writer ran out of memory, otherwise the stream's error).
 */
int report_write(const struct report *r, enum report_format fmt, FILE *out)
{
	if (r->oom) {
		errno = ENOMEM;
		return -1;
	}
	errno = 0;
	switch (fmt) {
	case REPORT_TABLE:
		return write_table(r, out);
	case REPORT_YAML:
		return report__write_yaml(r, out);
	case REPORT_CSV:
		return report__write_csv(r, out);
	}
	errno = EINVAL;
	return -1;
}
