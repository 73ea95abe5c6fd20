// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/workloads/registry.c - the workload types a scenario can name.
 *
 * Theory of operation: one table lists every built-in struct
 * workload_type; the run driver looks a scenario's `type:` up in it by
 * name, and `memcgsim --help` lists it in this order: the teaching
 * workloads first, then the memcg ones. A new workload is a file of its
 * own in models/workloads/ that defines its type, plus one line here and
 * one declaration in workload.h.
 *
 * Layering: models/workloads/ module.
 */
#include <string.h>

#include "models/workloads/workload.h"
#include "sim/util.h"

static const struct workload_type *const all_types[] = {
	&atomic_counter_type, &false_sharing_type, &ops_type,
	&reader_chain_type,   &netperf_type,	   &page_fault_type,
	&fallocate_type,      &tlb_flush_type,	   &hackbench_type,
	&stat_reader_type,    &kmalloc_type,
};

/**
 * workload_type_find() - the workload type called @name.
 * @name: the scenario's `type:` value
 *
 * Return: the type, or NULL when no type has that name.
 */
const struct workload_type *workload_type_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(all_types); i++)
		if (!strcmp(all_types[i]->name, name))
			return all_types[i];
	return NULL;
}

/**
 * workload_types() - every workload type, in the order --help lists them.
 * @types: set to the table, which lives as long as the program
 *
 * Return: the number of entries of *@types.
 */
unsigned int workload_types(const struct workload_type *const **types)
{
	*types = all_types;
	return ARRAY_SIZE(all_types);
}
