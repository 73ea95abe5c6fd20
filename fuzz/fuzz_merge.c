// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz/fuzz_merge.c - `memcgsim merge`'s readers, fuzzed: one input is a
 * sweep point's two reports, its CSV, a NUL byte, then its YAML (neither
 * format allows a NUL, so the byte only splits them). They become point 0
 * of a one-point sweep made once in the sandbox (a small scenario, --vary
 * seed=1), with the NNNN.sum that vouches for them, so that merge gets
 * past its integrity check and reads them: sim/csv.c with its
 * cut-short-file checks, the union of columns, and the YAML report
 * forwarded event by event into sweep.yaml.
 *
 * Findings: a crash or sanitizer report, a leak, a hang, or a refusal
 * without a message.
 */
#define _GNU_SOURCE /* sigset_t, in cmd/sweep/internal.h */

#include <stdlib.h>
#include <string.h>

#include "cmd/compare/compare.h"
#include "cmd/run/run.h"
#include "cmd/sweep/sweep.h"
#include "cmd/sweep/internal.h"
#include "fuzz/fuzz.h"

static const char scenario[] =
	"scenario: fuzz-merge\n"
	"seed: 1\n"
	"machine: desktop-4c8t\n"
	"duration_ms: 0.001\n"
	"workloads:\n"
	"  - {type: atomic_counter, cpus: 0-1, counters: 1, think_ns: 10}\n"
	"baseline: a\n"
	"variants:\n"
	"  - {name: a}\n"
	"  - {name: b, set: {workloads.0.think_ns: 20, seed: 2}}\n";

static struct sweep sweep;
static char dir[FUZZ_PATH_MAX];

/* The one-point sweep every input is merged in (its sweep.meta). */
static void make_sweep(void)
{
	struct run_opts o = { .replications = 1 };
	char path[FUZZ_PATH_MAX];
	struct sim_error err;

	o.datadir = fuzz_sandbox();
	fuzz_write("work/fuzz-merge.yaml", scenario, strlen(scenario), path);
	snprintf(dir, sizeof(dir), "%s/work/sweep", o.datadir);
	sweep_init(&sweep);
	if (sweep_vary(&sweep, "seed=1", &err) ||
	    sweep_setup(&sweep, path, dir, &o, false, &err) ||
	    sweep_prepare(&sweep, &err)) {
		sim_error_print(stderr, &err);
		abort();
	}
}

/* The sandbox's file @name is a result compare_load() accepts. */
static void check_readable(const char *name)
{
	struct compare_file *f;
	char path[FUZZ_PATH_MAX];
	struct sim_error err;

	snprintf(path, sizeof(path), "%s/%s", fuzz_sandbox(), name);
	f = compare_load(path, &err);
	if (!f)
		sim_error_print(stderr, &err);
	FUZZ_ASSERT(f != NULL);
	compare_free(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	struct sweep__bytes csv, yaml, sum;
	char path[FUZZ_PATH_MAX];
	struct sim_error err;
	unsigned int nr;
	int ret;

	if (!sweep.nr_points)
		make_sweep();
	csv.buf = (char *)data;
	csv.len = nul ? (size_t)(nul - data) : size;
	yaml.buf = nul ? (char *)nul + 1 : (char *)data + size;
	yaml.len = nul ? size - csv.len - 1 : 0;
	fuzz_write("work/sweep/points/0000.csv", csv.buf, csv.len, path);
	fuzz_write("work/sweep/points/0000.yaml", yaml.buf, yaml.len, path);
	FUZZ_ASSERT(!sweep__render_sum(&sweep, 0, &yaml, &csv, &sum));
	fuzz_write("work/sweep/points/0000.sum", sum.buf, sum.len, path);
	free(sum.buf);

	memset(&err, 0, sizeof(err));
	fuzz_enter();
	ret = sweep_merge(dir, &nr, &err);
	fuzz_leave();
	if (ret && getenv("FUZZ_VERBOSE"))
		sim_error_print(stderr, &err);
	FUZZ_ASSERT(ret || nr == 1);
	FUZZ_ASSERT(!ret || err.msg[0]);
	if (!ret) {
		/* what merge wrote, compare reads */
		check_readable("work/sweep/sweep.csv");
		check_readable("work/sweep/sweep.yaml");
	}
	return 0;
}
