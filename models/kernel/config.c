// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/kernel/config.c - reading the `kernel:` knobs and the `cgroups:` tree.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include <libgen.h>
#include <stdint.h>

#include "models/kernel/config.h"
#include "models/kernel/pahole.h"
#include "sim/util.h"

static const char *const kernel_keys[] = {
	"memcg", "charge_batch", "stock_memcgs", "page_counter_layout",
	"memory_offset", "protected_usage_update", "kmem_accounting",
	"stats_flush_threshold", "local_stats", "stats_flush_period_ms",
	"page_counter_offsets", "page_counter_pahole", "cgroup_version",
	"reclaim_ns", "sk_reclaim", "stats_updates_atomic", "stats_version",
	"lruvec_stat_items", "memcg_stat_items", "memcg_event_items",
	"stats_flush_skip", "stats_parent_walk",
};
static const char *const parent_walk_names[] = { "statc_parent",
						 "parent_mem_cgroup" };
static const char *const stats_version_names[] = { "v6.0", "v6.6", "v6.8" };
static const char *const stats_atomic_names[] = { "always",
						  "below_threshold" };
static const char *const sk_reclaim_names[] = { "page", "quantum" };

static const char *const memcg_names[] = { "enabled", "disabled" };
static const char *const layout_names[] = { "v6.0", "v6.1", "custom",
					     "pahole" };
static const char *const protected_names[] = { "always", "if_changed" };
static const char *const kmem_names[] = { "off", "pages", "objects" };
static const char *const threshold_names[] = { "global", "per_memcg" };
static const char *const local_names[] = { "percpu_sum", "aggregated" };


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
		scenario_error(err, scenario_get(n, "page_counter_layout"),
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
			l->align = 64;	/* SIM: a member on a line boundary
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
		scenario_error(err, f ? f : scenario_get(n, "page_counter_layout"),
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
		scenario_error(err, scenario_get(n, "page_counter_offsets") ?
					    scenario_get(n, "page_counter_offsets") :
					    scenario_get(n, "page_counter_pahole"),
			       "only used with 'page_counter_layout: custom' or 'pahole'");
		return -1;
	}
	return 0;
}

/*
 * The statistics defaults of each version (doc/memcg-stats.md sections 1
 * and 6): v6.0 keeps every vm_event_item per CPU (about 110 on a distro
 * config); v6.1 keeps only the memcg_vm_event_stat[] ones (19 at v6.6, 22
 * at v6.8). v6.1 skips the global atomic once a flush is due; v6.8 counts
 * per memcg, flushes subtrees and no longer lets a flusher skip.
 */
static void stats_defaults(struct kernel_config *k)
{
	static const unsigned int events[] = { 110, 19, 22 };

	k->lruvec_stat_items = 43;
	k->memcg_stat_items = 43 + 7;
	k->memcg_event_items = events[k->stats_version];
	k->stats_updates_atomic = k->stats_version == STATS_V6_0 ?
		STATS_ATOMIC_ALWAYS : STATS_ATOMIC_BELOW_THRESHOLD;
	k->stats_flush_threshold = k->stats_version == STATS_V6_8 ?
		FLUSH_PER_MEMCG : FLUSH_GLOBAL;
	k->local_stats = k->stats_version == STATS_V6_0 ?
		LOCAL_PERCPU_SUM : LOCAL_AGGREGATED;
	k->stats_flush_skip = k->stats_version != STATS_V6_8;
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
		scenario_error(err, key_or_map(n, "memcg_event_items"),
			       "'memcg_event_items' must be at least %u for stats_version %s (PGFAULT is event %u), found %u",
			       need, stats_version_names[k->stats_version],
			       need - 1, k->memcg_event_items);
		return -1;
	}
	/* MEMCG_KMEM is the fifth memcg_stat_item after the node items */
	if (k->memcg_stat_items < k->lruvec_stat_items + 5) {
		scenario_error(err, key_or_map(n, "memcg_stat_items"),
			       "'memcg_stat_items' (MEMCG_NR_STAT) must be at least %u: the %u node items, then the memcg items up to MEMCG_KMEM; found %u",
			       k->lruvec_stat_items + 5, k->lruvec_stat_items,
			       k->memcg_stat_items);
		return -1;
	}
	return 0;
}

void kernel_config_defaults(struct kernel_config *k)
{
	memset(k, 0, sizeof(*k));
	k->charge_batch = 32;
	k->stock_memcgs = 1;
	k->memory_offset = -1;
	k->cgroup_version = 2;
	k->reclaim_ps = 1000 * SIM_PS_PER_NS;
	k->stats_flush_period_ms = 2000;
	stats_defaults(k);
}

int kernel_config_load(struct kernel_config *k,
		       const struct scenario_node *root, struct sim_error *err)
{
	const struct scenario_node *n = scenario_get(root, "kernel");
	unsigned int e, memcg;
	uint64_t v;

	kernel_config_defaults(k);
	if (!n)
		return 0;
	if (scenario_check_keys(n, kernel_keys, ARRAY_SIZE(kernel_keys), err))
		return -1;
	if (scenario_enum(n, "memcg", false, 0, memcg_names, ARRAY_SIZE(memcg_names),
			  &memcg, err))
		return -1;
	k->memcg_disabled = memcg == 1;
	if (scenario_u64(n, "charge_batch", false, 32, 1, 1 << 20, &v, err))
		return -1;
	k->charge_batch = (unsigned int)v;
	if (scenario_u64(n, "stock_memcgs", false, 1, 1, MEMCG_STOCK_MAX, &v, err))
		return -1;
	k->stock_memcgs = (unsigned int)v;
	if (scenario_enum(n, "page_counter_layout", false, PC_LAYOUT_V6_0,
			  layout_names, ARRAY_SIZE(layout_names), &e, err))
		return -1;
	k->page_counter_layout = e;
	if (layout_load(k, n, err))
		return -1;
	if (scenario_get(n, "memory_offset")) {
		if (scenario_u64(n, "memory_offset", false, 0, 0, 63, &v, err))
			return -1;
		if (v % 8) {
			scenario_error(err, scenario_get(n, "memory_offset"),
				       "'memory_offset' must be a multiple of 8, found %llu",
				       (unsigned long long)v);
			return -1;
		}
		k->memory_offset = (int)v;
	}
	if (scenario_u64(n, "cgroup_version", false, 2, 1, 2, &v, err))
		return -1;
	k->cgroup_version = (unsigned int)v;
	if (scenario_time_ps(n, "reclaim_ns", false, SIM_PS_PER_NS,
			     1000 * SIM_PS_PER_NS, 0, SIM_PS_PER_MS,
			     &k->reclaim_ps, err))
		return -1;
	if (scenario_enum(n, "sk_reclaim", false, 0, sk_reclaim_names,
			  ARRAY_SIZE(sk_reclaim_names), &e, err))
		return -1;
	k->sk_reclaim = e;
	if (scenario_enum(n, "stats_version", false, STATS_V6_0,
			  stats_version_names, ARRAY_SIZE(stats_version_names), &e, err))
		return -1;
	k->stats_version = e;
	stats_defaults(k);
	if (scenario_enum(n, "stats_updates_atomic", false,
			  k->stats_updates_atomic, stats_atomic_names,
			  ARRAY_SIZE(stats_atomic_names), &e, err))
		return -1;
	k->stats_updates_atomic = e;
	if (scenario_enum(n, "protected_usage_update", false, PROTECTED_ALWAYS,
			  protected_names, ARRAY_SIZE(protected_names), &e, err))
		return -1;
	k->protected_usage_update = e;
	if (scenario_enum(n, "kmem_accounting", false, KMEM_OFF, kmem_names,
			  ARRAY_SIZE(kmem_names), &e, err))
		return -1;
	k->kmem_accounting = e;
	if (scenario_enum(n, "stats_flush_threshold", false,
			  k->stats_flush_threshold,
			  threshold_names, ARRAY_SIZE(threshold_names), &e, err))
		return -1;
	k->stats_flush_threshold = e;
	if (scenario_enum(n, "local_stats", false, k->local_stats,
			  local_names, ARRAY_SIZE(local_names), &e, err))
		return -1;
	k->local_stats = e;
	if (scenario_u64(n, "stats_flush_period_ms", false, 2000, 1, 3600000,
			 &v, err))
		return -1;
	k->stats_flush_period_ms = (unsigned int)v;
	if (scenario_u64(n, "lruvec_stat_items", false, 43, 18, 1024, &v, err))
		return -1;
	k->lruvec_stat_items = (unsigned int)v;
	if (scenario_u64(n, "memcg_stat_items", false,
			 k->lruvec_stat_items + 7, 1, 2048, &v, err))
		return -1;
	k->memcg_stat_items = (unsigned int)v;
	if (scenario_u64(n, "memcg_event_items", false, k->memcg_event_items,
			 1, 1024, &v, err))
		return -1;
	k->memcg_event_items = (unsigned int)v;
	if (scenario_bool(n, "stats_flush_skip", false, k->stats_flush_skip,
			  &k->stats_flush_skip, err))
		return -1;
	if (scenario_enum(n, "stats_parent_walk", false, 0, parent_walk_names,
			  ARRAY_SIZE(parent_walk_names), &e, err))
		return -1;
	k->stats_parent_walk_memcg = e == 1;
	return stats_sizes_check(k, n, err);
}

static const char *const cgroup_keys[] = {
	"memory.min", "memory.low", "memory.high", "memory.max", "reclaimable",
};

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
		len = 1;	/* the parent is the root */
	if (len >= size)
		return -1;
	memcpy(parent, path, len);
	parent[len] = '\0';
	return 0;
}

static bool cgroup_path_ok(const char *path)
{
	size_t len = strlen(path);

	if (len < 2 || path[0] != '/' || path[len - 1] == '/')
		return false;
	return !strstr(path, "//");
}

static int cgroup_load_one(struct cgroup_tree *t, const struct scenario_node *n,
			   const char *path, struct sim_error *err)
{
	struct cgroup_config *cg = &t->cg[t->nr];
	char parent[128];

	if (!cgroup_path_ok(path) || strlen(path) >= sizeof(cg->path)) {
		scenario_error(err, n,
			       "expected a cgroup path like /top/leaf, found '%s'",
			       path);
		return -1;
	}
	if (cgroup_find(t, path) >= 0) {
		scenario_error(err, n, "cgroup '%s' is listed twice", path);
		return -1;
	}
	cgroup_parent_path(path, parent, sizeof(parent));
	cg->parent = cgroup_find(t, parent);
	if (cg->parent < 0) {
		scenario_error(err, n,
			       "the parent '%s' of cgroup '%s' is not listed before it",
			       parent, path);
		return -1;
	}
	snprintf(cg->path, sizeof(cg->path), "%s", path);
	if (scenario_kind(n) == SCENARIO_SCALAR && !*scenario_scalar(n))
		goto out;	/* "/top:" with no settings */
	if (scenario_check_keys(n, cgroup_keys, ARRAY_SIZE(cgroup_keys), err))
		return -1;
	if (scenario_size(n, "memory.min", false, 0, UINT64_MAX, &cg->min, err) ||
	    scenario_size(n, "memory.low", false, 0, UINT64_MAX, &cg->low, err) ||
	    scenario_size(n, "memory.high", false, UINT64_MAX, UINT64_MAX,
			  &cg->high, err) ||
	    scenario_size(n, "memory.max", false, UINT64_MAX, UINT64_MAX,
			  &cg->max, err) ||
	    scenario_size(n, "reclaimable", false, 0, UINT64_MAX,
			  &cg->reclaimable, err))
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
static size_t cgroup_range(const char *key, char *prefix, size_t size,
			   unsigned long *first)
{
	const char *open = strrchr(key, '[');
	unsigned long a, b;
	int used = 0;

	if (!open || strchr(open, '/') ||
	    sscanf(open, "[%lu-%lu]%n", &a, &b, &used) != 2 ||
	    open[used] != '\0' || (size_t)(open - key) >= size)
		return 0;
	if (b < a || b - a >= (unsigned long)CGROUP_MAX * 4)
		return SIZE_MAX;	/* empty, or far too many */
	memcpy(prefix, key, (size_t)(open - key));
	prefix[open - key] = '\0';
	*first = a;
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
			scenario_error(err, scenario_item(n, i),
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
			if (cgroup_load_one(t, scenario_item(n, i), path, err)) {
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
