// SPDX-License-Identifier: GPL-2.0-only
/*
 * report -T/--threads (readvals.h).  perf 6.1 reads a READ record by its
 * fixed layout (the value first, whatever read_format says), as -D does,
 * and adds each value to its thread's and event's count; threads and
 * events get their row and column when first seen.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "../perfdata/perfdata.h"
#include "../resolve/session.h"
#include "out.h"
#include "readvals.h"

static long thread_of(struct readvals *rv, int pid, int tid)
{
	for (size_t i = 0; i < rv->nr_thr; i++)
		if (rv->thr[i].pid == pid && rv->thr[i].tid == tid)
			return (long)i;
	if (ALLOC_GROW(rv->thr, rv->nr_thr + 1, rv->thr_cap) ||
	    ALLOC_GROW(rv->val, rv->nr_thr + 1, rv->val_cap))
		return -ENOMEM;
	rv->val[rv->nr_thr] = calloc(rv->ctr_cap ? rv->ctr_cap : 1, sizeof(uint64_t));
	if (!rv->val[rv->nr_thr])
		return -ENOMEM;
	rv->thr[rv->nr_thr] = (struct rv_thread){ pid, tid };
	return (long)rv->nr_thr++;
}

static long counter_of(struct readvals *rv, int evsel, const char *name)
{
	size_t cap = rv->ctr_cap;

	for (size_t i = 0; i < rv->nr_ctr; i++)
		if (rv->ctr[i].evsel == evsel)
			return (long)i;
	if (ALLOC_GROW(rv->ctr, rv->nr_ctr + 1, rv->ctr_cap))
		return -ENOMEM;
	/* Every thread's row as wide as the counters' array. */
	for (size_t t = 0; cap != rv->ctr_cap && t < rv->nr_thr; t++) {
		uint64_t *v = realloc(rv->val[t], rv->ctr_cap * sizeof(uint64_t));

		if (!v)
			return -ENOMEM;
		memset(v + cap, 0, (rv->ctr_cap - cap) * sizeof(uint64_t));
		rv->val[t] = v;
	}
	rv->ctr[rv->nr_ctr] = (struct rv_counter){ evsel, strdup(name ? name : "") };
	if (!rv->ctr[rv->nr_ctr].name)
		return -ENOMEM;
	return (long)rv->nr_ctr++;
}

int readvals__add(struct readvals *rv, const struct session_record *r)
{
	struct pd_read_event e;
	long c, t;

	if (r->h->type != PERF_RECORD_READ || !r->ev || !PD_VIEW(r->h, &e))
		return 0;
	if ((c = counter_of(rv, r->evsel, r->ev->name)) < 0 || (t = thread_of(rv, (int)e.pid, (int)e.tid)) < 0)
		return -ENOMEM;
	rv->val[t][c] += e.value;
	return 0;
}

static int width_of(uint64_t v)
{
	return snprintf(NULL, 0, "%" PRIu64, v);
}

void readvals__print(const struct readvals *rv, struct out *out)
{
	int pidw = 3, tidw = 3, w[rv->nr_ctr ? rv->nr_ctr : 1];

	for (size_t c = 0; c < rv->nr_ctr; c++)
		w[c] = (int)strlen(rv->ctr[c].name);
	for (size_t t = 0; t < rv->nr_thr; t++) {
		int n = snprintf(NULL, 0, "%d", rv->thr[t].pid), m = snprintf(NULL, 0, "%d", rv->thr[t].tid);

		pidw = n > pidw ? n : pidw;
		tidw = m > tidw ? m : tidw;
		for (size_t c = 0; c < rv->nr_ctr; c++)
			if (width_of(rv->val[t][c]) > w[c])
				w[c] = width_of(rv->val[t][c]);
	}
	out_printf(out, "# %*s  %*s", pidw, "PID", tidw, "TID");
	for (size_t c = 0; c < rv->nr_ctr; c++)
		out_printf(out, "  %*s", w[c], rv->ctr[c].name);
	out_char(out, '\n');
	for (size_t t = 0; t < rv->nr_thr; t++) {
		out_printf(out, "  %*d  %*d", pidw, rv->thr[t].pid, tidw, rv->thr[t].tid);
		for (size_t c = 0; c < rv->nr_ctr; c++)
			out_printf(out, "  %*" PRIu64, w[c], rv->val[t][c]);
		out_char(out, '\n');
	}
}

void readvals__release(struct readvals *rv)
{
	for (size_t t = 0; t < rv->nr_thr; t++)
		free(rv->val[t]);
	for (size_t c = 0; c < rv->nr_ctr; c++)
		free(rv->ctr[c].name);
	free(rv->val);
	free(rv->thr);
	free(rv->ctr);
	memset(rv, 0, sizeof(*rv));
}
