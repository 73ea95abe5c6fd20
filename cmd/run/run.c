// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/run/run.c - scenario variants, replications and results.
 * See cmd/run/run.h for the theory of operation.
 */
#define _DEFAULT_SOURCE /* sysconf(_SC_PHYS_PAGES) */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "models/kernel/sim/config.h"
#include "models/kernel/mm/memcontrol.h"
#include "cmd/run/estimate.h"
#include "cmd/list/list.h"
#include "cmd/run/run.h"
#include "cmd/run/internal.h"
#include "sim/error.h"
#include "sim/stats.h"
#include "sim/trace.h"
#include "sim/util.h"

/* warmup_ms: a tenth of the run unless given. */
static uint64_t warmup_default(const void *base, const void *ctx)
{
	const struct variant *v = base;

	(void)ctx;
	return v->duration_ps / 10;
}

/* The keys, in the order `unknown key` suggestions prefer them. */
enum {
	TOP_SCENARIO,
	TOP_DESCRIPTION,
	TOP_SEED,
	TOP_MACHINE,
	TOP_DURATION_MS,
	TOP_WARMUP_MS,
	TOP_KERNEL,
	TOP_CGROUPS,
	TOP_WORKLOADS,
	TOP_BASELINE,
	TOP_VARIANTS,
	TOP_PUBLISHED,
	NR_TOP_KEYS,
};

static const struct scenario_key top_keys[NR_TOP_KEYS] = {
	[TOP_SCENARIO] = {
		.name = "scenario",
		.type = SCENARIO_KEY_STRING,
		.size = sizeof(const char *),
		.def_str = "unnamed",
		.doc = "The scenario's name, in the results",
	},
	[TOP_DESCRIPTION] = {
		.name = "description",
		.type = SCENARIO_KEY_STRING,
		.size = sizeof(const char *),
		.def_str = "",
		.doc = "What the scenario shows, in the results",
	},
	[TOP_SEED] = {
		.name = "seed",
		.type = SCENARIO_KEY_U64,
		SCENARIO_KEY_MEMBER(struct variant, seed),
		.min = 0,
		.max = UINT64_MAX,
		.def = 1,
		.doc = "The seed of every random stream (--seed overrides it)",
	},
	[TOP_MACHINE] = {
		.name = "machine",
		.type = SCENARIO_KEY_CUSTOM,
		.required = true,
		.form = "profile",
		.doc = "A profile name such as skx-2s-72 (a file of the machines directory), a path (absolute, or relative to the scenario), or an inline profile map: `memcgsim help keys machine`",
	},
	[TOP_DURATION_MS] = {
		.name = "duration_ms",
		.type = SCENARIO_KEY_TIME,
		SCENARIO_KEY_MEMBER(struct variant, duration_ps),
		.unit_ps = SIM_PS_PER_MS,
		.min = SIM_PS_PER_US,
		.max = 10000 * SIM_PS_PER_MS,
		.def = SIM_PS_PER_MS,
		.doc = "The measured simulated time of one run, after the warm-up",
	},
	[TOP_WARMUP_MS] = {
		.name = "warmup_ms",
		.type = SCENARIO_KEY_TIME,
		SCENARIO_KEY_MEMBER(struct variant, warmup_ps),
		.unit_ps = SIM_PS_PER_MS,
		.min = 0,
		.max = 10000 * SIM_PS_PER_MS,
		.def_fn = warmup_default,
		.def_doc = "duration_ms / 10",
		.doc = "Simulated time run before measuring; its operations are not counted",
	},
	[TOP_KERNEL] = {
		.name = "kernel",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "map",
		.def_doc = "Linux v6.0",
		.doc = "The kernel's design choices: `memcgsim help keys kernel`",
	},
	[TOP_CGROUPS] = {
		.name = "cgroups",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "map",
		.def_doc = "the root only",
		.doc = "{PATH: {memory.min, ...}, ...}, each parent listed before its children; a quoted \"/a/c[1-100]\" names 100 cgroups: `memcgsim help keys cgroups`",
	},
	[TOP_WORKLOADS] = {
		.name = "workloads",
		.type = SCENARIO_KEY_CUSTOM,
		.required = true,
		.form = "list",
		.doc = "What the CPUs run: a list of 1 to 64 workloads, each {type, cpus, cgroup, ...}: `memcgsim help keys workloads` and `memcgsim help keys TYPE`",
	},
	[TOP_BASELINE] = {
		.name = "baseline",
		.type = SCENARIO_KEY_STRING,
		.size = sizeof(const char *),
		.def_doc = "the first variant",
		.doc = "The variant changes are measured against, for every variant without a baseline of its own",
	},
	[TOP_VARIANTS] = {
		.name = "variants",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "list",
		.def_doc = "the scenario as written",
		.doc = "Variants of the scenario, each {name, description, set, baseline}: `memcgsim help keys variants`; without them the scenario runs once as the variant base",
	},
	[TOP_PUBLISHED] = {
		.name = "published",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "map",
		.doc = "What real hardware measured, {source, metric, values, tolerance_pp}: `memcgsim help keys published`",
	},
};

enum { VAR_NAME, VAR_DESCRIPTION, VAR_SET, VAR_BASELINE, NR_VAR_KEYS };

static const struct scenario_key variant_keys[NR_VAR_KEYS] = {
	[VAR_NAME] = {
		.name = "name",
		.type = SCENARIO_KEY_STRING,
		.required = true,
		.size = sizeof(const char *),
		.doc = "Unique: 1 to 63 letters, digits and _.+-",
	},
	[VAR_DESCRIPTION] = {
		.name = "description",
		.type = SCENARIO_KEY_STRING,
		.size = sizeof(const char *),
		.def_str = "",
		.doc = "What the variant changes",
	},
	[VAR_SET] = {
		.name = "set",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "map",
		.doc = "{DOTTED.KEY: VALUE, ...} applied to the scenario, as --set KEY=VALUE is; it may not set variants or baseline",
	},
	[VAR_BASELINE] = {
		.name = "baseline",
		.type = SCENARIO_KEY_STRING,
		.size = sizeof(const char *),
		.def_doc = "the scenario's",
		.doc = "Another variant this one's changes are against",
	},
};

enum { WL_TYPE, WL_CPUS, WL_CGROUP, NR_WL_KEYS };

/* The keys of every workload; each type adds its own (help keys TYPE). */
static const struct scenario_key common_workload_keys[NR_WL_KEYS] = {
	[WL_TYPE] = {
		.name = "type",
		.type = SCENARIO_KEY_STRING,
		.required = true,
		.size = sizeof(const char *),
		.doc = "The workload type (memcgsim help lists them)",
	},
	[WL_CPUS] = {
		.name = "cpus",
		.type = SCENARIO_KEY_CUSTOM,
		.required = true,
		.form = "cpulist",
		.doc = "The CPUs, one task each, as a Linux cpulist such as 0-3,8,10-11; a CPU runs one task",
	},
	[WL_CGROUP] = {
		.name = "cgroup",
		.type = SCENARIO_KEY_STRING,
		.size = sizeof(const char *),
		.def_str = "/",
		.doc = "The cgroup of its tasks, listed in 'cgroups'",
	},
};

static const struct scenario_key_table key_tables[] = {
	{ "scenario", top_keys, NR_TOP_KEYS },
	{ "variants", variant_keys, NR_VAR_KEYS },
	{ "published", run__published_keys, NR_PUB_KEYS },
	{ "workloads", common_workload_keys, NR_WL_KEYS },
};

unsigned int run_key_tables(const struct scenario_key_table **tables)
{
	*tables = key_tables;
	return ARRAY_SIZE(key_tables);
}

/* The names of @table, for scenario_check_keys(). */
int run__check_keys(const struct scenario_node *map,
		    const struct scenario_key *table, size_t nr,
		    struct sim_error *err)
{
	const char *names[NR_TOP_KEYS];

	SIM_BUG_ON(nr > ARRAY_SIZE(names));
	scenario_key_names(table, nr, names, 0, nr);
	return scenario_check_keys(map, names, nr, err);
}

/*
 * The top-level keys; a kernel: key given at the top level (charge_batch:
 * 64, or --set charge_batch=64) gets "did you mean 'kernel.charge_batch'?".
 */
static int check_top_keys(const struct scenario_node *map,
			  struct sim_error *err)
{
	const char *names[NR_TOP_KEYS], **kernel;
	struct scenario_key_hint hint = { .parent = "kernel" };
	const struct kernel_key *keys;
	unsigned int i, nr;
	int ret;

	scenario_key_names(top_keys, NR_TOP_KEYS, names, 0, NR_TOP_KEYS);
	keys = kernel_keys(&nr);
	kernel = calloc(nr, sizeof(*kernel));
	SIM_BUG_ON(!kernel);
	for (i = 0; i < nr; i++)
		kernel[i] = keys[i].name;
	hint.keys = kernel;
	hint.nr = nr;
	ret = scenario_check_keys_hinted(map, names, NR_TOP_KEYS, &hint, 1,
					 err);
	free(kernel);
	return ret;
}

/* ---- reading a variant ---- */

/* What a node is, for "found ..." in messages. */
static const char *found(const struct scenario_node *n)
{
	switch (scenario_kind(n)) {
	case SCENARIO_MAP:
		return scenario_len(n) ? "a map" : "an empty map";
	case SCENARIO_SEQ:
		return scenario_len(n) ? "a list" : "an empty list";
	default:
		return *scenario_scalar(n) ? "a scalar" : "nothing";
	}
}

/**
 * run_machine_path() - the file a `machine:` value @name names: a bare
 * name ("skx-4s-144") is looked for beside the scenario (@dir/NAME.yaml,
 * then @dir/machines/NAME.yaml), then among the shipped profiles
 * (@datadir/machines/NAME.yaml); anything else is a path, relative to
 * @dir unless absolute.
 * @name: the value
 * @dir: the scenario file's directory
 * @datadir: the shipped data
 * @path: the file, @size bytes
 *
 * Return: whether @name is a bare name.
 */
bool run_machine_path(const char *name, const char *dir, const char *datadir,
		      char *path, size_t size)
{
	static const char *const beside[] = { "%s/%s.yaml",
					      "%s/machines/%s.yaml" };
	bool bare = !strchr(name, '/') && !strstr(name, ".yaml");
	unsigned int i;

	if (!bare) {
		if (name[0] == '/')
			snprintf(path, size, "%s", name);
		else
			snprintf(path, size, "%s/%s", dir, name);
		return false;
	}
	for (i = 0; i < 2; i++) {
		snprintf(path, size, beside[i], dir, name);
		if (!access(path, R_OK))
			return true;
	}
	snprintf(path, size, "%s/machines/%s.yaml", datadir, name);
	return true;
}

/* The file a scalar `machine:` names (run_machine_path()). */
static void machine_resolve(const struct scenario_node *n, const char *datadir,
			    char *path, size_t size, bool *bare)
{
	char *copy = strdup(scenario_file(n));

	SIM_OOM_ON(!copy);
	*bare = run_machine_path(scenario_scalar(n), dirname(copy), datadir,
				 path, size);
	free(copy);
}

/*
 * profile_names() - the shipped profiles, sorted, as "a, b, c" in @list;
 * returns the one nearest @name (in @near), or NULL.
 */
static const char *profile_names(const char *datadir, const char *name,
				 char *near, size_t near_size, char *list,
				 size_t list_size)
{
	char *names[256];
	unsigned int n = shipped_names(datadir, "machines", true, names, 256);
	const char *best = sim_nearest(name, (const char *const *)names, n);
	unsigned int i;
	size_t len = 0;

	list[0] = '\0';
	if (best)
		snprintf(near, near_size, "%s", best);
	for (i = 0; i < n; i++)
		if (len < list_size)
			len += (size_t)snprintf(list + len, list_size - len,
						"%s%s", i ? ", " : "",
						names[i]);
	shipped_names_free(names, n);
	return best ? near : NULL;
}

static int variant_machine(struct variant *v, const struct run_opts *o,
			   struct sim_error *err)
{
	const struct scenario_node *n = scenario_get(v->tree, "machine");
	char path[1024], near[64], list[512], inner[SIM_ERROR_LINE_MAX];
	const char *name, *hint, *reason;
	struct stat st;
	bool bare;

	if (!n) {
		scenario_error(
			err, v->tree,
			"missing key 'machine': a profile name such as skx-2s-72, a path, or a map");
		return -1;
	}
	if (scenario_kind(n) != SCENARIO_SCALAR)
		return machine_load(&v->machine, n, err);
	name = scenario_scalar(n);
	machine_resolve(n, o->datadir, path, sizeof(path), &bare);
	if (bare && access(path, R_OK)) {
		hint = profile_names(o->datadir, name, near, sizeof(near), list,
				     sizeof(list));
		if (hint)
			scenario_error(
				err, n,
				"no machine profile named '%s'; did you mean '%s'?",
				name, hint);
		else
			scenario_error(
				err, n,
				"no machine profile named '%s'; the shipped ones are: %s",
				name, list[0] ? list : "(none found)");
		return -1;
	}
	if (stat(path, &st)) {
		scenario_error(err, n,
			       "cannot open the machine profile '%s': %s",
			       bare ? path : name, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		scenario_error(
			err, n, "cannot read the machine profile '%s': %s",
			bare ? path : name,
			S_ISDIR(st.st_mode) ?
				strerror(EISDIR) :
				"not a regular file (a FIFO or a device)");
		return -1;
	}
	if (!machine_load_file(&v->machine, path, err)) {
		snprintf(v->profile, sizeof(v->profile), "%s", path);
		return 0;
	}
	/*
	 * The profile's own error (its file, line and column) goes after
	 * the place in the scenario that named it.
	 */
	if (err->line) {
		snprintf(inner, sizeof(inner), "%s:%u:%u: %s", err->file,
			 err->line, err->col, err->msg);
		scenario_error(err, n, "in the machine profile '%s': %s", name,
			       inner);
		return -1;
	}
	/* "cannot open machine profile: REASON": the reason alone. */
	reason = strstr(err->msg, ": ");
	snprintf(inner, sizeof(inner), "%s",
		 !strncmp(err->msg, "scenario is larger", 18) ? err->msg + 12 :
		 reason					      ? reason + 2 :
								err->msg);
	scenario_error(err, n, "cannot read the machine profile '%s': %s", name,
		       inner);
	return -1;
}

/*
 * A workload's cgroup that 'cgroups' does not list: suggest the path with
 * a leading '/' when that is listed (paths start at the root), else the
 * nearest listed path.
 */
static void cgroup_missing(const struct cgroup_tree *t,
			   const struct scenario_node *at, const char *cgroup,
			   struct sim_error *err)
{
	char slashed[sizeof(t->cg[0].path) + 1];
	const char **paths, *near = NULL;
	unsigned int i;

	snprintf(slashed, sizeof(slashed), "/%s", cgroup);
	if (cgroup[0] != '/' && cgroup_find(t, slashed) >= 0) {
		near = slashed;
	} else {
		paths = calloc(t->nr ? t->nr : 1, sizeof(*paths));
		SIM_BUG_ON(!paths);
		for (i = 0; i < t->nr; i++)
			paths[i] = t->cg[i].path;
		near = sim_nearest(cgroup, paths, t->nr);
		if (near) {
			snprintf(slashed, sizeof(slashed), "%s", near);
			near = slashed;
		}
		free(paths);
	}
	scenario_error(err, at, "no cgroup '%s' in 'cgroups'%s%s%s", cgroup,
		       near ? "; did you mean '" : "", near ? near : "",
		       near ? "'?" : "");
}

static int variant_workload(struct variant *v, const struct scenario_node *n,
			    int *used_by, struct sim_error *err)
{
	struct workload *w = &v->workloads[v->nr_workloads];
	const char *keys[64], *type, *cgroup;
	unsigned int order[MACHINE_MAX_CPUS], nr, i;
	uint64_t mask[MACHINE_MAX_CPUS / 64] = { 0 };
	const struct workload_type *const *types;
	unsigned int nr_types, nr_keys = 0;

	if (scenario_key_get(n, &common_workload_keys[WL_TYPE], &type, err))
		return -1;
	w->type = workload_type_find(type);
	if (!w->type) {
		const char *names[16];

		nr_types = workload_types(&types);
		for (i = 0; i < nr_types && i < ARRAY_SIZE(names); i++)
			names[i] = types[i]->name;
		scenario_error(
			err, scenario_get(n, "type"),
			"unknown workload type '%s'%s%s%s", type,
			sim_nearest(type, names, i) ? "; did you mean '" : "",
			sim_nearest(type, names, i) ?: "",
			sim_nearest(type, names, i) ? "'?" : "");
		return -1;
	}
	nr_keys = (unsigned int)scenario_key_names(
		common_workload_keys, NR_WL_KEYS, keys, 0, ARRAY_SIZE(keys));
	nr_keys = (unsigned int)scenario_key_names(w->type->keys,
						   w->type->nr_keys, keys,
						   nr_keys, ARRAY_SIZE(keys));
	if (scenario_check_keys(n, keys, nr_keys, err))
		return -1;
	if (v->machine_from_cli &&
	    !scenario_cpulist(n, "cpus", true, NULL, MACHINE_MAX_CPUS, mask,
			      order, &nr, err))
		for (i = 0; i < nr; i++)
			if (order[i] >= v->machine.nr_cpus) {
				v->misfit = order[i] + 1;
				v->misfit_at = scenario_get(n, "cpus");
				return 0;
			}
	memset(mask, 0, sizeof(mask));
	if (scenario_cpulist(n, "cpus", true, NULL, v->machine.nr_cpus, mask,
			     order, &nr, err))
		return -1;
	for (i = 0; i < nr; i++) {
		if (used_by[order[i]] >= 0) {
			scenario_error(
				err, scenario_get(n, "cpus"),
				"CPU %u already runs a task of workloads.%d: a CPU runs one task",
				order[i], used_by[order[i]]);
			return -1;
		}
		used_by[order[i]] = (int)v->nr_workloads;
	}
	if (scenario_key_get(n, &common_workload_keys[WL_CGROUP], &cgroup, err))
		return -1;
	if (cgroup_find(&v->cgroups, cgroup) < 0) {
		cgroup_missing(&v->cgroups, scenario_get(n, "cgroup"), cgroup,
			       err);
		return -1;
	}
	snprintf(w->cgroup, sizeof(w->cgroup), "%s", cgroup);
	w->index = v->nr_workloads++;
	w->nr_tasks = nr;
	w->scale = 1.0;
	w->cpus = malloc(nr * sizeof(*w->cpus));
	/* aligned, as struct sim_task's layout asks */
	w->tasks = aligned_alloc(_Alignof(struct sim_task),
				 nr * sizeof(*w->tasks));
	if (w->tasks)
		memset(w->tasks, 0, nr * sizeof(*w->tasks));
	SIM_OOM_ON(!w->cpus || !w->tasks);
	memcpy(w->cpus, order, nr * sizeof(*w->cpus));
	w->cgroups = &v->cgroups;
	return w->type->parse(w, n, &v->machine, err);
}

static int variant_workloads(struct variant *v, struct sim_error *err)
{
	const struct scenario_node *n = scenario_get(v->tree, "workloads");
	int used_by[MACHINE_MAX_CPUS]; /* workload index per CPU, or -1 */
	size_t i;

	for (i = 0; i < MACHINE_MAX_CPUS; i++)
		used_by[i] = -1;

	if (!n) {
		scenario_error(
			err, v->tree,
			"missing key 'workloads': a list of at least one workload");
		return -1;
	}
	if (scenario_kind(n) != SCENARIO_SEQ || !scenario_len(n)) {
		scenario_error(
			err, n,
			"expected a list of at least one workload, found %s",
			found(n));
		return -1;
	}
	if (scenario_len(n) > MAX_WORKLOADS) {
		scenario_error(err, n, "at most %d workloads, found %zu",
			       MAX_WORKLOADS, scenario_len(n));
		return -1;
	}
	for (i = 0; i < scenario_len(n) && !v->misfit; i++)
		if (variant_workload(v, scenario_item(n, i), used_by, err))
			return -1;
	return 0;
}

static void variant_destroy(struct variant *v)
{
	unsigned int i;

	for (i = 0; i < v->nr_workloads; i++) {
		struct workload *w = &v->workloads[i];

		if (w->type && w->type->destroy)
			w->type->destroy(w);
		free(w->cpus);
		free(w->tasks);
	}
	/* A workload whose parse failed half-way was counted too. */
	machine_destroy(&v->machine);
	cgroup_tree_destroy(&v->cgroups);
	scenario_free(v->tree);
	memset(v, 0, sizeof(*v));
}

/*
 * Free what @v loaded but its name and seed, once it is checked: a
 * scenario's variants (up to 256, each with its cgroups, workloads and
 * machine) are loaded again one at a time as they run, not all at once.
 */
static void variant_park(struct variant *v)
{
	uint64_t seed = v->seed;
	char name[sizeof(v->name)];

	memcpy(name, v->name, sizeof(name));
	variant_destroy(v);
	memcpy(v->name, name, sizeof(name));
	v->seed = seed;
	v->parked = true;
}

static int apply_set(struct scenario_node *tree,
		     const struct scenario_node *set, struct sim_error *err)
{
	size_t i;

	if (!set)
		return 0;
	if (scenario_kind(set) != SCENARIO_MAP) {
		scenario_error(err, set,
			       "expected a map of KEY: VALUE settings");
		return -1;
	}
	for (i = 0; i < scenario_len(set); i++) {
		const char *key = scenario_key(set, i);

		if (!strcmp(key, "variants") || !strncmp(key, "variants.", 9) ||
		    !strcmp(key, "baseline")) {
			scenario_error(err, scenario_item(set, i),
				       "a variant cannot set '%s'", key);
			return -1;
		}
		if (scenario_set(tree, key, scenario_item(set, i), err))
			return -1;
	}
	return 0;
}

/*
 * nudge_work() - every workload's work_ns in @tree scaled by 1 + @ppm /
 * 1e6, to the ps (--sensitivity). A work_ns that does not read as a
 * duration is left for the workload's loader to refuse.
 */
static void nudge_work(struct scenario_node *tree, int32_t ppm)
{
	const struct scenario_node *wls = scenario_get(tree, "workloads");
	struct sim_error ignored;
	size_t i;

	for (i = 0; ppm && wls && scenario_kind(wls) == SCENARIO_SEQ &&
		    i < scenario_len(wls);
	     i++) {
		const struct scenario_node *w = scenario_item(wls, i);
		char arg[96];
		uint64_t ps;
		double x;
		int ret;

		if (!scenario_get(w, "work_ns") ||
		    scenario_time_ps(w, "work_ns", true, SIM_PS_PER_NS, 0, 0,
				     UINT64_MAX / 4, &ps, &ignored))
			continue;
		x = (double)ps * (1.0 + ppm / 1e6) + 0.5;
		snprintf(arg, sizeof(arg), "workloads.%zu.work_ns=%llups", i,
			 (unsigned long long)x);
		ret = scenario_set_arg(tree, arg, &ignored);
		SIM_BUG_ON(ret); /* the path exists: it was just read */
	}
}

/*
 * variant_load() - @base with variant @vn's settings applied (@vn NULL:
 * the scenario as written), read and checked into @v.
 */
static int variant_load(struct variant *v, const struct scenario_node *base,
			const struct scenario_node *vn,
			const struct run_opts *o, struct sim_error *err)
{
	const char *name = "base";
	unsigned int k;

	memset(v, 0, sizeof(*v));
	for (k = 0; k < o->nr_sets; k++)
		if (!strncmp(o->sets[k], "machine=", 8))
			v->machine_from_cli = true;
	v->tree = scenario_clone(base);
	SIM_OOM_ON(!v->tree);
	if (vn) {
		if (scenario_key_get(vn, &variant_keys[VAR_NAME], &name, err) ||
		    apply_set(v->tree, scenario_get(vn, "set"), err))
			goto out_destroy;
	}
	snprintf(v->name, sizeof(v->name), "%s", name);
	nudge_work(v->tree, o->nudge_work_ppm);
	if (check_top_keys(v->tree, err) ||
	    scenario_key_load(v->tree, &top_keys[TOP_SEED], v, NULL, err))
		goto out_destroy;
	if (o->seed_set)
		v->seed = o->seed;
	if (scenario_key_load(v->tree, &top_keys[TOP_DURATION_MS], v, NULL,
			      err) ||
	    scenario_key_load(v->tree, &top_keys[TOP_WARMUP_MS], v, NULL, err))
		goto out_destroy;
	if (variant_machine(v, o, err))
		goto out_destroy;
	if (o->nudge_latency_ppm)
		machine_nudge(&v->machine, o->nudge_latency_ppm);
	if (kernel_config_load(&v->kernel, v->tree, err) ||
	    cgroup_tree_load(&v->cgroups, v->tree, err) ||
	    variant_workloads(v, err))
		goto out_destroy;
	return 0;

out_destroy:
	variant_destroy(v);
	return -1;
}

/* ---- the estimate ---- */

/*
 * What scenario_run() is doing, for the message when an allocation fails
 * below it (sim_out_of_memory() unwinds to scenario_run()): global, as
 * that unwinding skips every frame between.
 */
static char oom_stage[96];

/* ---- running ---- */

/*
 * The --max-events budget applied to work done without events (struct
 * run's work: operations, a million-object loop, a task that never
 * waits): when a run has done more such units than events, they are
 * what its cost is, scaled to the whole run as events are. While the
 * events outnumber them, engine_progress() decides alone.
 */
static void work_tick(struct run *r, sim_time_t now)
{
	struct progress_ctx *pc = r->work_arg;
	double est;

	if (pc->o->time_up && pc->o->time_up(pc->o->time_up_arg)) {
		pc->timed_out = true;
		run_stop(r);
		sim_engine_stop(pc->e);
		return;
	}
	if (!pc->max_events || r->work <= sim_events(pc->e))
		return;
	est = now ? (double)r->work * (double)pc->end / (double)now : INFINITY;
	if (est <= (double)pc->max_events)
		return;
	pc->estimate = est;
	pc->at = now;
	pc->work = r->work;
	run_stop(r);
	sim_engine_stop(pc->e);
}

static void engine_progress(void *arg, sim_time_t now)
{
	struct progress_ctx *pc = arg;
	double est;

	/*
	 * Events so far, scaled to the whole run: a run that would pass
	 * --max-events stops here, after 2^20 events, not days later. It
	 * counts events and simulated time only, so the same run stops at
	 * the same point on any machine.
	 */
	/* --max-time is up: stop here. */
	if (pc->o->time_up && pc->o->time_up(pc->o->time_up_arg)) {
		pc->timed_out = true;
		sim_engine_stop(pc->e);
		return;
	}
	/* A trace that cannot be written (a full disk) stops the run. */
	if (pc->o->trace && sim_trace_flush(pc->o->trace)) {
		pc->trace_failed = true;
		sim_engine_stop(pc->e);
		return;
	}
	if (pc->max_events) {
		/* 2^20 events and the clock still at 0: it never advances. */
		est = now ? (double)sim_events(pc->e) * (double)pc->end /
				      (double)now :
			    INFINITY;
		if (est > (double)pc->max_events) {
			pc->estimate = est;
			pc->at = now;
			sim_engine_stop(pc->e);
			return;
		}
	}
	if (!pc->o->progress)
		return;

	pc->o->progress(pc->o->progress_arg,
			pc->done + pc->share * (double)now / (double)pc->end);
}

static void tasks_reset(struct run *run)
{
	unsigned int i, j;

	/*
	 * The operations and their latencies are not reset: task_op_end()
	 * counts an operation by when it completed, and a process's clock
	 * may already be past the warm-up when the engine gets there (a run
	 * of cache hits needs no event).
	 */
	coh_stats_reset(run->coh);
	if (run->memcg)
		memcg_sim_reset_counts(run->memcg);
	for (i = 0; i < run->nr_workloads; i++) {
		struct workload *w = &run->workloads[i];

		for (j = 0; j < w->nr_tasks; j++)
			kprof_reset(&w->tasks[j].prof, run->warmup_ps);
	}
}

/*
 * run__shortcuts_off() - MEMCGSIM_SHORTCUTS=0 in the environment: every
 * access takes the coherence model's general path (coh_set_shortcuts()).
 * Results must not change; only the time a run takes does.
 */
static bool run__shortcuts_off(void)
{
	const char *v = getenv("MEMCGSIM_SHORTCUTS");

	return v && !strcmp(v, "0");
}

/*
 * run_variant_once() - one replication of @v with @seed. Fills @res and,
 * when @r is not NULL, records the hot lines and hands the finished run to
 * the inspect hook.
 */
/*
 * The periodic statistics flusher (flush_memcg_stats_dwork) runs on the
 * highest-numbered CPU no task uses. SIM: with every CPU busy there is
 * none: a kworker would preempt a task, which the model cannot do. The
 * period (2 s) is longer than most runs anyway.
 */
static void kworker_setup(struct run *run)
{
	struct memcg_stats_kworker_frame *f;
	unsigned int i, j;
	bool *busy;
	int cpu;

	run->kworker_cpu = -1;
	if (!run->memcg)
		return;
	busy = calloc(run->machine.nr_cpus, sizeof(*busy));
	SIM_OOM_ON(!busy);
	for (i = 0; i < run->nr_workloads; i++)
		for (j = 0; j < run->workloads[i].nr_tasks; j++)
			busy[run->workloads[i].cpus[j]] = true;
	for (cpu = (int)run->machine.nr_cpus - 1; cpu >= 0; cpu--)
		if (!busy[cpu])
			break;
	free(busy);
	if (cpu < 0)
		return;
	run->kworker_cpu = cpu;
	sim_proc_init(&run->kworker, run->engine, (unsigned int)cpu, PROC_STACK,
		      &run->kworker_ctx);
	run->kworker_ctx.ms = run->memcg;
	run->kworker_ctx.cc =
		coh_cpu_attach(run->coh, (unsigned int)cpu, &run->kworker);
	/*
	 * SIM: the kworker sleeps between its rare flushes: its CPU counts
	 * as idle for its SMT sibling (coh_delay()), flushing included
	 */
	coh_cpu_set_idle(run->kworker_ctx.cc, true);
	f = CO_PUSH(&run->kworker, memcg_stats_kworker);
	f->end_ps = run->end_ps;
	sim_proc_start(&run->kworker, 0);
}

/*
 * run_build() - @v's run in @run: the engine, the coherence model within
 * --max-memory (@limit), the memcg world when a workload charges, the
 * trace when @traced, a task per workload CPU, each workload's setup and
 * the stats kworker. Nothing runs yet.
 */
static void run_build(struct run *run, struct variant *v, uint64_t seed,
		      const struct run_opts *o, bool traced, int variant,
		      uint64_t limit)
{
	unsigned int i, j;

	run->machine = v->machine;
	run->seed = seed;
	run->warmup_ps = v->warmup_ps;
	run->end_ps = v->warmup_ps + v->duration_ps;
	run->live_end = run->end_ps;
	run->nr_workloads = v->nr_workloads;
	run->workloads = v->workloads;
	run->engine = sim_engine_create();
	SIM_OOM_ON(!run->engine);
	sim_stat_init(&run->lat);
	run->coh = coh_create(&v->machine, run->engine);
	coh_set_mem_limit(run->coh, limit == UINT64_MAX ? 0 : limit);
	/* a developer's check that the shortcuts are exact (HACKING.md) */
	if (run__shortcuts_off())
		coh_set_shortcuts(run->coh, false);
	run->kernel = &v->kernel;
	run->cgroups = &v->cgroups;
	for (i = 0; i < v->nr_workloads; i++)
		if (v->workloads[i].type->memcg && !run->memcg)
			run->memcg = memcg_sim_create(&v->kernel, &v->cgroups,
						      run->coh,
						      v->machine.nr_cpus);
	if (traced) {
		run__trace_begin(run, o, variant);
		/* A window after the run holds nothing: say so. */
		if (o->trace_from >= run->end_ps)
			fprintf(stderr,
				"memcgsim: note: --trace-from %g ms is not before variant '%s' ends (%g ms, warm-up included): its trace holds no events\n",
				(double)o->trace_from / SIM_PS_PER_MS, v->name,
				(double)run->end_ps / SIM_PS_PER_MS);
	}
	for (i = 0; i < v->nr_workloads; i++) {
		struct workload *w = &v->workloads[i];

		for (j = 0; j < w->nr_tasks; j++) {
			struct sim_task *t = &w->tasks[j];

			sim_proc_init(&t->proc, run->engine, w->cpus[j],
				      PROC_STACK, t);
			t->k.cc =
				coh_cpu_attach(run->coh, w->cpus[j], &t->proc);
			t->k.ms = run->memcg;
			t->w = w;
			t->index = j;
			task_rng_init(t, seed, w->cpus[j]);
			memset(&t->prof, 0, sizeof(t->prof));
			t->k.cc->prof = &t->prof;
			/* explain names the function behind each access */
			coh_cpu_count_callers(t->k.cc,
					      o->callers ? kprof_caller : NULL);
		}
		w->type->setup(w, run);
	}
	kworker_setup(run);
}

/* run_budgets() - @run's --max-events, --max-time and progress, in @pc. */
static void run_budgets(struct run *run, const struct run_opts *o,
			struct progress_ctx *pc, bool traced)
{
	pc->end = run->end_ps;
	pc->e = run->engine;
	pc->max_events = o->max_events ? o->max_events : RUN_DEFAULT_MAX_EVENTS;
	if (pc->max_events == UINT64_MAX)
		pc->max_events = 0;
	pc->estimate = 0;
	pc->trace_failed = false;
	pc->timed_out = false;
	pc->work = 0;
	/* Work without events: checked every 2^16 units (struct run). */
	run->work_every = 1 << 16;
	if (pc->max_events && pc->max_events < run->work_every)
		run->work_every = pc->max_events;
	/* the trace, if any, has begun (run_build()) */
	run_work_next(run, run->work_every);
	run->work_tick = work_tick;
	run->work_arg = pc;
	/*
	 * The budget is checked every 2^20 events, or every --max-events
	 * when that is less: a limit below 2^20 is enforced too. So is a
	 * trace's writing.
	 */
	if (o->progress || pc->max_events || traced || o->time_up)
		sim_engine_set_progress(run->engine,
					pc->max_events && pc->max_events <
								  1 << 20 ?
						pc->max_events :
						1 << 20,
					engine_progress, pc);
}

/*
 * run_stopped() - the error of a run that a budget stopped (--max-time,
 * --max-events) or whose trace could not be written: -1, nothing of it
 * is written. 0 for a run that finished.
 */
static int run_stopped(struct run *run, const struct variant *v,
		       const struct run_opts *o, const struct progress_ctx *pc,
		       bool traced, int variant, struct sim_error *err)
{
	if (pc->timed_out) {
		scenario_error(
			err, v->tree,
			"variant '%s': stopped at --max-time after %.6g of its %.6g simulated ms: nothing was written; raise --max-time, or shorten duration_ms (memcgsim check estimates the time)",
			v->name, (double)sim_now(run->engine) / SIM_PS_PER_MS,
			(double)run->end_ps / SIM_PS_PER_MS);
		return -1;
	}
	if (pc->estimate) {
		run__events_error(v, pc, err);
		return -1;
	}
	if (traced)
		run__trace_end(run, v->name, variant);
	if (traced && sim_trace_flush(o->trace)) {
		/* Stopped at the first failed write: nothing is written. */
		sim_error_set(
			err, sim_trace_path(o->trace), 0, 0,
			"cannot write the trace: %s; stopped in variant '%s': nothing was written, neither the trace nor the results",
			strerror(sim_trace_flush(o->trace)), v->name);
		return -1;
	}
	return 0;
}

/* run_free() - what run_build() made. */
static void run_free(struct run *run, struct variant *v)
{
	unsigned int i, j;

	for (i = 0; i < v->nr_workloads; i++)
		for (j = 0; j < v->workloads[i].nr_tasks; j++)
			sim_proc_destroy(&v->workloads[i].tasks[j].proc);
	if (run->kworker_cpu >= 0)
		sim_proc_destroy(&run->kworker);
	sim_stat_destroy(&run->lat);
	memcg_sim_free(run->memcg);
	coh_free(run->coh);
	sim_engine_free(run->engine);
}

static int run_variant_once(struct variant *v, uint64_t seed,
			    const struct run_opts *o, bool traced,
			    struct progress_ctx *pc, struct report *r,
			    int variant, struct run_result *res,
			    struct sim_error *err)
{
	uint64_t limit = run__max_memory(o);
	struct run run = { 0 };
	unsigned int i, j;
	int ret = -1;

	run_build(&run, v, seed, o, traced, variant, limit);
	if (coh_failed(run.coh)) {
		run__mem_error(v, &run, limit, err);
		goto out;
	}
	for (i = 0; i < v->nr_workloads; i++)
		for (j = 0; j < v->workloads[i].nr_tasks; j++)
			sim_proc_start(&v->workloads[i].tasks[j].proc, 0);
	run_budgets(&run, o, pc, traced);
	if (o->run_phase)
		o->run_phase(o->run_phase_arg, true);
	sim_engine_run(run.engine, run.warmup_ps);
	coh_settle(run.coh); /* before the counts are read */
	if (!pc->estimate && !pc->trace_failed && !pc->timed_out) {
		tasks_reset(&run);
		sim_engine_run(run.engine, run.end_ps);
		coh_settle(run.coh);
	}
	if (o->run_phase)
		o->run_phase(o->run_phase_arg, false);
	if (run_stopped(&run, v, o, pc, traced, variant, err))
		goto out;
	for (i = 0; i < v->nr_workloads; i++)
		for (j = 0; j < v->workloads[i].nr_tasks; j++)
			kprof_settle(&v->workloads[i].tasks[j].prof,
				     run.end_ps);
	run__collect(&run, res);
	if (r) {
		report_events(r, variant, sim_events(run.engine));
		run__counts_note(v, &run);
		run__lines_report(&run, r, variant, o->hot_lines);
		if (run.memcg)
			run__functions_report(&run, r, variant);
		if (o->inspect)
			o->inspect(o->inspect_arg, v->name, &run);
	}
	ret = 0;
out:
	run_free(&run, v);
	return ret;
}

/* ---- the scenario ---- */

/* The variants' names into @names: each well formed, none twice. */
static int check_variant_names(const struct scenario_node *vars, size_t nr,
			       const char **names, struct sim_error *err)
{
	static const char allowed[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-";
	size_t i, j;

	for (i = 0; i < nr; i++) {
		const struct scenario_node *vn = scenario_item(vars, i);
		const char *s;

		if (run__check_keys(vn, variant_keys, NR_VAR_KEYS, err) ||
		    scenario_key_get(vn, &variant_keys[VAR_NAME], &names[i],
				     err))
			return -1;
		if (!names[i][0] || strlen(names[i]) >= 64 ||
		    strspn(names[i], allowed) != strlen(names[i])) {
			scenario_error(
				err, scenario_get(vn, "name"),
				"expected a variant name of letters, digits and _.+- (at most 63), found '%s'",
				names[i]);
			return -1;
		}
		for (j = 0; j < i; j++) {
			if (!strcmp(names[i], names[j])) {
				scenario_error(err, scenario_get(vn, "name"),
					       "variant '%s' is defined twice",
					       names[i]);
				return -1;
			}
		}
		if (scenario_key_get(vn, &variant_keys[VAR_DESCRIPTION], &s,
				     err))
			return -1;
	}
	return 0;
}

/* A variant's own baseline names another variant. */
static int check_variant_baselines(const struct scenario_node *vars, size_t nr,
				   const char *const *names,
				   struct sim_error *err)
{
	const char *vb, *near;
	size_t i, j;

	for (i = 0; i < nr; i++) {
		const struct scenario_node *vn = scenario_item(vars, i);

		if (scenario_key_get(vn, &variant_keys[VAR_BASELINE], &vb, err))
			return -1;
		if (!vb)
			continue;
		for (j = 0; j < nr; j++)
			if (!strcmp(vb, names[j]))
				break;
		if (j == i) {
			scenario_error(
				err, scenario_get(vn, "baseline"),
				"a variant cannot be its own baseline: '%s'",
				vb);
			return -1;
		}
		if (j == nr) {
			near = sim_nearest(vb, names, (unsigned int)nr);
			scenario_error(err, scenario_get(vn, "baseline"),
				       "no variant named '%s'%s%s%s", vb,
				       near ? "; did you mean '" : "",
				       near ? near : "", near ? "'?" : "");
			return -1;
		}
	}
	return 0;
}

static int check_variants(const struct scenario_node *base,
			  const struct scenario_node *vars,
			  const char **baseline, struct sim_error *err)
{
	const char *names[MAX_VARIANTS], *near;
	size_t i, nr = vars ? scenario_len(vars) : 0;

	if (vars && (scenario_kind(vars) != SCENARIO_SEQ || !nr)) {
		scenario_error(err, vars,
			       "expected a list of variants, found %s",
			       found(vars));
		return -1;
	}
	if (nr > MAX_VARIANTS) {
		scenario_error(err, vars, "at most %d variants, found %zu",
			       MAX_VARIANTS, nr);
		return -1;
	}
	if (check_variant_names(vars, nr, names, err) ||
	    check_variant_baselines(vars, nr, names, err) ||
	    scenario_key_get(base, &top_keys[TOP_BASELINE], baseline, err))
		return -1;
	if (!*baseline || !strcmp(*baseline, "base"))
		return 0;
	for (i = 0; i < nr; i++)
		if (!strcmp(*baseline, names[i]))
			return 0;
	near = sim_nearest(*baseline, names, (unsigned int)nr);
	scenario_error(err, scenario_get(base, "baseline"),
		       "no variant named '%s'%s%s%s", *baseline,
		       near ? "; did you mean '" : "", near ? near : "",
		       near ? "'?" : "");
	return -1;
}

/* A scenario being run: its tree, its variants and what they share. */
struct scenario_job {
	const char *path;
	const struct run_opts *o;
	struct scenario_node *base; /* with --set applied */
	const struct scenario_node *vars; /* NULL: the scenario as written */
	const char *name, *desc, *baseline;
	size_t nr; /* variants (1 without `variants:`) */
	size_t selected; /* those that run */
	size_t done; /* runs finished, for the progress */
	struct variant *v;
	struct run_result *res; /* one per replication */
	struct run_prov *prov;
};

/*
 * scenario_check() - load @j->path, apply --set, and check the top
 * level: its keys, the variants' names and baselines, `published:`.
 */
static int scenario_check(struct scenario_job *j, struct sim_error *err)
{
	unsigned int k;

	j->base = scenario_load_file(j->path, err);
	if (!j->base)
		return -1;
	for (k = 0; k < j->o->nr_sets; k++)
		if (scenario_set_arg(j->base, j->o->sets[k], err))
			return -1;
	if (check_top_keys(j->base, err))
		return -1;
	j->vars = scenario_get(j->base, "variants");
	if (check_variants(j->base, j->vars, &j->baseline, err) ||
	    run__check_published(j->base, j->vars, err) ||
	    scenario_key_get(j->base, &top_keys[TOP_SCENARIO], &j->name, err) ||
	    scenario_key_get(j->base, &top_keys[TOP_DESCRIPTION], &j->desc,
			     err))
		return -1;
	/*
	 * The name heads tables and titles plots, one line each: a tab or a
	 * newline would split them (the loader refuses other controls).
	 */
	if (strpbrk(j->name, "\t\n")) {
		scenario_error(
			err, scenario_get(j->base, "scenario"),
			"a scenario name is one line: no newline or tab");
		return -1;
	}
	return 0;
}

/*
 * variant_check() - load variant @i and check it; estimate it when it is
 * to run; then park it. A variant naming a CPU the machine lacks is
 * skipped, unless it is the one asked for.
 */
static int variant_check(struct scenario_job *j, size_t i,
			 struct sim_error *err)
{
	const struct run_opts *o = j->o;
	struct variant *v = &j->v[i];
	struct estimate est;

	snprintf(oom_stage, sizeof(oom_stage), "checking variant %zu", i + 1);
	if (variant_load(v, j->base, j->vars ? scenario_item(j->vars, i) : NULL,
			 o, err) ||
	    run__check_outputs(o, err))
		return -1;
	if (v->misfit) {
		if (o->variant && !strcmp(o->variant, v->name)) {
			scenario_error(
				err, v->misfit_at,
				"CPU %u is out of range: the machine has %u CPUs",
				v->misfit - 1, v->machine.nr_cpus);
			return -1;
		}
		/* a note for the variants asked for: all, not one */
		if (!o->variant)
			fprintf(stderr,
				"memcgsim: note: variant '%s' skipped: it runs CPU %u, and the machine given with --set has %u CPUs\n",
				v->name, v->misfit - 1, v->machine.nr_cpus);
		variant_destroy(v);
		return 0;
	}
	if (!o->variant || !strcmp(o->variant, v->name)) {
		/* traced: every variant, or --trace-variant's */
		run__variant_estimate(v, run__traced(o, v->name), &est);
		if (o->estimate)
			o->estimate(o->estimate_arg, v->name, &est);
		if (run__check_limits(v, &est, o, err))
			return -1;
		run__prov_add(j->prov, v);
		j->selected++;
	}
	variant_park(v);
	return 0;
}

/* variants_check() - check every variant before running any. */
static int variants_check(struct scenario_job *j, struct sim_error *err)
{
	const struct run_opts *o = j->o;
	const char *names[MAX_VARIANTS], *near;
	size_t i;

	for (i = 0; i < j->nr; i++)
		if (variant_check(j, i, err))
			return -1;
	if (!j->selected && !o->variant) {
		sim_error_set(
			err, "", 0, 0,
			"no variant of %s fits the machine given with --set",
			j->path);
		return -1;
	}
	for (i = 0; i < j->nr; i++)
		names[i] = j->v[i].name;
	if (o->variant && !j->selected) {
		near = sim_nearest(o->variant, names, (unsigned int)j->nr);
		sim_error_set(err, "", 0, 0,
			      "--variant: no variant named '%s' in %s%s%s%s",
			      o->variant, j->path,
			      near ? "; did you mean '" : "", near ? near : "",
			      near ? "'?" : "");
		return -1;
	}
	return run__trace_check(o, names, (unsigned int)j->nr, j->path, err);
}

/*
 * variant_run() - run variant @i's replications, each on a fresh copy
 * (workloads keep state), into report @r; the first one traced when
 * asked and reporting its lines and functions.
 */
static int variant_run(struct scenario_job *j, struct report *r, size_t i,
		       struct progress_ctx *pc, struct sim_error *err)
{
	const struct run_opts *o = j->o;
	const struct scenario_node *vn = j->vars ? scenario_item(j->vars, i) :
						   NULL;
	struct variant *v = &j->v[i];
	const char *nan;
	unsigned int k;
	int col;

	col = report_variant(r, v->name);
	if (vn) {
		const char *vb = NULL;

		run__variant_legend(r, col, vn);
		if (!scenario_key_get(vn, &variant_keys[VAR_BASELINE], &vb,
				      err) &&
		    vb)
			report_variant_baseline(r, col, vb);
		sim_error_clear(err);
	}
	for (k = 0; k < o->replications; k++) {
		uint64_t s = k ? sim_seed_derive(v->seed, k) : v->seed;

		if (k)
			variant_destroy(v);
		snprintf(oom_stage, sizeof(oom_stage), "running variant '%s'",
			 v->name);
		if (variant_load(v, j->base, vn, o, err))
			return -1;

		memset(&j->res[k], 0, sizeof(j->res[k]));
		pc->share = 1.0 / (double)(j->selected * o->replications);
		pc->done = (double)j->done * pc->share;
		if (run_variant_once(v, s, o, !k && run__traced(o, v->name), pc,
				     k ? NULL : r, col, &j->res[k], err))
			return -1;
		j->done++;
	}
	run__record(r, col, j->res, o->replications, j->base, v->name);
	/* No result file holds nan: a workload that did nothing. */
	nan = report_nonfinite(r, col);
	if (nan) {
		scenario_error(
			err, vn ? vn : j->base,
			"variant '%s': the metric '%s' is not a number: its workload did no work it could measure",
			v->name, nan);
		return -1;
	}
	run__note_once(r, col, &j->res[0], j->prov);
	variant_park(v);
	return 0;
}

/* variants_run() - the report of the selected variants, run in order. */
static int variants_run(struct scenario_job *j, struct report **out,
			struct sim_error *err)
{
	const struct run_opts *o = j->o;
	struct progress_ctx pc = { .o = o };
	struct report *r;
	size_t i;

	for (i = 0; !j->v[i].parked; i++) /* the first not skipped */
		;
	r = report_create(j->name, j->v[i].seed, o->replications);
	SIM_OOM_ON(!r);
	run__prov_record(r, j->prov, j->path, o);
	report_describe(r, j->desc);
	report_all_metrics(r, o->all_metrics);
	for (i = 0; i < j->nr; i++) {
		if ((o->variant && strcmp(o->variant, j->v[i].name)) ||
		    !j->v[i].parked)
			continue;
		if (variant_run(j, r, i, &pc, err)) {
			report_free(r);
			return -1;
		}
	}
	report_set_baseline(r, j->baseline);
	*out = r;
	return 0;
}

static int scenario_run_caught(const char *path, const struct run_opts *o,
			       struct report **out, struct sim_error *err)
{
	struct scenario_job j = { .path = path, .o = o };
	size_t i;
	int ret = -1;

	SIM_BUG_ON(o->replications < 1 || o->replications > 1024 ||
		   !o->datadir);
	if (scenario_check(&j, err))
		goto out;
	j.nr = j.vars ? scenario_len(j.vars) : 1;
	j.v = calloc(j.nr, sizeof(*j.v));
	j.res = calloc(o->replications, sizeof(*j.res));
	j.prov = malloc(sizeof(*j.prov));
	SIM_OOM_ON(!j.v || !j.res || !j.prov);
	run__prov_init(j.prov);

	if (variants_check(&j, err))
		goto out;
	if (o->check_only) {
		ret = 0;
		goto out;
	}
	if (o->estimated)
		o->estimated(o->estimate_arg);
	ret = variants_run(&j, out, err);
out:
	for (i = 0; j.v && i < j.nr; i++)
		if (j.v[i].tree)
			variant_destroy(&j.v[i]);
	free(j.v);
	free(j.res);
	free(j.prov);
	scenario_free(j.base);
	return ret;
}

/*
 * scenario_run() - scenario_run_caught(), with an allocation that fails
 * anywhere below turned into an error (sim_out_of_memory() unwinds here;
 * what was allocated is left: the caller reports and ends).
 */
int scenario_run(const char *path, const struct run_opts *o,
		 struct report **out, struct sim_error *err)
{
	jmp_buf env, *prev;
	int ret;

	snprintf(oom_stage, sizeof(oom_stage), "loading the scenario");
	prev = sim_oom_catch(&env);
	if (setjmp(env)) {
		sim_oom_restore(prev);
		sim_error_set(
			err, path, 0, 0,
			"out of memory while %s (in %s); use fewer CPUs, cgroups or stats items, or a shorter run",
			oom_stage, sim_oom_where());
		return -1;
	}
	ret = scenario_run_caught(path, o, out, err);
	sim_oom_restore(prev);
	return ret;
}
