// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/pahole.c - parse the text `pahole -C <struct>` prints into a list
 * of top-level members with their offsets and sizes.
 *
 * Not a model of kernel code; see sim/pahole.h for the grammar.
 *
 * Theory of operation: one pass over the lines, with a stack of the
 * structs and unions that are open (level 1 is the struct itself, 2 and up
 * are nested ones). Each line is classified after its leading comments are
 * dropped:
 *
 *	depth 0:   blank | comment | "struct NAME {"	(anything else: error)
 *	depth 1+:  blank | comment | "... {" | "}..." | member line
 *
 * Members are appended to out->fields as they come, at any depth. A level
 * remembers how many fields there were when it opened; when it closes with
 * a name, the fields it added are dropped again and it is appended as one
 * member. When it closes without one, its fields stay, as C makes them
 * members of the enclosing struct. A field that does not fit in the array
 * is an error at once at level 1; in a nested level it is remembered, and
 * is an error only if it survives to level 1 (that is, if every level
 * between is anonymous).
 *
 * Whole-struct checks (the size summary is present, every member ends
 * within the size, no name twice) run when the struct closes, because the
 * size comes last. A struct that is not the one wanted is only walked for
 * its nesting, so that one malformed or oversized struct does not hide the
 * one asked for.
 *
 * Guards against hostile input: every loop advances at least one byte,
 * numbers are checked against UINT_MAX, nesting is at most
 * PAHOLE_MAX_DEPTH levels, nothing is copied into a fixed buffer without a
 * length check, and pahole_load() reads at most 1 MiB.
 */
#define _POSIX_C_SOURCE 200809L /* fileno() */

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/file.h"
#include "sim/pahole.h"

#define PAHOLE_FILE_MAX (1024 * 1024)
#define PAHOLE_MAX_DEPTH 32
#define QUOTE_MAX 40 /* characters of found text quoted in an error */

enum line_kind {
	LINE_BLANK,
	LINE_COMMENT, /* a comment alone */
	LINE_OPEN, /* ends with '{' */
	LINE_CLOSE, /* starts with '}' */
	LINE_MEMBER,
};

/*
 * struct level - an open struct or union.
 * @line, @col: where it opened, for "unterminated" errors
 * @start: out->nr_fields when it opened
 * @overflow_line, @overflow_col: the first member in it that did not fit
 *	in out->fields, 0 if none
 */
struct level {
	unsigned int line, col;
	unsigned int start;
	unsigned int overflow_line, overflow_col;
};

/* A member line, taken apart. @name is empty for an anonymous closer. */
struct member {
	char name[PAHOLE_NAME_MAX];
	unsigned int offset, size;
	unsigned int name_col, offset_col;
};

struct parser {
	const char *path;
	const char *want;
	struct pahole_struct *out;
	struct sim_error *err;

	const char *line; /* the current line, not NUL-terminated */
	const char *end; /* its end, before "\n" or "\r\n" */
	unsigned int lineno;

	unsigned int depth; /* 0 outside a struct, 1 in it, 2+ nested */
	bool skip; /* in a struct that is not @want */
	char cur[PAHOLE_NAME_MAX]; /* the struct being read */
	unsigned int size_line; /* line of "size: N", 0 if not seen */
	struct level levels[PAHOLE_MAX_DEPTH + 1];
	unsigned int name_col[PAHOLE_MAX_FIELDS];
	unsigned int offset_col[PAHOLE_MAX_FIELDS];

	char found[SIM_ERROR_MSG_MAX / 2]; /* "a, b, c", for a missing @want */
	unsigned int nr_found;
};

static int error_at(struct parser *ps, unsigned int line, unsigned int col,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int error_at(struct parser *ps, unsigned int line, unsigned int col,
		    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sim_error_vset(ps->err, ps->path, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

/* One-based column of @p in the current line. */
static unsigned int col_of(const struct parser *ps, const char *p)
{
	return (unsigned int)(p - ps->line) + 1;
}

/* Length and ellipsis for quoting [p, end) as "'%.*s%s'". */
static int quote_len(const char *p, const char *end)
{
	return end - p > QUOTE_MAX ? QUOTE_MAX : (int)(end - p);
}

static const char *quote_more(const char *p, const char *end)
{
	return end - p > QUOTE_MAX ? "..." : "";
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* The end of [p, end) without trailing blanks. */
static const char *trim_end(const char *p, const char *end)
{
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	return end;
}

/* The first "*" "/" in [p, end), or NULL. */
static const char *find_comment_end(const char *p, const char *end)
{
	for (; end - p >= 2; p++)
		if (p[0] == '*' && p[1] == '/')
			return p;
	return NULL;
}

static bool starts_comment(const char *p, const char *end)
{
	return end - p >= 2 && p[0] == '/' && p[1] == '*';
}

/*
 * A decimal or 0x-hex number at *@pp, at most UINT_MAX. On success advance
 * *@pp past it.
 */
static bool parse_uint(const char **pp, const char *end, unsigned int *val)
{
	const char *p = *pp;
	unsigned long long v = 0;
	unsigned int base = 10;
	const char *digits;

	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	    isxdigit((unsigned char)p[2])) {
		base = 16;
		p += 2;
	}
	for (digits = p; p < end; p++) {
		unsigned int d;

		if (isdigit((unsigned char)*p))
			d = (unsigned int)(*p - '0');
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = (unsigned int)(tolower((unsigned char)*p) - 'a' +
					   10);
		else
			break;
		v = v * base + d;
		if (v > UINT_MAX)
			return false;
	}
	if (p == digits)
		return false;
	*val = (unsigned int)v;
	*pp = p;
	return true;
}

/*
 * struct line_parts - a line, classified.
 * @kind: what it is
 * @p, @end: the line without leading comments and surrounding blanks
 * @c, @cend: the text of its first leading comment (@c NULL if none)
 */
struct line_parts {
	enum line_kind kind;
	const char *p, *end;
	const char *c, *cend;
};

/* classify() - what the current line is; leading comments are dropped. */
static int classify(struct parser *ps, struct line_parts *lp)
{
	const char *s = skip_ws(ps->line, ps->end);

	memset(lp, 0, sizeof(*lp));
	while (starts_comment(s, ps->end)) {
		const char *close = find_comment_end(s + 2, ps->end);

		if (!close)
			return error_at(ps, ps->lineno, col_of(ps, s),
					"unterminated comment: expected '*/' "
					"before the end of the line");
		if (!lp->c) {
			lp->c = s + 2;
			lp->cend = close;
		}
		s = skip_ws(close + 2, ps->end);
	}
	lp->p = s;
	lp->end = trim_end(s, ps->end);
	if (lp->p == lp->end)
		lp->kind = lp->c ? LINE_COMMENT : LINE_BLANK;
	else if (*s == '}')
		lp->kind = LINE_CLOSE;
	else if (lp->end[-1] == '{')
		lp->kind = LINE_OPEN;
	else
		lp->kind = LINE_MEMBER;
	return 0;
}

/* Copy the identifier [p, end) into @dst, or fail if too long. */
static int copy_name(struct parser *ps, char *dst, const char *p,
		     const char *end)
{
	size_t n = (size_t)(end - p);

	if (n >= PAHOLE_NAME_MAX)
		return error_at(ps, ps->lineno, col_of(ps, p),
				"name '%.*s...' is too long: at most %d "
				"characters",
				QUOTE_MAX, p, PAHOLE_NAME_MAX - 1);
	memcpy(dst, p, n);
	dst[n] = '\0';
	return 0;
}

/* The '(' or '[' matching the @close at end[-1], or NULL. */
static const char *match_back(const char *p, const char *end, char open,
			      char close)
{
	unsigned int depth = 0;

	while (end > p) {
		end--;
		if (*end == close) {
			depth++;
		} else if (*end == open) {
			depth--;
			if (!depth)
				return end;
		}
	}
	return NULL;
}

/* [p, end) without trailing __attribute__((...)) groups. */
static const char *strip_attributes(const char *p, const char *end)
{
	static const char attr[] = "__attribute__";
	const size_t n = sizeof(attr) - 1;

	for (;;) {
		const char *open, *t;

		end = trim_end(p, end);
		if (end == p || end[-1] != ')')
			return end;
		open = match_back(p, end, '(', ')');
		if (!open)
			return end;
		t = trim_end(p, open);
		if ((size_t)(t - p) < n || memcmp(t - n, attr, n) ||
		    (t - n > p && is_ident(*(t - n - 1))))
			return end;
		end = t - n;
	}
}

/* The first ':' outside brackets in [p, end), or @end. */
static const char *find_bitfield(const char *p, const char *end)
{
	int depth = 0;

	for (; p < end; p++) {
		if (*p == '(' || *p == '[')
			depth++;
		else if (*p == ')' || *p == ']')
			depth--;
		else if (*p == ':' && !depth)
			return p;
	}
	return end;
}

/*
 * In "void (* const fn)(int)", where "fn" starts: after the first '('
 * followed by '*', any further '*' and any qualifiers.
 */
static const char *fn_pointer_name(const char *p, const char *end)
{
	static const char *const quals[] = { "const", "volatile", "restrict" };
	const char *q = NULL;
	size_t i, n = 0;

	for (; p < end; p++) {
		if (*p != '(')
			continue;
		q = skip_ws(p + 1, end);
		if (q < end && *q == '*')
			break;
	}
	if (p == end)
		return NULL;
	for (;;) {
		while (q < end &&
		       (*q == '*' || *q == '(' || *q == ' ' || *q == '\t'))
			q++;
		for (i = 0; i < sizeof(quals) / sizeof(quals[0]); i++) {
			n = strlen(quals[i]);
			if ((size_t)(end - q) > n && !memcmp(q, quals[i], n) &&
			    !is_ident(q[n]))
				break;
		}
		if (i == sizeof(quals) / sizeof(quals[0]))
			return q;
		q += n;
	}
}

/*
 * declarator_name() - the identifier a declaration declares.
 * @p, @end: the declaration, without its ';'
 * @m: gets the name and its column
 * @need_type: a member line: something must come before the name. For a
 *	closer ("} NAME"), an empty declaration is an anonymous aggregate.
 *
 *	long unsigned int x[4]			x
 *	unsigned int flags:3			flags
 *	void (*fn)(int)				fn
 *	struct pc_padding _pad1_ __attribute__((__aligned__(64)))  _pad1_
 */
static int declarator_name(struct parser *ps, const char *p, const char *end,
			   struct member *m, bool need_type)
{
	const char *decl = p, *name;

	end = strip_attributes(p, end);
	end = trim_end(p, find_bitfield(p, end));
	m->name[0] = '\0';
	m->name_col = col_of(ps, p);
	if (end == skip_ws(p, end) && !need_type)
		return 0;
	if (memchr(p, '(', (size_t)(end - p))) {
		/* A pointer to a function or array: the name follows "(*". */
		name = fn_pointer_name(p, end);
		if (!name)
			goto out_no_name;
		p = name;
		while (p < end && is_ident(*p))
			p++;
		end = p;
	} else {
		while (end > p && end[-1] == ']') {
			const char *open = match_back(p, end, '[', ']');

			if (!open)
				goto out_no_name;
			end = trim_end(p, open);
		}
		name = end;
		while (name > p && is_ident(name[-1]))
			name--;
		if (need_type && skip_ws(p, name) == name)
			goto out_no_name;
	}
	if (name == end || isdigit((unsigned char)*name))
		goto out_no_name;
	m->name_col = col_of(ps, name);
	return copy_name(ps, m->name, name, end);

out_no_name:
	return error_at(ps, ps->lineno, col_of(ps, decl),
			"expected %s, found '%.*s%s'",
			need_type ? "a member declaration 'TYPE NAME'" :
				    "a member name or nothing after '}'",
			quote_len(decl, ps->end), decl,
			quote_more(decl, ps->end));
}

/*
 * offset_comment() - parse "/ * OFFSET SIZE * /" or "/ * OFFSET: BIT SIZE * /"
 * at @p, which must end the line.
 */
static int offset_comment(struct parser *ps, const char *p, struct member *m)
{
	const char *end = ps->end, *q;
	unsigned int bit;

	q = p = skip_ws(p, end);
	if (!starts_comment(q, end))
		goto out_bad;
	q = skip_ws(q + 2, end);
	m->offset_col = col_of(ps, q);
	if (!parse_uint(&q, end, &m->offset))
		goto out_bad;
	q = skip_ws(q, end);
	if (q < end && *q == ':') {
		q = skip_ws(q + 1, end);
		if (!parse_uint(&q, end, &bit))
			goto out_bad;
	}
	q = skip_ws(q, end);
	if (!parse_uint(&q, end, &m->size))
		goto out_bad;
	q = skip_ws(q, end);
	if (end - q < 2 || q[0] != '*' || q[1] != '/')
		goto out_bad;
	q = skip_ws(q + 2, end);
	if (q != end)
		return error_at(ps, ps->lineno, col_of(ps, q),
				"unexpected '%.*s%s' after the offset comment",
				quote_len(q, end), q, quote_more(q, end));
	return 0;

out_bad:
	if (p == end)
		return error_at(ps, ps->lineno, col_of(ps, p),
				"missing offset comment: expected "
				"'/* OFFSET SIZE */' after ';', found the end "
				"of the line");
	return error_at(ps, ps->lineno, col_of(ps, p),
			"expected '/* OFFSET SIZE */' after ';', found "
			"'%.*s%s'",
			quote_len(p, end), p, quote_more(p, end));
}

/* Take a member line (or, with @closer, a "} NAME;" line) apart. */
static int parse_member(struct parser *ps, const char *p, const char *end,
			bool closer, struct member *m)
{
	const char *semi = memchr(p, ';', (size_t)(end - p));

	if (!semi)
		return error_at(ps, ps->lineno, col_of(ps, end),
				"expected ';' and '/* OFFSET SIZE */' at the "
				"end of the member line");
	if (declarator_name(ps, p, semi, m, !closer))
		return -1;
	return offset_comment(ps, semi + 1, m);
}

/* Append @m as a member of the level at @depth (see the file comment). */
static int add_field(struct parser *ps, unsigned int depth,
		     const struct member *m)
{
	struct pahole_struct *out = ps->out;
	struct pahole_field *f;
	struct level *lv = &ps->levels[depth];

	if (out->nr_fields == PAHOLE_MAX_FIELDS) {
		if (depth == 1)
			return error_at(ps, ps->lineno, m->name_col,
					"too many members in struct '%s': "
					"at most %d",
					ps->cur, PAHOLE_MAX_FIELDS);
		if (!lv->overflow_line) {
			lv->overflow_line = ps->lineno;
			lv->overflow_col = m->name_col;
		}
		return 0;
	}
	f = &out->fields[out->nr_fields];
	memcpy(f->name, m->name, sizeof(f->name));
	f->offset = m->offset;
	f->size = m->size;
	f->line = ps->lineno;
	ps->name_col[out->nr_fields] = m->name_col;
	ps->offset_col[out->nr_fields] = m->offset_col;
	out->nr_fields++;
	return 0;
}

/* "struct NAME {" or "union NAME {" at depth 0. */
static int open_struct(struct parser *ps, const char *p, const char *end)
{
	const char *s = p, *name;
	size_t used;

	if (end - s > 6 && !memcmp(s, "struct", 6))
		s += 6;
	else if (end - s > 5 && !memcmp(s, "union", 5))
		s += 5;
	else
		goto out_bad;
	if (*s != ' ' && *s != '\t')
		goto out_bad;
	name = s = skip_ws(s, end);
	while (s < end && is_ident(*s))
		s++;
	if (s == name || isdigit((unsigned char)*name) || end[-1] != '{' ||
	    skip_ws(s, end) != end - 1)
		goto out_bad;
	if (copy_name(ps, ps->cur, name, s))
		return -1;

	used = strlen(ps->found);
	if (used + 2 + strlen(ps->cur) + 4 < sizeof(ps->found))
		snprintf(ps->found + used, sizeof(ps->found) - used, "%s%s",
			 ps->nr_found ? ", " : "", ps->cur);
	else if (!strstr(ps->found, "..."))
		snprintf(ps->found + used, sizeof(ps->found) - used, ", ...");
	ps->nr_found++;

	ps->skip = ps->want && strcmp(ps->want, ps->cur);
	if (!ps->skip) {
		memset(ps->out, 0, sizeof(*ps->out));
		memcpy(ps->out->name, ps->cur, sizeof(ps->out->name));
	}
	ps->size_line = 0;
	ps->depth = 1;
	ps->levels[1] = (struct level){
		.line = ps->lineno,
		.col = col_of(ps, p),
	};
	return 0;

out_bad:
	return error_at(ps, ps->lineno, col_of(ps, p),
			"expected 'struct NAME {' as printed by pahole -C, "
			"found '%.*s%s'",
			quote_len(p, end), p, quote_more(p, end));
}

/* "size: N, cachelines: ..." in a summary comment [p, end). */
static int size_comment(struct parser *ps, const char *p, const char *end)
{
	p = skip_ws(p, end);
	if (end - p < 5 || memcmp(p, "size:", 5))
		return 0;
	if (ps->size_line)
		return error_at(ps, ps->lineno, col_of(ps, p),
				"second size summary in struct '%s' (the "
				"first is at line %u)",
				ps->cur, ps->size_line);
	p = skip_ws(p + 5, end);
	if (!parse_uint(&p, end, &ps->out->size) ||
	    (trim_end(p, end) != p && *p != ','))
		return error_at(ps, ps->lineno, col_of(ps, p),
				"expected 'size: N' with N a number below "
				"2^32, found '%.*s%s'",
				quote_len(p, end), p, quote_more(p, end));
	ps->size_line = ps->lineno;
	return 0;
}

/* The struct closed: check it as a whole. */
static int close_struct(struct parser *ps, const char *p)
{
	const struct pahole_struct *out = ps->out;
	unsigned int i, j;

	if (!ps->size_line)
		return error_at(ps, ps->lineno, col_of(ps, p),
				"missing size summary in struct '%s': "
				"expected '/* size: N, ... */' before its '}'",
				ps->cur);
	for (j = 0; j < out->nr_fields; j++) {
		const struct pahole_field *f = &out->fields[j];

		if ((uint64_t)f->offset + f->size > out->size)
			return error_at(ps, f->line, ps->offset_col[j],
					"member '%s' (offset %u, size %u) "
					"ends beyond the struct size %u",
					f->name, f->offset, f->size, out->size);
		for (i = 0; i < j; i++)
			if (!strcmp(out->fields[i].name, f->name))
				return error_at(ps, f->line, ps->name_col[j],
						"duplicate member '%s' (first "
						"at line %u)",
						f->name, out->fields[i].line);
	}
	return 0;
}

/* "} NAME; / * OFF SIZE * /" or "}; / * OFF SIZE * /" below level 1. */
static int close_nested(struct parser *ps, const char *p, const char *end)
{
	struct level *lv = &ps->levels[ps->depth];
	struct level *up = &ps->levels[ps->depth - 1];
	struct member m;

	if (parse_member(ps, p + 1, end, true, &m))
		return -1;
	ps->depth--;
	if (m.name[0]) {
		ps->out->nr_fields = lv->start;
		return add_field(ps, ps->depth, &m);
	}
	if (!lv->overflow_line || up->overflow_line)
		return 0;
	if (ps->depth == 1)
		return error_at(ps, lv->overflow_line, lv->overflow_col,
				"too many members in struct '%s': at most %d",
				ps->cur, PAHOLE_MAX_FIELDS);
	up->overflow_line = lv->overflow_line;
	up->overflow_col = lv->overflow_col;
	return 0;
}

/* One line inside a struct. Return 1 when the wanted struct is complete. */
static int struct_line(struct parser *ps, const struct line_parts *lp)
{
	const char *p = lp->p, *end = lp->end;
	struct member m;

	switch (lp->kind) {
	case LINE_BLANK:
		return 0;
	case LINE_COMMENT:
		if (ps->depth == 1 && !ps->skip)
			return size_comment(ps, lp->c, lp->cend);
		return 0;
	case LINE_OPEN:
		if (ps->depth == PAHOLE_MAX_DEPTH)
			return error_at(ps, ps->lineno, col_of(ps, p),
					"structs nested deeper than %d levels",
					PAHOLE_MAX_DEPTH);
		ps->depth++;
		ps->levels[ps->depth] = (struct level){
			.line = ps->lineno,
			.col = col_of(ps, p),
			.start = ps->out->nr_fields,
		};
		return 0;
	case LINE_CLOSE:
		if (ps->depth > 1 && ps->skip) {
			ps->depth--;
			return 0;
		}
		if (ps->depth > 1)
			return close_nested(ps, p, end);
		ps->depth = 0;
		if (ps->skip)
			return 0;
		return close_struct(ps, p) ? -1 : 1;
	case LINE_MEMBER:
		if (ps->skip)
			return 0;
		if (parse_member(ps, p, end, false, &m))
			return -1;
		return add_field(ps, ps->depth, &m);
	}
	SIM_BUG_ON(1);
	return -1;
}

/* The end of the text: say why no struct was returned. */
static int end_of_text(struct parser *ps)
{
	const struct level *lv = &ps->levels[ps->depth];

	if (ps->depth == 1)
		return error_at(ps, lv->line, lv->col,
				"unterminated struct '%s': expected '};' "
				"before the end of the text",
				ps->cur);
	if (ps->depth > 1)
		return error_at(ps, lv->line, lv->col,
				"unterminated nested struct or union in "
				"struct '%s': expected '}' before the end of "
				"the text",
				ps->cur);
	if (!ps->nr_found)
		return error_at(ps, 1, 1,
				"no struct found: expected 'struct NAME {' as "
				"printed by pahole -C");
	return error_at(ps, 1, 1, "no struct '%s' in the text; found: %s",
			ps->want, ps->found);
}

/* Classify the current line and act on it: -1 error, 0 go on, 1 done. */
static int parse_line(struct parser *ps)
{
	struct line_parts lp;

	if (classify(ps, &lp))
		return -1;
	if (ps->depth)
		return struct_line(ps, &lp);
	if (lp.kind == LINE_BLANK || lp.kind == LINE_COMMENT)
		return 0;
	return open_struct(ps, lp.p, lp.end);
}

/**
 * pahole_parse() - parse one struct printed by pahole -C.
 * @text: the text, NUL-terminated
 * @path: names the text in errors
 * @want: the struct to return, or NULL for the first one
 * @out: caller-allocated; filled on success, zeroed on failure
 * @err: filled on failure
 *
 * Structs before the one returned are only checked for their nesting;
 * text after it is not read.
 *
 * Context: scenario loading, outside simulated time.
 *
 * Return: 0, or -1 with @err set to the one-based line and column of the
 * problem, what was expected and what was found.
 */
int pahole_parse(const char *text, const char *path, const char *want,
		 struct pahole_struct *out, struct sim_error *err)
{
	struct parser ps = {
		.path = path,
		.want = want,
		.out = out,
		.err = err,
	};
	const char *p = text;
	int ret = 0;

	SIM_BUG_ON(!text || !out || !err);
	sim_error_clear(err);
	memset(out, 0, sizeof(*out));
	while (*p && !ret) {
		const char *nl = strchr(p, '\n');
		const char *eol = nl ? nl : p + strlen(p);

		ps.line = p;
		ps.end = eol > p && eol[-1] == '\r' ? eol - 1 : eol;
		ps.lineno++;
		p = nl ? nl + 1 : eol;
		ret = parse_line(&ps);
	}
	if (!ret)
		ret = end_of_text(&ps);
	if (ret < 0) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	return 0;
}

/**
 * pahole_load() - read and parse a file of pahole output.
 * @path: the file; at most 1 MiB of text without NUL bytes
 * @want: as for pahole_parse()
 * @out: as for pahole_parse()
 * @err: filled on failure; a file-level problem has line 0
 *
 * Return: 0, or -1 with @err set.
 */
int pahole_load(const char *path, const char *want, struct pahole_struct *out,
		struct sim_error *err)
{
	const char *nul;
	size_t len;
	char *buf;
	FILE *f;
	int ret;

	sim_error_clear(err);
	memset(out, 0, sizeof(*out));
	f = fopen(path, "rb");
	if (!f) {
		sim_error_set(err, path, 0, 0, "cannot open pahole text: %s",
			      strerror(errno));
		return -1;
	}
	sim_input_note(fileno(f));
	buf = malloc(PAHOLE_FILE_MAX + 2);
	if (!buf) {
		fclose(f);
		sim_error_set(err, path, 0, 0, "cannot read pahole text: %s",
			      strerror(ENOMEM));
		return -1;
	}
	len = fread(buf, 1, PAHOLE_FILE_MAX + 1, f);
	ret = ferror(f) ? (errno ? errno : EIO) : 0;
	fclose(f);
	if (ret) {
		sim_error_set(err, path, 0, 0, "cannot read pahole text: %s",
			      strerror(ret));
		goto out_free;
	}
	if (len > PAHOLE_FILE_MAX) {
		sim_error_set(err, path, 0, 0,
			      "pahole text is larger than %d MiB",
			      PAHOLE_FILE_MAX / (1024 * 1024));
		goto out_free;
	}
	buf[len] = '\0';
	nul = memchr(buf, '\0', len);
	if (nul) {
		unsigned int line = 1;
		const char *q, *bol = buf;

		for (q = buf; q < nul; q++) {
			if (*q == '\n') {
				line++;
				bol = q + 1;
			}
		}
		sim_error_set(err, path, line, (unsigned int)(nul - bol) + 1,
			      "not pahole text: found a NUL byte");
		goto out_free;
	}
	ret = pahole_parse(buf, path, want, out, err);
	free(buf);
	return ret;

out_free:
	free(buf);
	return -1;
}

/**
 * pahole_field() - look a member up by name.
 * @ps: a parsed struct
 * @name: the member's name, as in struct pahole_field
 *
 * Return: the member (borrowed from @ps), or NULL if there is none.
 */
const struct pahole_field *pahole_field(const struct pahole_struct *ps,
					const char *name)
{
	unsigned int i;

	for (i = 0; i < ps->nr_fields; i++)
		if (!strcmp(ps->fields[i].name, name))
			return &ps->fields[i];
	return NULL;
}
