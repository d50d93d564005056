// SPDX-License-Identifier: GPL-2.0-only
/*
 * mperf list: the events record -e can open on this machine, in perf
 * list's shape ("  NAME<pad to 50> [KIND]"), in its order: hardware,
 * software, cache, PMU events of sysfs, the syntax lines, tracepoints.
 * A hardware or cache event is listed when the kernel opens it here (a
 * probe, counting, user space only), as perf lists them; cycles without a
 * PMU is listed with what record opens instead.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../host/host.h"
#include "../lib/alloc.h"
#include "../lib/log.h"
#include "../perfdata/perfdata.h"
#include "record.h"

#define PMU_DIR "/sys/bus/event_source/devices"

enum section { SEC_HW, SEC_SW, SEC_TOOL, SEC_CACHE, SEC_PMU, SEC_SYNTAX, SEC_TP };

struct entry {
	enum section sec;
	char *name;		/* "cpu-cycles OR cycles" */
	const char *kind;	/* "Hardware event" */
	size_t idx;		/* the order it was added in: the syntax lines keep theirs */
};

struct list {
	struct entry *e;
	size_t nr, alloc;
	const char *filter;	/* NULL, a class (hw, sw, cache, pmu, tracepoint) or a glob */
	int err;
	/* generic events: the names of one (type, config) gathered before they are added */
	uint32_t type;
	uint64_t config;
	const char *names[4];
	size_t nr_names;
};

static const struct {
	const char *word;
	enum section sec;
} classes[] = {
	{ "hw", SEC_HW }, { "hardware", SEC_HW }, { "sw", SEC_SW }, { "software", SEC_SW },
	{ "cache", SEC_CACHE }, { "hwcache", SEC_CACHE }, { "pmu", SEC_PMU },
	{ "tracepoint", SEC_TP },
};

static int filter_class(const char *filter)
{
	for (size_t i = 0; filter && i < sizeof(classes) / sizeof(classes[0]); i++)
		if (!strcmp(filter, classes[i].word))
			return (int)classes[i].sec;
	return -1;
}

/* Whether the line of section sec, named name (one of its names), is shown. */
static bool wanted(const struct list *l, enum section sec, const char *name)
{
	char glob[256];
	int cls;

	if (!l->filter)
		return true;
	cls = filter_class(l->filter);
	if (cls >= 0)	/* perf's sw lists its tool events too */
		return (int)sec == cls || (sec == SEC_TOOL && cls == SEC_SW);
	if (sec == SEC_SYNTAX)
		return false;
	/* perf matches its glob anywhere in the name: 'sched' finds sched:*, and *_sched. */
	snprintf(glob, sizeof(glob), "*%s*", l->filter);
	return !fnmatch(glob, name, 0);
}

static int add(struct list *l, enum section sec, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int add(struct list *l, enum section sec, const char *kind, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0 || ALLOC_GROW(l->e, l->nr + 1, l->alloc)) {
		if (n >= 0)
			free(s);
		return l->err = mperf_error(-ENOMEM, "out of memory");
	}
	l->e[l->nr] = (struct entry){ sec, s, kind, l->nr };
	l->nr++;
	return 0;
}

/* Whether the kernel opens this event here: counting, user space only, this process. */
static bool probe(uint32_t type, uint64_t config)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = type, .config = config, .disabled = 1,
		.exclude_kernel = 1, .exclude_hv = 1,
	};
	int fd = host_perf_event_open(&a, 0, -1, -1);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* The gathered names of one generic event, longest first ("cpu-cycles OR cycles", as perf). */
static int flush_generic(struct list *l)
{
	const char *a, *b;
	bool hw = l->type == PERF_TYPE_HARDWARE, ok = true;
	bool match = false;
	const char *kind = hw ? "Hardware event" : "Software event";

	if (!l->nr_names)
		return 0;
	a = l->names[0];
	b = l->nr_names > 1 ? l->names[1] : NULL;
	l->nr_names = 0;
	if (b && strlen(b) > strlen(a)) {
		const char *t = a;

		a = b;
		b = t;
	}
	match = wanted(l, hw ? SEC_HW : SEC_SW, a) || (b && wanted(l, hw ? SEC_HW : SEC_SW, b));
	if (!match)
		return 0;
	if (hw && !probe(l->type, l->config)) {
		/* record's fallback: cycles becomes cpu-clock where there is no PMU. */
		if (l->config != PERF_COUNT_HW_CPU_CYCLES || !probe(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK))
			ok = false;
		else
			kind = "Hardware event, falls back to cpu-clock here";
	}
	if (!ok)
		return 0;
	return b ? add(l, hw ? SEC_HW : SEC_SW, kind, "%s OR %s", a, b) : add(l, hw ? SEC_HW : SEC_SW, kind, "%s", a);
}

static int generic(void *arg, const char *name, uint32_t type, uint64_t config)
{
	struct list *l = arg;

	if (l->nr_names && (l->type != type || l->config != config) && flush_generic(l))
		return l->err;
	l->type = type;
	l->config = config;
	if (l->nr_names < sizeof(l->names) / sizeof(l->names[0]))
		l->names[l->nr_names++] = name;
	return 0;
}

static int cache(void *arg, const char *name, uint64_t config)
{
	struct list *l = arg;

	if (!wanted(l, SEC_CACHE, name) || !probe(PERF_TYPE_HW_CACHE, config))
		return 0;
	return add(l, SEC_CACHE, "Hardware cache event", "%s", name);
}

struct dir_ctx {
	struct list *l;
	const char *dir;	/* the directory whose entries fn sees */
	const char *name;	/* the PMU or the tracepoint system */
};

/* An alias of a PMU's events/: the event files, not their .scale, .unit... companions. */
static int pmu_event(void *arg, const char *ev)
{
	struct dir_ctx *d = arg;
	char name[512];

	if (strchr(ev, '.'))
		return 0;
	snprintf(name, sizeof(name), "%s/%s/", d->name, ev);
	if (!wanted(d->l, SEC_PMU, name))
		return 0;
	return add(d->l, SEC_PMU, "Kernel PMU event", "%s", name);
}

static int each_file(const char *dir, int (*fn)(void *arg, const char *name), void *arg)
{
	char **names = NULL;
	size_t nr = 0, alloc = 0;
	struct dirent *de;
	DIR *dp = opendir(dir);
	int ret = 0;

	if (!dp)
		return 0;	/* a PMU without events/ */
	while ((de = readdir(dp))) {
		if (de->d_name[0] == '.')
			continue;
		if (ALLOC_GROW(names, nr + 1, alloc) || !(names[nr] = strdup(de->d_name))) {
			ret = mperf_error(-ENOMEM, "out of memory");
			break;
		}
		nr++;
	}
	closedir(dp);
	for (size_t i = 0; i < nr; i++) {
		if (!ret)
			ret = fn(arg, names[i]);
		free(names[i]);
	}
	free(names);
	return ret;
}

static int pmu(void *arg, const char *name)
{
	struct dir_ctx *d = arg, sub = { d->l, NULL, name };
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/%s/events", d->dir, name);
	sub.dir = dir;
	return each_file(dir, pmu_event, &sub);
}

static int tp_event(void *arg, const char *ev)
{
	struct dir_ctx *d = arg;
	char name[512], id[1024];

	snprintf(name, sizeof(name), "%s:%s", d->name, ev);
	if (!wanted(d->l, SEC_TP, name))
		return 0;
	/* Without an id (ftrace's internal events) it cannot be opened: perf leaves it out too. */
	snprintf(id, sizeof(id), "%s/%s/id", d->dir, ev);
	if (access(id, F_OK))
		return 0;
	return add(d->l, SEC_TP, "Tracepoint event", "%s", name);
}

static int tp_sys(void *arg, const char *sys)
{
	struct dir_ctx *d = arg, sub = { d->l, NULL, sys };
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/%s", d->dir, sys);
	sub.dir = dir;
	return host_list_dirs(dir, tp_event, &sub) == -ENOMEM ? d->l->err : 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	if (x->sec == SEC_SYNTAX || x->sec == SEC_TOOL)
		return x->idx < y->idx ? -1 : x->idx > y->idx;
	return strcmp(x->name, y->name);
}

int record__list(const char *filter, const char *pmu_dir, FILE *out)
{
	struct list l = { .filter = filter && *filter ? filter : NULL };
	char tracefs[512], events[600];
	struct dir_ctx d = { &l, pmu_dir ? pmu_dir : PMU_DIR, NULL };

	pd_event_foreach(generic, &l);
	flush_generic(&l);
	for (int k = 0; k < RECORD_NR_TOOLS && !l.err; k++)
		if (wanted(&l, SEC_TOOL, record_tool_names[k]))
			add(&l, SEC_TOOL, "Tool event", "%s", record_tool_names[k]);
	if (!l.err)
		pd_cache_event_foreach(cache, &l);
	if (!l.err)
		each_file(d.dir, pmu, &d);	/* sysfs links each PMU: no sysfs, no PMU events */
	if (!l.err && !l.filter) {
		add(&l, SEC_SYNTAX, "Raw hardware event descriptor", "rNNN");
		add(&l, SEC_SYNTAX, "Raw hardware event descriptor", "cpu/t1=v1[,t2=v2,t3 ...]/modifier");
		add(&l, SEC_SYNTAX, "Hardware breakpoint", "mem:<addr>[/len][:access]");
	}
	if (!l.err && host_tracefs_dir(tracefs, sizeof(tracefs)) == 0) {
		snprintf(events, sizeof(events), "%s/events", tracefs);
		d.dir = events;
		host_list_dirs(events, tp_sys, &d);	/* unreadable (not root): no tracepoints, as perf */
	}
	if (!l.err) {
		if (l.nr)	/* no entry: l.e is NULL, which qsort may not be given */
			qsort(l.e, l.nr, sizeof(*l.e), cmp_entry);
		for (size_t i = 0; i < l.nr; i++)
			fprintf(out, "  %-50s [%s]\n", l.e[i].name, l.e[i].kind);
	}
	for (size_t i = 0; i < l.nr; i++)
		free(l.e[i].name);
	free(l.e);
	return l.err;
}
