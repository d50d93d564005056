/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_CMD_H
#define MPERF_CMD_H

#define EXIT_USAGE 129
/*
 * mperf's own failure, as timeout(1) and env(1) say theirs: out of the way
 * of a workload's status, which record and stat pass through.
 */
#define EXIT_MPERF 125

/*
 * A command returns its exit status, or a negative code from src/ whose
 * cause src/ has already logged; main() turns that into the exit status
 * (-EPIPE: 141, quietly; anything else: EXIT_MPERF, 125).
 */
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_doctor(int argc, char **argv);

/* -q: from now on only errors and notices (the cycles fallback) reach stderr. */
void cmd_set_quiet(void);
/* -v: debug lines too (each perf_event_open). */
void cmd_set_verbose(void);

struct stat_summary;
/* --check-tolerance PCT: 0 to 100; 0, or -1 for anything else. */
int cmd_parse_tolerance(const char *arg, double *pct);
/* The JSON summary into path ("-": standard output); 0, or -1 said in one line. */
int cmd_write_json(const char *path, const struct stat_summary *s);

/* "mperf <cmd>: <msg>" on stderr. */
void cmd_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
