/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/explain/explain.h - the teaching view: where the time went, line by line,
 * in words.
 *
 * explain_run() looks at a finished run (cmd/run/run.h) and, for its
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

/*
 * explain_sockets() - which socket "another socket" is for line @l on
 * machine @m: on two sockets the hand-off each way from the line's home,
 * on more the home, the range of pair distances (socket_distances) and
 * the share of the line's transfers into each socket. Writes nothing for
 * a line without a home.
 */
void explain_sockets(FILE *out, const struct coh_line *l,
		     const struct machine *m);

/* What explain says a line's transfers are, from its fields' accesses. */
enum explain_verdict {
	EXPLAIN_NO_TRANSFERS, /* the line never moved */
	EXPLAIN_FALSE_SHARING, /* each field touched by one CPU only */
	EXPLAIN_READ_MOSTLY, /* loads of read-mostly fields next to a written one */
	EXPLAIN_TRUE_SHARING, /* one field written by several CPUs */
	EXPLAIN_MIXED, /* fields of different CPUs, none of the above */
	EXPLAIN_NONE, /* one field, read only */
};

/*
 * struct explain_diagnosis - the shares behind a verdict, in percent of
 * the time CPUs queued for the line (of its misses where none queued).
 * @read_mostly_pct: fields written at most once per 20 loads
 * @written_pct: the other written fields
 * @shared_written_pct: those of them written by two CPUs or more
 * @nr_read_mostly, @nr_shared_written: how many such fields
 * @hot: the index in the line's fields of the written field that cost most,
 *	or -1
 */
struct explain_diagnosis {
	double read_mostly_pct, written_pct, shared_written_pct;
	unsigned int nr_read_mostly, nr_shared_written;
	int hot;
};

enum explain_verdict explain_diagnose(const struct coh_line *l,
				      struct explain_diagnosis *d);

#endif /* CLI_EXPLAIN_H */
