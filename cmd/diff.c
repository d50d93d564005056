// SPDX-License-Identifier: GPL-2.0-only
/* mperf diff: options -> open both files -> report__diff -> exit status. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../src/perfdata/perfdata.h"
#include "../src/report/report.h"
#include "cmd.h"

/*
 * The synopsis (up to the first blank line) is the SYNOPSIS of
 * man/mperf-diff.1, word for word (t0020 compares them).
 */
static const char diff_usage[] =
	"usage: mperf diff [-s keys] [-c method] [-o order] [-p] [-F] [-b] [-C list] [-d list]\n"
	"                  [--percentage relative|absolute] [-q | --json] [[old] new]\n"
	"   or: mperf diff -h\n"
	"\n"
	"Compares the profile of new (default: perf.data) with that of old, the baseline (default:\n"
	"perf.data.old), as perf diff does: one argument is the new file.\n"
	"\n"
	"    -s, --sort KEYS        the keys entries are matched and shown by, comma-separated:\n"
	"                           comm, pid, dso, symbol, cpu (default: dso,symbol)\n"
	"    -c, --compute METHOD   the computed column: delta, delta-abs (the default: the delta,\n"
	"                           ordered by its size), ratio, or wdiff:W1,W2 (new * W2 - old * W1)\n"
	"    -o, --order N          0: order by the baseline; 1 (the default): by the computed column\n"
	"    -p, --period           show both files' periods too\n"
	"    -F, --formula          show the formula of each computed value\n"
	"    -b, --baseline-only    only the entries with a match in the baseline\n"
	"    -C, --comms C          only these commands (comma-separated)\n"
	"    -d, --dsos D           only these shared objects (comma-separated)\n"
	"        --percentage HOW   relative: shares of what -C and -d keep; absolute (the default):\n"
	"                           shares of every sample\n"
	"    -q, --quiet            the entries alone, without the headers\n"
	"        --json             one JSON document per file pair: each event's entries with both\n"
	"                           shares and the delta, the largest moves first (see mperf-diff(1))\n"
	"    -h, --help             show this help\n";

/* -s KEYS: the usual view's keys, matched as perf matches them (report_sort_key_find); a repeated one is ignored. */
static int parse_keys(const char *list, struct report_hist_opts *o)
{
	char names[256];

	report_sort_key_list(names, sizeof(names), REPORT_SORT_USUAL, -1);
	o->nr_keys = 0;
	for (const char *p = list; *p; ) {
		size_t len = strcspn(p, ",");
		int k = report_sort_key_find(p, len, REPORT_SORT_USUAL);
		bool dup = false;

		if (k < 0)
			return cmd_usage_error("diff", "unknown sort key '%.*s' (keys: %s)", (int)len, p, names);
		for (int i = 0; i < o->nr_keys; i++)
			dup |= o->keys[i] == (enum report_key)k;
		if (!dup && o->nr_keys == REPORT_MAX_KEYS)
			return cmd_usage_error("diff", "too many sort keys in '%s' (at most %d)", list, REPORT_MAX_KEYS);
		if (!dup)
			o->keys[o->nr_keys++] = (enum report_key)k;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!o->nr_keys)
		return cmd_usage_error("diff", "empty sort key list (keys: %s)", names);
	return 0;
}

/* -c METHOD[:ARGS], as perf diff takes it: only wdiff takes arguments, two weights, neither 0. */
static int parse_compute(const char *arg, struct report_diff_opts *o)
{
	static const struct { const char *name; enum report_diff_compute c; } methods[] = {
		{ "delta", REPORT_DIFF_DELTA }, { "delta-abs", REPORT_DIFF_DELTA_ABS },
		{ "ratio", REPORT_DIFF_RATIO }, { "wdiff", REPORT_DIFF_WDIFF },
	};
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg), m;

	for (m = 0; m < sizeof(methods) / sizeof(methods[0]); m++)
		if (strlen(methods[m].name) == len && !strncmp(arg, methods[m].name, len))
			break;
	if (m == sizeof(methods) / sizeof(methods[0])) {
		if (len == 6 && !strncmp(arg, "cycles", 6))
			return cmd_usage_error("diff", "-c cycles is not supported (it needs branch stacks, which mperf does not read yet)");
		return cmd_usage_error("diff", "'%s' is not a computation method (delta, delta-abs, ratio or wdiff:W1,W2)", arg);
	}
	o->compute = methods[m].c;
	if (o->compute == REPORT_DIFF_WDIFF) {
		char *end1, *end2;

		if (!colon || !strchr(colon + 1, ','))
			return cmd_usage_error("diff", "wrong weights in '%s' (wdiff:W1,W2, two integers other than 0)", arg);
		o->wdiff_w1 = strtoll(colon + 1, &end1, 10);
		o->wdiff_w2 = strtoll(strchr(colon + 1, ',') + 1, &end2, 10);
		if (*end1 != ',' || end1 == colon + 1 || *end2 || end2 == end1 + 1 || !o->wdiff_w1 || !o->wdiff_w2)
			return cmd_usage_error("diff", "wrong weights in '%s' (wdiff:W1,W2, two integers other than 0)", arg);
	} else if (colon) {
		return cmd_usage_error("diff", "-c %.*s takes no arguments ('%s')", (int)len, arg, colon + 1);
	}
	return 0;
}

int cmd_diff(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "sort", required_argument, NULL, 's' },
		{ "compute", required_argument, NULL, 'c' },
		{ "order", required_argument, NULL, 'o' },
		{ "period", no_argument, NULL, 'p' },
		{ "formula", no_argument, NULL, 'F' },
		{ "baseline-only", no_argument, NULL, 'b' },
		{ "comms", required_argument, NULL, 'C' },
		{ "dsos", required_argument, NULL, 'd' },
		{ "percentage", required_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_diff_opts o = {
		.hist = { .keys = { REPORT_KEY_DSO, REPORT_KEY_SYM }, .nr_keys = 2, .children = 0,
			  .cc_mode = REPORT_CC_NONE },
		.compute = REPORT_DIFF_DELTA_ABS,
		.order = 1,
	};
	/* The text-only options given, for --json's refusal: the first. */
	const char *text_opt = NULL;
	const char *old_path = "perf.data.old", *new_path = "perf.data";
	struct pdata *old, *new_;
	static char obuf[1 << 16];
	char *end;
	int c, ret;

	opterr = 0;	/* ':': a missing value is ours to say */
	while ((c = getopt_long(argc, argv, ":s:c:o:pFbC:d:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_keys(optarg, &o.hist))
				return EXIT_USAGE;
			break;
		case 'c':
			if (parse_compute(optarg, &o))
				return EXIT_USAGE;
			text_opt = text_opt ? text_opt : "-c/--compute";
			break;
		case 'o': {
			unsigned long v = strtoul(optarg, &end, 10);

			if (end == optarg || *end || optarg[0] == '-' || v > 1)
				return cmd_usage_error("diff", "invalid order '%s' for -o (0: by the baseline, 1: by the computed column; two files have no other)",
						       optarg);
			o.order = (unsigned)v;
			text_opt = text_opt ? text_opt : "-o/--order";
			break;
		}
		case 'p':
			o.period = true;
			text_opt = text_opt ? text_opt : "-p/--period";
			break;
		case 'F':
			o.formula = true;
			text_opt = text_opt ? text_opt : "-F/--formula";
			break;
		case 'b':
			o.baseline_only = true;
			break;
		case 'C':
			o.hist.comm = optarg;
			break;
		case 'd':
			o.hist.dso = optarg;
			break;
		case 'P':
			if (!strcmp(optarg, "relative"))
				o.relative = true;
			else if (!strcmp(optarg, "absolute"))
				o.relative = false;
			else
				return cmd_usage_error("diff", "invalid --percentage '%s' (relative or absolute)", optarg);
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'J':
			o.json = true;
			break;
		case 'h':
			fputs(diff_usage, stdout);
			return 0;
		default:
			return cmd_option_error("diff", c, longopts, argv);
		}
	}
	if (o.json && (text_opt || o.quiet))
		return cmd_usage_error("diff", "--json cannot be used with %s: the JSON document has both shares, the delta and the periods, largest moves first",
				       o.quiet ? "-q/--quiet" : text_opt);
	/* As perf diff: no file is perf.data.old against perf.data; one is the new file. */
	if (argc - optind == 1) {
		new_path = argv[optind];
	} else if (argc - optind == 2) {
		old_path = argv[optind];
		new_path = argv[optind + 1];
	} else if (argc - optind > 2) {
		return cmd_usage_error("diff", "unexpected argument '%s' (mperf diff compares two files: [[old] new])",
				       argv[optind + 2]);
	}
	if (!strcmp(old_path, "-") && !strcmp(new_path, "-"))
		return cmd_usage_error("diff", "old and new cannot both be '-' (standard input is one stream)");
	/* A closed reader of our stdout ends us through write errors, not SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	if (!(old = pdata__open(old_path)))
		return -errno;	/* said by the reader */
	if (!(new_ = pdata__open(new_path))) {
		ret = -errno;
		pdata__close(old);
		return ret;
	}
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	ret = report__diff(old, strcmp(old_path, "-") ? old_path : "stdin", new_, strcmp(new_path, "-") ? new_path : "stdin",
			   &o, stdout);
	pdata__close(new_);
	pdata__close(old);
	return ret;
}
