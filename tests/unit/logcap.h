/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_TEST_LOGCAP_H
#define MPERF_TEST_LOGCAP_H

/*
 * What src/ logged, for tests: the last error and warning, and how many
 * of each since logcap_reset(), so a test can check that a failure is
 * said in exactly one line.
 */
#include <stdio.h>
#include "../../src/lib/log.h"

static char logcap_err[1024], logcap_warn[1024];
static int logcap_errors, logcap_warnings;

static void logcap_hook(enum mperf_log_level level, const char *msg)
{
	if (level == MPERF_LOG_ERROR) {
		snprintf(logcap_err, sizeof(logcap_err), "%s", msg);
		logcap_errors++;
	} else if (level == MPERF_LOG_WARN) {
		snprintf(logcap_warn, sizeof(logcap_warn), "%s", msg);
		logcap_warnings++;
	}
}

static inline void logcap_reset(void)
{
	mperf_set_log(logcap_hook);
	logcap_err[0] = logcap_warn[0] = 0;
	logcap_errors = logcap_warnings = 0;
}

/* The last warning since logcap_reset(), or NULL. */
static inline const char *logcap_warning(void)
{
	return logcap_warnings ? logcap_warn : NULL;
}

#endif
