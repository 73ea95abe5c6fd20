/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/plot/internal.h - what the three files of `memcgsim plot` share:
 *
 *	cmd/plot/plot.c        planning: results in, a struct plot_plan out
 *	cmd/plot/sweep.c       planning a sweep's pictures (sweep.csv)
 *	cmd/plot/draw.c        drawing: each job's data file, then gnuplot
 *
 * Nothing else includes it; the interface is cmd/plot/plot.h.
 */
#ifndef CLI_PLOT_INTERNAL_H
#define CLI_PLOT_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "cmd/plot/plot.h"
#include "sim/error.h"

/**
 * struct plot_job - one picture to draw (in PNG, SVG or both).
 * @kind: which script draws it
 * @stem: file name without extension: "functions", "heatmap-6.0-rc1"
 * @data: the text of the data file, @len bytes
 * @vars: gnuplot assignments for the script ("title='...'; nkernel=11")
 */
struct plot_job {
	enum plot_kind kind;
	char stem[256];
	char *data;
	size_t len;
	char *vars;
};

struct plot_plan {
	char name[256]; /* scenario (a run) or sweep directory */
	struct plot_job *jobs;
	unsigned int nr;
};

/* A file built in memory (open_memstream()). */
struct text {
	FILE *f;
	char *buf;
	size_t len;
};

int plot__text_open(struct text *t);
int plot__text_close(struct text *t);
void plot__text_discard(struct text *t);
/*
 * A picture's two texts, its data and gnuplot's variables, opened and
 * discarded together: on failure neither is open, @err says "out of
 * memory" and -ENOMEM is returned.
 */
int plot__texts_open(struct text *data, struct text *gp, struct sim_error *err);
void plot__texts_discard(struct text *data, struct text *gp);

/* "name='value'; ": a gnuplot variable, the value quoted for gnuplot. */
void plot__put_gp_var(FILE *f, const char *name, const char *value);
/* The same for a file name, whose every byte is kept. */
void plot__put_gp_path(FILE *f, const char *name, const char *path);
/* @s as a double-quoted data-file string (cmd/plot/plot.c). */
void plot__put_data_str(FILE *f, const char *s);
/* Close @data and @vars and add them to @p as a job of @kind. */
int plot__plan_finish(struct plot_plan *p, enum plot_kind kind,
		      const char *prefix, const char *name, struct text *data,
		      struct text *vars, struct sim_error *err);
/* Numbers past this are refused as results (both files read numbers). */
#define PLOT_MAX_VALUE 1e15
/* Is @kind among the pictures @o asks for? */
bool plot__wanted(const struct plot_opts *o, enum plot_kind kind);
/* The name of a sweep, from DIR or DIR/sweep.csv (sweep.c). */
void plot__sweep_name(char *dst, size_t size, const char *path, bool dir);
/* The pictures of the sweep.csv (or sweep directory) @path (sweep.c). */
int plot__plan_sweep(struct plot_plan *p, const char *path,
		     const struct plot_opts *o, struct sim_error *err);
/* @s with every character but [A-Za-z0-9._+-] replaced by '_'. */
void plot__safe_name(char *dst, size_t size, const char *s);

/*
 * plot__draw_plan() - write each job's data file and draw its pictures.
 * Return 0, -ENOENT (no gnuplot) or -EIO with @err set.
 */
int plot__draw_plan(const struct plot_plan *p, const struct plot_opts *o,
		    struct sim_error *err);

#endif /* CLI_PLOT_INTERNAL_H */
