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
#include "../../src/lib/json.h"
#include "../../src/lib/log.h"
#include "../../src/stat/stat.h"
#include "tap.h"

/* The check's lines, as the findings keep them. */
static char notices[4096];
static int nr_notices;

static void hook(enum mperf_log_level level, const char *msg)
{
	(void)level;
	(void)msg;
}

static int check(const struct check_event *ev, size_t n, double tol)
{
	struct check_findings f = { 0 };
	int ret = stat__check(ev, n, tol, &f);

	notices[0] = 0;
	nr_notices = (int)f.nr;
	for (size_t i = 0; i < f.nr; i++) {
		size_t len = strlen(notices);

		snprintf(notices + len, sizeof(notices) - len, "%s\n", f.line[i]);
	}
	check_findings__free(&f);
	return ret;
}

static struct check_event cev(const char *name, uint64_t config, uint64_t period, uint64_t value)
{
	struct check_event e = { .attr = { .type = PERF_TYPE_SOFTWARE, .config = config, .sample_period = period },
				 .value = value };

	snprintf(e.name, sizeof(e.name), "%s", name);
	return e;
}

static void test_check(void)
{
	struct check_event ev[4];

	mperf_set_log(hook);
	ev[0] = cev("cpu-clock", PERF_COUNT_SW_CPU_CLOCK, 250000, 4000);
	ev[1] = cev("cpu-clock", PERF_COUNT_SW_CPU_CLOCK, 250000, 3900);
	ev[2] = cev("cpu-clock", PERF_COUNT_SW_CPU_CLOCK, 250000, 1333);
	is_int(check(ev, 3, 5), 1, "check: one of three like events starved");
	is_str(notices, "check: event #2 'cpu-clock' has 1333 samples, 66.7% fewer than the 4000 of event #0 'cpu-clock' (tolerance 5%)\n",
	       "check: the starved event, its figure, the one it falls short of");
	is_int(check(ev, 2, 5), 0, "check: 2.5%% apart passes at 5%%");
	is_int(check(ev, 2, 2), 1, "check: and fails at 2%%");
	/* Other periods, other events, other modifiers: not like. */
	ev[2].attr.sample_period = 1000000;
	is_int(check(ev, 3, 5), 0, "check: another period is not compared");
	ev[2] = cev("task-clock", PERF_COUNT_SW_TASK_CLOCK, 250000, 10);
	is_int(check(ev, 3, 5), 0, "check: another event is not compared");
	ev[2] = cev("cpu-clock:u", PERF_COUNT_SW_CPU_CLOCK, 250000, 10);
	ev[2].attr.exclude_kernel = 1;
	is_int(check(ev, 3, 5), 0, "check: other modifiers are not compared");

	ev[0].lost = 12;
	ev[1].throttles = 3;
	is_int(check(ev, 2, 5), 2, "check: lost and throttled");
	is_str(notices, "check: event #0 'cpu-clock' lost 12 samples\ncheck: event #1 'cpu-clock' was throttled 3 times\n",
	       "check: one line each, naming the event");
	ev[0].lost = ev[1].throttles = 0;

	ev[3] = cev("dummy:HG", PERF_COUNT_SW_DUMMY, 1, 0);
	ev[3].tracking = true;
	ev[3].lost = 5;
	is_int(check(&ev[3], 1, 5), 0, "check: perf's tracking event is not checked");

	ev[0] = cev("page-faults", PERF_COUNT_SW_PAGE_FAULTS, 0, 100);
	ev[0].counting = ev[0].has_times = true;
	ev[0].ena = 300;
	ev[0].run = 200;
	ev[1] = ev[0];
	ev[1].value = 50;
	ev[1].run = ev[1].ena;
	is_int(check(ev, 2, 5), 2, "check: multiplexed, and a count below its like one");
	is_str(notices, "check: event #0 'page-faults' ran 66.67% of the time it was enabled (multiplexed)\n"
			"check: event #1 'page-faults' counted 50, 50.0% less than the 100 of event #0 'page-faults' (tolerance 5%)\n",
	       "check: the counting mode's words");
}

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

	stat__print(f, s, NULL, &p);
	fclose(f);
	return buf;
}

/* json_fputs(s) as a string (the caller frees it). */
static char *json_of(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	json_fputs(f, s);
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
	stat_runs__release(s);
	free(s);
	test_check();
	/* The one JSON escaping: quotes, backslashes, control bytes; UTF-8 and the rest as they are. */
	out = json_of("a\"b\\c\td\x01\x1f\xc3\xa9 ~");
	is_str(out, "\"a\\\"b\\\\c\\u0009d\\u0001\\u001f\xc3\xa9 ~\"", "json: escapes, UTF-8 as is");
	free(out);
	out = json_of(NULL);
	is_str(out, "\"\"", "json: NULL is the empty string");
	free(out);
	out = json_of("\\");
	is_str(out, "\"\\\\\"", "json: an escape last");
	free(out);
	return done_testing();
}
