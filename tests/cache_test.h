/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tests/cache_test.h - what the coherence model's suites share
 * (tests/check_cache.c, tests/check_coh_law.c, tests/check_contended.c),
 * on tests/harness.h's machine, engine and CPUs: a machine with round
 * numbers, a test object, and simulated CPUs that each run a script of
 * steps and record when each completed. check_cache.c's
 * opening comment gives the machine's numbers.
 */
#ifndef TESTS_CACHE_TEST_H
#define TESTS_CACHE_TEST_H

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "models/hw/cache.h"
#include "models/hw/coh_law.h"
#include "models/hw/machine.h"
#include "models/kernel/kernel/locking/qspinlock.h"
#include "sim/co.h"
#include "sim/scenario.h"
#include "sim/trace.h"
#include "tests/harness.h"

#define NS 1000ull /* ps per ns */

static const char machine_yaml[] = "name: test-2s-16\n"
				   "sockets: 2\n"
				   "cores_per_socket: 4\n"
				   "threads_per_core: 2\n"
				   "latencies:\n"
				   "  l1_hit: {ns: 1, source: test}\n"
				   "  llc_hit: {ns: 20, source: test}\n"
				   "  memory: {ns: 80, source: test}\n"
				   "  rmw_local: {ns: 5, source: test}\n"
				   "  xfer_smt: {ns: 10, source: test}\n"
				   "  xfer_llc: {ns: 50, source: test}\n"
				   "  xfer_socket: {ns: 100, source: test}\n"
				   "  inval_per_sharer: {ns: 2, source: test}\n"
				   "  xfer_per_waiter: {ns: %s, source: test}\n"
				   "%s"
				   "coherence:\n"
				   "  handoff: %s\n"
				   "  hold: {ns: 20, source: test}\n"
				   "  occupancy: {fraction: %s, source: test}\n"
				   "%s";

static const char law_keys[] =
	"  xfer_socket_remote_home: {ns: 160, source: test}\n"
	"  upgrade_llc: {ns: 70, source: test}\n"
	"  upgrade_socket: {ns: 200, source: test}\n"
	"  conflict_local: {ns: 20, source: test}\n"
	"  conflict_remote: {ns: 40, source: test}\n";

/* Extra latency keys for the next harness_init(): "" or law_keys. */
static const char *extra_keys = "";
/* Extra coherence keys for the next harness_init(). */
static const char *extra_coherence = "";

enum step_kind {
	READ,
	WRITE,
	RMW,
	DELAY,
	FENCE,
	LOCK,
	UNLOCK,
	LOOP_RMW,
	READ_DEP,
	LOOP_READ_RMW,
	RMW_AHEAD, /* think .ps, then an RMW: coh_rmw_ahead() if ct.ahead */
	LOOP_AHEAD, /* RMW_AHEAD with a 10 ns think until .ps */
	COLD_OF, /* coh_read_cold_of() of CPU .field's copy, no walk */
	COLD_OF_WALK /* the same, the first load of the copy's page */
};

struct step {
	enum step_kind kind;
	unsigned int field; /* index into test_fields */
	sim_time_t ps; /* DELAY; LOOP_RMW: run until this time */
};

#define MAX_STEPS 16
#define MAX_CPUS 16

struct script {
	unsigned int nr;
	struct step steps[MAX_STEPS];
	sim_time_t done[MAX_STEPS];
	uint64_t loops; /* LOOP_RMW iterations completed */
	sim_time_t loop_first; /* completion of the first loop RMW */
};

/* The scripts and the test object, beside the shared harness's CPUs. */
static struct cache_test {
	struct script scripts[MAX_CPUS];
	bool used[MAX_CPUS];
	struct coh_object *obj;
	struct qspinlock lock;
	unsigned int order[MAX_CPUS], nr_order; /* lock acquisitions */
	bool ahead; /* RMW_AHEAD, LOOP_AHEAD: announce (coh_rmw_ahead()) */
	/* fields of objects a test places itself: step field FX + i */
	struct coh_field *extra[4];
} ct;

#define FX 100 /* a step's field FX + i is ct.extra[i] */

/* The RMW after a think: announced to its line, or plain, as ct.ahead says. */
static inline bool rmw_after_think(struct coh_cpu *cc, struct coh_field *f)
{
	return ct.ahead ? coh_rmw_ahead(cc, f) : coh_rmw(cc, f);
}

/* Two 8-byte fields on line 0 (a, b), one on line 1 (c), a lock on 2. */
static const struct coh_layout_field test_fields[] = {
	{ "a", 0, 8 },
	{ "b", 8, 8 },
	{ "c", 64, 8 },
	{ "lock", 128, 4 },
};
static const struct coh_layout test_layout = {
	.name = "test",
	.size = 192,
	.nr_fields = 4,
	.fields = test_fields,
};
enum { FA, FB, FC, FLOCK };

static inline void harness_init_occ(const char *waiter_ns, const char *handoff,
				    const char *occupancy)
{
	char yaml[2048];

	snprintf(yaml, sizeof(yaml), machine_yaml, waiter_ns, extra_keys,
		 handoff, occupancy, extra_coherence);
	harness_setup_yaml("test-machine", yaml, MAX_CPUS, 1024);
	memset(&ct, 0, sizeof(ct));
	ct.obj = coh_object_create(h.coh, "test", &test_layout, 0);
	qspinlock_init(&ct.lock, coh_object_field(ct.obj, FLOCK), MAX_CPUS);
}

static inline void harness_init(const char *waiter_ns, const char *handoff)
{
	harness_init_occ(waiter_ns, handoff, "1.0");
}

static inline void harness_destroy(void)
{
	qspinlock_destroy(&ct.lock);
	harness_teardown();
}

static inline struct coh_field *field(unsigned int i)
{
	if (i >= FX)
		return ct.extra[i - FX];
	return coh_object_field(ct.obj, i);
}

static inline struct coh_line *line_of(unsigned int f)
{
	return field(f)->line;
}

struct script_frame {
	struct co_frame co;
	unsigned int pc;
};

static inline int script_run(struct sim_proc *p, void *frame)
{
	struct script_frame *f = frame;
	struct script *s = &ct.scripts[p->id];
	struct coh_cpu *cc = h.cc[p->id];
	struct step *st;

	CO_BEGIN(f);
	for (f->pc = 0; f->pc < s->nr; f->pc++) {
		st = &s->steps[f->pc];
		switch (st->kind) {
		case DELAY:
			coh_delay(cc, st->ps);
			break;
		case LOCK:
			ct.order[ct.nr_order] = p->id; /* arrival order */
			break;
		default:
			break;
		}
		if (st->kind == READ || st->kind == WRITE || st->kind == RMW)
			CO_AWAIT(f,
				 coh_access(cc, field(s->steps[f->pc].field),
					    (enum coh_op)s->steps[f->pc].kind));
		if (s->steps[f->pc].kind == READ_DEP)
			CO_AWAIT(f, coh_read_dep(cc,
						 field(s->steps[f->pc].field)));
		if (s->steps[f->pc].kind == COLD_OF ||
		    s->steps[f->pc].kind == COLD_OF_WALK)
			CO_AWAIT(f, coh_read_cold_of(cc, s->steps[f->pc].field,
						     s->steps[f->pc].kind ==
							     COLD_OF_WALK));
		if (s->steps[f->pc].kind == FENCE)
			CO_AWAIT(f, coh_fence(cc));
		if (s->steps[f->pc].kind == LOCK) {
			CO_CALL(f, p, queued_spin_lock, .lock = &ct.lock);
			ct.order[ct.nr_order++] = p->id;
		}
		if (s->steps[f->pc].kind == UNLOCK)
			CO_AWAIT(f, queued_spin_unlock(cc, &ct.lock));
		while (s->steps[f->pc].kind == LOOP_READ_RMW &&
		       p->now < s->steps[f->pc].ps) {
			CO_AWAIT(f, coh_read(cc, field(s->steps[f->pc].field)));
			CO_AWAIT(f, coh_rmw(cc, field(s->steps[f->pc].field)));
			s->loops++;
		}
		if (s->steps[f->pc].kind == RMW_AHEAD) {
			coh_delay(cc, s->steps[f->pc].ps);
			CO_AWAIT(f, rmw_after_think(
					    cc, field(s->steps[f->pc].field)));
		}
		while (s->steps[f->pc].kind == LOOP_AHEAD &&
		       p->now < s->steps[f->pc].ps) {
			coh_delay(cc, 10 * NS);
			CO_AWAIT(f, rmw_after_think(
					    cc, field(s->steps[f->pc].field)));
			s->loops++;
		}
		while (s->steps[f->pc].kind == LOOP_RMW &&
		       p->now < s->steps[f->pc].ps) {
			CO_AWAIT(f, coh_rmw(cc, field(s->steps[f->pc].field)));
			if (!s->loops++)
				s->loop_first = p->now;
		}
		s->done[f->pc] = p->now;
	}
	CO_END(f, p);
}

/* Give CPU @cpu a script starting at @start_ns. */
static inline void cpu_script(unsigned int cpu, sim_time_t start_ns,
			      const struct step *steps, unsigned int nr)
{
	struct script *s = &ct.scripts[cpu];

	memcpy(s->steps, steps, nr * sizeof(*steps));
	s->nr = nr;
	co_push(&h.proc[cpu], script_run, sizeof(struct script_frame));
	sim_proc_start(&h.proc[cpu], start_ns * NS);
	ct.used[cpu] = true;
}

/* Give CPU @cpu a script of one step, @kind of field @f, at @start_ns. */
static inline void cpu_step(unsigned int cpu, sim_time_t start_ns,
			    enum step_kind kind, unsigned int f)
{
	const struct step st = { .kind = kind, .field = f };

	cpu_script(cpu, start_ns, &st, 1);
}

static inline sim_time_t done_ns(unsigned int cpu, unsigned int step)
{
	return ct.scripts[cpu].done[step] / NS;
}

static inline void run_ns(sim_time_t ns)
{
	sim_engine_run(h.e, ns * NS);
}

static inline void setup_strict(void)
{
	harness_init("0", "strict");
}

/* CPUs 0-3 loop on RMWs of a until @end_ns; the RMWs completed. */
static inline uint64_t saturate_four_cpus_until(sim_time_t end_ns)
{
	const struct step s[] = {
		{ .kind = LOOP_RMW, .field = FA, .ps = end_ns * NS }
	};
	uint64_t total = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < 4; cpu++)
		cpu_script(cpu, 0, s, 1);
	run_ns(end_ns);
	for (cpu = 0; cpu < 4; cpu++)
		total += ct.scripts[cpu].loops;
	return total;
}

/* ... until 10080 ns, the saturated-line cases' run */
static inline uint64_t saturate_four_cpus(void)
{
	return saturate_four_cpus_until(10080);
}

static inline void teardown(void)
{
	harness_destroy();
}

static inline void setup_law(void)
{
	extra_keys = law_keys;
	harness_init("0", "strict");
	extra_keys = "";
}

#endif /* TESTS_CACHE_TEST_H */
