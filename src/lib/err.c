// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>
#include "err.h"

static const char *const messages[] = {
#define X(name, msg) [MPERF_ERR_##name - MPERF_ERR_FIRST_ - 1] = msg,
	MPERF_ERRORS(X)
#undef X
};

const char *mperf_strerror(int err)
{
	int e = err < 0 ? -err : err;

	if (e > MPERF_ERR_FIRST_ && e < MPERF_ERR_LAST_)
		return messages[e - MPERF_ERR_FIRST_ - 1];
	return strerror(e);
}
