// SPDX-License-Identifier: GPL-2.0-only
/* Decoding of SAMPLE bodies and sample_id trailers, by sample_type. */
#include <string.h>
#include "../lib/err.h"
#include "perfdata.h"

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

static size_t read_format_size(uint64_t rf, uint64_t nr)
{
	size_t per = 8 + ((rf & PERF_FORMAT_ID) ? 8 : 0) + ((rf & PERF_FORMAT_LOST) ? 8 : 0);
	size_t times = ((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) ? 8 : 0) +
		       ((rf & PERF_FORMAT_TOTAL_TIME_RUNNING) ? 8 : 0);

	if (rf & PERF_FORMAT_GROUP)
		return 8 + times + nr * per;
	return times + per;
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
	const unsigned char *p = end;

	if (!attr->sample_id_all)
		return 0;
	s->bad = "sample_id trailer";
#define BACK(n) do { if ((size_t)(p - body) < (n)) return -MPERF_ERR_CORRUPT; p -= (n); } while (0)
	if (st & PERF_SAMPLE_IDENTIFIER) {
		BACK(8);
		s->id = pd_u64(p);
	}
	if (st & PERF_SAMPLE_CPU) {
		BACK(8);
		s->cpu = pd_u32(p);
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		BACK(8);
		s->stream_id = pd_u64(p);
	}
	if (st & PERF_SAMPLE_ID) {
		BACK(8);
		s->id = pd_u64(p);
	}
	if (st & PERF_SAMPLE_TIME) {
		BACK(8);
		s->time = pd_u64(p);
	}
	if (st & PERF_SAMPLE_TID) {
		BACK(8);
		s->pid = pd_u32(p);
		s->tid = pd_u32(p + 4);
	}
#undef BACK
	s->bad = NULL;
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
#define U64(field) do { if (take_u64(&c, &(field))) return -MPERF_ERR_CORRUPT; } while (0)
#define FIELD(name) (s->bad = (name))
	FIELD("identifier");
	if (st & PERF_SAMPLE_IDENTIFIER)
		U64(s->id);
	FIELD("ip");
	if (st & PERF_SAMPLE_IP)
		U64(s->ip);
	FIELD("pid/tid");
	if (st & PERF_SAMPLE_TID) {
		if (take(&c, 8, &q))
			return -MPERF_ERR_CORRUPT;
		s->pid = pd_u32(q);
		s->tid = pd_u32(q + 4);
	}
	FIELD("time");
	if (st & PERF_SAMPLE_TIME)
		U64(s->time);
	FIELD("addr");
	if (st & PERF_SAMPLE_ADDR)
		U64(s->addr);
	FIELD("id");
	if (st & PERF_SAMPLE_ID)
		U64(s->id);
	FIELD("stream id");
	if (st & PERF_SAMPLE_STREAM_ID)
		U64(s->stream_id);
	FIELD("cpu");
	if (st & PERF_SAMPLE_CPU) {
		if (take(&c, 8, &q))
			return -MPERF_ERR_CORRUPT;
		s->cpu = pd_u32(q);
	}
	FIELD("period");
	if (st & PERF_SAMPLE_PERIOD)
		U64(s->period);
	FIELD("read values");
	if (st & PERF_SAMPLE_READ) {
		uint64_t nr = 0;
		size_t len;

		if (attr->read_format & PERF_FORMAT_GROUP) {
			if ((size_t)(c.end - c.p) < 8)
				return -MPERF_ERR_CORRUPT;
			nr = pd_u64(c.p);
			if (nr > (size_t)(c.end - c.p) / 8)
				return -MPERF_ERR_CORRUPT;
		}
		len = read_format_size(attr->read_format, nr);
		if (take(&c, len, &s->read))
			return -MPERF_ERR_CORRUPT;
		s->read_len = len;
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
		if (s->branch_nr > (size_t)(c.end - c.p) / 24 ||
		    take(&c, s->branch_nr * 24, &s->branch))
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

int pd_sample_time(const struct perf_event_attr *attr, const void *rec, uint64_t *time)
{
	const struct perf_event_header *h = rec;
	uint64_t st = attr->sample_type;
	size_t words = (h->size - sizeof(*h)) / 8, slot;
	const unsigned char *body = (const unsigned char *)(h + 1);

	if (!(st & PERF_SAMPLE_TIME) || h->size < sizeof(*h))
		return -1;
	if (h->type == PERF_RECORD_SAMPLE) {
		/* TIME follows IDENTIFIER, IP and TID, one word each. */
		slot = !!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID);
	} else {
		/* In the trailer, counted from the end: IDENTIFIER, CPU, STREAM_ID, ID, then TIME. */
		size_t back = 1 + !!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_CPU) +
			      !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_ID);

		if (!attr->sample_id_all || back > words)
			return -1;
		slot = words - back;
	}
	if (slot >= words)
		return -1;
	*time = pd_u64(body + 8 * slot);
	return 0;
}
