// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/sweep/sweep.c - parameter sweeps: points, their files, sweep.meta, plans
 * and running one point. See cmd/sweep/sweep.h for the theory of operation; the
 * local pool of jobs is in cmd/sweep/jobs.c, the merge in
 * cmd/sweep/merge.c.
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "config.h"

#include "cmd/sweep/sweep.h"
#include "cmd/sweep/internal.h"
#include "sim/file.h"
#include "sim/report.h"
#include "sim/scenario.h"
#include "sim/yaml_emit.h"

#define VARY_FILE "--vary"
#define META_NAME "sweep.meta"
#define META_VERSION 3

const int sweep__stop_signals[SWEEP__NR_STOP_SIGNALS] = { SIGINT, SIGTERM,
							  SIGHUP };

char *sweep__xstrdup(const char *s)
{
	char *p = strdup(s);

	SIM_OOM_ON(!p);
	return p;
}

char *sweep__xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	SIM_BUG_ON(n < 0);
	return p;
}

/* The first control character (C0 or DEL) of @s, or NULL. */
const char *sweep__control_char(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return s;
	return NULL;
}

/*
 * @s for a message, at most @size bytes with its NUL: printable bytes as
 * they are, control characters as \n, \t or \xHH, so that nothing from
 * the command line reaches a terminal raw.
 */
void sweep__escape(char *buf, size_t size, const char *s)
{
	size_t len = 0;

	for (; *s && len + 5 < size; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n')
			len += (size_t)snprintf(buf + len, size - len, "\\n");
		else if (c == '\t')
			len += (size_t)snprintf(buf + len, size - len, "\\t");
		else if (c < 0x20 || c == 0x7f)
			len += (size_t)snprintf(buf + len, size - len,
						"\\x%02x", c);
		else
			buf[len++] = (char)c;
	}
	buf[len] = '\0';
}

/*
 * Refuse @s, what @what names, when it holds a control character: a plan
 * line (sweep_plan()) is one line per point, and a newline or carriage
 * return inside a value would split it for parallel, xargs or a Slurm
 * array, whatever the quoting. Return 0, or -1 with @err set.
 */
static int refuse_control(const char *file, const char *what, const char *s,
			  struct sim_error *err)
{
	const char *c = sweep__control_char(s);
	char shown[160];

	if (!c)
		return 0;
	sweep__escape(shown, sizeof(shown), s);
	sim_error_set(
		err, file, 0, 0,
		"%s '%s' holds a control character (byte 0x%02x at offset %zu); a sweep refuses them, as each point's --plan line must stay one line",
		what, shown, (unsigned char)*c, (size_t)(c - s));
	return -1;
}

/**
 * sweep_init() - an empty sweep: no keys, one replication.
 * @s: the sweep
 */
void sweep_init(struct sweep *s)
{
	memset(s, 0, sizeof(*s));
	s->replications = 1;
	s->hot_lines = 4;
}

/**
 * sweep_destroy() - free what @s owns and leave it as sweep_init() did.
 * @s: the sweep
 */
void sweep_destroy(struct sweep *s)
{
	unsigned int i, j;

	for (i = 0; i < s->nr_keys; i++) {
		for (j = 0; j < s->keys[i].nr_values; j++)
			free(s->keys[i].values[j]);
		free(s->keys[i].values);
		free(s->keys[i].key);
	}
	for (i = 0; i < s->nr_sets; i++)
		free(s->sets[i]);
	free(s->sets);
	free(s->scenario);
	free(s->given);
	free(s->variant);
	free(s->dir);
	sweep_init(s);
}

/* Add value @v (@len bytes) to @k. */
static void key_add_value(struct sweep_key *k, const char *v, size_t len)
{
	char **grown = realloc(k->values, (k->nr_values + 1) * sizeof(*grown));

	SIM_OOM_ON(!grown);
	k->values = grown;
	k->values[k->nr_values] = strndup(v, len);
	SIM_OOM_ON(!k->values[k->nr_values]);
	k->nr_values++;
}

/**
 * sweep_vary() - add one --vary option.
 * @s: the sweep
 * @arg: "KEY=V1,V2,..."
 * @err: filled on failure
 *
 * Refuses an argument without '=' or without a key, an empty value list
 * or empty value ("k=", "k=a,,b"), a key given twice and more than
 * SWEEP_MAX_KEYS keys. Whether the key and values make sense for the
 * scenario is sweep_check()'s business.
 *
 * Return: 0, or -1 with @err set.
 */
int sweep_vary(struct sweep *s, const char *arg, struct sim_error *err)
{
	const char *eq = strchr(arg, '='), *p, *comma;
	struct sweep_key *k;
	unsigned int i;

	if (!eq || eq == arg) {
		sim_error_set(err, VARY_FILE, 0, 0,
			      "expected KEY=V1,V2,..., found '%s'", arg);
		return -1;
	}
	for (i = 0; i < s->nr_keys; i++) {
		if (strlen(s->keys[i].key) == (size_t)(eq - arg) &&
		    !strncmp(s->keys[i].key, arg, eq - arg)) {
			sim_error_set(
				err, VARY_FILE, 0, 0,
				"key '%s' is given twice; give all its values in one --vary %s=V1,V2,...",
				s->keys[i].key, s->keys[i].key);
			return -1;
		}
	}
	if (refuse_control(VARY_FILE, "the --vary option", arg, err))
		return -1;
	if (!eq[1]) {
		sim_error_set(err, VARY_FILE, 0, 0,
			      "'%s' has no values: expected %.*s=V1,V2,...",
			      arg, (int)(eq - arg), arg);
		return -1;
	}
	for (p = eq + 1; p; p = comma ? comma + 1 : NULL) {
		comma = strchr(p, ',');
		if (comma == p || !*p) {
			sim_error_set(
				err, VARY_FILE, 0, 0,
				"empty value in '%s': values are separated by single commas",
				arg);
			return -1;
		}
	}
	if (s->nr_keys == SWEEP_MAX_KEYS) {
		sim_error_set(err, VARY_FILE, 0, 0, "at most %d --vary options",
			      SWEEP_MAX_KEYS);
		return -1;
	}
	k = &s->keys[s->nr_keys++];
	k->key = strndup(arg, eq - arg);
	SIM_OOM_ON(!k->key);
	for (p = eq + 1; p; p = comma ? comma + 1 : NULL) {
		comma = strchr(p, ',');
		key_add_value(k, p, comma ? (size_t)(comma - p) : strlen(p));
	}
	return 0;
}

/* @path absolute: as is if it is, else below the working directory. */
static char *abs_path(const char *path)
{
	char cwd[PATH_MAX];

	if (path[0] == '/')
		return sweep__xstrdup(path);
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	if (!getcwd(cwd, sizeof(cwd)))
		return sweep__xstrdup(path);
	if (!strcmp(path, "."))
		return sweep__xstrdup(cwd);
	return sweep__xasprintf("%s%s%s", cwd, strcmp(cwd, "/") ? "/" : "",
				path);
}

/* The default output directory: sweep-<scenario name> (else file name). */
static char *default_dir(const char *scenario)
{
	struct scenario_node *tree;
	struct sim_error ignored;
	const char *name = NULL, *base;
	char *dir, *p;
	size_t len;

	tree = scenario_load_file(scenario, &ignored);
	if (tree &&
	    scenario_string(tree, "scenario", false, NULL, &name, &ignored))
		name = NULL;
	if (name && *name) {
		dir = sweep__xasprintf("sweep-%s", name);
	} else {
		base = strrchr(scenario, '/');
		base = base ? base + 1 : scenario;
		len = strlen(base);
		if (len > 5 && !strcmp(base + len - 5, ".yaml"))
			len -= 5;
		dir = sweep__xasprintf("sweep-%.*s", (int)len, base);
	}
	scenario_free(tree);
	for (p = dir; *p; p++)
		if (*p == '/' || *p == ' ' || (unsigned char)*p < 0x20 ||
		    *p == 0x7f)
			*p = '_';
	return dir;
}

static void sweep_id(struct sweep *s);

/*
 * What a sweep takes from the command line however it was set up (the
 * data directory, the budgets), this version, and then the digests of
 * the scenario and profiles as they are now and the id made of them.
 */
static void sweep_setup_common(struct sweep *s, const struct run_opts *o)
{
	s->datadir = o->datadir;
	s->hot_lines = o->hot_lines;
	s->max_memory = o->max_memory;
	s->max_events = o->max_events;
	s->time_up = o->time_up;
	s->time_up_arg = o->time_up_arg;
	snprintf(s->version, sizeof(s->version), "%s", PACKAGE_VERSION);
	sweep__digests(s);
	sweep_id(s);
}

/*
 * `memcgsim sweep DIR/sweep.meta ...`: the sweep that DIR/sweep.meta
 * describes, as its --plan lines run it. Its digests and id are those of
 * the scenario and profiles as they are now, so that sweep_prepare()
 * refuses them if they were edited since the sweep began.
 */
static int setup_from_meta(struct sweep *s, const char *meta, const char *dir,
			   const struct run_opts *o, struct sim_error *err)
{
	char *real, *copy;
	int ret;

	if (dir || o->nr_sets || o->seed_set || o->replications != 1) {
		sim_error_set(
			err, meta, 0, 0,
			"a sweep run from its %s takes no --vary, --set, --seed, --replications or --out: they are in it",
			META_NAME);
		return -1;
	}
	real = realpath(meta, NULL);
	if (!real) {
		sim_error_set(err, meta, 0, 0, "cannot open: %s",
			      strerror(errno));
		return -1;
	}
	copy = sweep__xstrdup(real);
	ret = refuse_control("", "the sweep's directory", real, err) ?:
		      sweep__meta_read(s, dirname(copy), err);
	free(copy);
	free(real);
	if (ret)
		return -1;
	sweep_setup_common(s, o);
	return 0;
}

/* Whether @path names a sweep.meta (its last component). */
static bool is_meta_path(const char *path)
{
	const char *base = strrchr(path, '/');

	return !strcmp(base ? base + 1 : path, META_NAME);
}

/**
 * sweep_setup() - complete @s for a run: paths, options and point count.
 * @s: the sweep, with its --vary options added
 * @scenario: the scenario file as given
 * @dir: --out, or NULL for sweep-<scenario name> in the working directory
 * @o: the run options the points share: datadir, sets, seed,
 *	replications, hot_lines
 * @force: allow more than SWEEP_MAX_POINTS points
 * @err: filled on failure
 *
 * Without --vary options, a @scenario named sweep.meta is a sweep's own
 * (a --plan line): the sweep is read from it, DIR is its directory, and
 * @dir and the options in @o that it records must not be given.
 * Control characters in the values, the paths and --out are refused.
 *
 * Return: 0, or -1 with @err set (bad input: exit status 2).
 */
int sweep_setup(struct sweep *s, const char *scenario, const char *dir,
		const struct run_opts *o, bool force, struct sim_error *err)
{
	unsigned long long points = 1;
	unsigned int i;
	char *real;

	if (!s->nr_keys && is_meta_path(scenario))
		return setup_from_meta(s, scenario, dir, o, err);
	if (!s->nr_keys) {
		sim_error_set(err, "", 0, 0,
			      "sweep: no --vary KEY=V1,V2,... given");
		return -1;
	}
	for (i = 0; i < s->nr_keys; i++) {
		points *= s->keys[i].nr_values;
		if (points > SWEEP_HARD_MAX_POINTS)
			break;
	}
	if (points > SWEEP_HARD_MAX_POINTS ||
	    (points > SWEEP_MAX_POINTS && !force)) {
		sim_error_set(
			err, VARY_FILE, 0, 0,
			"the sweep has %s%llu points, more than the limit of %d%s",
			i < s->nr_keys ? "over " : "", points,
			points > SWEEP_HARD_MAX_POINTS ? SWEEP_HARD_MAX_POINTS :
							 SWEEP_MAX_POINTS,
			points > SWEEP_HARD_MAX_POINTS ?
				"" :
				"; use --force to run them anyway");
		return -1;
	}
	s->nr_points = (unsigned int)points;
	for (i = 0; i < o->nr_sets; i++)
		if (refuse_control("--set", "the --set option", o->sets[i],
				   err))
			return -1;
	if (refuse_control("", "the scenario path", scenario, err) ||
	    (dir && refuse_control("--out", "the output directory", dir, err)))
		return -1;
	real = realpath(scenario, NULL);
	if (!real) {
		/* Let the loader say what is wrong with the file. */
		struct scenario_node *tree = scenario_load_file(scenario, err);

		scenario_free(tree);
		if (!tree)
			return -1;
		real = abs_path(scenario);
	}
	s->scenario = real;
	s->given = sweep__xstrdup(scenario);
	if (dir) {
		s->dir = abs_path(dir);
	} else {
		char *d = default_dir(scenario);

		s->dir = abs_path(d);
		free(d);
	}
	/* The working directory or a symbolic link may bring one in. */
	if (refuse_control("", "the scenario's absolute path", s->scenario,
			   err) ||
	    refuse_control("--out", "the output directory's absolute path",
			   s->dir, err))
		return -1;
	if (o->variant) {
		if (refuse_control("--variant", "the --variant option",
				   o->variant, err))
			return -1;
		s->variant = sweep__xstrdup(o->variant);
	}
	s->sets = calloc(o->nr_sets + 1, sizeof(*s->sets));
	SIM_OOM_ON(!s->sets);
	for (i = 0; i < o->nr_sets; i++)
		s->sets[i] = sweep__xstrdup(o->sets[i]);
	s->nr_sets = o->nr_sets;
	s->seed_set = o->seed_set;
	s->seed = o->seed;
	s->replications = o->replications;
	sweep_setup_common(s, o);
	return 0;
}

/* Which value of each key point @point takes: @idx[k]. */
void sweep__point_index(const struct sweep *s, unsigned int point,
			unsigned int *idx)
{
	unsigned int k = s->nr_keys;

	while (k--) {
		idx[k] = point % s->keys[k].nr_values;
		point /= s->keys[k].nr_values;
	}
}

/*
 * The --set list of a point: the sweep's sets, then "KEY=VALUE" for each
 * key at value @idx[k]. Free with free_sets().
 */
static char **point_sets(const struct sweep *s, const unsigned int *idx)
{
	char **sets = calloc(s->nr_sets + s->nr_keys, sizeof(*sets));
	unsigned int i;

	SIM_OOM_ON(!sets);
	for (i = 0; i < s->nr_sets; i++)
		sets[i] = sweep__xstrdup(s->sets[i]);
	for (i = 0; i < s->nr_keys; i++)
		sets[s->nr_sets + i] = sweep__xasprintf(
			"%s=%s", s->keys[i].key, s->keys[i].values[idx[i]]);
	return sets;
}

static void free_sets(const struct sweep *s, char **sets)
{
	unsigned int i;

	for (i = 0; i < s->nr_sets + s->nr_keys; i++)
		free(sets[i]);
	free(sets);
}

/* "a=1 b=x": point @point's values, for messages. */
static void point_desc(const struct sweep *s, unsigned int point, char *buf,
		       size_t size)
{
	unsigned int idx[SWEEP_MAX_KEYS], i;
	size_t len = 0;

	buf[0] = '\0';
	sweep__point_index(s, point, idx);
	for (i = 0; i < s->nr_keys && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s=%s",
					i ? " " : "", s->keys[i].key,
					s->keys[i].values[idx[i]]);
}

static void point_opts(const struct sweep *s, struct run_opts *o, char **sets)
{
	memset(o, 0, sizeof(*o));
	o->datadir = s->datadir;
	o->sets = (const char *const *)sets;
	o->nr_sets = s->nr_sets + s->nr_keys;
	o->seed_set = s->seed_set;
	o->seed = s->seed;
	o->replications = s->replications;
	o->hot_lines = s->hot_lines;
	o->max_memory = s->max_memory;
	o->max_events = s->max_events;
	o->variant = s->variant;
	o->time_up = s->time_up;
	o->time_up_arg = s->time_up_arg;
}

/* Put @before and @after around @err's message (cut to fit). */
void sweep__wrap_msg(struct sim_error *err, const char *before,
		     const char *after)
{
	char msg[SIM_ERROR_MSG_MAX];

	memcpy(msg, err->msg, sizeof(msg));
	msg[sizeof(msg) - 1] = '\0';
	if (snprintf(err->msg, sizeof(err->msg), "%s%s%s", before, msg,
		     after) >= (int)sizeof(err->msg))
		return; /* cut: the start says the most */
}

struct sweep_estimate_ctx {
	void (*fn)(void *arg, unsigned int point, const char *desc,
		   const char *variant, const struct estimate *est);
	void *arg;
	unsigned int point;
	char desc[512];
};

static void point_estimate(void *arg, const char *variant,
			   const struct estimate *est)
{
	struct sweep_estimate_ctx *ctx = arg;

	ctx->fn(ctx->arg, ctx->point, ctx->desc, variant, est);
}

/* Check the scenario with the sets at @idx, the first @nr_keys keys only. */
static int check_one(const struct sweep *s, const unsigned int *idx,
		     unsigned int nr_keys, struct sim_error *err)
{
	char **sets = point_sets(s, idx);
	struct report *r = NULL;
	struct run_opts o;
	int ret;

	point_opts(s, &o, sets);
	o.nr_sets = s->nr_sets + nr_keys;
	o.check_only = true;
	ret = scenario_run(s->scenario, &o, &r, err);
	report_free(r);
	free_sets(s, sets);
	return ret;
}

/**
 * sweep_estimate() - what each point would cost (sweep --dry-run).
 * @s: the sweep, set up and checked
 * @fn: called with each selected variant's estimate of each point, in
 *	point order; @desc names the point ("KEY=VALUE ...")
 * @arg: for @fn
 * @err: filled on failure
 *
 * Each point is loaded and checked as its run would be (its variants one
 * at a time), and nothing runs or is written.
 *
 * Return: 0, or -1 with @err set (bad input: exit status 2).
 */
int sweep_estimate(const struct sweep *s,
		   void (*fn)(void *arg, unsigned int point, const char *desc,
			      const char *variant, const struct estimate *est),
		   void *arg, struct sim_error *err)
{
	struct sweep_estimate_ctx ctx = { .fn = fn, .arg = arg };
	unsigned int idx[SWEEP_MAX_KEYS];
	struct report *r = NULL;
	struct run_opts o;
	char **sets;
	int ret = 0;

	for (ctx.point = 0; ctx.point < s->nr_points && !ret; ctx.point++) {
		point_desc(s, ctx.point, ctx.desc, sizeof(ctx.desc));
		sweep__point_index(s, ctx.point, idx);
		sets = point_sets(s, idx);
		point_opts(s, &o, sets);
		o.check_only = true;
		o.estimate = point_estimate;
		o.estimate_arg = &ctx;
		ret = scenario_run(s->scenario, &o, &r, err);
		report_free(r);
		free_sets(s, sets);
	}
	return ret;
}

/**
 * sweep_check() - refuse bad --vary keys and values before anything runs.
 * @s: the sweep, set up
 * @err: filled on failure
 *
 * Checks the scenario as `run` would (every variant loaded and
 * range-checked, nothing run): first with the --set options alone, then
 * with every key at its first value, then each other value of each key
 * with the other keys at their first values. So an unknown key gets the
 * loader's "unknown key ...; did you mean ..." and a bad value its usual
 * message, both blamed on --vary (the errors of values that only clash in
 * combination show when their point runs). The number of checks is the
 * sum of the value counts, not their product.
 *
 * Return: 0, or -1 with @err set (bad input: exit status 2).
 */
int sweep_check(const struct sweep *s, struct sim_error *err)
{
	unsigned int idx[SWEEP_MAX_KEYS] = { 0 }, k, v;
	struct sweep__overrides ov;
	char with[256];

	if (check_one(s, idx, 0, err))
		return -1;
	/* a variant's set: of a varied key that sweep.csv could not record */
	if (sweep__overrides_load(s, &ov, err))
		return -1;
	/* said, since each such row runs one value at every point */
	for (k = 0; s->warn_overrides && k < ov.nr; k++) {
		char name[256], key[256], value[256];

		sim_escape(name, sizeof(name), ov.o[k].variant);
		sim_escape(key, sizeof(key), s->keys[ov.o[k].key].key);
		sim_escape(value, sizeof(value), ov.o[k].value);
		fprintf(stderr,
			"memcgsim: warning: variant '%s' sets %s=%s itself, so its rows run that value at every point of --vary %s\n",
			name, key, value, key);
	}
	sweep__overrides_free(&ov);
	for (k = 0; k < s->nr_keys; k++) {
		for (v = k ? 1 : 0; v < s->keys[k].nr_values; v++) {
			idx[k] = v;
			if (!check_one(s, idx, s->nr_keys, err))
				continue;
			/* The value nodes say "--set"; they came from --vary. */
			if (!strcmp(err->file, "--set")) {
				snprintf(err->file, sizeof(err->file), "%s",
					 VARY_FILE);
			} else {
				snprintf(with, sizeof(with),
					 " (with --vary %s=%s)", s->keys[k].key,
					 s->keys[k].values[v]);
				sweep__wrap_msg(err, "", with);
			}
			return -1;
		}
		idx[k] = 0;
	}
	/* The scenario and its profiles are read: no output replaces one. */
	return sweep__outputs_check(s, true, true, err);
}

/* Issue 34, item 1: every output checked before the first is written. */
int sweep__outputs_check(const struct sweep *s, bool meta, bool points,
			 struct sim_error *err)
{
	static const char *const exts[] = { "yaml", "csv", "sum" };
	static const char *const merged[] = { META_NAME, "sweep.csv",
					      "sweep.yaml" };
	unsigned int i, e;
	char *path;
	int ret = 0;

	for (i = meta ? 0 : 1; i < 3 && !ret; i++) {
		path = sweep__xasprintf("%s/%s", s->dir, merged[i]);
		ret = sim_output_check(path, err);
		free(path);
	}
	for (i = 0; points && i < s->nr_points && !ret; i++)
		for (e = 0; e < 3 && !ret; e++) {
			path = sweep__point_path(s, i, exts[e]);
			ret = sim_output_check(path, err);
			free(path);
		}
	return ret;
}

/* ---- files ---- */

char *sweep__point_path(const struct sweep *s, unsigned int point,
			const char *ext)
{
	return sweep__xasprintf("%s/points/%04u.%s", s->dir, point, ext);
}

/**
 * sweep_point_done() - whether point @point is done and its files intact.
 * @s: the sweep
 * @point: 0..nr_points-1
 *
 * Return: true when the point needs no run (sweep__point_check()).
 */
bool sweep_point_done(const struct sweep *s, unsigned int point)
{
	struct sim_error ignored;

	return sweep__point_check(s, point, &ignored) == 1;
}

/**
 * sweep_nr_done() - how many points are done.
 * @s: the sweep
 *
 * Return: the number of points whose two files exist.
 */
unsigned int sweep_nr_done(const struct sweep *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < s->nr_points; i++)
		n += sweep_point_done(s, i);
	return n;
}

/* Remove point @point's temporary files, left by a killed writer. */
void sweep__remove_temps(const struct sweep *s, unsigned int point)
{
	char *dir = sweep__xasprintf("%s/points", s->dir), prefix[32];
	struct dirent *de;
	DIR *d = opendir(dir);
	size_t len;

	len = (size_t)snprintf(prefix, sizeof(prefix), "%04u.", point);
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, prefix, len) ||
		    !strstr(de->d_name, ".tmp"))
			continue;
		if (unlinkat(dirfd(d), de->d_name, 0) && errno != ENOENT)
			continue;
	}
	if (d)
		closedir(d);
	free(dir);
}

/*
 * sweep.meta: what merge and a resumed run need, nothing that changes
 * between hosts or runs except `given`:
 *
 *	memcgsim_sweep: 2
 *	memcgsim: "0.3"			(the version that made it)
 *	scenario: "/abs/path/x.yaml"
 *	scenario_digest: "sha256:..."	(of the file's bytes)
 *	profiles_digest: "sha256:..."	(of the machine profiles it names)
 *	machine: "skx-2s-72"		(as the scenario names it, after --set)
 *	duration_ms: "20"		(likewise)
 *	warmup_ms: "duration_ms / 10"	(likewise, or the default's rule)
 *	given: "x.yaml"
 *	seed: 7				(only with --seed)
 *	replications: 1
 *	variant: "base"			(only with --variant)
 *	set: ["duration_ms=1"]
 *	vary:
 *	- key: "kernel.charge_batch"
 *	  values: ["16", "32"]
 *	points: 2
 */
static int meta_emit(FILE *out, const struct sweep *s, bool given)
{
	struct sim_yaml y;
	unsigned int i, j;

	sim_yaml_begin(&y, out);
	sim_yaml_map_start(&y, false);
	sim_yaml_plain(&y, "memcgsim_sweep");
	sim_yaml_u64(&y, META_VERSION);
	sim_yaml_plain(&y, "memcgsim");
	sim_yaml_quoted(&y, s->version);
	sim_yaml_plain(&y, "scenario");
	sim_yaml_quoted(&y, s->scenario);
	sim_yaml_plain(&y, "scenario_digest");
	sim_yaml_quoted(&y, s->scenario_digest);
	sim_yaml_plain(&y, "profiles_digest");
	sim_yaml_quoted(&y, s->profiles_digest);
	sim_yaml_plain(&y, "machine");
	sim_yaml_quoted(&y, s->machine);
	sim_yaml_plain(&y, "duration_ms");
	sim_yaml_quoted(&y, s->duration);
	sim_yaml_plain(&y, "warmup_ms");
	sim_yaml_quoted(&y, s->warmup);
	if (given) {
		sim_yaml_plain(&y, "given");
		sim_yaml_quoted(&y, s->given);
	}
	if (s->seed_set) {
		sim_yaml_plain(&y, "seed");
		sim_yaml_u64(&y, s->seed);
	}
	sim_yaml_plain(&y, "replications");
	sim_yaml_u64(&y, s->replications);
	if (s->variant) {
		sim_yaml_plain(&y, "variant");
		sim_yaml_quoted(&y, s->variant);
	}
	sim_yaml_plain(&y, "set");
	sim_yaml_seq_start(&y, true);
	for (i = 0; i < s->nr_sets; i++)
		sim_yaml_quoted(&y, s->sets[i]);
	sim_yaml_seq_end(&y);
	sim_yaml_plain(&y, "vary");
	sim_yaml_seq_start(&y, false);
	for (i = 0; i < s->nr_keys; i++) {
		sim_yaml_map_start(&y, false);
		sim_yaml_plain(&y, "key");
		sim_yaml_quoted(&y, s->keys[i].key);
		sim_yaml_plain(&y, "values");
		sim_yaml_seq_start(&y, true);
		for (j = 0; j < s->keys[i].nr_values; j++)
			sim_yaml_quoted(&y, s->keys[i].values[j]);
		sim_yaml_seq_end(&y);
		sim_yaml_map_end(&y);
	}
	sim_yaml_seq_end(&y);
	sim_yaml_plain(&y, "points");
	sim_yaml_u64(&y, s->nr_points);
	sim_yaml_map_end(&y);
	return sim_yaml_end(&y);
}

static int write_meta(FILE *out, void *arg)
{
	return meta_emit(out, arg, true);
}

/*
 * @s->id: the digest of sweep.meta as @s would write it without `given`
 * (the one entry that may differ between two commands of one sweep).
 */
static void sweep_id(struct sweep *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	SIM_OOM_ON(!f);
	SIM_BUG_ON(meta_emit(f, s, false) || fclose(f));
	sweep__digest_buf(s->id, buf, len);
	free(buf);
}

/* Read a list of strings at @key of @map into a new array. */
static int meta_strings(const struct scenario_node *map, const char *key,
			char ***out, unsigned int *nr, struct sim_error *err)
{
	const struct scenario_node *n = scenario_get(map, key);
	size_t i;

	*out = NULL;
	*nr = 0;
	if (!n)
		return 0;
	if (scenario_kind(n) != SCENARIO_SEQ) {
		scenario_error(err, n, "expected a list of strings");
		return -1;
	}
	*out = calloc(scenario_len(n) + 1, sizeof(**out));
	SIM_OOM_ON(!*out);
	for (i = 0; i < scenario_len(n); i++) {
		const char *v = scenario_scalar(scenario_item(n, i));

		if (!v || !*v) {
			scenario_error(err, scenario_item(n, i),
				       "expected a non-empty string");
			return -1;
		}
		(*out)[(*nr)++] = sweep__xstrdup(v);
	}
	return 0;
}

static int meta_keys(struct sweep *s, const struct scenario_node *tree,
		     struct sim_error *err)
{
	const struct scenario_node *vary = scenario_get(tree, "vary");
	static const char *const keys[] = { "key", "values" };
	unsigned long long points = 1;
	uint64_t nr;
	const char *key;
	size_t i;

	if (!vary || scenario_kind(vary) != SCENARIO_SEQ ||
	    !scenario_len(vary) || scenario_len(vary) > SWEEP_MAX_KEYS) {
		scenario_error(
			err, vary ? vary : tree,
			"expected 'vary': a list of 1 to %d {key, values}",
			SWEEP_MAX_KEYS);
		return -1;
	}
	for (i = 0; i < scenario_len(vary); i++) {
		const struct scenario_node *item = scenario_item(vary, i);
		struct sweep_key *k = &s->keys[s->nr_keys];

		if (scenario_check_keys(item, keys, 2, err) ||
		    scenario_string(item, "key", true, NULL, &key, err))
			return -1;
		k->key = sweep__xstrdup(key);
		s->nr_keys++;
		if (meta_strings(item, "values", &k->values, &k->nr_values,
				 err))
			return -1;
		if (!k->nr_values) {
			scenario_error(err, item, "expected 'values'");
			return -1;
		}
		points *= k->nr_values;
		if (points > SWEEP_HARD_MAX_POINTS)
			break;
	}
	if (scenario_u64(tree, "points", true, 0, 1, SWEEP_HARD_MAX_POINTS, &nr,
			 err))
		return -1;
	if (nr != points) {
		scenario_error(err, scenario_get(tree, "points"),
			       "%llu points, but 'vary' makes %llu",
			       (unsigned long long)nr, points);
		return -1;
	}
	s->nr_points = (unsigned int)nr;
	return 0;
}

/* A digest or version string at @key of @map into @out; 0 or -1. */
static int meta_digest(const struct scenario_node *map, const char *key,
		       char *out, struct sim_error *err)
{
	const char *str;

	if (scenario_string(map, key, true, NULL, &str, err))
		return -1;
	if (strlen(str) >= SWEEP_DIGEST_LEN || sweep__control_char(str)) {
		scenario_error(err, scenario_get(map, key),
			       "expected at most %d printable characters",
			       SWEEP_DIGEST_LEN - 1);
		return -1;
	}
	snprintf(out, SWEEP_DIGEST_LEN, "%s", str);
	return 0;
}

/* Read DIR/sweep.meta into @s (sweep_init()ed); 0 or -1 with @err set. */
int sweep__meta_read(struct sweep *s, const char *dir, struct sim_error *err)
{
	static const char *const keys[] = {
		"memcgsim_sweep",
		"memcgsim",
		"scenario",
		"scenario_digest",
		"profiles_digest",
		"machine",
		"duration_ms",
		"warmup_ms",
		"given",
		"seed",
		"replications",
		"variant",
		"set",
		"vary",
		"points",
	};
	char *path = sweep__xasprintf("%s/" META_NAME, dir);
	struct scenario_node *tree;
	const char *str;
	uint64_t v;
	int ret = -1;

	if (access(path, F_OK)) {
		sim_error_set(err, dir, 0, 0,
			      "not a sweep's output directory (no %s in it)",
			      META_NAME);
		goto out;
	}
	tree = scenario_load_file(path, err);
	sim_input_forget_path(path); /* the sweep's own, rewritten */
	if (!tree)
		goto out;
	if (scenario_check_keys(tree, keys, sizeof(keys) / sizeof(keys[0]),
				err) ||
	    scenario_u64(tree, "memcgsim_sweep", true, 0, 1, META_VERSION, &v,
			 err))
		goto out_free;
	if (v < META_VERSION) {
		scenario_error(
			err, scenario_get(tree, "memcgsim_sweep"),
			"written by an older memcgsim, whose digests and provenance a resume or merge cannot check; run the sweep again into another --out");
		goto out_free;
	}
	if (meta_digest(tree, "memcgsim", s->version, err) ||
	    meta_digest(tree, "scenario_digest", s->scenario_digest, err) ||
	    meta_digest(tree, "profiles_digest", s->profiles_digest, err) ||
	    meta_digest(tree, "machine", s->machine, err) ||
	    meta_digest(tree, "duration_ms", s->duration, err) ||
	    meta_digest(tree, "warmup_ms", s->warmup, err))
		goto out_free;
	if (scenario_string(tree, "scenario", true, NULL, &str, err))
		goto out_free;
	s->scenario = sweep__xstrdup(str);
	if (scenario_string(tree, "given", false, s->scenario, &str, err))
		goto out_free;
	s->given = sweep__xstrdup(str);
	s->seed_set = scenario_get(tree, "seed") != NULL;
	if (scenario_u64(tree, "seed", false, 0, 0, UINT64_MAX, &s->seed,
			 err) ||
	    scenario_u64(tree, "replications", false, 1, 1, 1000, &v, err))
		goto out_free;
	s->replications = (unsigned int)v;
	if (scenario_get(tree, "variant")) {
		if (scenario_string(tree, "variant", true, NULL, &str, err))
			goto out_free;
		if (sweep__control_char(str)) {
			scenario_error(
				err, scenario_get(tree, "variant"),
				"a control character in the variant's name");
			goto out_free;
		}
		s->variant = sweep__xstrdup(str);
	}
	if (meta_strings(tree, "set", &s->sets, &s->nr_sets, err) ||
	    meta_keys(s, tree, err))
		goto out_free;
	s->dir = sweep__xstrdup(dir);
	sweep_id(s);
	ret = 0;
out_free:
	scenario_free(tree);
out:
	free(path);
	return ret;
}

/* What differs between the sweeps @a and @b, or NULL. */
static const char *meta_diff(const struct sweep *a, const struct sweep *b)
{
	unsigned int i, j;

	if (strcmp(a->scenario, b->scenario))
		return "the scenario files differ";
	if (strcmp(a->scenario_digest, b->scenario_digest))
		return "the scenario file was edited since the sweep began (its content digest differs), and its points would mix both versions";
	if (strcmp(a->profiles_digest, b->profiles_digest))
		return "a machine profile the scenario names was edited since the sweep began (their content digest differs), and its points would mix both versions";
	if (strcmp(a->version, b->version))
		return "the memcgsim versions differ";
	if ((a->variant || b->variant) &&
	    (!a->variant || !b->variant || strcmp(a->variant, b->variant)))
		return "the --variant options differ";
	if (a->nr_keys != b->nr_keys)
		return "the --vary options differ";
	for (i = 0; i < a->nr_keys; i++) {
		if (strcmp(a->keys[i].key, b->keys[i].key) ||
		    a->keys[i].nr_values != b->keys[i].nr_values)
			return "the --vary options differ";
		for (j = 0; j < a->keys[i].nr_values; j++)
			if (strcmp(a->keys[i].values[j], b->keys[i].values[j]))
				return "the --vary options differ";
	}
	if (a->nr_sets != b->nr_sets)
		return "the --set options differ";
	for (i = 0; i < a->nr_sets; i++)
		if (strcmp(a->sets[i], b->sets[i]))
			return "the --set options differ";
	if (a->seed_set != b->seed_set || a->seed != b->seed)
		return "the --seed options differ";
	if (a->replications != b->replications)
		return "the --replications options differ";
	return NULL;
}

/*
 * If DIR/sweep.meta exists, it must describe @s. Return 1 if it does, 0
 * if there is none, -1 with @err set if it describes another sweep.
 */
static int meta_match(const struct sweep *s, struct sim_error *err)
{
	char *path = sweep__xasprintf("%s/" META_NAME, s->dir);
	struct sweep old;
	const char *diff;
	int ret = 0;

	if (access(path, F_OK))
		goto out;
	sweep_init(&old);
	ret = -1;
	if (!sweep__meta_read(&old, s->dir, err)) {
		diff = meta_diff(s, &old);
		if (diff)
			sim_error_set(
				err, path, 0, 0,
				"%s holds another sweep: %s; use another --out, or remove it",
				s->dir, diff);
		else
			ret = 1;
	}
	sweep_destroy(&old);
out:
	free(path);
	return ret;
}

/* Hold the stop signals back (@block) or let them in again. */
void sweep__hold_signals(bool block, sigset_t *saved)
{
	sigset_t set;
	unsigned int i;

	if (!block) {
		sigprocmask(SIG_SETMASK, saved, NULL);
		return;
	}
	sigemptyset(&set);
	for (i = 0; i < SWEEP__NR_STOP_SIGNALS; i++)
		sigaddset(&set, sweep__stop_signals[i]);
	sigprocmask(SIG_BLOCK, &set, saved);
}

/* Whether @dir holds nothing but what a starting sweep may have put there. */
static bool dir_is_fresh(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	bool fresh = true;

	while (d && fresh && (de = readdir(d))) {
		const char *n = de->d_name;

		/* Another process of this sweep may be just as far. */
		fresh = !strcmp(n, ".") || !strcmp(n, "..") ||
			!strcmp(n, "points") ||
			!strncmp(n, META_NAME, strlen(META_NAME));
	}
	if (d)
		closedir(d);
	return fresh;
}

static int make_dir(const char *path, struct sim_error *err)
{
	struct stat st;

	if (!mkdir(path, 0777))
		return 0;
	if (errno == EEXIST && !stat(path, &st) && S_ISDIR(st.st_mode))
		return 0;
	sim_error_set(err, path, 0, 0, "cannot create the directory: %s",
		      errno == EEXIST ? "a file of that name exists" :
					strerror(errno));
	return -1;
}

/**
 * sweep_prepare() - create the output directory and its sweep.meta.
 * @s: the sweep, set up and checked
 * @err: filled on failure
 *
 * Creates DIR (not its parents), then writes DIR/sweep.meta if there is
 * none (refusing a DIR that holds anything else), or else makes sure it
 * describes this very sweep; then creates DIR/points. Any number of
 * processes may do this at once for the same sweep.
 *
 * Return: 0; SWEEP_BAD_INPUT with @err set when DIR holds another sweep
 * or is no sweep's; SWEEP_FAILED with @err set when a file or directory
 * cannot be created.
 */
int sweep_prepare(const struct sweep *s, struct sim_error *err)
{
	char *path, *points;
	int ret = SWEEP_FAILED, m;
	sigset_t saved;

	if (make_dir(s->dir, err))
		return SWEEP_FAILED;
	path = sweep__xasprintf("%s/" META_NAME, s->dir);
	points = sweep__xasprintf("%s/points", s->dir);
	m = meta_match(s, err);
	if (m < 0) {
		ret = SWEEP_BAD_INPUT;
		goto out;
	}
	if (!m) {
		if (!dir_is_fresh(s->dir)) {
			sim_error_set(
				err, s->dir, 0, 0,
				"the directory exists and is not a sweep's (it has no %s); use another --out",
				META_NAME);
			ret = SWEEP_BAD_INPUT;
			goto out;
		}
		sweep__hold_signals(true, &saved);
		m = sim_write_atomic(path, write_meta, (void *)s, err);
		sweep__hold_signals(false, &saved);
		if (m)
			goto out;
	}
	if (!make_dir(points, err))
		ret = 0;
out:
	free(points);
	free(path);
	return ret;
}

/* ---- running points ---- */

static const char *const sh_safe =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	"_-+./=,:@%";

/* @s as one shell word: as is when safe, else in single quotes. */
static void sh_quote(FILE *out, const char *s)
{
	if (*s && strspn(s, sh_safe) == strlen(s)) {
		fputs(s, out);
		return;
	}
	fputc('\'', out);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", out);
		else
			fputc(*s, out);
	}
	fputc('\'', out);
}

/**
 * sweep_check_exe() - refuse a memcgsim path that no plan line could hold.
 * @exe: the program the --plan lines are to name
 * @err: filled on failure
 *
 * For --plan, before sweep_prepare() writes anything.
 *
 * Return: 0, or -1 with @err set when @exe holds a control character.
 */
int sweep_check_exe(const char *exe, struct sim_error *err)
{
	return refuse_control("", "the memcgsim program's path", exe, err);
}

/**
 * sweep_plan() - print a command line for each point that is not done.
 * @s: the sweep, prepared (sweep_prepare(): DIR/sweep.meta exists)
 * @exe: the memcgsim program to name in the lines
 * @out: where to print them
 *
 * Each line runs one point, `EXE sweep DIR/sweep.meta --point I`, with
 * absolute paths: the sweep (scenario, --vary, --set ...) is read from
 * DIR/sweep.meta, so that a line's length does not grow with the --vary
 * lists (1000 x 1000 values would otherwise make gigabytes of plan), and
 * the scenario and profiles are checked against its digests.
 *
 * Every word is a single-quoted POSIX sh word unless it is made of safe
 * characters only, and no word holds a control character (sweep_setup()
 * refuses them in DIR, and this in @exe), so that a line is exactly one
 * command for sh, GNU parallel, xargs -L 1 or any line-per-job runner.
 *
 * Return: the number of lines printed, or -1 with @err set when @exe
 * holds a control character (nothing printed).
 */
long sweep_plan(const struct sweep *s, const char *exe, FILE *out,
		struct sim_error *err)
{
	char *meta = sweep__xasprintf("%s/" META_NAME, s->dir);
	unsigned int i;
	long n = 0;

	if (refuse_control("", "the memcgsim program's path", exe, err)) {
		free(meta);
		return -1;
	}
	for (i = 0; i < s->nr_points; i++) {
		if (sweep_point_done(s, i))
			continue;
		sh_quote(out, exe);
		fputs(" sweep ", out);
		sh_quote(out, meta);
		if (s->max_memory)
			fprintf(out, " --max-memory %llu",
				s->max_memory == UINT64_MAX ?
					0ull :
					(unsigned long long)s->max_memory);
		if (s->max_events)
			fprintf(out, " --max-events %llu",
				s->max_events == UINT64_MAX ?
					0ull :
					(unsigned long long)s->max_events);
		fprintf(out, " --point %u\n", i);
		n++;
	}
	free(meta);
	return n;
}

static int write_bytes(FILE *out, void *arg)
{
	const struct sweep__bytes *b = arg;

	return fwrite(b->buf, 1, b->len, out) == b->len ? 0 : -1;
}

/* @r in format @fmt into @b; 0, or -1 with @err set. */
static int render_report(const struct report *r, enum report_format fmt,
			 struct sweep__bytes *b, struct sim_error *err)
{
	FILE *f;
	int ret;

	b->buf = NULL;
	b->len = 0;
	f = open_memstream(&b->buf, &b->len);
	if (!f) {
		sim_error_set(err, "", 0, 0, "cannot render the report: %s",
			      strerror(errno));
		return -1;
	}
	ret = report_write(r, fmt, f);
	if (fclose(f) || ret) {
		sim_error_set(err, "", 0, 0, "cannot render the report");
		free(b->buf);
		b->buf = NULL;
		return -1;
	}
	return 0;
}

/* Remove @path if it is there and is not a regular file. */
static void unlink_special(const char *path)
{
	struct stat st;

	if (!lstat(path, &st) && !S_ISREG(st.st_mode))
		unlink(path);
}

/*
 * Prefix @err's message with point @point and its values. An error in a
 * value says "--set", but sweep_check() passed the --set options and each
 * value alone: it is the point's combination that failed.
 */
void sweep__blame_point(const struct sweep *s, unsigned int point,
			struct sim_error *err)
{
	char desc[512], before[600];

	if (!strcmp(err->file, "--set"))
		err->file[0] = '\0';
	point_desc(s, point, desc, sizeof(desc));
	snprintf(before, sizeof(before), "point %u (%s): ", point, desc);
	sweep__wrap_msg(err, before, "");
}

/**
 * sweep_run_point() - run point @point here and write its two files.
 * @s: the sweep, prepared
 * @point: 0..nr_points-1
 * @err: filled on failure
 *
 * Runs the scenario with the point's --set list, then writes
 * DIR/points/NNNN.yaml and NNNN.csv, each atomically, with SIGINT,
 * SIGTERM and SIGHUP held back until both are in place.
 *
 * Return: 0, or -1 with @err set (the scenario's own error, or a file
 * that cannot be written), its message starting "point I (a=1 b=x): ".
 */
int sweep_run_point(const struct sweep *s, unsigned int point,
		    struct sim_error *err)
{
	struct sweep__bytes by = { NULL, 0 }, bc = { NULL, 0 },
			    bs = { NULL, 0 };
	unsigned int idx[SWEEP_MAX_KEYS];
	struct report *r = NULL;
	char **sets, *yaml, *csv, *sum;
	struct run_opts o;
	sigset_t saved;
	int ret;

	SIM_BUG_ON(point >= s->nr_points);
	sweep__point_index(s, point, idx);
	sets = point_sets(s, idx);
	point_opts(s, &o, sets);
	ret = scenario_run(s->scenario, &o, &r, err);
	free_sets(s, sets);
	if (ret) {
		sweep__blame_point(s, point, err);
		return -1;
	}
	ret = render_report(r, REPORT_YAML, &by, err) ||
			      render_report(r, REPORT_CSV, &bc, err) ?
		      -1 :
		      0;
	report_free(r);
	if (!ret && sweep__render_sum(s, point, &by, &bc, &bs)) {
		sim_error_set(err, "", 0, 0, "cannot render the point's .sum");
		ret = -1;
	}
	if (ret) {
		sweep__blame_point(s, point, err);
		goto out;
	}
	yaml = sweep__point_path(s, point, "yaml");
	csv = sweep__point_path(s, point, "csv");
	sum = sweep__point_path(s, point, "sum");
	/*
	 * A symbolic link in place of a point file (refused by merge) goes,
	 * rather than having its target written through it.
	 */
	unlink_special(yaml);
	unlink_special(csv);
	unlink_special(sum);
	sweep__hold_signals(true, &saved);
	/* The .sum last: until it is in place, the point is not done. */
	ret = sim_write_atomic(yaml, write_bytes, &by, err);
	if (!ret)
		ret = sim_write_atomic(csv, write_bytes, &bc, err);
	if (!ret)
		ret = sim_write_atomic(sum, write_bytes, &bs, err);
	sweep__hold_signals(false, &saved);
	free(yaml);
	free(csv);
	free(sum);
	if (ret)
		sweep__blame_point(s, point, err);
out:
	free(by.buf);
	free(bc.buf);
	free(bs.buf);
	return ret;
}
