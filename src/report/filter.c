// SPDX-License-Identifier: GPL-2.0-only
/*
 * -C/--cpu and --time, as perf 6.1 reads them (its cpu map syntax; its
 * time ranges: "start,stop" in seconds with up to nine decimals, several
 * separated by spaces; percent slices "10%/2", ranges "0%-10%,30%-40%",
 * one "25%"; with script's --reltime, from the first sample).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/err.h"
#include "../lib/log.h"
#include "../perfdata/perfdata.h"
#include "filter.h"

static int bad_time(const char *label, const char *arg)
{
	return mperf_error(-MPERF_ERR_USAGE, "'%s': invalid --time '%s' (perf's forms: start,stop in seconds; "
			   "several separated by spaces; 10%%/2, 0%%-10%%,30%%-40%%, 25%%)", label, arg);
}

/* perf's parse_nsec_time: "sec" or "sec.frac", frac at most nine digits. */
static int parse_nsec(const char *s, size_t len, uint64_t *out)
{
	uint64_t sec = 0, ns = 0;
	size_t i = 0, d;

	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	if (i < len && s[i] != '.')
		return -1;
	if (i < len) {
		i++;
		if (len - i > 9)
			return -1;
		for (d = 0; d < 9; d++, i++) {
			if (i < len && (s[i] < '0' || s[i] > '9'))
				return -1;
			ns = ns * 10 + (i < len ? (uint64_t)(s[i] - '0') : 0);
		}
	}
	*out = sec * 1000000000ull + ns;
	return 0;
}

/* One "start,stop" (either may be empty). */
static int parse_range(const char *s, size_t len, struct sfilter_range *r)
{
	const char *comma = memchr(s, ',', len);
	size_t sl = comma ? (size_t)(comma - s) : len;

	r->start = r->end = 0;
	if (sl && parse_nsec(s, sl, &r->start))
		return -1;
	if (comma && len - sl - 1 && parse_nsec(comma + 1, len - sl - 1, &r->end))
		return -1;
	return r->end && r->end < r->start ? -1 : 0;
}

/* perf's absolute ranges: as many as commas, each but the last ended by a space. */
static int parse_abs(const char *s, struct sfilter_range *r, int size)
{
	const char *p = s;
	int num = 0;

	for (const char *c = s; *c; c++)
		num += *c == ',';
	if (!num || num > size)
		return -1;
	for (int i = 0; i < num - 1; i++) {
		const char *arg = p;

		p = strchr(p, ',') + 1;
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			if (*p++ == ',')
				return -1;
		if (parse_range(arg, (size_t)(p - arg), &r[i]))
			return -1;
		if (*p)
			p++;
	}
	if (parse_range(p, strlen(p), &r[num - 1]))
		return -1;
	for (int i = 0; i < num - 1; i++)
		if (r[i].end >= r[i + 1].start)
			return -1;
	return num;
}

/* "12.5%": the fraction; the '%' must end it. */
static int parse_pct(const char *s, size_t len, double *out)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf) || s[len - 1] != '%')
		return -1;
	memcpy(buf, s, len - 1);
	buf[len - 1] = '\0';
	*out = strtod(buf, &end) / 100.0;
	return *end || end == buf ? -1 : 0;
}

static int set_pct(struct sfilter_range *r, double a, double b, uint64_t first, uint64_t last)
{
	uint64_t total = last - first;

	if (a < 0.0 || a > 1.0 || b < 0.0 || b > 1.0)
		return -1;
	r->start = first + (uint64_t)round(a * (double)total);
	r->end = first + (uint64_t)round(b * (double)total);
	if (r->end > r->start && r->end != last)
		r->end -= 1;
	return 0;
}

/* One percent piece: "10%/2" (slash), "0%-10%" (dash), or "25%" alone (the first slice). */
static int parse_pct_piece(const char *s, size_t len, char how, struct sfilter_range *r, uint64_t first,
			   uint64_t last)
{
	const char *sep = how == '%' ? NULL : memchr(s, how, len);
	double a, b;

	if (how == '-') {
		if (!sep || parse_pct(s, (size_t)(sep - s), &a) || parse_pct(sep + 1, len - (size_t)(sep - s) - 1, &b))
			return -1;
		return set_pct(r, a, b, first, last);
	}
	long i = 1;

	if (how == '/') {
		char buf[32], *end;
		size_t n = sep ? len - (size_t)(sep - s) - 1 : 0;

		if (!sep || n >= sizeof(buf))
			return -1;
		memcpy(buf, sep + 1, n);
		buf[n] = '\0';
		i = strtol(buf, &end, 10);
		if (*end)
			return -1;
		len = (size_t)(sep - s);
	}
	if (parse_pct(s, len, &a) || a <= 0.0)
		return -1;
	return set_pct(r, a * (double)(i - 1), a * (double)i, first, last);
}

static int parse_pcts(const char *s, struct sfilter_range *r, int size, uint64_t first, uint64_t last)
{
	char how = strchr(s, '/') ? '/' : strchr(s, '-') ? '-' : '%';
	int n = 0;

	if (how == '%')
		return parse_pct_piece(s, strlen(s), how, r, first, last) ? -1 : 1;
	for (const char *p = s; *p; ) {
		size_t len = strcspn(p, ",");

		if (n >= size || parse_pct_piece(p, len, how, &r[n], first, last))
			return -1;
		n++;
		if (!p[len])
			break;
		p += len + 1;
	}
	return n;
}

static int parse_time(struct sfilter *f, const struct report_sample_filter *o, struct pdata *p, const char *label)
{
	struct pd_feat_sample_time st = { 0, 0 };
	bool pct = strchr(o->time, '%') != NULL;
	const unsigned char *q;
	size_t len;
	int size = 1;

	for (const char *c = o->time; *c; c++)
		size += *c == ',';
	if ((q = pdata__feature(p, PD_FEAT_SAMPLE_TIME, &len)))
		pd_feat_sample_time_decode(q, len, &st);	/* zeros when it does not parse */
	if ((pct || o->reltime) && !st.first && !st.last)
		return mperf_error(-MPERF_ERR_USAGE, "'%s': --time %s needs the first and last sample times, which "
				   "this file does not record (perf record writes them, not in a pipe)", label,
				   pct ? "in percent" : "with --reltime");
	f->first = st.first;
	if (!(f->r = calloc((size_t)size, sizeof(*f->r))))
		return mperf_error(-ENOMEM, "out of memory");
	f->nr = pct ? parse_pcts(o->time, f->r, size, st.first, st.last) : parse_abs(o->time, f->r, size);
	if (f->nr < 0)
		return bad_time(label, o->time);
	for (int i = 0; o->reltime && i < f->nr; i++) {
		f->r[i].start += st.first;	/* perf's: an open end too */
		f->r[i].end += st.first;
	}
	return 0;
}

/* perf's cpu map syntax: "N", "N-M", comma-separated. */
static int parse_cpus(struct sfilter *f, const char *list, const char *label)
{
	for (int pass = 0; pass < 2; pass++) {
		unsigned long max = 0;

		for (const char *s = list; ; s++) {
			char *end;
			unsigned long a, b;

			if (*s < '0' || *s > '9')
				goto bad;
			a = b = strtoul(s, &end, 10);
			if (*end == '-') {
				s = end + 1;
				if (*s < '0' || *s > '9')
					goto bad;
				b = strtoul(s, &end, 10);
			}
			if (b < a || b >= 65536)
				goto bad;
			max = b > max ? b : max;
			for (unsigned long c = a; pass && c <= b; c++)
				f->cpus[c / 64] |= 1ull << (c % 64);
			s = end;
			if (!*s)
				break;
			if (*s != ',')
				goto bad;
		}
		if (!pass) {
			f->nr_cpu_words = max / 64 + 1;
			if (!(f->cpus = calloc(f->nr_cpu_words, sizeof(*f->cpus))))
				return mperf_error(-ENOMEM, "out of memory");
		}
	}
	return 0;
bad:
	return mperf_error(-MPERF_ERR_USAGE, "'%s': invalid -C/--cpu list '%s' (CPUs: 0,2-3)", label, list);
}

int sfilter_init(struct sfilter *f, const struct report_sample_filter *o, struct pdata *p, const char *label)
{
	int ret;

	memset(f, 0, sizeof(*f));
	if (o->cpu_list) {
		for (size_t i = 0; i < pdata__nr_evsel(p); i++)
			if (!(pdata__evsel(p, i)->attr.sample_type & PERF_SAMPLE_CPU))
				return mperf_error(-MPERF_ERR_USAGE, "'%s': -C/--cpu needs the samples' CPU, which "
						   "this file does not record (perf record -a or -C does)", label);
		if ((ret = parse_cpus(f, o->cpu_list, label)))
			return ret;
	}
	if (o->time && (ret = parse_time(f, o, p, label)))
		return ret;
	return 0;
}

bool sfilter_skip(const struct sfilter *f, const struct pd_sample *s)
{
	if (f->nr && s->time) {
		bool in = false;

		if (f->nr == 1)
			in = !((f->r[0].start && s->time < f->r[0].start) || (f->r[0].end && s->time > f->r[0].end));
		for (int i = 0; f->nr > 1 && i < f->nr && !in; i++)
			in = s->time >= f->r[i].start && (s->time <= f->r[i].end || !f->r[i].end);
		if (!in)
			return true;
	}
	return sfilter_skip_cpu(f, s);
}

bool sfilter_skip_cpu(const struct sfilter *f, const struct pd_sample *s)
{
	uint32_t c = s->cpu;

	return f->cpus && (c / 64 >= f->nr_cpu_words || !(f->cpus[c / 64] & (1ull << (c % 64))));
}

bool sfilter_listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p; ) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return true;
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

bool sfilter_listed_id(const char *list, int id)
{
	for (const char *p = list; p && *p; ) {
		char *end;

		if (strtol(p, &end, 10) == id)
			return true;
		p = *end == ',' ? end + 1 : NULL;
	}
	return false;
}

void sfilter_release(struct sfilter *f)
{
	free(f->cpus);
	free(f->r);
	memset(f, 0, sizeof(*f));
}
