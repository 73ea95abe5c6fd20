// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/run/limits.c - a loaded variant's cost, before it runs: the
 * inputs cmd/run/estimate.c needs, read off the variant, and the memory
 * limit that refuses a run too big to start (--max-memory).
 */
#define _DEFAULT_SOURCE /* sysconf(_SC_PHYS_PAGES) */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cmd/run/estimate.h"
#include "cmd/run/internal.h"
#include "sim/file.h"
#include "sim/util.h"

/* The number in the file @dir/@name ("max" or none: UINT64_MAX). */
static uint64_t read_limit(const char *dir, const char *name)
{
	char path[PATH_MAX + 64], buf[64], *end;
	unsigned long long v;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return UINT64_MAX;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (end == buf || errno || (*end && *end != '\n'))
		return UINT64_MAX;
	return v;
}

/* The smallest of @file's limits in @dir and every directory above it,
 * down to @top (which is included). */
static uint64_t path_limit(const char *top, const char *cgroup,
			   const char *file)
{
	char dir[PATH_MAX];
	uint64_t min = UINT64_MAX, v;
	size_t len;
	char *slash;

	if (snprintf(dir, sizeof(dir), "%s%s", top, cgroup) >= (int)sizeof(dir))
		return UINT64_MAX;
	len = strlen(top);
	for (;;) {
		v = read_limit(dir, file);
		if (v < min)
			min = v;
		slash = strrchr(dir, '/');
		if (!slash || (size_t)(slash - dir) < len)
			break;
		*slash = '\0';
	}
	return min;
}

uint64_t run_cgroup_memory_limit(const char *self_cgroup, const char *root)
{
	char top[PATH_MAX], line[PATH_MAX + 64], *ctrl, *path;
	uint64_t min = UINT64_MAX, v;
	const char *p = self_cgroup;

	while (*p) {
		size_t n = strcspn(p, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		p += n + (p[n] == '\n');
		ctrl = strchr(line, ':');
		path = ctrl ? strchr(ctrl + 1, ':') : NULL;
		if (!path || path[1] != '/')
			continue;
		*path++ = '\0';
		*ctrl++ = '\0';
		if (!strcmp(line, "0") && !*ctrl) {
			/* cgroup v2: the unified hierarchy's memory.max */
			v = path_limit(root, path, "memory.max");
		} else if (!strcmp(ctrl, "memory") ||
			   !strncmp(ctrl, "memory,", 7) ||
			   strstr(ctrl, ",memory")) {
			/* v1: the memory controller's own hierarchy */
			snprintf(top, sizeof(top), "%s/memory", root);
			v = path_limit(top, path, "memory.limit_in_bytes");
		} else {
			continue;
		}
		if (v < min)
			min = v;
	}
	return min;
}

/*
 * --max-memory's default (cmd/run/run.h): the smallest of half of this
 * machine's memory, its cgroup's memory limit, RLIMIT_AS and
 * RUN_DEFAULT_MAX_MEMORY. Inside a limited container, a run the estimate
 * admits would otherwise be OOM-killed instead of refused (issue 34,
 * item 8).
 */
uint64_t run_default_max_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	uint64_t min = RUN_DEFAULT_MAX_MEMORY, v;
	struct rlimit rl;
	char *self = NULL;
	size_t len;

	if (pages > 0 && size > 0) {
		v = (uint64_t)pages * (uint64_t)size / 2;
		if (v < min)
			min = v;
	}
	if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    (uint64_t)rl.rlim_cur < min)
		min = (uint64_t)rl.rlim_cur;
	if (!sim_read_file("/proc/self/cgroup", 1 << 16, &self, &len,
			   &(struct sim_error){ 0 })) {
		v = run_cgroup_memory_limit(self, "/sys/fs/cgroup");
		if (v < min)
			min = v;
		free(self);
	}
	return min;
}

uint64_t run__max_memory(const struct run_opts *o)
{
	return o->max_memory ? o->max_memory : run_default_max_memory();
}

/* The time @w spends per operation outside the memory system. */
static sim_time_t workload_self_ps(const struct workload *w,
				   const struct scenario_node *n)
{
	static const char *const names[] = { "work_ns", "think_ns" };
	struct sim_error ignored;
	unsigned int k, i;
	sim_time_t ps;

	for (k = 0; k < w->type->nr_keys; k++)
		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (!strcmp(w->type->keys[k].name, names[i]) &&
			    w->type->keys[k].type == SCENARIO_KEY_TIME &&
			    !scenario_key_get(n, &w->type->keys[k], &ps,
					      &ignored))
				return ps;
	return 0;
}

/* A U64 key of @w's type, by name, default included; @def if none. */
static uint64_t workload_u64(const struct workload *w,
			     const struct scenario_node *n, const char *name,
			     uint64_t def)
{
	struct sim_error ignored;
	unsigned int k;
	uint64_t val;

	for (k = 0; k < w->type->nr_keys; k++)
		if (!strcmp(w->type->keys[k].name, name) &&
		    w->type->keys[k].type == SCENARIO_KEY_U64 &&
		    !scenario_key_get(n, &w->type->keys[k], &val, &ignored))
			return val;
	return def;
}

/*
 * The lines every task of @w contends for with locked RMWs, for the
 * estimate: atomic_counter's shared counters (an RMW every `batch`
 * increments); false_sharing's one line when packed with rmw.
 */
static void workload_serial(const struct workload *w,
			    const struct scenario_node *n,
			    struct estimate_workload *ew)
{
	const struct scenario_node *ln = scenario_get(n, "layout");
	const struct scenario_node *on = scenario_get(n, "op");
	const char *layout = ln ? scenario_scalar(ln) : NULL;
	const char *op = on ? scenario_scalar(on) : NULL;

	ew->batch = 1;
	if (!strcmp(w->type->name, "atomic_counter")) {
		ew->serial_lines =
			(unsigned int)workload_u64(w, n, "counters", 1);
		ew->batch = (double)workload_u64(w, n, "batch", 1);
	} else if (!strcmp(w->type->name, "false_sharing") &&
		   (!layout || !strcmp(layout, "packed")) && op &&
		   !strcmp(op, "rmw")) {
		ew->serial_lines = 1;
	}
}

/*
 * A hand-off of a line the tasks of @w share: the transfer at the widest
 * distance between two of them (across sockets, the mean of the two
 * home cases: a line passed around keeps changing sockets, its home
 * does not); 0 for fewer than two tasks.
 */
static sim_time_t workload_handoff_ps(const struct machine *m,
				      const struct workload *w)
{
	enum coh_dist d, far = COH_DIST_SELF;
	unsigned int j;

	for (j = 1; j < w->nr_tasks; j++) {
		d = machine_dist(m, w->cpus[0], w->cpus[j]);
		if (d > far)
			far = d;
	}
	if (far == COH_DIST_SELF)
		return 0;
	if (far == COH_DIST_SOCKET)
		return (m->xfer_ps[COH_DIST_SOCKET] +
			m->xfer_socket_remote_home_ps) /
		       2;
	return m->xfer_ps[far];
}

/* Levels of @path below the root: "/" 0, "/a/b" 2. */
static unsigned int cgroup_depth(const char *path)
{
	unsigned int depth = 0;

	for (; *path; path++)
		if (*path == '/' && path[1])
			depth++;
	return depth;
}

/* The estimate of one run of the loaded variant @v (cmd/run/estimate.h). */
void run__variant_estimate(const struct variant *v, bool traced,
			   struct estimate *est)
{
	const struct scenario_node *list = scenario_get(v->tree, "workloads");
	struct estimate_input in = {
		.nr_cpus = v->machine.nr_cpus,
		.nr_nodes = v->machine.sockets,
		.nr_memcgs = v->cgroups.nr,
		.memcg_stat_items = v->kernel.memcg_stat_items,
		.memcg_event_items = v->kernel.memcg_event_items,
		.lruvec_stat_items = v->kernel.lruvec_stat_items,
		.local_aggregated = v->kernel.local_stats == LOCAL_AGGREGATED,
		.per_memcg_flush = v->kernel.stats_flush_threshold ==
				   FLUSH_PER_MEMCG,
		.run_ps = v->warmup_ps + v->duration_ps,
		/*
		 * skx-2s-72's xfer_llc, 48 ns, is where it is calibrated; a
		 * machine without one (one core an LLC) by its rmw_local,
		 * skx's 7 ns (before: a scale of 1, so 1 ps latencies were
		 * estimated as skx's, and their billions of operations as
		 * none; issue 34, item 2)
		 */
		.latency_scale =
			v->machine.xfer_ps[COH_DIST_LLC] ?
				(double)v->machine.xfer_ps[COH_DIST_LLC] /
					(48.0 * SIM_PS_PER_NS) :
				(double)v->machine.rmw_local_ps /
					(7.0 * SIM_PS_PER_NS),
		.trace = traced,
	};
	unsigned int i;

	for (i = 0; i < v->nr_workloads && i < ESTIMATE_MAX_WORKLOADS; i++) {
		const struct workload *w = &v->workloads[i];
		struct estimate_workload *ew = &in.w[in.nr_workloads++];

		ew->type = w->type->name;
		ew->nr_tasks = w->nr_tasks;
		ew->self_ps =
			workload_self_ps(w, scenario_item(list, w->index));
		ew->memcg = w->type->memcg;
		ew->depth = cgroup_depth(w->cgroup);
		workload_serial(w, scenario_item(list, w->index), ew);
		ew->repeat = 1;
		if (w->type->op_work)
			ew->op_units = w->type->op_work(w, &ew->repeat);
		if (w->type->op_shared_rmws && !ew->serial_lines) {
			double rmws = w->type->op_shared_rmws(w, &v->kernel);

			if (rmws > 0) {
				ew->serial_lines = 1;
				ew->batch = 1 / rmws;
			}
		}
		ew->serial_ps = workload_handoff_ps(&v->machine, w);
	}
	estimate_run(&in, est);
}

int run__check_outputs(const struct run_opts *o, struct sim_error *err)
{
	if (sim_output_check(o->outputs[0], err))
		return -1;
	return sim_output_check(o->outputs[1], err);
}

/*
 * Refuse @v when its estimated peak memory passes --max-memory: before
 * anything of its run is allocated, with what makes it big and the way
 * out.
 */
static int check_memory(const struct variant *v, const struct estimate *est,
			const struct run_opts *o, struct sim_error *err)
{
	uint64_t limit = run__max_memory(o);
	char need[32], lim[32];

	if (limit == UINT64_MAX || est->memory <= (double)limit)
		return 0;
	estimate_format_bytes(est->memory, need, sizeof(need));
	estimate_format_bytes((double)limit, lim, sizeof(lim));
	scenario_error(
		err, v->tree,
		"variant '%s': the run would take about %s of memory (%u CPUs, %u cgroups, %u+%u stats items per memcg), more than the limit of %s; raise it with --max-memory SIZE (0: no limit), or use fewer CPUs, cgroups or stats items",
		v->name, need, v->machine.nr_cpus, v->cgroups.nr,
		v->kernel.memcg_stat_items, v->kernel.memcg_event_items, lim);
	return -1;
}

/*
 * Refuse @v when its estimated cost passes --max-events: the larger of
 * its events and its work (struct run's units: operations, loop
 * iterations, pages charged), the two counts the limit bounds while it
 * runs (work_tick(), engine_progress()). The estimate is within the
 * factors tests/run-estimate.sh holds it to, so a run up to that much
 * cheaper can be refused here: the message says how to raise the limit.
 * Runs the estimate misses are still stopped as they run.
 */
static int check_work(const struct variant *v, const struct estimate *est,
		      const struct run_opts *o, struct sim_error *err)
{
	uint64_t limit = o->max_events ? o->max_events : RUN_DEFAULT_MAX_EVENTS;
	double cost = est->events > est->work ? est->events : est->work;
	char wall[32];

	if (limit == UINT64_MAX || cost <= (double)limit)
		return 0;
	estimate_format_seconds(est->wall_s, wall, sizeof(wall));
	scenario_error(
		err, v->tree,
		"variant '%s': the run is estimated at about %.2g events and %.2g units of work (operations, loop iterations, pages charged), more than the limit of %.2g; about %s on this machine; shorten duration_ms, lengthen the latencies, or raise the limit with --max-events N (0: no limit)",
		v->name, est->events, est->work, (double)limit, wall);
	return -1;
}

int run__check_limits(const struct variant *v, const struct estimate *est,
		      const struct run_opts *o, struct sim_error *err)
{
	return check_memory(v, est, o, err) || check_work(v, est, o, err) ? -1 :
									    0;
}

/*
 * The run's simulated memory passed --max-memory, or could not be
 * allocated: say so, with what makes it big and how to go on.
 */
void run__mem_error(const struct variant *v, const struct run *run,
		    uint64_t limit, struct sim_error *err)
{
	bool over = coh_failed(run->coh) == EFBIG;
	uint64_t b = over ? limit : coh_mem(run->coh);
	char size[32];

	if (b >= 1ull << 30)
		snprintf(size, sizeof(size), "%.1f GiB", (double)b / (1 << 30));
	else if (b >= 1ull << 20)
		snprintf(size, sizeof(size), "%.1f MiB", (double)b / (1 << 20));
	else
		snprintf(size, sizeof(size), "%.1f KiB", (double)b / (1 << 10));
	if (over)
		scenario_error(
			err, v->tree,
			"variant '%s': its simulated cache lines and objects (%u CPUs, %u cgroups) need more than the limit of %s; raise it with --max-memory SIZE (0: no limit), or use fewer CPUs, cgroups or stats items",
			v->name, v->machine.nr_cpus, v->cgroups.nr, size);
	else
		scenario_error(
			err, v->tree,
			"variant '%s': out of memory after %s of simulated cache lines and objects (%u CPUs, %u cgroups); use fewer CPUs, cgroups or stats items",
			v->name, size, v->machine.nr_cpus, v->cgroups.nr);
}

/* The run would pass --max-events: say how long it is, and the way out. */
void run__events_error(const struct variant *v, const struct progress_ctx *pc,
		       struct sim_error *err)
{
	/* A rough rate, not measured, so that the text is the same anywhere. */
	double secs = pc->estimate / RUN_EVENTS_PER_SECOND;
	char wall[40];

	if (!pc->at) {
		scenario_error(
			err, v->tree,
			"variant '%s': %llu %s and simulated time did not advance: the run would never end; lengthen the latencies or think times (--max-events N, 0: no limit)",
			v->name,
			(unsigned long long)(pc->work ? pc->work :
							sim_events(pc->e)),
			pc->work ?
				"operations and loop iterations ran without an event" :
				"events ran");
		return;
	}
	if (pc->work) {
		scenario_error(
			err, v->tree,
			"variant '%s': the run would do about %.2g operations and loop iterations (%.3g per simulated microsecond over %.3g ms, more than its %llu events), more than the limit of %.2g; shorten duration_ms, lengthen the latencies, or raise the limit with --max-events N (0: no limit)",
			v->name, pc->estimate,
			(double)pc->work / ((double)pc->at / SIM_PS_PER_US),
			(double)pc->end / SIM_PS_PER_MS,
			(unsigned long long)sim_events(pc->e),
			(double)pc->max_events);
		return;
	}

	if (secs < 10)
		snprintf(wall, sizeof(wall), "%.1f seconds", secs);
	else if (secs < 120)
		snprintf(wall, sizeof(wall), "%.0f seconds", secs);
	else if (secs < 7200)
		snprintf(wall, sizeof(wall), "%.0f minutes", secs / 60);
	else if (secs < 172800)
		snprintf(wall, sizeof(wall), "%.0f hours", secs / 3600);
	else
		snprintf(wall, sizeof(wall), "%.3g days", secs / 86400);
	scenario_error(
		err, v->tree,
		"variant '%s': the run would take about %.2g events (%.3g per simulated microsecond over %.3g ms), more than the limit of %.2g; about %s at some %.0f million events a second; shorten duration_ms, lengthen the latencies, or raise the limit with --max-events N (0: no limit)",
		v->name, pc->estimate,
		(double)sim_events(pc->e) / ((double)pc->at / SIM_PS_PER_US),
		(double)pc->end / SIM_PS_PER_MS, (double)pc->max_events, wall,
		RUN_EVENTS_PER_SECOND / 1e6);
}

/*
 * MEMCGSIM_COUNTS=1 in the environment: after each variant's first run,
 * a line on stderr with the engine events and the work (struct run's
 * units: operations, loop iterations, pages charged) it took, warm-up
 * included: what `memcgsim check` estimates, for tests/run-estimate.sh
 * to hold the estimate to. Results do not change.
 */
void run__counts_note(const struct variant *v, const struct run *run)
{
	const char *env = getenv("MEMCGSIM_COUNTS");
	char name[4 * sizeof(v->name)];

	if (!env || strcmp(env, "1"))
		return;
	fprintf(stderr,
		"memcgsim: counts: variant '%s': %llu events, %llu work\n",
		sim_escape(name, sizeof(name), v->name),
		(unsigned long long)sim_events(run->engine),
		(unsigned long long)run->work);
}
