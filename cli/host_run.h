/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli/host_run.h - memcgsim host-run SCENARIO: its options from struct
 * cli handed to cmd/host-run/ (host_run.h there has the theory).
 *
 * Layering: cli/; used by cli/memcgsim.c only (it needs struct cli).
 */
#ifndef CLI_HOST_RUN_H
#define CLI_HOST_RUN_H

#include "cli/options.h"

/* Its options, for the command table. */
extern const struct cli_option *const host_run_options[];

/* memcgsim host-run SCENARIO [-v NAME]... [-r N] [--machine PROFILE] */
int cmd_host_run(struct cli *c, int nr_args, char **args);

#endif /* CLI_HOST_RUN_H */
