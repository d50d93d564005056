// SPDX-License-Identifier: GPL-2.0-only
/* mperf report: options -> open the file -> report__dump/stats/hist/header -> exit status. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../src/perfdata/perfdata.h"
#include "../src/report/report.h"
#include "cmd.h"

/*
 * The synopsis (up to the first blank line) is the SYNOPSIS of
 * man/mperf-report.1, word for word (t0020 compares them).
 */
static const char report_usage[] =
	"usage: mperf report [-i file] [--stdio | --json] [-s keys] [--percent-limit p] [--comms list]\n"
	"                    [--dsos list] [--header | --header-only]\n"
	"   or: mperf report [-i file] [--header] (-D | --stats)\n"
	"   or: mperf report -h\n"
"\n"
	"    -i, --input FILE       input file (default: perf.data; '-' reads a pipe-mode stream from stdin)\n"
	"    -D, --dump-raw-trace   dump every record as perf report -D does, then per-event stats\n"
	"        --stats            only the per-event stats that end -D\n"
	"        --stdio            text output, perf report --stdio's (the default)\n"
	"        --json             the histograms as one JSON document (see mperf-report(1))\n"
	"        --header           print the file's header and features first\n"
	"        --header-only      print only the file's header and features\n"
	"    -s, --sort KEYS        histogram keys, comma-separated: comm, pid, dso, sym\n"
	"                           (default: comm,dso,sym)\n"
	"        --percent-limit P  hide entries below P percent\n"
	"    -c, --comms C          only these commands (comma-separated)\n"
	"    -d, --dsos D           only these shared objects (comma-separated)\n"
	"    -h, --help             show this help\n";

static int parse_keys(const char *list, struct report_hist_opts *o)
{
	static const char *const names[] = {
		[REPORT_KEY_COMM] = "comm", [REPORT_KEY_PID] = "pid",
		[REPORT_KEY_DSO] = "dso", [REPORT_KEY_SYM] = "sym",
	};

	o->nr_keys = 0;
	for (const char *p = list; *p; ) {
		size_t len = strcspn(p, ",");
		int k;

		for (k = 0; k < REPORT_NR_KEYS; k++)
			if (strlen(names[k]) == len && !strncmp(p, names[k], len))
				break;
		if (k == REPORT_NR_KEYS) {
			cmd_usage_error("report", "unknown sort key '%.*s' (keys: comm, pid, dso, sym)", (int)len, p);
			return -1;
		}
		for (int i = 0; i < o->nr_keys; i++)
			if (o->keys[i] == (enum report_key)k) {
				cmd_usage_error("report", "sort key '%s' given twice in '%s'", names[k], list);
				return -1;
			}
		if (o->nr_keys == REPORT_MAX_KEYS) {
			cmd_usage_error("report", "too many sort keys in '%s' (at most %d)", list, REPORT_MAX_KEYS);
			return -1;
		}
		o->keys[o->nr_keys++] = (enum report_key)k;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!o->nr_keys) {
		cmd_usage_error("report", "empty sort key list (keys: comm, pid, dso, sym)");
		return -1;
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "dump-raw-trace", no_argument, NULL, 'D' },
		{ "stats", no_argument, NULL, 'S' },
		{ "stdio", no_argument, NULL, 'T' },
		{ "json", no_argument, NULL, 'J' },
		{ "header", no_argument, NULL, 'H' },
		{ "header-only", no_argument, NULL, 'O' },
		{ "sort", required_argument, NULL, 's' },
		{ "percent-limit", required_argument, NULL, 'P' },
		{ "comms", required_argument, NULL, 'c' },
		{ "comm", required_argument, NULL, 'c' },
		{ "dsos", required_argument, NULL, 'd' },
		{ "dso", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = "perf.data", *label;
	bool dump = false, stats = false, header = false, header_only = false;
	/* The options that shape the histograms, for the conflicts below: the first given. */
	const char *hist_opt = NULL;
	struct pdata *p;
	static char obuf[1 << 16];
	int c, ret;

	struct report_hist_opts ho = {
		.keys = { REPORT_KEY_COMM, REPORT_KEY_DSO, REPORT_KEY_SYM },
		.nr_keys = 3,
	};
	char *end;

	opterr = 0;	/* ':': a missing value is ours to say */
	while ((c = getopt_long(argc, argv, ":i:Dhs:c:d:", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'D':
			dump = true;
			break;
		case 'S':
			stats = true;
			break;
		case 'T':
			break;
		case 'J':
			ho.json = true;
			hist_opt = hist_opt ? hist_opt : "--json";
			break;
		case 'H':
			header = true;
			break;
		case 'O':
			header = header_only = true;
			break;
		case 's':
			if (parse_keys(optarg, &ho))
				return EXIT_USAGE;
			hist_opt = hist_opt ? hist_opt : "-s/--sort";
			break;
		case 'P':
			ho.percent_limit = strtod(optarg, &end);
			if (end == optarg || *end || ho.percent_limit < 0)
				return cmd_usage_error("report", "invalid percent limit '%s' for --percent-limit (a number of percent, 0 or more)",
						       optarg);
			hist_opt = hist_opt ? hist_opt : "--percent-limit";
			break;
		case 'c':
			ho.comm = optarg;
			hist_opt = hist_opt ? hist_opt : "--comms";
			break;
		case 'd':
			ho.dso = optarg;
			hist_opt = hist_opt ? hist_opt : "--dsos";
			break;
		case 'h':
			fputs(report_usage, stdout);
			return 0;
		default:
			return cmd_option_error("report", c, longopts, argv);
		}
	}
	if (optind < argc)
		return cmd_usage_error("report", "unexpected argument '%s' (the input is given with -i)", argv[optind]);
	/*
	 * Conflicts are refused, never resolved silently: -D and --stats print
	 * the records and their totals, not the histograms the others shape,
	 * and JSON has no header.
	 */
	if (dump && stats)
		return cmd_usage_error("report", "-D and --stats cannot be used together (-D ends with the stats)");
	if ((dump || stats) && hist_opt)
		return cmd_usage_error("report", "%s cannot be used with %s, which prints records and their totals, not histograms",
				       hist_opt, dump ? "-D" : "--stats");
	if (header_only && (dump || stats))
		return cmd_usage_error("report", "--header-only cannot be used with %s", dump ? "-D" : "--stats");
	if (header && ho.json)
		return cmd_usage_error("report", "--json cannot be used with %s: the JSON document has no header",
				       header_only ? "--header-only" : "--header");
	/*
	 * A closed reader of our stdout ends us through write errors, not
	 * SIGPIPE (record leaves SIGPIPE alone: its workload inherits it).
	 */
	signal(SIGPIPE, SIG_IGN);
	label = strcmp(input, "-") ? input : "stdin";
	p = pdata__open(input);
	if (!p)
		return -errno;	/* said by the reader */
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	if (header) {
		struct stat st;

		if (pdata__is_pipe(p)) {
			cmd_error("report", "--header needs a file-mode perf.data, not a pipe-mode stream");
			pdata__close(p);
			return 1;
		}
		ret = report__header(p, label, stat(input, &st) == 0 ? st.st_mtime : 0, stdout);
		if (ret < 0 || header_only) {
			pdata__close(p);
			return ret;
		}
		ho.after_header = true;
	}
	if (dump)
		ret = report__dump(p, label, stdout);
	else if (stats)
		ret = report__stats(p, label, stdout);
	else
		ret = report__hist(p, label, &ho, stdout);
	pdata__close(p);
	return ret;
}
