/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/kernel/sim/page_counter_layout.h - SIM only: where the members of
 * struct page_counter sit in memory, per kernel version or as a scenario
 * or pahole gives them. The kernel functions are in page_counter.c.
 *
 * Layouts (x86_64, unsigned long and pointers 8 bytes):
 *
 *   v6.0 (declaration order, packed, 112 bytes)
 *	usage 0, min 8, low 16, high 24, max 32, emin 40, min_usage 48,
 *	children_min_usage 56, elow 64, low_usage 72, children_low_usage 80,
 *	watermark 88, failcnt 96, parent 104
 *   v6.1 ("mm: page_counter: rearrange struct page_counter fields": usage
 *	alone on its line, the protection fields on the next, read-mostly
 *	min/low/high/max/parent on a third; the padding members are aligned
 *	to the line, so the struct is line-aligned too, 192 bytes)
 *	usage 0 | emin 64, min_usage 72, children_min_usage 80, elow 88,
 *	low_usage 96, children_low_usage 104, watermark 112, failcnt 120 |
 *	min 128, low 136, high 144, max 152, parent 160
 *
 * A layout can also be given member by member in the scenario, or read
 * from the text `pahole -C page_counter` prints (sim/pahole.h).
 *
 * Layering: models/kernel/ SIM module; uses sim/error.h.
 */
#ifndef MODELS_KERNEL_PAGE_COUNTER_LAYOUT_H
#define MODELS_KERNEL_PAGE_COUNTER_LAYOUT_H

#include <stddef.h>

#include "sim/error.h"

struct pahole_struct;

/* The members, in v6.0 declaration order. */
enum page_counter_member {
	PC_USAGE,
	PC_MIN,
	PC_LOW,
	PC_HIGH,
	PC_MAX,
	PC_EMIN,
	PC_MIN_USAGE,
	PC_CHILDREN_MIN_USAGE,
	PC_ELOW,
	PC_LOW_USAGE,
	PC_CHILDREN_LOW_USAGE,
	PC_WATERMARK,
	PC_FAILCNT,
	PC_PARENT,
	NR_PC_MEMBERS,
};

extern const char *const page_counter_member_names[NR_PC_MEMBERS];

struct page_counter_layout {
	unsigned int size; /* sizeof(struct page_counter) */
	unsigned int align; /* its alignment: 8, or 64 when padded */
	unsigned int offset[NR_PC_MEMBERS];
};

extern const struct page_counter_layout page_counter_layout_v6_0;
extern const struct page_counter_layout page_counter_layout_v6_1;

/*
 * page_counter_layout_from_pahole() - take the members' offsets from
 * pahole's description of struct page_counter. Every member must be
 * there; members the kernel added later are ignored. Errors name @path and
 * the line.
 */
int page_counter_layout_from_pahole(const struct pahole_struct *ps,
				    const char *path,
				    struct page_counter_layout *out,
				    struct sim_error *err);

/*
 * page_counter_layout_check() - a layout is usable when its members lie
 * inside the struct and do not overlap (8 bytes each).
 */
int page_counter_layout_check(const struct page_counter_layout *l, char *why,
			      size_t len);

#endif /* MODELS_KERNEL_PAGE_COUNTER_LAYOUT_H */
