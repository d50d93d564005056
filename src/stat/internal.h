/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_STAT_INTERNAL_H
#define MPERF_STAT_INTERNAL_H

/* What display.c and modes.c share: one row of perf stat's output, and the rows of a mode. */
#include "stat.h"

/*
 * Event i of s as one row in p's format (text, -x, -j), after pre: the
 * row's prefix in that format (the interval's time, the CPU, the core and
 * its CPUs...), "" for none; n is perf's "aggregate-number" (0: none).
 */
void stat__row(FILE *f, const struct stat_runs *s, size_t i, const struct stat_print_opts *p, const char *pre);

/*
 * The rows of p->aggr's units of r (cells), every event's, in perf's
 * order, each after time (an interval's prefix, "" for none).  The
 * "CPUs utilized" of a row divides by wall_ns.  0 or -ENOMEM.
 */
int stat__mode_rows(FILE *f, const struct count_result *r, const struct stat_print_opts *p, const char *time,
		    double wall_ns);

/* The event ran: its count is a number, not <not counted> or <not supported>. */
bool stat__counted(const struct stat_event *e);

/* --metric-only (metriconly.c): the names' line and the figures' line of s, one run, in p's format. */
void stat__metric_only(FILE *f, const struct stat_runs *s, const struct stat_print_opts *p);
/* --metric-only -I: one interval's line, the names' line first every 25.  0 or -ENOMEM. */
int stat__metric_only_interval(FILE *f, const struct count_result *iv, struct stat_print_opts *p);

#endif
