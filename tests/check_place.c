// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_place.c - objects placed as their allocators place them
 * (models/hw/coh_place.c coh_object_place(), models/kernel/sim/memcg_sim.c):
 * what the adjacent-line prefetcher's 128-byte pairs see.
 *
 * The machine: 2 sockets x 2 cores, one thread each (CPUs 0-1 socket 0,
 * 2-3 socket 1); the cgroups / , /a, /b; the memcg model of v6.0 as
 * kernel_config_defaults() gives it. Its objects at creation: the three
 * struct mem_cgroup (kmalloc, page aligned), the global atomics, and per
 * CPU memcg_stock and stats_updates (static per-CPU), the rstat CPU locks
 * (static), the per-node nodestats (alloc_percpu(): dynamic).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/cache.h"
#include "models/hw/machine.h"
#include "models/kernel/mm/memcontrol.h"
#include "models/kernel/sim/config.h"
#include "sim/engine.h"
#include "sim/scenario.h"
#include "tests/harness.h"

enum { CG_ROOT, CG_A, CG_B, NR_CG };

static const char profile[] = "name: two-by-two\n"
			      "sockets: 2\n"
			      "cores_per_socket: 2\n"
			      "threads_per_core: 1\n"
			      "latencies:\n"
			      "  l1_hit: {ns: 1, source: test}\n"
			      "  llc_hit: {ns: 10, source: test}\n"
			      "  memory: {ns: 100, source: test}\n"
			      "  rmw_local: {ns: 10, source: test}\n"
			      "  xfer_llc: {ns: 50, source: test}\n"
			      "  xfer_socket: {ns: 100, source: test}\n"
			      "  inval_per_sharer: {ns: 1, source: test}\n";

static void setup(void)
{
	harness_setup_yaml("two.yaml", profile, 0, 0);
	harness_cgroup("/", -1);
	harness_cgroup("/a", CG_ROOT);
	harness_cgroup("/b", CG_ROOT);
	harness_create();
}

static void teardown(void)
{
	harness_teardown();
}

/*
 * The object a line's first field belongs to: its name up to the first
 * '.' ("memcg(/a).memory.usage" -> "memcg(/a)"), and the CPU of a per-CPU
 * copy ("memcg_stock@cpu3" -> 3), else -1.
 */
static int line_owner(const struct coh_line *l, char *obj, size_t size)
{
	const char *at;

	ck_assert_uint_gt(l->nr_fields, 0);
	snprintf(obj, size, "%.*s", (int)strcspn(l->fields[0].name, "."),
		 l->fields[0].name);
	at = strstr(obj, "@cpu");
	return at ? atoi(at + 4) : -1;
}

/*
 * struct mem_cgroup is page aligned (kmalloc-4k/8k) and the model's line 0
 * is its line at 192: expect every memcg's base at 192 mod 4096, so its
 * line 0 (css.parent) odd in its 128-byte pair (192 mod 128 = 64) and its
 * line 1 (v6.0: swap.usage and the rest of memory at 256) even, starting
 * the next pair.
 */
START_TEST(place_memcg_page_aligned)
{
	unsigned int i;

	for (i = 0; i < NR_CG; i++) {
		const struct coh_object *o = h.ms->memcgs[i].obj;

		ck_assert_uint_eq(o->base % COH_PAGE_SIZE, 192);
		ck_assert_uint_eq(o->fields[0].line->addr % 128, 64);
		ck_assert_str_eq(o->fields[0].line->name + strlen(o->name),
				 " line 0");
	}
}
END_TEST

/*
 * No object gets a foreign buddy line: for every line, the other line of
 * its 128-byte pair, if the model has it, belongs to the same object, or
 * both are per-CPU copies of the same CPU (DEFINE_PER_CPU neighbours in
 * one CPU's unit: the prefetcher does pair those). Expect no pair of two
 * global objects either: each global atomic and each memcg starts its
 * own pair. Every per-CPU line is homed at its CPU's socket: CPUs 0-1 at
 * 0, 2-3 at 1.
 */
START_TEST(place_no_foreign_buddy)
{
	unsigned int n = coh_nr_lines(h.coh), i, j, percpu = 0;
	struct coh_line **lines = calloc(n, sizeof(*lines));
	char a[64], b[64];

	ck_assert_ptr_nonnull(lines);
	coh_lines_sorted(h.coh, lines, n);
	for (i = 0; i < n; i++) {
		int ca = line_owner(lines[i], a, sizeof(a));

		if (ca >= 0) {
			percpu++;
			ck_assert_msg(lines[i]->home == ca / 2,
				      "%s: home %d, not socket %d",
				      lines[i]->name, lines[i]->home, ca / 2);
		}
		for (j = 0; j < n; j++) {
			int cb;

			if (lines[j]->addr != (lines[i]->addr ^ 64))
				continue;
			cb = line_owner(lines[j], b, sizeof(b));
			ck_assert_msg(!strcmp(a, b) || (ca >= 0 && ca == cb),
				      "%s and %s share a 128-byte pair (%#llx)",
				      lines[i]->name, lines[j]->name,
				      (unsigned long long)lines[i]->addr);
		}
	}
	/* memcg_stock, stats_updates, rstat lock, 2 nodestats: 4 CPUs */
	ck_assert_uint_ge(percpu, 5 * 4);
	free(lines);
}
END_TEST

static Suite *place_suite(void)
{
	Suite *s = suite_create("place");
	TCase *tc = tcase_create("memcg");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, place_memcg_page_aligned);
	tcase_add_test(tc, place_no_foreign_buddy);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(place_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
