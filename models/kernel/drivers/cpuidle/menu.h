/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Model of a CPU going idle and being woken (Linux v6.0):
 * kernel/sched/idle.c cpuidle_idle_call() -> the menu governor's
 * menu_select() (drivers/cpuidle/governors/menu.c), the driver's
 * states (drivers/idle/intel_idle.c's table for the model, from the
 * machine profile's `idle_states`, after the polling state 0 that
 * drivers/cpuidle/poll_state.c adds on x86), and on the wake-up the
 * state's exit latency and the IPI that woke it (kernel/sched/core.c
 * ttwu_queue_wakelist() / smp_send_reschedule()), with menu_update()'s
 * record of the idle span it measured.
 *
 * Theory of operation: when a CPU goes idle, menu_select() predicts how
 * long it will be idle: the time to the next timer (SIM: the only timer
 * is the tick, HZ=1000) scaled by a correction factor learnt per bucket
 * of that time, or the typical interval of the last 8 idle spans when
 * they repeat (get_typical_interval(): their average, when the standard
 * deviation is at most 20 us or a sixth of it, outliers above dropped
 * down to 6 of 8). It picks the deepest state whose target residency
 * fits the prediction and whose exit latency is at most the prediction
 * (the performance multiplier is 1 without iowaiters; no PM QoS limit).
 * The polling state is kept only when the next timer comes before the
 * first real state's residency would pay. With the tick running (a
 * prediction below the tick) a state whose residency outlasts the next
 * tick is stepped back to one that fits. A wake-up of a CPU in a real
 * state costs the IPI and the state's exit latency; a polling CPU sees
 * TIF_NEED_RESCHED without an IPI (set_nr_if_polling()) and leaves at
 * once.
 *
 * SIM:
 *  - read in torvalds/linux drivers/cpuidle/governors/menu.c as stored at
 *    010e85f9e4 (microsecond fields; v6.0 keeps the selection with
 *    nanosecond fields, not read here);
 *  - the CPU stays in the chosen state through ticks: a tick wake-up and
 *    the governor's second selection are not modelled (the spans that
 *    matter here, a netperf pair's, are tens of microseconds);
 *  - the measured span is from idle entry to the wake-up's IPI, so
 *    menu_update()'s deduction of the exit latency is not needed;
 *  - the teo governor (kernel key cpuidle: teo) is teo.h's; the device
 *    holds either's data.
 *
 * Layering: models/kernel module; uses models/hw/machine.h, sim/engine.h.
 */
#ifndef MODELS_KERNEL_DRIVERS_CPUIDLE_MENU_H
#define MODELS_KERNEL_DRIVERS_CPUIDLE_MENU_H

#include <stdbool.h>
#include <stdint.h>

#include "models/hw/machine.h"
#include "models/kernel/drivers/cpuidle/teo.h"
#include "sim/engine.h"

#define MENU_BUCKETS 6 /* no iowait half: no iowaiters modelled */
#define MENU_INTERVALS 8

/*
 * struct cpuidle_device - one CPU's idle state and its menu_device.
 * @in_idle: between cpuidle_idle_call() and cpuidle_wake()
 * @last_state_idx: the state entered, 0 the polling state, i >= 1 the
 * profile's idle_states[i - 1]
 * @wakes, @wake_ps: wake-ups from a real state, and what they cost
 * @governor_teo: teo selects (@teo its data), else menu (the rest)
 */
struct cpuidle_device {
	bool governor_teo;
	struct teo_cpu teo;
	bool in_idle;
	int last_state_idx;
	sim_time_t entered_ps;
	unsigned int next_timer_us;
	unsigned int bucket;
	unsigned int correction_factor[MENU_BUCKETS];
	unsigned int intervals[MENU_INTERVALS];
	int interval_ptr;
	uint64_t wakes;
	sim_time_t wake_ps;
};

/*
 * menu_enable_device(): no history, a correction factor of unity; with
 * @teo, teo_enable_device() and teo governs.
 */
void cpuidle_device_init(struct cpuidle_device *dev, bool teo);
/* @nr CPUs' devices, each cpuidle_device_init()ed; free() them. */
struct cpuidle_device *cpuidle_devices_create(unsigned int nr, bool teo);

/*
 * cpuidle_idle_call() at @now: the governor (menu_select() or
 * teo_select()) picks the state; returns it.
 */
int cpuidle_idle_call(struct cpuidle_device *dev, const struct machine *m,
		      sim_time_t now);

/*
 * cpuidle_wake() - @dev's CPU is woken at @now: the time until it runs
 * (the IPI and the state's exit latency; 0 from polling or when the CPU
 * was not idle); the span goes into menu_update()'s history, or
 * teo_reflect()'s.
 */
sim_time_t cpuidle_wake(struct cpuidle_device *dev, const struct machine *m,
			sim_time_t now);

#endif
