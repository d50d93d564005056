// SPDX-License-Identifier: GPL-2.0-only
/* mperf list: options -> record__list() -> exit status. */
#include <getopt.h>
#include <stdio.h>
#include "../src/record/record.h"
#include "cmd.h"

/* Keep in step with the SYNOPSIS of man/mperf-list.1 (t0020 compares them). */
static const char list_usage[] =
	"usage: mperf list [hw | sw | cache | pmu | tracepoint | glob]\n"
	"\n"
	"    hw, sw, cache, pmu, tracepoint   only the events of that kind\n"
	"    glob                             only the events whose name matches *glob*\n"
	"    -h, --help                       show this help\n";

int cmd_list(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(list_usage, stdout);
			return 0;
		default:
			return cmd_option_error("list", c, longopts, argv);
		}
	}
	if (argc - optind > 1)
		return cmd_usage_error("list", "one filter at a time ('%s' and '%s')", argv[optind], argv[optind + 1]);
	return record__list(optind < argc ? argv[optind] : NULL, NULL, stdout);
}
