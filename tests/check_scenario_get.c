// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_scenario_get.c - sim/scenario_get.c: the key checks and the
 * typed getters with their unit syntax (times, sizes, CPU lists).
 *
 * Every expected error is written out in full, as the user would see it:
 * "file:line:col: error: message", with the line and column worked out by
 * hand from the YAML text in the test.
 */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario.h"
#include "tests/scenario_test.h"

static const char *const machine_keys[] = { "nr_cpus", "sockets", "numbering" };

/*
 *	machine:
 *	  nr_cpu: 72      <- 2:3
 *
 * Expect the unknown key reported at the key, with the nearest allowed key.
 */
START_TEST(scenario_check_keys_unknown_suggests)
{
	struct scenario_node *root = parse_ok("machine:\n  nr_cpu: 72\n");
	struct sim_error err;

	ck_assert_int_eq(scenario_check_keys(scenario_get(root, "machine"),
					     machine_keys, 3, &err),
			 -1);
	ck_assert_str_eq(err_line(&err),
			 "t.yaml:2:3: error: unknown key "
			 "'nr_cpu' in 'machine'; did you mean 'nr_cpus'?");
	scenario_free(root);
}
END_TEST

/* Expect no suggestion when nothing is near, and "at the top level". */
START_TEST(scenario_check_keys_unknown_top_level)
{
	static const char *const top[] = { "seed", "machine", "workloads" };
	struct scenario_node *root = parse_ok("seed: 1\nbananas: 3\n");
	struct sim_error err;

	ck_assert_int_eq(scenario_check_keys(root, top, 3, &err), -1);
	ck_assert_str_eq(err_line(&err), "t.yaml:2:1: error: unknown key "
					 "'bananas' at the top level");
	scenario_free(root);
	root = parse_ok("seed: 1\nworkload: []\n");
	ck_assert_int_eq(scenario_check_keys(root, top, 3, &err), -1);
	ck_assert_str_eq(err_line(&err),
			 "t.yaml:2:1: error: unknown key "
			 "'workload' at the top level; did you mean "
			 "'workloads'?");
	scenario_free(root);
}
END_TEST

/* Expect a good map accepted and a sequence refused at its mark. */
START_TEST(scenario_check_keys_not_a_map)
{
	struct scenario_node *root;
	struct sim_error err;

	root = parse_ok("machine:\n  nr_cpus: 4\n  sockets: 1\nw: [1]\n");
	ck_assert_int_eq(scenario_check_keys(scenario_get(root, "machine"),
					     machine_keys, 3, &err),
			 0);
	ck_assert_int_eq(scenario_check_keys(scenario_get(root, "w"),
					     machine_keys, 3, &err),
			 -1);
	ck_assert_str_eq(err_line(&err), "t.yaml:4:4: error: key 'w': "
					 "expected a map, found a sequence");
	scenario_free(root);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Getters.                                                            */

/*
 *	workloads:
 *	  - {type: netperf, instances: lots}    'lots' at 2:32
 */
START_TEST(scenario_u64_not_a_number)
{
	struct scenario_node *root, *w;
	struct sim_error err;
	uint64_t v = 7;

	root = parse_ok("workloads:\n  - {type: netperf, instances: lots}\n");
	w = scenario_lookup(root, "workloads.0");
	ck_assert_int_eq(
		scenario_u64(w, "instances", true, 1, 1, 4096, &v, &err), -1);
	ck_assert_str_eq(err_line(&err),
			 "t.yaml:2:32: error: key "
			 "'workloads.0.instances': expected an integer from 1 "
			 "to 4096, found 'lots'");
	ck_assert_uint_eq(v, 7);
	scenario_free(root);
}
END_TEST

/* Expect missing keys reported at the map: 2:5 here, 1:1 at the top. */
START_TEST(scenario_u64_missing_key)
{
	struct scenario_node *root;
	struct sim_error err;
	uint64_t v = 0;

	root = parse_ok("workloads:\n  - {cpus: 1}\n");
	ck_assert_int_eq(scenario_u64(scenario_lookup(root, "workloads.0"),
				      "instances", true, 1, 1, 4096, &v, &err),
			 -1);
	ck_assert_str_eq(err_line(&err), "t.yaml:2:5: error: missing key "
					 "'instances' in 'workloads.0'");
	ck_assert_int_eq(scenario_u64(root, "seed", true, 1, 0, UINT64_MAX, &v,
				      &err),
			 -1);
	ck_assert_str_eq(err_line(&err), "t.yaml:1:1: error: missing key "
					 "'seed' at the top level");
	ck_assert_int_eq(scenario_u64(root, "seed", false, 99, 0, UINT64_MAX,
				      &v, &err),
			 0);
	ck_assert_uint_eq(v, 99);
	ck_assert_int_eq(scenario_u64(NULL, "seed", false, 5, 0, 9, &v, &err),
			 0);
	ck_assert_uint_eq(v, 5);
	ck_assert_int_eq(scenario_u64(NULL, "seed", true, 5, 0, 9, &v, &err),
			 -1);
	ck_assert_str_eq(err_line(&err), "memcgsim: error: missing key 'seed'");
	scenario_free(root);
}
END_TEST

/* Read "v: TEXT" with @fn's getter; return 0 or -1 and the error. */
static int get_one(const char *text, const char **errmsg,
		   int (*fn)(const struct scenario_node *, void *,
			     struct sim_error *),
		   void *out)
{
	static char buf[SIM_ERROR_MSG_MAX + SIM_ERROR_FILE_MAX + 64];
	struct scenario_node *root;
	struct sim_error err;
	char *yaml;
	size_t len;
	int ret;

	len = strlen(text) + 8;
	yaml = malloc(len);
	ck_assert_ptr_nonnull(yaml);
	snprintf(yaml, len, "v: %s\n", text);
	root = parse_ok(yaml);
	free(yaml);
	ret = fn(root, out, &err);
	snprintf(buf, sizeof(buf), "%s", ret ? err_line(&err) : "");
	*errmsg = buf;
	scenario_free(root);
	return ret;
}

static int get_u64(const struct scenario_node *root, void *out,
		   struct sim_error *err)
{
	return scenario_u64(root, "v", true, 0, 1, 4096, out, err);
}

static int get_u64_full(const struct scenario_node *root, void *out,
			struct sim_error *err)
{
	return scenario_u64(root, "v", true, 0, 0, UINT64_MAX, out, err);
}

/* Expect the bounds and the largest u64 accepted. */
START_TEST(scenario_u64_accepted)
{
	const char *msg;
	uint64_t v;

	ck_assert_int_eq(get_one("1", &msg, get_u64, &v), 0);
	ck_assert_uint_eq(v, 1);
	ck_assert_int_eq(get_one("4096", &msg, get_u64, &v), 0);
	ck_assert_uint_eq(v, 4096);
	/* A quoted number is a string (issue 14, item 15). */
	ck_assert_int_eq(get_one("\"17\"", &msg, get_u64, &v), -1);
	ck_assert_str_eq(
		msg,
		"t.yaml:1:4: error: key 'v': expected an integer from 1 to 4096, found the quoted string '17': write it without quotes");
	ck_assert_int_eq(
		get_one("18446744073709551615", &msg, get_u64_full, &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(get_one("0", &msg, get_u64_full, &v), 0);
	ck_assert_uint_eq(v, 0);
}
END_TEST

static const struct {
	const char *text;
	const char *found;
} u64_refused[] = {
	{ "0", "'0'" },
	{ "4097", "'4097'" },
	{ "-1", "'-1'" },
	{ "1.5", "'1.5'" },
	{ "1e3", "'1e3'" },
	{ "0x10", "'0x10'" },
	{ "+5", "'+5'" },
	{ "\" 5\"", "' 5'" },
	{ "18446744073709551616", "'18446744073709551616'" },
	{ "99999999999999999999999999", "'99999999999999999999999999'" },
	{ "\"\"", "nothing" },
	{ "{a: 1}", "a map" },
	{ "[1]", "a sequence" },
	{ "\"a\\tb\"", "'a\\tb'" },
};

/* Expect each refused with what was expected and what was found. */
START_TEST(scenario_u64_out_of_range)
{
	char expect[256];
	const char *msg;
	uint64_t v = 3;

	snprintf(expect, sizeof(expect),
		 "t.yaml:1:4: error: key 'v': "
		 "expected an integer from 1 to 4096, found %s",
		 u64_refused[_i].found);
	ck_assert_int_eq(get_one(u64_refused[_i].text, &msg, get_u64, &v), -1);
	ck_assert_str_eq(msg, expect);
	ck_assert_uint_eq(v, 3);
}
END_TEST

/* Expect long and multi-line values shown cut and on one line. */
START_TEST(scenario_u64_found_is_quoted)
{
	const char *msg;
	uint64_t v;

	ck_assert_int_eq(get_one("|\n  12\n  34", &msg, get_u64, &v), -1);
	ck_assert_str_eq(msg, "t.yaml:1:4: error: key 'v': expected an "
			      "integer from 1 to 4096, found '12\\n34\\n'");
	/* "v: " with nothing: libyaml puts the empty scalar at 1:3. */
	ck_assert_int_eq(get_one("", &msg, get_u64, &v), -1);
	ck_assert_str_eq(msg, "t.yaml:1:3: error: key 'v': expected an "
			      "integer from 1 to 4096, found nothing");
	ck_assert_int_eq(get_one("aaaaaaaaaabbbbbbbbbbcccccccccc"
				 "ddddddddddeeeeeeeeeeffff",
				 &msg, get_u64, &v),
			 -1);
	ck_assert_str_eq(msg,
			 "t.yaml:1:4: error: key 'v': expected an "
			 "integer from 1 to 4096, found 'aaaaaaaaaabbbbbbbbbb"
			 "ccccccccccddddddddddeeeeeeee...'");
}
END_TEST

static int get_double(const struct scenario_node *root, void *out,
		      struct sim_error *err)
{
	return scenario_double(root, "v", true, 0, 0, 1, out, err);
}

/* Expect finite decimals in range; refuse nan, inf, words, out of range. */
START_TEST(scenario_double_values)
{
	static const char *const refused[] = { "nan",	"inf",	  "-inf",
					       "1e999", "abc",	  "-0.1",
					       "1.5",	"0x1p-1", "1.2.3",
					       "''" };
	const char *msg;
	char expect[128];
	double v;
	size_t i;

	ck_assert_int_eq(get_one("0.5", &msg, get_double, &v), 0);
	ck_assert(v == 0.5);
	ck_assert_int_eq(get_one("1e-3", &msg, get_double, &v), 0);
	ck_assert(v == 1e-3);
	ck_assert_int_eq(get_one("1", &msg, get_double, &v), 0);
	ck_assert(v == 1.0);
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(expect, sizeof(expect),
			 "t.yaml:1:4: error: key 'v': "
			 "expected a number from 0 to 1, found %s%s%s",
			 strcmp(refused[i], "''") ? "'" : "",
			 strcmp(refused[i], "''") ? refused[i] : "nothing",
			 strcmp(refused[i], "''") ? "'" : "");
		ck_assert_int_eq(get_one(refused[i], &msg, get_double, &v), -1);
		ck_assert_str_eq(msg, expect);
	}
}
END_TEST

static int get_bool(const struct scenario_node *root, void *out,
		    struct sim_error *err)
{
	return scenario_bool(root, "v", true, false, out, err);
}

/* Expect true/yes/on and false/no/off; refuse anything else. */
START_TEST(scenario_bool_values)
{
	static const char *const yes[] = { "true", "yes", "on" };
	static const char *const no[] = { "false", "no", "off" };
	const char *msg;
	bool v;
	size_t i;

	for (i = 0; i < 3; i++) {
		v = false;
		ck_assert_int_eq(get_one(yes[i], &msg, get_bool, &v), 0);
		ck_assert(v);
		ck_assert_int_eq(get_one(no[i], &msg, get_bool, &v), 0);
		ck_assert(!v);
	}
	ck_assert_int_eq(get_one("maybe", &msg, get_bool, &v), -1);
	ck_assert_str_eq(msg, "t.yaml:1:4: error: key 'v': expected true or "
			      "false, found 'maybe'");
	ck_assert_int_eq(get_one("1", &msg, get_bool, &v), -1);
}
END_TEST

/* Expect the borrowed text, the default, and a map refused. */
START_TEST(scenario_string_values)
{
	struct scenario_node *root;
	struct sim_error err;
	const char *s;

	root = parse_ok("name: \"a b\"\nmap: {x: 1}\n");
	ck_assert_int_eq(scenario_string(root, "name", true, NULL, &s, &err),
			 0);
	ck_assert_str_eq(s, "a b");
	ck_assert_int_eq(scenario_string(root, "other", false, NULL, &s, &err),
			 0);
	ck_assert_ptr_null(s);
	ck_assert_int_eq(scenario_string(root, "map", true, NULL, &s, &err),
			 -1);
	ck_assert_str_eq(err_line(&err), "t.yaml:2:6: error: key 'map': "
					 "expected a string, found a map");
	ck_assert_int_eq(scenario_string(scenario_get(root, "name"), "x", false,
					 NULL, &s, &err),
			 -1);
	ck_assert_str_eq(err_line(&err), "t.yaml:1:7: error: key 'name': "
					 "expected a map, found a scalar");
	scenario_free(root);
}
END_TEST

static const char *const layouts[] = { "v5.0", "v6.0", "split" };

/* Expect the index of the name; an error listing names and the nearest. */
START_TEST(scenario_enum_values)
{
	struct scenario_node *root;
	struct sim_error err;
	unsigned int v = 9;

	root = parse_ok("a: v6.0\nb: v6.1\nc: banana\n");
	ck_assert_int_eq(
		scenario_enum(root, "a", true, 0, layouts, 3, &v, &err), 0);
	ck_assert_uint_eq(v, 1);
	ck_assert_int_eq(
		scenario_enum(root, "z", false, 2, layouts, 3, &v, &err), 0);
	ck_assert_uint_eq(v, 2);
	ck_assert_int_eq(
		scenario_enum(root, "b", true, 0, layouts, 3, &v, &err), -1);
	ck_assert_str_eq(err_line(&err),
			 "t.yaml:2:4: error: key 'b': expected "
			 "one of 'v5.0', 'v6.0', 'split', found 'v6.1'; did "
			 "you mean 'v6.0'?");
	ck_assert_int_eq(
		scenario_enum(root, "c", true, 0, layouts, 3, &v, &err), -1);
	ck_assert_str_eq(err_line(&err),
			 "t.yaml:3:4: error: key 'c': expected "
			 "one of 'v5.0', 'v6.0', 'split', found 'banana'");
	scenario_free(root);
}
END_TEST

static int get_time_ns(const struct scenario_node *root, void *out,
		       struct sim_error *err)
{
	return scenario_time_ps(root, "v", true, 1000, 0, 0, UINT64_MAX, out,
				err);
}

static const struct {
	const char *text;
	uint64_t ps;
} times_ok[] = {
	{ "7.5", 7500 },
	{ "7.5ns", 7500 },
	{ "7.5 ns", 7500 },
	{ "7500ps", 7500 },
	{ "0.001", 1 },
	{ "0.0010000", 1 },
	{ "1800", 1800000 },
	{ "1s", 1000000000000ull },
	{ "2.5ms", 2500000000ull },
	{ "0.000001ms", 1000 },
	{ "3us", 3000000 },
	{ "0", 0 },
	{ "18446744073709551615ps", UINT64_MAX },
	{ "18446744073709551.615", UINT64_MAX },
};

/* Expect exact integer conversion: "7.5" ns is 7500 ps. */
START_TEST(scenario_time_ps_exact)
{
	const char *msg;
	uint64_t v = 1;

	ck_assert_int_eq(get_one(times_ok[_i].text, &msg, get_time_ns, &v), 0);
	ck_assert_uint_eq(v, times_ok[_i].ps);
}
END_TEST

/* Expect fractions of a picosecond, negatives and junk refused. */
START_TEST(scenario_time_ps_refused)
{
	static const char junk[] = "expected a duration in ns, or with a unit "
				   "ps, ns, us, ms or s, found";
	const char *msg;
	char expect[256];
	uint64_t v = 1;

	ck_assert_int_eq(get_one("0.0001", &msg, get_time_ns, &v), -1);
	ck_assert_str_eq(msg, "t.yaml:1:4: error: key 'v': expected a whole "
			      "number of picoseconds, found '0.0001' (in ns)");
	ck_assert_int_eq(get_one("1.5ps", &msg, get_time_ns, &v), -1);
	ck_assert_str_eq(msg, "t.yaml:1:4: error: key 'v': expected a whole "
			      "number of picoseconds, found '1.5ps'");
	ck_assert_int_eq(
		get_one("0.00000000000000000001s", &msg, get_time_ns, &v), -1);
	snprintf(expect, sizeof(expect), "t.yaml:1:4: error: key 'v': %s '-1'",
		 junk);
	ck_assert_int_eq(get_one("-1", &msg, get_time_ns, &v), -1);
	ck_assert_str_eq(msg, expect);
	ck_assert_int_eq(get_one("5 min", &msg, get_time_ns, &v), -1);
	ck_assert_int_eq(get_one("7.", &msg, get_time_ns, &v), -1);
	ck_assert_int_eq(get_one(".5", &msg, get_time_ns, &v), -1);
	ck_assert_int_eq(get_one("1e3", &msg, get_time_ns, &v), -1);
	ck_assert_int_eq(
		get_one("18446744073709551616ps", &msg, get_time_ns, &v), -1);
	ck_assert_str_eq(msg, "t.yaml:1:4: error: key 'v': expected a "
			      "duration, found '18446744073709551616ps'");
	ck_assert_int_eq(get_one("18446744073709552", &msg, get_time_ns, &v),
			 -1);
	ck_assert_uint_eq(v, 1);
}
END_TEST

/* Expect the range stated in the largest exact unit. */
START_TEST(scenario_time_ps_range)
{
	struct scenario_node *root;
	struct sim_error err;
	uint64_t v;

	root = parse_ok("a: 11ms\nb: 0.5\nc: 3\n");
	ck_assert_int_eq(scenario_time_ps(root, "a", true, 1000, 0, 1500,
					  10000000000ull, &v, &err),
			 -1);
	ck_assert_str_eq(err_line(&err),
			 "t.yaml:1:4: error: key 'a': expected "
			 "a duration from 1.5 ns to 10 ms, found '11ms'");
	ck_assert_int_eq(scenario_time_ps(root, "b", true, 1000, 0, 1500,
					  UINT64_MAX, &v, &err),
			 -1);
	ck_assert_str_eq(err_line(&err),
			 "t.yaml:2:4: error: key 'b': expected "
			 "a duration of at least 1.5 ns, found '0.5'");
	ck_assert_int_eq(scenario_time_ps(root, "c", true, 1000000000ull, 0, 0,
					  UINT64_MAX, &v, &err),
			 0);
	ck_assert_uint_eq(v, 3000000000ull);
	ck_assert_int_eq(scenario_time_ps(root, "d", false, 1000, 42, 0,
					  UINT64_MAX, &v, &err),
			 0);
	ck_assert_uint_eq(v, 42);
	scenario_free(root);
}
END_TEST

static int get_size(const struct scenario_node *root, void *out,
		    struct sim_error *err)
{
	return scenario_size(root, "v", true, 0, 64ull << 30, out, err);
}

/* Expect powers of 1024 (K or KiB), a plain B, and "max". */
START_TEST(scenario_size_accepted)
{
	static const struct {
		const char *text;
		uint64_t bytes;
	} ok[] = {
		{ "4096", 4096 },	  { "4K", 4096 },
		{ "4k", 4096 },		  { "4KiB", 4096 },
		{ "4kiB", 4096 },	  { "16G", 16ull << 30 },
		{ "16GiB", 16ull << 30 }, { "2M", 2u << 20 },
		{ "64G", 64ull << 30 },	  { "0", 0 },
		{ "max", 64ull << 30 },	  { "100B", 100 },
	};
	const char *msg;
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		ck_assert_int_eq(get_one(ok[i].text, &msg, get_size, &v), 0);
		ck_assert_uint_eq(v, ok[i].bytes);
	}
}
END_TEST

/* Expect junk, fractions, negatives and too much refused. */
START_TEST(scenario_size_refused)
{
	static const char syntax[] = "t.yaml:1:4: error: key 'v': expected a "
				     "size in bytes with an optional K, M, G "
				     "or T suffix (or KiB, MiB, GiB, TiB: "
				     "powers of 1024), or max, found";
	static const char *const junk[] = { "lots", "1.5G", "-1",   "4 K",
					    "4X",   "G",    "4KIB", "MAX",
					    "4iB",  "4KiBB" };
	char expect[512];
	const char *msg;
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		snprintf(expect, sizeof(expect), "%s '%s'", syntax, junk[i]);
		ck_assert_int_eq(get_one(junk[i], &msg, get_size, &v), -1);
		ck_assert_str_eq(msg, expect);
	}
	/*
	 * 4KB and 16gb: powers of 1000 to some, of 1024 to others; refused,
	 * with both spellings: 16 x 10^9 is 16 and nine zeros.
	 */
	ck_assert_int_eq(get_one("4KB", &msg, get_size, &v), -1);
	snprintf(expect, sizeof(expect),
		 "%s '4KB': K is 2^10 bytes here, as in memory.max; write "
		 "'4K' or '4KiB' for that, or '4000' for 4 x 10^3",
		 syntax);
	ck_assert_str_eq(msg, expect);
	ck_assert_int_eq(get_one("16gB", &msg, get_size, &v), -1);
	snprintf(expect, sizeof(expect),
		 "%s '16gB': G is 2^30 bytes here, as in memory.max; write "
		 "'16g' or '16giB' for that, or '16000000000' for 16 x 10^9",
		 syntax);
	ck_assert_str_eq(msg, expect);
	ck_assert_int_eq(get_one("65G", &msg, get_size, &v), -1);
	ck_assert_str_eq(msg, "t.yaml:1:4: error: key 'v': expected a size of "
			      "at most 64G, found '65G'");
	ck_assert_int_eq(get_one("16777216T", &msg, get_size, &v), -1);
	ck_assert_str_eq(msg, "t.yaml:1:4: error: key 'v': expected a size of "
			      "at most 64G, found '16777216T'");
}
END_TEST

/* ------------------------------------------------------------------ */
/* CPU lists.                                                          */

struct cpus {
	uint64_t mask[2];
	unsigned int order[128];
	unsigned int nr_order;
};

static int get_cpus(const char *text, unsigned int nr_cpus, struct cpus *c,
		    const char **msg)
{
	static char buf[SIM_ERROR_MSG_MAX + SIM_ERROR_FILE_MAX + 64];
	struct scenario_node *root, *w;
	struct sim_error err;
	char yaml[256];
	int ret;

	snprintf(yaml, sizeof(yaml), "workloads:\n  - cpus: %s\n", text);
	root = parse_ok(yaml);
	w = scenario_lookup(root, "workloads.0");
	ret = scenario_cpulist(w, "cpus", true, NULL, nr_cpus, c->mask,
			       c->order, &c->nr_order, &err);
	snprintf(buf, sizeof(buf), "%s", ret ? err_line(&err) : "");
	*msg = buf;
	scenario_free(root);
	return ret;
}

/*
 * "0-3,8,10-11" on 72 CPUs: mask bits 0-3, 8, 10, 11, in that order.
 * "70-71,64, 3" crosses into the second mask word and keeps its order.
 */
START_TEST(scenario_cpulist_accepted)
{
	struct cpus c;
	const char *msg;

	ck_assert_int_eq(get_cpus("0-3,8,10-11", 72, &c, &msg), 0);
	ck_assert_uint_eq(c.mask[0], 0xf | 1u << 8 | 1u << 10 | 1u << 11);
	ck_assert_uint_eq(c.mask[1], 0);
	ck_assert_uint_eq(c.nr_order, 7);
	ck_assert_uint_eq(c.order[4], 8);
	ck_assert_int_eq(get_cpus("70-71,64, 3", 72, &c, &msg), 0);
	ck_assert_uint_eq(c.mask[0], 1u << 3);
	ck_assert_uint_eq(c.mask[1], 1u << 6 | 1u << 7 | 1u << 0);
	ck_assert_uint_eq(c.nr_order, 4);
	ck_assert_uint_eq(c.order[0], 70);
	ck_assert_uint_eq(c.order[2], 64);
	ck_assert_uint_eq(c.order[3], 3);
	ck_assert_int_eq(get_cpus("5", 72, &c, &msg), 0);
	ck_assert_uint_eq(c.mask[0], 1u << 5);
	ck_assert_uint_eq(c.nr_order, 1);
	ck_assert_int_eq(get_cpus("0-127", 128, &c, &msg), 0);
	ck_assert_uint_eq(c.mask[1], UINT64_MAX);
	ck_assert_uint_eq(c.nr_order, 128);
}
END_TEST

/* Value at 2:11 ("  - cpus: X"). Expect each error exact. */
static const struct {
	const char *text;
	unsigned int nr_cpus;
	const char *msg;
} cpulist_refused[] = {
	{ "80", 72, "CPU 80 is out of range: the machine has 72 CPUs (0-71)" },
	{ "0-80", 72,
	  "CPU 80 is out of range: the machine has 72 CPUs "
	  "(0-71)" },
	{ "0-4000000000", 72,
	  "CPU 4000000000 is out of range: the machine "
	  "has 72 CPUs (0-71)" },
	{ "1", 1, "CPU 1 is out of range: the machine has 1 CPU (0)" },
	{ "5-2", 72, "CPU range '5-2' is reversed" },
	{ "1,1", 72, "CPU 1 is listed twice" },
	{ "0-3,2", 72, "CPU 2 is listed twice" },
	{ "\"\"", 72,
	  "expected a cpulist such as '0-3,8,10-11', found "
	  "nothing" },
	{ "abc", 72, "expected a cpulist such as '0-3,8,10-11', found 'abc'" },
	{ "0-", 72, "expected a cpulist such as '0-3,8,10-11', found '0-'" },
	{ "\"0,\"", 72,
	  "expected a cpulist such as '0-3,8,10-11', found "
	  "'0,'" },
	{ "\"0,,1\"", 72,
	  "expected a cpulist such as '0-3,8,10-11', found "
	  "'0,,1'" },
	{ "-1", 72, "expected a cpulist such as '0-3,8,10-11', found '-1'" },
	{ "1-2-3", 72,
	  "expected a cpulist such as '0-3,8,10-11', found "
	  "'1-2-3'" },
	{ "99999999999999999999", 72,
	  "expected a cpulist such as "
	  "'0-3,8,10-11', found '99999999999999999999'" },
	{ "[0, 1]", 72,
	  "expected a cpulist such as '0-3,8,10-11', found a "
	  "sequence" },
};

START_TEST(scenario_cpulist_refused)
{
	char expect[256];
	struct cpus c;
	const char *msg;

	snprintf(expect, sizeof(expect),
		 "t.yaml:2:11: error: key "
		 "'workloads.0.cpus': %s",
		 cpulist_refused[_i].msg);
	ck_assert_int_eq(get_cpus(cpulist_refused[_i].text,
				  cpulist_refused[_i].nr_cpus, &c, &msg),
			 -1);
	ck_assert_str_eq(msg, expect);
}
END_TEST

/* Expect the default used when absent, or an empty set without one. */
START_TEST(scenario_cpulist_default)
{
	struct scenario_node *root = parse_ok("w: {}\n");
	struct sim_error err;
	struct cpus c;

	memset(&c, 0xff, sizeof(c));
	ck_assert_int_eq(scenario_cpulist(scenario_get(root, "w"), "cpus",
					  false, NULL, 72, c.mask, NULL,
					  &c.nr_order, &err),
			 0);
	ck_assert_uint_eq(c.mask[0], 0);
	ck_assert_uint_eq(c.mask[1], 0);
	ck_assert_uint_eq(c.nr_order, 0);
	ck_assert_int_eq(scenario_cpulist(scenario_get(root, "w"), "cpus",
					  false, "2-3", 72, c.mask, c.order,
					  &c.nr_order, &err),
			 0);
	ck_assert_uint_eq(c.mask[0], 0xc);
	ck_assert_uint_eq(c.nr_order, 2);
	ck_assert_int_eq(scenario_cpulist(scenario_get(root, "w"), "cpus",
					  false, "0-71", 4, c.mask, NULL, NULL,
					  &err),
			 -1);
	ck_assert_str_eq(err_line(&err),
			 "t.yaml:1:4: error: key 'w.cpus': "
			 "default '0-71': CPU 71 is out of range: the machine "
			 "has 4 CPUs (0-3)");
	scenario_free(root);
}
END_TEST

Suite *scenario_get_suite(void);

Suite *scenario_get_suite(void)
{
	Suite *s = suite_create("scenario_get");
	TCase *tc;

	tc = tcase_create("check_keys");
	tcase_add_test(tc, scenario_check_keys_unknown_suggests);
	tcase_add_test(tc, scenario_check_keys_unknown_top_level);
	tcase_add_test(tc, scenario_check_keys_not_a_map);
	suite_add_tcase(s, tc);

	tc = tcase_create("getters");
	tcase_add_test(tc, scenario_u64_not_a_number);
	tcase_add_test(tc, scenario_u64_missing_key);
	tcase_add_test(tc, scenario_u64_accepted);
	tcase_add_loop_test(tc, scenario_u64_out_of_range, 0,
			    sizeof(u64_refused) / sizeof(u64_refused[0]));
	tcase_add_test(tc, scenario_u64_found_is_quoted);
	tcase_add_test(tc, scenario_double_values);
	tcase_add_test(tc, scenario_bool_values);
	tcase_add_test(tc, scenario_string_values);
	tcase_add_test(tc, scenario_enum_values);
	tcase_add_loop_test(tc, scenario_time_ps_exact, 0,
			    sizeof(times_ok) / sizeof(times_ok[0]));
	tcase_add_test(tc, scenario_time_ps_refused);
	tcase_add_test(tc, scenario_time_ps_range);
	tcase_add_test(tc, scenario_size_accepted);
	tcase_add_test(tc, scenario_size_refused);
	tcase_add_test(tc, scenario_cpulist_accepted);
	tcase_add_loop_test(tc, scenario_cpulist_refused, 0,
			    sizeof(cpulist_refused) /
				    sizeof(cpulist_refused[0]));
	tcase_add_test(tc, scenario_cpulist_default);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(scenario_get_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
