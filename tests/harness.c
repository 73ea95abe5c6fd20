// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/harness.c - the kernel-model suites' shared harness: see
 * harness.h.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

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

void harness_teardown(void)
{
	unsigned int i;

	if (!h.e)
		return;
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
