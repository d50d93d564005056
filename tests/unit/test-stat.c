// SPDX-License-Identifier: GPL-2.0-only
/*
 * mperf stat's numbers and output without a kernel: counts built by hand,
 * among them what this VM cannot produce (a multiplexed event, ran a part
 * of the time it was enabled), printed in perf stat 6.1's shapes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/stat/stat.h"
#include "tap.h"

static void event(struct count_result *r, const char *name, uint32_t type, uint64_t config, double val,
		  uint64_t ena, uint64_t run, bool supported)
{
	struct count_value *v = &r->ev[r->nr_events++];

	snprintf(v->name, sizeof(v->name), "%s", name);
	v->attr.type = type;
	v->attr.config = config;
	v->val = val;
	v->raw = (uint64_t)val;
	v->ena = ena;
	v->run = run;
	v->supported = supported;
}

static char *print(const struct stat_runs *s, enum stat_format fmt)
{
	struct stat_print_opts p = { .format = fmt, .sep = ",", .subject = "'cmd'" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	stat__print(f, s, &p);
	fclose(f);
	return buf;
}

/* The line of out that holds needle, or "". */
static const char *line_of(const char *out, const char *needle, char *buf, size_t len)
{
	const char *p = strstr(out, needle), *b, *e;

	if (!p)
		return "";
	for (b = p; b > out && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	snprintf(buf, len, "%.*s", (int)(e ? e - b : (ptrdiff_t)strlen(b)), b);
	return buf;
}

int main(void)
{
	struct count_result *r = calloc(1, sizeof(*r));
	struct stat_runs *s = calloc(1, sizeof(*s));
	struct stat_acc a = { 0 };
	char line[512], *out;

	/* perf's stddev of the mean: sqrt(var / n). 1, 2, 3: var 1, n 3. */
	stat_acc__add(&a, 1);
	stat_acc__add(&a, 2);
	stat_acc__add(&a, 3);
	ok(fabs(a.mean - 2) < 1e-12, "mean");
	ok(fabs(stat_acc__stddev(&a) - sqrt(1.0 / 3)) < 1e-12, "stddev of the mean");

	r->elapsed_ns = 400000000;	/* 0.4 s */
	r->has_workload = true;
	r->utime_ns = 200000000;
	event(r, "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 200000000, 200000000, 200000000, true);
	event(r, "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 50, 200000000, 200000000, true);
	/* Multiplexed: ran 2/3 of the time it was enabled, scaled to 3000. */
	event(r, "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 3000, 300, 200, true);
	event(r, "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, 0, 0, false);
	stat_runs__add(s, r);

	out = print(s, STAT_TEXT);
	is_str(line_of(out, "task-clock", line, sizeof(line)),
	       "            200.00 msec task-clock                       #    0.500 CPUs utilized          ",
	       "a clock: msec, CPUs utilized");
	is_str(line_of(out, "page-faults", line, sizeof(line)),
	       "                50      page-faults                      #  250.000 /sec                   ",
	       "a count: N /sec over the clock");
	is_str(line_of(out, "context-switches", line, sizeof(line)),
	       "              3000      context-switches                 #   15.000 K/sec                    (66.67%)",
	       "multiplexed: K/sec, then the running percentage");
	is_str(line_of(out, "cycles", line, sizeof(line)),
	       "   <not supported>      cycles                                                      ",
	       "<not supported>");
	ok(strstr(out, "\n       0.400000000 seconds time elapsed\n\n       0.200000000 seconds user\n"
			"       0.000000000 seconds sys\n\n\n") != NULL, "elapsed, user, sys");
	free(out);

	out = print(s, STAT_CSV);
	is_str(out,
	       "200.00,msec,task-clock,200000000,100.00,0.500,CPUs utilized\n"
	       "50,,page-faults,200000000,100.00,250.000,/sec\n"
	       "3000,,context-switches,200,66.00,15.000,K/sec\n"
	       "<not supported>,,cycles,0,100.00,,\n",
	       "-x, fields (perf's running percentage is an integer division)");
	free(out);

	/* A second run: the mean, the noise, the elapsed time's digits. */
	r->elapsed_ns = 600000000;
	r->ev[1].val = 70;
	stat_runs__add(s, r);
	out = print(s, STAT_TEXT);
	ok(strstr(out, "for 'cmd' (2 runs):\n") != NULL, "the runs in the header");
	is_str(line_of(out, "page-faults", line, sizeof(line)),
	       "                60      page-faults                      #  300.000 /sec                     ( +- 16.67% )",
	       "the mean and its noise");
	ok(strstr(out, "             0.500 +- 0.100 seconds time elapsed  ( +- 20.00% )\n\n") != NULL,
	   "elapsed: mean +- stddev, two digits past the stddev's");
	ok(!strstr(out, "seconds user"), "no user and sys over several runs");
	free(out);
	out = print(s, STAT_CSV);
	ok(strstr(out, "60,,page-faults,16.67%,200000000,100.00,300.000,/sec\n") != NULL, "-x with -r: the noise field");
	free(out);

	out = print(s, STAT_JSON);
	ok(strncmp(out, "{\"schema\": \"mperf-stat/1\", \"version\": 1,", 40) == 0, "JSON: schema and version first");
	ok(strstr(out, "{\"index\": 3, \"event\": \"cycles\", \"supported\": false, \"counted\": false, \"counter-value\": null") != NULL,
	   "JSON: an unsupported event is there, by index");
	free(out);
	free(r);
	free(s);
	return done_testing();
}
