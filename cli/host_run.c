// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli/host_run.c - memcgsim host-run: the operand and the options read
 * into struct cli, handed to host_run() (cmd/host-run/host_run.h).
 */
#include "cli/host_run.h"
#include "cmd/host-run/host_run.h"

const struct cli_option *const host_run_options[] = {
	&opt_host_variant,
	&opt_host_replications,
	&opt_host_duration,
	&opt_host_machine,
	&opt_host_predict,
	&opt_host_no_profile,
	&opt_set,
	&opt_quiet,
	&opt_no_plots, /* accepted, as by every command but plot */
	NULL,
};

int cmd_host_run(struct cli *c, int nr_args, char **args)
{
	if (!nr_args)
		return cli_usage_error("host-run: %s", "missing SCENARIO");
	if (nr_args > 1)
		return cli_usage_error("unexpected argument '%s'", args[1]);
	c->host.scenario = args[0];
	c->host.datadir = c->o.datadir;
	c->host.sets = c->sets;
	c->host.nr_sets = c->o.nr_sets;
	c->host.quiet = c->quiet;
	return host_run(&c->host);
}
