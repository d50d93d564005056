// SPDX-License-Identifier: GPL-2.0-only
/*
 * The decoders of format.h: record views, the sample and sample_id
 * layouts (from one table each), read_format, cpu maps and the cursor
 * over header sections.
 */
#include <stdio.h>
#include <string.h>
#include "../lib/err.h"
#include "format.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the structs are the file's little-endian layout");
_Static_assert(sizeof(struct pd_file_header) == 104, "perf's file header");
_Static_assert(offsetof(struct pd_file_header, features) == 72, "perf's file header before features");
_Static_assert(sizeof(struct pd_mmap2_event) == 72, "MMAP2 before its filename");
_Static_assert(offsetof(struct pd_mmap2_event, build_id) == 44, "MMAP2 build id");
_Static_assert(sizeof(struct pd_mmap_event) == 40, "MMAP before its filename");
_Static_assert(sizeof(struct pd_build_id_entry) == 36, "BUILD_ID entry before its filename");
_Static_assert(sizeof(struct pd_ksymbol_event) == 24, "KSYMBOL before its name");
_Static_assert(sizeof(struct pd_namespaces_event) == 24, "NAMESPACES before its links");
_Static_assert(sizeof(struct pd_time_conv_event) == 56, "TIME_CONV");
_Static_assert(sizeof(struct pd_thread_map_entry) == 24, "THREAD_MAP entry");
_Static_assert(offsetof(struct pd_event_update_event, str) == 24, "EVENT_UPDATE payload");
_Static_assert(offsetof(struct perf_event_attr, read_format) + 16 == offsetof(struct perf_event_attr, wakeup_events),
	       "the attr's flag word follows read_format");

/* ---- views ---- */

bool pd_view_at(const struct perf_event_header *h, size_t off, void *dst, size_t dst_size)
{
	size_t have = h->size > off ? h->size - off : 0;
	size_t n = have < dst_size ? have : dst_size;

	memcpy(dst, (const char *)h + off, n);
	memset((char *)dst + n, 0, dst_size - n);
	return n == dst_size;
}

bool pd_view(const struct perf_event_header *h, void *dst, size_t dst_size)
{
	return pd_view_at(h, 0, dst, dst_size);
}

const char *pd_rec_str(const struct perf_event_header *h, size_t off, char *buf, size_t len)
{
	const char *s = (const char *)h + off;
	size_t max = h->size > off ? h->size - off : 0;
	size_t n = strnlen(s, max);

	if (n < max)
		return s;
	snprintf(buf, len, "%.*s", (int)(n < len - 1 ? n : len - 1), s);
	return buf;
}

/* ---- header sections ---- */

bool pd_cursor_skip(struct pd_cursor *c, size_t n)
{
	if ((size_t)(c->end - c->p) < n) {
		c->p = c->end;
		return false;
	}
	c->p += n;
	return true;
}

bool pd_cursor_u32(struct pd_cursor *c, uint32_t *v)
{
	const unsigned char *q = c->p;

	if (!pd_cursor_skip(c, 4))
		return false;
	*v = pd_u32(q);
	return true;
}

bool pd_cursor_u64(struct pd_cursor *c, uint64_t *v)
{
	const unsigned char *q = c->p;

	if (!pd_cursor_skip(c, 8))
		return false;
	*v = pd_u64(q);
	return true;
}

const char *pd_cursor_string(struct pd_cursor *c)
{
	const unsigned char *q = c->p;
	uint32_t len;

	if (!pd_cursor_u32(c, &len) || !len || (size_t)(c->end - c->p) < len || !memchr(c->p, 0, len)) {
		c->p = c->end;
		return NULL;
	}
	c->p += len;
	return (const char *)q + 4;
}

/* ---- the sample layout ---- */

/*
 * A SAMPLE starts with these fields, one u64 word each when present, in
 * this order; the sample_id trailer of other records holds the fields of
 * trailer_order, in that order, at the end of the record.  Every position
 * and every decoder below is derived from these two tables.
 */
static const uint64_t sample_head[] = {
	PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
	PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
	PERF_SAMPLE_PERIOD,
};
static const uint64_t trailer_order[] = {
	PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID,
	PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER,
};
#define NR(a) (sizeof(a) / sizeof((a)[0]))

static int head_pos(uint64_t st, uint64_t bit)
{
	int pos = 0;

	if (!(st & bit))
		return -1;
	for (size_t i = 0; sample_head[i] != bit; i++)
		pos += !!(st & sample_head[i]);
	return pos;
}

static int trailer_pos(uint64_t st, uint64_t bit)
{
	int back = 0;

	if (!(st & bit))
		return -1;
	for (size_t i = NR(trailer_order); i-- > 0; ) {
		back += !!(st & trailer_order[i]);
		if (trailer_order[i] == bit)
			break;
	}
	return back;
}

void pd_sample_layout(const struct perf_event_attr *attr, struct pd_sample_layout *l)
{
	uint64_t st = attr->sample_type;
	size_t words = 0;

	l->ip_pos = head_pos(st, PERF_SAMPLE_IP);
	l->tid_pos = head_pos(st, PERF_SAMPLE_TID);
	l->time_pos = head_pos(st, PERF_SAMPLE_TIME);
	/* perf: IDENTIFIER, when set, is the id (always the first word, always the last). */
	l->id_pos = st & PERF_SAMPLE_IDENTIFIER ? 0 : head_pos(st, PERF_SAMPLE_ID);
	l->tid_is_pos = l->time_is_pos = l->id_is_pos = -1;
	l->trailer_size = 0;
	if (!attr->sample_id_all)
		return;
	l->tid_is_pos = trailer_pos(st, PERF_SAMPLE_TID);
	l->time_is_pos = trailer_pos(st, PERF_SAMPLE_TIME);
	l->id_is_pos = st & PERF_SAMPLE_IDENTIFIER ? 1 : trailer_pos(st, PERF_SAMPLE_ID);
	for (size_t i = 0; i < NR(trailer_order); i++)
		words += !!(st & trailer_order[i]);
	l->trailer_size = 8 * words;
}

/* ---- read_format ---- */

static size_t read_entry_size(uint64_t rf)
{
	return 8 + (rf & PERF_FORMAT_ID ? 8 : 0) + (rf & PERF_FORMAT_LOST ? 8 : 0);
}

/*
 * Layouts: without GROUP, {value, [enabled], [running], [id], [lost]};
 * with GROUP, {nr, [enabled], [running], nr x {value, [id], [lost]}}.
 */
long pd_read_parse(uint64_t rf, const void *p, size_t len, struct pd_read_values *r)
{
	const unsigned char *q = p;
	size_t per = read_entry_size(rf), o = 8, need;

	memset(r, 0, sizeof(*r));
	r->read_format = rf;
	r->p = q;
	r->nr = 1;
	if (len < 8)
		return -1;
	if (rf & PERF_FORMAT_GROUP)
		r->nr = pd_u64(q);
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) {
		if (len < o + 8)
			return -1;
		r->time_enabled = pd_u64(q + o);
		o += 8;
	}
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) {
		if (len < o + 8)
			return -1;
		r->time_running = pd_u64(q + o);
		o += 8;
	}
	if (rf & PERF_FORMAT_GROUP) {
		if (r->nr > (len - o) / per)
			return -1;
		need = o + (size_t)r->nr * per;
	} else {
		need = o + per - 8;	/* the value came first */
		if (len < need)
			return -1;
	}
	return (long)need;
}

void pd_read_value(const struct pd_read_values *r, uint64_t i, struct pd_read_value *v)
{
	uint64_t rf = r->read_format;
	size_t times = (rf & PERF_FORMAT_TOTAL_TIME_ENABLED ? 8 : 0) + (rf & PERF_FORMAT_TOTAL_TIME_RUNNING ? 8 : 0);
	const unsigned char *e;

	if (rf & PERF_FORMAT_GROUP) {
		e = r->p + 8 + times + (size_t)i * read_entry_size(rf);
		v->value = pd_u64(e);
		e += 8;
	} else {
		v->value = pd_u64(r->p);
		e = r->p + 8 + times;
	}
	v->id = v->lost = 0;
	if (rf & PERF_FORMAT_ID) {
		v->id = pd_u64(e);
		e += 8;
	}
	if (rf & PERF_FORMAT_LOST)
		v->lost = pd_u64(e);
}

/* ---- samples ---- */

struct cursor {
	const unsigned char *p, *end;
};

static int take(struct cursor *c, size_t n, const unsigned char **out)
{
	if ((size_t)(c->end - c->p) < n)
		return -MPERF_ERR_CORRUPT;
	*out = c->p;
	c->p += n;
	return 0;
}

static int take_u64(struct cursor *c, uint64_t *v)
{
	const unsigned char *q;

	if (take(c, 8, &q))
		return -MPERF_ERR_CORRUPT;
	*v = pd_u64(q);
	return 0;
}

/*
 * Store one word of the fixed head of a sample or of a trailer.  Inlined
 * into loops the compiler unrolls over the const tables, so each call
 * folds to one store: as fast as code written out field by field.
 */
static inline __attribute__((always_inline)) void put_word(struct pd_sample *s, uint64_t bit, const unsigned char *q)
{
	switch (bit) {
	case PERF_SAMPLE_IDENTIFIER:
	case PERF_SAMPLE_ID:
		s->id = pd_u64(q);
		break;
	case PERF_SAMPLE_IP:
		s->ip = pd_u64(q);
		break;
	case PERF_SAMPLE_TID:
		s->pid = pd_u32(q);
		s->tid = pd_u32(q + 4);
		break;
	case PERF_SAMPLE_TIME:
		s->time = pd_u64(q);
		break;
	case PERF_SAMPLE_ADDR:
		s->addr = pd_u64(q);
		break;
	case PERF_SAMPLE_STREAM_ID:
		s->stream_id = pd_u64(q);
		break;
	case PERF_SAMPLE_CPU:
		s->cpu = pd_u32(q);
		break;
	case PERF_SAMPLE_PERIOD:
		s->period = pd_u64(q);
		break;
	}
}

static const char *head_name(uint64_t bit)
{
	switch (bit) {
	case PERF_SAMPLE_IDENTIFIER: return "identifier";
	case PERF_SAMPLE_IP: return "ip";
	case PERF_SAMPLE_TID: return "pid/tid";
	case PERF_SAMPLE_TIME: return "time";
	case PERF_SAMPLE_ADDR: return "addr";
	case PERF_SAMPLE_ID: return "id";
	case PERF_SAMPLE_STREAM_ID: return "stream id";
	case PERF_SAMPLE_CPU: return "cpu";
	default: return "period";
	}
}

static void init_sample(struct pd_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->pid = s->tid = s->cpu = (uint32_t)-1;
	s->time = s->id = s->stream_id = (uint64_t)-1;
}

static int parse_trailer(const struct perf_event_attr *attr, const unsigned char *body,
			 const unsigned char *end, struct pd_sample *s)
{
	uint64_t st = attr->sample_type;
	size_t words = 0;
	const unsigned char *p;

	if (!attr->sample_id_all)
		return 0;
#pragma GCC unroll 8
	for (size_t i = 0; i < NR(trailer_order); i++)
		words += !!(st & trailer_order[i]);
	if ((size_t)(end - body) < 8 * words) {
		s->bad = "sample_id trailer";
		return -MPERF_ERR_CORRUPT;
	}
	/* From the end, as perf reads it: with both ID and IDENTIFIER, ID's word wins. */
	p = end;
#pragma GCC unroll 8
	for (size_t i = NR(trailer_order); i-- > 0; )
		if (st & trailer_order[i]) {
			p -= 8;
			put_word(s, trailer_order[i], p);
		}
	return 0;
}

int pd_parse_sample(const struct perf_event_attr *attr, const void *rec, struct pd_sample *s)
{
	const struct perf_event_header *h = rec;
	const unsigned char *base = rec, *q;
	struct cursor c = { base + sizeof(*h), base + h->size };
	uint64_t st = attr->sample_type, v;

	init_sample(s);
	if (h->size < sizeof(*h))
		return -MPERF_ERR_CORRUPT;
	if (h->type != PERF_RECORD_SAMPLE)
		return parse_trailer(attr, c.p, c.end, s);

	s->period = attr->freq ? 0 : attr->sample_period;
#pragma GCC unroll 16
	for (size_t i = 0; i < NR(sample_head); i++) {
		if (!(st & sample_head[i]))
			continue;
		if (take(&c, 8, &q)) {
			s->bad = head_name(sample_head[i]);
			return -MPERF_ERR_CORRUPT;
		}
		put_word(s, sample_head[i], q);
	}
#define U64(field) do { if (take_u64(&c, &(field))) return -MPERF_ERR_CORRUPT; } while (0)
#define FIELD(name) (s->bad = (name))
	FIELD("read values");
	if (st & PERF_SAMPLE_READ) {
		struct pd_read_values r;
		long len = pd_read_parse(attr->read_format, c.p, (size_t)(c.end - c.p), &r);

		if (len < 0 || take(&c, (size_t)len, &s->read))
			return -MPERF_ERR_CORRUPT;
		s->read_len = (size_t)len;
	}
	FIELD("callchain");
	if (st & PERF_SAMPLE_CALLCHAIN) {
		U64(s->callchain_nr);
		if (s->callchain_nr > (size_t)(c.end - c.p) / 8 ||
		    take(&c, s->callchain_nr * 8, &s->callchain))
			return -MPERF_ERR_CORRUPT;
	}
	FIELD("raw data");
	if (st & PERF_SAMPLE_RAW) {
		if (take(&c, 4, &q))
			return -MPERF_ERR_CORRUPT;
		s->raw_size = pd_u32(q);
		if (take(&c, s->raw_size, &s->raw))
			return -MPERF_ERR_CORRUPT;
	}
	FIELD("branch stack");
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		U64(s->branch_nr);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
			s->branch_hw_idx = true;
			U64(v);
		}
		if (s->branch_nr > (size_t)(c.end - c.p) / sizeof(struct pd_branch_entry) ||
		    take(&c, s->branch_nr * sizeof(struct pd_branch_entry), &s->branch))
			return -MPERF_ERR_CORRUPT;
	}
	FIELD("user registers");
	if (st & PERF_SAMPLE_REGS_USER) {
		U64(s->user_abi);
		if (s->user_abi) {
			s->user_mask = attr->sample_regs_user;
			if (take(&c, 8 * (size_t)__builtin_popcountll(s->user_mask), &s->user_regs))
				return -MPERF_ERR_CORRUPT;
		}
	}
	FIELD("user stack");
	if (st & PERF_SAMPLE_STACK_USER) {
		s->stack_size_off = (size_t)(c.p - base);
		U64(s->stack_size);
		if (s->stack_size) {
			if (take(&c, s->stack_size, &q))
				return -MPERF_ERR_CORRUPT;
			s->stack = q;
			U64(s->stack_dyn_size);
		}
	}
	FIELD("weight");
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		if (take(&c, 8, &q))
			return -MPERF_ERR_CORRUPT;
		s->weight = pd_u64(q);
		s->weight_struct_lo = pd_u32(q);
		s->weight_struct_hi = pd_u16(q + 4);
	}
	FIELD("data source");
	if (st & PERF_SAMPLE_DATA_SRC)
		U64(s->data_src);
	FIELD("transaction");
	if (st & PERF_SAMPLE_TRANSACTION)
		U64(s->transaction);
	FIELD("interrupt registers");
	if (st & PERF_SAMPLE_REGS_INTR) {
		U64(s->intr_abi);
		if (s->intr_abi) {
			s->intr_mask = attr->sample_regs_intr;
			if (take(&c, 8 * (size_t)__builtin_popcountll(s->intr_mask), &s->intr_regs))
				return -MPERF_ERR_CORRUPT;
		}
	}
	FIELD("physical address");
	if (st & PERF_SAMPLE_PHYS_ADDR)
		U64(s->phys_addr);
	FIELD("cgroup");
	if (st & PERF_SAMPLE_CGROUP)
		U64(s->cgroup);
	FIELD("data page size");
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		U64(s->data_page_size);
	FIELD("code page size");
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		U64(s->code_page_size);
	FIELD("aux data");
	if (st & PERF_SAMPLE_AUX) {
		U64(s->aux_size);
		if (take(&c, s->aux_size, &q))
			return -MPERF_ERR_CORRUPT;
	}
#undef U64
#undef FIELD
	s->bad = NULL;
	return 0;
}

uint64_t pd_sample_callchain(const struct pd_sample *s, uint64_t i)
{
	return pd_u64(s->callchain + 8 * i);
}

void pd_sample_branch(const struct pd_sample *s, uint64_t i, struct pd_branch_entry *e)
{
	memcpy(e, s->branch + sizeof(*e) * i, sizeof(*e));
}

uint64_t pd_sample_reg(const unsigned char *regs, unsigned int k)
{
	return pd_u64(regs + 8 * (size_t)k);
}

uint64_t pd_attr_flags(const struct perf_event_attr *attr)
{
	uint64_t v;

	/* The u64 of bit-fields that follows read_format (disabled is bit 0). */
	memcpy(&v, (const char *)&attr->read_format + sizeof(attr->read_format), sizeof(v));
	return v;
}

/* ---- cpu maps ---- */

int pd_cpu_map_decode(const unsigned char *p, size_t n, int *cpus, size_t max)
{
	size_t nr = 0;
	uint16_t type;

	if (n < 2)
		return -1;
	type = pd_u16(p);
	if (type == PD_CPUS_LIST) {		/* u16 nr, u16 cpu[nr] */
		uint16_t cnt = n >= 4 ? pd_u16(p + 2) : 0;

		for (size_t i = 0; i < cnt && 4 + 2 * i + 2 <= n && nr < max; i++) {
			uint16_t cpu = pd_u16(p + 4 + 2 * i);

			cpus[nr++] = cpu == 0xffff ? -1 : cpu;
		}
	} else if (type == PD_CPUS_MASK) {	/* u16 nr, u16 long_size, (pad to 8 for 8-byte longs), masks */
		uint16_t cnt = n >= 4 ? pd_u16(p + 2) : 0, lsz = n >= 6 ? pd_u16(p + 4) : 0;
		size_t base = lsz == 8 ? 10 : 6;

		if (lsz != 4 && lsz != 8)
			return -1;
		for (size_t i = 0; i < cnt && base + lsz * (i + 1) <= n; i++) {
			uint64_t m = lsz == 8 ? pd_u64(p + base + 8 * i) : pd_u32(p + base + 4 * i);

			for (unsigned int b = 0; b < lsz * 8u && nr < max; b++)
				if (m >> b & 1)
					cpus[nr++] = (int)(i * lsz * 8 + b);
		}
	} else if (type == PD_CPUS_RANGE) {	/* u16 type, u8 any_cpu, u8 pad, u16 start, u16 end */
		if (n < 8)
			return -1;
		if (p[2] && nr < max)
			cpus[nr++] = -1;
		for (unsigned int cpu = pd_u16(p + 4); cpu <= pd_u16(p + 6) && nr < max; cpu++)
			cpus[nr++] = (int)cpu;
	} else {
		return -1;
	}
	return (int)nr;
}
