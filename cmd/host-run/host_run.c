// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/host-run/host_run.c - `memcgsim host-run`: the plan (which variants
 * the host can reproduce, from the model's runs of them), the runs in
 * flipped order, and the table beside the model. See host_run.h.
 *
 * Layering: cmd/host-run/; uses cmd/run/ for the model's runs.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "cmd/host-run/host_run.h"
#include "cmd/host-run/internal.h"
#include "cmd/run/run.h"
#include "models/kernel/sim/kprof.h"
#include "sim/report.h"
#include "sim/util.h"

#define EXIT_RUN_FAILURE 1
#define EXIT_BAD_INPUT 2
#define MAX_WORKLOADS 16
#define MAX_EXTRA_SETS (MAX_WORKLOADS + 2)
#define MAX_SETS_HOST (256 + MAX_EXTRA_SETS + HOST_MAX_KERNEL_SETS)

volatile sig_atomic_t host_stop_signal;

/* One workload of a variant, as the model ran it. */
struct hv_workload {
	const struct workload_type *type;
	char cgroup[128];
	unsigned int nr_tasks;
	unsigned int *cpus;
	struct workload_host h;
	bool has_host;
};

/* One variant: the model's run of it, and what the host measured. */
struct host_variant {
	char name[96];
	char why[320]; /* "": the host reproduces it; else why not */
	bool captured; /* the model ran it */
	bool root; /* every workload in the root cgroup */
	bool added; /* the root run host-run added */
	struct kernel_config kernel;
	struct cgroup_tree tree;
	unsigned int nr_workloads;
	struct hv_workload w[MAX_WORKLOADS];
	double predicted; /* the model's throughput */
	bool have_pred;
	/* per repetition */
	double *ops_s, *cpu_ns;
	unsigned int nr_runs;
	/* the model's self time by function, % of its busy time */
	double model_pct[NR_KPROF_FNS];
	struct host_profile prof; /* perf's, of the first run */
	/* the tracepoints over the runs that counted them, and their ops */
	uint64_t tp[HOST_TP_NR], tp_ops;
	/* the model's calls of the same, per operation (-1: none) */
	double model_tp[HOST_TP_NR];
};

struct plan {
	struct host_variant v[HOST_MAX_VARIANTS + 1];
	unsigned int nr;
	struct host_variant *cur; /* the one the model is running */
	char perf[PATH_MAX]; /* perf's file name; "": no profiles */
	char perf_dir[PATH_MAX]; /* a private directory for its data */
	const char *version; /* the kernel.version preset picked */
	unsigned int cg_version; /* the host's memory hierarchy: 1 or 2 */
	/* the host's kernel: keys for the model (host_kernel_sets()) */
	char ksets[HOST_MAX_KERNEL_SETS][64];
	unsigned int nr_ksets;
	bool sctp_ok; /* the kernel offers SCTP sockets */
	char sctp_why[160];
	struct host_tp tp; /* the memcg tracepoints, when tracefs serves */
	unsigned int host_cpus;
	cpu_set_t allowed;
};

/* ---- the model's runs ---- */

/*
 * The model's self time by function of the first workload's tasks (the
 * ones host-run counts and profiles), in percent of their busy time
 * (waiting for a peer is no CPU time on the host).
 */
static void model_shares(struct host_variant *v, const struct run *run)
{
	double sum[NR_KPROF_FNS] = { 0 }, busy = 0;
	unsigned int j, f;

	if (!run->nr_workloads)
		return;
	for (j = 0; j < run->workloads[0].nr_tasks; j++)
		for (f = 0; f < NR_KPROF_FNS; f++)
			sum[f] += (double)run->workloads[0]
					  .tasks[j]
					  .prof.fn[f]
					  .self_ps;
	for (f = 0; f < NR_KPROF_FNS; f++)
		busy += f == KF_IDLE ? 0 : sum[f];
	for (f = 0; busy > 0 && f < NR_KPROF_FNS; f++)
		v->model_pct[f] = f == KF_IDLE ? 0 : 100.0 * sum[f] / busy;
}

/*
 * The model's function for each tracepoint the host counts: the kernel
 * fires memcg:mod_memcg_state in mod_memcg_state(), mod_memcg_lruvec_state
 * in the memcg part of mod_lruvec_state(), count_memcg_events in
 * count_memcg_events(), memcg_flush_stats in mem_cgroup_flush_stats()
 * on every call (a flush or not). The rstat lock's events have no
 * counterpart (the model's flush takes no per-CPU rstat lock): -1.
 */
static const int tp_model_fn[HOST_TP_NR] = {
	[HOST_TP_MOD_MEMCG_STATE] = KF_mod_memcg_state,
	[HOST_TP_MOD_LRUVEC] = KF_mod_lruvec_state,
	[HOST_TP_COUNT_EVENTS] = KF_count_memcg_events,
	[HOST_TP_FLUSH_STATS] = KF_mem_cgroup_flush_stats,
	[HOST_TP_RSTAT_LOCKED] = -1,
	[HOST_TP_RSTAT_CONTENDED] = -1,
};

/* The model's calls per operation of the first workload's tasks. */
static void model_tp_counts(struct host_variant *v, const struct run *run)
{
	const struct workload *w = &run->workloads[0];
	uint64_t ops = 0, calls[HOST_TP_NR] = { 0 };
	unsigned int j, e;

	for (j = 0; j < w->nr_tasks; j++) {
		ops += w->tasks[j].ops;
		for (e = 0; e < HOST_TP_NR; e++)
			if (tp_model_fn[e] >= 0)
				calls[e] +=
					w->tasks[j].prof.fn[tp_model_fn[e]].calls;
	}
	for (e = 0; e < HOST_TP_NR; e++)
		v->model_tp[e] = tp_model_fn[e] >= 0 && ops ?
					 (double)calls[e] / (double)ops :
					 -1;
}

/* run_opts.inspect: keep what the host needs of the variant's run. */
static void capture(void *arg, const char *name, struct run *run)
{
	struct plan *p = arg;
	struct host_variant *v = p->cur;
	unsigned int i;

	(void)name;
	if (!v || v->captured)
		return;
	v->captured = true;
	v->kernel = *run->kernel;
	v->tree.nr = run->cgroups->nr;
	v->tree.cg = calloc(run->cgroups->nr, sizeof(*v->tree.cg));
	SIM_OOM_ON(!v->tree.cg);
	memcpy(v->tree.cg, run->cgroups->cg,
	       run->cgroups->nr * sizeof(*v->tree.cg));
	model_shares(v, run);
	if (run->nr_workloads)
		model_tp_counts(v, run);
	v->nr_workloads = run->nr_workloads < MAX_WORKLOADS ?
				  run->nr_workloads :
				  MAX_WORKLOADS;
	v->root = true;
	for (i = 0; i < v->nr_workloads; i++) {
		const struct workload *w = &run->workloads[i];
		struct hv_workload *hw = &v->w[i];

		hw->type = w->type;
		snprintf(hw->cgroup, sizeof(hw->cgroup), "%s", w->cgroup);
		v->root &= !strcmp(w->cgroup, "/");
		hw->nr_tasks = w->nr_tasks;
		hw->cpus = calloc(w->nr_tasks, sizeof(*hw->cpus));
		hw->h.pair_task = calloc(w->nr_tasks, sizeof(unsigned int));
		hw->h.read = calloc(run->cgroups->nr, sizeof(unsigned int));
		SIM_OOM_ON(!hw->cpus || !hw->h.pair_task || !hw->h.read);
		memcpy(hw->cpus, w->cpus, w->nr_tasks * sizeof(*hw->cpus));
		if (!w->type->host) {
			snprintf(hw->h.why, sizeof(hw->h.why),
				 "workload type %s: no host program",
				 w->type->name);
			continue;
		}
		hw->has_host = !w->type->host(w, &hw->h);
	}
}

/* run_opts.estimate with check_only: the names of the variants. */
static void note_name(void *arg, const char *name, const struct estimate *e)
{
	struct plan *p = arg;

	(void)e;
	if (p->nr < HOST_MAX_VARIANTS)
		snprintf(p->v[p->nr++].name, sizeof(p->v[0].name), "%s", name);
}

/*
 * The `version:` preset of the running kernel (item 4 of issue 31): the
 * newest preset at or below it; NULL below v4.8.
 */
static const char *kernel_preset(const char *release)
{
	static const struct {
		unsigned int major, minor;
		const char *preset;
	} at[] = {
		{ 6, 9, "stable" }, { 6, 8, "v6.8" }, { 6, 6, "v6.6" },
		{ 6, 1, "v6.1" },   { 6, 0, "v6.0" }, { 4, 8, "v4.8" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(at); i++)
		if (host_release_at_least(release, at[i].major, at[i].minor))
			return at[i].preset;
	return NULL;
}

/*
 * Run the model on variant @v (its name, or @base's with every workload
 * moved to the root when @v->added). The sets: the host's kernel: keys
 * (its cgroup version, kmem accounting, swap accounting and, on v1,
 * kernel.tcpmem_active: host-run writes memory.kmem.tcp.limit_in_bytes,
 * so the model charges v1 TCP to tcpmem as the host does), but those the
 * user sets; the user's; then the machine and the kernel preset, then
 * the root's cgroups. A --set applies to the scenario's base, so a
 * variant's own kernel: keys still win and still differ.
 */
static int model_run(const struct host_run_opts *o, struct plan *p,
		     struct host_variant *v, const struct host_variant *base,
		     struct sim_error *err)
{
	const char *sets[MAX_SETS_HOST];
	char extra[MAX_EXTRA_SETS][200];
	struct run_opts ro = {
		.datadir = o->datadir,
		/* an added root run is always given its base */
		.variant = v->added && base ? base->name : v->name,
		.replications = 1,
		.inspect = capture,
		.inspect_arg = p,
	};
	unsigned int nr = 0, nx = 0, i;
	struct report *r = NULL;
	double tput;

	for (i = 0; i < p->nr_ksets; i++)
		sets[nr++] = p->ksets[i];
	for (i = 0; i < o->nr_sets && nr < MAX_SETS_HOST; i++)
		sets[nr++] = o->sets[i];
	if (o->machine)
		snprintf(extra[nx++], sizeof(extra[0]), "machine=%s",
			 o->machine);
	if (p->version)
		snprintf(extra[nx++], sizeof(extra[0]), "kernel.version=%s",
			 p->version);
	if (v->added)
		for (i = 0; i < base->nr_workloads && nx < MAX_EXTRA_SETS; i++)
			snprintf(extra[nx++], sizeof(extra[0]),
				 "workloads.%u.cgroup=/", i);
	for (i = 0; i < nx && nr < MAX_SETS_HOST; i++)
		sets[nr++] = extra[i];
	ro.sets = sets;
	ro.nr_sets = nr;
	p->cur = v;
	if (scenario_run(o->scenario, &ro, &r, err)) {
		p->cur = NULL;
		return -1;
	}
	p->cur = NULL;
	v->have_pred = report_get(r, ro.variant, "throughput", &tput);
	v->predicted = tput;
	report_free(r);
	return 0;
}

/*
 * The kernel: keys in which @a and @b differ, in @buf ("kernel.a,
 * kernel.b"); false when none does.
 */
static bool kernel_differs(const struct kernel_config *a,
			   const struct kernel_config *b, char *buf,
			   size_t size)
{
	const struct kernel_key *keys;
	unsigned int nr, i;
	size_t len = 0;

	buf[0] = '\0';
	keys = kernel_keys(&nr);
	for (i = 0; i < nr && len < size; i++) {
		if (keys[i].type == KEY_MAP || keys[i].type == KEY_FILE)
			continue;
		if (memcmp((const char *)a + keys[i].offset,
			   (const char *)b + keys[i].offset, keys[i].size))
			len += (size_t)snprintf(buf + len, size - len,
						"%skernel.%s", len ? ", " : "",
						keys[i].name);
	}
	return len > 0;
}

/*
 * TCP and SCTP sockets: on v1 charged only once memory.kmem.tcp's limit is
 * written (mem_cgroup_sk_alloc() checks tcpmem_active for every socket),
 * then to tcpmem; on v2 through try_charge_memcg.
 */
static bool inet_stream(enum workload_host_kind kind)
{
	return kind == WH_TCP_STREAM || kind == WH_SCTP_STREAM;
}

/*
 * Does this kernel offer SCTP? socket(IPPROTO_SCTP) fails with
 * EPROTONOSUPPORT when neither built in nor loaded (host-run does not
 * load modules); @why says so.
 */
static bool sctp_probe(char *why, size_t size)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_SCTP);

	if (fd >= 0) {
		close(fd);
		return true;
	}
	snprintf(
		why, size,
		"SCTP: this kernel offers none (socket(IPPROTO_SCTP): %s; modprobe sctp, where modules load)",
		strerror(errno));
	return false;
}

/* Can this host run @v as the model ran it? Sets @v->why when not. */
static void check_variant(const struct plan *p, const struct host_cgfs *fs,
			  struct host_variant *v,
			  const struct host_variant *ref)
{
	char keys[208];
	unsigned int i, j;
	bool tcp = false;

	if (!v->captured)
		return;
	if (kernel_differs(&v->kernel, &ref->kernel, keys, sizeof(keys))) {
		snprintf(
			v->why, sizeof(v->why),
			"%.200s: not as in %.40s: kernel design choices; the running kernel has its own",
			keys, ref->name);
		return;
	}
	for (i = 0; i < v->tree.nr; i++) {
		const struct cgroup_config *cg = &v->tree.cg[i];

		if (!host_cg_name_ok(cg->path, v->why, sizeof(v->why)))
			return;
		if (fs->version == 1 && i &&
		    (cg->min || cg->low || cg->high != UINT64_MAX)) {
			snprintf(
				v->why, sizeof(v->why),
				"memory.min, low or high on %s: cgroup v1 has no such limits",
				cg->path);
			return;
		}
	}
	for (i = 0; i < v->nr_workloads; i++) {
		const struct hv_workload *w = &v->w[i];

		if (!w->has_host) {
			snprintf(v->why, sizeof(v->why), "%s", w->h.why);
			return;
		}
		for (j = 0; j < w->nr_tasks; j++) {
			if (w->cpus[j] >= CPU_SETSIZE ||
			    !CPU_ISSET(w->cpus[j], &p->allowed)) {
				snprintf(
					v->why, sizeof(v->why),
					"needs CPU %u: host-run may use %u CPUs here (--set workloads.N.cpus= to fit)",
					w->cpus[j], p->host_cpus);
				return;
			}
		}
		tcp |= inet_stream(w->h.kind);
		if (w->h.kind == WH_SCTP_STREAM && !p->sctp_ok) {
			snprintf(v->why, sizeof(v->why), "%s", p->sctp_why);
			return;
		}
		if (w->h.kind == WH_STAT_READ && w->h.format &&
		    w->h.format != fs->version) {
			snprintf(
				v->why, sizeof(v->why),
				"memory.stat in cgroup v%u's format: this host's hierarchy is v%u",
				w->h.format, fs->version);
			return;
		}
	}
	if (tcp && v->kernel.cgroup_version != fs->version)
		snprintf(
			v->why, sizeof(v->why),
			"cgroup v%u socket charging on a v%u host (v1 charges TCP to memory.kmem.tcp, a separate unbatched counter; v2 through try_charge_memcg and the per-CPU stock)",
			v->kernel.cgroup_version, fs->version);
}

static void variant_free(struct host_variant *v)
{
	unsigned int i;

	for (i = 0; i < v->nr_workloads; i++) {
		free(v->w[i].cpus);
		free(v->w[i].h.pair_task);
		free(v->w[i].h.read);
	}
	free(v->tree.cg);
	host_profile_free(&v->prof);
	free(v->ops_s);
	free(v->cpu_ns);
}

/*
 * The plan: the variants (-v's, or the scenario's), each run once by the
 * model, the root run added when none is one, each checked.
 */
static int plan_make(const struct host_run_opts *o, struct plan *p,
		     const struct host_cgfs *fs, struct sim_error *err)
{
	struct host_variant *ref = NULL, *first = NULL;
	char line[SIM_ERROR_LINE_MAX];
	struct sim_error verr;
	unsigned int i;

	struct run_opts ro = {
		.datadir = o->datadir,
		.sets = o->sets,
		.nr_sets = o->nr_sets,
		.replications = 1,
		.check_only = true,
		.estimate = note_name,
		.estimate_arg = p,
	};

	/* Bad input (a -v that is no variant) fails here: exit 2. */
	if (!o->nr_variants && scenario_run(o->scenario, &ro, NULL, err))
		return -1;
	for (i = 0; i < o->nr_variants; i++) {
		ro.variant = o->variants[i];
		if (scenario_run(o->scenario, &ro, NULL, err))
			return -1;
	}
	for (i = 0; i < p->nr; i++) {
		struct host_variant *v = &p->v[i];

		sim_error_clear(&verr);
		if (model_run(o, p, v, NULL, &verr)) {
			sim_error_format(&verr, line, sizeof(line));
			snprintf(v->why, sizeof(v->why),
				 "the model cannot run it here: %.280s", line);
			continue;
		}
		if (!v->captured) {
			snprintf(
				v->why, sizeof(v->why),
				"the model skipped it: it runs CPUs the machine profile lacks");
			continue;
		}
		if (!ref)
			ref = v;
	}
	if (!ref) {
		sim_error_set(err, o->scenario, 0, 0,
			      "the model runs none of the variants");
		return -1;
	}
	for (i = 0; i < p->nr; i++)
		check_variant(p, fs, &p->v[i], ref);
	for (i = 0; i < p->nr; i++) {
		if (p->v[i].why[0])
			continue;
		if (p->v[i].root)
			return 0;
		if (!first)
			first = &p->v[i];
	}
	if (!first)
		return 0;
	/* The root run, ahead of the others: the baseline. */
	memmove(&p->v[1], &p->v[0], p->nr * sizeof(p->v[0]));
	first++;
	p->nr++;
	memset(&p->v[0], 0, sizeof(p->v[0]));
	snprintf(p->v[0].name, sizeof(p->v[0].name), "root");
	p->v[0].added = true;
	if (model_run(o, p, &p->v[0], first, err))
		return -1;
	check_variant(p, fs, &p->v[0], first);
	if (!p->v[0].why[0] && !p->v[0].root)
		snprintf(p->v[0].why, sizeof(p->v[0].why),
			 "%s sets its workloads' cgroup itself", first->name);
	return 0;
}

/* ---- the runs ---- */

/* The jobs of @v's run: a workload each, its cgroup's directory. */
static struct host_job *jobs_make(const struct host_cgfs *fs,
				  const struct host_variant *v)
{
	struct host_job *jobs = calloc(v->nr_workloads, sizeof(*jobs));
	unsigned int i, k;

	SIM_OOM_ON(!jobs);
	for (i = 0; i < v->nr_workloads; i++) {
		const struct hv_workload *w = &v->w[i];
		struct host_job *j = &jobs[i];

		j->h = w->h;
		j->nr_tasks = w->nr_tasks;
		j->cpus = w->cpus;
		/* the model's throughput is the first workload's */
		j->counted = !i;
		host_cg_dir(fs, w->cgroup, j->dir, sizeof(j->dir));
		if (!w->h.nr_read)
			continue;
		j->stat_files = calloc(w->h.nr_read, sizeof(*j->stat_files));
		SIM_OOM_ON(!j->stat_files);
		for (k = 0; k < w->h.nr_read; k++) {
			char dir[PATH_MAX];

			host_cg_dir(fs, v->tree.cg[w->h.read[k]].path, dir,
				    sizeof(dir));
			snprintf(j->stat_files[k], sizeof(j->stat_files[k]),
				 "%.*s/memory.stat", PATH_MAX - 16, dir);
		}
	}
	return jobs;
}

static void jobs_free(struct host_job *jobs, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		free(jobs[i].stat_files);
	free(jobs);
}

/* One run of @v: its tree built, the programs run, the tree removed. */
static int run_once(struct plan *p, struct host_cgfs *fs,
		    struct host_variant *v, double secs, struct sim_error *err)
{
	struct host_job *jobs = jobs_make(fs, v);
	char data[PATH_MAX + 32] = "";
	struct host_result res;
	struct sim_error err2;
	bool tcp = false;
	unsigned int i;
	int ret;

	for (i = 0; i < v->nr_workloads; i++)
		tcp |= inet_stream(v->w[i].h.kind);
	ret = host_cg_build(fs, &v->tree, tcp, err);
	/* perf's profile of the first run of each variant */
	if (p->perf[0] && !v->nr_runs)
		snprintf(data, sizeof(data), "%s/perf.data", p->perf_dir);
	if (!ret)
		ret = host_bench_run(jobs, v->nr_workloads, secs / 5, secs,
				     data[0] ? p->perf : NULL, data,
				     p->tp.ok ? &p->tp : NULL, &res, err);
	if (!ret && data[0]) {
		/* no profile is a note in the table, not a failure */
		if (host_profile_read(p->perf, data, res.pids, res.nr_pids,
				      &v->prof))
			host_profile_free(&v->prof);
		unlink(data);
	}
	sim_error_clear(&err2);
	if (host_cg_unbuild(fs, ret ? &err2 : err))
		ret = -1;
	jobs_free(jobs, v->nr_workloads);
	if (ret)
		return -1;
	if (!res.ops || res.secs <= 0) {
		sim_error_set(err, "", 0, 0,
			      "variant %s: no operation completed in %.2f s",
			      v->name, res.secs);
		return -1;
	}
	v->ops_s[v->nr_runs] = (double)res.ops / res.secs;
	v->cpu_ns[v->nr_runs] = res.cpu_ns / (double)res.ops;
	if (res.have_tp) {
		for (i = 0; i < HOST_TP_NR; i++)
			v->tp[i] += res.tp[i];
		v->tp_ops += res.ops;
	}
	v->nr_runs++;
	return 0;
}

/* Every repetition, the variants in order and then in reverse. */
static int run_all(const struct host_run_opts *o, struct plan *p,
		   struct host_cgfs *fs, unsigned int reps, double secs,
		   struct sim_error *err)
{
	unsigned int r, k, i, nr = 0, done = 0;

	for (i = 0; i < p->nr; i++) {
		if (p->v[i].why[0])
			continue;
		p->v[i].ops_s = calloc(reps, sizeof(double));
		p->v[i].cpu_ns = calloc(reps, sizeof(double));
		SIM_OOM_ON(!p->v[i].ops_s || !p->v[i].cpu_ns);
		nr++;
	}
	for (r = 0; r < reps; r++) {
		for (k = 0; k < p->nr; k++) {
			struct host_variant *v =
				&p->v[r % 2 ? p->nr - 1 - k : k];

			if (v->why[0])
				continue;
			if (!o->quiet)
				fprintf(stderr,
					"memcgsim: host-run %u/%u: %s, repetition %u\n",
					++done, nr * reps, v->name, r + 1);
			if (run_once(p, fs, v, secs, err))
				return -1;
		}
	}
	return 0;
}

/* ---- the table ---- */

/* Mean and 95% confidence half-width (Student's t) of @x[@n]. */
static void mean_ci(const double *x, unsigned int n, double *mean, double *ci)
{
	*mean = gsl_stats_mean(x, 1, n);
	*ci = n > 1 ? gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) *
			      gsl_stats_sd(x, 1, n) / sqrt((double)n) :
		      NAN;
}

/* The change of @x against @b, repetition by repetition, in percent. */
static void change_ci(const double *x, const double *b, unsigned int n,
		      double *mean, double *ci)
{
	double d[HOST_MAX_REPS];
	unsigned int i;

	for (i = 0; i < n; i++)
		d[i] = 100.0 * (x[i] / b[i] - 1.0);
	mean_ci(d, n, mean, ci);
}

static unsigned int tasks_of(const struct host_variant *v)
{
	return v->nr_workloads ? v->w[0].nr_tasks : 0;
}

/* "+12.3% [+1.0, +23.6]" or "+12.3%" with one repetition. */
static void fmt_change(char *buf, size_t size, double m, double ci)
{
	if (isnan(ci))
		snprintf(buf, size, "%+.1f%%", m);
	else
		snprintf(buf, size, "%+.1f%% [%+.1f, %+.1f]", m, m - ci,
			 m + ci);
}

/*
 * The model's change of CPU time per operation of @v against @base, in
 * percent: its tasks never idle, so CPU time per operation is its tasks
 * over its throughput. False without a prediction.
 */
static bool predicted_change(const struct host_run_opts *o,
			     const struct host_variant *v,
			     const struct host_variant *base, double *pred)
{
	if (!o->predict || !v->have_pred || !base->have_pred ||
	    !(v->predicted > 0) || !tasks_of(base))
		return false;
	*pred = 100.0 * (base->predicted / v->predicted * (double)tasks_of(v) /
				 (double)tasks_of(base) -
			 1.0);
	return true;
}

/* The baseline: a root variant the host ran, else the first it ran. */
static const struct host_variant *baseline(const struct plan *p)
{
	unsigned int i;

	for (i = 0; i < p->nr; i++)
		if (!p->v[i].why[0] && p->v[i].root && p->v[i].nr_runs)
			return &p->v[i];
	for (i = 0; i < p->nr; i++)
		if (!p->v[i].why[0] && p->v[i].nr_runs)
			return &p->v[i];
	return NULL;
}

/* "123 +- 4", or "123" with one repetition. */
static void fmt_mean(char *buf, size_t size, const double *x, unsigned int n)
{
	double m, ci;

	mean_ci(x, n, &m, &ci);
	if (isnan(ci))
		snprintf(buf, size, "%.0f", m);
	else
		snprintf(buf, size, "%.0f +- %.0f", m, ci);
}

/* What each variant measured. */
static void print_measured(const struct plan *p)
{
	char a[48], b[48], shown[160];
	unsigned int i;

	printf("\n%-14s %-18s %20s %22s\n", "variant", "cgroup",
	       "ops/s (95% CI)", "CPU ns/op (95% CI)");
	for (i = 0; i < p->nr; i++) {
		const struct host_variant *v = &p->v[i];

		if (v->why[0] || !v->nr_runs)
			continue;
		fmt_mean(a, sizeof(a), v->ops_s, v->nr_runs);
		fmt_mean(b, sizeof(b), v->cpu_ns, v->nr_runs);
		printf("%-14.14s %-18.18s %20s %22s\n", v->name,
		       sim_escape(shown, sizeof(shown), v->w[0].cgroup), a, b);
	}
}

/*
 * The change of @v's CPU time per operation against @base's, paired by
 * repetition; false for the baseline and a variant not run.
 */
static bool cpu_change(const struct host_variant *v,
		       const struct host_variant *base, double *m, double *ci)
{
	if (v->why[0] || v == base || !v->nr_runs)
		return false;
	change_ci(v->cpu_ns, base->cpu_ns,
		  v->nr_runs < base->nr_runs ? v->nr_runs : base->nr_runs, m,
		  ci);
	return true;
}

/* Each variant's changes against @base, and the model's, in a row. */
static void print_changes(const struct host_run_opts *o, const struct plan *p,
			  const struct host_variant *base)
{
	char ch[64], c2[64];
	double m, ci, m2, ci2, pred;
	unsigned int i, n;

	printf("\nagainst %s, repetition by repetition (95%% CI)%s:\n",
	       base->name, o->predict ? ", beside the model" : "");
	printf("%-14s %-27s %-27s%s\n", "variant", "CPU time/op change",
	       "ops/s change", o->predict ? " model  diff" : "");
	for (i = 0; i < p->nr; i++) {
		const struct host_variant *v = &p->v[i];

		if (!cpu_change(v, base, &m, &ci))
			continue;
		n = v->nr_runs < base->nr_runs ? v->nr_runs : base->nr_runs;
		change_ci(v->ops_s, base->ops_s, n, &m2, &ci2);
		fmt_change(ch, sizeof(ch), m, ci);
		fmt_change(c2, sizeof(c2), m2, ci2);
		printf("%-14.14s %-27s %-27s", v->name, ch, c2);
		if (predicted_change(o, v, base, &pred))
			printf(" %+5.1f%% %+5.1fpp", pred, m - pred);
		printf("\n");
	}
}

/* The same in words: within noise or not, a miss or not. */
static void print_verdicts(const struct host_run_opts *o, const struct plan *p,
			   const struct host_variant *base)
{
	double m, ci, pred;
	unsigned int i;

	printf("\n");
	for (i = 0; i < p->nr; i++) {
		const struct host_variant *v = &p->v[i];

		if (!cpu_change(v, base, &m, &ci))
			continue;
		printf("%s: CPU time per operation %+.1f%% against %s", v->name,
		       m, base->name);
		if (isnan(ci))
			printf(" (one repetition: no interval)");
		else
			printf(" (95%% CI %+.1f to %+.1f): %s", m - ci, m + ci,
			       fabs(m) <= ci ? "within noise" :
					       "a measured change");
		if (predicted_change(o, v, base, &pred))
			printf("; the model predicts %+.1f%% (ops/s %+.1f%%): %s",
			       pred,
			       100.0 * (v->predicted / base->predicted - 1.0),
			       isnan(ci) ?
				       "no interval to judge it by" :
			       fabs(pred - m) <= ci ?
				       "inside the measured interval" :
				       "a miss, outside the measured interval");
		printf("\n");
	}
}

/* Is @f one of the model's memcg functions (not work, idle or shmem)? */
static bool model_memcg_fn(unsigned int f)
{
	return f >= KF_try_charge_memcg && f != KF_shmem_get_folio_gfp &&
	       f != KF_shmem_add_to_page_cache && f != KF_shmem_undo_range;
}

/*
 * perf's profile of each variant's first run beside the model's time by
 * function: every memcg symbol together (by name, host_memcg_symbol()),
 * then each function the model names that either side spent 0.05% in.
 */
static void print_profiles(const struct host_run_opts *o, const struct plan *p)
{
	double host, model;
	unsigned int i, f;

	if (!p->perf[0]) {
		printf("\nprofiles: %s\n",
		       o->no_profile ? "none (--no-profile)" :
				       "none: perf is not installed");
		return;
	}
	printf("\nprofiles: perf cpu-clock of each variant's first run (its counted tasks), self time beside the model's, %% of CPU time:\n");
	printf("%-14s %-32s %8s %8s\n", "variant", "function", "host",
	       o->predict ? "model" : "");
	for (i = 0; i < p->nr; i++) {
		const struct host_variant *v = &p->v[i];

		if (v->why[0] || !v->nr_runs)
			continue;
		if (!v->prof.nr) {
			printf("%-14.14s (perf recorded nothing)\n", v->name);
			continue;
		}
		for (f = model = 0; f < NR_KPROF_FNS; f++)
			model += model_memcg_fn(f) ? v->model_pct[f] : 0;
		printf("%-14.14s %-32s %7.1f%% ", v->name, "memcg functions",
		       host_profile_memcg(&v->prof));
		if (o->predict)
			printf("%7.1f%%", model);
		printf("\n");
		for (f = 0; f < NR_KPROF_FNS; f++) {
			if (!model_memcg_fn(f))
				continue;
			host = host_profile_sym(&v->prof, kprof_name(f));
			model = o->predict ? v->model_pct[f] : 0;
			if (host < 0.05 && model < 0.05)
				continue;
			printf("%-14s %-32.32s %7.1f%% ", "", kprof_name(f),
			       host);
			if (o->predict)
				printf("%7.1f%%", model);
			printf("\n");
		}
	}
}

/*
 * The tracepoints counted in each variant's runs, per operation, beside
 * the model's calls of the same functions; or why there are none.
 */
static void print_tracepoints(const struct host_run_opts *o,
			      const struct plan *p)
{
	unsigned int i, e;

	if (!p->tp.ok) {
		printf("\ntracepoints: none: %s\n", p->tp.why);
		return;
	}
	printf("\ntracepoints: per operation in the counted tasks over the measured windows (perf_event_open counting, tracefs at %s%s), beside the model's calls:\n",
	       p->tp.mount, p->tp.mounted ? ", mounted by host-run" : "");
	printf("%-14s %-36s %10s %10s\n", "variant", "event", "host",
	       o->predict ? "model" : "");
	for (i = 0; i < p->nr; i++) {
		const struct host_variant *v = &p->v[i];
		bool first = true;

		if (v->why[0] || !v->nr_runs)
			continue;
		if (!v->tp_ops) {
			printf("%-14.14s (no run counted them)\n", v->name);
			continue;
		}
		for (e = 0; e < HOST_TP_NR; e++) {
			if (p->tp.id[e] < 0)
				continue;
			printf("%-14.14s %-36s %10.3f ", first ? v->name : "",
			       host_tp_names[e],
			       (double)v->tp[e] / (double)v->tp_ops);
			first = false;
			if (o->predict && v->model_tp[e] >= 0)
				printf("%10.3f", v->model_tp[e]);
			else if (o->predict)
				printf("%10s", "-");
			printf("\n");
		}
	}
}

/* Did host-run give the model @set (a --set of the user's replaced it)? */
static bool sets_has(const struct plan *p, const char *set)
{
	unsigned int i;

	for (i = 0; i < p->nr_ksets; i++)
		if (!strcmp(p->ksets[i], set))
			return true;
	return false;
}

/* The host's kernel: keys, "kernel.a=1, kernel.b=x" (none: ""). */
static const char *ksets_join(const struct plan *p, char *buf, size_t size)
{
	size_t len = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < p->nr_ksets && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					i ? ", " : "", p->ksets[i]);
	return buf;
}

/* The provenance line of the keys host-run set for the model. */
static void print_ksets(const struct plan *p)
{
	char buf[HOST_MAX_KERNEL_SETS * 66];

	if (p->nr_ksets)
		printf("model: this host's kernel paths, set by host-run (a --set of yours wins): %s\n",
		       ksets_join(p, buf, sizeof(buf)));
}

static void print_table(const struct host_run_opts *o, const struct plan *p,
			const struct host_cgfs *fs, const char *release,
			unsigned int reps, double secs)
{
	const struct host_variant *base = baseline(p);
	char shown[PATH_MAX];
	unsigned int i, n;

	printf("memcgsim host-run %s\n",
	       sim_escape(shown, sizeof(shown), o->scenario));
	printf("host: Linux %s, cgroup v%u memory controller at %s, %u CPUs\n",
	       release, fs->version,
	       sim_escape(shown, sizeof(shown), fs->mount), p->host_cpus);
	print_ksets(p);
	printf("runs: %u repetitions of %.2f s (after %.2f s of warm-up), the variants in flipped order every other repetition\n",
	       reps, secs, secs / 5);
	if (p->nr && p->v[0].added && !p->v[0].why[0])
		printf("root: %s with every workload in the root cgroup, added by host-run\n",
		       p->v[1].name);
	print_measured(p);
	for (i = n = 0; i < p->nr; i++)
		n += !p->v[i].why[0] && p->v[i].nr_runs;
	if (base && n > 1) {
		print_changes(o, p, base);
		print_verdicts(o, p, base);
	}
	print_profiles(o, p);
	print_tracepoints(o, p);
	for (i = n = 0; i < p->nr; i++) {
		if (!p->v[i].why[0])
			continue;
		if (!n++)
			printf("\nnot reproduced on this host:\n");
		printf("  %s: %s\n", p->v[i].name,
		       sim_escape(shown, sizeof(shown), p->v[i].why));
	}
	printf("\nnotes:\n");
	printf("  - CPU time per operation is the counted tasks' CPU time (CLOCK_THREAD_CPUTIME_ID) over their operations; ops/s is wall-clock and moves with every other load on this host: read CPU time first.\n");
	printf("  - the scenario's cgroups are made below %s%ld, one level deeper than the scenario names them; root is the hierarchy's root.\n",
	       HOST_DIR_PREFIX, (long)getpid());
	if (o->predict)
		printf("  - the model ran on %s, with kernel.version=%s (the running kernel's preset).\n",
		       o->machine ? o->machine : "the scenario's machine",
		       p->version ? p->version : "none");
	else
		printf("  - no prediction: give --machine PROFILE (memcgsim calibrate -o PROFILE) or --predict.\n");
	printf("  - a host symbol counts as memcg when its name holds memcg, mem_cgroup, page_counter, obj_cgroup, objcg, consume_stock, refill_stock, drain_stock or rstat; an inlined function's time is its caller's.\n");
	if (p->tp.ok)
		printf("  - a tracepoint is counted in the counted tasks' own context: the periodic flusher's work (a kworker) is in neither column; the model's column is its calls of the function that fires the event.\n");
	if (fs->version == 1 && !sets_has(p, "kernel.tcpmem_active=true"))
		printf("  - your --set of kernel.tcpmem_active stands: host-run writes memory.kmem.tcp.limit_in_bytes in every memcg of a TCP run all the same.\n");
	else if (fs->version == 1)
		printf("  - on this v1 host the model ran with kernel.tcpmem_active=true: a TCP socket is charged to the unbatched tcpmem counter, as after host-run's write of memory.kmem.tcp.limit_in_bytes.\n");
}

/* ---- the command ---- */

/* A private directory for perf's data; without one, no profiles. */
static void perf_dir_make(struct plan *p)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(p->perf_dir, sizeof(p->perf_dir), "%.*s/memcgsim-perf.XXXXXX",
		 PATH_MAX - 32, tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(p->perf_dir))
		p->perf[0] = p->perf_dir[0] = '\0';
}

static void perf_dir_remove(struct plan *p)
{
	char data[PATH_MAX + 32];

	if (!p->perf_dir[0])
		return;
	snprintf(data, sizeof(data), "%s/perf.data", p->perf_dir);
	unlink(data);
	snprintf(data, sizeof(data), "%s/perf.data.old", p->perf_dir);
	unlink(data);
	rmdir(p->perf_dir);
	p->perf_dir[0] = '\0';
}

static void on_signal(int sig)
{
	host_stop_signal = sig;
}

int host_run(const struct host_run_opts *o)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal }, old[3];
	unsigned int reps = o->reps ? o->reps : HOST_DEFAULT_REPS, i;
	double secs = o->secs > 0 ? o->secs : HOST_DEFAULT_SECS;
	struct plan *p = calloc(1, sizeof(*p));
	struct host_cgfs fs;
	struct sim_error err, err2;
	struct utsname u;
	int ret = EXIT_RUN_FAILURE;
	char kbuf[HOST_MAX_KERNEL_SETS * 66];
	const char *root;

	SIM_OOM_ON(!p);
	sim_error_clear(&err);
	host_stop_signal = 0;
	uname(&u);
	p->version = kernel_preset(u.release);
	CPU_ZERO(&p->allowed);
	if (sched_getaffinity(0, sizeof(p->allowed), &p->allowed)) {
		sim_error_set(&err, "", 0, 0, "sched_getaffinity: %s",
			      strerror(errno));
		goto fail;
	}
	p->host_cpus = (unsigned int)CPU_COUNT(&p->allowed);
	/* MEMCGSIM_HOST_ROOT: a fake root, for tests (internal.h) */
	root = getenv("MEMCGSIM_HOST_ROOT");
	if (host_cg_detect(&fs, root ? root : "", &err))
		goto fail;
	p->cg_version = fs.version;
	p->sctp_ok = sctp_probe(p->sctp_why, sizeof(p->sctp_why));
	p->nr_ksets =
		host_kernel_sets(&fs, u.release, o->sets, o->nr_sets, p->ksets);
	if (p->nr_ksets && !o->quiet)
		fprintf(stderr,
			"memcgsim: host-run: the memory controller is on cgroup v%u here: the model runs this host's paths with %s (a --set of yours wins)\n",
			fs.version, ksets_join(p, kbuf, sizeof(kbuf)));
	if (plan_make(o, p, &fs, &err)) {
		ret = EXIT_BAD_INPUT;
		goto fail;
	}
	for (i = 0; i < ARRAY_SIZE(sigs); i++) {
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, &old[i]);
	}
	if (!o->no_profile && host_perf_find(p->perf, sizeof(p->perf)))
		perf_dir_make(p);
	host_cg_sweep_stale(&fs);
	/* no tracepoints is a note in the table (p->tp.why), not a failure */
	if (fs.root[0])
		snprintf(p->tp.why, sizeof(p->tp.why),
			 "a fake root (MEMCGSIM_HOST_ROOT), for tests");
	else
		host_tp_open(&p->tp);
	if (!host_cg_open(&fs, &err) && !run_all(o, p, &fs, reps, secs, &err))
		ret = EXIT_SUCCESS;
	host_tp_close(&p->tp);
	sim_error_clear(&err2);
	if (host_cg_close(&fs, ret ? &err2 : &err))
		ret = EXIT_RUN_FAILURE;
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &old[i], NULL);
	perf_dir_remove(p);
	if (host_stop_signal) {
		fprintf(stderr,
			"memcgsim: host-run: stopped by signal %d; every process ended, every cgroup removed\n",
			(int)host_stop_signal);
		ret = 128 + host_stop_signal;
		goto out;
	}
	if (ret)
		goto fail;
	print_table(o, p, &fs, u.release, reps, secs);
	if (fflush(stdout)) {
		perror("memcgsim: stdout");
		ret = EXIT_RUN_FAILURE;
	}
	goto out;
fail:
	sim_error_print(stderr, &err);
out:
	for (i = 0; i < p->nr; i++)
		variant_free(&p->v[i]);
	free(p);
	return ret;
}
