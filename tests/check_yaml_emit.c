// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_yaml_emit.c - the libyaml emitter wrapper (sim/yaml_emit.h):
 * the bytes of a small document, which strings are written plain, and the
 * sticky error.
 */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/util.h"
#include "sim/yaml_emit.h"

/*
 * A document with every kind of call, exactly: block and flow
 * collections, a plain key, a u64, a quoted string, and no "---" or
 * "..." (implicit document start and end).
 */
START_TEST(sim_yaml_document_exact)
{
	struct sim_yaml y;
	size_t size;
	char *text;
	FILE *out = open_memstream(&text, &size);

	ck_assert_ptr_nonnull(out);
	sim_yaml_begin(&y, out);
	sim_yaml_map_start(&y, false);
	sim_yaml_plain(&y, "seed");
	sim_yaml_u64(&y, 18446744073709551615ULL);
	sim_yaml_plain(&y, "set");
	sim_yaml_seq_start(&y, true);
	sim_yaml_quoted(&y, "a=1");
	sim_yaml_quoted(&y, "say \"hi\"");
	sim_yaml_seq_end(&y);
	sim_yaml_plain(&y, "at");
	sim_yaml_map_start(&y, true);
	sim_yaml_plain(&y, "k");
	sim_yaml_plain(&y, "8");
	sim_yaml_map_end(&y);
	sim_yaml_plain(&y, "vary");
	sim_yaml_seq_start(&y, false);
	sim_yaml_str(&y, "base");
	sim_yaml_seq_end(&y);
	sim_yaml_map_end(&y);
	ck_assert_int_eq(sim_yaml_end(&y), 0);
	fclose(out);
	ck_assert_str_eq(text, "seed: 18446744073709551615\n"
			       "set: [\"a=1\", \"say \\\"hi\\\"\"]\n"
			       "at: {k: 8}\n"
			       "vary:\n"
			       "- base\n");
	free(text);
}
END_TEST

/*
 * sim_yaml_str(): plain only when the text reads back as the same string;
 * YAML 1.1 booleans and null, numbers, the empty string and indicators
 * are quoted (single quotes, the emitter's choice).
 */
static const struct {
	const char *s, *want;
} strs[] = {
	{ "base", "base" },
	{ "6.0-rc1", "'6.0-rc1'" },
	{ "batch_4", "batch_4" },
	{ "a b", "a b" },
	{ "yes", "'yes'" },
	{ "Off", "'Off'" },
	{ "null", "'null'" },
	{ "1e3", "'1e3'" },
	{ "", "''" },
	{ "a: b", "'a: b'" },
	{ "#x", "'#x'" },
	{ "trailing ", "'trailing '" },
};

START_TEST(sim_yaml_str_quotes_ambiguous)
{
	struct sim_yaml y;
	size_t size;
	char *text, want[64];
	FILE *out = open_memstream(&text, &size);

	ck_assert_ptr_nonnull(out);
	sim_yaml_begin(&y, out);
	sim_yaml_seq_start(&y, false);
	sim_yaml_str(&y, strs[_i].s);
	sim_yaml_seq_end(&y);
	ck_assert_int_eq(sim_yaml_end(&y), 0);
	fclose(out);
	snprintf(want, sizeof(want), "- %s\n", strs[_i].want);
	ck_assert_str_eq(text, want);
	free(text);
}
END_TEST

/*
 * An event out of place (a mapping end where a node belongs) fails the
 * emitter; every later call is a no-op (the events they make are freed,
 * which the sanitizer build checks) and sim_yaml_end() reports EIO.
 */
START_TEST(sim_yaml_error_is_sticky)
{
	struct sim_yaml y;
	size_t size;
	char *text;
	FILE *out = open_memstream(&text, &size);

	ck_assert_ptr_nonnull(out);
	sim_yaml_begin(&y, out);
	ck_assert(!y.failed);
	sim_yaml_map_end(&y);
	ck_assert(y.failed);
	sim_yaml_map_start(&y, false);
	sim_yaml_plain(&y, "k");
	sim_yaml_quoted(&y, "v");
	sim_yaml_map_end(&y);
	errno = 0;
	ck_assert_int_eq(sim_yaml_end(&y), -1);
	ck_assert_int_eq(errno, EIO);
	fclose(out);
	ck_assert_ptr_null(strstr(text, "k"));
	free(text);
}
END_TEST

/* A writer may fail the document itself: nothing more is written. */
START_TEST(sim_yaml_failed_by_writer)
{
	struct sim_yaml y;
	size_t size;
	char *text;
	FILE *out = open_memstream(&text, &size);

	ck_assert_ptr_nonnull(out);
	sim_yaml_begin(&y, out);
	sim_yaml_map_start(&y, false);
	y.failed = true;
	sim_yaml_plain(&y, "k");
	sim_yaml_plain(&y, "v");
	sim_yaml_map_end(&y);
	errno = ENOENT;
	ck_assert_int_eq(sim_yaml_end(&y), -1);
	ck_assert_int_eq(errno, ENOENT); /* the writer's own errno stays */
	fclose(out);
	ck_assert_ptr_null(strstr(text, "k"));
	free(text);
}
END_TEST

static Suite *yaml_emit_suite(void)
{
	Suite *s = suite_create("yaml_emit");
	TCase *tc = tcase_create("emit");

	tcase_add_test(tc, sim_yaml_document_exact);
	tcase_add_loop_test(tc, sim_yaml_str_quotes_ambiguous, 0,
			    ARRAY_SIZE(strs));
	tcase_add_test(tc, sim_yaml_error_is_sticky);
	tcase_add_test(tc, sim_yaml_failed_by_writer);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(yaml_emit_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
