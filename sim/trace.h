/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/trace.h - a Chrome trace-event JSON writer, for Perfetto
 * (ui.perfetto.dev) and chrome://tracing.
 *
 * Theory of operation: the engine opens a trace, names its processes
 * (one "CPUs" and one "cache lines" process per traced variant) and
 * threads (one per simulated CPU, one per cache line), then writes:
 *
 *  - begin/end events ("B"/"E") on the CPU tracks: the modelled kernel
 *    functions and the workloads' operations, from a call stack kept here
 *    for each CPU track (sim_trace_call_enter()/_exit(), hooked into
 *    CO_CALL in sim/co.h and into task_op_begin()/_end()), and inside them
 *    the memory accesses the CPU waited for (sim_trace_leaf()); a stack
 *    nests properly by construction;
 *  - complete events ("X") for the holders of a line;
 *  - async slices ("b"/"e", each its own id) for the posted accesses a CPU
 *    did not wait for, which may overlap anything, named "cpuN posted";
 *  - flows (Chrome's flow events v2: "bind_id", "flow_in", "flow_out" on
 *    the slices themselves), one chain per line through the accesses
 *    that took it from another CPU: an arrow from each to the next;
 *  - counters ("C") such as each line's queue length and sharers;
 *  - instants ("i") such as the end of the warm-up.
 *
 * The file looks like this, one event per line:
 *
 *	{"traceEvents":[
 *	{"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"base"}},
 *	{"name":"try_charge","cat":"kernel","ph":"B","pid":1,"tid":0,
 *	 "ts":1.234567},			(on one line)
 *	{"ph":"E","pid":1,"tid":0,"ts":1.234817},
 *	{"name":"usage","ph":"C","pid":1,"ts":2.000000,"args":{"value":512}}
 *	],"displayTimeUnit":"ns"}
 *
 * Every slice on a thread track (pid, tid) nests properly: two slices are
 * disjoint or one contains the other, also after the viewer sorts events
 * by timestamp. Perfetto sorts by time, then E events first, then X
 * events longest first, then the rest in file order; older versions, and
 * chrome://tracing, by time then file order. So the CPU tracks have only
 * B/E events, written in time order, outermost B first, and no slice of
 * length 0 (its E would sort before its B); the line tracks only X
 * events, which never overlap. tests/tracecheck.c checks this under both
 * orders, and the other rules, on every shipped scenario.
 *
 * A time window (sim_trace_set_window()) keeps what lies in it: slices are
 * clipped to it (clipping keeps nesting), instants and counters outside it
 * are dropped. sim_trace_run_begin() also clips to the run's end.
 *
 * Timestamps are simulated time. The format counts in microseconds; they
 * are printed exactly from integer picoseconds as "%llu.%06llu", never
 * through a double, so 1234567 ps is "1.234567". Names are escaped as JSON
 * strings; a byte that is not part of valid UTF-8 is written as U+FFFD.
 *
 * The file is written whole or not at all: events go to a temporary file
 * next to the path, renamed by sim_trace_close(.., true, ..). After
 * SIM_TRACE_MAX_EVENTS events further events are dropped and counted, and
 * a final metadata event "trace_truncated" records max_events and
 * dropped_events, so a long run cannot fill the disk. B/E and b/e events
 * are dropped in pairs, never one of the two. Metadata (names) counts but
 * is never dropped: it is one or two events per track that has events.
 *
 * Every function but sim_trace_open() accepts a NULL trace and does
 * nothing, so callers need no "is tracing on" test. Write errors are
 * sticky and reported by sim_trace_close().
 *
 * Layering: sim/ primitive; uses sim/error.h, sim/file.h (the
 * whole-or-nothing file helpers) and sim/report.h (sim_format_double()).
 */
#ifndef SIM_TRACE_H
#define SIM_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/error.h"

/* Default cap on events per trace, about 200 MB of JSON. */
#define SIM_TRACE_MAX_EVENTS 2000000ULL

struct sim_trace;

struct sim_trace *sim_trace_open(const char *path, struct sim_error *err);
void sim_trace_set_max_events(struct sim_trace *t, uint64_t max_events);
void sim_trace_process(struct sim_trace *t, int pid, const char *name);
void sim_trace_thread(struct sim_trace *t, int pid, int tid, const char *name,
		      int sort_index);
bool sim_trace_slice(struct sim_trace *t, int pid, int tid, const char *name,
		     const char *cat, uint64_t start_ps, uint64_t dur_ps);

/*
 * A link of a flow chain (Chrome's flow events v2: "bind_id", "flow_in",
 * "flow_out" on the slice's B or b event): the slices of one chain are
 * joined by arrows in time order. @id: the chain, unique in the trace (0:
 * no flow); @in: an arrow comes in (false for the chain's first slice).
 * Every link lets one go out, to the next if there is one.
 */
struct sim_trace_flow {
	uint64_t id;
	bool in;
};

void sim_trace_counter(struct sim_trace *t, int pid, const char *name,
		       uint64_t ts_ps, double value);
void sim_trace_instant(struct sim_trace *t, int pid, const char *name,
		       uint64_t ts_ps);
void sim_trace_process_sort(struct sim_trace *t, int pid, int index);
void sim_trace_set_window(struct sim_trace *t, uint64_t from_ps,
			  uint64_t to_ps);
bool sim_trace_in_window(const struct sim_trace *t, uint64_t ts_ps);
bool sim_trace_async(struct sim_trace *t, int pid, int tid, const char *name,
		     const char *cat, const char *access, uint64_t start_ps,
		     uint64_t end_ps, const struct sim_trace_flow *flow);
bool sim_trace_counters(struct sim_trace *t, int pid, const char *name,
			uint64_t ts_ps, unsigned int n, const char *const *keys,
			const double *values);
uint64_t sim_trace_dropped(const struct sim_trace *t);

/*
 * The CPU tracks' call stacks. sim_trace_calls is the trace of the run in
 * progress, or NULL: CO_CALL (sim/co.h) tests it, so that tracing off
 * costs a load and a branch per call. One run is traced at a time.
 */
extern struct sim_trace *sim_trace_calls;

void sim_trace_run_begin(struct sim_trace *t, int cpu_pid, uint64_t end_ps);
void sim_trace_run_end(struct sim_trace *t, uint64_t now_ps);
uint64_t sim_trace_run_dropped(const struct sim_trace *t);
uint64_t sim_trace_max_events(const struct sim_trace *t);
void sim_trace_call_enter(struct sim_trace *t, unsigned int tid,
			  const char *name, const char *cat, uint64_t now_ps);
void sim_trace_call_exit(struct sim_trace *t, unsigned int tid,
			 uint64_t now_ps);
bool sim_trace_leaf(struct sim_trace *t, unsigned int tid, const char *name,
		    const char *cat, uint64_t start_ps, uint64_t end_ps,
		    const struct sim_trace_flow *flow);
int sim_trace_close(struct sim_trace *t, bool commit, struct sim_error *err);
/* 0 while every write succeeded, else the first failure's errno (sticky);
 * writes out what is buffered. */
int sim_trace_flush(struct sim_trace *t);
/* The file the trace becomes (as given to sim_trace_open()). */
const char *sim_trace_path(const struct sim_trace *t);

#endif /* SIM_TRACE_H */
