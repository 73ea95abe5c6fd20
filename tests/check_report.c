// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_report.c - the three renderings of a report, whole-or-nothing
 * files, and the Chrome trace writer.
 *
 * Most tests use one small report, worked out by hand:
 *
 *	scenario demo, seed 42, 1 replication, baseline "base"
 *
 *	                     base     new
 *	throughput (ops/s)    200     150      (150 - 200) / 200 = -25%
 *	stock hit rate (%)     90    45.5      (45.5 - 90) / 90  = -49.44%
 */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "sim/file.h"
#include "sim/report.h"
#include "sim/trace.h"

static struct report *small_report(void)
{
	struct report *r = report_create("demo", 42, 1);
	int base, new;

	ck_assert_ptr_nonnull(r);
	base = report_variant(r, "base");
	new = report_variant(r, "new");
	ck_assert_int_eq(base, 0);
	ck_assert_int_eq(new, 1);
	report_metric(r, base, "throughput", "ops/s", 200, 0, true);
	report_metric(r, base, "stock hit rate", "%", 90, 0, true);
	report_metric(r, new, "throughput", "ops/s", 150, 0, true);
	report_metric(r, new, "stock hit rate", "%", 45.5, 0, true);
	return r;
}

/* Render @r in @fmt into a malloc'ed string. */
static char *render(const struct report *r, enum report_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(report_write(r, fmt, out), 0);
	ck_assert_int_eq(fclose(out), 0);
	return buf;
}

static char *read_all(const char *path)
{
	FILE *in = fopen(path, "r");
	char *buf;
	long len;

	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(fseek(in, 0, SEEK_END), 0);
	len = ftell(in);
	rewind(in);
	buf = malloc((size_t)len + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)len, in), (size_t)len);
	buf[len] = '\0';
	fclose(in);
	return buf;
}

/* Number of entries in @dir besides "." and "..". */
static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	for (e = readdir(d); e; e = readdir(d))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static char tmpdir[64];

static void tmpdir_setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/check_report.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void tmpdir_teardown(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	char path[512];

	if (!d)
		return;
	for (e = readdir(d); e; e = readdir(d)) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", tmpdir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(tmpdir);
}

/* ---- YAML helpers: load a document and walk it by keys. ---- */

static yaml_node_t *map_get(yaml_document_t *doc, yaml_node_t *map,
			    const char *key)
{
	yaml_node_pair_t *p;

	ck_assert_ptr_nonnull(map);
	ck_assert_int_eq(map->type, YAML_MAPPING_NODE);
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);

		if (k->type == YAML_SCALAR_NODE &&
		    !strcmp((const char *)k->data.scalar.value, key))
			return yaml_document_get_node(doc, p->value);
	}
	return NULL;
}

static yaml_node_t *seq_get(yaml_document_t *doc, yaml_node_t *seq, int i)
{
	ck_assert_ptr_nonnull(seq);
	ck_assert_int_eq(seq->type, YAML_SEQUENCE_NODE);
	ck_assert_int_lt(i, seq->data.sequence.items.top -
				    seq->data.sequence.items.start);
	return yaml_document_get_node(doc, seq->data.sequence.items.start[i]);
}

static int seq_len(yaml_node_t *seq)
{
	ck_assert_ptr_nonnull(seq);
	ck_assert_int_eq(seq->type, YAML_SEQUENCE_NODE);
	return (int)(seq->data.sequence.items.top -
		     seq->data.sequence.items.start);
}

static const char *scalar(yaml_node_t *n)
{
	ck_assert_ptr_nonnull(n);
	ck_assert_int_eq(n->type, YAML_SCALAR_NODE);
	return (const char *)n->data.scalar.value;
}

static void load(yaml_document_t *doc, const char *text)
{
	yaml_parser_t parser;

	ck_assert(yaml_parser_initialize(&parser));
	yaml_parser_set_input_string(&parser, (const unsigned char *)text,
				     strlen(text));
	ck_assert_msg(yaml_parser_load(&parser, doc), "parse error: %s",
		      parser.problem ? parser.problem : "?");
	yaml_parser_delete(&parser);
	ck_assert_ptr_nonnull(yaml_document_get_root_node(doc));
}

/*
 * CSV of the small report. change_pct is against the baseline's primary
 * metric: base 200 -> 0 (the baseline itself), new 150 -> -25.
 * "stock hit rate" becomes the column stock_hit_rate.
 * Expect exactly three lines and no _ci95 columns (one replication).
 */
START_TEST(report_write_csv_two_variants)
{
	struct report *r = small_report();
	char *csv = render(r, REPORT_CSV);

	ck_assert_str_eq(csv, "# scenario: demo\n# seed: 42\n"
			      "# replications: 1\n"
			      "variant,throughput,unit,change_pct,"
			      "stock_hit_rate\n"
			      "base,200,ops/s,0,90\n"
			      "new,150,ops/s,-25,45.5\n");
	free(csv);
	report_free(r);
}
END_TEST

/*
 * Three replications add _ci95 columns after the values, throughput's
 * first. Names with a comma or quotes are quoted (RFC 4180); a metric a
 * variant lacks is an empty field. The baseline is the second variant:
 *
 *	"a,b"      ops 100 +-2.5   p99 latency 10 +-0.5   (100-125)/125 = -20%
 *	say "hi"   ops 125 +-3     p99 latency 12 +-1     baseline: 0
 *	solo       ops 50  +-0     -                      (50-125)/125  = -60%
 */
START_TEST(report_write_csv_ci_and_quoting)
{
	struct report *r = report_create("q", 1, 3);
	int a = report_variant(r, "a,b");
	int s = report_variant(r, "say \"hi\"");
	int solo = report_variant(r, "solo");
	char *csv;

	report_set_baseline(r, "say \"hi\"");
	report_metric(r, a, "ops", "ops/s", 100, 2.5, true);
	report_metric(r, a, "p99 latency", "ns", 10, 0.5, false);
	report_metric(r, s, "ops", "ops/s", 125, 3, true);
	report_metric(r, s, "p99 latency", "ns", 12, 1, false);
	report_metric(r, solo, "ops", "ops/s", 50, 0, true);
	csv = render(r, REPORT_CSV);
	ck_assert_str_eq(csv, "# scenario: q\n# seed: 1\n# replications: 3\n"
			      "variant,throughput,unit,change_pct,p99_latency,"
			      "throughput_ci95,p99_latency_ci95\n"
			      "\"a,b\",100,ops/s,-20,10,2.5,0.5\n"
			      "\"say \"\"hi\"\"\",125,ops/s,0,12,3,1\n"
			      "solo,50,ops/s,-60,,0,\n");
	free(csv);
	report_free(r);
}
END_TEST

/*
 * YAML of the small report, plus a hot line and a note, parsed back with
 * libyaml. Expect the top-level keys, change_pct -25 for "new" and none
 * for the baseline, and the line's fields as written.
 */
START_TEST(report_write_yaml_parses_back)
{
	struct report *r = small_report();
	struct report_line line = {
		.name = "counter[0]",
		.fields = "usage min low",
		.reads = 10,
		.writes = 2,
		.rmws = 3,
		.xfer_by_dist = { 1, 2, 3, 4, 5 },
		.wait_ns = 12.5,
		.utilisation = 0.25,
	};
	yaml_node_t *root, *vars, *v0, *v1, *m, *l;
	yaml_document_t doc;
	char *text;

	report_line(r, 1, &line);
	report_note(r, 1, "page_counter_cancel: usage underflow");
	text = render(r, REPORT_YAML);
	load(&doc, text);
	root = yaml_document_get_root_node(&doc);
	ck_assert_str_eq(scalar(map_get(&doc, root, "scenario")), "demo");
	ck_assert_str_eq(scalar(map_get(&doc, root, "seed")), "42");
	ck_assert_str_eq(scalar(map_get(&doc, root, "replications")), "1");
	ck_assert_str_eq(scalar(map_get(&doc, root, "baseline")), "base");
	vars = map_get(&doc, root, "variants");
	ck_assert_int_eq(seq_len(vars), 2);

	v0 = seq_get(&doc, vars, 0);
	ck_assert_str_eq(scalar(map_get(&doc, v0, "name")), "base");
	m = map_get(&doc, map_get(&doc, v0, "metrics"), "throughput");
	ck_assert_str_eq(scalar(map_get(&doc, m, "value")), "200");
	ck_assert_str_eq(scalar(map_get(&doc, m, "unit")), "ops/s");
	ck_assert_str_eq(scalar(map_get(&doc, m, "ci95")), "0");
	ck_assert_str_eq(scalar(map_get(&doc, m, "higher_is_better")), "true");
	ck_assert_ptr_null(map_get(&doc, m, "change_pct"));
	ck_assert_int_eq(seq_len(map_get(&doc, v0, "lines")), 0);
	ck_assert_int_eq(seq_len(map_get(&doc, v0, "notes")), 0);

	v1 = seq_get(&doc, vars, 1);
	m = map_get(&doc, map_get(&doc, v1, "metrics"), "throughput");
	ck_assert_str_eq(scalar(map_get(&doc, m, "change_pct")), "-25");
	m = map_get(&doc, map_get(&doc, v1, "metrics"), "stock hit rate");
	ck_assert_str_eq(scalar(map_get(&doc, m, "value")), "45.5");
	ck_assert_str_eq(scalar(map_get(&doc, m, "unit")), "%");
	l = seq_get(&doc, map_get(&doc, v1, "lines"), 0);
	ck_assert_str_eq(scalar(map_get(&doc, l, "name")), "counter[0]");
	ck_assert_str_eq(scalar(map_get(&doc, l, "fields")), "usage min low");
	ck_assert_str_eq(scalar(map_get(&doc, l, "rmws")), "3");
	ck_assert_str_eq(scalar(map_get(&doc, l, "wait_ns")), "12.5");
	ck_assert_str_eq(scalar(map_get(&doc, l, "utilisation")), "0.25");
	ck_assert_str_eq(
		scalar(seq_get(&doc, map_get(&doc, l, "xfer_by_dist"), 4)),
		"5");
	ck_assert_str_eq(scalar(seq_get(&doc, map_get(&doc, v1, "notes"), 0)),
			 "page_counter_cancel: usage underflow");
	yaml_document_delete(&doc);
	free(text);
	report_free(r);
}
END_TEST

/*
 * Strings that would read back as something else are quoted: a variant
 * named "yes" stays the string yes, "1.5" stays a string. Expect the
 * parsed scalars to be quoted (not plain) and unchanged.
 */
START_TEST(report_write_yaml_quotes_ambiguous_names)
{
	struct report *r = report_create("1.5", 0, 1);
	yaml_node_t *root, *name;
	yaml_document_t doc;
	char *text;

	report_metric(r, report_variant(r, "yes"), "x", "", 1, 0, true);
	text = render(r, REPORT_YAML);
	load(&doc, text);
	root = yaml_document_get_root_node(&doc);
	name = map_get(&doc, root, "scenario");
	ck_assert_str_eq(scalar(name), "1.5");
	ck_assert_int_ne(name->data.scalar.style, YAML_PLAIN_SCALAR_STYLE);
	name = map_get(&doc, seq_get(&doc, map_get(&doc, root, "variants"), 0),
		       "name");
	ck_assert_str_eq(scalar(name), "yes");
	ck_assert_int_ne(name->data.scalar.style, YAML_PLAIN_SCALAR_STYLE);
	yaml_document_delete(&doc);
	free(text);
	report_free(r);
}
END_TEST

/*
 * The table of the small report, exactly. Rows print the largest value
 * with five significant digits: 200 -> 2 decimals, 90 -> 3 decimals.
 * (45.5 - 90) / 90 = -49.444% -> "(-49.44%)".
 */
START_TEST(report_write_table_small_exact)
{
	struct report *r = small_report();
	char *table = render(r, REPORT_TABLE);

	ck_assert_str_eq(table,
			 "# scenario demo, seed 42, 1 replication\n"
			 "\n"
			 "                      base               new\n"
			 "throughput (ops/s)  200.00  150.00 (-25.00%)\n"
			 "stock hit rate (%)  90.000  45.500 (-49.44%)\n");
	free(table);
	report_free(r);
}
END_TEST

/*
 * Replications show "value +-ci"; the baseline can be any variant.
 * Baseline "new" (150): base 200 -> (200 - 150) / 150 = +33.33%.
 */
START_TEST(report_write_table_ci_and_baseline)
{
	struct report *r = report_create("demo", 7, 5);
	int base = report_variant(r, "base");
	int new = report_variant(r, "new");
	char *table;

	report_set_baseline(r, "new");
	report_metric(r, base, "throughput", "ops/s", 200, 4.25, true);
	report_metric(r, new, "throughput", "ops/s", 150, 1.5, true);
	table = render(r, REPORT_TABLE);
	ck_assert_str_eq(
		table,
		"# scenario demo, seed 7, 5 replications\n"
		"\n"
		"                                       base            new\n"
		"throughput (ops/s)  200.00 +-4.25 (+33.33%)  150.00 +-1.50\n");
	free(table);
	report_free(r);
}
END_TEST

/* Columns of a UTF-8 line. */
static size_t columns(const char *s, size_t len)
{
	size_t i, w = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			w++;
	return w;
}

/*
 * Nine variants with long names, long metric labels, replications, hot
 * lines with long field lists and a long note:
 *
 *	variant-with-a-rather-long-name-0 .. -8, metrics m0..m5
 *
 * Expect every line at most 80 columns, the metric names repeated in
 * more than one block, and every variant's last heading chunk present.
 */
START_TEST(report_write_table_fits_80_columns_nine_variants)
{
	static const char *const metrics[] = {
		"throughput",
		"charge latency p99",
		"a metric label that is much longer than thirty columns",
		"stock hit rate",
		"page_counter ops",
		"flush time",
	};
	struct report *r = report_create("a-scenario-name-long-enough-to-"
					 "need-cutting-in-the-title-line-ok",
					 123456789, 5);
	struct report_line line = {
		.name = "page_counter@top line 0 (a long name)",
		.fields = "usage min low high max emin elow watermark failcnt "
			  "local_watermark parent protected_low children",
		.reads = 123456789,
		.writes = 99999,
		.rmws = 100000,
		.transfers = 4242,
		.wait_ns = 1.5e9,
		.utilisation = 0.987,
	};
	unsigned int i, m, blocks = 0;
	const char *p, *nl;
	char name[64], *table;

	for (i = 0; i < 9; i++) {
		int v;

		snprintf(name, sizeof(name),
			 "variant-with-a-rather-long-name-%u", i);
		v = report_variant(r, name);
		for (m = 0; m < 6; m++)
			report_metric(r, v, metrics[m], "unit/s",
				      -12345.678 * (i + 1) * (m + 1), 3.25 * i,
				      true);
		report_line(r, v, &line);
		report_note(r, v,
			    "a note that is long enough to need wrapping "
			    "because it goes on and on about a WARN that fired "
			    "in page_counter_cancel");
	}
	table = render(r, REPORT_TABLE);
	for (p = table; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		ck_assert_ptr_nonnull(nl);
		ck_assert_msg(columns(p, (size_t)(nl - p)) <= 80,
			      "line too long: %.*s", (int)(nl - p), p);
		if (!strncmp(p, "throughput (unit/s)", 19))
			blocks++;
	}
	ck_assert_uint_gt(blocks, 1);
	ck_assert_ptr_nonnull(strstr(table, "-8\n"));
	ck_assert_ptr_nonnull(strstr(table, "hot lines: variant-with-a-"
					    "rather-long-name-8\n"));
	free(table);
	report_free(r);
}
END_TEST

/*
 * Odd reports: a baseline of 0 gives no change (empty in CSV, "(n/a)" in
 * the table, no change_pct in YAML); a metric a variant lacks is "-" in
 * the table and empty in CSV; NaN is "nan" in CSV and .nan in YAML.
 * The throughput row's largest value is 5: 4 decimals for five digits,
 * capped at 3 for values of 1 or more, so "5.000".
 *
 *	          throughput  extra
 *	zero (b)  0           -
 *	other     5           NaN
 */
START_TEST(report_write_zero_baseline_and_gaps)
{
	struct report *r = report_create("e", 0, 1);
	int zero = report_variant(r, "zero");
	int other = report_variant(r, "other");
	yaml_node_t *v1, *m;
	yaml_document_t doc;
	char *text;

	report_metric(r, zero, "throughput", "ops/s", 0, 0, true);
	report_metric(r, other, "throughput", "ops/s", 5, 0, true);
	report_metric(r, other, "extra", "", NAN, 0, false);
	text = render(r, REPORT_CSV);
	ck_assert_str_eq(text, "# scenario: e\n# seed: 0\n# replications: 1\n"
			       "variant,throughput,unit,change_pct,extra\n"
			       "zero,0,ops/s,0,\n"
			       "other,5,ops/s,,nan\n");
	free(text);

	text = render(r, REPORT_TABLE);
	ck_assert_str_eq(text, "# scenario e, seed 0, 1 replication\n"
			       "\n"
			       "                     zero        other\n"
			       "throughput (ops/s)  0.000  5.000 (n/a)\n"
			       "extra                   -    nan (n/a)\n");
	free(text);

	text = render(r, REPORT_YAML);
	load(&doc, text);
	v1 = seq_get(&doc,
		     map_get(&doc, yaml_document_get_root_node(&doc),
			     "variants"),
		     1);
	m = map_get(&doc, map_get(&doc, v1, "metrics"), "throughput");
	ck_assert_ptr_null(map_get(&doc, m, "change_pct"));
	m = map_get(&doc, map_get(&doc, v1, "metrics"), "extra");
	ck_assert_str_eq(scalar(map_get(&doc, m, "value")), ".nan");
	ck_assert_str_eq(scalar(map_get(&doc, m, "higher_is_better")), "false");
	yaml_document_delete(&doc);
	free(text);
	report_free(r);
}
END_TEST

/*
 * A report without variants still renders, in every format; two
 * replications still announce throughput_ci95.
 */
/*
 * Provenance in the three renderings: the table's second line (version,
 * machine, duration after warm-up, then the --set options, wrapped before
 * 80 columns), YAML's provenance map with the sets as one list, and CSV's
 * "# KEY: VALUE" lines; a newline in a value is '?' in CSV and the table.
 */
START_TEST(report_write_provenance)
{
	struct report *r = report_create("p", 1, 1);
	char *text;

	report_provenance(r, "memcgsim", "9.9");
	report_provenance(r, "machine", "m1, m2");
	report_provenance(r, "duration_ms", "20");
	report_provenance(r, "warmup_ms", "2");
	report_provenance(r, "set", "kernel.charge_batch=64");
	report_provenance(r, "set", "workloads.0.cpus=0-71,a\nb");
	ck_assert_str_eq(report_provenance_get(r, "set"),
			 "kernel.charge_batch=64");
	text = render(r, REPORT_TABLE);
	/*
	 * "# memcgsim 9.9, machine m1, m2, 20 ms after a 2 ms warm-up," is
	 * 58 columns; ", --set kernel.charge_batch=64" (30) would end at 88,
	 * past 80: it wraps, and the second --set (33) fits beside it (64).
	 */
	ck_assert_str_eq(
		text,
		"# scenario p, seed 1, 1 replication\n"
		"# memcgsim 9.9, machine m1, m2, 20 ms after a 2 ms warm-up,\n"
		"# --set kernel.charge_batch=64, --set workloads.0.cpus=0-71,a?b\n\n");
	free(text);
	text = render(r, REPORT_CSV);
	ck_assert_str_eq(text, "# scenario: p\n# seed: 1\n# replications: 1\n"
			       "# memcgsim: 9.9\n# machine: m1, m2\n"
			       "# duration_ms: 20\n# warmup_ms: 2\n"
			       "# set: kernel.charge_batch=64\n"
			       "# set: workloads.0.cpus=0-71,a?b\n"
			       "variant,throughput,unit,change_pct\n");
	free(text);
	text = render(r, REPORT_YAML);
	ck_assert_ptr_nonnull(strstr(text, "provenance:\n  memcgsim: '9.9'\n"));
	ck_assert_ptr_nonnull(
		strstr(text, "  set: ['kernel.charge_batch=64', "));
	free(text);
	report_free(r);
}
END_TEST

/*
 * What the table means: the description under the title, a legend line
 * per variant with settings ("(the scenario as written)" for none), and
 * a row that is 0 in both variants left out and named at the end; with
 * report_all_metrics() it is back. YAML keeps it either way.
 */
START_TEST(report_write_legend_and_zero_rows)
{
	struct report *r = report_create("d", 1, 1);
	int a = report_variant(r, "base"), b = report_variant(r, "+A");
	char *text;

	report_describe(r, "two\nvariants");
	report_variant_legend(r, a, "");
	report_variant_legend(r, b, "kernel.charge_batch=64");
	report_metric(r, a, "throughput", "ops/s", 10, 0, true);
	report_metric(r, a, "failures", "", 0, 0, false);
	report_metric(r, b, "throughput", "ops/s", 20, 0, true);
	report_metric(r, b, "failures", "", 0, 0, false);
	text = render(r, REPORT_TABLE);
	/* the row format is report_write_table_*'s; here the lines around */
	ck_assert_ptr_nonnull(strstr(text,
				     "# scenario d, seed 1, 1 replication\n"
				     "# two variants\n"
				     "# base: (the scenario as written)\n"
				     "# +A: kernel.charge_batch=64\n\n"));
	ck_assert_ptr_nonnull(strstr(text, "\nthroughput (ops/s) "));
	ck_assert_ptr_null(strstr(text, "\nfailures"));
	ck_assert_ptr_nonnull(strstr(text,
				     ")\n\n0 in every variant, not shown:\n"
				     "  failures (--all-metrics shows it)\n"));
	free(text);
	report_all_metrics(r, true);
	text = render(r, REPORT_TABLE);
	ck_assert_ptr_nonnull(strstr(text, "\nfailures "));
	ck_assert_ptr_null(strstr(text, "not shown"));
	free(text);
	report_all_metrics(r, false);
	text = render(r, REPORT_YAML);
	ck_assert_ptr_nonnull(strstr(text, "    failures:\n"));
	free(text);
	report_free(r);
}
END_TEST

/*
 * run -r N: a change whose two 95% intervals overlap is marked "~" and
 * explained once under the table. base 100 +-5 against a 103 +-2: the
 * distance 3 is within 5 + 2, so "(~+3.00%)"; c 120 +-2: 20 > 7, no mark.
 */
START_TEST(report_write_within_ci)
{
	static const struct report_line hot = { .name = "l", .transfers = 1 };
	struct report *r = report_create("ci", 1, 3);
	int a = report_variant(r, "a"), b = report_variant(r, "b");
	int c = report_variant(r, "c");
	char *text;

	report_metric(r, a, "throughput", "ops/s", 100, 5, true);
	report_metric(r, b, "throughput", "ops/s", 103, 2, true);
	report_metric(r, c, "throughput", "ops/s", 120, 2, true);
	report_line(r, a, &hot);
	text = render(r, REPORT_TABLE);
	/* the hot lines are one run's: which one is said */
	ck_assert_ptr_nonnull(
		strstr(text, "hot lines: a\n"
			     "(counted in the first replication, seed 1)\n"));
	ck_assert_ptr_nonnull(strstr(text, "(~+3.00%)"));
	ck_assert_ptr_nonnull(strstr(text, "(+20.00%)"));
	ck_assert_ptr_nonnull(strstr(text, "\n~: within the 95% confidence"));
	free(text);
	report_free(r);
}
END_TEST

START_TEST(report_write_empty)
{
	struct report *r = report_create("none", 3, 2);
	char *text;

	text = render(r, REPORT_TABLE);
	ck_assert_str_eq(text, "# scenario none, seed 3, 2 replications\n\n");
	free(text);
	text = render(r, REPORT_CSV);
	ck_assert_str_eq(text, "# scenario: none\n# seed: 3\n"
			       "# replications: 2\n"
			       "variant,throughput,unit,change_pct,"
			       "throughput_ci95\n");
	free(text);
	text = render(r, REPORT_YAML);
	ck_assert_str_eq(text, "scenario: none\nseed: 3\nreplications: 2\n"
			       "baseline: null\nvariants: []\n");
	free(text);
	report_free(r);
}
END_TEST

/*
 * A result holds numbers only (issue 34, item 3): report_nonfinite()
 * names the first metric of a variant whose value or interval is nan or
 * inf, and nothing for a variant of finite values.
 */
START_TEST(report_nonfinite_names_the_metric)
{
	struct report *r = report_create("s", 1, 2);
	int a = report_variant(r, "a"), b = report_variant(r, "b"),
	    c = report_variant(r, "c");

	report_metric(r, a, "throughput", "ops/s", 1.0, 0.5, true);
	report_metric(r, a, "latency", "ns", 2.0, 0.0, false);
	report_metric(r, b, "throughput", "ops/s", 1.0, 0.5, true);
	report_metric(r, b, "latency", "ns", NAN, 0.0, false);
	report_metric(r, c, "throughput", "ops/s", 1.0, INFINITY, true);
	ck_assert_ptr_null(report_nonfinite(r, a));
	ck_assert_str_eq(report_nonfinite(r, b), "latency");
	ck_assert_str_eq(report_nonfinite(r, c), "throughput");
	report_free(r);
}
END_TEST

/* The same report renders to the same bytes, in every format. */
START_TEST(report_write_identical_bytes)
{
	struct report *r = small_report();
	enum report_format fmt;

	report_note(r, 0, "note");
	for (fmt = REPORT_TABLE; fmt <= REPORT_CSV; fmt++) {
		char *a = render(r, fmt), *b = render(r, fmt);

		ck_assert_str_eq(a, b);
		free(a);
		free(b);
	}
	report_free(r);
}
END_TEST

static int write_hello(FILE *out, void *arg)
{
	fputs((const char *)arg, out);
	return 0;
}

static int write_then_fail(FILE *out, void *arg)
{
	fputs("partial", out);
	errno = ENOSPC;
	return -1;
}

/* A failing writer leaves nothing in the directory and names the path. */
START_TEST(sim_write_atomic_writer_fails)
{
	struct sim_error err;
	char path[128];

	sim_error_clear(&err);
	snprintf(path, sizeof(path), "%s/out.csv", tmpdir);
	ck_assert_int_eq(sim_write_atomic(path, write_then_fail, NULL, &err),
			 -1);
	ck_assert_int_eq(count_entries(tmpdir), 0);
	ck_assert_str_eq(err.file, path);
	ck_assert_ptr_nonnull(strstr(err.msg, strerror(ENOSPC)));
}
END_TEST

/* A failing writer does not touch an existing file either. */
START_TEST(sim_write_atomic_writer_fails_keeps_old)
{
	struct sim_error err;
	char path[128], *text, old[] = "old\n";

	snprintf(path, sizeof(path), "%s/out.csv", tmpdir);
	ck_assert_int_eq(sim_write_atomic(path, write_hello, old, &err), 0);
	ck_assert_int_eq(sim_write_atomic(path, write_then_fail, NULL, &err),
			 -1);
	text = read_all(path);
	ck_assert_str_eq(text, "old\n");
	free(text);
	ck_assert_int_eq(count_entries(tmpdir), 1);
}
END_TEST

/*
 * Success leaves exactly the full file, with the mode fopen() would give
 * (0666 less umask), not mkstemp()'s 0600.
 */
START_TEST(sim_write_atomic_writes_whole_file)
{
	struct report *r = small_report();
	struct sim_error err;
	char path[128], *text, *expect;
	struct stat st;
	mode_t mask;

	sim_error_clear(&err);
	snprintf(path, sizeof(path), "%s/out.yaml", tmpdir);
	expect = render(r, REPORT_YAML);
	ck_assert_int_eq(sim_write_atomic(path, write_hello, expect, &err), 0);
	ck_assert_str_eq(err.msg, "");
	ck_assert_int_eq(count_entries(tmpdir), 1);
	text = read_all(path);
	ck_assert_str_eq(text, expect);
	ck_assert_int_eq(stat(path, &st), 0);
	mask = umask(0);
	umask(mask);
	ck_assert_uint_eq(st.st_mode & 0777, 0666 & ~mask);
	free(text);
	free(expect);
	report_free(r);
}
END_TEST

/* A directory that does not exist: an error naming the path. */
START_TEST(sim_write_atomic_missing_directory)
{
	struct sim_error err;
	char path[160], x[] = "x";

	sim_error_clear(&err);
	snprintf(path, sizeof(path), "%s/no/such/dir/out.csv", tmpdir);
	ck_assert_int_eq(sim_write_atomic(path, write_hello, x, &err), -1);
	ck_assert_str_eq(err.file, path);
	ck_assert_ptr_nonnull(strstr(err.msg, strerror(ENOENT)));
	ck_assert_int_eq(count_entries(tmpdir), 0);
}
END_TEST

/*
 * An input is never replaced (issue 34, item 1): in.csv, read with
 * sim_read_file() and noted as an input, is refused as an output by its name, through a
 * symbolic link and through a hard link, and stays as it was
 * ("a\n"); another file, a new name and "-" are not refused.
 */
START_TEST(sim_output_check_refuses_inputs)
{
	struct sim_error err;
	char in[160], sym[160], hard[160], other[160], x[] = "x", *buf;
	size_t len;
	FILE *f;

	sim_error_clear(&err);
	snprintf(in, sizeof(in), "%s/in.csv", tmpdir);
	snprintf(sym, sizeof(sym), "%s/sym.csv", tmpdir);
	snprintf(hard, sizeof(hard), "%s/hard.csv", tmpdir);
	snprintf(other, sizeof(other), "%s/other.csv", tmpdir);
	f = fopen(in, "w");
	ck_assert_ptr_nonnull(f);
	fputs("a\n", f);
	fclose(f);
	ck_assert_int_eq(sim_read_file(in, 0, &buf, &len, &err), 0);
	free(buf);
	ck_assert_int_eq(sim_output_check(in, &err), 0); /* not noted yet */
	sim_input_note_path(in);
	ck_assert_int_eq(symlink("in.csv", sym), 0);
	ck_assert_int_eq(link(in, hard), 0);
	ck_assert_int_eq(sim_output_check(in, &err), -1);
	ck_assert_str_eq(err.file, in);
	ck_assert_int_eq(sim_write_atomic(sym, write_hello, x, &err), -1);
	ck_assert_str_eq(err.file, sym);
	ck_assert_int_eq(sim_write_atomic(hard, write_hello, x, &err), -1);
	ck_assert_int_eq(sim_read_file(in, 0, &buf, &len, &err), 0);
	ck_assert_str_eq(buf, "a\n");
	free(buf);
	ck_assert_int_eq(sim_output_check(other, &err), 0);
	ck_assert_int_eq(sim_output_check("-", &err), 0);
	ck_assert_int_eq(sim_write_atomic(other, write_hello, x, &err), 0);
	ck_assert_int_eq(count_entries(tmpdir), 4); /* no temporary left */
}
END_TEST

/*
 * sim_read_file(): "a,b\n" (4 bytes) read whole and NUL-terminated; with
 * a limit of 1 MiB, a file of 1 MiB + 1 byte is refused, one of exactly
 * 1 MiB is not; a missing file names its path and the reason.
 */
START_TEST(sim_read_file_whole_and_limits)
{
	const size_t mib = 1 << 20;
	struct sim_error err;
	char path[128], small[] = "a,b\n", *buf, *big;
	size_t len;

	sim_error_clear(&err);
	snprintf(path, sizeof(path), "%s/in.csv", tmpdir);
	ck_assert_int_eq(sim_write_atomic(path, write_hello, small, &err), 0);
	ck_assert_int_eq(sim_read_file(path, 0, &buf, &len, &err), 0);
	ck_assert_uint_eq(len, 4);
	ck_assert_str_eq(buf, "a,b\n");
	free(buf);

	big = malloc(mib + 2);
	ck_assert_ptr_nonnull(big);
	memset(big, 'x', mib + 1);
	big[mib + 1] = '\0';
	ck_assert_int_eq(sim_write_atomic(path, write_hello, big, &err), 0);
	ck_assert_int_eq(sim_read_file(path, mib, &buf, &len, &err), -1);
	ck_assert_ptr_null(buf);
	ck_assert_str_eq(err.file, path);
	ck_assert_str_eq(err.msg, "larger than 1 MiB");
	big[mib] = '\0';
	ck_assert_int_eq(sim_write_atomic(path, write_hello, big, &err), 0);
	ck_assert_int_eq(sim_read_file(path, mib, &buf, &len, &err), 0);
	ck_assert_uint_eq(len, mib);
	ck_assert_uint_eq(strlen(buf), mib);
	free(buf);
	free(big);

	snprintf(path, sizeof(path), "%s/missing.csv", tmpdir);
	ck_assert_int_eq(sim_read_file(path, 0, &buf, &len, &err), -1);
	ck_assert_str_eq(err.file, path);
	ck_assert_str_eq(err.msg, "cannot read: No such file or directory");
}
END_TEST

/* ---- trace ---- */

/*
 * A few events, exactly. 1234567 ps = 1.234567 us; 250 ps = 0.000250 us;
 * 2 s = 2000000000000 ps = 2000000.000000 us. Names are JSON-escaped.
 */
START_TEST(sim_trace_exact_text)
{
	struct sim_error err;
	struct sim_trace *t;
	char path[128], *text;

	sim_error_clear(&err);
	snprintf(path, sizeof(path), "%s/trace.json", tmpdir);
	t = sim_trace_open(path, &err);
	ck_assert_ptr_nonnull(t);
	sim_trace_process(t, 1, "base");
	sim_trace_thread(t, 1, 3, "cpu\"3\"", 3);
	sim_trace_slice(t, 1, 3, "try_charge", "memcg", 1234567, 250);
	sim_trace_slice(t, 1, 3, "a\\b\n", NULL, 2000000000000ULL, 0);
	sim_trace_counter(t, 1, "usage", 2000000, 512.5);
	ck_assert_int_eq(count_entries(tmpdir), 1); /* the temporary */
	ck_assert_int_eq(sim_trace_close(t, true, &err), 0);
	text = read_all(path);
	ck_assert_str_eq(
		text,
		"{\"traceEvents\":[\n"
		"{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
		"\"args\":{\"name\":\"base\"}},\n"
		"{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":3,"
		"\"args\":{\"name\":\"cpu\\\"3\\\"\"}},\n"
		"{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,"
		"\"tid\":3,\"args\":{\"sort_index\":3}},\n"
		"{\"name\":\"try_charge\",\"cat\":\"memcg\",\"ph\":\"X\","
		"\"pid\":1,\"tid\":3,\"ts\":1.234567,\"dur\":0.000250},\n"
		"{\"name\":\"a\\\\b\\n\",\"ph\":\"X\",\"pid\":1,\"tid\":3,"
		"\"ts\":2000000.000000,\"dur\":0.000000},\n"
		"{\"name\":\"usage\",\"ph\":\"C\",\"pid\":1,\"ts\":2.000000,"
		"\"args\":{\"value\":512.5}}\n"
		"],\"displayTimeUnit\":\"ns\"}\n");
	ck_assert_int_eq(count_entries(tmpdir), 1);
	free(text);
}
END_TEST

/*
 * The trace reads back as a document (JSON is flow YAML for libyaml):
 * Expect a traceEvents sequence of 3 events, the slice's ts "1.234567".
 */
START_TEST(sim_trace_parses_back)
{
	yaml_node_t *root, *events, *slice;
	struct sim_error err;
	struct sim_trace *t;
	yaml_document_t doc;
	char path[128], *text;

	snprintf(path, sizeof(path), "%s/trace.json", tmpdir);
	t = sim_trace_open(path, &err);
	ck_assert_ptr_nonnull(t);
	sim_trace_process(t, 1, "base");
	sim_trace_slice(t, 1, 0, "drain_stock", "memcg", 1234567, 1000);
	sim_trace_counter(t, 1, "usage", 0, 3);
	ck_assert_int_eq(sim_trace_close(t, true, &err), 0);
	text = read_all(path);
	load(&doc, text);
	root = yaml_document_get_root_node(&doc);
	ck_assert_str_eq(scalar(map_get(&doc, root, "displayTimeUnit")), "ns");
	events = map_get(&doc, root, "traceEvents");
	ck_assert_int_eq(seq_len(events), 3);
	slice = seq_get(&doc, events, 1);
	ck_assert_str_eq(scalar(map_get(&doc, slice, "ph")), "X");
	ck_assert_str_eq(scalar(map_get(&doc, slice, "ts")), "1.234567");
	ck_assert_str_eq(scalar(map_get(&doc, slice, "dur")), "0.001000");
	yaml_document_delete(&doc);
	free(text);
}
END_TEST

/* Closing without commit leaves nothing behind. */
START_TEST(sim_trace_close_discards)
{
	struct sim_error err;
	struct sim_trace *t;
	char path[128];

	snprintf(path, sizeof(path), "%s/trace.json", tmpdir);
	t = sim_trace_open(path, &err);
	ck_assert_ptr_nonnull(t);
	sim_trace_slice(t, 1, 0, "x", NULL, 0, 1);
	ck_assert_int_eq(sim_trace_close(t, false, &err), 0);
	ck_assert_int_eq(count_entries(tmpdir), 0);
	/* NULL traces are accepted everywhere */
	sim_trace_slice(NULL, 1, 0, "x", NULL, 0, 1);
	ck_assert_int_eq(sim_trace_close(NULL, true, &err), 0);
}
END_TEST

/*
 * Cap of 2 events, 5 written: 2 kept, 3 dropped, and a final metadata
 * event records it. Expect 3 events in the parsed file.
 */
START_TEST(sim_trace_cap_drops_and_records)
{
	yaml_node_t *events, *last, *args;
	struct sim_error err;
	struct sim_trace *t;
	yaml_document_t doc;
	char path[128], *text;
	int i;

	snprintf(path, sizeof(path), "%s/trace.json", tmpdir);
	t = sim_trace_open(path, &err);
	ck_assert_ptr_nonnull(t);
	sim_trace_set_max_events(t, 2);
	for (i = 0; i < 5; i++)
		sim_trace_slice(t, 1, 0, "x", NULL, (uint64_t)i, 1);
	ck_assert_uint_eq(sim_trace_dropped(t), 3);
	ck_assert_int_eq(sim_trace_close(t, true, &err), 0);
	text = read_all(path);
	load(&doc, text);
	events =
		map_get(&doc, yaml_document_get_root_node(&doc), "traceEvents");
	ck_assert_int_eq(seq_len(events), 3);
	last = seq_get(&doc, events, 2);
	ck_assert_str_eq(scalar(map_get(&doc, last, "name")),
			 "trace_truncated");
	args = map_get(&doc, last, "args");
	ck_assert_str_eq(scalar(map_get(&doc, args, "max_events")), "2");
	ck_assert_str_eq(scalar(map_get(&doc, args, "dropped_events")), "3");
	yaml_document_delete(&doc);
	free(text);
}
END_TEST

/* Count the occurrences of @needle in @hay. */
static int count_str(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/*
 * Calls, async slices, flows and counters, exactly, in a window from 1000
 * to 5000 ps:
 *  - cpu 2 enters f at 500 (before the window: never written), g at 1000;
 *    g's B (ts 0.001000) is written just before the first slice inside
 *    it, an access from 4500 to 5500, a B and an E cut to 5000; g leaves
 *    at 6000 (E cut to 0.005000), f leaves (nothing);
 *  - on cpu 3, h takes no time (nothing), k from 3000 to 3500 holds
 *    nothing: a B and an E at its exit;
 *  - a posted access from 900 to 2000 is cut to [1000, 2000]: "b" and "e"
 *    with id 0x1, on pid 1 tid 2, the first of flow chain 0x100000001
 *    (flow_out only);
 *  - an access on cpu 3 from 2500 to 2600, the next in the chain
 *    (flow_in and flow_out on its B); one at 5000 (the window's end) is
 *    dropped;
 *  - counters at 4000 kept, at 5001 dropped.
 */
START_TEST(sim_trace_window_calls_async_flow)
{
	static const char *const keys[] = { "queued", "sharers" };
	static const double values[] = { 3, 1 };
	struct sim_trace_flow flow = { .id = 0x100000001ull, .in = false };
	struct sim_error err;
	struct sim_trace *t;
	char path[128], *text;

	sim_error_clear(&err);
	snprintf(path, sizeof(path), "%s/trace.json", tmpdir);
	t = sim_trace_open(path, &err);
	ck_assert_ptr_nonnull(t);
	sim_trace_set_window(t, 1000, 5000);
	sim_trace_run_begin(t, 1, 1000000);
	ck_assert_ptr_eq(sim_trace_calls, t);
	sim_trace_call_enter(t, 2, "f", "kernel", 500);
	sim_trace_call_enter(t, 2, "ops->g", "kernel", 1000);
	sim_trace_async(t, 1, 2, "cpu2 posted", "posted", "read x.y", 900, 2000,
			&flow);
	flow.in = true;
	ck_assert(sim_trace_leaf(t, 3, "rmw x.z", "miss", 2500, 2600, &flow));
	ck_assert(!sim_trace_leaf(t, 3, "rmw x.z", "miss", 5000, 5100, &flow));
	sim_trace_call_enter(t, 3, "h", "kernel", 3000);
	sim_trace_call_exit(t, 3, 3000);
	sim_trace_call_enter(t, 3, "k", "kernel", 3000);
	sim_trace_call_exit(t, 3, 3500);
	sim_trace_counters(t, 2, "line 0", 4000, 2, keys, values);
	sim_trace_counters(t, 2, "line 0", 5001, 2, keys, values);
	sim_trace_leaf(t, 2, "read x.y", "miss", 4500, 5500, NULL);
	sim_trace_call_exit(t, 2, 6000);
	sim_trace_call_exit(t, 2, 7000);
	sim_trace_run_end(t, 8000);
	ck_assert_ptr_null(sim_trace_calls);
	ck_assert_int_eq(sim_trace_close(t, true, &err), 0);
	text = read_all(path);
	ck_assert_str_eq(
		text,
		"{\"traceEvents\":[\n"
		"{\"name\":\"cpu2 posted\",\"cat\":\"posted\",\"ph\":\"b\","
		"\"pid\":1,\"tid\":2,\"ts\":0.001000,\"id\":\"0x1\","
		"\"bind_id\":\"0x100000001\",\"flow_out\":true,"
		"\"args\":{\"access\":\"read x.y\"}},\n"
		"{\"name\":\"cpu2 posted\",\"cat\":\"posted\",\"ph\":\"e\","
		"\"pid\":1,\"tid\":2,\"ts\":0.002000,\"id\":\"0x1\"},\n"
		"{\"name\":\"rmw x.z\",\"cat\":\"miss\",\"ph\":\"B\",\"pid\":1,"
		"\"tid\":3,\"ts\":0.002500,\"bind_id\":\"0x100000001\","
		"\"flow_in\":true,\"flow_out\":true},\n"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":3,\"ts\":0.002600},\n"
		"{\"name\":\"k\",\"cat\":\"kernel\",\"ph\":\"B\",\"pid\":1,"
		"\"tid\":3,\"ts\":0.003000},\n"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":3,\"ts\":0.003500},\n"
		"{\"name\":\"line 0\",\"ph\":\"C\",\"pid\":2,\"ts\":0.004000,"
		"\"args\":{\"queued\":3,\"sharers\":1}},\n"
		"{\"name\":\"g\",\"cat\":\"kernel\",\"ph\":\"B\",\"pid\":1,"
		"\"tid\":2,\"ts\":0.001000},\n"
		"{\"name\":\"read x.y\",\"cat\":\"miss\",\"ph\":\"B\",\"pid\":1,"
		"\"tid\":2,\"ts\":0.004500},\n"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":0.005000},\n"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":0.005000}\n"
		"],\"displayTimeUnit\":\"ns\"}\n");
	free(text);
}
END_TEST

/*
 * A run that ends inside calls: sim_trace_run_end() ends them at the
 * run's end (3000). On tid 7, c holds an access (cut at 3000 too): c's
 * B, the access's B and E, c's E. On tid 0, b holds nothing: a leaf from
 * 20 to 3000, written after the B of a around it; then a's E. Expect 4 B
 * and 4 E.
 */
START_TEST(sim_trace_run_end_closes_calls)
{
	struct sim_error err;
	struct sim_trace *t;
	char path[128], *text;

	snprintf(path, sizeof(path), "%s/trace.json", tmpdir);
	t = sim_trace_open(path, &err);
	ck_assert_ptr_nonnull(t);
	sim_trace_run_begin(t, 5, 3000);
	sim_trace_call_enter(t, 0, "a", "kernel", 10);
	sim_trace_call_enter(t, 0, "b", "kernel", 20);
	sim_trace_call_enter(t, 7, "c", "kernel", 30);
	/* a miss past the run's end is cut there */
	sim_trace_leaf(t, 7, "rmw x", "miss", 2000, 7000, NULL);
	sim_trace_run_end(t, 3000);
	ck_assert_int_eq(sim_trace_close(t, true, &err), 0);
	text = read_all(path);
	ck_assert_int_eq(count_str(text, "\"ph\":\"B\""), 4);
	ck_assert_int_eq(count_str(text, "\"ph\":\"E\""), 4);
	ck_assert_ptr_nonnull(strstr(
		text, "{\"name\":\"a\",\"cat\":\"kernel\",\"ph\":\"B\","
		      "\"pid\":5,\"tid\":0,\"ts\":0.000010},\n"
		      "{\"name\":\"b\",\"cat\":\"kernel\",\"ph\":\"B\","
		      "\"pid\":5,\"tid\":0,\"ts\":0.000020},\n"
		      "{\"ph\":\"E\",\"pid\":5,\"tid\":0,\"ts\":0.003000},\n"
		      "{\"ph\":\"E\",\"pid\":5,\"tid\":0,\"ts\":0.003000}"));
	ck_assert_ptr_nonnull(strstr(
		text, "{\"name\":\"rmw x\",\"cat\":\"miss\",\"ph\":\"B\","
		      "\"pid\":5,\"tid\":7,\"ts\":0.002000},\n"
		      "{\"ph\":\"E\",\"pid\":5,\"tid\":7,\"ts\":0.003000}"));
	free(text);
}
END_TEST

/*
 * The cap never splits a B from its E. Room for 5 events; 3 nested calls
 * on tid 0 and an access inside the third: its flush writes the B of the
 * first two (each needs room for itself and its E: 2 written, 2 kept),
 * not the third's (2 dropped, and the call is given up: never written);
 * the access, a B and an E, is dropped whole (2 more). The 2 E are
 * written into the room kept for them; an async slice, needing 2, is
 * dropped whole. Expect 2 B, 2 E, 6 dropped.
 */
START_TEST(sim_trace_cap_keeps_pairs)
{
	struct sim_error err;
	struct sim_trace *t;
	char path[128], *text;

	snprintf(path, sizeof(path), "%s/trace.json", tmpdir);
	t = sim_trace_open(path, &err);
	ck_assert_ptr_nonnull(t);
	sim_trace_set_max_events(t, 5);
	sim_trace_run_begin(t, 1, 1000000);
	sim_trace_call_enter(t, 0, "f", "kernel", 0);
	sim_trace_call_enter(t, 0, "g", "kernel", 10);
	sim_trace_call_enter(t, 0, "h", "kernel", 20);
	ck_assert(!sim_trace_leaf(t, 0, "read x", "miss", 25, 30, NULL));
	sim_trace_call_exit(t, 0, 40);
	sim_trace_call_exit(t, 0, 50);
	sim_trace_call_exit(t, 0, 60);
	sim_trace_async(t, 1, 0, "cpu0 posted", "posted", NULL, 70, 80, NULL);
	sim_trace_run_end(t, 1000);
	ck_assert_uint_eq(sim_trace_dropped(t), 6);
	ck_assert_int_eq(sim_trace_close(t, true, &err), 0);
	text = read_all(path);
	ck_assert_int_eq(count_str(text, "\"ph\":\"B\""), 2);
	ck_assert_int_eq(count_str(text, "\"ph\":\"E\""), 2);
	ck_assert_int_eq(count_str(text, "\"ph\":\"b\""), 0);
	ck_assert_ptr_nonnull(strstr(text, "\"dropped_events\":6"));
	free(text);
}
END_TEST

/*
 * Names from input stay valid JSON: "ü" (C3 BC) is kept as UTF-8, a lone
 * C3 (a name cut in the middle of a character) and a stray BC become
 * \ufffd, a control character \u0001.
 */
START_TEST(sim_trace_escapes_utf8)
{
	struct sim_error err;
	struct sim_trace *t;
	char path[128], *text;

	snprintf(path, sizeof(path), "%s/trace.json", tmpdir);
	t = sim_trace_open(path, &err);
	ck_assert_ptr_nonnull(t);
	sim_trace_process(t, 1, "gr\xc3\xbcn \xc3");
	sim_trace_process(t, 2, "\xbc\x01");
	ck_assert_int_eq(sim_trace_close(t, true, &err), 0);
	text = read_all(path);
	ck_assert_ptr_nonnull(strstr(text, "\"name\":\"gr\xc3\xbcn \\ufffd\""));
	ck_assert_ptr_nonnull(strstr(text, "\"name\":\"\\ufffd\\u0001\""));
	free(text);
}
END_TEST

/* Opening in a directory that does not exist fails with the path. */
START_TEST(sim_trace_open_missing_directory)
{
	struct sim_error err;
	char path[160];

	sim_error_clear(&err);
	snprintf(path, sizeof(path), "%s/none/trace.json", tmpdir);
	ck_assert_ptr_null(sim_trace_open(path, &err));
	ck_assert_str_eq(err.file, path);
	ck_assert_ptr_nonnull(strstr(err.msg, strerror(ENOENT)));
}
END_TEST

Suite *report_suite(void);

Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc;

	tc = tcase_create("write");
	tcase_add_test(tc, report_write_csv_two_variants);
	tcase_add_test(tc, report_write_csv_ci_and_quoting);
	tcase_add_test(tc, report_write_yaml_parses_back);
	tcase_add_test(tc, report_write_yaml_quotes_ambiguous_names);
	tcase_add_test(tc, report_write_table_small_exact);
	tcase_add_test(tc, report_write_table_ci_and_baseline);
	tcase_add_test(tc, report_write_table_fits_80_columns_nine_variants);
	tcase_add_test(tc, report_write_zero_baseline_and_gaps);
	tcase_add_test(tc, report_write_empty);
	tcase_add_test(tc, report_write_provenance);
	tcase_add_test(tc, report_write_legend_and_zero_rows);
	tcase_add_test(tc, report_write_within_ci);
	tcase_add_test(tc, report_write_identical_bytes);
	tcase_add_test(tc, report_nonfinite_names_the_metric);
	suite_add_tcase(s, tc);

	tc = tcase_create("atomic");
	tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
	tcase_add_test(tc, sim_write_atomic_writer_fails);
	tcase_add_test(tc, sim_write_atomic_writer_fails_keeps_old);
	tcase_add_test(tc, sim_write_atomic_writes_whole_file);
	tcase_add_test(tc, sim_write_atomic_missing_directory);
	tcase_add_test(tc, sim_read_file_whole_and_limits);
	tcase_add_test(tc, sim_output_check_refuses_inputs);
	suite_add_tcase(s, tc);

	tc = tcase_create("trace");
	tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
	tcase_add_test(tc, sim_trace_exact_text);
	tcase_add_test(tc, sim_trace_parses_back);
	tcase_add_test(tc, sim_trace_close_discards);
	tcase_add_test(tc, sim_trace_cap_drops_and_records);
	tcase_add_test(tc, sim_trace_open_missing_directory);
	tcase_add_test(tc, sim_trace_window_calls_async_flow);
	tcase_add_test(tc, sim_trace_run_end_closes_calls);
	tcase_add_test(tc, sim_trace_cap_keeps_pairs);
	tcase_add_test(tc, sim_trace_escapes_utf8);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(report_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
