// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/workloads/teaching.c - microbenchmark workloads for teaching and for
 * checking the coherence model against hand-computed answers.
 *
 * atomic_counter: every CPU loops { think; increment a counter }. Without
 *	batching each increment is a locked RMW on one of `counters` shared
 *	counters, each on its own line, chosen uniformly at random. With
 *	`batch: B` a CPU counts B increments in its own per-CPU counter (a
 *	local RMW on a line only it touches) and adds them to a shared
 *	counter once: the percpu_counter / MEMCG_CHARGE_BATCH idea.
 *
 *	    cpu0 --rmw-->  [counter 0]  <--rmw-- cpu1      one line, N CPUs:
 *	    cpu2 --rmw-->  [counter 1]  <--rmw-- cpu3      throughput ~ 1/xfer
 *
 * false_sharing: every CPU loops { think; update its own field }. With
 *	`layout: packed` the fields sit 8 bytes apart, eight to a line, and
 *	every update takes the line from another CPU although no two CPUs
 *	share a variable; with `layout: padded` each field has its own line
 *	(64 bytes apart, ____cacheline_aligned), two lines to a 128-byte
 *	pair; with `layout: padded128` its own pair (crossbeam's
 *	CachePadded), which the L2 spatial prefetcher does not couple.
 *	`layout: pair` has two fields, the two lines of one pair, and task
 *	i updates field i % 2: two counters each hammered by its own CPUs;
 *	`layout: apart` the same 128 bytes apart.
 *
 * ops: a literal program of primitive operations on declared objects,
 *	run by every CPU of the workload `repeat` times (0: until the end).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "models/kernel/kernel/locking/qspinlock.h"
#include "models/workloads/workload.h"
#include "sim/co.h"
#include "sim/error.h"
#include "sim/util.h"

static const char *const think_names[] = { "fixed", "exponential" };

/* ---- atomic_counter ---- */

struct atomic_counter {
	uint64_t counters; /* K shared counter lines */
	uint64_t batch; /* B increments per shared RMW (1: none) */
	sim_time_t think_ps;
	bool exponential;
	/*
	 * set up for counter_next(): the think is drawn (exponential, of a
	 * mean not 0), with the mean @think_mean (task_think_mean())
	 */
	bool think_draws;
	bool picks; /* more than one counter: each op draws which */
	double think_mean;
	/*
	 * [counters]: each shared counter's field, copied from its object
	 * (coh_object_field(): set when it is created, never moved), 16
	 * bytes a counter: an increment reads its line from here, not from
	 * the object, a host line more a counter, which missed nearly
	 * every atomic at 1024 CPUs x 1024 counters
	 * (`make bench-scale-sim`'s scenario under cachegrind, 512 KiB
	 * 8-way LL: 5.13 -> 4.31 misses an event)
	 */
	struct coh_field *shared;
	struct coh_object **local; /* [nr_tasks] per-CPU counters */
};

static const struct coh_layout_field counter_fields[] = {
	{ "value", 0, 8 },
};

/* A counter padded to its own line (____cacheline_aligned_in_smp). */
static const struct coh_layout counter_layout = {
	.name = "counter",
	.size = 64,
	.nr_fields = 1,
	.fields = counter_fields,
};

/*
 * THINK_KEYS() - think_ns and think, of a workload type's struct with
 * think_ps and exponential members. SIM: think's two values are stored
 * as a bool (exponential is its index 1).
 */
#define THINK_KEYS(st)                                                                              \
	{                                                                                           \
		.name = "think_ns",                                                                 \
		.type = SCENARIO_KEY_TIME,                                                          \
		SCENARIO_KEY_MEMBER(st, think_ps),                                                  \
		.unit_ps = SIM_PS_PER_NS,                                                           \
		.min = 0,                                                                           \
		.max = SIM_PS_PER_MS,                                                               \
		.def = 0,                                                                           \
		.doc = "Think time between operations (mean, when think is exponential)",           \
	},                                                                                          \
	{                                                                                           \
		.name = "think", .type = SCENARIO_KEY_ENUM,                                         \
		SCENARIO_KEY_MEMBER(st, exponential),                                               \
		SCENARIO_KEY_NAMES(think_names), .def = 0,                                          \
		.doc = "fixed (every think is think_ns) or exponential (drawn with mean think_ns)", \
	}

static const struct scenario_key atomic_counter_keys[] = {
	{
		.name = "counters",
		.type = SCENARIO_KEY_U64,
		SCENARIO_KEY_MEMBER(struct atomic_counter, counters),
		.min = 1,
		.max = 4096,
		.def = 1,
		.doc = "Shared counters, each on its own line; each increment picks one uniformly at random",
	},
	{
		.name = "batch",
		.type = SCENARIO_KEY_U64,
		SCENARIO_KEY_MEMBER(struct atomic_counter, batch),
		.min = 1,
		.max = 1 << 20,
		.def = 1,
		.doc = "With B > 1 a CPU counts B increments in its own per-CPU counter, then adds them to a shared counter once (1: every increment is a shared RMW)",
	},
	THINK_KEYS(struct atomic_counter),
};

static int atomic_counter_parse(struct workload *w,
				const struct scenario_node *n,
				const struct machine *m, struct sim_error *err)
{
	struct atomic_counter *ac = calloc(1, sizeof(*ac));

	SIM_OOM_ON(!ac);
	w->priv = ac;
	return scenario_keys_load(n, atomic_counter_keys,
				  ARRAY_SIZE(atomic_counter_keys), ac, w, err);
}

struct counter_loop_frame {
	struct co_frame co;
	struct sim_task *t;
	struct run *run;
	struct atomic_counter *ac; /* t->w->priv, not on t's hot lines */
	uint64_t pending; /* increments not yet added to a shared one */
	/* the shared counter chosen: its field, one load when resumed */
	struct coh_field *counter;
};

/* one host line (sim_proc_init() aligns the stack): read every run */
_Static_assert(sizeof(struct counter_loop_frame) <= 64,
	       "struct counter_loop_frame: more than a host line");

/* The shared counter an increment goes to: one of K at random. */
static inline struct coh_field *counter_pick(struct sim_task *t,
					     const struct atomic_counter *ac)
{
	uint64_t k = 0;

	if (ac->counters > 1)
		k = sim_rng_uniform_int_st(&t->rng_state, &t->rng,
					   ac->counters);

	return &ac->shared[k];
}

/*
 * counter_loop: one CPU of atomic_counter without batching, the hot loop
 * of `make bench-peers`: think, then increment a shared counter, a locked
 * RMW. (Batching has its own loop below, among fewer wait points.)
 *
 * A state machine (sim/co.h), not one coroutine: each state a function,
 * the frame's co.fn while the CPU waits to resume there. counter_start()
 * at the start; counter_arrive() at the end of a think (its wake-up: the
 * RMW's issue); counter_done() once the RMW is done (the line serving it
 * resumes it, or counter_arrive() goes on into it when it was served at
 * once; when the next arrives at once too, the trampoline runs
 * counter_arrive() again); counter_ahead() once it announced one. Each
 * call the loop came back from is now the last act of its state, but the
 * issue and the rare paths' (the think's and the sample's slow draws,
 * the trace): the one coroutine dispatched on its resume point and saved
 * six registers at each of its 1.5 entries an atomic (256 CPUs on 16
 * counters); here the wake-up that only queues its RMW (57% of them)
 * saves two, and the resume after an RMW five, now one (counter_done())
 * (`make bench-insns INSNS_N=N INSNS_K=K`, instructions an atomic:
 * 256/16 600 -> 582, 72/16 585 -> 568, 8/16 467 -> 464, 8/1 562 -> 542,
 * 72/1 571 -> 562, 256/1 556 -> 547).
 */
static int counter_arrive(struct sim_proc *p, void *frame);
static int counter_done(struct sim_proc *p, void *frame);
static int counter_ahead(struct sim_proc *p, void *frame);
static int counter_traced(struct sim_proc *p, void *frame);
static int counter_unannounced(struct sim_proc *p, void *frame);

/*
 * What a step below returns but CO_DONE, CO_WAIT and CO_CALL (the frame's
 * function set): the think ended and the engine is at the CPU's clock, the
 * RMW arrives at its line now. Its caller goes on to it in
 * counter_arrive(), or returns CO_CALL for the trampoline to
 * (counter_step()), so that the stack stays bounded without the
 * compiler's tail calls (an unoptimised build makes none).
 */
#define COUNTER_ARRIVE (-1)

/*
 * counter_sync() - the think has ended at p->now: sync, then arrive (the
 * sync in coh_rmw_ahead(), without its announcement).
 */
static inline __attribute__((always_inline)) int
counter_sync(struct sim_proc *p, struct counter_loop_frame *f)
{
	f->co.fn = counter_arrive;
	if (p->now == sim_now(p->engine))
		return COUNTER_ARRIVE;
	if (!sim_proc_must_yield(p)) {
		/* nothing else is due before: the clock moves there */
		(void)sim_proc_sync_ahead(p);
		return COUNTER_ARRIVE;
	}
	/* its wake-up, to yield to the events due before */
	return sim_proc_sync_ahead(p) ? CO_WAIT : CO_CALL;
}

/*
 * counter_op() - an op from its start (its slice opened, if traced): pick
 * a counter and increment it at the end of the think, which touched
 * nothing shared: announced to the line if it is busy (coh_rmw_ahead()).
 */
static inline __attribute__((always_inline)) int
counter_op(struct sim_proc *p, struct counter_loop_frame *f)
{
	struct sim_task *t = f->t;
	struct atomic_counter *ac = f->ac;
	struct coh_cpu *cc = t->k.cc;

	task_op_begin(t);
	/* one counter: f->counter is set up (atomic_counter_setup()) */
	if (ac->counters > 1)
		f->counter = counter_pick(t, ac);
	if (p->now != sim_now(p->engine) &&
	    coh_rmw_worth_announcing(cc, f->counter->line, p->now)) {
		f->co.fn = counter_ahead;
		return coh_rmw_announce_co(cc, f->counter);
	}
	return counter_sync(p, f);
}

/* counter_think() - the loop's top: think, then the op. */
static inline __attribute__((always_inline)) int
counter_think(struct sim_proc *p, struct counter_loop_frame *f)
{
	struct sim_task *t = f->t;
	struct atomic_counter *ac = f->ac;

	if (!task_running(t, f->run)) {
		p->ret = 0;
		return CO_DONE;
	}
	coh_delay(t->k.cc, task_think(t, ac->think_ps, ac->exponential));
	/* traced, the op's slice opens in the engine's time order */
	if (co_unlikely(sim_trace_calls != NULL)) {
		f->co.fn = counter_traced;
		return sim_proc_sync(p) ? CO_WAIT : CO_CALL;
	}
	return counter_op(p, f);
}

/*
 * A step's result for the trampoline (sim/co.h): COUNTER_ARRIVE is CO_CALL,
 * the frame's function then counter_arrive() (counter_sync() set it).
 */
static inline int counter_step(int r)
{
	return r == COUNTER_ARRIVE ? CO_CALL : r;
}

/*
 * counter_done()'s rare cases from the think on (out of line): the RMW's
 * completion taken (counter_next() does that itself on its common path).
 */
static int __attribute__((noinline))
counter_think_slow(struct sim_proc *p, struct counter_loop_frame *f)
{
	f->t->k.cc->access_done = false;
	return counter_step(counter_think(p, f));
}

/* counter_done()'s rare cases from the op's end on (out of line). */
static int __attribute__((noinline))
counter_done_slow(struct sim_proc *p, struct counter_loop_frame *f)
{
	task_op_end(f->t, f->run);
	return counter_think_slow(p, f);
}

/*
 * counter_task() - the task whose process @p is: its fields are at fixed
 * offsets from @p, without a register of their own.
 */
static inline struct sim_task *counter_task(struct sim_proc *p)
{
	return (struct sim_task *)(void *)((char *)p -
					   offsetof(struct sim_task, proc));
}

/*
 * counter_next_go() - counter_next()'s end, the think drawn (@think ps)
 * and the counter picked: the think's time passes, the op begins, and
 * the RMW is announced, or its wake-up set, or on to counter_arrive().
 */
static inline __attribute__((always_inline)) int
counter_next_go(struct sim_proc *p, struct counter_loop_frame *f,
		struct sim_task *t, sim_time_t think)
{
	struct coh_cpu *cc = t->k.cc;
	struct coh_field *counter;
	sim_time_t now;

	/*
	 * the RMW's completion taken, where its CPU is at hand; then
	 * coh_delay(), and task_op_begin() untraced
	 */
	cc->access_done = false;
	now = p->now + coh_delay_ps(cc, think);
	p->now = now;
	t->op_start = now;
	counter = f->counter;
	/*
	 * sim__proc_sync() (in counter_sync()) is a call, its path's last
	 * act: the one register saved keeps the stack aligned for it (a jump
	 * to a function of its own that converted the result cost 3
	 * instructions an atomic more at 72/1). The announcement is a jump:
	 * coh_rmw_announce_co() returns the step's result itself.
	 */
	if (now != sim_now(p->engine) &&
	    coh_rmw_worth_announcing(cc, counter->line, now)) {
		f->co.fn = counter_ahead;
		return coh_rmw_announce_co(cc, counter);
	}
	return counter_step(counter_sync(p, f));
}

/*
 * counter_next_edge() - counter_next() when the think's draw is not the
 * ziggurat's common case (2.2% of draws: an edge or the tail): the same
 * draws again, from the state in memory, by the _st draws with their
 * rare paths, then counter_next()'s end, where counter_think_slow()
 * went through the whole think and op again (the peers' pair, memcgsim
 * only, instructions an atomic: 256/16 502.00 -> 501.63, 72/1 476.24 ->
 * 474.77, 8/1 474.51 -> 473.10).
 */
static int __attribute__((noinline))
counter_next_edge(struct sim_proc *p, struct counter_loop_frame *f)
{
	struct sim_task *t = counter_task(p);
	const struct atomic_counter *ac = f->ac;
	double x;

	x = sim_ran_exponential_st(&t->rng_state, &t->rng, ac->think_mean);
	if (ac->picks)
		f->counter = &ac->shared[sim_rng_uniform_int_st(
			&t->rng_state, &t->rng, ac->counters)];
	return counter_next_go(p, f, t, task_think_round(x));
}

/*
 * counter_next() - counter_done() once the op has ended: the think, the
 * counter picked, and the RMW announced, or its wake-up set, or on to
 * counter_arrive() (the frame's function, CO_CALL). A function of its
 * own, entered by a jump, so that its registers are allocated afresh:
 * the op's end left its values live in counter_done().
 */
static int __attribute__((noinline))
counter_next(struct sim_proc *p, struct counter_loop_frame *f)
{
	struct sim_task *t = counter_task(p);
	const struct atomic_counter *ac = f->ac;
	struct sim_xoshiro s;
	uint64_t k;
	double x;

	s = t->rng_state;
	/*
	 * The think as a double until the counter is picked, in a register
	 * of its own kind (as an integer it took the one more that made GCC
	 * save a second). A think not drawn is think_ps, exactly (at most 1
	 * ms: atomic_counter_setup()). Both draws expected, so that they are
	 * laid out in line, one after the other; not told, GCC placed them
	 * out of line, jumping back after the pick (`make
	 * bench-peers-insns`, instructions an atomic: 256/16 497.0 -> 495.0,
	 * 72/16 482.3 -> 479.4; 8/1, whose counter is not picked and now
	 * jumps, 468.6 -> 469.5).
	 */
	x = ac->think_mean;
	if (__builtin_expect(ac->think_draws, 1) &&
	    !sim_ran_exponential_try(&s, x, &x))
		return counter_next_edge(p, f);
	if (__builtin_expect(ac->picks, 1)) {
		if (!sim_rng_uniform_int_try(&s, ac->counters, &k))
			return counter_think_slow(p, f);
		f->counter = &ac->shared[k];
	}
	t->rng_state = s;
	return counter_next_go(p, f, t, task_think_round(x));
}

/*
 * counter_end() - the RMW is done: the op ends, and the next begins
 * (counter_next()). Inline in counter_done() and counter_ahead(): the
 * latter's jump to the former cost 2 instructions an atomic at 72/1.
 */
static inline __attribute__((always_inline)) int
counter_end(struct sim_proc *p, struct counter_loop_frame *f)
{
	struct sim_task *t = counter_task(p);

	SIM__CHECK(t != f->t || t->k.cc->proc != p);
	if (!task_running(t, f->run) || !task_op_end_try(t, f->run))
		return counter_done_slow(p, f);
	return counter_next(p, f);
}

/*
 * The RMW is done: the op ends, and the next begins: its think, and its
 * RMW announced, or its wake-up set, or (served at once before, or the
 * think ended before any other event) on to counter_arrive(), by the
 * trampoline.
 *
 * Without a call on its common path: the one function that did all this
 * saved five registers and adjusted the stack, about 15 instructions a
 * run; counter_done() saves none, and counter_next() one. Every case
 * that calls is tested before anything is done and goes out of line
 * (counter_done_slow(), counter_think_slow()), or is its step's last act
 * (the announcement, sim__proc_sync()): the trace, the run's work tick,
 * the latency sample past the exact array, the end of the run, the
 * draws' rare paths. The draws' outputs come from a copy of the random
 * state in registers, written back once: one load and one store of it
 * for both draws, not two.
 */
static int counter_done(struct sim_proc *p, void *frame)
{
	return counter_end(p, frame);
}

/*
 * The think ended (synced): the RMW arrives at its line. Served at once,
 * the op ends and the next begins (counter_done()); when that one too
 * arrives at once, counter_done() returns CO_CALL with this function set,
 * for the trampoline (sim/co.h): no loop here that would keep registers
 * across its call (at 8/16, where a loop would run most, 7% of atomics).
 */
static int counter_arrive(struct sim_proc *p, void *frame)
{
	struct counter_loop_frame *f = frame;
	struct coh_cpu *cc = counter_task(p)->k.cc;

	SIM__CHECK(p != &f->t->proc);
	f->co.fn = counter_done;
	if (coh__access_rmw(cc, f->counter))
		return CO_WAIT;
	/*
	 * Served at once: it goes on, its frame found from the process again
	 * (the top one), so that only the process lives across the call: one
	 * register saved, not two and a stack adjustment (`make bench-insns
	 * INSNS_N=N INSNS_K=K`, instructions an atomic: 256/16 582 -> 577,
	 * 72/16 568 -> 563, 8/16 464 -> 460, 8/1 542 -> 537); the process
	 * kept, not the frame, one load where the process from the frame
	 * took two.
	 */
	return counter_done(p, p->frame);
}

/* The start, and a step that may arrive at once: on to counter_arrive(). */
static inline __attribute__((always_inline)) int
counter_then_arrive(struct sim_proc *p, struct counter_loop_frame *f, int r)
{
	return r == COUNTER_ARRIVE ? counter_arrive(p, f) : r;
}

static int counter_start(struct sim_proc *p, void *frame)
{
	return counter_then_arrive(p, frame, counter_think(p, frame));
}

static int counter_traced(struct sim_proc *p, void *frame)
{
	return counter_then_arrive(p, frame, counter_op(p, frame));
}

/* Not announced after all (rare): it syncs. */
static int counter_unannounced(struct sim_proc *p, void *frame)
{
	return counter_then_arrive(p, frame, counter_sync(p, frame));
}

/*
 * Announced: resumed once the RMW is done (nearly every atomic of 72 CPUs
 * on one counter), or at once when it was not announced, through a
 * function of its own: this one then only passes on, and saves nothing.
 */
static int counter_ahead(struct sim_proc *p, void *frame)
{
	struct counter_loop_frame *f = frame;

	if (f->t->k.cc->access_done)
		return counter_end(p, f);
	f->co.fn = counter_unannounced;
	return CO_CALL;
}

/*
 * counter_batch_loop() - one CPU of atomic_counter with `batch: B`:
 * think, then increment the CPU's own counter, a local RMW, and every
 * B-th time add the B increments to a shared counter, a locked RMW.
 */
static int counter_batch_loop(struct sim_proc *p, void *frame)
{
	struct counter_loop_frame *f = frame;
	struct sim_task *t = f->t;
	struct atomic_counter *ac = f->ac;

	CO_BEGIN(f);
	while (task_running(t, f->run)) {
		coh_delay(t->k.cc,
			  task_think(t, ac->think_ps, ac->exponential));
		CO_AWAIT(f, sim_proc_sync(p));
		task_op_begin(t);
		/* this_cpu_inc(): a locked RMW on an owned line */
		CO_AWAIT(f, coh_rmw(t->k.cc,
				    coh_object_field(ac->local[t->index], 0)));
		if (++f->pending < ac->batch) {
			task_op_end(t, f->run);
			continue;
		}
		f->counter = counter_pick(t, ac);
		/* atomic_long_add(pending, &counter[k]) */
		CO_AWAIT(f, coh_rmw(t->k.cc, f->counter));
		f->pending = 0;
		task_op_end(t, f->run);
	}
	CO_END(f, p);
}

static void atomic_counter_setup(struct workload *w, struct run *run)
{
	struct atomic_counter *ac = w->priv;
	char name[40];
	unsigned int i;

	ac->think_draws = ac->exponential && ac->think_ps;
	ac->picks = ac->counters > 1;
	ac->think_mean = task_think_mean(ac->think_ps);
	SIM_BUG_ON(task_think_round(ac->think_mean) != ac->think_ps);
	ac->shared = calloc(ac->counters, sizeof(*ac->shared));
	ac->local = calloc(w->nr_tasks, sizeof(*ac->local));
	SIM_OOM_ON(!ac->shared || !ac->local);
	for (i = 0; i < ac->counters; i++) {
		snprintf(name, sizeof(name), "counter[%u]", i);
		ac->shared[i] = *coh_object_field(
			coh_object_create(run->coh, name, &counter_layout, 0),
			0);
	}
	for (i = 0; i < w->nr_tasks; i++) {
		struct sim_task *t = &w->tasks[i];
		struct counter_loop_frame *f;

		snprintf(name, sizeof(name), "percpu[%u]", w->cpus[i]);
		ac->local[i] =
			coh_object_create(run->coh, name, &counter_layout, 0);
		f = co_push(&t->proc,
			    ac->batch > 1 ? counter_batch_loop : counter_start,
			    sizeof(*f));
		f->t = t;
		f->run = run;
		f->ac = ac;
		f->counter = &ac->shared[0];
		/* after an increment it counts the op and thinks: nothing shared */
		coh_cpu_allow_resume(t->k.cc);
	}
}

static void atomic_counter_destroy(struct workload *w)
{
	struct atomic_counter *ac = w->priv;

	if (!ac)
		return;
	free(ac->shared);
	free(ac->local);
	free(ac);
	w->priv = NULL;
}

/* ---- false_sharing ---- */

struct false_sharing {
	unsigned int layout_idx; /* index of fs_layout_names[] */
	unsigned int op_name; /* index of fs_op_names[] */
	enum coh_op op;
	sim_time_t think_ps;
	bool exponential;
	struct coh_layout layout;
	struct coh_layout_field *fields;
	char (*names)[16];
	struct coh_object *obj;
};

enum { FS_PACKED, FS_PADDED, FS_PADDED128, FS_PAIR, FS_APART };
static const char *const fs_layout_names[] = { "packed", "padded", "padded128",
					       "pair", "apart" };
/* bytes from one field to the next, by layout */
static const unsigned int fs_stride[] = { 8, 64, 128, 64, 128 };
static const char *const fs_op_names[] = { "write", "rmw" };

static const struct scenario_key false_sharing_keys[] = {
	{
		.name = "layout",
		.type = SCENARIO_KEY_ENUM,
		SCENARIO_KEY_MEMBER(struct false_sharing, layout_idx),
		SCENARIO_KEY_NAMES(fs_layout_names),
		.def = 0,
		.doc = "packed (fields 8 bytes apart, eight to a line), padded (one field per 64-byte line), padded128 (one per 128-byte pair), pair (two fields, the two lines of one 128-byte pair, task i updating field i % 2) or apart (the same two fields 128 bytes apart)",
	},
	{
		.name = "op",
		.type = SCENARIO_KEY_ENUM,
		SCENARIO_KEY_MEMBER(struct false_sharing, op_name),
		SCENARIO_KEY_NAMES(fs_op_names),
		.def = 0,
		.doc = "write (a plain store) or rmw (a locked read-modify-write)",
	},
	THINK_KEYS(struct false_sharing),
};

static int false_sharing_parse(struct workload *w,
			       const struct scenario_node *n,
			       const struct machine *m, struct sim_error *err)
{
	struct false_sharing *fs = calloc(1, sizeof(*fs));

	SIM_OOM_ON(!fs);
	w->priv = fs;
	if (scenario_keys_load(n, false_sharing_keys,
			       ARRAY_SIZE(false_sharing_keys), fs, w, err))
		return -1;
	fs->op = fs->op_name ? COH_RMW : COH_WRITE;
	return 0;
}

/* Two fields for pair and apart, one per task for the others. */
static bool fs_two(const struct false_sharing *fs)
{
	return fs->layout_idx == FS_PAIR || fs->layout_idx == FS_APART;
}

/*
 * The field task @index updates. pair has three lines, 64 bytes apart, so
 * that two of them are a 128-byte pair wherever the object lands: the
 * first two when it starts a pair, else the last two.
 */
static unsigned int fs_field(const struct false_sharing *fs, unsigned int index)
{
	if (!fs_two(fs))
		return index;
	if (fs->layout_idx == FS_PAIR && fs->obj->base % 128)
		return 1 + index % 2;
	return index % 2;
}

struct field_loop_frame {
	struct co_frame co;
	struct sim_task *t;
	struct run *run;
};

static int field_loop(struct sim_proc *p, void *frame)
{
	struct field_loop_frame *f = frame;
	struct sim_task *t = f->t;
	struct false_sharing *fs = t->w->priv;

	CO_BEGIN(f);
	while (task_running(t, f->run)) {
		coh_delay(t->k.cc,
			  task_think(t, fs->think_ps, fs->exponential));
		CO_AWAIT(f, sim_proc_sync(p));
		task_op_begin(t);
		/* WRITE_ONCE(s->field[cpu], ...) or atomic_inc() */
		CO_AWAIT(f, coh_access(t->k.cc,
				       coh_object_field(fs->obj,
							fs_field(fs, t->index)),
				       fs->op));
		task_op_end(t, f->run);
	}
	CO_END(f, p);
}

static void false_sharing_setup(struct workload *w, struct run *run)
{
	struct false_sharing *fs = w->priv;
	unsigned int i, stride = fs_stride[fs->layout_idx];
	unsigned int nr = fs->layout_idx == FS_PAIR  ? 3 :
			  fs->layout_idx == FS_APART ? 2 :
						       w->nr_tasks;

	fs->fields = calloc(nr, sizeof(*fs->fields));
	fs->names = calloc(nr, sizeof(*fs->names));
	SIM_OOM_ON(!fs->fields || !fs->names);
	for (i = 0; i < nr; i++) {
		if (fs_two(fs))
			snprintf(fs->names[i], sizeof(fs->names[i]), "c%u", i);
		else
			snprintf(fs->names[i], sizeof(fs->names[i]), "cpu%u",
				 w->cpus[i]);
		fs->fields[i].name = fs->names[i];
		fs->fields[i].offset = i * stride;
		fs->fields[i].size = 8;
	}
	fs->layout.name = fs_layout_names[fs->layout_idx];
	fs->layout.size = nr * stride;
	fs->layout.nr_fields = nr;
	fs->layout.fields = fs->fields;
	fs->obj = coh_object_create(run->coh, fs->layout.name, &fs->layout, 0);
	for (i = 0; i < w->nr_tasks; i++) {
		struct field_loop_frame *f;

		f = co_push(&w->tasks[i].proc, field_loop, sizeof(*f));
		f->t = &w->tasks[i];
		f->run = run;
		/* after its update it counts the op and thinks: nothing shared */
		coh_cpu_allow_resume(w->tasks[i].k.cc);
	}
}

static void false_sharing_destroy(struct workload *w)
{
	struct false_sharing *fs = w->priv;

	if (!fs)
		return;
	free(fs->fields);
	free(fs->names);
	free(fs);
	w->priv = NULL;
}

/* ---- ops ---- */

enum ops_kind {
	OPS_READ,
	OPS_WRITE,
	OPS_RMW,
	OPS_DELAY,
	OPS_FENCE,
	OPS_LOCK,
	OPS_UNLOCK,
	NR_OPS_KINDS
};

/* FIELD_OP() - an operation on OBJECT.FIELD (or LOCK), read by ops_resolve(). */
#define FIELD_OP(key, what, text)                                           \
	{                                                                   \
		.name = (key), .type = SCENARIO_KEY_CUSTOM, .form = (what), \
		.doc = (text),                                              \
	}

/*
 * The operations of a program, each a one-key map {KIND: VALUE}, in the
 * order of enum ops_kind (the key's index is the operation's kind).
 */
static const struct scenario_key ops_insn_keys[NR_OPS_KINDS] = {
	[OPS_READ] = FIELD_OP("read", "OBJECT.FIELD",
			      "A load of the field (posted on a miss)"),
	[OPS_WRITE] = FIELD_OP("write", "OBJECT.FIELD",
			       "A store to the field (posted on a miss)"),
	[OPS_RMW] = FIELD_OP("rmw", "OBJECT.FIELD",
			     "A locked read-modify-write of the field"),
	[OPS_DELAY] = {
		.name = "delay_ns",
		.type = SCENARIO_KEY_TIME,
		.size = sizeof(sim_time_t),
		.unit_ps = SIM_PS_PER_NS,
		.min = 0,
		.max = SIM_PS_PER_MS,
		.def_doc = "", /* no default: the key is the operation */
		.doc = "Time on the CPU that touches no memory",
	},
	[OPS_FENCE] = {
		.name = "fence",
		.type = SCENARIO_KEY_BOOL,
		.size = sizeof(bool),
		.def = true,
		.def_doc = "", /* no default: the key is the operation */
		.doc = "Wait for every posted load and store, as a locked RMW or the end of a kernel function does; only true",
	},
	[OPS_LOCK] = FIELD_OP("lock", "LOCK",
			      "queued_spin_lock() of an object with lock: true"),
	[OPS_UNLOCK] = FIELD_OP("unlock", "LOCK",
				"queued_spin_unlock() of a lock the task holds"),
};

struct ops_insn {
	enum ops_kind kind;
	unsigned int obj, field; /* memory operations */
	unsigned int lock; /* lock and unlock */
	sim_time_t ps; /* delay */
};

#define OPS_MAX_OBJECTS 64
#define OPS_MAX_FIELDS 64
#define OPS_MAX_INSNS 1024

struct ops_object {
	char name[32];
	struct coh_layout layout;
	struct coh_layout_field fields[OPS_MAX_FIELDS];
	char field_names[OPS_MAX_FIELDS][32];
	unsigned int offset_in_line;
	bool is_lock;
	struct coh_object *obj;
	struct qspinlock lock;
};

struct ops_workload {
	unsigned int nr_objects;
	struct ops_object *objects;
	unsigned int nr_insns;
	struct ops_insn *insns;
	uint64_t repeat;
};

/* objects and program are read by ops_parse(), repeat by the table. */
static const struct scenario_key ops_keys[] = {
	{
		.name = "objects",
		.type = SCENARIO_KEY_CUSTOM,
		.required = true,
		.form = "list",
		.doc = "The objects the program touches, 1 to 64: each {name, fields: {FIELD: OFFSET, ...}, offset_in_line, lock}",
	},
	{
		.name = "program",
		.type = SCENARIO_KEY_CUSTOM,
		.required = true,
		.form = "list",
		.doc = "The operations each task loops over, 1 to 1024, each a map of one kind: read, write or rmw of OBJECT.FIELD, lock or unlock of an object, delay_ns, fence",
	},
	{
		.name = "repeat",
		.type = SCENARIO_KEY_U64,
		SCENARIO_KEY_MEMBER(struct ops_workload, repeat),
		.min = 0,
		.max = UINT32_MAX,
		.def = 0,
		.doc = "How many times each task runs the program (0: until the run ends)",
	},
};

/* The keys of each object of `objects`, in the order they are read. */
static const struct scenario_key ops_object_keys[] = {
	{
		.name = "name",
		.type = SCENARIO_KEY_STRING,
		.required = true,
		.size = sizeof(const char *), /* checked by ops_parse_object() */
		.doc = "How the program names it: at most 31 characters, no '.'",
	},
	{
		.name = "fields",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "map",
		.def_doc = "a lock's one 4-byte word",
		.doc = "{FIELD: OFFSET, ...}: 1 to 64 fields of 8 bytes each, at byte offsets 0 to 1048576; required but for a lock",
	},
	{
		.name = "offset_in_line",
		.type = SCENARIO_KEY_U64,
		SCENARIO_KEY_MEMBER(struct ops_object, offset_in_line),
		.min = 0,
		.max = 63,
		.def = 0,
		.doc = "Where the object starts in its cache line",
	},
	{
		.name = "lock",
		.type = SCENARIO_KEY_BOOL,
		SCENARIO_KEY_MEMBER(struct ops_object, is_lock),
		.def = false,
		.doc = "A qspinlock the program takes with lock and releases with unlock; without fields, one 4-byte word",
	},
};

/* Keys of the maps inside ops' keys, for `memcgsim help keys`. */
static const struct scenario_key_table ops_sub_keys[] = {
	{ "ops.objects", ops_object_keys, ARRAY_SIZE(ops_object_keys) },
	{ "ops.program", ops_insn_keys, NR_OPS_KINDS },
};

static int ops_parse_object(struct ops_object *o, const struct scenario_node *n,
			    struct sim_error *err)
{
	const char *names[ARRAY_SIZE(ops_object_keys)];
	const struct scenario_node *fields;
	const char *name;
	uint64_t v;
	size_t i;

	scenario_key_names(ops_object_keys, ARRAY_SIZE(names), names, 0,
			   ARRAY_SIZE(names));
	if (scenario_check_keys(n, names, ARRAY_SIZE(names), err) ||
	    scenario_key_get(n, &ops_object_keys[0], &name, err) ||
	    scenario_keys_load(n, ops_object_keys + 1,
			       ARRAY_SIZE(ops_object_keys) - 1, o, NULL, err))
		return -1;
	if (!*name || strlen(name) >= sizeof(o->name) || strchr(name, '.')) {
		scenario_error(err, scenario_get(n, "name"),
			       "expected a short name without '.', found '%s'",
			       name);
		return -1;
	}
	snprintf(o->name, sizeof(o->name), "%s", name);
	o->layout.name = o->name;
	o->layout.fields = o->fields;
	fields = scenario_get(n, "fields");
	if (o->is_lock && !fields) {
		/* A lock is one 4-byte word, struct qspinlock. */
		snprintf(o->field_names[0], sizeof(o->field_names[0]), "val");
		o->fields[0] =
			(struct coh_layout_field){ o->field_names[0], 0, 4 };
		o->layout.nr_fields = 1;
		o->layout.size = 4;
		return 0;
	}
	if (!fields || scenario_kind(fields) != SCENARIO_MAP ||
	    !scenario_len(fields) || scenario_len(fields) > OPS_MAX_FIELDS) {
		scenario_error(
			err, fields ? fields : n,
			"expected 'fields': a map of 1 to %d field names to byte offsets",
			OPS_MAX_FIELDS);
		return -1;
	}
	for (i = 0; i < scenario_len(fields); i++) {
		const char *fname = scenario_key(fields, i);

		if (scenario_u64(fields, fname, true, 0, 0, 1 << 20, &v, err))
			return -1;
		snprintf(o->field_names[i], sizeof(o->field_names[i]), "%s",
			 fname);
		o->fields[i] = (struct coh_layout_field){ o->field_names[i],
							  (unsigned int)v, 8 };
		if (v + 8 > o->layout.size)
			o->layout.size = (unsigned int)v + 8;
	}
	o->layout.nr_fields = (unsigned int)i;
	return 0;
}

/* Resolve "object.field" (or a lock's name) for an instruction. */
static int ops_resolve(struct ops_workload *ow, struct ops_insn *in,
		       const struct scenario_node *n, struct sim_error *err)
{
	const char *ref = scenario_scalar(n), *dot;
	bool lock_op = in->kind == OPS_LOCK || in->kind == OPS_UNLOCK;
	struct ops_object *o = NULL;
	unsigned int i, j;
	size_t len;

	if (!ref || !*ref) {
		scenario_error(err, n, "expected %s",
			       lock_op ? "the name of a lock object" :
					 "OBJECT.FIELD");
		return -1;
	}
	dot = strchr(ref, '.');
	len = dot ? (size_t)(dot - ref) : strlen(ref);
	for (i = 0; i < ow->nr_objects && !o; i++)
		if (strlen(ow->objects[i].name) == len &&
		    !strncmp(ow->objects[i].name, ref, len))
			o = &ow->objects[i];
	if (!o) {
		scenario_error(err, n, "no object named '%.*s' in 'objects'",
			       (int)len, ref);
		return -1;
	}
	if (lock_op) {
		if (!o->is_lock || dot) {
			scenario_error(
				err, n,
				"expected the name of an object with 'lock: true', found '%s'",
				ref);
			return -1;
		}
		in->lock = (unsigned int)(o - ow->objects);
		return 0;
	}
	for (j = 0; dot && j < o->layout.nr_fields; j++) {
		if (!strcmp(o->fields[j].name, dot + 1)) {
			in->obj = (unsigned int)(o - ow->objects);
			in->field = j;
			return 0;
		}
	}
	scenario_error(err, n, "object '%s' has no field '%s'", o->name,
		       dot ? dot + 1 : "");
	return -1;
}

static int ops_parse_insn(struct ops_workload *ow, struct ops_insn *in,
			  const struct scenario_node *n, struct sim_error *err)
{
	const char *names[NR_OPS_KINDS], *key;
	unsigned int k;

	if (scenario_kind(n) != SCENARIO_MAP || scenario_len(n) != 1) {
		scenario_error(
			err, n,
			"expected one operation like {rmw: obj.field}, {delay_ns: 10} or {fence: true}");
		return -1;
	}
	scenario_key_names(ops_insn_keys, NR_OPS_KINDS, names, 0, NR_OPS_KINDS);
	if (scenario_check_keys(n, names, NR_OPS_KINDS, err))
		return -1;
	key = scenario_key(n, 0);
	for (k = 0; strcmp(ops_insn_keys[k].name, key); k++)
		;
	in->kind = k;
	switch (in->kind) {
	case OPS_DELAY:
		return scenario_key_get(n, &ops_insn_keys[OPS_DELAY], &in->ps,
					err);
	case OPS_FENCE: {
		bool on;

		if (scenario_key_get(n, &ops_insn_keys[OPS_FENCE], &on, err))
			return -1;
		if (!on) {
			scenario_error(
				err, scenario_item(n, 0),
				"expected true ({fence: true}), found false");
			return -1;
		}
		return 0;
	}
	default:
		return ops_resolve(ow, in, scenario_item(n, 0), err);
	}
}

/*
 * ops_check_program() - refuse programs that cannot run: a lock taken
 * twice without an unlock (it would deadlock), an unlock of a lock not
 * held, a program that ends holding a lock, and a program that takes no
 * simulated time (only fences and zero delays: it would loop forever at
 * one instant).
 */
static int ops_check_program(const struct ops_workload *ow,
			     const struct scenario_node *prog,
			     struct sim_error *err)
{
	bool held[OPS_MAX_OBJECTS] = { false }, takes_time = false;
	unsigned int i;

	for (i = 0; i < ow->nr_insns; i++) {
		const struct ops_insn *in = &ow->insns[i];
		const struct scenario_node *n = scenario_item(prog, i);
		const char *name = ow->objects[in->lock].name;

		if (in->kind == OPS_DELAY ? in->ps > 0 : in->kind != OPS_FENCE)
			takes_time = true;
		if (in->kind == OPS_LOCK && held[in->lock]) {
			scenario_error(
				err, n,
				"lock '%s' is already held here: taking it again would deadlock",
				name);
			return -1;
		}
		if (in->kind == OPS_UNLOCK && !held[in->lock]) {
			scenario_error(
				err, n,
				"unlock of '%s', which the program does not hold here",
				name);
			return -1;
		}
		if (in->kind == OPS_LOCK || in->kind == OPS_UNLOCK)
			held[in->lock] = in->kind == OPS_LOCK;
	}
	for (i = 0; i < ow->nr_objects; i++) {
		if (held[i]) {
			scenario_error(
				err, prog,
				"the program ends holding lock '%s': add {unlock: %s}",
				ow->objects[i].name, ow->objects[i].name);
			return -1;
		}
	}
	if (!takes_time) {
		scenario_error(
			err, prog,
			"the program takes no simulated time (only fences and zero delays) and would never end: add a memory operation or a delay");
		return -1;
	}
	return 0;
}

static int ops_parse(struct workload *w, const struct scenario_node *n,
		     const struct machine *m, struct sim_error *err)
{
	const struct scenario_node *objs = scenario_get(n, "objects");
	const struct scenario_node *prog = scenario_get(n, "program");
	struct ops_workload *ow = calloc(1, sizeof(*ow));
	size_t i, nr_objs, nr_insns;

	SIM_OOM_ON(!ow);
	w->priv = ow;
	if (scenario_key_load(n,
			      scenario_key_find(ops_keys, ARRAY_SIZE(ops_keys),
						"repeat"),
			      ow, w, err))
		return -1;
	nr_objs = objs ? scenario_len(objs) : 0;
	if (!objs || scenario_kind(objs) != SCENARIO_SEQ || !nr_objs ||
	    nr_objs > OPS_MAX_OBJECTS) {
		scenario_error(err, objs ? objs : n,
			       "expected 'objects': a list of 1 to %d objects",
			       OPS_MAX_OBJECTS);
		return -1;
	}
	nr_insns = prog ? scenario_len(prog) : 0;
	if (!prog || scenario_kind(prog) != SCENARIO_SEQ || !nr_insns ||
	    nr_insns > OPS_MAX_INSNS) {
		scenario_error(
			err, prog ? prog : n,
			"expected 'program': a list of 1 to %d operations",
			OPS_MAX_INSNS);
		return -1;
	}
	ow->objects = calloc(nr_objs, sizeof(*ow->objects));
	ow->insns = calloc(nr_insns, sizeof(*ow->insns));
	SIM_OOM_ON(!ow->objects || !ow->insns);
	for (i = 0; i < nr_objs; i++) {
		if (ops_parse_object(&ow->objects[i], scenario_item(objs, i),
				     err))
			return -1;
		ow->nr_objects++;
	}
	for (i = 0; i < nr_insns; i++) {
		if (ops_parse_insn(ow, &ow->insns[i], scenario_item(prog, i),
				   err))
			return -1;
		ow->nr_insns++;
	}
	return ops_check_program(ow, prog, err);
}

/* The instruction at @pc (the first past the end), recomputed on resume. */
static inline struct ops_insn *ops_insn_at(struct ops_workload *ow,
					   unsigned int pc)
{
	return &ow->insns[pc < ow->nr_insns ? pc : 0];
}

/* The object (or lock) instruction @in works on. */
static inline struct ops_object *ops_object_of(struct ops_workload *ow,
					       const struct ops_insn *in)
{
	bool lock_op = in->kind == OPS_LOCK || in->kind == OPS_UNLOCK;

	return &ow->objects[lock_op ? in->lock : in->obj];
}

struct ops_loop_frame {
	struct co_frame co;
	struct sim_task *t;
	struct run *run;
	uint64_t iter;
	unsigned int pc;
};

static int ops_loop(struct sim_proc *p, void *frame)
{
	struct ops_loop_frame *f = frame;
	struct sim_task *t = f->t;
	struct ops_workload *ow = t->w->priv;
	struct ops_insn *in = ops_insn_at(ow, f->pc);
	struct ops_object *o = ops_object_of(ow, in);

	CO_BEGIN(f);
	for (f->iter = 0; !ow->repeat || f->iter < ow->repeat; f->iter++) {
		if (!task_running(t, f->run))
			break;
		CO_AWAIT(f, sim_proc_sync(p));
		task_op_begin(t);
		for (f->pc = 0; f->pc < ow->nr_insns; f->pc++) {
			in = ops_insn_at(ow, f->pc);
			o = ops_object_of(ow, in);
			if (in->kind == OPS_DELAY) {
				coh_delay(t->k.cc, in->ps);
			} else if (in->kind == OPS_FENCE) {
				CO_AWAIT(f, coh_fence(t->k.cc));
			} else if (in->kind == OPS_LOCK) {
				CO_CALL(f, p, queued_spin_lock,
					.lock = &o->lock);
			} else if (in->kind == OPS_UNLOCK) {
				CO_AWAIT(f,
					 queued_spin_unlock(t->k.cc, &o->lock));
			} else {
				CO_AWAIT(f,
					 coh_access(t->k.cc,
						    coh_object_field(o->obj,
								     in->field),
						    (enum coh_op)in->kind));
			}
		}
		/* The program ends like a kernel function: a fence. */
		CO_AWAIT(f, coh_fence(t->k.cc));
		task_op_end(t, f->run);
	}
	CO_END(f, p);
}

static void ops_setup(struct workload *w, struct run *run)
{
	struct ops_workload *ow = w->priv;
	unsigned int i;

	for (i = 0; i < ow->nr_objects; i++) {
		struct ops_object *o = &ow->objects[i];

		o->obj = coh_object_create(run->coh, o->name, &o->layout,
					   o->offset_in_line);
		if (o->is_lock)
			qspinlock_init(&o->lock, coh_object_field(o->obj, 0),
				       run->machine.nr_cpus);
	}
	for (i = 0; i < w->nr_tasks; i++) {
		struct ops_loop_frame *f;

		f = co_push(&w->tasks[i].proc, ops_loop, sizeof(*f));
		f->t = &w->tasks[i];
		f->run = run;
	}
}

static void ops_destroy(struct workload *w)
{
	struct ops_workload *ow = w->priv;
	unsigned int i;

	if (!ow)
		return;
	for (i = 0; i < ow->nr_objects; i++)
		if (ow->objects[i].is_lock)
			qspinlock_destroy(&ow->objects[i].lock);
	free(ow->objects);
	free(ow->insns);
	free(ow);
	w->priv = NULL;
}

/* ---- the types (registered in models/workloads/registry.c) ---- */

const struct workload_type atomic_counter_type = {
	.name = "atomic_counter",
	.summary = "CPUs incrementing shared counters (contention, batching)",
	.keys = atomic_counter_keys,
	.nr_keys = ARRAY_SIZE(atomic_counter_keys),
	.unit = "ops/s",
	.parse = atomic_counter_parse,
	.setup = atomic_counter_setup,
	.destroy = atomic_counter_destroy,
};

const struct workload_type false_sharing_type = {
	.name = "false_sharing",
	.summary = "each CPU updates its own field, packed or padded",
	.keys = false_sharing_keys,
	.nr_keys = ARRAY_SIZE(false_sharing_keys),
	.unit = "ops/s",
	.parse = false_sharing_parse,
	.setup = false_sharing_setup,
	.destroy = false_sharing_destroy,
};

const struct workload_type ops_type = {
	.name = "ops",
	.summary = "a literal program of reads, writes, RMWs, locks, delays",
	.keys = ops_keys,
	.nr_keys = ARRAY_SIZE(ops_keys),
	.sub_keys = ops_sub_keys,
	.nr_sub_keys = ARRAY_SIZE(ops_sub_keys),
	.unit = "programs/s",
	.parse = ops_parse,
	.setup = ops_setup,
	.destroy = ops_destroy,
};
