// SPDX-License-Identifier: GPL-2.0-only
/* mperf diff: options -> open both files -> report__diff -> exit status. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../src/perfdata/perfdata.h"
#include "../src/report/report.h"
#include "cmd.h"
#include "options.h"

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
	"\n";

/* The classes of options, for the conflicts: --json, -q, the text's own columns. */
enum { DIFF_JSON = 1 << 0, DIFF_QUIET = 1 << 1, DIFF_TEXT = 1 << 2 };

static const struct cmd_opt diff_opts[] = {
	{ 's', 's', "sort", CMD_ARG_REQUIRED, "KEYS",
	  "the keys entries are matched and shown by, comma-separated:\n"
	  "comm, pid, dso, symbol, cpu (default: dso,symbol)" },
	{ 'c', 'c', "compute", CMD_ARG_REQUIRED, "METHOD",
	  "the computed column: delta, delta-abs (the default: the delta,\n"
	  "ordered by its size), ratio, or wdiff:W1,W2 (new * W2 - old * W1)", NULL, DIFF_TEXT },
	{ 'o', 'o', "order", CMD_ARG_REQUIRED, "N",
	  "0: order by the baseline; 1 (the default): by the computed column", NULL, DIFF_TEXT },
	{ 'p', 'p', "period", CMD_ARG_NONE, NULL, "show both files' periods too", NULL, DIFF_TEXT },
	{ 'F', 'F', "formula", CMD_ARG_NONE, NULL, "show the formula of each computed value", NULL, DIFF_TEXT },
	{ 'b', 'b', "baseline-only", CMD_ARG_NONE, NULL, "only the entries with a match in the baseline" },
	{ 'C', 'C', "comms", CMD_ARG_REQUIRED, "C", "only these commands (comma-separated)" },
	{ 'd', 'd', "dsos", CMD_ARG_REQUIRED, "D", "only these shared objects (comma-separated)" },
	{ 'P', 0, "percentage", CMD_ARG_REQUIRED, "HOW",
	  "relative: shares of what -C and -d keep; absolute (the default):\n"
	  "shares of every sample" },
	{ 'q', 'q', "quiet", CMD_ARG_NONE, NULL, "the entries alone, without the headers", NULL, DIFF_QUIET },
	{ 'J', 0, "json", CMD_ARG_NONE, NULL,
	  "one JSON document per file pair: each event's entries with both\n"
	  "shares and the delta, the largest moves first (see mperf-diff(1))", NULL, DIFF_JSON },
	{ 'h', 'h', "help", CMD_ARG_NONE, NULL, "show this help" },
};

static const struct cmd_conflict diff_conflicts[] = {
	{ { DIFF_JSON }, { DIFF_QUIET, DIFF_TEXT }, 0,
	  "--json cannot be used with {b}: the JSON document has both shares, the delta and the periods, "
	  "largest moves first" },
};

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

static int diff_option(void *ctx, const struct cmd_opt *opt, char *arg)
{
	struct report_diff_opts *o = ctx;
	unsigned long v;
	char *end;

	switch (opt->id) {
	case 's':
		return parse_keys(arg, &o->hist) ? EXIT_USAGE : 0;
	case 'c':
		return parse_compute(arg, o) ? EXIT_USAGE : 0;
	case 'o':
		v = strtoul(arg, &end, 10);
		if (end == arg || *end || arg[0] == '-' || v > 1)
			return cmd_usage_error("diff", "invalid order '%s' for -o (0: by the baseline, 1: by the computed column; two files have no other)",
					       arg);
		o->order = (unsigned)v;
		break;
	case 'p':
		o->period = true;
		break;
	case 'F':
		o->formula = true;
		break;
	case 'b':
		o->baseline_only = true;
		break;
	case 'C':
		o->hist.comm = arg;
		break;
	case 'd':
		o->hist.dso = arg;
		break;
	case 'P':
		if (!strcmp(arg, "relative"))
			o->relative = true;
		else if (!strcmp(arg, "absolute"))
			o->relative = false;
		else
			return cmd_usage_error("diff", "invalid --percentage '%s' (relative or absolute)", arg);
		break;
	case 'q':
		o->quiet = true;
		break;
	case 'J':
		o->json = true;
		break;
	}
	return 0;
}

static const struct cmd_options diff_options = {
	.cmd = "diff",
	.usage = diff_usage,
	.help_col = 27,
	.opts = diff_opts,
	.nr_opts = sizeof(diff_opts) / sizeof(diff_opts[0]),
	.conflicts = diff_conflicts,
	.nr_conflicts = sizeof(diff_conflicts) / sizeof(diff_conflicts[0]),
	.set = diff_option,
};

int cmd_diff(int argc, char **argv)
{
	struct report_diff_opts o = {
		.hist = { .keys = { REPORT_KEY_DSO, REPORT_KEY_SYM }, .nr_keys = 2, .children = 0,
			  .cc_mode = REPORT_CC_NONE },
		.compute = REPORT_DIFF_DELTA_ABS,
		.order = 1,
	};
	const char *old_path = "perf.data.old", *new_path = "perf.data";
	struct pdata *old, *new_;
	static char obuf[1 << 16];
	struct cmd_parse parse;
	int ret;

	if ((ret = cmd_options_parse(&parse, &diff_options, argc, argv, &o)) != CMD_OPTS_OK)
		return ret;
	if ((ret = cmd_options_conflicts(&parse)))
		return ret;
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
	return cmd_damaged(ret);
}
