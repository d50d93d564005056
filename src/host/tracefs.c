// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracefs, read-only: where it is mounted, its files (whose size stat()
 * does not know: they are read to their end), and its directories in the
 * order the kernel lists them, which is the order perf writes them in.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "host.h"

static const char *const tracefs_dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

int host_tracefs_dir(char *buf, size_t len)
{
	int first_err = 0;

	for (size_t i = 0; i < sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]); i++) {
		char events[PATH_MAX];
		struct stat st;

		snprintf(events, sizeof(events), "%s/events", tracefs_dirs[i]);
		if (stat(events, &st) == 0 && S_ISDIR(st.st_mode)) {
			if ((size_t)snprintf(buf, len, "%s", tracefs_dirs[i]) >= len)
				return -ENAMETOOLONG;
			return 0;
		}
		if (errno != ENOENT && errno != ENOTDIR && !first_err)
			first_err = -errno;
	}
	return first_err ? first_err : -ENOENT;
}

int host_read_whole_file(const char *path, char **data, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 4096, n = 0;
	char *p;

	*data = NULL;
	*len = 0;
	if (fd < 0)
		return -errno;
	if (!(p = malloc(cap))) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *q = cap > SIZE_MAX / 2 ? NULL : realloc(p, cap * 2);

			if (!q) {
				free(p);
				close(fd);
				return -ENOMEM;
			}
			p = q;
			cap *= 2;
		}
		r = read(fd, p + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(p);
			close(fd);
			return -e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*data = p;
	*len = n;
	return 0;
}

int host_list_dirs(const char *dir, int (*fn)(void *arg, const char *name), void *arg)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int err = 0;

	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type == DT_UNKNOWN) {
			struct stat st;

			if (fstatat(dirfd(d), de->d_name, &st, 0) < 0 || !S_ISDIR(st.st_mode))
				continue;
		} else if (de->d_type != DT_DIR) {
			continue;
		}
		err = fn(arg, de->d_name);
	}
	closedir(d);
	return err;
}
