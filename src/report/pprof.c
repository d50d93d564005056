// SPDX-License-Identifier: GPL-2.0-only
/*
 * mperf report --format=pprof: the gathered stacks as a pprof profile,
 * the profile.proto message of github.com/google/pprof (proto3), encoded
 * here and gzipped through zlib, as `go tool pprof` reads it.
 *
 * Two values per event with samples, in the file's order: its samples
 * (type: the event's name, unit "count") and their periods (type
 * "NAME:period", unit "nanoseconds" for cpu-clock and task-clock,
 * "events" otherwise); a sample of one event has zeros for the others.
 * default_sample_type is the first event's samples.  Each distinct stack
 * is a sample, its locations leaf first, labelled with its comm.  A
 * location is an address of a mapping (the map that held it: its file,
 * its bounds and offset, the recording's build id), with its function, or
 * for perf's inline frames of one address the inline functions, innermost
 * first; an address without a symbol has no line.  Every mapping says it
 * has functions, so that pprof does not symbolize again.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "../lib/alloc.h"
#include "../lib/buf.h"
#include "../lib/err.h"
#include "../lib/hash.h"
#include "../lib/log.h"
#include "../perfdata/perfdata.h"
#include "export.h"

/* profile.proto's field numbers */
enum {
	PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE = 2, PROFILE_MAPPING = 3, PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5, PROFILE_STRING_TABLE = 6, PROFILE_DURATION_NANOS = 10,
	PROFILE_PERIOD_TYPE = 11, PROFILE_PERIOD = 12, PROFILE_COMMENT = 13, PROFILE_DEFAULT_SAMPLE_TYPE = 14,
	VALUETYPE_TYPE = 1, VALUETYPE_UNIT = 2,
	SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE = 2, SAMPLE_LABEL = 3,
	LABEL_KEY = 1, LABEL_STR = 2,
	MAPPING_ID = 1, MAPPING_MEMORY_START = 2, MAPPING_MEMORY_LIMIT = 3, MAPPING_FILE_OFFSET = 4,
	MAPPING_FILENAME = 5, MAPPING_BUILD_ID = 6, MAPPING_HAS_FUNCTIONS = 7, MAPPING_HAS_INLINE_FRAMES = 10,
	LOCATION_ID = 1, LOCATION_MAPPING_ID = 2, LOCATION_ADDRESS = 3, LOCATION_LINE = 4,
	LINE_FUNCTION_ID = 1,
	FUNCTION_ID = 1, FUNCTION_NAME = 2, FUNCTION_SYSTEM_NAME = 3,
};

enum { WT_VARINT = 0, WT_LEN = 2 };

/* ---- protobuf, by hand: varints, tags, length-delimited fields ---- */

static int pb_varint(struct mbuf *b, uint64_t v)
{
	unsigned char t[10];
	size_t n = 0;

	do {
		t[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return mbuf_add(b, t, n);
}

static int pb_tag(struct mbuf *b, unsigned field, unsigned wt)
{
	return pb_varint(b, (uint64_t)field << 3 | wt);
}

/* A varint field; proto3 leaves out zeros. */
static int pb_uint(struct mbuf *b, unsigned field, uint64_t v)
{
	if (!v)
		return 0;
	return pb_tag(b, field, WT_VARINT) || pb_varint(b, v) ? -ENOMEM : 0;
}

static int pb_bytes(struct mbuf *b, unsigned field, const void *p, size_t n)
{
	return pb_tag(b, field, WT_LEN) || pb_varint(b, n) || mbuf_add(b, p, n) ? -ENOMEM : 0;
}

/* A message field: the submessage m (reset for the next one). */
static int pb_msg(struct mbuf *b, unsigned field, struct mbuf *m)
{
	int err = pb_bytes(b, field, m->p ? m->p : "", m->len);

	m->len = 0;
	return err;
}

/* ---- the tables ---- */

struct strtab {
	char **v;		/* by index, the table's copies; [0] is "" */
	size_t n, cap;
	uint32_t *h;		/* index + 1 */
	size_t hcap;
};

static int str_rehash(struct strtab *t)
{
	size_t ncap = t->hcap ? t->hcap * 2 : 1024;
	uint32_t *h = calloc(ncap, sizeof(*h));

	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < t->n; i++) {
		size_t b = (size_t)hash_str(t->v[i]) & (ncap - 1);

		while (h[b])
			b = (b + 1) & (ncap - 1);
		h[b] = (uint32_t)i + 1;
	}
	free(t->h);
	t->h = h;
	t->hcap = ncap;
	return 0;
}

/* The index of s in the string table (copied there when new), or -ENOMEM. */
static int64_t str_id(struct strtab *t, const char *s)
{
	size_t b;

	if ((t->n + 1) * 2 > t->hcap && str_rehash(t))
		return -ENOMEM;
	b = (size_t)hash_str(s) & (t->hcap - 1);
	for (; t->h[b]; b = (b + 1) & (t->hcap - 1))
		if (!strcmp(t->v[t->h[b] - 1], s))
			return t->h[b] - 1;
	if (ALLOC_GROW(t->v, t->n + 1, t->cap) || !(t->v[t->n] = strdup(s)))
		return -ENOMEM;
	t->h[b] = (uint32_t)++t->n;
	return (int64_t)(t->n - 1);
}

/* A small open-addressing map from a 64-bit key to an id (1-based). */
struct idtab {
	uint64_t *k;
	uint32_t *id;		/* 0: empty */
	size_t cap, n;
};

static int id_grow(struct idtab *t)
{
	size_t ncap = t->cap ? t->cap * 2 : 1024;
	uint64_t *k = calloc(ncap, sizeof(*k));
	uint32_t *id = calloc(ncap, sizeof(*id));

	if (!k || !id) {
		free(k);
		free(id);
		return -ENOMEM;
	}
	for (size_t i = 0; i < t->cap; i++)
		if (t->id[i]) {
			size_t b = (size_t)hash_u64(t->k[i]) & (ncap - 1);

			while (id[b])
				b = (b + 1) & (ncap - 1);
			k[b] = t->k[i];
			id[b] = t->id[i];
		}
	free(t->k);
	free(t->id);
	t->k = k;
	t->id = id;
	t->cap = ncap;
	return 0;
}

/* The slot of key: *id is its id, or 0 to be set by the caller.  NULL when out of memory. */
static uint32_t *id_slot(struct idtab *t, uint64_t key)
{
	size_t b;

	if ((t->n + 1) * 2 > t->cap && id_grow(t))
		return NULL;
	b = (size_t)hash_u64(key) & (t->cap - 1);
	while (t->id[b] && t->k[b] != key)
		b = (b + 1) & (t->cap - 1);
	if (!t->id[b]) {
		t->k[b] = key;
		t->n++;
	}
	return &t->id[b];
}

static void id_free(struct idtab *t)
{
	free(t->k);
	free(t->id);
}

struct pp {
	const struct export *X;
	struct strtab s;
	struct mbuf out, m, sub;	/* the profile; a message; a message inside it */
	struct mbuf fm;			/* a mapping or function, made while a location is */
	struct idtab maps;		/* frame id of a map's first frame -> mapping id */
	struct idtab funcs;		/* string index of a name -> function id */
	struct idtab locs;		/* (first frame id, frames) -> location id */
	uint32_t *frame_map;		/* frame id -> mapping id + 1 (0: not yet) */
	uint32_t nmaps, nfuncs, nlocs;
};

/* The name a function of frame x has: the symbol, without perf's " (inlined)". */
static const char *func_name(const struct xframe *x, char *buf, size_t len)
{
	size_t n = strlen(x->name);

	if (x->inlined && n > 10 && !strcmp(x->name + n - 10, " (inlined)") && n - 10 < len) {
		memcpy(buf, x->name, n - 10);
		buf[n - 10] = 0;
		return buf;
	}
	return x->name;
}

/*
 * The mapping of frame fid: one per map (DSO, bounds, offset); 0 for a
 * frame no map covered.  -ENOMEM, or 0 and *id.
 */
static int mapping_of(struct pp *P, uint32_t fid, uint32_t *id)
{
	const struct export *X = P->X;
	const struct xframe *x = &X->fv[fid];
	uint64_t key;
	uint32_t *slot;
	int64_t fn, bid = 0;
	unsigned char raw[20];
	size_t n;

	*id = 0;
	if (!x->dso)
		return 0;
	if (P->frame_map[fid]) {
		*id = P->frame_map[fid] - 1;
		return 0;
	}
	key = hash_mix(hash_mix(hash_mix(hash_mix(HASH_FNV_INIT, (uintptr_t)x->dso), x->map_start), x->map_end),
		       x->map_pgoff);
	/* a hash collision only merges two maps' rows of the mapping table, never their names */
	if (!(slot = id_slot(&P->maps, key)))
		return -ENOMEM;
	if (!*slot) {
		char hex[41] = "";

		*slot = ++P->nmaps;
		n = pdata__build_id(X->p, x->dso, raw);
		for (size_t i = 0; i < n && i < 20; i++)
			snprintf(hex + 2 * i, 3, "%02x", raw[i]);
		if ((fn = str_id(&P->s, x->dso)) < 0 || (hex[0] && (bid = str_id(&P->s, hex)) < 0))
			return -ENOMEM;
		if (pb_uint(&P->fm, MAPPING_ID, *slot) || pb_uint(&P->fm, MAPPING_MEMORY_START, x->map_start) ||
		    pb_uint(&P->fm, MAPPING_MEMORY_LIMIT, x->map_end) ||
		    pb_uint(&P->fm, MAPPING_FILE_OFFSET, x->map_pgoff) || pb_uint(&P->fm, MAPPING_FILENAME, (uint64_t)fn) ||
		    pb_uint(&P->fm, MAPPING_BUILD_ID, (uint64_t)bid) || pb_uint(&P->fm, MAPPING_HAS_FUNCTIONS, 1) ||
		    pb_uint(&P->fm, MAPPING_HAS_INLINE_FRAMES, 1) || pb_msg(&P->out, PROFILE_MAPPING, &P->fm))
			return -ENOMEM;
	}
	P->frame_map[fid] = *slot + 1;
	*id = *slot;
	return 0;
}

static int function_of(struct pp *P, const struct xframe *x, uint32_t *id)
{
	char buf[4096];
	int64_t s = str_id(&P->s, func_name(x, buf, sizeof(buf)));
	uint32_t *slot;

	if (s < 0)
		return -ENOMEM;
	if (!(slot = id_slot(&P->funcs, (uint64_t)s)))
		return -ENOMEM;
	if (!*slot) {
		*slot = ++P->nfuncs;
		if (pb_uint(&P->fm, FUNCTION_ID, *slot) || pb_uint(&P->fm, FUNCTION_NAME, (uint64_t)s) ||
		    pb_uint(&P->fm, FUNCTION_SYSTEM_NAME, (uint64_t)s) || pb_msg(&P->out, PROFILE_FUNCTION, &P->fm))
			return -ENOMEM;
	}
	*id = *slot;
	return 0;
}

/*
 * The location of frames s[from .. to) (root first): one address, and
 * the inline frames perf made of it after its outermost.  Its lines are
 * innermost first, as profile.proto orders them.
 */
static int location_of(struct pp *P, const struct xstack *s, uint32_t from, uint32_t to, uint32_t *id)
{
	const struct export *X = P->X;
	uint32_t first = X->ids[s->first + from], map, *slot;
	const struct xframe *x = &X->fv[first];

	if (!(slot = id_slot(&P->locs, (uint64_t)first << 10 | ((to - from) & 1023))))
		return -ENOMEM;
	if (*slot) {
		*id = *slot;
		return 0;
	}
	*slot = ++P->nlocs;
	if (mapping_of(P, first, &map))
		return -ENOMEM;
	if (pb_uint(&P->m, LOCATION_ID, *slot) || pb_uint(&P->m, LOCATION_MAPPING_ID, map) ||
	    pb_uint(&P->m, LOCATION_ADDRESS, x->ip))
		return -ENOMEM;
	for (uint32_t i = to; i-- > from; ) {
		const struct xframe *f = xstack_frame(X, s, i);
		uint32_t fn;

		if (!f->has_sym)
			continue;
		if (function_of(P, f, &fn) || pb_uint(&P->sub, LINE_FUNCTION_ID, fn) ||
		    pb_msg(&P->m, LOCATION_LINE, &P->sub))
			return -ENOMEM;
	}
	*id = *slot;
	return pb_msg(&P->out, PROFILE_LOCATION, &P->m);
}

/* Frames i and i - 1 are one address: an inline frame after the frame it is in. */
static bool same_address(const struct export *X, const struct xstack *s, uint32_t i)
{
	const struct xframe *a = xstack_frame(X, s, i - 1), *b = xstack_frame(X, s, i);

	return b->inlined && a->ip == b->ip && a->dso == b->dso;
}

/*
 * The sample types: two per event with samples (its count, its period
 * under the name in names[e], which must live until the string table is
 * written); col[e]: the event's value columns.
 */
static int encode_sample_types(struct pp *P, size_t *col, char **names, size_t *nev)
{
	const struct export *X = P->X;
	char period_name[512];
	int64_t s;

	for (size_t e = 0; e < X->nev; e++) {
		const char *unit = X->ev[e].time ? "nanoseconds" : "events";

		if (!X->ev[e].samples)
			continue;
		col[e] = (*nev)++;
		snprintf(period_name, sizeof(period_name), "%s:period", X->ev[e].name);
		if (!(names[e] = strdup(period_name)))
			return -ENOMEM;
		if ((s = str_id(&P->s, X->ev[e].name)) < 0 || pb_uint(&P->m, VALUETYPE_TYPE, (uint64_t)s) ||
		    (s = str_id(&P->s, "count")) < 0 || pb_uint(&P->m, VALUETYPE_UNIT, (uint64_t)s) ||
		    pb_msg(&P->out, PROFILE_SAMPLE_TYPE, &P->m))
			return -ENOMEM;
		if ((s = str_id(&P->s, names[e])) < 0 || pb_uint(&P->m, VALUETYPE_TYPE, (uint64_t)s) ||
		    (s = str_id(&P->s, unit)) < 0 || pb_uint(&P->m, VALUETYPE_UNIT, (uint64_t)s) ||
		    pb_msg(&P->out, PROFILE_SAMPLE_TYPE, &P->m))
			return -ENOMEM;
		/* what pprof shows first, and the period of the first event */
		if (*nev == 1 &&
		    ((s = str_id(&P->s, X->ev[e].name)) < 0 ||
		     pb_uint(&P->out, PROFILE_DEFAULT_SAMPLE_TYPE, (uint64_t)s) ||
		     pb_uint(&P->m, VALUETYPE_TYPE, (uint64_t)s) || (s = str_id(&P->s, unit)) < 0 ||
		     pb_uint(&P->m, VALUETYPE_UNIT, (uint64_t)s) || pb_msg(&P->out, PROFILE_PERIOD_TYPE, &P->m) ||
		     pb_uint(&P->out, PROFILE_PERIOD, X->ev[e].samples ? X->ev[e].period / X->ev[e].samples : 0)))
			return -ENOMEM;
	}
	return 0;
}

/*
 * pprof takes the first mapping for the main binary: the file of the
 * heaviest stack's command, when one of its frames is in it.
 */
static int encode_main_mapping(struct pp *P)
{
	const struct export *X = P->X;
	const struct xstack *top = NULL;
	uint32_t id;

	for (size_t i = 0; i < X->ns; i++)
		if (!top || X->sv[i].count > top->count)
			top = &X->sv[i];
	for (uint32_t f = 0; top && f < top->n; f++) {
		const struct xframe *x = xstack_frame(X, top, f);

		if (x->dso && !x->kernel && !strncmp(x->dso_name, top->comm, strlen(top->comm)))
			return mapping_of(P, X->ids[top->first + f], &id);
	}
	return 0;
}

/* One stack as a sample: its locations leaf first, a value pair per event column, its comm. */
static int encode_sample(struct pp *P, const struct xstack *st, const size_t *col, size_t nev,
			 uint32_t *locs, int64_t comm_key)
{
	const struct export *X = P->X;
	size_t nl = 0;
	int64_t s;

	/* Each location from its outermost frame to the end of its inline run. */
	for (uint32_t to = st->n; to > 0; ) {
		uint32_t from = to - 1;

		while (from > 0 && same_address(X, st, from))
			from--;
		if (location_of(P, st, from, to, &locs[nl++]))
			return -ENOMEM;
		to = from;
	}
	for (size_t k = 0; k < nl; k++)
		if (pb_varint(&P->sub, locs[k]))
			return -ENOMEM;
	if (pb_msg(&P->m, SAMPLE_LOCATION_ID, &P->sub))
		return -ENOMEM;
	for (size_t c = 0; c < nev; c++) {
		bool mine = c == col[st->evsel];

		if (pb_varint(&P->sub, mine ? st->count : 0) || pb_varint(&P->sub, mine ? st->period : 0))
			return -ENOMEM;
	}
	if (pb_msg(&P->m, SAMPLE_VALUE, &P->sub) || (s = str_id(&P->s, st->comm)) < 0 ||
	    pb_uint(&P->sub, LABEL_KEY, (uint64_t)comm_key) || pb_uint(&P->sub, LABEL_STR, (uint64_t)s) ||
	    pb_msg(&P->m, SAMPLE_LABEL, &P->sub) || pb_msg(&P->out, PROFILE_SAMPLE, &P->m))
		return -ENOMEM;
	return 0;
}

static int encode(struct pp *P)
{
	const struct export *X = P->X;
	size_t nev = 0, *col = calloc(X->nev ? X->nev : 1, sizeof(*col));
	uint32_t *locs = NULL;
	size_t lcap = 0;
	int64_t comm_key, s;
	char comment[512];
	char **names = NULL;
	int ret = -ENOMEM;

	if (!col || !(names = calloc(X->nev ? X->nev : 1, sizeof(*names))) || str_id(&P->s, "") < 0 ||
	    (comm_key = str_id(&P->s, "comm")) < 0 || encode_sample_types(P, col, names, &nev))
		goto out;
	if (X->last_time > X->first_time && pb_uint(&P->out, PROFILE_DURATION_NANOS, X->last_time - X->first_time))
		goto out;
	if (encode_main_mapping(P))
		goto out;
	for (size_t i = 0; i < X->ns; i++) {
		const struct xstack *st = &X->sv[i];

		if ((size_t)st->evsel >= X->nev || !X->ev[st->evsel].samples)
			continue;
		if (ALLOC_GROW(locs, st->n ? st->n : 1, lcap) || encode_sample(P, st, col, nev, locs, comm_key))
			goto out;
	}
	snprintf(comment, sizeof(comment), "mperf report --format=pprof of %s", X->title);
	if ((s = str_id(&P->s, comment)) < 0 || pb_uint(&P->out, PROFILE_COMMENT, (uint64_t)s))
		goto out;
	/* The string table last: every string is known now (field order does not matter). */
	for (size_t i = 0; i < P->s.n; i++)
		if (pb_bytes(&P->out, PROFILE_STRING_TABLE, P->s.v[i], strlen(P->s.v[i])))
			goto out;
	ret = 0;
out:
	free(col);
	free(locs);
	if (names)
		for (size_t e = 0; e < X->nev; e++)
			free(names[e]);
	free(names);
	return ret;
}

/* buf, gzipped, to f. */
static int gzip_to(const struct mbuf *buf, FILE *f, const char *label)
{
	unsigned char chunk[1 << 16];
	z_stream z;
	int zr;

	memset(&z, 0, sizeof(z));
	/* 15 + 16: a gzip header and trailer around the deflate stream */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return mperf_error(-ENOMEM, "out of memory");
	z.next_in = (unsigned char *)buf->p;
	z.avail_in = (uInt)buf->len;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		zr = deflate(&z, Z_FINISH);
		if (zr == Z_STREAM_ERROR) {
			deflateEnd(&z);
			return mperf_error(-EIO, "'%s': zlib could not compress the profile", label);
		}
		if (fwrite(chunk, 1, sizeof(chunk) - z.avail_out, f) != sizeof(chunk) - z.avail_out) {
			int err = errno ? -errno : -EIO;

			deflateEnd(&z);
			return err == -EPIPE ? err : mperf_error(err, "cannot write the profile: %s", strerror(-err));
		}
	} while (zr != Z_STREAM_END);
	deflateEnd(&z);
	return 0;
}

int export__pprof(const struct export *X, FILE *f)
{
	struct pp P = { .X = X };
	int ret;

	if (!(P.frame_map = calloc(X->nf ? X->nf : 1, sizeof(*P.frame_map))))
		return mperf_error(-ENOMEM, "out of memory");
	ret = encode(&P);
	if (ret)
		ret = mperf_error(ret, "out of memory");
	else if (P.out.len > UINT32_MAX)
		ret = mperf_error(-EFBIG, "'%s': the profile is larger than 4 GiB", X->label);
	else
		ret = gzip_to(&P.out, f, X->label);
	if (!ret && fflush(f))
		ret = errno == EPIPE ? -EPIPE : mperf_error(-errno, "cannot write the profile: %s", strerror(errno));
	free(P.frame_map);
	for (size_t i = 0; i < P.s.n; i++)
		free(P.s.v[i]);
	free(P.s.v);
	free(P.s.h);
	mbuf_free(&P.out);
	mbuf_free(&P.m);
	mbuf_free(&P.sub);
	mbuf_free(&P.fm);
	id_free(&P.maps);
	id_free(&P.funcs);
	id_free(&P.locs);
	return ret;
}
