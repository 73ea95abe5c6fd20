// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz/sandbox.c - the directory the fuzz harnesses work in, and the
 * wrappers that keep the readers inside it (see fuzz/fuzz.h).
 *
 * Not part of memcgsim: linked only into the fuzz targets and the replay
 * programs of `make check`.
 */
#define _GNU_SOURCE /* nftw(), FTW_DEPTH */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "fuzz/fuzz.h"

#ifndef FUZZ_SRCDIR
#error "FUZZ_SRCDIR: the source tree, for the shipped machine profiles"
#endif

static char sandbox[PATH_MAX];
static bool confined;

void fuzz_assert(int cond, const char *what, const char *file, int line)
{
	if (cond)
		return;
	fprintf(stderr, "%s:%d: fuzz assertion failed: %s\n", file, line, what);
	abort();
}

static void die(const char *what, const char *path)
{
	fprintf(stderr, "fuzz sandbox: %s %s: %s\n", what, path,
		strerror(errno));
	abort();
}

/* @buf (FUZZ_PATH_MAX bytes) = the path printf() makes of @fmt. */
static void path_printf(char *buf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void path_printf(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, FUZZ_PATH_MAX, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= FUZZ_PATH_MAX) {
		errno = ENAMETOOLONG;
		die("path too long:", buf);
	}
}

/* Copy every regular file of FUZZ_SRCDIR/scenarios/@sub to @sub. */
static void copy_dir(const char *sub)
{
	char from[FUZZ_PATH_MAX], to[FUZZ_PATH_MAX], buf[65536];
	struct dirent *de;
	size_t n;
	FILE *in, *out;
	DIR *d;

	path_printf(to, "%s/%s", sandbox, sub);
	if (mkdir(to, 0700))
		die("cannot create", to);
	path_printf(from, "%s/scenarios/%s", FUZZ_SRCDIR, sub);
	d = opendir(from);
	if (!d)
		die("cannot read", from);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		path_printf(from, "%s/scenarios/%s/%s", FUZZ_SRCDIR, sub,
			    de->d_name);
		path_printf(to, "%s/%s/%s", sandbox, sub, de->d_name);
		in = fopen(from, "rb");
		if (!in)
			die("cannot read", from);
		out = fopen(to, "wb");
		if (!out)
			die("cannot write", to);
		while ((n = fread(buf, 1, sizeof(buf), in)))
			if (fwrite(buf, 1, n, out) != n)
				die("cannot write", to);
		fclose(in);
		if (fclose(out))
			die("cannot write", to);
	}
	closedir(d);
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	remove(path);
	return 0;
}

static void remove_sandbox(void)
{
	if (sandbox[0])
		nftw(sandbox, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * Remove the sandboxes in @tmp of processes that are gone: a finding
 * ends the process without atexit(), and libFuzzer's -minimize_crash
 * runs many that do.
 */
static void remove_stale(const char *tmp)
{
	static const char prefix[] = "memcgsim-fuzz.";
	struct dirent *de;
	char *end;
	long pid;
	DIR *d = opendir(tmp);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, prefix, sizeof(prefix) - 1))
			continue;
		pid = strtol(de->d_name + sizeof(prefix) - 1, &end, 10);
		if (*end != '.' || pid <= 0 || !kill((pid_t)pid, 0) ||
		    errno != ESRCH)
			continue;
		path_printf(sandbox, "%s/%s", tmp, de->d_name);
		remove_sandbox();
	}
	closedir(d);
	sandbox[0] = '\0';
}

const char *fuzz_sandbox(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[FUZZ_PATH_MAX];

	if (sandbox[0])
		return sandbox;
	if (!tmp || !tmp[0])
		tmp = "/tmp";
	remove_stale(tmp);
	path_printf(dir, "%s/memcgsim-fuzz.%ld.XXXXXX", tmp, (long)getpid());
	if (!mkdtemp(dir))
		die("cannot create", dir);
	/* the real path, so that fuzz_allowed() can compare prefixes */
	if (!realpath(dir, sandbox))
		die("cannot resolve", dir);
	atexit(remove_sandbox);
	copy_dir("machines");
	copy_dir("layouts");
	path_printf(dir, "%s/work", sandbox);
	if (mkdir(dir, 0700))
		die("cannot create", dir);
	return sandbox;
}

void fuzz_write(const char *name, const void *data, size_t size, char *path)
{
	bool was = confined;
	FILE *f;

	path_printf(path, "%s/%s", fuzz_sandbox(), name);
	confined = false; /* the file may not exist yet */
	f = fopen(path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		die("cannot write", path);
	confined = was;
}

void fuzz_enter(void)
{
	confined = true;
}

void fuzz_leave(void)
{
	confined = false;
}

/*
 * libFuzzer's own artifacts (-artifact_prefix plus crash-, timeout-,
 * leak-, oom-, slow-unit-, minimized-from- and a hash), which it writes
 * from its crash and alarm handlers, while a harness is still confined:
 * refused, a finding's input was lost (the 2026-12-02 hour-long run lost
 * two timeouts this way, and the earlier calibrate crash its input).
 * Only in a directory named artifacts, where fuzz.mk puts them, so that
 * an input cannot use the names to write elsewhere.
 */
static bool fuzz_artifact(const char *path)
{
	static const char *const names[] = { "crash-",	   "timeout-",
					     "leak-",	   "oom-",
					     "slow-unit-", "minimized-from-" };
	const char *base = strrchr(path, '/');
	size_t i;

	/* in a directory named artifacts, as fuzz.mk's -artifact_prefix */
	if (!base || base - path < 9 || strncmp(base - 9, "artifacts", 9) ||
	    (base - path > 9 && base[-10] != '/'))
		return false;
	base++;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(base, names[i], strlen(names[i])))
			return true;
	return false;
}

/*
 * Whether @path may be opened now: inside the sandbox, links resolved,
 * or, @creating, one of libFuzzer's artifacts.
 */
static bool fuzz_allowed(const char *path, bool creating)
{
	char real[PATH_MAX];
	size_t len = strlen(sandbox);

	if (!confined || (creating && fuzz_artifact(path)))
		return true;
	if (!realpath(path, real)) {
		/* a file to create: its directory must be in the sandbox */
		char dir[FUZZ_PATH_MAX], *slash;
		size_t n = strlen(path);

		if (errno != ENOENT || n >= sizeof(dir))
			return false;
		memcpy(dir, path, n + 1);
		slash = strrchr(dir, '/');
		if (!slash)
			return false; /* the harnesses use absolute paths */
		*slash = '\0';
		if (!realpath(dir, real))
			return false;
	}
	if (strncmp(real, sandbox, len) || (real[len] && real[len] != '/')) {
		errno = EACCES;
		return false;
	}
	return true;
}

/* The linker's --wrap: calls to open() come here, __real_open is libc's. */
int __real_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...);
int __real_open64(const char *path, int flags, ...);
int __wrap_open64(const char *path, int flags, ...);
FILE *__real_fopen(const char *path, const char *mode);
FILE *__wrap_fopen(const char *path, const char *mode);
FILE *__real_fopen64(const char *path, const char *mode);
FILE *__wrap_fopen64(const char *path, const char *mode);

static mode_t open_mode(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ?
		       (mode_t)va_arg(ap, int) :
		       0;
}

int __wrap_open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	if (!fuzz_allowed(path, flags & O_CREAT))
		return -1;
	return __real_open(path, flags, mode);
}

int __wrap_open64(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	if (!fuzz_allowed(path, flags & O_CREAT))
		return -1;
	return __real_open64(path, flags, mode);
}

FILE *__wrap_fopen(const char *path, const char *mode)
{
	return fuzz_allowed(path, strchr(mode, 'w') || strchr(mode, 'a')) ?
		       __real_fopen(path, mode) :
		       NULL;
}

FILE *__wrap_fopen64(const char *path, const char *mode)
{
	return fuzz_allowed(path, strchr(mode, 'w') || strchr(mode, 'a')) ?
		       __real_fopen64(path, mode) :
		       NULL;
}
