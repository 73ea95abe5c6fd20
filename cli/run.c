// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli/run.c - scenario variants, replications and results.
 * See cli/run.h for the theory of operation.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "models/kernel/config.h"
#include "models/kernel/memcontrol.h"
#include "cli/list.h"
#include "cli/run.h"
#include "sim/error.h"
#include "sim/stats.h"
#include "sim/trace.h"
#include "sim/util.h"

#define MAX_VARIANTS 256
#define MAX_WORKLOADS 64
#define MAX_METRICS 64
#define PROC_STACK 4096

static const char *const top_keys[] = {
	"scenario",    "description", "seed",	  "machine",
	"duration_ms", "warmup_ms",   "kernel",	  "cgroups",
	"workloads",   "baseline",    "variants", "published",
};

static const char *const variant_keys[] = { "name", "description", "set",
					    "baseline" };
static const char *const published_keys[] = {
	"source",
	"metric",
	"values",
	"tolerance_pp",
};
static const char *const common_workload_keys[] = { "type", "cpus", "cgroup" };

/* A scenario with one variant's settings applied, checked and read. */
struct variant {
	char name[64];
	struct scenario_node *tree;
	uint64_t seed;
	sim_time_t warmup_ps, duration_ps;
	struct machine machine;
	struct kernel_config kernel;
	struct cgroup_tree cgroups;
	unsigned int nr_workloads;
	struct workload workloads[MAX_WORKLOADS];
	/*
	 * --set machine=PROFILE: a variant naming a CPU the profile lacks
	 * (a calibrated 2-CPU host under a 72-CPU scenario) is skipped, not
	 * refused; misfit is that CPU + 1 and misfit_at its `cpus`.
	 */
	bool machine_from_cli;
	unsigned int misfit;
	const struct scenario_node *misfit_at;
};

/* One run's numbers, before replications are combined. */
struct run_result {
	unsigned int nr;
	const char *name[MAX_METRICS];
	const char *unit[MAX_METRICS];
	bool higher_is_better[MAX_METRICS];
	double value[MAX_METRICS];
};

static void result_add(struct run_result *res, const char *name,
		       const char *unit, double v, bool higher_is_better)
{
	SIM_BUG_ON(res->nr == MAX_METRICS);
	res->name[res->nr] = name;
	res->unit[res->nr] = unit;
	res->higher_is_better[res->nr] = higher_is_better;
	res->value[res->nr++] = v;
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

/*
 * machine_resolve() - the file a scalar `machine:` names: a shipped profile
 * by bare name ("skx-2s-72": DATADIR/machines/skx-2s-72.yaml), else a path,
 * relative to the scenario file's directory unless absolute.
 */
static void machine_resolve(const struct scenario_node *n, const char *datadir,
			    char *path, size_t size, bool *bare)
{
	const char *name = scenario_scalar(n);
	char *copy;

	*bare = !strchr(name, '/') && !strstr(name, ".yaml");
	if (*bare) {
		snprintf(path, size, "%s/machines/%s.yaml", datadir, name);
	} else if (name[0] == '/') {
		snprintf(path, size, "%s", name);
	} else {
		copy = strdup(scenario_file(n));
		SIM_BUG_ON(!copy);
		snprintf(path, size, "%s/%s", dirname(copy), name);
		free(copy);
	}
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
	char path[1024], near[64], list[512];
	const char *name, *hint;
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
	if (S_ISDIR(st.st_mode)) {
		scenario_error(err, n,
			       "cannot read the machine profile '%s': %s",
			       bare ? path : name, strerror(EISDIR));
		return -1;
	}
	return machine_load_file(&v->machine, path, err);
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

	if (scenario_string(n, "type", true, NULL, &type, err))
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
	for (i = 0; i < ARRAY_SIZE(common_workload_keys); i++)
		keys[nr_keys++] = common_workload_keys[i];
	for (i = 0; i < w->type->nr_keys; i++)
		keys[nr_keys++] = w->type->keys[i];
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
	if (scenario_string(n, "cgroup", false, "/", &cgroup, err))
		return -1;
	if (cgroup_find(&v->cgroups, cgroup) < 0) {
		scenario_error(err, scenario_get(n, "cgroup"),
			       "no cgroup '%s' in 'cgroups'", cgroup);
		return -1;
	}
	snprintf(w->cgroup, sizeof(w->cgroup), "%s", cgroup);
	w->index = v->nr_workloads++;
	w->nr_tasks = nr;
	w->scale = 1.0;
	w->cpus = malloc(nr * sizeof(*w->cpus));
	w->tasks = calloc(nr, sizeof(*w->tasks));
	SIM_BUG_ON(!w->cpus || !w->tasks);
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
	SIM_BUG_ON(!v->tree);
	if (vn) {
		if (scenario_string(vn, "name", true, NULL, &name, err) ||
		    apply_set(v->tree, scenario_get(vn, "set"), err))
			goto out_destroy;
	}
	snprintf(v->name, sizeof(v->name), "%s", name);
	if (scenario_check_keys(v->tree, top_keys, ARRAY_SIZE(top_keys), err) ||
	    scenario_u64(v->tree, "seed", false, 1, 0, UINT64_MAX, &v->seed,
			 err))
		goto out_destroy;
	if (o->seed_set)
		v->seed = o->seed;
	if (scenario_time_ps(v->tree, "duration_ms", false, SIM_PS_PER_MS,
			     SIM_PS_PER_MS, SIM_PS_PER_US,
			     10000 * SIM_PS_PER_MS, &v->duration_ps, err) ||
	    scenario_time_ps(v->tree, "warmup_ms", false, SIM_PS_PER_MS,
			     v->duration_ps / 10, 0, 10000 * SIM_PS_PER_MS,
			     &v->warmup_ps, err))
		goto out_destroy;
	if (variant_machine(v, o, err) ||
	    kernel_config_load(&v->kernel, v->tree, err) ||
	    cgroup_tree_load(&v->cgroups, v->tree, err) ||
	    variant_workloads(v, err))
		goto out_destroy;
	return 0;

out_destroy:
	variant_destroy(v);
	return -1;
}

/* ---- running ---- */

struct progress_ctx {
	const struct run_opts *o;
	double done, share; /* job fraction before this run, its share */
	sim_time_t end;
};

static void engine_progress(void *arg, sim_time_t now)
{
	struct progress_ctx *pc = arg;

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

static double percent(double part, double whole)
{
	double p = whole > 0 ? 100.0 * part / whole : 0.0;

	return p > 100.0 ? 100.0 : p;
}

/* The charge path's own metrics (DESIGN.md section 8). */
static void memcg_collect(struct run *run, struct run_result *res, uint64_t ops,
			  double secs)
{
	struct memcg_sim *ms = run->memcg;
	const struct memcg_counts *c = &ms->counts;
	double per_op = ops ? 1.0 / (double)ops : 0.0;
	bool charging = false, reading = false;
	unsigned int i;

	/* rows by the workloads present, so that variants line up */
	for (i = 0; i < run->nr_workloads; i++) {
		if (run->workloads[i].type == &stat_reader_type)
			reading = true;
		else if (run->workloads[i].type->memcg)
			charging = true;
	}
	if (!charging)
		goto stats;
	result_add(res, "charge_latency_mean", "ns",
		   sim_stat_mean(&ms->charge_lat), false);
	result_add(res, "charge_latency_p50", "ns",
		   sim_stat_quantile(&ms->charge_lat, 0.50), false);
	result_add(res, "charge_latency_p90", "ns",
		   sim_stat_quantile(&ms->charge_lat, 0.90), false);
	result_add(res, "charge_latency_p99", "ns",
		   sim_stat_quantile(&ms->charge_lat, 0.99), false);
	result_add(res, "charges_per_op", "calls", (double)c->charges * per_op,
		   false);
	result_add(res, "stock_hit_rate", "%",
		   percent((double)c->stock_hits, (double)c->charges), false);
	result_add(res, "page_counter_charges_per_op", "calls",
		   (double)c->pc_try_charges * per_op, false);
	result_add(res, "page_counter_uncharges_per_op", "calls",
		   (double)c->pc_uncharges * per_op, false);
	result_add(res, "charge_failures", "calls", (double)c->failures, false);
stats:
	/* statistics (DESIGN.md section 5) */
	result_add(res, "stats_atomics_per_op", "calls",
		   (double)c->stats_atomics * per_op, false);
	result_add(res, "flushes_per_s", "1/s", (double)c->flushes / secs,
		   false);
	result_add(res, "flushes_skipped", "calls", (double)c->flushes_skipped,
		   false);
	result_add(res, "flush_time_p50", "ns",
		   sim_stat_quantile(&ms->flush_lat, 0.50), false);
	result_add(res, "flush_time_p99", "ns",
		   sim_stat_quantile(&ms->flush_lat, 0.99), false);
	if (!reading)
		return;
	result_add(res, "stat_read_latency_mean", "ns",
		   sim_stat_mean(&ms->read_lat), false);
	result_add(res, "stat_read_latency_p50", "ns",
		   sim_stat_quantile(&ms->read_lat, 0.50), false);
	result_add(res, "stat_read_latency_p99", "ns",
		   sim_stat_quantile(&ms->read_lat, 0.99), false);
	result_add(res, "stat_pass_time_mean", "us",
		   sim_stat_mean(&ms->pass_lat) / 1000.0, false);
	result_add(res, "stats_error_max", "pages", c->error_max, false);
	result_add(res, "stats_error_mean", "pages",
		   c->error_reads ? c->error_sum / (double)c->error_reads : 0.0,
		   false);
}

static void run_collect(struct run *run, struct run_result *res)
{
	double secs = (double)(run->end_ps - run->warmup_ps) / 1e12, tput = 0;
	uint64_t ops = 0, transfers = 0;
	sim_time_t wait = 0, busy_max = 0;
	unsigned int i, j, nr_tasks = 0;

	for (i = 0; i < run->nr_workloads; i++) {
		struct workload *w = &run->workloads[i];

		for (j = 0; j < w->nr_tasks; j++) {
			struct sim_task *t = &w->tasks[j];

			ops += t->ops;
			wait += t->cc->wait_ps;
			/* throughput adds up the workloads of one unit */
			if (!strcmp(w->type->unit,
				    run->workloads[0].type->unit))
				tput += (double)t->ops * w->scale;
		}
		nr_tasks += w->nr_tasks;
	}
	result_add(res, "throughput", run->workloads[0].type->unit, tput / secs,
		   true);
	if (run->nr_workloads > 1) {
		static const char *const names[] = {
			"workload0_throughput", "workload1_throughput",
			"workload2_throughput", "workload3_throughput",
			"workload4_throughput", "workload5_throughput",
			"workload6_throughput", "workload7_throughput",
		};

		/* The first eight, as separate metrics. */
		for (i = 0; i < run->nr_workloads && i < 8; i++) {
			struct workload *w = &run->workloads[i];
			uint64_t wops = 0;

			for (j = 0; j < w->nr_tasks; j++)
				wops += w->tasks[j].ops;
			result_add(res, names[i], w->type->unit,
				   (double)wops / secs * w->scale, true);
		}
	}
	result_add(res, "latency_mean", "ns", sim_stat_mean(&run->lat), false);
	result_add(res, "latency_p50", "ns", sim_stat_quantile(&run->lat, 0.50),
		   false);
	result_add(res, "latency_p90", "ns", sim_stat_quantile(&run->lat, 0.90),
		   false);
	result_add(res, "latency_p99", "ns", sim_stat_quantile(&run->lat, 0.99),
		   false);

	{
		unsigned int nr = coh_nr_lines(run->coh);
		struct coh_line **lines = calloc(nr + 1, sizeof(*lines));

		SIM_BUG_ON(!lines);
		coh_lines_sorted(run->coh, lines, nr);
		for (i = 0; i < nr; i++)
			transfers += lines[i]->transfers;
		busy_max = nr ? lines[0]->busy_ps : 0;
		free(lines);
	}
	result_add(res, "transfers_per_op", "lines",
		   ops ? (double)transfers / (double)ops : 0.0, false);
	/*
	 * SIM: a hand-off or a wait is counted whole when it is served, so
	 * one in progress at the end of the window counts a little past it
	 * (and one begun before the warm-up ended, not at all): clamp.
	 */
	result_add(res, "hottest_line_util", "%",
		   percent((double)busy_max,
			   (double)(run->end_ps - run->warmup_ps)),
		   false);
	result_add(res, "cpu_waiting", "%",
		   percent((double)wait,
			   (double)nr_tasks *
				   (double)(run->end_ps - run->warmup_ps)),
		   false);
	if (run->memcg)
		memcg_collect(run, res, ops, secs);
}

static void lines_report(struct run *run, struct report *r, int variant,
			 unsigned int n)
{
	struct coh_line **lines = calloc(n + 1, sizeof(*lines));
	double secs_ps = (double)(run->end_ps - run->warmup_ps);
	unsigned int i, j;

	SIM_BUG_ON(!lines);
	if (n > coh_nr_lines(run->coh))
		n = coh_nr_lines(run->coh);
	coh_lines_sorted(run->coh, lines, n);
	for (i = 0; i < n; i++) {
		struct coh_line *l = lines[i];
		struct report_line rl = { 0 };
		size_t len = 0, olen;

		if (!l->ops[COH_READ] && !l->ops[COH_WRITE] && !l->ops[COH_RMW])
			break;
		snprintf(rl.name, sizeof(rl.name), "%s", l->name);
		/* the line's object, whose name may hold dots: memcg(/a.b) */
		olen = strstr(l->name, " line ") ?
			       (size_t)(strstr(l->name, " line ") - l->name) :
			       0;
		for (j = 0; j < l->nr_fields && len < sizeof(rl.fields) - 1;
		     j++) {
			const char *f = l->fields[j].name,
				   *dot = strchr(f, '.');

			if (olen && !strncmp(f, l->name, olen) &&
			    f[olen] == '.')
				f += olen + 1;
			else if (dot)
				f = dot + 1;
			len += (size_t)snprintf(rl.fields + len,
						sizeof(rl.fields) - len, "%s%s",
						j ? " " : "", f);
		}
		rl.reads = l->ops[COH_READ];
		rl.writes = l->ops[COH_WRITE];
		rl.rmws = l->ops[COH_RMW];
		rl.hits = l->hits;
		rl.misses = l->misses;
		rl.transfers = l->transfers;
		for (j = 1; j < NR_COH_DIST; j++)
			rl.xfer_by_dist[j - 1] = l->xfer_by_dist[j];
		rl.xfer_by_dist[4] = l->xfer_by_dist[NR_COH_DIST];
		if (l->xfer_to) {
			rl.nr_cpus = coh_nr_cpus(run->coh);
			if (rl.nr_cpus > REPORT_MAX_CPUS)
				rl.nr_cpus = REPORT_MAX_CPUS;
			for (j = 0; j < rl.nr_cpus; j++)
				rl.xfer_to_cpu[j] = l->xfer_to[j];
		}
		rl.wait_ns = (double)l->wait_ps / 1000.0;
		rl.busy_ns = (double)l->busy_ps / 1000.0;
		rl.utilisation = percent((double)l->busy_ps, secs_ps) / 100.0;
		report_line(r, variant, &rl);
	}
	free(lines);
}

/*
 * functions_report() - time by kernel function over every task of the
 * run (models/kernel/kprof.h), for the memcg workloads.
 */
static void functions_report(struct run *run, struct report *r, int variant)
{
	struct kprof_fn_stat sum[NR_KPROF_FNS];
	struct report_function rf;
	double total = 0;
	uint64_t ops = 0;
	unsigned int i, j, f;

	memset(sum, 0, sizeof(sum));
	for (i = 0; i < run->nr_workloads; i++) {
		for (j = 0; j < run->workloads[i].nr_tasks; j++) {
			const struct sim_task *t = &run->workloads[i].tasks[j];

			ops += t->ops;
			for (f = 0; f < NR_KPROF_FNS; f++) {
				sum[f].calls += t->prof.fn[f].calls;
				sum[f].self_ps += t->prof.fn[f].self_ps;
				sum[f].total_ps += t->prof.fn[f].total_ps;
			}
		}
	}
	for (f = 0; f < NR_KPROF_FNS; f++)
		total += (double)sum[f].self_ps;
	if (total <= 0)
		return;
	for (f = 0; f < NR_KPROF_FNS; f++) {
		if (!sum[f].self_ps && !sum[f].calls)
			continue;
		memset(&rf, 0, sizeof(rf));
		snprintf(rf.name, sizeof(rf.name), "%s", kprof_name(f));
		rf.self_pct = 100.0 * (double)sum[f].self_ps / total;
		rf.children_pct = 100.0 * (double)sum[f].total_ps / total;
		rf.calls_per_op = ops ? (double)sum[f].calls / (double)ops : 0;
		report_function(r, variant, &rf);
	}
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
	SIM_BUG_ON(!busy);
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
		      NULL);
	f = CO_PUSH(&run->kworker, memcg_stats_kworker);
	f->ms = run->memcg;
	f->cc = coh_cpu_attach(run->coh, (unsigned int)cpu, &run->kworker);
	f->end_ps = run->end_ps;
	sim_proc_start(&run->kworker, 0);
}

static void run_variant_once(struct variant *v, uint64_t seed,
			     const struct run_opts *o, bool first,
			     struct progress_ctx *pc, struct report *r,
			     int variant, struct run_result *res)
{
	struct run run = { 0 };
	unsigned int i, j;

	run.machine = v->machine;
	run.seed = seed;
	run.warmup_ps = v->warmup_ps;
	run.end_ps = v->warmup_ps + v->duration_ps;
	run.nr_workloads = v->nr_workloads;
	run.workloads = v->workloads;
	run.engine = sim_engine_create();
	SIM_BUG_ON(!run.engine);
	sim_stat_init(&run.lat);
	run.coh = coh_create(&v->machine, run.engine);
	run.kernel = &v->kernel;
	run.cgroups = &v->cgroups;
	for (i = 0; i < v->nr_workloads; i++)
		if (v->workloads[i].type->memcg && !run.memcg)
			run.memcg = memcg_sim_create(&v->kernel, &v->cgroups,
						     run.coh,
						     v->machine.nr_cpus);
	if (first && o->trace)
		coh_set_trace(run.coh, o->trace);
	for (i = 0; i < v->nr_workloads; i++) {
		struct workload *w = &v->workloads[i];

		for (j = 0; j < w->nr_tasks; j++) {
			struct sim_task *t = &w->tasks[j];

			sim_proc_init(&t->proc, run.engine, w->cpus[j],
				      PROC_STACK, t);
			t->cc = coh_cpu_attach(run.coh, w->cpus[j], &t->proc);
			t->w = w;
			t->index = j;
			t->rng = sim_rng_stream(seed, w->cpus[j]);
			memset(&t->prof, 0, sizeof(t->prof));
			t->cc->prof = &t->prof;
			/* explain names the function behind each access */
			t->cc->caller = o->callers ? kprof_caller : NULL;
		}
		w->type->setup(w, &run);
	}
	kworker_setup(&run);
	for (i = 0; i < v->nr_workloads; i++)
		for (j = 0; j < v->workloads[i].nr_tasks; j++)
			sim_proc_start(&v->workloads[i].tasks[j].proc, 0);
	if (o->progress) {
		pc->end = run.end_ps;
		sim_engine_set_progress(run.engine, 1 << 20, engine_progress,
					pc);
	}
	sim_engine_run(run.engine, run.warmup_ps);
	tasks_reset(&run);
	sim_engine_run(run.engine, run.end_ps);
	for (i = 0; i < v->nr_workloads; i++)
		for (j = 0; j < v->workloads[i].nr_tasks; j++)
			kprof_settle(&v->workloads[i].tasks[j].prof,
				     run.end_ps);
	coh_trace_flush(run.coh);
	run_collect(&run, res);
	if (r) {
		lines_report(&run, r, variant, o->hot_lines);
		if (run.memcg)
			functions_report(&run, r, variant);
		if (o->inspect)
			o->inspect(o->inspect_arg, v->name, &run);
	}
	for (i = 0; i < v->nr_workloads; i++) {
		for (j = 0; j < v->workloads[i].nr_tasks; j++) {
			struct sim_task *t = &v->workloads[i].tasks[j];

			gsl_rng_free(t->rng);
			sim_proc_destroy(&t->proc);
		}
	}
	if (run.kworker_cpu >= 0)
		sim_proc_destroy(&run.kworker);
	sim_stat_destroy(&run.lat);
	memcg_sim_free(run.memcg);
	coh_free(run.coh);
	sim_engine_free(run.engine);
}

/* ---- the scenario ---- */

static int check_variants(const struct scenario_node *base,
			  const struct scenario_node *vars,
			  const char **baseline, struct sim_error *err)
{
	const char *names[MAX_VARIANTS];
	size_t i, j, nr = vars ? scenario_len(vars) : 0;

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
	for (i = 0; i < nr; i++) {
		const struct scenario_node *vn = scenario_item(vars, i);
		const char *s;

		if (scenario_check_keys(vn, variant_keys,
					ARRAY_SIZE(variant_keys), err) ||
		    scenario_string(vn, "name", true, NULL, &names[i], err))
			return -1;
		if (!names[i][0] || strlen(names[i]) >= 64 ||
		    strspn(names[i],
			   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-") !=
			    strlen(names[i])) {
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
		if (scenario_string(vn, "description", false, "", &s, err))
			return -1;
	}
	/* A variant's own baseline names another variant. */
	for (i = 0; i < nr; i++) {
		const struct scenario_node *vn = scenario_item(vars, i);
		const char *vb;

		if (scenario_string(vn, "baseline", false, NULL, &vb, err))
			return -1;
		if (!vb)
			continue;
		for (j = 0; j < nr; j++)
			if (!strcmp(vb, names[j]))
				break;
		if (j == nr || j == i) {
			scenario_error(
				err, scenario_get(vn, "baseline"),
				"%s '%s'%s%s%s",
				j == i ?
					"a variant cannot be its own baseline:" :
					"no variant named",
				vb,
				j != i && sim_nearest(vb, names,
						      (unsigned int)nr) ?
					"; did you mean '" :
					"",
				j != i && sim_nearest(vb, names,
						      (unsigned int)nr) ?
					sim_nearest(vb, names,
						    (unsigned int)nr) :
					"",
				j != i && sim_nearest(vb, names,
						      (unsigned int)nr) ?
					"'?" :
					"");
			return -1;
		}
	}
	if (scenario_string(base, "baseline", false, NULL, baseline, err))
		return -1;
	if (*baseline) {
		for (i = 0; i < nr; i++)
			if (!strcmp(*baseline, names[i]))
				break;
		if (i == nr && strcmp(*baseline, "base")) {
			scenario_error(
				err, scenario_get(base, "baseline"),
				"no variant named '%s'%s%s%s", *baseline,
				sim_nearest(*baseline, names,
					    (unsigned int)nr) ?
					"; did you mean '" :
					"",
				sim_nearest(*baseline, names, (unsigned int)nr) ?:
					"",
				sim_nearest(*baseline, names,
					    (unsigned int)nr) ?
					"'?" :
					"");
			return -1;
		}
	}
	return 0;
}

static int check_published(const struct scenario_node *base,
			   const struct scenario_node *vars,
			   struct sim_error *err)
{
	const struct scenario_node *p = scenario_get(base, "published");
	const struct scenario_node *vals;
	const char *s;
	double d;
	size_t i, j;

	if (!p)
		return 0;
	if (scenario_check_keys(p, published_keys, ARRAY_SIZE(published_keys),
				err) ||
	    scenario_string(p, "source", true, NULL, &s, err) ||
	    scenario_string(p, "metric", false, "throughput", &s, err) ||
	    scenario_double(p, "tolerance_pp", false, 3.0, 0, 100, &d, err))
		return -1;
	vals = scenario_get(p, "values");
	if (!vals || scenario_kind(vals) != SCENARIO_MAP) {
		scenario_error(
			err, vals ? vals : p,
			"expected 'values': a map of variant names to measured values");
		return -1;
	}
	for (i = 0; i < scenario_len(vals); i++) {
		const char *name = scenario_key(vals, i);
		bool found = false;

		for (j = 0; vars && j < scenario_len(vars); j++) {
			const char *vname = scenario_scalar(
				scenario_get(scenario_item(vars, j), "name"));

			if (vname && !strcmp(vname, name))
				found = true;
		}
		if (!found) {
			scenario_error(err, scenario_item(vals, i),
				       "no variant named '%s'", name);
			return -1;
		}
		if (scenario_double(vals, name, true, 0, -1e300, 1e300, &d,
				    err))
			return -1;
	}
	return 0;
}

/*
 * record() - the metrics of @variant's replications; right after the
 * published metric, the published value when there is one (row
 * "published"), so the table shows both changes side by side.
 */
static void record(struct report *r, int variant, struct run_result *res,
		   unsigned int reps, const struct scenario_node *base,
		   const char *name)
{
	const struct scenario_node *pub = scenario_get(base, "published");
	const struct scenario_node *vals = scenario_get(pub, "values");
	const char *metric = NULL;
	unsigned int m, k;
	double x[1024], mean, half, pv;
	struct sim_error ignored;

	if (pub && scenario_string(pub, "metric", false, "throughput", &metric,
				   &ignored))
		metric = NULL;
	for (m = 0; m < res[0].nr; m++) {
		for (k = 0; k < reps; k++)
			x[k] = res[k].value[m];
		sim_ci95(x, reps, &mean, &half);
		report_metric(r, variant, res[0].name[m], res[0].unit[m], mean,
			      half, res[0].higher_is_better[m]);
		if (metric && !strcmp(metric, res[0].name[m]) && vals &&
		    scenario_get(vals, name) &&
		    !scenario_double(vals, name, false, 0, -1e300, 1e300, &pv,
				     &ignored))
			report_metric(r, variant, "published", res[0].unit[m],
				      pv, 0, res[0].higher_is_better[m]);
	}
}

int scenario_run(const char *path, const struct run_opts *o,
		 struct report **out, struct sim_error *err)
{
	struct scenario_node *base;
	const struct scenario_node *vars;
	struct run_result *res = NULL;
	struct variant *v = NULL;
	const char *baseline = NULL, *name, *desc;
	struct report *r = NULL;
	struct progress_ctx pc = { .o = o };
	size_t i, nr, selected = 0, done = 0;
	unsigned int k;
	uint64_t seed;
	int ret = -1;

	SIM_BUG_ON(o->replications < 1 || o->replications > 1024 ||
		   !o->datadir);
	base = scenario_load_file(path, err);
	if (!base)
		return -1;
	for (k = 0; k < o->nr_sets; k++)
		if (scenario_set_arg(base, o->sets[k], err))
			goto out_free;
	if (scenario_check_keys(base, top_keys, ARRAY_SIZE(top_keys), err))
		goto out_free;
	vars = scenario_get(base, "variants");
	if (check_variants(base, vars, &baseline, err) ||
	    check_published(base, vars, err) ||
	    scenario_string(base, "scenario", false, "unnamed", &name, err) ||
	    scenario_string(base, "description", false, "", &desc, err))
		goto out_free;
	nr = vars ? scenario_len(vars) : 1;
	v = calloc(nr, sizeof(*v));
	res = calloc(o->replications, sizeof(*res));
	SIM_BUG_ON(!v || !res);

	/* Check every variant before running any. */
	for (i = 0; i < nr; i++) {
		const struct scenario_node *vn = vars ? scenario_item(vars, i) :
							NULL;

		if (variant_load(&v[i], base, vn, o, err))
			goto out_variants;
		if (v[i].misfit) {
			/* skipped, unless it is the one asked for */
			if (o->variant && !strcmp(o->variant, v[i].name)) {
				scenario_error(
					err, v[i].misfit_at,
					"CPU %u is out of range: the machine has %u CPUs",
					v[i].misfit - 1, v[i].machine.nr_cpus);
				goto out_variants;
			}
			fprintf(stderr,
				"memcgsim: note: variant '%s' skipped: it runs CPU %u, and the machine given with --set has %u CPUs\n",
				v[i].name, v[i].misfit - 1,
				v[i].machine.nr_cpus);
			variant_destroy(&v[i]);
			continue;
		}
		if (!o->variant || !strcmp(o->variant, v[i].name))
			selected++;
	}
	if (!selected && !o->variant) {
		sim_error_set(
			err, "", 0, 0,
			"no variant of %s fits the machine given with --set",
			path);
		goto out_variants;
	}
	if (o->variant && !selected) {
		const char *names[MAX_VARIANTS];

		for (i = 0; i < nr; i++)
			names[i] = v[i].name;
		name = sim_nearest(o->variant, names, (unsigned int)nr);
		sim_error_set(err, "", 0, 0,
			      "--variant: no variant named '%s' in %s%s%s%s",
			      o->variant, path, name ? "; did you mean '" : "",
			      name ? name : "", name ? "'?" : "");
		goto out_variants;
	}
	if (o->check_only) {
		ret = 0;
		goto out_variants;
	}

	for (i = 0; !v[i].tree; i++) /* the first not skipped */
		;
	seed = v[i].seed;
	r = report_create(name, seed, o->replications);
	SIM_BUG_ON(!r);
	for (i = 0; i < nr; i++) {
		int col;

		if ((o->variant && strcmp(o->variant, v[i].name)) || !v[i].tree)
			continue;
		col = report_variant(r, v[i].name);
		if (vars) {
			const char *vb = NULL;

			if (!scenario_string(scenario_item(vars, i), "baseline",
					     false, NULL, &vb, err) &&
			    vb)
				report_variant_baseline(r, col, vb);
			sim_error_clear(err);
		}
		for (k = 0; k < o->replications; k++) {
			uint64_t s = k ? sim_seed_derive(v[i].seed, k) :
					 v[i].seed;

			if (k) {
				/* A fresh copy: workloads keep state. */
				variant_destroy(&v[i]);
				if (variant_load(&v[i], base,
						 vars ? scenario_item(vars, i) :
							NULL,
						 o, err))
					goto out_report;
			}

			memset(&res[k], 0, sizeof(res[k]));
			pc.share = 1.0 / (double)(selected * o->replications);
			pc.done = (double)done * pc.share;
			run_variant_once(&v[i], s, o, done == 0, &pc,
					 k ? NULL : r, col, &res[k]);
			done++;
		}
		record(r, col, res, o->replications, base, v[i].name);
	}
	report_set_baseline(r, baseline);
	*out = r;
	r = NULL;
	ret = 0;

out_report:
	report_free(r);
out_variants:
	for (i = 0; i < nr; i++)
		if (v[i].tree)
			variant_destroy(&v[i]);
	free(v);
	free(res);
out_free:
	scenario_free(base);
	return ret;
}
