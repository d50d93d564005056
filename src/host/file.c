// SPDX-License-Identifier: GPL-2.0-only
/* Opening and reading the files of this machine, and making new ones whole. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "host.h"

int host_open_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

int host_read_small_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return (int)n;
}

int host_newfile_open(struct host_newfile *nf, const char *path, int mode)
{
	size_t n = strlen(path) + sizeof(".tmp.XXXXXX");

	*nf = (struct host_newfile){ .path = path, .fd = -1 };
	if (!(nf->tmp = malloc(n)))
		return -ENOMEM;
	snprintf(nf->tmp, n, "%s.tmp.XXXXXX", path);
	if ((nf->fd = mkostemp(nf->tmp, O_CLOEXEC)) < 0)
		return -errno;
	nf->made = true;
	/* mkstemp's file is 0600. */
	if (mode == HOST_NEWFILE_UMASK) {
		mode_t mask = umask(0);

		umask(mask);
		mode = (int)(0666 & ~mask);
	}
	if (fchmod(nf->fd, (mode_t)mode))
		return -errno;
	return 0;
}

int host_newfile_commit(struct host_newfile *nf)
{
	int fd = nf->fd;

	nf->fd = -1;
	if (fd >= 0 && close(fd))
		return -errno;
	if (rename(nf->tmp, nf->path))
		return -errno;
	nf->made = false;
	return 0;
}

void host_newfile_done(struct host_newfile *nf)
{
	if (nf->fd >= 0)
		close(nf->fd);
	if (nf->made)
		unlink(nf->tmp);
	free(nf->tmp);
	*nf = (struct host_newfile){ .fd = -1 };
}
