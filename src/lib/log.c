// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>
#include "log.h"

/* Set once by main() before any work starts; read-only afterwards. */
static mperf_log_fn log_hook;

void mperf_set_log(mperf_log_fn fn)
{
	log_hook = fn;
}

static void vlog(enum mperf_log_level level, const char *fmt, va_list ap)
{
	char msg[1024];

	if (!log_hook)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	log_hook(level, msg);
}

void mperf_log(enum mperf_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(level, fmt, ap);
	va_end(ap);
}

int mperf_error(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(MPERF_LOG_ERROR, fmt, ap);
	va_end(ap);
	return code;
}
