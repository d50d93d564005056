// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPUs, memory and the vdso of this machine, from /proc, /sys and the auxv;
 * the heap's huge pages for a large reading.
 */
#include <ctype.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "host.h"

int host_parse_cpu_list(const char *s, int *cpus, int max)
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
		if (*s == ',' && s[1] && s[1] != '\n')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return n;
}

int host_online_cpus(int *cpus, int max)
{
	char buf[4096];
	int err = host_read_small_file("/sys/devices/system/cpu/online", buf, sizeof(buf));

	if (err < 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		if (n <= 0 || n > max)
			return err;
		for (long i = 0; i < n; i++)
			cpus[i] = (int)i;
		return (int)n;
	}
	return host_parse_cpu_list(buf, cpus, max);
}

void host_cpu_desc(char *out, size_t len)
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

void host_cpu_vendor(char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];

	if (len)
		out[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (strncmp(line, "vendor_id", 9) || !v)
			continue;
		for (v++; *v == ' ' || *v == '\t'; v++)
			;
		v[strcspn(v, " \t\n")] = 0;
		snprintf(out, len, "%s", v);
		break;
	}
	fclose(f);
}

uint64_t host_total_mem_kb(void)
{
	char buf[256];
	unsigned long long kb = 0;

	if (host_read_small_file("/proc/meminfo", buf, sizeof(buf)) > 0)
		sscanf(buf, "MemTotal: %llu kB", &kb);
	return kb;
}

int host_max_sample_rate(void)
{
	char buf[32];
	int n = host_read_small_file("/proc/sys/kernel/perf_event_max_sample_rate", buf, sizeof(buf));
	long v;

	if (n < 0)
		return n;
	v = strtol(buf, NULL, 10);
	return v > 0 && v <= INT32_MAX ? (int)v : -EINVAL;
}

/*
 * The vdso, copied once through /proc/self/mem into memory of our own:
 * read in place, a vdso page the kernel does not hand back (seen under
 * AddressSanitizer in one run of three) was a SIGSEGV in libelf; copied,
 * it is an error.  The copy lives as long as the process.
 */
static const void *vdso_copy;
static size_t vdso_len;
static int vdso_err = -ENOENT;
static pthread_once_t vdso_once = PTHREAD_ONCE_INIT;

static int vdso_where(unsigned long long *a, unsigned long long *b)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", a, b) == 2 && *b > *a) {
			err = 0;
			break;
		}
	}
	fclose(f);
	return err;
}

static void vdso_read(void)
{
	unsigned long long a, b;
	char *buf;
	int fd;

	if ((vdso_err = vdso_where(&a, &b)))
		return;
	if (!(buf = malloc((size_t)(b - a)))) {
		vdso_err = -ENOMEM;
		return;
	}
	fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || pread(fd, buf, (size_t)(b - a), (off_t)a) != (ssize_t)(b - a)) {
		vdso_err = fd < 0 ? -errno : -EIO;
		free(buf);
	} else {
		vdso_copy = buf;
		vdso_len = (size_t)(b - a);
	}
	if (fd >= 0)
		close(fd);
}

int host_vdso(const void **image, size_t *len)
{
	pthread_once(&vdso_once, vdso_read);
	if (vdso_err)
		return vdso_err;
	*image = vdso_copy;
	*len = vdso_len;
	return 0;
}

/* x86: the first CPU's block of /proc/cpuinfo, its vendor and signature. */
static int cpuid_x86(char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512], vendor[64] = "";
	unsigned int family = 0, model = 0, stepping = 0, seen = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && line[0] != '\n') {
		char *v = strchr(line, ':');

		if (!v)
			continue;
		if (!strncmp(line, "vendor_id", 9) && sscanf(v + 1, " %63s", vendor) == 1)
			seen |= 1;
		else if (!strncmp(line, "cpu family", 10) && sscanf(v + 1, "%u", &family) == 1)
			seen |= 2;
		else if (!strncmp(line, "model\t", 6) && sscanf(v + 1, "%u", &model) == 1)
			seen |= 4;
		else if (!strncmp(line, "stepping", 8) && sscanf(v + 1, "%u", &stepping) == 1)
			seen |= 8;
	}
	fclose(f);
	if (seen != 15)
		return -ENOENT;
	snprintf(out, len, "%s,%u,%u,%u", vendor, family, model, stepping);
	return 0;
}

int host_cpuid(char *out, size_t len)
{
#if defined(__x86_64__) || defined(__i386__)
	return cpuid_x86(out, len);
#elif defined(__aarch64__)
	char buf[64];
	unsigned long long midr;

	if (host_read_small_file("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%llx", &midr) != 1)
		return -ENOENT;
	snprintf(out, len, "0x%016llx", midr);
	return 0;
#else
	(void)out;
	(void)len;
	return -ENOENT;
#endif
}

#define HEAP_STEP	(16u << 20)	/* under malloc's largest mmap threshold, 32 MB */
#define HUGE_PAGE	((uintptr_t)2 << 20)

void host_heap_hugepages(size_t bytes)
{
#ifdef __GLIBC__
	void *step[64];
	size_t n = 0;
	uintptr_t base, lo, hi;

	/* One arena (the main one, the brk heap), grown by the steps below and never trimmed. */
	if (!mallopt(M_ARENA_MAX, 1) || !mallopt(M_MMAP_THRESHOLD, (int)(2 * HEAP_STEP)) ||
	    !mallopt(M_TRIM_THRESHOLD, INT32_MAX))
		return;
	for (size_t got = 0; got < bytes && n < sizeof(step) / sizeof(step[0]); got += HEAP_STEP)
		if (!(step[n++] = malloc(HEAP_STEP - 64)))
			break;
	if (!n || !step[0])
		return;
	base = (uintptr_t)step[0];
	lo = (base + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	hi = (uintptr_t)sbrk(0);
	/* Back to malloc's top chunk, which the heap's next allocations are cut from. */
	while (n--)
		free(step[n]);
	/* only the brk heap the steps were cut from (not another allocator's mappings) */
	if (hi != (uintptr_t)-1 && hi > lo && hi - base <= (sizeof(step) / sizeof(step[0]) + 1) * HEAP_STEP)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)bytes;
#endif
}
