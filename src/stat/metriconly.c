// SPDX-License-Identifier: GPL-2.0-only
/*
 * stat --metric-only, in perf stat 6.1's shapes (learnt from what
 * /usr/bin/perf prints): a line of the figures' names, then a line of
 * the figures alone, one column of 20 (text), one field (-x) or one
 * {"metric-value"} (-j) each; with -I the interval's time before them and
 * the names' line again every 25 intervals.  perf leaves out of these
 * columns the "CPUs utilized" and "/sec" figures, the only ones mperf
 * computes, so a counted event adds no column; an event not counted (or
 * not supported) adds an empty one, as in perf.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "internal.h"

#define METRIC_ONLY_LEN 20	/* perf's width of a column */

/* The names' line; interval: with -I's time column. */
static void metric_only_header(FILE *f, const struct stat_print_opts *p, bool interval)
{
	if (p->format == STAT_JSONL) {
		fputs("{}\n", f);
		return;
	}
	if (interval)
		fputs(p->format == STAT_CSV ? " time," : "#           time ", f);
	fputc('\n', f);
}

/* The figures' line of s (one run); t is -I's time in seconds, or negative. */
static void metric_only_values(FILE *f, const struct stat_runs *s, const struct stat_print_opts *p, double t)
{
	if (t >= 0) {
		if (p->format == STAT_JSONL)
			fprintf(f, "{\"interval\" : %.9f}", t);
		else
			fprintf(f, "%16.9f%s", t, p->format == STAT_CSV ? p->sep : " ");
	}
	for (size_t i = 0; i < s->nr_events; i++) {
		if (stat__counted(&s->ev[i]))
			continue;
		if (p->format == STAT_JSONL)
			fputs("{\"metric-value\" : \"\"}", f);
		else if (p->format == STAT_CSV)
			fputs(p->sep, f);
		else
			fprintf(f, "%*s ", METRIC_ONLY_LEN, "");
	}
	fputc('\n', f);
}

void stat__metric_only(FILE *f, const struct stat_runs *s, const struct stat_print_opts *p)
{
	metric_only_header(f, p, false);
	metric_only_values(f, s, p, -1);
}

int stat__metric_only_interval(FILE *f, const struct count_result *iv, struct stat_print_opts *p)
{
	struct stat_runs *s = calloc(1, sizeof(*s));
	int err = -ENOMEM;

	if (!s || stat_runs__add(s, iv))
		goto out;
	if (p->interval_rows % 25 == 0)
		metric_only_header(f, p, true);
	p->interval_rows++;
	metric_only_values(f, s, p, (double)iv->ts_ns / 1e9);
	stat_runs__release(s);
	err = 0;
out:
	free(s);
	return err;
}
