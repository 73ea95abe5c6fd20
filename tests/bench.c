// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/bench.c - how fast the engine runs: `make bench`.
 *
 * For each scenario given on the command line (tests/data/bench-*.yaml:
 * atomic_counter on 8, 72 and 256 CPUs; the charge-batch-2022 validation
 * scenario, all six variants, and stat-read-1000, all four, whose
 * targets are under 30 s; stat-flush-contention), run it once
 * through
 * scenario_run(), the same entry point as `memcgsim run`, and report
 * (summed over the scenario's variants)
 *
 *	events/s	engine events (sim_events()) per second of wall time
 *	ops/s		simulated operations (counter increments) per wall second
 *	peak RSS	getrusage() ru_maxrss of the process that ran it
 *
 * Each scenario runs in a child process of its own, so that the peak RSS
 * is that scenario's and not the largest so far. The wall time covers the
 * whole scenario_run(): loading and checking the scenario (well under a
 * millisecond) and the run itself. The engine count is read in the
 * runner's inspect hook, while the engine still exists.
 *
 * Built only by `make bench` (EXTRA_PROGRAMS), never by `make check`.
 * This is test code: it may read the wall clock, which sim/ and models/
 * never do.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/run.h"
#include "sim/engine.h"

struct bench_result {
	char name[64];
	unsigned int cpus;
	uint64_t events;
	uint64_t ops;
	double sim_ms;
	double wall_s;
	long maxrss_kb;
};

/* The inspect hook: the run is over but its engine and tasks still live. */
static void bench_inspect(void *arg, const char *variant, struct run *run)
{
	struct bench_result *b = arg;
	unsigned int i, j;

	snprintf(b->name, sizeof(b->name), "%s", variant);
	b->events += sim_events(run->engine);
	b->sim_ms += (double)run->end_ps / 1e9;
	for (i = 0; i < run->nr_workloads; i++) {
		b->cpus += run->workloads[i].nr_tasks;
		for (j = 0; j < run->workloads[i].nr_tasks; j++)
			b->ops += run->workloads[i].tasks[j].ops;
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run @path in this process; 0 with @b filled, or -1 after an error. */
static int bench_one(const char *path, struct bench_result *b)
{
	struct run_opts o = {
		.replications = 1,
		.hot_lines = 0,
		/* the source tree's profiles, as for a build-tree memcgsim */
		.datadir = MEMCGSIM_SRCDIR "/scenarios",
	};
	struct report *r = NULL;
	struct sim_error err;
	struct rusage ru;
	double t0;

	memset(b, 0, sizeof(*b));
	sim_error_clear(&err);
	o.inspect = bench_inspect;
	o.inspect_arg = b;
	t0 = now_s();
	if (scenario_run(path, &o, &r, &err)) {
		sim_error_print(stderr, &err);
		return -1;
	}
	b->wall_s = now_s() - t0;
	report_free(r);
	getrusage(RUSAGE_SELF, &ru);
	b->maxrss_kb = ru.ru_maxrss;
	return 0;
}

/* Run @path in a child; its result comes back through a pipe. */
static int bench_child(const char *path, struct bench_result *b)
{
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe(fds)) {
		perror("bench: pipe");
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("bench: fork");
		return -1;
	}
	if (!pid) {
		close(fds[0]);
		if (bench_one(path, b))
			_exit(2);
		if (write(fds[1], b, sizeof(*b)) != (ssize_t)sizeof(*b))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	n = read(fds[0], b, sizeof(*b));
	close(fds[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) || n != (ssize_t)sizeof(*b)) {
		fprintf(stderr, "bench: %s failed\n", path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct bench_result b;
	double min_rate = 0;
	int i, ret = EXIT_SUCCESS;

	if (argc < 2) {
		fprintf(stderr, "usage: bench SCENARIO...\n");
		return 2;
	}
	printf("%-22s %5s %8s %12s %10s %12s %12s %9s\n", "scenario", "cpus",
	       "sim_ms", "events", "wall_s", "events/s", "sim_ops/s",
	       "peak_RSS");
	for (i = 1; i < argc; i++) {
		const char *base = strrchr(argv[i], '/');
		double rate;

		base = base ? base + 1 : argv[i];
		if (bench_child(argv[i], &b)) {
			ret = EXIT_FAILURE;
			continue;
		}
		rate = b.wall_s > 0 ? (double)b.events / b.wall_s : 0;
		/* the engine target is for the atomic_counter benches */
		if (!strncmp(base, "bench-", 6) &&
		    (min_rate == 0 || rate < min_rate))
			min_rate = rate;
		printf("%-22s %5u %8.1f %12llu %10.3f %10.2f M %10.2f M %6ld MB\n",
		       base, b.cpus, b.sim_ms, (unsigned long long)b.events,
		       b.wall_s, rate / 1e6,
		       b.wall_s > 0 ? (double)b.ops / b.wall_s / 1e6 : 0,
		       (b.maxrss_kb + 1023) / 1024);
		fflush(stdout);
	}
	printf("engine, slowest bench-*: %.2f M events/s (target: at least 10 M events/s)\n",
	       min_rate / 1e6);
	return ret;
}
