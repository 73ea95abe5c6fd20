// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/host-run/cgroupfs.c - the host's memory-cgroup hierarchy: found in
 * /proc/self/mountinfo (v1 or v2, never assumed), host-run's private
 * directory in it, the scenario's tree built below that and removed again;
 * and what the host's kernel accounts there, for the model's kernel: keys.
 *
 * Under a fake root (struct host_cgfs's root: tests only), the mounts,
 * the command line and the tree are read below it, and a cgroup made
 * there gets the control files a cgroup file system would make (empty
 * files), which are removed with it: the same code then runs without
 * root, and a test can read what host-run wrote.
 *
 * Every name written below the mount comes from the scenario and is
 * checked by host_cg_name_ok() before (letters, digits, '_', '.', '-');
 * nothing reaches a shell. Paths in messages are escaped (sim_escape()).
 *
 * Layering: cmd/host-run/.
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "cmd/host-run/internal.h"
#include "sim/error.h"
#include "sim/util.h"

/* A mountinfo field, its octal escapes (\040 for a space) decoded. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/* Is @word one of the comma-separated @list? */
static bool has_word(const char *list, const char *word, const char *seps)
{
	size_t len = strlen(word);
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, seps);

		if (n == len && !strncmp(p, word, len))
			return true;
		p += n;
		p += strspn(p, seps);
	}
	return false;
}

/* The control files a cgroup of version @v has, for a fake root. */
static const char *const fake_files[2][8] = {
	{ "cgroup.procs", "memory.limit_in_bytes",
	  "memory.kmem.tcp.limit_in_bytes", "memory.stat", NULL },
	{ "cgroup.procs", "cgroup.controllers", "cgroup.subtree_control",
	  "memory.max", "memory.high", "memory.low", "memory.min",
	  "memory.stat" },
};

/* Under a fake root, make (@make) or remove @dir's control files. */
static void fake_files_do(const struct host_cgfs *fs, const char *dir,
			  bool make)
{
	char path[PATH_MAX + 64];
	unsigned int i;
	int fd;

	if (!fs->root[0])
		return;
	for (i = 0; i < 8 && fake_files[fs->version - 1][i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir,
			 fake_files[fs->version - 1][i]);
		if (!make) {
			unlink(path);
			continue;
		}
		fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd >= 0)
			close(fd);
	}
}

/* The first line of @path in @buf ("" when it cannot be read). */
static void read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)size, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* Is nokmem among the cgroup.memory= options of @root's command line? */
static bool cmdline_nokmem(const char *root)
{
	char path[HOST_MOUNT_MAX + 32], line[4096];
	const char *p;

	snprintf(path, sizeof(path), "%s/proc/cmdline", root);
	read_line(path, line, sizeof(line));
	for (p = line; *p; p += strcspn(p, " "), p += strspn(p, " "))
		if (!strncmp(p, "cgroup.memory=", 14))
			return has_word(p + 14, "nokmem", ", ");
	return false;
}

int host_cg_detect(struct host_cgfs *fs, const char *root,
		   struct sim_error *err)
{
	char line[4096], v1[HOST_MOUNT_MAX] = "", v2[HOST_MOUNT_MAX] = "";
	char file[PATH_MAX];
	char ctl[1024], shown[PATH_MAX], mi[HOST_MOUNT_MAX + 32];
	size_t rlen = strlen(root);
	FILE *f;

	memset(fs, 0, sizeof(*fs));
	if (rlen >= HOST_MOUNT_MAX / 2) {
		sim_error_set(err, "", 0, 0, "the root is too long");
		return -1;
	}
	snprintf(fs->root, sizeof(fs->root), "%s", root);
	snprintf(mi, sizeof(mi), "%s/proc/self/mountinfo", root);
	f = fopen(mi, "re");
	if (!f) {
		sim_error_set(err, sim_escape(shown, sizeof(shown), mi), 0, 0,
			      "cannot read the mounts: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *field[16], *p, *dash;
		unsigned int n = 0;

		/* id parent dev root mountpoint opts [tags] - type src super */
		dash = strstr(line, " - ");
		if (!dash)
			continue;
		*dash = '\0';
		for (p = strtok_r(line, " ", &save); p && n < 6;
		     p = strtok_r(NULL, " ", &save))
			field[n++] = p;
		if (n < 5)
			continue;
		n = 0;
		save = NULL;
		for (p = strtok_r(dash + 3, " \n", &save); p && n < 3;
		     p = strtok_r(NULL, " \n", &save))
			field[8 + n++] = p;
		if (n < 3)
			continue;
		unescape(field[4]);
		if (rlen + strlen(field[4]) >= HOST_MOUNT_MAX)
			continue;
		if (!strcmp(field[8], "cgroup2") && !v2[0]) {
			snprintf(file, sizeof(file), "%s%s/cgroup.controllers",
				 root, field[4]);
			read_line(file, ctl, sizeof(ctl));
			if (has_word(ctl, "memory", " "))
				snprintf(v2, sizeof(v2), "%s%s", root,
					 field[4]);
		} else if (!strcmp(field[8], "cgroup") && !v1[0] &&
			   has_word(field[10], "memory", ",")) {
			snprintf(v1, sizeof(v1), "%s%s", root, field[4]);
		}
	}
	fclose(f);
	if (v2[0]) {
		fs->version = 2;
		snprintf(fs->mount, sizeof(fs->mount), "%s", v2);
	} else if (v1[0]) {
		fs->version = 1;
		snprintf(fs->mount, sizeof(fs->mount), "%s", v1);
	} else {
		sim_error_set(
			err, sim_escape(shown, sizeof(shown), mi), 0, 0,
			"no cgroup hierarchy carries the memory controller (neither a cgroup2 mount listing memory in cgroup.controllers nor a v1 memory mount)");
		return -1;
	}
	/* v1's memory.memsw.* exist only with swap accounting */
	snprintf(file, sizeof(file), "%s/memory.memsw.usage_in_bytes",
		 fs->mount);
	fs->memsw = fs->version == 1 && !access(file, F_OK);
	fs->nokmem = cmdline_nokmem(root);
	if (access(fs->mount, W_OK)) {
		sim_error_set(
			err, sim_escape(shown, sizeof(shown), fs->mount), 0, 0,
			"cannot create cgroups in the memory hierarchy: %s",
			strerror(errno));
		return -1;
	}
	if (fs->version == 2) {
		snprintf(file, sizeof(file), "%s/cgroup.subtree_control",
			 fs->mount);
		read_line(file, ctl, sizeof(ctl));
		if (!has_word(ctl, "memory", " ")) {
			sim_error_set(
				err, sim_escape(shown, sizeof(shown), file), 0,
				0,
				"the root does not enable the memory controller for its children; host-run does not change the root's cgroup.subtree_control");
			return -1;
		}
	}
	return 0;
}

bool host_cg_name_ok(const char *path, char *why, size_t size)
{
	const char *p = path;
	char shown[256];

	if (!strcmp(path, "/"))
		return true;
	if (*p != '/')
		goto bad;
	while (*p == '/') {
		size_t n = strspn(p + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
					 "abcdefghijklmnopqrstuvwxyz"
					 "0123456789_.-");

		if (!n || n >= 64 || p[1] == '.')
			goto bad;
		p += 1 + n;
	}
	if (!*p)
		return true;
bad:
	snprintf(
		why, size,
		"cgroup '%s': host-run makes only names of letters, digits, '_', '.' and '-' (not starting with '.', below 64 bytes)",
		sim_escape(shown, sizeof(shown), path));
	return false;
}

void host_cg_dir(const struct host_cgfs *fs, const char *path, char *buf,
		 size_t size)
{
	if (!strcmp(path, "/"))
		snprintf(buf, size, "%s", fs->mount);
	else
		snprintf(buf, size, "%s%s", fs->top, path);
}

/* Write @val to @dir/@file. */
static int write_file(const char *dir, const char *file, const char *val,
		      struct sim_error *err)
{
	char path[PATH_MAX + 64], shown[PATH_MAX + 64];
	size_t len = strlen(val);
	int fd, saved;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	if (write(fd, val, len) != (ssize_t)len) {
		saved = errno;
		close(fd);
		errno = saved;
		goto fail;
	}
	if (!close(fd))
		return 0;
fail:
	sim_error_set(err, sim_escape(shown, sizeof(shown), path), 0, 0,
		      "cannot write '%s': %s", val, strerror(errno));
	return -1;
}

/* rmdir() @dir, waiting a little for tasks that are still exiting. */
static int remove_dir(const struct host_cgfs *fs, const char *dir)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	unsigned int tries;

	fake_files_do(fs, dir, false);

	for (tries = 0; tries < 200; tries++) {
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -1;
		nanosleep(&ts, NULL);
	}
	return -1;
}

/* Remove @dir and every directory below it, deepest first. */
static void remove_tree(const struct host_cgfs *fs, const char *dir,
			unsigned int depth)
{
	char sub[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d || depth > 64) {
		if (d)
			closedir(d);
		return;
	}
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		remove_tree(fs, sub, depth + 1);
	}
	closedir(d);
	remove_dir(fs, dir);
}

void host_cg_sweep_stale(const struct host_cgfs *fs)
{
	size_t len = strlen(HOST_DIR_PREFIX);
	char path[PATH_MAX + 256];
	struct dirent *de;
	DIR *d = opendir(fs->mount);
	char *end;
	long pid;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR ||
		    strncmp(de->d_name, HOST_DIR_PREFIX, len))
			continue;
		errno = 0;
		pid = strtol(de->d_name + len, &end, 10);
		if (errno || *end || pid <= 0 || pid == (long)getpid() ||
		    !kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", fs->mount, de->d_name);
		remove_tree(fs, path, 0);
	}
	closedir(d);
}

int host_cg_open(struct host_cgfs *fs, struct sim_error *err)
{
	char shown[PATH_MAX];

	snprintf(fs->top, sizeof(fs->top), "%s/%s%ld", fs->mount,
		 HOST_DIR_PREFIX, (long)getpid());
	if (mkdir(fs->top, 0755)) {
		sim_error_set(err, sim_escape(shown, sizeof(shown), fs->top), 0,
			      0, "cannot create host-run's cgroup: %s",
			      strerror(errno));
		fs->top[0] = '\0';
		return -1;
	}
	fake_files_do(fs, fs->top, true);
	if (fs->version == 2 &&
	    write_file(fs->top, "cgroup.subtree_control", "+memory", err))
		return -1;
	return 0;
}

/* mkdir @dir (whose parent exists) and remember it. */
static int make_dir(struct host_cgfs *fs, const char *dir,
		    struct sim_error *err)
{
	char shown[PATH_MAX];

	if (fs->nr_made == HOST_MAX_MADE) {
		sim_error_set(err, "", 0, 0,
			      "more than %u cgroups: host-run makes no more",
			      HOST_MAX_MADE);
		return -1;
	}
	if (mkdir(dir, 0755)) {
		sim_error_set(err, sim_escape(shown, sizeof(shown), dir), 0, 0,
			      "cannot create cgroup: %s", strerror(errno));
		return -1;
	}
	fake_files_do(fs, dir, true);
	if (!fs->made) {
		fs->made = calloc(HOST_MAX_MADE, sizeof(*fs->made));
		SIM_OOM_ON(!fs->made);
	}
	fs->made[fs->nr_made] = strdup(dir);
	SIM_OOM_ON(!fs->made[fs->nr_made]);
	fs->nr_made++;
	return 0;
}

/* @bytes in decimal; no limit: "max" (v2) or "-1" (v1). */
static const char *limit(char *buf, size_t size, uint64_t bytes,
			 unsigned int version)
{
	if (bytes == UINT64_MAX)
		snprintf(buf, size, "%s", version == 2 ? "max" : "-1");
	else
		snprintf(buf, size, "%llu", (unsigned long long)bytes);
	return buf;
}

/* Is @dir one that host_cg_build() made? */
static bool made(const struct host_cgfs *fs, const char *dir)
{
	unsigned int i;

	for (i = 0; i < fs->nr_made; i++)
		if (!strcmp(fs->made[i], dir))
			return true;
	return false;
}

/* Make @dir and the parents below the private directory it lacks. */
static int make_path(struct host_cgfs *fs, const char *dir,
		     struct sim_error *err)
{
	size_t top = strlen(fs->top);
	char buf[PATH_MAX];
	char *p;

	snprintf(buf, sizeof(buf), "%s", dir);
	for (p = buf + top + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (!made(fs, buf) && make_dir(fs, buf, err))
			return -1;
		*p = '/';
	}
	return made(fs, buf) ? 0 : make_dir(fs, buf, err);
}

/*
 * One cgroup's limits. v1 has memory.limit_in_bytes only (the planner
 * refuses min, low and high there); v2 has all four.
 */
static int set_limits(const struct host_cgfs *fs, const char *dir,
		      const struct cgroup_config *cg, struct sim_error *err)
{
	char v[32];

	if (fs->version == 1)
		return cg->max == UINT64_MAX ?
			       0 :
			       write_file(dir, "memory.limit_in_bytes",
					  limit(v, sizeof(v), cg->max, 1), err);
	if (cg->max != UINT64_MAX &&
	    write_file(dir, "memory.max", limit(v, sizeof(v), cg->max, 2), err))
		return -1;
	if (cg->high != UINT64_MAX &&
	    write_file(dir, "memory.high", limit(v, sizeof(v), cg->high, 2),
		       err))
		return -1;
	if (cg->low &&
	    write_file(dir, "memory.low", limit(v, sizeof(v), cg->low, 2), err))
		return -1;
	if (cg->min &&
	    write_file(dir, "memory.min", limit(v, sizeof(v), cg->min, 2), err))
		return -1;
	return 0;
}

int host_cg_build(struct host_cgfs *fs, const struct cgroup_tree *t, bool tcp,
		  struct sim_error *err)
{
	char dir[PATH_MAX];
	unsigned int i;
	int parent;

	for (i = 1; i < t->nr; i++) {
		host_cg_dir(fs, t->cg[i].path, dir, sizeof(dir));
		if (make_path(fs, dir, err))
			return -1;
	}
	for (i = 1; i < t->nr; i++) {
		host_cg_dir(fs, t->cg[i].path, dir, sizeof(dir));
		if (set_limits(fs, dir, &t->cg[i], err))
			return -1;
		/*
		 * v1 charges TCP sockets only once memory.kmem.tcp's limit
		 * is written (memcg_update_tcp_max() sets tcpmem_active),
		 * and then to memcg->tcpmem, not through the stock.
		 */
		if (fs->version == 1 && tcp &&
		    write_file(dir, "memory.kmem.tcp.limit_in_bytes", "-1",
			       err))
			return -1;
		/* v2: a parent hands the memory controller down */
		parent = t->cg[i].parent;
		if (fs->version == 2 && parent > 0) {
			host_cg_dir(fs, t->cg[parent].path, dir, sizeof(dir));
			if (write_file(dir, "cgroup.subtree_control", "+memory",
				       err))
				return -1;
		}
	}
	return 0;
}

int host_cg_unbuild(struct host_cgfs *fs, struct sim_error *err)
{
	char shown[PATH_MAX];
	int ret = 0;

	while (fs->nr_made) {
		char *dir = fs->made[fs->nr_made - 1];

		if (remove_dir(fs, dir) && !ret) {
			sim_error_set(err,
				      sim_escape(shown, sizeof(shown), dir), 0,
				      0, "cannot remove cgroup: %s",
				      strerror(errno));
			ret = -1;
		}
		free(dir);
		fs->nr_made--;
	}
	return ret;
}

int host_cg_close(struct host_cgfs *fs, struct sim_error *err)
{
	char shown[PATH_MAX];
	int ret = host_cg_unbuild(fs, err);

	free(fs->made);
	fs->made = NULL;
	if (fs->top[0] && remove_dir(fs, fs->top) && !ret) {
		sim_error_set(err, sim_escape(shown, sizeof(shown), fs->top), 0,
			      0, "cannot remove cgroup: %s", strerror(errno));
		ret = -1;
	}
	fs->top[0] = '\0';
	return ret;
}

/*
 * The kmem accounting of kernel @release: objects from v5.9 (slab objects
 * through the obj_cgroup stock, "mm: memcg/slab: use a single set of
 * kmem_caches for all accounted allocations"), pages from v4.6 (every v1
 * memcg accounts kmem: "mm: memcontrol: enable kmem accounting for all
 * cgroups in the legacy hierarchy"), NULL before (v1 accounted kmem only
 * once memory.kmem.limit_in_bytes was written, which host-run does not).
 */
static const char *kmem_mode(const char *release)
{
	if (host_release_at_least(release, 5, 9))
		return "objects";
	if (host_release_at_least(release, 4, 6))
		return "pages";
	return NULL;
}

bool host_release_at_least(const char *release, unsigned int major,
			   unsigned int minor)
{
	unsigned int ma = 0, mi = 0;

	if (sscanf(release, "%u.%u", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

/* Does @user --set kernel.@key? */
static bool user_sets(const char *const *user, unsigned int nr, const char *key)
{
	size_t len = strlen(key);
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (!strncmp(user[i], "kernel.", 7) &&
		    !strncmp(user[i] + 7, key, len) && user[i][7 + len] == '=')
			return true;
	return false;
}

unsigned int host_kernel_sets(const struct host_cgfs *fs, const char *release,
			      const char *const *user, unsigned int nr_user,
			      char out[][64])
{
	const char *kmem = fs->nokmem ? "off" : kmem_mode(release);
	unsigned int n = 0;

	if (!user_sets(user, nr_user, "cgroup_version"))
		snprintf(out[n++], 64, "kernel.cgroup_version=%u", fs->version);
	if (kmem && !user_sets(user, nr_user, "kmem_accounting"))
		snprintf(out[n++], 64, "kernel.kmem_accounting=%s", kmem);
	if (fs->version == 1 && !user_sets(user, nr_user, "swap_account"))
		snprintf(out[n++], 64, "kernel.swap_account=%s",
			 fs->memsw ? "true" : "false");
	if (fs->version == 1 && !user_sets(user, nr_user, "tcpmem_active"))
		snprintf(out[n++], 64, "kernel.tcpmem_active=true");
	return n;
}
