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
#include <zstd.h>
#include "../lib/alloc.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "dir.h"
#include "perfdata.h"

#define PIPE_BUF_MIN	(1 << 17)
/*
 * A file's records are read (pread) into buffers of CHUNK bytes, not
 * touched in the mapping: on a VM a mapped page costs a fault at its first
 * touch, some microseconds, several times what copying it does; a reused
 * buffer is faulted in once.  A record the session queues holds its buffer
 * (pdata__hold); past MAX_CHUNKS held buffers the records are read from the
 * mapping, as when they are all queued (a file without rounds).
 */
#define CHUNK		(2u << 20)
#define MAX_CHUNKS	32
/*
 * What one compressed record may decompress to: perf compresses at most
 * one ring buffer's worth (a few MB) into a record; the cap keeps a
 * crafted file from filling memory.
 */
#define DECOMP_MAX	(64u << 20)

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
	bool pending_keep;		/* they are TRACING_DATA's: kept */
	unsigned char *tracing;		/* pipe mode: the first TRACING_DATA payload */
	size_t tracing_len;
	bool to_eof;			/* data.size was 0: a bad record ends the data */
	uint64_t cut_size;		/* data.size when the file ends inside the data, else 0 */
	uint64_t *abuf;			/* aligned copy of a misaligned record (pipe mode) */
	uint64_t released;		/* mapped bytes [0, released) handed back */
	uint64_t populated;		/* mapped bytes [.., populated) faulted in ahead */
	bool no_populate;		/* the kernel cannot (before 5.14) */

	/* A file's data read in chunks: file bytes [start, end) in buf, held holds times. */
	int rfd;			/* the file, -1 for a stream or an image in memory */
	struct chunk {
		unsigned char *buf;
		uint64_t start, end;
		unsigned holds;
	} chunks[MAX_CHUNKS];
	size_t chunk_cap;		/* their size: CHUNK, or a smaller data section's */
	int nr_chunks, cur;		/* cur: the chunk records are read from, or -1 */
	int rchunk;			/* the chunk the last record is in, or -1 */
	uint64_t mapped_until;		/* no chunk was free: the mapping's bytes up to there */
	struct pd_section feat[PD_FEAT_LAST_6_1];	/* checked sections */
	uint64_t features[4];
	uint64_t bad_feat[4];		/* sections that are set but do not parse: skipped */
	int version;			/* 0: "PERFFILE" (perf's version 1), 1: "PERFILE2" */
	char arch[64];			/* the ARCH feature, "" without one */
	struct pd_group_desc *groups;	/* GROUP_DESC, names malloc'd */
	size_t nr_groups;
	bool warned;			/* the data-size-0 warning was logged */

	/* Records decompressed from COMPRESSED records: [dpos, dlen) unread. */
	ZSTD_DStream *zds;
	unsigned char *dbuf;
	size_t dcap, dpos, dlen;
	uint64_t doff;			/* the compressed record they came from */

	struct pd_evsel *evsel;
	size_t nr_evsel, evsel_cap;
	struct idmap ids;		/* id -> event; report keeps READ values there */
	uint64_t sample_type_all;

	/*
	 * A directory (perf record --threads): its data.N files, read one
	 * after the other once the header file's data is read (dir.h).
	 */
	const unsigned char *rmem;	/* the image records are read from: mem, or a part's */
	struct pd_part *parts;
	size_t nr_parts, part;		/* part: the next one to read */
	uint64_t hdr_data_end;		/* the header file's data end, while a part is read */
	const char *rpath;		/* the file records come from, for -D; NULL for a single file */
	char *dir_data;			/* "DIR/data": the header file's name */
	time_t mtime;			/* a file's, from its fstat at open */

	const char *label;		/* names the source in messages, or NULL */
	char err[512];			/* the failure, until it is logged */
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
	struct pd_evsel *e;
	int idx = (int)p->nr_evsel;

	if (ALLOC_GROW(p->evsel, p->nr_evsel + 1, p->evsel_cap))
		return -ENOMEM;
	e = &p->evsel[p->nr_evsel++];
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	pd_sample_layout(attr, &e->layout);
	if (nr_ids) {
		e->ids = malloc(nr_ids * sizeof(uint64_t));
		if (!e->ids)
			return -ENOMEM;
		e->nr_ids = nr_ids;
		for (size_t i = 0; i < nr_ids; i++) {
			e->ids[i] = pd_u64(ids + 8 * i);
			/* The first event claiming an id keeps it. */
			if (idmap_add(&p->ids, e->ids[i], idx))
				return -ENOMEM;
		}
	}
	p->sample_type_all |= attr->sample_type;
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

/*
 * EVENT_DESC names the events by position.  Like perf, a malformed section
 * is ignored as a whole (the events keep their derived names).
 */
static int parse_event_desc(struct pdata *p, const unsigned char *q, size_t len)
{
	struct pd_cursor c = { q, q + len };
	struct pd_feat_event_desc d;
	const char **names;
	int err = 0;

	if (len < sizeof(d))
		return 0;
	memcpy(&d, q, sizeof(d));
	pd_cursor_skip(&c, sizeof(d));
	if (d.attr_size < PERF_ATTR_SIZE_VER0 || d.nr > len / d.attr_size)
		return 0;
	names = calloc(d.nr ? d.nr : 1, sizeof(*names));
	if (!names)
		return -ENOMEM;
	for (uint32_t i = 0; i < d.nr; i++) {
		uint32_t nr_ids;

		if (!pd_cursor_skip(&c, d.attr_size) || !pd_cursor_u32(&c, &nr_ids) ||
		    !(names[i] = pd_cursor_string(&c)) || !pd_cursor_skip(&c, 8 * (size_t)nr_ids))
			goto out;
	}
	for (uint32_t i = 0; i < d.nr && i < p->nr_evsel; i++)
		if ((err = set_name(&p->evsel[i], names[i], 4096)))
			break;
out:
	free(names);
	return err;
}

static void free_groups(struct pdata *p)
{
	for (size_t i = 0; i < p->nr_groups; i++)
		free((char *)p->groups[i].name);
	free(p->groups);
	p->groups = NULL;
	p->nr_groups = 0;
}

/*
 * GROUP_DESC: the groups, each a leader and the events after it.  One
 * that does not fit the events (past the last, overlapping, out of
 * order) drops the description, said once.
 */
static int parse_group_desc(struct pdata *p, const unsigned char *q, size_t len)
{
	struct pd_cursor c = { q, q + len };
	uint32_t nr;
	uint64_t next = 0;

	free_groups(p);
	if (!pd_cursor_u32(&c, &nr) || nr > len / 12)
		goto bad;
	if (!(p->groups = calloc(nr ? nr : 1, sizeof(*p->groups))))
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		struct pd_group_desc g;

		if (!pd_group_desc_next(&c, &g) || g.leader < next || !g.nr_members ||
		    (uint64_t)g.leader + g.nr_members > p->nr_evsel)
			goto bad;
		next = (uint64_t)g.leader + g.nr_members;
		if (g.name && !(g.name = strdup(g.name)))
			return -ENOMEM;
		p->groups[p->nr_groups++] = g;
	}
	return 0;
bad:
	free_groups(p);
	mperf_log(MPERF_LOG_WARN, "'%s': its GROUP_DESC does not match its %zu events: no groups",
		  p->label ? p->label : "data", p->nr_evsel);
	return 0;
}

/* The ARCH feature's string (register names depend on it). */
static void set_arch(struct pdata *p, const unsigned char *q, size_t len)
{
	struct pd_cursor c = { q, q + len };
	const char *s = pd_cursor_string(&c);

	if (s)
		snprintf(p->arch, sizeof(p->arch), "%s", s);
}

/*
 * A tracepoint event that nothing named is named "system:name" from the
 * tracing data, by its id (config), as perf names it.
 */
#define TRACING_MAX	(64u << 20)
static void name_tracepoints(struct pdata *p, const unsigned char *q, size_t len)
{
	struct pd_tracing_data td;
	struct pd_tracing_event *ev;
	size_t nr = 0, max = 8192;

	if (!(ev = calloc(max, sizeof(*ev))))
		return;
	if (!pd_tracing_data_decode(q, len, &td, ev, max, &nr)) {
		for (size_t i = 0; i < nr && i < max; i++) {
			char name[256], full[512];
			uint64_t id;

			if (!pd_tracing_format_id(&ev[i].format, name, sizeof(name), &id))
				continue;
			for (size_t k = 0; k < p->nr_evsel; k++) {
				struct pd_evsel *e = &p->evsel[k];

				if (e->attr.type != PERF_TYPE_TRACEPOINT || e->attr.config != id ||
				    (e->name && strcmp(e->name, "unknown:unknown")))
					continue;
				snprintf(full, sizeof(full), "%s:%s", ev[i].sys, name);
				set_name(e, full, sizeof(full));
			}
		}
	}
	free(ev);
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

/*
 * perf finds every event's id where the first event has it: in samples
 * and in trailers, whether or not the events have sample_id_all (perf
 * compares the trailer position of the sample_type alone).
 */
static void layout_with_trailer(const struct perf_event_attr *attr, struct pd_sample_layout *l)
{
	struct perf_event_attr a = *attr;

	a.sample_id_all = 1;
	pd_sample_layout(&a, l);
}

static int check_events(struct pdata *p)
{
	struct pd_sample_layout l0, l;

	layout_with_trailer(&p->evsel[0].attr, &l0);
	for (size_t i = 1; i < p->nr_evsel; i++) {
		layout_with_trailer(&p->evsel[i].attr, &l);
		if (l.id_pos < 0 || l.id_pos != l0.id_pos || l.id_is_pos != l0.id_is_pos)
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
	const char *name = pd_feature_name(feat);
	struct pd_cmdline cl;
	struct pd_cursor c;
	char unknown[32];

	if (!name) {
		snprintf(unknown, sizeof(unknown), "#%d", feat);
		name = unknown;
	}
	if (!section_ok(off, size, p->mem_len))
		return fail(p, -MPERF_ERR_TRUNCATED, "feature %s section [%#llx, +%#llx) runs past the end of the file (%#zx bytes)",
			    name, (unsigned long long)off, (unsigned long long)size, p->mem_len);
	c.p = p->mem + off;
	c.end = c.p + size;
	switch (feat) {
	case PD_FEAT_CMDLINE:
		if (!pd_cmdline_init(&cl, c.p, size))
			break;
		while (pd_cmdline_next(&cl))
			;
		if (cl.i < cl.nr)
			return fail(p, -MPERF_ERR_CORRUPT, "feature %s at %#llx: string %u has no NUL within its length or runs past the section",
				    name, (unsigned long long)off, cl.i);
		return 0;
	case PD_FEAT_HOSTNAME: case PD_FEAT_OSRELEASE: case PD_FEAT_VERSION:
	case PD_FEAT_ARCH: case PD_FEAT_CPUDESC: case PD_FEAT_CPUID:
		if (!pd_cursor_string(&c))
			return fail(p, -MPERF_ERR_CORRUPT, "feature %s at %#llx: string %u has no NUL within its length or runs past the section",
				    name, (unsigned long long)off, 0u);
		return 0;
	default:
		return 0;
	}
	return fail(p, -MPERF_ERR_CORRUPT, "feature %s at %#llx is too short (%llu bytes)",
		    name, (unsigned long long)off, (unsigned long long)size);
}

/*
 * The file header of p->mem into *h, checked: its version and size, the
 * attrs and data sections inside the file and apart; the data's bounds
 * set (to the end of the file for a recorder killed before it patched the
 * header, or for a cut file).
 */
static int file_header(struct pdata *p, struct pd_file_header *h)
{
	const unsigned char *img = p->mem;
	uint64_t len = p->mem_len, d_size;

	memcpy(h, img, PD_PIPE_HEADER_SIZE);	/* magic and size: checked by the caller */
	if (!p->version) {
		uint64_t a = 0;

		/* perf reads a "PERFFILE" header when attr_size fits an attr ABI it knows, plus the ids section. */
		memcpy(&a, img + offsetof(struct pd_file_header, attr_size), len >= 24 ? 8 : 0);
		if (a != PERF_ATTR_SIZE_VER0 + 16 && a != PERF_ATTR_SIZE_VER1 + 16 &&
		    a != PERF_ATTR_SIZE_VER2 + 16 && a != PERF_ATTR_SIZE_VER3 + 16)
			return fail(p, -MPERF_ERR_FORMAT, "\"PERFFILE\" header with attr_size %llu at offset %#zx: no attr layout of that version",
				    (unsigned long long)a, offsetof(struct pd_file_header, attr_size));
	}
	if (h->size != PD_HEADER_SIZE && h->size != PD_HEADER_SIZE_V0)
		return fail(p, -MPERF_ERR_FORMAT, "unsupported header size %llu at offset %#zx",
			    (unsigned long long)h->size, offsetof(struct pd_file_header, size));
	if (len < h->size)
		return fail(p, -MPERF_ERR_TRUNCATED, "file is truncated: header needs %llu bytes, file has %llu",
			    (unsigned long long)h->size, (unsigned long long)len);
	/* A header without the feature bitmap leaves it zero. */
	memcpy(h, img, h->size);
	memcpy(p->features, h->features, sizeof(p->features));
	if (!h->attr_size)
		return fail(p, -MPERF_ERR_CORRUPT, "attr_size is 0 in the header at offset %#zx",
			    offsetof(struct pd_file_header, attr_size));
	if (!section_ok(h->attrs.offset, h->attrs.size, len))
		return fail(p, -MPERF_ERR_TRUNCATED, "attrs section [%#llx, +%#llx) runs past the end of the file (%#llx bytes)",
			    (unsigned long long)h->attrs.offset, (unsigned long long)h->attrs.size, (unsigned long long)len);
	if (h->data.offset < h->size || h->attrs.offset < h->size)
		return fail(p, -MPERF_ERR_CORRUPT, "attrs or data section overlaps the header");
	if (h->attrs.size && h->data.offset < h->attrs.offset + h->attrs.size &&
	    h->attrs.offset < h->data.offset + (h->data.size ? h->data.size : 1))
		return fail(p, -MPERF_ERR_CORRUPT, "attrs section [%#llx, +%#llx) overlaps the data section at %#llx",
			    (unsigned long long)h->attrs.offset, (unsigned long long)h->attrs.size,
			    (unsigned long long)h->data.offset);
	if (h->data.offset > len)
		return fail(p, -MPERF_ERR_TRUNCATED, "data section at %#llx starts past the end of the file (%#llx bytes)",
			    (unsigned long long)h->data.offset, (unsigned long long)len);
	d_size = h->data.size;
	if (!d_size) {
		/* A recorder killed before it patched the header: read to EOF. */
		d_size = len - h->data.offset;
		p->to_eof = true;
	} else if (!section_ok(h->data.offset, d_size, len)) {
		/* The file ends inside the data: read what is there, then say so (pdata__next). */
		p->cut_size = d_size;
		d_size = len - h->data.offset;
	}
	p->data_off = p->pos = h->data.offset;
	p->data_end = h->data.offset + d_size;

	return 0;
}

/* Each attr of the attrs section, with its ids, as an event. */
static int file_attrs(struct pdata *p, const struct pd_file_header *h)
{
	const unsigned char *img = p->mem;
	uint64_t len = p->mem_len, nr_attrs, pos, ids_total = 0;
	int err;

	nr_attrs = h->attrs.size / h->attr_size;
	pos = h->attrs.offset;
	for (uint64_t i = 0; i < nr_attrs; i++) {
		struct perf_event_attr attr;
		struct pd_attr_ids ai;
		uint64_t left = h->attrs.offset + h->attrs.size - pos;
		int asz = load_attr(p, img + pos, left, pos, &attr);

		if (asz < 0)
			return asz;
		if (left < (uint64_t)asz + sizeof(ai))
			return fail(p, -MPERF_ERR_TRUNCATED, "attr entry at offset %#llx has no ids section",
				    (unsigned long long)pos);
		memcpy(&ai, img + pos + asz, sizeof(ai));
		if (!section_ok(ai.ids.offset, ai.ids.size, len))
			return fail(p, -MPERF_ERR_TRUNCATED, "ids section [%#llx, +%#llx) of event %llu runs past the end of the file",
				    (unsigned long long)ai.ids.offset, (unsigned long long)ai.ids.size, (unsigned long long)i);
		/* Every attr may point at the same ids: bound the copies by the file itself. */
		ids_total += ai.ids.size;
		if (ids_total > len)
			return fail(p, -MPERF_ERR_CORRUPT, "ids sections add up to %#llx bytes, more than the file holds",
				    (unsigned long long)ids_total);
		if (ai.ids.size && ai.ids.offset < p->data_end && p->data_off < ai.ids.offset + ai.ids.size)
			return fail(p, -MPERF_ERR_CORRUPT, "ids section [%#llx, +%#llx) of event %llu overlaps the data section",
				    (unsigned long long)ai.ids.offset, (unsigned long long)ai.ids.size, (unsigned long long)i);
		if ((err = add_evsel(p, &attr, img + ai.ids.offset, ai.ids.size / 8)))
			return err;
		pos += (uint64_t)asz + sizeof(ai);
	}
	if (!p->nr_evsel)
		return fail(p, -MPERF_ERR_CORRUPT, "file has no events (attrs section is empty)");

	return 0;
}

/* Feature table: exactly at the end of the data, one entry per set bit. */
static int file_features(struct pdata *p)
{
	const unsigned char *img = p->mem;
	uint64_t len = p->mem_len;
	char first_bad[sizeof(p->err)];
	int err, nbad = 0;

	if (p->to_eof || p->cut_size)
		memset(p->features, 0, sizeof(p->features));
	else {
		uint64_t t = p->data_end;
		int nfeat = 0, b;

		for (b = 0; b < PD_FEAT_BITS; b++)
			nfeat += pdata__has_feat(p, b);
		if (!section_ok(t, sizeof(struct pd_section) * (uint64_t)nfeat, len)) {
			mperf_log(MPERF_LOG_WARN, "'%s': feature table at %#llx (%d entries) runs past the end of the file (%#llx bytes): features skipped",
				  p->label ? p->label : "data", (unsigned long long)t, nfeat, (unsigned long long)len);
			memset(p->features, 0, sizeof(p->features));
			nfeat = 0;
		}
		nfeat = 0;
		for (b = 0; b < PD_FEAT_BITS; b++) {
			struct pd_section sec;

			if (!pdata__has_feat(p, b))
				continue;
			memcpy(&sec, img + t + sizeof(sec) * (size_t)nfeat++, sizeof(sec));
			/*
			 * An optional section that does not parse costs that
			 * section only: -D needs none, and the others are read.
			 */
			if (check_feature(p, b, sec.offset, sec.size)) {
				/* The first one is said; the others are counted in the same line. */
				if (!nbad++)
					snprintf(first_bad, sizeof(first_bad), "%s", p->err);
				p->err[0] = 0;
				p->bad_feat[b / 64] |= 1ULL << (b % 64);
				continue;
			}
			if (b < PD_FEAT_LAST_6_1)
				p->feat[b] = sec;
			if (b == PD_FEAT_EVENT_DESC && (err = parse_event_desc(p, img + sec.offset, sec.size)))
				return err;
			if (b == PD_FEAT_ARCH)
				set_arch(p, img + sec.offset, sec.size);
			if (b == PD_FEAT_GROUP_DESC && (err = parse_group_desc(p, img + sec.offset, sec.size)))
				return err;
		}
	}
	if (nbad == 1)
		mperf_log(MPERF_LOG_WARN, "'%s': %s: skipped", p->label ? p->label : "data", first_bad);
	else if (nbad)
		mperf_log(MPERF_LOG_WARN, "'%s': %s: skipped, with %d more feature sections that do not parse",
			  p->label ? p->label : "data", first_bad, nbad - 1);
	if (nbad == 1)
		mperf_log(MPERF_LOG_WARN, "'%s': %s: skipped", p->label ? p->label : "data", first_bad);
	else if (nbad)
		mperf_log(MPERF_LOG_WARN, "'%s': %s: skipped, with %d more feature sections that do not parse",
			  p->label ? p->label : "data", first_bad, nbad - 1);
	return 0;
}

static int open_file_mode(struct pdata *p)
{
	struct pd_file_header h = { 0 };
	int err;

	if ((err = file_header(p, &h)) || (err = file_attrs(p, &h)) || (err = file_features(p)))
		return err;
	p->rmem = p->mem;
	if (p->feat[PD_FEAT_TRACING_DATA].size)
		name_tracepoints(p, p->mem + p->feat[PD_FEAT_TRACING_DATA].offset, p->feat[PD_FEAT_TRACING_DATA].size);
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

/*
 * Take the n bytes that follow a record: TRACING_DATA's payload (keep) is
 * kept for pdata__tracing_data, the first one only, grown as its bytes
 * arrive (a size the stream does not hold costs no memory); AUXTRACE's,
 * and any other, is skipped.
 */
static int skip(struct pdata *p, uint64_t n, bool keep)
{
	const unsigned char *q;

	keep = keep && !p->tracing && !p->tracing_len;

	while (n) {
		size_t chunk = n > PIPE_BUF_MIN ? PIPE_BUF_MIN : (size_t)n;
		int r = need(p, chunk, &q);

		if (r <= 0)
			return r < 0 ? r : fail(p, -MPERF_ERR_TRUNCATED, "the payload at offset %#llx runs past the end of the stream",
						(unsigned long long)p->pos - PD_PIPE_HEADER_SIZE);
		if (keep) {
			unsigned char *t = realloc(p->tracing, p->tracing_len + chunk);

			if (!t)
				return -ENOMEM;
			memcpy(t + p->tracing_len, q, chunk);
			p->tracing = t;
			p->tracing_len += chunk;
		}
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
		/* The header, the attr (attr.size bytes), then the event's ids. */
		struct perf_event_attr attr;
		int asz = load_attr(p, q + sizeof(*h), body, off + sizeof(*h), &attr);

		if (asz < 0)
			return asz;
		err = add_evsel(p, &attr, q + sizeof(*h) + asz, (body - (size_t)asz) / 8);
		if (!err && p->nr_evsel > 1)
			err = check_events(p);
		if (!err)
			derive_names(p);
		break;
	}
	case PD_HEADER_FEATURE: {
		struct pd_feature_event fe;

		if (PD_VIEW(h, &fe) && fe.feat_id == PD_FEAT_EVENT_DESC)
			err = parse_event_desc(p, q + sizeof(fe), h->size - sizeof(fe));
		if (fe.feat_id == PD_FEAT_ARCH && h->size > sizeof(fe))
			set_arch(p, q + sizeof(fe), h->size - sizeof(fe));
		if (fe.feat_id == PD_FEAT_GROUP_DESC && h->size > sizeof(fe))
			err = parse_group_desc(p, q + sizeof(fe), h->size - sizeof(fe));
		break;
	}
	case PD_EVENT_UPDATE: {
		struct pd_event_update_event eu;
		size_t at = offsetof(struct pd_event_update_event, str);

		PD_VIEW(h, &eu);
		if (h->size > at && eu.type == PD_EVENT_UPDATE_NAME) {
			int idx = p->nr_evsel == 1 ? 0 : pdata__evsel_by_id(p, eu.id);

			if (idx >= 0)
				err = set_name(&p->evsel[idx], (const char *)q + at, h->size - at);
		}
		break;
	}
	}
	return err;
}

/* ---- compressed records ---- */

/*
 * Decompress the zstd data of the COMPRESSED record at off into dbuf,
 * after what is left of the last one (a record may span two).
 */
static int decompress(struct pdata *p, const unsigned char *src, size_t n, uint64_t off)
{
	ZSTD_inBuffer in = { src, n, 0 };
	size_t keep = p->dlen - p->dpos;

	if (!p->zds) {
		if (!(p->zds = ZSTD_createDStream()))
			return -ENOMEM;
		ZSTD_initDStream(p->zds);
	}
	if (keep)
		memmove(p->dbuf, p->dbuf + p->dpos, keep);
	p->dlen = keep;
	p->dpos = 0;
	p->doff = off;
	for (;;) {
		ZSTD_outBuffer out;
		size_t r;

		if (p->dcap - p->dlen < (1 << 16)) {
			size_t cap = p->dcap ? 2 * p->dcap : (1 << 20);
			unsigned char *nb;

			if (cap > DECOMP_MAX + keep)
				return fail(p, -MPERF_ERR_CORRUPT, "compressed record at offset %#llx decompresses to more than %u MiB",
					    (unsigned long long)off, DECOMP_MAX >> 20);
			if (!(nb = realloc(p->dbuf, cap)))
				return -ENOMEM;
			p->dbuf = nb;
			p->dcap = cap;
		}
		out.dst = p->dbuf;
		out.size = p->dcap;
		out.pos = p->dlen;
		r = ZSTD_decompressStream(p->zds, &out, &in);
		if (ZSTD_isError(r))
			return fail(p, -MPERF_ERR_CORRUPT, "compressed record at offset %#llx: %s",
				    (unsigned long long)off, ZSTD_getErrorName(r));
		p->dlen = out.pos;
		/* All input taken and room left over: zstd has given all it can. */
		if (in.pos == in.size && out.pos < out.size)
			return 0;
	}
}

/* The COMPRESSED or COMPRESSED2 record h at off: its records go to dbuf. */
static int compressed(struct pdata *p, const struct perf_event_header *h, uint64_t off)
{
	const unsigned char *q = (const unsigned char *)h;
	size_t at = sizeof(struct pd_compressed_event), n = h->size - at;

	if (h->type == PD_COMPRESSED2) {
		struct pd_compressed2_event c;

		at = offsetof(struct pd_compressed2_event, data);
		if (!PD_VIEW(h, &c) || c.data_size > (uint64_t)(h->size - at))
			return fail(p, -MPERF_ERR_CORRUPT, "COMPRESSED2 record at offset %#llx (size %#x) holds less than its data_size says",
				    (unsigned long long)off, h->size);
		n = (size_t)c.data_size;
	}
	return decompress(p, q + at, n, off);
}

/*
 * The next whole record of the decompressed data: 1, or 0 when none is
 * whole (the rest may come with the next compressed record).
 */
static int next_decompressed(struct pdata *p, struct pd_record *rec)
{
	struct perf_event_header h;
	size_t left = p->dlen - p->dpos;

	if (left < sizeof(h))
		return 0;
	memcpy(&h, p->dbuf + p->dpos, sizeof(h));
	if (h.size < sizeof(h) || (h.size & 7))
		return fail(p, -MPERF_ERR_CORRUPT, "record at byte %#zx of the data compressed at offset %#llx has size %#x, %s",
			    p->dpos, (unsigned long long)p->doff, h.size,
			    h.size < sizeof(h) ? "smaller than its header" : "not a multiple of 8");
	if (h.size > left)
		return 0;
	if (h.type == PD_AUXTRACE || h.type == PD_COMPRESSED || h.type == PD_COMPRESSED2 ||
	    h.type == PD_HEADER_TRACING_DATA)
		return fail(p, -MPERF_ERR_CORRUPT, "%s record at byte %#zx of the data compressed at offset %#llx: it cannot be compressed",
			    pd_record_name(h.type), p->dpos, (unsigned long long)p->doff);
	/* perf gives every record of a compressed one that record's offset. */
	rec->off = p->doff;
	rec->hdr = (const struct perf_event_header *)(p->dbuf + p->dpos);
	rec->stable = false;
	p->dpos += h.size;
	return 1;
}

/* ---- records ---- */

/* Back to the header file of a directory, as when it was opened. */
static void rewind_parts(struct pdata *p)
{
	if (!p->part)
		return;
	p->rmem = p->mem;
	p->rpath = p->label = p->dir_data;
	p->data_end = p->hdr_data_end;
	p->part = 0;
}

int pdata__rewind(struct pdata *p)
{
	if (p->pipe || p->fd >= 0)
		return -ESPIPE;
	rewind_parts(p);
	p->pos = p->data_off;
	p->pending_skip = 0;
	p->pending_keep = false;
	p->released = 0;	/* handed-back pages are read from the file again */
	p->populated = 0;
	p->cur = -1;
	p->mapped_until = 0;
	p->warned = false;
	p->dpos = p->dlen = 0;
	if (p->zds)
		ZSTD_initDStream(p->zds);
	for (size_t i = 0; i < p->ids.cap; i++)
		p->ids.v[i].value = 0;
	return 0;
}

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
	madvise((void *)(p->rmem + p->released), upto - p->released, MADV_DONTNEED);
	p->released = upto;
}

/*
 * The mapped pages ahead of the read position faulted in by one call per
 * POPULATE_STEP bytes, not one fault per 16 pages: a fault costs some
 * microseconds, many more on a VM, and a large file has thousands.
 */
#define POPULATE_STEP	(2ULL << 20)
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

static void populate_ahead(struct pdata *p)
{
	uint64_t from, to;

	if (!p->map_len || p->no_populate || p->pos < p->populated)
		return;
	from = p->pos & ~4095ULL;
	to = p->data_end - from > POPULATE_STEP ? from + POPULATE_STEP : p->data_end;
	if (madvise((void *)(p->rmem + from), to - from, MADV_POPULATE_READ))
		p->no_populate = true;	/* faults as before */
	p->populated = to;
}

/* A free chunk to read into (allocated up to MAX_CHUNKS), or -1. */
static int free_chunk(struct pdata *p)
{
	void *buf;

	if (p->cur >= 0 && !p->chunks[p->cur].holds)
		return p->cur;
	for (int i = 0; i < p->nr_chunks; i++)
		if (!p->chunks[i].holds)
			return i;
	if (p->nr_chunks == MAX_CHUNKS)
		return -1;
	/* A small file's data takes one small chunk. */
	if (!p->chunk_cap)
		p->chunk_cap = p->data_end - p->data_off < CHUNK ? (size_t)(p->data_end - p->data_off) : CHUNK;
	if (p->chunk_cap < CHUNK)
		buf = malloc(p->chunk_cap);
	else if (posix_memalign(&buf, CHUNK, CHUNK))
		buf = NULL;
	else
		madvise(buf, CHUNK, MADV_HUGEPAGE);	/* one fault for the chunk, where the kernel can */
	if (!buf)
		return -1;
	p->chunks[p->nr_chunks].buf = buf;
	return p->nr_chunks++;
}

/* Read the data from p->pos into a chunk: 1, 0 when none is free, or an error. */
static int fill_chunk(struct pdata *p)
{
	int i = free_chunk(p);
	struct chunk *c;
	size_t n, got = 0;

	if (i < 0)
		return 0;
	c = &p->chunks[i];
	n = p->data_end - p->pos > p->chunk_cap ? p->chunk_cap : (size_t)(p->data_end - p->pos);
	while (got < n) {
		ssize_t r = pread(p->rfd, c->buf + got, n - got, (off_t)(p->pos + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return fail(p, -errno, "read error at offset %#llx: %s",
				    (unsigned long long)(p->pos + got), strerror(errno));
		if (!r)
			return fail(p, -MPERF_ERR_TRUNCATED, "the file ends at offset %#llx, inside its data section (it shrank while read)",
				    (unsigned long long)(p->pos + got));
		got += (size_t)r;
	}
	c->start = p->pos;
	c->end = p->pos + n;
	p->cur = i;
	return 1;
}

/*
 * The n bytes at p->pos, which the data section holds, at *q: from the
 * current chunk, a chunk read for them, or the mapping (a directory's
 * data.N files, or no chunk free); p->rchunk says which chunk, or -1.
 */
static int file_bytes(struct pdata *p, size_t n, const unsigned char **q)
{
	struct chunk *c = p->cur >= 0 ? &p->chunks[p->cur] : NULL;
	int r;

	p->rchunk = -1;
	if (p->rfd >= 0 && !p->part && p->pos >= p->mapped_until) {
		if (c && p->pos >= c->start && p->pos <= c->end && n <= c->end - p->pos) {
			*q = c->buf + (p->pos - c->start);
			p->rchunk = p->cur;
			return 0;
		}
		if ((r = fill_chunk(p)) < 0)
			return r;
		if (r) {
			*q = p->chunks[p->cur].buf;
			p->rchunk = p->cur;
			return 0;
		}
		p->cur = -1;
		p->mapped_until = p->pos + CHUNK;
	}
	populate_ahead(p);
	*q = p->rmem + p->pos;
	return 0;
}

void pdata__hold(struct pdata *p, int buf)
{
	if (buf >= 0 && buf < p->nr_chunks)
		p->chunks[buf].holds++;
}

void pdata__release(struct pdata *p, int buf)
{
	if (buf >= 0 && buf < p->nr_chunks && p->chunks[buf].holds)
		p->chunks[buf].holds--;
}

/*
 * Log the failure kept in p->err (or the code's own message), naming the
 * source: "'x.data': not a perf.data file...".  A system error met while
 * opening names the file already ("cannot open 'x.data': ...").
 */
static int log_failure(struct pdata *p, int code, bool opening)
{
	const char *msg = p->err[0] ? p->err : mperf_strerror(code);

	if (p->label && (!opening || code < -MPERF_MAX_ERRNO || !p->err[0]))
		mperf_error(code, "'%s': %s", p->label, msg);
	else
		mperf_error(code, "%s", msg);
	p->err[0] = 0;
	return code;
}

int pdata__next(struct pdata *p, struct pd_record *rec)
{
	int r;

	rec->buf = -1;
	r = next_record(p, rec);

	rec->path = p->rpath;
	if (r > 0)
		return r;
	if (!r && p->dpos < p->dlen)
		r = fail(p, -MPERF_ERR_TRUNCATED, "the data compressed at offset %#llx ends inside a record",
			 (unsigned long long)p->doff);
	/*
	 * A file that ends inside its data section: every whole record has
	 * been read; where it stopped is the error.
	 */
	if (p->cut_size && r != -ENOMEM) {
		uint64_t at = p->pos;

		if (!p->warned)
			mperf_error(-MPERF_ERR_TRUNCATED, "'%s': file is truncated: data section [%#llx, +%#llx) runs past the end of the file (%#zx bytes); read the records up to offset %#llx",
				    p->label ? p->label : "data", (unsigned long long)p->data_off,
				    (unsigned long long)p->cut_size, p->mem_len, (unsigned long long)at);
		p->warned = true;	/* said once */
		p->err[0] = 0;
		p->data_end = p->pos;
		return -MPERF_ERR_TRUNCATED;
	}
	/*
	 * A recorder killed before it patched the header leaves data.size 0
	 * and maybe a torn last record: what parses is the data, the rest is
	 * a warning.
	 */
	if (p->to_eof && r != -ENOMEM) {
		if (!p->warned && r < 0)
			mperf_log(MPERF_LOG_WARN, "'%s': the data size field is 0 (recording did not finish?): read records up to offset %#llx, where: %s",
				  p->label ? p->label : "data", (unsigned long long)p->pos, p->err);
		else if (!p->warned)
			mperf_log(MPERF_LOG_WARN, "'%s': the data size field is 0 (recording did not finish?): read the records to the end of the file",
				  p->label ? p->label : "data");
		p->warned = true;
		p->err[0] = 0;
		p->data_end = p->pos;
		return 0;
	}
	return r < 0 ? log_failure(p, r, false) : 0;
}

static int record_size_ok(struct pdata *p, const struct perf_event_header *h, uint64_t off)
{
	if (h->size < sizeof(*h))
		return fail(p, -MPERF_ERR_CORRUPT, "record at offset %#llx has size %u, smaller than its header",
			    (unsigned long long)off, h->size);
	return 0;
}

/* The next record of a file's data section at *q, its header in *h: 1, 0 at the end, or an error. */
static int record_at_file(struct pdata *p, uint64_t off, const unsigned char **q, struct perf_event_header *h)
{
	int r;

	if (p->pos >= p->data_end)
		return 0;
	if (p->data_end - p->pos < sizeof(*h))
		return fail(p, -MPERF_ERR_TRUNCATED, "truncated record header at offset %#llx",
			    (unsigned long long)off);
	if ((r = file_bytes(p, sizeof(*h), q)) < 0)
		return r;
	memcpy(h, *q, sizeof(*h));
	if ((r = record_size_ok(p, h, off)))
		return r;
	if (h->size > p->data_end - p->pos)
		return fail(p, -MPERF_ERR_TRUNCATED, "record at offset %#llx (size %#x) runs past the end of the data at %#llx",
			    (unsigned long long)off, h->size, (unsigned long long)p->data_end);
	/* The kernel pads every record to 8 bytes; a file-mode stream stays aligned. */
	if ((h->size & 7) && h->type < PD_HEADER_ATTR)
		return fail(p, -MPERF_ERR_CORRUPT, "record at offset %#llx has size %#x, not a multiple of 8",
			    (unsigned long long)off, h->size);
	if ((r = file_bytes(p, h->size, q)) < 0)
		return r;
	release_behind(p);
	return 1;
}

/* The next record of a stream, as record_at_file; TRACING_DATA's payload read with it. */
static int record_at_pipe(struct pdata *p, uint64_t off, const unsigned char **q, struct perf_event_header *h)
{
	int r = need(p, sizeof(*h), q);

	if (r < 0)
		return r;
	if (!r) {
		size_t left = p->fd >= 0 ? p->slen - p->spos : p->mem_len - p->pos;

		if (!left)
			return 0;
		return fail(p, -MPERF_ERR_TRUNCATED, "truncated record header at offset %#llx",
			    (unsigned long long)off);
	}
	memcpy(h, *q, sizeof(*h));
	if ((r = record_size_ok(p, h, off)))
		return r;
	r = need(p, h->size, q);
	if (r < 0)
		return r;
	if (!r)
		return fail(p, -MPERF_ERR_TRUNCATED, "record at offset %#llx (size %#x) runs past the end of the stream",
			    (unsigned long long)off, h->size);
	/* TRACING_DATA names the tracepoint events: read its payload with it (skipped after). */
	if (h->type == PD_HEADER_TRACING_DATA && h->size >= sizeof(struct pd_tracing_data_event)) {
		struct pd_tracing_data_event td;

		memcpy(&td, *q, sizeof(td));
		if (td.size <= TRACING_MAX && need(p, (size_t)h->size + td.size, q) > 0)
			name_tracepoints(p, *q + h->size, td.size);
		else if ((r = need(p, h->size, q)) <= 0)
			return r < 0 ? r : -MPERF_ERR_TRUNCATED;
	}
	return 1;
}

/*
 * What follows a record it carries: AUXTRACE's trace data (skipped), a
 * COMPRESSED record's records (unpacked), a stream's attrs and features,
 * TRACING_DATA's payload (skipped at the next call, as the record must
 * stay valid for the caller).  1, or an error.
 */
static int record_payload(struct pdata *p, const struct pd_record *rec, uint64_t off)
{
	const struct perf_event_header *h = rec->hdr;
	int r;

	if (h->type == PD_AUXTRACE) {
		struct pd_auxtrace_event ae;

		/* The trace data follows the record; the dump shows the record alone. */
		if (!PD_VIEW(h, &ae))
			return fail(p, -MPERF_ERR_CORRUPT, "AUXTRACE record at offset %#llx has size %#x, too small for its fields",
				    (unsigned long long)off, h->size);
		if (!p->pipe) {
			if (ae.size > p->data_end - p->pos)
				return fail(p, -MPERF_ERR_TRUNCATED, "AUXTRACE record at offset %#llx: its %#llx bytes of trace data run past the end of the data at %#llx",
					    (unsigned long long)off, (unsigned long long)ae.size, (unsigned long long)p->data_end);
			p->pos += ae.size;
		} else {
			p->pending_skip = ae.size;
		}
	}
	if ((h->type == PD_COMPRESSED || h->type == PD_COMPRESSED2) && (r = compressed(p, h, off)))
		return r;
	if (!p->pipe)
		return 1;
	if ((r = pipe_meta(p, h, off)))
		return r;
	if (h->type == PD_HEADER_TRACING_DATA && h->size >= offsetof(struct pd_tracing_data_event, pad)) {
		struct pd_tracing_data_event td;

		PD_VIEW(h, &td);
		p->pending_skip = td.size;
		p->pending_keep = true;
	}
	return 1;
}

/*
 * record_at_file over a directory's files: at the end of one, the next
 * data.N file, its offsets from 0 and its records compressed in a zstd
 * stream of its own (one per drain thread).
 */
static int record_in_parts(struct pdata *p, uint64_t *off, const unsigned char **q, struct perf_event_header *h)
{
	int r;

	while (!(r = record_at_file(p, *off, q, h)) && p->part < p->nr_parts) {
		const struct pd_part *pt = &p->parts[p->part];

		if (p->dpos < p->dlen)
			return fail(p, -MPERF_ERR_TRUNCATED, "the data compressed at offset %#llx ends inside a record",
				    (unsigned long long)p->doff);
		if (p->zds)
			ZSTD_initDStream(p->zds);
		if (!p->part++)
			p->hdr_data_end = p->data_end;
		p->rmem = pt->mem;
		p->rpath = p->label = pt->path;
		p->pos = *off = 0;
		p->data_end = pt->len;
		p->released = 0;
		p->populated = 0;
	}
	return r;
}

static int next_record(struct pdata *p, struct pd_record *rec)
{
	const unsigned char *q;
	struct perf_event_header h;
	uint64_t off = p->pipe ? p->pos - PD_PIPE_HEADER_SIZE : p->pos;
	int r;

	if (p->dpos < p->dlen && (r = next_decompressed(p, rec)))
		return r;
	if (p->pending_skip) {
		uint64_t n = p->pending_skip;
		bool keep = p->pending_keep;

		p->pending_skip = 0;
		p->pending_keep = false;
		if ((r = skip(p, n, keep)))
			return r;
		off = p->pos - PD_PIPE_HEADER_SIZE;
	}
	r = p->pipe ? record_at_pipe(p, off, &q, &h) : record_in_parts(p, &off, &q, &h);
	if (r <= 0)
		return r;
	rec->off = off;
	rec->buf = p->pipe ? -1 : p->rchunk;
	rec->stable = p->fd < 0 && rec->buf < 0;
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
		rec->buf = -1;
	}
	rec->hdr = (const struct perf_event_header *)q;
	advance(p, h.size);
	return record_payload(p, rec, off);
}

/* ---- open / close / accessors ---- */

static struct pdata *alloc_reader(void)
{
	struct pdata *p = calloc(1, sizeof(*p));

	if (p) {
		p->fd = p->rfd = -1;
		p->cur = -1;
	}
	return p;
}

/* Decide the mode from the first 16 bytes and read the file-mode metadata. */
static int open_common(struct pdata *p, const unsigned char *first16, size_t have)
{
	struct pd_pipe_header ph = { 0 };

	if (have)	/* an empty file has no mapping: first16 is NULL */
		memcpy(&ph, first16, have < sizeof(ph) ? have : sizeof(ph));
	if (have < sizeof(ph.magic))
		return fail(p, -MPERF_ERR_FORMAT, "not a perf.data file: too short for a header (%zu bytes)", have);
	if (ph.magic == PD_MAGIC_SWAPPED)
		return fail(p, -MPERF_ERR_UNSUPP, "file was written on a machine of the other endianness (not supported)");
	if (ph.magic == PD_MAGIC_V1_SWAPPED)
		return fail(p, -MPERF_ERR_UNSUPP, "file was written on a machine of the other endianness (not supported)");
	if (ph.magic != PD_MAGIC && ph.magic != PD_MAGIC_V1)
		return fail(p, -MPERF_ERR_FORMAT, "not a perf.data file: bad magic at offset 0");
	p->version = ph.magic == PD_MAGIC;
	if (have < sizeof(ph))
		return fail(p, -MPERF_ERR_TRUNCATED, "file is truncated: header ends at offset %#zx", have);
	/* perf checks for the pipe header first, even on a regular file. */
	if (ph.size == PD_PIPE_HEADER_SIZE) {
		p->pipe = true;
		p->pos = PD_PIPE_HEADER_SIZE;
		if (p->fd >= 0)
			p->spos += PD_PIPE_HEADER_SIZE;
		return 0;
	}
	if (p->fd >= 0)
		return fail(p, -MPERF_ERR_UNSUPP,
			    "a file-mode perf.data cannot be read from a pipe (it is read by offset): save it to a file, or record with -o - for a pipe-mode stream");
	return open_file_mode(p);
}

static struct pdata *finish_open(struct pdata *p, int err)
{
	if (err >= 0) {
		derive_names(p);
		return p;
	}
	log_failure(p, err, true);
	pdata__close(p);
	errno = mperf_errno(err);
	return NULL;
}

struct pdata *pdata__open_mem(const void *buf, size_t len)
{
	struct pdata *p = alloc_reader();

	if (!p) {
		errno = -mperf_error(-ENOMEM, "out of memory");
		return NULL;
	}
	p->mem = buf;
	p->mem_len = len;
	return finish_open(p, open_common(p, buf, len < 16 ? len : 16));
}

/* The data.N files of a directory whose header file p is, when its DIR_FORMAT says so. */
static int dir_parts(struct pdata *p, const char *dir)
{
	size_t len;
	const unsigned char *q = pdata__feature(p, PD_FEAT_DIR_FORMAT, &len);
	uint64_t version;

	if (!q)
		return 0;	/* perf record --kcore's directory: the header file alone */
	if (!pd_feat_dir_format_decode(q, len, &version))
		return fail(p, -MPERF_ERR_CORRUPT, "feature DIR_FORMAT is too short (%zu bytes)", len);
	if (version != PD_DIR_VERSION)
		return fail(p, -MPERF_ERR_UNSUPP, "directory format version %llu (perf 6.1 and mperf read version %d)",
			    (unsigned long long)version, PD_DIR_VERSION);
	return pd_dir_parts(dir, &p->parts, &p->nr_parts, p->err, sizeof(p->err));
}

struct pdata *pdata__open(const char *path);

/*
 * A directory in perf's directory format (dir.h): its header file
 * DIR/data read as a file, then its data.N files after its data.
 */
static struct pdata *open_dir(struct pdata *p, const char *path)
{
	char *name;
	struct pdata *d;
	int err;

	if (asprintf(&name, "%s/data", path) < 0)
		return finish_open(p, -ENOMEM);
	pdata__close(p);
	if (!(d = pdata__open(name))) {
		free(name);
		return NULL;
	}
	d->dir_data = name;
	d->rpath = name;
	if ((err = dir_parts(d, path)) < 0) {
		log_failure(d, err, true);
		pdata__close(d);
		errno = mperf_errno(err);
		return NULL;
	}
	return d;
}

void pdata__mem_grow(struct pdata *p, size_t len)
{
	if (p->fd < 0 && !p->map_len && len > p->mem_len)
		p->mem_len = len;
}

struct pdata *pdata__open(const char *path)
{
	struct pdata *p = alloc_reader();
	const unsigned char *q;
	struct stat st;
	int fd, err;

	if (!p) {
		errno = -mperf_error(-ENOMEM, "out of memory");
		return NULL;
	}
	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(0);
	p->label = strcmp(path, "-") ? path : "stdin";
	if (fd < 0 || fstat(fd, &st) < 0) {
		err = -errno;
		fail(p, err, "cannot open '%s': %s", p->label, strerror(errno));
		if (fd >= 0)
			close(fd);
		return finish_open(p, err);
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return open_dir(p, path);
	}
	if (S_ISREG(st.st_mode)) {
		if (st.st_size) {
			void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

			if (m == MAP_FAILED) {
				err = -errno;
				fail(p, err, "cannot map '%s': %s", p->label, strerror(errno));
				close(fd);
				return finish_open(p, err);
			}
			p->mtime = st.st_mtime;
			/* Records are read once, front to back. */
			madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
			p->mem = m;
			p->mem_len = p->map_len = (size_t)st.st_size;
			p->rfd = fd;	/* the data is read from it, the rest from the mapping */
		} else {
			close(fd);
		}
		return finish_open(p, open_common(p, p->mem, p->mem_len < 16 ? p->mem_len : 16));
	}
	/* A pipe or terminal: stream it. */
	p->fd = fd;
	p->sbuf = malloc(PIPE_BUF_MIN);
	if (!p->sbuf)
		return finish_open(p, -ENOMEM);
	p->scap = PIPE_BUF_MIN;
	err = need(p, 16, &q);
	if (err < 0)
		return finish_open(p, err);
	return finish_open(p, open_common(p, p->sbuf, p->slen < 16 ? p->slen : 16));
}

void pdata__close(struct pdata *p)
{
	if (!p)
		return;
	if (p->map_len)
		munmap((void *)p->mem, p->map_len);
	if (p->fd >= 0)
		close(p->fd);
	if (p->rfd >= 0)
		close(p->rfd);
	for (int i = 0; i < p->nr_chunks; i++)
		free(p->chunks[i].buf);
	for (size_t i = 0; i < p->nr_evsel; i++) {
		free(p->evsel[i].name);
		free(p->evsel[i].ids);
	}
	free(p->evsel);
	free_groups(p);
	idmap_free(&p->ids);
	ZSTD_freeDStream(p->zds);
	free(p->dbuf);
	free(p->abuf);
	free(p->sbuf);
	free(p->tracing);
	pd_dir_parts_free(p->parts, p->nr_parts);
	free(p->dir_data);
	free(p);
}

bool pdata__unfinished(const struct pdata *p)
{
	return p->to_eof;
}

bool pdata__is_pipe(const struct pdata *p)
{
	return p->pipe;
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
	return feat >= 0 && feat < PD_FEAT_BITS && (p->features[feat / 64] >> (feat % 64)) & 1;
}

bool pdata__feat_bad(const struct pdata *p, int feat)
{
	return feat >= 0 && feat < PD_FEAT_BITS && (p->bad_feat[feat / 64] >> (feat % 64)) & 1;
}

size_t pdata__nr_groups(const struct pdata *p)
{
	return p->nr_groups;
}

const struct pd_group_desc *pdata__group(const struct pdata *p, size_t i)
{
	return i < p->nr_groups ? &p->groups[i] : NULL;
}

const char *pdata__arch(const struct pdata *p)
{
	return p->arch[0] ? p->arch : NULL;
}

time_t pdata__dir_mtime(const struct pdata *p)
{
	return p->dir_data ? p->mtime : 0;
}

int pdata__version(const struct pdata *p)
{
	return p->version;
}

const unsigned char *pdata__feature(const struct pdata *p, int feat, size_t *len)
{
	if (p->pipe || feat <= 0 || feat >= PD_FEAT_LAST_6_1 || !p->feat[feat].offset || !p->mem)
		return NULL;
	*len = p->feat[feat].size;
	return p->mem + p->feat[feat].offset;
}

const unsigned char *pdata__tracing_data(const struct pdata *p, size_t *len)
{
	if (!p->pipe)
		return pdata__has_feat(p, PD_FEAT_TRACING_DATA) ? pdata__feature(p, PD_FEAT_TRACING_DATA, len) : NULL;
	*len = p->tracing_len;
	return p->tracing;
}

void pdata__layout(const struct pdata *p, uint64_t *data_off, uint64_t *data_size, uint64_t *feat_off)
{
	*data_off = p->pipe ? 0 : p->data_off;
	*data_size = p->pipe ? 0 : p->data_end - p->data_off;
	*feat_off = p->pipe ? 0 : p->data_end;
}

bool pdata__build_id_next(const struct pdata *p, size_t *pos, struct pd_build_id *e)
{
	size_t len, n;
	const unsigned char *q = pdata__feature(p, PD_FEAT_BUILD_ID, &len);

	while (q && *pos < len && (n = pd_build_id_decode(q + *pos, len - *pos, e))) {
		*pos += n;
		if (e->name)
			return true;
	}
	return false;
}

size_t pdata__build_id(const struct pdata *p, const char *name, unsigned char id[20])
{
	struct pd_build_id e;
	size_t pos = 0;

	while (pdata__build_id_next(p, &pos, &e))
		if (!strcmp(e.name, name)) {
			/* An id of size 0 is taken as the full 20 bytes. */
			size_t n = (e.misc & PD_MISC_BUILD_ID_SIZE) && e.len ? e.len : sizeof(e.id);

			memcpy(id, e.id, n);
			return n;
		}
	return 0;
}

int pdata__evsel_by_id(const struct pdata *p, uint64_t id)
{
	struct idmap_slot *s = idmap_find(&p->ids, id);

	return s ? s->idx : -1;
}

struct idmap_slot *pdata__id(struct pdata *p, uint64_t id)
{
	return idmap_find(&p->ids, id);
}

int pdata__evsel_of(const struct pdata *p, const struct perf_event_header *h)
{
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
	/* perf looks where the first event has its id (check_events: they all agree). */
	if (!pd_record_id(&p->evsel[0].layout, h, &id))
		return -MPERF_ERR_CORRUPT;
	if (!id)
		return 0;	/* synthesized records carry id 0 */
	idx = pdata__evsel_by_id(p, id);
	return idx >= 0 ? idx : -MPERF_ERR_CORRUPT;
}
