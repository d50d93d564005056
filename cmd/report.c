// SPDX-License-Identifier: GPL-2.0-only
/* mperf report: options -> open the file -> report__dump() -> exit status. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../src/perfdata/perfdata.h"
#include "../src/report/report.h"
#include "cmd.h"

static const char report_usage[] =
	"usage: mperf report [-i FILE] (-D | --stats)\n"
	"\n"
	"    -i, --input FILE       input file (default: perf.data; '-' reads a pipe-mode stream from stdin)\n"
	"    -D, --dump-raw-trace   dump every record as perf report -D does, then per-event stats\n"
	"        --stats            only the per-event stats that end -D\n"
	"    -h, --help             show this help\n";

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "dump-raw-trace", no_argument, NULL, 'D' },
		{ "stats", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = "perf.data";
	bool dump = false, stats = false;
	char err[512];
	struct pdata *p;
	static char obuf[1 << 16];
	int c, ret;

	while ((c = getopt_long(argc, argv, "i:Dh", longopts, NULL)) != -1) {
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
		case 'h':
			fputs(report_usage, stdout);
			return 0;
		default:
			fputs(report_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		cmd_error("report", "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (!dump && !stats) {
		cmd_error("report", "only the raw dump (-D) and --stats are implemented in this version");
		fputs(report_usage, stderr);
		return EXIT_USAGE;
	}
	p = pdata__open(input, err, sizeof(err));
	if (!p) {
		cmd_error("report", "%s", err);
		return 1;
	}
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	ret = dump ? report__dump(p, input, stdout, err, sizeof(err)) : report__stats(p, stdout, err, sizeof(err));
	fflush(stdout);
	if (pdata__warning(p))
		cmd_error("report", "warning: '%s': %s", input, pdata__warning(p));
	pdata__close(p);
	if (ret == -EPIPE)
		return 141;	/* like a death by SIGPIPE, quietly */
	if (ret < 0) {
		cmd_error("report", "'%s': %s", strcmp(input, "-") ? input : "stdin", err);
		return 1;
	}
	return 0;
}
