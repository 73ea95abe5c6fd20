/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/explain.h - the teaching view: where the time went, line by line,
 * in words.
 *
 * explain_run() looks at a finished run (models/run.h) and, for its
 * hottest cache lines, says which fields each holds, who touched them and
 * how, how often the line moved and from how far, how long CPUs queued
 * for it, and what pattern that is (true sharing, false sharing, a
 * saturated line) with the usual remedy.
 */
#ifndef MODELS_EXPLAIN_H
#define MODELS_EXPLAIN_H

#include <stdio.h>

#include "models/workload.h"

void explain_run(FILE *out, const char *variant, struct run *run,
		 unsigned int nr_lines);

#endif /* MODELS_EXPLAIN_H */
