// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.data reader: file mode (header, attrs, ids, data, features) and pipe
 * mode (a header of 16 bytes, then records that carry the attrs and
 * features).  Every offset and size comes from an untrusted file and is
 * checked against what is really there before it is used.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../lib/err.h"
#include "perfdata.h"

#define PIPE_BUF_MIN	(1 << 17)

struct id_slot {
	uint64_t id;
	int idx;	/* -1 = empty */
};

struct pdata {
	/* Source: a memory image (mmap'd file or caller's buffer), or a stream fd. */
	const unsigned char *mem;
	size_t mem_len;
	size_t map_len;		/* mem is ours to munmap when non-zero */
	int fd;			/* stream source, -1 otherwise */
	unsigned char *sbuf;	/* stream buffer: bytes [spos, slen) unread */
	size_t scap, spos, slen;
	bool eof;

	bool pipe;
	uint64_t data_off, data_end;	/* file mode data section, in the image */
	uint64_t pos;			/* next record: image offset / stream offset */
	uint64_t pending_skip;		/* payload bytes after the last record */
	bool to_eof;			/* data.size was 0: a bad record ends the data */
	uint64_t *abuf;			/* aligned copy of a misaligned record (pipe mode) */
	uint64_t released;		/* mapped bytes [0, released) handed back */
	uint64_t feat_off[PD_FEAT_LAST_6_1], feat_size[PD_FEAT_LAST_6_1];	/* checked sections */
	uint64_t features[4];

	struct pd_evsel *evsel;
	size_t nr_evsel;
	struct id_slot *ids;	/* open addressing, power-of-two size */
	size_t ids_cap, ids_used;
	int id_pos, is_pos;	/* perf's fixed id slots, from the first attr */
	uint64_t sample_type_all;

	char err[256];
	char warn[640];
};

static int fail(struct pdata *p, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct pdata *p, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, sizeof(p->err), fmt, ap);
	va_end(ap);
	return code;
}

/* ---- events and ids ---- */

static uint64_t hash_id(uint64_t id)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return id;
}

static int ids_insert(struct pdata *p, uint64_t id, int idx)
{
	if ((p->ids_used + 1) * 2 > p->ids_cap) {
		size_t cap = p->ids_cap ? p->ids_cap * 2 : 64;
		struct id_slot *n = malloc(cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		for (size_t i = 0; i < cap; i++)
			n[i].idx = -1;
		for (size_t i = 0; i < p->ids_cap; i++) {
			if (p->ids[i].idx < 0)
				continue;
			size_t h = hash_id(p->ids[i].id) & (cap - 1);
			while (n[h].idx >= 0)
				h = (h + 1) & (cap - 1);
			n[h] = p->ids[i];
		}
		free(p->ids);
		p->ids = n;
		p->ids_cap = cap;
	}
	size_t h = hash_id(id) & (p->ids_cap - 1);
	while (p->ids[h].idx >= 0) {
		if (p->ids[h].id == id)
			return 0;	/* first event claiming an id keeps it */
		h = (h + 1) & (p->ids_cap - 1);
	}
	p->ids[h].id = id;
	p->ids[h].idx = idx;
	p->ids_used++;
	return 0;
}

static int ids_find(const struct pdata *p, uint64_t id)
{
	if (!p->ids_cap)
		return -1;
	size_t h = hash_id(id) & (p->ids_cap - 1);
	while (p->ids[h].idx >= 0) {
		if (p->ids[h].id == id)
			return p->ids[h].idx;
		h = (h + 1) & (p->ids_cap - 1);
	}
	return -1;
}

/*
 * Where perf finds the id: in a SAMPLE, counted in u64 words after the
 * header; in other records, counted back from the end (1 = last word).
 */
static void id_positions(uint64_t st, int *id_pos, int *is_pos)
{
	*id_pos = *is_pos = -1;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		*id_pos = 0;
		*is_pos = 1;
		return;
	}
	if (!(st & PERF_SAMPLE_ID))
		return;
	*id_pos = !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
		  !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR);
	*is_pos = 1 + !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_STREAM_ID);
}

/*
 * Read one on-disk attr (attr.size bytes, 0 meaning the first 64) into a
 * zero-extended struct.  Returns its size or a negative error.
 */
static int load_attr(struct pdata *p, const unsigned char *src, size_t avail, uint64_t off,
		     struct perf_event_attr *attr)
{
	uint32_t size;

	if (avail < PERF_ATTR_SIZE_VER0)
		return fail(p, -MPERF_ERR_TRUNCATED, "event attr at offset %#llx is truncated",
			    (unsigned long long)off);
	size = pd_u32(src + 4);
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > avail || size > 4096)
		return fail(p, -MPERF_ERR_CORRUPT, "event attr at offset %#llx has bad size %u",
			    (unsigned long long)off, size);
	memset(attr, 0, sizeof(*attr));
	memcpy(attr, src, size < sizeof(*attr) ? size : sizeof(*attr));
	attr->size = size;
	return (int)size;
}

static int add_evsel(struct pdata *p, const struct perf_event_attr *attr, const unsigned char *ids,
		     size_t nr_ids)
{
	struct pd_evsel *n = realloc(p->evsel, (p->nr_evsel + 1) * sizeof(*n));
	struct pd_evsel *e;
	int idx = (int)p->nr_evsel;

	if (!n)
		return -ENOMEM;
	p->evsel = n;
	e = &n[p->nr_evsel++];
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	if (nr_ids) {
		e->ids = malloc(nr_ids * sizeof(uint64_t));
		if (!e->ids)
			return -ENOMEM;
		e->nr_ids = nr_ids;
		for (size_t i = 0; i < nr_ids; i++) {
			e->ids[i] = pd_u64(ids + 8 * i);
			if (ids_insert(p, e->ids[i], idx))
				return -ENOMEM;
		}
	}
	p->sample_type_all |= attr->sample_type;
	if (idx == 0)
		id_positions(attr->sample_type, &p->id_pos, &p->is_pos);
	return 0;
}

static int set_name(struct pd_evsel *e, const char *name, size_t maxlen)
{
	char *s = strndup(name, maxlen);

	if (!s)
		return -ENOMEM;
	free(e->name);
	e->name = s;
	return 0;
}

/* A perf_header_string inside [q, end): u32 len, then len bytes holding a C string. */
static const char *header_string(const unsigned char **q, const unsigned char *end)
{
	uint32_t len;
	const char *s;

	if (end - *q < 4)
		return NULL;
	len = pd_u32(*q);
	if (!len || (size_t)(end - *q - 4) < len)
		return NULL;
	s = (const char *)*q + 4;
	if (!memchr(s, 0, len))
		return NULL;
	*q += 4 + len;
	return s;
}

/*
 * EVENT_DESC names the events by position.  Like perf, a malformed section
 * is ignored as a whole (the events keep their derived names).
 */
static int parse_event_desc(struct pdata *p, const unsigned char *q, size_t len)
{
	const unsigned char *end = q + len;
	uint32_t nr, sz;
	const char **names;
	int err = 0;

	if (len < 8)
		return 0;
	nr = pd_u32(q);
	sz = pd_u32(q + 4);
	q += 8;
	if (sz < PERF_ATTR_SIZE_VER0 || nr > len / sz)
		return 0;
	names = calloc(nr ? nr : 1, sizeof(*names));
	if (!names)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t nr_ids;

		if ((size_t)(end - q) < (size_t)sz + 4)
			goto out;
		q += sz;
		nr_ids = pd_u32(q);
		q += 4;
		names[i] = header_string(&q, end);
		if (!names[i] || nr_ids > (size_t)(end - q) / 8)
			goto out;
		q += 8 * (size_t)nr_ids;
	}
	for (uint32_t i = 0; i < nr && i < p->nr_evsel; i++)
		if ((err = set_name(&p->evsel[i], names[i], 4096)))
			break;
out:
	free(names);
	return err;
}

static void derive_names(struct pdata *p)
{
	for (size_t i = 0; i < p->nr_evsel; i++) {
		char buf[128];

		if (p->evsel[i].name)
			continue;
		pd_event_name(&p->evsel[i].attr, buf, sizeof(buf));
		set_name(&p->evsel[i], buf, sizeof(buf));
	}
}

static int check_events(struct pdata *p)
{
	for (size_t i = 1; i < p->nr_evsel; i++) {
		int id_pos, is_pos;

		id_positions(p->evsel[i].attr.sample_type, &id_pos, &is_pos);
		if (id_pos < 0 || id_pos != p->id_pos || is_pos != p->is_pos)
			return fail(p, -MPERF_ERR_UNSUPP, "non matching sample_type: events have no common id position");
		if (p->evsel[i].attr.sample_id_all != p->evsel[0].attr.sample_id_all)
			return fail(p, -MPERF_ERR_UNSUPP, "non matching sample_id_all");
	}
	return 0;
}

/* ---- file mode ---- */

static bool section_ok(uint64_t off, uint64_t size, uint64_t limit)
{
	return off <= limit && size <= limit - off;
}

/*
 * A feature section must lie in the file, and the string features must
 * hold what they claim: perf silently drops every feature after a bad one,
 * mperf says which one is bad.
 */
static int check_feature(struct pdata *p, int feat, uint64_t off, uint64_t size)
{
	const unsigned char *q, *end;
	const char *name = pd_feature_name(feat);
	char unknown[32];
	uint32_t nr = 1;

	if (!name) {
		snprintf(unknown, sizeof(unknown), "#%d", feat);
		name = unknown;
	}
	if (!section_ok(off, size, p->mem_len))
		return fail(p, -MPERF_ERR_TRUNCATED, "feature %s section [%#llx, +%#llx) runs past the end of the file (%#zx bytes)",
			    name, (unsigned long long)off, (unsigned long long)size, p->mem_len);
	q = p->mem + off;
	end = q + size;
	switch (feat) {
	case PD_FEAT_CMDLINE:
		if (size < 4)
			break;
		nr = pd_u32(q);
		q += 4;
		/* fall through */
	case PD_FEAT_HOSTNAME: case PD_FEAT_OSRELEASE: case PD_FEAT_VERSION:
	case PD_FEAT_ARCH: case PD_FEAT_CPUDESC: case PD_FEAT_CPUID:
		for (uint32_t i = 0; i < nr; i++)
			if (!header_string(&q, end))
				return fail(p, -MPERF_ERR_CORRUPT, "feature %s at %#llx: string %u has no NUL within its length or runs past the section",
					    name, (unsigned long long)off, i);
		return 0;
	default:
		return 0;
	}
	return fail(p, -MPERF_ERR_CORRUPT, "feature %s at %#llx is too short (%llu bytes)",
		    name, (unsigned long long)off, (unsigned long long)size);
}

static int open_file_mode(struct pdata *p)
{
	const unsigned char *h = p->mem;
	uint64_t hsize = pd_u64(h + 8), len = p->mem_len;
	uint64_t attr_size, a_off, a_size, d_off, d_size, nr_attrs, pos, ids_total = 0;
	int err;

	if (hsize != PD_HEADER_SIZE && hsize != 72)
		return fail(p, -MPERF_ERR_FORMAT, "unsupported header size %llu at offset 0x8",
			    (unsigned long long)hsize);
	if (len < hsize)
		return fail(p, -MPERF_ERR_TRUNCATED, "file is truncated: header needs %llu bytes, file has %llu",
			    (unsigned long long)hsize, (unsigned long long)len);
	attr_size = pd_u64(h + 16);
	a_off = pd_u64(h + 24);
	a_size = pd_u64(h + 32);
	d_off = pd_u64(h + 40);
	d_size = pd_u64(h + 48);
	if (hsize == PD_HEADER_SIZE)
		memcpy(p->features, h + 72, sizeof(p->features));
	if (!attr_size)
		return fail(p, -MPERF_ERR_CORRUPT, "attr_size is 0 in the header at offset 0x10");
	if (!section_ok(a_off, a_size, len))
		return fail(p, -MPERF_ERR_TRUNCATED, "attrs section [%#llx, +%#llx) runs past the end of the file (%#llx bytes)",
			    (unsigned long long)a_off, (unsigned long long)a_size, (unsigned long long)len);
	if (d_off < hsize || a_off < hsize)
		return fail(p, -MPERF_ERR_CORRUPT, "attrs or data section overlaps the header");
	if (a_size && d_off < a_off + a_size && a_off < d_off + (d_size ? d_size : 1))
		return fail(p, -MPERF_ERR_CORRUPT, "attrs section [%#llx, +%#llx) overlaps the data section at %#llx",
			    (unsigned long long)a_off, (unsigned long long)a_size, (unsigned long long)d_off);
	if (d_off > len)
		return fail(p, -MPERF_ERR_TRUNCATED, "data section at %#llx starts past the end of the file (%#llx bytes)",
			    (unsigned long long)d_off, (unsigned long long)len);
	if (!d_size) {
		/* A recorder killed before it patched the header: read to EOF. */
		snprintf(p->warn, sizeof(p->warn),
			 "the data size field is 0 (recording did not finish?): reading records to the end of the file");
		d_size = len - d_off;
		p->to_eof = true;
	} else if (!section_ok(d_off, d_size, len)) {
		return fail(p, -MPERF_ERR_TRUNCATED, "file is truncated: data section [%#llx, +%#llx) runs past the end of the file (%#llx bytes)",
			    (unsigned long long)d_off, (unsigned long long)d_size, (unsigned long long)len);
	}
	p->data_off = p->pos = d_off;
	p->data_end = d_off + d_size;

	nr_attrs = a_size / attr_size;
	pos = a_off;
	for (uint64_t i = 0; i < nr_attrs; i++) {
		struct perf_event_attr attr;
		uint64_t ids_off, ids_size;
		int asz = load_attr(p, h + pos, a_off + a_size - pos, pos, &attr);

		if (asz < 0)
			return asz;
		if (a_off + a_size - pos < (uint64_t)asz + 16)
			return fail(p, -MPERF_ERR_TRUNCATED, "attr entry at offset %#llx has no ids section",
				    (unsigned long long)pos);
		ids_off = pd_u64(h + pos + asz);
		ids_size = pd_u64(h + pos + asz + 8);
		if (!section_ok(ids_off, ids_size, len))
			return fail(p, -MPERF_ERR_TRUNCATED, "ids section [%#llx, +%#llx) of event %llu runs past the end of the file",
				    (unsigned long long)ids_off, (unsigned long long)ids_size, (unsigned long long)i);
		/* Every attr may point at the same ids: bound the copies by the file itself. */
		ids_total += ids_size;
		if (ids_total > len)
			return fail(p, -MPERF_ERR_CORRUPT, "ids sections add up to %#llx bytes, more than the file holds",
				    (unsigned long long)ids_total);
		if (ids_size && ids_off < p->data_end && p->data_off < ids_off + ids_size)
			return fail(p, -MPERF_ERR_CORRUPT, "ids section [%#llx, +%#llx) of event %llu overlaps the data section",
				    (unsigned long long)ids_off, (unsigned long long)ids_size, (unsigned long long)i);
		if ((err = add_evsel(p, &attr, h + ids_off, ids_size / 8)))
			return err;
		pos += (uint64_t)asz + 16;
	}
	if (!p->nr_evsel)
		return fail(p, -MPERF_ERR_CORRUPT, "file has no events (attrs section is empty)");

	/* Feature table: exactly at the end of the data, one entry per set bit. */
	if (!p->to_eof) {
		uint64_t t = p->data_end;
		int nfeat = 0, b;

		for (b = 0; b < 256; b++)
			nfeat += pdata__has_feat(p, b);
		if (!section_ok(t, 16 * (uint64_t)nfeat, len))
			return fail(p, -MPERF_ERR_TRUNCATED, "feature table at %#llx (%d entries) runs past the end of the file (%#llx bytes)",
				    (unsigned long long)t, nfeat, (unsigned long long)len);
		nfeat = 0;
		for (b = 0; b < 256; b++) {
			uint64_t off, sz;

			if (!pdata__has_feat(p, b))
				continue;
			off = pd_u64(h + t + 16 * nfeat);
			sz = pd_u64(h + t + 16 * nfeat + 8);
			nfeat++;
			if ((err = check_feature(p, b, off, sz)))
				return err;
			if (b < PD_FEAT_LAST_6_1) {
				p->feat_off[b] = off;
				p->feat_size[b] = sz;
			}
			if (b == PD_FEAT_EVENT_DESC && (err = parse_event_desc(p, h + off, sz)))
				return err;
		}
	}
	return check_events(p);
}

/* ---- pipe mode ---- */

/* Make n bytes available at sbuf + spos (stream) or check them (memory). */
static int need(struct pdata *p, size_t n, const unsigned char **out)
{
	if (p->fd < 0) {
		if (p->pos > p->mem_len || n > p->mem_len - p->pos)
			return 0;
		*out = p->mem + p->pos;
		return 1;
	}
	if (p->slen - p->spos < n) {
		if (p->spos) {
			memmove(p->sbuf, p->sbuf + p->spos, p->slen - p->spos);
			p->slen -= p->spos;
			p->spos = 0;
		}
		if (n > p->scap) {
			unsigned char *nb = realloc(p->sbuf, n);

			if (!nb)
				return -ENOMEM;
			p->sbuf = nb;
			p->scap = n;
		}
		while (p->slen < n && !p->eof) {
			ssize_t r = read(p->fd, p->sbuf + p->slen, p->scap - p->slen);

			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				return fail(p, -errno, "read error at offset %#llx: %s",
					    (unsigned long long)p->pos, strerror(errno));
			if (r == 0)
				p->eof = true;
			p->slen += (size_t)r;
		}
		if (p->slen - p->spos < n)
			return 0;
	}
	*out = p->sbuf + p->spos;
	return 1;
}

static void advance(struct pdata *p, size_t n)
{
	if (p->fd >= 0)
		p->spos += n;
	p->pos += n;
}

/* Skip n bytes that follow a record (TRACING_DATA's payload). */
static int skip(struct pdata *p, uint64_t n)
{
	const unsigned char *q;

	while (n) {
		size_t chunk = n > PIPE_BUF_MIN ? PIPE_BUF_MIN : (size_t)n;
		int r = need(p, chunk, &q);

		if (r <= 0)
			return r < 0 ? r : fail(p, -MPERF_ERR_TRUNCATED, "tracing data at offset %#llx runs past the end of the stream",
						(unsigned long long)p->pos);
		advance(p, chunk);
		n -= chunk;
	}
	return 0;
}

/* Metadata records of pipe mode: they build the event list as they come. */
static int pipe_meta(struct pdata *p, const struct perf_event_header *h, uint64_t off)
{
	const unsigned char *q = (const unsigned char *)h;
	size_t body = h->size - sizeof(*h);
	int err = 0;

	switch (h->type) {
	case PD_HEADER_ATTR: {
		struct perf_event_attr attr;
		int asz = load_attr(p, q + 8, body, off + 8, &attr);

		if (asz < 0)
			return asz;
		err = add_evsel(p, &attr, q + 8 + asz, (body - (size_t)asz) / 8);
		if (!err && p->nr_evsel > 1)
			err = check_events(p);
		if (!err)
			derive_names(p);
		break;
	}
	case PD_HEADER_FEATURE:
		if (body >= 8 && pd_u64(q + 8) == PD_FEAT_EVENT_DESC)
			err = parse_event_desc(p, q + 16, body - 8);
		break;
	case PD_EVENT_UPDATE:
		/* u64 type; u64 id; payload.  Type 2 = the event's name. */
		if (body > 16 && pd_u64(q + 8) == 2) {
			int idx = p->nr_evsel == 1 ? 0 : ids_find(p, pd_u64(q + 16));

			if (idx >= 0)
				err = set_name(&p->evsel[idx], (const char *)q + 24, body - 16);
		}
		break;
	}
	return err;
}

/* ---- records ---- */

static int next_record(struct pdata *p, struct pd_record *rec);

/*
 * Memory use must not grow with the file: every RELEASE_STEP bytes, hand
 * back the mapped pages more than RELEASE_STEP behind the read position.
 * The mapping is private, read-only and never written, so a record still
 * queued there (a round is far smaller than this) would simply be read
 * from the file again.
 */
#define RELEASE_STEP	(4ULL << 20)

static void release_behind(struct pdata *p)
{
	uint64_t page = 4096, upto;

	if (!p->map_len || p->pos < p->released + 2 * RELEASE_STEP)
		return;
	upto = (p->pos - RELEASE_STEP) & ~(page - 1);
	madvise((void *)(p->mem + p->released), upto - p->released, MADV_DONTNEED);
	p->released = upto;
}

int pdata__next(struct pdata *p, struct pd_record *rec)
{
	int r = next_record(p, rec);

	/*
	 * A recorder killed before it patched the header leaves data.size 0
	 * and maybe a torn last record: what parses is the data, the rest is
	 * reported as a warning.
	 */
	if (r < 0 && p->to_eof && r != -ENOMEM) {
		snprintf(p->warn, sizeof(p->warn),
			 "the data size field is 0 (recording did not finish?): read records up to offset %#llx, where: %s",
			 (unsigned long long)p->pos, p->err);
		p->err[0] = 0;
		p->data_end = p->pos;
		return 0;
	}
	return r;
}

static int next_record(struct pdata *p, struct pd_record *rec)
{
	const unsigned char *q;
	struct perf_event_header h;
	uint64_t off = p->pipe ? p->pos - PD_PIPE_HEADER_SIZE : p->pos;
	int r;

	if (p->pending_skip) {
		uint64_t n = p->pending_skip;

		p->pending_skip = 0;
		if ((r = skip(p, n)))
			return r;
		off = p->pos - PD_PIPE_HEADER_SIZE;
	}
	if (!p->pipe) {
		if (p->pos >= p->data_end)
			return 0;
		if (p->data_end - p->pos < sizeof(h))
			return fail(p, -MPERF_ERR_TRUNCATED, "truncated record header at offset %#llx",
				    (unsigned long long)off);
		q = p->mem + p->pos;
	} else {
		r = need(p, sizeof(h), &q);
		if (r < 0)
			return r;
		if (!r) {
			size_t left = p->fd >= 0 ? p->slen - p->spos : p->mem_len - p->pos;

			if (!left)
				return 0;
			return fail(p, -MPERF_ERR_TRUNCATED, "truncated record header at offset %#llx",
				    (unsigned long long)off);
		}
	}
	memcpy(&h, q, sizeof(h));
	if (h.size < sizeof(h))
		return fail(p, -MPERF_ERR_CORRUPT, "record at offset %#llx has size %u, smaller than its header",
			    (unsigned long long)off, h.size);
	if (!p->pipe) {
		if (h.size > p->data_end - p->pos)
			return fail(p, -MPERF_ERR_TRUNCATED, "record at offset %#llx (size %#x) runs past the end of the data at %#llx",
				    (unsigned long long)off, h.size, (unsigned long long)p->data_end);
		/* The kernel pads every record to 8 bytes; a file-mode stream stays aligned. */
		if ((h.size & 7) && h.type < PD_HEADER_ATTR)
			return fail(p, -MPERF_ERR_CORRUPT, "record at offset %#llx has size %#x, not a multiple of 8",
				    (unsigned long long)off, h.size);
		release_behind(p);
	} else {
		r = need(p, h.size, &q);
		if (r < 0)
			return r;
		if (!r)
			return fail(p, -MPERF_ERR_TRUNCATED, "record at offset %#llx (size %#x) runs past the end of the stream",
				    (unsigned long long)off, h.size);
	}
	rec->off = off;
	rec->stable = p->fd < 0;
	/*
	 * Pipe-mode records need not be 8-aligned (perf's FEATURE records
	 * are 0x54 bytes): hand out an aligned copy so that callers can read
	 * the fields in place.
	 */
	if ((uintptr_t)q & 7) {
		if (!p->abuf && !(p->abuf = malloc(65536)))
			return -ENOMEM;
		memcpy(p->abuf, q, h.size);
		q = (const unsigned char *)p->abuf;
		rec->stable = false;
	}
	rec->hdr = (const struct perf_event_header *)q;
	advance(p, h.size);
	if (p->pipe) {
		if ((r = pipe_meta(p, rec->hdr, off)))
			return r;
		/*
		 * TRACING_DATA's payload follows the record in the stream.
		 * The record must stay valid for the caller, so the payload
		 * is skipped at the start of the next call.
		 */
		if (h.type == PD_HEADER_TRACING_DATA && h.size >= 12)
			p->pending_skip = pd_u32(q + 8);
	}
	return 1;
}

/* ---- open / close / accessors ---- */

static struct pdata *alloc_reader(void)
{
	struct pdata *p = calloc(1, sizeof(*p));

	if (p)
		p->fd = -1;
	return p;
}

/* Decide the mode from the first 16 bytes and read the file-mode metadata. */
static int open_common(struct pdata *p, const unsigned char *first16, size_t have)
{
	uint64_t magic;

	if (have < 8)
		return fail(p, -MPERF_ERR_FORMAT, "not a perf.data file: too short for a header (%zu bytes)", have);
	magic = pd_u64(first16);
	if (magic == PD_MAGIC_SWAPPED)
		return fail(p, -MPERF_ERR_UNSUPP, "file was written on a machine of the other endianness (not supported)");
	if (magic != PD_MAGIC)
		return fail(p, -MPERF_ERR_FORMAT, "not a perf.data file: bad magic at offset 0");
	if (have < 16)
		return fail(p, -MPERF_ERR_TRUNCATED, "file is truncated: header ends at offset %#zx", have);
	/* perf checks for the pipe header first, even on a regular file. */
	if (pd_u64(first16 + 8) == PD_PIPE_HEADER_SIZE) {
		p->pipe = true;
		p->pos = PD_PIPE_HEADER_SIZE;
		if (p->fd >= 0)
			p->spos += PD_PIPE_HEADER_SIZE;
		return 0;
	}
	if (p->fd >= 0)
		return fail(p, -MPERF_ERR_UNSUPP, "a file-mode perf.data cannot be read from a pipe; use -i FILE");
	return open_file_mode(p);
}

/* Errors name the file: "'x.data': not a perf.data file..." (system errors already do). */
static struct pdata *finish_open(struct pdata *p, const char *path, int err, char *errbuf, size_t errlen)
{
	if (err >= 0) {
		derive_names(p);
		return p;
	}
	if (errbuf && errlen) {
		const char *msg = p->err[0] ? p->err : mperf_strerror(err);

		if (path && err <= -MPERF_ERR_BASE)
			snprintf(errbuf, errlen, "'%s': %s", path, msg);
		else
			snprintf(errbuf, errlen, "%s", msg);
	}
	pdata__close(p);
	errno = err < -4095 ? EINVAL : -err;
	return NULL;
}

struct pdata *pdata__open_mem(const void *buf, size_t len, char *errbuf, size_t errlen)
{
	struct pdata *p = alloc_reader();

	if (!p)
		return NULL;
	p->mem = buf;
	p->mem_len = len;
	return finish_open(p, NULL, open_common(p, buf, len < 16 ? len : 16), errbuf, errlen);
}

struct pdata *pdata__open(const char *path, char *errbuf, size_t errlen)
{
	struct pdata *p = alloc_reader();
	struct stat st;
	int fd, err;

	if (!p)
		return NULL;
	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(0);
	if (!strcmp(path, "-"))
		path = "stdin";
	if (fd < 0 || fstat(fd, &st) < 0) {
		err = -errno;
		snprintf(p->err, sizeof(p->err), "cannot open '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return finish_open(p, path, err, errbuf, errlen);
	}
	if (S_ISREG(st.st_mode)) {
		if (st.st_size) {
			void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

			if (m == MAP_FAILED) {
				err = -errno;
				snprintf(p->err, sizeof(p->err), "cannot map '%s': %s", path, strerror(errno));
				close(fd);
				return finish_open(p, path, err, errbuf, errlen);
			}
			/* Records are read once, front to back. */
			madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
			p->mem = m;
			p->mem_len = p->map_len = (size_t)st.st_size;
		}
		close(fd);
		return finish_open(p, path, open_common(p, p->mem, p->mem_len < 16 ? p->mem_len : 16),
				   errbuf, errlen);
	}
	/* A pipe or terminal: stream it. */
	const unsigned char *q;
	p->fd = fd;
	p->sbuf = malloc(PIPE_BUF_MIN);
	if (!p->sbuf)
		return finish_open(p, path, -ENOMEM, errbuf, errlen);
	p->scap = PIPE_BUF_MIN;
	err = need(p, 16, &q);
	if (err < 0)
		return finish_open(p, path, err, errbuf, errlen);
	return finish_open(p, "stdin", open_common(p, p->sbuf, p->slen < 16 ? p->slen : 16), errbuf, errlen);
}

void pdata__close(struct pdata *p)
{
	if (!p)
		return;
	if (p->map_len)
		munmap((void *)p->mem, p->map_len);
	if (p->fd >= 0)
		close(p->fd);
	for (size_t i = 0; i < p->nr_evsel; i++) {
		free(p->evsel[i].name);
		free(p->evsel[i].ids);
	}
	free(p->evsel);
	free(p->ids);
	free(p->abuf);
	free(p->sbuf);
	free(p);
}

bool pdata__is_pipe(const struct pdata *p)
{
	return p->pipe;
}

const char *pdata__errmsg(const struct pdata *p)
{
	return p->err;
}

const char *pdata__warning(const struct pdata *p)
{
	return p->warn[0] ? p->warn : NULL;
}

size_t pdata__nr_evsel(const struct pdata *p)
{
	return p->nr_evsel;
}

const struct pd_evsel *pdata__evsel(const struct pdata *p, size_t idx)
{
	return idx < p->nr_evsel ? &p->evsel[idx] : NULL;
}

uint64_t pdata__sample_type_all(const struct pdata *p)
{
	return p->sample_type_all;
}

bool pdata__sample_id_all(const struct pdata *p)
{
	return p->nr_evsel && p->evsel[0].attr.sample_id_all;
}

bool pdata__has_feat(const struct pdata *p, int feat)
{
	return feat >= 0 && feat < 256 && (p->features[feat / 64] >> (feat % 64)) & 1;
}

const unsigned char *pdata__feature(const struct pdata *p, int feat, size_t *len)
{
	if (p->pipe || feat <= 0 || feat >= PD_FEAT_LAST_6_1 || !p->feat_off[feat] || !p->mem)
		return NULL;
	*len = p->feat_size[feat];
	return p->mem + p->feat_off[feat];
}

void pdata__layout(const struct pdata *p, uint64_t *data_off, uint64_t *data_size, uint64_t *feat_off)
{
	*data_off = p->pipe ? 0 : p->data_off;
	*data_size = p->pipe ? 0 : p->data_end - p->data_off;
	*feat_off = p->pipe ? 0 : p->data_end;
}

size_t pdata__build_id(const struct pdata *p, const char *name, unsigned char id[20])
{
	size_t len;
	const unsigned char *q = pdata__feature(p, PD_FEAT_BUILD_ID, &len), *end;

	if (!q)
		return 0;
	/* Entries: {header; s32 pid; u8 id[20]; u8 size; u8 pad[3]; char name[]} */
	for (end = q + len; end - q >= 36; ) {
		uint16_t size = pd_u16(q + 6), misc = pd_u16(q + 4);
		size_t n;

		if (size < 36 || size > end - q)
			break;
		if (strnlen((const char *)q + 36, size - 36u) < size - 36u && !strcmp((const char *)q + 36, name)) {
			/* Without the size flag (0x8000) the id is the full 20 bytes. */
			n = (misc & 0x8000) && q[32] && q[32] <= 20 ? q[32] : 20;
			memcpy(id, q + 12, n);
			return n;
		}
		q += size;
	}
	return 0;
}

int pdata__evsel_by_id(const struct pdata *p, uint64_t id)
{
	return ids_find(p, id);
}

int pdata__evsel_of(const struct pdata *p, const struct perf_event_header *h)
{
	size_t words = (h->size - sizeof(*h)) / 8;
	const unsigned char *body = (const unsigned char *)(h + 1);
	uint64_t id;
	int idx;

	if (h->type >= PD_HEADER_ATTR)
		return -1;
	if (!p->nr_evsel)
		return -MPERF_ERR_CORRUPT;
	if (p->nr_evsel == 1)
		return 0;
	if (h->type != PERF_RECORD_SAMPLE && !p->evsel[0].attr.sample_id_all)
		return 0;
	if (h->type == PERF_RECORD_SAMPLE) {
		if (p->id_pos < 0 || (size_t)p->id_pos >= words)
			return -MPERF_ERR_CORRUPT;
		id = pd_u64(body + 8 * (size_t)p->id_pos);
	} else {
		if (p->is_pos < 0 || (size_t)p->is_pos > words)
			return -MPERF_ERR_CORRUPT;
		id = pd_u64(body + 8 * (words - (size_t)p->is_pos));
	}
	if (!id)
		return 0;	/* synthesized records carry id 0 */
	idx = ids_find(p, id);
	return idx >= 0 ? idx : -MPERF_ERR_CORRUPT;
}
