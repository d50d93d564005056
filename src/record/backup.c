// SPDX-License-Identifier: GPL-2.0-only
/*
 * The output's old copy, kept as perf 6.1 keeps it: an output that exists
 * and is not empty (a file, or a directory: --threads', or any other) is
 * renamed OUTPUT.old, once an earlier OUTPUT.old is gone.  That one is
 * removed if it is a file, or a directory holding perf's files alone
 * (data, data.*); a directory holding anything else is left as it is and
 * the recording refused, as perf refuses it ("Unknown file found").
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../lib/err.h"
#include "../lib/log.h"
#include "internal.h"

/* One of perf's files in a directory of --threads: data, data.*. */
static bool perf_part(const char *name)
{
	return !strcmp(name, "data") || !strncmp(name, "data.", 5);
}

/* The directory old, of perf's files alone: 0, or the error logged (nothing removed for a stranger). */
static int remove_dir(const char *old, const char *out)
{
	struct dirent *de;
	DIR *dir = opendir(old);
	int err = 0;

	if (!dir)
		return mperf_error(-errno, "cannot remove '%s' (for '%s' to take its name): %s", old, out, strerror(errno));
	while (!err && (de = readdir(dir))) {
		char path[4096];
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!perf_part(de->d_name))
			err = mperf_error(-ENOTEMPTY, "cannot remove '%s' (for '%s' to take its name): it holds '%s', not perf's data",
					  old, out, de->d_name);
		else if ((size_t)snprintf(path, sizeof(path), "%s/%s", old, de->d_name) >= sizeof(path))
			err = mperf_error(-ENAMETOOLONG, "'%s/%s': name too long", old, de->d_name);
		else if (lstat(path, &st) == 0 && !S_ISDIR(st.st_mode) && unlink(path) < 0)
			err = mperf_error(-errno, "cannot remove '%s': %s", path, strerror(errno));
	}
	closedir(dir);
	if (!err && rmdir(old) < 0)
		err = mperf_error(-errno, "cannot remove '%s' (for '%s' to take its name): %s", old, out, strerror(errno));
	return err;
}

int record_backup(const char *out)
{
	struct stat st;
	char old[4096];
	int err;

	if (!strcmp(out, "-") || stat(out, &st) < 0 || !st.st_size)
		return 0;
	if ((size_t)snprintf(old, sizeof(old), "%s.old", out) >= sizeof(old))
		return mperf_error(-ENAMETOOLONG, "cannot rename '%s': name too long", out);
	if (lstat(old, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			err = remove_dir(old, out);
		else
			err = unlink(old) < 0 ? mperf_error(-errno, "cannot remove '%s': %s", old, strerror(errno)) : 0;
		if (err)
			return err;
	}
	if (rename(out, old) < 0)
		return mperf_error(-errno, "cannot rename '%s' to '%s': %s", out, old, strerror(errno));
	return 0;
}
