// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/workloads/workload.c - what every workload's tasks share: counting
 * operations (task_op_end() and task_think() are inline in workload.h).
 */
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
