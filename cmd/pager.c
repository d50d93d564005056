// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pager, as perf's and git's: the text of report, script and diff goes
 * through $PAGER when standard output is a terminal.  The pager is
 * MPERF_PAGER, else PERF_PAGER (perf's variable), else PAGER, else
 * "less -FRSX" when less is on the PATH; "cat" or an empty value means
 * none, and so does `mperf --no-pager` or an output that is not a terminal
 * (`mperf --paginate` pages that too).  LESS=FRSX and LV=-c are set for it
 * when unset, as perf sets them.  The pager reads a pipe that replaces
 * standard output (and standard error, when that is the terminal too); at
 * the end, or on a fatal signal, mperf closes its end and waits for the
 * pager, so that the shell's prompt comes after it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cmd.h"

static int pager_choice;	/* -1 --no-pager, 1 --paginate, 0 as the output is */
static pid_t pager_pid;
static int saved_stderr = -1;

void cmd_pager_set(int choice)
{
	pager_choice = choice;
}

/* An executable file named prog in a directory of $PATH. */
static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, n ? path : ".", prog) < (int)sizeof(buf) &&
		    access(buf, X_OK) == 0)
			return true;
		path += n + !!path[n];
	}
	return false;
}

const char *cmd_pager_program(void)
{
	static const char *const vars[] = { "MPERF_PAGER", "PERF_PAGER", "PAGER" };
	const char *p = NULL;

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]) && !p; i++)
		p = getenv(vars[i]);
	if (!p)
		return in_path("less") ? "less -FRSX" : NULL;
	return !*p || !strcmp(p, "cat") ? NULL : p;
}

/* The end of the output: the pager sees its end of file, and we wait until it quits. */
void cmd_pager_wait(void)
{
	pid_t pid = pager_pid;

	if (!pid)
		return;
	pager_pid = 0;
	fflush(stdout);
	fflush(stderr);
	close(STDOUT_FILENO);
	if (saved_stderr >= 0) {
		dup2(saved_stderr, STDERR_FILENO);
		close(saved_stderr);
		saved_stderr = -1;
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

static void pager_signal(int sig)
{
	cmd_pager_wait();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The pager's side of the fork: it starts once there is something to read (or the end), as git's does. */
static void pager_exec(int fd, const char *prog)
{
	fd_set in, ex;

	dup2(fd, STDIN_FILENO);
	close(fd);
	FD_ZERO(&in);
	FD_SET(STDIN_FILENO, &in);
	ex = in;
	select(1, &in, NULL, &ex, NULL);
	setenv("LESS", "FRSX", 0);
	setenv("LV", "-c", 0);
	execl("/bin/sh", "sh", "-c", prog, (char *)NULL);
	_exit(127);
}

bool cmd_pager_start(void)
{
	static const int sigs[] = { SIGINT, SIGHUP, SIGTERM, SIGQUIT };
	const char *prog;
	int fds[2];

	if (pager_pid || pager_choice < 0 || (!pager_choice && !isatty(STDOUT_FILENO)))
		return false;
	prog = cmd_pager_program();
	if (!prog || pipe(fds))
		return false;
	fflush(stdout);
	fflush(stderr);
	pager_pid = fork();
	if (pager_pid < 0) {
		pager_pid = 0;
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (!pager_pid) {
		close(fds[1]);
		pager_exec(fds[0], prog);
	}
	close(fds[0]);
	dup2(fds[1], STDOUT_FILENO);
	if (isatty(STDERR_FILENO)) {
		saved_stderr = dup(STDERR_FILENO);
		dup2(fds[1], STDERR_FILENO);
	}
	close(fds[1]);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], pager_signal);
	return true;
}
