/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/host-run/internal.h - what the files of cmd/host-run/ share: the
 * host's memory-cgroup hierarchy (cgroupfs.c), the programs run on the
 * host (bench.c) and the plan of variants (host_run.c). Nothing outside
 * cmd/host-run/ includes it.
 *
 * Layering: cmd/; the host side uses the cgroup file system, fork,
 * pthreads and sched_setaffinity, never a shell.
 */
#ifndef CMD_HOST_RUN_INTERNAL_H
#define CMD_HOST_RUN_INTERNAL_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "models/kernel/sim/config.h"
#include "models/workloads/workload.h"
#include "sim/error.h"

/* The private directory's name: this prefix and host-run's pid. */
#define HOST_DIR_PREFIX "memcgsim-host-run."
#define HOST_MAX_MADE 8192 /* cgroups one run may create */
#define HOST_MOUNT_MAX 2048 /* a longer mount point is refused */
#define HOST_PERF_MAX_PIDS 1024

/*
 * struct host_cgfs - the memory controller's hierarchy on this host, as
 * /proc/self/mountinfo shows it, and the cgroups host-run made in it.
 */
struct host_cgfs {
	unsigned int version; /* 1 (legacy memory mount) or 2 (cgroup2) */
	/*
	 * Where "/" is: "" on a host; a directory holding a fake
	 * proc/self/mountinfo, proc/cmdline and cgroup tree in tests
	 * (MEMCGSIM_HOST_ROOT), where the control files a cgroup file
	 * system makes itself are made and removed by host-run.
	 */
	char root[HOST_MOUNT_MAX];
	char mount[HOST_MOUNT_MAX]; /* its root, below @root */
	bool memsw; /* v1: memory.memsw.* exist: swap accounting is on */
	bool nokmem; /* cgroup.memory=nokmem on the kernel command line */
	char top[HOST_MOUNT_MAX + 64]; /* the private directory; "" before */
	/* made below top, in creation order (removed in reverse) */
	char **made;
	unsigned int nr_made;
	bool tcp_v1; /* v1: memory.kmem.tcp.limit_in_bytes written */
};

/*
 * host_cg_detect() - find the hierarchy carrying the memory controller
 * (cgroup2 when its root lists memory in cgroup.controllers, else a v1
 * mount with the memory option) in @root's proc/self/mountinfo ("": the
 * host's), and what the kernel accounts there (memsw, nokmem). -1 with
 * @err set when there is none or it cannot be written.
 */
int host_cg_detect(struct host_cgfs *fs, const char *root,
		   struct sim_error *err);

/* Is kernel @release ("6.18.44-...") @major.@minor or later? */
bool host_release_at_least(const char *release, unsigned int major,
			   unsigned int minor);

#define HOST_MAX_KERNEL_SETS 4
/*
 * host_kernel_sets() - the kernel: keys host-run gives the model so that
 * it runs the host's paths: kernel.cgroup_version (the hierarchy's),
 * kernel.kmem_accounting (by @release and nokmem: off, pages or
 * objects), kernel.swap_account (v1: memsw present) and, on v1,
 * kernel.tcpmem_active (host-run writes memory.kmem.tcp's limit). A key
 * the user --sets (@user) is left to the user. Each "kernel.KEY=VALUE"
 * in @out; returns how many.
 */
unsigned int host_kernel_sets(const struct host_cgfs *fs, const char *release,
			      const char *const *user, unsigned int nr_user,
			      char out[][64]);
/* Remove private directories left by host-runs that died unrunnably. */
void host_cg_sweep_stale(const struct host_cgfs *fs);
/* Make the private directory (HOST_DIR_PREFIX and our pid). */
int host_cg_open(struct host_cgfs *fs, struct sim_error *err);
/*
 * host_cg_build() - make @t's cgroups (but the root) below the private
 * directory, with their limits; v1 with @tcp: memory.kmem.tcp's limit
 * too (v1 charges TCP only then). -1 with @err set.
 */
int host_cg_build(struct host_cgfs *fs, const struct cgroup_tree *t, bool tcp,
		  struct sim_error *err);
/* Remove what host_cg_build() made (each cgroup empty by then). */
int host_cg_unbuild(struct host_cgfs *fs, struct sim_error *err);
/* Remove every cgroup made and the private directory. */
int host_cg_close(struct host_cgfs *fs, struct sim_error *err);
/* The directory of the scenario's cgroup @path ("/": the root), in @buf. */
void host_cg_dir(const struct host_cgfs *fs, const char *path, char *buf,
		 size_t size);
/*
 * host_cg_name_ok() - is @path a scenario cgroup path host-run may make:
 * "/" or components of [A-Za-z0-9_.-], none "." or "..", none starting
 * with '.', each below 64 bytes. @why gets the reason otherwise.
 */
bool host_cg_name_ok(const char *path, char *why, size_t size);

/* ---- the programs (bench.c) ---- */

/* One workload as host-run runs it. */
struct host_job {
	struct workload_host h;
	unsigned int nr_tasks;
	const unsigned int *cpus; /* [nr_tasks] */
	char dir[PATH_MAX]; /* its cgroup's directory */
	/* stat readers: the memory.stat files, [h.nr_read] */
	char (*stat_files)[PATH_MAX];
	bool counted; /* its operations and CPU time are the result */
};

/* The events the model also counts (host_tp_names[]: SYSTEM:NAME). */
enum host_tp_event {
	HOST_TP_MOD_MEMCG_STATE,
	HOST_TP_MOD_LRUVEC,
	HOST_TP_COUNT_EVENTS,
	HOST_TP_FLUSH_STATS,
	HOST_TP_RSTAT_LOCKED,
	HOST_TP_RSTAT_CONTENDED,
	HOST_TP_NR
};

extern const char *const host_tp_names[HOST_TP_NR];

/* What one run of a variant measured (of the counted workloads). */
struct host_result {
	double secs; /* the measured window, wall clock */
	uint64_t ops;
	double cpu_ns; /* CPU time of the counted tasks in the window */
	unsigned int nr_pids; /* the counted tasks' processes, for perf */
	pid_t pids[HOST_PERF_MAX_PIDS];
	bool have_tp; /* @tp: the tracepoints counted in the window */
	uint64_t tp[HOST_TP_NR];
};

/* ---- perf's profile of a run (profile.c) ---- */

struct host_profile_row {
	char sym[64];
	double pct; /* of the samples, self */
};

struct host_profile {
	struct host_profile_row *rows;
	unsigned int nr;
};

/* perf in PATH: its file name in @buf, true; false when there is none. */
bool host_perf_find(char *buf, size_t size);
/* A perf record running, and its control and ack pipes. */
struct host_perf {
	pid_t pid;
	int ctl, ack;
};

/*
 * perf record -e cpu-clock -a -C @cpus into @data, its events off until
 * host_perf_enable() (true once perf acknowledged, within @timeout_ms);
 * host_perf_stop() ends it (SIGINT, a wait while it writes, SIGKILL
 * after 10 s) and is a no-op when it is not running.
 */
int host_perf_start(struct host_perf *hp, const char *perf, const char *data,
		    const unsigned int *cpus, unsigned int nr);
bool host_perf_enable(struct host_perf *hp, int timeout_ms);
void host_perf_stop(struct host_perf *hp);
/*
 * perf report of @data, the samples of @pids (processes) only: every
 * symbol's self share of them; -1 when it failed or found none.
 */
int host_profile_read(const char *perf, const char *data, const pid_t *pids,
		      unsigned int nr, struct host_profile *prof);
void host_profile_free(struct host_profile *prof);
/*
 * @name's share (with its __ inner versions and .constprop-like
 * suffixes), and the share of every memcg symbol (by its name).
 */
double host_profile_sym(const struct host_profile *prof, const char *name);
double host_profile_memcg(const struct host_profile *prof);
bool host_memcg_symbol(const char *sym);

/* ---- the memcg tracepoints of a run (tracepoints.c) ---- */

#define HOST_TP_MAX_FDS (HOST_TP_NR * 256)

/*
 * struct host_tp - tracefs (mounted by host-run or found) and the
 * counting events open on the counted tasks during one run.
 */
struct host_tp {
	bool ok; /* the ids were read: events can be counted */
	bool mounted; /* host-run mounted tracefs at @mount: unmount it */
	bool unmounted; /* ... and has unmounted it */
	char mount[HOST_MOUNT_MAX];
	char why[256]; /* why they cannot be counted, or "" */
	long long id[HOST_TP_NR]; /* -1: no such event on this kernel */
	int fd[HOST_TP_MAX_FDS];
	unsigned int fd_event[HOST_TP_MAX_FDS];
	unsigned int nr_fds;
};

/*
 * host_tp_open() - find tracefs (or mount it at /sys/kernel/tracing)
 * and read the events' ids; -1 with @tp->why set when it cannot be used.
 * host_tp_close() closes the events and unmounts what it mounted.
 */
int host_tp_open(struct host_tp *tp);
void host_tp_close(struct host_tp *tp);
/*
 * host_tp_attach() - a counting event, off, per event and thread of each
 * process of @pids; -1 with @tp->why set. host_tp_enable() turns them
 * on or off, host_tp_read() sums them per event, host_tp_detach()
 * closes them.
 */
int host_tp_attach(struct host_tp *tp, const pid_t *pids, unsigned int nr);
void host_tp_enable(struct host_tp *tp, bool on);
int host_tp_read(const struct host_tp *tp, uint64_t counts[HOST_TP_NR]);
void host_tp_detach(struct host_tp *tp);

/* Set by SIGINT, SIGTERM and SIGHUP (host_run.c): stop and clean up. */
extern volatile sig_atomic_t host_stop_signal;

/*
 * host_bench_run() - start every task of @jobs in its cgroup, pinned;
 * run @warmup_s, measure @secs, stop them all and reap them. -1 with
 * @err set (a task that could not start, or a signal: every process
 * started is ended and reaped first).
 */
/*
 * With @perf (perf's file name) and @perf_data, the counted tasks are
 * profiled into @perf_data, from the start (perf takes a while to
 * attach) to the end of the window.
 */
/*
 * With @tp (tracefs usable), the memcg tracepoints are counted in the
 * counted tasks over the measured window (@res->have_tp).
 */
int host_bench_run(const struct host_job *jobs, unsigned int nr_jobs,
		   double warmup_s, double secs, const char *perf,
		   const char *perf_data, struct host_tp *tp,
		   struct host_result *res, struct sim_error *err);

#endif /* CMD_HOST_RUN_INTERNAL_H */
