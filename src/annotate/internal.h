/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_ANNOTATE_INTERNAL_H
#define MPERF_ANNOTATE_INTERNAL_H

/* What annotate.c (the samples, per symbol) gives print.c (one symbol's listing). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "annotate.h"

struct symcache;
struct pdata;

struct ahit {			/* one sample (top's: its samples at one address) */
	uint64_t off;		/* in the DSO's file-offset space (the kernel: its address) */
	uint32_t ev;
	uint32_t nr;		/* samples: 1, but after live.c merged equal hits */
	uint64_t period;
};

struct asym {			/* a symbol with samples */
	const char *dso;	/* the machine's name (stable while the session's machine lives) */
	char *name;
	uint64_t start, end;
	bool kernel;
	struct ahit *hits;	/* sorted by offset before printing */
	size_t nhits, cap;
	uint64_t *nr, *period;	/* per event */
};

struct view {			/* the events shown together: a group, or one event */
	size_t lead, n;
	const char *name;	/* the header's event name */
	char buf[1024];
};

struct ann {
	struct pdata *p;
	const char *label;
	const struct annotate_opts *o;
	FILE *f;
	struct symcache *syms;
	bool syms_borrowed;		/* syms is another view's (top's histograms'): not ours to free */
	size_t nev;
	uint64_t *tot_nr, *tot_period;	/* per event: every sample kept */
	struct asym *v;
	size_t n, cap;
	size_t *slot, nslot;		/* hash of (dso, start) -> index + 1 */
	struct disasm *dis;
	const char *prev_path;		/* -l: the last " // file:line" printed (perf keeps it across symbols) */
	char *prev_buf;
	const char **warned;		/* the DSOs said to be missing */
	size_t nwarned, warned_cap;
	struct missing { const char *dso; uint64_t nr; } *missing;	/* DSOs with samples and no file */
	size_t nmissing, missing_cap;
	size_t njson;			/* --json: the symbols written */
};

struct session_ops;

/*
 * What annotate__run and live.c share: A (p, label, o set) made ready to
 * count (its disassembler, symbols, events: 0 or a negative code, said;
 * annotate_release frees what was made either way), the session's
 * callbacks that count into it (finish prints every symbol), its memory
 * freed.
 */
int annotate_setup(struct ann *A);
void annotate_consumer(struct ann *A, struct session_ops *ops);
void annotate_release(struct ann *A);
/* Room for nev events' counts: 0 or -ENOMEM. */
int grow_events(struct ann *A, size_t nev);
/* The views perf annotate shows (each group, each other event) into *out (free it): 0 or -ENOMEM. */
int make_views(struct ann *A, struct view **out, size_t *nout);
/* Whether dso is one of o->dsos (by path or file name; NULL: all). */
bool dso_wanted(const struct annotate_opts *o, const char *dso);

/* Print symbol s for the events of view w (--json: its object): 0, or a negative code (logged). */
int annotate_print(struct ann *A, struct asym *s, const struct view *w);
/* perf's --percent-type name, as --json spells it ("local-period"). */
const char *annotate_percent_key(enum annotate_percent p);

#endif
