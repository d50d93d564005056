// SPDX-License-Identifier: GPL-2.0-only
/*
 * mperf archive: perf archive's tarball of the build-id cache entries a
 * recording needs.  perf archive packs, for each DSO buildid-list -H names
 * with a build id, the cache's link (~/.debug/.build-id/xx/rest, laid out
 * in src/host/bidcache.c) and the directory it points to.  perf record
 * and mperf record fill the cache as they end, unless told not to (-N):
 * the entries that are missing are made here first, from this machine's
 * files when their build ids are the recorded ones.  The tarball is made by tar(1), as perf
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

/*
 * Make the cache entry of w from this machine when it has the file that
 * ran: 0 (made, or there already), 1 when there is none here (said as a
 * warning), or a negative code (logged).
 */
static int add_entry(const char *debugdir, const struct want *w, bool *added)
{
	int r = w->host ? host_bidcache_add(debugdir, w->name, w->kernel, w->hex) : HOST_BIDCACHE_ABSENT;

	if (r == HOST_BIDCACHE_ABSENT) {
		mperf_log(MPERF_LOG_WARN, "'%s' with build id %s is not in %s, and this machine has no copy of it",
			  w->name, w->hex, debugdir);
		return 1;
	}
	if (r < 0)
		return mperf_error(r, "cannot add '%s' to the build-id cache '%s': %s", w->name, debugdir,
				   mperf_strerror(r));
	*added = r == HOST_BIDCACHE_ADDED;
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
	if (!err) {
		int e = host_mkdirs(debugdir);

		if (!e && !realpath(debugdir, realdir))
			e = -errno;
		if (e)
			err = mperf_error(e, "cannot use the build-id cache '%s': %s", debugdir, mperf_strerror(e));
	}
	for (size_t i = 0; !err && i < w.n; i++) {
		char link[PATH_MAX], real[PATH_MAX];
		struct stat st;
		size_t rl = strlen(realdir);
		bool dup = false, added = false;

		for (size_t k = 0; k < i; k++)
			dup |= !strcmp(w.v[k].hex, w.v[i].hex);
		if (dup)
			continue;
		if ((err = host_bidcache_link(debugdir, w.v[i].hex, NULL, link, sizeof(link)))) {
			err = mperf_error(err, "'%s': a name too long for the build-id cache", w.v[i].name);
			break;
		}
		if (stat(link, &st)) {
			int r = add_entry(debugdir, &w.v[i], &added);

			if (r < 0)
				err = r;
			if (r) {
				res->missing++;
				continue;
			}
			res->added += added;
		}
		/* perf archive's manifest: the link, and where it leads (below the cache). */
		if (!realpath(link, real) || strncmp(real, realdir, rl) || real[rl] != '/') {
			mperf_log(MPERF_LOG_WARN, "'%s' leads out of the build-id cache: '%s' not archived", link, w.v[i].name);
			res->missing++;
			continue;
		}
		/* The link's name below the cache: .build-id/xx/rest. */
		snprintf(tmp, sizeof(tmp), "%s", link + strlen(debugdir) + 1);
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
		struct host_newfile nf;

		snprintf(res->output, sizeof(res->output), "%s%s", input, suffix);
		/* tar writes the temporary file by its name. */
		if ((err = host_newfile_open(&nf, res->output, HOST_NEWFILE_UMASK)))
			err = mperf_error(err, "cannot write '%s': %s", res->output, strerror(-err));
		else if (!(err = run_tar(debugdir, flag, nf.tmp, &list)) && (err = host_newfile_commit(&nf)))
			err = mperf_error(err, "cannot write '%s': %s", res->output, strerror(-err));
		host_newfile_done(&nf);
	}
	for (size_t i = 0; i < w.n; i++)
		free(w.v[i].name);
	free(w.v);
	mbuf_free(&list);
	return err;
}
