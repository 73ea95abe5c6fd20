// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of drivers/cpuidle/governors/teo.c (teo_select(), teo_update(),
 * teo_reflect(), teo_find_shallower_state(), teo_middle_of_bin()),
 * Linux v6.0. Theory of operation: see teo.h.
 */
#include <stdint.h>
#include <string.h>

#include "models/kernel/drivers/cpuidle/menu.h"
#include "models/kernel/drivers/cpuidle/teo.h"

#define TICK_NSEC 1000000 /* SIM: HZ=1000, as menu.c's TICK_USEC */

/* State @i's target residency and exit latency: 0 the polling state */
static int64_t target_residency_ns(const struct machine *m, int i)
{
	return i ? (int64_t)(m->idle_states[i - 1].residency_ps /
			     SIM_PS_PER_NS) :
		   0;
}

static int64_t exit_latency_ns(const struct machine *m, int i)
{
	return i ? (int64_t)(m->idle_states[i - 1].exit_ps / SIM_PS_PER_NS) : 0;
}

void teo_enable_device(struct teo_cpu *cpu_data)
{
	int i;

	memset(cpu_data, 0, sizeof(*cpu_data));
	for (i = 0; i < TEO_NR_RECENT; i++)
		cpu_data->recent_idx[i] = -1;
}

/*
 * teo_update() - take in the last wake-up from state @last: a hit of
 * the sleep length's bin, or an intercept of the measured time's.
 */
static void teo_update(struct teo_cpu *cpu_data, const struct machine *m,
		       int last)
{
	int state_count = (int)m->nr_idle_states + 1;
	int i, idx_timer = 0, idx_duration = 0;
	int64_t measured_ns;

	if (cpu_data->time_span_ns >= cpu_data->sleep_length_ns) {
		/* woken at (SIM: or after) the timer expected */
		measured_ns = INT64_MAX;
	} else {
		int64_t lat_ns = exit_latency_ns(m, last);

		/* half the exit latency, the average delay to run again */
		measured_ns = cpu_data->last_residency_ns;
		if (measured_ns >= lat_ns)
			measured_ns -= lat_ns / 2;
		else
			measured_ns /= 2;
	}

	cpu_data->total = 0;
	for (i = 0; i < state_count; i++) {
		struct teo_bin *bin = &cpu_data->state_bins[i];

		bin->hits -= bin->hits >> TEO_DECAY_SHIFT;
		bin->intercepts -= bin->intercepts >> TEO_DECAY_SHIFT;
		cpu_data->total += bin->hits + bin->intercepts;
		if (target_residency_ns(m, i) <= cpu_data->sleep_length_ns) {
			idx_timer = i;
			if (target_residency_ns(m, i) <= measured_ns)
				idx_duration = i;
		}
	}

	i = cpu_data->next_recent_idx++;
	if (cpu_data->next_recent_idx >= TEO_NR_RECENT)
		cpu_data->next_recent_idx = 0;
	if (cpu_data->recent_idx[i] >= 0)
		cpu_data->state_bins[cpu_data->recent_idx[i]].recent--;

	if (idx_timer == idx_duration) {
		cpu_data->state_bins[idx_timer].hits += TEO_PULSE;
		cpu_data->recent_idx[i] = -1;
	} else {
		cpu_data->state_bins[idx_duration].intercepts += TEO_PULSE;
		cpu_data->state_bins[idx_duration].recent++;
		cpu_data->recent_idx[i] = idx_duration;
	}
	cpu_data->total += TEO_PULSE;
}

static int64_t teo_middle_of_bin(int idx, const struct machine *m)
{
	return (target_residency_ns(m, idx) + target_residency_ns(m, idx + 1)) /
	       2;
}

/* the next shallower state whose residency is within @duration_ns */
static int teo_find_shallower_state(const struct machine *m, int state_idx,
				    int64_t duration_ns)
{
	int i;

	for (i = state_idx - 1; i >= 0; i--) {
		state_idx = i;
		if (target_residency_ns(m, i) <= duration_ns)
			break;
	}
	return state_idx;
}

int teo_select(struct cpuidle_device *dev, const struct machine *m,
	       sim_time_t now)
{
	struct teo_cpu *cpu_data = &dev->teo;
	int state_count = (int)m->nr_idle_states + 1;
	unsigned int idx_intercept_sum = 0, intercept_sum = 0;
	unsigned int idx_recent_sum = 0, recent_sum = 0;
	unsigned int idx_hit_sum = 0, hit_sum = 0;
	bool alt_intercepts, alt_recent;
	int64_t delta_tick, duration_ns;
	int i, idx;

	if (cpu_data->update) {
		teo_update(cpu_data, m, dev->last_state_idx);
		cpu_data->update = false;
	}

	/* tick_nohz_get_sleep_length(): SIM: the next tick */
	delta_tick = (int64_t)((SIM_PS_PER_MS - now % SIM_PS_PER_MS) /
			       SIM_PS_PER_NS);
	duration_ns = delta_tick;
	cpu_data->sleep_length_ns = duration_ns;

	if (state_count < 2)
		return 0;
	/* polling, state 0, when even state 1 does not fit */
	idx = 0;
	if (target_residency_ns(m, 1) > duration_ns)
		return 0;

	/*
	 * The deepest state within the sleep length, and the sums of the
	 * shallower bins' metrics. SIM: no latency constraint, no state
	 * disabled, so idx0 is the polling state and the loop moves idx
	 * past it (state 1 fits, above).
	 */
	for (i = 1; i < state_count; i++) {
		struct teo_bin *prev_bin = &cpu_data->state_bins[i - 1];

		intercept_sum += prev_bin->intercepts;
		hit_sum += prev_bin->hits;
		recent_sum += prev_bin->recent;
		if (target_residency_ns(m, i) > duration_ns)
			break;
		idx = i;
		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
		idx_recent_sum = recent_sum;
	}

	/* early wake-ups likely: look for a shallower state */
	alt_intercepts = 2 * idx_intercept_sum > cpu_data->total - idx_hit_sum;
	alt_recent = idx_recent_sum > TEO_NR_RECENT / 2;
	if (alt_recent || alt_intercepts) {
		intercept_sum = 0;
		recent_sum = 0;
		for (i = idx - 1; i >= 0; i--) {
			struct teo_bin *bin = &cpu_data->state_bins[i];

			intercept_sum += bin->intercepts;
			recent_sum += bin->recent;
			/* SIM: teo_time_ok() holds: the tick is not stopped */
			if ((!alt_recent || 2 * recent_sum > idx_recent_sum) &&
			    (!alt_intercepts ||
			     2 * intercept_sum > idx_intercept_sum)) {
				idx = i;
				duration_ns = teo_middle_of_bin(i, m);
				break;
			}
		}
	}

	/* the tick stays unless a real state is expected to last past it */
	if (idx > 0 && duration_ns >= TICK_NSEC)
		return idx;
	if (idx > 0 && target_residency_ns(m, idx) > delta_tick)
		idx = teo_find_shallower_state(m, idx, delta_tick);
	return idx;
}

void teo_reflect(struct cpuidle_device *dev, sim_time_t now, sim_time_t cost)
{
	struct teo_cpu *cpu_data = &dev->teo;
	sim_time_t back = now + cost;
	int64_t span_ns =
		back > dev->entered_ps ?
			(int64_t)((back - dev->entered_ps) / SIM_PS_PER_NS) :
			0;

	/* SIM: selection and entry are one instant, so are both spans */
	cpu_data->time_span_ns = span_ns;
	cpu_data->last_residency_ns = span_ns;
	cpu_data->update = true;
}
