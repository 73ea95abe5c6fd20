// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/list/list.c - the shipped scenarios and machine profiles: each with its
 * one-line description (its description:, else the first sentence of its
 * header comment) and, for a scenario, what one run simulates.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/list/list.h"
#include "sim/error.h"
#include "sim/scenario.h"
#include "models/hw/machine.h"
#include "sim/engine.h"

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

/* ---- what a file says about itself ---- */

/*
 * The first sentence of @path's header comment (its first paragraph of
 * "# " lines, the SPDX line aside), at most @size - 1 bytes, cut at a word
 * with "..." when longer. Empty when there is none.
 */
/*
 * The ". " that ends the first sentence of @s, or NULL: not one after an
 * initial or a short abbreviation ("P. E. McKenney", "e.g. ").
 */
static char *sentence_end(char *s)
{
	char *p = s, *w;

	while ((p = strstr(p, ". "))) {
		for (w = p; w > s && w[-1] != ' ' && w[-1] != '('; w--)
			;
		if (p - w >= 3 && !memchr(w, '.', (size_t)(p - w)))
			return p;
		p++;
	}
	return NULL;
}

static void header_sentence(const char *path, char *buf, size_t size)
{
	char line[512], *p;
	size_t len = 0, n;
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	while (len + 2 < size && fgets(line, sizeof(line), f)) {
		if (line[0] != '#')
			break;
		line[strcspn(line, "\n")] = '\0';
		p = line + 1;
		while (*p == ' ')
			p++;
		if (strstr(p, "SPDX-License-Identifier"))
			continue;
		if (!*p) {
			if (len)
				break;
			continue;
		}
		if (len)
			buf[len++] = ' ';
		n = strlen(p);
		if (n > size - len - 2)
			n = size - len - 2; /* cut below */
		memcpy(buf + len, p, n);
		len += n;
		buf[len] = '\0';
		/* A space after the line, so that a final period counts. */
		buf[len] = ' ';
		buf[len + 1] = '\0';
		p = sentence_end(buf);
		buf[len] = '\0';
		if (p) {
			p[1] = '\0';
			len = strlen(buf);
			break;
		}
	}
	fclose(f);
	if (len + 2 >= size && size > 4) {
		/* Cut at the last word that fits with "...". */
		buf[size - 4] = '\0';
		p = strrchr(buf, ' ');
		if (!p)
			p = buf + size - 4;
		memcpy(p, "...", 4);
	}
}

/* The description: @tree's description:, else the header's first sentence. */
static void describe(const char *path, const struct scenario_node *tree,
		     char *buf, size_t size)
{
	const char *desc = NULL;
	struct sim_error err;

	if (!scenario_string(tree, "description", false, NULL, &desc, &err) &&
	    desc && *desc)
		snprintf(buf, size, "%s", desc);
	else
		header_sentence(path, buf, size < 75 ? size : 75);
}

/* ---- machine profiles ---- */

static void list_machines(FILE *out, const char *base)
{
	char *names[MAX_NAMES], path[1400], desc[256];
	unsigned int n =
		shipped_names(base, "machines", true, names, MAX_NAMES);
	char shown[1400], shown_desc[1024];
	uint64_t s, c, t;
	struct scenario_node *tree;
	struct sim_error err;
	unsigned int i;

	fprintf(out,
		"Machine profiles in %s/machines (use as `machine: NAME`):\n",
		sim_escape(shown, sizeof(shown), base));
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/machines/%s.yaml", base,
			 names[i]);
		tree = scenario_load_file(path, &err);
		desc[0] = '\0';
		if (tree)
			describe(path, tree, desc, sizeof(desc));
		/* Names and headers from the data directory, escaped. */
		sim_escape(shown, sizeof(shown), names[i]);
		sim_escape(shown_desc, sizeof(shown_desc), desc);
		if (tree &&
		    !scenario_u64(tree, "sockets", false, 0, 0, 4096, &s,
				  &err) &&
		    !scenario_u64(tree, "cores_per_socket", false, 0, 0, 4096,
				  &c, &err) &&
		    !scenario_u64(tree, "threads_per_core", false, 1, 0, 64, &t,
				  &err) &&
		    s * c * t != 0)
			fprintf(out, "  %-14s %4llu CPUs  %s\n", shown,
				(unsigned long long)(s * c * t), shown_desc);
		else
			fprintf(out, "  %-14s %9s  %s\n", shown, "",
				shown_desc);
		scenario_free(tree);
	}
	shipped_names_free(names, n);
}

/* ---- scenarios ---- */

/*
 * struct scenario_cost - what one run of a scenario simulates: each
 * variant (the scenario itself without variants) for the warm-up and
 * the duration, with one task per CPU its workloads list.
 */
struct scenario_cost {
	unsigned int nr_runs;
	uint64_t duration_ps, warmup_ps;
	unsigned int cpus_min, cpus_max;
};

/* The CPUs @tree's workloads run on, or 0 when that cannot be read. */
static unsigned int busy_cpus(const struct scenario_node *tree)
{
	const struct scenario_node *wl = scenario_get(tree, "workloads");
	uint64_t mask[MACHINE_MAX_CPUS / 64];
	struct sim_error err;
	unsigned int i, nr, sum = 0;

	for (i = 0; wl && i < scenario_len(wl); i++) {
		if (scenario_cpulist(scenario_item(wl, i), "cpus", false, "",
				     MACHINE_MAX_CPUS, mask, NULL, &nr, &err))
			return 0;
		sum += nr;
	}
	return sum;
}

static void cost_add_cpus(struct scenario_cost *c, unsigned int cpus)
{
	if (!cpus)
		return;
	if (!c->cpus_min || cpus < c->cpus_min)
		c->cpus_min = cpus;
	if (cpus > c->cpus_max)
		c->cpus_max = cpus;
}

/* Fill @c from @tree; false when the scenario cannot be read so far. */
static bool scenario_cost(const struct scenario_node *tree,
			  struct scenario_cost *c)
{
	const struct scenario_node *vars = scenario_get(tree, "variants");
	struct scenario_node *copy;
	const struct scenario_node *set;
	struct sim_error err;
	unsigned int i, j;

	memset(c, 0, sizeof(*c));
	if (scenario_time_ps(tree, "duration_ms", false, SIM_PS_PER_MS,
			     SIM_PS_PER_MS, 0, UINT64_MAX, &c->duration_ps,
			     &err) ||
	    scenario_time_ps(tree, "warmup_ms", false, SIM_PS_PER_MS,
			     c->duration_ps / 10, 0, UINT64_MAX, &c->warmup_ps,
			     &err))
		return false;
	c->nr_runs = vars ? (unsigned int)scenario_len(vars) : 1;
	if (!vars || !c->nr_runs) {
		c->nr_runs = 1;
		cost_add_cpus(c, busy_cpus(tree));
		return true;
	}
	for (i = 0; i < scenario_len(vars); i++) {
		set = scenario_get(scenario_item(vars, i), "set");
		copy = scenario_clone(tree);
		if (!copy)
			return false;
		for (j = 0; set && scenario_kind(set) == SCENARIO_MAP &&
			    j < scenario_len(set);
		     j++)
			if (scenario_set(copy, scenario_key(set, j),
					 scenario_item(set, j), &err))
				break;
		cost_add_cpus(c, busy_cpus(copy));
		scenario_free(copy);
	}
	return true;
}

/* "0.55 ms", "5 ms", "17 ms", "20 us". */
static void print_time(FILE *out, uint64_t ps)
{
	if (ps < SIM_PS_PER_MS / 10)
		fprintf(out, "%g us", (double)ps / SIM_PS_PER_US);
	else
		fprintf(out, "%g ms", (double)ps / SIM_PS_PER_MS);
}

/* NAME, its cost, then its description on a line of its own. */
static void list_scenario(FILE *out, const char *base, const char *sub,
			  const char *name)
{
	char path[1400], desc[256] = "", shown[1400], stem[1400];
	const char *machine = NULL;
	struct scenario_cost c;
	struct scenario_node *tree;
	struct sim_error err;
	size_t len = strlen(name);

	snprintf(path, sizeof(path), "%s/%s/%s", base, sub, name);
	/* Every name and text from the data directory is escaped. */
	snprintf(stem, sizeof(stem), "%.*s", (int)(len - 5), name);
	fprintf(out, "  %-28s", sim_escape(shown, sizeof(shown), stem));
	tree = scenario_load_file(path, &err);
	if (!tree) {
		fprintf(out, " (cannot be read: %s)\n", err.msg);
		return;
	}
	describe(path, tree, desc, sizeof(desc));
	if (scenario_cost(tree, &c)) {
		fprintf(out, " %u x ", c.nr_runs);
		print_time(out, c.warmup_ps + c.duration_ps);
		if (c.cpus_max && c.cpus_min != c.cpus_max)
			fprintf(out, ", %u-%u CPUs", c.cpus_min, c.cpus_max);
		else if (c.cpus_max)
			fprintf(out, ", %u CPU%s", c.cpus_max,
				c.cpus_max == 1 ? "" : "s");
		if (scenario_kind(scenario_get(tree, "machine")) ==
			    SCENARIO_SCALAR &&
		    !scenario_string(tree, "machine", false, NULL, &machine,
				     &err) &&
		    machine && !strchr(machine, '/'))
			fprintf(out, " of %s",
				sim_escape(shown, sizeof(shown), machine));
	}
	fprintf(out, "\n");
	if (desc[0])
		fprintf(out, "      %s\n",
			sim_escape(shown, sizeof(shown), desc));
	scenario_free(tree);
}

static void list_folder(FILE *out, const char *base, const char *sub)
{
	char *names[MAX_NAMES], shown[1400];
	unsigned int n = shipped_names(base, sub, false, names, MAX_NAMES);
	unsigned int i;

	if (n)
		fprintf(out, "%s/\n", sim_escape(shown, sizeof(shown), sub));
	for (i = 0; i < n; i++)
		list_scenario(out, base, sub, names[i]);
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
	char *subs[MAX_FOLDERS], shown[1400];
	unsigned int n, i;

	list_machines(out, datadir);
	fprintf(out,
		"\nScenarios in %s (run one by its path). Cost: runs\n"
		"(variants) x simulated time (warm-up included), on how many of\n"
		"its machine's CPUs; the wall time grows with each.\n",
		sim_escape(shown, sizeof(shown), datadir));
	n = scenario_folders(datadir, subs);
	for (i = 0; i < n; i++)
		list_folder(out, datadir, subs[i]);
	shipped_names_free(subs, n);
	return 0;
}
