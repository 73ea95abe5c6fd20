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
 * The histogram: HDR-style log-linear bins read straight off the IEEE
 * 754 representation of a sample. A positive double's bits, as an
 * integer, grow with its value; their top 12 + SIM_STAT_BIN_BITS bits
 * (exponent and the leading mantissa bits) number bins that split each
 * power of two into 2^SIM_STAT_BIN_BITS equal parts, each at most
 * 2^-SIM_STAT_BIN_BITS (0.2%) of its lower edge wide. A sample's bin is
 * a shift and a subtraction: no libm, no search, no accumulated rounding
 * in the edges, the same on every machine.
 *
 * The bins span HIST_MIN to HIST_MAX in the samples' unit (1 ps to
 * 1000 s for nanoseconds): about 26000 bins; samples outside are
 * clamped into the first or last bin.
 */
#define HIST_MIN 1e-3
#define HIST_MAX 1e12
#define HIST_SHIFT (52 - SIM_STAT_BIN_BITS)

static uint64_t hist_key(double x)
{
	uint64_t bits;

	memcpy(&bits, &x, sizeof(bits));
	return bits >> HIST_SHIFT;
}

static double hist_edge(uint64_t key)
{
	uint64_t bits = key << HIST_SHIFT;
	double x;

	memcpy(&x, &bits, sizeof(x));
	return x;
}

static void hist_add(struct sim_stat *s, double x);

static void stat_fold(struct sim_stat *s)
{
	uint64_t first = hist_key(HIST_MIN), last = hist_key(HIST_MAX);
	size_t nbins = (size_t)(last - first + 1), i;
	double *range;

	range = malloc((nbins + 1) * sizeof(*range));
	s->hist = gsl_histogram_alloc(nbins);
	SIM_OOM_ON(!s->hist || !range);
	for (i = 0; i <= nbins; i++)
		range[i] = hist_edge(first + i);
	SIM_BUG_ON(gsl_histogram_set_ranges(s->hist, range, nbins + 1));
	free(range);
	for (i = 0; i < s->n; i++)
		hist_add(s, s->v[i]);
	free(s->v);
	s->v = NULL;
	s->cap = 0;
}

/* hist_add() - count @x in its bin: the one gsl_histogram_find() finds. */
static void hist_add(struct sim_stat *s, double x)
{
	if (!(x >= HIST_MIN)) /* NaN too */
		x = HIST_MIN;
	if (x > HIST_MAX)
		x = HIST_MAX;
	s->hist->bin[hist_key(x) - hist_key(HIST_MIN)] += 1;
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
		SIM_OOM_ON(!v);
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
 * next_order_stat() - the (@k + 1)-th smallest of @v (from 0), given that
 * the @k-th is @lo: @lo again when more than k + 1 samples are at most
 * @lo, else the smallest sample above it. One pass, where a second
 * selection would take several.
 */
static double next_order_stat(const double *v, size_t n, size_t k, double lo)
{
	size_t i, at_most = 0;
	double above = 0;
	bool found = false;

	for (i = 0; i < n; i++) {
		if (v[i] <= lo) {
			at_most++;
		} else if (!found || v[i] < above) {
			above = v[i];
			found = true;
		}
	}
	return at_most > k + 1 || !found ? lo : above;
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
	hi = next_order_stat(s->v, s->n, k, lo);
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

/*
 * The generator: xoshiro256** 1.0 (D. Blackman and S. Vigna, "Scrambled
 * linear pseudorandom number generators", ACM TOMS 47(4), 2021; their
 * public-domain reference code, https://prng.di.unimi.it/
 * xoshiro256starstar.c, written here from it), wrapped as a gsl_rng_type
 * so that every draw still goes through the gsl_rng API. It replaced
 * GSL's mt19937 for speed: a draw is a dozen instructions, against
 * mt19937's few dozen with its table refills (a deliberate change of the
 * random stream: every golden was re-recorded with it). Its state is
 * seeded from the stream's seed by splitmix64, as its authors advise.
 */
struct xoshiro_state {
	uint64_t s[4];
};

static inline uint64_t rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t xoshiro_next(struct xoshiro_state *st)
{
	uint64_t *s = st->s;
	uint64_t result = rotl64(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl64(s[3], 45);
	return result;
}

static void xoshiro_set(void *state, unsigned long seed)
{
	struct xoshiro_state *st = state;
	uint64_t x = seed;
	int i;

	for (i = 0; i < 4; i++) {
		st->s[i] = splitmix64(x);
		x += 0x9e3779b97f4a7c15ull;
	}
}

/* 32-bit outputs (the top bits, the best ones) whatever unsigned long is */
static unsigned long xoshiro_get(void *state)
{
	return (unsigned long)(xoshiro_next(state) >> 32);
}

/* 53 random bits: a multiple of 2^-53 in [0, 1) */
static double xoshiro_get_double(void *state)
{
	return (double)(xoshiro_next(state) >> 11) * 0x1.0p-53;
}

static const gsl_rng_type sim_rng_xoshiro256ss_type = {
	.name = "xoshiro256**",
	.max = 0xffffffffUL,
	.min = 0,
	.size = sizeof(struct xoshiro_state),
	.set = xoshiro_set,
	.get = xoshiro_get,
	.get_double = xoshiro_get_double,
};

const gsl_rng_type *sim_rng_xoshiro256ss = &sim_rng_xoshiro256ss_type;

gsl_rng *sim_rng_stream(uint64_t seed, uint64_t stream)
{
	gsl_rng *r = gsl_rng_alloc(sim_rng_xoshiro256ss);

	SIM_OOM_ON(!r);
	gsl_rng_set(r, (unsigned long)sim_seed_derive(seed, stream));
	return r;
}

double sim_ran_exponential(gsl_rng *r, double mean)
{
	/*
	 * 1 - u is exact for u a multiple of 2^-53 in [0, 1), so this is
	 * gsl_ran_exponential()'s -mean * log1p(-u) with the cheaper log().
	 */
	return -mean * log(1.0 - gsl_rng_uniform(r));
}
