// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring-buffer reader over hand-built memory: a control page followed by
 * a 256-byte data area, with data_head/data_tail set by the test the way the
 * kernel would.  Positions are free-running u64s; the data offset is the
 * position modulo the size, so most cases start well past the first lap.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/ring/ring.h"
#include "tap.h"

#define PAGE	4096
#define SIZE	256

struct fake {
	unsigned char *mem;
	struct perf_event_mmap_page *pc;
	unsigned char *data;
	struct ring r;
};

static void fake_init(struct fake *f, uint64_t tail)
{
	f->mem = calloc(1, PAGE + SIZE);
	if (!f->mem) {
		perror("calloc");
		exit(2);
	}
	f->pc = (struct perf_event_mmap_page *)f->mem;
	f->data = f->mem + PAGE;
	f->pc->data_head = f->pc->data_tail = tail;
	if (ring__init_mem(&f->r, f->mem, PAGE, SIZE)) {
		fprintf(stderr, "ring__init_mem failed\n");
		exit(2);
	}
}

static void fake_exit(struct fake *f)
{
	ring__exit(&f->r);
	free(f->mem);
}

/*
 * A record of the given size whose body bytes are a pattern derived from
 * seed, so that a misplaced or torn byte shows.
 */
static void make_record(unsigned char *out, uint32_t type, uint16_t size, unsigned seed)
{
	struct perf_event_header h = { .type = type, .misc = (uint16_t)seed, .size = size };

	memcpy(out, &h, sizeof(h));
	for (size_t i = sizeof(h); i < size; i++)
		out[i] = (unsigned char)(seed * 31 + i);
}

/* Write bytes at data_head as the kernel would (wrapping) and advance it. */
static void produce(struct fake *f, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t head = f->pc->data_head;

	for (size_t i = 0; i < len; i++)
		f->data[(head + i) & (SIZE - 1)] = p[i];
	f->pc->data_head = head + len;
}

static bool in_data(const struct fake *f, const void *p)
{
	const unsigned char *q = p;

	return q >= f->data && q < f->data + SIZE;
}

static void test_init_args(void)
{
	unsigned char *mem = calloc(1, PAGE + SIZE);
	struct ring r;

	is_int(ring__init_mem(&r, mem, PAGE, SIZE), 0, "init_mem: page 4096, data 256");
	is_int(ring__init_mem(&r, mem, PAGE, 96), -EINVAL, "init_mem: data size not a power of two");
	is_int(ring__init_mem(&r, mem, PAGE, 0), -EINVAL, "init_mem: data size 0");
	is_int(ring__init_mem(&r, mem, 64, SIZE), -EINVAL, "init_mem: page smaller than the control page");
	is_int(ring__init_mem(&r, NULL, PAGE, SIZE), -EINVAL, "init_mem: no memory");
	free(mem);
}

static void test_empty(void)
{
	const void *chunk[2];
	size_t len[2];
	struct fake f;

	fake_init(&f, 0);
	is_int(ring__read_init(&f.r), 0, "empty: read_init returns 0");
	ok(ring__read_event(&f.r) == NULL, "empty: read_event returns NULL");
	is_int(ring__span(&f.r, chunk, len), 0, "empty: span has no chunk");
	fake_exit(&f);

	fake_init(&f, 5 * SIZE + 40);
	is_int(ring__read_init(&f.r), 0, "empty past the first laps: read_init returns 0");
	ok(ring__read_event(&f.r) == NULL, "empty past the first laps: read_event returns NULL");
	is_u64(f.r.overruns, 0, "empty: no overrun counted");
	fake_exit(&f);
}

static void test_no_wrap(void)
{
	static const struct { uint32_t type; uint16_t size; } recs[] = {
		{ PERF_RECORD_SAMPLE, 48 }, { PERF_RECORD_COMM, 24 },
		{ PERF_RECORD_MMAP2, 96 }, { PERF_RECORD_EXIT, 40 },
	};
	const uint64_t tail = 2 * SIZE + 32;
	unsigned char bytes[256];
	size_t total = 0;
	const void *chunk[2] = { NULL, NULL };
	size_t len[2] = { 0, 0 };
	struct fake f;

	fake_init(&f, tail);
	for (size_t i = 0; i < 4; i++) {
		make_record(bytes + total, recs[i].type, recs[i].size, (unsigned)i + 1);
		total += recs[i].size;
	}
	produce(&f, bytes, total);

	is_int(ring__read_init(&f.r), total, "no wrap: read_init returns the readable bytes");
	is_int(ring__span(&f.r, chunk, len), 1, "no wrap: span is one chunk");
	ok(chunk[0] == f.data + 32, "no wrap: the chunk starts at the tail offset");
	is_u64(len[0], total, "no wrap: the chunk holds every readable byte");
	ok(!memcmp(chunk[0], bytes, total), "no wrap: the chunk holds the records' bytes");

	size_t off = 0;
	for (size_t i = 0; i < 4; i++) {
		const struct perf_event_header *h = ring__read_event(&f.r);

		if (!ok(h != NULL, "no wrap: record %zu is read", i)) {
			skip(4, "no record");
			continue;
		}
		is_int(h->type, recs[i].type, "no wrap: record %zu type", i);
		is_int(h->size, recs[i].size, "no wrap: record %zu size", i);
		ok(!memcmp(h, bytes + off, recs[i].size), "no wrap: record %zu bytes", i);
		ok((const unsigned char *)h == f.data + 32 + off,
		   "no wrap: record %zu is read in place", i);
		off += recs[i].size;
	}
	ok(ring__read_event(&f.r) == NULL, "no wrap: NULL after the last record");
	ok(ring__read_event(&f.r) == NULL, "no wrap: and again NULL");
	is_u64(f.pc->data_tail, tail, "no wrap: reading does not move data_tail");

	ring__consume(&f.r);
	is_u64(f.pc->data_tail, tail + total, "consume: data_tail = head snapshot");
	is_int(ring__read_init(&f.r), 0, "consume: nothing left to read");
	is_int(ring__span(&f.r, chunk, len), 0, "consume: span is empty");
	fake_exit(&f);
}

/* A snapshot taken before more data arrives: consume releases only the snapshot. */
static void test_consume_snapshot(void)
{
	unsigned char a[32], b[16];
	struct fake f;

	fake_init(&f, 7 * SIZE);
	make_record(a, PERF_RECORD_SAMPLE, sizeof(a), 1);
	make_record(b, PERF_RECORD_SAMPLE, sizeof(b), 2);
	produce(&f, a, sizeof(a));
	is_int(ring__read_init(&f.r), 32, "snapshot: 32 bytes readable");
	produce(&f, b, sizeof(b));
	ok(ring__read_event(&f.r) != NULL, "snapshot: the first record is read");
	ok(ring__read_event(&f.r) == NULL, "snapshot: a record after the snapshot is not read");
	ring__consume(&f.r);
	is_u64(f.pc->data_tail, 7 * SIZE + 32, "snapshot: consume stops at the snapshot");
	is_int(ring__read_init(&f.r), 16, "snapshot: the next pass sees the later record");
	const struct perf_event_header *h = ring__read_event(&f.r);
	ok(h && !memcmp(h, b, sizeof(b)), "snapshot: the later record is read next");
	fake_exit(&f);
}

static void test_wrap(void)
{
	/* Tail 16 bytes before the end: a 40-byte record is split 16 + 24. */
	const uint64_t tail = 3 * SIZE - 16;
	unsigned char bytes[64];
	const void *chunk[2] = { NULL, NULL };
	size_t len[2] = { 0, 0 };
	const struct perf_event_header *h;
	struct fake f;

	fake_init(&f, tail);
	make_record(bytes, PERF_RECORD_SAMPLE, 40, 7);
	make_record(bytes + 40, PERF_RECORD_LOST, 24, 8);
	produce(&f, bytes, sizeof(bytes));

	is_int(ring__read_init(&f.r), 64, "wrap: read_init returns the readable bytes");
	is_int(ring__span(&f.r, chunk, len), 2, "wrap: span is two chunks");
	ok(chunk[0] == f.data + SIZE - 16, "wrap: first chunk starts at the tail offset");
	is_u64(len[0], 16, "wrap: first chunk runs to the end of the buffer");
	ok(chunk[1] == f.data, "wrap: second chunk starts at the buffer start");
	is_u64(len[1], 48, "wrap: second chunk holds the rest");
	ok(!memcmp(chunk[0], bytes, 16) && !memcmp(chunk[1], bytes + 16, 48),
	   "wrap: the chunks concatenated are the records' bytes");

	h = ring__read_event(&f.r);
	ok(h != NULL, "wrap: the split record is read");
	ok(h && !memcmp(h, bytes, 40), "wrap: the split record comes back intact");
	ok(h && !in_data(&f, h), "wrap: the split record comes from a private copy");
	ok(!memcmp(f.data + SIZE - 16, bytes, 16), "wrap: the ring itself is left untouched");
	h = ring__read_event(&f.r);
	ok(h && !memcmp(h, bytes + 40, 24), "wrap: the record after it is read");
	ok(h && (const unsigned char *)h == f.data + 24, "wrap: and read in place");
	ok(ring__read_event(&f.r) == NULL, "wrap: NULL at the end");
	ring__consume(&f.r);
	is_u64(f.pc->data_tail, tail + 64, "wrap: consume sets data_tail to the head snapshot");

	/* A larger split record on the next lap: the private copy must grow. */
	unsigned char big[120];
	make_record(big, PERF_RECORD_SAMPLE, 120, 9);
	unsigned char pad[136];
	make_record(pad, PERF_RECORD_SAMPLE, 136, 10);
	produce(&f, pad, sizeof(pad));	/* 48..184 */
	produce(&f, big, sizeof(big));	/* 184..256+48: split 72 + 48 */
	is_int(ring__read_init(&f.r), 256, "wrap, full buffer: all 256 bytes readable");
	h = ring__read_event(&f.r);
	ok(h && !memcmp(h, pad, sizeof(pad)), "wrap, full buffer: first record");
	h = ring__read_event(&f.r);
	ok(h && !memcmp(h, big, sizeof(big)), "wrap, full buffer: 120-byte split record intact");
	ok(ring__read_event(&f.r) == NULL, "wrap, full buffer: NULL at the end");
	is_int(ring__span(&f.r, chunk, len), 2, "wrap, full buffer: span is two chunks");
	is_u64(len[0] + len[1], 256, "wrap, full buffer: the chunks cover the whole buffer");
	ring__consume(&f.r);
	is_u64(f.pc->data_tail, tail + 64 + 256, "wrap, full buffer: consume");
	is_u64(f.r.overruns, 0, "wrap, full buffer: a full buffer is not an overrun");
	fake_exit(&f);
}

/* A record ending exactly at the end of the buffer is not a wrap. */
static void test_exact_end(void)
{
	unsigned char a[32], b[16];
	const void *chunk[2];
	size_t len[2];
	const struct perf_event_header *h;
	struct fake f;

	fake_init(&f, 4 * SIZE - 32);
	make_record(a, PERF_RECORD_SAMPLE, sizeof(a), 3);
	make_record(b, PERF_RECORD_SAMPLE, sizeof(b), 4);
	produce(&f, a, sizeof(a));
	produce(&f, b, sizeof(b));
	ring__read_init(&f.r);
	h = ring__read_event(&f.r);
	ok(h && (const unsigned char *)h == f.data + SIZE - 32 && !memcmp(h, a, 32),
	   "exact end: the record up to the end is read in place");
	h = ring__read_event(&f.r);
	ok(h && (const unsigned char *)h == f.data && !memcmp(h, b, 16),
	   "exact end: the next record is read from the start");
	is_int(ring__span(&f.r, chunk, len), 2, "exact end: span is two chunks");
	ok(len[0] == 32 && len[1] == 16, "exact end: chunks of 32 and 16 bytes");
	fake_exit(&f);
}

static void test_malformed(void)
{
	unsigned char rec[48];
	struct perf_event_header bad;
	struct fake f;

	/* size 0 */
	fake_init(&f, 9 * SIZE + 200);
	make_record(rec, PERF_RECORD_SAMPLE, 48, 1);
	memcpy(&bad, rec, sizeof(bad));
	bad.size = 0;
	memcpy(rec, &bad, sizeof(bad));
	produce(&f, rec, 48);
	ring__read_init(&f.r);
	ok(ring__read_event(&f.r) == NULL, "malformed: header size 0 stops read_event");
	ok(ring__read_event(&f.r) == NULL, "malformed: and keeps it stopped");
	fake_exit(&f);

	/* size smaller than a header */
	fake_init(&f, 0);
	make_record(rec, PERF_RECORD_SAMPLE, 48, 1);
	bad.size = 4;
	memcpy(rec, &bad, sizeof(bad));
	produce(&f, rec, 48);
	ring__read_init(&f.r);
	ok(ring__read_event(&f.r) == NULL, "malformed: header size 4 stops read_event");
	fake_exit(&f);

	/* A good record, then one whose size runs past the head (and wraps). */
	fake_init(&f, 3 * SIZE - 32);
	make_record(rec, PERF_RECORD_SAMPLE, 16, 2);
	produce(&f, rec, 16);
	make_record(rec, PERF_RECORD_SAMPLE, 48, 3);
	produce(&f, rec, 16);		/* only 16 of its 48 bytes are published */
	is_int(ring__read_init(&f.r), 32, "malformed: 32 bytes readable");
	ok(ring__read_event(&f.r) != NULL, "malformed: the good record is read");
	ok(ring__read_event(&f.r) == NULL, "malformed: a record larger than what is left stops read_event");
	fake_exit(&f);

	/* Fewer readable bytes than a header. */
	fake_init(&f, SIZE + 8);
	f.pc->data_head += 4;
	is_int(ring__read_init(&f.r), 4, "malformed: 4 bytes readable");
	ok(ring__read_event(&f.r) == NULL, "malformed: less than a header stops read_event");
	fake_exit(&f);

	/* Size field of 0xffff in a 256-byte buffer. */
	fake_init(&f, 0);
	make_record(rec, PERF_RECORD_SAMPLE, 48, 4);
	bad.size = 0xffff;
	memcpy(rec, &bad, sizeof(bad));
	produce(&f, rec, 48);
	ring__read_init(&f.r);
	ok(ring__read_event(&f.r) == NULL, "malformed: header size 0xffff stops read_event");
	fake_exit(&f);
}

static void test_overrun(void)
{
	const void *chunk[2];
	size_t len[2];
	struct fake f;

	fake_init(&f, 3 * SIZE - 16);
	f.pc->data_head += SIZE + 8;
	is_int(ring__read_init(&f.r), 0, "overrun: head - tail > size reads nothing");
	is_u64(f.r.overruns, 1, "overrun: counted");
	ok(ring__read_event(&f.r) == NULL, "overrun: read_event returns NULL");
	is_int(ring__span(&f.r, chunk, len), 0, "overrun: span is empty");
	ring__consume(&f.r);
	is_u64(f.pc->data_tail, 4 * SIZE - 8, "overrun: consume skips to the head");
	is_int(ring__read_init(&f.r), 0, "overrun: the next pass is empty");
	is_u64(f.r.overruns, 1, "overrun: and not counted again");
	fake_exit(&f);

	/* Tail ahead of head: head - tail wraps around as a u64. */
	fake_init(&f, 3 * SIZE);
	f.pc->data_head -= 8;
	is_int(ring__read_init(&f.r), 0, "overrun: tail ahead of head reads nothing");
	is_u64(f.r.overruns, 1, "overrun: tail ahead of head is counted");
	fake_exit(&f);
}

/* Write a record below data_head as a backward ring's kernel does, and move head down to it. */
static void produce_backward(struct fake *f, uint16_t size, unsigned seed)
{
	unsigned char rec[64];
	uint64_t head = f->pc->data_head - size;

	make_record(rec, PERF_RECORD_SAMPLE, size, seed);
	for (size_t i = 0; i < size; i++)
		f->data[(head + i) & (SIZE - 1)] = rec[i];
	f->pc->data_head = head;
}

/* The seeds of the records of one pass, newest first: their count. */
static int backward_pass(struct fake *f, unsigned *seeds, int max)
{
	const struct perf_event_header *h;
	int n = 0;

	ring__read_init(&f->r);
	while ((h = ring__read_event(&f->r)) && n < max)
		seeds[n++] = h->misc;
	ring__consume(&f->r);
	return n;
}

/*
 * A backward ring (--overwrite): a pass reads from head, newest first, up
 * to the last pass's head, and never more than the buffer's whole records.
 */
static void test_backward(void)
{
	struct fake f;
	unsigned seeds[16];
	int n;

	fake_init(&f, 0);
	f.r.backward = 1;
	ok(ring__read_init(&f.r) == 0, "backward: nothing written, nothing to read");
	for (unsigned i = 1; i <= 3; i++)
		produce_backward(&f, 40, i);
	ok(ring__read_init(&f.r) == 120, "backward: three records, 120 bytes");
	n = backward_pass(&f, seeds, 16);
	ok(n == 3 && seeds[0] == 3 && seeds[1] == 2 && seeds[2] == 1, "backward: newest first");
	ok(ring__read_init(&f.r) == 0, "backward: a second pass has nothing new");
	for (unsigned i = 4; i <= 13; i++)
		produce_backward(&f, 40, i);
	n = backward_pass(&f, seeds, 16);
	ok(n == 6 && seeds[0] == 13 && seeds[5] == 8,
	   "backward: overwritten, the six whole records that fit in 256 bytes, newest first (%d)", n);
	produce_backward(&f, 40, 14);
	produce_backward(&f, 24, 15);
	n = backward_pass(&f, seeds, 16);
	ok(n == 2 && seeds[0] == 15 && seeds[1] == 14, "backward: then only what came since");
	fake_exit(&f);
}

int main(void)
{
	test_init_args();
	test_empty();
	test_no_wrap();
	test_consume_snapshot();
	test_wrap();
	test_exact_end();
	test_malformed();
	test_overrun();
	test_backward();
	return done_testing();
}
