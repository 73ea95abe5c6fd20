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
	free(s->bucket);
	if (s->hist)
		gsl_histogram_free(s->hist);
	sim_stat_init(s);
}

void sim_stat_reset(struct sim_stat *s)
{
	s->n = 0;
	s->sum = 0;
	s->summed = 0;
	s->any = s->all = 0;
	s->split = s->split_n = 0;
	s->bucket_n = 0;
	s->hist_bin = NULL;
	s->hist_bins = 0;
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
 * The bins span SIM_STAT_HIST_MIN to SIM_STAT_HIST_MAX in the samples'
 * unit (1 ps to 1000 s for nanoseconds): about 26000 bins; samples
 * outside are clamped into the first or last bin. The key is
 * sim_stat_hist_key() in sim/stats.h, where sim_stat_add() uses it.
 */
static double hist_edge(uint64_t key)
{
	uint64_t bits = key << SIM_STAT_HIST_SHIFT;
	double x;

	memcpy(&x, &bits, sizeof(x));
	return x;
}

static void hist_add(struct sim_stat *s, double x);

static uint64_t stat_bits(const double *v)
{
	uint64_t bits;

	memcpy(&bits, v, sizeof(bits));
	return bits;
}

/*
 * stat_sum_up() - add the samples sim_stat_add() stored but did not sum,
 * v[summed, n), to the sum, in the order they came, and note their bits
 * in @s->any and @s->all (for the radix select below). Done when the
 * mean is asked and before the array is reordered (a quantile) or
 * folded, so that the sum is formed in exactly the order it would be
 * sample by sample. The bits of two samples at a time are or-ed and
 * and-ed in a vector register (GCC's and clang's vector extension),
 * and the loop is unrolled (the additions stay in order): about 3.5
 * instructions a sample, where the inline sim_stat_add() saves 3.
 */
static void stat_sum_up(struct sim_stat *s)
{
	/* two samples' bits at once (SSE2 on x86-64) */
	typedef uint64_t u64x2 __attribute__((vector_size(16)));
	uint64_t any = s->any, all = s->summed ? s->all : ~0ull, bits;
	u64x2 any2 = { any, any }, all2 = { all, all }, pair;
	double sum = s->sum, *v = s->v;
	size_t i = s->summed, n = s->n;

#pragma GCC unroll 2
	for (; i + 2 <= n; i += 2) {
		memcpy(&pair, &v[i], sizeof(pair));
		any2 |= pair;
		all2 &= pair;
		sum += v[i];
		sum += v[i + 1];
	}
	any = any2[0] | any2[1];
	all = all2[0] & all2[1];
	if (i < n) {
		bits = stat_bits(&v[i]);
		sum += v[i];
		any |= bits;
		all &= bits;
	}
	s->sum = sum;
	s->any = any;
	s->all = all;
	s->summed = n;
}

static void stat_fold(struct sim_stat *s)
{
	uint64_t first = sim_stat_hist_key(SIM_STAT_HIST_MIN),
		 last = sim_stat_hist_key(SIM_STAT_HIST_MAX);
	size_t nbins = (size_t)(last - first + 1), i;
	double *range, sum = s->sum;

	range = malloc((nbins + 1) * sizeof(*range));
	s->hist = gsl_histogram_alloc(nbins);
	SIM_OOM_ON(!s->hist || !range);
	for (i = 0; i <= nbins; i++)
		range[i] = hist_edge(first + i);
	SIM_BUG_ON(gsl_histogram_set_ranges(s->hist, range, nbins + 1));
	free(range);
	/*
	 * Bin each sample as sim_stat_add() does (a sample outside the span
	 * is clamped), and add those not summed yet to the sum, in order.
	 */
	for (i = 0; i < s->n; i++) {
		uint64_t bin = sim_stat_hist_key(s->v[i]) - first;

		if (i >= s->summed)
			sum += s->v[i];
		if (bin < nbins)
			s->hist->bin[bin] += 1;
		else
			hist_add(s, s->v[i]);
	}
	s->sum = sum;
	s->summed = s->n;
	s->hist_bin = s->hist->bin;
	s->hist_bins = nbins;
	free(s->v);
	s->v = NULL;
	s->cap = 0;
}

/*
 * hist_add() - count @x in its bin: the one gsl_histogram_find() finds
 * (sim_stat_add() does the same inline for samples inside the span).
 */
static void hist_add(struct sim_stat *s, double x)
{
	if (!(x >= SIM_STAT_HIST_MIN)) /* NaN too */
		x = SIM_STAT_HIST_MIN;
	if (x > SIM_STAT_HIST_MAX)
		x = SIM_STAT_HIST_MAX;
	s->hist->bin[sim_stat_hist_key(x) -
		     sim_stat_hist_key(SIM_STAT_HIST_MIN)] += 1;
}

/* sim_stat_add()'s cases but the common one: see sim/stats.h. */
void sim_stat_add_slow(struct sim_stat *s, double x)
{
	if (s->hist) {
		s->sum += x;
		hist_add(s, x);
		s->n++;
		return;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		double *v;

		if (s->n == SIM_STAT_EXACT) {
			stat_fold(s);
			s->sum += x;
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

double sim_stat_mean(struct sim_stat *s)
{
	if (!s->hist)
		stat_sum_up(s);
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
 * split_above() - move the samples of v[@lo, @n) that are at most @x to
 * the front of that range; return how many there are, and in *@above the
 * smallest sample above @x (*@found says whether there is one). One pass.
 */
static size_t split_above(double *v, size_t lo, size_t n, double x,
			  double *above, bool *found)
{
	size_t i, j = lo;
	double t;

	*found = false;
	*above = 0;
	for (i = lo; i < n; i++) {
		if (v[i] <= x) {
			t = v[j];
			v[j++] = v[i];
			v[i] = t;
		} else if (!*found || v[i] < *above) {
			*above = v[i];
			*found = true;
		}
	}
	return j - lo;
}

/*
 * select_split() - the @k-th smallest sample (from 0) by selection, and
 * in *@above the (k + 1)-th (k + 1 < n), for arrays too short for the
 * radix select below, or with negative samples. The samples are
 * reordered: after the k-th smallest sample x is found, one pass moves
 * the samples at most x in front of the others and finds the smallest
 * above x, which is the (k + 1)-th unless more than k + 1 samples are at
 * most x. That split stays in @s->split until a sample is added, and a
 * later quantile at or above it (the callers ask for p50, p90, p99 in
 * that order) selects among the samples above it only: the k-th smallest
 * of all is the (k - split)-th smallest of those, since none of the
 * samples below the split is above any of them.
 */
static double select_split(struct sim_stat *s, size_t k, double *above)
{
	size_t from = 0, at_most;
	bool found;
	double lo;

	if (s->split_n == s->n && k >= s->split)
		from = s->split;
	lo = gsl_stats_select(s->v + from, 1, s->n - from, k - from);
	/* every sample of v[0, from) is at most lo */
	at_most = from + split_above(s->v, from, s->n, lo, above, &found);
	s->split = at_most;
	s->split_n = s->n;
	s->bucket_n = 0; /* the buckets' order is gone */
	if (at_most > k + 1 || !found)
		*above = lo;
	return lo;
}

/*
 * The radix select. A non-negative double's bits, as an unsigned
 * integer, order as its value (a 0 sign bit, then the biased exponent
 * above the mantissa), and equal values have equal bits, so the k-th
 * smallest sample is the one with the k-th smallest bits, and a radix
 * digit of the bits that all higher bits are the same in groups the
 * samples into buckets in value order: exact, with no compare of
 * doubles across buckets. sim_stat_quantile() groups them once
 * (radix_group(): after stat_sum_up()'s pass, one to count the samples
 * of each digit and one to move them, about 15 instructions per sample
 * in all) and keeps the grouping while no sample is added; each
 * quantile then finds the bucket that holds rank k by a binary search
 * and selects inside it only (radix_rank()). The selections it
 * replaced cost about 45 instructions per sample for p50, p90 and p99.
 *
 * The digit is the @rbits bits just below the highest bit in which two
 * samples differ (the bits above it are the same in all samples): the
 * finest grouping that many bits give, whatever the samples' span, from
 * a few ulps to a thousand octaves. @rbits grows with the samples (8 to
 * 16), for about 32 samples per bucket on average: the selections
 * inside buckets then cost little, and so do the counts' clearing and
 * prefix sums.
 */
#define RADIX_MIN_N 1024 /* fewer samples: select_split() */

/*
 * radix_bits() - the digit for @n samples whose bits are set in @any of
 * them and in @all of them: its width (8 to @max bits, for about 32
 * samples a digit) in *@rbits and the shift that brings it down, in
 * *@shift: the digit is then (bits >> shift) & ((1 << rbits) - 1).
 */
static void radix_bits(uint64_t any, uint64_t all, size_t n, unsigned int max,
		       unsigned int *rbits, unsigned int *shift)
{
	unsigned int width = 0;

	while ((any ^ all) >> width)
		width++;
	for (*rbits = 8; *rbits < max && (size_t)32 << *rbits < n; ++*rbits)
		;
	*shift = width > *rbits ? width - *rbits : 0;
}

/*
 * radix_group() - reorder the samples so that the buckets of their
 * digit follow each other in digit order; @s->bucket[d] is then the end
 * of bucket d in @s->v (bucket d starts at the end of bucket d - 1, or
 * 0). False, and nothing done, if a sample is negative (sign bit set:
 * -0.0 too), whose bits would order backwards.
 */
static bool radix_group(struct sim_stat *s)
{
	unsigned int rbits, shift;
	size_t n = s->n, i, nb;
	uint64_t mask;
	uint32_t *b;
	double *to;

	/* stat_sum_up() noted which bits are set in one, clear in another */
	if (s->any >> 63)
		return false;
	radix_bits(s->any, s->all, n, 16, &rbits, &shift);
	nb = (size_t)1 << rbits;
	free(s->bucket);
	s->bucket = b = calloc(nb + 1, sizeof(*b));
	to = malloc(s->cap * sizeof(*to));
	SIM_OOM_ON(!b || !to);
	mask = nb - 1;
	/*
	 * b[d + 1]: samples of digit d; then b[d]: where bucket d starts;
	 * then a stable scatter, after which b[d] ends bucket d. (The two
	 * passes are unrolled: the loops' own compare and branch were a
	 * third of them.)
	 */
#pragma GCC unroll 4
	for (i = 0; i < n; i++)
		b[((stat_bits(&s->v[i]) >> shift) & mask) + 1]++;
	for (i = 1; i <= nb; i++)
		b[i] += b[i - 1];
#pragma GCC unroll 4
	for (i = 0; i < n; i++)
		to[b[(stat_bits(&s->v[i]) >> shift) & mask]++] = s->v[i];
	free(s->v);
	s->v = to;
	s->bucket_bits = rbits;
	s->bucket_n = n;
	s->split_n = 0; /* that order is gone */
	return true;
}

/* The bucket [*@from, *@to) of @s->v that holds the sample of rank @r. */
static void radix_bucket(const struct sim_stat *s, size_t r, size_t *from,
			 size_t *to)
{
	size_t lo = 0, hi = ((size_t)1 << s->bucket_bits) - 1, mid;

	/* the first bucket that ends after r: bucket ends never decrease */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->bucket[mid] > r)
			hi = mid;
		else
			lo = mid + 1;
	}
	*from = lo ? s->bucket[lo - 1] : 0;
	*to = s->bucket[lo];
}

/*
 * rank_small() - the sample of rank @r (from 0) of @v[0, @m), and in
 * *@above (unless NULL) the one of rank r + 1 < m: a selection, then a
 * pass for the smallest sample above it (that one, unless more than r +
 * 1 samples are at most the first). Reorders @v.
 */
static double rank_small(double *v, size_t m, size_t r, double *above)
{
	size_t at_most;
	bool found;
	double lo;

	lo = gsl_stats_select(v, 1, m, r);
	if (above) {
		at_most = split_above(v, 0, m, lo, above, &found);
		if (at_most > r + 1 || !found)
			*above = lo;
	}
	return lo;
}

#define RANK_SMALL 512 /* rank_in() selects in fewer samples */
#define RANK_BITS 10 /* and groups more by digits of at most this */

/*
 * rank_in() - rank_small()'s job for any @m: a bucket can be large when
 * the samples crowd into a sliver of their span (a few far ones stretch
 * it), and a selection costs about 22 instructions a sample. So a large
 * bucket is grouped again, by a digit of the bits in which its own
 * samples differ: a pass for those bits (all of them equal: done), a
 * pass to count each digit's samples, and one to copy the samples of
 * the digit that holds rank r, where the search goes on; rank r + 1 is
 * there too, or is the smallest of the next digit's samples (one more
 * pass). About 14 instructions a sample, and the next level is small.
 * The samples in @v stay where they are.
 */
static double rank_in(double *v, size_t m, size_t r, double *above)
{
	uint64_t any = 0, all = ~0ull, bits, d, next;
	unsigned int rbits, shift;
	uint32_t count[1u << RANK_BITS];
	size_t i, j, below = 0;
	double lo, *t;

	if (m <= RANK_SMALL)
		return rank_small(v, m, r, above);
	for (i = 0; i < m; i++) {
		bits = stat_bits(&v[i]);
		any |= bits;
		all &= bits;
	}
	if (any == all) { /* all the same */
		if (above)
			*above = v[0];
		return v[0];
	}
	radix_bits(any, all, m, RANK_BITS, &rbits, &shift);
	memset(count, 0, sizeof(count[0]) << rbits);
#pragma GCC unroll 4
	for (i = 0; i < m; i++)
		count[(stat_bits(&v[i]) >> shift) & ((1u << rbits) - 1)]++;
	for (d = 0; below + count[d] <= r; d++)
		below += count[d];
	t = malloc(count[d] * sizeof(*t));
	SIM_OOM_ON(!t);
	for (i = 0, j = 0; i < m; i++)
		if (((stat_bits(&v[i]) >> shift) & ((1u << rbits) - 1)) == d)
			t[j++] = v[i];
	if (above && r + 1 == below + count[d]) {
		lo = rank_in(t, count[d], r - below, NULL);
		for (next = d + 1; !count[next]; next++)
			; /* one exists: r + 1 < m */
		*above = HUGE_VAL;
		for (i = 0; i < m; i++)
			if (((stat_bits(&v[i]) >> shift) &
			     ((1u << rbits) - 1)) == next &&
			    v[i] < *above)
				*above = v[i];
	} else {
		lo = rank_in(t, count[d], r - below, above);
	}
	free(t);
	return lo;
}

/*
 * radix_rank() - the sample of rank @k (from 0), and in *@above the one
 * of rank k + 1 (k + 1 < n), from the buckets radix_group() made. Every
 * sample of an earlier bucket is below every sample of a later one, so
 * rank k is rank k - from inside its bucket [from, to) (rank_in()); rank
 * k + 1 is in the same bucket or is the smallest of the next bucket that
 * is not empty. Reorders the bucket only.
 */
static double radix_rank(struct sim_stat *s, size_t k, double *above)
{
	size_t from, to;
	double lo;

	radix_bucket(s, k, &from, &to);
	if (above && k + 1 == to) {
		lo = rank_in(s->v + from, to - from, k - from, NULL);
		radix_bucket(s, k + 1, &from, &to);
		*above = gsl_stats_min(s->v + from, 1, to - from);
		return lo;
	}
	return rank_in(s->v + from, to - from, k - from, above);
}

/*
 * quantile_rank() - where the @q quantile of @n samples lies: between
 * the order statistics *@k and k + 1 (from 0), at *@delta from the
 * first; *@next says whether the second counts (GSL's definition, below).
 */
static void quantile_rank(size_t n, double q, size_t *k, double *delta,
			  bool *next)
{
	double index = q * (double)(n - 1);

	*k = (size_t)index;
	*delta = index - (double)*k;
	*next = *k + 1 < n && *delta != 0.0;
}

/* The quantile between order statistics @lo and @above, @delta apart */
static double quantile_at(double lo, double above, double delta, bool next)
{
	if (!next)
		return lo;
	return (1 - delta) * lo + delta * above;
}

/*
 * sim_stat_quantile() - GSL's quantile definition (as
 * gsl_stats_quantile_from_sorted_data: linear interpolation between the
 * order statistics k and k + 1 around (n - 1) q), computed by selection
 * in linear time instead of sorting: radix_rank() for 1024 samples or
 * more, select_split() below that or with a negative sample. Either
 * gives the same order statistics as a sort, so the same number; they
 * only cost less. (A NaN sample has no order statistic: neither a
 * selection nor the radix select gives a meaningful quantile with one.)
 */
double sim_stat_quantile(struct sim_stat *s, double q)
{
	double delta, lo, above = 0;
	bool next;
	size_t k;

	if (!s->n)
		return 0.0;
	if (s->hist)
		return hist_quantile(s, q);
	quantile_rank(s->n, q, &k, &delta, &next);
	stat_sum_up(s); /* before the samples are reordered */
	if (s->n >= RADIX_MIN_N && (s->bucket_n == s->n || radix_group(s)))
		lo = radix_rank(s, k, next ? &above : NULL);
	else
		lo = select_split(s, k, &above);
	return quantile_at(lo, above, delta, next);
}

/*
 * The quantiles of one call (sim_stat_quantile_each()): all their ranks
 * (two a quantile at most) are found together, level by level, the way
 * radix_group() and rank_in() find one: a pass counts the samples of
 * each digit, and where radix_group() then moved every sample to its
 * bucket, one pass copies out the samples of only the buckets that hold
 * a rank asked for (a byte a sample says which: its digit's slot, 0 for
 * none), where the search goes on, for all the ranks in that bucket at
 * once. When the samples crowd into a few values (a contended line's
 * latencies), p50, p90 and p99 often lie in one bucket, which then is
 * grouped again once, not once for each. The samples keep their order
 * (and a grouping or split the single quantiles left). The run's p50,
 * p90 and p99, in instructions an atomic of `make bench-insns INSNS_N=N
 * INSNS_K=K` (callgrind, marginal), one at a time -> at once: 72/1 14.8
 * -> 13.0, 256/16 21.9 -> 20.2, 8/16 63.5 -> 16.4 (with the candidate
 * values below).
 */
#define PICK_MAX 8 /* quantiles at once; more: one at a time */
#define PICK_RANKS (2 * PICK_MAX)

static void ranks_in(double *v, size_t m, const size_t *r, size_t nr,
		     double *out);

#define NO_CAND (~0ull) /* no sample's bits: none is negative */

/*
 * bucket_cand() - for a bucket of @cnt of the @m samples @v, those of
 * digit @dig: if it holds an eighth of them or more, the bits of its
 * first sample among the first 256 (a value most of a crowded bucket's
 * samples have: see ranks_by_digit()); else NO_CAND.
 */
static uint64_t bucket_cand(const double *v, size_t m, unsigned int shift,
			    uint64_t mask, size_t dig, size_t cnt)
{
	size_t i;

	if (cnt < m / 8)
		return NO_CAND;
	for (i = 0; i < m && i < 256; i++)
		if (((stat_bits(&v[i]) >> shift) & mask) == dig)
			return stat_bits(&v[i]);
	return NO_CAND;
}

/*
 * ranks_by_digit() - @out[i] = the sample of rank @r[i] (from 0; i < @nr
 * <= PICK_RANKS) of @v[0, @m), whose bits are set in @any of them and in
 * @all of them, not all equal: a count of the samples of each digit of
 * at most @max bits, a pass that copies out the buckets that hold the
 * ranks, and ranks_in() inside each. @v is not changed.
 *
 * A contended line's latencies crowd into a few values (at `make
 * bench-insns INSNS_N=8 INSNS_K=16`, 85% of the samples are one
 * hand-off, 48 ns, 12% one hit): the bucket of p50 and p90 is then
 * mostly one value, and was copied and grouped again only to find that
 * out. So the pass copies only the samples of a large bucket that are
 * not its candidate value (bucket_cand()) and counts the others: the
 * ranks among those are that value, the rest are searched for among the
 * copies, which one more pass says how many are below it.
 */
static void ranks_by_digit(const double *v, size_t m, uint64_t any,
			   uint64_t all, unsigned int max, const size_t *r,
			   size_t nr, double *out)
{
	size_t i, j, n, dig, rr, d[PICK_RANKS], below[PICK_RANKS + 1];
	size_t at[PICK_RANKS + 1], start[PICK_RANKS + 2], eq[PICK_RANKS + 1];
	size_t sub_r[PICK_RANKS], sub_of[PICK_RANKS], by_rank[PICK_RANKS];
	uint64_t mask, hi, bits, lt, cand[PICK_RANKS + 1];
	double sub_out[PICK_RANKS], *t, *u;
	unsigned int rbits, shift, nsel = 0;
	uintptr_t count_at, slot_at;
	uint32_t *count;
	uint8_t *slot;

	radix_bits(any, all, m, max, &rbits, &shift);
	mask = ((uint64_t)1 << rbits) - 1;
	count = calloc(mask + 1, sizeof(*count));
	slot = calloc(mask + 1, sizeof(*slot));
	SIM_OOM_ON(!count || !slot);
	/*
	 * Every sample has the same bits above the digit (radix_bits()), so
	 * bits >> shift is the digit plus one constant, @hi: the tables are
	 * indexed by it from an address @hi entries before their start (in
	 * integers, which wrap, not pointers, which must not), a mask fewer
	 * a sample in each pass below (`make bench-insns INSNS_N=256
	 * INSNS_K=16`, two decimals: 499.30 -> 496.80 an atomic). The passes
	 * are unrolled by 16: at 4, the loops' own add, compare and branch
	 * were 0.75 of the count's 4.75 instructions a sample. (A 16-bit
	 * copy of each digit from the count, for a copy pass that loads it
	 * instead of the sample: +0.8.)
	 */
	hi = (all >> shift) & ~mask;
	count_at = (uintptr_t)count - (uintptr_t)hi * sizeof(*count);
	slot_at = (uintptr_t)slot - (uintptr_t)hi;
#pragma GCC unroll 16
	for (i = 0; i < m; i++) {
		bits = stat_bits(&v[i]) >> shift;
		++*(uint32_t *)(count_at + (uintptr_t)bits * sizeof(*count));
	}
	/* the ranks in increasing order (an insertion sort of a few) */
	for (i = 0; i < nr; i++) {
		for (j = i; j > 0 && r[by_rank[j - 1]] > r[i]; j--)
			by_rank[j] = by_rank[j - 1];
		by_rank[j] = i;
	}
	/*
	 * Each rank's digit, in one walk of the counts: a slot, in @t, for
	 * each digit found
	 */
	start[1] = 0;
	for (j = 0, dig = 0, n = 0; j < nr; j++) {
		i = by_rank[j];
		while (n + count[dig] <= r[i])
			n += count[dig++];
		d[i] = dig;
		if (!slot[dig]) {
			slot[dig] = (uint8_t)++nsel;
			below[nsel] = n;
			at[nsel] = start[nsel];
			start[nsel + 1] = start[nsel] + count[dig];
			cand[nsel] =
				bucket_cand(v, m, shift, mask, dig, count[dig]);
		}
	}
	t = malloc(start[nsel + 1] * sizeof(*t));
	SIM_OOM_ON(!t);
	/*
	 * The sample's bits are loaded twice, the second time only in a
	 * bucket held: a volatile load, which the compiler may not merge
	 * with the other, so that the shift need not work on a copy kept
	 * for the compare (256/16: 502.99 -> 502.00 an atomic, the peers'
	 * pair)
	 */
#pragma GCC unroll 16
	for (i = 0; i < m; i++) {
		bits = *(const volatile uint64_t *)(const void *)&v[i];
		j = *(uint8_t *)(slot_at + (uintptr_t)(bits >> shift));
		if (j && stat_bits(&v[i]) != cand[j])
			t[at[j]++] = v[i];
	}
	/*
	 * slot j: the others in t[start[j], at[j]), and the rest of its
	 * digit's count, eq[j], are its candidate value (not counted in
	 * the pass: two instructions a sample); the ranks in it, all at
	 * once
	 */
	for (j = 1; j <= nsel; j++) {
		eq[j] = start[j + 1] - at[j];
		u = t + start[j];
		for (i = 0, lt = 0; eq[j] && i < at[j] - start[j]; i++)
			lt += stat_bits(&u[i]) < cand[j];
		for (i = 0, n = 0; i < nr; i++) {
			sub_of[i] = SIZE_MAX;
			if (slot[d[i]] != j)
				continue;
			rr = r[i] - below[j];
			if (rr >= lt && rr < lt + eq[j]) {
				memcpy(&out[i], &cand[j], sizeof(out[i]));
				continue;
			}
			sub_of[i] = n;
			sub_r[n++] = rr < lt ? rr : rr - eq[j];
		}
		if (!n)
			continue;
		ranks_in(u, at[j] - start[j], sub_r, n, sub_out);
		for (i = 0; i < nr; i++)
			if (sub_of[i] != SIZE_MAX)
				out[i] = sub_out[sub_of[i]];
	}
	free(t);
	free(slot);
	free(count);
}

/*
 * ranks_in() - ranks_by_digit()'s job for any @v: a selection for each
 * rank in fewer than RANK_SMALL samples; else a pass for the bits in
 * which the samples differ (all equal: done), and ranks_by_digit() by
 * digits of at most RANK_BITS. Reorders @v.
 */
static void ranks_in(double *v, size_t m, const size_t *r, size_t nr,
		     double *out)
{
	uint64_t any = 0, all = ~0ull, bits;
	size_t i;

	if (m <= RANK_SMALL) {
		for (i = 0; i < nr; i++)
			out[i] = gsl_stats_select(v, 1, m, r[i]);
		return;
	}
	/* unrolled: the loop's add, compare and branch were half of it */
#pragma GCC unroll 8
	for (i = 0; i < m; i++) {
		bits = stat_bits(&v[i]);
		any |= bits;
		all &= bits;
	}
	if (any == all) { /* all the same */
		for (i = 0; i < nr; i++)
			out[i] = v[0];
		return;
	}
	ranks_by_digit(v, m, any, all, RANK_BITS, r, nr, out);
}

void sim_stat_quantile_each(struct sim_stat *s, const double *q, size_t nq,
			    double *out)
{
	size_t i, k[PICK_RANKS];
	double delta[PICK_MAX], at[PICK_RANKS];
	bool next[PICK_MAX];

	if (nq && s->n >= RADIX_MIN_N && !s->hist && nq <= PICK_MAX &&
	    s->bucket_n != s->n) {
		stat_sum_up(s);
		if (!(s->any >> 63)) {
			/* ranks k and k + 1 of each (k + 1 < n, or k again) */
			for (i = 0; i < nq; i++) {
				quantile_rank(s->n, q[i], &k[2 * i], &delta[i],
					      &next[i]);
				k[2 * i + 1] = k[2 * i] + next[i];
			}
			for (i = 0; i < 2 * nq; i++) /* all equal */
				at[i] = s->v[0];
			if (s->any != s->all)
				ranks_by_digit(s->v, s->n, s->any, s->all, 16,
					       k, 2 * nq, at);
			for (i = 0; i < nq; i++)
				out[i] = quantile_at(at[2 * i], at[2 * i + 1],
						     delta[i], next[i]);
			return;
		}
	}
	for (i = 0; i < nq; i++)
		out[i] = sim_stat_quantile(s, q[i]);
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
 * The step itself is sim_xoshiro_next() in stats.h, which the inline
 * draws (sim_rng_u64()) share.
 */
static void xoshiro_set(void *state, unsigned long seed)
{
	struct sim_xoshiro *st = state;
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
	return (unsigned long)(sim_xoshiro_next(state) >> 32);
}

/* 53 random bits: a multiple of 2^-53 in [0, 1) */
static double xoshiro_get_double(void *state)
{
	return (double)(sim_xoshiro_next(state) >> 11) * 0x1.0p-53;
}

const gsl_rng_type sim_rng_xoshiro256ss_type = {
	.name = "xoshiro256**",
	.max = 0xffffffffUL,
	.min = 0,
	.size = sizeof(struct sim_xoshiro),
	.set = xoshiro_set,
	.get = xoshiro_get,
	.get_double = xoshiro_get_double,
};

/* global, as GSL's gsl_rng_mt19937: the generator type gsl_rng_alloc() takes */
const gsl_rng_type *sim_rng_xoshiro256ss = &sim_rng_xoshiro256ss_type;

void sim_rng_stream_init(gsl_rng *r, struct sim_xoshiro *state, uint64_t seed,
			 uint64_t stream)
{
	r->type = sim_rng_xoshiro256ss;
	r->state = state;
	gsl_rng_set(r, (unsigned long)sim_seed_derive(seed, stream));
}

gsl_rng *sim_rng_stream(uint64_t seed, uint64_t stream)
{
	gsl_rng *r = gsl_rng_alloc(sim_rng_xoshiro256ss);

	SIM_OOM_ON(!r);
	gsl_rng_set(r, (unsigned long)sim_seed_derive(seed, stream));
	return r;
}

/*
 * The ziggurat exponential (G. Marsaglia and W. W. Tsang, "The Ziggurat
 * Method for Generating Random Variables", J. Stat. Software 5(8), 2000),
 * 256 layers. It replaced -mean log(1 - u) from one uniform draw, whose
 * log() and call through gsl_rng cost about 90 instructions of the 1,600
 * of an atomic operation of `make bench-peers` (a deliberate change of
 * the random stream, as Lemire's bounded draw in sim/stats.h; no shipped
 * scenario's output moved: none draws exponential think times or picks
 * among several counters).
 *
 * Under f(x) = exp(-x) lie 256 layers of equal area V: layer 0 is the
 * rectangle [0, R] x [0, f(R)] plus the tail beyond R; layer i >= 1 is the
 * rectangle [0, x_i] x [f(x_i), f(x_i+1)], x_1 = R, x_256 = 0. A draw
 * picks a layer with probability 1/256 and a point (x, y) uniform in it;
 * points under the curve are uniform under it, so their x is exponential.
 * Most points fall left of x_i+1, where the whole layer is under the curve
 * (the inline fast path); this is the rest:
 *  - layer 0, x >= R: the tail, whose area layer 0's rectangle stands in
 *    for (x_0 = V / f(R) makes its width): beyond R the exponential is R
 *    plus an exponential (memoryless), drawn by the inverse CDF;
 *  - layer i >= 1, x_i+1 <= x < x_i: the wedge; accept when a uniform y
 *    in [f(x_i), f(x_i+1)] is below f(x), else draw again from the top.
 * The tables come from tools/gen-ziggurat.py, in 60-digit decimal arithmetic.
 */
/* BEGIN tools/gen-ziggurat.py: do not edit by hand */
#define ZIG_R 0x1.ec9d9297ebb83p+2 /* 7.69711747013104972 */
const struct sim_zig_exp sim_zig_exp = {
	.k = {
		0x1c5214272497c7ull, 0x1cdb4dd9e4e8c0ull, 0x1dddf62bac0bb1ull,
		0x1e5961c78b267cull, 0x1ea2a61e122db1ull, 0x1ed38ca188151eull,
		0x1ef6aefa57cbe7ull, 0x1f113e047b0414ull, 0x1f26143450340aull,
		0x1f36e5a38a59a2ull, 0x1f44c7665c6fdbull, 0x1f50724ece1172ull,
		0x1f5a66904fe3c4ull, 0x1f630000a8e267ull, 0x1f6a8234b7352bull,
		0x1f71200f1a241cull, 0x1f7700a3582accull, 0x1f7c427839e926ull,
		0x1f80fdc336039bull, 0x1f8545f904db8full, 0x1f892aec479607ull,
		0x1f8cb99e7385f8ull, 0x1f8ffcda9ae41dull, 0x1f92fda9cef1f3ull,
		0x1f95c3abd03f79ull, 0x1f98555b782fb9ull, 0x1f9ab84415abc5ull,
		0x1f9cf12b79f9bdull, 0x1f9f04336bbe0bull, 0x1fa0f4f47df315ull,
		0x1fa2c693c5c095ull, 0x1fa47bd48bea00ull, 0x1fa61726d1f214ull,
		0x1fa79ab3508d3dull, 0x1fa908656f66a2ull, 0x1faa61f399ff28ull,
		0x1faba8e640060bull, 0x1facde9dbf2d73ull, 0x1fae045767e105ull,
		0x1faf1b31c479a7ull, 0x1fb0243042e1c2ull, 0x1fb1203e5a9604ull,
		0x1fb21032442853ull, 0x1fb2f4cf539c3full, 0x1fb3cec803e747ull,
		0x1fb49ebfbf69d2ull, 0x1fb5654c6f37e1ull, 0x1fb622f7d96943ull,
		0x1fb6d840d55594ull, 0x1fb7859c5b895cull, 0x1fb82b76765b54ull,
		0x1fb8ca33174a17ull, 0x1fb9622ed4abfcull, 0x1fb9f3bf92b619ull,
		0x1fba7f351a70adull, 0x1fbb04d9a0d18dull, 0x1fbb84f23fe6a2ull,
		0x1fbbffbf63b7aaull, 0x1fbc757d2c4de5ull, 0x1fbce663c6201bull,
		0x1fbd52a7b9f826ull, 0x1fbdba7a354408ull, 0x1fbe1e094ba614ull,
		0x1fbe7d80327ddbull, 0x1fbed907770cc6ull, 0x1fbf30c52fc60bull,
		0x1fbf84dd29488full, 0x1fbfd5710f72b9ull, 0x1fc022a092f365ull,
		0x1fc06c898baff1ull, 0x1fc0b348184da4ull, 0x1fc0f6f6bb2415ull,
		0x1fc137ae74d6b7ull, 0x1fc17586dccd10ull, 0x1fc1b09637bb3cull,
		0x1fc1e8f18c6756ull, 0x1fc21eacb6d39eull, 0x1fc251da79f164ull,
		0x1fc2828c8ffcf0ull, 0x1fc2b0d3b99f9eull, 0x1fc2dcbfcbf263ull,
		0x1fc3065fbd7888ull, 0x1fc32dc1b22819ull, 0x1fc352f3069371ull,
		0x1fc376005a4593ull, 0x1fc396f599614cull, 0x1fc3b5de0591b4ull,
		0x1fc3d2c43e593cull, 0x1fc3edb248cb62ull, 0x1fc406b196bbf7ull,
		0x1fc41dcb0d6e0eull, 0x1fc433070bcb99ull, 0x1fc4466d702e21ull,
		0x1fc458059dc037ull, 0x1fc467d6817e83ull, 0x1fc475e696dee6ull,
		0x1fc4823bec237aull, 0x1fc48cdc265ec1ull, 0x1fc495cc852df5ull,
		0x1fc49d11e62de3ull, 0x1fc4a2b0c82e75ull, 0x1fc4a6ad4e28a0ull,
		0x1fc4a90b41fa34ull, 0x1fc4a9ce16ea9full, 0x1fc4a8f8ebfb8cull,
		0x1fc4a68e8e07fcull, 0x1fc4a29179b433ull, 0x1fc49d03dd30b1ull,
		0x1fc495e799d21bull, 0x1fc48d3e457ff6ull, 0x1fc483092bfbb9ull,
		0x1fc477495001b2ull, 0x1fc469ff6c4504ull, 0x1fc45b2bf447e8ull,
		0x1fc44acf15112aull, 0x1fc438e8b5bfc7ull, 0x1fc4257877fd68ull,
		0x1fc4107db85061ull, 0x1fc3f9f78e4da8ull, 0x1fc3e1e4ccab40ull,
		0x1fc3c844013349ull, 0x1fc3ad137497faull, 0x1fc390512a2887ull,
		0x1fc371fadf66f8ull, 0x1fc3520e0b7ec7ull, 0x1fc33087de9c0full,
		0x1fc30d654122edull, 0x1fc2e8a2d2c6b4ull, 0x1fc2c23ce98046ull,
		0x1fc29a2f90630full, 0x1fc27076864fc2ull, 0x1fc2450d3c83ffull,
		0x1fc217eed505deull, 0x1fc1e91620ea43ull, 0x1fc1b87d9e74b4ull,
		0x1fc1861f770f4bull, 0x1fc151f57d1943ull, 0x1fc11bf9298a64ull,
		0x1fc0e42399698aull, 0x1fc0aa6d8b1427ull, 0x1fc06ecf5b54b3ull,
		0x1fc03141024589ull, 0x1fbff1ba0ffdb0ull, 0x1fbfb031a904c4ull,
		0x1fbf6c9e828ae3ull, 0x1fbf26f6de6175ull, 0x1fbedf3086b128ull,
		0x1fbe9540c9695full, 0x1fbe491c7364deull, 0x1fbdfab7cb3f41ull,
		0x1fbdaa068bd66bull, 0x1fbd56fbde729cull, 0x1fbd018a548f9full,
		0x1fbca9a3e140d5ull, 0x1fbc4f39d22995ull, 0x1fbbf23cc8029eull,
		0x1fbb929caea4e2ull, 0x1fbb3048b49145ull, 0x1fbacb2f41ec17ull,
		0x1fba633deee286ull, 0x1fb9f861796f27ull, 0x1fb98a85ba7204ull,
		0x1fb919959a0f74ull, 0x1fb8a57b0347f6ull, 0x1fb82e1ed6ba09ull,
		0x1fb7b368dc7da8ull, 0x1fb7353fb50799ull, 0x1fb6b388c9010aull,
		0x1fb62e2837fe59ull, 0x1fb5a500c5fdaaull, 0x1fb517f3c793fdull,
		0x1fb486e10cacd7ull, 0x1fb3f1a6c9be0cull, 0x1fb358217f4e18ull,
		0x1fb2ba2bdfa84bull, 0x1fb2179eb2963aull, 0x1fb17050b6f1fbull,
		0x1fb0c41681dff4ull, 0x1fb012c25b7a13ull, 0x1faf5c2418b07eull,
		0x1faea008f21d6dull, 0x1fadde3b5782c1ull, 0x1fad1682bf9fe9ull,
		0x1fac48a3740585ull, 0x1fab745e588232ull, 0x1faa9970adb858ull,
		0x1fa9b793ce5fefull, 0x1fa8ce7ce6a875ull, 0x1fa7dddca51ec4ull,
		0x1fa6e55ee46783ull, 0x1fa5e4aa4d097dull, 0x1fa4db5fee6aa3ull,
		0x1fa3c91ace0683ull, 0x1fa2ad6f6bc4fcull, 0x1fa187eb3a3339ull,
		0x1fa058140936c0ull, 0x1f9f1d6761a1ceull, 0x1f9dd759cfd803ull,
		0x1f9c85561b717aull, 0x1f9b26bc697f00ull, 0x1f99bae146ba81ull,
		0x1f98410c968892ull, 0x1f96b878633892ull, 0x1f95204f8b64dbull,
		0x1f9377ac47afd8ull, 0x1f91bd968358e1ull, 0x1f8ff102013e17ull,
		0x1f8e10cc45d04aull, 0x1f8c1bba3d39adull, 0x1f8a10759374faull,
		0x1f87ed89b24262ull, 0x1f85b16056b913ull, 0x1f835a3dad9162ull,
		0x1f80e63be21139ull, 0x1f7e5346079f8aull, 0x1f7b9f12413ff5ull,
		0x1f78c71b045cc0ull, 0x1f75c8974d09d7ull, 0x1f72a07190f13aull,
		0x1f6f4b3d32e4f4ull, 0x1f6bc52a2b02e7ull, 0x1f6809f6859679ull,
		0x1f6414dd445772ull, 0x1f5fe08210d08cull, 0x1f5b66d9099996ull,
		0x1f56a109c3ecc0ull, 0x1f51874c5c3322ull, 0x1f4c10bf1d3a0full,
		0x1f463332d788fbull, 0x1f3fe2eb6e694cull, 0x1f39125157c106ull,
		0x1f31b18fb95532ull, 0x1f29ae1951a874ull, 0x1f20f20c452571ull,
		0x1f176369f1f77aull, 0x1f0ce313a796b7ull, 0x1f014b76ddd4a4ull,
		0x1ef46eca361cd0ull, 0x1ee614ae6e5688ull, 0x1ed5f6f08799ceull,
		0x1ec3bd07b46557ull, 0x1eaef5b14ef09eull, 0x1e970daf08ae3eull,
		0x1e7b42096f046cull, 0x1e5a8b177cb7a3ull, 0x1e337b71d47837ull,
		0x1e0409dfac9dcaull, 0x1dc934dd172c71ull, 0x1d7e5bd56b18b3ull,
		0x1d1bfe2d5c3973ull, 0x1c951d0f88651bull, 0x1bd127f719447dull,
		0x1a9bb7320eb0aeull, 0x186ef58e3f3c11ull, 0x137d5bd79c3182ull,
		0x00000000000000ull,
	},
	.w = {
		0x1.164ec94bf5dc1p-50, 0x1.ec9d9297ebb83p-51, 0x1.bc39e51da71fcp-51,
		0x1.9e9dc0d487b85p-51, 0x1.8939fe6f2ed19p-51, 0x1.78750d6eac62fp-51,
		0x1.6aa676d4bbf72p-51, 0x1.5ee7ae17313d2p-51, 0x1.54ad83ccf73f6p-51,
		0x1.4b9d7cd4751d1p-51, 0x1.4379766e41362p-51, 0x1.3c14ec7c8b861p-51,
		0x1.354ee27ccf75ep-51, 0x1.2f0e38a4411f0p-51, 0x1.293f5ae49aaa5p-51,
		0x1.23d2bb659919fp-51, 0x1.1ebbca0c9fa7cp-51, 0x1.19f03bcb3c2d6p-51,
		0x1.156786775442ap-51, 0x1.111a8034392a6p-51, 0x1.0d031785d48a0p-51,
		0x1.091c1cdcba54ep-51, 0x1.056118bf58eefp-51, 0x1.01ce2b362ec2ep-51,
		0x1.fcbfe43f6c6e5p-52, 0x1.f626e9791f7a7p-52, 0x1.efcc26750ea4ap-52,
		0x1.e9aaf2af383c1p-52, 0x1.e3bf26e190960p-52, 0x1.de050af4ef19fp-52,
		0x1.d87946fec3becp-52, 0x1.d318d6b2738c5p-52, 0x1.cde0fecf2a97fp-52,
		0x1.c8cf442c8c8f4p-52, 0x1.c3e1641c2e0a7p-52, 0x1.bf154de4bef77p-52,
		0x1.ba691d276da5ep-52, 0x1.b5db15091ea0fp-52, 0x1.b1699c003b60ap-52,
		0x1.ad13382d845c4p-52, 0x1.a8d68c2ad86eap-52, 0x1.a4b2543e84c3bp-52,
		0x1.a0a563e49f178p-52, 0x1.9caea3a24d9eap-52, 0x1.98cd0f18d1ad8p-52,
		0x1.94ffb34fc2a0ep-52, 0x1.9145ad2f37544p-52, 0x1.8d9e2823b3695p-52,
		0x1.8a085ce695babp-52, 0x1.8683906687342p-52, 0x1.830f12cc0bec3p-52,
		0x1.7faa3e96e1412p-52, 0x1.7c5477d1476d3p-52, 0x1.790d2b56b71f9p-52,
		0x1.75d3ce2bd71c3p-52, 0x1.72a7dce5cd218p-52, 0x1.6f88db1f42507p-52,
		0x1.6c7652f9a7b1ep-52, 0x1.696fd4a9748eep-52, 0x1.6674f60c3f432p-52,
		0x1.63855247b2e94p-52, 0x1.60a0897081879p-52, 0x1.5dc640388bd9ep-52,
		0x1.5af61fa38e107p-52, 0x1.582fd4c1b4461p-52, 0x1.5573106f8a75ap-52,
		0x1.52bf871acaab2p-52, 0x1.5014f08b99508p-52, 0x1.4d7307b1cb127p-52,
		0x1.4ad98a75da14cp-52, 0x1.4848398d39432p-52, 0x1.45bed851bc92cp-52,
		0x1.433d2c9bd42f8p-52, 0x1.40c2fe9f5eeadp-52, 0x1.3e5018cadded0p-52,
		0x1.3be447a8d8b83p-52, 0x1.397f59c345143p-52, 0x1.37211f88ca857p-52,
		0x1.34c96b33bc965p-52, 0x1.327810b2aa7d0p-52, 0x1.302ce59265965p-52,
		0x1.2de7c0e962d70p-52, 0x1.2ba87b445db51p-52, 0x1.296eee942532bp-52,
		0x1.273af61c7daa6p-52, 0x1.250c6e6403bbap-52, 0x1.22e33524fe550p-52,
		0x1.20bf293f0f4a2p-52, 0x1.1ea02aa9b3370p-52, 0x1.1c861a6782a5ap-52,
		0x1.1a70da7a27820p-52, 0x1.18604dd6fae9ep-52, 0x1.1654585c404c1p-52,
		0x1.144cdec6f3a2bp-52, 0x1.1249c6a92154ap-52, 0x1.104af660befcep-52,
		0x1.0e50550efcfb7p-52, 0x1.0c59ca900946fp-52, 0x1.0a673f733c819p-52,
		0x1.08789cf3aad0fp-52, 0x1.068dccf1126dbp-52, 0x1.04a6b9e9224a3p-52,
		0x1.02c34ef11391bp-52, 0x1.00e377af911d4p-52, 0x1.fe0e40add09d8p-53,
		0x1.fa5c6b3efe1e5p-53, 0x1.f6b1498515ed0p-53, 0x1.f30cb6ea0bc7fp-53,
		0x1.ef6e8fc5b9168p-53, 0x1.ebd6b154a7678p-53, 0x1.e844f9af4237fp-53,
		0x1.e4b947c16a452p-53, 0x1.e1337b426509cp-53, 0x1.ddb374ad2357fp-53,
		0x1.da391538da50ap-53, 0x1.d6c43ed1ea3ffp-53, 0x1.d354d4130f2adp-53,
		0x1.cfeab83ed7180p-53, 0x1.cc85cf395a56cp-53, 0x1.c925fd82323fbp-53,
		0x1.c5cb282eab1a4p-53, 0x1.c27534e42e02dp-53, 0x1.bf2409d2dfd85p-53,
		0x1.bbd78db072610p-53, 0x1.b88fa7b324fb6p-53, 0x1.b54c3f8cf2542p-53,
		0x1.b20d3d66e8bb5p-53, 0x1.aed289dcaacffp-53, 0x1.ab9c0df81657ap-53,
		0x1.a869b32d0f30fp-53, 0x1.a53b63556c690p-53, 0x1.a21108ad0592dp-53,
		0x1.9eea8dcdde951p-53, 0x1.9bc7ddac7035dp-53, 0x1.98a8e3940bbf4p-53,
		0x1.958d8b235828ap-53, 0x1.9275c048e73e1p-53, 0x1.8f616f3fe1513p-53,
		0x1.8c50848cc6094p-53, 0x1.8942ecfa40f54p-53, 0x1.86389596108e7p-53,
		0x1.83316badfe62ap-53, 0x1.802d5ccce7277p-53, 0x1.7d2c56b7d17f7p-53,
		0x1.7a2e476b1240ap-53, 0x1.77331d177d130p-53, 0x1.743ac61fa041cp-53,
		0x1.714531150a9fbp-53, 0x1.6e524cb59a608p-53, 0x1.6b6207e8d3cdfp-53,
		0x1.687451bd3ebeep-53, 0x1.65891965c9b8cp-53, 0x1.62a04e3731a2ep-53,
		0x1.5fb9dfa56cf26p-53, 0x1.5cd5bd4119335p-53, 0x1.59f3d6b4e9cf9p-53,
		0x1.57141bc316f27p-53, 0x1.54367c42cb5f8p-53, 0x1.515ae81d900fbp-53,
		0x1.4e814f4cb45eap-53, 0x1.4ba9a1d6b18a4p-53, 0x1.48d3cfcc883c4p-53,
		0x1.45ffc94716ca7p-53, 0x1.432d7e6466cd0p-53, 0x1.405cdf44f09c4p-53,
		0x1.3d8ddc08d336ep-53, 0x1.3ac064ccfeffcp-53, 0x1.37f469a851af0p-53,
		0x1.3529daa8a1ba1p-53, 0x1.3260a7cfb7611p-53, 0x1.2f98c11031721p-53,
		0x1.2cd2164a53b5dp-53, 0x1.2a0c9748bcdaap-53, 0x1.274833bd0189fp-53,
		0x1.2484db3c2a329p-53, 0x1.21c27d3b10e05p-53, 0x1.1f01090a9c4e2p-53,
		0x1.1c406dd3d5283p-53, 0x1.19809a93d2396p-53, 0x1.16c17e1777ffbp-53,
		0x1.140306f707dbep-53, 0x1.114523917ac15p-53, 0x1.0e87c207a2f66p-53,
		0x1.0bcad03710137p-53, 0x1.090e3bb4b0072p-53, 0x1.0651f1c7276f8p-53,
		0x1.0395df60db162p-53, 0x1.00d9f119a3cd9p-53, 0x1.fc3c26504a9a1p-54,
		0x1.f6c462b57feb5p-54, 0x1.f14c6e20294a0p-54, 0x1.ebd41e5e21b62p-54,
		0x1.e65b483cf1044p-54, 0x1.e0e1bf77c31fep-54, 0x1.db6756a429057p-54,
		0x1.d5ebdf1d86b8dp-54, 0x1.d06f28ef0e6fbp-54, 0x1.caf102bc25adbp-54,
		0x1.c57139a70d29fp-54, 0x1.bfef99359fe99p-54, 0x1.ba6beb33f8f8ap-54,
		0x1.b4e5f794c979cp-54, 0x1.af5d844f224c9p-54, 0x1.a9d255396d261p-54,
		0x1.a4442be14884ap-54, 0x1.9eb2c75ff03bfp-54, 0x1.991de42ad1338p-54,
		0x1.93853bdfda244p-54, 0x1.8de8850d0c52ap-54, 0x1.884772f2be1ecp-54,
		0x1.82a1b53fed599p-54, 0x1.7cf6f7c7e8172p-54, 0x1.7746e23077973p-54,
		0x1.71911797990bbp-54, 0x1.6bd5362faa944p-54, 0x1.6612d6d0c68e0p-54,
		0x1.60498c7dd2ecfp-54, 0x1.5a78e3db8befdp-54, 0x1.54a0629786f4dp-54,
		0x1.4ebf86bcd0b93p-54, 0x1.48d5c5f35e712p-54, 0x1.42e28ca706749p-54,
		0x1.3ce53d12162a0p-54, 0x1.36dd2e26d8203p-54, 0x1.30c9aa526da4bp-54,
		0x1.2aa9ee123680bp-54, 0x1.247d26538ff2ep-54, 0x1.1e426e93e49e7p-54,
		0x1.17f8ceb4bdfa0p-54, 0x1.119f38749f5afp-54, 0x1.0b348479b80fcp-54,
		0x1.04b76ed6a7558p-54, 0x1.fc4d25d683209p-55, 0x1.ef00ccf5f4faap-55,
		0x1.e186678f1735ap-55, 0x1.d3da24df17c36p-55, 0x1.c5f7bd78c3f89p-55,
		0x1.b7da5dddda3c4p-55, 0x1.a97c8be5d5204p-55, 0x1.9ad80552237d2p-55,
		0x1.8be5954d3606fp-55, 0x1.7c9cdda17d01ap-55, 0x1.6cf40f0a72bbep-55,
		0x1.5cdf89d024ac4p-55, 0x1.4c515c60bfe22p-55, 0x1.3b388fe3d6ecap-55,
		0x1.2980290da2633p-55, 0x1.170db24d6f670p-55, 0x1.03bf049c65c3cp-55,
		0x1.decd8b76dbd99p-56, 0x1.b38d1ef79b7cdp-56, 0x1.85090fbc27a81p-56,
		0x1.522e6e54a2a75p-56, 0x1.19335a95b8dbbp-56, 0x1.ad6b2495b4d2ep-57,
		0x1.0589d8b5d411dp-57,
	},
};
const double sim_zig_exp_f[257] = {
	0x1.5e5d3f59d055cp-13, 0x1.dc31c329f0b4bp-12, 0x1.fb20af78dfcb9p-11,
	0x1.92bb5540c3e25p-10, 0x1.1946ba8e1a324p-9,  0x1.6d888f3a1feffp-9,
	0x1.c58b381cd4b11p-9,  0x1.1073d69574043p-8,  0x1.3fa97cee322fdp-8,
	0x1.7049f37ec3620p-8,  0x1.a23e9d4974836p-8,  0x1.d5751fa745dc5p-8,
	0x1.04ef2295fd7f9p-7,  0x1.1fb69edb37671p-7,  0x1.3b0b8c1516f62p-7,
	0x1.56e930be416cbp-7,  0x1.734b6e6aa74f5p-7,  0x1.902ea688fa7bdp-7,
	0x1.ad8fa5542c92dp-7,  0x1.cb6b9146e2757p-7,  0x1.e9bfdde89c7cep-7,
	0x1.04452091e02f0p-6,  0x1.13e4554725f5fp-6,  0x1.23bc9e1b93a32p-6,
	0x1.33cd225315d84p-6,  0x1.44151ce87f0bep-6,  0x1.5493da6ab0251p-6,
	0x1.6548b72a24077p-6,  0x1.76331da87fc96p-6,  0x1.8752853ec9967p-6,
	0x1.98a670f132a48p-6,  0x1.aa2e6e6924e9bp-6,  0x1.bbea150fa5870p-6,
	0x1.cdd9054331b0cp-6,  0x1.dffae7a517468p-6,  0x1.f24f6c7af9890p-6,
	0x1.026b2590dfaeep-5,  0x1.0bc7a0c7cd651p-5,  0x1.153d09f19b3a1p-5,
	0x1.1ecb45ff312d4p-5,  0x1.28723c956c00cp-5,  0x1.3231d7e3f14aep-5,
	0x1.3c0a047ff18ffp-5,  0x1.45fab14266b19p-5,  0x1.5003cf296c5ebp-5,
	0x1.5a25513c5d2cap-5,  0x1.645f2c726a041p-5,  0x1.6eb1579b6af52p-5,
	0x1.791bcb4ab089ep-5,  0x1.839e81c3a396bp-5,  0x1.8e3976e80776dp-5,
	0x1.98eca827b7c4cp-5,  0x1.a3b81471bf138p-5,  0x1.ae9bbc26a8084p-5,
	0x1.b997a10bed985p-5,  0x1.c4abc640721e9p-5,  0x1.cfd83031e794ap-5,
	0x1.db1ce49315810p-5,  0x1.e679ea52eb2e5p-5,  0x1.f1ef49944e834p-5,
	0x1.fd7d0ba699676p-5,  0x1.04919d7f5c817p-4,  0x1.0a70f19871b3bp-4,
	0x1.105c88756ca50p-4,  0x1.165468f755392p-4,  0x1.1c589a86fa340p-4,
	0x1.22692512c9d8cp-4,  0x1.2886110ce0570p-4,  0x1.2eaf676948dd1p-4,
	0x1.34e5319c6e718p-4,  0x1.3b277999b9f9ep-4,  0x1.417649d25b10ep-4,
	0x1.47d1ad343985cp-4,  0x1.4e39af290d929p-4,  0x1.54ae5b959d036p-4,
	0x1.5b2fbed91bb3ep-4,  0x1.61bde5ccadef7p-4,  0x1.6858ddc30b620p-4,
	0x1.6f00b488416b6p-4,  0x1.75b5786193c1ep-4,  0x1.7c77380d7a6f3p-4,
	0x1.834602c3bc4bap-4,  0x1.8a21e835a533bp-4,  0x1.910af88e574b9p-4,
	0x1.9801447336b70p-4,  0x1.9f04dd046f428p-4,  0x1.a615d3dd938b7p-4,
	0x1.ad343b1655465p-4,  0x1.b460254356548p-4,  0x1.bb99a5771268fp-4,
	0x1.c2e0cf42e10afp-4,  0x1.ca35b6b80fd57p-4,  0x1.d198706914dd7p-4,
	0x1.d909116ad9398p-4,  0x1.e087af561bafbp-4,  0x1.e8146048eb9ccp-4,
	0x1.efaf3ae83c33cp-4,  0x1.f758566190414p-4,  0x1.ff0fca6cbea8dp-4,
	0x1.036ad7a6e7f04p-3,  0x1.07550eeb7a5bep-3,  0x1.0b4697b54b62fp-3,
	0x1.0f3f7efec1720p-3,  0x1.133fd20c9712fp-3,  0x1.17479e6f0ae78p-3,
	0x1.1b56f2031d666p-3,  0x1.1f6ddaf3dca65p-3,  0x1.238c67bbbe878p-3,
	0x1.27b2a72609940p-3,  0x1.2be0a8504cf34p-3,  0x1.30167aabe7d6ep-3,
	0x1.34542dffa0cafp-3,  0x1.3899d2694d5c9p-3,  0x1.3ce7785f8a905p-3,
	0x1.413d30b386a9ap-3,  0x1.459b0c92dccc6p-3,  0x1.4a011d8983096p-3,
	0x1.4e6f7583cb6fap-3,  0x1.52e626d078c49p-3,  0x1.57654422e78f5p-3,
	0x1.5bece0954c2b6p-3,  0x1.607d0fab06a31p-3,  0x1.6515e5530d1acp-3,
	0x1.69b775ea6da28p-3,  0x1.6e61d63ee84eap-3,  0x1.73151b91a2839p-3,
	0x1.77d15b99f46fep-3,  0x1.7c96ac8851baep-3,  0x1.816525094e7e5p-3,
	0x1.863cdc48c1af9p-3,  0x1.8b1de9f5062d4p-3,  0x1.900866425bb79p-3,
	0x1.94fc69ee692a1p-3,  0x1.99fa0e43e1623p-3,  0x1.9f016d1e4c512p-3,
	0x1.a412a0edf5cbcp-3,  0x1.a92dc4bc03c49p-3,  0x1.ae52f42eb5b0bp-3,
	0x1.b3824b8dcef3ep-3,  0x1.b8bbe7c72e4a5p-3,  0x1.bdffe67394435p-3,
	0x1.c34e65db9afeep-3,  0x1.c8a784fce1801p-3,  0x1.ce0b638f6d09fp-3,
	0x1.d37a220b431fdp-3,  0x1.d8f3e1ae3eeb8p-3,  0x1.de78c48224f39p-3,
	0x1.e408ed62f83a7p-3,  0x1.e9a48005940f2p-3,  0x1.ef4ba0fe8e09bp-3,
	0x1.f4fe75c963e7ep-3,  0x1.fabd24cff9354p-3,  0x1.0043eab93476ap-2,
	0x1.032f580797c2cp-2,  0x1.0620ef05d90d2p-2,  0x1.0918c4ee93e13p-2,
	0x1.0c16ef88f5332p-2,  0x1.0f1b852d9a66cp-2,  0x1.12269ccba9fbap-2,
	0x1.15384dee291efp-2,  0x1.1850b0c191982p-2,  0x1.1b6fde19abc5ap-2,
	0x1.1e95ef77b09dap-2,  0x1.21c2ff10b7effp-2,  0x1.24f727d4776fdp-2,
	0x1.2832857457629p-2,  0x1.2b75346ae2262p-2,  0x1.2ebf520394270p-2,
	0x1.3210fc6312435p-2,  0x1.356a528fcd0ddp-2,  0x1.38cb747b17defp-2,
	0x1.3c34830abb285p-2,  0x1.3fa5a0230a14ep-2,  0x1.431eeeb1841e2p-2,
	0x1.46a092b80beefp-2,  0x1.4a2ab158bdad2p-2,  0x1.4dbd70e26f91dp-2,
	0x1.5158f8dde89f5p-2,  0x1.54fd721bda3e7p-2,  0x1.58ab06c3aa9eep-2,
	0x1.5c61e2631ee6cp-2,  0x1.602231fef5876p-2,  0x1.63ec2424827e4p-2,
	0x1.67bfe8fc60d9fp-2,  0x1.6b9db25e4e99cp-2,  0x1.6f85b3e649e9dp-2,
	0x1.7378230b08deap-2,  0x1.77753735e72e3p-2,  0x1.7b7d29dc6801ep-2,
	0x1.7f90369b6ce59p-2,  0x1.83ae9b5446138p-2,  0x1.87d8984bc3f8cp-2,
	0x1.8c0e704b75d39p-2,  0x1.905068c545d04p-2,  0x1.949ec9f9a8110p-2,
	0x1.98f9df2097ba8p-2,  0x1.9d61f695a3792p-2,  0x1.a1d76207521f4p-2,
	0x1.a65a76aa30140p-2,  0x1.aaeb8d6fdf6e5p-2,  0x1.af8b03428ef5fp-2,
	0x1.b43939454806fp-2,  0x1.b8f6951990b88p-2,  0x1.bdc3812aeeeb5p-2,
	0x1.c2a06d00ea583p-2,  0x1.c78dcd983fb60p-2,  0x1.cc8c1dc40e092p-2,
	0x1.d19bde97e1a0ap-2,  0x1.d6bd97db9ed7ap-2,  0x1.dbf1d88a7210cp-2,
	0x1.e139375e137fcp-2,  0x1.e6945367dd351p-2,  0x1.ec03d4b969d90p-2,
	0x1.f1886d1eb424dp-2,  0x1.f722d8ebfc5fap-2,  0x1.fcd3dfe214576p-2,
	0x1.014e2b160f324p-1,  0x1.043e8ebd26548p-1,  0x1.073b931ee3b7dp-1,
	0x1.0a45b8854d02ap-1,  0x1.0d5d8812b1e2bp-1,  0x1.108394a1cc38cp-1,
	0x1.13b87bc33169cp-1,  0x1.16fce6dce6feep-1,  0x1.1a518c71e3b25p-1,
	0x1.1db7319877b89p-1,  0x1.212eaba813ec8p-1,  0x1.24b8e228c50a3p-1,
	0x1.2856d111132bdp-1,  0x1.2c098b61f4f24p-1,  0x1.2fd23e345da5ep-1,
	0x1.33b23450e6318p-1,  0x1.37aada708ddd9p-1,  0x1.3bbdc44e1d114p-1,
	0x1.3fecb2bb18b7fp-1,  0x1.44399afa8e125p-1,  0x1.48a6afb8ee069p-1,
	0x1.4d366c151f8aep-1,  0x1.51eba1578899ap-1,  0x1.56c9882da8773p-1,
	0x1.5bd3d694cac75p-1,  0x1.610edc1a7af66p-1,  0x1.667fa6d4f5c06p-1,
	0x1.6c2c3498418c6p-1,  0x1.721bb5ba94b63p-1,  0x1.7856e9b09d47ep-1,
	0x1.7ee8a2d243126p-1,  0x1.85de87806c5b8p-1,  0x1.8d4a376d3d22fp-1,
	0x1.95431c455aa39p-1,  0x1.9de9715556d9bp-1,  0x1.a76baa562fae7p-1,
	0x1.b210f0ee67f2ap-1,  0x1.be5007beb7b27p-1,  0x1.cd0a65081fff0p-1,
	0x1.e0545e5881136p-1,  0x1.0000000000000p+0,
};
/* END tools/gen-ziggurat.py */

/*
 * sim_rng_uniform_int_slow() - sim_rng_uniform_int()'s rare case: the
 * low half of @m, the first output times @n, is below @n, so it may be
 * below 2^64 mod n, the rejection threshold: draw again while it is.
 */
uint64_t sim_rng_uniform_int_slow(gsl_rng *r, uint64_t n, unsigned __int128 m)
{
	uint64_t reject = -n % n; /* 2^64 mod n */

	sim_rng_check(r);
	while ((uint64_t)m < reject)
		m = (unsigned __int128)sim_rng_u64(r) * n;
	return (uint64_t)(m >> 64);
}

/* One draw's 53 random bits as a multiple of 2^-53 in [0, 1) */
static double uniform53(gsl_rng *r)
{
	return (double)(int64_t)(sim_rng_u64(r) >> 11) * 0x1.0p-53;
}

/*
 * The wedge test of layer @i: whether @y, uniform between the layer's
 * bottom and top (f_i = e^-x_i and f_{i+1}), is below e^-@v, @v in the
 * layer's wedge [x_{i+1}, x_i) (x_i = w_i 2^53, x_256 = 0). The curve is
 * convex, so it lies above its tangent at x_i, f_i (1 + x_i - v), and
 * below its chord from x_{i+1} to x_i: @y below the one (by a margin far
 * wider than their rounding) is below the curve, above the other is
 * not, and only between them is exp() needed, which decides as before
 * (check_stats asserts the same answers as exp(), a few ulps either side
 * of the curve too). The peers' pair, 256/16: 501.63 -> 501.05
 * instructions an atomic (exp() was 0.97 of them).
 */
#define ZIG_MARGIN 0x1p-40

bool sim_zig_wedge_below(unsigned int i, double v, double y)
{
	double xi = sim_zig_exp.w[i] * 0x1p53;
	double xn = i < 255 ? sim_zig_exp.w[i + 1] * 0x1p53 : 0.0;
	double fi = sim_zig_exp_f[i], fn = sim_zig_exp_f[i + 1];

	if (y < fi * (1.0 + (xi - v)) * (1.0 - ZIG_MARGIN))
		return true;
	/* the chord is above the curve only between its ends */
	if (v >= xn && v <= xi &&
	    y > (fi + (fn - fi) * ((xi - v) / (xi - xn))) * (1.0 + ZIG_MARGIN))
		return false;
	return y < exp(-v);
}

double sim_ran_exponential_slow(gsl_rng *r, unsigned int i, uint64_t u)
{
	uint64_t x;
	double v, y;

	sim_rng_check(r);
	for (;;) {
		v = (double)(int64_t)u * sim_zig_exp.w[i];
		/* 1 - uniform53() is in (0, 1], exactly: log() is finite */
		if (i == 0)
			return ZIG_R - log(1.0 - uniform53(r));
		y = sim_zig_exp_f[i] +
		    (sim_zig_exp_f[i + 1] - sim_zig_exp_f[i]) * uniform53(r);
		if (sim_zig_wedge_below(i, v, y))
			return v;
		x = sim_rng_u64(r);
		i = (unsigned int)(x & 0xff);
		u = x >> 11;
		if (u < sim_zig_exp.k[i])
			return (double)(int64_t)u * sim_zig_exp.w[i];
	}
}
