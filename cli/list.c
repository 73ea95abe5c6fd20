// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli/list.c - the shipped scenarios and machine profiles.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/list.h"

#define MAX_NAMES 512
#define MAX_FOLDERS 64

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

unsigned int shipped_names(const char *base, const char *sub, bool strip,
			   char **names, unsigned int max)
{
	char path[1200];
	struct dirent *de;
	unsigned int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", base, sub);
	d = opendir(path);
	if (!d)
		return 0;
	while (n < max && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len <= 5 || strcmp(de->d_name + len - 5, ".yaml"))
			continue;
		names[n] = strndup(de->d_name, strip ? len - 5 : len);
		if (names[n])
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), name_cmp);
	return n;
}

void shipped_names_free(char **names, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		free(names[i]);
}

static void list_folder(FILE *out, const char *base, const char *sub)
{
	char *names[MAX_NAMES];
	unsigned int n = shipped_names(base, sub, false, names, MAX_NAMES);
	unsigned int i;

	for (i = 0; i < n; i++)
		fprintf(out, "  %s/%s/%s\n", base, sub, names[i]);
	shipped_names_free(names, n);
}

/* The folders of @dir but machines/, sorted. */
static unsigned int scenario_folders(const char *dir, char **subs)
{
	unsigned int n = 0;
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	while (d && n < MAX_FOLDERS && (de = readdir(d))) {
		char path[1200];

		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "machines") ||
		    stat(path, &st) || !S_ISDIR(st.st_mode))
			continue;
		subs[n] = strdup(de->d_name);
		if (subs[n])
			n++;
	}
	if (d)
		closedir(d);
	qsort(subs, n, sizeof(*subs), name_cmp);
	return n;
}

int list_shipped(FILE *out, const char *datadir)
{
	char *subs[MAX_FOLDERS];
	unsigned int n, i;

	fprintf(out,
		"Machine profiles (use as `machine: NAME` without .yaml):\n");
	list_folder(out, datadir, "machines");
	n = scenario_folders(datadir, subs);
	for (i = 0; i < n; i++) {
		fprintf(out, "Scenarios in %s/:\n", subs[i]);
		list_folder(out, datadir, subs[i]);
	}
	shipped_names_free(subs, n);
	return 0;
}
