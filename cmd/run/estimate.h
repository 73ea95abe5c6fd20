/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/run/estimate.h - what a run will cost before it runs: simulated events,
 * peak memory, wall time on this machine, and the size of its trace.
 *
 * Theory of operation: the estimate is worked out from the few numbers of
 * a loaded variant that decide its cost (struct estimate_input: CPUs,
 * memcgs, the statistics item counts, the tasks of each workload with the
 * time each spends per operation outside the memory system, the simulated
 * time), with constants calibrated against real runs of the shipped
 * scenarios (cmd/run/estimate.c says how close they come). Nothing is built
 * or run: `memcgsim check`, `run --dry-run` and `sweep --dry-run` print
 * it, and the run driver (cmd/run/run.c) refuses a run whose memory estimate
 * passes --max-memory before allocating anything.
 *
 *   events  = sum over workloads of tasks x ops per task x events per op
 *             (a lone task schedules no events: it never waits for anyone)
 *   work    = sum over workloads of ops x (1 + the units inside an op)
 *             (--max-events bounds the larger of events and work)
 *   memory  = the program + per task + per memcg + per (memcg, CPU) pair
 *             a CPU writes, in simulated cache lines of known size, + the
 *             latency samples of every operation
 *   wall    = events / RUN_EVENTS_PER_SECOND + ops x host time per op
 *   trace   = the first run's events (at most the trace's cap) x bytes each
 *
 * Layering: cli/ module; plain numbers in, so it includes only sim/.
 */
#ifndef CLI_ESTIMATE_H
#define CLI_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>

#include "sim/engine.h"

#define ESTIMATE_MAX_WORKLOADS 64

/* One workload, as the estimate sees it. */
struct estimate_workload {
	const char *type; /* its type's name: "page_fault" ... */
	unsigned int nr_tasks; /* one per CPU */
	sim_time_t self_ps; /* work_ns or think_ns: per op, outside memory */
	bool memcg; /* runs the memory controller's paths */
	unsigned int depth; /* its cgroup's levels below the root */
	/*
	 * Lines every task of it contends for with locked RMWs (a shared
	 * counter: atomic_counter's counters, a packed false_sharing rmw, a
	 * per_thread mm's mmap_lock), or 0; how many operations make one
	 * such RMW (batch; below 1: several RMWs an operation); and a hand-off
	 * of such a line between its tasks (the machine's transfer at their
	 * widest distance; 0: skx-2s-72's 48 ns, scaled).
	 */
	unsigned int serial_lines;
	double batch;
	sim_time_t serial_ps;
	/*
	 * Units of work (struct run: what --max-events bounds) one operation
	 * does besides itself: kmalloc's objects, twice; netperf's pages
	 * charged per message. And how many times an operation repeats
	 * self_ps and its time in the memory system (kmalloc: once per
	 * object); 0 or 1: once.
	 */
	double op_units;
	double repeat;
};

/* struct estimate_input - the numbers of one loaded variant. */
struct estimate_input {
	unsigned int nr_cpus; /* the machine's, used or not */
	unsigned int nr_nodes; /* its sockets */
	unsigned int nr_memcgs; /* the cgroup tree's, root included */
	/* kernel: the statistics arrays, per memcg and per (memcg, CPU) */
	unsigned int memcg_stat_items, memcg_event_items, lruvec_stat_items;
	bool local_aggregated; /* local_stats: aggregated (more arrays) */
	bool per_memcg_flush; /* stats_flush_threshold: per_memcg (v6.8) */
	sim_time_t run_ps; /* warm-up + duration */
	/*
	 * The machine's latencies against the calibration machine's
	 * (skx-2s-72): its xfer_llc / 48 ns; 0 for 1. An operation's time in
	 * the memory system scales with it.
	 */
	double latency_scale;
	bool trace; /* --trace: this is the traced run */
	unsigned int nr_workloads;
	struct estimate_workload w[ESTIMATE_MAX_WORKLOADS];
};

/* struct estimate - one run's cost (one replication of one variant). */
struct estimate {
	double ops; /* operations, all tasks, warm-up included */
	double events; /* engine events */
	/*
	 * work: operations, loop iterations and pages charged (struct run),
	 * warm-up included; --max-events bounds the larger of it and events
	 */
	double work;
	double memory; /* peak resident bytes of the process */
	double wall_s; /* seconds on this machine */
	double trace_bytes; /* of the --trace file; 0 when not traced */
};

void estimate_run(const struct estimate_input *in, struct estimate *out);

/*
 * estimate_events_per_op() - the engine events one operation of @type
 * takes, and its time in the memory system (*@mem_ps), as calibrated;
 * the defaults of an unknown type are page_fault's (the costliest).
 */
double estimate_events_per_op(const char *type, sim_time_t *mem_ps);

/* "1.2 GiB", "340 KiB", "15 B" */
/* The largest trace file: its cap of events (sim/trace.h), written. */
double estimate_trace_cap_bytes(void);
void estimate_format_bytes(double bytes, char *buf, size_t size);
/* "0.3 s", "42 s", "12 min", "3.1 h", "2.5 days" */
void estimate_format_seconds(double secs, char *buf, size_t size);
/* "3.2e+06", or "2100" below 10^4 */
void estimate_format_count(double n, char *buf, size_t size);

#endif /* CLI_ESTIMATE_H */
