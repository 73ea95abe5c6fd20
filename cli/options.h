/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli/options.h - the command table and the option tables of memcgsim's
 * commands, and the one parser that reads them (after git's parse-options).
 *
 * Theory of operation: every command names its options in a table of
 * struct cli_option, each with a setter that parses and stores its value
 * in struct cli (cli/memcgsim.c). cli_parse() reads argv with getopt_long
 * over the options of every command, so that an option of another command
 * is told apart from a typo and refused by name: "run: --tolerance,
 * --metric and --all are for compare". The help texts are made from the
 * same tables.
 *
 * Layering: cli/; used by cli/memcgsim.c only.
 */
#ifndef CLI_OPTIONS_H
#define CLI_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

struct cli;

/**
 * struct cli_option - one option of a command.
 * @short_name: 'v' for -v, or 0
 * @long_name: "variant" for --variant
 * @arg: the value's name in help texts ("NAME"), or NULL for a flag
 * @set: parses and stores the value; 0, or the exit status of the usage
 *	error it printed
 * @help: what it does; lines separated by '\n'
 */
struct cli_option {
	char short_name;
	const char *long_name;
	const char *arg;
	int (*set)(struct cli *c, const char *arg);
	const char *help;
};

/**
 * struct cli_command - one command.
 * @name: "run"; "" for memcgsim with no command
 * @fn: runs it with the operands left after the options
 * @own: instead of @fn, for a command that parses its own options
 *	(argv[0] is its name)
 * @options: its options, ended by an entry with no @long_name
 * @args: its operands in help texts ("SCENARIO")
 * @doc: one line for the command list
 * @refuse: the message for another command's option ("takes only
 *	--out"); NULL: the message says whose option it is
 */
struct cli_command {
	const char *name;
	int (*fn)(struct cli *c, int nr_args, char **args);
	int (*own)(int argc, char **argv);
	const struct cli_option *options;
	const char *args;
	const char *doc;
	const char *refuse;
};

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
void cli_print_options(FILE *out, const struct cli_option *opts);

/* @text wrapped at 79 columns, every line indented by @indent; the first
 * line starts at column @col (the caller printed up to there). */
void cli_wrap(FILE *out, const char *text, int indent, int col);

#endif /* CLI_OPTIONS_H */
