/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli/help.h - memcgsim's help texts, made from the command, option and
 * key tables (cli/help.c): `memcgsim help`, a command's --help, `help
 * keys`, and the same as roff for the man pages and Markdown for the user
 * guide.
 *
 * Layering: cli/; used by cli/memcgsim.c only.
 */
#ifndef CLI_HELP_H
#define CLI_HELP_H

#include <stddef.h>
#include <stdio.h>

#include "cli/options.h"

/*
 * cli_command_help() - @cmd's usage line, its line of help and its
 * options (commands[0]: the whole usage); @all is the command table, of
 * @nr commands.
 */
void cli_command_help(FILE *out, const struct cli_command *cmd,
		      const struct cli_command *all, size_t nr);

/*
 * cli_help() - memcgsim help [COMMAND|keys [SECTION|all]] [--format FMT]:
 * @nr_args operands @args and c->help_format. FMT is text (the default)
 * or man for the commands, and also markdown or tsv for keys. @srcdir is
 * the source tree when the program runs from its build tree (its doc/
 * holds the man pages), else NULL (the installed pages). Returns the exit
 * status.
 */
int cli_help(struct cli *c, const struct cli_command *all, size_t nr,
	     const char *srcdir, int nr_args, char **args);

#endif /* CLI_HELP_H */
