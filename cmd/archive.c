// SPDX-License-Identifier: GPL-2.0-only
/* mperf archive: the file -> report__archive -> what to run on the other machine. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../src/host/host.h"
#include "../src/perfdata/perfdata.h"
#include "../src/report/report.h"
#include "cmd.h"

/* The synopsis is the SYNOPSIS of man/mperf-archive.1, word for word (t0020). */
static const char archive_usage[] =
	"usage: mperf archive [file]\n"
	"   or: mperf archive -h\n"
	"\n"
	"    file        the recording (default: perf.data); the tarball is file.tar.bz2\n"
	"                (file.tar.gz without bzip2), of the build-id cache entries in\n"
	"                ~/.debug of the DSOs its samples fell in, made first from this\n"
	"                machine's files where missing\n"
	"    -h, --help  show this help\n";

int cmd_archive(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = "perf.data";
	struct report_archive res;
	char debugdir[4096];
	struct pdata *p;
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(archive_usage, stdout);
			return 0;
		default:
			return cmd_option_error("archive", c, longopts, argv);
		}
	}
	if (optind < argc)
		input = argv[optind++];
	if (optind < argc)
		return cmd_usage_error("archive", "unexpected argument '%s' (one recording at a time)", argv[optind]);
	if (!strcmp(input, "-"))
		return cmd_usage_error("archive", "the recording must be a file: the tarball is named after it");
	if ((ret = host_bidcache_dir(debugdir, sizeof(debugdir)))) {
		cmd_error("archive", ret == -ENOENT ? "HOME is not set: the build-id cache is $HOME/.debug" : "HOME is too long");
		return EXIT_MPERF;
	}
	/* tar's end of our pipe, if it stops reading, is an error said once, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	p = pdata__open(input);
	if (!p)
		return -errno;	/* said by the reader */
	ret = report__archive(p, input, debugdir, input, &res);
	pdata__close(p);
	if (ret < 0)
		return ret;
	if (!res.archived) {
		/* As perf archive: nothing to pack is a failure. */
		cmd_error("archive", "no build-ids found");
		return 1;
	}
	fprintf(stderr, "mperf archive: %zu DSO%s in '%s'", res.archived, res.archived == 1 ? "" : "s", res.output);
	if (res.added)
		fprintf(stderr, " (%zu added to %s first)", res.added, debugdir);
	if (res.missing)
		fprintf(stderr, ", %zu left out", res.missing);
	fprintf(stderr, "\nNow please run:\n\n$ tar xvf %s -C ~/.debug\n\n"
		"wherever you need to run 'mperf report' on.\n", res.output);
	return 0;
}
