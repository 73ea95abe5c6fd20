// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/sweep/jobs.c - a sweep's local jobs: sweep_run() runs the points
 * that are not done here or in forked children. See cmd/sweep/sweep.h for the
 * theory of operation.
 *
 * A local sweep with N jobs, and what each process does:
 *
 *	parent                        child (one per point, at most N)
 *	------                        -----
 *	block INT TERM HUP CHLD
 *	fork  ----------------------> restore signals, run the point,
 *	                              write NNNN.yaml and NNNN.csv with
 *	                              INT TERM HUP held back, _exit(0);
 *	                              on failure send struct sim_error
 *	                              down the pipe first and _exit(1)
 *	sigsuspend() until SIGCHLD
 *	  or a stop signal; reap
 *	  (WNOHANG), count, fork more
 *	on a stop signal: SIGTERM to
 *	  every child, reap them all,
 *	  remove a killed child's
 *	  temporary files
 *	merge (sweep_merge())
 *
 * The signals stay blocked in the parent except inside sigsuspend(), so a
 * SIGCHLD or SIGTERM can never slip in between the check and the wait.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "cmd/sweep/sweep.h"
#include "cmd/sweep/internal.h"

/* global: set by the signal handler, which can reach nothing else */
static volatile sig_atomic_t caught_signal;

static void on_stop_signal(int sig)
{
	caught_signal = sig;
}

static void on_child(int sig)
{
	(void)sig;
}

/* One running child. */
struct slot {
	pid_t pid; /* 0: free */
	unsigned int point;
	int fd; /* read end of the child's error pipe */
};

/* The local pool of jobs: see the diagram at the top of this file. */
struct pool {
	const struct sweep *s;
	struct slot *slots;
	unsigned int jobs, running;
	unsigned int done, ran;
	bool stopping, killed, failed;
	bool timed_out; /* stopped at --max-time */
	pid_t parent;
	sigset_t orig_mask;
	struct sigaction orig[SWEEP__NR_STOP_SIGNALS], orig_chld;
	struct sim_error *err;
	sweep_progress_fn *progress;
	void *arg;
};

/* In the child: run @point and leave. Never returns. */
static void child_main(struct pool *p, unsigned int point, int fd)
{
	struct sim_error e;
	unsigned int i;
	ssize_t n;

	for (i = 0; i < SWEEP__NR_STOP_SIGNALS; i++)
		sigaction(sweep__stop_signals[i], &p->orig[i], NULL);
	sigaction(SIGCHLD, &p->orig_chld, NULL);
	for (i = 0; i < p->jobs; i++)
		if (p->slots[i].pid)
			close(p->slots[i].fd);
#ifdef __linux__
	/* Die with the parent, even when it is killed outright. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != p->parent)
		_exit(1);
#endif
	sigprocmask(SIG_SETMASK, &p->orig_mask, NULL);
	sim_error_clear(&e);
	if (!sweep_run_point(p->s, point, &e))
		_exit(0);
	/* Under PIPE_BUF bytes: written whole. */
	n = write(fd, &e, sizeof(e));
	(void)n;
	/*
	 * _exit(), not a return to main(): this is a fork of the sweep, and
	 * its caller's buffers and cleanup belong to the parent.
	 */
	_exit(1);
}

static int spawn(struct pool *p, unsigned int point)
{
	struct slot *slot = NULL;
	unsigned int i;
	int fds[2];
	pid_t pid;

	for (i = 0; i < p->jobs && !slot; i++)
		if (!p->slots[i].pid)
			slot = &p->slots[i];
	SIM_OOM_ON(!slot);
	if (pipe(fds)) {
		sim_error_set(p->err, "", 0, 0, "cannot create a pipe: %s",
			      strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		sim_error_set(p->err, "", 0, 0, "cannot fork: %s",
			      strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		close(fds[0]);
		child_main(p, point, fds[1]);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	slot->pid = pid;
	slot->point = point;
	slot->fd = fds[0];
	p->running++;
	return 0;
}

/* A child has ended with wait status @status. */
static void reaped(struct pool *p, struct slot *slot, int status)
{
	struct sim_error e;

	p->running--;
	if (WIFEXITED(status) && !WEXITSTATUS(status)) {
		p->done++;
		p->ran++;
		if (p->progress)
			p->progress(p->arg, p->done, p->ran, p->s->nr_points);
		goto out;
	}
	sweep__remove_temps(p->s, slot->point);
	p->stopping = true;
	if (p->failed || (p->killed && WIFSIGNALED(status)))
		goto out;
	p->failed = true;
	if (WIFEXITED(status) &&
	    read(slot->fd, &e, sizeof(e)) == (ssize_t)sizeof(e) && e.msg[0]) {
		e.msg[sizeof(e.msg) - 1] = '\0';
		e.file[sizeof(e.file) - 1] = '\0';
		*p->err = e; /* the child has named the point */
		goto out;
	} else if (WIFSIGNALED(status)) {
		sim_error_set(p->err, "", 0, 0, "killed by signal %d (%s)",
			      WTERMSIG(status), strsignal(WTERMSIG(status)));
	} else {
		sim_error_set(p->err, "", 0, 0, "exit status %d",
			      WEXITSTATUS(status));
	}
	sweep__blame_point(p->s, slot->point, p->err);
out:
	close(slot->fd);
	slot->pid = 0;
}

/* Reap every child that has ended; return how many did. */
static unsigned int reap(struct pool *p)
{
	unsigned int i, n = 0;
	int status;
	pid_t pid;

	while (p->running) {
		pid = waitpid(-1, &status, WNOHANG);
		if (pid <= 0)
			break;
		for (i = 0; i < p->jobs; i++) {
			if (p->slots[i].pid == pid) {
				reaped(p, &p->slots[i], status);
				n++;
				break;
			}
		}
	}
	return n;
}

static void pool_signals(struct pool *p, bool install)
{
	struct sigaction sa;
	sigset_t set;
	unsigned int i;

	if (!install) {
		for (i = 0; i < SWEEP__NR_STOP_SIGNALS; i++)
			sigaction(sweep__stop_signals[i], &p->orig[i], NULL);
		sigaction(SIGCHLD, &p->orig_chld, NULL);
		sigprocmask(SIG_SETMASK, &p->orig_mask, NULL);
		return;
	}
	sigemptyset(&set);
	for (i = 0; i < SWEEP__NR_STOP_SIGNALS; i++)
		sigaddset(&set, sweep__stop_signals[i]);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &p->orig_mask);
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: nothing here blocks but sigsuspend(). */
	sa.sa_handler = on_stop_signal;
	for (i = 0; i < SWEEP__NR_STOP_SIGNALS; i++) {
		sigaction(sweep__stop_signals[i], NULL, &p->orig[i]);
		/* A signal ignored on entry (nohup, `cmd &`) stays ignored. */
		if (p->orig[i].sa_handler != SIG_IGN)
			sigaction(sweep__stop_signals[i], &sa, NULL);
	}
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, &p->orig_chld);
}

/* Is the sweep's --max-time up? */
static bool time_up(const struct sweep *s)
{
	return s->time_up && s->time_up(s->time_up_arg);
}

static int run_pool(struct pool *p, const unsigned int *todo,
		    unsigned int nr_todo, int *signo)
{
	unsigned int next = 0, i;
	sigset_t wait_mask;

	p->parent = getpid();
	caught_signal = 0;
	pool_signals(p, true);
	wait_mask = p->orig_mask;
	for (i = 0; i < SWEEP__NR_STOP_SIGNALS; i++)
		sigdelset(&wait_mask, sweep__stop_signals[i]);
	sigdelset(&wait_mask, SIGCHLD);
	for (;;) {
		if (!p->stopping && next < nr_todo && time_up(p->s)) {
			p->stopping = p->failed = p->timed_out = true;
			for (i = 0; i < p->jobs; i++)
				if (p->slots[i].pid)
					kill(p->slots[i].pid, SIGTERM);
		}
		while (!p->stopping && p->running < p->jobs && next < nr_todo) {
			if (spawn(p, todo[next])) {
				p->stopping = p->failed = true;
				break;
			}
			next++;
		}
		if (reap(p))
			continue;
		if (caught_signal && !p->killed) {
			p->stopping = p->killed = true;
			for (i = 0; i < p->jobs; i++)
				if (p->slots[i].pid)
					kill(p->slots[i].pid, SIGTERM);
		}
		if (!p->running && (p->stopping || next == nr_todo))
			break;
		sigsuspend(&wait_mask);
	}
	pool_signals(p, false);
	if (caught_signal) {
		*signo = caught_signal;
		return -1;
	}
	return p->failed ? -1 : 0;
}

/* The error of a sweep stopped at --max-time, @done of its points done. */
static void timed_out(const struct sweep *s, unsigned int done,
		      struct sim_error *err)
{
	sim_error_set(
		err, "", 0, 0,
		"sweep stopped at --max-time: %u of %u points are done; rerun the same command (with a longer --max-time) to resume",
		done, s->nr_points);
}

/**
 * sweep_run() - run the points that are not done yet, on @jobs processes.
 * @s: the sweep, prepared
 * @jobs: 1 runs the points in this process, in point order; more run
 *	each point in a forked child, at most @jobs at once
 * @progress: called, if not NULL, before the first point and after each
 *	point ends, with the points done (including those done before), the
 *	points this call ran, and the total
 * @arg: for @progress
 * @signo: set to the signal that stopped the sweep, if one did; 0 if not
 * @err: filled on failure
 *
 * Stops at the first failed point (the points already running finish and
 * keep their files). With several jobs, SIGINT, SIGTERM and SIGHUP stop
 * the sweep: every child gets SIGTERM, and the finished points stay. With
 * one job they kill the process as usual, which is as safe, since the
 * point files are written with those signals held back.
 *
 * Return: 0, or SWEEP_FAILED with @err set (naming the point that failed,
 * or saying that a signal stopped the sweep).
 */
int sweep_run(const struct sweep *s, unsigned int jobs,
	      sweep_progress_fn *progress, void *arg, int *signo,
	      struct sim_error *err)
{
	struct pool p = {
		.s = s,
		.jobs = jobs,
		.err = err,
		.progress = progress,
		.arg = arg,
	};
	unsigned int *todo, nr_todo = 0, i;
	int ret = 0;

	*signo = 0;
	todo = calloc(s->nr_points, sizeof(*todo));
	SIM_OOM_ON(!todo || !jobs);
	for (i = 0; i < s->nr_points; i++) {
		if (sweep_point_done(s, i))
			p.done++;
		else
			todo[nr_todo++] = i;
	}
	if (progress)
		progress(arg, p.done, 0, s->nr_points);
	if (jobs == 1 || nr_todo <= 1) {
		for (i = 0; i < nr_todo && !ret; i++) {
			if (time_up(s)) {
				timed_out(s, p.done, err);
				ret = -1;
				break;
			}
			ret = sweep_run_point(s, todo[i], err);
			if (ret)
				break;
			p.done++;
			p.ran++;
			if (progress)
				progress(arg, p.done, p.ran, s->nr_points);
		}
	} else {
		p.slots = calloc(jobs, sizeof(*p.slots));
		SIM_OOM_ON(!p.slots);
		ret = run_pool(&p, todo, nr_todo, signo);
		if (p.timed_out && !*signo)
			timed_out(s, p.done, err);
		if (*signo)
			sim_error_set(
				err, "", 0, 0,
				"sweep stopped by signal %d (%s): %u of %u points are done; rerun the same command to resume",
				*signo, strsignal(*signo), p.done,
				s->nr_points);
		free(p.slots);
	}
	free(todo);
	return ret ? SWEEP_FAILED : 0;
}
