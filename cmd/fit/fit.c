// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/fit/fit.c - memcgsim fit: one key's value that makes one variant
 * match a measured value, by bisection with replications. See
 * cmd/fit/fit.h for the method and its interval.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/fit/fit.h"
#include "cmd/run/run.h"
#include "cmd/usage.h"
#include "sim/error.h"
#include "sim/file.h"
#include "sim/report.h"
#include "sim/scenario.h"

#define EXIT_FIT_OUTSIDE 1
#define EXIT_FIT_BAD_INPUT 2
#define FIT_MAX_SETS 256
#define FIT_DEFAULT_STEPS 16
#define FIT_DEFAULT_REPS 3
#define FIT_REL_WIDTH 1e-3 /* stop when the bracket is this narrow */

static const char usage_text[] =
	"usage: memcgsim fit SCENARIO --key KEY --to VARIANT=VALUE [options]\n"
	"\n"
	"Find the value of KEY (as --set KEY=X) that makes VARIANT's metric\n"
	"equal VALUE, by bisection, each point run with replications; print\n"
	"it with its 95% interval. The metric must move one way over the range.\n"
	"\n"
	"  --key KEY           the key to fit, e.g. workloads.0.work_ns\n"
	"  --to VARIANT=VALUE  the variant and the measured value to match\n"
	"  --metric M          the metric (default throughput)\n"
	"  --range LO,HI       the values to search (default: a tenth to ten\n"
	"                      times KEY's value in the scenario)\n"
	"  -r, --replications N  runs per point (default 3)\n"
	"  --steps N           bisection steps at most (default 16)\n"
	"  --set KEY=VALUE     as for run, applied under the fitted key\n"
	"  --seed N            as for run\n"
	"  --write FILE        write a copy of the scenario with KEY's value\n"
	"                      replaced (KEY must be written in the scenario)\n"
	"  -q, --quiet         no line per step on stderr\n"
	"\n"
	"Exit status: 0 fitted, 1 VALUE outside what the range gives, 2 bad input.\n";

struct fit_opts {
	const char *scenario, *key, *variant, *metric, *write;
	double target, lo, hi;
	bool range_set, quiet, seed_set;
	unsigned int replications, steps, nr_sets;
	uint64_t seed;
	const char *sets[FIT_MAX_SETS + 1];
	const char *datadir;
	bool integer; /* the key's value in the file is an integer count */
};

/* @s with each control character as '?': text from argv or a file. */
static void put_clean(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
}

/* A usage error of fit (cmd/usage.h); its exit status. */
#define usage_error(...) cmd_usage_error("fit", EXIT_FIT_BAD_INPUT, __VA_ARGS__)

static bool parse_double(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return !errno && end != s && !*end && isfinite(*out);
}

static bool parse_count(const char *s, unsigned int max, unsigned int *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || !v || v > max)
		return false;
	*out = (unsigned int)v;
	return true;
}

/* --to VARIANT=VALUE */
static int parse_to(struct fit_opts *o, const char *arg)
{
	const char *eq = strrchr(arg, '=');
	static char name[128];

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(name) ||
	    !parse_double(eq + 1, &o->target))
		return usage_error("--to: expected VARIANT=VALUE, found '%s'",
				   arg);
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	o->variant = name;
	return 0;
}

/* --range LO,HI with 0 < LO < HI */
static int parse_range(struct fit_opts *o, const char *arg)
{
	const char *comma = strchr(arg, ',');
	char lo[64];

	if (!comma || (size_t)(comma - arg) >= sizeof(lo))
		goto bad;
	memcpy(lo, arg, (size_t)(comma - arg));
	lo[comma - arg] = '\0';
	if (!parse_double(lo, &o->lo) || !parse_double(comma + 1, &o->hi) ||
	    !(o->lo > 0 && o->lo < o->hi))
		goto bad;
	o->range_set = true;
	return 0;
bad:
	return usage_error(
		"--range: expected LO,HI with 0 < LO < HI, found '%s'", arg);
}

/* Options into @o; 0, -1 after --help, or the exit status of an error. */
static int parse_args(int argc, char **argv, struct fit_opts *o)
{
	static const struct option longopts[] = {
		{ "key", required_argument, NULL, 'k' },
		{ "to", required_argument, NULL, 't' },
		{ "metric", required_argument, NULL, 'm' },
		{ "range", required_argument, NULL, 'R' },
		{ "replications", required_argument, NULL, 'r' },
		{ "steps", required_argument, NULL, 'S' },
		{ "set", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'e' },
		{ "write", required_argument, NULL, 'w' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "no-plots", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long seed;
	char *end;
	int opt, ret = 0;

	optind = 1;
	opterr = 0;
	while (!ret &&
	       (opt = getopt_long(argc, argv, ":r:qh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'k':
			o->key = optarg;
			break;
		case 't':
			ret = parse_to(o, optarg);
			break;
		case 'm':
			o->metric = optarg;
			break;
		case 'R':
			ret = parse_range(o, optarg);
			break;
		case 'r':
			if (!parse_count(optarg, 1000, &o->replications))
				ret = usage_error(
					"--replications: expected an integer from 1 to 1000, found '%s'",
					optarg);
			break;
		case 'S':
			if (!parse_count(optarg, 64, &o->steps))
				ret = usage_error(
					"--steps: expected an integer from 1 to 64, found '%s'",
					optarg);
			break;
		case 's':
			if (o->nr_sets == FIT_MAX_SETS || !strchr(optarg, '='))
				ret = usage_error(
					"--set: expected KEY=VALUE (at most 256), found '%s'",
					optarg);
			else
				o->sets[o->nr_sets++] = optarg;
			break;
		case 'e':
			errno = 0;
			seed = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || *optarg == '-')
				ret = usage_error(
					"--seed: expected a non-negative integer, found '%s'",
					optarg);
			o->seed = seed;
			o->seed_set = true;
			break;
		case 'w':
			o->write = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'P': /* --no-plots: fit draws none */
			break;
		default:
			return cmd_getopt_other("fit", EXIT_FIT_BAD_INPUT, opt,
						argv, usage_text);
		}
	}
	return ret;
}

/*
 * KEY's node in the scenario file, for its value and --write: NULL when
 * the file does not write it (it takes its default, or --set gives it).
 */
static const struct scenario_node *key_node(const struct scenario_node *tree,
					    const char *key)
{
	const struct scenario_node *n = scenario_lookup(tree, key);

	return n && scenario_kind(n) == SCENARIO_SCALAR ? n : NULL;
}

/* Is @s an integer as written ("32", not "1.5" or "2e3")? */
static bool integer_text(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* The value @x as KEY takes it: an integer key's rounded. */
static void value_text(const struct fit_opts *o, double x, char *buf,
		       size_t size)
{
	if (o->integer)
		snprintf(buf, size, "%.0f", round(x));
	else
		snprintf(buf, size, "%.6g", x);
}

/*
 * Run the scenario with KEY=@x: VARIANT's metric into *@y and its 95%
 * half-width into *@ci. 0, or the exit status after the error.
 */
static int evaluate(const struct fit_opts *o, double x, double *y, double *ci)
{
	char set[512], val[64];
	const char *sets[FIT_MAX_SETS + 1];
	struct run_opts ro = {
		.datadir = o->datadir,
		.variant = o->variant,
		.sets = sets,
		.nr_sets = o->nr_sets + 1,
		.seed_set = o->seed_set,
		.seed = o->seed,
		.replications = o->replications,
	};
	struct report *r = NULL;
	struct sim_error err;
	int ret = 0;

	memcpy(sets, o->sets, o->nr_sets * sizeof(*sets));
	value_text(o, x, val, sizeof(val));
	snprintf(set, sizeof(set), "%s=%s", o->key, val);
	sets[o->nr_sets] = set;
	sim_error_clear(&err);
	if (scenario_run(o->scenario, &ro, &r, &err)) {
		sim_error_print(stderr, &err);
		return EXIT_FIT_BAD_INPUT;
	}
	if (!report_get_ci(r, o->variant, o->metric, y, ci)) {
		ret = usage_error("variant '%s' has no metric '%s'", o->variant,
				  o->metric);
	} else if (!o->quiet) {
		snprintf(set, sizeof(set),
			 "memcgsim: fit: %s=%s: %s %.6g +- %.3g", o->key, val,
			 o->metric, *y, *ci);
		put_clean(stderr, set);
		fputc('\n', stderr);
	}
	report_free(r);
	return ret;
}

struct writeback {
	const char *text;
	size_t len, at, old_len;
	const char *value;
};

static int write_copy(FILE *out, void *arg)
{
	const struct writeback *w = arg;

	fwrite(w->text, 1, w->at, out);
	fputs(w->value, out);
	fwrite(w->text + w->at + w->old_len, 1, w->len - w->at - w->old_len,
	       out);
	return ferror(out) ? -1 : 0;
}

/*
 * --write: the scenario's bytes with KEY's scalar (at its line and
 * column, as written) replaced by @value. 0, or the exit status.
 */
static int write_back(const struct fit_opts *o,
		      const struct scenario_node *node, const char *value)
{
	const char *old = scenario_scalar(node);
	struct writeback w = { .value = value, .old_len = strlen(old) };
	unsigned int line = 1;
	struct sim_error err;
	char *buf;
	size_t i;
	int ret;

	sim_error_clear(&err);
	if (sim_read_file(o->scenario, 0, &buf, &w.len, &err)) {
		sim_error_print(stderr, &err);
		return EXIT_FIT_BAD_INPUT;
	}
	for (i = 0; i < w.len && line < scenario_line(node); i++)
		if (buf[i] == '\n')
			line++;
	i += scenario_col(node) - 1;
	if (i + w.old_len > w.len || memcmp(buf + i, old, w.old_len)) {
		free(buf);
		return usage_error(
			"--write: the value of '%s' is not written plainly in %s (quoted, or a block scalar); edit it by hand",
			o->key, o->scenario);
	}
	w.text = buf;
	w.at = i;
	ret = sim_write_atomic(o->write, write_copy, &w, &err);
	free(buf);
	if (ret) {
		sim_error_print(stderr, &err);
		return EXIT_FIT_BAD_INPUT;
	}
	return 0;
}

/* The checks and the defaults that need the scenario; 0 or the status. */
static int prepare(struct fit_opts *o, const struct scenario_node **node,
		   struct scenario_node *tree)
{
	double v;

	*node = key_node(tree, o->key);
	if (*node && parse_double(scenario_scalar(*node), &v)) {
		o->integer = integer_text(scenario_scalar(*node)) &&
			     !strstr(o->key, "_ns") && !strstr(o->key, "_us") &&
			     !strstr(o->key, "_ms");
		if (!o->range_set) {
			if (!(v > 0))
				return usage_error(
					"'%s' is %g in %s: give --range LO,HI",
					o->key, v, o->scenario);
			o->lo = v / 10;
			o->hi = v * 10;
		}
	} else if (!o->range_set) {
		return usage_error(
			"'%s' has no number written in %s: give --range LO,HI",
			o->key, o->scenario);
	}
	if (o->write && !*node)
		return usage_error(
			"--write: '%s' is not written in %s (it takes its default): write it there, then fit",
			o->key, o->scenario);
	if (o->write && !strcmp(o->write, o->scenario))
		return usage_error(
			"--write: '%s' is the scenario itself; write a copy",
			o->write);
	return 0;
}

/*
 * Bisect [lo, hi] for the target; the bracket's ends and metrics in
 * @x and @y, the last point's CI in *@ci, the slope across [lo, hi] in
 * *@slope0. 0, or the exit status.
 */
static int bisect(const struct fit_opts *o, double x[2], double y[2],
		  double *ci, double *slope0, unsigned int *runs)
{
	double ci_end, xm, ym;
	unsigned int step;
	int ret;

	x[0] = o->lo;
	x[1] = o->hi;
	ret = evaluate(o, x[0], &y[0], ci);
	if (!ret)
		ret = evaluate(o, x[1], &y[1], &ci_end);
	if (ret)
		return ret;
	*runs = 2;
	*ci = fmax(*ci, ci_end);
	*slope0 = fabs(y[1] - y[0]) / (x[1] - x[0]);
	if ((y[0] - o->target) * (y[1] - o->target) > 0) {
		fprintf(stderr,
			"memcgsim: fit: %s goes from %.6g (at %.6g) to %.6g (at %.6g): %.6g is outside; widen --range\n",
			o->metric, y[0], x[0], y[1], x[1], o->target);
		return EXIT_FIT_OUTSIDE;
	}
	for (step = 0; step < o->steps; step++) {
		xm = (x[0] + x[1]) / 2;
		if (x[1] - x[0] <= FIT_REL_WIDTH * fabs(xm) ||
		    (o->integer && x[1] - x[0] <= 1))
			break;
		ret = evaluate(o, xm, &ym, ci);
		if (ret)
			return ret;
		(*runs)++;
		if ((ym - o->target) * (y[0] - o->target) > 0) {
			x[0] = xm;
			y[0] = ym;
		} else {
			x[1] = xm;
			y[1] = ym;
		}
	}
	return 0;
}

/**
 * cmd_fit() - `memcgsim fit` (see cmd/fit/fit.h).
 * @argc: arguments, @argv[0] being "fit"
 * @argv: the arguments
 * @datadir: the shipped scenarios and machine profiles
 *
 * Return: the exit status.
 */
int cmd_fit(int argc, char **argv, const char *datadir)
{
	struct fit_opts o = {
		.metric = "throughput",
		.replications = FIT_DEFAULT_REPS,
		.steps = FIT_DEFAULT_STEPS,
		.datadir = datadir,
	};
	const struct scenario_node *node;
	struct scenario_node *tree;
	double x[2], y[2], ci, slope0, fit, half;
	char text[64], lo[64], hi[64], line[1024];
	struct sim_error err;
	unsigned int runs = 0;
	int ret = parse_args(argc, argv, &o);

	if (ret)
		return ret < 0 ? EXIT_SUCCESS : ret;
	if (argc - optind > 1)
		return usage_error("unexpected argument '%s'",
				   argv[optind + 1]);
	if (argc == optind)
		return usage_error("missing SCENARIO");
	o.scenario = argv[optind];
	if (!o.key || !o.variant)
		return usage_error("give --key KEY and --to VARIANT=VALUE");
	sim_error_clear(&err);
	tree = scenario_load_file(o.scenario, &err);
	if (!tree) {
		sim_error_print(stderr, &err);
		return EXIT_FIT_BAD_INPUT;
	}
	ret = prepare(&o, &node, tree);
	if (!ret)
		ret = bisect(&o, x, y, &ci, &slope0, &runs);
	if (ret)
		goto out;
	/* linear between the last bracket's ends */
	fit = y[1] != y[0] ?
		      x[0] + (o.target - y[0]) * (x[1] - x[0]) / (y[1] - y[0]) :
		      x[0];
	/* the metric's CI as an interval of KEY, through the first slope */
	half = (x[1] - x[0]) / 2 + (slope0 > 0 ? ci / slope0 : 0);
	value_text(&o, fit, text, sizeof(text));
	value_text(&o, fit - half, lo, sizeof(lo));
	value_text(&o, fit + half, hi, sizeof(hi));
	snprintf(
		line, sizeof(line),
		"%s: %s (95%% interval %s to %s), for %s %s = %.6g; %u points of %u replication%s",
		o.key, text, lo, hi, o.variant, o.metric, o.target, runs,
		o.replications, o.replications == 1 ? "" : "s");
	put_clean(stdout, line);
	putchar('\n');
	if (o.write)
		ret = write_back(&o, node, text);
out:
	scenario_free(tree);
	return ret;
}
