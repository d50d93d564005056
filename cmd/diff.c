// SPDX-License-Identifier: GPL-2.0-only
/* mperf diff: options -> open the files -> report__diff_runs (or the flame graph) -> the check's verdict -> exit status. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../src/perfdata/perfdata.h"
#include "../src/report/report.h"
#include "../src/stat/stat.h"
#include "cmd.h"
#include "options.h"

/*
 * The synopsis (up to the first blank line) is the SYNOPSIS of
 * man/mperf-diff.1, word for word (t0020 compares them).
 */
static const char diff_usage[] =
	"usage: mperf diff [-s keys] [-c method] [-o order] [-p] [-F] [-b] [-C list] [-d list]\n"
	"                  [--percentage relative|absolute] [-q | --json | --format fmt]\n"
	"                  [--check[=rules]] [[old] new]\n"
	"   or: mperf diff [options] old... -- new...\n"
	"   or: mperf diff -h\n"
	"\n"
	"Compares the profile of new (default: perf.data) with that of old, the baseline (default:\n"
	"perf.data.old), as perf diff does: one argument is the new file. With --, several runs a\n"
	"side are pooled and --check tests each change over them.\n"
	"\n";

/* The classes of options, for the conflicts: --json, -q, the text's own columns, --format. */
enum { DIFF_JSON = 1 << 0, DIFF_QUIET = 1 << 1, DIFF_TEXT = 1 << 2, DIFF_FORMAT = 1 << 3 };

/* --check alone: these rules (man/mperf-diff.1 says why). */
#define DIFF_DEFAULT_RULES "share:2,new:1,total:+5"

/* What cmd_diff needs beyond report__diff_runs' options. */
struct diff_args {
	struct report_diff_opts o;
	enum { OUT_DIFF, OUT_SVG, OUT_FOLDED } out;
	int check_status;	/* --check-status: the status of a broken rule */
};

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
	{ 'f', 0, "format", CMD_ARG_REQUIRED, "FMT",
	  "markdown (a summary table for a CI page), junit (JUnit XML, a test\n"
	  "case per rule), svg (a differential flame graph: the new stacks, red\n"
	  "grew, blue shrank) or folded (each stack with both sides' samples)", NULL, DIFF_FORMAT },
	{ 'K', 0, "check", CMD_ARG_OPTIONAL, "[=RULES]",
	  "exit 3 when a change breaks a rule, each one named on stderr; RULES:\n"
	  "share:N[%], new:N, total:[+]N (default: " DIFF_DEFAULT_RULES ")" },
	{ 'Z', 0, "check-status", CMD_ARG_REQUIRED, "N",
	  "exit N (1 to 124) when a rule breaks, instead of 3" },
	{ 'h', 'h', "help", CMD_ARG_NONE, NULL, "show this help" },
};

static const struct cmd_conflict diff_conflicts[] = {
	{ { DIFF_JSON }, { DIFF_QUIET, DIFF_TEXT }, 0,
	  "--json cannot be used with {b}: the JSON document has both shares, the delta and the periods, "
	  "largest moves first" },
	{ { DIFF_FORMAT }, { DIFF_QUIET, DIFF_TEXT, DIFF_JSON }, 0,
	  "--format cannot be used with {b}: it is an output of its own" },
};

/*
 * --check=RULES: NAME:VALUE, comma-separated, each rule once: share:N
 * (points) or share:N% (percent of the baseline's share), new:N (points),
 * total:N or total:+N (percent; + only growth).
 */
static int parse_rules(const char *arg, struct report_gate *g)
{
	static const struct { const char *name; unsigned rule; } rules[] = {
		{ "share", REPORT_GATE_SHARE }, { "new", REPORT_GATE_NEW }, { "total", REPORT_GATE_TOTAL },
	};
	char item[64];

	memset(g, 0, sizeof(*g));
	for (const char *p = arg; ; ) {
		size_t len = strcspn(p, ","), r;
		char *colon, *v, *end;
		double x;

		if (len == 0 || len >= sizeof(item))
			goto bad;
		memcpy(item, p, len);
		item[len] = '\0';
		if (!(colon = strchr(item, ':')))
			goto bad;
		*colon = '\0';
		v = colon + 1;
		for (r = 0; r < sizeof(rules) / sizeof(rules[0]) && strcmp(item, rules[r].name); r++)
			;
		if (r == sizeof(rules) / sizeof(rules[0]) || (g->on & rules[r].rule))
			goto bad;
		if (rules[r].rule == REPORT_GATE_TOTAL && *v == '+')
			g->total_up = true, v++;
		if (!(*v >= '0' && *v <= '9') && *v != '.')
			goto bad;
		errno = 0;
		x = strtod(v, &end);
		if (errno || !(x >= 0 && x <= 1e6))
			goto bad;
		if (*end == '%' && rules[r].rule == REPORT_GATE_SHARE)
			g->share_pct = true, end++;
		if (*end)
			goto bad;
		g->on |= rules[r].rule;
		*(rules[r].rule == REPORT_GATE_SHARE ? &g->share : rules[r].rule == REPORT_GATE_NEW ? &g->new_share
											 : &g->total) = x;
		p += len;
		if (!*p)
			return 0;
		p++;
	}
bad:
	return cmd_usage_error("diff", "invalid --check rules '%s' (share:N[%%], new:N, total:[+]N, comma-separated, "
			       "each once; default " DIFF_DEFAULT_RULES ")", arg);
}

/* -s KEYS: the usual view's keys, matched as perf matches them (report_sort_key_find); a repeated one is ignored. */
static int parse_keys(const char *list, struct report_hist_opts *o)
{
	char names[512];

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

static int parse_diff_format(const char *arg, struct diff_args *a)
{
	if (!strcmp(arg, "markdown"))
		a->o.format = REPORT_DIFF_MARKDOWN;
	else if (!strcmp(arg, "junit"))
		a->o.format = REPORT_DIFF_JUNIT;
	else if (!strcmp(arg, "svg"))
		a->out = OUT_SVG;
	else if (!strcmp(arg, "folded"))
		a->out = OUT_FOLDED;
	else
		return cmd_usage_error("diff", "unknown --format '%s' (formats: markdown, junit, svg, folded)", arg);
	return 0;
}

static int diff_option(void *ctx, const struct cmd_opt *opt, char *arg)
{
	struct diff_args *a = ctx;
	struct report_diff_opts *o = &a->o;
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
		o->format = REPORT_DIFF_JSON;
		break;
	case 'f':
		return parse_diff_format(arg, a) ? EXIT_USAGE : 0;
	case 'K':
		o->rules = arg ? arg : DIFF_DEFAULT_RULES;
		return parse_rules(o->rules, &o->gate) ? EXIT_USAGE : 0;
	case 'Z':
		if (cmd_parse_check_status(arg, &a->check_status))
			return cmd_usage_error("diff", "invalid --check-status '%s' (an exit status, 1 to 124)", arg);
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

/* Each entry that broke a rule, one line on stderr. */
static void say_breaks(const struct report_diff_opts *o, const struct report_gate_result *res)
{
	for (size_t i = 0; i < res->n; i++) {
		const struct report_gate_break *b = &res->v[i];
		char rules[128] = "";

		for (unsigned r = 1; r <= REPORT_GATE_TOTAL; r <<= 1)
			if (b->rules & r) {
				size_t l = strlen(rules);

				if (l)
					snprintf(rules + l, sizeof(rules) - l, ", ");
				l = strlen(rules);
				report_gate_rule_text(&o->gate, r, rules + l, sizeof(rules) - l);
			}
		if (!b->entry)
			cmd_error("diff", "check failed: %s: total period %.0f -> %.0f (%+.2f%%) breaks %s", b->event,
				  b->old, b->new_, b->old > 0 ? (b->new_ - b->old) * 100.0 / b->old : 0.0, rules);
		else
			cmd_error("diff", "check failed: %s: %s: %.2f%% -> %.2f%% (%+.2f points) breaks %s (p %.3g)", b->event,
				  b->entry, b->old, b->new_, b->new_ - b->old, rules, b->p);
	}
}

/* The files: [[old] new] as perf diff, or old... -- new... (split at sep, -1: none). */
static int diff_files(int argc, char **argv, int sep, struct report_diff_side *sd)
{
	static const char *defaults[2] = { "perf.data.old", "perf.data" };
	int stdin_uses = 0;

	if (sep < 0) {
		int n = argc - optind;

		if (n > 2)
			return cmd_usage_error("diff", "unexpected argument '%s' (mperf diff compares two files: [[old] new], "
					       "or runs: old... -- new...)", argv[optind + 2]);
		sd[0].labels[0] = n == 2 ? argv[optind] : defaults[0];
		sd[1].labels[0] = n >= 1 ? argv[argc - 1] : defaults[1];
		sd[0].n = sd[1].n = 1;
	} else {
		for (int i = optind; i < sep; i++)
			sd[0].labels[sd[0].n++] = argv[i];
		for (int i = sep + 1; i < argc; i++)
			sd[1].labels[sd[1].n++] = argv[i];
		if (!sd[0].n || !sd[1].n)
			return cmd_usage_error("diff", "no %s file %s '--' (old... -- new...)", sd[0].n ? "new" : "baseline",
					       sd[0].n ? "after" : "before");
	}
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < sd[s].n; i++)
			stdin_uses += !strcmp(sd[s].labels[i], "-");
	if (stdin_uses > 1)
		return cmd_usage_error("diff", sep < 0 ? "old and new cannot both be '-' (standard input is one stream)"
						       : "'-' can be given once (standard input is one stream)");
	return 0;
}

static void close_all(struct report_diff_side *sd)
{
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < sd[s].n; i++)
			if (sd[s].p[i])
				pdata__close(sd[s].p[i]);
}

int cmd_diff(int argc, char **argv)
{
	struct diff_args a = {
		.o = { .hist = { .keys = { REPORT_KEY_DSO, REPORT_KEY_SYM }, .nr_keys = 2, .children = 0,
				 .cc_mode = REPORT_CC_NONE },
		       .compute = REPORT_DIFF_DELTA_ABS,
		       .order = 1,
		       .top = 10 },
		.check_status = STAT_EXIT_CHECK,
	};
	struct report_diff_side sd[2] = { 0 };
	struct report_gate_result res = { 0 };
	static char obuf[1 << 16];
	struct cmd_parse parse;
	int ret, sep = -1;

	/* old... -- new...: getopt would drop the "--", so the options are those before it. */
	for (int i = 1; i < argc && sep < 0; i++)
		if (!strcmp(argv[i], "--"))
			sep = i;
	if ((ret = cmd_options_parse(&parse, &diff_options, sep < 0 ? argc : sep, argv, &a)) != CMD_OPTS_OK)
		return ret;
	if ((ret = cmd_options_conflicts(&parse)))
		return ret;
	if (a.o.format == REPORT_DIFF_JUNIT && !a.o.gate.on)
		parse_rules(a.o.rules = DIFF_DEFAULT_RULES, &a.o.gate);
	for (int s = 0; s < 2; s++) {
		sd[s].labels = calloc((size_t)argc + 1, sizeof(*sd[s].labels));
		sd[s].p = calloc((size_t)argc + 1, sizeof(*sd[s].p));
		if (!sd[s].labels || !sd[s].p) {
			ret = -ENOMEM;
			cmd_error("diff", "out of memory");
			goto out;
		}
	}
	if ((ret = diff_files(argc, argv, sep, sd)))
		goto out;
	for (int s = 0; s < 2 && a.out != OUT_DIFF && a.o.gate.on; s++)
		for (size_t i = 0; i < sd[s].n; i++)
			if (!strcmp(sd[s].labels[i], "-")) {
				ret = cmd_usage_error("diff", "--check with --format=%s reads each file twice: not '-'",
						      a.out == OUT_SVG ? "svg" : "folded");
				goto out;
			}
	/* A closed reader of our stdout ends us through write errors, not SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < sd[s].n; i++) {
			if (!(sd[s].p[i] = pdata__open(sd[s].labels[i]))) {
				ret = -errno;	/* said by the reader */
				goto out;
			}
			if (!strcmp(sd[s].labels[i], "-"))
				sd[s].labels[i] = "stdin";
		}
	cmd_pager_start();
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	if (a.out != OUT_DIFF) {
		/* the check reads the files, then the stacks are read from their first record again */
		if (a.o.gate.on) {
			a.o.format = REPORT_DIFF_NONE;
			ret = report__diff_runs(&sd[0], &sd[1], &a.o, &res, stdout);
			for (int s = 0; s < 2 && ret >= 0; s++)
				for (size_t i = 0; i < sd[s].n && ret >= 0; i++)
					ret = pdata__rewind(sd[s].p[i]);
		}
		if (ret >= 0)
			ret = report__diff_export(&sd[0], &sd[1], a.out == OUT_SVG, NULL, NULL, stdout);
	} else {
		ret = report__diff_runs(&sd[0], &sd[1], &a.o, &res, stdout);
	}
	if (ret >= 0 && res.n) {
		fflush(stdout);
		say_breaks(&a.o, &res);
		ret = a.check_status;
	}
out:
	close_all(sd);
	free(sd[0].labels);
	free(sd[0].p);
	free(sd[1].labels);
	free(sd[1].p);
	report_gate_result_free(&res);
	return cmd_damaged(ret);
}
