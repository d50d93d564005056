// SPDX-License-Identifier: GPL-2.0-only
/*
 * The end of the running kernel's text (_etext), which record needs for
 * the length of the kernel map it writes, as perf 6.1 finds it.  Finding
 * it in /proc/kallsyms means the kernel formats about 96% of its ~120k
 * lines (some 40 ms of CPU, the most of a short recording), so its
 * offset from _text, fixed by the kernel image (KASLR moves the image
 * whole), is remembered per kernel build id in
 * ${XDG_CACHE_HOME:-$HOME/.cache}/mperf/kernel/<build id>: one line,
 * the offset in hex.  A kernel without a build id, or no cache, and the
 * scan is done each time; a cache that cannot be written is no error.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "host.h"

/* The cache's directory and file for this kernel, or false (no build id, no home). */
static bool ktext_paths(char *dir, char *file, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	unsigned char id[HOST_BUILD_ID_MAX];
	char hex[2 * HOST_BUILD_ID_MAX + 1];
	size_t n = host_kernel_build_id(id);
	int m;

	if (!n)
		return false;
	host_build_id_hex(id, n, hex);
	if (xdg && xdg[0] == '/')
		m = snprintf(dir, len, "%s/mperf/kernel", xdg);
	else if (home && home[0])
		m = snprintf(dir, len, "%s/.cache/mperf/kernel", home);
	else
		return false;
	if (m < 0 || (size_t)m >= len)
		return false;
	m = snprintf(file, len, "%s/%s", dir, hex);
	return m >= 0 && (size_t)m < len;
}

/* The offset the cache holds, or false. */
static bool ktext_read(const char *file, uint64_t *off)
{
	char buf[32], *end;
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 1 || buf[n - 1] != '\n')
		return false;
	buf[n - 1] = 0;
	errno = 0;
	*off = strtoull(buf, &end, 16);
	return !errno && !*end && end != buf && *off;
}

static void ktext_write(const char *dir, const char *file, uint64_t off)
{
	struct host_newfile nf;
	char line[32];
	int n = snprintf(line, sizeof(line), "%" PRIx64 "\n", off);

	if (host_mkdirs(dir) || host_newfile_open(&nf, file, 0644))
		return;
	if (write(nf.fd, line, (size_t)n) == n)
		host_newfile_commit(&nf);
	host_newfile_done(&nf);
}

int host_kernel_etext(uint64_t text, uint64_t *etext)
{
	char dir[PATH_MAX], file[PATH_MAX];
	bool cache = ktext_paths(dir, file, sizeof(dir));
	uint64_t off;
	int err;

	if (cache && ktext_read(file, &off) && text + off > text) {
		*etext = text + off;
		return 0;
	}
	if ((err = host_kallsyms_find("_etext", etext)))
		return err;
	if (cache && *etext > text)
		ktext_write(dir, file, *etext - text);
	return 0;
}
