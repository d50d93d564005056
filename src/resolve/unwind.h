/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_RESOLVE_UNWIND_H
#define MPERF_RESOLVE_UNWIND_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The user part of a --call-graph dwarf sample's chain: libdw's unwinder
 * run over the sample's user registers and its copy of the user stack,
 * with the call frame information (.eh_frame, .debug_frame, separate
 * debug files) of the DSOs the process has mapped.  One libdw session is
 * kept per process, so that each DSO's CFI is read once for all of that
 * process's samples, not once per sample.
 */
struct unwinder;

/* Where an address of the sample's process is mapped: a file and its place. */
struct unwind_map {
	const char *path;	/* stable while the unwinder lives (the machine interns it) */
	const char *file;	/* the file to read for it (the build that ran), or NULL */
	uint64_t start, end, pgoff;
};

/* The map covering addr in the sample's process: 1 (found, *m set), 0 (none), or a negative code. */
typedef int (*unwind_find_map_fn)(void *arg, uint64_t addr, struct unwind_map *m);

struct unwind_sample {
	int pid, tid;
	uint64_t regs_mask;		/* the attr's sample_regs_user: which registers regs holds */
	const unsigned char *regs;	/* popcount(regs_mask) u64s, in mask order */
	const unsigned char *stack;	/* the copy of the user stack, from the sample's sp */
	uint64_t stack_size;		/* its valid bytes (the record's dyn_size, at most its size) */
	unwind_find_map_fn find_map;
	void *arg;
	/*
	 * What find_map answers for an address is the same for every sample
	 * with the same maps (their identity, NULL: unknown) and generation:
	 * the unwinder keeps it per address.
	 */
	const void *maps;
	uint64_t gen;
};

struct unwinder *unwinder__new(void);
void unwinder__delete(struct unwinder *u);

/*
 * The sample's user frames, leaf first, into ips[0..max): the registers'
 * ip, then each caller's return address minus one (as perf reports them,
 * inside the call).  Unwinding stops where the CFI ends or cannot go on;
 * the frames found until then are kept.  The number of frames (0 without
 * an ip among the registers, or without a map at the ip, as perf), or a
 * negative code (-ENOMEM, or find_map's).
 */
ssize_t unwinder__unwind(struct unwinder *u, const struct unwind_sample *s, uint64_t *ips, size_t max);

#endif
