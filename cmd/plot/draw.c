// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/plot/draw.c - the drawing half of `memcgsim plot` (cmd/plot/plot.h): for
 * each job of a plan, its data file written whole (sim_write_atomic()),
 * then gnuplot run on its script once per format, writing the picture to
 * a temporary name that is renamed when gnuplot exits 0:
 *
 *	DIR/STEM.dat
 *	gnuplot -e "data='DIR/STEM.dat'; out='TMP'; term='png'; VARS" STEM.gp
 *	rename TMP DIR/STEM.png (and .svg)
 */
#define _XOPEN_SOURCE 700 /* POSIX 2008 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/plot/plot.h"
#include "cmd/plot/internal.h"
#include "sim/file.h"

extern char **environ;

/* The script of each kind, in the script directory. */
static const char *const plot_scripts[PLOT_NR_KINDS] = {
	[PLOT_THROUGHPUT] = "throughput.gp", [PLOT_FUNCTIONS] = "functions.gp",
	[PLOT_VALIDATION] = "validation.gp", [PLOT_HEATMAP] = "heatmap.gp",
	[PLOT_SUMMARY] = "summary.gp",
};

static const char *gnuplot_name(const struct plot_opts *o)
{
	const char *env = getenv("MEMCGSIM_GNUPLOT");

	if (o->gnuplot)
		return o->gnuplot;
	return env && *env ? env : "gnuplot";
}

/* Is @prog an executable file, by its path or in $PATH? */
static bool find_program(const char *prog)
{
	const char *path = getenv("PATH"), *s, *e;
	char buf[4096];
	struct stat st;

	if (strchr(prog, '/'))
		return !access(prog, X_OK) && !stat(prog, &st) &&
		       S_ISREG(st.st_mode);
	if (!path)
		path = "/usr/bin:/bin";
	for (s = path;; s = e + 1) {
		e = strchr(s, ':');
		if (!e)
			e = s + strlen(s);
		snprintf(buf, sizeof(buf), "%.*s/%s", e > s ? (int)(e - s) : 1,
			 e > s ? s : ".", prog);
		if (!access(buf, X_OK) && !stat(buf, &st) &&
		    S_ISREG(st.st_mode))
			return true;
		if (!*e)
			return false;
	}
}

/**
 * plot_have_gnuplot() - can gnuplot be run?
 * @o: options (their @gnuplot, else $MEMCGSIM_GNUPLOT, else "gnuplot")
 *
 * Return: true when the program is an executable file, by its path or
 * found in $PATH.
 */
bool plot_have_gnuplot(const struct plot_opts *o)
{
	return find_program(gnuplot_name(o));
}

/*
 * How long one picture may take, in seconds: $MEMCGSIM_GNUPLOT_TIMEOUT
 * (1 to 86400), else 120. A picture of memcgsim's data takes gnuplot well
 * under a second; one that hangs (a stuck font server, a terminal waiting
 * for input) is killed rather than waited for forever.
 */
static int gnuplot_timeout(void)
{
	const char *env = getenv("MEMCGSIM_GNUPLOT_TIMEOUT");
	char *end;
	long v;

	if (!env || !*env)
		return 120;
	v = strtol(env, &end, 10);
	return *end || v < 1 || v > 86400 ? 120 : (int)v;
}

/* Milliseconds from now until @deadline (CLOCK_MONOTONIC), at least 0. */
static int ms_left(const struct timespec *deadline)
{
	struct timespec now;
	long long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (long long)(deadline->tv_sec - now.tv_sec) * 1000 +
	     (deadline->tv_nsec - now.tv_nsec) / 1000000;
	return ms < 0 ? 0 : ms > 86400000 ? 86400000 : (int)ms;
}

/*
 * spawn_piped() - start @argv[0] in a process group of its own, its
 * stdin /dev/null, its stdout and stderr into a pipe whose read end is
 * *@rd. -1 with errno when it cannot start.
 */
static int spawn_piped(char *const argv[], pid_t *pid, int *rd)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int fds[2], rc;

	if (pipe(fds))
		return -1;
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	rc = posix_spawn_file_actions_init(&fa);
	if (rc)
		goto out_close;
	rc = posix_spawnattr_init(&attr);
	if (rc) {
		posix_spawn_file_actions_destroy(&fa);
		goto out_close;
	}
	/* Its own process group, so that a timeout kills its helpers too. */
	rc = posix_spawnattr_setpgroup(&attr, 0);
	if (!rc)
		rc = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	if (!rc && fds[0] > 2)
		rc = posix_spawn_file_actions_addclose(&fa, fds[0]);
	if (!rc)
		rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null",
						      O_RDONLY, 0);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	if (!rc && fds[1] > 2)
		rc = posix_spawn_file_actions_addclose(&fa, fds[1]);
	if (!rc)
		rc = posix_spawnp(pid, argv[0], &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (rc)
		goto out_close;
	close(fds[1]);
	*rd = fds[0];
	return 0;

out_close:
	close(fds[0]);
	close(fds[1]);
	errno = rc;
	return -1;
}

/*
 * read_tail() - what @fd says until it closes or @deadline, into @msg
 * (@size bytes, the end kept: where gnuplot says what went wrong).
 * Returns whether the deadline came first.
 */
static bool read_tail(int fd, char *msg, size_t size,
		      const struct timespec *deadline)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	bool timed_out = false;
	size_t len = 0;
	ssize_t n;
	int rc;

	for (;;) {
		if (len + 1 >= size) {
			memmove(msg, msg + size / 2, len - size / 2);
			len -= size / 2;
		}
		rc = poll(&pfd, 1, ms_left(deadline));
		if (rc < 0 && errno == EINTR)
			continue;
		if (!rc) {
			timed_out = true;
			break;
		}
		n = read(fd, msg + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	msg[len] = '\0';
	return timed_out;
}

/*
 * run_gnuplot() - run @argv, stdin from /dev/null, stdout and stderr
 * collected in @msg (at least the last @size / 2 bytes; @size >= 2).
 * Return the exit status (128 + the signal when killed), or -1 with errno
 * set when it could not be started, or ETIMEDOUT when it ran past
 * gnuplot_timeout(): then it and its process group are killed.
 */
static int run_gnuplot(char *const argv[], char *msg, size_t size)
{
	const struct timespec tick = { 0, 10000000 }; /* 10 ms */
	struct timespec deadline;
	bool timed_out;
	int rd, status;
	pid_t pid;

	msg[0] = '\0';
	if (spawn_piped(argv, &pid, &rd))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += gnuplot_timeout();
	timed_out = read_tail(rd, msg, size, &deadline);
	close(rd);
	/* Output closed: it should exit now; still bounded by the deadline. */
	while (!timed_out) {
		pid_t got = waitpid(pid, &status, WNOHANG);

		if (got == pid)
			break;
		if (got < 0 && errno != EINTR)
			return -1;
		if (!ms_left(&deadline))
			timed_out = true;
		else
			nanosleep(&tick, NULL);
	}
	if (timed_out) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		errno = ETIMEDOUT;
		return -1;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/*
 * gnuplot's complaint: its last line that says something (before it, the
 * command and a caret under the place of the error).
 */
static void last_line(char *dst, size_t size, const char *msg)
{
	const char *e = msg + strlen(msg), *s;

	while (e > msg && (e[-1] == '\n' || e[-1] == ' '))
		e--;
	s = e;
	while (s > msg && s[-1] != '\n')
		s--;
	snprintf(dst, size, "%.*s", (int)(e - s), s);
	if (!*dst)
		snprintf(dst, size, "no message");
}

/*
 * draw_one() - @job's picture in format @ext ("png" or "svg"): gnuplot
 * writes a temporary file next to DIR/STEM.EXT, renamed on success.
 */
static int draw_one(const struct plot_opts *o, const char *dir,
		    const struct plot_job *job, const char *ext,
		    struct sim_error *err)
{
	char pic[1400], data[1400], script[1400], reason[1024];
	char dash_e[] = "-e", *argv[5], *tmp = NULL;
	struct sim_error ignored;
	struct text cmds;
	struct stat st;
	FILE *f;
	int rc;

	snprintf(pic, sizeof(pic), "%s/%s.%s", dir, job->stem, ext);
	snprintf(data, sizeof(data), "%s/%s.dat", dir, job->stem);
	snprintf(script, sizeof(script), "%s/%s", o->script_dir,
		 plot_scripts[job->kind]);
	if (plot__text_open(&cmds)) {
		sim_error_set(err, pic, 0, 0, "out of memory");
		return -EIO;
	}
	f = sim_atomic_open(pic, &tmp, err);
	if (!f) {
		plot__text_discard(&cmds);
		return -EIO;
	}
	plot__put_gp_path(cmds.f, "data", data);
	plot__put_gp_path(cmds.f, "out", tmp);
	plot__put_gp_var(cmds.f, "term", ext);
	fputs(job->vars, cmds.f);
	if (plot__text_close(&cmds)) {
		sim_atomic_close(f, pic, tmp, false, &ignored);
		sim_error_set(err, pic, 0, 0, "out of memory");
		return -EIO;
	}
	argv[0] = (char *)gnuplot_name(o);
	argv[1] = dash_e;
	argv[2] = cmds.buf;
	argv[3] = script;
	argv[4] = NULL;
	rc = run_gnuplot(argv, reason, sizeof(reason));
	free(cmds.buf);
	if (rc < 0) {
		int saved = errno;

		sim_atomic_close(f, pic, tmp, false, &ignored);
		if (saved == ETIMEDOUT)
			sim_error_set(
				err, pic, 0, 0,
				"%s did not finish within %d s on %s: killed (MEMCGSIM_GNUPLOT_TIMEOUT sets the limit)",
				argv[0], gnuplot_timeout(), script);
		else
			sim_error_set(err, pic, 0, 0, "cannot run %s: %s",
				      argv[0], strerror(saved));
		return saved == ENOENT ? -ENOENT : -EIO;
	}
	if (rc || stat(tmp, &st) || !st.st_size) {
		char why[200];

		last_line(why, sizeof(why), reason);
		sim_atomic_close(f, pic, tmp, false, &ignored);
		sim_error_set(err, pic, 0, 0,
			      "gnuplot failed (exit status %d) on %s: %s", rc,
			      script, rc ? why : "no picture written");
		return -EIO;
	}
	return sim_atomic_close(f, pic, tmp, true, err) ? -EIO : 0;
}

static int write_job_data(FILE *out, void *arg)
{
	const struct plot_job *job = arg;

	return fwrite(job->data, 1, job->len, out) == job->len ? 0 : -1;
}

/* Create @dir unless it is there. */
static int make_dir(const char *dir, struct sim_error *err)
{
	struct stat st;

	if (!mkdir(dir, 0777))
		return 0;
	if (errno == EEXIST && !stat(dir, &st) && S_ISDIR(st.st_mode))
		return 0;
	sim_error_set(err, dir, 0, 0, "cannot create directory: %s",
		      strerror(errno == EEXIST ? ENOTDIR : errno));
	return -EIO;
}

int plot__draw_plan(const struct plot_plan *p, const struct plot_opts *o,
		    struct sim_error *err)
{
	static const char *const exts[] = { "dat", "png", "svg" };
	char dir[1024], path[1400], safe[200];
	unsigned int i, k;
	int ret;

	if (!p->nr)
		return 0;
	if (!plot_have_gnuplot(o)) {
		sim_error_set(
			err, "", 0, 0,
			"%s not found: install gnuplot to draw plots (Debian: apt-get install gnuplot-nox)",
			gnuplot_name(o));
		return -ENOENT;
	}
	for (k = 0; k < PLOT_NR_KINDS; k++) {
		snprintf(path, sizeof(path), "%s/%s", o->script_dir,
			 plot_scripts[k]);
		if (access(path, R_OK)) {
			sim_error_set(
				err, path, 0, 0,
				"cannot read the gnuplot script: %s (set MEMCGSIM_PLOTSDIR to the plots/ directory)",
				strerror(errno));
			return -EIO;
		}
	}
	plot__safe_name(safe, sizeof(safe), p->name);
	if (o->out_dir)
		snprintf(dir, sizeof(dir), "%s", o->out_dir);
	else
		snprintf(dir, sizeof(dir), "plots-%s", safe);
	/* Issue 34, item 1: no output replaces an input, none written. */
	for (i = 0; i < p->nr; i++)
		for (k = 0; k < 3; k++) {
			snprintf(path, sizeof(path), "%s/%s.%s", dir,
				 p->jobs[i].stem, exts[k]);
			if (sim_output_check(path, err))
				return -EINVAL;
		}
	ret = make_dir(dir, err);
	if (ret)
		return ret;
	for (i = 0; i < p->nr; i++) {
		const struct plot_job *job = &p->jobs[i];

		snprintf(path, sizeof(path), "%s/%s.dat", dir, job->stem);
		if (sim_write_atomic(path, write_job_data, (void *)job, err))
			return -EIO;
		if (o->written)
			o->written(o->written_arg, path, false);
		for (k = 0; k < 2; k++) {
			const char *ext = k ? "svg" : "png";

			if (!(k ? o->svg : o->png))
				continue;
			ret = draw_one(o, dir, job, ext, err);
			if (ret)
				return ret;
			snprintf(path, sizeof(path), "%s/%s.%s", dir, job->stem,
				 ext);
			if (o->written)
				o->written(o->written_arg, path, true);
		}
	}
	return 0;
}
