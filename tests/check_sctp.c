// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_sctp.c - the SCTP socket accounting of netperf's protocol:
 * sctp (models/kernel/net/sctp/sctp.c, driven as models/workloads/netperf.c does),
 * worked out by hand from net/sctp/socket.c and net/sctp/ulpevent.c
 * (6.0-rc1, sk_reclaim: page) for two 16384-byte messages of
 * SCTP_STREAM over loopback.
 *
 * Harness: skx-2s-72, charge_batch 32, cgroup v2, the cgroups / and /a;
 * both sockets in /a; the sender on CPU 0, the receiver on CPU 1.
 *
 * Truesizes (v6.0 __alloc_skb(): SKB_DATA_ALIGN(size) + 320 of shared
 * info, rounded up by kmalloc, which past 8K takes pages; SKB_TRUESIZE()
 * adds 256 + 320 to what is left after the shared info):
 *   DATA chunk, alloc_skb(16 + 16384): 16448 + 320 = 16768 -> 32768
 *     (order 3): 32768 - 320 + 256 + 320 = 33024;
 *   packet, alloc_skb(20 + 12 + 16 + 16384 + MAX_HEADER 176 = 16608):
 *     16640 + 320 = 16960 -> 32768: 33024 as well.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/cache.h"
#include "models/hw/machine.h"
#include "models/kernel/sim/config.h"
#include "models/kernel/mm/memcontrol.h"
#include "models/kernel/net/sctp/sctp.h"
#include "sim/co.h"
#include "sim/engine.h"
#include "tests/harness.h"

#define MSG 16384

/* /a, and netperf's and netserver's sockets, both in it */
static struct {
	struct mem_cgroup *a;
	struct sock sk_s, sk_r;
} s;

static void setup(void)
{
	harness_setup("skx-2s-72", 2, 8192);
	h.k.charge_batch = 32;
	h.k.cgroup_version = 2;
	h.k.sk_reclaim = SK_RECLAIM_PAGE;
	harness_cgroup("/", -1);
	harness_cgroup("/a", 0);
	harness_create();
	s.a = memcg_sim_find(h.ms, "/a");
	s.sk_s = (struct sock){ .sk_memcg = s.a };
	s.sk_r = (struct sock){ .sk_memcg = s.a };
}

static void teardown(void)
{
	harness_teardown();
}

/* One call of @fn on @cpu: every frame here is @sk, msg_len. */
#define SCTP_CALL(fn, cpu, sock, ...) \
	HARNESS_CALL(fn, cpu, .sk = (sock), .msg_len = MSG, __VA_ARGS__)

static long sock_stat(unsigned int cpu)
{
	struct memcg_vmstats_percpu *statc =
		s.a->vmstats_percpu ? s.a->vmstats_percpu[cpu] : NULL;

	return statc ? statc->state[SIM_MEMCG_SOCK] : 0;
}

/*
 * The truesizes of the header comment, from the model's arithmetic.
 * Expect 33024 for both at 16384 bytes, and at 1000 bytes a chunk of
 * alloc_skb(1016): 1024 + 320 = 1344 -> kmalloc-2048: 2048 - 320 + 576
 * = 2304; its packet alloc_skb(1224): 1280 + 320 = 1600 -> 2048: 2304.
 */
START_TEST(sctp_truesizes)
{
	ck_assert_uint_eq(sctp_chunk_truesize(MSG), 33024);
	ck_assert_uint_eq(sctp_packet_truesize(MSG), 33024);
	ck_assert_uint_eq(sctp_chunk_truesize(1000), 2304);
	ck_assert_uint_eq(sctp_packet_truesize(1000), 2304);
}
END_TEST

/*
 * Two messages, as netperf's sctp flow runs them, then both read:
 *
 * message 1, CPU 0:
 *   sctp_sendmsg_to_asoc(): sk_wmem_schedule(sk_s, 16384): delta 16384
 *     - 0: 4 pages (fwd 16384): try_charge(/a, 4) misses the empty stock,
 *     page_counter_try_charge(32): usage 32, stock 28; MEMCG_SOCK +4;
 *     sctp_set_owner_w(): sk_mem_charge(33024): fwd -16640.
 *   softirq, sctp_ulpevent_make_rcvmsg(): sk_rmem_schedule(sk_r, 16400):
 *     5 pages (fwd_r 20480), stock 23, SOCK +5; charge 33024: -12544.
 *   sent 0 + 1 is odd: no SACK.
 * message 2, CPU 0:
 *   schedule(16384): delta 16384 + 16640 = 33024: 9 pages (fwd 20224),
 *     stock 14, SOCK +9; charge: fwd -12800.
 *   rcvmsg: delta 16400 + 12544 = 28944: 8 pages (fwd_r 20224), stock 6,
 *     SOCK +8; charge: fwd_r -12800.
 *   SACK of both: sctp_wfree() x 2: -12800 + 33024 = 20224 >= 4096:
 *     4 pages back (fwd 3840), stock 10, SOCK -4; 3840 + 33024 = 36864:
 *     9 pages back (fwd 0), stock 19, SOCK -9.
 * CPU 1 reads both: sctp_sock_rfree(): -12800 + 33024 = 20224: 4 pages
 *   back (fwd_r 3840), CPU 1's stock 4 (of /a), SOCK -4; then 36864: 9
 *   pages (fwd_r 0), stock 13, SOCK -9.
 *
 * Expect those forward allocations and stocks, /a usage 32 throughout
 * (19 + 13 pages in the stocks at the end), MEMCG_SOCK per CPU +26 - 13
 * = +13 on CPU 0 and -13 on CPU 1, sock_pages 0, 13 pages charged and
 * uncharged by each socket.
 */
START_TEST(sctp_stream_two_messages)
{
	/* message 1 */
	SCTP_CALL(sctp_sendmsg_to_asoc, 0, &s.sk_s);
	ck_assert_int_eq(s.sk_s.sk_forward_alloc, -16640);
	ck_assert_int_eq(s.a->memory.usage, 32);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 28);
	SCTP_CALL(sctp_ulpevent_make_rcvmsg, 0, &s.sk_r);
	ck_assert_int_eq(s.sk_r.sk_forward_alloc, -12544);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 23);
	ck_assert_int_eq(s.a->sock_pages, 9);

	/* message 2, and the SACK of both */
	SCTP_CALL(sctp_sendmsg_to_asoc, 0, &s.sk_s);
	ck_assert_int_eq(s.sk_s.sk_forward_alloc, -12800);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 14);
	SCTP_CALL(sctp_ulpevent_make_rcvmsg, 0, &s.sk_r);
	ck_assert_int_eq(s.sk_r.sk_forward_alloc, -12800);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 6);
	ck_assert_int_eq(s.a->sock_pages, 26);
	SCTP_CALL(sctp_outq_sack, 0, &s.sk_s, .nr = SCTP_SACKFREQ);
	ck_assert_int_eq(s.sk_s.sk_forward_alloc, 0);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 19);
	ck_assert_int_eq(s.a->sock_pages, 13);
	ck_assert_int_eq(sock_stat(0), 13);

	/* the reader */
	SCTP_CALL(sctp_sock_rfree, 1, &s.sk_r);
	ck_assert_int_eq(s.sk_r.sk_forward_alloc, 3840);
	ck_assert_ptr_eq(h.ms->stock[1].cached[0], s.a);
	ck_assert_uint_eq(h.ms->stock[1].nr_pages[0], 4);
	SCTP_CALL(sctp_sock_rfree, 1, &s.sk_r);
	ck_assert_int_eq(s.sk_r.sk_forward_alloc, 0);
	ck_assert_uint_eq(h.ms->stock[1].nr_pages[0], 13);

	ck_assert_int_eq(s.a->memory.usage, 32);
	ck_assert_int_eq(s.a->sock_pages, 0);
	ck_assert_int_eq(sock_stat(0), 13);
	ck_assert_int_eq(sock_stat(1), -13);
	ck_assert_uint_eq(s.sk_s.pages_charged, 13);
	ck_assert_uint_eq(s.sk_s.pages_uncharged, 13);
	ck_assert_uint_eq(s.sk_r.pages_charged, 13);
	ck_assert_uint_eq(s.sk_r.pages_uncharged, 13);
	ck_assert_uint_eq(h.ms->counts.pc_try_charges, 1);
}
END_TEST

static Suite *sctp_suite(void)
{
	Suite *s = suite_create("sctp");
	TCase *tc = tcase_create("SCTP_STREAM");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, sctp_truesizes);
	tcase_add_test(tc, sctp_stream_two_messages);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sctp_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
