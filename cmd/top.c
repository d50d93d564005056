// SPDX-License-Identifier: GPL-2.0-only
/*
 * mperf top: record's sampling (record__run, its rings and drain) into a
 * pipe-mode stream in memory (a memfd), and every -d seconds report's
 * histograms (report__hist_doc) of that stream, printed as perf top
 * --stdio prints them: a PerfTop line per event with its rate and lost
 * samples, then its hottest entries.  Nothing is written to disk.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../src/perfdata/perfdata.h"
#include "../src/record/record.h"
#include "../src/report/report.h"
#include "cmd.h"
#include "options.h"

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
	{ OPT_STDIO, 0, "stdio", CMD_ARG_NONE, NULL, "print the histograms every -d seconds (the only output yet)" },
	{ OPT_TUI, 0, "tui", CMD_ARG_NONE, NULL, "as --stdio, the screen cleared before each refresh" },
	{ 'q', 'q', "quiet", CMD_ARG_NONE, NULL, "no warnings" },
	{ 'h', 'h', "help", CMD_ARG_NONE, NULL, "show this help" },
};

static const struct cmd_conflict top_conflicts[] = {
	{ { TOP_FREQ }, { TOP_COUNT }, 0, "{a} and {b} cannot be used together (a rate or a period)" },
	{ { TOP_HIDE_K }, { TOP_HIDE_U }, 0, "{a} and {b} cannot be used together (nothing would be left)" },
	{ { TOP_TASK }, { TOP_CPU }, 0, "{a} and {b} cannot be used together (tasks or CPUs)" },
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
	/* each refresh's state */
	uint64_t cut;		/* -z: the newest sample's time at the last refresh */
	uint64_t prev_samples[RECORD_MAX_EVENTS], prev_lost[RECORD_MAX_EVENTS];
	int ncpus;
	const struct record_result *res;	/* record's: which events are its own (tracking) */
};

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
	case OPT_STDIO: a->clear = false; break;
	case OPT_TUI: a->clear = true; break;
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

/* The stream so far, read as report reads a file: its histograms printed. */
static int top_refresh(void *ctx, uint64_t last_time)
{
	struct top_args *a = ctx;
	struct report_hist_opts ho = a->ho;
	struct report_hist_doc d;
	struct stat st;
	struct pdata *p;
	char cut[64];
	void *map;
	int ret;

	if (fstat(a->live.fd, &st) < 0 || !st.st_size)
		return 0;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, a->live.fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	if (a->zero && a->cut) {
		snprintf(cut, sizeof(cut), "%llu.%09llu,", (unsigned long long)((a->cut + 1) / 1000000000ull),
			 (unsigned long long)((a->cut + 1) % 1000000000ull));
		ho.filter.time = cut;
	}
	if (!(p = pdata__open_mem(map, (size_t)st.st_size))) {
		munmap(map, (size_t)st.st_size);
		return -errno;
	}
	ret = report__hist_doc(p, "top", &ho, &d);
	if (ret >= 0) {
		top_print(a, &d, stdout);
		report_hist_doc__free(&d);
	}
	pdata__close(p);
	munmap(map, (size_t)st.st_size);
	a->cut = last_time;
	return ret < 0 ? ret : ferror(stdout) ? -EPIPE : 0;
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
	if ((ret = cmd_options_conflicts(&parse)) || (ret = top_setup(&a)))
		return ret;
	signal(SIGPIPE, SIG_IGN);
	a.res = &res;
	ret = record__run(&a.o, &res);
	close(a.live.fd);
	if (ret == -EPIPE)
		return ret;
	return ret < 0 ? ret : 0;
}
