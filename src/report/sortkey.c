// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sort keys: one entry per key, as perf's util/sort.c has one struct
 * sort_entry per key (sortkey.h says what each member is for).  To add a
 * key: its functions and its entry here, its enum value in report.h, a
 * field in struct sort_row if it looks at one the views do not fill yet,
 * and a test against perf.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "../lib/hash.h"
#include "memsrc.h"
#include "out.h"
#include "sortkey.h"

static int strcmp_null_last(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;
	return strcmp(a, b);
}

/* perf's cmp_null(l, r): no value first. */
static int64_t cmp_null(const void *l, const void *r)
{
	return !l && !r ? 0 : !l ? -1 : 1;
}

static int int_order(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

static void print_str(struct out *out, const char *s, int width)
{
	out_printf(out, "%-*.*s", width, width, s);
}

/* ---- comm ---- */

static int64_t comm_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return l->comm == r->comm ? 0 : strcmp(r->comm, l->comm);
}

static int comm_sort(const struct sort_row *a, const struct sort_row *b)
{
	return strcmp(a->comm, b->comm);
}

static bool comm_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->comm == b->comm;
}

static uint64_t comm_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, (uintptr_t)e->comm);
}

static bool comm_match(const struct sort_row *a, const struct sort_row *b)
{
	return !strcmp(a->comm, b->comm);
}

static uint64_t comm_match_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, hash_str(e->comm));
}

static size_t comm_width(const struct sort_row *e)
{
	return e->comm_width;
}

static void comm_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	print_str(out, e->comm, width);
}

static const char *comm_filter(const struct report_hist_opts *o)
{
	return o->comm;
}

static void comm_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_str(out, ", \"comm\": ");
	out_json_str(out, e->comm);
}

/* ---- pid: perf's "pid" key is the thread ---- */

static const char *thread_comm(const struct sort_row *e)
{
	return e->last_comm ? e->last_comm : e->comm;
}

static int64_t pid_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return (int64_t)r->tid - l->tid;
}

static int pid_sort(const struct sort_row *a, const struct sort_row *b)
{
	return int_order(a->tid, b->tid);
}

static bool pid_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->tid == b->tid;
}

static uint64_t pid_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, (uint64_t)(unsigned)e->tid);
}

static size_t pid_width(const struct sort_row *e)
{
	return e->comm_width + 8;
}

static void pid_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	int w = (width > 7 ? width : 7) - 8;

	(void)last, (void)st;
	out_printf(out, "%7d:%-*.*s", e->tid, w, w < 0 ? 0 : w, thread_comm(e));
}

static void pid_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_printf(out, ", \"tid\": %d, \"thread-comm\": ", e->tid);
	out_json_str(out, thread_comm(e));
}

/* ---- dso ---- */

/* perf's dso key, cmp(l, r) with its signs: names right against left, no dso first. */
static int64_t dso_name_cmp(const char *l, const char *r)
{
	if (!l || !r)
		return cmp_null(l, r);
	return l == r ? 0 : strcmp(r, l);	/* interned: equal names are one pointer */
}

static int64_t dso_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return dso_name_cmp(l->dso, r->dso);
}

static int dso_sort(const struct sort_row *a, const struct sort_row *b)
{
	return strcmp_null_last(a->dso, b->dso);
}

static bool dso_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->dso == b->dso;
}

static uint64_t dso_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, (uintptr_t)e->dso);
}

static bool dso_match(const struct sort_row *a, const struct sort_row *b)
{
	return !strcmp_null_last(a->dso, b->dso);
}

static uint64_t dso_match_hash(uint64_t h, const struct sort_row *e)
{
	return e->dso ? hash_mix(h, hash_str(e->dso)) : h;
}

static size_t dso_width(const struct sort_row *e)
{
	return e->dso ? strlen(e->dso) : 0;
}

static void dso_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	print_str(out, e->dso ? e->dso : "[unknown]", width);
}

static const char *dso_filter(const struct report_hist_opts *o)
{
	return o->dso;
}

static void dso_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_str(out, ", \"dso\": ");
	out_json_str(out, e->dso ? e->dso : "[unknown]");
}

/* ---- symbol ---- */

/*
 * perf's sym key, cmp(l, r): unresolved addresses by their difference
 * as a signed number (not a total order for addresses 2^63 apart), else
 * the dso first, then the symbol's range; inline frames by name, then
 * overlapping ranges are equal.
 */
static int64_t sym_cmp(const struct sort_row *l, const struct sort_row *r)
{
	int64_t c;

	if (!l->sym && !r->sym)
		return (int64_t)(r->addr - l->addr);
	if ((c = dso_name_cmp(l->dso, r->dso)))
		return c;
	if (!l->sym || !r->sym)
		return cmp_null(l->sym, r->sym);
	if ((l->inlined || r->inlined) && (c = strcmp(l->sym, r->sym)))
		return c;
	if ((l->inlined || r->inlined) && l->sym_start <= r->sym_end && l->sym_end >= r->sym_start)
		return 0;
	return l->sym_start != r->sym_start ? (int64_t)(r->sym_start - l->sym_start)
					     : (int64_t)(r->sym_end - l->sym_end);
}

/* The names of two symbols, one of them an inline frame's, without " (inlined)". */
static int inline_name_cmp(const struct sort_row *a, const struct sort_row *b)
{
	size_t la = strlen(a->sym) - (a->inlined ? sizeof(" (inlined)") - 1 : 0);
	size_t lb = strlen(b->sym) - (b->inlined ? sizeof(" (inlined)") - 1 : 0);
	int c = strncmp(a->sym, b->sym, la < lb ? la : lb);

	return c ? (c < 0 ? -1 : 1) : (la > lb) - (la < lb);
}

/*
 * perf compares addresses by their difference as a signed 64-bit number:
 * the usual order, but for garbage far apart (a frame-pointer walk through
 * code without frame pointers), which it orders the other way.
 */
static int addr_order(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(b - a);

	return d > 0 ? -1 : d < 0;
}

static int sym_collapse(const struct sort_row *a, const struct sort_row *b)
{
	int c;

	/* perf: two unresolved entries by their address alone, whatever their dsos */
	if (!a->sym && !b->sym)
		return addr_order(a->addr, b->addr);
	if ((c = strcmp_null_last(a->dso, b->dso)))
		return c;
	if (!a->sym != !b->sym)
		return a->sym ? 1 : -1;
	if ((a->inlined || b->inlined) && (c = inline_name_cmp(b, a)))
		return c;	/* perf compares inline symbols by name first (reversed, as its collapse order is) */
	if (a->sym_start != b->sym_start)
		return a->sym_start < b->sym_start ? -1 : 1;
	return (a->sym_end > b->sym_end) - (a->sym_end < b->sym_end);
}

static int sym_sort(const struct sort_row *a, const struct sort_row *b)
{
	return a->sym && b->sym ? strcmp(a->sym, b->sym) : !a->sym - !b->sym;
}

/*
 * perf's symbol key ignores the level: an entry shows its first sample's.
 * A resolved symbol (not an inline frame) is its dso's name and its range,
 * as perf compares it: two copies of one binary, mapped by two processes,
 * are one entry.
 */
static bool sym_eq(const struct sort_row *a, const struct sort_row *b)
{
	if (a->sym && b->sym && !a->inlined && !b->inlined)
		return a->dso == b->dso && a->sym_start == b->sym_start && a->sym_end == b->sym_end;
	return a->sym_start == b->sym_start && a->sym == b->sym && (a->sym || a->addr == b->addr);
}

static uint64_t sym_hash(uint64_t h, const struct sort_row *e)
{
	if (e->sym && !e->inlined)
		return hash_mix(hash_mix(h, (uintptr_t)e->dso), e->sym_start);
	return hash_mix(h, (uintptr_t)e->sym ^ (e->sym ? 0 : e->addr));
}

/* sym_cmp() == 0 while it is a total order: a resolved symbol is its dso and range whatever its name. */
static bool sym_eq_cmp(const struct sort_row *a, const struct sort_row *b)
{
	if (!a->sym != !b->sym)
		return false;
	if (!a->sym)
		return a->addr == b->addr;
	return a->dso == b->dso && a->sym_start == b->sym_start && a->sym_end == b->sym_end;
}

static uint64_t sym_hash_cmp(uint64_t h, const struct sort_row *e)
{
	if (e->sym)
		return hash_mix(hash_mix(hash_mix(h, (uintptr_t)e->dso), e->sym_start), e->sym_end);
	return hash_mix(h, e->addr);
}

/* perf diff compares symbols by name: every unresolved one is alike */
static bool sym_match(const struct sort_row *a, const struct sort_row *b)
{
	return !strcmp_null_last(a->sym, b->sym);
}

static uint64_t sym_match_hash(uint64_t h, const struct sort_row *e)
{
	return e->sym ? hash_mix(h, hash_str(e->sym)) : h;
}

/* perf sizes an inline frame's symbol by its name, without " (inlined)" */
static size_t sym_width(const struct sort_row *e)
{
	/* -v's address and origin: "%-#18x %c ", counted for a resolved symbol only */
	size_t v = e->origin && e->sym ? 16 + 2 + 3 : 0;

	if (e->sym && e->sym_len)
		return e->sym_len + 4 + v;
	return e->sym ? strlen(e->sym) + 4 - (e->inlined ? sizeof(" (inlined)") - 1 : 0) + v : 16 + 4 + 2;
}

static void sym_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	char buf[4096];
	size_t n = 0;

	(void)st;
	if (e->origin)	/* perf -v: the first sample's address, and where the symbols came from */
		n = snprintf(buf, sizeof(buf), "%-#18" PRIx64 " %c ", e->addr, e->origin);
	if (e->sym && e->object)	/* perf: the offset of the first sample's address in its map */
		snprintf(buf + n, sizeof(buf) - n, "[%c] %s+%#" PRIx64, e->level, e->sym,
			 (e->module_addr ? e->module_addr : e->addr) - e->sym_start);
	else if (e->sym)
		snprintf(buf + n, sizeof(buf) - n, "[%c] %s", e->level, e->sym);
	else
		snprintf(buf + n, sizeof(buf) - n, "[%c] %#.16" PRIx64, e->level, e->addr);	/* perf: 0 without 0x */
	if (last)
		out_str(out, buf);
	else
		out_printf(out, "%-*s", width, buf);
}

static const char *sym_filter(const struct report_hist_opts *o)
{
	return o->sym;
}

static void sym_json(struct out *out, const struct sort_row *e, bool diff)
{
	out_printf(out, ", \"level\": \"%c\", \"symbol\": ", e->level);
	if (diff) {
		if (e->sym)
			out_json_str(out, e->sym);
		else	/* the first address: the others of the DSO are in the same entry */
			out_printf(out, "null, \"address\": \"%#" PRIx64 "\"", e->addr);
		return;
	}
	if (e->sym)
		out_json_str(out, e->sym);
	else
		out_str(out, "null");
	out_printf(out, ", \"address\": \"%#" PRIx64 "\"", e->sym ? e->sym_start : e->addr);
}

/* ---- cpu: the sample's (perf's sort__cpu: -1 where the file does not record it) ---- */

static int64_t cpu_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return (int64_t)r->cpu - l->cpu;
}

static int cpu_sort(const struct sort_row *a, const struct sort_row *b)
{
	return int_order(a->cpu, b->cpu);
}

static bool cpu_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->cpu == b->cpu;
}

static uint64_t cpu_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, (uint64_t)(unsigned)e->cpu);
}

static void cpu_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	out_printf(out, "%*.*d", width, width, e->cpu);	/* perf's: 001, -001 */
}

static void cpu_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_printf(out, ", \"cpu\": %d", e->cpu);
}

/*
 * ---- symbol_size: the symbol's end less its start, "unknown" unresolved
 * (perf's ipc_null key, which its text brings, keeps each symbol apart) ----
 */

static int64_t sym_size_of(const struct sort_row *e)
{
	return e->sym ? (int64_t)(e->sym_end - e->sym_start) : 0;
}

static int64_t sym_size_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return int_order(sym_size_of(r), sym_size_of(l));
}

static int sym_size_sort(const struct sort_row *a, const struct sort_row *b)
{
	return int_order(sym_size_of(a), sym_size_of(b));
}

static bool sym_size_eq(const struct sort_row *a, const struct sort_row *b)
{
	return sym_size_of(a) == sym_size_of(b);
}

static uint64_t sym_size_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, (uint64_t)sym_size_of(e));
}

/* ---- ipc_null: sym's comparison, its output order, and perf's placeholder cell ---- */

static int ipc_null_sort(const struct sort_row *a, const struct sort_row *b)
{
	int64_t c = sym_cmp(a, b);

	return c > 0 ? -1 : c < 0;
}

static void ipc_null_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)e, (void)last, (void)st;
	print_str(out, "-      -", width);	/* padded, last or not, as perf */
}

static void sym_size_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	if (e->sym)
		out_printf(out, "%*" PRId64, width, sym_size_of(e));
	else
		out_printf(out, "%*s", width, "unknown");
}

static void sym_size_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	if (e->sym)
		out_printf(out, ", \"symbol_size\": %" PRId64, sym_size_of(e));
	else
		out_str(out, ", \"symbol_size\": null");
}

/*
 * ---- srcline and srcfile: perf's "file:line" of the first sample's
 * address (hist.c fills them, only when asked), compared as strings ----
 */

static const char *str_or_empty(const char *s)
{
	return s ? s : "";
}

static int64_t srcline_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return l->srcline == r->srcline ? 0 : strcmp(str_or_empty(r->srcline), str_or_empty(l->srcline));
}

static int srcline_sort(const struct sort_row *a, const struct sort_row *b)
{
	return strcmp(str_or_empty(a->srcline), str_or_empty(b->srcline));
}

static bool srcline_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->srcline == b->srcline;
}

static uint64_t srcline_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, hash_str(str_or_empty(e->srcline)));
}

static bool srcline_match(const struct sort_row *a, const struct sort_row *b)
{
	return !srcline_sort(a, b);
}

static size_t srcline_width(const struct sort_row *e)
{
	return strlen(str_or_empty(e->srcline));
}

static void srcline_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)st;
	if (last)	/* perf leaves the row's last cell unpadded */
		out_str(out, str_or_empty(e->srcline));
	else
		print_str(out, str_or_empty(e->srcline), width);
}

static void srcline_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_str(out, ", \"srcline\": ");
	out_json_str(out, str_or_empty(e->srcline));
}

static int64_t srcfile_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return l->srcfile == r->srcfile ? 0 : strcmp(str_or_empty(r->srcfile), str_or_empty(l->srcfile));
}

static int srcfile_sort(const struct sort_row *a, const struct sort_row *b)
{
	return strcmp(str_or_empty(a->srcfile), str_or_empty(b->srcfile));
}

static bool srcfile_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->srcfile == b->srcfile;
}

static uint64_t srcfile_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, hash_str(str_or_empty(e->srcfile)));
}

static bool srcfile_match(const struct sort_row *a, const struct sort_row *b)
{
	return !srcfile_sort(a, b);
}

static size_t srcfile_width(const struct sort_row *e)
{
	return strlen(str_or_empty(e->srcfile));
}

static void srcfile_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)st;
	if (last)	/* perf leaves the row's last cell unpadded */
		out_str(out, str_or_empty(e->srcfile));
	else
		print_str(out, str_or_empty(e->srcfile), width);
}

static void srcfile_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_str(out, ", \"srcfile\": ");
	out_json_str(out, str_or_empty(e->srcfile));
}

/* ---- dso_size: the sample's map's size, "unknown" without a map (perf's sort__dso_size) ---- */

static int64_t dso_size_of(const struct sort_row *e)
{
	return e->dso_size > 0 ? e->dso_size : 0;
}

static int64_t dso_size_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return int_order(dso_size_of(r), dso_size_of(l));
}

static int dso_size_sort(const struct sort_row *a, const struct sort_row *b)
{
	return int_order(dso_size_of(a), dso_size_of(b));
}

static bool dso_size_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->dso_size == b->dso_size;
}

static uint64_t dso_size_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, (uint64_t)e->dso_size);
}

static void dso_size_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	if (e->dso_size >= 0)
		out_printf(out, "%*" PRId64, width, e->dso_size);
	else
		out_printf(out, "%*s", width, "unknown");
}

static void dso_size_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	if (e->dso_size >= 0)
		out_printf(out, ", \"dso_size\": %" PRId64, e->dso_size);
	else
		out_str(out, ", \"dso_size\": null");
}

/* ---- socket: the sample's CPU's, in the file's CPU_TOPOLOGY (perf's sort__socket) ---- */

static int64_t socket_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return (int64_t)r->socket - l->socket;
}

static int socket_sort(const struct sort_row *a, const struct sort_row *b)
{
	return int_order(a->socket, b->socket);
}

static bool socket_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->socket == b->socket;
}

static uint64_t socket_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, (uint64_t)(unsigned)e->socket);
}

static void socket_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	out_printf(out, "%*.*d", width, width > 3 ? width - 3 : 0, e->socket);	/* perf's: "   000" */
}

static void socket_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_printf(out, ", \"socket\": %d", e->socket);
}

/*
 * ---- parent, cgroup, cgroup_id, time, addr: keys perf compares with
 * its se_cmp alone, whose order in every tree is the sign of it ----
 */

/* perf's order of a key without se_collapse and se_sort: a before b when se_cmp(a, b) > 0. */
static int by_cmp(int64_t c)
{
	return c > 0 ? -1 : c < 0;
}

static int64_t parent_cmp(const struct sort_row *l, const struct sort_row *r)
{
	if (!l->parent || !r->parent)
		return cmp_null(l->parent, r->parent);
	return l->parent == r->parent ? 0 : strcmp(r->parent, l->parent);
}

static int parent_sort(const struct sort_row *a, const struct sort_row *b)
{
	return by_cmp(parent_cmp(a, b));
}

static bool parent_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->parent == b->parent;	/* interned */
}

static uint64_t parent_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, (uintptr_t)e->parent);
}

static size_t parent_width(const struct sort_row *e)
{
	return e->parent ? strlen(e->parent) : 0;
}

static void parent_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	print_str(out, e->parent ? e->parent : "[other]", width);
}

static void parent_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_str(out, ", \"parent\": ");
	if (e->parent)
		out_json_str(out, e->parent);
	else
		out_str(out, "null");
}

/* cgroup: the sample's id, shown by its CGROUP record's path ("N/A": none, "unknown": no record) */
static int64_t cgroup_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return (int64_t)(r->cgroup - l->cgroup);
}

static int cgroup_sort(const struct sort_row *a, const struct sort_row *b)
{
	return by_cmp(cgroup_cmp(a, b));
}

static bool cgroup_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->cgroup == b->cgroup;
}

static uint64_t cgroup_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, e->cgroup);
}

static const char *cgroup_shown(const struct sort_row *e)
{
	return !e->cgroup ? "N/A" : e->cgroup_name ? e->cgroup_name : "unknown";
}

/* perf sizes the column by a known cgroup's name ("unknown" otherwise), at least 6 */
static size_t cgroup_width(const struct sort_row *e)
{
	size_t n = e->cgroup ? strlen(e->cgroup_name ? e->cgroup_name : "unknown") : 0;

	return n > 6 ? n : 6;
}

/* perf's cell printed as is, then padded to the width but in the row's last column */
static void print_aligned(struct out *out, const char *s, int width, bool last)
{
	if (last)
		out_str(out, s);
	else
		out_printf(out, "%-*s", width, s);
}

static void cgroup_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)st;
	print_aligned(out, cgroup_shown(e), width, last);
}

static void cgroup_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_printf(out, ", \"cgroup-id\": %" PRIu64 ", \"cgroup\": ", e->cgroup);
	out_json_str(out, cgroup_shown(e));
}

/* cgroup_id: the thread's cgroup namespace, device then inode (perf's signs: left against right) */
static int64_t cgroup_id_cmp(const struct sort_row *l, const struct sort_row *r)
{
	int64_t c = (int64_t)(l->cgroup_dev - r->cgroup_dev);

	return c ? c : (int64_t)(l->cgroup_ino - r->cgroup_ino);
}

static int cgroup_id_sort(const struct sort_row *a, const struct sort_row *b)
{
	return by_cmp(cgroup_id_cmp(a, b));
}

static bool cgroup_id_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->cgroup_dev == b->cgroup_dev && a->cgroup_ino == b->cgroup_ino;
}

static uint64_t cgroup_id_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(hash_mix(h, e->cgroup_dev), e->cgroup_ino);
}

static size_t cgroup_id_width(const struct sort_row *e)
{
	(void)e;
	return 20;
}

static void cgroup_id_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	char buf[64];

	(void)st;
	snprintf(buf, sizeof(buf), "%" PRIu64 "/0x%" PRIx64, e->cgroup_dev, e->cgroup_ino);
	print_aligned(out, buf, width, last);
}

static void cgroup_id_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_printf(out, ", \"cgroup-dev\": %" PRIu64 ", \"cgroup-ino\": %" PRIu64, e->cgroup_dev, e->cgroup_ino);
}

/* trace: a tracepoint's fields as its print format has them; "N/A" for another event */
static int64_t trace_cmp(const struct sort_row *l, const struct sort_row *r)
{
	if (!l->trace || !r->trace)
		return 0;	/* perf: not a tracepoint event */
	return l->trace == r->trace ? 0 : strcmp(r->trace, l->trace);
}

static int trace_sort(const struct sort_row *a, const struct sort_row *b)
{
	return by_cmp(trace_cmp(a, b));
}

static bool trace_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->trace == b->trace;	/* interned */
}

static uint64_t trace_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, (uintptr_t)e->trace);
}

static size_t trace_width(const struct sort_row *e)
{
	return e->trace ? strlen(e->trace) : 0;
}

static void trace_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	const char *s = e->trace ? e->trace : "N/A";
	size_t n = strlen(s);

	(void)st;
	if (width >= 0 && n > (size_t)width)
		n = (size_t)width;	/* perf's "%-.*s" */
	out_printf(out, "%.*s", (int)n, s);
	if (!last && (int)n < width)
		out_printf(out, "%*s", width - (int)n, "");
}

static void trace_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_str(out, ", \"trace\": ");
	if (e->trace)
		out_json_str(out, e->trace);
	else
		out_str(out, "null");
}

/* time: the sample's, cut to --time-quantum (hist.c), as seconds.microseconds */
static int64_t time_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return (int64_t)(r->time - l->time);
}

static int time_sort(const struct sort_row *a, const struct sort_row *b)
{
	return by_cmp(time_cmp(a, b));
}

static bool time_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->time == b->time;
}

static uint64_t time_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, e->time);
}

static size_t time_width(const struct sort_row *e)
{
	(void)e;
	return 12;
}

static void time_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	char buf[48];

	(void)st;
	/* perf's: cut to the width (a time of 100000 s and more loses digits) */
	snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64, e->time / 1000000000, e->time % 1000000000 / 1000);
	if (width >= 0 && (size_t)width < sizeof(buf))
		buf[width] = '\0';
	print_aligned(out, buf, width, last);
}

static void time_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_printf(out, ", \"time\": %" PRIu64, e->time);
}

/* addr: the address as recorded (perf's map__unmap_ip of its map-relative one) */
static int64_t addr_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return (int64_t)(r->ip - l->ip);
}

static int addr_sort(const struct sort_row *a, const struct sort_row *b)
{
	return by_cmp(addr_cmp(a, b));
}

static bool addr_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->ip == b->ip;
}

static uint64_t addr_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, e->ip);
}

static size_t addr_width(const struct sort_row *e)
{
	(void)e;
	return 18;	/* perf's BITS_PER_LONG / 4 + 2 */
}

static void addr_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	out_printf(out, "%-#*" PRIx64, width, e->ip);
}

static void addr_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_printf(out, ", \"addr\": %" PRIu64, e->ip);
}

/* ---- the branch view's: a branch's ends and flags ---- */

static int strcmp_null(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : 0;
}

/* perf's dso_from/dso_to: no dso last, names left against right. */
static int64_t bdso_cmp(const char *l, const char *r)
{
	if (!l || !r)
		return cmp_null(r, l);
	return strcmp_null(l, r);
}

static int64_t bsym_cmp(const struct sort_bside *l, const struct sort_bside *r)
{
	if (!l->sym && !r->sym)
		return (int64_t)(r->ip - l->ip);
	if (!l->sym || !r->sym)
		return cmp_null(l->sym, r->sym);
	if (l->start != r->start)
		return (int64_t)(r->start - l->start);
	return (int64_t)(r->end - l->end);
}

/* an unresolved symbol's dso column is widened to its 16 hex digits */
static size_t bdso_width(const struct sort_bside *s)
{
	return s->sym ? strlen(s->dso) : 16;
}

/* -v's address and letter ("%-#18x %c ") are counted for a resolved symbol only (perf's) */
static size_t bsym_width(const struct sort_bside *s)
{
	return s->sym ? strlen(s->sym) + 4 + (s->origin ? 16 + 2 + 3 : 0) : 16 + 4 + 2;
}

static void bdso_print(struct out *out, const struct sort_bside *s, int width)
{
	print_str(out, s->dso ? s->dso : "[unknown]", width);
}

/*
 * The name cut to the column, padded to it but in the last column (perf's,
 * as its symbol key's); -v's address overflows it where unresolved, as perf.
 */
static void bsym_print(struct out *out, const struct sort_bside *s, int width, bool last)
{
	char buf[4096];
	int n = 0;

	if (s->origin)	/* -v: the address in the dso, and where its symbols came from */
		n = snprintf(buf, sizeof(buf), "%-#18" PRIx64 " %c ", s->addr, s->origin);
	if (s->sym)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "[%c] %.*s", s->level, width > n + 4 ? width - n - 4 : 0,
			      s->sym);
	else	/* perf: 0 without 0x */
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "[%c] %#.16" PRIx64, s->level, s->addr);
	out_printf(out, "%-*s", last ? 0 : width, buf);
}

static int64_t dso_from_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return bdso_cmp(l->br->from.dso, r->br->from.dso);
}

static size_t dso_from_width(const struct sort_row *e)
{
	return bdso_width(&e->br->from);
}

static void dso_from_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	bdso_print(out, &e->br->from, width);
}

static int64_t dso_to_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return bdso_cmp(l->br->to.dso, r->br->to.dso);
}

static size_t dso_to_width(const struct sort_row *e)
{
	return bdso_width(&e->br->to);
}

static void dso_to_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	bdso_print(out, &e->br->to, width);
}

static int64_t sym_from_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return bsym_cmp(&l->br->from, &r->br->from);
}

static size_t sym_from_width(const struct sort_row *e)
{
	return bsym_width(&e->br->from);
}

static void sym_from_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)st;
	bsym_print(out, &e->br->from, width, last);
}

static int64_t sym_to_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return bsym_cmp(&l->br->to, &r->br->to);
}

static size_t sym_to_width(const struct sort_row *e)
{
	return bsym_width(&e->br->to);
}

static void sym_to_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)st;
	bsym_print(out, &e->br->to, width, last);
}

/* mispredict, in_tx and abort say "differs", never "less" (perf's) */
static int64_t mispredict_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return l->br->f.mispred != r->br->f.mispred || l->br->f.predicted != r->br->f.predicted;
}

static void mispredict_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last;
	/* perf keeps the last value it printed for a branch neither predicted nor not */
	if (e->br->f.predicted)
		st->mispredict_shown = "N";
	else if (e->br->f.mispred)
		st->mispredict_shown = "Y";
	print_str(out, st->mispredict_shown, width);
}

static int64_t in_tx_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return l->br->f.in_tx != r->br->f.in_tx;
}

static void in_tx_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	out_printf(out, "%-*s", width, e->br->f.in_tx ? "T" : ".");
}

static int64_t abort_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return l->br->f.abort != r->br->f.abort;
}

static void abort_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	out_printf(out, "%-*s", width, e->br->f.abort ? "A" : ".");
}

static int64_t cycles_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return (int64_t)l->br->f.cycles - (int64_t)r->br->f.cycles;
}

static void cycles_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	if (e->br->f.cycles)
		out_printf(out, "%-*hd", width, (short)e->br->f.cycles);	/* perf's %hd */
	else
		out_printf(out, "%-*s", width, "-");
}

/* ---- srcline_from, srcline_to: a branch's end's "file:line", compared as strings (perf's) ---- */

static int64_t srcline_from_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return strcmp(str_or_empty(r->br->from.srcline), str_or_empty(l->br->from.srcline));
}

static size_t srcline_from_width(const struct sort_row *e)
{
	return strlen(str_or_empty(e->br->from.srcline));
}

/*
 * Cut to the column and padded to it, in the last column too; "(null)"
 * where no comparison asked for it (perf's printf of its NULL).
 */
static void bsrcline_print(struct out *out, const char *s, int width)
{
	print_str(out, s ? s : "(null)", width);
}

static void srcline_from_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	bsrcline_print(out, e->br->from.srcline, width);
}

static int64_t srcline_to_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return strcmp(str_or_empty(r->br->to.srcline), str_or_empty(l->br->to.srcline));
}

static size_t srcline_to_width(const struct sort_row *e)
{
	return strlen(str_or_empty(e->br->to.srcline));
}

static void srcline_to_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	bsrcline_print(out, e->br->to.srcline, width);
}

/*
 * ---- addr_from, addr_to: a branch's end by its dso and address, shown
 * as perf shows it: the sample's level, then sym+0xoffset in the dso
 * (the symbol cut to the column) or the address in 16 hex digits ----
 */

static int64_t baddr_cmp(const struct sort_bside *l, const struct sort_bside *r)
{
	int64_t c = bdso_cmp(l->dso, r->dso);

	return c ? c : (int64_t)(r->ip - l->ip);
}

/* perf widens the column for an unresolved end only */
static size_t baddr_width(const struct sort_bside *s)
{
	return s->sym ? 0 : 16 + 4 + 2;
}

static void baddr_print(struct out *out, const struct sort_bside *s, char level, int width, bool last)
{
	char buf[4096];
	int n = snprintf(buf, sizeof(buf), "[%c] ", level);

	if (s->sym) {
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%.*s", width > 4 ? width - 4 : 0, s->sym);
		if (s->addr != s->start)
			snprintf(buf + n, sizeof(buf) - (size_t)n, "+%#" PRIx64, s->addr - s->start);
	} else {
		snprintf(buf + n, sizeof(buf) - (size_t)n, "%-#.16" PRIx64, s->addr);	/* perf: 0 without 0x */
	}
	out_printf(out, "%-*s", last ? 0 : width, buf);	/* padded but in the last column */
}

static int64_t addr_from_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return baddr_cmp(&l->br->from, &r->br->from);
}

static size_t addr_from_width(const struct sort_row *e)
{
	return baddr_width(&e->br->from);
}

static void addr_from_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)st;
	baddr_print(out, &e->br->from, e->level, width, last);
}

static int64_t addr_to_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return baddr_cmp(&l->br->to, &r->br->to);
}

static size_t addr_to_width(const struct sort_row *e)
{
	return baddr_width(&e->br->to);
}

static void addr_to_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)st;
	baddr_print(out, &e->br->to, e->level, width, last);
}

static size_t no_width(const struct sort_row *e)
{
	(void)e;
	return 0;
}

/*
 * ---- local_weight, weight, local_ins_lat, ins_lat, local_p_stage_cyc,
 * p_stage_cyc: an entry per sample's value, as perf's he->weight; the
 * local key shows it, the other it times the entry's own samples (0 for
 * an entry of chains alone).  perf 6.1 on x86 reads no pipeline stage
 * cycles: always 0.  Compared as perf's left - right, in 64 bits. ----
 */

static int sign64(int64_t v)
{
	return (v > 0) - (v < 0);
}

static int64_t weight_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return (int64_t)(l->weight - r->weight);
}

static int weight_sort(const struct sort_row *a, const struct sort_row *b)
{
	return sign64(weight_cmp(b, a));
}

static bool weight_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->weight == b->weight;
}

static uint64_t weight_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, e->weight);
}

static size_t weight_width(const struct sort_row *e)
{
	(void)e;
	return 12;	/* perf's col_len of both */
}

static void local_weight_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	out_printf(out, "%-*" PRIu64, width, e->weight);
}

static void weight_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	out_printf(out, "%-*" PRIu64, width, e->weight * e->nr);
}

static void local_weight_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_printf(out, ", \"local-weight\": %" PRIu64, e->weight);
}

static void weight_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_printf(out, ", \"weight\": %" PRIu64, e->weight * e->nr);
}

static int64_t ins_lat_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return (int64_t)l->ins_lat - r->ins_lat;
}

static int ins_lat_sort(const struct sort_row *a, const struct sort_row *b)
{
	return sign64(ins_lat_cmp(b, a));
}

static bool ins_lat_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->ins_lat == b->ins_lat;
}

static uint64_t ins_lat_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, e->ins_lat);
}

static size_t lat_width(const struct sort_row *e)
{
	(void)e;
	return 13;	/* perf's col_len of the latencies and the stage cycles */
}

/* perf's u16 latency times its u32 count, printed as an unsigned int */
static unsigned ins_lat_total(const struct sort_row *e)
{
	return (unsigned)e->ins_lat * (unsigned)e->nr;
}

static void local_ins_lat_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	out_printf(out, "%-*u", width, (unsigned)e->ins_lat);
}

static void ins_lat_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	out_printf(out, "%-*u", width, ins_lat_total(e));
}

static void local_ins_lat_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_printf(out, ", \"local-ins-lat\": %u", (unsigned)e->ins_lat);
}

static void ins_lat_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_printf(out, ", \"ins-lat\": %u", ins_lat_total(e));
}

static int64_t zero_cmp(const struct sort_row *l, const struct sort_row *r)
{
	(void)l, (void)r;
	return 0;
}

static int zero_sort(const struct sort_row *a, const struct sort_row *b)
{
	(void)a, (void)b;
	return 0;
}

static bool zero_eq(const struct sort_row *a, const struct sort_row *b)
{
	(void)a, (void)b;
	return true;
}

static uint64_t zero_hash(uint64_t h, const struct sort_row *e)
{
	(void)e;
	return h;
}

static void zero_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)e, (void)last, (void)st;
	out_printf(out, "%-*d", width, 0);
}

static void local_p_stage_cyc_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)e, (void)diff;
	out_printf(out, ", \"local-p-stage-cyc\": 0");
}

static void p_stage_cyc_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)e, (void)diff;
	out_printf(out, ", \"p-stage-cyc\": 0");
}

/* ---- code_page_size: the sample's, as perf names a size (4K, 2M), N/A for none ---- */

static int64_t code_page_size_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return (int64_t)(r->code_page_size - l->code_page_size);
}

static int code_page_size_sort(const struct sort_row *a, const struct sort_row *b)
{
	return sign64(code_page_size_cmp(b, a));
}

static bool code_page_size_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->code_page_size == b->code_page_size;
}

static uint64_t code_page_size_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, e->code_page_size);
}

/* perf's get_page_size_name: divided by 1024 while the quotient is above 1, up to G */
static const char *page_size_name(uint64_t n, char *buf, size_t len)
{
	static const char unit[] = "BKMG";
	int i = 0;

	if (!n)
		return "N/A";
	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(buf, len, "%" PRIu64 "%c", n, unit[i]);
	return buf;
}

static void code_page_size_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	char buf[32];

	(void)last, (void)st;
	out_printf(out, "%-*s", width, page_size_name(e->code_page_size, buf, sizeof(buf)));
}

static void code_page_size_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_printf(out, ", \"code-page-size\": %" PRIu64, e->code_page_size);
}

/*
 * ---- transaction: PERF_SAMPLE_TRANSACTION's flags (memsrc.c names
 * them), as perf's left - right; its column is its header's width ----
 */

static int64_t transaction_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return (int64_t)(l->transaction - r->transaction);
}

static int transaction_sort(const struct sort_row *a, const struct sort_row *b)
{
	return by_cmp(transaction_cmp(a, b));
}

static bool transaction_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->transaction == b->transaction;
}

static uint64_t transaction_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, e->transaction);
}

/* perf widens the column for a sample with flags to what its longest list of them takes */
static size_t transaction_width(const struct sort_row *e)
{
	return e->transaction ? MEMSRC_TXN_WIDTH : 0;
}

static void transaction_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	char buf[128];

	(void)last, (void)st;
	out_printf(out, "%-*s", width, memsrc_txn(e->transaction, buf, sizeof(buf)));
}

static void transaction_json(struct out *out, const struct sort_row *e, bool diff)
{
	char buf[128];

	(void)diff;
	out_printf(out, ", \"transaction\": %" PRIu64 ", \"transaction-flags\": ", e->transaction);
	out_json_str(out, memsrc_txn(e->transaction, buf, sizeof(buf)));
}

/*
 * ---- the memory keys of data_src (perf's --mem-mode): each compares
 * its own bits of the first sample's data_src (right - left), shows them
 * as memsrc.c names them ----
 */

/* Each data_src key's bits: shift and width in the kernel's union perf_mem_data_src. */
static uint64_t src_bits(uint64_t v, unsigned shift, unsigned bits)
{
	return (v >> shift) & ((1ULL << bits) - 1);
}

#define SRC_KEY(name, shift, bits, fn, width, padded, field)						\
static int64_t name##_cmp(const struct sort_row *l, const struct sort_row *r)			\
{												\
	return (int64_t)src_bits(r->data_src, shift, bits) - (int64_t)src_bits(l->data_src, shift, bits); \
}												\
static int name##_sort(const struct sort_row *a, const struct sort_row *b)			\
{												\
	return by_cmp(name##_cmp(a, b));							\
}												\
static bool name##_eq(const struct sort_row *a, const struct sort_row *b)			\
{												\
	return !name##_cmp(a, b);								\
}												\
static uint64_t name##_hash(uint64_t h, const struct sort_row *e)				\
{												\
	return hash_mix(h, src_bits(e->data_src, shift, bits));					\
}												\
static size_t name##_width(const struct sort_row *e)						\
{												\
	(void)e;										\
	return width;										\
}												\
static void name##_print(struct out *out, const struct sort_row *e, int w, bool last, struct sort_print *st) \
{												\
	char buf[64];										\
												\
	(void)st;										\
	if (padded)										\
		out_printf(out, "%-*s", w, fn(e->data_src, buf, sizeof(buf)));			\
	else											\
		print_cut(out, fn(e->data_src, buf, sizeof(buf)), w, last);			\
}												\
static void name##_json(struct out *out, const struct sort_row *e, bool diff)			\
{												\
	char buf[64];										\
												\
	(void)diff;										\
	out_str(out, ", \"" field "\": ");							\
	out_json_str(out, fn(e->data_src, buf, sizeof(buf)));					\
}

/* perf's "%.*s" cell: cut to the width, then padded to it but in the last column */
static void print_cut(struct out *out, const char *s, int width, bool last)
{
	int n = (int)strlen(s);

	if (width >= 0 && n > width)
		n = width;
	out_printf(out, "%.*s", n, s);
	if (!last && n < width)
		out_printf(out, "%*s", width - n, "");
}

SRC_KEY(mem, 5, 14, memsrc_lvl, MEMSRC_LVL_WIDTH, true, "mem")
SRC_KEY(tlb, 26, 7, memsrc_tlb, MEMSRC_TLB_WIDTH, true, "tlb")
SRC_KEY(snoop, 19, 5, memsrc_snoop, MEMSRC_SNOOP_WIDTH, true, "snoop")
SRC_KEY(locked, 24, 2, memsrc_lock, MEMSRC_LOCK_WIDTH, false, "locked")
SRC_KEY(blocked, 40, 3, memsrc_blk, MEMSRC_BLK_WIDTH, false, "blocked")

/* perf's width of an address column (BITS_PER_LONG / 4 + 4 + 2) */
static size_t addr_col_width(const struct sort_row *e)
{
	(void)e;
	return 16 + 4 + 2;
}

/* ---- phys_daddr: the data's physical address, after the sample's level ---- */

static int64_t phys_daddr_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return (int64_t)(r->phys_addr - l->phys_addr);
}

static int phys_daddr_sort(const struct sort_row *a, const struct sort_row *b)
{
	return by_cmp(phys_daddr_cmp(a, b));
}

static bool phys_daddr_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->phys_addr == b->phys_addr;
}

static uint64_t phys_daddr_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, e->phys_addr);
}

static void phys_daddr_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	char buf[64];

	(void)last, (void)st;
	snprintf(buf, sizeof(buf), "[%c] %#.16" PRIx64, e->level, e->phys_addr);	/* perf: 0 without 0x */
	out_printf(out, "%-*.*s", width, width, buf);	/* perf pads it, last or not, and cuts it */
}

static void phys_daddr_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_printf(out, ", \"phys-daddr\": %" PRIu64, e->phys_addr);
}

/* ---- data_page_size: the data's page size, as code_page_size names one ---- */

static int64_t data_page_size_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return (int64_t)(r->data_page_size - l->data_page_size);
}

static int data_page_size_sort(const struct sort_row *a, const struct sort_row *b)
{
	return by_cmp(data_page_size_cmp(a, b));
}

static bool data_page_size_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->data_page_size == b->data_page_size;
}

static uint64_t data_page_size_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, e->data_page_size);
}

static void data_page_size_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	char buf[32];

	(void)last, (void)st;
	out_printf(out, "%-*s", width, page_size_name(e->data_page_size, buf, sizeof(buf)));
}

static void data_page_size_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_printf(out, ", \"data-page-size\": %" PRIu64, e->data_page_size);
}

/* ---- symbol_iaddr: the sample's address, told apart one by one, shown by its symbol ---- */

static int64_t iaddr_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return (int64_t)(r->ip - l->ip);
}

static int iaddr_sort(const struct sort_row *a, const struct sort_row *b)
{
	return by_cmp(iaddr_cmp(a, b));
}

/* perf's width of a memory key's symbol: its name, the brackets and an address's digits */
static size_t mem_sym_width(const char *sym, size_t len)
{
	return sym ? len + 4 + 16 + 2 : 16 + 4 + 2;
}

static size_t iaddr_width(const struct sort_row *e)
{
	size_t len = 0;

	if (e->sym)
		len = e->sym_len ? e->sym_len : strlen(e->sym) - (e->inlined ? sizeof(" (inlined)") - 1 : 0);
	return mem_sym_width(e->sym, len);
}

static void iaddr_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	char buf[4096];

	(void)st;
	if (e->sym && e->object)
		snprintf(buf, sizeof(buf), "[%c] %s+0x%" PRIx64, e->level, e->sym,
			 (e->module_addr ? e->module_addr : e->addr) - e->sym_start);
	else if (e->sym)
		snprintf(buf, sizeof(buf), "[%c] %s", e->level, e->sym);
	else
		snprintf(buf, sizeof(buf), "[%c] %#.16" PRIx64, e->level, e->ip);
	print_aligned(out, buf, width, last);
}

static void iaddr_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_printf(out, ", \"iaddr\": %" PRIu64 ", \"iaddr-symbol\": ", e->ip);
	if (e->sym)
		out_json_str(out, e->sym);
	else
		out_str(out, "null");
}

/*
 * ---- symbol_daddr, dso_daddr, dcacheline: where the data address lies
 * (hist.c resolves it as perf does) ----
 */

static int64_t daddr_cmp(const struct sort_row *l, const struct sort_row *r)
{
	return (int64_t)(r->d.addr - l->d.addr);
}

static int daddr_sort(const struct sort_row *a, const struct sort_row *b)
{
	return by_cmp(daddr_cmp(a, b));
}

static bool daddr_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->d.addr == b->d.addr;
}

static uint64_t daddr_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, e->d.addr);
}

static size_t daddr_width(const struct sort_row *e)
{
	return mem_sym_width(e->d.sym, e->d.sym_len);
}

/* perf's cell of a data address shown at addr (an object's offset from its start mapped out) */
static void daddr_cell(char *buf, size_t len, const struct sort_row *e, uint64_t addr, char level)
{
	if (e->d.sym && e->d.object)
		snprintf(buf, len, "[%c] %s+0x%" PRIx64, level, e->d.sym, addr - (e->d.sym_start + e->d.unmap));
	else if (e->d.sym)
		snprintf(buf, len, "[%c] %s", level, e->d.sym);
	else
		snprintf(buf, len, "[%c] %#.16" PRIx64, level, addr);	/* perf: 0 without 0x */
}

static void daddr_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	char buf[4096];

	(void)st;
	daddr_cell(buf, sizeof(buf), e, e->d.addr, e->level);
	print_aligned(out, buf, width, last);
}

static void daddr_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_printf(out, ", \"daddr\": %" PRIu64 ", \"daddr-symbol\": ", e->d.addr);
	if (e->d.sym)
		out_json_str(out, e->d.sym);
	else
		out_str(out, "null");
}

/* dso_daddr: perf compares the names left against right, no map last */
static int64_t dso_daddr_cmp(const struct sort_row *l, const struct sort_row *r)
{
	if (!l->d.dso || !r->d.dso)
		return cmp_null(r->d.dso, l->d.dso);
	return l->d.dso == r->d.dso ? 0 : strcmp(l->d.dso, r->d.dso);
}

static int dso_daddr_sort(const struct sort_row *a, const struct sort_row *b)
{
	return by_cmp(dso_daddr_cmp(a, b));
}

static bool dso_daddr_eq(const struct sort_row *a, const struct sort_row *b)
{
	return a->d.dso == b->d.dso;	/* interned */
}

static uint64_t dso_daddr_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(h, (uintptr_t)e->d.dso);
}

/* perf widens the column to an address's digits for an unresolved one */
static size_t dso_daddr_width(const struct sort_row *e)
{
	return e->d.dso ? strlen(e->d.dso) : 16;
}

static void dso_daddr_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	(void)last, (void)st;
	print_str(out, e->d.dso ? e->d.dso : "[unknown]", width);
}

static void dso_daddr_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_str(out, ", \"dso-daddr\": ");
	out_json_str(out, e->d.dso ? e->d.dso : "[unknown]");
}

/* dcacheline: perf's cache line, 64 bytes (the line size of the machine that reads) */
static uint64_t cl_of(uint64_t a)
{
	return a & ~(uint64_t)63;
}

/* An anonymous user map: perf tells its lines apart by process too. */
static bool cl_anon(const struct sort_row *e)
{
	return e->d.cpumode != PERF_RECORD_MISC_KERNEL && !e->d.shared && !e->d.ino;
}

static int64_t dcacheline_cmp(const struct sort_row *l, const struct sort_row *r)
{
	uint64_t a = cl_of(l->d.al_addr), b = cl_of(r->d.al_addr);

	if (l->d.cpumode != r->d.cpumode)
		return l->d.cpumode > r->d.cpumode ? -1 : 1;
	if (l->d.mapped || r->d.mapped) {
		if (!l->d.mapped || !r->d.mapped)
			return l->d.mapped ? 1 : -1;
		if (l->d.ino != r->d.ino)
			return l->d.ino > r->d.ino ? -1 : 1;
		if (cl_anon(l) && l->pid != r->pid)
			return l->pid > r->pid ? -1 : 1;
	}
	return a > b ? -1 : a < b;
}

static int dcacheline_sort(const struct sort_row *a, const struct sort_row *b)
{
	return by_cmp(dcacheline_cmp(a, b));
}

static bool dcacheline_eq(const struct sort_row *a, const struct sort_row *b)
{
	return !dcacheline_cmp(a, b);
}

static uint64_t dcacheline_hash(uint64_t h, const struct sort_row *e)
{
	return hash_mix(hash_mix(h, cl_of(e->d.al_addr)), e->d.ino);
}

static size_t dcacheline_width(const struct sort_row *e)
{
	return e->d.sym ? daddr_width(e) + 1 : daddr_width(e);
}

static void dcacheline_print(struct out *out, const struct sort_row *e, int width, bool last, struct sort_print *st)
{
	char buf[4096], level = e->level;

	(void)st;
	/* perf's [s]: a shared file map's data; [X]: no map */
	if (e->d.cpumode != PERF_RECORD_MISC_KERNEL && e->d.mapped && !e->d.exec && e->d.shared && e->d.ino)
		level = 's';
	else if (!e->d.mapped)
		level = 'X';
	daddr_cell(buf, sizeof(buf), e, cl_of(e->d.al_addr), level);
	print_aligned(out, buf, width, last);
}

static void dcacheline_json(struct out *out, const struct sort_row *e, bool diff)
{
	(void)diff;
	out_printf(out, ", \"dcacheline\": %" PRIu64, cl_of(e->d.al_addr));
}

/* ---- the table ---- */

const struct sort_key sort_keys[REPORT_NR_KEYS] = {
	[REPORT_KEY_COMM] = {
		.name = "comm", .header = "Command", .views = SORT_HIST | SORT_BRANCH, .collapses = true,
		.cmp = comm_cmp, .collapse = comm_sort, .sort = comm_sort, .eq = comm_eq, .hash = comm_hash,
		.match = comm_match, .match_hash = comm_match_hash,
		.width = comm_width, .print = comm_print, .json = comm_json, .filter = comm_filter,
	},
	[REPORT_KEY_PID] = {
		.name = "pid", .header = "    Pid:Command", .views = SORT_HIST | SORT_BRANCH,
		.cmp = pid_cmp, .collapse = pid_sort, .sort = pid_sort, .eq = pid_eq, .hash = pid_hash,
		.width = pid_width, .print = pid_print, .json = pid_json,
	},
	[REPORT_KEY_DSO] = {
		.name = "dso", .header = "Shared Object", .views = SORT_HIST,
		.cmp = dso_cmp, .collapse = dso_sort, .sort = dso_sort, .eq = dso_eq, .hash = dso_hash,
		.match = dso_match, .match_hash = dso_match_hash,
		.width = dso_width, .print = dso_print, .json = dso_json, .filter = dso_filter,
	},
	[REPORT_KEY_SYM] = {
		.name = "symbol", .header = "Symbol", .views = SORT_HIST,
		.cmp = sym_cmp, .collapse = sym_collapse, .sort = sym_sort, .eq = sym_eq, .hash = sym_hash,
		.eq_cmp = sym_eq_cmp, .hash_cmp = sym_hash_cmp, .match = sym_match, .match_hash = sym_match_hash,
		.width = sym_width, .print = sym_print, .json = sym_json, .filter = sym_filter,
	},
	[REPORT_KEY_CPU] = {
		.name = "cpu", .header = "CPU", .views = SORT_HIST,
		.cmp = cpu_cmp, .collapse = cpu_sort, .sort = cpu_sort, .eq = cpu_eq, .hash = cpu_hash,
		.width = no_width, .print = cpu_print, .json = cpu_json,
	},
	[REPORT_KEY_SOCKET] = {
		.name = "socket", .header = "Socket", .views = SORT_HIST,
		.cmp = socket_cmp, .collapse = socket_sort, .sort = socket_sort, .eq = socket_eq, .hash = socket_hash,
		.width = no_width, .print = socket_print, .json = socket_json,
	},
	[REPORT_KEY_SYM_SIZE] = {
		.name = "symbol_size", .header = "Symbol size", .views = SORT_HIST,
		.cmp = sym_size_cmp, .collapse = sym_size_sort, .sort = sym_size_sort,
		.eq = sym_size_eq, .hash = sym_size_hash,
		.width = no_width, .print = sym_size_print, .json = sym_size_json,
	},
	[REPORT_KEY_SRCLINE] = {
		.name = "srcline", .header = "Source:Line", .views = SORT_HIST,
		.cmp = srcline_cmp, .collapse = srcline_sort, .sort = srcline_sort, .eq = srcline_eq, .hash = srcline_hash,
		.match = srcline_match, .match_hash = srcline_hash,
		.width = srcline_width, .print = srcline_print, .json = srcline_json,
	},
	[REPORT_KEY_SRCFILE] = {
		.name = "srcfile", .header = "Source File", .views = SORT_HIST,
		.cmp = srcfile_cmp, .collapse = srcfile_sort, .sort = srcfile_sort, .eq = srcfile_eq, .hash = srcfile_hash,
		.match = srcfile_match, .match_hash = srcfile_hash,
		.width = srcfile_width, .print = srcfile_print, .json = srcfile_json,
	},
	[REPORT_KEY_DSO_SIZE] = {
		.name = "dso_size", .header = "DSO size", .views = SORT_HIST,
		.cmp = dso_size_cmp, .collapse = dso_size_sort, .sort = dso_size_sort,
		.eq = dso_size_eq, .hash = dso_size_hash,
		.width = no_width, .print = dso_size_print, .json = dso_size_json,
	},
	[REPORT_KEY_PARENT] = {
		.name = "parent", .header = "Parent symbol", .views = SORT_HIST,
		.cmp = parent_cmp, .collapse = parent_sort, .sort = parent_sort, .eq = parent_eq, .hash = parent_hash,
		.width = parent_width, .print = parent_print, .json = parent_json,
	},
	[REPORT_KEY_CGROUP] = {
		.name = "cgroup", .header = "Cgroup", .views = SORT_HIST,
		.cmp = cgroup_cmp, .collapse = cgroup_sort, .sort = cgroup_sort, .eq = cgroup_eq, .hash = cgroup_hash,
		.width = cgroup_width, .print = cgroup_print, .json = cgroup_json,
	},
	[REPORT_KEY_CGROUP_ID] = {
		.name = "cgroup_id", .header = "cgroup id (dev/inode)", .views = SORT_HIST,
		.cmp = cgroup_id_cmp, .collapse = cgroup_id_sort, .sort = cgroup_id_sort,
		.eq = cgroup_id_eq, .hash = cgroup_id_hash,
		.width = cgroup_id_width, .print = cgroup_id_print, .json = cgroup_id_json,
	},
	[REPORT_KEY_TRACE] = {
		.name = "trace", .header = "Trace output", .views = SORT_HIST | SORT_BRANCH,
		.cmp = trace_cmp, .collapse = trace_sort, .sort = trace_sort, .eq = trace_eq, .hash = trace_hash,
		.width = trace_width, .print = trace_print, .json = trace_json,
	},
	[REPORT_KEY_TIME] = {
		.name = "time", .header = "Time", .views = SORT_HIST | SORT_BRANCH,
		.cmp = time_cmp, .collapse = time_sort, .sort = time_sort, .eq = time_eq, .hash = time_hash,
		.width = time_width, .print = time_print, .json = time_json,
	},
	[REPORT_KEY_ADDR] = {
		.name = "addr", .header = "Address", .views = SORT_HIST | SORT_BRANCH,
		.cmp = addr_cmp, .collapse = addr_sort, .sort = addr_sort, .eq = addr_eq, .hash = addr_hash,
		.width = addr_width, .print = addr_print, .json = addr_json,
	},
	[REPORT_KEY_LOCAL_WEIGHT] = {
		.name = "local_weight", .header = "Local Weight", .views = SORT_HIST,
		.cmp = weight_cmp, .collapse = weight_sort, .sort = weight_sort, .eq = weight_eq, .hash = weight_hash,
		.width = weight_width, .print = local_weight_print, .json = local_weight_json,
	},
	[REPORT_KEY_WEIGHT] = {
		.name = "weight", .header = "Weight", .views = SORT_HIST,
		.cmp = weight_cmp, .collapse = weight_sort, .sort = weight_sort, .eq = weight_eq, .hash = weight_hash,
		.width = weight_width, .print = weight_print, .json = weight_json,
	},
	[REPORT_KEY_TRANSACTION] = {
		.name = "transaction", .header = "Transaction                ", .views = SORT_HIST,
		.cmp = transaction_cmp, .collapse = transaction_sort, .sort = transaction_sort,
		.eq = transaction_eq, .hash = transaction_hash,
		.width = transaction_width, .print = transaction_print, .json = transaction_json,
	},
	[REPORT_KEY_CODE_PAGE_SIZE] = {
		.name = "code_page_size", .header = "Code Page Size", .views = SORT_HIST,
		.cmp = code_page_size_cmp, .collapse = code_page_size_sort, .sort = code_page_size_sort,
		.eq = code_page_size_eq, .hash = code_page_size_hash,
		.width = no_width, .print = code_page_size_print, .json = code_page_size_json,
	},
	[REPORT_KEY_LOCAL_INS_LAT] = {
		.name = "local_ins_lat", .header = "Local INSTR Latency", .views = SORT_HIST,
		.cmp = ins_lat_cmp, .collapse = ins_lat_sort, .sort = ins_lat_sort, .eq = ins_lat_eq, .hash = ins_lat_hash,
		.width = lat_width, .print = local_ins_lat_print, .json = local_ins_lat_json,
	},
	[REPORT_KEY_INS_LAT] = {
		.name = "ins_lat", .header = "INSTR Latency", .views = SORT_HIST,
		.cmp = ins_lat_cmp, .collapse = ins_lat_sort, .sort = ins_lat_sort, .eq = ins_lat_eq, .hash = ins_lat_hash,
		.width = lat_width, .print = ins_lat_print, .json = ins_lat_json,
	},
	[REPORT_KEY_LOCAL_P_STAGE_CYC] = {
		.name = "local_p_stage_cyc", .header = "Local Pipeline Stage Cycle", .views = SORT_HIST,
		.cmp = zero_cmp, .collapse = zero_sort, .sort = zero_sort, .eq = zero_eq, .hash = zero_hash,
		.width = lat_width, .print = zero_print, .json = local_p_stage_cyc_json,
	},
	[REPORT_KEY_P_STAGE_CYC] = {
		.name = "p_stage_cyc", .header = "Pipeline Stage Cycle", .views = SORT_HIST,
		.cmp = zero_cmp, .collapse = zero_sort, .sort = zero_sort, .eq = zero_eq, .hash = zero_hash,
		.width = lat_width, .print = zero_print, .json = p_stage_cyc_json,
	},
	[REPORT_KEY_IPC_NULL] = {	/* hidden: in no view's --sort, hist.c appends it */
		.name = "ipc_null", .header = "IPC   [IPC Coverage]",
		.cmp = sym_cmp, .collapse = ipc_null_sort, .sort = ipc_null_sort, .eq = sym_eq, .hash = sym_hash,
		.eq_cmp = sym_eq_cmp, .hash_cmp = sym_hash_cmp, .width = no_width, .print = ipc_null_print,
	},
	[REPORT_KEY_DSO_FROM] = {
		.name = "dso_from", .header = "Source Shared Object", .views = SORT_BRANCH,
		.cmp = dso_from_cmp, .width = dso_from_width, .print = dso_from_print,
	},
	[REPORT_KEY_DSO_TO] = {
		.name = "dso_to", .header = "Target Shared Object", .views = SORT_BRANCH,
		.cmp = dso_to_cmp, .width = dso_to_width, .print = dso_to_print,
	},
	[REPORT_KEY_SYM_FROM] = {
		.name = "symbol_from", .header = "Source Symbol", .views = SORT_BRANCH,
		.cmp = sym_from_cmp, .width = sym_from_width, .print = sym_from_print,
	},
	[REPORT_KEY_SYM_TO] = {
		.name = "symbol_to", .header = "Target Symbol", .views = SORT_BRANCH,
		.cmp = sym_to_cmp, .width = sym_to_width, .print = sym_to_print,
	},
	[REPORT_KEY_MISPREDICT] = {
		.name = "mispredict", .header = "Branch Mispredicted", .views = SORT_BRANCH,
		.cmp = mispredict_cmp, .width = no_width, .print = mispredict_print,
	},
	[REPORT_KEY_IN_TX] = {
		.name = "in_tx", .header = "Branch in transaction", .views = SORT_BRANCH,
		.cmp = in_tx_cmp, .width = no_width, .print = in_tx_print,
	},
	[REPORT_KEY_ABORT] = {
		.name = "abort", .header = "Transaction abort", .views = SORT_BRANCH,
		.cmp = abort_cmp, .width = no_width, .print = abort_print,
	},
	[REPORT_KEY_CYCLES] = {
		.name = "cycles", .header = "Basic Block Cycles", .views = SORT_BRANCH,
		.cmp = cycles_cmp, .width = no_width, .print = cycles_print,
	},
	[REPORT_KEY_SRCLINE_FROM] = {
		.name = "srcline_from", .header = "From Source:Line", .views = SORT_BRANCH,
		.cmp = srcline_from_cmp, .width = srcline_from_width, .print = srcline_from_print,
	},
	[REPORT_KEY_SRCLINE_TO] = {
		.name = "srcline_to", .header = "To Source:Line", .views = SORT_BRANCH,
		.cmp = srcline_to_cmp, .width = srcline_to_width, .print = srcline_to_print,
	},
	[REPORT_KEY_ADDR_FROM] = {
		.name = "addr_from", .header = "Source Address", .views = SORT_BRANCH,
		.cmp = addr_from_cmp, .width = addr_from_width, .print = addr_from_print,
	},
	[REPORT_KEY_ADDR_TO] = {
		.name = "addr_to", .header = "Target Address", .views = SORT_BRANCH,
		.cmp = addr_to_cmp, .width = addr_to_width, .print = addr_to_print,
	},
	[REPORT_KEY_SYM_DADDR] = {
		.name = "symbol_daddr", .header = "Data Symbol", .views = SORT_MEM,
		.cmp = daddr_cmp, .collapse = daddr_sort, .sort = daddr_sort, .eq = daddr_eq, .hash = daddr_hash,
		.width = daddr_width, .print = daddr_print, .json = daddr_json,
	},
	[REPORT_KEY_SYM_IADDR] = {
		.name = "symbol_iaddr", .header = "Code Symbol", .views = SORT_MEM,
		.cmp = iaddr_cmp, .collapse = iaddr_sort, .sort = iaddr_sort, .eq = addr_eq, .hash = addr_hash,
		.width = iaddr_width, .print = iaddr_print, .json = iaddr_json,
	},
	[REPORT_KEY_DSO_DADDR] = {
		.name = "dso_daddr", .header = "Data Object", .views = SORT_MEM,
		.cmp = dso_daddr_cmp, .collapse = dso_daddr_sort, .sort = dso_daddr_sort,
		.eq = dso_daddr_eq, .hash = dso_daddr_hash,
		.width = dso_daddr_width, .print = dso_daddr_print, .json = dso_daddr_json,
	},
	[REPORT_KEY_LOCKED] = {
		.name = "locked", .header = "Locked", .views = SORT_MEM,
		.cmp = locked_cmp, .collapse = locked_sort, .sort = locked_sort, .eq = locked_eq, .hash = locked_hash,
		.width = locked_width, .print = locked_print, .json = locked_json,
	},
	[REPORT_KEY_TLB] = {
		.name = "tlb", .header = "TLB access", .views = SORT_MEM,
		.cmp = tlb_cmp, .collapse = tlb_sort, .sort = tlb_sort, .eq = tlb_eq, .hash = tlb_hash,
		.width = tlb_width, .print = tlb_print, .json = tlb_json,
	},
	[REPORT_KEY_MEM] = {
		.name = "mem", .header = "Memory access", .views = SORT_MEM,
		.cmp = mem_cmp, .collapse = mem_sort, .sort = mem_sort, .eq = mem_eq, .hash = mem_hash,
		.width = mem_width, .print = mem_print, .json = mem_json,
	},
	[REPORT_KEY_SNOOP] = {
		.name = "snoop", .header = "Snoop", .views = SORT_MEM,
		.cmp = snoop_cmp, .collapse = snoop_sort, .sort = snoop_sort, .eq = snoop_eq, .hash = snoop_hash,
		.width = snoop_width, .print = snoop_print, .json = snoop_json,
	},
	[REPORT_KEY_DCACHELINE] = {
		.name = "dcacheline", .header = "Data Cacheline", .views = SORT_MEM,
		.cmp = dcacheline_cmp, .collapse = dcacheline_sort, .sort = dcacheline_sort,
		.eq = dcacheline_eq, .hash = dcacheline_hash,
		.width = dcacheline_width, .print = dcacheline_print, .json = dcacheline_json,
	},
	[REPORT_KEY_PHYS_DADDR] = {
		.name = "phys_daddr", .header = "Data Physical Address", .views = SORT_MEM,
		.cmp = phys_daddr_cmp, .collapse = phys_daddr_sort, .sort = phys_daddr_sort,
		.eq = phys_daddr_eq, .hash = phys_daddr_hash,
		.width = addr_col_width, .print = phys_daddr_print, .json = phys_daddr_json,
	},
	[REPORT_KEY_DATA_PAGE_SIZE] = {
		.name = "data_page_size", .header = "Data Page Size", .views = SORT_MEM,
		.cmp = data_page_size_cmp, .collapse = data_page_size_sort, .sort = data_page_size_sort,
		.eq = data_page_size_eq, .hash = data_page_size_hash,
		.width = addr_col_width, .print = data_page_size_print, .json = data_page_size_json,
	},
	[REPORT_KEY_BLOCKED] = {
		.name = "blocked", .header = "Blocked", .views = SORT_MEM,
		.cmp = blocked_cmp, .collapse = blocked_sort, .sort = blocked_sort, .eq = blocked_eq, .hash = blocked_hash,
		.width = blocked_width, .print = blocked_print, .json = blocked_json,
	},
};

const char *sort_key_single_value(enum report_key k, const struct report_hist_opts *o)
{
	const char *list = sort_keys[k].filter ? sort_keys[k].filter(o) : NULL;

	return list && !strchr(list, ',') ? list : NULL;
}

void sort_row_of_entry(const struct report_entry *e, struct sort_row *r)
{
	*r = (struct sort_row){
		.comm = e->comm, .last_comm = e->thread_comm, .comm_width = strlen(e->thread_comm),
		.tid = e->tid, .cpu = e->cpu, .socket = e->socket, .dso = e->dso, .sym = e->sym, .sym_start = e->sym_start, .sym_end = e->sym_end,
		.addr = e->addr, .module_addr = e->object_off + e->sym_start, .level = e->level,
		.inlined = e->inlined, .object = e->object,
	};
}

/* ---- names, for cmd/ ---- */

static bool in_view(const struct sort_key *k, enum report_sort_view view)
{
	return k->views & (view == REPORT_SORT_BRANCH ? SORT_BRANCH : view == REPORT_SORT_MEM ? SORT_MEM : SORT_HIST);
}

/* The first key of view p begins (perf's strncasecmp of the token), or -1. */
static int find_prefix(const char *p, size_t len, enum report_sort_view view)
{
	for (int k = 0; len && k < REPORT_NR_KEYS; k++)
		if (in_view(&sort_keys[k], view) && strlen(sort_keys[k].name) >= len &&
		    !strncasecmp(p, sort_keys[k].name, len))
			return k;
	return -1;
}

int report_sort_key_find(const char *p, size_t len, enum report_sort_view view)
{
	int usual = -1;

	/* perf's ipc_null comes before ins_lat: "i" is its, which --sort does not take (hist.c adds it) */
	if (len && len <= strlen(sort_keys[REPORT_KEY_IPC_NULL].name) &&
	    !strncasecmp(p, sort_keys[REPORT_KEY_IPC_NULL].name, len))
		return -1;
	usual = find_prefix(p, len, REPORT_SORT_USUAL);
	if (view == REPORT_SORT_USUAL)
		return usual;
	/* perf's memory keys come after the others (a prefix of both is the other's) */
	if (view == REPORT_SORT_MEM)
		return usual >= 0 ? usual : find_prefix(p, len, REPORT_SORT_MEM);
	for (int k = 0; len && k < REPORT_NR_KEYS; k++)
		if (in_view(&sort_keys[k], REPORT_SORT_BRANCH) && strlen(sort_keys[k].name) == len &&
		    !strncmp(p, sort_keys[k].name, len))
			return k;
	return usual >= 0 && in_view(&sort_keys[usual], REPORT_SORT_BRANCH) ? usual : -1;
}

const char *report_sort_key_name(enum report_key k)
{
	return sort_keys[k].name;
}

bool report_sort_key_mem(enum report_key k)
{
	return sort_keys[k].views == SORT_MEM;
}

void report_sort_key_list(char *buf, size_t len, enum report_sort_view view, int except)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int k = 0; k < REPORT_NR_KEYS && n < len; k++)
		if (in_view(&sort_keys[k], view) && (except < 0 || !in_view(&sort_keys[k], (enum report_sort_view)except)))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", sort_keys[k].name);
}
