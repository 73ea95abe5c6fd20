// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli/compare.c - read result files and compare their metrics.
 *
 * Theory of operation (the formats are drawn in cli/compare.h): a file is
 * read whole (at most 16 MiB, like a scenario), refused if it holds a NUL
 * byte, and taken for CSV when its first line starts with the column
 * "variant" or "point", otherwise for YAML.
 *
 * CSV is read by sim/csv.h, as sim/report.c writes it (RFC 4180). report.c
 * ends every record, the last included, with a newline, so a last line
 * without one is a truncated file (CSV_NEWLINE_AT_END), and an empty line
 * is refused. Every record must have as many fields as the header.
 * The header says what each column is:
 *
 *	point,charge_batch,variant,throughput,unit,change_pct,p99,p99_ci95
 *	  |     |            |       |          skipped   |      p99's CI:
 *	  |     the point's  |       metric (the primary) metric its stem is
 *	  |     setting      row name                            a column
 *	  sweeps only
 *
 * An empty field is a value the variant does not have, as report.c writes
 * it; any other field of a metric column must be a number ("nan", "inf"
 * and "-inf" included, as sim_format_double() writes them).
 *
 * YAML goes through the scenario loader's tree (sim/scenario.h), with the
 * room for nodes that results need: every node knows its line and column,
 * so each error names them. A YAML file cut at the end of a line may
 * still parse, so every variant must have its last key, `notes`.
 *
 * A loaded file is a list of rows in file order, each with its metrics in
 * file order. Rows are found through a hash table on their names (a sweep
 * of 10000 points has 60000 rows for six variants); a row's metrics by
 * linear search while it has a few dozen, else through a hash table of
 * its own; a CSV header's names through a hash set while it is read. So
 * nothing is quadratic in the number of rows or of columns.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/compare.h"
#include "sim/csv.h"
#include "sim/report.h"
#include "sim/scenario.h"

#define COMPARE_MAX_BYTES (16u << 20) /* as a scenario */
#define TABLE_WIDTH 80
#define NUM_MAX 40 /* one sim_format_double() number */
#define NUM_SHORT 12 /* numbers up to this long are printed exactly */
#define VALUE_INDEX_MIN 32 /* a row's values searched linearly up to this */

/* One metric of one row. */
struct cmp_value {
	char *metric; /* as a CSV column: [a-z0-9_] */
	double value;
	double ci95; /* half-width of its 95% CI; NAN when not written */
};

/* A variant's results (in a sweep, at one point). */
struct cmp_row {
	char *name; /* "VARIANT" or "POINT/VARIANT" */
	char *point; /* sweep: the point; NULL otherwise */
	char *set; /* sweep: "KEY=VALUE, ..." of the point */
	char *set_values; /* sweep: "VALUE\nVALUE..." (compared) */
	struct cmp_value *values;
	unsigned int nr_values, alloc_values;
	/* Past VALUE_INDEX_MIN values: value index + 1, or 0 for empty. */
	unsigned int *vindex;
	unsigned int vindex_size; /* 0, or a power of two > 2 * nr_values */
};

struct compare_file {
	char *name;
	bool sweep;
	struct cmp_row *rows;
	unsigned int nr_rows, alloc_rows;
	/* Open addressing on row names: row index + 1, or 0 for empty. */
	unsigned int *index;
	unsigned int index_size; /* a power of two, > 2 * nr_rows */
};

/*
 * Make room for @nr elements of @size bytes in @arr, which has room for
 * *@alloc. Return the array, perhaps moved, or NULL (and @arr unchanged)
 * when out of memory.
 */
static void *grow(void *arr, unsigned int *alloc, unsigned int nr, size_t size)
{
	unsigned int n;
	void *p;

	if (nr <= *alloc)
		return arr;
	n = *alloc ? *alloc * 2 : 8;
	if (n < nr)
		n = nr;
	p = realloc(arr, (size_t)n * size);
	if (p)
		*alloc = n;
	return p;
}

static void oom(struct sim_error *err, const char *file)
{
	sim_error_set(err, file, 0, 0, "out of memory");
}

/* ------------------------------------------------------------------ */
/* Rows and values.                                                    */

static void row_release(struct cmp_row *row)
{
	unsigned int i;

	for (i = 0; i < row->nr_values; i++)
		free(row->values[i].metric);
	free(row->values);
	free(row->vindex);
	free(row->name);
	free(row->point);
	free(row->set);
	free(row->set_values);
}

/**
 * compare_free() - release a file read by compare_load().
 * @f: the file, or NULL
 */
void compare_free(struct compare_file *f)
{
	unsigned int i;

	if (!f)
		return;
	for (i = 0; i < f->nr_rows; i++)
		row_release(&f->rows[i]);
	free(f->rows);
	free(f->index);
	free(f->name);
	free(f);
}

/* FNV-1a of @len bytes: row names are short; a sweep has many rows. */
static uint32_t name_hash_n(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	while (len--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static uint32_t name_hash(const char *s)
{
	return name_hash_n(s, strlen(s));
}

/*
 * A set of borrowed names, by open addressing: the CSV header's duplicate
 * and _ci95 checks and --metric's list of names, which would otherwise
 * compare every name with every other (100000 columns: minutes).
 */
struct name_set {
	const char **slot;
	unsigned int size, nr; /* size: 0 or a power of two > 2 * nr */
};

static const char **name_set_slot(const struct name_set *set, const char *name,
				  size_t len)
{
	unsigned int mask = set->size - 1;
	unsigned int i = name_hash_n(name, len) & mask;

	while (set->slot[i] &&
	       (strncmp(set->slot[i], name, len) || set->slot[i][len]))
		i = (i + 1) & mask;
	return &set->slot[i];
}

/* Is the name of @len bytes at @name in @set? */
static bool name_set_has(const struct name_set *set, const char *name,
			 size_t len)
{
	return set->size && *name_set_slot(set, name, len);
}

/* Add @name: 1 when added, 0 when it was there, -1 out of memory. */
static int name_set_add(struct name_set *set, const char *name)
{
	unsigned int i, old_size = set->size;
	const char **old = set->slot, **slot;

	if (name_set_has(set, name, strlen(name)))
		return 0;
	if (2 * (set->nr + 1) >= set->size) {
		set->size = set->size ? set->size * 2 : 64;
		set->slot = calloc(set->size, sizeof(*set->slot));
		if (!set->slot) {
			set->slot = old;
			set->size = old_size;
			return -1;
		}
		for (i = 0; i < old_size; i++)
			if (old[i])
				*name_set_slot(set, old[i], strlen(old[i])) =
					old[i];
		free(old);
	}
	slot = name_set_slot(set, name, strlen(name));
	*slot = name;
	set->nr++;
	return 1;
}

static void name_set_free(struct name_set *set)
{
	free(set->slot);
	set->slot = NULL;
	set->size = set->nr = 0;
}

/* The slot of @name in f->index: its row's, or the empty one to use. */
static unsigned int index_slot(const struct compare_file *f, const char *name)
{
	unsigned int mask = f->index_size - 1;
	unsigned int i = name_hash(name) & mask;

	while (f->index[i] && strcmp(f->rows[f->index[i] - 1].name, name))
		i = (i + 1) & mask;
	return i;
}

static struct cmp_row *find_row(const struct compare_file *f, const char *name)
{
	unsigned int slot;

	if (!f->index_size)
		return NULL;
	slot = index_slot(f, name);
	return f->index[slot] ? &f->rows[f->index[slot] - 1] : NULL;
}

/* Index the last row; double the table when it gets half full. */
static bool index_row(struct compare_file *f)
{
	unsigned int i, size = f->index_size;

	if (2 * f->nr_rows >= size) {
		size = size ? size * 2 : 64;
		free(f->index);
		f->index = calloc(size, sizeof(*f->index));
		if (!f->index) {
			f->index_size = 0;
			return false;
		}
		f->index_size = size;
		for (i = 0; i + 1 < f->nr_rows; i++)
			f->index[index_slot(f, f->rows[i].name)] = i + 1;
	}
	f->index[index_slot(f, f->rows[f->nr_rows - 1].name)] = f->nr_rows;
	return true;
}

/* The slot of @metric in row->vindex: its value's, or the empty one. */
static unsigned int value_slot(const struct cmp_row *row, const char *metric)
{
	unsigned int mask = row->vindex_size - 1;
	unsigned int i = name_hash(metric) & mask;

	while (row->vindex[i] &&
	       strcmp(row->values[row->vindex[i] - 1].metric, metric))
		i = (i + 1) & mask;
	return i;
}

static const struct cmp_value *find_value(const struct cmp_row *row,
					  const char *metric)
{
	unsigned int i;

	if (row->vindex_size) {
		i = value_slot(row, metric);
		return row->vindex[i] ? &row->values[row->vindex[i] - 1] : NULL;
	}
	for (i = 0; i < row->nr_values; i++)
		if (!strcmp(row->values[i].metric, metric))
			return &row->values[i];
	return NULL;
}

/*
 * Index the row's last value once it has more than VALUE_INDEX_MIN;
 * double the table when it gets half full. False when out of memory.
 */
static bool index_value(struct cmp_row *row)
{
	unsigned int i, size = row->vindex_size;

	if (row->nr_values <= VALUE_INDEX_MIN)
		return true;
	if (2 * row->nr_values >= size) {
		size = size ? size * 2 : 4 * VALUE_INDEX_MIN;
		free(row->vindex);
		row->vindex = calloc(size, sizeof(*row->vindex));
		if (!row->vindex) {
			row->vindex_size = 0;
			return false;
		}
		row->vindex_size = size;
		for (i = 0; i + 1 < row->nr_values; i++)
			row->vindex[value_slot(row, row->values[i].metric)] =
				i + 1;
	}
	row->vindex[value_slot(row, row->values[row->nr_values - 1].metric)] =
		row->nr_values;
	return true;
}

/*
 * A new row named @variant (at @point, for a sweep) at @line:@col of the
 * file. NULL with @err set when the name is empty or already taken.
 */
static struct cmp_row *add_row(struct compare_file *f, const char *point,
			       const char *variant, unsigned int line,
			       unsigned int col, struct sim_error *err)
{
	struct cmp_row *row;
	char *name;
	size_t len;

	if (!variant[0]) {
		sim_error_set(err, f->name, line, col, "empty variant name");
		return NULL;
	}
	len = strlen(variant) + (point ? strlen(point) + 1 : 0) + 1;
	name = malloc(len);
	if (!name)
		goto out_oom;
	if (point)
		snprintf(name, len, "%s/%s", point, variant);
	else
		snprintf(name, len, "%s", variant);
	if (find_row(f, name)) {
		if (point)
			sim_error_set(
				err, f->name, line, col,
				"variant '%s' appears twice at point '%s'",
				variant, point);
		else
			sim_error_set(err, f->name, line, col,
				      "variant '%s' appears twice", variant);
		free(name);
		return NULL;
	}
	row = grow(f->rows, &f->alloc_rows, f->nr_rows + 1, sizeof(*row));
	if (!row) {
		free(name);
		goto out_oom;
	}
	f->rows = row;
	row = &f->rows[f->nr_rows++];
	memset(row, 0, sizeof(*row));
	row->name = name;
	if (!index_row(f))
		goto out_oom;
	if (point) {
		row->point = strdup(point);
		if (!row->point)
			goto out_oom;
	}
	return row;

out_oom:
	oom(err, f->name);
	return NULL;
}

/* Record @metric = @value in @row; errors at @line:@col of @f. */
static int add_value(struct compare_file *f, struct cmp_row *row,
		     const char *metric, double value, unsigned int line,
		     unsigned int col, struct sim_error *err)
{
	char *name = report_column_name(metric);
	struct cmp_value *values = NULL;

	if (name)
		values = grow(row->values, &row->alloc_values,
			      row->nr_values + 1, sizeof(*values));
	if (!values) {
		free(name);
		oom(err, f->name);
		return -1;
	}
	row->values = values;
	if (find_value(row, name)) {
		sim_error_set(err, f->name, line, col,
			      "metric '%s' appears twice in variant '%s'", name,
			      row->name);
		free(name);
		return -1;
	}
	row->values[row->nr_values].metric = name;
	row->values[row->nr_values].value = value;
	row->values[row->nr_values].ci95 = NAN;
	row->nr_values++;
	if (!index_value(row)) {
		oom(err, f->name);
		return -1;
	}
	return 0;
}

/*
 * The confidence interval @ci95 of the metric whose name is the first
 * @len bytes of @metric, if @row has it (a _ci95 column of an empty
 * metric has nothing to belong to). -1 when out of memory.
 */
static int set_ci95(struct compare_file *f, struct cmp_row *row,
		    const char *metric, size_t len, double ci95,
		    struct sim_error *err)
{
	char *stem = strndup(metric, len), *name;
	struct cmp_value *v;

	name = stem ? report_column_name(stem) : NULL;
	free(stem);
	if (!name) {
		oom(err, f->name);
		return -1;
	}
	v = (struct cmp_value *)find_value(row, name);
	free(name);
	if (v && isfinite(ci95) && ci95 >= 0)
		v->ci95 = ci95;
	return 0;
}

/*
 * Read a number as sim_format_double() or the YAML writer writes it:
 * decimal or exponent notation, nan, inf, -inf, .nan, .inf, -.inf. A
 * metric without samples is written as nan, so the exact spellings stay;
 * everything else strtod() would take is refused.
 */
static bool parse_number(const char *s, double *out)
{
	static const struct {
		const char *text;
		double value;
	} words[] = {
		{ ".nan", NAN },
		{ ".NaN", NAN },
		{ ".NAN", NAN },
		{ ".inf", INFINITY },
		{ "+.inf", INFINITY },
		{ ".Inf", INFINITY },
		{ ".INF", INFINITY },
		{ "-.inf", -INFINITY },
		{ "-.Inf", -INFINITY },
		{ "-.INF", -INFINITY },
		/* sim_format_double()'s spellings in a CSV */
		{ "nan", NAN },
		{ "inf", INFINITY },
		{ "-inf", -INFINITY },
	};
	const char *p;
	unsigned int i;
	char *end;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (!strcmp(s, words[i].text)) {
			*out = words[i].value;
			return true;
		}
	}
	/*
	 * Only what memcgsim writes: decimal with an optional minus and
	 * exponent. No hex (0x12AB), no strtod() spellings of nan and inf
	 * but the above, no plus or space, no overflow to inf (1e400).
	 */
	p = s + (*s == '-');
	if (!isdigit((unsigned char)*p) &&
	    !(*p == '.' && isdigit((unsigned char)p[1])))
		return false;
	if (strspn(p, "0123456789.eE+-") != strlen(p))
		return false;
	errno = 0;
	*out = strtod(s, &end);
	if (errno == ERANGE && isinf(*out))
		return false;
	return !*end;
}

/* ------------------------------------------------------------------ */
/* CSV.                                                                */

/* What the columns of a result CSV hold. */
enum csv_role {
	CSV_POINT, /* sweep: the point */
	CSV_KEY, /* sweep: a varied key */
	CSV_VARIANT,
	CSV_METRIC,
	CSV_CI95, /* METRIC_ci95: the confidence interval of METRIC */
	CSV_SKIP, /* unit, change_pct */
};

/* Is @name the _ci95 column of a column in @before? */
static bool is_ci95(const char *name, const struct name_set *before)
{
	size_t len = strlen(name);

	if (len <= 5 || strcmp(name + len - 5, "_ci95"))
		return false;
	return name_set_has(before, name, len - 5);
}

static int csv_header(struct compare_file *f, const struct csv_field *fields,
		      unsigned int nr, enum csv_role *roles,
		      struct sim_error *err)
{
	unsigned int i, var = 0;
	const char *name;
	/* The columns after 'variant' so far. */
	struct name_set before = { NULL, 0, 0 };
	int ret = -1, added;

	if (!strcmp(fields[0].text, "point")) {
		f->sweep = true;
		roles[0] = CSV_POINT;
		for (var = 1; var < nr; var++) {
			if (!strcmp(fields[var].text, "variant"))
				break;
			roles[var] = CSV_KEY;
		}
		if (var == nr) {
			sim_error_set(
				err, f->name, 1, 1,
				"not a memcgsim result: no 'variant' column after 'point'");
			return -1;
		}
	} else if (strcmp(fields[0].text, "variant")) {
		sim_error_set(
			err, f->name, 1, 1,
			"not a memcgsim result: the header starts with '%s', not 'variant' or 'point'",
			fields[0].text);
		return -1;
	}
	roles[var] = CSV_VARIANT;
	for (i = var + 1; i < nr; i++) {
		name = fields[i].text;
		if (!strcmp(name, "unit") || !strcmp(name, "change_pct") ||
		    is_ci95(name, &before)) {
			roles[i] = CSV_SKIP;
			if (strcmp(name, "unit") && strcmp(name, "change_pct"))
				roles[i] = CSV_CI95;
			if (name_set_add(&before, name) < 0)
				goto oom;
			continue;
		}
		if (!name[0]) {
			sim_error_set(err, f->name, 1, fields[i].col,
				      "empty column name");
			goto out;
		}
		added = name_set_add(&before, name);
		if (added < 0)
			goto oom;
		if (!added) {
			sim_error_set(err, f->name, 1, fields[i].col,
				      "column '%s' appears twice", name);
			goto out;
		}
		roles[i] = CSV_METRIC;
	}
	ret = 0;
	goto out;
oom:
	oom(err, f->name);
out:
	name_set_free(&before);
	return ret;
}

/* Append "NAME=VALUE" to the row's set and VALUE to its set_values. */
static int add_setting(struct cmp_row *row, const char *name, const char *value)
{
	size_t old = row->set ? strlen(row->set) : 0;
	size_t oldv = row->set_values ? strlen(row->set_values) : 0;
	size_t len = old + strlen(name) + strlen(value) + 4;
	size_t lenv = oldv + strlen(value) + 2;
	char *set = realloc(row->set, len);
	char *vals;

	if (!set)
		return -1;
	row->set = set;
	snprintf(set + old, len - old, "%s%s=%s", old ? ", " : "", name, value);
	vals = realloc(row->set_values, lenv);
	if (!vals)
		return -1;
	row->set_values = vals;
	snprintf(vals + oldv, lenv - oldv, "%s%s", oldv ? "\n" : "", value);
	return 0;
}

/* One record after the header: a row with its values. */
static int csv_row(struct compare_file *f, const struct csv_reader *c,
		   const struct csv_field *header, const enum csv_role *roles,
		   unsigned int nr_cols, struct sim_error *err)
{
	const struct csv_field *fld = c->fields;
	const char *point = NULL, *variant = NULL;
	struct cmp_row *row;
	unsigned int i, vcol = 0;
	double v;

	if (c->nr_fields != nr_cols) {
		sim_error_set(err, f->name, fld[0].line, 1,
			      "%u field%s, but the header has %u%s",
			      c->nr_fields, c->nr_fields == 1 ? "" : "s",
			      nr_cols,
			      c->nr_fields < nr_cols ? " (truncated?)" : "");
		return -1;
	}
	for (i = 0; i < nr_cols; i++) {
		if (roles[i] == CSV_POINT)
			point = fld[i].text;
		if (roles[i] == CSV_VARIANT) {
			variant = fld[i].text;
			vcol = i;
		}
	}
	if (point && !point[0]) {
		sim_error_set(err, f->name, fld[0].line, fld[0].col,
			      "empty point");
		return -1;
	}
	row = add_row(f, point, variant, fld[vcol].line, fld[vcol].col, err);
	if (!row)
		return -1;
	for (i = 0; i < nr_cols; i++) {
		if (roles[i] == CSV_KEY &&
		    add_setting(row, header[i].text, fld[i].text)) {
			oom(err, f->name);
			return -1;
		}
		if (roles[i] != CSV_METRIC || !fld[i].text[0])
			continue;
		if (!parse_number(fld[i].text, &v)) {
			sim_error_set(
				err, f->name, fld[i].line, fld[i].col,
				"column '%s': expected a number, found '%s'",
				header[i].text, fld[i].text);
			return -1;
		}
		if (add_value(f, row, header[i].text, v, fld[i].line,
			      fld[i].col, err))
			return -1;
	}
	/* The _ci95 columns follow the metrics: give each its metric's. */
	for (i = 0; i < nr_cols; i++) {
		if (roles[i] != CSV_CI95 || !fld[i].text[0])
			continue;
		if (!parse_number(fld[i].text, &v)) {
			sim_error_set(
				err, f->name, fld[i].line, fld[i].col,
				"column '%s': expected a number, found '%s'",
				header[i].text, fld[i].text);
			return -1;
		}
		if (set_ci95(f, row, header[i].text, strlen(header[i].text) - 5,
			     v, err))
			return -1;
	}
	return 0;
}

/* Refuse a control or bidi character in a field, as the scenario loader. */
static int csv_clean(const struct compare_file *f,
		     const struct csv_field *fields, unsigned int nr,
		     struct sim_error *err)
{
	const char *bad;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		bad = sim_control_char((const unsigned char *)fields[i].text,
				       strlen(fields[i].text), false);
		if (bad) {
			sim_error_set(err, f->name, fields[i].line,
				      fields[i].col,
				      "a field may not contain %s", bad);
			return -1;
		}
	}
	return 0;
}

static int read_csv(struct compare_file *f, const char *buf, size_t len,
		    struct sim_error *err)
{
	unsigned int nr_rows = 0;
	struct csv_field *header = NULL;
	enum csv_role *roles = NULL;
	unsigned int nr_cols = 0;
	struct csv_reader c;
	int ret = -1, got;

	csv_reader_init(&c, f->name, buf, len, CSV_NEWLINE_AT_END);
	if (csv_read_record(&c, err) <= 0)
		goto out;
	/* Keep the header: take its fields over from the reader. */
	header = csv_take_fields(&c, &nr_cols);
	roles = calloc(nr_cols, sizeof(*roles));
	if (!roles) {
		oom(err, f->name);
		goto out;
	}
	if (csv_clean(f, header, nr_cols, err) ||
	    csv_header(f, header, nr_cols, roles, err))
		goto out;
	for (;;) {
		got = csv_read_record(&c, err);
		if (got < 0)
			goto out;
		if (!got)
			break;
		if (csv_clean(f, c.fields, c.nr_fields, err) ||
		    csv_row(f, &c, header, roles, nr_cols, err))
			goto out;
		nr_rows++;
	}
	/* A header alone is a result cut short, not an empty result. */
	if (!nr_rows) {
		sim_error_set(err, f->name, header[0].line + 1, 1,
			      "not a memcgsim result: a header and no rows "
			      "(truncated?)");
		goto out;
	}
	ret = 0;
out:
	csv_fields_free(header, nr_cols);
	free(roles);
	csv_reader_release(&c);
	return ret;
}

/* ------------------------------------------------------------------ */
/* YAML.                                                               */

static const char *kind_name(const struct scenario_node *node)
{
	switch (scenario_kind(node)) {
	case SCENARIO_MAP:
		return "a map";
	case SCENARIO_SEQ:
		return "a list";
	default:
		return "a scalar";
	}
}

static int yaml_metrics(struct compare_file *f, struct cmp_row *row,
			const struct scenario_node *metrics,
			struct sim_error *err)
{
	const struct scenario_node *m, *value;
	const char *text;
	size_t i;
	double v;

	for (i = 0; i < scenario_len(metrics); i++) {
		m = scenario_item(metrics, i);
		if (scenario_kind(m) != SCENARIO_MAP) {
			scenario_error(
				err, m,
				"expected a map with a 'value', found %s",
				kind_name(m));
			return -1;
		}
		value = scenario_get(m, "value");
		if (!value) {
			scenario_error(err, m, "missing key 'value'");
			return -1;
		}
		text = scenario_scalar(value);
		if (!text) {
			scenario_error(err, value,
				       "expected a number, found %s",
				       kind_name(value));
			return -1;
		}
		if (!parse_number(text, &v)) {
			scenario_error(err, value,
				       "expected a number, found '%s'", text);
			return -1;
		}
		if (add_value(f, row, scenario_key(metrics, i), v,
			      scenario_line(m), scenario_col(m), err))
			return -1;
		value = scenario_get(m, "ci95");
		text = value ? scenario_scalar(value) : NULL;
		if (value && !text) {
			scenario_error(err, value,
				       "expected a number, found %s",
				       kind_name(value));
			return -1;
		}
		if (text && !parse_number(text, &v)) {
			scenario_error(err, value,
				       "expected a number, found '%s'", text);
			return -1;
		}
		if (text && isfinite(v) && v >= 0)
			row->values[row->nr_values - 1].ci95 = v;
	}
	return 0;
}

/* The settings of a sweep point, in the order of its set: map. */
static int yaml_settings(struct compare_file *f, struct cmp_row *row,
			 const struct scenario_node *set, struct sim_error *err)
{
	const struct scenario_node *v;
	const char *text;
	size_t i;

	for (i = 0; set && i < scenario_len(set); i++) {
		v = scenario_item(set, i);
		text = scenario_scalar(v);
		if (!text)
			text = scenario_kind(v) == SCENARIO_MAP ? "{...}" :
								  "[...]";
		if (add_setting(row, scenario_key(set, i), text)) {
			oom(err, f->name);
			return -1;
		}
	}
	return 0;
}

static int yaml_variants(struct compare_file *f,
			 const struct scenario_node *variants,
			 const char *point, const struct scenario_node *set,
			 struct sim_error *err)
{
	const struct scenario_node *v, *name, *metrics;
	struct cmp_row *row;
	size_t i;

	if (scenario_kind(variants) != SCENARIO_SEQ) {
		scenario_error(err, variants,
			       "expected a list of variants, found %s",
			       kind_name(variants));
		return -1;
	}
	for (i = 0; i < scenario_len(variants); i++) {
		v = scenario_item(variants, i);
		name = scenario_kind(v) == SCENARIO_MAP ?
			       scenario_get(v, "name") :
			       NULL;
		metrics = name ? scenario_get(v, "metrics") : NULL;
		if (!name || !scenario_scalar(name)) {
			scenario_error(
				err, name ? name : v,
				"not a memcgsim result: expected a variant's name, found %s",
				kind_name(name ? name : v));
			return -1;
		}
		if (!metrics || scenario_kind(metrics) != SCENARIO_MAP) {
			scenario_error(
				err, metrics ? metrics : v,
				"not a memcgsim result: the variant has no map of 'metrics' (is this a scenario?)");
			return -1;
		}
		/* Its last key: without it, the file was cut short. */
		if (!scenario_get(v, "notes")) {
			scenario_error(
				err, v,
				"the variant has no 'notes', the last key memcgsim writes (truncated?)");
			return -1;
		}
		row = add_row(f, point, scenario_scalar(name),
			      scenario_line(name), scenario_col(name), err);
		if (!row || yaml_settings(f, row, set, err) ||
		    yaml_metrics(f, row, metrics, err))
			return -1;
	}
	return 0;
}

static int yaml_points(struct compare_file *f,
		       const struct scenario_node *points,
		       struct sim_error *err)
{
	const struct scenario_node *p, *point, *set, *variants;
	size_t i;

	if (scenario_kind(points) != SCENARIO_SEQ) {
		scenario_error(err, points,
			       "expected a list of points, found %s",
			       kind_name(points));
		return -1;
	}
	f->sweep = true;
	for (i = 0; i < scenario_len(points); i++) {
		p = scenario_item(points, i);
		if (scenario_kind(p) != SCENARIO_MAP) {
			scenario_error(
				err, p,
				"expected a map with 'point', 'set' and 'variants', found %s",
				kind_name(p));
			return -1;
		}
		point = scenario_get(p, "point");
		set = scenario_get(p, "set");
		variants = scenario_get(p, "variants");
		if (!point || !scenario_scalar(point) ||
		    !scenario_scalar(point)[0]) {
			scenario_error(err, point ? point : p,
				       "expected the point's name or number");
			return -1;
		}
		if (set && scenario_kind(set) != SCENARIO_MAP) {
			scenario_error(err, set,
				       "expected a map of settings, found %s",
				       kind_name(set));
			return -1;
		}
		if (!variants) {
			scenario_error(err, p, "missing key 'variants'");
			return -1;
		}
		if (yaml_variants(f, variants, scenario_scalar(point), set,
				  err))
			return -1;
	}
	return 0;
}

static int read_yaml(struct compare_file *f, const char *buf, size_t len,
		     struct sim_error *err)
{
	struct scenario_node *root, *list;
	int ret;

	root = scenario_parse_results(f->name, buf, len, err);
	if (!root)
		return -1;
	list = scenario_get(root, "points");
	if (list) {
		ret = yaml_points(f, list, err);
	} else {
		list = scenario_get(root, "variants");
		if (list) {
			ret = yaml_variants(f, list, NULL, NULL, err);
		} else {
			scenario_error(
				err, root,
				"not a memcgsim result: no 'variants' (memcgsim run -f yaml) or 'points' (a sweep)");
			ret = -1;
		}
	}
	scenario_free(root);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Loading.                                                            */

/* Is there a NUL byte? Then say where, and that the file is no result. */
static bool binary(const char *name, const char *buf, size_t len,
		   struct sim_error *err)
{
	const char *nul = memchr(buf, '\0', len), *p, *line_start = buf;
	unsigned int line = 1;

	if (!nul)
		return false;
	for (p = buf; p < nul; p++) {
		if (*p == '\n') {
			line++;
			line_start = p + 1;
		}
	}
	sim_error_set(err, name, line, (unsigned int)(nul - line_start) + 1,
		      "not a memcgsim result: binary data (a NUL byte)");
	return true;
}

/* Does the first line start with the column "variant" or "point"? */
static bool looks_like_csv(const char *buf, size_t len)
{
	static const char *const first[] = { "variant", "point" };
	unsigned int i;
	size_t n;

	for (i = 0; i < 2; i++) {
		n = strlen(first[i]);
		if (len > n && !memcmp(buf, first[i], n) &&
		    strchr(",\r\n", buf[n]))
			return true;
	}
	return false;
}

/**
 * compare_parse() - read a result from @len bytes at @buf.
 * @name: file name, for errors
 * @buf: the text, CSV or YAML as memcgsim writes them; any bytes
 * @len: its length
 * @err: filled on failure
 *
 * Return: the result, owned by the caller (compare_free()), or NULL with
 * @err set, naming @name and, for what is wrong inside, its line and
 * column: not a memcgsim result, malformed, truncated, a row or a metric
 * twice.
 */
struct compare_file *compare_parse(const char *name, const void *buf,
				   size_t len, struct sim_error *err)
{
	struct compare_file *f;
	const char *text = buf;
	size_t i;
	int ret;

	sim_error_clear(err);
	for (i = 0; i < len && isspace((unsigned char)text[i]); i++)
		;
	if (i == len) {
		sim_error_set(err, name, 0, 0,
			      "empty file, not a memcgsim result");
		return NULL;
	}
	if (len > COMPARE_MAX_BYTES) {
		sim_error_set(err, name, 0, 0,
			      "larger than %u MiB, not a memcgsim result",
			      COMPARE_MAX_BYTES >> 20);
		return NULL;
	}
	if (binary(name, text, len, err))
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f) {
		oom(err, name);
		return NULL;
	}
	f->name = strdup(name);
	if (!f->name) {
		oom(err, name);
		goto out_free;
	}
	if (looks_like_csv(text, len))
		ret = read_csv(f, text, len, err);
	else
		ret = read_yaml(f, text, len, err);
	if (!ret)
		return f;
out_free:
	compare_free(f);
	return NULL;
}

/**
 * compare_load() - read the result file @path; "-" is standard input.
 * @path: a file memcgsim run -f csv|yaml or memcgsim sweep wrote, or a
 *	sweep's directory (its sweep.csv is read)
 * @err: filled on failure
 *
 * Return: as compare_parse(); also NULL with @err set when the file
 * cannot be read.
 */
struct compare_file *compare_load(const char *path, struct sim_error *err)
{
	bool is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "<stdin>" : path;
	size_t len = 0, cap = 4096;
	struct compare_file *f = NULL;
	char *buf, *bigger, dir_csv[SIM_ERROR_FILE_MAX];
	struct stat st;
	FILE *in;

	sim_error_clear(err);
	if (!is_stdin && !stat(path, &st) && S_ISDIR(st.st_mode)) {
		snprintf(dir_csv, sizeof(dir_csv), "%s/sweep.csv", path);
		name = path = dir_csv;
	}
	in = is_stdin ? stdin : fopen(path, "rb");
	if (!in) {
		sim_error_set(err, name, 0, 0, "cannot open: %s",
			      strerror(errno));
		return NULL;
	}
	buf = malloc(cap);
	while (buf) {
		len += fread(buf + len, 1, cap - len, in);
		/* One byte more than allowed, so that the limit is seen. */
		if (len < cap || len > COMPARE_MAX_BYTES)
			break;
		cap = cap * 2 > COMPARE_MAX_BYTES + 1 ? COMPARE_MAX_BYTES + 1 :
							cap * 2;
		bigger = realloc(buf, cap);
		if (!bigger)
			free(buf);
		buf = bigger;
	}
	if (!buf)
		oom(err, name);
	else if (ferror(in))
		sim_error_set(err, name, 0, 0, "cannot read: %s",
			      strerror(errno ? errno : EIO));
	else
		f = compare_parse(name, buf, len, err);
	if (!is_stdin)
		fclose(in);
	free(buf);
	return f;
}

/* ------------------------------------------------------------------ */
/* Directions.                                                         */

/*
 * Which way each metric is better, by its name as a CSV column; a '*'
 * stands for any text. The first match wins; a metric no entry matches
 * has no direction, and a change of it is only reported. The rows of
 * COMPARE_NONE are here for the reasons in their comments, so that
 * nobody adds them with a direction they do not have.
 */
static const struct {
	const char *pattern;
	int dir;
} directions[] = {
	{ "throughput", COMPARE_HIGHER },
	{ "workload*_throughput", COMPARE_HIGHER },
	{ "latency_*", COMPARE_LOWER },
	{ "charge_latency_*", COMPARE_LOWER },
	{ "stat_read_latency_*", COMPARE_LOWER },
	{ "stat_pass_time_mean", COMPARE_LOWER },
	{ "flush_time_*", COMPARE_LOWER },
	/* lines moved, the busiest line's load, CPUs stalled on them */
	{ "transfers_per_op", COMPARE_LOWER },
	{ "hottest_line_util", COMPARE_LOWER },
	{ "cpu_waiting", COMPARE_LOWER },
	/* a stock hit charges without touching the page counters */
	{ "stock_hit_rate", COMPARE_HIGHER },
	{ "page_counter_charges_per_op", COMPARE_LOWER },
	{ "page_counter_uncharges_per_op", COMPARE_LOWER },
	{ "charge_failures", COMPARE_LOWER },
	{ "stats_atomics_per_op", COMPARE_LOWER },
	{ "stats_error_*", COMPARE_LOWER },
	/*
	 * charges_per_op: try_charge_memcg() calls, set by how the workload
	 * allocates and, for sockets, by how often sk_forward_alloc runs
	 * dry: more or fewer is not better by itself. flushes_per_s and
	 * flushes_skipped trade the flush's cost against stale statistics.
	 * published is the scenario's data, not a result.
	 */
	{ "charges_per_op", COMPARE_NONE },
	{ "flushes_*", COMPARE_NONE },
	{ "published", COMPARE_NONE },
};

/* Does @name match @pattern, with at most one '*' for any text? */
static bool glob_match(const char *pattern, const char *name)
{
	const char *star = strchr(pattern, '*');
	size_t plen, slen, nlen = strlen(name);

	if (!star)
		return !strcmp(pattern, name);
	plen = (size_t)(star - pattern);
	slen = strlen(star + 1);
	return nlen >= plen + slen && !strncmp(pattern, name, plen) &&
	       !strcmp(name + nlen - slen, star + 1);
}

/**
 * compare_direction() - which way a metric is better.
 * @metric: its name as a CSV column
 *
 * Return: COMPARE_HIGHER, COMPARE_LOWER, or COMPARE_NONE for a metric
 * whose change is only reported (and any name the table does not know).
 */
int compare_direction(const char *metric)
{
	unsigned int i;

	for (i = 0; i < sizeof(directions) / sizeof(directions[0]); i++)
		if (glob_match(directions[i].pattern, metric))
			return directions[i].dir;
	return COMPARE_NONE;
}

/* ------------------------------------------------------------------ */
/* Comparing.                                                          */

static bool selected(const struct compare_opts *o, const char *metric)
{
	unsigned int i;

	if (!o->metrics || !o->nr_metrics)
		return true;
	for (i = 0; i < o->nr_metrics; i++)
		if (!strcmp(o->metrics[i], metric))
			return true;
	return false;
}

static bool has_metric(const struct compare_file *f, const char *metric)
{
	unsigned int i;

	for (i = 0; i < f->nr_rows; i++)
		if (find_value(&f->rows[i], metric))
			return true;
	return false;
}

/* Add the metrics of @f not yet in @names[0..*nr), which @seen holds. */
static int collect_metrics(const struct compare_file *f, const char ***names,
			   unsigned int *nr, unsigned int *alloc,
			   struct name_set *seen)
{
	const char *m, **grown;
	unsigned int i, j;
	int added;

	for (i = 0; i < f->nr_rows; i++) {
		for (j = 0; j < f->rows[i].nr_values; j++) {
			m = f->rows[i].values[j].metric;
			added = name_set_add(seen, m);
			if (added < 0)
				return -1;
			if (!added)
				continue;
			grown = grow(*names, alloc, *nr + 1, sizeof(*grown));
			if (!grown)
				return -1;
			*names = grown;
			(*names)[(*nr)++] = m;
		}
	}
	return 0;
}

/**
 * compare_check_metric() - is @metric in one of @files (for --metric)?
 * @files: the files
 * @nr: how many, at least one
 * @metric: a metric name, as a CSV column
 * @err: filled when it is in none, with the nearest name they have
 *
 * Return: 0, or -1 with @err set.
 */
int compare_check_metric(const struct compare_file *const *files,
			 unsigned int nr, const char *metric,
			 struct sim_error *err)
{
	const char **names = NULL, *near;
	struct name_set seen = { NULL, 0, 0 };
	unsigned int i, nr_names = 0, alloc = 0;
	char list[SIM_ERROR_MSG_MAX / 2] = "";
	size_t len = 0;

	for (i = 0; i < nr; i++)
		if (has_metric(files[i], metric))
			return 0;
	for (i = 0; i < nr; i++) {
		if (collect_metrics(files[i], &names, &nr_names, &alloc,
				    &seen)) {
			name_set_free(&seen);
			free(names);
			oom(err, "");
			return -1;
		}
		if (len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%s%s",
						!i	   ? "" :
						i + 1 < nr ? ", " :
						nr > 2	   ? ", or " :
							     " or ",
						files[i]->name);
	}
	name_set_free(&seen);
	near = sim_nearest(metric, names, nr_names);
	sim_error_set(err, "", 0, 0, "--metric: no metric '%s' in %s%s%s%s",
		      metric, list, near ? "; did you mean '" : "",
		      near ? near : "", near ? "'?" : "");
	free(names);
	return -1;
}

/*
 * Change from @old to @new in percent: 0 when equal (NaN equals NaN
 * here: the same output twice), infinite from 0 or to or from an
 * infinity, NaN when only one is NaN.
 */
static double change_pct(double old, double new)
{
	if (old == new || (isnan(old) && isnan(new)))
		return 0;
	if (isnan(old) || isnan(new))
		return NAN;
	if (old == 0 || !isfinite(old) || !isfinite(new))
		return copysign(INFINITY, new - old);
	return (new - old) / fabs(old) * 100;
}

/*
 * Are @a and @b the same number but for rounding (COMPARE_NOISE
 * relative)? A sum taken in another order, or a value written with one
 * digit fewer, differs from the exact one in the last bits:
 * 14.239999999999998 and 14.24 are 1.2e-16 apart.
 */
static bool noise(double a, double b)
{
	return isfinite(a) && isfinite(b) &&
	       fabs(a - b) <= COMPARE_NOISE * fmax(fabs(a), fabs(b));
}

/* What one value of a file is against the baseline's. */
enum verdict {
	V_BLANK, /* the file has not the row */
	V_SAME,
	V_NOISE, /* equal but for rounding */
	V_WITHIN, /* changed, within the tolerance */
	V_WITHIN_CI, /* over the tolerance, within the confidence intervals */
	V_BETTER,
	V_WORSE,
	V_CHANGED, /* over the tolerance, the metric has no direction */
	V_ONLY_BASE, /* the baseline has it, this file not */
	V_ONLY_THIS, /* this file has it, the baseline not */
};

static const char *const verdict_word[] = {
	[V_NOISE] = "noise", [V_WITHIN_CI] = "within CI", [V_BETTER] = "better",
	[V_WORSE] = "worse", [V_CHANGED] = "changed",
};

static bool verdict_fails(enum verdict v)
{
	return v == V_WORSE || v == V_CHANGED || v == V_ONLY_BASE ||
	       v == V_ONLY_THIS;
}

/*
 * Judge @n against the baseline's @b: the same, noise, within the
 * tolerance, within the confidence intervals (when either has one: the
 * difference of two independent means is significant at about 95% when
 * it exceeds sqrt(ci_b^2 + ci_n^2)), else better or worse by the
 * metric's direction, or changed when it has none (or one value is NaN).
 */
static enum verdict judge(const struct compare_opts *o, const char *metric,
			  const struct cmp_value *b, const struct cmp_value *n,
			  double *pct)
{
	double cb = isnan(b->ci95) ? 0 : b->ci95;
	double cn = isnan(n->ci95) ? 0 : n->ci95;
	int dir;

	*pct = change_pct(b->value, n->value);
	if (*pct == 0)
		return V_SAME;
	if (noise(b->value, n->value))
		return V_NOISE;
	if (fabs(*pct) <= o->tolerance)
		return V_WITHIN;
	if ((!isnan(b->ci95) || !isnan(n->ci95)) &&
	    fabs(n->value - b->value) <= sqrt(cb * cb + cn * cn))
		return V_WITHIN_CI;
	dir = compare_direction(metric);
	if (dir == COMPARE_NONE || isnan(*pct))
		return V_CHANGED;
	return (n->value > b->value) == (dir == COMPARE_HIGHER) ? V_BETTER :
								  V_WORSE;
}

static void format_change(char *buf, size_t size, double pct)
{
	if (isnan(pct))
		snprintf(buf, size, "n/a");
	else if (isinf(pct))
		snprintf(buf, size, "%sinf%%", pct < 0 ? "-" : "+");
	else if (pct == 0)
		snprintf(buf, size, "0%%");
	else
		snprintf(buf, size, "%+.4g%%", pct);
}

/* One file's cell of a printed line. */
struct cell {
	enum verdict verdict;
	char value[NUM_MAX], change[NUM_MAX], mark[NUM_MAX];
};

/* One printed line: a row's metric (or "(variant)") in every file. */
struct out_row {
	const char *row, *metric;
	char base[NUM_MAX];
	struct cell *cells; /* one per file after the baseline */
};

struct table {
	struct out_row *rows;
	unsigned int nr, alloc, nr_cells;
	bool oom;
};

/* The column labels, and how the baseline and a file are named. */
struct labels {
	char name[COMPARE_MAX_FILES][16];
	char only_base[COMPARE_MAX_FILES][32], only_this[COMPARE_MAX_FILES][32];
};

static void make_labels(struct labels *l, unsigned int nr)
{
	unsigned int k;

	for (k = 0; k < nr; k++) {
		if (nr == 2)
			snprintf(l->name[k], sizeof(l->name[k]), "%s",
				 k ? "new" : "old");
		else if (!k)
			snprintf(l->name[k], sizeof(l->name[k]), "base");
		else
			snprintf(l->name[k], sizeof(l->name[k]), "new%u", k);
		if (nr == 2) {
			snprintf(l->only_base[k], sizeof(l->only_base[k]),
				 "only in OLD");
			snprintf(l->only_this[k], sizeof(l->only_this[k]),
				 "only in NEW");
		} else {
			snprintf(l->only_base[k], sizeof(l->only_base[k]),
				 "missing");
			snprintf(l->only_this[k], sizeof(l->only_this[k]),
				 "not in base");
		}
	}
}

static struct out_row *table_add(struct table *t, const char *row,
				 const char *metric)
{
	struct out_row *r;
	unsigned int k;

	r = grow(t->rows, &t->alloc, t->nr + 1, sizeof(*r));
	if (!r) {
		t->oom = true;
		return NULL;
	}
	t->rows = r;
	r = &t->rows[t->nr];
	memset(r, 0, sizeof(*r));
	r->cells = calloc(t->nr_cells, sizeof(*r->cells));
	if (!r->cells) {
		t->oom = true;
		return NULL;
	}
	t->nr++;
	r->row = row;
	r->metric = metric;
	for (k = 0; k < t->nr_cells; k++)
		r->cells[k].verdict = V_BLANK;
	return r;
}

static void table_free(struct table *t)
{
	unsigned int i;

	for (i = 0; i < t->nr; i++)
		free(t->rows[i].cells);
	free(t->rows);
}

/* Fill @c's change and mark from its verdict; count it in @counts. */
static void settle(struct cell *c, const struct labels *l, unsigned int k,
		   struct compare_counts *counts)
{
	const char *word = verdict_word[c->verdict];

	switch (c->verdict) {
	case V_ONLY_BASE:
		snprintf(c->change, sizeof(c->change), "%s", l->only_base[k]);
		counts->only_old++;
		break;
	case V_ONLY_THIS:
		snprintf(c->change, sizeof(c->change), "%s", l->only_this[k]);
		counts->only_new++;
		break;
	case V_BLANK:
		return;
	default:
		counts->values++;
		counts->changed += c->verdict > V_NOISE;
		counts->noise += c->verdict == V_NOISE;
		counts->over += c->verdict >= V_BETTER;
		counts->better += c->verdict == V_BETTER;
		counts->worse += c->verdict == V_WORSE;
		counts->undirected += c->verdict == V_CHANGED;
		counts->within_ci += c->verdict == V_WITHIN_CI;
		break;
	}
	snprintf(c->mark, sizeof(c->mark), "%s%s%s", word ? word : "",
		 word && verdict_fails(c->verdict) ? " " : "",
		 verdict_fails(c->verdict) ? "*" : "");
}

/* Is any cell of @r worth a line (not the same, not noise, not blank)? */
static bool line_shows(const struct out_row *r, unsigned int nr_cells)
{
	unsigned int k;

	for (k = 0; k < nr_cells; k++)
		if (r->cells[k].verdict > V_NOISE)
			return true;
	return false;
}

/*
 * Write the line's numbers: exactly (sim_format_double()) when every one
 * is short, otherwise with six significant digits, or as many more as
 * it takes to tell each changed value from the baseline's: "15884.5 ->
 * 20365.1", but "15884.515 -> 15884.516" where six digits would print two
 * equal numbers for a change. So the table fits in 80 columns.
 */
static void format_line(struct out_row *r, const struct cmp_value *base,
			const struct cmp_value *const *vals, unsigned int nr)
{
	char a[NUM_MAX], b[NUM_MAX];
	bool all_short = true, clash;
	unsigned int k;
	int prec;

	if (base) {
		sim_format_double(a, sizeof(a), base->value);
		all_short = strlen(a) <= NUM_SHORT;
	}
	for (k = 0; k < nr && all_short; k++) {
		if (!vals[k])
			continue;
		sim_format_double(a, sizeof(a), vals[k]->value);
		all_short = strlen(a) <= NUM_SHORT;
	}
	for (prec = 6; !all_short && prec < 17; prec++) {
		clash = false;
		for (k = 0; k < nr && base && !clash; k++) {
			if (!vals[k] || r->cells[k].verdict <= V_NOISE)
				continue;
			snprintf(a, sizeof(a), "%.*g", prec, base->value);
			snprintf(b, sizeof(b), "%.*g", prec, vals[k]->value);
			clash = !strcmp(a, b);
		}
		if (!clash)
			break;
	}
	if (base) {
		if (all_short || prec == 17)
			sim_format_double(r->base, sizeof(r->base),
					  base->value);
		else
			snprintf(r->base, sizeof(r->base), "%.*g", prec,
				 base->value);
	}
	for (k = 0; k < nr; k++) {
		if (!vals[k])
			continue;
		if (all_short || prec == 17)
			sim_format_double(r->cells[k].value,
					  sizeof(r->cells[k].value),
					  vals[k]->value);
		else
			snprintf(r->cells[k].value, sizeof(r->cells[k].value),
				 "%.*g", prec, vals[k]->value);
	}
}

/* Everything one comparison needs, to keep the argument lists short. */
struct cmp {
	const struct compare_file *const *files;
	unsigned int nr; /* files, the baseline first */
	const struct compare_opts *opts;
	struct labels labels;
	struct compare_counts *counts; /* per file after the baseline */
	struct table table;
	/* per file after the baseline: its row of the line, or NULL */
	const struct cmp_row **rows;
	const struct cmp_value **vals;
};

/*
 * The line of @metric of the row named @name, in every file: the
 * baseline's value against each other file's.
 */
static void compare_metric(struct cmp *c, const char *name,
			   const struct cmp_row *base, const char *metric)
{
	const struct cmp_value *b = base ? find_value(base, metric) : NULL;
	unsigned int k, nr = c->nr - 1;
	struct out_row r = { 0 }, *line;
	struct cell cells[COMPARE_MAX_FILES];
	double pct;

	memset(cells, 0, sizeof(cells));
	r.cells = cells;
	r.row = name;
	r.metric = metric;
	snprintf(r.base, sizeof(r.base), "-");
	for (k = 0; k < nr; k++) {
		struct cell *cell = &cells[k];

		c->vals[k] = c->rows[k] ? find_value(c->rows[k], metric) : NULL;
		cell->verdict = V_BLANK;
		if (!c->rows[k] || (!b && !c->vals[k]))
			continue;
		snprintf(cell->value, sizeof(cell->value), "-");
		if (b && c->vals[k]) {
			cell->verdict =
				judge(c->opts, metric, b, c->vals[k], &pct);
			format_change(cell->change, sizeof(cell->change), pct);
		} else if (b) {
			cell->verdict = V_ONLY_BASE;
		} else if (c->vals[k]) {
			cell->verdict = V_ONLY_THIS;
		}
		settle(cell, &c->labels, k + 1, &c->counts[k]);
	}
	if (!c->opts->all && !line_shows(&r, nr))
		return;
	format_line(&r, b, c->vals, nr);
	line = table_add(&c->table, name, metric);
	if (!line)
		return;
	memcpy(line->base, r.base, sizeof(line->base));
	memcpy(line->cells, cells, nr * sizeof(*cells));
}

/* Has a metric of this name been seen in an earlier row of the line? */
static bool metric_seen(const struct cmp *c, const struct cmp_row *base,
			unsigned int upto, const char *metric)
{
	unsigned int j;

	if (base && find_value(base, metric))
		return true;
	for (j = 0; j < upto; j++)
		if (c->rows[j] && find_value(c->rows[j], metric))
			return true;
	return false;
}

/*
 * The row named @name (the baseline's @base, or NULL when only later
 * files have it): a "(variant)" line when a file lacks it, then, when
 * the baseline has it, each metric of any file in order of appearance.
 */
static void compare_row(struct cmp *c, const char *name,
			const struct cmp_row *base)
{
	unsigned int i, k, nr = c->nr - 1;
	const struct cmp_row *row;
	struct out_row *line = NULL;
	bool missing = false;

	for (k = 0; k < nr; k++) {
		c->rows[k] = find_row(c->files[k + 1], name);
		missing |= !base || !c->rows[k];
	}
	if (missing) {
		line = table_add(&c->table, name, "(variant)");
		if (!line)
			return;
		snprintf(line->base, sizeof(line->base), "-");
		for (k = 0; k < nr; k++) {
			struct cell *cell = &line->cells[k];

			if (!base == !c->rows[k])
				continue;
			cell->verdict = base ? V_ONLY_BASE : V_ONLY_THIS;
			snprintf(cell->value, sizeof(cell->value), "-");
			settle(cell, &c->labels, k + 1, &c->counts[k]);
		}
	}
	if (!base)
		return;
	for (i = 0; i < base->nr_values; i++)
		if (selected(c->opts, base->values[i].metric))
			compare_metric(c, name, base, base->values[i].metric);
	for (k = 0; k < nr; k++) {
		row = c->rows[k];
		for (i = 0; row && i < row->nr_values; i++)
			if (selected(c->opts, row->values[i].metric) &&
			    !metric_seen(c, base, k, row->values[i].metric))
				compare_metric(c, name, base,
					       row->values[i].metric);
	}
}

static size_t max_len(size_t w, const char *s)
{
	size_t len = strlen(s);

	return len > w ? len : w;
}

/* Print the text of @line less its trailing blanks, and a newline. */
static void put_line(FILE *out, char *line, size_t len)
{
	while (len && line[len - 1] == ' ')
		len--;
	fwrite(line, 1, len, out);
	fputc('\n', out);
}

/*
 * The table: a line per row and metric, the baseline's value, then for
 * each other file its value, the change and the verdict. The row names
 * take a column while everything fits in TABLE_WIDTH; else each row name
 * is on a line of its own above its metrics.
 */
static void print_table(FILE *out, struct cmp *c, bool sweep)
{
	const char *head = sweep ? "point/variant" : "variant";
	const struct table *t = &c->table;
	unsigned int i, k, nr = c->nr - 1;
	size_t wr = strlen(head), wm = 6, wb, total;
	size_t wv[COMPARE_MAX_FILES], wc[COMPARE_MAX_FILES],
		wd[COMPARE_MAX_FILES];
	const struct out_row *r;
	char *line = NULL;
	size_t len = 0;
	FILE *s;
	bool flat;

	wb = strlen(c->labels.name[0]);
	for (k = 0; k < nr; k++) {
		wv[k] = strlen(c->labels.name[k + 1]);
		wc[k] = 6;
		wd[k] = 0;
	}
	for (i = 0; i < t->nr; i++) {
		r = &t->rows[i];
		wr = max_len(wr, r->row);
		wm = max_len(wm, r->metric);
		wb = max_len(wb, r->base);
		for (k = 0; k < nr; k++) {
			wv[k] = max_len(wv[k], r->cells[k].value);
			wc[k] = max_len(wc[k], r->cells[k].change);
			wd[k] = max_len(wd[k], r->cells[k].mark);
		}
	}
	total = wr + 2 + wm + 2 + wb;
	for (k = 0; k < nr; k++)
		total += 2 + wv[k] + 2 + wc[k] + (wd[k] ? 2 + wd[k] : 0);
	flat = total <= TABLE_WIDTH;
	for (i = 0; i <= t->nr; i++) {
		r = i ? &t->rows[i - 1] : NULL;
		s = open_memstream(&line, &len);
		if (!s)
			break;
		if (!r && flat)
			fprintf(s, "%-*s  ", (int)wr, head);
		else if (!r)
			fprintf(s, "%s\n  ", head);
		else if (flat)
			fprintf(s, "%-*s  ", (int)wr, r->row);
		else if (i == 1 || strcmp(r->row, t->rows[i - 2].row))
			fprintf(s, "%s\n  ", r->row);
		else
			fprintf(s, "  ");
		fprintf(s, "%-*s  %*s", (int)wm, r ? r->metric : "metric",
			(int)wb, r ? r->base : c->labels.name[0]);
		for (k = 0; k < nr; k++) {
			fprintf(s, "  %*s  %*s", (int)wv[k],
				r ? r->cells[k].value : c->labels.name[k + 1],
				(int)wc[k], r ? r->cells[k].change : "change");
			if (wd[k])
				fprintf(s, "  %-*s", (int)wd[k],
					r ? r->cells[k].mark : "");
		}
		if (fclose(s))
			break;
		put_line(out, line, len);
		free(line);
		line = NULL;
	}
	free(line);
}

/*
 * Sweeps: report the points set differently in the baseline and each
 * file (once each), and name the settings of every point in the table.
 */
static int print_points(FILE *out, struct cmp *c)
{
	const struct table *t = &c->table;
	unsigned int i, j, k, nr_shown = 0;
	const struct cmp_row *o, *n;
	const char **shown, *said;

	for (k = 1; k < c->nr; k++) {
		said = NULL;
		for (i = 0; i < c->files[0]->nr_rows; i++) {
			o = &c->files[0]->rows[i];
			n = find_row(c->files[k], o->name);
			if (!n || !strcmp(o->set_values ? o->set_values : "",
					  n->set_values ? n->set_values : ""))
				continue;
			/* A point's rows are consecutive, as merged. */
			if (said && !strcmp(said, o->point))
				continue;
			said = o->point;
			if (c->nr == 2)
				fprintf(out,
					"point %s: OLD sets %s, NEW sets %s  *\n",
					o->point, o->set ? o->set : "nothing",
					n->set ? n->set : "nothing");
			else
				fprintf(out,
					"point %s: base sets %s, new%u sets %s  *\n",
					o->point, o->set ? o->set : "nothing",
					k, n->set ? n->set : "nothing");
			c->counts[k - 1].set_differs++;
		}
	}
	/* The settings of each point in the table, once, in table order. */
	shown = calloc(t->nr ? t->nr : 1, sizeof(*shown));
	if (!shown)
		return -1;
	for (i = 0; i < t->nr; i++) {
		if (i && !strcmp(t->rows[i].row, t->rows[i - 1].row))
			continue;
		o = NULL;
		for (k = 0; k < c->nr && !o; k++)
			o = find_row(c->files[k], t->rows[i].row);
		if (!o || !o->point)
			continue;
		for (j = 0; j < nr_shown && strcmp(shown[j], o->point); j++)
			;
		if (j < nr_shown)
			continue;
		shown[nr_shown++] = o->point;
		fprintf(out, "point %s: %s\n", o->point,
			o->set ? o->set : "(no settings)");
	}
	free(shown);
	return 0;
}

/* The summary line of one file against the baseline. */
static void print_summary(FILE *out, const struct cmp *c, unsigned int k)
{
	const struct compare_counts *n = &c->counts[k - 1];
	char tol[NUM_MAX];

	sim_format_double(tol, sizeof(tol), c->opts->tolerance);
	fprintf(out, "compare");
	if (c->nr > 2)
		fprintf(out, " %s", c->labels.name[k]);
	fprintf(out, ": %u of %u value%s changed, %u over %s%%", n->changed,
		n->values, n->values == 1 ? "" : "s", n->over, tol);
	if (n->over)
		fprintf(out, " (%u better, %u worse, %u with no direction)",
			n->better, n->worse, n->undirected);
	if (n->within_ci)
		fprintf(out, ", %u within the 95%% CIs", n->within_ci);
	if (n->noise)
		fprintf(out, ", %u equal but for rounding", n->noise);
	if (n->only_old)
		fprintf(out, ", %u only in %s", n->only_old,
			c->nr == 2 ? "OLD" : "base");
	if (n->only_new)
		fprintf(out, ", %u only in %s", n->only_new,
			c->nr == 2 ? "NEW" : c->labels.name[k]);
	if (n->set_differs)
		fprintf(out, ", %u point%s set differently", n->set_differs,
			n->set_differs == 1 ? "" : "s");
	fputc('\n', out);
}

/* Is the row named @name in a file before @k (the baseline included)? */
static bool row_seen(const struct cmp *c, unsigned int k, const char *name)
{
	unsigned int j;

	for (j = 0; j < k; j++)
		if (find_row(c->files[j], name))
			return true;
	return false;
}

/**
 * compare_print() - compare files with the first and print what changed.
 * @out: where the table and the summaries go
 * @files: the baseline (e.g. a golden file), then the files to check
 * @nr: how many, 2 to COMPARE_MAX_FILES
 * @opts: tolerance, metrics, and whether to print unchanged values
 * @counts: filled with what was found, summed over the files; may be NULL
 *
 * Prints a line per row and metric where a file differs from the
 * baseline (every line with @opts->all): the baseline's value, then per
 * file its value, the change and the verdict: "better" or "worse" by
 * the metric's direction (compare_direction()) when the change is over
 * the tolerance and, where the files carry confidence intervals, outside
 * them; "changed" for a metric without a direction; "within CI" when
 * over the tolerance but not outside the intervals; nothing within the
 * tolerance. Values equal to COMPARE_NOISE relative are equal ("noise"
 * with @opts->all). A failure is marked "*": worse, changed, or a row or
 * metric in one file only. Then for sweeps the settings of the points
 * shown, and one summary line per file:
 *
 *	compare: 3 of 120 values changed, 2 over 0.5% (1 better, 1 worse,
 *	0 with no direction)
 *
 * (one line) followed by what else there is: ", N within the 95%
 * CIs", ", N equal but for rounding", ", N only in OLD", ", N only in NEW",
 * ", N points set differently". Identical files print that line only.
 * More than two files are labelled base, new1, new2... in a legend above.
 *
 * Return: COMPARE_SAME when nothing fails, COMPARE_DIFFERENT otherwise;
 * -1 when out of memory (@out's own errors are the caller's to check).
 */
int compare_print(FILE *out, const struct compare_file *const *files,
		  unsigned int nr, const struct compare_opts *opts,
		  struct compare_counts *counts)
{
	struct compare_counts per[COMPARE_MAX_FILES], sum = { 0 };
	const struct cmp_value *vals[COMPARE_MAX_FILES];
	const struct cmp_row *rows[COMPARE_MAX_FILES];
	struct cmp c = {
		.files = files,
		.nr = nr,
		.opts = opts,
		.counts = per,
		.rows = rows,
		.vals = vals,
	};
	bool sweep = false, fails = false;
	unsigned int i, k;

	if (nr < 2 || nr > COMPARE_MAX_FILES)
		return -1;
	memset(per, 0, sizeof(per));
	make_labels(&c.labels, nr);
	c.table.nr_cells = nr - 1;
	for (i = 0; i < files[0]->nr_rows; i++)
		compare_row(&c, files[0]->rows[i].name, &files[0]->rows[i]);
	for (k = 1; k < nr; k++)
		for (i = 0; i < files[k]->nr_rows; i++)
			if (!row_seen(&c, k, files[k]->rows[i].name))
				compare_row(&c, files[k]->rows[i].name, NULL);
	for (k = 0; k < nr; k++)
		sweep |= files[k]->sweep;
	if (!c.table.oom && nr > 2)
		for (k = 0; k < nr; k++)
			fprintf(out, "%s: %s\n", c.labels.name[k],
				files[k]->name);
	if (!c.table.oom && c.table.nr)
		print_table(out, &c, sweep);
	if (!c.table.oom && sweep && print_points(out, &c))
		c.table.oom = true;
	table_free(&c.table);
	if (c.table.oom)
		return -1;
	for (k = 1; k < nr; k++) {
		const struct compare_counts *n = &per[k - 1];

		print_summary(out, &c, k);
		fails |= n->worse || n->undirected || n->only_old ||
			 n->only_new || n->set_differs;
		sum.values += n->values;
		sum.changed += n->changed;
		sum.noise += n->noise;
		sum.over += n->over;
		sum.better += n->better;
		sum.worse += n->worse;
		sum.undirected += n->undirected;
		sum.within_ci += n->within_ci;
		sum.only_old += n->only_old;
		sum.only_new += n->only_new;
		sum.set_differs += n->set_differs;
	}
	if (counts)
		*counts = sum;
	return fails ? COMPARE_DIFFERENT : COMPARE_SAME;
}
