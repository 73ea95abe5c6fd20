// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_stats.c - the inline random draws of sim/stats.h: the raw
 * 64-bit output, the bounded integer (Lemire) and the ziggurat
 * exponential; and quantiles asked one after another. (The rest of the
 * sample statistics is tested in check_engine.c.)
 *
 * The distribution tests draw from fixed seeds, so each either always
 * passes or always fails; their thresholds are the 0.1% (chi-square) and
 * 1% (Kolmogorov-Smirnov) critical values, or 5 standard deviations, so a
 * correct generator fails them for a given seed with small probability,
 * and a wrong table or a biased rejection fails them by far.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "sim/stats.h"

/*
 * sim_rng_u64() is the generator's own output: gsl_rng_get() is its top
 * 32 bits and gsl_rng_uniform() its top 53 bits over 2^53 (sim/stats.c),
 * so a twin stream with the same seed gives the same bits through GSL.
 * The first output for seed 12345 has top 32 bits 0xbe6a3637
 * (check_engine.c's reference, from an independent implementation).
 */
START_TEST(sim_rng_u64_is_the_stream)
{
	gsl_rng *a = sim_rng_stream(7, 3), *b = sim_rng_stream(7, 3);
	unsigned int i;

	for (i = 0; i < 1000; i++) {
		uint64_t x = sim_rng_u64(a);

		if (i % 2)
			ck_assert_uint_eq(x >> 32, gsl_rng_get(b));
		else
			ck_assert(gsl_rng_uniform(b) ==
				  (double)(x >> 11) * 0x1.0p-53);
	}
	gsl_rng_free(a);
	gsl_rng_free(b);
	a = gsl_rng_alloc(sim_rng_xoshiro256ss);
	gsl_rng_set(a, 12345);
	ck_assert_uint_eq(sim_rng_u64(a) >> 32, 0xbe6a3637u);
	gsl_rng_free(a);
}
END_TEST

/*
 * For n = 2^k, 2^64 mod n = 0: nothing is rejected and the result is the
 * top k bits of the output, floor(x n / 2^64) = x >> (64 - k). n = 1 gives
 * 0; n = 2^64 - 1 gives the top 64 bits of x (2^64 - 1), which is x - 1
 * for x >= 1 (and x = 0 is rejected: 2^64 mod n = 1).
 */
START_TEST(sim_rng_uniform_int_powers_of_two)
{
	gsl_rng *a = sim_rng_stream(1, 0), *b = sim_rng_stream(1, 0);
	unsigned int i;

	for (i = 0; i < 1000; i++) {
		ck_assert_uint_eq(sim_rng_uniform_int(a, 16),
				  sim_rng_u64(b) >> 60);
		ck_assert_uint_eq(sim_rng_uniform_int(a, 1), 0);
		(void)sim_rng_u64(b);
		ck_assert_uint_eq(sim_rng_uniform_int(a, 1ull << 63),
				  sim_rng_u64(b) >> 1);
		ck_assert_uint_eq(sim_rng_uniform_int(a, UINT64_MAX),
				  sim_rng_u64(b) - 1);
	}
	gsl_rng_free(a);
	gsl_rng_free(b);
}
END_TEST

/*
 * The rejection at work, worked by hand: n = 3 2^62. Write x = 4q + r.
 * Then x n = 3q 2^64 + 3r 2^62, so the result is 3q + floor(3r / 4),
 * that is 3q + 0, 0, 1, 2 for r = 0..3, and the low half is
 * (3r mod 4) 2^62: 0 for r = 0 only. 2^64 mod n = 2^62, so exactly r = 0
 * is rejected: without it, results = 0 (mod 3) would come twice as often
 * (a half of all draws); with it, a third. 30000 draws: 10000 expected,
 * standard deviation sqrt(30000 x 1/3 x 2/3) = 82; the biased draw would
 * give 15000.
 */
START_TEST(sim_rng_uniform_int_rejects)
{
	const uint64_t n = 3ull << 62;
	gsl_rng *r = sim_rng_stream(2, 5);
	unsigned int i, zero = 0;

	for (i = 0; i < 30000; i++) {
		uint64_t v = sim_rng_uniform_int(r, n);

		ck_assert(v < n);
		zero += v % 3 == 0;
	}
	ck_assert_uint_ge(zero, 10000 - 5 * 82);
	ck_assert_uint_le(zero, 10000 + 5 * 82);
	gsl_rng_free(r);
}
END_TEST

/*
 * Small n: every value equally likely. n = 3 and n = 10, 120000 draws
 * each; chi-square with n - 1 degrees of freedom below its 0.1% critical
 * value (13.8 and 27.9).
 */
START_TEST(sim_rng_uniform_int_uniform)
{
	static const unsigned int ns[] = { 3, 10 };
	gsl_rng *r = sim_rng_stream(3, 1);
	unsigned int i, j, count[10];

	for (j = 0; j < 2; j++) {
		double e = 120000.0 / ns[j], chi2 = 0;

		for (i = 0; i < ns[j]; i++)
			count[i] = 0;
		for (i = 0; i < 120000; i++) {
			uint64_t v = sim_rng_uniform_int(r, ns[j]);

			ck_assert_uint_lt(v, ns[j]);
			count[v]++;
		}
		for (i = 0; i < ns[j]; i++)
			chi2 += (count[i] - e) * (count[i] - e) / e;
		ck_assert_double_lt(chi2,
				    gsl_cdf_chisq_Qinv(0.001, ns[j] - 1.0));
	}
	gsl_rng_free(r);
}
END_TEST

/*
 * The tables, from their definition (sim/stats.c), in double arithmetic
 * with libm where tools/gen-ziggurat.py used 60 decimal digits: with x_i
 * = w[i] 2^53, R = 7.69711747013104972 and V = 0.0039496598225815571993,
 * x_1 = R; layer 0 has area x_0 f(R) = V; every layer i >= 1 has area
 * x_i (f(x_i+1) - f(x_i)) = V (relative error of a few 1e-15 from the
 * rounding of the tables); f[i] = exp(-x_i) (within the rounding of
 * x_i, which exp() multiplies by x_i), f[256] = 1, x_255 > 0;
 * k[i] = floor(2^53 x_i+1 / x_i) within 4: x_i, x_i+1 and their
 * quotient are each rounded here (2^-53 relative: 1 in 2^53).
 */
START_TEST(sim_zig_tables)
{
	const double R = 7.69711747013104972, V = 0.0039496598225815571993;
	unsigned int i;
	double x[257];

	for (i = 0; i < 256; i++)
		x[i] = sim_zig_exp.w[i] * 0x1p53;
	x[256] = 0;
	ck_assert_double_eq_tol(x[1], R, 1e-15 * R);
	ck_assert_double_eq_tol(x[0] * exp(-R), V, 1e-14 * V);
	ck_assert(x[255] > 0.06 && x[255] < 0.07);
	ck_assert(sim_zig_exp_f[256] == 1.0);
	for (i = 0; i < 256; i++) {
		double k = floor(0x1p53 * (x[i + 1] / x[i]));

		ck_assert(x[i + 1] < x[i]);
		ck_assert_double_eq_tol(sim_zig_exp_f[i], exp(-x[i]),
					4e-16 * (1 + x[i]) * exp(-x[i]));
		ck_assert_double_eq_tol((double)sim_zig_exp.k[i], k, 4.0);
		if (i >= 1)
			ck_assert_double_eq_tol(x[i] * (sim_zig_exp_f[i + 1] -
							sim_zig_exp_f[i]),
						V, 1e-12 * V);
	}
}
END_TEST

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define NR_EXP (1 << 20)
#define NR_BINS 256

/*
 * The ziggurat against the exponential CDF F(x) = 1 - exp(-x), 2^20 draws
 * of mean 1 from one stream:
 *  - mean 1 within 5 standard deviations (1 / sqrt(2^20) = 1/1024 each);
 *  - chi-square over 256 bins of equal probability (bin floor(256 F(x)),
 *    4096 expected in each) below its 0.1% critical value for 255 degrees
 *    of freedom (about 330): a layer drawn too often or a wedge accepted
 *    wrongly moves the bins over its x range by far more;
 *  - Kolmogorov-Smirnov: the largest distance between the sample's CDF
 *    and F below the 1% critical value 1.63 / sqrt(n) = 0.00159;
 *  - the tail beyond R = 7.697 (layer 0's slow path): probability
 *    exp(-R) = 4.54e-4, 476 expected, standard deviation 22; and the
 *    tail's excess over R is exponential (memoryless), mean 1 within
 *    5 standard deviations (5 / sqrt(476) = 0.23).
 * With mean 3 the draws scale: the mean is 3 within 5 x 3 / 1024.
 */
START_TEST(sim_ran_exponential_distribution)
{
	gsl_rng *r = sim_rng_stream(42, 0);
	double *x = malloc(NR_EXP * sizeof(*x));
	double sum = 0, chi2 = 0, d = 0, tail_sum = 0;
	unsigned int bins[NR_BINS] = { 0 }, tail = 0, i;
	const double R = 7.69711747013104972, e = (double)NR_EXP / NR_BINS;

	ck_assert_ptr_nonnull(x);
	for (i = 0; i < NR_EXP; i++) {
		double F;

		x[i] = sim_ran_exponential(r, 1.0);
		ck_assert(x[i] >= 0 && isfinite(x[i]));
		sum += x[i];
		F = -expm1(-x[i]);
		bins[(unsigned int)(F * NR_BINS)]++;
		if (x[i] > R) {
			tail++;
			tail_sum += x[i] - R;
		}
	}
	ck_assert_double_eq_tol(sum / NR_EXP, 1.0, 5.0 / 1024);
	for (i = 0; i < NR_BINS; i++)
		chi2 += (bins[i] - e) * (bins[i] - e) / e;
	ck_assert_double_lt(chi2, gsl_cdf_chisq_Qinv(0.001, NR_BINS - 1));
	qsort(x, NR_EXP, sizeof(*x), cmp_double);
	for (i = 0; i < NR_EXP; i++) {
		double F = -expm1(-x[i]);

		d = fmax(d, fmax(F - (double)i / NR_EXP,
				 (double)(i + 1) / NR_EXP - F));
	}
	ck_assert_double_lt(d, 1.63 / 1024);
	ck_assert_uint_ge(tail, 476 - 5 * 22);
	ck_assert_uint_le(tail, 476 + 5 * 22);
	ck_assert_double_eq_tol(tail_sum / tail, 1.0, 0.23);
	sum = 0;
	for (i = 0; i < NR_EXP; i++)
		sum += sim_ran_exponential(r, 3.0);
	ck_assert_double_eq_tol(sum / NR_EXP, 3.0, 5.0 * 3 / 1024);
	free(x);
	gsl_rng_free(r);
}
END_TEST

/*
 * The wedge test of the top layer, alone: every other layer covers
 * [0, x_255) = [0, 0.06385) with the part of its rectangle that is
 * wholly under the density, uniformly, so the density's slope there comes
 * from the top layer's wedge test only (a wrong f entry, or a test that
 * always or never accepts, leaves it flat or wrong). Conditioned on
 * x < x_255, x is the exponential truncated there: the density falls by
 * 6.2% across it, and the first half holds (1 - e^-h) / (1 - e^-2h) =
 * 1 / (1 + e^-h) of the draws, h = x_255 / 2 = 0.031926: 0.50798. Of
 * 2^22 draws about 1 - e^-x_255 = 6.19% fall there (259000): standard
 * deviation 0.00098, so a flat density (0.5) is 8 of them away; the test
 * asks for 0.50798 within 3.
 */
START_TEST(sim_ran_exponential_top_wedge)
{
	const double top = 0.06385216381500354, h = top / 2;
	gsl_rng *r = sim_rng_stream(43, 0);
	unsigned int i, in = 0, low = 0;
	double want = 1 / (1 + exp(-h)), frac, sd;

	for (i = 0; i < 4 * NR_EXP; i++) {
		double x = sim_ran_exponential(r, 1.0);

		if (x < top) {
			in++;
			low += x < h;
		}
	}
	frac = (double)low / in;
	sd = sqrt(want * (1 - want) / in);
	/* P(x < x_255): standard deviation sqrt(p (1 - p) / 2^22) = 0.000118 */
	ck_assert_double_eq_tol((double)in / (4 * NR_EXP), -expm1(-top),
				5 * 0.000118);
	ck_assert_double_eq_tol(frac, want, 3 * sd);
	gsl_rng_free(r);
}
END_TEST

/*
 * sim_stat_quantile() after sim_stat_quantile(): the second selects among
 * the samples above the first one's split (sim/stats.c), yet must give
 * exactly what GSL's quantile of the sorted samples gives: the same two
 * order statistics, interpolated the same way. 1000 samples with many
 * ties (values 0..49, from a stream), quantiles asked in increasing,
 * decreasing and repeated order, and again after a sample is added
 * (which voids the split).
 */
/*
 * The ziggurat's wedge test without exp() where the tangent or the chord
 * decides (sim_zig_wedge_below()) must decide as y < exp(-v) everywhere:
 * random points of every layer's wedge (the slow path's: u at least the
 * layer's k), some just left of it (u below k: the chord does not hold
 * there), and y a few ulps either side of exp(-v), where only exp() can
 * tell.
 */
START_TEST(sim_zig_wedge_as_exp)
{
	gsl_rng *r = sim_rng_stream(47, 0);
	unsigned int n, i, j, below = 0;

	for (n = 0; n < (1u << 20); n++) {
		uint64_t k, u;
		double v, y, e, lo, hi;

		i = 1 + (unsigned int)sim_rng_uniform_int(r, 255);
		k = sim_zig_exp.k[i];
		u = n % 8 ? k + sim_rng_uniform_int(r, (1ull << 53) - k) :
			    k - 1 - sim_rng_uniform_int(r, k / 64 + 1);
		v = (double)(int64_t)u * sim_zig_exp.w[i];
		lo = sim_zig_exp_f[i];
		hi = sim_zig_exp_f[i + 1];
		e = exp(-v);
		y = lo + (hi - lo) * gsl_rng_uniform(r);
		if (n % 4 == 3) /* a few ulps either side of the curve */
			for (y = e, j = sim_rng_uniform_int(r, 9); j; j--)
				y = nextafter(y, n % 8 == 3 ? 0.0 : 2.0);
		ck_assert_msg(sim_zig_wedge_below(i, v, y) == (y < e),
			      "layer %u v %.17g y %.17g exp %.17g", i, v, y, e);
		below += y < e;
	}
	/* both answers, many times */
	ck_assert_uint_gt(below, 1u << 17);
	ck_assert_uint_lt(below, (1u << 20) - (1u << 17));
	gsl_rng_free(r);
}
END_TEST

START_TEST(sim_stat_quantile_sequence)
{
	static const double qs[] = { 0.5,  0.9,	 0.99, 0.99, 1.0,  0.0,
				     0.25, 0.75, 0.5,  0.1,  0.999 };
	gsl_rng *r = sim_rng_stream(5, 0);
	double sorted[1002];
	struct sim_stat s;
	unsigned int i, n = 1000;

	sim_stat_init(&s);
	for (i = 0; i < n; i++) {
		sorted[i] = (double)sim_rng_uniform_int(r, 50);
		sim_stat_add(&s, sorted[i]);
	}
	for (int round = 0; round < 2; round++) {
		qsort(sorted, n, sizeof(*sorted), cmp_double);
		for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
			ck_assert(sim_stat_quantile(&s, qs[i]) ==
				  gsl_stats_quantile_from_sorted_data(
					  sorted, 1, n, qs[i]));
		sorted[n] = 17.5;
		sim_stat_add(&s, sorted[n++]);
	}
	sim_stat_destroy(&s);
	gsl_rng_free(r);
}
END_TEST

/*
 * sim_stat_quantile_each() of @qs[0, @nq) must be exactly GSL's quantiles of
 * @sorted[0, @m), as sim_stat_quantile()'s are, one at a time.
 */
static void check_quantiles_at_once(struct sim_stat *s, const double *sorted,
				    size_t m, const double *qs, size_t nq)
{
	double got[16], want;
	size_t i;

	sim_stat_quantile_each(s, qs, nq, got);
	for (i = 0; i < nq; i++) {
		want = m ? gsl_stats_quantile_from_sorted_data(sorted, 1, m,
							       qs[i]) :
			   0.0;
		ck_assert_msg(
			got[i] == want,
			"n %zu q %g of %zu at once: got %.17g, want %.17g", m,
			qs[i], nq, got[i], want);
	}
}

/*
 * The quantiles of @x[0, @n) from a struct sim_stat, asked in the order
 * of @qs, then again after one more sample, @extra: each must be
 * exactly GSL's quantile of a sorted copy (qsort), and the mean exactly
 * the sum formed sample by sample, in the order they came, over n.
 * Whether sim_stat_quantile() selects (under 1024 samples, or with a
 * negative one) or groups by radix digit, the order statistics are the
 * same, so the numbers are. Each round first asks sim_stat_quantile_each()
 * for the report's sets (p50, p90, p99; p50, p99), the first eight of
 * @qs (its largest set at once, the buckets of up to 16 ranks) and all
 * of them (one at a time): its one pass copies the buckets of the ranks
 * out, without reordering the samples, before anything grouped them.
 */
static void check_quantiles(const double *x, size_t n, double extra)
{
	static const double qs[] = { 0.5,  0.9, 0.99, 0.99,  1.0,   0.0, 0.25,
				     0.75, 0.5, 0.1,  0.999, 0.001, 0.37 };
	static const double p50_90_99[] = { 0.5, 0.9, 0.99 };
	double *sorted = malloc((n + 2) * sizeof(*sorted)), sum = 0;
	struct sim_stat s;
	size_t i, m = n;

	ck_assert_ptr_nonnull(sorted);
	sim_stat_init(&s);
	for (i = 0; i < n; i++) {
		sorted[i] = x[i];
		sim_stat_add(&s, x[i]);
	}
	for (int round = 0; round < 2; round++) {
		sum = 0;
		for (i = 0; i < m; i++)
			sum += round && i == n ? extra : x[i];
		qsort(sorted, m, sizeof(*sorted), cmp_double);
		ck_assert(sim_stat_mean(&s) == (m ? sum / (double)m : 0.0));
		check_quantiles_at_once(&s, sorted, m, p50_90_99, 3);
		check_quantiles_at_once(&s, sorted, m, p50_90_99, 0);
		check_quantiles_at_once(&s, sorted, m, qs + 3, 2);
		check_quantiles_at_once(&s, sorted, m, qs, 8);
		ck_assert(sim_stat_mean(&s) == (m ? sum / (double)m : 0.0));
		check_quantiles_at_once(&s, sorted, m, qs,
					sizeof(qs) / sizeof(qs[0]));
		for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
			double got = sim_stat_quantile(&s, qs[i]);
			double want = m ? gsl_stats_quantile_from_sorted_data(
						  sorted, 1, m, qs[i]) :
					  0.0;

			ck_assert_msg(got == want,
				      "n %zu q %g: got %.17g, want %.17g", m,
				      qs[i], got, want);
		}
		/* the mean again, after the samples were reordered */
		ck_assert(sim_stat_mean(&s) == (m ? sum / (double)m : 0.0));
		sorted[m++] = extra;
		sim_stat_add(&s, extra);
	}
	sim_stat_destroy(&s);
	free(sorted);
}

/*
 * Quantiles against a sort, for the selection and the radix select
 * (1024 samples and more), the data that are hard for each: few and
 * tiny arrays, zeros, all equal (no bit varies: one bucket), many ties
 * (a bucket of equal samples; rank k + 1 the first of the next bucket),
 * samples over 60 octaves (the digit is the top of the exponent), over
 * one octave (the digit is mantissa bits), consecutive doubles (the
 * digit is the lowest bits), samples crowded in a sliver of a wide span
 * (buckets of thousands, grouped again, with and without ties), a
 * contended line's latencies (clumps of ties; one value most of them),
 * and negative samples (the selection).
 */
START_TEST(sim_stat_quantile_against_sort)
{
	static const size_t sizes[] = { 0,    1,    2,	  3,	 5,	1023,
					1024, 1025, 4000, 40000, 300000 };
	size_t nmax = 300001, i, j;
	double *x = malloc(nmax * sizeof(*x));
	gsl_rng *r = sim_rng_stream(9, 0);

	ck_assert_ptr_nonnull(x);
	for (j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++) {
		size_t n = sizes[j];

		/* uniform over [0, 1000): every sample different */
		for (i = 0; i < n; i++)
			x[i] = 1000.0 * gsl_rng_uniform(r);
		check_quantiles(x, n, 17.25);
		/* integers 0..9 in ns: ties, and 0.0 */
		for (i = 0; i < n; i++)
			x[i] = (double)sim_rng_uniform_int(r, 10);
		check_quantiles(x, n, 4.0);
		/* all equal; then one sample below them all */
		for (i = 0; i < n; i++)
			x[i] = 80.5;
		check_quantiles(x, n, 3.0);
		/* all zero; then one above */
		for (i = 0; i < n; i++)
			x[i] = 0.0;
		check_quantiles(x, n, 1.0);
		/* 2^-30 .. 2^30, log-uniform, some repeated */
		for (i = 0; i < n; i++)
			x[i] = i % 7 == 3 ?
				       1.0 :
				       ldexp(1.0 + gsl_rng_uniform(r),
					     (int)sim_rng_uniform_int(r, 61) -
						     30);
		check_quantiles(x, n, 1e9);
		/* one octave, [64, 128) */
		for (i = 0; i < n; i++)
			x[i] = 64.0 + 64.0 * gsl_rng_uniform(r);
		check_quantiles(x, n, 100.0);
		/* 2^20 + (0..255) ulps: only the low 8 bits vary */
		for (i = 0; i < n; i++) {
			uint64_t b = 0x4130000000000000ull +
				     sim_rng_uniform_int(r, 256);

			memcpy(&x[i], &b, sizeof(b));
		}
		check_quantiles(x, n, 0x1p20);
		/*
		 * crowded into [100, 100.5), a few far ones (1e-6, 1e9)
		 * stretching the span: large buckets, grouped again
		 */
		for (i = 0; i < n; i++)
			x[i] = i % 1000 == 7 ? 1e-6 :
			       i % 1000 == 500 ?
					       1e9 :
					       100.0 + 0.5 * gsl_rng_uniform(r);
		check_quantiles(x, n, 100.25);
		/* the same with ties: 100 + 0.001 j, j = 0..599 */
		for (i = 0; i < n; i++)
			x[i] = i % 1000 == 7 ?
				       1e-6 :
				       100.0 + 0.001 * (double)sim_rng_uniform_int(
							       r, 600);
		check_quantiles(x, n, 100.3);
		/*
		 * a contended line's latencies: whole ps in ns, 800 values
		 * in four clumps a hand-off (48 ns) apart, ties in each
		 */
		for (i = 0; i < n; i++) {
			int64_t ps = 48000 * (1 + (int64_t)sim_rng_uniform_int(
							  r, 4)) +
				     (int64_t)sim_rng_uniform_int(r, 200);

			x[i] = (double)ps / 1000.0;
		}
		check_quantiles(x, n, 96.1);
		/*
		 * crowded: 85% one hand-off (48 ns), 12% one hit (7 ns),
		 * the rest a few ps above 48 and spread to 100 ns; the
		 * first sample one of the few (a bucket's first sample is
		 * not always its most common value)
		 */
		for (i = 0; i < n; i++) {
			uint64_t u = sim_rng_uniform_int(r, 100),
				 ps = 1 + sim_rng_uniform_int(r, 3);

			if (u < 85)
				x[i] = 48.0;
			else if (u < 97)
				x[i] = 7.0;
			else if (u < 98) /* 48.001 .. 48.003 */
				x[i] = 48.0 + 0.001 * (double)ps;
			else
				x[i] = 48.0 + 52.0 * gsl_rng_uniform(r);
		}
		if (n)
			x[0] = 48.002;
		check_quantiles(x, n, 48.0);
		/* negative, zero and positive */
		for (i = 0; i < n; i++)
			x[i] = (double)sim_rng_uniform_int(r, 2001) - 1000.0;
		check_quantiles(x, n, -3.5);
		/* positive, then a negative sample added */
		for (i = 0; i < n; i++)
			x[i] = 5.0 + (double)sim_rng_uniform_int(r, 100);
		check_quantiles(x, n, -1.0);
	}
	gsl_rng_free(r);
	free(x);
}
END_TEST

/*
 * The mean is the sum formed sample by sample in the order they came,
 * though sim_stat_add() stores the samples and they are added later
 * (before the array is reordered or folded into the histogram, and for
 * the mean): 0.1 + 1e16 + ... rounds differently in any other order.
 * Past SIM_STAT_EXACT samples (the histogram) the sum goes on in order.
 */
START_TEST(sim_stat_mean_in_order)
{
	static const double x[] = { 0.1, 1e16, 3.0, -1e16, 0.7, 2.5e-3, 1.0 };
	size_t n = SIM_STAT_EXACT + 1000, i;
	struct sim_stat s;
	double sum = 0;

	sim_stat_init(&s);
	for (i = 0; i < n; i++) {
		sum += x[i % 7];
		sim_stat_add(&s, x[i % 7]);
		if (i == 5000 || i == 5001 || i == 70000) {
			ck_assert(sim_stat_mean(&s) == sum / (double)(i + 1));
			(void)sim_stat_quantile(&s, 0.5);
		}
	}
	ck_assert_ptr_nonnull(s.hist);
	ck_assert(sim_stat_mean(&s) == sum / (double)n);
	sim_stat_reset(&s);
	sim_stat_add(&s, 2.0);
	sim_stat_add(&s, 5.0);
	ck_assert(sim_stat_mean(&s) == 3.5);
	ck_assert(sim_stat_quantile(&s, 0.5) == 3.5);
	sim_stat_destroy(&s);
}
END_TEST

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("random");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, sim_rng_u64_is_the_stream);
	tcase_add_test(tc, sim_rng_uniform_int_powers_of_two);
	tcase_add_test(tc, sim_rng_uniform_int_rejects);
	tcase_add_test(tc, sim_rng_uniform_int_uniform);
	tcase_add_test(tc, sim_zig_tables);
	tcase_add_test(tc, sim_ran_exponential_distribution);
	tcase_add_test(tc, sim_ran_exponential_top_wedge);
	tcase_add_test(tc, sim_zig_wedge_as_exp);
	tcase_add_test(tc, sim_stat_quantile_sequence);
	tcase_add_test(tc, sim_stat_quantile_against_sort);
	tcase_add_test(tc, sim_stat_mean_in_order);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(stats_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
