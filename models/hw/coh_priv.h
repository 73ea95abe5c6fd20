/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/hw/coh_priv.h - what the files of the coherence model share and
 * nothing else sees: struct coh, the line hash, the helpers of a hand-off
 * that coh_serve.h and coh_share.c both use, and the trace's entry points
 * for the hot path (coh_trace.c). Users include models/hw/cache.h.
 *
 * Layering: models/ module; uses sim/ only through its public headers.
 */
#ifndef MODELS_HW_COH_PRIV_H
#define MODELS_HW_COH_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/hw/cache.h"

struct coh_trace_line;

/*
 * The hot path (coh_access_issue(), line_serve()) is split into small
 * helpers for the reader; these are inlined into it whatever the
 * compiler's size heuristics say, since a call costs more than most of
 * them (doc/speed.md).
 */
#if defined(__GNUC__) || defined(__clang__)
#define COH_INLINE inline __attribute__((always_inline))
#define COH_COLD __attribute__((noinline, cold))
#define coh_unlikely(x) __builtin_expect(!!(x), 0)
#else
#define COH_INLINE inline
#define COH_COLD
#define coh_unlikely(x) (x)
#endif

/*
 * coh_reload() - the compiler's barrier (Linux's barrier()): what is in
 * memory is read again after it. No effect on results or on the host's
 * memory order; for a hot path whose loads GCC would keep in registers
 * from its start to its end, where they cost registers and spills (a
 * line's service: line_serve_plain()).
 */
#if defined(__GNUC__) || defined(__clang__)
#define coh_reload() __asm__ __volatile__("" : : : "memory")
#else
#define coh_reload() ((void)0)
#endif

/*
 * The trace's entry points, and the cold helpers other files keep for
 * the hot path, are off it: the compiler lays the calls out of line and
 * keeps registers for the rest (doc/speed.md).
 */
#if defined(__GNUC__) || defined(__clang__)
#define COH_COLD_DECL __attribute__((cold))
#else
#define COH_COLD_DECL
#endif

/*
 * the least entries of a line's log, after its xfer_to[] (xfer_log_cap():
 * one per CPU, or this many)
 */
#define COH_XFER_LOG_MIN 32
/*
 * An entry of a line's log, 32 bits: CPU (e & COH_LOG_CPU), and with
 * COH_LOG_TOUCH its access of field slot (e >> COH_LOG_SLOT_SHIFT) & 15,
 * with COH_LOG_XFER a transfer to it, or both: a locked RMW's miss counts
 * its access, then its transfer (xfer_to_count()), one entry. A transfer
 * has its distance (e >> COH_LOG_DIST_SHIFT) for the line to count from
 * the log, or COH_DIST_SELF where the line counted it; an access, 1 +
 * its slot (e >> COH_LOG_MISS_SHIFT) if it is a locked RMW that missed,
 * which its field counts from the log (field_cpu_count()), else 0. The
 * flush counts both by one index, e >> COH_LOG_DIST_SHIFT. 32 bits: an
 * entry of 16 for the distance after the transfer's doubled the entries
 * of an RMW served at once (`make bench-scale-sim`, 1024 x 1024: 512 ->
 * 547 instructions an event, the log's flush), 32 cost none.
 */
#define COH_LOG_SLOT_SHIFT 10
#define COH_LOG_CPU ((1u << COH_LOG_SLOT_SHIFT) - 1)
#define COH_LOG_XFER (1u << 14)
#define COH_LOG_TOUCH (1u << 15)
#define COH_LOG_DIST_SHIFT 16
#define COH_LOG_DIST_BITS 3
#define COH_LOG_MISS_SHIFT (COH_LOG_DIST_SHIFT + COH_LOG_DIST_BITS)
_Static_assert(NR_COH_DIST < 1u << COH_LOG_DIST_BITS &&
		       COH_LINE_FIELDS < 1u << (32 - COH_LOG_MISS_SHIFT),
	       "a line's log entry: a distance and a field slot more");
_Static_assert(MACHINE_MAX_CPUS <= COH_LOG_CPU + 1 &&
		       COH_LINE_FIELDS << COH_LOG_SLOT_SHIFT <= COH_LOG_XFER,
	       "a line's log entry: a field slot and a CPU in 14 bits");
/* the lines' xfer_to[] past which they are (a host core's L2) */
#define COH_LOG_BYTES (1u << 20)

/* a CPU's fill buffers and page walkers, in struct coh's cold_free */
#define COH_COLD_SLOTS (MACHINE_MAX_FILL_BUFFERS + MACHINE_MAX_PAGE_WALKERS)

/* A line's RMWs announced, in run order (struct coh's ann[]). */
struct coh_ann {
	struct coh_cpu *first, *last;
};

/*
 * The end of every line's list of RMWs announced: the last one's ann_next,
 * and first when none is. Its ann_at is SIM_TIME_MAX, later than every
 * arrival, so that ann_admit() stops at it without testing the line's
 * count first; nothing writes it.
 */
extern struct coh_cpu coh__ann_end;

struct coh {
	const struct machine *m;
	struct sim_engine *e;
	unsigned int nr_cpus;
	unsigned int sharer_words; /* 64-bit words per sharer bitmap */
	/*
	 * m->handoff == COH_HANDOFF_HOLD, and its window (0 otherwise),
	 * read once: line_ready_at() asks at every hand-off
	 */
	bool hold;
	sim_time_t hold_ps;
	/* m->read_service, read once: how a contended line serves loads */
	enum coh_read_service read_service;
	/* the reorder buffer's window: m->rob_uops x m->insn_ps; 0: none */
	sim_time_t rob_ps;
	/*
	 * A plain machine (@machine_plain: no hold rule, no drawn service
	 * times, occupancy 1, every transfer between two CPUs at least 1 ps)
	 * and no trace: serve_owned()'s straight line may serve a store or
	 * RMW of a line Modified elsewhere (coh_plain_update())
	 */
	bool machine_plain, plain;
	/*
	 * [nr_cpus] each CPU's machine_cpu_key(), so that the distance class
	 * of two CPUs is an XOR and three tests (machine_key_dist())
	 */
	uint32_t *cpu_key;
	/*
	 * m->conflict_remote_ps and m->conflict_local_ps, read once, by
	 * whether the line is homed at the requester's socket: one indexed
	 * load (conflict_ps())
	 */
	sim_time_t conflict_ps[2];
	/*
	 * [nr_cpus][COH_DIST_DIE][sharer_words]: for each CPU and d from
	 * COH_DIST_SMT to COH_DIST_DIE, the bitmap of the other CPUs within
	 * distance d of it (machine_dist()); sharer_dist()'s sets
	 */
	uint64_t *within;
	struct coh_cpu *cpus;
	struct coh_line **lines; /* in creation order */
	unsigned int nr_lines, cap_lines;
	/* the chunks lines are carved from (line_alloc()) */
	char *chunk; /* the free end of the latest one */
	size_t chunk_left;
	void **chunks;
	unsigned int nr_chunks, cap_chunks;
	struct coh_line **hash; /* open addressing by line address */
	unsigned int hash_cap; /* a power of two */
	struct coh_object **objs;
	unsigned int nr_objs, cap_objs;
	uint64_t next_addr;
	/* [nr_cpus][2]: the next free byte of each CPU's per-CPU unit,
	 * static and dynamic (coh_object_place()); NULL until the first */
	uint64_t *pcpu_next;
	/*
	 * [nr_cpus][COH_COLD_SLOTS]: when each of a CPU's fill buffers and
	 * then its page walkers is next free, for cold reads (read_cold());
	 * NULL until the first
	 */
	sim_time_t *cold_free;
	struct sim_trace *trace;
	int trace_pid_cpus, trace_pid_lines; /* the run's two processes */
	struct coh_trace_line *trace_lines; /* [cap_trace_lines], by index */
	unsigned int cap_trace_lines;
	/* SIM: memory accounting, so that a huge scenario is an error. */
	uint64_t mem, mem_limit; /* bytes of lines and objects; 0: none */
	int failed; /* 0, ENOMEM or EFBIG: see coh_failed() */
	struct coh_line *spare; /* handed out once failed */
	struct coh_object *spare_obj;
	unsigned int spare_obj_fields;
	void *reserve; /* freed at the first failed allocation */
	/*
	 * Resuming a CPU from the line that served it (coh_cpu.resume_inline):
	 * inline_cpu says who serve() may hand a completed access to (a CPU
	 * number in that CPU's own access, INLINE_NONE elsewhere, and once
	 * it has handed one); inline_cc is the one it did, its clock set to
	 * the completion. A line's service event keeps both in locals
	 * (serve_settle()'s @inl): anybody, once.
	 */
	int inline_cpu;
	struct coh_cpu *inline_cc;
	/*
	 * [cap_ann] by line index: the first and the last CPU of the line's
	 * RMWs announced and not yet arrived, in run order
	 * (coh_rmw_announce()), ended by &coh__ann_end: first that, and
	 * last stale, when none is; allocated at the first announcement
	 */
	struct coh_ann *ann;
	unsigned int cap_ann;
	/*
	 * Nothing is announced (coh_rmw_announce() says why): the hold rule,
	 * a trace, the shortcuts off. One test for the three (a line the
	 * spatial prefetcher couples says so itself: coh_line.pair_prefetch).
	 */
	bool no_ann;
	/*
	 * Lines below @ann_room take an announced RMW without growing c->ann[]
	 * first: @cap_ann, or 0 with @no_ann (ann_room_update()), so that
	 * coh_rmw_announce() tests both in one.
	 */
	unsigned int ann_room;
	/*
	 * The exact shortcuts (cache.c's theory of operation) may be taken:
	 * @shortcuts_on unless coh_set_shortcuts() turned them off, and
	 * @shortcuts while no trace records the queues too
	 * (coh_plain_update()). Each shortcut gives the same hand-offs at
	 * the same times as the general path; tests/run-determinism.sh
	 * reruns every golden with them off and compares the bytes.
	 */
	bool shortcuts_on, shortcuts;
	/*
	 * Statistics counted later (doc/speed.md), once @log_stats: a
	 * transfer to a CPU (xfer_to_count()), and an access of a CPU to a
	 * field (field_cpu_count(): the field's bitmap of the CPUs that
	 * accessed it), each an entry in its line's log, after its xfer_to[]
	 * (xfer_log_cap() of them), counted when it is full into that line's
	 * counters and its fields' bitmaps alone, which stay in the host's
	 * cache while it does. The counters are 4 MB at 1024 CPUs x 1024
	 * lines, and the bitmaps 128 bytes a field: counting them at each
	 * access was 1.4 misses of the host's L2 an atomic there, each waited
	 * for; one log for all lines missed the cache at nearly every count
	 * of its flush (1 LL miss an event of cachegrind's 2.3 at 1024 x
	 * 1024), and so did one for the fields' CPUs (0.2 of 1.5).
	 * coh_stats_flush() counts every log; it runs before anybody reads a
	 * line (coh_settle(), coh_lines_sorted()). An entry names its field by
	 * slot, which does not move when the line's fields grow. Logging costs
	 * instructions (25 an atomic at 72 CPUs, 4%, when it logged the
	 * transfers alone; about 23 an event more at 1024 x 1024 since it
	 * logs the accesses too), which do not pay where the counters stay in
	 * the host's cache: it starts when the lines' xfer_to[] (@xfer_bytes)
	 * reach @log_bytes (COH_LOG_BYTES; coh_set_log_bytes()). Either way
	 * the counts are the same.
	 */
	bool log_stats;
	size_t xfer_bytes, log_bytes;
	/* the lines with a log, for coh_stats_flush() */
	struct coh_line **log_lines;
	unsigned int nr_log_lines, cap_log_lines;
};

/*
 * What a locked RMW's miss and its hand-off write in struct coh_line, in
 * its first three host lines (line_alloc() aligns it).
 */
_Static_assert(offsetof(struct coh_line, wait_ps) + sizeof(sim_time_t) <=
		       3 * 64,
	       "struct coh_line: a hand-off writes a fourth host line");

COH_COLD_DECL void coh_stats_flush(struct coh *c);
COH_COLD_DECL void coh__xfer_log_alloc(struct coh *c, struct coh_line *l);
COH_COLD_DECL void coh__xfer_log_flush(struct coh *c, struct coh_line *l);
COH_COLD_DECL void coh__xfer_to_alloc(struct coh *c, struct coh_line *l);

/* The entries of a line's log (struct coh: log_stats). */
static inline unsigned int xfer_log_cap(const struct coh *c)
{
	return c->nr_cpus > COH_XFER_LOG_MIN ? c->nr_cpus : COH_XFER_LOG_MIN;
}

/*
 * @l's log, after its xfer_to[]: xfer_log_cap() entries, filled from the
 * end, and one more past it, 0 (no access for a transfer to join)
 */
static inline uint32_t *xfer_log(const struct coh *c, const struct coh_line *l)
{
	return l->xfer_to + c->nr_cpus;
}

/* Log @e in @l's log, which has one (l->xfer_left). */
static inline void line_log(struct coh *c, struct coh_line *l, unsigned int e)
{
	/* filled from its end: the count left is where the next goes */
	unsigned int left = l->xfer_left - 1;

	xfer_log(c, l)[left] = e;
	l->xfer_left = left;
	if (coh_unlikely(!left))
		coh__xfer_log_flush(c, l);
}

/*
 * Count a transfer of @l to @cpu in l->xfer_to[], or logged (struct coh:
 * log_stats) in @l's log, which l->xfer_left entries are left of (0: it
 * has none yet): in the entry of @cpu's access logged last, if that is it
 * (a locked RMW's miss, served at once), else an entry of its own. Which
 * is chosen by a mask, not a branch: a coin toss for the host's branch
 * predictor where some RMWs queue (0.09 mispredictions an event of
 * cachegrind's at 1024 x 1024). The entry of its own is written either
 * way, in the free entry below, which it takes or leaves free.
 *
 * @dist: the transfer's distance, for l->transfers and l->xfer_by_dist[]
 * if @count (a constant at each call), else the caller counts them
 * (serve_any(): a prefetch's transfer is not logged). Logged in its entry,
 * so that a locked RMW served at once writes no third host line of @l's
 * (serve_owned()); counted with the log, up to date after coh_settle().
 */
static inline void xfer_to_count(struct coh *c, struct coh_line *l,
				 unsigned int cpu, enum coh_dist dist,
				 bool count)
{
	uint32_t *log, x = COH_LOG_XFER;
	unsigned int left, join;

	if (coh_unlikely(!l->xfer_to))
		coh__xfer_to_alloc(c, l);
	if (!coh_unlikely(c->log_stats)) {
		l->xfer_to[cpu]++;
		if (count) {
			l->transfers++;
			l->xfer_by_dist[dist]++;
		}
		return;
	}
	if (count)
		x |= (uint32_t)dist << COH_LOG_DIST_SHIFT;
	if (coh_unlikely(!l->xfer_left))
		coh__xfer_log_alloc(c, l);
	log = xfer_log(c, l);
	left = l->xfer_left;
	join = (log[left] & (COH_LOG_TOUCH | COH_LOG_XFER | COH_LOG_CPU)) ==
	       (COH_LOG_TOUCH | cpu);
	log[left - 1] = x | cpu;
	log[left] |= join * x;
	left -= !join;
	l->xfer_left = left;
	if (coh_unlikely(!left))
		coh__xfer_log_flush(c, l);
}

/*
 * Count CPU @cpu among those that accessed field @slot of @l: in the field's
 * bitmap, or logged (struct coh: log_stats) in @l's log once it has one.
 * With @rmw_miss (a constant at each call) the access is a locked RMW that
 * misses, counted in the field's ops[COH_RMW] and misses with it: logged,
 * an RMW served at once writes no host line of its field's (`make
 * bench-scale-sim`, 1024 x 1024, 512 KiB LL: 3.94 -> 3.39 misses an event).
 */
static inline void field_cpu_count(struct coh *c, struct coh_line *l,
				   unsigned int slot, unsigned int cpu,
				   bool rmw_miss)
{
	if (!coh_unlikely(c->log_stats) || coh_unlikely(!l->xfer_left)) {
		struct coh_field_stat *fs = &l->fields[slot];

		if (rmw_miss) {
			fs->ops[COH_RMW]++;
			fs->misses++;
		}
		fs->cpus[cpu / 64] |= 1ull << cpu % 64;
		return;
	}
	line_log(c, l,
		 COH_LOG_TOUCH | rmw_miss * (slot + 1) << COH_LOG_MISS_SHIFT |
			 slot << COH_LOG_SLOT_SHIFT | cpu);
}

/*
 * The line hash (open addressing by line address), for placing lines
 * (coh_place.c) and finding a neighbour (the adjacent-line prefetch).
 */
static inline unsigned int coh_hash_slot(const struct coh *c, uint64_t addr)
{
	uint64_t h = (addr / COH_LINE_SIZE) * 0x9e3779b97f4a7c15ull;

	return (unsigned int)(h >> 40) & (c->hash_cap - 1);
}

/* The line at @addr (a multiple of 64), or NULL. */
static inline struct coh_line *coh_line_find(const struct coh *c, uint64_t addr)
{
	unsigned int i = coh_hash_slot(c, addr);

	while (c->hash[i]) {
		if (c->hash[i]->addr == addr)
			return c->hash[i];
		i = (i + 1) & (c->hash_cap - 1);
	}
	return NULL;
}

/* ann_room_update() - c->ann_room from c->no_ann and c->cap_ann. */
static inline void ann_room_update(struct coh *c)
{
	c->ann_room = c->no_ann ? 0 : c->cap_ann;
}

/*
 * coh_plain_update() - c->shortcuts, c->plain and c->ann_room from the
 * switch, the machine and the trace, at creation and whenever one of them
 * is set.
 */
static inline void coh_plain_update(struct coh *c)
{
	c->shortcuts = c->shortcuts_on && !c->trace;
	c->plain = c->machine_plain && c->shortcuts;
	ann_room_update(c);
}

/* Whether CPU @cpu holds a copy of @l in the Shared state. */
static inline bool sharer_test(const struct coh_line *l, unsigned int cpu)
{
	return l->sharers[cpu / 64] & (1ull << (cpu % 64));
}

/*
 * xfer() - the idle cost of moving @l from CPU @from to CPU @to, and its
 * distance class in *@dist. Across sockets it is the pair's (the
 * profile's socket_distances, machine.h) and depends on the line's home:
 * xfer_socket when the holder's socket is the home (the request crosses
 * once, the home snoops its own core), xfer_socket_remote_home otherwise
 * (request and data travel through the home on the far side). @from and
 * @to differ (every caller has served @to's own copy before asking).
 */
static COH_INLINE sim_time_t xfer_keys(const struct coh *c,
				       const struct coh_line *l,
				       uint32_t from_key, uint32_t to_key,
				       enum coh_dist *dist)
{
	enum coh_dist d = machine_key_dist(from_key ^ to_key);
	unsigned int fs = from_key >> MACHINE_KEY_SOCKET_SHIFT;
	unsigned int ts = to_key >> MACHINE_KEY_SOCKET_SHIFT;

	*dist = d;
	/*
	 * One load, not a branch (machine_key_dist() says why), nor three
	 * and a select by masks (`make bench-insns INSNS_N=256 INSNS_K=16`:
	 * 635 -> 625 an atomic)
	 */
	return c->m->xfer_pair_ps[fs][ts][d][l->home != (int)fs];
}

/* xfer_keys() of the CPUs themselves */
static COH_INLINE sim_time_t xfer(const struct coh *c, const struct coh_line *l,
				  unsigned int from, unsigned int to,
				  enum coh_dist *dist)
{
	return xfer_keys(c, l, c->cpu_key[from], c->cpu_key[to], dist);
}

/*
 * memory_from() - a cold line homed at socket @home (-1: not yet, the
 * requester's own) served from memory to @cpu: its node's DRAM, another
 * node's across sockets (memory_remote, by the pair).
 */
static COH_INLINE sim_time_t memory_from(const struct coh *c, int home,
					 unsigned int cpu)
{
	const struct machine *m = c->m;

	if (home < 0)
		return m->memory_ps;
	return m->socket_memory_ps[home][m->cpus[cpu].socket];
}

/*
 * hand_off() for a load, and for a store or RMW (@op) of a line that CPUs
 * share: coh_share.c. See hand_off() in coh_serve.h.
 */
sim_time_t coh__hand_off_read(struct coh *c, struct coh_line *l,
			      unsigned int cpu, enum coh_dist *dist);
sim_time_t coh__hand_off_shared(struct coh *c, struct coh_line *l,
				unsigned int cpu, enum coh_op op,
				enum coh_dist *dist);

#define INLINE_NONE (-2)

/*
 * coh_trace_counters() - the line's "queued" (requests waiting, prefetches
 * included) and "sharers" counters, for the trace (c->trace set). Several
 * changes at one time give one event, with the last values.
 */
void coh_trace_counters(struct coh *c, struct coh_line *l) COH_COLD_DECL;

/*
 * coh_trace_serve() - the trace of a hand-off of @r on @l at @now, done at
 * @done, from distance @dist: the line's holder and counters, and the
 * access's slice on its CPU's track (c->trace set). @r by value: its
 * address would escape, and the hot path reload it after every call.
 */
void coh_trace_serve(struct coh *c, struct coh_line *l, struct coh_req r,
		     sim_time_t now, sim_time_t done,
		     enum coh_dist dist) COH_COLD_DECL;

/* For the hot path's cold branches: coh_stats.c, coh_create.c, coh_announce.c. */
void coh__count_caller(struct coh_cpu *cc, struct coh_field_stat *fs,
		       enum coh_op op) COH_COLD_DECL;
sim_time_t coh__service_lat(const struct machine *m, const struct coh_line *l,
			    sim_time_t lat) COH_COLD_DECL;
void coh__ann_grow(struct coh *c, unsigned int index) COH_COLD_DECL;

#endif /* MODELS_HW_COH_PRIV_H */
