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
 * a name outside it fails to open (fuzz/fuzz.h). Its first lines may
 * also give options, as YAML comments: "#set KEY=VALUE" (--set) and
 * "#variant NAME" (--variant).
 *
 * Findings: a crash or sanitizer report, a leak, a hang (-timeout), or a
 * refusal without a message or without its file, line and column.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/run/run.h"
#include "fuzz/fuzz.h"
#include "sim/report.h"

#define MAX_SETS 4

/*
 * The command line, from the input's first lines: "#set KEY=VALUE" is
 * --set KEY=VALUE (at most MAX_SETS), "#variant NAME" is --variant NAME.
 * YAML takes them for comments, so the input stays a scenario. The
 * strings are copied into @buf (the input's size + 1 bytes).
 */
static void command_line(const uint8_t *data, size_t size, char *buf,
			 struct run_opts *o, const char **sets)
{
	const char *p = (const char *)data, *end = p + size, *eol;
	size_t len;

	memcpy(buf, data, size);
	buf[size] = '\0';
	while (p < end && *p == '#') {
		eol = memchr(p, '\n', (size_t)(end - p));
		len = (size_t)((eol ? eol : end) - p);
		buf[p - (const char *)data + len] = '\0';
		if (len > 5 && !strncmp(p, "#set ", 5) && o->nr_sets < MAX_SETS)
			sets[o->nr_sets++] = buf + (p - (const char *)data) + 5;
		else if (len > 9 && !strncmp(p, "#variant ", 9))
			o->variant = buf + (p - (const char *)data) + 9;
		if (!eol)
			break;
		p = eol + 1;
	}
	o->sets = sets;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_opts o = {
		.replications = 1,
		.check_only = true,
	};
	const char *sets[MAX_SETS];
	struct report *r = NULL;
	struct sim_error err;
	char path[FUZZ_PATH_MAX], *args = malloc(size + 1);
	int ret;

	FUZZ_ASSERT(args != NULL);
	o.datadir = fuzz_sandbox();
	command_line(data, size, args, &o, sets);
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
	/*
	 * Every refusal is located: file:line:col in the scenario, or the
	 * command line's option (--set, --variant).
	 */
	FUZZ_ASSERT(!ret || err.msg[0]);
	FUZZ_ASSERT(!ret || o.nr_sets || o.variant ||
		    (err.file[0] && err.line >= 1 && err.col >= 1));
	free(args);
	return 0;
}
