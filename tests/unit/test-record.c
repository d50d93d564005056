// SPDX-License-Identifier: GPL-2.0-only
/* Record's messages for refused events, and what record__run refuses before it starts. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../src/host/host.h"
#include "../../src/lib/err.h"
#include "../../src/record/internal.h"
#include "../../src/record/record.h"
#include "logcap.h"
#include "tap.h"

static void test_open_errors(void)
{
	struct record_denial task2 = { .paranoid = 2, .kernel = true };
	struct record_denial user3 = { .paranoid = 3 };
	struct record_denial wide2 = { .paranoid = 2, .cpu_wide = true };
	struct record_denial wide1 = { .paranoid = 1, .cpu_wide = true };
	struct record_denial wide0 = { .paranoid = 0, .cpu_wide = true };
	struct record_denial filtered = { .paranoid = 2, .denier = HOST_DENIER_SECCOMP };
	struct record_denial lsm = { .paranoid = 0, .denier = HOST_DENIER_OTHER };
	char buf[512];

	record__open_error(buf, sizeof(buf), "cycles", PERF_TYPE_HARDWARE, 1, EACCES, &task2);
	ok(strstr(buf, "no permission to open event 'cycles' on cpu 1: ") == buf,
	   "EACCES: the failure first: '%s'", buf);
	ok(strstr(buf, "kernel.perf_event_paranoid is 2, and the kernel needs 1 or less") != NULL,
	   "EACCES names the paranoid value and what the kernel needs");
	ok(strstr(buf, "CAP_PERFMON") != NULL, "EACCES names CAP_PERFMON");
	ok(!strstr(buf, "Permission denied"), "no errno text");
	record__open_error(buf, sizeof(buf), "cpu-clock", PERF_TYPE_SOFTWARE, 0, EPERM, &user3);
	ok(strstr(buf, "perf_event_paranoid is 3, and a task needs 2 or less") != NULL,
	   "EPERM names the paranoid value: '%s'", buf);
	record__open_error(buf, sizeof(buf), "cpu-clock:u", PERF_TYPE_SOFTWARE, 0, EACCES, &wide2);
	ok(strstr(buf, "is 2, and every task of a CPU (-a, -C) needs 0 or less") != NULL &&
	   strstr(buf, "sysctl kernel.perf_event_paranoid=0") != NULL, "-a at 2: needs 0, not 1: '%s'", buf);
	record__open_error(buf, sizeof(buf), "cpu-clock:u", PERF_TYPE_SOFTWARE, 0, EACCES, &wide1);
	ok(strstr(buf, "is 1, and every task of a CPU (-a, -C) needs 0 or less") != NULL, "-a at 1: needs 0: '%s'", buf);
	record__open_error(buf, sizeof(buf), "cpu-clock", PERF_TYPE_SOFTWARE, 0, EACCES, &wide0);
	ok(strstr(buf, "though kernel.perf_event_paranoid is 0") != NULL, "-a at 0: not paranoid's doing: '%s'", buf);
	record__open_error(buf, sizeof(buf), "cpu-clock", PERF_TYPE_SOFTWARE, 0, EPERM, &filtered);
	ok(strstr(buf, "a seccomp filter refuses perf_event_open") != NULL && !strstr(buf, "sysctl"),
	   "a seccomp filter is named, paranoid is not blamed: '%s'", buf);
	record__open_error(buf, sizeof(buf), "cpu-clock", PERF_TYPE_SOFTWARE, 0, EPERM, &lsm);
	ok(strstr(buf, "a security module") != NULL, "another denier: '%s'", buf);
	record__open_error(buf, sizeof(buf), "cpu-clock", PERF_TYPE_SOFTWARE, 0, EPERM, NULL);
	ok(strstr(buf, "check kernel.perf_event_paranoid") != NULL, "unknown paranoid value: '%s'", buf);
	record__open_error(buf, sizeof(buf), "cpu-clock", PERF_TYPE_SOFTWARE, 0, EMFILE, NULL);
	ok(strstr(buf, "ulimit -n") != NULL, "EMFILE names the fd limit: '%s'", buf);
	record__open_error(buf, sizeof(buf), "instructions", PERF_TYPE_HARDWARE, 0, ENOENT, NULL);
	is_str(buf, "event 'instructions' is not supported on this machine (no hardware PMU, or one without this event); see 'mperf list'",
	       "ENOENT on a hardware event: not supported, as perf says it");
	record__open_error(buf, sizeof(buf), "foo/config=1/", 42, 0, ENODEV, NULL);
	ok(strstr(buf, "no such PMU") != NULL, "ENODEV: no such PMU: '%s'", buf);
	record__open_error(buf, sizeof(buf), "cpu-clock", PERF_TYPE_SOFTWARE, 0, EIO, NULL);
	is_str(buf, "cannot open event 'cpu-clock' on cpu 0: Input/output error", "other errors: just the failure");
	record__open_error(buf, 20, "cycles", PERF_TYPE_HARDWARE, 1, EACCES, &task2);
	ok(strlen(buf) == 19, "a short buffer is filled, never overrun");
}

/* record__run() refuses a count of events outside 1..RECORD_MAX_EVENTS before anything else. */
static void test_run_event_count(void)
{
	static struct record_event ev[RECORD_MAX_EVENTS + 1];
	static struct record_result res;
	char *const argv[] = { "true", NULL };
	struct record_opts o = {
		.events = ev, .freq = 4000, .mmap_pages = 1, .output = "/dev/null/never-written", .argv = argv,
	};
	char range[64];
	size_t n = 0;
	int err = 0;

	for (int i = 0; i <= RECORD_MAX_EVENTS; i++)
		err |= record__parse_events("cpu-clock", ev, RECORD_MAX_EVENTS + 1, &n);
	ok(!err && n == RECORD_MAX_EVENTS + 1, "%d cpu-clock events parse", RECORD_MAX_EVENTS + 1);
	o.nr_events = RECORD_MAX_EVENTS + 1;
	logcap_reset();
	is_int(record__run(&o, &res), -EINVAL, "%d events: EINVAL", RECORD_MAX_EVENTS + 1);
	snprintf(range, sizeof(range), "between 1 and %d events", RECORD_MAX_EVENTS);
	ok(strstr(logcap_err, range) != NULL && logcap_errors == 1, "the message gives the range, once: '%s'",
	   logcap_err);
	o.nr_events = 0;
	is_int(record__run(&o, &res), -EINVAL, "no event: EINVAL");
}

/* What the parser takes and record cannot open is refused in one line, never opened otherwise. */
static void test_run_refuses(void)
{
	static struct record_event ev[4];
	static struct record_result res;
	char *const argv[] = { "true", NULL };
	struct record_opts o = {
		.events = ev, .freq = 4000, .mmap_pages = 1, .output = "/dev/null/never-written", .argv = argv,
	};
	size_t n = 0;

	ok(!record__parse_events("cs,{cpu-clock,task-clock}", ev, 4, &n) && n == 3, "a group parses");
	o.nr_events = n;
	logcap_reset();
	/*
	 * Groups are opened now, not refused: this one fails later (at the
	 * output, which cannot be created; or where a kernel refuses events).
	 */
	{
		int ret = record__run(&o, &res);

		ok(ret < 0 && ret != -EOPNOTSUPP, "a group is not refused (%d)", ret);
	}
	ok(!strstr(logcap_err, "not supported") && logcap_errors == 1, "its failure said once: '%s'", logcap_err);
	n = 0;
	ok(!record__parse_events("cpu-clock:S", ev, 4, &n) && n == 1, "cpu-clock:S parses");
	o.nr_events = n;
	logcap_reset();
	is_int(record__run(&o, &res), -EOPNOTSUPP, ":S: EOPNOTSUPP");
	ok(strstr(logcap_err, "'cpu-clock:S'") && strstr(logcap_err, "outside a group") && logcap_errors == 1,
	   "said once: '%s'", logcap_err);
}

/* -C takes the lists sysfs writes; anything else is refused, not half read. */
static void test_cpu_lists(void)
{
	int cpus[8];

	is_int(host_parse_cpu_list("0-1,3", cpus, 8), 3, "0-1,3: three CPUs");
	ok(cpus[0] == 0 && cpus[1] == 1 && cpus[2] == 3, "0-1,3: 0 1 3");
	is_int(host_parse_cpu_list("2\n", cpus, 8), 1, "a sysfs line with its newline");
	is_int(host_parse_cpu_list("0-7", cpus, 8), 8, "a range that fills the array");
	is_int(host_parse_cpu_list("0-8", cpus, 8), -E2BIG, "past the array: E2BIG");
	is_int(host_parse_cpu_list("0,", cpus, 8), -EINVAL, "a trailing comma: EINVAL");
	is_int(host_parse_cpu_list("0,,1", cpus, 8), -EINVAL, "an empty element: EINVAL");
	is_int(host_parse_cpu_list("1-0", cpus, 8), -EINVAL, "a range backwards: EINVAL");
	is_int(host_parse_cpu_list("0-x", cpus, 8), -EINVAL, "not a number: EINVAL");
	is_int(host_parse_cpu_list("1a", cpus, 8), -EINVAL, "trailing junk: EINVAL");
	is_int(host_parse_cpu_list("-1", cpus, 8), -EINVAL, "a negative CPU: EINVAL");
}

/* /proc of this process: its threads, its comm, its maps (the synthesized records' source). */
static int count_exec(void *arg, const struct host_map *m)
{
	int *n = arg;

	if ((m->prot & 4) && strstr(m->name, "test-record"))
		(*n)++;
	return 0;
}

static void test_proc(void)
{
	int *ids, n, tgid = 0, ppid = 0, exec = 0;
	char comm[64], dir[64], want[64] = "";
	FILE *f;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)getpid());
	n = host_proc_ids(dir, &ids);
	ok(n == 1 && ids[0] == (int)getpid(), "one thread, this process's");
	free(ids);
	is_int(host_proc_ids("/proc/2147483646/task", &ids), -ESRCH, "no such process: ESRCH");
	is_int(host_proc_comm((int)getpid(), (int)getpid(), comm, sizeof(comm)), 0, "comm read");
	/* The name the kernel gives it (under valgrind, memcheck's), without the newline. */
	f = fopen("/proc/self/comm", "r");
	ok(f && fgets(want, sizeof(want), f), "/proc/self/comm read");
	if (f)
		fclose(f);
	want[strcspn(want, "\n")] = 0;
	is_str(comm, want, "comm without the newline");
	is_int(host_proc_status((int)getpid(), &tgid, &ppid), 0, "status read");
	ok(tgid == (int)getpid() && ppid == (int)getppid(), "Tgid and PPid");
	is_int(host_proc_maps((int)getpid(), count_exec, &exec), 0, "maps read");
	ok(exec >= 1, "the executable's text is an executable map with its path (%d)", exec);
	is_int(host_proc_maps(2147483646, count_exec, &exec), -ESRCH, "maps of no process: ESRCH");
}

/* mperf list over a PMU directory made by hand: events/ entries, not their .scale companions. */
static void test_list_pmus(void)
{
	char dir[] = "/tmp/mperf-test-pmu.XXXXXX", path[256], *out = NULL;
	size_t len = 0;
	FILE *f;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/fake", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/fake/events", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/fake/events/zeta", dir);
	fclose(fopen(path, "w"));
	snprintf(path, sizeof(path), "%s/fake/events/alpha", dir);
	fclose(fopen(path, "w"));
	snprintf(path, sizeof(path), "%s/fake/events/alpha.scale", dir);
	fclose(fopen(path, "w"));
	snprintf(path, sizeof(path), "%s/noevents", dir);
	mkdir(path, 0755);
	f = open_memstream(&out, &len);
	is_int(record__list("pmu", dir, f), 0, "record__list of a PMU directory");
	fclose(f);
	snprintf(path, sizeof(path), "  %-50s [Kernel PMU event]\n  %-50s [Kernel PMU event]\n", "fake/alpha/",
		 "fake/zeta/");
	is_str(out, path, "its events, sorted, in perf list's shape; no .scale, no PMU without events/");
	free(out);
	out = NULL;
	f = open_memstream(&out, &len);
	is_int(record__list("zet", dir, f), 0, "a glob");
	fclose(f);
	ok(out && strstr(out, "fake/zeta/") && !strstr(out, "alpha") && !strstr(out, "rNNN"),
	   "matches anywhere in the name, without the syntax lines: '%s'", out);
	free(out);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	ok(system(path) == 0, "cleanup");
}

/*
 * The drain loops' rule, perf's: a pass that found data is followed by
 * another at once (the poll only peeks), only a pass that found nothing
 * sleeps; a ready poll is a wakeup whichever it was.
 */
static void test_drain_rule(void)
{
	struct record_result res = { 0 };
	struct drain d = { .res = &res };

	ok(drain__peek(&d, 4096), "a pass that wrote data: the poll after it peeks");
	drain__polled(&d, true, 1);
	ok(drain__peek(&d, 64), "and again while passes find data");
	drain__polled(&d, true, 0);
	ok(!drain__peek(&d, 0), "a pass that found nothing: the poll after it sleeps");
	drain__polled(&d, false, 1);
	ok(!drain__peek(&d, 0), "nothing again: it sleeps again");
	drain__polled(&d, false, 0);
	ok(!drain__peek(&d, 0), "a sleep cut by a signal");
	drain__polled(&d, false, -1);
	is_u64(res.passes, 5, "every pass counted");
	is_u64(res.sleeps, 3, "the sleeps: the polls after the passes that found nothing");
	is_u64(res.wakeups, 2, "the wakeups: the ready polls, the peek's too");
	is_u64(res.timeouts, 1, "the timeouts: the sleeps that ran out, not the peeks that found nothing");
}

int main(void)
{
	test_open_errors();
	test_list_pmus();
	test_cpu_lists();
	test_proc();
	test_run_event_count();
	test_run_refuses();
	test_drain_rule();
	return done_testing();
}
