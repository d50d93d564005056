/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_REPORT_TRACEFMT_H
#define MPERF_REPORT_TRACEFMT_H

/*
 * A file's tracepoint formats, from its TRACING_DATA, parsed by
 * libtraceevent as perf parses them, and a sample's fields printed as its
 * event's print format says: what script prints after a tracepoint's
 * name, and report's trace key.  Zero-initialise; tracefmt__release.
 */
#include <stdbool.h>
#include <stddef.h>

struct pdata;
struct pd_evsel;
struct pd_sample;
struct tep_handle;
struct tep_event;
struct trace_seq;

struct tracefmt {
	struct tep_handle *tep;		/* NULL: the file has no tracing data */
	bool loaded;
	struct trace_seq *seq;		/* the last tracefmt__info's text */
	struct tep_event **tp;		/* per event: its format, or NULL */
	size_t nr_tp;
};

/* Read p's TRACING_DATA (label names it in errors).  0, or a negative code, logged. */
int tracefmt__load(struct tracefmt *t, struct pdata *p, const char *label);
void tracefmt__release(struct tracefmt *t);
/* The format of event evsel (ev), or NULL (not a tracepoint, or unknown). */
struct tep_event *tracefmt__event(struct tracefmt *t, int evsel, const struct pd_evsel *ev);
/*
 * The sample's fields as its format prints them (perf's TEP_PRINT_INFO),
 * NUL-terminated, *len bytes, valid until the next call: NULL without a
 * format or where the raw data does not hold every field.
 */
const char *tracefmt__info(struct tracefmt *t, int evsel, const struct pd_evsel *ev, const struct pd_sample *smp,
			   size_t *len);

#endif
