/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_REPORT_FIELDS_H
#define MPERF_REPORT_FIELDS_H

/*
 * perf's output fields and sort list (its setup_sorting, with
 * setup_output_field and append_sort_keys): what the view shows, in
 * order, and what orders its entries, values and sort keys mixed, from
 * --sort, -F/--fields, -n and --show-total-period.  hist.c prints and
 * sorts by them; the value columns' names and widths are here.
 */
#include <stdbool.h>
#include "report.h"

#define FIELDS_MAX (2 * REPORT_MAX_FIELDS + REPORT_MAX_KEYS + 8)

struct field_list {
	struct report_field f[FIELDS_MAX];
	int n;
};

struct field_lists {
	struct field_list out;	/* the columns, left to right */
	struct field_list sort;	/* the output order's comparisons, first to last */
	int sort_own;		/* how many of them perf's sort list had before -F's fields joined it */
};

/*
 * o's columns and comparisons, as perf 6.1 makes them.  children: the
 * Children view (perf's cumulate_callchain).  The sort keys come from
 * o->keys, then perf's ipc_null where the --sort text names "symbol".
 */
void fields_setup(const struct report_hist_opts *o, bool children, struct field_lists *l);
/* The same, for the branch view (branch): its keys, o->bkeys. */
void fields_setup_view(const struct report_hist_opts *o, bool children, bool branch, struct field_lists *l);

/* A value column's header (Overhead is "Self" beside perf's default Children) and width. */
const char *fields_value_header(enum report_value v, const struct report_hist_opts *o, bool children);
int fields_value_len(enum report_value v);

#endif
