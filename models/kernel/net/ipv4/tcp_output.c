// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of net/ipv4/tcp_output.c's window selection (tcp_select_window(),
 * __tcp_select_window()) and of what __tcp_transmit_skb() and
 * tcp_event_new_data_sent() do with the window and snd_nxt, Linux v6.0
 * (after "tcp: adjust rcv_ssthresh according to sk_reserved_mem", v5.15:
 * __tcp_select_window() asks tcp_under_memory_pressure(); before "tcp:
 * add sysctl tcp_shrink_window", v6.5), read at the index's 5.15-LTS-era
 * tree (4cko/caf_msm-5.15, commit e3fcfbeb, with 6.0's READ_ONCE()
 * sysctls): the same tests in the same order; under pressure it lowers
 * rcv_ssthresh to 4 * advmss where v6.0 calls tcp_adjust_rcv_ssthresh(),
 * which the model never reaches. Theory of operation: see tcp.h.
 */
#include "models/kernel/compat/kernel.h"
#include "models/kernel/net/ipv4/tcp.h"

/* ALIGN() and round_down() to a power of two */
static int tcp_align(int x, int a)
{
	return (x + a - 1) & ~(a - 1);
}

static int tcp_round_down(int x, int a)
{
	return x & ~(a - 1);
}

/* __tcp_select_window()'s window from @free_space, once it is not short */
static int tcp_window_of(const struct tcp_sock *tp, int free_space)
{
	if (free_space > (int)tp->rcv_ssthresh)
		free_space = (int)tp->rcv_ssthresh;
	/*
	 * With window scaling, no rounding to the MSS: enough that the
	 * window is not scaled away. SIM: rcv_wscale is never 0 here
	 * (tcp_sock_init(): 7), so the unscaled branch is not modelled.
	 */
	SIM_BUG_ON(!tp->rcv_wscale);
	return tcp_align(free_space, 1 << tp->rcv_wscale);
}

int tcp_select_window_nowalk(struct sock *sk, struct tcp_window_space *w)
{
	struct tcp_sock *tp = tcp_sk(sk);

	w->mss = (int)tp->rcv_mss; /* icsk->icsk_ack.rcv_mss */
	w->free_space = tcp_space(sk);
	w->allowed_space = tcp_full_space(sk);
	w->full_space = min((int)tp->window_clamp, w->allowed_space);
	if (w->mss > w->full_space) {
		w->mss = w->full_space;
		if (w->mss <= 0)
			return 0;
	}
	if (w->free_space < (w->full_space >> 1)) {
		tp->ack_quick = 0; /* icsk->icsk_ack.quick = 0 */
		return TCP_WINDOW_WALK;
	}
	return tcp_window_of(tp, w->free_space);
}

int __tcp_select_window(struct sim_proc *p, void *frame)
{
	struct __tcp_select_window_frame *f = frame;
	struct tcp_sock *tp = tcp_sk(f->sk);
	int win;

	CO_BEGIN(f);
	win = tcp_select_window_nowalk(f->sk, &f->w);
	if (win != TCP_WINDOW_WALK)
		CO_RETURN(f, p, win);
	CO_CALL(f, p, tcp_under_memory_pressure, .sk = f->sk,
		.caller = TCP_WALK_SELECT_WINDOW);
	/* then tcp_adjust_rcv_ssthresh(): SIM: never under pressure */
	/* free_space might become the window: no growth by wscale */
	f->w.free_space = tcp_round_down(f->w.free_space, 1 << tp->rcv_wscale);
	/* short of an MSS or of 1/16 of the buffer: a zero window */
	if (f->w.free_space < (f->w.allowed_space >> 4) ||
	    f->w.free_space < f->w.mss)
		CO_RETURN(f, p, 0);
	CO_RETURN(f, p, tcp_window_of(tp, f->w.free_space));
	CO_END(f, p);
}

/*
 * tcp_select_window(): the window for the header of a segment sent now,
 * @new_win from __tcp_select_window() when @cur_win was left of the one
 * offered, which is never shrunk. Return: the 16-bit field (the window
 * >> rcv_wscale). SIM: its __tcp_select_window() is the caller's
 * (CO_TCP_SELECT_WINDOW()), so that this is a plain call.
 */
static uint32_t tcp_select_window(struct tcp_sock *tp, uint32_t cur_win,
				  uint32_t new_win)
{
	/* Never shrink the offered window */
	if (new_win < cur_win)
		new_win =
			(uint32_t)tcp_align((int)cur_win, 1 << tp->rcv_wscale);
	tp->rcv_wnd = new_win;
	tp->acked_now = tp->rcv_nxt - tp->rcv_wup;
	tp->rcv_wup = tp->rcv_nxt;
	/* the largest scaled window; RFC 1323 scaling */
	new_win = min(new_win, 65535U << tp->rcv_wscale);
	return new_win >> tp->rcv_wscale;
}

/*
 * tcp_event_ack_sent() (include/net/tcp.h, v6.0): a segment carrying the
 * ACK of rcv_nxt went out. SIM: no compressed ACK (no SACK).
 */
static void tcp_event_ack_sent(struct tcp_sock *tp, unsigned int pkts)
{
	/* tcp_dec_quickack_mode(). SIM: ato is not kept */
	if (tp->ack_quick)
		tp->ack_quick = pkts >= tp->ack_quick ?
					0 :
					(uint8_t)(tp->ack_quick - pkts);
	/* inet_csk_clear_xmit_timer(sk, ICSK_TIME_DACK) */
	tp->ack_pending = 0;
}

int tcp_transmit_skb(struct sim_proc *p, void *frame)
{
	struct tcp_transmit_skb_frame *f = frame;

	CO_BEGIN(f);
	if (!tcp_sk(f->sk))
		CO_RETURN(f, p, 0);
	/* __tcp_transmit_skb(): th->window = htons(tcp_select_window(sk)) */
	f->cur_win = tcp_receive_window(tcp_sk(f->sk));
	CO_TCP_SELECT_WINDOW(f, p, f->new_win, f->sk);
	tcp_select_window(tcp_sk(f->sk), f->cur_win, (uint32_t)f->new_win);
	/* tcp_skb_pcount(): SIM: one (an ACK, or a message's segment) */
	tcp_event_ack_sent(tcp_sk(f->sk), 1);
	if (!f->len && NOW(p) >= f->sk->count_from)
		tcp_sk(f->sk)->acks++;
	/* tcp_event_new_data_sent() */
	tcp_sk(f->sk)->snd_nxt += f->len;
	CO_END(f, p);
}
