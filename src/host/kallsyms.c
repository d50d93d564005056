// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/kallsyms, streamed: "ffffffff81000000 T _text" lines, with
 * "\t[module]" after a module's symbols.  The kernel makes the file as it
 * is read (about 35 ms for 200k lines), so it is read in large chunks
 * through one buffer and each line parsed in place.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "host.h"

#define CHUNK	(1 << 18)

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * Read the file in chunks and hand each run of whole lines [p, end) to
 * chunk(), which returns 0 to go on or a value to stop with.  The one
 * reader of the file: the line parser and the name search sit on it.
 */
static int stream_lines(const char *path, int (*chunk)(void *arg, char *p, char *end), void *arg)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;
	char *buf;
	size_t have = 0;

	if (fd < 0)
		return -errno;
	buf = malloc(CHUNK);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t n = read(fd, buf + have, CHUNK - have);
		char *last;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		have += (size_t)n;
		last = memrchr(buf, '\n', have);
		if (!last) {
			if (have == CHUNK) {
				ret = -EINVAL;	/* a line longer than the buffer: not kallsyms */
				break;
			}
			continue;
		}
		if ((ret = chunk(arg, buf, last + 1)))
			break;
		/* Keep the partial last line for the next read. */
		have = (size_t)(buf + have - (last + 1));
		memmove(buf, last + 1, have);
	}
	free(buf);
	close(fd);
	return ret;
}

/* One line, "ffffffff81000000 T _text[\t[module]]", without its newline at nl. */
static bool parse_line(const char *p, const char *nl, struct host_ksym *s)
{
	int v;

	memset(s, 0, sizeof(*s));
	while ((v = hexval(*p)) >= 0) {
		s->addr = s->addr << 4 | (uint64_t)v;
		p++;
	}
	if (p[0] != ' ' || p + 3 > nl || p[2] != ' ')
		return false;
	s->type = p[1];
	s->name = p + 3;
	const char *tab = memchr(s->name, '\t', (size_t)(nl - s->name));
	s->name_len = (size_t)((tab ? tab : nl) - s->name);
	s->module = tab != NULL;
	if (tab) {
		s->module_name = tab + 1;
		s->module_len = (size_t)(nl - (tab + 1));
	}
	return true;
}

struct each {
	int (*fn)(void *arg, const struct host_ksym *s);
	void *arg;
};

static int each_line(void *arg, char *p, char *end)
{
	struct each *e = arg;
	char *nl;
	int ret;

	for (; (nl = memchr(p, '\n', (size_t)(end - p))); p = nl + 1) {
		struct host_ksym s;

		if (parse_line(p, nl, &s) && (ret = e->fn(e->arg, &s)))
			return ret;
	}
	return 0;
}

int host_kallsyms_stream(int (*fn)(void *arg, const struct host_ksym *s), void *arg)
{
	return host_kallsyms_stream_file("/proc/kallsyms", fn, arg);
}

int host_kallsyms_stream_file(const char *path, int (*fn)(void *arg, const struct host_ksym *s), void *arg)
{
	struct each e = { fn, arg };

	return stream_lines(path, each_line, &e);
}

struct find {
	char needle[128];	/* " name\n": a kernel symbol's line ends so, a module's does not */
	uint64_t addr;
};

/* Search the text for the name (record's start-up waits for _text): no line is parsed but that one. */
static int find_in(void *arg, char *p, char *end)
{
	struct find *f = arg;
	char *hit = memmem(p, (size_t)(end - p), f->needle, strlen(f->needle));
	struct host_ksym s;
	char *line;

	if (!hit)
		return 0;
	for (line = hit; line > p && line[-1] != '\n'; line--)
		;
	if (!parse_line(line, hit + strlen(f->needle) - 1, &s))
		return 0;
	f->addr = s.addr;
	return 1;
}

int host_kallsyms_find(const char *name, uint64_t *addr)
{
	struct find f = { .addr = 0 };
	int ret;

	if ((size_t)snprintf(f.needle, sizeof(f.needle), " %s\n", name) >= sizeof(f.needle))
		return -EINVAL;
	ret = stream_lines("/proc/kallsyms", find_in, &f);
	if (ret < 0)
		return ret;
	if (ret == 0 || !f.addr)
		return -ENOENT;	/* absent, or all zero: hidden */
	*addr = f.addr;
	return 0;
}

/* Read up to len bytes (fewer only at the end of the file): the count, or -errno. */
static ssize_t read_full(int fd, char *buf, size_t len)
{
	size_t have = 0;

	while (have < len) {
		ssize_t n = read(fd, buf + have, len - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		have += (size_t)n;
	}
	return (ssize_t)have;
}

int host_kallsyms_same(const char *path, size_t max)
{
	int kfd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC), fd = open(path, O_RDONLY | O_CLOEXEC), ret = -ENOMEM;
	char *kbuf = malloc(CHUNK), *buf = malloc(CHUNK);
	size_t done = 0;

	if (kfd < 0 || fd < 0) {
		ret = -errno;
		goto out;
	}
	if (!kbuf || !buf)
		goto out;
	for (;;) {
		size_t want = max && max - done < CHUNK ? max - done : CHUNK;
		ssize_t k = want ? read_full(kfd, kbuf, want) : 0, n;

		if (k < 0) {
			ret = (int)k;
			break;
		}
		/* the copy has as many bytes, and no more at the end of both */
		n = read_full(fd, buf, k ? (size_t)k : 1);
		if (n < 0) {
			ret = (int)n;
			break;
		}
		if (k == 0) {
			ret = n == 0 || (max && done == max);
			break;
		}
		if (n != k || memcmp(kbuf, buf, (size_t)k)) {
			ret = 0;
			break;
		}
		done += (size_t)k;
	}
out:
	free(kbuf);
	free(buf);
	if (kfd >= 0)
		close(kfd);
	if (fd >= 0)
		close(fd);
	return ret;
}

bool host_written_since_boot(time_t mtime)
{
	struct timespec now, up;

	if (clock_gettime(CLOCK_REALTIME, &now) || clock_gettime(CLOCK_BOOTTIME, &up))
		return false;
	/* a second's margin: the boot's time is known to the second */
	return mtime > now.tv_sec - up.tv_sec + 1;
}
