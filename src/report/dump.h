/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_REPORT_DUMP_H
#define MPERF_REPORT_DUMP_H

#include <stdint.h>
#include <stdio.h>
#include "../perfdata/perfdata.h"
#include "out.h"

/* "\n<off>@<label> [<size>]: event: <type>\n", the hex dump, then a blank line. */
void dump__raw(struct out *out, const char *label, uint64_t off, const struct perf_event_header *h);
/*
 * What perf prints after "PERF_RECORD_<NAME>" for a record that is not a
 * SAMPLE, up to and including the final newline (nothing at all for the
 * types perf leaves unterminated).  ev: the record's event, or NULL.
 */
void dump__details(struct out *out, const struct perf_event_header *h, const struct pd_sample *s,
		   const struct pd_evsel *ev, bool ordered);
/* A SAMPLE's line and its fields, without the thread/dso lines; arch names the registers (pd_reg_name). */
void dump__sample(struct out *out, const struct perf_event_header *h, const struct perf_event_attr *attr,
		  const struct pd_sample *s, const char *arch);
/* "0-1,3" form of a perf cpu map payload; returns 0 or -1 if malformed. */
int dump__cpu_map(char *buf, size_t len, const unsigned char *p, size_t n);

#endif
