/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_TESTS_VIEWIMG_H
#define MPERF_TESTS_VIEWIMG_H

/*
 * Small perf.data images for the views' unit tests (hist, branch, diff,
 * script, stats, the exports), written with the writer (pdw__*) to a
 * temp file, read back into memory, and opened with pdata__open_mem for
 * each view, whose output is caught with open_memstream.
 *
 * Samples fall in functions of the test binary itself,
 * mperf_view_hot, mperf_view_cold and mperf_view_warm, through the executable mapping of
 * /proc/self/exe (an MMAP2 record of its real start, length and offset),
 * or at addresses no map holds.  The images are what perf reads too: run
 * a test with MPERF_VIEWIMG_KEEP=1 and it leaves each image in /tmp and
 * names it, for `perf report --stdio -i FILE` or `perf script -i FILE`.
 *
 * Only the public headers: perfdata.h (the writer and reader) and
 * report.h (the views).
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "../../src/perfdata/perfdata.h"
#include "../../src/report/report.h"
#include "tap.h"

/* Three functions of ours, each some bytes long, to sample in. */
void mperf_view_hot(void);
void mperf_view_cold(void);
void mperf_view_warm(void);
static volatile unsigned viewimg_sink;
__attribute__((noinline, used)) void mperf_view_hot(void)
{
	for (unsigned i = 0; i < 8; i++)
		viewimg_sink += i * 3;
}
__attribute__((noinline, used)) void mperf_view_cold(void)
{
	for (unsigned i = 0; i < 8; i++)
		viewimg_sink ^= i * 5;
}

__attribute__((noinline, used)) void mperf_view_warm(void)
{
	for (unsigned i = 0; i < 8; i++)
		viewimg_sink |= i * 7;
}

#define VIEW_HOT	((uint64_t)(uintptr_t)&mperf_view_hot)
#define VIEW_COLD	((uint64_t)(uintptr_t)&mperf_view_cold)
#define VIEW_WARM	((uint64_t)(uintptr_t)&mperf_view_warm)

/* The sample fields of every event: perf's with several events, and the CPU. */
#define VIEW_ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU | \
		 PERF_SAMPLE_PERIOD)

#define VIEW_MAX_EV 4

struct view_event {
	uint32_t type;
	uint64_t config;
	const char *name;
	uint64_t sample_type;		/* 0: VIEW_ST; VIEW_ST | CALLCHAIN or BRANCH_STACK */
	uint64_t branch_sample_type;
};

struct view_sample {
	int ev;				/* index of the event */
	uint32_t pid, tid, cpu;
	uint64_t time, ip, period;
	uint16_t misc;			/* 0: PERF_RECORD_MISC_USER */
	unsigned nr_chain;		/* with PERF_SAMPLE_CALLCHAIN */
	uint64_t chain[8];
	unsigned nr_br;			/* with PERF_SAMPLE_BRANCH_STACK: from, to, flags */
	uint64_t br[4][3];
};

struct viewimg {
	char path[64];
	struct pdata_writer *w;
	int nr_ev;
	struct view_event ev[VIEW_MAX_EV];
	unsigned char *buf;		/* the finished image */
	size_t len;
};

/* The executable mapping of this binary, and its path. */
struct view_exe {
	char path[PATH_MAX];
	const char *base;		/* its basename: perf's short DSO name */
	uint64_t start, len, pgoff;
};

static inline int view_exe(struct view_exe *x)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[PATH_MAX + 256];
	int err = -1;

	if (!f || !realpath("/proc/self/exe", x->path)) {
		if (f)
			fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, b, off;
		char perms[8], *p, *nl;
		int n = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s%n", &a, &b, perms, &off, &n) != 4 || !n)
			continue;
		for (p = line + n; *p == ' '; p++)
			;
		if ((nl = strchr(p, '\n')))
			*nl = 0;
		if (strcmp(p, x->path) || !strchr(perms, 'x') || VIEW_HOT < a || VIEW_HOT >= b)
			continue;
		x->start = a;
		x->len = b - a;
		x->pgoff = off;
		err = 0;
		break;
	}
	fclose(f);
	x->base = strrchr(x->path, '/') ? strrchr(x->path, '/') + 1 : x->path;
	return err;
}

/* The n events (ids 100 + i) of the image begun on v->w, then its data. */
static inline int viewimg_events(struct viewimg *v, const struct view_event *ev, int n)
{
	int err = 0;

	v->nr_ev = n;
	for (int i = 0; i < n; i++) {
		struct perf_event_attr a = {
			.size = sizeof(a),
			.type = ev[i].type,
			.config = ev[i].config,
			.sample_period = 4000,
			.freq = 1,
			.sample_type = ev[i].sample_type ? ev[i].sample_type : VIEW_ST,
			.branch_sample_type = ev[i].branch_sample_type,
			.sample_id_all = 1,
			.disabled = 1,
			.inherit = 1,
			.mmap = 1,
			.comm = 1,
			.exclude_guest = 1,
		};
		uint64_t id = 100 + (uint64_t)i;

		v->ev[i] = ev[i];
		v->ev[i].sample_type = a.sample_type;
		err |= pdw__add_event(v->w, &a, ev[i].name, &id, 1);
	}
	return err ? err : pdw__begin_data(v->w);
}

/* Start an image of n events (ids 100 + i), its features written at the end. */
static inline int viewimg_begin(struct viewimg *v, const struct view_event *ev, int n)
{
	int fd;

	memset(v, 0, sizeof(*v));
	snprintf(v->path, sizeof(v->path), "/tmp/mperf-viewimg-XXXXXX");
	if ((fd = mkstemp(v->path)) < 0)
		return -errno;
	close(fd);
	if (!(v->w = pdw__create(v->path)))
		return -errno;
	return viewimg_events(v, ev, n);
}

/* Start a pipe-mode stream of n events on fd (as mperf top writes one into memory); pdw__close ends it. */
static inline int viewimg_begin_stream(struct viewimg *v, const struct view_event *ev, int n, int fd)
{
	memset(v, 0, sizeof(*v));
	if (!(v->w = pdw__create_stream(fd)))
		return -errno;
	return viewimg_events(v, ev, n);
}

static inline int viewimg_comm(struct viewimg *v, uint32_t pid, uint32_t tid, const char *comm)
{
	return pdw__comm(v->w, pid, tid, comm);
}

/*
 * A COMM record at a time (an exec's, as the kernel writes it), its
 * sample_id trailer that of the first event (VIEW_ST's: tid, time, id,
 * cpu), where pdw__comm writes a synthesized one at time 0.
 */
static inline int viewimg_comm_at(struct viewimg *v, uint32_t pid, uint32_t tid, const char *comm, uint64_t time)
{
	uint64_t r[16] = { 0 };
	struct perf_event_header *h = (struct perf_event_header *)r;
	size_t n = strlen(comm) + 1, words = 2 + (n + 7) / 8;

	if (n > 16)
		return -EINVAL;
	((uint32_t *)r)[2] = pid;
	((uint32_t *)r)[3] = tid;
	memcpy(&r[2], comm, n);
	r[words++] = (uint64_t)pid | (uint64_t)tid << 32;
	r[words++] = time;
	r[words++] = 100;
	r[words++] = 0;
	h->type = PERF_RECORD_COMM;
	h->misc = PERF_RECORD_MISC_COMM_EXEC;
	h->size = (uint16_t)(8 * words);
	return pdw__write(v->w, r, 8 * words);
}

/* The test binary's executable mapping in pid. */
static inline int viewimg_mmap_exe(struct viewimg *v, uint32_t pid, const struct view_exe *x)
{
	struct pd_mmap2_event m = {
		.pid = pid, .tid = pid, .start = x->start, .len = x->len, .pgoff = x->pgoff,
		.prot = PROT_READ | PROT_EXEC, .flags = MAP_PRIVATE,
	};

	return pdw__mmap2(v->w, PERF_RECORD_MISC_USER, &m, x->path);
}

static inline int viewimg_sample(struct viewimg *v, const struct view_sample *s)
{
	uint64_t r[64];
	size_t n = 1;
	uint64_t st = v->ev[s->ev].sample_type;
	struct perf_event_header *h = (struct perf_event_header *)r;

	r[n++] = s->ip;
	r[n++] = (uint64_t)s->pid | (uint64_t)s->tid << 32;
	r[n++] = s->time;
	r[n++] = 100 + (uint64_t)s->ev;
	r[n++] = s->cpu;
	r[n++] = s->period;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		r[n++] = s->nr_chain;
		for (unsigned i = 0; i < s->nr_chain; i++)
			r[n++] = s->chain[i];
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		r[n++] = s->nr_br;
		for (unsigned i = 0; i < s->nr_br; i++) {
			r[n++] = s->br[i][0];
			r[n++] = s->br[i][1];
			r[n++] = s->br[i][2];
		}
	}
	h->type = PERF_RECORD_SAMPLE;
	h->misc = s->misc ? s->misc : PERF_RECORD_MISC_USER;
	h->size = (uint16_t)(8 * n);
	return pdw__write(v->w, r, 8 * n);
}

/* Finish the file and read it back into v->buf; the file is removed unless MPERF_VIEWIMG_KEEP is set. */
static inline int viewimg_finish(struct viewimg *v)
{
	FILE *f;
	long len;
	int err = 0;

	/* Branch stacks: the BRANCH_STACK feature says so (its payload is not read). */
	for (int i = 0; i < v->nr_ev; i++)
		if (v->ev[i].sample_type & PERF_SAMPLE_BRANCH_STACK)
			err = pdw__feat_strings(v->w, PD_FEAT_BRANCH_STACK, NULL, 0);
	err |= pdw__feat_string(v->w, PD_FEAT_HOSTNAME, "viewhost") |
		  pdw__feat_string(v->w, PD_FEAT_OSRELEASE, "6.1.0") |
		  pdw__feat_string(v->w, PD_FEAT_ARCH, "x86_64") |
		  pdw__feat_nrcpus(v->w, 4, 4) |
		  pdw__finish(v->w);

	pdw__close(v->w);
	v->w = NULL;
	if (err || !(f = fopen(v->path, "rb")))
		return err ? err : -errno;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	v->buf = malloc(len > 0 ? (size_t)len : 1);
	v->len = v->buf && len > 0 ? fread(v->buf, 1, (size_t)len, f) : 0;
	fclose(f);
	if (getenv("MPERF_VIEWIMG_KEEP"))
		note("image kept: %s", v->path);
	else
		unlink(v->path);
	return v->len == (size_t)len && len > 0 ? 0 : -EIO;
}

/*
 * The image most tests use: two processes (pid_a "comm_a", pid_b
 * "comm_b"), each with the test binary mapped, then the n samples, then
 * the end of the file.  0, or nonzero if any step failed.
 */
static inline int viewimg_two_procs(struct viewimg *v, const struct view_exe *x, uint32_t pid_a, const char *comm_a,
				    uint32_t pid_b, const char *comm_b, const struct view_sample *s, size_t n)
{
	int err = viewimg_comm(v, pid_a, pid_a, comm_a) | viewimg_comm(v, pid_b, pid_b, comm_b) |
		  viewimg_mmap_exe(v, pid_a, x) | viewimg_mmap_exe(v, pid_b, x);

	for (size_t i = 0; i < n; i++)
		err |= viewimg_sample(v, &s[i]);
	return err | viewimg_finish(v);
}

static inline void viewimg_free(struct viewimg *v)
{
	free(v->buf);
	v->buf = NULL;
}

/* A comm that needs escaping in JSON and XML: a quote, a backslash, '<', '&', a tab. */
#define VIEW_ODD_COMM "a\"b\\c<d&\t"

/* One sample of cpu-clock in mperf_view_hot, by a process named VIEW_ODD_COMM. */
static inline int viewimg_odd_comm(struct viewimg *v, const struct view_exe *x)
{
	static const struct view_event ev[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", 0, 0 },
	};
	const struct view_sample s = { .ev = 0, .pid = 1000, .tid = 1000, .time = 1000, .ip = VIEW_HOT, .period = 100 };
	int err = viewimg_begin(v, ev, 1);

	err |= viewimg_comm(v, 1000, 1000, VIEW_ODD_COMM);
	err |= viewimg_mmap_exe(v, 1000, x);
	err |= viewimg_sample(v, &s);
	return err | viewimg_finish(v);
}

/* ---- the views, into strings (to free) ---- */

enum view_kind { VIEW_HIST, VIEW_BRANCH, VIEW_SCRIPT, VIEW_EXPORT, VIEW_STATS };

/* Run one view on the image; its output (never NULL), and its return in *ret. */
static inline char *view_run(const struct viewimg *v, enum view_kind k, const void *opts, int *ret, size_t *lenp)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct pdata *p = pdata__open_mem(v->buf, v->len);
	int r = -EINVAL;

	if (p) {
		switch (k) {
		case VIEW_HIST: r = report__hist(p, "test", opts, f); break;
		case VIEW_BRANCH: r = report__branch(p, "test", opts, f); break;
		case VIEW_SCRIPT: r = report__script(p, "test", opts, f); break;
		case VIEW_EXPORT: r = report__export(p, "test", opts, f); break;
		case VIEW_STATS: r = report__stats(p, "test", f); break;
		}
		pdata__close(p);
	}
	fclose(f);
	if (ret)
		*ret = r;
	if (lenp)
		*lenp = len;
	return text ? text : strdup("");
}

/*
 * An empty kallsyms file for every view: the images have no kernel
 * samples, and reading this machine's /proc/kallsyms (a third of a
 * second per view) would make the tests slow and depend on the host.
 */
static char viewimg_ksyms[64];

static void viewimg_ksyms_remove(void)
{
	unlink(viewimg_ksyms);
}

static inline const char *view_kallsyms(void)
{
	if (!viewimg_ksyms[0]) {
		int fd;

		snprintf(viewimg_ksyms, sizeof(viewimg_ksyms), "/tmp/mperf-viewimg-ksyms-XXXXXX");
		if ((fd = mkstemp(viewimg_ksyms)) < 0)
			return NULL;
		close(fd);
		atexit(viewimg_ksyms_remove);
	}
	return viewimg_ksyms;
}

/* cmd/report.c's defaults: comm,dso,sym, perf's call-graph defaults, the branch view as perf picks it. */
static inline struct report_hist_opts view_hist_defaults(void)
{
	struct report_hist_opts o = {
		.keys = { REPORT_KEY_COMM, REPORT_KEY_DSO, REPORT_KEY_SYM },
		.nr_keys = 3,
		.children = -1,
		.cc_min_percent = 0.5,
		.branch = -1,
		.bkeys = { REPORT_KEY_COMM, REPORT_KEY_DSO_FROM, REPORT_KEY_SYM_FROM, REPORT_KEY_SYM_TO,
			   REPORT_KEY_CYCLES },
		.nr_bkeys = 5,
		.kallsyms = view_kallsyms(),
	};

	return o;
}

/* The lines of text that do not start with '#' and are not empty, joined: a report's rows. */
static inline char *view_rows(const char *text)
{
	size_t n = strlen(text);
	char *out = malloc(n + 1), *o = out;

	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t l = nl ? (size_t)(nl - text) + 1 : strlen(text);

		if (*text != '#' && *text != '\n') {
			memcpy(o, text, l);
			o += l;
		}
		text += l;
	}
	*o = 0;
	return out;
}

/* The first line of text that contains needle, without its newline (static buffer), or "". */
static inline const char *view_line(const char *text, const char *needle)
{
	static char line[1024];
	const char *p = strstr(text, needle), *b, *e;

	line[0] = 0;
	if (!p)
		return line;
	for (b = p; b > text && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	snprintf(line, sizeof(line), "%.*s", (int)(e ? e - b : (long)strlen(b)), b);
	return line;
}

#endif
