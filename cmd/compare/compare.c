// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/compare/compare.c - read result files and compare their metrics.
 *
 * Theory of operation (the formats are drawn in cmd/compare/compare.h): a file is
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

#include "cmd/compare/compare.h"
#include "cmd/compare/internal.h"
#include "sim/csv.h"
#include "sim/file.h"
#include "sim/report.h"
#include "sim/scenario.h"

#define COMPARE_MAX_BYTES (16u << 20) /* as a scenario */
#define VALUE_INDEX_MIN 32 /* a row's values searched linearly up to this */

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
	for (i = 0; i < f->nr_prov; i++)
		free(f->prov[i]);
	free(f->prov);
	free(f->name);
	free(f->scenario);
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
 * Read a number as sim_format_double() or the YAML writer writes it for
 * a finite value: decimal or exponent notation. memcgsim writes no nan or
 * inf in a result (issue 34, item 3: a variant whose metric is not a
 * number is refused when it runs), so those spellings are refused with
 * their place, as every other non-number is.
 */
static bool parse_number(const char *s, double *out)
{
	const char *p;
	char *end;

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
	char what[64];
	unsigned int i;

	for (i = 0; i < nr; i++) {
		bad = sim_control_char(what, sizeof(what),
				       (const unsigned char *)fields[i].text,
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

	csv_reader_init(&c, f->name, buf, len,
			CSV_NEWLINE_AT_END | CSV_COMMENTS);
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
/* Provenance.                                                         */

const char *compare__prov(const struct compare_file *f, const char *key)
{
	unsigned int i;

	for (i = 0; i < f->nr_prov; i += 2)
		if (!strcmp(f->prov[i], key))
			return f->prov[i + 1];
	return NULL;
}

/*
 * bytes_dup() - the @len bytes at @s as a string. Not strndup(): @s is
 * a window of the file's buffer, with no NUL after it, and strndup()
 * may look one byte past @len for one (ASan's strict string checks
 * do).
 */
static char *bytes_dup(const char *s, size_t len)
{
	char *d = malloc(len + 1);

	if (d) {
		memcpy(d, s, len);
		d[len] = '\0';
	}
	return d;
}

/*
 * Record @key: @value (@len bytes) in @f's provenance; a second "set"
 * is joined to the first with ", ". 0, or -1 without memory.
 */
static int prov_add(struct compare_file *f, const char *key, const char *value,
		    size_t len)
{
	unsigned int i;
	char **grown, *joined;
	size_t old;

	for (i = 0; i < f->nr_prov; i += 2) {
		if (strcmp(f->prov[i], key))
			continue;
		old = strlen(f->prov[i + 1]);
		joined = realloc(f->prov[i + 1], old + len + 3);
		if (!joined)
			return -1;
		memcpy(joined + old, ", ", 2);
		memcpy(joined + old + 2, value, len);
		joined[old + len + 2] = '\0';
		f->prov[i + 1] = joined;
		return 0;
	}
	grown = grow(f->prov, &f->alloc_prov, f->nr_prov + 2, sizeof(*grown));
	if (!grown)
		return -1;
	f->prov = grown;
	f->prov[f->nr_prov] = strdup(key);
	f->prov[f->nr_prov + 1] = bytes_dup(value, len);
	if (!f->prov[f->nr_prov] || !f->prov[f->nr_prov + 1]) {
		free(f->prov[f->nr_prov]);
		free(f->prov[f->nr_prov + 1]);
		return -1;
	}
	f->nr_prov += 2;
	return 0;
}

/*
 * The "# KEY: VALUE" lines at the top of a run's CSV (sim/report.h);
 * "# scenario" names the scenario, as a YAML result's scenario does.
 * Other comments are skipped. Return the bytes they take, or -1 without
 * memory.
 */
static long csv_comments(struct compare_file *f, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *nl, *colon;
	size_t klen;
	char key[64];

	while (p < end && *p == '#') {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		colon = memchr(p, ':', (size_t)(nl - p));
		if (p + 2 < nl && p[1] == ' ' && colon && colon + 1 < nl &&
		    colon[1] == ' ') {
			klen = (size_t)(colon - p - 2);
			if (klen && klen < sizeof(key)) {
				memcpy(key, p + 2, klen);
				key[klen] = '\0';
				if (!strcmp(key, "scenario") && !f->scenario) {
					f->scenario = bytes_dup(
						colon + 2,
						(size_t)(nl - colon - 2));
					if (!f->scenario)
						return -1;
				} else if (prov_add(f, key, colon + 2,
						    (size_t)(nl - colon - 2))) {
					return -1;
				}
			}
		}
		p = nl < end ? nl + 1 : end;
	}
	return (long)(p - buf);
}

/* A YAML result's seed, replications and provenance map. */
static int yaml_provenance(struct compare_file *f,
			   const struct scenario_node *root)
{
	static const char *const top[] = { "seed", "replications" };
	const struct scenario_node *n, *map, *item;
	const char *v;
	size_t i, j;

	for (i = 0; i < 2; i++) {
		n = scenario_get(root, top[i]);
		v = n ? scenario_scalar(n) : NULL;
		if (v && prov_add(f, top[i], v, strlen(v)))
			return -1;
	}
	map = scenario_get(root, "provenance");
	if (!map || scenario_kind(map) != SCENARIO_MAP)
		return 0;
	for (i = 0; i < scenario_len(map); i++) {
		n = scenario_item(map, i);
		if (scenario_kind(n) == SCENARIO_SCALAR) {
			v = scenario_scalar(n);
			if (prov_add(f, scenario_key(map, i), v, strlen(v)))
				return -1;
			continue;
		}
		if (scenario_kind(n) != SCENARIO_SEQ)
			continue;
		if (!scenario_len(n) &&
		    prov_add(f, scenario_key(map, i), "", 0))
			return -1;
		for (j = 0; j < scenario_len(n); j++) {
			item = scenario_item(n, j);
			v = scenario_scalar(item);
			if (v &&
			    prov_add(f, scenario_key(map, i), v, strlen(v)))
				return -1;
		}
	}
	return 0;
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
	/* The scenario's name, for a note when two files' differ. */
	list = scenario_get(root, "scenario");
	if (list && scenario_scalar(list)) {
		f->scenario = strdup(scenario_scalar(list));
		if (!f->scenario) {
			oom(err, f->name);
			scenario_free(root);
			return -1;
		}
	}
	if (yaml_provenance(f, root)) {
		oom(err, f->name);
		scenario_free(root);
		return -1;
	}
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
	long skip;
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
	skip = csv_comments(f, text, len);
	if (skip < 0) {
		oom(err, name);
		goto out_free;
	}
	if (looks_like_csv(text + skip, len - (size_t)skip)) {
		ret = read_csv(f, text, len, err);
	} else {
		/* a YAML file's comments are not provenance */
		for (i = 0; i < f->nr_prov; i++)
			free(f->prov[i]);
		f->nr_prov = 0;
		free(f->scenario);
		f->scenario = NULL;
		ret = read_yaml(f, text, len, err);
	}
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
/* For compare_print.c (cmd/compare/internal.h).                       */

void *compare__grow(void *arr, unsigned int *alloc, unsigned int nr,
		    size_t size)
{
	return grow(arr, alloc, nr, size);
}

void compare__oom(struct sim_error *err, const char *file)
{
	oom(err, file);
}

struct cmp_row *compare__find_row(const struct compare_file *f,
				  const char *name)
{
	return find_row(f, name);
}

const struct cmp_value *compare__find_value(const struct cmp_row *row,
					    const char *metric)
{
	return find_value(row, metric);
}

int compare__name_set_add(struct name_set *set, const char *name)
{
	return name_set_add(set, name);
}

void compare__name_set_free(struct name_set *set)
{
	name_set_free(set);
}
