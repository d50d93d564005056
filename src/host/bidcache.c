// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's build-id cache (~/.debug): its one layout, for the readers
 * (report's symbols) and the writers (record as it ends, archive).
 * perf 6.1 keeps, per DSO with a build id,
 *
 *   <dir>/<name>/<build id>/elf        a hard link to the file, or a copy
 *                           /kallsyms   for [kernel.kallsyms]: /proc/kallsyms
 *                           /vdso       for [vdso]: the image, 0600
 *                           /debug      /usr/lib/debug's file of that id, when there is one
 *                           /probes     the SDT probe cache (empty without SDT notes;
 *                                       none for the kernel)
 *   <dir>/.build-id/<xx>/<rest>   ->  ../../<name>/<build id>
 *
 * where <name> is the file's real path, or the bracketed name.  The
 * cache's old layout had the link be the file itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "host.h"

int host_bidcache_dir(char *buf, size_t len)
{
	const char *home = getenv("HOME");
	int n;

	if (!home || !home[0])
		return -ENOENT;
	n = snprintf(buf, len, "%s/.debug", home);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int host_bidcache_link(const char *dir, const char *hex, const char *base, char *buf, size_t len)
{
	int n;

	if (strlen(hex) < 3)
		return -EINVAL;
	n = snprintf(buf, len, "%s/.build-id/%.2s/%s%s%s", dir, hex, hex + 2, base ? "/" : "", base ? base : "");
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int host_bidcache_path(const char *dir, const char *name, const char *hex, const char *base, char *buf, size_t len)
{
	int n;

	if (name[0] != '[' && name[0] != '/')
		return -EINVAL;
	n = snprintf(buf, len, "%s%s%s/%s%s%s", dir, name[0] == '[' ? "/" : "", name, hex, base ? "/" : "",
		     base ? base : "");
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int host_system_debug_path(const char *hex, char *buf, size_t len)
{
	int n;

	if (strlen(hex) < 3)
		return -EINVAL;
	n = snprintf(buf, len, "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

const char *host_bidcache_base(const char *name, bool kernel)
{
	if (kernel && !strcmp(name, "[kernel.kallsyms]"))
		return "kallsyms";
	if (!strcmp(name, "[vdso]"))
		return "vdso";
	return "elf";
}

int host_mkdirs(const char *path)
{
	char p[PATH_MAX];
	size_t n = strlen(path);

	if (n >= sizeof(p))
		return -ENAMETOOLONG;
	memcpy(p, path, n + 1);
	for (char *s = p + 1; ; s++) {
		if (*s == '/' || !*s) {
			char c = *s;

			*s = 0;
			if (mkdir(p, 0755) && errno != EEXIST)
				return -errno;
			*s = c;
			if (!c)
				break;
		}
	}
	return 0;
}

/* Write len bytes of buf (or all of fd src) to dst, made anew through a temporary name. */
static int write_file(const char *dst, int src, const void *buf, size_t len, mode_t mode)
{
	struct host_newfile nf;
	char chunk[1 << 16];
	int err;

	/* The mode as asked, whatever the umask (perf's copies keep the file's). */
	if ((err = host_newfile_open(&nf, dst, (int)mode)))
		goto out;
	for (;;) {
		const char *p = buf;
		ssize_t n = (ssize_t)len;

		if (src >= 0) {
			n = read(src, chunk, sizeof(chunk));
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				err = -errno;
				break;
			}
			p = chunk;
		}
		if (n == 0)
			break;
		for (ssize_t off = 0; off < n; ) {
			ssize_t w = write(nf.fd, p + off, (size_t)(n - off));

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				err = -errno;
				break;
			}
			off += w;
		}
		if (err || src < 0)
			break;
	}
	if (!err)
		err = host_newfile_commit(&nf);
out:
	host_newfile_done(&nf);
	return err;
}

static int copy_path(const char *src, const char *dst, mode_t mode)
{
	int fd = open(src, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	err = write_file(dst, fd, NULL, 0, mode);
	close(fd);
	return err;
}

/* dir/base from file: a hard link where it can be, as perf makes it, else a copy. */
static int link_or_copy(const char *file, const char *dir, const char *base)
{
	char dst[PATH_MAX];
	struct stat st;

	if (snprintf(dst, sizeof(dst), "%s/%s", dir, base) >= (int)sizeof(dst))
		return -ENAMETOOLONG;
	if (access(dst, F_OK) == 0)
		return 0;
	if (link(file, dst) == 0 || errno == EEXIST)
		return 0;
	return copy_path(file, dst, stat(file, &st) == 0 ? st.st_mode & 0777 : 0644);
}

/* Whether /proc/kallsyms shows this user the addresses: its first line says it. */
static bool kallsyms_shown(void)
{
	char buf[64];
	int fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	return strtoull(buf, NULL, 16) != 0;
}

int host_bidcache_add(const char *dir, const char *name, bool kernel, const char *hex)
{
	unsigned char id[HOST_BUILD_ID_MAX];
	char have[2 * HOST_BUILD_ID_MAX + 1] = "", entry[PATH_MAX], link[PATH_MAX], target[PATH_MAX + 8];
	char real[PATH_MAX], path[PATH_MAX];
	const char *file = name, *base = host_bidcache_base(name, kernel);
	bool kallsyms = !strcmp(base, "kallsyms"), vdso = !strcmp(base, "vdso");
	struct stat st;
	size_t n = 0;
	int err;

	if ((err = host_bidcache_link(dir, hex, NULL, link, sizeof(link))))
		return err;
	/* Had: a link that leads somewhere (the old layout's file too). */
	if (stat(link, &st) == 0)
		return HOST_BIDCACHE_HAD;
	if (kallsyms)
		n = kallsyms_shown() ? host_kernel_build_id(id) : 0;	/* perf keeps no kallsyms of zeros */
	else if (vdso)
		n = host_vdso_build_id(id);
	else if (name[0] == '/' && realpath(name, real) && (n = host_file_build_id(real, id)))
		file = real;
	host_build_id_hex(id, n, have);
	if (!n || strcmp(have, hex))
		return HOST_BIDCACHE_ABSENT;
	if ((err = host_bidcache_path(dir, file, hex, NULL, entry, sizeof(entry))))
		return err;
	/* An old layout's file where the entry's directory goes: perf replaces it. */
	if (lstat(entry, &st) == 0 && !S_ISDIR(st.st_mode) && unlink(entry))
		return -errno;
	if ((err = host_mkdirs(entry)))
		return err;
	if ((err = host_bidcache_path(dir, file, hex, base, path, sizeof(path))))
		return err;
	if (kallsyms) {
		err = access(path, F_OK) == 0 ? 0 : copy_path("/proc/kallsyms", path, 0755);
	} else if (vdso) {
		const void *img;
		size_t len;

		err = access(path, F_OK) == 0 ? 0 : host_vdso(&img, &len) ? -ENOENT : write_file(path, -1, img, len, 0600);
	} else {
		char debug[PATH_MAX], debug_real[PATH_MAX];

		err = link_or_copy(file, entry, base);
		/* A stripped file's symbols may be in /usr/lib/debug: perf caches that too. */
		if (!err && !host_system_debug_path(hex, debug, sizeof(debug)) && access(debug, R_OK) == 0 &&
		    realpath(debug, debug_real))
			err = link_or_copy(debug_real, entry, "debug");
	}
	if (err)
		return err;
	/* perf's SDT probe cache: created beside every entry but the kernel's (the notes are not read). */
	if (!kallsyms) {
		int fd;

		if ((err = host_bidcache_path(dir, file, hex, "probes", path, sizeof(path))))
			return err;
		if ((fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) < 0)
			return -errno;
		close(fd);
	}
	/* The link: ../../<name>/<build id>, relative to <dir>/.build-id/xx/. */
	snprintf(target, sizeof(target), "../..%s", entry + strlen(dir));
	snprintf(path, sizeof(path), "%s", link);
	*strrchr(path, '/') = 0;	/* <dir>/.build-id/xx */
	unlink(link);	/* a dangling one */
	if ((err = host_mkdirs(path)))
		return err;
	if (symlink(target, link) && errno != EEXIST)
		return -errno;
	return HOST_BIDCACHE_ADDED;
}
