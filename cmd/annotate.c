// SPDX-License-Identifier: GPL-2.0-only
/* mperf annotate: options -> open the file -> annotate__run -> exit status. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../src/annotate/annotate.h"
#include "../src/perfdata/perfdata.h"
#include "cmd.h"
#include "options.h"

/*
 * The synopsis (up to the first blank line) is the SYNOPSIS of
 * man/mperf-annotate.1, word for word (t0020 compares them).
 */
static const char annotate_usage[] =
	"usage: mperf annotate [-i file] [--stdio | --json] [-s symbol] [-d dsos] [-n | --show-total-period] [symbol]...\n"
	"   or: mperf annotate -h\n"
	"\n";

enum { ANN_VMLINUX = 1 << 0, ANN_KALLSYMS = 1 << 1, ANN_NR = 1 << 2, ANN_PERIOD = 1 << 3, ANN_STDIO = 1 << 4,
       ANN_JSON = 1 << 5 };

enum { OPT_STDIO = 256, OPT_TOTAL, OPT_PTYPE, OPT_RAW, OPT_LIMIT, OPT_SOURCE, OPT_NO_SOURCE, OPT_GROUP,
       OPT_KALLSYMS, OPT_JSON, OPT_SYMFS };

static const struct cmd_opt annotate_opts[] = {
	{ 'i', 'i', "input", CMD_ARG_REQUIRED, "FILE",
	  "input file (default: perf.data; '-' reads a pipe-mode stream from stdin)" },
	{ OPT_STDIO, 0, "stdio", CMD_ARG_NONE, NULL, "text output (the default; perf's when not on a terminal)", NULL,
	  ANN_STDIO },
	{ OPT_JSON, 0, "json", CMD_ARG_NONE, NULL, "one JSON document: every instruction's counts and source line",
	  NULL, ANN_JSON },
	{ 's', 's', "symbol", CMD_ARG_REQUIRED, "SYMBOL", "only this symbol (as a SYMBOL operand)" },
	{ 'd', 'd', "dsos", CMD_ARG_REQUIRED, "DSOS", "only the symbols of these DSOs (comma-separated names or paths)" },
	{ 'n', 'n', "show-nr-samples", CMD_ARG_NONE, NULL, "each instruction's samples instead of its share",
	  NULL, ANN_NR },
	{ OPT_TOTAL, 0, "show-total-period", CMD_ARG_NONE, NULL, "each instruction's period instead of its share",
	  NULL, ANN_PERIOD },
	{ OPT_PTYPE, 0, "percent-type", CMD_ARG_REQUIRED, "TYPE",
	  "the share shown: local-period (default), global-period, local-hits,\n"
	  "global-hits (local: of the symbol's; global: of the event's)" },
	{ 'M', 'M', "disassembler-style", CMD_ARG_REQUIRED, "STYLE", "att (default) or intel" },
	{ OPT_RAW, 0, "asm-raw", CMD_ARG_NONE, NULL, "each instruction's bytes too" },
	{ OPT_LIMIT, 0, "percent-limit", CMD_ARG_REQUIRED, "PERCENT",
	  "leave out symbols under this share of their event's period" },
	{ 'l', 'l', "print-line", CMD_ARG_NONE, NULL,
	  "each hot instruction's file:line, and their summary first" },
	{ OPT_SOURCE, 0, "source", CMD_ARG_NONE, NULL, "the source text beside file:line, when the file is here (default)" },
	{ OPT_NO_SOURCE, 0, "no-source", CMD_ARG_NONE, NULL, "file:line alone, no source text" },
	{ OPT_GROUP, 0, "group", CMD_ARG_NONE, NULL, "all events in one listing, a column each" },
	{ 'k', 'k', "vmlinux", CMD_ARG_REQUIRED, "FILE", "the kernel's symbols and code from this image (vmlinux)", NULL,
	  ANN_VMLINUX },
	{ OPT_KALLSYMS, 0, "kallsyms", CMD_ARG_REQUIRED, "FILE", "the kernel's symbols from this kallsyms file", NULL,
	  ANN_KALLSYMS },
	{ OPT_SYMFS, 0, "symfs", CMD_ARG_REQUIRED, "DIR", "look for the recording's files under DIR: /usr/bin/x is DIR/usr/bin/x" },
	{ 'v', 'v', "verbose", CMD_ARG_NONE, NULL, "say where the code of each symbol is read from" },
	{ 'q', 'q', "quiet", CMD_ARG_NONE, NULL, "no warnings (a symbol that cannot be shown is left out silently)" },
	{ 'h', 'h', "help", CMD_ARG_NONE, NULL, "show this help" },
};

static const struct cmd_conflict annotate_conflicts[] = {
	{ { ANN_VMLINUX }, { ANN_KALLSYMS }, 0,
	  "-k/--vmlinux and --kallsyms cannot be used together (one source of kernel symbols)" },
	{ { ANN_NR }, { ANN_PERIOD }, 0, "{a} and {b} cannot be used together (one column per event)" },
	{ { ANN_STDIO }, { ANN_JSON }, 0, "{a} and {b} cannot be used together (one output)" },
};

struct annotate_args {
	const char *input;
	struct annotate_opts o;
	const char **syms;
	size_t nsyms;
};

static int add_symbol(struct annotate_args *a, const char *s)
{
	const char **v = realloc(a->syms, (a->nsyms + 1) * sizeof(*v));

	if (!v) {
		cmd_error("annotate", "out of memory");
		return -1;
	}
	a->syms = v;
	v[a->nsyms++] = s;
	return 0;
}

static int annotate_option(void *ctx, const struct cmd_opt *opt, char *arg)
{
	struct annotate_args *a = ctx;
	char *end;

	switch (opt->id) {
	case 'i': a->input = arg; break;
	case 's': return add_symbol(a, arg) ? EXIT_MPERF : 0;
	case 'd': a->o.dsos = arg; break;
	case 'n': a->o.show_nr_samples = true; break;
	case OPT_TOTAL: a->o.show_total_period = true; break;
	case OPT_PTYPE:
		if (annotate__percent_type(arg, &a->o.percent))
			return cmd_usage_error("annotate", "--percent-type: unknown type '%s' (local-period, "
					       "global-period, local-hits, global-hits)", arg);
		break;
	case 'M':
		if (strcmp(arg, "intel") && strcmp(arg, "att"))
			return cmd_usage_error("annotate", "-M: unknown style '%s' (att, intel)", arg);
		a->o.intel = !strcmp(arg, "intel");
		break;
	case OPT_RAW: a->o.asm_raw = true; break;
	case OPT_LIMIT:
		errno = 0;
		a->o.percent_limit = strtod(arg, &end);
		if (errno || end == arg || *end || a->o.percent_limit < 0 || a->o.percent_limit > 100)
			return cmd_usage_error("annotate", "--percent-limit: '%s' is not a percentage (0 to 100)", arg);
		break;
	case 'l': a->o.print_line = true; break;
	case OPT_SOURCE: a->o.no_source = false; break;
	case OPT_NO_SOURCE: a->o.no_source = true; break;
	case OPT_GROUP: a->o.group = true; break;
	case 'k':
	case OPT_KALLSYMS:
		if (cmd_kernel_file("annotate", opt->id == 'k' ? 'k' : 'L', arg))
			return EXIT_MPERF;
		*(opt->id == 'k' ? &a->o.vmlinux : &a->o.kallsyms) = arg;
		break;
	case 'q': cmd_set_quiet(); break;
	case 'v': cmd_set_verbose(); break;
	case OPT_STDIO: break;
	case OPT_JSON: a->o.json = true; break;
	case OPT_SYMFS: a->o.symfs = arg; break;
	}
	return 0;
}

static const struct cmd_options annotate_options = {
	.cmd = "annotate",
	.usage = annotate_usage,
	.help_col = 30,
	.opts = annotate_opts,
	.nr_opts = sizeof(annotate_opts) / sizeof(annotate_opts[0]),
	.conflicts = annotate_conflicts,
	.nr_conflicts = sizeof(annotate_conflicts) / sizeof(annotate_conflicts[0]),
	.set = annotate_option,
};

int cmd_annotate(int argc, char **argv)
{
	struct annotate_args a = { .input = "perf.data" };
	static char obuf[1 << 16];
	struct cmd_parse parse;
	const char *label;
	struct pdata *p;
	int ret;

	if ((ret = cmd_options_parse(&parse, &annotate_options, argc, argv, &a)) != CMD_OPTS_OK)
		goto out;
	for (; optind < argc; optind++)
		if (add_symbol(&a, argv[optind])) {
			ret = EXIT_MPERF;
			goto out;
		}
	if ((ret = cmd_options_conflicts(&parse)))
		goto out;
	a.o.symbols = a.syms;
	a.o.nr_symbols = a.nsyms;
	/* A closed reader of our stdout ends us through write errors, not SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	label = strcmp(a.input, "-") ? a.input : "stdin";
	if (!(p = pdata__open(a.input))) {
		ret = -errno;	/* said by the reader */
		goto out;
	}
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	ret = cmd_damaged(annotate__run(p, label, &a.o, stdout));
	pdata__close(p);
out:
	free(a.syms);
	return ret;
}
