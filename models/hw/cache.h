/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/hw/cache.h - cache lines and the coherence model (coh_).
 *
 * Theory of operation
 *
 * Every simulated memory location is a field of an object (struct
 * coh_object) whose layout (struct coh_layout) maps field names to byte
 * offsets; the object's base address maps them to 64-byte lines. Each line
 * (struct coh_line) keeps its coherence state: the CPU that owns it
 * Modified/Exclusive, or the set of CPUs that share it, and when the
 * hand-off it is serving ends.
 *
 * An access by a CPU is one of three kinds: a load (COH_READ), a store
 * (COH_WRITE) or a locked read-modify-write (COH_RMW).
 *
 *  - A hit (the CPU owns the line, or shares it for a load) costs the L1
 *    latency (a local RMW: rmw_local) and does not serialise with other
 *    CPUs: it never waits for the line.
 *  - Anything else needs the line: requests are served one at a time, in
 *    arrival order (the home agent's queue). Serving one is a hand-off,
 *    priced by the hand-off law, whose every parameter a contended
 *    microbenchmark measures (models/hw/coh_law.h fits them; `memcgsim
 *    calibrate` runs the benchmarks):
 *    - the idle transfer from where the line is to the requester, by
 *      distance class (SMT sibling, same LLC, same socket, other socket,
 *      or memory for a line nobody holds). A contended RMW costs the
 *      transfer alone: the published core-to-core figures include the
 *      atomic. Every line has a home socket, that of the first CPU that
 *      touched it (first touch); a transfer across sockets costs
 *      xfer_socket when the home is the holder's socket (the request
 *      crosses once and the home snoops its own core) and
 *      xfer_socket_remote_home otherwise (request and data go through the
 *      home on the far side: MLC's writer- vs reader-homed HITM). Inside
 *      a socket the home plays no part (its snoop filter serves it);
 *    - an upgrade: an RMW or store by a CPU that holds the line Shared
 *      while others do too costs upgrade_llc or upgrade_socket, by the
 *      farthest other sharer (perfbook's load-then-CAS against a blind
 *      CAS), instead of a transfer; an RMW by a non-sharer of a Shared
 *      line costs the transfer from the farthest sharer; either adds
 *      inval_per_sharer for each further sharer to invalidate;
 *    - conflicts: each CPU queued on the line other than the requester
 *      and the CPU the line comes from is a conflicting request at the
 *      home, which holds it off while the hand-off is in flight; the
 *      hand-off occupies the line longer by conflict_local per such third
 *      party when the requester is on the home socket, conflict_remote
 *      otherwise. Two CPUs passing a line back and forth never conflict:
 *      that is what ping-pong figures measure. At saturation N CPUs see
 *      N - 2 third parties per hand-off;
 *    - a legacy linear term, xfer_per_waiter per other queued CPU (the
 *      law before this one; 0 unless a profile sets it).
 *    The line is occupied for `occupancy` x the latency, plus the
 *    conflicts; the requester sees the latency (conflicts delay the next
 *    hand-off, not this one), and never before the previous hand-off of
 *    the line completed (hand-offs complete in the order they are
 *    served). Queueing on a hot line is atomic contention. With the
 *    profile's service_cv > 0 each hand-off's time is drawn around its
 *    mean with that coefficient of variation (reproducibly); 0, the
 *    default, makes every hand-off of a class cost the same. Not
 *    modelled: arbitration other than FIFO (local-first bursts).
 *  - Loads of a Shared line do not serialise: once a load has left the
 *    line Shared, the loads at the head of its queue join the sharers at
 *    once, each with its own latency from the nearest sharer, occupying
 *    the line no further (the LLC serves them without a snoop). A store
 *    or RMW still waits its turn and invalidates them all. (SIM:
 *    doc/design.md serves every request one at a time; that made a
 *    line read by many CPUs as costly as one written by many.)
 *  - Hand-off rule. Under COH_HANDOFF_STRICT a request queued on a line is
 *    served between two accesses of the same CPU: an owner that stores to
 *    or RMWs a line with waiters goes to the back of the queue, and pays
 *    again; a load of a line the CPU holds waits only behind queued
 *    stores and RMWs (loads do not conflict with loads). Under
 *    COH_HANDOFF_HOLD the CPU that just received the line keeps it for
 *    hold_ps after it arrives: its accesses in that window are hits, and
 *    the next hand-off waits for the window to close.
 *  - x86 TSO with out-of-order execution: loads and stores that miss are
 *    posted. The CPU goes on; later loads of the same line merge into the
 *    pending miss (or forward from the store buffer), and later stores to
 *    a line whose store miss is still queued merge into it (the store
 *    buffer commits them together once the line arrives). At most
 *    COH_MAX_PENDING posted accesses are outstanding; then the CPU waits.
 *    A locked RMW, and the end of a kernel function (coh_fence()), wait
 *    for every posted access of the CPU. A load followed by an RMW of the
 *    same line is therefore two transactions: the load brings the line
 *    Shared, the RMW needs it again, exclusively (an upgrade).
 *  - A dependent load (coh_read_dep(): a pointer chase, whose value gives
 *    the next address) is not posted: the CPU waits for it, and for the
 *    posted miss of the same line it merges into.
 *
 *	line state      request    served as                       latency
 *	M at cpu d      READ       d -> S, requester S             xfer(d)
 *	M at cpu d      WRITE/RMW  requester M                     xfer(d)
 *	S at {s..}      READ       requester joins                 xfer(nearest)
 *	S at {s..}      WRITE/RMW  invalidate the others, M        xfer(farthest)
 *	  (requester not among them)                               + inval x (k-1)
 *	S at {r, s..}   WRITE/RMW  by sharer r: upgrade, M         upgrade(farthest)
 *	                                                           + inval x (k-1)
 *	nobody          any        from memory                     memory
 *	xfer(d) across sockets: xfer_socket if d is on the home socket,
 *	else xfer_socket_remote_home. Occupancy: latency x occupancy +
 *	conflict(requester) x third parties queued.
 *
 * The logical effect of an access (the value read or written by the model
 * code) takes place when the coroutine resumes, that is when the access
 * completes; for posted accesses it takes place at issue (SIM: the value
 * of a posted load is read when it is issued; the fields read that way
 * are read-mostly).
 *
 * A CPU whose code after a waited access touches nothing shared before
 * its next access (coh_cpu.resume_inline: atomic_counter, false_sharing
 * count the operation and think) is resumed by whoever served the access
 * - the line's service event, or its own access when the line was idle -
 * with its clock at the completion, as a process runs ahead of the engine
 * while it pays local latencies: the wake-up event at the completion is
 * not needed. Same times and counts; only the order of events due at the
 * same picosecond can differ (SIM: an optimisation, doc/speed.md).
 *
 * Such a CPU's next RMW, after it thinks, may be announced to a busy line
 * instead of arriving in an engine event of its own (coh_rmw_ahead(),
 * models/hw/cache.c says how): the line queues it at its place in the run
 * order when anything next looks at the line. Exact; an optimisation.
 *
 * Per line and per field we count accesses by kind, hits, misses,
 * transfers by distance, queueing time and busy time: the teaching view.
 *
 * Layering: models/ module; uses sim/engine.h, sim/trace.h, models/hw/machine.h.
 */
#ifndef MODELS_HW_CACHE_H
#define MODELS_HW_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "models/hw/machine.h"
#include "sim/engine.h"

#define COH_LINE_SIZE 64
#define COH_LINE_FIELDS 16 /* distinct fields counted per line */
/*
 * Posted accesses in flight per CPU. SIM: one limit for what Skylake
 * splits between 10-12 line fill buffers (misses to distinct lines) and a
 * 56-entry store buffer (stores, merged ones too).
 */
#define COH_MAX_PENDING 16

struct sim_trace;
struct kprof;

enum coh_op {
	COH_READ,
	COH_WRITE,
	COH_RMW,
	NR_COH_OPS,
};

/* A field as laid out in its struct. */
struct coh_layout_field {
	const char *name;
	unsigned int offset; /* bytes from the start of the struct */
	unsigned int size; /* bytes */
};

struct coh_layout {
	const char *name; /* "page_counter" */
	unsigned int size; /* sizeof() */
	unsigned int nr_fields;
	const struct coh_layout_field *fields;
};

#define COH_FIELD_CALLERS 6 /* callers counted apart per field */
#define COH_CALLER_MIXED (~0u) /* the last slot, once callers share it */

/*
 * struct coh_caller_stat - the accesses to a field made by one caller, a
 * code location that the layer above names (models/kernel: the kernel
 * function making the access, kprof.h), as perf c2c lists the code that
 * touched each offset of a line. Counted for the CPUs with a @caller
 * (explain's runs, struct coh_cpu); zeroed by coh_stats_reset().
 */
struct coh_caller_stat {
	uint64_t ops[NR_COH_OPS];
	uint64_t misses;
	unsigned int id; /* the caller + 1; 0: free; COH_CALLER_MIXED */
};

struct coh_field_stat {
	/*
	 * an access writes these: first; a locked RMW's miss counts from a
	 * log too, like @cpus (field_cpu_count())
	 */
	uint64_t ops[NR_COH_OPS];
	uint64_t misses;
	sim_time_t wait_ps; /* time accesses to it queued */
	/*
	 * the distinct CPUs that accessed it, and which: the bitmap counted
	 * from a log (coh_stats_flush()), up to date after coh_settle(); the
	 * count up to date in the lines coh_lines_sorted() hands out
	 */
	unsigned int nr_cpus;
	uint64_t cpus[MACHINE_MAX_CPUS / 64];
	/*
	 * [COH_FIELD_CALLERS] by caller, in order of first access (the last
	 * may be mixed), or NULL: none counted; made by coh_caller_slot()
	 */
	struct coh_caller_stat *callers;
	/* cold, read by the reports: last (first, it took a host line) */
	char name[72]; /* "counter[3].value", "memcg(/a/b).memory.usage" */
};

/*
 * coh_caller_slot() - the counts of @fs's accesses by @caller. Callers past
 * the first COH_FIELD_CALLERS - 1 share the last slot, which then says
 * COH_CALLER_MIXED.
 */
struct coh_caller_stat *coh_caller_slot(struct coh_field_stat *fs,
					unsigned int caller);

struct coh_req {
	uint16_t cpu;
	uint8_t op;
	uint8_t slot; /* field slot in the line */
	uint8_t posted; /* the CPU did not wait for it */
	uint8_t prefetch; /* a spatial prefetch: nobody waits */
	/*
	 * the latest request of its CPU in the line's queue (prefetches
	 * aside): once it leaves, the CPU has nothing queued on the line
	 */
	uint8_t last;
	/*
	 * a load served ahead of its place (it joined a downgrade:
	 * coh_serve.h, reads_join()); its slot waits to leave the ring, as
	 * a prefetch, which it is marked as too: nobody's, nobody waits
	 */
	uint8_t served;
	sim_time_t enq;
};

/*
 * struct coh_line - one 64-byte line and its coherence state.
 * Invariant: @owner >= 0 implies @nr_sharers == 0.
 *
 * The fields every access and hand-off reads and writes come first and fill
 * exactly the first 64 bytes, which line_alloc() aligns to a host line:
 * serving a request touches one host line of line state, not three (issue
 * 15; the name and the statistics used to sit in between). Its size, with
 * the sharer bitmap, is what the memory accounting (coh_mem()) charges.
 */
struct coh_line {
	/* hot: what every access and hand-off reads, in 64 bytes */
	int owner; /* CPU holding it M/E, or -1 */
	int home; /* home socket: the first requester's; -1 */
	int last_to; /* CPU the latest hand-off went to, or -1 */
	unsigned int nr_sharers;
	/*
	 * FIFO ring of waiting requests: the one at position a (q_head and
	 * positions count every request ever queued, unmasked) is in slot
	 * a & (q_cap - 1); growing keeps every request at its position.
	 * q_cap between the two that a dequeue changes, which the compiler
	 * paired in a vector register when adjacent (q_head++ in 4
	 * instructions; `make bench-insns INSNS_N=256 INSNS_K=16`: 625 ->
	 * 624 an atomic, 72/1 582 -> 580, 256/1 567 -> 565)
	 */
	struct coh_req *q;
	unsigned int q_head, q_cap, q_len; /* q_cap: 0 or a power of two */
	unsigned int q_cpus; /* distinct CPUs queued (prefetches aside) */
	unsigned int q_writers; /* queued stores and RMWs (prefetches aside) */
	bool serving; /* a service event is scheduled */
	bool read_batch; /* Shared by a load: queued loads join at once */
	bool last_to_queued; /* @last_to has requests queued on the line */
	/* RMWs announced to it, not yet arrived (coh_rmw_ahead()) */
	uint8_t nr_ann;
	sim_time_t free_at; /* the hand-off being served ends */
	sim_time_t last_done; /* completion of the latest hand-off */

	/*
	 * warm: what a miss and its hand-off write besides, in the next two
	 * host lines (doc/speed.md: an access to an idle line touched five
	 * of them and two of its field's, and later four; among 1024 lines,
	 * or the hundreds of a memcg run, each a miss of the host; the
	 * assertion in coh_priv.h keeps them two). Statistics since the last
	 * coh_stats_reset(), but @pair_prefetch and the pointers.
	 */
	uint64_t ops[NR_COH_OPS];
	uint64_t misses;
	struct coh_field_stat *fields; /* [nr_fields], grown as placed */
	/* [nr_cpus] transfers to each CPU, or NULL; up to date after coh_settle() */
	uint32_t *xfer_to;
	/* time it was busy with hand-offs */
	sim_time_t busy_ps;
	/*
	 * entries left in the log after @xfer_to[], 0 if it has none
	 * (coh_priv.h: xfer_to_count())
	 */
	unsigned int xfer_left;
	/*
	 * the spatial prefetcher is on and the other line of the line's
	 * 128-byte pair is placed, in the same object (spatial_prefetch()):
	 * a miss of either may move the other, so no RMW shortcut serves it
	 */
	bool pair_prefetch;
	/*
	 * up to date after coh_settle(): an RMW served at once logs them
	 * with its transfer once transfers are logged (coh_priv.h:
	 * xfer_to_count())
	 */
	uint64_t transfers;
	uint64_t xfer_by_dist[NR_COH_DIST + 1]; /* [NR_COH_DIST]: memory */
	sim_time_t wait_ps; /* time requests queued */

	/* the rest: what a hit, a merge, a queue or the hold rule touch */
	uint64_t hits;
	uint64_t merged; /* merged accesses */
	/*
	 * the owner received the line: for the hold rule only, which no
	 * plain machine has (serve_owned() does not set it)
	 */
	sim_time_t owner_since;

	/* line_serve_event(), pending while @serving; set up at first use */
	struct sim_timer serve_timer;
	/*
	 * [nr_cpus] 1 + the ring slot of each CPU's latest posted request in
	 * the queue (prefetches aside), 0: none; NULL until the line's first
	 * posted request (models/hw/coh_serve.h: queued_add() says why).
	 * 16 bits: a CPU has at most COH_MAX_PENDING posted accesses, one
	 * it waits for and one prefetch queued on a line, so a ring holds at
	 * most MACHINE_MAX_CPUS x 18 = 18,432 requests and its slots stay
	 * below 32,768 (asserted where it grows); half the host memory of 32
	 * bits (2 MiB, not 4, at 1024 CPUs x 1024 lines)
	 */
	uint16_t *q_last;
	uint16_t nr_fields, cap_fields; /* <= COH_LINE_FIELDS */
	uint64_t addr; /* line address: a multiple of 64 */
	unsigned int index; /* creation order */
	int last_holder; /* trace: holder track */
	sim_time_t last_holder_since;
	/* spatial prefetches of the line served, and dropped (busy, queued) */
	uint64_t prefetches, prefetch_dropped;

	char name[64]; /* "<first object>+0x40": cold, after the rest */
	uint64_t sharers[]; /* bitmap of nr_cpus bits */
};

/* A field of an object instance: its line and slot in the line's stats. */
struct coh_field {
	struct coh_line *line;
	uint8_t slot;
};

struct coh_object {
	char name[40];
	uint64_t base;
	const struct coh_layout *layout;
	struct coh_field fields[]; /* [layout->nr_fields] */
};

/*
 * struct coh_cpu - a CPU as the memory system sees it. Aligned to a host
 * line, 9 of them (its padding says why), its per-access fields in the
 * first (doc/speed.md); coh_create() allocates them so.
 */
struct coh_cpu {
	/* line 0: what every access of the CPU reads or writes */
	_Alignas(64) struct coh *coh;
	struct sim_proc *proc;
	/* its word and bit in CPU bitmaps: cpu / 64, 1 << cpu % 64 */
	uint16_t cpu; /* < MACHINE_MAX_CPUS */
	uint8_t nr_pending; /* <= COH_MAX_PENDING */
	uint8_t ann_slot; /* the field slot of the RMW announced */
	bool access_done; /* a queued access completed: see coh_access() */
	bool fence_waiting; /* blocked until posted accesses are served */
	/*
	 * The code this CPU runs after an access it waited for touches
	 * nothing another CPU could see before its next access (it counts
	 * the operation and thinks): the line serving the access may resume
	 * it at once with its clock at the completion, instead of an engine
	 * event at the completion. Set by workloads that keep that promise
	 * (atomic_counter, false_sharing) with coh_cpu_allow_resume(), which
	 * leaves it clear when the shortcuts are off; coh_cpu_attach()
	 * clears it.
	 */
	bool resume_inline;
	/*
	 * coh_delay() stretches this CPU's work (SMT, below): @smt_busy and
	 * not @idle, kept here with them, in the line every access reads,
	 * where @idle and @smt_busy would put another host line under every
	 * think of every CPU (1024 x 1024: doc/speed.md).
	 */
	bool smt_stretch;
	/* names the caller of each access (from @prof), or NULL: not counted */
	unsigned int (*caller)(const struct kprof *prof);
	/* statistics */
	sim_time_t wait_ps; /* waiting for lines and fences */
	sim_time_t wait_start;
	/*
	 * The line that served the CPU and resumed it inline, and when its
	 * queue, at the pace of that hand-off, would run out (serve_settle()):
	 * coh_rmw_worth_announcing() asks them, not the line, which may not
	 * be in the host's L1 when the CPU's think ends. Once the CPU has
	 * announced an RMW, @ann_line is the line it goes to. Set for a CPU
	 * that resumes inline only, and cleared where @resume_inline is set
	 * (coh_cpu_attach(), coh_cpu_allow_resume()): a CPU with an @ann_line
	 * resumes inline, which coh_rmw_announce() then need not test.
	 */
	struct coh_line *ann_line;
	sim_time_t ann_until;
	/*
	 * line 1: the RMW this CPU announced (coh_rmw_ahead()) arrives at
	 * (@ann_at, @ann_seq) in the run order at @ann_line, field slot
	 * @ann_slot; @ann_next is the next announced to the same line, later
	 * in that order.
	 */
	sim_time_t ann_at;
	uint64_t ann_seq;
	struct coh_cpu *ann_next;
	unsigned int nr_posted; /* posted accesses in pending[], merged too */
	/*
	 * Above, what every access reads or writes, in the first two host
	 * lines; below, what only some do (at 72 CPUs and more the
	 * simulator's working set outgrows the host's L1: doc/speed.md).
	 */
	struct {
		struct coh_line *line;
		uint8_t op;
		unsigned int count; /* accesses merged into this one */
		sim_time_t done; /* SIM_TIME_MAX until served */
	} pending[COH_MAX_PENDING];
	struct coh_line *dep_line; /* a dependent load waits for this line */
	struct kprof *prof; /* time by kernel function, or NULL */
	struct coh_caller_stat *caller_stat; /* the latest access's */
	/*
	 * A dependent load in flight under the reorder buffer's window
	 * (coh.rob_ps): the line of its miss, posted in pending[] at
	 * @chase_issue; the CPU's next access waits for it (chase_settle()),
	 * blocked with @chase_waiting when it is still queued, then goes on
	 * @chase_extra later: the work past the window, which had to wait.
	 *
	 * SMT execution sharing (the profile's smt_slowdown): the other
	 * thread of this CPU's core, or NULL when the machine has no SMT or
	 * its threads share nothing; coh_delay() stretches this CPU's own
	 * work while @smt_sibling runs (@smt_busy: coh_cpu_busy() of
	 * @smt_sibling, kept by it, so that coh_delay() reads no other
	 * CPU's line). @smt_of: the CPU whose @smt_sibling this one is.
	 * @idle: no task runs on this CPU (set by the workloads where their
	 * tasks sleep, through coh_cpu_set_idle()).
	 */
	struct coh_line *chase_line; /* NULL for a cold read */
	sim_time_t chase_issue, chase_extra;
	struct coh_cpu *smt_sibling, *smt_of;
	unsigned int smt_slowdown_1024;
	bool idle;
	bool chasing, chase_waiting;
	bool smt_busy;
	/*
	 * The machine (coh_machine()), for insn_charge()'s instruction
	 * latency without a call; read when used, as a test may change the
	 * profile after coh_create().
	 */
	const struct machine *machine;
	/*
	 * Padding to 9 host lines, an odd number: CPU i's line 0 then falls
	 * in set 9i of the host's L1 (mod 64), all 64 sets in turn, where
	 * 512 bytes put every CPU's line 0 in 8 sets (doc/speed.md).
	 */
	char pad[8];
};

struct coh;

struct coh *coh_create(const struct machine *m, struct sim_engine *e);
void coh_free(struct coh *c);
void coh_set_mem_limit(struct coh *c, uint64_t bytes);
/*
 * coh_set_shortcuts() - take the exact shortcuts (on by default) or the
 * general path for every access: the same hand-offs at the same times
 * either way, slower without them. For checking that they are exact
 * (MEMCGSIM_SHORTCUTS=0, tests/run-determinism.sh). Before the run.
 */
void coh_set_shortcuts(struct coh *c, bool on);
/*
 * coh_cpu_allow_resume() - the CPU of @cc keeps coh_cpu.resume_inline's
 * promise: the line may resume it inline, if the shortcuts are on.
 */
void coh_cpu_allow_resume(struct coh_cpu *cc);
uint64_t coh_mem(const struct coh *c);
int coh_failed(const struct coh *c);
const struct machine *coh_machine(const struct coh *c);
struct sim_engine *coh_engine(const struct coh *c);

/* Attach the process that runs CPU @cpu. */
struct coh_cpu *coh_cpu_attach(struct coh *c, unsigned int cpu,
			       struct sim_proc *p);
/*
 * coh_cpu_count_callers() - name the caller of each access of @cc's CPU
 * with @caller (coh_cpu.caller), or NULL: none. Set for the run, before
 * it starts.
 */
void coh_cpu_count_callers(struct coh_cpu *cc,
			   unsigned int (*caller)(const struct kprof *prof));
struct coh_cpu *coh_cpu(struct coh *c, unsigned int cpu);

/*
 * struct coh_place - where an allocator puts an object (coh_object_place()),
 * in the simulated address space, which matters where lines interact by
 * address: the 128-byte pairs of the adjacent-line prefetcher.
 * @align: the real object's start: a power of two, at least 64 (kmalloc's
 *	size class, whose power-of-two caches are naturally aligned;
 *	PAGE_SIZE for an object of 4 KiB or more)
 * @offset: where the layout's offset 0 sits in the real object, a
 *	multiple of 64 (struct mem_cgroup's modelled part starts at 192)
 * @size: the real object's bytes, what the allocation takes; at least
 *	@offset plus the layout's size
 * @cpu: -1 for global data and kmalloc; else the CPU whose copy of a
 *	per-CPU variable this is: placed in that CPU's unit of the per-CPU
 *	area, apart from global data and from every other CPU's unit, its
 *	lines homed at the CPU's socket (the unit is on its node)
 * @dynamic: a dynamically allocated per-CPU area (alloc_percpu()): in the
 *	unit's dynamic chunk, on pages apart from the static per-CPU data
 */
struct coh_place {
	unsigned int align, offset, size;
	int cpu;
	bool dynamic;
};

#define COH_PAGE_SIZE 4096u

/*
 * coh_object_place() - place an instance of @layout as @at says (see struct
 * coh_place). The object is owned by @c and freed with it.
 */
struct coh_object *coh_object_place(struct coh *c, const char *name,
				    const struct coh_layout *layout,
				    const struct coh_place *at);

/*
 * coh_per_cpu() - the placement of CPU @cpu's copy of a per-CPU variable
 * of @size bytes: static (DEFINE_PER_CPU) or @dynamic (alloc_percpu).
 */
static inline struct coh_place coh_per_cpu(unsigned int cpu, unsigned int size,
					   bool dynamic)
{
	return (struct coh_place){
		.align = 64, .size = size, .cpu = (int)cpu, .dynamic = dynamic
	};
}

/*
 * coh_object_create() - place an instance of @layout in the simulated
 * address space: at a fresh line boundary plus @offset_in_line (the offset
 * of the struct inside its container modulo 64, e.g. page_counter inside
 * struct mem_cgroup). The object is owned by @c and freed with it.
 */
struct coh_object *coh_object_create(struct coh *c, const char *name,
				     const struct coh_layout *layout,
				     unsigned int offset_in_line);
/* Field @i of @obj. */
static inline struct coh_field *coh_object_field(struct coh_object *obj,
						 unsigned int i)
{
	return &obj->fields[i];
}

/*
 * The rest of coh_access() and coh_read_dep() (@dep): issue the access,
 * cc->proc synced (sim_proc_sync() returned false).
 */
bool coh_access_issue(struct coh_cpu *cc, struct coh_field *field,
		      enum coh_op op, bool dep);
/*
 * coh__access_rmw() - coh_access_issue() of a locked RMW (@op COH_RMW), for
 * callers whose @op is that constant: without the call's test of @op and
 * its two arguments more (5 instructions an atomic at 256 CPUs on 16
 * counters, each issued once: `make bench-insns`).
 */
bool coh__access_rmw(struct coh_cpu *cc, struct coh_field *field);

/*
 * coh_access() - CPU @cc accesses @field (kind @op) at the current time.
 * Returns true when the process must wait (its wake-up is arranged) and
 * false when it may go on, with cc->proc->now advanced by the cost paid.
 * Meant for CO_AWAIT(): after a wait it is called again and then reports
 * the access as done, so it must be called with the same arguments.
 */
static inline bool coh_access(struct coh_cpu *cc, struct coh_field *field,
			      enum coh_op op)
{
	/*
	 * Woken up: the queued access has completed. Tested here, inline,
	 * since every access that waited comes back once for this alone: the
	 * call and the issue path's register saves cost 20 instructions.
	 */
	if (cc->access_done) {
		cc->access_done = false;
		return false;
	}
	/*
	 * Events due before the access: yield to them, and come back here.
	 * Inline too: a kernel model's loads yield this way on every third
	 * call, and each cost a call of 35 instructions (doc/speed.md).
	 */
	if (sim_proc_sync(cc->proc))
		return true;
	if (op == COH_RMW)
		return coh__access_rmw(cc, field);
	return coh_access_issue(cc, field, op, false);
}

static inline bool coh_read(struct coh_cpu *cc, struct coh_field *f)
{
	return coh_access(cc, f, COH_READ);
}

/*
 * coh_read_dep() - a load whose value the CPU needs before it can go on: a
 * pointer chase (the next load's address comes from it, as css.parent in
 * a hierarchy walk). Unlike coh_read() it is not posted: a miss blocks
 * until the line arrives, and a load merging into a posted miss of the
 * same line waits for that miss (from a posted store it is forwarded at
 * once). Posted accesses before it stay posted. For CO_AWAIT().
 */
static inline bool coh_read_dep(struct coh_cpu *cc, struct coh_field *f)
{
	if (cc->access_done) { /* as in coh_access() */
		cc->access_done = false;
		return false;
	}
	if (sim_proc_sync(cc->proc))
		return true;
	return coh_access_issue(cc, f, COH_READ, true);
}

/*
 * coh_rmw_announce() - announce @cc's RMW of @field (coh_rmw_ahead()): true if
 * announced. coh_rmw_announce_co(): the same as a coroutine step's result,
 * CO_WAIT if announced, else CO_CALL (coh_announce.c says when).
 */
bool coh_rmw_announce(struct coh_cpu *cc, struct coh_field *field);
int coh_rmw_announce_co(struct coh_cpu *cc, struct coh_field *field);

/*
 * coh_rmw_worth_announcing() - whether @cc's RMW of @l at @at is worth
 * announcing: only if the line is likely to be still serving then (else
 * its arrival needs an event after all, and a dearer one). Guessed when
 * the line served the CPU's last access (cc->ann_until, serve_settle()):
 * its queue, at the pace of that hand-off, lasts until @at. A guess: it
 * decides the cost, not the result (coh_rmw_announce() checks the line).
 */
static inline bool coh_rmw_worth_announcing(const struct coh_cpu *cc,
					    const struct coh_line *l,
					    sim_time_t at)
{
	return l == cc->ann_line && at <= cc->ann_until;
}

/*
 * coh_rmw_ahead() - coh_rmw() by a CPU whose clock has run ahead of the
 * engine's, paying local latencies (it thought), with nothing else to do
 * before the RMW. Where coh_rmw() would sync (yield to the events due
 * before the CPU's clock and come back in an engine event of its own, or
 * move the engine's clock on to it), the RMW is announced to the line
 * instead, when the line's service event is pending (coh_rmw_announce()):
 * the line takes it into its queue, at its place in the run order, when
 * it next serves or is accessed (doc/speed.md: the event per atomic that
 * arrival was). Same results as coh_rmw(); a
 * CPU that resumes inline (coh_cpu.resume_inline) only. For CO_AWAIT().
 */
static inline bool coh_rmw_ahead(struct coh_cpu *cc, struct coh_field *f)
{
	struct sim_proc *p = cc->proc;

	if (cc->access_done) { /* as in coh_access() */
		cc->access_done = false;
		return false;
	}
	/*
	 * Announce instead of sim_proc_sync(), if the line's service event
	 * is pending and likely to be still when the RMW arrives
	 * (coh_rmw_announce() says what else it takes): whether the sync
	 * would yield or move the engine's clock on to the RMW, the line
	 * takes it in at its place in the run order all the same, and an
	 * RMW that arrives before the line's next service, queued at once,
	 * took the general access path behind the RMWs announced (72 CPUs
	 * on one counter: 15% of the atomics).
	 */
	if (p->now != sim_now(p->engine)) {
		if (coh_rmw_worth_announcing(cc, f->line, p->now) &&
		    coh_rmw_announce(cc, f))
			return true;
		/* ahead: a running process's clock is never behind */
		if (sim_proc_sync_ahead(p))
			return true;
	}
	return coh__access_rmw(cc, f);
}

static inline bool coh_write(struct coh_cpu *cc, struct coh_field *f)
{
	return coh_access(cc, f, COH_WRITE);
}

static inline bool coh_rmw(struct coh_cpu *cc, struct coh_field *f)
{
	return coh_access(cc, f, COH_RMW);
}

/*
 * coh_fence() - wait for every posted access of @cc (a locked RMW does this
 * itself; a kernel function's return does it explicitly). For CO_AWAIT().
 */
bool coh_fence(struct coh_cpu *cc);

/*
 * coh_read_cold() - a load of memory no CPU has written during the run,
 * such as another CPU's per-CPU counter of a memcg that CPU never charged:
 * served from memory (memory_ps), posted like any load, and no line is
 * kept for it, so a flush or a read over thousands of idle memcgs on
 * hundreds of CPUs costs no host memory. The caller decides what counts
 * as the same line within one operation (see mem_cgroup_stat_read()).
 * SIM: without a capacity model such memory is never cached between
 * operations. Returns true when the process must wait.
 */
bool coh_read_cold(struct coh_cpu *cc);
/*
 * coh_read_cold_of() - coh_read_cold() of CPU @owner's copy of a per-CPU
 * variable, as the hardware serves it: from the memory of @owner's node
 * (the copy is homed there: memory_remote from another socket), and with
 * @walk, when @owner is not the reader, after a translation miss
 * (page_walk): the caller passes @walk for the first load of the copy's
 * page in an operation (alloc_percpu() puts each CPU's copy on pages of
 * its own; the TLB holds the translation for the rest of the operation).
 * The core's fill buffers bound how many such misses are in flight, its
 * page walkers how many walks (coherence.fill_buffers, page_walkers).
 * Return as coh_read_cold().
 */
bool coh_read_cold_of(struct coh_cpu *cc, unsigned int owner, bool walk);
/*
 * coh_read_cold_dep() - coh_read_cold() of a pointer chase: the CPU needs
 * the value at its next access, and runs at most the reorder buffer's
 * window of work before it (coh.rob_ps); without a window it waits now.
 * Return as coh_read_cold().
 */
bool coh_read_cold_dep(struct coh_cpu *cc);

/* coh_cpu_busy() - a task runs on @cc (attached, not idle). */
static inline bool coh_cpu_busy(const struct coh_cpu *cc)
{
	return cc->proc && !cc->idle;
}

/*
 * coh_delay_ps() - what coh_delay() of @ps adds to the CPU's clock, for a
 * caller that keeps the clock in a register (counter_next()).
 */
static inline sim_time_t coh_delay_ps(const struct coh_cpu *cc, sim_time_t ps)
{
	if (cc->smt_stretch)
		ps = ps * cc->smt_slowdown_1024 / 1024;
	return ps;
}

/*
 * coh_delay() - the CPU computes for @ps without touching shared lines:
 * @ps x smt_slowdown while its SMT sibling runs (an idle CPU's wait is
 * not stretched). SIM: the sibling's state
 * when the work starts holds for all of it.
 */
static inline void coh_delay(struct coh_cpu *cc, sim_time_t ps)
{
	cc->proc->now += coh_delay_ps(cc, ps);
}

/*
 * coh_cpu_smt_update() - @cc's state changed (attached, idle or not): its
 * own @smt_stretch, and the @smt_busy and @smt_stretch of the CPU whose
 * SMT sibling it is.
 */
static inline void coh_cpu_smt_update(struct coh_cpu *cc)
{
	struct coh_cpu *of = cc->smt_of;

	cc->smt_stretch = cc->smt_busy && !cc->idle;
	if (of) {
		of->smt_busy = coh_cpu_busy(cc);
		of->smt_stretch = of->smt_busy && !of->idle;
	}
}

/*
 * coh_cpu_set_idle() - @cc runs no task from now (@idle), or runs one
 * again: what coh_delay() of @cc and of its SMT sibling sees.
 */
static inline void coh_cpu_set_idle(struct coh_cpu *cc, bool idle)
{
	cc->idle = idle;
	coh_cpu_smt_update(cc);
}

/* Statistics. */
void coh_stats_reset(struct coh *c);
/*
 * coh_settle() - at the end of a sim_engine_run(): the RMWs announced to
 * a line (coh_rmw_ahead()) that arrived by now join its queue, as their
 * wake-ups would have run by now, and the statistics logged are counted
 * (struct coh); call it before reading statistics.
 */
void coh_settle(struct coh *c);
/*
 * coh_set_log_bytes() - count the transfers to each CPU and the CPUs of
 * each field from a log once the lines' xfer_to[] take @bytes (default 1
 * MiB; 0: from now). The counts are the same; only the host's time is
 * not. For tests.
 */
void coh_set_log_bytes(struct coh *c, size_t bytes);
unsigned int coh_nr_lines(const struct coh *c);
unsigned int coh_nr_cpus(const struct coh *c);
/*
 * coh_lines_sorted() - the first @n lines in a stable order (busiest
 * first, then most transfers, ties by address) into @out, each field's
 * count of its CPUs (coh_field_stat.nr_cpus) up to date.
 */
void coh_lines_sorted(struct coh *c, struct coh_line **out, unsigned int n);
/* coh_lines_sum() - all lines' transfers, and the busiest line's time. */
void coh_lines_sum(struct coh *c, uint64_t *transfers, sim_time_t *busy_max);

/*
 * Tracing (Chrome trace events, sim/trace.h); @t may be NULL. The accesses
 * go on the CPU tracks of process @pid_cpus, the holders and counters of
 * the lines on the tracks of @pid_lines.
 */
void coh_set_trace(struct coh *c, struct sim_trace *t, int pid_cpus,
		   int pid_lines);
struct sim_trace *coh_trace(const struct coh *c);
int coh_trace_pid_cpus(const struct coh *c);
/* Whether the trace holds anything of @l (its track needs a name). */
bool coh_trace_line_used(const struct coh *c, const struct coh_line *l);
void coh_trace_flush(struct coh *c);

#endif /* MODELS_HW_CACHE_H */
