/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli/explain.h - the teaching view: where the time went, line by line,
 * in words.
 *
 * explain_run() looks at a finished run (cli/run.h) and, for its
 * hottest cache lines, says which fields each holds, who touched them and
 * how, how often the line moved and from how far, how long CPUs queued
 * for it, and what pattern that is (true sharing, false sharing, a
 * saturated line) with the usual remedy.
 */
#ifndef CLI_EXPLAIN_H
#define CLI_EXPLAIN_H

#include <stdio.h>

#include "models/workloads/workload.h"

void explain_run(FILE *out, const char *variant, struct run *run,
		 unsigned int nr_lines);

#endif /* CLI_EXPLAIN_H */
