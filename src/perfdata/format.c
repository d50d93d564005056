// SPDX-License-Identifier: GPL-2.0-only
/*
 * The decoders of format.h: record views, the sample and sample_id
 * layouts (from one table each), read_format, cpu maps and the cursor
 * over header sections.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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
_Static_assert(sizeof(struct pd_auxtrace_event) == 48, "AUXTRACE");
_Static_assert(sizeof(struct pd_auxtrace_info_event) == 16, "AUXTRACE_INFO before its private words");
_Static_assert(sizeof(struct pd_compressed2_event) == 16, "COMPRESSED2 before its data");
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

bool pd_mmap_view(const struct perf_event_header *h, struct pd_mmap *m, char *buf, size_t len)
{
	memset(m, 0, sizeof(*m));
	if (h->type == PERF_RECORD_MMAP) {
		struct pd_mmap_event e;

		if (!PD_VIEW(h, &e))
			return false;
		m->pid = e.pid;
		m->tid = e.tid;
		m->start = e.start;
		m->len = e.len;
		m->pgoff = e.pgoff;
		m->exec = !(h->misc & PERF_RECORD_MISC_MMAP_DATA);
		m->filename = pd_rec_str(h, sizeof(e), buf, len);
		return true;
	}
	if (h->type == PERF_RECORD_MMAP2) {
		struct pd_mmap2_event e;

		if (!PD_VIEW(h, &e))
			return false;
		m->pid = e.pid;
		m->tid = e.tid;
		m->start = e.start;
		m->len = e.len;
		m->pgoff = e.pgoff;
		m->prot = e.prot;
		m->flags = e.flags;
		m->exec = e.prot & PROT_EXEC;
		m->ino = h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID ? 0 : e.ino;
		if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			size_t n = e.build_id_size < sizeof(e.build_id) ? e.build_id_size : sizeof(e.build_id);

			for (size_t i = 0; i < n; i++)
				if (e.build_id[i])
					m->build_id_size = (uint8_t)n;
			if (m->build_id_size)
				memcpy(m->build_id, e.build_id, n);
		}
		m->filename = pd_rec_str(h, sizeof(e), buf, len);
		return true;
	}
	return false;
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

size_t pd_build_id_decode(const void *buf, size_t len, struct pd_build_id *e)
{
	const size_t head = sizeof(struct pd_build_id_entry);
	struct pd_build_id_entry h;
	const char *name = (const char *)buf + head;

	e->name = NULL;
	if (len < head)
		return 0;
	memcpy(&h, buf, head);
	if (h.header.size < head || h.header.size > len)
		return 0;
	if (!memchr(name, 0, h.header.size - head))
		return h.header.size;
	e->misc = h.header.misc;
	e->pid = h.pid;
	e->len = h.header.misc & PD_MISC_BUILD_ID_SIZE ? h.build_id_size : sizeof(h.build_id);
	if (e->len > sizeof(h.build_id))
		e->len = sizeof(h.build_id);
	memcpy(e->id, h.build_id, sizeof(h.build_id));
	e->name = name;
	return h.header.size;
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

/* ---- header features ---- */

static bool fixed(const void *q, size_t len, void *out, size_t size)
{
	memset(out, 0, size);
	if (!q || len < size)
		return false;
	memcpy(out, q, size);
	return true;
}

bool pd_feat_nrcpus_decode(const void *q, size_t len, struct pd_feat_nrcpus *out)
{
	return fixed(q, len, out, sizeof(*out));
}

bool pd_feat_total_mem_decode(const void *q, size_t len, uint64_t *kb)
{
	return fixed(q, len, kb, sizeof(*kb));
}

bool pd_feat_dir_format_decode(const void *q, size_t len, uint64_t *version)
{
	return fixed(q, len, version, sizeof(*version));
}

bool pd_feat_sample_time_decode(const void *q, size_t len, struct pd_feat_sample_time *out)
{
	return fixed(q, len, out, sizeof(*out));
}

bool pd_feat_compressed_decode(const void *q, size_t len, struct pd_feat_compressed *out)
{
	return fixed(q, len, out, sizeof(*out));
}

bool pd_cmdline_init(struct pd_cmdline *cl, const void *q, size_t len)
{
	cl->c.p = q;
	cl->c.end = q ? (const unsigned char *)q + len : q;
	cl->nr = cl->i = 0;
	return q && pd_cursor_u32(&cl->c, &cl->nr);
}

const char *pd_cmdline_next(struct pd_cmdline *cl)
{
	const char *arg;

	if (cl->i >= cl->nr || !(arg = pd_cursor_string(&cl->c)))
		return NULL;
	cl->i++;
	return arg;
}

bool pd_pmu_mapping_next(struct pd_cursor *c, struct pd_pmu_mapping *m)
{
	if (!pd_cursor_u32(c, &m->type))
		return false;
	m->name = pd_cursor_string(c);
	return true;
}

bool pd_pmu_caps_next(struct pd_cursor *c, struct pd_pmu_caps *pc)
{
	if (!pd_cursor_u32(c, &pc->nr_caps))
		return false;
	pc->pairs = *c;
	/* The name comes after the pairs. */
	for (uint32_t k = 0; k < 2 * pc->nr_caps; k++)
		if (!pd_cursor_string(c))
			return false;
	pc->pmu = pd_cursor_string(c);
	return true;
}

bool pd_cpu_pmu_caps_decode(const void *q, size_t len, struct pd_pmu_caps *pc)
{
	pc->pairs.p = q;
	pc->pairs.end = q ? (const unsigned char *)q + len : q;
	pc->pmu = "cpu";
	pc->nr_caps = 0;
	return q && pd_cursor_u32(&pc->pairs, &pc->nr_caps);
}

bool pd_pmu_cap_next(struct pd_cursor *pairs, const char **name, const char **value)
{
	*name = pd_cursor_string(pairs);
	*value = *name ? pd_cursor_string(pairs) : NULL;
	return *value != NULL;
}

/*
 * A u32 count, then that many header strings: the cursor *list covers the
 * strings; *counted grows by what perf 6.1 counts for them (each string as
 * if padded to 64, whatever its length field says).
 */
static bool string_list(struct pd_cursor *c, uint32_t *nr, struct pd_cursor *list, size_t *counted)
{
	const char *s;

	if (!pd_cursor_u32(c, nr))
		return false;
	*counted += 4;
	list->p = c->p;
	for (uint32_t i = 0; i < *nr; i++) {
		if (!(s = pd_cursor_string(c)))
			return false;
		*counted += 4 + (strlen(s) + 1 + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN;
	}
	list->end = c->p;
	return true;
}

bool pd_cpu_topology_decode(const void *q, size_t len, uint32_t nr_cpus, struct pd_cpu_topology *t)
{
	struct pd_cursor c = { q, q ? (const unsigned char *)q + len : q };
	size_t counted = 0;

	memset(t, 0, sizeof(*t));
	t->nr_cpus = nr_cpus;
	if (!q || !string_list(&c, &t->nr_packages, &t->packages, &counted) ||
	    !string_list(&c, &t->nr_cores, &t->cores, &counted))
		return false;
	/*
	 * Old perf wrote the lists alone.  perf 6.1 tells by the size it
	 * counted, not by where the lists end: strings padded to less than
	 * 64 leave it seeing no ids (nor dies) in a section that has them.
	 */
	if (len <= counted)
		return true;
	t->ids = c.p;
	if (!pd_cursor_skip(&c, 8 * (size_t)nr_cpus))
		return false;
	counted += 8 * (size_t)nr_cpus;
	if (len <= counted || c.p == c.end)
		return true;
	if (!string_list(&c, &t->nr_dies, &t->dies, &counted))
		return false;
	t->die_ids = c.p;
	return pd_cursor_skip(&c, 4 * (size_t)nr_cpus);
}

struct pd_cpu_ids pd_cpu_topology_ids(const struct pd_cpu_topology *t, uint32_t cpu)
{
	struct pd_cpu_ids ids = {
		.core = t->ids ? (int32_t)pd_u32(t->ids + 8 * (size_t)cpu) : -1,
		.socket = t->ids ? (int32_t)pd_u32(t->ids + 8 * (size_t)cpu + 4) : -1,
		.die = t->die_ids ? (int32_t)pd_u32(t->die_ids + 4 * (size_t)cpu) : -1,
	};

	return ids;
}

bool pd_numa_node_next(struct pd_cursor *c, struct pd_numa_node *n)
{
	if (!pd_cursor_u32(c, &n->node) || !pd_cursor_u64(c, &n->mem_total) || !pd_cursor_u64(c, &n->mem_free))
		return false;
	return (n->cpus = pd_cursor_string(c)) != NULL;
}

bool pd_cache_level_next(struct pd_cursor *c, struct pd_cache_level *l)
{
	if (!pd_cursor_u32(c, &l->level) || !pd_cursor_u32(c, &l->line_size) || !pd_cursor_u32(c, &l->sets) ||
	    !pd_cursor_u32(c, &l->ways) || !(l->type = pd_cursor_string(c)) || !(l->size = pd_cursor_string(c)))
		return false;
	return (l->map = pd_cursor_string(c)) != NULL;
}

bool pd_mem_node_next(struct pd_cursor *c, struct pd_mem_node *n)
{
	uint64_t bitmap_bits;

	/* The bitmap says its own size; perf reads its words by that one. */
	if (!pd_cursor_u64(c, &n->node) || !pd_cursor_u64(c, &n->nr_bits) || !pd_cursor_u64(c, &bitmap_bits) ||
	    bitmap_bits > (uint64_t)(c->end - c->p) * 8)
		return false;
	n->nr_words = (bitmap_bits + 63) / 64;
	n->bits = c->p;
	return pd_cursor_skip(c, (size_t)n->nr_words * 8);
}

bool pd_mem_node_bit(const struct pd_mem_node *n, uint64_t i)
{
	return i < n->nr_bits && i / 64 < n->nr_words &&
	       pd_u64((const unsigned char *)n->bits + i / 64 * 8) >> (i % 64) & 1;
}

bool pd_hybrid_node_next(struct pd_cursor *c, struct pd_hybrid_node *n)
{
	n->pmu = pd_cursor_string(c);
	n->cpus = n->pmu ? pd_cursor_string(c) : NULL;
	return n->cpus != NULL;
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

/* In the sample parsers: a u64 field, and the name of the field being read (said when it is cut). */
#define U64(field) do { if (take_u64(c, &(field))) return -MPERF_ERR_CORRUPT; } while (0)
#define FIELD(name) (s->bad = (name))

/* The read values, the call chain, the raw data and the branch stack. */
static int parse_sample_lists(const struct perf_event_attr *attr, struct cursor *c, struct pd_sample *s)
{
	uint64_t st = attr->sample_type, v;
	const unsigned char *q;

	FIELD("read values");
	if (st & PERF_SAMPLE_READ) {
		struct pd_read_values r;
		long len = pd_read_parse(attr->read_format, c->p, (size_t)(c->end - c->p), &r);

		if (len < 0 || take(c, (size_t)len, &s->read))
			return -MPERF_ERR_CORRUPT;
		s->read_len = (size_t)len;
	}
	FIELD("callchain");
	if (st & PERF_SAMPLE_CALLCHAIN) {
		U64(s->callchain_nr);
		if (s->callchain_nr > (size_t)(c->end - c->p) / 8 ||
		    take(c, s->callchain_nr * 8, &s->callchain))
			return -MPERF_ERR_CORRUPT;
	}
	FIELD("raw data");
	if (st & PERF_SAMPLE_RAW) {
		if (take(c, 4, &q))
			return -MPERF_ERR_CORRUPT;
		s->raw_size = pd_u32(q);
		if (take(c, s->raw_size, &s->raw))
			return -MPERF_ERR_CORRUPT;
	}
	FIELD("branch stack");
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		U64(s->branch_nr);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
			s->branch_hw_idx = true;
			U64(v);
		}
		if (s->branch_nr > (size_t)(c->end - c->p) / sizeof(struct pd_branch_entry) ||
		    take(c, s->branch_nr * sizeof(struct pd_branch_entry), &s->branch))
			return -MPERF_ERR_CORRUPT;
	}
	return 0;
}

/* The user registers and stack; base: the record, which the stack size's offset is from. */
static int parse_sample_user(const struct perf_event_attr *attr, struct cursor *c, struct pd_sample *s,
			     const unsigned char *base)
{
	uint64_t st = attr->sample_type;
	const unsigned char *q;

	FIELD("user registers");
	if (st & PERF_SAMPLE_REGS_USER) {
		U64(s->user_abi);
		if (s->user_abi) {
			s->user_mask = attr->sample_regs_user;
			if (take(c, 8 * (size_t)__builtin_popcountll(s->user_mask), &s->user_regs))
				return -MPERF_ERR_CORRUPT;
		}
	}
	FIELD("user stack");
	if (st & PERF_SAMPLE_STACK_USER) {
		s->stack_size_off = (size_t)(c->p - base);
		U64(s->stack_size);
		if (s->stack_size) {
			if (take(c, s->stack_size, &q))
				return -MPERF_ERR_CORRUPT;
			s->stack = q;
			U64(s->stack_dyn_size);
		}
	}
	return 0;
}

/* The fields after the user stack, weight to aux. */
static int parse_sample_tail(const struct perf_event_attr *attr, struct cursor *c, struct pd_sample *s)
{
	uint64_t st = attr->sample_type;
	const unsigned char *q;

	FIELD("weight");
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		if (take(c, 8, &q))
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
			if (take(c, 8 * (size_t)__builtin_popcountll(s->intr_mask), &s->intr_regs))
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
		if (take(c, s->aux_size, &q))
			return -MPERF_ERR_CORRUPT;
	}
	return 0;
}

#undef U64
#undef FIELD

int pd_parse_sample(const struct perf_event_attr *attr, const void *rec, struct pd_sample *s)
{
	const struct perf_event_header *h = rec;
	const unsigned char *base = rec, *q;
	struct cursor c = { base + sizeof(*h), base + h->size };
	uint64_t st = attr->sample_type;

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
	if (parse_sample_lists(attr, &c, s) || parse_sample_user(attr, &c, s, base) || parse_sample_tail(attr, &c, s))
		return -MPERF_ERR_CORRUPT;
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

void pd_branch_flags(uint64_t flags, struct pd_branch_flags *f)
{
	f->mispred = flags & 1;
	f->predicted = flags >> 1 & 1;
	f->in_tx = flags >> 2 & 1;
	f->abort = flags >> 3 & 1;
	f->cycles = (uint16_t)(flags >> 4);
	f->type = flags >> 20 & 0xf;
	f->spec = flags >> 24 & 3;
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

/* ---- TRACING_DATA ---- */

/* A text of the TRACING_DATA image: a size of width bytes (4 or 8), then the bytes. */
static bool tracing_text(struct pd_cursor *c, size_t width, struct pd_tracing_text *t)
{
	uint64_t n;
	uint32_t n32;

	if (width == 4 ? !pd_cursor_u32(c, &n32) : !pd_cursor_u64(c, &n))
		return false;
	if (width == 4)
		n = n32;
	if (n > (uint64_t)(c->end - c->p))
		return false;
	t->p = n ? (const char *)c->p : NULL;
	t->len = (size_t)n;
	c->p += n;
	return true;
}

/* A NUL-terminated name in the image, or NULL. */
static const char *tracing_name(struct pd_cursor *c)
{
	const unsigned char *nul = memchr(c->p, 0, (size_t)(c->end - c->p));
	const char *s = (const char *)c->p;

	if (!nul)
		return NULL;
	c->p = nul + 1;
	return s;
}

static bool tracing_formats(struct pd_cursor *c, const char *sys, struct pd_tracing_event *ev, size_t max,
			    size_t *nr)
{
	uint32_t n;

	if (!pd_cursor_u32(c, &n))
		return false;
	for (uint32_t i = 0; i < n; i++) {
		struct pd_tracing_text t;

		if (!tracing_text(c, 8, &t))
			return false;
		if (*nr < max)
			ev[*nr] = (struct pd_tracing_event){ sys, t };
		(*nr)++;
	}
	return true;
}

int pd_tracing_data_decode(const void *buf, size_t len, struct pd_tracing_data *td,
			   struct pd_tracing_event *ev, size_t max, size_t *nr)
{
	struct pd_cursor c = { buf, (const unsigned char *)buf + len };
	const char *s;
	uint32_t nsys;

	memset(td, 0, sizeof(*td));
	*nr = 0;
	if (len < PD_TRACING_MAGIC_LEN || memcmp(buf, PD_TRACING_MAGIC, PD_TRACING_MAGIC_LEN))
		return -MPERF_ERR_UNSUPP;
	c.p += PD_TRACING_MAGIC_LEN;
	if (!(s = tracing_name(&c)))
		return -MPERF_ERR_CORRUPT;
	if (strcmp(s, PD_TRACING_VERSION) && strcmp(s, "0.5"))	/* 0.5: no saved_cmdlines */
		return -MPERF_ERR_UNSUPP;
	if (c.end - c.p < 6)
		return -MPERF_ERR_CORRUPT;
	td->big_endian = c.p[0] != 0;
	td->long_size = c.p[1];
	c.p += 2;
	if (td->big_endian)
		return -MPERF_ERR_UNSUPP;	/* sizes in another byte order than ours */
	if (!pd_cursor_u32(&c, &td->page_size))
		return -MPERF_ERR_CORRUPT;
	if (!(s = tracing_name(&c)) || strcmp(s, "header_page") || !tracing_text(&c, 8, &td->header_page) ||
	    !(s = tracing_name(&c)) || strcmp(s, "header_event") || !tracing_text(&c, 8, &td->header_event))
		return -MPERF_ERR_CORRUPT;
	if (!tracing_formats(&c, "ftrace", ev, max, nr) || !pd_cursor_u32(&c, &nsys))
		return -MPERF_ERR_CORRUPT;
	for (uint32_t i = 0; i < nsys; i++)
		if (!(s = tracing_name(&c)) || !tracing_formats(&c, s, ev, max, nr))
			return -MPERF_ERR_CORRUPT;
	if (!tracing_text(&c, 4, &td->kallsyms) || !tracing_text(&c, 4, &td->printk))
		return -MPERF_ERR_CORRUPT;
	/* saved_cmdlines came with version 0.6; a file that ends before it has none. */
	if (c.p < c.end && !tracing_text(&c, 8, &td->cmdlines))
		return -MPERF_ERR_CORRUPT;
	td->events = ev;
	td->nr_events = *nr < max ? *nr : max;
	return 0;
}

/* ---- feature payloads ---- */

bool pd_feat_clock_data_decode(const void *q, size_t len, struct pd_feat_clock_data *cd)
{
	if (!q || len < sizeof(*cd))
		return false;
	memcpy(cd, q, sizeof(*cd));
	return cd->version == 1;
}

bool pd_btf_next(struct pd_cursor *c, struct pd_btf_entry *e)
{
	const unsigned char *at;

	if (!pd_cursor_u32(c, &e->id) || !pd_cursor_u32(c, &e->size))
		return false;
	at = c->p;
	if (!pd_cursor_skip(c, e->size))
		return false;
	e->data = at;
	return true;
}

/* An array of n elements of size each at offset off of the data, or NULL. */
static const unsigned char *bpf_array(const unsigned char *data, uint32_t data_len, uint64_t off,
				      uint64_t n, uint64_t size)
{
	if (off > data_len || n > (data_len - off) / (size ? size : 1))
		return NULL;
	return data + off;
}

bool pd_bpf_prog_next(struct pd_cursor *c, struct pd_bpf_prog *bp)
{
	unsigned char info[PD_BPF_PROG_INFO_MAX] = { 0 };
	uint32_t info_len, data_len, nr_lens, nr_tags;
	uint64_t arrays;
	const unsigned char *q, *data;

	if (!pd_cursor_u32(c, &info_len) || !pd_cursor_u32(c, &data_len) || !pd_cursor_u64(c, &arrays) ||
	    info_len > sizeof(info))
		return false;
	q = c->p;
	if (!pd_cursor_skip(c, info_len))
		return false;
	memcpy(info, q, info_len);
	data = c->p;
	if (!pd_cursor_skip(c, data_len))
		return false;
	memset(bp, 0, sizeof(*bp));
	/* Offsets of struct bpf_prog_info (linux/bpf.h), fixed by the kernel ABI. */
	bp->id = pd_u32(info + 4);
	memcpy(bp->name, info + 64, 16);
	bp->btf_id = pd_u32(info + 128);
	bp->func_info_rec_size = pd_u32(info + 132);
	bp->nr_func_info = pd_u32(info + 144);
	bp->nr_ksyms = pd_u32(info + 104);
	nr_lens = pd_u32(info + 108);
	nr_tags = pd_u32(info + 180);
	bp->ksyms = bpf_array(data, data_len, pd_u64(info + 112), bp->nr_ksyms, 8);
	bp->lens = bpf_array(data, data_len, pd_u64(info + 120), bp->nr_ksyms, 4);
	bp->tags = bpf_array(data, data_len, pd_u64(info + 184), bp->nr_ksyms, 8);
	bp->func_info = bp->func_info_rec_size >= 8 ?
		bpf_array(data, data_len, pd_u64(info + 136), bp->nr_func_info, bp->func_info_rec_size) : NULL;
	if (!bp->func_info)
		bp->nr_func_info = 0;
	/* perf prints a program whose three arrays agree; the data must hold them. */
	bp->consistent = nr_lens == bp->nr_ksyms && nr_tags == bp->nr_ksyms &&
		(!bp->nr_ksyms || (bp->ksyms && bp->lens && bp->tags &&
				   (arrays & (1u << 3)) && (arrays & (1u << 4)) && (arrays & (1u << 8))));
	return true;
}

uint64_t pd_bpf_prog_addr(const struct pd_bpf_prog *bp, uint32_t k)
{
	return pd_u64(bp->ksyms + 8 * (size_t)k);
}

uint32_t pd_bpf_prog_len(const struct pd_bpf_prog *bp, uint32_t k)
{
	return pd_u32(bp->lens + 4 * (size_t)k);
}

/* A func_info record: u32 insn_off, u32 BTF type id (its size rec_size, at least 8). */
uint32_t pd_bpf_prog_func_type(const struct pd_bpf_prog *bp, uint32_t k)
{
	return pd_u32(bp->func_info + (size_t)k * bp->func_info_rec_size + 4);
}

/* BTF: a header, then types (each 12 bytes and a tail by kind), then strings. */
struct btf_header {
	uint16_t magic;		/* 0xeb9f */
	uint8_t version, flags;
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
};

const char *pd_btf_type_name(const unsigned char *btf, size_t len, uint32_t type_id)
{
	struct btf_header h;
	const unsigned char *t, *tend, *str;
	uint32_t id = 1;

	if (!btf || len < sizeof(h))
		return NULL;
	memcpy(&h, btf, sizeof(h));
	if (h.magic != 0xeb9f || h.hdr_len < sizeof(h) || h.hdr_len > len ||
	    h.type_off > len - h.hdr_len || h.type_len > len - h.hdr_len - h.type_off ||
	    h.str_off > len - h.hdr_len || h.str_len > len - h.hdr_len - h.str_off || !h.str_len)
		return NULL;
	t = btf + h.hdr_len + h.type_off;
	tend = t + h.type_len;
	str = btf + h.hdr_len + h.str_off;
	while (tend - t >= 12) {
		uint32_t name_off = pd_u32(t), info = pd_u32(t + 4);
		uint32_t vlen = info & 0xffff, kind = (info >> 24) & 0x1f;
		uint64_t tail;

		switch (kind) {
		case 1: case 14: case 17: tail = 4; break;			/* INT, VAR, DECL_TAG */
		case 3: tail = 12; break;					/* ARRAY */
		case 4: case 5: case 15: case 19: tail = 12ULL * vlen; break;	/* STRUCT, UNION, DATASEC, ENUM64 */
		case 6: case 13: tail = 8ULL * vlen; break;			/* ENUM, FUNC_PROTO */
		case 2: case 7: case 8: case 9: case 10: case 11: case 12: case 16: case 18:
			tail = 0; break;
		default: return NULL;
		}
		if (id == type_id) {
			if (name_off >= h.str_len || !memchr(str + name_off, 0, h.str_len - name_off))
				return NULL;
			return (const char *)str + name_off;
		}
		if (tail > (uint64_t)(tend - t) - 12)
			return NULL;
		t += 12 + tail;
		id++;
	}
	return NULL;
}

bool pd_event_desc_next(struct pd_cursor *c, uint32_t attr_size, struct perf_event_attr *attr,
			const char **name, const unsigned char **ids, uint32_t *nr_ids)
{
	const unsigned char *a = c->p;

	if (attr_size < PERF_ATTR_SIZE_VER0 || !pd_cursor_skip(c, attr_size) || !pd_cursor_u32(c, nr_ids) ||
	    !(*name = pd_cursor_string(c)))
		return false;
	*ids = c->p;
	if (!pd_cursor_skip(c, 8 * (size_t)*nr_ids))
		return false;
	memset(attr, 0, sizeof(*attr));
	memcpy(attr, a, attr_size < sizeof(*attr) ? attr_size : sizeof(*attr));
	return true;
}

bool pd_group_desc_next(struct pd_cursor *c, struct pd_group_desc *g)
{
	if (!(g->name = pd_cursor_string(c)) || !pd_cursor_u32(c, &g->leader) || !pd_cursor_u32(c, &g->nr_members))
		return false;
	if (!strcmp(g->name, "{anon_group}"))
		g->name = NULL;
	return true;
}

/* The value of the line "key: value" of a format text, or NULL; *n its length. */
static const char *format_field(const struct pd_tracing_text *t, const char *key, size_t *n)
{
	size_t klen = strlen(key);

	for (const char *l = t->p, *end = t->p + t->len; l && l < end; ) {
		const char *nl = memchr(l, '\n', (size_t)(end - l)), *le = nl ? nl : end;

		if ((size_t)(le - l) > klen && !memcmp(l, key, klen)) {
			*n = (size_t)(le - l - klen);
			return l + klen;
		}
		l = nl ? nl + 1 : NULL;
	}
	return NULL;
}

bool pd_tracing_format_id(const struct pd_tracing_text *format, char *name, size_t len, uint64_t *id)
{
	size_t nn, ni;
	const char *v = format->p ? format_field(format, "name: ", &nn) : NULL;
	const char *i = format->p ? format_field(format, "ID: ", &ni) : NULL;
	char num[24];

	if (!v || !i || !ni || ni >= sizeof(num) || !len)
		return false;
	memcpy(num, i, ni);
	num[ni] = 0;
	*id = strtoull(num, NULL, 10);
	snprintf(name, len, "%.*s", (int)nn, v);
	return true;
}
