// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/csv.c - the CSV reader and writer (see sim/csv.h).
 *
 * The reader is a loop over the bytes of one record at a time: a field
 * starting with '"' is read by quoted() up to its closing quote, any other
 * by plain() up to a comma or the end of the line; csv_read_record() then
 * expects a comma (another field) or a line end (the record's end). A
 * field's bytes are gathered in one growing buffer and copied out whole.
 */
#define _POSIX_C_SOURCE 200809L /* strdup() */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sim/csv.h"

/**
 * csv_reader_init() - start reading @len bytes of CSV at @text.
 * @r: the reader, caller-allocated
 * @file: the file's name, for errors (borrowed)
 * @text: the CSV text (borrowed; it may hold anything, NULs included)
 * @len: its length in bytes
 * @flags: enum csv_flags
 */
void csv_reader_init(struct csv_reader *r, const char *file, const char *text,
		     size_t len, unsigned int flags)
{
	memset(r, 0, sizeof(*r));
	r->file = file;
	r->p = text;
	r->end = text + len;
	r->line_start = text;
	r->line = 1;
	r->flags = flags;
}

/* Free the fields of the last record. */
static void clear_fields(struct csv_reader *r)
{
	unsigned int i;

	for (i = 0; i < r->nr_fields; i++)
		free(r->fields[i].text);
	r->nr_fields = 0;
}

/**
 * csv_reader_release() - free what @r holds; its text stays the caller's.
 * @r: the reader
 */
void csv_reader_release(struct csv_reader *r)
{
	clear_fields(r);
	free(r->fields);
	free(r->buf);
	r->fields = NULL;
	r->alloc_fields = 0;
	r->buf = NULL;
	r->len = r->cap = 0;
}

/* The one-based column of the byte the reader is at. */
static unsigned int column(const struct csv_reader *r)
{
	return (unsigned int)(r->p - r->line_start) + 1;
}

static int fail(const struct csv_reader *r, unsigned int line, unsigned int col,
		const char *msg, struct sim_error *err)
{
	sim_error_set(err, r->file, line, col, "%s", msg);
	return -1;
}

/* Is the reader at a line end, LF or CR LF? */
static bool at_line_end(const struct csv_reader *r)
{
	return *r->p == '\n' ||
	       (*r->p == '\r' && r->p + 1 < r->end && r->p[1] == '\n');
}

/* Pass the line end the reader is at. */
static void next_line(struct csv_reader *r)
{
	r->p += *r->p == '\r' ? 2 : 1;
	r->line++;
	r->line_start = r->p;
}

/* Append the byte the reader is at to the field, and pass it. */
static int take(struct csv_reader *r, struct sim_error *err)
{
	char *bigger;
	size_t cap;

	if (!*r->p)
		return fail(r, r->line, column(r), "binary data (a NUL byte)",
			    err);
	if (r->len + 1 >= r->cap) {
		cap = r->cap ? r->cap * 2 : 64;
		bigger = realloc(r->buf, cap);
		if (!bigger)
			return fail(r, 0, 0, "out of memory", err);
		r->buf = bigger;
		r->cap = cap;
	}
	r->buf[r->len++] = *r->p;
	if (*r->p == '\n') {
		r->line++;
		r->line_start = r->p + 1;
	}
	r->p++;
	return 0;
}

/* The quoted field the reader is at; stops after its closing quote. */
static int quoted(struct csv_reader *r, struct sim_error *err)
{
	unsigned int line = r->line, col = column(r);

	r->p++;
	for (;;) {
		if (r->p == r->end)
			return fail(
				r, line, col,
				"a quoted field is not closed before the end of the file (truncated?)",
				err);
		if (*r->p == '"') {
			if (r->p + 1 == r->end || r->p[1] != '"') {
				r->p++;
				return 0;
			}
			r->p++; /* a doubled quote is one quote */
		}
		if (take(r, err))
			return -1;
	}
}

/* The unquoted field the reader is at; stops at a comma or a line end. */
static int plain(struct csv_reader *r, struct sim_error *err)
{
	while (r->p < r->end && *r->p != ',' && !at_line_end(r)) {
		if (*r->p == '"')
			return fail(
				r, r->line, column(r),
				"a quote in a field that does not start with one",
				err);
		if (take(r, err))
			return -1;
	}
	return 0;
}

/* Read one field into r->fields[r->nr_fields]. */
static int read_field(struct csv_reader *r, struct sim_error *err)
{
	struct csv_field *f;
	unsigned int n;

	if (r->nr_fields == r->alloc_fields) {
		n = r->alloc_fields ? r->alloc_fields * 2 : 16;
		f = realloc(r->fields, n * sizeof(*f));
		if (!f)
			return fail(r, 0, 0, "out of memory", err);
		r->fields = f;
		r->alloc_fields = n;
	}
	f = &r->fields[r->nr_fields];
	f->line = r->line;
	f->col = column(r);
	r->len = 0;
	if (r->p < r->end && *r->p == '"' ? quoted(r, err) : plain(r, err))
		return -1;
	/* r->buf holds r->len bytes, not a string: copy them, then end it */
	f->text = malloc(r->len + 1);
	if (!f->text)
		return fail(r, 0, 0, "out of memory", err);
	if (r->len)
		memcpy(f->text, r->buf, r->len);
	f->text[r->len] = '\0';
	r->nr_fields++;
	return 0;
}

/*
 * Skip the empty lines before a record, or refuse the first one; and
 * with CSV_COMMENTS, the lines that start with '#'.
 * Return 0, or -1 with @err set.
 */
static int blank_lines(struct csv_reader *r, struct sim_error *err)
{
	for (;;) {
		if (r->p < r->end && *r->p == '#' &&
		    (r->flags & CSV_COMMENTS)) {
			while (r->p < r->end && *r->p != '\n')
				r->p++;
			if (r->p == r->end)
				break;
			next_line(r);
			continue;
		}
		if (r->p == r->end || (*r->p != '\n' && *r->p != '\r'))
			break;
		if (!(r->flags & CSV_BLANK_LINES))
			return fail(r, r->line, 1, "empty line", err);
		if (!at_line_end(r))
			break; /* a CR starting a field */
		next_line(r);
	}
	return 0;
}

/**
 * csv_read_record() - read the next record into @r->fields.
 * @r: the reader
 * @err: filled on failure
 *
 * Return: 1 with a record in @r->fields (at least one field; the fields
 * of the last record are freed), 0 at the end of the text, -1 with @err
 * set (file, line and column) when the text is malformed or memory runs
 * out. After -1 the reader can only be released.
 */
int csv_read_record(struct csv_reader *r, struct sim_error *err)
{
	clear_fields(r);
	if (blank_lines(r, err))
		return -1;
	if (r->p == r->end)
		return 0;
	for (;;) {
		if (read_field(r, err))
			return -1;
		if (r->p == r->end) {
			if (!(r->flags & CSV_NEWLINE_AT_END))
				return 1;
			return fail(
				r, r->line, column(r),
				"the last line does not end with a newline (truncated?)",
				err);
		}
		if (*r->p == ',') {
			r->p++;
			continue;
		}
		if (!at_line_end(r))
			return fail(
				r, r->line, column(r),
				"expected ',' or the end of the line after a quoted field",
				err);
		next_line(r);
		return 1;
	}
}

/**
 * csv_take_fields() - keep the record last read.
 * @r: the reader
 * @nr: set to the number of fields
 *
 * Return: the fields, which are now the caller's (csv_fields_free());
 * the reader goes on with an empty record.
 */
struct csv_field *csv_take_fields(struct csv_reader *r, unsigned int *nr)
{
	struct csv_field *fields = r->fields;

	*nr = r->nr_fields;
	r->fields = NULL;
	r->nr_fields = r->alloc_fields = 0;
	return fields;
}

/* Free @nr fields that csv_take_fields() returned. */
void csv_fields_free(struct csv_field *fields, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		free(fields[i].text);
	free(fields);
}

/**
 * csv_write_field() - write @s as one CSV field.
 * @out: the stream
 * @s: the field's text
 *
 * In double quotes, with its quotes doubled, exactly when it holds a
 * comma, a quote, a CR or an LF; as it is otherwise. The caller writes
 * the commas between fields and the "\n" after the record.
 */
void csv_write_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}
