// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_scenario.c - the scenario YAML loader and overrides (the key
 * checks and typed getters of sim/scenario_get.c: check_scenario_get.c).
 *
 * Every expected error is written out in full, as the user would see it:
 * "file:line:col: error: message", with the line and column worked out by
 * hand from the YAML text in the test. The bad-input corpus in tests/bad/
 * (yaml-*.yaml, each with the expected first error line in a .expect file)
 * is loaded by scenario_load_bad_corpus; it is found through $top_srcdir.
 */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario.h"
#include "tests/scenario_test.h"

static void parse_fails(const char *text, const char *expect)
{
	struct scenario_node *root;
	struct sim_error err;

	root = scenario_parse_string("t.yaml", text, &err);
	ck_assert_ptr_null(root);
	ck_assert_str_eq(err_line(&err), expect);
}

static void check_mark(const struct scenario_node *root, const char *path,
		       enum scenario_kind kind, unsigned int line,
		       unsigned int col)
{
	const struct scenario_node *node = scenario_lookup(root, path);

	ck_assert_msg(node, "no node at '%s'", path);
	ck_assert_str_eq(scenario_path(node), path);
	ck_assert_str_eq(scenario_file(node), "t.yaml");
	ck_assert_int_eq(scenario_kind(node), kind);
	ck_assert_uint_eq(scenario_line(node), line);
	ck_assert_uint_eq(scenario_col(node), col);
}

/* ------------------------------------------------------------------ */
/* Parsing: paths, marks, structure.                                   */

static const char sample[] = "seed: 1\n" /* line 1 */
			     "machine:\n" /* line 2 */
			     "  nr_cpus: 72\n" /* line 3 */
			     "workloads:\n" /* line 4 */
			     "  - type: netperf\n" /* line 5 */
			     "    cpus: 0-3\n" /* line 6 */
			     "  - {type: idle, cpus: 5}\n"; /* line 7 */

/*
 * Expect every node to know its path and one-based mark:
 *	machine.nr_cpus    3:12 ("  nr_cpus: 72": '7' is the 12th column)
 *	workloads          5:3  (the '-' of the block sequence)
 *	workloads.0        5:5  (the first key of the item)
 *	workloads.0.cpus   6:11
 *	workloads.1        7:5  (the '{')
 *	workloads.1.cpus   7:24
 */
START_TEST(scenario_parse_string_paths_and_marks)
{
	struct scenario_node *root = parse_ok(sample);

	check_mark(root, "", SCENARIO_MAP, 1, 1);
	check_mark(root, "seed", SCENARIO_SCALAR, 1, 7);
	check_mark(root, "machine", SCENARIO_MAP, 3, 3);
	check_mark(root, "machine.nr_cpus", SCENARIO_SCALAR, 3, 12);
	check_mark(root, "workloads", SCENARIO_SEQ, 5, 3);
	check_mark(root, "workloads.0", SCENARIO_MAP, 5, 5);
	check_mark(root, "workloads.0.cpus", SCENARIO_SCALAR, 6, 11);
	check_mark(root, "workloads.1", SCENARIO_MAP, 7, 5);
	check_mark(root, "workloads.1.cpus", SCENARIO_SCALAR, 7, 24);
	ck_assert_uint_eq(scenario_len(root), 3);
	ck_assert_str_eq(scenario_key(root, 1), "machine");
	ck_assert_ptr_null(scenario_key(root, 3));
	ck_assert_ptr_eq(scenario_item(root, 1), scenario_get(root, "machine"));
	ck_assert_uint_eq(scenario_len(scenario_get(root, "workloads")), 2);
	ck_assert_str_eq(
		scenario_scalar(scenario_lookup(root, "workloads.1.type")),
		"idle");
	ck_assert_ptr_null(scenario_scalar(scenario_get(root, "machine")));
	ck_assert_ptr_null(scenario_get(root, "nr_cpus"));
	ck_assert_ptr_null(scenario_lookup(root, "workloads.2"));
	ck_assert_ptr_null(scenario_lookup(root, "seed.x"));
	ck_assert_ptr_null(scenario_lookup(root, "workloads.x"));
	scenario_free(root);
}
END_TEST

/*
 *	cgroups:
 *	  /top: {memory.min: 16G, memory: 1}
 *
 * Expect "cgroups./top.memory.min" to find the key "memory.min" (the
 * longest key that matches), not "memory".
 */
START_TEST(scenario_lookup_key_with_dots)
{
	struct scenario_node *root, *node;

	root = parse_ok("cgroups:\n  /top: {memory.min: 16G, memory: 1}\n");
	node = scenario_lookup(root, "cgroups./top.memory.min");
	ck_assert_ptr_nonnull(node);
	ck_assert_str_eq(scenario_scalar(node), "16G");
	ck_assert_str_eq(scenario_path(node), "cgroups./top.memory.min");
	ck_assert_str_eq(
		scenario_scalar(scenario_lookup(root, "cgroups./top.memory")),
		"1");
	scenario_free(root);
}
END_TEST

/* Expect a deep copy with the same paths and marks, sharing nothing. */
START_TEST(scenario_clone_deep_copy)
{
	struct scenario_node *root = parse_ok(sample), *copy;
	struct sim_error err;

	copy = scenario_clone(root);
	ck_assert_ptr_nonnull(copy);
	check_mark(copy, "workloads.1.cpus", SCENARIO_SCALAR, 7, 24);
	ck_assert_int_eq(scenario_set_arg(root, "workloads.1.cpus=9", &err), 0);
	ck_assert_str_eq(
		scenario_scalar(scenario_lookup(copy, "workloads.1.cpus")),
		"5");
	scenario_free(root);
	ck_assert_str_eq(scenario_key(copy, 2), "workloads");
	scenario_free(copy);
}
END_TEST

/* Loader errors: each input and the exact first error line. */
static const struct {
	const char *text;
	const char *expect;
} parse_errors[] = {
	{ "", "t.yaml:1:1: error: empty scenario" },
	{ "# only a comment\n", "t.yaml:1:1: error: empty scenario" },
	{ "---\n", "t.yaml:1:1: error: empty scenario" },
	{ "- 1\n- 2\n", "t.yaml:1:1: error: expected a map at the top level, "
			"found a sequence" },
	{ "\n  42\n", "t.yaml:2:3: error: expected a map at the top level, "
		      "found a scalar" },
	{ "a: 1\nb: c: d\n", "t.yaml:2:5: error: mapping values are not "
			     "allowed in this context" },
	{ "a: 1\nb:\n  c: 1\n  d: 2\n  c: 3\n",
	  "t.yaml:5:3: error: duplicate "
	  "key 'c' in 'b'; first defined on line 3" },
	{ "x: 1\ny: 2\nx: 3\n", "t.yaml:3:1: error: duplicate key 'x' at the "
				"top level; first defined on line 1" },
	{ "w: [{a: 1, a: 2}]\n", "t.yaml:1:12: error: duplicate key 'a' in "
				 "'w.0'; first defined on line 1" },
	{ "a: &x 1\nb: *x\n", "t.yaml:1:4: error: anchors are not supported" },
	{ "a: *x\n", "t.yaml:1:4: error: aliases are not supported" },
	{ "a: 1\n---\nb: 2\n", "t.yaml:2:1: error: multiple documents are "
			       "not supported" },
	{ "a: \"abc\nb: 1\n",
	  "t.yaml:3:1: error: found unexpected end of "
	  "stream while scanning a quoted scalar that began on line 1" },
	{ "a:\n\tb: 1\n", "t.yaml:2:1: error: found a tab character where a "
			  "token was expected; indent with spaces" },
	{ "a: [1, 2\n", "t.yaml:2:1: error: did not find expected ',' or ']' "
			"while parsing a flow sequence that began on line 1" },
	{ "{[1]: 2}\n", "t.yaml:1:2: error: expected a scalar key, found a "
			"sequence" },
	{ "a: 1\n\"\": 2\n", "t.yaml:2:1: error: expected a key of printable "
			     "characters, found an empty key" },
	{ "\"a\\nb\": 2\n", "t.yaml:1:1: error: expected a key of printable "
			    "characters, found 'a\\nb'" },
	{ "a: \"x\\0y\"\n", "t.yaml:1:4: error: a scalar may not contain a "
			    "NUL character" },
	{ "a: caf\xc3\n", "t.yaml:1:8: error: invalid trailing UTF-8 octet "
			  "(byte 0x0a)" },
	{ "a: caf\xc3", "t.yaml:1:7: error: incomplete UTF-8 octet "
			"sequence" },
	{ "a: \xff\n", "t.yaml:1:4: error: invalid leading UTF-8 octet "
		       "(byte 0xff)" },
	{ "a: 1\nb: x\x7fy\n", "t.yaml:2:5: error: control characters are "
			       "not allowed (byte 0x7f)" },
};

/* Expect each malformed scenario to be refused with its exact message. */
START_TEST(scenario_parse_string_refused)
{
	parse_fails(parse_errors[_i].text, parse_errors[_i].expect);
}
END_TEST

static char *nested(unsigned int levels)
{
	char *text = malloc(2 * levels + 8);
	unsigned int i;

	ck_assert_ptr_nonnull(text);
	strcpy(text, "a: ");
	for (i = 0; i < levels; i++)
		text[3 + i] = '[';
	for (i = 0; i < levels; i++)
		text[3 + levels + i] = ']';
	strcpy(text + 3 + 2 * levels, "\n");
	return text;
}

/*
 * The root map is level 1, so "a: [[...]]" with 63 brackets reaches level
 * 64 and is accepted; with 64 the innermost '[' (column 3 + 64) is refused.
 * Expect 100000 levels to be refused just as quickly.
 */
START_TEST(scenario_parse_string_deep_nesting)
{
	struct scenario_node *root;
	char *text;

	text = nested(63);
	root = parse_ok(text);
	scenario_free(root);
	free(text);

	text = nested(64);
	parse_fails(text, "t.yaml:1:67: error: nesting is deeper than 64 "
			  "levels");
	free(text);

	text = nested(100000);
	parse_fails(text, "t.yaml:1:67: error: nesting is deeper than 64 "
			  "levels");
	free(text);
}
END_TEST

/* Expect one byte over 16 MiB to be refused before parsing. */
START_TEST(scenario_parse_buffer_too_large)
{
	size_t len = (16u << 20) + 1;
	struct sim_error err;
	char *buf = malloc(len);

	ck_assert_ptr_nonnull(buf);
	memset(buf, '#', len);
	ck_assert_ptr_null(scenario_parse_buffer("big.yaml", buf, len, &err));
	ck_assert_str_eq(err_line(&err),
			 "big.yaml: error: scenario is larger than 16 MiB");
	free(buf);
}
END_TEST

/* Nasty inputs: any outcome but a crash, a hang or a leak is fine. */
static const struct {
	const char *bytes;
	size_t len;
} garbage[] = {
	{ "\0", 1 },
	{ "a: 1\0b: 2\n", 10 },
	{ "\0\0\0\0\0\0\0\0", 8 },
	{ "\xef\xbb\xbf", 3 },
	{ "\xef\xbb\xbf"
	  "a: 1\n",
	  8 },
	{ "\xff\xfe", 2 },
	{ "\xff\xfe"
	  "a\0:\0 \0"
	  "1",
	  8 },
	{ "\xfe\xff\0", 3 },
	{ "\xc0\x80: 1", 5 },
	{ "a: \xed\xa0\x80\n", 7 },
	{ "a: \xf4\x90\x80\x80\n", 8 },
	{ "{{{{{{{{", 8 },
	{ "]]]]}}}}", 8 },
	{ "? ? ? ? :", 9 },
	{ ": : : :", 7 },
	{ "- - - - -", 9 },
	{ "&a [*a, *a]", 11 },
	{ "*a", 2 },
	{ "&", 1 },
	{ "!", 1 },
	{ "!<>", 3 },
	{ "!!binary ==", 11 },
	{ "%YAML 1.1\n%YAML 1.1\n---\na: 1", 29 },
	{ "%TAG ! !\n---\n!x a: 1", 20 },
	{ "%FOO bar\n", 9 },
	{ "---\n---\n---\n", 12 },
	{ "...\n...\n", 8 },
	{ "'", 1 },
	{ "\"\\", 2 },
	{ "\"\\x", 3 },
	{ "\"\\uD800\"", 8 },
	{ "\"\\U0010FFFF\": 1", 15 },
	{ "a: |\n  x\n \t\n", 11 },
	{ "a: >-\n\n\n", 8 },
	{ "a: |9\n", 6 },
	{ "a:\r\n  b: 1\r\n", 12 },
	{ "a:\rb: 1\r", 8 },
	{ "a: 1 # c\n#\n#", 12 },
	{ "? |\n  x\n: 1", 11 },
	{ "[a, b]: 1", 9 },
	{ "{a: 1}: 2", 9 },
	{ "a: {b: [c, {d: [e]}]", 20 },
	{ "a: b\n  c: d", 11 },
	{ "\t", 1 },
	{ " \t a: 1", 7 },
	{ "a: 1\n\x85"
	  "b: 2",
	  10 },
	{ "a: 1\n\xe2\x80\xa8"
	  "b: 2",
	  12 },
};

static void parse_anything(const void *bytes, size_t len)
{
	struct scenario_node *root;
	struct sim_error err;

	root = scenario_parse_buffer("g.yaml", bytes, len, &err);
	if (root) {
		ck_assert_int_eq(scenario_kind(root), SCENARIO_MAP);
		scenario_free(root);
		return;
	}
	ck_assert_msg(err.msg[0], "no message");
	ck_assert_str_eq(err.file, "g.yaml");
	ck_assert_uint_ge(err.line, 1);
	ck_assert_uint_le(err.line, len + 1);
	ck_assert_ptr_null(strchr(err.msg, '\n'));
}

/* Expect each table entry to be loaded or refused cleanly. */
START_TEST(scenario_parse_buffer_garbage)
{
	parse_anything(garbage[_i].bytes, garbage[_i].len);
}
END_TEST

/*
 * Expect 3000 pseudo-random strings over YAML's special characters (a
 * fixed generator and seed, so every run is the same) to be loaded or
 * refused cleanly.
 */
START_TEST(scenario_parse_buffer_random)
{
	static const char alphabet[] = "ab1: -[]{},?&*!|>'\"#%@`\n\n \t."
				       "\\\0\x80\xc3\xff";
	uint64_t state = 0x9e3779b97f4a7c15ull;
	unsigned char buf[64];
	size_t len, i;
	int n;

	for (n = 0; n < 3000; n++) {
		state = state * 6364136223846793005ull + 1442695040888963407ull;
		len = (state >> 33) % sizeof(buf);
		for (i = 0; i < len; i++) {
			state = state * 6364136223846793005ull +
				1442695040888963407ull;
			buf[i] =
				alphabet[(state >> 33) % (sizeof(alphabet) - 1)];
		}
		parse_anything(buf, len);
	}
}
END_TEST

/* Expect a missing file to be named with strerror(ENOENT). */
START_TEST(scenario_load_file_missing)
{
	char expect[256];
	struct sim_error err;

	snprintf(expect, sizeof(expect),
		 "no/such.yaml: error: cannot open "
		 "scenario: %s",
		 strerror(ENOENT));
	ck_assert_ptr_null(scenario_load_file("no/such.yaml", &err));
	ck_assert_str_eq(err_line(&err), expect);
}
END_TEST

/* Expect a directory to be refused with strerror(EISDIR). */
START_TEST(scenario_load_file_directory)
{
	char expect[256];
	struct sim_error err;

	snprintf(expect, sizeof(expect), ".: error: cannot read scenario: %s",
		 strerror(EISDIR));
	ck_assert_ptr_null(scenario_load_file(".", &err));
	ck_assert_str_eq(err_line(&err), expect);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Overrides.                                                          */

/*
 *	machine: {nr_cpus: 72}   <- set machine.nr_cpus to v.yaml's 4 (2:10)
 *
 * Expect the value replaced, carrying v.yaml's mark and the new path.
 */
START_TEST(scenario_set_replaces_value)
{
	struct scenario_node *root = parse_ok(sample), *v, *node;
	struct sim_error err;

	v = scenario_parse_string("v.yaml", "x: 1\nnr_cpus: 4\n", &err);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(scenario_set(root, "machine.nr_cpus",
				      scenario_get(v, "nr_cpus"), &err),
			 0);
	scenario_free(v);
	node = scenario_lookup(root, "machine.nr_cpus");
	ck_assert_str_eq(scenario_scalar(node), "4");
	ck_assert_str_eq(scenario_file(node), "v.yaml");
	ck_assert_uint_eq(scenario_line(node), 2);
	ck_assert_uint_eq(scenario_col(node), 10);
	ck_assert_str_eq(scenario_path(node), "machine.nr_cpus");
	ck_assert_uint_eq(scenario_len(scenario_get(root, "machine")), 1);
	scenario_free(root);
}
END_TEST

/*
 * Expect "kernel.stock.charge_batch" to create the maps kernel and
 * kernel.stock, then the key, all at the value's mark.
 */
START_TEST(scenario_set_creates_maps)
{
	struct scenario_node *root = parse_ok(sample), *node;
	struct sim_error err;

	ck_assert_int_eq(scenario_set_arg(root, "kernel.stock.charge_batch=64",
					  &err),
			 0);
	node = scenario_get(root, "kernel");
	ck_assert_ptr_nonnull(node);
	ck_assert_int_eq(scenario_kind(node), SCENARIO_MAP);
	ck_assert_str_eq(scenario_path(node), "kernel");
	ck_assert_str_eq(scenario_file(node), "--set");
	node = scenario_lookup(root, "kernel.stock.charge_batch");
	ck_assert_str_eq(scenario_scalar(node), "64");
	ck_assert_str_eq(scenario_path(node), "kernel.stock.charge_batch");
	ck_assert_str_eq(scenario_key(root, 3), "kernel");
	scenario_free(root);
}
END_TEST

/*
 * Replace workloads.1 with a flow map from --set. Expect every copied
 * node re-pathed below workloads.1.
 */
START_TEST(scenario_set_repaths_copy)
{
	struct scenario_node *root = parse_ok(sample), *node;
	struct sim_error err;

	ck_assert_int_eq(scenario_set_arg(root,
					  "workloads.1={type: x, "
					  "cpus: [1, {a: 2}]}",
					  &err),
			 0);
	node = scenario_lookup(root, "workloads.1.cpus.1.a");
	ck_assert_ptr_nonnull(node);
	ck_assert_str_eq(scenario_path(node), "workloads.1.cpus.1.a");
	ck_assert_str_eq(scenario_file(node), "--set");
	ck_assert_uint_eq(scenario_line(node), 0);
	ck_assert_str_eq(
		scenario_path(scenario_lookup(root, "workloads.1.cpus")),
		"workloads.1.cpus");
	/* A non-canonical index still gives the canonical path. */
	ck_assert_int_eq(scenario_set_arg(root, "workloads.01=[]", &err), 0);
	ck_assert_str_eq(scenario_path(scenario_lookup(root, "workloads.1")),
			 "workloads.1");
	scenario_free(root);
}
END_TEST

/* Expect a key that contains dots to be replaced, not split. */
START_TEST(scenario_set_key_with_dots)
{
	struct scenario_node *root, *node;
	struct sim_error err;

	root = parse_ok("cgroups:\n  /top: {memory.min: 16G}\n");
	ck_assert_int_eq(
		scenario_set_arg(root, "cgroups./top.memory.min=1G", &err), 0);
	node = scenario_lookup(root, "cgroups./top");
	ck_assert_uint_eq(scenario_len(node), 1);
	ck_assert_str_eq(scenario_scalar(scenario_get(node, "memory.min")),
			 "1G");
	scenario_free(root);
}
END_TEST

/*
 * A path segment in double quotes is one key, dots and all. The cgroup
 * /top sets memory.min only, so with no quotes "cgroups./top.memory.max"
 * has no longest match and splits at every dot: a key "memory" holding
 * {max: 1M}. Quoted, it adds the key "memory.max" next to "memory.min".
 * Expect lookups through quoted segments to find the same nodes as
 * unquoted ones (the quotes are not part of the key or of the node's
 * path), \" and \\ to stand for a quote and a backslash, and the KEY of
 * KEY=VALUE to end at the first '=' outside quotes.
 */
START_TEST(scenario_set_quoted_segment)
{
	struct scenario_node *root, *top, *node;
	struct sim_error err;

	root = parse_ok("cgroups:\n  /top: {memory.min: 16G}\n");
	ck_assert_ptr_eq(scenario_lookup(root,
					 "cgroups.\"/top\".\"memory.min\""),
			 scenario_lookup(root, "cgroups./top.memory.min"));
	ck_assert_ptr_null(scenario_lookup(root, "cgroups./top.\"memory\""));
	ck_assert_ptr_null(scenario_lookup(root, "\"cgroups./top\""));
	ck_assert_int_eq(
		scenario_set_arg(root, "cgroups./top.\"memory.max\"=1M", &err),
		0);
	top = scenario_lookup(root, "cgroups./top");
	ck_assert_uint_eq(scenario_len(top), 2);
	ck_assert_str_eq(scenario_key(top, 1), "memory.max");
	node = scenario_get(top, "memory.max");
	ck_assert_str_eq(scenario_scalar(node), "1M");
	ck_assert_str_eq(scenario_path(node), "cgroups./top.memory.max");
	ck_assert_ptr_eq(scenario_lookup(root, "cgroups./top.\"memory.max\""),
			 node);
	/* Set again: replaced, not added twice. */
	ck_assert_int_eq(scenario_set_arg(root,
					  "cgroups.\"/top\".\"memory.max\"=2M",
					  &err),
			 0);
	ck_assert_uint_eq(scenario_len(top), 2);
	ck_assert_str_eq(scenario_scalar(scenario_get(top, "memory.max")),
			 "2M");
	/* Unquoted, a missing dotted key splits at its dots. */
	ck_assert_int_eq(
		scenario_set_arg(root, "cgroups./top.memory.high=3M", &err), 0);
	ck_assert_uint_eq(scenario_len(top), 3);
	ck_assert_str_eq(scenario_key(top, 2), "memory");
	ck_assert_str_eq(scenario_scalar(scenario_lookup(top, "memory.high")),
			 "3M");
	/* Escapes, and '=' inside a quoted key. */
	ck_assert_int_eq(scenario_set_arg(root, "\"a\\\"b\\\\c\".x=1", &err),
			 0);
	ck_assert_str_eq(scenario_key(root, 1), "a\"b\\c");
	ck_assert_int_eq(scenario_set_arg(root, "\"k=v\"=w=z", &err), 0);
	ck_assert_str_eq(scenario_key(root, 2), "k=v");
	ck_assert_str_eq(scenario_scalar(scenario_get(root, "k=v")), "w=z");
	/* An index at a sequence is never quoted. */
	scenario_free(root);
	root = parse_ok(sample);
	ck_assert_ptr_null(scenario_lookup(root, "workloads.\"0\".cpus"));
	scenario_free(root);
}
END_TEST

/*
 * Expect a malformed quoted segment to be refused with the usage message,
 * the tree unchanged: not closed, empty, text after the closing quote, a
 * quote that does not start its segment is plain text (and then the key
 * "a\"b" is fine), and an index in quotes.
 */
START_TEST(scenario_set_quoted_refused)
{
	static const char *const bad[] = {
		"cgroups.\"/top=1",    "cgroups.\"\"=1",
		"cgroups.\"/top\"x=1", "cgroups.\"/top\".=1",
		"\"cgroups\"\"x\"=1",
	};
	struct scenario_node *root;
	struct sim_error err;
	char expect[256];
	size_t i;

	root = parse_ok("cgroups:\n  /top: {memory.min: 16G}\n");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(scenario_set_arg(root, bad[i], &err) == -1,
			      "accepted %s", bad[i]);
		if (i == 0) {
			ck_assert_str_eq(err_line(&err),
					 "--set: error: expected KEY=VALUE, "
					 "found 'cgroups.\"/top=1'");
			continue;
		}
		snprintf(expect, sizeof(expect),
			 "--set: error: cannot set '%.*s': expected a dotted "
			 "key path such as 'kernel.charge_batch', a key with "
			 "dots in double quotes (cgroups./a.\"memory.max\")",
			 (int)(strlen(bad[i]) - 2), bad[i]);
		ck_assert_str_eq(err_line(&err), expect);
	}
	ck_assert_uint_eq(scenario_len(root), 1);
	ck_assert_uint_eq(scenario_len(scenario_lookup(root, "cgroups./top")),
			  1);
	ck_assert_int_eq(scenario_set_arg(root, "a\"b=1", &err), 0);
	ck_assert_str_eq(scenario_scalar(scenario_get(root, "a\"b")), "1");
	scenario_free(root);
	root = parse_ok(sample);
	ck_assert_int_eq(scenario_set_arg(root, "workloads.\"0\".cpus=1", &err),
			 -1);
	ck_assert_str_eq(err_line(&err),
			 "--set: error: cannot set 'workloads.\"0\".cpus': "
			 "expected an index into the sequence 'workloads', "
			 "found '\"0\"'");
	scenario_free(root);
}
END_TEST

/*
 *	set:                       (in v.yaml)
 *	  workloads.5.cpus: 1      '1' is at 2:21
 *
 * Expect index and scalar errors at the value's mark, naming the path, and
 * the tree unchanged.
 */
START_TEST(scenario_set_refused)
{
	static const char v_text[] = "set:\n  workloads.5.cpus: 1\n";
	struct scenario_node *root = parse_ok(sample), *v, *value;
	struct sim_error err;

	v = scenario_parse_string("v.yaml", v_text, &err);
	ck_assert_ptr_nonnull(v);
	value = scenario_lookup(v, "set.workloads.5.cpus");
	ck_assert_ptr_nonnull(value);
	ck_assert_int_eq(scenario_set(root, "workloads.5.cpus", value, &err),
			 -1);
	ck_assert_str_eq(err_line(&err),
			 "v.yaml:2:21: error: cannot set "
			 "'workloads.5.cpus': index 5 is out of range: "
			 "'workloads' has 2 items");
	ck_assert_int_eq(scenario_set(root, "seed.x", value, &err), -1);
	ck_assert_str_eq(err_line(&err),
			 "v.yaml:2:21: error: cannot set "
			 "'seed.x': 'seed' is a scalar, not a map");
	ck_assert_int_eq(scenario_set(root, "workloads.first", value, &err),
			 -1);
	ck_assert_str_eq(err_line(&err),
			 "v.yaml:2:21: error: cannot set "
			 "'workloads.first': expected an index into the "
			 "sequence 'workloads', found 'first'");
	ck_assert_int_eq(scenario_set(root, "machine..nr_cpus", value, &err),
			 -1);
	ck_assert_str_eq(err_line(&err),
			 "v.yaml:2:21: error: cannot set "
			 "'machine..nr_cpus': expected a dotted key path such "
			 "as 'kernel.charge_batch', a key with dots in double "
			 "quotes (cgroups./a.\"memory.max\")");
	ck_assert_int_eq(scenario_set(root, "", value, &err), -1);
	ck_assert_int_eq(scenario_set(root, "a.\tb", value, &err), -1);
	scenario_free(v);
	ck_assert_uint_eq(scenario_len(root), 3);
	ck_assert_str_eq(scenario_scalar(scenario_get(root, "seed")), "1");
	scenario_free(root);
}
END_TEST

/*
 * Expect a value taken from the tree being changed, even from inside the
 * node it replaces, to be copied before the old node is freed.
 */
START_TEST(scenario_set_value_from_same_tree)
{
	struct scenario_node *root = parse_ok(sample);
	struct sim_error err;

	ck_assert_int_eq(scenario_set(root, "workloads",
				      scenario_lookup(root, "workloads.1"),
				      &err),
			 0);
	ck_assert_str_eq(
		scenario_scalar(scenario_lookup(root, "workloads.cpus")), "5");
	ck_assert_uint_eq(
		scenario_line(scenario_lookup(root, "workloads.cpus")), 7);
	scenario_free(root);
}
END_TEST

/* Expect 64 levels of path refused, so overrides cannot nest unbounded. */
START_TEST(scenario_set_path_too_deep)
{
	struct scenario_node *root = parse_ok(sample);
	struct sim_error err;
	char arg[256], expect[256];
	int i;

	for (i = 0; i < 64; i++)
		memcpy(arg + 2 * i, "a.", 2);
	snprintf(arg + 128, sizeof(arg) - 128, "b=1");
	snprintf(expect, sizeof(expect),
		 "--set: error: cannot set '%.64s...': "
		 "the key path has more than 64 levels or 1024 bytes",
		 arg);
	ck_assert_int_eq(scenario_set_arg(root, arg, &err), -1);
	ck_assert_str_eq(err_line(&err), expect);
	ck_assert_ptr_null(scenario_get(root, "a"));
	memcpy(arg + 127, "=1", 3); /* 63 dots: accepted */
	ck_assert_int_eq(scenario_set_arg(root, arg, &err), 0);
	scenario_free(root);
}
END_TEST

/* Expect VALUE parsed as YAML: a scalar, a map, a sequence, or empty. */
START_TEST(scenario_set_arg_values)
{
	struct scenario_node *root = parse_ok(sample), *node;
	struct sim_error err;

	ck_assert_int_eq(scenario_set_arg(root, "seed=42", &err), 0);
	ck_assert_str_eq(scenario_scalar(scenario_get(root, "seed")), "42");
	ck_assert_int_eq(scenario_set_arg(root, "machine={nr_cpus: 8}", &err),
			 0);
	ck_assert_str_eq(
		scenario_scalar(scenario_lookup(root, "machine.nr_cpus")), "8");
	ck_assert_int_eq(scenario_set_arg(root, "list=[1, 2]", &err), 0);
	ck_assert_uint_eq(scenario_len(scenario_get(root, "list")), 2);
	ck_assert_int_eq(scenario_set_arg(root, "name=", &err), 0);
	node = scenario_get(root, "name");
	ck_assert_int_eq(scenario_kind(node), SCENARIO_SCALAR);
	ck_assert_str_eq(scenario_scalar(node), "");
	ck_assert_int_eq(scenario_set_arg(root, "eq=a=b", &err), 0);
	ck_assert_str_eq(scenario_scalar(scenario_get(root, "eq")), "a=b");
	scenario_free(root);
}
END_TEST

/*
 * Expect --set errors to print as "--set: error: ...", including a getter's
 * error about a value that came from --set.
 */
START_TEST(scenario_set_arg_refused)
{
	struct scenario_node *root = parse_ok(sample);
	struct sim_error err;
	uint64_t v;

	ck_assert_int_eq(scenario_set_arg(root, "seed", &err), -1);
	ck_assert_str_eq(err_line(&err), "--set: error: expected KEY=VALUE, "
					 "found 'seed'");
	ck_assert_int_eq(scenario_set_arg(root, "=1", &err), -1);
	ck_assert_str_eq(err_line(&err), "--set: error: expected KEY=VALUE, "
					 "found '=1'");
	ck_assert_int_eq(scenario_set_arg(root, "machine={nr_cpus: 8", &err),
			 -1);
	ck_assert_str_eq(err_line(&err),
			 "--set: error: key 'machine': cannot "
			 "parse the value '{nr_cpus: 8': did not find expected "
			 "',' or '}'");
	ck_assert_int_eq(scenario_set_arg(root, "seed=1\n---\n2", &err), -1);
	ck_assert_str_eq(err_line(&err),
			 "--set: error: key 'seed': cannot "
			 "parse the value '1\\n---\\n2': multiple documents "
			 "are not supported");
	ck_assert_int_eq(scenario_set_arg(root, "workloads.0.cpus.x=1", &err),
			 -1);
	ck_assert_str_eq(err_line(&err),
			 "--set: error: cannot set "
			 "'workloads.0.cpus.x': 'workloads.0.cpus' is a "
			 "scalar, not a map");
	ck_assert_int_eq(scenario_set_arg(root, "machine.nr_cpus=lots", &err),
			 0);
	ck_assert_int_eq(scenario_u64(scenario_get(root, "machine"), "nr_cpus",
				      true, 0, 1, 1024, &v, &err),
			 -1);
	ck_assert_str_eq(err_line(&err),
			 "--set: error: key 'machine.nr_cpus': "
			 "expected an integer from 1 to 1024, found 'lots'");
	scenario_free(root);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Keys.                                                               */

/* ------------------------------------------------------------------ */
/* The bad-input corpus: tests/bad/yaml-*.yaml and their .expect.       */

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_corpus_file(const char *name)
{
	size_t len = strlen(name);

	return !strncmp(name, "yaml-", 5) && len > 10 &&
	       !strcmp(name + len - 5, ".yaml");
}

/* The sorted names of the corpus in @dir; returns how many. */
static size_t corpus_names(const char *dir, char ***out)
{
	size_t nr = 0, cap = 0;
	char **names = NULL, **bigger;
	struct dirent *de;
	DIR *d = opendir(dir);

	ck_assert_msg(d, "cannot open %s: %s", dir, strerror(errno));
	for (de = readdir(d); de; de = readdir(d)) {
		if (!is_corpus_file(de->d_name))
			continue;
		if (nr == cap) {
			cap = cap ? 2 * cap : 32;
			bigger = realloc(names, cap * sizeof(*names));
			ck_assert_ptr_nonnull(bigger);
			names = bigger;
		}
		names[nr] = strdup(de->d_name);
		ck_assert_ptr_nonnull(names[nr]);
		nr++;
	}
	closedir(d);
	qsort(names, nr, sizeof(*names), cmp_names);
	*out = names;
	return nr;
}

/* Load @dir/@name and compare the first error with @dir/NAME.expect. */
static void check_corpus_file(const char *dir, const char *name)
{
	char path[1024], expect[2048], actual[2048];
	const char *line;
	size_t dlen = strlen(dir) + 1;
	struct sim_error err;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%.*s.expect", dir,
		 (int)(strlen(name) - 5), name);
	f = fopen(path, "r");
	ck_assert_msg(f, "cannot open %s: %s", path, strerror(errno));
	if (!fgets(expect, sizeof(expect), f))
		expect[0] = '\0';
	fclose(f);
	expect[strcspn(expect, "\n")] = '\0';

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ck_assert_msg(!scenario_load_file(path, &err), "%s loaded", path);
	line = err_line(&err);
	ck_assert_msg(!strncmp(line, path, strlen(path)), "%s: %s", name, line);
	snprintf(actual, sizeof(actual), "%s", line + dlen);
	ck_assert_str_eq(actual, expect);
}

/* Expect every corpus file refused with the first error in its .expect. */
START_TEST(scenario_load_bad_corpus)
{
	const char *top = getenv("top_srcdir");
	char dir[512], **names;
	size_t nr, i;

	snprintf(dir, sizeof(dir), "%s/tests/bad", top && *top ? top : ".");
	nr = corpus_names(dir, &names);
	ck_assert_uint_ge(nr, 20);
	for (i = 0; i < nr; i++) {
		check_corpus_file(dir, names[i]);
		free(names[i]);
	}
	free(names);
}
END_TEST

Suite *scenario_suite(void);

Suite *scenario_suite(void)
{
	Suite *s = suite_create("scenario");
	TCase *tc;

	tc = tcase_create("parse");
	tcase_add_test(tc, scenario_parse_string_paths_and_marks);
	tcase_add_test(tc, scenario_lookup_key_with_dots);
	tcase_add_test(tc, scenario_clone_deep_copy);
	tcase_add_loop_test(tc, scenario_parse_string_refused, 0,
			    sizeof(parse_errors) / sizeof(parse_errors[0]));
	tcase_add_test(tc, scenario_parse_string_deep_nesting);
	tcase_add_test(tc, scenario_parse_buffer_too_large);
	tcase_add_loop_test(tc, scenario_parse_buffer_garbage, 0,
			    sizeof(garbage) / sizeof(garbage[0]));
	tcase_add_test(tc, scenario_parse_buffer_random);
	tcase_add_test(tc, scenario_load_file_missing);
	tcase_add_test(tc, scenario_load_file_directory);
	tcase_add_test(tc, scenario_load_bad_corpus);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	tc = tcase_create("set");
	tcase_add_test(tc, scenario_set_replaces_value);
	tcase_add_test(tc, scenario_set_creates_maps);
	tcase_add_test(tc, scenario_set_repaths_copy);
	tcase_add_test(tc, scenario_set_key_with_dots);
	tcase_add_test(tc, scenario_set_quoted_segment);
	tcase_add_test(tc, scenario_set_quoted_refused);
	tcase_add_test(tc, scenario_set_refused);
	tcase_add_test(tc, scenario_set_value_from_same_tree);
	tcase_add_test(tc, scenario_set_path_too_deep);
	tcase_add_test(tc, scenario_set_arg_values);
	tcase_add_test(tc, scenario_set_arg_refused);
	suite_add_tcase(s, tc);

	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(scenario_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
