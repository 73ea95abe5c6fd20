/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tests/harness.h - the harness the kernel-model suites share, as
 * memblock's tests/common.h: one machine, its engine and coherence
 * model, a process per test CPU with its kernel context (the CPU and the
 * memcg world, models/kernel/compat/sim.h), the kernel's knobs, a cgroup
 * tree, and the memcg world built from them.
 *
 * A suite calls harness_setup() (which loads a cited profile, or takes
 * the one the suite loaded into h.m), harness_setup_yaml() (an inline
 * profile of round numbers) or harness_setup_bare() (no machine: every
 * access free), adjusts h.k and adds cgroups with harness_cgroup(), then
 * harness_create(), and runs kernel coroutines with HARNESS_CALL(); or
 * runs one workload as cmd/run/run.c does with harness_workload() and
 * harness_workload_run(). harness_teardown() frees it all (a second
 * call does nothing).
 */
#ifndef TESTS_HARNESS_H
#define TESTS_HARNESS_H

#include <stddef.h>

#include "models/hw/cache.h"
#include "models/hw/machine.h"
#include "models/kernel/compat/sim.h"
#include "models/kernel/mm/memcontrol.h"
#include "models/kernel/sim/config.h"
#include "models/workloads/workload.h"
#include "sim/co.h"

#define HARNESS_MAX_CPUS 16
#define HARNESS_MAX_CGROUPS 8

struct harness {
	struct machine m;
	struct sim_engine *e;
	struct coh *coh;
	unsigned int nr_cpus; /* the test CPUs, 0 .. nr_cpus - 1 */
	struct sim_proc proc[HARNESS_MAX_CPUS];
	struct coh_cpu *cc[HARNESS_MAX_CPUS];
	struct kernel_ctx ctx[HARNESS_MAX_CPUS]; /* proc[i]'s owner */
	struct kernel_config k;
	struct cgroup_config cg[HARNESS_MAX_CGROUPS];
	struct cgroup_tree tree;
	struct memcg_sim *ms;
	sim_time_t last_ps; /* the duration of the last harness_run_on() */
	/* harness_workload(): the run of one workload, a task per CPU */
	struct run run;
	struct workload w;
	unsigned int w_cpus[HARNESS_MAX_CPUS];
	struct sim_task tasks[HARNESS_MAX_CPUS];
};

/* The suite's harness: one per test program, reset by harness_setup(). */
extern struct harness h;

/*
 * harness_setup() - load the machine profile @profile (a name under
 * scenarios/machines/; NULL: the suite has zeroed h and loaded h.m), then
 * the engine, the coherence model, @nr_cpus processes of @stack bytes on
 * CPUs 0.. with their CPUs, and the kernel's defaults in h.k.
 */
void harness_setup(const char *profile, unsigned int nr_cpus, size_t stack);

/*
 * harness_setup_yaml() - harness_setup() on the inline profile @yaml,
 * called @name in messages.
 */
void harness_setup_yaml(const char *name, const char *yaml,
			unsigned int nr_cpus, size_t stack);

/*
 * harness_setup_bare() - an engine and @nr_cpus processes without a
 * machine or memory: kernel code runs with no CPU, every access free and
 * taking no simulated time (the model allows that).
 */
void harness_setup_bare(unsigned int nr_cpus, size_t stack);

/* A cgroup @path under cgroup @parent (-1: the root), no limits; its index. */
unsigned int harness_cgroup(const char *path, int parent);

/* The memcg world of h.k and the cgroups, in every process's context. */
void harness_create(void);

/*
 * harness_workload() - what cmd/run/run.c does for one workload of
 * @type (its keys in @keys_yaml, a YAML map) on the @nr CPUs @cpus: a
 * task on each, parsed and set up in h.run, measured from @warmup_ps to
 * @end_ps; nothing runs. After harness_setup*() with no test CPUs, and
 * harness_create() when the workload charges memory (the tasks then run
 * in the memcg world, and the workload in cgroup @cgroup).
 */
void harness_workload(const char *type, const char *cgroup,
		      const unsigned int *cpus, unsigned int nr,
		      const char *keys_yaml, sim_time_t warmup_ps,
		      sim_time_t end_ps);

/*
 * harness_workload_run() - start every task at 0, run to the end of the
 * warm-up, reset the lines' counts and run to the end.
 */
void harness_workload_run(void);

void harness_teardown(void);

/*
 * harness_run_on() - run the frame just pushed on @cpu to completion
 * (within 1 ms, else the test fails); its duration in h.last_ps.
 * Returns what it returned.
 */
long harness_run_on(unsigned int cpu);

/*
 * HARNESS_CALL() - run @fn on @cpu with its own frame, struct @fn_frame,
 * whose members the designated initializers set. Returns what @fn
 * returned.
 */
#define HARNESS_CALL(fn, cpu, ...)                                 \
	({                                                         \
		struct fn##_frame *f_ = CO_PUSH(&h.proc[cpu], fn); \
		struct co_frame co_ = f_->co;                      \
                                                                   \
		*f_ = (struct fn##_frame){ __VA_ARGS__ };          \
		f_->co = co_;                                      \
		harness_run_on(cpu);                               \
	})

#endif /* TESTS_HARNESS_H */
