// SPDX-License-Identifier: GPL-2.0-only
/* mperf record: options -> record__run() -> summary and exit status. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "../src/record/record.h"
#include "cmd.h"

static const char record_usage[] =
	"usage: mperf record [-e LIST]... [-F HZ | -c PERIOD] [-m PAGES] [-o FILE] [-q] [--] CMD [ARGS]\n"
	"\n"
	"    -e, --event LIST      events to sample, comma-separated; -e may be repeated\n"
	"                          (default: cycles); see EVENTS below\n"
	"    -F, --freq HZ         sample at HZ samples per second (default: 4000)\n"
	"    -c, --count PERIOD    sample every PERIOD events (instead of -F)\n"
	"    -m, --mmap-pages N    data pages per CPU buffer, a power of two (default: 128)\n"
	"    -o, --output FILE     output file (default: perf.data; an old one becomes FILE.old)\n"
	"    -q, --quiet           print only errors (and the cycles fallback line)\n"
	"    -h, --help            show this help\n"
	"\n"
	"EVENTS (perf's syntax; mperf record -e accepts what perf record -e does, except groups)\n"
	"    NAME[:MODS]           cycles instructions cache-references cache-misses branches\n"
	"                          branch-misses bus-cycles ref-cycles stalled-cycles-frontend\n"
	"                          stalled-cycles-backend cpu-clock task-clock page-faults (faults)\n"
	"                          minor-faults major-faults context-switches (cs) cpu-migrations\n"
	"                          (migrations) alignment-faults emulation-faults dummy bpf-output\n"
	"                          cgroup-switches; cache events like L1-dcache-load-misses\n"
	"    rHEX[:MODS]           raw PMU config, e.g. r1a8\n"
	"    PMU/TERMS/[MODS]      a PMU of /sys/bus/event_source/devices, e.g. software/config=0/;\n"
	"                          TERMS: config=, config1=, config2=, period=, freq=, name=, the\n"
	"                          PMU's format/ fields and events/ aliases\n"
	"    mem:ADDR[/LEN][:rwx][:MODS]  a hardware breakpoint\n"
	"    SYS:NAME[:MODS]       a tracepoint (tracefs mounted); globs: 'sched:*'\n"
	"    {EV,EV,...}[:MODS]    a group (parsed; recording one is not supported yet)\n"
	"    MODS: u user, k kernel, h hypervisor, G guest, H host, I no idle, p/pp/ppp precise,\n"
	"          P max precise, S sample read (not supported yet), D pinned, e exclusive\n";

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
	size_t nr_events = 0;
	bool quiet = false, have_F = false, have_c = false;
	uint64_t v;
	int c, ret;

	/* '+': options stop at the workload's name. */
	while ((c = getopt_long(argc, argv, "+e:F:c:m:o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			/* Each -e adds its events; the parser says what is wrong in one line. */
			if (record__parse_events(optarg, events, RECORD_MAX_EVENTS, &nr_events) < 0) {
				fputs(record_usage, stderr);
				return EXIT_USAGE;
			}
			break;
		case 'F':
			if (parse_u64(optarg, &v) || !v)
				return usage_error("invalid frequency '%s'", optarg);
			o.freq = v;
			o.rate_given = true;
			have_F = true;
			break;
		case 'c':
			if (parse_u64(optarg, &v) || !v)
				return usage_error("invalid period '%s'", optarg);
			o.period = v;
			o.freq = 0;
			o.rate_given = true;
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
	if (!nr_events && record__parse_events("cycles", events, RECORD_MAX_EVENTS, &nr_events) < 0)
		return 1;
	o.events = events;
	o.nr_events = nr_events;
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
