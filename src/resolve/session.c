// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report session: records in file order -> perf's ordered-events queue
 * -> delivery to the consumer, with the machine kept up to date.
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
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "../lib/alloc.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../perfdata/perfdata.h"
#include "machine.h"
#include "session.h"

struct qent {
	uint64_t ts, seq, off;
	const char *path;			/* a directory's file it is in, or NULL */
	const struct perf_event_header *h;	/* into the file image, the reader's buffer, or a copy */
	int evsel;
	int buf;				/* the reader's buffer h is in, held, or -1 */
	bool owned;				/* h is a copy to free after delivery */
};

struct session {
	struct pdata *p;
	const char *label;
	const struct session_ops *ops;
	struct machine *m;			/* with ops->machine */
	bool ordered;

	struct qent *q, *qtmp;	/* the queue, and room to merge it */
	size_t qn, qcap, qtmp_cap;
	bool qsorted;
	uint64_t qmax;		/* largest timestamp in the queue */
	uint64_t max_ts, next_flush, seq;
	uint64_t nr_unknown;
	bool failed;		/* a failure was said: the last flush says no more */
	bool stopped;		/* by the consumer, or for want of memory: not the input's damage */
};

static int oom(void)
{
	return mperf_error(-ENOMEM, "out of memory");
}

/* A consumer's code: it stops the session, and is no damage of the input. */
static int stop(struct session *s, int err)
{
	if (err < 0)
		s->stopped = true;
	return err;
}

static int sample(struct session *s, int ev, const struct pd_sample *smp, int cpumode, uint64_t period,
		  bool from_read)
{
	struct session_sample ss;

	if (!s->ops->sample)
		return 0;
	/* Not an initializer: without the machine, where stays unset (and unread). */
	ss.evsel = ev;
	ss.smp = smp;
	ss.cpumode = cpumode;
	ss.period = period;
	ss.from_read = from_read;
	ss.machine = s->m;
	if (s->m && machine__resolve(s->m, (int)smp->pid, (int)smp->tid, cpumode, smp->ip, &ss.where))
		return oom();
	return stop(s, s->ops->sample(s->ops->arg, &ss));
}

/*
 * A sample with read values weighs, for the event that owns each value's
 * id, what that value grew since the id was last seen; the last value is
 * kept in the id's slot of the reader.  Without ids perf cannot attribute
 * the values, and nor can we.
 */
static int read_values(struct session *s, const struct perf_event_attr *a, const struct pd_sample *smp,
		       int cpumode)
{
	struct pd_read_values rv;
	int err;

	if (!(a->read_format & PERF_FORMAT_ID) || pd_read_parse(a->read_format, smp->read, smp->read_len, &rv) < 0)
		return 0;
	for (uint64_t i = 0; i < rv.nr; i++) {
		struct pd_read_value v;
		struct idmap_slot *id;
		uint64_t delta;

		pd_read_value(&rv, i, &v);
		id = pdata__id(s->p, v.id);
		if (!id || id->value == v.value)
			continue;
		delta = v.value - id->value;
		id->value = v.value;
		if ((err = sample(s, id->idx, smp, cpumode, delta, true)))
			return err;
	}
	return 0;
}

/* Update the machine from a side-band record. */
static int apply(struct session *s, const struct perf_event_header *h)
{
	char name[4096];
	int cpumode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;

	switch (h->type) {
	case PERF_RECORD_COMM: {
		struct pd_comm_event e;

		if (h->size < sizeof(e))
			break;
		PD_VIEW(h, &e);
		return machine__comm(s->m, (int)e.pid, (int)e.tid, pd_rec_str(h, sizeof(e), name, sizeof(name)));
	}
	case PERF_RECORD_FORK: {
		struct pd_fork_event e;
		int rpid, rtid, err;

		if (h->size < offsetof(struct pd_fork_event, time))
			break;
		PD_VIEW(h, &e);
		err = machine__fork(s->m, (int)e.pid, (int)e.tid, (int)e.ppid, (int)e.ptid,
				    h->misc & PERF_RECORD_MISC_FORK_EXEC, &rpid, &rtid);
		if (rtid != -2 && s->ops->thread_removed)
			s->ops->thread_removed(s->ops->arg, rpid, rtid);
		return err;
	}
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		struct pd_mmap mm;

		if (s->ops->no_maps || !pd_mmap_view(h, &mm, name, sizeof(name)))
			break;
		return machine__mmap_prot(s->m, cpumode, (int)mm.pid, (int)mm.tid, mm.start, mm.len, mm.pgoff,
					  mm.exec, mm.flags, h->type == PERF_RECORD_MMAP2 ? mm.prot :
					  mm.exec ? PROT_EXEC : 0, mm.ino, mm.filename);
	}
	case PERF_RECORD_EXIT: {
		struct pd_fork_event e;

		if (s->ops->drop_exited && h->size >= offsetof(struct pd_fork_event, time)) {
			PD_VIEW(h, &e);
			machine__exit(s->m, (int)e.tid);
		}
		break;
	}
	case PERF_RECORD_KSYMBOL: {
		struct pd_ksymbol_event e;

		if (!PD_VIEW(h, &e))
			break;
		return machine__ksymbol(s->m, e.addr, e.len, pd_rec_str(h, sizeof(e), name, sizeof(name)),
					e.flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER);
	}
	}
	return 0;
}

/* Decode a record, hand it to the consumer, then apply it to the machine. */
static int deliver(struct session *s, uint64_t off, const char *path, const struct perf_event_header *h, int evsel)
{
	const struct pd_evsel *ev = evsel >= 0 ? pdata__evsel(s->p, (size_t)evsel) : NULL;
	struct pd_sample smp;
	struct session_record r = { .off = off, .path = path, .h = h, .evsel = evsel, .ev = ev, .smp = &smp, .machine = s->m };
	int cpumode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK, err;

	if (ev) {
		if (pd_parse_sample(&ev->attr, h, &smp)) {
			if (s->failed)
				return -MPERF_ERR_CORRUPT;
			return mperf_error(-MPERF_ERR_CORRUPT, "'%s': %s record at offset %#" PRIx64 " (size %#x): %s runs past the end of the record",
					   s->label, pd_record_name(h->type), off, h->size, smp.bad ? smp.bad : "header");
		}
	} else {
		memset(&smp, 0, sizeof(smp));
	}
	if (s->ops->record && (err = s->ops->record(s->ops->arg, &r)))
		return stop(s, err);
	if (h->type == PERF_RECORD_SAMPLE && ev) {
		if ((ev->attr.sample_type & PERF_SAMPLE_READ) && smp.read)
			return read_values(s, &ev->attr, &smp, cpumode);
		return sample(s, evsel, &smp, cpumode, smp.period, false);
	}
	if (s->m && (err = apply(s, h)))
		return err == -ENOMEM ? oom() : 0;
	if (s->ops->applied && (err = s->ops->applied(s->ops->arg, &r)))
		return stop(s, err);
	return 0;
}

/* ---- the queue ---- */

static int enqueue(struct session *s, uint64_t ts, const struct pd_record *r, int evsel)
{
	const struct perf_event_header *h = r->hdr;
	bool stable = r->stable || r->buf >= 0;
	struct qent *e;

	if (ALLOC_GROW(s->q, s->qn + 1, s->qcap) || ALLOC_GROW(s->qtmp, s->qcap, s->qtmp_cap))
		return oom();
	/* A record in the reader's buffer is kept there, not copied. */
	pdata__hold(s->p, r->buf);
	if (!stable) {
		void *c = malloc(h->size);

		if (!c)
			return oom();
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
	e->off = r->off;
	e->path = r->path;
	e->h = h;
	e->evsel = evsel;
	e->buf = r->buf;
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
			err = deliver(s, s->q[i].off, s->q[i].path, s->q[i].h, s->q[i].evsel);
		if (s->q[i].owned)
			free((void *)s->q[i].h);
		pdata__release(s->p, s->q[i].buf);
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

	if ((h->type >= PD_RECORD_MAX || !pd_record_name(h->type)) && !s->nr_unknown++)
		mperf_log(MPERF_LOG_WARN, "unknown record type %u at offset %#" PRIx64 ": counted as UNKNOWN (later ones are counted silently)",
			  h->type, r->off);
	if (h->type >= PD_HEADER_ATTR || !pd_record_name(h->type)) {
		err = deliver(s, r->off, r->path, h, -1);
		if (!err && h->type == PD_FINISHED_ROUND && s->ordered)
			err = finished_round(s);
		return err;
	}
	evsel = pdata__evsel_of(s->p, h);
	if (evsel < 0)
		return mperf_error(-MPERF_ERR_CORRUPT, "'%s': %s%s at offset %#" PRIx64 " has an id that is in no ids section",
				   s->label, h->type == PERF_RECORD_SAMPLE && pdata__nr_evsel(s->p) ? "sample" :
				   pd_record_name(h->type), h->type == PERF_RECORD_SAMPLE && pdata__nr_evsel(s->p) ? "" : " record",
				   r->off);
	ev = pdata__evsel(s->p, (size_t)evsel);
	if (s->ordered && pd_record_time(&ev->layout, h, &ts) && ts && ts != UINT64_MAX)
		return enqueue(s, ts, r, evsel);
	return deliver(s, r->off, r->path, h, evsel);
}

/* perf makes the dsos of the BUILD_ID feature first, in the file's order. */
static int recorded_dsos(struct machine *m, const struct pdata *p)
{
	struct pd_build_id e;
	size_t pos = 0;

	while (pdata__build_id_next(p, &pos, &e))
		if (machine__recorded_dso(m, e.name))
			return -ENOMEM;
	return 0;
}

/* s set up to read p: the machine (with ops->machine), the ordering. */
static int session_init(struct session *s, struct pdata *p, const char *label, const struct session_ops *ops)
{
	*s = (struct session){ .p = p, .label = label, .ops = ops, .qsorted = true };
	if (ops->machine && (!(s->m = machine__new()) || recorded_dsos(s->m, p)))
		return machine__delete(s->m), s->m = NULL, oom();
	/* perf turns ordering off for files whose events lack sample_id_all (not for pipes), or when asked. */
	s->ordered = !ops->unordered && (pdata__is_pipe(p) || pdata__sample_id_all(p));
	return 0;
}

/* Every record there is now: 0 at the end of the input, or the first failure. */
static int session_read(struct session *s)
{
	struct pd_record r;
	int ret;

	while ((ret = pdata__next(s->p, &r)) > 0)
		if ((ret = process(s, &r)) < 0)
			break;
	return ret;
}

/* The queue and the machine freed. */
static void session_release(struct session *s)
{
	machine__delete(s->m);
	for (size_t i = 0; i < s->qn; i++) {
		if (s->q[i].owned)
			free((void *)s->q[i].h);
		pdata__release(s->p, s->q[i].buf);
	}
	free(s->q);
	free(s->qtmp);
}

int session__run(struct pdata *p, const char *label, const struct session_ops *ops)
{
	struct session s;
	int ret, e;

	if ((ret = session_init(&s, p, label, ops)))
		return ret;
	ret = session_read(&s);
	/* What was read before an error is still delivered, as perf does; the error was said. */
	s.failed = ret < 0;
	e = flush_upto(&s, UINT64_MAX);
	if (!ret)
		ret = e;
	/* Damaged input, said: a consumer that asks for it still ends with what was read. */
	if (ret == -ENOMEM || e == -ENOMEM)
		s.stopped = true;
	if (ops->finish && (!ret || (ops->partial && !s.stopped))) {
		e = ops->finish(ops->arg, s.m);
		if (!ret || e < 0)
			ret = e;
	}
	session_release(&s);
	return ret;
}

/* ---- a stream that grows: mperf top's ---- */

struct session *session__open(struct pdata *p, const char *label, const struct session_ops *ops)
{
	struct session *s = malloc(sizeof(*s));
	int err;

	if (!s) {
		errno = -oom();
		return NULL;
	}
	if ((err = session_init(s, p, label, ops))) {
		free(s);
		errno = -err;
		return NULL;
	}
	return s;
}

int session__more(struct session *s)
{
	return session_read(s);
}

struct machine *session__machine(struct session *s)
{
	return s->m;
}

void session__close(struct session *s)
{
	if (!s)
		return;
	session_release(s);
	free(s);
}

const void *session__held(const struct session *s)
{
	const void *low = NULL;

	for (size_t i = 0; i < s->qn; i++)
		if (!s->q[i].owned && s->q[i].buf < 0 && (!low || (const void *)s->q[i].h < low))
			low = s->q[i].h;
	return low;
}
