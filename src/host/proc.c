// SPDX-License-Identifier: GPL-2.0-only
/*
 * Processes and threads of this machine, from /proc: what record needs to
 * describe tasks that were running before it attached (-p, -t, -a).  Any
 * of them may exit while it is read; that is ESRCH, never a crash.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "host.h"

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int host_proc_ids(const char *dir, int **ids)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int *v = NULL, n = 0, cap = 0;

	*ids = NULL;
	if (!d)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((de = readdir(d))) {
		char *end;
		long id = strtol(de->d_name, &end, 10);

		if (end == de->d_name || *end || id <= 0 || id > 0x7fffffff)
			continue;
		if (n == cap) {
			int *nv = realloc(v, (size_t)(cap = cap ? 2 * cap : 64) * sizeof(*v));

			if (!nv) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = nv;
		}
		v[n++] = (int)id;
	}
	closedir(d);
	if (!n) {
		free(v);
		return 0;
	}
	qsort(v, (size_t)n, sizeof(*v), cmp_int);
	*ids = v;
	return n;
}

int host_proc_comm(int pid, int tid, char *buf, size_t len)
{
	char path[64];
	int n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	n = host_read_small_file(path, buf, len);
	if (n < 0)
		return n == -ENOENT ? -ESRCH : n;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int host_proc_status(int tid, int *tgid, int *ppid)
{
	char path[64], line[256];
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	if (!(f = fopen(path, "re")))
		return errno == ENOENT ? -ESRCH : -errno;
	while (found != 3 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Tgid: %d", tgid) == 1)
			found |= 1;
		else if (sscanf(line, "PPid: %d", ppid) == 1)
			found |= 2;
	}
	fclose(f);
	return found == 3 ? 0 : -EINVAL;
}

/* "7f0af5b04000-7f0af5c5a000 r-xp 00026000 fe:00 332835    /usr/lib/.../libc.so.6" */
static int parse_map(char *line, struct host_map *m)
{
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	int name = 0;

	line[strcspn(line, "\n")] = 0;
	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, m->perms, &pgoff, &maj, &min,
		   &ino, &name) < 7 || end < start)
		return -EINVAL;
	m->start = start;
	m->end = end;
	m->pgoff = pgoff;
	m->maj = maj;
	m->min = min;
	m->ino = ino;
	m->prot = (m->perms[0] == 'r' ? PROT_READ : 0) | (m->perms[1] == 'w' ? PROT_WRITE : 0) |
		  (m->perms[2] == 'x' ? PROT_EXEC : 0);
	m->flags = m->perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	m->name = name ? line + name : "";
	return 0;
}

int host_proc_maps(int pid, int (*fn)(void *arg, const struct host_map *m), void *arg)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (!(f = fopen(path, "re")))
		return errno == ENOENT ? -ESRCH : -errno;
	while (!ret && getline(&line, &cap, f) > 0) {
		struct host_map m;

		if (!parse_map(line, &m))
			ret = fn(arg, &m);
	}
	free(line);
	fclose(f);
	return ret;
}
