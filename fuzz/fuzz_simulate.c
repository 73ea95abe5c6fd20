// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz/fuzz_simulate.c - the simulation, fuzzed: one input is a whole
 * scenario file, loaded as fuzz_scenario.c loads it and then run, each
 * variant within a budget of FUZZ_MAX_EVENTS events (and as many
 * operations and loop iterations done without events: --max-events) and
 * FUZZ_MAX_MEMORY bytes (--max-memory). A run the budget would not hold
 * is stopped after its first FUZZ_MAX_EVENTS and refused; so the slice
 * simulated is bounded whatever the scenario says, and a scenario that
 * escapes the budget (work that no limit counts) shows as a hang.
 *
 * The input is written to SANDBOX/work/scenario.yaml, as for
 * fuzz_scenario, so that `machine: ../machines/NAME.yaml` finds the
 * sandbox's copies; a name outside it fails to open (fuzz/fuzz.h).
 *
 * Findings: a crash or sanitizer report, a leak, a hang (-timeout: the
 * work the budget cannot see, issue 34 item 2), a refusal without a
 * message, or a result with a metric that is not a number.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/run/run.h"
#include "fuzz/fuzz.h"
#include "sim/report.h"

#define FUZZ_MAX_EVENTS 200000
#define FUZZ_MAX_MEMORY (256ull << 20)

/* Every metric of every variant is finite (no result holds nan). */
static void check_report(const struct report *r)
{
	unsigned int v;

	for (v = 0; v < report_nr_variants(r); v++)
		FUZZ_ASSERT(!report_nonfinite(r, (int)v));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_opts o = {
		.replications = 1,
		.max_events = FUZZ_MAX_EVENTS,
		.max_memory = FUZZ_MAX_MEMORY,
	};
	struct report *r = NULL;
	struct sim_error err;
	char path[FUZZ_PATH_MAX];
	int ret;

	o.datadir = fuzz_sandbox();
	fuzz_write("work/scenario.yaml", data, size, path);
	memset(&err, 0, sizeof(err));
	fuzz_enter();
	ret = scenario_run(path, &o, &r, &err);
	fuzz_leave();
	if (ret && getenv("FUZZ_VERBOSE"))
		sim_error_print(stderr, &err);
	FUZZ_ASSERT(ret == 0 || ret == -1);
	/* A refusal says why; a run gives a report. */
	FUZZ_ASSERT(!ret || (err.msg[0] && !r));
	FUZZ_ASSERT(ret || r);
	if (r)
		check_report(r);
	report_free(r);
	return 0;
}
