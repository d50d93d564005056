/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_REPORT_READVALS_H
#define MPERF_REPORT_READVALS_H

/*
 * report -T/--threads: the READ records' counts (perf record -s,
 * inherit_stat: one per event of each task that exits), summed per thread
 * and event in the order they come, as perf 6.1's read values; printed
 * after the histograms in its table.
 */
#include <stddef.h>
#include <stdint.h>

struct out;
struct session_record;

struct readvals {
	struct rv_thread {
		int pid, tid;
	} *thr;
	size_t nr_thr, thr_cap;
	struct rv_counter {
		int evsel;
		char *name;		/* the event's, as the READ found it */
	} *ctr;
	size_t nr_ctr, ctr_cap;
	uint64_t **val;		/* [thread][counter] */
	size_t val_cap;
};

/* r's counts, if it is a READ record of a known event: 0 or -ENOMEM. */
int readvals__add(struct readvals *rv, const struct session_record *r);
/* perf's table: "# PID  TID  event..." then a line per thread. */
void readvals__print(const struct readvals *rv, struct out *out);
void readvals__release(struct readvals *rv);

#endif
