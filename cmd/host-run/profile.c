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

/* fork and exec @argv with stdin and stderr on /dev/null, stdout @out. */
static pid_t spawn(char *const argv[], int out)
{
	pid_t pid = fork();
	int null;

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
	execv(argv[0], argv);
	_exit(127);
}

pid_t host_perf_start(const char *perf, const char *data, const pid_t *pids,
		      unsigned int nr)
{
	char list[HOST_PERF_MAX_PIDS * 12] = "";
	char perf_arg[PATH_MAX], data_arg[PATH_MAX];
	size_t len = 0;
	unsigned int i;
	char record[] = "record", e[] = "-e", clock[] = "cpu-clock";
	char q[] = "-q", o[] = "-o", p[] = "-p";
	char *argv[] = { perf_arg, record,   e, clock, q,
			 o,	   data_arg, p, list,  NULL };

	for (i = 0; i < nr && i < HOST_PERF_MAX_PIDS; i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%ld",
					i ? "," : "", (long)pids[i]);
	snprintf(perf_arg, sizeof(perf_arg), "%s", perf);
	snprintf(data_arg, sizeof(data_arg), "%s", data);
	fflush(NULL);
	return spawn(argv, -1);
}

void host_perf_stop(pid_t pid)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	unsigned int i;

	if (pid <= 0)
		return;
	kill(pid, SIGINT);
	/* perf writes its file on SIGINT: a few seconds at most */
	for (i = 0; i < 1000; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return;
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
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

int host_profile_read(const char *perf, const char *data,
		      struct host_profile *prof)
{
	char perf_arg[PATH_MAX], data_arg[PATH_MAX], line[1024];
	char report[] = "report", in[] = "-i", stdio[] = "--stdio";
	char nochildren[] = "--no-children", sort[] = "--sort";
	char symbol[] = "symbol", q[] = "-q";
	char *argv[] = { perf_arg,   report, in,     data_arg, stdio,
			 nochildren, sort,   symbol, q,	       NULL };
	unsigned int cap = 0;
	int fd[2], status;
	FILE *f;
	pid_t pid;

	memset(prof, 0, sizeof(*prof));
	snprintf(perf_arg, sizeof(perf_arg), "%s", perf);
	snprintf(data_arg, sizeof(data_arg), "%s", data);
	if (pipe2(fd, O_CLOEXEC))
		return -1;
	fflush(NULL);
	pid = spawn(argv, fd[1]);
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

double host_profile_sym(const struct host_profile *prof, const char *name)
{
	double pct = 0;
	unsigned int i;

	for (i = 0; i < prof->nr; i++)
		if (!strcmp(prof->rows[i].sym, name))
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
