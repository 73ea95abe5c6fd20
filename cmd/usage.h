/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/usage.h - the usage errors of a command that reads its own options
 * (calibrate and fit: cli/options.c's table reads every other command's).
 *
 *	memcgsim: error: CMD: MESSAGE
 *	Try 'memcgsim CMD --help'.
 *
 * MESSAGE escaped (sim_escape()): it quotes what the user typed.
 *
 * Layering: cmd/; uses sim/error.h.
 */
#ifndef CMD_USAGE_H
#define CMD_USAGE_H

/* The usage error of command @cmd on stderr; returns @status. */
int cmd_usage_error(const char *cmd, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * cmd_getopt_other() - what a getopt_long() loop of @cmd (optstring
 * starting with ':', opterr 0) does with --help ('h': @usage on stdout,
 * -1), a missing value (':') and an unknown option: their usage error,
 * @status.
 */
int cmd_getopt_other(const char *cmd, int status, int opt, char **argv,
		     const char *usage);

#endif /* CMD_USAGE_H */
