// SPDX-License-Identifier: GPL-2.0-only
/*
 * The data.N files of a perf.data directory (dir.h): listed in readdir
 * order and mapped, as perf 6.1's perf_data__open_dir takes them; the
 * reader reads them after the header file's data.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../lib/alloc.h"
#include "dir.h"

void pd_dir_parts_free(struct pd_part *parts, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		if (parts[i].mem)
			munmap((void *)parts[i].mem, parts[i].len);
		free(parts[i].path);
	}
	free(parts);
}

/* Map one data.N file into *part: 1, 0 for what is not a non-empty regular file, or -errno. */
static int map_part(const char *path, struct pd_part *part, char *err, size_t errlen)
{
	struct stat st;
	void *m;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(e));
		return -e;
	}
	if (!S_ISREG(st.st_mode) || !st.st_size) {
		close(fd);
		return 0;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		snprintf(err, errlen, "cannot map '%s': %s", path, strerror(errno));
		return -errno;
	}
	madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
	part->mem = m;
	part->len = (size_t)st.st_size;
	return 1;
}

int pd_dir_parts(const char *dir, struct pd_part **parts, size_t *nr, char *err, size_t errlen)
{
	struct pd_part *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d = opendir(dir);
	int r = 0;

	if (!d) {
		snprintf(err, errlen, "cannot open directory '%s': %s", dir, strerror(errno));
		return -errno;
	}
	while ((de = readdir(d))) {
		struct pd_part part = { 0 };

		if (strncmp(de->d_name, "data.", 5))
			continue;
		if (asprintf(&part.path, "%s/%s", dir, de->d_name) < 0) {
			r = -ENOMEM;
			break;
		}
		r = map_part(part.path, &part, err, errlen);
		if (r <= 0 || ALLOC_GROW(v, n + 1, cap)) {
			free(part.path);
			if (part.mem)
				munmap((void *)part.mem, part.len);
			if (r > 0)
				r = -ENOMEM;
			if (r < 0)
				break;
			continue;
		}
		v[n++] = part;
		r = 0;
	}
	closedir(d);
	if (r < 0) {
		pd_dir_parts_free(v, n);
		return r;
	}
	*parts = v;
	*nr = n;
	return 0;
}
