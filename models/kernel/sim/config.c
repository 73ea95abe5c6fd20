// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/kernel/sim/config.c - reading the `kernel:` knobs and the `cgroups:` tree.
 */
#define _POSIX_C_SOURCE 200809L

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libgen.h>
#include <stdint.h>

#include "models/kernel/sim/config.h"
#include "sim/pahole.h"
#include "sim/scenario_keys.h"
#include "sim/util.h"

static const char *const memcg_names[] = { "enabled", "disabled" };
static const char *const layout_names[] = { "v6.0", "v6.1", "custom",
					    "pahole" };
static const char *const protected_names[] = { "always", "if_changed" };
static const char *const kmem_names[] = { "off", "pages", "objects" };
static const char *const obj_stock_names[] = { "v5.13", "v6.0", "v6.16" };
static const char *const threshold_names[] = { "global", "per_memcg" };
static const char *const local_names[] = { "percpu_sum", "aggregated" };
static const char *const sk_reclaim_names[] = { "page", "quantum" };
static const char *const stats_atomic_names[] = { "always", "below_threshold" };
static const char *const stats_version_names[] = { "v6.0", "v6.6", "v6.8" };
static const char *const parent_walk_names[] = { "statc_parent",
						 "parent_mem_cgroup" };
static const char *const sched_class_names[] = { "cfs", "eevdf" };
static const char *const cpuidle_names[] = { "menu", "poll", "teo" };
static const char *const lru_lock_names[] = { "off", "per_node", "per_lruvec" };
static const char *const version_names[] = { "none", "v4.8", "v6.0",  "v6.1",
					     "v6.6", "v6.8", "stable" };

static int custom_layout_load(struct kernel_config *k,
			      const struct scenario_node *n,
			      struct sim_error *err)
{
	const struct scenario_node *m = scenario_get(n, "page_counter_offsets");
	struct page_counter_layout *l = &k->pc_layout;
	unsigned int i, max_end = 0;
	char why[160];
	uint64_t v;

	if (!m) {
		scenario_error(
			err, scenario_get(n, "page_counter_layout"),
			"'page_counter_layout: custom' needs 'page_counter_offsets', a map of every member to its byte offset");
		return -1;
	}
	if (scenario_kind(m) != SCENARIO_MAP) {
		scenario_error(err, m, "expected a map of member: offset");
		return -1;
	}
	if (scenario_check_keys(m, page_counter_member_names, NR_PC_MEMBERS,
				err))
		return -1;
	for (i = 0; i < NR_PC_MEMBERS; i++) {
		if (scenario_u64(m, page_counter_member_names[i], true, 0, 0,
				 4096, &v, err))
			return -1;
		l->offset[i] = (unsigned int)v;
		if (l->offset[i] + 8 > max_end)
			max_end = l->offset[i] + 8;
	}
	l->size = (max_end + 7) / 8 * 8;
	l->align = 8;
	for (i = 0; i < NR_PC_MEMBERS; i++)
		if (l->offset[i] % 64 == 0 && l->offset[i] && i != PC_USAGE)
			l->align = 64; /* SIM: a member on a line boundary
					 * past the first means padding */
	if (l->align == 64)
		l->size = (l->size + 63) / 64 * 64;
	if (page_counter_layout_check(l, why, sizeof(why))) {
		scenario_error(err, m, "page_counter_offsets: %s", why);
		return -1;
	}
	return 0;
}

static int pahole_layout_load(struct kernel_config *k,
			      const struct scenario_node *n,
			      struct sim_error *err)
{
	const struct scenario_node *f = scenario_get(n, "page_counter_pahole");
	struct pahole_struct *ps;
	char path[1024], *copy;
	const char *name;
	int ret;

	if (!f || scenario_kind(f) != SCENARIO_SCALAR) {
		scenario_error(
			err, f ? f : scenario_get(n, "page_counter_layout"),
			"'page_counter_layout: pahole' needs 'page_counter_pahole: FILE', the output of pahole -C page_counter");
		return -1;
	}
	name = scenario_scalar(f);
	if (name[0] == '/') {
		snprintf(path, sizeof(path), "%s", name);
	} else {
		copy = strdup(scenario_file(f));
		if (!copy)
			return -1;
		snprintf(path, sizeof(path), "%s/%s", dirname(copy), name);
		free(copy);
	}
	ps = malloc(sizeof(*ps));
	if (!ps) {
		scenario_error(err, f, "out of memory");
		return -1;
	}
	ret = pahole_load(path, "page_counter", ps, err);
	if (!ret)
		ret = page_counter_layout_from_pahole(ps, path, &k->pc_layout,
						      err);
	if (ret && !err->line) {
		/* a file-level problem: point at the key that named it */
		char msg[SIM_ERROR_MSG_MAX];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		scenario_error(err, f, "'%s': %s", path, msg);
	}
	free(ps);
	return ret;
}

static int layout_load(struct kernel_config *k, const struct scenario_node *n,
		       struct sim_error *err)
{
	if (k->page_counter_layout == PC_LAYOUT_CUSTOM)
		return custom_layout_load(k, n, err);
	if (k->page_counter_layout == PC_LAYOUT_PAHOLE)
		return pahole_layout_load(k, n, err);
	if (scenario_get(n, "page_counter_offsets") ||
	    scenario_get(n, "page_counter_pahole")) {
		scenario_error(
			err,
			scenario_get(n, "page_counter_offsets") ?
				scenario_get(n, "page_counter_offsets") :
				scenario_get(n, "page_counter_pahole"),
			"only used with 'page_counter_layout: custom' or 'pahole'");
		return -1;
	}
	return 0;
}

/*
 * KEY_MEMBER() - where a key's value goes: the member's offset and size.
 * Every enum member is written as an unsigned int (checked below).
 */
#define KEY_MEMBER(m)                                \
	.offset = offsetof(struct kernel_config, m), \
	.size = sizeof(((struct kernel_config *)0)->m)
#define KEY_NAMES(a) .names = (a), .nr_names = ARRAY_SIZE(a)
/* The same default at every stats_version. */
#define KEY_DEF(v) .def = { (v), (v), (v) }

_Static_assert(
	sizeof(enum kernel_pc_layout) == sizeof(unsigned int) &&
		sizeof(enum kernel_protected_update) == sizeof(unsigned int) &&
		sizeof(enum kernel_kmem) == sizeof(unsigned int) &&
		sizeof(enum kernel_obj_stock) == sizeof(unsigned int) &&
		sizeof(enum kernel_flush_threshold) == sizeof(unsigned int) &&
		sizeof(enum kernel_stats_atomic) == sizeof(unsigned int) &&
		sizeof(enum kernel_local_stats) == sizeof(unsigned int) &&
		sizeof(enum kernel_stats_version) == sizeof(unsigned int) &&
		sizeof(enum kernel_version) == sizeof(unsigned int),
	"kernel_key_store() writes enums as unsigned int");

/* MEMCG_NR_STAT: the node items, then the 7 memcg_stat_items of v6.x. */
static uint64_t memcg_stat_items_default(const struct kernel_config *k)
{
	return k->lruvec_stat_items + 7;
}

/*
 * The keys, in the order `unknown key` suggestions prefer them (the first
 * of equally near names wins). stats_version is read first of all: the
 * defaults of the statistics keys are those of its kernel
 * (doc/memcg-stats.md sections 1 and 6): v6.0 keeps every vm_event_item
 * per CPU (about 110 on a distro config), v6.1 only the
 * memcg_vm_event_stat[] ones (19 at v6.6, 22 at v6.8); v6.1 skips the
 * global atomic once a flush is due; v6.8 counts per memcg, flushes
 * subtrees and no longer lets a flusher skip.
 */
static const struct kernel_key kernel_key_table[] = {
	{
		.name = "memcg",
		.type = KEY_ENUM,
		KEY_MEMBER(memcg_disabled),
		KEY_NAMES(memcg_names),
		KEY_DEF(0),
		.doc = "Whether the memory controller is on; disabled is as with cgroup_disable=memory",
	},
	{
		.name = "charge_batch",
		.type = KEY_U32,
		KEY_MEMBER(charge_batch),
		.min = 1,
		/*
		 * SIM: MEMCG_CHARGE_BATCH is a constant, 32 until v6.1 and
		 * 64 since; kernels with the multi-memcg stock keep a
		 * stock's pages in a u8 and BUILD_BUG_ON() past 127. Up to
		 * 1024 leaves room for design sweeps (doc/user-guide.md's go to
		 * 256) but not for nonsense: 1024 pages are 4 MiB charged
		 * ahead per CPU, 1 GiB on a 256-CPU machine, and the stats
		 * flush threshold (the batch times the CPUs) grows with
		 * it, so a larger batch models no kernel anyone would build.
		 */
		.max = 1024,
		KEY_DEF(32),
		.doc = "MEMCG_CHARGE_BATCH: the pages a stock refill charges ahead, and the per-CPU statistics update batch",
	},
	{
		.name = "stock_memcgs",
		.type = KEY_U32,
		KEY_MEMBER(stock_memcgs),
		.min = 1,
		.max = MEMCG_STOCK_MAX,
		KEY_DEF(1),
		.doc = "How many memcgs one CPU's charge stock caches (later kernels cache 7)",
	},
	{
		.name = "page_counter_layout",
		.type = KEY_ENUM,
		KEY_MEMBER(page_counter_layout),
		KEY_NAMES(layout_names),
		KEY_DEF(PC_LAYOUT_V6_0),
		.check = layout_load,
		.doc = "struct page_counter's layout: v6.0's declaration order; v6.1's (usage alone on its line, then the protection fields, then the read-mostly ones); custom (page_counter_offsets) or pahole (page_counter_pahole)",
	},
	{
		.name = "memory_offset",
		.type = KEY_U32,
		KEY_MEMBER(memory_offset),
		.min = 0,
		.max = 63,
		.multiple = 8,
		KEY_DEF(-1),
		.def_doc = "by layout",
		.optional = true,
		.doc = "&memcg->memory % 64; by default 16 for a packed page_counter such as v6.0's (after the 200-byte css and the 8-byte id), 0 for a line-aligned one",
	},
	{
		.name = "protected_usage_update",
		.type = KEY_ENUM,
		KEY_MEMBER(protected_usage_update),
		KEY_NAMES(protected_names),
		KEY_DEF(PROTECTED_ALWAYS),
		.doc = "always (v6.0: min_usage and low_usage are exchanged on every charge where memory.min or memory.low is set) or if_changed (v6.1)",
	},
	{
		.name = "kmem_accounting",
		.type = KEY_ENUM,
		KEY_MEMBER(kmem_accounting),
		KEY_NAMES(kmem_names),
		KEY_DEF(KMEM_OFF),
		.doc = "pages (before v5.9: page allocations charged whole, plus the v1 kmem counter) or objects (v5.9 on: slab objects through the byte-granular obj_cgroup stock)",
	},
	{
		.name = "obj_stock_version",
		.type = KEY_ENUM,
		KEY_MEMBER(obj_stock_version),
		KEY_NAMES(obj_stock_names),
		KEY_DEF(OBJ_STOCK_V6_0),
		.doc = "The obj_cgroup stock's code: v5.13 (slab statistics straight to the per-CPU counters, interrupts off twice per object; a refill past a page drains the whole stock), v6.0 (v5.14's \"cache vmstat data in percpu memcg_stock_pcp\": statistics batched in the stock, refills keep a page) or v6.16 (its own per-CPU obj_stock_pcp under a local_trylock, no interrupts off; charge and statistics in one pass)",
	},
	{
		.name = "stats_flush_threshold",
		.type = KEY_ENUM,
		KEY_MEMBER(stats_flush_threshold),
		KEY_NAMES(threshold_names),
		.def = { FLUSH_GLOBAL, FLUSH_GLOBAL, FLUSH_PER_MEMCG },
		.doc = "global (v6.0, v6.6: a per-CPU count feeds one global atomic; a reader flushes the whole tree once it passes the number of CPUs) or per_memcg (v6.8: the update walks the ancestors, each memcg has its own atomic, a reader flushes its memcg's subtree)",
	},
	{
		.name = "local_stats",
		.type = KEY_ENUM,
		KEY_MEMBER(local_stats),
		KEY_NAMES(local_names),
		.def = { LOCAL_PERCPU_SUM, LOCAL_AGGREGATED, LOCAL_AGGREGATED },
		.doc = "percpu_sum (v6.0: a non-hierarchical read sums the counter over every possible CPU) or aggregated (v6.6, \"use rstat for non-hierarchical stats\": the flush keeps state_local; a read is one load)",
	},
	{
		.name = "stats_flush_period_ms",
		.type = KEY_U32,
		KEY_MEMBER(stats_flush_period_ms),
		.min = 1,
		.max = 3600000,
		KEY_DEF(2000),
		.doc = "FLUSH_TIME: the periodic flusher's period; it runs on the highest-numbered CPU no task uses (with none idle there is no periodic flush), and ratelimited flushes wait twice the period",
	},
	{
		.name = "page_counter_offsets",
		.type = KEY_MAP,
		.doc = "With page_counter_layout: custom, {MEMBER: OFFSET, ...}: the byte offset (0 to 4096) of each of struct page_counter's 14 members",
	},
	{
		.name = "page_counter_pahole",
		.type = KEY_FILE,
		.doc = "With page_counter_layout: pahole, the file (relative to the scenario) holding what pahole -C page_counter prints",
	},
	{
		.name = "cgroup_version",
		.type = KEY_U32,
		KEY_MEMBER(cgroup_version),
		.min = 1,
		.max = 2,
		KEY_DEF(2),
		.doc = "1 charges the legacy kmem counter and, as v4.x's root has use_hierarchy 0, stops the page counters below the root",
	},
	{
		.name = "tcpmem_active",
		.type = KEY_BOOL,
		KEY_MEMBER(tcpmem_active),
		KEY_DEF(0),
		.doc = "With cgroup_version 1, whether memory.kmem.tcp.limit_in_bytes has been written: then sockets are charged to the unbatched tcpmem page_counter (no stock, no try_charge_memcg); without it v1 charges no socket memory at all (the kernel's default). Ignored on v2",
	},
	{
		.name = "swap_account",
		.type = KEY_BOOL,
		KEY_MEMBER(swap_account),
		KEY_DEF(1),
		.doc = "With cgroup_version 1, whether memory+swap accounting is on (do_memsw_account(): the swapaccount= boot option; on unless swapaccount=0, as Kconfig's MEMCG_SWAP_ENABLED defaulted in v4.8 and as v5.8 on have it): every charge and uncharge of memory also goes to the memsw page_counter, level by level. Ignored on v2",
	},
	{
		.name = "reclaim_ns",
		.type = KEY_TIME,
		KEY_MEMBER(reclaim_ps),
		.min = 0,
		.max = SIM_PS_PER_MS,
		KEY_DEF(1000 * SIM_PS_PER_NS),
		.doc = "The cost of reclaiming one page when a charge is over memory.max (an assumption, not a measurement)",
	},
	{
		.name = "sk_reclaim",
		.type = KEY_ENUM,
		KEY_MEMBER(sk_reclaim),
		KEY_NAMES(sk_reclaim_names),
		KEY_DEF(0),
		.doc = "When a socket returns its forward-allocated memory: page (6.0-rc1, keep sk_forward_alloc as small as possible) or quantum (v5.19: past 2 MB, and partially on receive)",
	},
	{
		.name = "stats_updates_atomic",
		.type = KEY_ENUM,
		KEY_MEMBER(stats_updates_atomic),
		KEY_NAMES(stats_atomic_names),
		.def = { STATS_ATOMIC_ALWAYS, STATS_ATOMIC_BELOW_THRESHOLD,
			 STATS_ATOMIC_BELOW_THRESHOLD },
		.doc = "With stats_flush_threshold: global, always (v6.0: every MEMCG_CHARGE_BATCH statistics updates of a CPU add to the global stats_flush_threshold) or below_threshold (v6.1 on: a read instead of the atomic once a flush is due)",
	},
	{
		.name = "version",
		.type = KEY_ENUM,
		KEY_MEMBER(version),
		KEY_NAMES(version_names),
		KEY_DEF(KV_NONE),
		.doc = "The kernel to follow: every other key's default becomes what that kernel does (doc/user-guide.md, Kernel versions), and a key given on its own wins; none keeps the model's defaults (v6.0's charge path, no kmem accounting)",
	},
	{
		.name = "stats_version",
		.type = KEY_ENUM,
		KEY_MEMBER(stats_version),
		KEY_NAMES(stats_version_names),
		KEY_DEF(STATS_V6_0),
		.doc = "The statistics code to follow; it sets the defaults of the statistics keys to what that kernel does (doc/model/statistics.md), and a key given on its own wins",
	},
	{
		.name = "lruvec_stat_items",
		.type = KEY_U32,
		KEY_MEMBER(lruvec_stat_items),
		.min = 18,
		.max = 1024,
		KEY_DEF(43),
		.doc = "NR_VM_NODE_STAT_ITEMS: the node statistics kept per CPU and memcg",
	},
	{
		.name = "memcg_stat_items",
		.type = KEY_U32,
		KEY_MEMBER(memcg_stat_items),
		.min = 1,
		.max = 2048,
		KEY_DEF(43 + 7),
		.def_fn = memcg_stat_items_default,
		.def_doc = "lruvec_stat_items + 7",
		.doc = "MEMCG_NR_STAT: the node items, then the memcg items",
	},
	{
		.name = "memcg_event_items",
		.type = KEY_U32,
		KEY_MEMBER(memcg_event_items),
		.min = 1,
		.max = 1024,
		.def = { 110, 19, 22 },
		.doc = "The events kept per CPU: every vm_event_item at v6.0, the memcg_vm_event_stat[] ones later (doc/memcg-stats.md counts them)",
	},
	{
		.name = "stats_flush_skip",
		.type = KEY_BOOL,
		KEY_MEMBER(stats_flush_skip),
		.def = { true, true, false },
		.doc = "true (v6.0 trylock, v6.6 stats_flush_ongoing): a flusher that finds another ongoing returns, and its reader reads stale counters; false (v6.8): it waits for cgroup_rstat_lock",
	},
	{
		.name = "stats_parent_walk",
		.type = KEY_ENUM,
		KEY_MEMBER(stats_parent_walk_memcg),
		KEY_NAMES(parent_walk_names),
		KEY_DEF(0),
		.doc = "With stats_flush_threshold: per_memcg, statc_parent (v6.8 with 9cee7e8ef3e3: cached per-CPU parent pointers, all on one line) or parent_mem_cgroup (8d59d2214c23 before that fix: the walk goes through each memcg's css.parent)",
	},
	{
		.name = "sched_class",
		.type = KEY_ENUM,
		KEY_MEMBER(sched_class),
		KEY_NAMES(sched_class_names),
		KEY_DEF(SCHED_CLASS_CFS),
		.doc = "The fair class's pick, with a workload's sched: fair: cfs (up to v6.5: waiting tasks in turn, a slice each, no wake-up preemption) or eevdf (v6.6 on: lag kept across sleeps, the eligible task with the earliest virtual deadline runs, a wake-up preempts when the woken task would be picked, RUN_TO_PARITY)",
	},
	{
		.name = "cpuidle",
		.type = KEY_ENUM,
		KEY_MEMBER(cpuidle),
		KEY_NAMES(cpuidle_names),
		KEY_DEF(CPUIDLE_MENU),
		.doc = "How an idle CPU waits, with the machine profile's idle_states: menu (the menu governor picks a state by the expected idle span; a wake-up pays ipi_ns and the state's exit latency), teo (the timer events oriented governor: the state within the time to the next timer, shallower when recent wake-ups came earlier; priced as menu) or poll (the idle=poll boot option: wake-ups are free, as without idle_states)",
	},
	{
		.name = "lru_lock",
		.type = KEY_ENUM,
		KEY_MEMBER(lru_lock),
		KEY_NAMES(lru_lock_names),
		KEY_DEF(LRU_LOCK_PER_LRUVEC),
		.doc = "The LRU lock and the per-CPU LRU-add batches (mm/swap.c): per_lruvec (v5.11 on: folio_batch_move_lru() and release_pages() under the lock of the folio's memcg and node, the memcg statistics update inside it), per_node (v4.8 to v5.10: one pgdat->lru_lock for every memcg) or off (folios reach the LRU at once, no lock: the model before issue 30)",
	},
	{
		.name = "lru_add_batch",
		.type = KEY_U32,
		KEY_MEMBER(lru_add_batch),
		.min = 1,
		.max = 31,
		KEY_DEF(15),
		.doc = "PAGEVEC_SIZE: the folios a CPU's LRU-add batch holds before folio_batch_move_lru() takes the lock (15 up to v6.11; 31 from v6.12)",
	},
	{
		.name = "lru_folio_ns",
		.type = KEY_TIME,
		KEY_MEMBER(lru_folio_ps),
		.min = 0,
		.max = SIM_PS_PER_US,
		KEY_DEF(0),
		.doc = "The CPU's own work per folio inside the LRU lock (lru_add_fn() in folio_batch_move_lru(), lruvec_del_folio() in release_pages()) besides the accesses the model makes: 0, not modelled, unless fitted with the lock's share of a real profile (memcgsim fit --key2 kernel.lru_folio_ns --metric2 lru_lock_share; doc/user-guide.md)",
	},
};

const struct kernel_key *kernel_keys(unsigned int *nr)
{
	*nr = ARRAY_SIZE(kernel_key_table);
	return kernel_key_table;
}

const struct kernel_key *kernel_key_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kernel_key_table); i++)
		if (!strcmp(kernel_key_table[i].name, name))
			return &kernel_key_table[i];
	return NULL;
}

static bool key_stored(const struct kernel_key *key)
{
	return key->type != KEY_MAP && key->type != KEY_FILE;
}

/* SIM: one writer for members of every width the table names. */
static void kernel_key_store(struct kernel_config *k,
			     const struct kernel_key *key, uint64_t v)
{
	char *p = (char *)k + key->offset;
	uint32_t v32 = (uint32_t)v;
	bool b = v != 0;

	if (key->size == sizeof(bool))
		memcpy(p, &b, sizeof(b));
	else if (key->size == sizeof(v32))
		memcpy(p, &v32, sizeof(v32));
	else
		memcpy(p, &v, sizeof(v));
}

/*
 * What each kernel has, for `version:` (the columns: v4.8, v6.0, v6.1,
 * v6.6, v6.8, stable), in the keys' stored form (an enum's index). A key
 * not listed keeps its table default (and the statistics keys follow
 * stats_version, which every version sets). Not listed on purpose:
 * cgroup_version (a mount choice), reclaim_ns (an assumption), the
 * statistics array sizes (a build's config: stats_version sets them),
 * memory_offset (by layout).
 *
 *  charge_batch       MEMCG_CHARGE_BATCH 32 -> 64: "mm: memcg: increase
 *                     MEMCG_CHARGE_BATCH to 64" (1813e51eece0, v6.1)
 *  stock_memcgs       NR_MEMCG_STOCK 7: "memcg: multi-memcg percpu charge
 *                     cache" (Shakeel Butt, v6.16)
 *  page_counter_layout "mm: page_counter: rearrange struct page_counter
 *                     fields" (v6.1). SIM: v4.8's page_counter (count,
 *                     limit, parent, watermark, failcnt: one line) is
 *                     modelled by v6.0's packed layout, its nearest
 *  protected_usage_update "mm: page_counter: remove unneeded atomic ops
 *                     for low/min" (v6.1)
 *  kmem_accounting    v4.8 charges af_unix pages whole ("af_unix: charge
 *                     buffers to kmemcg", v4.5); slab objects through
 *                     the obj_cgroup stock from v5.9
 *  sk_reclaim         quantum up to v5.19, page from 6.0-rc1 ("net: keep
 *                     sk->sk_forward_alloc as small as possible")
 *  stats_version      v6.0's code for v4.8 too (SIM: v4.8 sums per-CPU
 *                     counters on read; no rstat) and v6.1, v6.6's and
 *                     v6.8's for theirs; stable is v6.8's
 *  stats_updates_atomic below_threshold from v6.1 (doc/memcg-stats.md 0)
 *  obj_stock_version  slab statistics cached in the stock from v5.14
 *                     ("mm/memcg: cache vmstat data in percpu
 *                     memcg_stock_pcp"); a separate object stock from
 *                     v6.16. SIM: v4.8 has no object stock at all (its
 *                     slab pages are charged whole); v5.13's is the
 *                     nearest, and only a kmalloc workload reaches it
 *  sched_class        the fair class's pick: CFS up to v6.5, EEVDF from
 *                     v6.6 ("sched/fair: Implement an EEVDF-like
 *                     scheduling policy", 147f3efaa241, v6.6-rc1)
 */
static const struct kernel_preset {
	const char *key;
	int64_t v[NR_KERNEL_VERSIONS - 1]; /* [version - 1] */
} kernel_presets[] = {
	{ "charge_batch", { 32, 32, 64, 64, 64, 64 } },
	{ "stock_memcgs", { 1, 1, 1, 1, 1, 7 } },
	{ "page_counter_layout",
	  { PC_LAYOUT_V6_0, PC_LAYOUT_V6_0, PC_LAYOUT_V6_1, PC_LAYOUT_V6_1,
	    PC_LAYOUT_V6_1, PC_LAYOUT_V6_1 } },
	{ "protected_usage_update",
	  { PROTECTED_ALWAYS, PROTECTED_ALWAYS, PROTECTED_IF_CHANGED,
	    PROTECTED_IF_CHANGED, PROTECTED_IF_CHANGED,
	    PROTECTED_IF_CHANGED } },
	{ "kmem_accounting",
	  { KMEM_PAGES, KMEM_OBJECTS, KMEM_OBJECTS, KMEM_OBJECTS, KMEM_OBJECTS,
	    KMEM_OBJECTS } },
	{ "sk_reclaim", { 1, 0, 0, 0, 0, 0 } }, /* quantum, then page */
	{ "stats_version",
	  { STATS_V6_0, STATS_V6_0, STATS_V6_0, STATS_V6_6, STATS_V6_8,
	    STATS_V6_8 } },
	{ "stats_updates_atomic",
	  { STATS_ATOMIC_ALWAYS, STATS_ATOMIC_ALWAYS,
	    STATS_ATOMIC_BELOW_THRESHOLD, STATS_ATOMIC_BELOW_THRESHOLD,
	    STATS_ATOMIC_BELOW_THRESHOLD, STATS_ATOMIC_BELOW_THRESHOLD } },
	{ "sched_class",
	  { SCHED_CLASS_CFS, SCHED_CLASS_CFS, SCHED_CLASS_CFS,
	    SCHED_CLASS_EEVDF, SCHED_CLASS_EEVDF, SCHED_CLASS_EEVDF } },
	{ "obj_stock_version",
	  { OBJ_STOCK_V5_13, OBJ_STOCK_V6_0, OBJ_STOCK_V6_0, OBJ_STOCK_V6_0,
	    OBJ_STOCK_V6_0, OBJ_STOCK_V6_16 } },
	{ "lru_lock",
	  { LRU_LOCK_PER_NODE, LRU_LOCK_PER_LRUVEC, LRU_LOCK_PER_LRUVEC,
	    LRU_LOCK_PER_LRUVEC, LRU_LOCK_PER_LRUVEC, LRU_LOCK_PER_LRUVEC } },
};

bool kernel_preset_value(enum kernel_version v, const char *name, int64_t *out)
{
	unsigned int i;

	if (v == KV_NONE || v >= NR_KERNEL_VERSIONS)
		return false;
	for (i = 0; i < ARRAY_SIZE(kernel_presets); i++) {
		if (!strcmp(kernel_presets[i].key, name)) {
			*out = kernel_presets[i].v[v - 1];
			return true;
		}
	}
	return false;
}

static uint64_t kernel_key_def(const struct kernel_key *key,
			       const struct kernel_config *k)
{
	int64_t v;

	if (kernel_preset_value(k->version, key->name, &v))
		return (uint64_t)v;
	if (key->def_fn)
		return key->def_fn(k);
	return (uint64_t)key->def[k->stats_version];
}

const char *kernel_key_type_name(const struct kernel_key *key)
{
	static const char *const names[] = {
		[KEY_U32] = "integer", [KEY_BOOL] = "bool",
		[KEY_ENUM] = "enum",   [KEY_TIME] = "duration",
		[KEY_MAP] = "map",     [KEY_FILE] = "file",
	};

	return names[key->type];
}

static size_t join_names(const struct kernel_key *key, char *buf, size_t size)
{
	size_t len = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < key->nr_names && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					i ? ", " : "", key->names[i]);
	return len;
}

void kernel_key_range(const struct kernel_key *key, char *buf, size_t size)
{
	uint64_t max = key->max;

	buf[0] = '\0';
	switch (key->type) {
	case KEY_U32:
		if (key->multiple) {
			max -= max % key->multiple;
			snprintf(buf, size, "%llu to %llu, a multiple of %u",
				 (unsigned long long)key->min,
				 (unsigned long long)max, key->multiple);
		} else {
			snprintf(buf, size, "%llu to %llu",
				 (unsigned long long)key->min,
				 (unsigned long long)max);
		}
		break;
	case KEY_TIME:
		snprintf(buf, size, "%llu to %llu ns",
			 (unsigned long long)(key->min / SIM_PS_PER_NS),
			 (unsigned long long)(max / SIM_PS_PER_NS));
		break;
	case KEY_BOOL:
		snprintf(buf, size, "true, false");
		break;
	case KEY_ENUM:
		join_names(key, buf, size);
		break;
	case KEY_MAP:
	case KEY_FILE:
		break;
	}
}

static void one_default(const struct kernel_key *key, int64_t v, char *buf,
			size_t size)
{
	if (key->type == KEY_ENUM)
		snprintf(buf, size, "%s", key->names[v]);
	else if (key->type == KEY_BOOL)
		snprintf(buf, size, "%s", v ? "true" : "false");
	else if (key->type == KEY_TIME)
		snprintf(buf, size, "%lld ns", (long long)(v / 1000));
	else
		snprintf(buf, size, "%lld", (long long)v);
}

void kernel_key_default(const struct kernel_key *key, char *buf, size_t size)
{
	unsigned int v, w;
	size_t len = 0;

	buf[0] = '\0';
	if (key->def_doc) {
		snprintf(buf, size, "%s", key->def_doc);
		return;
	}
	if (!key_stored(key))
		return;
	if (key->def[0] == key->def[1] && key->def[1] == key->def[2]) {
		one_default(key, key->def[0], buf, size);
		return;
	}
	/* "global (v6.0, v6.6), per_memcg (v6.8)" */
	for (v = 0; v < NR_STATS_VERSIONS && len + 1 < size; v = w) {
		if (v)
			len += (size_t)snprintf(buf + len, size - len, "), ");
		if (len + 1 >= size)
			break;
		one_default(key, key->def[v], buf + len, size - len);
		len += strlen(buf + len);
		for (w = v; w < NR_STATS_VERSIONS && key->def[w] == key->def[v];
		     w++)
			if (len + 1 < size)
				len += (size_t)snprintf(buf + len, size - len,
							"%s%s",
							w == v ? " (" : ", ",
							stats_version_names[w]);
	}
	if (len + 1 < size)
		snprintf(buf + len, size - len, ")");
}

/* Read one key into its member; the default when it is absent. */
static int kernel_key_load(struct kernel_config *k,
			   const struct kernel_key *key,
			   const struct scenario_node *n, struct sim_error *err)
{
	uint64_t def = kernel_key_def(key, k), v = def;
	unsigned int e;
	bool b;

	if (key->optional && !scenario_get(n, key->name))
		return 0;
	switch (key->type) {
	case KEY_U32:
		if (scenario_u64(n, key->name, false, def, key->min, key->max,
				 &v, err))
			return -1;
		if (key->multiple && v % key->multiple) {
			scenario_error(
				err, scenario_get(n, key->name),
				"'%s' must be a multiple of %u, found %llu",
				key->name, key->multiple,
				(unsigned long long)v);
			return -1;
		}
		break;
	case KEY_BOOL:
		if (scenario_bool(n, key->name, false, def != 0, &b, err))
			return -1;
		v = b;
		break;
	case KEY_ENUM:
		if (scenario_enum(n, key->name, false, (unsigned int)def,
				  key->names, key->nr_names, &e, err))
			return -1;
		v = e;
		break;
	case KEY_TIME:
		/* SIM: every duration key of the table is in ns (reclaim_ns) */
		if (scenario_time_ps(n, key->name, false, SIM_PS_PER_NS, def,
				     key->min, key->max, &v, err))
			return -1;
		break;
	case KEY_MAP:
	case KEY_FILE:
		return 0; /* read by the key that needs them */
	}
	kernel_key_store(k, key, v);
	return key->check ? key->check(k, n, err) : 0;
}

static const struct scenario_node *key_or_map(const struct scenario_node *n,
					      const char *key)
{
	const struct scenario_node *v = scenario_get(n, key);

	return v ? v : n;
}

/* The event indexes the model updates must fit the events array. */
static int stats_sizes_check(const struct kernel_config *k,
			     const struct scenario_node *n,
			     struct sim_error *err)
{
	/* PGFAULT is vm_event_item 20 at v6.0, memcg_vm_event_stat[8] later */
	unsigned int need = k->stats_version == STATS_V6_0 ? 21 : 9;

	if (k->memcg_event_items < need) {
		scenario_error(
			err, key_or_map(n, "memcg_event_items"),
			"'memcg_event_items' must be at least %u for stats_version %s (PGFAULT is event %u), found %u",
			need, stats_version_names[k->stats_version], need - 1,
			k->memcg_event_items);
		return -1;
	}
	/* MEMCG_KMEM is the fifth memcg_stat_item after the node items */
	if (k->memcg_stat_items < k->lruvec_stat_items + 5) {
		scenario_error(
			err, key_or_map(n, "memcg_stat_items"),
			"'memcg_stat_items' (MEMCG_NR_STAT) must be at least %u: the %u node items, then the memcg items up to MEMCG_KMEM; found %u",
			k->lruvec_stat_items + 5, k->lruvec_stat_items,
			k->memcg_stat_items);
		return -1;
	}
	return 0;
}

void kernel_config_defaults(struct kernel_config *k)
{
	unsigned int i;

	memset(k, 0, sizeof(*k));
	for (i = 0; i < ARRAY_SIZE(kernel_key_table); i++)
		if (key_stored(&kernel_key_table[i]))
			kernel_key_store(k, &kernel_key_table[i],
					 kernel_key_def(&kernel_key_table[i],
							k));
}

int kernel_config_load(struct kernel_config *k,
		       const struct scenario_node *root, struct sim_error *err)
{
	const struct scenario_node *n = scenario_get(root, "kernel");
	const char *names[ARRAY_SIZE(kernel_key_table)];
	const struct kernel_key *version = kernel_key_find("stats_version");
	const struct kernel_key *kv = kernel_key_find("version");
	unsigned int i;

	kernel_config_defaults(k);
	if (!n)
		return 0;
	for (i = 0; i < ARRAY_SIZE(kernel_key_table); i++)
		names[i] = kernel_key_table[i].name;
	if (scenario_check_keys(n, names, ARRAY_SIZE(names), err))
		return -1;
	/*
	 * The kernel version first: it sets every default, stats_version's
	 * too; then stats_version: it sets the statistics keys' defaults
	 * that the version leaves.
	 */
	if (kernel_key_load(k, kv, n, err) ||
	    kernel_key_load(k, version, n, err))
		return -1;
	for (i = 0; i < ARRAY_SIZE(kernel_key_table); i++)
		if (&kernel_key_table[i] != version &&
		    &kernel_key_table[i] != kv &&
		    kernel_key_load(k, &kernel_key_table[i], n, err))
			return -1;
	return stats_sizes_check(k, n, err);
}

/* SIZE_KEY() - a cgroup's memory control, in bytes ("max": no limit). */
#define SIZE_KEY(key, member, def_value, def_words, text)                      \
	{                                                                      \
		.name = (key), .type = SCENARIO_KEY_SIZE,                      \
		SCENARIO_KEY_MEMBER(struct cgroup_config, member),             \
		.max = UINT64_MAX, .def = (def_value), .def_doc = (def_words), \
		.doc = (text),                                                 \
	}

/* The keys of one cgroup of `cgroups:`, in the order they are read. */
static const struct scenario_key cgroup_key_table[] = {
	SIZE_KEY(
		"memory.min", min, 0, "0",
		"Memory below which the cgroup is never reclaimed (page_counter's min)"),
	SIZE_KEY("memory.low", low, 0, "0",
		 "Best-effort protection from reclaim (page_counter's low)"),
	SIZE_KEY("memory.high", high, UINT64_MAX, "max",
		 "The throttling limit (page_counter's high)"),
	SIZE_KEY(
		"memory.max", max, UINT64_MAX, "max",
		"The hard limit: a charge past it reclaims, at reclaim_ns per page"),
	SIZE_KEY(
		"reclaimable", reclaimable, 0, "0",
		"SIM: the bytes reclaim can free in this cgroup (no LRU is modelled)"),
};

const struct scenario_key *cgroup_keys(unsigned int *nr)
{
	*nr = ARRAY_SIZE(cgroup_key_table);
	return cgroup_key_table;
}

int cgroup_find(const struct cgroup_tree *t, const char *path)
{
	unsigned int i;

	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->cg[i].path, path))
			return (int)i;
	return -1;
}

static int cgroup_parent_path(const char *path, char *parent, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t len;

	if (!slash)
		return -1;
	len = (size_t)(slash - path);
	if (len == 0)
		len = 1; /* the parent is the root */
	if (len >= size)
		return -1;
	memcpy(parent, path, len);
	parent[len] = '\0';
	return 0;
}

/*
 * cgroup_name_chars - what a cgroup name may hold here.
 * SIM: the kernel takes any byte but '/' and NUL in a cgroup's name
 * (kernfs); a scenario's names reach tables and data files, so they are
 * kept to a portable set: no spaces, brackets, quotes or controls.
 */
static const char cgroup_name_chars[] = "abcdefghijklmnopqrstuvwxyz"
					"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
					"0123456789_.-:@+";

/*
 * cgroup_path_ok() - is @path "/NAME/NAME..." with every NAME of
 * cgroup_name_chars and neither "." nor ".."?
 */
static bool cgroup_path_ok(const char *path)
{
	const char *p = path, *end;
	size_t len;

	if (path[0] != '/' || !path[1])
		return false;
	while (*p == '/') {
		p++;
		end = strchr(p, '/');
		len = end ? (size_t)(end - p) : strlen(p);
		if (!len || strspn(p, cgroup_name_chars) < len ||
		    (len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += len;
	}
	return !*p;
}

static int cgroup_load_one(struct cgroup_tree *t, const struct scenario_node *n,
			   const char *path, struct sim_error *err)
{
	const char *names[ARRAY_SIZE(cgroup_key_table)];
	struct cgroup_config *cg = &t->cg[t->nr];
	char parent[128];

	if (strlen(path) >= sizeof(cg->path)) {
		scenario_error(
			err, n,
			"cgroup path '%.40s...' is too long: %zu characters, at most %zu",
			path, strlen(path), sizeof(cg->path) - 1);
		return -1;
	}
	if (!cgroup_path_ok(path)) {
		char hint[sizeof(cg->path) + 24] = "";

		/* "top/leaf": cgroup paths start at the root */
		if (path[0] != '/') {
			snprintf(hint, sizeof(hint), "/%s", path);
			if (cgroup_path_ok(hint))
				snprintf(hint, sizeof(hint),
					 "; did you mean '/%s'?", path);
			else
				hint[0] = '\0';
		}
		scenario_error(
			err, n,
			"expected a cgroup path like /top/leaf (names of letters, digits and _.-:@+, not '.' or '..'), found '%s'%s",
			path, hint);
		return -1;
	}
	if (cgroup_find(t, path) >= 0) {
		scenario_error(err, n, "cgroup '%s' is listed twice", path);
		return -1;
	}
	cgroup_parent_path(path, parent, sizeof(parent));
	cg->parent = cgroup_find(t, parent);
	if (cg->parent < 0) {
		scenario_error(
			err, n,
			"the parent '%s' of cgroup '%s' is not listed before it",
			parent, path);
		return -1;
	}
	snprintf(cg->path, sizeof(cg->path), "%s", path);
	/* "/top:" with no settings: no protection, no limit */
	scenario_keys_defaults(cgroup_key_table, ARRAY_SIZE(cgroup_key_table),
			       cg);
	if (scenario_kind(n) == SCENARIO_SCALAR && !*scenario_scalar(n))
		goto out;
	scenario_key_names(cgroup_key_table, ARRAY_SIZE(names), names, 0,
			   ARRAY_SIZE(names));
	if (scenario_check_keys(n, names, ARRAY_SIZE(names), err) ||
	    scenario_keys_load(n, cgroup_key_table,
			       ARRAY_SIZE(cgroup_key_table), cg, NULL, err))
		return -1;
out:
	t->nr++;
	return 0;
}

/*
 * A key ending in "[A-B]" names B - A + 1 cgroups, the range's numbers in
 * place of the brackets ("/readers/c[1-1000]"): how many it names, or 0
 * for a plain path; *prefix is the part before the bracket.
 */
/* Digits only, at most 9 of them, as a number; -1 if none or more. */
static long cgroup_range_number(const char **s)
{
	const char *p = *s;
	long v = 0;

	while (*p >= '0' && *p <= '9' && p - *s < 9)
		v = v * 10 + (*p++ - '0');
	if (p == *s || (*p >= '0' && *p <= '9'))
		return -1;
	*s = p;
	return v;
}

/*
 * A key with a bracket that is not exactly one "[DIGITS-DIGITS]" at its
 * end ("/j[1-3", "/j[]", "/j[ 1- 3]", "/j[1-3]x") is malformed: SIZE_MAX,
 * as an empty range, never a plain path.
 */
static size_t cgroup_range(const char *key, char *prefix, size_t size,
			   unsigned long *first)
{
	const char *open = strchr(key, '['), *p;
	long a, b;

	if (!open && !strchr(key, ']'))
		return 0;
	if (!open || strchr(open + 1, '['))
		return SIZE_MAX;
	p = open + 1;
	a = cgroup_range_number(&p);
	if (a < 0 || *p++ != '-')
		return SIZE_MAX;
	b = cgroup_range_number(&p);
	if (b < 0 || *p++ != ']' || *p)
		return SIZE_MAX;
	if ((size_t)(open - key) >= size)
		return 0; /* too long: cgroup_load_one() says so */
	if (b < a || b - a >= (long)CGROUP_MAX * 4)
		return SIZE_MAX; /* empty, or far too many */
	memcpy(prefix, key, (size_t)(open - key));
	prefix[open - key] = '\0';
	*first = (unsigned long)a;
	return (size_t)(b - a + 1);
}

int cgroup_tree_load(struct cgroup_tree *t, const struct scenario_node *root,
		     struct sim_error *err)
{
	const struct scenario_node *n = scenario_get(root, "cgroups");
	size_t i, j, nr = n ? scenario_len(n) : 0, total = 0, count;
	char prefix[128], path[160];
	unsigned long first;

	memset(t, 0, sizeof(*t));
	if (n && scenario_kind(n) != SCENARIO_MAP) {
		scenario_error(err, n, "expected a map of cgroup paths");
		return -1;
	}
	for (i = 0; i < nr; i++) {
		count = cgroup_range(scenario_key(n, i), prefix, sizeof(prefix),
				     &first);
		if (count == SIZE_MAX) {
			scenario_error(
				err, scenario_item(n, i),
				"cgroup range '%s': expected [FIRST-LAST] with FIRST <= LAST and at most %d cgroups",
				scenario_key(n, i), CGROUP_MAX - 1);
			return -1;
		}
		total += count ? count : 1;
	}
	if (total >= CGROUP_MAX) {
		scenario_error(err, n, "at most %d cgroups, found %zu",
			       CGROUP_MAX - 1, total);
		return -1;
	}
	t->cg = calloc(total + 1, sizeof(*t->cg));
	if (!t->cg) {
		scenario_error(err, n, "out of memory");
		return -1;
	}
	snprintf(t->cg[0].path, sizeof(t->cg[0].path), "/");
	t->cg[0].parent = -1;
	t->cg[0].high = t->cg[0].max = UINT64_MAX;
	t->nr = 1;
	for (i = 0; i < nr; i++) {
		count = cgroup_range(scenario_key(n, i), prefix, sizeof(prefix),
				     &first);
		for (j = 0; j < (count ? count : 1); j++) {
			if (count)
				snprintf(path, sizeof(path), "%s%lu", prefix,
					 first + j);
			else
				snprintf(path, sizeof(path), "%s",
					 scenario_key(n, i));
			if (cgroup_load_one(t, scenario_item(n, i), path,
					    err)) {
				cgroup_tree_destroy(t);
				return -1;
			}
		}
	}
	return 0;
}

void cgroup_tree_destroy(struct cgroup_tree *t)
{
	free(t->cg);
	memset(t, 0, sizeof(*t));
}
