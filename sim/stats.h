/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/stats.h - sample statistics and random streams.
 *
 * struct sim_stat collects samples (latencies, in any positive unit) and
 * answers count, mean and quantiles. The mean is always exact. Quantiles
 * are exact (selection, gsl_stats_select) while there are at most
 * SIM_STAT_EXACT samples; past that the samples are folded into a GSL
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
 * sim_ran_exponential() is gsl_ran_exponential() made cheaper (log()
 * instead of log1p()).
 *
 * Layering: sim/ primitive; uses GSL.
 */
#ifndef SIM_STATS_H
#define SIM_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_histogram.h>
#include <gsl/gsl_rng.h>

#define SIM_STAT_EXACT (1u << 20) /* samples kept exactly: 8 MiB */
#define SIM_STAT_BIN_BITS 9 /* bins per power of two: 2^9 */
#define SIM_STAT_BIN_REL 0.002 /* histogram bin width: at most 0.2% */

/*
 * struct sim_stat - samples: an array (in no particular order) while
 * @hist is NULL, a histogram after that.
 */
struct sim_stat {
	double *v;
	size_t n, cap;
	double sum;
	gsl_histogram *hist;
};

void sim_stat_init(struct sim_stat *s);
void sim_stat_destroy(struct sim_stat *s);
void sim_stat_reset(struct sim_stat *s);
void sim_stat_add(struct sim_stat *s, double x);
double sim_stat_mean(const struct sim_stat *s);
/* @q in [0, 1]; 0 when there are no samples. Reorders the samples. */
double sim_stat_quantile(struct sim_stat *s, double q);

/* Mean and 95% CI half-width of @n values; half-width 0 when n < 2. */
void sim_ci95(const double *x, size_t n, double *mean, double *half);

/* Derive the seed of stream @stream from the run seed (splitmix64). */
uint64_t sim_seed_derive(uint64_t seed, uint64_t stream);
gsl_rng *sim_rng_stream(uint64_t seed, uint64_t stream);
extern const gsl_rng_type *sim_rng_xoshiro256ss;
/* An exponential variate of mean @mean, from one uniform draw. */
double sim_ran_exponential(gsl_rng *r, double mean);

#endif /* SIM_STATS_H */
