/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_REPORT_OUT_H
#define MPERF_REPORT_OUT_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "report.h"

/*
 * Buffered text output for the dump, which prints millions of short lines:
 * numbers are formatted by hand and bytes copied into one large buffer
 * that goes to the FILE in big writes.  out_printf() covers the rare lines.
 */
struct out {
	FILE *f;
	char *buf;
	size_t len, cap;
	int err;	/* errno of the first failed write; later output is dropped */
};

int out_init(struct out *o, FILE *f);
/* Flush, and report a write error (as -errno) seen so far. */
int out_finish(struct out *o);
/*
 * The end of a consumer's output, whose work on the input label returned
 * ret: -EPIPE (nobody reads any more) is returned quietly; another write
 * error is logged once and returned; else ret.
 */
int out_close(struct out *o, int ret, const char *label);
void out_flush(struct out *o);
void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Room for n more bytes (n at most cap). */
static inline char *out_room(struct out *o, size_t n)
{
	if (o->cap - o->len < n)
		out_flush(o);
	return o->buf + o->len;
}

static inline void out_mem(struct out *o, const void *p, size_t n)
{
	if (n > o->cap / 2) {
		out_flush(o);
		if (!o->err && fwrite(p, 1, n, o->f) != n)
			o->err = EIO;
		return;
	}
	memcpy(out_room(o, n), p, n);
	o->len += n;
}

static inline void out_str(struct out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

static inline void out_char(struct out *o, char c)
{
	*out_room(o, 1) = c;
	o->len++;
}

/* sep, then n dots: the rule under a column title. */
static inline void out_dots(struct out *o, const char *sep, size_t n)
{
	out_str(o, sep);
	memset(out_room(o, n), '.', n);
	o->len += n;
}

void out_u64(struct out *o, uint64_t v);		/* %lu */
void out_i64(struct out *o, int64_t v);			/* %ld, also %d */
void out_hex(struct out *o, uint64_t v);		/* %lx */
void out_xhex(struct out *o, uint64_t v);		/* %#lx: "0" for zero, else 0x... */
/* s as a JSON string: quoted, '"' and '\\' escaped, control characters as \\u00XX. */
void out_json_str(struct out *o, const char *s);
/* At most n bytes of s (up to its end), XML's special characters escaped, other controls as '?'. */
void out_xml(struct out *o, const char *s, size_t n);
/* The head every JSON document starts with (json_head: schema, versions, command line). */
void out_json_head(struct out *o, const char *schema, int version);
/* "1K": perf's abbreviated sample count in its report headers (above 1000, divided down step by step). */
void out_samples_abbrev(struct out *o, uint64_t n);

#endif
