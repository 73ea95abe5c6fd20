// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/stats.c - sample statistics (GSL) and random streams.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_histogram.h>
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
	if (s->hist)
		gsl_histogram_free(s->hist);
	sim_stat_init(s);
}

void sim_stat_reset(struct sim_stat *s)
{
	s->n = 0;
	s->sum = 0;
	if (s->hist) {
		gsl_histogram_free(s->hist);
		s->hist = NULL;
	}
}

/*
 * The histogram spans 1e-3 to 1e12 in the samples' unit (1 ps to 1000 s
 * for nanoseconds) in bins of SIM_STAT_BIN_REL relative width; samples
 * outside are clamped into the first or last bin.
 */
#define HIST_MIN 1e-3
#define HIST_MAX 1e12

static void hist_add(struct sim_stat *s, double x);

static void stat_fold(struct sim_stat *s)
{
	size_t nbins = 0, i;
	double *range, edge;

	/*
	 * Bin edges by repeated multiplication, not exp()/log(): IEEE
	 * multiplication is correctly rounded everywhere, libm is not, and
	 * the bins must be the same on every machine.
	 */
	for (edge = HIST_MIN; edge <= HIST_MAX; edge *= 1.0 + SIM_STAT_BIN_REL)
		nbins++;
	range = malloc((nbins + 1) * sizeof(*range));
	s->hist = gsl_histogram_alloc(nbins);
	SIM_BUG_ON(!s->hist || !range);
	range[0] = HIST_MIN;
	for (i = 1; i <= nbins; i++)
		range[i] = range[i - 1] * (1.0 + SIM_STAT_BIN_REL);
	SIM_BUG_ON(gsl_histogram_set_ranges(s->hist, range, nbins + 1));
	free(range);
	for (i = 0; i < s->n; i++)
		hist_add(s, s->v[i]);
	free(s->v);
	s->v = NULL;
	s->cap = 0;
}

/*
 * ln_guess() - the natural logarithm of @x (a positive normal double) to
 * about 1e-5, from its exponent and the series
 * ln(m) = 2 atanh((m - 1) / (m + 1)) for the mantissa m in [1, 2), four
 * terms. No libm: it is only a guess that hist_add() settles against the
 * exact bin edges, so neither its rounding nor the machine's matters.
 */
static double ln_guess(double x)
{
	uint64_t bits;
	double m, t, t2;
	int e;

	memcpy(&bits, &x, sizeof(bits));
	e = (int)((bits >> 52) & 0x7ff) - 1023;
	bits = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
	memcpy(&m, &bits, sizeof(m));
	t = (m - 1) / (m + 1);
	t2 = t * t;
	return e * 0.6931471805599453 +
	       2 * t * (1 + t2 * (1.0 / 3 + t2 * (1.0 / 5 + t2 * (1.0 / 7))));
}

/* ln(HIST_MIN) and 1 / ln(1 + SIM_STAT_BIN_REL), for the guess only */
#define HIST_LN_MIN -6.907755278982137
#define HIST_BINS_PER_LN 500.49983349978913

/*
 * hist_add() - count @x in its bin. The bin is guessed from ln_guess()
 * (within a bin or so) and then settled against the exact edges, so the
 * bin is the one gsl_histogram_increment's binary search over ~17000
 * bins would find, at a fraction of the cost, and without a libm log()
 * per sample.
 */
static void hist_add(struct sim_stat *s, double x)
{
	gsl_histogram *h = s->hist;
	double guess;
	size_t i;

	if (x < HIST_MIN)
		x = HIST_MIN;
	if (x > HIST_MAX)
		x = HIST_MAX;
	guess = (ln_guess(x) - HIST_LN_MIN) * HIST_BINS_PER_LN;
	i = guess < 0 ? 0 : (size_t)guess;
	if (i >= h->n)
		i = h->n - 1;
	while (i > 0 && x < h->range[i])
		i--;
	while (i + 1 < h->n && x >= h->range[i + 1])
		i++;
	h->bin[i] += 1;
}

void sim_stat_add(struct sim_stat *s, double x)
{
	s->sum += x;
	if (s->hist) {
		hist_add(s, x);
		s->n++;
		return;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		double *v;

		if (s->n == SIM_STAT_EXACT) {
			stat_fold(s);
			hist_add(s, x);
			s->n++;
			return;
		}
		v = realloc(s->v, cap * sizeof(*v));
		SIM_BUG_ON(!v);
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = x;
}

double sim_stat_mean(const struct sim_stat *s)
{
	return s->n ? s->sum / (double)s->n : 0.0;
}

/* The @q quantile of the histogram: interpolated inside its bin. */
static double hist_quantile(const struct sim_stat *s, double q)
{
	double target = q * (double)s->n, cum = 0, lo, hi, c;
	size_t i, nbins = gsl_histogram_bins(s->hist);

	for (i = 0; i < nbins; i++) {
		c = gsl_histogram_get(s->hist, i);
		if (c > 0 && cum + c >= target) {
			gsl_histogram_get_range(s->hist, i, &lo, &hi);
			return lo + (hi - lo) * (target - cum) / c;
		}
		cum += c;
	}
	gsl_histogram_get_range(s->hist, nbins - 1, &lo, &hi);
	return lo;
}

/*
 * sim_stat_quantile() - GSL's quantile definition (as
 * gsl_stats_quantile_from_sorted_data: linear interpolation between the
 * order statistics around (n - 1) q), computed with gsl_stats_select()
 * in linear time instead of sorting. The samples are reordered.
 */
double sim_stat_quantile(struct sim_stat *s, double q)
{
	double index, delta, lo, hi;
	size_t k;

	if (!s->n)
		return 0.0;
	if (s->hist)
		return hist_quantile(s, q);
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
	*half = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * sd /
		sqrt((double)n);
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
