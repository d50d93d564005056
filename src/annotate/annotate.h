/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_ANNOTATE_ANNOTATE_H
#define MPERF_ANNOTATE_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * mperf annotate: where inside each symbol a recording's samples fall,
 * per instruction, in perf annotate 6.1's --stdio shape (perf's --group
 * view for a group of events: one column per event), the code
 * disassembled in-process (disasm.c, libcapstone), source lines from the
 * DWARF line table.  A view on src/resolve, as report's views are.
 */
struct pdata;

enum annotate_percent {	/* perf's --percent-type */
	ANNOTATE_LOCAL_PERIOD, ANNOTATE_GLOBAL_PERIOD, ANNOTATE_LOCAL_HITS, ANNOTATE_GLOBAL_HITS,
};

struct annotate_opts {
	const char *const *symbols;	/* only these symbols (NULL: every symbol with samples) */
	size_t nr_symbols;
	const char *dsos;		/* -d: only these DSOs, comma-separated (NULL: all) */
	bool show_nr_samples;		/* -n: samples instead of percentages */
	bool show_total_period;		/* periods instead of percentages */
	enum annotate_percent percent;
	bool intel;			/* -M intel */
	bool asm_raw;			/* the instructions' bytes */
	bool print_line;		/* -l: the source lines' summary and each instruction's line */
	bool no_source;			/* no source text beside the file:line lines */
	bool group;			/* every event in one group (--group) */
	bool json;			/* one JSON document (mperf-annotate, in man/mperf-annotate.1) */
	double percent_limit;		/* symbols under this share of their event's period left out */
	bool one_event;			/* only the listing of event `event` (its index; a group's leader's) */
	size_t event;
	const char *vmlinux, *kallsyms;	/* the kernel's image or symbols (NULL: as report finds them) */
	const char *symfs;		/* --symfs: the DSOs' files under this directory (NULL: where they ran) */
};

/* The version of --json's document, mperf-annotate/N (man/mperf-annotate.1): fields only added within one. */
#define ANNOTATE_JSON_VERSION 1

/* perf's --percent-type names: local-period, global-period, local-hits, global-hits (either order). */
int annotate__percent_type(const char *s, enum annotate_percent *p);
/*
 * Annotate recording p (named label in messages) onto f.  A symbol that
 * cannot be shown (a kernel symbol with no vmlinux, a DSO whose file is
 * missing) is one warning naming what to give.  0 or a negative code
 * (logged, but -EPIPE).
 */
int annotate__run(struct pdata *p, const char *label, const struct annotate_opts *o, FILE *f);

/*
 * mperf top's annotations (live.c): each sample of a stream that grows (a
 * pipe-mode pdata__open_mem, grown with pdata__mem_grow) counted at its
 * address as it comes, the samples at one address kept as one count (the
 * memory grows with the code hit, not with the run, as perf top's
 * annotation histograms).  annotate_live__open sets it up (NULL with
 * errno set, said) on the symbols of syms (another view's, which it
 * must outlive, used by one thread at a time; NULL: its own, the
 * stream's, as annotate__run finds them);
 * annotate_live__more counts the records that came since the last call;
 * annotate_live__print prints o's one symbol (o->symbols[0], in o->dsos,
 * event o->event) as annotate__run prints it, or -ENOENT when it has no
 * samples (nothing said); annotate_live__zero forgets every sample
 * (perf top's -z); annotate_live__held is the lowest byte of the stream
 * still needed (a record queued in place), NULL when none.
 */
struct annotate_live;
struct symcache;
struct annotate_live *annotate_live__open(struct pdata *p, const char *label, struct symcache *syms);
int annotate_live__more(struct annotate_live *l);
/*
 * Its counting callbacks, for a session that reads the stream already
 * (report_live__also): its own reader is then closed, and
 * annotate_live__more only tidies what they counted.
 */
const struct session_ops *annotate_live__ops(struct annotate_live *l);
int annotate_live__print(struct annotate_live *l, const struct annotate_opts *o, FILE *f);
void annotate_live__zero(struct annotate_live *l);
const void *annotate_live__held(const struct annotate_live *l);
void annotate_live__free(struct annotate_live *l);

/*
 * The length of the x86-64 instruction code starts with (len bytes of
 * it), 0 when it does not decode: script's insn and insnlen fields, which
 * perf takes from its x86 decoder.  NULL from annotate_insn__new: no
 * disassembler (errno set).
 */
struct annotate_insn;
struct annotate_insn *annotate_insn__new(void);
unsigned annotate_insn__length(struct annotate_insn *a, const uint8_t *code, size_t len);
void annotate_insn__free(struct annotate_insn *a);

#endif
