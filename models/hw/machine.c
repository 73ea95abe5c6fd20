// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/hw/machine.c - load a machine profile: topology, Linux CPU numbering
 * and the latency table every coherence cost is drawn from.
 *
 * Not a model of kernel code: this is the hardware the kernel runs on.
 *
 * Theory of operation: a profile is a map (the root of a file in
 * scenarios/machines/, or a scenario's inline `machine:`):
 *
 *	name, description
 *	sockets, cores_per_socket, threads_per_core, [cores_per_llc]
 *	[numbering]                   threads_last | threads_adjacent
 *	latencies:  <class>: {ns: NUMBER, source: "..."}
 *	[socket_distances]: - {ns: [NUMBER, ...], source: "..."}  a row a socket
 *	[coherence]: handoff, hold, occupancy, adjacent_line_prefetch,
 *	             service_cv
 *
 * Every number that changes a result carries a non-empty `source`, and the
 * loader refuses one without. Which transfer latencies are required follows
 * from the topology: a class no pair of CPUs can fall in is optional.
 *
 *	xfer_smt	threads_per_core > 1
 *	xfer_llc	cores_per_llc > 1
 *	xfer_die	cores_per_llc < cores_per_socket (else = xfer_llc)
 *	xfer_socket	sockets > 1
 *
 * The hand-off law's refinements are optional (models/hw/cache.h):
 *
 *	xfer_socket_remote_home  across sockets, line homed away from the
 *	                         holder                   (default xfer_socket)
 *	upgrade_llc, upgrade_socket  Shared -> Modified by a sharer, by the
 *	                         farthest other sharer    (default the xfer)
 *	conflict_local, conflict_remote  per third CPU queued at a hand-off,
 *	                         requester on / off the line's home (default 0)
 *	xfer_per_waiter          legacy linear term per queued CPU (default 0)
 *
 * socket_distances is the cross-socket transfer per pair of sockets, as
 * `numactl -H` and hwloc print the ACPI SLIT, but in ns of a line hand-off
 * rather than SLIT's relative units: row i is socket i holding the line,
 * column j socket j asking for it, the diagonal 0. Each row carries its
 * source. Without it every pair costs xfer_socket (a 2-socket machine has
 * one pair). With it, xfer_socket_remote_home and upgrade_socket of a
 * pair are scaled by the pair's ratio to xfer_socket.
 *
 * Each of the three maps is a table of sim/scenario_keys.h
 * (machine_key_tables(), for `memcgsim help keys machine`, `coherence`
 * and `latencies`): the topology and coherence keys are read through it,
 * the latency classes by load_latencies() with the table's names and
 * minimums.
 *
 * The coherence map is optional; its defaults are doc/design.md section 4's:
 * strict hand-off, a hand-off occupies the line for its whole latency,
 * no adjacent-line pairing, every hand-off of a class costs the same
 * (service_cv 0).
 */
#include <stdlib.h>
#include <string.h>

#include "models/hw/machine.h"
#include "sim/scenario_keys.h"
#include "sim/util.h"

#define MACHINE_MAX_CORES_PER_SOCKET 256
#define MACHINE_MAX_THREADS_PER_CORE 4
#define MACHINE_MAX_LATENCY_PS 1000000000ull /* 1 ms */
#define PS_PER_NS 1000

static const char *const numbering_names[] = {
	[MACHINE_THREADS_LAST] = "threads_last",
	[MACHINE_THREADS_ADJACENT] = "threads_adjacent",
};

static const char *const handoff_names[] = {
	[COH_HANDOFF_STRICT] = "strict",
	[COH_HANDOFF_HOLD] = "hold",
};

static const char *const latency_entry_keys[] = { "ns", "source" };
static const char *const occupancy_keys[] = { "fraction", "source" };
static const char *const prefetch_keys[] = { "enabled", "source" };
static const char *const service_cv_keys[] = { "cv", "source" };
static const char *const read_service_keys[] = { "policy", "source" };
static const char *const rob_keys[] = { "uops", "source" };
static const char *const count_keys[] = { "count", "source" };
static const char *const read_service_names[] = {
	[COH_READ_FIFO] = "fifo",
	[COH_READ_JOIN] = "join",
	[COH_READ_SHARED_FIRST] = "shared_first",
};
static const char *const distance_row_keys[] = { "ns", "source" };

enum machine_latency {
	LAT_L1_HIT,
	LAT_LLC_HIT,
	LAT_MEMORY,
	LAT_RMW_LOCAL,
	LAT_XFER_SMT,
	LAT_XFER_LLC,
	LAT_XFER_DIE,
	LAT_XFER_SOCKET,
	LAT_XFER_SOCKET_REMOTE_HOME,
	LAT_UPGRADE_LLC,
	LAT_UPGRADE_SOCKET,
	LAT_INVAL_PER_SHARER,
	LAT_CONFLICT_LOCAL,
	LAT_CONFLICT_REMOTE,
	LAT_XFER_PER_WAITER,
	LAT_IRQ_SAVE_RESTORE,
	LAT_CONTEXT_SWITCH,
	LAT_MIGRATION,
	LAT_INSN,
	LAT_MEMORY_REMOTE,
	LAT_PAGE_WALK,
	NR_LAT,
};

/*
 * LATENCY() - a `latencies:` entry {ns, source}. Every access itself must
 * take time (at least 1 ps), or a CPU looping on hits (or two CPUs passing
 * a line back and forth) would never let the clock move; growth terms and
 * optional extras may be 0 (@min_ps). Which of the others are required
 * follows from the topology (latency_needed()); @def_doc says when.
 */
#define LATENCY(key, min_ps, when, text)                                       \
	{                                                                      \
		.name = (key), .type = SCENARIO_KEY_CUSTOM,                    \
		.form = "{ns, source}", .unit_ps = PS_PER_NS, .min = (min_ps), \
		.max = MACHINE_MAX_LATENCY_PS, .def_doc = (when),              \
		.doc = (text),                                                 \
	}
/* LATENCY_REQUIRED() - one every profile has. */
#define LATENCY_REQUIRED(key, min_ps, text)                                    \
	{                                                                      \
		.name = (key), .type = SCENARIO_KEY_CUSTOM, .required = true,  \
		.form = "{ns, source}", .unit_ps = PS_PER_NS, .min = (min_ps), \
		.max = MACHINE_MAX_LATENCY_PS, .doc = (text),                  \
	}

static const struct scenario_key latency_keys[NR_LAT] = {
	[LAT_L1_HIT] =
		LATENCY_REQUIRED("l1_hit", 1, "A load that hits the own L1"),
	[LAT_LLC_HIT] = LATENCY_REQUIRED(
		"llc_hit", 1,
		"A load that hits the LLC (read by nothing yet: lines are never evicted)"),
	[LAT_MEMORY] = LATENCY_REQUIRED("memory", 1,
					"The first touch of a cold line: DRAM"),
	[LAT_RMW_LOCAL] = LATENCY_REQUIRED(
		"rmw_local", 1, "A locked RMW on a line the CPU owns"),
	[LAT_XFER_SMT] = LATENCY("xfer_smt", 1,
				 "required with threads_per_core > 1",
				 "A line passed between two threads of a core"),
	[LAT_XFER_LLC] = LATENCY("xfer_llc", 1,
				 "required with cores_per_llc > 1",
				 "A line passed between two cores of an LLC"),
	[LAT_XFER_DIE] = LATENCY(
		"xfer_die", 1,
		"required with cores_per_llc < cores_per_socket, else xfer_llc",
		"A line passed between two LLC domains (CCXs) of a socket"),
	[LAT_XFER_SOCKET] = LATENCY(
		"xfer_socket", 1, "required with sockets > 1",
		"A line passed across sockets, homed at the holder's socket"),
	[LAT_XFER_SOCKET_REMOTE_HOME] = LATENCY(
		"xfer_socket_remote_home", 1, "xfer_socket",
		"A line passed across sockets, homed away from the holder"),
	[LAT_UPGRADE_LLC] = LATENCY(
		"upgrade_llc", 1, "xfer_llc",
		"Shared -> Modified by a sharer, the farthest other sharer in the LLC"),
	[LAT_UPGRADE_SOCKET] = LATENCY(
		"upgrade_socket", 1, "xfer_socket",
		"Shared -> Modified by a sharer, the farthest other sharer on another socket"),
	[LAT_INVAL_PER_SHARER] =
		LATENCY_REQUIRED("inval_per_sharer", 0,
				 "Each extra sharer a write must invalidate"),
	[LAT_CONFLICT_LOCAL] = LATENCY(
		"conflict_local", 0, "0",
		"Per third CPU queued at a hand-off, the requester on the line's home socket"),
	[LAT_CONFLICT_REMOTE] = LATENCY(
		"conflict_remote", 0, "0",
		"Per third CPU queued at a hand-off, the requester on another socket"),
	[LAT_XFER_PER_WAITER] =
		LATENCY("xfer_per_waiter", 0, "0",
			"Legacy linear growth of a hand-off per queued CPU"),
	[LAT_IRQ_SAVE_RESTORE] = LATENCY("irq_save_restore", 0, "0",
					 "local_irq_save() and _restore()"),
	[LAT_CONTEXT_SWITCH] = LATENCY(
		"context_switch", 0, "0",
		"A switch from one task to another on a CPU (sched: fair), beyond the switch from idle that the calibrated work already holds"),
	[LAT_MIGRATION] = LATENCY(
		"migration", 0, "0",
		"A task's first run after moving to another CPU: its cold private working set (sched: fair)"),
	[LAT_INSN] = LATENCY(
		"insn", 0, "0 (instructions free)",
		"One instruction of kernel code: 1 / (clock x IPC); the modelled paths' counts are models/kernel/sim/insn-costs-6.1.tsv"),
	[LAT_MEMORY_REMOTE] = LATENCY(
		"memory_remote", 1, "memory",
		"A cold line homed on another node (a per-CPU copy of a CPU on another socket): that node's DRAM"),
	[LAT_PAGE_WALK] = LATENCY(
		"page_walk", 0, "0",
		"A translation miss: a load of another CPU's copy of an alloc_percpu() area (each CPU's on pages of its own) misses the TLB and walks the page table"),
};

static const char *const coh_dist_names[NR_COH_DIST] = {
	[COH_DIST_SELF] = "self",     [COH_DIST_SMT] = "smt",
	[COH_DIST_LLC] = "llc",	      [COH_DIST_DIE] = "die",
	[COH_DIST_SOCKET] = "socket",
};

const char *coh_dist_name(enum coh_dist d)
{
	SIM_BUG_ON((unsigned int)d >= NR_COH_DIST);
	return coh_dist_names[d];
}

/*
 * missing_key() - "missing key 'KEY' in 'MAP': WHY" at @map's mark, in the
 * scenario getters' words (a root map is "at the top level"), plus the
 * reason the key is needed, if any.
 */
static void missing_key(struct sim_error *err, const struct scenario_node *map,
			const char *key, const char *why)
{
	const char *path = scenario_path(map);
	char where[SIM_ERROR_MSG_MAX];

	if (path && path[0])
		snprintf(where, sizeof(where), "in '%s'", path);
	else
		snprintf(where, sizeof(where), "at the top level");
	sim_error_set(err, scenario_file(map), scenario_line(map),
		      scenario_col(map), "missing key '%s' %s%s%s", key, where,
		      why ? ": " : "", why ? why : "");
}

/*
 * load_source() - @entry is a {NUMBER-KEY, source} map: check its keys and
 * that `source` is there and not empty.
 */
static int load_source(const struct scenario_node *entry,
		       const char *const *keys, size_t nr_keys,
		       struct sim_error *err)
{
	const char *source;

	if (scenario_check_keys(entry, keys, nr_keys, err))
		return -1;
	if (!scenario_get(entry, "source")) {
		missing_key(err, entry, "source",
			    "every number needs its published source");
		return -1;
	}
	if (scenario_string(entry, "source", true, NULL, &source, err))
		return -1;
	if (!source[0]) {
		scenario_error(err, scenario_get(entry, "source"),
			       "empty source: say where the number comes from");
		return -1;
	}
	return 0;
}

/* expect_entry() - refuse a bare number where {KEY: NUMBER, source} goes. */
static int expect_entry(const struct scenario_node *entry, const char *key,
			struct sim_error *err)
{
	if (scenario_kind(entry) == SCENARIO_MAP)
		return 0;
	scenario_error(
		err, entry,
		"expected a map {%s: NUMBER, source: \"...\"}, found '%s'", key,
		scenario_scalar(entry) ? scenario_scalar(entry) : "a list");
	return -1;
}

/*
 * load_latency() - one {ns: NUMBER, source: "..."} entry, in ps, at least
 * @min_ps.
 */
static int load_latency(const struct scenario_node *entry, uint64_t min_ps,
			uint64_t *out, struct sim_error *err)
{
	if (expect_entry(entry, "ns", err))
		return -1;
	if (load_source(entry, latency_entry_keys,
			ARRAY_SIZE(latency_entry_keys), err))
		return -1;
	return scenario_time_ps(entry, "ns", true, PS_PER_NS, 0, min_ps,
				MACHINE_MAX_LATENCY_PS, out, err);
}

/*
 * latency_needed() - whether the topology can use latency @i; if so and it
 * is conditional, the reason goes in @why for the "missing key" message.
 */
static bool latency_needed(const struct machine *m, enum machine_latency i,
			   char *why, size_t len)
{
	switch (i) {
	case LAT_XFER_SMT:
		snprintf(why, len,
			 "a machine with %u threads per core needs it",
			 m->threads_per_core);
		return m->threads_per_core > 1;
	case LAT_XFER_LLC:
		snprintf(why, len, "a machine with %u cores per LLC needs it",
			 m->cores_per_llc);
		return m->cores_per_llc > 1;
	case LAT_XFER_DIE:
		snprintf(why, len,
			 "a machine with %u LLC domains per socket needs it",
			 m->cores_per_socket / m->cores_per_llc);
		return m->cores_per_llc < m->cores_per_socket;
	case LAT_XFER_SOCKET:
		snprintf(why, len, "a %u-socket machine needs it", m->sockets);
		return m->sockets > 1;
	case LAT_XFER_SOCKET_REMOTE_HOME:
	case LAT_UPGRADE_LLC:
	case LAT_UPGRADE_SOCKET:
	case LAT_CONFLICT_LOCAL:
	case LAT_CONFLICT_REMOTE:
	case LAT_XFER_PER_WAITER:
	case LAT_IRQ_SAVE_RESTORE:
	case LAT_CONTEXT_SWITCH:
	case LAT_MIGRATION:
	case LAT_INSN:
	case LAT_MEMORY_REMOTE:
	case LAT_PAGE_WALK:
		why[0] = '\0';
		return false; /* optional: see load_latencies() */
	default:
		why[0] = '\0';
		return true;
	}
}

static int load_latencies(struct machine *m, const struct scenario_node *map,
			  struct sim_error *err)
{
	uint64_t ps[NR_LAT] = { 0 };
	bool present[NR_LAT] = { false };
	const char *names[NR_LAT];
	char why[96];
	unsigned int i;

	scenario_key_names(latency_keys, NR_LAT, names, 0, NR_LAT);
	if (scenario_check_keys(map, names, NR_LAT, err))
		return -1;
	for (i = 0; i < NR_LAT; i++) {
		const struct scenario_node *entry;
		bool needed = latency_needed(m, i, why, sizeof(why));

		entry = scenario_get(map, latency_keys[i].name);
		if (!entry && needed) {
			missing_key(err, map, latency_keys[i].name,
				    why[0] ? why : NULL);
			return -1;
		}
		if (!entry)
			continue;
		if (load_latency(entry, latency_keys[i].min, &ps[i], err))
			return -1;
		present[i] = true;
	}
	if (!present[LAT_XFER_DIE])
		ps[LAT_XFER_DIE] = ps[LAT_XFER_LLC];
	/* Absent refinements fall back to the home-blind transfer. */
	if (!present[LAT_XFER_SOCKET_REMOTE_HOME])
		ps[LAT_XFER_SOCKET_REMOTE_HOME] = ps[LAT_XFER_SOCKET];
	if (!present[LAT_UPGRADE_LLC])
		ps[LAT_UPGRADE_LLC] = ps[LAT_XFER_LLC];
	if (!present[LAT_UPGRADE_SOCKET])
		ps[LAT_UPGRADE_SOCKET] = ps[LAT_XFER_SOCKET];
	if (!present[LAT_MEMORY_REMOTE])
		ps[LAT_MEMORY_REMOTE] = ps[LAT_MEMORY];

	m->l1_hit_ps = ps[LAT_L1_HIT];
	m->llc_hit_ps = ps[LAT_LLC_HIT];
	m->memory_ps = ps[LAT_MEMORY];
	m->memory_remote_ps = ps[LAT_MEMORY_REMOTE];
	m->page_walk_ps = ps[LAT_PAGE_WALK];
	m->rmw_local_ps = ps[LAT_RMW_LOCAL];
	m->xfer_ps[COH_DIST_SELF] = 0;
	m->xfer_ps[COH_DIST_SMT] = ps[LAT_XFER_SMT];
	m->xfer_ps[COH_DIST_LLC] = ps[LAT_XFER_LLC];
	m->xfer_ps[COH_DIST_DIE] = ps[LAT_XFER_DIE];
	m->xfer_ps[COH_DIST_SOCKET] = ps[LAT_XFER_SOCKET];
	m->xfer_socket_remote_home_ps = ps[LAT_XFER_SOCKET_REMOTE_HOME];
	m->upgrade_ps[COH_DIST_SELF] = 0;
	m->upgrade_ps[COH_DIST_SMT] = ps[LAT_XFER_SMT];
	m->upgrade_ps[COH_DIST_LLC] = ps[LAT_UPGRADE_LLC];
	/* SIM: another CCX is priced like a transfer, unless no CCX split */
	m->upgrade_ps[COH_DIST_DIE] =
		present[LAT_XFER_DIE] ? ps[LAT_XFER_DIE] : ps[LAT_UPGRADE_LLC];
	m->upgrade_ps[COH_DIST_SOCKET] = ps[LAT_UPGRADE_SOCKET];
	m->inval_per_sharer_ps = ps[LAT_INVAL_PER_SHARER];
	m->conflict_local_ps = ps[LAT_CONFLICT_LOCAL];
	m->conflict_remote_ps = ps[LAT_CONFLICT_REMOTE];
	m->xfer_per_waiter_ps = ps[LAT_XFER_PER_WAITER];
	m->irq_save_restore_ps = ps[LAT_IRQ_SAVE_RESTORE];
	m->context_switch_ps = ps[LAT_CONTEXT_SWITCH];
	m->migration_ps = ps[LAT_MIGRATION];
	m->insn_ps = ps[LAT_INSN];
	return 0;
}

static int load_occupancy(struct machine *m, const struct scenario_node *entry,
			  struct sim_error *err)
{
	double fraction;

	if (expect_entry(entry, "fraction", err))
		return -1;
	if (load_source(entry, occupancy_keys, ARRAY_SIZE(occupancy_keys), err))
		return -1;
	if (scenario_double(entry, "fraction", true, 1.0, 0.0, 1.0, &fraction,
			    err))
		return -1;
	/* Round to nearest; fraction is in [0, 1], so this cannot overflow. */
	m->occupancy_1024 = (unsigned int)(fraction * 1024.0 + 0.5);
	return 0;
}

/*
 * load_service_cv() - {cv: 0..1, source}: how much a hand-off's service
 * time varies around its mean (0: always the same, the default).
 */
static int load_service_cv(struct machine *m, const struct scenario_node *entry,
			   struct sim_error *err)
{
	double cv;

	if (expect_entry(entry, "cv", err))
		return -1;
	if (load_source(entry, service_cv_keys, ARRAY_SIZE(service_cv_keys),
			err))
		return -1;
	if (scenario_double(entry, "cv", true, 0.0, 0.0, 1.0, &cv, err))
		return -1;
	m->service_cv_1024 = (unsigned int)(cv * 1024.0 + 0.5);
	return 0;
}

static const char *const smt_keys[] = { "slowdown", "source" };

/*
 * load_smt_slowdown() - {slowdown: 1..2, source}: how much longer a
 * thread's own (non-memory) work takes while its SMT sibling runs.
 */
static int load_smt_slowdown(struct machine *m,
			     const struct scenario_node *entry,
			     struct sim_error *err)
{
	double slowdown;

	if (expect_entry(entry, "slowdown", err))
		return -1;
	if (load_source(entry, smt_keys, ARRAY_SIZE(smt_keys), err))
		return -1;
	if (scenario_double(entry, "slowdown", true, 1.0, 1.0, 2.0, &slowdown,
			    err))
		return -1;
	m->smt_slowdown_1024 = (unsigned int)(slowdown * 1024.0 + 0.5);
	return 0;
}

static const char *const idle_state_keys[] = { "name", "exit_ns",
					       "residency_ns", "source" };

/*
 * load_idle_states() - [{name, exit_ns, residency_ns, source}, ...]: the
 * processor's idle states, shallowest first (intel_idle's per-model
 * tables, the ACPI _CST), each deeper one no quicker to leave.
 */
static int load_idle_states(struct machine *m, const struct scenario_node *list,
			    struct sim_error *err)
{
	unsigned int i;

	if (scenario_kind(list) != SCENARIO_SEQ || !scenario_len(list) ||
	    scenario_len(list) > MACHINE_MAX_IDLE_STATES) {
		scenario_error(
			err, list,
			"expected a list of 1 to %u states: {name, exit_ns, residency_ns, source}",
			MACHINE_MAX_IDLE_STATES);
		return -1;
	}
	for (i = 0; i < scenario_len(list); i++) {
		const struct scenario_node *e = scenario_item(list, i);
		struct machine_idle_state *st = &m->idle_states[i];
		const char *name;

		if (expect_entry(e, "exit_ns", err) ||
		    load_source(e, idle_state_keys, ARRAY_SIZE(idle_state_keys),
				err) ||
		    scenario_string(e, "name", true, NULL, &name, err) ||
		    scenario_time_ps(e, "exit_ns", true, PS_PER_NS, 0, 0,
				     MACHINE_MAX_LATENCY_PS, &st->exit_ps,
				     err) ||
		    scenario_time_ps(e, "residency_ns", true, PS_PER_NS, 0, 0,
				     MACHINE_MAX_LATENCY_PS, &st->residency_ps,
				     err))
			return -1;
		if (!name[0] || strlen(name) >= sizeof(st->name)) {
			scenario_error(err, scenario_get(e, "name"),
				       "expected a name of 1 to %zu characters",
				       sizeof(st->name) - 1);
			return -1;
		}
		memcpy(st->name, name, strlen(name) + 1);
		if (i && (st->exit_ps < st[-1].exit_ps ||
			  st->residency_ps < st[-1].residency_ps)) {
			scenario_error(
				err, e,
				"idle states go shallowest first: exit_ns and residency_ns may not fall");
			return -1;
		}
	}
	m->nr_idle_states = (unsigned int)scenario_len(list);
	return 0;
}

static int load_prefetch(struct machine *m, const struct scenario_node *entry,
			 struct sim_error *err)
{
	if (expect_entry(entry, "enabled", err))
		return -1;
	if (load_source(entry, prefetch_keys, ARRAY_SIZE(prefetch_keys), err))
		return -1;
	return scenario_bool(entry, "enabled", true, false,
			     &m->adjacent_line_prefetch, err);
}

/* load_read_service() - {policy: fifo | join | shared_first, source}. */
static int load_read_service(struct machine *m,
			     const struct scenario_node *entry,
			     struct sim_error *err)
{
	unsigned int v;

	if (expect_entry(entry, "policy", err))
		return -1;
	if (load_source(entry, read_service_keys, ARRAY_SIZE(read_service_keys),
			err))
		return -1;
	if (scenario_enum(entry, "policy", true, COH_READ_FIFO,
			  read_service_names, ARRAY_SIZE(read_service_names),
			  &v, err))
		return -1;
	m->read_service = (enum coh_read_service)v;
	return 0;
}

/* load_rob() - {uops: 0..1024, source}: the reorder buffer's size. */
static int load_rob(struct machine *m, const struct scenario_node *entry,
		    struct sim_error *err)
{
	uint64_t v;

	if (expect_entry(entry, "uops", err))
		return -1;
	if (load_source(entry, rob_keys, ARRAY_SIZE(rob_keys), err))
		return -1;
	if (scenario_u64(entry, "uops", true, 0, 0, 1024, &v, err))
		return -1;
	m->rob_uops = (unsigned int)v;
	return 0;
}

/*
 * load_count() - {count: 0..@max, source} into @v: how many of a core's
 * resources there are (fill buffers, page walkers).
 */
static int load_count(const struct scenario_node *entry, uint64_t max,
		      unsigned int *v, struct sim_error *err)
{
	uint64_t n;

	if (expect_entry(entry, "count", err))
		return -1;
	if (load_source(entry, count_keys, ARRAY_SIZE(count_keys), err))
		return -1;
	if (scenario_u64(entry, "count", true, 0, 0, max, &n, err))
		return -1;
	*v = (unsigned int)n;
	return 0;
}

static int load_fill_buffers(struct machine *m,
			     const struct scenario_node *entry,
			     struct sim_error *err)
{
	return load_count(entry, MACHINE_MAX_FILL_BUFFERS, &m->fill_buffers,
			  err);
}

static int load_page_walkers(struct machine *m,
			     const struct scenario_node *entry,
			     struct sim_error *err)
{
	return load_count(entry, MACHINE_MAX_PAGE_WALKERS, &m->page_walkers,
			  err);
}

static int load_hold(const struct scenario_node *map,
		     const struct scenario_key *key, void *base,
		     const void *ctx, struct sim_error *err)
{
	const struct scenario_node *entry = scenario_get(map, key->name);
	struct machine *m = base;

	(void)ctx;
	if (!entry && m->handoff == COH_HANDOFF_HOLD) {
		missing_key(err, map, "hold", "handoff 'hold' needs a window");
		return -1;
	}
	return entry ? load_latency(entry, 0, &m->hold_ps, err) : 0;
}

/* An optional {VALUE, source} entry of `coherence:`, read by @load. */
#define COH_ENTRY(fn, load)                                       \
	static int fn(const struct scenario_node *map,            \
		      const struct scenario_key *key, void *base, \
		      const void *ctx, struct sim_error *err)     \
	{                                                         \
		const struct scenario_node *entry =               \
			scenario_get(map, key->name);             \
                                                                  \
		(void)ctx;                                        \
		return entry ? load(base, entry, err) : 0;        \
	}
COH_ENTRY(coh_occupancy, load_occupancy)
COH_ENTRY(coh_prefetch, load_prefetch)
COH_ENTRY(coh_service_cv, load_service_cv)
COH_ENTRY(coh_read_service, load_read_service)
COH_ENTRY(coh_rob, load_rob)
COH_ENTRY(coh_fill_buffers, load_fill_buffers)
COH_ENTRY(coh_page_walkers, load_page_walkers)

/*
 * The optional `coherence:` map, read in this order. Defaults: strict
 * hand-off, full occupancy, no adjacent-line prefetch, every hand-off of
 * a class the same. `hold` is required when handoff is hold (a zero
 * window would silently mean strict).
 */
static const struct scenario_key coherence_keys[] = {
	{
		.name = "handoff",
		.type = SCENARIO_KEY_ENUM,
		SCENARIO_KEY_MEMBER(struct machine, handoff),
		SCENARIO_KEY_NAMES(handoff_names),
		.def = COH_HANDOFF_STRICT,
		.doc = "strict (a queued request is served between two accesses of the same CPU) or hold (the owner keeps the line for the hold window)",
	},
	{
		.name = "hold",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "{ns, source}",
		.unit_ps = PS_PER_NS,
		.min = 0,
		.max = MACHINE_MAX_LATENCY_PS,
		.def_doc = "required with handoff: hold",
		.parse = load_hold,
		.doc = "The window a CPU keeps a line it just got",
	},
	{
		.name = "occupancy",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "{fraction, source}",
		.def_doc = "1",
		.parse = coh_occupancy,
		.doc = "How much of a transfer occupies the line, 0 to 1",
	},
	{
		.name = "adjacent_line_prefetch",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "{enabled, source}",
		.def_doc = "false",
		.parse = coh_prefetch,
		.doc = "The L2 spatial (adjacent-line) prefetcher: a demand miss requests the other line of its 128-byte pair, dropped when that line is busy or queued on",
	},
	{
		.name = "service_cv",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "{cv, source}",
		.def_doc = "0",
		.parse = coh_service_cv,
		.doc = "The coefficient of variation of a hand-off's time, 0 to 1",
	},
	{
		.name = "read_service",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "{policy, source}",
		.def_doc = "fifo",
		.parse = coh_read_service,
		.doc = "How a line with RMWs queued serves loads: fifo (in arrival order), join (every queued load joins a load's M->S downgrade) or shared_first (join, and loads arriving while the line is Shared are served ahead of queued RFOs)",
	},
	{
		.name = "rob",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "{uops, source}",
		.def_doc = "0",
		.parse = coh_rob,
		.doc = "The reorder buffer in micro-ops, 0 to 1024: a dependent load that misses stalls the CPU only after that much following work (at the insn latency each); 0: at once",
	},
	{
		.name = "fill_buffers",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "{count, source}",
		.def_doc = "0",
		.parse = coh_fill_buffers,
		.doc = "The core's L1D line fill buffers, 0 to 32: at most that many cold misses (a read of memory no CPU holds) in flight; 0: bounded only by the posted accesses",
	},
	{
		.name = "page_walkers",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "{count, source}",
		.def_doc = "0",
		.parse = coh_page_walkers,
		.doc = "The core's page walkers, 0 to 8: at most that many translation misses (page_walk) in flight; 0: no bound",
	},
};

static int load_coherence(struct machine *m, const struct scenario_node *map,
			  struct sim_error *err)
{
	const char *names[ARRAY_SIZE(coherence_keys)];

	m->handoff = COH_HANDOFF_STRICT;
	m->hold_ps = 0;
	m->occupancy_1024 = 1024;
	m->adjacent_line_prefetch = false;
	m->read_service = COH_READ_FIFO;
	m->rob_uops = 0;
	m->fill_buffers = 0;
	m->page_walkers = 0;
	if (!map)
		return 0;
	scenario_key_names(coherence_keys, ARRAY_SIZE(names), names, 0,
			   ARRAY_SIZE(names));
	if (scenario_check_keys(map, names, ARRAY_SIZE(names), err))
		return -1;
	return scenario_keys_load(map, coherence_keys,
				  ARRAY_SIZE(coherence_keys), m, NULL, err);
}

/* @v scaled by @pair / @unit, rounded to the nearest ps. */
static uint64_t scale_ps(uint64_t v, uint64_t pair, uint64_t unit)
{
	/* each at most MACHINE_MAX_LATENCY_PS (1e9): the product fits */
	return unit ? (v * pair + unit / 2) / unit : v;
}

/**
 * machine_socket_pairs() - fill the per-pair tables of @m from its
 * classes: without a socket_distances matrix every pair is xfer_socket;
 * the home split and the upgrade of a pair are the class's at the pair's
 * ratio to xfer_socket.
 * @m: a loaded machine whose xfer_ps[], upgrade_ps[] or matrix changed.
 */
void machine_socket_pairs(struct machine *m)
{
	uint64_t xs = m->xfer_ps[COH_DIST_SOCKET];
	unsigned int i, j, d;

	for (i = 0; i < m->sockets; i++)
		for (j = 0; j < m->sockets; j++) {
			uint64_t pair;

			if (!m->socket_matrix)
				m->socket_xfer_ps[i][j] = i == j ? 0 : xs;
			pair = m->socket_xfer_ps[i][j];

			m->socket_remote_home_ps[i][j] = scale_ps(
				m->xfer_socket_remote_home_ps, pair, xs);
			m->socket_upgrade_ps[i][j] = scale_ps(
				m->upgrade_ps[COH_DIST_SOCKET], pair, xs);
			m->socket_memory_ps[i][j] =
				i == j ?
					m->memory_ps :
					scale_ps(m->memory_remote_ps, pair, xs);
			for (d = 0; d < NR_COH_DIST; d++) {
				bool across = d == COH_DIST_SOCKET;

				m->xfer_pair_ps[i][j][d][0] =
					across ? pair : m->xfer_ps[d];
				m->xfer_pair_ps[i][j][d][1] =
					across ?
						m->socket_remote_home_ps[i][j] :
						m->xfer_ps[d];
			}
		}
}

/* @v x (1 + @ppm / 1e6), rounded to the nearest ps, at least 1 if @v was. */
static uint64_t nudge_ps(uint64_t v, int64_t ppm)
{
	double x = (double)v * (1.0 + (double)ppm / 1e6) + 0.5;
	uint64_t r = x < 1.0 ? 0 : (uint64_t)x;

	return v && !r ? 1 : r;
}

/**
 * machine_nudge() - every latency of @m (the `latencies:` table, the
 * socket matrix and the hold window) scaled by 1 + @ppm / 1e6, for
 * `--sensitivity`: how much a prediction hangs on the profile's numbers.
 * @m: a loaded machine
 * @ppm: the change in parts per million, -999999 to 1e6
 */
void machine_nudge(struct machine *m, int64_t ppm)
{
	uint64_t *each[] = {
		&m->l1_hit_ps,
		&m->llc_hit_ps,
		&m->memory_ps,
		&m->memory_remote_ps,
		&m->page_walk_ps,
		&m->rmw_local_ps,
		&m->xfer_socket_remote_home_ps,
		&m->inval_per_sharer_ps,
		&m->conflict_local_ps,
		&m->conflict_remote_ps,
		&m->xfer_per_waiter_ps,
		&m->irq_save_restore_ps,
		&m->context_switch_ps,
		&m->migration_ps,
		&m->insn_ps,
		&m->hold_ps,
	};
	unsigned int i, j;

	SIM_BUG_ON(ppm <= -1000000 || ppm > 1000000);
	for (i = 0; i < ARRAY_SIZE(each); i++)
		*each[i] = nudge_ps(*each[i], ppm);
	for (i = 0; i < NR_COH_DIST; i++) {
		m->xfer_ps[i] = nudge_ps(m->xfer_ps[i], ppm);
		m->upgrade_ps[i] = nudge_ps(m->upgrade_ps[i], ppm);
	}
	for (i = 0; m->socket_matrix && i < m->sockets; i++)
		for (j = 0; j < m->sockets; j++)
			m->socket_xfer_ps[i][j] =
				nudge_ps(m->socket_xfer_ps[i][j], ppm);
	machine_socket_pairs(m);
}

/*
 * load_distance_row() - row @i of socket_distances, {ns: [..], source}:
 * one number a socket, 0 on the diagonal, a transfer elsewhere.
 */
static int load_distance_row(struct machine *m, unsigned int i,
			     const struct scenario_node *row,
			     struct sim_error *err)
{
	const struct scenario_node *ns;
	unsigned int j;

	if (expect_entry(row, "ns", err) ||
	    load_source(row, distance_row_keys, ARRAY_SIZE(distance_row_keys),
			err))
		return -1;
	ns = scenario_get(row, "ns");
	if (!ns) {
		missing_key(err, row, "ns", NULL);
		return -1;
	}
	if (scenario_kind(ns) != SCENARIO_SEQ ||
	    scenario_len(ns) != m->sockets) {
		scenario_error(err, ns,
			       "expected a list of %u numbers, one a socket",
			       m->sockets);
		return -1;
	}
	for (j = 0; j < m->sockets; j++) {
		const struct scenario_node *v = scenario_item(ns, j);

		if (scenario_node_time_ps(v, PS_PER_NS, i == j ? 0 : 1,
					  MACHINE_MAX_LATENCY_PS,
					  &m->socket_xfer_ps[i][j], err))
			return -1;
		if (i == j && m->socket_xfer_ps[i][j]) {
			scenario_error(
				err, v,
				"expected 0: socket %u with itself is priced by the classes within a socket",
				i);
			return -1;
		}
	}
	return 0;
}

/*
 * load_socket_distances() - the optional socket_distances matrix (see the
 * header), after the latencies: without it every pair is xfer_socket.
 */
static int load_socket_distances(struct machine *m,
				 const struct scenario_node *node,
				 struct sim_error *err)
{
	const struct scenario_node *rows =
		scenario_get(node, "socket_distances");
	unsigned int i;

	if (rows) {
		if (scenario_kind(rows) != SCENARIO_SEQ ||
		    scenario_len(rows) != m->sockets) {
			scenario_error(
				err, rows,
				"expected a list of %u rows, one a socket: {ns: [...], source}",
				m->sockets);
			return -1;
		}
		for (i = 0; i < m->sockets; i++)
			if (load_distance_row(m, i, scenario_item(rows, i),
					      err))
				return -1;
		m->socket_matrix = true;
	}
	machine_socket_pairs(m);
	return 0;
}

/* cores_per_llc: by default, and at most, the socket's cores. */
static uint64_t cores_per_socket(const void *base, const void *ctx)
{
	const struct machine *m = base;

	(void)ctx;
	return m->cores_per_socket;
}

/* A profile's keys, in the order they are read. */
static const struct scenario_key machine_keys[] = {
	{
		.name = "name",
		.type = SCENARIO_KEY_STRING,
		.required = true,
		.size = sizeof(const char *), /* read by load_name() */
		.doc = "The profile's name, 1 to 63 characters",
	},
	{
		.name = "description",
		.type = SCENARIO_KEY_STRING,
		.doc = "Free text for people; checked to be a string, not kept",
	},
	{
		.name = "sockets",
		.type = SCENARIO_KEY_U64,
		.required = true,
		SCENARIO_KEY_MEMBER(struct machine, sockets),
		.min = 1,
		.max = MACHINE_MAX_SOCKETS,
		.doc = "Sockets (packages)",
	},
	{
		.name = "cores_per_socket",
		.type = SCENARIO_KEY_U64,
		.required = true,
		SCENARIO_KEY_MEMBER(struct machine, cores_per_socket),
		.min = 1,
		.max = MACHINE_MAX_CORES_PER_SOCKET,
		.doc = "Cores of each socket",
	},
	{
		.name = "threads_per_core",
		.type = SCENARIO_KEY_U64,
		.required = true,
		SCENARIO_KEY_MEMBER(struct machine, threads_per_core),
		.min = 1,
		.max = MACHINE_MAX_THREADS_PER_CORE,
		.doc = "Hardware threads (SMT siblings) of each core",
	},
	{
		.name = "cores_per_llc",
		.type = SCENARIO_KEY_U64,
		SCENARIO_KEY_MEMBER(struct machine, cores_per_llc),
		.min = 1,
		.max_fn = cores_per_socket,
		.max_doc = "cores_per_socket",
		.def_fn = cores_per_socket,
		.def_doc = "cores_per_socket",
		.doc = "Cores sharing one LLC (a CCX); it must divide cores_per_socket",
	},
	{
		.name = "numbering",
		.type = SCENARIO_KEY_ENUM,
		SCENARIO_KEY_MEMBER(struct machine, numbering),
		SCENARIO_KEY_NAMES(numbering_names),
		.def = MACHINE_THREADS_LAST,
		.doc = "Linux's CPU numbering: threads_last (CPU n and n + sockets x cores are siblings) or threads_adjacent (siblings are numbered in a row)",
	},
	{
		.name = "latencies",
		.type = SCENARIO_KEY_CUSTOM,
		.required = true,
		.form = "map",
		.doc = "The latency table, {CLASS: {ns, source}, ...}: `memcgsim help keys latencies`",
	},
	{
		.name = "coherence",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "map",
		.doc = "The hand-off law's settings: `memcgsim help keys coherence`",
	},
	{
		.name = "socket_distances",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "[{ns: [NUMBER, ...], source}, ...]",
		.def_doc = "xfer_socket for every pair",
		.doc = "The line transfer between each pair of sockets, ns: row i the holder's socket, column j the requester's, the diagonal 0 (as numactl -H prints the SLIT, in ns)",
	},
	{
		.name = "smt_slowdown",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "{slowdown, source}",
		.def_doc = "1 (siblings do not share execution)",
		.doc = "How much longer a thread's own work (work_ns, instructions; not its memory accesses) takes while its SMT sibling runs, 1 to 2",
	},
	{
		.name = "idle_states",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "[{name, exit_ns, residency_ns, source}, ...]",
		.def_doc = "none: a wake-up is free",
		.doc = "The processor's idle states, shallowest first (intel_idle's table for the model): the exit latency a wake-up pays and the target residency the idle governor asks of the expected idle span",
	},
	{
		.name = "ipi_ns",
		.type = SCENARIO_KEY_CUSTOM,
		.form = "{ns, source}",
		.def_doc = "0",
		.doc = "A wake-up IPI to an idle CPU, sent and taken, ns (with idle_states)",
	},
};

enum { MK_NAME, MK_DESCRIPTION, MK_SOCKETS, MK_LATENCIES = 7 };

static int load_name(struct machine *m, const struct scenario_node *node,
		     struct sim_error *err)
{
	const char *name = NULL;

	if (scenario_key_get(node, &machine_keys[MK_NAME], &name, err))
		return -1;
	if (!name[0] || strlen(name) >= sizeof(m->name)) {
		scenario_error(err, scenario_get(node, "name"),
			       "expected a name of 1 to %zu characters",
			       sizeof(m->name) - 1);
		return -1;
	}
	snprintf(m->name, sizeof(m->name), "%s", name);
	/* Free text for people; checked to be a string, not kept. */
	return scenario_key_load(node, &machine_keys[MK_DESCRIPTION], m, NULL,
				 err);
}

static int load_topology(struct machine *m, const struct scenario_node *node,
			 struct sim_error *err)
{
	unsigned long long sockets, cores, threads;

	if (scenario_keys_load(node, &machine_keys[MK_SOCKETS],
			       MK_LATENCIES - MK_SOCKETS, m, NULL, err))
		return -1;
	sockets = m->sockets;
	cores = m->cores_per_socket;
	threads = m->threads_per_core;
	if (cores % m->cores_per_llc) {
		scenario_error(err, scenario_get(node, "cores_per_llc"),
			       "%u does not divide cores_per_socket (%llu)",
			       m->cores_per_llc, cores);
		return -1;
	}
	if (sockets * cores * threads > MACHINE_MAX_CPUS) {
		scenario_error(
			err, node,
			"%llu sockets x %llu cores x %llu threads is %llu CPUs; at most %u are supported",
			sockets, cores, threads, sockets * cores * threads,
			MACHINE_MAX_CPUS);
		return -1;
	}
	m->nr_cpus = m->sockets * m->cores_per_socket * m->threads_per_core;
	return 0;
}

/*
 * build_cpus() - place every Linux CPU number, as machine.h draws it.
 * threads_last: CPU n is thread n / (S*C) of global core n % (S*C).
 * threads_adjacent: CPU n is thread n % T of global core n / T.
 */
static int build_cpus(struct machine *m)
{
	unsigned int nr_cores = m->sockets * m->cores_per_socket;
	unsigned int cpu;

	m->cpus = calloc(m->nr_cpus, sizeof(*m->cpus));
	if (!m->cpus)
		return -1;
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct machine_cpu *c = &m->cpus[cpu];

		if (m->numbering == MACHINE_THREADS_LAST) {
			c->core = cpu % nr_cores;
			c->thread = cpu / nr_cores;
		} else {
			c->core = cpu / m->threads_per_core;
			c->thread = cpu % m->threads_per_core;
		}
		c->socket = c->core / m->cores_per_socket;
		c->llc = c->core / m->cores_per_llc;
	}
	return 0;
}

static const struct scenario_key_table key_tables[] = {
	{ "machine", machine_keys, ARRAY_SIZE(machine_keys) },
	{ "coherence", coherence_keys, ARRAY_SIZE(coherence_keys) },
	{ "latencies", latency_keys, NR_LAT },
};

unsigned int machine_key_tables(const struct scenario_key_table **tables)
{
	*tables = key_tables;
	return ARRAY_SIZE(key_tables);
}

/**
 * machine_load() - fill a machine from a profile map.
 * @m: caller-allocated; overwritten. On failure it is left zeroed.
 * @node: the machine map (borrowed; @m keeps no pointer into it).
 * @err: filled on failure, with the file, line and column of the offender.
 *
 * Checks every key at every level, the ranges of the topology, that
 * cores_per_llc divides cores_per_socket, and that every latency the
 * topology can use is present with a non-empty source.
 *
 * Context: scenario loading, before the simulation starts.
 * Return: 0, or -1 with @err set. Release @m with machine_destroy().
 */
int machine_load(struct machine *m, const struct scenario_node *node,
		 struct sim_error *err)
{
	const char *names[ARRAY_SIZE(machine_keys)];
	const struct scenario_node *lat;

	memset(m, 0, sizeof(*m));
	scenario_key_names(machine_keys, ARRAY_SIZE(names), names, 0,
			   ARRAY_SIZE(names));
	if (scenario_check_keys(node, names, ARRAY_SIZE(names), err))
		return -1;
	if (load_name(m, node, err) || load_topology(m, node, err))
		goto out_clear;

	lat = scenario_get(node, "latencies");
	if (!lat) {
		missing_key(err, node, "latencies", NULL);
		goto out_clear;
	}
	if (load_latencies(m, lat, err) ||
	    load_socket_distances(m, node, err) ||
	    load_coherence(m, scenario_get(node, "coherence"), err))
		goto out_clear;
	m->smt_slowdown_1024 = 1024;
	if (scenario_get(node, "smt_slowdown") &&
	    load_smt_slowdown(m, scenario_get(node, "smt_slowdown"), err))
		goto out_clear;
	if (scenario_get(node, "idle_states") &&
	    load_idle_states(m, scenario_get(node, "idle_states"), err))
		goto out_clear;
	if (scenario_get(node, "ipi_ns") &&
	    load_latency(scenario_get(node, "ipi_ns"), 0, &m->ipi_ps, err))
		goto out_clear;

	if (build_cpus(m)) {
		scenario_error(err, node, "out of memory for %u CPUs",
			       m->nr_cpus);
		goto out_clear;
	}
	return 0;

out_clear:
	memset(m, 0, sizeof(*m));
	return -1;
}

/**
 * machine_load_file() - load the machine profile at @path.
 * @m: caller-allocated; see machine_load().
 * @path: a YAML file whose root map is the machine map.
 * @err: filled on failure.
 *
 * The parsed tree is freed before returning; @m does not point into it.
 *
 * Return: 0, or -1 with @err set.
 */
int machine_load_file(struct machine *m, const char *path,
		      struct sim_error *err)
{
	struct scenario_node *root;
	int ret;

	memset(m, 0, sizeof(*m));
	root = scenario_load_named(path, "machine profile", err);
	if (!root)
		return -1;
	ret = machine_load(m, root, err);
	scenario_free(root);
	return ret;
}

/**
 * machine_destroy() - release what machine_load() allocated.
 * @m: a loaded or zeroed machine; left zeroed (safe to destroy twice).
 */
void machine_destroy(struct machine *m)
{
	free(m->cpus);
	memset(m, 0, sizeof(*m));
}
