// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz/fuzz_scenario.c - the scenario loader, fuzzed: one input is a
 * whole scenario file, loaded and checked as `memcgsim run --check`
 * does (scenario_run() with check_only): its variants, the machine
 * (inline, a shipped profile by name, or a file in the sandbox), the
 * kernel keys (a pahole layout file in the sandbox included), cgroups and
 * workloads. Nothing is simulated.
 *
 * The input is written to SANDBOX/work/scenario.yaml, so that a relative
 * `machine: ../machines/skx-2s-72.yaml` or `page_counter_pahole:
 * ../layouts/page_counter-v6.1.txt` finds the copies in the sandbox;
 * a name outside it fails to open (fuzz/fuzz.h).
 *
 * Findings: a crash or sanitizer report, a leak, a hang (-timeout), or a
 * refusal without a message or without its file, line and column.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/run.h"
#include "fuzz/fuzz.h"
#include "sim/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_opts o = {
		.replications = 1,
		.check_only = true,
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
	/* check_only leaves the report alone; a refusal says why */
	if (ret && getenv("FUZZ_VERBOSE"))
		sim_error_print(stderr, &err);
	FUZZ_ASSERT(!r);
	FUZZ_ASSERT(ret == 0 || ret == -1);
	/* every refusal is located: file:line:col */
	FUZZ_ASSERT(!ret || (err.msg[0] && err.file[0] && err.line >= 1 &&
			     err.col >= 1));
	return 0;
}
