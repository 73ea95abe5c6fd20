// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/run/provenance.c - where a run's results come from, recorded in
 * its report (sim/report.h, report_provenance()) so that every result
 * file says what made it and `compare` can say what differs:
 *
 *	memcgsim: "0.1.0"			the version
 *	scenario_digest: "sha256:..."		the scenario file's bytes
 *	profiles_digest: "sha256:..."		the machine profile files
 *						the variants load, each once,
 *						in the order first loaded
 *						(none for inline profiles)
 *	machine: "skx-2s-72"			each variant's profile name,
 *						"a, b" when variants differ
 *	socket_cpus: "0-17,36-53; 18-35,54-71"	the CPUs of each socket, as
 *						a cpulist a socket: where a
 *						heat map draws its socket
 *						boundaries (likewise a list)
 *	duration_ms: "20"  warmup_ms: "2"	likewise
 *	set: ["kernel.charge_batch=64"]		every --set, in order
 *
 * Nothing here depends on the host, the time or where the files lie:
 * no dates, host names or paths, so results stay byte-identical.
 *
 * And what the table says of the run for people: each variant's legend
 * (its set:) and the notes of a run, each said once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "cmd/run/internal.h"
#include "cmd/run/run.h"
#include "sim/file.h"
#include "sim/report.h"
#include "sim/scenario.h"
#include "sim/util.h"

/* Profiles and scenarios larger than this are not read for a digest. */
#define PROV_MAX_FILE (64u << 20)

void run__prov_init(struct run_prov *p)
{
	memset(p, 0, sizeof(*p));
	sim_sha256_init(&p->profiles);
}

/* Add @item to the ", "-separated list @list unless it is in it. */
static void list_add(char *list, size_t size, const char *item)
{
	size_t n = strlen(item), len = strlen(list);
	const char *p = list;

	while (*p) {
		if (!strncmp(p, item, n) && (p[n] == ',' || !p[n]))
			return;
		p = strchr(p, ',');
		if (!p)
			break;
		p += 2;
	}
	snprintf(list + len, size - len, "%s%s", len ? ", " : "", item);
}

/*
 * The CPUs of each socket of @m into @buf (@size bytes), a cpulist a
 * socket joined by "; ": "0-17,36-53; 18-35,54-71". Cut short, the
 * string is dropped rather than wrong.
 */
static void socket_cpus(char *buf, size_t size, const struct machine *m)
{
	unsigned int s, c, first;
	size_t len = 0;
	bool any;

	buf[0] = '\0';
	for (s = 0; s < m->sockets; s++) {
		any = false;
		if (s)
			len += (size_t)snprintf(buf + len, size - len, "; ");
		for (c = 0; c < m->nr_cpus && len < size; c++) {
			if (m->cpus[c].socket != s)
				continue;
			first = c;
			while (c + 1 < m->nr_cpus && m->cpus[c + 1].socket == s)
				c++;
			len += (size_t)snprintf(buf + len, size - len,
						first == c ? "%s%u" : "%s%u-%u",
						any ? "," : "", first, c);
			any = true;
		}
		if (len >= size) {
			buf[0] = '\0';
			return;
		}
	}
}

/* The digest of @path's bytes into @c; false when it cannot be read. */
static bool digest_file(struct sim_sha256 *c, const char *path)
{
	struct sim_error ignored;
	size_t len;
	char *buf;

	if (sim_read_file(path, PROV_MAX_FILE, &buf, &len, &ignored))
		return false;
	sim_sha256_update(c, buf, len);
	free(buf);
	return true;
}

/**
 * run__prov_add() - note what variant @v loads: its machine's name and
 * profile file, its duration and warm-up.
 * @p: the provenance so far
 * @v: a variant just loaded (not parked)
 */
void run__prov_add(struct run_prov *p, const struct variant *v)
{
	char num[40], cpus[512];
	unsigned int i;

	list_add(p->machine, sizeof(p->machine), v->machine.name);
	socket_cpus(cpus, sizeof(cpus), &v->machine);
	if (cpus[0])
		list_add(p->socket_cpus, sizeof(p->socket_cpus), cpus);
	sim_format_double(num, sizeof(num), (double)v->duration_ps / 1e9);
	list_add(p->duration, sizeof(p->duration), num);
	sim_format_double(num, sizeof(num), (double)v->warmup_ps / 1e9);
	list_add(p->warmup, sizeof(p->warmup), num);
	if (!v->profile[0])
		return;
	for (i = 0; i < p->nr_profiles; i++)
		if (!strcmp(p->profile_paths[i], v->profile))
			return;
	if (p->nr_profiles == RUN_PROV_MAX_PROFILES ||
	    !digest_file(&p->profiles, v->profile))
		return;
	snprintf(p->profile_paths[p->nr_profiles++], sizeof(v->profile), "%s",
		 v->profile);
}

/**
 * run__prov_record() - write @p, the scenario @path's digest, the version
 * and @o's --set options into @r (see the table at the top).
 */
void run__prov_record(struct report *r, struct run_prov *p, const char *path,
		      const struct run_opts *o)
{
	char digest[SIM_SHA256_TEXT_LEN];
	struct sim_sha256 c;
	unsigned int k;

	report_provenance(r, "memcgsim", PACKAGE_VERSION);
	sim_sha256_init(&c);
	if (digest_file(&c, path)) {
		sim_sha256_final(&c, digest);
		report_provenance(r, "scenario_digest", digest);
	}
	if (p->nr_profiles) {
		sim_sha256_final(&p->profiles, digest);
		report_provenance(r, "profiles_digest", digest);
	}
	report_provenance(r, "machine", p->machine);
	if (p->socket_cpus[0])
		report_provenance(r, "socket_cpus", p->socket_cpus);
	report_provenance(r, "duration_ms", p->duration);
	report_provenance(r, "warmup_ms", p->warmup);
	for (k = 0; k < o->nr_sets; k++)
		report_provenance(r, "set", o->sets[k]);
}

/*
 * The notes of @res (its first replication's) for variant @col, each
 * said once in the report: a note an earlier variant had (the same
 * period never reached) is not repeated.
 */
void run__note_once(struct report *r, int col, const struct run_result *res,
		    struct run_prov *p)
{
	unsigned int i, j;

	for (i = 0; i < res->nr_notes; i++) {
		for (j = 0; j < p->nr_noted; j++)
			if (!strcmp(p->noted[j], res->notes[i]))
				break;
		if (j < p->nr_noted)
			continue;
		report_note(r, col, res->notes[i]);
		if (p->nr_noted < RUN_PROV_MAX_NOTES)
			memcpy(p->noted[p->nr_noted++], res->notes[i],
			       sizeof(p->noted[0]));
	}
}

/*
 * The legend of variant @col: its set: as "KEY=VALUE, ..." (a map or list
 * value as "{...}" or "[...]"), "" when it sets nothing.
 */
void run__variant_legend(struct report *r, int col,
			 const struct scenario_node *vn)
{
	const struct scenario_node *set = scenario_get(vn, "set"), *val;
	char buf[1024];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; set && scenario_kind(set) == SCENARIO_MAP &&
		    i < scenario_len(set) && len < sizeof(buf);
	     i++) {
		val = scenario_item(set, i);
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s=%s",
					i ? ", " : "", scenario_key(set, i),
					scenario_kind(val) == SCENARIO_SCALAR ?
						scenario_scalar(val) :
					scenario_kind(val) == SCENARIO_MAP ?
						"{...}" :
						"[...]");
	}
	report_variant_legend(r, col, buf);
}
