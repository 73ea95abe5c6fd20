// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/file.c - files written whole or not at all (see sim/file.h).
 */
#define _XOPEN_SOURCE 700 /* realpath(), strndup() */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/file.h"

/* What sim_atomic_open() appends to the final name for the temporary one. */
#define ATOMIC_SUFFIX ".tmpXXXXXX"

/*
 * The temporary files open now, for the handler of a stop signal: SIGINT,
 * SIGTERM or SIGHUP during a run --trace (or any other write) removes them
 * and then dies of the signal as it would have. The table is changed only
 * with those signals blocked; the handler reads it and calls unlink(),
 * getpid(), sigaction() and raise() only, all async-signal-safe. A slot
 * remembers its process: a forked child (sweep) removes none of its
 * parent's files. More than ATOMIC_MAX_OPEN at once are not tracked.
 */
#define ATOMIC_MAX_OPEN 64
static const int atomic_stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
static struct {
	const char *path;
	pid_t pid;
} atomic_open_files[ATOMIC_MAX_OPEN];
static bool atomic_handlers_installed;

static void atomic_on_stop_signal(int sig)
{
	int saved = errno;
	pid_t self = getpid();
	unsigned int i;

	for (i = 0; i < ATOMIC_MAX_OPEN; i++)
		if (atomic_open_files[i].path &&
		    atomic_open_files[i].pid == self)
			unlink(atomic_open_files[i].path);
	/* SA_RESETHAND restored the default: die of @sig once it returns. */
	raise(sig);
	errno = saved;
}

static void atomic_block(sigset_t *old)
{
	sigset_t set;
	unsigned int i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(atomic_stop_signals) / sizeof(int); i++)
		sigaddset(&set, atomic_stop_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/*
 * Install the handler for each stop signal still at its default action
 * (one a caller set, such as the sweep's, or SIG_IGN, is left alone).
 */
static void atomic_install_handlers(void)
{
	struct sigaction sa, old;
	unsigned int i;

	if (atomic_handlers_installed)
		return;
	atomic_handlers_installed = true;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = atomic_on_stop_signal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(atomic_stop_signals) / sizeof(int); i++)
		sigaddset(&sa.sa_mask, atomic_stop_signals[i]);
	for (i = 0; i < sizeof(atomic_stop_signals) / sizeof(int); i++)
		if (!sigaction(atomic_stop_signals[i], NULL, &old) &&
		    !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
			sigaction(atomic_stop_signals[i], &sa, NULL);
}

/* Track @path (NULL: stop tracking @old_path); signals are blocked. */
static void atomic_track(const char *path, const char *old_path)
{
	unsigned int i;

	for (i = 0; i < ATOMIC_MAX_OPEN; i++) {
		if (path && !atomic_open_files[i].path) {
			atomic_open_files[i].pid = getpid();
			atomic_open_files[i].path = path;
			return;
		}
		if (!path && atomic_open_files[i].path == old_path) {
			atomic_open_files[i].path = NULL;
			return;
		}
	}
}

/*
 * The files this process has read as input, by device and inode (issue
 * 34, item 1): an output that resolves to one of them, by the same name,
 * another hard link or a symbolic link, is refused, because measurements
 * and scenarios cannot be made again from their results. The table grows
 * as files are read; a file not noted for want of memory is not guarded.
 */
static struct sim_input {
	dev_t dev;
	ino_t ino;
} * inputs;
static size_t nr_inputs, inputs_cap;

static void input_note(const struct stat *st);

void sim_input_note(int fd)
{
	struct stat st;

	if (fd >= 0 && !fstat(fd, &st))
		input_note(&st);
}

void sim_input_note_path(const char *path)
{
	struct stat st;

	if (!stat(path, &st))
		input_note(&st);
}

static void input_note(const struct stat *st)
{
	struct sim_input *grown;
	size_t i;

	if (!S_ISREG(st->st_mode))
		return;
	for (i = 0; i < nr_inputs; i++)
		if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino)
			return;
	if (nr_inputs == inputs_cap) {
		size_t cap = inputs_cap ? 2 * inputs_cap : 16;

		grown = realloc(inputs, cap * sizeof(*inputs));
		if (!grown)
			return;
		inputs = grown;
		inputs_cap = cap;
	}
	inputs[nr_inputs].dev = st->st_dev;
	inputs[nr_inputs].ino = st->st_ino;
	nr_inputs++;
}

void sim_input_forget_path(const char *path)
{
	struct stat st;
	size_t i;

	if (stat(path, &st))
		return;
	for (i = 0; i < nr_inputs; i++)
		if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino)
			inputs[i] = inputs[--nr_inputs];
}

/* Does @path, its links followed, name a file noted as an input? */
static bool is_input(const char *path)
{
	struct stat st;
	size_t i;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	for (i = 0; i < nr_inputs; i++)
		if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino)
			return true;
	return false;
}

int sim_output_check(const char *path, struct sim_error *err)
{
	if (!path || !strcmp(path, "-") || !is_input(path))
		return 0;
	sim_error_set(
		err, path, 0, 0,
		"refusing to write over a file this command read as input; name another output");
	return -1;
}

/**
 * sim_atomic_open() - open a temporary file next to @path.
 * @path: final name, or "-" for stdout
 * @tmp_path: receives the temporary name (NULL for stdout)
 * @err: filled on failure
 *
 * The file gets the mode of the file it replaces, or else the mode a plain
 * fopen() would give (0666 less umask), never mkstemp()'s 0600. Until it
 * is closed, SIGINT, SIGTERM or SIGHUP remove it (when their action is
 * still the default) before the process dies of them.
 *
 * Return: the stream, or NULL with @err set and nothing left behind.
 */
FILE *sim_atomic_open(const char *path, char **tmp_path, struct sim_error *err)
{
	static const char suffix[] = ATOMIC_SUFFIX;
	size_t len = strlen(path);
	char *tmp, *real = NULL;
	sigset_t old_set;
	struct stat st;
	mode_t mask, mode;
	FILE *out;
	int fd;

	*tmp_path = NULL;
	if (!strcmp(path, "-"))
		return stdout;
	if (sim_output_check(path, err))
		return NULL;
	/*
	 * A device, FIFO or other non-regular file (/dev/stdout, /dev/null)
	 * is written in place: it cannot be replaced, only written.
	 */
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		out = fopen(path, "w");
		if (out)
			return out;
		sim_error_set(err, path, 0, 0, "cannot write: %s",
			      strerror(errno));
		return NULL;
	}
	/* A symbolic link is followed: the file it names is replaced. */
	if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
		real = realpath(path, NULL);
		if (real)
			path = real;
		len = strlen(path);
	}
	/* A file replaced keeps its mode (a private 0600 stays private). */
	if (!stat(path, &st) && S_ISREG(st.st_mode)) {
		mode = st.st_mode & 0777; /* not setuid, setgid or sticky */
	} else {
		mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	tmp = malloc(len + sizeof(suffix));
	if (!tmp) {
		errno = ENOMEM;
		goto out_err;
	}
	memcpy(tmp, path, len);
	memcpy(tmp + len, suffix, sizeof(suffix));
	atomic_install_handlers();
	atomic_block(&old_set);
	fd = mkstemp(tmp);
	if (fd < 0) {
		sigprocmask(SIG_SETMASK, &old_set, NULL);
		goto out_free_tmp;
	}
	atomic_track(tmp, NULL);
	sigprocmask(SIG_SETMASK, &old_set, NULL);
	if (fchmod(fd, mode))
		goto out_close_fd;
	out = fdopen(fd, "w");
	if (!out)
		goto out_close_fd;
	free(real);
	*tmp_path = tmp;
	return out;

out_close_fd:
	len = (size_t)errno;
	close(fd);
	atomic_block(&old_set);
	unlink(tmp);
	atomic_track(NULL, tmp);
	sigprocmask(SIG_SETMASK, &old_set, NULL);
	errno = (int)len;
out_free_tmp:
	len = (size_t)errno;
	free(tmp);
	errno = (int)len;
out_err:
	/* @path may be @real: named before it is freed. */
	sim_error_set(err, path, 0, 0, "cannot create temporary file: %s",
		      strerror(errno));
	free(real);
	return NULL;
}

/**
 * sim_atomic_close() - finish a file opened by sim_atomic_open().
 * @out: the stream; closed (unless stdout) whatever happens
 * @path: final name
 * @tmp_path: temporary name from sim_atomic_open(); freed
 * @commit: rename the file to @path, or else remove it
 * @err: filled on failure
 *
 * Return: 0, or -1 with @err set and no temporary file left.
 */
int sim_atomic_close(FILE *out, const char *path, char *tmp_path, bool commit,
		     struct sim_error *err)
{
	sigset_t old_set;
	char *final;
	int saved = 0;

	errno = 0;
	if (fflush(out) || ferror(out))
		saved = errno ? errno : EIO;
	if (!tmp_path) {
		/* stdout, or a non-regular file written in place */
		if (out != stdout && fclose(out) && !saved)
			saved = errno ? errno : EIO;
		if (commit && saved)
			goto out_err;
		return 0;
	}
	if (fclose(out) && !saved)
		saved = errno ? errno : EIO;
	if (!commit)
		goto out_unlink;
	if (saved)
		goto out_unlink;
	/* The final name is the temporary one less its suffix (a link's
	 * target, when @path is a symbolic link). */
	final = strndup(tmp_path, strlen(tmp_path) - strlen(ATOMIC_SUFFIX));
	if (!final) {
		saved = ENOMEM;
		goto out_unlink;
	}
	/* An input may have been read since the file was opened. */
	if (sim_output_check(final, err)) {
		free(final);
		goto out_unlink;
	}
	atomic_block(&old_set);
	if (rename(tmp_path, final)) {
		saved = errno;
		sigprocmask(SIG_SETMASK, &old_set, NULL);
		free(final);
		goto out_unlink;
	}
	atomic_track(NULL, tmp_path);
	sigprocmask(SIG_SETMASK, &old_set, NULL);
	free(final);
	free(tmp_path);
	return 0;

out_unlink:
	atomic_block(&old_set);
	unlink(tmp_path);
	atomic_track(NULL, tmp_path);
	sigprocmask(SIG_SETMASK, &old_set, NULL);
	free(tmp_path);
	if (!commit)
		return 0;
	if (!saved)
		return -1; /* refused: @err is set */
out_err:
	sim_error_set(err, path, 0, 0, "cannot write: %s", strerror(saved));
	return -1;
}

/**
 * sim_write_atomic() - create @path whole or not at all.
 * @path: file to create or replace; "-" writes to stdout
 * @write: writer, returns 0 or -1 (with errno set if it can)
 * @arg: passed to @write
 * @err: filled on failure
 *
 * Return: 0, or -1 with @err set (naming @path) and no file left behind.
 */
int sim_write_atomic(const char *path, int (*write)(FILE *out, void *arg),
		     void *arg, struct sim_error *err)
{
	char *tmp;
	FILE *out;
	int saved;

	out = sim_atomic_open(path, &tmp, err);
	if (!out)
		return -1;
	errno = 0;
	if (write(out, arg) == 0)
		return sim_atomic_close(out, path, tmp, true, err);
	saved = errno ? errno : EIO;
	sim_atomic_close(out, path, tmp, false, err);
	sim_error_set(err, path, 0, 0, "cannot write: %s", strerror(saved));
	return -1;
}

/**
 * sim_read_file() - read @path whole.
 * @path: the file
 * @max: the most bytes accepted; 0 for no limit
 * @buf: set to the text, NUL-terminated, which is the caller's to free
 * @len: set to its length, the NUL not counted
 * @err: filled on failure
 *
 * Return: 0, or -1 with @err set (naming @path: "cannot read: REASON",
 * "larger than N MiB" or "out of memory") and *@buf NULL.
 */
/*
 * sim_open_regular() - @path opened to read, without blocking on a FIFO:
 * a result is a regular file. NULL with errno set: EISDIR for a
 * directory, EINVAL for another file that is not regular (a FIFO, a
 * device); sim_open_error() says which.
 */
FILE *sim_open_regular(const char *path)
{
	struct stat st;
	FILE *f;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st)) {
		int e = errno;

		close(fd);
		errno = e;
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return NULL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	f = fdopen(fd, "rb");
	if (!f)
		close(fd);
	return f;
}

/* Why sim_open_regular() failed, from its errno @e. */
const char *sim_open_error(int e)
{
	return e == EINVAL ? "not a regular file" : strerror(e);
}

int sim_read_file(const char *path, size_t max, char **buf, size_t *len,
		  struct sim_error *err)
{
	size_t cap = 4096, n = 0, got;
	char *b, *grown;
	FILE *f;

	*buf = NULL;
	*len = 0;
	f = sim_open_regular(path);
	if (!f) {
		sim_error_set(err, path, 0, 0, "cannot read: %s",
			      sim_open_error(errno));
		return -1;
	}
	b = malloc(cap);
	if (!b)
		goto out_nomem;
	for (;;) {
		got = fread(b + n, 1, cap - n - 1, f);
		n += got;
		if (max && n > max) {
			sim_error_set(err, path, 0, 0, "larger than %zu MiB",
				      max >> 20);
			goto out_free;
		}
		if (!got)
			break;
		if (n + 1 < cap)
			continue;
		/* Room for one byte over @max, so that it is seen. */
		cap = max && cap * 2 > max + 2 ? max + 2 : cap * 2;
		grown = realloc(b, cap);
		if (!grown)
			goto out_nomem;
		b = grown;
	}
	if (ferror(f)) {
		sim_error_set(err, path, 0, 0, "cannot read: %s",
			      strerror(errno ? errno : EIO));
		goto out_free;
	}
	fclose(f);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;

out_nomem:
	sim_error_set(err, path, 0, 0, "out of memory");
out_free:
	free(b);
	fclose(f);
	return -1;
}
