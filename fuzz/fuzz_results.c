// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz/fuzz_results.c - the readers of memcgsim's own results, fuzzed:
 * one input is a results file, CSV or YAML, as `compare`, `plot` and
 * `merge` read them (sim/csv.c, sim/scenario.c's results parser, and the
 * commands' checks on top):
 *
 *  - compare_parse(), then compare_print() of the file against itself,
 *    which must find no change; an input holding a NUL byte (which no
 *    result may) is two files, OLD and NEW, compared with each other;
 *  - plot's planning for a sweep.csv (plot__plan_sweep(), in
 *    cmd/plot/sweep.c) and for a run's YAML (plan_run()): what `memcgsim
 *    plot` does before it draws. Run planning is static in
 *    cmd/plot/plot.c, so this file includes cmd/plot/plot.c whole;
 *    nothing is drawn and gnuplot is never run.
 *
 * Findings: a crash or sanitizer report, a leak, a hang, a refusal without
 * a message, or a file that differs from itself.
 */
#include "cmd/plot/plot.c"

#include "cmd/compare/compare.h"
#include "fuzz/fuzz.h"

static FILE *devnull;

static void fuzz_compare(const uint8_t *data, size_t size)
{
	struct compare_opts opts = { .tolerance = 0, .all = true };
	const struct compare_file *files[2];
	struct compare_counts counts;
	struct compare_file *f;
	struct sim_error err;

	f = compare_parse("results", data, size, &err);
	if (!f) {
		FUZZ_ASSERT(err.msg[0]);
		return;
	}
	memset(&counts, 0, sizeof(counts));
	files[0] = files[1] = f;
	compare_print(devnull, files, 2, &opts, &counts);
	FUZZ_ASSERT(!counts.changed && !counts.over && !counts.only_old &&
		    !counts.only_new && !counts.set_differs);
	compare_free(f);
}

/* OLD, a NUL byte, NEW: compare them as `memcgsim compare OLD NEW`. */
static void fuzz_compare_two(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	struct compare_opts opts = { .tolerance = 1 };
	struct compare_file *old, *new;
	struct compare_counts counts;
	struct sim_error err;
	size_t len;

	if (!nul)
		return;
	len = (size_t)(nul - data);
	old = compare_parse("old", data, len, &err);
	new = compare_parse("new", nul + 1, size - len - 1, &err);
	if (old && new) {
		const struct compare_file *files[] = { old, new };

		memset(&counts, 0, sizeof(counts));
		compare_print(devnull, files, 2, &opts, &counts);
		FUZZ_ASSERT(counts.over <= counts.changed &&
			    counts.changed <= counts.values);
	}
	compare_free(old);
	compare_free(new);
}

static void fuzz_plot(const uint8_t *data, size_t size)
{
	struct plot_opts o = { .png = true };
	struct plot_plan p = { .nr = 0 };
	struct scenario_node *root;
	char path[FUZZ_PATH_MAX];
	struct sim_error err;

	fuzz_write("work/sweep.csv", data, size, path);
	if (plot__plan_sweep(&p, path, &o, &err))
		FUZZ_ASSERT(err.msg[0]);
	plan_release(&p);

	root = scenario_parse_buffer("results.yaml", data, size, &err);
	if (!root) {
		FUZZ_ASSERT(err.msg[0]);
		return;
	}
	memset(&p, 0, sizeof(p));
	if (plan_run(&p, root, &o, &err))
		FUZZ_ASSERT(err.msg[0]);
	plan_release(&p);
	scenario_free(root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		FUZZ_ASSERT(devnull != NULL);
	}
	fuzz_sandbox();
	fuzz_enter();
	fuzz_compare(data, size);
	fuzz_compare_two(data, size);
	fuzz_plot(data, size);
	fuzz_leave();
	return 0;
}
