// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli/help.c - what memcgsim says about itself: `memcgsim help`, a
 * command's --help, `memcgsim help keys`, and the same texts as roff for
 * the man pages and as Markdown for the user guide.
 *
 * Theory of operation: every text is made from a table, so that the
 * program, its man pages and its documents cannot drift apart: the
 * command table (cli/memcgsim.c's commands[]) and the option tables
 * (cli/options.c) give `memcgsim help`, `help COMMAND` and the SYNOPSIS
 * and OPTIONS of each memcgsim-COMMAND(1) (`help COMMAND --format man`,
 * between the page's `.\" BEGIN COMMAND NAME` and `.\" END COMMAND NAME`
 * lines); the key tables (models/kernel/sim/config.c, sim/scenario_keys.h's
 * tables, each workload type's) give `help keys SECTION` and the key
 * lists of memcgsim-scenario(5) and memcgsim-machine(5), between `.\"
 * BEGIN KEYS SECTION` and `.\" END KEYS SECTION`. tools/update-keys.sh
 * writes those blocks and tests/run-keys.sh checks them.
 *
 * On a terminal, `memcgsim help COMMAND` shows the command's whole man
 * page with man(1), as `perf help` and `git help` do: the installed page,
 * or the source tree's when the program runs from its build tree; where
 * there is no man or no page, and on a pipe, it prints the text made from
 * the tables, which is the page's SYNOPSIS and OPTIONS.
 *
 * Layering: cli/; used by cli/memcgsim.c only.
 */
#define _GNU_SOURCE

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/help.h"
#include "cmd/run/run.h"
#include "models/hw/machine.h"
#include "models/kernel/sim/config.h"
#include "models/workloads/workload.h"
#include "sim/scenario_keys.h"
#include "sim/util.h"

static const char intro[] =
	"A deterministic simulator of Linux memory-cgroup charging on many-CPU "
	"machines: CPUs, cache lines and their transfers, atomic contention, "
	"page counters, per-CPU charge stocks, socket and kmem accounting. "
	"With no command it runs charge-batch-2022: 36 netperf pairs on 72 CPUs, "
	"the 6.0-rc1 charge path and the three 2022 fixes, and draws its plots "
	"into memcgsim-plots/ when gnuplot is installed (not with --no-plots).";

static void print_command(FILE *out, const struct cli_command *cmd)
{
	int col = fprintf(out, "  %s%s%s", cmd->name[0] ? cmd->name : "(none)",
			  cmd->args[0] ? " " : "", cmd->args);

	if (col > 19) {
		fputs("  ", out);
		col += 2;
	}
	cli_wrap(out, cmd->doc, 21, col);
}

static void print_workloads(FILE *out)
{
	const struct workload_type *const *types;
	unsigned int i, k, n = workload_types(&types);
	char keys[512];
	size_t len;

	fprintf(out, "\nWorkloads (scenario key workloads.N.type):\n");
	for (i = 0; i < n; i++) {
		fprintf(out, "  %-16s %s\n", types[i]->name, types[i]->summary);
		len = (size_t)snprintf(keys, sizeof(keys),
				       "keys: type, cpus, cgroup");
		for (k = 0; k < types[i]->nr_keys && len < sizeof(keys); k++)
			len += (size_t)snprintf(keys + len, sizeof(keys) - len,
						", %s", types[i]->keys[k].name);
		cli_wrap(out, keys, 19, 0);
	}
}

static void usage(FILE *out, const struct cli_command *all, size_t nr)
{
	size_t i;

	fprintf(out, "usage: memcgsim [COMMAND] [ARGS] [OPTIONS]\n\n");
	cli_wrap(out, intro, 0, 0);
	fprintf(out, "\nCommands:\n");
	for (i = 0; i < nr; i++)
		print_command(out, &all[i]);
	fprintf(out, "\nOptions with no command:\n");
	cli_print_options(out, all[0].options);
	fprintf(out, "      --version           the version\n");
	print_workloads(out);
	fprintf(out, "\n");
	cli_wrap(
		out,
		"`memcgsim help COMMAND` shows a command's page, memcgsim-COMMAND(1) (on a pipe, its options, as `memcgsim COMMAND --help` does); `memcgsim help keys [SECTION|all]` the scenario's keys, kernel: by default. A scenario is YAML: see memcgsim-scenario(5) and the shipped scenarios (memcgsim list). Exit status: 0 success, 1 failure while running, 2 bad input or usage.",
		0, 0);
}

void cli_command_help(FILE *out, const struct cli_command *cmd,
		      const struct cli_command *all, size_t nr)
{
	if (!cmd->name[0]) {
		usage(out, all, nr);
		return;
	}
	fprintf(out, "usage: memcgsim %s%s%s [OPTIONS]\n\n", cmd->name,
		cmd->args[0] ? " " : "", cmd->args);
	cli_wrap(out, cmd->doc, 0, 0);
	/* a command that parses its own options prints them itself */
	if (cmd->own) {
		fprintf(out, "\nIts options: memcgsim %s --help\n", cmd->name);
		return;
	}
	fprintf(out, "\nOptions:\n");
	cli_print_options(out, cmd->options);
}

/*
 * roff text: '\' is \e; '-' is a minus ("\-") where it starts a word or
 * an arrow ("->"), a hyphen elsewhere ("per-CPU").
 */
static void roff(FILE *out, const char *s)
{
	const char *start = s;

	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '-' && (s == start || s[-1] == ' ' || s[-1] == '-' ||
				  s[1] == '>' || s[1] == '-'))
			fputs("\\-", out);
		else if (*s == '\\')
			fputs("\\e", out);
		else
			fputc(*s, out);
	}
}

/* Markdown table text: '|' would end the cell. */
static void markdown(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', out);
		fputc(*s, out);
	}
}

/*
 * One key in words: text, a .TP entry of memcgsim(1), a README row; @line
 * is "TYPE: RANGE; default DEF.", @tsv its line of --format tsv.
 */
static void print_entry(FILE *out, const char *fmt, const char *name,
			const char *type, const char *range, const char *def,
			const char *doc, const char *tsv)
{
	char line[600];
	int col;

	if (!strcmp(fmt, "tsv")) {
		fputs(tsv, out);
		return;
	}
	if (!strcmp(fmt, "markdown")) {
		fprintf(out, "| `%s` | %s%s%s | %s | ", name, type,
			range[0] ? ": " : "", range, def[0] ? def : "-");
		markdown(out, doc);
		fputs(" |\n", out);
		return;
	}
	/* "integer: 1 to 4096; default 16.", "...; required [with ...]." */
	snprintf(line, sizeof(line), "%s%s%s%s%s.", type, range[0] ? ": " : "",
		 range,
		 !def[0]		      ? "" :
		 !strncmp(def, "required", 8) ? "; " :
						"; default ",
		 def);
	if (!strcmp(fmt, "man")) {
		fprintf(out, ".TP\n.B ");
		roff(out, name);
		fputc('\n', out);
		roff(out, line);
		fputs("\n.br\n", out);
		roff(out, doc);
		fputs(".\n", out);
		return;
	}
	col = fprintf(out, "  %s", name);
	if (col > 23) {
		fputs("  ", out);
		col += 2;
	}
	cli_wrap(out, line, 25, col);
	cli_wrap(out, doc, 25, 0);
}

/* A `kernel:` key (models/kernel/sim/config.c). */
static void print_key(FILE *out, const struct kernel_key *key, const char *fmt)
{
	char range[256], def[256], tsv[512];
	/* durations in ns, as reclaim_ns is written */
	unsigned long long unit = key->type == KEY_TIME ? 1000 : 1;

	kernel_key_range(key, range, sizeof(range));
	kernel_key_default(key, def, sizeof(def));
	snprintf(tsv, sizeof(tsv), "%s\t%s\t%llu\t%llu\t%s\n", key->name,
		 kernel_key_type_name(key), (unsigned long long)key->min / unit,
		 (unsigned long long)key->max / unit,
		 key->nr_names ? key->names[0] : "-");
	print_entry(out, fmt, key->name, kernel_key_type_name(key), range, def,
		    key->doc, tsv);
}

/*
 * The TSV line of a table's key: NAME, TYPE, MIN, MAX (in the unit it is
 * written in; "-" where the type has none), the first enum value ("-"),
 * required or optional.
 */
static void scenario_key_tsv(const struct scenario_key *key, char *buf,
			     size_t size)
{
	char min[32] = "-", max[32] = "-";
	uint64_t unit = key->unit_ps ? key->unit_ps : 1;

	switch (key->type) {
	case SCENARIO_KEY_U64:
		snprintf(min, sizeof(min), "%llu",
			 (unsigned long long)key->min);
		if (!key->max_fn)
			snprintf(max, sizeof(max), "%llu",
				 (unsigned long long)key->max);
		break;
	case SCENARIO_KEY_SIZE:
		snprintf(min, sizeof(min), "0");
		snprintf(max, sizeof(max), "%llu",
			 (unsigned long long)key->max);
		break;
	case SCENARIO_KEY_DOUBLE:
		snprintf(min, sizeof(min), "%g", key->dmin);
		snprintf(max, sizeof(max), "%g", key->dmax);
		break;
	case SCENARIO_KEY_TIME:
	case SCENARIO_KEY_CUSTOM:
		if (!key->unit_ps)
			break;
		snprintf(min, sizeof(min), "%llu",
			 (unsigned long long)(key->min / unit));
		snprintf(max, sizeof(max), "%llu",
			 (unsigned long long)(key->max / unit));
		break;
	case SCENARIO_KEY_BOOL:
	case SCENARIO_KEY_ENUM:
	case SCENARIO_KEY_STRING:
		break;
	}
	snprintf(buf, size, "%s\t%s\t%s\t%s\t%s\t%s\n", key->name,
		 scenario_key_type_name(key), min, max,
		 key->nr_names ? key->names[0] : "-",
		 key->required ? "required" : "optional");
}

/* A key of a sim/scenario_keys table. */
static void print_scenario_key(FILE *out, const struct scenario_key *key,
			       const char *fmt)
{
	char range[256], def[256], tsv[512];

	scenario_key_range(key, range, sizeof(range));
	scenario_key_default(key, def, sizeof(def));
	scenario_key_tsv(key, tsv, sizeof(tsv));
	print_entry(out, fmt, key->name, scenario_key_type_name(key), range,
		    def, key->doc, tsv);
}

/*
 * struct key_section - one map of the scenario whose keys `memcgsim help
 * keys SECTION` lists: kernel (models/kernel/sim/config.c's own table),
 * scenario, variants, published, workloads (cmd/run/run.c), each workload
 * type (models/workloads/), cgroups (models/kernel/sim/config.c), machine,
 * coherence and latencies (models/hw/machine.c).
 */
struct key_section {
	const char *name;
	char title[192];
	const struct scenario_key *keys; /* NULL: the kernel: table */
	unsigned int nr;
};

#define MAX_KEY_SECTIONS 32

static const char *const section_titles[][2] = {
	{ "scenario", "The scenario's top-level keys:" },
	{ "variants", "The keys of each entry of variants:" },
	{ "published", "The keys of published:" },
	{ "workloads",
	  "The keys of every entry of workloads: (each type adds its own: memcgsim help keys TYPE):" },
	{ "cgroups",
	  "The keys of each cgroup of cgroups: (sizes in bytes, with K, M, G or T or KiB, MiB, GiB, TiB, powers of 1024; max for no limit):" },
	{ "machine",
	  "The keys of a machine profile (a file of scenarios/machines/, or an inline machine: map):" },
	{ "coherence", "The keys of a machine profile's coherence: map:" },
	{ "ops.objects",
	  "The keys of each object of an ops workload's objects:" },
	{ "ops.program",
	  "The operations of an ops workload's program, each a map of one of these keys:" },
	{ "latencies",
	  "The classes of a machine profile's latencies: map, each {ns: NUMBER, source: \"where it comes from\"}:" },
};

static void add_section(struct key_section *sec, unsigned int *nr,
			const char *name, const struct scenario_key *keys,
			unsigned int nr_keys)
{
	struct key_section *s = &sec[(*nr)++];
	size_t i;

	s->name = name;
	s->keys = keys;
	s->nr = nr_keys;
	snprintf(s->title, sizeof(s->title),
		 "The keys of a %s workload, besides type, cpus and cgroup:",
		 name);
	for (i = 0; i < ARRAY_SIZE(section_titles); i++)
		if (!strcmp(section_titles[i][0], name))
			snprintf(s->title, sizeof(s->title), "%s",
				 section_titles[i][1]);
}

/* Every section, in the order `help keys all` prints them. */
static unsigned int key_sections(struct key_section *sec)
{
	const struct workload_type *const *types;
	const struct scenario_key_table *t;
	const struct scenario_key *keys;
	unsigned int nr = 0, i, j, n;

	sec[nr].name = "kernel";
	snprintf(
		sec[nr].title, sizeof(sec[nr].title),
		"The scenario's kernel: keys (also --set kernel.KEY=VALUE), with Linux v6.0's defaults unless stats_version names another kernel:");
	sec[nr].keys = NULL;
	sec[nr++].nr = 0;
	n = run_key_tables(&t);
	for (i = 0; i < n; i++)
		add_section(sec, &nr, t[i].name, t[i].keys, t[i].nr);
	n = workload_types(&types);
	for (i = 0; i < n && nr < MAX_KEY_SECTIONS - 8; i++) {
		add_section(sec, &nr, types[i]->name, types[i]->keys,
			    types[i]->nr_keys);
		for (j = 0; j < types[i]->nr_sub_keys; j++)
			add_section(sec, &nr, types[i]->sub_keys[j].name,
				    types[i]->sub_keys[j].keys,
				    types[i]->sub_keys[j].nr);
	}
	keys = cgroup_keys(&n);
	add_section(sec, &nr, "cgroups", keys, n);
	n = machine_key_tables(&t);
	for (i = 0; i < n && nr < MAX_KEY_SECTIONS; i++)
		add_section(sec, &nr, t[i].name, t[i].keys, t[i].nr);
	return nr;
}

static void help_section(FILE *out, const struct key_section *sec,
			 const char *fmt)
{
	unsigned int i, nr;
	const struct kernel_key *keys = kernel_keys(&nr);

	if (!strcmp(fmt, "markdown"))
		fprintf(out, "| key | type | default | meaning |\n"
			     "| --- | --- | --- | --- |\n");
	if (!strcmp(fmt, "text"))
		cli_wrap(out, sec->title, 0, 0);
	if (!sec->keys) {
		for (i = 0; i < nr; i++)
			print_key(out, &keys[i], fmt);
		return;
	}
	for (i = 0; i < sec->nr; i++)
		print_scenario_key(out, &sec->keys[i], fmt);
}

/*
 * memcgsim help keys [SECTION|all]: one map's keys (kernel: by default),
 * or every section's, each after a line naming it (".\" SECTION name" in
 * man, "### name" in markdown, "[name]" in TSV, a blank line in text).
 */
static int help_keys(FILE *out, const char *section, const char *fmt)
{
	struct key_section sec[MAX_KEY_SECTIONS];
	unsigned int i, nr = key_sections(sec);
	char names[640];
	size_t len;
	bool all = !strcmp(section, "all");

	for (i = 0; i < nr; i++) {
		if (all) {
			if (!strcmp(fmt, "text"))
				fputs(i ? "\n" : "", out);
			else if (!strcmp(fmt, "man"))
				fprintf(out, ".\\\" SECTION %s\n", sec[i].name);
			else if (!strcmp(fmt, "markdown"))
				fprintf(out, "%s### %s\n\n", i ? "\n" : "",
					sec[i].name);
			else
				fprintf(out, "[%s]\n", sec[i].name);
			help_section(out, &sec[i], fmt);
		} else if (!strcmp(sec[i].name, section)) {
			help_section(out, &sec[i], fmt);
			return EXIT_SUCCESS;
		}
	}
	if (all)
		return EXIT_SUCCESS;
	/* cli_usage_error() takes one argument: the message is made here */
	len = (size_t)snprintf(names, sizeof(names),
			       "help keys: no section '%s' (one of ", section);
	for (i = 0; i < nr && len < sizeof(names); i++)
		len += (size_t)snprintf(names + len, sizeof(names) - len,
					"%s, ", sec[i].name);
	if (len < sizeof(names))
		snprintf(names + len, sizeof(names) - len, "all)");
	return cli_usage_error("%s", names);
}

/* A command of @all by name; not commands[0], which has none. */
static const struct cli_command *find(const struct cli_command *all, size_t nr,
				      const char *name)
{
	size_t i;

	for (i = 1; i < nr; i++)
		if (!strcmp(all[i].name, name))
			return &all[i];
	return NULL;
}

/* An option's help as one roff paragraph: its lines joined. */
static void roff_joined(FILE *out, const char *s)
{
	char buf[1024];
	size_t i;

	snprintf(buf, sizeof(buf), "%s", s);
	for (i = 0; buf[i]; i++)
		if (buf[i] == '\n')
			buf[i] = ' ';
	roff(out, buf);
}

static void man_option(FILE *out, char short_name, const char *long_name,
		       const char *arg, const char *help)
{
	fputs(".TP\n.B ", out);
	if (short_name)
		fprintf(out, "\\-%c, ", short_name);
	fputs("\\-\\-", out);
	roff(out, long_name);
	if (arg) {
		fputs(" \\fI", out);
		roff(out, arg);
		fputs("\\fR", out);
	}
	fputc('\n', out);
	roff_joined(out, help);
	fputs("\n", out);
}

/*
 * The generated part of memcgsim-NAME(1): its SYNOPSIS (the usage line
 * and the command's line of help) and its OPTIONS, from the tables.
 */
static void command_man(FILE *out, const struct cli_command *cmd)
{
	const struct cli_option *const *o;

	fprintf(out, ".SH SYNOPSIS\n.B memcgsim %s\n", cmd->name);
	if (cmd->args[0]) {
		fputs("\\fI", out);
		roff(out, cmd->args);
		fputs("\\fR\n", out);
	}
	if (cmd->options)
		fputs(".RI [ OPTION ]...\n", out);
	fputs(".PP\n", out);
	roff(out, cmd->doc);
	fputs(".\n", out);
	if (!cmd->options)
		return;
	fputs(".SH OPTIONS\n", out);
	for (o = cmd->options; *o; o++)
		man_option(out, (*o)->short_name, (*o)->long_name, (*o)->arg,
			   (*o)->help);
	man_option(out, 'h', "help", NULL, "print these options");
}

/* memcgsim(1)'s list of commands: each with its line and its page. */
static void commands_man(FILE *out, const struct cli_command *all, size_t nr)
{
	size_t i;

	for (i = 1; i < nr; i++) {
		fprintf(out, ".TP\n\\fB%s\\fR", all[i].name);
		if (all[i].args[0]) {
			fputs(" \\fI", out);
			roff(out, all[i].args);
			fputs("\\fR", out);
		}
		fputc('\n', out);
		roff(out, all[i].doc);
		fprintf(out, ";\nsee\n.BR memcgsim\\-%s (1).\n", all[i].name);
	}
}

/*
 * On a terminal, the whole page of @cmd through man(1): the source
 * tree's doc/memcgsim-NAME.1 when @srcdir is given (run from the build
 * tree), else the installed page by name. The command name comes from
 * the table, never from the command line; man runs without a shell.
 * Returns true when man showed it.
 */
static bool show_page(const struct cli_command *cmd, const char *srcdir)
{
	char page[1200], name[64];
	pid_t pid;
	int status;

	if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))
		return false;
	snprintf(name, sizeof(name), "memcgsim-%s", cmd->name);
	if (srcdir) {
		snprintf(page, sizeof(page), "%s/doc/%s.1", srcdir, name);
		if (access(page, R_OK))
			return false;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return false;
	if (!pid) {
		if (srcdir)
			execlp("man", "man", "-l", page, (char *)NULL);
		else
			execlp("man", "man", name, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return false;
	return WIFEXITED(status) && !WEXITSTATUS(status);
}

int cli_help(struct cli *c, const struct cli_command *all, size_t nr,
	     const char *srcdir, int nr_args, char **args)
{
	const struct cli_command *cmd;
	const char *fmt = c->help_format ? c->help_format : "text";
	bool man = !strcmp(fmt, "man");

	if (nr_args > 2 || (nr_args > 1 && strcmp(args[0], "keys")))
		return cli_usage_error("unexpected argument '%s'",
				       args[nr_args - 1]);
	if (nr_args && !strcmp(args[0], "keys"))
		return help_keys(stdout, nr_args > 1 ? args[1] : "kernel", fmt);
	if (!man && strcmp(fmt, "text"))
		return cli_usage_error(
			"help: --format %s is for help keys (help and help COMMAND: text or man)",
			fmt);
	if (!nr_args) {
		if (man)
			commands_man(stdout, all, nr);
		else
			usage(stdout, all, nr);
		return EXIT_SUCCESS;
	}
	cmd = find(all, nr, args[0]);
	if (!cmd)
		return cli_usage_error(
			"help: no command '%s' (see memcgsim help)", args[0]);
	if (man)
		command_man(stdout, cmd);
	else if (!c->help_format && show_page(cmd, srcdir))
		return EXIT_SUCCESS;
	else
		cli_command_help(stdout, cmd, all, nr);
	return EXIT_SUCCESS;
}
