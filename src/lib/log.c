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

void mperf_log(enum mperf_log_level level, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!log_hook)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_hook(level, msg);
}
