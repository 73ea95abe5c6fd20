/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/yaml_emit.h - the one libyaml emitter wrapper, with a sticky error.
 *
 * Theory of operation: libyaml's emitter takes one event per call and each
 * call can fail. Checking every call would bury a writer's shape under
 * error handling, so struct sim_yaml remembers the first failure and turns
 * every later call into a no-op; the writer checks once, at
 * sim_yaml_end(). A writer reads as the document it writes:
 *
 *	struct sim_yaml y;
 *
 *	sim_yaml_begin(&y, out);		stream and document start
 *	sim_yaml_map_start(&y, false);
 *	sim_yaml_plain(&y, "seed");		seed: 42
 *	sim_yaml_u64(&y, 42);
 *	sim_yaml_plain(&y, "set");		set: ["a=1"]
 *	sim_yaml_seq_start(&y, true);
 *	sim_yaml_quoted(&y, "a=1");
 *	sim_yaml_seq_end(&y);
 *	sim_yaml_map_end(&y);
 *	return sim_yaml_end(&y);		0, or -1 with errno set
 *
 * Every document is written the same way: UTF-8, an implicit document
 * start and end ("---" and "..." left out), and long scalars never folded,
 * so that the same calls always give the same bytes.
 *
 * Scalars: sim_yaml_plain() leaves the style to the emitter (plain where
 * YAML allows it); sim_yaml_str() does the same only for strings that read
 * back as strings (not "yes", "null", "1e3" or ""), which the emitter then
 * quotes; sim_yaml_quoted() always double-quotes.
 *
 * Layering: sim/ primitive; uses libyaml only.
 */
#ifndef SIM_YAML_EMIT_H
#define SIM_YAML_EMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <yaml.h>

/**
 * struct sim_yaml - a libyaml emitter and its sticky failure flag.
 * @em: the emitter
 * @inited: yaml_emitter_initialize() succeeded (else sim_yaml_end()
 *	reports ENOMEM)
 * @failed: an event could not be made or emitted; every later call does
 *	nothing. A writer may set it to make sim_yaml_end() fail.
 *
 * Lifetime: embedded, caller-allocated: sim_yaml_begin() and
 * sim_yaml_end(), which must be called once begun, whatever happened.
 */
struct sim_yaml {
	yaml_emitter_t em;
	bool inited;
	bool failed;
};

void sim_yaml_begin(struct sim_yaml *y, FILE *out);
int sim_yaml_end(struct sim_yaml *y);

void sim_yaml_event(struct sim_yaml *y, yaml_event_t *ev, bool initialized);

void sim_yaml_plain(struct sim_yaml *y, const char *s);
void sim_yaml_str(struct sim_yaml *y, const char *s);
void sim_yaml_quoted(struct sim_yaml *y, const char *s);
void sim_yaml_u64(struct sim_yaml *y, uint64_t v);

void sim_yaml_map_start(struct sim_yaml *y, bool flow);
void sim_yaml_map_end(struct sim_yaml *y);
void sim_yaml_seq_start(struct sim_yaml *y, bool flow);
void sim_yaml_seq_end(struct sim_yaml *y);

#endif /* SIM_YAML_EMIT_H */
