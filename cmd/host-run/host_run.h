/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/host-run/host_run.h - `memcgsim host-run`: measure a scenario's
 * variants on this host's real kernel, in real cgroups, beside the
 * model's prediction for them (doc/host-run.md).
 *
 * Theory of operation: the model runs each variant once (cmd/run/), and
 * its run tells host-run the variant's cgroup tree, kernel settings and
 * workloads; a workload type's host() hook names the system calls it
 * stands for (models/workloads/workload.h). A variant the host can
 * reproduce (it differs from the first only where a host can differ:
 * the workload's cgroup, the tree, limits, tasks within the host's CPUs)
 * is measured; one it cannot (a kernel key, a workload without a host
 * program, a CPU the host lacks) is listed with the reason. A root run
 * (every workload in the root cgroup) is added when no variant is one.
 * The runs alternate the variants, every other repetition in reverse
 * order; each builds its tree below a private directory of the memory
 * hierarchy (cgroupfs.c), runs the programs (bench.c) and removes the
 * tree. The table: operations per second and CPU time per operation with
 * 95% confidence intervals, the change against the baseline (paired by
 * repetition), the model's change and the difference.
 *
 * Layering: cmd/; cli/memcgsim.c calls it.
 */
#ifndef CMD_HOST_RUN_H
#define CMD_HOST_RUN_H

#include <stdbool.h>

#define HOST_MAX_VARIANTS 64

struct host_run_opts {
	const char *scenario;
	const char *datadir; /* shipped machine profiles */
	const char *variants[HOST_MAX_VARIANTS]; /* -v; none: all */
	unsigned int nr_variants;
	const char *const *sets; /* --set, for the model and the host */
	unsigned int nr_sets;
	unsigned int reps; /* -r; 0: the default */
	double secs; /* --duration; 0: the default */
	const char *machine; /* --machine PROFILE, or NULL */
	bool predict; /* --predict, or implied by --machine */
	bool no_profile; /* --no-profile: no perf profile even with perf */
	bool quiet;
};

#define HOST_DEFAULT_REPS 5
#define HOST_MAX_REPS 100
#define HOST_DEFAULT_SECS 1.0

/*
 * host_run() - run @o and print the table on stdout. Return: the exit
 * status: 0; 1 when the host could not run it (no memory hierarchy, not
 * allowed to create cgroups, a task that failed); 2 on bad input; 128+N
 * after signal N (every cgroup made removed, every process ended).
 */
int host_run(const struct host_run_opts *o);

#endif /* CMD_HOST_RUN_H */
