// SPDX-License-Identifier: GPL-2.0-only
/*
 * models/kernel/sim/page_counter_layout.c - SIM only: the layouts of struct
 * page_counter (see page_counter_layout.h), kept apart from the kernel's
 * functions in page_counter.c.
 */
#include <stdio.h>
#include <string.h>

#include "models/kernel/sim/page_counter_layout.h"
#include "sim/pahole.h"

const char *const page_counter_member_names[NR_PC_MEMBERS] = {
	"usage",
	"min",
	"low",
	"high",
	"max",
	"emin",
	"min_usage",
	"children_min_usage",
	"elow",
	"low_usage",
	"children_low_usage",
	"watermark",
	"failcnt",
	"parent",
};

const struct page_counter_layout page_counter_layout_v6_0 = {
	.size = 112,
	.align = 8,
	.offset = { 0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104 },
};

const struct page_counter_layout page_counter_layout_v6_1 = {
	.size = 192,
	.align = 64,
	.offset = {
		[PC_USAGE] = 0,
		[PC_EMIN] = 64, [PC_MIN_USAGE] = 72,
		[PC_CHILDREN_MIN_USAGE] = 80, [PC_ELOW] = 88,
		[PC_LOW_USAGE] = 96, [PC_CHILDREN_LOW_USAGE] = 104,
		[PC_WATERMARK] = 112, [PC_FAILCNT] = 120,
		[PC_MIN] = 128, [PC_LOW] = 136, [PC_HIGH] = 144,
		[PC_MAX] = 152, [PC_PARENT] = 160,
	},
};

int page_counter_layout_check(const struct page_counter_layout *l, char *why,
			      size_t len)
{
	unsigned int i, j;

	if (l->align != 8 && l->align != 64) {
		snprintf(why, len, "alignment %u is neither 8 nor 64",
			 l->align);
		return -1;
	}
	for (i = 0; i < NR_PC_MEMBERS; i++) {
		if (l->offset[i] % 8 || l->offset[i] + 8 > l->size) {
			snprintf(
				why, len,
				"'%s' at offset %u is not an aligned 8-byte member inside a %u-byte struct",
				page_counter_member_names[i], l->offset[i],
				l->size);
			return -1;
		}
		for (j = 0; j < i; j++) {
			if (l->offset[i] == l->offset[j]) {
				snprintf(why, len,
					 "'%s' and '%s' overlap at offset %u",
					 page_counter_member_names[j],
					 page_counter_member_names[i],
					 l->offset[i]);
				return -1;
			}
		}
	}
	return 0;
}

int page_counter_layout_from_pahole(const struct pahole_struct *ps,
				    const char *path,
				    struct page_counter_layout *out,
				    struct sim_error *err)
{
	char why[160];
	unsigned int i;

	memset(out, 0, sizeof(*out));
	out->size = ps->size;
	out->align = 8;
	for (i = 0; i < NR_PC_MEMBERS; i++) {
		const struct pahole_field *pf =
			pahole_field(ps, page_counter_member_names[i]);

		if (!pf) {
			sim_error_set(
				err, path, 0, 0,
				"struct %s has no member '%s': not a struct page_counter",
				ps->name, page_counter_member_names[i]);
			return -1;
		}
		if (pf->size != 8) {
			sim_error_set(err, path, pf->line, 0,
				      "member '%s' is %u bytes, expected 8",
				      pf->name, pf->size);
			return -1;
		}
		out->offset[i] = pf->offset;
	}
	/* A zero-size member on a line boundary is a cacheline padding. */
	for (i = 0; i < ps->nr_fields; i++)
		if (ps->fields[i].size == 0 && ps->fields[i].offset % 64 == 0)
			out->align = 64;
	if (page_counter_layout_check(out, why, sizeof(why))) {
		sim_error_set(err, path, 0, 0, "struct page_counter: %s", why);
		return -1;
	}
	return 0;
}
