/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/list/list.h - the shipped scenarios and machine profiles: `memcgsim list`,
 * and the profile names a scenario's `machine:` is checked against.
 *
 * Layering: cli/; the run driver (cmd/run/run.c) uses shipped_names() to
 * suggest a profile.
 */
#ifndef CLI_LIST_H
#define CLI_LIST_H

#include <stdbool.h>
#include <stdio.h>

/*
 * shipped_names() - the .yaml files in @base/@sub, sorted, at most @max,
 * without the ".yaml" when @strip. Each name is malloc'ed (free them with
 * shipped_names_free()). Returns how many; 0 when the folder cannot be read.
 */
unsigned int shipped_names(const char *base, const char *sub, bool strip,
			   char **names, unsigned int max);
void shipped_names_free(char **names, unsigned int nr);

/* memcgsim list: the profiles of @datadir/machines, then each folder's scenarios. */
int list_shipped(FILE *out, const char *datadir);

#endif /* CLI_LIST_H */
