// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli/options.c - every option of memcgsim's commands, each with its
 * setter, and the one parser that reads a command's table of them.
 * See cli/options.h for the theory of operation.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/options.h"

#define MAX_OPTIONS 64
#define OPT_BASE 1000 /* getopt's val for the union's option i */

/* The options of every command, each long name once, and -h, --version. */
struct option_union {
	const struct cli_option *opt[MAX_OPTIONS];
	struct option longs[MAX_OPTIONS + 3];
	char shorts[2 * MAX_OPTIONS + 4];
	unsigned int nr;
};

static const struct cli_option *
find_option(const struct cli_option *const *opts, const char *long_name)
{
	for (; opts && *opts; opts++)
		if (!strcmp((*opts)->long_name, long_name))
			return *opts;
	return NULL;
}

static void union_add(struct option_union *u, const struct cli_option *o)
{
	size_t len = strlen(u->shorts);
	unsigned int i;

	for (i = 0; i < u->nr; i++)
		if (!strcmp(u->opt[i]->long_name, o->long_name))
			return;
	if (u->nr == MAX_OPTIONS)
		return;
	u->opt[u->nr] = o;
	u->longs[u->nr] = (struct option){ o->long_name,
					   !o->arg     ? no_argument :
					   o->optional ? optional_argument :
							 required_argument,
					   NULL, OPT_BASE + (int)u->nr };
	u->nr++;
	if (o->short_name && !strchr(u->shorts, o->short_name)) {
		u->shorts[len++] = o->short_name;
		if (o->arg)
			u->shorts[len++] = ':';
		u->shorts[len] = '\0';
	}
}

static void union_build(struct option_union *u, const struct cli_command *all,
			size_t nr)
{
	const struct cli_option *const *o;
	size_t i;

	memset(u, 0, sizeof(*u));
	snprintf(u->shorts, sizeof(u->shorts), ":h");
	for (i = 0; i < nr; i++)
		for (o = all[i].options; o && *o; o++)
			union_add(u, *o);
	u->longs[u->nr] = (struct option){ "help", no_argument, NULL, 'h' };
	u->longs[u->nr + 1] =
		(struct option){ "version", no_argument, NULL, OPT_BASE - 1 };
}

/* The union's entry for getopt's @val, or NULL. */
static const struct cli_option *union_find(const struct option_union *u,
					   int val)
{
	unsigned int i;

	if (val >= OPT_BASE && val < OPT_BASE + (int)u->nr)
		return u->opt[val - OPT_BASE];
	for (i = 0; i < u->nr; i++)
		if (u->opt[i]->short_name && u->opt[i]->short_name == val)
			return u->opt[i];
	return NULL;
}

static const char *display_name(const struct cli_command *c)
{
	return c->name[0] ? c->name : "memcgsim without a command";
}

/* "A", "A and B", "A, B and C": the @i-th of @nr items' separator. */
static const char *sep(size_t i, size_t nr)
{
	return !i ? "" : i + 1 == nr ? " and " : ", ";
}

/* Whose is --@name: the commands (of @nr in @all) whose table holds it. */
static size_t owners(const struct cli_command *all, size_t nr, const char *name,
		     const struct cli_command **who)
{
	size_t i, n = 0;

	for (i = 0; i < nr; i++)
		if (find_option(all[i].options, name))
			who[n++] = &all[i];
	return n;
}

/*
 * refuse() - @cmd has no --@name, another command has. The message is the
 * command's own, or names the owner: every option only the owner has
 * ("--tolerance, --metric and --all are for compare"), or the owners.
 */
static int refuse(const struct cli_command *cmd, const struct cli_command *all,
		  size_t nr, const char *name)
{
	const struct cli_command *who[64], *also[64];
	const struct cli_option *const *o;
	char msg[512];
	size_t len, n, i, k = 0;

	len = (size_t)snprintf(msg, sizeof(msg), "%s%s", cmd->name,
			       cmd->name[0] ? ": " : "");
	if (cmd->refuse) {
		snprintf(msg + len, sizeof(msg) - len, "%s", cmd->refuse);
		return cli_usage_error("%s", msg);
	}
	n = owners(all, nr, name, who);
	/* The default command shares run's options: name it only alone. */
	for (i = 0; i < n; i++)
		if (who[i]->name[0] || n == 1)
			who[k++] = who[i];
	n = k;
	if (n == 1) {
		const char *names[MAX_OPTIONS];

		k = 0;
		for (o = who[0]->options; *o; o++)
			if (owners(all, nr, (*o)->long_name, also) == 1)
				names[k++] = (*o)->long_name;
		for (i = 0; i < k && len < sizeof(msg); i++)
			len += (size_t)snprintf(msg + len, sizeof(msg) - len,
						"%s--%s", sep(i, k), names[i]);
		if (len < sizeof(msg))
			snprintf(msg + len, sizeof(msg) - len, " %s for %s",
				 k == 1 ? "is" : "are", display_name(who[0]));
		return cli_usage_error("%s", msg);
	}
	len += (size_t)snprintf(msg + len, sizeof(msg) - len, "--%s is for ",
				name);
	for (i = 0; i < n && len < sizeof(msg); i++)
		len += (size_t)snprintf(msg + len, sizeof(msg) - len, "%s%s",
					sep(i, n), display_name(who[i]));
	return cli_usage_error("%s", msg);
}

int cli_parse(const struct cli_command *cmd, const struct cli_command *all,
	      size_t nr, struct cli *c, int argc, char **argv, int *first)
{
	struct option_union u;
	const struct cli_option *o, *mine;
	int opt, ret;

	union_build(&u, all, nr);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, u.shorts, u.longs, NULL)) != -1) {
		if (opt == 'h')
			return CLI_HELP;
		if (opt == OPT_BASE - 1)
			return CLI_VERSION;
		if (opt == ':')
			return cli_usage_error("option '%s' needs a value",
					       argv[optind - 1]);
		o = union_find(&u, opt);
		if (!o)
			return cli_usage_error("unknown option '%s'",
					       argv[optind - 1]);
		mine = find_option(cmd->options, o->long_name);
		if (!mine && o == &opt_no_plots)
			/* the one command without it: plot */
			return cli_usage_error(
				"%s: --no-plots asks for no plots, and plot draws nothing else (every other command accepts it and draws none)",
				cmd->name);
		if (!mine)
			return refuse(cmd, all, nr, o->long_name);
		ret = mine->set(c, optarg);
		if (ret)
			return ret;
	}
	*first = optind;
	return 0;
}

int cli_usage_error(const char *fmt, const char *arg)
{
	char msg[SIM_ERROR_MSG_MAX];
	struct sim_error e;

	/* Through sim_error_set(): a control character in @arg is escaped. */
	snprintf(msg, sizeof(msg), fmt, arg);
	sim_error_set(&e, "", 0, 0, "%s", msg);
	sim_error_print(stderr, &e);
	fprintf(stderr, "Try 'memcgsim --help'.\n");
	return EXIT_BAD_INPUT;
}

void cli_wrap(FILE *out, const char *text, int indent, int col)
{
	const char *p = text;
	bool first = true;

	while (*p) {
		size_t word = strcspn(p, " \n");

		if (col > indent && col + 1 + (int)word > 79) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent && !first) {
			fputc(' ', out);
			col++;
		} else if (col < indent) {
			fprintf(out, "%*s", indent - col, "");
			col = indent;
		}
		fprintf(out, "%.*s", (int)word, p);
		first = false;
		col += (int)word;
		p += word;
		if (*p == '\n') {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		}
		while (*p == ' ' || *p == '\n')
			p++;
	}
	fputc('\n', out);
}

static void print_option(FILE *out, char short_name, const char *long_name,
			 const char *arg, bool optional, const char *help)
{
	int col;

	if (short_name)
		col = fprintf(out, "  -%c, --%s", short_name, long_name);
	else
		col = fprintf(out, "      --%s", long_name);
	if (arg)
		col += fprintf(out, optional ? "[=%s]" : " %s", arg);
	if (col > 24) {
		fputs("  ", out);
		col += 2;
	}
	cli_wrap(out, help, 26, col);
}

void cli_print_options(FILE *out, const struct cli_option *const *opts)
{
	for (; opts && *opts; opts++)
		print_option(out, (*opts)->short_name, (*opts)->long_name,
			     (*opts)->arg, (*opts)->optional, (*opts)->help);
	print_option(out, 'h', "help", NULL, false, "this text");
}

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

/* ---- the options: each parsed by its setter ---- */

static int set_variant(struct cli *c, const char *arg)
{
	/* a second -v used to replace the first without a word */
	if (c->o.variant && strcmp(c->o.variant, arg))
		return cli_usage_error(
			"--variant given twice ('%s'): one variant, or none for all of them",
			arg);
	c->o.variant = arg;
	return 0;
}

static int set_set(struct cli *c, const char *arg)
{
	if (c->o.nr_sets == MAX_SETS)
		return cli_usage_error("too many --set options (at most %s)",
				       "256");
	if (!strchr(arg, '='))
		return cli_usage_error("--set: expected KEY=VALUE, found '%s'",
				       arg);
	c->sets[c->o.nr_sets++] = arg;
	return 0;
}

static int set_seed(struct cli *c, const char *arg)
{
	unsigned long long v;

	if (!parse_uint(arg, UINT64_MAX, &v))
		return cli_usage_error(
			"--seed: expected a non-negative integer, found '%s'",
			arg);
	c->o.seed = v;
	c->o.seed_set = true;
	return 0;
}

static int set_replications(struct cli *c, const char *arg)
{
	unsigned long long v;

	if (!parse_uint(arg, 1000, &v) || !v)
		return cli_usage_error(
			"--replications: expected an integer from 1 to 1000, found '%s'",
			arg);
	c->o.replications = (unsigned int)v;
	return 0;
}

static int set_report_format(struct cli *c, const char *arg)
{
	if (!strcmp(arg, "table"))
		c->format = REPORT_TABLE;
	else if (!strcmp(arg, "yaml"))
		c->format = REPORT_YAML;
	else if (!strcmp(arg, "csv"))
		c->format = REPORT_CSV;
	else
		return cli_usage_error(
			"--format: expected table, yaml or csv, found '%s'",
			arg);
	return 0;
}

static int set_plot_format(struct cli *c, const char *arg)
{
	if (strcmp(arg, "png") && strcmp(arg, "svg") && strcmp(arg, "both"))
		return cli_usage_error(
			"--format: expected png, svg or both, found '%s'", arg);
	c->plot_format = arg;
	return 0;
}

static int set_help_format(struct cli *c, const char *arg)
{
	if (strcmp(arg, "text") && strcmp(arg, "man") &&
	    strcmp(arg, "markdown") && strcmp(arg, "tsv"))
		return cli_usage_error(
			"--format: expected text, man, markdown or tsv, found '%s'",
			arg);
	c->help_format = arg;
	return 0;
}

/* An empty name would be the current directory, or no file at all. */
static int set_out(struct cli *c, const char *arg)
{
	if (!*arg)
		return cli_usage_error(
			"--out: expected a file or directory name, found nothing%s",
			"");
	c->out = arg;
	return 0;
}

static int set_trace(struct cli *c, const char *arg)
{
	if (!*arg)
		return cli_usage_error(
			"--trace: expected a file name, found nothing%s", "");
	c->trace = arg;
	return 0;
}

/*
 * A time for --trace-from and --trace-to: "1.5ms", "200 us", "800ns",
 * "5000ps", "0.002s"; a bare number is in ms, as duration_ms is. Exact in
 * integer picoseconds. Returns false when @arg is none of these.
 */
static bool parse_trace_time(const char *arg, uint64_t *out)
{
	static const struct {
		const char *name;
		uint64_t ps;
	} units[] = {
		{ "s", 1000000000000ull },
		{ "ms", 1000000000ull },
		{ "us", 1000000ull },
		{ "ns", 1000ull },
		{ "ps", 1ull },
		{ "", 1000000000ull },
	};
	uint64_t whole = 0, frac = 0, scale = 1, unit = 0;
	const char *p = arg;
	unsigned int i;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return false;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (scale > UINT64_MAX / 100)
				return false;
			frac = frac * 10 + (uint64_t)(*p - '0');
			scale *= 10;
		}
	}
	if (*p == ' ')
		p++;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(p, units[i].name))
			unit = units[i].ps;
	if (!unit || whole > UINT64_MAX / unit)
		return false;
	/* the fraction must be a whole number of picoseconds */
	if (frac && (unit % scale ||
		     frac > (UINT64_MAX - whole * unit) / (unit / scale)))
		return false;
	*out = whole * unit + frac * (unit / scale);
	return true;
}

static int set_trace_from(struct cli *c, const char *arg)
{
	if (!parse_trace_time(arg, &c->o.trace_from))
		return cli_usage_error(
			"--trace-from: expected a time such as 1.5ms, 200us or 800ns, found '%s'",
			arg);
	return 0;
}

static int set_trace_to(struct cli *c, const char *arg)
{
	if (!parse_trace_time(arg, &c->o.trace_to) || !c->o.trace_to)
		return cli_usage_error(
			"--trace-to: expected a time after 0 such as 1.5ms, 200us or 800ns, found '%s'",
			arg);
	return 0;
}

static int set_trace_variant(struct cli *c, const char *arg)
{
	if (!*arg)
		return cli_usage_error(
			"--trace-variant: expected a variant name, found nothing%s",
			"");
	c->o.trace_variant = arg;
	return 0;
}

static int set_lines(struct cli *c, const char *arg)
{
	unsigned long long v;

	if (!parse_uint(arg, 64, &v))
		return cli_usage_error(
			"--lines: expected an integer from 0 to 64, found '%s'",
			arg);
	c->o.hot_lines = (unsigned int)v;
	return 0;
}

/* --max-memory SIZE: bytes, or with a K, M, G or T (binary) suffix. */
static int set_max_memory(struct cli *c, const char *arg)
{
	unsigned long long v, mult = 1;
	char *end;

	if (*arg < '0' || *arg > '9')
		goto bad;
	errno = 0;
	v = strtoull(arg, &end, 10);
	switch (*end) {
	case 'T':
		mult <<= 10;
		/* fall through */
	case 'G':
		mult <<= 10;
		/* fall through */
	case 'M':
		mult <<= 10;
		/* fall through */
	case 'K':
		mult <<= 10;
		end++;
		break;
	default:
		break;
	}
	if (errno || *end || v > UINT64_MAX / mult)
		goto bad;
	/* 0: no limit at all. */
	c->o.max_memory = v ? v * mult : UINT64_MAX;
	return 0;
bad:
	return cli_usage_error(
		"--max-memory: expected a size such as 8G, 512M or 0 (no limit), found '%s'",
		arg);
}

/*
 * --max-time DURATION: seconds, or with a unit s, min or h ("90",
 * "90s", "5min", "1h"); decimal only, more than 0.
 */
static int set_max_time(struct cli *c, const char *arg)
{
	static const struct {
		const char *unit;
		double s;
	} units[] = { { "", 1 }, { "s", 1 }, { "min", 60 }, { "h", 3600 } };
	size_t n = strspn(arg, "0123456789.");
	unsigned int i;
	double v;

	if (!n || arg[0] == '.')
		goto bad;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(arg + n, units[i].unit))
			break;
	if (i == sizeof(units) / sizeof(units[0]))
		goto bad;
	errno = 0;
	v = strtod(arg, NULL) * units[i].s;
	if (errno || !(v > 0) || v > 1e9)
		goto bad;
	c->max_time_s = v;
	return 0;
bad:
	return cli_usage_error(
		"--max-time: expected a time such as 90, 90s, 5min or 1h, found '%s'",
		arg);
}

/* --max-events N: an integer, or with an exponent (2e10). */
static int set_max_events(struct cli *c, const char *arg)
{
	char *end;
	double v;

	/* Decimal only: strtod() would also take hex (0x100000). */
	if (*arg < '0' || *arg > '9' ||
	    strspn(arg, "0123456789.eE+") != strlen(arg))
		goto bad;
	errno = 0;
	v = strtod(arg, &end);
	if (errno || *end || !(v >= 0) || v > 1.8e19 || v != floor(v))
		goto bad;
	/* 0: no limit at all. */
	c->o.max_events = v ? (uint64_t)v : UINT64_MAX;
	return 0;
bad:
	return cli_usage_error(
		"--max-events: expected a whole number such as 5e10, or 0 (no limit), found '%s'",
		arg);
}

static int set_quiet(struct cli *c, const char *arg)
{
	c->quiet = true;
	return 0;
}

static int set_all_metrics(struct cli *c, const char *arg)
{
	c->o.all_metrics = true;
	return 0;
}

static int set_markdown(struct cli *c, const char *arg)
{
	c->markdown = true;
	return 0;
}

static int set_no_plots(struct cli *c, const char *arg)
{
	c->no_plots = true;
	return 0;
}

static int set_tolerance(struct cli *c, const char *arg)
{
	if (!parse_percent(arg, &c->tolerance))
		return cli_usage_error(
			"--tolerance: expected a percentage of 0 or more, found '%s'",
			arg);
	return 0;
}

static int set_metric(struct cli *c, const char *arg)
{
	if (c->nr_metrics == MAX_METRICS)
		return cli_usage_error("too many --metric options (at most %s)",
				       "64");
	c->metrics[c->nr_metrics++] = arg;
	return 0;
}

static int set_all(struct cli *c, const char *arg)
{
	c->all = true;
	return 0;
}

static int set_vary(struct cli *c, const char *arg)
{
	if (c->nr_varys == SWEEP_MAX_KEYS)
		return cli_usage_error("too many --vary options (at most %s)",
				       "16");
	c->varys[c->nr_varys++] = arg;
	return 0;
}

static int set_jobs(struct cli *c, const char *arg)
{
	unsigned long long v;
	long n;

	if (!parse_uint(arg, 1024, &v))
		return cli_usage_error(
			"--jobs: expected an integer from 0 (one per CPU) to 1024, found '%s'",
			arg);
	c->jobs = (unsigned int)v;
	if (!v) {
		n = sysconf(_SC_NPROCESSORS_ONLN);
		c->jobs = n > 0 && n <= 1024 ? (unsigned int)n : 1;
	}
	return 0;
}

static int set_dry_run(struct cli *c, const char *arg)
{
	c->dry_run = true;
	return 0;
}

static int set_plan(struct cli *c, const char *arg)
{
	c->plan = true;
	return 0;
}

static int set_point(struct cli *c, const char *arg)
{
	unsigned long long v;

	if (!parse_uint(arg, SWEEP_HARD_MAX_POINTS, &v))
		return cli_usage_error(
			"--point: expected a point number, found '%s'", arg);
	c->point = (long)v;
	return 0;
}

static int set_force(struct cli *c, const char *arg)
{
	c->force = true;
	return 0;
}

/* host-run -v NAME: each adds a variant to measure. */
static int set_host_variant(struct cli *c, const char *arg)
{
	if (c->host.nr_variants == HOST_MAX_VARIANTS)
		return cli_usage_error(
			"too many --variant options (at most %s)", "64");
	if (!*arg)
		return cli_usage_error(
			"--variant: expected a variant name, found nothing%s",
			"");
	c->host.variants[c->host.nr_variants++] = arg;
	return 0;
}

static int set_host_replications(struct cli *c, const char *arg)
{
	unsigned long long v;

	if (!parse_uint(arg, HOST_MAX_REPS, &v) || !v)
		return cli_usage_error(
			"--replications: expected an integer from 1 to 100, found '%s'",
			arg);
	c->host.reps = (unsigned int)v;
	return 0;
}

static int set_host_machine(struct cli *c, const char *arg)
{
	if (!*arg)
		return cli_usage_error(
			"--machine: expected a machine profile, found nothing%s",
			"");
	c->host.machine = arg;
	c->host.predict = true;
	return 0;
}

static int set_host_predict(struct cli *c, const char *arg)
{
	c->host.predict = true;
	return 0;
}

static int set_host_no_profile(struct cli *c, const char *arg)
{
	c->host.no_profile = true;
	return 0;
}

/* --duration SECONDS: from 0.05 to 600, a decimal. */
static int set_host_duration(struct cli *c, const char *arg)
{
	char *end;
	double v;

	if ((*arg < '0' || *arg > '9') && *arg != '.')
		goto bad;
	errno = 0;
	v = strtod(arg, &end);
	if (errno || *end || !(v >= 0.05 && v <= 600))
		goto bad;
	c->host.secs = v;
	return 0;
bad:
	return cli_usage_error(
		"--duration: expected seconds from 0.05 to 600, found '%s'",
		arg);
}

/*
 * Each option once, with the setter that parses it. An option whose value
 * means something else in another command (--out: a file or a folder) is
 * declared once per meaning, under the same name. A command's table lists
 * the options it takes.
 */
const struct cli_option opt_variant = {
	.short_name = 'v',
	.long_name = "variant",
	.arg = "NAME",
	.set = set_variant,
	.help = "run only this variant",
};

const struct cli_option opt_set = {
	.short_name = 's',
	.long_name = "set",
	.arg = "KEY=VALUE",
	.set = set_set,
	.help = "override a scenario key by its dotted path, e.g. --set workloads.0.cpus=0-17, a key with dots in double quotes: --set 'cgroups./a.\"memory.max\"=1G' (applied to the scenario; variants' own settings win)",
};

const struct cli_option opt_seed = {
	.long_name = "seed",
	.arg = "N",
	.set = set_seed,
	.help = "seed instead of the scenario's",
};

const struct cli_option opt_replications = {
	.short_name = 'r',
	.long_name = "replications",
	.arg = "N",
	.set = set_replications,
	.help = "run N seeds (derived from the seed); report mean and 95% confidence interval",
};

const struct cli_option opt_format = {
	.short_name = 'f',
	.long_name = "format",
	.arg = "FMT",
	.set = set_report_format,
	.help = "table (default), yaml or csv",
};

const struct cli_option opt_out = {
	.short_name = 'o',
	.long_name = "out",
	.arg = "FILE",
	.set = set_out,
	.help = "write the results to FILE (whole or not at all)",
};

const struct cli_option opt_trace = {
	.long_name = "trace",
	.arg = "FILE",
	.set = set_trace,
	.help = "write a Chrome trace-event JSON of every variant that runs, one process pair each\n(open it in ui.perfetto.dev or chrome://tracing)",
};

const struct cli_option opt_trace_variant = {
	.long_name = "trace-variant",
	.arg = "NAME",
	.set = set_trace_variant,
	.help = "trace only variant NAME",
};

const struct cli_option opt_trace_from = {
	.long_name = "trace-from",
	.arg = "TIME",
	.set = set_trace_from,
	.help = "trace from simulated TIME on (e.g. 1.5ms, 200us; a bare number is ms)",
};

const struct cli_option opt_trace_to = {
	.long_name = "trace-to",
	.arg = "TIME",
	.set = set_trace_to,
	.help = "trace up to simulated TIME (default: the end of the run)",
};

const struct cli_option opt_lines = {
	.long_name = "lines",
	.arg = "N",
	.set = set_lines,
	.help = "hot lines to report per variant (default 4)",
};

const struct cli_option opt_max_memory = {
	.long_name = "max-memory",
	.arg = "SIZE",
	.set = set_max_memory,
	.help = "refuse, before it starts, a run whose estimated peak memory is more (default 4G, or when less half of this machine's memory, its cgroup's memory limit or ulimit -v; 0: no limit)",
};

const struct cli_option opt_max_time = {
	.long_name = "max-time",
	.arg = "DURATION",
	.set = set_max_time,
	.help = "stop once the whole command has taken this much wall time (90, 90s, 5min, 1h; default: no limit): run and explain refuse the run, writing nothing; sweep starts no point after it and stops those running (the points done stay: the same command resumes), exit 1; validate stops at the scenario it reached",
};

const struct cli_option opt_max_events = {
	.long_name = "max-events",
	.arg = "N",
	.set = set_max_events,
	.help = "refuse, before it starts, a run estimated to take more events or more work (operations, loop iterations, pages charged: memcgsim check prints both), and stop one that passes it as it runs (default 2e10; 0: no limit)",
};

const struct cli_option opt_quiet = {
	.short_name = 'q',
	.long_name = "quiet",
	.set = set_quiet,
	.help = "no progress line",
};

const struct cli_option opt_no_plots = {
	.long_name = "no-plots",
	.set = set_no_plots,
	.help = "do not draw the plots into memcgsim-plots/ (the default run; every other command but plot accepts it and draws none; plot, which draws nothing else, refuses it)",
};

const struct cli_option opt_all_metrics = {
	.long_name = "all-metrics",
	.set = set_all_metrics,
	.help = "keep the table's rows that are 0 in every variant (left out by default, and named in one line; YAML and CSV always keep them)",
};

const struct cli_option opt_markdown = {
	.long_name = "markdown",
	.set = set_markdown,
	.help = "print Markdown tables (doc/validation.md's)",
};

const struct cli_option opt_vary = {
	.long_name = "vary",
	.arg = "KEY=V1,V2,...",
	.set = set_vary,
	.help = "the values of one key (a --set KEY); each --vary multiplies the points (at most 10000 without --force); the first varies slowest",
};

const struct cli_option opt_jobs = {
	.short_name = 'j',
	.long_name = "jobs",
	.arg = "N",
	.set = set_jobs,
	.help = "run N points at once (default 1; 0: one per CPU); the results are the same bytes",
};

const struct cli_option opt_sweep_out = {
	.short_name = 'o',
	.long_name = "out",
	.arg = "DIR",
	.set = set_out,
	.help = "where the results go (default: sweep-NAME); a rerun resumes, skipping finished points",
};

const struct cli_option opt_dry_run = {
	.short_name = 'n',
	.long_name = "dry-run",
	.set = set_dry_run,
	.help = "check everything and print what the run would cost (events, memory, wall time on this machine, trace size), without running or writing anything",
};

const struct cli_option opt_plan = {
	.long_name = "plan",
	.set = set_plan,
	.help = "print a command line per unfinished point (for GNU parallel or a batch system); then run them and `memcgsim merge DIR`",
};

const struct cli_option opt_point = {
	.long_name = "point",
	.arg = "I",
	.set = set_point,
	.help = "run point I only (what the --plan lines do)",
};

const struct cli_option opt_force = {
	.long_name = "force",
	.set = set_force,
	.help = "allow more than 10000 points",
};

static int set_sensitivity(struct cli *c, const char *arg)
{
	if (sensitivity_parse(arg, &c->sens))
		return cli_usage_error(
			"--sensitivity: expected up to 4 percentages between 0 and 100, such as 1,5; found '%s'",
			arg);
	return 0;
}

const struct cli_option opt_sensitivity = {
	.long_name = "sensitivity",
	.arg = "PCT,...",
	.optional = true,
	.set = set_sensitivity,
	.help = "how firm each prediction is: rerun every variant with work_ns and every latency of the machine profile nudged down and up by each PCT (default 1,5), print the range of each change beside it, and flag a change whose sign, or whose ranking among the variants of its baseline, does not survive",
};

const struct cli_option opt_tolerance = {
	.long_name = "tolerance",
	.arg = "PCT",
	.set = set_tolerance,
	.help = "a change of at most PCT percent of the old value passes without a verdict; a larger one is judged better, worse or changed, or within CI when inside the 95% confidence intervals (run -r N), and the summary counts them all as over PCT% (default 0: the model is deterministic; values within 1e-9 relative are rounding, always equal)",
};

const struct cli_option opt_metric = {
	.long_name = "metric",
	.arg = "M",
	.set = set_metric,
	.help = "compare only metric M (may be repeated); otherwise every metric's value is compared (not change_pct, which is derived from them, hot lines or functions; a metric's ci95 goes with it)",
};

const struct cli_option opt_all = {
	.long_name = "all",
	.set = set_all,
	.help = "print every value, not only those that changed",
};

const struct cli_option opt_plot_out = {
	.short_name = 'o',
	.long_name = "out",
	.arg = "DIR",
	.set = set_out,
	.help = "where the data files and pictures go (default: plots-NAME, NAME the scenario's or the sweep's)",
};

const struct cli_option opt_plot_format = {
	.short_name = 'f',
	.long_name = "format",
	.arg = "FMT",
	.set = set_plot_format,
	.help = "png, svg or both (default)",
};

static int set_plot_metric(struct cli *c, const char *arg)
{
	c->plot_metric = arg;
	return 0;
}

static int set_plot_x(struct cli *c, const char *arg)
{
	c->plot_x = arg;
	return 0;
}

const struct cli_option opt_plot_metric = {
	.long_name = "metric",
	.arg = "M",
	.set = set_plot_metric,
	.help = "draw metric M (default: the headline metric, throughput): a run's bars of M per variant, a sweep's M against its keys (a column of sweep.csv)",
};

const struct cli_option opt_plot_x = {
	.long_name = "x",
	.arg = "KEY",
	.set = set_plot_x,
	.help = "a sweep: KEY along x, one panel per combination of the other keys (default: one picture per key; seeds are averaged)",
};

const struct cli_option opt_plot_variant = {
	.short_name = 'v',
	.long_name = "variant",
	.arg = "NAME",
	.set = set_variant,
	.help = "draw only NAME's heat map",
};

const struct cli_option opt_help_format = {
	.short_name = 'f',
	.long_name = "format",
	.arg = "FMT",
	.set = set_help_format,
	.help = "text (default) or man (the man pages' generated parts: memcgsim(1)'s list of commands, a command page's synopsis and options, the key lists); help keys also markdown (the user guide's table) or tsv (NAME, TYPE, MIN, MAX, first value, and required or optional but for kernel; what tests/run-keys.sh reads)",
};

const struct cli_option opt_host_variant = {
	.short_name = 'v',
	.long_name = "variant",
	.arg = "NAME",
	.set = set_host_variant,
	.help = "measure this variant (again for more); default: every variant",
};

const struct cli_option opt_host_replications = {
	.short_name = 'r',
	.long_name = "replications",
	.arg = "N",
	.set = set_host_replications,
	.help = "run each variant N times (default 5), every other repetition in reverse order; 95% confidence intervals from them",
};

const struct cli_option opt_host_machine = {
	.long_name = "machine",
	.arg = "PROFILE",
	.set = set_host_machine,
	.help = "predict with this machine profile (this host's, from memcgsim calibrate -o PROFILE); implies --predict",
};

const struct cli_option opt_host_predict = {
	.long_name = "predict",
	.set = set_host_predict,
	.help = "the model's change beside the measured one (with the scenario's machine unless --machine)",
};

const struct cli_option opt_host_duration = {
	.short_name = 'd',
	.long_name = "duration",
	.arg = "SECONDS",
	.set = set_host_duration,
	.help = "measure each run this long (default 1), after a fifth of it of warm-up",
};

const struct cli_option opt_host_no_profile = {
	.long_name = "no-profile",
	.set = set_host_no_profile,
	.help = "no perf profile of the runs (by default, where perf is installed, each variant's first run is profiled)",
};
