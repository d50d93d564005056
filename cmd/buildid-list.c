// SPDX-License-Identifier: GPL-2.0-only
/* mperf buildid-list: options -> an ELF's id, the kernel's, or report__buildid_list -> exit status. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "../src/host/host.h"
#include "../src/perfdata/perfdata.h"
#include "../src/report/report.h"
#include "cmd.h"
#include "options.h"

/* The synopsis is the SYNOPSIS of man/mperf-buildid-list.1, word for word (t0020). */
static const char buildid_list_usage[] =
	"usage: mperf buildid-list [-i file] [-H | --with-hits]\n"
	"   or: mperf buildid-list -k | --kernel\n"
	"   or: mperf buildid-list -h\n"
	"\n";

static const struct cmd_opt buildid_list_opts[] = {
	{ 'i', 'i', "input", CMD_ARG_REQUIRED, "FILE",
	  "input file (default: perf.data, or stdin when it is a pipe; '-'\n"
	  "reads a pipe-mode stream from stdin); an ELF file: its own build id" },
	{ 'H', 'H', "with-hits", CMD_ARG_NONE, NULL, "only the DSOs a sample fell in" },
	{ 'k', 'k', "kernel", CMD_ARG_NONE, NULL, "the running kernel's build id" },
	{ 'h', 'h', "help", CMD_ARG_NONE, NULL, "show this help" },
};

struct buildid_list_args {
	const char *input;
	bool with_hits, kernel;
};

static int buildid_list_option(void *ctx, const struct cmd_opt *opt, char *arg)
{
	struct buildid_list_args *a = ctx;

	switch (opt->id) {
	case 'i':
		a->input = arg;
		break;
	case 'H':
		a->with_hits = true;
		break;
	case 'k':
		a->kernel = true;
		break;
	}
	return 0;
}

static const struct cmd_options buildid_list_options = {
	.cmd = "buildid-list",
	.usage = buildid_list_usage,
	.help_col = 23,
	.opts = buildid_list_opts,
	.nr_opts = sizeof(buildid_list_opts) / sizeof(buildid_list_opts[0]),
	.set = buildid_list_option,
};

int cmd_buildid_list(int argc, char **argv)
{
	struct buildid_list_args a = { .input = cmd_default_input() };
	const char *input;
	struct cmd_parse parse;
	unsigned char id[HOST_BUILD_ID_MAX];
	char hex[2 * HOST_BUILD_ID_MAX + 1];
	static char obuf[1 << 16];
	struct pdata *p;
	size_t n;
	int ret;

	if ((ret = cmd_options_parse(&parse, &buildid_list_options, argc, argv, &a)) != CMD_OPTS_OK)
		return ret;
	input = a.input;
	if (optind < argc)
		return cmd_usage_error("buildid-list", "unexpected argument '%s' (the input is given with -i)", argv[optind]);
	signal(SIGPIPE, SIG_IGN);
	/* As perf: -k wins over the rest. */
	if (a.kernel) {
		if (!(n = host_kernel_build_id(id))) {
			cmd_error("buildid-list", "cannot read the running kernel's build id from /sys/kernel/notes");
			return 1;
		}
		host_build_id_hex(id, n, hex);
		printf("%s\n", hex);
		return 0;
	}
	/* An ELF file rather than a recording: its build id, as perf says it. */
	if (strcmp(input, "-") && (n = host_file_build_id(input, id))) {
		host_build_id_hex(id, n, hex);
		printf("%s\n", hex);
		return 0;
	}
	p = pdata__open(input);
	if (!p)
		return -errno;	/* said by the reader */
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	ret = report__buildid_list(p, strcmp(input, "-") ? input : "stdin", a.with_hits, stdout);
	pdata__close(p);
	return cmd_damaged(ret);
}
