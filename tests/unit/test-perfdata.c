// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.data writer, reader and decoders: a file-mode round trip through a
 * temp file and through memory, pipe mode from memory and from a pipe,
 * every sample_type field, sample_id trailers, malformed inputs, and the
 * event-name helpers.  Byte images are built by hand so that the tests say
 * what the bytes are, not what the writer happens to produce.
 *
 * Inputs handed to the reader are copied into buffers of exactly their size
 * so that valgrind sees any read past the end; the prefix test places them
 * before an inaccessible page and runs the reader in a child, so an
 * overread shows up as a crash even without valgrind.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>
#include "../../src/lib/err.h"
#include "../../src/perfdata/perfdata.h"
#include "logcap.h"
#include "tap.h"

/* What perf 6.1 records with several events: IP|TID|TIME|ID|PERIOD. */
#define ST_0x147 (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		  PERF_SAMPLE_PERIOD)

/* ---- building bytes ---- */

struct bb {
	unsigned char b[4096];
	size_t n;
	size_t rec;	/* start of the record being built */
};


/* What the reader logged into err (len > 0), cut to fit. */
static void copy_err(char *err, size_t len)
{
	size_t n = strnlen(logcap_err, len - 1);

	memcpy(err, logcap_err, n);
	err[n] = '\0';
}

/* The reader's open calls, with what they logged in err. */
static struct pdata *open_file(const char *path, char *err, size_t len)
{
	struct pdata *p;

	logcap_reset();
	p = pdata__open(path);
	copy_err(err, len);
	return p;
}

static struct pdata *open_mem(const void *buf, size_t n, char *err, size_t len)
{
	struct pdata *p;

	logcap_reset();
	p = pdata__open_mem(buf, n);
	copy_err(err, len);
	return p;
}

static void bb_bytes(struct bb *b, const void *p, size_t n)
{
	if (n > sizeof(b->b) - b->n) {
		fprintf(stderr, "test buffer overflow\n");
		abort();
	}
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void bb_u64(struct bb *b, uint64_t v)
{
	bb_bytes(b, &v, 8);
}

static void bb_u32(struct bb *b, uint32_t v)
{
	bb_bytes(b, &v, 4);
}

static void bb_pair(struct bb *b, uint32_t lo, uint32_t hi)
{
	bb_u32(b, lo);
	bb_u32(b, hi);
}

/* A string NUL-padded to a multiple of 8 bytes. */
static void bb_str8(struct bb *b, const char *s)
{
	static const unsigned char zero[8];
	size_t n = strlen(s) + 1;

	bb_bytes(b, s, n);
	bb_bytes(b, zero, (8 - n % 8) % 8);
}

/* Start a record; bb_end() fills in its size. */
static void bb_begin(struct bb *b, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = 0 };

	b->rec = b->n;
	bb_bytes(b, &h, sizeof(h));
}

static size_t bb_end(struct bb *b)
{
	uint16_t size = (uint16_t)(b->n - b->rec);

	memcpy(b->b + b->rec + 6, &size, 2);
	return b->rec;
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static void put16(unsigned char *p, uint16_t v)
{
	memcpy(p, &v, 2);
}

static void *dup_exact(const void *p, size_t n)
{
	void *q = malloc(n ? n : 1);

	if (!q) {
		perror("malloc");
		exit(2);
	}
	memcpy(q, p, n);
	return q;
}

static unsigned char *read_whole(const char *path, size_t *len)
{
	struct stat st;
	unsigned char *buf;
	FILE *f = fopen(path, "rb");

	*len = 0;
	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) < 0) {
		fclose(f);
		return NULL;
	}
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (buf && fread(buf, 1, (size_t)st.st_size, f) == (size_t)st.st_size) {
		*len = (size_t)st.st_size;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* ---- sample decoding ---- */

static unsigned char *held;	/* the copy that pd_sample's pointers point into */

/* Decode the record in r from an exact-size copy whose size field is cut bytes short. */
static int parse_cut(const struct perf_event_attr *attr, const struct bb *r, size_t cut,
		     struct pd_sample *s)
{
	size_t n = r->n - cut;

	free(held);
	held = dup_exact(r->b, n);
	put16(held + 6, (uint16_t)n);
	return pd_parse_sample(attr, held, s);
}

static int parse(const struct perf_event_attr *attr, const struct bb *r, struct pd_sample *s)
{
	return parse_cut(attr, r, 0, s);
}

static int parse_short(const struct perf_event_attr *attr, const struct bb *r)
{
	struct pd_sample s;

	return parse_cut(attr, r, 8, &s);
}

static struct perf_event_attr mkattr(uint64_t sample_type)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = PD_ATTR_SIZE;
	a.sample_type = sample_type;
	a.sample_period = 1;
	return a;
}

#define FIELD(bit, f) { bit, #bit, offsetof(struct pd_sample, f) }
static const struct {
	uint64_t bit;
	const char *name;
	size_t off;
} u64_fields[] = {
	FIELD(PERF_SAMPLE_IP, ip),
	FIELD(PERF_SAMPLE_TIME, time),
	FIELD(PERF_SAMPLE_ADDR, addr),
	FIELD(PERF_SAMPLE_ID, id),
	FIELD(PERF_SAMPLE_STREAM_ID, stream_id),
	FIELD(PERF_SAMPLE_PERIOD, period),
	FIELD(PERF_SAMPLE_WEIGHT, weight),
	FIELD(PERF_SAMPLE_DATA_SRC, data_src),
	FIELD(PERF_SAMPLE_TRANSACTION, transaction),
	FIELD(PERF_SAMPLE_PHYS_ADDR, phys_addr),
	FIELD(PERF_SAMPLE_CGROUP, cgroup),
	FIELD(PERF_SAMPLE_DATA_PAGE_SIZE, data_page_size),
	FIELD(PERF_SAMPLE_CODE_PAGE_SIZE, code_page_size),
	FIELD(PERF_SAMPLE_IDENTIFIER, id),
};
#undef FIELD

static void test_sample_u64_fields(void)
{
	for (size_t i = 0; i < sizeof(u64_fields) / sizeof(u64_fields[0]); i++) {
		struct perf_event_attr a = mkattr(u64_fields[i].bit);
		uint64_t v = 0xa5a5000000000000ULL | (i << 8) | i, got;
		struct pd_sample s;
		struct bb r = { .n = 0 };

		bb_begin(&r, PERF_RECORD_SAMPLE, 0);
		bb_u64(&r, v);
		bb_end(&r);
		is_int(parse(&a, &r, &s), 0, "%s: decodes", u64_fields[i].name);
		memcpy(&got, (const char *)&s + u64_fields[i].off, 8);
		is_u64(got, v, "%s: value", u64_fields[i].name);
		is_int(parse_short(&a, &r), -MPERF_ERR_CORRUPT, "%s: one word short is an error",
		       u64_fields[i].name);
	}
}

static void test_sample_defaults(void)
{
	struct perf_event_attr a = mkattr(PERF_SAMPLE_IP);
	struct pd_sample s;
	struct bb r = { .n = 0 };

	bb_begin(&r, PERF_RECORD_SAMPLE, 0);
	bb_u64(&r, 0x401000);
	bb_end(&r);
	a.sample_period = 4321;
	parse(&a, &r, &s);
	ok(s.pid == (uint32_t)-1 && s.tid == (uint32_t)-1 && s.cpu == (uint32_t)-1,
	   "absent pid, tid, cpu are -1");
	ok(s.time == UINT64_MAX && s.id == UINT64_MAX && s.stream_id == UINT64_MAX,
	   "absent time, id, stream_id are -1");
	is_u64(s.period, 4321, "no PERIOD field: the period is the attr's sample_period");
	a.freq = 1;
	a.sample_freq = 4000;
	parse(&a, &r, &s);
	is_u64(s.period, 0, "no PERIOD field with freq=1: the period is 0");

	struct bb h = { .n = 0 };
	bb_begin(&h, PERF_RECORD_SAMPLE, 0);
	bb_end(&h);
	is_int(parse(&a, &h, &s), -MPERF_ERR_CORRUPT, "a header-only sample with IP is an error");
	put16(h.b + 6, 4);
	free(held);
	held = dup_exact(h.b, 8);
	is_int(pd_parse_sample(&a, held, &s), -MPERF_ERR_CORRUPT,
	       "a header whose size is 4 is an error");
}

static void test_sample_tid_cpu(void)
{
	struct perf_event_attr a = mkattr(PERF_SAMPLE_TID);
	struct pd_sample s;
	struct bb r = { .n = 0 };

	bb_begin(&r, PERF_RECORD_SAMPLE, 0);
	bb_pair(&r, 100, 101);
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "TID: decodes");
	is_int(s.pid, 100, "TID: pid");
	is_int(s.tid, 101, "TID: tid");
	is_int(parse_short(&a, &r), -MPERF_ERR_CORRUPT, "TID: one word short is an error");

	a = mkattr(PERF_SAMPLE_CPU);
	r.n = 0;
	bb_begin(&r, PERF_RECORD_SAMPLE, 0);
	bb_pair(&r, 3, 0xdead);
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "CPU: decodes");
	is_int(s.cpu, 3, "CPU: cpu (the reserved half is ignored)");
	is_int(parse_short(&a, &r), -MPERF_ERR_CORRUPT, "CPU: one word short is an error");
}

static void test_sample_read(void)
{
	struct perf_event_attr a = mkattr(PERF_SAMPLE_READ);
	struct pd_sample s;
	struct bb r = { .n = 0 };

	/* value, enabled, running, id, lost */
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			PERF_FORMAT_ID | PERF_FORMAT_LOST;
	bb_begin(&r, PERF_RECORD_SAMPLE, 0);
	for (uint64_t v = 1; v <= 5; v++)
		bb_u64(&r, v * 1000);
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "READ: decodes");
	is_u64(s.read_len, 40, "READ: block of 5 words");
	ok(s.read == held + 8, "READ: block follows the header");
	ok(s.read && pd_u64(s.read) == 1000 && pd_u64(s.read + 32) == 5000, "READ: block contents");
	is_int(parse_short(&a, &r), -MPERF_ERR_CORRUPT, "READ: one word short is an error");

	a.read_format = 0;
	r.n = 0;
	bb_begin(&r, PERF_RECORD_SAMPLE, 0);
	bb_u64(&r, 77);
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "READ, value only: decodes");
	is_u64(s.read_len, 8, "READ, value only: one word");

	/* nr, enabled, nr x {value, id, lost}; then a callchain to check the length. */
	a = mkattr(PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN);
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_ID |
			PERF_FORMAT_LOST;
	r.n = 0;
	bb_begin(&r, PERF_RECORD_SAMPLE, 0);
	bb_u64(&r, 2);
	bb_u64(&r, 5000);
	bb_u64(&r, 10), bb_u64(&r, 71), bb_u64(&r, 0);
	bb_u64(&r, 20), bb_u64(&r, 72), bb_u64(&r, 1);
	bb_u64(&r, 1);
	bb_u64(&r, 0x401234);
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "READ with GROUP: decodes");
	is_u64(s.read_len, 64, "READ with GROUP: nr, enabled and 2 x 3 words");
	ok(s.read && pd_u64(s.read) == 2 && pd_u64(s.read + 16) == 10 && pd_u64(s.read + 56) == 1,
	   "READ with GROUP: block contents");
	ok(s.callchain_nr == 1 && s.callchain && pd_u64(s.callchain) == 0x401234,
	   "READ with GROUP: the field after the block is where it should be");
	is_int(parse_short(&a, &r), -MPERF_ERR_CORRUPT, "READ with GROUP: one word short is an error");
	put64(r.b + 8, 1ULL << 40);
	is_int(parse(&a, &r, &s), -MPERF_ERR_CORRUPT, "READ with GROUP: a huge nr is an error");
}

static void test_sample_callchain_raw(void)
{
	struct perf_event_attr a = mkattr(PERF_SAMPLE_CALLCHAIN);
	struct pd_sample s;
	struct bb r = { .n = 0 };

	bb_begin(&r, PERF_RECORD_SAMPLE, 0);
	bb_u64(&r, 3);
	bb_u64(&r, (uint64_t)PERF_CONTEXT_USER);
	bb_u64(&r, 0x401000);
	bb_u64(&r, 0x401100);
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "CALLCHAIN: decodes");
	is_u64(s.callchain_nr, 3, "CALLCHAIN: nr");
	ok(s.callchain && pd_u64(s.callchain) == (uint64_t)PERF_CONTEXT_USER &&
	   pd_u64(s.callchain + 16) == 0x401100, "CALLCHAIN: entries");
	is_int(parse_short(&a, &r), -MPERF_ERR_CORRUPT, "CALLCHAIN: one word short is an error");
	put64(r.b + 8, UINT64_MAX / 4);
	is_int(parse(&a, &r, &s), -MPERF_ERR_CORRUPT, "CALLCHAIN: a huge nr is an error");

	/* u32 size, then size bytes that end the field 8-aligned; WEIGHT after it. */
	a = mkattr(PERF_SAMPLE_RAW | PERF_SAMPLE_WEIGHT);
	r.n = 0;
	bb_begin(&r, PERF_RECORD_SAMPLE, 0);
	bb_u32(&r, 12);
	bb_bytes(&r, "0123456789ab", 12);
	bb_u64(&r, 250);
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "RAW: decodes");
	is_int(s.raw_size, 12, "RAW: size");
	ok(s.raw && !memcmp(s.raw, "0123456789ab", 12), "RAW: bytes");
	is_u64(s.weight, 250, "RAW: the field after it is where it should be");
	is_int(parse_short(&a, &r), -MPERF_ERR_CORRUPT, "RAW: one word short is an error");
	r.b[8] = 0xff;
	r.b[9] = 0xff;
	is_int(parse(&a, &r, &s), -MPERF_ERR_CORRUPT, "RAW: a size past the end is an error");
}

static void test_sample_branch(void)
{
	struct perf_event_attr a = mkattr(PERF_SAMPLE_BRANCH_STACK);
	struct pd_sample s;
	struct bb r = { .n = 0 };

	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	bb_begin(&r, PERF_RECORD_SAMPLE, 0);
	bb_u64(&r, 2);
	bb_u64(&r, 0x1000), bb_u64(&r, 0x2000), bb_u64(&r, 1);
	bb_u64(&r, 0x3000), bb_u64(&r, 0x4000), bb_u64(&r, 2);
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "BRANCH_STACK: decodes");
	is_u64(s.branch_nr, 2, "BRANCH_STACK: nr");
	ok(!s.branch_hw_idx, "BRANCH_STACK: no hw_idx");
	ok(s.branch == held + 16 && pd_u64(s.branch + 24) == 0x3000 && pd_u64(s.branch + 40) == 2,
	   "BRANCH_STACK: entries");
	is_int(parse_short(&a, &r), -MPERF_ERR_CORRUPT, "BRANCH_STACK: one word short is an error");

	a.branch_sample_type |= PERF_SAMPLE_BRANCH_HW_INDEX;
	r.n = 0;
	bb_begin(&r, PERF_RECORD_SAMPLE, 0);
	bb_u64(&r, 1);
	bb_u64(&r, 5);
	bb_u64(&r, 0x1000), bb_u64(&r, 0x2000), bb_u64(&r, 1);
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "BRANCH_STACK with HW_INDEX: decodes");
	ok(s.branch_hw_idx && s.branch_nr == 1, "BRANCH_STACK with HW_INDEX: hw_idx present, nr 1");
	ok(s.branch == held + 24 && pd_u64(s.branch) == 0x1000,
	   "BRANCH_STACK with HW_INDEX: entries follow hw_idx");
	is_int(parse_short(&a, &r), -MPERF_ERR_CORRUPT,
	       "BRANCH_STACK with HW_INDEX: one word short is an error");
}

static void test_sample_regs_stack(void)
{
	struct perf_event_attr a = mkattr(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_WEIGHT);
	struct pd_sample s;
	struct bb r = { .n = 0 };

	a.sample_regs_user = (1 << 0) | (1 << 3) | (1 << 8);
	bb_begin(&r, PERF_RECORD_SAMPLE, 0);
	bb_u64(&r, PERF_SAMPLE_REGS_ABI_64);
	bb_u64(&r, 0xa0), bb_u64(&r, 0xa3), bb_u64(&r, 0xa8);
	bb_u64(&r, 99);
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "REGS_USER: decodes");
	is_u64(s.user_abi, 2, "REGS_USER: abi");
	is_u64(s.user_mask, a.sample_regs_user, "REGS_USER: mask from the attr");
	ok(s.user_regs && pd_u64(s.user_regs) == 0xa0 && pd_u64(s.user_regs + 16) == 0xa8,
	   "REGS_USER: 3 registers");
	is_u64(s.weight, 99, "REGS_USER: the field after it is where it should be");
	is_int(parse_short(&a, &r), -MPERF_ERR_CORRUPT, "REGS_USER: one word short is an error");

	r.n = 0;
	bb_begin(&r, PERF_RECORD_SAMPLE, 0);
	bb_u64(&r, PERF_SAMPLE_REGS_ABI_NONE);
	bb_u64(&r, 98);
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "REGS_USER with abi 0: decodes");
	ok(s.user_abi == 0 && s.user_regs == NULL && s.weight == 98,
	   "REGS_USER with abi 0: no registers follow");

	a = mkattr(PERF_SAMPLE_REGS_INTR);
	a.sample_regs_intr = 0x3;
	r.n = 0;
	bb_begin(&r, PERF_RECORD_SAMPLE, 0);
	bb_u64(&r, PERF_SAMPLE_REGS_ABI_64);
	bb_u64(&r, 0xb0), bb_u64(&r, 0xb1);
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "REGS_INTR: decodes");
	ok(s.intr_abi == 2 && s.intr_mask == 3 && s.intr_regs && pd_u64(s.intr_regs + 8) == 0xb1,
	   "REGS_INTR: abi, mask, 2 registers");
	is_int(parse_short(&a, &r), -MPERF_ERR_CORRUPT, "REGS_INTR: one word short is an error");

	/* size, size bytes of stack, dyn_size */
	a = mkattr(PERF_SAMPLE_IP | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT);
	a.sample_stack_user = 16;
	r.n = 0;
	bb_begin(&r, PERF_RECORD_SAMPLE, 0);
	bb_u64(&r, 0x401000);
	bb_u64(&r, 16);
	bb_bytes(&r, "stack bytes here", 16);
	bb_u64(&r, 12);
	bb_u64(&r, 97);
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "STACK_USER: decodes");
	is_u64(s.stack_size, 16, "STACK_USER: size");
	is_u64(s.stack_dyn_size, 12, "STACK_USER: dyn_size");
	is_u64(s.stack_size_off, 16, "STACK_USER: offset of the size word in the record");
	is_u64(s.weight, 97, "STACK_USER: the field after it is where it should be");
	is_int(parse_cut(&a, &r, 16, &s), -MPERF_ERR_CORRUPT, "STACK_USER: without dyn_size is an error");

	a.sample_type = PERF_SAMPLE_STACK_USER;
	r.n = 0;
	bb_begin(&r, PERF_RECORD_SAMPLE, 0);
	bb_u64(&r, 0);
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "STACK_USER with size 0: decodes");
	ok(s.stack_size == 0 && s.stack_dyn_size == 0, "STACK_USER with size 0: no data, no dyn_size");
	is_int(parse_short(&a, &r), -MPERF_ERR_CORRUPT, "STACK_USER: one word short is an error");
}

static void test_sample_weight_aux(void)
{
	struct perf_event_attr a = mkattr(PERF_SAMPLE_WEIGHT_STRUCT);
	struct pd_sample s;
	struct bb r = { .n = 0 };

	bb_begin(&r, PERF_RECORD_SAMPLE, 0);
	bb_u32(&r, 0x11223344);
	bb_u32(&r, 0x77885566);	/* u16 var2 = 0x5566, u16 var3 = 0x7788 */
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "WEIGHT_STRUCT: decodes");
	is_int(s.weight_struct_lo, 0x11223344, "WEIGHT_STRUCT: var1_dw");
	is_int(s.weight_struct_hi, 0x5566, "WEIGHT_STRUCT: var2_w");
	is_u64(s.weight, 0x7788556611223344ULL, "WEIGHT_STRUCT: the whole word as weight");
	is_int(parse_short(&a, &r), -MPERF_ERR_CORRUPT, "WEIGHT_STRUCT: one word short is an error");

	a = mkattr(PERF_SAMPLE_AUX);
	r.n = 0;
	bb_begin(&r, PERF_RECORD_SAMPLE, 0);
	bb_u64(&r, 16);
	bb_bytes(&r, "aux data 16 byte", 16);
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "AUX: decodes");
	is_u64(s.aux_size, 16, "AUX: size");
	is_int(parse_short(&a, &r), -MPERF_ERR_CORRUPT, "AUX: one word short is an error");
}

/* Every field at once, in the kernel's order: a wrong order or length shows. */
static void test_sample_all(void)
{
	struct perf_event_attr a = mkattr(
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
		PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
		PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
		PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |
		PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP |
		PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX);
	struct pd_sample s;
	struct bb r = { .n = 0 };

	a.read_format = PERF_FORMAT_ID;
	a.sample_regs_user = 0x7;
	a.sample_regs_intr = 0x1;
	bb_begin(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	bb_u64(&r, 42);				/* IDENTIFIER */
	bb_u64(&r, 0x401000);			/* IP */
	bb_pair(&r, 10, 11);			/* TID */
	bb_u64(&r, 123456789);			/* TIME */
	bb_u64(&r, 0x7fff0000);			/* ADDR */
	bb_u64(&r, 42);				/* ID */
	bb_u64(&r, 43);				/* STREAM_ID */
	bb_pair(&r, 5, 0);			/* CPU */
	bb_u64(&r, 100003);			/* PERIOD */
	bb_u64(&r, 555), bb_u64(&r, 42);	/* READ: value, id */
	bb_u64(&r, 2), bb_u64(&r, 0x401000), bb_u64(&r, 0x402000); /* CALLCHAIN */
	bb_u32(&r, 4), bb_bytes(&r, "raw!", 4);	/* RAW */
	bb_u64(&r, 1);				/* BRANCH_STACK */
	bb_u64(&r, 0x1000), bb_u64(&r, 0x2000), bb_u64(&r, 0);
	bb_u64(&r, 2);				/* REGS_USER */
	bb_u64(&r, 1), bb_u64(&r, 2), bb_u64(&r, 3);
	bb_u64(&r, 8), bb_bytes(&r, "stackstk", 8), bb_u64(&r, 8); /* STACK_USER */
	bb_u64(&r, 31);				/* WEIGHT */
	bb_u64(&r, 0x68100142);			/* DATA_SRC */
	bb_u64(&r, 0x20);			/* TRANSACTION */
	bb_u64(&r, 2), bb_u64(&r, 0xfeed);	/* REGS_INTR */
	bb_u64(&r, 0x12345000);			/* PHYS_ADDR */
	bb_u64(&r, 777);			/* CGROUP */
	bb_u64(&r, 4096);			/* DATA_PAGE_SIZE */
	bb_u64(&r, 2 << 20);			/* CODE_PAGE_SIZE */
	bb_u64(&r, 0);				/* AUX */
	bb_end(&r);

	is_int(parse(&a, &r, &s), 0, "all fields: decodes");
	ok(s.id == 42 && s.ip == 0x401000 && s.pid == 10 && s.tid == 11, "all fields: id, ip, pid, tid");
	ok(s.time == 123456789 && s.addr == 0x7fff0000 && s.stream_id == 43 && s.cpu == 5,
	   "all fields: time, addr, stream_id, cpu");
	ok(s.period == 100003 && s.read_len == 16 && pd_u64(s.read) == 555, "all fields: period, read");
	ok(s.callchain_nr == 2 && pd_u64(s.callchain + 8) == 0x402000, "all fields: callchain");
	ok(s.raw_size == 4 && !memcmp(s.raw, "raw!", 4), "all fields: raw");
	ok(s.branch_nr == 1 && pd_u64(s.branch + 8) == 0x2000, "all fields: branch stack");
	ok(s.user_abi == 2 && pd_u64(s.user_regs + 16) == 3, "all fields: user regs");
	ok(s.stack_size == 8 && s.stack_dyn_size == 8, "all fields: user stack");
	ok(s.weight == 31 && s.data_src == 0x68100142 && s.transaction == 0x20,
	   "all fields: weight, data_src, transaction");
	ok(s.intr_abi == 2 && pd_u64(s.intr_regs) == 0xfeed, "all fields: intr regs");
	ok(s.phys_addr == 0x12345000 && s.cgroup == 777, "all fields: phys_addr, cgroup");
	ok(s.data_page_size == 4096 && s.code_page_size == 2 << 20, "all fields: page sizes");
	is_u64(s.aux_size, 0, "all fields: aux size");
	is_int(parse_short(&a, &r), -MPERF_ERR_CORRUPT, "all fields: one word short is an error");
}

/* The sample_id trailer of non-SAMPLE records, decoded from the end. */
static void test_trailer(void)
{
	struct perf_event_attr a = mkattr(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
					  PERF_SAMPLE_CPU);
	struct pd_sample s;
	struct bb r = { .n = 0 };

	a.sample_id_all = 1;
	bb_begin(&r, PERF_RECORD_COMM, 0);
	bb_pair(&r, 7, 8);
	bb_str8(&r, "noploop");
	bb_pair(&r, 70, 80);		/* trailer: TID, TIME, ID, CPU */
	bb_u64(&r, 987654321);
	bb_u64(&r, 22);
	bb_pair(&r, 2, 0);
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "COMM trailer: decodes");
	ok(s.pid == 70 && s.tid == 80, "COMM trailer: pid and tid from the trailer, not the body");
	is_u64(s.time, 987654321, "COMM trailer: time");
	is_u64(s.id, 22, "COMM trailer: id");
	is_int(s.cpu, 2, "COMM trailer: cpu");

	a.sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_ADDR | PERF_SAMPLE_PERIOD;
	is_int(parse(&a, &r, &s), 0, "COMM trailer: fields a trailer never has are ignored");
	ok(s.pid == 70 && s.time == 987654321 && s.id == 22 && s.cpu == 2,
	   "COMM trailer: and the trailer decodes the same");

	a.sample_id_all = 0;
	is_int(parse(&a, &r, &s), 0, "sample_id_all=0: decodes");
	ok(s.pid == (uint32_t)-1 && s.tid == (uint32_t)-1 && s.cpu == (uint32_t)-1 &&
	   s.time == UINT64_MAX && s.id == UINT64_MAX, "sample_id_all=0: fields stay -1");

	/* All six trailer fields, in order: TID TIME ID STREAM_ID CPU IDENTIFIER. */
	a = mkattr(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
		   PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER);
	a.sample_id_all = 1;
	r.n = 0;
	bb_begin(&r, PERF_RECORD_EXIT, 0);
	bb_pair(&r, 1, 2), bb_pair(&r, 3, 4);
	bb_u64(&r, 5);
	bb_pair(&r, 70, 80);
	bb_u64(&r, 1111);
	bb_u64(&r, 22);
	bb_u64(&r, 33);
	bb_pair(&r, 6, 0);
	bb_u64(&r, 22);
	bb_end(&r);
	is_int(parse(&a, &r, &s), 0, "EXIT trailer with every field: decodes");
	ok(s.pid == 70 && s.tid == 80 && s.time == 1111 && s.id == 22 && s.stream_id == 33 &&
	   s.cpu == 6, "EXIT trailer with every field: values");

	r.n = 0;
	bb_begin(&r, PERF_RECORD_COMM, 0);
	bb_pair(&r, 7, 8);
	bb_end(&r);
	is_int(parse(&a, &r, &s), -MPERF_ERR_CORRUPT, "a trailer longer than the record is an error");
}

/* ---- file mode: writer and reader ---- */

static char tmpdir[64];
static const uint64_t rt_ids[3][2] = { { 11, 12 }, { 21, 22 }, { 31, 32 } };
static const char *const rt_names[3] = { "alpha", "beta", "gamma" };
static const char *const rt_cmdline[4] = { "/usr/bin/mperf", "record", "-e", "cpu-clock" };
static struct bb rt_data;		/* the data section as written */
static size_t rt_nrec;
static size_t rt_off[8];		/* record offsets inside rt_data */
static const int rt_evsel[8] = { 0, 1, 2, 0, 1, -1 };

#define RT_DATA_OFF	(104 + 6 * 8 + 3 * 144)
#define RT_COMM		4	/* index of the COMM record */
#define RT_FEAT_BITS	((1ULL << PD_FEAT_HOSTNAME) | (1ULL << PD_FEAT_NRCPUS) | \
			 (1ULL << PD_FEAT_CMDLINE) | (1ULL << PD_FEAT_EVENT_DESC) | \
			 (1ULL << PD_FEAT_SAMPLE_TIME))

/* The attrs perf 6.1 writes for -e cpu-clock,cpu-clock,cpu-clock. */
static struct perf_event_attr rt_attr(int i)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_freq = 4000;
	a.freq = 1;
	a.sample_type = ST_0x147;
	a.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	a.disabled = 1;
	a.inherit = 1;
	a.enable_on_exec = 1;
	a.sample_id_all = 1;
	a.exclude_guest = 1;
	if (i == 0) {
		a.mmap = a.comm = a.task = a.mmap2 = a.comm_exec = 1;
		a.ksymbol = a.bpf_event = 1;
	}
	return a;
}

/* A 48-byte SAMPLE for sample_type 0x147. */
static void add_sample(struct bb *b, uint64_t ip, uint32_t pid, uint64_t time, uint64_t id)
{
	bb_begin(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	bb_u64(b, ip);
	bb_pair(b, pid, pid);
	bb_u64(b, time);
	bb_u64(b, id);
	bb_u64(b, 250000);
	bb_end(b);
}

static void build_rt_data(void)
{
	static const uint64_t ids[4] = { 12, 21, 32, 11 };

	for (int i = 0; i < 4; i++) {
		rt_off[rt_nrec++] = rt_data.n;
		add_sample(&rt_data, 0x401000 + 0x10 * (uint64_t)i, 1000 + (uint32_t)i / 2,
			   100 * (uint64_t)(i + 1), ids[i]);
	}
	rt_off[rt_nrec++] = rt_data.n;
	bb_begin(&rt_data, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	bb_pair(&rt_data, 1001, 1001);
	bb_str8(&rt_data, "noploop");
	bb_pair(&rt_data, 1001, 1001);	/* trailer: pid/tid, time, id */
	bb_u64(&rt_data, 450);
	bb_u64(&rt_data, 22);
	bb_end(&rt_data);
	rt_off[rt_nrec++] = rt_data.n;
	bb_begin(&rt_data, PD_FINISHED_ROUND, 0);
	bb_end(&rt_data);
}

static int write_rt_file(const char *path)
{
	struct pdata_writer *w = pdw__create(path);
	int err = 0;

	if (!ok(w != NULL, "writer: create '%s'", path))
		return -1;
	for (int i = 0; i < 3; i++) {
		struct perf_event_attr a = rt_attr(i);

		err |= pdw__add_event(w, &a, rt_names[i], rt_ids[i], 2);
	}
	is_int(err, 0, "writer: add 3 events");
	is_int(pdw__begin_data(w), 0, "writer: begin data");
	err = 0;
	for (size_t i = 0; i < rt_nrec; i++) {
		unsigned char rec[64];

		memcpy(rec, rt_data.b + rt_off[i], pd_u16(rt_data.b + rt_off[i] + 6));
		err |= pdw__write(w, rec, pd_u16(rec + 6));
	}
	is_int(err, 0, "writer: write %zu records", rt_nrec);
	is_u64(pdw__data_size(w), rt_data.n, "writer: data size counts the record bytes");
	is_int(pdw__patch_mmap_len(w, rt_data.n - 4, 1), -EINVAL, "writer: a patch past the data is refused");
	is_int(pdw__feat_string(w, PD_FEAT_HOSTNAME, "testhost"), 0, "writer: HOSTNAME");
	is_int(pdw__feat_nrcpus(w, 4, 2), 0, "writer: NRCPUS");
	is_int(pdw__feat_sample_time(w, 100, 450), 0, "writer: SAMPLE_TIME");
	is_int(pdw__feat_strings(w, PD_FEAT_CMDLINE, rt_cmdline, 4), 0, "writer: CMDLINE");
	is_int(pdw__feat_string(w, 0, "x"), -EINVAL, "writer: feature bit 0 is refused");
	is_int(pdw__feat_string(w, PD_FEAT_LAST_6_1, "x"), -EINVAL, "writer: feature bit 32 is refused");
	is_int(pdw__finish(w), 0, "writer: finish");
	pdw__close(w);
	return 0;
}

/* A perf_header_string at p: u32 len (a multiple of 64), the string, NUL padding. */
static bool header_string_is(const unsigned char *p, const char *s)
{
	uint32_t len = pd_u32(p);
	size_t n = strlen(s);

	if (len % 64 || len <= n || strcmp((const char *)p + 4, s))
		return false;
	for (size_t i = n; i < len; i++)
		if (p[4 + i])
			return false;
	return true;
}

static void check_rt_image(const unsigned char *img, size_t len)
{
	const uint64_t data_size = rt_data.n, table = RT_DATA_OFF + data_size;

	ok(!memcmp(img, "PERFILE2", 8), "file: magic is PERFILE2");
	is_u64(pd_u64(img + 8), 104, "file: header size");
	is_u64(pd_u64(img + 16), 144, "file: attr_size");
	is_u64(pd_u64(img + 24), 104 + 6 * 8, "file: attrs offset, after the ids");
	is_u64(pd_u64(img + 32), 3 * 144, "file: attrs size");
	is_u64(pd_u64(img + 40), RT_DATA_OFF, "file: data offset");
	is_u64(pd_u64(img + 48), data_size, "file: data size is the bytes written");
	ok(pd_u64(img + 56) == 0 && pd_u64(img + 64) == 0, "file: event_types section is empty");
	is_u64(pd_u64(img + 72), RT_FEAT_BITS, "file: feature bits 3 7 11 12 21");
	ok(!pd_u64(img + 80) && !pd_u64(img + 88) && !pd_u64(img + 96), "file: no higher feature bits");

	bool ids_ok = true, attrs_ok = true;
	for (int i = 0; i < 3; i++) {
		const unsigned char *e = img + 152 + 144 * i;

		ids_ok &= pd_u64(img + 104 + 16 * i) == rt_ids[i][0] &&
			  pd_u64(img + 112 + 16 * i) == rt_ids[i][1];
		attrs_ok &= pd_u32(e) == PERF_TYPE_SOFTWARE && pd_u32(e + 4) == 128 &&
			    pd_u64(e + 16) == 4000 && pd_u64(e + 24) == ST_0x147 &&
			    pd_u64(e + 32) == 0x14 && pd_u64(e + 128) == 104 + 16 * (uint64_t)i &&
			    pd_u64(e + 136) == 16;
	}
	ok(ids_ok, "file: ids of the 3 events, in order, at 0x68");
	ok(attrs_ok, "file: attr entries: type, size 128, freq, sample_type, read_format, ids section");
	/* The flags perf 6.1 writes: first event with side-band, the others without. */
	is_u64(pd_u64(img + 152 + 40), 0x61943703, "file: first attr's flags are perf's");
	is_u64(pd_u64(img + 152 + 144 + 40), 0x141403, "file: second attr's flags are perf's");
	ok(!memcmp(img + RT_DATA_OFF, rt_data.b, data_size), "file: data section holds the records");

	if (!ok(len >= table + 5 * 16, "file: room for 5 feature table entries at the end of data")) {
		skip(7, "no feature table");
		return;
	}
	uint64_t off[5], size[5];
	bool chained = true;
	for (int k = 0; k < 5; k++) {
		off[k] = pd_u64(img + table + 16 * k);
		size[k] = pd_u64(img + table + 16 * k + 8);
		chained &= off[k] == (k ? off[k - 1] + size[k - 1] : table + 80) && off[k] + size[k] <= len;
	}
	ok(chained, "file: feature payloads follow the table, back to back, in bit order");
	is_u64(off[4] + size[4], len, "file: the last payload ends the file");
	ok(size[0] == 68 && header_string_is(img + off[0], "testhost"),
	   "file: HOSTNAME is a 64-padded string");
	ok(size[1] == 8 && pd_u32(img + off[1]) == 4 && pd_u32(img + off[1] + 4) == 2,
	   "file: NRCPUS is {avail 4, online 2}");
	ok(pd_u32(img + off[2]) == 4 && header_string_is(img + off[2] + 4, "/usr/bin/mperf") &&
	   header_string_is(img + off[2] + 4 + 68, "record"), "file: CMDLINE is a string list");
	ok(pd_u32(img + off[3]) == 3 && pd_u32(img + off[3] + 4) == 128 &&
	   pd_u32(img + off[3] + 8 + 128) == 2 && header_string_is(img + off[3] + 8 + 132, "alpha"),
	   "file: EVENT_DESC starts with nr 3, attr size 128, the first attr, 2 ids, 'alpha'");
	ok(size[4] == 16 && pd_u64(img + off[4]) == 100 && pd_u64(img + off[4] + 8) == 450,
	   "file: SAMPLE_TIME is {first, last}");
}

static void check_rt_reader(struct pdata *p, const char *how)
{
	struct pd_record rec;
	const struct perf_event_header *hdr[8] = { NULL };
	size_t n = 0;
	int r;

	ok(!pdata__is_pipe(p), "%s: not a pipe", how);
	is_int(pdata__nr_evsel(p), 3, "%s: 3 events", how);
	for (int i = 0; i < 3; i++) {
		const struct pd_evsel *e = pdata__evsel(p, (size_t)i);

		if (!ok(e != NULL, "%s: event %d", how, i)) {
			skip(4, "no event");
			continue;
		}
		is_str(e->name, rt_names[i], "%s: event %d name from EVENT_DESC", how, i);
		ok(e->attr.type == PERF_TYPE_SOFTWARE && e->attr.config == 0 &&
		   e->attr.sample_type == ST_0x147 && e->attr.read_format == 0x14 &&
		   e->attr.size == 128, "%s: event %d attr type, config, sample_type, read_format, size",
		   how, i);
		ok(e->attr.freq && e->attr.sample_freq == 4000 && e->attr.sample_id_all &&
		   e->attr.exclude_guest && e->attr.mmap == (i == 0),
		   "%s: event %d attr flags and frequency", how, i);
		ok(e->nr_ids == 2 && e->ids[0] == rt_ids[i][0] && e->ids[1] == rt_ids[i][1],
		   "%s: event %d ids", how, i);
	}
	ok(pdata__evsel(p, 3) == NULL, "%s: no event 3", how);
	ok(pdata__evsel_by_id(p, 11) == 0 && pdata__evsel_by_id(p, 22) == 1 &&
	   pdata__evsel_by_id(p, 32) == 2, "%s: events by id", how);
	is_int(pdata__evsel_by_id(p, 99), -1, "%s: no event for an unknown id", how);
	is_u64(pdata__sample_type_all(p), ST_0x147, "%s: sample_type of all events", how);
	ok(pdata__sample_id_all(p), "%s: sample_id_all", how);
	ok(pdata__has_feat(p, PD_FEAT_HOSTNAME) && pdata__has_feat(p, PD_FEAT_NRCPUS) &&
	   pdata__has_feat(p, PD_FEAT_CMDLINE) && pdata__has_feat(p, PD_FEAT_EVENT_DESC) &&
	   pdata__has_feat(p, PD_FEAT_SAMPLE_TIME), "%s: has the 5 written features", how);
	ok(!pdata__has_feat(p, PD_FEAT_BUILD_ID) && !pdata__has_feat(p, 0) &&
	   !pdata__has_feat(p, 255) && !pdata__has_feat(p, 256) && !pdata__has_feat(p, -1),
	   "%s: and no other", how);

	while (n < 8 && (r = pdata__next(p, &rec)) > 0) {
		size_t size = rec.hdr->size;

		hdr[n] = rec.hdr;
		ok(n < rt_nrec && rec.off == RT_DATA_OFF + rt_off[n] && (rec.stable || rec.buf >= 0) &&
		   size == pd_u16(rt_data.b + rt_off[n] + 6) &&
		   !memcmp(rec.hdr, rt_data.b + rt_off[n], size),
		   "%s: record %zu at offset %llu with its bytes", how, n,
		   (unsigned long long)rec.off);
		n++;
	}
	is_int(n, rt_nrec, "%s: %zu records", how, rt_nrec);
	is_int(pdata__next(p, &rec), 0, "%s: end of data", how);
	is_int(pdata__next(p, &rec), 0, "%s: still the end", how);
	is_u64(RT_DATA_OFF + rt_off[0], 584, "%s: the first record is at 584", how);

	for (size_t i = 0; i < n; i++)
		is_int(pdata__evsel_of(p, hdr[i]), rt_evsel[i], "%s: record %zu belongs to event %d",
		       how, i, rt_evsel[i]);

	struct pd_sample s;
	if (hdr[2]) {
		is_int(pd_parse_sample(&pdata__evsel(p, 2)->attr, hdr[2], &s), 0,
		       "%s: third sample decodes", how);
		ok(s.ip == 0x401020 && s.pid == 1001 && s.tid == 1001 && s.time == 300 && s.id == 32 &&
		   s.period == 250000, "%s: third sample: ip, pid, tid, time, id, period", how);
	}
	if (hdr[4]) {
		is_int(pd_parse_sample(&pdata__evsel(p, 1)->attr, hdr[4], &s), 0,
		       "%s: COMM trailer decodes", how);
		ok(s.pid == 1001 && s.time == 450 && s.id == 22, "%s: COMM trailer values", how);
	}

	struct bb x = { .n = 0 };
	add_sample(&x, 0x401000, 1, 1, 99);
	is_int(pdata__evsel_of(p, (const void *)x.b), -MPERF_ERR_CORRUPT,
	       "%s: a sample with an unknown id is an error", how);
	put64(x.b + 32, 0);
	is_int(pdata__evsel_of(p, (const void *)x.b), 0, "%s: a sample with id 0 is the first event's", how);
	x.n = 0;
	bb_begin(&x, PERF_RECORD_SAMPLE, 0);
	bb_u64(&x, 0x401000);
	bb_end(&x);
	ok(pdata__evsel_of(p, (const void *)x.b) < 0, "%s: a sample too short for its id is an error", how);
	x.n = 0;
	bb_begin(&x, PERF_RECORD_EXIT, 0);
	bb_pair(&x, 1, 1), bb_pair(&x, 1, 1), bb_u64(&x, 1);
	bb_pair(&x, 1, 1), bb_u64(&x, 1), bb_u64(&x, 77);
	bb_end(&x);
	is_int(pdata__evsel_of(p, (const void *)x.b), -MPERF_ERR_CORRUPT,
	       "%s: a trailer with an unknown id is an error", how);
	put64(x.b + x.n - 8, 31);
	is_int(pdata__evsel_of(p, (const void *)x.b), 2, "%s: a trailer with id 31 is event 2's", how);
}

static unsigned char *rt_img;
static size_t rt_len;

static void test_roundtrip(void)
{
	char path[128], err[256] = "";
	struct pdata *p;

	snprintf(path, sizeof(path), "%s/perf.data", tmpdir);
	build_rt_data();
	if (write_rt_file(path))
		return;
	rt_img = read_whole(path, &rt_len);
	if (!ok(rt_img != NULL, "file: read back")) {
		printf("Bail out! cannot read '%s' back\n", path);
		exit(1);
	}
	check_rt_image(rt_img, rt_len);

	p = open_file(path, err, sizeof(err));
	if (ok(p != NULL, "open file: '%s'", err))
		check_rt_reader(p, "open file");
	pdata__close(p);

	unsigned char *copy = dup_exact(rt_img, rt_len);
	p = open_mem(copy, rt_len, err, sizeof(err));
	if (ok(p != NULL, "open memory: '%s'", err))
		check_rt_reader(p, "open memory");
	pdata__close(p);
	free(copy);

	snprintf(path, sizeof(path), "%s/missing.data", tmpdir);
	errno = 0;
	p = open_file(path, err, sizeof(err));
	ok(p == NULL && errno == ENOENT, "open file: a missing file gives NULL and ENOENT");
	ok(strstr(err, "cannot open") && strstr(err, "missing.data"), "open file: '%s'", err);
}

/*
 * The records mperf writes itself carry the trailer of their event, sized
 * from its attr: read back through the reader and the decoders.
 */
static void test_encoders(void)
{
	struct perf_event_attr a0 = rt_attr(0), a1 = rt_attr(1);
	uint64_t ids0[1] = { 7 }, ids1[1] = { 9 }, pos = 0;
	char path[128], err[256];
	struct pdata_writer *w;
	struct pd_record rec;
	struct pdata *p;
	int n = 0;

	/* Event 1 has ADDR for TIME: its id sits where event 0's does, its trailer is shorter. */
	a1.sample_type = (a1.sample_type & ~(uint64_t)PERF_SAMPLE_TIME) | PERF_SAMPLE_ADDR;
	snprintf(path, sizeof(path), "%s/enc.data", tmpdir);
	w = pdw__create(path);
	if (!ok(w != NULL, "encoders: create"))
		return;
	pdw__add_event(w, &a0, "a", ids0, 1);
	pdw__add_event(w, &a1, "b", ids1, 1);
	ok(!pdw__begin_data(w) && !pdw__comm(w, 42, 43, "worker") &&
	   !pdw__mmap(w, PERF_RECORD_MISC_KERNEL, (uint32_t)-1, 0, 0xffff0000, 0, 0xffff0000, "[kernel.kallsyms]_text", &pos) &&
	   !pdw__patch_mmap_len(w, pos, 0x1234) && !pdw__lost_samples(w, 1, 9, 5) && !pdw__finished_round(w) &&
	   !pdw__finish(w), "encoders: comm, mmap (patched), lost_samples, finished_round");
	pdw__close(w);
	p = open_file(path, err, sizeof(err));
	if (!ok(p != NULL, "encoders: read back ('%s')", err))
		return;
	while (pdata__next(p, &rec) > 0) {
		const struct perf_event_header *h = rec.hdr;
		int ev = pdata__evsel_of(p, h);
		struct pd_sample s;

		n++;
		if (h->type == PERF_RECORD_COMM) {
			struct pd_comm_event e;

			PD_VIEW(h, &e);
			ok(e.pid == 42 && e.tid == 43 && !strcmp((const char *)h + sizeof(e), "worker") &&
			   h->size == sizeof(e) + 8 + 24 && ev == 0,
			   "encoders: COMM pid, tid, name padded to 8, event 0's trailer of 3 words");
		} else if (h->type == PERF_RECORD_MMAP) {
			struct pd_mmap_event e;

			PD_VIEW(h, &e);
			ok(e.start == 0xffff0000 && e.len == 0x1234 && e.pgoff == 0xffff0000 && e.pid == (uint32_t)-1 &&
			   h->misc == PERF_RECORD_MISC_KERNEL, "encoders: MMAP fields, the length patched in");
		} else if (h->type == PERF_RECORD_LOST_SAMPLES) {
			struct pd_lost_samples_event e;

			PD_VIEW(h, &e);
			ok(ev == 1 && e.lost == 5 && !pd_parse_sample(&pdata__evsel(p, 1)->attr, h, &s) && s.id == 9 &&
			   s.pid == 0 && h->size == sizeof(e) + 16,
			   "encoders: LOST_SAMPLES has event 1's trailer (2 words) with its id");
		} else {
			is_int(h->type, PD_FINISHED_ROUND, "encoders: FINISHED_ROUND");
		}
	}
	is_int(n, 4, "encoders: four records");
	pdata__close(p);
	unlink(path);
}

/* A file's events must agree where the id is, in samples and trailers, as perf requires. */
static void open_pair(struct perf_event_attr *a1, char *err, size_t len, struct pdata **pp)
{
	struct perf_event_attr a0 = rt_attr(0);
	uint64_t ids0[1] = { 7 }, ids1[1] = { 9 };
	char path[128];
	struct pdata_writer *w;

	a0.sample_id_all = a1->sample_id_all;
	snprintf(path, sizeof(path), "%s/pair.data", tmpdir);
	w = pdw__create(path);
	if (w) {
		pdw__add_event(w, &a0, "a", ids0, 1);
		pdw__add_event(w, a1, "b", ids1, 1);
		pdw__begin_data(w);
		pdw__finished_round(w);
		pdw__finish(w);
	}
	pdw__close(w);
	*pp = open_file(path, err, len);
	unlink(path);
}

static void test_event_agreement(void)
{
	struct perf_event_attr a1 = rt_attr(1);
	struct pdata *p;
	char err[256];

	/* Without sample_id_all perf still compares the trailer position (its is_pos). */
	a1.sample_id_all = 0;
	a1.sample_type |= PERF_SAMPLE_CPU;
	open_pair(&a1, err, sizeof(err), &p);
	ok(!p && strstr(err, "non matching sample_type"), "events whose trailers put the id elsewhere: refused ('%s')", err);
	pdata__close(p);
	a1 = rt_attr(1);
	a1.sample_id_all = 0;
	open_pair(&a1, err, sizeof(err), &p);
	ok(p != NULL, "events that agree, both without sample_id_all: accepted ('%s')", err);
	pdata__close(p);
}

/* perf's id_pos and is_pos, and the other positions, from one table. */
static void test_layout(void)
{
	struct perf_event_attr a = rt_attr(1);
	struct pd_sample_layout l;

	pd_sample_layout(&a, &l);
	ok(l.ip_pos == 0 && l.tid_pos == 1 && l.time_pos == 2 && l.id_pos == 3,
	   "layout 0x147: ip, tid, time, id at words 0..3 of a sample");
	ok(l.tid_is_pos == 3 && l.time_is_pos == 2 && l.id_is_pos == 1 && l.trailer_size == 24,
	   "layout 0x147: trailer tid, time, id counted back 3, 2, 1; 24 bytes");
	a.sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU;
	pd_sample_layout(&a, &l);
	ok(l.id_pos == 4 && l.id_is_pos == 3 && l.time_is_pos == 4 && l.trailer_size == 40,
	   "layout +ADDR+STREAM_ID+CPU: id after addr; in the trailer stream id and cpu follow it");
	a.sample_type |= PERF_SAMPLE_IDENTIFIER;
	pd_sample_layout(&a, &l);
	ok(l.id_pos == 0 && l.id_is_pos == 1 && l.ip_pos == 1 && l.trailer_size == 48,
	   "layout +IDENTIFIER: the id is the first word of a sample and the last of a trailer");
	a.sample_id_all = 0;
	pd_sample_layout(&a, &l);
	ok(l.id_is_pos == -1 && l.time_is_pos == -1 && l.trailer_size == 0, "layout without sample_id_all: no trailer");
	a.sample_type = PERF_SAMPLE_IP;
	pd_sample_layout(&a, &l);
	ok(l.id_pos == -1 && l.time_pos == -1 && l.tid_pos == -1, "layout IP only: no id, time, tid");
}

/* read_format: one walker for every layout. */
static void test_read_walker(void)
{
	uint64_t grp[] = { 2, 111, 222, 10, 1, 0, 20, 2, 3 };	/* nr, enabled, running, {value, id, lost} x 2 */
	uint64_t one[] = { 10, 111, 7, 0 };			/* value, enabled, id, lost */
	struct pd_read_values r;
	struct pd_read_value v;
	uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
		      PERF_FORMAT_ID | PERF_FORMAT_LOST;

	is_int(pd_read_parse(rf, grp, sizeof(grp), &r), (int)sizeof(grp), "read group: uses the whole block");
	pd_read_value(&r, 1, &v);
	ok(r.nr == 2 && r.time_enabled == 111 && r.time_running == 222 && v.value == 20 && v.id == 2 && v.lost == 3,
	   "read group: nr, times, and the second value's id and lost");
	is_int(pd_read_parse(rf, grp, sizeof(grp) - 8, &r), -1, "read group: one word short is refused");
	grp[0] = 1ULL << 60;
	is_int(pd_read_parse(rf, grp, sizeof(grp), &r), -1, "read group: a huge nr is refused");
	rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_ID | PERF_FORMAT_LOST;
	is_int(pd_read_parse(rf, one, sizeof(one), &r), 32, "read one: value, enabled, id, lost");
	pd_read_value(&r, 0, &v);
	ok(r.nr == 1 && v.value == 10 && v.id == 7 && r.time_enabled == 111, "read one: the value comes before the times");
	is_int(pd_read_parse(rf, one, 24, &r), -1, "read one: short is refused");
}

static void test_unfinished(void)
{
	struct perf_event_attr a = rt_attr(0);
	struct pdata_writer *w;
	char path[128];

	snprintf(path, sizeof(path), "%s/unfinished.data", tmpdir);
	w = pdw__create(path);
	ok(w && access(path, F_OK) == 0, "unfinished: the file exists while writing");
	if (w) {
		pdw__add_event(w, &a, "cpu-clock", rt_ids[0], 2);
		pdw__begin_data(w);
		pdw__write(w, rt_data.b, 48);
	}
	pdw__close(w);
	errno = 0;
	ok(access(path, F_OK) < 0 && errno == ENOENT, "unfinished: close without finish removes it");

	w = pdw__create(path);
	pdw__close(w);
	ok(access(path, F_OK) < 0, "unfinished: close right after create removes it");

	snprintf(path, sizeof(path), "%s/no-such-dir/x.data", tmpdir);
	errno = 0;
	w = pdw__create(path);
	ok(w == NULL && errno == ENOENT, "writer: create in a missing directory gives NULL and ENOENT");
	pdw__close(w);
}

/*
 * A file's records are read into the reader's buffers of 2 MiB: records
 * of every size across their boundaries read back whole; a held buffer
 * keeps its records while the reading goes on, past the 32 buffers the
 * records come from the mapping (stable), and a file cut while read is
 * an error, not a fault.
 */
#define CH_RECS		1500
#define CH_SIZE(i)	((i) % 3 ? 65528u : (((i) * 7919u) % 8189 + 2) * 8)

static void ch_stamp(unsigned char *rec, uint32_t i)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = (uint16_t)CH_SIZE(i) };

	memcpy(rec, &h, sizeof(h));
	memcpy(rec + h.size - 4, &i, 4);
	memcpy(rec + 8, &i, 4);
}

static bool ch_intact(const struct perf_event_header *h, uint32_t i)
{
	return h->size == CH_SIZE(i) && pd_u32((const unsigned char *)h + 8) == i &&
	       pd_u32((const unsigned char *)h + h->size - 4) == i;
}

static int ch_write(const char *path)
{
	struct perf_event_attr a = rt_attr(0);
	struct pdata_writer *w = pdw__create(path);
	static unsigned char rec[65536];
	int err;

	if (!w)
		return -1;
	err = pdw__add_event(w, &a, "cpu-clock", rt_ids[0], 2) || pdw__begin_data(w);
	for (uint32_t i = 0; i < CH_RECS && !err; i++) {
		ch_stamp(rec, i);
		err = pdw__write(w, rec, CH_SIZE(i));
	}
	err = err || pdw__finish(w);
	pdw__close(w);
	return err ? -1 : 0;
}

static void test_chunks(void)
{
	static const struct perf_event_header *kept[CH_RECS];
	static int kbuf[CH_RECS];
	char path[128], err[256] = "";
	struct pd_record rec;
	size_t n = 0, inbuf = 0, intact = 0, stable_after = 0;
	uint64_t off = 0;
	bool order = true;
	struct pdata *p;
	int r, first_buf = -2, bufs_differ = 0;

	snprintf(path, sizeof(path), "%s/chunks.data", tmpdir);
	if (!ok(!ch_write(path), "chunks: write %d records", CH_RECS))
		return;
	p = open_file(path, err, sizeof(err));
	if (!ok(p != NULL, "chunks: open '%s'", err)) {
		unlink(path);
		return;
	}
	while (n < CH_RECS && (r = pdata__next(p, &rec)) > 0) {
		order &= ch_intact(rec.hdr, (uint32_t)n) && (!n || rec.off == off);
		off = rec.off + rec.hdr->size;
		pdata__hold(p, rec.buf);
		inbuf += rec.buf >= 0;
		stable_after += inbuf > 0 && rec.buf < 0 && rec.stable;
		kbuf[n] = rec.buf;
		kept[n++] = rec.hdr;
	}
	is_int(n, CH_RECS, "chunks: every record read, all held");
	ok(order, "chunks: each record whole, in file order, at its offset");
	ok(inbuf > 900 && inbuf < CH_RECS && stable_after == CH_RECS - inbuf,
	   "chunks: the first %zu in buffers, the rest from the mapping, stable", inbuf);
	for (size_t i = 0; i < n; i++) {
		intact += ch_intact(kept[i], (uint32_t)i);
		pdata__release(p, kbuf[i]);
	}
	is_int(intact, CH_RECS, "chunks: every held record intact at the end");
	is_int(pdata__next(p, &rec), 0, "chunks: end of data");

	/* Released and read again: one buffer serves every record. */
	is_int(pdata__rewind(p), 0, "chunks: rewind");
	n = intact = 0;
	while ((r = pdata__next(p, &rec)) > 0) {
		intact += ch_intact(rec.hdr, (uint32_t)n++);
		if (first_buf == -2)
			first_buf = rec.buf;
		bufs_differ += rec.buf != first_buf;
	}
	ok(n == CH_RECS && intact == n, "chunks: read again, %zu records intact", intact);
	ok(first_buf >= 0 && !bufs_differ, "chunks: held by none, the buffers are reused");

	/* Cut while read: the rest is an error, not a fault. */
	pdata__rewind(p);
	is_int(pdata__next(p, &rec), 1, "cut: the first record");
	if (truncate(path, 4 << 20) < 0)
		perror("truncate");
	logcap_reset();
	while ((r = pdata__next(p, &rec)) > 0)
		n++;
	is_int(r, -MPERF_ERR_TRUNCATED, "cut: the reading stops with an error");
	ok(strstr(logcap_err, "chunks.data") && strstr(logcap_err, "shrank while read"), "cut: '%s'", logcap_err);
	pdata__close(p);
	unlink(path);
}

/*
 * record -z: what the writer compresses reads back record for record,
 * with one record spanning two COMPRESSED records (more than 64 KiB of
 * hardly compressible names), and the COMPRESSED feature says the level,
 * perf's rounded ratio and the mapping's length.
 */
#define BIG_RECS	3
#define BIG_SIZE	40000
static unsigned char big[BIG_RECS * BIG_SIZE];

static void build_big(void)
{
	uint32_t x = 12345;

	memset(big, 0, sizeof(big));
	for (int r = 0; r < BIG_RECS; r++) {
		unsigned char *q = big + (size_t)r * BIG_SIZE;
		struct perf_event_header h = { .type = PERF_RECORD_MMAP, .size = BIG_SIZE };

		memcpy(q, &h, sizeof(h));
		for (size_t i = 40; i < BIG_SIZE - 8; i++) {
			x = x * 1103515245 + 12345;
			q[i] = (unsigned char)('a' + (x >> 16) % 26);
		}
	}
}

static void test_write_compressed(void)
{
	struct perf_event_attr a = rt_attr(0);
	struct pd_feat_compressed fc = { 0 };
	uint64_t in = 0, out = 0, doff, dsize, foff;
	size_t nr_comp = 0, nr = 0, nr_big = 0;
	struct pdata_writer *w;
	struct pd_record rec;
	struct pdata *p;
	char path[128], err[256] = "";
	int r;

	snprintf(path, sizeof(path), "%s/z.data", tmpdir);
	build_big();
	w = pdw__create(path);
	if (!ok(w != NULL, "compressed: create"))
		return;
	pdw__add_event(w, &a, "cpu-clock", rt_ids[0], 2);
	is_int(pdw__compress(w, 3, 69632), 0, "compressed: level 3");
	is_int(pdw__begin_data(w), 0, "compressed: begin data");
	is_int(pdw__compress(w, 1, 69632), -EINVAL, "compressed: set once, before the data");
	is_int(pdw__write_compressed(w, rt_data.b, rt_data.n), 0, "compressed: the round-trip records");
	is_int(pdw__finished_round(w), 0, "compressed: FINISHED_ROUND as it is");
	is_int(pdw__write_compressed(w, big, sizeof(big)), 0, "compressed: %zu bytes of names", sizeof(big));
	pdw__compressed_bytes(w, &in, &out);
	ok(in == rt_data.n + sizeof(big) && out > 65536 && out < in,
	   "compressed: %llu bytes became %llu", (unsigned long long)in, (unsigned long long)out);
	is_int(pdw__finish(w), 0, "compressed: finish");
	pdw__close(w);

	p = open_file(path, err, sizeof(err));
	if (!ok(p != NULL, "compressed: open '%s'", err))
		return;
	logcap_reset();
	while ((r = pdata__next(p, &rec)) > 0) {
		if (rec.hdr->type == PD_COMPRESSED) {
			nr_comp++;
			continue;
		}
		if (nr < rt_nrec && !memcmp(rec.hdr, rt_data.b + rt_off[nr], rec.hdr->size))
			nr++;
		else if (nr == rt_nrec && rec.hdr->type == PD_FINISHED_ROUND)
			nr++;
		else if (nr == rt_nrec + 1 + nr_big && nr_big < BIG_RECS &&
			 !memcmp(rec.hdr, big + nr_big * BIG_SIZE, BIG_SIZE))
			nr_big++, nr++;
	}
	ok(r == 0 && logcap_errors == 0, "compressed: read to the end (%s)", logcap_err);
	is_int((int)nr, (int)(rt_nrec + 1 + BIG_RECS), "compressed: every record back, in order, byte for byte");
	ok(nr_comp >= 3, "compressed: %zu COMPRESSED records (one at least 64 KiB of stream)", nr_comp);
	pdata__layout(p, &doff, &dsize, &foff);
	ok(pdata__has_feat(p, PD_FEAT_COMPRESSED), "compressed: the COMPRESSED feature");
	pdata__close(p);

	/* The feature's bytes: version 0, zstd, the level, the ratio rounded, the mapping's length. */
	size_t len;
	unsigned char *img = read_whole(path, &len);

	if (ok(img != NULL && len > foff, "compressed: read the image")) {
		uint64_t bits = pd_u64(img + 72);
		size_t i = 0;

		for (int f = 0; f < PD_FEAT_COMPRESSED; f++)
			i += bits >> f & 1;
		ok(pd_feat_compressed_decode(img + pd_u64(img + foff + 16 * i), pd_u64(img + foff + 16 * i + 8), &fc),
		   "compressed: the feature decodes");
		ok(fc.version == 0 && fc.type == PD_COMP_ZSTD && fc.level == 3 && fc.mmap_len == 69632 &&
		   fc.ratio == (uint32_t)((double)in / (double)out + 0.5),
		   "compressed: version %u type %u level %u ratio %u mmap_len %u", fc.version, fc.type, fc.level,
		   fc.ratio, fc.mmap_len);
	}
	free(img);
}

static char hold_seen[256];

static void hold_hook(enum mperf_log_level level, const char *msg)
{
	size_t n = strlen(hold_seen);

	snprintf(hold_seen + n, sizeof(hold_seen) - n, "%d:%s;", (int)level, msg);
}

/* Messages held while work may be done again: said in order on release, or dropped. */
static void test_log_hold(void)
{
	mperf_set_log(hold_hook);
	hold_seen[0] = 0;
	mperf_log_hold();
	mperf_log(MPERF_LOG_WARN, "first");
	mperf_error(-EIO, "second %d", 2);
	is_str(hold_seen, "", "log hold: nothing is said while held");
	{
		char m[8] = "";

		is_int(mperf_log_held(), 2, "log hold: two messages held");
		ok(mperf_log_held_msg(1, m, sizeof(m)) && !strcmp(m, "second "),
		   "log hold: a held message read back, cut to the buffer ('%s')", m);
		ok(!mperf_log_held_msg(2, m, sizeof(m)), "log hold: none past the last");
	}
	mperf_log_release(true);
	is_str(hold_seen, "2:first;0:second 2;", "log hold: said on release, in order, at their levels");
	hold_seen[0] = 0;
	mperf_log_hold();
	mperf_log(MPERF_LOG_WARN, "dropped");
	mperf_log_release(false);
	mperf_log(MPERF_LOG_WARN, "after");
	is_str(hold_seen, "2:after;", "log hold: dropped on release(false); what follows is said at once");
	logcap_reset();
}

/* A recorder killed before finishing: data size 0, no features. */
static void test_data_size_zero(void)
{
	size_t len = RT_DATA_OFF + rt_data.n;
	unsigned char *m = dup_exact(rt_img, len);
	struct pd_record rec;
	char err[256] = "";
	struct pdata *p;
	size_t n = 0;

	put64(m + 48, 0);
	memset(m + 72, 0, 32);
	p = open_mem(m, len, err, sizeof(err));
	if (ok(p != NULL, "data size 0: opens ('%s')", err)) {
		while (pdata__next(p, &rec) > 0)
			n++;
		is_int(n, rt_nrec, "data size 0: records are read to the end of the file");
		ok(logcap_warning() && strstr(logcap_warning(), "data size field is 0") && !logcap_errors,
		   "data size 0: at the end, one warning and no error ('%s')", logcap_warn);
		is_str(pdata__evsel(p, 0)->name, "cpu-clock", "data size 0: names derived from the attr");
	}
	pdata__close(p);
	free(m);

	/* Killed while writing a record: reading stops at the last good one. */
	unsigned char *g = malloc(len + 8);
	memcpy(g, rt_img, len);
	memset(g + len, 0, 8);
	put64(g + 48, 0);
	memset(g + 72, 0, 32);
	p = open_mem(g, len + 8, err, sizeof(err));
	n = 0;
	int r = -1;
	while (p && (r = pdata__next(p, &rec)) > 0)
		n++;
	ok(p && n == rt_nrec && r == 0,
	   "data size 0 and a record of size 0 at the end: the good records, then the end");
	ok(p && logcap_warning() && strstr(logcap_warning(), "0x340") && logcap_warnings == 1 && !logcap_errors,
	   "data size 0: one warning names where reading stopped ('%s')", logcap_warn);
	pdata__close(p);
	free(g);

	/* Read again from the first record: the same records, the same one warning, values at 0. */
	g = dup_exact(rt_img, len);
	put64(g + 48, 0);
	memset(g + 72, 0, 32);
	p = open_mem(g, len, err, sizeof(err));
	if (ok(p != NULL, "rewind: opens ('%s')", err)) {
		size_t again = 0;
		struct idmap_slot *id = pdata__id(p, rt_ids[0][0]);

		while (pdata__next(p, &rec) > 0)
			;
		if (id)
			id->value = 42;
		logcap_reset();
		is_int(pdata__rewind(p), 0, "rewind: a file image can be read again");
		while ((r = pdata__next(p, &rec)) > 0)
			again++;
		ok(again == rt_nrec && r == 0, "rewind: every record again, then the end (%zu)", again);
		ok(logcap_warnings == 1 && strstr(logcap_warn, "data size field is 0"),
		   "rewind: the end's warning is said again ('%s')", logcap_warn);
		ok(id && id->value == 0, "rewind: the per-id values are 0 again");
	}
	pdata__close(p);
	free(g);

	/* A 72-byte header (no feature bitmap) is accepted. */
	m = dup_exact(rt_img, rt_len);
	put64(m + 8, 72);
	p = open_mem(m, rt_len, err, sizeof(err));
	if (ok(p != NULL, "72-byte header: opens ('%s')", err)) {
		ok(!pdata__has_feat(p, PD_FEAT_HOSTNAME), "72-byte header: no features");
		is_str(pdata__evsel(p, 1)->name, "cpu-clock", "72-byte header: names derived from the attr");
	}
	pdata__close(p);
	free(m);
}

static void expect_open_fails(const unsigned char *img, size_t len, const char *what)
{
	unsigned char *m = dup_exact(img, len);
	char err[256] = "";
	struct pdata *p;

	errno = 0;
	p = open_mem(m, len, err, sizeof(err));
	ok(p == NULL && errno != 0, "malformed: %s: open fails with errno set", what);
	ok(err[0] != '\0' && logcap_errors == 1, "malformed: %s: one error line '%s'", what, err);
	pdata__close(p);
	free(m);
}

/* A file that ends inside its data: it opens, its records read, then one error. */
static void expect_read_cut(const unsigned char *img, size_t len, const char *what)
{
	unsigned char *m = dup_exact(img, len);
	struct pd_record rec;
	struct pdata *p;
	int r = 0, n = 0;

	logcap_reset();
	p = pdata__open_mem(m, len);
	ok(p != NULL && logcap_errors == 0, "malformed: %s: opens", what);
	while (p && (r = pdata__next(p, &rec)) > 0)
		n++;
	ok(p && r == -MPERF_ERR_TRUNCATED && n > 0, "malformed: %s: %d records, then truncated", what, n);
	ok(logcap_errors == 1 && strstr(logcap_err, "read the records up to offset"),
	   "malformed: %s: one error line '%s'", what, logcap_err);
	pdata__close(p);
	free(m);
}

static void test_malformed(void)
{
	unsigned char *m = dup_exact(rt_img, rt_len);
	const size_t len = rt_len;

#define RESET() memcpy(m, rt_img, len)
	m[7] = '3';
	expect_open_fails(m, len, "wrong magic");
	RESET();
	put64(m, PD_MAGIC_SWAPPED);
	expect_open_fails(m, len, "other endianness");
	RESET();
	expect_open_fails(m, 0, "empty");
	expect_open_fails(m, 4, "4 bytes");
	expect_open_fails(m, 12, "12 bytes");
	expect_open_fails(m, 20, "truncated header (20 bytes)");
	expect_open_fails(m, 100, "truncated header (100 bytes)");
	put64(m + 8, 200);
	expect_open_fails(m, len, "header size 200");
	RESET();
	put64(m + 16, 0);
	expect_open_fails(m, len, "attr_size 0");
	RESET();
	put64(m + 32, len);
	expect_open_fails(m, len, "attrs section past EOF");
	RESET();
	put64(m + 24, UINT64_MAX - 8);
	expect_open_fails(m, len, "attrs offset near 2^64");
	RESET();
	put64(m + 32, 0);
	expect_open_fails(m, len, "no attrs");
	RESET();
	put64(m + 48, len);
	expect_read_cut(m, len, "data section past EOF");
	RESET();
	put64(m + 40, len + 8);
	expect_open_fails(m, len, "data offset past EOF");
	RESET();
	put64(m + 40, 152);
	expect_open_fails(m, len, "data overlapping the attrs");
	RESET();
	put64(m + 152 + 128, len - 8);
	expect_open_fails(m, len, "ids section past EOF");
	RESET();
	put64(m + 152 + 4, 100000);
	expect_open_fails(m, len, "attr size 100000");
	RESET();
	put64(m + 152 + 144 + 24, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	expect_open_fails(m, len, "second event without ID");
	RESET();
	put64(m + 152 + 144 + 24, ST_0x147 | PERF_SAMPLE_ADDR);
	expect_open_fails(m, len, "events with ids at different positions");
	RESET();
	m[152 + 144 + 42] &= (unsigned char)~(1 << 2);	/* flag bit 18: sample_id_all */
	expect_open_fails(m, len, "mixed sample_id_all");
	RESET();
	free(m);
#undef RESET
}

/* Open an image with one record's size changed; return pdata__next's first error. */
static int next_error(size_t rec_idx, uint16_t size, size_t data_size, size_t *nread, char *msg,
		      size_t msglen)
{
	unsigned char *m = dup_exact(rt_img, rt_len);
	struct pd_record rec;
	char err[256] = "";
	struct pdata *p;
	int r = 0;

	*nread = 0;
	put16(m + RT_DATA_OFF + rt_off[rec_idx] + 6, size);
	if (data_size) {
		/* The feature table follows the data: with a new data size it is gone. */
		put64(m + 48, data_size);
		memset(m + 72, 0, 32);
	}
	p = open_mem(m, rt_len, err, sizeof(err));
	if (!p) {
		snprintf(msg, msglen, "open failed: %s", err);
		free(m);
		return 1;
	}
	while ((r = pdata__next(p, &rec)) > 0)
		++*nread;
	snprintf(msg, msglen, "%.200s", logcap_errors == 1 ? logcap_err : "not exactly one error line");
	if (r < 0)
		ok(pdata__next(p, &rec) <= 0, "next after an error does not return a record");
	pdata__close(p);
	free(m);
	return r;
}

static void test_next_errors(void)
{
	char msg[256];
	size_t n;

	ok(next_error(0, 0, 0, &n, msg, sizeof(msg)) < 0, "record of size 0: error");
	ok(n == 0 && strstr(msg, "0x248"), "record of size 0: '%s'", msg);
	ok(next_error(1, 4, 0, &n, msg, sizeof(msg)) < 0, "record of size 4: error");
	ok(n == 1 && strstr(msg, "0x278"), "record of size 4: '%s'", msg);
	ok(next_error(rt_nrec - 1, 16, 0, &n, msg, sizeof(msg)) < 0,
	   "record running past the end of data: error");
	ok(n == rt_nrec - 1 && msg[0], "record running past the end of data: '%s'", msg);
	ok(next_error(0, 48, rt_data.n - 4, &n, msg, sizeof(msg)) < 0,
	   "data ending 4 bytes into a header: error");
	ok(n == rt_nrec - 1 && msg[0], "data ending 4 bytes into a header: '%s'", msg);
}

/*
 * Prefixes lo..hi-1 of img, each placed right before an inaccessible page,
 * opened and read in a child: the reader must fail cleanly or read records,
 * never touch the byte after.  A range whose child dies is split until the
 * lengths that crash are found.
 */
static void probe(const unsigned char *img, size_t lo, size_t hi, unsigned char *end, bool *crashed)
{
	int status = 0;
	pid_t pid;

	if (lo >= hi)
		return;
	pid = fork();
	if (pid == 0) {
		for (size_t n = lo; n < hi; n++) {
			char err[256];
			struct pd_record rec;
			struct pdata *p;

			memcpy(end - n, img, n);
			p = open_mem(end - n, n, err, sizeof(err));
			while (p && pdata__next(p, &rec) > 0)
				;
			pdata__close(p);
		}
		_exit(0);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status))
		return;
	if (hi - lo == 1) {
		crashed[lo] = true;
		return;
	}
	probe(img, lo, lo + (hi - lo) / 2, end, crashed);
	probe(img, lo + (hi - lo) / 2, hi, end, crashed);
}

static void prefixes(const unsigned char *img, size_t len, bool *crashed)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t span = (len + pg - 1) / pg * pg;
	unsigned char *map = mmap(NULL, span + pg, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (map == MAP_FAILED || mprotect(map + span, pg, PROT_NONE)) {
		perror("mmap");
		exit(2);
	}
	fflush(stdout);
	fflush(stderr);
	probe(img, 0, len + 1, map + span, crashed);
	munmap(map, span + pg);
}

/* The crashed lengths as " a-b c" ranges. */
static void describe(const bool *crashed, size_t nr, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	for (size_t n = 0; n < nr && used + 48 < len; n++) {
		size_t m = n;

		if (!crashed[n])
			continue;
		while (m + 1 < nr && crashed[m + 1])
			m++;
		used += (size_t)(m > n ? snprintf(buf + used, len - used, " %zu-%zu", n, m)
				       : snprintf(buf + used, len - used, " %zu", n));
		n = m;
	}
}

static void test_prefixes(const unsigned char *pipe_img, size_t pipe_len)
{
	bool *crashed = calloc(rt_len + 1, sizeof(bool));
	char list[256];
	bool any;

	prefixes(rt_img, rt_len, crashed);
	any = false;
	for (size_t n = 0; n <= rt_len; n++)
		any |= crashed[n];
	describe(crashed, rt_len + 1, list, sizeof(list));
	ok(!any, "file image: every prefix fails cleanly or reads records%s%s",
	   any ? "; crashed at" : "", any ? list : "");
	/*
	 * 16..55 bytes that start with the magic: the header's section words
	 * (offsets 16..55) must not be loaded before the length is checked.
	 */
	any = false;
	for (size_t n = 16; n < 56 && n <= rt_len; n++)
		any |= crashed[n];
	ok(!any, "file image: a header cut between 16 and 55 bytes is rejected without reading past it");
	free(crashed);

	crashed = calloc(pipe_len + 1, sizeof(bool));
	prefixes(pipe_img, pipe_len, crashed);
	any = false;
	for (size_t n = 0; n <= pipe_len; n++)
		any |= crashed[n];
	describe(crashed, pipe_len + 1, list, sizeof(list));
	ok(!any, "pipe image: every prefix fails cleanly or reads records%s%s",
	   any ? "; crashed at" : "", any ? list : "");
	free(crashed);
}

/* ---- pipe mode ---- */

static struct bb pipe_img;
static size_t pipe_off[8];
static size_t pipe_nrec;

static void pipe_attr_record(struct bb *b, uint64_t config, const uint64_t *ids, size_t nr)
{
	struct perf_event_attr a = rt_attr(1);
	unsigned char disk[128];

	a.config = config;
	a.size = 128;
	memset(disk, 0, sizeof(disk));
	memcpy(disk, &a, sizeof(a) < 128 ? sizeof(a) : 128);
	pipe_off[pipe_nrec++] = b->n - 16;
	bb_begin(b, PD_HEADER_ATTR, 0);
	bb_bytes(b, disk, sizeof(disk));
	for (size_t i = 0; i < nr; i++)
		bb_u64(b, ids[i]);
	bb_end(b);
}

static void pipe_name_record(struct bb *b, uint64_t id, const char *name)
{
	pipe_off[pipe_nrec++] = b->n - 16;
	bb_begin(b, PD_EVENT_UPDATE, 0);
	bb_u64(b, 2);		/* PERF_EVENT_UPDATE__NAME */
	bb_u64(b, id);
	bb_str8(b, name);
	bb_end(b);
}

static void build_pipe_img(void)
{
	static const uint64_t ids0[] = { 7, 8 }, ids1[] = { 9 };
	struct bb *b = &pipe_img;

	bb_u64(b, PD_MAGIC);
	bb_u64(b, 16);
	pipe_attr_record(b, PERF_COUNT_SW_CPU_CLOCK, ids0, 2);
	pipe_name_record(b, 7, "pipe-ev");
	pipe_attr_record(b, PERF_COUNT_SW_PAGE_FAULTS, ids1, 1);
	pipe_name_record(b, 9, "faults-ev");
	pipe_off[pipe_nrec++] = b->n - 16;
	add_sample(b, 0x401000, 42, 10, 9);
	pipe_off[pipe_nrec++] = b->n - 16;
	add_sample(b, 0x401008, 42, 11, 8);
	pipe_off[pipe_nrec++] = b->n - 16;
	bb_begin(b, PD_FINISHED_ROUND, 0);
	bb_end(b);
}

static void check_pipe_reader(struct pdata *p, const char *how, bool stable)
{
	static const size_t want_evsel[] = { 1, 1, 2, 2, 2, 2, 2 };
	static const int want_owner[] = { -1, -1, -1, -1, 1, 0, -1 };
	struct pd_record rec;
	size_t n = 0;
	bool offs = true, sizes = true, counts = true, owners = true;
	int r;

	ok(pdata__is_pipe(p), "%s: is a pipe", how);
	is_int(pdata__nr_evsel(p), 0, "%s: no events before the first record", how);
	ok(!pdata__has_feat(p, PD_FEAT_HOSTNAME) && !pdata__has_feat(p, PD_FEAT_EVENT_DESC),
	   "%s: no feature bits", how);
	while ((r = pdata__next(p, &rec)) > 0 && n < pipe_nrec) {
		const unsigned char *want = pipe_img.b + 16 + pipe_off[n];

		offs &= rec.off == pipe_off[n];
		sizes &= rec.hdr->size == pd_u16(want + 6) && !memcmp(rec.hdr, want, rec.hdr->size) &&
			 rec.stable == stable;
		counts &= pdata__nr_evsel(p) == want_evsel[n];
		owners &= pdata__evsel_of(p, rec.hdr) == want_owner[n];
		if (n == 0) {
			const struct pd_evsel *e = pdata__evsel(p, 0);

			is_str(e->name, "cpu-clock", "%s: after the ATTR, the name comes from the attr", how);
			ok(e->nr_ids == 2 && e->ids[0] == 7 && e->ids[1] == 8 &&
			   e->attr.sample_type == ST_0x147 && e->attr.size == 128,
			   "%s: the ATTR's attr and ids", how);
		} else if (n == 1) {
			is_str(pdata__evsel(p, 0)->name, "pipe-ev",
			       "%s: after EVENT_UPDATE, the name is the update's", how);
		} else if (n == 2) {
			is_str(pdata__evsel(p, 1)->name, "page-faults",
			       "%s: second ATTR, name from the attr", how);
		} else if (n == 3) {
			is_str(pdata__evsel(p, 1)->name, "faults-ev",
			       "%s: EVENT_UPDATE finds the second event by id", how);
			is_str(pdata__evsel(p, 0)->name, "pipe-ev", "%s: and leaves the first alone", how);
		}
		n++;
	}
	is_int(n, pipe_nrec, "%s: %zu records", how, pipe_nrec);
	is_int(r, 0, "%s: then the end", how);
	ok(offs, "%s: offsets count from 0 right after the 16-byte header", how);
	ok(sizes, "%s: records come back with their bytes", how);
	ok(counts, "%s: the event count grows with each ATTR", how);
	ok(owners, "%s: samples belong to the events of their ids", how);
}

static void test_pipe(void)
{
	unsigned char *m = dup_exact(pipe_img.b, pipe_img.n);
	struct pd_record rec;
	char err[256] = "", path[128];
	struct pdata *p;
	size_t n;
	int r = 0;

	p = open_mem(m, pipe_img.n, err, sizeof(err));
	if (ok(p != NULL, "pipe from memory: opens ('%s')", err))
		check_pipe_reader(p, "pipe from memory", true);
	is_int(p ? pdata__rewind(p) : 0, -ESPIPE, "pipe: a stream is not read again");
	pdata__close(p);

	/* Saved to a regular file, a pipe stream is still read as one. */
	snprintf(path, sizeof(path), "%s/pipe.data", tmpdir);
	FILE *f = fopen(path, "wb");
	fwrite(pipe_img.b, 1, pipe_img.n, f);
	fclose(f);
	p = open_file(path, err, sizeof(err));
	if (ok(p != NULL, "pipe saved to a file: opens ('%s')", err))
		check_pipe_reader(p, "pipe saved to a file", true);
	pdata__close(p);
	unlink(path);

	/* Through a real pipe: the stream reader. */
	int fds[2];
	if (pipe(fds) == 0) {
		ssize_t w = write(fds[1], pipe_img.b, pipe_img.n);

		snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[0]);
		p = w == (ssize_t)pipe_img.n ? open_file(path, err, sizeof(err)) : NULL;
		close(fds[1]);	/* after the open: the reader then sees EOF after the stream */
		if (ok(p != NULL, "pipe through a pipe: opens ('%s')", err))
			check_pipe_reader(p, "pipe through a pipe", false);
		pdata__close(p);
		close(fds[0]);
	}

	/* A file-mode image cannot be streamed. */
	if (pipe(fds) == 0) {
		ssize_t w = write(fds[1], rt_img, rt_len < 4096 ? rt_len : 4096);

		close(fds[1]);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[0]);
		p = w > 0 ? open_file(path, err, sizeof(err)) : NULL;
		ok(p == NULL && err[0], "file mode through a pipe: refused ('%s')", err);
		pdata__close(p);
		close(fds[0]);
	}

	/* Just the header: no records. */
	p = open_mem(m, 16, err, sizeof(err));
	ok(p && pdata__next(p, &rec) == 0, "pipe header alone: opens, no records");
	pdata__close(p);

	/* Cut in the middle of the last sample. */
	p = open_mem(m, pipe_img.n - 8 - 20, err, sizeof(err));
	n = 0;
	while (p && (r = pdata__next(p, &rec)) > 0)
		n++;
	ok(p && r < 0 && n == pipe_nrec - 2, "pipe cut inside a record: records before it, then an error");
	ok(p && logcap_errors == 1, "pipe cut inside a record: one error line '%s'", logcap_err);
	pdata__close(p);

	/* Cut inside a record header. */
	p = open_mem(m, pipe_img.n - 4, err, sizeof(err));
	n = 0;
	while (p && (r = pdata__next(p, &rec)) > 0)
		n++;
	ok(p && r < 0 && n == pipe_nrec - 1, "pipe cut inside a header: an error");
	pdata__close(p);

	/* A pipe record of size 0. */
	put16(m + 16 + pipe_off[1] + 6, 0);
	p = open_mem(m, pipe_img.n, err, sizeof(err));
	n = 0;
	while (p && (r = pdata__next(p, &rec)) > 0)
		n++;
	ok(p && r < 0 && n == 1, "pipe record of size 0: an error after the first record");
	pdata__close(p);
	free(m);
}

/* ---- event names ---- */

/*
 * COMPRESSED and COMPRESSED2 in a stream: three samples compressed as one
 * zstd stream cut in two records, the second sample spanning both; then
 * an AUXTRACE record whose 24 bytes of trace data follow it.
 */
static void test_compressed_auxtrace(void)
{
	static const uint64_t ids[] = { 7 };
	struct bb inner = { .n = 0 }, *b = calloc(1, sizeof(*b));
	unsigned char z[1024];
	size_t zn, cut, off_c1, off_c2, off_aux;
	struct pd_record rec;
	struct pdata *p;
	uint64_t offs[8], ips[8];
	int n = 0, r;

	add_sample(&inner, 0x401000, 42, 10, 7);
	add_sample(&inner, 0x401008, 42, 11, 7);
	add_sample(&inner, 0x401010, 42, 12, 7);
	/* Two frames, as perf writes them: the first ends 20 bytes into the second sample. */
	cut = ZSTD_compress(z, sizeof(z), inner.b, 48 + 20, 1);
	zn = ZSTD_isError(cut) ? cut : ZSTD_compress(z + cut, sizeof(z) - cut, inner.b + 68, inner.n - 68, 1);
	if (!ok(!ZSTD_isError(zn), "zstd: compresses the test records"))
		return;
	zn += cut;
	bb_u64(b, PD_MAGIC);
	bb_u64(b, 16);
	pipe_attr_record(b, PERF_COUNT_SW_CPU_CLOCK, ids, 1);
	off_c1 = b->n - 16;
	bb_begin(b, PD_COMPRESSED, 0);
	bb_bytes(b, z, cut);
	bb_end(b);
	off_c2 = b->n - 16;
	bb_begin(b, PD_COMPRESSED2, 0);
	bb_u64(b, zn - cut);
	bb_bytes(b, z + cut, zn - cut);
	bb_bytes(b, "\0\0\0\0\0\0\0", (8 - (zn - cut) % 8) % 8);
	bb_end(b);
	off_aux = b->n - 16;
	bb_begin(b, PD_AUXTRACE, 0);
	bb_u64(b, 24);
	bb_u64(b, 0);
	bb_u64(b, 0x1234);
	bb_pair(b, 0, 42);
	bb_pair(b, 0, 0);
	bb_end(b);
	bb_bytes(b, "trace data, 24 bytes....", 24);
	bb_begin(b, PD_FINISHED_ROUND, 0);
	bb_end(b);

	logcap_reset();
	p = pdata__open_mem(b->b, b->n);
	while (p && (r = pdata__next(p, &rec)) > 0 && n < 8) {
		struct pd_sample smp;

		offs[n] = rec.off;
		ips[n] = 0;
		if (rec.hdr->type == PERF_RECORD_SAMPLE && !pd_parse_sample(&pdata__evsel(p, 0)->attr, rec.hdr, &smp))
			ips[n] = smp.ip;
		n++;
	}
	ok(p && r == 0 && logcap_errors == 0, "compressed: the stream reads to its end (%s)", logcap_err);
	/* ATTR, COMPRESSED, sample, COMPRESSED2, sample, sample, AUXTRACE, FINISHED_ROUND */
	is_int(n, 8, "compressed: the records and the three samples inside");
	ok(n == 8 && offs[2] == off_c1 && ips[2] == 0x401000, "compressed: the first sample, at the COMPRESSED record's offset");
	ok(n == 8 && offs[4] == off_c2 && ips[4] == 0x401008 && offs[5] == off_c2 && ips[5] == 0x401010,
	   "compressed: the sample spanning both records, at COMPRESSED2's offset");
	ok(n == 8 && offs[6] == off_aux && offs[7] == off_aux + 48 + 24,
	   "auxtrace: the trace data after the record is skipped");
	pdata__close(p);

	/* A compressed stream cut short: one error, after what was whole. */
	logcap_reset();
	p = pdata__open_mem(b->b, off_c2 + 16);
	n = 0;
	while (p && (r = pdata__next(p, &rec)) > 0)
		n++;
	ok(p && r == -MPERF_ERR_TRUNCATED && n == 3 && logcap_errors == 1 && strstr(logcap_err, "ends inside a record"),
	   "compressed: data ending inside a record is one error (%d records, '%s')", n, logcap_err);
	pdata__close(p);
	free(b);
}

static void test_names(void)
{
	uint32_t type = 99;
	uint64_t config = 99;

	is_int(pd_event_lookup("cycles", &type, &config), 0, "lookup cycles");
	ok(type == PERF_TYPE_HARDWARE && config == PERF_COUNT_HW_CPU_CYCLES, "cycles: type 0 config 0");
	is_int(pd_event_lookup("cs", &type, &config), 0, "lookup cs");
	ok(type == PERF_TYPE_SOFTWARE && config == PERF_COUNT_SW_CONTEXT_SWITCHES,
	   "cs: software context-switches");
	is_int(pd_event_lookup("cpu-clock", &type, &config), 0, "lookup cpu-clock");
	ok(type == PERF_TYPE_SOFTWARE && config == PERF_COUNT_SW_CPU_CLOCK, "cpu-clock: type 1 config 0");
	is_int(pd_event_lookup("no-such-event", &type, &config), -MPERF_ERR_NOEVENT,
	       "lookup of an unknown name fails");
	is_int(pd_event_lookup("", &type, &config), -MPERF_ERR_NOEVENT, "lookup of '' fails");
	is_int(pd_event_lookup("cgroup-switches", &type, &config), 0, "lookup cgroup-switches");
	ok(type == PERF_TYPE_SOFTWARE && config == PERF_COUNT_SW_CGROUP_SWITCHES, "cgroup-switches: software 11");

	/* Cache events: as perf 6.1 takes them (perf record -vv shows its attr). */
	static const struct {
		const char *name;
		int ret;
		uint64_t config;
	} caches[] = {
		{ "L1-dcache-load-misses", 0, 0x10000 },
		{ "L1-dcache-loads", 0, 0 },
		{ "L1-dcache", 0, 0 },
		{ "L1-icache-prefetch", 0, 0x201 },
		{ "LLC-store-misses", 0, 0x10102 },
		{ "L2-loads", 0, 0x2 },
		{ "Data-TLB-loads", 0, 0x3 },
		{ "i-tlb-misses", 0, 0x10004 },
		{ "btb-loads", 0, 0x5 },
		{ "node-prefetch-misses", 0, 0x10206 },
		{ "L1-dcache-load-miss", 0, 0x10000 },
		{ "L1-dcache-Reference", 0, 0 },
		{ "L1-dcache-misses-loads", 0, 0x10000 },
		{ "L1-dcache-load-store", 0, 0 },
		{ "L1-dcache-misses-refs", 0, 0x10000 },
		{ "iTLB-stores", -EOPNOTSUPP, 0 },
		{ "L1-icache-stores", -EOPNOTSUPP, 0 },
		{ "branch-prefetches", -EOPNOTSUPP, 0 },
		{ "l1-dcache-loads", -MPERF_ERR_NOEVENT, 0 },
		{ "L1-dcache-load-references", -MPERF_ERR_NOEVENT, 0 },
		{ "L1-dcache-loads-misses-refs", -MPERF_ERR_NOEVENT, 0 },
		{ "L1-dcache-", -MPERF_ERR_NOEVENT, 0 },
		{ "branches-loads", -MPERF_ERR_NOEVENT, 0 },
	};
	for (size_t i = 0; i < sizeof(caches) / sizeof(caches[0]); i++) {
		int r;

		type = 99;
		config = 99;
		r = pd_event_lookup(caches[i].name, &type, &config);
		is_int(r, caches[i].ret, "lookup %s", caches[i].name);
		if (!caches[i].ret)
			ok(type == PERF_TYPE_HW_CACHE && config == caches[i].config, "%s: cache config %#llx",
			   caches[i].name, (unsigned long long)caches[i].config);
	}

	/* Names checked against perf 6.1 (perf evlist on files without EVENT_DESC). */
	static const struct {
		uint32_t type;
		uint64_t config;
		unsigned excl_kernel, excl_user, excl_hv, excl_guest, precise;
		const char *name;
	} cases[] = {
		{ 0, 0, 0, 0, 0, 1, 0, "cycles" },
		{ 0, 0, 0, 0, 0, 0, 0, "cycles:HG" },
		{ 0, 0, 1, 0, 1, 0, 0, "cycles:u" },
		/* perf 6.1 adds H here: exclude_guest=1 is not the default for :u. */
		{ 0, 0, 1, 0, 1, 1, 0, "cycles:uH" },
		{ 0, 0, 1, 0, 0, 1, 0, "cycles:uhH" },
		{ 0, 0, 0, 1, 0, 1, 0, "cycles:khH" },
		{ 0, 0, 0, 0, 0, 0, 2, "cycles:pp" },
		{ 0, 0, 0, 0, 0, 1, 2, "cycles:ppH" },
		{ 0, 1, 1, 0, 1, 1, 0, "instructions:uH" },
		{ 1, 0, 0, 0, 0, 1, 0, "cpu-clock" },
		{ 1, 0, 0, 0, 0, 0, 0, "cpu-clock:HG" },
		{ 1, 3, 0, 0, 0, 1, 0, "context-switches" },
		{ 1, 2, 0, 0, 0, 1, 0, "page-faults" },
		{ 3, 0x10000, 0, 0, 0, 1, 0, "L1-dcache-load-misses" },
		{ 3, 0x102, 0, 0, 0, 1, 0, "LLC-stores" },
		{ 3, 0x10202, 1, 0, 1, 1, 0, "LLC-prefetch-misses:uH" },
		{ 3, 0x1000000, 0, 0, 0, 1, 0, "L1-dcache-loads" },
		{ 3, 0x104, 0, 0, 0, 1, 0, "invalid-cache" },
		{ 3, 0x7, 0, 0, 0, 1, 0, "unknown-ext-hardware-cache-type" },
		{ 3, 0x300, 0, 0, 0, 1, 0, "unknown-ext-hardware-cache-op" },
		{ 3, 0x20000, 0, 0, 0, 1, 0, "unknown-ext-hardware-cache-result" },
		/* perf parses these names but does not print them */
		{ 1, 10, 0, 0, 0, 1, 0, "unknown-software" },
		{ 1, 11, 0, 0, 0, 1, 0, "unknown-software" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perf_event_attr a;
		char buf[64];

		memset(&a, 0, sizeof(a));
		a.type = cases[i].type;
		a.config = cases[i].config;
		a.exclude_kernel = cases[i].excl_kernel;
		a.exclude_user = cases[i].excl_user;
		a.exclude_hv = cases[i].excl_hv;
		a.exclude_guest = cases[i].excl_guest;
		a.precise_ip = cases[i].precise;
		pd_event_name(&a, buf, sizeof(buf));
		is_str(buf, cases[i].name, "name of type %u config %llu k%u u%u h%u G%u p%u", a.type,
		       (unsigned long long)a.config, cases[i].excl_kernel, cases[i].excl_user,
		       cases[i].excl_hv, cases[i].excl_guest, cases[i].precise);
	}

	struct perf_event_attr a;
	char buf[16];

	memset(&a, 0, sizeof(a));
	memset(buf, 'x', sizeof(buf));
	pd_event_name(&a, buf, 8);
	is_str(buf, "cycles:", "a short buffer truncates the name");
	ok(buf[8] == 'x', "and nothing is written past it");
}

/*
 * BUILD_ID entries, hand-built: perf's id size with MISC_BUILD_ID_SIZE
 * (20 without it), the name in the entry, and the entries that end a
 * table (too short, past the end) or are skipped (no NUL in the name).
 */
static void test_build_id_decode(void)
{
	unsigned char b[3 * 100];
	struct pd_build_id_entry h = { 0 };
	struct pd_build_id e;
	const size_t head = sizeof(h);
	size_t n;

	ok(head == 36, "a BUILD_ID entry's head is perf's 36 bytes");
	memset(b, 0, sizeof(b));
	h.header.type = PD_HEADER_BUILD_ID;
	h.header.misc = PERF_RECORD_MISC_USER | PD_MISC_BUILD_ID_SIZE;
	h.header.size = (uint16_t)(head + 64);
	h.pid = -1;
	for (int i = 0; i < 20; i++)
		h.build_id[i] = (uint8_t)(0xa0 + i);
	h.build_id_size = 16;
	memcpy(b, &h, head);
	strcpy((char *)b + head, "/usr/bin/prog");
	n = pd_build_id_decode(b, head + 64, &e);
	ok(n == head + 64 && e.name && !strcmp(e.name, "/usr/bin/prog") && e.pid == -1 && e.len == 16 &&
	   e.id[0] == 0xa0 && (e.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER,
	   "an entry with its id size: 16 bytes, its name, its pid");
	h.header.misc = PERF_RECORD_MISC_KERNEL;
	memcpy(b, &h, head);
	n = pd_build_id_decode(b, head + 64, &e);
	ok(n == head + 64 && e.len == 20, "without MISC_BUILD_ID_SIZE the id is 20 bytes");
	ok(pd_build_id_decode(b, head + 63, &e) == 0 && !e.name, "an entry past the end: 0");
	ok(pd_build_id_decode(b, head - 1, &e) == 0, "less than a head: 0");
	h.header.size = (uint16_t)(head - 4);
	memcpy(b, &h, head);
	ok(pd_build_id_decode(b, sizeof(b), &e) == 0, "a size smaller than the head: 0");
	h.header.size = (uint16_t)(head + 8);
	memcpy(b, &h, head);
	memset(b + head, 'x', 8);
	n = pd_build_id_decode(b, sizeof(b), &e);
	ok(n == head + 8 && !e.name, "a name without its NUL: its size, and no name");
}

/* MMAP and MMAP2 through the one view every reader of maps uses. */
static void test_mmap_view(void)
{
	union {
		struct perf_event_header h;
		unsigned char b[256];
	} r;
	struct pd_mmap_event e1 = { .header = { PERF_RECORD_MMAP, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA, 0 },
				    .pid = 7, .tid = 8, .start = 0x1000, .len = 0x2000, .pgoff = 0x300 };
	struct pd_mmap2_event e2 = { .header = { PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID, 0 },
				     .pid = 9, .tid = 10, .start = 0x4000, .len = 0x1000, .prot = PROT_READ | PROT_EXEC,
				     .flags = MAP_PRIVATE };
	char buf[8];
	struct pd_mmap m;

	e1.header.size = sizeof(e1) + 8;
	memset(r.b, 0, sizeof(r.b));
	memcpy(r.b, &e1, sizeof(e1));
	memcpy(r.b + sizeof(e1), "/a/b", 5);
	ok(pd_mmap_view(&r.h, &m, buf, sizeof(buf)), "mmap view: MMAP");
	ok(m.pid == 7 && m.tid == 8 && m.start == 0x1000 && m.len == 0x2000 && m.pgoff == 0x300, "mmap view: MMAP's fields");
	ok(!m.exec && !m.prot && !m.flags && !m.build_id_size, "mmap view: MMAP_DATA is not exec, no prot, flags, id");
	is_str(m.filename, "/a/b", "mmap view: MMAP's name in place");

	e2.header.size = sizeof(e2) + 16;
	e2.build_id_size = 20;
	e2.build_id[19] = 0x5a;
	memset(r.b, 0, sizeof(r.b));
	memcpy(r.b, &e2, sizeof(e2));
	memcpy(r.b + sizeof(e2), "/usr/lib/libxyz.so", 16);	/* not ended in the record */
	ok(pd_mmap_view(&r.h, &m, buf, sizeof(buf)), "mmap view: MMAP2");
	ok(m.pid == 9 && m.exec && m.prot == (PROT_READ | PROT_EXEC) && m.flags == MAP_PRIVATE, "mmap view: MMAP2's prot and flags");
	ok(m.build_id_size == 20 && m.build_id[19] == 0x5a, "mmap view: MMAP2's build id");
	is_str(m.filename, "/usr/li", "mmap view: a name the record does not end, copied and cut to the buffer");
	e2.build_id[19] = 0;
	memcpy(r.b, &e2, sizeof(e2));
	ok(pd_mmap_view(&r.h, &m, buf, sizeof(buf)) && !m.build_id_size, "mmap view: an all-zero build id is none");
	r.h.size = sizeof(e2) - 1;
	ok(!pd_mmap_view(&r.h, &m, buf, sizeof(buf)), "mmap view: a short MMAP2 is refused");
	r.h.type = PERF_RECORD_COMM;
	r.h.size = sizeof(e2);
	ok(!pd_mmap_view(&r.h, &m, buf, sizeof(buf)), "mmap view: another type is refused");
}

/* A header string as perf writes it: u32 len (the string, its NUL, padded to 4), then the bytes. */
static size_t put_hstr(unsigned char *q, const char *str)
{
	uint32_t n = (uint32_t)(strlen(str) + 1 + 3) / 4 * 4;

	memcpy(q, &n, 4);
	memset(q + 4, 0, n);
	memcpy(q + 4, str, strlen(str));
	return 4 + n;
}

/* CMDLINE, PMU_MAPPINGS, PMU_CAPS, CPU_PMU_CAPS and the fixed features, through their decoders. */
static void test_feature_decoders(void)
{
	unsigned char q[256];
	struct pd_feat_nrcpus nc;
	struct pd_cmdline cl;
	struct pd_pmu_mapping m;
	struct pd_pmu_caps pc;
	struct pd_cursor c;
	const char *name, *value;
	uint32_t u;
	uint64_t kb = 12345;
	size_t n;

	u = 2;
	memcpy(q, &u, 4);
	n = 4 + put_hstr(q + 4, "perf");
	n += put_hstr(q + n, "record");
	ok(pd_cmdline_init(&cl, q, n), "cmdline: its count");
	is_str(pd_cmdline_next(&cl), "perf", "cmdline: first argument");
	is_str(pd_cmdline_next(&cl), "record", "cmdline: second argument");
	ok(!pd_cmdline_next(&cl) && cl.i == cl.nr, "cmdline: the end, all read");
	ok(pd_cmdline_init(&cl, q, n - 4) && pd_cmdline_next(&cl) && !pd_cmdline_next(&cl) && cl.i == 1,
	   "cmdline: an argument past the section stops it at 1 of 2");
	ok(!pd_cmdline_init(&cl, q, 3), "cmdline: no count");

	u = 2;
	memcpy(q, &u, 4);
	u = 1;
	memcpy(q + 4, &u, 4);
	n = 8 + put_hstr(q + 8, "software");
	u = 8;
	memcpy(q + n, &u, 4);
	n += 4 + put_hstr(q + n + 4, "uprobe");
	c = (struct pd_cursor){ q + 4, q + n };
	ok(pd_pmu_mapping_next(&c, &m) && m.type == 1 && m.name && !strcmp(m.name, "software"), "pmu mappings: first");
	ok(pd_pmu_mapping_next(&c, &m) && m.type == 8 && m.name && !strcmp(m.name, "uprobe"), "pmu mappings: second");
	ok(!pd_pmu_mapping_next(&c, &m), "pmu mappings: the end");

	/* PMU_CAPS: one PMU with one pair, its name last. */
	u = 1;
	memcpy(q, &u, 4);
	memcpy(q + 4, &u, 4);
	n = 8 + put_hstr(q + 8, "branches");
	n += put_hstr(q + n, "32");
	n += put_hstr(q + n, "cpu_core");
	c = (struct pd_cursor){ q + 4, q + n };
	ok(pd_pmu_caps_next(&c, &pc) && pc.nr_caps == 1 && pc.pmu && !strcmp(pc.pmu, "cpu_core"), "pmu caps: the PMU, named after its pairs");
	ok(pd_pmu_cap_next(&pc.pairs, &name, &value) && !strcmp(name, "branches") && !strcmp(value, "32"), "pmu caps: its pair");
	ok(pd_cpu_pmu_caps_decode(q + 4, n - 4, &pc) && pc.nr_caps == 1 && !strcmp(pc.pmu, "cpu"), "cpu pmu caps: count, PMU cpu");
	ok(!pd_cpu_pmu_caps_decode(q, 2, &pc), "cpu pmu caps: no count");

	memcpy(q, &kb, 8);
	kb = 0;
	ok(pd_feat_total_mem_decode(q, 8, &kb) && kb == 12345, "total mem: the u64");
	ok(!pd_feat_nrcpus_decode(q, 7, &nc) && !nc.online && !nc.available, "nrcpus: too short, zeroed");
}

/* BPF_PROG_INFO: one program entry, its bpf_prog_info at the kernel ABI's offsets, its arrays in the data. */
static void test_bpf_prog_info(void)
{
	unsigned char sec[8 + 8 + PD_BPF_PROG_INFO_MAX + 64] = { 0 };
	unsigned char *info = sec + 16, *data = info + PD_BPF_PROG_INFO_MAX;
	uint32_t info_len = PD_BPF_PROG_INFO_MAX, data_len = 64, u;
	uint64_t arrays = 1u << 3 | 1u << 4 | 1u << 8, v;
	struct pd_cursor c = { sec, sec + sizeof(sec) };
	struct pd_bpf_prog bp;

	memcpy(sec, &info_len, 4);
	memcpy(sec + 4, &data_len, 4);
	memcpy(sec + 8, &arrays, 8);
#define PUT32(off, x) (u = (x), memcpy(info + (off), &u, 4))
#define PUT64(off, x) (v = (x), memcpy(info + (off), &v, 8))
	PUT32(4, 77);				/* id */
	memcpy(info + 64, "prog", 4);		/* name */
	PUT32(104, 2);				/* nr_jited_ksyms */
	PUT32(108, 2);				/* nr_jited_func_lens */
	PUT64(112, 0);				/* jited_ksyms: data + 0 */
	PUT64(120, 16);				/* jited_func_lens: data + 16 */
	PUT32(128, 5);				/* btf_id */
	PUT32(132, 8);				/* func_info_rec_size */
	PUT64(136, 24);				/* func_info: data + 24 */
	PUT32(144, 2);				/* nr_func_info */
	PUT32(180, 2);				/* nr_prog_tags */
	PUT64(184, 40);				/* prog_tags: data + 40 */
#undef PUT32
#undef PUT64
	v = 0xffffffffc0001000ULL; memcpy(data, &v, 8);
	v = 0xffffffffc0002000ULL; memcpy(data + 8, &v, 8);
	u = 0x40; memcpy(data + 16, &u, 4);
	u = 0x80; memcpy(data + 20, &u, 4);
	u = 11; memcpy(data + 28, &u, 4);	/* func_info[0]: insn_off 0, type 11 */
	u = 12; memcpy(data + 36, &u, 4);	/* func_info[1]: type 12 */
	data[40] = 0xab;
	ok(pd_bpf_prog_next(&c, &bp), "bpf_prog_info: the entry decodes");
	is_int(bp.id, 77, "bpf_prog_info: id");
	is_int(bp.btf_id, 5, "bpf_prog_info: btf id");
	is_str(bp.name, "prog", "bpf_prog_info: name");
	ok(bp.consistent && bp.nr_ksyms == 2, "bpf_prog_info: two functions, consistent");
	is_u64(pd_bpf_prog_addr(&bp, 0), 0xffffffffc0001000ULL, "bpf_prog_info: function 0's address");
	is_u64(pd_bpf_prog_addr(&bp, 1), 0xffffffffc0002000ULL, "bpf_prog_info: function 1's address");
	is_int(pd_bpf_prog_len(&bp, 0), 0x40, "bpf_prog_info: function 0's size");
	is_int(pd_bpf_prog_len(&bp, 1), 0x80, "bpf_prog_info: function 1's size");
	ok(bp.nr_func_info == 2 && pd_bpf_prog_func_type(&bp, 0) == 11 && pd_bpf_prog_func_type(&bp, 1) == 12,
	   "bpf_prog_info: the functions' BTF type ids");
	is_int(bp.tags[0], 0xab, "bpf_prog_info: the tags in place");
	ok(c.p == c.end, "bpf_prog_info: the cursor past the entry");
}

int main(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/mperf-unit-XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 2;
	}

	test_sample_u64_fields();
	test_sample_defaults();
	test_sample_tid_cpu();
	test_sample_read();
	test_sample_callchain_raw();
	test_sample_branch();
	test_sample_regs_stack();
	test_sample_weight_aux();
	test_sample_all();
	test_trailer();

	test_layout();
	test_read_walker();
	test_roundtrip();
	test_encoders();
	test_event_agreement();
	test_unfinished();
	test_log_hold();
	test_data_size_zero();
	test_malformed();
	test_next_errors();
	test_chunks();

	build_pipe_img();
	test_pipe();
	test_compressed_auxtrace();
	test_write_compressed();
	test_prefixes(pipe_img.b, pipe_img.n);

	test_names();
	test_build_id_decode();
	test_bpf_prog_info();
	test_feature_decoders();
	test_mmap_view();

	char path[128];
	snprintf(path, sizeof(path), "%s/perf.data", tmpdir);
	unlink(path);
	rmdir(tmpdir);
	free(rt_img);
	free(held);
	return done_testing();
}
