/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_LIB_LOG_H
#define MPERF_LIB_LOG_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The only way code in src/ talks to the user, and the error channel: the
 * code that detects a failure, and knows what failed, logs one line at
 * MPERF_LOG_ERROR and returns a negative code; its callers pass the code
 * up and log nothing more.  The command layer installs a hook; without
 * one, messages are dropped.  MPERF_LOG_ERROR is also for the findings of
 * a failed --check: what a job fails on reaches the user even with -q.
 * MPERF_LOG_NOTICE is a line said as it is (the cycles fallback),
 * MPERF_LOG_WARN one said as a warning; -q silences both, and INFO;
 * MPERF_LOG_DEBUG only with -v (each perf_event_open, as perf -v shows them).
 */
enum mperf_log_level { MPERF_LOG_ERROR, MPERF_LOG_NOTICE, MPERF_LOG_WARN, MPERF_LOG_INFO, MPERF_LOG_DEBUG };

typedef void (*mperf_log_fn)(enum mperf_log_level level, const char *msg);

void mperf_set_log(mperf_log_fn fn);
void mperf_log(enum mperf_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Hold every message from here on (not passed to the hook), until
 * mperf_log_release passes them on in order (say) or drops them: work that
 * may be done again says its messages once, for the run that counts.
 */
void mperf_log_hold(void);
void mperf_log_release(bool say);
/*
 * While held: how many messages are held, and message i copied into buf
 * (false past the last), for a screen that shows what its work said.
 */
size_t mperf_log_held(void);
bool mperf_log_held_msg(size_t i, char *buf, size_t len);
/* Log at MPERF_LOG_ERROR and return code: `return mperf_error(-EIO, "cannot ...");` */
int mperf_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
