// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/calibrate/bench.c - the host side of `memcgsim calibrate`: the
 * topology from hwloc and pinned pthread microbenchmarks in C11 atomics.
 *
 * Not simulated code: it measures the machine it runs on, so it reads the
 * wall clock (CLOCK_MONOTONIC; tools/checksrc.sh's WALLCLOCK list).
 *
 * Theory of operation. Every benchmark runs for a time window, not a count,
 * so that its duration is known before it starts (the time estimate):
 *
 *  - pointer chase (l1_hit, llc_hit, memory): one pinned thread follows a
 *    random cyclic permutation of the lines of a buffer (Sattolo's shuffle,
 *    a gsl_rng with a fixed seed), one dependent load per line: half the
 *    L1; four times L2 but at most half the LLC; four times the LLC, at
 *    least 64 MiB. The buffer asks for transparent huge pages so that the
 *    chase measures the caches, not page walks;
 *  - CAS ping-pong (xfer_*): two pinned threads, one turns a flag 0 -> 1
 *    with compare-and-swap, the other 1 -> 0, each spinning on its CAS
 *    (nviennot/core-to-core-latency's method, the source of the shipped
 *    profiles); a round trip is two hand-offs;
 *  - contended loops (the rest, and rmw_local as one adder): N pinned
 *    threads start together at a time the main thread sets, run the loop
 *    until the window's end (each reads the clock every 256 operations),
 *    and count their operations.
 *
 * Threads run at real-time priority (SCHED_FIFO 1) when the process may,
 * so that other processes cannot preempt them and stretch the hand-offs
 * they time; each checks that it landed on its CPU before it spins.
 *
 * The counters sit in a fresh page that the point's first CPU writes
 * first (its node is their home, as the simulator's first touch); the
 * start/stop flags in another block, the main thread's.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <hwloc.h>

#include "cmd/calibrate/calibrate.h"
#include "sim/util.h"

#define LINE 64
#define OPS_PER_CLOCK CAL_OPS_PER_CLOCK
#define START_DELAY_NS 2000000 /* from go to the common start: 2 ms */
#define CHASE_SEED 1

/* global: the host's topology, loaded once (hwloc's load is slow) */
static hwloc_topology_t topo;
static bool topo_loaded;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- topology ---- */

static unsigned int index_in(hwloc_obj_t parent, hwloc_obj_type_t type,
			     hwloc_obj_t obj)
{
	hwloc_obj_t first;

	if (!parent || !obj)
		return 0;
	first = hwloc_get_next_obj_inside_cpuset_by_type(topo, parent->cpuset,
							 type, NULL);
	return first ? obj->logical_index - first->logical_index : 0;
}

static size_t cache_size(hwloc_obj_t pu, hwloc_obj_type_t type)
{
	hwloc_obj_t c = hwloc_get_ancestor_obj_by_type(topo, type, pu);

	return c ? (size_t)c->attr->cache.size : 0;
}

/*
 * parse_cpulist() - mark the CPUs of a Linux cpulist ("0-3,8") enabled.
 * Every number must be a CPU of this host.
 */
static int parse_cpulist(struct cal_host *h, const char *list,
			 struct sim_error *err)
{
	const char *s = list;
	unsigned int i, nr = 0;

	for (i = 0; i < h->nr_cpus; i++)
		h->cpus[i].enabled = false;
	while (*s) {
		unsigned long a, b;
		char *end;

		if (*s < '0' || *s > '9')
			goto bad;
		errno = 0;
		a = strtoul(s, &end, 10);
		if (errno || a > CAL_CPU_MAX)
			goto too_big;
		b = a;
		s = end;
		if (*s == '-') {
			s++;
			if (*s < '0' || *s > '9')
				goto bad;
			b = strtoul(s, &end, 10);
			if (errno || b > CAL_CPU_MAX)
				goto too_big;
			s = end;
		}
		if (b < a) {
			sim_error_set(
				err, "", 0, 0,
				"--cpus '%s': range %lu-%lu runs backwards",
				list, a, b);
			return -1;
		}
		for (; a <= b; a++) {
			for (i = 0; i < h->nr_cpus; i++)
				if (h->cpus[i].os == a)
					break;
			if (i == h->nr_cpus) {
				sim_error_set(
					err, "", 0, 0,
					"--cpus '%s': CPU %lu is not one this process may run on (%u CPUs: %u-%u)",
					list, a, h->nr_cpus, h->cpus[0].os,
					h->cpus[h->nr_cpus - 1].os);
				return -1;
			}
			if (!h->cpus[i].enabled)
				nr++;
			h->cpus[i].enabled = true;
		}
		if (*s == ',' && s[1])
			s++;
		else if (*s)
			goto bad;
	}
	if (nr < 2) {
		sim_error_set(
			err, "", 0, 0,
			"--cpus '%s': at least 2 CPUs are needed to measure a hand-off",
			list);
		return -1;
	}
	return 0;
bad:
	sim_error_set(err, "", 0, 0,
		      "--cpus '%s': expected a list such as 0-3,8 at '%s'",
		      list, s);
	return -1;
too_big:
	/* Quoted as given: strtoul() would have said ULONG_MAX (ERANGE). */
	sim_error_set(err, "", 0, 0,
		      "--cpus '%s': CPU numbers go up to %u, found '%.*s'",
		      list, CAL_CPU_MAX, (int)strspn(s, "0123456789"), s);
	return -1;
}

/* Every socket, core and LLC the same size, or the schema cannot say it. */
static int check_regular(struct cal_host *h, struct sim_error *err)
{
	unsigned int i, nr_pkg = 0, nr_core = 0, nr_llc = 0;
	hwloc_obj_t o = NULL;

	nr_pkg =
		(unsigned int)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
	nr_core = (unsigned int)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
	if (!nr_pkg)
		nr_pkg = 1;
	if (!nr_core)
		nr_core = h->nr_cpus;
	h->sockets = nr_pkg;
	if (nr_core % nr_pkg || h->nr_cpus % nr_core)
		goto irregular;
	h->cores_per_socket = nr_core / nr_pkg;
	h->threads_per_core = h->nr_cpus / nr_core;
	for (i = 0; i < h->nr_cpus; i++) {
		struct cal_cpu *c = &h->cpus[i];

		if (c->socket >= nr_pkg || c->core >= h->cores_per_socket ||
		    c->thread >= h->threads_per_core)
			goto irregular;
	}
	while ((o = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_L3CACHE, o)))
		nr_llc++;
	if (!nr_llc)
		while ((o = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_L2CACHE,
						       o)))
			nr_llc++;
	if (!nr_llc || nr_llc % nr_pkg)
		nr_llc = nr_pkg;
	h->cores_per_llc = nr_core / nr_llc;
	if (!h->cores_per_llc || h->cores_per_socket % h->cores_per_llc)
		goto irregular;
	return 0;
irregular:
	sim_error_set(
		err, "", 0, 0,
		"irregular topology (%u CPUs, %u cores, %u sockets as hwloc sees them): a machine profile needs the same number of cores on every socket and threads on every core; pick a regular subset with --cpus",
		h->nr_cpus, nr_core, nr_pkg);
	return -1;
}

static void host_strings(struct cal_host *h)
{
	hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
	const char *model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") :
				  NULL;
	struct utsname u;
	struct tm tm;
	time_t t = time(NULL);

	snprintf(h->cpu_model, sizeof(h->cpu_model), "%s",
		 model && model[0] ? model : "unknown CPU");
	if (!uname(&u))
		snprintf(h->kernel, sizeof(h->kernel), "%.20s %.80s %.20s",
			 u.sysname, u.release, u.machine);
	else
		snprintf(h->kernel, sizeof(h->kernel), "unknown kernel");
	gmtime_r(&t, &tm);
	strftime(h->date, sizeof(h->date), "%Y-%m-%d", &tm);
}

/**
 * cal__host_probe() - this host's CPUs and caches, from hwloc.
 * @h: filled; every CPU the process may run on, in hwloc's logical order
 * @cpulist: --cpus, or NULL for every CPU
 * @err: filled on failure (no hwloc topology, an irregular one, a bad list)
 *
 * Keeps the hwloc topology for the benchmarks' pinning until
 * cal__host_release().
 *
 * Return: 0, or -1 with @err set.
 */
int cal__host_probe(struct cal_host *h, const char *cpulist,
		    struct sim_error *err)
{
	unsigned int i, n;
	hwloc_obj_t pu0;

	memset(h, 0, sizeof(*h));
	if (!topo_loaded) {
		if (hwloc_topology_init(&topo) || hwloc_topology_load(topo)) {
			sim_error_set(
				err, "", 0, 0,
				"hwloc cannot read this host's topology: %s",
				strerror(errno));
			return -1;
		}
		topo_loaded = true;
	}
	/*
	 * A synthetic or XML topology (HWLOC_SYNTHETIC, HWLOC_XMLFILE) is
	 * not this machine: its CPUs cannot be pinned, and unpinned
	 * real-time threads would share a few CPUs and starve them.
	 */
	if (!hwloc_topology_is_thissystem(topo)) {
		sim_error_set(
			err, "", 0, 0,
			"hwloc's topology is not this machine's (HWLOC_SYNTHETIC or HWLOC_XMLFILE set?): calibrate measures the machine it runs on");
		return -1;
	}
	n = (unsigned int)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	if (n > CAL_MAX_CPUS) {
		sim_error_set(err, "", 0, 0,
			      "%u CPUs; at most %u are supported", n,
			      CAL_MAX_CPUS);
		return -1;
	}
	h->nr_cpus = n;
	h->threads_adjacent = true;
	for (i = 0; i < n; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, i);
		hwloc_obj_t pkg, core, llc;
		struct cal_cpu *c = &h->cpus[i];

		pkg = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE,
						     pu);
		core = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu);
		llc = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_L3CACHE,
						     pu);
		if (!llc)
			llc = hwloc_get_ancestor_obj_by_type(
				topo, HWLOC_OBJ_L2CACHE, pu);
		c->os = pu->os_index;
		c->socket = pkg ? pkg->logical_index : 0;
		c->core = core ? index_in(pkg, HWLOC_OBJ_CORE, core) : i;
		c->thread = core ? index_in(core, HWLOC_OBJ_PU, pu) : 0;
		c->llc = llc && pkg ? index_in(pkg, llc->type, llc) : 0;
		c->enabled = true;
	}
	/* --cpus first: its errors do not depend on the host's shape */
	if (cpulist && parse_cpulist(h, cpulist, err))
		return -1;
	if (n < 2) {
		sim_error_set(
			err, "", 0, 0,
			"this process may run on %u CPU: a hand-off needs 2",
			n);
		return -1;
	}
	if (check_regular(h, err))
		return -1;
	/* Which of the profile's numbering rules Linux follows here. */
	h->numbering_matches = true;
	for (i = 0; i < n; i++) {
		const struct cal_cpu *c = &h->cpus[i];
		unsigned int core = c->socket * h->cores_per_socket + c->core;

		if (c->os != core * h->threads_per_core + c->thread)
			h->threads_adjacent = false;
		if (c->os !=
		    c->thread * h->sockets * h->cores_per_socket + core)
			h->numbering_matches = false;
	}
	if (h->threads_per_core == 1)
		h->threads_adjacent = false;
	if (h->threads_adjacent)
		h->numbering_matches = true;
	pu0 = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, 0);
	h->l1_bytes = cache_size(pu0, HWLOC_OBJ_L1CACHE);
	h->l2_bytes = cache_size(pu0, HWLOC_OBJ_L2CACHE);
	h->llc_bytes = cache_size(pu0, HWLOC_OBJ_L3CACHE);
	if (!h->llc_bytes)
		h->llc_bytes = h->l2_bytes;
	if (!h->l1_bytes)
		h->l1_bytes = 32 << 10;
	host_strings(h);
	return 0;
}

/* cal__host_release() - drop the hwloc topology. */
void cal__host_release(void)
{
	if (topo_loaded)
		hwloc_topology_destroy(topo);
	topo_loaded = false;
}

/* ---- threads ---- */

/*
 * The control block, touched by the main thread, and the counters' block,
 * first touched by the point's first CPU (so that the lines' memory is on
 * its node: their home). Counter i of the padded benchmark is at 128 * i
 * (beyond the adjacent-line pair), of the packed one at 8 * (i % 8); the
 * pair benchmark's two counters at 0 and 64 (the two lines of one
 * 128-byte pair, the block being page-aligned), the apart one's at 0 and
 * 128: what the L2 spatial prefetcher couples, and what it does not.
 */
struct shared {
	pthread_mutex_t lock; /* the start gate: */
	pthread_cond_t cond;
	unsigned int ready; /* workers at the gate */
	bool go; /* start_ns is set */
	_Alignas(LINE) _Atomic int done;
	uint64_t start_ns, end_ns;
	_Atomic uint64_t *lines; /* the counters' block */
	size_t lines_bytes;
};

struct worker {
	pthread_t thread;
	struct shared *sh;
	const struct cal_plan *pl;
	struct cal_point *p;
	unsigned int cpu_os, rank;
	uint64_t ops, elapsed_ns;
	void *chase; /* pointer chase: the first line */
	int error; /* errno of a failed pinning */
	/* a ping-pong's rank 0: each batch's duration, the first BATCHES */
	uint32_t *batch_ns;
	unsigned int nr_batches;
};

#define BATCHES 4096

/* Record a ping-pong batch that ended at @t (the last ended at *@prev). */
static void batch_note(struct worker *w, uint64_t t, uint64_t *prev)
{
	if (w->batch_ns && w->nr_batches < BATCHES)
		w->batch_ns[w->nr_batches++] = (uint32_t)(t - *prev);
	*prev = t;
}

static int pin_self(unsigned int os)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	int ret;

	if (!set)
		return ENOMEM;
	hwloc_bitmap_only(set, os);
	ret = hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD);
	if (ret)
		ret = errno ? errno : EINVAL;
	hwloc_bitmap_free(set);
	/* Never spin real-time on a CPU the thread was not pinned to. */
	if (!ret && sched_getcpu() != (int)os)
		ret = EINVAL;
	return ret;
}

/*
 * Say ready, wait (blocked, so that the main thread can run on a CPU whose
 * worker is real-time) for the main thread to set the start time, then
 * spin until it.
 */
static void gate(struct shared *sh)
{
	pthread_mutex_lock(&sh->lock);
	sh->ready++;
	pthread_cond_broadcast(&sh->cond);
	while (!sh->go)
		pthread_cond_wait(&sh->cond, &sh->lock);
	pthread_mutex_unlock(&sh->lock);
}

static void wait_start(struct worker *w)
{
	gate(w->sh);
	while (now_ns() < w->sh->start_ns)
		;
}

/*
 * Real-time priority when the process may have it (root, CAP_SYS_NICE):
 * then other processes cannot preempt a measuring thread and stretch its
 * hand-offs; the kernel's RT throttling still leaves them 5% of each
 * second. Without it, the run goes on at normal priority. Global: any
 * measuring thread may set it, the report reads it.
 */
static _Atomic int realtime_failed;

static void try_realtime(void)
{
	struct sched_param sp = { .sched_priority = 1 };

	if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
		atomic_store(&realtime_failed, 1);
}

/* cal__bench_realtime() - whether every measuring thread ran real-time. */
bool cal__bench_realtime(void)
{
	return !atomic_load(&realtime_failed);
}

/*
 * The loop bodies. Each runs OPS_PER_CLOCK operations between two clock
 * reads; the counter is the point, the values are not.
 */
#define TIMED_LOOP(w, body)                                      \
	do {                                                     \
		uint64_t t_, end_ = (w)->sh->end_ns;             \
		unsigned int i_;                                 \
		do {                                             \
			for (i_ = 0; i_ < OPS_PER_CLOCK; i_++) { \
				body;                            \
			}                                        \
			(w)->ops += OPS_PER_CLOCK;               \
			t_ = now_ns();                           \
		} while (t_ < end_);                             \
		(w)->elapsed_ns = t_ - (w)->sh->start_ns;        \
	} while (0)

static void contended(struct worker *w)
{
	_Atomic uint64_t *a = w->sh->lines;
	uint64_t v;

	switch (w->p->bench) {
	case CAL_RMW_LOCAL:
	case CAL_ADD:
		TIMED_LOOP(w, atomic_fetch_add_explicit(a, 1,
							memory_order_relaxed));
		break;
	case CAL_LOAD_XCHG:
		TIMED_LOOP(w, v = atomic_load_explicit(a, memory_order_relaxed);
			   atomic_exchange_explicit(a, v + 1,
						    memory_order_relaxed));
		break;
	case CAL_XCHG2:
		TIMED_LOOP(w, atomic_exchange_explicit(a, w->rank,
						       memory_order_relaxed);
			   atomic_exchange_explicit(a, w->rank + 1,
						    memory_order_relaxed));
		break;
	case CAL_ADD_READERS:
		if (w->rank == 0)
			TIMED_LOOP(w, atomic_fetch_add_explicit(
					      a, 1, memory_order_relaxed));
		else
			TIMED_LOOP(w, v = atomic_load_explicit(
					      a, memory_order_relaxed);
				   (void)v);
		break;
	case CAL_PACKED:
		a = &w->sh->lines[w->rank % 8];
		TIMED_LOOP(w, atomic_fetch_add_explicit(a, 1,
							memory_order_relaxed));
		break;
	case CAL_PADDED:
		a = &w->sh->lines[w->rank * 16];
		TIMED_LOOP(w, atomic_fetch_add_explicit(a, 1,
							memory_order_relaxed));
		break;
	case CAL_CHASE_XADD:
	case CAL_CHASE_LOAD:
		if (cal_chase_reader(w->p->bench, w->rank)) {
			/* lines[1] points to itself: each load needs the last */
			_Atomic uint64_t *q = &a[1];

			TIMED_LOOP(w, q = (_Atomic uint64_t *)(uintptr_t)
					      atomic_load_explicit(
						      q, memory_order_relaxed));
			w->chase = (void *)q; /* keeps the chase alive */
		} else {
			TIMED_LOOP(w, atomic_fetch_add_explicit(
					      a, 1, memory_order_relaxed));
		}
		break;
	case CAL_PAIR: /* 64 bytes apart, in a page: one 128-byte pair */
	case CAL_APART: /* 128 bytes apart: two pairs */
		a = &w->sh->lines[(w->rank % 2) *
				  (w->p->bench == CAL_PAIR ? 8 : 16)];
		TIMED_LOOP(w, atomic_fetch_add_explicit(a, 1,
							memory_order_relaxed));
		break;
	default:
		break;
	}
}

/*
 * Chase until the window's end; ops counts the loads. chase_work runs
 * CAL_CHASE_WORK_ITERS adds after each load that do not need its value;
 * the empty asm keeps the compiler from folding them into one.
 */
static void chase(struct worker *w)
{
	void *volatile *q = w->chase;
	uint64_t t, end = w->sh->end_ns, x = 0;
	unsigned int i, j, work;

	work = w->p->bench == CAL_CHASE_WORK ? CAL_CHASE_WORK_ITERS : 0;
	do {
		for (i = 0; i < 1024; i++) {
			q = (void *volatile *)*q;
			for (j = 0; j < work; j++) {
				x += j;
				__asm__ volatile("" : "+r"(x));
			}
		}
		w->ops += 1024;
		t = now_ns();
	} while (t < end);
	w->elapsed_ns = t - w->sh->start_ns;
	w->chase = (void *)q; /* keeps the chase alive */
}

/*
 * Rank 0 turns the flag 0 -> 1, rank 1 turns it 1 -> 0, each spinning on
 * its CAS; rank 0 counts round trips and ends the run at the window.
 */
static void ping_pong(struct worker *w)
{
	_Atomic uint64_t *flag = w->sh->lines;
	uint64_t from = w->rank, to = !w->rank, expect, t, prev = now_ns();
	unsigned int i;

	if (w->rank == 0) {
		do {
			for (i = 0; i < OPS_PER_CLOCK; i++) {
				expect = from;
				while (!atomic_compare_exchange_weak(
					flag, &expect, to))
					expect = from;
			}
			w->ops += OPS_PER_CLOCK;
			t = now_ns();
			batch_note(w, t, &prev);
		} while (t < w->sh->end_ns);
		w->elapsed_ns = t - w->sh->start_ns;
		atomic_store(&w->sh->done, 1);
		return;
	}
	for (;;) {
		expect = from;
		while (!atomic_compare_exchange_weak(flag, &expect, to)) {
			if (atomic_load_explicit(&w->sh->done,
						 memory_order_relaxed))
				return;
			expect = from;
		}
	}
}

/*
 * Rank r waits, loading the line, until its value's parity is r, then
 * xchgs in the next value: the load finds the line Modified at the other
 * CPU, the xchg upgrades it. Rank 0 counts round trips and ends the run.
 */
static void load_xchg_pp(struct worker *w)
{
	_Atomic uint64_t *a = w->sh->lines;
	uint64_t v, t, r = w->rank, prev = now_ns();
	unsigned int i;

	if (r == 0) {
		do {
			for (i = 0; i < OPS_PER_CLOCK; i++) {
				while ((v = atomic_load_explicit(
						a, memory_order_relaxed)) %
					       2 !=
				       r)
					;
				atomic_exchange_explicit(a, v + 1,
							 memory_order_relaxed);
			}
			w->ops += OPS_PER_CLOCK;
			t = now_ns();
			batch_note(w, t, &prev);
		} while (t < w->sh->end_ns);
		w->elapsed_ns = t - w->sh->start_ns;
		atomic_store(&w->sh->done, 1);
		return;
	}
	for (;;) {
		while ((v = atomic_load_explicit(a, memory_order_relaxed)) %
			       2 !=
		       r)
			if (atomic_load_explicit(&w->sh->done,
						 memory_order_relaxed))
				return;
		atomic_exchange_explicit(a, v + 1, memory_order_relaxed);
	}
}

/*
 * work and work_smt: blocks of CAL_WORK_ITERS iterations until the
 * window's end; ops counts the blocks. The empty asm after each block
 * keeps the two chains in registers and the compiler from reducing the
 * loop; their end goes to w->chase so that they stay live.
 */
static void work(struct worker *w)
{
	uint64_t t, end = w->sh->end_ns, a = 0x9e3779b97f4a7c15u + w->rank;
	uint64_t c = 1;
	unsigned int i, j;

	do {
		for (i = 0; i < 64; i++) {
			for (j = 0; j < CAL_WORK_ITERS; j++) {
				a ^= a << 13;
				a ^= a >> 7;
				a ^= a << 17;
				c += (a >> 3) ^ (c << 1);
			}
			__asm__ volatile("" : "+r"(a), "+r"(c));
		}
		w->ops += 64;
		t = now_ns();
	} while (t < end);
	w->elapsed_ns = t - w->sh->start_ns;
	w->chase = (void *)(uintptr_t)(a ^ c);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	w->error = pin_self(w->cpu_os);
	if (w->error) {
		gate(w->sh);
		return NULL;
	}
	try_realtime();
	if (w->rank == 0) { /* first touch: the lines' home */
		memset((void *)w->sh->lines, 0, w->sh->lines_bytes);
		/* the chase's pointer, next to the adders' counter */
		atomic_store(&w->sh->lines[1],
			     (uint64_t)(uintptr_t)&w->sh->lines[1]);
	}
	wait_start(w);
	if (w->error)
		return NULL;
	if (cal_bench_chase(w->p->bench))
		chase(w);
	else if (w->p->bench == CAL_LOAD_XCHG_PP)
		load_xchg_pp(w);
	else if (w->p->bench == CAL_WORK || w->p->bench == CAL_WORK_SMT)
		work(w);
	else if (cal_bench_pingpong(w->p->bench))
		ping_pong(w);
	else
		contended(w);
	return NULL;
}

/* ---- pointer chase buffers ---- */

static size_t chase_bytes(const struct cal_host *h, enum cal_bench b)
{
	size_t sz;

	switch (b) {
	case CAL_L1_HIT:
		return h->l1_bytes / 2;
	case CAL_LLC_HIT:
		sz = 4 * h->l2_bytes;
		if (!sz || sz > h->llc_bytes / 2)
			sz = h->llc_bytes / 2;
		return sz;
	default:
		sz = 4 * h->llc_bytes;
		return sz < (64u << 20) ? 64u << 20 : sz;
	}
}

/*
 * make_chase() - a buffer of @bytes whose lines form one random cycle:
 * line i holds the address of the next. Sattolo's shuffle gives a single
 * cycle through every line; the seed is fixed, so the order is the same
 * every run. Return the buffer (free with free()), or NULL.
 */
static void **make_chase(size_t bytes, size_t *len)
{
	size_t nr = bytes / LINE, i, step = LINE / sizeof(void *);
	size_t *perm;
	void **buf;
	gsl_rng *r;

	if (nr < 2)
		return NULL;
	*len = nr * LINE;
	if (posix_memalign((void **)&buf, 2u << 20, *len))
		return NULL;
	madvise(buf, *len, MADV_HUGEPAGE);
	perm = malloc(nr * sizeof(*perm));
	r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!perm || !r) {
		free(perm);
		free(buf);
		gsl_rng_free(r);
		return NULL;
	}
	gsl_rng_set(r, CHASE_SEED);
	for (i = 0; i < nr; i++)
		perm[i] = i;
	for (i = nr - 1; i > 0; i--) {
		size_t j = gsl_rng_uniform_int(r, i), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	/* perm is a single cycle: line i points at line perm[i]. */
	for (i = 0; i < nr; i++)
		buf[i * step] = &buf[perm[i] * step];
	free(perm);
	gsl_rng_free(r);
	return buf;
}

/**
 * cal__bench_seconds() - how long one repetition of @p takes.
 * @h: the host
 * @pl: the plan (window)
 * @p: the point
 *
 * Return: the window, plus the start delay and, for the memory chase, the
 * time to build its buffer (about 1 s a GiB).
 */
double cal__bench_seconds(const struct cal_host *h, const struct cal_plan *pl,
			  const struct cal_point *p)
{
	double s = pl->window_s + START_DELAY_NS / 1e9 + 0.001;

	if (cal_bench_chase(p->bench))
		s += (double)chase_bytes(h, p->bench) / (1u << 30) /
		     (double)p->reps;
	return s;
}

/*
 * batch_cv() - one hand-off's coefficient of variation from rank 0's
 * batch durations of a ping-pong: a batch is OPS_PER_CLOCK round trips,
 * 2 x OPS_PER_CLOCK hand-offs, so if hand-offs vary independently a
 * batch's CV is theirs over sqrt(2 x OPS_PER_CLOCK). The batches' spread
 * is taken robustly, sigma = IQR / 1.349 (a normal's), so that a batch an
 * interrupt or a migration stretched does not count. The first batch
 * (the start) is left out. Return -1 with fewer than 8 batches.
 */
static double batch_cv(const uint32_t *ns, unsigned int nr)
{
	double x[BATCHES], med, iqr;
	unsigned int i;

	if (nr < 9)
		return -1;
	for (i = 1; i < nr; i++)
		x[i - 1] = ns[i];
	gsl_sort(x, 1, nr - 1);
	med = gsl_stats_median_from_sorted_data(x, 1, nr - 1);
	iqr = gsl_stats_quantile_from_sorted_data(x, 1, nr - 1, 0.75) -
	      gsl_stats_quantile_from_sorted_data(x, 1, nr - 1, 0.25);
	return med > 0 ? iqr / 1.349 / med * sqrt(2.0 * OPS_PER_CLOCK) : -1;
}

static int run_rep(const struct cal_host *h, const struct cal_plan *pl,
		   struct cal_point *p, struct shared *sh, struct worker *w,
		   void *chase_buf, double *out, double *cv)
{
	static uint32_t batch_ns[BATCHES];
	uint64_t ops = 0, elapsed = 0, counted = 0;
	unsigned int i, started = 0;
	int ret = 0;

	memset(sh, 0, sizeof(*sh));
	sh->lines_bytes = (size_t)p->n * 128 < 4096 ? 4096 : (size_t)p->n * 128;
	sh->lines = mmap(NULL, sh->lines_bytes, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sh->lines == MAP_FAILED)
		return errno;
	pthread_mutex_init(&sh->lock, NULL);
	pthread_cond_init(&sh->cond, NULL);
	for (i = 0; i < p->n; i++) {
		w[i] = (struct worker){
			.sh = sh,
			.pl = pl,
			.p = p,
			.rank = i,
			.cpu_os = h->cpus[p->cpu_idx[i]].os,
			.chase = chase_buf,
			.batch_ns = !i && cal_bench_pingpong(p->bench) ?
					    batch_ns :
					    NULL,
		};
		ret = pthread_create(&w[i].thread, NULL, worker_main, &w[i]);
		if (ret)
			break;
		started++;
	}
	pthread_mutex_lock(&sh->lock);
	while (sh->ready < started)
		pthread_cond_wait(&sh->cond, &sh->lock);
	/* A thread not created: the others find an error and stop. */
	for (i = 0; ret && i < started; i++)
		w[i].error = ret;
	sh->start_ns = now_ns() + START_DELAY_NS;
	sh->end_ns = sh->start_ns + (uint64_t)(pl->window_s * 1e9);
	sh->go = true;
	pthread_cond_broadcast(&sh->cond);
	pthread_mutex_unlock(&sh->lock);
	for (i = 0; i < started; i++) {
		pthread_join(w[i].thread, NULL);
		if (w[i].error && !ret)
			ret = w[i].error;
	}
	munmap((void *)sh->lines, sh->lines_bytes);
	pthread_mutex_destroy(&sh->lock);
	pthread_cond_destroy(&sh->cond);
	if (ret)
		return ret;
	/*
	 * ns per operation = the window / the operations of every thread
	 * (1e9 / throughput): the adder alone for add_readers, the adders
	 * for chase_xadd, rank 0's round trips x 2 for a ping-pong, the one
	 * thread of a chase; chase_load: the readers' ns per load.
	 */
	for (i = 0; i < p->n; i++) {
		if (cal_rank_counts(p->bench, i)) {
			ops += w[i].ops;
			elapsed += w[i].elapsed_ns;
			counted++;
		}
	}
	if (cal_bench_pingpong(p->bench))
		ops *= 2;
	if (p->bench == CAL_CHASE_LOAD)
		counted = 1; /* a latency: each reader's time per load */
	*out = ops ? (double)elapsed / (double)counted / (double)ops : 0;
	*cv = w[0].batch_ns ? batch_cv(w[0].batch_ns, w[0].nr_batches) : -1;
	return 0;
}

/**
 * cal__bench_run() - measure @p on this host, p->reps times.
 * @h: the host (cal__host_probe())
 * @pl: the plan: the window of one repetition
 * @p: the point; its samples are filled and its statistics computed
 * @err: filled on failure
 *
 * Return: 0, or -1 with @err set: a thread that could not be created or
 * pinned, or no memory for a chase buffer.
 */
int cal__bench_run(const struct cal_host *h, const struct cal_plan *pl,
		   struct cal_point *p, struct sim_error *err)
{
	struct shared *sh = NULL;
	struct worker *w = calloc(p->n, sizeof(*w));
	void **buf = NULL;
	size_t len = 0;
	double cv[CAL_MAX_REPS];
	unsigned int r, nr_cv = 0;
	int ret = 0;

	if (!w || posix_memalign((void **)&sh, LINE, sizeof(*sh))) {
		free(w);
		sim_error_set(err, "", 0, 0, "out of memory");
		return -1;
	}
	if (cal_bench_chase(p->bench)) {
		buf = make_chase(chase_bytes(h, p->bench), &len);
		if (!buf) {
			sim_error_set(
				err, "", 0, 0,
				"no memory for the %s chase buffer (%zu bytes)",
				cal_bench_names[p->bench],
				chase_bytes(h, p->bench));
			free(w);
			free(sh);
			return -1;
		}
	}
	for (r = 0; r < p->reps && !ret; r++) {
		ret = run_rep(h, pl, p, sh, w, buf, &p->samples[r], &cv[r]);
		nr_cv += !ret && cv[r] >= 0;
	}
	/* the median repetition's spread (no spread: not measured) */
	if (nr_cv == p->reps) {
		gsl_sort(cv, 1, p->reps);
		p->cv = gsl_stats_median_from_sorted_data(cv, 1, p->reps);
		p->has_cv = true;
	}
	free(buf);
	free(w);
	free(sh);
	if (ret) {
		sim_error_set(err, "", 0, 0,
			      "%s: cannot run a thread pinned to CPU %u: %s",
			      cal_bench_names[p->bench],
			      h->cpus[p->cpu_idx[0]].os, strerror(ret));
		return -1;
	}
	cal__point_stats(p);
	return 0;
}

/* ---- a wake-up round trip: a pipe ping-pong between two pinned threads ---- */

#define WAKE_ROUNDS 4000
#define WAKE_WARMUP 200

struct wake_end {
	unsigned int os; /* the CPU to pin to */
	int in, out; /* read one byte from in, write one to out */
	bool first; /* writes before it reads, and times the rounds */
	double ns[CAL_WAKE_REPS]; /* per round trip, one a repetition */
	int err;
};

/* One byte each way; -1 on an error (a pipe the other end closed). */
static int wake_step(int fd, bool rd)
{
	char c = 0;

	return (rd ? read(fd, &c, 1) : write(fd, &c, 1)) == 1 ? 0 : -1;
}

static void *wake_main(void *arg)
{
	struct wake_end *e = arg;
	unsigned int r, i;
	uint64_t t0 = 0;

	e->err = pin_self(e->os);
	if (e->err)
		goto fail;
	for (r = 0; r < CAL_WAKE_REPS; r++) {
		for (i = 0; i < WAKE_WARMUP + WAKE_ROUNDS; i++) {
			if (e->first && i == WAKE_WARMUP)
				t0 = now_ns();
			if (e->first ? wake_step(e->out, false) ||
					       wake_step(e->in, true) :
				       wake_step(e->in, true) ||
					       wake_step(e->out, false)) {
				e->err = EPIPE;
				goto fail;
			}
		}
		if (e->first)
			e->ns[r] = (double)(now_ns() - t0) / WAKE_ROUNDS;
	}
	return NULL;
fail:
	/* the other end sees EOF rather than wait for ever */
	close(e->out);
	e->out = -1;
	return NULL;
}

/*
 * cal__wake_round_trip() - the median, over CAL_WAKE_REPS repetitions,
 * of a round trip of one byte through two pipes between threads pinned
 * to CPUs @a and @b (Linux numbers): each round trip wakes a thread
 * blocked in read() twice. Returns 0, or an errno.
 */
int cal__wake_round_trip(unsigned int a, unsigned int b, double *median_ns)
{
	struct wake_end ea = { .os = a, .first = true };
	struct wake_end eb = { .os = b };
	int p1[2], p2[2], ret = 0;
	pthread_t ta, tb;

	if (pipe(p1))
		return errno;
	if (pipe(p2)) {
		ret = errno;
		close(p1[0]);
		close(p1[1]);
		return ret;
	}
	ea.out = p1[1];
	eb.in = p1[0];
	eb.out = p2[1];
	ea.in = p2[0];
	if (pthread_create(&tb, NULL, wake_main, &eb)) {
		ret = EAGAIN;
	} else {
		if (pthread_create(&ta, NULL, wake_main, &ea)) {
			ret = EAGAIN;
			close(ea.out); /* b sees EOF */
			ea.out = -1;
		} else {
			pthread_join(ta, NULL);
		}
		pthread_join(tb, NULL);
	}
	if (!ret)
		ret = ea.err ? ea.err : eb.err;
	if (!ret) {
		gsl_sort(ea.ns, 1, CAL_WAKE_REPS);
		*median_ns = gsl_stats_median_from_sorted_data(ea.ns, 1,
							       CAL_WAKE_REPS);
	}
	/* a thread that failed closed its write end already */
	if (ea.out >= 0)
		close(ea.out);
	if (eb.out >= 0)
		close(eb.out);
	close(ea.in);
	close(eb.in);
	return ret;
}
