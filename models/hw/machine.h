/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/hw/machine.h - the simulated machine: topology, Linux CPU numbering
 * and the latency table of a machine profile (scenarios/machines/).
 *
 * Theory of operation: a profile names sockets, cores per socket, threads
 * per core, optionally cores per LLC domain (an AMD CCX), and how Linux
 * numbers the CPUs. From that, every pair of CPUs falls in one distance
 * class (same CPU, SMT sibling, same LLC, same socket, other socket) and a
 * cache-line transfer between them costs that class's latency. Every
 * latency in a profile carries its published source; the loader refuses a
 * number without one.
 *
 *	numbering: threads_last (Intel and AMD servers, and most desktops)
 *	  socket 0: cores 0..C-1        socket 1: cores C..2C-1 ...
 *	  CPU n, n < S*C:   thread 0 of core n
 *	  CPU n + S*C:      thread 1 of core n (its SMT sibling)
 *	numbering: threads_adjacent
 *	  CPU 2k and 2k+1 are the two threads of core k
 *
 * Layering: models/ module; uses sim/ only through its public headers.
 */
#ifndef MODELS_HW_MACHINE_H
#define MODELS_HW_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/error.h"
#include "sim/scenario.h"
#include "sim/scenario_keys.h"

#define MACHINE_MAX_CPUS 1024
#define MACHINE_MAX_SOCKETS 16
#define MACHINE_MAX_FILL_BUFFERS 32 /* coherence.fill_buffers */
#define MACHINE_MAX_PAGE_WALKERS 8 /* coherence.page_walkers */

enum coh_dist {
	COH_DIST_SELF, /* the same CPU */
	COH_DIST_SMT, /* SMT sibling: same core */
	COH_DIST_LLC, /* another core sharing the last-level cache */
	COH_DIST_DIE, /* same socket, another LLC domain (AMD CCX) */
	COH_DIST_SOCKET, /* another socket */
	NR_COH_DIST,
};

enum machine_numbering {
	MACHINE_THREADS_LAST,
	MACHINE_THREADS_ADJACENT,
};

/*
 * enum coh_handoff - when a CPU that owns a contended line gets to touch it
 * again before the requests queued on it are served.
 * @COH_HANDOFF_STRICT: never: a queued request is served between two
 *	accesses of the same CPU (the default).
 * @COH_HANDOFF_HOLD: the CPU that just received the line keeps it for
 *	hold_ps; its accesses in that window are hits even with waiters.
 */
enum coh_handoff {
	COH_HANDOFF_STRICT,
	COH_HANDOFF_HOLD,
};

/*
 * enum coh_read_service - how a line with RMWs queued on it serves loads
 * (doc/model/contended-lines.md, item 3).
 * @COH_READ_FIFO: in arrival order behind every queued request; a load
 *	at the head of the queue of a line Shared after a load joins the
 *	sharers at once (the default).
 * @COH_READ_JOIN: as FIFO, and when a load is served every load queued
 *	on the line is served with it: they join the M->S downgrade.
 * @COH_READ_SHARED_FIRST: as JOIN, and while the line is Shared after a
 *	load a load that arrives is served at once, ahead of queued RFOs.
 */
enum coh_read_service {
	COH_READ_FIFO,
	COH_READ_JOIN,
	COH_READ_SHARED_FIRST,
	NR_COH_READ_SERVICE,
};

/*
 * struct machine_cpu - where one Linux CPU sits.
 */
struct machine_cpu {
	unsigned int socket;
	unsigned int core; /* global core number, 0..sockets*cores-1 */
	unsigned int llc; /* global LLC-domain number */
	unsigned int thread; /* 0..threads_per_core-1 */
};

/*
 * struct machine - a loaded machine profile. All times in picoseconds.
 */
/* intel_idle's longest table (skl_cstates) has 8 states */
#define MACHINE_MAX_IDLE_STATES 8

struct machine {
	char name[64];
	unsigned int sockets, cores_per_socket, threads_per_core;
	unsigned int cores_per_llc; /* == cores_per_socket unless CCXs */
	unsigned int nr_cpus;
	enum machine_numbering numbering;
	struct machine_cpu *cpus; /* [nr_cpus] */

	uint64_t l1_hit_ps; /* load hit in the own L1 */
	/*
	 * SIM: read by nothing yet. Lines are never evicted, so a line no
	 * core holds is a cold one, served from memory; llc_hit is kept for
	 * when capacity is modelled.
	 */
	uint64_t llc_hit_ps;
	uint64_t memory_ps; /* first touch of a cold line: DRAM */
	/*
	 * A cold line homed on another node: that node's DRAM (the profile's
	 * memory_remote; memory_ps without it). By pair [the line's home
	 * socket][the reader's]: the diagonal memory_ps, the others
	 * memory_remote scaled by the pair's ratio to xfer_socket, as the
	 * socket matrix scales a hand-off (machine_socket_pairs()).
	 */
	uint64_t memory_remote_ps;
	uint64_t socket_memory_ps[MACHINE_MAX_SOCKETS][MACHINE_MAX_SOCKETS];
	/* a translation miss: an STLB miss and its page walk (0: free) */
	uint64_t page_walk_ps;
	uint64_t rmw_local_ps; /* locked RMW on an owned line */
	uint64_t xfer_ps[NR_COH_DIST]; /* line transfer by distance class;
					 * [COH_DIST_SOCKET]: the line homed
					 * at the holder's socket */
	uint64_t xfer_socket_remote_home_ps; /* across sockets, the line
					      * homed elsewhere */
	uint64_t upgrade_ps[NR_COH_DIST]; /* Shared -> Modified by a sharer,
					   * by the farthest other sharer */
	/*
	 * Across sockets, by pair [the holder's socket][the requester's]:
	 * socket_xfer_ps is the profile's socket_distances matrix (the
	 * xfer_socket of that pair); the line homed away from the holder,
	 * and the upgrade, are xfer_socket_remote_home and upgrade_socket
	 * scaled by the pair's ratio to xfer_socket. Without a matrix every
	 * pair is xfer_ps[COH_DIST_SOCKET] and the two are the class's own.
	 * The diagonal is 0: a socket with itself is another class.
	 */
	uint64_t socket_xfer_ps[MACHINE_MAX_SOCKETS][MACHINE_MAX_SOCKETS];
	uint64_t socket_remote_home_ps[MACHINE_MAX_SOCKETS][MACHINE_MAX_SOCKETS];
	uint64_t socket_upgrade_ps[MACHINE_MAX_SOCKETS][MACHINE_MAX_SOCKETS];
	/*
	 * A hand-off's idle cost by [the holder's socket][the requester's]
	 * [their distance class][whether the line is homed away from the
	 * holder's socket]: xfer_ps[] but across sockets, where it is the
	 * pair's socket_xfer_ps or socket_remote_home_ps, so that the
	 * coherence model's xfer_keys() finds it in one load, not three and
	 * a select by masks (machine_socket_pairs() fills it).
	 */
	uint64_t xfer_pair_ps[MACHINE_MAX_SOCKETS][MACHINE_MAX_SOCKETS]
			     [NR_COH_DIST][2];
	bool socket_matrix; /* the profile wrote socket_distances */
	uint64_t inval_per_sharer_ps; /* each extra sharer to invalidate */
	/* a third CPU queued at a hand-off: requester on the home socket */
	uint64_t conflict_local_ps;
	uint64_t conflict_remote_ps; /* ... requester on another socket */
	uint64_t xfer_per_waiter_ps; /* legacy: growth per queued CPU */
	uint64_t irq_save_restore_ps; /* local_irq_save() + _restore() */
	uint64_t context_switch_ps; /* task to task on a CPU (sched: fair) */
	uint64_t migration_ps; /* cold working set after a migration */
	uint64_t insn_ps; /* one kernel instruction: 1 / (clock x IPC) */
	/* occupancy of a hand-off as a fraction of its latency, in 1/1024 */
	unsigned int occupancy_1024;
	/* coefficient of variation of a hand-off's service time, in 1/1024 */
	unsigned int service_cv_1024;
	enum coh_handoff handoff;
	uint64_t hold_ps; /* COH_HANDOFF_HOLD window */
	bool adjacent_line_prefetch; /* 128-byte pairs interfere */
	enum coh_read_service read_service;
	/*
	 * the reorder buffer, in micro-ops: a dependent load that misses
	 * stalls the CPU only once it has run this much work after it (at
	 * insn_ps a micro-op); 0: at once
	 */
	unsigned int rob_uops;
	/*
	 * the core's L1D fill buffers: cold misses in flight at once; and
	 * its page walkers: translation misses in flight at once (0: no
	 * bound but COH_MAX_PENDING)
	 */
	unsigned int fill_buffers, page_walkers;
	/*
	 * smt_slowdown: a thread's own work stretched while its sibling
	 * runs, in 1/1024 (1024: no sharing; coh_delay())
	 */
	unsigned int smt_slowdown_1024;
	/*
	 * idle_states: the processor's idle states, shallowest first (the
	 * cpuidle driver's table, without the polling state 0, which the
	 * governor adds); none: a wake-up is free. ipi_ps: sending a
	 * wake-up IPI to an idle CPU and its taking the interrupt.
	 */
	unsigned int nr_idle_states;
	struct machine_idle_state {
		char name[16];
		uint64_t exit_ps; /* exit_latency */
		uint64_t residency_ps; /* target_residency */
	} idle_states[MACHINE_MAX_IDLE_STATES];
	uint64_t ipi_ps;
};

/*
 * The keys of a profile, of its `coherence:` map and of its `latencies:`
 * map, as they are read (for `memcgsim help keys`): *tables is set to
 * the three, the count is returned.
 */
unsigned int machine_key_tables(const struct scenario_key_table **tables);

/*
 * machine_load() - fill @m from a machine profile map (the `machine:` of a
 * scenario, inline or the root of a profile file). Every latency must have
 * a `source`. Return 0 or -1 with @err set.
 */
int machine_load(struct machine *m, const struct scenario_node *node,
		 struct sim_error *err);
void machine_destroy(struct machine *m);

/*
 * machine_socket_pairs() - refill the per-pair cross-socket tables after
 * xfer_ps[], upgrade_ps[] or xfer_socket_remote_home_ps changed.
 */
void machine_socket_pairs(struct machine *m);

/*
 * machine_nudge() - scale every latency of @m by 1 + @ppm / 1e6 (for
 * --sensitivity), the per-pair tables with them.
 */
void machine_nudge(struct machine *m, int64_t ppm);

/*
 * machine_load_file() - load the machine profile file @path (its root map
 * is the machine map) into @m. Return 0 or -1 with @err set.
 */
int machine_load_file(struct machine *m, const char *path,
		      struct sim_error *err);

/* machine_dist() - distance class between two CPUs. */
static inline enum coh_dist machine_dist(const struct machine *m,
					 unsigned int a, unsigned int b)
{
	const struct machine_cpu *x = &m->cpus[a], *y = &m->cpus[b];

	if (a == b)
		return COH_DIST_SELF;
	if (x->core == y->core)
		return COH_DIST_SMT;
	if (x->llc == y->llc)
		return COH_DIST_LLC;
	if (x->socket == y->socket)
		return COH_DIST_DIE;
	return COH_DIST_SOCKET;
}

/*
 * A CPU's key: its core, LLC domain and socket, 10 bits each
 * (MACHINE_MAX_CPUS bounds the three numbers). The XOR of two CPUs' keys
 * is zero in a field exactly when they agree on it, so machine_dist() of
 * two distinct CPUs is machine_key_dist() of that XOR: the same three
 * tests in the same order, on one word per CPU instead of three fields of
 * each (doc/speed.md: the coherence model's hand-offs keep the keys).
 */
#define MACHINE_KEY_FIELD 0x3ffu
#define MACHINE_KEY_SOCKET_SHIFT 20
_Static_assert(MACHINE_MAX_CPUS <= MACHINE_KEY_FIELD + 1,
	       "a CPU key field holds every core and LLC number");

static inline uint32_t machine_cpu_key(const struct machine_cpu *x)
{
	return x->core | x->llc << 10 | x->socket << MACHINE_KEY_SOCKET_SHIFT;
}

static inline enum coh_dist machine_key_dist(uint32_t x)
{
	/*
	 * The first field they differ in, in that order, as three tests
	 * would find it, but without branches: the distance class of a random
	 * pair of CPUs is a coin toss for the host's branch predictor at
	 * every hand-off (doc/speed.md). Counting in sequence: SMT, LLC, DIE,
	 * SOCKET. The numbers are global and nested (build_cpus(): an LLC
	 * domain's cores are consecutive, and cores_per_llc divides
	 * cores_per_socket), so two CPUs that differ in a field differ in
	 * every field below it: the XOR is nonzero exactly when they differ
	 * in core, past the core field exactly when in LLC domain, past the
	 * LLC field exactly when in socket. Three compares, where a test of
	 * each field and their ANDs cost a hand-off 6 instructions more
	 * (coh_create.c's within_build() checks every pair against
	 * machine_dist()).
	 */
	_Static_assert(COH_DIST_LLC == COH_DIST_SMT + 1 &&
			       COH_DIST_DIE == COH_DIST_SMT + 2 &&
			       COH_DIST_SOCKET == COH_DIST_SMT + 3,
		       "the distance classes in order");
	return (enum coh_dist)(COH_DIST_SMT + (x != 0) +
			       (x > MACHINE_KEY_FIELD) +
			       (x >> MACHINE_KEY_SOCKET_SHIFT != 0));
}

/*
 * machine_xfer_ps() - cost of moving a line from CPU @from to CPU @to
 * (across sockets: homed at @from's socket, the pair's distance).
 */
static inline uint64_t machine_xfer_ps(const struct machine *m,
				       unsigned int from, unsigned int to)
{
	enum coh_dist d = machine_dist(m, from, to);

	if (d == COH_DIST_SOCKET)
		return m->socket_xfer_ps[m->cpus[from].socket]
					[m->cpus[to].socket];
	return m->xfer_ps[d];
}

const char *coh_dist_name(enum coh_dist d);

#endif /* MODELS_HW_MACHINE_H */
