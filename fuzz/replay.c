// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz/replay.c - main() for a harness built without libFuzzer: run
 * LLVMFuzzerTestOneInput() once on each file named, or on each file of
 * each directory named (not recursively, in name order), as
 * `fuzz/fuzz_scenario FILE` does. Without arguments, the committed inputs
 * of its target: FUZZ_SRCDIR/fuzz/corpus/T/ (the seeds) and
 * FUZZ_SRCDIR/fuzz/regress/T/ (inputs that once failed), which is what
 * `make check` runs (tests/local.mk):
 *
 *	fuzz/replay-scenario
 *	FUZZ_REPLAY_VERBOSE=1 fuzz/replay-scenario crash-1234
 *
 * Exit status 0 when every input ran (a finding aborts), 2 on an
 * unreadable argument.
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz/fuzz.h"

static int replay_file(const char *path, unsigned int *nr)
{
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f = fopen(path, "rb");

	if (!f) {
		perror(path);
		return -1;
	}
	do {
		if (len == cap) {
			unsigned char *bigger;

			cap = cap ? 2 * cap : 4096;
			bigger = realloc(buf, cap);
			if (!bigger) {
				perror(path);
				free(buf);
				fclose(f);
				return -1;
			}
			buf = bigger;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	if (getenv("FUZZ_REPLAY_VERBOSE"))
		fprintf(stderr, "replay: %s\n", path);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	(*nr)++;
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_dir(const char *dir, unsigned int *nr)
{
	struct dirent *de;
	char **names = NULL, path[FUZZ_PATH_MAX];
	size_t nr_names = 0, i;
	int ret = 0;
	DIR *d = opendir(dir);

	if (!d) {
		perror(dir);
		return -1;
	}
	while ((de = readdir(d))) {
		char **more;

		if (de->d_name[0] == '.')
			continue;
		more = realloc(names, (nr_names + 1) * sizeof(*names));
		if (!more || !(more[nr_names] = strdup(de->d_name))) {
			perror(dir);
			free(more ? more : names);
			closedir(d);
			return -1;
		}
		names = more;
		nr_names++;
	}
	closedir(d);
	if (nr_names)
		qsort(names, nr_names, sizeof(*names), cmp);
	for (i = 0; i < nr_names; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (!ret && replay_file(path, nr))
			ret = -1;
		free(names[i]);
	}
	free(names);
	return ret;
}

#ifndef FUZZ_TARGET_NAME
#error "FUZZ_TARGET_NAME: the target, for its committed inputs"
#endif

/* The committed inputs: the seeds, and the regressions if any. */
static int replay_committed(unsigned int *nr)
{
	char dir[FUZZ_PATH_MAX];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s/fuzz/corpus/%s", FUZZ_SRCDIR,
		 FUZZ_TARGET_NAME);
	if (replay_dir(dir, nr))
		return -1;
	snprintf(dir, sizeof(dir), "%s/fuzz/regress/%s", FUZZ_SRCDIR,
		 FUZZ_TARGET_NAME);
	if (!stat(dir, &st) && replay_dir(dir, nr))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int nr = 0;
	struct stat st;
	int i;

	if (argc == 1 && replay_committed(&nr))
		return 2;
	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st)) {
			perror(argv[i]);
			return 2;
		}
		if (S_ISDIR(st.st_mode) ? replay_dir(argv[i], &nr) :
					  replay_file(argv[i], &nr))
			return 2;
	}
	if (!nr) {
		fprintf(stderr, "%s: no inputs\n", argv[0]);
		return 2;
	}
	printf("%s: %u inputs replayed\n", argv[0], nr);
	return 0;
}
