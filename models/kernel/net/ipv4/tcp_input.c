// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model of net/ipv4/tcp_input.c's send-space check after an ACK
 * (tcp_check_space(), tcp_new_space(), tcp_should_expand_sndbuf()) and
 * include/net/tcp.h's tcp_under_memory_pressure(), Linux v6.0 (after
 * "tcp: remove SOCK_QUEUE_SHRUNK": every ACK checks SOCK_NOSPACE).
 * Theory of operation: see tcp.h.
 */
#include "models/kernel/net/ipv4/tcp.h"

/*
 * tcp_under_memory_pressure(): the socket's memcg hierarchy, then the
 * protocol's flag (SIM: tcp_memory_pressure never set, sock.h).
 */
struct tcp_under_memory_pressure_frame {
	struct co_frame co;
	struct sock *sk;
};

static int tcp_under_memory_pressure(struct sim_proc *p, void *frame)
{
	struct tcp_under_memory_pressure_frame *f = frame;

	CO_BEGIN(f);
	/* mem_cgroup_sockets_enabled && sk->sk_memcg && ... */
	if (f->sk->sk_memcg) {
		CO_CALL(f, p, mem_cgroup_under_socket_pressure,
			.memcg = f->sk->sk_memcg);
		if (p->ret)
			CO_RETURN(f, p, true);
	}
	CO_RETURN(f, p, false); /* READ_ONCE(tcp_memory_pressure) */
	CO_END(f, p);
}

/*
 * tcp_should_expand_sndbuf(). SIM: no SOCK_SNDBUF_LOCK (netperf sets no
 * SO_SNDBUF); past the walk its answer only sizes sk_sndbuf, which the
 * model does not keep (the workload's window stands for the buffers).
 */
struct tcp_should_expand_sndbuf_frame {
	struct co_frame co;
	struct sock *sk;
};

static int tcp_should_expand_sndbuf(struct sim_proc *p, void *frame)
{
	struct tcp_should_expand_sndbuf_frame *f = frame;

	CO_BEGIN(f);
	/* if (tcp_under_memory_pressure(sk)) return false; */
	CO_CALL(f, p, tcp_under_memory_pressure, .sk = f->sk);
	CO_RETURN(f, p, !p->ret);
	CO_END(f, p);
}

/*
 * tcp_new_space(): tcp_sndbuf_expand() if it should (SIM: not kept),
 * then sk->sk_write_space(), the workload's wake-up of the writer.
 */
struct tcp_new_space_frame {
	struct co_frame co;
	struct sock *sk;
};

static int tcp_new_space(struct sim_proc *p, void *frame)
{
	struct tcp_new_space_frame *f = frame;

	CO_BEGIN(f);
	CO_CALL(f, p, tcp_should_expand_sndbuf, .sk = f->sk);
	CO_END(f, p);
}

int tcp_check_space(struct sim_proc *p, void *frame)
{
	struct tcp_check_space_frame *f = frame;

	CO_BEGIN(f);
	/*
	 * smp_mb(), pairing with tcp_poll(). SIM: not modelled here (this
	 * models the walk; the barrier would be a mechanism of its own).
	 */
	if (f->sk->nospace && *f->sk->nospace)
		CO_CALL(f, p, tcp_new_space, .sk = f->sk);
	CO_END(f, p);
}
