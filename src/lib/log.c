// SPDX-License-Identifier: GPL-2.0-only
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"

/* Set once by main() before any work starts; read-only afterwards. */
static mperf_log_fn log_hook;

void mperf_set_log(mperf_log_fn fn)
{
	log_hook = fn;
}

/*
 * Messages held by mperf_log_hold, in order, for mperf_log_release: any
 * thread may log meanwhile.  A message that cannot be kept is passed on.
 */
struct held {
	enum mperf_log_level level;
	char *msg;
};
static pthread_mutex_t hold_lock = PTHREAD_MUTEX_INITIALIZER;
static bool holding;
static struct held *held;
static size_t nheld, held_cap;

static bool hold(enum mperf_log_level level, const char *msg)
{
	bool kept = false;

	pthread_mutex_lock(&hold_lock);
	if (holding) {
		if (nheld == held_cap) {
			size_t cap = held_cap ? 2 * held_cap : 16;
			struct held *v = realloc(held, cap * sizeof(*v));

			if (v) {
				held = v;
				held_cap = cap;
			}
		}
		if (nheld < held_cap && (held[nheld].msg = strdup(msg))) {
			held[nheld++].level = level;
			kept = true;
		}
	}
	pthread_mutex_unlock(&hold_lock);
	return kept;
}

void mperf_log_hold(void)
{
	pthread_mutex_lock(&hold_lock);
	holding = true;
	pthread_mutex_unlock(&hold_lock);
}

void mperf_log_release(bool say)
{
	pthread_mutex_lock(&hold_lock);
	holding = false;
	for (size_t i = 0; i < nheld; i++) {
		if (say && log_hook)
			log_hook(held[i].level, held[i].msg);
		free(held[i].msg);
	}
	free(held);
	held = NULL;
	nheld = held_cap = 0;
	pthread_mutex_unlock(&hold_lock);
}

size_t mperf_log_held(void)
{
	size_t n;

	pthread_mutex_lock(&hold_lock);
	n = nheld;
	pthread_mutex_unlock(&hold_lock);
	return n;
}

bool mperf_log_held_msg(size_t i, char *buf, size_t len)
{
	bool ok;

	pthread_mutex_lock(&hold_lock);
	ok = i < nheld && len;
	if (ok)
		snprintf(buf, len, "%s", held[i].msg);
	pthread_mutex_unlock(&hold_lock);
	return ok;
}

static void vlog(enum mperf_log_level level, const char *fmt, va_list ap)
{
	char msg[1024];

	if (!log_hook)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (!hold(level, msg))
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
