// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.data writer.  File mode:
 *   header (104) | ids of every event | attrs (128 + 16 each) | data |
 *   feature table (one {offset,size} per set bit, ascending) | payloads
 * perf finds the feature table at data.offset + data.size, so nothing may
 * sit between the data and the table.  Pipe mode ("-", standard output),
 * as perf 6.1 streams it: the 16-byte header, an ATTR record per event, a
 * FEATURE record per feature known by then and one of feature 32 (the
 * features' end), TRACING_DATA, FINISHED_INIT, the records;
 * nothing is patched and nothing follows (no build ids, no sample times).  Failures are logged once, at the
 * first one, naming the file; later calls return the same code.
 *
 * Compressed (record -z), the ring buffers' data goes through one zstd
 * stream, flushed at the end of each chunk given, as perf 6.1 writes it:
 * COMPRESSED records (a header, then at most 64 KiB of the stream, not
 * padded), each chunk's records whole once its last one is read; the
 * records mperf makes itself, FINISHED_ROUND among them, stay as they are.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <zstd.h>
#include "../lib/alloc.h"
#include "../lib/buf.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "perfdata.h"

#define WBUF_SIZE	(256 * 1024)
#define NR_FEAT		PD_FEAT_LAST_6_1
/* A COMPRESSED record's zstd bytes: its size must fit the header's u16 (perf's cap). */
#define COMP_PAYLOAD_MAX	(UINT16_MAX - sizeof(struct perf_event_header))

struct wevent {
	struct perf_event_attr attr;
	struct pd_sample_layout layout;
	char *name;
	uint64_t *ids;
	size_t nr_ids;
};

struct pdata_writer {
	int fd;
	char *path;
	struct wevent *ev;
	size_t nr_ev, ev_cap;
	uint64_t data_off, data_size;
	unsigned char *wbuf;
	size_t wlen;
	struct mbuf feat[NR_FEAT];
	bool has_feat[NR_FEAT];
	bool finished;
	bool regular;	/* only a regular file is removed when unfinished */
	bool pipe;	/* pipe mode, on standard output */
	bool raw;	/* records alone, no header: a directory's data.N (pdw__create_raw) */
	bool begun;	/* pdw__begin_data was called */
	ZSTD_CCtx *zc;	/* record -z: the stream of pdw__write_compressed */
	unsigned char *zrec;	/* the COMPRESSED record being made */
	struct pd_feat_compressed comp;	/* the COMPRESSED feature (its ratio set at the end) */
	uint64_t comp_in, comp_out;	/* bytes given to pdw__write_compressed, and written for them */
	int err;	/* first write error (logged); later writes are refused */
};

/* The first failure: logged, and kept so that every later call returns it. */
static int werror(struct pdata_writer *w, int err)
{
	/*
	 * A reader that went away (EPIPE) is not ours to report: the caller
	 * ends quietly; nor a full disk under the data, which the caller
	 * salvages (pdw__salvage) and says in its own words.
	 */
	if (!w->err && err != -EPIPE && !(err == -ENOSPC && (w->begun || w->raw) && w->regular))
		mperf_error(err, "cannot write '%s': %s", w->path, mperf_strerror(err));
	w->err = err;
	return err;
}

static struct pdata_writer *writer_new(const char *path, int fd);

struct pdata_writer *pdw__create(const char *path)
{
	return writer_new(path, -1);
}

struct pdata_writer *pdw__create_raw(const char *path)
{
	struct pdata_writer *w = writer_new(path, -1);

	if (w)
		w->raw = true;
	return w;
}

struct pdata_writer *pdw__create_stream(int fd)
{
	return writer_new("-", fd);
}

/* path's writer ("-": a stream on standard output, or on fd when it is not -1). */
static struct pdata_writer *writer_new(const char *path, int fd)
{
	struct pdata_writer *w = calloc(1, sizeof(*w));

	if (w) {
		w->path = strdup(path);
		w->wbuf = malloc(WBUF_SIZE);
	}
	if (!w || !w->path || !w->wbuf) {
		if (w) {
			free(w->path);
			free(w->wbuf);
			free(w);
		}
		errno = -mperf_error(-ENOMEM, "cannot create '%s': out of memory", path);
		return NULL;
	}
	w->pipe = !strcmp(path, "-");
	w->fd = w->pipe ? fcntl(fd >= 0 ? fd : STDOUT_FILENO, F_DUPFD_CLOEXEC, 3) : open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0) {
		int e = errno;

		mperf_error(-e, "cannot create '%s': %s", path, strerror(e));
		free(w->path);
		free(w->wbuf);
		free(w);
		errno = e;
		return NULL;
	}
	struct stat st;
	/* Only a file we created is removed when unfinished (never stdout's, whatever it is). */
	w->regular = !w->pipe && fstat(w->fd, &st) == 0 && S_ISREG(st.st_mode);
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
			return werror(w, -errno);
		if (n == 0)
			return werror(w, -EIO);
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

int pdw__flush(struct pdata_writer *w)
{
	return w->err ? w->err : flush(w);
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
	struct wevent *e;

	if (ALLOC_GROW(w->ev, w->nr_ev + 1, w->ev_cap))
		return werror(w, -ENOMEM);
	e = &w->ev[w->nr_ev];
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	pd_sample_layout(attr, &e->layout);
	e->name = strdup(name);
	e->ids = malloc((nr_ids ? nr_ids : 1) * sizeof(uint64_t));
	if (!e->name || !e->ids) {
		free(e->name);
		free(e->ids);
		return werror(w, -ENOMEM);
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

static int write_header(struct pdata_writer *w, const uint64_t feat_bits[4])
{
	struct pd_file_header h = {
		.magic = PD_MAGIC,
		.size = PD_HEADER_SIZE,
		.attr_size = PD_ATTR_SIZE + sizeof(struct pd_attr_ids),
		.attrs = { PD_HEADER_SIZE, (PD_ATTR_SIZE + sizeof(struct pd_attr_ids)) * w->nr_ev },
		.data = { w->data_off, w->data_size },
	};

	for (size_t i = 0; i < w->nr_ev; i++)
		h.attrs.offset += 8 * w->ev[i].nr_ids;
	if (feat_bits)
		memcpy(h.features, feat_bits, sizeof(h.features));
	if (pwrite(w->fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return werror(w, errno ? -errno : -EIO);
	return 0;
}

static int event_desc(struct pdata_writer *w);
static struct mbuf *feat_buf(struct pdata_writer *w, int feat);
static int feat_done(struct pdata_writer *w, int err);

/* A record of the stream's own: the header, then a and b. */
static int append_record(struct pdata_writer *w, uint32_t type, const void *a, size_t alen,
			 const void *b, size_t blen)
{
	struct perf_event_header h = { .type = type, .size = (uint16_t)(sizeof(h) + alen + blen) };
	int err;

	if (sizeof(h) + alen + blen > UINT16_MAX)
		return werror(w, -E2BIG);
	if ((err = append(w, &h, sizeof(h))) || (alen && (err = append(w, a, alen))) ||
	    (blen && (err = append(w, b, blen))))
		return err;
	return 0;
}

/*
 * Pipe mode's TRACING_DATA, after the features as perf 6.1 sends it: the
 * record says how many bytes follow it, the image padded to 8.
 */
static int pipe_tracing_data(struct pdata_writer *w)
{
	const struct mbuf *b = &w->feat[PD_FEAT_TRACING_DATA];
	size_t padded = (b->len + 7) & ~(size_t)7;
	struct pd_tracing_data_event e = { .header = { .type = PD_HEADER_TRACING_DATA, .size = sizeof(e) },
					   .size = (uint32_t)padded };
	int err;

	if (padded > UINT32_MAX)
		return werror(w, -E2BIG);
	if ((err = append(w, &e, sizeof(e))) || (err = append(w, b->p, b->len)))
		return err;
	return append(w, "\0\0\0\0\0\0\0", padded - b->len);
}

/* Pipe mode: the header, the events as ATTR records, the features known now, the tracing data. */
static int begin_pipe(struct pdata_writer *w)
{
	struct pd_pipe_header ph = { .magic = PD_MAGIC, .size = PD_PIPE_HEADER_SIZE };
	int err;

	if ((err = append(w, &ph, sizeof(ph))))
		return err;
	for (size_t i = 0; i < w->nr_ev; i++) {
		unsigned char a[PD_ATTR_SIZE];

		disk_attr(&w->ev[i].attr, a);
		if ((err = append_record(w, PD_HEADER_ATTR, a, sizeof(a), w->ev[i].ids, 8 * w->ev[i].nr_ids)))
			return err;
	}
	if ((err = event_desc(w)))
		return werror(w, err);
	for (int f = 1; f < NR_FEAT; f++) {
		uint64_t feat_id = (uint64_t)f;

		if (w->has_feat[f] && f != PD_FEAT_TRACING_DATA &&
		    (err = append_record(w, PD_HEADER_FEATURE, &feat_id, sizeof(feat_id), w->feat[f].p, w->feat[f].len)))
			return err;
	}
	/* perf's mark of the features' end (perf report --header-only stops there). */
	uint64_t last = PD_FEAT_LAST_6_1;

	if ((err = append_record(w, PD_HEADER_FEATURE, &last, sizeof(last), NULL, 0)))
		return err;
	if (w->has_feat[PD_FEAT_TRACING_DATA] && (err = pipe_tracing_data(w)))
		return err;
	return flush(w);
}

int pdw__begin_data(struct pdata_writer *w)
{
	struct pd_file_header zero = { 0 };
	uint64_t ids_off = PD_HEADER_SIZE;
	int err;

	if (w->pipe) {
		err = begin_pipe(w);
		w->begun = true;	/* from now on, features come too late for the stream */
		return err;
	}
	w->begun = true;
	if ((err = append(w, &zero, sizeof(zero))))
		return err;
	for (size_t i = 0; i < w->nr_ev; i++)
		if ((err = append(w, w->ev[i].ids, 8 * w->ev[i].nr_ids)))
			return err;
	for (size_t i = 0; i < w->nr_ev; i++) {
		unsigned char a[PD_ATTR_SIZE];
		struct pd_attr_ids ai = { { ids_off, 8 * w->ev[i].nr_ids } };

		disk_attr(&w->ev[i].attr, a);
		ids_off += ai.ids.size;
		if ((err = append(w, a, sizeof(a))) || (err = append(w, &ai, sizeof(ai))))
			return err;
	}
	w->data_off = ids_off + (PD_ATTR_SIZE + sizeof(struct pd_attr_ids)) * w->nr_ev;
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

/* ---- a full disk: keep the whole records that fit ---- */

bool pdw__disk_full(const struct pdata_writer *w)
{
	return w->err == -ENOSPC && (w->begun || w->raw) && w->regular;
}

/*
 * The data on disk, from data_off to end, walked record by record (read
 * in large blocks): the end of the last whole record at or before limit,
 * and the SAMPLE records before it.
 */
static uint64_t whole_records(struct pdata_writer *w, uint64_t end, uint64_t limit, uint64_t *samples)
{
	enum { BLOCK = 1 << 20 };
	unsigned char *buf = malloc(BLOCK);
	uint64_t pos = w->data_off, base = 0, have = 0;

	*samples = 0;
	if (!buf)
		return pos;
	while (pos + sizeof(struct perf_event_header) <= end) {
		struct perf_event_header h;

		if (pos < base || pos + sizeof(h) > base + have) {
			ssize_t n = pread(w->fd, buf, BLOCK, (off_t)pos);

			if (n < (ssize_t)sizeof(h))
				break;
			base = pos;
			have = (uint64_t)n;
		}
		memcpy(&h, buf + (pos - base), sizeof(h));
		if (h.size < sizeof(h) || pos + h.size > end || pos + h.size > limit)
			break;
		*samples += h.type == PERF_RECORD_SAMPLE;
		pos += h.size;
		if (pos > base + have)
			have = 0;	/* read again from pos */
	}
	free(buf);
	return pos;
}

int pdw__salvage(struct pdata_writer *w, uint64_t reserve, uint64_t *samples)
{
	struct statvfs vfs;
	struct stat st;
	uint64_t end, room, need = reserve + sizeof(struct pd_section) * NR_FEAT, cut;

	if (!pdw__disk_full(w))
		return w->err;
	for (int f = 1; f < NR_FEAT; f++)
		need += w->has_feat[f] ? w->feat[f].len : 0;
	if (fstat(w->fd, &st) < 0 || fstatvfs(w->fd, &vfs) < 0)
		return mperf_error(-errno, "cannot salvage '%s': %s", w->path, strerror(errno));
	end = (uint64_t)st.st_size;
	room = end + (uint64_t)vfs.f_bavail * (uint64_t)vfs.f_frsize;
	/* The features and the header's table need room after the data: records are dropped for it. */
	cut = whole_records(w, end, room > need ? room - need : 0, samples);
	if (cut < w->data_off)
		cut = w->data_off;
	if (ftruncate(w->fd, (off_t)cut) < 0 || lseek(w->fd, (off_t)cut, SEEK_SET) < 0)
		return mperf_error(-errno, "cannot salvage '%s': %s", w->path, strerror(errno));
	w->wlen = 0;
	w->data_size = cut - w->data_off;
	w->err = 0;
	return 0;
}

/* The file's size on disk (0 if unknown). */
static uint64_t disk_size(const struct pdata_writer *w)
{
	struct stat st;

	return fstat(w->fd, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* The largest of the n files the disk refused, or -1. */
static int largest_full(struct pdata_writer **w, int n)
{
	int big = -1;

	for (int i = 0; i < n; i++)
		if (pdw__disk_full(w[i]) && (big < 0 || disk_size(w[i]) > disk_size(w[big])))
			big = i;
	return big;
}

int pdw__salvage_parts(struct pdata_writer **w, int n, uint64_t reserve, uint64_t *samples)
{
	int big, err;

	*samples = 0;
	for (int i = 0; i < n; i++) {
		if (!w[i]->err)
			flush(w[i]);
		if (w[i]->err && !pdw__disk_full(w[i]))
			return w[i]->err;
	}
	/* The largest last: the others' torn ends are freed before it leaves room for the header's end. */
	big = largest_full(w, n);
	for (int i = 0; i < n; i++) {
		uint64_t s = 0;

		if (i == big)
			continue;
		if (!pdw__disk_full(w[i]))
			whole_records(w[i], disk_size(w[i]), UINT64_MAX, &s);
		else if ((err = pdw__salvage(w[i], 0, &s)))
			return err;
		*samples += s;
	}
	if (big >= 0) {
		uint64_t s;

		if ((err = pdw__salvage(w[big], reserve, &s)))
			return err;
		*samples += s;
	}
	return 0;
}

uint64_t pdw__pending(const struct pdata_writer *w)
{
	uint64_t n = w->wlen + sizeof(struct pd_section) * NR_FEAT;

	for (int f = 1; f < NR_FEAT; f++)
		n += w->has_feat[f] ? w->feat[f].len : 0;
	return n;
}

/* ---- compression (record -z) ---- */

static int comp_feat(struct pdata_writer *w)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_COMPRESSED);

	b->len = 0;
	return feat_done(w, mbuf_add(b, &w->comp, sizeof(w->comp)));
}

int pdw__compress(struct pdata_writer *w, int level, uint32_t mmap_len)
{
	size_t r;

	if (w->begun || w->zc)
		return mperf_error(-EINVAL, "'%s': compression is set once, before the data", w->path);
	w->zc = ZSTD_createCCtx();
	w->zrec = malloc(UINT16_MAX);
	if (!w->zc || !w->zrec)
		return werror(w, -ENOMEM);
	r = ZSTD_CCtx_setParameter(w->zc, ZSTD_c_compressionLevel, level);
	if (ZSTD_isError(r))
		return mperf_error(-EINVAL, "'%s': zstd refuses compression level %d: %s", w->path, level,
				   ZSTD_getErrorName(r));
	w->comp = (struct pd_feat_compressed){ .type = PD_COMP_ZSTD, .level = (uint32_t)level,
					       .mmap_len = mmap_len };
	/* A stream says it now, its ratio unknown (0), as perf's does. */
	return comp_feat(w);
}

/* One COMPRESSED record of the stream: 1 when one was written, 0 when nothing was left. */
static int comp_record(struct pdata_writer *w, ZSTD_inBuffer *in, size_t *left)
{
	struct perf_event_header h = { .type = PD_COMPRESSED };
	ZSTD_outBuffer out = { w->zrec + sizeof(h), COMP_PAYLOAD_MAX, 0 };
	int err;

	do {
		*left = ZSTD_compressStream2(w->zc, &out, in, ZSTD_e_flush);
		if (ZSTD_isError(*left)) {
			mperf_error(-EIO, "cannot compress the data of '%s': %s", w->path, ZSTD_getErrorName(*left));
			return w->err = -EIO;
		}
	} while ((*left || in->pos < in->size) && out.pos < out.size);
	if (!out.pos)
		return 0;
	h.size = (uint16_t)(sizeof(h) + out.pos);
	memcpy(w->zrec, &h, sizeof(h));
	if ((err = pdw__write(w, w->zrec, h.size)))
		return err;
	w->comp_out += h.size;
	return 1;
}

int pdw__write_compressed(struct pdata_writer *w, const void *buf, size_t len)
{
	ZSTD_inBuffer in = { buf, len, 0 };
	size_t left = 0;
	int r;

	if (!w->zc)
		return pdw__write(w, buf, len);
	if (w->err)
		return w->err;
	if (!len)
		return 0;
	while ((r = comp_record(w, &in, &left)) > 0 && (left || in.pos < in.size))
		;
	if (r < 0)
		return r;
	w->comp_in += len;
	return 0;
}

void pdw__compressed_bytes(const struct pdata_writer *w, uint64_t *in, uint64_t *out)
{
	*in = w->comp_in;
	*out = w->comp_out;
}

void pdw__compressed_count(struct pdata_writer *w, uint64_t in, uint64_t out)
{
	w->comp_in += in;
	w->comp_out += out;
}

/* Overwrite bytes already written at data position pos (for values known late). */
static int patch(struct pdata_writer *w, uint64_t pos, const void *buf, size_t len)
{
	int err;

	if (w->err)
		return w->err;
	if (pos > w->data_size || len > w->data_size - pos)
		return mperf_error(-EINVAL, "'%s': no record to patch at data position %#llx", w->path,
				   (unsigned long long)pos);
	if ((err = flush(w)))
		return err;
	if (pwrite(w->fd, buf, len, (off_t)(w->data_off + pos)) != (ssize_t)len)
		return werror(w, errno ? -errno : -EIO);
	return 0;
}

/* ---- records mperf writes itself ---- */

/*
 * header | body | string (NUL, padded to 8) | sample_id trailer of event
 * ev: all zeros but the id, where the event's layout has one.
 */
static int write_record(struct pdata_writer *w, uint32_t type, uint16_t misc, const void *body,
			size_t body_len, const char *s, size_t ev, uint64_t id)
{
	unsigned char rec[4096 + 256];	/* a path of up to PATH_MAX, and room for the rest */
	size_t slen = s ? strlen(s) + 1 : 0, pad = (slen + 7) & ~(size_t)7;
	const struct pd_sample_layout *l = ev < w->nr_ev ? &w->ev[ev].layout : NULL;
	size_t tsz = l ? l->trailer_size : 0;
	size_t size = sizeof(struct perf_event_header) + body_len + pad + tsz;
	struct perf_event_header h = { .type = type, .misc = misc, .size = (uint16_t)size };

	if (size > sizeof(rec))
		return werror(w, -ENAMETOOLONG);
	memset(rec, 0, size);
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + sizeof(h), body, body_len);
	if (s)
		memcpy(rec + sizeof(h) + body_len, s, slen);
	if (id && l && l->id_is_pos > 0)
		memcpy(rec + size - 8 * (size_t)l->id_is_pos, &id, sizeof(id));
	return pdw__write(w, rec, size);
}

int pdw__comm(struct pdata_writer *w, uint32_t pid, uint32_t tid, const char *comm)
{
	struct pd_comm_event e = { .pid = pid, .tid = tid };
	const size_t body = sizeof(e) - sizeof(e.header);

	return write_record(w, PERF_RECORD_COMM, 0, &e.pid, body, comm, 0, 0);
}

int pdw__mmap(struct pdata_writer *w, uint16_t misc, uint32_t pid, uint32_t tid, uint64_t start,
	      uint64_t len, uint64_t pgoff, const char *filename, uint64_t *pos)
{
	struct pd_mmap_event e = { .pid = pid, .tid = tid, .start = start, .len = len, .pgoff = pgoff };
	const size_t body = sizeof(e) - sizeof(e.header);

	*pos = w->data_size;
	return write_record(w, PERF_RECORD_MMAP, misc, &e.pid, body, filename, 0, 0);
}

int pdw__mmap2(struct pdata_writer *w, uint16_t misc, const struct pd_mmap2_event *m, const char *filename)
{
	struct pd_mmap2_event e = *m;
	const size_t body = sizeof(e) - sizeof(e.header);

	return write_record(w, PERF_RECORD_MMAP2, misc, &e.pid, body, filename, 0, 0);
}

int pdw__fork(struct pdata_writer *w, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid)
{
	struct pd_fork_event e = { .pid = pid, .ppid = ppid, .tid = tid, .ptid = ptid };
	const size_t body = sizeof(e) - sizeof(e.header);

	return write_record(w, PERF_RECORD_FORK, 0, &e.pid, body, NULL, 0, 0);
}

int pdw__patch_mmap_len(struct pdata_writer *w, uint64_t pos, uint64_t len)
{
	if (w->pipe)
		return mperf_error(-EINVAL, "'%s': a pipe-mode stream cannot be patched", w->path);
	return patch(w, pos + offsetof(struct pd_mmap_event, len), &len, sizeof(len));
}

bool pdw__is_pipe(const struct pdata_writer *w)
{
	return w->pipe;
}

int pdw__finished_init(struct pdata_writer *w)
{
	struct perf_event_header h = { .type = PD_FINISHED_INIT, .size = sizeof(h) };

	return pdw__write(w, &h, sizeof(h));
}

int pdw__lost_samples(struct pdata_writer *w, size_t ev, uint64_t id, uint64_t lost)
{
	return write_record(w, PERF_RECORD_LOST_SAMPLES, 0, &lost, sizeof(lost), NULL, ev, id);
}

int pdw__finished_round(struct pdata_writer *w)
{
	struct perf_event_header h = { .type = PD_FINISHED_ROUND, .size = sizeof(h) };

	return pdw__write(w, &h, sizeof(h));
}

/* ---- features ---- */

/* NULL for a bad bit; for a feature that comes too late for a stream, a scratch buffer. */
static struct mbuf *feat_buf(struct pdata_writer *w, int feat)
{
	if (feat <= 0 || feat >= NR_FEAT) {
		mperf_error(-EINVAL, "'%s': no feature %d", w->path, feat);
		return NULL;
	}
	if (w->pipe && w->begun) {
		w->feat[0].len = 0;	/* bit 0 is never written: kept, then dropped */
		return &w->feat[0];
	}
	w->has_feat[feat] = true;
	return &w->feat[feat];
}

/* A header string: u32 len (NUL included, padded to 64), bytes. */
static int add_string(struct mbuf *b, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t len = (uint32_t)((n + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN);
	int err;

	if ((err = mbuf_add(b, &len, 4)) || (err = mbuf_add(b, s, n)))
		return err;
	return mbuf_addz(b, len - n);
}

/* A feature payload that could not be kept fails the file like a write does. */
static int feat_done(struct pdata_writer *w, int err)
{
	return err ? werror(w, err) : 0;
}

int pdw__feat_string(struct pdata_writer *w, int feat, const char *s)
{
	struct mbuf *b = feat_buf(w, feat);

	if (!b)
		return -EINVAL;
	b->len = 0;
	return feat_done(w, add_string(b, s));
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
		return feat_done(w, err);
	for (size_t i = 0; i < n; i++)
		if ((err = add_string(b, s[i])))
			return feat_done(w, err);
	return 0;
}

int pdw__feat_u64(struct pdata_writer *w, int feat, uint64_t v)
{
	struct mbuf *b = feat_buf(w, feat);

	if (!b)
		return -EINVAL;
	b->len = 0;
	return feat_done(w, mbuf_add(b, &v, 8));
}

int pdw__feat_nrcpus(struct pdata_writer *w, uint32_t avail, uint32_t online)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_NRCPUS);
	struct pd_feat_nrcpus v = { .available = avail, .online = online };

	b->len = 0;
	return feat_done(w, mbuf_add(b, &v, sizeof(v)));
}

int pdw__feat_sample_time(struct pdata_writer *w, uint64_t first, uint64_t last)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_SAMPLE_TIME);
	struct pd_feat_sample_time v = { .first = first, .last = last };

	b->len = 0;
	return feat_done(w, mbuf_add(b, &v, sizeof(v)));
}

int pdw__feat_group_desc(struct pdata_writer *w, const struct pd_group_desc *g, size_t n)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_GROUP_DESC);
	uint32_t nr = (uint32_t)n;
	int err;

	if (!b)
		return -EINVAL;
	b->len = 0;
	if ((err = mbuf_add(b, &nr, sizeof(nr))))
		return feat_done(w, err);
	for (size_t i = 0; i < n; i++)
		if ((err = add_string(b, g[i].name ? g[i].name : "{anon_group}")) ||
		    (err = mbuf_add(b, &g[i].leader, sizeof(g[i].leader))) ||
		    (err = mbuf_add(b, &g[i].nr_members, sizeof(g[i].nr_members))))
			return feat_done(w, err);
	return 0;
}

int pdw__feat_u32(struct pdata_writer *w, int feat, uint32_t v)
{
	struct mbuf *b = feat_buf(w, feat);

	if (!b)
		return -EINVAL;
	b->len = 0;
	return feat_done(w, mbuf_add(b, &v, 4));
}

/* A u32 count and n header strings. */
static int string_list(struct mbuf *b, const char *const *s, uint32_t n)
{
	int err = mbuf_add(b, &n, 4);

	for (uint32_t i = 0; !err && i < n; i++)
		err = add_string(b, s[i]);
	return err;
}

static int cpu_topology(struct mbuf *b, const struct pdw_cpu_topology *t)
{
	int err;

	if ((err = string_list(b, t->packages, t->nr_packages)) || (err = string_list(b, t->cores, t->nr_cores)))
		return err;
	for (uint32_t i = 0; i < t->nr_cpus; i++)
		if ((err = mbuf_add(b, &t->cpus[i].core, 4)) || (err = mbuf_add(b, &t->cpus[i].socket, 4)))
			return err;
	if (!t->nr_dies)
		return 0;
	if ((err = string_list(b, t->dies, t->nr_dies)))
		return err;
	for (uint32_t i = 0; i < t->nr_cpus; i++)
		if ((err = mbuf_add(b, &t->cpus[i].die, 4)))
			return err;
	return 0;
}

int pdw__feat_cpu_topology(struct pdata_writer *w, const struct pdw_cpu_topology *t)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_CPU_TOPOLOGY);

	if (!b)
		return -EINVAL;
	b->len = 0;
	return feat_done(w, cpu_topology(b, t));
}

int pdw__feat_numa_topology(struct pdata_writer *w, const struct pd_numa_node *n, uint32_t nr)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_NUMA_TOPOLOGY);
	int err;

	if (!b)
		return -EINVAL;
	b->len = 0;
	err = mbuf_add(b, &nr, 4);
	for (uint32_t i = 0; !err && i < nr; i++)
		if (!(err = mbuf_add(b, &n[i].node, 4)) && !(err = mbuf_add(b, &n[i].mem_total, 8)) &&
		    !(err = mbuf_add(b, &n[i].mem_free, 8)))
			err = add_string(b, n[i].cpus);
	return feat_done(w, err);
}

int pdw__feat_cache(struct pdata_writer *w, const struct pd_cache_level *l, uint32_t nr)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_CACHE);
	uint32_t version = PD_CACHE_VERSION;
	int err;

	if (!b)
		return -EINVAL;
	b->len = 0;
	if ((err = mbuf_add(b, &version, 4)) || (err = mbuf_add(b, &nr, 4)))
		return feat_done(w, err);
	for (uint32_t i = 0; !err && i < nr; i++)
		if (!(err = mbuf_add(b, &l[i].level, 4)) && !(err = mbuf_add(b, &l[i].line_size, 4)) &&
		    !(err = mbuf_add(b, &l[i].sets, 4)) && !(err = mbuf_add(b, &l[i].ways, 4)) &&
		    !(err = add_string(b, l[i].type)) && !(err = add_string(b, l[i].size)))
			err = add_string(b, l[i].map);
	return feat_done(w, err);
}

int pdw__feat_mem_topology(struct pdata_writer *w, uint64_t block_size, const struct pd_mem_node *n, uint64_t nr)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_MEM_TOPOLOGY);
	uint64_t version = PD_MEM_TOPOLOGY_VERSION;
	int err;

	if (!b)
		return -EINVAL;
	b->len = 0;
	if ((err = mbuf_add(b, &version, 8)) || (err = mbuf_add(b, &block_size, 8)) || (err = mbuf_add(b, &nr, 8)))
		return feat_done(w, err);
	for (uint64_t i = 0; !err && i < nr; i++) {
		uint64_t words = (n[i].nr_bits + 63) / 64;

		/* The node's size, then the bitmap's: the same count twice, as perf writes them. */
		if (!(err = mbuf_add(b, &n[i].node, 8)) && !(err = mbuf_add(b, &n[i].nr_bits, 8)) &&
		    !(err = mbuf_add(b, &n[i].nr_bits, 8)))
			err = mbuf_add(b, n[i].bits, (size_t)words * 8);
	}
	return feat_done(w, err);
}

int pdw__feat_pmu_mappings(struct pdata_writer *w, const struct pd_pmu_mapping *m, uint32_t nr)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_PMU_MAPPINGS);
	int err;

	if (!b)
		return -EINVAL;
	b->len = 0;
	err = mbuf_add(b, &nr, 4);
	for (uint32_t i = 0; !err && i < nr; i++)
		if (!(err = mbuf_add(b, &m[i].type, 4)))
			err = add_string(b, m[i].name);
	return feat_done(w, err);
}

/* One PMU's capabilities: u32 nr, the pairs, and its name when with_name. */
static int pmu_caps(struct mbuf *b, const struct pdw_pmu_caps *pc, bool with_name)
{
	int err = mbuf_add(b, &pc->nr_caps, 4);

	for (uint32_t i = 0; !err && i < pc->nr_caps; i++)
		if (!(err = add_string(b, pc->names[i])))
			err = add_string(b, pc->values[i]);
	return err || !with_name ? err : add_string(b, pc->pmu);
}

int pdw__feat_pmu_caps(struct pdata_writer *w, const struct pdw_pmu_caps *pc, uint32_t nr)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_PMU_CAPS);
	int err;

	if (!b)
		return -EINVAL;
	b->len = 0;
	err = mbuf_add(b, &nr, 4);
	for (uint32_t i = 0; !err && i < nr; i++)
		err = pmu_caps(b, &pc[i], true);
	return feat_done(w, err);
}

int pdw__feat_cpu_pmu_caps(struct pdata_writer *w, const struct pdw_pmu_caps *pc)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_CPU_PMU_CAPS);

	if (!b)
		return -EINVAL;
	b->len = 0;
	return feat_done(w, pmu_caps(b, pc, false));
}

int pdw__feat_hybrid_topology(struct pdata_writer *w, const struct pd_hybrid_node *n, uint32_t nr)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_HYBRID_TOPOLOGY);
	int err;

	if (!b)
		return -EINVAL;
	b->len = 0;
	err = mbuf_add(b, &nr, 4);
	for (uint32_t i = 0; !err && i < nr; i++)
		if (!(err = add_string(b, n[i].pmu)))
			err = add_string(b, n[i].cpus);
	return feat_done(w, err);
}

int pdw__feat_clock_data(struct pdata_writer *w, const struct pd_feat_clock_data *cd)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_CLOCK_DATA);

	if (!b)
		return -EINVAL;
	b->len = 0;
	return feat_done(w, mbuf_add(b, cd, sizeof(*cd)));
}

int pdw__feat_build_id(struct pdata_writer *w, uint16_t misc, int32_t pid,
		       const unsigned char *id, size_t id_len, const char *name)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_BUILD_ID);
	struct pd_build_id_entry e = { .pid = pid };
	size_t n = strlen(name) + 1;
	size_t name_len = (n + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN;
	int err;

	if (id_len > sizeof(e.build_id))
		return mperf_error(-EINVAL, "'%s': a build id of %zu bytes for '%s'", w->path, id_len, name);
	e.header.misc = (uint16_t)(misc | PD_MISC_BUILD_ID_SIZE);
	e.header.size = (uint16_t)(sizeof(e) + name_len);
	memcpy(e.build_id, id, id_len);
	e.build_id_size = (uint8_t)id_len;
	if ((err = mbuf_add(b, &e, sizeof(e))) || (err = mbuf_add(b, name, n)))
		return feat_done(w, err);
	return feat_done(w, mbuf_addz(b, name_len - n));
}

/* A text of TRACING_DATA: its size in width bytes (4 or 8), then its bytes. */
static int tracing_text(struct mbuf *b, size_t width, const struct pd_tracing_text *t)
{
	uint64_t n = t->len;
	uint32_t n32 = (uint32_t)t->len;
	int err;

	if (width == 4 && t->len > UINT32_MAX)
		return -E2BIG;
	if ((err = mbuf_add(b, width == 4 ? (const void *)&n32 : (const void *)&n, width)))
		return err;
	return t->len ? mbuf_add(b, t->p, t->len) : 0;
}

/*
 * A list of formats: with ftrace, every ftrace event of td; else the run of
 * events of system sys that starts at i (*next: the event after it).
 */
static int tracing_formats(struct mbuf *b, const struct pd_tracing_data *td, size_t i, const char *sys,
			   bool ftrace, size_t *next)
{
	uint32_t n = 0;
	size_t at = b->len;
	int err;

	if ((err = mbuf_add(b, &n, sizeof(n))))
		return err;
	for (; i < td->nr_events; i++) {
		bool is_ftrace = !strcmp(td->events[i].sys, "ftrace");

		if (ftrace ? !is_ftrace : is_ftrace || strcmp(td->events[i].sys, sys))
			continue;
		if ((err = tracing_text(b, 8, &td->events[i].format)))
			return err;
		n++;
		if (!ftrace && (i + 1 == td->nr_events || strcmp(td->events[i + 1].sys, sys)))
			break;
	}
	memcpy(b->p + at, &n, sizeof(n));
	*next = i + 1;
	return 0;
}

/* The TRACING_DATA image of td (pd_tracing_data in format.h), appended to b. */
static int tracing_data(struct mbuf *b, const struct pd_tracing_data *td)
{
	unsigned char id[2] = { td->big_endian, td->long_size };
	uint32_t nsys = 0;
	size_t nsys_at, next;
	int err;

	if ((err = mbuf_add(b, PD_TRACING_MAGIC, PD_TRACING_MAGIC_LEN)) ||
	    (err = mbuf_add(b, PD_TRACING_VERSION, sizeof(PD_TRACING_VERSION))) ||
	    (err = mbuf_add(b, id, sizeof(id))) || (err = mbuf_add(b, &td->page_size, 4)) ||
	    (err = mbuf_add(b, "header_page", sizeof("header_page"))) ||
	    (err = tracing_text(b, 8, &td->header_page)) ||
	    (err = mbuf_add(b, "header_event", sizeof("header_event"))) ||
	    (err = tracing_text(b, 8, &td->header_event)) ||
	    (err = tracing_formats(b, td, 0, NULL, true, &next)))
		return err;
	nsys_at = b->len;
	if ((err = mbuf_add(b, &nsys, sizeof(nsys))))
		return err;
	/* One system per run of events that share it (the caller groups them). */
	for (size_t i = 0; i < td->nr_events; i = next) {
		const char *sys = td->events[i].sys;

		next = i + 1;
		if (!strcmp(sys, "ftrace"))
			continue;
		if ((err = mbuf_add(b, sys, strlen(sys) + 1)) || (err = tracing_formats(b, td, i, sys, false, &next)))
			return err;
		nsys++;
	}
	memcpy(b->p + nsys_at, &nsys, sizeof(nsys));
	if ((err = tracing_text(b, 4, &td->kallsyms)) || (err = tracing_text(b, 4, &td->printk)))
		return err;
	return tracing_text(b, 8, &td->cmdlines);
}

int pdw__feat_tracing_data(struct pdata_writer *w, const struct pd_tracing_data *td)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_TRACING_DATA);

	if (!b)
		return -EINVAL;
	b->len = 0;
	return feat_done(w, tracing_data(b, td));
}

/* EVENT_DESC: a pd_feat_event_desc; per event: attr, u32 nr_ids, name, ids. */
static int event_desc(struct pdata_writer *w)
{
	struct mbuf *b = feat_buf(w, PD_FEAT_EVENT_DESC);
	struct pd_feat_event_desc d = { .nr = (uint32_t)w->nr_ev, .attr_size = PD_ATTR_SIZE };
	int err;

	b->len = 0;
	if ((err = mbuf_add(b, &d, sizeof(d))))
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
	if (w->pipe || w->raw) {
		if ((err = flush(w)))
			return err;
		goto close_out;
	}
	if ((err = event_desc(w)))
		return werror(w, err);
	if (w->zc) {
		/* perf's ratio: what was compressed over what it became, rounded. */
		w->comp.ratio = w->comp_out ? (uint32_t)((double)w->comp_in / (double)w->comp_out + 0.5) : 0;
		if ((err = comp_feat(w)))
			return err;
	}
	for (int f = 1; f < NR_FEAT; f++)
		if (w->has_feat[f]) {
			bits[f / 64] |= 1ULL << (f % 64);
			n++;
		}
	off = w->data_off + w->data_size + sizeof(struct pd_section) * (uint64_t)n;
	for (int f = 1; f < NR_FEAT; f++) {
		struct pd_section sec;

		if (!w->has_feat[f])
			continue;
		sec.offset = off;
		sec.size = w->feat[f].len;
		off += sec.size;
		if ((err = append(w, &sec, sizeof(sec))))
			return err;
	}
	for (int f = 1; f < NR_FEAT; f++)
		if (w->has_feat[f] && (err = append(w, w->feat[f].p, w->feat[f].len)))
			return err;
	if ((err = flush(w)) || (err = write_header(w, bits)))
		return err;
close_out:
	/* close() is where some filesystems report a failed write-back. */
	if (close(w->fd) < 0) {
		w->fd = -1;
		return werror(w, -errno);
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
	ZSTD_freeCCtx(w->zc);
	free(w->zrec);
	free(w->wbuf);
	free(w->path);
	free(w);
}
