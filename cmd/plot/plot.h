/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/plot/plot.h - pictures of results, drawn by gnuplot.
 *
 * Theory of operation: a picture is a small whitespace-separated data file
 * that this module writes, and a gnuplot script that draws it (plots/, one
 * NAME.gp per kind, installed in $(pkgdatadir)/plots). The scripts take
 * their inputs as gnuplot variables,
 *
 *	gnuplot -e "data='DIR/x.dat'; out='DIR/x.png'; term='png'; ..." x.gp
 *
 * so that a picture can be drawn again, or restyled, by hand from the data
 * file left beside it. There are five kinds:
 *
 *   results        picture                  script          drawn when
 *   run YAML       summary.{png,svg}        summary.gp      always: the
 *                                                           headline metric
 *                                                           per variant
 *   run YAML       functions.{png,svg}      functions.gp    a variant has
 *                                                           `functions:`
 *   run YAML       validation.{png,svg}     validation.gp   a variant has a
 *                                                           published change
 *   run YAML       heatmap-VARIANT.*        heatmap.gp      the variant has
 *                                                           hot `lines:`
 *   sweep.csv      METRIC-vs-KEY.*          throughput.gp   always, one per
 *                                                           varied KEY but
 *                                                           seed
 *
 * The run YAML is what `memcgsim run -f yaml` writes (sim/report.h), read
 * with the scenario tree (sim/scenario.h), so that an error names the
 * file, line and column. A sweep.csv has the columns point, one per varied
 * key, variant, throughput, unit, ... (one row per point and variant);
 * a picture has the key along x, one panel per combination of the other
 * keys' values, one line per variant, and the seeds averaged (mean and
 * 95% confidence interval).
 *
 * Everything is read and checked before anything is written: bad input
 * leaves nothing behind. Then each data file is written whole or not at
 * all (sim_write_atomic()), and gnuplot writes each picture to a temporary
 * name that is renamed when gnuplot exits 0 (removed otherwise).
 *
 * Layering: cli/ command (it renders results, it models nothing); uses
 * sim/report.h, sim/scenario.h, sim/csv.h and sim/file.h, and runs
 * gnuplot with posix_spawnp(). Planning is in cmd/plot/plot.c, drawing in
 * cmd/plot/draw.c.
 */
#ifndef CLI_PLOT_H
#define CLI_PLOT_H

#include <stdbool.h>

#include "sim/error.h"
#include "sim/report.h"

enum plot_kind {
	PLOT_THROUGHPUT, /* throughput against a swept key */
	PLOT_FUNCTIONS, /* time by kernel function, stacked */
	PLOT_VALIDATION, /* predicted against published change */
	PLOT_HEATMAP, /* transfers of each hot line to each CPU */
	PLOT_SUMMARY, /* a run's headline metric per variant, as bars */
	PLOT_NR_KINDS,
};

/**
 * struct plot_opts - what to draw, and where.
 * @out_dir: directory for data files and pictures, created if missing
 *	(one level); NULL: "plots-NAME" in the current directory, NAME the
 *	scenario's (a run) or the sweep directory's
 * @script_dir: where the .gp scripts of plots/ are
 * @gnuplot: the program to run; NULL: $MEMCGSIM_GNUPLOT, else "gnuplot"
 *	looked up in $PATH
 * @png: draw PNG pictures
 * @svg: draw SVG pictures
 * @kinds: bit mask of (1 << enum plot_kind) to draw; 0: every kind the
 *	results support
 * @heatmap_variant: draw only this variant's heat map; NULL: every
 *	variant's with hot lines
 * @metric: a sweep's metric to draw (a column of sweep.csv); NULL:
 *	throughput
 * @x_key: the sweep's key along x; NULL: one picture per varied key but
 *	seed (the other keys make the panels, seeds are averaged)
 * @written: called with each file's path once it is complete (data files
 *	and pictures), and @picture true for a picture; may be NULL
 * @written_arg: passed to @written
 */
struct plot_opts {
	const char *out_dir;
	const char *script_dir;
	const char *gnuplot;
	bool png, svg;
	unsigned int kinds;
	const char *heatmap_variant;
	const char *metric;
	const char *x_key;
	void (*written)(void *arg, const char *path, bool picture);
	void *written_arg;
};

/*
 * plot_results() - draw the pictures @path supports: @path is a run's YAML
 * (`memcgsim run -f yaml`), a sweep.csv, or a directory holding a
 * sweep.csv.
 *
 * Return: 0; -EINVAL with @err set when @path is missing or is not results
 * (nothing written); -ENOENT with @err set when gnuplot cannot be found
 * (nothing written); -EIO with @err set when a file cannot be written or
 * gnuplot fails (the files already complete stay).
 */
int plot_results(const char *path, const struct plot_opts *o,
		 struct sim_error *err);

/*
 * plot_report() - the same for results still in memory (the default
 * experiment draws its own).
 */
int plot_report(const struct report *r, const struct plot_opts *o,
		struct sim_error *err);

/* The name of gnuplot to run under @o, and whether it can be found. */
bool plot_have_gnuplot(const struct plot_opts *o);

#endif /* CLI_PLOT_H */
