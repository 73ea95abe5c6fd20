// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/host-run/profile.c - perf's cpu-clock profile of a host run (issue
 * 31, item 3): `perf record -e cpu-clock -p PIDS` over the measured
 * window of the counted tasks, then `perf report --stdio --no-children
 * --sort symbol`, read into (symbol, self %) rows. perf is found in PATH
 * and run with an argument vector made here (numbers and host-run's own
 * file names), never through a shell.
 *
 * Layering: cmd/host-run/.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/host-run/internal.h"
#include "sim/error.h"

bool host_perf_find(char *buf, size_t size)
{
	const char *path = getenv("PATH");
	const char *p = path && *path ? path : "/usr/bin:/bin";

	while (*p) {
		size_t n = strcspn(p, ":");

		if (n &&
		    (size_t)snprintf(buf, size, "%.*s/perf", (int)n, p) <
			    size &&
		    !access(buf, X_OK))
			return true;
		p += n;
		p += *p == ':';
	}
	return false;
}

/*
 * fork and exec @argv with stdin and stderr on /dev/null, stdout @out;
 * @keep[0..1], when not -1, stay open across the exec.
 */
static pid_t spawn(char *const argv[], int out, const int keep[2])
{
	pid_t pid = fork();
	int null, k;

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(out >= 0 ? out : null, 1);
		dup2(null, 2);
	}
	for (k = 0; keep && k < 2; k++)
		if (keep[k] >= 0)
			fcntl(keep[k], F_SETFD, 0);
	execv(argv[0], argv);
	_exit(127);
}

/*
 * perf record -a -C: the CPUs the counted tasks are pinned to, system
 * wide (attaching to the tasks with -p gave no samples on this kind of
 * VM); perf report keeps their pids' samples (host_profile_read()).
 * Started with its events off (-D -1) and a control pipe, so that
 * host_perf_enable() turns them on once perf is ready: perf -a takes
 * most of a second to start on a loaded 2-CPU VM.
 */
int host_perf_start(struct host_perf *hp, const char *perf, const char *data,
		    const unsigned int *cpus, unsigned int nr)
{
	char list[HOST_PERF_MAX_PIDS * 12] = "", control[64];
	char perf_arg[PATH_MAX], data_arg[PATH_MAX];
	size_t len = 0;
	unsigned int i;
	char record[] = "record", e[] = "-e", clock[] = "cpu-clock";
	char q[] = "-q", o[] = "-o", a[] = "-a", c[] = "-C", d[] = "-D";
	char off[] = "-1";
	char *argv[] = { perf_arg, record, e,	 clock, q,   o,	      data_arg,
			 a,	   c,	   list, d,	off, control, NULL };
	int ctl[2], ack[2], keep[2];

	hp->pid = -1;
	hp->ctl = hp->ack = -1;
	if (pipe2(ctl, O_CLOEXEC))
		return -1;
	if (pipe2(ack, O_CLOEXEC)) {
		close(ctl[0]);
		close(ctl[1]);
		return -1;
	}
	for (i = 0; i < nr && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%u",
					i ? "," : "", cpus[i]);
	snprintf(perf_arg, sizeof(perf_arg), "%s", perf);
	snprintf(data_arg, sizeof(data_arg), "%s", data);
	snprintf(control, sizeof(control), "--control=fd:%d,%d", ctl[0],
		 ack[1]);
	keep[0] = ctl[0];
	keep[1] = ack[1];
	fflush(NULL);
	hp->pid = spawn(argv, -1, keep);
	close(ctl[0]);
	close(ack[1]);
	hp->ctl = ctl[1];
	hp->ack = ack[0];
	return hp->pid < 0 ? -1 : 0;
}

bool host_perf_enable(struct host_perf *hp, int timeout_ms)
{
	struct pollfd pfd = { .fd = hp->ack, .events = POLLIN };
	char buf[16];
	ssize_t n;

	if (hp->pid <= 0 || write(hp->ctl, "enable\n", 7) != 7)
		return false;
	if (poll(&pfd, 1, timeout_ms) != 1)
		return false;
	n = read(hp->ack, buf, sizeof(buf) - 1);
	return n >= 3 && !strncmp(buf, "ack", 3);
}

void host_perf_stop(struct host_perf *hp)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	unsigned int i;

	if (hp->pid <= 0)
		goto out;
	/* the pipes stay open until it is gone: a closed one ends it early */
	kill(hp->pid, SIGINT);
	/* perf writes its file on SIGINT: a few seconds at most */
	for (i = 0; i < 1000; i++) {
		if (waitpid(hp->pid, NULL, WNOHANG) == hp->pid)
			goto out;
		nanosleep(&ts, NULL);
	}
	kill(hp->pid, SIGKILL);
	while (waitpid(hp->pid, NULL, 0) < 0 && errno == EINTR)
		;
out:
	hp->pid = -1;
	if (hp->ctl >= 0)
		close(hp->ctl);
	if (hp->ack >= 0)
		close(hp->ack);
	hp->ctl = hp->ack = -1;
}

/* One line of perf report: "    14.05%  [k] try_charge_memcg   ...". */
static bool parse_line(const char *line, struct host_profile_row *row)
{
	const char *p;
	char *end;
	size_t n;

	row->pct = strtod(line, &end);
	if (end == line || *end != '%')
		return false;
	p = strstr(end, "] ");
	if (!p)
		return false;
	p += 2;
	n = strcspn(p, " \t\n");
	if (!n)
		return false;
	snprintf(row->sym, sizeof(row->sym), "%.*s", (int)n, p);
	return true;
}

int host_profile_read(const char *perf, const char *data, const pid_t *pids,
		      unsigned int nr, struct host_profile *prof)
{
	char perf_arg[PATH_MAX], data_arg[PATH_MAX], line[1024];
	char list[HOST_PERF_MAX_PIDS * 12] = "";
	char report[] = "report", in[] = "-i", stdio[] = "--stdio";
	char nochildren[] = "--no-children", sort[] = "--sort";
	char symbol[] = "symbol", q[] = "-q", pid_opt[] = "--pid";
	char percentage[] = "--percentage", relative[] = "relative";
	char *argv[] = { perf_arg,   report,	 in,	   data_arg, stdio,
			 nochildren, sort,	 symbol,   q,	     pid_opt,
			 list,	     percentage, relative, NULL };
	size_t len = 0;
	unsigned int i;
	unsigned int cap = 0;
	int fd[2], status;
	FILE *f;
	pid_t pid;

	memset(prof, 0, sizeof(*prof));
	for (i = 0; i < nr && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%ld",
					i ? "," : "", (long)pids[i]);
	snprintf(perf_arg, sizeof(perf_arg), "%s", perf);
	snprintf(data_arg, sizeof(data_arg), "%s", data);
	if (pipe2(fd, O_CLOEXEC))
		return -1;
	fflush(NULL);
	pid = spawn(argv, fd[1], NULL);
	close(fd[1]);
	if (pid < 0) {
		close(fd[0]);
		return -1;
	}
	f = fdopen(fd[0], "r");
	if (!f) {
		close(fd[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct host_profile_row row;

		if (!parse_line(line, &row))
			continue;
		if (prof->nr == cap) {
			cap = cap ? 2 * cap : 64;
			prof->rows =
				realloc(prof->rows, cap * sizeof(*prof->rows));
			SIM_OOM_ON(!prof->rows);
		}
		prof->rows[prof->nr++] = row;
	}
	fclose(f);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && !WEXITSTATUS(status) && prof->nr ? 0 : -1;
}

void host_profile_free(struct host_profile *prof)
{
	free(prof->rows);
	prof->rows = NULL;
	prof->nr = 0;
}

/*
 * Is the kernel symbol @sym the function @name: the same, or with the
 * leading underscores of its inner version (__mod_lruvec_state) or a
 * compiler's suffix (.constprop.0, .isra.0, .part.0)?
 */
static bool same_function(const char *sym, const char *name)
{
	size_t len = strlen(name);

	while (*sym == '_' && *name != '_')
		sym++;
	return !strncmp(sym, name, len) && (!sym[len] || sym[len] == '.');
}

double host_profile_sym(const struct host_profile *prof, const char *name)
{
	double pct = 0;
	unsigned int i;

	for (i = 0; i < prof->nr; i++)
		if (same_function(prof->rows[i].sym, name))
			pct += prof->rows[i].pct;
	return pct;
}

bool host_memcg_symbol(const char *sym)
{
	static const char *const parts[] = {
		"memcg",	"mem_cgroup",  "page_counter",
		"obj_cgroup",	"objcg",       "consume_stock",
		"refill_stock", "drain_stock", "rstat",
	};
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (strstr(sym, parts[i]))
			return true;
	return false;
}

double host_profile_memcg(const struct host_profile *prof)
{
	double pct = 0;
	unsigned int i;

	for (i = 0; i < prof->nr; i++)
		if (host_memcg_symbol(prof->rows[i].sym))
			pct += prof->rows[i].pct;
	return pct;
}
