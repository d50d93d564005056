// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "../lib/err.h"
#include "../perfdata/perfdata.h"
#include "record.h"

int record__parse_events(const char *list, struct record_event *ev, size_t max,
			 char *bad, size_t badlen)
{
	size_t n = 0;
	const char *p = list;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char name[64];

		if (!len || len >= sizeof(name)) {
			snprintf(bad, badlen, "%.*s", (int)(len < 64 ? len : 64), p);
			return -MPERF_ERR_NOEVENT;
		}
		memcpy(name, p, len);
		name[len] = 0;
		if (n == max)
			return -E2BIG;
		if (pd_event_lookup(name, &ev[n].type, &ev[n].config)) {
			snprintf(bad, badlen, "%s", name);
			return -MPERF_ERR_NOEVENT;
		}
		memcpy(ev[n].name, name, len + 1);
		n++;
		if (!comma)
			break;
		p = comma + 1;
	}
	return (int)n;
}
