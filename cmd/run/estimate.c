// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/run/estimate.c - a run's cost before it runs. See cmd/run/estimate.h.
 *
 * Events. The engine schedules an event only when a task must wait for
 * another (sim_proc_sync(): a task whose clock is the earliest simply runs
 * on), so the events are the waits of the tasks' shared-memory accesses:
 * a number per operation that depends on the kernel path the workload
 * takes, times the operations, which follow from the time an operation
 * takes: the workload's own time (work_ns, think_ns) plus its time in the
 * memory system. Both per-operation figures are measured per workload
 * type on the shipped scenarios (the table below). A lone task never
 * waits and schedules no events (stat-read-1000: 3 events in 17 ms).
 *
 * How close, on the 70 variants of the 16 shipped scenarios (events
 * the engine counted; this estimate): the memcg workloads' variants that
 * charge a memcg within a factor of 3 (page-fault-batch 4.6-9.6e6
 * against 8.6e6; stats-threshold-page-fault 4.4-10.9e6 against 4.3e6;
 * stat-flush-contention 6.4-10.5e6 against 4.9e6; hackbench-objects
 * 0.18-0.91e6 against 0.54e6; page-counter-layouts 0.98-1.31e6 against
 * 1.1e6), and so those in the root memcg, which charge nothing, with
 * their own figure (charge-batch-2022's root: 0.29e6 against 0.31e6;
 * page-fault-batch's root: 4.6e6 against 4.3e6); af-unix-kmem's two CPUs
 * up to 10 times over (base-1: 5,200 against 50,000). The teaching loops
 * within a factor of 7:
 * SMT siblings hand a line off in a few ns, not 50 (atomic-counter's 2smt:
 * 147,000 against 22,000; its 72cpus: 6,300 against 22,000). Counted
 * again (2026-12, MEMCGSIM_COUNTS=1) with 35 events a fault and the
 * hand-off by distance (below): page-fault-batch 3.9-4.4e6 against 6e6,
 * stats-threshold-page-fault 2.1-4.3e6 against 3e6, stat-flush-contention
 * 2.8-3.8e6 against 2.7e6; the larger of the events and the work (what
 * --max-events bounds) from 0.36 to 7.4 times the real one (sk-forward-
 * alloc-2022's v5.19: its charges take few events), 105 of the 130
 * variants within a factor of 2 (up to 21 times, netperf-wakeup's one
 * pair in a memcg, before netperf's events followed its tasks). Latencies a
 * profile sets far from the calibrated machines' move the real count: run
 * --max-events stops such a run after its first 2^20 events either way.
 * The time in the memory system scales with the machine's latencies (its
 * xfer_llc against skx-2s-72's 48 ns), so a profile of 1 ps latencies
 * shows its cost: a think_ns 0 counter then turns over 50000 times as
 * fast, and so do its events.
 *
 * Work: what --max-events bounds besides the events (struct run's units,
 * issue 34 item 2): each operation, plus the units inside it that the
 * workload type names (workload_type.op_work: kmalloc's objects, twice;
 * netperf's pages per message), which also lengthen the operation
 * (kmalloc repeats its per-object costs; a page charged is 90 ns: 16 MiB
 * messages on skx-2s-72, 217,140 units in 20 ms). A line every task
 * shares passes their locked RMWs one at a time: atomic_counter's
 * counters, and the RMWs a type names (workload_type.op_shared_rmws: a
 * per_thread mm's mmap_lock, v5.13's global threshold), each a hand-off
 * of the machine's at the tasks' widest distance (skx-2s-72: 7.5 ns
 * between SMT siblings, 48 within a socket, 135 across). Against the
 * units counted (MEMCGSIM_COUNTS=1, cmd/run/limits.c) on the 130
 * variants of the 27 shipped scenarios (2026-12): from 0.36 times
 * (atomic-counter 1cpu: an uncontended increment is 7 ns, not 20) to
 * 5.5 times (multi-memcg-stock slots-1-fair: its stock drains are not
 * counted), half of them within 1.0-2.55 (the quartiles), the median
 * 1.55; tests/run-estimate.sh holds each to a factor of 8. Before the shared locks and the hand-off by distance, the
 * per_thread faults were 10 times over and v5.13-atomic 92 times.
 *
 * Memory. Nearly all of it is simulated cache lines (struct coh_line with
 * its field statistics, about 1,000 bytes each with malloc's overhead):
 * per memcg its statistics arrays (memcg_vmstats, lruvec_stats per node)
 * and its page counters; per (memcg, CPU) pair a CPU writes to, the
 * per-CPU copies (memcg_vmstats_percpu, lruvec_stats_percpu per node) and
 * its rstat line; per CPU its stock, counters and task; plus 44 bytes per
 * (memcg, CPU) pair allocated up front (struct cgroup_rstat_cpu); and
 * per operation its latency samples. Against peak RSS (/usr/bin/time -v)
 * of the shipped memcg scenarios: within 18% (stat-read-1000: 139 MiB
 * measured, 154 estimated; stats-threshold-page-fault: 26.8, 22.9;
 * page-fault-batch: 17.1, 17.9; stat-flush-contention: 24.6, 20.1); of
 * 256 CPUs x 4094 memcgs for 1 us: 353 MiB, 357. The teaching scenarios
 * (5-9 MiB) up to 2 times over, their operations being overestimated.
 * Measured again on every shipped scenario (2026-12, issue 34 item 10):
 * from 0.49 (multi-memcg-stock: 13.8 MiB against 28; its memcgs' stocks
 * are not counted) to 1.6 times (batching, false-sharing). With 16 bytes
 * of samples an operation that charges nothing (48 before), from 0.55
 * (multi-memcg-stock: 13.7 MiB against 24-25; a variant alone peaks at
 * 18.5, the five in one process at 24-25) and 0.70 (stat-flush-contention:
 * 15.0 against 21.4; its reader adds 9.7 MiB, not counted) to 1.31
 * (kmalloc-obj-stock: 26 against 19.7), 22 of the 27 scenarios within
 * 0.8-1.25: memcgsim(1) promises a factor of 2, and tests/run-estimate.sh
 * holds every shipped scenario to it.
 *
 * Wall time: the events at the engine's rate on this machine, plus, for a
 * workload whose operations take no events (one lone reader), the host
 * time of each operation, plus the set-up of the memory (it is CPU time:
 * a machine busy with other work takes longer). Measured on the build VM (2 cores, 2026): 13
 * million events a second (page-fault-batch: 40.8e6 events, 3.0 s;
 * stat-flush-contention: 32.4e6, 2.45 s; charge-batch-2022: 11.3e6, 0.89
 * s), and 1.5 us per memory.stat read of stat-read-1000 (0.57 s a
 * variant). Against the CPU time (user + system, /usr/bin/time) of each
 * shipped scenario that takes 0.1 s or more (2026-12, 16 of them, on a
 * loaded 2-core VM: two runs differ by up to 10%): from 0.82-0.91
 * (lru-lock-stats) to 1.88-2.00 times (sk-forward-alloc-2022,
 * netperf-sctp, kmalloc-obj-stock), 1.1-1.7
 * for most; 2.04 for page-fault-batch before a fault counted 35 events,
 * not 50; the events per second held (charge-batch-2022: 1.37e7).
 *
 * Trace: 2.35 trace events per engine event, 69 bytes of JSON each, at
 * most SIM_TRACE_MAX_EVENTS of them. sim/trace.c writes a call as a B/E
 * pair, an access as a nested B/E slice with its flow, async slices for
 * posted work, counters and the tracks' metadata. Measured (2026) with
 * `memcgsim run SCENARIO -v VARIANT --trace`: the JSON's events (lines)
 * against the engine's (sim_events() at the run's end):
 *	false-sharing padded           162,952 ->   326,069  2.00  60.8 B
 *	page-fault-batch v6.0 0.5 ms   660,516 -> 1,567,506  2.37  68.4 B
 *	netperf-sctp sctp 0.3 ms        84,734 ->   192,478  2.27  76.4 B
 *	multi-memcg-stock slots-1-fair
 *	    0.3 ms                      37,261 ->   106,359  2.85  82.1 B
 *	stat-flush-contention v6.0
 *	    0.2 ms                     231,738 ->   578,978  2.50  69.6 B
 * 2.35 and 69 B are the totals' ratios (2,771,390 trace events for
 * 1,177,201; 190.9 MB); a sched: fair run has more tracks and longer
 * names. It is written as it goes (sim/trace.c keeps no buffer but
 * stdio's), so it adds to the disk, not the memory.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmd/run/estimate.h"
#include "sim/stats.h"
#include "sim/trace.h"

/* The engine's rate on this machine (see above): events a second. */
#define EVENTS_PER_SECOND 1.3e7
/*
 * Setting a run up: the CPU time of allocating and filling its memory,
 * 1.1 ns a byte (256 CPUs x 4094 memcgs: 353 MiB in 0.44 s of user and
 * system time; 1024 CPUs: 917 MiB in 1.0 s).
 */
#define SETUP_S_PER_BYTE 1.1e-9
/* A simulated cache line with its statistics, in resident bytes. */
#define LINE_BYTES 1000.0
/* The program, libraries and report: resident before any line. */
#define BASE_BYTES (4.5 * 1024 * 1024)
/* A task: its process stack (4 KiB), random stream, CPU state. */
#define TASK_BYTES 8192.0
/* A memcg's lines besides its statistics: page counters, objcg, rstat. */
#define MEMCG_FIXED_LINES 12
/* A CPU's memcg lines besides the pairs: stock, counters, locks. */
#define CPU_MEMCG_LINES 4
/* struct cgroup_rstat_cpu, one per (memcg, CPU) up front. */
#define PAIR_EAGER_BYTES 44.0
/*
 * Per operation: its latency samples, kept for the percentiles: the
 * operation's own, 8 bytes (one double; the percentiles copy out only the
 * buckets that hold their ranks, sim_stat_quantile_each(), where they
 * copied every sample once more: 16 bytes made kmalloc-obj-stock's root
 * 26 MiB against 12.9 measured, 2.0x); and in a memcg below the root its
 * charge's, flush's or read's, 32 more (43-49 bytes in all measured:
 * page-fault-batch, stat-flush-contention; in the root or outside the
 * memcg paths there are no charges). A statistic keeps SIM_STAT_EXACT
 * samples, then folds them into a histogram (sim/stats.h), so only the
 * first SIM_STAT_EXACT operations count.
 */
#define OP_BYTES 8.0
#define CHARGE_OP_BYTES 32.0
/*
 * A hand-off of a contended line between two cores: the time a line
 * shared by every task serialises them to (atomic-counter 2cores: 48 ns an
 * increment; 72cpus: 176 ns, across sockets and with conflicts).
 */
#define SERIAL_PS (50 * SIM_PS_PER_NS)
/*
 * Host time of an operation of a lone task that has no host cost of its
 * own above (atomic_counter, false_sharing, ops): it takes no event, but
 * its coroutine runs: 1e7 increments in 0.10 s of user time, 10 ns each
 * (one CPU, every latency 1 ps, 0.01 ms; issue 34, item 2).
 */
#define LONE_OP_HOST_NS 10.0
/* Bytes of JSON per trace event (see above: 61-82 measured). */
#define TRACE_EVENT_BYTES 69.0
/* Trace events per engine event (see above: 2.00-2.85 measured). */
#define TRACE_PER_EVENT 2.35

/*
 * Per workload type: the engine events of one operation, its time in the
 * memory system, and the host time of one operation beyond its events.
 * Measured on the shipped scenarios (skx-2s-72 but where said):
 *  - page_fault: 12-60 events per fault (page-fault-batch root: 4.57e6
 *    events for 181,000 faults; stats-threshold-page-fault and
 *    stat-flush-contention up to 50-120 with the statistics flushes),
 *    and a fault's latency_mean of 1.1-1.2 us besides work_ns. Counted
 *    again (2026-12, MEMCGSIM_COUNTS=1) in a memcg: 29-30 a fault in
 *    page-fault-batch, 33-76 in stats-threshold-page-fault, 37-49 in
 *    stat-flush-contention, 14-48 in will-it-scale-page-fault: 35 (it
 *    was 50, which made page-fault-batch's wall time twice its CPU
 *    time); in the root, 23 (page-fault-batch);
 *  - fallocate: 87-117 events an operation in a memcg, 72 in the root,
 *    and 3.3 us an operation at work_ns 1000 (will-it-scale-fallocate:
 *    33,700 operations of 44 tasks in 2.5 ms; it had page_fault's
 *    figures, and its wall time was estimated at 0.7 times its CPU time);
 *  - reader_chain: 2 events and 250 ns an operation, the geometric mean
 *    of reader-chain's variants (2,556-16,124 operations of 8 tasks in
 *    0.22 ms; it had page_fault's figures, 0.1 times the work);
 *  - netperf: 0.8-9 events per task and simulated us at work_ns 3776
 *    (page-counter-layouts, stats-threshold-netperf, sk-forward-alloc),
 *    about 30 per message pair at some 4.8 us each; in a memcg, at most
 *    0.5 a task and one (a message takes 55-100 events with 36-72 tasks
 *    in the memcg, 1.7-3.4 with one pair: netperf-wakeup);
 *  - hackbench: 2-10 events per message (hackbench-objects: 0.18-0.91e6
 *    for 90,000 messages), 2 us besides work_ns;
 *  - stat_reader: 24 us per memory.stat read in skx-2s-72's terms,
 *    12 us on epyc-2s-256 (whose xfer_llc, 24 ns, is half): there
 *    stat-read-1000, with the instructions of each printed line priced,
 *    reads in 40 us (v1 summing per-CPU counters), 6 us (v1 aggregated)
 *    and 9.6 us (v2), about 12 us as their geometric mean; then its
 *    variants estimate 88-137 MiB and 0.1-0.2 s against 95-130 MiB and
 *    0.12-0.13 s measured; 1.5 us of host time a read;
 *  - the teaching loops: one event per increment or store that misses
 *    (batching, false-sharing: 1-2 per op), 20 ns per op uncontended.
 * In the root memcg nothing is charged: fewer events (charge-batch-2022
 * and sk-forward-alloc-2022's root: 0.29e6 and 0.14e6 where a memcg
 * takes 2-2.6e6 and 1-1.3e6, an eighth; page-fault-batch's root: half of
 * v6.0's; hackbench-objects' root: a third of objects').
 */
static const struct type_cost {
	const char *type;
	double events_per_op;
	double root_events_per_op; /* in the root memcg */
	sim_time_t mem_ps;
	double host_ns_per_op;
	sim_time_t root_mem_ps; /* in the root memcg; 0: mem_ps */
	sim_time_t unit_mem_ps; /* of each unit inside an operation */
	double events_per_task; /* in a memcg, at most this x tasks + 1 */
} type_costs[] = {
	{ "page_fault", 35, 25, 1100 * SIM_PS_PER_NS, 0, 0, 0, 0 },
	{ "netperf", 30, 4, 1000 * SIM_PS_PER_NS, 0, 0, 90 * SIM_PS_PER_NS,
	  0.5 },
	{ "hackbench", 6, 2, 2000 * SIM_PS_PER_NS, 0, 0, 0, 0 },
	{ "stat_reader", 10, 10, 24 * SIM_PS_PER_US, 1500, 0, 0, 0 },
	{ "atomic_counter", 1, 1, 20 * SIM_PS_PER_NS, 0, 0, 0, 0 },
	{ "false_sharing", 1, 1, 20 * SIM_PS_PER_NS, 0, 0, 0, 0 },
	{ "ops", 1, 1, 20 * SIM_PS_PER_NS, 0, 0, 0, 0 },
	{ "reader_chain", 2, 2, 250 * SIM_PS_PER_NS, 0, 0, 0, 0 },
	{ "fallocate", 95, 72, 2300 * SIM_PS_PER_NS, 0, 0, 0, 0 },
	{ "kmalloc", 12, 1, 300 * SIM_PS_PER_NS, 0, 11 * SIM_PS_PER_NS, 0, 0 },
};

static const struct type_cost *type_cost(const char *type)
{
	size_t i;

	for (i = 0; i < sizeof(type_costs) / sizeof(type_costs[0]); i++)
		if (type && !strcmp(type, type_costs[i].type))
			return &type_costs[i];
	return &type_costs[0];
}

double estimate_events_per_op(const char *type, sim_time_t *mem_ps)
{
	const struct type_cost *c = type_cost(type);

	if (mem_ps)
		*mem_ps = c->mem_ps;
	return c->events_per_op;
}

/* Cache lines of @slots 8-byte counters laid end to end. */
static double lines_of(double slots)
{
	return ceil(slots * 8 / 64);
}

static double memory_of(const struct estimate_input *in, double ops,
			double charging_ops)
{
	double m = in->memcg_stat_items, e = in->memcg_event_items;
	double s = in->lruvec_stat_items, nodes = in->nr_nodes;
	double memcg_lines, pair_lines, pairs = 0, tasks = 0, bytes;
	bool memcg = false;
	unsigned int i;

	for (i = 0; i < in->nr_workloads; i++) {
		const struct estimate_workload *w = &in->w[i];

		tasks += w->nr_tasks;
		if (!w->memcg)
			continue;
		memcg = true;
		/* a CPU writes its memcg's per-CPU copies; under the
		 * per-memcg threshold its ancestors' too */
		pairs += (double)w->nr_tasks *
			 (in->per_memcg_flush && w->depth ? w->depth : 1);
	}
	if (ops > SIM_STAT_EXACT)
		ops = SIM_STAT_EXACT;
	if (charging_ops > SIM_STAT_EXACT)
		charging_ops = SIM_STAT_EXACT;
	bytes = BASE_BYTES + tasks * TASK_BYTES + ops * OP_BYTES +
		charging_ops * CHARGE_OP_BYTES;
	if (!memcg)
		return bytes;
	if (pairs > (double)in->nr_cpus * in->nr_memcgs)
		pairs = (double)in->nr_cpus * in->nr_memcgs;
	/* memcg_vmstats: state, events, their pending (and local) copies */
	memcg_lines = lines_of((in->local_aggregated ? 4 : 2) * (m + e) +
			       (in->per_memcg_flush ? 1 : 0)) +
		      nodes * lines_of((in->local_aggregated ? 3 : 2) * s) +
		      MEMCG_FIXED_LINES;
	/* memcg_vmstats_percpu: state, events, their _prev, header */
	pair_lines = lines_of(2 * (m + e) + 6) + nodes * lines_of(2 * s) + 1;
	bytes += LINE_BYTES *
		 ((double)in->nr_memcgs * memcg_lines + pairs * pair_lines +
		  (double)in->nr_cpus * (CPU_MEMCG_LINES + nodes));
	bytes += PAIR_EAGER_BYTES * in->nr_cpus * in->nr_memcgs;
	return bytes;
}

/**
 * estimate_run() - the cost of one run of a variant.
 * @in: the variant's numbers
 * @out: its estimate
 */
void estimate_run(const struct estimate_input *in, struct estimate *out)
{
	double scale = in->latency_scale > 0 ? in->latency_scale : 1;
	double tasks = 0, host_s = 0, trace_events, serial_ps;
	double charging_ops = 0;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < in->nr_workloads; i++)
		tasks += in->w[i].nr_tasks;
	for (i = 0; i < in->nr_workloads; i++) {
		const struct estimate_workload *w = &in->w[i];
		const struct type_cost *c = type_cost(w->type);
		bool root = w->memcg && !w->depth;
		double repeat = w->repeat > 1 ? w->repeat : 1;
		double mem_ps = (double)(root && c->root_mem_ps ?
						 c->root_mem_ps :
						 c->mem_ps);
		/* a picosecond at least: latencies of 0 take time too */
		double op_ps = fmax(
			repeat * ((double)w->self_ps + scale * mem_ps) +
				w->op_units * scale * (double)c->unit_mem_ps,
			1);
		double ops = (double)w->nr_tasks * (double)in->run_ps / op_ps;
		double batch = w->batch > 0 ? w->batch : 1, serial;
		/* kmalloc: an operation's events are its objects' */
		double per_op = repeat * (root ? c->root_events_per_op :
						 c->events_per_op);

		/*
		 * netperf: the charges wait on each other only when many
		 * tasks share the memcg: with a pair or two, little more
		 * than the messages' hand-offs (netperf-wakeup's one pair:
		 * 1.7-3.4 events a message, against 55-100 for 36-72 tasks)
		 */
		if (!root && c->events_per_task > 0)
			per_op = fmin(per_op,
				      c->events_per_task * w->nr_tasks + 1);

		/* the shared lines pass the RMWs one at a time */
		if (w->serial_lines && w->nr_tasks > 1) {
			serial_ps = w->serial_ps ? (double)w->serial_ps :
						   scale * SERIAL_PS;
			serial_ps = fmax(serial_ps, 1);
			serial = w->serial_lines * batch * (double)in->run_ps /
				 serial_ps;
			if (serial < ops)
				ops = serial;
			per_op += 1 / batch; /* each RMW waits for its line */
		}
		out->ops += ops;
		if (w->memcg && w->depth)
			charging_ops += ops;
		out->work += ops * (1 + w->op_units);
		/* the units inside an operation cost host time too */
		host_s += ops * w->op_units * LONE_OP_HOST_NS / 1e9;
		/* SIM: a lone task never waits (sim_proc_sync()) */
		if (tasks > 1)
			out->events += ops * per_op;
		host_s += ops * c->host_ns_per_op / 1e9;
		/*
		 * ... and its operations cost host time all the same, with
		 * no event to count it (issue 34, item 2: 1 ps latencies,
		 * 1.1e10 increments, estimated at 0 s).
		 */
		if (tasks <= 1 && !c->host_ns_per_op)
			host_s += ops * LONE_OP_HOST_NS / 1e9;
	}
	out->memory = memory_of(in, out->ops, charging_ops);
	out->wall_s = out->events / EVENTS_PER_SECOND + host_s +
		      out->memory * SETUP_S_PER_BYTE;
	if (in->trace) {
		trace_events = out->events * TRACE_PER_EVENT;
		if (trace_events > (double)SIM_TRACE_MAX_EVENTS)
			trace_events = (double)SIM_TRACE_MAX_EVENTS;
		out->trace_bytes = trace_events * TRACE_EVENT_BYTES;
	}
}

double estimate_trace_cap_bytes(void)
{
	return (double)SIM_TRACE_MAX_EVENTS * TRACE_EVENT_BYTES;
}

void estimate_format_bytes(double bytes, char *buf, size_t size)
{
	static const char *const units[] = { "B",   "KiB", "MiB",
					     "GiB", "TiB", "PiB" };
	unsigned int u = 0;

	while (bytes >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		bytes /= 1024;
		u++;
	}
	if (!u || bytes >= 100)
		snprintf(buf, size, "%.0f %s", bytes, units[u]);
	else
		snprintf(buf, size, "%.1f %s", bytes, units[u]);
}

void estimate_format_seconds(double secs, char *buf, size_t size)
{
	if (secs < 10)
		snprintf(buf, size, "%.1f s", secs);
	else if (secs < 120)
		snprintf(buf, size, "%.0f s", secs);
	else if (secs < 7200)
		snprintf(buf, size, "%.0f min", secs / 60);
	else if (secs < 172800)
		snprintf(buf, size, "%.1f h", secs / 3600);
	else
		snprintf(buf, size, "%.3g days", secs / 86400);
}

void estimate_format_count(double n, char *buf, size_t size)
{
	if (n < 1e4)
		snprintf(buf, size, "%.0f", n);
	else
		snprintf(buf, size, "%.2g", n);
}
