// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/file.c - files written whole or not at all (see sim/file.h).
 */
#define _XOPEN_SOURCE 700 /* realpath(), strndup() */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/file.h"

/* What sim_atomic_open() appends to the final name for the temporary one. */
#define ATOMIC_SUFFIX ".tmpXXXXXX"

/**
 * sim_atomic_open() - open a temporary file next to @path.
 * @path: final name, or "-" for stdout
 * @tmp_path: receives the temporary name (NULL for stdout)
 * @err: filled on failure
 *
 * The file gets the mode a plain fopen() would give (0666 less umask),
 * not mkstemp()'s 0600.
 *
 * Return: the stream, or NULL with @err set and nothing left behind.
 */
FILE *sim_atomic_open(const char *path, char **tmp_path, struct sim_error *err)
{
	static const char suffix[] = ATOMIC_SUFFIX;
	size_t len = strlen(path);
	char *tmp, *real = NULL;
	struct stat st;
	mode_t mask;
	FILE *out;
	int fd;

	*tmp_path = NULL;
	if (!strcmp(path, "-"))
		return stdout;
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
	tmp = malloc(len + sizeof(suffix));
	if (!tmp) {
		errno = ENOMEM;
		goto out_err;
	}
	memcpy(tmp, path, len);
	memcpy(tmp + len, suffix, sizeof(suffix));
	free(real);
	real = NULL;
	fd = mkstemp(tmp);
	if (fd < 0)
		goto out_free_tmp;
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask))
		goto out_close_fd;
	out = fdopen(fd, "w");
	if (!out)
		goto out_close_fd;
	*tmp_path = tmp;
	return out;

out_close_fd:
	len = (size_t)errno;
	close(fd);
	unlink(tmp);
	errno = (int)len;
out_free_tmp:
	len = (size_t)errno;
	free(tmp);
	errno = (int)len;
out_err:
	len = (size_t)errno;
	free(real);
	errno = (int)len;
	sim_error_set(err, path, 0, 0, "cannot create temporary file: %s",
		      strerror(errno));
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
	if (rename(tmp_path, final)) {
		saved = errno;
		free(final);
		goto out_unlink;
	}
	free(final);
	free(tmp_path);
	return 0;

out_unlink:
	unlink(tmp_path);
	free(tmp_path);
	if (!commit)
		return 0;
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
int sim_read_file(const char *path, size_t max, char **buf, size_t *len,
		  struct sim_error *err)
{
	size_t cap = 4096, n = 0, got;
	FILE *f = fopen(path, "rb");
	char *b, *grown;

	*buf = NULL;
	*len = 0;
	if (!f) {
		sim_error_set(err, path, 0, 0, "cannot read: %s",
			      strerror(errno));
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
