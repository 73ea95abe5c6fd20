/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/error.h - the three tiers of error handling.
 *
 * 1. Bugs in the simulator: SIM_BUG_ON(cond), always compiled in, routed
 *    through one noreturn function (place a debugger breakpoint there).
 * 2. Modelled kernel outcomes use the kernel's conventions (0/-ENOMEM, bool);
 *    nothing here.
 * 3. User input errors (scenario YAML, command line) fill a struct sim_error
 *    that carries file:line:col up to main(), which prints it in the GNU
 *    format editors understand:
 *
 *	scenarios/x.yaml:12:5: error: unknown key 'nr_cpu' in 'machine'
 *
 * Layering: a low-level primitive; includes nothing else from sim/.
 */
#ifndef SIM_ERROR_H
#define SIM_ERROR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>

#define SIM_ERROR_FILE_MAX 512
#define SIM_ERROR_MSG_MAX 1024

/**
 * struct sim_error - a user-input error, or none.
 * @file: file the error is in ("" for the command line)
 * @line: one-based line, 0 if unknown
 * @col: one-based column, 0 if unknown
 * @msg: what is wrong: the key, what was expected, what was found
 *
 * Invariant: @msg[0] == '\0' means "no error".
 */
struct sim_error {
	char file[SIM_ERROR_FILE_MAX];
	unsigned int line, col;
	char msg[SIM_ERROR_MSG_MAX];
};

void sim_error_clear(struct sim_error *err);
void sim_error_set(struct sim_error *err, const char *file, unsigned int line,
		   unsigned int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void sim_error_vset(struct sim_error *err, const char *file, unsigned int line,
		    unsigned int col, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));
/* The longest line sim_error_format() writes, its NUL included. */
#define SIM_ERROR_LINE_MAX (SIM_ERROR_FILE_MAX + SIM_ERROR_MSG_MAX + 64)

/*
 * sim_error_format() - @err as the one line sim_error_print() prints,
 * without its newline, in GNU form: "file:line:col: error: message".
 */
void sim_error_format(const struct sim_error *err, char *buf, size_t len);
void sim_error_print(FILE *out, const struct sim_error *err);
/*
 * sim_escape() - @s with control and bidi characters written out (\x1b,
 * \u202e), as error messages quote it, for any other line that shows a
 * name or path from the user (progress lines, tables). Returns @buf.
 */
const char *sim_escape(char *buf, size_t size, const char *s);
const char *sim_control_char(char *what, size_t size, const unsigned char *s,
			     size_t len, bool allow_newline);

/* Edit distance, for "did you mean" suggestions. */
unsigned int sim_levenshtein(const char *a, const char *b);
const char *sim_nearest(const char *word, const char *const *choices,
			unsigned int nr_choices);

__attribute__((noreturn)) void sim_assert_failed(const char *file,
						 const char *func, int line,
						 const char *expr);

/*
 * Out of memory. An allocation that fails is no bug and no input error:
 * SIM_OOM_ON(!p) hands it to sim_out_of_memory(), which unwinds with
 * longjmp() to the innermost sim_oom_catch() point (cmd/run/run.c's
 * scenario_run(), and main() for everything else), where it becomes an
 * error that reaches main(): "out of memory in rstat_create()". What was
 * allocated until then is not freed (the program ends, or a sweep's
 * child does); nothing is exited below main(). SIM: C has no exceptions,
 * and the alternative, an error path out of every allocation in the
 * models' set-up and the coroutines, would double the models' code for a
 * case a run's memory estimate refuses before it starts.
 *
 * sim_oom_catch() - make @env (set with setjmp()) the place to unwind
 * to; returns the previous one, which sim_oom_restore() puts back.
 * sim_oom_where() - the function that failed, for the message.
 */
jmp_buf *sim_oom_catch(jmp_buf *env);
void sim_oom_restore(jmp_buf *prev);
const char *sim_oom_where(void);
/* main() is sim_oom_main(its body, argc, argv, exit status on OOM) */
int sim_oom_main(int (*fn)(int argc, char **argv), int argc, char **argv,
		 int status);
__attribute__((noreturn)) void sim_out_of_memory(const char *file,
						 const char *func);

#define SIM_OOM_ON(cond)                                       \
	do {                                                   \
		if (__builtin_expect(!!(cond), 0))             \
			sim_out_of_memory(__FILE__, __func__); \
	} while (0)

#define SIM_BUG_ON(cond)                                                \
	do {                                                            \
		if (__builtin_expect(!!(cond), 0))                      \
			sim_assert_failed(__FILE__, __func__, __LINE__, \
					  #cond);                       \
	} while (0)

#endif /* SIM_ERROR_H */
