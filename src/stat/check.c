// SPDX-License-Identifier: GPL-2.0-only
/*
 * --check: what a CI job fails on.  An event that lost samples, that the
 * kernel throttled, that ran less than it was enabled (multiplexed), and
 * events that should count alike (the same event, modifiers and period or
 * frequency: the seed's cycles,cycles,cycles) but differ by more than the
 * tolerance.  Each finding is one line, kept for cmd/ to say and for the
 * JSON documents to carry.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "../lib/json.h"
#include "../lib/log.h"
#include "stat.h"

void check_findings__add(struct check_findings *f, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	char *dup;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	f->failed++;
	/* Out of memory: said now rather than lost. */
	if (ALLOC_GROW(f->line, f->nr + 1, f->alloc) || !(dup = strdup(line))) {
		mperf_log(MPERF_LOG_ERROR, "%s", line);
		return;
	}
	f->line[f->nr++] = dup;
}

void check_findings__free(struct check_findings *f)
{
	for (size_t i = 0; i < f->nr; i++)
		free(f->line[i]);
	free(f->line);
	*f = (struct check_findings){ 0 };
}

void stat__check_json(FILE *f, const struct check_findings *c, double tolerance)
{
	if (!c) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"tolerance-pct\": %g, \"passed\": %s, \"findings\": [", tolerance, c->failed ? "false" : "true");
	for (size_t i = 0; i < c->nr; i++) {
		if (i)
			fputs(", ", f);
		json_fputs(f, c->line[i]);
	}
	fputs("]}", f);
}

/* The same event, sampled or counted the same way: it should give the same numbers. */
static bool alike(const struct perf_event_attr *a, const struct perf_event_attr *b)
{
	return a->type == b->type && a->config == b->config && a->config1 == b->config1 &&
	       a->config2 == b->config2 && a->freq == b->freq && a->sample_period == b->sample_period &&
	       a->exclude_user == b->exclude_user && a->exclude_kernel == b->exclude_kernel &&
	       a->exclude_hv == b->exclude_hv && a->exclude_idle == b->exclude_idle &&
	       a->exclude_host == b->exclude_host && a->exclude_guest == b->exclude_guest &&
	       a->precise_ip == b->precise_ip;
}

int stat__check(const struct check_event *ev, size_t n, double tolerance, struct check_findings *out)
{
	int failed = out->failed;

	for (size_t i = 0; i < n; i++) {
		const struct check_event *e = &ev[i];

		if (e->tracking)
			continue;
		if (e->lost)
			check_findings__add(out, "check: event #%zu '%s' lost %llu samples", i, e->name,
					    (unsigned long long)e->lost);
		if (e->throttles)
			check_findings__add(out, "check: event #%zu '%s' was throttled %llu times", i, e->name,
					    (unsigned long long)e->throttles);
		if (e->has_times && e->run < e->ena)
			check_findings__add(out,
					    "check: event #%zu '%s' ran %.2f%% of the time it was enabled (multiplexed)",
					    i, e->name, 100.0 * (double)e->run / (double)e->ena);
	}
	/* Each event against the largest of its like ones, said for the one that falls short. */
	for (size_t i = 0; i < n; i++) {
		size_t top = i;
		double pct;

		if (ev[i].tracking)
			continue;
		for (size_t k = 0; k < n; k++)
			if (k != i && !ev[k].tracking && alike(&ev[k].attr, &ev[i].attr) && ev[k].value > ev[top].value)
				top = k;
		if (top == i)
			continue;
		pct = 100.0 * (double)(ev[top].value - ev[i].value) / (double)ev[top].value;
		if (pct <= tolerance)
			continue;
		if (ev[i].counting)
			check_findings__add(out,
					    "check: event #%zu '%s' counted %llu, %.1f%% less than the %llu of event #%zu '%s' (tolerance %g%%)",
					    i, ev[i].name, (unsigned long long)ev[i].value, pct,
					    (unsigned long long)ev[top].value, top, ev[top].name, tolerance);
		else
			check_findings__add(out,
					    "check: event #%zu '%s' has %llu samples, %.1f%% fewer than the %llu of event #%zu '%s' (tolerance %g%%)",
					    i, ev[i].name, (unsigned long long)ev[i].value, pct,
					    (unsigned long long)ev[top].value, top, ev[top].name, tolerance);
	}
	return out->failed - failed;
}
