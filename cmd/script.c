// SPDX-License-Identifier: GPL-2.0-only
/* mperf script: options -> open the file -> report__script -> exit status. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "../src/perfdata/perfdata.h"
#include "../src/report/report.h"
#include "cmd.h"

static const char script_usage[] =
	"usage: mperf script [-i file] [-F fields]... [--header] [-k file | --kallsyms file]\n"
	"   or: mperf script -h\n"
	"\n"
	"    -i, --input FILE     input file (default: perf.data; '-' reads a pipe-mode stream from stdin)\n"
	"    -F, --fields FIELDS  the fields to print, as perf script takes them: [TYPE:]FIELD,...\n"
	"                         sets them (TYPE: hw, sw, trace, raw, break; all without one),\n"
	"                         +FIELD,... adds to perf's defaults, -FIELD,... takes away;\n"
	"                         FIELD: comm, tid, pid, time, cpu, event, trace, ip, sym,\n"
	"                         symoff, dso, period\n"
	"        --header         print the file's header and features first\n"
	"    -k, --vmlinux FILE   the kernel's symbols from this image (vmlinux), and no other\n"
	"                         (else as mperf report finds them: see mperf-report(1))\n"
	"        --kallsyms FILE  the kernel's symbols from this kallsyms file\n"
	"    -h, --help           show this help\n";

int cmd_script(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "fields", required_argument, NULL, 'F' },
		{ "header", no_argument, NULL, 'H' },
		{ "vmlinux", required_argument, NULL, 'k' },
		{ "kallsyms", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = "perf.data", *label;
	struct report_script_opts o;
	static char obuf[1 << 16];
	struct pdata *p;
	int c, ret;

	report__script_defaults(&o);
	while ((c = getopt_long(argc, argv, "i:F:k:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'F':
			if (report__script_fields(&o, optarg))
				return EXIT_USAGE;	/* said */
			break;
		case 'H':
			o.header = true;
			break;
		case 'k':
		case 'L':
			if (cmd_kernel_file("script", c, optarg))
				return EXIT_MPERF;
			*(c == 'k' ? &o.vmlinux : &o.kallsyms) = optarg;
			break;
		case 'h':
			fputs(script_usage, stdout);
			return 0;
		default:
			fputs(script_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		cmd_error("script", "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (o.vmlinux && o.kallsyms)
		return cmd_usage_error("script", "-k/--vmlinux and --kallsyms cannot be used together (one source of kernel symbols)");
	/* A closed reader of our stdout ends us through write errors, not SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	label = strcmp(input, "-") ? input : "stdin";
	p = pdata__open(input);
	if (!p)
		return -errno;	/* said by the reader */
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	ret = 0;
	if (o.header) {
		struct stat st;

		if (pdata__is_pipe(p)) {
			cmd_error("script", "--header needs a file-mode perf.data, not a pipe-mode stream");
			pdata__close(p);
			return EXIT_MPERF;
		}
		ret = report__header(p, label, stat(input, &st) == 0 ? st.st_mtime : 0, stdout);
	}
	if (ret >= 0)
		ret = cmd_damaged(report__script(p, label, &o, stdout));
	pdata__close(p);
	return ret;
}
