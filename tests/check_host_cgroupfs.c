// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_host_cgroupfs.c - host-run's memory hierarchy
 * (cmd/host-run/cgroupfs.c) on fake roots: a directory holding
 * proc/self/mountinfo, proc/cmdline and a cgroup tree, as
 * MEMCGSIM_HOST_ROOT gives host-run, so that the v2 path (which this
 * project's v1-only hosts never take) and v1's are checked without root:
 *
 *	mounts                                     found
 *	cgroup2 with memory in cgroup.controllers  v2 at sys/fs/cgroup
 *	v1 memory mount only                       v1 at sys/fs/cgroup/memory
 *	both (cgroup2 listing memory)              v2
 *	both (cgroup2 without memory)              v1
 *	neither (cpu on v1, cgroup2 without it)    an error
 *
 * and what host-run creates and writes: its private directory, the
 * scenario's tree below it with the limits in each version's files, v2's
 * cgroup.subtree_control "+memory" on every parent, v1's
 * memory.kmem.tcp.limit_in_bytes "-1" for a TCP run; and that closing
 * removes all of it. Then the kernel: keys host-run gives the model for
 * what it found (host_kernel_sets()).
 */
#define _GNU_SOURCE

#include <check.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/host-run/internal.h"
#include "sim/util.h"

static char root[PATH_MAX];

static const char *at(const char *rel)
{
	static char path[4][PATH_MAX + 256];
	static unsigned int which;

	which = (which + 1) % 4;
	snprintf(path[which], sizeof(path[which]), "%s/%s", root, rel);
	return path[which];
}

static void put(const char *rel, const char *text)
{
	FILE *f = fopen(at(rel), "w");

	ck_assert_msg(f, "%s: %s", at(rel), strerror(errno));
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* The whole content of @path (a directory under the fake root). */
static const char *get(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	ck_assert_msg(f, "%s: %s", path, strerror(errno));
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* @rel below host-run's private directory */
static const char *below(const struct host_cgfs *fs, const char *rel)
{
	static char path[sizeof(fs->top) + 64];

	snprintf(path, sizeof(path), "%s/%s", fs->top, rel);
	return path;
}

static bool exists(const char *path)
{
	return !access(path, F_OK);
}

static void mkdirs(const char *rel)
{
	char buf[PATH_MAX + 256], *p;

	snprintf(buf, sizeof(buf), "%s", at(rel));
	for (p = buf + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
	mkdir(buf, 0755);
}

static const char v2_line[] =
	"41 31 0:38 / /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw\n";
static const char v1_line[] =
	"35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n";
static const char v1_cpu_line[] =
	"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n";

/* A fresh fake root with the directories every case uses. */
static void setup(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(root, sizeof(root), "%s/check_host_cgroupfs.XXXXXX",
		 tmp && tmp[0] ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(root));
	mkdirs("proc/self");
	mkdirs("sys/fs/cgroup/memory");
	put("proc/cmdline", "console=ttyS0 quiet\n");
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* Remove the test's own temporary directory, made by mkdtemp(). */
static void rm_rf(const char *dir)
{
	ck_assert_int_eq(nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}

static void teardown(void)
{
	rm_rf(root);
}

/* A v2 root whose cgroup.controllers lists @ctl, delegating @sub. */
static void v2_root(const char *ctl, const char *sub)
{
	put("sys/fs/cgroup/cgroup.controllers", ctl);
	put("sys/fs/cgroup/cgroup.subtree_control", sub);
}

static int detect(struct host_cgfs *fs, struct sim_error *err)
{
	sim_error_clear(err);
	return host_cg_detect(fs, root, err);
}

/*
 * The five mount tables of the header, by _i. Expect the version and the
 * mount (below the fake root), or the error naming the mount table.
 */
START_TEST(host_cg_detect_finds_the_memory_hierarchy)
{
	static const struct {
		const char *lines[2];
		const char *ctl;
		unsigned int version; /* 0: none found */
		const char *mount;
	} c[] = {
		{ { v2_line, NULL },
		  "cpu io memory pids\n",
		  2,
		  "sys/fs/cgroup" },
		{ { v1_line, NULL }, "", 1, "sys/fs/cgroup/memory" },
		{ { v1_line, v2_line }, "cpu memory\n", 2, "sys/fs/cgroup" },
		{ { v2_line, v1_line }, "cpu io\n", 1, "sys/fs/cgroup/memory" },
		{ { v1_cpu_line, v2_line }, "cpu io\n", 0, NULL },
	};
	struct host_cgfs fs;
	struct sim_error err;
	char mi[512];

	snprintf(mi, sizeof(mi), "%s%s", c[_i].lines[0],
		 c[_i].lines[1] ? c[_i].lines[1] : "");
	put("proc/self/mountinfo", mi);
	v2_root(c[_i].ctl, "memory\n");
	if (!c[_i].version) {
		ck_assert_int_eq(detect(&fs, &err), -1);
		ck_assert_msg(strstr(err.msg, "no cgroup hierarchy carries"),
			      "%s", err.msg);
		ck_assert_str_eq(err.file, at("proc/self/mountinfo"));
		return;
	}
	ck_assert_msg(detect(&fs, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(fs.version, c[_i].version);
	ck_assert_str_eq(fs.mount, at(c[_i].mount));
	ck_assert(!fs.memsw);
	ck_assert(!fs.nokmem);
}
END_TEST

/*
 * v2 whose root lists memory but does not hand it to its children: host-run
 * never changes the root, so it refuses. Expect an error on the root's
 * cgroup.subtree_control.
 */
START_TEST(host_cg_detect_v2_root_must_delegate)
{
	struct host_cgfs fs;
	struct sim_error err;

	put("proc/self/mountinfo", v2_line);
	v2_root("cpu memory\n", "cpu\n");
	ck_assert_int_eq(detect(&fs, &err), -1);
	ck_assert_str_eq(err.file, at("sys/fs/cgroup/cgroup.subtree_control"));
}
END_TEST

/* The tests' tree: / and /a (memory.max 64 MiB), /a/b without limits. */
static void tree_a_b(struct cgroup_config cg[3])
{
	static const char *const paths[3] = { "/", "/a", "/a/b" };
	unsigned int i;

	memset(cg, 0, 3 * sizeof(*cg));
	for (i = 0; i < 3; i++) {
		snprintf(cg[i].path, sizeof(cg[i].path), "%s", paths[i]);
		cg[i].parent = (int)i - 1;
		cg[i].max = cg[i].high = UINT64_MAX;
	}
	cg[1].max = 64 << 20;
}

/*
 * The tree of the af_unix scenario with limits, on v2:
 *
 *	/a    memory.max 64 MiB          (67108864)
 *	/a/b  memory.high 32 MiB, low 16 MiB, min 8 MiB, no max
 *
 * Expect host_cg_open() to make memcgsim-host-run.PID with "+memory" in
 * its cgroup.subtree_control; host_cg_build() to make PID/a and PID/a/b,
 * write a's memory.max, b's high, low and min (each in bytes, b's
 * memory.max untouched: empty), and "+memory" in a's subtree_control (b's
 * parent), no v1 file; host_cg_close() to remove all of it, leaving the
 * hierarchy's root as it was.
 */
START_TEST(host_cg_build_v2_writes_limits_and_delegation)
{
	struct cgroup_config cg[3];
	struct cgroup_tree t = { 3, cg };
	struct host_cgfs fs;
	struct sim_error err;
	char top[PATH_MAX + 256];

	tree_a_b(cg);
	cg[2].high = 32 << 20;
	cg[2].low = 16 << 20;
	cg[2].min = 8 << 20;
	put("proc/self/mountinfo", v2_line);
	v2_root("cpu memory\n", "memory\n");
	ck_assert_msg(detect(&fs, &err) == 0, "%s", err.msg);
	ck_assert_msg(host_cg_open(&fs, &err) == 0, "%s", err.msg);
	snprintf(top, sizeof(top), "%s/%s%ld", at("sys/fs/cgroup"),
		 HOST_DIR_PREFIX, (long)getpid());
	ck_assert_str_eq(fs.top, top);
	ck_assert_str_eq(get(below(&fs, "cgroup.subtree_control")), "+memory");

	ck_assert_msg(host_cg_build(&fs, &t, true, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(get(below(&fs, "a/memory.max")), "67108864");
	ck_assert_str_eq(get(below(&fs, "a/cgroup.subtree_control")),
			 "+memory");
	ck_assert_str_eq(get(below(&fs, "a/b/memory.high")), "33554432");
	ck_assert_str_eq(get(below(&fs, "a/b/memory.low")), "16777216");
	ck_assert_str_eq(get(below(&fs, "a/b/memory.min")), "8388608");
	ck_assert_str_eq(get(below(&fs, "a/b/memory.max")), "");
	ck_assert_str_eq(get(below(&fs, "a/b/cgroup.subtree_control")), "");
	ck_assert(!exists(below(&fs, "a/memory.kmem.tcp.limit_in_bytes")));
	ck_assert_uint_eq(fs.nr_made, 2);

	ck_assert_msg(host_cg_close(&fs, &err) == 0, "%s", err.msg);
	ck_assert(!exists(top));
	ck_assert_str_eq(get(at("sys/fs/cgroup/cgroup.subtree_control")),
			 "memory\n");
}
END_TEST

/*
 * The same tree's /a on v1 with swap accounting (memory.memsw.* in the
 * root), for a TCP run: expect memory.limit_in_bytes 67108864 and
 * memory.kmem.tcp.limit_in_bytes "-1" in PID/a (v1 charges TCP only once
 * it is written), "-1" in PID/a/b too with no memory limit written there
 * (v1 has no min, low, high: the planner refuses those before), no
 * cgroup.subtree_control anywhere; everything removed on close.
 */
START_TEST(host_cg_build_v1_writes_limit_and_tcp)
{
	struct cgroup_config cg[3];
	struct cgroup_tree t = { 3, cg };
	struct host_cgfs fs;
	struct sim_error err;
	char top[PATH_MAX + 256];

	tree_a_b(cg);
	put("proc/self/mountinfo", v1_line);
	put("sys/fs/cgroup/memory/memory.memsw.usage_in_bytes", "0\n");
	ck_assert_msg(detect(&fs, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(fs.version, 1);
	ck_assert(fs.memsw);
	ck_assert_msg(host_cg_open(&fs, &err) == 0, "%s", err.msg);
	snprintf(top, sizeof(top), "%s", fs.top);
	ck_assert_msg(host_cg_build(&fs, &t, true, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(get(below(&fs, "a/memory.limit_in_bytes")),
			 "67108864");
	ck_assert_str_eq(get(below(&fs, "a/memory.kmem.tcp.limit_in_bytes")),
			 "-1");
	ck_assert_str_eq(get(below(&fs, "a/b/memory.kmem.tcp.limit_in_bytes")),
			 "-1");
	ck_assert_str_eq(get(below(&fs, "a/b/memory.limit_in_bytes")), "");
	ck_assert(!exists(below(&fs, "a/cgroup.subtree_control")));
	ck_assert_msg(host_cg_close(&fs, &err) == 0, "%s", err.msg);
	ck_assert(!exists(top));
}
END_TEST

/*
 * The kernel: keys host-run gives the model, by what it found:
 *
 *	host                          release  user --set            keys
 *	v1, memsw                     6.18.44  -                     cgroup_version=1,
 *	                                                             kmem_accounting=objects,
 *	                                                             swap_account=true,
 *	                                                             tcpmem_active=true
 *	v1, memsw                     6.18.44  kernel.swap_account=  the same but
 *	                                       false                 swap_account
 *	v1, no memsw, nokmem          4.8.0    -                     cgroup_version=1,
 *	                                                             kmem_accounting=off,
 *	                                                             swap_account=false,
 *	                                                             tcpmem_active=true
 *	v1, no memsw                  4.8.0    -                     ... kmem_accounting=pages ...
 *	v1, no memsw                  4.4.0    kernel.cgroup_version cgroup_version left to the
 *	                                       =2                    user, no kmem key (v1 charged
 *	                                                             kmem only with a kmem limit),
 *	                                                             swap_account=false, tcpmem
 *	v2                            5.10.0   -                     cgroup_version=2,
 *	                                                             kmem_accounting=objects
 */
START_TEST(host_kernel_sets_follow_the_host)
{
	static const struct {
		unsigned int version;
		bool memsw, nokmem;
		const char *release, *user;
		const char *keys;
	} c[] = {
		{ 1, true, false, "6.18.44-fc", NULL,
		  "kernel.cgroup_version=1 kernel.kmem_accounting=objects kernel.swap_account=true kernel.tcpmem_active=true" },
		{ 1, true, false, "6.18.44-fc", "kernel.swap_account=false",
		  "kernel.cgroup_version=1 kernel.kmem_accounting=objects kernel.tcpmem_active=true" },
		{ 1, false, true, "4.8.0", NULL,
		  "kernel.cgroup_version=1 kernel.kmem_accounting=off kernel.swap_account=false kernel.tcpmem_active=true" },
		{ 1, false, false, "4.8.0", NULL,
		  "kernel.cgroup_version=1 kernel.kmem_accounting=pages kernel.swap_account=false kernel.tcpmem_active=true" },
		{ 1, false, false, "4.4.0", "kernel.cgroup_version=2",
		  "kernel.swap_account=false kernel.tcpmem_active=true" },
		{ 2, false, false, "5.10.0", NULL,
		  "kernel.cgroup_version=2 kernel.kmem_accounting=objects" },
	};
	struct host_cgfs fs = { .version = c[_i].version,
				.memsw = c[_i].memsw,
				.nokmem = c[_i].nokmem };
	char out[HOST_MAX_KERNEL_SETS][64], joined[512] = "";
	const char *user[1] = { c[_i].user };
	unsigned int n, i;

	n = host_kernel_sets(&fs, c[_i].release, user, c[_i].user ? 1 : 0, out);
	for (i = 0; i < n; i++)
		snprintf(joined + strlen(joined),
			 sizeof(joined) - strlen(joined), "%s%s", i ? " " : "",
			 out[i]);
	ck_assert_str_eq(joined, c[_i].keys);
}
END_TEST

/*
 * nokmem among cgroup.memory='s options on the fake command line, and
 * swap accounting from memory.memsw.* in a v1 root. Expect both found.
 */
START_TEST(host_cg_detect_reads_cmdline_and_memsw)
{
	struct host_cgfs fs;
	struct sim_error err;

	put("proc/self/mountinfo", v1_line);
	put("proc/cmdline", "quiet cgroup.memory=nosocket,nokmem panic=1\n");
	put("sys/fs/cgroup/memory/memory.memsw.usage_in_bytes", "0\n");
	ck_assert_msg(detect(&fs, &err) == 0, "%s", err.msg);
	ck_assert(fs.nokmem);
	ck_assert(fs.memsw);
}
END_TEST

static Suite *host_cgroupfs_suite(void)
{
	Suite *s = suite_create("host_cgroupfs");
	TCase *tc = tcase_create("detect");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, host_cg_detect_finds_the_memory_hierarchy, 0,
			    5);
	tcase_add_test(tc, host_cg_detect_v2_root_must_delegate);
	tcase_add_test(tc, host_cg_detect_reads_cmdline_and_memsw);
	suite_add_tcase(s, tc);

	tc = tcase_create("build");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, host_cg_build_v2_writes_limits_and_delegation);
	tcase_add_test(tc, host_cg_build_v1_writes_limit_and_tcp);
	suite_add_tcase(s, tc);

	tc = tcase_create("kernel_sets");
	tcase_add_loop_test(tc, host_kernel_sets_follow_the_host, 0, 6);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(host_cgroupfs_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
