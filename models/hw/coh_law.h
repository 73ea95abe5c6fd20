/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/hw/coh_law.h - the hand-off law's parameters from measured
 * contended points (memcgsim calibrate), and the law's closed form.
 *
 * Theory of operation: the coherence model (cache.h) prices a hand-off of
 * a contended line by its idle transfer (distance class; across sockets,
 * whether the line's home is the holder's socket), an upgrade when a
 * sharer RMWs a line it loaded, and a conflict per third CPU queued on the
 * line (conflict_local when the requester is on the line's home socket,
 * conflict_remote otherwise). When N CPUs saturate one line with blind
 * RMWs, strict hand-off serves them in a fixed rotation (the order they
 * first asked, cpus[] here), so every hand-off has N - 2 third parties and
 *
 *	ns/op = mean over the rotation of
 *		xfer(cpus[i-1] -> cpus[i]) + (N - 2) x conflict(cpus[i])
 *
 * which is linear in conflict_local and conflict_remote: coh_law_fit()
 * solves it by least squares over the measured points with N >= 3, after
 * the idle transfers have been set from ping-pong medians. A load then an
 * RMW by two CPUs taking turns (perfbook's "CAS") costs xfer + upgrade per
 * operation, which fixes upgrade_llc and upgrade_socket. Other benchmarks
 * (load then xchg by CPUs that do not wait for each other: their loads
 * overlap; k readers; packed or padded counters) are not fitted: they are
 * the law's checks, simulated by `memcgsim calibrate --check`.
 *
 * The line's home is the socket of cpus[0], which touches it first.
 * Occupancy is taken as 1.0 (the shipped profiles' value).
 *
 * Layering: models/ module; uses models/hw/machine.h only.
 */
#ifndef MODELS_HW_COH_LAW_H
#define MODELS_HW_COH_LAW_H

#include <stddef.h>

#include "models/hw/machine.h"

enum coh_bench {
	COH_BENCH_PINGPONG, /* 2 CPUs, blind RMW turn by turn */
	COH_BENCH_ADD, /* each CPU: lock add on one line */
	COH_BENCH_LOAD_XCHG, /* each CPU: load, then xchg, of one line */
	/*
	 * 2 CPUs taking turns: each waits for the other's xchg, then loads
	 * and xchgs the line (perfbook's "CAS" against its "blind CAS")
	 */
	COH_BENCH_LOAD_XCHG_PINGPONG,
	COH_BENCH_XCHG2, /* each CPU: two xchg of one line per op */
	COH_BENCH_ADD_READERS, /* nr_cpus - readers add, readers load */
	COH_BENCH_PACKED, /* each CPU: lock add, own counter, one line */
	COH_BENCH_PADDED, /* same, counters 128 bytes apart */
	NR_COH_BENCH,
};

/*
 * struct coh_law_point - one measured contended point.
 * @cpus: [nr_cpus] Linux CPU numbers in the order they start; cpus[0]
 *	touches the line first (its socket is the line's home).
 * @ns_per_op: run time / operations of all writer threads (1e9 divided
 *	by the throughput); an XCHG2 operation is two xchg.
 */
struct coh_law_point {
	enum coh_bench bench;
	unsigned int readers; /* ADD_READERS only */
	unsigned int nr_cpus;
	const unsigned int *cpus;
	double ns_per_op;
	double spread_ns; /* measured spread (stddev), 0 if unknown */
};

const char *coh_bench_name(enum coh_bench b);

/*
 * coh_law_predict() - the law's closed form for @p on @m, in ns per
 * operation: PINGPONG, ADD and XCHG2 for any nr_cpus >= 1,
 * LOAD_XCHG_PINGPONG for nr_cpus == 2. Returns a negative value for what
 * only a simulation can answer (LOAD_XCHG, readers, packed/padded).
 */
double coh_law_predict(const struct machine *m, const struct coh_law_point *p);

/*
 * coh_law_fit() - set conflict_local_ps, conflict_remote_ps (from ADD
 * points with nr_cpus >= 3), upgrade_ps[] (from LOAD_XCHG_PINGPONG points) and xfer_per_waiter_ps = 0 in @m, whose topology and idle
 * transfers must be set. A parameter without usable points keeps its
 * value; a negative fit is clamped to 0. @why (may be NULL) receives one
 * line per parameter: its value, the points used and the rms residual.
 * Return: the number of parameters set, or -1 when no point was usable
 * (@why says why).
 */
int coh_law_fit(const struct coh_law_point *pts, unsigned int n,
		struct machine *m, char *why, size_t len);

#endif /* MODELS_HW_COH_LAW_H */
