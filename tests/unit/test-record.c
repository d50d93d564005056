// SPDX-License-Identifier: GPL-2.0-only
/* Record's messages for refused events, and event-list parsing. */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include "../../src/lib/err.h"
#include "../../src/record/record.h"
#include "logcap.h"
#include "tap.h"

static void test_open_errors(void)
{
	char buf[512];

	record__open_error(buf, sizeof(buf), "cycles", 1, EACCES, 2);
	ok(strstr(buf, "cannot open event 'cycles' on cpu 1: Permission denied") == buf,
	   "EACCES: the failure first: '%s'", buf);
	ok(strstr(buf, "kernel.perf_event_paranoid is 2") != NULL, "EACCES names the paranoid value");
	ok(strstr(buf, "CAP_PERFMON") != NULL, "EACCES names CAP_PERFMON");
	record__open_error(buf, sizeof(buf), "cpu-clock", 0, EPERM, 3);
	ok(strstr(buf, "perf_event_paranoid is 3") != NULL, "EPERM names the paranoid value: '%s'", buf);
	record__open_error(buf, sizeof(buf), "cpu-clock", 0, EPERM, INT_MIN);
	ok(strstr(buf, "check kernel.perf_event_paranoid") != NULL, "unknown paranoid value: '%s'", buf);
	record__open_error(buf, sizeof(buf), "cpu-clock", 0, EMFILE, INT_MIN);
	ok(strstr(buf, "ulimit -n") != NULL, "EMFILE names the fd limit: '%s'", buf);
	record__open_error(buf, sizeof(buf), "instructions", 0, ENOENT, INT_MIN);
	is_str(buf, "cannot open event 'instructions' on cpu 0: No such file or directory",
	       "other errors: just the failure");
	record__open_error(buf, 20, "cycles", 1, EACCES, 2);
	ok(strlen(buf) == 19, "a short buffer is filled, never overrun");
}

static void test_parse_events(void)
{
	struct record_event ev[4];
	char bad[80];

	is_int(record__parse_events("cycles,cycles,cs", ev, 4, bad, sizeof(bad)), 3, "three events");
	is_str(ev[2].name, "cs", "names kept as given");
	is_int(ev[2].type, 1, "cs is a software event");
	is_int(record__parse_events("cycles,bogus", ev, 4, bad, sizeof(bad)), -MPERF_ERR_NOEVENT, "unknown name");
	is_str(bad, "bogus", "the unknown name is reported");
	is_int(record__parse_events("cycles,,cycles", ev, 4, bad, sizeof(bad)), -MPERF_ERR_NOEVENT, "empty name");
	/* Valid names only, so that nothing but the limit can refuse them. */
	is_int(record__parse_events("cycles,cs,cpu-clock,cycles", ev, 4, bad, sizeof(bad)), 4,
	       "as many events as the array holds");
	is_str(ev[3].name, "cycles", "the last slot is filled");
	is_int(record__parse_events("cycles,cs,cpu-clock,cycles,cs", ev, 4, bad, sizeof(bad)), -E2BIG,
	       "one event more than the array holds: E2BIG");
}

/* record__run() refuses a count of events outside 1..RECORD_MAX_EVENTS before anything else. */
static void test_run_event_count(void)
{
	static struct record_event ev[RECORD_MAX_EVENTS + 1];
	static struct record_result res;
	char *const argv[] = { "true", NULL };
	struct record_opts o = {
		.events = ev, .freq = 4000, .mmap_pages = 1, .output = "/nonexistent/never-written", .argv = argv,
	};
	char bad[80], range[64];
	int n = 0;

	for (int i = 0; i <= RECORD_MAX_EVENTS; i++)
		n = record__parse_events("cpu-clock", &ev[i], 1, bad, sizeof(bad));
	is_int(n, 1, "cpu-clock parses");
	o.nr_events = RECORD_MAX_EVENTS + 1;
	logcap_reset();
	is_int(record__run(&o, &res), -EINVAL, "%d events: EINVAL", RECORD_MAX_EVENTS + 1);
	snprintf(range, sizeof(range), "between 1 and %d events", RECORD_MAX_EVENTS);
	ok(strstr(logcap_err, range) != NULL && logcap_errors == 1, "the message gives the range, once: '%s'",
	   logcap_err);
	o.nr_events = 0;
	is_int(record__run(&o, &res), -EINVAL, "no event: EINVAL");
}

int main(void)
{
	test_open_errors();
	test_parse_events();
	test_run_event_count();
	return done_testing();
}
