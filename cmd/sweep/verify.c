// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/sweep/verify.c - what makes a sweep's files trustworthy: content
 * digests (of the scenario and the machine profiles it names, recorded in
 * sweep.meta; of each point's reports, recorded in its NNNN.sum) and the
 * check of a point's files against its NNNN.sum. See cmd/sweep/sweep.h.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cmd/sweep/sweep.h"
#include "cmd/sweep/internal.h"
#include "sim/file.h"
#include "sim/scenario.h"
#include "sim/sha256.h"
#include "sim/yaml_emit.h"

#define SUM_VERSION 1
/*
 * SHA-256 (sim/sha256.h): a content digest that tells an edited or
 * swapped file from the one a sweep wrote or read, the same digest a
 * run's results carry (cmd/run/provenance.c); not a defence against
 * forgery (who can write the point files can write their .sum too).
 */
void sweep__digest_buf(char *out, const void *buf, size_t len)
{
	sim_sha256_text(buf, len, out);
}

/*
 * The digest of the file @path into @out; 0, or -1 with @err set. The
 * file must be a regular file, not a symbolic link.
 */
static int digest_file(char *out, const char *path, struct sim_error *err)
{
	struct stat st;
	char *buf;
	size_t len;

	if (lstat(path, &st)) {
		sim_error_set(err, path, 0, 0, "cannot read: %s",
			      strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		sim_error_set(err, path, 0, 0,
			      "is %s, not a file a sweep wrote",
			      S_ISLNK(st.st_mode) ? "a symbolic link" :
						    "not a regular file");
		return -1;
	}
	if (sim_read_file(path, 0, &buf, &len, err))
		return -1;
	sweep__digest_buf(out, buf, len);
	free(buf);
	return 0;
}

#define DIGEST_MAX_FILE (16u << 20) /* as the scenario loader's limit */

/*
 * Mix the machine profile @name (as a scenario, --set or --vary names it)
 * into @h: its name and its bytes, found as a run finds it
 * (run_machine_path(): a bare name beside the scenario in @base, else
 * shipped; else a path relative to @base unless absolute). A profile that cannot be read mixes in nothing but its
 * name (the run will say what is wrong with it).
 */
static void profile_mix(struct sim_sha256 *h, const char *name,
			const char *base, const char *datadir)
{
	struct sim_error ignored;
	char path[PATH_MAX];
	char *buf;
	size_t len;

	run_machine_path(name, base, datadir ? datadir : ".", path,
			 sizeof(path));
	sim_sha256_update(h, name, strlen(name) + 1);
	if (sim_read_file(path, DIGEST_MAX_FILE, &buf, &len, &ignored)) {
		sim_sha256_update(h, "", 1);
		return;
	}
	sim_sha256_update(h, buf, len);
	free(buf);
}

/* Mix every scalar `machine:` below @n into @h. */
static void profiles_walk(struct sim_sha256 *h, const struct scenario_node *n,
			  const char *base, const char *datadir)
{
	const struct scenario_node *item;
	size_t i;

	switch (scenario_kind(n)) {
	case SCENARIO_SEQ:
		for (i = 0; i < scenario_len(n); i++)
			profiles_walk(h, scenario_item(n, i), base, datadir);
		break;
	case SCENARIO_MAP:
		for (i = 0; i < scenario_len(n); i++) {
			item = scenario_item(n, i);
			if (!strcmp(scenario_key(n, i), "machine") &&
			    scenario_kind(item) == SCENARIO_SCALAR)
				profile_mix(h, scenario_scalar(item), base,
					    datadir);
			else
				profiles_walk(h, item, base, datadir);
		}
		break;
	default:
		break;
	}
}

/* @key of @tree as written into @out (SWEEP_DIGEST_LEN), else @def. */
static void scalar_or(char *out, const struct scenario_node *tree,
		      const char *key, const char *def)
{
	const struct scenario_node *n = scenario_get(tree, key);
	const char *v = n ? scenario_scalar(n) : NULL;

	if (n && scenario_kind(n) == SCENARIO_MAP)
		v = "inline";
	snprintf(out, SWEEP_DIGEST_LEN, "%s", v && *v ? v : def);
	if (sweep__control_char(out))
		snprintf(out, SWEEP_DIGEST_LEN, "%s", def);
}

/* @s's machine, duration and warm-up: the scenario @tree after --set. */
static void base_provenance(struct sweep *s, struct scenario_node *tree)
{
	struct sim_error ignored;
	unsigned int i;

	for (i = 0; i < s->nr_sets; i++)
		scenario_set_arg(tree, s->sets[i], &ignored);
	scalar_or(s->machine, tree, "machine", "?");
	scalar_or(s->duration, tree, "duration_ms", "?");
	scalar_or(s->warmup, tree, "warmup_ms", "duration_ms / 10");
}

/* Whether the dotted key @key (@len bytes) names a machine profile. */
static bool machine_key(const char *key, size_t len)
{
	return (len == 7 && !strncmp(key, "machine", 7)) ||
	       (len > 8 && !strncmp(key + len - 8, ".machine", 8));
}

/*
 * @s->scenario_digest and @s->profiles_digest: the scenario file's bytes,
 * and the machine profiles that it, the --set options and the --vary
 * values name. A scenario that cannot be read gets an empty digest (the
 * check that follows says why).
 */
void sweep__digests(struct sweep *s)
{
	struct scenario_node *tree;
	struct sim_error ignored;
	struct sim_sha256 h;
	char *buf, *copy;
	const char *base;
	unsigned int i, j;
	size_t len;

	sim_sha256_init(&h);
	s->scenario_digest[0] = '\0';
	if (!sim_read_file(s->scenario, DIGEST_MAX_FILE, &buf, &len,
			   &ignored)) {
		sweep__digest_buf(s->scenario_digest, buf, len);
		free(buf);
	}
	copy = sweep__xstrdup(s->scenario);
	base = dirname(copy);
	tree = scenario_load_file(s->scenario, &ignored);
	if (tree) {
		profiles_walk(&h, tree, base, s->datadir);
		base_provenance(s, tree);
	}
	scenario_free(tree);
	/* A --set or --vary path is relative to the working directory. */
	for (i = 0; i < s->nr_sets; i++) {
		const char *eq = strchr(s->sets[i], '=');

		if (eq && machine_key(s->sets[i], (size_t)(eq - s->sets[i])))
			profile_mix(&h, eq + 1, ".", s->datadir);
	}
	for (i = 0; i < s->nr_keys; i++)
		if (machine_key(s->keys[i].key, strlen(s->keys[i].key)))
			for (j = 0; j < s->keys[i].nr_values; j++)
				profile_mix(&h, s->keys[i].values[j], ".",
					    s->datadir);
	sim_sha256_final(&h, s->profiles_digest);
	free(copy);
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* The digest @key of point @point's .sum @sum must be @want; 0 or -1. */
static int sum_expect(const struct scenario_node *sum, const char *key,
		      const char *want, const char *what, struct sim_error *err)
{
	const char *got;

	if (scenario_string(sum, key, true, NULL, &got, err))
		return -1;
	if (strcmp(got, want)) {
		scenario_error(err, scenario_get(sum, key), "%s", what);
		return -1;
	}
	return 0;
}

/*
 * sweep__point_check() - whether point @point's files are there and are
 * what the sweep wrote: NNNN.sum names this sweep (its id) and this point,
 * and the digests of NNNN.yaml and NNNN.csv match it; none is a symbolic
 * link or anything but a regular file.
 *
 * Return: 1 when they are; 0 when one of the three is missing (the point
 * has not run, or a writer was killed); -1 with @err set when they are
 * there but do not match (the message names the file and says why).
 */
int sweep__point_check(const struct sweep *s, unsigned int point,
		       struct sim_error *err)
{
	static const char *const keys[] = { "memcgsim_point", "sweep", "point",
					    "yaml", "csv" };
	char *yaml = sweep__point_path(s, point, "yaml");
	char *csv = sweep__point_path(s, point, "csv");
	char *sum = sweep__point_path(s, point, "sum");
	char dy[SWEEP_DIGEST_LEN], dc[SWEEP_DIGEST_LEN], ds[SWEEP_DIGEST_LEN];
	struct scenario_node *tree = NULL;
	uint64_t v;
	int ret = -1;

	if (!exists(yaml) || !exists(csv) || !exists(sum)) {
		ret = 0;
		goto out;
	}
	/* digest_file() refuses links and special files, sum included. */
	if (digest_file(ds, sum, err) || digest_file(dy, yaml, err) ||
	    digest_file(dc, csv, err))
		goto out;
	tree = scenario_load_file(sum, err);
	sim_input_forget_path(sum); /* the sweep's own, rewritten */
	if (!tree ||
	    scenario_check_keys(tree, keys, sizeof(keys) / sizeof(keys[0]),
				err) ||
	    scenario_u64(tree, "memcgsim_point", true, 0, SUM_VERSION,
			 SUM_VERSION, &v, err) ||
	    sum_expect(
		    tree, "sweep", s->id,
		    "the point belongs to another sweep (another scenario, profile, --vary, --set, --seed or version)",
		    err) ||
	    scenario_u64(tree, "point", true, 0, 0, UINT32_MAX, &v, err))
		goto out;
	if (v != point) {
		scenario_error(err, scenario_get(tree, "point"),
			       "the files are point %llu's, not point %u's",
			       (unsigned long long)v, point);
		goto out;
	}
	if (sum_expect(
		    tree, "yaml", dy,
		    "the point's YAML report has changed since it was written (cut short, edited or replaced)",
		    err) ||
	    sum_expect(
		    tree, "csv", dc,
		    "the point's CSV report has changed since it was written (cut short, edited or replaced)",
		    err))
		goto out;
	ret = 1;
out:
	scenario_free(tree);
	free(yaml);
	free(csv);
	free(sum);
	return ret;
}

/* NNNN.sum: the sweep's id, the point, and its two files' digests. */
int sweep__render_sum(const struct sweep *s, unsigned int point,
		      const struct sweep__bytes *yaml,
		      const struct sweep__bytes *csv, struct sweep__bytes *b)
{
	char dy[SWEEP_DIGEST_LEN], dc[SWEEP_DIGEST_LEN];
	struct sim_yaml y;
	FILE *f;
	int ret;

	sweep__digest_buf(dy, yaml->buf, yaml->len);
	sweep__digest_buf(dc, csv->buf, csv->len);
	b->buf = NULL;
	b->len = 0;
	f = open_memstream(&b->buf, &b->len);
	if (!f)
		return -1;
	sim_yaml_begin(&y, f);
	sim_yaml_map_start(&y, false);
	sim_yaml_plain(&y, "memcgsim_point");
	sim_yaml_u64(&y, SUM_VERSION);
	sim_yaml_plain(&y, "sweep");
	sim_yaml_quoted(&y, s->id);
	sim_yaml_plain(&y, "point");
	sim_yaml_u64(&y, point);
	sim_yaml_plain(&y, "yaml");
	sim_yaml_quoted(&y, dy);
	sim_yaml_plain(&y, "csv");
	sim_yaml_quoted(&y, dc);
	sim_yaml_map_end(&y);
	ret = sim_yaml_end(&y);
	if (fclose(f) || ret) {
		free(b->buf);
		b->buf = NULL;
		return -1;
	}
	return 0;
}
