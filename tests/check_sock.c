// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_sock.c - socket memory accounting (models/kernel/net/core/sock.c): the
 * forward allocation arithmetic of 6.0-rc1 and v5.19, worked out by hand
 * for the netperf TCP_SENDFILE 10K flow of doc/socket-accounting.md.
 *
 * Every socket here belongs to memcg /a of a two-CPU harness on the
 * skx-2s-72 profile, so the pages it raises and returns also reach the
 * memcg (mem_cgroup_charge_skmem()/_uncharge_skmem()); the checks are on
 * sk_forward_alloc, the socket's page counts and the memcg's MEMCG_SOCK.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/cache.h"
#include "models/kernel/sim/config.h"
#include "models/hw/machine.h"
#include "models/kernel/mm/memcontrol.h"
#include "models/kernel/net/core/sock.h"
#include "models/kernel/net/ipv4/tcp.h"
#include "sim/co.h"
#include "sim/engine.h"
#include "tests/harness.h"

/* the socket on CPU 0, and the receiving socket for the softirq tests */
static struct {
	struct sock sk, sk_r;
} s;

static void setup_policy(unsigned int policy)
{
	harness_setup("skx-2s-72", 2, 8192);
	h.k.charge_batch = 32;
	h.k.stock_memcgs = 1;
	h.k.memory_offset = -1;
	h.k.cgroup_version = 2;
	h.k.sk_reclaim = policy;
	harness_cgroup("/", -1);
	harness_cgroup("/a", 0);
	harness_create();
	s.sk = (struct sock){ .sk_memcg = memcg_sim_find(h.ms, "/a") };
	ck_assert_ptr_nonnull(s.sk.sk_memcg);
	s.sk_r = (struct sock){ .sk_memcg = s.sk.sk_memcg };
	sk_backlog_init(&s.sk, 4);
	sk_backlog_init(&s.sk_r, 4);
}

static void setup_page(void)
{
	setup_policy(SK_RECLAIM_PAGE);
}

static void setup_quantum(void)
{
	setup_policy(SK_RECLAIM_QUANTUM);
}

static void teardown(void)
{
	sk_backlog_free(&s.sk);
	sk_backlog_free(&s.sk_r);
	harness_teardown();
}

/*
 * SOCK_CALL() - run @fn (sk_mem_schedule or sk_mem_uncharge: both take
 * the socket and a size) with its own frame, struct @fn_frame.
 */
#define SOCK_CALL(fn, bytes)                                     \
	do {                                                     \
		struct fn##_frame *f_ = CO_PUSH(&h.proc[0], fn); \
		sim_time_t start_ = sim_now(h.e);                \
                                                                 \
		f_->sk = &s.sk;                                  \
		f_->size = (bytes);                              \
		sim_proc_start(&h.proc[0], start_);              \
		sim_engine_run(h.e, start_ + SIM_PS_PER_MS);     \
		ck_assert(h.proc[0].finished);                   \
	} while (0)

/*
 * SOCK_CALL_ON() - the same on CPU @cpu (0 or 1), for socket @sock, in
 * softirq context (GFP_NOWAIT) if @bh.
 */
#define SOCK_CALL_ON(cpu, sock, fn, bytes, bh)               \
	do {                                                 \
		struct sim_proc *p_ = &h.proc[cpu];          \
		struct fn##_frame *f_ = CO_PUSH(p_, fn);     \
		sim_time_t start_ = sim_now(h.e);            \
                                                             \
		f_->sk = (sock);                             \
		f_->size = (bytes);                          \
		sock_call_bh(f_, bh);                        \
		sim_proc_start(p_, start_);                  \
		sim_engine_run(h.e, start_ + SIM_PS_PER_MS); \
		ck_assert(p_->finished);                     \
	} while (0)

static inline void sock_call_bh_schedule(struct sk_mem_schedule_frame *f,
					 bool bh)
{
	f->softirq = bh;
}

static inline void sock_call_bh_uncharge(struct sk_mem_uncharge_frame *f,
					 bool bh)
{
	(void)f;
	(void)bh;
}

#define sock_call_bh(f, bh)                                              \
	_Generic((f), struct sk_mem_schedule_frame *                     \
		 : sock_call_bh_schedule, struct sk_mem_uncharge_frame * \
		 : sock_call_bh_uncharge)(f, bh)

/* sk_wmem_schedule(size) then sk_mem_charge(size), as the send path does */
static void queue_bytes(int size)
{
	SOCK_CALL(sk_mem_schedule, size);
	sk_mem_charge(&s.sk, size);
}

/*
 * One sendfile() of 10240 bytes at file offset @off (doc 1.4): the skb
 * head (truesize 1280), then the file a page piece at a time.
 */
static void send_message(unsigned int off)
{
	unsigned int done = 0, piece;

	queue_bytes(1280);
	while (done < 10240) {
		piece = 4096 - (off + done) % 4096;
		if (piece > 10240 - done)
			piece = 10240 - done;
		queue_bytes((int)piece);
		done += piece;
	}
}

/*
 * 6.0-rc1, the sender's socket, two messages and their ACKs.
 *
 * Message 0 (offset 0, pieces 4096, 4096, 2048), fwd starting at 0:
 *	head 1280: short by 1280 -> 1 page, fwd 4096 - 1280 = 2816
 *	4096: short by 1280 -> 1 page, fwd 2816
 *	4096: the same -> 1 page, fwd 2816
 *	2048: covered, fwd 768
 * 3 pages; the skb's truesize is 1280 + 10240 = 11520. The ACK frees it:
 * fwd 768 + 11520 = 12288 = 3 pages, all reclaimed (a whole page is
 * free): fwd 0.
 * Message 1 (offset 10240, pieces 2048, 4096, 4096):
 *	head 1280: 1 page, fwd 2816; 2048: covered, 768;
 *	4096: short by 3328 -> 1 page, 768; 4096: 1 page, 768
 * 3 pages again, and the ACK returns 3. So every message charges 3 pages
 * in 3 calls and uncharges 3 in one.
 */
START_TEST(sk_forward_alloc_6_0_rc1_sender)
{
	send_message(0);
	ck_assert_int_eq(s.sk.sk_forward_alloc, 768);
	ck_assert_uint_eq(s.sk.pages_charged, 3);
	ck_assert_int_eq(s.sk.sk_memcg->sock_pages, 3);
	SOCK_CALL(sk_mem_uncharge, 11520);
	ck_assert_int_eq(s.sk.sk_forward_alloc, 0);
	ck_assert_uint_eq(s.sk.pages_uncharged, 3);
	ck_assert_int_eq(s.sk.sk_memcg->sock_pages, 0);

	send_message(10240);
	ck_assert_int_eq(s.sk.sk_forward_alloc, 768);
	ck_assert_uint_eq(s.sk.pages_charged, 6);
	SOCK_CALL(sk_mem_uncharge, 11520);
	ck_assert_int_eq(s.sk.sk_forward_alloc, 0);
	ck_assert_uint_eq(s.sk.pages_uncharged, 6);
	/* 3 + 3 charge calls for the pages, 2 reclaims */
	ck_assert_uint_eq(h.ms->counts.charges, 6);
	ck_assert_uint_eq(h.ms->counts.uncharges, 2);
}
END_TEST

/*
 * 6.0-rc1, the receiver's socket: sk_rmem_schedule(11520) from fwd 0 is
 * short by 11520 -> ceil(11520 / 4096) = 3 pages in one call, fwd 768
 * after skb_set_owner_r(); freeing the skb returns 12288: 3 pages.
 */
START_TEST(sk_forward_alloc_6_0_rc1_receiver)
{
	unsigned int i;

	for (i = 0; i < 4; i++) {
		queue_bytes(11520);
		ck_assert_int_eq(s.sk.sk_forward_alloc, 768);
		SOCK_CALL(sk_mem_uncharge, 11520);
		ck_assert_int_eq(s.sk.sk_forward_alloc, 0);
	}
	ck_assert_uint_eq(s.sk.pages_charged, 12);
	ck_assert_uint_eq(s.sk.pages_uncharged, 12);
	ck_assert_uint_eq(h.ms->counts.charges, 4);
}
END_TEST

/*
 * v5.19: a short forward allocation is raised by the whole size asked
 * for, and freeing gives bytes back without reclaiming below 2 MB.
 * Message 0: head 1280 -> 1 page (2816 left); 4096: short -> the whole
 * 4096 is 1 page (2816); 4096 -> 1 page (2816); 2048 covered (768): 3
 * pages. The ACK returns 11520: fwd 12288, nothing reclaimed. From then
 * on every message is covered by the forward allocation: 100 more
 * messages and ACKs charge and uncharge nothing.
 */
START_TEST(sk_forward_alloc_5_19_keeps_pages)
{
	unsigned int i;

	send_message(0);
	SOCK_CALL(sk_mem_uncharge, 11520);
	ck_assert_int_eq(s.sk.sk_forward_alloc, 12288);
	ck_assert_uint_eq(s.sk.pages_charged, 3);
	ck_assert_uint_eq(s.sk.pages_uncharged, 0);
	for (i = 1; i <= 100; i++) {
		send_message(i * 10240);
		SOCK_CALL(sk_mem_uncharge, 11520);
	}
	ck_assert_uint_eq(s.sk.pages_charged, 3);
	ck_assert_uint_eq(s.sk.pages_uncharged, 0);
	ck_assert_int_eq(s.sk.sk_forward_alloc, 12288);
	ck_assert_int_eq(s.sk.sk_memcg->sock_pages, 3);
}
END_TEST

/*
 * v5.19: past 2 MB of forward allocation, sk_mem_uncharge() returns 1 MB
 * (256 pages) at once. Queue 2 MB (512 pages charged), free it all:
 * fwd 2 MB reaches the threshold -> 256 pages back, 1 MB left.
 */
START_TEST(sk_forward_alloc_5_19_reclaim_chunk)
{
	queue_bytes(2 << 20);
	ck_assert_uint_eq(s.sk.pages_charged, 512);
	SOCK_CALL(sk_mem_uncharge, 2 << 20);
	ck_assert_uint_eq(s.sk.pages_uncharged, 256);
	ck_assert_int_eq(s.sk.sk_forward_alloc, 1 << 20);
	ck_assert_int_eq(s.sk.sk_memcg->sock_pages, 256);
}
END_TEST

/* CPU @cpu's page stock: the pages it holds for /a (0 if it caches none) */
static unsigned int stock_pages(unsigned int cpu)
{
	const struct memcg_stock_pcp *st = &h.ms->stock[cpu];

	return st->cached[0] == s.sk.sk_memcg ? st->nr_pages[0] : 0;
}

/*
 * The backlog decision for a data segment (tcp_v6_rcv()'s
 * sock_owned_by_user() test), 6.0-rc1, charge_batch 32, both stocks
 * empty; the sender's softirq runs on CPU 0, netserver on CPU 1.
 *
 * 1. netserver is inside tcp_recvmsg() (lock_sock() held through the
 *    copy) when a segment of truesize 1280 + 10240 = 11520 arrives in
 *    CPU 0's softirq: it goes to the backlog, nothing is charged, and
 *    CPU 0's stock stays empty.
 * 2. release_sock() on CPU 1 processes it (sk_rmem_schedule(11520) from
 *    fwd 0: ceil(11520 / 4096) = 3 pages, fwd 12288 - 11520 = 768):
 *    try_charge() on CPU 1 misses the empty stock, charges a batch of
 *    32 pages to the page counters and keeps 32 - 3 = 29 in CPU 1's
 *    stock; the owner flag is cleared.
 * 3. The next segment arrives with the socket not owned: processed in
 *    CPU 0's softirq, short by 11520 - 768 = 10752: 3 pages, a batch on
 *    CPU 0 (29 left there), fwd 768 + 12288 - 11520 = 1536.
 */
START_TEST(backlog_segment_while_receiver_holds_lock)
{
	int truesize = 0;

	sock_set_owned(&s.sk_r);
	ck_assert(sk_rcv_or_backlog(&s.sk_r, 11520, false));
	ck_assert_int_eq(s.sk_r.sk_forward_alloc, 0);
	ck_assert_uint_eq(s.sk_r.pages_charged, 0);
	ck_assert_int_eq(s.sk.sk_memcg->sock_pages, 0);
	ck_assert_uint_eq(stock_pages(0) + stock_pages(1), 0);

	ck_assert(release_sock_next(&s.sk_r, &truesize));
	ck_assert_int_eq(truesize, 11520);
	ck_assert(sock_owned_by_user(&s.sk_r));
	SOCK_CALL_ON(1, &s.sk_r, sk_mem_schedule, truesize, false);
	sk_mem_charge(&s.sk_r, truesize);
	ck_assert(!release_sock_next(&s.sk_r, &truesize));
	ck_assert(!sock_owned_by_user(&s.sk_r));
	ck_assert_int_eq(s.sk_r.sk_forward_alloc, 768);
	ck_assert_int_eq(s.sk.sk_memcg->sock_pages, 3);
	ck_assert_uint_eq(stock_pages(1), 29);
	ck_assert_uint_eq(stock_pages(0), 0);

	ck_assert(!sk_rcv_or_backlog(&s.sk_r, 11520, false));
	SOCK_CALL_ON(0, &s.sk_r, sk_mem_schedule, 11520, true);
	sk_mem_charge(&s.sk_r, 11520);
	ck_assert_int_eq(s.sk_r.sk_forward_alloc, 1536);
	ck_assert_int_eq(s.sk.sk_memcg->sock_pages, 6);
	ck_assert_uint_eq(stock_pages(0), 29);
	ck_assert_uint_eq(stock_pages(1), 29);
	ck_assert_uint_eq(s.sk_r.rcv_skbs, 2);
	ck_assert_uint_eq(s.sk_r.backlog_skbs, 1);
}
END_TEST

/*
 * An ACK to the sender's backlog, 6.0-rc1: netperf on CPU 0 sends
 * message 0 (3 one-page charges, worked out in
 * sk_forward_alloc_6_0_rc1_sender: the first misses the empty stock and
 * charges a batch of 32, the next two take one page each: 29 left on
 * CPU 0; fwd 768).
 *
 * 1. The ACK arrives in CPU 1's softirq while netperf holds its socket
 *    (inside tcp_sendpage()): backlogged, the skb not yet freed: fwd
 *    still 768, nothing uncharged, CPU 1's stock empty.
 * 2. netperf's release_sock() on CPU 0: tcp_ack() frees the skb, fwd
 *    768 + 11520 = 12288, 3 whole pages reclaimed into CPU 0's stock:
 *    29 + 3 = 32 (not above the batch, so not drained).
 * 3. Message 1 (offset 10240: 3 one-page charges from CPU 0's stock, 29
 *    left, fwd 768); its ACK arrives with the socket not owned and is
 *    processed in CPU 1's softirq: the 3 pages go to CPU 1's stock.
 */
START_TEST(backlog_ack_while_sender_holds_lock)
{
	int truesize = 0;

	send_message(0);
	ck_assert_uint_eq(stock_pages(0), 29);
	sock_set_owned(&s.sk);
	ck_assert(sk_rcv_or_backlog(&s.sk, 11520, false));
	ck_assert_int_eq(s.sk.sk_forward_alloc, 768);
	ck_assert_uint_eq(s.sk.pages_uncharged, 0);
	ck_assert_uint_eq(stock_pages(1), 0);

	ck_assert(release_sock_next(&s.sk, &truesize));
	SOCK_CALL_ON(0, &s.sk, sk_mem_uncharge, truesize, false);
	ck_assert(!release_sock_next(&s.sk, &truesize));
	ck_assert_int_eq(s.sk.sk_forward_alloc, 0);
	ck_assert_uint_eq(s.sk.pages_uncharged, 3);
	ck_assert_uint_eq(stock_pages(0), 32);
	ck_assert_uint_eq(stock_pages(1), 0);

	send_message(10240);
	ck_assert_uint_eq(stock_pages(0), 29);
	ck_assert(!sk_rcv_or_backlog(&s.sk, 11520, false));
	SOCK_CALL_ON(1, &s.sk, sk_mem_uncharge, 11520, true);
	ck_assert_uint_eq(s.sk.pages_uncharged, 6);
	ck_assert_uint_eq(stock_pages(1), 3);
	ck_assert_uint_eq(stock_pages(0), 29);
	ck_assert_uint_eq(s.sk.backlog_skbs, 1);
}
END_TEST

/* backlog: always forces the backlog for a socket nobody owns */
START_TEST(backlog_forced)
{
	int truesize = 0;

	ck_assert(sk_rcv_or_backlog(&s.sk_r, 11520, true));
	ck_assert(sk_flush_backlog_next(&s.sk_r, &truesize));
	ck_assert_int_eq(truesize, 11520);
	ck_assert(!sk_flush_backlog_next(&s.sk_r, &truesize));
}
END_TEST

/*
 * v6.0 tcp_rcv_established() -> tcp_data_snd_check() -> tcp_check_space():
 * an ACK that frees 100 bytes of sent data on a socket of /a. The 100
 * bytes go back to sk_forward_alloc (0 -> 100, below a page: no reclaim,
 * so sk_mem_uncharge() walks nothing). Then, only while the writer waits
 * for space (SOCK_NOSPACE), tcp_new_space() -> tcp_should_expand_sndbuf()
 * -> tcp_under_memory_pressure() walks /a's hierarchy once: one call of
 * mem_cgroup_under_socket_pressure(). Writer awake: none; no writer
 * (nospace NULL): none.
 */
START_TEST(ack_walks_only_while_writer_waits_for_space)
{
	struct kprof prof = { 0 };
	bool waits = false;
	const bool *nospace[] = { NULL, &waits, &waits };
	const uint64_t walks[] = { 0, 0, 1 };
	unsigned int i;

	h.cc[0]->prof = &prof;
	for (i = 0; i < 3; i++) {
		s.sk.nospace = nospace[i];
		waits = i == 2;
		prof.fn[KF_mem_cgroup_under_socket_pressure].calls = 0;
		HARNESS_CALL(tcp_v6_do_rcv, 0, .sk = &s.sk, .truesize = 100,
			     .softirq = true, .ack = true);
		ck_assert_int_eq(s.sk.sk_forward_alloc, 100 * (int)(i + 1));
		ck_assert_uint_eq(
			prof.fn[KF_mem_cgroup_under_socket_pressure].calls,
			walks[i]);
	}
	h.cc[0]->prof = NULL;
}
END_TEST

/*
 * The receive window (tcp_output.c, tcp_input.c): netserver's socket of
 * the charge-batch-2022 flow, /a's, at its autotuned buffer
 * (tcp_rmem[2] = 6291456), receiving 10240-byte messages of truesize
 * 11520 (TCP_SKB_HEAD_TRUESIZE 1280 + 10240). tcp_sock_init():
 * window_clamp = tcp_win_from_space(6291456) = 6291456 - 3145728 =
 * 3145728, rcv_ssthresh the same, rcv_wscale 7 (ilog2(6291456) = 22, less
 * 15), rcv_wnd 3145728, rcv_mss 536 until the first segment sets it to
 * min(10240, advmss 65476) = 10240.
 *
 * __tcp_select_window() walks when free_space < full_space / 2, where
 * free_space = (6291456 - rmem) / 2 and full_space = 3145728: when the
 * queue's truesize rmem is over 3145728, i.e. 274 messages or more
 * (273 * 11520 = 3144960, 274 * 11520 = 3156480).
 */
static struct tcp_sock tp_r;
static struct kprof k0, k1; /* CPU 0's (the softirq's) and CPU 1's */

static void setup_window(void)
{
	setup_page();
	k0 = k1 = (struct kprof){ 0 };
	h.cc[0]->prof = &k0;
	h.cc[1]->prof = &k1;
	tcp_sock_init(&s.sk_r, &tp_r, TCP_RMEM_MAX);
}

static void teardown_window(void)
{
	h.cc[0]->prof = h.cc[1]->prof = NULL;
	teardown();
}

/* one data segment of the message on sk_r, in the softirq of CPU 0 */
static void segment_in(void)
{
	HARNESS_CALL(tcp_v6_do_rcv, 0, .sk = &s.sk_r, .truesize = 11520,
		     .softirq = true, .ack = false);
}

/* netserver reads the oldest message and ACKs it, on CPU 1 */
static void read_and_ack(void)
{
	HARNESS_CALL(tcp_eat_recv_skb, 1, .sk = &s.sk_r, .truesize = 11520,
		     .len = 10240);
	HARNESS_CALL(tcp_transmit_skb, 1, .sk = &s.sk_r, .len = 0);
}

static uint64_t walks(void)
{
	return k0.fn[KF_mem_cgroup_under_socket_pressure].calls +
	       k1.fn[KF_mem_cgroup_under_socket_pressure].calls;
}

/*
 * Every read also walks once in __sk_mem_reclaim() (6.0-rc1: the 11520
 * bytes it frees, with the 768 left of the 3 pages the segment raised,
 * return 3 pages): the test below counts those apart.
 *
 * Receiver keeps up: each message is read and ACKed before the next
 * arrives, so rmem is at most 11520 and no __tcp_select_window() walks.
 * __tcp_ack_snd_check() does not even ask it: rcv_nxt - rcv_wup is one
 * message (10240), not over rcv_mss (10240). Each ACK advertises
 * (6291456 - 0) / 2 = 3145728, capped by rcv_ssthresh (3145728).
 */
START_TEST(select_window_no_walk_when_receiver_keeps_up)
{
	unsigned int i;

	ck_assert_uint_eq(tp_r.window_clamp, 3145728);
	ck_assert_uint_eq(tp_r.rcv_wscale, 7);
	for (i = 0; i < 20; i++) {
		segment_in();
		read_and_ack();
	}
	ck_assert_uint_eq(tp_r.rcv_mss, 10240);
	ck_assert_int_eq(s.sk_r.sk_rmem_alloc, 0);
	ck_assert_uint_eq(tp_r.rcv_nxt, 20 * 10240);
	ck_assert_uint_eq(tp_r.rcv_wup, 20 * 10240);
	ck_assert_uint_eq(tp_r.rcv_wnd, 3145728);
	ck_assert_uint_eq(walks(), 20); /* the reclaims' */
	ck_assert_uint_eq(tp_r.walks[TCP_WALK_SELECT_WINDOW], 0);
	ck_assert_uint_eq(tp_r.walks[TCP_WALK_GROW_WINDOW], 0);
}
END_TEST

/*
 * Receiver bound: 300 messages arrive unread. From the second on,
 * __tcp_ack_snd_check() asks __tcp_select_window() (rcv_nxt - rcv_wup
 * over 10240); it walks for the 274th to the 300th: 27 walks, on CPU 0.
 * Then each read-and-ACK walks while 274 or more remain after the read:
 * reads 1 to 26 (299 .. 274 left), not the 27th (273): 26 walks on CPU 1,
 * one per ACK, beside the 27 reads' reclaim walks. The first ACK, 299 left (rmem 3444480), offers
 * round_down((6291456 - 3444480) / 2, 128) = 1423488 from rcv_nxt
 * 3072000: more than what was left of the first window (3145728 -
 * 3072000 = 73728), so rcv_wnd = 1423488.
 */
START_TEST(select_window_walks_per_ack_when_receiver_bound)
{
	unsigned int i;

	for (i = 0; i < 300; i++)
		segment_in();
	ck_assert_int_eq(s.sk_r.sk_rmem_alloc, 300 * 11520);
	ck_assert_uint_eq(walks(), 27);
	read_and_ack();
	ck_assert_uint_eq(tp_r.rcv_wnd, 1423488);
	ck_assert_uint_eq(tp_r.rcv_wup, 3072000);
	for (i = 1; i < 27; i++)
		read_and_ack();
	ck_assert_uint_eq(k0.fn[KF_mem_cgroup_under_socket_pressure].calls, 27);
	ck_assert_uint_eq(k1.fn[KF_mem_cgroup_under_socket_pressure].calls,
			  26 + 27);
	ck_assert_uint_eq(tp_r.walks[TCP_WALK_SELECT_WINDOW], 27 + 26);
	ck_assert_uint_eq(tp_r.walks[TCP_WALK_GROW_WINDOW], 0);
}
END_TEST

/*
 * tcp_grow_window() walks while rcv_ssthresh can grow: from 65536, with
 * one message queued at a time (tcp_space() = (6291456 - 11520) / 2 =
 * 3139968, under window_clamp), each segment's room is 3139968 -
 * rcv_ssthresh. truesize_adjust() leaves 11520 - 1280 = 10240, whose
 * window (5120) is at most the payload, so incr = 2 * advmss = 130952
 * (over 2 * 10240). 65536 + 23 * 130952 = 3077432 leaves room 62536 for
 * the 24th, which takes rcv_ssthresh to 3139968; from the 25th the room
 * is 0: 24 walks in 30 messages (and the 30 reads' reclaim walks).
 */
START_TEST(grow_window_walks_until_rcv_ssthresh_grown)
{
	unsigned int i;

	tp_r.rcv_ssthresh = 65536;
	for (i = 0; i < 30; i++) {
		segment_in();
		read_and_ack();
	}
	ck_assert_uint_eq(tp_r.rcv_ssthresh, 3139968);
	ck_assert_uint_eq(tp_r.walks[TCP_WALK_GROW_WINDOW], 24);
	ck_assert_uint_eq(walks(), 24 + 30);
	ck_assert_uint_eq(tp_r.walks[TCP_WALK_SELECT_WINDOW], 0);
}
END_TEST

/*
 * The ACK policy (kernel_acks): netserver ACKs as tcp_cleanup_rbuf() and
 * __tcp_ack_snd_check() decide. A data segment of @len bytes in the
 * softirq of CPU 0 (truesize: the 1280-byte head and the payload);
 * returns whether __tcp_ack_snd_check() sent an ACK there.
 */
static bool segment_in_len(unsigned int len)
{
	bool sent;

	HARNESS_CALL(tcp_v6_do_rcv, 0, .sk = &s.sk_r,
		     .truesize = TCP_SKB_HEAD_TRUESIZE + (int)len,
		     .softirq = true, .ack = false);
	sent = tp_r.ack_sent_now;
	tp_r.ack_sent_now = false;
	return sent;
}

/* netserver reads the oldest message, of @len; returns whether it ACKs */
static bool read_len(unsigned int len)
{
	HARNESS_CALL(tcp_eat_recv_skb, 1, .sk = &s.sk_r,
		     .truesize = TCP_SKB_HEAD_TRUESIZE + (int)len, .len = len);
	if (!HARNESS_CALL(tcp_cleanup_rbuf, 1, .sk = &s.sk_r,
			  .copied = (int)len))
		return false;
	HARNESS_CALL(tcp_transmit_skb, 1, .sk = &s.sk_r, .len = 0);
	return true;
}

static void setup_acks(void)
{
	setup_window();
	tp_r.kernel_acks = true;
}

/*
 * Receiver keeps up, 20 messages of 10240: every other read ACKs.
 * Segment 1: rcv_mss 536 -> 10240 (tcp_measure_rcv_mss()), ACK
 * scheduled; rcv_nxt - rcv_wup = 10240 is not over rcv_mss, quick 0:
 * delayed. Read 1: the same 10240, nothing pushed short, and the window
 * left (3145728 - 10240 = 3135488) is over half window_clamp: no ACK.
 * Segment 2: 20480 over rcv_mss, unread data, so __tcp_select_window()
 * is asked: (6291456 - 11520) / 2 = 3139968, less than rcv_wnd
 * (3145728): delayed again. Read 2: 20480 over rcv_mss: ACK, offering
 * 3145728 (the queue empty), acking 20480 bytes. So reads 2, 4, .. 20
 * ACK: 10 ACKs, rcv_wup 204800, no walk (the reclaims' 20 apart).
 */
START_TEST(acks_every_other_read_when_receiver_keeps_up)
{
	unsigned int i, acks = 0;

	for (i = 1; i <= 20; i++) {
		ck_assert(!segment_in_len(10240));
		if (read_len(10240)) {
			ck_assert_uint_eq(i % 2, 0);
			ck_assert_uint_eq(tp_r.acked_now, 20480);
			acks++;
		}
	}
	ck_assert_uint_eq(acks, 10);
	ck_assert_uint_eq(tp_r.acks, 10);
	ck_assert_uint_eq(tp_r.rcv_mss, 10240);
	ck_assert_uint_eq(tp_r.rcv_wup, 204800);
	ck_assert_uint_eq(tp_r.rcv_wnd, 3145728);
	ck_assert_uint_eq(tp_r.walks[TCP_WALK_SELECT_WINDOW], 0);
	ck_assert_uint_eq(walks(), 20); /* the reclaims' */
}
END_TEST

/*
 * Receiver bound: 300 messages arrive unread (no ACK: each window
 * __tcp_ack_snd_check() asks is under rcv_wnd 3145728; the 274th to the
 * 300th walk, 27), then all are read. Read 1: 3072000 over rcv_mss: ACK,
 * walking (299 left: free 1423488 under 1572864), rcv_wnd 1423488. The
 * ACK cleared ICSK_ACK_SCHED, and no segment comes, so from read 2 only
 * the window test: 2 * 1423488 = 2846976 <= 3145728 asks
 * __tcp_select_window(), which walks while 274 or more are left (reads
 * 2 to 26: 25 walks) and ACKs once the window would be 2846976 or more:
 * free (6291456 - left * 11520) / 2 >= 2846976 first at 51 left (read
 * 249: 2851968; at 52 left, 2846208). That ACK offers 2851968, acking
 * nothing new; from then 2 * 2851968 is over window_clamp: no more
 * tests. Two ACKs in 300 reads (before: 300), and the walks as before:
 * 27 + 1 + 25.
 */
START_TEST(acks_on_window_doubling_when_receiver_bound)
{
	unsigned int i, acks = 0;

	for (i = 1; i <= 300; i++)
		ck_assert(!segment_in_len(10240));
	ck_assert_uint_eq(tp_r.walks[TCP_WALK_SELECT_WINDOW], 27);
	for (i = 1; i <= 300; i++) {
		if (!read_len(10240))
			continue;
		acks++;
		if (acks == 1) {
			ck_assert_uint_eq(i, 1);
			ck_assert_uint_eq(tp_r.rcv_wnd, 1423488);
			ck_assert_uint_eq(tp_r.acked_now, 3072000);
		} else {
			ck_assert_uint_eq(i, 249);
			ck_assert_uint_eq(tp_r.rcv_wnd, 2851968);
			ck_assert_uint_eq(tp_r.acked_now, 0);
		}
	}
	ck_assert_uint_eq(acks, 2);
	ck_assert_uint_eq(tp_r.walks[TCP_WALK_SELECT_WINDOW], 27 + 1 + 25);
}
END_TEST

/*
 * A short pushed segment: two full segments and reads (the second read
 * ACKs, as above), then 1000 bytes: under rcv_mss, so ICSK_ACK_PUSHED;
 * 1000 is not over rcv_mss, delayed. Its read empties the queue
 * (sk_rmem_alloc 0): ACK. A full segment next is not short: its read
 * does not ACK (10240 since the last ACK, the window left large).
 */
START_TEST(acks_read_emptying_after_short_segment)
{
	ck_assert(!segment_in_len(10240));
	ck_assert(!read_len(10240));
	ck_assert(!segment_in_len(10240));
	ck_assert(read_len(10240));
	ck_assert(!segment_in_len(1000));
	ck_assert(tp_r.ack_pending & ICSK_ACK_PUSHED);
	ck_assert(read_len(1000));
	ck_assert_uint_eq(tp_r.acked_now, 1000);
	ck_assert_uint_eq(tp_r.ack_pending, 0);
	ck_assert(!segment_in_len(10240));
	ck_assert(!read_len(10240));
	ck_assert_uint_eq(tp_r.acks, 2);
}
END_TEST

/*
 * Short segments alike: after a full one (rcv_mss 10240) and its read
 * (no ACK), a 1000-byte segment is short (1000 + 32 >= 556: its size
 * remembered, ICSK_ACK_PUSHED); a second of 1000 makes rcv_mss 1000
 * (tcp_measure_rcv_mss()). Then 12240 bytes are unacked, unread 2000:
 * __tcp_select_window() gives round_up((6291456 - 2 * 2280) / 2, 128) =
 * 3143552, under rcv_wnd 3145728: delayed. The read of the first ACKs
 * (12240 over rcv_mss 1000).
 */
START_TEST(rcv_mss_follows_repeated_short_segments)
{
	ck_assert(!segment_in_len(10240));
	ck_assert(!read_len(10240));
	ck_assert(!segment_in_len(1000));
	ck_assert_uint_eq(tp_r.rcv_mss, 10240);
	ck_assert(tp_r.ack_pending & ICSK_ACK_PUSHED);
	ck_assert(!segment_in_len(1000));
	ck_assert_uint_eq(tp_r.rcv_mss, 1000);
	ck_assert(!(tp_r.ack_pending & ICSK_ACK_PUSHED2));
	ck_assert(read_len(1000));
	ck_assert_uint_eq(tp_r.acked_now, 12240);
}
END_TEST

/*
 * Quick-ACK mode (icsk_ack.quick 2, as tcp_incr_quickack() would leave
 * it): __tcp_ack_snd_check() ACKs the next two segments at once, each
 * ACK taking one off (tcp_dec_quickack_mode()); the third is delayed.
 * With kernel_acks off (flow_control: messages), none is sent there.
 */
START_TEST(quickack_sends_from_softirq)
{
	tp_r.ack_quick = 2;
	ck_assert(segment_in_len(10240));
	ck_assert_uint_eq(tp_r.ack_quick, 1);
	ck_assert(segment_in_len(10240));
	ck_assert_uint_eq(tp_r.ack_quick, 0);
	ck_assert(!segment_in_len(10240));
	ck_assert(tp_r.ack_pending & ICSK_ACK_TIMER);
	ck_assert_uint_eq(tp_r.acks, 2);
	tp_r.kernel_acks = false;
	tp_r.ack_quick = 2;
	ck_assert(!segment_in_len(10240));
	ck_assert_uint_eq(tp_r.acks, 2);
}
END_TEST

static Suite *sock_suite(void)
{
	Suite *s = suite_create("sock");
	TCase *tc = tcase_create("6.0-rc1");

	tcase_add_checked_fixture(tc, setup_page, teardown);
	tcase_add_test(tc, sk_forward_alloc_6_0_rc1_sender);
	tcase_add_test(tc, sk_forward_alloc_6_0_rc1_receiver);
	tcase_add_test(tc, backlog_segment_while_receiver_holds_lock);
	tcase_add_test(tc, backlog_ack_while_sender_holds_lock);
	tcase_add_test(tc, backlog_forced);
	tcase_add_test(tc, ack_walks_only_while_writer_waits_for_space);
	suite_add_tcase(s, tc);
	tc = tcase_create("window");
	tcase_add_checked_fixture(tc, setup_window, teardown_window);
	tcase_add_test(tc, select_window_no_walk_when_receiver_keeps_up);
	tcase_add_test(tc, select_window_walks_per_ack_when_receiver_bound);
	tcase_add_test(tc, grow_window_walks_until_rcv_ssthresh_grown);
	suite_add_tcase(s, tc);
	tc = tcase_create("acks");
	tcase_add_checked_fixture(tc, setup_acks, teardown_window);
	tcase_add_test(tc, acks_every_other_read_when_receiver_keeps_up);
	tcase_add_test(tc, acks_on_window_doubling_when_receiver_bound);
	tcase_add_test(tc, acks_read_emptying_after_short_segment);
	tcase_add_test(tc, rcv_mss_follows_repeated_short_segments);
	tcase_add_test(tc, quickack_sends_from_softirq);
	suite_add_tcase(s, tc);
	tc = tcase_create("v5.19");
	tcase_add_checked_fixture(tc, setup_quantum, teardown);
	tcase_add_test(tc, sk_forward_alloc_5_19_keeps_pages);
	tcase_add_test(tc, sk_forward_alloc_5_19_reclaim_chunk);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sock_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
