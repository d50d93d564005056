// SPDX-License-Identifier: GPL-2.0-only
/*
 * What record, report and stat share: --check-tolerance, --check-status,
 * the check's findings and the JSON summary for CI; -e, for record and stat.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../src/record/record.h"
#include "../src/stat/stat.h"
#include "cmd.h"
#include "options.h"

int cmd_parse_tolerance(const char *arg, double *pct)
{
	char *end;

	errno = 0;
	*pct = strtod(arg, &end);
	return end == arg || *end || errno || !(*pct >= 0 && *pct <= 100) ? -1 : 0;
}

int cmd_parse_check_status(const char *arg, int *status)
{
	long v;

	if (cmd_parse_long(arg, 1, 124, &v))
		return -1;
	*status = (int)v;
	return 0;
}

void cmd_check_say(const char *cmd, const struct check_findings *f)
{
	for (size_t i = 0; i < f->nr; i++)
		cmd_error(cmd, "%s", f->line[i]);
}

int cmd_write_json(const char *cmd, struct cmd_out *o, const struct stat_summary *s)
{
	errno = 0;
	if (stat__summary_json(o->f, s) < 0 && o->f != stdout) {
		cmd_error(cmd, "cannot write '%s': %s", o->path, strerror(errno ? errno : EIO));
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
