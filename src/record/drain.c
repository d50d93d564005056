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
#include <signal.h>
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

static int map_one(struct drain *d, int owner, size_t pages, bool backward, const char *where)
{
	struct ring *r = &d->ring[d->nr_rings];
	int err = backward ? ring__mmap_backward(r, owner, pages) : ring__mmap(r, owner, pages);

	if (err == -EPERM || err == -ENOMEM)
		return mperf_error(err, "cannot mmap the buffer of %s (%zu pages): %s (the limit is kernel.perf_event_mlock_kb; use a smaller -m or raise it)",
				   where, pages, mperf_strerror(err));
	if (err)
		return mperf_error(err, "cannot mmap the buffer of %s: %s", where, mperf_strerror(err));
	d->ring_fd[d->nr_rings++] = owner;
	return 0;
}

/*
 * The first fd open on CPU c (any thread), or per thread that thread's, of
 * the first event that writes backward (--overwrite) or not: a buffer's
 * owner, or -1.
 */
static int owner_fd(const struct evlist *el, int c, int th, bool backward)
{
	for (size_t i = 0; i < el->nr_ev; i++) {
		if (!el->attr[i].write_backward != !backward)
			continue;
		if (th >= 0)
			return evlist__fd(el, i, c, th);
		for (int t = 0; t < el->nr_threads; t++)
			if (evlist__fd(el, i, c, t) >= 0)
				return evlist__fd(el, i, c, t);
		return -1;
	}
	return -1;
}

/* The buffer of CPU (or thread) r that the events writing backward, or not, share. */
static int map_ring(struct drain *d, int r, size_t pages, bool backward)
{
	struct evlist *el = d->el;
	bool per_thread = el->t->per_thread;
	int owner = per_thread ? owner_fd(el, 0, r, backward) : owner_fd(el, r, -1, backward), err;
	char where[64];

	if (owner < 0)
		return 0;	/* a thread that exited before it was opened, or no such event */
	if (per_thread)
		snprintf(where, sizeof(where), "thread %d", el->t->tids[r]);
	else
		snprintf(where, sizeof(where), "cpu %d", el->t->cpus[r]);
	if ((err = map_one(d, owner, pages, backward, where)))
		return err;
	d->ring_idx[d->nr_rings - 1] = r;
	for (size_t i = 0; i < el->nr_ev; i++)
		for (int t = 0; t < el->nr_threads; t++) {
			int c = per_thread ? 0 : r;

			if ((per_thread && t != r) || !el->attr[i].write_backward != !backward)
				continue;
			if ((err = redirect(d, i, evlist__fd(el, i, c, t), owner, where)))
				return err;
		}
	return 0;
}

int drain__map(struct drain *d, size_t pages)
{
	struct evlist *el = d->el;
	int nr = el->t->per_thread ? el->nr_threads : el->nr_cpus, err, polled = -1;
	size_t slots = (size_t)el->nr_cpus * (size_t)el->nr_threads;

	d->ring = calloc(2 * (size_t)nr, sizeof(*d->ring));
	d->ring_fd = calloc(2 * (size_t)nr, sizeof(*d->ring_fd));
	d->ring_idx = calloc(2 * (size_t)nr, sizeof(*d->ring_idx));
	d->pfd = calloc(slots + 1, sizeof(*d->pfd));	/* and --control's fd, polled last */
	if (!d->ring || !d->ring_fd || !d->ring_idx || !d->pfd)
		return mperf_error(-ENOMEM, "out of memory");
	/* The kernel refuses to redirect an event into a buffer written the other way. */
	for (int r = 0; r < nr; r++)
		if ((err = map_ring(d, r, pages, true)))
			return err;
	for (int r = 0; r < nr; r++)
		if ((err = map_ring(d, r, pages, false)))
			return err;
	/*
	 * Poll the first forward event's fd of every CPU and thread (a
	 * backward buffer is read only when asked): the kernel wakes every fd
	 * of a buffer, and each hangs up when its own task is gone, so the
	 * recording of running tasks ends when the last one exits.
	 */
	for (size_t i = 0; i < el->nr_ev && polled < 0; i++)
		if (!el->attr[i].write_backward)
			polled = (int)i;
	for (int c = 0; c < el->nr_cpus && polled >= 0; c++)
		for (int t = 0; t < el->nr_threads; t++) {
			int fd = evlist__fd(el, (size_t)polled, c, t);

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
	free(d->ring_fd);
	free(d->ring_idx);
	free(d->pfd);
	d->ring_fd = NULL;
	d->ring_idx = NULL;
	d->ring = NULL;
	d->pfd = NULL;
	d->nr_rings = d->nr_pfd = 0;
}

/* The DSOs hit, shared by --threads' drain threads under their lock. */
static void hit_sample(struct drain *d, uint16_t misc, uint32_t tid, uint64_t ip)
{
	if (d->hits_lock)
		pthread_mutex_lock(d->hits_lock);
	hits__sample(d->hits, misc, tid, ip);
	if (d->hits_lock)
		pthread_mutex_unlock(d->hits_lock);
}

static void hit_mmap2(struct drain *d, const struct perf_event_header *h)
{
	if (d->hits_lock)
		pthread_mutex_lock(d->hits_lock);
	hits__mmap2(d->hits, h);
	if (d->hits_lock)
		pthread_mutex_unlock(d->hits_lock);
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
				hit_sample(d, h->misc, (uint32_t)tid, ip);	/* pid: the low half */
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
			hit_mmap2(d, h);
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

/*
 * One buffer's bytes of this pass: to the compressing thread (-z), or to
 * the file; a data.N of --threads compresses them itself (-z), as perf's.
 */
static int drain_one(struct drain *d, struct ring *ring, int64_t *total)
{
	const void *chunk[2];
	size_t len[2];
	int n = ring__span(ring, chunk, len), err;

	if (d->comp && (err = compressor__put(d->comp, chunk, len, n)))
		return err;
	for (int k = 0; k < n; k++) {
		if (!d->comp && (err = d->ring_w ? pdw__write_compressed(d->ring_w[ring - d->ring], chunk[k], len[k]) :
				   pdw__write(d->w, chunk[k], len[k])))
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
		int64_t avail = ring->backward ? 0 : ring__read_init(ring);

		/* perf's --mmap-flush: a buffer with less waits for the next pass, but the last. */
		if (avail <= 0 || (!all && (uint64_t)avail < d->flush))
			continue;
		account(d, ring);
		if ((err = drain_one(d, ring, &total)))
			return err;
		ring__consume(ring);
	}
	if (total && !d->ring_w && (err = d->comp ? compressor__round(d->comp) : pdw__finished_round(d->w)))
		return err;
	return total;
}

int64_t drain__backward(struct drain *d)
{
	int64_t total = 0;
	int err = 0;

	for (int c = 0; c < d->nr_rings && !err; c++) {
		struct ring *ring = &d->ring[c];

		if (!ring->backward)
			continue;
		/* Paused, the kernel drops what comes (counted as lost) rather than write over what is read. */
		if (ioctl(d->ring_fd[c], PERF_EVENT_IOC_PAUSE_OUTPUT, 1) < 0)
			return mperf_error(-errno, "cannot pause a buffer of --overwrite: %s", strerror(errno));
		if (ring__read_init(ring) > 0) {
			account(d, ring);
			err = drain_one(d, ring, &total);
		}
		ring__consume(ring);
		if (ioctl(d->ring_fd[c], PERF_EVENT_IOC_PAUSE_OUTPUT, 0) < 0 && !err)
			err = mperf_error(-errno, "cannot resume a buffer of --overwrite: %s", strerror(errno));
	}
	if (!err && total && !d->ring_w)
		err = d->comp ? compressor__round(d->comp) : pdw__finished_round(d->w);
	return err ? err : total;
}

/* --switch-output: a new file is due (SIGUSR2, its size, its age). */
static bool switch_due(struct drain *d)
{
	struct timespec ts;

	if (d->switch_sig && *d->switch_sig) {
		*d->switch_sig = 0;
		return true;
	}
	if (d->switch_size && d->file_written >= d->switch_size)
		return true;
	if (!d->switch_at)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec >= d->switch_at;
}

/*
 * mperf top: every live->every_ms, the writer flushed (the stream whole up
 * to here) and the tick called; its > 0 stops the recording as a control
 * stop does.
 */
static int live_tick(struct drain *d, volatile sig_atomic_t *stop)
{
	uint64_t every = d->live->every_ms * 1000000ull, now;
	struct timespec ts;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (!d->live_at)
		d->live_at = now + every;
	if (now < d->live_at)
		return 0;
	d->live_at = now + every;
	if ((err = pdw__flush(d->w)) || (err = d->live->tick(d->live->ctx, d->last_time)) <= 0)
		return err;
	*stop = RECORD_STOP_CONTROL;
	return 0;
}

/*
 * A ppoll that finds a buffer ready returns with the old mask put back,
 * and a signal that came meanwhile stays pending: when the buffers are
 * always ready (a busy machine, mperf top's refreshes) it would never be
 * taken.  Take the pending ones the loop waits for now.
 */
static void take_pending(const sigset_t *waitmask)
{
	struct timespec zero = { 0, 0 };
	sigset_t pend;

	if (sigpending(&pend) < 0)
		return;
	for (int s = 1; s < NSIG; s++)
		if (sigismember(&pend, s) == 1 && !sigismember(waitmask, s)) {
			ppoll(NULL, 0, &zero, waitmask);
			return;
		}
}

/*
 * The rule of both loops (this one and --threads' drain threads), perf's
 * (__cmd_record's loop, record__thread): a pass that found data is
 * followed by another at once, and the poll between only peeks (it does
 * not wait) for the signals, hang-ups and stop of the meanwhile; only a
 * pass that found none sleeps until the kernel wakes us.  Under load the
 * buffers then empty as fast as we are run, not one half-buffer wakeup at
 * a time.  True: the poll after a pass that wrote WROTE bytes peeks.
 */
bool drain__peek(struct drain *d, int64_t wrote)
{
	d->res->passes++;
	return wrote > 0;
}

/*
 * What that poll returned (N) counted: ready is a wakeup, a sleep or a
 * peek (the kernel woke us meanwhile: a half buffer more came), a sleep
 * that ran out is a timeout.
 */
void drain__polled(struct drain *d, bool peek, int n)
{
	if (n > 0)
		d->res->wakeups++;
	if (peek)
		return;
	d->res->sleeps++;
	if (n == 0)
		d->res->timeouts++;
}

/* Poll the buffers (and --control's fd): what ppoll returned; the signals are taken only inside. */
static int wait_once(struct drain *d, const sigset_t *waitmask, bool peek)
{
	int ms = peek ? 0 : control__timeout_ms(d->ctl, POLL_TIMEOUT_MS);
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nfds_t nfd = (nfds_t)d->nr_pfd;
	int n;

	if (d->ctl && d->ctl->polled) {
		d->pfd[nfd] = (struct pollfd){ .fd = d->ctl->fd, .events = POLLIN };
		nfd++;
	}
	n = ppoll(d->pfd, nfd, &ts, waitmask);
	if (n > 0)
		take_pending(waitmask);
	return n;
}

int drain__loop(struct drain *d, const sigset_t *waitmask, volatile sig_atomic_t *stop)
{
	struct pollfd *pfd = d->pfd;
	int err = 0;

	if (d->threads)
		return threads__loop(d, waitmask, stop);
	for (;;) {
		int stopping = *stop, hup = 0, n;
		int64_t wrote = drain__once(d, stopping);
		bool peek;

		if (wrote < 0) {
			err = (int)wrote;
			break;
		}
		if (stopping)
			break;
		d->written += (uint64_t)wrote;
		d->file_written += (uint64_t)wrote;
		if (switch_due(d)) {
			if ((wrote = drain__once(d, true)) < 0)
				return (int)wrote;
			d->written += (uint64_t)wrote;
			d->file_written += (uint64_t)wrote;
			return DRAIN_SWITCH;
		}
		if (d->live && (err = live_tick(d, stop)))
			break;
		if (d->max_size && d->written >= d->max_size && !*stop) {
			/* perf's --max-size: stop as a signal would, the file finished as always. */
			d->res->size_limited = true;
			*stop = RECORD_STOP_SIZE;
			continue;
		}
		peek = drain__peek(d, wrote);
		n = wait_once(d, waitmask, peek);
		if (n < 0 && errno != EINTR) {
			err = mperf_error(-errno, "poll failed: %s", strerror(errno));
			break;
		}
		if (d->ctl && (err = control__process(d->ctl, d->el, d->res,
						      n > 0 && d->ctl->polled ? pfd[d->nr_pfd].revents : 0, stop)))
			break;
		drain__polled(d, peek, n);
		if (n > 0) {
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
