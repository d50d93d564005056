// SPDX-License-Identifier: GPL-2.0-only
/* mperf stat: options -> record__count() per run -> stat__print() -> exit status. */
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "../src/lib/alloc.h"
#include "../src/host/host.h"
#include "../src/lib/err.h"
#include "../src/record/record.h"
#include "../src/stat/stat.h"
#include "cmd.h"
#include "options.h"

/* perf stat's default events (those this machine lacks print <not supported>, as in perf). */
#define STAT_DEFAULT_EVENTS \
	"task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,branch-misses"

/* What -d, -dd and -ddd add after the events, as perf's detailed runs (a level each). */
static const char *const stat_detailed_events[] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	"L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,iTLB-loads,iTLB-load-misses",
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

/*
 * The synopsis (up to the first blank line) is the SYNOPSIS of
 * man/mperf-stat.1, word for word (t0020 compares them).
 */
static const char stat_usage[] =
	"usage: mperf stat [-e list]... [-r n] [-x sep | -j | --mperf-json] [-o file] [-q] [--] cmd [args]\n"
	"   or: mperf stat [-e list]... -I ms [--interval-count n] [--summary] [-x sep | -j] [--] cmd [args]\n"
	"   or: mperf stat [-e list]... {-A | --per-core | --per-socket | --per-die | --per-node} {-a | -C cpus} [[--] cmd [args]]\n"
	"   or: mperf stat [-e list]... --per-thread {-p pid | -t tid} [[--] cmd [args]]\n"
	"   or: mperf stat [-e list]... -r n --baseline file [--check] [--alpha p] [--] cmd [args]\n"
	"   or: mperf stat [-e list]... -r n --baseline-cmd cmd0 [--warmup n] [--check] [--] cmd [args]\n"
	"   or: mperf stat [-e list]... [options] {-p pid | -t tid | -a | -C cpus} [[--] cmd [args]]\n"
	"   or: mperf stat -h\n"
	"\n";

/* The ids of the options with no letter of their own. */
enum {
	OPT_INTERVAL_COUNT = 1000, OPT_SUMMARY, OPT_TIMEOUT, OPT_PER_CORE, OPT_PER_SOCKET, OPT_PER_DIE, OPT_PER_NODE,
	OPT_PER_THREAD, OPT_BIG_NUM, OPT_NO_BIG_NUM, OPT_BASELINE, OPT_ALPHA, OPT_TABLE, OPT_METRIC_ONLY,
};

static const struct cmd_opt stat_opts[] = {
	{ 'e', 'e', "event", CMD_ARG_REQUIRED, "LIST",
	  "events to count, comma-separated, in record's syntax; -e may be\n"
	  "repeated (default: perf stat's: " STAT_DEFAULT_EVENTS ")" },
	{ 'd', 'd', "detailed", CMD_ARG_NONE, NULL,
	  "also count the cache events, as perf: -d L1-dcache and LLC\n"
	  "loads and misses, -dd L1-icache and TLB ones too, -ddd prefetches" },
	{ 'r', 'r', "repeat", CMD_ARG_REQUIRED, "N",
	  "run CMD N times: the mean of each count and its +- noise; a run\n"
	  "that fails (exits non-zero, or killed) ends them, and its status\n"
	  "is stat's: the counts are of the runs before it" },
	{ 'x', 'x', "field-separator", CMD_ARG_REQUIRED, "SEP", "perf stat -x's fields, separated by SEP, one line per event" },
	{ 'j', 'j', "json-output", CMD_ARG_NONE, NULL, "perf stat -j's JSON lines, one per event (--json is it too)" },
	{ 'J', 0, "mperf-json", CMD_ARG_NONE, NULL,
	  "mperf's own JSON document, every run's values (schema in\n"
	  "mperf-stat(1)): what --baseline reads" },
	{ 'I', 'I', "interval-print", CMD_ARG_REQUIRED, "MS", "print the counts of every MS milliseconds (10 or more)" },
	{ OPT_INTERVAL_COUNT, 0, "interval-count", CMD_ARG_REQUIRED, "N", "with -I: stop after N intervals" },
	{ OPT_SUMMARY, 0, "summary", CMD_ARG_NONE, NULL, "with -I: the totals after the intervals" },
	{ 'D', 'D', "delay", CMD_ARG_REQUIRED, "MS",
	  "enable the events MS milliseconds after the command starts\n"
	  "(-1: disabled until a --control command enables them)" },
	{ 'L', 0, "control", CMD_ARG_REQUIRED, "SPEC",
	  "fifo:CTL[,ACK] or fd:CTL[,ACK]: take commands from CTL, one\n"
	  "a line: enable, disable [EVENT], evlist, ping (stop and\n"
	  "snapshot do nothing, as perf stat); each acknowledged on ACK" },
	{ OPT_METRIC_ONLY, 0, "metric-only", CMD_ARG_NONE, NULL,
	  "the \"#\" figures alone, a column each, as perf (one run, not\n"
	  "per CPU)" },
	{ OPT_TABLE, 0, "table", CMD_ARG_NONE, NULL, "with -r: each run's elapsed time, as perf's table" },
	{ OPT_TIMEOUT, 0, "timeout", CMD_ARG_REQUIRED, "MS", "stop the workload (SIGTERM) after MS milliseconds, and count" },
	{ 'A', 'A', "no-aggr", CMD_ARG_NONE, NULL, "with -a or -C: each CPU's counts" },
	{ OPT_PER_CORE, 0, "per-core", CMD_ARG_NONE, NULL, "with -a or -C: each core's counts" },
	{ OPT_PER_SOCKET, 0, "per-socket", CMD_ARG_NONE, NULL, "with -a or -C: each socket's counts" },
	{ OPT_PER_DIE, 0, "per-die", CMD_ARG_NONE, NULL, "with -a or -C: each die's counts" },
	{ OPT_PER_NODE, 0, "per-node", CMD_ARG_NONE, NULL, "with -a or -C: each NUMA node's counts" },
	{ OPT_PER_THREAD, 0, "per-thread", CMD_ARG_NONE, NULL, "with -p or -t: each thread's counts" },
	{ 'n', 'n', "null", CMD_ARG_NONE, NULL, "count no events: the elapsed time only" },
	{ OPT_BIG_NUM, 'B', "big-num", CMD_ARG_NONE, NULL, "group the digits of the counts as the locale does (the default)" },
	{ OPT_NO_BIG_NUM, 0, "no-big-num", CMD_ARG_NONE, NULL, "do not group the digits of the counts" },
	{ 'o', 'o', "output", CMD_ARG_REQUIRED, "FILE", "write the counts to FILE (default: standard error, as perf)" },
	{ 'K', 0, "check", CMD_ARG_NONE, NULL,
	  "exit 3 when an event ran less than it was enabled (multiplexed),\n"
	  "or counted more than the tolerance below a like event (the\n"
	  "workload's own failure wins: see --check-status)" },
	{ 'k', 0, "check-tolerance", CMD_ARG_REQUIRED, "PCT",
	  "how far like events may differ, and how far the runs may shift\n"
	  "from --baseline's (default: 5)" },
	{ 'Z', 0, "check-status", CMD_ARG_REQUIRED, "N",
	  "exit N (1 to 124) when the check fails, instead of 3: one the\n"
	  "workload never exits with, to tell the two apart" },
	{ OPT_BASELINE, 0, "baseline", CMD_ARG_REQUIRED, "FILE",
	  "compare each event with FILE, a previous stat --mperf-json -r N:\n"
	  "the shift (Hodges-Lehmann), the change of the mean, its 95%\n"
	  "interval and a two-sided Mann-Whitney U p-value; --check fails\n"
	  "on a shift beyond the tolerance at p below --alpha" },
	{ 'b', 0, "baseline-cmd", CMD_ARG_REQUIRED, "CMD",
	  "as --baseline, the baseline counted here: CMD (split at spaces,\n"
	  "no shell) and the command run alternately, in pairs whose order\n"
	  "alternates (ABBA)" },
	{ 'W', 0, "warmup", CMD_ARG_REQUIRED, "N",
	  "first run each command N times, alternately, uncounted" },
	{ OPT_ALPHA, 0, "alpha", CMD_ARG_REQUIRED, "P", "the significance level of --baseline's test (default: 0.05)" },
	{ 'p', 'p', "pid", CMD_ARG_REQUIRED, "PID[,PID]",
	  "count running processes, all their threads (until they exit,\n"
	  "CMD ends, or SIGINT/SIGTERM)" },
	{ 't', 't', "tid", CMD_ARG_REQUIRED, "TID[,TID]", "count running threads only (implies --no-inherit)" },
	{ 'a', 'a', "all-cpus", CMD_ARG_NONE, NULL, "count every task on every CPU" },
	{ 'C', 'C', "cpu", CMD_ARG_REQUIRED, "CPUS", "count every task on these CPUs (0-1,3)" },
	{ 'i', 0, "no-inherit", CMD_ARG_NONE, NULL, "do not count the workload's children" },
	{ 'q', 'q', "quiet", CMD_ARG_NONE, NULL, "print only the counts, errors and the check's findings" },
	{ 'v', 'v', "verbose", CMD_ARG_NONE, NULL, "also print each perf_event_open" },
	{ 'h', 'h', "help", CMD_ARG_NONE, NULL, "show this help" },
};

/* One line and a hint, never the whole usage (as record's and report's). */
#define usage_error(...) cmd_usage_error("stat", __VA_ARGS__)

/* What the options ask for. */
struct stat_args {
	struct record_event events[RECORD_MAX_EVENTS];
	size_t nr_events;
	struct count_opts o;
	struct stat_print_opts po;
	double tolerance;
	int check_status;
	bool check, quiet, verbose;
	const char *output;
	const char *baseline;	/* --baseline FILE, read before the first run into base */
	const char *baseline_cmd;	/* --baseline-cmd CMD, its words in base_argv */
	char **base_argv;
	long warmup;
	struct stat_baseline base;
	struct stat_compare cmp;
	double alpha;
	struct cmd_out out;	/* -o's file, open before the first run */
	long repeat;
	bool null, no_big_num;	/* -n, --no-big-num */
	int detailed;		/* -d, -dd, -ddd: the levels of detailed events */
	struct stat_cpu_ids *cpu_ids;	/* the --per-* modes: where each CPU is */
	FILE *iv_out;		/* -I: where the intervals go */
	int iv_err;		/* -I: the first write that failed */
	const struct cmd_opt *fmt_opt, *aggr_opt;	/* the output format's option, the aggregation's */
};

/* An option as the errors name it: -x or --name. */
static const char *opt_word(const struct cmd_opt *o)
{
	static char buf[2][64];
	static int k;

	k ^= 1;
	if (o->short_name)
		snprintf(buf[k], sizeof(buf[k]), "-%c", o->short_name);
	else
		snprintf(buf[k], sizeof(buf[k]), "--%s", o->long_name);
	return buf[k];
}

static enum stat_aggr aggr_of(int id)
{
	switch (id) {
	case 'A':
		return STAT_AGGR_CPU;
	case OPT_PER_CORE:
		return STAT_AGGR_CORE;
	case OPT_PER_SOCKET:
		return STAT_AGGR_SOCKET;
	case OPT_PER_DIE:
		return STAT_AGGR_DIE;
	case OPT_PER_NODE:
		return STAT_AGGR_NODE;
	default:
		return STAT_AGGR_THREAD;
	}
}

/* perf's output formats and modes (-x, -j, -I, -A, --per-*...): 0, the usage error's status, or 1: not one of them. */
static int mode_option(struct stat_args *a, const struct cmd_opt *opt, char *arg)
{
	switch (opt->id) {
	case 'x':
	case 'J':
	case 'j':
		if (a->fmt_opt && a->fmt_opt != opt)
			return usage_error("%s and %s cannot be used together: one output format", opt_word(a->fmt_opt),
					   opt_word(opt));
		a->fmt_opt = opt;
		a->po.format = opt->id == 'x' ? STAT_CSV : opt->id == 'j' ? STAT_JSONL : STAT_JSON;
		if (opt->id == 'x')
			a->po.sep = arg;
		break;
	case 'I':
		if (cmd_parse_long(arg, 10, 100000000, &a->o.interval_ms))
			return usage_error("invalid -I interval '%s' (milliseconds, 10 or more)", arg);
		break;
	case OPT_INTERVAL_COUNT:
		if (cmd_parse_long(arg, 1, 1000000000, &a->o.interval_count))
			return usage_error("invalid --interval-count '%s' (1 or more)", arg);
		break;
	case OPT_TIMEOUT:
		if (cmd_parse_long(arg, 10, 1000000000, &a->o.timeout_ms))
			return usage_error("invalid --timeout '%s' (milliseconds, 10 or more)", arg);
		break;
	case OPT_SUMMARY:
		a->po.summary = true;
		break;
	case OPT_METRIC_ONLY:
		a->po.metric_only = true;
		break;
	case OPT_TABLE:
		a->po.table = true;
		break;
	case 'D':
		if (cmd_parse_long(arg, -1, 1000000000, &a->o.delay_ms))
			return usage_error("invalid -D delay '%s' (milliseconds, 0 or more, or -1: until --control enables)", arg);
		break;
	case 'A':
	case OPT_PER_CORE:
	case OPT_PER_SOCKET:
	case OPT_PER_DIE:
	case OPT_PER_NODE:
	case OPT_PER_THREAD:
		if (a->aggr_opt && a->aggr_opt != opt)
			return usage_error("%s and %s cannot be used together: one way to split the counts",
					   opt_word(a->aggr_opt), opt_word(opt));
		a->aggr_opt = opt;
		a->po.aggr = aggr_of(opt->id);
		break;
	case 'n':
		a->null = true;
		break;
	case OPT_BIG_NUM:
		a->no_big_num = false;
		break;
	case OPT_NO_BIG_NUM:
		a->no_big_num = true;
		break;
	default:
		return 1;
	}
	return 0;
}

static int stat_option(void *ctx, const struct cmd_opt *opt, char *arg)
{
	struct stat_args *a = ctx;
	char *end;
	int ret = mode_option(a, opt, arg);

	if (ret != 1)
		return ret;

	switch (opt->id) {
	case 'e': {
		size_t first = a->nr_events;

		if (cmd_parse_events("stat", arg, a->events, &a->nr_events))
			return EXIT_USAGE;
		/* Counting samples nothing: perf stat refuses record's call graph terms. */
		for (size_t i = first; i < a->nr_events; i++)
			if (a->events[i].cg_term)
				return usage_error("'%s' is not usable in mperf stat (in -e '%s')", a->events[i].cg_term, arg);
		break;
	}
	case 'r':
		if (cmd_parse_long(arg, 1, 1000000, &a->repeat))
			return usage_error("invalid repeat count '%s'", arg);
		break;
	case 'd':
		a->detailed++;
		break;
	case 'L':
		return record__parse_control(arg, &a->o.control) < 0 ? EXIT_USAGE : 0;
	case 'o':
		a->output = arg;
		break;
	case 'p':
		a->o.pids = arg;
		break;
	case 't':
		a->o.tids = arg;
		break;
	case 'a':
		a->o.system_wide = true;
		break;
	case 'C':
		a->o.cpu_list = arg;
		break;
	case 'i':
		a->o.no_inherit = true;
		break;
	case 'q':
		a->quiet = true;
		break;
	case 'v':
		a->verbose = true;
		break;
	case 'K':
		a->check = true;
		break;
	case 'k':
		if (cmd_parse_tolerance(arg, &a->tolerance))
			return usage_error("invalid --check-tolerance '%s' (a percentage, 0 to 100)", arg);
		break;
	case OPT_BASELINE:
		a->baseline = arg;
		break;
	case 'b':
		a->baseline_cmd = arg;
		break;
	case 'W':
		if (cmd_parse_long(arg, 0, 1000000, &a->warmup))
			return usage_error("invalid --warmup count '%s'", arg);
		break;
	case OPT_ALPHA:
		errno = 0;
		a->alpha = strtod(arg, &end);
		if (end == arg || *end || errno || !(a->alpha > 0 && a->alpha < 1))
			return usage_error("invalid --alpha '%s' (a probability, above 0 and below 1)", arg);
		break;
	case 'Z':
		if (cmd_parse_check_status(arg, &a->check_status))
			return usage_error("invalid --check-status '%s' (an exit status, 1 to 124)", arg);
		break;
	}
	return 0;
}

static const struct cmd_options stat_options = {
	.cmd = "stat",
	.usage = stat_usage,
	.help_col = 26,
	.stop_at_operand = true,
	.opts = stat_opts,
	.nr_opts = sizeof(stat_opts) / sizeof(stat_opts[0]),
	.set = stat_option,
};

/* The exit status of a run's workload, as record gives it (and a shell). */
static int workload_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_MPERF;
}

/* A run's status: the workload's, 0 when --timeout or --interval-count stopped it (perf's 0 too). */
static int run_status(const struct count_result *res)
{
	if (res->stopped && WIFSIGNALED(res->wait_status) && WTERMSIG(res->wait_status) == SIGTERM)
		return 0;
	return workload_status(res->wait_status);
}

/* --check on the counts: multiplexed events, like events that counted apart. */
static int check_runs(const struct stat_runs *s, double tolerance, struct check_findings *found)
{
	struct check_event ev[RECORD_MAX_EVENTS];

	for (size_t i = 0; i < s->nr_events; i++) {
		const struct stat_event *e = &s->ev[i];

		ev[i] = (struct check_event){ .attr = e->attr, .counting = true, .value = (uint64_t)e->val.mean,
					      .has_times = e->supported, .ena = (uint64_t)e->ena.mean,
					      .run = (uint64_t)e->run.mean };
		snprintf(ev[i].name, sizeof(ev[i].name), "%s", e->name);
	}
	return stat__check(ev, s->nr_events, tolerance, found);
}

/* --check on --baseline's comparison: a finding per event flagged. */
static int check_baseline(const struct stat_compare *c, const struct stat_runs *s, struct check_findings *found)
{
	for (size_t i = 0; i < s->nr_events; i++) {
		const struct stat_change *e = &c->ev[i];

		if (e->flagged)
			check_findings__add(found, "check: event '%s' shifted by %+.2f%% (mean %+.2f%%, 95%% interval %+.2f%% to %+.2f%%) from '%s': beyond %g%%, p=%.2g < %g",
					    s->ev[i].name, e->shift_pct, e->change_pct, e->ci_lo_pct, e->ci_hi_pct, c->file,
					    c->tolerance, e->p, c->alpha);
	}
	return c->nr_flagged;
}

/*
 * The counts of the runs into a->out (or standard error), and the exit
 * status: the workload's, a->check_status for a failed --check, or the
 * stop signal's after the counts are out.  The check's findings go on
 * stderr, and in the JSON document; not on stderr when the document is
 * there (--json without -o: nothing but JSON in it).
 */
static int stat_output(struct stat_args *a, const struct count_result *res, struct stat_runs *runs)
{
	FILE *out = a->out.f ? a->out.f : stderr;
	struct check_findings found = { 0 };
	int ret, failed = 0;

	ret = runs->has_workload || a->o.argv ? run_status(res) : 0;
	if (a->baseline || a->baseline_cmd) {
		int err = stat__compare(runs, &a->base, &a->cmp);

		if (err) {
			cmd_error("stat", "cannot compare with '%s': %s", a->cmp.file,
				  err == -E2BIG ? "too many runs for the test" : strerror(-err));
			return err;
		}
		a->po.cmp = &a->cmp;
	}
	if (a->check) {
		failed = check_runs(runs, a->tolerance, &found);
		if (a->baseline || a->baseline_cmd)
			failed += check_baseline(&a->cmp, runs, &found);
		a->po.check = &found;
		a->po.tolerance = a->tolerance;
		if (a->po.format != STAT_JSON || a->out.f)
			cmd_check_say("stat", &found);
	}
	a->po.workload_status = runs->has_workload || a->o.argv ? ret : -1;
	if (a->iv_err) {
		errno = -a->iv_err;
		ret = -EIO;
		cmd_error("stat", "cannot write '%s': %s", a->output ? a->output : "standard error", strerror(errno));
	} else if ((!a->o.interval_ms || a->po.summary) && stat__print(out, runs, res, &a->po) < 0) {
		cmd_error("stat", "cannot write '%s': %s", a->output ? a->output : "standard error", strerror(errno));
		ret = -EIO;
	} else if (res->stop_signal) {
		/*
		 * Stopped by a signal: the counts are out; end as the signal would,
		 * as perf does (what is allocated goes with the process).
		 */
		int sig = res->stop_signal;

		cmd_out_close("stat", &a->out, true);
		fflush(stdout);
		signal(sig, SIG_DFL);
		raise(sig);
		ret = 128 + sig;
	} else if (failed && !ret) {
		/* A failed check fails the job, unless the workload's own failure says more. */
		ret = a->check_status;
	}
	check_findings__free(&found);
	a->po.check = NULL;
	if (cmd_out_close("stat", &a->out, ret != -EIO) && ret >= 0)
		ret = -EIO;
	return ret;
}

/* How a run's workload ended, in words and number, for the error lines. */
#define HOW(status) (status) > 128 ? "was killed by signal" : "exited with status", \
		    (status) > 128 ? (status) - 128 : (status)

/*
 * One uncounted run (--warmup), or one of --baseline-cmd's, into res:
 * 0, or the status that ends stat (said here): the command could not run,
 * failed, or a signal stopped the count.
 */
static int side_run(struct stat_args *a, char *const *argv, struct count_result *res, const char *what, long r, long n)
{
	struct count_opts o = a->o;
	int ret, status;

	o.argv = argv;
	ret = record__count(&o, res);
	if (ret < 0)
		return cmd_exec_status(res->exec_errno, ret);
	if (res->stop_signal)
		return 128 + res->stop_signal;
	status = workload_status(res->wait_status);
	if (status)
		cmd_error("stat", "%s run %ld of %ld: the command %s %d: stopped", what, r + 1, n, HOW(status));
	return status;
}

/* --warmup: each command a->warmup times, alternately, the counts dropped. */
static int warm_up(struct stat_args *a, struct count_result *res)
{
	int ret;

	for (long w = 0; w < a->warmup; w++) {
		if (a->base_argv && (ret = side_run(a, a->base_argv, res, "--baseline-cmd's warm-up", w, a->warmup)))
			return ret;
		if ((ret = side_run(a, a->o.argv, res, "warm-up", w, a->warmup)))
			return ret;
	}
	return 0;
}

/* --baseline-cmd's run r, before the command's: its counts into base.  0, or the status that ends stat. */
static int base_run(struct stat_args *a, struct count_result *res, struct stat_runs *base, long r)
{
	int ret = side_run(a, a->base_argv, res, "--baseline-cmd's", r, a->repeat);

	if (!ret && stat_runs__add(base, res)) {
		cmd_error("stat", "out of memory");
		ret = -ENOMEM;
	}
	return ret;
}

/* --per-thread's names: a thread's comm, or "" once it is gone. */
static void thread_comm(int tid, char *buf, size_t len)
{
	if (host_proc_comm(tid, tid, buf, len))
		*buf = '\0';
}

/* The --per-* modes: where each CPU is (socket, die, core from sysfs; node from the NUMA nodes' lists). */
static int read_cpu_ids(struct stat_args *a)
{
	struct host_topology t = { 0 };
	int err = host_topology_read(&t, "/sys"), cpus[4096];

	if (!err && !(a->cpu_ids = calloc((size_t)(t.nr_cpus > 0 ? t.nr_cpus : 1), sizeof(*a->cpu_ids))))
		err = -ENOMEM;
	if (err) {
		host_topology_free(&t);
		cmd_error("stat", "out of memory");
		return err;
	}
	a->po.nr_cpu_ids = t.nr_cpus;
	for (int c = 0; c < t.nr_cpus; c++)
		a->cpu_ids[c] = (struct stat_cpu_ids){ .socket = t.has_cpu_topology ? t.cpus[c].socket : 0,
						       .die = t.has_cpu_topology ? t.cpus[c].die : 0,
						       .core = t.has_cpu_topology ? t.cpus[c].core : c };
	for (uint32_t k = 0; t.has_numa && k < t.nr_numa; k++) {
		int n = host_parse_cpu_list(t.numa[k].cpus, cpus, 4096);

		for (int j = 0; j < n; j++)
			if (cpus[j] >= 0 && cpus[j] < t.nr_cpus)
				a->cpu_ids[cpus[j]].node = (int)t.numa[k].node;
	}
	for (int c = 0; c < t.nr_cpus; c++)
		a->cpu_ids[c].die = a->cpu_ids[c].die < 0 ? 0 : a->cpu_ids[c].die;
	a->po.cpu_ids = a->cpu_ids;
	host_topology_free(&t);
	return 0;
}

/* -I: an interval's rows as it ends; a failed write stops the count (said once at the end). */
static int interval_out(void *ctx, const struct count_result *iv)
{
	struct stat_args *a = ctx;
	int err = stat__print_interval(a->iv_out, iv, &a->po);

	if (err && !a->iv_err)
		a->iv_err = err;
	return err;
}

/*
 * Count a->repeat runs, then say them.  A run that fails (its workload
 * exits non-zero or is killed) ends the runs, and is not averaged in
 * unless it is the first: the counts are of the runs that succeeded, the
 * failure is said, and the status is the failed run's.  With
 * --baseline-cmd, its runs alternate with the command's, in pairs whose
 * order alternates too (baseline first, then the command first: ABBA),
 * so that neither side always takes the same place in the machine's
 * rhythm: on a 2-CPU VM whose CPUs ran at different speeds, plain
 * alternation put every baseline run on one CPU and every command run
 * on the other (shifts of 20-40% between two runs of one build).  A
 * baseline run that fails ends stat with its status, nothing counted said.
 */
static int stat_run(struct stat_args *a)
{
	struct count_result *res = calloc(1, sizeof(*res));
	struct count_result *bres = calloc(1, sizeof(*bres));	/* the baseline's runs' */
	struct stat_runs *runs = calloc(1, sizeof(*runs)), *base = calloc(1, sizeof(*base));
	int ret = 0;

	if (!res || !bres || !runs || !base) {
		ret = -ENOMEM;
		cmd_error("stat", "out of memory");
		goto out;
	}
	if ((ret = warm_up(a, res)))
		goto out;
	for (long r = 0; r < a->repeat; r++) {
		bool base_after = r & 1;	/* ABBA */
		int status;

		if (a->base_argv && !base_after && (ret = base_run(a, bres, base, r)))
			goto out;
		ret = record__count(&a->o, res);
		if (ret < 0) {
			/* Said by record__count; the shell's codes when the command could not be run. */
			ret = cmd_exec_status(res->exec_errno, ret);
			goto out;
		}
		a->po.runs_made = r + 1;
		status = res->has_workload && !res->stop_signal ? run_status(res) : 0;
		if (status && r) {
			cmd_error("stat", "run %ld of %ld: the workload %s %d: stopped; the counts are of the %ld run%s before it",
				  r + 1, a->repeat, HOW(status), r, r > 1 ? "s" : "");
			break;
		}
		if (stat_runs__add(runs, res)) {
			cmd_error("stat", "out of memory");
			ret = -ENOMEM;
			goto out;
		}
		if (status && a->repeat > 1)
			cmd_error("stat", "run 1 of %ld: the workload %s %d: stopped; the counts are of that run",
				  a->repeat, HOW(status));
		if (res->stop_signal || status)
			break;
		if (a->base_argv && base_after && (ret = base_run(a, bres, base, r)))
			goto out;
	}
	if (a->base_argv && (ret = stat_baseline__from_runs(&a->base, base))) {
		cmd_error("stat", "out of memory");
		goto out;
	}
	ret = stat_output(a, res, runs);
out:
	if (res)
		record__count_release(res);
	if (bres)
		record__count_release(bres);
	free(bres);
	if (runs)
		stat_runs__release(runs);
	if (base)
		stat_runs__release(base);
	free(res);
	free(runs);
	free(base);
	return ret;
}

/* --baseline-cmd's words, split at blanks (no shell: both commands are counted alike). */
/* -d's levels: their events after the others (perf's default ones or -e's).  0, or EXIT_USAGE (said). */
static int add_detailed(struct stat_args *a)
{
	int levels = a->detailed;
	int n = (int)(sizeof(stat_detailed_events) / sizeof(stat_detailed_events[0]));

	for (int l = 0; l < levels && l < n; l++)
		if (cmd_parse_events("stat", stat_detailed_events[l], a->events, &a->nr_events))
			return EXIT_USAGE;
	return 0;
}

static int split_baseline_cmd(struct stat_args *a)
{
	size_t n = 0, alloc = 0;
	char *copy = strdup(a->baseline_cmd), *save = NULL;

	for (char *w = copy ? strtok_r(copy, " \t", &save) : NULL; w; w = strtok_r(NULL, " \t", &save)) {
		if (ALLOC_GROW(a->base_argv, n + 2, alloc))
			break;
		a->base_argv[n++] = w;
		a->base_argv[n] = NULL;
	}
	if (!copy || !n) {
		free(copy);
		free(a->base_argv);
		a->base_argv = NULL;
		return copy ? usage_error("%s", "--baseline-cmd is empty") : (cmd_error("stat", "out of memory"), -ENOMEM);
	}
	return 0;
}

/* --baseline's document, read before the first run: a file that cannot be used fails now. */
static int load_baseline(struct stat_args *a)
{
	FILE *f = fopen(a->baseline, "r");
	char *text = NULL, why[256] = "";
	size_t len = 0, alloc = 0, n;
	int ret;

	if (!f) {
		cmd_error("stat", "cannot open baseline '%s': %s", a->baseline, strerror(errno));
		return EXIT_MPERF;
	}
	do {
		if (ALLOC_GROW(text, len + 65536, alloc)) {
			fclose(f);
			free(text);
			cmd_error("stat", "out of memory");
			return -ENOMEM;
		}
		n = fread(text + len, 1, 65536, f);
		len += n;
	} while (n == 65536);
	ret = ferror(f) ? -EIO : stat_baseline__parse(&a->base, text, len, why, sizeof(why));
	fclose(f);
	free(text);
	if (!ret)
		return 0;
	cmd_error("stat", "baseline '%s': %s", a->baseline, ret == -EINVAL ? why : strerror(-ret));
	return EXIT_MPERF;
}

/* What perf's modes (-I, -A, --per-*, -n, --timeout) take with them: 0, or the usage error said. */
/* --metric-only's limits: perf's own (-r), and what mperf does not shape (the modes, --summary, --mperf-json). */
static int check_metric_only(const struct stat_args *a)
{
	if (!a->po.metric_only)
		return 0;
	if (a->repeat > 1)
		return usage_error("%s", "--metric-only is not supported with -r");
	if (a->aggr_opt)
		return usage_error("--metric-only is not supported with %s", opt_word(a->aggr_opt));
	if (a->po.summary)
		return usage_error("%s", "--metric-only is not supported with --summary");
	if (a->po.format == STAT_JSON)
		return usage_error("%s", "--metric-only has no --mperf-json form: use -j");
	if (a->null)
		return usage_error("%s", "-n prints the elapsed time alone, in text");
	return 0;
}

static int check_modes(struct stat_args *a)
{
	const char *sys = a->o.system_wide || a->o.cpu_list ? "" : NULL;

	if ((a->o.interval_count || a->po.summary) && !a->o.interval_ms)
		return usage_error("%s needs -I", a->o.interval_count ? "--interval-count" : "--summary");
	if (a->o.interval_ms && a->o.timeout_ms)
		return usage_error("%s", "--timeout cannot be used with -I (use --interval-count)");
	if (a->o.interval_ms && a->repeat > 1)
		return usage_error("%s", "-I cannot be used with -r: the intervals are of one run");
	if ((a->o.interval_ms || a->aggr_opt) && a->po.format == STAT_JSON)
		return usage_error("%s has no --mperf-json form: use -j", a->aggr_opt ? opt_word(a->aggr_opt) : "-I");
	if (a->aggr_opt && (a->repeat > 1 || a->baseline || a->baseline_cmd))
		return usage_error("%s counts one run: not with -r or --baseline", opt_word(a->aggr_opt));
	if (a->po.aggr == STAT_AGGR_THREAD && !a->o.pids && !a->o.tids)
		return usage_error("%s", "--per-thread needs -p or -t: each thread of those");
	if (a->aggr_opt && a->po.aggr != STAT_AGGR_THREAD && !sys)
		return usage_error("%s needs -a or -C: only system-wide counts are per CPU", opt_word(a->aggr_opt));
	for (size_t i = 0; i < a->nr_events; i++) {
		const struct record_event *e = &a->events[i];

		if (e->attr.type != RECORD_TYPE_TOOL)
			continue;
		if (a->aggr_opt)
			return usage_error("'%s' is a tool event, of the whole count: not with %s", e->name,
					   opt_word(a->aggr_opt));
		if (a->o.interval_ms && e->attr.config != RECORD_TOOL_DURATION)
			return usage_error("'%s' is known at the workload's end only: not with -I", e->name);
	}
	if (a->po.table && a->repeat < 2)
		return usage_error("%s", "--table needs -r: a row per run");
	if (a->null && a->nr_events)
		return usage_error("%s", "-n counts no events: not with -e");
	if (a->null && (a->check || a->baseline || a->baseline_cmd || a->po.format != STAT_TEXT))
		return usage_error("%s", "-n prints the elapsed time alone, in text");
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_args *a;
	struct cmd_parse parse;
	char subject[1024];
	int ret;

	a = calloc(1, sizeof(*a));
	if (!a) {
		cmd_error("stat", "out of memory");
		return -ENOMEM;
	}
	*a = (struct stat_args){ .o = { .control = { .fd = -1, .ack = -1 } }, .po = { .format = STAT_TEXT, .sep = "," }, .tolerance = STAT_CHECK_TOLERANCE, .alpha = STAT_ALPHA,
				 .check_status = STAT_EXIT_CHECK, .repeat = 1 };
	if ((ret = cmd_options_parse(&parse, &stat_options, argc, argv, a)) != CMD_OPTS_OK)
		goto out;
	if (optind >= argc && !a->o.pids && !a->o.tids && !a->o.system_wide && !a->o.cpu_list) {
		ret = usage_error("%s", "no command given to run, and no target (-p, -t, -a, -C) to count");
		goto out;
	}
	if (a->repeat > 1 && optind >= argc) {
		ret = usage_error("%s", "-r needs a command to repeat");
		goto out;
	}
	if ((a->baseline || a->baseline_cmd) && (a->po.format == STAT_CSV || a->po.format == STAT_JSONL)) {
		ret = usage_error("--baseline's comparison has no %s form: use --mperf-json", opt_word(a->fmt_opt));
		goto out;
	}
	if ((ret = check_modes(a)) || (ret = check_metric_only(a)))
		goto out;
	if (a->baseline && a->baseline_cmd) {
		ret = usage_error("%s", "--baseline and --baseline-cmd: one baseline at a time");
		goto out;
	}
	if ((a->baseline_cmd || a->warmup) && optind >= argc) {
		ret = usage_error("%s", "--baseline-cmd and --warmup need a command to run");
		goto out;
	}
	if (a->baseline_cmd && (ret = split_baseline_cmd(a)))
		goto out;
	if (a->baseline && (ret = load_baseline(a)))
		goto out;
	a->cmp = (struct stat_compare){ .file = a->baseline ? a->baseline : a->baseline_cmd, .tolerance = a->tolerance,
					.alpha = a->alpha };
	if (!a->nr_events && !a->null && record__parse_events(STAT_DEFAULT_EVENTS, a->events, RECORD_MAX_EVENTS, &a->nr_events) < 0) {
		ret = EXIT_MPERF;
		goto out;
	}
	if (!a->null && add_detailed(a)) {
		ret = EXIT_USAGE;
		goto out;
	}
	a->o.events = a->events;
	a->o.nr_events = a->nr_events;
	a->o.argv = optind < argc ? argv + optind : NULL;
	/* A JSON document on stderr is alone there: notices would break it (errors stay). */
	if (a->quiet || ((a->po.format == STAT_JSON || a->po.format == STAT_JSONL) && !a->output && !a->verbose))
		cmd_set_quiet();
	else if (a->verbose)
		cmd_set_verbose();
	/* As perf: counts in the user's locale (thousands grouped), -x and --json as C. */
	if (a->po.format == STAT_TEXT && !a->no_big_num)
		setlocale(LC_NUMERIC, "");
	if (a->po.aggr == STAT_AGGR_THREAD)
		a->po.comm = thread_comm;
	else if (a->po.aggr != STAT_AGGR_GLOBAL && a->po.aggr != STAT_AGGR_CPU && (ret = read_cpu_ids(a)))
		goto out;
	a->po.interval_ms = a->o.interval_ms;
	if (a->o.interval_ms) {
		a->o.tick = interval_out;
		a->o.tick_ctx = a;
	}
	stat__subject(subject, sizeof(subject), &a->o);
	a->po.subject = subject;
	/* Before the workload runs: a file that cannot be written fails now, not after. */
	if (a->output && (ret = cmd_out_open("stat", &a->out, a->output)))
		goto out;
	a->iv_out = a->out.f ? a->out.f : stderr;
	ret = stat_run(a);
out:
	cmd_out_close("stat", &a->out, false);
	stat_baseline__release(&a->base);
	if (a->base_argv)
		free(a->base_argv[0]);
	free(a->base_argv);
	free(a->cpu_ids);
	free(a);
	return ret;
}
