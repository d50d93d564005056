/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_RESOLVE_STACKWALK_H
#define MPERF_RESOLVE_STACKWALK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "machine.h"	/* struct resolved */

/*
 * A sample's stack as perf report resolves it: the recorded chain (-g),
 * each address in the context its last marker set, then for a
 * --call-graph dwarf sample the user frames libdw unwinds from its
 * registers and stack copy, with perf's inline frames for those; every
 * frame resolved to its DSO and symbol.  hist.c (the chains of the
 * histograms) and export.c (folded stacks, flame graphs, pprof) walk
 * samples through it, so that they name the same frames the same way.
 */
/*
 * One frame of a walked stack, resolved.  The call-chain trees (report's
 * callchain.c) compare frames as perf compares them by function: the same
 * DSO and symbol start, or the same address when either is unresolved.
 */
struct cc_frame {
	const char *dso;	/* identity of the DSO (stable pointer), NULL when no map covers ip */
	uint32_t dso_rank;	/* perf orders siblings by its DSO objects' addresses: their creation order */
	const char *sym;	/* symbol name, NULL when unresolved */
	const char *dso_name;	/* short name, for JSON ("[unknown]" when dso is NULL) */
	uint64_t start, end;	/* the symbol's [start, end), in the DSO's address space */
	uint64_t ip;		/* the address in the chain, as recorded */
	uint64_t rel;		/* in its DSO (perf's al->addr): a user map's file offset, else ip */
	uint64_t map_size;	/* its map's (0: no map) */
	uint64_t unmap;		/* what perf's map__unmap_ip adds: a user map's start less its offset, a module's start */
	bool inlined;		/* one of perf's inline frames: sym is "NAME (inlined)" */
};

struct session_sample;
struct symcache;
struct strset;
struct unwinder;
struct stackwalk_memo;
struct stackwalk_umemo;

/* perf report's --max-stack default: kernel.perf_event_max_stack's default, 127. */
#define STACKWALK_MAX_STACK 127
#define STACKWALK_DBUCKETS 256

/* What the walk knows of a DSO the frames name: its names, and perf's order of its DSOs. */
struct stackwalk_dso {
	struct stackwalk_dso *next;
	const char *raw;		/* the machine's name (interned by the machine) */
	const char *id;			/* the same, interned in the walk's strset: one per DSO */
	const char *name;		/* short name, interned */
	uint32_t rank;			/* the machine's dso_rank */
	bool jit;
};

struct stackwalk {
	struct symcache *syms;		/* borrowed */
	struct strset *strs;		/* borrowed: DSO names and inline names are interned there */
	bool caller;			/* frames root first (perf's caller order) */
	unsigned max_stack;		/* --max-stack: frames kept, 1 to STACKWALK_MAX_STACK (init: the most) */
	bool no_inline;			/* --no-inline: unwound frames without perf's inline frames */
	bool kernel_end_wanted;		/* the kernel map ends where its symbols do (chains are walked) */
	bool kernel_end_known;
	bool kernel_range;		/* stackwalk__kernel_range's, once known: */
	uint64_t kernel_start, kernel_end;
	/* The current sample's frames and each frame's level ('k', '.', ...). */
	struct cc_frame *fr;
	char *lvl;
	size_t fr_cap, lvl_cap;
	struct cc_frame *fx;		/* the same with inline frames, while it is built */
	char *lx;
	size_t fx_cap, lx_cap;
	struct unwinder *unwinder;	/* --call-graph dwarf samples: made at the first one */
	struct stackwalk_memo *memo;	/* frames resolved, by address: made at the first one */
	uint64_t uips[STACKWALK_MAX_STACK];
	/* The user maps the unwinder looked up for the current sample, for its frames. */
	uint64_t seen_ip[16];
	struct resolved seen[16];
	size_t nseen;
	struct stackwalk_dso *dsos[STACKWALK_DBUCKETS];
	/*
	 * Unwound user frames resolved (map, symbol, inline list) for an
	 * address of a process's maps while the machine is unchanged (its
	 * generation): a dwarf file's samples go through the same few
	 * addresses again and again.  Made at the first unwound frame; the
	 * recorded chains' frames are memo's, never this one's.
	 */
	struct stackwalk_umemo *umemo;
	const void *cur_maps;		/* the current sample's user maps, */
	uint64_t cur_gen;		/* and the machine's generation then */
	/* "NAME (inlined)", interned, by the symbol cache's (stable) NAME */
	struct { const char *name, *inlined; } inl_names[256];
};

/* Zero w and borrow syms and strs; the kernel's symbols must be loaded before a kernel frame. */
void stackwalk__init(struct stackwalk *w, struct symcache *syms, struct strset *strs);
void stackwalk__release(struct stackwalk *w);
/*
 * Where perf's kernel map lies once the kernel's symbols are read
 * (symcache__kernel_range): false (and 0, 0) unless kernel_end_wanted.
 * Asked where a kernel address needs it, so that kallsyms is waited for
 * then, not before; stackwalk__kernel_end: its end, or 0.
 */
bool stackwalk__kernel_range(struct stackwalk *w, uint64_t *start, uint64_t *end);
uint64_t stackwalk__kernel_end(struct stackwalk *w);

/*
 * The sample's chain into w->fr and w->lvl, as perf's cursor holds it:
 * leaf first, or root first with w->caller; at most STACKWALK_MAX_STACK
 * addresses counted from the end the order starts at (each part of a
 * dwarf sample on its own).  A chain with a marker perf does not know
 * (a guest's, a corrupt one) is dropped: 0 frames.  The number of
 * frames, or -ENOMEM.
 */
ssize_t stackwalk__chain(struct stackwalk *w, const struct session_sample *ss);

/*
 * The sample's own ip as one frame, into w->fr[0] and w->lvl[0]: for a
 * sample without a chain.  1, or -ENOMEM.
 */
ssize_t stackwalk__ip(struct stackwalk *w, const struct session_sample *ss);

/* The walk's record of the DSO the machine names dso, or NULL when out of memory. */
struct stackwalk_dso *stackwalk__dso(struct stackwalk *w, const char *dso, uint32_t rank);

/* The level perf shows for a sample's cpumode: 'k', '.', 'g', 'u', 'H'. */
char stackwalk_level(int cpumode);

/*
 * perf shows a user DSO by its file name, anonymous executable memory
 * (which the machine names /tmp/perf-PID.map) as "[JIT] tid PID", a
 * kernel module as "[NAME]", and everything else as it is named.  buf
 * holds the JIT's or the module's name.
 */
const char *stackwalk_short_name(const char *dso, char *buf, size_t len);
/*
 * A kernel module's file (/lib/modules/.../NAME.ko, .ko.gz, .xz, .zst, .bz2): perf shows
 * it as "[NAME]", '-' as '_' (stackwalk_short_name).
 */
bool stackwalk_is_module(const char *dso);
/* A JIT's anonymous memory (/tmp/perf-PID.map): an identity map, without symbols. */
bool stackwalk_is_jit(const char *dso);
/*
 * -v's letter of where the symbols of the DSO at path came from, as perf
 * shows it: '!' no map (path NULL), a kernel module's 'K' (its .ko) or
 * 'm' (compressed), else symcache__origin's.
 */
char stackwalk_origin(struct symcache *syms, const char *path);
/*
 * An address of cpumode resolved at r: in the kernel's own map, perf loads
 * the kernel's symbols there, and says when it finds none for the recorded
 * kernel (symcache__kernel_hit).
 */
void stackwalk_kernel_hit(struct symcache *syms, int cpumode, const struct resolved *r);

#endif
