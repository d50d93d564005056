// SPDX-License-Identifier: GPL-2.0-only
/*
 * record__run as a library call: it leaves the process as it found it
 * (signal handlers and mask), writes a file the reader takes back with
 * every event's samples, and says a failure in exactly one line.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../../src/perfdata/perfdata.h"
#include "../../src/record/record.h"
#include "logcap.h"
#include "tap.h"

static void custom_handler(int sig)
{
	(void)sig;
}

static int run(const char *output, char *const *argv, struct record_result *res)
{
	struct record_event ev[2];
	size_t n = 0;
	struct record_opts o = {
		.events = ev, .nr_events = 2, .period = 100000, .mmap_pages = 16,
		.output = output, .argv = argv, .cmd_argc = 0, .cmd_argv = NULL,
	};

	logcap_reset();
	if (record__parse_events("cpu-clock,task-clock", ev, 2, &n) < 0)
		return -EINVAL;
	return record__run(&o, res);
}

int main(void)
{
	char dir[] = "/tmp/mperf-run-XXXXXX", path[128];
	char *const sh[] = { "sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done", NULL };
	struct record_result *res = calloc(1, sizeof(*res));
	struct sigaction mine = { .sa_handler = custom_handler }, now;
	sigset_t mask, after;
	int ret;

	if (!res || !mkdtemp(dir))
		return 2;
	snprintf(path, sizeof(path), "%s/run.data", dir);
	/* What record__run must give back: our SIGINT handler, SIGTERM ignored, SIGUSR1 blocked. */
	sigaction(SIGINT, &mine, NULL);
	signal(SIGTERM, SIG_IGN);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_SETMASK, &mask, NULL);

	ret = run(path, sh, res);
	if (ret < 0 && (ret == -EACCES || ret == -EPERM || ret == -ENOENT || ret == -ENODEV)) {
		skip(6, "the kernel refuses software events here");
	} else {
		struct pdata *p;
		struct pd_record rec;
		uint64_t per_ev[2] = { 0, 0 };

		is_int(ret, 0, "record__run: complete ('%s')", logcap_err);
		ok(res->ev[0].samples > 0 && res->ev[1].samples > 0, "both events sampled (%llu, %llu)",
		   (unsigned long long)res->ev[0].samples, (unsigned long long)res->ev[1].samples);
		p = pdata__open(path);
		while (p && pdata__next(p, &rec) > 0) {
			int ev = pdata__evsel_of(p, rec.hdr);

			if (rec.hdr->type == PERF_RECORD_SAMPLE && ev >= 0 && ev < 2)
				per_ev[ev]++;
		}
		ok(p && per_ev[0] == res->ev[0].samples && per_ev[1] == res->ev[1].samples,
		   "the file holds the samples record__run counted, per event");
		pdata__close(p);
		sigaction(SIGINT, NULL, &now);
		ok(now.sa_handler == custom_handler, "SIGINT: our handler is back");
		sigaction(SIGTERM, NULL, &now);
		ok(now.sa_handler == SIG_IGN, "SIGTERM: still ignored");
		sigprocmask(SIG_SETMASK, NULL, &after);
		ok(sigismember(&after, SIGUSR1) && !sigismember(&after, SIGINT) && !sigismember(&after, SIGCHLD),
		   "the signal mask is the one we had");
	}

	/* A failure: one line, no file left, the process as it was. */
	snprintf(path, sizeof(path), "%s/no-such-dir/x.data", dir);
	ret = run(path, sh, res);
	ok(ret < 0 && logcap_errors == 1 && strstr(logcap_err, "no-such-dir"),
	   "a file that cannot be created: one line, naming it ('%s', %d lines)", logcap_err, logcap_errors);
	sigaction(SIGINT, NULL, &now);
	ok(now.sa_handler == custom_handler, "after a failure: SIGINT handler back");

	snprintf(path, sizeof(path), "%s/run.data", dir);
	unlink(path);
	rmdir(dir);
	free(res);
	return done_testing();
}
