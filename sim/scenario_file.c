// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim/scenario_file.c - reading a scenario (or a machine profile, or
 * results) from a file for sim/scenario.c's parser.
 *
 * The file is opened without blocking and must be a regular file: a FIFO
 * or a device would block forever or never end (issue 14). At most 16 MiB
 * plus one byte are read, so that the parser refuses a larger file.
 *
 * Layering: sim/ primitive, part of the scenario module.
 */
#define _XOPEN_SOURCE 700 /* fdopen(), O_CLOEXEC, S_ISSOCK */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/file.h"
#include "sim/scenario.h"
#include "sim/scenario_internal.h"

/*
 * Read @f into a new buffer, but at most SCENARIO_MAX_BYTES + 1 bytes: one
 * more than a scenario may have, so that the parser refuses the file.
 */
static int read_whole(FILE *f, unsigned char **out, size_t *out_len)
{
	size_t cap = 4096, len = 0;
	unsigned char *buf = malloc(cap), *bigger;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		len += fread(buf + len, 1, cap - len, f);
		if (len < cap || len > SCENARIO_MAX_BYTES)
			break;
		cap *= 2;
		if (cap > SCENARIO_MAX_BYTES + 1)
			cap = SCENARIO_MAX_BYTES + 1;
		bigger = realloc(buf, cap);
		if (!bigger) {
			free(buf);
			return -ENOMEM;
		}
		buf = bigger;
	}
	if (ferror(f)) {
		free(buf);
		return -EIO;
	}
	*out = buf;
	*out_len = len;
	return 0;
}

/* What a non-regular file is, for "not a regular file (...)". */
static const char *file_type(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a file";
}

/**
 * scenario_open_regular() - open @path for reading if it is a regular file.
 * @path: the file
 * @what: what it should be, for messages ("scenario", "machine profile")
 * @err: filled on failure
 *
 * The file is opened without blocking and checked with fstat() before
 * anything is read: a FIFO, a device or a directory is refused at once
 * instead of blocking forever or reading without end.
 *
 * Return: the open stream, or NULL with @err set.
 */
FILE *scenario_open_regular(const char *path, const char *what,
			    struct sim_error *err)
{
	struct stat st;
	int fd, flags;
	FILE *f;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		sim_error_set(err, path, 0, 0, "cannot open %s: %s", what,
			      strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st)) {
		sim_error_set(err, path, 0, 0, "cannot read %s: %s", what,
			      strerror(errno));
		close(fd);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		sim_error_set(err, path, 0, 0, "cannot read %s: %s", what,
			      strerror(EISDIR));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		sim_error_set(err, path, 0, 0,
			      "cannot read %s: not a regular file (%s)", what,
			      file_type(st.st_mode));
		close(fd);
		return NULL;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	sim_input_note(fd);
	f = fdopen(fd, "rb");
	if (!f) {
		sim_error_set(err, path, 0, 0, "cannot open %s: %s", what,
			      strerror(errno));
		close(fd);
	}
	return f;
}

/**
 * scenario_load_named() - read and parse the YAML file @path.
 * @path: file to read; also the file name of every node and error
 * @what: what the file is, for messages ("scenario", "machine profile")
 * @err: filled on failure
 *
 * Return: a tree owned by the caller, whose root is a map, or NULL with
 * @err set (the file is no regular file, cannot be read, is larger than
 * 16 MiB, is not YAML, is empty or is not a map).
 */
struct scenario_node *scenario_load_named(const char *path, const char *what,
					  struct sim_error *err)
{
	struct scenario_node *root;
	unsigned char *buf;
	size_t len;
	FILE *f;
	int ret;

	sim_error_clear(err);
	f = scenario_open_regular(path, what, err);
	if (!f)
		return NULL;
	errno = 0;
	ret = read_whole(f, &buf, &len);
	if (ret == -EIO && errno)
		ret = -errno;
	fclose(f);
	if (ret) {
		sim_error_set(err, path, 0, 0, "cannot read %s: %s", what,
			      strerror(-ret));
		return NULL;
	}
	root = scenario_parse_buffer(path, buf, len, err);
	free(buf);
	return root;
}

/**
 * scenario_load_file() - read and parse the scenario file @path.
 * @path: file to read; also the file name of every node and error
 * @err: filled on failure
 *
 * Return: as scenario_load_named().
 */
struct scenario_node *scenario_load_file(const char *path,
					 struct sim_error *err)
{
	return scenario_load_named(path, "scenario", err);
}
