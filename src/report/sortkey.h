/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_REPORT_SORTKEY_H
#define MPERF_REPORT_SORTKEY_H

/*
 * The sort keys, one table (sortkey.c), as perf's util/sort.c has one
 * struct sort_entry per key: its name, header, width, its comparisons
 * (perf's cmp, collapse and sort), its cell and its JSON fields.  hist.c,
 * branch.c and diff.c know keys only through it; cmd/ gets their names
 * and perf's matching through report.h (report_sort_key_find).
 *
 * Every view's entry carries a struct sort_row, what the keys look at.
 * hist.c and branch.c embed it with SORT_ROW (the kernel's struct_group:
 * the same members reachable as e->comm and as the struct e->k), diff.c
 * fills one per entry from report.h's struct report_entry.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../perfdata/format.h"
#include "report.h"

struct out;

/* One end of a branch, as perf resolves it (its addr_map_symbol). */
struct sort_bside {
	const char *dso;		/* short name, interned; NULL: no map ("[unknown]") */
	const char *sym;		/* NULL: unresolved */
	uint64_t start, end;		/* the symbol's */
	uint64_t ip;			/* the branch's address */
	uint64_t addr;			/* what perf prints unresolved: map-relative, or ip without a map */
	char level;			/* '.', 'k', or 'H' where no map covers it */
	const char *path;		/* the dso's file (interned), for the srcline keys and -v: NULL: no map */
	char origin;			/* -v: perf's letter of where its dso's symbols came from, 0: not verbose */
	const char *srcline;		/* perf's srcline of addr (interned), NULL: not asked yet */
};

/* What the branch view's keys look at: the branch's ends and flags. */
#define SORT_BRANCH_FIELDS \
	struct sort_bside from, to; \
	struct pd_branch_flags f;	/* the first branch's */
struct sort_branch { SORT_BRANCH_FIELDS };

/* A data address as perf resolves it (its mem_info's daddr): hist.c fills it, where a key asks. */
struct sort_daddr {
	uint64_t addr;			/* as recorded */
	uint64_t al_addr;		/* map-relative (perf's al_addr); the address itself without a map */
	uint64_t unmap;			/* what maps al_addr back out: the map's start less its offset */
	const char *dso;		/* the map's short name, interned; NULL: no map ("[unknown]") */
	const char *sym;		/* NULL: unresolved */
	uint64_t sym_start;		/* map-relative, as al_addr */
	size_t sym_len;			/* what perf sizes the column by */
	bool object;			/* a data symbol (STT_OBJECT): sym+0xoffset */
	bool mapped, shared, exec;	/* a map covers it; MAP_SHARED; PROT_EXEC */
	uint64_t ino;			/* the map's inode (perf's dso id), 0: none */
	int cpumode;			/* the sample's */
	int pid;			/* the process, -1: no map */
};

#define SORT_ROW_FIELDS \
	const char *comm;		/* the sample's command (interned in hist.c and branch.c) */ \
	const char *last_comm;		/* the thread's at the end of the file (the pid column's), NULL: comm */ \
	size_t comm_width;		/* perf sizes comm and pid by the thread's last comm */ \
	int pid, tid;			/* of the first sample */ \
	int cpu;			/* the sample's, -1: not recorded (no PERF_SAMPLE_CPU) */ \
	int socket;			/* the cpu's in the file's CPU_TOPOLOGY, -1: unknown */ \
	const char *dso;		/* short name, -v's long (interned in hist.c); NULL: no map ("[unknown]") */ \
	const char *sym;		/* NULL: unresolved, addr is shown */ \
	uint64_t sym_start, sym_end; \
	uint64_t addr;			/* the first sample's map-relative address */ \
	uint64_t module_addr;		/* a kernel module's sample: its address in the module's map */ \
	size_t sym_len;			/* what perf sizes the symbol by when not the name's length (0) */ \
	char level;			/* '.' user, 'k' kernel, 'H' hypervisor... */ \
	char origin;			/* -v: perf's letter of where dso's symbols came from, 0: not verbose */ \
	bool inlined;			/* an inline frame's entry: sym ends in " (inlined)" */ \
	bool object;			/* a kallsyms data symbol: shown as sym+0xoffset, as perf shows it */ \
	const char *srcline;		/* perf's "file:line" (or its placeholders), interned; NULL: not asked */ \
	const char *srcfile;		/* its file, "" where perf shows none */ \
	int64_t dso_size;		/* the map's size, -1: no map ("unknown") */ \
	uint64_t ip;			/* the address as recorded (a chain frame's in its entry): the addr key's */ \
	uint64_t time;			/* the sample's time, cut to the time key's quantum */ \
	uint64_t cgroup;		/* the sample's cgroup id (PERF_SAMPLE_CGROUP), 0: none */ \
	const char *cgroup_name;	/* its path from the CGROUP records, NULL: not known */ \
	uint64_t cgroup_dev, cgroup_ino;	/* the thread's cgroup namespace (NAMESPACES records) */ \
	const char *parent;		/* the first frame -p/--parent's regex matches, NULL: "[other]" */ \
	const char *trace;		/* a tracepoint's fields as its format prints them, NULL: not a tracepoint */ \
	uint64_t weight;		/* the sample's weight as perf reads it (WEIGHT whole, WEIGHT_STRUCT's low 32 bits), 0: none */ \
	uint16_t ins_lat;		/* WEIGHT_STRUCT's instruction latency (bits 32-47), 0: none */ \
	uint64_t code_page_size;	/* PERF_SAMPLE_CODE_PAGE_SIZE's, 0: none */ \
	uint64_t transaction;		/* PERF_SAMPLE_TRANSACTION's, 0: none */ \
	uint64_t data_src;		/* PERF_SAMPLE_DATA_SRC's, MEMSRC_NONE without it (memsrc.h) */ \
	uint64_t phys_addr, data_page_size;	/* PERF_SAMPLE_PHYS_ADDR's and DATA_PAGE_SIZE's, 0: none */ \
	struct sort_daddr d;		/* the data address (PERF_SAMPLE_ADDR) where it lies: the memory keys' */ \
	uint64_t nr;			/* the entry's own samples (perf's stat.nr_events: the weight keys' factor) */ \
	const struct sort_branch *br;	/* the branch view's entries: the branch */
struct sort_row { SORT_ROW_FIELDS };

/* An entry's key fields, as e->comm and as e->k alike. */
#define SORT_ROW union { struct sort_row k; struct { SORT_ROW_FIELDS }; }

/* What a view's cells remember from row to row (perf's mispredict column keeps its last value). */
struct sort_print {
	const char *mispredict_shown;
};

/* The views a key belongs to: the usual histograms (and diff's), the branch view, --mem-mode's. */
enum { SORT_HIST = 1u << 0, SORT_BRANCH = 1u << 1, SORT_MEM = 1u << 2 };

struct sort_key {
	const char *name;	/* in --sort (perf matches a prefix, any case) and JSON's "sort" */
	const char *header;	/* the column's; it is at least this wide */
	unsigned views;
	bool collapses;		/* perf's se_collapse is set: a key with one makes perf build its collapse tree */
	/* perf's se_cmp(left, right), signs and all: the input tree descends left when cmp(existing, new) < 0 */
	int64_t (*cmp)(const struct sort_row *l, const struct sort_row *r);
	/* hist's collapse tree's order (perf's se_collapse, else its se_cmp), -1 when a comes first */
	int (*collapse)(const struct sort_row *a, const struct sort_row *b);
	/* perf's se_sort: the output order among equal values, -1 when a comes first */
	int (*sort)(const struct sort_row *a, const struct sort_row *b);
	/*
	 * hist.c's equality without chains (interned names by pointer) and its
	 * hash, mixed into h; eq_cmp/hash_cmp (NULL: eq, hash): cmp() == 0,
	 * where cmp is a total order, for the input tree's hash with chains.
	 */
	bool (*eq)(const struct sort_row *a, const struct sort_row *b);
	uint64_t (*hash)(uint64_t h, const struct sort_row *e);
	bool (*eq_cmp)(const struct sort_row *a, const struct sort_row *b);
	uint64_t (*hash_cmp)(uint64_t h, const struct sort_row *e);
	/* diff's match of two files' entries by the keys' names, and its hash (NULL: eq, hash) */
	bool (*match)(const struct sort_row *a, const struct sort_row *b);
	uint64_t (*match_hash)(uint64_t h, const struct sort_row *e);
	/* the width perf computes for e's cell (its col_len); 0: the header's */
	size_t (*width)(const struct sort_row *e);
	/* e's cell, width wide; last: the row's last column (perf leaves a symbol unpadded there) */
	void (*print)(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st);
	/* e's JSON fields, each ", \"name\": value"; diff: as mperf diff shows them (matched by name) */
	void (*json)(struct out *out, const struct sort_row *e, bool diff);
	/* the comma-separated values a filter on this key keeps (--comms, --dsos, -S), NULL: none */
	const char *(*filter)(const struct report_hist_opts *o);
};

extern const struct sort_key sort_keys[REPORT_NR_KEYS];

static inline const struct sort_key *sort_key(enum report_key k)
{
	return &sort_keys[k];
}

/*
 * The one value o's filter on key k keeps, or NULL (no filter, or
 * several): perf leaves that column out (its sort__setup_elide) and names
 * the value above the histogram.
 */
const char *sort_key_single_value(enum report_key k, const struct report_hist_opts *o);

/* diff.c's row of a report_entry (its strings stay report_entry's). */
void sort_row_of_entry(const struct report_entry *e, struct sort_row *r);

#endif
