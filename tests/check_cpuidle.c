// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_cpuidle.c - the menu governor's choice of an idle state
 * and the price of waking a CPU from it
 * (models/kernel/drivers/cpuidle/menu.c), on Skylake-SP's table
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

	cpuidle_device_init(&dev);
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

	cpuidle_device_init(&dev);
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

	cpuidle_device_init(&dev);
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
	cpuidle_device_init(&dev);
	ck_assert_int_eq(cpuidle_idle_call(&dev, &m, 0), 0);
	ck_assert_uint_eq(cpuidle_wake(&dev, &m, 50 * US), 0);
	ck_assert_uint_eq(dev.wakes, 0);
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
