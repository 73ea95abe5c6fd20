// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_cpuidle.c - the menu and teo governors' choice of an idle
 * state and the price of waking a CPU from it
 * (models/kernel/drivers/cpuidle/menu.c, teo.c), on Skylake-SP's table
 * (drivers/idle/intel_idle.c skx_cstates: C1 exit 2 us / residency
 * 2 us, C1E 10/20, C6 133/600), with an IPI of 1 us (a test value).
 *
 * Arithmetic (menu_select(), by hand): a CPU entering idle at a whole
 * millisecond has the next tick 1000 us away (next_timer_us); the
 * correction factor starts at unity (8192 / 8192), so the timer alone
 * predicts 1000 us. get_typical_interval() over the last 8 spans
 * replaces that prediction when they repeat; the state is the deepest
 * whose residency and exit latency are at most the prediction.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/machine.h"
#include "models/kernel/drivers/cpuidle/menu.h"
#include "sim/engine.h"

#define US SIM_PS_PER_US
#define MS SIM_PS_PER_MS

static struct machine m;

static void setup(void)
{
	static const struct {
		const char *name;
		uint64_t exit_us, residency_us;
	} skx[] = { { "C1", 2, 2 }, { "C1E", 10, 20 }, { "C6", 133, 600 } };
	unsigned int i;

	memset(&m, 0, sizeof(m));
	for (i = 0; i < 3; i++) {
		strcpy(m.idle_states[i].name, skx[i].name);
		m.idle_states[i].exit_ps = skx[i].exit_us * US;
		m.idle_states[i].residency_ps = skx[i].residency_us * US;
	}
	m.nr_idle_states = 3;
	m.ipi_ps = 1 * US;
}

/*
 * A CPU idle 50 us at a time, entering at each millisecond; entry k
 * (from 0) sees k spans of 50 and 8 - k zeros (the device starts empty):
 * k=0: typical 0 (variance 0), so the prediction is 0 and only the
 *      polling state fits (C1's exit 2 > 0): the wake is free (no IPI
 *      to a polling CPU).
 * k=1: avg 50/8 = 6, variance ((50-6)^2 + 7 x 6^2) / 8 = 2188/8 = 273
 *      <= 400: typical 6: C1 (2 <= 6) but not C1E (residency 20 > 6):
 *      the wake costs 1 + 2 = 3 us.
 * k=2..6: the variance is above 400 and avg^2 below 36 x variance (k=2:
 *      avg 12, (2 x 38^2 + 6 x 12^2) / 8 = 469; k=6: avg 37, (6 x 13^2
 *      + 2 x 37^2) / 8 = 469), so the 50s are dropped as outliers; the
 *      zeros left (variance 0) give typical 0: polling, free.
 * k=7: avg 350/8 = 43, variance (7 x 7^2 + 43^2) / 8 = 274 <= 400:
 *      typical 43: C1E (20 <= 43, 10 <= 43), not C6: 1 + 10 = 11 us.
 * k=8: typical 50 (variance 0): C1E again (C6's 600 > 50): 11 us.
 */
START_TEST(menu_50us_spans_pick_c1e)
{
	static const int want_state[9] = { 0, 1, 0, 0, 0, 0, 0, 2, 2 };
	static const sim_time_t want_cost[9] = { 0, 3, 0, 0, 0, 0, 0, 11, 11 };
	struct cpuidle_device dev;
	unsigned int k;

	cpuidle_device_init(&dev, false);
	ck_assert_uint_eq(cpuidle_wake(&dev, &m, 0), 0); /* not idle */
	for (k = 0; k < 9; k++) {
		ck_assert_int_eq(cpuidle_idle_call(&dev, &m, k * MS),
				 want_state[k]);
		ck_assert_uint_eq(cpuidle_wake(&dev, &m, k * MS + 50 * US),
				  want_cost[k] * US);
	}
	ck_assert_uint_eq(dev.wakes, 3);
	ck_assert_uint_eq(dev.wake_ps, 25 * US);
}
END_TEST

/*
 * Spans of 700 us: after 8 of them the typical
 * interval is 700; the timer's prediction is larger (the correction
 * factor decays from 8192 toward 8 x 1024 x 700/1000 = 5728, from
 * above: 1000 x 5728 / 8192 = 699.2 at the limit, and after 8 updates
 * about 1000 x 6574 / 8192 = 802). C6 fits 700 (600 <= 700,
 * 133 <= 700) with the next tick 1000 us away: 1 + 133 = 134 us. The
 * same CPU entering 500 us before a tick: next_timer_us 500 (bucket 2,
 * unity: prediction 500); the typical interval is discarded (its
 * smallest span 700 >= 500); C6's 600 > 500: C1E, 11 us.
 */
START_TEST(menu_next_tick_limits_c6)
{
	struct cpuidle_device dev;
	unsigned int k;

	cpuidle_device_init(&dev, false);
	for (k = 0; k < 8; k++) {
		cpuidle_idle_call(&dev, &m, k * MS);
		cpuidle_wake(&dev, &m, k * MS + 700 * US);
	}
	ck_assert_int_eq(cpuidle_idle_call(&dev, &m, 8 * MS), 3);
	ck_assert_uint_eq(cpuidle_wake(&dev, &m, 8 * MS + 700 * US), 134 * US);
	ck_assert_int_eq(cpuidle_idle_call(&dev, &m, 9 * MS + 500 * US), 2);
	ck_assert_uint_eq(cpuidle_wake(&dev, &m, 10 * MS + 200 * US), 11 * US);
}
END_TEST

/*
 * A span of 2^32 + 500 us does not wrap to 500 us in the history: it is
 * recorded as the time to the next timer, 1000 us (menu_update() clamps
 * a measured span to next_timer_us). A wake-up stamped before the entry
 * (another CPU's clock behind) counts as a span of 0.
 */
START_TEST(span_clamped_not_wrapped)
{
	struct cpuidle_device dev;

	cpuidle_device_init(&dev, false);
	cpuidle_idle_call(&dev, &m, 0);
	cpuidle_wake(&dev, &m, ((1ULL << 32) + 500) * US);
	ck_assert_uint_eq(dev.intervals[0], 1000);
	cpuidle_idle_call(&dev, &m, 10 * MS);
	cpuidle_wake(&dev, &m, 9 * MS);
	ck_assert_uint_eq(dev.intervals[1], 0);
}
END_TEST

/* Without idle states every CPU polls: a wake-up is free. */
START_TEST(no_states_free_wakes)
{
	struct cpuidle_device dev;

	m.nr_idle_states = 0;
	cpuidle_device_init(&dev, false);
	ck_assert_int_eq(cpuidle_idle_call(&dev, &m, 0), 0);
	ck_assert_uint_eq(cpuidle_wake(&dev, &m, 50 * US), 0);
	ck_assert_uint_eq(dev.wakes, 0);
}
END_TEST

/*
 * teo (models/kernel/drivers/cpuidle/teo.c), by hand, on the same table
 * and IPI. Bins: 0 [0, 2 us), 1 [2, 20), 2 [20, 600), 3 [600, inf). A
 * wake-up's residency is its span + the IPI + the state's exit latency;
 * teo_update() measures that less half the exit latency.
 *
 * 50 us spans, entering at each millisecond (sleep length 1000 us):
 * entry 0: no metrics: the deepest state within 1000 us, C6, whose
 *   expected time (the sleep length, 1000 us) keeps no tick: the wake
 *   costs 1 + 133 = 134 us; residency 184, measured 184 - 66.5 = 117.5:
 *   bin 2 while the sleep length's is bin 3: an intercept of bin 2
 *   (1024; total 1024).
 * entry 1: C6's candidate sums: intercepts below it 1024, hits 0:
 *   2 x 1024 > 1024 - 0, so look shallower: at C1E the intercepts from
 *   it up are 1024, more than half of 1024: C1E (expected 310 us, its
 *   bin's middle; 20 us fits the tick): 1 + 10 = 11 us; residency 61,
 *   measured 56: bin 2 again.
 * entries 2-8: bin 2 holds every intercept and no bin a hit: C1E, 11 us.
 * Expect 9 wakes, 134 + 8 x 11 = 222 us.
 */
START_TEST(teo_50us_spans_pick_c1e)
{
	struct cpuidle_device dev;
	unsigned int k;

	cpuidle_device_init(&dev, true);
	for (k = 0; k < 9; k++) {
		ck_assert_int_eq(cpuidle_idle_call(&dev, &m, k * MS),
				 k ? 2 : 3);
		ck_assert_uint_eq(cpuidle_wake(&dev, &m, k * MS + 50 * US),
				  (k ? 11 : 134) * US);
	}
	ck_assert_uint_eq(dev.wakes, 9);
	ck_assert_uint_eq(dev.wake_ps, 222 * US);
	ck_assert_uint_eq(dev.teo.state_bins[2].recent, 8);
}
END_TEST

/*
 * 1 us spans, where menu polls: teo measures the exit latency too.
 * entry 0: C6, 134 us; residency 135, measured 68.5: intercept bin 2.
 * entry 1: C1E as above, 11 us; residency 12, measured 12 - 5 = 7:
 *   intercept bin 1.
 * entry 2: bins decayed by 1/8: bin 2 896, bin 1 1024 (total 1920).
 *   C6's candidate: intercepts below 1920 > (1920 - 0) / 2; at C1E
 *   bin 2's 896 is not more than half of 1920; at C1 896 + 1024 = 1920
 *   is: C1 (expected 11 us), 1 + 2 = 3 us; residency 4, measured 3:
 *   intercept bin 1.
 * entry 3: bin 1 1920, bin 2 784: at C1E 784 is not more than half of
 *   2704, at C1 2704 is: C1 again, 3 us; and so on.
 * Expect C6, C1E, then C1 (3 us) five times; bin 1's intercepts, from
 * the updates of entries 2-6 (each decays by x >> 3, then adds 1024):
 * 1024, 896 + 1024 = 1920, 1680 + 1024 = 2704, 2366 + 1024 = 3390,
 * 2967 + 1024 = 3991 (the last wake-up's waits for a selection).
 */
START_TEST(teo_1us_spans_settle_on_c1)
{
	static const int want_state[7] = { 3, 2, 1, 1, 1, 1, 1 };
	static const sim_time_t want_cost[7] = { 134, 11, 3, 3, 3, 3, 3 };
	struct cpuidle_device dev;
	unsigned int k;

	cpuidle_device_init(&dev, true);
	for (k = 0; k < 7; k++) {
		ck_assert_int_eq(cpuidle_idle_call(&dev, &m, k * MS),
				 want_state[k]);
		ck_assert_uint_eq(cpuidle_wake(&dev, &m, k * MS + 1 * US),
				  want_cost[k] * US);
	}
	ck_assert_uint_eq(dev.teo.state_bins[1].intercepts, 3991);
}
END_TEST

/*
 * 700 us spans: residency 834 us, measured 767.5, bin 3 = the sleep
 * length's: hits only, so C6 every time (134 us). Entering 500 us
 * before a tick, C6's 600 us does not fit the sleep length: C1E (no
 * intercepts to weigh), 11 us. Entering 1 us before a tick even C1's
 * 2 us does not fit: polling, a free wake.
 */
START_TEST(teo_next_tick_limits_c6)
{
	struct cpuidle_device dev;
	unsigned int k;

	cpuidle_device_init(&dev, true);
	for (k = 0; k < 9; k++) {
		ck_assert_int_eq(cpuidle_idle_call(&dev, &m, k * MS), 3);
		ck_assert_uint_eq(cpuidle_wake(&dev, &m, k * MS + 700 * US),
				  134 * US);
	}
	ck_assert_uint_eq(dev.teo.state_bins[3].intercepts, 0);
	ck_assert_int_eq(cpuidle_idle_call(&dev, &m, 9 * MS + 500 * US), 2);
	ck_assert_uint_eq(cpuidle_wake(&dev, &m, 10 * MS + 200 * US), 11 * US);
	ck_assert_int_eq(cpuidle_idle_call(&dev, &m, 11 * MS - 1 * US), 0);
	ck_assert_uint_eq(cpuidle_wake(&dev, &m, 11 * MS + 5 * US), 0);
}
END_TEST

static Suite *cpuidle_suite(void)
{
	Suite *s = suite_create("cpuidle");
	TCase *tc = tcase_create("menu");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, menu_50us_spans_pick_c1e);
	tcase_add_test(tc, menu_next_tick_limits_c6);
	tcase_add_test(tc, span_clamped_not_wrapped);
	tcase_add_test(tc, no_states_free_wakes);
	suite_add_tcase(s, tc);
	tc = tcase_create("teo");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, teo_50us_spans_pick_c1e);
	tcase_add_test(tc, teo_1us_spans_settle_on_c1);
	tcase_add_test(tc, teo_next_tick_limits_c6);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cpuidle_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
