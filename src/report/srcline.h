/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_REPORT_SRCLINE_H
#define MPERF_REPORT_SRCLINE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * perf's source line of an address in a user DSO, for report's srcline
 * and srcfile keys and script's -F srcline: the DSO's DWARF line table
 * (libdw, through the symbol cache), else what addr2line makes of its
 * symbol table, with perf 6.1's addr2line state of each DSO (it gives up
 * on one after SRCLINES_LIMIT lookups failed before any succeeded).  What
 * perf prints when there is no line is the caller's.
 */
struct symcache;
struct srclines_dso;

#define SRCLINES_LIMIT 123

struct srclines {
	struct symcache *syms;
	struct srclines_dso *d;		/* each DSO asked, in the order first asked */
	size_t n, cap;
	size_t undecided;		/* DSOs neither found once nor given up on */
	bool full_path;			/* the line table's whole path (--full-source-path), not its base name */
	char full[4096];		/* that path, of the last lookup */
};

void srclines_init(struct srclines *s, struct symcache *syms);
void srclines_release(struct srclines *s);
/* Whether perf has given up on path's lines. */
bool srclines_off(const struct srclines *s, const char *path);
/* One lookup of path, found or not, as perf counts it: 0 or -ENOMEM. */
int srclines_note(struct srclines *s, const char *path, bool found);
/*
 * The line of file offset off in path (a user DSO's file, path[0] '/'),
 * unless perf gave up on it: "file:line" (the file's base name, or its
 * whole path with full_path) from the line table, else addr2line's "file:0" or "??:0" from a function symbol
 * holding off, into buf; *file the file (NULL: "??").  false when there
 * is none (not counted: srclines_note is the caller's).
 */
bool srclines_find(struct srclines *s, const char *path, uint64_t off, char *buf, size_t len, const char **file);

/* An address, as srclines_of() looks it up. */
struct srcline_at {
	const char *path;	/* its DSO's file, NULL: no map */
	const char *dso;	/* the DSO's name as shown */
	const char *sym;	/* its symbol, NULL: none */
	uint64_t sym_start;
	bool ask;		/* the line table may be asked (a user address, as in the file) */
	uint64_t off;		/* the address in the DSO's file-offset space, to ask at */
	uint64_t ip;		/* what sym+offset is of */
	uint64_t objdump;	/* what dso[addr] shows */
};

/*
 * perf's srcline of an address (its get_srcline with the symbol and the
 * address shown), into buf: "file:line" from the line table; "??:0"
 * without a map; where the file has no answer or is not asked,
 * "sym+offset" in decimal, else "dso[addr]".  *file: the line's file,
 * NULL for the others.  Whether the file answered (srclines_note's found).
 */
bool srclines_of(struct srclines *s, const struct srcline_at *a, char *buf, size_t len, const char **file);

#endif
