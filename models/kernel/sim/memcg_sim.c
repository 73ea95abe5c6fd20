// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/kernel/sim/memcg_sim.c - SIM only: the memory controller of a run.
 * Builds every memcg of the scenario's cgroup tree with its page_counters
 * placed in simulated memory (struct mem_cgroup's layout as far as the
 * model touches it), every CPU's stock, and the statistics structs with
 * the kernel's sizes per stats_version. The modelled kernel functions are
 * in memcontrol.c and memcontrol_stats.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/kernel/mm/memcontrol_internal.h"
#include "models/kernel/mm/swap.h"
#include "sim/error.h"
#include "sim/util.h"

/* SIM: the items a run holds only when a workload asks for them */
static bool sim_stat_opt_in(int idx)
{
	return idx == SIM_NR_FILE_MAPPED || idx == SIM_NR_FILE_PAGES ||
	       idx == SIM_NR_SHMEM;
}

static const struct coh_layout_field stock_fields[] = {
	{ "cached", 0, 8 },
	{ "nr_pages", 8, 4 },
	{ "cached_objcg", 16, 8 },
	{ "nr_bytes", 32, 4 },
};

/* pgdat->per_cpu_nodestats: this CPU's s8 diffs of the node items */
static const struct coh_layout_field node_pcp_fields[] = {
	{ "vm_node_stat_diff", 0, 48 },
};

/* DEFINE_PER_CPU(unsigned int, stats_updates) (v6.0 to v6.7) */
static const struct coh_layout_field pcpu_stats_fields[] = {
	{ "stats_updates", 0, 4 },
};

static const struct coh_layout_field global_fields[] = {
	{ "counter", 0, 4 },
};

/* v6.16's struct obj_stock_pcp, after its local_trylock_t */
static const struct coh_layout_field obj_stock_fields[] = {
	{ "cached_objcg", 8, 8 },
	{ "nr_bytes", 24, 4 },
};

static const struct coh_layout_field objcg_fields[] = {
	{ "nr_charged_bytes", 24, 4 },
};

static unsigned int round_up(unsigned int x, unsigned int a)
{
	return (x + a - 1) / a * a;
}

/*
 * The layout of struct mem_cgroup as far as the model touches it: the
 * object starts on a line boundary; css.parent and id are the 16 bytes
 * before `memory` (v6.0: css is 200 bytes, id 8, so memory is at 208 = 16
 * into a line); then memory, swap (memsw on v1), kmem and (v1 with
 * tcpmem_active) tcpmem page_counters. Of swap, only usage and high are
 * laid out (the memory.high check's loads); with do_memsw_account() the
 * same storage is memsw, whole.
 */
static void memcg_layout_build(struct memcg_sim *ms, unsigned int mo)
{
	const struct page_counter_layout *pcl = &ms->pcl;
	unsigned int m = mo >= 16 ? mo : mo + 64;
	unsigned int stride = round_up(pcl->size, pcl->align);
	unsigned int nr = NR_MEMCG_MEMBERS + 4 * NR_PC_MEMBERS, i, n = 0;
	struct coh_layout_field *fl = calloc(nr, sizeof(*fl));
	/*
	 * SIM: tcpmem is laid out only where it is charged (v1 with
	 * tcpmem_active), so that every other run's layout stays as it was
	 */
	unsigned int nr_pcs = memcg1_tcpmem_active(ms->k) ? 4 : 3;
	/* SIM: likewise memsw is laid out whole only where it is charged */
	bool memsw = do_memsw_account(ms->k);

	/* "memory.usage" ... "tcpmem.parent": page_counter names, prefixed */
	for (i = 0; i < NR_PC_MEMBERS; i++) {
		snprintf(ms->member_names[0][i], sizeof(ms->member_names[0][i]),
			 "memory.%s", page_counter_member_names[i]);
		snprintf(ms->member_names[1][i], sizeof(ms->member_names[1][i]),
			 "kmem.%s", page_counter_member_names[i]);
		snprintf(ms->member_names[2][i], sizeof(ms->member_names[2][i]),
			 "tcpmem.%s", page_counter_member_names[i]);
		snprintf(ms->member_names[3][i], sizeof(ms->member_names[3][i]),
			 "%s.%s", memsw ? "memsw" : "swap",
			 page_counter_member_names[i]);
	}
	SIM_OOM_ON(!fl);
	fl[n++] = (struct coh_layout_field){ "css.parent", m - 16, 8 };
	fl[n++] = (struct coh_layout_field){ "id", m - 8, 8 };
	fl[n++] = (struct coh_layout_field){ ms->member_names[3][PC_USAGE],
					     m + stride + pcl->offset[PC_USAGE],
					     8 };
	fl[n++] = (struct coh_layout_field){ ms->member_names[3][PC_HIGH],
					     m + stride + pcl->offset[PC_HIGH],
					     8 };
	/*
	 * socket_pressure sits far into the struct, among read-mostly
	 * members (after the statistics): SIM: a line of its own.
	 */
	fl[n++] = (struct coh_layout_field){ "socket_pressure",
					     round_up(m + nr_pcs * stride, 64),
					     8 };
	for (i = 0; i < NR_PC_MEMBERS; i++)
		fl[n++] = (struct coh_layout_field){ ms->member_names[0][i],
						     m + pcl->offset[i], 8 };
	for (i = 0; i < NR_PC_MEMBERS; i++)
		fl[n++] = (struct coh_layout_field){ ms->member_names[1][i],
						     m + 2 * stride +
							     pcl->offset[i],
						     8 };
	for (i = 0; nr_pcs == 4 && i < NR_PC_MEMBERS; i++)
		fl[n++] = (struct coh_layout_field){ ms->member_names[2][i],
						     m + 3 * stride +
							     pcl->offset[i],
						     8 };
	/* memsw (do_memsw_account()): its other members, after the rest */
	ms->memsw_first = n;
	for (i = 0; memsw && i < NR_PC_MEMBERS; i++)
		if (i != PC_USAGE && i != PC_HIGH)
			fl[n++] = (struct coh_layout_field){
				ms->member_names[3][i],
				m + stride + pcl->offset[i], 8
			};
	ms->memcg_fields = fl;
	ms->memcg_layout = (struct coh_layout){
		.name = "mem_cgroup",
		.size = round_up(m + nr_pcs * stride, 64) + 64,
		.nr_fields = n,
		.fields = fl,
	};
}

/*
 * Where struct mem_cgroup is: mem_cgroup_alloc() kzalloc()s it, 4032 to
 * 4608 bytes by config (struct_size() with nodeinfo[]), so from
 * kmalloc-4k or kmalloc-8k, whose objects are naturally aligned: page
 * aligned either way. The modelled part's line 0 (css.parent, id and the
 * start of memory) is the struct's line at 0xc0 = 192 (v6.0: Eric
 * Dumazet, netdev 2022-06-24, css.parent at 0xc0, memory at 0xd0), the
 * second of its 128-byte pair. SIM: 192 for every layout; v6.1's
 * PC_PADDING moves usage, not css.parent.
 */
static const struct coh_place memcg_kmalloc = {
	.align = COH_PAGE_SIZE,
	.offset = 192,
	.size = 8192,
	.cpu = -1,
};

/*
 * The page_counter layout of @k: a kernel version's, or one the scenario
 * gave, checked when the scenario was loaded (models/kernel/sim/config.c).
 */
static void layout_resolve(struct memcg_sim *ms, const struct kernel_config *k)
{
	switch (k->page_counter_layout) {
	case PC_LAYOUT_V6_0:
		ms->pcl = page_counter_layout_v6_0;
		break;
	case PC_LAYOUT_V6_1:
		ms->pcl = page_counter_layout_v6_1;
		break;
	case PC_LAYOUT_CUSTOM:
	case PC_LAYOUT_PAHOLE:
		ms->pcl = k->pc_layout;
		break;
	}
}

static void page_counter_place(struct page_counter *pc, struct coh_object *obj,
			       unsigned int first)
{
	unsigned int i;

	for (i = 0; i < NR_PC_MEMBERS; i++)
		pc->f[i] = coh_object_field(obj, first + i);
}

static void stat_layout_add(struct stat_layout *sl, const char *name,
			    unsigned int n, unsigned int align)
{
	unsigned int a = sl->nr_arrays++, off = sl->l.size;

	SIM_BUG_ON(a >= STAT_MAX_ARRAYS);
	if (align)
		off = round_up(off, align);
	sl->a[a].off = off;
	sl->a[a].n = n;
	sl->l.size = off + 8 * n;
	sl->l.name = sl->l.name ? sl->l.name : name;
}

/* Split each array into fields at line boundaries. */
static void stat_layout_finish(struct stat_layout *sl, const char *type,
			       const char *const *names, unsigned int align)
{
	unsigned int a, nr = 0, off, end;

	sl->l.name = type;
	if (align)
		sl->l.size = round_up(sl->l.size, align);
	for (a = 0; a < sl->nr_arrays; a++)
		if (sl->a[a].n)
			nr += (sl->a[a].off + 8 * sl->a[a].n - 1) / 64 -
			      sl->a[a].off / 64 + 1;
	sl->fields = calloc(nr, sizeof(*sl->fields));
	sl->names = calloc(nr, sizeof(*sl->names));
	SIM_OOM_ON(!sl->fields || !sl->names);
	nr = 0;
	for (a = 0; a < sl->nr_arrays; a++) {
		sl->a[a].first = nr;
		for (off = sl->a[a].off; off < sl->a[a].off + 8 * sl->a[a].n;
		     off = end) {
			end = round_up(off + 1, 64);
			if (end > sl->a[a].off + 8 * sl->a[a].n)
				end = sl->a[a].off + 8 * sl->a[a].n;
			if (sl->a[a].n == 1)
				snprintf(sl->names[nr], sizeof(sl->names[nr]),
					 "%s", names[a]);
			else
				snprintf(sl->names[nr], sizeof(sl->names[nr]),
					 "%s[%u-%u]", names[a],
					 (off - sl->a[a].off) / 8,
					 (end - sl->a[a].off) / 8 - 1);
			sl->fields[nr] =
				(struct coh_layout_field){ sl->names[nr], off,
							   end - off };
			nr++;
		}
	}
	sl->l.nr_fields = nr;
	sl->l.fields = sl->fields;
}

static void stat_layout_free(struct stat_layout *sl)
{
	free(sl->fields);
	free(sl->names);
}

/*
 * The layouts of doc/memcg-stats.md 1.4 for the configured sizes: M state
 * items, E events, S node items.
 */
static void stats_layouts_build(struct memcg_sim *ms)
{
	static const char *const pa[] = { "stats_updates", "state",
					  "events",	   "state_prev",
					  "events_prev",   "nr_page_events" };
	static const char *const va[] = { "state",	   "events",
					  "state_local",   "events_local",
					  "state_pending", "events_pending",
					  "stats_updates" };
	static const char *const lpa[] = { "state", "state_prev" };
	static const char *const la[] = { "state", "state_local",
					  "state_pending" };
	const struct kernel_config *k = ms->k;
	unsigned int m = k->memcg_stat_items, e = k->memcg_event_items;
	unsigned int s = k->lruvec_stat_items;
	/* the v6.8 header came with the per-memcg threshold */
	bool v68 = k->stats_flush_threshold == FLUSH_PER_MEMCG;
	bool tail = v68 && k->stats_parent_walk_memcg;
	bool local = k->local_stats == LOCAL_AGGREGATED;

	/*
	 * v6.8 (9cee7e8ef3e3) puts stats_updates and the cached parent and
	 * vmstats pointers first (24 bytes: state[0..4] share their line)
	 * and aligns the struct to a line; 8d59d2214c23 before it
	 * (stats_parent_walk: parent_mem_cgroup) had stats_updates alone at
	 * the end.
	 */
	stat_layout_add(&ms->pcpu_sl, "", v68 && !tail ? 3 : 0, 0);
	stat_layout_add(&ms->pcpu_sl, "", m, 0);
	stat_layout_add(&ms->pcpu_sl, "", e, 0);
	stat_layout_add(&ms->pcpu_sl, "", m, 0);
	stat_layout_add(&ms->pcpu_sl, "", e, 0);
	stat_layout_add(&ms->pcpu_sl, "", 1, 0); /* + targets[2] */
	ms->pcpu_sl.l.size += 16;
	if (tail) {
		/* the header array moves to the end: one slot */
		ms->pcpu_sl.a[PA_HDR].off = ms->pcpu_sl.l.size;
		ms->pcpu_sl.a[PA_HDR].n = 1;
		ms->pcpu_sl.l.size += 8;
	}
	stat_layout_finish(&ms->pcpu_sl, "memcg_vmstats_percpu", pa,
			   v68 && !tail ? 64 : 0);

	stat_layout_add(&ms->vmstats_sl, "", m, 0);
	stat_layout_add(&ms->vmstats_sl, "", e, 0);
	stat_layout_add(&ms->vmstats_sl, "", local ? m : 0, 0);
	stat_layout_add(&ms->vmstats_sl, "", local ? e : 0, 0);
	stat_layout_add(&ms->vmstats_sl, "", m, 0);
	stat_layout_add(&ms->vmstats_sl, "", e, 0);
	stat_layout_add(&ms->vmstats_sl, "", v68 ? 1 : 0, 0);
	stat_layout_finish(&ms->vmstats_sl, "memcg_vmstats", va, 0);

	stat_layout_add(&ms->lruvec_pcpu_sl, "", s, 0);
	stat_layout_add(&ms->lruvec_pcpu_sl, "", s, 0);
	stat_layout_finish(&ms->lruvec_pcpu_sl, "lruvec_stats_percpu", lpa, 0);

	stat_layout_add(&ms->lruvec_sl, "", s, 0);
	stat_layout_add(&ms->lruvec_sl, "", local ? s : 0, 0);
	stat_layout_add(&ms->lruvec_sl, "", s, 0);
	stat_layout_finish(&ms->lruvec_sl, "lruvec_stats", la, 0);
}

/*
 * SIM: the objects of a memcg are named by its cgroup path, so that two
 * cgroups called leaf under different parents stay apart in the hot lines
 * and heat maps. An object's name is at most 39 bytes: a path longer than
 * @room keeps its last levels after "...", "/top/mid/leaf" becoming
 * ".../mid/leaf" in 12.
 */
static const char *memcg_path_name(const struct mem_cgroup *memcg, size_t room,
				   char *buf, size_t size)
{
	const char *path = memcg->path, *tail;
	size_t len = strlen(path);

	if (len <= room)
		return path;
	tail = path + len - (room - 3);
	if (strchr(tail + 1, '/'))
		tail = strchr(tail + 1, '/');
	snprintf(buf, size, "...%s", tail);
	return buf;
}

struct memcg_vmstats_percpu *
memcg__vmstats_percpu_make(struct memcg_sim *ms, struct mem_cgroup *memcg,
			   unsigned int cpu)
{
	struct memcg_vmstats_percpu *statc = NULL;
	char name[64], pbuf[24];
	const char *path;
	unsigned int node;
	struct coh_place at;

	if (!memcg->vmstats_percpu) {
		memcg->vmstats_percpu =
			calloc(ms->nr_cpus, sizeof(*memcg->vmstats_percpu));
		SIM_OOM_ON(!memcg->vmstats_percpu);
	}
	statc = memcg->vmstats_percpu[cpu];
	if (statc)
		return statc;
	statc = calloc(1, sizeof(*statc));
	SIM_OOM_ON(!statc);
	statc->lruvec = calloc(ms->nr_nodes, sizeof(*statc->lruvec));
	SIM_OOM_ON(!statc->lruvec);
	path = memcg_path_name(memcg, 16, pbuf, sizeof(pbuf));
	snprintf(name, sizeof(name), "vmstats_percpu(%s)@cpu%u", path, cpu);
	/* alloc_percpu_gfp(struct memcg_vmstats_percpu): a dynamic area */
	at = coh_per_cpu(cpu, 0, true);
	statc->obj = coh_object_place(ms->coh, name, &ms->pcpu_sl.l, &at);
	for (node = 0; node < ms->nr_nodes; node++) {
		snprintf(name, sizeof(name), "lruvec_pcpu(%s,%u)@cpu%u", path,
			 node, cpu);
		statc->lruvec[node].obj = coh_object_place(
			ms->coh, name, &ms->lruvec_pcpu_sl.l, &at);
	}
	memcg->vmstats_percpu[cpu] = statc;
	return statc;
}

static void memcg_stats_init(struct memcg_sim *ms)
{
	const struct machine *m = coh_machine(ms->coh);
	unsigned int i, node, cpu;
	char name[64], pbuf[32];
	struct coh_place at;
	const char *path;

	ms->nr_nodes = m->sockets;
	stats_layouts_build(ms);
	ms->node_pcp_layout = (struct coh_layout){ "per_cpu_nodestats", 64,
						   ARRAY_SIZE(node_pcp_fields),
						   node_pcp_fields };
	ms->state_slot =
		malloc(ms->k->memcg_stat_items * sizeof(*ms->state_slot));
	ms->event_slot =
		malloc(ms->k->memcg_event_items * sizeof(*ms->event_slot));
	SIM_OOM_ON(!ms->state_slot || !ms->event_slot);
	for (i = 0; i < ms->k->memcg_stat_items; i++)
		ms->state_slot[i] = -1;
	for (i = 0; i < ms->k->memcg_event_items; i++)
		ms->event_slot[i] = -1;
	memcg__stat_index_init(ms);
	for (i = 0; i < NR_SIM_STATE; i++)
		/*
		 * SIM: the slab item gets its slot from its first update
		 * (memcontrol.c), so that memory.stat reads of runs without
		 * slab statistics check the items they checked before; the
		 * file items get theirs from memcg_sim_model_stat().
		 */
		if (!sim_stat_opt_in((int)i) &&
		    i != SIM_NR_SLAB_UNRECLAIMABLE_B)
			ms->state_slot[memcg__stat_index(ms, (int)i)] = (int)i;
	for (i = 0; i < NR_SIM_EVENTS; i++)
		ms->event_slot[memcg__event_index(ms, memcg__sim_event_ev[i])] =
			(int)i;
	ms->flush_period_ps =
		(sim_time_t)ms->k->stats_flush_period_ms * SIM_PS_PER_MS;
	/* as if the periodic flusher had just run at time 0 */
	ms->flush_next_time = 2 * ms->flush_period_ps;
	sim_stat_init(&ms->flush_lat);
	sim_stat_init(&ms->read_lat);
	sim_stat_init(&ms->pass_lat);

	ms->cgroup_parent = calloc(ms->nr_memcgs, sizeof(*ms->cgroup_parent));
	SIM_OOM_ON(!ms->cgroup_parent);
	for (i = 0; i < ms->nr_memcgs; i++) {
		struct mem_cgroup *memcg = &ms->memcgs[i];

		ms->cgroup_parent[i] = memcg->parent ? (int)memcg->parent->id :
						       -1;
		path = memcg_path_name(memcg, 24, pbuf, sizeof(pbuf));
		snprintf(name, sizeof(name), "vmstats(%s)", path);
		memcg->vmstats.obj =
			coh_object_create(ms->coh, name, &ms->vmstats_sl.l, 0);
		memcg->lruvec_stats =
			calloc(ms->nr_nodes, sizeof(*memcg->lruvec_stats));
		SIM_OOM_ON(!memcg->lruvec_stats);
		for (node = 0; node < ms->nr_nodes; node++) {
			snprintf(name, sizeof(name), "lruvec_stats(%.16s,%u)",
				 memcg_path_name(memcg, 16, pbuf, sizeof(pbuf)),
				 node);
			memcg->lruvec_stats[node].obj = coh_object_create(
				ms->coh, name, &ms->lruvec_sl.l, 0);
		}
	}
	ms->rstat = rstat_create(ms->coh, ms->k->stats_version, ms->nr_cpus,
				 ms->cgroup_parent, ms->nr_memcgs,
				 mem_cgroup_css_rstat_flush, ms);
	ms->flush_lock = coh_object_create(ms->coh, "stats_flush_lock",
					   &ms->global_layout, 0);
	ms->flush_time = coh_object_create(ms->coh, "flush_next_time",
					   &ms->global_layout, 0);
	ms->node_pcp = calloc((size_t)ms->nr_cpus * ms->nr_nodes,
			      sizeof(*ms->node_pcp));
	ms->node_diff =
		calloc((size_t)ms->nr_cpus * ms->nr_nodes * NR_SIM_NODE_ITEMS,
		       sizeof(*ms->node_diff));
	ms->node_vm_stat = calloc(ms->nr_nodes, sizeof(*ms->node_vm_stat));
	ms->cold_seen = calloc(ms->nr_cpus, sizeof(*ms->cold_seen));
	SIM_OOM_ON(!ms->node_pcp || !ms->node_diff || !ms->node_vm_stat ||
		   !ms->cold_seen);
	for (cpu = 0; cpu < ms->nr_cpus; cpu++)
		for (node = 0; node < ms->nr_nodes; node++) {
			snprintf(name, sizeof(name), "nodestats%u@cpu%u", node,
				 cpu);
			/* pgdat->per_cpu_nodestats: alloc_percpu() */
			at = coh_per_cpu(cpu, 0, true);
			ms->node_pcp[cpu * ms->nr_nodes + node] =
				coh_object_place(ms->coh, name,
						 &ms->node_pcp_layout, &at);
		}
	for (node = 0; node < ms->nr_nodes; node++) {
		snprintf(name, sizeof(name), "pgdat%u->vm_stat", node);
		ms->node_vm_stat[node] = coh_object_create(
			ms->coh, name, &ms->lruvec_pcpu_sl.l, 0);
	}
	ms->vm_node_stat = coh_object_create(ms->coh, "vm_node_stat",
					     &ms->lruvec_pcpu_sl.l, 0);
}

static void memcg_stats_free(struct memcg_sim *ms)
{
	unsigned int i, cpu;

	for (i = 0; i < ms->nr_memcgs; i++) {
		struct mem_cgroup *memcg = &ms->memcgs[i];

		if (memcg->vmstats_percpu)
			for (cpu = 0; cpu < ms->nr_cpus; cpu++)
				if (memcg->vmstats_percpu[cpu]) {
					free(memcg->vmstats_percpu[cpu]->lruvec);
					free(memcg->vmstats_percpu[cpu]);
				}
		free(memcg->vmstats_percpu);
		free(memcg->lruvec_stats);
	}
	for (cpu = 0; cpu < ms->nr_cpus; cpu++)
		free(ms->cold_seen[cpu]);
	free(ms->cold_seen);
	rstat_free(ms->rstat);
	free(ms->cgroup_parent);
	free(ms->state_slot);
	free(ms->event_slot);
	free(ms->node_pcp);
	free(ms->node_diff);
	free(ms->node_vm_stat);
	stat_layout_free(&ms->pcpu_sl);
	stat_layout_free(&ms->vmstats_sl);
	stat_layout_free(&ms->lruvec_pcpu_sl);
	stat_layout_free(&ms->lruvec_sl);
	sim_stat_destroy(&ms->flush_lat);
	sim_stat_destroy(&ms->read_lat);
	sim_stat_destroy(&ms->pass_lat);
}

/*
 * The members of struct mem_cgroup that the compat macros reach by name,
 * and swap's usage and high, the only members of memcg->swap in memory.
 */
static void memcg_place(const struct memcg_sim *ms, struct mem_cgroup *memcg)
{
	memcg->coh.parent = coh_object_field(memcg->obj, MEMCG_CSS_PARENT);
	memcg->coh.id = coh_object_field(memcg->obj, MEMCG_ID);
	memcg->coh.socket_pressure =
		coh_object_field(memcg->obj, MEMCG_SOCKET_PRESSURE);
	/*
	 * v6.0's tcpmem_pressure follows socket_pressure among the legacy
	 * TCP members: SIM: the same field (one line)
	 */
	memcg->coh.tcpmem_pressure = memcg->coh.socket_pressure;
	if (!do_memsw_account(ms->k))
		page_counter_init(&memcg->swap, NULL, NULL);
	memcg->swap.coh.usage = coh_object_field(memcg->obj, MEMCG_SWAP_USAGE);
	memcg->swap.coh.high = coh_object_field(memcg->obj, MEMCG_SWAP_HIGH);
}

/*
 * v1's memsw page_counter (do_memsw_account()), beside memory and with
 * memory's parent: usage and high where swap's are, the rest after.
 */
static void memsw_place(const struct memcg_sim *ms, struct mem_cgroup *memcg,
			struct mem_cgroup *pc_parent)
{
	unsigned int i, j = ms->memsw_first;

	page_counter_init(&memcg->memsw, pc_parent ? &pc_parent->memsw : NULL,
			  NULL);
	for (i = 0; i < NR_PC_MEMBERS; i++)
		if (i != PC_USAGE && i != PC_HIGH)
			memcg->memsw.f[i] = coh_object_field(memcg->obj, j++);
	/* v1's memsw has no protection (memory.min, memory.low are v2's) */
	memcg->memsw.protection_support = false;
}

/* The stock's members: one field each, every slot in it. */
static void stock_place(struct memcg_stock_pcp *stock)
{
	stock->coh.cached = coh_object_field(stock->obj, STOCK_CACHED);
	stock->coh.nr_pages = coh_object_field(stock->obj, STOCK_NR_PAGES);
	stock->coh.cached_objcg =
		coh_object_field(stock->obj, STOCK_CACHED_OBJCG);
	stock->coh.nr_bytes = coh_object_field(stock->obj, STOCK_NR_BYTES);
}

/*
 * memcg_create_one() - memcg @i of the tree, from its cgroup @cg: its
 * object placed as kmalloc places struct mem_cgroup, its page counters
 * (memory, kmem, v1's tcpmem) under its parent's, their limits and
 * protection, and its objcg.
 */
static void memcg_create_one(struct memcg_sim *ms, unsigned int i,
			     const struct cgroup_config *cg)
{
	const struct kernel_config *k = ms->k;
	struct mem_cgroup *memcg = &ms->memcgs[i];
	struct mem_cgroup *parent = cg->parent >= 0 ? &ms->memcgs[cg->parent] :
						      NULL;
	struct mem_cgroup *pc_parent;
	char name[40], pbuf[40];

	memcg->id = i;
	memcg->path = cg->path;
	memcg->parent = parent;
	snprintf(name, sizeof(name), "memcg(%s)",
		 memcg_path_name(memcg, 32, pbuf, sizeof(pbuf)));
	memcg->obj = coh_object_place(ms->coh, name, &ms->memcg_layout,
				      &memcg_kmalloc);
	/*
	 * SIM: on cgroup v1 the root's use_hierarchy is 0 by default
	 * (v4.x), so a top-level memcg's counters have no parent.
	 */
	if (k->cgroup_version == 1 && parent && !parent->parent)
		pc_parent = NULL;
	else
		pc_parent = parent;
	page_counter_init(&memcg->memory, pc_parent ? &pc_parent->memory : NULL,
			  NULL);
	page_counter_place(&memcg->memory, memcg->obj, NR_MEMCG_MEMBERS);
	memcg->memory.protected_if_changed = k->protected_usage_update ==
					     PROTECTED_IF_CHANGED;
	memcg->memory.min = cg->min >> PAGE_SHIFT;
	memcg->memory.low = cg->low >> PAGE_SHIFT;
	if (cg->high != UINT64_MAX)
		memcg->memory.high = cg->high >> PAGE_SHIFT;
	if (cg->max != UINT64_MAX)
		memcg->memory.max = cg->max >> PAGE_SHIFT;
	memcg->reclaimable = cg->reclaimable >> PAGE_SHIFT;
	page_counter_init(&memcg->kmem, pc_parent ? &pc_parent->kmem : NULL,
			  NULL);
	page_counter_place(&memcg->kmem, memcg->obj,
			   NR_MEMCG_MEMBERS + NR_PC_MEMBERS);
	/* v1's kmem counter has no protection (memcg_online_kmem) */
	memcg->kmem.protection_support = false;
	if (memcg1_tcpmem_active(k)) {
		page_counter_init(&memcg->tcpmem,
				  pc_parent ? &pc_parent->tcpmem : NULL, NULL);
		page_counter_place(&memcg->tcpmem, memcg->obj,
				   NR_MEMCG_MEMBERS + 2 * NR_PC_MEMBERS);
		memcg->tcpmem.protection_support = false;
	}
	memcg->objcg.memcg = memcg;
	if (do_memsw_account(k))
		memsw_place(ms, memcg, pc_parent);
	memcg_place(ms, memcg);
}

/*
 * pcpu_create() - the per-CPU objects of @ms's @nr_cpus CPUs, each on its
 * CPU's copy: memcg_stock, stats_updates, v6.16's obj_stock; and the
 * global stats_flush_threshold.
 */
static void pcpu_create(struct memcg_sim *ms, unsigned int nr_cpus)
{
	struct coh_place at;
	char name[40];
	unsigned int i;

	ms->stock = calloc(nr_cpus, sizeof(*ms->stock));
	ms->pcpu_stats = calloc(nr_cpus, sizeof(*ms->pcpu_stats));
	ms->stats_updates = calloc(nr_cpus, sizeof(*ms->stats_updates));
	SIM_OOM_ON(!ms->stock || !ms->pcpu_stats || !ms->stats_updates);
	ms->flush_threshold = coh_object_create(
		ms->coh, "stats_flush_threshold", &ms->global_layout, 0);
	for (i = 0; i < nr_cpus; i++) {
		snprintf(name, sizeof(name), "memcg_stock@cpu%u", i);
		/* DEFINE_PER_CPU(struct memcg_stock_pcp, memcg_stock) */
		at = coh_per_cpu(i, 0, false);
		ms->stock[i].obj =
			coh_object_place(ms->coh, name, &ms->stock_layout, &at);
		stock_place(&ms->stock[i]);
		snprintf(name, sizeof(name), "stats_updates@cpu%u", i);
		/* static DEFINE_PER_CPU(unsigned int, stats_updates) */
		ms->pcpu_stats[i] = coh_object_place(
			ms->coh, name, &ms->pcpu_stats_layout, &at);
	}
	if (ms->k->obj_stock_version == OBJ_STOCK_V6_16) {
		/* DEFINE_PER_CPU_ALIGNED(struct obj_stock_pcp, obj_stock) */
		ms->obj_stock_layout =
			(struct coh_layout){ "obj_stock_pcp", 64,
					     ARRAY_SIZE(obj_stock_fields),
					     obj_stock_fields };
		ms->obj_stock = calloc(nr_cpus, sizeof(*ms->obj_stock));
		SIM_BUG_ON(!ms->obj_stock);
		for (i = 0; i < nr_cpus; i++) {
			snprintf(name, sizeof(name), "obj_stock@cpu%u", i);
			at = coh_per_cpu(i, 0, false);
			ms->obj_stock[i].obj = coh_object_place(
				ms->coh, name, &ms->obj_stock_layout, &at);
			ms->obj_stock[i].coh.cached_objcg =
				coh_object_field(ms->obj_stock[i].obj, 0);
			ms->obj_stock[i].coh.nr_bytes =
				coh_object_field(ms->obj_stock[i].obj, 1);
		}
	}
}

struct memcg_sim *memcg_sim_create(const struct kernel_config *k,
				   const struct cgroup_tree *tree,
				   struct coh *coh, unsigned int nr_cpus)
{
	struct memcg_sim *ms = calloc(1, sizeof(*ms));
	unsigned int i, mo;

	SIM_OOM_ON(!ms);
	ms->k = k;
	ms->coh = coh;
	ms->nr_cpus = nr_cpus;
	layout_resolve(ms, k);
	mo = k->memory_offset >= 0 ? (unsigned int)k->memory_offset :
	     ms->pcl.align == 64   ? 0 :
				     16;
	memcg_layout_build(ms, mo);
	ms->stock_layout = (struct coh_layout){ "memcg_stock_pcp", 64,
						ARRAY_SIZE(stock_fields),
						stock_fields };
	ms->objcg_layout = (struct coh_layout){ "obj_cgroup", 64,
						ARRAY_SIZE(objcg_fields),
						objcg_fields };
	ms->pcpu_stats_layout = (struct coh_layout){
		"percpu", 64, ARRAY_SIZE(pcpu_stats_fields), pcpu_stats_fields
	};
	ms->global_layout = (struct coh_layout){ "atomic_t", 64,
						 ARRAY_SIZE(global_fields),
						 global_fields };
	ms->reclaim_ps = k->reclaim_ps;
	sim_stat_init(&ms->charge_lat);

	ms->nr_memcgs = tree->nr;
	ms->memcgs = calloc(tree->nr, sizeof(*ms->memcgs));
	SIM_OOM_ON(!ms->memcgs);
	for (i = 0; i < tree->nr; i++)
		memcg_create_one(ms, i, &tree->cg[i]);
	pcpu_create(ms, nr_cpus);
	memcg_stats_init(ms);
	ms->lru = lru_sim_create(ms);
	return ms;
}

void memcg_sim_free(struct memcg_sim *ms)
{
	if (!ms)
		return;
	lru_sim_free(ms->lru);
	memcg_stats_free(ms);
	free(ms->memcgs);
	free(ms->stock);
	free(ms->obj_stock);
	free(ms->pcpu_stats);
	free(ms->stats_updates);
	free(ms->memcg_fields);
	sim_stat_destroy(&ms->charge_lat);
	free(ms);
}

void memcg_sim_reset_counts(struct memcg_sim *ms)
{
	unsigned int i;

	memset(&ms->counts, 0, sizeof(ms->counts));
	for (i = 0; i < ms->nr_cpus; i++)
		memset(&ms->stock[i].sim, 0, sizeof(ms->stock[i].sim));
	sim_stat_reset(&ms->charge_lat);
	sim_stat_reset(&ms->flush_lat);
	sim_stat_reset(&ms->read_lat);
	sim_stat_reset(&ms->pass_lat);
}

struct mem_cgroup *memcg_sim_find(struct memcg_sim *ms, const char *path)
{
	unsigned int i;

	for (i = 0; i < ms->nr_memcgs; i++)
		if (!strcmp(ms->memcgs[i].path, path))
			return &ms->memcgs[i];
	return NULL;
}

/**
 * memcg_sim_model_stat() - hold and check the file item @idx in this run
 * @ms: the memory controller
 * @idx: SIM_NR_FILE_MAPPED, SIM_NR_FILE_PAGES or SIM_NR_SHMEM
 *
 * SIM: the file and shmem items are mapped to their place in the
 * kernel's arrays (so flushes carry them and memory.stat reads compare
 * them with the exact value) only in runs with a workload that updates
 * them; other runs read them as the kernel items no path changes, as
 * before these items were modelled.
 *
 * Context: workload setup, before the engine runs.
 */
void memcg_sim_model_stat(struct memcg_sim *ms, int idx)
{
	SIM_BUG_ON(!sim_stat_opt_in(idx));
	ms->state_slot[memcg__stat_index(ms, idx)] = idx;
}
