// SPDX-License-Identifier: GPL-2.0-only
/*
 * report__script on a small in-memory image (viewimg.h): perf script
 * 6.1's line per sample (comm, tid, cpu, time, period, event name, ip,
 * symbol+offset, DSO path), in time order whatever the file's order, a
 * thread without COMM, an address no map holds, and -F's field lists
 * (report__script_fields): set, added to, taken from, by type, and an
 * unknown field refused; and a sample's call chain, a line per frame.
 * The expected lines are what perf script 6.1 prints for the same image
 * (MPERF_VIEWIMG_KEEP=1 keeps it).
 */
#include "../../src/lib/err.h"
#include "logcap.h"
#include "viewimg.h"

static struct view_exe exe;
static struct viewimg img;

/* Written out of time order: one round, which the session sorts. */
static int build(void)
{
	static const struct view_event ev[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", 0, 0 },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", 0, 0 },
	};
	const struct view_sample s[] = {
		{ .ev = 0, .pid = 1000, .tid = 1000, .cpu = 1, .time = 5000123456ULL, .ip = VIEW_COLD + 4, .period = 100 },
		{ .ev = 0, .pid = 1000, .tid = 1000, .cpu = 1, .time = 5000000001ULL, .ip = VIEW_HOT + 8, .period = 250 },
		{ .ev = 1, .pid = 2000, .tid = 2000, .cpu = 12, .time = 5001000000ULL, .ip = 0x5000, .period = 300 },
		{ .ev = 1, .pid = 1000, .tid = 1001, .cpu = 3, .time = 5000100000ULL, .ip = VIEW_HOT, .period = 7 },
	};
	int err = viewimg_begin(&img, ev, 2);

	return err | viewimg_two_procs(&img, &exe, 1000, "worker", 2000, "helper", s, sizeof(s) / sizeof(s[0]));
}

static char *script(const struct report_script_opts *o, int *ret)
{
	return view_run(&img, VIEW_SCRIPT, o, ret, NULL);
}

static char *script_f(const char *f1, const char *f2)
{
	struct report_script_opts o;

	report__script_defaults(&o);
	o.kallsyms = view_kallsyms();
	if ((f1 && report__script_fields(&o, f1)) || (f2 && report__script_fields(&o, f2)))
		return strdup("(-F refused)");
	return script(&o, NULL);
}

/* The four samples' ips, as perf script prints them (" %16lx"). */
#define IP_HOT8		VIEW_HOT + 8
#define IP_HOT0		VIEW_HOT
#define IP_COLD4	VIEW_COLD + 4

static void test_default(void)
{
	struct report_script_opts o;
	char want[3 * PATH_MAX + 1024];
	int ret;
	char *t;

	report__script_defaults(&o);
	o.kallsyms = view_kallsyms();
	t = script(&o, &ret);
	is_int(ret, 0, "default: report__script returns 0");
	snprintf(want, sizeof(want),
		 "          worker  1000 [001]     5.000000:        250  cpu-clock:  %16" PRIx64 " mperf_view_hot+0x8 (%s)\n"
		 "           :1001  1001 [003]     5.000100:          7 task-clock:  %16" PRIx64 " mperf_view_hot+0x0 (%s)\n"
		 "          worker  1000 [001]     5.000123:        100  cpu-clock:  %16" PRIx64 " mperf_view_cold+0x4 (%s)\n"
		 "          helper  2000 [012]     5.001000:        300 task-clock:              5000 [unknown] ([unknown])\n",
		 IP_HOT8, exe.path, IP_HOT0, exe.path, IP_COLD4, exe.path);
	is_str(t, want, "default: comm, tid, cpu, time, period, event, ip, sym+off, dso; in time order");
	free(t);
}

static void test_fields(void)
{
	char want[3 * PATH_MAX + 1024];
	char *t;

	t = script_f("comm,tid,pid,time,event,ip,sym", NULL);
	snprintf(want, sizeof(want),
		 "          worker  1000/1000      5.000000:  cpu-clock:  %16" PRIx64 " mperf_view_hot\n"
		 "           :1001  1000/1001      5.000100: task-clock:  %16" PRIx64 " mperf_view_hot\n"
		 "          worker  1000/1000      5.000123:  cpu-clock:  %16" PRIx64 " mperf_view_cold\n"
		 "          helper  2000/2000      5.001000: task-clock:              5000 [unknown]\n",
		 IP_HOT8, IP_HOT0, IP_COLD4);
	is_str(t, want, "-F comm,tid,pid,time,event,ip,sym: pid/tid, no cpu, no period, no offset");
	free(t);

	t = script_f("ip,sym,symoff", NULL);
	snprintf(want, sizeof(want),
		 " %16" PRIx64 " mperf_view_hot+0x8\n"
		 " %16" PRIx64 " mperf_view_hot+0x0\n"
		 " %16" PRIx64 " mperf_view_cold+0x4\n"
		 "             5000 [unknown]\n",
		 IP_HOT8, IP_HOT0, IP_COLD4);
	is_str(t, want, "-F ip,sym,symoff");
	free(t);

	t = script_f("-dso", NULL);
	ok(!strstr(t, exe.path) && !strstr(t, "([unknown])") &&
	   strstr(t, "          helper  2000 [012]     5.001000:        300 task-clock:              5000 [unknown]\n"),
	   "-F -dso: the default less the DSO");
	free(t);

	t = script_f("sw:comm,ip", NULL);
	snprintf(want, sizeof(want),
		 "          worker  %16" PRIx64 "\n"
		 "           :1001  %16" PRIx64 "\n"
		 "          worker  %16" PRIx64 "\n"
		 "          helper              5000\n",
		 IP_HOT8, IP_HOT0, IP_COLD4);
	is_str(t, want, "-F sw:comm,ip: the software events' fields");
	free(t);

	t = script_f("trace:comm", NULL);
	ok(strstr(t, "          worker  1000 [001]     5.000000:        250  cpu-clock: ") != NULL,
	   "-F trace:comm leaves the software events' defaults");
	free(t);

	t = script_f("comm,cpu,time", NULL);
	is_str(t,
	       "          worker [001]     5.000000: \n"
	       "           :1001 [003]     5.000100: \n"
	       "          worker [001]     5.000123: \n"
	       "          helper [012]     5.001000: \n",
	       "-F comm,cpu,time");
	free(t);

	t = script_f("comm,tid", "+cpu");
	is_str(t,
	       "          worker  1000 [001] \n"
	       "           :1001  1001 [003] \n"
	       "          worker  1000 [001] \n"
	       "          helper  2000 [012] \n",
	       "-F comm,tid then -F +cpu adds the cpu");
	free(t);

	{
		struct report_script_opts o;

		report__script_defaults(&o);
		logcap_reset();
		is_int(report__script_fields(&o, "comm,nosuch"), -MPERF_ERR_USAGE, "-F nosuch is refused");
		is_int(logcap_errors, 1, "-F nosuch: one line said");
	}
}

/* A sample with a call chain: perf script's frame lines under it. */
static void test_chain(void)
{
	static const struct view_event ev[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", VIEW_ST | PERF_SAMPLE_CALLCHAIN, 0 },
	};
	const struct view_sample s = {
		.ev = 0, .pid = 1000, .tid = 1000, .cpu = 0, .time = 7000000000ULL, .ip = VIEW_HOT + 4, .period = 100,
		.nr_chain = 4, .chain = { (uint64_t)PERF_CONTEXT_USER, VIEW_HOT + 4, VIEW_COLD + 8, 0x5000 },
	};
	struct report_script_opts o;
	struct viewimg ci;
	char want[3 * PATH_MAX + 1024];
	char *t;

	if (viewimg_begin(&ci, ev, 1) || viewimg_comm(&ci, 1000, 1000, "worker") || viewimg_mmap_exe(&ci, 1000, &exe) ||
	    viewimg_sample(&ci, &s) || viewimg_finish(&ci)) {
		skip(1, "no image with a chain");
		return;
	}
	report__script_defaults(&o);
	o.kallsyms = view_kallsyms();
	t = view_run(&ci, VIEW_SCRIPT, &o, NULL, NULL);
	/* perf prints a frame's address in its DSO, and the comm unpadded when there is a chain. */
	snprintf(want, sizeof(want),
		 "worker  1000 [000]     7.000000:        100 cpu-clock: \n"
		 "\t%16" PRIx64 " mperf_view_hot+0x4 (%s)\n"
		 "\t%16" PRIx64 " mperf_view_cold+0x8 (%s)\n"
		 "\t            5000 [unknown] ([unknown])\n"
		 "\n",
		 VIEW_HOT + 4 - exe.start + exe.pgoff, exe.path, VIEW_COLD + 8 - exe.start + exe.pgoff, exe.path);
	is_str(t, want, "chain: the sample's line, then a line per frame, leaf first, a blank line");
	free(t);
	viewimg_free(&ci);
}

int main(void)
{
	if (view_exe(&exe) || build()) {
		plan(1);
		skip(1, "no image: /proc/self/maps has no executable mapping of this binary");
		return done_testing();
	}
	test_default();
	test_fields();
	test_chain();
	viewimg_free(&img);
	return done_testing();
}
