/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/file.h - files written whole or not at all.
 *
 * Theory of operation: every result file memcgsim writes (reports, sweep
 * points and merges, plot data and pictures, traces) goes to a temporary
 * file next to its final name, PATH.tmpXXXXXX, which is renamed to PATH
 * once it is complete and removed otherwise. A reader therefore sees the
 * old file or the new one, never half of one, and a failed or interrupted
 * writer leaves nothing behind (short of SIGKILL in the middle of a write,
 * whose leftover PATH.tmpXXXXXX no reader mistakes for a result). There is
 * no fsync(): the point is readers of a live system, not crash safety.
 *
 *	sim_atomic_open("r.csv")  -> FILE on r.csv.tmpAbc123 (mode 0666 & ~umask)
 *	... write ...
 *	sim_atomic_close(commit)  -> rename r.csv.tmpAbc123 r.csv
 *	sim_atomic_close(!commit) -> unlink r.csv.tmpAbc123
 *
 * "-" is standard output, written in place, as are devices and FIFOs
 * (/dev/null, /dev/stdout), which cannot be replaced, only written. A
 * symbolic link is followed: the file it names is replaced.
 *
 * sim_read_file() is the other direction: a result file read whole, with
 * a limit on its size, for the readers that parse it in memory (plot,
 * merge).
 *
 * Layering: sim/ primitive; uses sim/error.h only.
 */
#ifndef SIM_FILE_H
#define SIM_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sim/error.h"

/*
 * sim_write_atomic() - create @path whole or not at all. @write is called
 * with a FILE open on a temporary file next to @path and returns 0 or -1.
 * Return 0, or -1 with @err set (naming @path) and no file left behind.
 */
int sim_write_atomic(const char *path, int (*write)(FILE *out, void *arg),
		     void *arg, struct sim_error *err);

/*
 * The two halves of sim_write_atomic(), for writers that stream over a
 * whole run (sim/trace.c) or hand the temporary name to another program
 * (cmd/plot/draw.c). sim_atomic_open() returns a FILE on a new temporary
 * file next to @path and stores its name in *@tmp_path (NULL, and stdout
 * returned, when @path is "-"). sim_atomic_close() takes the
 * responsibility for @out and *@tmp_path whatever happens: with @commit it
 * renames the temporary file to @path, otherwise it removes it.
 */
FILE *sim_atomic_open(const char *path, char **tmp_path, struct sim_error *err);
int sim_atomic_close(FILE *out, const char *path, char *tmp_path, bool commit,
		     struct sim_error *err);

/*
 * Outputs never replace inputs. sim_input_note() remembers the regular
 * file open on @fd as an input of this process, sim_input_note_path() the
 * file @path names: the scenario loader notes every file it reads (a
 * scenario, a profile, a measurement file), the readers of results note
 * theirs; a command's own state (sweep.meta, a sweep's points), which it
 * reads and writes again, is not an input: sim_input_forget_path() takes
 * it off the list once read. sim_output_check() returns -1 with @err
 * set when @path, its links followed, is such a file (0 for "-", a new
 * name or another file). sim_atomic_open() and sim_atomic_close() refuse
 * such a @path; a command checks its outputs itself once its inputs are
 * read, to refuse them as bad usage before any work.
 */
void sim_input_note(int fd);
void sim_input_note_path(const char *path);
void sim_input_forget_path(const char *path);
int sim_output_check(const char *path, struct sim_error *err);

/*
 * sim_open_regular() - @path opened to read, refused at once (NULL,
 * errno EISDIR or EINVAL) unless it is a regular file, never blocking on
 * a FIFO; sim_open_error(errno) is the message's reason.
 */
FILE *sim_open_regular(const char *path);
const char *sim_open_error(int e);

/*
 * sim_read_file() - the whole of @path in memory, NUL-terminated, for the
 * readers of results (at most @max bytes; 0 for no limit).
 */
int sim_read_file(const char *path, size_t max, char **buf, size_t *len,
		  struct sim_error *err);

#endif /* SIM_FILE_H */
