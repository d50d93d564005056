// SPDX-License-Identifier: GPL-2.0-only
/*
 * record -z: the drain copies what it reads from the ring buffers into
 * memory and hands the buffers straight back to the kernel; this thread
 * compresses the copies and writes them.  So compressing never holds a
 * ring buffer: the drain goes on at its own pace, and the kernel loses
 * no more than without -z.  The copies wait here up to a bound; past it
 * the drain waits, and the ring buffers hold the rest (losses then are
 * the kernel's, counted as always).
 *
 * While the thread runs it is the writer's only user: the drain puts
 * rounds (its data, then the end of the round), the thread writes each
 * round's data compressed (one flush of the stream per round), then a
 * FINISHED_ROUND as it is.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "../lib/buf.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "internal.h"

struct batch {
	struct mbuf data;
	size_t *ends;		/* where each round ends in data */
	size_t nr_ends, cap_ends;
};

struct compressor {
	struct pdata_writer *w;
	size_t max;		/* bytes waiting at most before the drain waits */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t work, space;
	struct batch pending;	/* the drain's, under lock */
	struct batch busy;	/* the thread's own */
	bool stop;		/* under lock: write what is pending, then end */
	int err;		/* under lock: the thread's first failure (logged by the writer) */
};

static void batch_free(struct batch *b)
{
	mbuf_free(&b->data);
	free(b->ends);
}

/* Write one batch: each round compressed and its FINISHED_ROUND, then what came after the last. */
static int write_batch(struct pdata_writer *w, const struct batch *b)
{
	size_t at = 0;
	int err;

	for (size_t i = 0; i < b->nr_ends; i++) {
		if ((err = pdw__write_compressed(w, b->data.p + at, b->ends[i] - at)) ||
		    (err = pdw__finished_round(w)))
			return err;
		at = b->ends[i];
	}
	return pdw__write_compressed(w, b->data.p + at, b->data.len - at);
}

static void *run(void *arg)
{
	struct compressor *c = arg;

	pthread_mutex_lock(&c->lock);
	for (;;) {
		struct batch t;
		int err;

		while (!c->pending.data.len && !c->pending.nr_ends && !c->stop)
			pthread_cond_wait(&c->work, &c->lock);
		if (!c->pending.data.len && !c->pending.nr_ends)
			break;
		t = c->pending;
		c->pending = c->busy;
		c->busy = t;
		pthread_cond_signal(&c->space);
		pthread_mutex_unlock(&c->lock);
		err = write_batch(c->w, &c->busy);
		c->busy.data.len = c->busy.nr_ends = 0;
		pthread_mutex_lock(&c->lock);
		if (err) {
			c->err = err;
			pthread_cond_signal(&c->space);
			break;
		}
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

struct compressor *compressor__start(struct pdata_writer *w, size_t max)
{
	struct compressor *c = calloc(1, sizeof(*c));
	int err;

	if (!c) {
		errno = -mperf_error(-ENOMEM, "out of memory");
		return NULL;
	}
	c->w = w;
	c->max = max;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->work, NULL);
	pthread_cond_init(&c->space, NULL);
	if ((err = pthread_create(&c->thread, NULL, run, c))) {
		mperf_error(-err, "cannot start the thread that compresses: %s", strerror(err));
		pthread_cond_destroy(&c->space);
		pthread_cond_destroy(&c->work);
		pthread_mutex_destroy(&c->lock);
		free(c);
		errno = err;
		return NULL;
	}
	return c;
}

int compressor__put(struct compressor *c, const void *const chunk[], const size_t len[], int n)
{
	size_t total = 0;
	int err = 0;

	for (int k = 0; k < n; k++)
		total += len[k];
	pthread_mutex_lock(&c->lock);
	/* Past the bound the ring buffers wait instead (a chunk alone always fits). */
	while (!c->err && c->pending.data.len && c->pending.data.len + total > c->max)
		pthread_cond_wait(&c->space, &c->lock);
	for (int k = 0; k < n && !(err = c->err); k++)
		if (mbuf_add(&c->pending.data, chunk[k], len[k]))
			err = mperf_error(-ENOMEM, "out of memory for the data to compress");
	pthread_mutex_unlock(&c->lock);
	return err;
}

int compressor__round(struct compressor *c)
{
	int err;

	pthread_mutex_lock(&c->lock);
	err = c->err;
	if (!err && ALLOC_GROW(c->pending.ends, c->pending.nr_ends + 1, c->pending.cap_ends))
		err = mperf_error(-ENOMEM, "out of memory for the data to compress");
	if (!err) {
		c->pending.ends[c->pending.nr_ends++] = c->pending.data.len;
		pthread_cond_signal(&c->work);
	}
	pthread_mutex_unlock(&c->lock);
	return err;
}

int compressor__stop(struct compressor *c)
{
	int err;

	if (!c)
		return 0;
	pthread_mutex_lock(&c->lock);
	c->stop = true;
	pthread_cond_signal(&c->work);
	pthread_mutex_unlock(&c->lock);
	pthread_join(c->thread, NULL);
	err = c->err;
	batch_free(&c->pending);
	batch_free(&c->busy);
	pthread_cond_destroy(&c->space);
	pthread_cond_destroy(&c->work);
	pthread_mutex_destroy(&c->lock);
	free(c);
	return err;
}
