// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz/fuzz_measurements.c - calibrate's measurement files, fuzzed: one
 * input is a whole measurement file (memcgsim calibrate --fit FILE),
 * read with cal__read_measurements(); one that is taken is fitted
 * (cal__fit_profile(), the hold window's scan and the hand-off law
 * included) and its profile written and loaded again, as `run --set
 * machine=...` would load it.
 *
 * Findings: a crash or sanitizer report, a leak, a hang (-timeout), a
 * refusal without a message or without its place in the file (file,
 * line and column), a fit that fails without a message or that blames
 * another file than the measurements, or a profile that calibrate writes
 * and its own loader refuses (issue 34, items 4 and 9).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/calibrate/calibrate.h"
#include "fuzz/fuzz.h"

#define MEAS_NAME "m.measurements.yaml"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cal_host h;
	struct cal_plan pl = { 0 };
	struct cal_profile pa = { .h = &h,
				  .pl = &pl,
				  .meas_name = MEAS_NAME,
				  .file = "m.yaml",
				  .name = "m" };
	struct sim_error err;
	char path[FUZZ_PATH_MAX];

	fuzz_sandbox();
	fuzz_write("work/" MEAS_NAME, data, size, path);
	memset(&err, 0, sizeof(err));
	fuzz_enter();
	if (cal__read_measurements(path, &h, &pl, &err)) {
		if (getenv("FUZZ_VERBOSE"))
			sim_error_print(stderr, &err);
		/* Every refusal is located in the file. */
		FUZZ_ASSERT(err.msg[0]);
		FUZZ_ASSERT(!strcmp(err.file, path));
		FUZZ_ASSERT(err.line >= 1 && err.col >= 1);
		FUZZ_ASSERT(pl.points == NULL);
		fuzz_leave();
		return 0;
	}
	h.numbering_matches = true; /* as calibrate --fit */
	if (cal__fit_profile(&pa, &err)) {
		if (getenv("FUZZ_VERBOSE"))
			sim_error_print(stderr, &err);
		/* A fit that fails blames the measurements, never an output. */
		FUZZ_ASSERT(err.msg[0]);
		FUZZ_ASSERT(strcmp(err.file, pa.file));
	} else {
		/* What calibrate writes, its own loader takes (item 9). */
		FUZZ_ASSERT(cal__profile_loads(&pa, &err) == 0);
	}
	fuzz_leave();
	free(pl.points);
	return 0;
}
