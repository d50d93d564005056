// SPDX-License-Identifier: GPL-2.0-only
/* main(): the command table, the log hook, and the final check of stdout. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "../src/lib/log.h"
#include "cmd.h"

static const struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "record", cmd_record, "Run a command and record its profile into perf.data" },
	{ "report", cmd_report, "Read perf.data (mperf's or perf's) and display it" },
	{ "stat", cmd_stat, "Run a command and count its events, as perf stat" },
	{ "doctor", cmd_doctor, "Say what profiling may do on this machine, and why" },
};

static int quiet_level = MPERF_LOG_INFO;
static const char *current_cmd = "";

static void log_to_stderr(enum mperf_log_level level, const char *msg)
{
	if (level == MPERF_LOG_ERROR || level == MPERF_LOG_NOTICE || (int)level <= quiet_level)
		fprintf(stderr, "mperf %s: %s%s\n", current_cmd, level == MPERF_LOG_WARN ? "warning: " : "", msg);
}

void cmd_set_quiet(void)
{
	quiet_level = MPERF_LOG_NOTICE;
}

void cmd_set_verbose(void)
{
	quiet_level = MPERF_LOG_DEBUG;
}

void cmd_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "mperf %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * A command returns an exit status, or a negative code from src/ whose
 * cause is already logged.  The one place that decides what a closed pipe
 * means: the reader of our output went away, so we end as a SIGPIPE death
 * would, quietly (128 + 13).  Any other failure of mperf's own is 125, so
 * that a CI job never takes it for the workload's status.
 */
static int exit_status(int ret)
{
	if (ret == -EPIPE)
		return 128 + SIGPIPE;
	return ret < 0 ? EXIT_MPERF : ret;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: mperf [--version] [--help] <command> [<args>]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "   %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\nSee 'mperf <command> -h' for the options of a command.\n");
}

int main(int argc, char **argv)
{
	int ret;

	mperf_set_log(log_to_stderr);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("mperf version %s\n", MPERF_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		current_cmd = commands[i].name;
		ret = commands[i].fn(argc - 1, argv + 1);
		/* Like git: a full disk or a closed pipe on stdout is a failure, said once. */
		errno = 0;
		if ((fflush(stdout) || ferror(stdout)) && ret == 0) {
			if (errno != EPIPE) {
				cmd_error(commands[i].name, "write error on standard output: %s",
					  strerror(errno ? errno : EIO));
				return EXIT_MPERF;
			}
			ret = -EPIPE;
		}
		return exit_status(ret);
	}
	fprintf(stderr, "mperf: '%s' is not a mperf command. See 'mperf --help'.\n", argv[1]);
	return EXIT_USAGE;
}
