// SPDX-License-Identifier: GPL-2.0-only
/* mperf script: options -> open the file -> report__script -> exit status. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "../src/perfdata/perfdata.h"
#include "../src/report/report.h"
#include "cmd.h"
#include "options.h"

/*
 * The synopsis (up to the first blank line) is the SYNOPSIS of
 * man/mperf-script.1, word for word (t0020 compares them).
 */
static const char script_usage[] =
	"usage: mperf script [-i file] [-F fields]... [--header] [-k file | --kallsyms file]\n"
	"   or: mperf script -h\n"
	"\n";

enum { SCRIPT_VMLINUX = 1 << 0, SCRIPT_KALLSYMS = 1 << 1 };

static const struct cmd_opt script_opts[] = {
	{ 'i', 'i', "input", CMD_ARG_REQUIRED, "FILE",
	  "input file (default: perf.data, or stdin when it is a pipe;\n"
	  "'-' reads a pipe-mode stream from stdin)" },
	{ 'F', 'F', "fields", CMD_ARG_REQUIRED, "FIELDS",
	  "the fields to print, as perf script takes them: [TYPE:]FIELD,...\n"
	  "sets them (TYPE: hw, sw, trace, raw, break; all without one),\n"
	  "+FIELD,... adds to perf's defaults, -FIELD,... takes away;\n"
	  "FIELD: comm, tid, pid, time, cpu, event, trace, ip, sym,\n"
	  "symoff, dso, period" },
	{ 'H', 0, "header", CMD_ARG_NONE, NULL, "print the file's header and features first" },
	{ 'k', 'k', "vmlinux", CMD_ARG_REQUIRED, "FILE",
	  "the kernel's symbols from this image (vmlinux), and no other\n"
	  "(else as mperf report finds them: see mperf-report(1))", NULL, SCRIPT_VMLINUX },
	{ 'L', 0, "kallsyms", CMD_ARG_REQUIRED, "FILE", "the kernel's symbols from this kallsyms file", NULL,
	  SCRIPT_KALLSYMS },
	{ 'h', 'h', "help", CMD_ARG_NONE, NULL, "show this help" },
};

static const struct cmd_conflict script_conflicts[] = {
	{ { SCRIPT_VMLINUX }, { SCRIPT_KALLSYMS }, 0,
	  "-k/--vmlinux and --kallsyms cannot be used together (one source of kernel symbols)" },
};

struct script_args {
	const char *input;
	struct report_script_opts o;
};

static int script_option(void *ctx, const struct cmd_opt *opt, char *arg)
{
	struct script_args *a = ctx;

	switch (opt->id) {
	case 'i':
		a->input = arg;
		break;
	case 'F':
		if (report__script_fields(&a->o, arg))
			return EXIT_USAGE;	/* said */
		break;
	case 'H':
		a->o.header = true;
		break;
	case 'k':
	case 'L':
		if (cmd_kernel_file("script", opt->id, arg))
			return EXIT_MPERF;
		*(opt->id == 'k' ? &a->o.vmlinux : &a->o.kallsyms) = arg;
		break;
	}
	return 0;
}

static const struct cmd_options script_options = {
	.cmd = "script",
	.usage = script_usage,
	.help_col = 25,
	.opts = script_opts,
	.nr_opts = sizeof(script_opts) / sizeof(script_opts[0]),
	.conflicts = script_conflicts,
	.nr_conflicts = sizeof(script_conflicts) / sizeof(script_conflicts[0]),
	.set = script_option,
};

int cmd_script(int argc, char **argv)
{
	struct script_args a = { .input = cmd_default_input() };
	struct report_script_opts *o = &a.o;
	const char *input, *label;
	static char obuf[1 << 16];
	struct cmd_parse parse;
	struct pdata *p;
	int ret;

	report__script_defaults(o);
	if ((ret = cmd_options_parse(&parse, &script_options, argc, argv, &a)) != CMD_OPTS_OK)
		return ret;
	input = a.input;
	if (optind < argc)
		return cmd_usage_error("script", "unexpected argument '%s'", argv[optind]);
	if ((ret = cmd_options_conflicts(&parse)))
		return ret;
	/* A closed reader of our stdout ends us through write errors, not SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	label = strcmp(input, "-") ? input : "stdin";
	p = pdata__open(input);
	if (!p)
		return -errno;	/* said by the reader */
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	ret = 0;
	if (o->header) {
		struct stat st;

		if (pdata__is_pipe(p)) {
			cmd_error("script", "--header needs a file-mode perf.data, not a pipe-mode stream");
			pdata__close(p);
			return EXIT_MPERF;
		}
		ret = report__header(p, label, stat(input, &st) == 0 ? st.st_mtime : 0, false, stdout);
	}
	if (ret >= 0)
		ret = cmd_damaged(report__script(p, label, o, stdout));
	pdata__close(p);
	return ret;
}
