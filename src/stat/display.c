// SPDX-License-Identifier: GPL-2.0-only
/*
 * mperf stat's output, in perf stat 6.1's shapes (learnt from what
 * /usr/bin/perf prints): the counts, the units perf gives the clocks
 * (msec), the "#" column (CPUs utilized for a clock, N /sec for the other
 * counts when a clock of the same modifiers was counted), the noise of -r
 * and the running percentage when the kernel multiplexed.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "../lib/json.h"
#include "internal.h"

void stat_acc__add(struct stat_acc *a, double v)
{
	double d = v - a->mean;

	a->n += 1;
	a->mean += d / a->n;
	a->m2 += d * (v - a->mean);
}

double stat_acc__stddev(const struct stat_acc *a)
{
	if (a->n < 2)
		return 0.0;
	return sqrt(a->m2 / (a->n - 1) / a->n);
}

static bool is_clock(const struct perf_event_attr *a);
static int print_rows(FILE *f, const struct stat_runs *s, const struct count_result *r, const struct stat_print_opts *p);

int stat_runs__add(struct stat_runs *s, const struct count_result *r)
{
	size_t stride;
	double *row;

	if (!s->runs) {
		s->nr_events = r->nr_events;
		for (size_t i = 0; i < r->nr_events; i++) {
			snprintf(s->ev[i].name, sizeof(s->ev[i].name), "%s", r->ev[i].name);
			s->ev[i].attr = r->ev[i].attr;
			s->ev[i].supported = r->ev[i].supported;
		}
		s->has_workload = r->has_workload;
		s->has_cpu = r->has_cpu;
	}
	stride = s->nr_events + 1;
	if (ALLOC_GROW(s->vals, ((size_t)s->runs + 1) * stride, s->vals_alloc))
		return -ENOMEM;
	row = s->vals + (size_t)s->runs * stride;
	for (size_t i = 0; i < s->nr_events; i++) {
		double v = i < r->nr_events ? r->ev[i].val : 0;

		row[i] = is_clock(&s->ev[i].attr) ? v / 1e6 : v;
		if (i >= r->nr_events)
			continue;
		stat_acc__add(&s->ev[i].val, r->ev[i].val);
		stat_acc__add(&s->ev[i].ena, (double)r->ev[i].ena);
		stat_acc__add(&s->ev[i].run, (double)r->ev[i].run);
		s->ev[i].raw = r->ev[i].raw;
	}
	row[s->nr_events] = (double)r->elapsed_ns;
	stat_acc__add(&s->wall, (double)r->elapsed_ns);
	s->utime_ns = r->utime_ns;
	s->stime_ns = r->stime_ns;
	s->runs++;
	return 0;
}

void stat_runs__release(struct stat_runs *s)
{
	free(s->vals);
	s->vals = NULL;
	s->vals_alloc = 0;
}

double stat_runs__value(const struct stat_runs *s, int r, size_t i)
{
	return s->vals[(size_t)r * (s->nr_events + 1) + i];
}

void stat__subject(char *buf, size_t len, const struct count_opts *o)
{
	size_t n;

	if (o->pids)
		snprintf(buf, len, "process id '%s'", o->pids);
	else if (o->tids)
		snprintf(buf, len, "thread id '%s'", o->tids);
	else if (o->cpu_list)
		snprintf(buf, len, "'CPU(s) %s'", o->cpu_list);
	else if (o->system_wide)
		snprintf(buf, len, "'system wide'");
	else {
		snprintf(buf, len, "'");
		for (size_t i = 0; o->argv && o->argv[i]; i++) {
			n = strlen(buf);
			snprintf(buf + n, len - n, "%s%s", i ? " " : "", o->argv[i]);
		}
		n = strlen(buf);
		snprintf(buf + n, len - n, "'");
	}
}

static bool is_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK);
}

/* perf keys its derived figures by the modifiers: a clock of :u rates only :u counts. */
static bool same_ctx(const struct perf_event_attr *a, const struct perf_event_attr *b)
{
	return a->exclude_user == b->exclude_user && a->exclude_kernel == b->exclude_kernel &&
	       a->exclude_hv == b->exclude_hv && a->exclude_host == b->exclude_host &&
	       a->exclude_idle == b->exclude_idle;
}

static bool counted(const struct stat_event *e)
{
	return e->supported && e->run.mean > 0 && e->ena.mean > 0;
}

bool stat__counted(const struct stat_event *e)
{
	return counted(e);
}

/* The "#" figure of event i: its value and unit, or false when perf prints none. */
static bool metric(const struct stat_runs *s, size_t i, double *val, char *unit, size_t len)
{
	const struct stat_event *e = &s->ev[i];
	double total = 0, n = 0;

	if (is_clock(&e->attr)) {
		*val = s->wall.mean > 0 ? e->val.mean / s->wall.mean : 0;
		snprintf(unit, len, "CPUs utilized");
		return true;
	}
	/* As perf: every clock of the same modifiers, each run, averaged. */
	for (size_t k = 0; k < s->nr_events; k++)
		if (is_clock(&s->ev[k].attr) && counted(&s->ev[k]) && same_ctx(&s->ev[k].attr, &e->attr)) {
			total += s->ev[k].val.mean;
			n += 1;
		}
	if (!n)
		return false;
	total /= n;
	*val = total > 0 ? 1e9 * e->val.mean / total : 0;
	{
		const char *p = "";

		if (*val > 1000.0) {
			*val /= 1000.0;
			p = "K";
		}
		if (*val > 1000.0) {
			*val /= 1000.0;
			p = "M";
		}
		if (*val > 1000.0) {
			*val /= 1000.0;
			p = "G";
		}
		snprintf(unit, len, "%s/sec", p);
	}
	return true;
}

static double noise_pct(const struct stat_acc *a)
{
	return a->mean ? 100.0 * stat_acc__stddev(a) / a->mean : 0.0;
}

/* perf's enabled percentage in -x and JSON: an integer division of the times. */
static double running_pct(const struct stat_event *e)
{
	uint64_t run = (uint64_t)e->run.mean, ena = (uint64_t)e->ena.mean;

	return run != ena && ena ? (double)(100 * run / ena) : 100.0;
}

static const char *unit_of(const struct stat_event *e)
{
	return is_clock(&e->attr) ? "msec" : e->attr.type == RECORD_TYPE_TOOL ? "ns" : "";
}

static double shown_value(const struct stat_event *e)
{
	return is_clock(&e->attr) ? e->val.mean / 1e6 : e->val.mean;
}

static void print_text_event(FILE *f, const struct stat_runs *s, size_t i)
{
	const struct stat_event *e = &s->ev[i];
	char unit[32];
	double v;

	if (!counted(e)) {
		fprintf(f, "%18s %-4s %-32s%-28s", e->supported ? "<not counted>" : "<not supported>", unit_of(e), e->name, "");
	} else {
		fprintf(f, is_clock(&e->attr) ? "%'18.2f" : "%'18.0f", shown_value(e));
		fprintf(f, " %-4s %-32s", unit_of(e), e->name);
		if (metric(s, i, &v, unit, sizeof(unit))) {
			int n = fprintf(f, " # ");

			n += fprintf(f, "%8.3f", v);
			fprintf(f, " %-*s", n < 34 ? 34 - n : 0, unit);
		} else {
			fprintf(f, "%-35s", "");
		}
		if (s->runs > 1 && noise_pct(&e->val))
			fprintf(f, "  ( +-%6.2f%% )", noise_pct(&e->val));
		if ((uint64_t)e->run.mean != (uint64_t)e->ena.mean)
			fprintf(f, "  (%.2f%%)", 100.0 * e->run.mean / e->ena.mean);
	}
	fputc('\n', f);
}

/* perf's digits for the elapsed time of -r: two more than the stddev's first. */
static int precision(double sd)
{
	if (sd > 1 || sd <= 0)
		return 2;
	return (int)lround(ceil(-log10(sd))) + 2;
}

/* A number as JSON: null for NaN (too few runs). */
__attribute__((format(printf, 2, 0)))
static void json_num(FILE *f, const char *fmt, double v)
{
	if (isnan(v))
		fputs("null", f);
	else
		fprintf(f, fmt, v);
}

/*
 * --baseline's lines under perf's table: per event Hodges-Lehmann's shift,
 * the change of the mean, its 95% interval, the two-sided Mann-Whitney U p-value, and a
 * mark on the changes beyond the tolerance at p below alpha.
 */
static void print_text_compare(FILE *f, const struct stat_runs *s, const struct stat_compare *c)
{
	fprintf(f, " Shift (Hodges-Lehmann) and change of the mean against '%s' (95%% interval; p: Mann-Whitney U, two-sided):\n\n",
		c->file);
	for (size_t i = 0; i < s->nr_events; i++) {
		const struct stat_change *e = &c->ev[i];

		if (!e->matched) {
			fprintf(f, " %56s  %s\n", "<not in the baseline>", s->ev[i].name);
			continue;
		}
		fprintf(f, " %+9.2f%%  %+9.2f%%", e->shift_pct, e->change_pct);
		if (isnan(e->ci_lo_pct))
			fprintf(f, "  %-22s", "");
		else
			fprintf(f, "  [%+8.2f%%, %+8.2f%% ]", e->ci_lo_pct, e->ci_hi_pct);
		fprintf(f, "  p=%-8.2g %s (%zu vs %zu runs)", e->p, s->ev[i].name, e->base_n, e->n);
		if (e->flagged)
			fprintf(f, "  # changed: shift beyond %g%% at p < %g", c->tolerance, c->alpha);
		fputc('\n', f);
	}
	fputc('\n', f);
}

/* , "key": [v...] of n values, as counter-values prints them. */
static void print_json_values(FILE *f, const char *key, const double *v, size_t n)
{
	fprintf(f, ", \"%s\": [", key);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s", i ? ", " : "");
		json_num(f, "%.6f", v[i]);
	}
	fputc(']', f);
}

static void print_json_compare(FILE *f, const struct stat_runs *s, const struct stat_compare *c)
{
	if (!c) {
		fprintf(f, ", \"baseline\": null");
		return;
	}
	fprintf(f, ", \"baseline\": {\"file\": ");
	json_fputs(f, c->file);
	fprintf(f, ", \"test\": \"mann-whitney-u-two-sided\", \"interval-pct\": 95, \"alpha\": %g, \"tolerance-pct\": %g, \"flagged\": %d, \"events\": [",
		c->alpha, c->tolerance, c->nr_flagged);
	for (size_t i = 0; i < s->nr_events; i++) {
		const struct stat_change *e = &c->ev[i];

		fprintf(f, "%s\n  {\"index\": %zu, \"event\": ", i ? "," : "", i);
		json_fputs(f, s->ev[i].name);
		fprintf(f, ", \"matched\": %s", e->matched ? "true" : "false");
		if (e->matched) {
			fprintf(f, ", \"baseline-runs\": %zu, \"baseline-mean\": %.6f, \"mean\": %.6f, \"shift-pct\": ",
				e->base_n, e->base_mean, e->mean);
			json_num(f, "%.4f", e->shift_pct);
			fprintf(f, ", \"change-pct\": ");
			json_num(f, "%.4f", e->change_pct);
			fprintf(f, ", \"interval-low-pct\": ");
			json_num(f, "%.4f", e->ci_lo_pct);
			fprintf(f, ", \"interval-high-pct\": ");
			json_num(f, "%.4f", e->ci_hi_pct);
			fprintf(f, ", \"p-value\": %.6g, \"flagged\": %s", e->p, e->flagged ? "true" : "false");
			print_json_values(f, "baseline-values", e->base_v, e->base_n);
		}
		fputc('}', f);
	}
	fprintf(f, "\n]}");
}

/*
 * --table, as perf 6.1 prints it: under the counts, each run's elapsed
 * seconds, its difference from the mean and a bar of one '#' and one more
 * per whole 5% of the difference (over the run's time); then the mean's
 * line, under "# Final result:".  The lines are indented as the mean's
 * number is.
 */
static void print_table(FILE *f, const struct stat_runs *s, int prec)
{
	double mean = s->wall.mean / 1e9;
	char num[64];
	int indent = 0;

	snprintf(num, sizeof(num), " %17.*f", prec, mean);
	while (num[indent] == ' ')
		indent++;
	fprintf(f, "%*s# Table of individual measurements:\n", indent, "");
	for (int r = 0; r < s->runs; r++) {
		double t = stat_runs__value(s, r, s->nr_events) / 1e9;
		int pct = t > 0 ? (int)(100.0 * (t - mean) / t) : 0;
		int bars = 1 + (pct < 0 ? -pct : pct) / 5;

		fprintf(f, " %17.*f (%+.*f) ", prec, t, prec, t - mean);
		for (int b = 0; b < bars; b++)
			fputc('#', f);
		fputc('\n', f);
	}
	fprintf(f, "\n%*s# Final result:\n", indent, "");
}

static int print_text(FILE *f, const struct stat_runs *s, const struct count_result *r, const struct stat_print_opts *p)
{
	double wall = s->wall.mean / 1e9;
	int err;

	fprintf(f, "\n Performance counter stats for %s", p->subject);
	if (s->runs > 1)
		fprintf(f, " (%d runs)", s->runs);
	fprintf(f, ":\n\n");
	if ((err = print_rows(f, s, r, p)))
		return err;
	if (s->nr_events)
		fputc('\n', f);
	if (s->runs == 1) {
		fprintf(f, " %17.9f seconds time elapsed", wall);
		/* perf shows the command's own times when the command is what was counted. */
		if (s->has_workload)
			fprintf(f, "\n\n %17.9f seconds user\n %17.9f seconds sys\n", (double)s->utime_ns / 1e9,
				(double)s->stime_ns / 1e9);
	} else {
		double sd = stat_acc__stddev(&s->wall) / 1e9;
		int prec = precision(sd);

		if (p->table)
			print_table(f, s, prec);
		fprintf(f, " %17.*f +- %.*f seconds time elapsed", prec, wall, prec, sd);
		if (noise_pct(&s->wall))
			fprintf(f, "  ( +-%6.2f%% )", noise_pct(&s->wall));
	}
	fprintf(f, "\n\n");
	if (p->cmp)
		print_text_compare(f, s, p->cmp);
	return 0;
}

static void csv_event(FILE *f, const struct stat_runs *s, size_t i, const char *sep)
{
	const struct stat_event *e = &s->ev[i];
	char unit[32];
	double v;

	if (!counted(e))
		fprintf(f, "%s", e->supported ? "<not counted>" : "<not supported>");
	else
		fprintf(f, is_clock(&e->attr) ? "%.2f" : "%.0f", shown_value(e));
	fprintf(f, "%s%s%s%s", sep, unit_of(e), sep, e->name);
	if (s->runs > 1)
		fprintf(f, "%s%.2f%%", sep, noise_pct(&e->val));
	fprintf(f, "%s%llu%s%.2f", sep, (unsigned long long)e->run.mean, sep, running_pct(e));
	if (counted(e) && metric(s, i, &v, unit, sizeof(unit)))
		fprintf(f, "%s%.3f%s%s\n", sep, v, sep, unit);
	else
		fprintf(f, "%s%s\n", sep, sep);
}

/* perf's -j line of event i, pre (its mode's keys) first. */
static void jsonl_event(FILE *f, const struct stat_runs *s, size_t i, const char *pre)
{
	const struct stat_event *e = &s->ev[i];
	char unit[32];
	double v;

	fprintf(f, "{%s\"counter-value\" : \"", pre);
	if (counted(e))
		fprintf(f, "%f", shown_value(e));
	else
		fputs(e->supported ? "<not counted>" : "<not supported>", f);
	fprintf(f, "\", \"unit\" : \"%s\", \"event\" : ", unit_of(e));
	json_fputs(f, e->name);
	if (s->runs > 1)
		fprintf(f, ", \"variance\" : %.2f", noise_pct(&e->val));
	fprintf(f, ", \"event-runtime\" : %llu, \"pcnt-running\" : %.2f", (unsigned long long)e->run.mean,
		running_pct(e));
	/* As perf 6.1: a count with no "#" figure says "(null)", one not counted "". */
	if (counted(e) && metric(s, i, &v, unit, sizeof(unit)))
		fprintf(f, ", \"metric-value\" : %f, \"metric-unit\" : \"%s\"}\n", v, unit);
	else
		fprintf(f, ", \"metric-value\" : %f, \"metric-unit\" : \"%s\"}\n", 0.0, counted(e) ? "(null)" : "");
}

void stat__row(FILE *f, const struct stat_runs *s, size_t i, const struct stat_print_opts *p, const char *pre)
{
	switch (p->format) {
	case STAT_CSV:
		fputs(pre, f);
		csv_event(f, s, i, p->sep);
		break;
	case STAT_JSONL:
		jsonl_event(f, s, i, pre);
		break;
	default:
		fputs(pre, f);
		print_text_event(f, s, i);
		break;
	}
}

/*
 * The rows of the counts: s's events (their means over the runs), or in
 * p->aggr's mode r's units.  -x's rows after --summary's "summary".
 */
static int print_rows(FILE *f, const struct stat_runs *s, const struct count_result *r, const struct stat_print_opts *p)
{
	char pre[32] = "";

	if (p->summary && p->format == STAT_CSV)
		snprintf(pre, sizeof(pre), "%16s%s", "summary", p->sep);
	if (p->aggr != STAT_AGGR_GLOBAL && r)
		return stat__mode_rows(f, r, p, pre, s->wall.mean);
	if (p->metric_only) {
		stat__metric_only(f, s, p);
		return 0;
	}
	for (size_t i = 0; i < s->nr_events; i++)
		stat__row(f, s, i, p, pre);
	return 0;
}

/* mperf's document (schema in man/mperf-stat.1): perf's field names, one object, a version. */
static void print_json(FILE *f, const struct stat_runs *s, const struct stat_print_opts *p)
{
	fputc('{', f);
	json_fhead(f, "stat", STAT_JSON_VERSION);
	fprintf(f, ", \"subject\": ");
	json_fputs(f, p->subject);
	if (p->workload_status >= 0) {
		/* Every run made passed but the last, which ends the runs when it fails. */
		fprintf(f, ", \"workload-status\": %d, \"workload-statuses\": [", p->workload_status);
		for (long r = 0; r < p->runs_made; r++)
			fprintf(f, "%s%d", r ? ", " : "", r == p->runs_made - 1 ? p->workload_status : 0);
		fputc(']', f);
	} else {
		fprintf(f, ", \"workload-status\": null, \"workload-statuses\": null");
	}
	fprintf(f, ", \"check\": ");
	stat__check_json(f, p->check, p->tolerance);
	fprintf(f, ", \"runs\": %d, \"elapsed-ns\": %.0f, \"elapsed-stddev-ns\": %.0f", s->runs, s->wall.mean,
		stat_acc__stddev(&s->wall));
	fprintf(f, ", \"elapsed-ns-values\": [");
	for (int r = 0; r < s->runs; r++)
		fprintf(f, "%s%.0f", r ? ", " : "", stat_runs__value(s, r, s->nr_events));
	fputc(']', f);
	print_json_compare(f, s, p->cmp);
	if (s->has_workload)
		fprintf(f, ", \"user-ns\": %llu, \"sys-ns\": %llu", (unsigned long long)s->utime_ns,
			(unsigned long long)s->stime_ns);
	fprintf(f, ", \"events\": [");
	for (size_t i = 0; i < s->nr_events; i++) {
		const struct stat_event *e = &s->ev[i];
		char unit[32];
		double v;

		fprintf(f, "%s\n  {\"index\": %zu, \"event\": ", i ? "," : "", i);
		json_fputs(f, e->name);
		fprintf(f, ", \"supported\": %s, \"counted\": %s, \"counter-value\": ", e->supported ? "true" : "false",
			counted(e) ? "true" : "false");
		if (counted(e))
			fprintf(f, "%.6f", shown_value(e));
		else
			fprintf(f, "null");
		fprintf(f, ", \"unit\": \"%s\", \"variance\": %.2f, \"event-runtime\": %.0f, \"event-enabled\": %.0f, \"pcnt-running\": %.2f",
			unit_of(e), noise_pct(&e->val), e->run.mean, e->ena.mean,
			e->ena.mean > 0 ? 100.0 * e->run.mean / e->ena.mean : 100.0);
		if (counted(e) && metric(s, i, &v, unit, sizeof(unit))) {
			fprintf(f, ", \"metric-value\": %.6f, \"metric-unit\": ", v);
			json_fputs(f, unit);
		}
		/* Every run's value, as counter-value shows their mean (what --baseline reads). */
		fprintf(f, ", \"counter-values\": ");
		if (!counted(e)) {
			fprintf(f, "null}");
			continue;
		}
		for (int r = 0; r < s->runs; r++)
			fprintf(f, "%s%.6f", r ? ", " : "[", stat_runs__value(s, r, i));
		fprintf(f, "%s}", s->runs ? "]" : "[]");
	}
	fprintf(f, "\n]}\n");
}

int stat__print(FILE *f, const struct stat_runs *s, const struct count_result *r, const struct stat_print_opts *p)
{
	int err = 0;

	switch (p->format) {
	case STAT_CSV:
	case STAT_JSONL:
		err = print_rows(f, s, r, p);
		break;
	case STAT_JSON:
		print_json(f, s, p);
		break;
	default:
		err = print_text(f, s, r, p);
		break;
	}
	if (err)
		return err;
	return fflush(f) || ferror(f) ? -(errno ? errno : EIO) : 0;
}
