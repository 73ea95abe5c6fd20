// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/usage.c - the usage errors of calibrate and fit, which read their
 * own options. See cmd/usage.h.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>

#include "cmd/usage.h"
#include "sim/error.h"

int cmd_usage_error(const char *cmd, int status, const char *fmt, ...)
{
	char msg[SIM_ERROR_MSG_MAX], shown[4 * SIM_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "memcgsim: error: %s: %s\nTry 'memcgsim %s --help'.\n",
		cmd, sim_escape(shown, sizeof(shown), msg), cmd);
	return status;
}

int cmd_getopt_other(const char *cmd, int status, int opt, char **argv,
		     const char *usage)
{
	if (opt == 'h') {
		fputs(usage, stdout);
		return -1;
	}
	if (opt == ':')
		return cmd_usage_error(cmd, status, "option '%s' needs a value",
				       argv[optind - 1]);
	return cmd_usage_error(cmd, status, "unknown option '%s'",
			       argv[optind - 1]);
}
