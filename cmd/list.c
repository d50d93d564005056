// SPDX-License-Identifier: GPL-2.0-only
/* mperf list: options -> record__list() -> exit status. */
#include <stdio.h>
#include "../src/record/record.h"
#include "cmd.h"
#include "options.h"

/* Keep in step with the SYNOPSIS of man/mperf-list.1 (t0020 compares them). */
static const char list_usage[] =
	"usage: mperf list [hw | sw | cache | pmu | tracepoint | glob]\n"
	"\n"
	"    hw, sw, cache, pmu, tracepoint   only the events of that kind\n"
	"    glob                             only the events whose name matches *glob*\n";

static const struct cmd_opt list_opts[] = {
	{ 'h', 'h', "help", CMD_ARG_NONE, NULL, "show this help" },
};

static const struct cmd_options list_options = {
	.cmd = "list",
	.usage = list_usage,
	.help_col = 37,
	.stop_at_operand = true,
	.opts = list_opts,
	.nr_opts = sizeof(list_opts) / sizeof(list_opts[0]),
};

int cmd_list(int argc, char **argv)
{
	struct cmd_parse parse;
	int ret;

	if ((ret = cmd_options_parse(&parse, &list_options, argc, argv, NULL)) != CMD_OPTS_OK)
		return ret;
	if (argc - optind > 1)
		return cmd_usage_error("list", "one filter at a time ('%s' and '%s')", argv[optind], argv[optind + 1]);
	return record__list(optind < argc ? argv[optind] : NULL, NULL, stdout);
}
