/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tests/machine_test.h - what the suites that need a cited machine
 * profile share: loading scenarios/machines/NAME.yaml from the source
 * tree (top_srcdir, as make check sets it), failing the test with the
 * located error if it does not load.
 */
#ifndef TESTS_MACHINE_TEST_H
#define TESTS_MACHINE_TEST_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "models/hw/machine.h"
#include "sim/error.h"

static inline void load_profile(const char *name, struct machine *m)
{
	const char *top = getenv("top_srcdir");
	struct sim_error err;
	char path[512];

	snprintf(path, sizeof(path), "%s/scenarios/machines/%s.yaml",
		 top && top[0] ? top : ".", name);
	sim_error_clear(&err);
	ck_assert_msg(machine_load_file(m, path, &err) == 0, "%s: %s:%u:%u: %s",
		      path, err.file, err.line, err.col, err.msg);
}

#endif /* TESTS_MACHINE_TEST_H */
