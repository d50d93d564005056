/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_REPORT_STATS_H
#define MPERF_REPORT_STATS_H

#include <stdbool.h>
#include "../resolve/session.h"

/* The end block of -D, and --stats: a session consumer of its own (stats.c). */
struct stats;
struct out;

struct stats *stats__new(struct pdata *p);
void stats__delete(struct stats *st);
int stats__record(struct stats *st, const struct session_record *r);
int stats__sample(struct stats *st, const struct session_sample *ss);
/* "Aggregated stats:" and, per event, its TOTAL and a row per record type. */
void stats__print(const struct stats *st, struct out *out, bool after_dump);

#endif
