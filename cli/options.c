// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli/options.c - one option parser for every command's option table.
 * See cli/options.h for the theory of operation.
 */
#define _GNU_SOURCE

#include <getopt.h>
#include <stdbool.h>
#include <string.h>

#include "cli/options.h"

#define MAX_OPTIONS 64
#define OPT_BASE 1000	/* getopt's val for the union's option i */

/* The options of every command, each long name once, and -h, --version. */
struct option_union {
	const struct cli_option *opt[MAX_OPTIONS];
	struct option longs[MAX_OPTIONS + 3];
	char shorts[2 * MAX_OPTIONS + 4];
	unsigned int nr;
};

static const struct cli_option *find_option(const struct cli_option *opts,
					    const char *long_name)
{
	for (; opts && opts->long_name; opts++)
		if (!strcmp(opts->long_name, long_name))
			return opts;
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
	u->longs[u->nr] = (struct option){
		o->long_name, o->arg ? required_argument : no_argument, NULL,
		OPT_BASE + (int)u->nr
	};
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
	const struct cli_option *o;
	size_t i;

	memset(u, 0, sizeof(*u));
	strcpy(u->shorts, ":h");
	for (i = 0; i < nr; i++)
		for (o = all[i].options; o && o->long_name; o++)
			union_add(u, o);
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
static size_t owners(const struct cli_command *all, size_t nr,
		     const char *name, const struct cli_command **who)
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
	const struct cli_option *o;
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
		for (o = who[0]->options; o->long_name; o++)
			if (owners(all, nr, o->long_name, also) == 1)
				names[k++] = o->long_name;
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
	fprintf(stderr, "memcgsim: error: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'memcgsim --help'.\n");
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
			 const char *arg, const char *help)
{
	int col;

	if (short_name)
		col = fprintf(out, "  -%c, --%s", short_name, long_name);
	else
		col = fprintf(out, "      --%s", long_name);
	if (arg)
		col += fprintf(out, " %s", arg);
	if (col > 24) {
		fputs("  ", out);
		col += 2;
	}
	cli_wrap(out, help, 26, col);
}

void cli_print_options(FILE *out, const struct cli_option *opts)
{
	for (; opts && opts->long_name; opts++)
		print_option(out, opts->short_name, opts->long_name, opts->arg,
			     opts->help);
	print_option(out, 'h', "help", NULL, "this text");
}
