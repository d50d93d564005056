// SPDX-License-Identifier: GPL-2.0-only
/*
 * mperf diff: two files' histograms (hist.c's entries, through report.h),
 * matched entry by entry as perf diff 6.1 matches them, and printed in its
 * Baseline/Delta shape, or as JSON with the largest moves first.
 *
 * perf diff's model, which this follows:
 * - each file's entries are collapsed by the sort keys' names (the same
 *   DSO name and symbol name are one entry, whatever their addresses; all
 *   unresolved addresses of a DSO are one entry), the first in perf's
 *   input order giving what is shown;
 * - every event of the baseline is printed, matched with the first event
 *   of the new file of the same type and config; the new file's entries
 *   without a match join the baseline's as "dummy" entries, with no
 *   baseline share (not with -b, which also drops the baseline's entries
 *   without a match);
 * - the computed column (delta, ratio, weighted diff) is computed with
 *   the totals of every sample read, before -b drops entries; the
 *   Baseline column afterwards, with the total of the entries kept.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "../lib/err.h"
#include "../lib/hash.h"
#include "../lib/log.h"
#include "../perfdata/perfdata.h"
#include "out.h"
#include "report.h"
#include "sortkey.h"

#define CBUCKETS 4096

/* One file's entry, collapsed by the keys' names. */
struct cent {
	struct cent *next;		/* hash chain */
	struct report_entry e;		/* the first one's (what is shown); period and samples summed */
	struct sort_row k;		/* e's, for the sort keys */
	struct cent *pair;		/* the other file's, once matched */
};

/* One file's event, collapsed. */
struct cev {
	struct cent *v;			/* in perf's input order */
	size_t n;
	struct cent *buckets[CBUCKETS];
	uint64_t total_period, shown_period, nr_samples, lost;
};

/* A row: a baseline entry (with its pair, if any), or a dummy for a new-only entry. */
struct row {
	const struct cent *b;		/* NULL: a dummy */
	const struct cent *n;		/* the new file's, or NULL */
	const struct report_entry *e;	/* what is shown: the baseline's, or the new one's */
	const struct sort_row *k;	/* its keys' fields */
	uint64_t bperiod, nperiod;
	double delta, ratio;		/* computed when n */
	int64_t wdiff;
};

struct diff {
	const struct report_diff_opts *o;
	bool key[REPORT_NR_KEYS];
	bool elided[REPORT_NR_KEYS];
};

/* Whether a and b are one entry by the keys' names (sort_key's match). */
static bool same_names(const struct diff *D, const struct sort_row *a, const struct sort_row *b)
{
	for (int i = 0; i < D->o->hist.nr_keys; i++) {
		const struct sort_key *k = sort_key(D->o->hist.keys[i]);

		if (!(k->match ? k->match : k->eq)(a, b))
			return false;
	}
	return true;
}

static uint64_t hash_names(const struct diff *D, const struct sort_row *e)
{
	uint64_t h = HASH_FNV_INIT;

	for (int i = 0; i < D->o->hist.nr_keys; i++) {
		const struct sort_key *k = sort_key(D->o->hist.keys[i]);

		h = (k->match_hash ? k->match_hash : k->hash)(h, e);
	}
	return h ^ (h >> 29);
}

static struct cent *find(const struct diff *D, const struct cev *c, const struct sort_row *e, size_t *bucket)
{
	*bucket = hash_names(D, e) % CBUCKETS;
	for (struct cent *x = c->buckets[*bucket]; x; x = x->next)
		if (same_names(D, &x->k, e))
			return x;
	return NULL;
}

/* Event ev of h, collapsed into c (zeroed by the caller). */
static int collapse(const struct diff *D, const struct report_hists *h, size_t ev, struct cev *c)
{
	struct report_event_hist eh;
	size_t cap = 0;

	if (ev >= report_hists__nr_events(h))
		return 0;	/* an event without a sample, in a stream */
	report_hists__event(h, ev, &eh);
	c->total_period = eh.total_period;
	c->shown_period = eh.shown_period;
	c->nr_samples = eh.nr_samples;
	c->lost = eh.lost;
	if (eh.nr_entries && ALLOC_GROW(c->v, eh.nr_entries, cap))
		return -ENOMEM;
	for (size_t i = 0; i < eh.nr_entries; i++) {
		struct report_entry e;
		struct sort_row k;
		struct cent *x;
		size_t b;

		report_hists__entry(h, ev, i, &e);
		sort_row_of_entry(&e, &k);
		if ((x = find(D, c, &k, &b))) {
			x->e.period += e.period;
			x->e.samples += e.samples;
			continue;
		}
		x = &c->v[c->n++];
		x->e = e;
		x->k = k;
		x->pair = NULL;
		x->next = c->buckets[b];
		c->buckets[b] = x;
	}
	return 0;
}

static double percent(uint64_t period, uint64_t total)
{
	return total ? ((double)period * 100.0) / (double)total : 0.0;
}

/* -1 when a comes first, as perf's sort functions of the keys order entries. */
static int keys_order(const struct diff *D, const struct sort_row *a, const struct sort_row *b)
{
	const struct report_hist_opts *o = &D->o->hist;
	int c = 0;

	for (int i = 0; i < o->nr_keys && !c; i++)
		if (!D->elided[o->keys[i]])
			c = sort_key(o->keys[i])->sort(a, b);
	return c;
}

static int cmp_doubles(double l, double r)
{
	return l > r ? -1 : l < r ? 1 : 0;
}

/* perf's comparison of two computed values: > 0 when x's goes first. */
static int compute_order(enum report_diff_compute c, const struct row *x, const struct row *y)
{
	switch (c) {
	case REPORT_DIFF_DELTA:
		return cmp_doubles(y->delta, x->delta);
	case REPORT_DIFF_DELTA_ABS:
		return cmp_doubles(fabs(y->delta), fabs(x->delta));
	case REPORT_DIFF_RATIO:
		return cmp_doubles(y->ratio, x->ratio);
	case REPORT_DIFF_WDIFF:
		return x->wdiff > y->wdiff ? 1 : x->wdiff < y->wdiff ? -1 : 0;
	}
	return 0;
}

/*
 * perf diff's output order, > 0 when x goes first: with -o 1 the computed
 * column (entries with a new value first; for ratio and wdiff, dummies
 * after the others), then the baseline period, then the computed column
 * again (entries with a new value first), then the keys.
 */
static int row_order(const struct diff *D, const struct row *x, const struct row *y)
{
	enum report_diff_compute c = D->o->compute;
	int r;

	if (D->o->order) {
		if (!x->n != !y->n)
			return x->n ? 1 : -1;
		if (x->n) {
			if (c != REPORT_DIFF_DELTA && c != REPORT_DIFF_DELTA_ABS && !x->b != !y->b)
				return x->b ? 1 : -1;
			if ((r = compute_order(c, x, y)))
				return r;
		}
	}
	if (x->bperiod != y->bperiod)
		return x->bperiod > y->bperiod ? 1 : -1;
	if (!x->n != !y->n)
		return x->n ? 1 : -1;
	if (x->n && (r = compute_order(c, x, y)))
		return r;
	return -keys_order(D, x->k, y->k);
}

static int row_cmp(const void *pa, const void *pb, void *ctx)
{
	return -row_order(ctx, pa, pb);
}

/* For JSON: the largest move first (a vanished entry moved by its whole share), then perf's order. */
struct json_ctx {
	const struct diff *D;
	uint64_t btotal, ntotal;
};

static double move_of(const struct json_ctx *J, const struct row *r)
{
	return percent(r->nperiod, J->ntotal) - percent(r->bperiod, J->btotal);
}

static int move_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct json_ctx *J = ctx;
	const struct row *x = pa, *y = pb;
	double mx = fabs(move_of(J, x)), my = fabs(move_of(J, y));

	if (mx != my)
		return mx > my ? -1 : 1;
	return -row_order(J->D, x, y);
}

/* ---- text ---- */

/* The diff columns, as perf registers them: baseline, its period, the computed one, formula, period. */
enum dcol { DCOL_BASELINE, DCOL_BASE_PERIOD, DCOL_COMPUTE, DCOL_FORMULA, DCOL_PERIOD };

static const char *compute_header(enum report_diff_compute c, int *width)
{
	switch (c) {
	case REPORT_DIFF_DELTA: *width = 7; return "Delta";
	case REPORT_DIFF_DELTA_ABS: *width = 9; return "Delta Abs";
	case REPORT_DIFF_RATIO: *width = 14; return "Ratio";
	case REPORT_DIFF_WDIFF: *width = 14; return "Weighted diff";
	}
	*width = 7;
	return "Delta";
}

static void print_dcell(struct out *out, const struct diff *D, enum dcol col, const struct row *r,
			uint64_t btotal_now, uint64_t ntotal, int width)
{
	const struct report_diff_opts *o = D->o;
	char buf[128];

	buf[0] = '\0';
	switch (col) {
	case DCOL_BASELINE:
		if (r->b)
			snprintf(buf, sizeof(buf), "%*.2f%%", width - 1, percent(r->bperiod, btotal_now));
		break;
	case DCOL_BASE_PERIOD:
		snprintf(buf, sizeof(buf), "%" PRIu64, r->bperiod);
		break;
	case DCOL_COMPUTE:
		if (!r->n)
			break;
		switch (o->compute) {
		case REPORT_DIFF_DELTA:
		case REPORT_DIFF_DELTA_ABS:
			snprintf(buf, sizeof(buf), "%+*.2f%%", width - 1, r->delta);
			break;
		case REPORT_DIFF_RATIO:
			if (r->b)
				snprintf(buf, sizeof(buf), "%*.6f", width, r->ratio);
			else
				snprintf(buf, sizeof(buf), "N/A");
			break;
		case REPORT_DIFF_WDIFF:
			if (r->b)
				snprintf(buf, sizeof(buf), "%14" PRId64, r->wdiff);
			else
				snprintf(buf, sizeof(buf), "N/A");
			break;
		}
		break;
	case DCOL_FORMULA:
		if (!r->n)
			break;
		switch (o->compute) {
		case REPORT_DIFF_DELTA:
		case REPORT_DIFF_DELTA_ABS:
			snprintf(buf, 70, "(%" PRIu64 " * 100 / %" PRIu64 ") - (%" PRIu64 " * 100 / %" PRIu64 ")",
				 r->nperiod, ntotal, r->bperiod, btotal_now);
			break;
		case REPORT_DIFF_RATIO:
			snprintf(buf, 70, "%.0f / %.0f", (double)r->nperiod, (double)r->bperiod);
			break;
		case REPORT_DIFF_WDIFF:
			snprintf(buf, 70, "(%" PRIu64 " * %lld) - (%" PRIu64 " * %lld)", r->nperiod, o->wdiff_w2,
				 r->bperiod, o->wdiff_w1);
			break;
		}
		break;
	case DCOL_PERIOD:
		if (r->n)
			snprintf(buf, sizeof(buf), "%" PRIu64, r->nperiod);
		break;
	}
	out_printf(out, "%*s", width, buf);
}

/* ---- one event ---- */

struct event_rows {
	struct row *rows;
	size_t nr;
	uint64_t btotal, ntotal;	/* the totals the computed column used */
	uint64_t btotal_now;		/* the baseline's total once -b dropped entries (its column's) */
};

static int build_rows(const struct diff *D, struct cev *b, struct cev *n, bool matched, struct event_rows *er)
{
	const struct report_diff_opts *o = D->o;
	size_t cap = 0;

	memset(er, 0, sizeof(*er));
	er->btotal = o->relative ? b->shown_period : b->total_period;
	er->ntotal = o->relative ? n->shown_period : n->total_period;
	if (matched)
		for (size_t i = 0; i < b->n; i++) {
			size_t bucket;
			struct cent *p = find(D, n, &b->v[i].k, &bucket);

			if (p) {
				b->v[i].pair = p;
				p->pair = &b->v[i];
			}
		}
	for (size_t i = 0; i < b->n; i++) {
		struct row *r;

		if (o->baseline_only && !b->v[i].pair)
			continue;
		if (ALLOC_GROW(er->rows, er->nr + 1, cap))
			return -ENOMEM;
		r = &er->rows[er->nr++];
		*r = (struct row){ .b = &b->v[i], .n = b->v[i].pair, .e = &b->v[i].e, .k = &b->v[i].k,
				   .bperiod = b->v[i].e.period };
	}
	if (matched && !o->baseline_only)
		for (size_t i = 0; i < n->n; i++) {
			struct row *r;

			if (n->v[i].pair)
				continue;
			if (ALLOC_GROW(er->rows, er->nr + 1, cap))
				return -ENOMEM;
			r = &er->rows[er->nr++];
			*r = (struct row){ .n = &n->v[i], .e = &n->v[i].e, .k = &n->v[i].k };
		}
	/* The computed values, with the totals of everything read. */
	for (size_t i = 0; i < er->nr; i++) {
		struct row *r = &er->rows[i];

		if (!r->n)
			continue;
		r->nperiod = r->n->e.period;
		r->delta = percent(r->nperiod, er->ntotal) - percent(r->bperiod, er->btotal);
		r->ratio = (double)r->nperiod / (double)(r->bperiod ? r->bperiod : 1);
		r->wdiff = (int64_t)(r->nperiod * (uint64_t)o->wdiff_w2 - r->bperiod * (uint64_t)o->wdiff_w1);
	}
	/* The Baseline column's total: the entries kept (perf's output resort counts them again). */
	for (size_t i = 0; i < er->nr; i++)
		if (!o->relative || !er->rows[i].e->filtered)
			er->btotal_now += er->rows[i].bperiod;
	return 0;
}

static void print_event_text(const struct diff *D, struct out *out, const char *name, struct event_rows *er,
			     bool first)
{
	const struct report_diff_opts *o = D->o;
	const struct report_hist_opts *ho = &o->hist;
	enum report_key cols[REPORT_MAX_KEYS];
	int width[REPORT_MAX_KEYS] = { 0 }, nc = 0;
	enum dcol dcols[5];
	const char *dhead[5];
	int dwidth[5], nd = 0, cw;
	bool unresolved = false;
	const char *ch = compute_header(o->compute, &cw);

	dcols[nd] = DCOL_BASELINE, dhead[nd] = "Baseline", dwidth[nd++] = 8;
	if (o->period)
		dcols[nd] = DCOL_BASE_PERIOD, dhead[nd] = "Base period", dwidth[nd++] = 14;
	dcols[nd] = DCOL_COMPUTE, dhead[nd] = ch, dwidth[nd++] = cw;
	if (o->formula)
		dcols[nd] = DCOL_FORMULA, dhead[nd] = "Formula", dwidth[nd++] = 70;
	if (o->period)
		dcols[nd] = DCOL_PERIOD, dhead[nd] = "Period", dwidth[nd++] = 14;

	for (int k = 0; k < ho->nr_keys; k++)
		if (!D->elided[ho->keys[k]])
			cols[nc++] = ho->keys[k];
	for (int c = 0; c < nc; c++)
		width[c] = (int)strlen(sort_key(cols[c])->header);
	for (size_t i = 0; i < er->nr; i++) {
		const struct report_entry *e = er->rows[i].e;
		const struct sort_row *k = er->rows[i].k;

		if (e->filtered)
			continue;
		unresolved |= !e->sym && D->key[REPORT_KEY_SYM];
		for (int c = 0; c < nc; c++)
			if ((int)sort_key(cols[c])->width(k) > width[c])
				width[c] = (int)sort_key(cols[c])->width(k);
	}
	for (int c = 0; c < nc; c++)
		if (cols[c] == REPORT_KEY_DSO && unresolved && !ho->dso && width[c] < 16)
			width[c] = 16;

	if (!o->quiet) {
		out_printf(out, "%s# Event '%s'\n#\n", first ? "" : "\n", name);
		out_str(out, "#");
		for (int d = 0; d < nd; d++)
			out_printf(out, "%s%*s", d ? "  " : " ", dwidth[d], dhead[d]);
		for (int c = 0; c < nc; c++)
			out_printf(out, "  %-*.*s", width[c], width[c], sort_key(cols[c])->header);
		out_str(out, "\n#");
		for (int d = 0; d < nd; d++) {
			out_str(out, d ? "  " : " ");
			for (int w = 0; w < dwidth[d]; w++)
				out_char(out, '.');
		}
		for (int c = 0; c < nc; c++) {
			out_str(out, "  ");
			for (int w = 0; w < width[c]; w++)
				out_char(out, '.');
		}
		out_str(out, "\n#\n");
	}
	for (size_t i = 0; i < er->nr; i++) {
		const struct row *r = &er->rows[i];

		if (r->e->filtered)
			continue;
		for (int d = 0; d < nd; d++) {
			out_str(out, "  ");
			print_dcell(out, D, dcols[d], r, er->btotal_now, er->ntotal, dwidth[d]);
		}
		for (int c = 0; c < nc; c++) {
			out_str(out, "  ");
			sort_key(cols[c])->print(out, r->k, width[c], c + 1 == nc, NULL);
		}
		out_char(out, '\n');
	}
}

/* ---- JSON ---- */

static void json_side(struct out *out, const struct cev *c)
{
	out_printf(out, "{\"samples\": %" PRIu64 ", \"event-count\": %" PRIu64 ", \"lost-samples\": %" PRIu64 "}",
		   c->nr_samples, c->total_period, c->lost);
}

static void print_event_json(const struct diff *D, struct out *out, const char *name, const struct cev *b,
			     const struct cev *n, bool matched, struct event_rows *er, bool first)
{
	const struct report_hist_opts *ho = &D->o->hist;
	struct json_ctx J = { .D = D, .btotal = er->btotal, .ntotal = er->ntotal };
	bool first_row = true;

	qsort_r(er->rows, er->nr, sizeof(*er->rows), move_cmp, &J);
	out_str(out, first ? "\n    {\"name\": " : ",\n    {\"name\": ");
	out_json_str(out, name);
	out_str(out, ",\n     \"baseline\": ");
	json_side(out, b);
	out_str(out, ",\n     \"new\": ");
	if (matched)
		json_side(out, n);
	else
		out_str(out, "null");
	out_str(out, ",\n     \"entries\": [");
	for (size_t i = 0; i < er->nr; i++) {
		const struct row *r = &er->rows[i];
		const struct report_entry *e = r->e;

		if (e->filtered)
			continue;
		out_str(out, first_row ? "\n      {" : ",\n      {");
		first_row = false;
		if (r->b)
			out_printf(out, "\"baseline\": %.6f", percent(r->bperiod, er->btotal));
		else
			out_str(out, "\"baseline\": null");
		if (r->n)
			out_printf(out, ", \"new\": %.6f", percent(r->nperiod, er->ntotal));
		else
			out_str(out, ", \"new\": null");
		out_printf(out, ", \"delta\": %.6f", move_of(&J, r));
		out_printf(out, ", \"baseline-period\": %" PRIu64 ", \"new-period\": %" PRIu64, r->bperiod, r->nperiod);
		out_str(out, ", \"only\": ");
		out_str(out, !r->b ? "\"new\"" : !r->n ? "\"baseline\"" : "null");
		for (int k = 0; k < ho->nr_keys; k++)
			sort_key(ho->keys[k])->json(out, r->k, true);
		out_char(out, '}');
	}
	out_str(out, first_row ? "]}" : "\n     ]}");
}

/* ---- the two files ---- */

struct reader {
	struct pdata *p;
	const char *label;
	const struct report_hist_opts *o;
	struct report_hists *h;
	int ret;
};

static void *read_file(void *arg)
{
	struct reader *r = arg;

	r->ret = report__hists_read(r->p, r->label, r->o, &r->h);
	return NULL;
}

/* The new file's event that perf diff matches with the baseline's: the first of its type and config. */
static int match_event(struct pdata *new_, const struct pd_evsel *b)
{
	for (size_t j = 0; j < pdata__nr_evsel(new_); j++) {
		const struct pd_evsel *n = pdata__evsel(new_, j);

		if (n->attr.type == b->attr.type && n->attr.config == b->attr.config)
			return (int)j;
	}
	return -1;
}

static void set_keys(struct diff *D)
{
	const struct report_hist_opts *o = &D->o->hist;
	bool all = true;

	for (int k = 0; k < o->nr_keys; k++) {
		enum report_key key = o->keys[k];

		D->key[key] = true;
		/* a filter of one value elides its column, as perf's sort__setup_elide */
		D->elided[key] = sort_key_single_value(key, o) != NULL;
		all &= D->elided[key];
	}
	if (all)
		memset(D->elided, 0, sizeof(D->elided));
}

static void cev_free(struct cev *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}

int report__diff(struct pdata *old, const char *old_label, struct pdata *new_, const char *new_label,
		 const struct report_diff_opts *o, FILE *f)
{
	struct diff D = { .o = o };
	struct reader ro = { .p = old, .label = old_label, .o = &o->hist };
	struct reader rn = { .p = new_, .label = new_label, .o = &o->hist };
	pthread_t t;
	bool threaded;
	struct out out;
	struct cev *b = NULL, *n = NULL;
	int ret = 0;

	set_keys(&D);
	/* The two files at once, each in its own session. */
	threaded = pthread_create(&t, NULL, read_file, &rn) == 0;
	read_file(&ro);
	if (threaded)
		pthread_join(t, NULL);
	else
		read_file(&rn);
	if (ro.ret < 0 || rn.ret < 0) {
		ret = ro.ret < 0 ? ro.ret : rn.ret;
		goto out_free;
	}
	b = calloc(1, sizeof(*b));
	n = calloc(1, sizeof(*n));
	if (!b || !n || out_init(&out, f)) {
		ret = mperf_error(-ENOMEM, "out of memory");
		goto out_free;
	}
	if (o->json) {
		out_str(&out, "{\n  ");
		out_json_head(&out, "diff", REPORT_DIFF_JSON_VERSION);
		out_str(&out, ",\n  \"baseline\": ");
		out_json_str(&out, old_label);
		out_str(&out, ",\n  \"new\": ");
		out_json_str(&out, new_label);
		out_str(&out, ",\n  \"sort\": [");
		for (int k = 0; k < o->hist.nr_keys; k++)
			out_printf(&out, "%s\"%s\"", k ? ", " : "", sort_key(o->hist.keys[k])->name);
		out_printf(&out, "],\n  \"percentage\": \"%s\",\n  \"events\": [", o->relative ? "relative" : "absolute");
	}
	for (size_t i = 0; i < pdata__nr_evsel(old) && ret >= 0; i++) {
		const struct pd_evsel *ev = pdata__evsel(old, i);
		int j = match_event(new_, ev);
		struct event_rows er;

		if ((ret = collapse(&D, ro.h, i, b)) < 0 || (j >= 0 && (ret = collapse(&D, rn.h, (size_t)j, n)) < 0) ||
		    (ret = build_rows(&D, b, n, j >= 0, &er)) < 0) {
			ret = mperf_error(-ENOMEM, "out of memory");
			break;
		}
		if (o->json) {
			print_event_json(&D, &out, ev->name, b, n, j >= 0, &er, i == 0);
		} else {
			qsort_r(er.rows, er.nr, sizeof(*er.rows), row_cmp, &D);
			print_event_text(&D, &out, ev->name, &er, i == 0);
		}
		free(er.rows);
		cev_free(b);
		cev_free(n);
	}
	if (o->json && ret >= 0) {
		bool first = true;

		out_str(&out, pdata__nr_evsel(old) ? "\n  ],\n  \"new-only-events\": [" : "],\n  \"new-only-events\": [");
		/* The new file's events that no baseline event matches: perf diff shows none of them. */
		for (size_t j = 0; j < pdata__nr_evsel(new_); j++) {
			const struct pd_evsel *nev = pdata__evsel(new_, j);
			bool found = false;

			for (size_t i = 0; i < pdata__nr_evsel(old) && !found; i++)
				found = match_event(new_, pdata__evsel(old, i)) == (int)j;
			if (found)
				continue;
			out_str(&out, first ? "" : ", ");
			first = false;
			out_json_str(&out, nev->name);
		}
		out_str(&out, "]\n}\n");
	}
	ret = out_close(&out, ret, old_label);
out_free:
	free(b);
	free(n);
	report_hists__free(ro.h);
	report_hists__free(rn.h);
	return ret;
}
