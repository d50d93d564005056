// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workload is forked first and held on a pipe until every event is
 * open, so that enable_on_exec starts counting exactly at its exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/log.h"
#include "internal.h"

int workload__prepare(struct workload *wl, char *const *argv, const struct record_signals *sigs,
		      bool stdout_to_stderr)
{
	int go[2], er[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(er, O_CLOEXEC) < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		return -e;
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		close(er[0]);
		close(er[1]);
		return -e;
	}
	if (pid == 0) {
		char c;
		int e;

		/* The command runs with the signals record's caller had, not record's. */
		record_signals_restore(sigs);
		if (stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		close(go[1]);
		close(er[0]);
		/* The name perf report shows for the child until exec (its COMM). */
		prctl(PR_SET_NAME, "mperf-exec", 0, 0, 0);
		/* EOF (parent gone or aborted) means: do not run. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(er[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(e == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(er[1]);
	wl->pid = pid;
	wl->go_fd = go[1];
	wl->err_fd = er[0];
	return 0;
}

static int release(struct workload *wl)
{
	int e = 0;
	ssize_t n;

	if (write(wl->go_fd, "g", 1) != 1)
		e = errno;
	close(wl->go_fd);
	wl->go_fd = -1;
	if (e)
		return e;
	/* Blocks until exec succeeds (CLOEXEC closes the pipe) or fails. */
	do
		n = read(wl->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(wl->err_fd);
	wl->err_fd = -1;
	return n == (ssize_t)sizeof(e) ? e : 0;
}

int workload__start(struct workload *wl, const char *argv0, int *exec_errno)
{
	*exec_errno = release(wl);
	if (!*exec_errno)
		return 0;
	return mperf_error(-*exec_errno, "%s: %s", argv0,
			   *exec_errno == ENOENT ? "command not found" : strerror(*exec_errno));
}

void workload__abort(struct workload *wl)
{
	int status;

	if (wl->go_fd >= 0)
		close(wl->go_fd);	/* the child sees EOF and exits */
	if (wl->err_fd >= 0)
		close(wl->err_fd);
	wl->go_fd = wl->err_fd = -1;
	if (wl->pid > 0)
		while (waitpid(wl->pid, &status, 0) < 0 && errno == EINTR)
			;
	wl->pid = -1;
}
