// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_rstat.c - statistics: the rstat updated trees and flush
 * (models/kernel/kernel/cgroup/rstat.c, kernel/cgroup/rstat.c) and the memcg counters,
 * thresholds and memory.stat reads (models/kernel/mm/memcontrol.c, the statistics
 * half of mm/memcontrol.c).
 *
 * The machine is an inline profile with round numbers, so that costs can
 * be worked out by hand: one socket of P cores (no SMT), l1_hit 1 ns,
 * rmw_local 10 ns, irq_save_restore 5 ns, memory 100 ns, every transfer
 * 50 ns. The statistics arrays are small but keep the kernel's shape:
 * 18 node items (NR_VM_NODE_STAT_ITEMS), 23 memcg items (MEMCG_NR_STAT),
 * 21 events; charge_batch (MEMCG_CHARGE_BATCH) 32. The tree:
 *
 *	/ (memcgs[0])
 *	+-- /a
 *	+-- /b
 *
 * Calls run one at a time, each as a coroutine on one simulated CPU.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "models/hw/cache.h"
#include "models/kernel/sim/config.h"
#include "models/hw/machine.h"
#include "models/kernel/sim/insn.h"
#include "models/kernel/mm/memcontrol.h"
#include "models/kernel/kernel/cgroup/rstat.h"
#include "sim/co.h"
#include "sim/engine.h"
#include "sim/util.h"
#include "tests/harness.h"

#define NR_TEST_CPUS 8
#define BATCH 32
#define NR_ITEMS (23 + 21 + 18) /* state + events + one node's lruvec */

#define L1 1000 /* ps */
#define RMW 10000
#define IRQ 5000
#define XFER 50000

enum { CG_ROOT, CG_A, CG_B, NR_CG };

/* the memcgs of the tree, once created */
static struct {
	struct mem_cgroup *root, *a, *b;
} mc;

static const char profile[] = "name: tiny\n"
			      "description: round numbers for hand arithmetic\n"
			      "sockets: 1\n"
			      "cores_per_socket: %u\n"
			      "threads_per_core: 1\n"
			      "latencies:\n"
			      "  l1_hit: {ns: 1, source: test}\n"
			      "  llc_hit: {ns: 10, source: test}\n"
			      "  memory: {ns: 100, source: test}\n"
			      "  rmw_local: {ns: 10, source: test}\n"
			      "  xfer_smt: {ns: 50, source: test}\n"
			      "  xfer_llc: {ns: 50, source: test}\n"
			      "  inval_per_sharer: {ns: 1, source: test}\n"
			      "  xfer_per_waiter: {ns: 1, source: test}\n"
			      "  irq_save_restore: {ns: 5, source: test}\n"
			      "coherence:\n"
			      "  handoff: strict\n"
			      "  occupancy: {fraction: 1.0, source: test}\n";

static void load_tiny(unsigned int cpus)
{
	struct scenario_node *root;
	struct sim_error err;
	char text[sizeof(profile) + 16];

	snprintf(text, sizeof(text), profile, cpus);
	sim_error_clear(&err);
	root = scenario_parse_string("tiny.yaml", text, &err);
	ck_assert_msg(root, "%s", err.msg);
	ck_assert_msg(machine_load(&h.m, root, &err) == 0, "%s:%u:%u: %s",
		      err.file, err.line, err.col, err.msg);
	scenario_free(root);
}

/* P CPUs and a statistics version; tests adjust h.k, then create(). */
static void setup_machine(unsigned int cpus, enum kernel_stats_version v)
{
	memset(&h, 0, sizeof(h));
	load_tiny(cpus);
	harness_setup(NULL, cpus < NR_TEST_CPUS ? cpus : NR_TEST_CPUS, 16384);
	h.k.stats_version = v;
	h.k.charge_batch = BATCH;
	h.k.lruvec_stat_items = 18;
	h.k.memcg_stat_items = 23;
	h.k.memcg_event_items = 21;
	h.k.stats_flush_threshold = v == STATS_V6_8 ? FLUSH_PER_MEMCG :
						      FLUSH_GLOBAL;
	h.k.stats_updates_atomic = STATS_ATOMIC_ALWAYS;
	h.k.local_stats = v == STATS_V6_0 ? LOCAL_PERCPU_SUM : LOCAL_AGGREGATED;
	h.k.stats_flush_skip = v != STATS_V6_8;
	ck_assert_uint_eq(harness_cgroup("/", -1), CG_ROOT);
	ck_assert_uint_eq(harness_cgroup("/a", CG_ROOT), CG_A);
	ck_assert_uint_eq(harness_cgroup("/b", CG_ROOT), CG_B);
}

static void create(void)
{
	harness_create();
	mc.root = &h.ms->memcgs[CG_ROOT];
	mc.a = &h.ms->memcgs[CG_A];
	mc.b = &h.ms->memcgs[CG_B];
}

/* Free everything; a second call (the fixture's after a test's) does nothing. */
static void teardown(void)
{
	harness_teardown();
}

/*
 * Run the frame just pushed on @cpu to completion, in steps of 1 us, so
 * that the clock stops within 1 us of the end (time matters to the
 * ratelimited flushes).
 */
static void run_on(unsigned int cpu)
{
	struct sim_proc *p = &h.proc[cpu];
	sim_time_t start = sim_now(h.e);

	sim_proc_start(p, start);
	while (!p->finished && sim_now(h.e) < start + 10 * SIM_PS_PER_MS)
		sim_engine_run(h.e, sim_now(h.e) + SIM_PS_PER_US);
	ck_assert_msg(p->finished, "the call did not finish in 10 ms");
	h.last_ps = p->now - start;
}

/* mod_memcg_state(memcg, MEMCG_SOCK, val) on @cpu */
static void update(unsigned int cpu, struct mem_cgroup *memcg, long val)
{
	struct mod_memcg_state_frame *f =
		CO_PUSH(&h.proc[cpu], mod_memcg_state);

	f->memcg = memcg;
	f->idx = SIM_MEMCG_SOCK;
	f->val = val;
	run_on(cpu);
}

static void rstat_flush(unsigned int cpu, struct mem_cgroup *memcg)
{
	struct cgroup_rstat_flush_frame *f =
		CO_PUSH(&h.proc[cpu], cgroup_rstat_flush);

	f->rs = h.ms->rstat;
	f->cgrp = memcg->id;
	run_on(cpu);
}

static void flush_stats(unsigned int cpu, struct mem_cgroup *memcg)
{
	struct mem_cgroup_flush_stats_frame *f =
		CO_PUSH(&h.proc[cpu], mem_cgroup_flush_stats);

	f->memcg = memcg;
	run_on(cpu);
}

static void stat_show(unsigned int cpu, struct mem_cgroup *memcg,
		      unsigned int format)
{
	struct memory_stat_show_frame *f =
		CO_PUSH(&h.proc[cpu], memory_stat_show);

	f->memcg = memcg;
	f->format = format;
	run_on(cpu);
}

static long sock(struct mem_cgroup *memcg)
{
	return memcg->vmstats.state[SIM_MEMCG_SOCK];
}

/* ---- the updated trees ---- */

/*
 * cgroup_rstat_updated() links the memcg and every ancestor on the
 * updating CPU only; a flush of the whole tree unlinks everything; a
 * subtree flush (v6.8) unlinks the subtree, leaving the rest linked.
 */
START_TEST(rstat_links_per_cpu)
{
	struct rstat *rs;

	setup_machine(4, STATS_V6_8);
	create();
	rs = h.ms->rstat;
	update(1, mc.a, 1);
	update(2, mc.b, 1);
	ck_assert(rstat_linked(rs, CG_A, 1) && rstat_linked(rs, CG_ROOT, 1));
	ck_assert(!rstat_linked(rs, CG_B, 1));
	ck_assert(rstat_linked(rs, CG_B, 2) && rstat_linked(rs, CG_ROOT, 2));
	ck_assert(!rstat_linked(rs, CG_A, 0) && !rstat_linked(rs, CG_ROOT, 0));
	ck_assert_uint_eq(rs->slow_links, 2);
	/* linked already: the lockless check returns */
	update(1, mc.a, 1);
	ck_assert_uint_eq(rs->slow_links, 2);

	/* the subtree of /a: /a alone, on CPU 1 */
	rstat_flush(0, mc.a);
	ck_assert_uint_eq(rs->flushed, 1);
	ck_assert(!rstat_linked(rs, CG_A, 1));
	ck_assert(rstat_linked(rs, CG_ROOT, 1) && rstat_linked(rs, CG_B, 2));
	ck_assert_int_eq(sock(mc.a), 2);
	/* /a's delta waits in the root's pending count */
	ck_assert_int_eq(sock(mc.root), 0);
	ck_assert_int_eq(mc.root->vmstats.state_pending[SIM_MEMCG_SOCK], 2);

	/* the whole tree: the root on CPUs 1 and 2, /b on CPU 2 */
	rstat_flush(0, mc.root);
	ck_assert_uint_eq(rs->flushed, 1 + 3);
	ck_assert(!rstat_linked(rs, CG_ROOT, 1) && !rstat_linked(rs, CG_B, 2));
	ck_assert_int_eq(sock(mc.b), 1);
	ck_assert_int_eq(sock(mc.root), 3);
}
END_TEST

/*
 * The cost of a flush, worked out from the profile. /a was updated on
 * CPU 0, the whole tree flushed from CPU 0, /a updated on CPU 0 again:
 * every line the second flush touches is CPU 0's, so each access is a
 * hit (l1 1 ns, a locked RMW rmw_local 10 ns).
 *
 *	cgroup_rstat_flush: irq 5 + spin_lock(cgroup_rstat_lock) 10      15
 *	CPU 0: irq 5 + spin_lock(cpu_lock) 10                            15
 *	  pop: read root.next, root.children, a.children (a is the leaf),
 *	       root.children again, write root.children, a.next           6
 *	  cgroup_base_stat_flush(a): read bstat, write last_bstat and
 *	       cgroup a's bstat (the root's is not flushed)               3
 *	  mem_cgroup_css_rstat_flush(a): 3 loads per item (pending, this
 *	       CPU's value, its prev) x 62 items; MEMCG_SOCK changed:
 *	       write prev, a's state, root's pending                 186 + 3
 *	  pop: read root.children (root is now the leaf), write
 *	       root.next                                                  2
 *	  css flush(root): 186, and root's pending 1: write pending
 *	       (zero it), write state                                186 + 2
 *	  spin_unlock(cpu_lock)                                           1
 *	CPUs 1..P-1: irq 5 + lock 10 + read root.next (not linked) +
 *	       unlock, 17 each
 *	spin_unlock(cgroup_rstat_lock)                                    1
 *
 * With P = 4: 15 + 15 + 6 + 3 + 189 + 2 + 188 + 1 + 3 x 17 + 1 = 471 ns.
 *
 * v6.6 (local_stats: aggregated) also writes /a's state_local for its
 * own change (the root's change came from a child: no local write), and
 * after each CPU reads the lock word for spin_needbreak(): 471 + 1 + 4 =
 * 476 ns.
 *
 * v6.8 detaches each CPU's list under its lock, then flushes it:
 *	cgroup_rstat_flush: irq + lock                                   15
 *	CPU 0: cgroup_rstat_updated_list(): irq + lock                   15
 *	  read root.next (linked: itself), write root.next, write root's
 *	       rstat_flush_next, read and write root.children             5
 *	  push_children(/a): write a's rstat_flush_next; read it, write
 *	       it (-> root), read a.children, write a.next            1 + 4
 *	  unlock                                                          1
 *	  /a: base stat 3 + css flush 189 + state_local 1 + v6.8's write
 *	       of stats_updates and read of the atomic 2; read a's
 *	       rstat_flush_next                                     195 + 1
 *	  root: css flush 188 + 2; read its rstat_flush_next        190 + 1
 *	  spin_needbreak: read the lock word                              1
 *	CPUs 1..3: irq + lock + read root.next + unlock 17, needbreak 1:
 *	       18 each
 *	spin_unlock(cgroup_rstat_lock)                                    1
 * 15 + 15 + 5 + 5 + 1 + 196 + 191 + 1 + 3 x 18 + 1 = 484 ns.
 */
static void flush_cost(enum kernel_stats_version v, sim_time_t expect)
{
	setup_machine(4, v);
	create();
	update(0, mc.a, 1);
	rstat_flush(0, mc.root);
	update(0, mc.a, 1);
	rstat_flush(0, mc.root);
	ck_assert_int_eq(sock(mc.a), 2);
	ck_assert_int_eq(sock(mc.root), 2);
	ck_assert_uint_eq(h.last_ps, expect);
}

START_TEST(flush_cost_by_hand_v6_0)
{
	flush_cost(STATS_V6_0, 15000 + 15000 + 6 * L1 + 3 * L1 +
				       (3 * NR_ITEMS + 3) * L1 + 2 * L1 +
				       (3 * NR_ITEMS + 2) * L1 + L1 +
				       3 * (IRQ + RMW + 2 * L1) + L1);
	ck_assert_uint_eq(h.last_ps, 471000);
}
END_TEST

/*
 * The same v6.0 flush with the CPU's own work: a profile whose insn
 * latency is 1 ns (h.m is the machine the coherence model reads), and the
 * counts of models/kernel/sim/insn-costs-6.1.tsv:
 *
 *	cgroup_rstat_flush/call                               12
 *	cgroup_rstat_flush_locked/call                        31
 *	cgroup_rstat_flush_locked/cpu, 4 CPUs            4 x 25 = 100
 *	cgroup_rstat_flush_locked/cgroup, /a and / on CPU 0
 *	                                                 2 x 46 =  92
 *	mem_cgroup_css_rstat_flush/call, /a and /        2 x 40 =  80
 *	its items, for /a and /: 23 state x 13 (state_item),
 *	    21 events x 15 (event_item), 18 lruvec x 11 (lruvec_item)
 *	                            2 x (299 + 315 + 198) = 1624
 *	                                                   total 1939
 *
 * Expect 471 ns + 1939 x 1 ns.
 */
START_TEST(flush_cost_by_hand_v6_0_insns)
{
	setup_machine(4, STATS_V6_0);
	h.m.insn_ps = 1000;
	create();
	update(0, mc.a, 1);
	rstat_flush(0, mc.root);
	update(0, mc.a, 1);
	rstat_flush(0, mc.root);
	ck_assert_uint_eq(insn_table[INSN_cgroup_rstat_flush].insns, 12);
	ck_assert_uint_eq(insn_table[INSN_cgroup_rstat_flush_locked].insns, 31);
	ck_assert_uint_eq(insn_table[INSN_cgroup_rstat_flush_locked_cpu].insns,
			  25);
	ck_assert_uint_eq(
		insn_table[INSN_cgroup_rstat_flush_locked_cgroup].insns, 46);
	ck_assert_uint_eq(insn_table[INSN_mem_cgroup_css_rstat_flush].insns,
			  40);
	ck_assert_uint_eq(
		insn_table[INSN_mem_cgroup_css_rstat_flush_state_item].insns,
		13);
	ck_assert_uint_eq(
		insn_table[INSN_mem_cgroup_css_rstat_flush_event_item].insns,
		15);
	ck_assert_uint_eq(
		insn_table[INSN_mem_cgroup_css_rstat_flush_lruvec_item].insns,
		11);
	ck_assert_uint_eq(h.last_ps, 471000 + 1939 * 1000);
}
END_TEST

START_TEST(flush_cost_by_hand_v6_6)
{
	flush_cost(STATS_V6_6, 476000);
}
END_TEST

START_TEST(flush_cost_by_hand_v6_8)
{
	flush_cost(STATS_V6_8, 484000);
}
END_TEST

/*
 * A flush reads the updater's line: it leaves CPU 1 (the flusher's miss,
 * a transfer), and CPU 1's next update of the same counter misses on it
 * too (a second transfer, back).
 */
START_TEST(flush_pulls_percpu_line)
{
	struct coh_field *fld;
	uint64_t misses, xfers;

	setup_machine(4, STATS_V6_0);
	create();
	update(1, mc.a, 1);
	update(1, mc.a, 1);
	fld = coh_object_field(mc.a->vmstats_percpu[1]->obj,
			       0 /* state[0-7] */ + 19 / 8);
	misses = fld->line->misses;
	update(1, mc.a, 1);
	ck_assert_uint_eq(fld->line->misses, misses); /* CPU 1's own */
	xfers = fld->line->transfers;
	rstat_flush(0, mc.root);
	ck_assert_uint_eq(fld->line->transfers, xfers + 1);
	ck_assert_uint_eq(fld->line->misses, misses + 1);
	update(1, mc.a, 1);
	ck_assert_uint_eq(fld->line->misses, misses + 2);
	ck_assert_uint_eq(fld->line->transfers, xfers + 2);
}
END_TEST

/* ---- thresholds ---- */

/*
 * global (v6.0): each CPU's stats_updates crosses MEMCG_CHARGE_BATCH at
 * 33 single-page updates and adds 33 / 32 = 1 to stats_flush_threshold;
 * mem_cgroup_flush_stats() flushes only past num_online_cpus() = 4.
 * 4 x 33 updates: threshold 4, no flush; 33 more: 5, a flush, which
 * resets it.
 */
START_TEST(threshold_global)
{
	unsigned int i;

	setup_machine(4, STATS_V6_0);
	create();
	for (i = 0; i < 4 * 33; i++)
		update(i % 4, mc.a, 1);
	ck_assert_int_eq(h.ms->stats_flush_threshold, 4);
	flush_stats(0, mc.a);
	ck_assert_uint_eq(h.ms->counts.flushes, 0);
	ck_assert_int_eq(sock(mc.a), 0);
	for (i = 0; i < 33; i++)
		update(0, mc.b, 1);
	ck_assert_int_eq(h.ms->stats_flush_threshold, 5);
	/* any memcg's read flushes the whole tree */
	flush_stats(0, mc.a);
	ck_assert_uint_eq(h.ms->counts.flushes, 1);
	ck_assert_int_eq(h.ms->stats_flush_threshold, 0);
	ck_assert_int_eq(sock(mc.a), 4 * 33);
	ck_assert_int_eq(sock(mc.b), 33);
	ck_assert_int_eq(sock(mc.root), 5 * 33);
}
END_TEST

/*
 * stats_updates_atomic: always does the atomic at every crossing (10 for
 * 10 x 33 updates); below_threshold (v6.1) stops once the threshold is
 * past 4: crossings 1-5 add, 6-10 only read.
 */
START_TEST(threshold_global_atomics)
{
	unsigned int i, j;
	const enum kernel_stats_atomic mode[] = {
		STATS_ATOMIC_ALWAYS, STATS_ATOMIC_BELOW_THRESHOLD
	};
	const uint64_t expect[] = { 10, 5 };

	for (j = 0; j < 2; j++) {
		setup_machine(4, STATS_V6_0);
		h.k.stats_updates_atomic = mode[j];
		create();
		for (i = 0; i < 10 * 33; i++)
			update(0, mc.a, 1);
		ck_assert_uint_eq(h.ms->counts.stats_atomics, expect[j]);
		teardown();
	}
}
END_TEST

/*
 * per_memcg (v6.8): every 32 updates on a CPU add 32 to the memcg's and
 * each ancestor's atomic; a memcg needs a flush past 32 x 4 = 128.
 * 128 updates of /a: not yet; 32 more: /a (160) and the root (160) are
 * flushable, /b (0) is not. Reading /b flushes nothing; reading /a
 * flushes /a's subtree and resets /a's count, not the root's. Once a
 * memcg is flushable its atomic is only read: 5 crossings x 2 levels
 * added, the 6th adds nothing to the root.
 */
START_TEST(threshold_per_memcg)
{
	unsigned int i;

	setup_machine(4, STATS_V6_8);
	create();
	for (i = 0; i < 128; i++)
		update(i % 4, mc.a, 1);
	ck_assert_int_eq(mc.a->vmstats.stats_updates, 128);
	flush_stats(0, mc.a);
	ck_assert_uint_eq(h.ms->counts.flushes, 0);
	for (i = 0; i < 32; i++)
		update(1, mc.a, 1);
	ck_assert_int_eq(mc.a->vmstats.stats_updates, 160);
	ck_assert_int_eq(mc.root->vmstats.stats_updates, 160);
	ck_assert_uint_eq(h.ms->counts.stats_atomics, 2 * 5);
	flush_stats(0, mc.b);
	ck_assert_uint_eq(h.ms->counts.flushes, 0);
	flush_stats(0, mc.a);
	ck_assert_uint_eq(h.ms->counts.flushes, 1);
	ck_assert_int_eq(sock(mc.a), 160);
	ck_assert_int_eq(mc.a->vmstats.stats_updates, 0);
	ck_assert_int_eq(mc.root->vmstats.stats_updates, 160);
	ck_assert_int_eq(sock(mc.root), 0); /* not in /a's subtree */
	for (i = 0; i < 32; i++)
		update(2, mc.a, 1);
	/* /a took 32 more; the root, flushable, was only read */
	ck_assert_int_eq(mc.a->vmstats.stats_updates, 32);
	ck_assert_int_eq(mc.root->vmstats.stats_updates, 160);
	ck_assert_uint_eq(h.ms->counts.stats_atomics, 2 * 5 + 1);
	flush_stats(0, NULL); /* NULL: the root */
	ck_assert_uint_eq(h.ms->counts.flushes, 2);
	ck_assert_int_eq(sock(mc.root), 192);
}
END_TEST

/*
 * stats_flush_skip: a flush that finds one ongoing returns (v6.0's
 * trylock). CPU 0 flushes while CPU 1 asks: CPU 1 skips.
 */
START_TEST(flush_skip_when_ongoing)
{
	struct mem_cgroup_flush_stats_frame *f[2];
	unsigned int i;

	setup_machine(4, STATS_V6_0);
	create();
	/* two crossings on each CPU: threshold 8 > 4 */
	for (i = 0; i < 8 * 33; i++)
		update(i % 4, mc.a, 1);
	for (i = 0; i < 2; i++) {
		f[i] = CO_PUSH(&h.proc[i], mem_cgroup_flush_stats);
		f[i]->memcg = mc.a;
	}
	sim_proc_start(&h.proc[0], sim_now(h.e));
	sim_proc_start(&h.proc[1], sim_now(h.e) + 50000);
	sim_engine_run(h.e, sim_now(h.e) + SIM_PS_PER_MS);
	ck_assert(h.proc[0].finished && h.proc[1].finished);
	ck_assert_uint_eq(h.ms->counts.flushes, 1);
	ck_assert_uint_eq(h.ms->counts.flushes_skipped, 1);
	/* CPU 1 returned long before the flush finished */
	ck_assert_uint_lt(h.proc[1].now, h.proc[0].now);
}
END_TEST

/*
 * Ratelimited flushes (an in-kernel reader): the last flush is taken to
 * be at time 0, so with FLUSH_TIME 1 ms a ratelimited flush is due only
 * after 2 ms; once it has flushed, the next is 2 ms after that. Asked at
 * 1 ms: no; 3 ms: yes (next due at 5 ms); 4.5 ms: no; 6.5 ms: yes.
 */
START_TEST(flush_ratelimited)
{
	struct mem_cgroup_flush_stats_ratelimited_frame *f;
	sim_time_t at[] = { 1000 * SIM_PS_PER_US, 3000 * SIM_PS_PER_US,
			    4500 * SIM_PS_PER_US, 6500 * SIM_PS_PER_US };
	uint64_t expect[] = { 0, 1, 1, 2 };
	unsigned int i, j;

	setup_machine(4, STATS_V6_0);
	h.k.stats_flush_period_ms = 1;
	create();
	for (j = 0; j < ARRAY_SIZE(at); j++) {
		/* a flush due by the threshold each time: 5 x 33 updates */
		for (i = 0; i < 5 * 33; i++)
			update(i % 4, mc.a, 1);
		f = CO_PUSH(&h.proc[0], mem_cgroup_flush_stats_ratelimited);
		f->memcg = mc.a;
		h.proc[0].now = at[j];
		sim_proc_start(&h.proc[0], at[j]);
		sim_engine_run(h.e, at[j] + SIM_PS_PER_MS);
		ck_assert(h.proc[0].finished);
		ck_assert_uint_eq(h.ms->counts.flushes, expect[j]);
	}
}
END_TEST

/*
 * The periodic flusher: flush_memcg_stats_dwork() every FLUSH_TIME (1 ms
 * here) after the last one returned, threshold or not: three flushes
 * before 3.5 ms, the first at 1 ms.
 */
START_TEST(flush_periodic)
{
	struct memcg_stats_kworker_frame *f;

	setup_machine(4, STATS_V6_0);
	h.k.stats_flush_period_ms = 1;
	create();
	update(1, mc.a, 1);
	f = CO_PUSH(&h.proc[3], memcg_stats_kworker);
	f->end_ps = 3500 * SIM_PS_PER_US;
	h.proc[3].now = sim_now(h.e);
	sim_proc_start(&h.proc[3], sim_now(h.e));
	sim_engine_run(h.e, 900 * SIM_PS_PER_US);
	ck_assert_uint_eq(h.ms->counts.flushes, 0);
	sim_engine_run(h.e, 4 * SIM_PS_PER_MS);
	ck_assert(h.proc[3].finished);
	ck_assert_uint_eq(h.ms->counts.flushes, 3);
	/* the update below the threshold was flushed anyway */
	ck_assert_int_eq(sock(mc.a), 1);
}
END_TEST

/* ---- the stats error ---- */

/*
 * global: at a read the threshold is at most P (else the read flushes)
 * and each unit of it stands for at most BATCH + 1 single-page updates;
 * each CPU holds at most BATCH more not yet counted. So the error is at
 * most (2 x BATCH + 1) x P, above the kernel comment's "nr_cpus x
 * MEMCG_CHARGE_BATCH": every CPU doing 33 + 32 updates of one counter
 * reaches it exactly, and a read does not flush.
 */
START_TEST(error_bound_global_reached)
{
	unsigned int i, cpu;

	setup_machine(4, STATS_V6_0);
	create();
	for (cpu = 0; cpu < 4; cpu++)
		for (i = 0; i < 2 * BATCH + 1; i++)
			update(cpu, mc.a, 1);
	stat_show(0, mc.a, 2);
	ck_assert_uint_eq(h.ms->counts.flushes, 0);
	ck_assert_int_eq((long)h.ms->counts.error_max, (2 * BATCH + 1) * 4);
	ck_assert_int_gt((long)h.ms->counts.error_max, BATCH * 4);
}
END_TEST

/*
 * Random updates (+1 or -1, on random CPUs and memcgs) with memory.stat
 * reads in between: the error never passes (2 x BATCH + 1) x P with the
 * global threshold, nor (2 x BATCH - 1) x P with per-memcg ones (a
 * memcg's own count is at most BATCH x P unflushed, and each CPU holds
 * at most BATCH - 1); both within the CPUs x batch x memcgs
 * (3 memcgs).
 */
static void error_random(enum kernel_stats_version v, long bound)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct mem_cgroup *m[3];
	unsigned int i;

	gsl_rng_set(r, 7);
	setup_machine(4, v);
	create();
	m[0] = mc.root;
	m[1] = mc.a;
	m[2] = mc.b;
	for (i = 0; i < 6000; i++) {
		unsigned int cpu = (unsigned int)gsl_rng_uniform_int(r, 4);

		if (gsl_rng_uniform_int(r, 50) == 0)
			stat_show(cpu, m[gsl_rng_uniform_int(r, 3)], 2);
		else
			update(cpu, m[1 + gsl_rng_uniform_int(r, 2)],
			       gsl_rng_uniform_int(r, 4) ? 1 : -1);
	}
	gsl_rng_free(r);
	ck_assert_uint_gt(h.ms->counts.error_reads, 100);
	ck_assert_uint_gt(h.ms->counts.flushes, 0);
	ck_assert_msg((long)h.ms->counts.error_max <= bound, "error %.0f > %ld",
		      h.ms->counts.error_max, bound);
	ck_assert((long)h.ms->counts.error_max <= 4 * BATCH * 3);
	/* and something was stale at some read */
	ck_assert(h.ms->counts.error_max > 0);
}

START_TEST(error_bound_global)
{
	error_random(STATS_V6_0, (2 * BATCH + 1) * 4);
}
END_TEST

START_TEST(error_bound_per_memcg)
{
	error_random(STATS_V6_8, (2 * BATCH - 1) * 4);
}
END_TEST

/* ---- reads ---- */

/*
 * v1 memory.stat with no updates: percpu_sum reads 17 local counters on
 * each possible CPU (lines nobody wrote: from memory, once per line per
 * read), so 64 CPUs cost more than 8 by about their ratio; aggregated
 * reads one word per counter, the same on both machines.
 */
static sim_time_t read_cost(unsigned int cpus, enum kernel_local_stats mode)
{
	sim_time_t t;

	setup_machine(cpus, STATS_V6_0);
	h.k.local_stats = mode;
	h.k.cgroup_version = 1;
	create();
	stat_show(0, mc.a, 1);
	stat_show(0, mc.a, 1); /* warm: the aggregated lines are CPU 0's */
	t = h.last_ps;
	teardown();
	return t;
}

START_TEST(read_cost_scales_with_cpus)
{
	sim_time_t sum8 = read_cost(8, LOCAL_PERCPU_SUM);
	sim_time_t sum64 = read_cost(64, LOCAL_PERCPU_SUM);
	sim_time_t agg8 = read_cost(8, LOCAL_AGGREGATED);
	sim_time_t agg64 = read_cost(64, LOCAL_AGGREGATED);

	/*
	 * percpu_sum, per CPU: 17 loads (l1 issue slot or hit) and the
	 * lines of state[] and events[] holding them (3 on this layout,
	 * 100 ns each, 16 in flight): at least 17 ns per CPU.
	 */
	ck_assert_uint_ge(sum64 - sum8, 56 * 17 * L1);
	ck_assert_uint_gt(sum64, 6 * sum8);
	ck_assert_uint_eq(agg8, agg64);
	ck_assert_uint_lt(agg64, sum8);
}
END_TEST

/*
 * The same read on two sockets of one CPU each (CPU 0 reads; CPU 1's
 * copy is on the other node), with one fill buffer and one page walker,
 * memory 100 ns, the other node's @remote_ns, a page walk of @walk_ns.
 */
static const char profile_2s[] = "name: tiny-2s\n"
				 "sockets: 2\n"
				 "cores_per_socket: 1\n"
				 "threads_per_core: 1\n"
				 "latencies:\n"
				 "  l1_hit: {ns: 1, source: test}\n"
				 "  llc_hit: {ns: 10, source: test}\n"
				 "  memory: {ns: 100, source: test}\n"
				 "  memory_remote: {ns: %u, source: test}\n"
				 "  page_walk: {ns: %u, source: test}\n"
				 "  rmw_local: {ns: 10, source: test}\n"
				 "  xfer_socket: {ns: 50, source: test}\n"
				 "  inval_per_sharer: {ns: 1, source: test}\n"
				 "  irq_save_restore: {ns: 5, source: test}\n"
				 "coherence:\n"
				 "  handoff: strict\n"
				 "  fill_buffers: {count: 1, source: test}\n"
				 "  page_walkers: {count: 1, source: test}\n";

/*
 * The cost of a v1 memory.stat read of /a by CPU 0 on profile_2s, and in
 * *@lines the lines of CPU 1's copy it read cold (its cold_seen[] bits).
 * One read: the harness starts a second call at the engine's clock, which
 * may be before the first call's end (run_on()).
 */
static sim_time_t read_cost_2s(unsigned int remote_ns, unsigned int walk_ns,
			       unsigned int *lines)
{
	struct scenario_node *root;
	struct sim_error err;
	char text[sizeof(profile_2s) + 32];
	unsigned int per_cpu, i;
	sim_time_t t;

	memset(&h, 0, sizeof(h));
	snprintf(text, sizeof(text), profile_2s, remote_ns, walk_ns);
	sim_error_clear(&err);
	root = scenario_parse_string("tiny-2s.yaml", text, &err);
	ck_assert_msg(root, "%s", err.msg);
	ck_assert_msg(machine_load(&h.m, root, &err) == 0, "%s", err.msg);
	scenario_free(root);
	harness_setup(NULL, 2, 16384);
	h.k.stats_version = STATS_V6_0;
	h.k.charge_batch = BATCH;
	h.k.lruvec_stat_items = 18;
	h.k.memcg_stat_items = 23;
	h.k.memcg_event_items = 21;
	h.k.stats_flush_threshold = FLUSH_GLOBAL;
	h.k.stats_updates_atomic = STATS_ATOMIC_ALWAYS;
	h.k.local_stats = LOCAL_PERCPU_SUM;
	h.k.stats_flush_skip = true;
	h.k.cgroup_version = 1;
	ck_assert_uint_eq(harness_cgroup("/", -1), CG_ROOT);
	ck_assert_uint_eq(harness_cgroup("/a", CG_ROOT), CG_A);
	ck_assert_uint_eq(harness_cgroup("/b", CG_ROOT), CG_B);
	create();
	stat_show(0, mc.a, 1);
	t = h.last_ps;
	per_cpu = (h.ms->pcpu_sl.l.size + 63) / 64;
	*lines = 0;
	for (i = per_cpu; i < 2 * per_cpu; i++)
		*lines += !!(h.ms->cold_seen[0][i / 8] & (1u << (i % 8)));
	teardown();
	return t;
}

/*
 * v1 memory.stat's per-CPU sums priced as the hardware serves them
 * (issue 29 item 1). The local counters sit on N lines of each CPU's
 * copy (counted from the read's cold_seen[]), each read cold once per read,
 * in the order of the counters and, for each, CPU 0's copy then CPU 1's:
 * 0/L0 (issued at t), 1/L0 (t + 1 ns, an issue slot: CPU 1's first load,
 * a page walk), 0/L1, 1/L1, ..., all issued within 30 ns. The single fill
 * buffer serves them one after the other, 2N fills, so the read ends
 * when the last fill does.
 *
 *  - the other node at 300 ns instead of 100: each of CPU 1's N fills
 *    takes 200 ns more, and every later one waits for it: +200 N ns;
 *  - a 40 ns walk: CPU 1's walk runs from t + 1 to t + 41 ns, while 0/L0
 *    holds the buffer until t + 100: hidden, +0;
 *  - a 150 ns walk ends at t + 151, 51 ns after the buffer is free at
 *    t + 100: every fill from 1/L0 on starts 51 ns later: +51 ns.
 */
START_TEST(read_cost_other_node)
{
	unsigned int n, n2;
	sim_time_t base = read_cost_2s(100, 0, &n);

	ck_assert_uint_gt(n, 0);
	ck_assert_uint_eq(read_cost_2s(300, 0, &n2) - base, 200 * n * L1);
	ck_assert_uint_eq(n2, n);
	ck_assert_uint_eq(read_cost_2s(100, 40, &n2), base);
	ck_assert_uint_eq(read_cost_2s(100, 150, &n2) - base, 51 * L1);
}
END_TEST

static Suite *rstat_suite(void)
{
	Suite *s = suite_create("rstat");
	TCase *tc;

	tc = tcase_create("trees");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, rstat_links_per_cpu);
	tcase_add_test(tc, flush_cost_by_hand_v6_0);
	tcase_add_test(tc, flush_cost_by_hand_v6_0_insns);
	tcase_add_test(tc, flush_cost_by_hand_v6_6);
	tcase_add_test(tc, flush_cost_by_hand_v6_8);
	tcase_add_test(tc, flush_pulls_percpu_line);
	suite_add_tcase(s, tc);

	tc = tcase_create("thresholds");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, threshold_global);
	tcase_add_test(tc, threshold_global_atomics);
	tcase_add_test(tc, threshold_per_memcg);
	tcase_add_test(tc, flush_skip_when_ongoing);
	tcase_add_test(tc, flush_ratelimited);
	tcase_add_test(tc, flush_periodic);
	suite_add_tcase(s, tc);

	tc = tcase_create("error");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, error_bound_global_reached);
	tcase_add_test(tc, error_bound_global);
	tcase_add_test(tc, error_bound_per_memcg);
	suite_add_tcase(s, tc);

	tc = tcase_create("reads");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, read_cost_scales_with_cpus);
	tcase_add_test(tc, read_cost_other_node);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(rstat_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
