// SPDX-License-Identifier: GPL-2.0-only
/*
 * What record, report and stat share: --check-tolerance and the JSON
 * summary file for CI; -e, for record and stat.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../src/record/record.h"
#include "../src/stat/stat.h"
#include "cmd.h"

int cmd_parse_tolerance(const char *arg, double *pct)
{
	char *end;

	errno = 0;
	*pct = strtod(arg, &end);
	return end == arg || *end || errno || !(*pct >= 0 && *pct <= 100) ? -1 : 0;
}

int cmd_write_json(const char *path, const struct stat_summary *s)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;

	if (!f) {
		cmd_error(s->source, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	if (stat__summary_json(f, s) < 0 || (f != stdout && fclose(f))) {
		cmd_error(s->source, "cannot write '%s': %s", path, strerror(errno ? errno : EIO));
		if (f != stdout)
			fclose(f);
		return -1;
	}
	return 0;
}

int cmd_parse_events(const char *cmd, const char *arg, struct record_event *ev, size_t *nr)
{
	int ret = record__parse_events(arg, ev, RECORD_MAX_EVENTS, nr);

	if (ret >= 0)
		return 0;
	/* Said by the parser in one line; a name this machine lacks: its events; the syntax: -h. */
	if (ret == -MPERF_ERR_NOEVENT || ret == -ENOENT)
		cmd_hint_text("see 'mperf list' for the events of this machine");
	else
		cmd_hint(cmd);
	return EXIT_USAGE;
}
