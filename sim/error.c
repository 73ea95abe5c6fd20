// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/error.c - user-input errors and simulator assertions.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/error.h"

void sim_error_clear(struct sim_error *err)
{
	memset(err, 0, sizeof(*err));
}

void sim_error_vset(struct sim_error *err, const char *file,
		    unsigned int line, unsigned int col, const char *fmt,
		    va_list ap)
{
	snprintf(err->file, sizeof(err->file), "%s", file ? file : "");
	err->line = line;
	err->col = col;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
}

void sim_error_set(struct sim_error *err, const char *file, unsigned int line,
		   unsigned int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sim_error_vset(err, file, line, col, fmt, ap);
	va_end(ap);
}

void sim_error_print(FILE *out, const struct sim_error *err)
{
	if (err->file[0] && err->line)
		fprintf(out, "%s:%u:%u: error: %s\n", err->file, err->line,
			err->col, err->msg);
	else if (err->file[0])
		fprintf(out, "%s: error: %s\n", err->file, err->msg);
	else
		fprintf(out, "memcgsim: error: %s\n", err->msg);
}

unsigned int sim_levenshtein(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned int row[64], prev, tmp;
	size_t i, j;

	/* Keys are short; longer words are simply "far". */
	if (lb >= 64 || la >= 64)
		return 64;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			unsigned int best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

/*
 * sim_nearest() - the choice closest to @word, or NULL when none is close
 * enough to be a plausible typo (distance at most a third of the length,
 * and at least 2 allowed).
 */
const char *sim_nearest(const char *word, const char *const *choices,
			unsigned int nr_choices)
{
	const char *best = NULL;
	unsigned int best_d = ~0u, i, limit;

	for (i = 0; i < nr_choices; i++) {
		unsigned int d = sim_levenshtein(word, choices[i]);

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
