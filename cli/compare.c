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
 *	  |     |            |       |          skipped   |      skipped: its
 *	  |     the point's  |       metric (the primary) metric stem is a
 *	  |     setting      row name                            column
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
#include "sim/file.h"
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
	row->nr_values++;
	if (!index_value(row)) {
		oom(err, f->name);
		return -1;
	}
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
	CSV_SKIP, /* unit, change_pct, *_ci95 */
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
	/* Not blocking on a FIFO: a result is a regular file. */
	in = is_stdin ? stdin : sim_open_regular(path);
	if (!in) {
		sim_error_set(err, name, 0, 0, "cannot open: %s",
			      sim_open_error(errno));
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
 * compare_check_metric() - is @metric in @old or @new (for --metric)?
 * @old: one file
 * @new: the other
 * @metric: a metric name, as a CSV column
 * @err: filled when it is in neither, with the nearest name they have
 *
 * Return: 0, or -1 with @err set.
 */
int compare_check_metric(const struct compare_file *old,
			 const struct compare_file *new, const char *metric,
			 struct sim_error *err)
{
	const char **names = NULL, *near;
	struct name_set seen = { NULL, 0, 0 };
	unsigned int nr = 0, alloc = 0;

	if (has_metric(old, metric) || has_metric(new, metric))
		return 0;
	if (collect_metrics(old, &names, &nr, &alloc, &seen) ||
	    collect_metrics(new, &names, &nr, &alloc, &seen)) {
		name_set_free(&seen);
		free(names);
		oom(err, "");
		return -1;
	}
	name_set_free(&seen);
	near = sim_nearest(metric, names, nr);
	sim_error_set(err, "", 0, 0,
		      "--metric: no metric '%s' in %s or %s%s%s%s", metric,
		      old->name, new->name, near ? "; did you mean '" : "",
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

/*
 * Write @old and @new (the same value for a value in one file only) for
 * people: exactly (sim_format_double()) when that is short, otherwise
 * with six significant digits, or as many more as it takes to tell the
 * two apart. "15884.515555555558 -> 15884.515555555559" is then
 * "15884.515555555558 -> 15884.515555555559", but "15884.515555555558 ->
 * 20365.08444444445" is "15884.5 -> 20365.1", and the table fits in 80
 * columns.
 */
static void format_pair(char *bo, char *bn, size_t size, double old, double new)
{
	int prec;

	sim_format_double(bo, size, old);
	sim_format_double(bn, size, new);
	if (strlen(bo) <= NUM_SHORT && strlen(bn) <= NUM_SHORT)
		return;
	for (prec = 6; prec < 17; prec++) {
		snprintf(bo, size, "%.*g", prec, old);
		snprintf(bn, size, "%.*g", prec, new);
		if (old == new || strcmp(bo, bn))
			return;
	}
	sim_format_double(bo, size, old);
	sim_format_double(bn, size, new);
}

/* One printed row of the table. */
struct out_row {
	const char *row, *metric;
	char old[NUM_MAX], new[NUM_MAX], change[NUM_MAX];
	bool mark;
};

struct table {
	struct out_row *rows;
	unsigned int nr, alloc;
	bool oom;
};

static struct out_row *table_add(struct table *t, const char *row,
				 const char *metric)
{
	struct out_row *r;

	r = grow(t->rows, &t->alloc, t->nr + 1, sizeof(*r));
	if (!r) {
		t->oom = true;
		return NULL;
	}
	t->rows = r;
	r = &t->rows[t->nr++];
	memset(r, 0, sizeof(*r));
	r->row = row;
	r->metric = metric;
	snprintf(r->old, sizeof(r->old), "-");
	snprintf(r->new, sizeof(r->new), "-");
	return r;
}

/* A row in one file only: a line for it, metric "(variant)". */
static void only_row(struct table *t, const struct cmp_row *row,
		     const char *which)
{
	struct out_row *r = table_add(t, row->name, "(variant)");

	if (!r)
		return;
	snprintf(r->change, sizeof(r->change), "only in %s", which);
	r->mark = true;
}

/* Metric @o of OLD against @n of NEW, both present. */
static void compare_value(struct table *t, const struct compare_opts *opts,
			  const char *row, const struct cmp_value *o,
			  const struct cmp_value *n, struct compare_counts *c)
{
	double pct = change_pct(o->value, n->value);
	bool changed = pct != 0;
	bool over = changed &&
		    (opts->tolerance == 0 || !(fabs(pct) <= opts->tolerance));
	struct out_row *r;

	c->values++;
	c->changed += changed;
	c->over += over;
	if (!changed && !opts->all)
		return;
	r = table_add(t, row, o->metric);
	if (!r)
		return;
	format_pair(r->old, r->new, sizeof(r->old), o->value, n->value);
	format_change(r->change, sizeof(r->change), pct);
	r->mark = over;
}

/* Metric @v of a row that both files have, in only one (@in_old or not). */
static void only_value(struct table *t, const char *row,
		       const struct cmp_value *v, bool in_old,
		       struct compare_counts *c)
{
	struct out_row *r = table_add(t, row, v->metric);
	char unused[NUM_MAX];

	if (in_old)
		c->only_old++;
	else
		c->only_new++;
	if (!r)
		return;
	format_pair(in_old ? r->old : r->new, unused, sizeof(unused), v->value,
		    v->value);
	snprintf(r->change, sizeof(r->change), "only in %s",
		 in_old ? "OLD" : "NEW");
	r->mark = true;
}

static void compare_rows(struct table *t, const struct compare_opts *opts,
			 const struct cmp_row *o, const struct cmp_row *n,
			 struct compare_counts *c)
{
	const struct cmp_value *v, *other;
	unsigned int i;

	for (i = 0; i < o->nr_values; i++) {
		v = &o->values[i];
		if (!selected(opts, v->metric))
			continue;
		other = find_value(n, v->metric);
		if (other)
			compare_value(t, opts, o->name, v, other, c);
		else
			only_value(t, o->name, v, true, c);
	}
	for (i = 0; i < n->nr_values; i++) {
		v = &n->values[i];
		if (selected(opts, v->metric) && !find_value(o, v->metric))
			only_value(t, n->name, v, false, c);
	}
}

static size_t max_len(size_t w, const char *s)
{
	size_t len = strlen(s);

	return len > w ? len : w;
}

static void print_table(FILE *out, const struct table *t, bool sweep)
{
	const char *head = sweep ? "point/variant" : "variant";
	size_t wr = strlen(head), wm = 6, wo = 3, wn = 3, wc = 6;
	const struct out_row *r;
	bool flat;
	unsigned int i;

	for (i = 0; i < t->nr; i++) {
		r = &t->rows[i];
		wr = max_len(wr, r->row);
		wm = max_len(wm, r->metric);
		wo = max_len(wo, r->old);
		wn = max_len(wn, r->new);
		wc = max_len(wc, r->change);
	}
	/* Five columns and the mark; else each row name on its own line. */
	flat = wr + 2 + wm + 2 + wo + 2 + wn + 2 + wc + 2 <= TABLE_WIDTH;
	if (flat)
		fprintf(out, "%-*s  ", (int)wr, head);
	else
		fprintf(out, "%s\n  ", head);
	fprintf(out, "%-*s  %*s  %*s  %*s\n", (int)wm, "metric", (int)wo, "old",
		(int)wn, "new", (int)wc, "change");
	for (i = 0; i < t->nr; i++) {
		r = &t->rows[i];
		if (flat)
			fprintf(out, "%-*s  ", (int)wr, r->row);
		else if (!i || strcmp(r->row, t->rows[i - 1].row))
			fprintf(out, "%s\n  ", r->row);
		else
			fprintf(out, "  ");
		fprintf(out, "%-*s  %*s  %*s  %*s%s\n", (int)wm, r->metric,
			(int)wo, r->old, (int)wn, r->new, (int)wc, r->change,
			r->mark ? "  *" : "");
	}
}

/*
 * Sweeps: name the settings of every point in the table, and report the
 * points set differently in the two files (once each).
 */
static int print_points(FILE *out, const struct table *t,
			const struct compare_file *old,
			const struct compare_file *new,
			struct compare_counts *c)
{
	unsigned int i, j, nr_shown = 0;
	const struct cmp_row *o, *n;
	const char **shown, *said = NULL;

	for (i = 0; i < old->nr_rows; i++) {
		o = &old->rows[i];
		n = find_row(new, o->name);
		if (!n || !strcmp(o->set_values ? o->set_values : "",
				  n->set_values ? n->set_values : ""))
			continue;
		/* A point's rows are consecutive, as the merge writes them. */
		if (said && !strcmp(said, o->point))
			continue;
		said = o->point;
		fprintf(out, "point %s: OLD sets %s, NEW sets %s  *\n",
			o->point, o->set ? o->set : "nothing",
			n->set ? n->set : "nothing");
		c->set_differs++;
	}
	/* The settings of each point in the table, once, in table order. */
	shown = calloc(t->nr ? t->nr : 1, sizeof(*shown));
	if (!shown)
		return -1;
	for (i = 0; i < t->nr; i++) {
		if (i && !strcmp(t->rows[i].row, t->rows[i - 1].row))
			continue;
		o = find_row(old, t->rows[i].row);
		if (!o)
			o = find_row(new, t->rows[i].row);
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

/**
 * compare_print() - compare @old with @new and print what changed.
 * @out: where the table and the summary go
 * @old: the reference, e.g. a golden file
 * @new: the file to check
 * @opts: tolerance, metrics, and whether to print unchanged values
 * @counts: filled with what was found; may be NULL
 *
 * Prints, for each value that changed (every value with @opts->all), its
 * row, metric, old and new value and change, marked "*" when it fails
 * (over the tolerance, or in one file only), then for sweeps the settings
 * of the points shown, then one line:
 *
 *	compare: 3 of 120 values changed, 1 over 0.5%
 *
 * followed by ", N only in OLD", ", N only in NEW" and ", N points set
 * differently" when there are any. Identical files print that line only.
 *
 * Return: COMPARE_SAME when nothing fails, COMPARE_DIFFERENT otherwise;
 * -1 when out of memory (@out's own errors are the caller's to check).
 */
int compare_print(FILE *out, const struct compare_file *old,
		  const struct compare_file *new,
		  const struct compare_opts *opts,
		  struct compare_counts *counts)
{
	struct compare_counts c = { 0 };
	struct table t = { 0 };
	const struct cmp_row *o, *n;
	char tol[NUM_MAX];
	unsigned int i;

	for (i = 0; i < old->nr_rows; i++) {
		o = &old->rows[i];
		n = find_row(new, o->name);
		if (n) {
			compare_rows(&t, opts, o, n, &c);
		} else {
			only_row(&t, o, "OLD");
			c.only_old++;
		}
	}
	for (i = 0; i < new->nr_rows; i++) {
		n = &new->rows[i];
		if (!find_row(old, n->name)) {
			only_row(&t, n, "NEW");
			c.only_new++;
		}
	}
	if (t.oom) {
		free(t.rows);
		return -1;
	}
	if (t.nr)
		print_table(out, &t, old->sweep || new->sweep);
	if ((old->sweep || new->sweep) && print_points(out, &t, old, new, &c))
		t.oom = true;
	free(t.rows);
	if (t.oom)
		return -1;

	sim_format_double(tol, sizeof(tol), opts->tolerance);
	fprintf(out, "compare: %u of %u value%s changed, %u over %s%%",
		c.changed, c.values, c.values == 1 ? "" : "s", c.over, tol);
	if (c.only_old)
		fprintf(out, ", %u only in OLD", c.only_old);
	if (c.only_new)
		fprintf(out, ", %u only in NEW", c.only_new);
	if (c.set_differs)
		fprintf(out, ", %u point%s set differently", c.set_differs,
			c.set_differs == 1 ? "" : "s");
	fputc('\n', out);
	if (counts)
		*counts = c;
	return c.over || c.only_old || c.only_new || c.set_differs ?
		       COMPARE_DIFFERENT :
		       COMPARE_SAME;
}
