// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli/calibrate.c - `memcgsim calibrate`: plan the microbenchmarks, run
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
 * Fit. The idle latencies are the medians. The contended points fix the
 * law's terms: xfer_per_waiter, least squares through the origin of each
 * add point's excess over the mean idle hand-off of its rotation against
 * N - 1, the CPUs queued at a hand-off; inval_per_sharer, the slope of
 * add_readers' cost against its readers k >= 1 (needs 3 CPUs). A term no
 * point fixes is written with a [P] source that says so.
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
#include <yaml.h>

#include "cli/calibrate.h"
#include "models/hw/machine.h"
/*
 * The hand-off law (models/hw/coh_law.h, issue 11 item 3): when it is
 * built in, the profile gets its terms, fitted by coh_law_fit(), instead
 * of xfer_per_waiter.
 */
#if defined(__has_include)
#if __has_include("models/hw/coh_law.h")
#include "models/hw/coh_law.h"
#define CAL_HAVE_LAW 1
#endif
#endif
#include "sim/report.h"
#include "sim/scenario.h"
#include "sim/util.h"

#define EXIT_FAIL 1
#define EXIT_BAD_INPUT 2
#define DEFAULT_PROFILE "host.yaml"
#define DEFAULT_TOLERANCE 25.0
#define MEAS_FORMAT "memcgsim-measurements/1"
#define MEAS_SUFFIX ".measurements.yaml"

const char *const cal_bench_names[NR_CAL_BENCH] = {
	[CAL_L1_HIT] = "l1_hit",
	[CAL_LLC_HIT] = "llc_hit",
	[CAL_MEMORY] = "memory",
	[CAL_RMW_LOCAL] = "rmw_local",
	[CAL_XFER_SMT] = "xfer_smt",
	[CAL_XFER_LLC] = "xfer_llc",
	[CAL_XFER_DIE] = "xfer_die",
	[CAL_XFER_SOCKET] = "xfer_socket",
	[CAL_LOAD_XCHG_PP] = "load_xchg_pingpong",
	[CAL_ADD] = "add",
	[CAL_LOAD_XCHG] = "load_xchg",
	[CAL_XCHG2] = "xchg2",
	[CAL_ADD_READERS] = "add_readers",
	[CAL_PACKED] = "packed",
	[CAL_PADDED] = "padded",
};

const char *const cal_placement_names[NR_CAL_PLACEMENT] = {
	[CAL_IDLE] = "idle",
	[CAL_COMPACT] = "compact",
	[CAL_SPREAD] = "spread",
};

static const char usage_text[] =
	"usage: memcgsim calibrate [-o PROFILE] [--cpus LIST] [--quick] [-q]\n"
	"       memcgsim calibrate --check PROFILE [MEASUREMENTS] [--tolerance PCT]\n"
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
	"  -h, --help            this text\n"
	"\n"
	"Exit status: 0 success; 1 a benchmark could not run, or --check found\n"
	"an error above the tolerance; 2 bad input or usage.\n";

struct cal_opts {
	const char *out;
	const char *cpus;
	bool quick, quiet, check;
	double tolerance;
};

static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("memcgsim: error: calibrate: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'memcgsim calibrate --help'.\n", stderr);
	return EXIT_BAD_INPUT;
}

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

static enum cal_bench xfer_class(const struct cal_cpu *a,
				 const struct cal_cpu *b)
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
 * make_plan() - every point of a run on @h's enabled CPUs. Returns 0, or
 * -1 with @err set when the topology needs a class no two enabled CPUs
 * fall in (the profile could not be complete).
 */
static int make_plan(const struct cal_host *h, bool quick, struct cal_plan *pl,
		     struct sim_error *err)
{
	static unsigned int order[NR_CAL_PLACEMENT][CAL_MAX_CPUS];
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
	pl->points = calloc(2 * CAL_NR_IDLE + 2 * nr_counts * 6,
			    sizeof(*pl->points));
	SIM_BUG_ON(!pl->points);

	for (b = CAL_L1_HIT; b <= CAL_RMW_LOCAL; b++)
		add_point(pl, b, CAL_IDLE, 1, order[CAL_COMPACT]);
	/* One pair per distance class, the first found from the first CPU. */
	for (b = CAL_XFER_SMT; b <= CAL_XFER_SOCKET; b++) {
		for (i = 0; i < nr; i++) {
			for (j = i + 1; j < nr; j++) {
				unsigned int pair[2] = { order[CAL_COMPACT][i],
							 order[CAL_COMPACT][j] };

				if (xfer_class(&h->cpus[pair[0]],
					       &h->cpus[pair[1]]) != b)
					continue;
				add_point(pl, b, CAL_IDLE, 2, pair);
				/* the upgrade of each class but SMT's */
				if (b != CAL_XFER_SMT)
					add_point(pl, CAL_LOAD_XCHG_PP,
						  CAL_IDLE, 2, pair);
				break;
			}
			if (j < nr)
				break;
		}
	}
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
			for (b = CAL_ADD; b <= CAL_PADDED; b++)
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
	return 0;
fail:
	if (tty)
		fputc('\n', stderr);
	return -1;
}

/* ---- YAML out ---- */

/* An emitter with a sticky failure flag, so calls can be chained. */
struct yw {
	yaml_emitter_t em;
	bool failed;
};

static void yw_event(struct yw *y, yaml_event_t *ev, int ok)
{
	if (!ok || y->failed) {
		if (ok)
			yaml_event_delete(ev);
		y->failed = true;
		return;
	}
	if (!yaml_emitter_emit(&y->em, ev))
		y->failed = true;
}

/* A scalar; @quoted forces double quotes (free text, dates). */
static void yw_str(struct yw *y, const char *s, bool quoted)
{
	yaml_event_t ev;

	yw_event(y, &ev,
		 yaml_scalar_event_initialize(
			 &ev, NULL, NULL, (yaml_char_t *)s, -1, !quoted, 1,
			 quoted ? YAML_DOUBLE_QUOTED_SCALAR_STYLE :
				  YAML_ANY_SCALAR_STYLE));
}

static void yw_fmt(struct yw *y, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void yw_fmt(struct yw *y, const char *fmt, ...)
{
	char buf[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	yw_str(y, buf, false);
}

static void yw_map(struct yw *y, bool flow)
{
	yaml_event_t ev;

	yw_event(y, &ev,
		 yaml_mapping_start_event_initialize(
			 &ev, NULL, NULL, 1,
			 flow ? YAML_FLOW_MAPPING_STYLE :
				YAML_BLOCK_MAPPING_STYLE));
}

static void yw_seq(struct yw *y, bool flow)
{
	yaml_event_t ev;

	yw_event(y, &ev,
		 yaml_sequence_start_event_initialize(
			 &ev, NULL, NULL, 1,
			 flow ? YAML_FLOW_SEQUENCE_STYLE :
				YAML_BLOCK_SEQUENCE_STYLE));
}

static void yw_end_map(struct yw *y)
{
	yaml_event_t ev;

	yw_event(y, &ev, yaml_mapping_end_event_initialize(&ev));
}

static void yw_end_seq(struct yw *y)
{
	yaml_event_t ev;

	yw_event(y, &ev, yaml_sequence_end_event_initialize(&ev));
}

static void yw_begin(struct yw *y, FILE *out)
{
	yaml_event_t ev;

	memset(y, 0, sizeof(*y));
	if (!yaml_emitter_initialize(&y->em)) {
		y->failed = true;
		return;
	}
	yaml_emitter_set_output_file(&y->em, out);
	yaml_emitter_set_unicode(&y->em, 1);
	yaml_emitter_set_width(&y->em, -1);
	yw_event(y, &ev,
		 yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
	yw_event(y, &ev,
		 yaml_document_start_event_initialize(&ev, NULL, NULL, NULL,
						      1));
	yw_map(y, false);
}

static int yw_finish(struct yw *y)
{
	yaml_event_t ev;
	bool failed;

	yw_end_map(y);
	yw_event(y, &ev, yaml_document_end_event_initialize(&ev, 1));
	yw_event(y, &ev, yaml_stream_end_event_initialize(&ev));
	if (!y->failed && !yaml_emitter_flush(&y->em))
		y->failed = true;
	failed = y->failed;
	/* errno is the write's when the writer failed, else say EIO */
	if (failed && y->em.error != YAML_WRITER_ERROR)
		errno = EIO;
	yaml_emitter_delete(&y->em);
	return failed ? -1 : 0;
}

static void kv_str(struct yw *y, const char *key, const char *val, bool quoted)
{
	yw_str(y, key, false);
	yw_str(y, val, quoted);
}

static void kv_uint(struct yw *y, const char *key, unsigned long long v)
{
	yw_str(y, key, false);
	yw_fmt(y, "%llu", v);
}

/* "0-17,36-53": @n host CPU numbers in the order given, runs collapsed. */
static void cpulist(const struct cal_host *h, const unsigned int *idx,
		    unsigned int n, char *buf, size_t size)
{
	size_t len = 0;
	unsigned int i, j;

	buf[0] = '\0';
	for (i = 0; i < n && len < size; i = j + 1) {
		unsigned int first = h->cpus[idx[i]].os;

		for (j = i; j + 1 < n &&
			    h->cpus[idx[j + 1]].os == h->cpus[idx[j]].os + 1;
		     j++)
			;
		if (j == i)
			len += (size_t)snprintf(buf + len, size - len, "%s%u",
						i ? "," : "", first);
		else
			len += (size_t)snprintf(buf + len, size - len,
						"%s%u-%u", i ? "," : "", first,
						h->cpus[idx[j]].os);
	}
}

/* ---- the measurement file ---- */

struct meas_args {
	const struct cal_host *h;
	const struct cal_plan *pl;
	const char *profile;
};

static int write_measurements(FILE *out, void *arg)
{
	const struct meas_args *a = arg;
	const struct cal_host *h = a->h;
	struct yw y;
	unsigned int i, r;

	fprintf(out,
		"# SPDX-License-Identifier: GPL-2.0-only\n"
		"# The raw table behind %s, written by memcgsim calibrate.\n"
		"# Every value is nanoseconds per operation: the window / the\n"
		"# operations of all the point's threads (1e9 / throughput; for\n"
		"# add_readers, of the adder alone); for xfer_*, a CAS ping-pong's\n"
		"# round trip / 2. cpus: Linux CPU numbers, the first one wrote the\n"
		"# lines first. Refit or check with: memcgsim calibrate --check\n"
		"# PROFILE THIS-FILE\n",
		a->profile);
	yw_begin(&y, out);
	kv_str(&y, "format", MEAS_FORMAT, false);
	kv_str(&y, "profile", a->profile, true);
	kv_str(&y, "date", h->date, true);
	kv_str(&y, "cpu_model", h->cpu_model, true);
	kv_str(&y, "kernel", h->kernel, true);
	kv_str(&y, "quick", a->pl->quick ? "true" : "false", false);
	kv_uint(&y, "repetitions", a->pl->reps);
	yw_str(&y, "window_s", false);
	yw_fmt(&y, "%g", a->pl->window_s);
	yw_str(&y, "topology", false);
	yw_map(&y, false);
	kv_uint(&y, "sockets", h->sockets);
	kv_uint(&y, "cores_per_socket", h->cores_per_socket);
	kv_uint(&y, "threads_per_core", h->threads_per_core);
	kv_uint(&y, "cores_per_llc", h->cores_per_llc);
	kv_str(&y, "numbering",
	       h->threads_adjacent ? "threads_adjacent" : "threads_last",
	       false);
	kv_uint(&y, "l1_bytes", h->l1_bytes);
	kv_uint(&y, "l2_bytes", h->l2_bytes);
	kv_uint(&y, "llc_bytes", h->llc_bytes);
	yw_end_map(&y);
	yw_str(&y, "cpus", false);
	yw_seq(&y, false);
	for (i = 0; i < h->nr_cpus; i++) {
		const struct cal_cpu *c = &h->cpus[i];

		yw_map(&y, true);
		kv_uint(&y, "cpu", c->os);
		kv_uint(&y, "socket", c->socket);
		kv_uint(&y, "core", c->core);
		kv_uint(&y, "thread", c->thread);
		kv_uint(&y, "llc", c->llc);
		yw_end_map(&y);
	}
	yw_end_seq(&y);
	yw_str(&y, "points", false);
	yw_seq(&y, false);
	for (i = 0; i < a->pl->nr_points; i++) {
		const struct cal_point *p = &a->pl->points[i];

		yw_map(&y, true);
		kv_str(&y, "benchmark", cal_bench_names[p->bench], false);
		kv_str(&y, "placement", cal_placement_names[p->placement],
		       false);
		yw_str(&y, "cpus", false);
		yw_seq(&y, true);
		for (r = 0; r < p->n; r++)
			yw_fmt(&y, "%u", h->cpus[p->cpu_idx[r]].os);
		yw_end_seq(&y);
		yw_str(&y, "median", false);
		yw_fmt(&y, "%.2f", p->median);
		yw_str(&y, "q1", false);
		yw_fmt(&y, "%.2f", p->q1);
		yw_str(&y, "q3", false);
		yw_fmt(&y, "%.2f", p->q3);
		yw_str(&y, "samples", false);
		yw_seq(&y, true);
		for (r = 0; r < p->reps; r++)
			yw_fmt(&y, "%.2f", p->samples[r]);
		yw_end_seq(&y);
		yw_end_map(&y);
	}
	yw_end_seq(&y);
	return yw_finish(&y);
}

/* ---- the fit and the profile ---- */

struct fit {
	const struct cal_point *idle[CAL_NR_IDLE]; /* the medians, or NULL */
	double hold_ns; /* coherence.hold; 0: strict hand-off */
	double hold_add_ns, hold_xfer_ns; /* its point's m and x */
	unsigned int hold_points;
	double waiter_ns; /* xfer_per_waiter */
	unsigned int waiter_points;
	double inval_ns; /* inval_per_sharer */
	unsigned int inval_points;
	bool waiter_clamped, inval_clamped;
	/* the hand-off law's terms, ns; negative: not fitted */
	double upgrade_llc_ns, upgrade_socket_ns;
	double conflict_local_ns, conflict_remote_ns;
	unsigned int law_points;
	char law_why[512];
};

/* Mean idle hand-off around @p's rotation (cpus[0] -> cpus[1] ... -> 0). */
static double rotation_ns(const struct cal_host *h, const struct fit *f,
			  const struct cal_point *p)
{
	double sum = 0;
	unsigned int i;

	for (i = 0; i < p->n; i++) {
		enum cal_bench b =
			xfer_class(&h->cpus[p->cpu_idx[i]],
				   &h->cpus[p->cpu_idx[(i + 1) % p->n]]);

		if (!f->idle[b])
			return NAN;
		sum += f->idle[b]->median;
	}
	return sum / p->n;
}

/*
 * strict_ns() - an add point's ns per add as the cost of one hand-off:
 * m x (1 + H / r) - H, the cycle less the hold window (m itself when the
 * hand-off is strict).
 */
static double strict_ns(const struct fit *f, const struct cal_point *p)
{
	double r = f->idle[CAL_RMW_LOCAL] ? f->idle[CAL_RMW_LOCAL]->median : 0;

	if (!f->hold_ns || !r)
		return p->median;
	return p->median * (1 + f->hold_ns / r) - f->hold_ns;
}

static void fit(const struct cal_plan *pl, struct fit *f)
{
	double sk = 0, sc = 0, skk = 0, skc = 0;
	unsigned int i, nk = 0, kmin = UINT32_MAX, kmax = 0;

	memset(f, 0, sizeof(*f));
	f->upgrade_llc_ns = f->upgrade_socket_ns = -1;
	f->conflict_local_ns = f->conflict_remote_ns = -1;
	for (i = 0; i < pl->nr_points; i++)
		if (pl->points[i].bench < CAL_NR_IDLE)
			f->idle[pl->points[i].bench] = &pl->points[i];
	for (i = 0; i < pl->nr_points; i++) {
		const struct cal_point *p = &pl->points[i];
		double x = p->n - 1;

		if (p->bench != CAL_ADD_READERS)
			continue;
		sk += x;
		sc += p->median;
		skk += x * x;
		skc += x * p->median;
		nk++;
		kmin = p->n - 1 < kmin ? p->n - 1 : kmin;
		kmax = p->n - 1 > kmax ? p->n - 1 : kmax;
	}
	if (nk >= 2 && kmax > kmin) {
		f->inval_points = nk;
		f->inval_ns = (nk * skc - sk * sc) / (nk * skk - sk * sk);
		if (f->inval_ns < 0) {
			f->inval_ns = 0;
			f->inval_clamped = true;
		}
	}
}

/* xfer_per_waiter, once the hold window is known: see the file header. */
static void fit_waiter(const struct cal_host *h, const struct cal_plan *pl,
		       struct fit *f)
{
	double sxy = 0, sxx = 0;
	unsigned int i;

	for (i = 0; i < pl->nr_points; i++) {
		const struct cal_point *p = &pl->points[i];
		double x = p->n - 1, e = strict_ns(f, p) - rotation_ns(h, f, p);

		/* each hand-off: x + w (N - 1), the others queued */
		if (p->bench == CAL_ADD && p->n > 2 && !isnan(e)) {
			sxy += e * x;
			sxx += x * x;
			f->waiter_points++;
		}
	}
	if (sxx > 0)
		f->waiter_ns = sxy / sxx;
	if (f->waiter_ns < 0) {
		f->waiter_ns = 0;
		f->waiter_clamped = true;
	}
}

/*
 * hold_for() - the hold window, in ps, for which the model's add on @p's
 * two CPUs costs @p's measured ns per add. More hold lets more adds go
 * local per hand-off, but within a window's worth of adds a longer window
 * only adds time, so the cost is a sawtooth in the window: scan it in
 * steps of half a local add up to ten hand-offs and twenty adds, then
 * around the best in steps of a fiftieth, and take the first closest. 0
 * (strict) when even a hand-off per add is as cheap as measured.
 */
static uint64_t hold_for(struct machine *m, const struct cal_host *h,
			 struct cal_point *p, struct sim_error *err)
{
	uint64_t r = m->rmw_local_ps, best = 0, from, to, step, v;
	uint64_t x = m->xfer_ps[COH_DIST_SOCKET] > m->xfer_ps[COH_DIST_LLC] ?
			     m->xfer_ps[COH_DIST_SOCKET] :
			     m->xfer_ps[COH_DIST_LLC];
	double want = p->median, best_err;
	unsigned int pass;

	m->handoff = COH_HANDOFF_STRICT;
	m->hold_ps = 0;
	if (cal__sim_run(m, h, p, err))
		return UINT64_MAX;
	if (p->predicted <= want)
		return 0;
	best_err = fabs(p->predicted - want);
	m->handoff = COH_HANDOFF_HOLD;
	from = 10;
	to = 10 * x + 20 * r;
	step = r / 2 > 10 ? r / 2 : 10;
	for (pass = 0; pass < 2; pass++) {
		for (v = from; v <= to; v += step) {
			m->hold_ps = v;
			if (cal__sim_run(m, h, p, err))
				return UINT64_MAX;
			if (fabs(p->predicted - want) < best_err) {
				best_err = fabs(p->predicted - want);
				best = v;
			}
		}
		from = best > step ? best - step : 10;
		to = best + step;
		step = step / 25 > 10 ? step / 25 : 10;
	}
	return best;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * fit_hold() - the hold window from the two-party add points: the median
 * (the lower middle one) of hold_for() over them, on @m, the profile fitted
 * so far. Return 0, or -1 with @err set.
 */
static int fit_hold(struct machine *m, const struct cal_host *h,
		    struct cal_plan *pl, struct fit *f, struct sim_error *err)
{
	uint64_t hs[2 * NR_CAL_PLACEMENT];
	struct cal_point *at[2 * NR_CAL_PLACEMENT];
	unsigned int i, n = 0, k;

	for (i = 0; i < pl->nr_points && n < ARRAY_SIZE(hs); i++) {
		struct cal_point *p = &pl->points[i];

		if (p->bench != CAL_ADD || p->n != 2)
			continue;
		/* steps of 10 ps: what the profile's two decimals keep */
		hs[n] = hold_for(m, h, p, err);
		if (hs[n] == UINT64_MAX)
			return -1;
		at[n++] = p;
	}
	if (!n)
		return 0;
	f->hold_points = n;
	qsort(hs, n, sizeof(*hs), cmp_u64);
	f->hold_ns = (double)hs[(n - 1) / 2] / 1000.0;
	/* the point whose window it is, for the source */
	for (k = 0; k < n; k++) {
		uint64_t v = hold_for(m, h, at[k], err);

		if (v == hs[(n - 1) / 2]) {
			f->hold_add_ns = at[k]->median;
			f->hold_xfer_ns = rotation_ns(h, f, at[k]);
			break;
		}
	}
	return 0;
}

struct profile_args {
	const struct cal_host *h;
	const struct cal_plan *pl;
	const char *meas_name; /* the raw table's file name */
	const char *file; /* the profile's */
	char name[64];
	struct fit f;
};

/* "[M] memcgsim calibrate BENCH, DATE, CPU, KERNEL: WHAT; raw table F" */
static void source_m(struct yw *y, const struct profile_args *a,
		     const char *bench, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void source_m(struct yw *y, const struct profile_args *a,
		     const char *bench, const char *fmt, ...)
{
	char what[512], buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(buf, sizeof(buf),
		 "[M] memcgsim calibrate %s, %s, %s, %s: %s; raw table %s",
		 bench, a->h->date, a->h->cpu_model, a->h->kernel, what,
		 a->meas_name);
	kv_str(y, "source", buf, true);
}

static void latency(struct yw *y, const char *key, double ns)
{
	yw_str(y, key, false);
	yw_map(y, false);
	yw_str(y, "ns", false);
	yw_fmt(y, "%.2f", ns);
}

static void idle_latency(struct yw *y, const struct profile_args *a,
			 const struct fit *f, enum cal_bench b)
{
	const struct cal_point *p = f->idle[b];
	char cpus[64];

	if (!p)
		return;
	cpulist(a->h, p->cpu_idx, p->n, cpus, sizeof(cpus));
	latency(y, cal_bench_names[b], p->median);
	source_m(y, a, cal_bench_names[b],
		 "median of %u repetitions, quartiles %.2f-%.2f ns, CPU%s %s",
		 p->reps, p->q1, p->q3, p->n > 1 ? "s" : "", cpus);
	yw_end_map(y);
}

#ifdef CAL_HAVE_LAW
/*
 * One term of the hand-off law, if fitted (@ns >= 0), with the lines of
 * coh_law_fit()'s account that start with @about.
 */
static void law_term(struct yw *y, const struct profile_args *a,
		     const char *key, const char *bench, const char *about,
		     double ns)
{
	const char *line = a->f.law_why;
	char said[512];
	size_t len = 0;

	if (ns < 0)
		return;
	said[0] = '\0';
	while (*line) {
		size_t n = strcspn(line, "\n");

		if (!strncmp(line, about, strlen(about)) && len < sizeof(said))
			len += (size_t)snprintf(said + len, sizeof(said) - len,
						"%s%.*s", len ? "; " : "",
						(int)n, line);
		line += n + (line[n] == '\n');
	}
	latency(y, key, ns);
	source_m(
		y, a, bench,
		"coh_law_fit (add points of 3 or more CPUs as the cost of a hand-off, the hold window taken out; load_xchg_pingpong points): %s",
		said);
	yw_end_map(y);
}
#endif

static int write_profile(FILE *out, void *arg)
{
	const struct profile_args *a = arg;
	const struct cal_host *h = a->h;
	const struct fit *fp = &a->f;
	struct yw y;
	char desc[512];
	enum cal_bench b;

	fprintf(out,
		"# SPDX-License-Identifier: GPL-2.0-only\n"
		"#\n"
		"# %s: measured by memcgsim calibrate%s on %s.\n"
		"# CPU: %s; kernel: %s.\n"
		"# Raw measurements: %s\n"
		"# (memcgsim calibrate --check %s %s compares the model\n"
		"# on this profile with them).\n",
		a->name, a->pl->quick ? " --quick" : "", h->date, h->cpu_model,
		h->kernel, a->meas_name, a->file, a->meas_name);
	snprintf(desc, sizeof(desc),
		 "%s, %u CPUs, measured by memcgsim calibrate on %s",
		 h->cpu_model, h->nr_cpus, h->date);
	yw_begin(&y, out);
	kv_str(&y, "name", a->name, false);
	kv_str(&y, "description", desc, true);
	kv_uint(&y, "sockets", h->sockets);
	kv_uint(&y, "cores_per_socket", h->cores_per_socket);
	kv_uint(&y, "threads_per_core", h->threads_per_core);
	kv_uint(&y, "cores_per_llc", h->cores_per_llc);
	kv_str(&y, "numbering",
	       h->threads_adjacent ? "threads_adjacent" : "threads_last",
	       false);
	yw_str(&y, "latencies", false);
	yw_map(&y, false);
	for (b = CAL_L1_HIT; b <= CAL_XFER_SOCKET; b++)
		idle_latency(&y, a, fp, b);

	latency(&y, "inval_per_sharer", fp->inval_ns ? fp->inval_ns : 2.0);
	if (fp->inval_points)
		source_m(
			&y, a, "add_readers",
			"least-squares slope of the adder's ns/op against its k readers over %u points%s",
			fp->inval_points,
			fp->inval_clamped ? ", negative, clamped to 0" : "");
	else
		kv_str(&y, "source",
		       "[P] not measurable on this host: needs add_readers with 2 different reader counts (3 CPUs); hw-params 5.3's low end, as the shipped profiles",
		       true);
	yw_end_map(&y);

#ifdef CAL_HAVE_LAW
	law_term(&y, a, "upgrade_llc", "load_xchg_pingpong", "upgrade (llc)",
		 fp->upgrade_llc_ns);
	law_term(&y, a, "upgrade_socket", "load_xchg_pingpong",
		 "upgrade (socket)", fp->upgrade_socket_ns);
	law_term(&y, a, "conflict_local", "add", "conflict",
		 fp->conflict_local_ns);
	law_term(&y, a, "conflict_remote", "add", "conflict",
		 fp->conflict_remote_ns);
#else
	latency(&y, "xfer_per_waiter", fp->waiter_ns);
	if (fp->waiter_points)
		source_m(
			&y, a, "add",
			"least squares through 0, over %u points of 3 or more CPUs, of each point's cost of a hand-off (ns per add x (1 + hold / rmw_local) - hold) less the mean idle hand-off of its rotation, against the N-1 CPUs queued%s",
			fp->waiter_points,
			fp->waiter_clamped ? "; negative, clamped to 0" : "");
	else
		source_m(
			&y, a, "add",
			"no point with 3 or more CPUs: nothing queues behind a two-party hand-off, so nothing fixes it; 0");
	yw_end_map(&y);
#endif
	yw_end_map(&y); /* latencies */

	yw_str(&y, "coherence", false);
	yw_map(&y, false);
	kv_str(&y, "handoff", fp->hold_ns > 0 ? "hold" : "strict", false);
	if (fp->hold_ns > 0) {
		latency(&y, "hold", fp->hold_ns);
		source_m(
			&y, a, "add",
			"two CPUs' locked adds cost %.2f ns each, against a %.2f ns idle hand-off and %.2f ns for an add on an owned line: the CPU that receives a line keeps it a while: the window for which the model's add on the same two CPUs costs the same (a scan of the simulation), median over %u point%s",
			fp->hold_add_ns, fp->hold_xfer_ns,
			fp->idle[CAL_RMW_LOCAL]->median, fp->hold_points,
			fp->hold_points > 1 ? "s" : "");
		yw_end_map(&y);
	}
	yw_end_map(&y);
	return yw_finish(&y);
}

#ifdef CAL_HAVE_LAW
/*
 * fit_law() - the hand-off law's terms by coh_law_fit() on @m, the profile
 * fitted so far: the add points of 3 or more CPUs (each as the cost of a
 * hand-off, strict_ns(): the hold window taken out) fix conflict_local and
 * conflict_remote, the load_xchg_pingpong points upgrade_llc and
 * upgrade_socket. A term is written only when a point can fix it.
 */
static int fit_law(struct machine *m, const struct cal_host *h,
		   const struct cal_plan *pl, struct fit *f,
		   struct sim_error *err)
{
	struct coh_law_point *pts = calloc(pl->nr_points, sizeof(*pts));
	unsigned int *cpus =
		calloc((size_t)pl->nr_points * CAL_MAX_CPUS, sizeof(*cpus));
	bool llc = false, socket = false, remote = false;
	unsigned int i, j, n = 0;
	int ret = -1;

	SIM_BUG_ON(!pts || !cpus);
	for (i = 0; i < pl->nr_points; i++) {
		const struct cal_point *p = &pl->points[i];
		struct coh_law_point *q = &pts[n];
		unsigned int *c = cpus + (size_t)n * CAL_MAX_CPUS;

		if (!(p->bench == CAL_ADD && p->n >= 3) &&
		    p->bench != CAL_LOAD_XCHG_PP)
			continue;
		if (cal__sim_map(m, h, p, c, err))
			goto out;
		q->bench = p->bench == CAL_ADD ? COH_BENCH_ADD :
						 COH_BENCH_LOAD_XCHG_PINGPONG;
		q->nr_cpus = p->n;
		q->cpus = c;
		q->ns_per_op = p->bench == CAL_ADD ? strict_ns(f, p) :
						     p->median;
		q->spread_ns = (p->q3 - p->q1) / 1.349; /* IQR as a stddev */
		for (j = 1; j < p->n; j++) {
			bool other = m->cpus[c[j]].socket !=
				     m->cpus[c[0]].socket;

			if (p->bench == CAL_ADD)
				remote |= other;
			else if (other)
				socket = true;
			else
				llc = true;
		}
		n++;
	}
	f->law_points = n;
	ret = 0;
	if (!n)
		goto out;
	if (coh_law_fit(pts, n, m, f->law_why, sizeof(f->law_why)) < 0)
		goto out;
	if (llc)
		f->upgrade_llc_ns = m->upgrade_ps[COH_DIST_LLC] / 1000.0;
	if (socket)
		f->upgrade_socket_ns = m->upgrade_ps[COH_DIST_SOCKET] / 1000.0;
	for (i = 0; i < n; i++)
		if (pts[i].bench == COH_BENCH_ADD) {
			f->conflict_local_ns = m->conflict_local_ps / 1000.0;
			if (remote)
				f->conflict_remote_ns =
					m->conflict_remote_ps / 1000.0;
			break;
		}
out:
	free(pts);
	free(cpus);
	return ret;
}
#endif

/*
 * fit_profile() - every fitted number of the profile into @pa->f: the
 * medians and the slopes, then the hold window by simulation on the
 * profile written so far (which must load: a check of the writer), then
 * xfer_per_waiter. Return 0, or -1 with @err set.
 */
static int fit_profile(struct profile_args *pa, struct sim_error *err)
{
	struct scenario_node *root;
	struct machine m;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int ret = -1;

	fit(pa->pl, &pa->f);
	mem = open_memstream(&buf, &len);
	if (!mem || write_profile(mem, pa) || fclose(mem)) {
		sim_error_set(err, "", 0, 0, "out of memory");
		free(buf);
		return -1;
	}
	root = scenario_parse_string(pa->file, buf, err);
	free(buf);
	if (!root)
		return -1;
	if (!machine_load(&m, root, err)) {
		ret = fit_hold(&m, pa->h, (struct cal_plan *)pa->pl, &pa->f,
			       err);
#ifdef CAL_HAVE_LAW
		if (!ret)
			ret = fit_law(&m, pa->h, pa->pl, &pa->f, err);
#endif
		machine_destroy(&m);
	}
	scenario_free(root);
	if (!ret)
		fit_waiter(pa->h, pa->pl, &pa->f);
	return ret;
}

/* ---- reading a measurement file ---- */

static const char *const meas_keys[] = {
	"format",      "profile",  "date",     "cpu_model", "kernel", "quick",
	"repetitions", "window_s", "topology", "cpus",	    "points",
};
static const char *const topo_keys[] = {
	"sockets",   "cores_per_socket", "threads_per_core", "cores_per_llc",
	"numbering", "l1_bytes",	 "l2_bytes",	     "llc_bytes",
};
static const char *const cpu_keys[] = { "cpu", "socket", "core", "thread",
					"llc" };
static const char *const point_keys[] = {
	"benchmark", "placement", "cpus", "median", "q1", "q3", "samples",
};
static const char *const numbering_names[] = { "threads_last",
					       "threads_adjacent" };

static int expect_seq(const struct scenario_node *map, const char *key,
		      size_t min, size_t max, const struct scenario_node **out,
		      struct sim_error *err)
{
	const struct scenario_node *n = scenario_get(map, key);

	if (!n) {
		sim_error_set(err, scenario_file(map), scenario_line(map),
			      scenario_col(map), "missing key '%s'", key);
		return -1;
	}
	if (scenario_kind(n) != SCENARIO_SEQ || scenario_len(n) < min ||
	    scenario_len(n) > max) {
		scenario_error(err, n, "expected a list of %zu to %zu entries",
			       min, max);
		return -1;
	}
	*out = n;
	return 0;
}

static int copy_string(const struct scenario_node *map, const char *key,
		       char *buf, size_t size, struct sim_error *err)
{
	const char *s;

	if (scenario_string(map, key, true, NULL, &s, err))
		return -1;
	snprintf(buf, size, "%s", s);
	return 0;
}

static int read_cpus(struct cal_host *h, const struct scenario_node *root,
		     struct sim_error *err)
{
	const struct scenario_node *seq;
	unsigned int i, j;

	if (expect_seq(root, "cpus", 2, CAL_MAX_CPUS, &seq, err))
		return -1;
	h->nr_cpus = scenario_len(seq);
	for (i = 0; i < h->nr_cpus; i++) {
		const struct scenario_node *c = scenario_item(seq, i);
		uint64_t os, s, core, t, llc;

		if (scenario_check_keys(c, cpu_keys, ARRAY_SIZE(cpu_keys),
					err) ||
		    scenario_u64(c, "cpu", true, 0, 0, 1u << 20, &os, err) ||
		    scenario_u64(c, "socket", true, 0, 0, h->sockets - 1, &s,
				 err) ||
		    scenario_u64(c, "core", true, 0, 0, h->cores_per_socket - 1,
				 &core, err) ||
		    scenario_u64(c, "thread", true, 0, 0,
				 h->threads_per_core - 1, &t, err) ||
		    scenario_u64(c, "llc", true, 0, 0,
				 h->cores_per_socket / h->cores_per_llc - 1,
				 &llc, err))
			return -1;
		for (j = 0; j < i; j++)
			if (h->cpus[j].os == os) {
				scenario_error(err, scenario_get(c, "cpu"),
					       "CPU %llu is listed twice",
					       (unsigned long long)os);
				return -1;
			}
		h->cpus[i] = (struct cal_cpu){ .os = os,
					       .socket = s,
					       .core = core,
					       .thread = t,
					       .llc = llc,
					       .enabled = true };
	}
	return 0;
}

static int read_number(const struct scenario_node *n, double min, double max,
		       double *out, struct sim_error *err)
{
	const char *s = scenario_scalar(n);
	char *end;

	if (s) {
		errno = 0;
		*out = strtod(s, &end);
		if (!errno && end != s && !*end && *out >= min && *out <= max)
			return 0;
	}
	scenario_error(err, n, "expected a number from %g to %g, found '%s'",
		       min, max, s ? s : "a map or list");
	return -1;
}

static int read_point(const struct cal_host *h, struct cal_point *p,
		      const struct scenario_node *n, struct sim_error *err)
{
	const struct scenario_node *cpus, *samples;
	unsigned int b, place, i, j;
	double v;

	if (scenario_check_keys(n, point_keys, ARRAY_SIZE(point_keys), err) ||
	    scenario_enum(n, "benchmark", true, 0, cal_bench_names,
			  NR_CAL_BENCH, &b, err) ||
	    scenario_enum(n, "placement", true, 0, cal_placement_names,
			  NR_CAL_PLACEMENT, &place, err) ||
	    expect_seq(n, "cpus", 1, h->nr_cpus, &cpus, err) ||
	    expect_seq(n, "samples", 1, CAL_MAX_REPS, &samples, err) ||
	    scenario_double(n, "median", false, 0, 0, 1e9, &v, err) ||
	    scenario_double(n, "q1", false, 0, 0, 1e9, &v, err) ||
	    scenario_double(n, "q3", false, 0, 0, 1e9, &v, err))
		return -1;
	p->bench = b;
	p->placement = place;
	p->n = scenario_len(cpus);
	for (i = 0; i < p->n; i++) {
		const struct scenario_node *c = scenario_item(cpus, i);

		if (read_number(c, 0, 1u << 20, &v, err))
			return -1;
		for (j = 0; j < h->nr_cpus; j++)
			if (h->cpus[j].os == v)
				break;
		if (j == h->nr_cpus) {
			scenario_error(err, c, "CPU %g is not in 'cpus'", v);
			return -1;
		}
		p->cpu_idx[i] = j;
	}
	if ((b < CAL_XFER_SMT) != (p->n == 1) ||
	    (cal_bench_pingpong(b) && p->n != 2) ||
	    (place == CAL_IDLE) != (b < CAL_ADD)) {
		scenario_error(
			err, n, "%s with %u CPUs, placement %s: expected %s",
			cal_bench_names[b], p->n, cal_placement_names[place],
			b < CAL_XFER_SMT ?
				"1 CPU, placement idle" :
			b < CAL_ADD ?
				"2 CPUs, placement idle" :
				"2 or more CPUs, placement compact or spread");
		return -1;
	}
	if (b >= CAL_XFER_SMT && b <= CAL_XFER_SOCKET &&
	    xfer_class(&h->cpus[p->cpu_idx[0]], &h->cpus[p->cpu_idx[1]]) != b) {
		scenario_error(err, cpus, "CPUs %u and %u are not a %s pair",
			       h->cpus[p->cpu_idx[0]].os,
			       h->cpus[p->cpu_idx[1]].os, cal_bench_names[b]);
		return -1;
	}
	p->reps = scenario_len(samples);
	for (i = 0; i < p->reps; i++)
		if (read_number(scenario_item(samples, i), 1e-3, 1e9,
				&p->samples[i], err))
			return -1;
	cal__point_stats(p);
	return 0;
}

/*
 * read_measurements() - load a measurement file: the host into @h, its
 * points into @pl. Return 0, or -1 with @err at the offending line.
 */
static int read_measurements(const char *path, struct cal_host *h,
			     struct cal_plan *pl, struct sim_error *err)
{
	const struct scenario_node *topo, *points;
	struct scenario_node *root;
	const char *format;
	uint64_t v[4], reps;
	unsigned int numbering, i;
	int ret = -1;

	memset(h, 0, sizeof(*h));
	memset(pl, 0, sizeof(*pl));
	root = scenario_load_file(path, err);
	if (!root)
		return -1;
	if (scenario_check_keys(root, meas_keys, ARRAY_SIZE(meas_keys), err) ||
	    scenario_string(root, "format", true, NULL, &format, err))
		goto out;
	if (strcmp(format, MEAS_FORMAT)) {
		scenario_error(err, scenario_get(root, "format"),
			       "expected '%s', found '%s'", MEAS_FORMAT,
			       format);
		goto out;
	}
	topo = scenario_get(root, "topology");
	if (!topo) {
		sim_error_set(err, path, scenario_line(root),
			      scenario_col(root), "missing key 'topology'");
		goto out;
	}
	if (copy_string(root, "date", h->date, sizeof(h->date), err) ||
	    copy_string(root, "cpu_model", h->cpu_model, sizeof(h->cpu_model),
			err) ||
	    copy_string(root, "kernel", h->kernel, sizeof(h->kernel), err) ||
	    scenario_bool(root, "quick", false, false, &pl->quick, err) ||
	    scenario_u64(root, "repetitions", false, 1, 1, CAL_MAX_REPS, &reps,
			 err) ||
	    scenario_double(root, "window_s", false, 0, 0, 3600, &pl->window_s,
			    err) ||
	    scenario_check_keys(topo, topo_keys, ARRAY_SIZE(topo_keys), err) ||
	    scenario_u64(topo, "sockets", true, 0, 1, 64, &v[0], err) ||
	    scenario_u64(topo, "cores_per_socket", true, 0, 1, 1024, &v[1],
			 err) ||
	    scenario_u64(topo, "threads_per_core", true, 0, 1, 8, &v[2], err) ||
	    scenario_u64(topo, "cores_per_llc", true, 0, 1, v[1], &v[3], err) ||
	    scenario_enum(topo, "numbering", false, 0, numbering_names, 2,
			  &numbering, err))
		goto out;
	h->sockets = v[0];
	h->cores_per_socket = v[1];
	h->threads_per_core = v[2];
	h->cores_per_llc = v[3];
	h->threads_adjacent = numbering == 1;
	pl->reps = reps;
	if (read_cpus(h, root, err) ||
	    expect_seq(root, "points", 1, 100000, &points, err))
		goto out;
	pl->nr_points = scenario_len(points);
	pl->points = calloc(pl->nr_points, sizeof(*pl->points));
	SIM_BUG_ON(!pl->points);
	for (i = 0; i < pl->nr_points; i++)
		if (read_point(h, &pl->points[i], scenario_item(points, i),
			       err))
			goto out;
	ret = 0;
out:
	scenario_free(root);
	if (ret) {
		free(pl->points);
		pl->points = NULL;
	}
	return ret;
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
	       profile, m.name, meas_name, h->date, h->cpu_model, h->kernel,
	       tolerance);
	printf("%-18s %-9s %4s %-14s %10s %-21s %10s %8s\n", "benchmark",
	       "placement", "N", "cpus", "measured", "[q1 - q3]", "predicted",
	       "error");
	for (i = 0; i < pl->nr_points; i++) {
		const struct cal_point *p = &pl->points[i];
		char cpus[512], quart[64];
		double e;

		cpulist(h, p->cpu_idx, p->n, cpus, sizeof(cpus));
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
	SIM_BUG_ON(!p);
	memcpy(p, profile, len);
	memcpy(p + len, MEAS_SUFFIX, sizeof(MEAS_SUFFIX));
	return p;
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
		{ "tolerance", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
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
		case 't':
			errno = 0;
			o->tolerance = strtod(optarg, &end);
			if (errno || end == optarg || *end ||
			    !(o->tolerance >= 0 && o->tolerance <= 1e6))
				return usage_error(
					"--tolerance: expected a percentage such as 25, found '%s'",
					optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return -1;
		case ':':
			return usage_error("option '%s' needs a value",
					   argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	return 0;
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
 * Return: the exit status (see cli/calibrate.h).
 */
int cmd_calibrate(int argc, char **argv)
{
	static struct cal_host h;
	struct cal_plan pl = { 0 };
	struct cal_opts o;
	struct sim_error err;
	int ret = parse_args(argc, argv, &o), nr_args;
	char **args;

	if (ret)
		return ret < 0 ? EXIT_SUCCESS : ret;
	nr_args = argc - optind;
	args = argv + optind;
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
			if (read_measurements(args[1], &h, &pl, &err))
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
		const char *out = o.out ? o.out : DEFAULT_PROFILE;
		char *meas = meas_path(out), *tmp_p = NULL, *tmp_m = NULL;
		struct profile_args pa = { .h = &h,
					   .pl = &pl,
					   .meas_name = base_name(meas),
					   .file = base_name(out) };
		struct meas_args ma = { .h = &h,
					.pl = &pl,
					.profile = base_name(out) };
		FILE *fp = NULL, *fm = NULL;
		size_t len;

		snprintf(pa.name, sizeof(pa.name), "%s", base_name(out));
		len = strcspn(pa.name, ".");
		pa.name[len ? len : strlen(pa.name)] = '\0';
		/* The files first: an unwritable PROFILE fails at once. */
		ret = EXIT_BAD_INPUT;
		if (!strcmp(out, "-"))
			sim_error_set(
				&err, "", 0, 0,
				"-o -: the profile needs a file, with its measurements beside it");
		else if ((fp = sim_atomic_open(out, &tmp_p, &err)) &&
			 (fm = sim_atomic_open(meas, &tmp_m, &err)) &&
			 !cal__host_probe(&h, o.cpus, &err) &&
			 !make_plan(&h, o.quick, &pl, &err))
			ret = measure(&h, &pl, o.quiet, &err) ? EXIT_FAIL : 0;
		if (!ret && fit_profile(&pa, &err))
			ret = EXIT_FAIL;
		if (!ret) {
			bool ok = !write_measurements(fm, &ma) &&
				  !write_profile(fp, &pa);

			if (!ok)
				sim_error_set(&err, out, 0, 0,
					      "cannot write: %s",
					      strerror(errno));
			ret = ok ? 0 : EXIT_FAIL;
		}
		if (fm && sim_atomic_close(fm, meas, tmp_m, !ret, &err))
			ret = EXIT_FAIL;
		if (fp && sim_atomic_close(fp, out, tmp_p, !ret, &err))
			ret = EXIT_FAIL;
		if (ret)
			print_error(&err, ret);
		else if (!o.quiet)
			fprintf(stderr,
				"memcgsim: calibrate: wrote %s and %s\n", out,
				meas);
		free(meas);
	}
	cal__host_release();
	free(pl.points);
	return ret;
}
