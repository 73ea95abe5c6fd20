/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/kernel/sim/config.h - the kernel design choices a scenario can set, and the
 * cgroup tree.
 *
 * Theory of operation: `kernel:` holds the knobs of doc/design.md section 5
 * under the kernel's own names (MEMCG_CHARGE_BATCH is charge_batch), with
 * the defaults of Linux v6.0. `cgroups:` maps cgroup paths to their memory
 * controls (memory.min, memory.low, memory.high, memory.max); every
 * cgroup's parent must be listed too, or be the root "/".
 *
 * Both are read and range-checked here, so a scenario with a bad value is
 * refused before anything runs. Each `kernel:` key is declared once, in
 * kernel_key_table[] (config.c): its name, type, range, default at each
 * stats_version, the member it sets and a line of doc. One loop reads
 * them, another sets the defaults, and `memcgsim help keys` prints them
 * for --help, memcgsim(1) and README.md (tests/run-keys.sh checks that the
 * two documents say what the table says). A cgroup's keys are a table of
 * sim/scenario_keys.h (cgroup_keys()), read by its loop. The charge-path and statistics models that
 * act on them are models/kernel/mm/page_counter.c, models/kernel/mm/memcontrol.c and
 * models/kernel/kernel/cgroup/rstat.c (to come); the teaching workloads ignore them.
 */
#ifndef MODELS_KERNEL_CONFIG_H
#define MODELS_KERNEL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/kernel/mm/page_counter.h"
#include "sim/scenario.h"
#include "sim/scenario_keys.h"

enum kernel_pc_layout {
	PC_LAYOUT_V6_0,
	PC_LAYOUT_V6_1,
	PC_LAYOUT_CUSTOM, /* page_counter_offsets: {member: offset} */
	PC_LAYOUT_PAHOLE, /* page_counter_pahole: FILE */
};
enum kernel_protected_update { PROTECTED_ALWAYS, PROTECTED_IF_CHANGED };
enum kernel_kmem { KMEM_OFF, KMEM_PAGES, KMEM_OBJECTS };
/*
 * The obj_cgroup stock of mm/memcontrol.c (memcontrol.c's object-stock
 * section): v5.13 slab statistics straight to the per-CPU counters;
 * v6.0 cached in the stock (v5.14, "mm/memcg: cache vmstat data in
 * percpu memcg_stock_pcp"); v6.16 a per-CPU obj_stock_pcp of its own,
 * charge and statistics in one pass.
 */
enum kernel_obj_stock { OBJ_STOCK_V5_13, OBJ_STOCK_V6_0, OBJ_STOCK_V6_16 };
enum kernel_flush_threshold { FLUSH_GLOBAL, FLUSH_PER_MEMCG };
enum kernel_stats_atomic {
	STATS_ATOMIC_ALWAYS,
	STATS_ATOMIC_BELOW_THRESHOLD,
};
enum kernel_local_stats { LOCAL_PERCPU_SUM, LOCAL_AGGREGATED };
/* The statistics code of mm/memcontrol.c and kernel/cgroup/rstat.c. */
enum kernel_stats_version { STATS_V6_0, STATS_V6_6, STATS_V6_8 };
/* sched_class: the fair class's pick (models/kernel/kernel/sched/fair.h) */
enum kernel_sched_class { SCHED_CLASS_CFS, SCHED_CLASS_EEVDF };
/*
 * cpuidle: how an idle CPU waits (models/kernel/drivers/cpuidle/menu.h):
 * in the state the menu or the teo governor (teo.h) picks from the
 * profile's idle_states, or polling (the idle=poll boot option: a
 * wake-up is free).
 */
enum kernel_cpuidle { CPUIDLE_MENU, CPUIDLE_POLL, CPUIDLE_TEO };
/*
 * lru_lock: the LRU lock and per-CPU LRU-add batches of
 * models/kernel/mm/swap.h: off (folios reach the LRU at once, no lock),
 * per_node (v4.8 to v5.10: pgdat->lru_lock) or per_lruvec (v5.11 on: a
 * lock per memcg and node)
 */
enum kernel_lru_lock { LRU_LOCK_OFF, LRU_LOCK_PER_NODE, LRU_LOCK_PER_LRUVEC };
/*
 * The kernels `version:` presets (config.c kernel_presets[]); KV_NONE is
 * the model's own defaults, those of every scenario without `version:`.
 */
enum kernel_version {
	KV_NONE,
	KV_4_8,
	KV_6_0,
	KV_6_1,
	KV_6_6,
	KV_6_8,
	KV_STABLE,
	NR_KERNEL_VERSIONS
};

struct kernel_config {
	bool memcg_disabled; /* cgroup_disable=memory */
	unsigned int charge_batch; /* MEMCG_CHARGE_BATCH */
	unsigned int stock_memcgs; /* memcgs per CPU stock */
	enum kernel_pc_layout page_counter_layout;
	struct page_counter_layout pc_layout; /* custom or pahole */
	int memory_offset; /* &memcg->memory % 64; -1: by layout */
	unsigned int cgroup_version; /* 1 (legacy) or 2 */
	bool tcpmem_active; /* v1: memory.kmem.tcp.limit_in_bytes written */
	bool swap_account; /* v1: memsw charged beside memory (swapaccount=1) */
	uint64_t reclaim_ps; /* reclaim cost per page reclaimed */
	unsigned int
		sk_reclaim; /* enum sk_reclaim_policy (models/kernel/net/core/sock.h) */
	enum kernel_protected_update protected_usage_update;
	enum kernel_kmem kmem_accounting;
	enum kernel_obj_stock obj_stock_version;
	enum kernel_flush_threshold stats_flush_threshold;
	enum kernel_stats_atomic stats_updates_atomic;
	enum kernel_local_stats local_stats;
	unsigned int stats_flush_period_ms;
	/*
	 * stats_version sets the defaults of the keys above and below to
	 * what that kernel does (doc/memcg-stats.md section 6); a key set
	 * on its own wins.
	 */
	enum kernel_stats_version stats_version;
	/* version sets every key's default as that kernel has it */
	enum kernel_version version;
	unsigned int lruvec_stat_items; /* NR_VM_NODE_STAT_ITEMS */
	unsigned int memcg_stat_items; /* MEMCG_NR_STAT */
	unsigned int memcg_event_items; /* NR_VM_EVENT_ITEMS / NR_MEMCG_EVENTS */
	bool stats_flush_skip; /* one flusher, the others skip */
	bool stats_parent_walk_memcg; /* per_memcg before 9cee7e8ef3e3 */
	enum kernel_sched_class sched_class; /* CFS, or EEVDF from v6.6 */
	enum kernel_cpuidle cpuidle; /* menu, teo, or poll (idle=poll) */
	enum kernel_lru_lock lru_lock;
	unsigned int lru_add_batch; /* PAGEVEC_SIZE */
	uint64_t lru_folio_ps; /* own work per folio under the LRU lock */
};

#define CGROUP_MAX 4096
#define MEMCG_STOCK_MAX 8 /* stock_memcgs: later kernels cache 7 */

struct cgroup_config {
	char path[128];
	int parent; /* index, -1 for the root */
	uint64_t min, low, high, max; /* bytes; max = UINT64_MAX */
	uint64_t reclaimable; /* bytes reclaim can free */
};

struct cgroup_tree {
	unsigned int nr;
	struct cgroup_config *cg; /* [0] is the root "/" */
};

#define NR_STATS_VERSIONS 3

enum kernel_key_type {
	KEY_U32, /* an integer, stored in an unsigned or int member */
	KEY_BOOL, /* true or false */
	KEY_ENUM, /* one of @names, stored as its index */
	KEY_TIME, /* a duration in ns (or with a unit), stored in ps */
	KEY_MAP, /* read by another key's @check (page_counter_offsets) */
	KEY_FILE, /* read by another key's @check (page_counter_pahole) */
};

/**
 * struct kernel_key - one key of the `kernel:` map, declared once.
 * @name: the scenario key
 * @type: how its value is written
 * @offset: the member of struct kernel_config it sets
 * @size: that member's size in bytes: 1 (bool), 4 (unsigned, int, enum)
 *	or 8 (uint64_t)
 * @min: the smallest value allowed (KEY_U32; KEY_TIME in ps)
 * @max: the largest value allowed
 * @multiple: KEY_U32: the value must be a multiple of this (0: any)
 * @def: the default at each stats_version (v6.0, v6.6, v6.8): a number,
 *	a duration in ps, a bool or an index into @names
 * @def_fn: when set, the default is computed from the keys read before
 *	(memcg_stat_items from lruvec_stat_items); @def_doc says how
 * @def_doc: the default in words, for a default that is no plain value
 * @optional: absent, the member keeps @def and the getter is not called
 * @names: KEY_ENUM: the values, in the order of the member's enum
 * @nr_names: how many
 * @check: when set, run after the key is read (its errors point at the
 *	key or its companions)
 * @doc: one line for `memcgsim help keys` and memcgsim(1)
 */
struct kernel_key {
	const char *name;
	enum kernel_key_type type;
	size_t offset, size;
	uint64_t min, max;
	unsigned int multiple;
	int64_t def[NR_STATS_VERSIONS];
	uint64_t (*def_fn)(const struct kernel_config *k);
	const char *def_doc;
	bool optional;
	const char *const *names;
	unsigned int nr_names;
	int (*check)(struct kernel_config *k, const struct scenario_node *n,
		     struct sim_error *err);
	const char *doc;
};

/* The `kernel:` keys, in the order of their table; *nr is set. */
const struct kernel_key *kernel_keys(unsigned int *nr);
const struct kernel_key *kernel_key_find(const char *name);
/*
 * Words for help texts and the man page: the type ("integer", "one of
 * v6.0, v6.1, custom, pahole"), the range ("1 to 1048576", "" for none)
 * and the default ("32", "110 (v6.0), 19 (v6.6), 22 (v6.8)").
 */
const char *kernel_key_type_name(const struct kernel_key *key);
void kernel_key_range(const struct kernel_key *key, char *buf, size_t size);
void kernel_key_default(const struct kernel_key *key, char *buf, size_t size);

/*
 * The default of the key called @name in kernel @v's preset, in the
 * key's stored form: true when the preset sets it.
 */
bool kernel_preset_value(enum kernel_version v, const char *name, int64_t *out);

/* Linux v6.0's, as a scenario without `kernel:` gets them. */
void kernel_config_defaults(struct kernel_config *k);
int kernel_config_load(struct kernel_config *k,
		       const struct scenario_node *root, struct sim_error *err);
/* The keys of one cgroup of `cgroups:` (memory.min ...); *nr is set. */
const struct scenario_key *cgroup_keys(unsigned int *nr);
int cgroup_tree_load(struct cgroup_tree *t, const struct scenario_node *root,
		     struct sim_error *err);
void cgroup_tree_destroy(struct cgroup_tree *t);
int cgroup_find(const struct cgroup_tree *t, const char *path);

#endif /* MODELS_KERNEL_CONFIG_H */
