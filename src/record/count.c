// SPDX-License-Identifier: GPL-2.0-only
/*
 * Counting mode (mperf stat): the events of -e on record's targets, opened
 * as perf stat opens them, counted, read once at the end and summed.  No
 * buffer, no file: the parser, the target, the workload and the signal
 * table are record's, which is why this lives here.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../host/host.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "internal.h"

struct counters {
	const struct target *t;
	size_t nr_ev;
	int *fd;	/* [event][cpu][thread], -1 when not open */
	bool *gone;	/* [thread]: exited before it could be counted */
};

static size_t cidx(const struct counters *c, size_t ev, int cpu, int th)
{
	return (ev * (size_t)c->t->nr_cpus + (size_t)cpu) * (size_t)c->t->nr_threads + (size_t)th;
}

/*
 * perf stat's attr: no sampling, the times enabled and running with each
 * read (for scaling when the kernel multiplexes), disabled until the
 * workload's exec or until enabled, children followed unless -t.
 */
static void setup_count_attr(struct perf_event_attr *a, const struct count_opts *o, const struct target *t,
			     const struct record_event *ev, bool member)
{
	*a = ev->attr;
	a->size = sizeof(*a);
	a->sample_period = 0;
	a->freq = 0;
	a->sample_type = PERF_SAMPLE_IDENTIFIER;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a->disabled = 1;
	a->inherit = !(o->no_inherit || (o->tids && !o->pids));
	a->enable_on_exec = t->traces_workload;
	if (member) {
		/* Scheduled, enabled and disabled with its leader. */
		a->disabled = 0;
		a->enable_on_exec = 0;
		a->pinned = 0;
		a->exclusive = 0;
	}
}

static void close_event(struct counters *c, size_t i)
{
	for (int cpu = 0; cpu < c->t->nr_cpus; cpu++)
		for (int th = 0; th < c->t->nr_threads; th++) {
			size_t k = cidx(c, i, cpu, th);

			if (c->fd[k] >= 0)
				close(c->fd[k]);
			c->fd[k] = -1;
		}
}

/*
 * Open event i everywhere.  What the kernel does not have here (no PMU
 * for cycles in a VM) is perf's <not supported>, not a failure; a refused
 * kernel falls back to user space as in record; a thread of -p or -t that
 * is gone is dropped.
 */
static int open_event(struct counters *c, const struct record_event *evs, struct count_result *res, size_t i)
{
	struct count_value *v = &res->ev[i];
	const struct target *t = c->t;
	int leader = evs[i].leader;

	for (int cpu = 0; cpu < t->nr_cpus; cpu++)
		for (int th = 0; th < t->nr_threads; th++) {
			int group_fd = leader != (int)i ? c->fd[cidx(c, (size_t)leader, cpu, th)] : -1;
			int fd, e;

			if (c->gone[th])
				continue;
			if (leader != (int)i && group_fd < 0) {
				v->supported = res->ev[leader].supported;
				close_event(c, i);
				return 0;
			}
again:
			fd = host_perf_event_open(&v->attr, t->tids[th], t->cpus[cpu], group_fd);
			e = errno;
			mperf_log(MPERF_LOG_DEBUG, "sys_perf_event_open: '%s' pid %d  cpu %d  group_fd %d  flags %#lx = %d%s%s",
				  v->name, t->tids[th], t->cpus[cpu], group_fd, (unsigned long)PERF_FLAG_FD_CLOEXEC,
				  fd < 0 ? -e : fd, fd < 0 ? " " : "", fd < 0 ? strerror(e) : "");
			if (fd >= 0) {
				c->fd[cidx(c, i, cpu, th)] = fd;
				continue;
			}
			if (e == ENOENT || e == ENODEV || e == ENXIO || e == EOPNOTSUPP) {
				v->supported = false;
				close_event(c, i);
				return 0;
			}
			if ((e == EACCES || e == EPERM) && !v->attr.exclude_kernel && !v->attr.exclude_user &&
			    record__user_only_helps(t->tids[th])) {
				size_t len = strlen(v->name);
				bool sep = strchr(v->name, ':') || strchr(v->name, '/');

				v->attr.exclude_kernel = v->attr.exclude_hv = 1;
				snprintf(v->name + len, sizeof(v->name) - len, "%su", sep ? "" : ":");
				if (!res->user_only)
					mperf_log(MPERF_LOG_NOTICE,
						  "kernel.perf_event_paranoid is %d: counting user space only ('%s'), as perf does; lower it or use CAP_PERFMON to see the kernel",
						  host_perf_event_paranoid(), v->name);
				res->user_only = true;
				goto again;
			}
			if (e == ESRCH && t->has_task) {
				int left = 0;

				c->gone[th] = true;
				for (size_t j = 0; j < i; j++)
					for (int cc = 0; cc < t->nr_cpus; cc++) {
						size_t k = cidx(c, j, cc, th);

						if (c->fd[k] >= 0)
							close(c->fd[k]);
						c->fd[k] = -1;
					}
				for (int k = 0; k < t->nr_threads; k++)
					left += !c->gone[k];
				if (!left)
					return mperf_error(-ESRCH, "every thread of the target has exited: nothing to count");
				mperf_log(MPERF_LOG_INFO, "thread %d exited before it could be counted", t->tids[th]);
				continue;
			}
			{
				char msg[512];

				struct record_denial d;

				record__open_error(msg, sizeof(msg), v->name, v->attr.type, t->cpus[cpu], e,
						   e == EACCES || e == EPERM ? record__denial(&v->attr, t->tids[th], &d) : NULL);
				return mperf_error(-e, "%s", msg);
			}
		}
	return 0;
}

static int enable_all(struct counters *c, const struct count_result *res)
{
	for (size_t k = 0; k < c->nr_ev * (size_t)c->t->nr_cpus * (size_t)c->t->nr_threads; k++) {
		size_t i = k / ((size_t)c->t->nr_cpus * (size_t)c->t->nr_threads);

		if (c->fd[k] >= 0 && res->ev[i].attr.disabled && ioctl(c->fd[k], PERF_EVENT_IOC_ENABLE, 0) < 0)
			return mperf_error(-errno, "cannot enable event '%s': %s", res->ev[i].name, strerror(errno));
	}
	return 0;
}

/* Every fd once: the sums, each fd's count scaled by its own enabled/running as perf scales. */
static int read_all(struct counters *c, struct count_result *res)
{
	size_t per_ev = (size_t)c->t->nr_cpus * (size_t)c->t->nr_threads;

	for (size_t i = 0; i < c->nr_ev; i++) {
		struct count_value *v = &res->ev[i];

		for (size_t k = i * per_ev; k < (i + 1) * per_ev; k++) {
			uint64_t buf[3];
			ssize_t n;

			if (c->fd[k] < 0)
				continue;
			n = read(c->fd[k], buf, sizeof(buf));
			if (n != (ssize_t)sizeof(buf))
				return mperf_error(n < 0 ? -errno : -EIO, "cannot read the count of event '%s': %s",
						   v->name, n < 0 ? strerror(errno) : "short read");
			v->raw += buf[0];
			v->ena += buf[1];
			v->run += buf[2];
			if (buf[2] && buf[2] < buf[1])
				v->val += (double)buf[0] * (double)buf[1] / (double)buf[2];
			else if (buf[2])
				v->val += (double)buf[0];
		}
	}
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A thread of -p or -t is there while it can be signalled (a counting fd cannot be polled for its end). */
static bool thread_alive(int pid, int tid)
{
	return syscall(SYS_tgkill, pid, tid, 0) == 0 || errno == EPERM;
}

/*
 * Until the workload ends (a stop signal sends it SIGTERM, a second one
 * SIGKILL), or, with no workload, until a stop signal or (-p, -t) until
 * every counted task is gone, looked at every 100 ms as perf does (a
 * counting fd without a buffer always polls as hung up).
 */
static int wait_end(struct counters *c, struct workload *wl, const struct record_signals *sigs,
		    struct count_result *res)
{
	volatile sig_atomic_t *flag = record_signals_flag();
	const struct target *t = c->t;
	bool watch = wl->pid <= 0 && t->has_task;
	int kills = 0;

	for (;;) {
		struct timespec tick = { 0, 100 * 1000000L };
		int sig = *flag;

		*flag = 0;
		if (wl->pid > 0) {
			struct rusage ru;
			int status;
			pid_t r = wait4(wl->pid, &status, WNOHANG, &ru);

			if (r == wl->pid) {
				res->wait_status = status;
				res->utime_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000ull +
						(uint64_t)ru.ru_utime.tv_usec * 1000ull;
				res->stime_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000ull +
						(uint64_t)ru.ru_stime.tv_usec * 1000ull;
				wl->pid = -1;
				break;
			}
		}
		if (sig > 0 && sig != SIGCHLD) {
			if (!res->stop_signal)
				res->stop_signal = sig;
			if (wl->pid <= 0)
				break;
			if (kills++)
				mperf_log(MPERF_LOG_NOTICE, "SIG%s again: killing the workload (pid %d), which did not end on SIGTERM",
					  sigabbrev_np(sig), (int)wl->pid);
			kill(wl->pid, kills > 1 ? SIGKILL : SIGTERM);
		}
		if (watch) {
			int left = 0;

			for (int th = 0; th < t->nr_threads; th++)
				left += !c->gone[th] && thread_alive(t->pids[th], t->tids[th]);
			if (!left)
				break;
		}
		ppoll(NULL, 0, watch ? &tick : NULL, &sigs->wait_mask);
	}
	return 0;
}

int record__count(const struct count_opts *o, struct count_result *res)
{
	struct record_opts ro = {
		.events = o->events, .nr_events = o->nr_events,
		.pids = o->pids, .tids = o->tids, .cpu_list = o->cpu_list, .system_wide = o->system_wide,
	};
	struct workload wl = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	struct counters c = { 0 };
	struct record_signals sigs;
	struct target t;
	bool has_workload = o->argv && o->argv[0];
	uint64_t t0;
	size_t n;
	int err;

	memset(res, 0, sizeof(*res));
	if (!o->nr_events || o->nr_events > RECORD_MAX_EVENTS)
		return mperf_error(-EINVAL, "between 1 and %d events can be counted", RECORD_MAX_EVENTS);
	if ((err = target__init(&t, &ro))) {
		target__exit(&t);
		return err;
	}
	if (t.traces_workload && !has_workload) {
		target__exit(&t);
		return mperf_error(-EINVAL, "nothing to count: give a command, or a target (-p, -t, -a, -C)");
	}
	/* perf stat counts a task wherever it runs: one fd per thread, cpu -1. */
	if (!t.has_cpu) {
		t.cpus[0] = -1;
		t.nr_cpus = 1;
	}
	res->has_cpu = t.has_cpu;
	res->has_workload = has_workload && t.traces_workload;
	res->nr_events = o->nr_events;
	for (size_t i = 0; i < o->nr_events; i++) {
		snprintf(res->ev[i].name, sizeof(res->ev[i].name), "%s", o->events[i].name);
		res->ev[i].supported = true;
		setup_count_attr(&res->ev[i].attr, o, &t, &o->events[i], o->events[i].leader != (int)i);
	}
	c.t = &t;
	c.nr_ev = o->nr_events;
	n = c.nr_ev * (size_t)t.nr_cpus * (size_t)t.nr_threads;
	c.fd = malloc(n * sizeof(*c.fd));
	c.gone = calloc((size_t)t.nr_threads, sizeof(*c.gone));
	if (!c.fd || !c.gone) {
		free(c.fd);
		free(c.gone);
		target__exit(&t);
		return mperf_error(-ENOMEM, "out of memory");
	}
	for (size_t k = 0; k < n; k++)
		c.fd[k] = -1;

	record_signals_install(&sigs);
	if (has_workload) {
		if ((err = workload__prepare(&wl, o->argv, &sigs, false))) {
			mperf_error(err, "cannot start the workload: %s", strerror(-err));
			goto out;
		}
		target__set_workload(&t, wl.pid);
	}
	for (size_t i = 0; i < c.nr_ev; i++)
		if ((err = open_event(&c, o->events, res, i)))
			goto out;
	t0 = now_ns();
	if (has_workload && (err = workload__start(&wl, o->argv[0], &res->exec_errno)))
		goto out;
	if (!t.traces_workload && (err = enable_all(&c, res)))
		goto out;
	if ((err = wait_end(&c, &wl, &sigs, res)))
		goto out;
	res->elapsed_ns = now_ns() - t0;
	err = read_all(&c, res);
out:
	if (wl.pid > 0) {
		if (wl.go_fd < 0)
			kill(wl.pid, SIGTERM);
		workload__abort(&wl);
	}
	for (size_t k = 0; k < n; k++)
		if (c.fd[k] >= 0)
			close(c.fd[k]);
	free(c.fd);
	free(c.gone);
	target__exit(&t);
	record_signals_restore(&sigs);
	return err;
}
