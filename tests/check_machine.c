// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_machine.c - machine profiles: the shipped ones load, their
 * CPU numbering matches what Linux shows on those boxes, latencies convert
 * exactly to picoseconds, and bad profiles fail with the exact message.
 *
 * The shipped profiles are found under $top_srcdir (set by the Makefile;
 * "." when run by hand from the source tree).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/cache.h"
#include "models/hw/machine.h"
#include "sim/engine.h"
#include "sim/scenario.h"
#include "tests/machine_test.h"

/* Load an inline profile; @at names the machine map inside it, or NULL. */
static int load_text(const char *text, const char *at, struct machine *m,
		     struct sim_error *err)
{
	struct scenario_node *root;
	int ret;

	sim_error_clear(err);
	root = scenario_parse_string("bad.yaml", text, err);
	ck_assert_msg(root, "parse: %s", err->msg);
	ret = machine_load(m, at ? scenario_get(root, at) : root, err);
	scenario_free(root);
	return ret;
}

static void check_cpu(const struct machine *m, unsigned int cpu,
		      unsigned int socket, unsigned int core, unsigned int llc,
		      unsigned int thread)
{
	const struct machine_cpu *c = &m->cpus[cpu];

	ck_assert_msg(
		c->socket == socket && c->core == core && c->llc == llc &&
			c->thread == thread,
		"CPU %u: socket %u core %u llc %u thread %u, expected %u %u %u %u",
		cpu, c->socket, c->core, c->llc, c->thread, socket, core, llc,
		thread);
}

/*
 * skx-2s-72, threads_last:
 *
 *	        socket 0            socket 1
 *	thread0 CPU  0 .. 17        CPU 18 .. 35
 *	thread1 CPU 36 .. 53        CPU 54 .. 71
 *
 * Expect CPU 0 and 36 siblings on socket 0, CPU 18 the first core of
 * socket 1, and the distances smt / llc / socket accordingly.
 */
START_TEST(machine_load_skx_numbering)
{
	struct machine m;

	load_profile("skx-2s-72", &m);
	ck_assert_str_eq(m.name, "skx-2s-72");
	ck_assert_uint_eq(m.nr_cpus, 72);
	ck_assert_uint_eq(m.cores_per_llc, 18);
	check_cpu(&m, 0, 0, 0, 0, 0);
	check_cpu(&m, 17, 0, 17, 0, 0);
	check_cpu(&m, 18, 1, 18, 1, 0);
	check_cpu(&m, 36, 0, 0, 0, 1);
	check_cpu(&m, 54, 1, 18, 1, 1);
	check_cpu(&m, 71, 1, 35, 1, 1);
	ck_assert_int_eq(machine_dist(&m, 0, 0), COH_DIST_SELF);
	ck_assert_int_eq(machine_dist(&m, 0, 1), COH_DIST_LLC);
	ck_assert_int_eq(machine_dist(&m, 0, 18), COH_DIST_SOCKET);
	ck_assert_int_eq(machine_dist(&m, 0, 36), COH_DIST_SMT);
	ck_assert_int_eq(machine_dist(&m, 36, 0), COH_DIST_SMT);
	ck_assert_int_eq(machine_dist(&m, 37, 0), COH_DIST_LLC);
	ck_assert_int_eq(machine_dist(&m, 54, 18), COH_DIST_SMT);
	ck_assert_int_eq(machine_dist(&m, 54, 0), COH_DIST_SOCKET);
	machine_destroy(&m);
}
END_TEST

/*
 * skx-2s-72 latencies: decimal ns become exact ps.
 * Expect 7.5 ns -> 7500 ps, 1.6 -> 1600, 81.4 -> 81400, and xfer_die
 * (not needed: one LLC per socket) equal to xfer_llc. The hand-off law:
 * xfer_socket 105.4 (homed at the holder), 164.6 homed elsewhere,
 * conflicts 0.92 / 2.6 ns per third party, no legacy per-waiter term.
 */
START_TEST(machine_load_skx_latencies)
{
	struct machine m;

	load_profile("skx-2s-72", &m);
	ck_assert_uint_eq(m.l1_hit_ps, 1600);
	ck_assert_uint_eq(m.llc_hit_ps, 30800);
	ck_assert_uint_eq(m.memory_ps, 81400);
	ck_assert_uint_eq(m.rmw_local_ps, 7000);
	ck_assert_uint_eq(m.xfer_ps[COH_DIST_SELF], 0);
	ck_assert_uint_eq(m.xfer_ps[COH_DIST_SMT], 7500);
	ck_assert_uint_eq(m.xfer_ps[COH_DIST_LLC], 48000);
	ck_assert_uint_eq(m.xfer_ps[COH_DIST_DIE], 48000);
	ck_assert_uint_eq(m.xfer_ps[COH_DIST_SOCKET], 105400);
	ck_assert_uint_eq(m.xfer_socket_remote_home_ps, 164600);
	ck_assert_uint_eq(m.inval_per_sharer_ps, 2000);
	ck_assert_uint_eq(m.conflict_local_ps, 920);
	ck_assert_uint_eq(m.conflict_remote_ps, 2600);
	ck_assert_uint_eq(m.xfer_per_waiter_ps, 0);
	/* upgrades: 55.0 and 266.8 ns; SMT one costs xfer_smt */
	ck_assert_uint_eq(m.upgrade_ps[COH_DIST_SMT], 7500);
	ck_assert_uint_eq(m.upgrade_ps[COH_DIST_LLC], 55000);
	ck_assert_uint_eq(m.upgrade_ps[COH_DIST_DIE], 55000);
	ck_assert_uint_eq(m.upgrade_ps[COH_DIST_SOCKET], 266800);
	ck_assert_uint_eq(machine_xfer_ps(&m, 0, 36), 7500);
	ck_assert_uint_eq(machine_xfer_ps(&m, 0, 18), 105400);
	ck_assert_int_eq(m.handoff, COH_HANDOFF_STRICT);
	ck_assert_uint_eq(m.hold_ps, 0);
	ck_assert_uint_eq(m.occupancy_1024, 1024);
	/* on: the L2 spatial prefetcher, as the profile cites */
	ck_assert(m.adjacent_line_prefetch);
	machine_destroy(&m);
}
END_TEST

/*
 * skx-2s-44, SMT off: CPU n is core n; 22 per socket.
 * Expect 44 CPUs, CPU 22 on socket 1, no SMT latency.
 */
START_TEST(machine_load_skx44_no_smt)
{
	struct machine m;

	load_profile("skx-2s-44", &m);
	ck_assert_uint_eq(m.nr_cpus, 44);
	ck_assert_uint_eq(m.threads_per_core, 1);
	check_cpu(&m, 21, 0, 21, 0, 0);
	check_cpu(&m, 22, 1, 22, 1, 0);
	check_cpu(&m, 43, 1, 43, 1, 0);
	ck_assert_int_eq(machine_dist(&m, 0, 21), COH_DIST_LLC);
	ck_assert_int_eq(machine_dist(&m, 0, 22), COH_DIST_SOCKET);
	ck_assert_uint_eq(m.xfer_ps[COH_DIST_SMT], 0);
	ck_assert_uint_eq(m.xfer_ps[COH_DIST_LLC], 47500);
	ck_assert_uint_eq(m.xfer_ps[COH_DIST_SOCKET], 105400);
	machine_destroy(&m);
}
END_TEST

/*
 * epyc-2s-256: 4-core CCXs, threads_last.
 *
 *	socket 0: CCX0 = CPU 0-3 (+128-131), CCX1 = CPU 4-7, ...
 *	socket 1: CPU 64-127, siblings 192-255
 *
 * Expect 0/3 same CCX, 0/4 other CCX, 0/128 siblings, 0/64 other socket.
 */
START_TEST(machine_load_epyc_ccx)
{
	struct machine m;

	load_profile("epyc-2s-256", &m);
	ck_assert_uint_eq(m.nr_cpus, 256);
	ck_assert_uint_eq(m.cores_per_llc, 4);
	check_cpu(&m, 3, 0, 3, 0, 0);
	check_cpu(&m, 4, 0, 4, 1, 0);
	check_cpu(&m, 64, 1, 64, 16, 0);
	check_cpu(&m, 128, 0, 0, 0, 1);
	check_cpu(&m, 255, 1, 127, 31, 1);
	ck_assert_int_eq(machine_dist(&m, 0, 3), COH_DIST_LLC);
	ck_assert_int_eq(machine_dist(&m, 0, 4), COH_DIST_DIE);
	ck_assert_int_eq(machine_dist(&m, 0, 128), COH_DIST_SMT);
	ck_assert_int_eq(machine_dist(&m, 0, 131), COH_DIST_LLC);
	ck_assert_int_eq(machine_dist(&m, 0, 64), COH_DIST_SOCKET);
	ck_assert_int_eq(machine_dist(&m, 63, 255), COH_DIST_SOCKET);
	ck_assert_uint_eq(m.l1_hit_ps, 1180);
	ck_assert_uint_eq(m.llc_hit_ps, 10270);
	ck_assert_uint_eq(m.xfer_ps[COH_DIST_SMT], 8100);
	ck_assert_uint_eq(m.xfer_ps[COH_DIST_LLC], 25000);
	ck_assert_uint_eq(m.xfer_ps[COH_DIST_DIE], 130000);
	ck_assert_uint_eq(m.xfer_ps[COH_DIST_SOCKET], 265000);
	ck_assert(!m.adjacent_line_prefetch); /* Zen 2: none documented */
	machine_destroy(&m);
}
END_TEST

/* The distance class of two CPUs from their keys (doc/speed.md). */
static enum coh_dist key_dist(const struct machine *m, unsigned int a,
			      unsigned int b)
{
	return machine_key_dist(machine_cpu_key(&m->cpus[a]) ^
				machine_cpu_key(&m->cpus[b]));
}

/*
 * machine_key_dist() of two CPUs' machine_cpu_key()s, what a hand-off
 * uses, is machine_dist() for every pair of distinct CPUs of epyc-2s-256
 * (as in machine_load_epyc_ccx: 0/3 LLC, 0/4 DIE, 0/128 SMT, 0/64
 * SOCKET). The key's 10-bit fields hold the largest numbers: cores 1023
 * and 1022 of LLC 511 and socket 15 share the LLC.
 */
START_TEST(machine_key_dist_epyc)
{
	struct machine m, big = { .nr_cpus = 2 };
	struct machine_cpu far[2] = { { 15, 1023, 511, 0 },
				      { 15, 1022, 511, 1 } };
	unsigned int a, b;

	load_profile("epyc-2s-256", &m);
	ck_assert_int_eq(key_dist(&m, 0, 3), COH_DIST_LLC);
	ck_assert_int_eq(key_dist(&m, 0, 4), COH_DIST_DIE);
	ck_assert_int_eq(key_dist(&m, 0, 128), COH_DIST_SMT);
	ck_assert_int_eq(key_dist(&m, 0, 64), COH_DIST_SOCKET);
	for (a = 0; a < m.nr_cpus; a++)
		for (b = 0; b < m.nr_cpus; b++)
			if (a != b)
				ck_assert_int_eq(key_dist(&m, a, b),
						 machine_dist(&m, a, b));
	big.cpus = far;
	ck_assert_int_eq(key_dist(&big, 0, 1), COH_DIST_LLC);
	ck_assert_int_eq(machine_dist(&big, 0, 1), COH_DIST_LLC);
	machine_destroy(&m);
}
END_TEST

/*
 * desktop-4c8t: CPU 0-3 thread 0, 4-7 their siblings; one socket.
 * Expect 0/4 siblings, 0/1 same LLC, nothing further.
 */
START_TEST(machine_load_desktop)
{
	struct machine m;

	load_profile("desktop-4c8t", &m);
	ck_assert_uint_eq(m.nr_cpus, 8);
	check_cpu(&m, 4, 0, 0, 0, 1);
	check_cpu(&m, 7, 0, 3, 0, 1);
	ck_assert_int_eq(machine_dist(&m, 0, 4), COH_DIST_SMT);
	ck_assert_int_eq(machine_dist(&m, 0, 1), COH_DIST_LLC);
	ck_assert_int_eq(machine_dist(&m, 5, 0), COH_DIST_LLC);
	ck_assert_uint_eq(m.xfer_ps[COH_DIST_SMT], 6900);
	ck_assert_uint_eq(m.xfer_ps[COH_DIST_LLC], 20000);
	ck_assert_uint_eq(m.memory_ps, 70000);
	machine_destroy(&m);
}
END_TEST

/* A valid inline profile: 2 sockets x 2 cores x 2 threads, adjacent. */
static const char adjacent_yaml[] =
	"machine:\n"
	"  name: adj\n"
	"  sockets: 2\n"
	"  cores_per_socket: 2\n"
	"  threads_per_core: 2\n"
	"  numbering: threads_adjacent\n"
	"  latencies:\n"
	"    l1_hit: {ns: 1, source: t}\n"
	"    llc_hit: {ns: 10, source: t}\n"
	"    memory: {ns: 80, source: t}\n"
	"    rmw_local: {ns: 7, source: t}\n"
	"    xfer_smt: {ns: 0.5, source: t}\n"
	"    xfer_llc: {ns: 40, source: t}\n"
	"    xfer_socket: {ns: 100, source: t}\n"
	"    xfer_socket_remote_home: {ns: 160, source: t}\n"
	"    upgrade_llc: {ns: 55, source: t}\n"
	"    inval_per_sharer: {ns: 2, source: t}\n"
	"    conflict_remote: {ns: 0, source: t}\n"
	"    xfer_per_waiter: {ns: 1, source: t}\n"
	"  coherence:\n"
	"    handoff: hold\n"
	"    hold: {ns: 12.345, source: t}\n"
	"    occupancy: {fraction: 0.5, source: t}\n"
	"    adjacent_line_prefetch: {enabled: false, source: t}\n"
	"    service_cv: {cv: 0.25, source: t}\n";

/*
 * threads_adjacent: CPU 2k and 2k+1 are the threads of core k.
 *
 *	socket 0: core 0 = CPU 0,1   core 1 = CPU 2,3
 *	socket 1: core 2 = CPU 4,5   core 3 = CPU 6,7
 *
 * Expect 0/1 siblings, 0/2 same socket, 0/4 other socket; the coherence
 * keys read (hold 12.345 ns, occupancy 0.5 = 512/1024, service_cv 0.25 =
 * 256/1024). The law's keys: remote home 160 ns; upgrade_llc 55 (and the
 * die class, no CCX split, the same), upgrade_socket absent = xfer_socket
 * 100, SMT upgrade = xfer_smt 0.5; conflict_remote 0 allowed, and
 * conflict_local absent = 0.
 */
START_TEST(machine_load_threads_adjacent)
{
	struct sim_error err;
	struct machine m;

	ck_assert_msg(load_text(adjacent_yaml, "machine", &m, &err) == 0, "%s",
		      err.msg);
	ck_assert_uint_eq(m.nr_cpus, 8);
	check_cpu(&m, 1, 0, 0, 0, 1);
	check_cpu(&m, 2, 0, 1, 0, 0);
	check_cpu(&m, 7, 1, 3, 1, 1);
	ck_assert_int_eq(machine_dist(&m, 0, 1), COH_DIST_SMT);
	ck_assert_int_eq(machine_dist(&m, 0, 2), COH_DIST_LLC);
	ck_assert_int_eq(machine_dist(&m, 0, 4), COH_DIST_SOCKET);
	ck_assert_uint_eq(m.xfer_ps[COH_DIST_SMT], 500);
	ck_assert_int_eq(m.handoff, COH_HANDOFF_HOLD);
	ck_assert_uint_eq(m.hold_ps, 12345);
	ck_assert_uint_eq(m.occupancy_1024, 512);
	ck_assert_uint_eq(m.service_cv_1024, 256);
	ck_assert(!m.adjacent_line_prefetch);
	ck_assert_uint_eq(m.xfer_socket_remote_home_ps, 160000);
	ck_assert_uint_eq(m.upgrade_ps[COH_DIST_SMT], 500);
	ck_assert_uint_eq(m.upgrade_ps[COH_DIST_LLC], 55000);
	ck_assert_uint_eq(m.upgrade_ps[COH_DIST_DIE], 55000);
	ck_assert_uint_eq(m.upgrade_ps[COH_DIST_SOCKET], 100000);
	ck_assert_uint_eq(m.conflict_local_ps, 0);
	ck_assert_uint_eq(m.conflict_remote_ps, 0);
	machine_destroy(&m);
	machine_destroy(&m); /* idempotent: left zeroed */
	ck_assert_ptr_null(m.cpus);
}
END_TEST

/*
 * xeon-8176-8s: socket_distances from perfbook's CPU 0 view, two halves
 * of four sockets:
 *
 *	         sockets 0-3   sockets 4-7
 *	0-3        148.8         336.6
 *	4-7        336.6         148.8
 *
 * CPU 0 is socket 0, CPU 28 socket 1 (cores 28-55), CPU 112 socket 4.
 * Expect machine_xfer_ps 148.8 ns to CPU 28 and 336.6 ns to CPU 112 and
 * back; the upgrade across the interconnect 294.1 x 336.6 / 148.8 =
 * 665.28 ns (to the nearest ps: 294100 x 336600 / 148800 = 665282.66
 * -> 665283 ps); no home split: remote home = the pair.
 */
START_TEST(machine_load_8176_socket_distances)
{
	struct machine m;

	load_profile("xeon-8176-8s", &m);
	ck_assert(m.socket_matrix);
	ck_assert_uint_eq(m.cpus[28].socket, 1);
	ck_assert_uint_eq(m.cpus[112].socket, 4);
	ck_assert_uint_eq(machine_xfer_ps(&m, 0, 28), 148800);
	ck_assert_uint_eq(machine_xfer_ps(&m, 0, 112), 336600);
	ck_assert_uint_eq(machine_xfer_ps(&m, 112, 0), 336600);
	/* CPU 224 is CPU 0's sibling: socket 0 */
	ck_assert_uint_eq(machine_xfer_ps(&m, 112, 224), 336600);
	ck_assert_uint_eq(machine_xfer_ps(&m, 252, 0), 148800); /* 28's */
	ck_assert_uint_eq(m.socket_xfer_ps[5][7], 148800);
	ck_assert_uint_eq(m.socket_xfer_ps[3][4], 336600);
	ck_assert_uint_eq(m.socket_xfer_ps[6][6], 0);
	ck_assert_uint_eq(m.socket_upgrade_ps[0][1], 294100);
	ck_assert_uint_eq(m.socket_upgrade_ps[0][4], 665283);
	ck_assert_uint_eq(m.socket_remote_home_ps[0][4], 336600);
	machine_destroy(&m);
}
END_TEST

/*
 * Without a matrix (skx-2s-72, two sockets) the one pair is the class:
 * xfer_socket 105.4 both ways, remote home 164.6, upgrade 266.8 ns.
 */
START_TEST(machine_load_socket_pairs_default)
{
	struct machine m;

	load_profile("skx-2s-72", &m);
	ck_assert(!m.socket_matrix);
	ck_assert_uint_eq(m.socket_xfer_ps[0][1], 105400);
	ck_assert_uint_eq(m.socket_xfer_ps[1][0], 105400);
	ck_assert_uint_eq(m.socket_xfer_ps[0][0], 0);
	ck_assert_uint_eq(m.socket_remote_home_ps[1][0], 164600);
	ck_assert_uint_eq(m.socket_upgrade_ps[0][1], 266800);
	machine_destroy(&m);
}
END_TEST

/*
 * machine_nudge(+5%) of skx-2s-72, to the nearest ps: l1_hit 1600 ->
 * 1680, insn 471 -> 494.55 -> 495, xfer_socket 105400 -> 110670 (and the
 * pair with it), remote home 164600 -> 172830, upgrade_socket 266800 ->
 * 280140; then -5% of the original (a fresh load): xfer_llc 48000 ->
 * 45600.
 */
START_TEST(machine_nudge_every_latency)
{
	struct machine m;

	load_profile("skx-2s-72", &m);
	machine_nudge(&m, 50000);
	ck_assert_uint_eq(m.l1_hit_ps, 1680);
	ck_assert_uint_eq(m.insn_ps, 495);
	ck_assert_uint_eq(m.xfer_ps[COH_DIST_SOCKET], 110670);
	ck_assert_uint_eq(m.socket_xfer_ps[1][0], 110670);
	ck_assert_uint_eq(m.socket_remote_home_ps[0][1], 172830);
	ck_assert_uint_eq(m.socket_upgrade_ps[0][1], 280140);
	machine_destroy(&m);
	load_profile("skx-2s-72", &m);
	machine_nudge(&m, -50000);
	ck_assert_uint_eq(m.xfer_ps[COH_DIST_LLC], 45600);
	machine_destroy(&m);
}
END_TEST

START_TEST(coh_dist_name_all)
{
	ck_assert_str_eq(coh_dist_name(COH_DIST_SELF), "self");
	ck_assert_str_eq(coh_dist_name(COH_DIST_SMT), "smt");
	ck_assert_str_eq(coh_dist_name(COH_DIST_LLC), "llc");
	ck_assert_str_eq(coh_dist_name(COH_DIST_DIE), "die");
	ck_assert_str_eq(coh_dist_name(COH_DIST_SOCKET), "socket");
}
END_TEST

START_TEST(machine_load_file_missing)
{
	struct sim_error err;
	struct machine m;

	sim_error_clear(&err);
	ck_assert_int_eq(machine_load_file(&m, "no/such/profile.yaml", &err),
			 -1);
	/* A profile is no scenario (issue 14, item 12). */
	ck_assert_str_eq(
		err.msg,
		"cannot open machine profile: No such file or directory");
	ck_assert_ptr_null(m.cpus);
	/* A device is refused at once, not read for 16 MiB. */
	ck_assert_int_eq(machine_load_file(&m, "/dev/zero", &err), -1);
	ck_assert_str_eq(
		err.msg,
		"cannot read machine profile: not a regular file (a character device)");
}
END_TEST

/*
 * Bad profiles, one fault each, as a scenario's inline `machine:` map,
 * with the exact message and its one-based line:column. LAT_COMMON is six
 * valid latency lines.
 */
#define LAT_COMMON                                   \
	"    l1_hit: {ns: 1, source: t}\n"           \
	"    llc_hit: {ns: 10, source: t}\n"         \
	"    memory: {ns: 80, source: t}\n"          \
	"    rmw_local: {ns: 7, source: t}\n"        \
	"    inval_per_sharer: {ns: 2, source: t}\n" \
	"    xfer_per_waiter: {ns: 1, source: t}\n"

/* Two one-core sockets, up to their socket_distances (lines 1-14). */
#define TWO_SOCKETS                                                           \
	"machine:\n"                                                          \
	"  name: x\n"                                                         \
	"  sockets: 2\n"                                                      \
	"  cores_per_socket: 1\n"                                             \
	"  threads_per_core: 1\n"                                             \
	"  latencies:\n" LAT_COMMON "    xfer_socket: {ns: 100, source: t}\n" \
	"  socket_distances:\n"

/* Two one-core sockets, up to their socket_distances (lines 1-14). */
#define TWO_SOCKETS                                                           \
	"machine:\n"                                                          \
	"  name: x\n"                                                         \
	"  sockets: 2\n"                                                      \
	"  cores_per_socket: 1\n"                                             \
	"  threads_per_core: 1\n"                                             \
	"  latencies:\n" LAT_COMMON "    xfer_socket: {ns: 100, source: t}\n" \
	"  socket_distances:\n"

struct bad_profile {
	const char *what;
	const char *yaml;
	unsigned int line, col;
	const char *msg;
};

static const struct bad_profile bad_profiles[] = {
	{
		"latency without source",
		"machine:\n"
		"  name: x\n"
		"  sockets: 1\n"
		"  cores_per_socket: 2\n"
		"  threads_per_core: 1\n"
		"  latencies:\n" LAT_COMMON "    xfer_llc: {ns: 40}\n",
		13,
		15,
		"missing key 'source' in 'machine.latencies.xfer_llc': every number needs its published source",
	},
	{
		"empty source",
		"machine:\n"
		"  name: x\n"
		"  sockets: 1\n"
		"  cores_per_socket: 2\n"
		"  threads_per_core: 1\n"
		"  latencies:\n" LAT_COMMON
		"    xfer_llc: {ns: 40, source: \"\"}\n",
		13,
		32,
		"key 'machine.latencies.xfer_llc.source': empty source: say where the number comes from",
	},
	{
		"bare number latency",
		"machine:\n"
		"  name: x\n"
		"  sockets: 1\n"
		"  cores_per_socket: 2\n"
		"  threads_per_core: 1\n"
		"  latencies:\n" LAT_COMMON "    xfer_llc: 40\n",
		13,
		15,
		"key 'machine.latencies.xfer_llc': expected a map {ns: NUMBER, source: \"...\"}, found '40'",
	},
	{
		"unknown key with suggestion",
		"machine:\n"
		"  name: x\n"
		"  sockets: 1\n"
		"  core_per_socket: 2\n"
		"  threads_per_core: 1\n",
		4,
		3,
		"unknown key 'core_per_socket' in 'machine'; did you mean 'cores_per_socket'?",
	},
	{
		"unknown key inside a latency entry",
		"machine:\n"
		"  name: x\n"
		"  sockets: 1\n"
		"  cores_per_socket: 2\n"
		"  threads_per_core: 1\n"
		"  latencies:\n"
		"    l1_hit: {ns: 1, sorce: t}\n",
		7,
		21,
		"unknown key 'sorce' in 'machine.latencies.l1_hit'; did you mean 'source'?",
	},
	{
		"cores_per_llc not dividing cores_per_socket",
		"machine:\n"
		"  name: x\n"
		"  sockets: 1\n"
		"  cores_per_socket: 18\n"
		"  threads_per_core: 1\n"
		"  cores_per_llc: 4\n",
		6,
		18,
		"key 'machine.cores_per_llc': 4 does not divide cores_per_socket (18)",
	},
	{
		"2 sockets without xfer_socket",
		"machine:\n"
		"  name: x\n"
		"  sockets: 2\n"
		"  cores_per_socket: 2\n"
		"  threads_per_core: 1\n"
		"  latencies:\n" LAT_COMMON
		"    xfer_llc: {ns: 40, source: t}\n",
		7,
		5,
		"missing key 'xfer_socket' in 'machine.latencies': a 2-socket machine needs it",
	},
	{
		"SMT without xfer_smt",
		"machine:\n"
		"  name: x\n"
		"  sockets: 1\n"
		"  cores_per_socket: 2\n"
		"  threads_per_core: 2\n"
		"  latencies:\n" LAT_COMMON
		"    xfer_llc: {ns: 40, source: t}\n",
		7,
		5,
		"missing key 'xfer_smt' in 'machine.latencies': a machine with 2 threads per core needs it",
	},
	{
		"CCXs without xfer_die",
		"machine:\n"
		"  name: x\n"
		"  sockets: 1\n"
		"  cores_per_socket: 8\n"
		"  threads_per_core: 1\n"
		"  cores_per_llc: 4\n"
		"  latencies:\n" LAT_COMMON
		"    xfer_llc: {ns: 40, source: t}\n",
		8,
		5,
		"missing key 'xfer_die' in 'machine.latencies': a machine with 2 LLC domains per socket needs it",
	},
	{
		"0 sockets",
		"machine:\n"
		"  name: x\n"
		"  sockets: 0\n"
		"  cores_per_socket: 2\n"
		"  threads_per_core: 1\n",
		3,
		12,
		"key 'machine.sockets': expected an integer from 1 to 16, found '0'",
	},
	{
		"too many CPUs",
		"machine:\n"
		"  name: x\n"
		"  sockets: 16\n"
		"  cores_per_socket: 256\n"
		"  threads_per_core: 1\n",
		2,
		3,
		"key 'machine': 16 sockets x 256 cores x 1 threads is 4096 CPUs; at most 1024 are supported",
	},
	{
		"latency over 1 ms",
		"machine:\n"
		"  name: x\n"
		"  sockets: 1\n"
		"  cores_per_socket: 1\n"
		"  threads_per_core: 1\n"
		"  latencies:\n"
		"    l1_hit: {ns: 1000001, source: t}\n",
		7,
		18,
		"key 'machine.latencies.l1_hit.ns': expected a duration from 1 ps to 1 ms, found '1000001'",
	},
	{
		"socket_distances: a row short",
		TWO_SOCKETS "    - {ns: [0, 120], source: t}\n",
		15,
		5,
		"key 'machine.socket_distances': expected a list of 2 rows, one a socket: {ns: [...], source}",
	},
	{
		"socket_distances: a number short",
		TWO_SOCKETS "    - {ns: [0, 120], source: t}\n"
			    "    - {ns: [120], source: t}\n",
		16,
		12,
		"key 'machine.socket_distances.1.ns': expected a list of 2 numbers, one a socket",
	},
	{
		"socket_distances: no source",
		TWO_SOCKETS "    - {ns: [0, 120], source: t}\n"
			    "    - {ns: [120, 0]}\n",
		16,
		7,
		"missing key 'source' in 'machine.socket_distances.1': every number needs its published source",
	},
	{
		"socket_distances: a socket far from itself",
		TWO_SOCKETS "    - {ns: [0, 120], source: t}\n"
			    "    - {ns: [120, 5], source: t}\n",
		16,
		18,
		"key 'machine.socket_distances.1.ns.1': expected 0: socket 1 with itself is priced by the classes within a socket",
	},
	{
		"socket_distances: a free pair",
		TWO_SOCKETS "    - {ns: [0, 0], source: t}\n"
			    "    - {ns: [120, 0], source: t}\n",
		15,
		16,
		"key 'machine.socket_distances.0.ns.1': expected a duration from 1 ps to 1 ms, found '0'",
	},
	{
		"handoff hold without a window",
		"machine:\n"
		"  name: x\n"
		"  sockets: 1\n"
		"  cores_per_socket: 1\n"
		"  threads_per_core: 1\n"
		"  latencies:\n" LAT_COMMON "  coherence:\n"
		"    handoff: hold\n",
		14,
		5,
		"missing key 'hold' in 'machine.coherence': handoff 'hold' needs a window",
	},
};

START_TEST(machine_load_bad_profile)
{
	const struct bad_profile *bad = &bad_profiles[_i];
	struct sim_error err;
	struct machine m;

	ck_assert_msg(load_text(bad->yaml, "machine", &m, &err) == -1,
		      "%s: loaded", bad->what);
	ck_assert_ptr_null(m.cpus);
	ck_assert_msg(!strcmp(err.msg, bad->msg), "%s:\n got '%s'\nwant '%s'",
		      bad->what, err.msg, bad->msg);
	ck_assert_str_eq(err.file, "bad.yaml");
	ck_assert_msg(err.line == bad->line && err.col == bad->col,
		      "%s: at %u:%u, expected %u:%u", bad->what, err.line,
		      err.col, bad->line, bad->col);
}
END_TEST

/*
 * A profile file's root map is the machine map; errors in it speak of
 * "the top level", as every scenario getter does.
 *
 *	1 name: x
 *	2 socket: 1      <- unknown key, suggestion 'sockets'
 *
 * Expect the suggestion at 2:1; and a root without latencies to name the
 * top level as the map missing them.
 */
START_TEST(machine_load_root_map)
{
	struct sim_error err;
	struct machine m;

	ck_assert_int_eq(load_text("name: x\nsocket: 1\n", NULL, &m, &err), -1);
	ck_assert_str_eq(err.msg, "unknown key 'socket' at the top level; "
				  "did you mean 'sockets'?");
	ck_assert_uint_eq(err.line, 2);
	ck_assert_uint_eq(err.col, 1);

	ck_assert_int_eq(load_text("name: x\nsockets: 1\ncores_per_socket: 1\n"
				   "threads_per_core: 1\n",
				   NULL, &m, &err),
			 -1);
	ck_assert_str_eq(err.msg, "missing key 'latencies' at the top level");
}
END_TEST

/*
 * The three tables of a profile (its keys, coherence: and latencies:)
 * are sound, and the latencies are the 16 classes of machine.c's enum,
 * the five every profile needs marked required.
 */
START_TEST(machine_key_tables_sound)
{
	static const char *const required[] = { "l1_hit", "llc_hit", "memory",
						"rmw_local",
						"inval_per_sharer" };
	const struct scenario_key_table *t;
	unsigned int i, k, nr = machine_key_tables(&t), nr_required = 0;
	char why[160];

	ck_assert_uint_eq(nr, 3);
	ck_assert_str_eq(t[0].name, "machine");
	ck_assert_str_eq(t[1].name, "coherence");
	ck_assert_str_eq(t[2].name, "latencies");
	for (i = 0; i < nr; i++)
		ck_assert_msg(!scenario_keys_sound(t[i].keys, t[i].nr, why,
						   sizeof(why)),
			      "%s: %s", t[i].name, why);
	/* with context_switch, migration, insn, memory_remote, page_walk */
	ck_assert_uint_eq(t[2].nr, 21);
	for (k = 0; k < t[2].nr; k++)
		if (t[2].keys[k].required)
			ck_assert_str_eq(t[2].keys[k].name,
					 required[nr_required++]);
	ck_assert_uint_eq(nr_required, 5);
}
END_TEST

/*
 * SMT execution sharing: skx-2s-72's smt_slowdown 1.54 is 1.54 x 1024 =
 * 1576.96 -> 1577/1024. CPU 0's sibling is CPU 36 (threads_last, 36
 * cores). A delay of 1000 ns on CPU 0:
 *   - CPU 36 runs no process: 1000 ns (1000000 ps);
 *   - CPU 36 runs a task: 1000000 x 1577 / 1024 = 1540039.06 ->
 *     1540039 ps (integer division);
 *   - CPU 36's task sleeps (idle): 1000000 ps;
 *   - CPU 0 itself idle (its task waits, the time is not work): 1000000.
 * skx-2s-44 has no SMT: no sibling, 1000000.
 */
START_TEST(coh_delay_smt_sibling)
{
	struct sim_engine *e = sim_engine_create();
	struct sim_proc p0, p36;
	struct machine m;
	struct coh *c;
	struct coh_cpu *cc;

	load_profile("skx-2s-72", &m);
	ck_assert_uint_eq(m.smt_slowdown_1024, 1577);
	c = coh_create(&m, e);
	sim_proc_init(&p0, e, 0, 4096, NULL);
	sim_proc_init(&p36, e, 36, 4096, NULL);
	cc = coh_cpu_attach(c, 0, &p0);
	ck_assert_ptr_eq(cc->smt_sibling, coh_cpu(c, 36));
	coh_delay(cc, 1000000);
	ck_assert_uint_eq(p0.now, 1000000);
	coh_cpu_attach(c, 36, &p36);
	coh_delay(cc, 1000000);
	ck_assert_uint_eq(p0.now, 1000000 + 1540039);
	coh_cpu_set_idle(coh_cpu(c, 36), true);
	coh_delay(cc, 1000000);
	ck_assert_uint_eq(p0.now, 2000000 + 1540039);
	coh_cpu_set_idle(coh_cpu(c, 36), false);
	coh_cpu_set_idle(cc, true);
	coh_delay(cc, 1000000);
	ck_assert_uint_eq(p0.now, 3000000 + 1540039);
	sim_proc_destroy(&p0);
	sim_proc_destroy(&p36);
	coh_free(c);
	machine_destroy(&m);
	load_profile("skx-2s-44", &m);
	ck_assert_uint_eq(m.smt_slowdown_1024, 1024);
	c = coh_create(&m, e);
	ck_assert_ptr_null(coh_cpu(c, 0)->smt_sibling);
	coh_free(c);
	machine_destroy(&m);
	sim_engine_free(e);
}
END_TEST

static Suite *machine_suite(void)
{
	Suite *s = suite_create("machine");
	TCase *tc = tcase_create("profiles");

	tcase_add_test(tc, machine_load_skx_numbering);
	tcase_add_test(tc, machine_load_skx_latencies);
	tcase_add_test(tc, machine_load_skx44_no_smt);
	tcase_add_test(tc, coh_delay_smt_sibling);
	tcase_add_test(tc, machine_load_epyc_ccx);
	tcase_add_test(tc, machine_key_dist_epyc);
	tcase_add_test(tc, machine_load_desktop);
	tcase_add_test(tc, machine_load_threads_adjacent);
	tcase_add_test(tc, machine_load_8176_socket_distances);
	tcase_add_test(tc, machine_load_socket_pairs_default);
	tcase_add_test(tc, machine_nudge_every_latency);
	tcase_add_test(tc, coh_dist_name_all);
	tcase_add_test(tc, machine_load_file_missing);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_loop_test(tc, machine_load_bad_profile, 0,
			    sizeof(bad_profiles) / sizeof(bad_profiles[0]));
	tcase_add_test(tc, machine_load_root_map);
	tcase_add_test(tc, machine_key_tables_sound);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(machine_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
