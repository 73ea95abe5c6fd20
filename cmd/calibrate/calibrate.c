// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/calibrate/calibrate.c - `memcgsim calibrate`: plan the microbenchmarks, run
 * them on this host with a progress line, write the raw measurements and
 * the machine profile fitted from them; `calibrate --check` reads a
 * profile and measurements and prints measured, predicted and error.
 *
 *	memcgsim calibrate [-o PROFILE] [--cpus LIST] [--quick] [-q]
 *	memcgsim calibrate --check PROFILE [MEASUREMENTS] [--tolerance PCT]
 *
 * It reads the wall clock (tools/checksrc.sh's WALLCLOCK list): for the
 * progress line and its time estimate, never for a simulated result.
 *
 * Theory of operation (see calibrate.h for the points). The plan is: the
 * idle latencies (pointer chases, one locked add, a CAS ping-pong per
 * distance class present among the CPUs), then the six contended loops at
 * every N of a list from 2 to all CPUs, placed compactly and spread over
 * sockets (one placement when the CPUs are on one socket). --quick takes
 * fewer repetitions, a shorter window and N in {2, all/2, all}.
 *
 * Files. PROFILE (default host.yaml) is a machine profile in the shipped
 * schema (models/hw/machine.c), every number with a `[M]` source naming
 * the benchmark, date, CPU and kernel. Beside it, PROFILE less its .yaml
 * plus .measurements.yaml holds the raw table: the host's topology and one
 * row per point with its CPUs, median, quartiles and every sample, so the
 * fit can be redone and `--check` can run without measuring. Both are
 * written whole or not at all; an unwritable PROFILE fails before any
 * measuring starts.
 *
 * Fit: cmd/calibrate/fit.c; the files: cmd/calibrate/io.c.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "cmd/calibrate/calibrate.h"
#include "cmd/usage.h"
#include "models/hw/machine.h"
#include "sim/file.h"
#include "sim/report.h"
#include "sim/scenario.h"
#include "sim/util.h"

#define EXIT_FAIL 1
#define EXIT_BAD_INPUT 2
#define DEFAULT_PROFILE "host.yaml"
#define DEFAULT_TOLERANCE 25.0
#define MEAS_SUFFIX ".measurements.yaml"

const char *const cal_bench_names[NR_CAL_BENCH] = {
	[CAL_L1_HIT] = "l1_hit",
	[CAL_LLC_HIT] = "llc_hit",
	[CAL_MEMORY] = "memory",
	[CAL_CHASE_WORK] = "chase_work",
	[CAL_RMW_LOCAL] = "rmw_local",
	[CAL_XFER_SMT] = "xfer_smt",
	[CAL_XFER_LLC] = "xfer_llc",
	[CAL_XFER_DIE] = "xfer_die",
	[CAL_XFER_SOCKET] = "xfer_socket",
	[CAL_LOAD_XCHG_PP] = "load_xchg_pingpong",
	[CAL_WORK] = "work",
	[CAL_WORK_SMT] = "work_smt",
	[CAL_ADD] = "add",
	[CAL_LOAD_XCHG] = "load_xchg",
	[CAL_XCHG2] = "xchg2",
	[CAL_ADD_READERS] = "add_readers",
	[CAL_PACKED] = "packed",
	[CAL_PADDED] = "padded",
	[CAL_PAIR] = "pair",
	[CAL_APART] = "apart",
	[CAL_CHASE_XADD] = "chase_xadd",
	[CAL_CHASE_LOAD] = "chase_load",
};

const char *const cal_placement_names[NR_CAL_PLACEMENT] = {
	[CAL_IDLE] = "idle",
	[CAL_COMPACT] = "compact",
	[CAL_SPREAD] = "spread",
};

static const char usage_text[] =
	"usage: memcgsim calibrate [-o PROFILE] [--cpus LIST] [--quick] [-q]\n"
	"       memcgsim calibrate --check PROFILE [MEASUREMENTS] [--tolerance PCT]\n"
	"       memcgsim calibrate --fit MEASUREMENTS [-o PROFILE]\n"
	"\n"
	"Measure this host's cache-line costs with pinned threads and write a\n"
	"machine profile (default host.yaml) and its raw measurements\n"
	"(PROFILE less .yaml, plus .measurements.yaml). With --check, run the\n"
	"same benchmarks in the simulator on PROFILE and print measured,\n"
	"predicted and error; MEASUREMENTS is a saved measurement file (without\n"
	"it the host is measured first).\n"
	"\n"
	"  -o, --out PROFILE     the profile to write (default host.yaml)\n"
	"      --cpus LIST       measure on these CPUs only (e.g. 0-17,36-53)\n"
	"      --quick           fewer repetitions and thread counts (under two\n"
	"                        minutes on a small machine)\n"
	"  -q, --quiet           no estimate and no progress line\n"
	"      --check           compare the model on PROFILE with measurements\n"
	"      --tolerance PCT   --check: largest error that passes (default 25)\n"
	"      --fit MEAS        fit the profile again from a measurement file\n"
	"                        (default -o: MEAS less .measurements.yaml)\n"
	"  -h, --help            this text\n"
	"\n"
	"Exit status: 0 success; 1 a benchmark could not run, an output could\n"
	"not be written, or --check found an error above the tolerance; 2 bad\n"
	"input or usage (an output that would replace an input included).\n";

struct cal_opts {
	const char *out;
	const char *cpus;
	const char *fit; /* --fit MEASUREMENTS */
	bool quick, quiet, check;
	double tolerance;
};

/* A usage error of calibrate (cmd/usage.h); its exit status. */
#define usage_error(...) \
	cmd_usage_error("calibrate", EXIT_BAD_INPUT, __VA_ARGS__)

static int print_error(const struct sim_error *err, int status)
{
	sim_error_print(stderr, err);
	return status;
}

/* ---- statistics ---- */

/**
 * cal__point_stats() - median and quartiles of a point's samples (GSL).
 * @p: the point; p->reps samples
 */
void cal__point_stats(struct cal_point *p)
{
	double sorted[CAL_MAX_REPS];

	memcpy(sorted, p->samples, p->reps * sizeof(double));
	gsl_sort(sorted, 1, p->reps);
	p->median = gsl_stats_median_from_sorted_data(sorted, 1, p->reps);
	p->q1 = gsl_stats_quantile_from_sorted_data(sorted, 1, p->reps, 0.25);
	p->q3 = gsl_stats_quantile_from_sorted_data(sorted, 1, p->reps, 0.75);
}

/* ---- the plan ---- */

static double wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

enum cal_bench cal__xfer_class(const struct cal_cpu *a, const struct cal_cpu *b)
{
	if (a->socket != b->socket)
		return CAL_XFER_SOCKET;
	if (a->core == b->core)
		return CAL_XFER_SMT;
	if (a->llc == b->llc)
		return CAL_XFER_LLC;
	return CAL_XFER_DIE;
}

/*
 * order_cpus() - the enabled CPUs in @pl order (LAW.md): compact is socket
 * 0's cores (thread 0), their siblings, then socket 1 ...; spread
 * alternates sockets core by core, thread 0 first. Return the count.
 */
static unsigned int order_cpus(const struct cal_host *h, enum cal_placement pl,
			       unsigned int *out)
{
	unsigned int s, t, c, i, n = 0, k;

	for (k = 0; k < h->sockets * h->threads_per_core * h->cores_per_socket;
	     k++) {
		if (pl == CAL_SPREAD) {
			/* k = (thread, core, socket) with socket fastest */
			s = k % h->sockets;
			c = k / h->sockets % h->cores_per_socket;
			t = k / h->sockets / h->cores_per_socket;
		} else {
			c = k % h->cores_per_socket;
			t = k / h->cores_per_socket % h->threads_per_core;
			s = k / h->cores_per_socket / h->threads_per_core;
		}
		for (i = 0; i < h->nr_cpus; i++)
			if (h->cpus[i].enabled && h->cpus[i].socket == s &&
			    h->cpus[i].core == c && h->cpus[i].thread == t)
				out[n++] = i;
	}
	return n;
}

/* The thread counts: every N up to 12, then about x1.5, plus the edges. */
static unsigned int thread_counts(const struct cal_host *h, unsigned int nr,
				  bool quick, unsigned int *out)
{
	unsigned int n = 0, v, per_socket = h->cores_per_socket;

	if (quick) {
		out[n++] = 2;
		if (nr / 2 > 2)
			out[n++] = nr / 2;
		if (nr > 2)
			out[n++] = nr;
		return n;
	}
	for (v = 2; v <= nr; v = v < 12 ? v + 1 : v * 3 / 2) {
		if (v > per_socket && n && out[n - 1] < per_socket)
			out[n++] = per_socket;
		out[n++] = v;
	}
	if (out[n - 1] != nr)
		out[n++] = nr;
	return n;
}

static struct cal_point *add_point(struct cal_plan *pl, enum cal_bench b,
				   enum cal_placement place, unsigned int n,
				   const unsigned int *idx)
{
	struct cal_point *p = &pl->points[pl->nr_points++];

	p->bench = b;
	p->placement = place;
	p->n = n;
	p->reps = pl->reps;
	memcpy(p->cpu_idx, idx, n * sizeof(*idx));
	return p;
}

/*
 * plan_socket_pairs() - on more than two sockets, an xfer_socket ping-pong
 * for every pair of sockets but the first (make_plan()'s class pair): the
 * first CPU in @order of each, for the profile's socket_distances. A host
 * with one socket (one NUMA node) has no pair: calibrate says so.
 */
static void plan_socket_pairs(const struct cal_host *h, struct cal_plan *pl,
			      const unsigned int *order, unsigned int nr)
{
	unsigned int first[CAL_MAX_SOCKETS], a, b, i;

	if (h->sockets < 3 || h->sockets > CAL_MAX_SOCKETS)
		return;
	for (a = 0; a < h->sockets; a++)
		first[a] = CAL_MAX_CPUS;
	for (i = nr; i-- > 0;)
		first[h->cpus[order[i]].socket] = order[i];
	for (a = 0; a < h->sockets; a++)
		for (b = a + 1; b < h->sockets; b++) {
			unsigned int pair[2] = { first[a], first[b] };

			if (a == h->cpus[order[0]].socket && b == a + 1)
				continue; /* the class's own pair */
			if (first[a] < CAL_MAX_CPUS && first[b] < CAL_MAX_CPUS)
				add_point(pl, CAL_XFER_SOCKET, CAL_IDLE, 2,
					  pair);
		}
}

/*
 * make_plan() - every point of a run on @h's enabled CPUs. Returns 0, or
 * -1 with @err set when the topology needs a class no two enabled CPUs
 * fall in (the profile could not be complete).
 */
static int make_plan(const struct cal_host *h, bool quick, struct cal_plan *pl,
		     struct sim_error *err)
{
	unsigned int order[NR_CAL_PLACEMENT][CAL_MAX_CPUS];
	unsigned int counts[64], nr_counts, nr, i, j, k;
	enum cal_placement place;
	enum cal_bench b;
	bool need[NR_CAL_BENCH] = { false };

	memset(pl, 0, sizeof(*pl));
	pl->quick = quick;
	pl->reps = quick ? 5 : 9;
	pl->window_s = quick ? 0.1 : 0.25;
	nr = order_cpus(h, CAL_COMPACT, order[CAL_COMPACT]);
	order_cpus(h, CAL_SPREAD, order[CAL_SPREAD]);
	nr_counts = thread_counts(h, nr, quick, counts);
	pl->points = calloc(2 * CAL_NR_IDLE + 2 + h->sockets * h->sockets +
				    2 * nr_counts *
					    (CAL_LAST_CONTENDED - CAL_ADD + 1),
			    sizeof(*pl->points));
	SIM_OOM_ON(!pl->points);

	for (b = CAL_L1_HIT; b <= CAL_RMW_LOCAL; b++)
		add_point(pl, b, CAL_IDLE, 1, order[CAL_COMPACT]);
	/* One pair per distance class, the first found from the first CPU. */
	for (b = CAL_XFER_SMT; b <= CAL_XFER_SOCKET; b++) {
		for (i = 0; i < nr; i++) {
			for (j = i + 1; j < nr; j++) {
				unsigned int pair[2] = { order[CAL_COMPACT][i],
							 order[CAL_COMPACT][j] };

				if (cal__xfer_class(&h->cpus[pair[0]],
						    &h->cpus[pair[1]]) != b)
					continue;
				add_point(pl, b, CAL_IDLE, 2, pair);
				/*
				 * the upgrade of each class but SMT's; for
				 * SMT, its execution sharing
				 */
				if (b != CAL_XFER_SMT) {
					add_point(pl, CAL_LOAD_XCHG_PP,
						  CAL_IDLE, 2, pair);
				} else {
					add_point(pl, CAL_WORK, CAL_IDLE, 1,
						  pair);
					add_point(pl, CAL_WORK_SMT, CAL_IDLE, 2,
						  pair);
				}
				break;
			}
			if (j < nr)
				break;
		}
	}
	plan_socket_pairs(h, pl, order[CAL_COMPACT], nr);
	cal__link_work(pl);
	need[CAL_XFER_SMT] = h->threads_per_core > 1;
	need[CAL_XFER_LLC] = h->cores_per_llc > 1;
	need[CAL_XFER_DIE] = h->cores_per_llc < h->cores_per_socket;
	need[CAL_XFER_SOCKET] = h->sockets > 1;
	for (b = CAL_XFER_SMT; b <= CAL_XFER_SOCKET; b++) {
		for (k = 0; k < pl->nr_points; k++)
			if (pl->points[k].bench == b)
				break;
		if (need[b] && k == pl->nr_points) {
			sim_error_set(
				err, "", 0, 0,
				"--cpus: this host's profile needs %s, but no two of the CPUs chosen are in that class; add one",
				cal_bench_names[b]);
			return -1;
		}
	}
	for (place = CAL_COMPACT; place <= CAL_SPREAD; place++) {
		/* On one socket, spread is compact again. */
		if (place == CAL_SPREAD &&
		    !memcmp(order[CAL_SPREAD], order[CAL_COMPACT],
			    nr * sizeof(unsigned int)))
			break;
		for (i = 0; i < nr_counts; i++)
			for (b = CAL_ADD; b <= CAL_LAST_CONTENDED; b++)
				add_point(pl, b, place, counts[i],
					  order[place]);
	}
	return 0;
}

static double plan_seconds(const struct cal_host *h, const struct cal_plan *pl,
			   unsigned int from)
{
	double s = 0;
	unsigned int i;

	for (i = from; i < pl->nr_points; i++)
		s += cal__bench_seconds(h, pl, &pl->points[i]) *
		     pl->points[i].reps;
	return s;
}

/* ---- measuring, with the progress line ---- */

/*
 * Measure and print (not written to the profile) a wake-up round trip
 * between the first two CPUs measured: what a pair that sleeps and wakes
 * each other pays a message, for setting beside `idle_states` and
 * `ipi_ns` (doc/model/surroundings.md section 5).
 */
static void report_wake_round_trip(const struct cal_host *h)
{
	unsigned int i, cpu[2], n = 0;
	double ns;
	int ret;

	for (i = 0; i < h->nr_cpus && n < 2; i++)
		if (h->cpus[i].enabled)
			cpu[n++] = h->cpus[i].os;
	if (n < 2)
		return;
	ret = cal__wake_round_trip(cpu[0], cpu[1], &ns);
	if (ret) {
		fprintf(stderr,
			"memcgsim: calibrate: wake-up round trip not measured: %s\n",
			strerror(ret));
		return;
	}
	fprintf(stderr,
		"memcgsim: calibrate: wake-up round trip (pipe ping-pong, CPUs %u and %u, median of %u): %.1f us; two wake-ups of a thread blocked in read() each, with the system calls; in a VM the idle states are the hypervisor's, not the processor's\n",
		cpu[0], cpu[1], CAL_WAKE_REPS, ns / 1000.0);
}

static int measure(const struct cal_host *h, struct cal_plan *pl, bool quiet,
		   struct sim_error *err)
{
	struct cal_plan full;
	bool tty = !quiet && isatty(STDERR_FILENO);
	double start = wall_s(), est = plan_seconds(h, pl, 0), done_est = 0;
	unsigned int i, nr = 0;

	for (i = 0; i < h->nr_cpus; i++)
		nr += h->cpus[i].enabled;
	if (!quiet) {
		if (make_plan(h, false, &full, err))
			return -1;
		fprintf(stderr,
			"memcgsim: calibrate: %u benchmarks x %u repetitions on %u CPUs, about %.0f s (%s run: about %.0f s)\n",
			pl->nr_points, pl->reps, nr, est,
			pl->quick ? "the full" : "this",
			plan_seconds(h, &full, 0));
		free(full.points);
		if (h->sockets == 1)
			fprintf(stderr,
				"memcgsim: calibrate: this host has one socket (one NUMA node): no cross-socket transfer, and no socket_distances, can be measured on it\n");
		else if (h->sockets == 2)
			fprintf(stderr,
				"memcgsim: calibrate: two sockets: their one pair is xfer_socket; no socket_distances matrix is written\n");
	}
	for (i = 0; i < pl->nr_points; i++) {
		struct cal_point *p = &pl->points[i];

		if (tty) {
			double t = wall_s() - start;
			double left = done_est > 0 ?
					      (est - done_est) * t / done_est :
					      est;

			fprintf(stderr,
				"\rmemcgsim: calibrate %u/%u %-11s N=%-4u %4.0f s elapsed, about %.0f s left ",
				i + 1, pl->nr_points, cal_bench_names[p->bench],
				p->n, t, left);
			fflush(stderr);
		}
		if (cal__bench_run(h, pl, p, err))
			goto fail;
		done_est += cal__bench_seconds(h, pl, p) * p->reps;
	}
	if (tty)
		fprintf(stderr, "\r%78s\r", "");
	pl->realtime = cal__bench_realtime();
	if (!quiet)
		report_wake_round_trip(h);
	if (!pl->realtime && !quiet)
		fputs("memcgsim: calibrate: the threads ran at normal priority (real-time needs root or CAP_SYS_NICE): other processes may have stretched the times\n",
		      stderr);
	return 0;
fail:
	if (tty)
		fputc('\n', stderr);
	return -1;
}

/* ---- --check ---- */

static int check(const char *profile, const char *meas_name,
		 const struct cal_host *h, struct cal_plan *pl,
		 double tolerance)
{
	const struct cal_point *worst = NULL;
	struct sim_error err;
	struct machine m;
	double worst_err = 0;
	unsigned int i, over = 0, checked = 0;
	char shown[3][1024];

	if (machine_load_file(&m, profile, &err))
		return print_error(&err, EXIT_BAD_INPUT);
	for (i = 0; i < pl->nr_points; i++)
		if (cal__sim_run(&m, h, &pl->points[i], &err)) {
			machine_destroy(&m);
			return print_error(&err, EXIT_BAD_INPUT);
		}
	printf("memcgsim calibrate --check: the model on %s (%s) against %s\n"
	       "measured %s on %s, %s\n"
	       "ns per operation (1e9 / throughput; add_readers: the adder's);\n"
	       "measured: median of the repetitions [quartiles];\n"
	       "error: (predicted - measured) / measured, tolerance %g%%\n\n",
	       sim_escape(shown[0], sizeof(shown[0]), profile),
	       sim_escape(shown[1], sizeof(shown[1]), m.name),
	       sim_escape(shown[2], sizeof(shown[2]), meas_name), h->date,
	       h->cpu_model, h->kernel, tolerance);
	printf("%-18s %-9s %4s %-14s %10s %-21s %10s %8s\n", "benchmark",
	       "placement", "N", "cpus", "measured", "[q1 - q3]", "predicted",
	       "error");
	for (i = 0; i < pl->nr_points; i++) {
		const struct cal_point *p = &pl->points[i];
		char cpus[512], quart[64];
		double e;

		cal__cpulist(h, p->cpu_idx, p->n, cpus, sizeof(cpus));
		snprintf(quart, sizeof(quart), "[%.2f - %.2f]", p->q1, p->q3);
		printf("%-18s %-9s %4u %-14s %10.2f %-21s ",
		       cal_bench_names[p->bench],
		       cal_placement_names[p->placement], p->n, cpus, p->median,
		       quart);
		if (isnan(p->predicted)) {
			printf("%19s\n", "(not modelled)");
			continue;
		}
		e = 100.0 * (p->predicted - p->median) / p->median;
		printf("%10.2f %+7.1f%%%s\n", p->predicted, e,
		       fabs(e) > tolerance ? " !" : "");
		checked++;
		if (fabs(e) > tolerance)
			over++;
		if (!worst || fabs(e) > fabs(worst_err)) {
			worst = p;
			worst_err = e;
		}
	}
	machine_destroy(&m);
	if (worst)
		printf("\n%u of %u points within %g%%; the worst: %s %s N=%u, %+.1f%%\n",
		       checked - over, checked, tolerance,
		       cal_bench_names[worst->bench],
		       cal_placement_names[worst->placement], worst->n,
		       worst_err);
	if (fflush(stdout) || ferror(stdout))
		return EXIT_FAIL;
	return over ? EXIT_FAIL : EXIT_SUCCESS;
}

/* ---- the command ---- */

/* PROFILE less a .yaml or .yml suffix, plus .measurements.yaml. */
static char *meas_path(const char *profile)
{
	size_t len = strlen(profile);
	char *p;

	if (len > 5 && !strcmp(profile + len - 5, ".yaml"))
		len -= 5;
	else if (len > 4 && !strcmp(profile + len - 4, ".yml"))
		len -= 4;
	p = malloc(len + sizeof(MEAS_SUFFIX));
	SIM_OOM_ON(!p);
	memcpy(p, profile, len);
	memcpy(p + len, MEAS_SUFFIX, sizeof(MEAS_SUFFIX));
	return p;
}

/*
 * refit() - `calibrate --fit MEASUREMENTS [-o PROFILE]`: the profile
 * fitted from a saved measurement file, measuring nothing. PROFILE
 * defaults to MEASUREMENTS less .measurements.yaml, plus .yaml; a refit of
 * an unchanged file gives the profile calibrate wrote with it, byte for
 * byte (the profile's name is its file's).
 */
static const char *base_name(const char *path);

/* The terms the fit left at their defaults, and why (even with -q). */
static void print_notes(const struct cal_fit *f)
{
	const char *p = f->notes;

	while (*p) {
		size_t n = strcspn(p, "\n");

		fprintf(stderr, "memcgsim: calibrate: note: %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

static int refit(const struct cal_opts *o)
{
	struct cal_host h = { 0 };
	struct cal_plan pl = { 0 };
	struct cal_profile pa = { .h = &h, .pl = &pl };
	struct sim_error err;
	char *out = NULL, *tmp = NULL, shown[1024];
	size_t len = strlen(o->fit), sl = strlen(MEAS_SUFFIX);
	FILE *fp;
	int ret = EXIT_BAD_INPUT;

	if (o->out) {
		out = strdup(o->out);
	} else if (len > sl && !strcmp(o->fit + len - sl, MEAS_SUFFIX)) {
		out = malloc(len - sl + sizeof(".yaml"));
		if (out)
			snprintf(out, len - sl + sizeof(".yaml"), "%.*s.yaml",
				 (int)(len - sl), o->fit);
	} else {
		return usage_error("--fit %s: name the profile with -o",
				   o->fit);
	}
	SIM_OOM_ON(!out);
	pa.meas_name = base_name(o->fit);
	pa.file = base_name(out);
	snprintf(pa.name, sizeof(pa.name), "%s", base_name(out));
	len = strcspn(pa.name, ".");
	pa.name[len ? len : strlen(pa.name)] = '\0';
	if (cal__read_measurements(o->fit, &h, &pl, &err)) {
		free(out);
		return print_error(&err, EXIT_BAD_INPUT);
	}
	h.numbering_matches = true; /* the file does not say */
	/* The measurements cannot be made again: never written over. */
	if (sim_output_check(out, &err)) {
		free(out);
		free(pl.points);
		return print_error(&err, EXIT_BAD_INPUT);
	}
	/* An output that cannot be written is a failure, as in run. */
	ret = EXIT_FAIL;
	fp = sim_atomic_open(out, &tmp, &err);
	if (fp) {
		if (cal__fit_profile(&pa, &err))
			sim_atomic_close(fp, out, tmp, false, &err);
		else if (cal__write_profile(fp, &pa))
			sim_atomic_close(fp, out, tmp, false, &err);
		else if (!sim_atomic_close(fp, out, tmp, true, &err))
			ret = 0;
	}
	if (ret)
		print_error(&err, ret);
	else if (!o->quiet)
		fprintf(stderr, "memcgsim: calibrate: wrote %s\n",
			sim_escape(shown, sizeof(shown), out));
	if (!ret)
		print_notes(&pa.f);
	free(out);
	free(pl.points);
	return ret;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int parse_args(int argc, char **argv, struct cal_opts *o)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "quick", no_argument, NULL, 'Q' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "check", no_argument, NULL, 'k' },
		{ "fit", required_argument, NULL, 'F' },
		{ "tolerance", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "no-plots", no_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;
	char *end;

	memset(o, 0, sizeof(*o));
	o->tolerance = DEFAULT_TOLERANCE;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			if (!*optarg)
				return usage_error(
					"--out: expected a file name, found nothing");
			o->out = optarg;
			break;
		case 'c':
			o->cpus = optarg;
			break;
		case 'Q':
			o->quick = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'k':
			o->check = true;
			break;
		case 'F':
			o->fit = optarg;
			break;
		case 't':
			errno = 0;
			o->tolerance = strtod(optarg, &end);
			/* decimal only: strtod() also takes hex, inf, nan */
			if (errno || end == optarg || *end ||
			    strspn(optarg, "0123456789.eE+-") !=
				    strlen(optarg) ||
			    !(o->tolerance >= 0 && o->tolerance <= 1e6))
				return usage_error(
					"--tolerance: expected a percentage such as 25, found '%s'",
					optarg);
			break;
		case 'P': /* --no-plots: calibrate draws none */
			break;
		default:
			return cmd_getopt_other("calibrate", EXIT_BAD_INPUT,
						opt, argv, usage_text);
		}
	}
	return 0;
}

/*
 * A busy host measures its neighbours too: say so before measuring when
 * the load average over the last minute is 1 or more (one CPU's worth of
 * other work competes with the pinned threads).
 */
static void busy_warning(void)
{
	double load[1];

	if (getloadavg(load, 1) == 1 && load[0] >= 1.0)
		fprintf(stderr,
			"memcgsim: warning: calibrate: the host is busy (load average %.1f over the last minute): the measurements will be noisy; calibrate an idle host\n",
			load[0]);
}

/*
 * The classes come in an order no cache can break: an L1 hit under an
 * LLC hit under memory, a sibling's line under another core's under
 * another die's under another socket's, and another core's line no
 * cheaper than an LLC hit (it passes through the LLC or its directory).
 * A profile that breaks it was measured on a busy host or a misread
 * topology: warn, and keep it (the measurements are what they are).
 */
static void order_warnings(const struct cal_fit *f)
{
	static const enum cal_bench order[][2] = {
		{ CAL_L1_HIT, CAL_LLC_HIT },
		{ CAL_LLC_HIT, CAL_MEMORY },
		{ CAL_XFER_SMT, CAL_XFER_LLC },
		{ CAL_XFER_LLC, CAL_XFER_DIE },
		{ CAL_XFER_DIE, CAL_XFER_SOCKET },
		{ CAL_LLC_HIT, CAL_XFER_LLC },
	};
	const struct cal_point *a, *b;
	unsigned int i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		a = f->idle[order[i][0]];
		b = f->idle[order[i][1]];
		if (a && b && a->median > b->median)
			fprintf(stderr,
				"memcgsim: warning: calibrate: %s %.1f ns is above %s %.1f ns, an order no cache gives: measured on a busy host, or the topology misread? Measure again on an idle host\n",
				cal_bench_names[order[i][0]], a->median,
				cal_bench_names[order[i][1]], b->median);
	}
}

/**
 * cmd_calibrate() - `memcgsim calibrate` and `memcgsim calibrate --check`.
 * @argc: arguments, @argv[0] being "calibrate"
 * @argv: the arguments
 *
 * Nothing is written unless every benchmark ran: the profile and its
 * measurements are written whole or not at all, after a check that the
 * profile's directory takes a file.
 *
 * Return: the exit status (see cmd/calibrate/calibrate.h).
 */
/*
 * calibrate_profile() - measure this host (@h, @pl) and write the profile
 * (-o, or DEFAULT_PROFILE) with its measurements beside it, both or
 * neither; its exit status.
 */
static int calibrate_profile(const struct cal_opts *o, struct cal_host *h,
			     struct cal_plan *pl)
{
	const char *out = o->out ? o->out : DEFAULT_PROFILE;
	char *meas = meas_path(out), *tmp_p = NULL, *tmp_m = NULL;
	struct cal_profile pa = { .h = h,
				  .pl = pl,
				  .meas_name = base_name(meas),
				  .file = base_name(out) };
	struct cal_meas_args ma = { .h = h,
				    .pl = pl,
				    .profile = base_name(out) };
	char shown[1024], shown2[1024];
	FILE *fp = NULL, *fm = NULL;
	struct sim_error err;
	size_t len;
	int ret;

	snprintf(pa.name, sizeof(pa.name), "%s", base_name(out));
	len = strcspn(pa.name, ".");
	pa.name[len ? len : strlen(pa.name)] = '\0';
	/*
	 * The files first: an unwritable PROFILE fails at once, with
	 * the status of every output that cannot be written (1).
	 */
	ret = EXIT_BAD_INPUT;
	if (!strcmp(out, "-"))
		sim_error_set(
			&err, "", 0, 0,
			"-o -: the profile needs a file, with its measurements beside it");
	else if (!(fp = sim_atomic_open(out, &tmp_p, &err)) ||
		 !(fm = sim_atomic_open(meas, &tmp_m, &err)))
		ret = EXIT_FAIL;
	else if (!cal__host_probe(h, o->cpus, &err) &&
		 !make_plan(h, o->quick, pl, &err)) {
		busy_warning();
		ret = measure(h, pl, o->quiet, &err) ? EXIT_FAIL : 0;
	}
	if (!ret && cal__fit_profile(&pa, &err))
		ret = EXIT_FAIL;
	if (!ret)
		order_warnings(&pa.f);
	if (!ret) {
		bool ok = !cal__write_measurements(fm, &ma) &&
			  !cal__write_profile(fp, &pa);

		if (!ok)
			sim_error_set(&err, out, 0, 0, "cannot write: %s",
				      strerror(errno));
		ret = ok ? 0 : EXIT_FAIL;
	}
	if (fm && sim_atomic_close(fm, meas, tmp_m, !ret, &err))
		ret = EXIT_FAIL;
	if (fp && sim_atomic_close(fp, out, tmp_p, !ret, &err))
		ret = EXIT_FAIL;
	if (ret)
		print_error(&err, ret);
	else if (!o->quiet)
		fprintf(stderr, "memcgsim: calibrate: wrote %s and %s\n",
			sim_escape(shown, sizeof(shown), out),
			sim_escape(shown2, sizeof(shown2), meas));
	if (!ret)
		print_notes(&pa.f);
	free(meas);
	return ret;
}

int cmd_calibrate(int argc, char **argv)
{
	struct cal_host h = { 0 };
	struct cal_plan pl = { 0 };
	struct cal_opts o;
	struct sim_error err;
	int ret = parse_args(argc, argv, &o), nr_args;
	char **args;

	if (ret)
		return ret < 0 ? EXIT_SUCCESS : ret;
	nr_args = argc - optind;
	args = argv + optind;
	if (o.fit) {
		if (o.check || o.cpus || o.quick)
			return usage_error(
				"--fit refits saved measurements: no --check, --cpus or --quick");
		if (nr_args)
			return usage_error("unexpected argument '%s'", args[0]);
		return refit(&o);
	}
	if (o.check) {
		if (nr_args < 1)
			return usage_error("--check: missing PROFILE");
		if (nr_args > 2)
			return usage_error("unexpected argument '%s'", args[2]);
		if (o.out)
			return usage_error(
				"--check writes no profile; -o is for a measuring run");
		if (nr_args == 2) {
			if (o.cpus || o.quick)
				return usage_error(
					"--cpus and --quick are for measuring; %s is already measured",
					args[1]);
			if (cal__read_measurements(args[1], &h, &pl, &err))
				return print_error(&err, EXIT_BAD_INPUT);
			ret = check(args[0], args[1], &h, &pl, o.tolerance);
			free(pl.points);
			return ret;
		}
		/* Measure first: the profile must load before that. */
		{
			struct machine m;

			if (machine_load_file(&m, args[0], &err))
				return print_error(&err, EXIT_BAD_INPUT);
			machine_destroy(&m);
		}
	} else if (nr_args) {
		return usage_error(
			"unexpected argument '%s' (the profile goes after -o)",
			args[0]);
	}
	if (o.check) {
		if (cal__host_probe(&h, o.cpus, &err) ||
		    make_plan(&h, o.quick, &pl, &err))
			ret = print_error(&err, EXIT_BAD_INPUT);
		else if (measure(&h, &pl, o.quiet, &err))
			ret = print_error(&err, EXIT_FAIL);
		else
			ret = check(args[0], "this host", &h, &pl, o.tolerance);
	} else {
		ret = calibrate_profile(&o, &h, &pl);
	}
	cal__host_release();
	free(pl.points);
	return ret;
}
