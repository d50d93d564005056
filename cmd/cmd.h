/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_CMD_H
#define MPERF_CMD_H

#define EXIT_USAGE 129

/*
 * A command returns its exit status, or a negative code from src/ whose
 * cause src/ has already logged; main() turns that into the exit status
 * (-EPIPE: 141, quietly; anything else: 1).
 */
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_script(int argc, char **argv);

/* -q: from now on only errors and notices (the cycles fallback) reach stderr. */
void cmd_set_quiet(void);
/* -v: debug lines too (each perf_event_open). */
void cmd_set_verbose(void);

/* "mperf <cmd>: <msg>" on stderr. */
void cmd_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
