// SPDX-License-Identifier: GPL-2.0-only
/*
 * The end block of -D: how many records of each type the file has, and
 * per event its own TOTAL and a row per record type, so that a starved
 * event shows at a glance.  The per-event LOST_SAMPLES row counts the
 * samples lost, not the records that say so (as perf report --stats).  A session consumer (report --stats), and part
 * of the dump's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "out.h"
#include "report.h"
#include "../resolve/session.h"
#include "stats.h"

struct stats {
	struct pdata *p;
	uint64_t nr[PD_RECORD_MAX];
	uint64_t nr_unknown;
	uint64_t (*ev_nr)[PD_RECORD_MAX];	/* per event */
	size_t nr_ev, ev_cap;
};

struct stats *stats__new(struct pdata *p)
{
	struct stats *st = calloc(1, sizeof(*st));

	if (st)
		st->p = p;
	return st;
}

void stats__delete(struct stats *st)
{
	if (!st)
		return;
	free(st->ev_nr);
	free(st);
}

/* Pipe mode adds events as the stream goes: grow with them. */
static uint64_t *ev_row(struct stats *st, int evsel)
{
	size_t need = (size_t)evsel + 1;

	if (need > st->nr_ev) {
		size_t old = st->ev_cap;

		if (ALLOC_GROW(st->ev_nr, need, st->ev_cap))
			return NULL;
		memset(&st->ev_nr[old], 0, (st->ev_cap - old) * sizeof(*st->ev_nr));
		st->nr_ev = need;
	}
	return st->ev_nr[evsel];
}

int stats__record(struct stats *st, const struct session_record *r)
{
	const struct perf_event_header *h = r->h;
	const struct pd_evsel *ev = r->ev;
	uint64_t *row;

	if (h->type < PD_RECORD_MAX && pd_record_name(h->type))
		st->nr[h->type]++;
	else
		st->nr_unknown++;
	st->nr[0]++;
	/* READ samples count per value, in stats__sample(). */
	if (!ev || (h->type == PERF_RECORD_SAMPLE && (ev->attr.sample_type & PERF_SAMPLE_READ) && r->smp->read))
		return 0;
	if (!(row = ev_row(st, r->evsel)))
		return mperf_error(-ENOMEM, "out of memory");
	row[0]++;
	if (h->type == PERF_RECORD_LOST_SAMPLES) {
		struct pd_lost_samples_event e;

		PD_VIEW(h, &e);
		row[h->type] += e.lost;
	} else {
		row[h->type]++;
	}
	return 0;
}

int stats__sample(struct stats *st, const struct session_sample *ss)
{
	uint64_t *row;

	if (!ss->from_read)
		return 0;
	if (!(row = ev_row(st, ss->evsel)))
		return mperf_error(-ENOMEM, "out of memory");
	row[0]++;
	row[PERF_RECORD_SAMPLE]++;
	return 0;
}

void stats__print(const struct stats *st, struct out *out, bool after_dump)
{
	uint64_t total = st->nr[0];

	out_str(out, after_dump ? "\nAggregated stats:\n" : "Aggregated stats:\n");
	out_printf(out, "%16s events: %10" PRIu64 "\n", "TOTAL", total);
	for (int t = 1; t < PD_RECORD_MAX; t++)
		if (st->nr[t] && pd_record_name((uint32_t)t))
			out_printf(out, "%16s events: %10" PRIu64 "  (%4.1f%%)\n", pd_record_name((uint32_t)t),
				   st->nr[t], total ? 100.0 * (double)st->nr[t] / (double)total : 0.0);
	if (st->nr_unknown)
		out_printf(out, "%16s events: %10" PRIu64 "  (%4.1f%%)\n", "UNKNOWN", st->nr_unknown,
			   100.0 * (double)st->nr_unknown / (double)total);
	/* Per event: its own TOTAL and one row per record type attributed to it. */
	for (size_t i = 0; i < st->nr_ev; i++) {
		if (!st->ev_nr[i][0])
			continue;
		out_printf(out, "%s stats:\n", pdata__evsel(st->p, i)->name);
		out_printf(out, "%16s events: %10" PRIu64 "\n", "TOTAL", st->ev_nr[i][0]);
		for (int t = 1; t < PD_RECORD_MAX; t++)
			if (st->ev_nr[i][t])
				out_printf(out, "%16s events: %10" PRIu64 "\n", pd_record_name((uint32_t)t), st->ev_nr[i][t]);
	}
}

/* ---- report --stats ---- */

static int stats_record(void *arg, const struct session_record *r)
{
	return stats__record(arg, r);
}

static int stats_sample(void *arg, const struct session_sample *ss)
{
	return stats__sample(arg, ss);
}

int report__stats(struct pdata *p, const char *label, FILE *f)
{
	struct stats *st = stats__new(p);
	struct session_ops ops = { .record = stats_record, .sample = stats_sample, .arg = st };
	struct out out;
	int ret;

	if (!st || out_init(&out, f)) {
		stats__delete(st);
		return mperf_error(-ENOMEM, "out of memory");
	}
	/* Counting only: no machine, nothing printed until the end. */
	ret = session__run(p, label, &ops);
	if (!ret)
		stats__print(st, &out, false);
	ret = out_close(&out, ret, label);
	stats__delete(st);
	return ret;
}

/* ---- what --check and --stats --json read ---- */

struct file_stats {
	struct pdata *p;
	struct report_file_stats *fs;
	/*
	 * The kernel counts a sample lost to a full buffer both in the LOST
	 * record of the buffer's owner and in the event's own lost count
	 * (read_format LOST, written as LOST_SAMPLES): LOST records are
	 * attributed, by id, only to a file without LOST_SAMPLES.
	 */
	uint64_t *lost_rec;
	size_t cap;
	bool lost_samples;
};

static int fs_grow(struct file_stats *f)
{
	size_t n = pdata__nr_evsel(f->p);

	/* Pipe mode adds events as the stream goes. */
	if (n > f->fs->nr_events) {
		struct report_event_stats *ev = realloc(f->fs->ev, n * sizeof(*ev));

		if (!ev)
			return mperf_error(-ENOMEM, "out of memory");
		memset(ev + f->fs->nr_events, 0, (n - f->fs->nr_events) * sizeof(*ev));
		f->fs->ev = ev;
		if (ALLOC_GROW(f->lost_rec, n, f->cap))
			return mperf_error(-ENOMEM, "out of memory");
		memset(f->lost_rec + f->fs->nr_events, 0, (n - f->fs->nr_events) * sizeof(*f->lost_rec));
		f->fs->nr_events = n;
	}
	return 0;
}

static int fs_record(void *arg, const struct session_record *r)
{
	struct file_stats *f = arg;
	const struct perf_event_header *h = r->h;
	int err, ev;

	if ((err = fs_grow(f)))
		return err;
	f->fs->records++;
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (r->evsel >= 0 && !((r->ev->attr.sample_type & PERF_SAMPLE_READ) && r->smp->read)) {
			f->fs->ev[r->evsel].samples++;
			if (r->smp->time && (!f->fs->first_time || r->smp->time < f->fs->first_time))
				f->fs->first_time = r->smp->time;
			if (r->smp->time > f->fs->last_time)
				f->fs->last_time = r->smp->time;
		}
		break;
	case PERF_RECORD_LOST_SAMPLES: {
		struct pd_lost_samples_event e;

		PD_VIEW(h, &e);
		f->lost_samples = true;
		if (r->evsel >= 0)
			f->fs->ev[r->evsel].lost += e.lost;
		break;
	}
	case PERF_RECORD_LOST: {
		struct pd_lost_event e;

		PD_VIEW(h, &e);
		f->fs->lost_records++;
		f->fs->lost_events += e.lost;
		ev = pdata__nr_evsel(f->p) == 1 ? 0 : pdata__evsel_by_id(f->p, e.id);
		if (ev >= 0 && (size_t)ev < f->fs->nr_events)
			f->lost_rec[ev] += e.lost;
		break;
	}
	case PERF_RECORD_THROTTLE: {
		struct pd_throttle_event e;

		PD_VIEW(h, &e);
		ev = pdata__nr_evsel(f->p) == 1 ? 0 : pdata__evsel_by_id(f->p, e.id);
		if (ev >= 0 && (size_t)ev < f->fs->nr_events)
			f->fs->ev[ev].throttles++;
		break;
	}
	default:
		break;
	}
	return 0;
}

static int fs_sample(void *arg, const struct session_sample *ss)
{
	struct file_stats *f = arg;
	int err;

	if (!ss->from_read)
		return 0;
	if ((err = fs_grow(f)))
		return err;
	if (ss->evsel >= 0 && (size_t)ss->evsel < f->fs->nr_events)
		f->fs->ev[ss->evsel].samples++;
	return 0;
}

int report__file_stats(struct pdata *p, const char *label, struct report_file_stats *fs)
{
	struct file_stats f = { .p = p, .fs = fs };
	struct session_ops ops = { .record = fs_record, .sample = fs_sample, .arg = &f };
	int ret, damage = 0;

	memset(fs, 0, sizeof(*fs));
	if ((ret = fs_grow(&f)))
		return ret;
	ret = session__run(p, label, &ops);
	/* Damage (said by the reader): the figures of the records before it, and the damage. */
	if (ret == -MPERF_ERR_TRUNCATED || ret == -MPERF_ERR_CORRUPT) {
		damage = ret;
		ret = 0;
	}
	if ((ret = ret ? ret : fs_grow(&f))) {
		free(f.lost_rec);
		return ret;
	}
	for (size_t i = 0; i < fs->nr_events; i++) {
		fs->ev[i].name = pdata__evsel(p, i)->name;
		fs->ev[i].attr = &pdata__evsel(p, i)->attr;
		if (!f.lost_samples)
			fs->ev[i].lost = f.lost_rec[i];
	}
	free(f.lost_rec);
	return damage;
}
