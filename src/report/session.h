/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_REPORT_SESSION_H
#define MPERF_REPORT_SESSION_H

#include <stdint.h>
#include <stdio.h>
#include "../perfdata/perfdata.h"
#include "machine.h"

/*
 * Reading a file the way perf report does (ordered events, the machine
 * model) for the report module's consumers: the dump, the stats, the
 * histograms.
 */
enum session_mode {
	SESSION_DUMP,	/* print every record, then the stats */
	SESSION_STATS,	/* only the stats */
	SESSION_HIST,	/* hand each sample, resolved, to the consumer */
};

struct session_sample {
	int evsel;
	const struct pd_sample *smp;
	int cpumode;			/* misc & 7 */
	uint64_t period;		/* what the sample weighs (a READ value's increase) */
	struct resolved where;		/* thread and map of the sample's ip */
};

struct session_ops {
	int (*sample)(void *arg, const struct session_sample *ss);
	/* LOST_SAMPLES records (perf's "Total Lost Samples"), by event. */
	void (*lost)(void *arg, int evsel, uint64_t lost);
	/* After the last record, with the machine as it ended. */
	void (*finish)(void *arg, struct machine *m);
	void *arg;
};

int session__run(struct pdata *p, const char *label, FILE *f, enum session_mode mode,
		 const struct session_ops *ops, char *err, size_t errlen);

#endif
