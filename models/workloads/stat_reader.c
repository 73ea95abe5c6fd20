// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/workloads/stat_reader.c - the stat_reader workload: a monitoring agent
 * that reads memory.stat of a set of memcgs, one after another, pass
 * after pass.
 *
 * Theory of operation: each task (one per CPU of `cpus`) loops over the
 * memcgs of `read` in order; each read is one operation: `work_ns` of
 * work outside the memcg code (open/read/close, seq_file and formatting
 * the lines: the one calibratable quantity), then memory_stat_show() in
 * the `format` of cgroup v1 or v2 (models/kernel/mm/memcontrol.c: the flush the
 * kernel does first, then every counter the file prints). After a pass
 * over the set the task waits `pass_interval_us` (0: at once) and the
 * pass time goes into stat_pass_time_mean.
 *
 * `read` is a list of cgroup paths; "/top/ *" (written without the
 * space) means every cgroup directly under /top, in the order of
 * `cgroups:`. The default is every cgroup but the root.
 *
 * `flush: ratelimited` replaces memory.stat's own flush by
 * mem_cgroup_flush_stats_ratelimited(), the flush of the kernel's
 * in-kernel readers (workingset refault, reclaim), to show what such a
 * reader sees.
 *
 * Layering: models/ module; a workload (models/workloads/workload.h).
 */
#include <stdlib.h>
#include <string.h>

#include "models/kernel/drivers/cpuidle/menu.h"
#include "models/kernel/mm/memcontrol.h"
#include "models/workloads/workload.h"
#include "sim/co.h"
#include "sim/error.h"
#include "sim/util.h"

static const char *const flush_names[] = { "threshold", "ratelimited" };

struct stat_reader {
	unsigned int format; /* 1 or 2; 0: the cgroup version */
	bool ratelimited;
	sim_time_t work_ps, interval_ps;
	/* each CPU's cpuidle device (menu.h), or NULL: a free wake-up */
	struct cpuidle_device *idle;
	unsigned int nr; /* memcgs read per pass */
	unsigned int *ids; /* [nr] indexes in the cgroup tree */
	struct mem_cgroup **memcgs; /* [nr], at setup */
	struct run *run;
};

/* The keys, in the order `unknown key` suggestions prefer them. */
enum { SR_READ, SR_FORMAT, SR_WORK_NS, SR_PASS_INTERVAL_US, SR_FLUSH };

static const struct scenario_key stat_reader_keys[] = {
	[SR_READ] = {
		.name = "read",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "cgroup paths",
		.def_doc = "every cgroup but the root",
		.doc = "The cgroups whose memory.stat a pass reads: a path, or a list of them; X/* is every child of X",
	},
	[SR_FORMAT] = {
		.name = "format",
		.type = SCENARIO_KEY_U64,
		SCENARIO_KEY_MEMBER(struct stat_reader, format),
		.min = 1,
		.max = 2,
		.def = 0,
		.def_doc = "the cgroup version",
		.doc = "Which memory.stat is read: 1 (the v1 file) or 2",
	},
	[SR_WORK_NS] = {
		.name = "work_ns",
		.type = SCENARIO_KEY_TIME,
		SCENARIO_KEY_MEMBER(struct stat_reader, work_ps),
		.unit_ps = SIM_PS_PER_NS,
		.min = 0,
		.max = SIM_PS_PER_MS,
		.def = 0,
		.doc = "The work of each read outside the memcg code and the printing of its lines, whose instructions the model charges (the open/read/close syscalls)",
	},
	[SR_PASS_INTERVAL_US] = {
		.name = "pass_interval_us",
		.type = SCENARIO_KEY_TIME,
		SCENARIO_KEY_MEMBER(struct stat_reader, interval_ps),
		.unit_ps = SIM_PS_PER_US,
		.min = 0,
		.max = 1000 * SIM_PS_PER_MS,
		.def = 0,
		.doc = "The wait after a pass over the set (0: at once)",
	},
	[SR_FLUSH] = {
		.name = "flush",
		.type = SCENARIO_KEY_ENUM,
		/* SIM: stored as a bool, ratelimited is index 1 */
		SCENARIO_KEY_MEMBER(struct stat_reader, ratelimited),
		SCENARIO_KEY_NAMES(flush_names),
		.def = 0,
		.doc = "threshold (memory.stat's own flush) or ratelimited (mem_cgroup_flush_stats_ratelimited(), the flush of the in-kernel readers: workingset refault, reclaim)",
	},
};

/* Add @path, or every child of "X" for "X/ *", to the set. */
static int reader_add(struct stat_reader *sr, const struct cgroup_tree *t,
		      const struct scenario_node *n, const char *path,
		      struct sim_error *err)
{
	size_t len = strlen(path);
	unsigned int i, added = 0;
	int parent, id;
	char dir[128];

	if (len >= 2 && !strcmp(path + len - 2, "/*")) {
		if (len - 2 >= sizeof(dir)) {
			scenario_error(err, n, "cgroup path too long: '%s'",
				       path);
			return -1;
		}
		memcpy(dir, path, len - 2);
		dir[len - 2] = '\0';
		parent = cgroup_find(t, len == 2 ? "/" : dir);
		if (parent < 0) {
			scenario_error(err, n, "no cgroup '%s' in 'cgroups'",
				       len == 2 ? "/" : dir);
			return -1;
		}
		for (i = 0; i < t->nr; i++)
			if (t->cg[i].parent == parent) {
				sr->ids[sr->nr++] = i;
				added++;
			}
		if (!added) {
			scenario_error(err, n, "cgroup '%s' has no children",
				       len == 2 ? "/" : dir);
			return -1;
		}
		return 0;
	}
	id = cgroup_find(t, path);
	if (id < 0) {
		scenario_error(err, n, "no cgroup '%s' in 'cgroups'", path);
		return -1;
	}
	sr->ids[sr->nr++] = (unsigned int)id;
	return 0;
}

static int stat_reader_parse(struct workload *w, const struct scenario_node *n,
			     const struct machine *m, struct sim_error *err)
{
	const struct cgroup_tree *t = w->cgroups;
	const struct scenario_node *read = scenario_get(n, "read");
	struct stat_reader *sr = calloc(1, sizeof(*sr));
	unsigned int i;

	(void)m;
	SIM_OOM_ON(!sr);
	w->priv = sr;
	sr->ids = calloc((size_t)t->nr * (read ? scenario_len(read) + 1 : 1),
			 sizeof(*sr->ids));
	SIM_OOM_ON(!sr->ids);
	/* SIM: read in this order (read last: it needs the others) */
	if (scenario_key_load(n, &stat_reader_keys[SR_FORMAT], sr, w, err) ||
	    scenario_key_load(n, &stat_reader_keys[SR_FLUSH], sr, w, err) ||
	    scenario_key_load(n, &stat_reader_keys[SR_WORK_NS], sr, w, err) ||
	    scenario_key_load(n, &stat_reader_keys[SR_PASS_INTERVAL_US], sr, w,
			      err))
		return -1;
	if (!read) {
		for (i = 1; i < t->nr; i++)
			sr->ids[sr->nr++] = i;
		if (!sr->nr) {
			scenario_error(
				err, n,
				"stat_reader: 'cgroups' lists no cgroup to read; give 'read' or list cgroups");
			return -1;
		}
		return 0;
	}
	if (scenario_kind(read) == SCENARIO_SCALAR)
		return reader_add(sr, t, read, scenario_scalar(read), err);
	if (scenario_kind(read) != SCENARIO_SEQ || !scenario_len(read)) {
		scenario_error(err, read,
			       "expected a cgroup path or a list of them");
		return -1;
	}
	for (i = 0; i < scenario_len(read); i++) {
		const struct scenario_node *it = scenario_item(read, i);

		if (scenario_kind(it) != SCENARIO_SCALAR) {
			scenario_error(err, it, "expected a cgroup path");
			return -1;
		}
		if (reader_add(sr, t, it, scenario_scalar(it), err))
			return -1;
	}
	return 0;
}

/*
 * The reader sleeps for interval_ps (nanosleep()): its CPU idles in the
 * state cpuidle_idle_call() picks and the timer's wake-up pays that
 * state's exit latency as [wake] (menu.h), as netperf's wake-ups do.
 */
static void stat_reader_sleep(struct stat_reader *sr, struct sim_task *t)
{
	struct cpuidle_device *dev = sr->idle ? &sr->idle[t->k.cc->cpu] : NULL;

	if (dev)
		cpuidle_idle_call(dev, &sr->run->machine, t->proc.now);
	coh_delay(t->k.cc, sr->interval_ps);
	if (dev)
		task_pay_wake(t, cpuidle_wake(dev, &sr->run->machine,
					      t->proc.now));
}

struct stat_reader_frame {
	struct co_frame co;
	struct sim_task *t;
	unsigned int i;
	sim_time_t pass_start;
};

static int stat_reader_loop(struct sim_proc *p, void *frame)
{
	struct stat_reader_frame *f = frame;
	struct sim_task *t = f->t;
	struct stat_reader *sr = t->w->priv;
	struct memcg_sim *ms = sr->run->memcg;

	CO_BEGIN(f);
	while (task_running(t, sr->run)) {
		f->pass_start = t->proc.now;
		for (f->i = 0; f->i < sr->nr && task_running(t, sr->run);
		     f->i++) {
			CO_AWAIT(f, sim_proc_sync(p));
			task_op_begin(t);
			KPROF_ENTER(&t->prof, KF_WORK, t->proc.now);
			coh_delay(t->k.cc, sr->work_ps);
			KPROF_EXIT(&t->prof, t->proc.now);
			CO_CALL(f, p, memory_stat_show,
				.memcg = sr->memcgs[f->i],
				.format = sr->format ? sr->format :
						       ms->k->cgroup_version,
				.ratelimited = sr->ratelimited);
			task_op_end(t, sr->run);
		}
		if (f->i == sr->nr && f->pass_start >= sr->run->warmup_ps &&
		    t->proc.now <= sr->run->end_ps)
			sim_stat_add(&ms->pass_lat,
				     (double)(t->proc.now - f->pass_start) /
					     SIM_PS_PER_NS);
		if (sr->interval_ps) {
			task_idle_begin(t);
			stat_reader_sleep(sr, t);
			task_idle_end(t);
		}
	}
	CO_END(f, p);
}

static void stat_reader_setup(struct workload *w, struct run *run)
{
	struct stat_reader *sr = w->priv;
	unsigned int i;

	sr->run = run;
	free(sr->memcgs);
	sr->memcgs = calloc(sr->nr, sizeof(*sr->memcgs));
	SIM_OOM_ON(!sr->memcgs);
	for (i = 0; i < sr->nr; i++)
		sr->memcgs[i] = &run->memcg->memcgs[sr->ids[i]];
	free(sr->idle);
	sr->idle = NULL;
	if (sr->interval_ps && run->machine.nr_idle_states &&
	    run->kernel->cpuidle != CPUIDLE_POLL)
		sr->idle = cpuidle_devices_create(run->machine.nr_cpus,
						  run->kernel->cpuidle ==
							  CPUIDLE_TEO);
	for (i = 0; i < w->nr_tasks; i++) {
		struct stat_reader_frame *f;

		f = co_push(&w->tasks[i].proc, stat_reader_loop, sizeof(*f));
		f->t = &w->tasks[i];
	}
}

static void stat_reader_destroy(struct workload *w)
{
	struct stat_reader *sr = w->priv;

	if (sr) {
		free(sr->ids);
		free(sr->memcgs);
		free(sr->idle);
	}
	free(sr);
	w->priv = NULL;
}

/* host-run's program: read the same cgroups' memory.stat, pass by pass. */
static int stat_reader_host(const struct workload *w, struct workload_host *h)
{
	const struct stat_reader *sr = w->priv;
	unsigned int i;

	if (sr->ratelimited || sr->interval_ps) {
		snprintf(
			h->why, sizeof(h->why),
			"a paced or rate-limited reader: host-run reads back to back");
		return -1;
	}
	h->kind = WH_STAT_READ;
	h->format = sr->format;
	for (i = 0; i < sr->nr && i < w->cgroups->nr; i++)
		h->read[i] = sr->ids[i];
	h->nr_read = i;
	return 0;
}

const struct workload_type stat_reader_type = {
	.name = "stat_reader",
	.summary =
		"reads memory.stat (v1 or v2) of a set of memcgs, pass after pass",
	.keys = stat_reader_keys,
	.nr_keys = ARRAY_SIZE(stat_reader_keys),
	.unit = "reads/s",
	.memcg = true,
	.parse = stat_reader_parse,
	.setup = stat_reader_setup,
	.destroy = stat_reader_destroy,
	.host = stat_reader_host,
};
