// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/yaml_emit.c - the libyaml emitter wrapper (see sim/yaml_emit.h).
 */
#define _XOPEN_SOURCE 700 /* strcasecmp() */

#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "sim/util.h"
#include "sim/yaml_emit.h"

/**
 * sim_yaml_event() - emit @ev, unless an earlier call failed.
 * @y: the emitter
 * @ev: the event; sim_yaml_event() takes the responsibility for it: it is
 *	deleted whatever happens
 * @initialized: the result of the yaml_*_event_initialize() that made
 *	@ev; false marks @y failed (and @ev, not made, is not touched)
 */
void sim_yaml_event(struct sim_yaml *y, yaml_event_t *ev, bool initialized)
{
	if (!initialized) {
		y->failed = true;
		return;
	}
	if (y->failed) {
		yaml_event_delete(ev);
		return;
	}
	/* The emitter deletes the event, even when it fails. */
	if (!yaml_emitter_emit(&y->em, ev))
		y->failed = true;
}

/**
 * sim_yaml_begin() - start a document on @out.
 * @y: the emitter, caller-allocated
 * @out: the stream, left open by sim_yaml_end()
 *
 * Emits the stream start and an implicit document start. A failure is
 * reported by sim_yaml_end().
 */
void sim_yaml_begin(struct sim_yaml *y, FILE *out)
{
	yaml_event_t ev;
	int ok;

	y->inited = yaml_emitter_initialize(&y->em);
	y->failed = !y->inited;
	if (y->failed)
		return;
	yaml_emitter_set_output_file(&y->em, out);
	yaml_emitter_set_unicode(&y->em, 1);
	yaml_emitter_set_width(&y->em, -1); /* never fold long scalars */
	ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	sim_yaml_event(y, &ev, ok);
	ok = yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	sim_yaml_event(y, &ev, ok);
}

/**
 * sim_yaml_end() - end the document and the stream, flush, free @y.
 * @y: the emitter, begun
 *
 * Return: 0, or -1 with errno set (ENOMEM when the emitter could not be
 * made, else the stream's error or EIO) when any call failed.
 */
int sim_yaml_end(struct sim_yaml *y)
{
	yaml_event_t ev;

	if (!y->inited) {
		errno = ENOMEM;
		return -1;
	}
	sim_yaml_event(y, &ev, yaml_document_end_event_initialize(&ev, 1));
	sim_yaml_event(y, &ev, yaml_stream_end_event_initialize(&ev));
	if (!y->failed && !yaml_emitter_flush(&y->em))
		y->failed = true;
	yaml_emitter_delete(&y->em);
	y->inited = false;
	if (y->failed && !errno)
		errno = EIO;
	return y->failed ? -1 : 0;
}

/*
 * A scalar event: @plain allows the plain style (else the emitter quotes);
 * @style forces one.
 */
static void scalar(struct sim_yaml *y, const char *s, bool plain,
		   yaml_scalar_style_t style)
{
	yaml_event_t ev;
	int ok;

	ok = yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s,
					  (int)strlen(s), plain, 1, style);
	sim_yaml_event(y, &ev, ok);
}

/*
 * Would @s read back as a string if written plain? Reject the empty
 * string, YAML 1.1 null and booleans, anything starting like a number and
 * anything with indicator characters; the emitter then quotes it.
 */
static bool plain_is_string(const char *s)
{
	static const char *const words[] = {
		"null", "true", "false", "yes", "no", "on", "off", "y", "n",
	};
	unsigned int i;
	const char *p;

	if (!isalpha((unsigned char)s[0]) && s[0] != '_')
		return false;
	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (!strcasecmp(s, words[i]))
			return false;
	for (p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_-./@[] ", *p))
			return false;
	return s[strlen(s) - 1] != ' ';
}

/* A scalar in the style the emitter picks: keys, numbers, words. */
void sim_yaml_plain(struct sim_yaml *y, const char *s)
{
	scalar(y, s, true, YAML_ANY_SCALAR_STYLE);
}

/* A string that reads back as the same string: plain only when safe. */
void sim_yaml_str(struct sim_yaml *y, const char *s)
{
	scalar(y, s, plain_is_string(s), YAML_ANY_SCALAR_STYLE);
}

/* A string in double quotes, whatever it holds. */
void sim_yaml_quoted(struct sim_yaml *y, const char *s)
{
	scalar(y, s, false, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
}

void sim_yaml_u64(struct sim_yaml *y, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	sim_yaml_plain(y, buf);
}

/* Start a mapping: in braces with @flow, else one key per line. */
void sim_yaml_map_start(struct sim_yaml *y, bool flow)
{
	yaml_event_t ev;
	int ok;

	ok = yaml_mapping_start_event_initialize(
		&ev, NULL, NULL, 1,
		flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
	sim_yaml_event(y, &ev, ok);
}

void sim_yaml_map_end(struct sim_yaml *y)
{
	yaml_event_t ev;

	sim_yaml_event(y, &ev, yaml_mapping_end_event_initialize(&ev));
}

/* Start a sequence: in brackets with @flow, else one "- " item per line. */
void sim_yaml_seq_start(struct sim_yaml *y, bool flow)
{
	yaml_event_t ev;
	int ok;

	ok = yaml_sequence_start_event_initialize(
		&ev, NULL, NULL, 1,
		flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
	sim_yaml_event(y, &ev, ok);
}

void sim_yaml_seq_end(struct sim_yaml *y)
{
	yaml_event_t ev;

	sim_yaml_event(y, &ev, yaml_sequence_end_event_initialize(&ev));
}
