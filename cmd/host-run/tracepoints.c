// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/host-run/tracepoints.c - the memcg tracepoints of a host run (issue
 * 31, item 3): how often each event the model also counts fired in the
 * counted tasks during the measured window.
 *
 * tracefs gives each event's id (events/SYSTEM/NAME/id); it is found in
 * /proc/self/mountinfo, else mounted at /sys/kernel/tracing for the
 * command's life and unmounted by host_tp_close() (on success, error and
 * signal alike: host_run() calls it on every path). The events are
 * counted with perf_event_open(2), one counting event per event and
 * thread of a counted task, off until the window opens and closed once
 * it ends: no ring buffer to overflow, and tracefs's own enable files
 * (events/.../enable, the global state another tracer uses) are never
 * written, so there is no enable state to restore.
 *
 * Layering: cmd/host-run/.
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cmd/host-run/internal.h"
#include "sim/util.h"

#define TRACEFS_DEFAULT "/sys/kernel/tracing"

const char *const host_tp_names[HOST_TP_NR] = {
	[HOST_TP_MOD_MEMCG_STATE] = "memcg:mod_memcg_state",
	[HOST_TP_MOD_LRUVEC] = "memcg:mod_memcg_lruvec_state",
	[HOST_TP_COUNT_EVENTS] = "memcg:count_memcg_events",
	[HOST_TP_FLUSH_STATS] = "memcg:memcg_flush_stats",
	[HOST_TP_RSTAT_LOCKED] = "cgroup:cgroup_rstat_locked",
	[HOST_TP_RSTAT_CONTENDED] = "cgroup:cgroup_rstat_lock_contended",
};

/* The tracefs mount point from /proc/self/mountinfo, or false. */
static bool tracefs_find(char *buf, size_t size)
{
	char line[4096], point[HOST_MOUNT_MAX];
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - tracefs ");

		/* the fifth field; octal escapes (\040) are refused */
		if (sep && sscanf(line, "%*s %*s %*s %*s %2047s", point) == 1 &&
		    !strchr(point, '\\') &&
		    (size_t)snprintf(buf, size, "%s", point) < size)
			found = true;
	}
	fclose(f);
	return found;
}

/* Event @i's id from tracefs, or -1. */
static long long event_id(const struct host_tp *tp, unsigned int i)
{
	char path[HOST_MOUNT_MAX + 128], name[64], buf[32];
	long long id = -1;
	char *colon;
	FILE *f;

	snprintf(name, sizeof(name), "%s", host_tp_names[i]);
	colon = strchr(name, ':');
	*colon = '/';
	snprintf(path, sizeof(path), "%s/events/%s/id", tp->mount, name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		id = strtoll(buf, NULL, 10);
	fclose(f);
	return id;
}

int host_tp_open(struct host_tp *tp)
{
	unsigned int i, n = 0;

	memset(tp, 0, sizeof(*tp));
	tp->nr_fds = 0;
	if (!tracefs_find(tp->mount, sizeof(tp->mount))) {
		snprintf(tp->mount, sizeof(tp->mount), "%s", TRACEFS_DEFAULT);
		if (mount("nodev", tp->mount, "tracefs", 0, NULL)) {
			snprintf(
				tp->why, sizeof(tp->why),
				"tracefs is not mounted and mounting it at %s failed: %s",
				TRACEFS_DEFAULT, strerror(errno));
			return -1;
		}
		tp->mounted = true;
	}
	for (i = 0; i < HOST_TP_NR; i++) {
		tp->id[i] = event_id(tp, i);
		n += tp->id[i] >= 0;
	}
	if (!n) {
		snprintf(tp->why, sizeof(tp->why),
			 "no memcg or cgroup rstat event in %.160s/events",
			 tp->mount);
		host_tp_close(tp);
		tp->mounted = false;
		return -1;
	}
	tp->ok = true;
	return 0;
}

void host_tp_close(struct host_tp *tp)
{
	host_tp_detach(tp);
	/* @mounted and @ok stay: the table says what was done */
	if (tp->mounted && !tp->unmounted) {
		if (umount2(tp->mount, MNT_DETACH))
			fprintf(stderr, "memcgsim: host-run: umount %s: %s\n",
				tp->mount, strerror(errno));
		tp->unmounted = true;
	}
}

static int perf_open(long long id, pid_t tid)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = (unsigned long long)id;
	attr.disabled = 1;
	attr.inherit = 1;
	return (int)syscall(SYS_perf_event_open, &attr, tid, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/* Open every event on every thread of process @pid (/proc/PID/task). */
static int attach_process(struct host_tp *tp, pid_t pid)
{
	char path[64];
	struct dirent *d;
	unsigned int i;
	DIR *dir;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%ld/task", (long)pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while (!ret && (d = readdir(dir))) {
		long tid = strtol(d->d_name, NULL, 10);

		if (tid <= 0)
			continue;
		for (i = 0; !ret && i < HOST_TP_NR; i++) {
			int fd;

			if (tp->id[i] < 0)
				continue;
			if (tp->nr_fds == HOST_TP_MAX_FDS) {
				ret = -1;
				break;
			}
			fd = perf_open(tp->id[i], (pid_t)tid);
			if (fd < 0) {
				ret = -1;
				break;
			}
			tp->fd[tp->nr_fds] = fd;
			tp->fd_event[tp->nr_fds++] = i;
		}
	}
	closedir(dir);
	return ret;
}

int host_tp_attach(struct host_tp *tp, const pid_t *pids, unsigned int nr)
{
	unsigned int i;

	if (!tp->ok)
		return -1;
	for (i = 0; i < nr; i++)
		if (pids[i] > 0 && attach_process(tp, pids[i])) {
			snprintf(tp->why, sizeof(tp->why),
				 "perf_event_open of a tracepoint failed: %s",
				 strerror(errno));
			host_tp_detach(tp);
			return -1;
		}
	return 0;
}

void host_tp_enable(struct host_tp *tp, bool on)
{
	unsigned int i;

	for (i = 0; i < tp->nr_fds; i++)
		ioctl(tp->fd[i],
		      on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

int host_tp_read(const struct host_tp *tp, uint64_t counts[HOST_TP_NR])
{
	unsigned int i;

	memset(counts, 0, HOST_TP_NR * sizeof(*counts));
	for (i = 0; i < tp->nr_fds; i++) {
		uint64_t v;

		if (read(tp->fd[i], &v, sizeof(v)) != (ssize_t)sizeof(v))
			return -1;
		counts[tp->fd_event[i]] += v;
	}
	return tp->nr_fds ? 0 : -1;
}

void host_tp_detach(struct host_tp *tp)
{
	unsigned int i;

	for (i = 0; i < tp->nr_fds; i++)
		close(tp->fd[i]);
	tp->nr_fds = 0;
}
