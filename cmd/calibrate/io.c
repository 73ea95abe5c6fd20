// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/calibrate/io.c - the files of `memcgsim calibrate`: a YAML emitter
 * with a sticky failure flag (libyaml), and the measurement file, written
 * after a run and read back by `calibrate --check`.
 *
 * The measurement file (format memcgsim-measurements/1) is the raw table
 * behind a profile: the date, CPU model and kernel; the host's topology
 * (sockets, cores per socket, threads per core, cores per LLC, numbering,
 * cache sizes); every CPU with its socket, core within the socket, SMT
 * thread and LLC; and one row per point: benchmark, placement, the Linux
 * CPUs in order (the first wrote the lines first), the median and
 * quartiles (for people: --check recomputes them) and every sample, in ns
 * per operation. Reading checks every key, type and range, and that a
 * point's CPUs suit its benchmark, with the file, line and column of the
 * first offence.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/calibrate/calibrate.h"
#include "sim/scenario.h"
#include "sim/util.h"

/* ---- YAML out ---- */

void cal__yw_fmt(struct sim_yaml *y, const char *fmt, ...)
{
	char buf[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sim_yaml_plain(y, buf);
}

void cal__kv_str(struct sim_yaml *y, const char *key, const char *val,
		 bool quoted)
{
	sim_yaml_plain(y, key);
	if (quoted)
		sim_yaml_quoted(y, val);
	else
		sim_yaml_plain(y, val);
}

void cal__kv_uint(struct sim_yaml *y, const char *key, unsigned long long v)
{
	sim_yaml_plain(y, key);
	sim_yaml_u64(y, v);
}

/* "0-17,36-53": @n host CPU numbers in the order given, runs collapsed. */
void cal__cpulist(const struct cal_host *h, const unsigned int *idx,
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

int cal__write_measurements(FILE *out, void *arg)
{
	const struct cal_meas_args *a = arg;
	const struct cal_host *h = a->h;
	struct sim_yaml y;
	unsigned int i, r;

	fprintf(out,
		"# SPDX-License-Identifier: GPL-2.0-only\n"
		"# The raw table behind %s, written by memcgsim calibrate.\n"
		"# Every value is nanoseconds per operation: the window / the\n"
		"# operations of all the point's threads (1e9 / throughput; for\n"
		"# add_readers, of the adder alone); for xfer_* (CAS) and\n"
		"# load_xchg_pingpong, a ping-pong's round trip / 2. cpus: Linux\n"
		"# CPU numbers, the first one wrote the lines first. Refit or\n"
		"# check with: memcgsim calibrate --check PROFILE THIS-FILE\n",
		a->profile);
	sim_yaml_begin(&y, out);
	sim_yaml_map_start(&y, false);
	cal__kv_str(&y, "format", CAL_MEAS_FORMAT, false);
	cal__kv_str(&y, "profile", a->profile, true);
	cal__kv_str(&y, "date", h->date, true);
	cal__kv_str(&y, "cpu_model", h->cpu_model, true);
	cal__kv_str(&y, "kernel", h->kernel, true);
	cal__kv_str(&y, "quick", a->pl->quick ? "true" : "false", false);
	cal__kv_uint(&y, "repetitions", a->pl->reps);
	cal__kv_str(&y, "realtime", a->pl->realtime ? "true" : "false", false);
	sim_yaml_plain(&y, "window_s");
	cal__yw_fmt(&y, "%g", a->pl->window_s);
	sim_yaml_plain(&y, "topology");
	sim_yaml_map_start(&y, false);
	cal__kv_uint(&y, "sockets", h->sockets);
	cal__kv_uint(&y, "cores_per_socket", h->cores_per_socket);
	cal__kv_uint(&y, "threads_per_core", h->threads_per_core);
	cal__kv_uint(&y, "cores_per_llc", h->cores_per_llc);
	cal__kv_str(&y, "numbering",
		    h->threads_adjacent ? "threads_adjacent" : "threads_last",
		    false);
	cal__kv_uint(&y, "l1_bytes", h->l1_bytes);
	cal__kv_uint(&y, "l2_bytes", h->l2_bytes);
	cal__kv_uint(&y, "llc_bytes", h->llc_bytes);
	sim_yaml_map_end(&y);
	sim_yaml_plain(&y, "cpus");
	sim_yaml_seq_start(&y, false);
	for (i = 0; i < h->nr_cpus; i++) {
		const struct cal_cpu *c = &h->cpus[i];

		sim_yaml_map_start(&y, true);
		cal__kv_uint(&y, "cpu", c->os);
		cal__kv_uint(&y, "socket", c->socket);
		cal__kv_uint(&y, "core", c->core);
		cal__kv_uint(&y, "thread", c->thread);
		cal__kv_uint(&y, "llc", c->llc);
		sim_yaml_map_end(&y);
	}
	sim_yaml_seq_end(&y);
	sim_yaml_plain(&y, "points");
	sim_yaml_seq_start(&y, false);
	for (i = 0; i < a->pl->nr_points; i++) {
		const struct cal_point *p = &a->pl->points[i];

		sim_yaml_map_start(&y, true);
		cal__kv_str(&y, "benchmark", cal_bench_names[p->bench], false);
		cal__kv_str(&y, "placement", cal_placement_names[p->placement],
			    false);
		sim_yaml_plain(&y, "cpus");
		sim_yaml_seq_start(&y, true);
		for (r = 0; r < p->n; r++)
			cal__yw_fmt(&y, "%u", h->cpus[p->cpu_idx[r]].os);
		sim_yaml_seq_end(&y);
		sim_yaml_plain(&y, "median");
		cal__yw_fmt(&y, "%.2f", p->median);
		sim_yaml_plain(&y, "q1");
		cal__yw_fmt(&y, "%.2f", p->q1);
		sim_yaml_plain(&y, "q3");
		cal__yw_fmt(&y, "%.2f", p->q3);
		sim_yaml_plain(&y, "samples");
		sim_yaml_seq_start(&y, true);
		for (r = 0; r < p->reps; r++)
			cal__yw_fmt(&y, "%.2f", p->samples[r]);
		sim_yaml_seq_end(&y);
		if (p->has_cv) {
			sim_yaml_plain(&y, "cv");
			cal__yw_fmt(&y, "%.3f", p->cv);
		}
		sim_yaml_map_end(&y);
	}
	sim_yaml_seq_end(&y);
	sim_yaml_map_end(&y);
	return sim_yaml_end(&y);
}

/* ---- reading a measurement file ---- */

static const char *const meas_keys[] = {
	"format",      "profile",  "date",     "cpu_model", "kernel", "quick",
	"repetitions", "window_s", "realtime", "topology",  "cpus",   "points",
};
static const char *const topo_keys[] = {
	"sockets",   "cores_per_socket", "threads_per_core", "cores_per_llc",
	"numbering", "l1_bytes",	 "l2_bytes",	     "llc_bytes",
};
static const char *const cpu_keys[] = { "cpu", "socket", "core", "thread",
					"llc" };
static const char *const point_keys[] = {
	"benchmark", "placement", "cpus", "median", "q1", "q3", "samples", "cv",
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
	char what[64];

	if (scenario_string(map, key, true, NULL, &s, err))
		return -1;
	/* Printed in tables and profiles' comments: one line, no escapes. */
	if (sim_control_char(what, sizeof(what), (const unsigned char *)s,
			     strlen(s), false)) {
		scenario_error(
			err, scenario_get(map, key),
			"expected one line of text without control characters");
		return -1;
	}
	if (strlen(s) >= size) {
		scenario_error(err, scenario_get(map, key),
			       "expected at most %zu characters", size - 1);
		return -1;
	}
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
		    scenario_u64(c, "cpu", true, 0, 0, CAL_CPU_MAX, &os, err) ||
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
		for (j = 0; j < i; j++) {
			const struct cal_cpu *o = &h->cpus[j];

			if (o->os == os) {
				scenario_error(err, scenario_get(c, "cpu"),
					       "CPU %llu is listed twice",
					       (unsigned long long)os);
				return -1;
			}
			/*
			 * Two CPUs in one place would be one simulated CPU,
			 * driven by two threads of one point (fuzz finding
			 * regress/measurements/same-place-cpus).
			 */
			if (o->socket == s && o->core == core &&
			    o->thread == t) {
				scenario_error(
					err, c,
					"CPU %llu is at socket %llu, core %llu, thread %llu, where CPU %u is",
					(unsigned long long)os,
					(unsigned long long)s,
					(unsigned long long)core,
					(unsigned long long)t, o->os);
				return -1;
			}
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

static int check_stats(const struct cal_point *p, const struct scenario_node *n,
		       struct sim_error *err);

static int read_point(const struct cal_host *h, struct cal_point *p,
		      const struct scenario_node *n, struct sim_error *err)
{
	const struct scenario_node *cpus, *samples;
	unsigned int b, place, i, j, k;
	double v;

	if (scenario_check_keys(n, point_keys, ARRAY_SIZE(point_keys), err) ||
	    scenario_enum(n, "benchmark", true, 0, cal_bench_names,
			  NR_CAL_BENCH, &b, err) ||
	    scenario_enum(n, "placement", true, 0, cal_placement_names,
			  NR_CAL_PLACEMENT, &place, err) ||
	    expect_seq(n, "cpus", 1, h->nr_cpus, &cpus, err) ||
	    expect_seq(n, "samples", 1, CAL_MAX_REPS, &samples, err) ||
	    scenario_double(n, "median", false, 0, 0, CAL_SAMPLE_MAX_NS, &v,
			    err) ||
	    scenario_double(n, "q1", false, 0, 0, CAL_SAMPLE_MAX_NS, &v, err) ||
	    scenario_double(n, "q3", false, 0, 0, CAL_SAMPLE_MAX_NS, &v, err) ||
	    scenario_double(n, "cv", false, -1, 0, 100, &p->cv, err))
		return -1;
	p->has_cv = p->cv >= 0;
	p->bench = b;
	p->placement = place;
	p->n = scenario_len(cpus);
	for (i = 0; i < p->n; i++) {
		const struct scenario_node *c = scenario_item(cpus, i);

		if (read_number(c, 0, CAL_CPU_MAX, &v, err))
			return -1;
		for (j = 0; j < h->nr_cpus; j++)
			if (h->cpus[j].os == v)
				break;
		if (j == h->nr_cpus) {
			scenario_error(err, c, "CPU %g is not in 'cpus'", v);
			return -1;
		}
		/*
		 * A point's threads run on distinct CPUs: one listed twice
		 * put two simulated threads on one CPU, which the model
		 * asserts on (fuzz finding regress/measurements/
		 * point-cpu-twice).
		 */
		for (k = 0; k < i; k++)
			if (p->cpu_idx[k] == j) {
				scenario_error(
					err, c,
					"CPU %g is listed twice in this point",
					v);
				return -1;
			}
		p->cpu_idx[i] = j;
	}
	if ((place == CAL_IDLE) != (b < CAL_ADD) ||
	    (b < CAL_ADD ? p->n != cal_bench_idle_cpus(b) : p->n < 2)) {
		scenario_error(
			err, n, "%s with %u CPUs, placement %s: expected %s",
			cal_bench_names[b], p->n, cal_placement_names[place],
			b >= CAL_ADD ?
				"2 or more CPUs, placement compact or spread" :
			cal_bench_idle_cpus(b) == 1 ? "1 CPU, placement idle" :
						      "2 CPUs, placement idle");
		return -1;
	}
	/* work_smt's two CPUs are the threads of one core */
	if (((b >= CAL_XFER_SMT && b <= CAL_XFER_SOCKET) ||
	     b == CAL_WORK_SMT) &&
	    cal__xfer_class(&h->cpus[p->cpu_idx[0]], &h->cpus[p->cpu_idx[1]]) !=
		    (b == CAL_WORK_SMT ? CAL_XFER_SMT : b)) {
		scenario_error(
			err, cpus, "CPUs %u and %u are not a %s pair",
			h->cpus[p->cpu_idx[0]].os, h->cpus[p->cpu_idx[1]].os,
			cal_bench_names[b == CAL_WORK_SMT ? CAL_XFER_SMT : b]);
		return -1;
	}
	p->reps = scenario_len(samples);
	for (i = 0; i < p->reps; i++)
		if (read_number(scenario_item(samples, i), 1e-3,
				CAL_SAMPLE_MAX_NS, &p->samples[i], err))
			return -1;
	cal__point_stats(p);
	return check_stats(p, n, err);
}

/*
 * The summary a file gives must be its samples' (calibrate writes them
 * with two decimals): median, q1 and q3 that contradict the samples are
 * refused, not ignored.
 */
static int check_stats(const struct cal_point *p, const struct scenario_node *n,
		       struct sim_error *err)
{
	static const char *const keys[] = { "median", "q1", "q3" };
	const double got[] = { p->median, p->q1, p->q3 };
	struct sim_error ignored;
	unsigned int i;
	double v;

	for (i = 0; i < 3; i++) {
		if (!scenario_get(n, keys[i]) ||
		    scenario_double(n, keys[i], false, 0, 0, CAL_SAMPLE_MAX_NS,
				    &v, &ignored))
			continue;
		if (fabs(v - got[i]) <= 0.005 + 1e-9 * got[i])
			continue;
		scenario_error(err, scenario_get(n, keys[i]),
			       "'%s' is %.2f, but the samples' %s is %.2f",
			       keys[i], v, keys[i], got[i]);
		return -1;
	}
	return 0;
}

void cal__link_work(struct cal_plan *pl)
{
	unsigned int i, j;

	for (i = 0; i < pl->nr_points; i++) {
		struct cal_point *p = &pl->points[i];

		if (p->bench != CAL_WORK_SMT)
			continue;
		p->alone = NULL;
		for (j = 0; j < pl->nr_points && !p->alone; j++)
			if (pl->points[j].bench == CAL_WORK &&
			    pl->points[j].cpu_idx[0] == p->cpu_idx[0])
				p->alone = &pl->points[j];
	}
}

/* The same benchmark on the same CPUs twice: one of them is a mistake. */
static bool same_point(const struct cal_point *a, const struct cal_point *b)
{
	return a->bench == b->bench && a->placement == b->placement &&
	       a->n == b->n &&
	       !memcmp(a->cpu_idx, b->cpu_idx, a->n * sizeof(a->cpu_idx[0]));
}

/*
 * cal__read_measurements() - load a measurement file: the host into @h, its
 * points into @pl. Return 0, or -1 with @err at the offending line.
 */
int cal__read_measurements(const char *path, struct cal_host *h,
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
	if (strcmp(format, CAL_MEAS_FORMAT)) {
		scenario_error(err, scenario_get(root, "format"),
			       "expected '%s', found '%s'", CAL_MEAS_FORMAT,
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
	    scenario_bool(root, "realtime", false, false, &pl->realtime, err) ||
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
	SIM_OOM_ON(!pl->points);
	for (i = 0; i < pl->nr_points; i++) {
		unsigned int j;

		if (read_point(h, &pl->points[i], scenario_item(points, i),
			       err))
			goto out;
		for (j = 0; j < i; j++)
			if (same_point(&pl->points[j], &pl->points[i]))
				break;
		if (j < i) {
			scenario_error(
				err, scenario_item(points, i),
				"point %u repeats point %u: the same benchmark, placement and CPUs",
				i, j);
			goto out;
		}
	}
	cal__link_work(pl);
	ret = 0;
out:
	scenario_free(root);
	if (ret) {
		free(pl->points);
		pl->points = NULL;
	}
	return ret;
}
