/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli/options.h - the command table and the option tables of memcgsim's
 * commands, and the one parser that reads them (after git's parse-options).
 *
 * Theory of operation: every command lists its options in a table of
 * pointers to struct cli_option, each declared once with a setter that parses and stores its value
 * in struct cli (cli/memcgsim.c). cli_parse() reads argv with getopt_long
 * over the options of every command, so that an option of another command
 * is told apart from a typo and refused by name: "run: --tolerance,
 * --metric and --all are for compare". The help texts are made from the
 * same tables.
 *
 * The options themselves, each declared once (opt_variant, ...), are in
 * cli/options.c beside their setters; each command's table of them is in
 * cli/memcgsim.c beside the command table.
 *
 * Layering: cli/; used by cli/memcgsim.c only.
 */
#ifndef CLI_OPTIONS_H
#define CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cmd/run/run.h"
#include "cmd/run/sensitivity.h"
#include "cmd/host-run/host_run.h"
#include "cmd/sweep/sweep.h"
#include "sim/report.h"

#define MAX_SETS 256
#define MAX_METRICS 64

/* What the options set; each command reads its own. */
struct cli {
	const char *scenario;
	const char *out;
	const char *trace;
	enum report_format format;
	bool explain;
	bool quiet;
	bool markdown;
	bool dry_run; /* run, sweep --dry-run */
	double max_time_s; /* run --max-time; 0: none */
	struct run_opts o;
	struct sensitivity sens; /* run, validate --sensitivity */
	const char *sets[MAX_SETS];
	/* sweep */
	bool plan, force;
	unsigned int jobs;
	long point; /* --point, or -1 */
	unsigned int nr_varys;
	const char *varys[SWEEP_MAX_KEYS + 1];
	/* compare */
	bool all;
	double tolerance;
	unsigned int nr_metrics;
	const char *metrics[MAX_METRICS];
	/* plot, and the default experiment's plots */
	const char *plot_format;
	const char *plot_metric, *plot_x; /* plot --metric, --x */
	bool default_run; /* no command: draw into memcgsim-plots/ */
	bool no_plots;
	/* help keys */
	const char *help_format;
	/* host-run */
	struct host_run_opts host;
};

/**
 * struct cli_option - one option of a command.
 * @short_name: 'v' for -v, or 0
 * @long_name: "variant" for --variant
 * @arg: the value's name in help texts ("NAME"), or NULL for a flag
 * @optional: the value may be left out (--name=VALUE only; @set gets NULL)
 * @set: parses and stores the value; 0, or the exit status of the usage
 *	error it printed
 * @help: what it does; lines separated by '\n'
 */
struct cli_option {
	char short_name;
	const char *long_name;
	const char *arg;
	bool optional;
	int (*set)(struct cli *c, const char *arg);
	const char *help;
};

/**
 * struct cli_command - one command.
 * @name: "run"; "" for memcgsim with no command
 * @fn: runs it with the operands left after the options
 * @own: instead of @fn, for a command that parses its own options
 *	(argv[0] is its name)
 * @options: its options, ended by NULL
 * @args: its operands in help texts ("SCENARIO")
 * @doc: one line for the command list
 * @refuse: the message for another command's option ("takes only
 *	--out"); NULL: the message says whose option it is
 */
struct cli_command {
	const char *name;
	int (*fn)(struct cli *c, int nr_args, char **args);
	int (*own)(int argc, char **argv);
	const struct cli_option *const *options;
	const char *args;
	const char *doc;
	const char *refuse;
};

/* Every option of every command (cli/options.c). */
extern const struct cli_option opt_variant, opt_set, opt_seed, opt_replications,
	opt_format, opt_out, opt_trace, opt_lines, opt_quiet, opt_no_plots,
	opt_markdown, opt_vary, opt_jobs, opt_sweep_out, opt_plan, opt_point,
	opt_force, opt_tolerance, opt_metric, opt_all, opt_plot_out,
	opt_plot_format, opt_plot_variant, opt_plot_metric, opt_plot_x,
	opt_help_format, opt_max_memory, opt_max_events, opt_dry_run,
	opt_trace_variant, opt_trace_from, opt_trace_to, opt_max_time,
	opt_sensitivity, opt_all_metrics, opt_host_variant,
	opt_host_replications, opt_host_machine, opt_host_predict,
	opt_host_duration, opt_host_no_profile;

#define EXIT_RUN_FAILURE 1
#define EXIT_BAD_INPUT 2

/* What cli_parse() returns for --help and --version (nothing printed). */
#define CLI_HELP (-1)
#define CLI_VERSION (-2)

/*
 * cli_parse() - the options of @argv (argv[0] is the command or program
 * name) for @cmd, one of the @nr commands of @all. Returns 0 with the
 * operands from argv[*first] on, CLI_HELP, CLI_VERSION, or the exit status
 * of the usage error printed.
 */
int cli_parse(const struct cli_command *cmd, const struct cli_command *all,
	      size_t nr, struct cli *c, int argc, char **argv, int *first);

/* "memcgsim: error: " @fmt (one %s) and the hint; returns EXIT_BAD_INPUT. */
int cli_usage_error(const char *fmt, const char *arg);

/* The options of @opts, one per line, with their help (and -h, --help). */
void cli_print_options(FILE *out, const struct cli_option *const *opts);

/* @text wrapped at 79 columns, every line indented by @indent; the first
 * line starts at column @col (the caller printed up to there). */
void cli_wrap(FILE *out, const char *text, int indent, int col);

#endif /* CLI_OPTIONS_H */
