/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_RING_H
#define MPERF_RING_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/*
 * The kernel's mmap'd ring buffer: one control page (struct
 * perf_event_mmap_page) followed by 2^n data pages.  The kernel writes
 * records at data_head; we read from data_tail and hand the space back by
 * advancing data_tail.  This module is the only code that touches the
 * control page.
 *
 * Reading is: ring__read_init() to snapshot the head, then either
 * ring__read_event() in a loop or ring__span() for the raw bytes, then
 * ring__consume() to release what was read.
 *
 * A backward ring (attr.write_backward, mapped read-only: perf's
 * overwrite mode, a flight recorder) is written by the kernel from the
 * top down, over its oldest records, and never waits for a reader: the
 * caller pauses it (PERF_EVENT_IOC_PAUSE_OUTPUT) around a pass, which
 * holds the records written since the last pass, at most a buffer's
 * worth of whole records, newest first.
 */
struct ring {
	struct perf_event_mmap_page *pc;
	unsigned char *data;	/* first data byte (page 1 of the mapping) */
	size_t size;		/* data area size, a power of two */
	size_t map_len;		/* 0 when the memory is not ours to unmap */
	uint64_t start;		/* tail position this pass started from */
	uint64_t end;		/* head snapshot of this pass */
	uint64_t pos;		/* read_event cursor, start <= pos <= end */
	void *bounce;		/* copy of a record that wraps the end */
	size_t bounce_len;
	uint64_t overruns;	/* passes where head - tail exceeded the buffer */
	int backward;		/* a backward ring: read from head up to prev */
	uint64_t prev;		/* backward: the head of the last pass (0: none yet) */
};

/* Map data_pages (a power of two) data pages of a perf event fd. */
int ring__mmap(struct ring *r, int fd, size_t data_pages);
/* The same for an event with write_backward: read-only, read as a backward ring. */
int ring__mmap_backward(struct ring *r, int fd, size_t data_pages);
/*
 * Use caller-owned memory laid out like the mapping: a control page of
 * page_size bytes, then data_size bytes (a power of two).  For tests and
 * fuzzing; data_head/data_tail are read from and written to that memory.
 */
int ring__init_mem(struct ring *r, void *mem, size_t page_size, size_t data_size);
void ring__exit(struct ring *r);

/*
 * Snapshot data_head.  Returns the number of readable bytes (0 if none).
 * Backward, the whole records from head to the last pass's head, at most
 * the buffer's size (the older ones are overwritten).
 */
int64_t ring__read_init(struct ring *r);
/*
 * Next whole record of this pass, or NULL at the end (or when the next
 * header is malformed: size 0, larger than what is left, or at an
 * unaligned position; or when the copy of a wrapping record cannot be
 * allocated).  A record that wraps the end of the buffer is returned from a
 * private copy, valid until the next call.  ring__span() still covers
 * every byte of the pass, whatever this stopped at.
 */
const struct perf_event_header *ring__read_event(struct ring *r);
/*
 * The readable bytes of this pass as at most two chunks (the end of the
 * buffer, then its start).  Returns the number of chunks (0, 1 or 2).
 */
int ring__span(const struct ring *r, const void *chunk[2], size_t len[2]);
/* Hand everything up to the snapshot back to the kernel (backward: the next pass ends here). */
void ring__consume(struct ring *r);

#endif
