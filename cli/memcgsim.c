// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli/memcgsim.c - the command line: the command table, each command's
 * option table, and the commands that are no more than a call.
 *
 *	memcgsim                      the built-in default experiment
 *	memcgsim run SCENARIO ...     run and print results
 *	memcgsim check SCENARIO...    check, and estimate what a run costs
 *	memcgsim explain SCENARIO ... run and explain the hot lines in words
 *	memcgsim list                 shipped scenarios and machine profiles
 *	memcgsim sweep SCENARIO --vary KEY=V1,V2,... ...
 *	                              run every combination (cmd/sweep/sweep.h)
 *	memcgsim merge DIR            join a sweep's per-point results
 *	memcgsim compare OLD NEW ...  compare two result files (cmd/compare/compare.h)
 *	memcgsim plot RESULTS ...     draw pictures with gnuplot (cmd/plot/plot.h)
 *	memcgsim host-run SCENARIO    on this host's kernel (cli/host_run.h)
 *	memcgsim help [COMMAND|keys [SECTION|all]]  the commands, one's
 *	                              options, the scenario's keys
 *
 * A command is one entry of commands[] (at the end of the file): its
 * name, the function that runs it, its option table and a line of help.
 * Each option is declared once, with the setter that parses it, in
 * cli/options.c; so is the parser, which also refuses another command's
 * options. The help texts and the man pages' generated parts are made
 * from these tables in cli/help.c.
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
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "config.h"
#include "cmd/explain/explain.h"
#include "cmd/list/list.h"
#include "cli/options.h"
#include "cmd/plot/plot.h"
#include "cmd/run/run.h"
#include "cmd/sweep/sweep.h"
#include "cmd/validate/validate.h"
#include "cmd/compare/compare.h"
#include "cmd/fit/fit.h"
#include "cmd/calibrate/calibrate.h"
#include "cli/host_run.h"
#include "cli/check.h"
#include "cli/default.h"
#include "cli/help.h"
#include "models/hw/machine.h"
#include "models/kernel/sim/config.h"
#include "sim/file.h"
#include "sim/report.h"
#include "sim/trace.h"
#include "sim/util.h"

#ifndef MEMCGSIM_DATADIR
#define MEMCGSIM_DATADIR "/usr/local/share/memcgsim"
#endif
#ifndef MEMCGSIM_SRCDIR
#define MEMCGSIM_SRCDIR "."
#endif

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
	fprintf(stderr,
		"\rmemcgsim: %3.0f%% done, %.1f s elapsed, about %.0f s left ",
		100.0 * done, t, t / done - t);
	fflush(stderr);
}

/*
 * --max-time: the whole command's wall time, from the start of the run,
 * asked by the run at its budget checks (cmd/run/run.h: time_up).
 */
struct deadline {
	struct progress clock;
	double limit_s;
};

static bool deadline_up(void *arg)
{
	struct deadline *d = arg;

	return elapsed(&d->clock) > d->limit_s;
}

/* Start @c's --max-time, if it has one, on @d: its runs ask deadline_up(). */
static void deadline_start(struct cli *c, struct deadline *d)
{
	d->limit_s = c->max_time_s;
	if (c->max_time_s <= 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &d->clock.start);
	c->o.time_up = deadline_up;
	c->o.time_up_arg = d;
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
};

static void inspect(void *arg, const char *variant, struct run *run)
{
	struct explain_ctx *x = arg;

	if (x->mem)
		explain_run(x->mem, variant, run, x->lines);
}

/* ---- plots ---- */

/* memcgsim plot: each file as it is written. */
static void print_written(void *arg, const char *path, bool picture)
{
	char shown[2 * PATH_MAX];

	printf("%s\n", sim_escape(shown, sizeof(shown), path));
}

/* @path with its directory resolved ("./x" and "x" alike), in @buf. */
static void resolve_dir(const char *path, char *buf, size_t size)
{
	char dir[PATH_MAX], base[PATH_MAX], real[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", path);
	snprintf(base, sizeof(base), "%s", path);
	if (realpath(dirname(dir), real))
		snprintf(buf, size, "%s/%s", real, basename(base));
	else
		snprintf(buf, size, "%s", path);
}

/*
 * Do @a and @b name one file: the same name once their directories are
 * resolved, or the same inode (a link)?
 */
static bool same_file(const char *a, const char *b)
{
	char ra[2 * PATH_MAX], rb[2 * PATH_MAX];
	struct stat sa, sb;

	if (!strcmp(a, b))
		return true;
	resolve_dir(a, ra, sizeof(ra));
	resolve_dir(b, rb, sizeof(rb));
	if (!strcmp(ra, rb))
		return true;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino && S_ISREG(sa.st_mode);
}

/* --out and --trace: neither names the other's file nor the scenario. */
static int run_outputs_check(const struct cli *c)
{
	if (c->trace && c->out && same_file(c->trace, c->out))
		return cli_usage_error(
			"--out and --trace name the same file '%s': one would overwrite the other",
			c->out);
	/* Refused at once when it is plain; its profiles are checked later. */
	if ((c->out && same_file(c->out, c->scenario)) ||
	    (c->trace && same_file(c->trace, c->scenario)))
		return cli_usage_error(
			"--out and --trace must not name the scenario '%s': it would be lost",
			c->scenario);
	return 0;
}

/* The progress line on a terminal, the long-run notice, --max-time. */
static void run_watch(struct cli *c, struct progress *pr,
		      struct cli_announce *an, struct deadline *dl)
{
	if (pr->enabled) {
		clock_gettime(CLOCK_MONOTONIC, &pr->start);
		c->o.progress = progress_update;
		c->o.progress_arg = pr;
	}
	cli_announce(c, an);
	deadline_start(c, dl);
}

/*
 * The results: with --explain the table then the lesson, else to --out
 * or stdout in --format (a default run's table ends with what to try
 * next). -1 when they could not be written (said).
 */
static int run_output(const struct cli *c, struct report *r,
		      struct explain_ctx *x)
{
	struct write_ctx w = { .r = r, .fmt = c->format };
	struct sim_error err;

	sim_error_clear(&err);
	if (c->explain) {
		fclose(x->mem);
		x->mem = NULL;
		/* The summary table, then the lesson. */
		if (report_write(r, REPORT_TABLE, stdout))
			return -1;
		fprintf(stdout, "\n%s", x->buf);
	} else if (c->out) {
		if (sim_write_atomic(c->out, write_report, &w, &err)) {
			sim_error_print(stderr, &err);
			return -1;
		}
	} else if (report_write(r, c->format, stdout)) {
		return -1;
	} else if (c->default_run && c->format == REPORT_TABLE) {
		cli_default_next(r);
	}
	return 0;
}

static int run_scenario(struct cli *c)
{
	struct explain_ctx x = { .lines = c->o.hot_lines };
	struct progress pr = { .enabled = !c->quiet && isatty(2) };
	struct cli_announce an = { 0 };
	struct deadline dl;
	struct report *r = NULL;
	struct sim_error err;
	int ret;

	sim_error_clear(&err);
	if (c->dry_run)
		return cli_run_dry_run(c);
	ret = run_outputs_check(c);
	if (ret)
		return ret;
	ret = EXIT_RUN_FAILURE;
	if (c->trace) {
		x.trace = sim_trace_open(c->trace, &err);
		if (!x.trace) {
			sim_error_print(stderr, &err);
			return EXIT_RUN_FAILURE;
		}
		c->o.trace = x.trace;
	}
	if (c->explain) {
		c->o.callers = true;
		x.mem = open_memstream(&x.buf, &x.len);
		if (!x.mem) {
			perror("memcgsim");
			goto out;
		}
	}
	c->o.inspect = inspect;
	c->o.inspect_arg = &x;
	/* Refused before any run when one resolves to an input. */
	c->o.outputs[0] = c->out;
	c->o.outputs[1] = c->trace;
	run_watch(c, &pr, &an, &dl);
	if (scenario_run(c->scenario, &c->o, &r, &err)) {
		progress_end(&pr);
		sim_error_print(stderr, &err);
		/* A trace that could not be written is no input's fault. */
		ret = sim_trace_flush(x.trace) ? EXIT_RUN_FAILURE :
						 EXIT_BAD_INPUT;
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
	if (run_output(c, r, &x))
		goto out;
	if (c->sens.nr && sensitivity_print(c->scenario, &c->o, &c->sens,
					    c->out || !c->format))
		goto out;
	if (fflush(stdout)) {
		perror("memcgsim: stdout");
		goto out;
	}
	if (c->default_run && !c->no_plots)
		cli_default_plots(c, r, c->plots);
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
static const char *data_dir(char *path, size_t size)
{
	const char *env = getenv("MEMCGSIM_DATADIR");
	char exe[1024];
	ssize_t len;

	if (env && *env)
		return env;
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		snprintf(path, size, "%s/config.status", dirname(exe));
		if (!access(path, R_OK)) {
			snprintf(path, size, "%s/scenarios", MEMCGSIM_SRCDIR);
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
static const char *plots_dir(const char *datadir, char *path, size_t size)
{
	const char *env = getenv("MEMCGSIM_PLOTSDIR");
	char src[1200];

	if (env && *env)
		return env;
	snprintf(src, sizeof(src), "%s/scenarios", MEMCGSIM_SRCDIR);
	if (!strcmp(datadir, src))
		snprintf(path, size, "%s/plots", MEMCGSIM_SRCDIR);
	else
		snprintf(path, size, "%s/plots", datadir);
	return path;
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
	char shown[PATH_MAX];
	unsigned int nr;
	int ret;

	if (nr_args != 1)
		return nr_args ? cli_usage_error("unexpected argument '%s'",
						 args[1]) :
				 cli_usage_error("merge: %s", "missing DIR");
	sim_error_clear(&err);
	ret = sweep_merge(args[0], &nr, &err);
	if (ret) {
		sim_error_print(stderr, &err);
		return sweep_status(ret);
	}
	if (!c->quiet)
		fprintf(stderr,
			"memcgsim: merged %u points into %s/sweep.csv and sweep.yaml\n",
			nr, sim_escape(shown, sizeof(shown), args[0]));
	return EXIT_SUCCESS;
}

/* The points: --plan, --point I, or all of them here and the merge. */
static int sweep_points(struct cli *c, struct sweep *s)
{
	struct progress pr = { .enabled = !c->quiet && isatty(2) };
	struct sim_error err;
	unsigned int done, nr;
	char exe[PATH_MAX], shown[PATH_MAX];
	int ret, signo;
	long lines;

	sim_error_clear(&err);
	if (c->plan) {
		self_path(exe, sizeof(exe));
		if (sweep_check_exe(exe, &err))
			goto bad_input;
		/* The lines read DIR/sweep.meta: write it first. */
		ret = sweep_prepare(s, &err);
		if (ret)
			goto failed;
		lines = sweep_plan(s, exe, stdout, &err);
		if (lines < 0)
			goto bad_input;
		if (!lines && !c->quiet)
			fprintf(stderr,
				"memcgsim: every point is done; run memcgsim merge %s\n",
				sim_escape(shown, sizeof(shown), s->dir));
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
			s->nr_points, sim_escape(shown, sizeof(shown), s->dir),
			done, s->nr_points - done, c->jobs,
			c->jobs == 1 ? "" : "s");
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
			sim_escape(shown, sizeof(shown), s->dir));
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
	struct deadline dl;
	struct sim_error err;
	struct sweep s;
	unsigned int i;
	int ret = EXIT_BAD_INPUT;

	if (!nr_args)
		return cli_usage_error("sweep: %s", "missing SCENARIO");
	if (nr_args > 1)
		return cli_usage_error("unexpected argument '%s'", args[1]);
	if (c->plan && c->point >= 0)
		return cli_usage_error("sweep: %s",
				       "--plan and --point do not go together");
	sim_error_clear(&err);
	deadline_start(c, &dl); /* the whole sweep's, its checks included */
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
	s.warn_overrides = !c->plan && c->point < 0;
	if (sweep_check(&s, &err))
		goto out_error;
	if (c->dry_run) {
		ret = cli_sweep_dry_run(c, &s);
		goto out;
	}
	ret = sweep_points(c, &s);
	goto out;

out_error:
	sim_error_print(stderr, &err);
out:
	sweep_destroy(&s);
	return ret;
}

static int cmd_validate(struct cli *c, int nr_args, char **args)
{
	char **paths = NULL, def[1200], shown[1200];
	unsigned int nr = 0, i, misses = 0, failed = 0;
	struct validate_result *res = malloc(sizeof(*res));
	struct sim_error err;
	struct deadline dl;
	struct stat st;
	int j, ret = EXIT_SUCCESS;

	if (!res)
		return EXIT_FAILURE;
	snprintf(def, sizeof(def), "%s/validation", c->o.datadir);
	if (!nr_args) {
		if (validate_dir_scenarios(def, &paths, &nr) || !nr) {
			free(res);
			fprintf(stderr,
				"memcgsim: error: cannot read %s, or it holds no scenario (*.yaml)\n",
				sim_escape(shown, sizeof(shown), def));
			return EXIT_BAD_INPUT;
		}
	}
	for (j = 0; j < nr_args; j++) {
		if (!stat(args[j], &st) && S_ISDIR(st.st_mode)) {
			unsigned int before = nr;

			if (validate_dir_scenarios(args[j], &paths, &nr))
				goto bad_dir;
			if (nr == before)
				goto empty_dir;
			continue;
		}
		{
			char **grown =
				realloc(paths, (nr + 1) * sizeof(*paths));

			if (!grown)
				goto bad_dir;
			paths = grown;
			paths[nr] = strdup(args[j]);
			if (!paths[nr])
				goto bad_dir;
			nr++;
		}
	}
	/*
	 * --max-time bounds the whole command: a scenario whose run is
	 * stopped is an error, as in run, and no scenario starts after it
	 * (the tables of those done are printed, each whole).
	 */
	deadline_start(c, &dl);
	for (i = 0; i < nr; i++) {
		sim_error_clear(&err);
		if (c->max_time_s > 0 && deadline_up(&dl))
			goto timed_out;
		if (validate_scenario(paths[i], &c->o, res, &err)) {
			sim_error_print(stderr, &err);
			ret = EXIT_BAD_INPUT;
			failed++;
			if (c->max_time_s > 0 && deadline_up(&dl))
				goto timed_out; /* the rest would stop too */
			continue;
		}
		validate_print(stdout, res, c->markdown);
		if (c->sens.nr &&
		    sensitivity_print(paths[i], &c->o, &c->sens, 1))
			ret = EXIT_BAD_INPUT;
		if (!c->markdown && i + 1 < nr)
			putchar('\n');
		misses += res->misses + !res->order_ok;
	}
	if (!c->markdown && !failed)
		printf("%s\n",
		       misses ?
			       "validate: some predictions are outside their tolerance" :
			       "validate: every prediction is within its tolerance");
	if (ret == EXIT_SUCCESS && misses)
		ret = EXIT_FAILURE;
	goto out_free;
timed_out:
	fprintf(stderr,
		"memcgsim: error: validate: stopped at --max-time after %u of %u scenarios; raise --max-time\n",
		i, nr);
	ret = EXIT_BAD_INPUT;
out_free:
	for (i = 0; i < nr; i++)
		free(paths[i]);
	free(paths);
	free(res);
	return ret;

empty_dir:
	/* Nothing validated is no pass: refuse before anything runs. */
	fprintf(stderr,
		"%s: error: no scenario to validate: validate reads the *.yaml files of a directory (not .yml, not subdirectories), and it has none\n",
		sim_escape(shown, sizeof(shown), args[j]));
	goto out_bad;
bad_dir:
	fprintf(stderr, "memcgsim: error: cannot read '%s'\n",
		sim_escape(shown, sizeof(shown), args[j]));
out_bad:
	for (i = 0; i < nr; i++)
		free(paths[i]);
	free(paths);
	free(res);
	return EXIT_BAD_INPUT;
}

/*
 * memcgsim compare OLD NEW...: 0 when no file is worse than OLD (nor
 * changed in a metric without a direction, nor missing something), 1
 * when one is, 2 when a file cannot be read or is no memcgsim result.
 */
static int cmd_compare(struct cli *c, int nr_args, char **args)
{
	struct compare_opts opts = {
		.tolerance = c->tolerance,
		.metrics = c->metrics,
		.nr_metrics = c->nr_metrics,
		.all = c->all,
	};
	struct compare_file *files[COMPARE_MAX_FILES] = { NULL };
	struct sim_error err;
	int ret = EXIT_BAD_INPUT, i, nr_stdin = 0;
	unsigned int m;

	if (nr_args < 2)
		return cli_usage_error("compare: %s",
				       nr_args ? "missing NEW" :
						 "missing OLD and NEW");
	if (nr_args > COMPARE_MAX_FILES)
		return cli_usage_error(
			"compare: at most 16 files (OLD and 15 NEW); unexpected argument '%s'",
			args[COMPARE_MAX_FILES]);
	for (i = 0; i < nr_args; i++)
		nr_stdin += !strcmp(args[i], "-");
	if (nr_stdin > 1)
		return cli_usage_error(
			"compare: %s",
			"only one of OLD and NEW can be '-' (standard input)");
	for (i = 0; i < nr_args; i++) {
		files[i] = compare_load(args[i], &err);
		if (!files[i])
			goto out_error;
	}
	for (m = 0; m < c->nr_metrics; m++)
		if (compare_check_metric(
			    (const struct compare_file *const *)files,
			    (unsigned int)nr_args, c->metrics[m], &err))
			goto out_error;
	ret = compare_print(stdout, (const struct compare_file *const *)files,
			    (unsigned int)nr_args, &opts, NULL);
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
	for (i = 0; i < nr_args; i++)
		compare_free(files[i]);
	return ret;
}

/*
 * memcgsim plot RESULTS: the pictures RESULTS supports (cmd/plot/plot.h),
 * the name of each file written on stdout.
 */
static int cmd_plot(struct cli *c, int nr_args, char **args)
{
	const char *fmt = c->plot_format ? c->plot_format : "both";
	struct plot_opts o = {
		.out_dir = c->out,
		.script_dir = c->plots,
		.png = strcmp(fmt, "svg") != 0,
		.svg = strcmp(fmt, "png") != 0,
		.heatmap_variant = c->o.variant,
		.metric = c->plot_metric,
		.x_key = c->plot_x,
		.written = c->quiet ? NULL : print_written,
	};
	struct sim_error err;
	int ret;

	if (!nr_args)
		return cli_usage_error("%s", "plot: missing RESULTS");
	if (nr_args > 1)
		return cli_usage_error("unexpected argument '%s'", args[1]);
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

/* ---- run, explain, the default experiment, list ---- */

/* memcgsim run SCENARIO, memcgsim explain SCENARIO */
static int run_or_explain(struct cli *c, const char *cmd, int nr_args,
			  char **args)
{
	if (!nr_args)
		return cli_usage_error("%s: missing SCENARIO", cmd);
	if (nr_args > 1)
		return cli_usage_error("unexpected argument '%s'", args[1]);
	c->scenario = args[0];
	if (c->explain && (c->out || c->format != REPORT_TABLE))
		return cli_usage_error(
			"%s: explain prints to the terminal; use run for --out and --format",
			cmd);
	return run_scenario(c);
}

static int cmd_run(struct cli *c, int nr_args, char **args)
{
	return run_or_explain(c, "run", nr_args, args);
}

static int cmd_explain(struct cli *c, int nr_args, char **args)
{
	c->explain = true;
	return run_or_explain(c, "explain", nr_args, args);
}

/* memcgsim with no command: charge-batch-2022, and its plots. */
static int cmd_default(struct cli *c, int nr_args, char **args)
{
	if (nr_args)
		return cli_usage_error("unexpected argument '%s'", args[0]);
	snprintf(c->default_scenario, sizeof(c->default_scenario), "%s/%s",
		 c->o.datadir, DEFAULT_EXPERIMENT);
	c->scenario = c->default_scenario;
	c->default_run = true;
	return run_scenario(c);
}

static int cmd_fit_own(int argc, char **argv)
{
	char datadir[1200];

	return cmd_fit(argc, argv, data_dir(datadir, sizeof(datadir)));
}

static int cmd_list(struct cli *c, int nr_args, char **args)
{
	if (nr_args)
		return cli_usage_error("unexpected argument '%s'", args[0]);
	return list_shipped(stdout, c->o.datadir);
}

/* What run and the default experiment share (the latter adds
 * --no-plots, run --dry-run). */
#define RUN_COMMON_OPTIONS                                                 \
	&opt_variant, &opt_set, &opt_seed, &opt_replications, &opt_format, \
		&opt_out, &opt_trace, &opt_trace_variant, &opt_trace_from, \
		&opt_trace_to, &opt_lines, &opt_quiet, &opt_max_memory,    \
		&opt_max_events, &opt_max_time

static const struct cli_option *const run_options[] = {
	RUN_COMMON_OPTIONS, &opt_dry_run,  &opt_sensitivity,
	&opt_all_metrics,   &opt_no_plots, NULL,
};

static const struct cli_option *const check_options[] = {
	&opt_variant,	 &opt_set,	  &opt_seed,	 &opt_replications,
	&opt_max_memory, &opt_max_events, &opt_no_plots, NULL,
};

static const struct cli_option *const default_options[] = {
	RUN_COMMON_OPTIONS,
	&opt_no_plots,
	&opt_all_metrics,
	NULL,
};

static const struct cli_option *const validate_options[] = {
	&opt_set,
	&opt_seed,
	&opt_replications,
	&opt_markdown,
	&opt_quiet,
	&opt_max_memory,
	&opt_max_events,
	&opt_sensitivity,
	&opt_no_plots,
	&opt_max_time,
	NULL,
};

static const struct cli_option *const sweep_options[] = {
	&opt_vary,
	&opt_jobs,
	&opt_sweep_out,
	&opt_plan,
	&opt_point,
	&opt_force,
	&opt_set,
	&opt_seed,
	&opt_replications,
	&opt_quiet,
	&opt_max_memory,
	&opt_max_events,
	&opt_dry_run,
	&opt_no_plots,
	&opt_variant,
	&opt_max_time,
	NULL,
};

static const struct cli_option *const merge_options[] = {
	&opt_quiet,
	&opt_no_plots,
	NULL,
};

static const struct cli_option *const compare_options[] = {
	&opt_tolerance, &opt_metric, &opt_all, &opt_quiet, &opt_no_plots, NULL,
};

static const struct cli_option *const plot_options[] = {
	&opt_plot_out,
	&opt_plot_format,
	&opt_plot_variant,
	&opt_plot_metric,
	&opt_plot_x,
	&opt_quiet,
	NULL,
};

/* --no-plots: accepted by every command but plot, which draws none */
static const struct cli_option *const list_options[] = {
	&opt_no_plots,
	NULL,
};

static const struct cli_option *const help_options[] = {
	&opt_help_format,
	&opt_no_plots,
	NULL,
};

static int cmd_help(struct cli *c, int nr_args, char **args);

/*
 * The commands, in the order `memcgsim help` and the unknown-command error
 * list them, after the default. A command that parses its own options has .own instead of .fn
 * and no option table.
 */
static const struct cli_command commands[] = {
	{
		/* memcgsim with no command: commands[0] */
		.name = "",
		.fn = cmd_default,
		.options = default_options,
		.args = "",
		.doc = "run the built-in default experiment, charge-batch-2022, and draw its plots",
	},
	{
		.name = "run",
		.fn = cmd_run,
		.options = run_options,
		.args = "SCENARIO",
		.doc = "run every variant and print the results",
	},
	{
		.name = "check",
		.fn = cmd_check,
		.options = check_options,
		.args = "SCENARIO...",
		.doc = "load and check each scenario and every variant without running them, and print what each run would cost: events, work (operations, loop iterations, pages charged), peak memory, wall time on this machine; exit 2 when one does not check or is estimated past --max-memory or --max-events (its first error located)",
	},
	{
		.name = "explain",
		.fn = cmd_explain,
		.options = run_options,
		.args = "SCENARIO",
		.doc = "run, then explain where the time went: by kernel function, and the hottest cache lines in words",
	},
	{
		.name = "validate",
		.fn = cmd_validate,
		.options = validate_options,
		.args = "[SCENARIO|DIR]...",
		.doc = "compare predicted and published changes (default: the shipped validation/ scenarios); exit 1 when a prediction is outside its tolerance",
	},
	{
		.name = "compare",
		.fn = cmd_compare,
		.options = compare_options,
		.args = "OLD NEW...",
		.doc = "compare result files (run -f yaml|csv, or a sweep's DIR/sweep.csv or sweep.yaml; DIR: its sweep.csv) metric by metric with the first; print the values that changed, better or worse by each metric's direction; exit 1 when one is worse by more than the tolerance (and outside the 95% CIs), changed in a metric without a direction, or in one file only",
		.refuse = "takes only --tolerance, --metric and --all",
	},
	{
		.name = "sweep",
		.fn = cmd_sweep,
		.options = sweep_options,
		.args = "SCENARIO --vary KEY=V1,V2,...",
		.doc = "run every variant at every combination of the values, into DIR/sweep.csv and DIR/sweep.yaml",
	},
	{
		.name = "merge",
		.fn = cmd_merge,
		.options = merge_options,
		.args = "DIR",
		.doc = "join the per-point results of a sweep run by its --plan lines into DIR/sweep.csv and sweep.yaml",
		.refuse = "takes no options but --quiet",
	},
	{
		.name = "plot",
		.fn = cmd_plot,
		.options = plot_options,
		.args = "RESULTS",
		.doc = "draw pictures of results with gnuplot: RESULTS is a run's YAML (run -f yaml -o FILE), or a sweep's DIR or DIR/sweep.csv; prints the files written",
		.refuse =
			"takes only --out, --format, --variant, --metric, --x and --quiet",
	},
	{
		/* cmd/calibrate/calibrate.c parses its own options */
		.name = "calibrate",
		.own = cmd_calibrate,
		.args = "[--quick] [-o PROFILE]",
		.doc = "measure this host with pinned microbenchmarks and write a machine profile (calibrate --help: --check PROFILE [MEASUREMENTS] puts the model beside measurements)",
	},
	{
		/* cmd/fit/fit.c parses its own options */
		.name = "fit",
		.own = cmd_fit_own,
		.args = "SCENARIO --key KEY --to VARIANT=VALUE",
		.doc = "find the value of KEY (usually a workload's work_ns) that makes VARIANT's metric match a measured VALUE, by bisection with replications; print it with its interval, --write a copy of the scenario with it (fit --help)",
	},
	{
		.name = "host-run",
		.fn = cmd_host_run,
		.options = host_run_options,
		.args = "SCENARIO",
		.doc = "run the scenario's variants on this host's kernel, in real cgroups (root needed), and print CPU time per operation and ops/s with 95% CIs beside the model's prediction (doc/host-run.md)",
	},
	{
		.name = "list",
		.fn = cmd_list,
		.options = list_options,
		.args = "",
		.doc = "list the shipped scenarios and machine profiles",
	},
	{
		.name = "help",
		.fn = cmd_help,
		.options = help_options,
		.args = "[COMMAND|keys [SECTION|all]]",
		.doc = "this text; a command's options; the scenario's keys: kernel: by default, or SECTION's (scenario, variants, published, workloads, a workload type, cgroups, machine, coherence, latencies) or all",
	},
};

static const struct cli_command *command_find(const char *name)
{
	size_t i;

	for (i = 1; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/*
 * memcgsim help [COMMAND|keys [SECTION|all]] (cli/help.c); the man pages
 * are the source tree's when data_dir() is (run from the build tree).
 */
static int cmd_help(struct cli *c, int nr_args, char **args)
{
	char src[1200];

	snprintf(src, sizeof(src), "%s/scenarios", MEMCGSIM_SRCDIR);
	return cli_help(c, commands, ARRAY_SIZE(commands),
			strcmp(c->o.datadir, src) ? NULL : MEMCGSIM_SRCDIR,
			nr_args, args);
}

/* "unknown command 'frob' (run, explain, ..., help)" */
static int unknown_command(const char *name)
{
	const char *names[ARRAY_SIZE(commands)], *near;
	size_t i, len, n = strlen(name);
	char msg[512];

	/* a scenario given without its command: run it */
	if (n > 5 && !strcmp(name + n - 5, ".yaml"))
		return cli_usage_error(
			"unknown command '%s'; to run a scenario: memcgsim run SCENARIO",
			name);
	for (i = 1; i < ARRAY_SIZE(commands); i++)
		names[i - 1] = commands[i].name;
	near = sim_nearest(name, names, (unsigned int)ARRAY_SIZE(commands) - 1);
	if (near) {
		snprintf(msg, sizeof(msg),
			 "unknown command '%%s'; did you mean '%s'?", near);
		return cli_usage_error(msg, name);
	}
	len = (size_t)snprintf(msg, sizeof(msg), "unknown command '%%s' (");
	for (i = 1; i < ARRAY_SIZE(commands) && len < sizeof(msg); i++)
		len += (size_t)snprintf(msg + len, sizeof(msg) - len, "%s%s",
					i > 1 ? ", " : "", commands[i].name);
	if (len < sizeof(msg))
		snprintf(msg + len, sizeof(msg) - len, ")");
	return cli_usage_error(msg, name);
}

static int main_caught(int argc, char **argv)
{
	const struct cli_command *cmd = &commands[0];
	struct cli c = {
		.format = REPORT_TABLE,
		.o = { .replications = 1, .hot_lines = 4 },
		.jobs = 1,
		.point = -1,
	};
	int first, ret;

	/* GSL's default handler aborts; every GSL status is checked. */
	gsl_set_error_handler_off();
	c.o.sets = c.sets;
	c.o.datadir = data_dir(c.datadir_buf, sizeof(c.datadir_buf));
	c.plots = plots_dir(c.o.datadir, c.plots_buf, sizeof(c.plots_buf));
	if (argc > 1 && argv[1][0] != '-') {
		cmd = command_find(argv[1]);
		if (!cmd)
			return unknown_command(argv[1]);
		/* Options after the command; GNU getopt moves operands last. */
		argc--;
		argv++;
	}
	if (cmd->own)
		return cmd->own(argc, argv);
	ret = cli_parse(cmd, commands, ARRAY_SIZE(commands), &c, argc, argv,
			&first);
	if (ret == CLI_HELP) {
		cli_command_help(stdout, cmd, commands, ARRAY_SIZE(commands));
		return EXIT_SUCCESS;
	}
	if (ret == CLI_VERSION) {
		printf("memcgsim %s\n", PACKAGE_VERSION);
		return EXIT_SUCCESS;
	}
	if (ret)
		return ret;
	return cmd->fn(&c, argc - first, argv + first);
}

int main(int argc, char **argv)
{
	/* An allocation that fails unwinds here (sim/error.h): exit 1 */
	return sim_oom_main(main_caught, argc, argv, EXIT_RUN_FAILURE);
}
