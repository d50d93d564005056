/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_RESOLVE_MACHINE_H
#define MPERF_RESOLVE_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Threads and their memory maps, rebuilt from COMM/FORK/MMAP/MMAP2/KSYMBOL
 * records in delivery order, the way perf report models the machine.
 * Threads are keyed by tid; the threads of a process share the leader's maps.
 */
struct machine;

struct machine *machine__new(void);
void machine__delete(struct machine *m);

/*
 * A DSO perf makes before any record, as it reads the BUILD_ID feature:
 * called in the feature's order, before the first record.  perf orders
 * tied call-chain siblings of two DSOs by their objects' addresses, which
 * follow the order it made them in (resolved.dso_rank).
 */
int machine__recorded_dso(struct machine *m, const char *dso);
int machine__comm(struct machine *m, int pid, int tid, const char *comm);
/*
 * A parent found with another pid is dropped and made anew, as perf does
 * (it prints "removing erroneous parent thread"): then *removed_pid and
 * *removed_tid say which; otherwise *removed_tid is -2.
 */
int machine__fork(struct machine *m, int pid, int tid, int ppid, int ptid, bool synthesized,
		  int *removed_pid, int *removed_tid);
/*
 * An exited thread dropped, its maps with the last thread of its process:
 * what mperf top does with EXIT (perf marks the thread dead and keeps it;
 * top keeps only its histograms, whose entries hold no thread).
 */
void machine__exit(struct machine *m, int tid);
/* cpumode is misc & 7; prot_exec/flags as MMAP2 gives them (MMAP: exec unless MMAP_DATA). */
int machine__mmap(struct machine *m, int cpumode, int pid, int tid, uint64_t start, uint64_t len,
		  uint64_t pgoff, bool exec, uint32_t flags, const char *filename);
/*
 * The name perf gives the dso of an mmap record: [kernel.kallsyms] for
 * the kernel's, a module's path, /tmp/perf-PID.map for anonymous
 * executable memory (built in buf), else the file's name; NULL for the
 * maps perf keeps none for (guest and hypervisor cpumodes, a kernel
 * mmap of another name).
 */
#define MACHINE_DSO_BUF 64
/* The same, with MMAP2's protection and inode (machine__mmap: PROT_EXEC when exec, inode 0, as perf's MMAP). */
int machine__mmap_prot(struct machine *m, int cpumode, int pid, int tid, uint64_t start, uint64_t len,
		       uint64_t pgoff, bool exec, uint32_t flags, uint32_t prot, uint64_t ino, const char *filename);
const char *machine__mmap_dso(int cpumode, int pid, bool exec, uint32_t flags, const char *filename,
			      char buf[MACHINE_DSO_BUF]);
int machine__ksymbol(struct machine *m, uint64_t addr, uint32_t len, const char *name, bool unregister);

struct resolved {
	const char *comm;
	int pid, tid;
	const char *dso;	/* "<not found>" when no map covers the address */
	bool found;		/* a map covers the address: the fields below are set */
	uint64_t map_start, map_end, map_pgoff;
	uint32_t map_prot, map_flags;	/* MMAP2's (PROT_EXEC alone for an MMAP) */
	uint64_t map_ino;		/* MMAP2's inode, 0: none (an anonymous map, MMAP) */
	bool map_identity;		/* a map without a file (anonymous, stack, heap): perf's addresses in it are as recorded */
	uint32_t dso_rank;	/* the order perf would have made the dso in, from 1 */
};
/*
 * Once the kernel's symbols are known, perf stretches the kernel's map to
 * its last symbol (map__fixup_end): init text past _etext is the kernel's
 * too.  end is that symbol's end; the map never grows over the next one.
 */
void machine__fixup_kernel_end(struct machine *m, uint64_t end);
/* The comm a thread has now, or NULL if there is no such thread. */
const char *machine__thread_comm(struct machine *m, int tid);
int machine__resolve(struct machine *m, int pid, int tid, int cpumode, uint64_t ip, struct resolved *r);
/*
 * A number that changes whenever machine__resolve could answer otherwise
 * for some address (maps, threads, the kernel's map): what was resolved
 * under one number may be kept while it stays.
 */
uint64_t machine__generation(const struct machine *m);
/* A thread as perf's --tasks lists it: ids, its parent's tid (-1: none), its comm now, its maps. */
struct machine_task {
	int pid, tid, ppid;
	const char *comm;
	const void *maps;	/* shared by a process's threads */
};
/* Every thread the machine knows (exited ones too, as perf keeps them), in no order; free(*out). */
int machine__tasks(struct machine *m, struct machine_task **out, size_t *nr);
/* A map of a thread's maps as --mmaps prints it. */
struct machine_map {
	uint64_t start, end, pgoff, ino;
	uint32_t prot;			/* PROT_READ, PROT_WRITE, PROT_EXEC */
	bool shared;			/* MAP_SHARED */
	const char *dso;
};
/* The maps of machine_task's maps, by address (valid while the machine is): 0 or -ENOMEM; free(*out). */
int machine__maps(struct machine *m, const void *maps, struct machine_map **out, size_t *nr);
/* The identity of the maps a thread's user addresses resolve in (NULL: no memory). */
const void *machine__user_maps(struct machine *m, int pid, int tid);

#endif
