// SPDX-License-Identifier: GPL-2.0-only
/*
 * One ring buffer per CPU (per thread with --per-thread), drained into the
 * file: every event of a CPU writes into the buffer of that CPU's first
 * event, and the loop polls the first event's fds.  With -z the drain
 * copies each buffer's bytes to compress.c's thread and hands the buffer
 * back at once: compressing never holds a buffer.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include "../lib/err.h"
#include "../lib/log.h"
#include "internal.h"

/*
 * The kernel wakes pollers of every fd sharing a buffer (since commit
 * 10c6db110d0e, 2011), but a missed wakeup must only ever delay a drain:
 * poll never waits longer than this.
 */
#define POLL_TIMEOUT_MS	100

/* Redirect fd into owner's buffer; SET_OUTPUT needs the same CPU (or task) and no mapping of its own. */
static int redirect(struct drain *d, size_t ev, int fd, int owner, const char *where)
{
	if (fd < 0 || fd == owner)
		return 0;
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, owner) < 0)
		return mperf_error(-errno, "cannot redirect event '%s' into the buffer of %s: %s",
				   d->res->ev[ev].name, where, strerror(errno));
	return 0;
}

static int map_one(struct drain *d, int owner, size_t pages, const char *where)
{
	int err = ring__mmap(&d->ring[d->nr_rings], owner, pages);

	if (err == -EPERM || err == -ENOMEM)
		return mperf_error(err, "cannot mmap the buffer of %s (%zu pages): %s (the limit is kernel.perf_event_mlock_kb; use a smaller -m or raise it)",
				   where, pages, mperf_strerror(err));
	if (err)
		return mperf_error(err, "cannot mmap the buffer of %s: %s", where, mperf_strerror(err));
	d->nr_rings++;
	return 0;
}

/* The first fd of event 0 open on CPU c (any thread), or per thread that thread's: a buffer's owner. */
static int owner_fd(const struct evlist *el, int c, int th)
{
	if (th >= 0)
		return evlist__fd(el, 0, c, th);
	for (int t = 0; t < el->nr_threads; t++)
		if (evlist__fd(el, 0, c, t) >= 0)
			return evlist__fd(el, 0, c, t);
	return -1;
}

int drain__map(struct drain *d, size_t pages)
{
	struct evlist *el = d->el;
	bool per_thread = el->t->per_thread;
	int nr = per_thread ? el->nr_threads : el->nr_cpus, err;
	size_t slots = (size_t)el->nr_cpus * (size_t)el->nr_threads;

	d->ring = calloc((size_t)nr, sizeof(*d->ring));
	d->pfd = calloc(slots + 1, sizeof(*d->pfd));	/* and --control's fd, polled last */
	if (!d->ring || !d->pfd)
		return mperf_error(-ENOMEM, "out of memory");
	for (int r = 0; r < nr; r++) {
		int owner = per_thread ? owner_fd(el, 0, r) : owner_fd(el, r, -1);
		char where[64];

		if (owner < 0)
			continue;	/* a thread that exited before it was opened */
		if (per_thread)
			snprintf(where, sizeof(where), "thread %d", el->t->tids[r]);
		else
			snprintf(where, sizeof(where), "cpu %d", el->t->cpus[r]);
		if ((err = map_one(d, owner, pages, where)))
			return err;
		for (size_t i = 0; i < el->nr_ev; i++)
			for (int t = 0; t < el->nr_threads; t++) {
				int c = per_thread ? 0 : r;

				if (per_thread && t != r)
					continue;
				if ((err = redirect(d, i, evlist__fd(el, i, c, t), owner, where)))
					return err;
			}
	}
	/*
	 * Poll the first event's fd of every CPU and thread: the kernel wakes
	 * every fd of a buffer, and each hangs up when its own task is gone,
	 * so the recording of running tasks ends when the last one exits.
	 */
	for (int c = 0; c < el->nr_cpus; c++)
		for (int t = 0; t < el->nr_threads; t++) {
			int fd = evlist__fd(el, 0, c, t);

			if (fd >= 0)
				d->pfd[d->nr_pfd++] = (struct pollfd){ .fd = fd, .events = POLLIN };
		}
	return 0;
}

void drain__unmap(struct drain *d)
{
	for (int c = 0; c < d->nr_rings; c++)
		ring__exit(&d->ring[c]);
	free(d->ring);
	free(d->pfd);
	d->ring = NULL;
	d->pfd = NULL;
	d->nr_rings = d->nr_pfd = 0;
}

/* Account for the records of one pass: samples per event, times, lost, DSOs hit. */
static void account(struct drain *d, struct ring *ring)
{
	const struct pd_sample_layout *l = &d->el->layout;
	const struct perf_event_header *h;

	while ((h = ring__read_event(ring))) {
		if (h->type == PERF_RECORD_SAMPLE) {
			uint64_t ip, tid, id, t;
			int ev = 0;

			if (d->hits && pd_sample_word(h, l->ip_pos, &ip) && pd_sample_word(h, l->tid_pos, &tid))
				hits__sample(d->hits, h->misc, (uint32_t)tid, ip);	/* pid: the low half */
			if (pd_sample_word(h, l->id_pos, &id))
				ev = evlist__event_of_id(d->el, id);
			if (ev >= 0)
				d->res->ev[ev].samples++;
			d->res->samples++;
			if (pd_sample_word(h, l->time_pos, &t)) {
				if (!d->first_time || t < d->first_time)
					d->first_time = t;
				if (t > d->last_time)
					d->last_time = t;
			}
		} else if (h->type == PERF_RECORD_MMAP2 && d->hits) {
			hits__mmap2(d->hits, h);
		} else if (h->type == PERF_RECORD_THROTTLE) {
			struct pd_throttle_event e;
			int ev = PD_VIEW(h, &e) ? evlist__event_of_id(d->el, e.id) : -1;

			if (ev >= 0)
				d->res->ev[ev].throttles++;
		} else if (h->type == PERF_RECORD_LOST) {
			struct pd_lost_event e;

			if (PD_VIEW(h, &e)) {
				d->res->lost_records++;
				d->res->lost_events += e.lost;
			}
		}
	}
}

/* One buffer's bytes of this pass: to the compressing thread (-z), or to the file. */
static int drain_one(struct drain *d, struct ring *ring, int64_t *total)
{
	const void *chunk[2];
	size_t len[2];
	int n = ring__span(ring, chunk, len), err;

	if (d->comp && (err = compressor__put(d->comp, chunk, len, n)))
		return err;
	for (int k = 0; k < n; k++) {
		if (!d->comp && (err = pdw__write(d->w, chunk[k], len[k])))
			return err;
		*total += (int64_t)len[k];
	}
	return 0;
}

int64_t drain__once(struct drain *d, bool all)
{
	int64_t total = 0;
	int err;

	for (int c = 0; c < d->nr_rings; c++) {
		struct ring *ring = &d->ring[c];
		int64_t avail = ring__read_init(ring);

		/* perf's --mmap-flush: a buffer with less waits for the next pass, but the last. */
		if (avail <= 0 || (!all && (uint64_t)avail < d->flush))
			continue;
		account(d, ring);
		if ((err = drain_one(d, ring, &total)))
			return err;
		ring__consume(ring);
	}
	if (total && (err = d->comp ? compressor__round(d->comp) : pdw__finished_round(d->w)))
		return err;
	return total;
}

/* Poll the buffers (and --control's fd): what ppoll returned; the signals are taken only inside. */
static int wait_once(struct drain *d, const sigset_t *waitmask)
{
	int ms = control__timeout_ms(d->ctl, POLL_TIMEOUT_MS);
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nfds_t nfd = (nfds_t)d->nr_pfd;

	if (d->ctl && d->ctl->polled) {
		d->pfd[nfd] = (struct pollfd){ .fd = d->ctl->fd, .events = POLLIN };
		nfd++;
	}
	return ppoll(d->pfd, nfd, &ts, waitmask);
}

int drain__loop(struct drain *d, const sigset_t *waitmask, volatile sig_atomic_t *stop)
{
	struct pollfd *pfd = d->pfd;
	int err = 0;

	for (;;) {
		int stopping = *stop, hup = 0, n;
		int64_t wrote = drain__once(d, stopping);

		if (wrote < 0) {
			err = (int)wrote;
			break;
		}
		if (stopping)
			break;
		d->written += (uint64_t)wrote;
		if (d->max_size && d->written >= d->max_size && !*stop) {
			/* perf's --max-size: stop as a signal would, the file finished as always. */
			d->res->size_limited = true;
			*stop = RECORD_STOP_SIZE;
			continue;
		}
		n = wait_once(d, waitmask);
		if (n < 0 && errno != EINTR) {
			err = mperf_error(-errno, "poll failed: %s", strerror(errno));
			break;
		}
		if (d->ctl && (err = control__process(d->ctl, d->el, d->res,
						      n > 0 && d->ctl->polled ? pfd[d->nr_pfd].revents : 0, stop)))
			break;
		if (n == 0)
			d->res->timeouts++;
		if (n > 0) {
			d->res->wakeups++;
			for (int k = 0; k < d->nr_pfd; k++) {
				if (pfd[k].revents & (POLLHUP | POLLERR)) {
					pfd[k].fd = -1;	/* its task is gone; stop polling it */
					hup++;
				} else if (pfd[k].fd < 0) {
					hup++;
				}
			}
			if (hup == d->nr_pfd && !*stop)
				*stop = -1;
		}
	}
	return err;
}
