// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON summary of a recording, for CI: every event by index (those
 * without a sample too), its attr's period or frequency, samples, lost,
 * throttles, times where known; the fallbacks, the elapsed time, the
 * drain's wakeups, poll time-outs and passes; the workload's status, whether the
 * recording finished whole, --check's findings.  Schema mperf-summary/1, in
 * man/mperf-record.1; fields are only added within a version.
 */
#include <errno.h>
#include <stdio.h>
#include "../lib/json.h"
#include "stat.h"

static const char *tf(bool b)
{
	return b ? "true" : "false";
}

int stat__summary_json(FILE *f, const struct stat_summary *s)
{
	fputc('{', f);
	json_fhead(f, "summary", STAT_SUMMARY_VERSION);
	fprintf(f, ", \"source\": ");
	json_fputs(f, s->source);
	fprintf(f, ", \"file\": ");
	json_fputs(f, s->file);
	fprintf(f, ",\n \"samples\": %llu, \"lost-records\": %llu, \"lost-events\": %llu",
		(unsigned long long)s->samples, (unsigned long long)s->lost_records,
		(unsigned long long)s->lost_events);
	if (s->has_run)
		fprintf(f, ",\n \"elapsed-ns\": %llu, \"wakeups\": %llu, \"poll-timeouts\": %llu, \"fallback\": {\"cycles-to-cpu-clock\": %s, \"user-only\": %s}",
			(unsigned long long)s->elapsed_ns, (unsigned long long)s->wakeups,
			(unsigned long long)s->poll_timeouts, tf(s->fell_back), tf(s->user_only));
	else
		fprintf(f, ",\n \"elapsed-ns\": null, \"wakeups\": null, \"poll-timeouts\": null, \"fallback\": null");
	if (s->has_run)
		fprintf(f, ", \"passes\": %llu, \"sleeps\": %llu",
			(unsigned long long)s->passes, (unsigned long long)s->sleeps);
	else
		fprintf(f, ", \"passes\": null, \"sleeps\": null");
	if (s->first_time && s->last_time >= s->first_time)
		fprintf(f, ", \"sample-span-ns\": %llu", (unsigned long long)(s->last_time - s->first_time));
	else
		fprintf(f, ", \"sample-span-ns\": null");
	if (s->has_workload)
		fprintf(f, ",\n \"workload-status\": %d", s->workload_status);
	else
		fprintf(f, ",\n \"workload-status\": null");
	fprintf(f, ", \"recording-finished\": %s, \"damaged\": %s, \"check\": ", tf(!s->unfinished), tf(s->damaged));
	stat__check_json(f, s->check, s->tolerance);
	fprintf(f, ",\n \"events\": [");
	for (size_t i = 0; i < s->nr_events; i++) {
		const struct check_event *e = &s->ev[i];

		fprintf(f, "%s\n  {\"index\": %zu, \"name\": ", i ? "," : "", i);
		json_fputs(f, e->name);
		fprintf(f, ", \"type\": %u, \"config\": %llu, \"tracking\": %s", e->attr.type,
			(unsigned long long)e->attr.config, tf(e->tracking));
		if (e->attr.freq)
			fprintf(f, ", \"period\": null, \"freq\": %llu", (unsigned long long)e->attr.sample_freq);
		else
			fprintf(f, ", \"period\": %llu, \"freq\": null", (unsigned long long)e->attr.sample_period);
		fprintf(f, ", \"samples\": %llu, \"lost\": %llu, \"throttles\": %llu", (unsigned long long)e->value,
			(unsigned long long)e->lost, (unsigned long long)e->throttles);
		if (e->has_times)
			fprintf(f, ", \"time-enabled\": %llu, \"time-running\": %llu", (unsigned long long)e->ena,
				(unsigned long long)e->run);
		else
			fprintf(f, ", \"time-enabled\": null, \"time-running\": null");
		fputc('}', f);
	}
	fprintf(f, "\n]}\n");
	return fflush(f) || ferror(f) ? -(errno ? errno : EIO) : 0;
}
