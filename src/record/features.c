// SPDX-License-Identifier: GPL-2.0-only
/* What the feature sections say about this machine and this recording. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "../host/host.h"
#include "../lib/log.h"
#include "internal.h"

#ifndef MPERF_VERSION
#define MPERF_VERSION "0.1.0"
#endif

int features__write(struct pdata_writer *w, int argc, char *const *argv)
{
	struct utsname u;
	char desc[256], self[PATH_MAX];
	const char **args;
	ssize_t n;
	long conf = sysconf(_SC_NPROCESSORS_CONF), onln = sysconf(_SC_NPROCESSORS_ONLN);
	int err;

	if (uname(&u) < 0)
		return mperf_error(-errno, "uname failed: %s", strerror(errno));
	host_cpu_desc(desc, sizeof(desc));
	if ((err = pdw__feat_string(w, PD_FEAT_HOSTNAME, u.nodename)) ||
	    (err = pdw__feat_string(w, PD_FEAT_OSRELEASE, u.release)) ||
	    (err = pdw__feat_string(w, PD_FEAT_VERSION, MPERF_VERSION)) ||
	    (err = pdw__feat_string(w, PD_FEAT_ARCH, u.machine)) ||
	    (err = pdw__feat_nrcpus(w, (uint32_t)(conf > 0 ? conf : 1), (uint32_t)(onln > 0 ? onln : 1))) ||
	    (err = pdw__feat_string(w, PD_FEAT_CPUDESC, desc)) ||
	    (err = pdw__feat_u64(w, PD_FEAT_TOTAL_MEM, host_total_mem_kb())))
		return err;

	/*
	 * CMDLINE: the absolute path of the tool, then the command's own
	 * arguments from "record" on, as perf writes "/usr/bin/perf record -e ...".
	 */
	args = calloc((size_t)argc + 2, sizeof(*args));
	if (!args)
		return mperf_error(-ENOMEM, "out of memory");
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = 0;
	args[0] = n > 0 ? self : "mperf";
	for (int i = 0; i < argc; i++)
		args[i + 1] = argv[i];
	err = pdw__feat_strings(w, PD_FEAT_CMDLINE, args, (size_t)argc + 1);
	free(args);
	return err;
}
