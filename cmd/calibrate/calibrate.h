/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/calibrate/calibrate.h - `memcgsim calibrate`: measure this host's cache-line
 * costs with pinned pthread microbenchmarks and write a machine profile;
 * `memcgsim calibrate --check` runs the same microbenchmarks in the
 * coherence model and compares.
 *
 * Theory of operation: a run is a list of points (struct cal_point), each
 * one benchmark on a set of CPUs, measured `reps` times. The host side
 * (calibrate_bench.c) probes the topology with hwloc and runs the points
 * with threads pinned to the point's CPUs; the simulator side
 * (calibrate_sim.c) runs the same loop on the same CPUs of a machine
 * profile, mapped by (socket, core within the socket, thread). calibrate.c
 * plans the points, keeps the progress line and prints --check's table;
 * calibrate_io.c writes the raw measurements (PROFILE's name with
 * .measurements.yaml for .yaml) and reads them back; calibrate_fit.c fits
 * and writes the profile.
 *
 * Every point's value is nanoseconds per operation: the window divided by
 * the operations of all its threads, 1e9 / throughput (for add_readers,
 * of the adder alone); for an idle latency, per access or hand-off. The
 * first CPU of a point writes the lines first: their home (LAW.md).
 *
 * Layering: cli/; the host side uses hwloc and pthreads, the simulator side
 * models/hw/.
 */
#ifndef CLI_CALIBRATE_H
#define CLI_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <yaml.h>

#include "sim/error.h"
#include "sim/yaml_emit.h"

/*
 * cmd_calibrate() - `memcgsim calibrate ...`; @argv[0] is "calibrate".
 * Return: the exit status: 0, 1 (a check outside its tolerance, or a
 * benchmark that could not run), 2 (bad input or usage).
 */
int cmd_calibrate(int argc, char **argv);

/* ---- shared by cli/calibrate*.c ---- */

#define CAL_MAX_CPUS 1024
#define CAL_MAX_REPS 64
#define CAL_CPU_MAX (1u << 20) /* the largest CPU number taken */
/*
 * The largest sample a measurement file may hold, in ns per operation:
 * 1 ms, the longest duration a machine profile takes (the fitted terms are
 * sums and differences of samples, so they stay loadable); a contended
 * add on 1,024 CPUs, some 200 ns a hand-off, costs about 0.2 ms.
 */
#define CAL_SAMPLE_MAX_NS 1e6
#define CAL_MAX_SOCKETS 16 /* a profile's (MACHINE_MAX_SOCKETS) */
#define CAL_OPS_PER_CLOCK 256 /* operations between two clock reads */

enum cal_bench {
	/* idle latencies, one per profile key */
	CAL_L1_HIT, /* dependent loads within half the L1 */
	CAL_LLC_HIT, /* dependent loads beyond L2, within the LLC */
	CAL_MEMORY, /* dependent loads over twice the LLC */
	/*
	 * the memory chase with independent work between two loads (lmbench
	 * lat_mem_rd's chase plus CAL_CHASE_WORK_UOPS of work): what the
	 * reorder buffer hides of a dependent miss; no profile key of its own
	 */
	CAL_CHASE_WORK,
	CAL_RMW_LOCAL, /* one thread's locked adds on its own line */
	CAL_XFER_SMT, /* CAS ping-pong, SMT siblings: round trip / 2 */
	CAL_XFER_LLC, /* ... two cores sharing the LLC */
	CAL_XFER_DIE, /* ... two LLC domains of one socket */
	CAL_XFER_SOCKET, /* ... two sockets */
	CAL_LOAD_XCHG_PP, /* two CPUs taking turns: wait for the other's
			   * xchg, load, xchg (perfbook's "CAS") */
	/*
	 * SMT execution sharing (the profile's smt_slowdown), on hosts with
	 * SMT siblings: a block of CAL_WORK_ITERS iterations of an integer
	 * loop in registers, on one thread, then on both threads of a core
	 * (ns per block of the first thread; the sibling runs the same loop)
	 */
	CAL_WORK,
	CAL_WORK_SMT,
	/* contended, N threads */
	CAL_ADD, /* a blind locked add on one line */
	CAL_LOAD_XCHG, /* a load then an xchg of the same line */
	CAL_XCHG2, /* two xchg of one line per operation */
	CAL_ADD_READERS, /* one locked adder, k = N-1 readers of its line */
	CAL_PACKED, /* a counter per thread, 8 bytes apart: one line
			  * (thread i and i+8 share a counter) */
	CAL_PADDED, /* a counter per thread, 128 bytes apart */
	CAL_PAIR, /* two counters, the two lines of one 128-byte pair:
		   * thread i adds to counter i % 2 */
	CAL_APART, /* the same two counters 128 bytes apart */
	/*
	 * N - k threads lock xadd one line while k = N / 2 (the odd ranks)
	 * chase a dependent pointer chain through it (a pointer in the line
	 * that points to itself): the adders' ns per xadd, and the readers'
	 * ns per dependent load (their latency, not 1e9 / throughput)
	 */
	CAL_CHASE_XADD,
	CAL_CHASE_LOAD,
	NR_CAL_BENCH,
};

/* The contended benchmarks, CAL_ADD to this: N threads each. */
#define CAL_LAST_CONTENDED CAL_CHASE_LOAD

/* A chase benchmark's reader: the odd ranks. */
static inline bool cal_chase_reader(int b, unsigned int rank)
{
	return (b == CAL_CHASE_XADD || b == CAL_CHASE_LOAD) && rank % 2;
}

/*
 * Whether rank @rank's operations count in a point's value: rank 0 alone
 * for an idle latency and add_readers (the adder), the readers for
 * chase_load, the adders for chase_xadd, every rank for the rest.
 */
static inline bool cal_rank_counts(int b, unsigned int rank)
{
	if (b == CAL_CHASE_LOAD)
		return rank % 2;
	if (b == CAL_CHASE_XADD)
		return !(rank % 2);
	return !rank || (b >= CAL_ADD && b != CAL_ADD_READERS);
}

#define CAL_NR_IDLE (CAL_XFER_SOCKET + 1) /* one profile key each */

/* The CPUs of an idle (placement idle) benchmark's point: 1 or 2. */
static inline unsigned int cal_bench_idle_cpus(int b)
{
	return b < CAL_XFER_SMT || b == CAL_WORK ? 1 : 2;
}

/*
 * work's and work_smt's block: CAL_WORK_ITERS iterations of a xorshift
 * step (three shifts, three xors) feeding a second chain (a shift, an
 * add, a shift, an xor), in registers: some 10 integer micro-ops an
 * iteration with two chains' worth of parallelism, no loads, no
 * branches but the loop's. What it shows is this loop's slowdown beside
 * its twin, the profile's source says so.
 */
#define CAL_WORK_ITERS 256

/*
 * chase_work's work between two loads: CAL_CHASE_WORK_ITERS iterations of
 * an add the compiler may not fold, about 3 micro-ops each (add, add,
 * compare-and-branch): 192 micro-ops, inside Skylake's 224-entry reorder
 * buffer; the model runs them at its insn latency
 */
#define CAL_CHASE_WORK_ITERS 64
#define CAL_CHASE_WORK_UOPS (3 * CAL_CHASE_WORK_ITERS)

/* The pointer-chase benchmarks: one thread, a buffer of lines. */
static inline bool cal_bench_chase(int b)
{
	return b <= CAL_CHASE_WORK;
}

/* Two CPUs taking turns on one line: round trip / 2 per operation. */
static inline bool cal_bench_pingpong(int b)
{
	return b >= CAL_XFER_SMT && b <= CAL_LOAD_XCHG_PP;
}

enum cal_placement {
	CAL_IDLE, /* one thread, or the pair of a distance class */
	CAL_COMPACT, /* socket 0's cores, then their siblings, then socket 1 */
	CAL_SPREAD, /* alternate sockets, cores before siblings */
	NR_CAL_PLACEMENT,
};

extern const char *const cal_bench_names[NR_CAL_BENCH];
extern const char *const cal_placement_names[NR_CAL_PLACEMENT];

/* Where one host CPU sits: socket, core within the socket, SMT thread. */
struct cal_cpu {
	unsigned int os; /* Linux CPU number */
	unsigned int socket, core, thread;
	unsigned int llc; /* LLC domain within the socket */
	bool enabled; /* in --cpus (all CPUs without it) */
};

/*
 * struct cal_host - the measured machine: what the profile's topology and
 * every `[M]` source say.
 */
struct cal_host {
	char cpu_model[128];
	char kernel[128];
	char date[16]; /* YYYY-MM-DD, UTC */
	unsigned int sockets, cores_per_socket, threads_per_core;
	unsigned int cores_per_llc;
	bool threads_adjacent; /* Linux numbers siblings 2k, 2k+1 */
	bool numbering_matches; /* ... or threads_last's way */
	size_t l1_bytes, l2_bytes, llc_bytes;
	unsigned int nr_cpus; /* every CPU this process may run on */
	struct cal_cpu cpus[CAL_MAX_CPUS];
};

struct cal_point {
	enum cal_bench bench;
	enum cal_placement placement;
	unsigned int n; /* threads */
	unsigned int cpu_idx[CAL_MAX_CPUS]; /* into cal_host.cpus, [n] */
	unsigned int reps;
	double samples[CAL_MAX_REPS]; /* ns per operation, one a rep */
	double median, q1, q3; /* of the samples */
	/*
	 * A ping-pong's hand-off spread: the coefficient of variation of
	 * one hand-off, from the batches of round trips each repetition
	 * times (bench.c batch_cv()), the median over the repetitions.
	 */
	bool has_cv;
	double cv;
	/* set by --check */
	double predicted; /* ns per operation in the model */
	/* work_smt: the work point of its first CPU (cal__link_work()) */
	const struct cal_point *alone;
};

struct cal_plan {
	bool quick;
	bool realtime; /* every thread ran at real-time priority */
	unsigned int reps;
	double window_s; /* one contended rep */
	unsigned int nr_points;
	struct cal_point *points;
};

/* calibrate_bench.c: the host. */
int cal__host_probe(struct cal_host *h, const char *cpulist,
		    struct sim_error *err);
void cal__host_release(void);
/* Seconds one repetition of @p takes, for the time estimate. */
double cal__bench_seconds(const struct cal_host *h, const struct cal_plan *pl,
			  const struct cal_point *p);
/* Run @p's repetitions; 0, or -1 with @err set (a thread cannot be pinned). */
int cal__bench_run(const struct cal_host *h, const struct cal_plan *pl,
		   struct cal_point *p, struct sim_error *err);

/* Whether every measuring thread so far ran at real-time priority. */
bool cal__bench_realtime(void);
/* A wake-up round trip: a pipe ping-pong between two pinned threads. */
#define CAL_WAKE_REPS 5u
int cal__wake_round_trip(unsigned int a, unsigned int b, double *median_ns);

/* calibrate_sim.c: the model. */
struct machine;
/*
 * cal__sim_map() - the profile CPU of every host CPU a point uses;
 * -1 with @err set when the profile has no CPU at that socket, core and
 * thread.
 */
int cal__sim_map(const struct machine *m, const struct cal_host *h,
		 const struct cal_point *p, unsigned int *sim_cpus,
		 struct sim_error *err);
/* cal__sim_run() - @p's benchmark in the model: p->predicted. */
int cal__sim_run(const struct machine *m, const struct cal_host *h,
		 struct cal_point *p, struct sim_error *err);

/* calibrate.c: statistics. */
void cal__point_stats(struct cal_point *p);
/*
 * cal__link_work() - point each work_smt point of @pl at the work point
 * of its first CPU (->alone), or NULL when there is none.
 */
void cal__link_work(struct cal_plan *pl);

/* calibrate.c */
enum cal_bench cal__xfer_class(const struct cal_cpu *a,
			       const struct cal_cpu *b);

/* calibrate_io.c: YAML out (libyaml's emitter), the measurement file. */
#define CAL_MEAS_FORMAT "memcgsim-measurements/1"

/*
 * The YAML files are written with sim/yaml_emit.h; these are the shapes
 * calibrate's files repeat: a formatted plain scalar, and key: value.
 */
void cal__yw_fmt(struct sim_yaml *y, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void cal__kv_str(struct sim_yaml *y, const char *key, const char *val,
		 bool quoted);
void cal__kv_uint(struct sim_yaml *y, const char *key, unsigned long long v);
void cal__cpulist(const struct cal_host *h, const unsigned int *idx,
		  unsigned int n, char *buf, size_t size);

struct cal_meas_args {
	const struct cal_host *h;
	const struct cal_plan *pl;
	const char *profile;
};

int cal__write_measurements(FILE *out, void *arg); /* @arg: cal_meas_args */
int cal__read_measurements(const char *path, struct cal_host *h,
			   struct cal_plan *pl, struct sim_error *err);

/* calibrate_fit.c: the profile fitted from the points. */
struct cal_fit {
	const struct cal_point *idle[CAL_NR_IDLE]; /* the medians, or NULL */
	double hold_ns; /* coherence.hold; 0: strict hand-off */
	double hold_add_ns, hold_xfer_ns; /* its point's m and x */
	unsigned int hold_points;
	unsigned int hold_sims; /* hold_for()'s simulations, all points */
	double inval_ns; /* inval_per_sharer */
	unsigned int inval_points;
	bool inval_clamped;
	/* the hand-off law's terms, ns; negative: not fitted */
	double upgrade_llc_ns, upgrade_socket_ns;
	double conflict_local_ns, conflict_remote_ns;
	unsigned int law_points;
	char law_why[512];
	/* the largest spread (IQR / median) of the points behind each */
	double spread_llc, spread_socket, spread_add;
	/*
	 * The law's terms fitted to each repetition alone (fit_law()): the
	 * repetitions every point behind them has (0: not fitted so), each
	 * term's values ns (negative: not fitted) and their spread, IQR /
	 * median, by enum cal_law_term.
	 */
	unsigned int term_reps;
	double term_ns[4][CAL_MAX_REPS];
	double term_spread[4];
	/* why a term was left at the loader's default, a line each */
	char notes[4096];
	/* work and work_smt, or NULL: smt_slowdown = their ratio */
	const struct cal_point *work, *work_smt;
	double smt_slowdown; /* 0: not fitted */
};

/*
 * The most a term's points may spread across their repetitions (IQR over
 * median) for the fit to take it: a quarter-to-three-quarter range as
 * wide as half the median is a busy host's noise, not a cost (issue 34,
 * item 9: one term came out 51.4, 0.0 and 3.5 ns a minute apart). The
 * same bound holds for the term itself fitted to each repetition alone:
 * points that each spread little can still fix a small difference, such
 * as an upgrade, that moves with every repetition.
 */
#define CAL_SPREAD_MAX 0.5

/* The hand-off law's terms, as cal_fit.term_ns[] holds them. */
enum cal_law_term {
	CAL_LAW_UPGRADE_LLC,
	CAL_LAW_UPGRADE_SOCKET,
	CAL_LAW_CONFLICT_LOCAL,
	CAL_LAW_CONFLICT_REMOTE,
};

struct cal_profile {
	const struct cal_host *h;
	const struct cal_plan *pl;
	const char *meas_name; /* the raw table's file name */
	const char *file; /* the profile's */
	char name[64];
	struct cal_fit f;
};

int cal__fit_profile(struct cal_profile *pa, struct sim_error *err);
int cal__write_profile(FILE *out, void *arg); /* @arg: cal_profile */
/* 0 when the profile @pa writes loads, else -1 with @err at the
 * measurements (cal__fit_profile() checks it last). */
int cal__profile_loads(const struct cal_profile *pa, struct sim_error *err);

#endif /* CLI_CALIBRATE_H */
