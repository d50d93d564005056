// SPDX-License-Identifier: GPL-2.0-only
/* mperf buildid-list: options -> an ELF's id, the kernel's, or report__buildid_list -> exit status. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "../src/host/host.h"
#include "../src/perfdata/perfdata.h"
#include "../src/report/report.h"
#include "cmd.h"

/* The synopsis is the SYNOPSIS of man/mperf-buildid-list.1, word for word (t0020). */
static const char buildid_list_usage[] =
	"usage: mperf buildid-list [-i file] [-H | --with-hits]\n"
	"   or: mperf buildid-list -k | --kernel\n"
	"   or: mperf buildid-list -h\n"
	"\n"
	"    -i, --input FILE   input file (default: perf.data; '-' reads a pipe-mode stream from\n"
	"                       stdin); an ELF file: its own build id\n"
	"    -H, --with-hits    only the DSOs a sample fell in\n"
	"    -k, --kernel       the running kernel's build id\n"
	"    -h, --help         show this help\n";

int cmd_buildid_list(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "with-hits", no_argument, NULL, 'H' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = "perf.data";
	bool with_hits = false, kernel = false;
	unsigned char id[HOST_BUILD_ID_MAX];
	char hex[2 * HOST_BUILD_ID_MAX + 1];
	static char obuf[1 << 16];
	struct pdata *p;
	size_t n;
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:Hkh", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'H':
			with_hits = true;
			break;
		case 'k':
			kernel = true;
			break;
		case 'h':
			fputs(buildid_list_usage, stdout);
			return 0;
		default:
			return cmd_option_error("buildid-list", c, longopts, argv);
		}
	}
	if (optind < argc)
		return cmd_usage_error("buildid-list", "unexpected argument '%s' (the input is given with -i)", argv[optind]);
	signal(SIGPIPE, SIG_IGN);
	/* As perf: -k wins over the rest. */
	if (kernel) {
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
	ret = report__buildid_list(p, strcmp(input, "-") ? input : "stdin", with_hits, stdout);
	pdata__close(p);
	return ret;
}
