// SPDX-License-Identifier: GPL-2.0-only
/* mperf script: options -> open the file -> report__script -> exit status. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../src/annotate/annotate.h"
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
	"                    [-C cpus] [--time ranges] [--comms list] [--pid list] [--tid list]\n"
	"                    [-S list] [--ns] [--reltime | --deltatime] [-G] [--max-stack n]\n"
	"                    [--show-task-events] [--show-mmap-events] [--show-lost-events]\n"
	"                    [--show-switch-events] [--show-round-events] [-L] [--no-inline] [-f]\n"
	"   or: mperf script -h\n"
	"\n";

enum { SCRIPT_VMLINUX = 1 << 0, SCRIPT_KALLSYMS = 1 << 1, SCRIPT_RELTIME = 1 << 2, SCRIPT_DELTATIME = 1 << 3 };

static const struct cmd_opt script_opts[] = {
	{ 'i', 'i', "input", CMD_ARG_REQUIRED, "FILE",
	  "input file (default: perf.data, or stdin when it is a pipe;\n"
	  "'-' reads a pipe-mode stream from stdin)" },
	{ 'F', 'F', "fields", CMD_ARG_REQUIRED, "FIELDS",
	  "the fields to print, as perf script takes them: [TYPE:]FIELD,...\n"
	  "sets them (TYPE: hw, sw, trace, raw, break; all without one),\n"
	  "+FIELD,... adds to perf's defaults, -FIELD,... takes away;\n"
	  "FIELD: comm, tid, pid, time, cpu, event, trace, ip, sym,\n"
	  "symoff, dso, period, srcline, misc, insn, insnlen, flags,\n"
	  "ipc, callindent" },
	{ 'H', 0, "header", CMD_ARG_NONE, NULL, "print the file's header and features first" },
	{ 'k', 'k', "vmlinux", CMD_ARG_REQUIRED, "FILE",
	  "the kernel's symbols from this image (vmlinux), and no other\n"
	  "(else as mperf report finds them: see mperf-report(1))", NULL, SCRIPT_VMLINUX },
	{ 'L', 0, "kallsyms", CMD_ARG_REQUIRED, "FILE", "the kernel's symbols from this kallsyms file", NULL,
	  SCRIPT_KALLSYMS },
	{ 'C', 'C', "cpu", CMD_ARG_REQUIRED, "CPUS", "only the samples of these CPUs (0,2-3)" },
	{ 'T', 0, "time", CMD_ARG_REQUIRED, "RANGES",
	  "only the samples in these times, as perf: start,stop in seconds\n"
	  "(several separated by spaces; with --reltime from the first\n"
	  "sample), or percent slices: 10%/2, 0%-10%,30%-40%, 25%" },
	{ 'c', 0, "comms", CMD_ARG_REQUIRED, "C", "only these commands (comma-separated)" },
	{ 'p', 0, "pid", CMD_ARG_REQUIRED, "PIDS", "only these processes (comma-separated)" },
	{ 't', 0, "tid", CMD_ARG_REQUIRED, "TIDS", "only these threads (comma-separated)" },
	{ 'S', 'S', "symbols", CMD_ARG_REQUIRED, "S", "only the samples in these symbols, by name" },
	{ 'n', 0, "ns", CMD_ARG_NONE, NULL, "the time in nanoseconds" },
	{ 'r', 0, "reltime", CMD_ARG_NONE, NULL, "the time from the first sample shown", NULL, SCRIPT_RELTIME },
	{ 'd', 0, "deltatime", CMD_ARG_NONE, NULL, "the time from the previous sample shown", NULL, SCRIPT_DELTATIME },
	{ 'G', 'G', "hide-call-graph", CMD_ARG_NONE, NULL, "no call chains: each sample on one line" },
	{ 'M', 0, "max-stack", CMD_ARG_REQUIRED, "N", "print N frames of each chain at most (default: 127)" },
	{ 'A', 0, "show-task-events", CMD_ARG_NONE, NULL, "the COMM, FORK and EXIT records too" },
	{ 'B', 0, "show-mmap-events", CMD_ARG_NONE, NULL, "the MMAP and MMAP2 records too" },
	{ 'D', 0, "show-lost-events", CMD_ARG_NONE, NULL, "the LOST records too" },
	{ 'W', 0, "show-switch-events", CMD_ARG_NONE, NULL, "the SWITCH and SWITCH_CPU_WIDE records too" },
	{ 'R', 0, "show-round-events", CMD_ARG_NONE, NULL,
	  "the FINISHED_ROUND records too, every record then in the\n"
	  "file's order (perf's, which orders none then)" },
	{ 'y', 'L', "Latency", CMD_ARG_NONE, NULL,
	  "perf's latency format: the command in 8 columns (cut there),\n"
	  "the CPU as a number in 3" },
	{ 'I', 0, "inline", CMD_ARG_NONE, NULL,
	  "perf's inline frames in the chains libdw unwinds (--call-graph\n"
	  "dwarf), marked (inlined): the default" },
	{ 'N', 0, "no-inline", CMD_ARG_NONE, NULL, "the chains without them" },
	{ 'f', 'f', "force", CMD_ARG_NONE, NULL, "accepted as perf takes it (mperf reads files of any owner)" },
	{ 'm', 0, "demangle", CMD_ARG_NONE, NULL, "accepted as perf takes it: C++ names are demangled (the default)" },
	{ 'h', 'h', "help", CMD_ARG_NONE, NULL, "show this help" },
};

static const struct cmd_conflict script_conflicts[] = {
	{ { SCRIPT_VMLINUX }, { SCRIPT_KALLSYMS }, 0,
	  "-k/--vmlinux and --kallsyms cannot be used together (one source of kernel symbols)" },
	{ { SCRIPT_RELTIME }, { SCRIPT_DELTATIME }, 0,
	  "--reltime and --deltatime cannot be used together, as in perf (one origin for the time)" },
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
	case 'C':
		a->o.filter.cpu_list = arg;
		break;
	case 'T':
		a->o.filter.time = arg;
		break;
	case 'c':
		a->o.comm = arg;
		break;
	case 'p':
	case 't':
		if (!cmd_id_list(arg))
			return cmd_usage_error("script", "invalid %s list '%s' (comma-separated ids)",
					       opt->id == 'p' ? "--pid" : "--tid", arg);
		*(opt->id == 'p' ? &a->o.pid : &a->o.tid) = arg;
		break;
	case 'S':
		a->o.sym = arg;
		break;
	case 'n':
		a->o.ns = true;
		break;
	case 'r':
		a->o.reltime = a->o.filter.reltime = true;
		break;
	case 'd':
		a->o.deltatime = true;
		break;
	case 'G':
		a->o.hide_call_graph = true;
		break;
	case 'A':
		a->o.show_task = true;
		break;
	case 'B':
		a->o.show_mmap = true;
		break;
	case 'D':
		a->o.show_lost = true;
		break;
	case 'W':
		a->o.show_switch = true;
		break;
	case 'R':
		a->o.show_round = true;
		break;
	case 'y':
		a->o.latency = true;
		break;
	case 'I':
	case 'N':
		a->o.no_inline = opt->id == 'N';
		break;
	case 'f':
	case 'm':
		break;	/* perf's: mperf reads any file, and demangles */
	case 'M': {
		char *end;
		unsigned long n;

		errno = 0;
		n = strtoul(arg, &end, 10);
		if (end == arg || *end || errno || !n || arg[0] == '-')
			return cmd_usage_error("script", "invalid --max-stack '%s' (a number of frames, 1 or more)", arg);
		a->o.max_stack = n > 127 ? 127 : (unsigned)n;
		break;
	}
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

/* -F insn or insnlen, for some type: the instructions' lengths come from annotate's disassembler. */
static bool wants_insn(const struct report_script_opts *o)
{
	for (int t = 0; t < SCRIPT_NR_TYPES; t++)
		if (o->type[t].fields & (SCRIPT_F_INSN | SCRIPT_F_INSNLEN))
			return true;
	return false;
}

static unsigned insn_length(void *ctx, const uint8_t *code, size_t len)
{
	return annotate_insn__length(ctx, code, len);
}

int cmd_script(int argc, char **argv)
{
	struct script_args a = { .input = cmd_default_input() };
	struct report_script_opts *o = &a.o;
	const char *input, *label;
	static char obuf[1 << 16];
	struct annotate_insn *insn = NULL;
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
	cmd_pager_start();
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
	if (ret >= 0 && wants_insn(o) && (insn = annotate_insn__new())) {
		o->insn_length = insn_length;
		o->insn_ctx = insn;
	}
	if (ret >= 0)
		ret = cmd_damaged(report__script(p, label, o, stdout));
	annotate_insn__free(insn);
	pdata__close(p);
	return ret;
}
