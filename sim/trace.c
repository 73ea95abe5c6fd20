// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/trace.c - Chrome trace-event JSON writer (see sim/trace.h).
 *
 * Events are separated by ",\n", so the file is one event per line and
 * never has a trailing comma, which strict JSON parsers reject.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/file.h"
#include "sim/report.h"
#include "sim/trace.h"

/* Deeper calls are not traced (the model's static depth is about 12). */
#define TRACE_MAX_DEPTH 64

struct trace_frame {
	const char *name;
	const char *cat;
	uint64_t start; /* ps */
	bool in_window; /* it began inside the window */
	bool emitted; /* its B was written: its E must be */
};

struct trace_stack {
	unsigned int depth; /* frames entered, those past the cap included */
	struct trace_frame frames[TRACE_MAX_DEPTH];
};

struct sim_trace {
	FILE *out;
	char *path; /* final name */
	char *tmp_path; /* temporary name, NULL for stdout */
	uint64_t nr_events; /* written, metadata included */
	uint64_t max_events; /* cap on nr_events */
	uint64_t dropped; /* events refused by the cap */
	uint64_t reserved; /* slots kept for the E of written Bs */
	uint64_t from, to; /* the window, ps */
	uint64_t run_end; /* the traced run's end, ps */
	uint64_t run_dropped; /* dropped when the traced run began */
	uint64_t next_id; /* async slices and flows */
	int cpu_pid; /* the CPU tracks' process in the traced run */
	int write_errno; /* the first failed write's reason, or 0 */
	struct trace_stack *stacks; /* one per CPU track, grown */
	unsigned int nr_stacks;
};

struct sim_trace *sim_trace_calls;

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
	t->to = UINT64_MAX;
	t->run_end = UINT64_MAX;
	t->cpu_pid = -1;
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
 * sim_trace_flush() - write out what is buffered, and say whether every
 * write so far succeeded: 0, or the reason of the first failure (an errno
 * value, EIO when the stream does not say), sticky. A writer checks it
 * as it goes, to stop at the first failed write (a full disk) instead of
 * simulating on for a trace that cannot be written.
 * @t: trace, or NULL
 */
int sim_trace_flush(struct sim_trace *t)
{
	if (!t || t->write_errno)
		return t ? t->write_errno : 0;
	errno = 0;
	if (fflush(t->out) || ferror(t->out))
		t->write_errno = errno ? errno : EIO;
	return t->write_errno;
}

const char *sim_trace_path(const struct sim_trace *t)
{
	return t->path;
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

/*
 * Room for @n events, the E events owed to written B events aside; when
 * there is none, count the @n as dropped.
 */
static bool room(struct sim_trace *t, unsigned int n)
{
	if (t->nr_events + t->reserved + n > t->max_events) {
		t->dropped += n;
		return false;
	}
	return true;
}

/* Start an event whose room was checked. */
static void event_start(struct sim_trace *t)
{
	fputs(t->nr_events ? ",\n" : "\n", t->out);
	t->nr_events++;
}

/* Start an event, or refuse it because of the cap. */
static bool event_begin(struct sim_trace *t)
{
	if (!room(t, 1))
		return false;
	event_start(t);
	return true;
}

/* The window's end for the run in progress. */
static uint64_t window_end(const struct sim_trace *t)
{
	return t->to < t->run_end ? t->to : t->run_end;
}

/**
 * sim_trace_in_window() - whether an instant at @ts_ps would be kept.
 * @t: trace, or NULL (false)
 * @ts_ps: simulated time in picoseconds
 *
 * Return: true when @ts_ps is inside the window and the run.
 */
bool sim_trace_in_window(const struct sim_trace *t, uint64_t ts_ps)
{
	return t && ts_ps >= t->from && ts_ps <= window_end(t);
}

/*
 * clip() - [*@start, *@end] cut to the window. Return: false when nothing
 * of it is left: it lies outside, or only its edge touches the window.
 */
static bool clip(const struct sim_trace *t, uint64_t *start, uint64_t *end)
{
	uint64_t hi = window_end(t);

	if (*start == *end)
		return *start >= t->from && *start <= hi;
	if (*end <= t->from || *start >= hi)
		return false;
	if (*start < t->from)
		*start = t->from;
	if (*end > hi)
		*end = hi;
	return true;
}

/**
 * sim_trace_set_window() - keep only what happens from @from_ps to @to_ps.
 * @t: trace, or NULL
 * @from_ps: window start, simulated picoseconds
 * @to_ps: window end (UINT64_MAX: the end of each run)
 */
void sim_trace_set_window(struct sim_trace *t, uint64_t from_ps, uint64_t to_ps)
{
	if (!t)
		return;
	t->from = from_ps;
	t->to = to_ps;
}

/*
 * Length of the valid UTF-8 sequence at @p (2 to 4), or 0. Overlong forms,
 * surrogates and code points past U+10FFFF are not valid.
 */
static unsigned int utf8_len(const unsigned char *p)
{
	unsigned int n, i;
	uint32_t cp;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

/*
 * Write @s as a JSON string, quotes included. Names come from input files
 * and may be cut in the middle of a UTF-8 sequence by a fixed buffer: a
 * byte that does not start valid UTF-8 becomes U+FFFD.
 */
static void put_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	unsigned int n;

	fputc('"', out);
	for (; *p; p++) {
		if (*p >= 0x80) {
			n = utf8_len(p);
			if (!n) {
				fputs("\\ufffd", out);
				continue;
			}
			fwrite(p, 1, n, out);
			p += n - 1;
			continue;
		}
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

/*
 * Metadata is never dropped: there is one event per process and two per
 * track that has events, so it stays within a small multiple of what the
 * cap let through, and a trace cut short keeps its names.
 */
static void put_metadata(struct sim_trace *t, const char *what, int pid,
			 int tid, const char *arg, const char *name, int num)
{
	event_start(t);
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
 * sim_trace_thread() - name thread @tid of @pid, and place it.
 * @t: trace, or NULL
 * @pid: process id
 * @tid: thread id
 * @name: shown by the viewer, e.g. "cpu3"
 * @sort_index: smaller first
 */
void sim_trace_thread(struct sim_trace *t, int pid, int tid, const char *name,
		      int sort_index)
{
	if (!t)
		return;
	put_metadata(t, "thread_name", pid, tid, "name", name, 0);
	put_metadata(t, "thread_sort_index", pid, tid, "sort_index", NULL,
		     sort_index);
}

/**
 * sim_trace_process_sort() - order process @pid by @index in the viewer.
 * @t: trace, or NULL
 * @pid: process id
 * @index: smaller first
 */
void sim_trace_process_sort(struct sim_trace *t, int pid, int index)
{
	if (t)
		put_metadata(t, "process_sort_index", pid, 0, "sort_index",
			     NULL, index);
}

/* "name":..,["cat":..,]"ph":"P","pid":P,"tid":T,"ts":TS */
static void put_head(struct sim_trace *t, const char *name, const char *cat,
		     char ph, int pid, int tid, uint64_t ts_ps)
{
	fputc('{', t->out);
	if (name) {
		fputs("\"name\":", t->out);
		put_string(t->out, name);
		fputc(',', t->out);
	}
	if (cat) {
		fputs("\"cat\":", t->out);
		put_string(t->out, cat);
		fputc(',', t->out);
	}
	fprintf(t->out, "\"ph\":\"%c\",\"pid\":%d,\"tid\":%d,\"ts\":", ph, pid,
		tid);
	put_us(t->out, ts_ps);
}

/* ,"bind_id":..,"flow_in":true,"flow_out":true: a link of a flow chain */
static void put_flow(struct sim_trace *t, const struct sim_trace_flow *flow)
{
	if (!flow || !flow->id)
		return;
	fprintf(t->out, ",\"bind_id\":\"0x%" PRIx64 "\"", flow->id);
	if (flow->in)
		fputs(",\"flow_in\":true", t->out);
	fputs(",\"flow_out\":true", t->out);
}

/**
 * sim_trace_slice() - a complete event: @name ran on @tid from @start_ps
 * for @dur_ps.
 * @t: trace, or NULL
 * @pid: process id
 * @tid: thread id
 * @name: what ran
 * @cat: category, or NULL for none
 * @start_ps: simulated start time in picoseconds
 * @dur_ps: duration in picoseconds
 *
 * The slice is cut to the window; nothing is written if none of it is in.
 * Not for the CPU tracks of a traced run: see sim_trace_leaf().
 *
 * Return: true when it was written.
 */
bool sim_trace_slice(struct sim_trace *t, int pid, int tid, const char *name,
		     const char *cat, uint64_t start_ps, uint64_t dur_ps)
{
	uint64_t end = start_ps + dur_ps;

	if (!t || !clip(t, &start_ps, &end) || !event_begin(t))
		return false;
	put_head(t, name, cat, 'X', pid, tid, start_ps);
	fputs(",\"dur\":", t->out);
	put_us(t->out, end - start_ps);
	fputc('}', t->out);
	return true;
}

/**
 * sim_trace_async() - an async slice (a "b" and an "e" with a fresh id):
 * something that ran from @start_ps to @end_ps without holding its track,
 * so it may overlap anything.
 * @t: trace, or NULL
 * @pid: process id (async tracks belong to a process, grouped by @name)
 * @tid: the thread it came from (viewers that group by thread use it)
 * @name: the slice and its track, e.g. "cpu3 posted"
 * @cat: category
 * @access: shown as the slice's argument "access", or NULL
 * @start_ps: start, simulated picoseconds
 * @end_ps: end, >= @start_ps
 * @flow: NULL, or its link in a flow chain (see struct sim_trace_flow)
 *
 * Return: true when it was written.
 */
bool sim_trace_async(struct sim_trace *t, int pid, int tid, const char *name,
		     const char *cat, const char *access, uint64_t start_ps,
		     uint64_t end_ps, const struct sim_trace_flow *flow)
{
	uint64_t id;

	if (!t || !clip(t, &start_ps, &end_ps) || !room(t, 2))
		return false;
	id = ++t->next_id;
	event_start(t);
	put_head(t, name, cat, 'b', pid, tid, start_ps);
	fprintf(t->out, ",\"id\":\"0x%" PRIx64 "\"", id);
	put_flow(t, flow);
	if (access) {
		fputs(",\"args\":{\"access\":", t->out);
		put_string(t->out, access);
		fputc('}', t->out);
	}
	fputc('}', t->out);
	event_start(t);
	put_head(t, name, cat, 'e', pid, tid, end_ps);
	fprintf(t->out, ",\"id\":\"0x%" PRIx64 "\"}", id);
	return true;
}

/**
 * sim_trace_instant() - a moment of process @pid (an "i" event with
 * scope "p": a line across its tracks), if @ts_ps is in the window.
 * @t: trace, or NULL
 * @pid: process id
 * @name: what happened, e.g. "warm-up ends"
 * @ts_ps: when, simulated picoseconds
 */
void sim_trace_instant(struct sim_trace *t, int pid, const char *name,
		       uint64_t ts_ps)
{
	if (!sim_trace_in_window(t, ts_ps) || !event_begin(t))
		return;
	put_head(t, name, NULL, 'i', pid, 0, ts_ps);
	fputs(",\"s\":\"p\"}", t->out);
}

/**
 * sim_trace_counter() - counter @name of @pid takes @value at @ts_ps.
 * @t: trace, or NULL
 * @pid: process id
 * @name: counter name, e.g. "usage"
 * @ts_ps: simulated time in picoseconds; outside the window, nothing
 * @value: new value; NaN and infinities, which JSON lacks, are written 0
 */
void sim_trace_counter(struct sim_trace *t, int pid, const char *name,
		       uint64_t ts_ps, double value)
{
	static const char *const key[] = { "value" };

	sim_trace_counters(t, pid, name, ts_ps, 1, key, &value);
}

/**
 * sim_trace_counters() - counters "@name @keys[i]" of @pid take @values.
 * @t: trace, or NULL
 * @pid: process id
 * @name: counter group, e.g. a line's name
 * @ts_ps: simulated time in picoseconds; outside the window, nothing
 * @n: number of counters
 * @keys: their names within the group, e.g. "queued"
 * @values: their values; NaN and infinities are written 0
 *
 * Return: true when they were written.
 */
bool sim_trace_counters(struct sim_trace *t, int pid, const char *name,
			uint64_t ts_ps, unsigned int n, const char *const *keys,
			const double *values)
{
	char buf[40];
	unsigned int i;

	if (!sim_trace_in_window(t, ts_ps) || !event_begin(t))
		return false;
	fputs("{\"name\":", t->out);
	put_string(t->out, name);
	fprintf(t->out, ",\"ph\":\"C\",\"pid\":%d,\"ts\":", pid);
	put_us(t->out, ts_ps);
	fputs(",\"args\":{", t->out);
	for (i = 0; i < n; i++) {
		sim_format_double(buf, sizeof(buf),
				  isfinite(values[i]) ? values[i] : 0);
		if (i)
			fputc(',', t->out);
		put_string(t->out, keys[i]);
		fprintf(t->out, ":%s", buf);
	}
	fputs("}}", t->out);
	return true;
}

/* ---- call stacks ---- */

/**
 * sim_trace_run_begin() - a traced run starts: calls go to @t.
 * @t: trace, or NULL
 * @cpu_pid: process of the CPU tracks
 * @end_ps: the run's end; slices are cut there
 */
void sim_trace_run_begin(struct sim_trace *t, int cpu_pid, uint64_t end_ps)
{
	sim_trace_calls = t;
	if (!t)
		return;
	t->cpu_pid = cpu_pid;
	t->run_end = end_ps;
	t->run_dropped = t->dropped;
}

/**
 * sim_trace_run_dropped() - events dropped by the cap since the traced run
 * began.
 * @t: trace, or NULL
 *
 * Return: the number of events.
 */
uint64_t sim_trace_run_dropped(const struct sim_trace *t)
{
	return t ? t->dropped - t->run_dropped : 0;
}

/**
 * sim_trace_max_events() - the cap on events.
 * @t: trace, or NULL
 *
 * Return: the cap, 0 for NULL.
 */
uint64_t sim_trace_max_events(const struct sim_trace *t)
{
	return t ? t->max_events : 0;
}

/**
 * sim_trace_run_end() - the traced run ended at @now_ps: end the calls
 * still open there, and stop tracing calls.
 * @t: trace, or NULL
 * @now_ps: the run's end
 */
void sim_trace_run_end(struct sim_trace *t, uint64_t now_ps)
{
	unsigned int i;

	if (sim_trace_calls == t)
		sim_trace_calls = NULL;
	if (!t)
		return;
	for (i = 0; i < t->nr_stacks; i++)
		while (t->stacks[i].depth)
			sim_trace_call_exit(t, i, now_ps);
	t->run_end = UINT64_MAX;
	t->cpu_pid = -1;
}

static struct trace_stack *stack_of(struct sim_trace *t, unsigned int tid)
{
	struct trace_stack *s;
	unsigned int n;

	if (tid >= t->nr_stacks) {
		n = tid + 1 > 2 * t->nr_stacks ? tid + 1 : 2 * t->nr_stacks;
		s = realloc(t->stacks, n * sizeof(*s));
		if (!s)
			return NULL;
		memset(s + t->nr_stacks, 0, (n - t->nr_stacks) * sizeof(*s));
		t->stacks = s;
		t->nr_stacks = n;
	}
	return &t->stacks[tid];
}

/*
 * The name to show for @name: "rs->css_rstat_flush", as CO_CALL_INDIRECT
 * spells an ops call, shows as its member, "css_rstat_flush".
 */
static const char *call_name(const char *name)
{
	const char *p, *last = name;

	for (p = name; *p; p++)
		if (*p == '>' || *p == '.')
			last = p + 1;
	return last;
}

/*
 * flush_calls() - write the B of every call open on @tid that is not yet
 * written, outermost first: something is about to be written inside them.
 */
static void flush_calls(struct sim_trace *t, unsigned int tid)
{
	struct trace_stack *s;
	struct trace_frame *f;
	unsigned int i, n;

	if (t->cpu_pid < 0 || tid >= t->nr_stacks)
		return;
	s = &t->stacks[tid];
	n = s->depth < TRACE_MAX_DEPTH ? s->depth : TRACE_MAX_DEPTH;
	for (i = 0; i < n; i++) {
		f = &s->frames[i];
		if (f->emitted || !f->in_window)
			continue;
		/* a B needs room for itself and its E; none: given up */
		if (!room(t, 2)) {
			f->in_window = false;
			continue;
		}
		f->emitted = true;
		t->reserved++;
		event_start(t);
		put_head(t, call_name(f->name), f->cat, 'B', t->cpu_pid,
			 (int)tid, f->start);
		fputc('}', t->out);
	}
}

/**
 * sim_trace_leaf() - on CPU track @tid of the traced run, @name ran from
 * @start_ps to @end_ps inside the calls open there and held nothing: a B
 * and an E, written now, with a link of flow chain @flow on the B.
 * @t: trace, or NULL
 * @tid: the CPU
 * @name: what ran, e.g. "rmw memcg(top).memory.usage"
 * @cat: category, e.g. "miss"
 * @start_ps: start, simulated picoseconds
 * @end_ps: end; the CPU writes nothing on its track before then
 * @flow: NULL, or its link in a flow chain (see struct sim_trace_flow)
 *
 * Slices on CPU tracks are B/E pairs, never X: Perfetto sorts an X before
 * a B of the same timestamp, which would put a call's first access
 * outside it; B/E events it keeps in file order, which is time order on a
 * track. So that an E never precedes its B, a slice cut to nothing by the
 * window, or that took no time, is left out.
 *
 * Return: true when it was written.
 */
bool sim_trace_leaf(struct sim_trace *t, unsigned int tid, const char *name,
		    const char *cat, uint64_t start_ps, uint64_t end_ps,
		    const struct sim_trace_flow *flow)
{
	if (!t || t->cpu_pid < 0 || end_ps <= start_ps ||
	    !clip(t, &start_ps, &end_ps) || end_ps == start_ps)
		return false;
	flush_calls(t, tid);
	if (!room(t, 2))
		return false;
	event_start(t);
	put_head(t, name, cat, 'B', t->cpu_pid, (int)tid, start_ps);
	put_flow(t, flow);
	fputc('}', t->out);
	event_start(t);
	fprintf(t->out,
		"{\"ph\":\"E\",\"pid\":%d,\"tid\":%u,\"ts\":", t->cpu_pid, tid);
	put_us(t->out, end_ps);
	fputc('}', t->out);
	return true;
}

/**
 * sim_trace_call_enter() - CPU track @tid enters @name at @now_ps.
 * @t: trace, or NULL
 * @tid: the CPU
 * @name: the function or operation; kept until its exit
 * @cat: category, e.g. "kernel"; kept until its exit
 * @now_ps: the CPU's clock
 *
 * Nothing is written yet. A call that took no time and held nothing is
 * never written; one that holds nothing is a B and an E at its exit; one
 * that holds slices is a B, written before the first of them, and an E
 * at its exit.
 */
void sim_trace_call_enter(struct sim_trace *t, unsigned int tid,
			  const char *name, const char *cat, uint64_t now_ps)
{
	struct trace_stack *s;
	struct trace_frame *f;

	if (!t)
		return;
	s = stack_of(t, tid);
	if (!s)
		return;
	if (s->depth++ >= TRACE_MAX_DEPTH)
		return;
	f = &s->frames[s->depth - 1];
	f->name = name;
	f->cat = cat;
	f->start = now_ps;
	f->in_window = sim_trace_in_window(t, now_ps);
	f->emitted = false;
}

/**
 * sim_trace_call_exit() - CPU track @tid leaves its innermost call at
 * @now_ps: the "E" of its "B", cut to the window, or the call as a leaf.
 * @t: trace, or NULL
 * @tid: the CPU
 * @now_ps: the CPU's clock
 */
void sim_trace_call_exit(struct sim_trace *t, unsigned int tid, uint64_t now_ps)
{
	struct trace_stack *s;
	struct trace_frame *f;
	uint64_t hi;

	if (!t || tid >= t->nr_stacks || !t->stacks[tid].depth)
		return;
	s = &t->stacks[tid];
	if (s->depth-- > TRACE_MAX_DEPTH)
		return;
	f = &s->frames[s->depth];
	hi = window_end(t);
	if (now_ps > hi)
		now_ps = hi;
	if (now_ps < f->start)
		now_ps = f->start;
	if (!f->emitted) {
		/* nothing inside was written: a leaf, if it took time */
		if (f->in_window)
			sim_trace_leaf(t, tid, call_name(f->name), f->cat,
				       f->start, now_ps, NULL);
		return;
	}
	t->reserved--;
	event_start(t);
	fprintf(t->out,
		"{\"ph\":\"E\",\"pid\":%d,\"tid\":%u,\"ts\":", t->cpu_pid, tid);
	put_us(t->out, now_ps);
	fputc('}', t->out);
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
	if (sim_trace_calls == t)
		sim_trace_calls = NULL;
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
	free(t->stacks);
	free(t->path);
	free(t);
	return ret;
}
