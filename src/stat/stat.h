/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_STAT_H
#define MPERF_STAT_H

/*
 * mperf stat's numbers: the counts of several runs (record__count, one
 * struct count_result each) gathered as perf stat gathers them (the mean
 * of each run's count, the standard deviation of that mean), and printed
 * in perf stat 6.1's shapes: the text table with its "#" column and
 * "( +- N% )", perf's -x CSV fields, and mperf's JSON document.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "../record/record.h"

#define STAT_JSON_VERSION 1

/* Running mean and variance (Welford), as perf's struct stats. */
struct stat_acc {
	double n, mean, m2;
};

struct stat_event {
	char name[128];
	struct perf_event_attr attr;
	bool supported;
	struct stat_acc val, ena, run;
	uint64_t raw;		/* the last run's unscaled sum */
};

struct stat_runs {
	size_t nr_events;
	struct stat_event ev[RECORD_MAX_EVENTS];
	struct stat_acc wall;	/* elapsed ns */
	uint64_t utime_ns, stime_ns;	/* the last run's workload */
	bool has_workload, has_cpu;
	int runs;
};

enum stat_format { STAT_TEXT, STAT_CSV, STAT_JSON };

struct stat_print_opts {
	enum stat_format format;
	const char *sep;	/* -x SEP */
	const char *subject;	/* what was counted: "'CMD ARGS'", "'system wide'", "process id 'PID'" */
};

void stat_acc__add(struct stat_acc *a, double v);
/* perf's stddev of the mean: sqrt(variance / n); 0 under two runs. */
double stat_acc__stddev(const struct stat_acc *a);

/* Add one run (the first one sets the events). */
void stat_runs__add(struct stat_runs *s, const struct count_result *r);

/*
 * The subject of perf's header line, in buf: 'system wide', 'CPU(s) 0-1',
 * process id '1,2', thread id '3', or the command line quoted.
 */
void stat__subject(char *buf, size_t len, const struct count_opts *o);

/* Print s in p's format.  0, or -errno of a failed write (not logged). */
int stat__print(FILE *f, const struct stat_runs *s, const struct stat_print_opts *p);

#endif
