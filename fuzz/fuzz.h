/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz/fuzz.h - what the fuzz harnesses (fuzz/fuzz_*.c) share.
 *
 * Theory of operation: each harness defines LLVMFuzzerTestOneInput(), the
 * libFuzzer entry point, which feeds one input to one reader. The same
 * file builds two ways: with clang -fsanitize=fuzzer for `make fuzz`
 * (fuzz/fuzz.mk), and with the normal compiler and fuzz/replay.c's main()
 * for `make check`, which replays the committed corpus and every input
 * that once crashed (tests/run-fuzz.sh).
 *
 * The sandbox: readers that follow file names found in their input (a
 * scenario's `machine:` and `kernel.page_counter_pahole:`) must not read
 * the fuzzing machine's files. Every harness works in a fresh directory,
 * fuzz_sandbox(), holding copies of the shipped machine profiles and
 * layouts, and the program is linked with -Wl,--wrap=open,--wrap=fopen
 * (and their 64-bit names), so that between fuzz_enter() and fuzz_leave()
 * any file outside the sandbox fails to open (EACCES). libFuzzer's own
 * files, opened outside that window, are not affected.
 *
 * Harnesses keep no state from one input to the next but the sandbox,
 * and free all they allocate: libFuzzer runs with -detect_leaks=1.
 */
#ifndef FUZZ_FUZZ_H
#define FUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * fuzz_sandbox() - the sandbox directory, created on first use (under
 * $TMPDIR, else /tmp) with machines/ and layouts/ copied from the source
 * tree and an empty work/ for the input; removed at exit, or, when the
 * process ended on a finding, by the next harness to start.
 */
const char *fuzz_sandbox(void);

/*
 * fuzz_write() - write @size bytes at @data to the file @name inside the
 * sandbox; its full path goes to @path (FUZZ_PATH_MAX bytes).
 */
#define FUZZ_PATH_MAX 4096
void fuzz_write(const char *name, const void *data, size_t size, char *path);

/* Confine file opens to the sandbox, and lift that again. */
void fuzz_enter(void);
void fuzz_leave(void);

/* Abort (a finding) unless @cond: a reader broke its own contract. */
#define FUZZ_ASSERT(cond) fuzz_assert(cond, #cond, __FILE__, __LINE__)
void fuzz_assert(int cond, const char *what, const char *file, int line);

#endif /* FUZZ_FUZZ_H */
