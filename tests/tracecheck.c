// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/tracecheck.c - check that a `memcgsim run --trace` file is one that
 * Perfetto (ui.perfetto.dev) and chrome://tracing show whole.
 *
 *	tracecheck [-v] [-p NAME] FILE...
 *	tracecheck		(the self-test, as `make check` runs it)
 *
 * Neither Debian nor npm packages Perfetto's trace processor, so the rules
 * its JSON importer depends on are checked here directly:
 *
 *  1. The file is valid JSON (RFC 8259: strings, escapes, UTF-8, numbers,
 *     nothing after the value): an object whose "traceEvents" is an array
 *     of objects.
 *  2. Every event has "ph" (one of M B E X b e s f C i) and an integer
 *     "pid"; all but M have "ts"; B E X s f have "tid"; X has "dur"; b e
 *     s f have "id"; C has an "args" object of numbers. Times are
 *     microseconds with at most 6 decimals, so exact in picoseconds.
 *  3. Slices nest properly on each thread track (pid, tid), as viewers
 *     see them. They sort the events by ts; events of one ts stay in file
 *     order (chrome://tracing, older Perfetto), or (Perfetto's
 *     TraceSorter now) go E first, then X longest first, then the rest in
 *     file order. Perfetto drops an X that ends after the slice it begins
 *     in ("slice_drop_overlapping_complete_event"). So, in both orders, an
 *     X or B that begins inside an open slice ends no later than it,
 *     every E closes the innermost open B, and no B is left open. On a
 *     track, B and E events appear in the file in time order.
 *  4. Async slices: every id of a (pid, cat) has one "b" and then one "e",
 *     not earlier, with the same name.
 *  5. Flows. Version 1: every id has one "s" and one "f" ("bp":"e"), each
 *     strictly inside a slice of its thread track, the "f" not before the
 *     "s". Version 2 ("bind_id" on the slice itself: a chain of slices,
 *     as memcgsim writes them): only on X, B and b events; in time order
 *     the first of a chain has "flow_out" and no "flow_in", every later
 *     one "flow_in" (else Perfetto counts flow_duplicate_id or
 *     flow_end_without_start and draws no arrow).
 *  6. Counters: on each (pid, name), ts never goes back in the file.
 *  7. Every track with slices has a thread_name, every process a
 *     process_name.
 *
 * Exit status: 0 when every file passes, 1 when one breaks a rule (the
 * first violations are printed), 2 on usage or I/O errors. -v prints what
 * each file holds; -p NAME prints how many B/E slices are named NAME and
 * how many memory accesses (X slices of category "miss") nest inside one
 * of them, as "NAME: S slices, A accesses inside". Without a file, it
 * judges its own samples, good traces and traces that break each rule.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPORTS 10

/* -p NAME: count the slices named NAME and the accesses inside them. */
static const char *probe;
static unsigned long probe_slices, probe_accesses;

struct event {
	char ph;
	bool has_pid, has_tid, has_ts, has_dur, has_id, bp_e, args_ok;
	bool flow_in, flow_out; /* flow events v2 */
	int64_t pid, tid;
	int64_t ts, dur; /* ps */
	const char *name, *cat, *id; /* into the file's buffer, unescaped */
	const char *bind_id; /* flow events v2, or NULL */
	const struct event *match; /* E: its B, in file order */
	const char *meta_name; /* M: args.name */
	uint32_t seq;
};

struct checker {
	const char *path;
	char *buf;
	size_t len, pos;
	unsigned int line;
	struct event *ev;
	size_t nr, cap;
	unsigned long errors;
	bool json_bad;
	bool quiet; /* the self-test: count, print nothing */
	bool as_perfetto; /* checking in Perfetto's order of equal times */
};

static void violation(struct checker *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void violation(struct checker *c, const char *fmt, ...)
{
	va_list ap;

	if (c->errors++ >= MAX_REPORTS || c->quiet)
		return;
	fprintf(stderr, "%s: %s", c->path,
		c->as_perfetto ? "(in Perfetto's order) " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- JSON ---- */

static void json_error(struct checker *c, const char *what)
{
	if (!c->json_bad)
		violation(c, "line %u (byte %zu): invalid JSON: %s", c->line,
			  c->pos, what);
	c->json_bad = true;
}

static void skip_ws(struct checker *c)
{
	while (c->pos < c->len) {
		char ch = c->buf[c->pos];

		if (ch == '\n')
			c->line++;
		else if (ch != ' ' && ch != '\t' && ch != '\r')
			return;
		c->pos++;
	}
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Length of a valid UTF-8 sequence at @p (at most @n bytes), or 0. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

/*
 * A string at c->pos: validated, and unescaped in place (escapes only
 * shrink) when @out is not NULL; *@out then points to it, NUL-ended.
 */
static bool parse_string(struct checker *c, const char **out)
{
	size_t w, n;
	char *start;

	if (c->pos >= c->len || c->buf[c->pos] != '"') {
		json_error(c, "expected a string");
		return false;
	}
	c->pos++;
	start = c->buf + c->pos;
	w = c->pos;
	while (c->pos < c->len) {
		unsigned char ch = (unsigned char)c->buf[c->pos];

		if (ch == '"') {
			c->buf[w] = '\0';
			c->pos++;
			if (out)
				*out = start;
			return true;
		}
		if (ch < 0x20) {
			json_error(c, "control character in a string");
			return false;
		}
		if (ch == '\\') {
			char e = c->pos + 1 < c->len ? c->buf[c->pos + 1] : 0;
			int i, h;
			uint32_t cp = 0;

			switch (e) {
			case '"':
			case '\\':
			case '/':
				c->buf[w++] = e;
				break;
			case 'b':
			case 'f':
			case 'n':
			case 'r':
			case 't':
				c->buf[w++] = ' '; /* the name is all we read */
				break;
			case 'u':
				if (c->pos + 6 > c->len) {
					json_error(c, "short \\u escape");
					return false;
				}
				for (i = 0; i < 4; i++) {
					h = hexval(c->buf[c->pos + 2 + i]);
					if (h < 0) {
						json_error(c, "bad \\u escape");
						return false;
					}
					cp = cp << 4 | (uint32_t)h;
				}
				c->buf[w++] = cp < 0x80 ? (char)cp : '?';
				c->pos += 4;
				break;
			default:
				json_error(c, "bad escape");
				return false;
			}
			c->pos += 2;
			continue;
		}
		n = utf8_len((const unsigned char *)c->buf + c->pos,
			     c->len - c->pos);
		if (!n) {
			json_error(c, "invalid UTF-8 in a string");
			return false;
		}
		memmove(c->buf + w, c->buf + c->pos, n);
		w += n;
		c->pos += n;
	}
	json_error(c, "unterminated string");
	return false;
}

/* A number at c->pos (RFC 8259 grammar); its text in [*s, *e). */
static bool parse_number(struct checker *c, size_t *s, size_t *e)
{
	size_t p = c->pos;

	*s = p;
	if (p < c->len && c->buf[p] == '-')
		p++;
	if (p < c->len && c->buf[p] == '0') {
		p++;
	} else if (p < c->len && c->buf[p] >= '1' && c->buf[p] <= '9') {
		while (p < c->len && c->buf[p] >= '0' && c->buf[p] <= '9')
			p++;
	} else {
		json_error(c, "expected a value");
		return false;
	}
	if (p < c->len && c->buf[p] == '.') {
		p++;
		if (p >= c->len || c->buf[p] < '0' || c->buf[p] > '9') {
			json_error(c, "digits must follow '.'");
			return false;
		}
		while (p < c->len && c->buf[p] >= '0' && c->buf[p] <= '9')
			p++;
	}
	if (p < c->len && (c->buf[p] == 'e' || c->buf[p] == 'E')) {
		p++;
		if (p < c->len && (c->buf[p] == '+' || c->buf[p] == '-'))
			p++;
		if (p >= c->len || c->buf[p] < '0' || c->buf[p] > '9') {
			json_error(c, "digits must follow the exponent");
			return false;
		}
		while (p < c->len && c->buf[p] >= '0' && c->buf[p] <= '9')
			p++;
	}
	*e = p;
	c->pos = p;
	return true;
}

enum kind { K_NONE, K_STRING, K_NUMBER, K_OBJECT, K_ARRAY, K_LITERAL };

static bool parse_value(struct checker *c, unsigned int depth, enum kind *k);

static bool literal(struct checker *c, const char *word)
{
	size_t n = strlen(word);

	if (c->len - c->pos < n || memcmp(c->buf + c->pos, word, n)) {
		json_error(c, "expected a value");
		return false;
	}
	c->pos += n;
	return true;
}

/*
 * Objects and arrays, generically: @each is called with each member's key
 * (objects) before the member is parsed by the callback itself, or NULL
 * to parse it generically.
 */
typedef bool (*member_fn)(struct checker *c, const char *key, void *arg);

static bool parse_object(struct checker *c, unsigned int depth, member_fn fn,
			 void *arg)
{
	const char *key;
	enum kind k;

	c->pos++; /* '{' */
	skip_ws(c);
	if (c->pos < c->len && c->buf[c->pos] == '}') {
		c->pos++;
		return true;
	}
	for (;;) {
		skip_ws(c);
		if (!parse_string(c, &key))
			return false;
		skip_ws(c);
		if (c->pos >= c->len || c->buf[c->pos] != ':') {
			json_error(c, "expected ':'");
			return false;
		}
		c->pos++;
		skip_ws(c);
		if (fn) {
			if (!fn(c, key, arg))
				return false;
		} else if (!parse_value(c, depth + 1, &k)) {
			return false;
		}
		skip_ws(c);
		if (c->pos < c->len && c->buf[c->pos] == ',') {
			c->pos++;
			continue;
		}
		if (c->pos < c->len && c->buf[c->pos] == '}') {
			c->pos++;
			return true;
		}
		json_error(c, "expected ',' or '}'");
		return false;
	}
}

static bool parse_array(struct checker *c, unsigned int depth,
			bool (*item)(struct checker *c, void *arg), void *arg)
{
	enum kind k;

	c->pos++; /* '[' */
	skip_ws(c);
	if (c->pos < c->len && c->buf[c->pos] == ']') {
		c->pos++;
		return true;
	}
	for (;;) {
		skip_ws(c);
		if (item) {
			if (!item(c, arg))
				return false;
		} else if (!parse_value(c, depth + 1, &k)) {
			return false;
		}
		skip_ws(c);
		if (c->pos < c->len && c->buf[c->pos] == ',') {
			c->pos++;
			continue;
		}
		if (c->pos < c->len && c->buf[c->pos] == ']') {
			c->pos++;
			return true;
		}
		json_error(c, "expected ',' or ']'");
		return false;
	}
}

static bool parse_value(struct checker *c, unsigned int depth, enum kind *k)
{
	size_t s, e;

	if (depth > 64) {
		json_error(c, "nested too deep");
		return false;
	}
	skip_ws(c);
	if (c->pos >= c->len) {
		json_error(c, "unexpected end");
		return false;
	}
	switch (c->buf[c->pos]) {
	case '{':
		*k = K_OBJECT;
		return parse_object(c, depth, NULL, NULL);
	case '[':
		*k = K_ARRAY;
		return parse_array(c, depth, NULL, NULL);
	case '"':
		*k = K_STRING;
		return parse_string(c, NULL);
	case 't':
		*k = K_LITERAL;
		return literal(c, "true");
	case 'f':
		*k = K_LITERAL;
		return literal(c, "false");
	case 'n':
		*k = K_LITERAL;
		return literal(c, "null");
	default:
		*k = K_NUMBER;
		return parse_number(c, &s, &e);
	}
}

/* ---- events ---- */

/* An integer value. */
static bool get_int(struct checker *c, int64_t *out)
{
	size_t s, e, i;
	int64_t v = 0;
	bool neg;

	if (!parse_number(c, &s, &e))
		return false;
	neg = c->buf[s] == '-';
	for (i = s + neg; i < e; i++) {
		if (c->buf[i] < '0' || c->buf[i] > '9' || v > INT64_MAX / 10) {
			violation(c, "line %u: expected an integer", c->line);
			return true;
		}
		v = v * 10 + (c->buf[i] - '0');
	}
	*out = neg ? -v : v;
	return true;
}

/* A time in microseconds with at most 6 decimals, in ps. */
static bool get_us(struct checker *c, const char *key, int64_t *out)
{
	size_t s, e, i;
	int64_t v = 0, frac = 0;
	unsigned int nf = 0;
	bool dot = false;

	skip_ws(c);
	if (!parse_number(c, &s, &e))
		return false;
	for (i = s; i < e; i++) {
		char ch = c->buf[i];

		if (ch == '.') {
			dot = true;
		} else if (ch >= '0' && ch <= '9' && !dot) {
			if (v > INT64_MAX / 10 / 1000000)
				goto bad;
			v = v * 10 + (ch - '0');
		} else if (ch >= '0' && ch <= '9' && nf < 6) {
			frac = frac * 10 + (ch - '0');
			nf++;
		} else {
			goto bad;
		}
	}
	while (nf++ < 6)
		frac *= 10;
	*out = v * 1000000 + frac;
	return true;
bad:
	violation(c,
		  "line %u: \"%s\" is not microseconds with at most 6 decimals",
		  c->line, key);
	*out = 0;
	return true;
}

struct args_ctx {
	struct event *ev;
	bool numbers; /* every member a number */
};

static bool args_member(struct checker *c, const char *key, void *arg)
{
	struct args_ctx *a = arg;
	enum kind k;

	if (a->ev->ph == 'M' && !strcmp(key, "name")) {
		skip_ws(c);
		if (c->pos < c->len && c->buf[c->pos] == '"')
			return parse_string(c, &a->ev->meta_name);
	}
	if (!parse_value(c, 3, &k))
		return false;
	if (k != K_NUMBER)
		a->numbers = false;
	return true;
}

static bool event_member(struct checker *c, const char *key, void *arg)
{
	struct event *ev = arg;
	const char *s = NULL;
	enum kind k;

	skip_ws(c);
	if (!strcmp(key, "ph") || !strcmp(key, "name") || !strcmp(key, "cat") ||
	    !strcmp(key, "id") || !strcmp(key, "bp")) {
		if (c->pos >= c->len || c->buf[c->pos] != '"') {
			violation(c, "line %u: \"%s\" is not a string", c->line,
				  key);
			return parse_value(c, 2, &k);
		}
		if (!parse_string(c, &s))
			return false;
		if (!strcmp(key, "ph"))
			ev->ph = strlen(s) == 1 ? s[0] : '?';
		else if (!strcmp(key, "name"))
			ev->name = s;
		else if (!strcmp(key, "cat"))
			ev->cat = s;
		else if (!strcmp(key, "id"))
			ev->id = s, ev->has_id = true;
		else
			ev->bp_e = !strcmp(s, "e");
		return true;
	}
	if (!strcmp(key, "pid"))
		return ev->has_pid = true, get_int(c, &ev->pid);
	if (!strcmp(key, "tid"))
		return ev->has_tid = true, get_int(c, &ev->tid);
	if (!strcmp(key, "ts"))
		return ev->has_ts = true, get_us(c, key, &ev->ts);
	if (!strcmp(key, "bind_id")) {
		if (c->pos < c->len && c->buf[c->pos] == '"')
			return parse_string(c, &ev->bind_id);
		violation(c, "line %u: \"bind_id\" is not a string", c->line);
		return parse_value(c, 2, &k);
	}
	if (!strcmp(key, "flow_in") || !strcmp(key, "flow_out")) {
		bool v = c->pos < c->len && c->buf[c->pos] == 't';

		if (!parse_value(c, 2, &k))
			return false;
		if (k != K_LITERAL)
			violation(c, "line %u: \"%s\" is not true or false",
				  c->line, key);
		if (key[5] == 'i')
			ev->flow_in = v;
		else
			ev->flow_out = v;
		return true;
	}
	if (!strcmp(key, "dur"))
		return ev->has_dur = true, get_us(c, key, &ev->dur);
	if (!strcmp(key, "args") && c->pos < c->len && c->buf[c->pos] == '{') {
		struct args_ctx a = { .ev = ev, .numbers = true };

		if (!parse_object(c, 2, args_member, &a))
			return false;
		ev->args_ok = a.numbers;
		return true;
	}
	return parse_value(c, 2, &k);
}

static bool event_item(struct checker *c, void *arg)
{
	struct event ev = { .ph = 0 };
	unsigned int line = c->line;

	(void)arg;
	if (c->pos >= c->len || c->buf[c->pos] != '{') {
		json_error(c, "an event is not an object");
		return false;
	}
	if (!parse_object(c, 1, event_member, &ev))
		return false;
	if (c->nr == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 4096;
		c->ev = realloc(c->ev, c->cap * sizeof(*c->ev));
		if (!c->ev) {
			perror("tracecheck");
			exit(2);
		}
	}
	ev.seq = (uint32_t)c->nr;
	if (!ev.ph || !strchr("MBEXbesfCi", ev.ph))
		violation(
			c,
			"line %u: \"ph\" missing or not one of M B E X b e s f C i",
			line);
	else if (!ev.has_pid)
		violation(c, "line %u: no \"pid\"", line);
	else if (ev.ph != 'M' && !ev.has_ts)
		violation(c, "line %u: no \"ts\"", line);
	else if (strchr("BEXsf", ev.ph) && !ev.has_tid)
		violation(c, "line %u: no \"tid\" on a '%c' event", line,
			  ev.ph);
	else if (ev.ph == 'X' && (!ev.has_dur || ev.dur < 0))
		violation(c, "line %u: an X event without a \"dur\"", line);
	else if (strchr("besf", ev.ph) && !ev.has_id)
		violation(c, "line %u: no \"id\" on a '%c' event", line, ev.ph);
	else if (ev.ph == 'C' && !ev.args_ok)
		violation(c, "line %u: a counter without numeric args", line);
	else if (strchr("BXbCi", ev.ph) && !ev.name)
		violation(c, "line %u: no \"name\" on a '%c' event", line,
			  ev.ph);
	c->ev[c->nr++] = ev;
	return true;
}

static bool top_member(struct checker *c, const char *key, void *arg)
{
	bool *seen = arg;
	enum kind k;

	if (!strcmp(key, "traceEvents")) {
		skip_ws(c);
		if (c->pos >= c->len || c->buf[c->pos] != '[') {
			json_error(c, "traceEvents is not an array");
			return false;
		}
		*seen = true;
		return parse_array(c, 1, event_item, NULL);
	}
	return parse_value(c, 1, &k);
}

static void parse_file(struct checker *c)
{
	bool seen = false;

	skip_ws(c);
	if (c->pos >= c->len || c->buf[c->pos] != '{') {
		json_error(c, "the trace is not a JSON object");
		return;
	}
	if (!parse_object(c, 0, top_member, &seen))
		return;
	skip_ws(c);
	if (c->pos != c->len)
		json_error(c, "text after the JSON value");
	if (!seen)
		violation(c, "no \"traceEvents\" array");
}

/* ---- rules ---- */

/*
 * How a viewer orders a track's events of one timestamp: 0, in file order
 * (chrome://tracing, Perfetto before its JSON sorter learnt durations); 1,
 * as Perfetto's TraceSorter does now: E events first, then X events
 * longest first, then the others, each in file order.
 */
static int sort_mode;

static int64_t sort_key(const struct event *e)
{
	if (!sort_mode)
		return 0;
	if (e->ph == 'E')
		return INT64_MIN;
	if (e->ph == 'X')
		return INT64_MAX - e->dur;
	return INT64_MAX;
}

static int cmp_track(const void *a, const void *b)
{
	const struct event *x = *(const struct event *const *)a;
	const struct event *y = *(const struct event *const *)b;
	int64_t kx, ky;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	kx = sort_key(x);
	ky = sort_key(y);
	if (kx != ky)
		return kx < ky ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

struct interval {
	int64_t pid, tid, start, end;
};

static int cmp_interval(const void *a, const void *b)
{
	const struct interval *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

struct open_slice {
	const struct event *ev;
	int64_t end; /* X: known; B: INT64_MAX until its E */
};

/*
 * Rule 3 on the thread track events @e[0..n) (sorted by ts, then file
 * order), adding each slice to @iv.
 */
static void check_track(struct checker *c, const struct event **e, size_t n,
			struct interval *iv, size_t *nr_iv)
{
	struct open_slice *st = calloc(n + 1, sizeof(*st));
	int64_t last_be = INT64_MIN;
	size_t d = 0, i;
	uint32_t last_seq = 0;
	unsigned int probe_open = 0; /* B slices named probe on the stack */

	if (!st) {
		perror("tracecheck");
		exit(2);
	}
	for (i = 0; i < n; i++) {
		const struct event *ev = e[i];

		/* X slices over by now close */
		while (d && st[d - 1].end <= ev->ts && st[d - 1].ev->ph == 'X')
			d--;
		if (iv && (ev->ph == 'B' || ev->ph == 'E')) {
			/* in file order, B and E go forward in time */
			if (ev->seq < last_seq || ev->ts < last_be)
				violation(
					c,
					"pid %" PRId64 " tid %" PRId64
					": B/E events out of time order at ts %" PRId64
					" ps",
					ev->pid, ev->tid, ev->ts);
			last_seq = ev->seq;
			last_be = ev->ts;
		}
		if (ev->ph == 'X') {
			if (d && st[d - 1].end < ev->ts + ev->dur)
				violation(
					c,
					"pid %" PRId64 " tid %" PRId64
					": '%s' [%" PRId64 ", %" PRId64
					"] ps overlaps '%s' ending at %" PRId64
					" ps",
					ev->pid, ev->tid, ev->name, ev->ts,
					ev->ts + ev->dur, st[d - 1].ev->name,
					st[d - 1].end);
			if (iv) {
				iv[(*nr_iv)++] =
					(struct interval){ ev->pid, ev->tid,
							   ev->ts,
							   ev->ts + ev->dur };
				if (probe_open && ev->cat &&
				    !strcmp(ev->cat, "miss"))
					probe_accesses++;
			}
			st[d].ev = ev;
			st[d++].end = ev->ts + ev->dur;
		} else if (ev->ph == 'B') {
			st[d].ev = ev;
			st[d++].end = INT64_MAX;
			if (iv && probe && ev->name &&
			    !strcmp(ev->name, probe)) {
				probe_open++;
				probe_slices++;
			} else if (iv && probe_open && ev->cat &&
				   !strcmp(ev->cat, "miss")) {
				probe_accesses++;
			}
		} else { /* E */
			if (d && st[d - 1].ev->ph == 'X') {
				violation(
					c,
					"pid %" PRId64 " tid %" PRId64
					": '%s' ends at %" PRId64
					" ps, after the end of its parent at %" PRId64
					" ps",
					ev->pid, ev->tid, st[d - 1].ev->name,
					st[d - 1].end, ev->ts);
				while (d && st[d - 1].ev->ph == 'X')
					d--;
			}
			if (!d) {
				violation(c,
					  "pid %" PRId64 " tid %" PRId64
					  ": an E at %" PRId64
					  " ps closes nothing",
					  ev->pid, ev->tid, ev->ts);
				continue;
			}
			d--;
			/* in Perfetto's order, the E must close the same B */
			if (iv)
				((struct event *)ev)->match = st[d].ev;
			else if (ev->match != st[d].ev)
				violation(c,
					  "pid %" PRId64 " tid %" PRId64
					  ": the E at %" PRId64
					  " ps closes '%s', not its own B",
					  ev->pid, ev->tid, ev->ts,
					  st[d].ev->name ? st[d].ev->name : "");
			if (iv && probe && st[d].ev->name &&
			    !strcmp(st[d].ev->name, probe))
				probe_open--;
			if (d && st[d - 1].end < ev->ts)
				violation(c,
					  "pid %" PRId64 " tid %" PRId64
					  ": '%s' ends at %" PRId64
					  " ps, after '%s' around it",
					  ev->pid, ev->tid, st[d].ev->name,
					  ev->ts, st[d - 1].ev->name);
			if (iv)
				iv[(*nr_iv)++] = (struct interval){
					ev->pid, ev->tid, st[d].ev->ts, ev->ts
				};
		}
	}
	for (i = 0; i < d; i++)
		if (st[i].ev->ph == 'B')
			violation(c,
				  "pid %" PRId64 " tid %" PRId64
				  ": '%s' begun at %" PRId64 " ps never ends",
				  st[i].ev->pid, st[i].ev->tid, st[i].ev->name,
				  st[i].ev->ts);
	free(st);
}

/*
 * Whether @ts is strictly inside a slice of track (pid, tid): among the
 * slices sorted by start, those starting before @ts, the latest end.
 */
static bool inside_slice(const struct interval *iv, const int64_t *maxend,
			 size_t lo, size_t hi, int64_t ts)
{
	size_t a = lo, b = hi;

	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (iv[m].start < ts)
			a = m + 1;
		else
			b = m;
	}
	return a > lo && maxend[a - 1] > ts;
}

/* The slices of (pid, tid): [*lo, *hi) of @iv. */
static void track_range(const struct interval *iv, size_t n, int64_t pid,
			int64_t tid, size_t *lo, size_t *hi)
{
	size_t a = 0, b = n;
	struct interval key = { pid, tid, INT64_MIN, 0 };

	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (cmp_interval(&iv[m], &key) < 0)
			a = m + 1;
		else
			b = m;
	}
	*lo = a;
	while (a < n && iv[a].pid == pid && iv[a].tid == tid)
		a++;
	*hi = a;
}

static int cmp_keyed(const void *a, const void *b)
{
	const struct event *x = *(const struct event *const *)a;
	const struct event *y = *(const struct event *const *)b;
	int r;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	r = strcmp(x->cat ? x->cat : "", y->cat ? y->cat : "");
	if (r)
		return r;
	r = strcmp(x->id ? x->id : (x->name ? x->name : ""),
		   y->id ? y->id : (y->name ? y->name : ""));
	if (r)
		return r;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Rules 4 (@first 'b') and 5 (@first 's'): pairs by (pid, cat, id). */
static void check_pairs(struct checker *c, const struct event **e, size_t n,
			char first, const struct interval *iv,
			const int64_t *maxend, size_t nr_iv)
{
	char second = first == 'b' ? 'e' : 'f';
	size_t i, j, lo, hi;

	qsort(e, n, sizeof(*e), cmp_keyed);
	for (i = 0; i < n; i = j) {
		const struct event *a = e[i], *b;

		for (j = i + 1;
		     j < n && e[j]->pid == a->pid && !strcmp(e[j]->id, a->id) &&
		     !strcmp(e[j]->cat ? e[j]->cat : "", a->cat ? a->cat : "");
		     j++)
			;
		b = e[i + 1 < n ? i + 1 : i];
		if (j - i != 2 || a->ph != first || b->ph != second) {
			violation(c,
				  "pid %" PRId64
				  " id %s: not one '%c' then one '%c'",
				  a->pid, a->id, first, second);
			continue;
		}
		if (b->ts < a->ts)
			violation(c,
				  "pid %" PRId64 " id %s: '%c' at %" PRId64
				  " ps before its '%c' at %" PRId64 " ps",
				  a->pid, a->id, second, b->ts, first, a->ts);
		if (first == 'b' &&
		    strcmp(a->name ? a->name : "", b->name ? b->name : ""))
			violation(c,
				  "pid %" PRId64
				  " id %s: 'b' and 'e' named differently",
				  a->pid, a->id);
		if (first == 's') {
			if (!b->bp_e)
				violation(
					c,
					"flow %s: its 'f' has no \"bp\":\"e\"",
					a->id);
			track_range(iv, nr_iv, a->pid, a->tid, &lo, &hi);
			if (!inside_slice(iv, maxend, lo, hi, a->ts))
				violation(c,
					  "flow %s: its 's' at %" PRId64
					  " ps on pid %" PRId64 " tid %" PRId64
					  " is in no slice",
					  a->id, a->ts, a->pid, a->tid);
			track_range(iv, nr_iv, b->pid, b->tid, &lo, &hi);
			if (!inside_slice(iv, maxend, lo, hi, b->ts))
				violation(c,
					  "flow %s: its 'f' at %" PRId64
					  " ps on pid %" PRId64 " tid %" PRId64
					  " is in no slice",
					  a->id, b->ts, b->pid, b->tid);
		}
	}
}

static int cmp_bind(const void *a, const void *b)
{
	const struct event *x = *(const struct event *const *)a;
	const struct event *y = *(const struct event *const *)b;
	int r = strcmp(x->bind_id, y->bind_id);

	if (r)
		return r;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Rule 5, version 2: the chains of @e[0..n), events with a bind_id. */
static void check_chains(struct checker *c, const struct event **e, size_t n)
{
	size_t i;

	qsort(e, n, sizeof(*e), cmp_bind);
	for (i = 0; i < n; i++) {
		bool first = !i || strcmp(e[i]->bind_id, e[i - 1]->bind_id);

		if (!strchr("XBb", e[i]->ph))
			violation(c, "flow %s: a bind_id on a '%c' event",
				  e[i]->bind_id, e[i]->ph);
		else if (first && (e[i]->flow_in || !e[i]->flow_out))
			violation(c,
				  "flow %s: its first slice, at %" PRId64
				  " ps, %s",
				  e[i]->bind_id, e[i]->ts,
				  e[i]->flow_in ? "has flow_in" :
						  "has no flow_out");
		else if (!first && !e[i]->flow_in)
			violation(c,
				  "flow %s: the slice at %" PRId64
				  " ps has no flow_in",
				  e[i]->bind_id, e[i]->ts);
		else if (!first && !e[i - 1]->flow_out)
			violation(c,
				  "flow %s: the slice at %" PRId64
				  " ps follows the chain's end",
				  e[i]->bind_id, e[i]->ts);
	}
}

static int cmp_counter(const void *a, const void *b)
{
	const struct event *x = *(const struct event *const *)a;
	const struct event *y = *(const struct event *const *)b;
	int r;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	r = strcmp(x->name, y->name);
	if (r)
		return r;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The (pid, tid) named by metadata @what (tid 0 for process names). */
static struct interval *names_of(struct checker *c, const char *what, size_t *n)
{
	struct interval *v = calloc(c->nr + 1, sizeof(*v));
	size_t i;

	if (!v) {
		perror("tracecheck");
		exit(2);
	}
	*n = 0;
	for (i = 0; i < c->nr; i++)
		if (c->ev[i].ph == 'M' && c->ev[i].name &&
		    !strcmp(c->ev[i].name, what) && c->ev[i].meta_name)
			v[(*n)++] = (struct interval){
				.pid = c->ev[i].pid,
				.tid = !strcmp(what, "process_name") ?
					       0 :
					       c->ev[i].tid,
			};
	qsort(v, *n, sizeof(*v), cmp_interval);
	return v;
}

static bool named(const struct interval *v, size_t n, int64_t pid, int64_t tid)
{
	struct interval key = { pid, tid, 0, 0 };

	return bsearch(&key, v, n, sizeof(*v), cmp_interval) != NULL;
}

static void check_rules(struct checker *c, bool verbose)
{
	const struct event **th, **bs, **sf, **cn, **bd;
	size_t nth = 0, nbs = 0, nsf = 0, ncn = 0, nbd = 0, i, j, nr_iv = 0;
	size_t count[128] = { 0 };
	struct interval *iv, *tnames, *pnames;
	size_t ntn, npn;
	int64_t *maxend;

	tnames = names_of(c, "thread_name", &ntn);
	pnames = names_of(c, "process_name", &npn);
	th = calloc(c->nr + 1, sizeof(*th));
	bs = calloc(c->nr + 1, sizeof(*bs));
	sf = calloc(c->nr + 1, sizeof(*sf));
	cn = calloc(c->nr + 1, sizeof(*cn));
	bd = calloc(c->nr + 1, sizeof(*bd));
	iv = calloc(c->nr + 1, sizeof(*iv));
	maxend = calloc(c->nr + 1, sizeof(*maxend));
	if (!th || !bs || !sf || !cn || !bd || !iv || !maxend) {
		perror("tracecheck");
		exit(2);
	}
	for (i = 0; i < c->nr; i++) {
		struct event *ev = &c->ev[i];

		if (!ev->ph || !strchr("MBEXbesfCi", ev->ph) || !ev->has_pid ||
		    (ev->ph != 'M' && !ev->has_ts))
			continue;
		count[(unsigned char)ev->ph]++;
		if (ev->bind_id)
			bd[nbd++] = ev;
		if (strchr("BEX", ev->ph) && ev->has_tid &&
		    (ev->ph != 'X' || ev->has_dur))
			th[nth++] = ev;
		else if (strchr("be", ev->ph) && ev->id)
			bs[nbs++] = ev;
		else if (strchr("sf", ev->ph) && ev->id && ev->has_tid)
			sf[nsf++] = ev;
		else if (ev->ph == 'C' && ev->name)
			cn[ncn++] = ev;
	}
	qsort(th, nth, sizeof(*th), cmp_track);
	for (i = 0; i < nth; i = j) {
		for (j = i; j < nth && th[j]->pid == th[i]->pid &&
			    th[j]->tid == th[i]->tid;
		     j++)
			;
		check_track(c, th + i, j - i, iv, &nr_iv);
		if (!named(tnames, ntn, th[i]->pid, th[i]->tid))
			violation(c,
				  "pid %" PRId64 " tid %" PRId64
				  " has slices but no thread_name",
				  th[i]->pid, th[i]->tid);
		if ((i == 0 || th[i - 1]->pid != th[i]->pid) &&
		    !named(pnames, npn, th[i]->pid, 0))
			violation(c, "pid %" PRId64 " has no process_name",
				  th[i]->pid);
	}
	/* again, as Perfetto orders a timestamp's events now */
	sort_mode = 1;
	qsort(th, nth, sizeof(*th), cmp_track);
	sort_mode = 0;
	for (i = 0; i < nth; i = j) {
		for (j = i; j < nth && th[j]->pid == th[i]->pid &&
			    th[j]->tid == th[i]->tid;
		     j++)
			;
		c->as_perfetto = true;
		check_track(c, th + i, j - i, NULL, NULL);
		c->as_perfetto = false;
	}
	qsort(iv, nr_iv, sizeof(*iv), cmp_interval);
	for (i = 0; i < nr_iv; i++)
		maxend[i] = i && iv[i - 1].pid == iv[i].pid &&
					    iv[i - 1].tid == iv[i].tid &&
					    maxend[i - 1] > iv[i].end ?
				    maxend[i - 1] :
				    iv[i].end;
	check_pairs(c, bs, nbs, 'b', iv, maxend, nr_iv);
	check_pairs(c, sf, nsf, 's', iv, maxend, nr_iv);
	check_chains(c, bd, nbd);
	qsort(cn, ncn, sizeof(*cn), cmp_counter);
	for (i = 1; i < ncn; i++)
		if (cn[i]->pid == cn[i - 1]->pid &&
		    !strcmp(cn[i]->name, cn[i - 1]->name) &&
		    cn[i]->ts < cn[i - 1]->ts)
			violation(c,
				  "counter '%s' of pid %" PRId64
				  " goes back in time at %" PRId64 " ps",
				  cn[i]->name, cn[i]->pid, cn[i]->ts);
	if (verbose)
		printf("%s: %zu events: %zu M, %zu X, %zu B, %zu E, %zu b, %zu e, %zu s, %zu f, %zu C, %zu i; %zu in flow chains\n",
		       c->path, c->nr, count['M'], count['X'], count['B'],
		       count['E'], count['b'], count['e'], count['s'],
		       count['f'], count['C'], count['i'], nbd);
	free(th);
	free(bs);
	free(sf);
	free(cn);
	free(bd);
	free(iv);
	free(maxend);
	free(tnames);
	free(pnames);
}

/* Check @c->buf (c->len bytes); return its number of violations. */
static unsigned long check_buffer(struct checker *c, bool verbose)
{
	parse_file(c);
	if (!c->json_bad)
		check_rules(c, verbose);
	if (c->errors > MAX_REPORTS && !c->quiet)
		fprintf(stderr, "%s: ... %lu violations in all\n", c->path,
			c->errors);
	free(c->ev);
	return c->errors;
}

static int check_file(const char *path, bool verbose)
{
	struct checker c = { .path = path, .line = 1 };
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 20, n;
	unsigned long errors;

	if (!f) {
		fprintf(stderr, "tracecheck: %s: %s\n", path, strerror(errno));
		return 2;
	}
	c.buf = malloc(cap);
	while (c.buf && (n = fread(c.buf + c.len, 1, cap - c.len, f)) > 0) {
		c.len += n;
		if (c.len == cap) {
			cap *= 2;
			c.buf = realloc(c.buf, cap);
		}
	}
	if (!c.buf || ferror(f)) {
		fprintf(stderr, "tracecheck: %s: cannot read\n", path);
		fclose(f);
		free(c.buf);
		return 2;
	}
	fclose(f);
	errors = check_buffer(&c, verbose);
	free(c.buf);
	return errors ? 1 : 0;
}

/* ---- self-test: run without arguments, as `make check` does ---- */

#define HEAD                                                           \
	"{\"traceEvents\":[\n"                                         \
	"{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0," \
	"\"args\":{\"name\":\"v: CPUs\"}},\n"                          \
	"{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"  \
	"\"args\":{\"name\":\"cpu 0\"}},\n"                            \
	"{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,"  \
	"\"args\":{\"name\":\"cpu 1\"}}"
#define TAIL "\n],\"displayTimeUnit\":\"ns\"}\n"
#define B(tid, name, ts)                                                       \
	",\n{\"name\":\"" name "\",\"cat\":\"kernel\",\"ph\":\"B\",\"pid\":1," \
	"\"tid\":" #tid ",\"ts\":" ts "}"
#define E(tid, ts) ",\n{\"ph\":\"E\",\"pid\":1,\"tid\":" #tid ",\"ts\":" ts "}"
#define X(tid, name, ts, dur)                                                \
	",\n{\"name\":\"" name "\",\"cat\":\"miss\",\"ph\":\"X\",\"pid\":1," \
	"\"tid\":" #tid ",\"ts\":" ts ",\"dur\":" dur "}"
#define LEAF(tid, name, ts, end)                                             \
	",\n{\"name\":\"" name "\",\"cat\":\"miss\",\"ph\":\"B\",\"pid\":1," \
	"\"tid\":" #tid ",\"ts\":" ts "}" E(tid, end)
#define XF(tid, name, ts, dur, flags)                                        \
	",\n{\"name\":\"" name "\",\"cat\":\"miss\",\"ph\":\"X\",\"pid\":1," \
	"\"tid\":" #tid ",\"ts\":" ts ",\"dur\":" dur                        \
	",\"bind_id\":\"0x1\"" flags "}"
#define OUT ",\"flow_out\":true"
#define IN ",\"flow_in\":true"
#define FLOW(ph, tid, ts, id)                                           \
	",\n{\"name\":\"hand-off\",\"cat\":\"line\",\"ph\":\"" ph "\"," \
	"\"pid\":1,\"tid\":" #tid ",\"ts\":" ts ",\"id\":\"" id         \
	"\",\"bp\":\"e\"}"
#define ASYNC(ph, ts, id)                                                    \
	",\n{\"name\":\"cpu0 posted\",\"cat\":\"posted\",\"ph\":\"" ph "\"," \
	"\"pid\":1,\"tid\":0,\"ts\":" ts ",\"id\":\"" id "\"}"
#define COUNTER(ts, v)                                              \
	",\n{\"name\":\"line 0\",\"ph\":\"C\",\"pid\":1,\"ts\":" ts \
	",\"args\":{\"queued\":" v "}}"

static const struct {
	const char *what;
	bool good;
	const char *text;
} samples[] = {
	{ "calls around accesses, async, flow, counters", true,
	  HEAD B(0, "f", "1.0") LEAF(0, "read a", "1.0", "1.5") B(0, "g", "1.5")
		  LEAF(0, "rmw b", "1.6", "1.8") E(0, "1.8") E(0, "2.0") X(
			  1, "rmw b", "1.7", "0.4") FLOW("s", 0, "1.75", "0x1")
			  FLOW("f", 1, "1.8", "0x1") ASYNC("b", "1.1", "0x2")
				  ASYNC("e", "3.0", "0x2") COUNTER("1.0", "1")
					  COUNTER("2.0", "0") TAIL },
	{ "an instant of a process", true,
	  HEAD ",\n{\"name\":\"warm-up ends\",\"ph\":\"i\",\"pid\":1,"
	       "\"tid\":0,\"ts\":1.0,\"s\":\"p\"}" TAIL },
	{ "an unknown phase", false,
	  HEAD ",\n{\"name\":\"x\",\"ph\":\"Q\",\"pid\":1,\"ts\":1.0}" TAIL },
	{ "a flow chain of three accesses", true,
	  HEAD XF(0, "rmw a", "1.0", "0.5", OUT)
		  XF(1, "rmw a", "1.2", "0.5", IN OUT)
			  XF(0, "rmw a", "1.6", "0.5", IN OUT) TAIL },
	{ "a flow chain whose first slice has flow_in", false,
	  HEAD XF(0, "rmw a", "1.0", "0.5", IN OUT)
		  XF(1, "rmw a", "1.2", "0.5", IN OUT) TAIL },
	{ "a flow chain begun twice", false,
	  HEAD XF(0, "rmw a", "1.0", "0.5", OUT)
		  XF(1, "rmw a", "1.2", "0.5", OUT) TAIL },
	{ "a B and an X inside it at one ts (Perfetto sorts the X first)",
	  false,
	  HEAD B(0, "f", "1.0") X(0, "read a", "1.0", "0.5") E(0, "2.0") TAIL },
	{ "a B and a B/E inside it at one ts", true,
	  HEAD B(0, "f", "1.000001") LEAF(0, "read a", "1.000001", "1.000002")
		  E(0, "1.000002") TAIL },
	{ "a B/E of length 0 (Perfetto sorts the E first)", false,
	  HEAD B(0, "f", "1.0") LEAF(0, "read a", "1.5", "1.5") E(0, "2.0")
		  TAIL },
	{ "overlapping X", false,
	  HEAD X(0, "read a", "1.0", "0.5") X(0, "read b", "1.2", "0.5") TAIL },
	{ "an X past the E of its B", false,
	  HEAD B(0, "f", "1.0") X(0, "read a", "1.5", "1.0") E(0, "2.0") TAIL },
	{ "an E closing nothing", false, HEAD E(0, "1.0") TAIL },
	{ "a B never ended", false, HEAD B(0, "f", "1.0") TAIL },
	{ "B and E out of time order", false,
	  HEAD B(0, "f", "2.0") E(0, "3.0") B(0, "g", "1.0") E(0, "1.5") TAIL },
	{ "a trailing comma", false, HEAD ",\n]}" },
	{ "invalid UTF-8", false, HEAD X(0, "read \xc3", "1.0", "0.5") TAIL },
	{ "a flow from no slice", false,
	  HEAD X(1, "rmw b", "1.7", "0.4") FLOW("s", 0, "1.75", "0x1")
		  FLOW("f", 1, "1.8", "0x1") TAIL },
	{ "a flow going back in time", false,
	  HEAD X(0, "rmw b", "1.0", "0.4") X(1, "rmw b", "0.5", "0.4")
		  FLOW("s", 0, "1.2", "0x1") FLOW("f", 1, "0.6", "0x1") TAIL },
	{ "an async slice without its end", false,
	  HEAD ASYNC("b", "1.1", "0x2") TAIL },
	{ "a counter going back in time", false,
	  HEAD COUNTER("2.0", "1") COUNTER("1.0", "0") TAIL },
	{ "a time finer than a picosecond", false,
	  HEAD X(0, "read a", "1.0000001", "0.5") TAIL },
	{ "a track without a thread_name", false,
	  HEAD X(2, "read a", "1.0", "0.5") TAIL },
};

/* Every sample judged as stated: "N passed, N failed" on the last line. */
static int self_test(void)
{
	unsigned int i, failed = 0, n = sizeof(samples) / sizeof(samples[0]);

	for (i = 0; i < n; i++) {
		struct checker c = { .path = samples[i].what,
				     .line = 1,
				     .quiet = true };
		unsigned long errors;

		c.len = strlen(samples[i].text);
		c.buf = malloc(c.len + 1);
		if (!c.buf) {
			perror("tracecheck");
			return 2;
		}
		memcpy(c.buf, samples[i].text, c.len + 1);
		errors = check_buffer(&c, false);
		free(c.buf);
		if (!errors != samples[i].good) {
			printf("FAIL: %s: %s\n", samples[i].what,
			       samples[i].good ? "refused" : "accepted");
			failed++;
		} else {
			printf("ok: %s: %s\n", samples[i].what,
			       samples[i].good ? "accepted" : "refused");
		}
	}
	printf("%u passed, %u failed\n", n - failed, failed);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	bool verbose = false;
	int i, ret = 0, r;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "-v")) {
			verbose = true;
		} else if (!strcmp(argv[i], "-p") && i + 1 < argc) {
			probe = argv[++i];
		} else {
			fprintf(stderr,
				"usage: tracecheck [-v] [-p NAME] FILE...\n");
			return 2;
		}
	}
	if (i == argc)
		return self_test();
	for (; i < argc; i++) {
		r = check_file(argv[i], verbose);
		if (r > ret)
			ret = r;
	}
	if (probe)
		printf("%s: %lu slices, %lu accesses inside\n", probe,
		       probe_slices, probe_accesses);
	return ret;
}
