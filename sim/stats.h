/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/stats.h - sample statistics and random streams.
 *
 * struct sim_stat collects samples (latencies, in any unit) and answers
 * count, mean and quantiles. Quantiles are exact: the samples are kept,
 * and each quantile is found by selection (gsl_stats_select).
 *
 * sim_ci95() gives the mean and the half-width of the Student-t 95%
 * confidence interval of a handful of replication results.
 *
 * Random numbers come only from GSL generators. sim_rng_stream() makes the
 * generator for stream @stream of a run seeded with @seed; streams are
 * independent of each other and of the order they are created in, so a
 * CPU's stream depends only on the seed and the CPU number.
 *
 * Layering: sim/ primitive; uses GSL.
 */
#ifndef SIM_STATS_H
#define SIM_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

/*
 * struct sim_stat - a growing array of samples, in no particular order.
 */
struct sim_stat {
	double *v;
	size_t n, cap;
	double sum;
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

#endif /* SIM_STATS_H */
