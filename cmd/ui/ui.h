/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_UI_H
#define MPERF_UI_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

/*
 * The report browser (cmd/ui/browser.c), perf report's TUI on ncurses:
 * the histograms' text as report__hist_doc cut it, the same bytes as
 * --stdio prints, browsed on the terminal; `a` shows an entry's symbol as
 * annotate --stdio prints it (annotate__run, the file read again).  It draws on the terminal and
 * reads its keys; it never exits (a fatal signal restores the terminal,
 * then ends the process as the signal would).
 */
struct pdata;
struct report_hist_doc;
struct annotate_opts;

struct ui_report {
	struct pdata *p;			/* open: `i` prints its header */
	const char *label;
	time_t mtime;				/* the input's, for the header's "captured on" */
	const struct report_hist_doc *doc;
	bool color;				/* false: --no-color, NO_COLOR */
	const char *vmlinux, *kallsyms;		/* `a`'s kernel symbols, report's -k and --kallsyms */
};

/*
 * mperf top's live browser: the same screens on a document that changes.
 * take() is called from the browser's thread every tenth of a second
 * while it waits for a key: a newer document, or NULL; the browser shows
 * the new one from then on and hands the old back to drop() (the first
 * one too, at the end).  done() is true once the sampling ended: the
 * browser then returns.  key() is top's own keys, z and f: the message
 * the help line shows.  header() is `i`'s text, as --header-only prints
 * it (NULL: none yet); annotate() prints `a`'s symbol from the samples so
 * far, as annotate__run prints it: 0, -ENOENT when the symbol has none
 * that can be annotated, or another negative code (said).
 */
struct ui_live {
	const struct report_hist_doc *(*take)(void *ctx);
	void (*drop)(void *ctx, const struct report_hist_doc *d);
	bool (*done)(void *ctx);
	const char *(*key)(void *ctx, int key);
	const char *(*header)(void *ctx, size_t *len);
	int (*annotate)(void *ctx, const struct annotate_opts *o, FILE *f);
	void *ctx;
	unsigned delay_s;			/* the refresh, for the waiting line */
};

/* Whether the browser can run here: standard input and output a terminal whose TERM curses knows. */
bool ui_usable(void);
/* Browse until the user quits: 0; -1 when the terminal could not be set up (nothing drawn). */
int ui_report_browse(const struct ui_report *r);
/*
 * Browse live documents (r->doc is unused) until q or the sampling's end:
 * 0; -1 when the terminal could not be set up.
 */
int ui_top_browse(const struct ui_report *r, const struct ui_live *l);

#endif
