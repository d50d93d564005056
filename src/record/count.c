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
	uint64_t (*now)[3], (*prev)[3];	/* [fd]: the last read (count, enabled, running), the one before */
	struct count_result *iv;	/* -I: an interval's counts */
	long intervals;		/* made */
	uint64_t t0;
	uint64_t last_ns;	/* -I: the last interval's end */
	uint64_t enable_at;	/* -D: when the events are enabled (0: they are) */
	struct control ctl;	/* --control: its fd polled while the count waits */
	struct count_result *res;	/* what the control commands name the events by */
};

/* The tool events' values in res: ns of duration (dur), of the workload's user and system time. */
static void tool_values(struct count_result *res, uint64_t dur, uint64_t user, uint64_t sys)
{
	for (size_t i = 0; i < res->nr_events; i++) {
		struct count_value *v = &res->ev[i];
		uint64_t ns;

		if (v->attr.type != RECORD_TYPE_TOOL)
			continue;
		ns = v->attr.config == RECORD_TOOL_DURATION ? dur : v->attr.config == RECORD_TOOL_USER ? user : sys;
		v->raw = v->ena = v->run = ns;
		v->val = (double)ns;
	}
}

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
	a->enable_on_exec = t->traces_workload && !o->delay_ms;
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

	if (v->attr.type == RECORD_TYPE_TOOL)	/* measured here, not opened */
		return 0;

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

/* --control's enable and disable: event ev's leader fds (every event's, ev -1), as perf stat. */
static int count_ctl_set(void *ctx, int ev, bool on)
{
	struct counters *c = ctx;
	size_t per = (size_t)c->t->nr_cpus * (size_t)c->t->nr_threads;

	for (size_t k = 0; k < c->nr_ev * per; k++) {
		size_t i = k / per;

		if ((ev >= 0 && i != (size_t)ev) || c->fd[k] < 0 || !c->res->ev[i].attr.disabled)
			continue;
		if (ioctl(c->fd[k], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0) < 0)
			return mperf_error(-errno, "cannot %s event '%s': %s", on ? "enable" : "disable",
					   c->res->ev[i].name, strerror(errno));
	}
	return 0;
}

static const char *count_ctl_name(void *ctx, size_t i)
{
	struct counters *c = ctx;

	return c->res->ev[i].name;
}

/* --control's FIFOs (or fds) opened, -D -1's events left disabled: 0, or the error logged. */
static int count_control_open(struct counters *c, const struct count_opts *o, struct count_result *res)
{
	c->res = res;
	return control__open(&c->ctl, &o->control);
}

/*
 * Sleep until ts (NULL: a signal) or a control command, and do the
 * commands: stop is acknowledged alone, as perf stat does.  0 or an error.
 */
static int count_wait(struct counters *c, const struct timespec *ts, const sigset_t *mask)
{
	struct control_ops ops = { .ctx = c, .nr = c->nr_ev, .name = count_ctl_name, .set_enabled = count_ctl_set };
	struct pollfd p = { .fd = c->ctl.fd, .events = POLLIN };

	if (!c->ctl.polled) {
		ppoll(NULL, 0, ts, mask);
		return 0;
	}
	if (ppoll(&p, 1, ts, mask) <= 0)
		p.revents = 0;
	return control__commands(&c->ctl, &ops, p.revents);
}

/* Every open fd's count, enabled and running times into c->now[k] (zeros for a closed fd). */
static int read_fds(struct counters *c, const struct count_result *res)
{
	size_t per_ev = (size_t)c->t->nr_cpus * (size_t)c->t->nr_threads;

	for (size_t k = 0; k < c->nr_ev * per_ev; k++) {
		ssize_t n;

		memset(c->now[k], 0, sizeof(c->now[k]));
		if (c->fd[k] < 0)
			continue;
		n = read(c->fd[k], c->now[k], sizeof(c->now[k]));
		if (n != (ssize_t)sizeof(c->now[k]))
			return mperf_error(n < 0 ? -errno : -EIO, "cannot read the count of event '%s': %s",
					   res->ev[k / per_ev].name, n < 0 ? strerror(errno) : "short read");
	}
	return 0;
}

/*
 * The counts since prev (NULL: since the start) into res: each fd's
 * cell, scaled by its own enabled/running as perf scales, and their sums.
 */
static int fill(const struct counters *c, struct count_result *res, uint64_t (*prev)[3])
{
	const struct target *t = c->t;
	size_t per_ev = (size_t)t->nr_cpus * (size_t)t->nr_threads;

	if (!res->cell) {
		res->cell = calloc(c->nr_ev * per_ev + 1, sizeof(*res->cell));
		res->cpus = calloc((size_t)t->nr_cpus, sizeof(*res->cpus));
		res->tids = calloc((size_t)t->nr_threads, sizeof(*res->tids));
		if (!res->cell || !res->cpus || !res->tids)
			return mperf_error(-ENOMEM, "out of memory");
		res->nr_cpus = t->nr_cpus;
		res->nr_threads = t->nr_threads;
		memcpy(res->cpus, t->cpus, (size_t)t->nr_cpus * sizeof(*res->cpus));
		for (int th = 0; th < t->nr_threads; th++)
			res->tids[th] = t->has_task ? t->tids[th] : -1;
	}
	for (size_t i = 0; i < c->nr_ev; i++) {
		struct count_value *v = &res->ev[i];

		v->raw = v->ena = v->run = 0;
		v->val = 0;
		for (size_t k = i * per_ev; k < (i + 1) * per_ev; k++) {
			uint64_t d[3];
			struct count_cell *cell = &res->cell[k];

			for (int j = 0; j < 3; j++)
				d[j] = c->now[k][j] - (prev ? prev[k][j] : 0);
			cell->ena = d[1];
			cell->run = d[2];
			cell->val = !d[2] ? 0 : d[2] < d[1] ? (double)d[0] * (double)d[1] / (double)d[2] : (double)d[0];
			v->raw += d[0];
			v->ena += d[1];
			v->run += d[2];
			v->val += cell->val;
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

/* An interval's counts (since the last one, or the start) to o->tick: 0, 1 when it says stop, or an error. */
static int interval_tick(struct counters *c, const struct count_opts *o, const struct count_result *res, uint64_t now)
{
	size_t n = c->nr_ev * (size_t)c->t->nr_cpus * (size_t)c->t->nr_threads;
	int err;

	c->iv->nr_events = res->nr_events;
	for (size_t i = 0; i < res->nr_events; i++) {
		memcpy(c->iv->ev[i].name, res->ev[i].name, sizeof(res->ev[i].name));
		c->iv->ev[i].attr = res->ev[i].attr;
		c->iv->ev[i].supported = res->ev[i].supported;
	}
	c->iv->has_cpu = res->has_cpu;
	c->iv->has_workload = res->has_workload;
	if ((err = fill(c, c->iv, c->intervals ? c->prev : NULL)))
		return err;
	memcpy(c->prev, c->now, n * sizeof(*c->now));
	/* -I's tool event is duration_time alone (cmd/ refuses the others): the interval's length. */
	tool_values(c->iv, now - (c->last_ns ? c->last_ns : c->t0), 0, 0);
	c->last_ns = now;
	c->iv->ts_ns = now - c->t0;
	c->intervals++;
	return o->tick(o->tick_ctx, c->iv) ? 1 : 0;
}

/* --timeout, --interval-count, or tick's say: the workload SIGTERMed (and waited for), or, with none, the end. */
static bool stop_count(struct workload *wl, struct count_result *res)
{
	if (!res->stopped && wl->pid > 0)
		kill(wl->pid, SIGTERM);
	res->stopped = true;
	return wl->pid <= 0;
}

/* The time to sleep until the next interval or the timeout (NULL: until a signal), in ts. */
static struct timespec *next_wake(const struct counters *c, const struct count_opts *o, bool watch,
				  struct timespec *ts)
{
	uint64_t now = now_ns(), wake = watch ? now + 100 * 1000000ull : UINT64_MAX;

	if (c->enable_at) {
		wake = c->enable_at < wake ? c->enable_at : wake;
	} else if (o->interval_ms > 0 && o->tick) {
		uint64_t at = c->t0 + (uint64_t)(c->intervals + 1) * (uint64_t)o->interval_ms * 1000000ull;

		wake = at < wake ? at : wake;
	}
	if (o->timeout_ms > 0 && !c->enable_at) {
		uint64_t at = c->t0 + (uint64_t)o->timeout_ms * 1000000ull;

		wake = at < wake ? at : wake;
	}
	if (wake == UINT64_MAX)
		return NULL;
	wake = wake > now ? wake - now : 0;
	ts->tv_sec = (time_t)(wake / 1000000000ull);
	ts->tv_nsec = (long)(wake % 1000000000ull);
	return ts;
}

/* -I and --timeout when they are due: 0, 1 to stop, or an error. */
static int timers(struct counters *c, const struct count_opts *o, struct count_result *res)
{
	uint64_t now = now_ns();
	int err;

	if (res->stopped)
		return 0;
	if (c->enable_at) {
		/* -D: the counts, the intervals and the times start now. */
		if (now < c->enable_at)
			return 0;
		if ((err = enable_all(c, res)))
			return err;
		mperf_log(MPERF_LOG_INFO, "Events enabled");
		c->enable_at = 0;
		c->t0 = now;
		return 0;
	}
	if (o->timeout_ms > 0 && now >= c->t0 + (uint64_t)o->timeout_ms * 1000000ull)
		return 1;
	if (o->interval_ms <= 0 || !o->tick ||
	    now < c->t0 + (uint64_t)(c->intervals + 1) * (uint64_t)o->interval_ms * 1000000ull)
		return 0;
	if ((err = read_fds(c, res)) || (err = interval_tick(c, o, res, now)))
		return err;
	return o->interval_count > 0 && c->intervals >= o->interval_count;
}

/*
 * Until the workload ends (a stop signal sends it SIGTERM, a second one
 * SIGKILL), or, with no workload, until a stop signal or (-p, -t) until
 * every counted task is gone, looked at every 100 ms as perf does (a
 * counting fd without a buffer always polls as hung up); -I's intervals
 * and --timeout on the way.
 */
static int wait_end(struct counters *c, const struct count_opts *o, struct workload *wl,
		    const struct record_signals *sigs, struct count_result *res)
{
	volatile sig_atomic_t *flag = record_signals_flag();
	const struct target *t = c->t;
	bool watch = wl->pid <= 0 && t->has_task;
	int kills = 0, err;

	for (;;) {
		struct timespec tick;
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
		if ((err = timers(c, o, res)) < 0)
			return err;
		if (err && stop_count(wl, res))
			break;
		if (watch) {
			int left = 0;

			for (int th = 0; th < t->nr_threads; th++)
				left += !c->gone[th] && thread_alive(t->pids[th], t->tids[th]);
			if (!left)
				break;
		}
		if ((err = count_wait(c, res->stopped ? NULL : next_wake(c, o, watch, &tick), &sigs->wait_mask)))
			return err;
	}
	return 0;
}

void record__count_release(struct count_result *res)
{
	free(res->cell);
	free(res->cpus);
	free(res->tids);
	res->cell = NULL;
	res->cpus = res->tids = NULL;
	res->nr_cpus = res->nr_threads = 0;
}

static void counters_free(struct counters *c)
{
	free(c->fd);
	free(c->gone);
	free(c->now);
	free(c->prev);
	control__close(&c->ctl);
	if (c->iv)
		record__count_release(c->iv);
	free(c->iv);
}

/* c's arrays for every event, CPU and thread of t, the fds closed: their number, or 0 out of memory. */
static size_t counters_alloc(struct counters *c, struct target *t, const struct count_opts *o)
{
	size_t n;

	c->t = t;
	c->nr_ev = o->nr_events;
	n = c->nr_ev * (size_t)t->nr_cpus * (size_t)t->nr_threads;
	c->fd = malloc((n ? n : 1) * sizeof(*c->fd));
	c->gone = calloc((size_t)t->nr_threads, sizeof(*c->gone));
	c->now = calloc(n ? n : 1, sizeof(*c->now));
	c->prev = calloc(n ? n : 1, sizeof(*c->prev));
	c->iv = o->interval_ms > 0 ? calloc(1, sizeof(*c->iv)) : NULL;
	if (!c->fd || !c->gone || !c->now || !c->prev || (o->interval_ms > 0 && !c->iv)) {
		counters_free(c);
		return 0;
	}
	for (size_t k = 0; k < n; k++)
		c->fd[k] = -1;
	return n ? n : 1;
}

int record__count(const struct count_opts *o, struct count_result *res)
{
	struct record_opts ro = {
		.events = o->events, .nr_events = o->nr_events,
		.pids = o->pids, .tids = o->tids, .cpu_list = o->cpu_list, .system_wide = o->system_wide,
	};
	struct workload wl = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	struct counters c = { .ctl = { .fd = -1, .ack = -1 } };
	struct record_signals sigs;
	struct target t;
	bool has_workload = o->argv && o->argv[0];
	uint64_t t0;
	size_t n;
	int err;

	record__count_release(res);
	memset(res, 0, sizeof(*res));
	/* No event is stat -n's: the workload timed alone. */
	if (o->nr_events > RECORD_MAX_EVENTS)
		return mperf_error(-EINVAL, "at most %d events can be counted", RECORD_MAX_EVENTS);
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
	if (!(n = counters_alloc(&c, &t, o))) {
		target__exit(&t);
		return mperf_error(-ENOMEM, "out of memory");
	}

	record_signals_install(&sigs);
	if ((err = count_control_open(&c, o, res)))
		goto out;
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
	c.t0 = t0 = now_ns();
	if (has_workload && (err = workload__start(&wl, o->argv[0], &res->exec_errno)))
		goto out;
	if (o->delay_ms > 0) {
		mperf_log(MPERF_LOG_INFO, "Events disabled");
		c.enable_at = t0 + (uint64_t)o->delay_ms * 1000000ull;
	} else if (o->delay_ms < 0) {
		mperf_log(MPERF_LOG_INFO, "Events disabled");
	} else if (!t.traces_workload && (err = enable_all(&c, res))) {
		goto out;
	}
	if ((err = wait_end(&c, o, &wl, &sigs, res)))
		goto out;
	t0 = c.t0;
	res->elapsed_ns = now_ns() - t0;
	if ((err = read_fds(&c, res)) || (err = fill(&c, res, NULL)))
		goto out;
	tool_values(res, res->elapsed_ns, res->utime_ns, res->stime_ns);
	/* The part interval at the end, unless --interval-count or --timeout ended it. */
	if (c.iv && o->tick && !res->stopped && (err = interval_tick(&c, o, res, t0 + res->elapsed_ns)) > 0)
		err = 0;
out:
	if (wl.pid > 0) {
		if (wl.go_fd < 0)
			kill(wl.pid, SIGTERM);
		workload__abort(&wl);
	}
	for (size_t k = 0; k < n; k++)
		if (c.fd[k] >= 0)
			close(c.fd[k]);
	counters_free(&c);
	target__exit(&t);
	record_signals_restore(&sigs);
	return err;
}
