/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli/default.h - memcgsim with no command: the default experiment, its
 * plots (cli_default_plots()) and the line on where to go next
 * (cli_default_next()), printed after its table.
 *
 * Layering: cli/; used by cli/memcgsim.c only (it needs struct cli).
 */
#ifndef CLI_DEFAULT_H
#define CLI_DEFAULT_H

#include "cli/options.h"
#include "sim/report.h"

/* The scenario, under the data directory. */
#define DEFAULT_EXPERIMENT "validation/charge-batch-2022.yaml"

/*
 * cli_default_plots() - draw the default experiment's plots of @r into
 * memcgsim-plots/ with the gnuplot scripts in @script_dir; a missing
 * gnuplot or a failure is a message on stderr, not a failed run.
 */
void cli_default_plots(const struct cli *c, const struct report *r,
		       const char *script_dir);
/* Print the default run's last line: the explain command to try next. */
void cli_default_next(const struct report *r);

#endif /* CLI_DEFAULT_H */
