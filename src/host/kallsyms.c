// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/kallsyms, streamed: "ffffffff81000000 T _text" lines, with
 * "\t[module]" after a module's symbols.  The kernel makes the file as it
 * is read (about 35 ms for 200k lines), so it is read in large chunks
 * through one buffer and each line parsed in place.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
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

/* Parse the whole lines of [p, end); *rest gets where the unparsed tail starts. */
static int parse(char *p, char *end, char **rest, int (*fn)(void *, const struct host_ksym *), void *arg)
{
	char *nl;
	int ret;

	while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
		struct host_ksym s = { 0 };
		char *tab;
		int v;

		while ((v = hexval(*p)) >= 0) {
			s.addr = s.addr << 4 | (uint64_t)v;
			p++;
		}
		if (p[0] == ' ' && p + 3 <= nl && p[2] == ' ') {
			s.type = p[1];
			s.name = p + 3;
			tab = memchr(s.name, '\t', (size_t)(nl - s.name));
			s.name_len = (size_t)((tab ? tab : nl) - s.name);
			s.module = tab != NULL;
			if ((ret = fn(arg, &s))) {
				*rest = nl + 1;
				return ret;
			}
		}
		p = nl + 1;
	}
	*rest = p;
	return 0;
}

int host_kallsyms_stream(int (*fn)(void *arg, const struct host_ksym *s), void *arg)
{
	int fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC), ret = 0;
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
		char *rest;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		have += (size_t)n;
		if ((ret = parse(buf, buf + have, &rest, fn, arg)))
			break;
		have = (size_t)(buf + have - rest);
		memmove(buf, rest, have);
		if (have == CHUNK) {
			ret = -EINVAL;	/* a line longer than the buffer: not kallsyms */
			break;
		}
	}
	free(buf);
	close(fd);
	return ret;
}

struct find {
	const char *name;
	size_t len;
	uint64_t addr;
};

static int find_one(void *arg, const struct host_ksym *s)
{
	struct find *f = arg;

	if (s->name_len != f->len || memcmp(s->name, f->name, f->len) || s->module)
		return 0;
	f->addr = s->addr;
	return 1;
}

int host_kallsyms_find(const char *name, uint64_t *addr)
{
	struct find f = { name, strlen(name), 0 };
	int ret = host_kallsyms_stream(find_one, &f);

	if (ret < 0)
		return ret;
	if (ret == 0 || !f.addr)
		return -ENOENT;	/* absent, or all zero: hidden */
	*addr = f.addr;
	return 0;
}
