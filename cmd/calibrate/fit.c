// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/calibrate/fit.c - the machine profile `memcgsim calibrate` writes:
 * the numbers fitted from the measured points, each with its `[M]` source.
 *
 * Theory of operation. The idle latencies are the medians of their
 * repetitions. The contended points fix the rest, each from the points
 * that show it:
 *
 *  - coherence.hold: a CPU that receives a contended line keeps it a
 *    while (two CPUs' locked adds cost far less than a hand-off each): the
 *    window for which the model's add on the two CPUs of a two-CPU add
 *    point costs what was measured, found by simulating it (fit_hold());
 *    strict hand-off when a hand-off per add is already as cheap;
 *  - the hand-off law (models/hw/coh_law.h): upgrade_llc and
 *    upgrade_socket from load_xchg_pingpong, conflict_local and
 *    conflict_remote from the add points of 3 or more CPUs, by
 *    coh_law_fit(), each add point as the cost of one hand-off (its ns per
 *    add x (1 + hold / rmw_local) - hold);
 *  - inval_per_sharer: the slope of add_readers' cost against its k
 *    readers (needs two reader counts, 3 CPUs).
 *
 * A term no point fixes is left out (the loader's default) or, when the
 * schema requires it, written with a [P] source that says why. The
 * profile is written twice: a draft without hold, loaded as a machine to
 * simulate the hold window on (which also checks that it loads), then the
 * final one.
 */
#define _GNU_SOURCE

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "cmd/calibrate/calibrate.h"
#include "models/hw/machine.h"
/*
 * The hand-off law (models/hw/coh_law.h, issue 11 item 3): the profile
 * gets its terms, fitted by coh_law_fit(), instead of xfer_per_waiter.
 */
#include "models/hw/coh_law.h"
#include "sim/scenario.h"
#include "sim/util.h"

/* ---- the fit and the profile ---- */

/* Mean idle hand-off around @p's rotation (cpus[0] -> cpus[1] ... -> 0). */
static double rotation_ns(const struct cal_host *h, const struct cal_fit *f,
			  const struct cal_point *p)
{
	double sum = 0;
	unsigned int i;

	for (i = 0; i < p->n; i++) {
		enum cal_bench b =
			cal__xfer_class(&h->cpus[p->cpu_idx[i]],
					&h->cpus[p->cpu_idx[(i + 1) % p->n]]);

		if (!f->idle[b])
			return NAN;
		sum += f->idle[b]->median;
	}
	return sum / p->n;
}

/*
 * strict_of() - an add point's ns per add @m as the cost of one hand-off:
 * m x (1 + H / r) - H, the cycle less the hold window (m itself when the
 * hand-off is strict).
 */
static double strict_of(const struct cal_fit *f, double m)
{
	double r = f->idle[CAL_RMW_LOCAL] ? f->idle[CAL_RMW_LOCAL]->median : 0;

	if (!f->hold_ns || !r)
		return m;
	return m * (1 + f->hold_ns / r) - f->hold_ns;
}

static void fit(const struct cal_plan *pl, struct cal_fit *f)
{
	double sk = 0, sc = 0, skk = 0, skc = 0;
	unsigned int i, nk = 0, kmin = UINT32_MAX, kmax = 0;

	memset(f, 0, sizeof(*f));
	f->upgrade_llc_ns = f->upgrade_socket_ns = -1;
	f->conflict_local_ns = f->conflict_remote_ns = -1;
	/* the first of a class: more xfer_socket points are socket pairs */
	for (i = 0; i < pl->nr_points; i++)
		if (pl->points[i].bench < CAL_NR_IDLE &&
		    !f->idle[pl->points[i].bench])
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
	for (i = 0; i < pl->nr_points && !f->work_smt; i++)
		if (pl->points[i].bench == CAL_WORK_SMT &&
		    pl->points[i].alone) {
			f->work_smt = &pl->points[i];
			f->work = f->work_smt->alone;
			f->smt_slowdown = f->work_smt->median / f->work->median;
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

/* 20 x / r + 40 steps: every host with hand-offs under 100 adds fits. */
#define HOLD_SCAN_MAX 2048

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
			 struct cal_point *p, unsigned int *sims,
			 struct sim_error *err)
{
	uint64_t r = m->rmw_local_ps, best = 0, from, to, step, v;
	uint64_t x = m->xfer_ps[COH_DIST_SOCKET] > m->xfer_ps[COH_DIST_LLC] ?
			     m->xfer_ps[COH_DIST_SOCKET] :
			     m->xfer_ps[COH_DIST_LLC];
	double want = p->median, best_err;
	unsigned int pass;

	m->handoff = COH_HANDOFF_STRICT;
	m->hold_ps = 0;
	++*sims;
	if (cal__sim_run(m, h, p, err))
		return UINT64_MAX;
	if (p->predicted <= want)
		return 0;
	best_err = fabs(p->predicted - want);
	m->handoff = COH_HANDOFF_HOLD;
	from = 10;
	to = 10 * x + 20 * r;
	step = r / 2 > 10 ? r / 2 : 10;
	/*
	 * At most HOLD_SCAN_MAX simulations a pass, some 1 ms each: a file
	 * whose hand-offs cost a thousand adds would otherwise scan for
	 * minutes (issue 34, item 2: work the estimate cannot see).
	 */
	if ((to - from) / step > HOLD_SCAN_MAX)
		step = (to - from) / HOLD_SCAN_MAX;
	for (pass = 0; pass < 2; pass++) {
		for (v = from; v <= to; v += step) {
			m->hold_ps = v;
			++*sims;
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

/* One two-party add point and its hold window, in the order read. */
struct hold_at {
	uint64_t ps;
	unsigned int i;
	struct cal_point *p;
};

/* By window, then by the order read (qsort() is not stable). */
static int cmp_hold(const void *a, const void *b)
{
	const struct hold_at *x = a, *y = b;

	if (x->ps != y->ps)
		return (x->ps > y->ps) - (x->ps < y->ps);
	return (x->i > y->i) - (x->i < y->i);
}

/*
 * fit_hold() - the hold window from the two-party add points: the median
 * (the lower middle one) of hold_for() over them, on @m, the profile fitted
 * so far; the source names the first point read with that window. Each
 * point is scanned once: hold_for() runs at most HOLD_SCAN_MAX + 1
 * simulations in its first pass and some 50 in its second, and
 * @f->hold_sims counts them for the source. Return 0, or -1 with @err set.
 */
static int fit_hold(struct machine *m, const struct cal_host *h,
		    struct cal_plan *pl, struct cal_fit *f,
		    struct sim_error *err)
{
	struct hold_at at[2 * NR_CAL_PLACEMENT];
	unsigned int i, n = 0;
	const struct hold_at *mid;

	for (i = 0; i < pl->nr_points && n < ARRAY_SIZE(at); i++) {
		struct cal_point *p = &pl->points[i];

		if (p->bench != CAL_ADD || p->n != 2)
			continue;
		/* steps of 10 ps: what the profile's two decimals keep */
		at[n].ps = hold_for(m, h, p, &f->hold_sims, err);
		if (at[n].ps == UINT64_MAX)
			return -1;
		at[n].i = n;
		at[n++].p = p;
	}
	if (!n)
		return 0;
	f->hold_points = n;
	qsort(at, n, sizeof(*at), cmp_hold);
	mid = &at[(n - 1) / 2];
	/* the first point read whose window it is, for the source */
	for (i = 0; i < n; i++)
		if (at[i].ps == mid->ps) {
			mid = &at[i];
			break;
		}
	f->hold_ns = (double)mid->ps / 1000.0;
	f->hold_add_ns = mid->p->median;
	f->hold_xfer_ns = rotation_ns(h, f, mid->p);
	return 0;
}

/*
 * accept_smt() - smt_slowdown, work_smt's block time over work's, only
 * within the loader's 1 to 2 and when both points' repetitions spread by
 * at most CAL_SPREAD_MAX; else left out (no slowdown, the loader's
 * default) with a note that says why.
 */
static void accept_smt(struct cal_fit *f)
{
	size_t len = strlen(f->notes);
	double spread;

	if (!f->work_smt)
		return;
	spread =
		fmax((f->work->q3 - f->work->q1) / f->work->median,
		     (f->work_smt->q3 - f->work_smt->q1) / f->work_smt->median);
	if (f->smt_slowdown >= 1.0 && f->smt_slowdown <= 2.0 &&
	    spread <= CAL_SPREAD_MAX)
		return;
	if (spread > CAL_SPREAD_MAX)
		snprintf(
			f->notes + len, sizeof(f->notes) - len,
			"smt_slowdown left out (work and work_smt spread by %.0f%% of their median (IQR), more than %.0f%%: measure again on a quieter host)\n",
			100 * spread, 100 * CAL_SPREAD_MAX);
	else
		snprintf(
			f->notes + len, sizeof(f->notes) - len,
			"smt_slowdown left out (work_smt / work is %.3f, outside the 1 to 2 a profile takes)\n",
			f->smt_slowdown);
	f->smt_slowdown = 0;
}

/* "[M] memcgsim calibrate BENCH, DATE, CPU, KERNEL: WHAT; raw table F" */
static void source_m(struct sim_yaml *y, const struct cal_profile *a,
		     const char *bench, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void source_m(struct sim_yaml *y, const struct cal_profile *a,
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
	cal__kv_str(y, "source", buf, true);
}

/* smt_slowdown: {slowdown, source}, when fitted. */
static void smt_slowdown(struct sim_yaml *y, const struct cal_profile *a)
{
	const struct cal_fit *f = &a->f;
	char cpus[64];

	if (!f->smt_slowdown)
		return;
	cal__cpulist(a->h, f->work_smt->cpu_idx, 2, cpus, sizeof(cpus));
	sim_yaml_plain(y, "smt_slowdown");
	sim_yaml_map_start(y, false);
	sim_yaml_plain(y, "slowdown");
	cal__yw_fmt(y, "%.2f", f->smt_slowdown);
	source_m(
		y, a, "work_smt",
		"a block of %u iterations of an integer loop in registers takes %.2f ns on CPU %u while its SMT sibling runs the same loop (CPUs %s), %.2f ns alone (medians of %u and %u repetitions); a loop with two chains' parallelism, not the kernel's code: its mix sets how much of the core the sibling takes",
		CAL_WORK_ITERS, f->work_smt->median,
		a->h->cpus[f->work_smt->cpu_idx[0]].os, cpus, f->work->median,
		f->work_smt->reps, f->work->reps);
	sim_yaml_map_end(y);
}

static void latency(struct sim_yaml *y, const char *key, double ns)
{
	sim_yaml_plain(y, key);
	sim_yaml_map_start(y, false);
	sim_yaml_plain(y, "ns");
	cal__yw_fmt(y, "%.2f", ns);
}

static void idle_latency(struct sim_yaml *y, const struct cal_profile *a,
			 const struct cal_fit *f, enum cal_bench b)
{
	const struct cal_point *p = f->idle[b];
	char cpus[64];

	if (!p)
		return;
	cal__cpulist(a->h, p->cpu_idx, p->n, cpus, sizeof(cpus));
	latency(y, cal_bench_names[b], p->median);
	source_m(y, a, cal_bench_names[b],
		 "median of %u repetitions, quartiles %.2f-%.2f ns, CPU%s %s",
		 p->reps, p->q1, p->q3, p->n > 1 ? "s" : "", cpus);
	sim_yaml_map_end(y);
}

/* "51.40, 0.00, 3.50": @term's fit to each repetition (fit_reps()). */
static void term_values(const struct cal_fit *f, enum cal_law_term term,
			char *buf, size_t size)
{
	size_t len = 0;
	unsigned int r;

	buf[0] = '\0';
	for (r = 0; r < f->term_reps && len < size; r++)
		len += (size_t)snprintf(buf + len, size - len, "%s%.2f",
					r ? ", " : "", f->term_ns[term][r]);
}

/*
 * One term of the hand-off law, if fitted (@ns >= 0), with the lines of
 * coh_law_fit()'s account that start with @about.
 */
static void law_term(struct sim_yaml *y, const struct cal_profile *a,
		     const char *key, const char *bench, const char *about,
		     double ns, double spread, enum cal_law_term term)
{
	const char *line = a->f.law_why;
	char said[512], reps[CAL_MAX_REPS * 12 + 160] = "";
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
	if (a->f.term_reps) {
		char vals[CAL_MAX_REPS * 12];

		term_values(&a->f, term, vals, sizeof(vals));
		snprintf(
			reps, sizeof(reps),
			"; fitted to each of its %u repetitions alone: %s ns, which spread by %.0f%% of their median (IQR)",
			a->f.term_reps, vals, 100 * a->f.term_spread[term]);
	}
	latency(y, key, ns);
	source_m(
		y, a, bench,
		"coh_law_fit (add points of 3 or more CPUs as the cost of a hand-off, the hold window taken out; load_xchg_pingpong points): %s; its points' repetitions spread by at most %.0f%% of their median (IQR)%s",
		said, 100 * spread, reps);
	sim_yaml_map_end(y);
}

/*
 * socket_distances() - on more than two sockets, the matrix of the
 * xfer_socket ping-pongs of every pair (calibrate.c plan_socket_pairs()),
 * symmetric: a ping-pong's round trip / 2 is the mean of both ways. A
 * pair not measured (--cpus left a socket out) takes xfer_socket, said
 * in its row's source.
 */
static void socket_distances(struct sim_yaml *y, const struct cal_profile *a)
{
	const struct cal_host *h = a->h;
	const struct cal_point *p = a->f.idle[CAL_XFER_SOCKET];
	double d[CAL_MAX_SOCKETS][CAL_MAX_SOCKETS] = { { 0 } };
	unsigned int i, j, missing;

	if (h->sockets < 3 || h->sockets > CAL_MAX_SOCKETS || !p)
		return;
	for (i = 0; i < a->pl->nr_points; i++) {
		const struct cal_point *q = &a->pl->points[i];
		unsigned int s0, s1;

		if (q->bench != CAL_XFER_SOCKET || q->n != 2)
			continue;
		s0 = h->cpus[q->cpu_idx[0]].socket;
		s1 = h->cpus[q->cpu_idx[1]].socket;
		d[s0][s1] = d[s1][s0] = q->median;
	}
	sim_yaml_plain(y, "socket_distances");
	sim_yaml_seq_start(y, false);
	for (i = 0; i < h->sockets; i++) {
		sim_yaml_map_start(y, false);
		sim_yaml_plain(y, "ns");
		sim_yaml_seq_start(y, true);
		for (j = missing = 0; j < h->sockets; j++) {
			if (i != j && !d[i][j]) {
				d[i][j] = p->median;
				missing++;
			}
			cal__yw_fmt(y, "%.2f", d[i][j]);
		}
		sim_yaml_seq_end(y);
		source_m(
			y, a, "xfer_socket",
			"socket %u's row: the median of each pair's ping-pong%s",
			i,
			missing ? "; pairs not measured take xfer_socket" : "");
		sim_yaml_map_end(y);
	}
	sim_yaml_seq_end(y);
}

/*
 * service_cv() - coherence.service_cv from the idle transfer ping-pongs'
 * spreads (bench.c batch_cv()): the median over the classes measured,
 * at most 1 (the loader's range); nothing when none was measured.
 */
static void service_cv(struct sim_yaml *y, const struct cal_profile *a)
{
	double cv[CAL_NR_IDLE], v;
	unsigned int n = 0;
	enum cal_bench b;

	for (b = CAL_XFER_SMT; b <= CAL_XFER_SOCKET; b++)
		if (a->f.idle[b] && a->f.idle[b]->has_cv)
			cv[n++] = a->f.idle[b]->cv;
	if (!n)
		return;
	gsl_sort(cv, 1, n);
	v = gsl_stats_median_from_sorted_data(cv, 1, n);
	sim_yaml_plain(y, "service_cv");
	sim_yaml_map_start(y, false);
	sim_yaml_plain(y, "cv");
	cal__yw_fmt(y, "%.3f", v < 1 ? v : 1);
	source_m(
		y, a, "xfer_*",
		"the median over %u transfer ping-pongs of one hand-off's coefficient of variation: each batch of %u round trips timed, IQR / 1.349 / median x sqrt(hand-offs a batch)%s",
		n, 256, v > 1 ? "; above 1, clamped" : "");
	sim_yaml_map_end(y);
}

int cal__write_profile(FILE *out, void *arg)
{
	const struct cal_profile *a = arg;
	const struct cal_host *h = a->h;
	const struct cal_fit *fp = &a->f;
	struct sim_yaml y;
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
	snprintf(
		desc, sizeof(desc),
		"%s, %u CPUs, measured by memcgsim calibrate on %s%s",
		h->cpu_model, h->nr_cpus, h->date,
		h->numbering_matches ?
			"" :
			"; Linux numbers this host's CPUs in neither profile order, so a scenario's CPU numbers are the profile's, not Linux's");
	sim_yaml_begin(&y, out);
	sim_yaml_map_start(&y, false);
	cal__kv_str(&y, "name", a->name, false);
	cal__kv_str(&y, "description", desc, true);
	cal__kv_uint(&y, "sockets", h->sockets);
	cal__kv_uint(&y, "cores_per_socket", h->cores_per_socket);
	cal__kv_uint(&y, "threads_per_core", h->threads_per_core);
	cal__kv_uint(&y, "cores_per_llc", h->cores_per_llc);
	cal__kv_str(&y, "numbering",
		    h->threads_adjacent ? "threads_adjacent" : "threads_last",
		    false);
	sim_yaml_plain(&y, "latencies");
	sim_yaml_map_start(&y, false);
	for (b = CAL_L1_HIT; b <= CAL_XFER_SOCKET; b++)
		if (b != CAL_CHASE_WORK) /* --check's, not a key */
			idle_latency(&y, a, fp, b);

	latency(&y, "inval_per_sharer", fp->inval_ns ? fp->inval_ns : 2.0);
	if (fp->inval_points)
		source_m(
			&y, a, "add_readers",
			"least-squares slope of the adder's ns/op against its k readers over %u points%s",
			fp->inval_points,
			fp->inval_clamped ? ", negative, clamped to 0" : "");
	else
		cal__kv_str(
			&y, "source",
			"[P] not measurable on this host: needs add_readers with 2 different reader counts (3 CPUs); hw-params 5.3's low end, as the shipped profiles",
			true);
	sim_yaml_map_end(&y);

	law_term(&y, a, "upgrade_llc", "load_xchg_pingpong", "upgrade (llc)",
		 fp->upgrade_llc_ns, fp->spread_llc, CAL_LAW_UPGRADE_LLC);
	law_term(&y, a, "upgrade_socket", "load_xchg_pingpong",
		 "upgrade (socket)", fp->upgrade_socket_ns, fp->spread_socket,
		 CAL_LAW_UPGRADE_SOCKET);
	law_term(&y, a, "conflict_local", "add", "conflict",
		 fp->conflict_local_ns, fp->spread_add, CAL_LAW_CONFLICT_LOCAL);
	law_term(&y, a, "conflict_remote", "add", "conflict",
		 fp->conflict_remote_ns, fp->spread_add,
		 CAL_LAW_CONFLICT_REMOTE);
	sim_yaml_map_end(&y); /* latencies */

	socket_distances(&y, a);
	sim_yaml_plain(&y, "coherence");
	sim_yaml_map_start(&y, false);
	service_cv(&y, a);
	cal__kv_str(&y, "handoff", fp->hold_ns > 0 ? "hold" : "strict", false);
	if (fp->hold_ns > 0) {
		latency(&y, "hold", fp->hold_ns);
		source_m(
			&y, a, "add",
			"two CPUs' locked adds cost %.2f ns each, against a %.2f ns idle hand-off and %.2f ns for an add on an owned line: the CPU that receives a line keeps it a while: the window for which the model's add on the same two CPUs costs the same (a scan of the simulation), median over %u point%s (%u simulations)",
			fp->hold_add_ns, fp->hold_xfer_ns,
			fp->idle[CAL_RMW_LOCAL]->median, fp->hold_points,
			fp->hold_points > 1 ? "s" : "", fp->hold_sims);
		sim_yaml_map_end(&y);
	}
	sim_yaml_map_end(&y); /* coherence */
	smt_slowdown(&y, a);
	sim_yaml_map_end(&y);
	return sim_yaml_end(&y);
}

/*
 * accept() - take the fitted term *@ns (negative: not fitted) only when
 * the profile loader takes it (at least @min ns, at most 1 ms), its
 * points' repetitions spread by at most CAL_SPREAD_MAX, and so does the
 * term fitted to each repetition alone (fit_reps()); else leave it out,
 * at the loader's cited default, with a note that says why.
 */
static void accept(struct cal_fit *f, const char *key, double *ns, double min,
		   double spread, enum cal_law_term term)
{
	size_t len = strlen(f->notes);
	char vals[CAL_MAX_REPS * 12], why[sizeof(vals) + 256];

	if (*ns < 0)
		return;
	if (*ns < min || *ns > CAL_SAMPLE_MAX_NS)
		snprintf(
			why, sizeof(why),
			"the fit gives %.3f ns, which no profile takes: these measurements do not determine it",
			*ns);
	else if (spread > CAL_SPREAD_MAX)
		snprintf(
			why, sizeof(why),
			"its points' repetitions spread by %.0f%% of their median (IQR), more than %.0f%%: measure again on a quieter host",
			100 * spread, 100 * CAL_SPREAD_MAX);
	else if (f->term_reps && f->term_spread[term] > CAL_SPREAD_MAX) {
		term_values(f, term, vals, sizeof(vals));
		snprintf(
			why, sizeof(why),
			"fitted to each of its %u repetitions alone it comes out %s ns, which spread by %.0f%% of their median (IQR), more than %.0f%%: measure again on a quieter host",
			f->term_reps, vals, 100 * f->term_spread[term],
			100 * CAL_SPREAD_MAX);
	} else
		return;
	snprintf(f->notes + len, sizeof(f->notes) - len,
		 "%s left at its default (%s)\n", key, why);
	*ns = -1;
}

/* The IQR of @v[@n] (sorted in place) over its median, 0 below 2. */
static double iqr_spread(double *v, unsigned int n)
{
	double median, q1, q3;

	if (n < 2)
		return 0;
	gsl_sort(v, 1, n);
	median = gsl_stats_median_from_sorted_data(v, 1, n);
	q1 = gsl_stats_quantile_from_sorted_data(v, 1, n, 0.25);
	q3 = gsl_stats_quantile_from_sorted_data(v, 1, n, 0.75);
	/* a median of 0: against the least term written, 0.005 ns */
	return (q3 - q1) / fmax(median, 0.005);
}

/*
 * fit_reps() - the law's terms fitted to each repetition alone, as
 * fit_law() fits them to the medians: @pts[@n] with each point's ns per
 * operation taken from one repetition's sample of @src[i], the point
 * measured behind pts[i] (the idle transfers stay at their medians), on
 * a copy of @m as the median fit finds it. Into f->term_ns[][r] and each
 * term's spread (IQR over median) into f->term_spread[]; f->term_reps is
 * the repetitions every point has, 0 below two (nothing to spread).
 */
static void fit_reps(const struct coh_law_point *pts,
		     const struct cal_point *const *src, unsigned int n,
		     const struct machine *m, struct cal_fit *f)
{
	struct coh_law_point *pr = calloc(n, sizeof(*pr));
	struct machine *mr = malloc(sizeof(*mr));
	unsigned int i, r, k, nv, reps = CAL_MAX_REPS;
	double v[CAL_MAX_REPS];

	SIM_OOM_ON(!pr || !mr);
	for (i = 0; i < n; i++)
		if (src[i]->reps < reps)
			reps = src[i]->reps;
	f->term_reps = reps >= 2 ? reps : 0;
	for (r = 0; r < f->term_reps; r++) {
		for (i = 0; i < n; i++) {
			double x = src[i]->samples[r];

			pr[i] = pts[i];
			pr[i].ns_per_op =
				src[i]->bench == CAL_ADD ? strict_of(f, x) : x;
		}
		*mr = *m; /* its scalars and arrays only: nothing to free */
		for (k = 0; k < 4; k++)
			f->term_ns[k][r] = -1;
		if (coh_law_fit(pr, n, mr, NULL, 0) < 0)
			continue;
		f->term_ns[CAL_LAW_UPGRADE_LLC][r] =
			mr->upgrade_ps[COH_DIST_LLC] / 1000.0;
		f->term_ns[CAL_LAW_UPGRADE_SOCKET][r] =
			mr->upgrade_ps[COH_DIST_SOCKET] / 1000.0;
		f->term_ns[CAL_LAW_CONFLICT_LOCAL][r] =
			mr->conflict_local_ps / 1000.0;
		f->term_ns[CAL_LAW_CONFLICT_REMOTE][r] =
			mr->conflict_remote_ps / 1000.0;
	}
	for (k = 0; k < 4; k++) {
		for (r = nv = 0; r < f->term_reps; r++)
			if (f->term_ns[k][r] >= 0)
				v[nv++] = f->term_ns[k][r];
		f->term_spread[k] = iqr_spread(v, nv);
	}
	free(mr);
	free(pr);
}

/*
 * fit_law() - the hand-off law's terms by coh_law_fit() on @m, the profile
 * fitted so far: the add points of 3 or more CPUs (each as the cost of a
 * hand-off, strict_ns(): the hold window taken out) fix conflict_local and
 * conflict_remote, the load_xchg_pingpong points upgrade_llc and
 * upgrade_socket. A term is written only when a point can fix it.
 */
static int fit_law(struct machine *m, const struct cal_host *h,
		   const struct cal_plan *pl, struct cal_fit *f,
		   struct sim_error *err)
{
	struct coh_law_point *pts = calloc(pl->nr_points, sizeof(*pts));
	const struct cal_point **src = calloc(pl->nr_points, sizeof(*src));
	unsigned int *cpus =
		calloc((size_t)pl->nr_points * CAL_MAX_CPUS, sizeof(*cpus));
	bool llc = false, socket = false, remote = false;
	unsigned int i, j, n = 0;
	double spread;
	int ret = -1;

	SIM_OOM_ON(!pts || !src || !cpus);
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
		q->ns_per_op = p->bench == CAL_ADD ? strict_of(f, p->median) :
						     p->median;
		src[n] = p;
		q->spread_ns = (p->q3 - p->q1) / 1.349; /* IQR as a stddev */
		spread = p->median > 0 ? (p->q3 - p->q1) / p->median : 0;
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
		if (p->bench == CAL_ADD)
			f->spread_add = fmax(f->spread_add, spread);
		else if (m->cpus[c[1]].socket != m->cpus[c[0]].socket)
			f->spread_socket = fmax(f->spread_socket, spread);
		else
			f->spread_llc = fmax(f->spread_llc, spread);
		n++;
	}
	f->law_points = n;
	ret = 0;
	if (!n)
		goto out;
	fit_reps(pts, src, n, m, f);
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
	/* An upgrade is at least 1 ps (written with two decimals). */
	accept(f, "upgrade_llc", &f->upgrade_llc_ns, 0.005, f->spread_llc,
	       CAL_LAW_UPGRADE_LLC);
	accept(f, "upgrade_socket", &f->upgrade_socket_ns, 0.005,
	       f->spread_socket, CAL_LAW_UPGRADE_SOCKET);
	accept(f, "conflict_local", &f->conflict_local_ns, 0, f->spread_add,
	       CAL_LAW_CONFLICT_LOCAL);
	accept(f, "conflict_remote", &f->conflict_remote_ns, 0, f->spread_add,
	       CAL_LAW_CONFLICT_REMOTE);
out:
	free(src);
	free(pts);
	free(cpus);
	return ret;
}

/* @why, the loader's refusal of the profile, told at the measurements. */
static int not_loadable(const struct cal_profile *pa,
			const struct sim_error *why, struct sim_error *err)
{
	char line[SIM_ERROR_LINE_MAX];

	sim_error_format(why, line, sizeof(line));
	sim_error_set(
		err, pa->meas_name, 0, 0,
		"the profile fitted from these measurements would not load: %s",
		line);
	return -1;
}

/*
 * Every profile calibrate writes must load (issue 34, item 9): the final
 * one is loaded before it is written. A refusal here is a fit that let a
 * term through that accept() should have stopped; it is reported at the
 * measurements, the only file there is.
 */
int cal__profile_loads(const struct cal_profile *pa, struct sim_error *err)
{
	struct scenario_node *root;
	struct sim_error why;
	struct machine m;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	SIM_OOM_ON(!mem);
	if (cal__write_profile(mem, (void *)pa) || fclose(mem)) {
		free(buf);
		sim_error_set(err, "", 0, 0, "out of memory");
		return -1;
	}
	root = scenario_parse_string(pa->file, buf, &why);
	free(buf);
	if (root && !machine_load(&m, root, &why)) {
		machine_destroy(&m);
		scenario_free(root);
		return 0;
	}
	scenario_free(root);
	return not_loadable(pa, &why, err);
}

/*
 * cal__fit_profile() - every fitted number of the profile into @pa->f: the
 * medians and the slopes, then the hold window by simulation on the
 * profile written so far (which must load: a check of the writer), then
 * the hand-off law's terms. Return 0, or -1 with @err set.
 */
int cal__fit_profile(struct cal_profile *pa, struct sim_error *err)
{
	struct sim_error why;
	struct scenario_node *root;
	struct machine m;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int ret = -1;

	fit(pa->pl, &pa->f);
	accept_smt(&pa->f);
	mem = open_memstream(&buf, &len);
	if (!mem || cal__write_profile(mem, pa) || fclose(mem)) {
		sim_error_set(err, "", 0, 0, "out of memory");
		free(buf);
		return -1;
	}
	root = scenario_parse_string(pa->file, buf, &why);
	free(buf);
	if (!root || machine_load(&m, root, &why)) {
		scenario_free(root);
		return not_loadable(pa, &why, err);
	}
	ret = fit_hold(&m, pa->h, (struct cal_plan *)pa->pl, &pa->f, err);
	if (!ret)
		ret = fit_law(&m, pa->h, pa->pl, &pa->f, err);
	machine_destroy(&m);
	scenario_free(root);
	return ret ? ret : cal__profile_loads(pa, err);
}
