// SPDX-License-Identifier: GPL-2.0-only
/*
 * What profiling may do on this machine, for mperf doctor: the sysctls
 * that decide it, this process's capabilities, and a few counting
 * perf_event_open probes, each closed at once, that answer for certain
 * what the sysctls only imply (a VM without a PMU, a container's seccomp
 * filter, a kernel built with perf_event_paranoid 3's patch).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "host.h"

#define CAP_SYS_ADMIN_BIT	21
#define CAP_PERFMON_BIT		38	/* Linux 5.8 */

static int read_int(const char *path)
{
	char buf[64];
	char *end;
	long v;

	if (host_read_small_file(path, buf, sizeof(buf)) <= 0)
		return HOST_UNKNOWN;
	v = strtol(buf, &end, 10);
	return end == buf ? HOST_UNKNOWN : (int)v;
}

static struct host_probe probe(uint32_t type, uint64_t config, bool exclude_kernel, int pid, int cpu)
{
	struct perf_event_attr a = {
		.type = type, .size = sizeof(a), .config = config,
		.disabled = 1, .exclude_kernel = exclude_kernel, .exclude_hv = exclude_kernel,
	};
	int fd = host_perf_event_open(&a, pid, cpu, -1);
	struct host_probe p = { .ok = fd >= 0, .err = fd < 0 ? errno : 0 };

	if (fd >= 0)
		close(fd);
	return p;
}

/* The capabilities and the seccomp mode of /proc/self/status. */
static void read_status(struct host_facts *f)
{
	FILE *st = fopen("/proc/self/status", "re");
	char line[256];
	unsigned long long eff;
	int mode;

	f->seccomp = HOST_UNKNOWN;
	if (!st)
		return;
	while (fgets(line, sizeof(line), st))
		if (sscanf(line, "CapEff: %llx", &eff) == 1) {
			f->caps_known = true;
			f->cap_sys_admin = eff >> CAP_SYS_ADMIN_BIT & 1;
			f->cap_perfmon = eff >> CAP_PERFMON_BIT & 1;
		} else if (sscanf(line, "Seccomp: %d", &mode) == 1) {
			f->seccomp = mode;
		}
	fclose(st);
}

/*
 * Who refused the user-space probe: nobody when it opened; paranoid 3
 * and up refuse it by design (OTHER, but a filter would be named first);
 * a seccomp filter when one is installed (its EPERM, or ENOSYS for a
 * call it hides); something else otherwise.
 */
static enum host_denier denier(const struct host_facts *f)
{
	int e = f->sw_user.err;

	if (f->sw_user.ok || (e != EPERM && e != EACCES && e != ENOSYS))
		return HOST_DENIER_NONE;
	if (f->seccomp == 2)
		return HOST_DENIER_SECCOMP;
	return HOST_DENIER_OTHER;
}

enum host_denier host_perf_denier(void)
{
	struct host_facts f = { 0 };

	read_status(&f);
	f.sw_user = probe(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, true, 0, -1);
	return denier(&f);
}

/* The hypervisor flag of the first CPU of /proc/cpuinfo ("flags : ... hypervisor ..."). */
static bool cpuinfo_hypervisor(void)
{
	FILE *ci = fopen("/proc/cpuinfo", "re");
	char line[4096];
	bool yes = false;

	if (!ci)
		return false;
	while (!yes && fgets(line, sizeof(line), ci))
		if (!strncmp(line, "flags", 5) && strstr(line, " hypervisor"))
			yes = true;
	fclose(ci);
	return yes;
}

/*
 * Whether this user sees kernel addresses: kptr_restrict and, at 0,
 * perf_event_paranoid above 1 (the kernel's kallsyms_show_value) decide
 * it; reading the first line says it for certain.
 */
static int kallsyms_shown(void)
{
	FILE *k = fopen("/proc/kallsyms", "re");
	unsigned long long addr = 0;
	int n;

	if (!k)
		return -errno;
	n = fscanf(k, "%llx", &addr);
	fclose(k);
	return n == 1 && addr ? 1 : 0;
}

static void find_container(struct host_facts *f)
{
	char buf[128];

	if (access("/.dockerenv", F_OK) == 0)
		snprintf(f->container_why, sizeof(f->container_why), "/.dockerenv");
	else if (access("/run/.containerenv", F_OK) == 0)
		snprintf(f->container_why, sizeof(f->container_why), "/run/.containerenv");
	else if (host_read_small_file("/run/systemd/container", buf, sizeof(buf)) > 0)
		snprintf(f->container_why, sizeof(f->container_why), "/run/systemd/container: %.*s",
			 (int)strcspn(buf, "\n"), buf);
	f->container = f->container_why[0] != 0;
}

void host_facts(struct host_facts *f)
{
	char buf[64];

	memset(f, 0, sizeof(*f));
	f->paranoid = host_perf_event_paranoid();
	f->mlock_kb = read_int("/proc/sys/kernel/perf_event_mlock_kb");
	f->max_sample_rate = read_int("/proc/sys/kernel/perf_event_max_sample_rate");
	f->kptr_restrict = read_int("/proc/sys/kernel/kptr_restrict");
	f->euid = (unsigned)geteuid();
	read_status(f);
	f->cycles = probe(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, true, 0, -1);
	f->sw_user = probe(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, true, 0, -1);
	f->sw_kernel = probe(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, false, 0, -1);
	f->cpu_wide = probe(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, false, -1, 0);
	f->denier = denier(f);
	f->tracefs = host_tracefs_dir(f->tracefs_dir, sizeof(f->tracefs_dir));
	f->kallsyms = kallsyms_shown();
	if (host_read_small_file("/sys/hypervisor/type", buf, sizeof(buf)) > 0)
		snprintf(f->hypervisor, sizeof(f->hypervisor), "%.*s", (int)strcspn(buf, "\n"), buf);
	f->vm = f->hypervisor[0] || cpuinfo_hypervisor();
	find_container(f);
}
