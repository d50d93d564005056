// SPDX-License-Identifier: GPL-2.0-only
/*
 * --control and -D/--delay, as perf 6.1 takes them: a harness starts the
 * events after a delay, or enables and disables them around the region it
 * measures by writing commands to a FIFO (or an inherited fd), one a line:
 * enable [EVENT], disable [EVENT], snapshot, stop, ping, evlist.  Each
 * command but an unknown one is acknowledged on the ACK FIFO with perf's
 * bytes, "ack\n" and its NUL.  The FIFOs are opened read-write and
 * non-blocking, as perf opens them: the other end may come and go, and an
 * ACK nobody reads never holds the recording.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "../lib/err.h"
#include "../lib/log.h"
#include "internal.h"

static int parse_fd(const char *s, const char *end, int *fd)
{
	char *e;
	long v;

	if (s == end || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &e, 0);
	if (e != end || errno || v > 1 << 20)
		return -1;
	*fd = (int)v;
	return 0;
}

int record__parse_control(const char *spec, struct record_control *c)
{
	const char *comma = strchr(spec, ',');
	const char *end = spec + strlen(spec);

	*c = (struct record_control){ .fd = -1, .ack = -1 };
	if (!strncmp(spec, "fd:", 3)) {
		if (!parse_fd(spec + 3, comma ? comma : end, &c->fd) && (!comma || !parse_fd(comma + 1, end, &c->ack)))
			return 0;
	} else if (!strncmp(spec, "fifo:", 5) && spec[5] && spec[5] != ',') {
		size_t n = (size_t)((comma ? comma : end) - (spec + 5));

		if (n < sizeof(c->paths[0]) && (!comma || strlen(comma + 1) < sizeof(c->paths[1]))) {
			snprintf(c->paths[0], sizeof(c->paths[0]), "%.*s", (int)n, spec + 5);
			c->ctl_path = c->paths[0];
			if (comma && comma[1]) {
				snprintf(c->paths[1], sizeof(c->paths[1]), "%s", comma + 1);
				c->ack_path = c->paths[1];
			}
			return 0;
		}
	}
	return mperf_error(-EINVAL, "invalid --control '%s' (fifo:CTL[,ACK] or fd:CTL[,ACK])", spec);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int control__open(struct control *ctl, const struct record_control *rc)
{
	*ctl = (struct control){ .fd = rc->fd, .ack = rc->ack, .polled = rc->fd >= 0 };
	if (!rc->ctl_path)
		return 0;
	ctl->own = true;
	ctl->fd = open(rc->ctl_path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (ctl->fd < 0)
		return mperf_error(-errno, "cannot open the control FIFO '%s': %s", rc->ctl_path, strerror(errno));
	if (rc->ack_path && (ctl->ack = open(rc->ack_path, O_RDWR | O_NONBLOCK | O_CLOEXEC)) < 0) {
		int err = -errno;

		close(ctl->fd);
		ctl->fd = -1;
		return mperf_error(err, "cannot open the control ACK FIFO '%s': %s", rc->ack_path, strerror(-err));
	}
	ctl->polled = true;
	return 0;
}

void control__close(struct control *ctl)
{
	if (ctl->own && ctl->fd >= 0)
		close(ctl->fd);
	if (ctl->own && ctl->ack >= 0)
		close(ctl->ack);
	ctl->fd = ctl->ack = -1;
}

void control__delay(struct control *ctl, int delay_ms)
{
	if (delay_ms)
		mperf_log(MPERF_LOG_INFO, "Events disabled");
	if (delay_ms > 0)
		ctl->enable_at = mono_ns() + (uint64_t)delay_ms * 1000000ull;
}

int control__timeout_ms(const struct control *ctl, int max)
{
	uint64_t now;

	if (!ctl || !ctl->enable_at)
		return max;
	now = mono_ns();
	if (ctl->enable_at <= now)
		return 0;
	return (ctl->enable_at - now) / 1000000u < (uint64_t)max ? (int)((ctl->enable_at - now + 999999u) / 1000000u) : max;
}

static void ack(struct control *ctl)
{
	static const char msg[] = "ack\n";	/* with its NUL: perf's five bytes */

	if (ctl->ack < 0)
		return;
	if (write(ctl->ack, msg, sizeof(msg)) != (ssize_t)sizeof(msg) && !ctl->ack_failed) {
		ctl->ack_failed = true;
		mperf_log(MPERF_LOG_WARN, "cannot write to the control ACK descriptor %d: %s", ctl->ack,
			  strerror(errno));
	}
}

/* enable/disable with no argument (every event) or " EVENT": 0 (a malformed one said), or an error. */
static int set_enabled(const struct control_ops *ops, const char *arg, bool on)
{
	int ev = -1, err;
	const char *name;

	if (*arg && *arg != ' ') {
		mperf_log(MPERF_LOG_INFO, "failed: wrong command");
		return 0;
	}
	if (*arg) {
		for (size_t i = 0; i < ops->nr && ev < 0; i++)
			if ((!ops->hidden || !ops->hidden(ops->ctx, i)) && (name = ops->name(ops->ctx, i)) &&
			    !strcmp(name, arg + 1))
				ev = (int)i;
		if (ev < 0) {
			mperf_log(MPERF_LOG_INFO, "failed: can't find '%s' event", arg + 1);
			return 0;
		}
	}
	if ((err = ops->set_enabled(ops->ctx, ev, on)))
		return err;
	if (ev >= 0)
		mperf_log(MPERF_LOG_INFO, "Event %s %s", ops->name(ops->ctx, (size_t)ev), on ? "enabled" : "disabled");
	else
		mperf_log(MPERF_LOG_INFO, "Events %s", on ? "enabled" : "disabled");
	return 0;
}

/* One command line: 0, 1 for one that is not acknowledged (unknown), < 0 for an error. */
static int command(struct control *ctl, const struct control_ops *ops, const char *cmd)
{
	int err = 0;

	if (!strncmp(cmd, "enable", 6))
		err = set_enabled(ops, cmd + 6, true);
	else if (!strncmp(cmd, "disable", 7))
		err = set_enabled(ops, cmd + 7, false);
	else if (!strncmp(cmd, "evlist", 6))
		for (size_t i = 0; i < ops->nr; i++)
			mperf_log(MPERF_LOG_INFO, "%s", ops->name(ops->ctx, i));
	else if (!strncmp(cmd, "stop", 4)) {
		if (ops->stop)
			ops->stop(ops->ctx);
	} else if (strncmp(cmd, "snapshot", 8) && strncmp(cmd, "ping", 4)) {
		mperf_log(MPERF_LOG_WARN, "unknown control command '%s' (enable, disable, snapshot, stop, ping, evlist)", cmd);
		return 1;
	}
	if (err < 0)
		return err;
	ctl->cmds++;
	ack(ctl);
	return 0;
}

int control__commands(struct control *ctl, const struct control_ops *ops, short revents)
{
	char buf[256];
	ssize_t n;
	int err;

	if (!ctl->polled || !(revents & POLLIN))
		goto hup;
	/* One read per poll: an inherited fd (fd:) may block, and poll says when there is more. */
	if ((n = read(ctl->fd, buf, sizeof(buf))) > 0) {
		for (ssize_t k = 0; k < n; k++) {
			if (buf[k] != '\n' && buf[k] != '\0') {
				if (ctl->len < sizeof(ctl->line) - 1)
					ctl->line[ctl->len++] = buf[k];
				continue;
			}
			ctl->line[ctl->len] = '\0';
			if (ctl->len && (err = command(ctl, ops, ctl->line)) < 0)
				return err;
			ctl->len = 0;
		}
	}
	if (n == 0)
		ctl->polled = false;	/* end of file: every writer of the pipe is gone */
	if (n < 0 && errno != EAGAIN && errno != EINTR)
		return mperf_error(-errno, "cannot read the control descriptor %d: %s", ctl->fd, strerror(errno));
hup:
	/* A pipe whose writers are gone (fd:): nothing more will come. */
	if ((revents & (POLLHUP | POLLERR | POLLNVAL)) && !(revents & POLLIN))
		ctl->polled = false;
	return 0;
}

/* record's events as the commands see them. */
struct record_ctl {
	struct evlist *el;
	struct record_result *res;
	volatile sig_atomic_t *stop;
};

static const char *record_ctl_name(void *ctx, size_t i)
{
	struct record_ctl *r = ctx;

	return r->res->ev[i].name;
}

static bool record_ctl_hidden(void *ctx, size_t i)
{
	struct record_ctl *r = ctx;

	return r->res->ev[i].tracking;
}

static int record_ctl_set(void *ctx, int ev, bool on)
{
	struct record_ctl *r = ctx;

	return evlist__set_enabled(r->el, r->res, ev, on);
}

static void record_ctl_stop(void *ctx)
{
	struct record_ctl *r = ctx;

	r->res->control_stop = true;
	if (!*r->stop)
		*r->stop = RECORD_STOP_CONTROL;
}

int control__process(struct control *ctl, struct evlist *el, struct record_result *res, short revents,
		     volatile sig_atomic_t *stop)
{
	struct record_ctl r = { .el = el, .res = res, .stop = stop };
	struct control_ops ops = { .ctx = &r, .nr = el->nr_ev, .name = record_ctl_name, .hidden = record_ctl_hidden,
				   .set_enabled = record_ctl_set, .stop = record_ctl_stop };
	uint64_t before = ctl->cmds;
	int err;

	if (ctl->enable_at && mono_ns() >= ctl->enable_at) {
		ctl->enable_at = 0;
		if ((err = set_enabled(&ops, "", true)))
			return err;
	}
	err = control__commands(ctl, &ops, revents);
	res->control_cmds += ctl->cmds - before;
	return err;
}
