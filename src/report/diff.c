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
#include "../lib/mwu.h"
#include "../lib/proptest.h"
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

/* One run's totals of an event. */
struct crun {
	uint64_t total_period, shown_period, nr_samples, lost;
	bool has;			/* the run has the event */
};

/* One side's event, collapsed: its runs pooled, each run's periods kept for the rules. */
struct cev {
	struct cent *v;			/* in perf's input order */
	size_t n;
	struct cent *buckets[CBUCKETS];
	uint64_t total_period, shown_period, nr_samples, lost;
	size_t runs;
	struct crun *run;		/* [runs] */
	uint64_t *run_period;		/* [entry * runs + run] */
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
	unsigned broke;			/* the --check rules it broke */
	double p;			/* their test's p-value */
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

/* Run run's event ev of h, added to c (sized by collapse). */
static void collapse_run(const struct diff *D, const struct report_hists *h, int ev, size_t run, struct cev *c)
{
	struct report_event_hist eh;

	if (ev < 0 || (size_t)ev >= report_hists__nr_events(h))
		return;	/* not in this run, or an event without a sample, in a stream */
	report_hists__event(h, (size_t)ev, &eh);
	c->run[run] = (struct crun){ eh.total_period, eh.shown_period, eh.nr_samples, eh.lost, true };
	c->total_period += eh.total_period;
	c->shown_period += eh.shown_period;
	c->nr_samples += eh.nr_samples;
	c->lost += eh.lost;
	for (size_t i = 0; i < eh.nr_entries; i++) {
		struct report_entry e;
		struct sort_row k;
		struct cent *x;
		size_t b;

		report_hists__entry(h, (size_t)ev, i, &e);
		sort_row_of_entry(&e, &k);
		if ((x = find(D, c, &k, &b))) {
			x->e.period += e.period;
			x->e.samples += e.samples;
		} else {
			x = &c->v[c->n++];
			x->e = e;
			x->k = k;
			x->pair = NULL;
			x->next = c->buckets[b];
			c->buckets[b] = x;
		}
		c->run_period[(size_t)(x - c->v) * c->runs + run] += e.period;
	}
}

/* Event ev[k] of each run's h[k] (-1: none), pooled into c (zeroed by the caller). */
static int collapse(const struct diff *D, struct report_hists *const *h, const int *ev, size_t runs, struct cev *c)
{
	size_t all = 0;

	for (size_t k = 0; k < runs; k++) {
		struct report_event_hist eh;

		if (ev[k] >= 0 && (size_t)ev[k] < report_hists__nr_events(h[k])) {
			report_hists__event(h[k], (size_t)ev[k], &eh);
			all += eh.nr_entries;
		}
	}
	c->runs = runs;
	/* sized once: the hash chains point into v */
	c->v = malloc((all ? all : 1) * sizeof(*c->v));
	c->run = calloc(runs, sizeof(*c->run));
	c->run_period = calloc((all ? all : 1) * runs, sizeof(*c->run_period));
	if (!c->v || !c->run || !c->run_period)
		return -ENOMEM;
	for (size_t k = 0; k < runs; k++)
		collapse_run(D, h[k], ev[k], k, c);
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

/* An event's total under --check's total rule: the median of its runs' periods, each side. */
struct gate_total {
	bool checked;			/* both sides have runs with a period */
	bool broke;
	double old, new_, change;	/* each side's median run total, change in percent */
	double paired;			/* the median change of the runs paired in order (percent), or NAN */
	double old_samples, new_samples;	/* each side's median run samples */
};

struct event_rows {
	struct row *rows;
	size_t nr;
	uint64_t btotal, ntotal;	/* the totals the computed column used */
	uint64_t btotal_now;		/* the baseline's total once -b dropped entries (its column's) */
	struct gate_total total;
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
		for (int d = 0; d < nd; d++)
			out_dots(out, d ? "  " : " ", (size_t)dwidth[d]);
		for (int c = 0; c < nc; c++)
			out_dots(out, "  ", (size_t)width[c]);
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

static void rule_names(struct out *out, unsigned bits, const char *pre, const char *post);

/* ---- JSON ---- */

static void json_side(struct out *out, const struct cev *c)
{
	out_printf(out, "{\"samples\": %" PRIu64 ", \"event-count\": %" PRIu64 ", \"lost-samples\": %" PRIu64,
		   c->nr_samples, c->total_period, c->lost);
	if (c->runs > 1) {
		out_str(out, ", \"runs\": [");
		for (size_t k = 0; k < c->runs; k++)
			out_printf(out, "%s{\"samples\": %" PRIu64 ", \"event-count\": %" PRIu64 "}", k ? ", " : "",
				   c->run[k].nr_samples, c->run[k].total_period);
		out_char(out, ']');
	}
	out_char(out, '}');
}

/* ", \"check\": [\"share\", ...]": the rules broken, when --check is on. */
static void json_check(const struct diff *D, struct out *out, unsigned broke)
{
	if (!D->o->gate.on)
		return;
	out_str(out, ", \"check\": [");
	rule_names(out, broke, "\"", "\"");
	out_char(out, ']');
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
	if (D->o->gate.on && er->total.checked) {
		const struct gate_total *t = &er->total;

		out_printf(out, ",\n     \"total\": {\"baseline\": %.1f, \"new\": %.1f, \"change\": %.6f",
			   t->old, t->new_, t->change);
		if (isnan(t->paired))
			out_str(out, ", \"paired-change\": null");
		else
			out_printf(out, ", \"paired-change\": %.6f", t->paired);
		json_check(D, out, t->broke ? REPORT_GATE_TOTAL : 0);
		out_char(out, '}');
	}
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
		json_check(D, out, r->broke);
		if (D->o->gate.on)
			out_printf(out, ", \"p\": %.6g", r->p);
		out_char(out, '}');
	}
	out_str(out, first_row ? "]}" : "\n     ]}");
}

/* ---- --check: the rules ---- */

void report_gate_rule_text(const struct report_gate *g, unsigned rule, char *buf, size_t len)
{
	switch (rule) {
	case REPORT_GATE_SHARE:
		snprintf(buf, len, "share:%g%s", g->share, g->share_pct ? "%" : "");
		break;
	case REPORT_GATE_NEW:
		snprintf(buf, len, "new:%g", g->new_share);
		break;
	case REPORT_GATE_TOTAL:
		snprintf(buf, len, "total:%s%g", g->total_up ? "+" : "", g->total);
		break;
	default:
		snprintf(buf, len, "?");
	}
}

void report_gate_result_free(struct report_gate_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].entry);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/* Run k's share of x (NULL: none, 0), with the totals the computed column uses; -1: the run lacks the event. */
static double run_share(const struct diff *D, const struct cev *c, const struct cent *x, size_t k)
{
	uint64_t total = D->o->relative ? c->run[k].shown_period : c->run[k].total_period;

	if (!c->run[k].has || !total)
		return -1;
	return x ? percent(c->run_period[(size_t)(x - c->v) * c->runs + k], total) : 0.0;
}

/* Each run of c that has the event: x's samples (its share of them) into v, the run's samples into v + runs. */
static size_t run_counts(const struct diff *D, const struct cev *c, const struct cent *x, double *v)
{
	size_t nv = 0;
	double s;

	for (size_t k = 0; k < c->runs; k++)
		if ((s = run_share(D, c, x, k)) >= 0) {
			v[c->runs + nv] = (double)c->run[k].nr_samples;
			v[nv++] = s / 100.0 * (double)c->run[k].nr_samples;
		}
	return nv;
}

/*
 * Whether entry xn of n grew in share from xb of b (NULL: none) beyond the
 * noise: the two-proportion test over the runs (lib/proptest.h), on each
 * run's samples, at p <= REPORT_GATE_ALPHA.  va, vb: room for twice each side's runs.
 */
static bool share_grew(const struct diff *D, const struct cev *b, const struct cent *xb, const struct cev *n,
		       const struct cent *xn, size_t family, double *va, double *vb, double *p)
{
	size_t na = run_counts(D, b, xb, va), nb = run_counts(D, n, xn, vb);
	struct prop_test t;

	*p = 1;
	if (prop_greater(va, va + b->runs, na, vb, vb + n->runs, nb, &t))
		return false;
	*p = fmin(1.0, t.p * (double)family);
	return *p <= REPORT_GATE_ALPHA;
}

/*
 * The entries the share and new rules test, for Bonferroni's correction:
 * those whose new share is above the least a break needs (share:N and
 * new:N: N points; share:N%: any), at least 1.  So the chance that a build
 * against itself breaks one of them stays under REPORT_GATE_ALPHA.
 */
static size_t share_family(const struct diff *D, const struct event_rows *er)
{
	const struct report_gate *g = &D->o->gate;
	double least = INFINITY;
	size_t m = 0;

	if (g->on & REPORT_GATE_SHARE)
		least = g->share_pct ? 0 : g->share;
	if ((g->on & REPORT_GATE_NEW) && g->new_share < least)
		least = g->new_share;
	for (size_t i = 0; i < er->nr; i++) {
		const struct row *r = &er->rows[i];

		if (r->n && !r->e->filtered && percent(r->nperiod, er->ntotal) > least)
			m++;
	}
	return m ? m : 1;
}

/* The share and new rules on each row; va, vb: room for twice each side's runs. */
static void gate_rows(const struct diff *D, const struct cev *b, const struct cev *n, struct event_rows *er,
		      double *va, double *vb)
{
	const struct report_gate *g = &D->o->gate;
	size_t family = share_family(D, er);

	for (size_t i = 0; i < er->nr; i++) {
		struct row *r = &er->rows[i];
		double old, new_;
		unsigned want = 0;

		r->broke = 0;
		r->p = 1;
		if (!r->n || r->e->filtered)
			continue;
		old = r->b ? percent(r->bperiod, er->btotal) : 0.0;
		new_ = percent(r->nperiod, er->ntotal);
		if ((g->on & REPORT_GATE_SHARE) &&
		    (g->share_pct ? r->b && old > 0 && (new_ - old) * 100.0 / old > g->share : new_ - old > g->share))
			want |= REPORT_GATE_SHARE;
		if ((g->on & REPORT_GATE_NEW) && !r->b && new_ > g->new_share)
			want |= REPORT_GATE_NEW;
		if (!want)
			continue;
		if (share_grew(D, b, r->b, n, r->n, family, va, vb, &r->p))
			r->broke = want;
	}
}

/*
 * The medians of c's runs' periods and samples (the runs that have the
 * event) into *period and *samples, v room for its runs; the number of runs.
 */
static size_t run_medians(const struct diff *D, const struct cev *c, double *v, double *period, double *samples)
{
	size_t nv = 0;

	*period = *samples = 0;
	for (size_t k = 0; k < c->runs; k++)
		if (c->run[k].has)
			v[nv++] = (double)(D->o->relative ? c->run[k].shown_period : c->run[k].total_period);
	if (!nv)
		return 0;
	*period = median_in_place(v, nv);
	nv = 0;
	for (size_t k = 0; k < c->runs; k++)
		if (c->run[k].has)
			v[nv++] = (double)c->run[k].nr_samples;
	*samples = median_in_place(v, nv);
	return nv;
}

/*
 * The median of the changes (percent) of the runs paired in order, old
 * run k against new run k, when both sides have the event in the same
 * number of runs, two or more (v room for them); NAN otherwise.
 */
static double paired_change(const struct diff *D, const struct cev *b, const struct cev *n, double *v)
{
	size_t nv = 0, kb = 0, kn = 0;

	for (;;) {
		double o, x;

		while (kb < b->runs && !b->run[kb].has)
			kb++;
		while (kn < n->runs && !n->run[kn].has)
			kn++;
		if (kb == b->runs || kn == n->runs)
			break;
		o = (double)(D->o->relative ? b->run[kb].shown_period : b->run[kb].total_period);
		x = (double)(D->o->relative ? n->run[kn].shown_period : n->run[kn].total_period);
		if (o <= 0)
			return NAN;
		v[nv++] = (x - o) * 100.0 / o;
		kb++;
		kn++;
	}
	while (kb < b->runs && !b->run[kb].has)
		kb++;
	while (kn < n->runs && !n->run[kn].has)
		kn++;
	if (nv < 2 || kb != b->runs || kn != n->runs)
		return NAN;
	return median_in_place(v, nv);
}

/*
 * The total rule: the change of the median of each side's run totals
 * beyond the tolerance.  A shared machine adds time to a run (another
 * tenant, a cold cache), often in bursts that raise every run by as much as
 * half for seconds: the median of three runs a side does not move for one
 * run caught in one, where the mean does, and where a rank test at three
 * runs a side (every run of one side beyond every run of the other) fails.
 * A burst that begins between two runs of a side moves its median too: with
 * as many runs a side, recorded in turn (base, change, base, change...),
 * the median of the pairs' changes must be beyond the tolerance as well,
 * since a burst's edge falls inside one pair.
 */
static void gate_total(const struct diff *D, const struct cev *b, const struct cev *n, struct gate_total *t,
		       double *va, double *vb)
{
	const struct report_gate *g = &D->o->gate;
	size_t na = run_medians(D, b, va, &t->old, &t->old_samples);
	size_t nb = run_medians(D, n, vb, &t->new_, &t->new_samples);
	bool up, down;

	t->broke = false;
	if (!(t->checked = na && nb && t->old > 0))
		return;
	t->change = (t->new_ - t->old) * 100.0 / t->old;
	t->paired = paired_change(D, b, n, va);
	if (!(g->on & REPORT_GATE_TOTAL))
		return;
	up = t->change > g->total && (isnan(t->paired) || t->paired > g->total);
	down = !g->total_up && t->change < -g->total && (isnan(t->paired) || t->paired < -g->total);
	t->broke = up || down;
}

/* The row's keys as the text shows them, one space apart (malloc'ed), or NULL. */
static char *row_label(const struct diff *D, const struct row *r)
{
	const struct report_hist_opts *ho = &D->o->hist;
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	struct out o;
	int ret;

	if (!f)
		return NULL;
	if (out_init(&o, f)) {
		fclose(f);
		free(s);
		return NULL;
	}
	for (int k = 0; k < ho->nr_keys; k++) {
		if (k)
			out_char(&o, ' ');
		sort_key(ho->keys[k])->print(&o, r->k, (int)sort_key(ho->keys[k])->width(r->k), true, NULL);
	}
	ret = out_finish(&o);
	if (fclose(f) || ret) {
		free(s);
		return NULL;
	}
	return s;
}

static int push_break(struct report_gate_result *res, const char *event, char *entry, unsigned rules, double old,
		      double new_, double p)
{
	struct report_gate_break *x;

	if (ALLOC_GROW(res->v, res->n + 1, res->cap)) {
		free(entry);
		return -ENOMEM;
	}
	x = &res->v[res->n++];
	memset(x, 0, sizeof(*x));
	snprintf(x->event, sizeof(x->event), "%s", event);
	x->entry = entry;
	x->rules = rules;
	x->old = old;
	x->new_ = new_;
	x->p = p;
	return 0;
}

/* Every rule on event name's rows and total; what broke them into res, the largest moves first. */
static int gate_event(const struct diff *D, const char *name, const struct cev *b, const struct cev *n,
		      struct event_rows *er, struct report_gate_result *res)
{
	size_t most = b->runs > n->runs ? b->runs : n->runs;
	double *va = malloc(2 * most * sizeof(*va)), *vb = malloc(2 * most * sizeof(*vb));
	struct json_ctx J = { .D = D, .btotal = er->btotal, .ntotal = er->ntotal };
	int ret = 0;

	if (!va || !vb) {
		free(va);
		free(vb);
		return -ENOMEM;
	}
	gate_rows(D, b, n, er, va, vb);
	gate_total(D, b, n, &er->total, va, vb);
	free(va);
	free(vb);
	if (er->total.broke)
		ret = push_break(res, name, NULL, REPORT_GATE_TOTAL, er->total.old, er->total.new_, 0);
	qsort_r(er->rows, er->nr, sizeof(*er->rows), move_cmp, &J);
	for (size_t i = 0; i < er->nr && !ret; i++) {
		const struct row *r = &er->rows[i];
		char *label;

		if (!r->broke)
			continue;
		if (!(label = row_label(D, r)))
			return -ENOMEM;
		ret = push_break(res, name, label, r->broke, r->b ? percent(r->bperiod, er->btotal) : 0.0,
				 percent(r->nperiod, er->ntotal), r->p);
	}
	return ret;
}

/* The names of the rules in bits, as "share, new". */
static void rule_names(struct out *out, unsigned bits, const char *pre, const char *post)
{
	static const char *const names[] = { "share", "new", "total" };
	bool first = true;

	for (unsigned i = 0; i < 3; i++)
		if (bits & (1u << i)) {
			out_printf(out, "%s%s%s%s", first ? "" : ", ", pre, names[i], post);
			first = false;
		}
}

/* ---- markdown and JUnit XML ---- */

/* s with markdown's special characters escaped (a table cell's pipes too). */
static void md_text(struct out *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*_[]<>|", *s))
			out_char(out, '\\');
		out_char(out, *s == '\n' ? ' ' : *s);
	}
}

/* Event name's rows of the summary table: its total, then the largest moves and every row that broke a rule. */
static void md_event(const struct diff *D, struct out *out, const char *name, struct event_rows *er)
{
	const struct gate_total *t = &er->total;
	struct json_ctx J = { .D = D, .btotal = er->btotal, .ntotal = er->ntotal };
	unsigned shown = 0;

	qsort_r(er->rows, er->nr, sizeof(*er->rows), move_cmp, &J);
	out_str(out, "| ");
	md_text(out, name);
	out_str(out, " | total period (samples) | ");
	if (t->checked)
		out_printf(out, "%.0f (%.0f) | %.0f (%.0f) | %+.2f%% | ", t->old, t->old_samples, t->new_, t->new_samples,
			   t->change);
	else
		out_str(out, " |  |  | ");
	out_str(out, !(D->o->gate.on & REPORT_GATE_TOTAL) ? "" : t->broke ? "**total**" : "ok");
	out_str(out, " |\n");
	for (size_t i = 0; i < er->nr; i++) {
		const struct row *r = &er->rows[i];
		char *label;

		if (r->e->filtered || (shown >= D->o->top && !r->broke))
			continue;
		shown++;
		out_str(out, "| ");
		md_text(out, name);
		out_str(out, " | ");
		if ((label = row_label(D, r)))
			md_text(out, label);
		free(label);
		out_str(out, " | ");
		if (r->b)
			out_printf(out, "%.2f%%", percent(r->bperiod, er->btotal));
		out_str(out, " | ");
		if (r->n)
			out_printf(out, "%.2f%%", percent(r->nperiod, er->ntotal));
		out_printf(out, " | %+.2f | ", move_of(&J, r));
		if (r->broke)
			rule_names(out, r->broke, "**", "**");
		else if (D->o->gate.on)
			out_str(out, "ok");
		out_str(out, " |\n");
	}
}

static void md_head(const struct diff *D, struct out *out, const struct report_diff_side *old,
		    const struct report_diff_side *new_, size_t broken)
{
	const struct report_diff_opts *o = D->o;

	if (!o->gate.on)
		out_str(out, "### mperf diff\n\n");
	else if (broken)
		out_printf(out, "### mperf diff: FAILED, %zu change%s beyond the rules\n\n", broken, broken == 1 ? "" : "s");
	else
		out_str(out, "### mperf diff: passed\n\n");
	out_printf(out, "Baseline: %zu run%s (", old->n, old->n == 1 ? "" : "s");
	md_text(out, old->labels[0]);
	out_printf(out, "%s), new: %zu run%s (", old->n > 1 ? ", ..." : "", new_->n, new_->n == 1 ? "" : "s");
	md_text(out, new_->labels[0]);
	out_printf(out, "%s).", new_->n > 1 ? ", ..." : "");
	if (o->gate.on) {
		out_str(out, " Rules: ");
		md_text(out, o->rules ? o->rules : "");
		out_printf(out, " (a change counts when beyond its tolerance and its noise at p <= %.2f: "
			   "shares by the two-proportion test over the runs, totals by Mann-Whitney U, one-sided, "
			   "or every run apart).", REPORT_GATE_ALPHA);
	}
	out_str(out, "\n\n| Event | Entry | Baseline | New | Change | Check |\n|---|---|--:|--:|--:|---|\n");
}

/* XML's special characters escaped. */
static void xml_str(struct out *out, const char *s)
{
	out_xml(out, s, SIZE_MAX);
}

/* Event name's test cases: one per rule in force, failed with the entries that broke it. */
static void junit_event(const struct diff *D, struct out *out, const char *name, struct event_rows *er,
			size_t *tests, size_t *failures)
{
	const struct report_gate *g = &D->o->gate;

	for (unsigned rule = 1; rule <= REPORT_GATE_TOTAL; rule <<= 1) {
		char text[64];
		size_t nb = 0;

		if (!(g->on & rule))
			continue;
		report_gate_rule_text(g, rule, text, sizeof(text));
		for (size_t i = 0; i < er->nr; i++)
			nb += (er->rows[i].broke & rule) != 0;
		nb += rule == REPORT_GATE_TOTAL && er->total.broke;
		(*tests)++;
		out_str(out, "  <testcase classname=\"mperf.diff\" name=\"");
		xml_str(out, name);
		out_printf(out, ": %s\"", text);
		if (!nb) {
			out_str(out, "/>\n");
			continue;
		}
		(*failures)++;
		out_printf(out, "><failure message=\"%zu change%s beyond %s\">", nb, nb == 1 ? "" : "s", text);
		if (rule == REPORT_GATE_TOTAL)
			out_printf(out, "total period %.0f -&gt; %.0f (%+.2f%%)\n", er->total.old, er->total.new_,
				   er->total.change);
		for (size_t i = 0; i < er->nr; i++) {
			const struct row *r = &er->rows[i];
			char *label;

			if (!(r->broke & rule))
				continue;
			if ((label = row_label(D, r)))
				xml_str(out, label);
			free(label);
			out_printf(out, ": %.2f%% -&gt; %.2f%% (p %.3g)\n", r->b ? percent(r->bperiod, er->btotal) : 0.0,
				   percent(r->nperiod, er->ntotal), r->p);
		}
		out_str(out, "</failure></testcase>\n");
	}
}

/* ---- the files ---- */

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
	free(c->run);
	free(c->run_period);
	memset(c, 0, sizeof(*c));
}


/* Read every file of both sides, each in its own session and thread. */
static int read_all(struct reader *rd, size_t nr)
{
	pthread_t *t = calloc(nr, sizeof(*t));
	bool *started = calloc(nr, sizeof(*started));

	for (size_t i = 1; i < nr && t && started; i++)
		started[i] = pthread_create(&t[i], NULL, read_file, &rd[i]) == 0;
	read_file(&rd[0]);
	for (size_t i = 1; i < nr; i++) {
		if (t && started && started[i])
			pthread_join(t[i], NULL);
		else
			read_file(&rd[i]);
	}
	free(t);
	free(started);
	for (size_t i = 0; i < nr; i++)
		if (rd[i].ret < 0)
			return rd[i].ret;
	return 0;
}

static void json_head(struct out *out, const struct report_diff_opts *o, const struct report_diff_side *old,
		      const struct report_diff_side *new_)
{
	out_str(out, "{\n  ");
	out_json_head(out, "diff", REPORT_DIFF_JSON_VERSION);
	out_str(out, ",\n  \"baseline\": ");
	out_json_str(out, old->labels[0]);
	out_str(out, ",\n  \"new\": ");
	out_json_str(out, new_->labels[0]);
	if (old->n > 1 || new_->n > 1) {
		const struct report_diff_side *sides[2] = { old, new_ };

		for (int s = 0; s < 2; s++) {
			out_str(out, s ? ",\n  \"new-runs\": [" : ",\n  \"baseline-runs\": [");
			for (size_t i = 0; i < sides[s]->n; i++) {
				out_str(out, i ? ", " : "");
				out_json_str(out, sides[s]->labels[i]);
			}
			out_char(out, ']');
		}
	}
	out_str(out, ",\n  \"sort\": [");
	for (int k = 0; k < o->hist.nr_keys; k++)
		out_printf(out, "%s\"%s\"", k ? ", " : "", sort_key(o->hist.keys[k])->name);
	out_printf(out, "],\n  \"percentage\": \"%s\",\n  \"events\": [", o->relative ? "relative" : "absolute");
}

/* The end of the JSON document: the new side's events no baseline event matches (perf diff shows none), the verdict. */
static void json_tail(struct out *out, const struct report_diff_opts *o, struct pdata *old, struct pdata *new_,
		      size_t broken)
{
	bool first = true;

	out_str(out, pdata__nr_evsel(old) ? "\n  ],\n  \"new-only-events\": [" : "],\n  \"new-only-events\": [");
	for (size_t j = 0; j < pdata__nr_evsel(new_); j++) {
		const struct pd_evsel *nev = pdata__evsel(new_, j);
		bool found = false;

		for (size_t i = 0; i < pdata__nr_evsel(old) && !found; i++)
			found = match_event(new_, pdata__evsel(old, i)) == (int)j;
		if (found)
			continue;
		out_str(out, first ? "" : ", ");
		first = false;
		out_json_str(out, nev->name);
	}
	out_char(out, ']');
	if (o->gate.on) {
		out_str(out, ",\n  \"check\": {\"rules\": ");
		out_json_str(out, o->rules ? o->rules : "");
		out_printf(out, ", \"alpha\": %.2f, \"passed\": %s, \"broken\": %zu}", REPORT_GATE_ALPHA,
			   broken ? "false" : "true", broken);
	}
	out_str(out, "\n}\n");
}

/* Event i of the first baseline file, in every run: pooled, gated, printed. */
static int diff_event(const struct diff *D, struct out *out, const struct report_diff_side *old,
		      const struct report_diff_side *new_, struct reader *rd, size_t i, struct report_gate_result *res,
		      size_t junit[2])
{
	const struct report_diff_opts *o = D->o;
	const struct pd_evsel *ev = pdata__evsel(old->p[0], i);
	size_t nr = old->n + new_->n;
	int *evs = malloc(nr * sizeof(*evs));
	struct report_hists **h = malloc(nr * sizeof(*h));
	struct cev *b = calloc(1, sizeof(*b)), *n = calloc(1, sizeof(*n));
	struct event_rows er = { 0 };
	bool matched;
	int ret = -ENOMEM;

	if (!evs || !h || !b || !n)
		goto out;
	for (size_t k = 0; k < nr; k++) {
		h[k] = rd[k].h;
		evs[k] = k == 0 ? (int)i : match_event(rd[k].p, ev);
	}
	matched = evs[old->n] >= 0;
	if (collapse(D, h, evs, old->n, b) || collapse(D, h + old->n, evs + old->n, new_->n, n) ||
	    build_rows(D, b, n, matched, &er))
		goto out;
	if (o->gate.on && matched && (ret = gate_event(D, ev->name, b, n, &er, res)))
		goto out;
	ret = 0;
	switch (o->format) {
	case REPORT_DIFF_JSON:
		print_event_json(D, out, ev->name, b, n, matched, &er, i == 0);
		break;
	case REPORT_DIFF_MARKDOWN:
		md_event(D, out, ev->name, &er);
		break;
	case REPORT_DIFF_JUNIT:
	case REPORT_DIFF_NONE:
		break;
	case REPORT_DIFF_TEXT:
		qsort_r(er.rows, er.nr, sizeof(*er.rows), row_cmp, (void *)D);
		print_event_text(D, out, ev->name, &er, i == 0);
		break;
	}
	if (o->format == REPORT_DIFF_JUNIT && matched)
		junit_event(D, out, ev->name, &er, &junit[0], &junit[1]);
out:
	free(er.rows);
	if (b)
		cev_free(b);
	if (n)
		cev_free(n);
	free(b);
	free(n);
	free(evs);
	free(h);
	return ret ? mperf_error(-ENOMEM, "out of memory") : 0;
}

/* The summary's head (markdown) or the test suite's (JUnit), then the body the events wrote. */
static void write_buffered(const struct diff *D, struct out *out, const struct report_diff_side *old,
			   const struct report_diff_side *new_, size_t broken, const size_t junit[2],
			   const char *body, size_t len)
{
	if (D->o->format == REPORT_DIFF_MARKDOWN) {
		md_head(D, out, old, new_, broken);
		out_mem(out, body, len);
		return;
	}
	out_printf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"mperf diff\" tests=\"%zu\" "
		   "failures=\"%zu\">\n <testsuite name=\"mperf diff ", junit[0], junit[1]);
	out_xml(out, old->labels[0], SIZE_MAX);
	out_str(out, " ");
	out_xml(out, new_->labels[0], SIZE_MAX);
	out_printf(out, "\" tests=\"%zu\" failures=\"%zu\">\n", junit[0], junit[1]);
	out_mem(out, body, len);
	out_str(out, " </testsuite>\n</testsuites>\n");
}

int report__diff_runs(const struct report_diff_side *old, const struct report_diff_side *new_,
		      const struct report_diff_opts *o, struct report_gate_result *res_in, FILE *f)
{
	struct diff D = { .o = o };
	size_t nr = old->n + new_->n, junit[2] = { 0, 0 }, len = 0;
	struct reader *rd = calloc(nr, sizeof(*rd));
	struct report_gate_result local = { 0 }, *res = res_in ? res_in : &local;
	bool buffered = o->format == REPORT_DIFF_MARKDOWN || o->format == REPORT_DIFF_JUNIT;
	struct out out, body, *eo = &out;
	char *text = NULL;
	FILE *bf = NULL;
	int ret = 0;

	if (!rd)
		return mperf_error(-ENOMEM, "out of memory");
	set_keys(&D);
	for (size_t k = 0; k < nr; k++)
		rd[k] = (struct reader){ .p = k < old->n ? old->p[k] : new_->p[k - old->n],
					 .label = k < old->n ? old->labels[k] : new_->labels[k - old->n],
					 .o = &o->hist };
	if ((ret = read_all(rd, nr)) < 0)
		goto out_free;
	if (out_init(&out, f)) {
		ret = mperf_error(-ENOMEM, "out of memory");
		goto out_free;
	}
	if (buffered) {
		if (!(bf = open_memstream(&text, &len)) || out_init(&body, bf)) {
			ret = mperf_error(-ENOMEM, "out of memory");
			goto out_close;
		}
		eo = &body;
	}
	if (o->format == REPORT_DIFF_JSON)
		json_head(&out, o, old, new_);
	for (size_t i = 0; i < pdata__nr_evsel(old->p[0]) && ret >= 0; i++)
		ret = diff_event(&D, eo, old, new_, rd, i, res, junit);
	if (buffered) {
		int e = out_finish(&body);

		if ((fclose(bf) || e) && ret >= 0)
			ret = mperf_error(-ENOMEM, "out of memory");
		bf = NULL;
		if (ret >= 0)
			write_buffered(&D, &out, old, new_, res->n, junit, text, len);
	}
	if (o->format == REPORT_DIFF_JSON && ret >= 0)
		json_tail(&out, o, old->p[0], new_->p[0], res->n);
out_close:
	if (bf)
		fclose(bf);
	ret = out_close(&out, ret, old->labels[0]);
out_free:
	free(text);
	for (size_t k = 0; k < nr; k++)
		report_hists__free(rd[k].h);
	free(rd);
	report_gate_result_free(&local);
	return ret;
}

int report__diff(struct pdata *old, const char *old_label, struct pdata *new_, const char *new_label,
		 const struct report_diff_opts *o, FILE *f)
{
	struct report_diff_side a = { &old, &old_label, 1 }, b = { &new_, &new_label, 1 };

	return report__diff_runs(&a, &b, o, NULL, f);
}
