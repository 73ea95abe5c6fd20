/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/plot/internal.h - what the two files of `memcgsim plot` share:
 *
 *	cmd/plot/plot.c        planning: results in, a struct plot_plan out
 *	cmd/plot/draw.c   drawing: each job's data file, then gnuplot
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

/* "name='value'; ": a gnuplot variable, the value quoted for gnuplot. */
void plot__put_gp_var(FILE *f, const char *name, const char *value);
/* The same for a file name, whose every byte is kept. */
void plot__put_gp_path(FILE *f, const char *name, const char *path);
/* @s with every character but [A-Za-z0-9._+-] replaced by '_'. */
void plot__safe_name(char *dst, size_t size, const char *s);

/*
 * plot__draw_plan() - write each job's data file and draw its pictures.
 * Return 0, -ENOENT (no gnuplot) or -EIO with @err set.
 */
int plot__draw_plan(const struct plot_plan *p, const struct plot_opts *o,
		    struct sim_error *err);

#endif /* CLI_PLOT_INTERNAL_H */
