// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_scenario_keys.c - sim/scenario_keys.c: a table of keys read
 * into a struct (each type into a member of its width, the default when
 * absent, a default or a maximum computed from the keys before it, a
 * custom reader), the first error stopping the loop, and the words the
 * help and the man page print.
 *
 * Every expected error is written out in full, as the user would see it,
 * with the line and column worked out by hand from the YAML text: a key
 * read through the table must be refused exactly as its getter refuses it
 * (the goldens of tests/bad/ depend on it).
 */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario.h"
#include "sim/scenario_keys.h"

#define PS_PER_NS 1000ull
#define PS_PER_MS 1000000000ull

/* sim_error_print()'s output, without the newline. */
static const char *err_line(const struct sim_error *err)
{
	static char line[SIM_ERROR_FILE_MAX + SIM_ERROR_MSG_MAX + 64];
	FILE *f = tmpfile();

	ck_assert_ptr_nonnull(f);
	sim_error_print(f, err);
	rewind(f);
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	return line;
}

static struct scenario_node *parse_ok(const char *text)
{
	struct scenario_node *root;
	struct sim_error err;

	root = scenario_parse_string("t.yaml", text, &err);
	ck_assert_msg(root, "parse failed: %s", err_line(&err));
	return root;
}

/* A struct with a member of every width a table stores. */
struct thing {
	uint64_t count; /* 8 bytes */
	unsigned int window; /* 4 */
	bool fast; /* 1 */
	unsigned int mode; /* an enum, as unsigned int */
	uint64_t work_ps;
	uint64_t bytes;
	double ratio;
	const char *label;
	unsigned int part; /* at most window */
	int custom_calls;
	uint64_t custom_value;
};

static const char *const modes[] = { "slow", "quick", "auto" };

/* count's default: twice the context's number. */
static uint64_t count_default(const void *base, const void *ctx)
{
	(void)base;
	return 2 * *(const unsigned int *)ctx;
}

/* part: at most the window read before it. */
static uint64_t part_max(const void *base, const void *ctx)
{
	(void)ctx;
	return ((const struct thing *)base)->window;
}

/* A custom key: "x" stored as 42, counted, anything else refused. */
static int parse_custom(const struct scenario_node *map,
			const struct scenario_key *key, void *base,
			const void *ctx, struct sim_error *err)
{
	const struct scenario_node *n = scenario_get(map, key->name);
	struct thing *t = base;

	(void)ctx;
	t->custom_calls++;
	if (!n)
		return 0;
	if (!scenario_scalar(n) || strcmp(scenario_scalar(n), "x")) {
		scenario_error(err, n, "custom wants x");
		return -1;
	}
	t->custom_value = 42;
	return 0;
}

enum {
	K_COUNT,
	K_WINDOW,
	K_FAST,
	K_MODE,
	K_WORK,
	K_BYTES,
	K_RATIO,
	K_LABEL,
	K_PART,
	K_CUSTOM,
	K_DOC_ONLY,
	NR_KEYS,
};

static const struct scenario_key keys[NR_KEYS] = {
	[K_COUNT] = { .name = "count",
		      .type = SCENARIO_KEY_U64,
		      SCENARIO_KEY_MEMBER(struct thing, count),
		      .min = 1,
		      .max = 1000,
		      .def_fn = count_default,
		      .def_doc = "twice the context",
		      .doc = "A count" },
	[K_WINDOW] = { .name = "window",
		       .type = SCENARIO_KEY_U64,
		       SCENARIO_KEY_MEMBER(struct thing, window),
		       .min = 1,
		       .max = 4096,
		       .def = 16,
		       .doc = "A window" },
	[K_FAST] = { .name = "fast",
		     .type = SCENARIO_KEY_BOOL,
		     SCENARIO_KEY_MEMBER(struct thing, fast),
		     .def = true,
		     .doc = "Fast" },
	[K_MODE] = { .name = "mode",
		     .type = SCENARIO_KEY_ENUM,
		     SCENARIO_KEY_MEMBER(struct thing, mode),
		     SCENARIO_KEY_NAMES(modes),
		     .def = 2,
		     .doc = "The mode" },
	[K_WORK] = { .name = "work_ns",
		     .type = SCENARIO_KEY_TIME,
		     .required = true,
		     SCENARIO_KEY_MEMBER(struct thing, work_ps),
		     .unit_ps = PS_PER_NS,
		     .min = PS_PER_NS,
		     .max = PS_PER_MS,
		     .doc = "Work" },
	[K_BYTES] = { .name = "bytes",
		      .type = SCENARIO_KEY_SIZE,
		      SCENARIO_KEY_MEMBER(struct thing, bytes),
		      .max = 3776,
		      .def = 100,
		      .doc = "Bytes" },
	[K_RATIO] = { .name = "ratio",
		      .type = SCENARIO_KEY_DOUBLE,
		      SCENARIO_KEY_MEMBER(struct thing, ratio),
		      .dmin = 0,
		      .dmax = 1,
		      .ddef = 0.5,
		      .doc = "A ratio" },
	[K_LABEL] = { .name = "label",
		      .type = SCENARIO_KEY_STRING,
		      SCENARIO_KEY_MEMBER(struct thing, label),
		      .def_str = "none",
		      .doc = "A label" },
	[K_PART] = { .name = "part",
		     .type = SCENARIO_KEY_U64,
		     SCENARIO_KEY_MEMBER(struct thing, part),
		     .min = 0,
		     .max_fn = part_max,
		     .max_doc = "window",
		     .def = 0,
		     .doc = "A part of the window" },
	[K_CUSTOM] = { .name = "custom",
		       .type = SCENARIO_KEY_CUSTOM,
		       .form = "x",
		       .parse = parse_custom,
		       .doc = "Read by its callback" },
	[K_DOC_ONLY] = { .name = "program",
			 .type = SCENARIO_KEY_CUSTOM,
			 .required = true,
			 .form = "list",
			 .doc = "Read by the caller" },
};

static int load(const char *text, struct thing *t, unsigned int ctx,
		struct sim_error *err)
{
	struct scenario_node *root = parse_ok(text);
	int ret;

	memset(t, 0xa5, sizeof(*t)); /* the loop must set every member */
	t->custom_calls = 0;
	t->custom_value = 0;
	ret = scenario_keys_load(scenario_get(root, "w"), keys, NR_KEYS, t,
				 &ctx, err);
	/* SIM: label is borrowed from the tree: compare before freeing */
	if (!ret)
		ck_assert_str_eq(t->label,
				 strstr(text, "label: b") ? "b" : "none");
	scenario_free(root);
	return ret;
}

/*
 * Only the required work_ns given: every other member is its default:
 * count 2 x 5 (def_fn with the context 5), window 16, fast true, mode
 * index 2 ("auto"), bytes 100, ratio 0.5, label "none", part 0; the
 * custom reader is called once and finds nothing.
 */
START_TEST(absent_keys_are_defaults)
{
	struct sim_error err;
	struct thing t;

	sim_error_clear(&err);
	ck_assert_msg(!load("w:\n  work_ns: 7.5\n", &t, 5, &err), "%s",
		      err_line(&err));
	ck_assert_uint_eq(t.count, 10);
	ck_assert_uint_eq(t.window, 16);
	ck_assert(t.fast);
	ck_assert_uint_eq(t.mode, 2);
	ck_assert_uint_eq(t.work_ps, 7500); /* 7.5 ns */
	ck_assert_uint_eq(t.bytes, 100);
	ck_assert_double_eq(t.ratio, 0.5);
	ck_assert_uint_eq(t.part, 0);
	ck_assert_int_eq(t.custom_calls, 1);
	ck_assert_uint_eq(t.custom_value, 0);
}
END_TEST

/* Every key given: each lands in its own member, at its own width. */
START_TEST(each_type_sets_its_member)
{
	struct sim_error err;
	struct thing t;

	sim_error_clear(&err);
	ck_assert_msg(
		!load("w:\n  count: 1000\n  window: 4096\n  fast: false\n"
		      "  mode: quick\n  work_ns: 1ms\n  bytes: 3K\n"
		      "  ratio: 0.25\n  label: b\n  part: 4096\n  custom: x\n",
		      &t, 5, &err),
		"%s", err_line(&err));
	ck_assert_uint_eq(t.count, 1000);
	ck_assert_uint_eq(t.window, 4096);
	ck_assert(!t.fast);
	ck_assert_uint_eq(t.mode, 1);
	ck_assert_uint_eq(t.work_ps, PS_PER_MS);
	ck_assert_uint_eq(t.bytes, 3072);
	ck_assert_double_eq(t.ratio, 0.25);
	ck_assert_uint_eq(t.part, 4096);
	ck_assert_uint_eq(t.custom_value, 42);
}
END_TEST

/*
 * A bad value is refused as its getter refuses it, at the value:
 *
 *	w:
 *	  work_ns: 1
 *	  window: 5000      <- 3:11 ("  window: " is 10 characters)
 *
 * and a required key missing is reported at the map (1:1 is "w", the
 * map's value starts on line 2, column 3).
 */
START_TEST(errors_are_the_getters)
{
	struct sim_error err;
	struct thing t;

	ck_assert_int_eq(
		load("w:\n  work_ns: 1\n  window: 5000\n", &t, 5, &err), -1);
	ck_assert_str_eq(err_line(&err),
			 "t.yaml:3:11: error: key 'w.window': expected an "
			 "integer from 1 to 4096, found '5000'");
	ck_assert_int_eq(load("w:\n  work_ns: 1\n  mode: quik\n", &t, 5, &err),
			 -1);
	ck_assert_str_eq(err_line(&err),
			 "t.yaml:3:9: error: key 'w.mode': expected one of "
			 "'slow', 'quick', 'auto', found 'quik'; did you mean "
			 "'quick'?");
	ck_assert_int_eq(load("w:\n  count: 3\n", &t, 5, &err), -1);
	ck_assert_str_eq(
		err_line(&err),
		"t.yaml:2:3: error: missing key 'work_ns' in 'w': the "
		"work per operation outside the memcg code, calibrated "
		"against a measured baseline (see 'Choosing work_ns' "
		"in the user guide, and memcgsim fit --help)");
	ck_assert_int_eq(load("w:\n  work_ns: 1\n  bytes: 4K\n", &t, 5, &err),
			 -1);
	ck_assert_str_eq(err_line(&err),
			 "t.yaml:3:10: error: key 'w.bytes': expected a size "
			 "of at most 3776, found '4K'");
}
END_TEST

/*
 * The maximum of part is the window read before it (max_fn): 8 is allowed
 * with window 8, 9 is not; the first error stops the loop, so the custom
 * reader after part is not called.
 */
START_TEST(max_from_earlier_key_and_first_error_stops)
{
	struct sim_error err;
	struct thing t;

	sim_error_clear(&err);
	ck_assert_msg(!load("w:\n  work_ns: 1\n  window: 8\n  part: 8\n", &t, 5,
			    &err),
		      "%s", err_line(&err));
	ck_assert_uint_eq(t.part, 8);
	ck_assert_int_eq(load("w:\n  work_ns: 1\n  window: 8\n  part: 9\n"
			      "  custom: x\n",
			      &t, 5, &err),
			 -1);
	ck_assert_str_eq(err_line(&err),
			 "t.yaml:4:9: error: key 'w.part': expected an "
			 "integer from 0 to 8, found '9'");
	ck_assert_int_eq(t.custom_calls, 0);
	ck_assert_int_eq(load("w:\n  work_ns: 1\n  custom: y\n", &t, 5, &err),
			 -1);
	ck_assert_str_eq(err_line(&err),
			 "t.yaml:3:11: error: key 'w.custom': custom wants x");
}
END_TEST

/*
 * scenario_key_get() reads into a variable; scenario_keys_defaults()
 * sets the plain defaults (not def_fn's); the names and find.
 */
START_TEST(get_defaults_names_find)
{
	struct scenario_node *root = parse_ok("w: {window: 12}\n");
	const char *names[NR_KEYS + 1];
	struct sim_error err;
	unsigned int window = 0;
	const char *label = NULL;
	struct thing t;

	ck_assert_int_eq(scenario_key_get(scenario_get(root, "w"),
					  &keys[K_WINDOW], &window, &err),
			 0);
	ck_assert_uint_eq(window, 12);
	ck_assert_int_eq(scenario_key_get(scenario_get(root, "w"),
					  &keys[K_LABEL], &label, &err),
			 0);
	ck_assert_str_eq(label, "none");
	scenario_free(root);

	memset(&t, 0, sizeof(t));
	scenario_keys_defaults(keys, NR_KEYS, &t);
	ck_assert_uint_eq(t.window, 16);
	ck_assert(t.fast);
	ck_assert_uint_eq(t.mode, 2);
	ck_assert_uint_eq(t.bytes, 100);
	ck_assert_double_eq(t.ratio, 0.5);
	ck_assert_str_eq(t.label, "none");

	names[0] = "type";
	ck_assert_uint_eq(scenario_key_names(keys, NR_KEYS, names, 1,
					     NR_KEYS + 1),
			  NR_KEYS + 1);
	ck_assert_str_eq(names[1], "count");
	ck_assert_str_eq(names[NR_KEYS], "program");
	/* no room: stops at max */
	ck_assert_uint_eq(scenario_key_names(keys, NR_KEYS, names, 0, 3), 3);
	ck_assert_ptr_eq(scenario_key_find(keys, NR_KEYS, "ratio"),
			 &keys[K_RATIO]);
	ck_assert_ptr_null(scenario_key_find(keys, NR_KEYS, "rati"));
}
END_TEST

static const char *range(const struct scenario_key *key)
{
	static char buf[128];

	scenario_key_range(key, buf, sizeof(buf));
	return buf;
}

static const char *def(const struct scenario_key *key)
{
	static char buf[128];

	scenario_key_default(key, buf, sizeof(buf));
	return buf;
}

/* The words of `memcgsim help keys` and memcgsim(1). */
START_TEST(words)
{
	struct scenario_key duration = {
		.name = "duration_ms",
		.type = SCENARIO_KEY_TIME,
		.unit_ps = PS_PER_MS,
		.min = 1000000, /* 1 us */
		.max = 10000 * PS_PER_MS,
		.def = PS_PER_MS,
	};
	struct scenario_key latency = {
		.name = "l1_hit",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "{ns, source}",
		.unit_ps = PS_PER_NS,
		.min = 1,
		.max = PS_PER_MS,
		.required = true,
	};

	ck_assert_str_eq(scenario_key_type_name(&keys[K_COUNT]), "integer");
	ck_assert_str_eq(scenario_key_type_name(&keys[K_RATIO]), "number");
	ck_assert_str_eq(scenario_key_type_name(&keys[K_DOC_ONLY]), "list");
	ck_assert_str_eq(range(&keys[K_WINDOW]), "1 to 4096");
	ck_assert_str_eq(def(&keys[K_WINDOW]), "16");
	ck_assert_str_eq(def(&keys[K_COUNT]), "twice the context");
	ck_assert_str_eq(range(&keys[K_FAST]), "true, false");
	ck_assert_str_eq(def(&keys[K_FAST]), "true");
	ck_assert_str_eq(range(&keys[K_MODE]), "slow, quick, auto");
	ck_assert_str_eq(def(&keys[K_MODE]), "auto");
	ck_assert_str_eq(range(&keys[K_WORK]), "1 to 1000000 ns");
	ck_assert_str_eq(def(&keys[K_WORK]), "required");
	ck_assert_str_eq(range(&keys[K_BYTES]), "0 to 3776 bytes");
	ck_assert_str_eq(range(&keys[K_RATIO]), "0 to 1");
	ck_assert_str_eq(def(&keys[K_RATIO]), "0.5");
	ck_assert_str_eq(range(&keys[K_LABEL]), "");
	ck_assert_str_eq(def(&keys[K_LABEL]), "none");
	ck_assert_str_eq(range(&keys[K_PART]), "0 to window");
	ck_assert_str_eq(range(&keys[K_CUSTOM]), "");
	ck_assert_str_eq(def(&keys[K_CUSTOM]), "");
	/* a minimum below the unit is written in the unit that divides it */
	ck_assert_str_eq(range(&duration), "1 us to 10000 ms");
	ck_assert_str_eq(def(&duration), "1 ms");
	ck_assert_str_eq(scenario_key_unit(&duration), "ms");
	ck_assert_str_eq(range(&latency), "1 ps to 1000000 ns");
	ck_assert_str_eq(def(&latency), "required");
}
END_TEST

/*
 * The test table is sound; each flaw of a one-key table is named, with
 * the key: the soundness check is what the other suites run on the real
 * tables (check_workload, check_machine, check_config, check_run).
 */
START_TEST(soundness)
{
	static const char *const one[] = { "only" };
	static const struct {
		struct scenario_key key;
		const char *why;
	} flawed[] = {
		{ { .name = "a", .type = SCENARIO_KEY_U64, .max = 9 },
		  "a: no doc, or a doc ending in '.' (the help adds it)" },
		{ { .name = "a",
		    .type = SCENARIO_KEY_U64,
		    .max = 9,
		    .doc = "Ends." },
		  "a: no doc, or a doc ending in '.' (the help adds it)" },
		{ { .name = "a",
		    .type = SCENARIO_KEY_U64,
		    .size = 2,
		    .max = 9,
		    .doc = "A" },
		  "a: a member size its type does not store" },
		{ { .name = "a",
		    .type = SCENARIO_KEY_ENUM,
		    .size = 1,
		    .names = modes,
		    .nr_names = 3,
		    .doc = "A" },
		  "a: a member size its type does not store" },
		{ { .name = "a",
		    .type = SCENARIO_KEY_ENUM,
		    .size = 4,
		    .doc = "A" },
		  "a: an enum without names" },
		{ { .name = "a",
		    .type = SCENARIO_KEY_ENUM,
		    .size = 4,
		    .names = one,
		    .nr_names = 1,
		    .def = 1,
		    .doc = "A" },
		  "a: a default out of its range" },
		{ { .name = "a",
		    .type = SCENARIO_KEY_TIME,
		    .max = 9,
		    .doc = "A" },
		  "a: a duration without a unit" },
		{ { .name = "a", .type = SCENARIO_KEY_CUSTOM, .doc = "A" },
		  "a: a custom key without a form" },
		{ { .name = "a",
		    .type = SCENARIO_KEY_U64,
		    .min = 2,
		    .max = 1,
		    .def = 2,
		    .doc = "A" },
		  "a: min above max" },
		{ { .name = "a",
		    .type = SCENARIO_KEY_U64,
		    .min = 1,
		    .max = 9,
		    .def = 10,
		    .doc = "A" },
		  "a: a default out of its range" },
		{ { .name = "a",
		    .type = SCENARIO_KEY_U64,
		    .max = 9,
		    .def_fn = count_default,
		    .doc = "A" },
		  "a: a computed default without def_doc" },
		{ { .name = "a",
		    .type = SCENARIO_KEY_U64,
		    .max_fn = part_max,
		    .doc = "A" },
		  "a: a computed maximum without max_doc" },
		{ { .name = "a",
		    .type = SCENARIO_KEY_DOUBLE,
		    .dmax = 1,
		    .ddef = 2,
		    .doc = "A" },
		  "a: a default out of its range" },
	};
	struct scenario_key twice[2] = {
		{ .name = "b", .type = SCENARIO_KEY_BOOL, .doc = "B" },
		{ .name = "b", .type = SCENARIO_KEY_BOOL, .doc = "B" },
	};
	char why[128];
	size_t i;

	ck_assert_msg(!scenario_keys_sound(keys, NR_KEYS, why, sizeof(why)),
		      "%s", why);
	for (i = 0; i < sizeof(flawed) / sizeof(flawed[0]); i++) {
		why[0] = '\0';
		ck_assert_int_eq(scenario_keys_sound(&flawed[i].key, 1, why,
						     sizeof(why)),
				 -1);
		ck_assert_str_eq(why, flawed[i].why);
	}
	ck_assert_int_eq(scenario_keys_sound(twice, 2, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "b: declared twice");
	/* a default given in words may be outside the range (format: 0) */
	twice[1].name = "c";
	ck_assert_int_eq(scenario_keys_sound(twice, 2, why, sizeof(why)), 0);
}
END_TEST

static Suite *scenario_keys_suite(void)
{
	Suite *s = suite_create("scenario_keys");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, absent_keys_are_defaults);
	tcase_add_test(tc, each_type_sets_its_member);
	tcase_add_test(tc, errors_are_the_getters);
	tcase_add_test(tc, max_from_earlier_key_and_first_error_stops);
	tcase_add_test(tc, get_defaults_names_find);
	tcase_add_test(tc, words);
	tcase_add_test(tc, soundness);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(scenario_keys_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
