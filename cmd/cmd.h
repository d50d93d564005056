/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_CMD_H
#define MPERF_CMD_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "../src/host/host.h"
#include "../src/lib/err.h"

#define EXIT_USAGE 129
/*
 * mperf's own failure, as timeout(1) and env(1) say theirs: out of the way
 * of a workload's status, which record and stat pass through.
 */
#define EXIT_MPERF 125
/*
 * A perf.data file (or stream) damaged inside its data (cut, or a record
 * that does not parse): whatever the view (report and its modes, script,
 * diff, buildid-list, archive), one error line, what the view could make
 * of the records before the damage, and this status.
 */
#define EXIT_DAMAGED 1

/*
 * A workload that could not be run (exec_errno, 0 if it ran) ends as the
 * shell ends it: 127 not found, 126 not executable; else ret.
 */
static inline int cmd_exec_status(int exec_errno, int ret)
{
	return !exec_errno ? ret : exec_errno == ENOENT ? 127 : 126;
}

/* ret, or EXIT_DAMAGED for the damage a view returns (after its output, where it has one). */
static inline int cmd_damaged(int ret)
{
	return ret == -MPERF_ERR_TRUNCATED || ret == -MPERF_ERR_CORRUPT ? EXIT_DAMAGED : ret;
}

struct option;

/*
 * A command returns its exit status, or a negative code from src/ whose
 * cause src/ has already logged; main() turns that into the exit status
 * (-EPIPE: 141, quietly; anything else: EXIT_MPERF, 125).
 */
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_buildid_list(int argc, char **argv);
int cmd_archive(int argc, char **argv);

/*
 * The pager (cmd/pager.c): cmd_pager_set(-1) for --no-pager, 1 for
 * --paginate (even when the output is not a terminal).  A command calls
 * cmd_pager_start before its text: it pages when standard output is a
 * terminal and a pager is chosen (true then).  main() calls
 * cmd_pager_wait after the command: its end of the pipe closed, it waits
 * for the pager to quit.  cmd_pager_program: the pager's command, or NULL.
 */
void cmd_pager_set(int choice);
bool cmd_pager_start(void);
void cmd_pager_wait(void);
const char *cmd_pager_program(void);

/* -q: from now on only errors (a failed check's findings among them) reach stderr. */
void cmd_set_quiet(void);
/* -v: debug lines too (each perf_event_open). */
void cmd_set_verbose(void);

/*
 * A file a command writes besides perf.data (stat -o, --json-summary,
 * report --format -o), opened before the work starts (cmd/output.c):
 * "-" is standard output; a regular file is written under a temporary
 * name beside path and renamed over it by cmd_out_close(ok); a device or
 * a FIFO in place.  Both return 0, or EXIT_MPERF said in one line.
 */
struct cmd_out {
	const char *path;
	FILE *f;
	struct host_newfile nf;
	bool atomic;
};
int cmd_out_open(const char *cmd, struct cmd_out *o, const char *path);
int cmd_out_close(const char *cmd, struct cmd_out *o, bool ok);

struct stat_summary;
struct check_findings;
/* --check-tolerance PCT: 0 to 100; 0, or -1 for anything else. */
int cmd_parse_tolerance(const char *arg, double *pct);
/*
 * --check-status N: the exit status of a failed check, 1 to 124 (125 and
 * up are mperf's own, the shell's and the signals'); 0, or -1 otherwise.
 */
int cmd_parse_check_status(const char *arg, int *status);
/* Each finding of a check on stderr, one line each: "mperf CMD: check: ...". */
void cmd_check_say(const char *cmd, const struct check_findings *f);
struct record_event;
/*
 * -e arg's events appended to ev[*nr] (RECORD_MAX_EVENTS at most): 0, or
 * EXIT_USAGE, said by the parser in one line and the hint (where the
 * machine's events are listed, for a name it lacks).
 */
int cmd_parse_events(const char *cmd, const char *arg, struct record_event *ev, size_t *nr);
struct report_hist_opts;
/* --sort's keys into o (report's and top's): 0, or -1 said in one line and the hint. */
int cmd_parse_sort_keys(const char *cmd, const char *list, struct report_hist_opts *o);
/* After the options: a memory key without o's --mem-mode is perf's invalid key (0, or EXIT_USAGE said). */
int cmd_sort_mem_check(const char *cmd, const struct report_hist_opts *o);
/* The JSON summary into o (cmd_out_open'd); 0, or -1 said in one line. */
int cmd_write_json(const char *cmd, struct cmd_out *o, const struct stat_summary *s);

/*
 * The one way cmd/ says an error: "mperf <cmd>: <msg>" on stderr (cmd
 * NULL: "mperf: <msg>", main's own); a usage error adds one hint line.
 * Progress, summaries and perf's own warnings (record's rate) are output,
 * not errors, and print as perf prints them.
 */
void cmd_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * A usage error: "mperf <cmd>: <msg>" and the one-line hint, never the
 * whole usage for one bad value.  Returns EXIT_USAGE.
 */
int cmd_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * The file of -k/--vmlinux (opt 'k') or --kallsyms: 0 when it can be read;
 * else said in one line, as perf refuses it before reading, and EXIT_MPERF.
 */
int cmd_kernel_file(const char *cmd, int opt, const char *path);
/* A comma-separated list of ids, as perf's --pid and --tid take them. */
bool cmd_id_list(const char *s);
/*
 * The input without -i, as perf's: standard input when it is a pipe (a
 * pipe-mode stream, perf record -o - | mperf report), else perf.data.
 */
const char *cmd_default_input(void);
/* "hint: see 'mperf <cmd> -h'" on stderr (cmd NULL: 'mperf --help'). */
void cmd_hint(const char *cmd);
/* "hint: <msg>" on stderr: where to look, when it is not -h. */
void cmd_hint_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * getopt_long returned c ('?' or ':', with opterr 0 and ':' leading the
 * optstring): say which option and why, with the nearest long option, in
 * one line and the hint.  Returns EXIT_USAGE.
 */
int cmd_option_error(const char *cmd, int c, const struct option *longopts, char **argv);
/* The name of names[] nearest to word, if it is close enough to be a typo, or NULL. */
const char *cmd_nearest(const char *word, const char *const *names, size_t n);

#endif
