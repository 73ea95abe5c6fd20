// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli/memcgsim.c - the command line.
 *
 *	memcgsim                      the built-in default experiment
 *	memcgsim run SCENARIO ...     run and print results
 *	memcgsim explain SCENARIO ... run and explain the hot lines in words
 *	memcgsim list                 shipped scenarios and machine profiles
 *	memcgsim sweep SCENARIO --vary KEY=V1,V2,... ...
 *	                              run every combination (cli/sweep.h)
 *	memcgsim merge DIR            join a sweep's per-point results
 *	memcgsim compare OLD NEW ...  compare two result files (cli/compare.h)
 *	memcgsim plot RESULTS ...     draw pictures with gnuplot (cli/plot.h)
 *
 * Exit status: 0 on success, 1 on a failure while running (an output file
 * that cannot be written), 2 on bad input or usage. Errors are printed in
 * the GNU format (file:line:col: error: ...). Nothing is printed or
 * written before the whole scenario has been checked and run, so a failed
 * run leaves no partial output.
 *
 * This is the only file that reads the wall clock: for the progress line.
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "config.h"
#include "cli/explain.h"
#include "cli/plot.h"
#include "cli/run.h"
#include "cli/sweep.h"
#include "cli/validate.h"
#include "cli/compare.h"
#include "sim/file.h"
#include "sim/report.h"
#include "sim/trace.h"

#define EXIT_RUN_FAILURE 1
#define EXIT_BAD_INPUT 2
#define MAX_SETS 256
#define MAX_METRICS 64

#ifndef MEMCGSIM_DATADIR
#define MEMCGSIM_DATADIR "/usr/local/share/memcgsim"
#endif
#ifndef MEMCGSIM_SRCDIR
#define MEMCGSIM_SRCDIR "."
#endif

#define DEFAULT_EXPERIMENT "validation/charge-batch-2022.yaml"

static const char usage_text[] =
	"usage: memcgsim [COMMAND] [SCENARIO] [OPTIONS]\n"
	"\n"
	"A deterministic simulator of Linux memory-cgroup charging on many-CPU\n"
	"machines: CPUs, cache lines and their transfers, atomic contention,\n"
	"page counters, per-CPU charge stocks, socket and kmem accounting.\n"
	"With no command it runs charge-batch-2022: 36 netperf pairs on 72 CPUs,\n"
	"the 6.0-rc1 charge path and the three 2022 fixes, and draws its plots\n"
	"into memcgsim-plots/ when gnuplot is installed (not with --no-plots).\n"
	"\n"
	"Commands:\n"
	"  (none)             run the built-in default experiment\n"
	"  run SCENARIO       run every variant and print the results\n"
	"  explain SCENARIO   run, then explain where the time went: by kernel\n"
	"                     function, and the hottest cache lines in words\n"
	"  validate [SCENARIO|DIR]...\n"
	"                     compare predicted and published changes (default:\n"
	"                     the shipped validation/ scenarios); exit 1 when a\n"
	"                     prediction is outside its tolerance\n"
	"  sweep SCENARIO --vary KEY=V1,V2,... [--vary ...]\n"
	"                     run every variant at every combination of the\n"
	"                     values, into DIR/sweep.csv and DIR/sweep.yaml\n"
	"  merge DIR          join the per-point results of a sweep run by its\n"
	"                     --plan lines into DIR/sweep.csv and sweep.yaml\n"
	"  compare OLD NEW    compare two result files (run -f yaml|csv, or a\n"
	"                     sweep's DIR/sweep.csv or sweep.yaml; DIR: its\n"
	"                     sweep.csv) metric by metric; print the values\n"
	"                     that changed; exit 1 when one changed by more\n"
	"                     than the tolerance or is in one file only\n"
	"  plot RESULTS       draw pictures of results with gnuplot: RESULTS is\n"
	"                     a run's YAML (run -f yaml -o FILE), or a sweep's\n"
	"                     DIR or DIR/sweep.csv; prints the files written\n"
	"  list               list the shipped scenarios and machine profiles\n"
	"  help               this text\n"
	"\n"
	"Options for run and explain:\n"
	"  -v, --variant NAME      run only this variant\n"
	"  -s, --set KEY=VALUE     override a scenario key by its dotted path,\n"
	"                          e.g. --set workloads.0.cpus=0-17 (applied to\n"
	"                          the scenario; variants' own settings win)\n"
	"      --seed N            seed instead of the scenario's\n"
	"  -r, --replications N    run N seeds (derived from the seed); report\n"
	"                          mean and 95%% confidence interval\n"
	"  -f, --format FMT        table (default), yaml or csv\n"
	"  -o, --out FILE          write the results to FILE (whole or not at all)\n"
	"      --trace FILE        write a Chrome trace-event JSON of the first\n"
	"                          run (open it in Perfetto or chrome://tracing)\n"
	"      --lines N           hot lines to report per variant (default 4)\n"
	"  -q, --quiet             no progress line\n"
	"      --markdown          validate: print Markdown tables (README)\n"
	"\n"
	"Options for sweep (also --set, --seed, --replications, --quiet):\n"
	"      --vary KEY=V1,V2,...  the values of one key (a --set KEY); each\n"
	"                          --vary multiplies the points (at most 10000\n"
	"                          without --force); the first varies slowest\n"
	"  -j, --jobs N            run N points at once (default 1; 0: one per\n"
	"                          CPU); the results are the same bytes\n"
	"  -o, --out DIR           where the results go (default: sweep-NAME);\n"
	"                          a rerun resumes, skipping finished points\n"
	"      --plan              print a command line per unfinished point\n"
	"                          (for GNU parallel or a batch system); then\n"
	"                          run them and `memcgsim merge DIR`\n"
	"      --force             allow more than 10000 points\n"
	"\n"
	"Options for compare (every metric's value is compared; change_pct,\n"
	"which is derived from them, ci95, hot lines and functions are not):\n"
	"      --tolerance PCT     largest change that passes, in percent of the\n"
	"                          old value (default 0: the model is\n"
	"                          deterministic, any difference is a change)\n"
	"      --metric M          compare only metric M (may be repeated)\n"
	"      --all               print every value, not only those that changed\n"
	"\n"
	"Options for plot (also --variant NAME: only NAME's heat map):\n"
	"  -o, --out DIR           where the data files and pictures go (default:\n"
	"                          plots-NAME, NAME the scenario's or the sweep's)\n"
	"  -f, --format FMT        png, svg or both (default)\n"
	"Option with no command:\n"
	"      --no-plots          do not draw the plots into memcgsim-plots/\n"
	"\n"
	"  -h, --help              this text      --version  the version\n"
	"\n"
	"Workloads (scenario key workloads.N.type):\n"
	"%s"
	"\n"
	"A scenario is YAML; see memcgsim(1) and the shipped scenarios\n"
	"(memcgsim list). Exit status: 0 success, 1 failure while running,\n"
	"2 bad input or usage.\n";

static void usage(FILE *out)
{
	const struct workload_type *const *types;
	unsigned int i, n = workload_types(&types);
	char buf[2048];
	size_t len = 0;

	buf[0] = '\0';
	for (i = 0; i < n && len < sizeof(buf); i++) {
		unsigned int k;

		len += (size_t)snprintf(buf + len, sizeof(buf) - len,
					"  %-16s %s\n%19skeys: type, cpus, cgroup",
					types[i]->name, types[i]->summary, "");
		for (k = 0; k < types[i]->nr_keys && len < sizeof(buf); k++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
						", %s", types[i]->keys[k]);
		if (len < sizeof(buf))
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
						"\n");
	}
	fprintf(out, usage_text, buf);
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "memcgsim: error: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'memcgsim --help'.\n");
	return EXIT_BAD_INPUT;
}

/* ---- progress ---- */

struct progress {
	bool enabled;
	bool shown;
	struct timespec start;
	double last;
};

static double elapsed(const struct progress *pr)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - pr->start.tv_sec) +
	       (double)(now.tv_nsec - pr->start.tv_nsec) / 1e9;
}

static void progress_update(void *arg, double done)
{
	struct progress *pr = arg;
	double t = elapsed(pr);

	/* Only runs longer than a couple of seconds get a line. */
	if (t < 2.0 || t - pr->last < 0.25 || done <= 0)
		return;
	pr->last = t;
	pr->shown = true;
	fprintf(stderr, "\rmemcgsim: %3.0f%% done, %.1f s elapsed, about %.0f s left ",
		100.0 * done, t, t / done - t);
	fflush(stderr);
}

static void progress_end(struct progress *pr)
{
	if (pr->shown)
		fprintf(stderr, "\r%60s\r", "");
}

/* A sweep's line: points done, time, and the rest at the rate so far. */
static void sweep_progress(void *arg, unsigned int done, unsigned int ran,
			   unsigned int total)
{
	struct progress *pr = arg;
	double t = elapsed(pr);

	pr->shown = true;
	fprintf(stderr, "\rmemcgsim: sweep %u/%u points, %.0f s elapsed", done,
		total, t);
	if (ran && done < total)
		fprintf(stderr, ", about %.0f s left ",
			t / ran * (double)(total - done));
	else
		fputs("                 ", stderr);
	fflush(stderr);
}

/* ---- commands ---- */

struct cli {
	const char *scenario;
	const char *out;
	const char *trace;
	enum report_format format;
	bool explain;
	bool quiet;
	bool markdown;
	struct run_opts o;
	const char *sets[MAX_SETS];
	/* sweep */
	bool sweep_opt;		/* one of the sweep options was given */
	bool plan, force;
	unsigned int jobs;
	long point;		/* --point, or -1 */
	unsigned int nr_varys;
	const char *varys[SWEEP_MAX_KEYS + 1];
	/* compare */
	bool compare_opt;	/* one of the three below was given */
	bool all;
	double tolerance;
	unsigned int nr_metrics;
	const char *metrics[MAX_METRICS];
	/* plot, and the default experiment's plots */
	bool plot;		/* the command is plot: --format png|svg|both */
	const char *plot_format;
	bool default_run;	/* no command: draw into memcgsim-plots/ */
	bool no_plots;
};

struct write_ctx {
	const struct report *r;
	enum report_format fmt;
};

static int write_report(FILE *out, void *arg)
{
	struct write_ctx *w = arg;

	return report_write(w->r, w->fmt, out);
}

struct explain_ctx {
	char *buf;
	size_t len;
	FILE *mem;
	unsigned int lines;
	struct sim_trace *trace;
	bool named;
};

static void inspect(void *arg, const char *variant, struct run *run)
{
	struct explain_ctx *x = arg;
	unsigned int i;

	if (x->trace && !x->named) {
		unsigned int nr = coh_nr_lines(run->coh);
		struct coh_line **lines = calloc(nr + 1, sizeof(*lines));

		x->named = true;
		sim_trace_process(x->trace, 1, "CPUs");
		sim_trace_process(x->trace, 2, "cache lines (holder)");
		for (i = 0; i < run->machine.nr_cpus; i++) {
			char name[32];

			snprintf(name, sizeof(name), "cpu %u", i);
			sim_trace_thread(x->trace, 1, (int)i, name);
		}
		if (lines) {
			coh_lines_sorted(run->coh, lines, nr);
			for (i = 0; i < nr; i++)
				sim_trace_thread(x->trace, 2,
						 (int)lines[i]->index,
						 lines[i]->name);
			free(lines);
		}
	}
	if (x->mem)
		explain_run(x->mem, variant, run, x->lines);
}

/* ---- plots ---- */

#define DEFAULT_PLOTS_DIR "memcgsim-plots"
#define DEFAULT_HEATMAP "6.0-rc1"

static const char *plots_dir(void);

/* memcgsim plot: each file as it is written. */
static void print_written(void *arg, const char *path, bool picture)
{
	printf("%s\n", path);
}

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
				   "%s%.*s", n->len ? ", " : "",
				   (int)(len - 4), base);
}

/*
 * The default experiment draws its own plots: time by kernel function,
 * predicted against published change, and the heat map of 6.0-rc1 (or of
 * the --variant run). A missing gnuplot or a failure is a message, not a
 * failed run: the table is the result.
 */
static void default_plots(const struct cli *c, const struct report *r)
{
	struct plot_names names = { .len = 0 };
	struct plot_opts o = {
		.out_dir = DEFAULT_PLOTS_DIR,
		.script_dir = plots_dir(),
		.png = true,
		.svg = true,
		.kinds = 1u << PLOT_FUNCTIONS | 1u << PLOT_VALIDATION |
			 1u << PLOT_HEATMAP,
		.heatmap_variant = c->o.variant ? c->o.variant : DEFAULT_HEATMAP,
		.written = note_written,
		.written_arg = &names,
	};
	struct sim_error err;

	if (!plot_have_gnuplot(&o)) {
		if (!c->quiet)
			fprintf(stderr, "memcgsim: no plots: gnuplot is not installed (apt-get install gnuplot-nox), or use --no-plots\n");
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

static int cmd_run(struct cli *c)
{
	struct explain_ctx x = { .lines = c->o.hot_lines };
	struct progress pr = { .enabled = !c->quiet && isatty(2) };
	struct report *r = NULL;
	struct sim_error err;
	struct write_ctx w;
	int ret = EXIT_RUN_FAILURE;

	sim_error_clear(&err);
	if (c->trace) {
		x.trace = sim_trace_open(c->trace, &err);
		if (!x.trace) {
			sim_error_print(stderr, &err);
			return EXIT_RUN_FAILURE;
		}
		c->o.trace = x.trace;
	}
	if (c->explain) {
		x.mem = open_memstream(&x.buf, &x.len);
		if (!x.mem) {
			perror("memcgsim");
			goto out;
		}
	}
	c->o.inspect = inspect;
	c->o.inspect_arg = &x;
	if (pr.enabled) {
		clock_gettime(CLOCK_MONOTONIC, &pr.start);
		c->o.progress = progress_update;
		c->o.progress_arg = &pr;
	}
	if (scenario_run(c->scenario, &c->o, &r, &err)) {
		progress_end(&pr);
		sim_error_print(stderr, &err);
		ret = EXIT_BAD_INPUT;
		goto out;
	}
	progress_end(&pr);
	if (x.trace) {
		struct sim_trace *t = x.trace;

		x.trace = NULL;
		if (sim_trace_close(t, true, &err)) {
			sim_error_print(stderr, &err);
			goto out;
		}
	}
	w.r = r;
	w.fmt = c->format;
	if (c->explain) {
		fclose(x.mem);
		x.mem = NULL;
		/* The summary table, then the lesson. */
		if (report_write(r, REPORT_TABLE, stdout))
			goto out;
		fprintf(stdout, "\n%s", x.buf);
	} else if (c->out) {
		if (sim_write_atomic(c->out, write_report, &w, &err)) {
			sim_error_print(stderr, &err);
			goto out;
		}
	} else if (report_write(r, c->format, stdout)) {
		goto out;
	}
	if (fflush(stdout)) {
		perror("memcgsim: stdout");
		goto out;
	}
	if (c->default_run && !c->no_plots)
		default_plots(c, r);
	ret = EXIT_SUCCESS;
out:
	if (x.mem)
		fclose(x.mem);
	free(x.buf);
	if (x.trace)
		sim_trace_close(x.trace, false, &err);
	report_free(r);
	return ret;
}

static bool dir_exists(const char *path)
{
	DIR *d = opendir(path);

	if (!d)
		return false;
	closedir(d);
	return true;
}

/*
 * data_dir() - where the shipped scenarios and machine profiles are: the
 * environment's MEMCGSIM_DATADIR if set; the source tree's scenarios/ when
 * this binary runs from its build tree (config.status beside it); else the
 * installed copy.
 */
static const char *data_dir(void)
{
	static char path[1200];
	const char *env = getenv("MEMCGSIM_DATADIR");
	char exe[1024];
	ssize_t len;

	if (env && *env)
		return env;
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		snprintf(path, sizeof(path), "%s/config.status", dirname(exe));
		if (!access(path, R_OK)) {
			snprintf(path, sizeof(path), "%s/scenarios",
				 MEMCGSIM_SRCDIR);
			if (dir_exists(path))
				return path;
		}
	}
	return MEMCGSIM_DATADIR;
}

/*
 * plots_dir() - where the gnuplot scripts are: $MEMCGSIM_PLOTSDIR if set;
 * the source tree's plots/ when data_dir() is the source tree's
 * scenarios/ (run from the build tree); else plots/ in the data directory
 * ($(pkgdatadir)/plots, where `make install` puts them).
 */
static const char *plots_dir(void)
{
	static char path[1200];
	const char *env = getenv("MEMCGSIM_PLOTSDIR");
	char src[1200];

	if (env && *env)
		return env;
	snprintf(src, sizeof(src), "%s/scenarios", MEMCGSIM_SRCDIR);
	if (!strcmp(data_dir(), src))
		snprintf(path, sizeof(path), "%s/plots", MEMCGSIM_SRCDIR);
	else
		snprintf(path, sizeof(path), "%s/plots", data_dir());
	return path;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_dir(const char *base, const char *sub)
{
	char path[1200], *names[512];
	struct dirent *de;
	unsigned int n = 0, i;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", base, sub);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d)) && n < 512) {
		size_t len = strlen(de->d_name);

		if (len > 5 && !strcmp(de->d_name + len - 5, ".yaml"))
			names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), name_cmp);
	for (i = 0; i < n; i++) {
		if (names[i])
			printf("  %s/%s/%s\n", base, sub, names[i]);
		free(names[i]);
	}
}

static int cmd_list(void)
{
	const char *dir = data_dir();
	char *subs[64];
	unsigned int n = 0, i;
	struct dirent *de;
	DIR *d;

	printf("Machine profiles (use as `machine: NAME` without .yaml):\n");
	list_dir(dir, "machines");
	d = opendir(dir);
	while (d && n < 64 && (de = readdir(d))) {
		char path[1200];

		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (de->d_name[0] != '.' && strcmp(de->d_name, "machines") &&
		    dir_exists(path))
			subs[n++] = strdup(de->d_name);
	}
	if (d)
		closedir(d);
	qsort(subs, n, sizeof(*subs), name_cmp);
	for (i = 0; i < n; i++) {
		if (subs[i]) {
			printf("Scenarios in %s/:\n", subs[i]);
			list_dir(dir, subs[i]);
		}
		free(subs[i]);
	}
	return EXIT_SUCCESS;
}

enum { OPT_SEED = 256, OPT_TRACE, OPT_LINES, OPT_VERSION, OPT_MARKDOWN };
enum { OPT_TOLERANCE = 300, OPT_METRIC, OPT_ALL };
enum { OPT_VARY = 400, OPT_PLAN, OPT_POINT, OPT_FORCE };
enum { OPT_NO_PLOTS = 500 };

static const struct option long_opts[] = {
	{ "variant", required_argument, NULL, 'v' },
	{ "set", required_argument, NULL, 's' },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "replications", required_argument, NULL, 'r' },
	{ "format", required_argument, NULL, 'f' },
	{ "out", required_argument, NULL, 'o' },
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "lines", required_argument, NULL, OPT_LINES },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "markdown", no_argument, NULL, OPT_MARKDOWN },
	{ "tolerance", required_argument, NULL, OPT_TOLERANCE },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "vary", required_argument, NULL, OPT_VARY },
	{ "jobs", required_argument, NULL, 'j' },
	{ "plan", no_argument, NULL, OPT_PLAN },
	{ "point", required_argument, NULL, OPT_POINT },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "no-plots", no_argument, NULL, OPT_NO_PLOTS },
	{ NULL, 0, NULL, 0 },
};

static bool parse_uint(const char *s, unsigned long long max,
		       unsigned long long *out)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return !errno && !*end && *out <= max;
}

/* A decimal percentage >= 0, with or without a '%' sign. */
static bool parse_percent(const char *s, double *out)
{
	char *end;

	if ((*s < '0' || *s > '9') && *s != '.')
		return false;
	errno = 0;
	*out = strtod(s, &end);
	if (*end == '%')
		end++;
	return !errno && end != s && !*end && isfinite(*out) && *out >= 0;
}

static int parse_options(struct cli *c, int argc, char **argv)
{
	unsigned long long v;
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":v:s:r:f:o:qhj:", long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'v':
			c->o.variant = optarg;
			break;
		case 's':
			if (c->o.nr_sets == MAX_SETS)
				return usage_error("too many --set options (at most %s)",
						   "256");
			if (!strchr(optarg, '='))
				return usage_error("--set: expected KEY=VALUE, found '%s'",
						   optarg);
			c->sets[c->o.nr_sets++] = optarg;
			break;
		case OPT_SEED:
			if (!parse_uint(optarg, UINT64_MAX, &v))
				return usage_error("--seed: expected a non-negative integer, found '%s'",
						   optarg);
			c->o.seed = v;
			c->o.seed_set = true;
			break;
		case 'r':
			if (!parse_uint(optarg, 1000, &v) || !v)
				return usage_error("--replications: expected an integer from 1 to 1000, found '%s'",
						   optarg);
			c->o.replications = (unsigned int)v;
			break;
		case 'f':
			if (c->plot) {
				if (strcmp(optarg, "png") && strcmp(optarg, "svg") &&
				    strcmp(optarg, "both"))
					return usage_error("--format: expected png, svg or both, found '%s'",
							   optarg);
				c->plot_format = optarg;
			} else if (!strcmp(optarg, "table"))
				c->format = REPORT_TABLE;
			else if (!strcmp(optarg, "yaml"))
				c->format = REPORT_YAML;
			else if (!strcmp(optarg, "csv"))
				c->format = REPORT_CSV;
			else
				return usage_error("--format: expected table, yaml or csv, found '%s'",
						   optarg);
			break;
		case 'o':
			c->out = optarg;
			break;
		case OPT_TRACE:
			c->trace = optarg;
			break;
		case OPT_LINES:
			if (!parse_uint(optarg, 64, &v))
				return usage_error("--lines: expected an integer from 0 to 64, found '%s'",
						   optarg);
			c->o.hot_lines = (unsigned int)v;
			break;
		case 'q':
			c->quiet = true;
			break;
		case 'h':
			usage(stdout);
			return -1;
		case OPT_VERSION:
			printf("memcgsim %s\n", PACKAGE_VERSION);
			return -1;
		case OPT_MARKDOWN:
			c->markdown = true;
			break;
		case OPT_TOLERANCE:
			if (!parse_percent(optarg, &c->tolerance))
				return usage_error("--tolerance: expected a percentage of 0 or more, found '%s'",
						   optarg);
			c->compare_opt = true;
			break;
		case OPT_METRIC:
			if (c->nr_metrics == MAX_METRICS)
				return usage_error("too many --metric options (at most %s)",
						   "64");
			c->metrics[c->nr_metrics++] = optarg;
			c->compare_opt = true;
			break;
		case OPT_ALL:
			c->all = true;
			c->compare_opt = true;
			break;
		case OPT_VARY:
			if (c->nr_varys == SWEEP_MAX_KEYS)
				return usage_error(
					"too many --vary options (at most %s)",
					"16");
			c->varys[c->nr_varys++] = optarg;
			c->sweep_opt = true;
			break;
		case 'j':
			if (!parse_uint(optarg, 1024, &v))
				return usage_error(
					"--jobs: expected an integer from 0 (one per CPU) to 1024, found '%s'",
					optarg);
			c->jobs = (unsigned int)v;
			if (!v) {
				long n = sysconf(_SC_NPROCESSORS_ONLN);

				c->jobs = 1;
				if (n > 0 && n <= 1024)
					c->jobs = (unsigned int)n;
			}
			c->sweep_opt = true;
			break;
		case OPT_PLAN:
			c->plan = true;
			c->sweep_opt = true;
			break;
		case OPT_POINT:
			if (!parse_uint(optarg, SWEEP_HARD_MAX_POINTS, &v))
				return usage_error(
					"--point: expected a point number, found '%s'",
					optarg);
			c->point = (long)v;
			c->sweep_opt = true;
			break;
		case OPT_FORCE:
			c->force = true;
			c->sweep_opt = true;
			break;
		case OPT_NO_PLOTS:
			c->no_plots = true;
			break;
		case ':':
			return usage_error("option '%s' needs a value",
					   argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	return 0;
}

/*
 * The program to name in --plan lines: this very binary, by absolute path
 * (the same path must work where the lines run), else plain "memcgsim".
 */
static void self_path(char *buf, size_t size)
{
	ssize_t len = readlink("/proc/self/exe", buf, size - 1);

	if (len > 0 && (size_t)len < size - 1) {
		buf[len] = '\0';
		return;
	}
	snprintf(buf, size, "memcgsim");
}

/* Exit status for a SWEEP_* failure. */
static int sweep_status(int ret)
{
	return ret == SWEEP_BAD_INPUT ? EXIT_BAD_INPUT : EXIT_RUN_FAILURE;
}

/* memcgsim merge DIR */
static int cmd_merge(struct cli *c, int nr_args, char **args)
{
	struct sim_error err;
	unsigned int nr;
	int ret;

	if (c->o.variant || c->o.nr_sets || c->o.seed_set ||
	    c->o.replications != 1 || c->out || c->trace ||
	    c->format != REPORT_TABLE || c->markdown || c->compare_opt ||
	    c->sweep_opt)
		return usage_error("merge: %s", "takes no options but --quiet");
	if (nr_args != 1)
		return nr_args ? usage_error("unexpected argument '%s'",
					     args[1]) :
				 usage_error("merge: %s", "missing DIR");
	sim_error_clear(&err);
	ret = sweep_merge(args[0], &nr, &err);
	if (ret) {
		sim_error_print(stderr, &err);
		return sweep_status(ret);
	}
	if (!c->quiet)
		fprintf(stderr,
			"memcgsim: merged %u points into %s/sweep.csv and sweep.yaml\n",
			nr, args[0]);
	return EXIT_SUCCESS;
}

/* The points: --plan, --point I, or all of them here and the merge. */
static int sweep_points(struct cli *c, struct sweep *s)
{
	struct progress pr = { .enabled = !c->quiet && isatty(2) };
	struct sim_error err;
	unsigned int done, nr;
	char exe[PATH_MAX];
	int ret, signo;

	sim_error_clear(&err);
	if (c->plan) {
		if (sweep_check_dir(s, &err))
			goto bad_input;
		self_path(exe, sizeof(exe));
		if (!sweep_plan(s, exe, stdout) && !c->quiet)
			fprintf(stderr,
				"memcgsim: every point is done; run memcgsim merge %s\n",
				s->dir);
		if (fflush(stdout)) {
			perror("memcgsim: stdout");
			return EXIT_RUN_FAILURE;
		}
		return EXIT_SUCCESS;
	}
	ret = sweep_prepare(s, &err);
	if (ret)
		goto failed;
	if (c->point >= 0) {
		if (sweep_point_done(s, (unsigned int)c->point) ||
		    !sweep_run_point(s, (unsigned int)c->point, &err))
			return EXIT_SUCCESS;
		sim_error_print(stderr, &err);
		return EXIT_RUN_FAILURE;
	}
	done = sweep_nr_done(s);
	if (!c->quiet)
		fprintf(stderr,
			"memcgsim: sweep of %u points into %s: %u done, %u to run on %u job%s\n",
			s->nr_points, s->dir, done, s->nr_points - done,
			c->jobs, c->jobs == 1 ? "" : "s");
	if (pr.enabled)
		clock_gettime(CLOCK_MONOTONIC, &pr.start);
	ret = sweep_run(s, c->jobs, pr.enabled ? sweep_progress : NULL, &pr,
			&signo, &err);
	if (pr.shown)
		fprintf(stderr, "\r%79s\r", "");
	if (ret) {
		sim_error_print(stderr, &err);
		return signo ? 128 + signo : EXIT_RUN_FAILURE;
	}
	ret = sweep_merge(s->dir, &nr, &err);
	if (ret)
		goto failed;
	if (!c->quiet)
		fprintf(stderr, "memcgsim: wrote %s/sweep.csv and sweep.yaml\n",
			s->dir);
	return EXIT_SUCCESS;

bad_input:
	ret = SWEEP_BAD_INPUT;
failed:
	sim_error_print(stderr, &err);
	return sweep_status(ret);
}

/* memcgsim sweep SCENARIO --vary KEY=V1,V2,... [...] */
static int cmd_sweep(struct cli *c, int nr_args, char **args)
{
	struct sim_error err;
	struct sweep s;
	unsigned int i;
	int ret = EXIT_BAD_INPUT;

	if (c->o.variant || c->trace || c->format != REPORT_TABLE ||
	    c->markdown || c->compare_opt || c->o.hot_lines != 4)
		return usage_error(
			"sweep: %s",
			"takes no --variant, --format, --trace, --lines or --markdown (every variant runs; the results are YAML and CSV)");
	if (!nr_args)
		return usage_error("sweep: %s", "missing SCENARIO");
	if (nr_args > 1)
		return usage_error("unexpected argument '%s'", args[1]);
	if (c->plan && c->point >= 0)
		return usage_error("sweep: %s",
				   "--plan and --point do not go together");
	sim_error_clear(&err);
	sweep_init(&s);
	for (i = 0; i < c->nr_varys; i++)
		if (sweep_vary(&s, c->varys[i], &err))
			goto out_error;
	if (sweep_setup(&s, args[0], c->out, &c->o, c->force, &err))
		goto out_error;
	if (c->point >= (long)s.nr_points) {
		sim_error_set(
			&err, "", 0, 0,
			"--point: %ld is not a point of this sweep (0 to %u)",
			c->point, s.nr_points - 1);
		goto out_error;
	}
	if (sweep_check(&s, &err))
		goto out_error;
	ret = sweep_points(c, &s);
	goto out;

out_error:
	sim_error_print(stderr, &err);
out:
	sweep_destroy(&s);
	return ret;
}

/* The .yaml files of @dir, sorted, appended to @paths. */
static int dir_scenarios(const char *dir, char ***paths, unsigned int *nr)
{
	struct dirent **ents;
	int n, i;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		size_t len = strlen(ents[i]->d_name);
		char **grown;

		if (len > 5 && !strcmp(ents[i]->d_name + len - 5, ".yaml")) {
			grown = realloc(*paths, (*nr + 1) * sizeof(**paths));
			if (grown) {
				*paths = grown;
				if (asprintf(&grown[*nr], "%s/%s", dir,
					     ents[i]->d_name) >= 0)
					(*nr)++;
			}
		}
		free(ents[i]);
	}
	free(ents);
	return 0;
}

static int cmd_validate(struct cli *c, int nr_args, char **args)
{
	char **paths = NULL, def[1200];
	unsigned int nr = 0, i, misses = 0, failed = 0;
	struct validate_result *res = malloc(sizeof(*res));
	struct sim_error err;
	struct stat st;
	int j, ret = EXIT_SUCCESS;

	if (!res)
		return EXIT_FAILURE;
	if (c->o.variant || c->out || c->trace || c->format != REPORT_TABLE) {
		free(res);
		return usage_error("validate: %s", "takes no --variant, --out, --trace or --format");
	}
	snprintf(def, sizeof(def), "%s/validation", data_dir());
	if (!nr_args) {
		if (dir_scenarios(def, &paths, &nr)) {
			free(res);
			fprintf(stderr, "memcgsim: error: cannot read %s\n", def);
			return EXIT_BAD_INPUT;
		}
	}
	for (j = 0; j < nr_args; j++) {
		if (!stat(args[j], &st) && S_ISDIR(st.st_mode)) {
			if (dir_scenarios(args[j], &paths, &nr))
				goto bad_dir;
			continue;
		}
		{
			char **grown = realloc(paths, (nr + 1) * sizeof(*paths));

			if (!grown)
				goto bad_dir;
			paths = grown;
			paths[nr] = strdup(args[j]);
			if (!paths[nr])
				goto bad_dir;
			nr++;
		}
	}
	for (i = 0; i < nr; i++) {
		sim_error_clear(&err);
		if (validate_scenario(paths[i], &c->o, res, &err)) {
			sim_error_print(stderr, &err);
			ret = EXIT_BAD_INPUT;
			failed++;
			continue;
		}
		validate_print(stdout, res, c->markdown);
		if (!c->markdown && i + 1 < nr)
			putchar('\n');
		misses += res->misses + !res->order_ok;
	}
	if (!c->markdown && !failed)
		printf("%s\n", misses ? "validate: some predictions are outside their tolerance" :
					"validate: every prediction is within its tolerance");
	if (ret == EXIT_SUCCESS && misses)
		ret = EXIT_FAILURE;
	for (i = 0; i < nr; i++)
		free(paths[i]);
	free(paths);
	free(res);
	return ret;

bad_dir:
	fprintf(stderr, "memcgsim: error: cannot read '%s'\n", args[j]);
	for (i = 0; i < nr; i++)
		free(paths[i]);
	free(paths);
	free(res);
	return EXIT_BAD_INPUT;
}

/*
 * memcgsim compare OLD NEW: 0 when every value is within the tolerance,
 * 1 when not, 2 when a file cannot be read or is no memcgsim result.
 */
static int cmd_compare(struct cli *c, int nr_args, char **args)
{
	struct compare_opts opts = {
		.tolerance = c->tolerance,
		.metrics = c->metrics,
		.nr_metrics = c->nr_metrics,
		.all = c->all,
	};
	struct compare_file *old, *new = NULL;
	struct sim_error err;
	int ret = EXIT_BAD_INPUT;
	unsigned int i;

	if (c->o.variant || c->o.nr_sets || c->o.seed_set ||
	    c->o.replications != 1 || c->out || c->trace ||
	    c->format != REPORT_TABLE || c->markdown)
		return usage_error("compare: %s",
				   "takes only --tolerance, --metric and --all");
	if (nr_args < 2)
		return usage_error("compare: %s", nr_args ? "missing NEW" :
						     "missing OLD and NEW");
	if (nr_args > 2)
		return usage_error("unexpected argument '%s'", args[2]);
	if (!strcmp(args[0], "-") && !strcmp(args[1], "-"))
		return usage_error("compare: %s",
				   "only one of OLD and NEW can be '-' (standard input)");
	old = compare_load(args[0], &err);
	if (!old)
		goto out_error;
	new = compare_load(args[1], &err);
	if (!new)
		goto out_error;
	for (i = 0; i < c->nr_metrics; i++)
		if (compare_check_metric(old, new, c->metrics[i], &err))
			goto out_error;
	ret = compare_print(stdout, old, new, &opts, NULL);
	if (ret < 0) {
		fprintf(stderr, "memcgsim: error: compare: out of memory\n");
		ret = EXIT_BAD_INPUT;
	} else if (fflush(stdout)) {
		perror("memcgsim: stdout");
		ret = EXIT_BAD_INPUT;
	}
	goto out;

out_error:
	sim_error_print(stderr, &err);
out:
	compare_free(old);
	compare_free(new);
	return ret;
}

/*
 * memcgsim plot RESULTS: the pictures RESULTS supports (cli/plot.h),
 * the name of each file written on stdout.
 */
static int cmd_plot(struct cli *c, int nr_args, char **args)
{
	const char *fmt = c->plot_format ? c->plot_format : "both";
	struct plot_opts o = {
		.out_dir = c->out,
		.script_dir = plots_dir(),
		.png = strcmp(fmt, "svg") != 0,
		.svg = strcmp(fmt, "png") != 0,
		.heatmap_variant = c->o.variant,
		.written = c->quiet ? NULL : print_written,
	};
	struct sim_error err;
	int ret;

	if (c->trace || c->o.nr_sets || c->o.seed_set || c->markdown ||
	    c->o.replications != 1 || c->sweep_opt || c->compare_opt ||
	    c->no_plots)
		return usage_error("plot: %s",
				   "takes only --out, --format, --variant and --quiet");
	if (!nr_args)
		return usage_error("%s", "plot: missing RESULTS");
	if (nr_args > 1)
		return usage_error("unexpected argument '%s'", args[1]);
	sim_error_clear(&err);
	ret = plot_results(args[0], &o, &err);
	if (fflush(stdout) && !ret) {
		perror("memcgsim: stdout");
		return EXIT_RUN_FAILURE;
	}
	if (!ret)
		return EXIT_SUCCESS;
	sim_error_print(stderr, &err);
	return ret == -EINVAL ? EXIT_BAD_INPUT : EXIT_RUN_FAILURE;
}

/*
 * other_options() - refuse the options of another command: compare's
 * (unless @compare_ok) and sweep's. @cmd prefixes the message, if given.
 * Returns 0, or the exit status of the usage error printed.
 */
static int other_options(const struct cli *c, const char *cmd,
			 bool compare_ok)
{
	char msg[160];

	if (c->compare_opt && !compare_ok) {
		snprintf(msg, sizeof(msg), "%s%s--tolerance, --metric and --all are for compare",
			 cmd ? cmd : "", cmd ? ": " : "");
		return usage_error("%s", msg);
	}
	if (c->sweep_opt) {
		snprintf(msg, sizeof(msg), "%s%s--vary, --jobs, --plan, --point and --force are for sweep",
			 cmd ? cmd : "", cmd ? ": " : "");
		return usage_error("%s", msg);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static char default_path[1200];
	struct cli c = {
		.format = REPORT_TABLE,
		.o = { .replications = 1, .hot_lines = 4 },
		.jobs = 1,
		.point = -1,
	};
	const char *cmd = argc > 1 ? argv[1] : NULL;
	int ret;

	/* GSL's default handler aborts; every GSL status is checked. */
	gsl_set_error_handler_off();
	c.o.sets = c.sets;
	c.o.datadir = data_dir();
	if (!cmd || cmd[0] == '-') {
		/* No command: the default experiment, with any options. */
		ret = parse_options(&c, argc, argv);
		if (ret)
			return ret < 0 ? EXIT_SUCCESS : ret;
		if (optind < argc)
			return usage_error("unexpected argument '%s'", argv[optind]);
		ret = other_options(&c, NULL, false);
		if (ret)
			return ret;
		snprintf(default_path, sizeof(default_path), "%s/%s",
			 data_dir(), DEFAULT_EXPERIMENT);
		c.scenario = default_path;
		c.default_run = true;
		return cmd_run(&c);
	}
	if (!strcmp(cmd, "help")) {
		usage(stdout);
		return EXIT_SUCCESS;
	}
	if (!strcmp(cmd, "list"))
		return argc > 2 ? usage_error("unexpected argument '%s'", argv[2]) :
				  cmd_list();
	if (!strcmp(cmd, "validate")) {
		argc--;
		argv++;
		ret = parse_options(&c, argc, argv);
		if (ret)
			return ret < 0 ? EXIT_SUCCESS : ret;
		ret = other_options(&c, "validate", false);
		if (ret)
			return ret;
		return cmd_validate(&c, argc - optind, argv + optind);
	}
	if (!strcmp(cmd, "compare")) {
		argc--;
		argv++;
		ret = parse_options(&c, argc, argv);
		if (ret)
			return ret < 0 ? EXIT_SUCCESS : ret;
		ret = other_options(&c, "compare", true);
		if (ret)
			return ret;
		return cmd_compare(&c, argc - optind, argv + optind);
	}
	if (!strcmp(cmd, "plot")) {
		argc--;
		argv++;
		c.plot = true;
		ret = parse_options(&c, argc, argv);
		if (ret)
			return ret < 0 ? EXIT_SUCCESS : ret;
		return cmd_plot(&c, argc - optind, argv + optind);
	}
	if (!strcmp(cmd, "sweep") || !strcmp(cmd, "merge")) {
		argc--;
		argv++;
		ret = parse_options(&c, argc, argv);
		if (ret)
			return ret < 0 ? EXIT_SUCCESS : ret;
		if (!strcmp(cmd, "merge"))
			return cmd_merge(&c, argc - optind, argv + optind);
		return cmd_sweep(&c, argc - optind, argv + optind);
	}
	if (strcmp(cmd, "run") && strcmp(cmd, "explain"))
		return usage_error("unknown command '%s' (run, explain, validate, compare, sweep, merge, plot, list, help)",
				   cmd);
	c.explain = !strcmp(cmd, "explain");
	/* Options after the command; GNU getopt moves operands last. */
	argc--;
	argv++;
	ret = parse_options(&c, argc, argv);
	if (ret)
		return ret < 0 ? EXIT_SUCCESS : ret;
	ret = other_options(&c, cmd, false);
	if (ret)
		return ret;
	if (optind == argc)
		return usage_error("%s: missing SCENARIO", cmd);
	if (optind + 1 < argc)
		return usage_error("unexpected argument '%s'", argv[optind + 1]);
	c.scenario = argv[optind];
	if (c.explain && (c.out || c.format != REPORT_TABLE))
		return usage_error("%s: explain prints to the terminal; use run for --out and --format",
				   cmd);
	return cmd_run(&c);
}
