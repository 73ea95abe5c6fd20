// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/host-run/bench.c - the programs host-run runs on the host: one
 * process per task of a workload (or one thread per task, per_thread page
 * faults), moved into the workload's cgroup and pinned to the task's CPU
 * before it touches memory, looping the system calls the model's workload
 * stands for.
 *
 * Theory of operation: the tasks share one anonymous shared mapping (a
 * phase word and a slot per task). Each task attaches itself to its
 * cgroup (cgroup.procs), pins itself (sched_setaffinity), sets up its
 * sockets or files, marks its slot ready and blocks on the go pipe; the
 * parent closes the pipe when all are ready, sleeps the warm-up, sets
 * PHASE_MEASURE (each task notes its operations and its CPU time,
 * CLOCK_THREAD_CPUTIME_ID), sleeps the window and sets PHASE_STOP (each
 * notes them again and exits). A stream's sender counts no operations:
 * the receiver counts the messages it read; both count CPU time. The
 * result is the counted tasks' operations and CPU time in the window and
 * the window's wall time (CLOCK_MONOTONIC, read here: this file is in
 * tools/checksrc.sh's WALLCLOCK for that).
 *
 * Every child dies with its parent (PR_SET_PDEATHSIG); on a signal, a
 * task that fails to start, or a stop that does not come, the parent
 * kills every child with SIGKILL and reaps it before it returns, so the
 * cgroups can be removed.
 *
 * Layering: cmd/host-run/.
 */
#define _GNU_SOURCE

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/host-run/internal.h"
#include "sim/util.h"

#define PAGE 4096u
#define MAX_TASKS 1024
#define START_TIMEOUT_S 30.0 /* 1,000 memcgs' tasks: ample */
#define STOP_TIMEOUT_S 5.0

enum { PHASE_WARMUP, PHASE_MEASURE, PHASE_STOP };

struct slot {
	int ready; /* 1: set up; -1: failed (errno in @err) */
	int err;
	char what[32]; /* the call that failed */
	uint64_t ops, ops0, ops1;
	uint64_t cpu0, cpu1; /* ns */
	int noted; /* 1: @ops0/@cpu0 taken; 2: @ops1/@cpu1 too */
};

struct shared {
	int phase;
	struct slot slot[MAX_TASKS];
};

/* One task's program, as the child runs it. */
struct task {
	const struct host_job *job;
	unsigned int index; /* in the job */
	struct slot *slot;
	struct shared *sh;
	int fd; /* stream: its socket; page faults, fallocate: the memfd */
	bool sender;
	/* hackbench: its group's receivers' sockets, read and write ends */
	const int *in, *out;
};

static uint64_t cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Note the counts at the phase changes; false once stopped. */
static bool note(struct task *t)
{
	int phase = __atomic_load_n(&t->sh->phase, __ATOMIC_ACQUIRE);
	struct slot *s = t->slot;

	if (phase >= PHASE_MEASURE && s->noted == 0) {
		s->ops0 = s->ops;
		s->cpu0 = cpu_now();
		s->noted = 1;
	}
	if (phase == PHASE_STOP && s->noted == 1) {
		s->ops1 = s->ops;
		s->cpu1 = cpu_now();
		s->noted = 2;
	}
	return phase != PHASE_STOP;
}

static void fail(struct task *t, const char *what)
{
	t->slot->err = errno;
	snprintf(t->slot->what, sizeof(t->slot->what), "%s", what);
	__atomic_store_n(&t->slot->ready, -1, __ATOMIC_RELEASE);
}

/* ---- the loops ---- */

static void stream_loop(struct task *t)
{
	size_t len = (size_t)t->job->h.bytes, got = 0;
	char *buf = malloc(len);
	ssize_t n;

	if (!buf)
		return;
	memset(buf, 0x5a, len);
	while (note(t)) {
		if (t->sender) {
			n = write(t->fd, buf, len);
			if (n <= 0)
				break;
			continue;
		}
		n = read(t->fd, buf, len);
		if (n <= 0)
			break;
		got += (size_t)n;
		while (got >= len) {
			got -= len;
			t->slot->ops++;
		}
	}
	free(buf);
}

/*
 * will-it-scale page_fault1 (anonymous), page_fault2 (a private mapping
 * of a file: copy-on-write faults) and page_fault3 (a shared mapping of
 * it: page cache), on a memfd (shmem, as will-it-scale's /tmp on tmpfs).
 */
static void page_fault_loop(struct task *t)
{
	const struct workload_host *h = &t->job->h;
	size_t size = (size_t)h->pages * PAGE, i;
	int flags = h->test == 3 ? MAP_SHARED : MAP_PRIVATE;
	char *p;

	while (note(t)) {
		if (h->test == 1)
			p = mmap(NULL, size, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		else
			p = mmap(NULL, size, PROT_READ | PROT_WRITE, flags,
				 t->fd, 0);
		if (p == MAP_FAILED)
			return;
		for (i = 0; i < size && note(t); i += PAGE) {
			p[i] = 1;
			t->slot->ops++;
		}
		munmap(p, size);
	}
}

/* will-it-scale fallocate1: BUFLEN at a time up to FILESIZE, truncate. */
static void fallocate_loop(struct task *t)
{
	const struct workload_host *h = &t->job->h;
	off_t len = (off_t)(h->len_pages * PAGE), off = 0;

	while (note(t)) {
		if (fallocate(t->fd, 0, off, len))
			return;
		t->slot->ops++;
		off += len;
		if (off >= (off_t)(h->pages * PAGE)) {
			if (ftruncate(t->fd, 0))
				return;
			off = 0;
		}
	}
}

/* One read of memory.stat is one operation; a pass reads them all. */
static void stat_loop(struct task *t)
{
	const struct host_job *j = t->job;
	static char buf[65536];
	unsigned int i = 0;
	int fd;

	while (note(t) && j->h.nr_read) {
		fd = open(j->stat_files[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return;
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
		t->slot->ops++;
		i = (i + 1) % j->h.nr_read;
	}
}

/*
 * A hackbench sender writes a message to each receiver of its group in
 * turn; a receiver reads as a stream's receiver does. Each first closes
 * the group's ends it does not use, so that a receiver sees the end of
 * its stream once the senders have stopped (and notes its count).
 */
static void hackbench_loop(struct task *t)
{
	size_t len = (size_t)t->job->h.bytes;
	unsigned int r = 0, fds = (unsigned int)t->job->h.fds;
	char *buf;

	for (r = 0; r < fds; r++) {
		if (t->sender || t->in[r] != t->fd)
			close(t->in[r]);
		if (!t->sender)
			close(t->out[r]);
	}
	r = 0;
	if (!t->sender) {
		stream_loop(t);
		return;
	}
	buf = malloc(len);
	if (!buf)
		return;
	memset(buf, 0x5a, len);
	while (note(t) && write(t->out[r], buf, len) > 0)
		r = (r + 1) % fds;
	free(buf);
}

/*
 * kmalloc's analogue: a round sends `objects` messages to the task's own
 * SysV queue (t->fd: its id), each one msg_msg kmalloc()ed with
 * GFP_KERNEL_ACCOUNT, and receives them in order (each kfree()d); when
 * the queue is full it receives what it sent and goes on. A round is one
 * operation.
 */
static void kmalloc_loop(struct task *t)
{
	const struct workload_host *h = &t->job->h;
	struct {
		long mtype;
		char mtext[PAGE];
	} *m = malloc(sizeof(*m));
	uint64_t i, k, sent;

	if (!m)
		return;
	memset(m->mtext, 0x5a, sizeof(m->mtext));
	while (note(t)) {
		for (i = 0; i < h->objects; i += sent) {
			m->mtype = 1;
			for (sent = 0; i + sent < h->objects; sent++)
				if (msgsnd(t->fd, m, (size_t)h->bytes,
					   IPC_NOWAIT))
					break;
			for (k = 0; k < sent; k++)
				if (msgrcv(t->fd, m, (size_t)h->bytes, 0,
					   IPC_NOWAIT) < 0)
					goto out;
			if (!sent)
				goto out;
		}
		t->slot->ops++;
	}
out:
	free(m);
}

static void run_loop(struct task *t)
{
	switch (t->job->h.kind) {
	case WH_UNIX_STREAM:
	case WH_TCP_STREAM:
	case WH_SCTP_STREAM:
		stream_loop(t);
		break;
	case WH_HACKBENCH:
		hackbench_loop(t);
		break;
	case WH_KMALLOC:
		kmalloc_loop(t);
		break;
	case WH_PAGE_FAULT:
		page_fault_loop(t);
		break;
	case WH_FALLOCATE:
		fallocate_loop(t);
		break;
	case WH_STAT_READ:
		stat_loop(t);
		break;
	}
	/* stopped, or a call failed: note the counts now */
	t->slot->ops1 = t->slot->ops;
	t->slot->cpu1 = cpu_now();
	if (t->slot->noted == 1)
		t->slot->noted = 2;
}

/* ---- starting a task ---- */

static int pin(unsigned int cpu, pid_t tid)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(tid, sizeof(set), &set);
}

/* Move this process into @dir: its pid into cgroup.procs. */
static int attach(const char *dir)
{
	char path[PATH_MAX + 16], pid[24];
	int fd, len, ret;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	len = snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = write(fd, pid, (size_t)len) == len ? 0 : -1;
	if (close(fd))
		ret = -1;
	return ret;
}

/* The task's own file: a memfd the size page faults map. */
static int task_file(struct task *t)
{
	const struct workload_host *h = &t->job->h;

	if (h->kind == WH_FALLOCATE ||
	    (h->kind == WH_PAGE_FAULT && h->test != 1)) {
		t->fd = memfd_create("memcgsim-host-run", MFD_CLOEXEC);
		if (t->fd < 0)
			return -1;
		if (h->kind == WH_PAGE_FAULT &&
		    ftruncate(t->fd, (off_t)(h->pages * PAGE)))
			return -1;
	}
	return 0;
}

/*
 * The go pipe's write end: the children do not exec, so each closes its
 * copy first (child_setup()), or the parent's close would not wake them.
 */
static int go_write = -1;

/* A child's first steps: die with the parent, default signals. */
static void child_setup(void)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	close(go_write);
}

/* Block until the parent closes the go pipe (or dies). */
static void wait_go(int go)
{
	char c;

	while (read(go, &c, 1) < 0 && errno == EINTR)
		;
}

/* Pinned, its file made, marked ready: true; false when it failed. */
static bool task_ready(struct task *t)
{
	if (pin(t->job->cpus[t->index], 0))
		fail(t, "sched_setaffinity");
	else if (task_file(t))
		fail(t, "memfd_create");
	else
		__atomic_store_n(&t->slot->ready, 1, __ATOMIC_RELEASE);
	return t->slot->ready > 0;
}

struct thread_arg {
	struct task t;
	int go;
	pthread_t id;
};

static void *thread_main(void *arg)
{
	struct thread_arg *a = arg;
	struct task *t = &a->t;

	if (!task_ready(t))
		return NULL;
	wait_go(a->go);
	run_loop(t);
	return NULL;
}

/*
 * A child's life: into the cgroup, pinned, set up, ready, go, loop. The
 * tasks of a per_thread job are threads of one such child (@nr > 1).
 */
static void child_main(struct task *t, unsigned int nr, int go)
{
	struct thread_arg *a;
	unsigned int i;

	child_setup();
	if (attach(t->job->dir)) {
		fail(t, "cgroup.procs");
		_exit(1);
	}
	if (nr == 1) {
		if (!task_ready(t))
			_exit(1);
		wait_go(go);
		run_loop(t);
		_exit(0);
	}
	a = calloc(nr, sizeof(*a));
	if (!a) {
		fail(t, "calloc");
		_exit(1);
	}
	for (i = 0; i < nr; i++) {
		a[i].t = t[i];
		a[i].go = go;
		if (pthread_create(&a[i].id, NULL, thread_main, &a[i])) {
			fail(&t[i], "pthread_create");
			_exit(1);
		}
	}
	for (i = 0; i < nr; i++)
		pthread_join(a[i].id, NULL);
	_exit(0);
}

/* ---- the parent ---- */

struct children {
	pid_t pid[MAX_TASKS];
	unsigned int nr;
	int msq[MAX_TASKS]; /* the kmalloc tasks' SysV queues */
	unsigned int nr_msq;
};

static void end_children(struct children *c)
{
	unsigned int i;

	for (i = 0; i < c->nr; i++)
		kill(c->pid[i], SIGKILL);
	for (i = 0; i < c->nr; i++)
		while (waitpid(c->pid[i], NULL, 0) < 0 && errno == EINTR)
			;
	c->nr = 0;
	for (i = 0; i < c->nr_msq; i++)
		msgctl(c->msq[i], IPC_RMID, NULL);
	c->nr_msq = 0;
}

/*
 * A private SysV queue for kmalloc task @t, made by host-run (which
 * removes it in end_children(), whatever becomes of the task).
 */
static int kmalloc_queue(struct children *c, struct task *t,
			 struct sim_error *err)
{
	t->fd = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	if (t->fd < 0) {
		sim_error_set(err, "", 0, 0, "msgget: %s", strerror(errno));
		return -1;
	}
	c->msq[c->nr_msq++] = t->fd;
	return 0;
}

static int fork_task(struct children *c, struct task *t, unsigned int nr,
		     int go, struct sim_error *err)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		sim_error_set(err, "", 0, 0, "fork: %s", strerror(errno));
		return -1;
	}
	if (!pid)
		child_main(t, nr, go);
	c->pid[c->nr++] = pid;
	return 0;
}

/* The IP protocol of a stream job's sockets: TCP's, or SCTP's. */
static int ip_protocol(const struct host_job *j)
{
	return j->h.kind == WH_SCTP_STREAM ? IPPROTO_SCTP : 0;
}

/*
 * A loopback TCP (or SCTP one-to-one) listener on an ephemeral port, and
 * its address.
 */
static int tcp_listener(const struct host_job *j, struct sockaddr_in *addr,
			struct sim_error *err)
{
	socklen_t len = sizeof(*addr);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, ip_protocol(j));

	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)addr, sizeof(*addr)) ||
	    listen(fd, 1) || getsockname(fd, (struct sockaddr *)addr, &len)) {
		sim_error_set(err, "", 0, 0, "%s loopback listener: %s",
			      ip_protocol(j) ? "SCTP" : "TCP", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/*
 * A stream pair's sockets. af_unix: a socketpair made here (its skbs
 * are charged to the sender as it writes). TCP: each end made in the
 * child once it is in its cgroup (mem_cgroup_sk_alloc() takes the
 * memcg of the task creating the socket), connected through @lfd.
 */
static int pair_sockets(const struct host_job *j, struct task *snd,
			struct task *rcv, struct sim_error *err)
{
	int sv[2];

	if (j->h.kind == WH_UNIX_STREAM) {
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
			sim_error_set(err, "", 0, 0, "socketpair: %s",
				      strerror(errno));
			return -1;
		}
		snd->fd = sv[0];
		rcv->fd = sv[1];
	}
	return 0;
}

/*
 * TCP ends, in the child: the sender connects to @addr, the receiver
 * accepts on @lfd. Called by the task before it marks itself ready.
 */
static int tcp_connect(struct task *t, int lfd, const struct sockaddr_in *addr)
{
	if (!t->sender) {
		t->fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		close(lfd);
		return t->fd < 0 ? -1 : 0;
	}
	close(lfd);
	t->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC,
		       ip_protocol(t->job));
	if (t->fd < 0)
		return -1;
	return connect(t->fd, (const struct sockaddr *)addr, sizeof(*addr));
}

/* A stream pair: two children, each one end. */
static int fork_pair(struct children *c, struct task *snd, struct task *rcv,
		     int go, struct sim_error *err)
{
	const struct host_job *j = snd->job;
	struct sockaddr_in addr;
	struct task *t[2] = { snd, rcv };
	unsigned int k;
	int lfd = -1;
	pid_t pid;

	if (pair_sockets(j, snd, rcv, err))
		return -1;
	if (j->h.kind == WH_TCP_STREAM || j->h.kind == WH_SCTP_STREAM) {
		lfd = tcp_listener(j, &addr, err);
		if (lfd < 0)
			return -1;
	}
	fflush(NULL);
	for (k = 0; k < 2; k++) {
		pid = fork();
		if (pid < 0) {
			sim_error_set(err, "", 0, 0, "fork: %s",
				      strerror(errno));
			break;
		}
		if (pid) {
			c->pid[c->nr++] = pid;
			continue;
		}
		/* the child: its own end only */
		if (j->h.kind == WH_UNIX_STREAM)
			close(t[1 - k]->fd);
		child_setup();
		if (attach(j->dir)) {
			fail(t[k], "cgroup.procs");
			_exit(1);
		}
		if (pin(j->cpus[t[k]->index], 0)) {
			fail(t[k], "sched_setaffinity");
			_exit(1);
		}
		if (lfd >= 0 && tcp_connect(t[k], lfd, &addr)) {
			fail(t[k], t[k]->sender ? "connect" : "accept");
			_exit(1);
		}
		__atomic_store_n(&t[k]->slot->ready, 1, __ATOMIC_RELEASE);
		wait_go(go);
		run_loop(t[k]);
		_exit(0);
	}
	if (j->h.kind == WH_UNIX_STREAM) {
		close(snd->fd);
		close(rcv->fd);
	}
	if (lfd >= 0)
		close(lfd);
	return k == 2 ? 0 : -1;
}

/*
 * hackbench's groups: per group a socketpair per receiver (its read end
 * the receiver's, the write ends every sender's of the group), then a
 * process per task, pinned and in the job's cgroup; the parent closes the
 * group's sockets once its children have them.
 */
static int fork_hackbench(const struct host_job *j, struct task *tasks,
			  struct children *c, int go, struct sim_error *err)
{
	unsigned int fds = (unsigned int)j->h.fds, g, i, k;
	int *rd = calloc(fds, sizeof(*rd)), *wr = calloc(fds, sizeof(*wr));
	int sv[2], ret = 0;

	SIM_OOM_ON(!rd || !wr);
	for (g = 0; !ret && g < j->nr_tasks / (2 * fds); g++) {
		struct task *t = &tasks[2 * fds * g];

		for (k = 0; k < fds; k++) {
			if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
				       sv)) {
				sim_error_set(err, "", 0, 0, "socketpair: %s",
					      strerror(errno));
				ret = -1;
				break;
			}
			rd[k] = sv[0];
			wr[k] = sv[1];
		}
		for (i = 0; !ret && i < 2 * fds; i++) {
			t[i].sender = i < fds;
			t[i].in = rd;
			t[i].out = wr;
			t[i].fd = i < fds ? -1 : rd[i - fds];
			ret = fork_task(c, &t[i], 1, go, err);
		}
		for (i = 0; i < k; i++) {
			close(rd[i]);
			close(wr[i]);
		}
	}
	free(rd);
	free(wr);
	return ret;
}

/* Sleep @secs in short steps; false when a signal asked to stop. */
static bool nap(double secs)
{
	double end = wall_now() + secs, left;
	struct timespec ts;

	while (!host_stop_signal && (left = end - wall_now()) > 0) {
		if (left > 0.02)
			left = 0.02;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
	return !host_stop_signal;
}

/* A child that exited before the stop: it failed (or was killed). */
static bool child_died(const struct children *c)
{
	unsigned int i;
	int status;

	for (i = 0; i < c->nr; i++)
		if (waitpid(c->pid[i], &status, WNOHANG) == c->pid[i])
			return true;
	return false;
}

/* Wait until every task is ready; -1 with @err set otherwise. */
static int wait_ready(struct shared *sh, unsigned int nr,
		      const struct children *c, struct sim_error *err)
{
	double end = wall_now() + START_TIMEOUT_S;
	unsigned int i, ready;

	for (;;) {
		for (i = ready = 0; i < nr; i++) {
			int r = __atomic_load_n(&sh->slot[i].ready,
						__ATOMIC_ACQUIRE);

			if (r < 0) {
				sim_error_set(err, "", 0, 0,
					      "a task could not start: %s: %s",
					      sh->slot[i].what,
					      strerror(sh->slot[i].err));
				return -1;
			}
			ready += r > 0;
		}
		if (ready == nr)
			return 0;
		if (child_died(c)) {
			sim_error_set(err, "", 0, 0,
				      "a task died while starting");
			return -1;
		}
		if (wall_now() > end) {
			sim_error_set(err, "", 0, 0,
				      "the tasks did not start within %.0f s",
				      START_TIMEOUT_S);
			return -1;
		}
		if (!nap(0.002))
			return -1;
	}
}

/* Reap every child, waiting up to STOP_TIMEOUT_S before killing. */
static void reap(struct children *c)
{
	double end = wall_now() + STOP_TIMEOUT_S;
	unsigned int i, left;
	int status;

	do {
		for (i = left = 0; i < c->nr; i++) {
			if (!c->pid[i])
				continue;
			if (waitpid(c->pid[i], &status, WNOHANG) == c->pid[i])
				c->pid[i] = 0;
			else
				left++;
		}
		if (!left) {
			c->nr = 0;
			return;
		}
	} while (nap(0.005) && wall_now() < end);
	for (i = 0; i < c->nr; i++) {
		if (!c->pid[i])
			continue;
		kill(c->pid[i], SIGKILL);
		while (waitpid(c->pid[i], &status, 0) < 0 && errno == EINTR)
			;
	}
	c->nr = 0;
}

/* Start the tasks of @j, whose slots begin at @first. */
static int start_job(const struct host_job *j, struct shared *sh,
		     unsigned int first, struct task *tasks, struct children *c,
		     int go, struct sim_error *err)
{
	unsigned int i;

	for (i = 0; i < j->nr_tasks; i++) {
		tasks[i] = (struct task){ .job = j,
					  .index = i,
					  .slot = &sh->slot[first + i],
					  .sh = sh,
					  .fd = -1 };
	}
	switch (j->h.kind) {
	case WH_HACKBENCH:
		return fork_hackbench(j, tasks, c, go, err);
	case WH_UNIX_STREAM:
	case WH_TCP_STREAM:
	case WH_SCTP_STREAM:
		for (i = 0; i < j->h.nr_pairs; i++) {
			struct task *snd = &tasks[j->h.pair_task[2 * i]];
			struct task *rcv = &tasks[j->h.pair_task[2 * i + 1]];

			snd->sender = true;
			if (fork_pair(c, snd, rcv, go, err))
				return -1;
		}
		return 0;
	case WH_PAGE_FAULT:
		if (j->h.threads)
			return fork_task(c, tasks, j->nr_tasks, go, err);
		/* fall through */
	case WH_FALLOCATE:
	case WH_STAT_READ:
	case WH_KMALLOC:
		for (i = 0; i < j->nr_tasks; i++)
			if ((j->h.kind == WH_KMALLOC &&
			     kmalloc_queue(c, &tasks[i], err)) ||
			    fork_task(c, &tasks[i], 1, go, err))
				return -1;
		return 0;
	}
	return 0;
}

int host_bench_run(const struct host_job *jobs, unsigned int nr_jobs,
		   double warmup_s, double secs, const char *perf,
		   const char *perf_data, struct host_tp *tp,
		   struct host_result *res, struct sim_error *err)
{
	struct host_perf hp = { .pid = -1, .ctl = -1, .ack = -1 };
	pid_t saved[MAX_TASKS];
	unsigned int counted = 0;
	struct children *c = calloc(1, sizeof(*c));
	struct task *tasks = calloc(MAX_TASKS, sizeof(*tasks));
	unsigned int i, k, nr = 0, first[64];
	struct shared *sh;
	double t0, t1;
	int go[2] = { -1, -1 }, ret = -1;

	SIM_OOM_ON(!c || !tasks);
	memset(res, 0, sizeof(*res));
	for (i = 0; i < nr_jobs && i < ARRAY_SIZE(first); i++) {
		first[i] = nr;
		nr += jobs[i].nr_tasks;
	}
	if (nr > MAX_TASKS || nr_jobs > ARRAY_SIZE(first)) {
		sim_error_set(err, "", 0, 0,
			      "more than %u tasks: host-run runs no more",
			      MAX_TASKS);
		goto out_free;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		sim_error_set(err, "", 0, 0, "mmap: %s", strerror(errno));
		goto out_free;
	}
	if (pipe2(go, O_CLOEXEC)) {
		sim_error_set(err, "", 0, 0, "pipe: %s", strerror(errno));
		goto out_unmap;
	}
	go_write = go[1];
	for (i = 0; i < nr_jobs; i++) {
		if (start_job(&jobs[i], sh, first[i], tasks + first[i], c,
			      go[0], err))
			goto out_end;
		/* the first workload's processes: the counted ones */
		if (!i)
			counted = c->nr;
	}
	if (wait_ready(sh, nr, c, err))
		goto out_end;
	/*
	 * perf starts while the tasks wait (its events off), and counts
	 * once it says it is ready: no profile when it never does
	 */
	if (perf && perf_data &&
	    !host_perf_start(&hp, perf, perf_data, jobs[0].cpus,
			     jobs[0].nr_tasks) &&
	    !host_perf_enable(&hp, 15000))
		host_perf_stop(&hp);
	/* the tracepoints: counting events on the counted tasks, off */
	if (tp && tp->ok && host_tp_attach(tp, c->pid, counted))
		tp = NULL;
	close(go[1]);
	go[1] = go_write = -1;
	if (!nap(warmup_s))
		goto out_signal;
	__atomic_store_n(&sh->phase, PHASE_MEASURE, __ATOMIC_RELEASE);
	if (tp)
		host_tp_enable(tp, true);
	t0 = wall_now();
	if (!nap(secs))
		goto out_signal;
	__atomic_store_n(&sh->phase, PHASE_STOP, __ATOMIC_RELEASE);
	t1 = wall_now();
	if (tp) {
		host_tp_enable(tp, false);
		res->have_tp = !host_tp_read(tp, res->tp);
		host_tp_detach(tp);
	}
	host_perf_stop(&hp);
	memcpy(saved, c->pid, counted * sizeof(*saved));
	reap(c);
	if (host_stop_signal)
		goto out_signal;
	res->secs = t1 - t0;
	/* reap() zeroed the pids it reaped: the counted ones from @saved */
	res->nr_pids = counted;
	memcpy(res->pids, saved, counted * sizeof(*saved));
	for (i = 0; i < nr_jobs; i++) {
		if (!jobs[i].counted)
			continue;
		for (k = first[i]; k < first[i] + jobs[i].nr_tasks; k++) {
			const struct slot *s = &sh->slot[k];

			if (s->noted < 2)
				continue;
			res->ops += s->ops1 - s->ops0;
			res->cpu_ns += (double)(s->cpu1 - s->cpu0);
		}
	}
	ret = 0;
	goto out_end;
out_signal:
	sim_error_set(err, "", 0, 0, "interrupted by signal %d",
		      (int)host_stop_signal);
out_end:
	if (tp)
		host_tp_detach(tp);
	host_perf_stop(&hp);
	end_children(c);
	if (go[1] >= 0)
		close(go[1]);
	close(go[0]);
out_unmap:
	munmap(sh, sizeof(*sh));
out_free:
	free(tasks);
	free(c);
	return ret;
}
