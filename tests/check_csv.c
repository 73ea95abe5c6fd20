// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_csv.c - the CSV reader and writer (sim/csv.h).
 *
 * A record read is shown as its fields joined by '|' and ended by ';', so
 * that a table can state a whole text's records on one line:
 *
 *	"a,\"b,c\"\r\nd\n"  ->  "a|b,c;d;"
 *
 * (the inputs use no '|' or ';' of their own).
 */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/csv.h"
#include "sim/util.h"

/* Read @len bytes at @text with @flags; the records as "f|f;f|f;". */
static char *dump(const char *text, size_t len, unsigned int flags,
		  struct sim_error *err, int *ret)
{
	struct csv_reader r;
	unsigned int i;
	size_t size;
	char *out;
	FILE *f = open_memstream(&out, &size);

	ck_assert_ptr_nonnull(f);
	csv_reader_init(&r, "t.csv", text, len, flags);
	sim_error_clear(err);
	for (;;) {
		*ret = csv_read_record(&r, err);
		if (*ret <= 0)
			break;
		ck_assert_uint_ge(r.nr_fields, 1);
		for (i = 0; i < r.nr_fields; i++)
			fprintf(f, "%s%s", i ? "|" : "", r.fields[i].text);
		fputc(';', f);
	}
	csv_reader_release(&r);
	fclose(f);
	return out;
}

/*
 * Well-formed texts and their records. Quoted fields lose their quotes
 * and keep everything inside (commas, doubled quotes as one, line breaks
 * as they are); CRLF ends a line like LF; a CR elsewhere is text.
 */
static const struct {
	const char *text;
	unsigned int flags;
	const char *want;
} good[] = {
	{ "a,b,c\n", 0, "a|b|c;" },
	{ "a,b\nc,d\n", 0, "a|b;c|d;" },
	{ "a,b\r\nc,d\r\n", 0, "a|b;c|d;" },
	{ "\"a,b\",c\n", 0, "a,b|c;" },
	{ "\"say \"\"hi\"\"\",x\n", 0, "say \"hi\"|x;" },
	{ "\"two\nlines\",x\n", 0, "two\nlines|x;" },
	{ "\"a\r\nb\"\r\n", 0, "a\r\nb;" },
	{ ",,\n", 0, "||;" },
	{ "\"\",x\n", 0, "|x;" },
	{ "a\rb,c\n", 0, "a\rb|c;" },
	{ " a , b \n", 0, " a | b ;" },
	{ "a,\n", 0, "a|;" },
	/* Without CSV_NEWLINE_AT_END the last line may lack its LF. */
	{ "a,b", 0, "a|b;" },
	{ "\"a\"", 0, "a;" },
	{ "x\n,", 0, "x;|;" },
	/* CSV_BLANK_LINES skips empty lines, LF or CRLF, anywhere. */
	{ "\na\n\r\n\nb\n\n", CSV_BLANK_LINES, "a;b;" },
	{ "\r\n", CSV_BLANK_LINES, "" },
	{ "", 0, "" },
	{ "a\n", CSV_NEWLINE_AT_END, "a;" },
	/*
	 * CSV_COMMENTS skips lines that start with '#' where a record
	 * starts; a '#' inside a record, or after a field's start, is text.
	 */
	{ "# k: v\n# x\r\na,b\n#c\nd\n", CSV_COMMENTS, "a|b;d;" },
	{ "a,#b\n\"#c\"\n", CSV_COMMENTS, "a|#b;#c;" },
	{ "\"x\n#y\"\n", CSV_COMMENTS, "x\n#y;" },
	{ "# only", CSV_COMMENTS, "" },
	{ "#a,b\n", 0, "#a|b;" },
};

START_TEST(csv_read_record_good)
{
	struct sim_error err;
	char *got;
	int ret;

	got = dump(good[_i].text, strlen(good[_i].text), good[_i].flags, &err,
		   &ret);
	ck_assert_msg(ret == 0, "%s: %s", good[_i].text, err.msg);
	ck_assert_str_eq(got, good[_i].want);
	free(got);
}
END_TEST

/*
 * Malformed texts: refused at the offending byte (an unclosed quoted
 * field at its opening quote), with the file's name.
 */
static const struct {
	const char *text;
	size_t len; /* 0: strlen(text) */
	unsigned int flags;
	unsigned int line, col;
	const char *msg;
} bad[] = {
	{ "a\"b\n", 0, 0, 1, 2,
	  "a quote in a field that does not start with one" },
	{ "x,y\nab,c\"\n", 0, 0, 2, 5,
	  "a quote in a field that does not start with one" },
	{ "\"a\"b\n", 0, 0, 1, 4,
	  "expected ',' or the end of the line after a quoted field" },
	{ "\"a\"\rb\n", 0, 0, 1, 4,
	  "expected ',' or the end of the line after a quoted field" },
	{ "x\n\"abc\n", 0, 0, 2, 1,
	  "a quoted field is not closed before the end of the file (truncated?)" },
	{ "x\ny,\"ab\nc\nd", 0, 0, 2, 3,
	  "a quoted field is not closed before the end of the file (truncated?)" },
	{ "a,b\n\nc\n", 0, 0, 2, 1, "empty line" },
	{ "a,b\r\n\r\nc\n", 0, 0, 2, 1, "empty line" },
	{ "a,b\nc", 0, CSV_NEWLINE_AT_END, 2, 2,
	  "the last line does not end with a newline (truncated?)" },
	{ "a,\"b\"", 0, CSV_NEWLINE_AT_END, 1, 6,
	  "the last line does not end with a newline (truncated?)" },
	{ "a\0b\n", 4, 0, 1, 2, "binary data (a NUL byte)" },
	{ "x\n\"a\0\"\n", 7, 0, 2, 3, "binary data (a NUL byte)" },
};

START_TEST(csv_read_record_bad)
{
	size_t len = bad[_i].len ? bad[_i].len : strlen(bad[_i].text);
	struct sim_error err;
	char *got;
	int ret;

	got = dump(bad[_i].text, len, bad[_i].flags, &err, &ret);
	ck_assert_msg(ret == -1, "accepted: %s", bad[_i].text);
	ck_assert_str_eq(err.msg, bad[_i].msg);
	ck_assert_str_eq(err.file, "t.csv");
	ck_assert_uint_eq(err.line, bad[_i].line);
	ck_assert_uint_eq(err.col, bad[_i].col);
	free(got);
}
END_TEST

/*
 * Where each field starts, for the callers' own errors:
 *
 *	line 1: a,"b      a at 1:1, the quoted field at its quote, 1:3
 *	line 2: c",d      d at 2:4 (after the quoted field's end)
 *	line 3: e         e at 3:1
 */
START_TEST(csv_read_record_positions)
{
	static const char text[] = "a,\"b\nc\",d\r\ne\n";
	static const struct {
		const char *text;
		unsigned int line, col;
	} want[] = {
		{ "a", 1, 1 },
		{ "b\nc", 1, 3 },
		{ "d", 2, 4 },
		{ "e", 3, 1 },
	};
	struct csv_reader r;
	struct sim_error err;
	unsigned int i, n = 0;

	csv_reader_init(&r, "t.csv", text, strlen(text), 0);
	while (csv_read_record(&r, &err) > 0) {
		for (i = 0; i < r.nr_fields; i++, n++) {
			ck_assert_uint_lt(n, ARRAY_SIZE(want));
			ck_assert_str_eq(r.fields[i].text, want[n].text);
			ck_assert_uint_eq(r.fields[i].line, want[n].line);
			ck_assert_uint_eq(r.fields[i].col, want[n].col);
		}
	}
	ck_assert_uint_eq(n, ARRAY_SIZE(want));
	csv_reader_release(&r);
}
END_TEST

/* A record taken over stays the caller's while the reader goes on. */
START_TEST(csv_take_fields_keeps_header)
{
	static const char text[] = "point,variant\n0,base\n1,new\n";
	struct csv_field *head;
	struct csv_reader r;
	struct sim_error err;
	unsigned int nr;

	csv_reader_init(&r, "t.csv", text, strlen(text), 0);
	ck_assert_int_eq(csv_read_record(&r, &err), 1);
	head = csv_take_fields(&r, &nr);
	ck_assert_uint_eq(nr, 2);
	ck_assert_uint_eq(r.nr_fields, 0);
	ck_assert_int_eq(csv_read_record(&r, &err), 1);
	ck_assert_int_eq(csv_read_record(&r, &err), 1);
	ck_assert_str_eq(r.fields[1].text, "new");
	ck_assert_int_eq(csv_read_record(&r, &err), 0);
	ck_assert_str_eq(head[0].text, "point");
	ck_assert_str_eq(head[1].text, "variant");
	csv_fields_free(head, nr);
	csv_reader_release(&r);
}
END_TEST

/* A long field: no line or field length limit. */
START_TEST(csv_read_record_long_field)
{
	const size_t n = 1 << 20;
	char *text = malloc(n + 4);
	struct csv_reader r;
	struct sim_error err;

	ck_assert_ptr_nonnull(text);
	text[0] = '"';
	memset(text + 1, 'x', n);
	memcpy(text + 1 + n, "\"\n", 3);
	csv_reader_init(&r, "t.csv", text, n + 3, CSV_NEWLINE_AT_END);
	ck_assert_int_eq(csv_read_record(&r, &err), 1);
	ck_assert_uint_eq(strlen(r.fields[0].text), n);
	csv_reader_release(&r);
	free(text);
}
END_TEST

/* What the writer makes of one field: quoted only when it must be. */
static const struct {
	const char *field, *want;
} writes[] = {
	{ "plain", "plain" },	    { "", "" },
	{ " spaced ", " spaced " }, { "6.0-rc1/x=1", "6.0-rc1/x=1" },
	{ "a,b", "\"a,b\"" },	    { "say \"hi\"", "\"say \"\"hi\"\"\"" },
	{ "\"", "\"\"\"\"" },	    { "a\nb", "\"a\nb\"" },
	{ "a\rb", "\"a\rb\"" },
};

START_TEST(csv_write_field_quoting)
{
	size_t size;
	char *out;
	FILE *f = open_memstream(&out, &size);

	ck_assert_ptr_nonnull(f);
	csv_write_field(f, writes[_i].field);
	fclose(f);
	ck_assert_str_eq(out, writes[_i].want);
	free(out);
}
END_TEST

/*
 * Every field the writer can be given comes back unchanged from the
 * reader: one record of all of them, then the same again with CRLF.
 */
START_TEST(csv_round_trip)
{
	static const char *const fields[] = {
		"plain", "",	 " spaced ", "a,b",	  "say \"hi\"",
		"\"",	 "\"\"", ",",	     "a\nb",	  "\r\n",
		"a\rb",	 "x\"",	 "\"x",	     "tab\there",
	};
	struct csv_reader r;
	struct sim_error err;
	unsigned int i, rec;
	size_t size;
	char *text;
	FILE *f = open_memstream(&text, &size);

	ck_assert_ptr_nonnull(f);
	for (rec = 0; rec < 2; rec++) {
		for (i = 0; i < ARRAY_SIZE(fields); i++) {
			if (i)
				fputc(',', f);
			csv_write_field(f, fields[i]);
		}
		fputs(rec ? "\r\n" : "\n", f);
	}
	fclose(f);
	csv_reader_init(&r, "t.csv", text, size, CSV_NEWLINE_AT_END);
	for (rec = 0; rec < 2; rec++) {
		ck_assert_int_eq(csv_read_record(&r, &err), 1);
		ck_assert_uint_eq(r.nr_fields, ARRAY_SIZE(fields));
		for (i = 0; i < ARRAY_SIZE(fields); i++)
			ck_assert_str_eq(r.fields[i].text, fields[i]);
	}
	ck_assert_int_eq(csv_read_record(&r, &err), 0);
	csv_reader_release(&r);
	free(text);
}
END_TEST

static Suite *csv_suite(void)
{
	Suite *s = suite_create("csv");
	TCase *tc;

	tc = tcase_create("read");
	tcase_add_loop_test(tc, csv_read_record_good, 0, ARRAY_SIZE(good));
	tcase_add_loop_test(tc, csv_read_record_bad, 0, ARRAY_SIZE(bad));
	tcase_add_test(tc, csv_read_record_positions);
	tcase_add_test(tc, csv_take_fields_keeps_header);
	tcase_add_test(tc, csv_read_record_long_field);
	suite_add_tcase(s, tc);

	tc = tcase_create("write");
	tcase_add_loop_test(tc, csv_write_field_quoting, 0, ARRAY_SIZE(writes));
	tcase_add_test(tc, csv_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(csv_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
