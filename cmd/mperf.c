// SPDX-License-Identifier: GPL-2.0-only
/* main(): the command table, the log hook, help, and the final check of stdout. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../src/lib/json.h"
#include "../src/lib/log.h"
#include "cmd.h"
#include "version.h"

static const struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "record", cmd_record, "Run a command and record its profile into perf.data" },
	{ "report", cmd_report, "Read perf.data (mperf's or perf's) and display it" },
	{ "diff", cmd_diff, "Compare two perf.data files' profiles, as perf diff" },
	{ "top", cmd_top, "Sample the system (or tasks) and show the hottest symbols live, as perf top" },
	{ "stat", cmd_stat, "Run a command and count its events, as perf stat" },
	{ "list", cmd_list, "List the events this machine offers" },
	{ "annotate", cmd_annotate, "Read perf.data and show where in each symbol its samples fall, as perf annotate" },
	{ "script", cmd_script, "Read perf.data (mperf's or perf's) and print each sample, as perf script" },
	{ "doctor", cmd_doctor, "Say what profiling may do on this machine, and why" },
	{ "buildid-list", cmd_buildid_list, "List the build ids of the DSOs a perf.data names, as perf buildid-list" },
	{ "archive", cmd_archive, "Pack the build-id cache entries a perf.data needs, as perf archive" },
};
#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static int quiet_level = MPERF_LOG_INFO;
static const char *current_cmd = "";

/*
 * Whether msg was said before: a notice or warning is said once per
 * command, however many times the work that says it is done (each run
 * of stat -r opens its events again); progress (info: "Events enabled")
 * and -v's lines are said each time.  A small table: past it, lines repeat.
 */
static bool said_before(const char *msg)
{
	static char *said[32];
	static size_t nr;

	for (size_t i = 0; i < nr; i++)
		if (!strcmp(said[i], msg))
			return true;
	if (nr < sizeof(said) / sizeof(said[0]) && (said[nr] = strdup(msg)))
		nr++;
	return false;
}

static void log_to_stderr(enum mperf_log_level level, const char *msg)
{
	if (level != MPERF_LOG_ERROR &&
	    ((int)level > quiet_level || ((level == MPERF_LOG_NOTICE || level == MPERF_LOG_WARN) && said_before(msg))))
		return;
	fprintf(stderr, "mperf %s: %s%s\n", current_cmd, level == MPERF_LOG_WARN ? "warning: " : "", msg);
}

void cmd_set_quiet(void)
{
	quiet_level = MPERF_LOG_ERROR;
}

void cmd_set_verbose(void)
{
	quiet_level = MPERF_LOG_DEBUG;
}

/* The one way cmd/ says an error: "mperf <cmd>: <msg>", or "mperf: <msg>" for main's own. */
static void say_error(const char *cmd, const char *fmt, va_list ap)
{
	if (cmd)
		fprintf(stderr, "mperf %s: ", cmd);
	else
		fputs("mperf: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cmd_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_error(cmd, fmt, ap);
	va_end(ap);
}

int cmd_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_error(cmd, fmt, ap);
	va_end(ap);
	cmd_hint(cmd);
	return EXIT_USAGE;
}

int cmd_kernel_file(const char *cmd, int opt, const char *path)
{
	/* as perf: a file that cannot be read is refused before anything is read */
	if (access(path, R_OK) == 0)
		return 0;
	cmd_error(cmd, "cannot read %s '%s': %s", opt == 'k' ? "--vmlinux" : "--kallsyms", path, strerror(errno));
	return EXIT_MPERF;
}

/* A comma-separated list of ids, as perf's --pid and --tid take. */
bool cmd_id_list(const char *s)
{
	do {
		char *end;

		errno = 0;
		if (*s < '0' || *s > '9' || strtol(s, &end, 10) > INT_MAX || errno)
			return false;
		s = end;
	} while (*s == ',' && *++s);
	return !*s;
}

const char *cmd_default_input(void)
{
	struct stat st;

	return !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
}

void cmd_hint(const char *cmd)
{
	if (cmd)
		cmd_hint_text("see 'mperf %s -h'", cmd);
	else
		cmd_hint_text("see 'mperf --help'");
}

void cmd_hint_text(const char *fmt, ...)
{
	va_list ap;

	fputs("hint: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * Optimal string alignment distance (Levenshtein plus adjacent
 * transpositions, which is the typo people make: "recrod").
 */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *d;
	size_t r;

	if (la > 64 || lb > 64)
		return (size_t)-1;
	d = calloc((la + 1) * (lb + 1), sizeof(*d));
	if (!d)
		return (size_t)-1;
#define D(i, j) d[(i) * (lb + 1) + (j)]
	for (size_t i = 0; i <= la; i++)
		D(i, 0) = i;
	for (size_t j = 0; j <= lb; j++)
		D(0, j) = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t v = D(i - 1, j) + 1;

			if (D(i, j - 1) + 1 < v)
				v = D(i, j - 1) + 1;
			if (D(i - 1, j - 1) + cost < v)
				v = D(i - 1, j - 1) + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && D(i - 2, j - 2) + 1 < v)
				v = D(i - 2, j - 2) + 1;
			D(i, j) = v;
		}
	r = D(la, lb);
#undef D
	free(d);
	return r;
}

const char *cmd_nearest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1, len = strlen(word);
	/* Close enough to be a typo: a third of the word, at least 1, at most 3. */
	size_t limit = len / 3 < 1 ? 1 : len / 3 > 3 ? 3 : len / 3;

	if (!len)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t d;

		if (!strncmp(names[i], word, len) && strlen(names[i]) > len) {
			d = 1;	/* a prefix of it: what was meant, most likely */
		} else {
			d = edit_distance(word, names[i]);
			if (d > limit)
				continue;
		}
		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
	}
	return best;
}

int cmd_option_error(const char *cmd, int c, const struct option *longopts, char **argv)
{
	const char *tok = optind > 0 ? argv[optind - 1] : "-";
	const char *names[64];
	size_t n = 0, len;
	char name[64];

	if (strncmp(tok, "--", 2) || !tok[2]) {
		/* A short option: optopt is its letter. */
		if (c == ':')
			return cmd_usage_error(cmd, "option '-%c' needs a value", optopt);
		return cmd_usage_error(cmd, "unknown option '-%c'", optopt);
	}
	len = strcspn(tok + 2, "=");
	snprintf(name, sizeof(name), "%.*s", (int)len, tok + 2);
	if (c == ':')
		return cmd_usage_error(cmd, "option '--%s' needs a value", name);
	if (optopt && tok[2 + len] == '=')
		return cmd_usage_error(cmd, "option '--%s' takes no value", name);
	for (const struct option *o = longopts; o->name && n < sizeof(names) / sizeof(names[0]); o++)
		names[n++] = o->name;
	{
		/* glibc refuses a prefix that several options share. */
		size_t matches = 0;

		for (size_t i = 0; i < n; i++)
			matches += !strncmp(names[i], name, len);
		if (matches > 1 && len) {
			char list[256] = "";
			size_t used = 0;

			for (size_t i = 0; i < n && used < sizeof(list); i++)
				if (!strncmp(names[i], name, len))
					used += (size_t)snprintf(list + used, sizeof(list) - used, "%s--%s",
								 used ? ", " : "", names[i]);
			return cmd_usage_error(cmd, "option '--%s' is ambiguous: %s", name, list);
		}
	}
	{
		const char *near = cmd_nearest(name, names, n);

		if (near)
			return cmd_usage_error(cmd, "unknown option '--%s'; did you mean '--%s'?", name, near);
	}
	return cmd_usage_error(cmd, "unknown option '--%s'", name);
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

/* Keep in step with the SYNOPSIS of man/mperf.1 (t0020 compares them). */
static const char mperf_usage[] =
	"usage: mperf [--version] [-h | --help] [--no-pager | -p | --paginate] command [args]\n"
	"   or: mperf help [command]\n";

static void usage(FILE *f)
{
	fputs(mperf_usage, f);
	fprintf(f, "\ncommands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "   %-12s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\nSee 'mperf help <command>' or 'mperf <command> -h' for the options of a command,\n"
		   "man mperf-<command> for its manual.\n");
}

static const struct cmd *find_command(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/* "'x' is not a mperf command", with the nearest one, as git says it; who: NULL, or "help". */
static int unknown_command(const char *who, const char *name)
{
	const char *names[NR_COMMANDS + 1];
	const char *near;

	for (size_t i = 0; i < NR_COMMANDS; i++)
		names[i] = commands[i].name;
	names[NR_COMMANDS] = "help";
	near = cmd_nearest(name, names, NR_COMMANDS + 1);
	if (near)
		cmd_error(who, "'%s' is not a mperf command; did you mean '%s'?", name, near);
	else
		cmd_error(who, "'%s' is not a mperf command", name);
	cmd_hint(NULL);
	return EXIT_USAGE;
}

static int run_command(const struct cmd *c, int argc, char **argv)
{
	int ret;

	current_cmd = c->name;
	ret = c->fn(argc, argv);
	/* Like git: a full disk or a closed pipe on stdout is a failure, said once. */
	errno = 0;
	if ((fflush(stdout) || ferror(stdout)) && ret == 0) {
		if (errno != EPIPE) {
			cmd_error(c->name, "write error on standard output: %s", strerror(errno ? errno : EIO));
			return EXIT_MPERF;
		}
		ret = -EPIPE;
	}
	cmd_pager_wait();
	return exit_status(ret);
}

int main(int argc, char **argv)
{
	const struct cmd *c;

	mperf_set_log(log_to_stderr);
	json_set_invocation(MPERF_VERSION_STRING, argc, argv);
	/* perf's and git's options before the command: the pager, for that command. */
	while (argc > 1 && (!strcmp(argv[1], "--no-pager") || !strcmp(argv[1], "-p") ||
			    !strcmp(argv[1], "--paginate"))) {
		cmd_pager_set(!strcmp(argv[1], "--no-pager") ? -1 : 1);
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    (!strcmp(argv[1], "help") && argc == 2)) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "help")) {
		/* mperf help CMD is mperf CMD -h, as git's help -h would be. */
		char *hargv[] = { argv[2], "-h", NULL };

		if (argc > 3) {
			cmd_error("help", "one command at a time");
			cmd_hint(NULL);
			return EXIT_USAGE;
		}
		c = find_command(argv[2]);
		if (!c)
			return unknown_command("help", argv[2]);
		return run_command(c, 2, hargv);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("mperf version %s\n", MPERF_VERSION_STRING);
		return 0;
	}
	if (argv[1][0] == '-') {
		cmd_error(NULL, "unknown option '%s'", argv[1]);
		cmd_hint(NULL);
		return EXIT_USAGE;
	}
	c = find_command(argv[1]);
	if (!c)
		return unknown_command(NULL, argv[1]);
	return run_command(c, argc - 1, argv + 1);
}
