// SPDX-License-Identifier: GPL-2.0-only
/* What the feature sections say about this machine, read from /proc and /sys. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "../lib/buf.h"
#include "internal.h"

#ifndef MPERF_VERSION
#define MPERF_VERSION "0.1.0"
#endif

/* "0-1,3" style list from /sys. */
static int parse_cpu_list(const char *s, int *cpus, int max)
{
	int n = 0;

	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0)
			return -EINVAL;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				return -EINVAL;
		}
		for (long c = a; c <= b; c++) {
			if (n == max)
				return -E2BIG;
			cpus[n++] = (int)c;
		}
		s = end;
		if (*s == ',')
			s++;
	}
	return n;
}

static int read_small_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return (int)n;
}

int host__online_cpus(int *cpus, int max)
{
	char buf[4096];
	int err = read_small_file("/sys/devices/system/cpu/online", buf, sizeof(buf));

	if (err < 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		if (n <= 0 || n > max)
			return err;
		for (long i = 0; i < n; i++)
			cpus[i] = (int)i;
		return (int)n;
	}
	return parse_cpu_list(buf, cpus, max);
}

/* Address of the symbol whose line ends at end ("ffffffff81000000 T _text"). */
static uint64_t line_addr(const char *buf, const char *end)
{
	const char *l = end;

	while (l > buf && l[-1] != '\n')
		l--;
	return strtoull(l, NULL, 16);
}

/*
 * Find " <name>\n" in /proc/kallsyms and return its address.  The file is
 * large (about 120k lines) and slow to generate, so it is read in big
 * chunks, searched without parsing each line, and closed once found.
 */
static int kallsyms_find(const char *name, uint64_t *addr)
{
	enum { CHUNK = 1 << 18 };
	char needle[64];
	int fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC), err = -ENOENT;
	char *buf;
	size_t have = 0;

	if (fd < 0)
		return -errno;
	snprintf(needle, sizeof(needle), " %s\n", name);
	buf = malloc(2 * CHUNK + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t n;

		if (have >= CHUNK)
			break;	/* a line longer than a chunk: not kallsyms */
		n = read(fd, buf + have, CHUNK);
		char *p, *last_nl;

		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = 0;
		last_nl = memrchr(buf, '\n', have);
		if (!last_nl)
			continue;
		last_nl[1] = 0;	/* search whole lines only */
		if ((p = strstr(buf, needle))) {
			*addr = line_addr(buf, p);
			err = *addr ? 0 : -ENOENT;	/* all zero: hidden */
			break;
		}
		/* Keep the partial last line for the next chunk. */
		have = (size_t)(buf + have - last_nl - 1);
		memmove(buf, last_nl + 1, have);
	}
	free(buf);
	close(fd);
	return err;
}

int host__kernel_start(uint64_t *start)
{
	return kallsyms_find("_text", start);
}

int host__kernel_end(uint64_t *end)
{
	return kallsyms_find("_etext", end);
}

/* "model name : X" with runs of blanks squeezed, as perf stores it. */
static void cpu_desc(char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];

	snprintf(out, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v;
		size_t o = 0;
		bool space = false;

		if (strncmp(line, "model name", 10) || !(v = strchr(line, ':')))
			continue;
		for (v++; *v == ' ' || *v == '\t'; v++)
			;
		for (; *v && *v != '\n' && o + 1 < len; v++) {
			if (isspace((unsigned char)*v)) {
				space = true;
				continue;
			}
			if (space && o)
				out[o++] = ' ';
			space = false;
			if (o + 1 < len)
				out[o++] = *v;
		}
		out[o] = 0;
		break;
	}
	fclose(f);
}

static uint64_t total_mem_kb(void)
{
	char buf[256];
	unsigned long long kb = 0;

	if (read_small_file("/proc/meminfo", buf, sizeof(buf)) > 0)
		sscanf(buf, "MemTotal: %llu kB", &kb);
	return kb;
}

int host__write_features(struct pdata_writer *w, int argc, char *const *argv)
{
	struct utsname u;
	char desc[256], self[PATH_MAX];
	const char **args;
	ssize_t n;
	long conf = sysconf(_SC_NPROCESSORS_CONF), onln = sysconf(_SC_NPROCESSORS_ONLN);
	int err;

	if (uname(&u) < 0)
		return -errno;
	cpu_desc(desc, sizeof(desc));
	if ((err = pdw__feat_string(w, PD_FEAT_HOSTNAME, u.nodename)) ||
	    (err = pdw__feat_string(w, PD_FEAT_OSRELEASE, u.release)) ||
	    (err = pdw__feat_string(w, PD_FEAT_VERSION, MPERF_VERSION)) ||
	    (err = pdw__feat_string(w, PD_FEAT_ARCH, u.machine)) ||
	    (err = pdw__feat_nrcpus(w, (uint32_t)(conf > 0 ? conf : 1), (uint32_t)(onln > 0 ? onln : 1))) ||
	    (err = pdw__feat_string(w, PD_FEAT_CPUDESC, desc)) ||
	    (err = pdw__feat_u64(w, PD_FEAT_TOTAL_MEM, total_mem_kb())))
		return err;

	/* CMDLINE: argv[0] is the absolute path of the tool, as perf writes it. */
	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args)
		return -ENOMEM;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0)
		self[n] = 0;
	for (int i = 0; i < argc; i++)
		args[i] = argv[i];
	if (argc && n > 0)
		args[0] = self;
	err = pdw__feat_strings(w, PD_FEAT_CMDLINE, args, (size_t)argc);
	free(args);
	return err;
}
