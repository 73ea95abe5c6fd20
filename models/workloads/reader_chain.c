// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/workloads/reader_chain.c - a reader chain on a hammered line: the
 * teaching workload of how a contended line serves loads (the machine's
 * coherence.read_service; doc/model/contended-lines.md, item 3).
 *
 * One object, one line: a counter at offset 0 and a pointer at offset 8
 * that points to itself. The workload's last `readers` CPUs chase the
 * pointer (each load's value is the next load's address: a dependent
 * load, coh_read_dep(), as mem_cgroup_under_socket_pressure() follows
 * css.parent); the others lock-add to the counter, thinking think_ns
 * between adds. `count` says whose operations the results count: the
 * readers' (their latency per load) or the adders' (their throughput).
 *
 *	cpu0 --lock xadd-->  [counter | next]  <--load next-- cpu2
 *	cpu1 --lock xadd-->  [  one line    ]  <--load next-- cpu3
 *
 * Layering: models/workloads/ module.
 */
#include <stdlib.h>

#include "models/workloads/workload.h"
#include "sim/co.h"
#include "sim/error.h"
#include "sim/util.h"

struct reader_chain {
	uint64_t readers; /* the last CPUs of the workload */
	unsigned int count; /* index of rc_count_names[]: who counts */
	sim_time_t think_ps; /* the adders', between adds */
	struct coh_object *obj;
};

enum { RC_COUNT_READERS, RC_COUNT_ADDERS };
static const char *const rc_count_names[] = { "readers", "adders" };

static const struct coh_layout_field rc_fields[] = {
	{ "counter", 0, 8 },
	{ "next", 8, 8 },
};

static const struct coh_layout rc_layout = {
	.name = "hammered",
	.size = 64,
	.nr_fields = 2,
	.fields = rc_fields,
};

static const struct scenario_key reader_chain_keys[] = {
	{
		.name = "readers",
		.type = SCENARIO_KEY_U64,
		SCENARIO_KEY_MEMBER(struct reader_chain, readers),
		.min = 1,
		.max = 1023,
		.def = 1,
		.doc = "How many of the workload's CPUs (its last ones) chase the pointer; the others lock-add to the counter beside it",
	},
	{
		.name = "count",
		.type = SCENARIO_KEY_ENUM,
		SCENARIO_KEY_MEMBER(struct reader_chain, count),
		SCENARIO_KEY_NAMES(rc_count_names),
		.def = RC_COUNT_READERS,
		.doc = "Whose operations the results count: readers (a dependent load each) or adders (a lock add each)",
	},
	{
		.name = "think_ns",
		.type = SCENARIO_KEY_TIME,
		SCENARIO_KEY_MEMBER(struct reader_chain, think_ps),
		.unit_ps = SIM_PS_PER_NS,
		.min = 0,
		.max = SIM_PS_PER_MS,
		.def = 0,
		.doc = "The adders' work between two adds",
	},
};

static int reader_chain_parse(struct workload *w, const struct scenario_node *n,
			      const struct machine *m, struct sim_error *err)
{
	struct reader_chain *rc = calloc(1, sizeof(*rc));

	(void)m;
	SIM_OOM_ON(!rc);
	w->priv = rc;
	return scenario_keys_load(n, reader_chain_keys,
				  ARRAY_SIZE(reader_chain_keys), rc, w, err);
}

struct chain_loop_frame {
	struct co_frame co;
	struct sim_task *t;
	struct run *run;
	bool reader, counts;
};

static int chain_loop(struct sim_proc *p, void *frame)
{
	struct chain_loop_frame *f = frame;
	struct sim_task *t = f->t;
	struct reader_chain *rc = t->w->priv;

	CO_BEGIN(f);
	while (task_running(t, f->run)) {
		if (!f->reader)
			coh_delay(t->k.cc, rc->think_ps);
		CO_AWAIT(f, sim_proc_sync(p));
		if (f->counts)
			task_op_begin(t);
		if (f->reader) /* p = READ_ONCE(p->next) */
			CO_AWAIT(f, coh_read_dep(t->k.cc,
						 coh_object_field(rc->obj, 1)));
		else /* atomic_long_add_return(1, &counter) */
			CO_AWAIT(f, coh_rmw(t->k.cc,
					    coh_object_field(rc->obj, 0)));
		if (f->counts)
			task_op_end(t, f->run);
	}
	CO_END(f, p);
}

static void reader_chain_setup(struct workload *w, struct run *run)
{
	struct reader_chain *rc = w->priv;
	unsigned int i, first_reader;

	/* at least one adder: the line is hammered */
	first_reader = rc->readers < w->nr_tasks ?
			       w->nr_tasks - (unsigned int)rc->readers :
			       1;
	rc->obj = coh_object_create(run->coh, "hammered", &rc_layout, 0);
	for (i = 0; i < w->nr_tasks; i++) {
		struct chain_loop_frame *f;

		f = co_push(&w->tasks[i].proc, chain_loop, sizeof(*f));
		f->t = &w->tasks[i];
		f->run = run;
		f->reader = i >= first_reader;
		f->counts = f->reader == (rc->count == RC_COUNT_READERS);
	}
}

static void reader_chain_destroy(struct workload *w)
{
	free(w->priv);
	w->priv = NULL;
}

const struct workload_type reader_chain_type = {
	.name = "reader_chain",
	.summary =
		"CPUs lock-add to a counter while others chase a pointer beside it",
	.keys = reader_chain_keys,
	.nr_keys = ARRAY_SIZE(reader_chain_keys),
	.unit = "ops/s",
	.parse = reader_chain_parse,
	.setup = reader_chain_setup,
	.destroy = reader_chain_destroy,
};
