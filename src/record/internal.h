/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_RECORD_INTERNAL_H
#define MPERF_RECORD_INTERNAL_H

#include <sys/types.h>
#include <stdint.h>
#include "../perfdata/perfdata.h"

/* workload.c: a child forked now and exec'd on workload__start(). */
struct workload {
	pid_t pid;
	int go_fd;	/* write end: one byte releases the child */
	int err_fd;	/* read end: the child's errno if exec fails, EOF if it worked */
};
int workload__prepare(struct workload *wl, char *const *argv);
/* Release the child; returns 0, or the exec errno (the child has exited). */
int workload__start(struct workload *wl);
void workload__abort(struct workload *wl);

/* host.c: facts about this machine for the feature sections and synthesized records. */
int host__online_cpus(int *cpus, int max);
/*
 * _text from the head of /proc/kallsyms (fast), and _etext, which needs a
 * scan of most of it (slow: run it while the workload runs).  -ENOENT when
 * the addresses are hidden (kptr_restrict).
 */
int host__kernel_start(uint64_t *start);
int host__kernel_end(uint64_t *end);
int host__write_features(struct pdata_writer *w, int argc, char *const *argv);

/* buildid.c: the DSOs the samples hit, for the BUILD_ID feature. */
struct hits;
struct hits *hits__new(void);
void hits__delete(struct hits *h);
void hits__mmap2(struct hits *h, const struct perf_event_header *hdr);
void hits__sample(struct hits *h, uint16_t misc, uint32_t pid, uint64_t ip);
/* BUILD_ID entries: the kernel if hit, each hit DSO with a build id, and [vdso]. */
int hits__write(struct hits *h, struct pdata_writer *w);

#endif
