// SPDX-License-Identifier: GPL-2.0-only
/* mperf archive: the file -> report__archive -> what to run on the other machine. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../src/host/host.h"
#include "../src/perfdata/perfdata.h"
#include "../src/report/report.h"
#include "cmd.h"
#include "options.h"

/* The synopsis is the SYNOPSIS of man/mperf-archive.1, word for word (t0020). */
static const char archive_usage[] =
	"usage: mperf archive [file]\n"
	"   or: mperf archive -h\n"
	"\n"
	"    file        the recording (default: perf.data); the tarball is file.tar.bz2\n"
	"                (file.tar.gz without bzip2), of the build-id cache entries in\n"
	"                ~/.debug of the DSOs its samples fell in, made first from this\n"
	"                machine's files where missing\n";

static const struct cmd_opt archive_opts[] = {
	{ 'h', 'h', "help", CMD_ARG_NONE, NULL, "show this help" },
};

static const struct cmd_options archive_options = {
	.cmd = "archive",
	.usage = archive_usage,
	.help_col = 16,
	.opts = archive_opts,
	.nr_opts = sizeof(archive_opts) / sizeof(archive_opts[0]),
};

int cmd_archive(int argc, char **argv)
{
	const char *input = "perf.data";
	struct report_archive res;
	char debugdir[4096];
	struct cmd_parse parse;
	struct pdata *p;
	int ret;

	if ((ret = cmd_options_parse(&parse, &archive_options, argc, argv, NULL)) != CMD_OPTS_OK)
		return ret;
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
		return cmd_damaged(ret);
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
