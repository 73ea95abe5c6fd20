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

int __tcp_select_window(struct sim_proc *p, void *frame)
{
	struct __tcp_select_window_frame *f = frame;
	struct tcp_sock *tp = tcp_sk(f->sk);

	CO_BEGIN(f);
	f->mss = (int)tp->rcv_mss; /* icsk->icsk_ack.rcv_mss */
	f->free_space = tcp_space(f->sk);
	f->allowed_space = tcp_full_space(f->sk);
	f->full_space = min((int)tp->window_clamp, f->allowed_space);
	if (f->mss > f->full_space) {
		f->mss = f->full_space;
		if (f->mss <= 0)
			CO_RETURN(f, p, 0);
	}
	if (f->free_space < (f->full_space >> 1)) {
		tp->ack_quick = 0; /* icsk->icsk_ack.quick = 0 */
		CO_CALL(f, p, tcp_under_memory_pressure, .sk = f->sk,
			.caller = TCP_WALK_SELECT_WINDOW);
		/* then tcp_adjust_rcv_ssthresh(): SIM: never under pressure */
		/* free_space might become the window: no growth by wscale */
		f->free_space =
			tcp_round_down(f->free_space, 1 << tp->rcv_wscale);
		/* short of an MSS or of 1/16 of the buffer: a zero window */
		if (f->free_space < (f->allowed_space >> 4) ||
		    f->free_space < f->mss)
			CO_RETURN(f, p, 0);
	}
	if (f->free_space > (int)tp->rcv_ssthresh)
		f->free_space = (int)tp->rcv_ssthresh;
	/*
	 * With window scaling, no rounding to the MSS: enough that the
	 * window is not scaled away. SIM: rcv_wscale is never 0 here
	 * (tcp_sock_init(): 7), so the unscaled branch is not modelled.
	 */
	SIM_BUG_ON(!tp->rcv_wscale);
	CO_RETURN(f, p, tcp_align(f->free_space, 1 << tp->rcv_wscale));
	CO_END(f, p);
}

/*
 * tcp_select_window(): the window for the header of a segment sent now;
 * the window offered is never shrunk. Return: in p->ret, the 16-bit
 * field (the window >> rcv_wscale).
 */
struct tcp_select_window_frame {
	struct co_frame co;
	struct sock *sk;
	/* locals */
	uint32_t cur_win;
};

static int tcp_select_window(struct sim_proc *p, void *frame)
{
	struct tcp_select_window_frame *f = frame;
	struct tcp_sock *tp = tcp_sk(f->sk);
	uint32_t new_win;

	CO_BEGIN(f);
	f->cur_win = tcp_receive_window(tp);
	CO_CALL(f, p, __tcp_select_window, .sk = f->sk);
	new_win = (uint32_t)p->ret;
	/* Never shrink the offered window */
	if (new_win < f->cur_win)
		new_win = (uint32_t)tcp_align((int)f->cur_win,
					      1 << tp->rcv_wscale);
	tp->rcv_wnd = new_win;
	tp->acked_now = tp->rcv_nxt - tp->rcv_wup;
	tp->rcv_wup = tp->rcv_nxt;
	/* the largest scaled window; RFC 1323 scaling */
	new_win = min(new_win, 65535U << tp->rcv_wscale);
	CO_RETURN(f, p, new_win >> tp->rcv_wscale);
	CO_END(f, p);
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
	CO_CALL(f, p, tcp_select_window, .sk = f->sk);
	/* tcp_skb_pcount(): SIM: one (an ACK, or a message's segment) */
	tcp_event_ack_sent(tcp_sk(f->sk), 1);
	if (!f->len && NOW(p) >= f->sk->count_from)
		tcp_sk(f->sk)->acks++;
	/* tcp_event_new_data_sent() */
	tcp_sk(f->sk)->snd_nxt += f->len;
	CO_END(f, p);
}
