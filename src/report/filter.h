/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_REPORT_FILTER_H
#define MPERF_REPORT_FILTER_H

/*
 * The samples -C/--cpu and --time keep, for report and script: what
 * report.h's struct report_sample_filter asks, made once per file
 * (percent ranges need the file's first and last sample times, from its
 * SAMPLE_TIME feature) and tested per sample, as perf drops a sample
 * before it counts anywhere.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "report.h"

struct pdata;
struct pd_sample;

struct sfilter {
	uint64_t *cpus;			/* -C's bitmap, NULL: every CPU */
	size_t nr_cpu_words;
	struct sfilter_range {
		uint64_t start, end;	/* ns; 0: open */
	} *r;
	int nr;				/* ranges; 0: no --time */
	uint64_t first;			/* the file's first sample time (SAMPLE_TIME), 0: unknown */
};

/*
 * f for o on p (label names it in errors): 0, or -MPERF_ERR_USAGE (a
 * bad list or range, -C on a file without the samples' CPU, a percent
 * range without the file's sample times), -ENOMEM; said in one line.
 */
int sfilter_init(struct sfilter *f, const struct report_sample_filter *o, struct pdata *p, const char *label);
/* Whether the sample is dropped (a sample without a time is kept, as perf keeps it). */
bool sfilter_skip(const struct sfilter *f, const struct pd_sample *s);
/* Whether -C alone drops it (perf's filter_cpu, which script's side-band records pass too). */
bool sfilter_skip_cpu(const struct sfilter *f, const struct pd_sample *s);
void sfilter_release(struct sfilter *f);
/* Whether name is an entry of the comma-separated list (--comms, -S...). */
bool sfilter_listed(const char *list, const char *name);
/* Whether id is one of the comma-separated decimal ids (checked by cmd/). */
bool sfilter_listed_id(const char *list, int id);

#endif
