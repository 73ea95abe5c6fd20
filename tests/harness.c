// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/harness.c - the kernel-model suites' shared harness: see
 * harness.h.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sim/scenario.h"
#include "tests/harness.h"
#include "tests/machine_test.h"

struct harness h;

void harness_setup(const char *profile, unsigned int nr_cpus, size_t stack)
{
	unsigned int i;

	if (profile) {
		memset(&h, 0, sizeof(h));
		load_profile(profile, &h.m);
	}
	ck_assert_uint_le(nr_cpus, HARNESS_MAX_CPUS);
	ck_assert_uint_le(nr_cpus, h.m.nr_cpus);
	h.e = sim_engine_create();
	h.coh = coh_create(&h.m, h.e);
	h.nr_cpus = nr_cpus;
	for (i = 0; i < nr_cpus; i++) {
		sim_proc_init(&h.proc[i], h.e, i, stack, &h.ctx[i]);
		h.cc[i] = coh_cpu_attach(h.coh, i, &h.proc[i]);
		h.ctx[i].cc = h.cc[i];
	}
	kernel_config_defaults(&h.k);
	h.tree.cg = h.cg;
}

void harness_setup_yaml(const char *name, const char *yaml,
			unsigned int nr_cpus, size_t stack)
{
	struct scenario_node *n;
	struct sim_error err;

	memset(&h, 0, sizeof(h));
	sim_error_clear(&err);
	n = scenario_parse_string(name, yaml, &err);
	ck_assert_msg(n, "%s", err.msg);
	ck_assert_msg(!machine_load(&h.m, n, &err), "%s:%u:%u: %s", err.file,
		      err.line, err.col, err.msg);
	scenario_free(n);
	harness_setup(NULL, nr_cpus, stack);
}

void harness_setup_bare(unsigned int nr_cpus, size_t stack)
{
	unsigned int i;

	memset(&h, 0, sizeof(h));
	ck_assert_uint_le(nr_cpus, HARNESS_MAX_CPUS);
	h.e = sim_engine_create();
	h.nr_cpus = nr_cpus;
	for (i = 0; i < nr_cpus; i++)
		sim_proc_init(&h.proc[i], h.e, i, stack, &h.ctx[i]);
	kernel_config_defaults(&h.k);
	h.tree.cg = h.cg;
}

unsigned int harness_cgroup(const char *path, int parent)
{
	struct cgroup_config *cg = &h.cg[h.tree.nr];

	ck_assert_uint_lt(h.tree.nr, HARNESS_MAX_CGROUPS);
	snprintf(cg->path, sizeof(cg->path), "%s", path);
	cg->parent = parent;
	cg->high = UINT64_MAX;
	cg->max = UINT64_MAX;
	return h.tree.nr++;
}

void harness_create(void)
{
	unsigned int i;

	h.ms = memcg_sim_create(&h.k, &h.tree, h.coh, h.m.nr_cpus);
	ck_assert_ptr_nonnull(h.ms);
	for (i = 0; i < h.nr_cpus; i++)
		h.ctx[i].ms = h.ms;
}

void harness_workload(const char *type, const char *cgroup,
		      const unsigned int *cpus, unsigned int nr,
		      const char *keys_yaml, sim_time_t warmup_ps,
		      sim_time_t end_ps)
{
	struct run *r = &h.run;
	struct scenario_node *n;
	struct sim_error err;
	unsigned int j;

	ck_assert_uint_le(nr, HARNESS_MAX_CPUS);
	r->machine = h.m; /* a copy: h.m owns its CPUs */
	r->kernel = &h.k;
	r->cgroups = &h.tree;
	r->memcg = h.ms;
	r->engine = h.e;
	r->coh = h.coh;
	r->kworker_cpu = -1;
	r->seed = 1;
	r->warmup_ps = warmup_ps;
	r->end_ps = end_ps;
	r->live_end = end_ps;
	r->nr_workloads = 1;
	r->workloads = &h.w;
	sim_stat_init(&r->lat);

	h.w.type = workload_type_find(type);
	ck_assert_ptr_nonnull(h.w.type);
	snprintf(h.w.cgroup, sizeof(h.w.cgroup), "%s", cgroup);
	h.w.nr_tasks = nr;
	h.w.cpus = h.w_cpus;
	h.w.tasks = h.tasks;
	h.w.scale = 1.0;
	h.w.cgroups = &h.tree;
	memcpy(h.w_cpus, cpus, nr * sizeof(*cpus));
	sim_error_clear(&err);
	n = scenario_parse_string("test-workload", keys_yaml, &err);
	ck_assert_msg(n, "%s", err.msg);
	ck_assert_msg(!h.w.type->parse(&h.w, n, &r->machine, &err), "%s",
		      err.msg);
	scenario_free(n);
	for (j = 0; j < nr; j++) {
		struct sim_task *t = &h.tasks[j];

		sim_proc_init(&t->proc, h.e, cpus[j], 4096, t);
		t->k.cc = coh_cpu_attach(h.coh, cpus[j], &t->proc);
		t->k.ms = h.ms;
		t->w = &h.w;
		t->index = j;
		task_rng_init(t, r->seed, cpus[j]);
		/* its profile, as run.c keeps one: kprof time per function */
		memset(&t->prof, 0, sizeof(t->prof));
		t->k.cc->prof = &t->prof;
	}
	h.w.type->setup(&h.w, r);
}

void harness_workload_run(void)
{
	unsigned int j;

	for (j = 0; j < h.w.nr_tasks; j++)
		sim_proc_start(&h.tasks[j].proc, 0);
	sim_engine_run(h.e, h.run.warmup_ps);
	coh_stats_reset(h.coh);
	sim_engine_run(h.e, h.run.end_ps);
}

void harness_teardown(void)
{
	unsigned int i;

	if (!h.e)
		return;
	if (h.w.type) {
		h.w.type->destroy(&h.w);
		for (i = 0; i < h.w.nr_tasks; i++)
			sim_proc_destroy(&h.tasks[i].proc);
		sim_stat_destroy(&h.run.lat);
	}
	memcg_sim_free(h.ms);
	for (i = 0; i < h.nr_cpus; i++)
		sim_proc_destroy(&h.proc[i]);
	coh_free(h.coh);
	sim_engine_free(h.e);
	machine_destroy(&h.m);
	memset(&h, 0, sizeof(h));
}

long harness_run_on(unsigned int cpu)
{
	struct sim_proc *p = &h.proc[cpu];
	sim_time_t start = sim_now(h.e);

	sim_proc_start(p, start);
	sim_engine_run(h.e, start + SIM_PS_PER_MS);
	ck_assert_msg(p->finished, "the call did not finish in 1 ms");
	h.last_ps = p->now - start;
	return p->ret;
}
