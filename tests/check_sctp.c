// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_sctp.c - the SCTP socket accounting of netperf's protocol:
 * sctp (models/kernel/net/sctp/sctp.c, driven as models/workloads/netperf.c does),
 * worked out by hand from net/sctp/socket.c, net/sctp/ulpevent.c and
 * net/sctp/sm_statefuns.c (6.0-rc1, sk_reclaim: page) for two
 * 16384-byte messages of SCTP_STREAM over loopback.
 *
 * Harness: skx-2s-72, charge_batch 32, cgroup v2, the cgroups / and /a;
 * both sockets in /a; the sender on CPU 0, the receiver on CPU 1.
 *
 * Truesizes (v6.0 __alloc_skb(): SKB_DATA_ALIGN(size) + 320 of shared
 * info, rounded up by kmalloc, which past 8K takes pages; SKB_TRUESIZE()
 * adds 256 + 320 to what is left after the shared info):
 *   DATA chunk, alloc_skb(16 + 16384): 16448 + 320 = 16768 -> 32768
 *     (order 3): 32768 - 320 + 256 + 320 = 33024.
 * The receive event's rmem_len is not a truesize: skb->len of the clone
 * trimmed to the data, 16384, + sizeof(struct sk_buff) 232 = 16616.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/cache.h"
#include "models/hw/machine.h"
#include "models/kernel/sim/config.h"
#include "models/kernel/sim/kprof.h"
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
 * The sizes of the header comment, from the model's arithmetic. Expect
 * 33024 and 16616 at 16384 bytes, and at 1000 bytes a chunk of
 * alloc_skb(1016): 1024 + 320 = 1344 -> kmalloc-2048: 2048 - 320 + 576
 * = 2304, and an rmem_len of 1000 + 232 = 1232.
 */
START_TEST(sctp_truesizes)
{
	ck_assert_uint_eq(sctp_chunk_truesize(MSG), 33024);
	ck_assert_uint_eq(sctp_rmem_len(MSG), 16616);
	ck_assert_uint_eq(sctp_chunk_truesize(1000), 2304);
	ck_assert_uint_eq(sctp_rmem_len(1000), 1232);
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
 *   softirq, sctp_eat_data(): the pressure walk (no state), then
 *     sctp_ulpevent_make_rcvmsg(): sk_rmem_schedule(sk_r, 16400): 5
 *     pages (fwd_r 20480), stock 23, SOCK +5; charge 16616: fwd_r 3864.
 *   sent 0 + 1 is odd: no SACK.
 * message 2, CPU 0:
 *   schedule(16384): delta 16384 + 16640 = 33024: 9 pages (fwd 20224),
 *     stock 14, SOCK +9; charge: fwd -12800.
 *   rcvmsg: delta 16400 - 3864 = 12536: 4 pages (fwd_r 20248), stock
 *     10, SOCK +4; charge 16616: fwd_r 3632.
 *   SACK of both: sctp_wfree() x 2: -12800 + 33024 = 20224 >= 4096:
 *     4 pages back (fwd 3840), stock 14, SOCK -4; 3840 + 33024 = 36864:
 *     9 pages back (fwd 0), stock 23, SOCK -9.
 * CPU 1 reads both: sctp_sock_rfree(): 3632 + 16616 = 20248: 4 pages
 *   back (fwd_r 3864), CPU 1's stock 4 (of /a), SOCK -4; then 20480: 5
 *   pages (fwd_r 0), stock 9, SOCK -5.
 *
 * Expect those forward allocations and stocks, /a usage 32 throughout
 * (23 + 9 pages in the stocks at the end), MEMCG_SOCK per CPU +22 - 13
 * = +9 on CPU 0 and -9 on CPU 1, sock_pages 0, 13 pages charged and
 * uncharged by the sender's socket, 9 by the receiver's.
 */
START_TEST(sctp_stream_two_messages)
{
	/* message 1 */
	SCTP_CALL(sctp_sendmsg_to_asoc, 0, &s.sk_s);
	ck_assert_int_eq(s.sk_s.sk_forward_alloc, -16640);
	ck_assert_int_eq(s.a->memory.usage, 32);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 28);
	SCTP_CALL(sctp_eat_data, 0, &s.sk_r);
	ck_assert_int_eq(s.sk_r.sk_forward_alloc, 3864);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 23);
	ck_assert_int_eq(s.a->sock_pages, 9);

	/* message 2, and the SACK of both */
	SCTP_CALL(sctp_sendmsg_to_asoc, 0, &s.sk_s);
	ck_assert_int_eq(s.sk_s.sk_forward_alloc, -12800);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 14);
	SCTP_CALL(sctp_eat_data, 0, &s.sk_r);
	ck_assert_int_eq(s.sk_r.sk_forward_alloc, 3632);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 10);
	ck_assert_int_eq(s.a->sock_pages, 22);
	SCTP_CALL(sctp_outq_sack, 0, &s.sk_s, .nr = SCTP_SACKFREQ);
	ck_assert_int_eq(s.sk_s.sk_forward_alloc, 0);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 23);
	ck_assert_int_eq(s.a->sock_pages, 9);
	ck_assert_int_eq(sock_stat(0), 9);

	/* the reader */
	SCTP_CALL(sctp_sock_rfree, 1, &s.sk_r);
	ck_assert_int_eq(s.sk_r.sk_forward_alloc, 3864);
	ck_assert_ptr_eq(h.ms->stock[1].cached[0], s.a);
	ck_assert_uint_eq(h.ms->stock[1].nr_pages[0], 4);
	SCTP_CALL(sctp_sock_rfree, 1, &s.sk_r);
	ck_assert_int_eq(s.sk_r.sk_forward_alloc, 0);
	ck_assert_uint_eq(h.ms->stock[1].nr_pages[0], 9);

	ck_assert_int_eq(s.a->memory.usage, 32);
	ck_assert_int_eq(s.a->sock_pages, 0);
	ck_assert_int_eq(sock_stat(0), 9);
	ck_assert_int_eq(sock_stat(1), -9);
	ck_assert_uint_eq(s.sk_s.pages_charged, 13);
	ck_assert_uint_eq(s.sk_s.pages_uncharged, 13);
	ck_assert_uint_eq(s.sk_r.pages_charged, 9);
	ck_assert_uint_eq(s.sk_r.pages_uncharged, 9);
	ck_assert_uint_eq(h.ms->counts.pc_try_charges, 1);
}
END_TEST

/* The memcg's socket-pressure walks CPU 0 has made (its profile). */
static uint64_t pressure_walks(const struct kprof *k)
{
	return k->fn[KF_mem_cgroup_under_socket_pressure].calls;
}

/*
 * sk_under_memory_pressure(): sctp_eat_data() asks it of every DATA chunk
 * in each version; sctp_sendmsg_to_asoc() asked it of every message up
 * to v5.19 (sk_reclaim: quantum) and not since 4890b686f4 (page). A
 * socket without a memcg (the root's) never walks. None of these calls
 * reclaims (the forward allocation stays below a page or the v5.19
 * threshold), so no walk comes from __sk_mem_reclaim().
 *
 * Expect, on CPU 0: 6.0 send 0 walks, eat_data 1 (total 1); a root
 * socket's eat_data 0 (1); v5.19 send 1 (2), eat_data 1 (3).
 */
START_TEST(sctp_pressure_walks)
{
	static struct kprof k;
	struct sock root_sk = { 0 };

	memset(&k, 0, sizeof(k));
	h.cc[0]->prof = &k;
	SCTP_CALL(sctp_sendmsg_to_asoc, 0, &s.sk_s);
	ck_assert_uint_eq(pressure_walks(&k), 0);
	SCTP_CALL(sctp_eat_data, 0, &s.sk_r);
	ck_assert_uint_eq(pressure_walks(&k), 1);
	SCTP_CALL(sctp_eat_data, 0, &root_sk);
	ck_assert_uint_eq(pressure_walks(&k), 1);

	h.k.sk_reclaim = SK_RECLAIM_QUANTUM;
	SCTP_CALL(sctp_sendmsg_to_asoc, 0, &s.sk_s);
	ck_assert_uint_eq(pressure_walks(&k), 2);
	SCTP_CALL(sctp_eat_data, 0, &s.sk_r);
	ck_assert_uint_eq(pressure_walks(&k), 3);
	h.cc[0]->prof = NULL;
}
END_TEST

/*
 * Socket ownership (net/sctp/input.c sctp_rcv(), v6.0): a DATA packet
 * that arrives while netserver holds its socket (lock_sock() in
 * sctp_recvmsg()) is backlogged uncharged, and netserver's
 * release_sock() charges it on netserver's CPU; the SACK sent from
 * there reaches netperf's socket, which netperf holds (inside
 * sctp_sendmsg()), so it is backlogged too and its chunks are freed at
 * netperf's release_sock() on netperf's CPU. Driven as
 * models/workloads/netperf_sctp.c does.
 *
 * One message after its send (CPU 0, as in sctp_stream_two_messages:
 * fwd -16640, /a usage 32, CPU 0's stock 28):
 *   CPU 1 owns sk_r: the packet goes to sk_r's backlog: fwd_r 0, CPU 0's
 *     stock still 28;
 *   CPU 1's release_sock(): the backlog's packet (its 16384 bytes) ->
 *     sctp_eat_data() on CPU 1: sk_rmem_schedule(16400): 5 pages, CPU
 *     1's stock empty: page_counter_try_charge(32), usage 64, CPU 1's
 *     stock 27; charge 16616: fwd_r 3864; then the backlog is empty and
 *     sk_r unowned;
 *   its SACK (of SCTP_SACKFREQ chunks) reaches sk_s, owned by CPU 0's
 *     task: backlogged; CPU 0's release_sock() takes it (2 chunks):
 *     here one chunk's uncharge: -16640 + 33024 = 16384: 4 pages back
 *     to CPU 0's stock, 32; fwd 0.
 */
START_TEST(sctp_owned_sockets)
{
	int item;

	sk_backlog_init(&s.sk_r, 2);
	sk_backlog_init(&s.sk_s, 2);
	sock_set_owned(&s.sk_s);
	SCTP_CALL(sctp_sendmsg_to_asoc, 0, &s.sk_s);
	ck_assert_int_eq(s.sk_s.sk_forward_alloc, -16640);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 28);

	sock_set_owned(&s.sk_r);
	ck_assert(sk_rcv_or_backlog(&s.sk_r, MSG, false));
	ck_assert_int_eq(s.sk_r.sk_forward_alloc, 0);
	ck_assert_int_eq(s.a->sock_pages, 4);

	ck_assert(release_sock_next(&s.sk_r, &item));
	ck_assert_int_eq(item, MSG);
	SCTP_CALL(sctp_eat_data, 1, &s.sk_r); /* msg_len: MSG, the item */
	ck_assert_int_eq(s.sk_r.sk_forward_alloc, 3864);
	ck_assert_int_eq(s.a->memory.usage, 64);
	ck_assert_uint_eq(h.ms->stock[1].nr_pages[0], 27);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 28);
	ck_assert(!release_sock_next(&s.sk_r, &item));
	ck_assert(!sock_owned_by_user(&s.sk_r));

	ck_assert(sk_rcv_or_backlog(&s.sk_s, SCTP_SACKFREQ, false));
	ck_assert(release_sock_next(&s.sk_s, &item));
	ck_assert_int_eq(item, SCTP_SACKFREQ);
	SCTP_CALL(sctp_outq_sack, 0, &s.sk_s, .nr = 1);
	ck_assert_int_eq(s.sk_s.sk_forward_alloc, 0);
	ck_assert_uint_eq(h.ms->stock[0].nr_pages[0], 32);
	ck_assert(!release_sock_next(&s.sk_s, &item));
	ck_assert(!sock_owned_by_user(&s.sk_s));
	sk_backlog_free(&s.sk_r);
	sk_backlog_free(&s.sk_s);
}
END_TEST

/* sk->sk_write_space() of the test: the wake-ups, and the space then */
static struct {
	unsigned int calls;
	int wspace;
} ws;

static void count_write_space(struct sim_proc *p, struct sock *sk)
{
	(void)p;
	ws.calls++;
	ws.wspace = sctp_wspace(sk);
}

/*
 * The send buffer's gate (net/sctp/socket.c, v6.0; sctp.h): sk_sndbuf
 * 212992 (net.core.wmem_default); each 16K message queues its chunk's
 * truesize 33024 + sizeof(struct sctp_chunk) 256 = 33280 bytes.
 *
 *   sends 1-6: queued 6 x 33280 = 199680, sctp_wspace() 13312 > 0, so
 *     sctp_sendmsg_to_asoc() does not wait even though 16384 > 13312;
 *   send 7: queued 232960, wspace -19968 <= 0: the next send waits in
 *     sctp_wait_for_sndbuf(), until 16384 <= wspace;
 *   a SACK frees one chunk: queued 199680, wspace 13312 > 0: the
 *     writer is woken (sctp_wake_up_waiters()), but 16384 does not fit
 *     yet; a second chunk freed: wspace 46592, woken again, it fits.
 *
 * Expect not full through 6 sends, full and short after 7; one wake-up
 * at wspace 13312 with the message still short, then a second at 46592
 * with it fitting; and no wake-up without a waiter's hook.
 */
START_TEST(sctp_sndbuf_gate)
{
	int i;

	memset(&ws, 0, sizeof(ws));
	sctp_init_sock(&s.sk_s);
	ck_assert_int_eq(sctp_wspace(&s.sk_s), 212992);
	for (i = 0; i < 7; i++) {
		ck_assert(!sctp_sndbuf_full(&s.sk_s));
		SCTP_CALL(sctp_sendmsg_to_asoc, 0, &s.sk_s);
	}
	ck_assert_int_eq(s.sk_s.sk_wmem_queued, 232960);
	ck_assert_int_eq(sctp_wspace(&s.sk_s), -19968);
	ck_assert(sctp_sndbuf_full(&s.sk_s));
	ck_assert(sctp_sndbuf_short(&s.sk_s, MSG));

	s.sk_s.sk_write_space = count_write_space;
	SCTP_CALL(sctp_outq_sack, 0, &s.sk_s, .nr = 1);
	ck_assert_uint_eq(ws.calls, 1);
	ck_assert_int_eq(ws.wspace, 13312);
	ck_assert(!sctp_sndbuf_full(&s.sk_s));
	ck_assert(sctp_sndbuf_short(&s.sk_s, MSG));
	SCTP_CALL(sctp_outq_sack, 0, &s.sk_s, .nr = 1);
	ck_assert_uint_eq(ws.calls, 2);
	ck_assert_int_eq(ws.wspace, 46592);
	ck_assert(!sctp_sndbuf_short(&s.sk_s, MSG));

	s.sk_s.sk_write_space = NULL;
	SCTP_CALL(sctp_outq_sack, 0, &s.sk_s, .nr = 1);
	ck_assert_uint_eq(ws.calls, 2);
	ck_assert_int_eq(s.sk_s.sk_wmem_queued, 4 * 33280);
}
END_TEST

static Suite *sctp_suite(void)
{
	Suite *s = suite_create("sctp");
	TCase *tc = tcase_create("SCTP_STREAM");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, sctp_truesizes);
	tcase_add_test(tc, sctp_stream_two_messages);
	tcase_add_test(tc, sctp_pressure_walks);
	tcase_add_test(tc, sctp_owned_sockets);
	tcase_add_test(tc, sctp_sndbuf_gate);
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
