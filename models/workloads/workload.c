// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/workloads/workload.c - what every workload's tasks share: counting
 * operations and drawing think times.
 */
#include <gsl/gsl_randist.h>

#include "models/workloads/workload.h"
#include "sim/trace.h"

/*
 * task_op_begin() - an operation starts at the task's clock. Traced, it is
 * a slice on the CPU's track around the calls it makes (sim/trace.h).
 */
void task_op_begin(struct sim_task *t)
{
	t->op_start = t->proc.now;
	if (sim_trace_calls)
		sim_trace_call_enter(sim_trace_calls, t->proc.trace_tid,
				     t->w->type->name, "op", t->op_start);
}

/*
 * task_op_end() - an operation completed at the task's clock. It counts
 * when it completed inside the measured window.
 */
void task_op_end(struct sim_task *t, struct run *r)
{
	sim_time_t now = t->proc.now;

	if (sim_trace_calls)
		sim_trace_call_exit(sim_trace_calls, t->proc.trace_tid, now);
	if (now < r->warmup_ps || now > r->end_ps)
		return;
	t->ops++;
	sim_stat_add(&r->lat, (double)(now - t->op_start) / 1000.0);
}

sim_time_t task_think(struct sim_task *t, sim_time_t mean_ps, bool exponential)
{
	if (!mean_ps || !exponential)
		return mean_ps;
	return (sim_time_t)(sim_ran_exponential(t->rng, (double)mean_ps) + 0.5);
}
