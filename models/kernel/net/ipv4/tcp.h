/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/kernel/net/ipv4/tcp.h - the TCP paths of a loopback stream that
 * touch socket memory or walk the memcg hierarchy (include/net/tcp.h,
 * Linux 6.0-rc1): the send in net/ipv4/tcp.c (tcp_sendpage()), the
 * receive in net/ipv6/tcp_ipv6.c (tcp_v6_rcv(), tcp_v6_do_rcv()) and
 * net/ipv4/tcp_input.c, the window in net/ipv4/tcp_output.c.
 *
 * Theory of operation: tcp_sendpage() charges the skb it queues to the
 * sender's socket (sk_wmem_schedule(), sk_mem_charge()). Over loopback
 * the transmit runs the receive softirq on the transmitting CPU:
 * tcp_v6_rcv() takes the receiving socket's spinlock and either appends
 * the skb to its backlog, uncharged, if the socket's task owns it
 * (tcp_add_backlog()), or processes it there: sk->sk_backlog_rcv(), the
 * protocol's tcp_v6_do_rcv(), which charges a data segment to the
 * receiver's socket (tcp_data_queue()) or frees the acked skb of an ACK
 * (tcp_ack() -> tcp_clean_rtx_queue(): sk_mem_uncharge()). The owner's
 * release_sock() (net/core/sock.c) processes its backlog later, on its
 * CPU. The socket lock and the backlog are in models/kernel/net/core/.
 *
 * The receive window, for a socket with TCP state (tcp_sk(sk), struct
 * tcp_sock below): a data segment advances rcv_nxt and sk_rmem_alloc
 * (tcp_data_queue()), and tcp_event_data_recv()'s tcp_grow_window()
 * raises rcv_ssthresh while it can, asking tcp_under_memory_pressure()
 * first; __tcp_ack_snd_check() then asks __tcp_select_window() once
 * more than a frame has arrived since the last window was sent. The
 * reader's tcp_eat_recv_skb() advances copied_seq and frees the skb;
 * every segment sent (tcp_transmit_skb(): data and ACKs) carries
 * tcp_select_window()'s window, which sets rcv_wnd and rcv_wup. Each
 * __tcp_select_window() whose free space (tcp_space(): half of
 * sk_rcvbuf less the queued truesize) is under half the full space
 * asks tcp_under_memory_pressure(): the memcg walk. The sender's
 * tcp_ack() takes snd_una and snd_wnd from the ACK
 * (tcp_ack_update_window()).
 *
 * Layering: models/kernel/ module; uses net/core/sock.h.
 */
#ifndef MODELS_KERNEL_NET_IPV4_TCP_H
#define MODELS_KERNEL_NET_IPV4_TCP_H

#include <stdint.h>

#include "models/kernel/net/core/sock.h"

/*
 * The truesize of the skb head tcp_stream_alloc_skb() allocates for
 * sendpage (x86_64, 6.0): alloc_skb_fclone(MAX_TCP_HEADER = 320) rounds
 * the head to kmalloc-1024, skb_end_offset() = 1024 - 320 (shared info)
 * = 704, and SKB_TRUESIZE() adds the sk_buff (256 aligned) and the
 * skb_shared_info (320): 704 + 256 + 320.
 */
#define TCP_SKB_HEAD_TRUESIZE 1280

/*
 * tcp_sendpage() - coroutine: the charges of @size bytes of a file at
 * @offset sent on @sk: tcp_stream_alloc_skb()'s head (sk_wmem_schedule(),
 * tcp_skb_entail()'s sk_mem_charge()), then do_tcp_sendpages() a page at
 * a time, each piece scheduled and charged. SIM: one call for a whole
 * message's pages (splice hands them over a page at a time) and one skb.
 * Context: the sender's task, lock_sock() held; may charge the memcg.
 */
struct tcp_sendpage_frame {
	struct co_frame co;
	struct sock *sk;
	uint64_t offset;
	unsigned int size;
	/* locals */
	unsigned int i; /* bytes handed to TCP so far */
	int piece; /* the next page's part of the message */
};

int tcp_sendpage(struct sim_proc *p, void *frame);

/*
 * tcp_v6_rcv() - coroutine: a packet of @truesize for @sk arrives in the
 * softirq of this CPU (loopback: the transmitting one). Under the
 * socket's spinlock it goes to the backlog if the socket's task owns it
 * (or as sk->backlog_policy says, SIM), and is processed here otherwise,
 * the spinlock held. Returns, in p->ret, 1 if it was backlogged.
 */
struct tcp_v6_rcv_frame {
	struct co_frame co;
	struct sock *sk;
	int truesize;
	/* locals */
	bool backlogged;
};

int tcp_v6_rcv(struct sim_proc *p, void *frame);

/*
 * tcp_v6_do_rcv() - coroutine: one packet for @sk, in the softirq
 * (@softirq: GFP_NOWAIT) or from the backlog: a data segment of
 * @truesize is charged (tcp_rcv_established() -> tcp_data_queue():
 * sk_rmem_schedule(), skb_set_owner_r()); an ACK (@ack, SIM: the stream
 * is one-way) frees the acked skb of @truesize (tcp_ack() ->
 * tcp_clean_rtx_queue(): sk_mem_uncharge()).
 */
struct tcp_v6_do_rcv_frame {
	struct co_frame co;
	struct sock *sk;
	int truesize;
	bool softirq;
	bool ack;
};

int tcp_v6_do_rcv(struct sim_proc *p, void *frame);

/*
 * tcp_check_space() - coroutine (net/ipv4/tcp_input.c), after an ACK
 * freed sent data (tcp_data_snd_check()): if the writer waits for space
 * (SOCK_NOSPACE), tcp_new_space() asks tcp_should_expand_sndbuf(), whose
 * tcp_under_memory_pressure() walks the socket's memcg hierarchy
 * (mem_cgroup_under_socket_pressure()), then wakes the writer
 * (sk_write_space(): the workload's).
 */
struct tcp_check_space_frame {
	struct co_frame co;
	struct sock *sk;
};

int tcp_check_space(struct sim_proc *p, void *frame);

/*
 * The receive window (include/net/tcp.h, include/linux/tcp.h,
 * net/ipv4/tcp_output.c and tcp_input.c, v6.0), kept so that whether
 * __tcp_select_window() and tcp_grow_window() walk the memcg hierarchy
 * (tcp_under_memory_pressure()) is an outcome of the flow. The sysctls
 * at their v6.0 defaults: tcp_rmem = { 4096, 131072, 6291456 },
 * tcp_adv_win_scale 1.
 */
#define TCP_RMEM_DEFAULT 131072 /* tcp_rmem[1] */
#define TCP_RMEM_MAX 6291456 /* tcp_rmem[2] */
#define TCP_ADV_WIN_SCALE 1 /* sysctl_tcp_adv_win_scale */
#define TCP_MSS_DEFAULT 536U
#define TCP_HDR_BYTES 20U /* sizeof(struct tcphdr) */
/* tcp_header_len with timestamps (sysctl_tcp_timestamps 1, loopback) */
#define TCP_HEADER_LEN_TS 32U
#define TCP_MAX_WSCALE 14
/* IPv6 loopback: dst_metric_advmss(), the MTU (65536) less 40 + 20 */
#define TCP_LO6_ADVMSS 65476U

/* SIM: the callers of tcp_under_memory_pressure() counted apart */
enum tcp_walk {
	TCP_WALK_SELECT_WINDOW, /* __tcp_select_window() */
	TCP_WALK_GROW_WINDOW, /* tcp_grow_window() */
	TCP_WALK_CHECK_SPACE, /* tcp_check_space(): tcp_should_expand_sndbuf() */
	TCP_WALK_NR
};

/*
 * struct tcp_sock, the fields the window needs (sequence numbers in
 * bytes, modulo 2^32 as the kernel's). SIM: a socket's tp points here
 * (sock.h).
 */
struct tcp_sock {
	/* the receive side */
	uint32_t rcv_nxt; /* the next byte expected */
	uint32_t copied_seq; /* the next byte the reader copies */
	uint32_t rcv_wup; /* rcv_nxt when the window was last sent */
	uint32_t rcv_wnd; /* the window sent then */
	uint32_t rcv_ssthresh; /* the window's current growth bound */
	uint32_t window_clamp; /* the largest window to advertise */
	uint32_t advmss; /* the MSS this socket advertised */
	uint32_t rcv_mss; /* icsk_ack.rcv_mss: the peer's, as seen */
	uint32_t last_seg_size; /* icsk_ack.last_seg_size */
	unsigned int rcv_wscale; /* rx_opt.rcv_wscale */
	/* the send side */
	uint32_t snd_nxt, snd_una, snd_wnd;
	/*
	 * The ACK policy (inet_connection_sock's icsk_ack): the pending
	 * bits (ICSK_ACK_*) and the quick-ACK count. SIM: only with
	 * kernel_acks (set by the workload); without, the caller sends one
	 * ACK per read and these decide nothing. No pingpong (a one-way
	 * stream's receiver sends no data: tcp_event_data_sent() never
	 * enters it), no ato (the delayed-ACK timer is not modelled: it is
	 * at least TCP_ATO_MIN, 40 ms, out, and a stream's reads ACK first).
	 */
	bool kernel_acks;
	uint8_t ack_pending; /* icsk_ack.pending */
	uint8_t ack_quick; /* icsk_ack.quick */
	/* SIM: __tcp_ack_snd_check() sent an ACK: the caller delivers it */
	bool ack_sent_now;
	/* SIM: the bytes the last segment sent acked (rcv_nxt - rcv_wup) */
	uint32_t acked_now;
	/*
	 * SIM: loopback: the socket whose ACKs this one receives; an ACK's
	 * ack_seq and window are its rcv_wup and rcv_wnd when processed
	 */
	struct tcp_sock *peer;
	/* SIM: walks by caller, from the socket's count_from on */
	uint64_t walks[TCP_WALK_NR];
	/* SIM: pure ACKs sent, from the socket's count_from on */
	uint64_t acks;
};

/* include/net/inet_connection_sock.h: icsk_ack.pending */
enum inet_csk_ack_state_t {
	ICSK_ACK_SCHED = 1,
	ICSK_ACK_TIMER = 2,
	ICSK_ACK_PUSHED = 4,
	ICSK_ACK_PUSHED2 = 8,
	ICSK_ACK_NOW = 16 /* send the next ACK immediately (once) */
};

/*
 * tcp_in_quickack_mode() (tcp_input.c): quick-ACK count left. SIM: no
 * RTAX_QUICKACK route metric, never pingpong.
 */
static inline bool tcp_in_quickack_mode(const struct tcp_sock *tp)
{
	return tp->ack_quick;
}

static inline struct tcp_sock *tcp_sk(const struct sock *sk)
{
	return sk->tp;
}

/* include/net/tcp.h: after(seq1, seq2), modulo 2^32 */
static inline bool tcp_after(uint32_t seq1, uint32_t seq2)
{
	return (int32_t)(seq2 - seq1) < 0;
}

/* the window a receive buffer of @space bytes offers (adv_win_scale 1) */
static inline int tcp_win_from_space(const struct sock *sk, int space)
{
	(void)sk;
	return space - (space >> TCP_ADV_WIN_SCALE);
}

/* the window the free receive buffer offers (may be negative) */
static inline int tcp_space(const struct sock *sk)
{
	return tcp_win_from_space(sk, sk->sk_rcvbuf - sk->sk_backlog.rmem -
					      sk->sk_rmem_alloc);
}

static inline int tcp_full_space(const struct sock *sk)
{
	return tcp_win_from_space(sk, sk->sk_rcvbuf);
}

/* what is left of the window last advertised */
static inline uint32_t tcp_receive_window(const struct tcp_sock *tp)
{
	int32_t win = (int32_t)(tp->rcv_wup + tp->rcv_wnd - tp->rcv_nxt);

	return win < 0 ? 0 : (uint32_t)win;
}

/*
 * tcp_snd_wnd_test(): does a segment of @len bytes fit the peer's
 * window (tcp_wnd_end(): snd_una + snd_wnd)? SIM: for the whole message
 * (one skb), not per MSS.
 */
static inline bool tcp_snd_wnd_test(const struct tcp_sock *tp, uint32_t len)
{
	return !tcp_after(tp->snd_nxt + len, tp->snd_una + tp->snd_wnd);
}

/*
 * tcp_sock_init() - SIM: @sk's window state (@tp) as a long loopback
 * stream has it, with a receive buffer of @rcvbuf bytes: window_clamp
 * at tcp_win_from_space(@rcvbuf) (tcp_init_buffer_space(), and
 * tcp_rcv_space_adjust() makes it follow sk_rcvbuf), rcv_ssthresh grown
 * to window_clamp (tcp_grow_window() raises it by at least two
 * advertised MSS a segment until it gets there), rcv_wscale as
 * tcp_select_initial_window() sets it from tcp_rmem[2], rcv_mss at
 * tcp_initialize_rcv_mss()'s TCP_MSS_DEFAULT, and the first window
 * advertised: nothing received, nothing sent.
 */
void tcp_sock_init(struct sock *sk, struct tcp_sock *tp, int rcvbuf);

/*
 * tcp_ack_update_window() - SIM: @tp takes the ack_seq and window of the
 * ACK from its peer (tcp_ack(): snd_una, tcp_ack_update_window():
 * snd_wnd, the 16-bit field scaled by the peer's rcv_wscale).
 */
void tcp_ack_update_window(struct tcp_sock *tp);

/*
 * tcp_under_memory_pressure() - coroutine (include/net/tcp.h): the
 * memcg walk (mem_cgroup_under_socket_pressure()) of a socket with a
 * memcg, then tcp_memory_pressure (SIM: never set). @caller (SIM) is
 * counted in tcp_sk(@sk)->walks when the walk happens.
 * Return: in p->ret, false (SIM: no pressure is modelled).
 */
struct tcp_under_memory_pressure_frame {
	struct co_frame co;
	struct sock *sk;
	enum tcp_walk caller;
};

int tcp_under_memory_pressure(struct sim_proc *p, void *frame);

/* __tcp_select_window()'s locals */
struct tcp_window_space {
	int mss, free_space, allowed_space, full_space;
};

/*
 * __tcp_select_window() - coroutine (net/ipv4/tcp_output.c): the window
 * @sk can offer now; when the free space is under half the full space
 * it asks tcp_under_memory_pressure() (the walk).
 * Return: in p->ret, the window in bytes (0: none).
 */
struct __tcp_select_window_frame {
	struct co_frame co;
	struct sock *sk;
	/* locals */
	struct tcp_window_space w;
};

int __tcp_select_window(struct sim_proc *p, void *frame);

/*
 * tcp_select_window_nowalk() - SIM: __tcp_select_window() as a plain
 * call, for the callers' CO_TCP_SELECT_WINDOW(): the window, or
 * TCP_WINDOW_WALK when the free space is short, where it walks (and so
 * may wait), having set what comes before the walk. Its locals in @w.
 */
#define TCP_WINDOW_WALK (-1)
int tcp_select_window_nowalk(struct sock *sk, struct tcp_window_space *w);

/*
 * CO_TCP_SELECT_WINDOW() - in coroutine @f, @win = __tcp_select_window(@sock)
 * (@win in @f's frame). SIM: a coroutine call, a frame and its dispatch,
 * only for a walk: without one nothing waits, and this is most windows
 * (a queue under half the receive buffer). The coroutine repeats the
 * plain call's work before its walk, at the same time: the same result.
 */
#define CO_TCP_SELECT_WINDOW(f, p, win, sock)                             \
	do {                                                              \
		struct tcp_window_space co_w_;                            \
		(win) = tcp_select_window_nowalk((sock), &co_w_);         \
		if ((win) == TCP_WINDOW_WALK) {                           \
			CO_CALL(f, p, __tcp_select_window, .sk = (sock)); \
			(win) = (int)(p)->ret;                            \
		}                                                         \
	} while (0)

/*
 * tcp_transmit_skb() - coroutine: what __tcp_transmit_skb() does with the
 * window for a segment of @len payload bytes (0: an ACK) sent on @sk:
 * th->window = tcp_select_window() (never shrinking the window offered:
 * rcv_wnd, rcv_wup), tcp_event_ack_sent() (the quick-ACK count less one,
 * the pending ACK cleared), then, for data, snd_nxt advances
 * (tcp_event_new_data_sent()). Nothing without tcp_sk(@sk).
 */
struct tcp_transmit_skb_frame {
	struct co_frame co;
	struct sock *sk;
	unsigned int len;
	/* locals: tcp_select_window()'s */
	uint32_t cur_win;
	int new_win;
};

int tcp_transmit_skb(struct sim_proc *p, void *frame);

/*
 * tcp_eat_recv_skb() - coroutine (net/ipv4/tcp.c): the reader has copied
 * the @len bytes of an skb of @truesize (copied_seq advances, with
 * tcp_sk(@sk)) and frees it: sock_rfree() takes back sk_rmem_alloc and
 * sk_mem_uncharge()s the bytes.
 */
struct tcp_eat_recv_skb_frame {
	struct co_frame co;
	struct sock *sk;
	int truesize;
	unsigned int len;
};

int tcp_eat_recv_skb(struct sim_proc *p, void *frame);

/*
 * tcp_cleanup_rbuf() - coroutine (net/ipv4/tcp.c): after a read of
 * @copied bytes, is it time to ACK? With an ACK scheduled, yes when more
 * than rcv_mss arrived since the last window was sent, or the read
 * emptied the queue after a pushed short segment (ICSK_ACK_PUSHED2, or
 * PUSHED, never pingpong); otherwise when the window left is at most
 * half window_clamp and __tcp_select_window() (a walk when the free
 * space is short) would at least double it.
 * Return: in p->ret, true to send the ACK (the caller's tcp_send_ack()).
 */
struct tcp_cleanup_rbuf_frame {
	struct co_frame co;
	struct sock *sk;
	int copied;
	/* locals */
	uint32_t rcv_window_now;
	int new_window;
};

int tcp_cleanup_rbuf(struct sim_proc *p, void *frame);

/*
 * tcp_data_queue() - coroutine: an in-order data segment of @truesize
 * for @sk (@softirq: GFP_NOWAIT): tcp_try_rmem_schedule()
 * (sk_rmem_schedule()), tcp_queue_rcv() (skb_set_owner_r(): charged,
 * sk_rmem_alloc), and with tcp_sk(@sk) rcv_nxt and tcp_event_data_recv()
 * (tcp_measure_rcv_mss(), tcp_grow_window(): a walk while rcv_ssthresh
 * can grow).
 */
struct tcp_data_queue_frame {
	struct co_frame co;
	struct sock *sk;
	int truesize;
	bool softirq;
	/* locals */
	unsigned int len;
};

int tcp_data_queue(struct sim_proc *p, void *frame);

/*
 * __tcp_ack_snd_check() - coroutine: after a data segment, with
 * tcp_sk(@sk): more than one frame since the window was last sent asks
 * __tcp_select_window() (a walk when the free space is short). With
 * kernel_acks, an ACK is sent now (tcp_send_ack(): the window selected,
 * ack_sent_now set for the caller to deliver) when that window does not
 * shrink, all was read, in quick-ACK mode or on ICSK_ACK_NOW; otherwise
 * it is delayed (tcp_send_delayed_ack(): ICSK_ACK_TIMER).
 */
struct __tcp_ack_snd_check_frame {
	struct co_frame co;
	struct sock *sk;
	/* locals */
	int win; /* __tcp_select_window()'s */
};

int __tcp_ack_snd_check(struct sim_proc *p, void *frame);

#endif /* MODELS_KERNEL_NET_IPV4_TCP_H */
