// SPDX-License-Identifier: GPL-2.0-only
/*
 * The files a command writes besides perf.data (stat -o, record
 * --json-summary, report --format -o): opened before the work starts, so
 * that a path that cannot be written fails the command before the workload
 * runs, and written under a temporary name renamed over the path once
 * whole, so that a failure never leaves a half-written file under it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../src/host/host.h"
#include "cmd.h"

int cmd_out_open(const char *cmd, struct cmd_out *o, const char *path)
{
	struct stat st;
	int err;

	*o = (struct cmd_out){ .path = path, .nf = { .fd = -1 } };
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* A device or a FIFO (/dev/null): written in place, a rename would replace it. */
		if (S_ISDIR(st.st_mode)) {
			cmd_error(cmd, "cannot write '%s': %s", path, strerror(EISDIR));
			return EXIT_MPERF;
		}
		if (!(o->f = fopen(path, "w"))) {
			cmd_error(cmd, "cannot write '%s': %s", path, strerror(errno));
			return EXIT_MPERF;
		}
		return 0;
	}
	/* A file this user may not write is refused, as fopen would, not replaced. */
	if (access(path, F_OK) == 0 && access(path, W_OK)) {
		cmd_error(cmd, "cannot write '%s': %s", path, strerror(errno));
		return EXIT_MPERF;
	}
	if ((err = host_newfile_open(&o->nf, path, HOST_NEWFILE_UMASK)) || !(o->f = fdopen(o->nf.fd, "w"))) {
		if (err == -ENOMEM)
			cmd_error(cmd, "out of memory");
		else
			cmd_error(cmd, "cannot create '%s': %s", path,
				  strerror(err ? -err : errno));
		host_newfile_done(&o->nf);
		return EXIT_MPERF;
	}
	o->nf.fd = -1;	/* o->f's now */
	o->atomic = true;
	return 0;
}

int cmd_out_close(const char *cmd, struct cmd_out *o, bool ok)
{
	int ret = 0, err;

	if (!o->f)
		return 0;
	if (o->f == stdout) {
		/* A write error on standard output is main's to say (or a quiet 141). */
		o->f = NULL;
		return 0;
	}
	if ((fflush(o->f) || ferror(o->f)) && ok) {
		cmd_error(cmd, "cannot write '%s': %s", o->path, strerror(errno ? errno : EIO));
		ret = EXIT_MPERF;
	}
	if (fclose(o->f) && ok && !ret) {
		cmd_error(cmd, "cannot write '%s': %s", o->path, strerror(errno));
		ret = EXIT_MPERF;
	}
	o->f = NULL;
	if (o->atomic) {
		if (ok && !ret && (err = host_newfile_commit(&o->nf))) {
			cmd_error(cmd, "cannot rename '%s' to '%s': %s", o->nf.tmp, o->path, strerror(-err));
			ret = EXIT_MPERF;
		}
		host_newfile_done(&o->nf);
	}
	return ret;
}
