// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report session: records in file order -> perf's ordered-events queue
 * -> delivery (dump, machine state, stats).
 *
 * Ordering, as perf 6.1 does it: user records (type >= 64) and kernel
 * records without a usable timestamp are delivered as they are read;
 * the others are queued.  A FINISHED_ROUND delivers every queued record
 * up to the largest timestamp that had been queued when the previous
 * round ended, so the first round flushes nothing.  Records with equal
 * timestamps keep their file order.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/err.h"
#include "../lib/log.h"
#include "../perfdata/perfdata.h"
#include "dump.h"
#include "machine.h"
#include "out.h"
#include "report.h"
#include "session.h"

struct qent {
	uint64_t ts, seq, off;
	const struct perf_event_header *h;	/* into the file image, or a copy */
	int evsel;
	bool owned;				/* h is a copy to free after delivery */
};

struct last_read {
	uint64_t id, value;
};

struct session {
	struct pdata *p;
	const char *label;
	struct out *out;
	struct machine *m;
	bool ordered;
	enum session_mode mode;
	const struct session_ops *ops;

	struct qent *q, *qtmp;	/* the queue, and room to merge it */
	size_t qn, qcap;
	bool qsorted;
	uint64_t qmax;		/* largest timestamp in the queue */
	uint64_t max_ts, next_flush, seq;

	uint64_t nr[PD_RECORD_MAX];
	uint64_t nr_unknown;
	uint64_t (*ev_nr)[PD_RECORD_MAX];	/* per event */
	size_t ev_cap;

	struct last_read *reads;	/* for READ samples: last value per id */
	size_t nreads;

	char *err;
	size_t errlen;
};

static int fail(struct session *s, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct session *s, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, s->errlen, fmt, ap);
	va_end(ap);
	return code;
}

static int ensure_ev_stats(struct session *s)
{
	size_t n = pdata__nr_evsel(s->p);

	if (n <= s->ev_cap)
		return 0;
	void *nv = realloc(s->ev_nr, n * sizeof(*s->ev_nr));
	if (!nv)
		return -ENOMEM;
	s->ev_nr = nv;
	memset(&s->ev_nr[s->ev_cap], 0, (n - s->ev_cap) * sizeof(*s->ev_nr));
	s->ev_cap = n;
	return 0;
}

/*
 * "<cpu> <time> " before the offset.  nr_visible: the events known when
 * the record is printed (a pipe-mode ATTR is printed before it is added).
 */
static void print_prefix(struct session *s, const struct perf_event_header *h,
			 const struct pd_sample *smp, size_t nr_visible)
{
	uint64_t st = 0;

	if (!nr_visible || (h->type != PERF_RECORD_SAMPLE && !pdata__evsel(s->p, 0)->attr.sample_id_all)) {
		out_str(s->out, "-1 -1 ");
		return;
	}
	for (size_t i = 0; i < nr_visible; i++)
		st |= pdata__evsel(s->p, i)->attr.sample_type;
	if (st & PERF_SAMPLE_CPU) {
		out_u64(s->out, smp->cpu);
		out_char(s->out, ' ');
	}
	if (st & PERF_SAMPLE_TIME) {
		out_u64(s->out, smp->time);
		out_char(s->out, ' ');
	}
}

static void print_line(struct session *s, uint64_t off, const struct perf_event_header *h,
		       const struct pd_sample *smp, size_t nr_visible)
{
	const char *name = pd_record_name(h->type);

	dump__raw(s->out, s->label, off, h);
	print_prefix(s, h, smp, nr_visible);
	out_xhex(s->out, off);
	out_mem(s->out, " [", 2);
	out_xhex(s->out, h->size);
	out_mem(s->out, "]: PERF_RECORD_", 15);
	out_str(s->out, name ? name : "UNKNOWN");
}

static void thread_lines(struct session *s, const struct pd_sample *smp, int cpumode)
{
	struct resolved r;

	if (machine__resolve(s->m, (int)smp->pid, (int)smp->tid, cpumode, smp->ip, &r))
		return;
	out_mem(s->out, " ... thread: ", 13);
	out_str(s->out, r.comm);
	out_char(s->out, ':');
	out_i64(s->out, r.tid);
	out_mem(s->out, "\n ...... dso: ", 14);
	out_str(s->out, r.dso);
	out_char(s->out, '\n');
}

/*
 * A sample with read values is delivered once per value, to the event
 * that owns the value's id, when that value changed since the id was last
 * seen (perf's per-id period starts at 0): one thread/dso pair and one
 * SAMPLE count each.
 */
static int hist_sample(struct session *s, int ev, const struct pd_sample *smp, int cpumode,
		       uint64_t period);

static int read_sample_lines(struct session *s, const struct perf_event_attr *a,
			     const struct pd_sample *smp, int cpumode)
{
	uint64_t rf = a->read_format, nr = 1;
	size_t o = 0, per = 8 + (rf & PERF_FORMAT_ID ? 8 : 0) + (rf & PERF_FORMAT_LOST ? 8 : 0);
	size_t times = (rf & PERF_FORMAT_TOTAL_TIME_ENABLED ? 8 : 0) + (rf & PERF_FORMAT_TOTAL_TIME_RUNNING ? 8 : 0);

	if (!(rf & PERF_FORMAT_ID))
		return 0;	/* no id: perf cannot attribute the values */
	if (rf & PERF_FORMAT_GROUP) {
		nr = pd_u64(smp->read);
		o = 8 + times;
	}
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t value, id;
		int ev;
		size_t k;

		if (rf & PERF_FORMAT_GROUP) {
			value = pd_u64(smp->read + o + per * i);
			id = pd_u64(smp->read + o + per * i + 8);
		} else {
			value = pd_u64(smp->read);
			id = pd_u64(smp->read + 8 + times);
		}
		ev = pdata__evsel_by_id(s->p, id);
		if (ev < 0)
			continue;
		for (k = 0; k < s->nreads && s->reads[k].id != id; k++)
			;
		if (k == s->nreads) {
			void *nv = realloc(s->reads, (k + 1) * sizeof(*s->reads));

			if (!nv)
				return -ENOMEM;
			s->reads = nv;
			s->reads[k].id = id;
			s->reads[k].value = 0;
			s->nreads++;
		}
		if (s->reads[k].value == value)
			continue;
		uint64_t delta = value - s->reads[k].value;
		int err;

		s->reads[k].value = value;
		s->ev_nr[ev][0]++;
		s->ev_nr[ev][PERF_RECORD_SAMPLE]++;
		if (s->mode == SESSION_DUMP)
			thread_lines(s, smp, cpumode);
		else if (s->mode == SESSION_HIST && (err = hist_sample(s, ev, smp, cpumode, delta)))
			return err;
	}
	return 0;
}

static int hist_sample(struct session *s, int ev, const struct pd_sample *smp, int cpumode,
		       uint64_t period)
{
	struct session_sample ss = { .evsel = ev, .smp = smp, .cpumode = cpumode, .period = period };

	if (machine__resolve(s->m, (int)smp->pid, (int)smp->tid, cpumode, smp->ip, &ss.where))
		return -ENOMEM;
	return s->ops->sample(s->ops->arg, &ss);
}

static const char *str_at(const struct perf_event_header *h, size_t off, char *buf, size_t len)
{
	size_t max = h->size > off ? h->size - off : 0;
	size_t n = strnlen((const char *)h + off, max);

	snprintf(buf, len, "%.*s", (int)n, (const char *)h + off);
	return buf;
}

/* Update the machine from a side-band record. */
static int handle(struct session *s, const struct perf_event_header *h)
{
	const char *b = (const char *)h;
	char name[4096];
	int cpumode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;

	switch (h->type) {
	case PERF_RECORD_COMM:
		if (h->size < 16)
			break;
		machine__comm(s->m, (int)pd_u32(b + 8), (int)pd_u32(b + 12), str_at(h, 16, name, sizeof(name)));
		break;
	case PERF_RECORD_FORK: {
		int rpid, rtid, err;

		if (h->size < 24)
			break;
		err = machine__fork(s->m, (int)pd_u32(b + 8), (int)pd_u32(b + 16), (int)pd_u32(b + 12),
				    (int)pd_u32(b + 20), h->misc & PERF_RECORD_MISC_FORK_EXEC, &rpid, &rtid);
		if (rtid != -2 && s->mode == SESSION_DUMP)	/* perf says it only in -D */
			out_printf(s->out, "removing erroneous parent thread %d/%d\n", rpid, rtid);
		return err;
	}
	case PERF_RECORD_MMAP:
		if (h->size < 40)
			break;
		return machine__mmap(s->m, cpumode, (int)pd_u32(b + 8), (int)pd_u32(b + 12), pd_u64(b + 16),
				     pd_u64(b + 24), pd_u64(b + 32), !(h->misc & PERF_RECORD_MISC_MMAP_DATA), 0,
				     str_at(h, 40, name, sizeof(name)));
	case PERF_RECORD_MMAP2:
		if (h->size < 72)
			break;
		return machine__mmap(s->m, cpumode, (int)pd_u32(b + 8), (int)pd_u32(b + 12), pd_u64(b + 16),
				     pd_u64(b + 24), pd_u64(b + 32), pd_u32(b + 64) & 4, pd_u32(b + 68),
				     str_at(h, 72, name, sizeof(name)));
	case PERF_RECORD_KSYMBOL:
		if (h->size < 24)
			break;
		return machine__ksymbol(s->m, pd_u64(b + 8), pd_u32(b + 16), str_at(h, 24, name, sizeof(name)),
					pd_u16(b + 22) & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER);
	}
	return 0;
}

/* Print a record and apply it. */
static int deliver(struct session *s, uint64_t off, const struct perf_event_header *h, int evsel)
{
	const struct pd_evsel *ev = evsel >= 0 ? pdata__evsel(s->p, (size_t)evsel) : NULL;
	size_t nr_visible = pdata__nr_evsel(s->p);
	struct pd_sample smp;
	int err;

	if (ev) {
		if (pd_parse_sample(&ev->attr, h, &smp))
			return fail(s, -MPERF_ERR_CORRUPT, "%s record at offset %#" PRIx64 " (size %#x): %s runs past the end of the record",
				    pd_record_name(h->type), off, h->size, smp.bad ? smp.bad : "header");
		/* READ samples count per value, in read_sample_lines(). */
		if (h->type != PERF_RECORD_SAMPLE || !(ev->attr.sample_type & PERF_SAMPLE_READ)) {
			s->ev_nr[evsel][0]++;
			s->ev_nr[evsel][h->type]++;
		}
	} else {
		memset(&smp, 0, sizeof(smp));
		if (h->type == PD_HEADER_ATTR && pdata__is_pipe(s->p))
			nr_visible--;	/* printed as perf does: before the event exists */
	}
	if (s->mode == SESSION_STATS) {
		/* Counting only: nothing printed, no machine state needed. */
		if (ev && h->type == PERF_RECORD_SAMPLE && (ev->attr.sample_type & PERF_SAMPLE_READ) && smp.read)
			return read_sample_lines(s, &ev->attr, &smp, 0);
		return 0;
	}
	if (s->mode == SESSION_HIST) {
		int cpumode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;

		if (h->type == PERF_RECORD_SAMPLE) {
			if ((ev->attr.sample_type & PERF_SAMPLE_READ) && smp.read)
				err = read_sample_lines(s, &ev->attr, &smp, cpumode);
			else
				err = hist_sample(s, evsel, &smp, cpumode, smp.period);
		} else {
			if (ev && h->type == PERF_RECORD_LOST_SAMPLES && h->size >= 16 && s->ops->lost)
				s->ops->lost(s->ops->arg, evsel, pd_u64((const char *)h + 8));
			err = handle(s, h);
		}
		return err == -ENOMEM ? fail(s, err, "out of memory") : err;
	}
	if (h->type >= PD_RECORD_MAX || !pd_record_name(h->type)) {
		print_line(s, off, h, &smp, nr_visible);
		out_str(s->out, ": unhandled!\n");
		return 0;
	}
	print_line(s, off, h, &smp, nr_visible);
	if (h->type == PERF_RECORD_SAMPLE) {
		int cpumode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;

		dump__sample(s->out, h, &ev->attr, &smp);
		if ((ev->attr.sample_type & PERF_SAMPLE_READ) && smp.read)
			return read_sample_lines(s, &ev->attr, &smp, cpumode);
		thread_lines(s, &smp, cpumode);
		return 0;
	}
	dump__details(s->out, h, &smp, ev ? ev->name : NULL, s->ordered);
	err = handle(s, h);
	return err == -ENOMEM ? fail(s, err, "out of memory") : 0;
}

/* ---- the queue ---- */

static int enqueue(struct session *s, uint64_t ts, uint64_t off, const struct perf_event_header *h,
		   bool stable, int evsel)
{
	struct qent *e;

	if (s->qn == s->qcap) {
		size_t cap = s->qcap ? s->qcap * 2 : 4096;
		void *nq = realloc(s->q, cap * sizeof(*s->q)), *nt;

		if (!nq)
			return -ENOMEM;
		s->q = nq;
		nt = realloc(s->qtmp, cap * sizeof(*s->qtmp));
		if (!nt)
			return -ENOMEM;
		s->qtmp = nt;
		s->qcap = cap;
	}
	if (!stable) {
		void *c = malloc(h->size);

		if (!c)
			return -ENOMEM;
		memcpy(c, h, h->size);
		h = c;
	}
	/* It goes to the tail when nothing queued is later: then it sets max_ts. */
	if (!s->qn || ts >= s->qmax) {
		s->max_ts = ts;
		s->qmax = ts;
	} else {
		s->qsorted = false;
	}
	e = &s->q[s->qn++];
	e->ts = ts;
	e->seq = s->seq++;
	e->off = off;
	e->h = h;
	e->evsel = evsel;
	e->owned = !stable;
	return 0;
}

/* Deliver queued records with ts <= limit, in (ts, file order). */
static bool qless(const struct qent *a, const struct qent *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

/*
 * Sort the queue by (ts, arrival).  It is a few sorted runs (each CPU's
 * buffer is in time order, and what stayed from the last flush is sorted):
 * merge neighbouring runs until one is left.
 */
static void sort_queue(struct session *s)
{
	struct qent *a = s->q, *b = s->qtmp, *t;
	size_t n = s->qn;

	for (;;) {
		size_t runs = 0, i = 0, o = 0;

		while (i < n) {
			size_t m = i + 1, e;

			while (m < n && !qless(&a[m], &a[m - 1]))
				m++;
			e = m;
			if (e < n) {
				e++;
				while (e < n && !qless(&a[e], &a[e - 1]))
					e++;
			}
			/* Merge [i, m) and [m, e); ties take the left, the earlier arrival. */
			size_t l = i, r = m;

			while (l < m && r < e)
				b[o++] = qless(&a[r], &a[l]) ? a[r++] : a[l++];
			while (l < m)
				b[o++] = a[l++];
			while (r < e)
				b[o++] = a[r++];
			runs++;
			i = e;
		}
		t = a;
		a = b;
		b = t;
		if (runs <= 1)
			break;
	}
	if (a != s->q)
		memcpy(s->q, a, n * sizeof(*a));
}

static int flush_upto(struct session *s, uint64_t limit)
{
	size_t i;
	int err = 0;

	if (!s->qn)
		return 0;
	if (!s->qsorted) {
		sort_queue(s);
		s->qsorted = true;
	}
	for (i = 0; i < s->qn && s->q[i].ts <= limit; i++) {
		if (!err)
			err = deliver(s, s->q[i].off, s->q[i].h, s->q[i].evsel);
		if (s->q[i].owned)
			free((void *)s->q[i].h);
	}
	/* What stays is sorted and usually short: move it to the front. */
	if (i < s->qn)
		memmove(s->q, s->q + i, (s->qn - i) * sizeof(*s->q));
	s->qn -= i;
	return err;
}

static int finished_round(struct session *s)
{
	int err = 0;

	if (!s->qn)
		return 0;	/* an empty queue leaves next_flush alone */
	if (s->next_flush)
		err = flush_upto(s, s->next_flush);
	s->next_flush = s->max_ts;
	return err;
}

/* ---- reading ---- */

static int process(struct session *s, const struct pd_record *r)
{
	const struct perf_event_header *h = r->hdr;
	const struct pd_evsel *ev;
	uint64_t ts;
	int evsel, err;

	if (h->type < PD_RECORD_MAX && pd_record_name(h->type)) {
		s->nr[h->type]++;
	} else if (!s->nr_unknown++) {
		mperf_log(MPERF_LOG_WARN, "unknown record type %u at offset %#" PRIx64 ": counted as UNKNOWN (later ones are counted silently)",
			  h->type, r->off);
	}
	s->nr[0]++;
	if ((err = ensure_ev_stats(s)))
		return err;

	if (h->type == PD_COMPRESSED)
		return fail(s, -MPERF_ERR_UNSUPP, "compressed record at offset %#" PRIx64 ": files recorded with -z are not supported",
			    r->off);
	if (h->type >= PD_HEADER_ATTR || !pd_record_name(h->type)) {
		err = deliver(s, r->off, h, -1);
		if (!err && h->type == PD_FINISHED_ROUND && s->ordered)
			err = finished_round(s);
		return err;
	}
	evsel = pdata__evsel_of(s->p, h);
	if (evsel < 0) {
		if (h->type == PERF_RECORD_SAMPLE && pdata__nr_evsel(s->p))
			return fail(s, -MPERF_ERR_CORRUPT, "sample at offset %#" PRIx64 " has an id that is in no ids section",
				    r->off);
		return fail(s, -MPERF_ERR_CORRUPT, "%s record at offset %#" PRIx64 " has an id that is in no ids section",
			    pd_record_name(h->type), r->off);
	}
	ev = pdata__evsel(s->p, (size_t)evsel);
	if (s->ordered && pd_sample_time(&ev->attr, h, &ts) == 0 && ts && ts != UINT64_MAX)
		return enqueue(s, ts, r->off, h, r->stable, evsel);
	return deliver(s, r->off, h, evsel);
}

static void print_stats(struct session *s)
{
	struct out *out = s->out;
	uint64_t total = s->nr[0];

	out_str(out, s->mode == SESSION_DUMP ? "\nAggregated stats:\n" : "Aggregated stats:\n");
	out_printf(out, "%16s events: %10" PRIu64 "\n", "TOTAL", total);
	for (int t = 1; t < PD_RECORD_MAX; t++)
		if (s->nr[t] && pd_record_name((uint32_t)t))
			out_printf(out, "%16s events: %10" PRIu64 "  (%4.1f%%)\n", pd_record_name((uint32_t)t),
				s->nr[t], total ? 100.0 * (double)s->nr[t] / (double)total : 0.0);
	if (s->nr_unknown)
		out_printf(out, "%16s events: %10" PRIu64 "  (%4.1f%%)\n", "UNKNOWN", s->nr_unknown,
			100.0 * (double)s->nr_unknown / (double)total);
	/* Per event: its own TOTAL and one row per record type attributed to it. */
	for (size_t i = 0; i < s->ev_cap; i++) {
		if (!s->ev_nr[i][0])
			continue;
		out_printf(out, "%s stats:\n", pdata__evsel(s->p, i)->name);
		out_printf(out, "%16s events: %10" PRIu64 "\n", "TOTAL", s->ev_nr[i][0]);
		for (int t = 1; t < PD_RECORD_MAX; t++)
			if (s->ev_nr[i][t])
				out_printf(out, "%16s events: %10" PRIu64 "\n", pd_record_name((uint32_t)t), s->ev_nr[i][t]);
	}
}

int session__run(struct pdata *p, const char *label, FILE *f, enum session_mode mode,
		 const struct session_ops *ops, char *err, size_t errlen)
{
	bool dump = mode == SESSION_DUMP;
	struct out out;
	struct session s = {
		.p = p,
		.label = pdata__is_pipe(p) ? "pipe" : label,
		.out = &out,
		.mode = mode,
		.ops = ops,
		.qsorted = true,
		.err = err,
		.errlen = errlen,
	};
	struct pd_record r;
	int ret, e;

	err[0] = 0;
	s.m = machine__new();
	if (!s.m || out_init(&out, f)) {
		machine__delete(s.m);
		return fail(&s, -ENOMEM, "out of memory");
	}
	/* perf turns ordering off for files whose events lack sample_id_all (not for pipes). */
	s.ordered = pdata__is_pipe(p) || pdata__sample_id_all(p);
	if (!s.ordered && dump)
		out_str(&out, "WARNING: No sample_id_all support, falling back to unordered processing\n");
	if (dump)
		out_str(&out, "# To display the perf.data header info, please use --header/--header-only options.\n#\n");

	while ((ret = pdata__next(p, &r)) > 0) {
		if ((ret = process(&s, &r)) < 0)
			break;
		if (out.err)	/* nobody reads the rest (a closed pipe, a full disk) */
			break;
	}
	if (ret < 0 && !err[0])
		snprintf(err, errlen, "%s", pdata__errmsg(p)[0] ? pdata__errmsg(p) : mperf_strerror(ret));
	/* What was read before an error is still shown, as perf does. */
	e = flush_upto(&s, UINT64_MAX);
	if (!ret)
		ret = e;
	if (ret == 0 && mode != SESSION_HIST)
		print_stats(&s);
	if (ret == 0 && ops && ops->finish)
		ops->finish(ops->arg, s.m);
	if ((e = out_finish(&out)) && ret >= 0)
		ret = fail(&s, e, "write error on the output: %s", strerror(-e));
	machine__delete(s.m);
	for (size_t i = 0; i < s.qn; i++)
		if (s.q[i].owned)
			free((void *)s.q[i].h);
	free(s.q);
	free(s.qtmp);
	free(s.ev_nr);
	free(s.reads);
	return ret;
}

int report__dump(struct pdata *p, const char *label, FILE *f, char *err, size_t errlen)
{
	return session__run(p, label, f, SESSION_DUMP, NULL, err, errlen);
}

int report__stats(struct pdata *p, FILE *f, char *err, size_t errlen)
{
	return session__run(p, "", f, SESSION_STATS, NULL, err, errlen);
}
