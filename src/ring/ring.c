// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "ring.h"

static int map_ring(struct ring *r, int fd, size_t data_pages, int prot)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len;
	void *base;

	if (!data_pages || (data_pages & (data_pages - 1)))
		return -EINVAL;
	len = (data_pages + 1) * page;
	base = mmap(NULL, len, prot, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return -errno;
	memset(r, 0, sizeof(*r));
	r->pc = base;
	r->data = (unsigned char *)base + page;
	r->size = data_pages * page;
	r->map_len = len;
	return 0;
}

int ring__mmap(struct ring *r, int fd, size_t data_pages)
{
	return map_ring(r, fd, data_pages, PROT_READ | PROT_WRITE);
}

int ring__mmap_backward(struct ring *r, int fd, size_t data_pages)
{
	/* Read-only: the kernel writes backward and never waits for data_tail. */
	int err = map_ring(r, fd, data_pages, PROT_READ);

	if (!err)
		r->backward = 1;
	return err;
}

int ring__init_mem(struct ring *r, void *mem, size_t page_size, size_t data_size)
{
	if (!mem || page_size < sizeof(struct perf_event_mmap_page) ||
	    !data_size || (data_size & (data_size - 1)))
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->pc = mem;
	r->data = (unsigned char *)mem + page_size;
	r->size = data_size;
	return 0;
}

void ring__exit(struct ring *r)
{
	if (r->map_len)
		munmap(r->pc, r->map_len);
	free(r->bounce);
	memset(r, 0, sizeof(*r));
}

/*
 * A backward pass: from head (the newest record) up, record by record, to
 * where the last pass began (prev), but no further than the buffer's size
 * from head: past it the oldest record is partly overwritten.
 */
static int64_t read_init_backward(struct ring *r)
{
	uint64_t head = __atomic_load_n(&r->pc->data_head, __ATOMIC_ACQUIRE);
	uint64_t pos = head;
	size_t mask = r->size - 1;

	while (pos != r->prev) {
		struct perf_event_header h;
		size_t off = pos & mask;

		if ((off & 7) || off + sizeof(h) > r->size)
			break;
		memcpy(&h, r->data + off, sizeof(h));
		if (h.size < sizeof(h) || pos - head + h.size > r->size || r->prev - pos < h.size)
			break;
		pos += h.size;
	}
	r->start = r->pos = head;
	r->end = pos;
	return (int64_t)(pos - head);
}

int64_t ring__read_init(struct ring *r)
{
	if (r->backward)
		return read_init_backward(r);
	/*
	 * Acquire pairs with the kernel's store of data_head after it wrote
	 * the records (perf_output_put_handle): every byte before head is
	 * visible once we see head.  The kernel only reads data_tail, so our
	 * plain read of it is fine.
	 */
	uint64_t head = __atomic_load_n(&r->pc->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->pc->data_tail;

	if (head - tail > r->size) {
		/*
		 * Cannot happen with a writable mapping (the kernel never
		 * overwrites unread data), only with corrupt memory; skip to
		 * the head rather than read garbage.
		 */
		r->overruns++;
		tail = head;
	}
	r->start = r->pos = tail;
	r->end = head;
	return (int64_t)(head - tail);
}

const struct perf_event_header *ring__read_event(struct ring *r)
{
	size_t mask = r->size - 1;
	struct perf_event_header h;
	size_t off, left = r->end - r->pos;
	unsigned char *p;

	if (left < sizeof(h))
		return NULL;
	off = r->pos & mask;
	/*
	 * The kernel keeps every record 8-aligned, so a header never
	 * straddles the end; a position that is not aligned is corruption.
	 */
	if ((off & 7) || off + sizeof(h) > r->size)
		return NULL;
	memcpy(&h, r->data + off, sizeof(h));
	if (h.size < sizeof(h) || h.size > left)
		return NULL;
	p = r->data + off;
	if (off + h.size > r->size) {
		size_t first = r->size - off;

		if (r->bounce_len < h.size) {
			void *nb = realloc(r->bounce, h.size);

			if (!nb)
				return NULL;
			r->bounce = nb;
			r->bounce_len = h.size;
		}
		memcpy(r->bounce, p, first);
		memcpy((unsigned char *)r->bounce + first, r->data, h.size - first);
		p = r->bounce;
	}
	r->pos += h.size;
	return (const struct perf_event_header *)p;
}

int ring__span(const struct ring *r, const void *chunk[2], size_t len[2])
{
	size_t mask = r->size - 1;
	size_t off = r->start & mask;
	size_t total = r->end - r->start;

	if (!total)
		return 0;
	chunk[0] = r->data + off;
	if (off + total <= r->size) {
		len[0] = total;
		return 1;
	}
	len[0] = r->size - off;
	chunk[1] = r->data;
	len[1] = total - len[0];
	return 2;
}

void ring__consume(struct ring *r)
{
	if (r->backward) {
		/* Nothing to hand back: the next pass ends where this one began. */
		r->prev = r->start;
		r->start = r->pos = r->end;
		return;
	}
	/*
	 * Release orders our reads of the data before the tail store: once
	 * the kernel sees the new tail it may overwrite that space.
	 */
	__atomic_store_n(&r->pc->data_tail, r->end, __ATOMIC_RELEASE);
	r->start = r->pos = r->end;
}
