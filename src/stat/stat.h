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
	/* Every run's values: run r's event i (as shown: msec for a clock) at [r * (nr_events + 1) + i], its elapsed ns after them. */
	double *vals;
	size_t vals_alloc;
};

/* STAT_JSON is mperf's document (--mperf-json), STAT_JSONL perf's -j lines. */
enum stat_format { STAT_TEXT, STAT_CSV, STAT_JSON, STAT_JSONL };

/* perf's aggregation: the sum (default), -A, --per-core, --per-socket, --per-die, --per-node, --per-thread. */
enum stat_aggr { STAT_AGGR_GLOBAL, STAT_AGGR_CPU, STAT_AGGR_CORE, STAT_AGGR_SOCKET, STAT_AGGR_DIE, STAT_AGGR_NODE,
		 STAT_AGGR_THREAD };

/* Where CPU n is (cmd/ reads it from the host's topology): cpu_ids[n]. */
struct stat_cpu_ids {
	int socket, die, core, node;
};

struct stat_print_opts {
	enum stat_format format;
	const char *sep;	/* -x SEP */
	const char *subject;	/* what was counted: "'CMD ARGS'", "'system wide'", "process id 'PID'" */
	/* For the JSON document: */
	long runs_made;		/* the runs made: those averaged, and a failed one that ended them */
	int workload_status;	/* the status of the last run made's workload, -1 when none ran */
	const struct check_findings *check;	/* --check's findings, NULL without --check */
	double tolerance;
	const struct stat_compare *cmp;	/* --baseline's comparison, or NULL */
	/* perf's modes: */
	enum stat_aggr aggr;
	const struct stat_cpu_ids *cpu_ids;	/* by CPU number, nr_cpu_ids of them (the --per-* modes) */
	int nr_cpu_ids;
	/* --per-thread: a thread's name in buf (its comm), or "" */
	void (*comm)(int tid, char *buf, size_t len);
	long interval_ms;	/* -I: the interval, which the "CPUs utilized" of a row divides by */
	int interval_rows;	/* -I: the intervals printed so far (perf's header every 25) */
	bool summary;		/* -I --summary: the totals after the intervals, perf's way */
	bool table;		/* --table: each run's elapsed time before the mean's (text, -r) */
	bool metric_only;	/* --metric-only: the "#" figures alone, perf's columns (one run, the sum) */
};

void stat_acc__add(struct stat_acc *a, double v);
/* perf's stddev of the mean: sqrt(variance / n); 0 under two runs. */
double stat_acc__stddev(const struct stat_acc *a);

/* Add one run (the first one sets the events).  0, or -ENOMEM (the run not added). */
int stat_runs__add(struct stat_runs *s, const struct count_result *r);
void stat_runs__release(struct stat_runs *s);
/* Run r's value of event i as shown (msec for a clock), i == nr_events its elapsed ns. */
double stat_runs__value(const struct stat_runs *s, int r, size_t i);

/*
 * The subject of perf's header line, in buf: 'system wide', 'CPU(s) 0-1',
 * process id '1,2', thread id '3', or the command line quoted.
 */
void stat__subject(char *buf, size_t len, const struct count_opts *o);

/*
 * Print s in p's format.  r is the run's counts (its cells) for
 * p->aggr's rows; NULL with STAT_AGGR_GLOBAL.  0, or -errno of a failed
 * write (not logged), -ENOMEM.
 */
int stat__print(FILE *f, const struct stat_runs *s, const struct count_result *r, const struct stat_print_opts *p);
/* -I: one interval's rows (iv: record__count's tick), perf's header every 25 in text.  0, -errno, -ENOMEM. */
int stat__print_interval(FILE *f, const struct count_result *iv, struct stat_print_opts *p);

/* ---- --baseline: this stat's runs against a previous document's ---- */

/* The runs of a previous `stat --json -r N` (its per-run "counter-values"). */
struct stat_baseline {
	size_t nr_events;
	struct stat_base_event {
		char name[128];
		double *v;	/* every run's value, as shown */
		size_t n;
	} ev[RECORD_MAX_EVENTS];
};

/*
 * Read a mperf-stat/1 document from text[0..len) into b.  0, or -EINVAL
 * with the reason in why (not a JSON document, another schema, a version
 * too new, no per-run values: made by an mperf before them), -ENOMEM.
 */
int stat_baseline__parse(struct stat_baseline *b, const char *text, size_t len, char *why, size_t whylen);
void stat_baseline__release(struct stat_baseline *b);
/* The baseline of runs counted here (--baseline-cmd): s's events and every run's values.  0 or -ENOMEM. */
int stat_baseline__from_runs(struct stat_baseline *b, const struct stat_runs *s);

#define STAT_ALPHA 0.05	/* --alpha's default */

/* One event's change against the baseline's event of the same name. */
struct stat_change {
	bool matched;		/* the baseline counted an event of this name */
	size_t base_n, n;	/* the runs of each side */
	double base_mean, mean;
	double change_pct;	/* (mean - base_mean) / base_mean, in percent */
	double ci_lo_pct, ci_hi_pct;	/* its 95% interval (Welch), NAN under two runs a side */
	double shift_pct;	/* Hodges-Lehmann's shift: the median of b[j] - a[i], in percent of a's median */
	double p;		/* Mann-Whitney U, two-sided */
	bool flagged;		/* |shift| beyond the tolerance and p below alpha */
	const double *base_v;	/* the baseline's runs' values [base_n] (the baseline's memory) */
};

struct stat_compare {
	const char *file;
	double tolerance, alpha;
	struct stat_change ev[RECORD_MAX_EVENTS];	/* by s's event index */
	int nr_flagged;
};

/* Compare s's events with b's, into c (c->file, tolerance and alpha set by the caller).  0, or -ENOMEM, or -E2BIG: too many runs for the test. */
int stat__compare(const struct stat_runs *s, const struct stat_baseline *b, struct stat_compare *c);

/* ---- --check (record, report, stat) ---- */

#define STAT_CHECK_TOLERANCE	5.0	/* percent, --check-tolerance's default */
#define STAT_EXIT_CHECK		3	/* the exit status of a failed --check, unless --check-status says */

/* One event as --check sees it, from a recording, a file or a count. */
struct check_event {
	char name[128];
	struct perf_event_attr attr;	/* as opened: what makes two events alike */
	bool tracking;		/* perf's dummy:HG of -a/-C: samples nothing, not checked */
	bool counting;		/* value is a count (stat), not a number of samples */
	uint64_t value;		/* samples, or the count */
	uint64_t lost;		/* samples lost */
	uint64_t throttles;	/* times the kernel throttled it */
	bool has_times;		/* ena and run are known */
	uint64_t ena, run;	/* time enabled and running, ns */
};

/* The findings of a check, one line each ("check: event #0 'x' lost 3 samples"). */
struct check_findings {
	char **line;
	size_t nr, alloc;
	int failed;		/* findings, those that could not be kept (said at once) too */
};

/* A finding: kept in f, or said through the log hook if there is no memory for it. */
void check_findings__add(struct check_findings *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void check_findings__free(struct check_findings *f);
/*
 * The "check" value of a JSON document: null when no check ran (c NULL),
 * else {"tolerance-pct": T, "passed": B, "findings": [LINE, ...]}.
 */
void stat__check_json(FILE *f, const struct check_findings *c, double tolerance);

/*
 * Check ev[0..n): one finding in out per event that lost samples, was
 * throttled or ran less than it was enabled, and per event more than
 * tolerance percent below the largest of its like ones (same type,
 * config, period or frequency, modifiers).  Returns the number of findings.
 */
int stat__check(const struct check_event *ev, size_t n, double tolerance, struct check_findings *out);

/* ---- the JSON summary of a recording (record --json-summary, report --stats --json) ---- */

#define STAT_SUMMARY_VERSION 1

struct stat_summary {
	const char *source;	/* "record" or "report" */
	const char *file;	/* the perf.data written or read */
	const struct check_event *ev;	/* every event, by index */
	size_t nr_events;
	uint64_t samples;
	uint64_t lost_records, lost_events;	/* PERF_RECORD_LOST and the events they say were lost */
	/* What only the recording knows (record): has_run says they are set. */
	bool has_run;
	uint64_t elapsed_ns, wakeups, poll_timeouts;
	uint64_t passes, sleeps;	/* the drain's passes, and its polls that waited */
	bool fell_back, user_only;
	/* What only the file says (report): the span of the sample times, 0 when unknown. */
	uint64_t first_time, last_time;
	bool unfinished;	/* the header's data size is 0: the recorder was killed */
	bool damaged;		/* the data is cut or corrupt: the figures are of what came before */
	/* The workload's exit status (record of a command; 128+N for signal N), has_workload says. */
	bool has_workload;
	int workload_status;
	/* --check's findings, or NULL when no check ran. */
	const struct check_findings *check;
	double tolerance;
};

/* Write s as one JSON document (schema mperf-summary/1, in mperf-record(1)).  0, or -errno. */
int stat__summary_json(FILE *f, const struct stat_summary *s);

#endif
