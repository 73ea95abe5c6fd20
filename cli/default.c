// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli/default.c - what memcgsim with no command adds to its run of the
 * default experiment: its plots and its last line. See cli/default.h.
 */
#include <stdio.h>
#include <string.h>

#include "cli/default.h"
#include "cmd/plot/plot.h"
#include "sim/error.h"

#define DEFAULT_PLOTS_DIR "memcgsim-plots"
#define DEFAULT_HEATMAP "6.0-rc1"

/* The default experiment: the pictures' names, for one line. */
struct plot_names {
	char buf[512];
	size_t len;
};

static void note_written(void *arg, const char *path, bool picture)
{
	struct plot_names *n = arg;
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	/* One name per picture, drawn as PNG and SVG. */
	if (!picture || len < 4 || strcmp(base + len - 4, ".png") ||
	    n->len >= sizeof(n->buf))
		return;
	n->len += (size_t)snprintf(n->buf + n->len, sizeof(n->buf) - n->len,
				   "%s%.*s", n->len ? ", " : "", (int)(len - 4),
				   base);
}

/*
 * The default experiment draws its own plots: time by kernel function,
 * predicted against published change, and the heat map of 6.0-rc1 (or of
 * the --variant run). A missing gnuplot or a failure is a message, not a
 * failed run: the table is the result.
 */
void cli_default_plots(const struct cli *c, const struct report *r,
		       const char *script_dir)
{
	struct plot_names names = { .len = 0 };
	struct plot_opts o = {
		.out_dir = DEFAULT_PLOTS_DIR,
		.script_dir = script_dir,
		.png = true,
		.svg = true,
		.kinds = 1u << PLOT_SUMMARY | 1u << PLOT_FUNCTIONS |
			 1u << PLOT_VALIDATION | 1u << PLOT_HEATMAP,
		.heatmap_variant = c->o.variant ? c->o.variant :
						  DEFAULT_HEATMAP,
		.written = note_written,
		.written_arg = &names,
	};
	struct sim_error err;

	if (!plot_have_gnuplot(&o)) {
		if (!c->quiet)
			fprintf(stderr,
				"memcgsim: no plots: gnuplot is not installed (apt-get install gnuplot-nox), or use --no-plots\n");
		return;
	}
	sim_error_clear(&err);
	if (plot_report(r, &o, &err)) {
		fprintf(stderr, "memcgsim: warning: plots not drawn: %s%s%s\n",
			err.file, err.file[0] ? ": " : "", err.msg);
		return;
	}
	if (!c->quiet && names.len)
		fprintf(stderr, "memcgsim: plots (PNG, SVG) in %s/: %s\n",
			DEFAULT_PLOTS_DIR, names.buf);
}

/*
 * The default run's last line: where to go next (explain of its first
 * variant after the baseline: why it is slower, where its time goes). The
 * scenario as a path from the source tree's top, where the README's
 * commands run; within 80 columns.
 */
void cli_default_next(const struct report *r)
{
	const char *v = report_variant_name(r, 1);

	printf("\nnext: memcgsim explain -v %s scenarios/%s\n",
	       v ? v : report_variant_name(r, 0), DEFAULT_EXPERIMENT);
}
