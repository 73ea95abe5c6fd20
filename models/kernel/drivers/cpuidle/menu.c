// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of drivers/cpuidle/governors/menu.c (menu_select(),
 * get_typical_interval(), menu_update()) and of the wake-up of an idle
 * CPU (Linux v6.0). Theory of operation: see menu.h.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "models/kernel/drivers/cpuidle/menu.h"
#include "sim/error.h"

#define RESOLUTION 1024
#define DECAY 8
#define MAX_INTERESTING 50000 /* us */
#define INTERVAL_SHIFT 3
#define TICK_USEC 1000 /* SIM: HZ=1000, as sched/fair.h's SCHED_TICK_PS */

/* State @i: 0 the polling state (poll_idle(): 0 and 0), then the table. */
static unsigned int exit_latency_us(const struct machine *m, int i)
{
	return i ? (unsigned int)(m->idle_states[i - 1].exit_ps /
				  SIM_PS_PER_US) :
		   0;
}

static unsigned int target_residency_us(const struct machine *m, int i)
{
	return i ? (unsigned int)(m->idle_states[i - 1].residency_ps /
				  SIM_PS_PER_US) :
		   0;
}

void cpuidle_device_init(struct cpuidle_device *dev, bool teo)
{
	unsigned int i;

	memset(dev, 0, sizeof(*dev));
	for (i = 0; i < MENU_BUCKETS; i++)
		dev->correction_factor[i] = RESOLUTION * DECAY;
	teo_enable_device(&dev->teo);
	dev->governor_teo = teo;
}

struct cpuidle_device *cpuidle_devices_create(unsigned int nr, bool teo)
{
	struct cpuidle_device *devs = calloc(nr, sizeof(*devs));
	unsigned int i;

	SIM_OOM_ON(!devs);
	for (i = 0; i < nr; i++)
		cpuidle_device_init(&devs[i], teo);
	return devs;
}

static unsigned int which_bucket(unsigned int duration)
{
	if (duration < 10)
		return 0;
	if (duration < 100)
		return 1;
	if (duration < 1000)
		return 2;
	if (duration < 10000)
		return 3;
	if (duration < 100000)
		return 4;
	return 5;
}

/*
 * get_typical_interval() - the average of the last 8 spans when they
 * repeat (stddev at most 20 us, or avg > 6 x stddev with 6 of 8 kept),
 * dropping the largest while more than 6 remain; else UINT_MAX.
 */
static unsigned int get_typical_interval(const struct cpuidle_device *dev,
					 unsigned int predicted_us)
{
	unsigned int thresh = INT_MAX, min, max, avg;
	uint64_t sum, variance;
	unsigned int i, divisor;

	for (;;) {
		min = UINT_MAX;
		max = 0;
		sum = 0;
		divisor = 0;
		for (i = 0; i < MENU_INTERVALS; i++) {
			unsigned int v = dev->intervals[i];

			if (v > thresh)
				continue;
			sum += v;
			divisor++;
			if (v > max)
				max = v;
			if (v < min)
				min = v;
		}
		if (min >= predicted_us)
			return UINT_MAX;
		avg = (unsigned int)(sum / divisor);
		variance = 0;
		for (i = 0; i < MENU_INTERVALS; i++) {
			int64_t diff = (int64_t)dev->intervals[i] - avg;

			if (dev->intervals[i] <= thresh)
				variance += (uint64_t)(diff * diff);
		}
		variance /= divisor;
		if (variance <= UINT64_MAX / 36 &&
		    (((uint64_t)avg * avg > variance * 36 &&
		      divisor * 4 >= MENU_INTERVALS * 3) ||
		     variance <= 400))
			return avg;
		if (divisor * 4 <= MENU_INTERVALS * 3)
			return UINT_MAX;
		thresh = max - 1;
	}
}

/*
 * menu_select() - the deepest state whose residency fits the predicted
 * span and whose exit latency is at most it. SIM: no PM QoS limit, no
 * iowaiters (performance_multiplier() is 1), the tick is never stopped.
 */
static int menu_select(struct cpuidle_device *dev, const struct machine *m,
		       sim_time_t now)
{
	int state_count = (int)m->nr_idle_states + 1;
	unsigned int predicted_us, latency_req, typical, delta_next_us;
	int i, idx;

	/* tick_nohz_get_sleep_length(): SIM: the next tick */
	delta_next_us = (unsigned int)((SIM_PS_PER_MS - now % SIM_PS_PER_MS) /
				       SIM_PS_PER_US);
	dev->next_timer_us = delta_next_us;
	dev->bucket = which_bucket(dev->next_timer_us);

	if (state_count <= 1 || dev->next_timer_us < target_residency_us(m, 1))
		return 0;

	predicted_us =
		(unsigned int)(((uint64_t)dev->next_timer_us *
					dev->correction_factor[dev->bucket] +
				RESOLUTION * DECAY / 2) /
			       (RESOLUTION * DECAY));
	typical = get_typical_interval(dev, predicted_us);
	if (typical < predicted_us)
		predicted_us = typical;
	/* interactivity_req = predicted_us / performance_multiplier() */
	latency_req = predicted_us;

	idx = 0;
	for (i = 0; i < state_count; i++) {
		if (target_residency_us(m, i) > predicted_us) {
			/* a real state, not polling, while the timer is far */
			if (idx == 0 && exit_latency_us(m, i) <= latency_req &&
			    target_residency_us(m, i) <= dev->next_timer_us) {
				predicted_us = target_residency_us(m, i);
				idx = i;
			}
			break; /* predicted below the tick, or tick kept */
		}
		if (exit_latency_us(m, i) > latency_req)
			break;
		idx = i;
	}

	/*
	 * A span shorter than the tick keeps the tick: step back to a
	 * state whose residency the next tick allows.
	 */
	if (idx > 0 && predicted_us < TICK_USEC &&
	    target_residency_us(m, idx) > delta_next_us) {
		for (i = idx - 1; i >= 0; i--) {
			idx = i;
			if (target_residency_us(m, i) <= delta_next_us)
				break;
		}
	}
	return idx;
}

int cpuidle_idle_call(struct cpuidle_device *dev, const struct machine *m,
		      sim_time_t now)
{
	dev->last_state_idx = dev->governor_teo ? teo_select(dev, m, now) :
						  menu_select(dev, m, now);
	dev->entered_ps = now;
	dev->in_idle = true;
	return dev->last_state_idx;
}

/* menu_update(): the span measured, into the bucket's factor and history. */
static void menu_update(struct cpuidle_device *dev, unsigned int measured_us)
{
	unsigned int new_factor;

	if (measured_us > dev->next_timer_us)
		measured_us = dev->next_timer_us;
	new_factor = dev->correction_factor[dev->bucket];
	new_factor -= new_factor / DECAY;
	if (dev->next_timer_us > 0 && measured_us < MAX_INTERESTING)
		new_factor += RESOLUTION * measured_us / dev->next_timer_us;
	else
		new_factor += RESOLUTION;
	dev->correction_factor[dev->bucket] = new_factor;

	dev->intervals[dev->interval_ptr++] = measured_us;
	if (dev->interval_ptr >= MENU_INTERVALS)
		dev->interval_ptr = 0;
}

sim_time_t cpuidle_wake(struct cpuidle_device *dev, const struct machine *m,
			sim_time_t now)
{
	uint64_t span_us = now > dev->entered_ps ?
				   (now - dev->entered_ps) / SIM_PS_PER_US :
				   0;
	sim_time_t cost = 0;

	if (!dev->in_idle)
		return 0;
	dev->in_idle = false;
	if (dev->last_state_idx > 0) {
		/* smp_send_reschedule(), then the state's exit latency */
		cost = m->ipi_ps +
		       m->idle_states[dev->last_state_idx - 1].exit_ps;
		dev->wakes++;
		dev->wake_ps += cost;
	}
	if (dev->governor_teo)
		teo_reflect(dev, now, cost);
	else
		menu_update(dev, span_us < UINT_MAX ? (unsigned int)span_us :
						      UINT_MAX);
	return cost;
}
