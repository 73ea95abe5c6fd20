/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/sweep/internal.h - what the five files of the sweep share:
 *
 *	cmd/sweep/sweep.c        points, their files, sweep.meta, plans, one point
 *	cmd/sweep/jobs.c   the local pool of forked jobs (sweep_run())
 *	cmd/sweep/merge.c  sweep.csv and sweep.yaml from the point files
 *	cmd/sweep/verify.c content digests, and a point's files checked
 *	cmd/sweep/override.c the values a variant's own set: gives varied keys
 *
 * Nothing outside these five includes it; the sweep's interface is
 * cmd/sweep/sweep.h.
 */
#ifndef CLI_SWEEP_INTERNAL_H
#define CLI_SWEEP_INTERNAL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "cmd/sweep/sweep.h"
#include "sim/error.h"

/* SIGINT, SIGTERM and SIGHUP: the signals that stop a sweep. */
#define SWEEP__NR_STOP_SIGNALS 3
extern const int sweep__stop_signals[SWEEP__NR_STOP_SIGNALS];

/* strdup() and asprintf() that cannot fail (SIM_BUG_ON without memory). */
char *sweep__xstrdup(const char *s);
char *sweep__xasprintf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* The first control character (C0 or DEL) of @s, or NULL. */
const char *sweep__control_char(const char *s);
/* @s for a message: control characters as \n, \t, \xHH. */
void sweep__escape(char *buf, size_t size, const char *s);
/* DIR/points/NNNN.EXT, malloc'd. */
char *sweep__point_path(const struct sweep *s, unsigned int point,
			const char *ext);
/* 1: point @point's files are there and intact; 0: one is missing; -1. */
int sweep__point_check(const struct sweep *s, unsigned int point,
		       struct sim_error *err);
/* Put @before and @after around @err's message (cut to fit). */
void sweep__wrap_msg(struct sim_error *err, const char *before,
		     const char *after);
/* A file's bytes, rendered in memory before it is written. */
struct sweep__bytes {
	char *buf;
	size_t len;
};

/* cmd/sweep/verify.c: "sha256:HEX" of @len bytes at @buf into @out. */
void sweep__digest_buf(char *out, const void *buf, size_t len);
/* @s->scenario_digest and @s->profiles_digest, as the files are now. */
void sweep__digests(struct sweep *s);
/* NNNN.sum of point @point, whose reports are @yaml and @csv, into @b. */
int sweep__render_sum(const struct sweep *s, unsigned int point,
		      const struct sweep__bytes *yaml,
		      const struct sweep__bytes *csv, struct sweep__bytes *b);
/* Which value of each key point @point takes: @idx[k]. */
void sweep__point_index(const struct sweep *s, unsigned int point,
			unsigned int *idx);
/* Hold the stop signals back (@block) or let them in again. */
void sweep__hold_signals(bool block, sigset_t *saved);
/* Remove point @point's temporary files, left by a killed writer. */
void sweep__remove_temps(const struct sweep *s, unsigned int point);
/* Prefix @err's message with "point I (a=1 b=x): ". */
void sweep__blame_point(const struct sweep *s, unsigned int point,
			struct sim_error *err);
/*
 * Refuse, before any work, a file the sweep would write (sweep.meta with
 * @meta, every point's files with @points, sweep.csv and sweep.yaml) that
 * resolves to a file read as input (sim/file.h): 0, or -1 with @err set.
 */
int sweep__outputs_check(const struct sweep *s, bool meta, bool points,
			 struct sim_error *err);
/* Set @s up from DIR/sweep.meta; 0, or -1 with @err set. */
int sweep__meta_read(struct sweep *s, const char *dir, struct sim_error *err);

/*
 * A variant's own set: of a varied key, which wins over the point's
 * value (cmd/sweep/override.c): its rows ran with @value.
 */
struct sweep__override {
	char *variant;
	unsigned int key; /* index in sweep.keys */
	char *value;
};

struct sweep__overrides {
	struct sweep__override *o;
	unsigned int nr;
};

/*
 * sweep__overrides_load() - the variants of @s's scenario that set a
 * varied key themselves. Return: 0; -1 with @err set (at the variant's
 * set: entry) for a setting no one column value could describe: a map
 * containing a varied key, a key inside a varied map, a varied key set to
 * a map.
 */
int sweep__overrides_load(const struct sweep *s, struct sweep__overrides *ov,
			  struct sim_error *err);
/* The value @variant runs varied key @key with, or NULL: the point's. */
const char *sweep__override(const struct sweep__overrides *ov,
			    const char *variant, unsigned int key);
void sweep__overrides_free(struct sweep__overrides *ov);

#endif /* CLI_SWEEP_INTERNAL_H */
