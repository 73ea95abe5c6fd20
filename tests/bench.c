// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/bench.c - how fast the engine runs: `make bench`.
 *
 * For each scenario given on the command line (make bench gives
 * tests/data/bench-*.yaml: atomic_counter on 8, 72 and 256 CPUs; the
 * charge-batch-2022 validation scenario, all six variants; every shipped
 * experiment), run it once through scenario_run(), the same entry point
 * as `memcgsim run`, and report (summed over the scenario's variants)
 *
 *	events/s	engine events (sim_events()) per second of wall time
 *	ops/s		simulated operations per wall second (atomic_counter:
 *			one atomic each)
 *	cpu_s		user + system CPU time of the process that ran it:
 *			on a machine shared with other work, events per CPU
 *			second (ev/cpu_s) moves less than events per wall
 *			second
 *	peak RSS	getrusage() ru_maxrss of the process that ran it
 *
 * Each scenario runs in a child process of its own, so that the peak RSS
 * is that scenario's and not the largest so far. The wall time covers the
 * whole scenario_run(): loading and checking the scenario, setting up
 * the machine model and the tasks (2-7 ms at 256 CPUs), the run itself,
 * the reports and the freeing. The engine count is read in the
 * runner's inspect hook, while the engine still exists.
 *
 * Options (before the scenarios):
 *
 *	--history FILE	append one line per scenario to FILE (tab-separated:
 *			unix time, scenario, cpus, events, ops, wall_s,
 *			events/s, ops/s, peak RSS in kB, cpu_s, events per
 *			CPU second) and print each scenario's events per
 *			CPU second as a ratio to its last line there
 *			(vs_last): a change's effect, on a shared machine
 *	--raw		print one tab-separated line per scenario (name,
 *			cpus, events, ops, wall_s, peak RSS in kB, cpu_s,
 *			run_s) and nothing else: for bench/peers.sh; run_s
 *			is the wall time of the engine's runs alone, what
 *			the peers' benchmarks time of theirs
 *
 * Built only by `make bench` (EXTRA_PROGRAMS), never by `make check`.
 * This is test code: it may read the wall clock, which sim/ and models/
 * never do.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/run/run.h"
#include "sim/engine.h"

struct bench_result {
	char name[64];
	unsigned int cpus;
	uint64_t events;
	uint64_t ops;
	double sim_ms;
	double wall_s;
	double run_s; /* in the engine runs alone (bench_phase()) */
	double run_t0;
	double cpu_s;
	long maxrss_kb;
};

static double now_s(void);

/*
 * The run_phase hook: the time the engine runs, without loading the
 * scenario, setting up the machine and tasks, reporting and freeing:
 * what the peers' benchmarks time of theirs (bench/peers.sh).
 */
static void bench_phase(void *arg, bool running)
{
	struct bench_result *b = arg;

	if (running)
		b->run_t0 = now_s();
	else
		b->run_s += now_s() - b->run_t0;
}

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
	o.run_phase = bench_phase;
	o.run_phase_arg = b;
	t0 = now_s();
	if (scenario_run(path, &o, &r, &err)) {
		sim_error_print(stderr, &err);
		return -1;
	}
	b->wall_s = now_s() - t0;
	report_free(r);
	getrusage(RUSAGE_SELF, &ru);
	b->maxrss_kb = ru.ru_maxrss;
	b->cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		   (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
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

/*
 * history_last() - events per CPU second of the last line for @name in
 * the history file @path, or 0 when there is none (or no file yet).
 */
static double history_last(const char *path, const char *name)
{
	char line[512], fname[256];
	double rate, last = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line,
			   "%*s %255s %*s %*s %*s %*s %*s %*s %*s %*s %lf",
			   fname, &rate) == 2 &&
		    !strcmp(fname, name))
			last = rate;
	fclose(f);
	return last;
}

/* events per CPU second: what the history compares */
static double cpu_rate(const struct bench_result *b)
{
	return b->cpu_s > 0 ? (double)b->events / b->cpu_s : 0;
}

static void history_add(const char *path, const char *name,
			const struct bench_result *b, double rate)
{
	FILE *f = fopen(path, "a");

	if (!f) {
		perror(path);
		return;
	}
	fprintf(f,
		"%lld\t%s\t%u\t%llu\t%llu\t%.3f\t%.0f\t%.0f\t%ld\t%.3f\t%.0f\n",
		(long long)time(NULL), name, b->cpus,
		(unsigned long long)b->events, (unsigned long long)b->ops,
		b->wall_s, rate, b->wall_s > 0 ? (double)b->ops / b->wall_s : 0,
		b->maxrss_kb, b->cpu_s, cpu_rate(b));
	fclose(f);
}

int main(int argc, char **argv)
{
	const char *history = NULL;
	struct bench_result b;
	double min_rate = 0, min_cpu = 0;
	bool raw = false;
	int i = 1, ret = EXIT_SUCCESS;

	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--raw"))
			raw = true;
		else if (!strcmp(argv[i], "--history") && i + 1 < argc)
			history = argv[++i];
		else
			break;
	}
	if (i >= argc) {
		fprintf(stderr,
			"usage: bench [--raw] [--history FILE] SCENARIO...\n");
		return 2;
	}
	if (!raw)
		printf("%-32s %5s %8s %12s %8s %10s %10s %10s %7s %9s\n",
		       "scenario", "cpus", "sim_ms", "events", "wall_s",
		       "events/s", "ev/cpu_s", "ops/s", "RSS_MB",
		       history ? "vs_last" : "");
	for (; i < argc; i++) {
		const char *base = strrchr(argv[i], '/');
		double rate, last;

		base = base ? base + 1 : argv[i];
		if (bench_child(argv[i], &b)) {
			ret = EXIT_FAILURE;
			continue;
		}
		rate = b.wall_s > 0 ? (double)b.events / b.wall_s : 0;
		if (raw) {
			printf("%s\t%u\t%llu\t%llu\t%.6f\t%ld\t%.6f\t%.6f\n",
			       base, b.cpus, (unsigned long long)b.events,
			       (unsigned long long)b.ops, b.wall_s, b.maxrss_kb,
			       b.cpu_s, b.run_s);
			fflush(stdout);
			continue;
		}
		/* the engine target is for the atomic_counter benches */
		if (!strncmp(base, "bench-", 6)) {
			if (min_rate == 0 || rate < min_rate)
				min_rate = rate;
			if (min_cpu == 0 || cpu_rate(&b) < min_cpu)
				min_cpu = cpu_rate(&b);
		}
		printf("%-32s %5u %8.1f %12llu %8.3f %8.2f M %8.2f M %8.2f M %7ld",
		       base, b.cpus, b.sim_ms, (unsigned long long)b.events,
		       b.wall_s, rate / 1e6, cpu_rate(&b) / 1e6,
		       b.wall_s > 0 ? (double)b.ops / b.wall_s / 1e6 : 0,
		       (b.maxrss_kb + 1023) / 1024);
		if (history) {
			last = history_last(history, base);
			if (last > 0)
				printf("  x%.2f", cpu_rate(&b) / last);
			else
				printf("  (first)");
			history_add(history, base, &b, rate);
		}
		printf("\n");
		fflush(stdout);
	}
	if (raw)
		return ret;
	printf("engine, slowest bench-*: %.2f M events per wall second, %.2f M per CPU second (target: at least 30 M)\n",
	       min_rate / 1e6, min_cpu / 1e6);
	return ret;
}
