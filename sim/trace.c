// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/trace.c - Chrome trace-event JSON writer (see sim/trace.h).
 *
 * Events are separated by ",\n", so the file is one event per line and
 * never has a trailing comma, which strict JSON parsers reject.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/file.h"
#include "sim/report.h"
#include "sim/trace.h"

struct sim_trace {
	FILE *out;
	char *path; /* final name */
	char *tmp_path; /* temporary name, NULL for stdout */
	uint64_t nr_events; /* written, metadata included */
	uint64_t max_events; /* cap on nr_events */
	uint64_t dropped; /* events refused by the cap */
};

/**
 * sim_trace_open() - start a trace that will become @path.
 * @path: file to create or replace on commit, or "-" for stdout
 * @err: filled on failure
 *
 * Return: the trace, to finish with sim_trace_close(), or NULL with @err
 * set.
 */
struct sim_trace *sim_trace_open(const char *path, struct sim_error *err)
{
	struct sim_trace *t = calloc(1, sizeof(*t));

	if (!t)
		goto out_nomem;
	t->path = strdup(path);
	if (!t->path)
		goto out_free_trace;
	t->out = sim_atomic_open(path, &t->tmp_path, err);
	if (!t->out)
		goto out_free_path;
	t->max_events = SIM_TRACE_MAX_EVENTS;
	fputs("{\"traceEvents\":[", t->out);
	return t;

out_free_path:
	free(t->path);
	free(t);
	return NULL;
out_free_trace:
	free(t);
out_nomem:
	sim_error_set(err, path, 0, 0, "cannot open trace: out of memory");
	return NULL;
}

/**
 * sim_trace_set_max_events() - change the cap on events.
 * @t: trace, or NULL
 * @max_events: events (metadata included) written before dropping
 */
void sim_trace_set_max_events(struct sim_trace *t, uint64_t max_events)
{
	if (t)
		t->max_events = max_events;
}

/**
 * sim_trace_dropped() - events refused so far because of the cap.
 * @t: trace, or NULL
 *
 * Return: the number of events dropped.
 */
uint64_t sim_trace_dropped(const struct sim_trace *t)
{
	return t ? t->dropped : 0;
}

/* Start an event, or refuse it because of the cap. */
static bool event_begin(struct sim_trace *t)
{
	if (t->nr_events >= t->max_events) {
		t->dropped++;
		return false;
	}
	fputs(t->nr_events ? ",\n" : "\n", t->out);
	t->nr_events++;
	return true;
}

/* Write @s as a JSON string, quotes included. */
static void put_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', out);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

/* Picoseconds as exact microseconds: 1234567 -> 1.234567. */
static void put_us(FILE *out, uint64_t ps)
{
	fprintf(out, "%llu.%06llu", (unsigned long long)(ps / 1000000),
		(unsigned long long)(ps % 1000000));
}

static void put_metadata(struct sim_trace *t, const char *what, int pid,
			 int tid, const char *arg, const char *name, int num)
{
	if (!event_begin(t))
		return;
	fprintf(t->out,
		"{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
		"\"args\":{\"%s\":",
		what, pid, tid, arg);
	if (name)
		put_string(t->out, name);
	else
		fprintf(t->out, "%d", num);
	fputs("}}", t->out);
}

/**
 * sim_trace_process() - name process @pid (a "process_name" event).
 * @t: trace, or NULL
 * @pid: process id in the trace
 * @name: shown by the viewer
 */
void sim_trace_process(struct sim_trace *t, int pid, const char *name)
{
	if (t)
		put_metadata(t, "process_name", pid, 0, "name", name, 0);
}

/**
 * sim_trace_thread() - name thread @tid of @pid, and sort threads by tid.
 * @t: trace, or NULL
 * @pid: process id
 * @tid: thread id, also its sort index
 * @name: shown by the viewer, e.g. "cpu3"
 */
void sim_trace_thread(struct sim_trace *t, int pid, int tid, const char *name)
{
	if (!t)
		return;
	put_metadata(t, "thread_name", pid, tid, "name", name, 0);
	put_metadata(t, "thread_sort_index", pid, tid, "sort_index", NULL, tid);
}

/**
 * sim_trace_slice() - a complete event: @name ran on @tid for @dur_ps.
 * @t: trace, or NULL
 * @pid: process id
 * @tid: thread id
 * @name: what ran
 * @cat: category, or NULL for none
 * @start_ps: simulated start time in picoseconds
 * @dur_ps: duration in picoseconds
 */
void sim_trace_slice(struct sim_trace *t, int pid, int tid, const char *name,
		     const char *cat, uint64_t start_ps, uint64_t dur_ps)
{
	if (!t || !event_begin(t))
		return;
	fputs("{\"name\":", t->out);
	put_string(t->out, name);
	if (cat) {
		fputs(",\"cat\":", t->out);
		put_string(t->out, cat);
	}
	fprintf(t->out, ",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":", pid,
		tid);
	put_us(t->out, start_ps);
	fputs(",\"dur\":", t->out);
	put_us(t->out, dur_ps);
	fputc('}', t->out);
}

/**
 * sim_trace_counter() - counter @name of @pid takes @value at @ts_ps.
 * @t: trace, or NULL
 * @pid: process id
 * @name: counter name, e.g. "usage"
 * @ts_ps: simulated time in picoseconds
 * @value: new value; NaN and infinities, which JSON lacks, are written 0
 */
void sim_trace_counter(struct sim_trace *t, int pid, const char *name,
		       uint64_t ts_ps, double value)
{
	char buf[40];

	if (!t || !event_begin(t))
		return;
	sim_format_double(buf, sizeof(buf), isfinite(value) ? value : 0);
	fputs("{\"name\":", t->out);
	put_string(t->out, name);
	fprintf(t->out, ",\"ph\":\"C\",\"pid\":%d,\"ts\":", pid);
	put_us(t->out, ts_ps);
	fprintf(t->out, ",\"args\":{\"value\":%s}}", buf);
}

/**
 * sim_trace_close() - finish and free @t.
 * @t: trace, or NULL
 * @commit: true to end the JSON and rename it to its path, false to
 *	    remove the temporary file
 * @err: filled on failure
 *
 * Return: 0, or -1 with @err set and no file left behind.
 */
int sim_trace_close(struct sim_trace *t, bool commit, struct sim_error *err)
{
	int ret;

	if (!t)
		return 0;
	if (commit && t->dropped) {
		fprintf(t->out,
			"%s{\"name\":\"trace_truncated\",\"ph\":\"M\","
			"\"pid\":0,\"tid\":0,\"args\":{\"max_events\":%" PRIu64
			",\"dropped_events\":%" PRIu64 "}}",
			t->nr_events ? ",\n" : "\n", t->max_events, t->dropped);
	}
	if (commit)
		fputs("\n],\"displayTimeUnit\":\"ns\"}\n", t->out);
	ret = sim_atomic_close(t->out, t->path, t->tmp_path, commit, err);
	free(t->path);
	free(t);
	return ret;
}
