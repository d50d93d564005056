// SPDX-License-Identifier: GPL-2.0-only
/*
 * --check: what a CI job fails on.  An event that lost samples, that the
 * kernel throttled, that ran less than it was enabled (multiplexed), and
 * events that should count alike (the same event, modifiers and period or
 * frequency: the seed's cycles,cycles,cycles) but differ by more than the
 * tolerance.  Each finding is one line through the log hook.
 */
#include "../lib/log.h"
#include "stat.h"

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

int stat__check(const struct check_event *ev, size_t n, double tolerance)
{
	int failed = 0;

	for (size_t i = 0; i < n; i++) {
		const struct check_event *e = &ev[i];

		if (e->tracking)
			continue;
		if (e->lost) {
			mperf_log(MPERF_LOG_NOTICE, "check: event #%zu '%s' lost %llu samples", i, e->name,
				  (unsigned long long)e->lost);
			failed++;
		}
		if (e->throttles) {
			mperf_log(MPERF_LOG_NOTICE, "check: event #%zu '%s' was throttled %llu times", i, e->name,
				  (unsigned long long)e->throttles);
			failed++;
		}
		if (e->has_times && e->run < e->ena) {
			mperf_log(MPERF_LOG_NOTICE,
				  "check: event #%zu '%s' ran %.2f%% of the time it was enabled (multiplexed)", i,
				  e->name, 100.0 * (double)e->run / (double)e->ena);
			failed++;
		}
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
			mperf_log(MPERF_LOG_NOTICE,
				  "check: event #%zu '%s' counted %llu, %.1f%% less than the %llu of event #%zu '%s' (tolerance %g%%)",
				  i, ev[i].name, (unsigned long long)ev[i].value, pct, (unsigned long long)ev[top].value, top,
				  ev[top].name, tolerance);
		else
			mperf_log(MPERF_LOG_NOTICE,
				  "check: event #%zu '%s' has %llu samples, %.1f%% fewer than the %llu of event #%zu '%s' (tolerance %g%%)",
				  i, ev[i].name, (unsigned long long)ev[i].value, pct, (unsigned long long)ev[top].value, top,
				  ev[top].name, tolerance);
		failed++;
	}
	return failed;
}
