/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/stats.h - sample statistics and random streams.
 *
 * struct sim_stat collects samples (latencies, in any positive unit) and
 * answers count, mean and quantiles. The mean is always exact. Quantiles
 * are exact (selection: a radix select over the samples' bits, or
 * gsl_stats_select) while there are at most SIM_STAT_EXACT samples; past that the samples are folded into a GSL
 * histogram of HDR-style log-linear bins (each power of two split into
 * 2^SIM_STAT_BIN_BITS equal bins, at most SIM_STAT_BIN_REL wide
 * relative to their lower edge, found from the sample's bits), so memory
 * stays bounded however long the run, and a quantile is then within that
 * relative error.
 *
 * sim_ci95() gives the mean and the half-width of the Student-t 95%
 * confidence interval of a handful of replication results.
 *
 * Random numbers come only from gsl_rng generators. sim_rng_stream() makes
 * the generator for stream @stream of a run seeded with @seed (an
 * xoshiro256** wrapped as a gsl_rng_type, sim_rng_xoshiro256ss); streams
 * are independent of each other and of the order they are created in, so
 * a CPU's stream depends only on the seed and the CPU number.
 *
 * The hot draws of the workloads are inline here and read such a
 * stream's state directly, without gsl_rng's function pointers:
 * sim_rng_uniform_int() (gsl_rng_uniform_int()'s job, exact and unbiased
 * by Lemire's multiply-shift with rejection) and sim_ran_exponential()
 * (a ziggurat: no libm for 97.8% of draws). Any other draw goes through
 * the gsl_rng API as before.
 *
 * Layering: sim/ primitive; uses GSL.
 */
#ifndef SIM_STATS_H
#define SIM_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <gsl/gsl_histogram.h>
#include <gsl/gsl_rng.h>

#include "sim/error.h"

#define SIM_STAT_EXACT (1u << 20) /* samples kept exactly: 8 MiB */
#define SIM_STAT_BIN_BITS 9 /* bins per power of two: 2^9 */
#define SIM_STAT_BIN_REL 0.002 /* histogram bin width: at most 0.2% */
/* The histogram's span, in the samples' unit (sim/stats.c) */
#define SIM_STAT_HIST_MIN 1e-3
#define SIM_STAT_HIST_MAX 1e12
#define SIM_STAT_HIST_SHIFT (52 - SIM_STAT_BIN_BITS)

/* A sample's histogram key: its top 12 + SIM_STAT_BIN_BITS bits. */
static inline uint64_t sim_stat_hist_key(double x)
{
	uint64_t bits;

	memcpy(&bits, &x, sizeof(bits));
	return bits >> SIM_STAT_HIST_SHIFT;
}

/*
 * struct sim_stat - samples: an array (in no particular order) while
 * @hist is NULL, a histogram after that. @sum is the sum of the samples
 * that are in the histogram and of v[0, @summed), added in the order
 * they came; v[summed, n) came after those, in order, and are added
 * when the mean is asked, or before the array is reordered or folded
 * (sim/stats.c). @split: while @split_n == @n, no sample of v[0, split)
 * is above one of v[split, n) (what the last quantile left, for the
 * next one to search above it). @bucket: while @bucket_n == @n, the
 * samples are grouped by the radix digit of their bits (sim/stats.c).
 * @hist_bin and @hist_bins: @hist's counts and how many, 0 while there
 * is no histogram (for sim_stat_add()).
 */
struct sim_stat {
	double *v;
	size_t n, cap;
	double sum;
	size_t summed;
	uint64_t any, all; /* bits set in any, in all of v[0, summed) */
	gsl_histogram *hist;
	double *hist_bin;
	size_t hist_bins;
	size_t split, split_n;
	uint32_t *bucket;
	size_t bucket_n;
	unsigned int bucket_bits;
};

void sim_stat_init(struct sim_stat *s);
void sim_stat_destroy(struct sim_stat *s);
void sim_stat_reset(struct sim_stat *s);
void sim_stat_add_slow(struct sim_stat *s, double x);

/*
 * sim_stat_room() - sim_stat_add()'s first case: room in the exact array,
 * where sim_stat_add_room() counts a sample with a store.
 */
static inline bool sim_stat_room(const struct sim_stat *s)
{
	return s->n < s->cap;
}

static inline void sim_stat_add_room(struct sim_stat *s, double x)
{
	s->v[s->n++] = x;
}

/*
 * sim_stat_add() - count sample @x. The common cases are inline, where
 * the call cost as much again: room in the exact array (a store; the
 * sum is formed later, from the array, in the same order: that saves a
 * load, an add and a store per sample), or, past SIM_STAT_EXACT
 * samples, a sample inside the histogram's span (its bin from its bits:
 * a shift and a subtraction of a constant, and one unsigned compare
 * with the number of bins, which also says whether there is a
 * histogram: a sample the slow path would clamp into an end bin has a
 * key already that bin's, and a negative or NaN sample a key above the
 * span's).
 */
static inline void sim_stat_add(struct sim_stat *s, double x)
{
	uint64_t bin;

	if (__builtin_expect(sim_stat_room(s), 1)) {
		sim_stat_add_room(s, x);
		return;
	}
	bin = sim_stat_hist_key(x) - sim_stat_hist_key(SIM_STAT_HIST_MIN);
	if (__builtin_expect(bin < s->hist_bins, 1)) {
		s->sum += x;
		s->hist_bin[bin] += 1;
		s->n++;
		return;
	}
	sim_stat_add_slow(s, x);
}
/* Adds up the samples not yet summed: see struct sim_stat. */
double sim_stat_mean(struct sim_stat *s);
/* @q in [0, 1]; 0 when there are no samples. Reorders the samples. */
double sim_stat_quantile(struct sim_stat *s, double q);
/*
 * sim_stat_quantile_each() - @out[i] = sim_stat_quantile(@s, @q[i]) for i <
 * @nq: the same numbers, for less than asking one at a time (from one
 * count of the samples' radix digits, the buckets of all the ranks asked
 * for are copied out in one pass: sim/stats.c). May reorder the samples.
 */
void sim_stat_quantile_each(struct sim_stat *s, const double *q, size_t nq,
			    double *out);

/* Mean and 95% CI half-width of @n values; half-width 0 when n < 2. */
void sim_ci95(const double *x, size_t n, double *mean, double *half);

/* Derive the seed of stream @stream from the run seed (splitmix64). */
uint64_t sim_seed_derive(uint64_t seed, uint64_t stream);
gsl_rng *sim_rng_stream(uint64_t seed, uint64_t stream);
struct sim_xoshiro;
/*
 * sim_rng_stream_init() - sim_rng_stream() in place: @r (a gsl_rng the
 * caller holds, never given to gsl_rng_free()) with its state in @state,
 * where the caller wants it (next to what it draws for: struct sim_task),
 * for the _st draws below.
 */
void sim_rng_stream_init(gsl_rng *r, struct sim_xoshiro *state, uint64_t seed,
			 uint64_t stream);
extern const gsl_rng_type *sim_rng_xoshiro256ss;
extern const gsl_rng_type sim_rng_xoshiro256ss_type; /* what it points to */

/* The state of a sim_rng_xoshiro256ss generator: xoshiro256** 1.0. */
struct sim_xoshiro {
	uint64_t s[4];
};

static inline uint64_t sim_rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* sim_xoshiro_next() - one step of xoshiro256**: the next output of @st. */
static inline uint64_t sim_xoshiro_next(struct sim_xoshiro *st)
{
	uint64_t *s = st->s;
	uint64_t result = sim_rotl64(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = sim_rotl64(s[3], 45);
	return result;
}

/*
 * sim_rng_u64() - the next 64-bit output of @r, which must come from
 * sim_rng_stream() (or be a gsl_rng of type sim_rng_xoshiro256ss).
 * gsl_rng_get() gives the top 32 bits of the same output,
 * gsl_rng_uniform() the top 53.
 *
 * SIM: not checked here, on every draw (a load, a compare and a branch:
 * 3 of the ~45 instructions the hot loop of atomic_counter spends per
 * draw and sample); sim_rng_check() does it on the draws' rare paths
 * (a ziggurat edge or tail, 2.2% of exponential draws, and a rejection
 * test of sim_rng_uniform_int()). A workload that draws from another
 * generator is a bug every test run meets: its exponential draws stop
 * on a bug report within a few dozen (its first draws read the other
 * generator's state as xoshiro's: every task's generator comes from
 * sim_rng_stream(), in cmd/run/run.c and the tests).
 */
static inline void sim_rng_check(const gsl_rng *r)
{
	SIM_BUG_ON(r->type != &sim_rng_xoshiro256ss_type);
}

static inline uint64_t sim_rng_u64(gsl_rng *r)
{
	return sim_xoshiro_next(r->state);
}

uint64_t sim_rng_uniform_int_slow(gsl_rng *r, uint64_t n, unsigned __int128 m);

/*
 * sim_rng_uniform_int() - an integer uniform in [0, @n), @n >= 1, from
 * @r (a sim_rng_stream()): D. Lemire's multiply-shift ("Fast random
 * integer generation in an interval", ACM TOMACS 29(1), 2019). The 128-bit
 * product x n of a 64-bit output x splits [0, 2^64 n) into n ranges of
 * 2^64; its top half says which. Each range holds floor(2^64 / n) or one
 * more of the x, and rejecting x whose low half is below 2^64 mod n
 * evens them out, so the draw is exact. It costs a multiply, where
 * gsl_rng_uniform_int() divides in a loop behind a function pointer; the
 * remainder (a division) is only computed in the rare case the low half
 * is below n, and for n a power of two 2^64 mod n = 0: the result is the
 * top log2(n) bits of x and nothing is rejected.
 *
 * The _st draws (sim_rng_uniform_int_st(), sim_ran_exponential_st()) are
 * the same of the generator @r whose state is @st (sim_rng_stream_init()):
 * the same numbers, drawn without reading @r but on their rare paths, so
 * that it can stay out of the host's caches (struct sim_task).
 */
static inline uint64_t sim_rng_uniform_int_st(struct sim_xoshiro *st,
					      gsl_rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)sim_xoshiro_next(st) * n;

	/*
	 * The rejection loop is out of line (sim/stats.c): inline, it kept
	 * the generator's state in registers across the common path too.
	 */
	if (__builtin_expect((uint64_t)m < n, 0))
		return sim_rng_uniform_int_slow(r, n, m);
	return (uint64_t)(m >> 64);
}

static inline uint64_t sim_rng_uniform_int(gsl_rng *r, uint64_t n)
{
	return sim_rng_uniform_int_st(r->state, r, n);
}

/*
 * The ziggurat exponential (sim/stats.c says how it works): per layer i,
 * its width x_i 2^-53 (w), floor(2^53 x_{i+1} / x_i) (k) and exp(-x_i).
 * k and w, which every draw reads, in one struct: the inline draw forms
 * one address for both, not two (a PIE's lea each; `make
 * bench-peers-insns`, N=256 K=16: 498.0 -> 497.0 instructions an
 * atomic). Pairs {k, w} would need a shift of the index more (16-byte
 * entries, past the addressing's scale of 8).
 */
struct sim_zig_exp {
	uint64_t k[256];
	double w[256];
};
extern const struct sim_zig_exp sim_zig_exp;
extern const double sim_zig_exp_f[257];
double sim_ran_exponential_slow(gsl_rng *r, unsigned int i, uint64_t u);
/* the ziggurat's wedge test, y < exp(-v) in layer i (sim/stats.c) */
bool sim_zig_wedge_below(unsigned int i, double v, double y);

/*
 * sim_ran_exponential() - an exponential variate of mean @mean from @r (a
 * sim_rng_stream()). One 64-bit output gives a layer (its low 8 bits)
 * and a 53-bit integer u (its top bits, disjoint from those): x = u w[i]
 * is uniform across the layer, and when u < k[i] it lies where the whole
 * layer is under the density (97.8% of draws: the mean of x_i+1 / x_i):
 * done, without libm. The rest, the layers' edges and the tail, is
 * sim_ran_exponential_slow(). The largest draw is R - log(2^-53) = 44.4
 * means (the tail's), the smallest 0.
 */
static inline double sim_ran_exponential_st(struct sim_xoshiro *st, gsl_rng *r,
					    double mean)
{
	uint64_t x = sim_xoshiro_next(st);
	unsigned int i = (unsigned int)(x & 0xff);
	uint64_t u = x >> 11;

	if (__builtin_expect(u < sim_zig_exp.k[i], 1))
		return mean * ((double)(int64_t)u * sim_zig_exp.w[i]);
	return mean * sim_ran_exponential_slow(r, i, u);
}

static inline double sim_ran_exponential(gsl_rng *r, double mean)
{
	return sim_ran_exponential_st(r->state, r, mean);
}

/*
 * sim_ran_exponential_try() and sim_rng_uniform_int_try() - the common
 * paths of sim_ran_exponential_st() and sim_rng_uniform_int_st(), drawn
 * from @s, a copy of a stream's state the caller keeps in registers and
 * writes back once after its draws. True with the draw in *@x and @s one
 * output on; false on the rare path (a ziggurat edge or the tail, a
 * rejection test), where the caller drops @s and draws again with the
 * _st draws from the state it copied: the same numbers, with no call on
 * its common path (models/workloads/teaching.c: counter_next()).
 */
static inline bool sim_ran_exponential_try(struct sim_xoshiro *s, double mean,
					   double *x)
{
	uint64_t y = sim_xoshiro_next(s);
	unsigned int i = (unsigned int)(y & 0xff);
	uint64_t u = y >> 11;

	if (__builtin_expect(u >= sim_zig_exp.k[i], 0))
		return false;
	*x = mean * ((double)(int64_t)u * sim_zig_exp.w[i]);
	return true;
}

static inline bool sim_rng_uniform_int_try(struct sim_xoshiro *s, uint64_t n,
					   uint64_t *x)
{
	unsigned __int128 m = (unsigned __int128)sim_xoshiro_next(s) * n;

	if (__builtin_expect((uint64_t)m < n, 0))
		return false;
	*x = (uint64_t)(m >> 64);
	return true;
}

#endif /* SIM_STATS_H */
