// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/calibrate/sim.c - `memcgsim calibrate --check`: the microbenchmarks
 * of calibrate_bench.c run by simulated CPUs on the coherence model
 * (models/hw/cache.h), driven directly, as tests/check_cache.c does.
 *
 * Theory of operation: the point's host CPUs map to the profile's CPUs at
 * the same socket, core within the socket and SMT thread, so every pair
 * falls in the same distance class as on the host. Each simulated CPU runs
 * the benchmark's loop from time 0 (the first CPU writes the lines first:
 * their home); operations completed between WARM_PS and END_PS count, and
 * the value is the host's: the window / the operations of every CPU (the
 * adder alone for add_readers), per access for the idle latencies.
 *
 *	l1_hit     load + fence of a line the CPU holds      l1_hit
 *	memory     coh_read_cold() + fence                   memory
 *	chase_work coh_read_cold_dep(), then the work at     memory, less what
 *	           insn_ps a micro-op                        the ROB window hides
 *	rmw_local  locked RMW of an owned line               rmw_local
 *	xfer_*     two CPUs, an RMW each every PERIOD_PS,    xfer(class)
 *	           half a period apart: every RMW a hand-off
 *	load_xchg_pingpong  the same with a load before      xfer + upgrade
 *	           each RMW
 *	contended  the host's loop, as loads, RMWs and fences
 *
 * llc_hit has no benchmark: the model reads nothing of it yet (machine.h).
 * (SIM: the ping-pong's round trip is measured on the host with spinning
 * CASes; here each RMW finds the line idle at the other CPU: the hand-off
 * latency the profile states, which is what the round trip / 2 estimates.)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/calibrate/calibrate.h"
#include "models/hw/cache.h"
#include "models/hw/machine.h"
#include "sim/co.h"
#include "sim/util.h"

#define WARM_PS (10 * SIM_PS_PER_US)
#define END_PS (210 * SIM_PS_PER_US)
/*
 * Two ping-pong CPUs start half a period apart: half a period must pass
 * the slowest idle operation, or one queues behind the other. 4 us: the
 * 8176's Cross-Interconnect load-then-CAS is 1.0 us in the model.
 */
#define PERIOD_PS (4 * SIM_PS_PER_US)
#define STACK_BYTES 1024

#define MAX_FIELDS CAL_MAX_CPUS

struct harness {
	const struct cal_point *p;
	struct coh *c;
	struct coh_layout layout;
	struct coh_layout_field *fields; /* [nr] */
	char (*names)[16];
	struct coh_object *obj;
	struct coh_cpu **cc; /* [n] */
	uint64_t *ops; /* [n] operations counted */
	sim_time_t *lat; /* [n] their summed latency (xfer_*) */
	sim_time_t work_ps; /* work_smt: a block's time alone */
};

struct bench_loop_frame {
	struct co_frame co;
	struct harness *h;
	unsigned int rank;
	unsigned int i;
	sim_time_t t0;
};

static struct coh_field *fld(struct harness *h, unsigned int i)
{
	return coh_object_field(h->obj, i);
}

/* pair and apart: two counters @apart bytes apart. */
static void make_two(struct harness *h, unsigned int apart)
{
	unsigned int i;

	h->fields = calloc(2, sizeof(*h->fields));
	h->names = calloc(2, sizeof(*h->names));
	SIM_OOM_ON(!h->fields || !h->names);
	for (i = 0; i < 2; i++) {
		snprintf(h->names[i], sizeof(h->names[i]), "c%u", i);
		h->fields[i].name = h->names[i];
		h->fields[i].offset = apart * i;
		h->fields[i].size = 8;
	}
	h->layout.name = "calibrate";
	h->layout.nr_fields = 2;
	h->layout.fields = h->fields;
	h->layout.size = apart + 64;
}

/*
 * The counters, as on the host: field 0 is the one line of every
 * benchmark but packed, padded, pair and apart; packed: counter i at
 * 8 * (i % 8); padded: at 128 * i; pair: two, at 0 and 64 (the object's
 * base is 128-byte aligned: one pair); apart: two, at 0 and 128.
 */
static void make_layout(struct harness *h)
{
	enum cal_bench b = h->p->bench;
	unsigned int n = h->p->n, i;
	bool padded = b == CAL_PADDED;

	if (b == CAL_PAIR || b == CAL_APART) {
		make_two(h, b == CAL_PAIR ? 64 : 128);
		return;
	}
	if (b == CAL_CHASE_XADD || b == CAL_CHASE_LOAD) {
		make_two(h, 8); /* the counter, and the chase's pointer */
		h->layout.size = 64;
		return;
	}
	if (b != CAL_PACKED && !padded)
		n = 1;
	else if (!padded && n > 8)
		n = 8;
	h->fields = calloc(n, sizeof(*h->fields));
	h->names = calloc(n, sizeof(*h->names));
	SIM_OOM_ON(!h->fields || !h->names);
	for (i = 0; i < n; i++) {
		snprintf(h->names[i], sizeof(h->names[i]), "c%u", i);
		h->fields[i].name = h->names[i];
		h->fields[i].offset = padded ? 128 * i : 8 * i;
		h->fields[i].size = 8;
	}
	h->layout.name = "calibrate";
	h->layout.nr_fields = n;
	h->layout.fields = h->fields;
	h->layout.size = padded ? 128 * n : 64;
}

/* The field this rank's RMWs go to. */
static unsigned int rmw_field(const struct harness *h, unsigned int rank)
{
	if (h->p->bench == CAL_PACKED)
		return rank % 8;
	if (h->p->bench == CAL_PADDED)
		return rank;
	if (h->p->bench == CAL_PAIR || h->p->bench == CAL_APART)
		return rank % 2;
	return 0;
}

static int bench_loop(struct sim_proc *p, void *frame)
{
	struct bench_loop_frame *f = frame;
	struct harness *h = f->h;
	struct coh_cpu *cc = h->cc[f->rank];
	enum cal_bench b = h->p->bench;
	bool xfer = cal_bench_pingpong(b);
	bool reader = b == CAL_ADD_READERS && f->rank > 0;
	bool chaser = cal_chase_reader(b, f->rank);

	CO_BEGIN(f);
	/* The first CPU writes every line first: their home. */
	if (f->rank == 0)
		for (f->i = 0; f->i < h->layout.nr_fields; f->i++)
			CO_AWAIT(f, coh_write(cc, fld(h, f->i)));
	if (f->rank == 0)
		CO_AWAIT(f, coh_fence(cc));
	if (xfer && f->rank)
		coh_delay(cc, PERIOD_PS / 2);
	while (p->now < END_PS) {
		CO_AWAIT(f, sim_proc_sync(p));
		f->t0 = p->now;
		if (b == CAL_WORK_SMT) {
			/* both threads; coh_delay() stretches it */
			coh_delay(cc, h->work_ps);
		} else if (b == CAL_MEMORY) {
			CO_AWAIT(f, coh_read_cold(cc));
			CO_AWAIT(f, coh_fence(cc));
		} else if (b == CAL_CHASE_WORK) {
			/* the next load waits for this one (chase_settle()) */
			CO_AWAIT(f, coh_read_cold_dep(cc));
			coh_delay(cc, CAL_CHASE_WORK_UOPS *
					      coh_machine(h->c)->insn_ps);
		} else if (chaser) {
			/* the next load needs this one's value */
			CO_AWAIT(f, coh_read_dep(cc, fld(h, 1)));
		} else if (b == CAL_L1_HIT || reader) {
			CO_AWAIT(f, coh_read(cc, fld(h, 0)));
			CO_AWAIT(f, coh_fence(cc));
		} else if (b == CAL_LOAD_XCHG || b == CAL_LOAD_XCHG_PP) {
			CO_AWAIT(f, coh_read(cc, fld(h, 0)));
			CO_AWAIT(f, coh_rmw(cc, fld(h, 0)));
		} else if (b == CAL_XCHG2) {
			CO_AWAIT(f, coh_rmw(cc, fld(h, 0)));
			CO_AWAIT(f, coh_rmw(cc, fld(h, 0)));
		} else {
			CO_AWAIT(f, coh_rmw(cc, fld(h, rmw_field(h, f->rank))));
		}
		/*
		 * Count by completion, as the host does (each thread's
		 * operations over its elapsed time): counting only those
		 * that also began after WARM_PS drops the ones in flight at
		 * the window's start, one per CPU, and overstated a
		 * contended point by about N x its cost / the window (+0.4%
		 * at 16 CPUs, +7% at 72).
		 */
		if (p->now >= WARM_PS && p->now <= END_PS) {
			h->ops[f->rank]++;
			h->lat[f->rank] += p->now - f->t0;
		}
		if (xfer)
			coh_delay(cc, PERIOD_PS - (p->now - f->t0));
	}
	CO_END(f, p);
}

/**
 * cal__sim_map() - the profile CPUs of a point's host CPUs.
 * @m: the profile
 * @h: the measured host (its CPUs' socket, core, thread)
 * @p: the point
 * @sim_cpus: filled, [p->n]
 * @err: filled on failure
 *
 * Return: 0, or -1 with @err set when the profile has no CPU at a host
 * CPU's socket, core within the socket and thread.
 */
int cal__sim_map(const struct machine *m, const struct cal_host *h,
		 const struct cal_point *p, unsigned int *sim_cpus,
		 struct sim_error *err)
{
	unsigned int i, x;

	for (i = 0; i < p->n; i++) {
		const struct cal_cpu *hc = &h->cpus[p->cpu_idx[i]];
		unsigned int core = hc->socket * m->cores_per_socket + hc->core;

		for (x = 0; x < m->nr_cpus; x++)
			if (m->cpus[x].socket == hc->socket &&
			    m->cpus[x].core == core &&
			    m->cpus[x].thread == hc->thread &&
			    hc->core < m->cores_per_socket)
				break;
		if (x == m->nr_cpus) {
			sim_error_set(
				err, "", 0, 0,
				"profile '%s' (%u sockets x %u cores x %u threads) has no CPU at socket %u, core %u, thread %u, where measured CPU %u is",
				m->name, m->sockets, m->cores_per_socket,
				m->threads_per_core, hc->socket, hc->core,
				hc->thread, hc->os);
			return -1;
		}
		sim_cpus[i] = x;
	}
	return 0;
}

/**
 * cal__sim_run() - predict @p on the profile @m.
 * @m: the profile
 * @h: the measured host
 * @p: the point; p->predicted is set (NAN for llc_hit, not modelled)
 * @err: filled when the point's CPUs do not map to the profile
 *
 * Deterministic: the same profile and point give the same prediction.
 *
 * Return: 0, or -1 with @err set.
 */
int cal__sim_run(const struct machine *m, const struct cal_host *h,
		 struct cal_point *p, struct sim_error *err)
{
	unsigned int *cpus = calloc(p->n, sizeof(*cpus)), i;
	struct sim_proc *procs = calloc(p->n, sizeof(*procs));
	struct harness hs = { .p = p };
	struct sim_engine *e;
	uint64_t ops = 0;
	sim_time_t lat = 0;
	int ret = -1;

	hs.cc = calloc(p->n, sizeof(*hs.cc));
	hs.ops = calloc(p->n, sizeof(*hs.ops));
	hs.lat = calloc(p->n, sizeof(*hs.lat));
	SIM_OOM_ON(!cpus || !procs || !hs.cc || !hs.ops || !hs.lat);
	p->predicted = NAN;
	if (cal__sim_map(m, h, p, cpus, err))
		goto out;
	ret = 0;
	/*
	 * Not modelled: llc_hit (no L2 in the model), work (the model's
	 * input, not its output), work_smt without its work point.
	 */
	if (p->bench == CAL_LLC_HIT || p->bench == CAL_WORK ||
	    (p->bench == CAL_WORK_SMT && !p->alone))
		goto out;
	if (p->alone)
		hs.work_ps = (sim_time_t)(p->alone->median * 1000.0 + 0.5);

	e = sim_engine_create();
	hs.c = coh_create(m, e);
	make_layout(&hs);
	hs.obj = coh_object_create(hs.c, "calibrate", &hs.layout, 0);
	for (i = 0; i < p->n; i++) {
		struct bench_loop_frame *f;

		sim_proc_init(&procs[i], e, cpus[i], STACK_BYTES, &hs);
		hs.cc[i] = coh_cpu_attach(hs.c, cpus[i], &procs[i]);
		f = CO_PUSH(&procs[i], bench_loop);
		f->h = &hs;
		f->rank = i;
		/* the others start once the first CPU's writes are issued */
		sim_proc_start(&procs[i], i ? SIM_PS_PER_NS : 0);
	}
	sim_engine_run(e, END_PS + SIM_PS_PER_US);
	for (i = 0; i < p->n; i++) {
		if (!cal_rank_counts(p->bench, i))
			continue;
		ops += hs.ops[i];
		lat += hs.lat[i];
	}
	/* idle: the mean latency, free of the window's rounding */
	if (p->bench < CAL_ADD || p->bench == CAL_CHASE_LOAD)
		p->predicted = ops ? (double)lat / (double)ops / 1000.0 : NAN;
	else
		p->predicted = ops ? (double)(END_PS - WARM_PS) / (double)ops /
					       1000.0 :
				     NAN;
	for (i = 0; i < p->n; i++)
		sim_proc_destroy(&procs[i]);
	coh_free(hs.c);
	sim_engine_free(e);
	free(hs.fields);
	free(hs.names);
out:
	free(cpus);
	free(procs);
	free(hs.cc);
	free(hs.ops);
	free(hs.lat);
	return ret;
}
