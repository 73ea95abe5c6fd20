// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/hw/coh_law.c - the hand-off law's closed form and its fit to
 * measured contended points. See models/hw/coh_law.h.
 *
 * Not a model of kernel code: this is the hardware's contended-line cost.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "models/hw/coh_law.h"
#include "sim/util.h"

#define PS_PER_NS 1000.0

static const char *const bench_names[NR_COH_BENCH] = {
	[COH_BENCH_PINGPONG] = "pingpong",
	[COH_BENCH_ADD] = "add",
	[COH_BENCH_LOAD_XCHG] = "load_xchg",
	[COH_BENCH_LOAD_XCHG_PINGPONG] = "load_xchg_pingpong",
	[COH_BENCH_XCHG2] = "xchg2",
	[COH_BENCH_ADD_READERS] = "add_readers",
	[COH_BENCH_PACKED] = "packed",
	[COH_BENCH_PADDED] = "padded",
};

const char *coh_bench_name(enum coh_bench b)
{
	SIM_BUG_ON((unsigned int)b >= NR_COH_BENCH);
	return bench_names[b];
}

static unsigned int socket_of(const struct machine *m, unsigned int cpu)
{
	return m->cpus[cpu].socket;
}

/* Idle hand-off of a line homed at @home from CPU @from to CPU @to, ns. */
static double xfer_ns(const struct machine *m, unsigned int home,
		      unsigned int from, unsigned int to)
{
	enum coh_dist d = machine_dist(m, from, to);
	unsigned int fs = socket_of(m, from), ts = socket_of(m, to);

	if (d != COH_DIST_SOCKET)
		return m->xfer_ps[d] / PS_PER_NS;
	if (fs == home)
		return m->socket_xfer_ps[fs][ts] / PS_PER_NS;
	return m->socket_remote_home_ps[fs][ts] / PS_PER_NS;
}

/* The upgrade after a load of a line @a and @b take turns on, ns. */
static double upgrade_ns(const struct machine *m, unsigned int a,
			 unsigned int b)
{
	enum coh_dist d = machine_dist(m, a, b);

	if (d == COH_DIST_SOCKET)
		return m->socket_upgrade_ps[socket_of(m, a)][socket_of(m, b)] /
		       PS_PER_NS;
	return m->upgrade_ps[d] / PS_PER_NS;
}

/* The rotation's mean idle hand-off and its share of home requesters. */
static double rotation(const struct machine *m, const struct coh_law_point *p,
		       double *local_share)
{
	unsigned int n = p->nr_cpus, home = socket_of(m, p->cpus[0]), i;
	unsigned int local = 0;
	double sum = 0;

	for (i = 0; i < n; i++) {
		unsigned int from = p->cpus[(i + n - 1) % n], to = p->cpus[i];

		sum += xfer_ns(m, home, from, to);
		if (socket_of(m, to) == home)
			local++;
	}
	*local_share = (double)local / n;
	return sum / n;
}

static bool point_valid(const struct machine *m, const struct coh_law_point *p)
{
	unsigned int i;

	if (!p->nr_cpus || !p->cpus || (unsigned int)p->bench >= NR_COH_BENCH)
		return false;
	for (i = 0; i < p->nr_cpus; i++)
		if (p->cpus[i] >= m->nr_cpus)
			return false;
	return true;
}

/**
 * coh_law_predict() - the law's ns per operation for a saturated point.
 * @m: a loaded machine.
 * @p: the point; cpus[] in rotation order.
 *
 * With n = nr_cpus >= 2 CPUs each hand-off costs the idle transfer from
 * the previous CPU of the rotation, (n - 2) conflicts priced by the
 * requester's socket against the home, and the legacy (n - 1) x
 * xfer_per_waiter. One CPU alone pays rmw_local.
 *
 * Return: ns per operation, or -1.0 when the law has no closed form for
 * @p (simulate it instead).
 */
double coh_law_predict(const struct machine *m, const struct coh_law_point *p)
{
	unsigned int n = p->nr_cpus, home;
	double base, local, per;

	if (!point_valid(m, p))
		return -1.0;
	home = socket_of(m, p->cpus[0]);
	switch (p->bench) {
	case COH_BENCH_PINGPONG:
	case COH_BENCH_ADD:
	case COH_BENCH_XCHG2:
		if (n == 1) {
			per = m->rmw_local_ps / PS_PER_NS;
		} else {
			base = rotation(m, p, &local);
			per = base +
			      (n - 2) *
				      (local * m->conflict_local_ps +
				       (1 - local) * m->conflict_remote_ps) /
				      PS_PER_NS +
			      (n - 1) * m->xfer_per_waiter_ps / PS_PER_NS;
		}
		return p->bench == COH_BENCH_XCHG2 ? 2 * per : per;
	case COH_BENCH_LOAD_XCHG_PINGPONG:
		if (n != 2)
			return -1.0;
		/* the load brings the line Shared, the xchg upgrades it */
		return (xfer_ns(m, home, p->cpus[0], p->cpus[1]) +
			xfer_ns(m, home, p->cpus[1], p->cpus[0])) /
			       2 +
		       upgrade_ns(m, p->cpus[0], p->cpus[1]);
	default:
		return -1.0;
	}
}

static void say(char *why, size_t len, const char *fmt, ...)
{
	size_t used;
	va_list ap;

	if (!why || !len)
		return;
	used = strlen(why);
	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(why + used, len - used, fmt, ap);
	va_end(ap);
}

static uint64_t to_ps(double ns)
{
	return ns > 0 ? (uint64_t)(ns * PS_PER_NS + 0.5) : 0;
}

/*
 * fit_conflicts() - least squares for (conflict_local, conflict_remote)
 * over ADD points with n >= 3: measured - idle = a cl + b cr, with
 * a = (n - 2) x share of home requesters, b = (n - 2) x the rest.
 */
static int fit_conflicts(const struct coh_law_point *pts, unsigned int nr,
			 struct machine *m, char *why, size_t len)
{
	double saa = 0, sab = 0, sbb = 0, sar = 0, sbr = 0, cl, cr, det;
	double ss = 0;
	unsigned int i, used = 0;
	int set = 0;

	for (i = 0; i < nr; i++) {
		const struct coh_law_point *p = &pts[i];
		double local, a, b, r;

		if (p->bench != COH_BENCH_ADD || p->nr_cpus < 3 ||
		    !point_valid(m, p) || !(p->ns_per_op > 0))
			continue;
		r = p->ns_per_op - rotation(m, p, &local);
		a = (p->nr_cpus - 2) * local;
		b = (p->nr_cpus - 2) * (1 - local);
		saa += a * a;
		sab += a * b;
		sbb += b * b;
		sar += a * r;
		sbr += b * r;
		used++;
	}
	if (!used) {
		say(why, len,
		    "conflicts: no 'add' point with 3 or more CPUs; left as they were\n");
		return 0;
	}
	cl = m->conflict_local_ps / PS_PER_NS;
	cr = m->conflict_remote_ps / PS_PER_NS;
	det = saa * sbb - sab * sab;
	if (saa > 0 && sbb > 0 && fabs(det) > 1e-9 * saa * sbb) {
		cl = (sar * sbb - sbr * sab) / det;
		cr = (sbr * saa - sar * sab) / det;
		set = 2;
	} else if (saa > 0 && sbb > 0) {
		/* every point has the same home share: one value for both */
		cl = cr = (sar + sbr) / (saa + 2 * sab + sbb);
		say(why, len,
		    "conflicts: local and remote cannot be told apart (same home share in every point): one value for both\n");
		set = 2;
	} else if (saa > 0) {
		cl = sar / saa;
		set = 1;
	} else {
		cr = sbr / sbb;
		set = 1;
	}
	if (cl < 0 || cr < 0)
		say(why, len,
		    "conflicts: a negative fit (%.2f, %.2f ns) clamped to 0\n",
		    cl, cr);
	m->conflict_local_ps = to_ps(cl);
	m->conflict_remote_ps = to_ps(cr);
	m->xfer_per_waiter_ps = 0;
	for (i = 0; i < nr; i++) {
		const struct coh_law_point *p = &pts[i];
		double e;

		if (p->bench != COH_BENCH_ADD || p->nr_cpus < 3 ||
		    !point_valid(m, p) || !(p->ns_per_op > 0))
			continue;
		e = coh_law_predict(m, p) - p->ns_per_op;
		ss += e * e;
	}
	say(why, len,
	    "conflict_local %.2f ns, conflict_remote %.2f ns per third party: %u 'add' points, rms residual %.2f ns\n",
	    m->conflict_local_ps / PS_PER_NS, m->conflict_remote_ps / PS_PER_NS,
	    used, sqrt(ss / used));
	return set;
}

/* fit_upgrades() - upgrade by class from two-CPU LOAD_XCHG points. */
static int fit_upgrades(const struct coh_law_point *pts, unsigned int nr,
			struct machine *m, char *why, size_t len)
{
	double sum[NR_COH_DIST] = { 0 };
	unsigned int cnt[NR_COH_DIST] = { 0 }, i;
	int set = 0;
	enum coh_dist d;

	for (i = 0; i < nr; i++) {
		const struct coh_law_point *p = &pts[i];
		unsigned int home;
		double u;

		if (p->bench != COH_BENCH_LOAD_XCHG_PINGPONG ||
		    p->nr_cpus != 2 || !point_valid(m, p) ||
		    !(p->ns_per_op > 0))
			continue;
		d = machine_dist(m, p->cpus[0], p->cpus[1]);
		if (d == COH_DIST_SELF || d == COH_DIST_SMT)
			continue; /* SIM: an SMT upgrade costs xfer_smt */
		home = socket_of(m, p->cpus[0]);
		u = p->ns_per_op - (xfer_ns(m, home, p->cpus[0], p->cpus[1]) +
				    xfer_ns(m, home, p->cpus[1], p->cpus[0])) /
					   2;
		/* a pair's upgrade is the class's at the pair's distance */
		if (d == COH_DIST_SOCKET)
			u *= (double)m->xfer_ps[d] /
			     m->socket_xfer_ps[home][socket_of(m, p->cpus[1])];
		sum[d] += u;
		cnt[d]++;
	}
	for (d = COH_DIST_LLC; d < NR_COH_DIST; d++) {
		double u;

		if (!cnt[d])
			continue;
		u = sum[d] / cnt[d];
		if (u < 0)
			say(why, len,
			    "upgrade (%s): a negative fit (%.1f ns) clamped to 0\n",
			    coh_dist_name(d), u);
		m->upgrade_ps[d] = to_ps(u);
		say(why, len,
		    "upgrade (%s) %.1f ns: %u 'load_xchg_pingpong' points\n",
		    coh_dist_name(d), m->upgrade_ps[d] / PS_PER_NS, cnt[d]);
		set++;
	}
	/* One LLC per socket: the die class is the LLC class. */
	if (cnt[COH_DIST_LLC] && !cnt[COH_DIST_DIE] &&
	    m->cores_per_llc == m->cores_per_socket)
		m->upgrade_ps[COH_DIST_DIE] = m->upgrade_ps[COH_DIST_LLC];
	if (!set)
		say(why, len,
		    "upgrades: no 'load_xchg_pingpong' point; left as they were\n");
	machine_socket_pairs(m);
	return set;
}

/**
 * coh_law_fit() - the law's parameters from measured points.
 * @pts: [@n] measured points; those the fit cannot use are skipped.
 * @n: number of points.
 * @m: a loaded machine whose idle transfers are set; the conflicts,
 *	upgrades and xfer_per_waiter are overwritten where points allow.
 * @why: receives a line per parameter (value, points, residual), or NULL.
 * @len: size of @why.
 *
 * Return: the number of parameters set, or -1 when none could be.
 */
int coh_law_fit(const struct coh_law_point *pts, unsigned int n,
		struct machine *m, char *why, size_t len)
{
	int set;

	if (why && len)
		why[0] = '\0';
	set = fit_conflicts(pts, n, m, why, len) +
	      fit_upgrades(pts, n, m, why, len);
	return set ? set : -1;
}
