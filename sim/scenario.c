// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/scenario.c - scenario YAML: a tree with source marks, its loader,
 * and overrides by dotted path. The key checks and the typed getters are
 * in sim/scenario_get.c.
 *
 * Theory of operation: libyaml's parser turns the text into a stream of
 * events; load_node() consumes them recursively and builds the tree:
 *
 *	machine:                 MAP ""              (1:1)
 *	  nr_cpus: 72              key "nr_cpus"     (2:3)
 *	workloads:                 SCALAR "machine.nr_cpus" = "72" (2:12)
 *	  - {cpus: 0-3}          SEQ "workloads"     (4:3)
 *	                           MAP "workloads.0" (4:5)
 *	                             SCALAR "workloads.0.cpus" = "0-3"
 *
 * A map keeps its keys as scalar nodes next to its values, so an unknown or
 * duplicate key can be reported at the key itself. Every node owns copies of
 * its file name and dotted path; a tree shares nothing with another tree, so
 * scenario_clone() and scenario_set() are plain deep copies.
 *
 * Dotted paths: a map key may itself contain dots ("memory.min"), so a path
 * segment at a map is the longest existing key that matches the rest of the
 * path up to a dot or its end. Keys that do not exist yet are created one
 * dot-separated segment at a time.
 *
 * Guards against hostile input: at most 16 MiB of text, 64 levels of
 * nesting, 100000 nodes (2000000 in results, scenario_parse_results()) and
 * 1024 bytes of dotted path; no anchors, aliases, merge keys, tags,
 * multiple documents, empty or non-printable keys, NUL bytes in scalars, nor
 * control characters but tab and newline, nor bidirectional-text controls.
 *
 * Layering: sim/ primitive; uses sim/error.h and libyaml only.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "sim/scenario.h"
#include "sim/scenario_internal.h"

#define SCENARIO_MAX_DEPTH 64
#define SCENARIO_MAX_NODES 100000
#define SCENARIO_MAX_RESULT_NODES 2000000 /* scenario_parse_results() */
#define SCENARIO_MAX_MAP_KEYS 8192 /* keys in one map */
#define SCENARIO_SET_FILE "--set"

/* Parser state of one scenario_parse_buffer() call. */
struct loader {
	yaml_parser_t parser;
	const char *file;
	const unsigned char *buf;
	size_t len;
	size_t nr_nodes, max_nodes;
	bool inline_value; /* a --set VALUE: any root, no line numbers */
	struct sim_error *err;
};

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p)
		memcpy(p, s, n);
	return p;
}

static struct scenario_node *node_new(enum scenario_kind kind, const char *file,
				      unsigned int line, unsigned int col,
				      const char *path)
{
	struct scenario_node *node = calloc(1, sizeof(*node));

	if (!node)
		return NULL;
	node->kind = kind;
	node->line = line;
	node->col = col;
	node->file = xstrdup(file);
	if (!node->file)
		goto out_free_node;
	node->path = xstrdup(path);
	if (!node->path)
		goto out_free_file;
	return node;

out_free_file:
	free(node->file);
out_free_node:
	free(node);
	return NULL;
}

/**
 * scenario_free() - release a tree and everything it owns.
 * @node: the root, or NULL
 */
void scenario_free(struct scenario_node *node)
{
	size_t i;

	if (!node)
		return;
	for (i = 0; i < node->len; i++) {
		if (node->keys)
			scenario_free(node->keys[i]);
		scenario_free(node->items[i]);
	}
	free(node->keys);
	free(node->items);
	free(node->scalar);
	free(node->path);
	free(node->file);
	free(node);
}

/* Append @key (NULL for a sequence) and @value; both are owned on success. */
static int node_append(struct scenario_node *node, struct scenario_node *key,
		       struct scenario_node *value)
{
	struct scenario_node **items, **keys;
	size_t cap;

	if (node->len == node->cap) {
		cap = node->cap ? node->cap * 2 : 4;
		items = realloc(node->items, cap * sizeof(*items));
		if (!items)
			return -1;
		node->items = items;
		if (node->kind == SCENARIO_MAP) {
			keys = realloc(node->keys, cap * sizeof(*keys));
			if (!keys)
				return -1;
			node->keys = keys;
		}
		node->cap = cap;
	}
	if (node->kind == SCENARIO_MAP)
		node->keys[node->len] = key;
	node->items[node->len++] = value;
	return 0;
}

/* "a.b" + "c" = "a.b.c"; "" + "c" = "c". Returns NULL if out of memory. */
static char *path_join(const char *parent, const char *seg, size_t seg_len)
{
	size_t plen = strlen(parent);
	char *path = malloc(plen + seg_len + 2);

	if (!path)
		return NULL;
	memcpy(path, parent, plen);
	if (plen)
		path[plen++] = '.';
	memcpy(path + plen, seg, seg_len);
	path[plen + seg_len] = '\0';
	return path;
}

static char *path_index(const char *parent, size_t index)
{
	char seg[24];

	snprintf(seg, sizeof(seg), "%zu", index);
	return path_join(parent, seg, strlen(seg));
}

/*
 * Copy @src with @path as the copy's path, the copy's descendants re-pathed
 * below it. Marks and files are kept.
 */
static struct scenario_node *clone_at(const struct scenario_node *src,
				      const char *path)
{
	struct scenario_node *node, *key, *value;
	char *child_path;
	size_t i;

	node = node_new(src->kind, src->file, src->line, src->col, path);
	if (!node)
		return NULL;
	node->quoted = src->quoted;
	if (src->scalar) {
		node->scalar = xstrdup(src->scalar);
		if (!node->scalar)
			goto out_free_node;
	}
	for (i = 0; i < src->len; i++) {
		key = NULL;
		if (src->keys)
			child_path = path_join(path, src->keys[i]->scalar,
					       strlen(src->keys[i]->scalar));
		else
			child_path = path_index(path, i);
		if (!child_path)
			goto out_free_node;
		if (src->keys)
			key = clone_at(src->keys[i], child_path);
		value = clone_at(src->items[i], child_path);
		free(child_path);
		if ((src->keys && !key) || !value ||
		    node_append(node, key, value))
			goto out_free_pair;
	}
	return node;

out_free_pair:
	scenario_free(key);
	scenario_free(value);
out_free_node:
	scenario_free(node);
	return NULL;
}

/**
 * scenario_clone() - deep copy of a tree or subtree.
 * @node: what to copy
 *
 * Return: a new tree owned by the caller (scenario_free()), with the same
 * paths, files and marks, or NULL when out of memory.
 */
struct scenario_node *scenario_clone(const struct scenario_node *node)
{
	return clone_at(node, node->path);
}

/* ------------------------------------------------------------------ */
/* Error messages.                                                     */

const char *scenario__kind_phrase(const struct scenario_node *node)
{
	switch (node->kind) {
	case SCENARIO_MAP:
		return "a map";
	case SCENARIO_SEQ:
		return "a sequence";
	default:
		return "a scalar";
	}
}

/*
 * Write @s into @buf in single quotes, printable and on one line: control
 * bytes are escaped and long text is cut with "...".
 */
static void quote(char *buf, size_t size, const char *s)
{
	static const size_t max_shown = 48;
	size_t n = 0, shown = 0;

	buf[n++] = '\'';
	for (; *s && n + 8 < size; s++) {
		unsigned char c = *s;

		if (shown++ == max_shown) {
			n += snprintf(buf + n, size - n, "...");
			break;
		}
		if (c == '\n')
			n += snprintf(buf + n, size - n, "\\n");
		else if (c == '\t')
			n += snprintf(buf + n, size - n, "\\t");
		else if (c < 0x20 || c == 0x7f)
			n += snprintf(buf + n, size - n, "\\x%02x", c);
		else
			buf[n++] = c;
	}
	buf[n++] = '\'';
	buf[n] = '\0';
}

/* What a value is, for "found ...": 'text', nothing, a map, a sequence. */
void scenario__describe(char *buf, size_t size,
			const struct scenario_node *node)
{
	if (node->kind != SCENARIO_SCALAR)
		snprintf(buf, size, "%s", scenario__kind_phrase(node));
	else if (!node->scalar[0])
		snprintf(buf, size, "nothing");
	else
		quote(buf, size, node->scalar);
}

/* An error at @node's mark with no "key '...'" prefix. */
void scenario__error_at(struct sim_error *err, const struct scenario_node *node,
			const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (node)
		sim_error_vset(err, node->file, node->line, node->col, fmt, ap);
	else
		sim_error_vset(err, "", 0, 0, fmt, ap);
	va_end(ap);
}

/**
 * scenario_error() - fill @err with an error about @node.
 * @err: where to write the error
 * @node: the offending node; its file, mark and path are used. May be NULL.
 * @fmt: printf format of the message: lower case, no full stop
 *
 * The message becomes "key 'PATH': MESSAGE", or MESSAGE alone when @node is
 * the root or NULL.
 */
void scenario_error(struct sim_error *err, const struct scenario_node *node,
		    const char *fmt, ...)
{
	char msg[SIM_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (node && node->path[0])
		scenario__error_at(err, node, "key '%s': %s", node->path, msg);
	else
		scenario__error_at(err, node, "%s", msg);
}

/* ------------------------------------------------------------------ */
/* Loading.                                                            */

static void __attribute__((format(printf, 3, 4)))
loader_error(struct loader *ld, const yaml_mark_t *mark, const char *fmt, ...)
{
	unsigned int line = mark->line + 1, col = mark->column + 1;
	va_list ap;

	if (ld->inline_value)
		line = col = 0;
	va_start(ap, fmt);
	sim_error_vset(ld->err, ld->file, line, col, fmt, ap);
	va_end(ap);
}

/* Byte offset of the character at zero-based @line, @col, or ld->len. */
static size_t mark_offset(const struct loader *ld, size_t line, size_t col)
{
	size_t i = 0;

	for (; line && i < ld->len; i++)
		if (ld->buf[i] == '\n')
			line--;
	for (; col && i < ld->len; i++)
		if ((ld->buf[i] & 0xc0) != 0x80 &&
		    (i + 1 == ld->len || (ld->buf[i + 1] & 0xc0) != 0x80))
			col--;
	return i;
}

/* libyaml's reader reports a byte offset; turn it into line and column. */
static void reader_error(struct loader *ld)
{
	yaml_parser_t *p = &ld->parser;
	yaml_mark_t mark = { 0 };
	size_t i;

	for (i = 0; i < p->problem_offset && i < ld->len; i++) {
		if (ld->buf[i] == '\n') {
			mark.line++;
			mark.column = 0;
		} else if ((ld->buf[i] & 0xc0) != 0x80) {
			mark.column++;
		}
	}
	if (p->problem_value >= 0)
		loader_error(ld, &mark, "%s (byte 0x%02x)", p->problem,
			     (unsigned int)p->problem_value);
	else
		loader_error(ld, &mark, "%s", p->problem);
}

static void parser_error(struct loader *ld)
{
	yaml_parser_t *p = &ld->parser;
	const yaml_mark_t *pm = &p->problem_mark;
	const char *problem = p->problem ? p->problem : "cannot parse";
	size_t off;

	if (p->error == YAML_MEMORY_ERROR) {
		loader_error(ld, pm, "out of memory");
		return;
	}
	if (p->error == YAML_READER_ERROR) {
		reader_error(ld);
		return;
	}
	off = mark_offset(ld, pm->line, pm->column);
	if (!strcmp(problem, "found character that cannot start any token") &&
	    off < ld->len && ld->buf[off] == '\t') {
		loader_error(ld, pm,
			     "found a tab character where a token was "
			     "expected; indent with spaces");
		return;
	}
	/* The context helps when it started on an earlier line. */
	if (p->context && !ld->inline_value && p->context_mark.line != pm->line)
		loader_error(ld, pm, "%s %s that began on line %zu", problem,
			     p->context, p->context_mark.line + 1);
	else
		loader_error(ld, pm, "%s", problem);
}

static int next_event(struct loader *ld, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&ld->parser, ev)) {
		parser_error(ld);
		return -1;
	}
	return 0;
}

static struct scenario_node *loader_node(struct loader *ld,
					 enum scenario_kind kind,
					 const yaml_mark_t *mark,
					 const char *path, unsigned int depth)
{
	struct scenario_node *node;

	if (depth > SCENARIO_MAX_DEPTH) {
		loader_error(ld, mark, "nesting is deeper than %d levels",
			     SCENARIO_MAX_DEPTH);
		return NULL;
	}
	if (++ld->nr_nodes > ld->max_nodes) {
		loader_error(ld, mark, "more than %zu nodes in one %s",
			     ld->max_nodes,
			     ld->max_nodes > SCENARIO_MAX_NODES ? "file" :
								  "scenario");
		return NULL;
	}
	node = node_new(kind, ld->file, ld->inline_value ? 0 : mark->line + 1,
			ld->inline_value ? 0 : mark->column + 1, path);
	if (!node)
		loader_error(ld, mark, "out of memory");
	return node;
}

static struct scenario_node *load_node(struct loader *ld, yaml_event_t *ev,
				       const char *path, unsigned int depth);

static struct scenario_node *load_scalar(struct loader *ld, yaml_event_t *ev,
					 const char *path, unsigned int depth)
{
	struct scenario_node *node;
	size_t len = ev->data.scalar.length;
	char what[64];

	const char *bad;

	if (memchr(ev->data.scalar.value, '\0', len)) {
		loader_error(ld, &ev->start_mark,
			     "a scalar may not contain a NUL character");
		return NULL;
	}
	/* SIM: refused at load, so no table or data file needs to escape. */
	bad = sim_control_char(what, sizeof(what), ev->data.scalar.value, len,
			       true);
	if (bad) {
		loader_error(ld, &ev->start_mark,
			     "a value may not contain %s: it would reach a "
			     "terminal or a data file",
			     bad);
		return NULL;
	}
	node = loader_node(ld, SCENARIO_SCALAR, &ev->start_mark, path, depth);
	if (!node)
		return NULL;
	node->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
	node->scalar = malloc(len + 1);
	if (!node->scalar) {
		loader_error(ld, &ev->start_mark, "out of memory");
		scenario_free(node);
		return NULL;
	}
	memcpy(node->scalar, ev->data.scalar.value, len);
	node->scalar[len] = '\0';
	return node;
}

static struct scenario_node *load_seq(struct loader *ld, yaml_event_t *start,
				      const char *path, unsigned int depth)
{
	struct scenario_node *node, *item;
	yaml_event_t ev;
	char *item_path;

	node = loader_node(ld, SCENARIO_SEQ, &start->start_mark, path, depth);
	if (!node)
		return NULL;
	for (;;) {
		if (next_event(ld, &ev))
			goto out_free_node;
		if (ev.type == YAML_SEQUENCE_END_EVENT)
			break;
		item_path = path_index(path, node->len);
		if (!item_path) {
			loader_error(ld, &ev.start_mark, "out of memory");
			yaml_event_delete(&ev);
			goto out_free_node;
		}
		item = load_node(ld, &ev, item_path, depth + 1);
		free(item_path);
		if (!item)
			goto out_free_node;
		if (node_append(node, NULL, item)) {
			scenario_free(item);
			loader_error(ld, &start->start_mark, "out of memory");
			goto out_free_node;
		}
	}
	yaml_event_delete(&ev);
	return node;

out_free_node:
	scenario_free(node);
	return NULL;
}

static bool key_is_printable(const char *key)
{
	for (; *key; key++)
		if ((unsigned char)*key < 0x20 || *key == 0x7f)
			return false;
	return true;
}

/* Refuse a key that is empty, unprintable, too long or already in @map. */
static int check_new_key(struct loader *ld, const struct scenario_node *map,
			 const struct scenario_node *key)
{
	const char *k = key->scalar;
	char shown[128];
	size_t i;

	if (!k[0] || !key_is_printable(k)) {
		quote(shown, sizeof(shown), k);
		scenario__error_at(ld->err, key,
				   "expected a key of printable "
				   "characters, found %s",
				   k[0] ? shown : "an empty key");
		return -1;
	}
	if (strlen(map->path) + strlen(k) + 1 > SCENARIO_MAX_PATH) {
		scenario__error_at(ld->err, key,
				   "key path is longer than %d bytes",
				   SCENARIO_MAX_PATH);
		return -1;
	}
	/* The duplicate scan below is quadratic: bound it. */
	if (map->len >= SCENARIO_MAX_MAP_KEYS) {
		if (map->path[0])
			scenario__error_at(ld->err, key,
					   "too many keys in '%s': at most %d",
					   map->path, SCENARIO_MAX_MAP_KEYS);
		else
			scenario__error_at(ld->err, key,
					   "too many keys at the top level: "
					   "at most %d",
					   SCENARIO_MAX_MAP_KEYS);
		return -1;
	}
	for (i = 0; i < map->len; i++) {
		if (strcmp(map->keys[i]->scalar, k))
			continue;
		/* A --set VALUE has no lines: say where instead. */
		if (ld->inline_value && map->path[0])
			scenario__error_at(ld->err, key,
					   "duplicate key '%s' in '%s' of the "
					   "--set value",
					   k, map->path);
		else if (ld->inline_value)
			scenario__error_at(ld->err, key,
					   "duplicate key '%s' in the --set "
					   "value",
					   k);
		else if (map->path[0])
			scenario__error_at(ld->err, key,
					   "duplicate key '%s' in '%s'; "
					   "first defined on line %u",
					   k, map->path, map->keys[i]->line);
		else
			scenario__error_at(ld->err, key,
					   "duplicate key '%s' at the top "
					   "level; first defined on line %u",
					   k, map->keys[i]->line);
		return -1;
	}
	return 0;
}

static const char *event_phrase(const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_MAPPING_START_EVENT:
		return "a map";
	case YAML_SEQUENCE_START_EVENT:
		return "a sequence";
	case YAML_ALIAS_EVENT:
		return "an alias";
	default:
		return "a scalar";
	}
}

/* Load one key: value pair of @map, the key's event being @ev. */
static int load_entry(struct loader *ld, struct scenario_node *map,
		      yaml_event_t *ev, unsigned int depth)
{
	struct scenario_node *key, *value;
	yaml_event_t value_ev;
	char *path;

	if (ev->type != YAML_SCALAR_EVENT) {
		loader_error(ld, &ev->start_mark,
			     "expected a scalar key, "
			     "found %s",
			     event_phrase(ev));
		yaml_event_delete(ev);
		return -1;
	}
	/* SIM: YAML 1.1 merge keys are refused as anchors and aliases are. */
	if (ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	    ev->data.scalar.length == 2 &&
	    !memcmp(ev->data.scalar.value, "<<", 2)) {
		loader_error(ld, &ev->start_mark,
			     "merge keys ('<<') are not supported: write the "
			     "keys out");
		yaml_event_delete(ev);
		return -1;
	}
	key = load_node(ld, ev, map->path, depth + 1);
	if (!key)
		return -1;
	if (check_new_key(ld, map, key))
		goto out_free_key;
	path = path_join(map->path, key->scalar, strlen(key->scalar));
	if (!path) {
		scenario__error_at(ld->err, key, "out of memory");
		goto out_free_key;
	}
	free(key->path);
	key->path = path;
	if (next_event(ld, &value_ev))
		goto out_free_key;
	value = load_node(ld, &value_ev, path, depth + 1);
	if (!value)
		goto out_free_key;
	if (node_append(map, key, value)) {
		scenario__error_at(ld->err, key, "out of memory");
		scenario_free(value);
		goto out_free_key;
	}
	return 0;

out_free_key:
	scenario_free(key);
	return -1;
}

static struct scenario_node *load_map(struct loader *ld, yaml_event_t *start,
				      const char *path, unsigned int depth)
{
	struct scenario_node *node;
	yaml_event_t ev;

	node = loader_node(ld, SCENARIO_MAP, &start->start_mark, path, depth);
	if (!node)
		return NULL;
	for (;;) {
		if (next_event(ld, &ev))
			goto out_free_node;
		if (ev.type == YAML_MAPPING_END_EVENT)
			break;
		if (load_entry(ld, node, &ev, depth))
			goto out_free_node;
	}
	yaml_event_delete(&ev);
	return node;

out_free_node:
	scenario_free(node);
	return NULL;
}

/* The explicit tag of @ev ("!foo", "!!str"), or NULL. */
static const unsigned char *event_tag(const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		return ev->data.scalar.tag;
	case YAML_SEQUENCE_START_EVENT:
		return ev->data.sequence_start.tag;
	case YAML_MAPPING_START_EVENT:
		return ev->data.mapping_start.tag;
	default:
		return NULL;
	}
}

static const unsigned char *event_anchor(const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		return ev->data.scalar.anchor;
	case YAML_SEQUENCE_START_EVENT:
		return ev->data.sequence_start.anchor;
	case YAML_MAPPING_START_EVENT:
		return ev->data.mapping_start.anchor;
	default:
		return NULL;
	}
}

/*
 * load_node() - build the node that starts with @ev, at @path, @depth
 * levels below the root (which is at depth 1). Takes the responsibility for
 * @ev: it is deleted even if the function fails.
 */
static struct scenario_node *load_node(struct loader *ld, yaml_event_t *ev,
				       const char *path, unsigned int depth)
{
	struct scenario_node *node = NULL;

	if (event_anchor(ev)) {
		loader_error(ld, &ev->start_mark, "anchors are not supported");
		goto out_delete_event;
	}
	/* SIM: a tag would change a value's meaning; none is understood. */
	if (event_tag(ev)) {
		char shown[64];

		const char *tag = (const char *)event_tag(ev);
		static const char std[] = "tag:yaml.org,2002:";

		if (!strncmp(tag, std, sizeof(std) - 1)) {
			char short_tag[64];

			snprintf(short_tag, sizeof(short_tag), "!!%s",
				 tag + sizeof(std) - 1);
			quote(shown, sizeof(shown), short_tag);
		} else {
			quote(shown, sizeof(shown), tag);
		}
		loader_error(ld, &ev->start_mark,
			     "tags such as %s are not supported: write the "
			     "value without it",
			     shown);
		goto out_delete_event;
	}
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		node = load_scalar(ld, ev, path, depth);
		break;
	case YAML_SEQUENCE_START_EVENT:
		node = load_seq(ld, ev, path, depth);
		break;
	case YAML_MAPPING_START_EVENT:
		node = load_map(ld, ev, path, depth);
		break;
	case YAML_ALIAS_EVENT:
		loader_error(ld, &ev->start_mark, "aliases are not supported");
		break;
	default:
		loader_error(ld, &ev->start_mark, "unexpected YAML event");
		break;
	}
out_delete_event:
	yaml_event_delete(ev);
	return node;
}

/* An empty --set VALUE (or a document with nothing in it). */
static struct scenario_node *empty_scalar(struct loader *ld,
					  const yaml_mark_t *mark)
{
	struct scenario_node *node;

	node = loader_node(ld, SCENARIO_SCALAR, mark, "", 1);
	if (!node)
		return NULL;
	node->scalar = xstrdup("");
	if (!node->scalar) {
		loader_error(ld, mark, "out of memory");
		scenario_free(node);
		return NULL;
	}
	return node;
}

/* Expect the event of @type next; the event is consumed either way. */
static int expect_event(struct loader *ld, yaml_event_type_t type,
			const char *what)
{
	yaml_event_t ev;
	int ret = 0;

	if (next_event(ld, &ev))
		return -1;
	if (ev.type != type) {
		loader_error(ld, &ev.start_mark, "%s", what);
		ret = -1;
	}
	yaml_event_delete(&ev);
	return ret;
}

/* Load the one document of the stream (after its STREAM-START event). */
static struct scenario_node *load_document(struct loader *ld)
{
	struct scenario_node *root;
	yaml_event_t ev;

	if (next_event(ld, &ev))
		return NULL;
	if (ev.type == YAML_STREAM_END_EVENT) {
		yaml_event_delete(&ev);
		if (ld->inline_value)
			return empty_scalar(ld, &ev.start_mark);
		sim_error_set(ld->err, ld->file, 1, 1, "empty scenario");
		return NULL;
	}
	yaml_event_delete(&ev); /* DOCUMENT-START */
	if (next_event(ld, &ev))
		return NULL;
	root = load_node(ld, &ev, "", 1);
	if (!root)
		return NULL;
	if (expect_event(ld, YAML_DOCUMENT_END_EVENT,
			 "expected the end of "
			 "the document") ||
	    expect_event(ld, YAML_STREAM_END_EVENT,
			 "multiple documents are "
			 "not supported"))
		goto out_free_root;
	return root;

out_free_root:
	scenario_free(root);
	return NULL;
}

static struct scenario_node *load_stream(struct loader *ld)
{
	yaml_event_t ev;

	if (next_event(ld, &ev))
		return NULL;
	yaml_event_delete(&ev); /* STREAM-START */
	return load_document(ld);
}

/* A scenario's root must be a map; an empty document is no scenario. */
static int check_root(struct sim_error *err, const struct scenario_node *root)
{
	if (root->kind == SCENARIO_MAP)
		return 0;
	if (root->kind == SCENARIO_SCALAR && !root->scalar[0]) {
		sim_error_set(err, root->file, 1, 1, "empty scenario");
		return -1;
	}
	scenario__error_at(err, root,
			   "expected a map at the top level, found %s",
			   scenario__kind_phrase(root));
	return -1;
}

static struct scenario_node *parse_nodes(const char *name, const void *buf,
					 size_t len, bool inline_value,
					 size_t max_nodes,
					 struct sim_error *err)
{
	struct scenario_node *root;
	struct loader ld = {
		.file = name,
		.buf = buf,
		.len = len,
		.max_nodes = max_nodes,
		.inline_value = inline_value,
		.err = err,
	};

	sim_error_clear(err);
	if (len > SCENARIO_MAX_BYTES) {
		sim_error_set(err, name, 0, 0, "scenario is larger than %u MiB",
			      SCENARIO_MAX_BYTES >> 20);
		return NULL;
	}
	if (!yaml_parser_initialize(&ld.parser)) {
		sim_error_set(err, name, 0, 0, "out of memory");
		return NULL;
	}
	yaml_parser_set_input_string(&ld.parser, buf, len);
	root = load_stream(&ld);
	yaml_parser_delete(&ld.parser);
	if (root && !inline_value && check_root(err, root)) {
		scenario_free(root);
		return NULL;
	}
	return root;
}

static struct scenario_node *parse(const char *name, const void *buf,
				   size_t len, bool inline_value,
				   struct sim_error *err)
{
	return parse_nodes(name, buf, len, inline_value, SCENARIO_MAX_NODES,
			   err);
}

/**
 * scenario_parse_buffer() - parse a scenario from @len bytes at @buf.
 * @name: file name used in marks and errors
 * @buf: the text; may hold any bytes, NUL included
 * @len: its length, at most 16 MiB
 * @err: filled on failure
 *
 * Return: a tree owned by the caller, whose root is a map, or NULL with
 * @err set.
 */
struct scenario_node *scenario_parse_buffer(const char *name, const void *buf,
					    size_t len, struct sim_error *err)
{
	return parse(name, buf, len, false, err);
}

/**
 * scenario_parse_results() - parse a file memcgsim wrote, such as a run's
 * or a sweep's YAML results.
 * @name: file name used in marks and errors
 * @buf: the text; may hold any bytes, NUL included
 * @len: its length, at most 16 MiB
 * @err: filled on failure
 *
 * As scenario_parse_buffer(), but with room for 2000000 nodes instead of
 * 100000: each variant's hot lines list transfers to every CPU, so a sweep
 * holds far more nodes than any scenario. The text limit is the same.
 *
 * Return: as scenario_parse_buffer().
 */
struct scenario_node *scenario_parse_results(const char *name, const void *buf,
					     size_t len, struct sim_error *err)
{
	return parse_nodes(name, buf, len, false, SCENARIO_MAX_RESULT_NODES,
			   err);
}

/**
 * scenario_parse_string() - parse a scenario from a NUL-terminated string.
 * @name: file name used in marks and errors
 * @text: the YAML text
 * @err: filled on failure
 *
 * Return: as scenario_parse_buffer().
 */
struct scenario_node *scenario_parse_string(const char *name, const char *text,
					    struct sim_error *err)
{
	return parse(name, text, strlen(text), false, err);
}

/* ------------------------------------------------------------------ */
/* Inspection.                                                         */

/*
 * Trivial accessors: a node's kind, file, one-based line and column (0 when
 * unknown, as for --set), dotted path, scalar text (NULL for collections)
 * and number of entries or items (0 for scalars). Strings are borrowed.
 */

enum scenario_kind scenario_kind(const struct scenario_node *node)
{
	return node->kind;
}

const char *scenario_file(const struct scenario_node *node)
{
	return node->file;
}

unsigned int scenario_line(const struct scenario_node *node)
{
	return node->line;
}

unsigned int scenario_col(const struct scenario_node *node)
{
	return node->col;
}

const char *scenario_path(const struct scenario_node *node)
{
	return node->path;
}

const char *scenario_scalar(const struct scenario_node *node)
{
	return node->scalar;
}

size_t scenario_len(const struct scenario_node *node)
{
	return node->len;
}

/**
 * scenario_item() - the @i-th value of a map or item of a sequence.
 * @node: a map or sequence
 * @i: index, below scenario_len()
 *
 * Return: the borrowed node, or NULL when @i is out of range.
 */
struct scenario_node *scenario_item(const struct scenario_node *node, size_t i)
{
	return i < node->len ? node->items[i] : NULL;
}

/**
 * scenario_key() - the @i-th key of a map.
 * @map: a map
 * @i: index, below scenario_len()
 *
 * Return: the borrowed key, or NULL when @map is no map or @i is out of
 * range.
 */
const char *scenario_key(const struct scenario_node *map, size_t i)
{
	if (map->kind != SCENARIO_MAP || i >= map->len)
		return NULL;
	return map->keys[i]->scalar;
}

/**
 * scenario_get() - the value of @key in @map.
 * @map: a map, or NULL
 * @key: the exact key (not a dotted path)
 *
 * Return: the borrowed value, or NULL if @map is NULL, no map, or has no
 * @key.
 */
struct scenario_node *scenario_get(const struct scenario_node *map,
				   const char *key)
{
	size_t i;

	if (!map || map->kind != SCENARIO_MAP)
		return NULL;
	for (i = 0; i < map->len; i++)
		if (!strcmp(map->keys[i]->scalar, key))
			return map->items[i];
	return NULL;
}

/*
 * Index of the longest key of @map that matches @p up to a dot or its end,
 * or -1. Its length goes to @seg_len.
 */
static long match_key(const struct scenario_node *map, const char *p,
		      size_t *seg_len)
{
	size_t i, klen, best_len = 0;
	long best = -1;

	for (i = 0; i < map->len; i++) {
		klen = strlen(map->keys[i]->scalar);
		if (klen <= best_len && best >= 0)
			continue;
		if (strncmp(p, map->keys[i]->scalar, klen))
			continue;
		if (p[klen] != '\0' && p[klen] != '.')
			continue;
		best = (long)i;
		best_len = klen;
	}
	*seg_len = best_len;
	return best;
}

/* Index of the key @key of @map, exactly, or -1. */
static long find_key(const struct scenario_node *map, const char *key)
{
	size_t i;

	for (i = 0; i < map->len; i++)
		if (!strcmp(map->keys[i]->scalar, key))
			return (long)i;
	return -1;
}

/*
 * Read the quoted path segment at @p ("..."), with \" and \\ for a quote
 * and a backslash, into @key (@size bytes, NUL-terminated; its length to
 * @key_len). Return the bytes of @p it spans, quotes included, or 0 when
 * the quote is not closed, the key is empty or too long, or the closing
 * quote is followed by something other than a dot or the end.
 */
static size_t parse_quoted(const char *p, char *key, size_t size,
			   size_t *key_len)
{
	size_t n = 1, k = 0;
	char c;

	for (;;) {
		c = p[n];
		if (c == '\0')
			return 0;
		if (c == '"')
			break;
		if (c == '\\' && (p[n + 1] == '"' || p[n + 1] == '\\'))
			c = p[++n];
		if (k + 1 >= size)
			return 0;
		key[k++] = c;
		n++;
	}
	n++;
	if (!k || (p[n] != '\0' && p[n] != '.'))
		return 0;
	key[k] = '\0';
	*key_len = k;
	return n;
}

/* Parse a sequence index that ends at a dot or the end; -1 if none. */
static long parse_index(const char *p, size_t *seg_len)
{
	size_t n = 0;
	long index = 0;

	while (p[n] >= '0' && p[n] <= '9') {
		if (index > 100000000)
			return -1;
		index = index * 10 + (p[n++] - '0');
	}
	if (!n || (p[n] != '\0' && p[n] != '.'))
		return -1;
	*seg_len = n;
	return index;
}

/*
 * The entry of @node (a map or a sequence) that the path segment at @p
 * names, or -1; the bytes of @p the segment spans go to @seg_len. At a map
 * a quoted segment is a key exactly; else the longest key that matches up
 * to a dot or the end. At a sequence it is an index (not range-checked).
 */
static long path_step(const struct scenario_node *node, const char *p,
		      size_t *seg_len)
{
	char key[SCENARIO_MAX_PATH + 1];
	size_t key_len;

	if (node->kind == SCENARIO_SEQ)
		return parse_index(p, seg_len);
	if (node->kind != SCENARIO_MAP)
		return -1;
	if (*p != '"')
		return match_key(node, p, seg_len);
	*seg_len = parse_quoted(p, key, sizeof(key), &key_len);
	if (!*seg_len)
		return -1;
	return find_key(node, key);
}

/**
 * scenario_lookup() - the node at a dotted path.
 * @root: where the path starts, or NULL
 * @dotted_path: "a.b.0.c"; "" is @root itself. A segment in double quotes
 *	is one key, dots and all: cgroups./a."memory.max"
 *
 * Return: the borrowed node, or NULL when the path does not exist.
 */
struct scenario_node *scenario_lookup(const struct scenario_node *root,
				      const char *dotted_path)
{
	const struct scenario_node *node = root;
	const char *p = dotted_path;
	size_t seg_len;
	long i;

	if (!node || !*p)
		return (struct scenario_node *)node;
	for (;;) {
		i = path_step(node, p, &seg_len);
		if (i < 0 || (size_t)i >= node->len)
			return NULL;
		node = node->items[i];
		if (!p[seg_len])
			return (struct scenario_node *)node;
		p += seg_len + 1;
	}
}

/* ------------------------------------------------------------------ */
/* Overrides.                                                          */

/* Replace @parent's @i-th value by a copy of @value. */
static int set_item(struct scenario_node *parent, size_t i,
		    const struct scenario_node *value, struct sim_error *err)
{
	struct scenario_node *copy;
	char *path;

	if (parent->keys)
		path = path_join(parent->path, parent->keys[i]->scalar,
				 strlen(parent->keys[i]->scalar));
	else
		path = path_index(parent->path, i);
	if (!path)
		goto out_oom;
	copy = clone_at(value, path);
	free(path);
	if (!copy)
		goto out_oom;
	scenario_free(parent->items[i]);
	parent->items[i] = copy;
	return 0;

out_oom:
	scenario__error_at(err, value, "out of memory");
	return -1;
}

/* Add the key @p (@seg_len bytes) to @map with an empty map as its value. */
static long add_key(struct scenario_node *map, const char *p, size_t seg_len,
		    const struct scenario_node *value)
{
	struct scenario_node *key, *child;
	char *path;

	path = path_join(map->path, p, seg_len);
	if (!path)
		return -1;
	key = node_new(SCENARIO_SCALAR, value->file, value->line, value->col,
		       path);
	child = node_new(SCENARIO_MAP, value->file, value->line, value->col,
			 path);
	free(path);
	if (!key || !child)
		goto out_free;
	key->scalar = malloc(seg_len + 1);
	if (!key->scalar)
		goto out_free;
	memcpy(key->scalar, p, seg_len);
	key->scalar[seg_len] = '\0';
	if (node_append(map, key, child))
		goto out_free;
	return (long)map->len - 1;

out_free:
	scenario_free(key);
	scenario_free(child);
	return -1;
}

/*
 * A path may not be empty, have empty segments, an unclosed or misplaced
 * quote, or control characters; at most SCENARIO_MAX_PATH bytes. Its number
 * of segments goes to @nr_segs (a dotted key such as memory.min counts as
 * two: it is a bound, like the loader's on nesting).
 */
static bool path_is_valid(const char *p, unsigned int *nr_segs)
{
	char key[SCENARIO_MAX_PATH + 1];
	size_t n, key_len;

	*nr_segs = 0;
	if (!*p || !key_is_printable(p) || strlen(p) > SCENARIO_MAX_PATH)
		return false;
	for (;;) {
		if (*p == '"')
			n = parse_quoted(p, key, sizeof(key), &key_len);
		else
			n = strcspn(p, ".");
		if (!n)
			return false;
		++*nr_segs;
		if (!p[n])
			return true;
		p += n + 1;
		if (!*p)
			return false;
	}
}

/* Find or make the child of @node for @p: its index, or -1 (@err set). */
static long set_step(struct scenario_node *node, const char *path,
		     const char *p, size_t *seg_len,
		     const struct scenario_node *value, struct sim_error *err)
{
	int prefix = (int)(p - path - (p > path));
	char key[SCENARIO_MAX_PATH + 1];
	size_t key_len;
	long i;

	if (node->kind == SCENARIO_SCALAR) {
		scenario__error_at(err, value,
				   "cannot set '%s': '%.*s' is a scalar, "
				   "not a map",
				   path, prefix, path);
		return -1;
	}
	if (node->kind == SCENARIO_MAP) {
		i = path_step(node, p, seg_len);
		if (i >= 0)
			return i;
		if (*p == '"') {
			/* Valid: path_is_valid() parsed it. */
			*seg_len = parse_quoted(p, key, sizeof(key), &key_len);
			i = add_key(node, key, key_len, value);
		} else {
			*seg_len = strcspn(p, ".");
			i = add_key(node, p, *seg_len, value);
		}
		if (i < 0)
			scenario__error_at(err, value, "out of memory");
		return i;
	}
	i = parse_index(p, seg_len);
	if (i < 0) {
		scenario__error_at(err, value,
				   "cannot set '%s': expected an index into "
				   "the sequence '%.*s', found '%.*s'",
				   path, prefix, path, (int)strcspn(p, "."), p);
		return -1;
	}
	if ((size_t)i >= node->len) {
		scenario__error_at(err, value,
				   "cannot set '%s': index %ld is out of "
				   "range: '%.*s' has %zu item%s",
				   path, i, prefix, path, node->len,
				   node->len == 1 ? "" : "s");
		return -1;
	}
	return i;
}

/**
 * scenario_set() - override the value at @dotted_path with a copy of @value.
 * @root: the tree to change; its root must be a map
 * @dotted_path: where: "kernel.charge_batch", "workloads.0.cpus",
 *	"cgroups./a.\"memory.max\""
 * @value: the new value, copied; the caller keeps it
 * @err: filled on failure, at @value's mark
 *
 * At a map, a path segment in double quotes is one key, dots and all
 * ("memory.max"; \" and \\ inside for a quote and a backslash); an unquoted
 * one is the longest existing key that matches up to a dot or the end (keys
 * may contain dots); a missing key is added, with empty maps created for
 * the rest of the path but its last segment. At a sequence the segment must
 * be the index of an existing item. The copy and its descendants get paths
 * below @dotted_path and keep @value's file and marks. On failure the tree
 * is unchanged.
 *
 * Return: 0, or -1 with @err set.
 */
int scenario_set(struct scenario_node *root, const char *dotted_path,
		 const struct scenario_node *value, struct sim_error *err)
{
	struct scenario_node *node = root;
	const char *p = dotted_path;
	unsigned int nr_segs;
	size_t seg_len;
	long i;

	if (strlen(dotted_path) > SCENARIO_MAX_PATH ||
	    (path_is_valid(dotted_path, &nr_segs) &&
	     nr_segs > SCENARIO_MAX_DEPTH)) {
		scenario__error_at(err, value,
				   "cannot set '%.64s...': the key path has "
				   "more than %d levels or %d bytes",
				   dotted_path, SCENARIO_MAX_DEPTH,
				   SCENARIO_MAX_PATH);
		return -1;
	}
	if (!path_is_valid(dotted_path, &nr_segs)) {
		scenario__error_at(err, value,
				   "cannot set '%s': expected a dotted key "
				   "path such as 'kernel.charge_batch', a "
				   "key with dots in double quotes "
				   "(cgroups./a.\"memory.max\")",
				   dotted_path);
		return -1;
	}
	for (;;) {
		i = set_step(node, dotted_path, p, &seg_len, value, err);
		if (i < 0)
			return -1;
		if (!p[seg_len])
			return set_item(node, i, value, err);
		node = node->items[i];
		p += seg_len + 1;
	}
}

/*
 * The '=' that ends the KEY of "KEY=VALUE": the first one outside a quoted
 * path segment (a quote opens a segment only at its start), or NULL.
 */
static const char *key_end(const char *arg)
{
	const char *p = arg;
	size_t n;

	for (;;) {
		if (*p == '"') {
			for (p++; *p && *p != '"'; p++)
				if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
					p++;
			if (!*p)
				return NULL;
			p++;
		}
		n = strcspn(p, ".=");
		if (p[n] != '.')
			return p[n] == '=' ? p + n : NULL;
		p += n + 1;
	}
}

/* Parse a --set VALUE; errors are reported against --set KEY. */
static struct scenario_node *parse_set_value(const char *key, const char *text,
					     struct sim_error *err)
{
	struct scenario_node *value;
	struct sim_error inner;
	char shown[128];

	value = parse(SCENARIO_SET_FILE, text, strlen(text), true, &inner);
	if (value)
		return value;
	quote(shown, sizeof(shown), text);
	sim_error_set(err, SCENARIO_SET_FILE, 0, 0,
		      "key '%s': cannot parse the value %s: %s", key, shown,
		      inner.msg);
	return NULL;
}

/**
 * scenario_set_arg() - apply a command-line override "KEY=VALUE".
 * @root: the tree to change
 * @arg: KEY=VALUE; VALUE is YAML ("64", "{a: 1}", "[1, 2]"); empty is an
 *	empty scalar
 * @err: filled on failure
 *
 * The value's nodes have file "--set" and no line or column, so any later
 * error about them prints as "--set: error: key 'KEY': ...".
 *
 * Return: 0, or -1 with @err set.
 */
int scenario_set_arg(struct scenario_node *root, const char *arg,
		     struct sim_error *err)
{
	struct scenario_node *value;
	const char *eq = key_end(arg);
	char *key;
	int ret = -1;

	if (!eq || eq == arg) {
		sim_error_set(err, SCENARIO_SET_FILE, 0, 0,
			      "expected KEY=VALUE, found '%s'", arg);
		return -1;
	}
	key = malloc(eq - arg + 1);
	if (!key) {
		sim_error_set(err, SCENARIO_SET_FILE, 0, 0, "out of memory");
		return -1;
	}
	memcpy(key, arg, eq - arg);
	key[eq - arg] = '\0';
	value = parse_set_value(key, eq + 1, err);
	if (!value)
		goto out_free_key;
	ret = scenario_set(root, key, value, err);
	scenario_free(value);
out_free_key:
	free(key);
	return ret;
}
