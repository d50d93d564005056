// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include "../lib/json.h"
#include "../lib/log.h"
#include "out.h"

#define OUT_CAP (1 << 18)

int out_init(struct out *o, FILE *f)
{
	o->f = f;
	o->len = 0;
	o->err = 0;
	o->cap = OUT_CAP;
	o->buf = malloc(OUT_CAP);
	return o->buf ? 0 : -ENOMEM;
}

void out_flush(struct out *o)
{
	if (o->len && !o->err && fwrite(o->buf, 1, o->len, o->f) != o->len)
		o->err = errno ? errno : EIO;
	o->len = 0;
}

int out_finish(struct out *o)
{
	out_flush(o);
	free(o->buf);
	o->buf = NULL;
	if (!o->err && (fflush(o->f) || ferror(o->f)))
		o->err = errno ? errno : EIO;
	return -o->err;
}

int out_close(struct out *o, int ret, const char *label)
{
	int e = out_finish(o);

	if (ret == -EPIPE || e == -EPIPE)
		return -EPIPE;
	if (e && ret >= 0)
		return mperf_error(e, "'%s': write error on the output: %s", label, strerror(-e));
	return ret;
}

void out_printf(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < o->cap - o->len) {
		o->len += (size_t)n;
		return;
	}
	out_flush(o);
	va_start(ap, fmt);
	if (!o->err && vfprintf(o->f, fmt, ap) < 0)
		o->err = errno ? errno : EIO;
	va_end(ap);
}

/* "00" to "99": out_u64 writes two digits a division. */
static const char digits2[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* 10^i, for the count of a number's digits. */
static const uint64_t pow10_[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
	10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL,
};

/* The decimal digits of v (1 for 0): log10 from the bit length, corrected once. */
static unsigned int ndigits(uint64_t v)
{
	unsigned int t = (unsigned int)(64 - __builtin_clzll(v | 1)) * 1233 >> 12;

	return t + (v >= pow10_[t]) + !v;
}

static inline void put2(char *q, unsigned int d)
{
	q[0] = digits2[2 * d];
	q[1] = digits2[2 * d + 1];
}

/* The 8 digits of r (below 10^8) at q: four pairs that do not wait on each other. */
static inline void put8(char *q, uint32_t r)
{
	uint32_t hi = r / 10000, lo = r % 10000;

	put2(q, hi / 100);
	put2(q + 2, hi % 100);
	put2(q + 4, lo / 100);
	put2(q + 6, lo % 100);
}

/*
 * The digits go straight into the buffer (a copy per number was a tenth
 * of -D's time), eight at a time below the first: -D's timestamps have
 * 13 or more, and a division by 100 a pair made a chain of seven.
 */
void out_u64(struct out *o, uint64_t v)
{
	char *p = out_room(o, 20), *e;
	uint32_t w;

	if (v < 10) {
		*p = (char)('0' + v);
		o->len++;
		return;
	}
	e = p + ndigits(v);
	o->len += (size_t)(e - p);
	while (v >= 100000000) {
		e -= 8;
		put8(e, (uint32_t)(v % 100000000));
		v /= 100000000;
	}
	for (w = (uint32_t)v; w >= 100; w /= 100) {
		e -= 2;
		put2(e, w % 100);
	}
	if (w >= 10)
		put2(e - 2, w);
	else
		e[-1] = (char)('0' + w);
}

void out_i64(struct out *o, int64_t v)
{
	if (v < 0) {
		out_char(o, '-');
		out_u64(o, (uint64_t)0 - (uint64_t)v);
	} else {
		out_u64(o, (uint64_t)v);
	}
}

void out_hex(struct out *o, uint64_t v)
{
	static const char hexd[] = "0123456789abcdef";
	char *p = out_room(o, 16);
	size_t n = (size_t)(67 - __builtin_clzll(v | 1)) / 4;

	o->len += n;
	do {
		p[--n] = hexd[v & 15];
		v >>= 4;
	} while (n);
}

void out_xhex(struct out *o, uint64_t v)
{
	if (v) {
		char *p = out_room(o, 18);

		p[0] = '0';
		p[1] = 'x';
		o->len += 2;
	}
	out_hex(o, v);
}

static void put_out(void *arg, const char *p, size_t n)
{
	out_mem(arg, p, n);
}

void out_json_str(struct out *o, const char *s)
{
	json_quote(s, put_out, o);
}

void out_json_head(struct out *o, const char *schema, int version)
{
	json_head(schema, version, put_out, o);
}

void out_samples_abbrev(struct out *o, uint64_t n)
{
	char unit = ' ';

	if (n > 1000) {
		n /= 1000;
		unit = 'K';
	}
	if (n > 1000) {
		n /= 1000;
		unit = 'M';
	}
	if (n > 1000)
		unit = 'G';
	out_printf(o, "%" PRIu64 "%c", n, unit);
}

void out_xml(struct out *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '&': out_str(o, "&amp;"); break;
		case '<': out_str(o, "&lt;"); break;
		case '>': out_str(o, "&gt;"); break;
		case '"': out_str(o, "&quot;"); break;
		default:
			/* XML 1.0 has no other control characters */
			out_char(o, c < 0x20 && c != '\t' && c != '\n' ? '?' : (char)c);
		}
	}
}
