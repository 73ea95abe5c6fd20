/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/csv.h - the one CSV reader and writer (RFC 4180).
 *
 * Theory of operation: memcgsim writes CSV for programs (run -f csv, a
 * sweep's points and sweep.csv) and reads it back (compare, plot, merge).
 * The format, as written and as read:
 *
 *	record   = field *("," field) line-end
 *	field    = plain / quoted
 *	plain    = any bytes but ',', '"', LF and NUL (a CR is text
 *	           unless an LF follows it)
 *	quoted   = '"' any bytes but NUL, each '"' doubled '"'
 *	line-end = LF / CR LF
 *
 *	variant,throughput,unit		variant | throughput | unit
 *	"a,""b""",10,ops/s		a,"b"   | 10         | ops/s
 *	"two				two\nlines | (empty) | x
 *	lines",,x
 *
 * The writer quotes a field exactly when it holds a comma, a quote, a CR
 * or an LF, and doubles its quotes; the reader gives back the same bytes,
 * so a writer's fields survive a round trip unchanged.
 *
 * The reader works on a text in memory (the caller reads the file whole,
 * and bounds its size); fields and records have no length limit. Each
 * field keeps the line and column where it starts, for the caller's own
 * errors. Malformed input is refused with the file, line and column of
 * the offending byte:
 *
 *	"a quote in a field that does not start with one"
 *	"expected ',' or the end of the line after a quoted field"
 *	"a quoted field is not closed before the end of the file (truncated?)"
 *				(at its opening quote)
 *	"binary data (a NUL byte)"
 *	"empty line"		unless CSV_BLANK_LINES
 *	"the last line does not end with a newline (truncated?)"
 *				with CSV_NEWLINE_AT_END
 *
 * Layering: sim/ primitive; uses sim/error.h only.
 */
#ifndef SIM_CSV_H
#define SIM_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "sim/error.h"

/* csv_reader_init() flags: what the reader lets pass. */
enum csv_flags {
	CSV_BLANK_LINES = 1 << 0, /* skip empty lines (else refused) */
	CSV_NEWLINE_AT_END = 1 << 1, /* refuse a last line without LF */
	/* skip lines starting with '#' where a record would start: the
	 * "# key: value" provenance lines of a run's CSV (sim/report.h) */
	CSV_COMMENTS = 1 << 2,
};

/**
 * struct csv_field - one field of a record.
 * @text: its bytes, unquoted and NUL-terminated (a field holds no NUL)
 * @line: the one-based line where the field starts
 * @col: the one-based column (byte) where it starts, its quote included
 */
struct csv_field {
	char *text;
	unsigned int line, col;
};

/**
 * struct csv_reader - a CSV text being read, record by record.
 * @fields: the record csv_read_record() last read, @nr_fields of them
 * @nr_fields: at least one after a record was read
 *
 * The other members are the reader's own. Lifetime: embedded,
 * caller-allocated: csv_reader_init() and csv_reader_release(). The text
 * is borrowed and must outlive the reader; @fields belong to the reader
 * and change with every record (csv_take_fields() keeps them).
 */
struct csv_reader {
	struct csv_field *fields;
	unsigned int nr_fields;
	/* private: */
	unsigned int alloc_fields;
	const char *file;
	const char *p, *end, *line_start;
	unsigned int line;
	unsigned int flags;
	char *buf; /* the field being read */
	size_t len, cap;
};

void csv_reader_init(struct csv_reader *r, const char *file, const char *text,
		     size_t len, unsigned int flags);
int csv_read_record(struct csv_reader *r, struct sim_error *err);
struct csv_field *csv_take_fields(struct csv_reader *r, unsigned int *nr);
void csv_fields_free(struct csv_field *fields, unsigned int nr);
void csv_reader_release(struct csv_reader *r);

void csv_write_field(FILE *out, const char *s);

#endif /* SIM_CSV_H */
