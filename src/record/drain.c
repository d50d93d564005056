// SPDX-License-Identifier: GPL-2.0-only
/*
 * One ring buffer per CPU, drained into the file: every event of a CPU
 * writes into the buffer of that CPU's first event, and the loop polls
 * only those buffers' fds.
 */
#include <errno.h>
#include <poll.h>
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

int drain__map(struct drain *d, size_t pages)
{
	struct evlist *el = d->el;

	d->ring = calloc((size_t)el->nr_cpus, sizeof(*d->ring));
	if (!d->ring)
		return mperf_error(-ENOMEM, "out of memory");
	for (int c = 0; c < el->nr_cpus; c++) {
		int cpu = el->cpus[c], leader = evlist__fd(el, 0, c);
		int err = ring__mmap(&d->ring[c], leader, pages);

		if (err == -EPERM || err == -ENOMEM)
			return mperf_error(err, "cannot mmap the buffer of cpu %d (%zu pages): %s (the limit is kernel.perf_event_mlock_kb; use a smaller -m or raise it)",
					   cpu, pages, mperf_strerror(err));
		if (err)
			return mperf_error(err, "cannot mmap the buffer of cpu %d: %s", cpu, mperf_strerror(err));
		d->nr_rings = c + 1;
		/* SET_OUTPUT needs the same CPU and an fd without a mapping of its own. */
		for (size_t i = 1; i < el->nr_ev; i++)
			if (ioctl(evlist__fd(el, i, c), PERF_EVENT_IOC_SET_OUTPUT, leader) < 0)
				return mperf_error(-errno, "cannot redirect event '%s' into the buffer of cpu %d: %s",
						   d->res->ev[i].name, cpu, strerror(errno));
	}
	return 0;
}

void drain__unmap(struct drain *d)
{
	for (int c = 0; c < d->nr_rings; c++)
		ring__exit(&d->ring[c]);
	free(d->ring);
	d->ring = NULL;
	d->nr_rings = 0;
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
		} else if (h->type == PERF_RECORD_LOST) {
			struct pd_lost_event e;

			if (PD_VIEW(h, &e)) {
				d->res->lost_records++;
				d->res->lost_events += e.lost;
			}
		}
	}
}

int64_t drain__once(struct drain *d)
{
	int64_t total = 0;
	int err;

	for (int c = 0; c < d->nr_rings; c++) {
		struct ring *ring = &d->ring[c];
		const void *chunk[2];
		size_t len[2];
		int n;

		if (ring__read_init(ring) <= 0)
			continue;
		account(d, ring);
		n = ring__span(ring, chunk, len);
		for (int k = 0; k < n; k++) {
			if ((err = pdw__write(d->w, chunk[k], len[k])))
				return err;
			total += (int64_t)len[k];
		}
		ring__consume(ring);
	}
	if (total && (err = pdw__finished_round(d->w)))
		return err;
	return total;
}

int drain__loop(struct drain *d, const sigset_t *waitmask, volatile sig_atomic_t *stop)
{
	struct pollfd *pfd = calloc((size_t)d->nr_rings, sizeof(*pfd));
	struct timespec ts = { POLL_TIMEOUT_MS / 1000, (POLL_TIMEOUT_MS % 1000) * 1000000L };
	int err = 0;

	if (!pfd)
		return mperf_error(-ENOMEM, "out of memory");
	for (int c = 0; c < d->nr_rings; c++) {
		pfd[c].fd = evlist__fd(d->el, 0, c);
		pfd[c].events = POLLIN;
	}
	for (;;) {
		int stopping = *stop, hup = 0, n;
		int64_t wrote = drain__once(d);

		if (wrote < 0) {
			err = (int)wrote;
			break;
		}
		if (stopping)
			break;
		/* The signals stay blocked except inside ppoll: none is missed. */
		n = ppoll(pfd, (nfds_t)d->nr_rings, &ts, waitmask);
		if (n < 0 && errno != EINTR) {
			err = mperf_error(-errno, "poll failed: %s", strerror(errno));
			break;
		}
		if (n == 0)
			d->res->timeouts++;
		if (n > 0) {
			d->res->wakeups++;
			for (int c = 0; c < d->nr_rings; c++) {
				if (pfd[c].revents & (POLLHUP | POLLERR)) {
					pfd[c].fd = -1;	/* the events are gone; stop polling it */
					hup++;
				} else if (pfd[c].fd < 0) {
					hup++;
				}
			}
			if (hup == d->nr_rings && !*stop)
				*stop = -1;
		}
	}
	free(pfd);
	return err;
}
