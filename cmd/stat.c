// SPDX-License-Identifier: GPL-2.0-only
/* mperf stat: options -> record__count() per run -> stat__print() -> exit status. */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "../src/lib/err.h"
#include "../src/record/record.h"
#include "../src/stat/stat.h"
#include "cmd.h"

/* perf stat's default events (those this machine lacks print <not supported>, as in perf). */
#define STAT_DEFAULT_EVENTS \
	"task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,branch-misses"

static const char stat_usage[] =
	"usage: mperf stat [-e list]... [-r n] [-x sep | --json] [-o file] [-q] [--] cmd [args]\n"
	"   or: mperf stat [-e list]... [options] {-p pid | -t tid | -a | -C cpus} [[--] cmd [args]]\n"
	"   or: mperf stat -h\n"
	"\n"
	"    -e, --event LIST      events to count, comma-separated, in record's syntax; -e may be\n"
	"                          repeated (default: perf stat's: " STAT_DEFAULT_EVENTS ")\n"
	"    -r, --repeat N        run CMD N times: the mean of each count and its +- noise\n"
	"    -x, --field-separator SEP  perf stat -x's fields, separated by SEP, one line per event\n"
	"        --json            one JSON document (schema in mperf-stat(1))\n"
	"    -o, --output FILE     write the counts to FILE (default: standard error, as perf)\n"
	"        --check           exit 3 when an event ran less than it was enabled (multiplexed),\n"
	"                          or counted more than the tolerance below a like event\n"
	"        --check-tolerance PCT  how far like events may differ (default: 5)\n"
	"    -p, --pid PID[,PID]   count running processes, all their threads (until they exit,\n"
	"                          CMD ends, or SIGINT/SIGTERM)\n"
	"    -t, --tid TID[,TID]   count running threads only (implies --no-inherit)\n"
	"    -a, --all-cpus        count every task on every CPU\n"
	"    -C, --cpu CPUS        count every task on these CPUs (0-1,3)\n"
	"        --no-inherit      do not count the workload's children\n"
	"    -q, --quiet           print only errors\n"
	"    -v, --verbose         also print each perf_event_open\n"
	"    -h, --help            show this help\n";

/* One line and a hint, never the whole usage (as record's and report's). */
#define usage_error(...) cmd_usage_error("stat", __VA_ARGS__)

/* The exit status of the workload's last run, as record gives it. */
static int workload_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_MPERF;
}

/* --check on the counts: multiplexed events, like events that counted apart. */
static int check_runs(const struct stat_runs *s, double tolerance)
{
	struct check_event ev[RECORD_MAX_EVENTS];

	for (size_t i = 0; i < s->nr_events; i++) {
		const struct stat_event *e = &s->ev[i];

		ev[i] = (struct check_event){ .attr = e->attr, .counting = true, .value = (uint64_t)e->val.mean,
					      .has_times = e->supported, .ena = (uint64_t)e->ena.mean,
					      .run = (uint64_t)e->run.mean };
		snprintf(ev[i].name, sizeof(ev[i].name), "%s", e->name);
	}
	return stat__check(ev, s->nr_events, tolerance);
}

int cmd_stat(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'J' },
		{ "output", required_argument, NULL, 'o' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "no-inherit", no_argument, NULL, 'i' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "check", no_argument, NULL, 'K' },
		{ "check-tolerance", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct record_event events[RECORD_MAX_EVENTS];
	double tolerance = STAT_CHECK_TOLERANCE;
	bool check = false;
	struct count_opts o = { 0 };
	struct stat_print_opts po = { .format = STAT_TEXT, .sep = "," };
	struct count_result *res;
	struct stat_runs *runs;
	size_t nr_events = 0;
	const char *output = NULL;
	bool quiet = false, verbose = false;
	char subject[1024];
	long repeat = 1;
	FILE *out = stderr;
	int c, ret = 0;

	/* '+': options stop at the workload's name; ':': a missing value is ours to say. */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:e:r:x:o:p:t:C:aqvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'e': {
			size_t first = nr_events;

			ret = record__parse_events(optarg, events, RECORD_MAX_EVENTS, &nr_events);
			if (ret < 0) {
				/* Said by the parser in one line; then where to look. */
				if (ret == -MPERF_ERR_NOEVENT || ret == -ENOENT)
					fputs("hint: see 'mperf list' for the events of this machine\n", stderr);
				else
					cmd_hint("stat");
				return EXIT_USAGE;
			}
			/* Counting samples nothing: perf stat refuses record's call graph terms. */
			for (size_t i = first; i < nr_events; i++)
				if (events[i].cg_term)
					return usage_error("'%s' is not usable in mperf stat (in -e '%s')",
							   events[i].cg_term, optarg);
			ret = 0;
			break;
		}
		case 'r': {
			char *end;

			errno = 0;
			repeat = strtol(optarg, &end, 10);
			if (*end || errno || repeat < 1 || repeat > 1000000)
				return usage_error("invalid repeat count '%s'", optarg);
			break;
		}
		case 'x':
			po.format = STAT_CSV;
			po.sep = optarg;
			break;
		case 'J':
			po.format = STAT_JSON;
			break;
		case 'o':
			output = optarg;
			break;
		case 'p':
			o.pids = optarg;
			break;
		case 't':
			o.tids = optarg;
			break;
		case 'a':
			o.system_wide = true;
			break;
		case 'C':
			o.cpu_list = optarg;
			break;
		case 'i':
			o.no_inherit = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'K':
			check = true;
			break;
		case 'k':
			if (cmd_parse_tolerance(optarg, &tolerance))
				return usage_error("invalid --check-tolerance '%s' (a percentage, 0 to 100)", optarg);
			break;
		case 'h':
			fputs(stat_usage, stdout);
			return 0;
		default:
			return cmd_option_error("stat", c, longopts, argv);
		}
	}
	if (optind >= argc && !o.pids && !o.tids && !o.system_wide && !o.cpu_list)
		return usage_error("%s", "no command given to run, and no target (-p, -t, -a, -C) to count");
	if (repeat > 1 && optind >= argc)
		return usage_error("%s", "-r needs a command to repeat");
	if (!nr_events && record__parse_events(STAT_DEFAULT_EVENTS, events, RECORD_MAX_EVENTS, &nr_events) < 0)
		return EXIT_MPERF;
	o.events = events;
	o.nr_events = nr_events;
	o.argv = optind < argc ? argv + optind : NULL;
	if (quiet)
		cmd_set_quiet();
	else if (verbose)
		cmd_set_verbose();
	/* As perf: counts in the user's locale (thousands grouped), -x and --json as C. */
	if (po.format == STAT_TEXT)
		setlocale(LC_NUMERIC, "");
	stat__subject(subject, sizeof(subject), &o);
	po.subject = subject;

	res = calloc(1, sizeof(*res));
	runs = calloc(1, sizeof(*runs));
	if (!res || !runs) {
		free(res);
		free(runs);
		cmd_error("stat", "out of memory");
		return -ENOMEM;
	}
	for (long r = 0; r < repeat; r++) {
		ret = record__count(&o, res);
		if (ret < 0) {
			/* Said by record__count; the shell's codes when the command could not be run. */
			if (res->exec_errno)
				ret = res->exec_errno == ENOENT ? 127 : 126;
			goto out;
		}
		stat_runs__add(runs, res);
		if (res->stop_signal)
			break;
	}
	if (output && !(out = fopen(output, "w"))) {
		cmd_error("stat", "cannot open '%s': %s", output, strerror(errno));
		ret = -errno;
		goto out;
	}
	if (stat__print(out, runs, &po) < 0) {
		cmd_error("stat", "cannot write '%s': %s", output ? output : "standard error", strerror(errno));
		ret = -EIO;
	} else if (res->stop_signal) {
		/* Stopped by a signal: the counts are out; end as the signal would, as perf does. */
		int sig = res->stop_signal;

		if (out != stderr)
			fclose(out);
		free(res);
		free(runs);
		fflush(stdout);
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	} else {
		ret = runs->has_workload || o.argv ? workload_status(res->wait_status) : 0;
		/* A failed check fails the job, unless the workload's own failure says more. */
		if (check && check_runs(runs, tolerance) && !ret)
			ret = STAT_EXIT_CHECK;
	}
	if (out != stderr && fclose(out) && ret >= 0) {
		cmd_error("stat", "cannot write '%s': %s", output, strerror(errno));
		ret = -EIO;
	}
out:
	free(res);
	free(runs);
	return ret;
}
