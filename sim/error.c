// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/error.c - user-input errors and simulator assertions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/error.h"

void sim_error_clear(struct sim_error *err)
{
	memset(err, 0, sizeof(*err));
}

/*
 * escape() - copy @s to @buf, @size bytes at most, with what must not reach
 * a terminal raw written out: control characters (C0 but tab, DEL, C1) as \xNN, and the bidirectional-text
 * controls U+202A-U+202E and U+2066-U+2069 as \uNNNN. A message quotes file
 * names, keys and values from the input; this keeps them inert.
 */
static void escape(char *buf, size_t size, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	for (; *p && n + 7 < size; p++) {
		if ((*p < 0x20 && *p != '\t') || *p == 0x7f) {
			n += (size_t)snprintf(buf + n, size - n, "\\x%02x", *p);
		} else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			n += (size_t)snprintf(buf + n, size - n, "\\u%04x",
					      p[1]);
			p++;
		} else if (p[0] == 0xe2 &&
			   ((p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae) ||
			    (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9))) {
			n += (size_t)snprintf(buf + n, size - n, "\\u%04x",
					      0x2000 + ((p[1] & 0x3f) << 6) +
						      (p[2] & 0x3f));
			p += 2;
		} else {
			buf[n++] = (char)*p;
		}
	}
	buf[n] = '\0';
}

/**
 * sim_escape() - @s made safe for a terminal, as errors quote it.
 * @buf: where to write it
 * @size: its size: a longer @s is cut
 * @s: a file name, a name from the input
 *
 * Return: @buf, for use as a printf argument.
 */
const char *sim_escape(char *buf, size_t size, const char *s)
{
	escape(buf, size, s ? s : "");
	return buf;
}

void sim_error_vset(struct sim_error *err, const char *file, unsigned int line,
		    unsigned int col, const char *fmt, va_list ap)
{
	char raw[SIM_ERROR_MSG_MAX];

	escape(err->file, sizeof(err->file), file ? file : "");
	err->line = line;
	err->col = col;
	vsnprintf(raw, sizeof(raw), fmt, ap);
	escape(err->msg, sizeof(err->msg), raw);
}

void sim_error_set(struct sim_error *err, const char *file, unsigned int line,
		   unsigned int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sim_error_vset(err, file, line, col, fmt, ap);
	va_end(ap);
}

void sim_error_format(const struct sim_error *err, char *buf, size_t len)
{
	if (err->file[0] && err->line)
		snprintf(buf, len, "%s:%u:%u: error: %s", err->file, err->line,
			 err->col, err->msg);
	else if (err->file[0])
		snprintf(buf, len, "%s: error: %s", err->file, err->msg);
	else
		snprintf(buf, len, "memcgsim: error: %s", err->msg);
}

/**
 * sim_control_char() - what a text from the input may not hold, or NULL.
 * @what: where to write the phrase
 * @size: its size (64 bytes hold every phrase)
 * @s: the text
 * @len: its length in bytes
 * @allow_newline: whether tab and newline are allowed (a description)
 *
 * Refused are control characters (C0, DEL, the C1 controls U+0080-U+009F)
 * and the bidirectional-text controls U+202A-U+202E and U+2066-U+2069:
 * names and descriptions reach terminal tables and data files, and these
 * would rewrite the screen, ring its bell or reorder what it shows.
 *
 * Return: @what, a phrase for messages ("the control character \\x1b"),
 * or NULL when @s is clean.
 */
const char *sim_control_char(char *what, size_t size, const unsigned char *s,
			     size_t len, bool allow_newline)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if ((c < 0x20 &&
		     !(allow_newline && (c == '\t' || c == '\n'))) ||
		    c == 0x7f) {
			snprintf(what, size, "the control character \\x%02x",
				 c);
			return what;
		}
		if (c == 0xc2 && i + 1 < len && s[i + 1] >= 0x80 &&
		    s[i + 1] <= 0x9f) {
			snprintf(what, size, "the control character U+%04X",
				 s[i + 1]);
			return what;
		}
		if (c == 0xe2 && i + 2 < len &&
		    ((s[i + 1] == 0x80 && s[i + 2] >= 0xaa &&
		      s[i + 2] <= 0xae) ||
		     (s[i + 1] == 0x81 && s[i + 2] >= 0xa6 &&
		      s[i + 2] <= 0xa9))) {
			snprintf(what, size,
				 "the bidirectional-text control U+%04X",
				 0x2000 + ((s[i + 1] & 0x3f) << 6) +
					 (s[i + 2] & 0x3f));
			return what;
		}
	}
	return NULL;
}

void sim_error_print(FILE *out, const struct sim_error *err)
{
	char line[SIM_ERROR_LINE_MAX];

	sim_error_format(err, line, sizeof(line));
	fprintf(out, "%s\n", line);
}

/*
 * sim_levenshtein() - edit distance with adjacent transpositions counted
 * as one edit (optimal string alignment): "skx-2s-27" is one edit from
 * "skx-2s-72", a typical typo.
 */
unsigned int sim_levenshtein(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned int d[64][64];

	/* Keys are short; longer words are simply "far". */
	if (la >= 64 || lb >= 64)
		return 64;
	for (i = 0; i <= la; i++)
		d[i][0] = (unsigned int)i;
	for (j = 0; j <= lb; j++)
		d[0][j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			unsigned int best =
				d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

/*
 * sim_nearest() - the choice closest to @word, or NULL when none is close
 * enough to be a plausible typo (edit distance at most a third of the
 * length, and at least 2 allowed; one word a prefix of the other counts
 * as distance 1). Ties go to the first choice.
 */
/*
 * Whether @word is @choice with letters left out, the way a name is
 * shortened ("thruput" for "throughput"): the same first letter, at
 * least 4 letters, every letter in order, and at least half of @choice.
 */
static bool shortened(const char *word, const char *choice)
{
	size_t lw = strlen(word), lc = strlen(choice);
	const char *c = choice;

	if (lw < 4 || lw >= lc || 2 * lw < lc || *word != *choice)
		return false;
	for (; *word; word++) {
		c = strchr(c, *word);
		if (!c)
			return false;
		c++;
	}
	return true;
}

const char *sim_nearest(const char *word, const char *const *choices,
			unsigned int nr_choices)
{
	const char *best = NULL;
	unsigned int best_d = ~0u, i, limit;

	for (i = 0; i < nr_choices; i++) {
		unsigned int d = sim_levenshtein(word, choices[i]);
		size_t lw = strlen(word), lc = strlen(choices[i]);

		/* "duration" for "duration_ms": a prefix is a near miss. */
		if (lw >= 3 && lc >= 3 &&
		    !strncmp(word, choices[i], lw < lc ? lw : lc))
			d = 1;
		/* "thruput" for "throughput": a shortening is a near miss. */
		else if (d > 2 && shortened(word, choices[i]))
			d = 2;

		if (d < best_d) {
			best_d = d;
			best = choices[i];
		}
	}
	limit = strlen(word) / 3;
	if (limit < 2)
		limit = 2;
	return best_d <= limit ? best : NULL;
}

void sim_assert_failed(const char *file, const char *func, int line,
		       const char *expr)
{
	/* Place a debugger breakpoint here. */
	fprintf(stderr, "memcgsim: BUG at %s:%d in %s(): %s\n", file, line,
		func, expr);
	abort();
}

/* global: sim_out_of_memory() unwinds from any depth to sim_catch_oom() */
static jmp_buf *oom_env;
static char oom_where[128];

jmp_buf *sim_oom_catch(jmp_buf *env)
{
	jmp_buf *prev = oom_env;

	oom_env = env;
	return prev;
}

void sim_oom_restore(jmp_buf *prev)
{
	oom_env = prev;
}

const char *sim_oom_where(void)
{
	return oom_where;
}

/*
 * sim_out_of_memory() - an allocation in @func of @file failed: unwind to
 * the sim_oom_catch() point. With none (a Check suite), say so and abort.
 */
void sim_out_of_memory(const char *file, const char *func)
{
	(void)file; /* an absolute path in out-of-tree builds */
	snprintf(oom_where, sizeof(oom_where), "%s()", func);
	if (oom_env)
		longjmp(*oom_env, 1);
	fprintf(stderr, "memcgsim: error: out of memory in %s\n", oom_where);
	abort();
}

/**
 * sim_oom_main() - @fn(@argc, @argv), with an allocation that fails where
 * nothing closer catches it an error: "memcgsim: error: out of memory in
 * FUNCTION()" on standard error, and @status returned.
 * @fn: main's body
 * @argc: main's
 * @argv: main's
 * @status: the exit status on out of memory
 */
int sim_oom_main(int (*fn)(int argc, char **argv), int argc, char **argv,
		 int status)
{
	jmp_buf env;

	if (setjmp(env)) {
		oom_env = NULL;
		fprintf(stderr, "memcgsim: error: out of memory in %s\n",
			oom_where);
		return status;
	}
	oom_env = &env;
	return fn(argc, argv);
}
