/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/trace.h - a Chrome trace-event JSON writer, for Perfetto
 * (ui.perfetto.dev) and chrome://tracing.
 *
 * Theory of operation: the engine opens a trace, names its processes
 * (e.g. one per socket or per variant) and threads (one per simulated
 * CPU), then writes a complete event ("ph":"X") for every span of
 * simulated work and a counter event ("ph":"C") for every sampled value.
 * The file looks like this, one event per line:
 *
 *	{"traceEvents":[
 *	{"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"base"}},
 *	{"name":"try_charge","cat":"memcg","ph":"X","pid":1,"tid":0,
 *	 "ts":1.234567,"dur":0.000250},		(on one line)
 *	{"name":"usage","ph":"C","pid":1,"ts":2.000000,"args":{"value":512}}
 *	],"displayTimeUnit":"ns"}
 *
 * Timestamps are simulated time. The format counts in microseconds; they
 * are printed exactly from integer picoseconds as "%llu.%06llu", never
 * through a double, so 1234567 ps is "1.234567".
 *
 * The file is written whole or not at all: events go to a temporary file
 * next to the path, renamed by sim_trace_close(.., true, ..). After
 * SIM_TRACE_MAX_EVENTS events (metadata included) further events are
 * dropped and counted, and a final metadata event "trace_truncated"
 * records max_events and dropped_events, so a long run cannot fill the
 * disk.
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
void sim_trace_thread(struct sim_trace *t, int pid, int tid, const char *name);
void sim_trace_slice(struct sim_trace *t, int pid, int tid, const char *name,
		     const char *cat, uint64_t start_ps, uint64_t dur_ps);
void sim_trace_counter(struct sim_trace *t, int pid, const char *name,
		       uint64_t ts_ps, double value);
uint64_t sim_trace_dropped(const struct sim_trace *t);
int sim_trace_close(struct sim_trace *t, bool commit, struct sim_error *err);

#endif /* SIM_TRACE_H */
