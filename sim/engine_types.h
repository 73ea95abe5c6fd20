/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/engine_types.h - struct sim_engine, for sim/engine.h's inline fast
 * paths only: include sim/engine.h, never this file. The members are the
 * engine's own: nothing but sim/engine.[ch] reads or writes them.
 *
 * Why it is visible at all: the common case of setting a timer and of a
 * process's wake-up at sim_proc_sync() (an event appended to its bucket
 * of the calendar, cal_append()) is inline in its callers, which saves
 * the call, the callee's register saves and its reloads of what the
 * caller has in registers, on the path every simulated access takes.
 */
#ifndef SIM_ENGINE_TYPES_H
#define SIM_ENGINE_TYPES_H

#include "sim/calendar.h"

struct sim_engine {
	/* first: its clock is sim_clock() (C11 6.7.2.1: a struct's address
	 * is its first member's, the calendar's, whose first is the clock) */
	struct sim_calendar cal;
	bool stop;
	/* sim_proc_init()'s, not destroyed: sim_engine_many_procs() */
	unsigned int nr_procs;
	/*
	 * The running event's slot, for sim_event_seq(): its seq is still in
	 * the slot until the slot is pending again (a timer setting itself
	 * anew, a process yielding again), after the callers' reads. 0 once
	 * a process moved the clock on by itself (sim_proc_sync()).
	 */
	uint32_t running;
	/*
	 * Events run: tick_at - left. The run loop counts left down to the
	 * next progress call (one decrement and branch per event, where
	 * counting up and comparing with the next call's count was five).
	 */
	uint64_t tick_at; /* events run at the next progress call */
	uint64_t left; /* events until then */
	uint64_t progress_every;
	void (*progress_fn)(void *arg, sim_time_t now);
	void *progress_arg;
};

#endif /* SIM_ENGINE_TYPES_H */
