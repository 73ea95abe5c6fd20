/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli/check.h - memcgsim check, run --dry-run, sweep --dry-run: what each
 * run would cost, printed as a table (cli/check.c), nothing run.
 *
 * Layering: cli/; used by cli/memcgsim.c only (it needs struct cli).
 */
#ifndef CLI_CHECK_H
#define CLI_CHECK_H

#include <stdbool.h>

#include "cli/options.h"
#include "cmd/sweep/sweep.h"

/*
 * cli_check_one() - check @path as `run` would and print its table, with
 * a trace column when @trace; 0, or the exit status after the error.
 */
int cli_check_one(struct cli *c, const char *path, bool trace);
/* run --dry-run: cli_check_one() of c->scenario; 0, 1 or 2. */
int cli_run_dry_run(struct cli *c);
/* memcgsim check SCENARIO...: 0 when all check, else 2. */
int cmd_check(struct cli *c, int nr_args, char **args);
/*
 * cli_announce() - make the run of @c say, before it starts, what it is
 * estimated to take when that is over a minute (the sum of its variants'
 * estimates, in @a, which must live as long as the run).
 */
struct cli_announce {
	unsigned int reps, runs;
	double wall_s;
};
void cli_announce(struct cli *c, struct cli_announce *a);
/* sweep --dry-run: a row per point and variant, the total; 0 or 2. */
int cli_sweep_dry_run(struct cli *c, struct sweep *s);

#endif /* CLI_CHECK_H */
