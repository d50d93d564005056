// SPDX-License-Identifier: GPL-2.0-only
/* The kernel's perf_event interface: the system call, and the sysctl that says who may use it. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "host.h"

int host_perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
}

int host_perf_event_paranoid(void)
{
	char buf[64];
	char *end;
	long v;

	if (host_read_small_file("/proc/sys/kernel/perf_event_paranoid", buf, sizeof(buf)) <= 0)
		return HOST_UNKNOWN;
	v = strtol(buf, &end, 10);
	return end == buf ? HOST_UNKNOWN : (int)v;
}
