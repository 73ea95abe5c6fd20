// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_explain.c - explain's verdict on a line (cmd/explain/explain.h,
 * explain_diagnose()) from its fields' access kinds, and the per-caller
 * counts behind its function rows (coh_caller_slot(), models/hw/cache.h).
 *
 * Each line is made by hand: its fields' reads, writes, RMWs, CPUs and
 * queueing time (in units: only the shares matter). A field is read-mostly
 * when it is written at most once per 20 loads. The costs of the two
 * memcg lines are those `memcgsim explain` printed for charge-batch-2022
 * -v 6.0-rc1 (the wait% column, in tenths of a percent), so the verdicts
 * below are the ones that run must give.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/explain/explain.h"
#include "models/hw/cache.h"
#include "tests/machine_test.h"

struct spec {
	const char *name;
	uint64_t reads, writes, rmws, misses;
	unsigned int cpus;
	sim_time_t wait;
};

static struct coh_line *make_line(const struct spec *f, unsigned int n,
				  uint64_t transfers)
{
	struct coh_line *l = calloc(1, sizeof(*l));
	unsigned int j;

	ck_assert_ptr_nonnull(l);
	l->fields = calloc(n, sizeof(*l->fields));
	ck_assert_ptr_nonnull(l->fields);
	l->nr_fields = l->cap_fields = n;
	l->transfers = transfers;
	for (j = 0; j < n; j++) {
		struct coh_field_stat *fs = &l->fields[j];

		strcpy(fs->name, f[j].name);
		fs->ops[COH_READ] = f[j].reads;
		fs->ops[COH_WRITE] = f[j].writes;
		fs->ops[COH_RMW] = f[j].rmws;
		fs->misses = f[j].misses;
		fs->nr_cpus = f[j].cpus;
		fs->wait_ps = f[j].wait;
		l->wait_ps += f[j].wait;
	}
	return l;
}

static void free_line(struct coh_line *l)
{
	free(l->fields);
	free(l);
}

/*
 * memcg(/top/mid/leaf) line 0 of 6.0-rc1: css.parent, max, min and low are only
 * loaded (78.2% of the wait: 61.2 + 9.4 + 7.5 + 0.1), usage is RMWed by
 * all 72 CPUs (21.8%). The old rule said TRUE SHARING (a field written by
 * several CPUs); the loads of read-mostly fields cost more than the writes,
 * so: READ_MOSTLY, the hot field usage (index 1), with 21.8% of true
 * sharing on the side.
 */
START_TEST(explain_read_mostly_next_to_rmw)
{
	static const struct spec f[] = {
		{ "memcg(/top/mid/leaf).css.parent", 55029, 0, 0, 49680, 72,
		  612 },
		{ "memcg(/top/mid/leaf).memory.usage", 4149, 0, 8070, 11999, 72,
		  218 },
		{ "memcg(/top/mid/leaf).memory.min", 8070, 0, 0, 1848, 72, 75 },
		{ "memcg(/top/mid/leaf).memory.low", 8070, 0, 0, 29, 72, 1 },
		{ "memcg(/top/mid/leaf).memory.high", 4149, 0, 0, 0, 36, 0 },
		{ "memcg(/top/mid/leaf).memory.max", 4152, 0, 0, 2040, 36, 94 },
	};
	struct coh_line *l = make_line(f, 6, 65596);
	struct explain_diagnosis d;

	ck_assert_int_eq(explain_diagnose(l, &d), EXPLAIN_READ_MOSTLY);
	ck_assert_int_eq(d.hot, 1);
	ck_assert_uint_eq(d.nr_read_mostly, 5);
	ck_assert_uint_eq(d.nr_shared_written, 1);
	ck_assert_double_eq_tol(d.read_mostly_pct, 78.2, 1e-9);
	ck_assert_double_eq_tol(d.written_pct, 21.8, 1e-9);
	ck_assert_double_eq_tol(d.shared_written_pct, 21.8, 1e-9);
	free_line(l);
}
END_TEST

/*
 * memcg(/top) line 1 of 6.0-rc1: min_usage and low_usage are xchg()ed by
 * all 72 CPUs (25.4 + 31.1 = 56.5% of the wait); watermark (2 stores per
 * 4149 loads: read-mostly) and parent are loaded (13.1 + 30.3 = 43.4%;
 * watermark's share is taken as 13.2 here, so that the printed shares,
 * rounded, add up to 100%: 43.5%).
 * The writes cost more: TRUE SHARING, the hot field low_usage (31.1%).
 */
START_TEST(explain_rmw_of_one_field_from_many_cpus)
{
	static const struct spec f[] = {
		{ "memcg(/top).memory.min_usage", 0, 0, 8070, 8070, 72, 254 },
		{ "memcg(/top).memory.low_usage", 0, 0, 8067, 7336, 72, 311 },
		{ "memcg(/top).memory.watermark", 4149, 2, 0, 2833, 36, 132 },
		{ "memcg(/top).memory.parent", 16138, 0, 0, 11010, 72, 303 },
	};
	struct coh_line *l = make_line(f, 4, 29244);
	struct explain_diagnosis d;

	ck_assert_int_eq(explain_diagnose(l, &d), EXPLAIN_TRUE_SHARING);
	ck_assert_int_eq(d.hot, 1);
	ck_assert_uint_eq(d.nr_read_mostly, 2);
	ck_assert_uint_eq(d.nr_shared_written, 2);
	ck_assert_double_eq_tol(d.shared_written_pct, 56.5, 1e-9);
	ck_assert_double_eq_tol(d.read_mostly_pct, 43.5, 1e-9);
	free_line(l);
}
END_TEST

/*
 * The teaching false-sharing line: each counter RMWed by its own CPU:
 * FALSE SHARING, whatever the costs. The same line that never moved: no
 * transfers. One counter RMWed by 8 CPUs: TRUE SHARING.
 */
START_TEST(explain_false_and_true_sharing)
{
	static const struct spec packed[] = {
		{ "packed.cpu0", 0, 0, 1168, 1168, 1, 10 },
		{ "packed.cpu1", 0, 0, 1168, 1168, 1, 30 },
	};
	static const struct spec counter[] = {
		{ "counter[0].value", 0, 0, 401, 401, 8, 50 },
	};
	struct explain_diagnosis d;
	struct coh_line *l = make_line(packed, 2, 2336);

	ck_assert_int_eq(explain_diagnose(l, &d), EXPLAIN_FALSE_SHARING);
	l->transfers = 0;
	ck_assert_int_eq(explain_diagnose(l, &d), EXPLAIN_NO_TRANSFERS);
	free_line(l);
	l = make_line(counter, 1, 401);
	ck_assert_int_eq(explain_diagnose(l, &d), EXPLAIN_TRUE_SHARING);
	ck_assert_int_eq(d.hot, 0);
	ck_assert_double_eq_tol(d.shared_written_pct, 100, 1e-9);
	free_line(l);
}
END_TEST

/*
 * The read-mostly bound: 20 loads and 1 store is read-mostly (1 * 20 <=
 * 20), 19 loads and 1 store is written. With a (60% of the wait) next to
 * b, RMWed by 2 CPUs (40%): READ_MOSTLY; with a written, both fields are
 * written by 2 CPUs: TRUE SHARING, hot a.
 */
START_TEST(explain_read_mostly_bound)
{
	static const struct spec f[] = {
		{ "o.a", 20, 1, 0, 6, 2, 60 },
		{ "o.b", 0, 0, 10, 4, 2, 40 },
	};
	struct coh_line *l = make_line(f, 2, 10);
	struct explain_diagnosis d;

	ck_assert_int_eq(explain_diagnose(l, &d), EXPLAIN_READ_MOSTLY);
	ck_assert_int_eq(d.hot, 1);
	l->fields[0].ops[COH_READ] = 19;
	ck_assert_int_eq(explain_diagnose(l, &d), EXPLAIN_TRUE_SHARING);
	ck_assert_int_eq(d.hot, 0);
	ck_assert_uint_eq(d.nr_read_mostly, 0);
	ck_assert_double_eq_tol(d.shared_written_pct, 100, 1e-9);
	free_line(l);
}
END_TEST

/*
 * A line where nobody queued is judged by misses: a (read-mostly, 80
 * misses) against b (RMWed by 2 CPUs, 20): READ_MOSTLY with 80%.
 */
START_TEST(explain_no_wait_uses_misses)
{
	static const struct spec f[] = {
		{ "o.a", 100, 0, 0, 80, 2, 0 },
		{ "o.b", 0, 0, 20, 20, 2, 0 },
	};
	struct coh_line *l = make_line(f, 2, 100);
	struct explain_diagnosis d;

	ck_assert_int_eq(explain_diagnose(l, &d), EXPLAIN_READ_MOSTLY);
	ck_assert_double_eq_tol(d.read_mostly_pct, 80, 1e-9);
	ck_assert_double_eq_tol(d.written_pct, 20, 1e-9);
	free_line(l);
}
END_TEST

/*
 * Callers 0-4 take slots 0-4 in order of first access and caller 5 the
 * last slot; caller 6 then shares it, which says COH_CALLER_MIXED from
 * then on. A caller seen before finds its slot again.
 */
START_TEST(explain_caller_slots)
{
	struct coh_field_stat fs;
	unsigned int i;

	memset(&fs, 0, sizeof(fs));
	ck_assert_uint_eq(COH_FIELD_CALLERS, 6);
	for (i = 0; i < 6; i++)
		ck_assert_ptr_eq(coh_caller_slot(&fs, i), &fs.callers[i]);
	for (i = 0; i < 6; i++)
		ck_assert_uint_eq(fs.callers[i].id, i + 1);
	ck_assert_ptr_eq(coh_caller_slot(&fs, 2), &fs.callers[2]);
	ck_assert_ptr_eq(coh_caller_slot(&fs, 6), &fs.callers[5]);
	ck_assert_uint_eq(fs.callers[5].id, COH_CALLER_MIXED);
	ck_assert_ptr_eq(coh_caller_slot(&fs, 5), &fs.callers[5]);
	ck_assert_uint_eq(fs.callers[5].id, COH_CALLER_MIXED);
	ck_assert_uint_eq(fs.callers[2].id, 3);
	free(fs.callers);
}
END_TEST

/*
 * explain_sockets() names the other socket. skx-2s-72, a line homed at
 * socket 1: 105.4 ns (xfer_socket) from it to socket 0, 164.6 ns
 * (xfer_socket_remote_home) back. xeon-8176-8s, a line homed at socket 0
 * that went 3 times to CPU 0 (socket 0) and once to CPU 112 (socket 4):
 * pairs from socket 0 of 148.8 (sockets 1-3) to 336.6 ns (4-7); 75% of
 * its transfers into the home, 25% into socket 4, 336.6 ns away.
 */
START_TEST(explain_sockets_named)
{
	struct coh_line l = { .home = 1 };
	uint32_t to[448] = { 0 };
	struct machine m;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	load_profile("skx-2s-72", &m);
	out = open_memstream(&buf, &len);
	explain_sockets(out, &l, &m);
	fclose(out);
	ck_assert_str_eq(
		buf,
		" (105.4 ns from socket 1, the line's home, to 0; 164.6 ns back)");
	free(buf);
	machine_destroy(&m);

	load_profile("xeon-8176-8s", &m);
	l.home = 0;
	l.xfer_to = to;
	to[0] = 3;
	to[112] = 1;
	out = open_memstream(&buf, &len);
	explain_sockets(out, &l, &m);
	fclose(out);
	ck_assert_str_eq(buf, " (home: socket 0; pairs 148.8-336.6 ns)\n"
			      "           transfers into socket 0 (the home) "
			      "75.0%, socket 4 (336.6 ns away) 25.0%");
	free(buf);
	machine_destroy(&m);
}
END_TEST

static Suite *explain_suite(void)
{
	Suite *s = suite_create("explain");
	TCase *tc = tcase_create("verdict");

	tcase_add_test(tc, explain_read_mostly_next_to_rmw);
	tcase_add_test(tc, explain_rmw_of_one_field_from_many_cpus);
	tcase_add_test(tc, explain_false_and_true_sharing);
	tcase_add_test(tc, explain_read_mostly_bound);
	tcase_add_test(tc, explain_no_wait_uses_misses);
	tcase_add_test(tc, explain_caller_slots);
	tcase_add_test(tc, explain_sockets_named);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(explain_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
