// SPDX-License-Identifier: GPL-2.0-only
/*
 * mperf top: record's sampling (record__run, its rings and drain) into a
 * pipe-mode stream in memory (a memfd), and every -d seconds report's
 * histograms (report__hist_doc) of that stream, printed as perf top
 * --stdio prints them: a PerfTop line per event with its rate and lost
 * samples, then its hottest entries.  Nothing is written to disk.
 *
 * On a terminal, the report browser instead (cmd/ui, ui_top_browse): the
 * sampling runs in a thread of its own, whose tick makes each refresh's
 * document and leaves it for the browser, which takes it while it waits
 * for a key.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "../src/annotate/annotate.h"
#include "../src/perfdata/perfdata.h"
#include "../src/record/record.h"
#include "../src/report/report.h"
#include "cmd.h"
#include "options.h"
#include "ui/ui.h"

/*
 * The synopsis (up to the first blank line) is the SYNOPSIS of
 * man/mperf-top.1, word for word (t0020 compares them).
 */
static const char top_usage[] =
	"usage: mperf top [-e events] [-p pid | -t tid | -a | -C cpus] [-c count | -F freq] [-g] [-d secs] [--stdio]\n"
	"   or: mperf top -h\n"
	"\n";

enum { TOP_FREQ = 1 << 0, TOP_COUNT = 1 << 1, TOP_HIDE_K = 1 << 2, TOP_HIDE_U = 1 << 3, TOP_TASK = 1 << 4,
       TOP_CPU = 1 << 5 };

enum { OPT_STDIO = 256, OPT_TUI, OPT_LIMIT, OPT_CG };

static const struct cmd_opt top_opts[] = {
	{ 'e', 'e', "event", CMD_ARG_REQUIRED, "LIST",
	  "events to sample, comma-separated; -e may be repeated (default: cycles:P)" },
	{ 'p', 'p', "pid", CMD_ARG_REQUIRED, "PID[,PID]", "sample running processes, all their threads", NULL,
	  TOP_TASK },
	{ 't', 't', "tid", CMD_ARG_REQUIRED, "TID[,TID]", "sample running threads only", NULL, TOP_TASK },
	{ 'a', 'a', "all-cpus", CMD_ARG_NONE, NULL, "sample every task on every CPU (the default)", NULL, TOP_CPU },
	{ 'C', 'C', "cpu", CMD_ARG_REQUIRED, "CPUS", "sample every task on these CPUs (0-1,3)", NULL, TOP_CPU },
	{ 'c', 'c', "count", CMD_ARG_REQUIRED, "PERIOD", "sample every PERIOD events (instead of -F)", NULL,
	  TOP_COUNT },
	{ 'F', 'F', "freq", CMD_ARG_REQUIRED, "HZ", "sample at HZ samples per second (default: 4000)", NULL,
	  TOP_FREQ },
	{ 'm', 'm', "mmap-pages", CMD_ARG_REQUIRED, "N", "data pages per CPU buffer, a power of two (default: 128)" },
	{ 'g', 'g', NULL, CMD_ARG_NONE, NULL, "sample call chains (frame pointers), shown as report -g shows them" },
	{ OPT_CG, 0, "call-graph", CMD_ARG_REQUIRED, "fp", "as -g (fp is the one mode)" },
	{ 's', 's', "sort", CMD_ARG_REQUIRED, "KEYS", "sort keys, as report's (default: dso,sym)" },
	{ 'K', 'K', "hide_kernel_symbols", CMD_ARG_NONE, NULL, "sample user space only (the kernel's symbols hidden)",
	  NULL, TOP_HIDE_K },
	{ 'U', 'U', "hide_user_symbols", CMD_ARG_NONE, NULL, "sample the kernel only (user symbols hidden)", NULL,
	  TOP_HIDE_U },
	{ 'd', 'd', "delay", CMD_ARG_REQUIRED, "SECS", "refresh every SECS seconds (default: 2)" },
	{ 'z', 'z', "zero", CMD_ARG_NONE, NULL, "each refresh shows the samples since the last one" },
	{ 'E', 'E', "entries", CMD_ARG_REQUIRED, "N", "show the N hottest entries of each event (default: all that fit)" },
	{ OPT_LIMIT, 0, "percent-limit", CMD_ARG_REQUIRED, "PERCENT", "leave out entries under this share" },
	{ OPT_STDIO, 0, "stdio", CMD_ARG_NONE, NULL, "print the histograms every -d seconds (the default off a terminal)" },
	{ OPT_TUI, 0, "tui", CMD_ARG_NONE, NULL, "the live browser, report's on a terminal (the default there)" },
	{ 'q', 'q', "quiet", CMD_ARG_NONE, NULL, "no warnings" },
	{ 'h', 'h', "help", CMD_ARG_NONE, NULL, "show this help" },
};

static const struct cmd_conflict top_conflicts[] = {
	{ { TOP_FREQ }, { TOP_COUNT }, 0, "{a} and {b} cannot be used together (a rate or a period)" },
	{ { TOP_HIDE_K }, { TOP_HIDE_U }, 0, "{a} and {b} cannot be used together (nothing would be left)" },
	{ { TOP_TASK }, { TOP_CPU }, 0, "{a} and {b} cannot be used together (tasks or CPUs)" },
};

/* One refresh's document (its strings point into the kept histograms' names). */
struct top_doc {
	struct report_hist_doc d;	/* first: the browser's pointer is the bundle's */
};

/* The browser's and the sampling thread's: under lock. */
struct top_ui {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct top_doc *pending;	/* the newest document, not yet taken */
	bool started;			/* the events are open (the first tick), or record__run ended */
	bool done, quit, frozen, zero;
	int ret;			/* record__run's */
	uint64_t due;			/* the next refresh (CLOCK_MONOTONIC ns; the thread's alone) */
};

struct top_args {
	struct record_opts o;
	struct record_event events[RECORD_MAX_EVENTS];
	size_t nr_events;
	struct report_hist_opts ho;
	struct record_live live;
	unsigned delay_s;
	size_t entries;		/* 0: all */
	bool zero, clear;
	int tui;		/* --tui 1, --stdio 0, -1: the browser on a terminal */
	struct top_ui ui;
	/* each refresh's state */
	uint64_t prev_samples[RECORD_MAX_EVENTS], prev_lost[RECORD_MAX_EVENTS];
	int ncpus;
	const struct record_result *res;	/* record's: which events are its own (tracking) */
	/* the histograms kept from one refresh to the next (report_live) */
	void *lmap;		/* the stream, mapped once (TOP_RESERVE bytes of address space) */
	struct pdata *lp;
	struct report_live *rl;
	size_t len;		/* the stream's bytes at the last refresh */
	uint64_t freed;		/* the stream's bytes [0, freed) handed back (read, and needed no more) */
	/* the browser's `i` and `a`: fed by the sampling thread, read by the browser's, under feed */
	bool browse;
	pthread_mutex_t feed;
	char *header;		/* the stream's header, as --header-only prints it: made once */
	size_t header_len;
	struct annotate_live *al;
	int al_err;		/* the annotations could not be set up: this */
};

/* The address space the stream is mapped into once: it grows inside it. */
#define TOP_RESERVE (1ull << 40)

/* A decimal number from lo to hi: 0, or -1. */
static int parse_num(const char *s, unsigned long long lo, unsigned long long hi, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || end == s || *end || s[0] == '-' || *v < lo || *v > hi ? -1 : 0;
}

static int top_option(void *ctx, const struct cmd_opt *opt, char *arg)
{
	struct top_args *a = ctx;
	unsigned long long v;
	char *end;

	switch (opt->id) {
	case 'e': return cmd_parse_events("top", arg, a->events, &a->nr_events);
	case 'p':
	case 't':
		if (!cmd_id_list(arg))
			return cmd_usage_error("top", "invalid -%c '%s' (comma-separated ids)", opt->id, arg);
		*(opt->id == 'p' ? &a->o.pids : &a->o.tids) = arg;
		break;
	case 'a': a->o.system_wide = true; break;
	case 'C': a->o.cpu_list = arg; break;
	case 'c':
		if (parse_num(arg, 1, UINT64_MAX, &v))
			return cmd_usage_error("top", "invalid -c '%s' (a period, 1 or more)", arg);
		a->o.period = v;
		a->o.freq = 0;
		a->o.rate_given = true;
		break;
	case 'F':
		if (parse_num(arg, 1, 10000000, &v))
			return cmd_usage_error("top", "invalid -F '%s' (samples per second, 1 or more)", arg);
		a->o.freq = v;
		a->o.rate_given = true;
		break;
	case 'm':
		if (parse_num(arg, 1, RECORD_MAX_PAGES, &v) || (v & (v - 1)))
			return cmd_usage_error("top", "invalid -m '%s' (pages, a power of two)", arg);
		a->o.mmap_pages = (size_t)v;
		break;
	case OPT_CG:
		if (strcmp(arg, "fp"))
			return cmd_usage_error("top", "--call-graph '%s' is not supported (fp is)", arg);
		/* fall through */
	case 'g': a->o.callchain = true; break;
	case 's': return cmd_parse_sort_keys("top", arg, &a->ho) ? EXIT_USAGE : 0;
	case 'K': a->o.all_user = true; break;
	case 'U': a->o.all_kernel = true; break;
	case 'd':
		if (parse_num(arg, 1, 3600, &v))
			return cmd_usage_error("top", "invalid -d '%s' (seconds, 1 to 3600)", arg);
		a->delay_s = (unsigned)v;
		break;
	case 'z': a->zero = true; break;
	case 'E':
		if (parse_num(arg, 1, 1u << 20, &v))
			return cmd_usage_error("top", "invalid -E '%s' (entries, 1 or more)", arg);
		a->entries = (size_t)v;
		break;
	case OPT_LIMIT:
		errno = 0;
		a->ho.percent_limit = strtod(arg, &end);
		if (errno || end == arg || *end || a->ho.percent_limit < 0 || a->ho.percent_limit > 100)
			return cmd_usage_error("top", "--percent-limit: '%s' is not a percentage (0 to 100)", arg);
		break;
	case 'q': cmd_set_quiet(); break;
	case OPT_STDIO: a->clear = false; a->tui = 0; break;
	case OPT_TUI: a->clear = true; a->tui = 1; break;
	}
	return 0;
}

static const struct cmd_options top_options = {
	.cmd = "top",
	.usage = top_usage,
	.help_col = 30,
	.opts = top_opts,
	.nr_opts = sizeof(top_opts) / sizeof(top_opts[0]),
	.conflicts = top_conflicts,
	.nr_conflicts = sizeof(top_conflicts) / sizeof(top_conflicts[0]),
	.set = top_option,
};

/* perf top's first line for one event: its rate since the last refresh and its lost samples. */
static void top_event_line(struct top_args *a, const struct report_hist_section *s, FILE *out)
{
	size_t i = s->ev < RECORD_MAX_EVENTS ? s->ev : RECORD_MAX_EVENTS - 1;
	uint64_t samples = a->zero ? s->samples : s->samples - a->prev_samples[i];
	char rate[32];

	if (a->o.freq)
		snprintf(rate, sizeof(rate), "%lluHz", (unsigned long long)a->o.freq);
	else
		snprintf(rate, sizeof(rate), "%llu", (unsigned long long)a->o.period);
	fprintf(out, "   PerfTop:%8.0f irqs/sec  lost: %llu/%llu [%s %s],  (%s, %d CPU%s)\n",
		(double)samples / a->delay_s, (unsigned long long)(s->lost - a->prev_lost[i]),
		(unsigned long long)s->lost, rate, s->name,
		a->o.pids ? "target pid" : a->o.tids ? "target tid" : a->o.cpu_list ? a->o.cpu_list : "all",
		a->ncpus, a->ncpus == 1 ? "" : "s");
	fprintf(out, "-------------------------------------------------------------------------------\n\n");
	a->prev_samples[i] = s->samples;
	a->prev_lost[i] = s->lost;
}

/* One refresh's text: each event's line, then its hottest entries (and their chains) as report prints them. */
static void top_print(struct top_args *a, const struct report_hist_doc *d, FILE *out)
{
	if (a->clear)
		fputs("\033[H\033[2J", out);
	for (size_t k = 0; k < d->nr_sec; k++) {
		const struct report_hist_section *s = &d->sec[k];
		size_t n = a->entries && a->entries < s->nr_rows ? a->entries : s->nr_rows;

		if (s->ev < a->res->nr_events && a->res->ev[s->ev].tracking)
			continue;	/* perf's dummy:HG of -a/-C: record's own, it samples nothing */
		top_event_line(a, s, out);
		for (size_t r = s->first_row; r < s->first_row + n; r++) {
			const struct report_hist_row *row = &d->row[r];

			fwrite(d->text + row->line, 1, row->line_len, out);
			fputc('\n', out);
			fwrite(d->text + row->chain, 1, row->chain_len, out);
		}
		fputc('\n', out);
	}
	fflush(out);
}

static void top_doc_free(struct top_doc *td)
{
	if (!td)
		return;
	report_hist_doc__free(&td->d);
	free(td);
}

/* The stream mapped once, into TOP_RESERVE bytes of address space: it grows inside it. */
static int top_map(struct top_args *a)
{
	if (a->lmap)
		return 0;
	a->lmap = mmap(NULL, TOP_RESERVE, PROT_READ, MAP_SHARED | MAP_NORESERVE, a->live.fd, 0);
	if (a->lmap == MAP_FAILED) {
		a->lmap = NULL;
		return -errno;
	}
	return 0;
}

/* The browser's annotations counted as the histograms read the stream: its records read and resolved once. */
static void top_annotate_hook(struct top_args *a)
{
	if (!(a->al = annotate_live__open(a->lp, "top", report_live__symcache(a->rl)))) {
		a->al_err = -errno;
		return;
	}
	report_live__also(a->rl, annotate_live__ops(a->al));
}

/*
 * The histograms kept from the last refresh, with the records that came
 * since (the stream mapped once, read on where it was left), into *out.
 */
static int top_doc_live(struct top_args *a, size_t len, struct top_doc **out)
{
	struct top_doc *td;
	int ret;

	if (len > TOP_RESERVE)
		return -EFBIG;
	if (!a->lp) {
		if ((ret = top_map(a)))
			return ret;
		if (!(a->lp = pdata__open_mem(a->lmap, len)))
			return -errno;
		if ((ret = report_live__open(a->lp, "top", &a->ho, &a->rl)) < 0)
			return ret;
		if (a->browse)
			top_annotate_hook(a);
	}
	pdata__mem_grow(a->lp, len);
	if (!(td = calloc(1, sizeof(*td))))
		return -ENOMEM;
	if ((ret = report_live__doc(a->rl, &td->d)) < 0) {
		free(td);
		return ret;
	}
	if (a->zero)
		report_live__zero(a->rl);
	*out = td;
	return 0;
}

static void top_live_free(struct top_args *a)
{
	annotate_live__free(a->al);
	free(a->header);
	report_live__free(a->rl);
	if (a->lp)
		pdata__close(a->lp);
	if (a->lmap)
		munmap(a->lmap, TOP_RESERVE);
}

/* The stream so far, its histograms' document, into *out (NULL: nothing yet): 0, or a negative code. */
static int top_doc_make(struct top_args *a, struct top_doc **out)
{
	struct stat st;

	*out = NULL;
	if (fstat(a->live.fd, &st) < 0 || !st.st_size)
		return 0;
	a->len = (size_t)st.st_size;
	return top_doc_live(a, (size_t)st.st_size, out);
}

/*
 * The stream's bytes that every reader has read and needs no more, handed
 * back (a hole punched in the memory file): perf top keeps its histograms,
 * not the samples.  The header was kept by then (top_feed).
 */
static void top_free_read(struct top_args *a)
{
	const unsigned char *base = a->lmap;
	size_t upto = a->len, page = (size_t)sysconf(_SC_PAGESIZE);
	const void *held[2] = { a->rl ? report_live__held(a->rl) : NULL, a->al ? annotate_live__held(a->al) : NULL };

	if (!a->rl || (a->browse && !a->al && !a->al_err))
		return;
	for (size_t i = 0; i < 2; i++)
		if (held[i] && (size_t)((const unsigned char *)held[i] - base) < upto)
			upto = (size_t)((const unsigned char *)held[i] - base);
	upto &= ~(page - 1);
	if (upto <= a->freed)
		return;
	if (!fallocate(a->live.fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)a->freed, (off_t)(upto - a->freed)))
		a->freed = upto;
}

/* --stdio's refresh: the stream so far, its histograms printed. */
static int top_refresh(void *ctx, uint64_t last_time)
{
	struct top_args *a = ctx;
	struct top_doc *td;
	int ret = top_doc_make(a, &td);

	(void)last_time;
	if (ret < 0 || !td)
		return ret;
	top_free_read(a);
	top_print(a, &td->d, stdout);
	top_doc_free(td);
	return ferror(stdout) ? -EPIPE : 0;
}

static void top_defaults(struct top_args *a)
{
	a->o.freq = RECORD_DEFAULT_FREQ;
	a->o.mmap_pages = RECORD_DEFAULT_PAGES;
	a->o.output = "-";
	a->o.no_buildid_cache = true;
	a->o.control.fd = a->o.control.ack = -1;
	a->ho.keys[0] = REPORT_KEY_DSO;
	a->ho.keys[1] = REPORT_KEY_SYM;
	a->ho.nr_keys = 2;
	a->ho.children = -1;
	a->ho.cc_min_percent = 0.5;
	a->ho.branch = 0;
	a->delay_s = 2;
	a->clear = isatty(STDOUT_FILENO);
	a->tui = -1;
}

/* After the options: the target, the events, the memory file. */
static int top_setup(struct top_args *a)
{
	char vendor[64];

	if (!a->o.pids && !a->o.tids && !a->o.cpu_list)
		a->o.system_wide = true;
	if (!a->nr_events) {
		host_cpu_vendor(vendor, sizeof(vendor));
		if (record__default_event(a->events, RECORD_MAX_EVENTS, &a->nr_events, !strcmp(vendor, "AuthenticAMD")) < 0)
			return EXIT_MPERF;
	}
	a->o.events = a->events;
	a->o.nr_events = a->nr_events;
	a->ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if ((a->live.fd = memfd_create("mperf-top", MFD_CLOEXEC)) < 0) {
		cmd_error("top", "cannot create the samples' memory file: %s", strerror(errno));
		return EXIT_MPERF;
	}
	a->live.every_ms = (uint64_t)a->delay_s * 1000;
	a->live.tick = top_refresh;
	a->live.ctx = a;
	a->o.live = &a->live;
	return 0;
}

/* ---- the browser: the sampling in a thread, the browser in this one ---- */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* perf's dummy:HG of -a/-C is record's own, it samples nothing: no section, as --stdio prints none. */
static void top_doc_strip(const struct top_args *a, struct report_hist_doc *d)
{
	size_t n = 0;

	for (size_t k = 0; k < d->nr_sec; k++)
		if (!(d->sec[k].ev < a->res->nr_events && a->res->ev[d->sec[k].ev].tracking))
			d->sec[n++] = d->sec[k];
	d->nr_sec = n;
}

/* The stream's header, as --header-only prints it, into a->header (none: `i` says so). */
static void top_header(struct top_args *a)
{
	struct pdata *p = pdata__open_mem(a->lmap, a->len);
	FILE *f;

	if (!p)
		return;
	if ((f = open_memstream(&a->header, &a->header_len))) {
		report__header(p, "top", time(NULL), false, f);
		if (fclose(f)) {
			free(a->header);
			a->header = NULL;
		}
	}
	pdata__close(p);
}

/*
 * The browser's `i` and `a`, after a refresh (the sampling thread's): the
 * header made once, the annotations fed the records that came since (-z:
 * then zeroed, as the histograms), and what no reader needs now freed.
 * The annotations are the browser's extra: what keeps them from being
 * made is `a`'s answer, not top's end.
 */
static void top_feed(struct top_args *a)
{
	if (top_map(a))
		return;
	pthread_mutex_lock(&a->feed);
	if (!a->header)
		top_header(a);
	/* counted as the histograms read the stream (top_annotate_hook): tidied, -z: zeroed */
	if (a->al) {
		a->al_err = annotate_live__more(a->al);
		if (a->zero)
			annotate_live__zero(a->al);
	}
	pthread_mutex_unlock(&a->feed);
	top_free_read(a);
}

static const char *top_header_text(void *ctx, size_t *len)
{
	struct top_args *a = ctx;
	const char *text;

	pthread_mutex_lock(&a->feed);
	text = a->header;
	*len = a->header_len;
	pthread_mutex_unlock(&a->feed);
	return text;
}

static int top_annotate(void *ctx, const struct annotate_opts *o, FILE *f)
{
	struct top_args *a = ctx;
	int ret;

	pthread_mutex_lock(&a->feed);
	ret = a->al ? annotate_live__print(a->al, o, f) : a->al_err ? a->al_err : -ENOENT;
	pthread_mutex_unlock(&a->feed);
	return ret;
}

/*
 * The sampling thread's tick, every tenth of a second: q stops the
 * sampling (1); every -d seconds, unless frozen, a new document for the
 * browser.
 */
static int top_tick_ui(void *ctx, uint64_t last_time)
{
	struct top_args *a = ctx;
	struct top_ui *u = &a->ui;
	struct top_doc *td, *old;
	bool quit, frozen;
	int ret;

	pthread_mutex_lock(&u->lock);
	if (!u->started)
		pthread_cond_broadcast(&u->cond);
	u->started = true;
	quit = u->quit;
	frozen = u->frozen;
	a->zero = u->zero;
	pthread_mutex_unlock(&u->lock);
	if (quit)
		return 1;
	if (frozen || now_ns() < u->due)
		return 0;
	u->due = now_ns() + (uint64_t)a->delay_s * 1000000000ull;
	/* kept histograms: their reading and symbols are the annotations' too */
	(void)last_time;
	pthread_mutex_lock(&a->feed);
	ret = top_doc_make(a, &td);
	pthread_mutex_unlock(&a->feed);
	if (ret < 0 || !td)
		return ret;
	top_feed(a);
	top_doc_strip(a, &td->d);
	pthread_mutex_lock(&u->lock);
	old = u->pending;
	u->pending = td;
	pthread_mutex_unlock(&u->lock);
	top_doc_free(old);
	return 0;
}

static void *top_sampler(void *arg)
{
	struct top_args *a = arg;
	int ret = record__run(&a->o, (struct record_result *)a->res);

	pthread_mutex_lock(&a->ui.lock);
	a->ui.ret = ret;
	a->ui.done = a->ui.started = true;
	pthread_cond_broadcast(&a->ui.cond);
	pthread_mutex_unlock(&a->ui.lock);
	return NULL;
}

static const struct report_hist_doc *top_take(void *ctx)
{
	struct top_ui *u = &((struct top_args *)ctx)->ui;
	struct top_doc *td;

	pthread_mutex_lock(&u->lock);
	td = u->pending;
	u->pending = NULL;
	pthread_mutex_unlock(&u->lock);
	return td ? &td->d : NULL;
}

static void top_drop(void *ctx, const struct report_hist_doc *d)
{
	(void)ctx;
	top_doc_free((struct top_doc *)d);
}

static bool top_done(void *ctx)
{
	struct top_ui *u = &((struct top_args *)ctx)->ui;
	bool done;

	pthread_mutex_lock(&u->lock);
	done = u->done;
	pthread_mutex_unlock(&u->lock);
	return done;
}

/* perf top's z (zero each refresh) and f (freeze the view; perf's disables the events). */
static const char *top_key(void *ctx, int key)
{
	struct top_ui *u = &((struct top_args *)ctx)->ui;
	const char *msg;

	pthread_mutex_lock(&u->lock);
	if (key == 'z') {
		u->zero = !u->zero;
		msg = u->zero ? "z: each refresh shows the samples since the last one" : "z: each refresh shows every sample";
	} else {
		u->frozen = !u->frozen;
		msg = u->frozen ? "Press 'f' again to refresh the view again" : "Press 'f' to freeze the view or 'h' to see other hotkeys";
	}
	pthread_mutex_unlock(&u->lock);
	return msg;
}

/*
 * The browser until q or the sampling's end.  The sampling's signals
 * (SIGINT, SIGTERM, SIGHUP, SIGCHLD) are blocked here, so that its thread
 * takes them: Ctrl-C ends the sampling, then the browser.
 */
static int top_browse(struct top_args *a)
{
	static const int sampler_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGCHLD };
	const char *no_color = getenv("NO_COLOR");
	struct ui_report r = { .label = "top", .color = !no_color || !*no_color };
	struct ui_live l = { .take = top_take, .drop = top_drop, .done = top_done, .key = top_key,
			     .header = top_header_text, .annotate = top_annotate, .ctx = a, .delay_s = a->delay_s };
	struct top_ui *u = &a->ui;
	sigset_t sigs, old;
	pthread_t th;
	int ret;

	pthread_mutex_init(&u->lock, NULL);
	pthread_cond_init(&u->cond, NULL);
	pthread_mutex_init(&a->feed, NULL);
	a->browse = true;
	u->zero = a->zero;
	a->live.every_ms = 100;
	a->live.tick = top_tick_ui;
	sigemptyset(&sigs);
	for (size_t i = 0; i < sizeof(sampler_sigs) / sizeof(sampler_sigs[0]); i++)
		sigaddset(&sigs, sampler_sigs[i]);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	if ((ret = pthread_create(&th, NULL, top_sampler, a))) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		cmd_error("top", "cannot start the sampling thread: %s", strerror(ret));
		return EXIT_MPERF;
	}
	/* The events open first: what keeps them from opening is said on the terminal as it is. */
	pthread_mutex_lock(&u->lock);
	while (!u->started)
		pthread_cond_wait(&u->cond, &u->lock);
	pthread_mutex_unlock(&u->lock);
	if (!top_done(a))
		ui_top_browse(&r, &l);
	pthread_mutex_lock(&u->lock);
	u->quit = true;
	pthread_mutex_unlock(&u->lock);
	pthread_join(th, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	top_doc_free(u->pending);
	return u->ret < 0 ? u->ret : 0;
}

int cmd_top(int argc, char **argv)
{
	static struct top_args a;
	static struct record_result res;
	struct cmd_parse parse;
	int ret;

	top_defaults(&a);
	if ((ret = cmd_options_parse(&parse, &top_options, argc, argv, &a)) != CMD_OPTS_OK)
		return ret;
	if (optind < argc)
		return cmd_usage_error("top", "unexpected argument '%s' (top samples running tasks: -p, -t, -a, -C)",
				       argv[optind]);
	if ((ret = cmd_options_conflicts(&parse)) || (ret = cmd_sort_mem_check("top", &a.ho)) ||
	    (ret = top_setup(&a)))
		return ret;
	signal(SIGPIPE, SIG_IGN);
	a.res = &res;
	if ((a.tui > 0 || (a.tui < 0 && isatty(STDOUT_FILENO))) && ui_usable()) {
		ret = top_browse(&a);
		top_live_free(&a);
		close(a.live.fd);
		return ret;
	}
	ret = record__run(&a.o, &res);
	top_live_free(&a);
	close(a.live.fd);
	if (ret == -EPIPE)
		return ret;
	return ret < 0 ? ret : 0;
}
