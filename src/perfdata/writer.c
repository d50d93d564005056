// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.data writer, file mode.  Layout written:
 *   header (104) | ids of every event | attrs (128 + 16 each) | data |
 *   feature table (one {offset,size} per set bit, ascending) | payloads
 * perf finds the feature table at data.offset + data.size, so nothing may
 * sit between the data and the table.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../lib/buf.h"
#include "../lib/err.h"
#include "perfdata.h"

#define WBUF_SIZE	(256 * 1024)
#define NAME_ALIGN	64
#define NR_FEAT		PD_FEAT_LAST_6_1

struct wevent {
	struct perf_event_attr attr;
	char *name;
	uint64_t *ids;
	size_t nr_ids;
};

struct pdata_writer {
	int fd;
	char *path;
	struct wevent *ev;
	size_t nr_ev;
	uint64_t data_off, data_size;
	unsigned char *wbuf;
	size_t wlen;
	struct mbuf feat[NR_FEAT];
	bool has_feat[NR_FEAT];
	bool finished;
	bool regular;	/* only a regular file is removed when unfinished */
	int err;	/* first write error; later writes are refused */
};

struct pdata_writer *pdw__create(const char *path)
{
	struct pdata_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->path = strdup(path);
	w->wbuf = malloc(WBUF_SIZE);
	if (!w->path || !w->wbuf) {
		free(w->path);
		free(w->wbuf);
		free(w);
		errno = ENOMEM;
		return NULL;
	}
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0) {
		int e = errno;

		free(w->path);
		free(w->wbuf);
		free(w);
		errno = e;
		return NULL;
	}
	struct stat st;
	w->regular = fstat(w->fd, &st) == 0 && S_ISREG(st.st_mode);
	return w;
}

static int write_all(struct pdata_writer *w, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(w->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return w->err = -errno;
		if (n == 0)
			return w->err = -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int flush(struct pdata_writer *w)
{
	int err = w->wlen ? write_all(w, w->wbuf, w->wlen) : 0;

	w->wlen = 0;
	return err;
}

/* Buffered append at the current end of the file. */
static int append(struct pdata_writer *w, const void *buf, size_t len)
{
	if (w->err)
		return w->err;
	if (len > WBUF_SIZE - w->wlen) {
		int err = flush(w);

		if (err)
			return err;
		if (len >= WBUF_SIZE)
			return write_all(w, buf, len);
	}
	memcpy(w->wbuf + w->wlen, buf, len);
	w->wlen += len;
	return 0;
}

int pdw__add_event(struct pdata_writer *w, const struct perf_event_attr *attr, const char *name,
		   const uint64_t *ids, size_t nr_ids)
{
	struct wevent *n = realloc(w->ev, (w->nr_ev + 1) * sizeof(*n));
	struct wevent *e;

	if (!n)
		return -ENOMEM;
	w->ev = n;
	e = &n[w->nr_ev];
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	e->name = strdup(name);
	e->ids = malloc((nr_ids ? nr_ids : 1) * sizeof(uint64_t));
	if (!e->name || !e->ids) {
		free(e->name);
		free(e->ids);
		return -ENOMEM;
	}
	memcpy(e->ids, ids, nr_ids * sizeof(uint64_t));
	e->nr_ids = nr_ids;
	w->nr_ev++;
	return 0;
}

/* The attr as written: PD_ATTR_SIZE bytes, size field set to match. */
static void disk_attr(const struct perf_event_attr *in, unsigned char out[PD_ATTR_SIZE])
{
	struct perf_event_attr a = *in;
	size_t n = sizeof(a) < PD_ATTR_SIZE ? sizeof(a) : PD_ATTR_SIZE;

	a.size = PD_ATTR_SIZE;
	memset(out, 0, PD_ATTR_SIZE);
	memcpy(out, &a, n);
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static int write_header(struct pdata_writer *w, uint64_t feat_bits[4])
{
	unsigned char h[PD_HEADER_SIZE] = { 0 };
	size_t attrs_off = PD_HEADER_SIZE;

	for (size_t i = 0; i < w->nr_ev; i++)
		attrs_off += 8 * w->ev[i].nr_ids;
	put64(h, PD_MAGIC);
	put64(h + 8, PD_HEADER_SIZE);
	put64(h + 16, PD_ATTR_SIZE + 16);
	put64(h + 24, attrs_off);
	put64(h + 32, (PD_ATTR_SIZE + 16) * w->nr_ev);
	put64(h + 40, w->data_off);
	put64(h + 48, w->data_size);
	for (int i = 0; i < 4; i++)
		put64(h + 72 + 8 * i, feat_bits ? feat_bits[i] : 0);
	if (pwrite(w->fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return w->err = errno ? -errno : -EIO;
	return 0;
}

int pdw__begin_data(struct pdata_writer *w)
{
	uint64_t ids_off = PD_HEADER_SIZE, zero[PD_HEADER_SIZE / 8] = { 0 };
	int err;

	if ((err = append(w, zero, sizeof(zero))))
		return err;
	for (size_t i = 0; i < w->nr_ev; i++)
		if ((err = append(w, w->ev[i].ids, 8 * w->ev[i].nr_ids)))
			return err;
	for (size_t i = 0; i < w->nr_ev; i++) {
		unsigned char a[PD_ATTR_SIZE + 16];

		disk_attr(&w->ev[i].attr, a);
		put64(a + PD_ATTR_SIZE, ids_off);
		put64(a + PD_ATTR_SIZE + 8, 8 * w->ev[i].nr_ids);
		ids_off += 8 * w->ev[i].nr_ids;
		if ((err = append(w, a, sizeof(a))))
			return err;
	}
	w->data_off = ids_off + (PD_ATTR_SIZE + 16) * w->nr_ev;
	/* Until pdw__finish, the header says "data size 0": not complete. */
	if ((err = flush(w)))
		return err;
	return write_header(w, NULL);
}

int pdw__write(struct pdata_writer *w, const void *buf, size_t len)
{
	int err = append(w, buf, len);

	if (!err)
		w->data_size += len;
	return err;
}

uint64_t pdw__data_size(const struct pdata_writer *w)
{
	return w->data_size;
}

int pdw__patch(struct pdata_writer *w, uint64_t pos, const void *buf, size_t len)
{
	int err;

	if (w->err)
		return w->err;
	if (pos > w->data_size || len > w->data_size - pos)
		return -EINVAL;
	if ((err = flush(w)))
		return err;
	if (pwrite(w->fd, buf, len, (off_t)(w->data_off + pos)) != (ssize_t)len)
		return w->err = errno ? -errno : -EIO;
	return 0;
}

/* ---- features ---- */

static struct mbuf *feat_buf(struct pdata_writer *w, int feat)
{
	if (feat <= 0 || feat >= NR_FEAT)
		return NULL;
	w->has_feat[feat] = true;
	return &w->feat[feat];
}

/* perf_header_string: u32 len (NUL included, padded to 64), bytes. */
static int add_string(struct mbuf *b, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t len = (uint32_t)((n + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN);
	int err;

	if ((err = mbuf_add(b, &len, 4)) || (err = mbuf_add(b, s, n)))
		return err;
	return mbuf_addz(b, len - n);
}

int pdw__feat_string(struct pdata_writer *w, int feat, const char *s)
{
	struct mbuf *b = feat_buf(w, feat);

	if (!b)
		return -EINVAL;
	b->len = 0;
	return add_string(b, s);
}

int pdw__feat_strings(struct pdata_writer *w, int feat, const char *const *s, size_t n)
{
	struct mbuf *b = feat_buf(w, feat);
	uint32_t nr = (uint32_t)n;
	int err;

	if (!b)
		return -EINVAL;
	b->len = 0;
	if ((err = mbuf_add(b, &nr, 4)))
		return err;
	for (size_t i = 0; i < n; i++)
		if ((err = add_string(b, s[i])))
			return err;
	return 0;
}

int pdw__feat_u64(struct pdata_writer *w, int feat, uint64_t v)
{
	struct mbuf *b = feat_buf(w, feat);

	if (!b)
		return -EINVAL;
	b->len = 0;
	return mbuf_add(b, &v, 8);
}

int pdw__feat_nrcpus(struct pdata_writer *w, uint32_t avail, uint32_t online)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_NRCPUS);
	uint32_t v[2] = { avail, online };	/* this order, whatever old docs say */

	b->len = 0;
	return mbuf_add(b, v, sizeof(v));
}

int pdw__feat_sample_time(struct pdata_writer *w, uint64_t first, uint64_t last)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_SAMPLE_TIME);
	uint64_t v[2] = { first, last };

	b->len = 0;
	return mbuf_add(b, v, sizeof(v));
}

int pdw__feat_build_id(struct pdata_writer *w, uint16_t misc, int32_t pid,
		       const unsigned char *id, size_t id_len, const char *name)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_BUILD_ID);
	/* {header; s32 pid; u8 build_id[20]; u8 size; u8 pad[3]; char name[] padded to 64} */
	unsigned char rec[8 + 4 + 24];
	size_t n = strlen(name) + 1;
	size_t name_len = (n + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
	struct perf_event_header h = {
		.type = 0,
		/* 0x8000: the entry has a size byte (perf's MISC_BUILD_ID_SIZE). */
		.misc = (uint16_t)(misc | 0x8000),
		.size = (uint16_t)(sizeof(rec) + name_len),
	};
	int err;

	if (id_len > 20)
		return -EINVAL;
	memset(rec, 0, sizeof(rec));
	memcpy(rec, &h, 8);
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 12, id, id_len);
	rec[32] = (unsigned char)id_len;
	if ((err = mbuf_add(b, rec, sizeof(rec))) || (err = mbuf_add(b, name, n)))
		return err;
	return mbuf_addz(b, name_len - n);
}

/* EVENT_DESC: u32 nr, u32 attr size; per event: attr, u32 nr_ids, name, ids. */
static int event_desc(struct pdata_writer *w)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_EVENT_DESC);
	uint32_t hdr[2] = { (uint32_t)w->nr_ev, PD_ATTR_SIZE };
	int err;

	b->len = 0;
	if ((err = mbuf_add(b, hdr, sizeof(hdr))))
		return err;
	for (size_t i = 0; i < w->nr_ev; i++) {
		unsigned char a[PD_ATTR_SIZE];
		uint32_t nr = (uint32_t)w->ev[i].nr_ids;

		disk_attr(&w->ev[i].attr, a);
		if ((err = mbuf_add(b, a, sizeof(a))) || (err = mbuf_add(b, &nr, 4)) ||
		    (err = add_string(b, w->ev[i].name)) ||
		    (err = mbuf_add(b, w->ev[i].ids, 8 * w->ev[i].nr_ids)))
			return err;
	}
	return 0;
}

int pdw__finish(struct pdata_writer *w)
{
	uint64_t bits[4] = { 0 }, off;
	int err, n = 0;

	if (w->err)
		return w->err;
	if ((err = event_desc(w)))
		return err;
	for (int f = 1; f < NR_FEAT; f++)
		if (w->has_feat[f]) {
			bits[f / 64] |= 1ULL << (f % 64);
			n++;
		}
	off = w->data_off + w->data_size + 16 * (uint64_t)n;
	for (int f = 1; f < NR_FEAT; f++) {
		uint64_t sec[2];

		if (!w->has_feat[f])
			continue;
		sec[0] = off;
		sec[1] = w->feat[f].len;
		off += w->feat[f].len;
		if ((err = append(w, sec, sizeof(sec))))
			return err;
	}
	for (int f = 1; f < NR_FEAT; f++)
		if (w->has_feat[f] && (err = append(w, w->feat[f].p, w->feat[f].len)))
			return err;
	if ((err = flush(w)) || (err = write_header(w, bits)))
		return err;
	/* close() is where some filesystems report a failed write-back. */
	if (close(w->fd) < 0) {
		w->fd = -1;
		return w->err = -errno;
	}
	w->fd = -1;
	w->finished = true;
	return 0;
}

void pdw__close(struct pdata_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	if (!w->finished && w->regular)
		unlink(w->path);
	for (size_t i = 0; i < w->nr_ev; i++) {
		free(w->ev[i].name);
		free(w->ev[i].ids);
	}
	for (int f = 0; f < NR_FEAT; f++)
		mbuf_free(&w->feat[f]);
	free(w->ev);
	free(w->wbuf);
	free(w->path);
	free(w);
}
