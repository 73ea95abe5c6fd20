/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Model of the timer events oriented (teo) cpuidle governor,
 * drivers/cpuidle/governors/teo.c (Linux v6.0): teo_select(),
 * teo_update(), teo_reflect(), teo_find_shallower_state(); the device
 * and the wake-up are menu.h's (kernel key cpuidle: teo).
 *
 * Theory of operation: the states' target residencies cut the idle
 * time into bins (bin i from state i's residency up to state i + 1's;
 * state 0, polling, has 0). After each wake-up teo_update() decays every
 * bin's "hits" and "intercepts" by 1/8 and adds a PULSE of 1024: to the
 * hits of the sleep length's bin (the time to the next timer at the
 * selection) when the measured idle time fell into the same bin, else
 * to the intercepts (and the recent count of the last 9) of the bin the
 * measured time fell into. The measured time is the residency less half
 * the state's exit latency; a wake-up at or after the sleep length
 * counts as the timer's.
 *
 * teo_select() takes the deepest state whose residency is within the
 * sleep length (polling when even state 1's is not). If the intercepts
 * of the shallower bins outweigh the hits and intercepts of the
 * candidate's and the deeper ones (2 x intercepts > total - hits of the
 * shallower), or more than 4 of the last 9 wake-ups were intercepts
 * there, it walks to shallower states and takes the first whose bins,
 * from it up to the candidate, hold more than half those intercepts
 * (and recent ones), with the middle of its bin as the expected idle
 * time. With the tick kept (that time below the tick) a state whose
 * residency outlasts the next tick is stepped back.
 *
 * SIM:
 *  - read in torvalds/linux drivers/cpuidle/governors/teo.c as stored at
 *    04bae4e226 (v6.3-era), and in a stored copy of the text before
 *    6.3's util-awareness (the v5.17-v6.2 text, found by its content:
 *    the index names no repository for it), whose teo_update() and
 *    teo_select() are what this file models;
 *  - as for menu: the only timer is the tick (HZ=1000), which is never
 *    stopped (teo_time_ok() always holds), no PM QoS latency limit, no
 *    disabled states; the CPU stays in the state through ticks, and
 *    polling has no time limit (poll_idle()'s cpuidle_poll_time(), after
 *    which the governor would select again and count the timer's bin);
 *  - the residency is the time from idle entry to the CPU running again:
 *    the span to the wake-up, the IPI and the state's exit latency.
 *
 * Layering: models/kernel module; uses models/hw/machine.h.
 */
#ifndef MODELS_KERNEL_DRIVERS_CPUIDLE_TEO_H
#define MODELS_KERNEL_DRIVERS_CPUIDLE_TEO_H

#include <stdbool.h>
#include <stdint.h>

#include "models/hw/machine.h"
#include "sim/engine.h"

#define TEO_PULSE 1024
#define TEO_DECAY_SHIFT 3
#define TEO_NR_RECENT 9

/* struct teo_bin - a bin's "intercepts", "hits" and recent intercepts */
struct teo_bin {
	unsigned int intercepts;
	unsigned int hits;
	unsigned int recent;
};

/*
 * struct teo_cpu - the governor's data of a CPU.
 * @time_span_ns: from the selection to the wake-up
 * @sleep_length_ns: the time to the next timer at the selection
 * @last_residency_ns: the entered state's residency (dev->last_residency_ns)
 * @state_bins: a bin per state, the polling state 0 first
 * @total: the hits and intercepts of every bin
 * @recent_idx: the bins of the last TEO_NR_RECENT intercepts (-1: a hit)
 * @update: a wake-up not yet taken in by teo_update()
 */
struct teo_cpu {
	int64_t time_span_ns;
	int64_t sleep_length_ns;
	int64_t last_residency_ns;
	struct teo_bin state_bins[MACHINE_MAX_IDLE_STATES + 1];
	unsigned int total;
	int next_recent_idx;
	int recent_idx[TEO_NR_RECENT];
	bool update;
};

struct cpuidle_device;

/* teo_enable_device(): no history */
void teo_enable_device(struct teo_cpu *cpu_data);

/* teo_select() at @now, after teo_update() of the last wake-up */
int teo_select(struct cpuidle_device *dev, const struct machine *m,
	       sim_time_t now);

/*
 * teo_reflect() of a wake-up at @now: the CPU runs @cost later (the IPI
 * and the state's exit latency)
 */
void teo_reflect(struct cpuidle_device *dev, sim_time_t now, sim_time_t cost);

#endif
