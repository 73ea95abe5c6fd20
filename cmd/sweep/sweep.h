/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/sweep/sweep.h - parameter sweeps: `memcgsim sweep` and `memcgsim merge`.
 *
 * Theory of operation: a sweep varies scenario keys over lists of values
 * (--vary KEY=V1,V2,...) and runs the scenario, every variant of it, at
 * each point of their cartesian product. Points are numbered 0..P-1 in
 * nested-loop order, the first --vary changing slowest:
 *
 *	--vary a=1,2 --vary b=x,y,z	point  0  1  2  3  4  5
 *					a      1  1  1  2  2  2
 *					b      x  y  z  x  y  z
 *
 * Point i runs exactly what `memcgsim run SCENARIO --set ... --set a=1
 * --set b=y` runs: the sweep's own --set options first, then one --set per
 * --vary key (a --vary value is a YAML scalar, like a --set value; a
 * variant's own `set:` still wins over both).
 *
 * The output directory DIR holds
 *
 *	DIR/sweep.meta		what is swept (YAML; written first)
 *	DIR/points/NNNN.yaml	point NNNN's report, as run --format yaml
 *	DIR/points/NNNN.csv	the same, as run --format csv
 *	DIR/points/NNNN.sum	written last: the sweep's id, the point, and
 *				the content digests of NNNN.yaml and NNNN.csv
 *	DIR/sweep.csv		the merge: a row per point and variant
 *	DIR/sweep.yaml		the merge: every point's variants
 *
 * Every file is written whole or not at all (sim/file.h: a
 * temporary file, then rename), and SIGINT, SIGTERM and SIGHUP are held
 * back while a point writes its files. So a point is done exactly when
 * its three files exist and NNNN.sum vouches for the other two (the
 * sweep's id and the point number match, and so do the digests; a point
 * file cut short, edited, copied from another point or sweep, or replaced
 * by a symbolic link does not: a resumed sweep runs such a point again,
 * and merge refuses it); a killed sweep keeps every finished point and
 * leaves no temporary file (short of SIGKILL in the middle of a write,
 * whose leftover `NNNN.yaml.tmpXXXXXX` no reader mistakes for a result);
 * and a rerun skips the points that are done (resume). sweep.meta makes
 * sure that the rerun is the same sweep: the same scenario file (by
 * absolute path, and by the content digests of the file and of the
 * machine profiles it names), --vary, --set, --seed, --replications and
 * memcgsim version.
 *
 * Where the points run does not matter. sweep_run() runs them in this
 * process (one job) or in forked children (N jobs; a child per point, at
 * most N at once; the parent only schedules, counts and collects each
 * failed child's struct sim_error through a pipe); sweep_plan() prints
 * one `memcgsim sweep DIR/sweep.meta --point I` command line per point for
 * GNU parallel, Slurm or any other launcher (sweep_setup() reads the sweep
 * back from a sweep.meta given as its SCENARIO). Either way the results
 * are put together by sweep_merge() alone, from the point files and in
 * point order, so the bytes of sweep.csv and sweep.yaml cannot depend on
 * how, where or in which order the points ran.
 *
 * Merged files: sweep.csv is the per-point CSV header prefixed with
 * `point` and one column per --vary key, then per point and variant the
 * point number, the key values as given, and the per-point row (should
 * points have different columns, the header is their union, in order of
 * first appearance, and a point's missing columns are empty), after the
 * sweep's provenance as "# KEY: VALUE" lines (cmd/sweep/merge.c). sweep.yaml
 * is one document: the first point's scenario, seed, replications and
 * baseline, the sweep's provenance; vary: [{key, values}]; points: [{point,
 * set: {KEY: VALUE}, variants: <the point's report variants>}].
 *
 * Layering: cli/ command above cmd/run/run.h, sim/report.h, sim/csv.h,
 * sim/file.h and sim/yaml_emit.h. Points, files and plans are in
 * cmd/sweep/sweep.c, the local jobs in cmd/sweep/jobs.c, the merge in
 * cmd/sweep/merge.c, digests and the check of a point's files in
 * cmd/sweep/verify.c. Reads no clock: the caller's progress hook does.
 */
#ifndef CLI_SWEEP_H
#define CLI_SWEEP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd/run/run.h"
#include "sim/error.h"

#define SWEEP_MAX_POINTS 10000 /* more only with --force */
#define SWEEP_HARD_MAX_POINTS 1000000 /* even with --force */
#define SWEEP_MAX_KEYS 16
#define SWEEP_DIGEST_LEN 72 /* "sha256:" 64 hex digits, NUL; or a version */

/* sweep_merge() and sweep_run() failures: */
#define SWEEP_FAILED (-1) /* a point failed, or points are missing */
#define SWEEP_BAD_INPUT (-2) /* not a sweep directory, or another sweep */

/**
 * struct sweep_key - one --vary option.
 * @key: the dotted scenario path
 * @nr_values: at least one
 * @values: the values as given
 */
struct sweep_key {
	char *key;
	unsigned int nr_values;
	char **values;
};

/**
 * struct sweep - what is swept, and where the results go.
 * @scenario: the scenario file, absolute path
 * @given: the scenario file as given on the command line
 * @dir: the output directory, absolute path
 * @nr_keys: --vary options, in command-line order
 * @keys: the --vary options
 * @nr_sets: --set options
 * @sets: the --set options ("KEY=VALUE"), applied before the --vary ones
 * @seed_set: --seed was given
 * @seed: --seed
 * @replications: --replications (>= 1)
 * @nr_points: the product of the value counts
 * @datadir: shipped scenarios and profiles (borrowed)
 * @hot_lines: hot lines per variant in the point reports
 * @max_memory: --max-memory of each point's run (not in sweep.meta)
 * @max_events: --max-events of each point's run (not in sweep.meta)
 * @version: the memcgsim version that made the sweep
 * @scenario_digest: "sha256:HEX" of the scenario file's bytes
 * @profiles_digest: the same of the machine profiles it names (their names
 *	as written and their bytes)
 * @id: the digest of sweep.meta's contents but @given: what a point's
 *	NNNN.sum says it belongs to
 *
 * Lifetime: embedded, caller-allocated: sweep_init() and sweep_destroy().
 * Every string is owned by the struct except @datadir.
 */
struct sweep {
	char *scenario;
	char *given;
	char *dir;
	unsigned int nr_keys;
	struct sweep_key keys[SWEEP_MAX_KEYS];
	unsigned int nr_sets;
	char **sets;
	bool seed_set;
	uint64_t seed;
	unsigned int replications;
	unsigned int nr_points;
	const char *datadir;
	unsigned int hot_lines;
	uint64_t max_memory;
	uint64_t max_events;
	char version[SWEEP_DIGEST_LEN];
	char scenario_digest[SWEEP_DIGEST_LEN];
	char profiles_digest[SWEEP_DIGEST_LEN];
	char id[SWEEP_DIGEST_LEN];
	/*
	 * Provenance for sweep.meta's reader, from the scenario with the
	 * --set options applied (not the --vary values): its machine
	 * ("inline" for a map), duration_ms and warmup_ms as written
	 * ("duration_ms / 10" when not).
	 */
	/* sweep_check() warns of variants that set a swept key (the run
	 * and --dry-run; not the --plan and --point steps of a batch job) */
	bool warn_overrides;
	/* sweep --variant: the one variant each point runs; NULL: all */
	char *variant;
	char machine[SWEEP_DIGEST_LEN];
	char duration[SWEEP_DIGEST_LEN];
	char warmup[SWEEP_DIGEST_LEN];
	/*
	 * --max-time (run_opts' time_up): true once the whole command's
	 * time is up; sweep_run() starts no point after that, and a point
	 * running then stops (in a child too: the clock is the parent's
	 * start). NULL: no limit. Not part of the sweep's identity.
	 */
	bool (*time_up)(void *arg);
	void *time_up_arg;
};

void sweep_init(struct sweep *s);
void sweep_destroy(struct sweep *s);

int sweep_vary(struct sweep *s, const char *arg, struct sim_error *err);
int sweep_setup(struct sweep *s, const char *scenario, const char *dir,
		const struct run_opts *o, bool force, struct sim_error *err);
int sweep_check(const struct sweep *s, struct sim_error *err);
struct estimate;
int sweep_estimate(const struct sweep *s,
		   void (*fn)(void *arg, unsigned int point, const char *desc,
			      const char *variant, const struct estimate *est),
		   void *arg, struct sim_error *err);
int sweep_prepare(const struct sweep *s, struct sim_error *err);

bool sweep_point_done(const struct sweep *s, unsigned int point);
unsigned int sweep_nr_done(const struct sweep *s);
int sweep_check_exe(const char *exe, struct sim_error *err);
long sweep_plan(const struct sweep *s, const char *exe, FILE *out,
		struct sim_error *err);
int sweep_run_point(const struct sweep *s, unsigned int point,
		    struct sim_error *err);

typedef void sweep_progress_fn(void *arg, unsigned int done, unsigned int ran,
			       unsigned int total);
int sweep_run(const struct sweep *s, unsigned int jobs,
	      sweep_progress_fn *progress, void *arg, int *signo,
	      struct sim_error *err);

int sweep_merge(const char *dir, unsigned int *nr_points,
		struct sim_error *err);

#endif /* CLI_SWEEP_H */
