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
	"Two observables (work and queueing apart): a second key fitted to a\n"
	"second metric of the same runs by nested bisection (each point of\n"
	"KEY2 fits KEY first), e.g. work_ns to throughput and\n"
	"kernel.lru_folio_ns to the lock's share of a perf profile\n"
	"(lru_lock_share); each metric must move one way over its range:\n"
	"  --key2 KEY2         the second key\n"
	"  --to2 VARIANT=VALUE the variant and the second metric's value\n"
	"  --metric2 M         the second metric (required with --key2)\n"
	"  --range2 LO,HI      as --range, for KEY2\n"
	"\n"
	"Exit status: 0 fitted, 1 VALUE outside what the range gives, 2 bad input.\n";

/* One key fitted to one metric of one variant. */
struct fit_term {
	const char *key, *variant, *metric;
	char variant_buf[128];
	double target, lo, hi;
	bool range_set;
	bool integer; /* the key's value in the file is an integer count */
	const struct scenario_node *node; /* as written, or NULL */
	/* the fit: its value, its interval's half width, the runs it took */
	double value, half;
	unsigned int runs;
};

struct fit_opts {
	const char *scenario, *write;
	struct fit_term t[2];
	unsigned int nr_terms;
	bool quiet, seed_set;
	unsigned int replications, steps, nr_sets;
	uint64_t seed;
	const char *sets[FIT_MAX_SETS + 1];
	const char *datadir;
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

/* --to VARIANT=VALUE (--to2: @opt) */
static int parse_to(struct fit_term *t, const char *opt, const char *arg)
{
	const char *eq = strrchr(arg, '=');

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(t->variant_buf) ||
	    !parse_double(eq + 1, &t->target))
		return usage_error("%s: expected VARIANT=VALUE, found '%s'",
				   opt, arg);
	memcpy(t->variant_buf, arg, (size_t)(eq - arg));
	t->variant_buf[eq - arg] = '\0';
	t->variant = t->variant_buf;
	return 0;
}

/* --range LO,HI with 0 < LO < HI (--range2: @opt) */
static int parse_range(struct fit_term *t, const char *opt, const char *arg)
{
	const char *comma = strchr(arg, ',');
	char lo[64];

	if (!comma || (size_t)(comma - arg) >= sizeof(lo))
		goto bad;
	memcpy(lo, arg, (size_t)(comma - arg));
	lo[comma - arg] = '\0';
	if (!parse_double(lo, &t->lo) || !parse_double(comma + 1, &t->hi) ||
	    !(t->lo > 0 && t->lo < t->hi))
		goto bad;
	t->range_set = true;
	return 0;
bad:
	return usage_error("%s: expected LO,HI with 0 < LO < HI, found '%s'",
			   opt, arg);
}

/* Options into @o; 0, -1 after --help, or the exit status of an error. */
static int parse_args(int argc, char **argv, struct fit_opts *o)
{
	static const struct option longopts[] = {
		{ "key", required_argument, NULL, 'k' },
		{ "to", required_argument, NULL, 't' },
		{ "metric", required_argument, NULL, 'm' },
		{ "range", required_argument, NULL, 'R' },
		{ "key2", required_argument, NULL, 'K' },
		{ "to2", required_argument, NULL, 'T' },
		{ "metric2", required_argument, NULL, 'M' },
		{ "range2", required_argument, NULL, 'G' },
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
			o->t[0].key = optarg;
			break;
		case 't':
			ret = parse_to(&o->t[0], "--to", optarg);
			break;
		case 'm':
			o->t[0].metric = optarg;
			break;
		case 'R':
			ret = parse_range(&o->t[0], "--range", optarg);
			break;
		case 'K':
			o->t[1].key = optarg;
			break;
		case 'T':
			ret = parse_to(&o->t[1], "--to2", optarg);
			break;
		case 'M':
			o->t[1].metric = optarg;
			break;
		case 'G':
			ret = parse_range(&o->t[1], "--range2", optarg);
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

/* The value @x as @t's key takes it: an integer key's rounded. */
static void value_text(const struct fit_term *t, double x, char *buf,
		       size_t size)
{
	if (t->integer)
		snprintf(buf, size, "%.0f", round(x));
	else if (strstr(t->key, "_ns"))
		/* a duration in ns takes whole picoseconds */
		snprintf(buf, size, "%.6g", round(x * 1000.0) / 1000.0);
	else
		snprintf(buf, size, "%.6g", x);
}

/*
 * Run the scenario with term @k's key at @x and every other term's at its
 * value so far: term @k's metric of its variant into *@y, its 95%
 * half-width into *@ci. 0, or the exit status after the error.
 */
static int evaluate(const struct fit_opts *o, unsigned int k, double x,
		    double *y, double *ci)
{
	const struct fit_term *t = &o->t[k];
	char set[2][512], val[2][64], line[1024];
	const char *sets[FIT_MAX_SETS + 2];
	struct run_opts ro = {
		.datadir = o->datadir,
		.variant = t->variant,
		.sets = sets,
		.nr_sets = o->nr_sets,
		.seed_set = o->seed_set,
		.seed = o->seed,
		.replications = o->replications,
	};
	struct report *r = NULL;
	struct sim_error err;
	size_t len = 0;
	unsigned int i;
	int ret = 0;

	memcpy(sets, o->sets, o->nr_sets * sizeof(*sets));
	for (i = 0; i < o->nr_terms; i++) {
		value_text(&o->t[i], i == k ? x : o->t[i].value, val[i],
			   sizeof(val[i]));
		snprintf(set[i], sizeof(set[i]), "%s=%s", o->t[i].key, val[i]);
		sets[ro.nr_sets++] = set[i];
	}
	sim_error_clear(&err);
	if (scenario_run(o->scenario, &ro, &r, &err)) {
		sim_error_print(stderr, &err);
		return EXIT_FIT_BAD_INPUT;
	}
	if (!report_get_ci(r, t->variant, t->metric, y, ci)) {
		ret = usage_error("variant '%s' has no metric '%s'", t->variant,
				  t->metric);
	} else if (!o->quiet) {
		len = (size_t)snprintf(line, sizeof(line), "memcgsim: fit:");
		for (i = 0; i < o->nr_terms && len < sizeof(line); i++)
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						" %s=%s", o->t[i].key, val[i]);
		if (len < sizeof(line))
			snprintf(line + len, sizeof(line) - len,
				 ": %s %.6g +- %.3g", t->metric, *y, *ci);
		put_clean(stderr, line);
		fputc('\n', stderr);
	}
	report_free(r);
	return ret;
}

/* --write's copy: the scenario's bytes, each fitted key's scalar replaced. */
struct fit_replace {
	size_t at, old_len;
	char value[64];
};

struct writeback {
	const char *text;
	size_t len;
	unsigned int nr; /* replacements, in the file's order */
	struct fit_replace r[2];
};

static int write_copy(FILE *out, void *arg)
{
	const struct writeback *w = arg;
	size_t from = 0;
	unsigned int i;

	for (i = 0; i < w->nr; i++) {
		fwrite(w->text + from, 1, w->r[i].at - from, out);
		fputs(w->r[i].value, out);
		from = w->r[i].at + w->r[i].old_len;
	}
	fwrite(w->text + from, 1, w->len - from, out);
	return ferror(out) ? -1 : 0;
}

/* The offset in @buf of line @line, column @col (both from 1). */
static size_t text_offset(const char *buf, size_t len, unsigned int line,
			  unsigned int col)
{
	unsigned int l = 1;
	size_t i;

	for (i = 0; i < len && l < line; i++)
		if (buf[i] == '\n')
			l++;
	return i + col - 1;
}

/*
 * --write: the scenario's bytes with each term's scalar (at its line and
 * column, as written) replaced by its fitted value. 0, or the status.
 */
static int write_back(const struct fit_opts *o)
{
	struct writeback w = { 0 };
	struct sim_error err;
	unsigned int i;
	char *buf;
	int ret;

	sim_error_clear(&err);
	if (sim_read_file(o->scenario, 0, &buf, &w.len, &err)) {
		sim_error_print(stderr, &err);
		return EXIT_FIT_BAD_INPUT;
	}
	for (i = 0; i < o->nr_terms; i++) {
		const struct fit_term *t = &o->t[i];
		const char *old = scenario_scalar(t->node);
		size_t at = text_offset(buf, w.len, scenario_line(t->node),
					scenario_col(t->node));

		if (at + strlen(old) > w.len ||
		    memcmp(buf + at, old, strlen(old))) {
			free(buf);
			return usage_error(
				"--write: the value of '%s' is not written plainly in %s (quoted, or a block scalar); edit it by hand",
				t->key, o->scenario);
		}
		w.r[i].at = at;
		w.r[i].old_len = strlen(old);
		value_text(t, t->value, w.r[i].value, sizeof(w.r[i].value));
	}
	w.nr = o->nr_terms;
	/* in the file's order */
	if (w.nr == 2 && w.r[1].at < w.r[0].at) {
		struct fit_replace first = w.r[1];

		w.r[1] = w.r[0];
		w.r[0] = first;
	}
	w.text = buf;
	ret = sim_write_atomic(o->write, write_copy, &w, &err);
	free(buf);
	if (ret) {
		sim_error_print(stderr, &err);
		return EXIT_FIT_BAD_INPUT;
	}
	return 0;
}

/*
 * The checks and the defaults of term @t that need the scenario @tree,
 * its starting value included; 0 or the status.
 */
static int prepare(const struct fit_opts *o, struct fit_term *t,
		   const struct scenario_node *tree)
{
	double v;

	t->node = key_node(tree, t->key);
	if (t->node && parse_double(scenario_scalar(t->node), &v)) {
		t->integer = integer_text(scenario_scalar(t->node)) &&
			     !strstr(t->key, "_ns") && !strstr(t->key, "_us") &&
			     !strstr(t->key, "_ms");
		if (!t->range_set) {
			if (!(v > 0))
				return usage_error(
					"'%s' is %g in %s: give %s LO,HI",
					t->key, v, o->scenario,
					t == &o->t[0] ? "--range" : "--range2");
			t->lo = v / 10;
			t->hi = v * 10;
		}
	} else if (!t->range_set) {
		return usage_error(
			"'%s' has no number written in %s: give %s LO,HI",
			t->key, o->scenario,
			t == &o->t[0] ? "--range" : "--range2");
	}
	/* the start, for the other term's first bisection */
	t->value = t->node && parse_double(scenario_scalar(t->node), &v) &&
				   v >= t->lo && v <= t->hi ?
			   v :
			   sqrt(t->lo * t->hi);
	if (o->write && !t->node)
		return usage_error(
			"--write: '%s' is not written in %s (it takes its default): write it there, then fit",
			t->key, o->scenario);
	return 0;
}

static int bisect(struct fit_opts *o, unsigned int k);

/*
 * Term @k's metric at @x. With two terms, term 1's point first fits term
 * 0 at it (the inner bisection), so that each point of the outer one
 * matches the first observable: nested bisection, sure to converge where
 * each metric moves one way, unlike fitting each in turn, which drifts
 * when each key moves both metrics.
 */
static int measure(struct fit_opts *o, unsigned int k, double x, double *y,
		   double *ci)
{
	int ret;

	if (k == 1) {
		o->t[1].value = x;
		ret = bisect(o, 0);
		if (ret)
			return ret;
	}
	return evaluate(o, k, x, y, ci);
}

/*
 * Bisect term @k's [lo, hi] for its target, the other term at its value:
 * the fit into t->value, its interval's half width into t->half (the
 * metric's CI at the last point through the slope across [lo, hi],
 * widened by half the last bracket). 0, or the exit status.
 */
static int bisect(struct fit_opts *o, unsigned int k)
{
	struct fit_term *t = &o->t[k];
	double x[2] = { t->lo, t->hi }, y[2], ci, ci_end, slope0, xm, ym;
	unsigned int step;
	int ret;

	ret = measure(o, k, x[0], &y[0], &ci);
	if (!ret)
		ret = measure(o, k, x[1], &y[1], &ci_end);
	if (ret)
		return ret;
	t->runs += 2;
	ci = fmax(ci, ci_end);
	slope0 = fabs(y[1] - y[0]) / (x[1] - x[0]);
	if ((y[0] - t->target) * (y[1] - t->target) > 0) {
		fprintf(stderr,
			"memcgsim: fit: %s goes from %.6g (at %.6g) to %.6g (at %.6g): %.6g is outside; widen --range%s\n",
			t->metric, y[0], x[0], y[1], x[1], t->target,
			k ? "2" : "");
		return EXIT_FIT_OUTSIDE;
	}
	for (step = 0; step < o->steps; step++) {
		xm = (x[0] + x[1]) / 2;
		if (x[1] - x[0] <= FIT_REL_WIDTH * fabs(xm) ||
		    (t->integer && x[1] - x[0] <= 1))
			break;
		ret = measure(o, k, xm, &ym, &ci);
		if (ret)
			return ret;
		t->runs++;
		if ((ym - t->target) * (y[0] - t->target) > 0) {
			x[0] = xm;
			y[0] = ym;
		} else {
			x[1] = xm;
			y[1] = ym;
		}
	}
	/* linear between the last bracket's ends */
	t->value = y[1] != y[0] ? x[0] + (t->target - y[0]) * (x[1] - x[0]) /
						  (y[1] - y[0]) :
				  x[0];
	t->half = (x[1] - x[0]) / 2 + (slope0 > 0 ? ci / slope0 : 0);
	return 0;
}

/*
 * The fit: term 0 alone, or term 1 by the nested bisection and then term
 * 0 once more at term 1's answer, so that the pair printed is one point.
 */
static int fit_terms(struct fit_opts *o)
{
	int ret = bisect(o, o->nr_terms - 1);

	if (!ret && o->nr_terms == 2)
		ret = bisect(o, 0);
	return ret;
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
		.t = { { .metric = "throughput" } },
		.replications = FIT_DEFAULT_REPS,
		.steps = FIT_DEFAULT_STEPS,
		.datadir = datadir,
	};
	struct scenario_node *tree;
	char text[64], lo[64], hi[64], line[1024];
	struct sim_error err;
	unsigned int k, runs = 0;
	size_t len = 0;
	int ret = parse_args(argc, argv, &o);

	if (ret)
		return ret < 0 ? EXIT_SUCCESS : ret;
	if (argc - optind > 1)
		return usage_error("unexpected argument '%s'",
				   argv[optind + 1]);
	if (argc == optind)
		return usage_error("missing SCENARIO");
	o.scenario = argv[optind];
	if (!o.t[0].key || !o.t[0].variant)
		return usage_error("give --key KEY and --to VARIANT=VALUE");
	o.nr_terms = 1;
	if (o.t[1].key || o.t[1].metric || o.t[1].variant || o.t[1].range_set) {
		if (!o.t[1].key || !o.t[1].metric || !o.t[1].variant)
			return usage_error(
				"a second observable takes --key2 KEY2, --to2 VARIANT=VALUE and --metric2 M together");
		if (!strcmp(o.t[1].key, o.t[0].key))
			return usage_error(
				"--key2 '%s' is --key: fit two different keys",
				o.t[1].key);
		o.nr_terms = 2;
	}
	if (o.write && !strcmp(o.write, o.scenario))
		return usage_error(
			"--write: '%s' is the scenario itself; write a copy",
			o.write);
	sim_error_clear(&err);
	tree = scenario_load_file(o.scenario, &err);
	if (!tree) {
		sim_error_print(stderr, &err);
		return EXIT_FIT_BAD_INPUT;
	}
	for (k = 0; k < o.nr_terms && !ret; k++)
		ret = prepare(&o, &o.t[k], tree);
	if (!ret)
		ret = fit_terms(&o);
	if (ret)
		goto out;
	for (k = 0; k < o.nr_terms; k++) {
		const struct fit_term *t = &o.t[k];

		value_text(t, t->value, text, sizeof(text));
		value_text(t, t->value - t->half, lo, sizeof(lo));
		value_text(t, t->value + t->half, hi, sizeof(hi));
		len += (size_t)snprintf(
			line + len, sizeof(line) - len,
			"%s%s: %s (95%% interval %s to %s), for %s %s = %.6g",
			k ? "; " : "", t->key, text, lo, hi, t->variant,
			t->metric, t->target);
		runs += t->runs;
		if (len >= sizeof(line))
			len = sizeof(line) - 1;
	}
	snprintf(line + len, sizeof(line) - len,
		 "; %u points of %u replication%s", runs, o.replications,
		 o.replications == 1 ? "" : "s");
	put_clean(stdout, line);
	putchar('\n');
	if (o.write)
		ret = write_back(&o);
out:
	scenario_free(tree);
	return ret;
}
