// SPDX-License-Identifier: GPL-2.0-only
/* mperf record: options -> record__run() -> summary and exit status. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "../src/lib/err.h"
#include "../src/record/record.h"
#include "cmd.h"

static const char record_usage[] =
	"usage: mperf record [-e LIST] [-F HZ | -c PERIOD] [-m PAGES] [-o FILE] [-q] [--] CMD [ARGS]\n"
	"\n"
	"    -e, --event LIST      events to sample, comma-separated (default: cycles)\n"
	"    -F, --freq HZ         sample at HZ samples per second (default: 4000)\n"
	"    -c, --count PERIOD    sample every PERIOD events (instead of -F)\n"
	"    -m, --mmap-pages N    data pages per CPU buffer, a power of two (default: 128)\n"
	"    -o, --output FILE     output file (default: perf.data; an old one becomes FILE.old)\n"
	"    -q, --quiet           print only errors (and the cycles fallback line)\n"
	"    -h, --help            show this help\n"
	"\n"
	"events: cycles instructions cache-references cache-misses branches branch-misses\n"
	"        bus-cycles ref-cycles stalled-cycles-frontend stalled-cycles-backend\n"
	"        cpu-clock task-clock page-faults (faults) minor-faults major-faults\n"
	"        context-switches (cs) cpu-migrations (migrations) alignment-faults\n"
	"        emulation-faults dummy\n";

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "mperf record: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%s", record_usage);
	return EXIT_USAGE;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	*v = strtoull(s, &end, 0);
	return *end ? -1 : 0;
}

int cmd_record(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "freq", required_argument, NULL, 'F' },
		{ "count", required_argument, NULL, 'c' },
		{ "mmap-pages", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct record_event events[RECORD_MAX_EVENTS];
	struct record_opts o = {
		.freq = RECORD_DEFAULT_FREQ,
		.mmap_pages = RECORD_DEFAULT_PAGES,
		.output = "perf.data",
		.cmd_argc = argc,
		.cmd_argv = argv,
	};
	struct record_result *res;
	const char *list = "cycles";
	bool quiet = false, have_F = false, have_c = false;
	char bad[80];
	uint64_t v;
	int c, n, ret;

	/* '+': options stop at the workload's name. */
	while ((c = getopt_long(argc, argv, "+e:F:c:m:o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			list = optarg;
			break;
		case 'F':
			if (parse_u64(optarg, &v) || !v)
				return usage_error("invalid frequency '%s'", optarg);
			o.freq = v;
			have_F = true;
			break;
		case 'c':
			if (parse_u64(optarg, &v) || !v)
				return usage_error("invalid period '%s'", optarg);
			o.period = v;
			o.freq = 0;
			have_c = true;
			break;
		case 'm':
			if (parse_u64(optarg, &v) || !v || (v & (v - 1)) || v > (1u << 20))
				return usage_error("-m needs a power of two number of pages, not '%s'", optarg);
			o.mmap_pages = (size_t)v;
			break;
		case 'o':
			o.output = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			fputs(record_usage, stdout);
			return 0;
		default:
			fputs(record_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (have_F && have_c)
		return usage_error("%s", "-F and -c cannot be used together");
	if (optind >= argc)
		return usage_error("%s", "no command given to run");
	if (!strcmp(o.output, "-"))
		return usage_error("%s", "writing to standard output (-o -) is not supported yet");
	n = record__parse_events(list, events, RECORD_MAX_EVENTS, bad, sizeof(bad));
	if (n == -MPERF_ERR_NOEVENT)
		return usage_error("unknown event '%s'", bad);
	if (n < 0)
		return usage_error("too many events in '%s'", list);
	o.events = events;
	o.nr_events = (size_t)n;
	o.argv = argv + optind;
	if (quiet)
		cmd_set_quiet();

	res = calloc(1, sizeof(*res));
	if (!res) {
		cmd_error("record", "out of memory");
		return 1;
	}
	ret = record__run(&o, res);
	if (ret < 0) {
		/* Said by record__run; the shell's codes when the command could not be run. */
		ret = res->exec_errno ? (res->exec_errno == ENOENT ? 127 : 126) : 1;
		free(res);
		return ret;
	}
	if (!quiet) {
		fprintf(stderr, "[ mperf record: Woken up %llu times to write data ]\n",
			(unsigned long long)res->wakeups);
		fprintf(stderr, "[ mperf record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
			(double)res->file_size / 1024.0 / 1024.0, o.output,
			(unsigned long long)res->samples);
	}
	/* Losses and per-event counts are shown whenever they could hide a problem. */
	for (size_t i = 0; i < res->nr_events; i++) {
		if (res->ev[i].lost || (!quiet && res->nr_events > 1))
			fprintf(stderr, "[ mperf record: event '%s': %llu samples, %llu lost ]\n",
				res->ev[i].name, (unsigned long long)res->ev[i].samples,
				(unsigned long long)res->ev[i].lost);
	}
	if (res->lost_records)
		fprintf(stderr, "[ mperf record: %llu LOST records: %llu events lost, buffer too small? (try -m) ]\n",
			(unsigned long long)res->lost_records, (unsigned long long)res->lost_events);
	if (WIFEXITED(res->wait_status))
		ret = WEXITSTATUS(res->wait_status);
	else if (WIFSIGNALED(res->wait_status))
		ret = 128 + WTERMSIG(res->wait_status);
	else
		ret = 1;
	free(res);
	return ret;
}
