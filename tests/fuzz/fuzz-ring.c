// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the ring reader: the input's first 16 bytes are
 * data_head and data_tail, the rest fills a data area of up to 4 KiB (the
 * largest power of two that fits), which is read event by event.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/ring/ring.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum { PAGE = 4096 };
	static unsigned char mem[PAGE + 4096];
	struct perf_event_mmap_page *pc = (void *)mem;
	const struct perf_event_header *h;
	const void *chunk[2];
	size_t len[2], dsize = 8;
	uint64_t sum = 0;
	struct ring r;

	if (size < 16 + 8)
		return 0;
	while (dsize * 2 <= size - 16 && dsize * 2 <= 4096)
		dsize *= 2;
	memset(mem, 0, sizeof(mem));
	memcpy(&pc->data_head, data, 8);
	memcpy(&pc->data_tail, data + 8, 8);
	memcpy(mem + PAGE, data + 16, dsize);
	if (ring__init_mem(&r, mem, PAGE, dsize))
		abort();
	ring__read_init(&r);
	while ((h = ring__read_event(&r)))
		sum += h->type + ((const unsigned char *)h)[h->size - 1];
	for (int i = 0, n = ring__span(&r, chunk, len); i < n; i++)
		sum += ((const unsigned char *)chunk[i])[len[i] - 1];
	ring__consume(&r);
	if (pc->data_tail != r.end)
		abort();
	ring__exit(&r);
	return (int)(sum & 0);
}
