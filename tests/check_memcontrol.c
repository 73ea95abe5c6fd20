// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_memcontrol.c - the charge paths of models/kernel/mm/memcontrol.c
 * against mm/memcontrol.c (v6.0): the per-CPU stock (hits, refills,
 * drains, one or two cached memcgs), the root memcg, failure and reclaim
 * at memory.max, the byte-granular obj_cgroup stock, and cgroup v1's
 * tcpmem and memsw counters.
 *
 * The cgroup tree of every test, v6.0 knobs (charge_batch 32, one memcg
 * per stock, v6.0 page_counter layout, cgroup v2):
 *
 *	/ (memcgs[0], never charged directly)
 *	+-- /a
 *	+-- /b
 *
 * Each call runs as a coroutine on simulated CPU 0 (or 1) of skx-2s-72
 * (found under $top_srcdir, set by the Makefile; "." when run by hand);
 * these tests look at what the charge paths do, not at their cost.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/cache.h"
#include "models/kernel/sim/config.h"
#include "models/hw/machine.h"
#include "models/kernel/sim/insn.h"
#include "models/kernel/mm/memcontrol.h"
#include "models/kernel/sim/page_counter_layout.h"
#include "sim/pahole.h"
#include "models/kernel/net/core/sock.h"
#include "sim/co.h"
#include "sim/engine.h"
#include "sim/util.h"
#include "tests/harness.h"
#include "tests/machine_test.h"

#define NR_TEST_CPUS 2

enum { CG_ROOT, CG_A, CG_B, NR_CG };

/* the memcgs of the tree above, once created */
static struct {
	struct mem_cgroup *root, *a, *b;
} mc;

/* The machine, the CPUs and the v6.0 knobs; tests adjust, then create. */
static void setup(void)
{
	harness_setup("skx-2s-72", NR_TEST_CPUS, 8192);
	h.k.charge_batch = 32;
	h.k.stock_memcgs = 1;
	h.k.page_counter_layout = PC_LAYOUT_V6_0;
	h.k.memory_offset = -1;
	h.k.cgroup_version = 2;
	h.k.reclaim_ps = 1000 * SIM_PS_PER_NS;
	h.k.protected_usage_update = PROTECTED_ALWAYS;
	h.k.kmem_accounting = KMEM_OBJECTS;
	ck_assert_uint_eq(harness_cgroup("/", -1), CG_ROOT);
	ck_assert_uint_eq(harness_cgroup("/a", CG_ROOT), CG_A);
	ck_assert_uint_eq(harness_cgroup("/b", CG_ROOT), CG_B);
}

static void create(void)
{
	harness_create();
	mc.root = &h.ms->memcgs[CG_ROOT];
	mc.a = memcg_sim_find(h.ms, "/a");
	mc.b = memcg_sim_find(h.ms, "/b");
	ck_assert_ptr_eq(mc.a, &h.ms->memcgs[CG_A]);
	ck_assert_ptr_eq(mc.b, &h.ms->memcgs[CG_B]);
}

static void teardown(void)
{
	harness_teardown();
}

static long charge(struct mem_cgroup *memcg, unsigned int nr_pages)
{
	return HARNESS_CALL(try_charge, 0, .memcg = memcg, .nr_pages = nr_pages,
			    .gfp_mask = GFP_KERNEL);
}

static struct memcg_stock_pcp *stock(unsigned int cpu)
{
	return &h.ms->stock[cpu];
}

/*
 * try_charge(/a, 1) 40 times on CPU 0, from an empty stock:
 *
 *	call  consume_stock  page_counter_try_charge  stock   /a usage
 *	1     miss           32 (batch), refill 31    31      32
 *	2-32  hit            -                        30..0   32
 *	33    miss (0 < 1)   32, refill 31            31      64
 *	34-40 hit            -                        30..24  64
 *
 * Expect the counts, the stock and the usages at those points; the root
 * counter, the parent of /a's, follows /a; no drain.
 */
START_TEST(try_charge_memcg_stock_hits_and_refills)
{
	static const struct {
		unsigned int call;
		uint64_t hits, pc_try;
		unsigned int stock;
		long usage;
	} at[] = {
		{ 1, 0, 1, 31, 32 },   { 2, 1, 1, 30, 32 },
		{ 32, 31, 1, 0, 32 },  { 33, 31, 2, 31, 64 },
		{ 40, 38, 2, 24, 64 },
	};
	unsigned int call, j = 0;

	create();
	for (call = 1; call <= 40; call++) {
		ck_assert_int_eq(charge(mc.a, 1), 0);
		if (call != at[j].call)
			continue;
		ck_assert_uint_eq(h.ms->counts.charges, call);
		ck_assert_uint_eq(h.ms->counts.stock_hits, at[j].hits);
		ck_assert_uint_eq(h.ms->counts.pc_try_charges, at[j].pc_try);
		ck_assert_ptr_eq(stock(0)->cached[0], mc.a);
		ck_assert_uint_eq(stock(0)->nr_pages[0], at[j].stock);
		ck_assert_int_eq(mc.a->memory.usage, at[j].usage);
		ck_assert_int_eq(mc.root->memory.usage, at[j].usage);
		j++;
	}
	ck_assert_uint_eq(j, ARRAY_SIZE(at));
	ck_assert_uint_eq(h.ms->counts.drains, 0);
	ck_assert_uint_eq(h.ms->counts.failures, 0);
	/* CPU 1's stock was never used */
	ck_assert_ptr_null(stock(1)->cached[0]);
}
END_TEST

/*
 * refill_stock() drains a stock holding more than charge_batch pages.
 * mem_cgroup_charge_skmem(/a, 33): batch = max(32, 33) = 33, nothing
 * left for the stock. Then mem_cgroup_uncharge_skmem(/a, 3) 11 times:
 *
 *	calls 1-10: the stock holds 3, 6, ... 30 (<= 32): /a usage 33
 *	call 11:    33 > 32: drain_stock() uncharges 33: /a usage 0
 *
 * Expect one drain, one page_counter_uncharge(), 11 uncharges, the stock
 * empty and forgetting /a, and the socket pages back to 0.
 */
/*
 * The cost of a stock hit, from the skx-2s-72 profile. The first charge
 * of /a fills CPU 0's stock (31 pages left); the second is a hit:
 *
 *	consume_stock(): local_lock_irqsave/irqrestore   irq_save_restore 9.44 ns
 *	  read stock->cached (CPU 0 owns the line)        l1_hit 1.6 ns
 *	  read stock->nr_pages                            l1_hit 1.6 ns
 *	  write stock->nr_pages                           l1_hit 1.6 ns
 *	try_charge_memcg() returns (fence: nothing pending)
 *
 * 9.44 + 3 x 1.6 = 14.24 ns of memory and interrupts, and no shared line
 * is touched. Its instructions, from models/kernel/sim/insn-costs-6.1.tsv:
 * try_charge_memcg/call 39 (the stock-hit path of try_charge_memcg minus
 * the inlined consume_stock) + consume_stock/call 13 = 52, at the
 * profile's insn latency 0.471 ns (1 / (2.5 GHz x 0.85)): 52 x 0.471 =
 * 24.492 ns. Expect 14.24 + 24.492 = 38.732 ns.
 */
START_TEST(try_charge_memcg_stock_hit_cost)
{
	create();
	ck_assert_int_eq(charge(mc.a, 1), 0);
	ck_assert_int_eq(charge(mc.a, 1), 0);
	ck_assert_uint_eq(h.ms->counts.stock_hits, 1);
	ck_assert_uint_eq(h.m.insn_ps, 471);
	ck_assert_uint_eq(insn_table[INSN_try_charge_memcg].insns, 39);
	ck_assert_uint_eq(insn_table[INSN_consume_stock].insns, 13);
	ck_assert_uint_eq(h.last_ps, 14240 + (39 + 13) * 471);
}
END_TEST

/* ---- the v6.1 layouts against the real binary's ---- */

/*
 * The arrays of struct memcg_vmstats_percpu in the model's stat_layout
 * (memcontrol_internal.h's PA_*, which only the model includes): the
 * v6.8 header first, then state, events, state_prev, events_prev,
 * nr_page_events.
 */
#define PA_STATE_IDX 1
#define PA_EVENTS_IDX 2
#define PA_STATE_PREV_IDX 3
#define PA_EVENTS_PREV_IDX 4
#define PA_NR_PAGE_EVENTS_IDX 5

/* About 20 KiB each: static, not on the stack. */
static struct pahole_struct ph_pc, ph_memcg, ph_css, ph_stock, ph_objcg,
	ph_pcpu, ph_vmstats, ph_lpcpu, ph_lstats, ph_sock;

/*
 * scenarios/layouts/STRUCT-v6.1.txt: what pahole printed for Debian 12's
 * Linux 6.1 vmlinux (tools/extract-layouts.sh), under $top_srcdir.
 */
static void layout_load(struct pahole_struct *ps, const char *name)
{
	const char *top = getenv("top_srcdir");
	struct sim_error err;
	char path[512];

	snprintf(path, sizeof(path), "%s/scenarios/layouts/%s-v6.1.txt",
		 top && top[0] ? top : ".", name);
	ck_assert_msg(pahole_load(path, name, ps, &err) == 0,
		      "%s: %s:%u:%u: %s", path, err.file, err.line, err.col,
		      err.msg);
}

static unsigned int ph_off(const struct pahole_struct *ps, const char *name)
{
	const struct pahole_field *f = pahole_field(ps, name);

	ck_assert_msg(f, "struct %s has no member %s", ps->name, name);
	return f->offset;
}

static const struct coh_layout_field *layout_field(const struct coh_layout *l,
						   const char *name)
{
	unsigned int i;

	for (i = 0; i < l->nr_fields; i++)
		if (!strcmp(l->fields[i].name, name))
			return &l->fields[i];
	ck_abort_msg("layout %s has no field %s", l->name, name);
	return NULL;
}

/* The model's field @name of @l is at the pahole member's offset, size. */
static void same_field(const struct coh_layout *l, const char *name,
		       const struct pahole_struct *ps)
{
	const struct coh_layout_field *f = layout_field(l, name);
	const struct pahole_field *pf = pahole_field(ps, name);

	ck_assert_msg(pf, "struct %s has no member %s", ps->name, name);
	ck_assert_msg(f->offset == pf->offset && f->size == pf->size,
		      "%s.%s: model %u+%u, pahole %u+%u", l->name, name,
		      f->offset, f->size, pf->offset, pf->size);
}

/* A statistics array @a of the model starts at the pahole member's offset. */
static void same_array(const struct stat_layout *sl, unsigned int a,
		       const struct pahole_struct *ps, const char *name)
{
	const struct pahole_field *pf = pahole_field(ps, name);

	ck_assert_msg(pf, "struct %s has no member %s", ps->name, name);
	ck_assert_msg(sl->a[a].off == pf->offset && 8 * sl->a[a].n == pf->size,
		      "%s.%s: model %u+%u, pahole %u+%u", sl->l.name, name,
		      sl->a[a].off, 8 * sl->a[a].n, pf->offset, pf->size);
}

/*
 * The real offset of a modelled member of struct mem_cgroup, "memory.usage"
 * style: the page_counter's offset in mem_cgroup plus the member's in
 * page_counter; css.parent is css's plus cgroup_subsys_state's parent.
 */
static unsigned int memcg_real_off(const char *name)
{
	static const char *const pcs[] = { "memory", "swap", "kmem" };
	const char *dot = strchr(name, '.');
	unsigned int i;

	if (!strcmp(name, "css.parent"))
		return ph_off(&ph_memcg, "css") + ph_off(&ph_css, "parent");
	for (i = 0; dot && i < ARRAY_SIZE(pcs); i++)
		if (!strncmp(name, pcs[i], (size_t)(dot - name)) &&
		    strlen(pcs[i]) == (size_t)(dot - name))
			return ph_off(&ph_memcg, pcs[i]) +
			       ph_off(&ph_pc, dot + 1);
	return ph_off(&ph_memcg, name);
}

/*
 * The model's hand-derived v6.1 layouts against pahole's, for the
 * configuration of Linux 6.1 (MEMCG_NR_STAT 50, NR_MEMCG_EVENTS 17,
 * NR_VM_NODE_STAT_ITEMS 43: the array sizes pahole printed):
 *
 *  - struct page_counter (page_counter_layout: v6.1), memcg_stock_pcp,
 *    obj_cgroup and the four statistics structs: every modelled member
 *    at pahole's offset and size, and the sizes equal;
 *  - struct sock: the two members the model keeps (sk_forward_alloc, a
 *    counter private to its socket's lock owner, and sk_memcg, set once)
 *    exist with the model's C types' sizes; the model places neither in
 *    memory, and in v6.1 they sit 400 bytes apart, on different lines;
 *  - struct mem_cgroup, of which the model lays out only what it touches
 *    (it starts the object at a line boundary, not at css): every pair of
 *    modelled members shares a cache line in the model exactly when it
 *    does in the binary, and page counters are 192 bytes apart as there.
 */
START_TEST(layouts_match_pahole_v6_1)
{
	const struct coh_layout *ml;
	unsigned int i, j;

	layout_load(&ph_pc, "page_counter");
	layout_load(&ph_memcg, "mem_cgroup");
	layout_load(&ph_css, "cgroup_subsys_state");
	layout_load(&ph_stock, "memcg_stock_pcp");
	layout_load(&ph_objcg, "obj_cgroup");
	layout_load(&ph_pcpu, "memcg_vmstats_percpu");
	layout_load(&ph_vmstats, "memcg_vmstats");
	layout_load(&ph_lpcpu, "lruvec_stats_percpu");
	layout_load(&ph_lstats, "lruvec_stats");

	h.k.page_counter_layout = PC_LAYOUT_V6_1;
	h.k.stats_version = STATS_V6_0; /* v6.1's statistics are v6.0's */
	h.k.memcg_stat_items = 50;
	h.k.memcg_event_items = 17;
	h.k.lruvec_stat_items = 43;
	create();

	ck_assert_uint_eq(page_counter_layout_v6_1.size, ph_pc.size);
	for (i = 0; i < NR_PC_MEMBERS; i++)
		ck_assert_msg(page_counter_layout_v6_1.offset[i] ==
				      ph_off(&ph_pc,
					     page_counter_member_names[i]),
			      "page_counter.%s", page_counter_member_names[i]);

	for (i = 0; i < h.ms->stock_layout.nr_fields; i++)
		same_field(&h.ms->stock_layout,
			   h.ms->stock_layout.fields[i].name, &ph_stock);
	for (i = 0; i < h.ms->objcg_layout.nr_fields; i++)
		same_field(&h.ms->objcg_layout,
			   h.ms->objcg_layout.fields[i].name, &ph_objcg);

	same_array(&h.ms->pcpu_sl, PA_STATE_IDX, &ph_pcpu, "state");
	same_array(&h.ms->pcpu_sl, PA_EVENTS_IDX, &ph_pcpu, "events");
	same_array(&h.ms->pcpu_sl, PA_STATE_PREV_IDX, &ph_pcpu, "state_prev");
	same_array(&h.ms->pcpu_sl, PA_EVENTS_PREV_IDX, &ph_pcpu, "events_prev");
	same_array(&h.ms->pcpu_sl, PA_NR_PAGE_EVENTS_IDX, &ph_pcpu,
		   "nr_page_events");
	ck_assert_uint_eq(h.ms->pcpu_sl.l.size, ph_pcpu.size);
	same_array(&h.ms->vmstats_sl, 0, &ph_vmstats, "state");
	same_array(&h.ms->vmstats_sl, 1, &ph_vmstats, "events");
	same_array(&h.ms->vmstats_sl, 4, &ph_vmstats, "state_pending");
	same_array(&h.ms->vmstats_sl, 5, &ph_vmstats, "events_pending");
	ck_assert_uint_eq(h.ms->vmstats_sl.l.size, ph_vmstats.size);
	same_array(&h.ms->lruvec_pcpu_sl, 0, &ph_lpcpu, "state");
	same_array(&h.ms->lruvec_pcpu_sl, 1, &ph_lpcpu, "state_prev");
	ck_assert_uint_eq(h.ms->lruvec_pcpu_sl.l.size, ph_lpcpu.size);
	same_array(&h.ms->lruvec_sl, 0, &ph_lstats, "state");
	same_array(&h.ms->lruvec_sl, 2, &ph_lstats, "state_pending");
	ck_assert_uint_eq(h.ms->lruvec_sl.l.size, ph_lstats.size);

	layout_load(&ph_sock, "sock");
	ck_assert_uint_eq(pahole_field(&ph_sock, "sk_forward_alloc")->size,
			  sizeof(((struct sock *)0)->sk_forward_alloc));
	ck_assert_uint_eq(pahole_field(&ph_sock, "sk_memcg")->size,
			  sizeof(((struct sock *)0)->sk_memcg));
	ck_assert_uint_ne(ph_off(&ph_sock, "sk_forward_alloc") / 64,
			  ph_off(&ph_sock, "sk_memcg") / 64);

	ml = &h.ms->memcg_layout;
	ck_assert_uint_eq(ph_off(&ph_memcg, "kmem") - ph_off(&ph_memcg, "swap"),
			  192);
	ck_assert_uint_eq(
		ph_off(&ph_memcg, "swap") - ph_off(&ph_memcg, "memory"), 192);
	for (i = 0; i < ml->nr_fields; i++) {
		for (j = i + 1; j < ml->nr_fields; j++) {
			const struct coh_layout_field *a = &ml->fields[i];
			const struct coh_layout_field *b = &ml->fields[j];
			bool model = a->offset / 64 == b->offset / 64;
			bool real = memcg_real_off(a->name) / 64 ==
				    memcg_real_off(b->name) / 64;

			ck_assert_msg(
				model == real,
				"mem_cgroup %s and %s: %s line in the model (%u, %u), %s in v6.1 (%u, %u)",
				a->name, b->name, model ? "one" : "two",
				a->offset, b->offset, real ? "one" : "two",
				memcg_real_off(a->name),
				memcg_real_off(b->name));
		}
	}
}
END_TEST

START_TEST(refill_stock_drains_over_batch)
{
	unsigned int i;
	long ret;

	create();
	ret = HARNESS_CALL(mem_cgroup_charge_skmem, 0, .memcg = mc.a,
			   .nr_pages = 33, .gfp_mask = GFP_KERNEL);
	ck_assert_int_eq(ret, true);
	ck_assert_int_eq(mc.a->memory.usage, 33);
	ck_assert_ptr_null(stock(0)->cached[0]);
	for (i = 1; i <= 10; i++) {
		HARNESS_CALL(mem_cgroup_uncharge_skmem, 0, .memcg = mc.a,
			     .nr_pages = 3);
		ck_assert_uint_eq(stock(0)->nr_pages[0], 3 * i);
	}
	ck_assert_int_eq(mc.a->memory.usage, 33);
	ck_assert_uint_eq(h.ms->counts.drains, 0);

	HARNESS_CALL(mem_cgroup_uncharge_skmem, 0, .memcg = mc.a,
		     .nr_pages = 3);
	ck_assert_int_eq(mc.a->memory.usage, 0);
	ck_assert_int_eq(mc.root->memory.usage, 0);
	ck_assert_uint_eq(h.ms->counts.drains, 1);
	ck_assert_uint_eq(h.ms->counts.pc_uncharges, 1);
	ck_assert_uint_eq(h.ms->counts.uncharges, 11);
	ck_assert_uint_eq(stock(0)->nr_pages[0], 0);
	ck_assert_ptr_null(stock(0)->cached[0]);
	ck_assert_int_eq(mc.a->sock_pages, 0);
	ck_assert_uint_eq(mc.a->memory.nr_warn, 0);
}
END_TEST

/*
 * A refill for another memcg. try_charge(/a, 1) then try_charge(/b, 1)
 * on CPU 0; each charges a batch of 32 and refills 31.
 *
 *	stock_memcgs 1 (_i 0, v6.0): refilling /b drains /a's 31 pages:
 *	    /a usage 1, /b 32, root 33; the stock caches /b with 31
 *	stock_memcgs 2 (_i 1): /b takes the free slot, nothing drained:
 *	    /a 32, /b 32, root 64; a third charge of /a is a stock hit
 */
START_TEST(refill_stock_other_memcg)
{
	bool two = _i;

	h.k.stock_memcgs = two ? 2 : 1;
	create();
	ck_assert_int_eq(charge(mc.a, 1), 0);
	ck_assert_int_eq(charge(mc.b, 1), 0);
	ck_assert_int_eq(mc.b->memory.usage, 32);
	ck_assert_uint_eq(h.ms->counts.pc_try_charges, 2);
	if (!two) {
		ck_assert_int_eq(mc.a->memory.usage, 1);
		ck_assert_int_eq(mc.root->memory.usage, 33);
		ck_assert_uint_eq(h.ms->counts.drains, 1);
		ck_assert_ptr_eq(stock(0)->cached[0], mc.b);
		ck_assert_uint_eq(stock(0)->nr_pages[0], 31);
		return;
	}
	ck_assert_int_eq(mc.a->memory.usage, 32);
	ck_assert_int_eq(mc.root->memory.usage, 64);
	ck_assert_uint_eq(h.ms->counts.drains, 0);
	ck_assert_ptr_eq(stock(0)->cached[0], mc.a);
	ck_assert_uint_eq(stock(0)->nr_pages[0], 31);
	ck_assert_ptr_eq(stock(0)->cached[1], mc.b);
	ck_assert_uint_eq(stock(0)->nr_pages[1], 31);

	ck_assert_int_eq(charge(mc.a, 1), 0);
	ck_assert_uint_eq(h.ms->counts.stock_hits, 1);
	ck_assert_uint_eq(h.ms->counts.pc_try_charges, 2);
	ck_assert_uint_eq(stock(0)->nr_pages[0], 30);
}
END_TEST

/*
 * A stock switch between two memcgs: try_charge() of one page for /a,
 * /b, /a, /b on CPU 0 (what a sender's CPU does when its own socket and
 * the receiver's belong to different memcgs). Each miss charges a batch
 * of 32 and refills the stock with 31.
 *
 *	stock_memcgs 1 (_i 0): the first refill fills the empty slot; each
 *	    later one finds the other memcg cached: 3 switches, each
 *	    draining 31 pages (3 drains), 4 page-counter charges. /a: 32,
 *	    drained to 1, +32 = 33, drained to 2; /b: 32, drained to 1, +32
 *	    = 33 (31 of them in the stock). Each memcg: 2 charges, 2 refills.
 *	stock_memcgs 2 (_i 1): /b takes the free slot, the third and fourth
 *	    charges are stock hits: no switch, no drain, 2 page-counter
 *	    charges; each memcg 2 charges, 1 refill.
 */
START_TEST(stock_switch_two_memcgs)
{
	const struct memcg_stock_sim *s;
	bool two = _i;

	h.k.stock_memcgs = two ? 2 : 1;
	create();
	ck_assert_int_eq(charge(mc.a, 1), 0);
	ck_assert_int_eq(charge(mc.b, 1), 0);
	ck_assert_int_eq(charge(mc.a, 1), 0);
	ck_assert_int_eq(charge(mc.b, 1), 0);
	s = &stock(0)->sim;
	ck_assert_uint_eq(s->nr_used, 2);
	ck_assert_ptr_eq(s->used[0].memcg, mc.a);
	ck_assert_ptr_eq(s->used[1].memcg, mc.b);
	ck_assert_uint_eq(s->used[0].charges, 2);
	ck_assert_uint_eq(s->used[1].charges, 2);
	ck_assert_uint_eq(s->used_other, 0);
	ck_assert_uint_eq(stock(1)->sim.nr_used, 0);
	if (!two) {
		ck_assert_uint_eq(s->switches, 3);
		ck_assert_uint_eq(s->drains, 3);
		ck_assert_uint_eq(s->used[0].refills, 2);
		ck_assert_uint_eq(s->used[1].refills, 2);
		ck_assert_uint_eq(h.ms->counts.pc_try_charges, 4);
		ck_assert_int_eq(mc.a->memory.usage, 2);
		ck_assert_int_eq(mc.b->memory.usage, 33);
		ck_assert_ptr_eq(stock(0)->cached[0], mc.b);
		ck_assert_uint_eq(stock(0)->nr_pages[0], 31);
	} else {
		ck_assert_uint_eq(s->switches, 0);
		ck_assert_uint_eq(s->drains, 0);
		ck_assert_uint_eq(s->used[0].refills, 1);
		ck_assert_uint_eq(s->used[1].refills, 1);
		ck_assert_uint_eq(h.ms->counts.pc_try_charges, 2);
		ck_assert_int_eq(mc.a->memory.usage, 32);
		ck_assert_int_eq(mc.b->memory.usage, 32);
	}
	/* the end of the warm-up forgets them */
	memcg_sim_reset_counts(h.ms);
	ck_assert_uint_eq(stock(0)->sim.nr_used, 0);
	ck_assert_uint_eq(stock(0)->sim.switches, 0);
}
END_TEST

/*
 * try_charge(root, 5): the root memcg is never charged.
 * Expect 0, no charge counted, root usage 0, an untouched stock, no
 * simulated time and not one access to any line.
 */
START_TEST(try_charge_root_not_charged)
{
	unsigned int i, n;
	struct coh_line **lines;
	uint64_t ops = 0;

	create();
	ck_assert_int_eq(charge(mc.root, 5), 0);
	ck_assert_uint_eq(h.ms->counts.charges, 0);
	ck_assert_uint_eq(h.ms->counts.pc_try_charges, 0);
	ck_assert_int_eq(mc.root->memory.usage, 0);
	ck_assert_ptr_null(stock(0)->cached[0]);
	ck_assert_uint_eq(h.last_ps, 0);

	n = coh_nr_lines(h.coh);
	lines = calloc(n, sizeof(*lines));
	ck_assert_ptr_nonnull(lines);
	coh_lines_sorted(h.coh, lines, n);
	for (i = 0; i < n; i++)
		ops += lines[i]->ops[COH_READ] + lines[i]->ops[COH_WRITE] +
		       lines[i]->ops[COH_RMW];
	free(lines);
	ck_assert_uint_eq(ops, 0);
}
END_TEST

/*
 * /a memory.max = 4 pages, nothing reclaimable; try_charge(/a, 8,
 * GFP_KERNEL). Every page_counter_try_charge() fails at /a:
 *
 *	1      batch 32: fails; batch = nr_pages = 8, retry
 *	2      fails; reclaim frees 0; margin 4 < 8; not drained: retry
 *	3      fails; reclaim 0; drained; nr_reclaimed 0; retries 16 -> 15
 *	4..18  the same, retries 15 .. 1 -> 14 .. 0
 *	19     fails; retries 0: no retry. No OOM killer: -ENOMEM
 *
 * Expect -ENOMEM, one failure, 19 page_counter_try_charge() calls and
 * /a.failcnt 19 (the kernel counts every failed try the same way), no
 * usage anywhere, nothing reclaimed, nothing in the stock.
 */
START_TEST(try_charge_memcg_nomem)
{
	h.cg[CG_A].max = 4 * PAGE_SIZE;
	create();
	ck_assert_int_eq(charge(mc.a, 8), -ENOMEM);
	ck_assert_int_eq(h.proc[0].ret, -ENOMEM);
	ck_assert_uint_eq(h.ms->counts.failures, 1);
	ck_assert_uint_eq(h.ms->counts.charges, 1);
	ck_assert_uint_eq(h.ms->counts.pc_try_charges, 19);
	ck_assert_uint_eq(mc.a->memory.failcnt, 19);
	ck_assert_uint_eq(mc.a->nr_failed, 1);
	ck_assert_int_eq(mc.a->memory.usage, 0);
	ck_assert_int_eq(mc.root->memory.usage, 0);
	ck_assert_uint_eq(h.ms->counts.reclaimed, 0);
	ck_assert_ptr_null(stock(0)->cached[0]);
}
END_TEST

/*
 * /a memory.max = 40 pages, 10 of them reclaimable. try_charge(/a, 40)
 * fills it exactly (batch 40, no refill). Then try_charge(/a, 1):
 *
 *	batch 32: 72 > 40 fails; batch 1: 41 > 40 fails  (failcnt 2)
 *	reclaim max(1, SWAP_CLUSTER_MAX 32) pages: takes all 10 of /a:
 *	    usage 30, at reclaim_ps each
 *	margin 40 - 30 = 10 >= 1: retry; batch is still 1: 31, no refill
 *
 * Expect 0, reclaimed 10, failcnt 2, 4 page_counter_try_charge() calls
 * in all, /a and root usage 31, no failure, and at least 10 x 1 us spent.
 */
START_TEST(try_charge_memcg_reclaims)
{
	h.cg[CG_A].max = 40 * PAGE_SIZE;
	h.cg[CG_A].reclaimable = 10 * PAGE_SIZE;
	create();
	ck_assert_uint_eq(mc.a->reclaimable, 10);
	ck_assert_int_eq(charge(mc.a, 40), 0);
	ck_assert_int_eq(mc.a->memory.usage, 40);

	ck_assert_int_eq(charge(mc.a, 1), 0);
	ck_assert_uint_eq(h.ms->counts.reclaimed, 10);
	ck_assert_uint_eq(mc.a->nr_reclaimed, 10);
	ck_assert_uint_eq(mc.a->reclaimable, 0);
	ck_assert_uint_eq(mc.a->memory.failcnt, 2);
	ck_assert_uint_eq(h.ms->counts.pc_try_charges, 4);
	ck_assert_uint_eq(h.ms->counts.failures, 0);
	ck_assert_int_eq(mc.a->memory.usage, 31);
	ck_assert_int_eq(mc.root->memory.usage, 31);
	ck_assert_ptr_null(stock(0)->cached[0]);
	ck_assert_uint_ge(h.last_ps, 10 * h.k.reclaim_ps);
}
END_TEST

/*
 * The obj_cgroup stock, 100-byte objects of /a on CPU 0:
 *
 *	charge 1      obj stock misses: 1 page through try_charge() (a batch
 *	              of 32 to the counters, 31 to the page stock);
 *	              refill_obj_stock(4096 - 100 = 3996): 3996 bytes
 *	charges 2-40  hits: 3996 - 39 x 100 = 96 bytes left
 *	charge 41     96 < 100: one more page, now a page stock hit (30
 *	              left); 96 + 3996 = 4092 bytes
 *	uncharge 1    4092 + 100 = 4192 > 4096: 1 page back through
 *	              refill_stock() (page stock 31), 96 bytes kept
 *	uncharges 2-41  96 + 40 x 100 = 4096, not > 4096: kept as bytes
 *
 * Expect 2 try_charge() calls, one page_counter_try_charge(), /a usage
 * 32 throughout (the pages stay in the stocks), no drain.
 */
START_TEST(obj_cgroup_charge_stock)
{
	struct obj_cgroup *objcg;
	unsigned int i;

	create();
	objcg = &mc.a->objcg;
	HARNESS_CALL(obj_cgroup_charge, 0, .objcg = &mc.a->objcg, .size = 100);
	ck_assert_uint_eq(h.ms->counts.charges, 1);
	ck_assert_uint_eq(h.ms->counts.pc_try_charges, 1);
	ck_assert_ptr_eq(stock(0)->cached_objcg, objcg);
	ck_assert_uint_eq(stock(0)->nr_bytes, 3996);
	ck_assert_uint_eq(stock(0)->nr_pages[0], 31);
	ck_assert_int_eq(mc.a->memory.usage, 32);

	for (i = 2; i <= 40; i++)
		HARNESS_CALL(obj_cgroup_charge, 0, .objcg = &mc.a->objcg,
			     .size = 100);
	ck_assert_uint_eq(h.ms->counts.charges, 1);
	ck_assert_uint_eq(stock(0)->nr_bytes, 96);

	HARNESS_CALL(obj_cgroup_charge, 0, .objcg = &mc.a->objcg, .size = 100);
	ck_assert_uint_eq(h.ms->counts.charges, 2);
	ck_assert_uint_eq(h.ms->counts.stock_hits, 1);
	ck_assert_uint_eq(h.ms->counts.pc_try_charges, 1);
	ck_assert_uint_eq(stock(0)->nr_bytes, 4092);
	ck_assert_uint_eq(stock(0)->nr_pages[0], 30);

	HARNESS_CALL(obj_cgroup_uncharge, 0, .objcg = &mc.a->objcg,
		     .size = 100);
	ck_assert_uint_eq(stock(0)->nr_bytes, 96);
	ck_assert_uint_eq(stock(0)->nr_pages[0], 31);
	ck_assert_uint_eq(h.ms->counts.uncharges, 1);

	for (i = 2; i <= 41; i++)
		HARNESS_CALL(obj_cgroup_uncharge, 0, .objcg = &mc.a->objcg,
			     .size = 100);
	ck_assert_uint_eq(stock(0)->nr_bytes, 4096);
	ck_assert_uint_eq(stock(0)->nr_pages[0], 31);
	ck_assert_int_eq(mc.a->memory.usage, 32);
	ck_assert_uint_eq(h.ms->counts.drains, 0);
	ck_assert_ptr_eq(stock(0)->cached_objcg, objcg);
}
END_TEST

/*
 * MODEL BUG (models/kernel/mm/memcontrol.c, refill_obj_stock()): when the stock
 * changes objcg, v6.0 sets allow_uncharge = true ("Allow uncharge when
 * objcg changes", since v5.14), so bytes taken over from
 * objcg->nr_charged_bytes plus the refill go back as whole pages at once.
 * The model keeps f->ok false on that path. This test fails until the
 * model does the same.
 *
 *	charge /a 100   obj stock /a: 3996 bytes; page stock /a: 31
 *	charge /b 100   page stock: refilling /b drains /a's 31;
 *	                obj stock: /a's 3996 go to a.objcg.nr_charged_bytes;
 *	                obj stock /b: 3996
 *	charge /a 200   page stock: /a again (32 charged, /b drained, 31
 *	                in the stock); refill_obj_stock(/a, 3896, false):
 *	                /b's 3996 bytes to b.objcg; take a.objcg's 3996:
 *	                3996 + 3896 = 7892 > 4096 and allow_uncharge: 1 page
 *	                back through refill_stock(): page stock 32, 3796 bytes
 *
 * Expect 3796 bytes and 32 pages (the model gives 7892 and 31); /a usage
 * 33 either way.
 */
START_TEST(refill_obj_stock_objcg_change_allows_uncharge)
{
	create();
	HARNESS_CALL(obj_cgroup_charge, 0, .objcg = &mc.a->objcg, .size = 100);
	HARNESS_CALL(obj_cgroup_charge, 0, .objcg = &mc.b->objcg, .size = 100);
	ck_assert_int_eq(mc.a->objcg.nr_charged_bytes, 3996);
	ck_assert_int_eq(mc.a->memory.usage, 1);
	ck_assert_uint_eq(stock(0)->nr_bytes, 3996);

	HARNESS_CALL(obj_cgroup_charge, 0, .objcg = &mc.a->objcg, .size = 200);
	ck_assert_int_eq(mc.a->objcg.nr_charged_bytes, 0);
	ck_assert_int_eq(mc.b->objcg.nr_charged_bytes, 3996);
	ck_assert_int_eq(mc.a->memory.usage, 33);
	ck_assert_int_eq(mc.b->memory.usage, 1);
	ck_assert_ptr_eq(stock(0)->cached_objcg, &mc.a->objcg);
	ck_assert_ptr_eq(stock(0)->cached[0], mc.a);
	ck_assert_uint_eq(stock(0)->nr_bytes, 3796);
	ck_assert_uint_eq(stock(0)->nr_pages[0], 32);
}
END_TEST

/*
 * mem_cgroup_under_socket_pressure(/a) on CPU 0, every line cold (nobody
 * has touched the memcgs yet):
 *
 *	level  load                 kind                    CPU waits
 *	/a     socket_pressure      posted miss (memory)    l1_hit (issue)
 *	/a     css.parent           dependent miss          memory
 *	/      socket_pressure      posted miss (memory)    l1_hit (issue)
 *	/      css.parent           dependent miss          memory
 *
 * The walk is a pointer chase: the next level's loads cannot issue before
 * css.parent has returned, so the second level waits for the first
 * level's css.parent from memory (skx-2s-72: memory 81.4 ns); the posted
 * loads of socket_pressure overlap it, costing only their issue slot
 * (l1_hit, 1.6 ns: models/hw/cache.c). Each level runs
 * mem_cgroup_under_socket_pressure/level's 12 instructions
 * (models/kernel/sim/insn-costs-6.1.tsv) at 0.471 ns, 5.652 ns: the
 * reorder buffer (skx-2s-72: 224 micro-ops x 0.471 = 105.5 ns) runs the
 * first level's under its css.parent load. The second level's css.parent
 * is still in flight when the function returns: the caller's branch on
 * it is predicted, and the CPU goes on within the window (its next
 * access waits for the value). So: css.parent of /a issued at 1.6,
 * back at 1.6 + 81.4 = 83.0; the second level's two issue slots, 3.2,
 * and its instructions, 5.652: 91.852 ns. Without the window each level
 * waits for its css.parent: 2 x (1.6 + 81.4) + 2 x 5.652 = 177.304 ns;
 * with css.parent posted like any load, 4 x 1.6 + 2 x 5.652.
 */
START_TEST(mem_cgroup_under_socket_pressure_walk_is_dependent)
{
	create();
	ck_assert_int_eq(HARNESS_CALL(mem_cgroup_under_socket_pressure, 0,
				      .memcg = mc.a),
			 false);
	ck_assert_uint_eq(h.m.memory_ps, 81400);
	ck_assert_uint_eq(h.m.l1_hit_ps, 1600);
	ck_assert_uint_eq(h.m.rob_uops, 224);
	ck_assert_uint_eq(h.last_ps, 1600 + 81400 + 2 * 1600 + 12 * 471);
}
END_TEST

/*
 * cgroup v1 with tcpmem_active (memory.kmem.tcp.limit_in_bytes written):
 * socket memory goes to memcg->tcpmem alone, unbatched (v6.0's v1 branch
 * of mem_cgroup_charge_skmem(); memcg1_charge_skmem() since v6.11).
 * mem_cgroup_charge_skmem(/a, 3) twice on CPU 0:
 *
 *	call  page_counter_try_charge(tcpmem)  /a tcpmem  root tcpmem
 *	1     3 pages (no batch, no stock)     3          0
 *	2     3                                6          0
 *
 * root stays 0: on v1 the root's use_hierarchy is 0 (v4.x), so /a's
 * counters have no parent. No try_charge_memcg(): charges 0, memory 0,
 * the stock empty, no MEMCG_SOCK (sock_pages 0). Then
 * mem_cgroup_uncharge_skmem(/a, 6): tcpmem 0 in one page_counter_uncharge,
 * nothing to the stock.
 */
START_TEST(v1_tcpmem_charges_unbatched)
{
	h.k.cgroup_version = 1;
	h.k.tcpmem_active = true;
	create();
	ck_assert_int_eq(HARNESS_CALL(mem_cgroup_charge_skmem, 0, .memcg = mc.a,
				      .nr_pages = 3, .gfp_mask = GFP_KERNEL),
			 true);
	ck_assert_int_eq(mc.a->tcpmem.usage, 3);
	ck_assert_int_eq(HARNESS_CALL(mem_cgroup_charge_skmem, 0, .memcg = mc.a,
				      .nr_pages = 3, .gfp_mask = GFP_KERNEL),
			 true);
	ck_assert_int_eq(mc.a->tcpmem.usage, 6);
	ck_assert_int_eq(mc.root->tcpmem.usage, 0);
	ck_assert_int_eq(mc.a->memory.usage, 0);
	ck_assert_uint_eq(h.ms->counts.pc_try_charges, 2);
	ck_assert_uint_eq(h.ms->counts.charges, 0);
	ck_assert_ptr_null(stock(0)->cached[0]);
	ck_assert_int_eq(mc.a->sock_pages, 0);

	HARNESS_CALL(mem_cgroup_uncharge_skmem, 0, .memcg = mc.a,
		     .nr_pages = 6);
	ck_assert_int_eq(mc.a->tcpmem.usage, 0);
	ck_assert_uint_eq(h.ms->counts.pc_uncharges, 1);
	ck_assert_ptr_null(stock(0)->cached[0]);
	ck_assert_uint_eq(stock(0)->nr_pages[0], 0);
}
END_TEST

/*
 * v1's tcpmem limit and tcpmem_pressure, /a's tcpmem.max = 4 pages:
 *
 *	call                          returns  tcpmem  tcpmem_pressure
 *	charge 3, GFP_KERNEL          true     3       0
 *	charge 3, GFP_KERNEL          false    3       1 (3 + 3 > 4)
 *	charge 3, __GFP_NOFAIL        true     6       1 (page_counter_charge)
 *	uncharge 6                    -        0       1
 *	charge 1, GFP_KERNEL          true     1       0
 *
 * mem_cgroup_under_socket_pressure(/a) on v1 is !!tcpmem_pressure of /a
 * alone: true after the failure, false after the last charge.
 */
START_TEST(v1_tcpmem_limit_sets_pressure)
{
	h.k.cgroup_version = 1;
	h.k.tcpmem_active = true;
	create();
	mc.a->tcpmem.max = 4;
	ck_assert_int_eq(HARNESS_CALL(mem_cgroup_charge_skmem, 0, .memcg = mc.a,
				      .nr_pages = 3, .gfp_mask = GFP_KERNEL),
			 true);
	ck_assert_int_eq(mc.a->tcpmem_pressure, 0);
	ck_assert_int_eq(HARNESS_CALL(mem_cgroup_charge_skmem, 0, .memcg = mc.a,
				      .nr_pages = 3, .gfp_mask = GFP_KERNEL),
			 false);
	ck_assert_int_eq(mc.a->tcpmem.usage, 3);
	ck_assert_int_eq(mc.a->tcpmem_pressure, 1);
	ck_assert_int_eq(HARNESS_CALL(mem_cgroup_under_socket_pressure, 0,
				      .memcg = mc.a),
			 true);
	ck_assert_int_eq(HARNESS_CALL(mem_cgroup_charge_skmem, 0, .memcg = mc.a,
				      .nr_pages = 3,
				      .gfp_mask = GFP_KERNEL | __GFP_NOFAIL),
			 true);
	ck_assert_int_eq(mc.a->tcpmem.usage, 6);
	HARNESS_CALL(mem_cgroup_uncharge_skmem, 0, .memcg = mc.a,
		     .nr_pages = 6);
	ck_assert_int_eq(mc.a->tcpmem.usage, 0);
	ck_assert_int_eq(mc.a->tcpmem_pressure, 1);
	ck_assert_int_eq(HARNESS_CALL(mem_cgroup_charge_skmem, 0, .memcg = mc.a,
				      .nr_pages = 1, .gfp_mask = GFP_KERNEL),
			 true);
	ck_assert_int_eq(mc.a->tcpmem_pressure, 0);
	ck_assert_int_eq(HARNESS_CALL(mem_cgroup_under_socket_pressure, 0,
				      .memcg = mc.a),
			 false);
	ck_assert_int_eq(mc.a->memory.usage, 0);
}
END_TEST

/*
 * cgroup v1 with swap accounting (do_memsw_account()): memsw is charged
 * beside memory, first, with the same batch (v6.0 try_charge_memcg()).
 * /a is top level, so on v1 (root use_hierarchy 0) each of its counters is
 * one level. try_charge(/a, 1) 33 times on CPU 0, one of the two counters
 * at max 40 pages (_i 0: memsw.max, 1: memory.max):
 *
 *	call  memsw                memory               stock
 *	1     try 32: 32           try 32: 32           31
 *	2-32  (hits)                                    30..0
 *	33    _i 0: try 32 fails   -
 *	          (64 > 40), failcnt 1; batch = nr_pages = 1, retry:
 *	            try 1: 33      try 1: 33            0
 *	      _i 1: try 32: 64     try 32 fails (64 > 40), failcnt 1:
 *	            uncharge 32: 32; batch = 1, retry:
 *	            try 1: 33      try 1: 33            0
 *
 * page_counter_try_charge()s: _i 0: 2 + 1 + 2 = 5; _i 1: 2 + 2 + 2 = 6;
 * page_counter_uncharge()s: _i 0: 0; _i 1: 1 (memsw's 32). No refill on
 * the retry (batch == nr_pages). Then refill_stock(/a, 33): the stock
 * holds 0 + 33 > 32 pages: drain_stock() uncharges 33 from memory and
 * from memsw: both 0, two more page_counter_uncharge()s, one drain.
 */
START_TEST(v1_memsw_charged_beside_memory)
{
	unsigned int call;

	h.k.cgroup_version = 1;
	h.k.swap_account = true;
	create();
	ck_assert(mc.a->memsw.parent == NULL);
	if (_i == 0)
		mc.a->memsw.max = 40;
	else
		mc.a->memory.max = 40;
	for (call = 1; call <= 32; call++)
		ck_assert_int_eq(charge(mc.a, 1), 0);
	ck_assert_int_eq(mc.a->memsw.usage, 32);
	ck_assert_int_eq(mc.a->memory.usage, 32);
	ck_assert_uint_eq(h.ms->counts.pc_try_charges, 2);
	ck_assert_int_eq(charge(mc.a, 1), 0);
	ck_assert_int_eq(mc.a->memsw.usage, 33);
	ck_assert_int_eq(mc.a->memory.usage, 33);
	ck_assert_uint_eq(mc.a->memsw.failcnt, _i == 0);
	ck_assert_uint_eq(mc.a->memory.failcnt, _i == 1);
	ck_assert_uint_eq(h.ms->counts.pc_try_charges, _i == 0 ? 5 : 6);
	ck_assert_uint_eq(h.ms->counts.pc_uncharges, _i == 0 ? 0 : 1);
	ck_assert_uint_eq(stock(0)->nr_pages[0], 0);
	ck_assert_uint_eq(h.ms->counts.failures, 0);

	HARNESS_CALL(refill_stock, 0, .memcg = mc.a, .nr_pages = 33);
	ck_assert_int_eq(mc.a->memsw.usage, 0);
	ck_assert_int_eq(mc.a->memory.usage, 0);
	ck_assert_uint_eq(h.ms->counts.drains, 1);
	ck_assert_uint_eq(h.ms->counts.pc_uncharges, _i == 0 ? 2 : 3);
}
END_TEST

/*
 * The extra atomic of swap accounting on a stock miss, from the skx-2s-72
 * profile (l1_hit 1.6 ns, rmw_local 7.0 ns, insn 0.471 ns). try_charge(/a,
 * 1) 33 times on CPU 0 on v1, swap_account off, then on. Call 33 misses
 * the stock; every line it touches is CPU 0's since call 1 (which charged
 * both counters, the high check read swap's usage and high: memsw's with
 * swap accounting). The one difference is memsw's page_counter_try_charge()
 * of 32 pages, one level (check_page_counter.c's top level, without
 * propagate_protected_usage(): v1's memsw has no protection):
 *
 *	usage add_return on an owned line	rmw_local	7000
 *	max read, watermark read, watermark	4 x l1_hit	6400
 *	store, parent read
 *	instructions: page_counter_try_charge/call 5 + /level 14 = 19
 *	                                        19 x 471	8949
 *
 * Expect call 33 to take 7000 + 6400 + 8949 = 22349 ps longer with swap
 * accounting, and memsw.usage's line to have seen 2 locked RMWs (calls 1
 * and 33) where, without it, swap.usage's saw none.
 */
START_TEST(v1_memsw_extra_atomic_cost)
{
	sim_time_t last[2];
	uint64_t rmws[2];
	unsigned int mode, call;
	struct coh_field *f;

	for (mode = 0; mode < 2; mode++) {
		if (mode) {
			teardown();
			setup();
		}
		h.k.cgroup_version = 1;
		h.k.swap_account = mode;
		create();
		for (call = 1; call <= 33; call++)
			ck_assert_int_eq(charge(mc.a, 1), 0);
		ck_assert_uint_eq(h.ms->counts.stock_hits, 31);
		last[mode] = h.last_ps;
		f = mc.a->swap.f[PC_USAGE];
		rmws[mode] = f->line->fields[f->slot].ops[COH_RMW];
	}
	ck_assert_uint_eq(h.m.rmw_local_ps, 7000);
	ck_assert_uint_eq(h.m.l1_hit_ps, 1600);
	ck_assert_uint_eq(h.m.insn_ps, 471);
	ck_assert_uint_eq(insn_table[INSN_page_counter_try_charge].insns, 5);
	ck_assert_uint_eq(insn_table[INSN_page_counter_try_charge_level].insns,
			  14);
	ck_assert_uint_eq(last[1] - last[0], 7000 + 4 * 1600 + 19 * 471);
	ck_assert_uint_eq(rmws[0], 0);
	ck_assert_uint_eq(rmws[1], 2);
}
END_TEST

static Suite *memcontrol_suite(void)
{
	Suite *s = suite_create("memcontrol");
	TCase *tc = tcase_create("stock");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, try_charge_memcg_stock_hits_and_refills);
	tcase_add_test(tc, try_charge_memcg_stock_hit_cost);
	tcase_add_test(tc, layouts_match_pahole_v6_1);
	tcase_add_test(tc, refill_stock_drains_over_batch);
	tcase_add_loop_test(tc, refill_stock_other_memcg, 0, 2);
	tcase_add_loop_test(tc, stock_switch_two_memcgs, 0, 2);
	tcase_add_test(tc, try_charge_root_not_charged);
	tcase_add_test(tc, mem_cgroup_under_socket_pressure_walk_is_dependent);
	suite_add_tcase(s, tc);

	tc = tcase_create("limit");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, try_charge_memcg_nomem);
	tcase_add_test(tc, try_charge_memcg_reclaims);
	suite_add_tcase(s, tc);

	tc = tcase_create("v1_tcpmem");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, v1_tcpmem_charges_unbatched);
	tcase_add_test(tc, v1_tcpmem_limit_sets_pressure);
	suite_add_tcase(s, tc);

	tc = tcase_create("v1_memsw");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, v1_memsw_charged_beside_memory, 0, 2);
	tcase_add_test(tc, v1_memsw_extra_atomic_cost);
	suite_add_tcase(s, tc);

	tc = tcase_create("obj_stock");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, obj_cgroup_charge_stock);
	tcase_add_test(tc, refill_obj_stock_objcg_change_allows_uncharge);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(memcontrol_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
