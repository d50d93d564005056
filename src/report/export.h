/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_REPORT_EXPORT_H
#define MPERF_REPORT_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "../lib/strset.h"

/*
 * The stacks of a file, gathered for the exports (export.c): every
 * sample's stack, walked by stackwalk.c as report walks it, counted once
 * per distinct (event, comm, frames).  The writers read it:
 * export__folded (export.c), export__svg (flame.c), export__pprof
 * (pprof.c).
 */
struct pdata;
struct out;

/* What a frame is, for a flame graph's colours. */
enum xkind { XK_USER, XK_KERNEL, XK_JIT, XK_INLINED, XK_UNKNOWN };

/* One distinct frame: an address in a DSO, as report names it. */
struct xframe {
	const char *name;		/* the symbol (interned; "NAME (inlined)" for inline frames), or "[unknown]" */
	const char *dso;		/* the DSO's full name (interned), NULL when no map covers ip */
	const char *dso_name;		/* its short name, or "[unknown]" */
	uint64_t ip;			/* as recorded */
	uint64_t sym_start;		/* the symbol's start in the DSO's address space, when it has one */
	uint64_t map_start, map_end, map_pgoff;	/* the map that covered ip when it was first seen */
	enum xkind kind;
	bool has_sym;
	bool kernel;			/* resolved in the kernel's maps */
	bool inlined;			/* one of perf's inline frames: name ends in " (inlined)" */
};

/* One distinct stack of an event: its frames, root first, and what it weighs. */
struct xstack {
	int evsel;
	const char *comm;		/* interned */
	uint32_t n;
	uint32_t first;			/* its frames: export.ids[first .. first + n) */
	uint64_t count;			/* samples */
	uint64_t period;		/* their periods */
};

struct xevent {
	const char *name;
	uint64_t samples, period;
	bool time;			/* its period is in nanoseconds (cpu-clock, task-clock) */
};

struct export {
	struct pdata *p;
	const char *label;
	struct strset strs;
	struct xframe *fv;		/* every frame, by id */
	size_t nf, f_cap;
	uint32_t *fh;			/* frame hash: ids + 1, 0 empty; fh_cap a power of two */
	size_t fh_cap;
	uint32_t *ids;			/* the stacks' frame ids */
	size_t nids, ids_cap;
	struct xstack *sv;		/* every stack */
	size_t ns, s_cap;
	uint32_t *sh;			/* stack hash, as fh */
	size_t sh_cap;
	struct xevent *ev;		/* by event index */
	size_t nev, ev_cap;
	uint64_t first_time, last_time;
	const char *title;		/* the input's name, for titles */
};

int export__folded(const struct export *X, struct out *out);
int export__svg(const struct export *X, struct out *out);
/* mperf diff's: new's stacks coloured by the change of each frame's share since old; both sides' counts per stack. */
int export__svg_diff(const struct export *old, const struct export *new_, struct out *out);
int export__folded_diff(const struct export *old, const struct export *new_, struct out *out);
/* Old's event named as new's event e (the first of that name), or -1. */
int export__same_event(const struct export *old, const struct export *new_, size_t e);
int export__pprof(const struct export *X, FILE *f);

/* Frame i of stack s (root first). */
static inline const struct xframe *xstack_frame(const struct export *X, const struct xstack *s, uint32_t i)
{
	return &X->fv[X->ids[s->first + i]];
}

#endif
