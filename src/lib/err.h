/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_LIB_ERR_H
#define MPERF_LIB_ERR_H

#include <errno.h>

/*
 * Functions in src/ return 0 or a positive count on success and a negative
 * number on failure: -errno, or one of the mperf codes below.  The mperf
 * codes start above the largest errno the kernel uses (4095), so the two
 * ranges never collide.
 */
#define MPERF_MAX_ERRNO 4095
#define MPERF_ERR_BASE (MPERF_MAX_ERRNO + 1)

#define MPERF_ERRORS(X)                                                   \
	X(FORMAT,    "not a perf.data file")                               \
	X(TRUNCATED, "file is truncated")                                  \
	X(CORRUPT,   "corrupt perf.data file")                             \
	X(UNSUPP,    "unsupported perf.data feature")                      \
	X(NOEVENT,   "unknown event")                                      \
	X(USAGE,     "invalid argument")

enum {
	MPERF_ERR_FIRST_ = MPERF_ERR_BASE,
#define X(name, msg) MPERF_ERR_##name,
	MPERF_ERRORS(X)
#undef X
	MPERF_ERR_LAST_
};

/* Message for a negative error code (errno or mperf's). */
const char *mperf_strerror(int err);
/* The errno to leave behind for a negative code (EINVAL for mperf's own). */
static inline int mperf_errno(int err)
{
	return err < -MPERF_MAX_ERRNO ? EINVAL : -err;
}

#endif
