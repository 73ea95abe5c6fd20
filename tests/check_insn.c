// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_insn.c - the instruction costs (models/kernel/insn.h):
 * the compiled table is models/kernel/insn-costs-6.1.tsv row for row;
 * every row has its provenance (the vmlinux symbol and address it was
 * counted in, or the rows it sums, and a rule and a note); every modelled
 * kernel function the model marks with ENTER() has a per-call row, or is
 * one of the few priced elsewhere, each named below with where; and the
 * package the counts came from is named in the file.
 *
 * The data file is found under $top_srcdir (set by the Makefile; "." when
 * run by hand from the source tree).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/kernel/insn.h"
#include "models/kernel/kprof.h"
#include "sim/util.h"

#define MAX_ROWS 256

struct row {
	char fn[64], part[32], symbol[64], addr[64], rule[512], note[512];
	unsigned int insns;
};

static struct row rows[MAX_ROWS];
static unsigned int nr_rows;
static char package[256];

/* Split @line at tabs into at most @n fields; returns how many. */
static unsigned int split(char *line, char **f, unsigned int n)
{
	unsigned int i = 0;
	char *p = line;

	while (i < n) {
		f[i++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p++ = '\0';
	}
	return i;
}

/* Copy @src into @dst of @len bytes, cut to fit. */
static void copy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void load(void)
{
	const char *top = getenv("top_srcdir");
	char path[512], line[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/models/kernel/insn-costs-6.1.tsv",
		 top && top[0] ? top : ".");
	fp = fopen(path, "r");
	ck_assert_msg(fp, "cannot open %s", path);
	nr_rows = 0;
	package[0] = '\0';
	while (fgets(line, sizeof(line), fp)) {
		char *f[8];

		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "# package: ", 11)) {
			copy(package, sizeof(package), line + 11);
			continue;
		}
		if (line[0] == '#' || !line[0])
			continue;
		ck_assert_uint_eq(split(line, f, 8), 8);
		ck_assert_uint_lt(nr_rows, MAX_ROWS);
		copy(rows[nr_rows].fn, sizeof(rows[0].fn), f[0]);
		copy(rows[nr_rows].part, sizeof(rows[0].part), f[1]);
		rows[nr_rows].insns = (unsigned int)strtoul(f[2], NULL, 10);
		copy(rows[nr_rows].symbol, sizeof(rows[0].symbol), f[3]);
		copy(rows[nr_rows].addr, sizeof(rows[0].addr), f[4]);
		copy(rows[nr_rows].rule, sizeof(rows[0].rule), f[5]);
		copy(rows[nr_rows].note, sizeof(rows[0].note), f[7]);
		nr_rows++;
	}
	fclose(fp);
}

/* The file names the Debian package and version the counts came from. */
START_TEST(insn_file_names_its_package)
{
	load();
	ck_assert_msg(strstr(package, "linux-image-") &&
			      strstr(package, "-dbg 6.1."),
		      "package line: '%s'", package);
}
END_TEST

/*
 * The compiled table and the file agree row for row, and every row has a
 * source: a vmlinux symbol with its address (0xADDR+0xSIZE), or, for a
 * sum, the rows it adds up; and a rule and a note.
 */
START_TEST(insn_table_is_the_file)
{
	unsigned int i;

	load();
	ck_assert_uint_eq(nr_rows, NR_INSN_ROWS);
	for (i = 0; i < NR_INSN_ROWS; i++) {
		const struct row *r = &rows[i];

		ck_assert_str_eq(insn_table[i].fn, r->fn);
		ck_assert_str_eq(insn_table[i].part, r->part);
		ck_assert_msg(insn_table[i].insns == r->insns,
			      "%s/%s: table %u, file %u", r->fn, r->part,
			      insn_table[i].insns, r->insns);
		if (!strncmp(r->rule, "sum ", 4))
			ck_assert_msg(strchr(r->rule, '/'), "%s/%s: rule '%s'",
				      r->fn, r->part, r->rule);
		else
			ck_assert_msg(
				r->symbol[0] &&
					!strncmp(r->addr, "0xffffffff", 10) &&
					strchr(r->addr, '+'),
				"%s/%s: no symbol or address", r->fn, r->part);
		ck_assert_msg(r->rule[0] && r->note[0],
			      "%s/%s: no rule or note", r->fn, r->part);
	}
}
END_TEST

/*
 * Every kernel function of the profile table has its per-call row, but
 * the workload pseudo-functions and the four priced elsewhere:
 * try_to_free_mem_cgroup_pages (reclaim: the reclaim_ns key),
 * mem_cgroup_under_socket_pressure (per level of its walk, its level row),
 * memory_stat_show (per printed line, memory_stat/item) and
 * count_memcg_events (in __count_memcg_events(), which others call too).
 */
START_TEST(insn_every_function_has_a_cost)
{
	unsigned int f;

	for (f = 0; f < NR_KPROF_FNS; f++) {
		const char *name = kprof_name((enum kprof_fn)f);
		int row = insn_row_of((enum kprof_fn)f);

		if (name[0] == '[') {
			ck_assert_int_eq(row, -1);
			continue;
		}
		if (f == KF_try_to_free_mem_cgroup_pages ||
		    f == KF_mem_cgroup_under_socket_pressure ||
		    f == KF_memory_stat_show || f == KF_count_memcg_events) {
			ck_assert_int_eq(row, -1);
			continue;
		}
		ck_assert_msg(row >= 0 && row < NR_INSN_ROWS,
			      "%s has no instruction cost", name);
		ck_assert_msg(insn_table[row].insns > 0, "%s: 0 instructions",
			      name);
	}
	ck_assert_uint_gt(
		insn_table[INSN_mem_cgroup_under_socket_pressure_level].insns,
		0);
	ck_assert_uint_gt(insn_table[INSN_memory_stat_item].insns, 0);
	ck_assert_uint_gt(insn_table[INSN_memcg_kmem_get_cache].insns, 0);
	ck_assert_uint_gt(insn_table[INSN_count_memcg_events].insns, 0);
}
END_TEST

/*
 * A sum row is its parts: memory.stat's line is the item and the printf
 * chain (1 x each call, 4 format turns and decodes, 12 characters of the
 * name, one number: put_dec and its tail call put_dec_trunc8), read off
 * the file's rows by name.
 */
static unsigned int file_insns(const char *fn, const char *part)
{
	unsigned int i;

	for (i = 0; i < nr_rows; i++)
		if (!strcmp(rows[i].fn, fn) && !strcmp(rows[i].part, part))
			return rows[i].insns;
	ck_abort_msg("no row %s/%s", fn, part);
	return 0;
}

START_TEST(insn_memory_stat_line_is_its_parts)
{
	load();
	ck_assert_uint_eq(file_insns("memory_stat", "item"),
			  file_insns("memory_stat_format", "item") +
				  file_insns("seq_buf_printf", "call") +
				  file_insns("seq_buf_vprintf", "call") +
				  file_insns("vsnprintf", "call") +
				  4 * file_insns("vsnprintf", "spec") +
				  4 * file_insns("format_decode", "call") +
				  file_insns("string", "call") +
				  12 * file_insns("string", "char") +
				  file_insns("number", "call") +
				  file_insns("put_dec", "call") +
				  file_insns("put_dec_trunc8", "call"));
}
END_TEST

static Suite *insn_suite(void)
{
	Suite *s = suite_create("insn");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, insn_file_names_its_package);
	tcase_add_test(tc, insn_table_is_the_file);
	tcase_add_test(tc, insn_every_function_has_a_cost);
	tcase_add_test(tc, insn_memory_stat_line_is_its_parts);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(insn_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
