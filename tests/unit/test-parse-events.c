// SPDX-License-Identifier: GPL-2.0-only
/*
 * record's -e parser: strings -> attrs, names, groups and errors.  Every
 * expectation of a string perf 6.1 also takes was checked against perf
 * (perf record -e S; perf evlist -v, or perf record -vv where perf cannot
 * open S on a machine without a PMU); refusals are strings perf refuses too.
 * PMUs and tracepoints come from a fake sysfs and tracefs built here, and
 * from this machine's (the software PMU; tracefs, mounted when we can).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../src/lib/err.h"
#include "../../src/perfdata/format.h"
#include "../../src/record/record.h"
#include "logcap.h"
#include "tap.h"

static char root[64];
static struct record_parse_env fake;

/* ---- the fake sysfs and tracefs ---- */

static void put(const char *rel, const char *text)
{
	char path[256], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(2);
	}
}

static void make_tree(void)
{
	static char pmu[128], tracing[128];

	snprintf(root, sizeof(root), "/tmp/mperf-parse-XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		exit(2);
	}
	put("pmu/cpu/type", "4\n");
	put("pmu/cpu/format/event", "config:0-7\n");
	put("pmu/cpu/format/umask", "config:8-15\n");
	put("pmu/cpu/format/edge", "config:18\n");
	put("pmu/cpu/format/cmask", "config:24-31\n");
	put("pmu/cpu/format/ldlat", "config1:0-15\n");
	put("pmu/cpu/format/split", "config2:0-3,8-11\n");
	put("pmu/cpu/format/wide", "config2:0-63\n");
	put("pmu/cpu/events/inst-retired", "event=0xc0,umask=0x01\n");
	put("pmu/cpu/events/inst-retired.scale", "1\n");
	put("pmu/cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3\n");
	put("pmu/cpu/events/with-param", "event=0x3c,umask=?\n");
	put("pmu/cpu/events/broken", "event=0x3c,nosuchterm=1\n");
	put("pmu/uncore/type", "12\n");
	put("pmu/uncore/events/clockticks", "config=0xff\n");
	put("pmu/software/type", "1\n");
	put("pmu/badfmt/type", "10\n");
	put("pmu/badfmt/format/event", "bogus:0-7\n");
	put("pmu/badtype/type", "ten\n");
	put("tracing/events/header_page", "\n");
	put("tracing/events/sched/enable", "0\n");
	put("tracing/events/sched/sched_switch/id", "372\n");
	put("tracing/events/sched/sched_wakeup/id", "300\n");
	put("tracing/events/syscalls/sys_enter_open/id", "600\n");
	put("tracing/events/syscalls/sys_enter_openat/id", "601\n");
	put("tracing/events/syscalls/sys_exit_open/id", "602\n");
	snprintf(pmu, sizeof(pmu), "%s/pmu", root);
	snprintf(tracing, sizeof(tracing), "%s/tracing", root);
	fake.pmu_dir = pmu;
	fake.tracing_dir = tracing;
}

static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char path[512];
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode))
			remove_tree(path);
		else
			unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* ---- the table ---- */

struct exp {
	const char *name;
	uint32_t type;
	uint64_t config;
	const char *excl;	/* exclude bits set: u k h H(ost) G(uest) I(dle) */
	unsigned int precise;
	uint64_t period;	/* sample_period, or sample_freq with F */
	/* F attr.freq, p period_set, f freq_set, S sample_read, M mod_set, D pinned, e exclusive, X precise_max */
	const char *flags;
	int leader, group_size;
	uint64_t config1, config2, bp_type;
};

struct pcase {
	const char *spec;
	bool use_fake;
	int nr;
	struct exp ev[6];
};

#define SW PERF_TYPE_SOFTWARE
#define HW PERF_TYPE_HARDWARE
#define TP PERF_TYPE_TRACEPOINT
#define BP PERF_TYPE_BREAKPOINT
#define CACHE PERF_TYPE_HW_CACHE

static const struct pcase cases[] = {
	/* generic names */
	{ "cycles", 0, 1, { { "cycles", HW, 0, "G", 0, 0, "", 0, 1 } } },
	{ "cpu-cycles", 0, 1, { { "cpu-cycles", HW, 0, "G", 0, 0, "", 0, 1 } } },
	{ "instructions", 0, 1, { { "instructions", HW, 1, "G", 0, 0, "", 0, 1 } } },
	{ "ref-cycles", 0, 1, { { "ref-cycles", HW, 9, "G", 0, 0, "", 0, 1 } } },
	{ "idle-cycles-backend", 0, 1, { { "idle-cycles-backend", HW, 8, "G", 0, 0, "", 0, 1 } } },
	{ "cpu-clock", 0, 1, { { "cpu-clock", SW, 0, "G", 0, 0, "", 0, 1 } } },
	{ "task-clock", 0, 1, { { "task-clock", SW, 1, "G", 0, 0, "", 0, 1 } } },
	{ "faults", 0, 1, { { "faults", SW, 2, "G", 0, 0, "", 0, 1 } } },
	{ "cs", 0, 1, { { "cs", SW, 3, "G", 0, 0, "", 0, 1 } } },
	{ "migrations", 0, 1, { { "migrations", SW, 4, "G", 0, 0, "", 0, 1 } } },
	{ "cgroup-switches", 0, 1, { { "cgroup-switches", SW, 11, "G", 0, 0, "", 0, 1 } } },
	/* bpf-output: perf samples each one (a default -c/-F replace) */
	{ "bpf-output", 0, 1, { { "bpf-output", SW, 10, "G", 0, 1, "", 0, 1 } } },
	{ "cpu-clock,task-clock,page-faults", 0, 3,
	  { { "cpu-clock", SW, 0, "G", 0, 0, "", 0, 1 }, { "task-clock", SW, 1, "G", 0, 0, "", 1, 1 },
	    { "page-faults", SW, 2, "G", 0, 0, "", 2, 1 } } },
	/* perf keeps the blanks in the names */
	{ "cpu-clock, task-clock ", 0, 2,
	  { { "cpu-clock", SW, 0, "G", 0, 0, "", 0, 1 }, { " task-clock ", SW, 1, "G", 0, 0, "", 1, 1 } } },

	/* modifiers: an event's own start from nothing excluded */
	{ "cpu-clock:u", 0, 1, { { "cpu-clock:u", SW, 0, "khG", 0, 0, "M", 0, 1 } } },
	{ "cpu-clock:k", 0, 1, { { "cpu-clock:k", SW, 0, "uh", 0, 0, "M", 0, 1 } } },
	{ "cpu-clock:h", 0, 1, { { "cpu-clock:h", SW, 0, "uk", 0, 0, "M", 0, 1 } } },
	{ "cpu-clock:uk", 0, 1, { { "cpu-clock:uk", SW, 0, "hG", 0, 0, "M", 0, 1 } } },
	{ "cpu-clock:uhk", 0, 1, { { "cpu-clock:uhk", SW, 0, "G", 0, 0, "M", 0, 1 } } },
	{ "cpu-clock:H", 0, 1, { { "cpu-clock:H", SW, 0, "G", 0, 0, "M", 0, 1 } } },
	{ "cpu-clock:G", 0, 1, { { "cpu-clock:G", SW, 0, "H", 0, 0, "M", 0, 1 } } },
	{ "cpu-clock:GH", 0, 1, { { "cpu-clock:GH", SW, 0, "", 0, 0, "M", 0, 1 } } },
	{ "cpu-clock:Gu", 0, 1, { { "cpu-clock:Gu", SW, 0, "khH", 0, 0, "M", 0, 1 } } },
	{ "cpu-clock:uG", 0, 1, { { "cpu-clock:uG", SW, 0, "khH", 0, 0, "M", 0, 1 } } },
	{ "cpu-clock:p", 0, 1, { { "cpu-clock:p", SW, 0, "G", 1, 0, "M", 0, 1 } } },
	{ "cpu-clock:ppp", 0, 1, { { "cpu-clock:ppp", SW, 0, "G", 3, 0, "M", 0, 1 } } },
	{ "cpu-clock:kp", 0, 1, { { "cpu-clock:kp", SW, 0, "uhG", 1, 0, "M", 0, 1 } } },
	{ "cpu-clock:P", 0, 1, { { "cpu-clock:P", SW, 0, "", 3, 0, "MX", 0, 1 } } },
	{ "cpu-clock:Pp", 0, 1, { { "cpu-clock:Pp", SW, 0, "G", 3, 0, "MX", 0, 1 } } },
	{ "cpu-clock:S", 0, 1, { { "cpu-clock:S", SW, 0, "", 0, 0, "MS", 0, 1 } } },
	{ "cpu-clock:D", 0, 1, { { "cpu-clock:D", SW, 0, "", 0, 0, "MD", 0, 1 } } },
	{ "cpu-clock:e", 0, 1, { { "cpu-clock:e", SW, 0, "", 0, 0, "Me", 0, 1 } } },
	{ "cpu-clock:I", 0, 1, { { "cpu-clock:I", SW, 0, "I", 0, 0, "M", 0, 1 } } },
	{ "cpu-clock:W", 0, 1, { { "cpu-clock:W", SW, 0, "", 0, 0, "M", 0, 1 } } },
	/* an empty modifier changes nothing, perf names it as written */
	{ "cpu-clock:", 0, 1, { { "cpu-clock:", SW, 0, "G", 0, 0, "", 0, 1 } } },
	{ "cpu-clock :u", 0, 1, { { "cpu-clock :u", SW, 0, "khG", 0, 0, "M", 0, 1 } } },

	/* raw */
	{ "r0", 0, 1, { { "r0", PERF_TYPE_RAW, 0, "G", 0, 0, "", 0, 1 } } },
	{ "r1a8:u", 0, 1, { { "r1a8:u", PERF_TYPE_RAW, 0x1a8, "khG", 0, 0, "M", 0, 1 } } },
	{ "r1234567890abcdef", 0, 1, { { "r1234567890abcdef", PERF_TYPE_RAW, 0x1234567890abcdef, "G", 0, 0, "", 0, 1 } } },

	/* cache events */
	{ "L1-dcache-load-misses", 0, 1, { { "L1-dcache-load-misses", CACHE, 0x10000, "G", 0, 0, "", 0, 1 } } },
	{ "L1-dcache", 0, 1, { { "L1-dcache", CACHE, 0, "G", 0, 0, "", 0, 1 } } },
	{ "LLC-store-misses:k", 0, 1, { { "LLC-store-misses:k", CACHE, 0x10102, "uh", 0, 0, "M", 0, 1 } } },
	{ "L1-dcache-speculative-load-misses", 0, 1,
	  { { "L1-dcache-speculative-load-misses", CACHE, 0x10200, "G", 0, 0, "", 0, 1 } } },
	{ "l1i-loads", 0, 1, { { "l1i-loads", CACHE, 1, "G", 0, 0, "", 0, 1 } } },
	{ "d-tlb-misses", 0, 1, { { "d-tlb-misses", CACHE, 0x10003, "G", 0, 0, "", 0, 1 } } },
	{ "node-prefetch-misses", 0, 1, { { "node-prefetch-misses", CACHE, 0x10206, "G", 0, 0, "", 0, 1 } } },
	{ "bpc-misses", 0, 1, { { "bpc-misses", CACHE, 0x10005, "G", 0, 0, "", 0, 1 } } },
	/* the first operation and the first result count */
	{ "L1-dcache-load-store", 0, 1, { { "L1-dcache-load-store", CACHE, 0, "G", 0, 0, "", 0, 1 } } },
	{ "L1-dcache-misses-loads", 0, 1, { { "L1-dcache-misses-loads", CACHE, 0x10000, "G", 0, 0, "", 0, 1 } } },

	/* PMU terms: this machine's software PMU */
	{ "software/config=0/", 0, 1, { { "software/config=0/", SW, 0, "G", 0, 0, "", 0, 1 } } },
	{ "software/config=1/u", 0, 1, { { "software/config=1/u", SW, 1, "khG", 0, 0, "M", 0, 1 } } },
	{ "software/config=2,config1=7,config2=0x9/", 0, 1,
	  { { "software/config=2,config1=7,config2=0x9/", SW, 2, "G", 0, 0, "", 0, 1, 7, 9 } } },
	{ "software/config=0,name=foo/", 0, 1, { { "foo", SW, 0, "G", 0, 0, "", 0, 1 } } },
	{ "software/name=a,name=b,config=3/", 0, 1, { { "a", SW, 3, "G", 0, 0, "", 0, 1 } } },
	{ "software/config=0,name=x:y.z-w/", 0, 1, { { "x:y.z-w", SW, 0, "G", 0, 0, "", 0, 1 } } },
	{ "software/config/", 0, 1, { { "software/config/", SW, 1, "G", 0, 0, "", 0, 1 } } },
	{ "software/config=010/", 0, 1, { { "software/config=010/", SW, 10, "G", 0, 1, "", 0, 1 } } },
	{ "software/config=1,config=2/", 0, 1, { { "software/config=1,config=2/", SW, 2, "G", 0, 0, "", 0, 1 } } },
	{ "software/ config = 1 /", 0, 1, { { "software/ config = 1 /", SW, 1, "G", 0, 0, "", 0, 1 } } },
	{ "software//", 0, 1, { { "software//", SW, 0, "G", 0, 0, "", 0, 1 } } },
	{ "software/period=1000/", 0, 1, { { "software/period=1000/", SW, 0, "G", 0, 1000, "p", 0, 1 } } },
	{ "software/period/", 0, 1, { { "software/period/", SW, 0, "G", 0, 1, "p", 0, 1 } } },
	{ "software/config=0,freq=100/", 0, 1, { { "software/config=0,freq=100/", SW, 0, "G", 0, 100, "Ff", 0, 1 } } },
	/* the last of period= and freq= wins */
	{ "software/config=0,period=100,freq=10/", 0, 1,
	  { { "software/config=0,period=100,freq=10/", SW, 0, "G", 0, 10, "Ff", 0, 1 } } },
	{ "software/config=0,freq=10,period=100/", 0, 1,
	  { { "software/config=0,freq=10,period=100/", SW, 0, "G", 0, 100, "p", 0, 1 } } },
	{ "software/config=0/pp", 0, 1, { { "software/config=0/pp", SW, 0, "G", 2, 0, "M", 0, 1 } } },

	/* PMU terms: the fake PMUs' formats and aliases */
	{ "cpu/event=0x3c/", 1, 1, { { "cpu/event=0x3c/", 4, 0x3c, "G", 0, 0, "", 0, 1 } } },
	{ "cpu/event=0x3c,umask=0x2,edge,cmask=3/u", 1, 1,
	  { { "cpu/event=0x3c,umask=0x2,edge,cmask=3/u", 4, 0x304023c, "khG", 0, 0, "M", 0, 1 } } },
	/* format bits are OR'd into config= (perf applies config= first) */
	{ "cpu/event=1,config=0x200/", 1, 1, { { "cpu/event=1,config=0x200/", 4, 0x201, "G", 0, 0, "", 0, 1 } } },
	{ "cpu/event=1,event=2/", 1, 1, { { "cpu/event=1,event=2/", 4, 3, "G", 0, 0, "", 0, 1 } } },
	{ "cpu/ldlat=0x1234,split=0xab/", 1, 1,
	  { { "cpu/ldlat=0x1234,split=0xab/", 4, 0, "G", 0, 0, "", 0, 1, 0x1234, 0xa0b } } },
	{ "cpu/wide=0xffffffffffffffff/", 1, 1,
	  { { "cpu/wide=0xffffffffffffffff/", 4, 0, "G", 0, 0, "", 0, 1, 0, UINT64_MAX } } },
	{ "cpu/inst-retired/", 1, 1, { { "cpu/inst-retired/", 4, 0x1c0, "G", 0, 0, "", 0, 1 } } },
	{ "cpu/inst-retired=1,period=5/k", 1, 1,
	  { { "cpu/inst-retired=1,period=5/k", 4, 0x1c0, "uh", 0, 5, "pM", 0, 1 } } },
	{ "cpu/mem-loads,ldlat=0x10/", 1, 1, { { "cpu/mem-loads,ldlat=0x10/", 4, 0x1cd, "G", 0, 0, "", 0, 1, 0x13 } } },
	/* an alias alone: one event per PMU that has it, named as written */
	{ "clockticks", 1, 1, { { "clockticks", 12, 0xff, "G", 0, 0, "", 0, 1 } } },
	{ "inst-retired:u", 1, 1, { { "inst-retired:u", 4, 0x1c0, "khG", 0, 0, "M", 0, 1 } } },

	/* breakpoints */
	{ "mem:0x1000", 0, 1, { { "mem:0x1000", BP, 0, "G", 0, 1, "", 0, 1, 0x1000, 4, 3 } } },
	{ "mem:4096:x", 0, 1, { { "mem:4096:x", BP, 0, "G", 0, 1, "", 0, 1, 0x1000, 8, 4 } } },
	{ "mem:0x1000:rw:u", 0, 1, { { "mem:0x1000:rw:u", BP, 0, "khG", 0, 1, "M", 0, 1, 0x1000, 4, 3 } } },
	/* perf's name stops at the '/' */
	{ "mem:0x1000/8:w:u", 0, 1, { { "mem:0x1000", BP, 0, "khG", 0, 1, "M", 0, 1, 0x1000, 8, 2 } } },

	/* tracepoints (fake tracefs) */
	{ "sched:sched_switch", 1, 1, { { "sched:sched_switch", TP, 372, "G", 0, 1, "", 0, 1 } } },
	{ "sched:sched_switch:u", 1, 1, { { "sched:sched_switch", TP, 372, "khG", 0, 1, "M", 0, 1 } } },
	{ "sched:sched_sw?tch:k", 1, 1, { { "sched:sched_switch", TP, 372, "uh", 0, 1, "M", 0, 1 } } },
	{ "s*:sched_switch,cs", 1, 2,
	  { { "sched:sched_switch", TP, 372, "G", 0, 1, "", 0, 1 }, { "cs", SW, 3, "G", 0, 0, "", 1, 1 } } },

	/* groups: the group's modifiers start from each member's */
	{ "{cpu-clock,task-clock}", 0, 2,
	  { { "cpu-clock", SW, 0, "G", 0, 0, "", 0, 2 }, { "task-clock", SW, 1, "G", 0, 0, "", 0, 1 } } },
	{ "{cpu-clock,task-clock}:u", 0, 2,
	  { { "cpu-clock", SW, 0, "khG", 0, 0, "M", 0, 2 }, { "task-clock", SW, 1, "khG", 0, 0, "M", 0, 1 } } },
	{ "{cpu-clock:k,task-clock}:u", 0, 2,
	  { { "cpu-clock:k", SW, 0, "hG", 0, 0, "M", 0, 2 }, { "task-clock", SW, 1, "khG", 0, 0, "M", 0, 1 } } },
	{ "{cpu-clock:G,task-clock}:u", 0, 2,
	  { { "cpu-clock:G", SW, 0, "khH", 0, 0, "M", 0, 2 }, { "task-clock", SW, 1, "khG", 0, 0, "M", 0, 1 } } },
	{ "{cpu-clock:H,task-clock}:G", 0, 2,
	  { { "cpu-clock:H", SW, 0, "", 0, 0, "M", 0, 2 }, { "task-clock", SW, 1, "H", 0, 0, "M", 0, 1 } } },
	{ "{cpu-clock:pp,task-clock}:p", 0, 2,
	  { { "cpu-clock:pp", SW, 0, "G", 3, 0, "M", 0, 2 }, { "task-clock", SW, 1, "G", 1, 0, "M", 0, 1 } } },
	{ "{cpu-clock,task-clock}:S", 0, 2,
	  { { "cpu-clock", SW, 0, "G", 0, 0, "MS", 0, 2 }, { "task-clock", SW, 1, "G", 0, 0, "MS", 0, 1 } } },
	{ "page-faults,{cpu-clock,task-clock}:u,cs", 0, 4,
	  { { "page-faults", SW, 2, "G", 0, 0, "", 0, 1 }, { "cpu-clock", SW, 0, "khG", 0, 0, "M", 1, 2 },
	    { "task-clock", SW, 1, "khG", 0, 0, "M", 1, 1 }, { "cs", SW, 3, "G", 0, 0, "", 3, 1 } } },
	{ "grp{cpu-clock,task-clock},{cs}", 0, 3,
	  { { "cpu-clock", SW, 0, "G", 0, 0, "", 0, 2 }, { "task-clock", SW, 1, "G", 0, 0, "", 0, 1 },
	    { "cs", SW, 3, "G", 0, 0, "", 2, 1 } } },
	{ "{cs,sched:sched_*}", 1, 3,
	  { { "cs", SW, 3, "G", 0, 0, "", 0, 3 }, { NULL, TP, 0, "G", 0, 1, "", 0, 1 },
	    { NULL, TP, 0, "G", 0, 1, "", 0, 1 } } },
};

static bool has(const char *s, char c)
{
	return s && strchr(s, c);
}

static void check_case(const struct pcase *pc)
{
	struct record_event ev[8];
	size_t n = 0;
	int err;

	logcap_reset();
	err = record__parse_events_env(pc->spec, ev, 8, &n, pc->use_fake ? &fake : NULL);
	if (!ok(!err && n == (size_t)pc->nr && !logcap_errors, "'%s': %d event(s)", pc->spec, pc->nr)) {
		diag("err %d, %zu events, log '%s'", err, n, logcap_err);
		return;
	}
	for (int i = 0; i < pc->nr; i++) {
		const struct exp *x = &pc->ev[i];
		const struct perf_event_attr *a = &ev[i].attr;
		char got[160], want[160];

		snprintf(got, sizeof(got), "type %u config %#llx/%#llx/%#llx bp %u excl %s%s%s%s%s%s p%u %s%llu "
			 "%s%s%s%s%s%s%s leader %d size %d",
			 a->type, (unsigned long long)a->config, (unsigned long long)a->config1,
			 (unsigned long long)a->config2, a->bp_type, a->exclude_user ? "u" : "",
			 a->exclude_kernel ? "k" : "", a->exclude_hv ? "h" : "", a->exclude_host ? "H" : "",
			 a->exclude_guest ? "G" : "", a->exclude_idle ? "I" : "", a->precise_ip,
			 a->freq ? "freq " : "period ", (unsigned long long)a->sample_period,
			 ev[i].period_set ? "p" : "", ev[i].freq_set ? "f" : "", ev[i].sample_read ? "S" : "",
			 ev[i].mod_set ? "M" : "", a->pinned ? "D" : "", a->exclusive ? "e" : "",
			 ev[i].precise_max ? "X" : "", ev[i].leader, i == ev[i].leader ? ev[i].group_size : 0);
		snprintf(want, sizeof(want), "type %u config %#llx/%#llx/%#llx bp %u excl %s%s%s%s%s%s p%u %s%llu "
			 "%s%s%s%s%s%s%s leader %d size %d",
			 x->type, (unsigned long long)(x->name ? x->config : a->config),
			 (unsigned long long)x->config1, (unsigned long long)x->config2, (unsigned)x->bp_type,
			 has(x->excl, 'u') ? "u" : "", has(x->excl, 'k') ? "k" : "", has(x->excl, 'h') ? "h" : "",
			 has(x->excl, 'H') ? "H" : "", has(x->excl, 'G') ? "G" : "", has(x->excl, 'I') ? "I" : "",
			 x->precise, has(x->flags, 'F') ? "freq " : "period ", (unsigned long long)x->period,
			 has(x->flags, 'p') ? "p" : "", has(x->flags, 'f') ? "f" : "", has(x->flags, 'S') ? "S" : "",
			 has(x->flags, 'M') ? "M" : "", has(x->flags, 'D') ? "D" : "", has(x->flags, 'e') ? "e" : "",
			 has(x->flags, 'X') ? "X" : "", x->leader, i == x->leader ? x->group_size : 0);
		is_str(got, want, "'%s' #%d: the attr", pc->spec, i);
		if (x->name)
			is_str(ev[i].name, x->name, "'%s' #%d: perf's name", pc->spec, i);
		else
			ok(!strncmp(ev[i].name, "sched:sched_", 12), "'%s' #%d: a sched tracepoint: '%s'", pc->spec,
			   i, ev[i].name);
	}
}

/* ---- errors: refused, in one line that says why, the array untouched ---- */

struct ecase {
	const char *spec;
	bool use_fake;
	int code;
	const char *msg;	/* a part of the one line */
};

static const struct ecase errors[] = {
	{ "bogus", 0, -MPERF_ERR_NOEVENT, "unknown event 'bogus'" },
	{ "cycles,bogus", 0, -MPERF_ERR_NOEVENT, "unknown event 'bogus' (in -e 'cycles,bogus')" },
	{ "Cycles", 0, -MPERF_ERR_NOEVENT, "unknown event 'Cycles'" },
	{ "R0", 0, -MPERF_ERR_NOEVENT, "unknown event 'R0'" },
	{ "r0x10", 0, -MPERF_ERR_NOEVENT, "unknown event 'r0x10'" },
	{ "r1234567890abcdef0", 0, -MPERF_ERR_NOEVENT, "unknown event" },
	{ "iTLB-stores", 0, -MPERF_ERR_NOEVENT, "no such operation" },
	{ "L1-dcache-load-references", 0, -MPERF_ERR_NOEVENT, "unknown event" },
	{ "branches-loads", 0, -MPERF_ERR_NOEVENT, "unknown event" },
	{ "cpu-clock,", 0, -EINVAL, "expected an event" },
	{ ",cpu-clock", 0, -EINVAL, "expected an event" },
	{ "cpu-clock,,cs", 0, -EINVAL, "expected an event" },
	{ "", 0, -EINVAL, "expected an event" },
	{ "cpu-clock:kk", 0, -EINVAL, "bad modifier 'kk'" },
	{ "cpu-clock:pppp", 0, -EINVAL, "bad modifier 'pppp'" },
	{ "cpu-clock:SS", 0, -EINVAL, "bad modifier 'SS'" },
	{ "cpu-clock:x", 0, -EINVAL, "bad modifier 'x'" },
	{ "cpu-clock:u:k", 0, -EINVAL, "at ':k'" },
	{ "{cpu-clock:pp,task-clock}:pp", 0, -EINVAL, "precise_ip would be 4" },
	{ "{cpu-clock,{task-clock}}", 0, -EINVAL, "groups cannot be nested" },
	{ "{}", 0, -EINVAL, "empty group" },
	{ "{cpu-clock", 0, -EINVAL, "without its '}'" },
	{ "cpu-clock}", 0, -EINVAL, "'}' without its '{'" },
	{ "nopmu/config=1/", 1, -MPERF_ERR_NOEVENT, "no such PMU 'nopmu' on this machine" },
	{ "cpu/event=0x3c/", 1, 0, NULL },	/* the fake has a cpu PMU: no error */
	{ "software/cpu-clock/", 1, -MPERF_ERR_NOEVENT, "unknown term 'cpu-clock' for PMU 'software'" },
	{ "software/event=1/", 1, -MPERF_ERR_NOEVENT, "unknown term 'event' for PMU 'software'" },
	{ "cpu/bogus=1/", 1, -MPERF_ERR_NOEVENT, "(valid: config, config1, config2, name, period, freq" },
	{ "cpu/inst-retired=2/", 1, -MPERF_ERR_NOEVENT, "unknown term 'inst-retired'" },
	{ "cpu/event=0x100/", 1, -EINVAL, "value 0x100 too big for term 'event' of PMU 'cpu': the maximum is 255" },
	{ "cpu/edge=2/", 1, -EINVAL, "the maximum is 1" },
	{ "cpu/with-param/", 1, -EOPNOTSUPP, "needs parameters" },
	{ "cpu/broken/", 1, -EINVAL, "unknown term 'nosuchterm'" },
	{ "cpu/inherit/", 1, -EOPNOTSUPP, "term 'inherit'" },
	{ "cpu-clock/call-graph=bogus/", 0, -EINVAL, "unknown call-graph mode 'bogus' in 'cpu-clock/call-graph=bogus/' (fp, dwarf or no)" },
	{ "cpu-clock/call-graph=FP/", 0, -EINVAL, "unknown call-graph mode 'FP'" },
	{ "cpu-clock/call-graph/", 0, -EINVAL, "expected '=' and fp, dwarf or no after 'call-graph'" },
	{ "cpu-clock/call-graph=/", 0, -EINVAL, "expected fp, dwarf or no after 'call-graph='" },
	{ "cpu-clock/call-graph=dwarf,4096/", 0, -EINVAL, "stack-size=SIZE" },
	{ "cpu-clock/call-graph=lbr/", 1, -EOPNOTSUPP, "call-graph=lbr in 'cpu-clock/call-graph=lbr/' needs a PMU with last branch records" },
	{ "cpu-clock/stack-size=0/", 0, -EINVAL, "incorrect stack dump size (max 65528): stack-size=0" },
	{ "cpu-clock/stack-size=65529/", 0, -EINVAL, "incorrect stack dump size (max 65528): stack-size=65529" },
	{ "cpu-clock/stack-size=-8/", 0, -EINVAL, "expected a number" },
	{ "cpu-clock/max-stack=-1/", 0, -EINVAL, "expected a number" },
	{ "cpu-clock/max-stack=0/", 0, -EINVAL, "incorrect max-stack=0 in 'cpu-clock/max-stack=0/'" },
	{ "cpu-clock/max-stack=65536/", 0, -EINVAL, "a depth of 1 to 65535 frames" },
	{ "cpu-clock,task-clock/call-graph=x/", 0, -EINVAL, "(in -e 'cpu-clock,task-clock/call-graph=x/')" },
	{ "cpu/no-inherit/", 1, -EOPNOTSUPP, "not supported by mperf record" },
	{ "badfmt/event=1/", 1, -EINVAL, "cannot parse format" },
	{ "badtype/config=1/", 1, -EINVAL, "does not hold a number" },
	{ "software/config=99999999999999999999/", 1, -EINVAL, "expected a number" },
	{ "software/config=-1/", 1, -EINVAL, "expected a number" },
	{ "software/config=0X10/", 1, -EINVAL, "expected a number" },
	{ "software/period=1k/", 1, -EINVAL, "expected a number" },
	{ "software/name/", 1, -EINVAL, "expected '=' after 'name'" },
	{ "software/name=1x/", 1, -EINVAL, "expected a name" },
	{ "software/config=0", 1, -EINVAL, "expected ',' or '/'" },
	{ "software/config=0/:u", 1, -EINVAL, "at ':u'" },
	{ "software/config=0/x", 1, -EINVAL, "bad modifier 'x'" },
	{ "mem:", 0, -EINVAL, "expected an address" },
	{ "mem:0x1000:z", 0, -EINVAL, "bad modifier 'z'" },
	{ "mem:0x1000:k:rw", 0, -EINVAL, "at ':rw'" },
	{ "sched:nope", 1, -MPERF_ERR_NOEVENT, "unknown tracepoint 'sched:nope'" },
	{ "nope:nope", 1, -MPERF_ERR_NOEVENT, "unknown tracepoint 'nope:nope'" },
	{ "sched:nomatch*", 1, -MPERF_ERR_NOEVENT, "no tracepoint matches 'sched:nomatch*'" },
	{ "nosys*:x", 1, -MPERF_ERR_NOEVENT, "no tracepoint matches 'nosys*:x'" },
	{ "sched:sched_switch/period=3/", 1, -MPERF_ERR_NOEVENT,
	  "unknown term 'period' for tracepoint 'sched:sched_switch' (valid: call-graph, stack-size, max-stack)" },
	{ "sched:sched_switch/name=x/", 1, -MPERF_ERR_NOEVENT, "unknown term 'name' for tracepoint" },
	{ "sched:sched_switch/config=1/", 1, -MPERF_ERR_NOEVENT, "unknown term 'config' for tracepoint" },
	{ "sched:sched_switch/call-graph=fp", 1, -EINVAL, "expected ',' or '/'" },
	{ "sched:sched_switch/call-graph=fp/x", 1, -EINVAL, "bad modifier 'x'" },
	{ "sched:nope/call-graph=fp/", 1, -MPERF_ERR_NOEVENT, "unknown tracepoint 'sched:nope'" },
	{ "cs,{cs,cs,cs},cs,cs", 0, -E2BIG, "too many events: mperf records at most 4" },
	{ "syscalls:*", 1, 0, NULL },
	{ "syscalls:*,cs,cs", 1, -E2BIG, "too many events" },
};

static void check_errors(void)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		const struct ecase *e = &errors[i];
		struct record_event ev[4];
		size_t n = 0;
		int err;

		memset(ev, 0x5a, sizeof(ev));
		logcap_reset();
		err = record__parse_events_env(e->spec, ev, 4, &n, e->use_fake ? &fake : NULL);
		if (!e->msg) {
			ok(!err && n > 0 && !logcap_errors, "'%s' parses", e->spec);
			continue;
		}
		is_int(err, e->code, "'%s' is refused", e->spec);
		ok(logcap_errors == 1 && strstr(logcap_err, e->msg), "'%s': one line with \"%s\": '%s'", e->spec,
		   e->msg, logcap_err);
		ok(n == 0, "'%s': nothing appended", e->spec);
	}
}

/* ---- call graph terms: kept apart from the attr, which record sets up from them ---- */

struct cgcase {
	const char *spec;
	bool use_fake;
	size_t n;
	int at;			/* the event checked */
	const char *name;
	enum record_cg_mode mode;
	uint32_t stack_size;
	uint16_t max_stack;
	const char *term;	/* the first call graph term, or NULL */
	uint32_t type;		/* and the attr's type, untouched by the terms */
	bool exclude_kernel;
};

static const struct cgcase cgcases[] = {
	{ "cpu-clock/call-graph=dwarf,stack-size=4096/", 0, 1, 0, "cpu-clock/call-graph=dwarf,stack-size=4096/",
	  RECORD_CG_DWARF, 4096, 0, "call-graph", PERF_TYPE_SOFTWARE, 0 },
	{ "task-clock/call-graph=fp/", 0, 1, 0, "task-clock/call-graph=fp/", RECORD_CG_FP, 0, 0, "call-graph",
	  PERF_TYPE_SOFTWARE, 0 },
	{ "cpu-clock/call-graph=no/,task-clock", 0, 2, 1, "task-clock", RECORD_CG_UNSET, 0, 0, NULL,
	  PERF_TYPE_SOFTWARE, 0 },
	{ "cpu-clock/call-graph=no/,task-clock", 0, 2, 0, "cpu-clock/call-graph=no/", RECORD_CG_NO, 0, 0,
	  "call-graph", PERF_TYPE_SOFTWARE, 0 },
	/* perf's rounding of the size; the last of a term wins; bare terms are 1 */
	{ "cpu-clock/stack-size=4001,call-graph=fp,call-graph=dwarf/", 0, 1, 0, NULL, RECORD_CG_DWARF, 4008, 0,
	  "stack-size", PERF_TYPE_SOFTWARE, 0 },
	{ "cpu-clock/max-stack=8,max-stack=5/u", 0, 1, 0, "cpu-clock/max-stack=8,max-stack=5/u", RECORD_CG_UNSET,
	  0, 5, "max-stack", PERF_TYPE_SOFTWARE, 1 },
	{ "cpu-clock/stack-size,max-stack/", 0, 1, 0, NULL, RECORD_CG_UNSET, 8, 1, "stack-size",
	  PERF_TYPE_SOFTWARE, 0 },
	{ "cpu-clock/ call-graph = fp /", 0, 1, 0, "cpu-clock/ call-graph = fp /", RECORD_CG_FP, 0, 0,
	  "call-graph", PERF_TYPE_SOFTWARE, 0 },
	{ "cpu-clock/stack-size=65528/", 0, 1, 0, NULL, RECORD_CG_UNSET, 65528, 0, "stack-size",
	  PERF_TYPE_SOFTWARE, 0 },
	{ "cpu-clock/max-stack=0xffff/", 0, 1, 0, NULL, RECORD_CG_UNSET, 0, 65535, "max-stack",
	  PERF_TYPE_SOFTWARE, 0 },
	{ "software/config=0,call-graph=dwarf/", 1, 1, 0, "software/config=0,call-graph=dwarf/", RECORD_CG_DWARF,
	  0, 0, "call-graph", PERF_TYPE_SOFTWARE, 0 },
	{ "r1a8/max-stack=4/", 1, 1, 0, "r1a8/max-stack=4/", RECORD_CG_UNSET, 0, 4, "max-stack", PERF_TYPE_RAW, 0 },
	{ "{cpu-clock/call-graph=fp/,task-clock}:S", 0, 2, 1, "task-clock", RECORD_CG_UNSET, 0, 0, NULL,
	  PERF_TYPE_SOFTWARE, 0 },
	/* a tracepoint: named without its terms, which every match of a glob takes; modifiers after the '/' */
	{ "sched:sched_switch/call-graph=dwarf,max-stack=3/", 1, 1, 0, "sched:sched_switch", RECORD_CG_DWARF, 0, 3,
	  "call-graph", PERF_TYPE_TRACEPOINT, 0 },
	{ "sched:sched_switch/call-graph=fp/u", 1, 1, 0, "sched:sched_switch", RECORD_CG_FP, 0, 0, "call-graph",
	  PERF_TYPE_TRACEPOINT, 1 },
	{ "sched:sched_switch/call-graph=fp/:u", 1, 1, 0, "sched:sched_switch", RECORD_CG_FP, 0, 0, "call-graph",
	  PERF_TYPE_TRACEPOINT, 1 },
	{ "syscalls:sys_enter_open*/stack-size=64/,cpu-clock", 1, 3, 1, "syscalls:sys_enter_openat",
	  RECORD_CG_UNSET, 64, 0, "stack-size", PERF_TYPE_TRACEPOINT, 0 },
	{ "syscalls:sys_enter_open*/stack-size=64/,cpu-clock", 1, 3, 2, "cpu-clock", RECORD_CG_UNSET, 0, 0, NULL,
	  PERF_TYPE_SOFTWARE, 0 },
};

static void check_call_graph_terms(void)
{
	for (size_t i = 0; i < sizeof(cgcases) / sizeof(cgcases[0]); i++) {
		const struct cgcase *x = &cgcases[i];
		struct record_event ev[4];
		const struct record_event *e = &ev[x->at];
		size_t n = 0;
		int err;

		logcap_reset();
		err = record__parse_events_env(x->spec, ev, 4, &n, x->use_fake ? &fake : NULL);
		if (!ok(!err && n == x->n && !logcap_errors, "'%s' parses: %zu events", x->spec, n)) {
			diag("%s", logcap_err);
			continue;
		}
		if (x->name)
			is_str(e->name, x->name, "'%s' #%d: perf's name", x->spec, x->at);
		ok(e->cg_mode == x->mode && e->cg_stack_size == x->stack_size && e->cg_max_stack == x->max_stack,
		   "'%s' #%d: call-graph %d, stack-size %u, max-stack %u", x->spec, x->at, (int)e->cg_mode,
		   (unsigned int)e->cg_stack_size, (unsigned int)e->cg_max_stack);
		ok(x->term ? e->cg_term && !strcmp(e->cg_term, x->term) : !e->cg_term, "'%s' #%d: first term %s",
		   x->spec, x->at, e->cg_term ? e->cg_term : "(none)");
		ok(e->attr.type == x->type && e->attr.exclude_kernel == x->exclude_kernel && !e->attr.sample_max_stack &&
		   !e->attr.sample_stack_user && !(e->attr.sample_type & PERF_SAMPLE_CALLCHAIN),
		   "'%s' #%d: the attr is the event's, the call graph is record's to set up", x->spec, x->at);
	}
}

/* ---- the caller's array: repeated -e append, and the limit ---- */

static void check_append(void)
{
	struct record_event ev[4];
	size_t n = 0;

	logcap_reset();
	ok(!record__parse_events("cpu-clock", ev, 4, &n) && n == 1, "first -e: one event");
	ok(!record__parse_events("{page-faults,cs}:u", ev, 4, &n) && n == 3, "second -e: appended");
	is_int(ev[1].leader, 1, "a group's leader is its index in the whole array");
	is_int(ev[2].leader, 1, "and so is its member's");
	is_int(ev[1].group_size, 2, "group_size on the leader");
	ok(!record__parse_events("task-clock", ev, 4, &n) && n == 4, "the last slot is filled");
	is_int(record__parse_events("cs", ev, 4, &n), -E2BIG, "one more: E2BIG");
	ok(n == 4 && logcap_errors == 1, "n unchanged, one line: '%s'", logcap_err);
	n = 5;
	logcap_reset();
	is_int(record__parse_events("cs", ev, 4, &n), -E2BIG, "n past max: E2BIG");
	n = 1;
	logcap_reset();
	ok(record__parse_events("cs,bogus", ev, 4, &n) < 0 && n == 1, "an error leaves n as it was");
}

/* ---- record's default event, as perf 6.1's evsel__new_cycles makes it ---- */

static void check_default_event(void)
{
	struct record_event ev[2];
	char name[64];
	size_t n = 0;

	ok(!record__default_event(ev, 2, &n, false) && n == 1, "the default event: one");
	ok(ev[0].attr.type == PERF_TYPE_HARDWARE && ev[0].attr.config == PERF_COUNT_HW_CPU_CYCLES &&
	   ev[0].precise_max, "cycles, as precise as the PMU allows");
	is_int(ev[0].attr.exclude_guest, 1, "guests excluded, as perf's event_attr_init");
	is_int(ev[0].attr.exclude_host, 0, "the host is not");
	ev[0].attr.type = PERF_TYPE_SOFTWARE;
	ev[0].attr.config = PERF_COUNT_SW_CPU_CLOCK;
	pd_event_name(&ev[0].attr, name, sizeof(name));
	is_str(name, "cpu-clock:pppH", "its fallback is named as perf names it there");
	n = 0;
	ok(!record__default_event(ev, 2, &n, true) && n == 1, "on AMD: one");
	is_int(ev[0].attr.exclude_guest, 0, "on AMD perf clears exclude_guest (IBS cannot filter guests)");
	n = 2;
	logcap_reset();
	is_int(record__default_event(ev, 2, &n, false), -E2BIG, "no room: E2BIG");
}

/* ---- the fake tracefs: globs expand to every match ---- */

static void check_globs(void)
{
	struct record_event ev[8];
	size_t n = 0;
	bool open_ = false, openat = false, other = false;

	logcap_reset();
	ok(!record__parse_events_env("syscalls:sys_enter_open*", ev, 8, &n, &fake) && n == 2,
	   "syscalls:sys_enter_open*: two tracepoints");
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(ev[i].name, "syscalls:sys_enter_open") && ev[i].attr.config == 600)
			open_ = true;
		else if (!strcmp(ev[i].name, "syscalls:sys_enter_openat") && ev[i].attr.config == 601)
			openat = true;
		else
			other = true;
		ok(ev[i].attr.type == PERF_TYPE_TRACEPOINT && ev[i].attr.sample_period == 1 && !ev[i].period_set &&
		   ev[i].leader == (int)i && ev[i].group_size == 1, "%s: a tracepoint, period 1, alone", ev[i].name);
	}
	ok(open_ && openat && !other, "sys_enter_open (600) and sys_enter_openat (601)");
	n = 0;
	ok(!record__parse_events_env("*:sys_*:u", ev, 8, &n, &fake) && n == 3, "*:sys_*:u: three tracepoints");
	ok(n == 3 && ev[0].attr.exclude_kernel && ev[2].attr.exclude_kernel, "the modifier applies to each");
	n = 0;
	ok(!record__parse_events_env("*:*", ev, 8, &n, &fake) && n == 5, "*:*: every tracepoint, not the files");
}

/* ---- this machine's tracefs, mounted when we can ---- */

static bool have_tracefs(void)
{
	DIR *d;

	if ((d = opendir("/sys/kernel/tracing/events")) || (d = opendir("/sys/kernel/debug/tracing/events"))) {
		closedir(d);
		return true;
	}
	if (geteuid() == 0 && mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) == 0 &&
	    (d = opendir("/sys/kernel/tracing/events"))) {
		closedir(d);
		return true;
	}
	return false;
}

static void check_real_tracefs(void)
{
	struct record_event ev[64];
	struct record_parse_env none = { .tracing_dir = "/nonexistent/tracing" };
	char buf[32];
	size_t n = 0;
	FILE *f;
	unsigned long long id = 0;

	logcap_reset();
	is_int(record__parse_events_env("sched:sched_switch", ev, 4, &n, &none), -ENOENT,
	       "no tracefs: ENOENT");
	ok(logcap_errors == 1 && strstr(logcap_err, "tracefs is not mounted") &&
	   strstr(logcap_err, "mount -t tracefs"), "and a line that says how to mount it: '%s'", logcap_err);

	if (!have_tracefs()) {
		skip(5, "tracefs is not mounted and cannot be mounted here");
		return;
	}
	f = fopen("/sys/kernel/tracing/events/sched/sched_switch/id", "r");
	if (!f)
		f = fopen("/sys/kernel/debug/tracing/events/sched/sched_switch/id", "r");
	if (!f || !fgets(buf, sizeof(buf), f) || sscanf(buf, "%llu", &id) != 1) {
		if (f)
			fclose(f);
		skip(5, "no sched:sched_switch here");
		return;
	}
	fclose(f);
	n = 0;
	logcap_reset();
	ok(!record__parse_events("sched:sched_switch", ev, 64, &n) && n == 1, "sched:sched_switch: %s",
	   logcap_err);
	ok(n == 1 && ev[0].attr.type == PERF_TYPE_TRACEPOINT && ev[0].attr.config == id,
	   "type 2, config = its id (%llu)", id);
	ok(n == 1 && ev[0].attr.sample_period == 1 && !ev[0].period_set && ev[0].attr.exclude_guest,
	   "perf's default period 1 and exclude_guest");
	is_str(ev[0].name, "sched:sched_switch", "named SYS:NAME");
	n = 0;
	ok(!record__parse_events("sched:sched_s?itch,sched:sched_process_e*", ev, 64, &n) && n >= 2 &&
	   !strcmp(ev[0].name, "sched:sched_switch") && !strncmp(ev[n - 1].name, "sched:sched_process_e", 21),
	   "globs: %zu tracepoints", n);
}

int main(void)
{
	make_tree();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_case(&cases[i]);
	check_errors();
	check_call_graph_terms();
	check_append();
	check_default_event();
	check_globs();
	check_real_tracefs();
	remove_tree(root);
	return done_testing();
}
