/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tests/scenario_test.h - what the suites that read scenario text share
 * (check_scenario, check_scenario_get, check_config): an error as the
 * user sees it, and a text that must parse.
 */
#ifndef TESTS_SCENARIO_TEST_H
#define TESTS_SCENARIO_TEST_H

#include <check.h>

#include "sim/error.h"
#include "sim/scenario.h"

/* @err's line as sim_error_print() prints it, without the newline. */
static inline const char *err_line(const struct sim_error *err)
{
	static char line[SIM_ERROR_LINE_MAX];

	sim_error_format(err, line, sizeof(line));
	return line;
}

/* @text, named t.yaml, parsed; the test fails with the error if not. */
static inline struct scenario_node *parse_ok(const char *text)
{
	struct scenario_node *root;
	struct sim_error err;

	root = scenario_parse_string("t.yaml", text, &err);
	ck_assert_msg(root, "parse failed: %s", err_line(&err));
	return root;
}

#endif /* TESTS_SCENARIO_TEST_H */
