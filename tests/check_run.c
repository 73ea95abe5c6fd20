// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_run.c - the run driver (cmd/run/run.c): a scenario file in,
 * variants, replications and metrics out, or an error at file:line:col.
 *
 * Every test writes a small scenario to a temporary file and calls
 * scenario_run() as `memcgsim run` does, then reads the report with
 * report_get() or renders it. The machine is the one of
 * tests/check_cache.c, with round numbers:
 *
 *	2 sockets x 4 cores x 2 threads, threads_last numbering:
 *	  CPUs 0-3 socket 0, one LLC; CPUs 4-7 socket 1; 8-15 SMT siblings
 *	rmw_local 5 ns, memory 80 ns, xfer_llc 50 ns, xfer_socket 100 ns,
 *	xfer_per_waiter 0 ns, occupancy 1.0, strict hand-off
 *
 * and the workload is atomic_counter: one shared counter, no batching, no
 * think time, so each CPU loops on RMWs of one line. Warm-up 1001 ns,
 * then a window of 10 us to 11001 ns (1001, not 1000, so that no
 * operation completes exactly at the boundary). Two CPUs ping-pong the
 * line: the first RMW comes from memory (done at 80 ns), then one
 * hand-off of x ns after another, alternating CPUs, each operation
 * waiting for the other CPU's hand-off and its own:
 *
 *	CPUs         x (ns)   done at     in the window    ops   latency
 *	0,1 (LLC)    50       80 + 50k    k = 19..218      200   100 ns
 *	0,4 (socket) 100      80 + 100k   k = 10..109      100   200 ns
 *	0 alone      5 (hit)  80 + 5k     k = 185..2184   2000     5 ns
 *
 * CPU 0 alone's first operation of the window (k = 185, done at 1005 ns)
 * completes in the coroutine step the engine runs at 1000 ns, before the
 * driver's reset at the end of the warm-up (a hit needs no event): it
 * counts all the same, since an operation counts by when it completed
 * (task_op_end()), not by when the engine got there.
 *
 * Throughput is ops / 10 us: 2e7, 1e7 and 2e8 ops/s.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, open_memstream */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

#include <check.h>

#include "cmd/run/run.h"
#include "cmd/run/sensitivity.h"
#include "sim/report.h"
#include "sim/sha256.h"
#include "sim/stats.h"
#include "sim/util.h"

/* Lines 1-22: everything but the workloads and variants. */
static const char header[] = "scenario: check-run\n"
			     "seed: 42\n"
			     "duration_ms: 0.01\n"
			     "warmup_ms: 0.001001\n"
			     "machine:\n"
			     "  name: test-2s-16\n"
			     "  sockets: 2\n"
			     "  cores_per_socket: 4\n"
			     "  threads_per_core: 2\n"
			     "  latencies:\n"
			     "    l1_hit: {ns: 1, source: test}\n"
			     "    llc_hit: {ns: 20, source: test}\n"
			     "    memory: {ns: 80, source: test}\n"
			     "    rmw_local: {ns: 5, source: test}\n"
			     "    xfer_smt: {ns: 10, source: test}\n"
			     "    xfer_llc: {ns: 50, source: test}\n"
			     "    xfer_socket: {ns: 100, source: test}\n"
			     "    inval_per_sharer: {ns: 2, source: test}\n"
			     "    xfer_per_waiter: {ns: 0, source: test}\n"
			     "  coherence:\n"
			     "    handoff: strict\n"
			     "    occupancy: {fraction: 1.0, source: test}\n";
#define HEADER_LINES 22

/* The two-CPU ping-pong and two variants (lines 23-30). */
static const char variants[] = "workloads:\n"
			       "  - {type: atomic_counter, cpus: 0-1}\n"
			       "variants:\n"
			       "  - name: near\n"
			       "  - name: far\n"
			       "    set: {workloads.0.cpus: '0,4'}\n"
			       "  - name: alone\n"
			       "    set: {workloads.0.cpus: '0'}\n";

static char path[256];

/* Write @header then @rest to a new temporary file, named in @path. */
static void scenario_write(const char *rest)
{
	const char *tmp = getenv("TMPDIR");
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/check_run-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(header, f);
	fputs(rest, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void teardown(void)
{
	if (path[0])
		unlink(path);
	path[0] = '\0';
}

/* The options of `memcgsim run FILE`: all variants, one replication. */
static struct run_opts opts(void)
{
	struct run_opts o = {
		.datadir = "/nonexistent", /* the machine is inline */
		.replications = 1,
		.hot_lines = 4,
	};

	return o;
}

/* Run the scenario in @path; the run must succeed. */
static struct report *run_ok(const struct run_opts *o)
{
	struct report *r = NULL;
	struct sim_error err;

	sim_error_clear(&err);
	ck_assert_msg(!scenario_run(path, o, &r, &err), "%s:%u:%u: %s",
		      err.file, err.line, err.col, err.msg);
	ck_assert_ptr_nonnull(r);
	return r;
}

static double metric(const struct report *r, const char *variant,
		     const char *name)
{
	double v = -1;

	ck_assert_msg(report_get(r, variant, name, &v), "no %s of %s", name,
		      variant);
	return v;
}

static void ck_metric(const struct report *r, const char *variant,
		      const char *name, double want)
{
	double v = metric(r, variant, name);

	ck_assert_msg(v == want || (want && v / want > 1 - 1e-9 &&
				    v / want < 1 + 1e-9),
		      "%s of %s: %.17g, expected %.17g", name, variant, v,
		      want);
}

/* The report rendered as @fmt, malloc'd. */
static char *render(const struct report *r, enum report_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(report_write(r, fmt, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

/*
 * No variants: the scenario as written is one variant, "base". Two CPUs
 * of one LLC ping-pong the counter (see the table at the top).
 *
 * Expect throughput 200 ops / 10 us = 2e7 ops/s; every latency 100 ns;
 * one transfer per operation; the line busy the whole window (200
 * hand-offs x 50 ns, occupancy 1.0); both CPUs waiting the whole window
 * (100 operations x 100 ns each).
 */
START_TEST(scenario_run_base_metrics)
{
	struct run_opts o = opts();
	struct report *r;

	scenario_write("workloads:\n"
		       "  - {type: atomic_counter, cpus: 0-1}\n");
	r = run_ok(&o);
	ck_metric(r, "base", "throughput", 2e7);
	ck_metric(r, "base", "latency_mean", 100);
	ck_metric(r, "base", "latency_p50", 100);
	ck_metric(r, "base", "latency_p99", 100);
	ck_metric(r, "base", "transfers_per_op", 1);
	ck_metric(r, "base", "hottest_line_util", 100);
	ck_metric(r, "base", "cpu_waiting", 100);
	/* one workload: no per-workload rows; no memcg: no charge rows */
	ck_assert(
		!report_get(r, "base", "workload0_throughput", &(double){ 0 }));
	ck_assert(
		!report_get(r, "base", "charge_latency_mean", &(double){ 0 }));
	report_free(r);
}
END_TEST

/*
 * Two workloads of one unit: the ping-pong on CPUs 0-1 and a counter of
 * its own on CPU 4 (hits: 2000 operations, as CPU 0 alone in the table).
 *
 * Expect throughput the sum, 2e7 + 2e8 ops/s, and each workload's own
 * row; latency_mean over all 2200 operations, (200 x 100 + 2000 x 5)
 * / 2200 ns; transfers per operation 200 / 2200.
 */
START_TEST(scenario_run_two_workloads_add_up)
{
	struct run_opts o = opts();
	struct report *r;

	scenario_write("workloads:\n"
		       "  - {type: atomic_counter, cpus: 0-1}\n"
		       "  - {type: atomic_counter, cpus: 4}\n");
	r = run_ok(&o);
	ck_metric(r, "base", "throughput", 2e7 + 2e8);
	ck_metric(r, "base", "workload0_throughput", 2e7);
	ck_metric(r, "base", "workload1_throughput", 2e8);
	ck_metric(r, "base", "latency_mean", (200 * 100 + 2000 * 5) / 2200.0);
	ck_metric(r, "base", "transfers_per_op", 200 / 2200.0);
	report_free(r);
}
END_TEST

/*
 * Variants: `set:` rewrites the scenario for one variant only, and a
 * scenario with variants has no "base" column.
 *
 * Expect near 2e7 ops/s at 100 ns, far (other socket) 1e7 at 200 ns,
 * alone 2e8 at 5 ns with no transfer, no wait and an idle line (its
 * only transfer, from memory, was in the warm-up).
 */
START_TEST(scenario_run_variants_set)
{
	struct run_opts o = opts();
	struct report *r;
	double v;

	scenario_write(variants);
	r = run_ok(&o);
	ck_metric(r, "near", "throughput", 2e7);
	ck_metric(r, "near", "latency_mean", 100);
	ck_metric(r, "far", "throughput", 1e7);
	ck_metric(r, "far", "latency_mean", 200);
	ck_metric(r, "alone", "throughput", 2e8);
	ck_metric(r, "alone", "latency_mean", 5);
	ck_metric(r, "alone", "transfers_per_op", 0);
	ck_metric(r, "alone", "cpu_waiting", 0);
	ck_metric(r, "alone", "hottest_line_util", 0);
	ck_assert(!report_get(r, "base", "throughput", &v));
	report_free(r);
}
END_TEST

/*
 * --set rewrites the scenario before the variants' `set:` is applied on
 * top (cmd/run/run.h): a variant's own setting wins, the others follow the
 * command line. --set workloads.0.cpus=0 makes near run alone; far keeps
 * its '0,4'.
 *
 * Expect near 2e8 ops/s (CPU 0 alone), far 1e7 (unchanged), alone
 * 2e8.
 */
START_TEST(scenario_run_set_precedence)
{
	static const char *const sets[] = { "workloads.0.cpus=0" };
	struct run_opts o = opts();
	struct report *r;

	o.sets = sets;
	o.nr_sets = 1;
	scenario_write(variants);
	r = run_ok(&o);
	ck_metric(r, "near", "throughput", 2e8);
	ck_metric(r, "far", "throughput", 1e7);
	ck_metric(r, "alone", "throughput", 2e8);
	report_free(r);
}
END_TEST

/*
 * Baselines: the scenario's `baseline:` names the variant every change is
 * measured against, and a variant's own `baseline:` overrides it for that
 * variant. With far (1e7 ops/s) the baseline and near2 (a copy of near,
 * 2e7) measured against near, the CSV's change_pct is
 *
 *	near   (2e7 - 1e7) / 1e7 = +100%
 *	far    0 (the baseline itself)
 *	near2  (2e7 - 2e7) / 2e7 = 0
 */
/*
 * Provenance: the version, the scenario file's digest (sha256 of the bytes
 * written here, as sim_sha256_text() computes it, itself checked against
 * FIPS 180-2 in check_sha256), the inline machine's name (no profile
 * file, so no profiles_digest), the duration and warm-up after --set
 * (duration_ms=0.02; warmup_ms 0.001001 as the header writes it) and
 * each --set
 * in order.
 */
START_TEST(scenario_run_provenance)
{
	const char *sets[] = { "duration_ms=0.02", "variants.0.name=n" };
	struct run_opts o = opts();
	char digest[SIM_SHA256_TEXT_LEN], *all, *text;
	struct report *r;
	size_t len;

	o.sets = sets;
	o.nr_sets = 2;
	scenario_write(variants);
	r = run_ok(&o);
	ck_assert_str_eq(report_provenance_get(r, "memcgsim"), PACKAGE_VERSION);
	len = strlen(header) + strlen(variants);
	all = malloc(len + 1);
	ck_assert_ptr_nonnull(all);
	snprintf(all, len + 1, "%s%s", header, variants);
	sim_sha256_text(all, len, digest);
	free(all);
	ck_assert_str_eq(report_provenance_get(r, "scenario_digest"), digest);
	ck_assert_ptr_null(report_provenance_get(r, "profiles_digest"));
	ck_assert_str_eq(report_provenance_get(r, "machine"), "test-2s-16");
	ck_assert_str_eq(report_provenance_get(r, "duration_ms"), "0.02");
	ck_assert_str_eq(report_provenance_get(r, "warmup_ms"), "0.001001");
	ck_assert_str_eq(report_provenance_get(r, "set"), "duration_ms=0.02");
	text = render(r, REPORT_CSV);
	ck_assert_ptr_nonnull(strstr(text, "\n# set: duration_ms=0.02\n"
					   "# set: variants.0.name=n\n"
					   "variant,"));
	free(text);
	text = render(r, REPORT_YAML);
	ck_assert_ptr_nonnull(strstr(
		text, "  set: ['duration_ms=0.02', 'variants.0.name=n']\n"));
	free(text);
	report_free(r);
}
END_TEST

START_TEST(scenario_run_baselines)
{
	static const char *const want[] = {
		"variant,throughput,unit,change_pct,",
		"near,20000000,ops/s,100,",
		"far,10000000,ops/s,0,",
		"near2,20000000,ops/s,0,",
	};
	struct run_opts o = opts();
	struct report *r;
	char *csv, *line, *save = NULL;
	size_t i;

	scenario_write("workloads:\n"
		       "  - {type: atomic_counter, cpus: 0-1}\n"
		       "baseline: far\n"
		       "variants:\n"
		       "  - name: near\n"
		       "  - name: far\n"
		       "    set: {workloads.0.cpus: '0,4'}\n"
		       "  - name: near2\n"
		       "    baseline: near\n");
	r = run_ok(&o);
	csv = render(r, REPORT_CSV);
	line = strtok_r(csv, "\n", &save);
	while (line && line[0] == '#') /* the provenance lines */
		line = strtok_r(NULL, "\n", &save);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		ck_assert_msg(line && !strncmp(line, want[i], strlen(want[i])),
			      "CSV line %zu: '%s', expected '%s...'", i + 1,
			      line ? line : "(none)", want[i]);
		line = strtok_r(NULL, "\n", &save);
	}
	ck_assert_ptr_null(line);
	free(csv);
	report_free(r);
}
END_TEST

/* --variant runs that variant only. Expect far alone in the report. */
START_TEST(scenario_run_one_variant)
{
	struct run_opts o = opts();
	struct report *r;
	double v;

	o.variant = "far";
	scenario_write(variants);
	r = run_ok(&o);
	ck_metric(r, "far", "throughput", 1e7);
	ck_assert(!report_get(r, "near", "throughput", &v));
	ck_assert(!report_get(r, "alone", "throughput", &v));
	report_free(r);
}
END_TEST

/* CPU 0 alone with exponential think times: the seed matters. */
static const char random_think[] =
	"workloads:\n"
	"  - {type: atomic_counter, cpus: 0, think: exponential,"
	" think_ns: 100}\n";

static double throughput_with(unsigned int reps, bool seed_set, uint64_t seed)
{
	struct run_opts o = opts();
	struct report *r;
	double v;

	o.replications = reps;
	o.seed_set = seed_set;
	o.seed = seed;
	r = run_ok(&o);
	v = metric(r, "base", "throughput");
	report_free(r);
	return v;
}

/*
 * Replications and seeds (cmd/run/run.h): replication 0 runs with the
 * scenario's seed (42), replication r with sim_seed_derive(42, r); the
 * report records their mean. --seed replaces the scenario's seed.
 *
 * Expect: --seed 42 gives the scenario's own result; another seed a
 * different one; two replications the mean of the runs with seeds 42
 * and sim_seed_derive(42, 1); and the table names seed 42 and the count.
 */
START_TEST(scenario_run_replications_seeds)
{
	uint64_t s1 = sim_seed_derive(42, 1);
	double own, forced, other, rep1, mean;
	struct run_opts o = opts();
	struct report *r;
	char *text;

	scenario_write(random_think);
	own = throughput_with(1, false, 0);
	forced = throughput_with(1, true, 42);
	other = throughput_with(1, true, 43);
	rep1 = throughput_with(1, true, s1);
	mean = throughput_with(2, false, 0);
	ck_assert(own == forced);
	ck_assert(own != other);
	ck_assert(own != rep1);
	ck_assert_double_eq_tol(mean, (own + rep1) / 2, 1e-9 * own);

	o.replications = 2;
	r = run_ok(&o);
	text = render(r, REPORT_TABLE);
	ck_assert_msg(!strncmp(text,
			       "# scenario check-run, seed 42, "
			       "2 replications\n",
			       strlen("# scenario check-run, seed 42, "
				      "2 replications\n")),
		      "%s", text);
	free(text);
	report_free(r);
}
END_TEST

/*
 * Same scenario, same options: same bytes, in every format, also with
 * replications and random think times.
 */
START_TEST(scenario_run_deterministic)
{
	static const enum report_format fmts[] = { REPORT_TABLE, REPORT_YAML,
						   REPORT_CSV };
	struct run_opts o = opts();
	struct report *a, *b;
	char *ta, *tb;
	size_t i;

	o.replications = 3;
	scenario_write(random_think);
	a = run_ok(&o);
	b = run_ok(&o);
	for (i = 0; i < ARRAY_SIZE(fmts); i++) {
		ta = render(a, fmts[i]);
		tb = render(b, fmts[i]);
		ck_assert_str_eq(ta, tb);
		free(ta);
		free(tb);
	}
	report_free(a);
	report_free(b);
}
END_TEST

/* What scenario_run_phase_hook sees of the run_phase and inspect hooks. */
struct phases {
	unsigned int begun, ended, inspected;
	bool running, out_of_order;
};

static void phase_hook(void *arg, bool running)
{
	struct phases *ph = arg;

	if (running == ph->running)
		ph->out_of_order = true; /* two begins or two ends in a row */
	ph->running = running;
	if (running)
		ph->begun++;
	else
		ph->ended++;
}

static void phase_inspect(void *arg, const char *variant, struct run *run)
{
	struct phases *ph = arg;

	(void)variant;
	(void)run;
	/* after the engine ran: its reports are outside the timed phase */
	if (ph->running || !ph->ended)
		ph->out_of_order = true;
	ph->inspected++;
}

/*
 * The run_phase hook (what tests/bench times, bench/peers.sh): called
 * with true before and false after the engine runs, once per replication
 * of each variant: 3 variants x 2 replications = 6 runs, 12 calls,
 * alternating; the inspect hook (after each variant's first replication:
 * 3 calls) outside them. With --check-only nothing runs: no call.
 */
START_TEST(scenario_run_phase_hook)
{
	struct run_opts o = opts();
	struct phases ph = { 0 };
	struct report *r = NULL;
	struct sim_error err;

	o.replications = 2;
	o.run_phase = phase_hook;
	o.run_phase_arg = &ph;
	o.inspect = phase_inspect;
	o.inspect_arg = &ph;
	scenario_write(variants);
	r = run_ok(&o);
	report_free(r);
	ck_assert_uint_eq(ph.begun, 6);
	ck_assert_uint_eq(ph.ended, 6);
	ck_assert_uint_eq(ph.inspected, 3);
	ck_assert(!ph.running);
	ck_assert(!ph.out_of_order);

	memset(&ph, 0, sizeof(ph));
	o.check_only = true;
	ck_assert_int_eq(scenario_run(path, &o, &r, &err), 0);
	ck_assert_uint_eq(ph.begun + ph.ended + ph.inspected, 0);
}
END_TEST

/*
 * --check-only loads and checks every variant and runs nothing.
 * Expect 0 and the report pointer untouched.
 */
START_TEST(scenario_run_check_only)
{
	struct run_opts o = opts();
	struct report *r = (struct report *)&o; /* any non-NULL marker */
	struct sim_error err;

	o.check_only = true;
	scenario_write(variants);
	ck_assert_int_eq(scenario_run(path, &o, &r, &err), 0);
	ck_assert_ptr_eq(r, (struct report *)&o);
}
END_TEST

/*
 * Bad input: scenario_run() returns -1, leaves the report alone and
 * names the place: the scenario file and the line and column of the
 * offending text (HEADER_LINES + n is the n-th line after the header),
 * "--set" without a position for the command line, no file for
 * --variant. Every variant is checked before any runs, so an error in
 * the last one (case 3) leaves no report at all.
 */
static const struct bad_case {
	const char *rest; /* after the header */
	const char *set; /* one --set, or NULL */
	const char *variant; /* --variant, or NULL */
	bool in_file; /* the error names the scenario file */
	unsigned int line, col; /* line after the header, column */
	const char *msg;
} bad_cases[] = {
	/* 0: a misspelt top-level key, with the nearest one suggested */
	{ "workloads:\n  - {type: atomic_counter, cpus: 0}\nvariant: []\n",
	  NULL, NULL, true, 3, 1,
	  "unknown key 'variant' at the top level; did you mean 'variants'?" },
	/* 1: an unknown workload type, at its value */
	{ "workloads:\n  - {type: atomic_countr, cpus: 0}\n", NULL, NULL, true,
	  2, 12,
	  "key 'workloads.0.type': unknown workload type 'atomic_countr'; "
	  "did you mean 'atomic_counter'?" },
	/* 2: one CPU in two workloads */
	{ "workloads:\n  - {type: atomic_counter, cpus: 0-1}\n"
	  "  - {type: atomic_counter, cpus: 1}\n",
	  NULL, NULL, true, 3, 34,
	  "key 'workloads.1.cpus': CPU 1 already runs a task of workloads.0: "
	  "a CPU runs one task" },
	/* 3: a bad value in the last variant's set:, at that value */
	{ "workloads:\n  - {type: atomic_counter, cpus: 0-1}\n"
	  "variants:\n  - name: ok\n  - name: bad\n"
	  "    set: {workloads.0.batch: 0}\n",
	  NULL, NULL, true, 6, 30,
	  "key 'workloads.0.batch': expected an integer from 1 to 1048576, "
	  "found '0'" },
	/* 4: a variant may not set 'baseline' (nor the variants) */
	{ "workloads:\n  - {type: atomic_counter, cpus: 0-1}\n"
	  "variants:\n  - name: bad\n    set: {baseline: x}\n",
	  NULL, NULL, true, 5, 21,
	  "key 'variants.0.set.baseline': a variant cannot set 'baseline'" },
	/* 5: a bad --set value: the command line, no position */
	{ "workloads:\n  - {type: atomic_counter, cpus: 0-1}\n",
	  "duration_ms=ten", NULL, false, 0, 0,
	  "key 'duration_ms': expected a duration in ms, or with a unit ps, "
	  "ns, us, ms or s, found 'ten'" },
	/* 6: --variant names no variant: the nearest is suggested */
	{ "workloads:\n  - {type: atomic_counter, cpus: 0-1}\n"
	  "variants:\n  - name: near\n  - name: far\n",
	  NULL, "fat", false, 0, 0, NULL },
};

START_TEST(scenario_run_bad_input)
{
	const struct bad_case *c = &bad_cases[_i];
	struct run_opts o = opts();
	struct report *r = NULL;
	struct sim_error err;
	char want[1024];

	o.sets = &c->set;
	o.nr_sets = c->set ? 1 : 0;
	o.variant = c->variant;
	scenario_write(c->rest);
	sim_error_clear(&err);
	ck_assert_int_eq(scenario_run(path, &o, &r, &err), -1);
	ck_assert_ptr_null(r);
	if (c->in_file) {
		ck_assert_str_eq(err.file, path);
		ck_assert_uint_eq(err.line, HEADER_LINES + c->line);
	} else {
		ck_assert_str_eq(err.file, c->set ? "--set" : "");
		ck_assert_uint_eq(err.line, 0);
	}
	ck_assert_uint_eq(err.col, c->col);
	if (c->msg) {
		ck_assert_str_eq(err.msg, c->msg);
	} else {
		snprintf(want, sizeof(want),
			 "--variant: no variant named 'fat' in %s; "
			 "did you mean 'far'?",
			 path);
		ck_assert_str_eq(err.msg, want);
	}
}
END_TEST

/* A file that does not exist: named, with the system's reason. */
START_TEST(scenario_run_missing_file)
{
	struct run_opts o = opts();
	struct report *r = NULL;
	struct sim_error err;

	snprintf(path, sizeof(path), "/nonexistent/check_run.yaml");
	ck_assert_int_eq(scenario_run(path, &o, &r, &err), -1);
	ck_assert_ptr_null(r);
	ck_assert_str_eq(err.file, path);
	ck_assert_str_eq(err.msg,
			 "cannot open scenario: No such file or directory");
	path[0] = '\0';
}
END_TEST

/*
 * The driver's four tables (the top level, a variant, published:, the
 * keys every workload has) are sound, and together with each workload
 * type's table name no key twice: the driver checks a workload's keys
 * as the common ones followed by its type's.
 */
START_TEST(run_key_tables_sound)
{
	static const char *const names[] = { "scenario", "variants",
					     "published", "workloads" };
	const struct workload_type *const *types;
	const struct scenario_key_table *t;
	unsigned int i, j, k, nr = run_key_tables(&t);
	unsigned int nr_types = workload_types(&types);
	char why[160];

	ck_assert_uint_eq(nr, ARRAY_SIZE(names));
	for (i = 0; i < nr; i++) {
		ck_assert_str_eq(t[i].name, names[i]);
		ck_assert_msg(!scenario_keys_sound(t[i].keys, t[i].nr, why,
						   sizeof(why)),
			      "%s: %s", t[i].name, why);
	}
	for (i = 0; i < nr_types; i++)
		for (j = 0; j < types[i]->nr_keys; j++)
			for (k = 0; k < t[3].nr; k++)
				ck_assert_str_ne(types[i]->keys[j].name,
						 t[3].keys[k].name);
}
END_TEST

/*
 * netperf's sched: fair on the test machine (one LLC per socket), in the
 * root memcg (no memcg code: each side's message costs work_ns, 1 us):
 *
 *	cpus 0-1 (one LLC): every WF_SYNC wake-up finds the wakee's
 *	    previous CPU idle and in the waker's LLC: select_idle_sibling()
 *	    keeps it there, no task ever moves, and the run is the pinned
 *	    one, throughput for throughput.
 *	(backlog: never, so that each side does exactly work_ns per
 *	    message: with auto, the side that processes the other's
 *	    packets does more; doc/socket-accounting.md 1.7a.)
 *	cpus 0,4 (two sockets; the affinity mask is those two CPUs): the
 *	    receiver's first wake-up, from CPU 0, targets CPU 0 (the sender
 *	    runs alone there), its previous CPU 4 is in another LLC and no
 *	    CPU of 0's LLC is in its mask: it waits behind the sender on
 *	    CPU 0, and from then on both wake onto CPU 0 (each other's
 *	    CPU, with nothing idle in its LLC) and run in turn. Pinned, the
 *	    two sides overlap: a message a microsecond; sharing one CPU, two
 *	    microseconds (no switch cost on this machine): half the
 *	    throughput, within 10% (the window's first fill).
 */
START_TEST(scenario_run_netperf_sched_fair)
{
	struct run_opts o = opts();
	struct report *r;
	double near, far;

	scenario_write(
		"workloads:\n"
		"  - {type: netperf, cpus: 0-1, work_ns: 1000, message_bytes: 1024,\n"
		"     backlog: never}\n"
		"variants:\n"
		"  - {name: pinned, set: {duration_ms: 0.5}}\n"
		"  - {name: fair, set: {duration_ms: 0.5, workloads.0.sched: fair}}\n"
		"  - {name: far-pinned, set: {duration_ms: 0.5, workloads.0.cpus: '0,4'}}\n"
		"  - {name: far-fair, set: {duration_ms: 0.5, workloads.0.cpus: '0,4',\n"
		"                           workloads.0.sched: fair}}\n");
	r = run_ok(&o);
	ck_metric(r, "fair", "throughput", metric(r, "pinned", "throughput"));
	near = metric(r, "far-pinned", "throughput");
	far = metric(r, "far-fair", "throughput");
	ck_assert_double_gt(near, 0);
	ck_assert_msg(far / near > 0.45 && far / near < 0.55,
		      "far-fair %g vs far-pinned %g", far, near);
	report_free(r);
}
END_TEST

/* One netperf pair, /c sending to /s, 10240-byte messages. */
#define NETPERF_PAIR_YAML                                                       \
	"workloads:\n"                                                          \
	"  - {type: netperf, cpus: 0-1, work_ns: 1000, message_bytes: 10240,\n" \
	"     cgroup: /c, client_cgroups: /c, server_cgroup: /s,\n"             \
	"     backlog: never}\n"                                                \
	"cgroups:\n"                                                            \
	"  /c: {}\n"                                                            \
	"  /c1: {}\n"                                                           \
	"  /s: {}\n"

/*
 * Sockets belong to the memcg of the task that made or accepted them
 * (mem_cgroup_sk_alloc()): one netperf pair on CPUs 0 and 1 (tcp,
 * 10240-byte sends, charge_batch 64), netperf in /c1 (client_cgroups:
 * /c), netserver in /s. The sender's CPU charges /c1 (its socket, in
 * tcp_sendpage()) and then /s (netserver's socket, in the loopback
 * softirq: backlog: never, so that every segment is charged there) for
 * every message: two memcgs in turn.
 *
 *	stock_memcgs 1: each message's first charge of each memcg finds
 *	    the other one cached, misses the stock and charges the page
 *	    counters: 2 page_counter charges per message (give or take
 *	    the messages in flight at the window's edges: within 5%).
 *	stock_memcgs 7: both stay cached. A message charges about 3
 *	    pages to each memcg (10240 + 1280 bytes of truesize), so a
 *	    batch of 64 lasts about 20 messages per memcg: about 0.1 page
 *	    counter charges per message, under 0.2. The receiver's CPU
 *	    only uncharges: its stock is refilled, never charged from.
 *
 * And in the root memcg (server_cgroup /, no client_cgroups) no socket
 * has a memcg: no charge at all.
 */
START_TEST(scenario_run_netperf_socket_memcgs)
{
	struct run_opts o = opts();
	struct report *r;
	double one, seven;

	scenario_write(
		NETPERF_PAIR_YAML
		"kernel: {charge_batch: 64}\n"
		"variants:\n"
		"  - {name: one, set: {kernel.stock_memcgs: 1, duration_ms: 1}}\n"
		"  - {name: seven, set: {kernel.stock_memcgs: 7, duration_ms: 1}}\n"
		"  - {name: root, set: {duration_ms: 1, workloads.0.cgroup: /,\n"
		"                       workloads.0.client_cgroups: '',\n"
		"                       workloads.0.server_cgroup: /}}\n");
	r = run_ok(&o);
	ck_assert_double_gt(metric(r, "one", "throughput"), 0);
	one = metric(r, "one", "page_counter_charges_per_op");
	seven = metric(r, "seven", "page_counter_charges_per_op");
	ck_assert_msg(one > 1.9 && one < 2.1, "stock_memcgs 1: %g", one);
	ck_assert_msg(seven > 0.02 && seven < 0.2, "stock_memcgs 7: %g", seven);
	ck_metric(r, "root", "charges_per_op", 0);
	report_free(r);
}
END_TEST

/*
 * cgroup v1's TCP path, the pair of scenario_run_netperf_socket_memcgs
 * (/c sends, /s receives, 10240-byte messages):
 *
 *	tcpmem_active false (the kernel's default: memory.kmem.tcp's limit
 *	    never written): mem_cgroup_sk_alloc() gives no socket a memcg,
 *	    so nothing is charged: 0 charges and 0 page counter charges.
 *	tcpmem_active true: every sk_mem_schedule() that raises the forward
 *	    allocation is one page_counter_try_charge() of the socket's
 *	    tcpmem, unbatched (no stock hides any); try_charge_memcg() is
 *	    never called: 0 charges per message. With sk_reclaim: page, the
 *	    ACK's uncharge of the 11520 bytes (10240 + 1280 of head truesize)
 *	    leaves sk_s's forward allocation at 768 + 11520 = 12288 bytes,
 *	    three whole pages, all returned: each message starts from 0.
 *	    sk_s: the head (1280 > 0: raise a page, 2816 left), the 4096
 *	    piece (raise, 2816 left), the next 4096 (raise, 2816), the 2048
 *	    (fits, 768 left): 3 raises (an unaligned offset splits the
 *	    pieces 2048, 4096, 4096: head raise, fits, raise, raise: 3 too).
 *	    sk_r: the skb's 11520 bytes, one raise. 4 per message, give or
 *	    take the messages in flight at the window's edges: within 5%.
 */
START_TEST(scenario_run_netperf_v1_tcpmem)
{
	struct run_opts o = opts();
	struct report *r;
	double on;

	scenario_write(
		NETPERF_PAIR_YAML
		"kernel: {charge_batch: 64, cgroup_version: 1}\n"
		"variants:\n"
		"  - {name: off, set: {duration_ms: 1}}\n"
		"  - {name: on, set: {kernel.tcpmem_active: true, duration_ms: 1}}\n");
	r = run_ok(&o);
	ck_metric(r, "off", "charges_per_op", 0);
	ck_metric(r, "off", "page_counter_charges_per_op", 0);
	ck_metric(r, "on", "charges_per_op", 0);
	on = metric(r, "on", "page_counter_charges_per_op");
	ck_assert_msg(on > 3.8 && on < 4.2, "tcpmem_active: %g", on);
	report_free(r);
}
END_TEST

/*
 * The socket backlogs as an outcome (backlog: auto), worked out by hand:
 * one pair on CPUs 0 and 1, the root memcg (no memcg code), work_ns 800,
 * so an eighth is 100 ns: netperf splice 300, sendpage + push 200 (the
 * segment's ownership test at their end), the segment's processing
 * (PKT_RCV) 200, exit 100; netserver entry 100, copy 300, ACK 100 (its
 * ownership test), the ACK's processing 200, exit 100. Times in ns:
 *
 *	   0  netperf splices; 300 locks its socket; 500 the segment finds
 *	      netserver waiting (not owning): processed in the softirq,
 *	      500-700, and netserver woken at 700.
 *	 700  netperf: exit 800, splice 1100, lock, push 1300.
 *	      netserver: entry 800, lock, copy 1100, ACK 1200: netperf owns
 *	      its socket: backlogged. Release 1200, exit 1300, wait.
 *	1300  the next segment: netserver not owning: softirq 1300-1500,
 *	      netserver woken at 1500. netperf's release_sock() processes
 *	      the ACK 1500-1700, exit 1800, splice 2100.
 *	      netserver: entry 1600, copy 1900, ACK 2000: netperf not owning
 *	      (splicing): processed in netserver's softirq 2000-2200 with
 *	      the socket spinlock held, release 2200, exit 2300.
 *	2100  netperf's lock_sock() spins on that spinlock until 2200, push
 *	      2400: netserver not owning: softirq 2400-2600, woken at 2600:
 *	      the state of 700, 1900 ns later.
 *
 * So two messages every 1900 ns, no segment ever backlogged and every
 * other ACK. The window is the 1 ms after the warm-up, [1001, 1001001)
 * ns. netserver's recv()s end at 1300 + 1900k (527 of them in it) and
 * 2300 + 1900k (526): 1053 messages of 81920 bits in 1 ms, 86261.76
 * Mbit/s. The ACKs arrive at 1200 + 1900k (527, backlogged) and 2000 +
 * 1900k (526): 527 of 1053; the segments at 1300 + 1900k and 2400 +
 * 1900k, 1053, none backlogged: 527 of 2106 packets in all.
 */
START_TEST(scenario_run_netperf_backlog_auto)
{
	struct run_opts o = opts();
	struct report *r;

	scenario_write(
		"workloads:\n"
		"  - {type: netperf, cpus: 0-1, work_ns: 800, message_bytes: 10240,\n"
		"     placement: adjacent}\n"
		"variants:\n"
		"  - {name: auto, set: {duration_ms: 1}}\n");
	r = run_ok(&o);
	ck_metric(r, "auto", "throughput", 1053 * 81920 / 1e3);
	ck_metric(r, "auto", "backlog_share_segments", 0);
	ck_metric(r, "auto", "backlog_share_acks", 100.0 * 527 / 1053);
	ck_metric(r, "auto", "backlog_share", 100.0 * 527 / 2106);
	report_free(r);
}
END_TEST

/* Write @text to @dir/@name, making @dir (and its parents) first. */
static void put(const char *dir, const char *name, const char *text)
{
	char cmd[600], path[600];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/*
 * --max-memory's default sees the cgroup's limit (issue 34, item 8), in
 * a made-up /sys/fs/cgroup:
 *	v2: /a/b's memory.max is 2 GiB, /a's 1 GiB, the root's "max": in
 *	    /a/b the smallest on the way up is /a's, 1073741824;
 *	v1: memory/x's memory.limit_in_bytes is 512 MiB, 536870912;
 *	both lines at once (a hybrid host): the smaller, 512 MiB;
 *	a cgroup with no file, or only "max": none (UINT64_MAX).
 */
START_TEST(run_cgroup_memory_limit_walks_up)
{
	char root[] = "/tmp/check_run.XXXXXX", dir[300], cmd[400];

	ck_assert_ptr_nonnull(mkdtemp(root));
	put(root, "memory.max", "max\n");
	snprintf(dir, sizeof(dir), "%s/a", root);
	put(dir, "memory.max", "1073741824\n");
	snprintf(dir, sizeof(dir), "%s/a/b", root);
	put(dir, "memory.max", "2147483648\n");
	snprintf(dir, sizeof(dir), "%s/memory/x", root);
	put(dir, "memory.limit_in_bytes", "536870912\n");
	ck_assert_uint_eq(run_cgroup_memory_limit("0::/a/b\n", root),
			  1073741824ull);
	ck_assert_uint_eq(run_cgroup_memory_limit("4:memory:/x\n", root),
			  536870912ull);
	ck_assert_uint_eq(run_cgroup_memory_limit("4:cpu,memory:/x\n0::/a/b\n",
						  root),
			  536870912ull);
	ck_assert_uint_eq(run_cgroup_memory_limit("0::/\n", root), UINT64_MAX);
	ck_assert_uint_eq(run_cgroup_memory_limit("0::/none\n3:cpu:/a\n", root),
			  UINT64_MAX);
	ck_assert_uint_eq(run_cgroup_memory_limit("", root), UINT64_MAX);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/*
 * --sensitivity on CPU 0 alone running an ops program (no work_ns, so the
 * work nudges change nothing; rmw_local 5 ns, a hit on its own line),
 * 0.1 ms so that the ~6700 programs of a run count to 0.02%. Time per
 * program T, the change against rmw = 15 / T - 1, and with every latency
 * times 0.95 / 0.99 / 1.01 / 1.05 (rmw_local 4.75 / 4.95 / 5.05 / 5.25):
 *
 *	variant   program                T      change  lat-5%  -1%    +1%    +5%
 *	rmw       rmw, delay 10          15     base    14.75  14.95  15.05  15.25
 *	delay     delay 15.2             15.2   -1.32  -2.96  -1.64  -0.99  +0.33
 *	two-rmw   rmw, rmw, delay 4.6    14.6   +2.74  +4.61  +3.10  +2.38  +0.99
 *	delay14.3 delay 14.3             14.3   +4.90  +3.15  +4.55  +5.24  +6.64
 *
 * (two-rmw at lat-5%: 14.75 / (9.5 + 4.6) - 1.) Expect delay flagged SIGN
 * under latencies +5% (-1.32 turns to +0.33), two-rmw and delay14.3
 * flagged RANK under latencies -5% (+4.61 against +3.15: the order of
 * +2.74 < +4.90 turns over), nothing at 1%; three predictions flagged.
 */
static const char sens_workload[] =
	"workloads:\n"
	"  - type: ops\n"
	"    cpus: '0'\n"
	"    objects: [{name: s, fields: {a: 0}}]\n"
	"    program: [{rmw: s.a}, {delay_ns: 10}]\n"
	"baseline: rmw\n"
	"variants:\n"
	"  - {name: rmw}\n"
	"  - {name: delay, set: {workloads.0.program: [{delay_ns: 15.2}]}}\n"
	"  - {name: two-rmw, set: {workloads.0.program:\n"
	"      [{rmw: s.a}, {rmw: s.a}, {delay_ns: 4.6}]}}\n"
	"  - {name: delay14.3, set: {workloads.0.program: [{delay_ns: 14.3}]}}\n";

START_TEST(sensitivity_run_flags)
{
	static const char *const sets[] = { "duration_ms=0.1" };
	struct run_opts o = opts();
	struct sensitivity s;
	struct sim_error err;
	unsigned int flagged = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	scenario_write(sens_workload);
	o.sets = sets;
	o.nr_sets = 1;
	ck_assert_int_eq(sensitivity_parse(NULL, &s), 0);
	ck_assert_uint_eq(s.nr, 2);
	sim_error_clear(&err);
	ck_assert_msg(!sensitivity_run(path, &o, &s, out, &flagged, &err), "%s",
		      err.msg);
	ck_assert_int_eq(fclose(out), 0);
	ck_assert_uint_eq(flagged, 3);
	ck_assert_msg(strstr(buf, "  delay          rmw          -1.3%    "
				  "-1.6..  -1.0    -3.0..  +0.3  SIGN\n"
				  "    SIGN: the change turns over under "
				  "latencies +5%\n"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "RANK: above delay14.3 under latencies -5%"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "RANK: below two-rmw under latencies -5%"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "3 of 3 predictions flagged"), "%s", buf);
	free(buf);
}
END_TEST

/* "1,5%,0.5" reads; 0, 100, a fifth step, "x" and "1," do not. */
START_TEST(sensitivity_parse_steps)
{
	struct sensitivity s;

	ck_assert_int_eq(sensitivity_parse("1,5%,0.5", &s), 0);
	ck_assert_uint_eq(s.nr, 3);
	ck_assert(s.pct[0] == 1 && s.pct[1] == 5 && s.pct[2] == 0.5);
	ck_assert_int_eq(sensitivity_parse("0", &s), -1);
	ck_assert_int_eq(sensitivity_parse("100", &s), -1);
	ck_assert_int_eq(sensitivity_parse("1,2,3,4,5", &s), -1);
	ck_assert_int_eq(sensitivity_parse("x", &s), -1);
	ck_assert_int_eq(sensitivity_parse("1,", &s), -1);
}
END_TEST

static Suite *run_suite(void)
{
	Suite *s = suite_create("run");
	TCase *tc = tcase_create("metrics");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, scenario_run_base_metrics);
	tcase_add_test(tc, scenario_run_two_workloads_add_up);
	suite_add_tcase(s, tc);
	tc = tcase_create("variants");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, scenario_run_variants_set);
	tcase_add_test(tc, scenario_run_set_precedence);
	tcase_add_test(tc, scenario_run_baselines);
	tcase_add_test(tc, scenario_run_provenance);
	tcase_add_test(tc, scenario_run_one_variant);
	tcase_add_test(tc, scenario_run_check_only);
	tcase_add_test(tc, sensitivity_run_flags);
	tcase_add_test(tc, sensitivity_parse_steps);
	tcase_add_test(tc, scenario_run_phase_hook);
	tcase_add_test(tc, scenario_run_netperf_socket_memcgs);
	tcase_add_test(tc, scenario_run_netperf_v1_tcpmem);
	tcase_add_test(tc, scenario_run_netperf_backlog_auto);
	tcase_add_test(tc, scenario_run_netperf_sched_fair);
	suite_add_tcase(s, tc);
	tc = tcase_create("seeds");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, scenario_run_replications_seeds);
	tcase_add_test(tc, scenario_run_deterministic);
	suite_add_tcase(s, tc);
	tc = tcase_create("errors");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_loop_test(tc, scenario_run_bad_input, 0,
			    ARRAY_SIZE(bad_cases));
	tcase_add_test(tc, scenario_run_missing_file);
	tcase_add_test(tc, run_key_tables_sound);
	tcase_add_test(tc, run_cgroup_memory_limit_walks_up);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(run_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
