/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/workloads/workload.h - workloads: what the simulated CPUs run.
 *
 * Theory of operation: a scenario lists workloads; each places one task on
 * each CPU of its `cpus` list (a CPU runs at most one task) and loops a
 * program there until the run ends. A workload type (struct workload_type)
 * knows its scenario keys, reads them (parse), and creates its objects in
 * the simulated memory and pushes each task's first frame (setup); the
 * runner starts the tasks. Every task counts its completed operations, and
 * their latency
 * goes into the run's one latency statistic; the runner resets both at the
 * end of the warm-up.
 *
 * Built-in types: atomic_counter, false_sharing and ops
 * (models/workloads/teaching.c), and netperf, page_fault, fallocate,
 * tlb_flush, hackbench, stat_reader and kmalloc (a file each);
 * models/workloads/registry.c lists them.
 *
 * Layering: models/ module.
 */
#ifndef MODELS_WORKLOADS_WORKLOAD_H
#define MODELS_WORKLOADS_WORKLOAD_H

#include <stdio.h>

#include <gsl/gsl_rng.h>

#include "models/hw/cache.h"
#include "models/kernel/compat/sim.h"
#include "models/kernel/sim/config.h"
#include "models/kernel/sim/kprof.h"
#include "models/hw/machine.h"
#include "sim/scenario.h"
#include "sim/scenario_keys.h"
#include "sim/stats.h"
#include "sim/trace.h"

struct workload;
struct run;

/*
 * struct workload_host - what `memcgsim host-run` (cmd/host-run/) runs on
 * the host for a workload: the real system calls the modelled ones stand
 * for. A type that has such a program fills it in its host() hook after
 * parse and setup; @why says why not otherwise.
 */
enum workload_host_kind {
	WH_UNIX_STREAM, /* af_unix stream pairs: write, read */
	WH_TCP_STREAM, /* TCP loopback pairs: send, recv */
	WH_PAGE_FAULT, /* will-it-scale page_fault1-3 */
	WH_FALLOCATE, /* will-it-scale fallocate1 on shmem */
	WH_STAT_READ, /* read memory.stat of some cgroups */
	WH_SCTP_STREAM, /* SCTP (one-to-one) loopback pairs: send, recv */
	WH_HACKBENCH, /* hackbench groups over af_unix socketpairs */
	WH_KMALLOC, /* kmalloc's analogue: SysV msgsnd()/msgrcv() */
};

struct workload_host {
	enum workload_host_kind kind;
	uint64_t bytes; /* stream pairs, hackbench: the message size */
	/*
	 * hackbench: senders per group, and as many receivers; the tasks of
	 * group g are 2 x fds x g on, its senders first
	 */
	uint64_t fds;
	uint64_t objects; /* kmalloc: objects a round, of @bytes each */
	uint64_t pages; /* page faults: per round; fallocate: the file */
	uint64_t len_pages; /* fallocate: pages per call */
	unsigned int test; /* page faults: 1, 2 or 3 */
	bool threads; /* page faults: threads of one process */
	/*
	 * stream pairs: the tasks of pair i, sender then receiver, as
	 * indexes into the workload's tasks: 2 x @nr_pairs entries of an
	 * array of nr_tasks the caller gave
	 */
	unsigned int *pair_task, nr_pairs;
	/* memory.stat readers: the cgroups read (tree indexes), in an
	 * array of the tree's size the caller gave */
	unsigned int *read, nr_read;
	unsigned int format; /* ... in v1's or v2's format; 0: the kernel's */
	char why[160]; /* host() returned -1: why there is no program */
};

/* One of a workload type's own result metrics (after the warm-up). */
struct workload_metric {
	const char *name; /* a CSV column: static, the same in every variant */
	const char *unit;
	double value;
};

/*
 * struct sim_task - one CPU's task: its process, its memory-system view,
 * its random stream and its counts.
 *
 * Laid out for the host's caches (doc/speed.md): what every operation of a
 * task reads and writes (its counts, its random stream's state, its
 * process's clock and frame stack) fills the first two host lines of a
 * 64-byte aligned struct, so that a run of 256 tasks touches 32 KB of
 * them, not the 100 KB a looser layout spread over five lines per task.
 */
struct sim_task {
	/*
	 * line 0: the kernel's context first, as co_cpu() reads it; @op_start
	 * here, as every operation's end reads it (on line 2 it was an extra
	 * host miss an operation at 1024 x 1024: doc/speed.md)
	 */
	struct kernel_ctx k;
	sim_time_t op_start;
	uint64_t ops; /* operations completed since warm-up */
	/* @rng's state, drawn from by the inline draws (task_think()) */
	struct sim_xoshiro rng_state;
	/* line 1: the process's hot fields come first (sim/engine.h) */
	struct sim_proc proc;
	struct workload *w; /* hot loops keep what they need in their frame */
	unsigned int index; /* within the workload */
	/*
	 * the generator whose state is @rng_state, read only on the draws'
	 * rare paths: its address is passed, nothing loaded (doc/speed.md: the
	 * compiler loaded a pointer to it, kept here, ahead of every draw,
	 * a host line a task more: at 1024 CPUs x 1024 lines cachegrind's
	 * L2 misses went 8.4 -> 7.35 an event without it)
	 */
	gsl_rng rng;
	struct kprof prof; /* time by kernel function */
	/*
	 * Padding to an odd number of host lines (33): at 2048 bytes, a
	 * power of two, the hot first lines of 1024 tasks fell in 32 sets of
	 * a 1 MiB 16-way cache (64 KiB a way), 512 lines for 2048, and each
	 * missed (the wakeup merge's KF_ row made it 2048: LL misses 3.24 ->
	 * 5.07 an event at 1024 x 1024, doc/speed.md). A kernel function
	 * more in struct kprof may need it changed: see the assertion.
	 */
	char pad[64];
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct sim_task) / 64 % 2 == 1,
	       "struct sim_task: an even number of host lines; see its padding");

struct workload_type {
	const char *name;
	const char *summary; /* one line for --help */
	/*
	 * Its keys besides the common ones, declared once: parse reads them
	 * through the table (sim/scenario_keys.h), `memcgsim help keys`
	 * and memcgsim(1) list them.
	 */
	const struct scenario_key *keys;
	unsigned int nr_keys;
	/* The keys of maps inside those (ops: an object, an operation). */
	const struct scenario_key_table *sub_keys;
	unsigned int nr_sub_keys;
	const char *unit; /* of throughput, e.g. "ops/s" */
	bool memcg; /* runs the memory controller's paths */
	int (*parse)(struct workload *w, const struct scenario_node *node,
		     const struct machine *m, struct sim_error *err);
	/* Create objects and push each task's first frame. */
	void (*setup)(struct workload *w, struct run *run);
	void (*destroy)(struct workload *w);
	/*
	 * Optional: the type's own metrics, at most @max into @m (the same
	 * ones in every variant), and what `explain` says of them.
	 */
	unsigned int (*metrics)(const struct workload *w,
				struct workload_metric *m, unsigned int max);
	void (*explain)(const struct workload *w, FILE *out);
	/*
	 * Optional: the program host-run runs on the host for @w (after
	 * setup), 0; or -1 with @h->why set. NULL: there is none.
	 */
	int (*host)(const struct workload *w, struct workload_host *h);
	/*
	 * Optional, for the estimate of a run's work (cmd/run/estimate.h,
	 * struct run's units): the units one operation does besides itself
	 * (the loop iterations and pages charged inside it), and how many
	 * times it repeats the type's per-operation costs (*@repeat: its
	 * work_ns and its time in the memory system; left at 1 when it does
	 * not). NULL: no more than the operation.
	 */
	double (*op_work)(const struct workload *w, double *repeat);
	/*
	 * Optional, for the estimate: the locked RMWs one operation makes,
	 * under kernel @k, on a line every task of @w shares (a per_thread
	 * mm's mmap_lock; v5.13's global statistics threshold). They pass
	 * the line one at a time, which bounds the operations. NULL: none.
	 */
	double (*op_shared_rmws)(const struct workload *w,
				 const struct kernel_config *k);
};

/*
 * struct workload - one entry of the scenario's `workloads:` list.
 */
struct workload {
	const struct workload_type *type;
	unsigned int index; /* in the scenario */
	char cgroup[128];
	unsigned int nr_tasks;
	unsigned int *cpus; /* [nr_tasks], in cpulist order */
	struct sim_task *tasks; /* [nr_tasks] */
	double scale; /* throughput = ops/s x scale */
	const struct cgroup_tree *cgroups; /* the scenario's, for parse */
	void *priv; /* the type's own state */
};

/* The teaching workloads (teaching.c). */
extern const struct workload_type atomic_counter_type;
extern const struct workload_type false_sharing_type;
extern const struct workload_type ops_type;
extern const struct workload_type reader_chain_type; /* reader_chain.c */

/* The memcg workloads, each in its own file. */
extern const struct workload_type netperf_type;
extern const struct workload_type page_fault_type;
extern const struct workload_type fallocate_type;
extern const struct workload_type tlb_flush_type;
extern const struct workload_type hackbench_type;
extern const struct workload_type stat_reader_type;
extern const struct workload_type kmalloc_type;

/* The registry (registry.c): look a type up by name, or list them all. */
const struct workload_type *workload_type_find(const char *name);
unsigned int workload_types(const struct workload_type *const **types);

/* ---- the run ---- */

/*
 * struct run - one variant's simulation: machine, engine, memory, tasks.
 */
struct memcg_sim;

struct run {
	struct machine machine;
	const struct kernel_config *kernel;
	const struct cgroup_tree *cgroups;
	struct memcg_sim *memcg; /* NULL unless a workload needs it */
	struct sim_proc kworker; /* the periodic stats flusher */
	struct kernel_ctx kworker_ctx; /* its CPU and memcg world */
	int kworker_cpu; /* its CPU, or -1: none is idle */
	struct sim_engine *engine;
	struct coh *coh;
	uint64_t seed;
	sim_time_t warmup_ps, end_ps;
	unsigned int nr_workloads;
	struct workload *workloads;
	struct sim_stat lat; /* latency of every task's ops, ns */
	/*
	 * Work done without engine events (issue 34, item 2): a task whose
	 * accesses all hit, or a loop of a million objects in one
	 * operation, runs on its own clock and schedules no event, so a
	 * budget of events alone never sees it. run_work() counts each
	 * operation and each iteration of such loops; every @work_every
	 * units it calls @work_tick (cmd/run/run.c: the --max-events
	 * budget), which may set @stopped: then task_running() is false and
	 * the loops end, and the run is refused. Nothing here changes what
	 * a run that is not stopped computes.
	 */
	uint64_t work, work_next, work_every;
	void (*work_tick)(struct run *r, sim_time_t now);
	void *work_arg;
	bool stopped;
	/*
	 * What task_running() and task_op_end_try() test, one compare each
	 * where two were: @live_end is @end_ps, and 0 once the run is
	 * stopped (run_stop()); @op_next is @work_next, and 0 while calls
	 * are traced (sim_trace_calls, set before a traced run starts and
	 * never during one; run_work_next()).
	 */
	sim_time_t live_end;
	uint64_t op_next;
};

/* run_stop() - @r is stopped: its tasks' loops end (task_running()). */
static inline void run_stop(struct run *r)
{
	r->stopped = true;
	r->live_end = 0;
}

/* run_work_next() - the next work tick is due at @r's @next units. */
static inline void run_work_next(struct run *r, uint64_t next)
{
	r->work_next = next;
	r->op_next = sim_trace_calls ? 0 : next;
}

/*
 * run_work() - @units of work done by a task at @now (see struct run).
 * Returns true when the run is stopped: the loop doing the work ends.
 */
static inline bool run_work(struct run *r, uint64_t units, sim_time_t now)
{
	r->work += units;
	if (__builtin_expect(r->work >= r->work_next, 0)) {
		run_work_next(r, r->work + r->work_every);
		if (r->work_tick)
			r->work_tick(r, now);
	}
	return r->stopped;
}

/*
 * task_rng_init() - @t's random stream: stream @stream of the run seeded
 * with @seed (sim_rng_stream()), held in the task (t->rng and its
 * state t->rng_state: nothing to free).
 */
static inline void task_rng_init(struct sim_task *t, uint64_t seed,
				 uint64_t stream)
{
	sim_rng_stream_init(&t->rng, &t->rng_state, seed, stream);
}

/* Helpers for workload code. */
static inline bool task_running(const struct sim_task *t, const struct run *r)
{
	return t->proc.now < r->live_end;
}
/*
 * task_idle_begin() - the task waits for work (a message, a peer): its
 * time counts as [idle], and its CPU runs nothing, so the CPU's SMT
 * sibling has the core to itself (coh_delay()). task_idle_end() - it
 * runs again. Under sched: fair the next task switched in on the CPU
 * makes it busy again (its workload's run function).
 */
static inline void task_idle_begin(struct sim_task *t)
{
	KPROF_ENTER(&t->prof, KF_IDLE, t->proc.now);
	coh_cpu_set_idle(t->k.cc, true);
}

static inline void task_idle_end(struct sim_task *t)
{
	coh_cpu_set_idle(t->k.cc, false);
	KPROF_EXIT(&t->prof, t->proc.now);
}

/*
 * task_pay_wake() - @t, woken on a CPU that was idle, pays @cost (the IPI
 * and the idle state's exit, cpuidle_wake()) as [wake] before it runs on.
 */
static inline void task_pay_wake(struct sim_task *t, sim_time_t cost)
{
	if (!cost)
		return;
	KPROF_ENTER(&t->prof, KF_WAKE, t->proc.now);
	t->proc.now += cost;
	KPROF_EXIT(&t->prof, t->proc.now);
}

/*
 * task_op_begin() - an operation starts at the task's clock. Traced, it is
 * a slice on the CPU's track around the calls it makes (sim/trace.h).
 * Inline, as task_op_end().
 */
static inline void task_op_begin(struct sim_task *t)
{
	t->op_start = t->proc.now;
	if (__builtin_expect(sim_trace_calls != NULL, 0))
		sim_trace_call_enter(sim_trace_calls, t->proc.trace_tid,
				     t->w->type->name, "op", t->op_start);
}

/*
 * task_op_end() - an operation completed at the task's clock. It counts
 * when it completed inside the measured window. Inline: it ends every
 * operation of every workload, and untraced it is a compare, an add and
 * sim_stat_add()'s store (a call cost as much again).
 */
static inline void task_op_end(struct sim_task *t, struct run *r)
{
	sim_time_t now = t->proc.now;

	if (__builtin_expect(sim_trace_calls != NULL, 0))
		sim_trace_call_exit(sim_trace_calls, t->proc.trace_tid, now);
	run_work(r, 1, now);
	if (now < r->warmup_ps || now > r->end_ps)
		return;
	t->ops++;
	/* in ns; via int64_t as in task_think(): a run is far below 2^63 ps */
	sim_stat_add(&r->lat, (double)(int64_t)(now - t->op_start) / 1000.0);
}

/*
 * task_op_end_try() - task_op_end() of a task running (task_running(): its
 * clock before the run's end) when it needs no call: untraced and the
 * run's work tick not due (run_work(); one test of both, struct run's
 * @op_next), and room for the sample in the latency statistic's array
 * (sim_stat_add()'s common case). False, with nothing done, otherwise:
 * the caller then calls task_op_end(). For a caller that makes no call on
 * its common path (counter_done()).
 */
static inline bool task_op_end_try(struct sim_task *t, struct run *r)
{
	sim_time_t now = t->proc.now;
	bool counted = now >= r->warmup_ps;

	SIM__CHECK(now >= r->end_ps);
	if (__builtin_expect(r->work + 1 >= r->op_next, 0) ||
	    __builtin_expect(counted && !sim_stat_room(&r->lat), 0))
		return false;
	r->work++;
	if (counted) {
		t->ops++;
		sim_stat_add_room(
			&r->lat, (double)(int64_t)(now - t->op_start) / 1000.0);
	}
	return true;
}

/*
 * task_think_mean() - the mean of task_think()'s exponential draw, for a
 * caller that sets it up once: mean_ps as a double.
 */
static inline double task_think_mean(sim_time_t mean_ps)
{
	return (double)(int64_t)mean_ps;
}

/*
 * task_think_round() - a think drawn, @x ps, rounded to the nearest ps, as
 * task_think() does.
 */
static inline sim_time_t task_think_round(double x)
{
	return (sim_time_t)(int64_t)(x + 0.5);
}

/*
 * task_think() - exponential or fixed think time, in ps, rounded to the
 * nearest (inline: drawn every operation). The conversions go through
 * int64_t, which x86-64 does in one instruction each way (uint64_t needs
 * a range test and a branch): exact, as think_ns is at most 1 ms and an
 * exponential draw at most 45 means (sim_ran_exponential()'s largest),
 * far below 2^63 ps.
 */
static inline sim_time_t task_think(struct sim_task *t, sim_time_t mean_ps,
				    bool exponential)
{
	double x;

	if (!mean_ps || !exponential)
		return mean_ps;
	x = sim_ran_exponential_st(&t->rng_state, &t->rng,
				   task_think_mean(mean_ps));
	return task_think_round(x);
}

#endif /* MODELS_WORKLOADS_WORKLOAD_H */
