// SPDX-License-Identifier: GPL-2.0-only
/*
 * mperf archive: perf archive's tarball of the build-id cache entries a
 * recording needs.  perf's cache (~/.debug) keeps, per DSO,
 *
 *   <dir>/<path>/<build id>/elf       (a hard link to, or copy of, the file;
 *                                      "kallsyms" for the kernel, "vdso" for the vdso,
 *                                      "debug" beside it: /usr/lib/debug's file)
 *   <dir>/.build-id/<xx>/<rest>   ->  ../../<path>/<build id>
 *
 * and perf archive packs, for each DSO buildid-list -H names with a build
 * id, the link and the directory it points to.  perf record fills the
 * cache as it ends; mperf record does not, so the entries a recording
 * needs are made here first, from this machine's files when their build
 * ids are the recorded ones.  The tarball is made by tar(1), as perf
 * archive makes it: bzip2-compressed when bzip2 is installed (perf's
 * .tar.bz2), else gzip (.tar.gz), else plain.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../host/host.h"
#include "../lib/alloc.h"
#include "../lib/buf.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "report.h"

extern char **environ;

struct want {
	char hex[2 * HOST_BUILD_ID_MAX + 1];
	char *name;
	bool kernel, host;
};

struct wants {
	struct want *v;
	size_t n, cap;
	int err;
};

static int collect(void *arg, const struct report_dso *d)
{
	struct wants *w = arg;
	bool zero = true;

	for (size_t i = 0; i < d->id_len; i++)
		zero &= d->id[i] == 0;
	if (zero)	/* no id (perf archive drops these lines), or one that names no file */
		return 0;
	if (ALLOC_GROW(w->v, w->n + 1, w->cap) || !(w->v[w->n].name = strdup(d->name)))
		return w->err = -ENOMEM;
	host_build_id_hex(d->id, d->id_len, w->v[w->n].hex);
	w->v[w->n].kernel = d->kernel;
	w->v[w->n].host = d->machine == -1;
	w->n++;
	return 0;
}

/* mkdir -p, each component 0755. */
static int mkdirs(const char *path)
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
	char tmp[PATH_MAX + 16];
	char chunk[1 << 16];
	int fd, err = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp%d", dst, (int)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
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
			ssize_t w = write(fd, p + off, (size_t)(n - off));

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
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, dst))
		err = -errno;
	if (err)
		unlink(tmp);
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

/*
 * Make the cache entry of w from this machine when it has the file that
 * ran: the kernel's kallsyms and vdso when their ids are this machine's,
 * a file whose build id is the recorded one.  0, 1 when there is none
 * here (said as a warning), or a negative code (logged).
 */
static int add_entry(const char *debugdir, const struct want *w, const char *link)
{
	unsigned char id[HOST_BUILD_ID_MAX];
	char hex[2 * HOST_BUILD_ID_MAX + 1] = "", dir[PATH_MAX], target[PATH_MAX + 16], real[PATH_MAX];
	const char *rel;	/* dir below debugdir, with its leading '/' */
	size_t n = 0;
	int err;

	if (w->host && w->kernel && !strcmp(w->name, "[kernel.kallsyms]"))
		n = host_kernel_build_id(id);
	else if (w->host && !strcmp(w->name, "[vdso]"))
		n = host_vdso_build_id(id);
	else if (w->host && w->name[0] == '/' && realpath(w->name, real))
		n = host_file_build_id(real, id);
	host_build_id_hex(id, n, hex);
	if (!n || strcmp(hex, w->hex)) {
		mperf_log(MPERF_LOG_WARN, "'%s' with build id %s is not in %s, and this machine has no copy of it%s",
			  w->name, w->hex, debugdir, n ? " (this machine's is another build)" : "");
		return 1;
	}
	if (w->name[0] == '[')
		snprintf(dir, sizeof(dir), "%s/%s/%s", debugdir, w->name, w->hex);
	else if (snprintf(dir, sizeof(dir), "%s%s/%s", debugdir, real, w->hex) >= (int)sizeof(dir))
		return mperf_error(-ENAMETOOLONG, "'%s': a name too long for the build-id cache", w->name);
	rel = dir + strlen(debugdir);
	if ((err = mkdirs(dir)))
		return mperf_error(err, "cannot make '%s': %s", dir, mperf_strerror(err));
	if (w->name[0] != '[') {
		char debug[PATH_MAX];

		err = link_or_copy(real, dir, "elf");
		/* A stripped file's symbols may be in /usr/lib/debug: perf caches that too. */
		snprintf(debug, sizeof(debug), "/usr/lib/debug/.build-id/%.2s/%s.debug", w->hex, w->hex + 2);
		if (!err && access(debug, R_OK) == 0 && realpath(debug, real))
			err = link_or_copy(real, dir, "debug");
	} else if (!strcmp(w->name, "[vdso]")) {
		const void *img;
		size_t len;

		snprintf(target, sizeof(target), "%s/vdso", dir);
		err = access(target, F_OK) == 0 ? 0 : host_vdso(&img, &len) ? -ENOENT : write_file(target, -1, img, len, 0600);
	} else {
		snprintf(target, sizeof(target), "%s/kallsyms", dir);
		err = access(target, F_OK) == 0 ? 0 : copy_path("/proc/kallsyms", target, 0755);
	}
	if (err)
		return mperf_error(err, "cannot add '%s' to the build-id cache in '%s': %s", w->name, dir, mperf_strerror(err));
	/* The link: ../../<rel>, relative to <debugdir>/.build-id/xx/. */
	snprintf(target, sizeof(target), "../..%s", rel);
	snprintf(dir, sizeof(dir), "%s/.build-id/%.2s", debugdir, w->hex);
	unlink(link);	/* a dangling one */
	if ((err = mkdirs(dir)) || (symlink(target, link) && errno != EEXIST && (err = -errno)))
		return mperf_error(err, "cannot make the link '%s': %s", link, mperf_strerror(err));
	return 0;
}

/* The first program of names found on PATH, or NULL. */
static const char *on_path(const char *name)
{
	const char *path = getenv("PATH");
	char p[PATH_MAX];

	if (!path || !*path)
		path = "/usr/bin:/bin";
	for (const char *s = path; ; ) {
		size_t n = strcspn(s, ":");

		if (snprintf(p, sizeof(p), "%.*s/%s", (int)(n ? n : 1), n ? s : ".", name) < (int)sizeof(p) &&
		    access(p, X_OK) == 0)
			return name;
		if (!s[n])
			break;
		s += n + 1;
	}
	return NULL;
}

/* Run tar -c over the NUL-separated names in list (relative to debugdir) into out. */
static int run_tar(const char *debugdir, const char *flag, const char *out, const struct mbuf *list)
{
	char *argv[] = { "tar", "-c", "-f", (char *)out, (char *)flag, "-C", (char *)debugdir, "--null",
			 "-T", "-", NULL };
	posix_spawn_file_actions_t fa;
	int pfd[2], status, err = 0;
	pid_t pid;

	if (!flag[0])
		memmove(&argv[4], &argv[5], 6 * sizeof(*argv));
	if (pipe2(pfd, O_CLOEXEC))
		return mperf_error(-errno, "cannot run tar: %s", strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[0], 0);
	err = posix_spawnp(&pid, "tar", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[0]);
	if (err) {
		close(pfd[1]);
		return mperf_error(-err, "cannot run tar: %s", strerror(err));
	}
	/* A tar that stops reading: EPIPE, not SIGPIPE (which the caller ignores). */
	for (size_t off = 0; off < list->len; ) {
		ssize_t n = write(pfd[1], list->p + off, list->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		off += (size_t)n;
	}
	close(pfd[1]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return mperf_error(-errno, "cannot wait for tar: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		return mperf_error(-EIO, "tar failed (exit %d) making '%s'", WEXITSTATUS(status), out);
	return mperf_error(-EIO, "tar was killed by signal %d making '%s'", WTERMSIG(status), out);
}

int report__archive(struct pdata *p, const char *label, const char *debugdir, const char *input,
		    struct report_archive *res)
{
	struct wants w = { 0 };
	struct mbuf list = { 0 };
	char realdir[PATH_MAX], tmp[PATH_MAX + 32];
	const char *flag, *suffix;
	int err;

	memset(res, 0, sizeof(*res));
	err = report__dsos(p, label, true, collect, &w);
	if (!err && w.err)
		err = mperf_error(w.err, "out of memory");
	if (!err && (mkdirs(debugdir) || !realpath(debugdir, realdir)))
		err = mperf_error(-errno, "cannot use the build-id cache '%s': %s", debugdir, strerror(errno));
	for (size_t i = 0; !err && i < w.n; i++) {
		char link[PATH_MAX], real[PATH_MAX];
		struct stat st;
		size_t rl = strlen(realdir);
		bool dup = false;

		for (size_t k = 0; k < i; k++)
			dup |= !strcmp(w.v[k].hex, w.v[i].hex);
		if (dup)
			continue;
		snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", debugdir, w.v[i].hex, w.v[i].hex + 2);
		if (stat(link, &st)) {
			int r = add_entry(debugdir, &w.v[i], link);

			if (r < 0)
				err = r;
			if (r) {
				res->missing++;
				continue;
			}
			res->added++;
		}
		/* perf archive's manifest: the link, and where it leads (below the cache). */
		if (!realpath(link, real) || strncmp(real, realdir, rl) || real[rl] != '/') {
			mperf_log(MPERF_LOG_WARN, "'%s' leads out of the build-id cache: '%s' not archived", link, w.v[i].name);
			res->missing++;
			continue;
		}
		snprintf(tmp, sizeof(tmp), ".build-id/%.2s/%s", w.v[i].hex, w.v[i].hex + 2);
		if (mbuf_add(&list, tmp, strlen(tmp) + 1) || mbuf_add(&list, real + rl + 1, strlen(real + rl + 1) + 1))
			err = mperf_error(-ENOMEM, "out of memory");
		res->archived++;
	}
	if (!err && res->archived) {
		if (on_path("bzip2"))
			flag = "-j", suffix = ".tar.bz2";
		else if (on_path("gzip"))
			flag = "-z", suffix = ".tar.gz";
		else
			flag = "", suffix = ".tar";
		snprintf(res->output, sizeof(res->output), "%s%s", input, suffix);
		snprintf(tmp, sizeof(tmp), "%s.tmp%d", res->output, (int)getpid());
		err = run_tar(debugdir, flag, tmp, &list);
		if (!err && rename(tmp, res->output))
			err = mperf_error(-errno, "cannot write '%s': %s", res->output, strerror(errno));
		if (err)
			unlink(tmp);
	}
	for (size_t i = 0; i < w.n; i++)
		free(w.v[i].name);
	free(w.v);
	mbuf_free(&list);
	return err;
}
