// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/stats.c - sample statistics (GSL) and random streams.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "sim/error.h"
#include "sim/stats.h"

void sim_stat_init(struct sim_stat *s)
{
	memset(s, 0, sizeof(*s));
}

void sim_stat_destroy(struct sim_stat *s)
{
	free(s->v);
	sim_stat_init(s);
}

void sim_stat_reset(struct sim_stat *s)
{
	s->n = 0;
	s->sum = 0;
}

void sim_stat_add(struct sim_stat *s, double x)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		double *v = realloc(s->v, cap * sizeof(*v));

		SIM_BUG_ON(!v);
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = x;
	s->sum += x;
}

double sim_stat_mean(const struct sim_stat *s)
{
	return s->n ? s->sum / (double)s->n : 0.0;
}

/*
 * sim_stat_quantile() - GSL's quantile definition (as
 * gsl_stats_quantile_from_sorted_data: linear interpolation between the
 * order statistics around (n - 1) q), computed with gsl_stats_select()
 * in linear time instead of sorting: runs collect millions of samples.
 * The samples are reordered.
 */
double sim_stat_quantile(struct sim_stat *s, double q)
{
	double index, delta, lo, hi;
	size_t k;

	if (!s->n)
		return 0.0;
	index = q * (double)(s->n - 1);
	k = (size_t)index;
	delta = index - (double)k;
	lo = gsl_stats_select(s->v, 1, s->n, k);
	if (k + 1 >= s->n || delta == 0.0)
		return lo;
	hi = gsl_stats_select(s->v, 1, s->n, k + 1);
	return (1 - delta) * lo + delta * hi;
}

void sim_ci95(const double *x, size_t n, double *mean, double *half)
{
	double sd;

	*mean = n ? gsl_stats_mean(x, 1, n) : 0.0;
	*half = 0.0;
	if (n < 2)
		return;
	sd = gsl_stats_sd_m(x, 1, n, *mean);
	*half = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * sd / sqrt((double)n);
}

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

uint64_t sim_seed_derive(uint64_t seed, uint64_t stream)
{
	return splitmix64(splitmix64(seed) ^ splitmix64(~stream));
}

gsl_rng *sim_rng_stream(uint64_t seed, uint64_t stream)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	SIM_BUG_ON(!r);
	/* mt19937 takes an unsigned long seed; 0 would mean its default. */
	gsl_rng_set(r, (unsigned long)(sim_seed_derive(seed, stream) | 1));
	return r;
}
