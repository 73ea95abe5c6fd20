// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz/fuzz_pahole.c - the pahole parser, fuzzed: one input is a file of
 * `pahole -C` text, read with pahole_load() as a scenario's
 * `page_counter_pahole:` is, once for its first struct and once for
 * struct page_counter; a page_counter found is then turned into a layout
 * (page_counter_layout_from_pahole()).
 *
 * Findings: a crash or sanitizer report, a leak, a hang, a refusal without
 * a message or a location in the file, a parsed struct that breaks the
 * invariants pahole.h promises (names unique and non-empty, every member
 * inside the struct), or a page_counter read differently when it is
 * asked for by name than when it is the first struct.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "sim/pahole.h"
#include "models/kernel/sim/page_counter_layout.h"

/* The invariants sim/pahole.h states for a parsed struct. */
static void check_struct(const struct pahole_struct *ps)
{
	unsigned int i, j;

	FUZZ_ASSERT(ps->nr_fields <= PAHOLE_MAX_FIELDS);
	FUZZ_ASSERT(ps->name[0] && memchr(ps->name, '\0', PAHOLE_NAME_MAX));
	for (i = 0; i < ps->nr_fields; i++) {
		const struct pahole_field *f = &ps->fields[i];

		FUZZ_ASSERT(f->name[0] &&
			    memchr(f->name, '\0', PAHOLE_NAME_MAX));
		FUZZ_ASSERT((unsigned long long)f->offset + f->size <=
			    ps->size);
		FUZZ_ASSERT(f->line >= 1);
		for (j = 0; j < i; j++)
			FUZZ_ASSERT(strcmp(f->name, ps->fields[j].name));
		FUZZ_ASSERT(pahole_field(ps, f->name) == f);
	}
}

/* Whether @a and @b say the same (names compared as strings). */
static bool same_struct(const struct pahole_struct *a,
			const struct pahole_struct *b)
{
	unsigned int i;

	if (strcmp(a->name, b->name) || a->size != b->size ||
	    a->nr_fields != b->nr_fields)
		return false;
	for (i = 0; i < a->nr_fields; i++) {
		const struct pahole_field *x = &a->fields[i],
					  *y = &b->fields[i];

		if (strcmp(x->name, y->name) || x->offset != y->offset ||
		    x->size != y->size || x->line != y->line)
			return false;
	}
	return true;
}

/* A refusal names the file, and says what is wrong. */
static void check_error(const struct sim_error *err, const char *path)
{
	FUZZ_ASSERT(err->msg[0]);
	FUZZ_ASSERT(!strcmp(err->file, path));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pahole_struct *ps = malloc(sizeof(*ps));
	struct pahole_struct *first = malloc(sizeof(*first));
	struct page_counter_layout layout;
	struct sim_error err;
	char path[FUZZ_PATH_MAX];
	bool first_is_pc = false;

	FUZZ_ASSERT(ps && first);
	fuzz_write("work/pahole.txt", data, size, path);
	fuzz_enter();
	if (pahole_load(path, NULL, first, &err)) {
		check_error(&err, path);
	} else {
		check_struct(first);
		first_is_pc = !strcmp(first->name, "page_counter");
	}
	if (pahole_load(path, "page_counter", ps, &err)) {
		check_error(&err, path);
		/* the first struct, page_counter, read fine the first time */
		FUZZ_ASSERT(!first_is_pc);
	} else {
		/* the same text, the same struct: the same result */
		FUZZ_ASSERT(!first_is_pc || same_struct(ps, first));
		check_struct(ps);
		FUZZ_ASSERT(!strcmp(ps->name, "page_counter"));
		if (page_counter_layout_from_pahole(ps, path, &layout, &err))
			FUZZ_ASSERT(err.msg[0]);
	}
	fuzz_leave();
	free(first);
	free(ps);
	return 0;
}
