/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_REPORT_H
#define MPERF_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/*
 * What `mperf report` shows of a perf.data file, each a consumer of the
 * session (session.h).  label names the input: in messages, and after
 * '@' in each record's first line of -D ("pipe" for pipe mode, whatever
 * the source).  Each returns 0 or a negative code, whose cause is logged
 * (one line naming the problem and its offset), except -EPIPE: the
 * reader of the output went away, and the output stopped early.
 * report__dump is in dump.c, report__stats in stats.c, report__hist in
 * hist.c, report__header in header.c.
 */
struct pdata;

/*
 * `report -D`: print every record of p in perf 6.1's dump format, ordered
 * as perf orders them, then the aggregated and per-event stats.
 */
int report__dump(struct pdata *p, const char *label, FILE *out);

/* The end block of -D alone (aggregated and per-event stats), read the same way. */
int report__stats(struct pdata *p, const char *label, FILE *out);

enum report_key { REPORT_KEY_COMM, REPORT_KEY_PID, REPORT_KEY_DSO, REPORT_KEY_SYM };
#define REPORT_NR_KEYS (REPORT_KEY_SYM + 1)
#define REPORT_MAX_KEYS 8

struct report_hist_opts {
	enum report_key keys[REPORT_MAX_KEYS];	/* sort order (default comm,dso,sym) */
	int nr_keys;
	double percent_limit;			/* hide entries below this share */
	const char *comm;			/* comma-separated commands to keep, or NULL */
	const char *dso;			/* comma-separated DSO names to keep, or NULL */
	bool json;				/* one JSON document instead of text */
	bool after_header;			/* --header came first: no prologue line */
};

/* The per-event histograms of perf report --stdio. */
int report__hist(struct pdata *p, const char *label, const struct report_hist_opts *o, FILE *out);

/* --header-only: the header and features, as perf report --header-only prints them. */
int report__header(struct pdata *p, const char *label, time_t mtime, FILE *out);

/*
 * `mperf script`: one line per sample as perf script 6.1 prints it (and
 * its call chain, one line per frame), tracepoints' fields decoded with
 * libtraceevent from the file's TRACING_DATA; in script.c.
 */

/* The fields perf script's -F names that mperf prints. */
enum script_field {
	SCRIPT_F_COMM = 1u << 0, SCRIPT_F_TID = 1u << 1, SCRIPT_F_PID = 1u << 2,
	SCRIPT_F_TIME = 1u << 3, SCRIPT_F_CPU = 1u << 4, SCRIPT_F_EVENT = 1u << 5,
	SCRIPT_F_TRACE = 1u << 6, SCRIPT_F_IP = 1u << 7, SCRIPT_F_SYM = 1u << 8,
	SCRIPT_F_DSO = 1u << 9, SCRIPT_F_SYMOFF = 1u << 10, SCRIPT_F_PERIOD = 1u << 11,
};

/*
 * perf script prints fields by kind of event: hardware, software,
 * tracepoint, hardware cache, raw, breakpoint (the attr types), and any
 * other PMU.
 */
#define SCRIPT_NR_TYPES 7

struct report_script_opts {
	struct {
		unsigned fields;	/* what to print */
		unsigned named;		/* what -F named: refused when the samples lack it */
		bool user_set;		/* -F decided this type's fields */
	} type[SCRIPT_NR_TYPES];
	bool header;			/* --header: the file's header first */
};

/* perf's defaults (no -F). */
void report__script_defaults(struct report_script_opts *o);
/*
 * One -F argument, as perf script takes it: "[TYPE:]FIELD,..." sets the
 * fields (of TYPE: hw, sw, trace, raw, break, or all), "+FIELD" adds to
 * what is set and "-FIELD" takes away.  0, or -MPERF_ERR_USAGE (logged).
 */
int report__script_fields(struct report_script_opts *o, const char *arg);
int report__script(struct pdata *p, const char *label, const struct report_script_opts *o, FILE *out);

#endif
