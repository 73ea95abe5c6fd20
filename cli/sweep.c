// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli/sweep.c - parameter sweeps: points, their files, local jobs,
 * plans and the merge. See cli/sweep.h for the theory of operation.
 *
 * A local sweep with N jobs, and what each process does:
 *
 *	parent                        child (one per point, at most N)
 *	------                        -----
 *	block INT TERM HUP CHLD
 *	fork  ----------------------> restore signals, run the point,
 *	                              write NNNN.yaml and NNNN.csv with
 *	                              INT TERM HUP held back, _exit(0);
 *	                              on failure send struct sim_error
 *	                              down the pipe first and _exit(1)
 *	sigsuspend() until SIGCHLD
 *	  or a stop signal; reap
 *	  (WNOHANG), count, fork more
 *	on a stop signal: SIGTERM to
 *	  every child, reap them all,
 *	  remove a killed child's
 *	  temporary files
 *	merge (sweep_merge())
 *
 * The signals stay blocked in the parent except inside sigsuspend(), so a
 * SIGCHLD or SIGTERM can never slip in between the check and the wait.
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <yaml.h>

#include "cli/sweep.h"
#include "sim/csv.h"
#include "sim/file.h"
#include "sim/report.h"
#include "sim/scenario.h"
#include "sim/yaml_emit.h"

#define VARY_FILE "--vary"
#define META_NAME "sweep.meta"
#define META_VERSION 1

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NR_STOP_SIGNALS (sizeof(stop_signals) / sizeof(stop_signals[0]))

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	SIM_BUG_ON(!p);
	return p;
}

static char *xasprintf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static char *xasprintf(const char *fmt, ...)
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
	free(s->dir);
	sweep_init(s);
}

/* Add value @v (@len bytes) to @k. */
static void key_add_value(struct sweep_key *k, const char *v, size_t len)
{
	char **grown = realloc(k->values, (k->nr_values + 1) * sizeof(*grown));

	SIM_BUG_ON(!grown);
	k->values = grown;
	k->values[k->nr_values] = strndup(v, len);
	SIM_BUG_ON(!k->values[k->nr_values]);
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
	SIM_BUG_ON(!k->key);
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
		return xstrdup(path);
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	if (!getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	if (!strcmp(path, "."))
		return xstrdup(cwd);
	return xasprintf("%s%s%s", cwd, strcmp(cwd, "/") ? "/" : "", path);
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
		dir = xasprintf("sweep-%s", name);
	} else {
		base = strrchr(scenario, '/');
		base = base ? base + 1 : scenario;
		len = strlen(base);
		if (len > 5 && !strcmp(base + len - 5, ".yaml"))
			len -= 5;
		dir = xasprintf("sweep-%.*s", (int)len, base);
	}
	scenario_free(tree);
	for (p = dir; *p; p++)
		if (*p == '/' || *p == ' ')
			*p = '_';
	return dir;
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
 * Return: 0, or -1 with @err set (bad input: exit status 2).
 */
int sweep_setup(struct sweep *s, const char *scenario, const char *dir,
		const struct run_opts *o, bool force, struct sim_error *err)
{
	unsigned long long points = 1;
	unsigned int i;
	char *real;

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
	s->given = xstrdup(scenario);
	if (dir) {
		s->dir = abs_path(dir);
	} else {
		char *d = default_dir(scenario);

		s->dir = abs_path(d);
		free(d);
	}
	s->sets = calloc(o->nr_sets + 1, sizeof(*s->sets));
	SIM_BUG_ON(!s->sets);
	for (i = 0; i < o->nr_sets; i++)
		s->sets[i] = xstrdup(o->sets[i]);
	s->nr_sets = o->nr_sets;
	s->seed_set = o->seed_set;
	s->seed = o->seed;
	s->replications = o->replications;
	s->datadir = o->datadir;
	s->hot_lines = o->hot_lines;
	return 0;
}

/* Which value of each key point @point takes: @idx[k]. */
static void point_index(const struct sweep *s, unsigned int point,
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

	SIM_BUG_ON(!sets);
	for (i = 0; i < s->nr_sets; i++)
		sets[i] = xstrdup(s->sets[i]);
	for (i = 0; i < s->nr_keys; i++)
		sets[s->nr_sets + i] = xasprintf("%s=%s", s->keys[i].key,
						 s->keys[i].values[idx[i]]);
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
	point_index(s, point, idx);
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
}

/* Put @before and @after around @err's message (cut to fit). */
static void wrap_msg(struct sim_error *err, const char *before,
		     const char *after)
{
	char msg[SIM_ERROR_MSG_MAX];

	memcpy(msg, err->msg, sizeof(msg));
	msg[sizeof(msg) - 1] = '\0';
	if (snprintf(err->msg, sizeof(err->msg), "%s%s%s", before, msg,
		     after) >= (int)sizeof(err->msg))
		return; /* cut: the start says the most */
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
	char with[256];

	if (check_one(s, idx, 0, err))
		return -1;
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
				wrap_msg(err, "", with);
			}
			return -1;
		}
		idx[k] = 0;
	}
	return 0;
}

/* ---- files ---- */

static char *point_path(const struct sweep *s, unsigned int point,
			const char *ext)
{
	return xasprintf("%s/points/%04u.%s", s->dir, point, ext);
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/**
 * sweep_point_done() - whether both files of point @point exist.
 * @s: the sweep
 * @point: 0..nr_points-1
 *
 * Return: true when the point needs no run.
 */
bool sweep_point_done(const struct sweep *s, unsigned int point)
{
	char *yaml = point_path(s, point, "yaml");
	char *csv = point_path(s, point, "csv");
	bool done = exists(yaml) && exists(csv);

	free(yaml);
	free(csv);
	return done;
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
static void remove_temps(const struct sweep *s, unsigned int point)
{
	char *dir = xasprintf("%s/points", s->dir), prefix[32];
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
 *	memcgsim_sweep: 1
 *	scenario: "/abs/path/x.yaml"
 *	given: "x.yaml"
 *	seed: 7				(only with --seed)
 *	replications: 1
 *	set: ["duration_ms=1"]
 *	vary:
 *	- key: "kernel.charge_batch"
 *	  values: ["16", "32"]
 *	points: 2
 */
static int write_meta(FILE *out, void *arg)
{
	const struct sweep *s = arg;
	struct sim_yaml y;
	unsigned int i, j;

	sim_yaml_begin(&y, out);
	sim_yaml_map_start(&y, false);
	sim_yaml_plain(&y, "memcgsim_sweep");
	sim_yaml_u64(&y, META_VERSION);
	sim_yaml_plain(&y, "scenario");
	sim_yaml_quoted(&y, s->scenario);
	sim_yaml_plain(&y, "given");
	sim_yaml_quoted(&y, s->given);
	if (s->seed_set) {
		sim_yaml_plain(&y, "seed");
		sim_yaml_u64(&y, s->seed);
	}
	sim_yaml_plain(&y, "replications");
	sim_yaml_u64(&y, s->replications);
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
	SIM_BUG_ON(!*out);
	for (i = 0; i < scenario_len(n); i++) {
		const char *v = scenario_scalar(scenario_item(n, i));

		if (!v || !*v) {
			scenario_error(err, scenario_item(n, i),
				       "expected a non-empty string");
			return -1;
		}
		(*out)[(*nr)++] = xstrdup(v);
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
		k->key = xstrdup(key);
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

/* Read DIR/sweep.meta into @s (sweep_init()ed); 0 or -1 with @err set. */
static int meta_read(struct sweep *s, const char *dir, struct sim_error *err)
{
	static const char *const keys[] = {
		"memcgsim_sweep", "scenario", "given", "seed",
		"replications",	  "set",      "vary",  "points",
	};
	char *path = xasprintf("%s/" META_NAME, dir);
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
	if (!tree)
		goto out;
	if (scenario_check_keys(tree, keys, sizeof(keys) / sizeof(keys[0]),
				err) ||
	    scenario_u64(tree, "memcgsim_sweep", true, 0, META_VERSION,
			 META_VERSION, &v, err))
		goto out_free;
	if (scenario_string(tree, "scenario", true, NULL, &str, err))
		goto out_free;
	s->scenario = xstrdup(str);
	if (scenario_string(tree, "given", false, s->scenario, &str, err))
		goto out_free;
	s->given = xstrdup(str);
	s->seed_set = scenario_get(tree, "seed") != NULL;
	if (scenario_u64(tree, "seed", false, 0, 0, UINT64_MAX, &s->seed,
			 err) ||
	    scenario_u64(tree, "replications", false, 1, 1, 1000, &v, err))
		goto out_free;
	s->replications = (unsigned int)v;
	if (meta_strings(tree, "set", &s->sets, &s->nr_sets, err) ||
	    meta_keys(s, tree, err))
		goto out_free;
	s->dir = xstrdup(dir);
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
		return "scenario files";
	if (a->nr_keys != b->nr_keys)
		return "--vary options";
	for (i = 0; i < a->nr_keys; i++) {
		if (strcmp(a->keys[i].key, b->keys[i].key) ||
		    a->keys[i].nr_values != b->keys[i].nr_values)
			return "--vary options";
		for (j = 0; j < a->keys[i].nr_values; j++)
			if (strcmp(a->keys[i].values[j], b->keys[i].values[j]))
				return "--vary options";
	}
	if (a->nr_sets != b->nr_sets)
		return "--set options";
	for (i = 0; i < a->nr_sets; i++)
		if (strcmp(a->sets[i], b->sets[i]))
			return "--set options";
	if (a->seed_set != b->seed_set || a->seed != b->seed)
		return "--seed options";
	if (a->replications != b->replications)
		return "--replications options";
	return NULL;
}

/*
 * If DIR/sweep.meta exists, it must describe @s. Return 1 if it does, 0
 * if there is none, -1 with @err set if it describes another sweep.
 */
static int meta_match(const struct sweep *s, struct sim_error *err)
{
	char *path = xasprintf("%s/" META_NAME, s->dir);
	struct sweep old;
	const char *diff;
	int ret = 0;

	if (access(path, F_OK))
		goto out;
	sweep_init(&old);
	ret = -1;
	if (!meta_read(&old, s->dir, err)) {
		diff = meta_diff(s, &old);
		if (diff)
			sim_error_set(
				err, path, 0, 0,
				"%s holds another sweep (the %s differ); use another --out, or remove it",
				s->dir, diff);
		else
			ret = 1;
	}
	sweep_destroy(&old);
out:
	free(path);
	return ret;
}

/**
 * sweep_check_dir() - refuse an output directory that holds another sweep.
 * @s: the sweep, set up
 * @err: filled on failure
 *
 * Writes nothing (for --plan).
 *
 * Return: 0, or -1 with @err set (bad input: exit status 2).
 */
int sweep_check_dir(const struct sweep *s, struct sim_error *err)
{
	return meta_match(s, err) < 0 ? -1 : 0;
}

/* Hold the stop signals back (@block) or let them in again. */
static void hold_signals(bool block, sigset_t *saved)
{
	sigset_t set;
	unsigned int i;

	if (!block) {
		sigprocmask(SIG_SETMASK, saved, NULL);
		return;
	}
	sigemptyset(&set);
	for (i = 0; i < NR_STOP_SIGNALS; i++)
		sigaddset(&set, stop_signals[i]);
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
	path = xasprintf("%s/" META_NAME, s->dir);
	points = xasprintf("%s/points", s->dir);
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
		hold_signals(true, &saved);
		m = sim_write_atomic(path, write_meta, (void *)s, err);
		hold_signals(false, &saved);
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
 * sweep_plan() - print a command line for each point that is not done.
 * @s: the sweep, set up and checked
 * @exe: the memcgsim program to name in the lines
 * @out: where to print them
 *
 * Each line is self-contained (absolute scenario and output paths, every
 * option of the sweep) and runs one point: `EXE sweep SCENARIO --vary ...
 * --out DIR --point I`; it creates DIR and its sweep.meta if need be.
 *
 * Return: the number of lines printed.
 */
unsigned int sweep_plan(const struct sweep *s, const char *exe, FILE *out)
{
	unsigned int i, k, j, n = 0;

	for (i = 0; i < s->nr_points; i++) {
		if (sweep_point_done(s, i))
			continue;
		sh_quote(out, exe);
		fputs(" sweep ", out);
		sh_quote(out, s->scenario);
		for (k = 0; k < s->nr_keys; k++) {
			char *arg = xasprintf("%s=", s->keys[k].key);

			for (j = 0; j < s->keys[k].nr_values; j++) {
				char *grown = xasprintf("%s%s%s", arg,
							j ? "," : "",
							s->keys[k].values[j]);

				free(arg);
				arg = grown;
			}
			fputs(" --vary ", out);
			sh_quote(out, arg);
			free(arg);
		}
		for (k = 0; k < s->nr_sets; k++) {
			fputs(" --set ", out);
			sh_quote(out, s->sets[k]);
		}
		if (s->seed_set)
			fprintf(out, " --seed %llu",
				(unsigned long long)s->seed);
		if (s->replications != 1)
			fprintf(out, " --replications %u", s->replications);
		if (s->nr_points > SWEEP_MAX_POINTS)
			fputs(" --force", out);
		fputs(" --out ", out);
		sh_quote(out, s->dir);
		fprintf(out, " --point %u\n", i);
		n++;
	}
	return n;
}

struct write_ctx {
	const struct report *r;
	enum report_format fmt;
};

static int write_report(FILE *out, void *arg)
{
	const struct write_ctx *w = arg;

	return report_write(w->r, w->fmt, out);
}

/*
 * Prefix @err's message with point @point and its values. An error in a
 * value says "--set", but sweep_check() passed the --set options and each
 * value alone: it is the point's combination that failed.
 */
static void blame_point(const struct sweep *s, unsigned int point,
			struct sim_error *err)
{
	char desc[512], before[600];

	if (!strcmp(err->file, "--set"))
		err->file[0] = '\0';
	point_desc(s, point, desc, sizeof(desc));
	snprintf(before, sizeof(before), "point %u (%s): ", point, desc);
	wrap_msg(err, before, "");
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
	unsigned int idx[SWEEP_MAX_KEYS];
	struct write_ctx w = { .fmt = REPORT_YAML };
	struct report *r = NULL;
	char **sets, *yaml, *csv;
	struct run_opts o;
	sigset_t saved;
	int ret;

	SIM_BUG_ON(point >= s->nr_points);
	point_index(s, point, idx);
	sets = point_sets(s, idx);
	point_opts(s, &o, sets);
	ret = scenario_run(s->scenario, &o, &r, err);
	free_sets(s, sets);
	if (ret) {
		blame_point(s, point, err);
		return -1;
	}
	yaml = point_path(s, point, "yaml");
	csv = point_path(s, point, "csv");
	w.r = r;
	hold_signals(true, &saved);
	ret = sim_write_atomic(yaml, write_report, &w, err);
	if (!ret) {
		w.fmt = REPORT_CSV;
		ret = sim_write_atomic(csv, write_report, &w, err);
	}
	hold_signals(false, &saved);
	free(yaml);
	free(csv);
	report_free(r);
	if (ret)
		blame_point(s, point, err);
	return ret;
}

static volatile sig_atomic_t caught_signal;

static void on_stop_signal(int sig)
{
	caught_signal = sig;
}

static void on_child(int sig)
{
	(void)sig;
}

/* One running child. */
struct slot {
	pid_t pid; /* 0: free */
	unsigned int point;
	int fd; /* read end of the child's error pipe */
};

/* The local pool of jobs: see the diagram at the top of this file. */
struct pool {
	const struct sweep *s;
	struct slot *slots;
	unsigned int jobs, running;
	unsigned int done, ran;
	bool stopping, killed, failed;
	pid_t parent;
	sigset_t orig_mask;
	struct sigaction orig[NR_STOP_SIGNALS], orig_chld;
	struct sim_error *err;
	sweep_progress_fn *progress;
	void *arg;
};

/* In the child: run @point and leave. Never returns. */
static void child_main(struct pool *p, unsigned int point, int fd)
{
	struct sim_error e;
	unsigned int i;
	ssize_t n;

	for (i = 0; i < NR_STOP_SIGNALS; i++)
		sigaction(stop_signals[i], &p->orig[i], NULL);
	sigaction(SIGCHLD, &p->orig_chld, NULL);
	for (i = 0; i < p->jobs; i++)
		if (p->slots[i].pid)
			close(p->slots[i].fd);
#ifdef __linux__
	/* Die with the parent, even when it is killed outright. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != p->parent)
		_exit(1);
#endif
	sigprocmask(SIG_SETMASK, &p->orig_mask, NULL);
	sim_error_clear(&e);
	if (!sweep_run_point(p->s, point, &e))
		_exit(0);
	/* Under PIPE_BUF bytes: written whole. */
	n = write(fd, &e, sizeof(e));
	(void)n;
	/*
	 * _exit(), not a return to main(): this is a fork of the sweep, and
	 * its caller's buffers and cleanup belong to the parent.
	 */
	_exit(1);
}

static int spawn(struct pool *p, unsigned int point)
{
	struct slot *slot = NULL;
	unsigned int i;
	int fds[2];
	pid_t pid;

	for (i = 0; i < p->jobs && !slot; i++)
		if (!p->slots[i].pid)
			slot = &p->slots[i];
	SIM_BUG_ON(!slot);
	if (pipe(fds)) {
		sim_error_set(p->err, "", 0, 0, "cannot create a pipe: %s",
			      strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		sim_error_set(p->err, "", 0, 0, "cannot fork: %s",
			      strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		close(fds[0]);
		child_main(p, point, fds[1]);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	slot->pid = pid;
	slot->point = point;
	slot->fd = fds[0];
	p->running++;
	return 0;
}

/* A child has ended with wait status @status. */
static void reaped(struct pool *p, struct slot *slot, int status)
{
	struct sim_error e;

	p->running--;
	if (WIFEXITED(status) && !WEXITSTATUS(status)) {
		p->done++;
		p->ran++;
		if (p->progress)
			p->progress(p->arg, p->done, p->ran, p->s->nr_points);
		goto out;
	}
	remove_temps(p->s, slot->point);
	p->stopping = true;
	if (p->failed || (p->killed && WIFSIGNALED(status)))
		goto out;
	p->failed = true;
	if (WIFEXITED(status) &&
	    read(slot->fd, &e, sizeof(e)) == (ssize_t)sizeof(e) && e.msg[0]) {
		e.msg[sizeof(e.msg) - 1] = '\0';
		e.file[sizeof(e.file) - 1] = '\0';
		*p->err = e; /* the child has named the point */
		goto out;
	} else if (WIFSIGNALED(status)) {
		sim_error_set(p->err, "", 0, 0, "killed by signal %d (%s)",
			      WTERMSIG(status), strsignal(WTERMSIG(status)));
	} else {
		sim_error_set(p->err, "", 0, 0, "exit status %d",
			      WEXITSTATUS(status));
	}
	blame_point(p->s, slot->point, p->err);
out:
	close(slot->fd);
	slot->pid = 0;
}

/* Reap every child that has ended; return how many did. */
static unsigned int reap(struct pool *p)
{
	unsigned int i, n = 0;
	int status;
	pid_t pid;

	while (p->running) {
		pid = waitpid(-1, &status, WNOHANG);
		if (pid <= 0)
			break;
		for (i = 0; i < p->jobs; i++) {
			if (p->slots[i].pid == pid) {
				reaped(p, &p->slots[i], status);
				n++;
				break;
			}
		}
	}
	return n;
}

static void pool_signals(struct pool *p, bool install)
{
	struct sigaction sa;
	sigset_t set;
	unsigned int i;

	if (!install) {
		for (i = 0; i < NR_STOP_SIGNALS; i++)
			sigaction(stop_signals[i], &p->orig[i], NULL);
		sigaction(SIGCHLD, &p->orig_chld, NULL);
		sigprocmask(SIG_SETMASK, &p->orig_mask, NULL);
		return;
	}
	sigemptyset(&set);
	for (i = 0; i < NR_STOP_SIGNALS; i++)
		sigaddset(&set, stop_signals[i]);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &p->orig_mask);
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: nothing here blocks but sigsuspend(). */
	sa.sa_handler = on_stop_signal;
	for (i = 0; i < NR_STOP_SIGNALS; i++) {
		sigaction(stop_signals[i], NULL, &p->orig[i]);
		/* A signal ignored on entry (nohup, `cmd &`) stays ignored. */
		if (p->orig[i].sa_handler != SIG_IGN)
			sigaction(stop_signals[i], &sa, NULL);
	}
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, &p->orig_chld);
}

static int run_pool(struct pool *p, const unsigned int *todo,
		    unsigned int nr_todo, int *signo)
{
	unsigned int next = 0, i;
	sigset_t wait_mask;

	p->parent = getpid();
	caught_signal = 0;
	pool_signals(p, true);
	wait_mask = p->orig_mask;
	for (i = 0; i < NR_STOP_SIGNALS; i++)
		sigdelset(&wait_mask, stop_signals[i]);
	sigdelset(&wait_mask, SIGCHLD);
	for (;;) {
		while (!p->stopping && p->running < p->jobs && next < nr_todo) {
			if (spawn(p, todo[next])) {
				p->stopping = p->failed = true;
				break;
			}
			next++;
		}
		if (reap(p))
			continue;
		if (caught_signal && !p->killed) {
			p->stopping = p->killed = true;
			for (i = 0; i < p->jobs; i++)
				if (p->slots[i].pid)
					kill(p->slots[i].pid, SIGTERM);
		}
		if (!p->running && (p->stopping || next == nr_todo))
			break;
		sigsuspend(&wait_mask);
	}
	pool_signals(p, false);
	if (caught_signal) {
		*signo = caught_signal;
		return -1;
	}
	return p->failed ? -1 : 0;
}

/**
 * sweep_run() - run the points that are not done yet, on @jobs processes.
 * @s: the sweep, prepared
 * @jobs: 1 runs the points in this process, in point order; more run
 *	each point in a forked child, at most @jobs at once
 * @progress: called, if not NULL, before the first point and after each
 *	point ends, with the points done (including those done before), the
 *	points this call ran, and the total
 * @arg: for @progress
 * @signo: set to the signal that stopped the sweep, if one did; 0 if not
 * @err: filled on failure
 *
 * Stops at the first failed point (the points already running finish and
 * keep their files). With several jobs, SIGINT, SIGTERM and SIGHUP stop
 * the sweep: every child gets SIGTERM, and the finished points stay. With
 * one job they kill the process as usual, which is as safe, since the
 * point files are written with those signals held back.
 *
 * Return: 0, or SWEEP_FAILED with @err set (naming the point that failed,
 * or saying that a signal stopped the sweep).
 */
int sweep_run(const struct sweep *s, unsigned int jobs,
	      sweep_progress_fn *progress, void *arg, int *signo,
	      struct sim_error *err)
{
	struct pool p = {
		.s = s,
		.jobs = jobs,
		.err = err,
		.progress = progress,
		.arg = arg,
	};
	unsigned int *todo, nr_todo = 0, i;
	int ret = 0;

	*signo = 0;
	todo = calloc(s->nr_points, sizeof(*todo));
	SIM_BUG_ON(!todo || !jobs);
	for (i = 0; i < s->nr_points; i++) {
		if (sweep_point_done(s, i))
			p.done++;
		else
			todo[nr_todo++] = i;
	}
	if (progress)
		progress(arg, p.done, 0, s->nr_points);
	if (jobs == 1 || nr_todo <= 1) {
		for (i = 0; i < nr_todo && !ret; i++) {
			ret = sweep_run_point(s, todo[i], err);
			if (ret)
				break;
			p.done++;
			p.ran++;
			if (progress)
				progress(arg, p.done, p.ran, s->nr_points);
		}
	} else {
		p.slots = calloc(jobs, sizeof(*p.slots));
		SIM_BUG_ON(!p.slots);
		ret = run_pool(&p, todo, nr_todo, signo);
		if (*signo)
			sim_error_set(
				err, "", 0, 0,
				"sweep stopped by signal %d (%s): %u of %u points are done; rerun the same command to resume",
				*signo, strsignal(*signo), p.done,
				s->nr_points);
		free(p.slots);
	}
	free(todo);
	return ret ? SWEEP_FAILED : 0;
}

/* ---- merge ---- */

/* The whole of @path, NUL-terminated, in *@buf; 0 or -1 with @err set. */
static int read_whole(const char *path, char **buf, size_t *len,
		      struct sim_error *err)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	char *b, *grown;

	*buf = NULL;
	if (!f) {
		sim_error_set(err, path, 0, 0, "cannot read: %s",
			      strerror(errno));
		return -1;
	}
	b = malloc(cap);
	SIM_BUG_ON(!b);
	for (;;) {
		got = fread(b + n, 1, cap - n - 1, f);
		n += got;
		if (n + 1 < cap)
			break;
		cap *= 2;
		grown = realloc(b, cap);
		SIM_BUG_ON(!grown);
		b = grown;
	}
	if (ferror(f)) {
		sim_error_set(err, path, 0, 0, "cannot read: %s",
			      strerror(errno ? errno : EIO));
		fclose(f);
		free(b);
		return -1;
	}
	fclose(f);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/* The merge's state: the sweep, and the union of the points' columns. */
struct merge {
	const struct sweep *s;
	unsigned int nr_cols;
	char **cols; /* header fields, unquoted */
	unsigned int max_head; /* the most fields of a point's header */
	struct sim_error err; /* why a writer failed, if not I/O */
};

static int col_index(struct merge *m, const char *name, bool add)
{
	unsigned int i;
	char **grown;

	for (i = 0; i < m->nr_cols; i++)
		if (!strcmp(m->cols[i], name))
			return (int)i;
	if (!add)
		return -1;
	grown = realloc(m->cols, (m->nr_cols + 1) * sizeof(*grown));
	SIM_BUG_ON(!grown);
	m->cols = grown;
	m->cols[m->nr_cols] = xstrdup(name);
	return (int)m->nr_cols++;
}

/* A point's CSV file being read: its name and text outlive the reader. */
struct point_csv {
	char *path;
	char *buf;
	struct csv_reader r;
};

static void point_csv_close(struct point_csv *pc)
{
	csv_reader_release(&pc->r);
	free(pc->buf);
	free(pc->path);
}

/*
 * Start reading point @point's CSV file with @pc, and read its header.
 * Return 0, or -1 with @err set (and nothing to close).
 */
static int point_csv_open(const struct sweep *s, unsigned int point,
			  struct point_csv *pc, struct sim_error *err)
{
	size_t len;
	int got;

	pc->path = point_path(s, point, "csv");
	if (read_whole(pc->path, &pc->buf, &len, err)) {
		free(pc->path);
		return -1;
	}
	csv_reader_init(&pc->r, pc->path, pc->buf, len, CSV_BLANK_LINES);
	got = csv_read_record(&pc->r, err);
	if (!got || (got > 0 && pc->r.nr_fields == 1 &&
		     !pc->r.fields[0].text[0])) {
		sim_error_set(err, pc->path, 0, 0, "empty CSV file");
		got = -1;
	}
	if (got > 0)
		return 0;
	point_csv_close(pc);
	return -1;
}

/* Pass 1: the union of the points' CSV columns. */
static int merge_columns(struct merge *m, struct sim_error *err)
{
	struct point_csv pc;
	unsigned int i, j;

	for (i = 0; i < m->s->nr_points; i++) {
		if (point_csv_open(m->s, i, &pc, err))
			return -1;
		for (j = 0; j < pc.r.nr_fields; j++)
			col_index(m, pc.r.fields[j].text, true);
		if (pc.r.nr_fields > m->max_head)
			m->max_head = pc.r.nr_fields;
		point_csv_close(&pc);
	}
	return 0;
}

/* Point @point's rows, prefixed and in the union's column order. */
static int merge_csv_point(struct merge *m, unsigned int point, FILE *out,
			   int *map, const char **val)
{
	unsigned int idx[SWEEP_MAX_KEYS], i, nr_head;
	const struct sweep *s = m->s;
	struct point_csv pc;
	struct csv_reader *r = &pc.r;
	int got;

	if (point_csv_open(s, point, &pc, &m->err))
		return -1;
	/* A file changed since pass 1 keeps its extra columns to itself. */
	nr_head = r->nr_fields < m->max_head ? r->nr_fields : m->max_head;
	for (i = 0; i < nr_head; i++)
		map[i] = col_index(m, r->fields[i].text, false);
	point_index(s, point, idx);
	for (;;) {
		got = csv_read_record(r, &m->err);
		if (got <= 0)
			break;
		for (i = 0; i < m->nr_cols; i++)
			val[i] = NULL;
		for (i = 0; i < r->nr_fields && i < nr_head; i++)
			if (map[i] >= 0)
				val[map[i]] = r->fields[i].text;
		fprintf(out, "%u", point);
		for (i = 0; i < s->nr_keys; i++) {
			fputc(',', out);
			csv_write_field(out, s->keys[i].values[idx[i]]);
		}
		for (i = 0; i < m->nr_cols; i++) {
			fputc(',', out);
			if (val[i])
				csv_write_field(out, val[i]);
		}
		fputc('\n', out);
	}
	point_csv_close(&pc);
	return got;
}

static int write_merged_csv(FILE *out, void *arg)
{
	struct merge *m = arg;
	int *map = calloc(m->max_head + 1, sizeof(*map));
	const char **val = calloc(m->nr_cols + 1, sizeof(*val));
	unsigned int i;
	int ret = 0;

	SIM_BUG_ON(!map || !val);
	fputs("point", out);
	for (i = 0; i < m->s->nr_keys; i++) {
		fputc(',', out);
		csv_write_field(out, m->s->keys[i].key);
	}
	for (i = 0; i < m->nr_cols; i++) {
		fputc(',', out);
		csv_write_field(out, m->cols[i]);
	}
	fputc('\n', out);
	for (i = 0; i < m->s->nr_points && !ret; i++)
		ret = merge_csv_point(m, i, out, map, val);
	free(map);
	free(val);
	return ret || ferror(out) ? -1 : 0;
}

static void parse_error(struct sim_error *err, const char *path,
			const yaml_parser_t *parser)
{
	sim_error_set(err, path, (unsigned int)parser->problem_mark.line + 1,
		      (unsigned int)parser->problem_mark.column + 1, "%s",
		      parser->problem ? parser->problem : "cannot parse");
}

/*
 * The next event of @parser: forwarded to @y if @forward, else dropped.
 * Returns its type, or YAML_NO_EVENT after a parse error (@err set).
 */
static yaml_event_type_t next_event(yaml_parser_t *parser, struct sim_yaml *y,
				    bool forward, yaml_event_t *key,
				    const char *path, struct sim_error *err)
{
	yaml_event_t ev;
	yaml_event_type_t type;

	if (!yaml_parser_parse(parser, &ev)) {
		parse_error(err, path, parser);
		return YAML_NO_EVENT;
	}
	type = ev.type;
	if (key && type == YAML_SCALAR_EVENT) {
		*key = ev; /* the caller decides */
		return type;
	}
	if (forward)
		sim_yaml_event(y, &ev, true);
	else
		yaml_event_delete(&ev);
	return type;
}

/* Forward or drop one node (scalar or whole collection); 0 or -1. */
static int pass_node(yaml_parser_t *parser, struct sim_yaml *y, bool forward,
		     const char *path, struct sim_error *err)
{
	int depth = 0;

	do {
		switch (next_event(parser, y, forward, NULL, path, err)) {
		case YAML_NO_EVENT:
			return -1;
		case YAML_MAPPING_START_EVENT:
		case YAML_SEQUENCE_START_EVENT:
			depth++;
			break;
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			depth--;
			break;
		default:
			break;
		}
	} while (depth > 0);
	return 0;
}

/*
 * Forward to @y the top-level entries of the report @path: with
 * @variants, the value of its `variants` key; else every entry but that.
 */
static int forward_report(struct sim_yaml *y, const char *path, bool variants,
			  struct sim_error *err)
{
	yaml_event_type_t type = YAML_NO_EVENT;
	yaml_parser_t parser;
	yaml_event_t key;
	bool found = false, want, is_variants;
	FILE *f = fopen(path, "rb");
	int i, ret = -1;

	if (!f) {
		sim_error_set(err, path, 0, 0, "cannot read: %s",
			      strerror(errno));
		return -1;
	}
	SIM_BUG_ON(!yaml_parser_initialize(&parser));
	yaml_parser_set_input_file(&parser, f);
	/* Stream, document and mapping start. */
	for (i = 0; i < 3; i++) {
		type = next_event(&parser, y, false, NULL, path, err);
		if (type == YAML_NO_EVENT)
			goto out;
	}
	if (type != YAML_MAPPING_START_EVENT)
		goto not_report;
	for (;;) {
		type = next_event(&parser, y, false, &key, path, err);
		if (type == YAML_NO_EVENT)
			goto out;
		if (type == YAML_MAPPING_END_EVENT)
			break;
		if (type != YAML_SCALAR_EVENT)
			goto not_report;
		is_variants =
			!strcmp((char *)key.data.scalar.value, "variants");
		found |= is_variants;
		want = variants ? is_variants : !is_variants;
		/* The caller has emitted the key "variants" itself. */
		if (want && !variants)
			sim_yaml_event(y, &key, true);
		else
			yaml_event_delete(&key);
		if (pass_node(&parser, y, want, path, err))
			goto out;
	}
	if (variants && !found)
		goto not_report;
	ret = 0;
	goto out;
not_report:
	sim_error_set(err, path, 0, 0,
		      "not a memcgsim report: expected a map with 'variants'");
out:
	yaml_parser_delete(&parser);
	fclose(f);
	return ret;
}

static int write_merged_yaml(FILE *out, void *arg)
{
	struct merge *m = arg;
	const struct sweep *s = m->s;
	unsigned int idx[SWEEP_MAX_KEYS], i, k;
	struct sim_yaml y;
	char *path;
	int ret = 0;

	sim_yaml_begin(&y, out);
	sim_yaml_map_start(&y, false);
	path = point_path(s, 0, "yaml");
	ret = forward_report(&y, path, false, &m->err);
	free(path);
	sim_yaml_plain(&y, "vary");
	sim_yaml_seq_start(&y, false);
	for (k = 0; k < s->nr_keys; k++) {
		sim_yaml_map_start(&y, false);
		sim_yaml_plain(&y, "key");
		sim_yaml_plain(&y, s->keys[k].key);
		sim_yaml_plain(&y, "values");
		sim_yaml_seq_start(&y, true);
		for (i = 0; i < s->keys[k].nr_values; i++)
			sim_yaml_plain(&y, s->keys[k].values[i]);
		sim_yaml_seq_end(&y);
		sim_yaml_map_end(&y);
	}
	sim_yaml_seq_end(&y);
	sim_yaml_plain(&y, "points");
	sim_yaml_seq_start(&y, false);
	for (i = 0; i < s->nr_points && !ret && !y.failed; i++) {
		point_index(s, i, idx);
		sim_yaml_map_start(&y, false);
		sim_yaml_plain(&y, "point");
		sim_yaml_u64(&y, i);
		sim_yaml_plain(&y, "set");
		sim_yaml_map_start(&y, false);
		for (k = 0; k < s->nr_keys; k++) {
			sim_yaml_plain(&y, s->keys[k].key);
			sim_yaml_plain(&y, s->keys[k].values[idx[k]]);
		}
		sim_yaml_map_end(&y);
		sim_yaml_plain(&y, "variants");
		path = point_path(s, i, "yaml");
		ret = forward_report(&y, path, true, &m->err);
		free(path);
		sim_yaml_map_end(&y);
	}
	sim_yaml_seq_end(&y);
	if (ret)
		y.failed = true; /* @m->err says why */
	sim_yaml_map_end(&y);
	return sim_yaml_end(&y);
}

/* "3, 5-9, 12": the points of @s that are not done, at most @size bytes. */
static unsigned int missing_points(const struct sweep *s, char *buf,
				   size_t size)
{
	unsigned int i, first, n = 0;
	size_t len = 0;

	buf[0] = '\0';
	for (i = 0; i < s->nr_points; i++) {
		if (sweep_point_done(s, i))
			continue;
		first = i;
		while (i + 1 < s->nr_points && !sweep_point_done(s, i + 1))
			i++;
		n += i - first + 1;
		if (len >= size)
			continue;
		if (first == i)
			len += (size_t)snprintf(buf + len, size - len, "%s%u",
						len ? ", " : "", i);
		else
			len += (size_t)snprintf(buf + len, size - len,
						"%s%u-%u", len ? ", " : "",
						first, i);
	}
	return n;
}

/*
 * Write DIR/@name with @fn; a writer's own error wins over errno's. The
 * stop signals wait until the file is in place or removed, so that no
 * temporary file is left behind.
 */
static int merge_write(struct merge *m, const char *name,
		       int (*fn)(FILE *, void *), struct sim_error *err)
{
	char *path = xasprintf("%s/%s", m->s->dir, name);
	sigset_t saved;
	int ret;

	sim_error_clear(&m->err);
	hold_signals(true, &saved);
	ret = sim_write_atomic(path, fn, m, err);
	hold_signals(false, &saved);
	if (ret && m->err.msg[0])
		*err = m->err;
	free(path);
	return ret;
}

/**
 * sweep_merge() - join the point files of the sweep in @dir.
 * @dir: the sweep's output directory
 * @nr_points: set to the number of points merged
 * @err: filled on failure
 *
 * Reads DIR/sweep.meta and every point's files and writes DIR/sweep.csv
 * and DIR/sweep.yaml, each whole or not at all; the bytes depend only on
 * the point files. Nothing is written when a point is missing.
 *
 * Return: 0; SWEEP_BAD_INPUT with @err set when @dir is no sweep's;
 * SWEEP_FAILED with @err set when points are missing (named) or a file
 * cannot be read or written.
 */
int sweep_merge(const char *dir, unsigned int *nr_points, struct sim_error *err)
{
	struct merge m = { .nr_cols = 0 };
	struct sweep s;
	char list[400];
	unsigned int missing, i;
	int ret = SWEEP_BAD_INPUT;

	*nr_points = 0;
	sweep_init(&s);
	if (meta_read(&s, dir, err))
		goto out;
	ret = SWEEP_FAILED;
	missing = missing_points(&s, list, sizeof(list));
	if (missing) {
		sim_error_set(
			err, "", 0, 0,
			"merge: %u of %u points missing in %s/points: %s%s; run them (the same sweep command, or the lines of its --plan) and merge again",
			missing, s.nr_points, dir, list,
			strlen(list) >= sizeof(list) - 1 ? "..." : "");
		goto out;
	}
	m.s = &s;
	if (merge_columns(&m, err) ||
	    merge_write(&m, "sweep.csv", write_merged_csv, err) ||
	    merge_write(&m, "sweep.yaml", write_merged_yaml, err))
		goto out;
	*nr_points = s.nr_points;
	ret = 0;
out:
	for (i = 0; i < m.nr_cols; i++)
		free(m.cols[i]);
	free(m.cols);
	sweep_destroy(&s);
	return ret;
}
