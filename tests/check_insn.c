// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_insn.c - the instruction costs (models/kernel/sim/insn.h):
 * the compiled table is models/kernel/sim/insn-costs-6.1.tsv row for row;
 * every row has its provenance (the vmlinux symbol and address it was
 * counted in, or the rows it sums, and a rule and a note); every modelled
 * kernel function the model marks with ENTER() has a per-call row, or is
 * one of the few priced elsewhere, each named below with where; and the
 * package the counts came from is named in the file. The rows of the
 * paths modelled since (shmem, the mm's locks, SCTP, the fair class's
 * wake-up, the slab hooks) are each required by name, and one SCTP
 * chunk's cost is worked out by hand.
 *
 * The data file is found under $top_srcdir (set by the Makefile; "." when
 * run by hand from the source tree).
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/cache.h"
#include "models/hw/machine.h"
#include "models/kernel/sim/config.h"
#include "models/kernel/sim/insn.h"
#include "models/kernel/sim/kprof.h"
#include "models/kernel/mm/memcontrol.h"
#include "models/kernel/net/sctp/sctp.h"
#include "sim/co.h"
#include "sim/engine.h"
#include "sim/util.h"
#include "tests/harness.h"
#include "tests/machine_test.h"

#define MAX_ROWS 256

struct row {
	char fn[64], part[32], symbol[64], addr[64], rule[512], note[512];
	unsigned int insns;
};

static struct row rows[MAX_ROWS];
static unsigned int nr_rows;
static char package[256];
static char module[256]; /* the "# module:" lines */

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

	snprintf(path, sizeof(path), "%s/models/kernel/sim/insn-costs-6.1.tsv",
		 top && top[0] ? top : ".");
	fp = fopen(path, "r");
	ck_assert_msg(fp, "cannot open %s", path);
	nr_rows = 0;
	package[0] = '\0';
	module[0] = '\0';
	while (fgets(line, sizeof(line), fp)) {
		char *f[8];

		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "# package: ", 11)) {
			copy(package, sizeof(package), line + 11);
			continue;
		}
		if (!strncmp(line, "# module: ", 10)) {
			strncat(module, line + 10,
				sizeof(module) - strlen(module) - 1);
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

/* A "# module:" line names the module of @symbol ("sctp.ko:NAME"). */
static bool module_named(const char *symbol)
{
	char name[64];
	size_t n = strcspn(symbol, ":");

	if (n + 2 >= sizeof(name))
		return false;
	memcpy(name, symbol, n);
	strcpy(name + n, " ");
	return strstr(module, name) != NULL; /* ".../sctp.ko (symbols" */
}

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
		else if (strstr(r->symbol, ".ko:"))
			/* a module's: its .text offset, named in the header */
			ck_assert_msg(!strncmp(r->addr, "0x", 2) &&
					      strchr(r->addr, '+') &&
					      module_named(r->symbol),
				      "%s/%s: no module, symbol or address",
				      r->fn, r->part);
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
 * Every kernel function of the profile table has its per-call row, of
 * its own name (or its __ variant; a table entry left out would be row 0,
 * try_charge_memcg's, and fail here), but the workload pseudo-functions
 * and the five priced elsewhere:
 * try_to_free_mem_cgroup_pages (reclaim: the reclaim_ns key),
 * mem_cgroup_under_socket_pressure (per level of its walk, its level row),
 * memory_stat_show (per printed line, memory_stat/item),
 * count_memcg_events (in __count_memcg_events(), which others call too)
 * and mod_objcg_state (by obj_stock_version: its call row at v6.0,
 * mod_objcg_mlstate's at v5.13).
 */
static int same_function(const char *kf, const char *row)
{
	size_t n = strcspn(kf, ":"); /* try_charge_memcg:high */

	while (!strncmp(kf, "__", 2) && n > 2)
		kf += 2, n -= 2;
	while (!strncmp(row, "__", 2))
		row += 2;
	return strlen(row) == n && !strncmp(kf, row, n);
}

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
		    f == KF_memory_stat_show || f == KF_count_memcg_events ||
		    f == KF_mod_objcg_state ||
		    /*
		     * the LRU functions (models/kernel/mm/swap.h): no
		     * vmlinux was at hand to count them, so their
		     * instructions stay in the workloads' work_ns
		     */
		    f == KF_folio_batch_move_lru || f == KF_lru_add_drain ||
		    f == KF_release_pages || f == KF__raw_spin_lock_irqsave) {
			ck_assert_int_eq(row, -1);
			continue;
		}
		ck_assert_msg(row >= 0 && row < NR_INSN_ROWS,
			      "%s has no instruction cost", name);
		ck_assert_msg(insn_table[row].insns > 0, "%s: 0 instructions",
			      name);
		ck_assert_msg(same_function(name, insn_table[row].fn),
			      "%s is charged the row of %s", name,
			      insn_table[row].fn);
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

/*
 * The rows of the paths modelled after the first table, by name from the
 * file (a lost row aborts here): the tmpfs page cache (page_fault2/3,
 * fallocate), the mm's locks, SCTP's accounting, the fair class's
 * wake-up, the slab hooks of kmem_accounting: objects and the objcg
 * lookup of every slab allocation. Each is an instruction count of the
 * 6.1 binary: more than 0, and under 200 on these short paths.
 */
START_TEST(insn_new_paths_have_rows)
{
	static const char *const need[][2] = {
		{ "shmem_get_folio_gfp", "call" },
		{ "shmem_get_folio_gfp", "cached" },
		{ "shmem_add_to_page_cache", "call" },
		{ "shmem_undo_range", "call" },
		{ "shmem_undo_range", "folio" },
		{ "filemap_unaccount_folio", "call" },
		{ "down_read", "call" },
		{ "up_read", "call" },
		{ "down_write", "call" },
		{ "up_write", "call" },
		{ "down_read_trylock", "call" },
		{ "sctp_set_owner_w", "call" },
		{ "sctp_wfree", "call" },
		{ "sctp_sock_rfree", "call" },
		{ "sctp_ulpevent_receive_data", "call" },
		{ "select_task_rq_fair", "call" },
		{ "available_idle_cpu", "call" },
		{ "memcg_slab_pre_alloc_hook", "call" },
		{ "memcg_slab_post_alloc_hook", "call" },
		{ "memcg_slab_free_hook", "call" },
		{ "mod_objcg_state", "call" },
		{ "mod_objcg_mlstate", "call" },
		{ "__account_obj_stock", "call" },
		{ "mod_memcg_lruvec_state", "call" },
		{ "get_obj_cgroup_from_current", "call" },
		{ "__get_obj_cgroup_from_memcg", "call" },
	};
	unsigned int i, n;

	load();
	for (i = 0; i < ARRAY_SIZE(need); i++) {
		n = file_insns(need[i][0], need[i][1]);
		ck_assert_msg(n > 0 && n < 200, "%s/%s: %u", need[i][0],
			      need[i][1], n);
	}
	/* the shmem functions are profiled, and charged their rows */
	ck_assert_int_eq(insn_row_of(KF_shmem_add_to_page_cache),
			 INSN_shmem_add_to_page_cache);
	ck_assert_int_eq(insn_row_of(KF_shmem_get_folio_gfp),
			 INSN_shmem_get_folio_gfp);
	ck_assert_int_eq(insn_row_of(KF_shmem_undo_range),
			 INSN_shmem_undo_range);
}
END_TEST

/*
 * One SCTP chunk, by hand, on skx-2s-72 (insn 0.471 ns: 471 ps), for a
 * socket without a memcg (the root memcg's, as netperf-sctp's root
 * variant runs it): nothing is charged to a memcg and no modelled line
 * is touched, so the time is the instructions alone.
 *   sctp_sendmsg_to_asoc() of 16384 bytes: sk_wmem_schedule() raises
 *     the forward allocation (no memcg: no charge), sctp_set_owner_w()
 *     of the chunk: 46 instructions (sctp.ko, insn-costs-6.1.tsv):
 *     46 x 471 = 21666 ps;
 *   sctp_sock_rfree() of the received packet: 10 instructions,
 *     sk_mem_uncharge() returns the pages with no memcg work:
 *     10 x 471 = 4710 ps.
 */
START_TEST(insn_sctp_chunk_by_hand)
{
	struct sock sk = { 0 };

	load();
	harness_setup("skx-2s-72", 1, 8192);
	ck_assert_uint_eq(h.m.insn_ps, 471);
	h.k.sk_reclaim = SK_RECLAIM_PAGE;
	harness_cgroup("/", -1);
	harness_create();

	ck_assert_uint_eq(file_insns("sctp_set_owner_w", "call"), 46);
	ck_assert_uint_eq(file_insns("sctp_sock_rfree", "call"), 10);
	HARNESS_CALL(sctp_sendmsg_to_asoc, 0, .sk = &sk, .msg_len = 16384);
	ck_assert_uint_eq(h.last_ps, 46 * 471);
	ck_assert_int_lt(sk.sk_forward_alloc, 0); /* the chunk charged */
	HARNESS_CALL(sctp_sock_rfree, 0, .sk = &sk, .msg_len = 16384);
	ck_assert_uint_eq(h.last_ps, 10 * 471);
	harness_teardown();
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
	tcase_add_test(tc, insn_new_paths_have_rows);
	tcase_add_test(tc, insn_sctp_chunk_by_hand);
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
