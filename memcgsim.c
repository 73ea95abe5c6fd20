// SPDX-License-Identifier: GPL-2.0-only
/*
 * memcgsim.c - the command line.
 *
 *	memcgsim                      the built-in default experiment
 *	memcgsim run SCENARIO ...     run and print results
 *	memcgsim explain SCENARIO ... run and explain the hot lines in words
 *	memcgsim list                 shipped scenarios and machine profiles
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "config.h"
#include "models/explain.h"
#include "models/run.h"
#include "models/validate.h"
#include "sim/report.h"
#include "sim/trace.h"

#define EXIT_RUN_FAILURE 1
#define EXIT_BAD_INPUT 2
#define MAX_SETS 256

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
	"the 6.0-rc1 charge path and the three 2022 fixes.\n"
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

static int parse_options(struct cli *c, int argc, char **argv)
{
	unsigned long long v;
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":v:s:r:f:o:qh", long_opts,
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
			if (!strcmp(optarg, "table"))
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

int main(int argc, char **argv)
{
	static char default_path[1200];
	struct cli c = {
		.format = REPORT_TABLE,
		.o = { .replications = 1, .hot_lines = 4 },
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
		snprintf(default_path, sizeof(default_path), "%s/%s",
			 data_dir(), DEFAULT_EXPERIMENT);
		c.scenario = default_path;
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
		return cmd_validate(&c, argc - optind, argv + optind);
	}
	if (strcmp(cmd, "run") && strcmp(cmd, "explain"))
		return usage_error("unknown command '%s' (run, explain, validate, list, help)",
				   cmd);
	c.explain = !strcmp(cmd, "explain");
	/* Options after the command; GNU getopt moves operands last. */
	argc--;
	argv++;
	ret = parse_options(&c, argc, argv);
	if (ret)
		return ret < 0 ? EXIT_SUCCESS : ret;
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
