// SPDX-License-Identifier: GPL-2.0-only
/*
 * One symbol's listing, in perf annotate 6.1's --stdio shape: the header
 * with the symbol's samples, then the lines perf reads from `objdump -l
 * -d [-S]` (numbered as perf numbers them), each instruction with its
 * share of the symbol's samples per event, its address and its text; the
 * code is disassembled here (disasm.c), the function and file:line lines
 * come from the DWARF (symcache__inlines, symcache__srcline_objdump).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "../host/host.h"
#include "../lib/alloc.h"
#include "../lib/json.h"
#include "../lib/log.h"
#include "../perfdata/perfdata.h"
#include "../resolve/symbols.h"
#include "disasm.h"
#include "internal.h"

/* perf annotates at most this much of one symbol */
#define MAX_CODE (64u << 20)
#define MIN_GREEN 0.5

struct row {			/* an instruction */
	struct dinsn in;
	uint64_t off;		/* from the symbol's start */
	char *path;		/* -l: its "file:line" (when it is over MIN_GREEN) */
};

struct lst {			/* one listing being printed */
	struct ann *A;
	struct asym *s;
	const struct view *w;
	uint64_t vstart;	/* the symbol's ELF address */
	int cell, width;	/* one event's column; all of them */
	int aw;			/* the address column */
	int line_nr;		/* perf's number of the next line */
	uint64_t *nr, *period;	/* per row and member */
	struct row *r;
	size_t n;
	struct symcache_scope *sc;	/* the functions the DWARF places over the code */
	size_t nsc;
	const char *fn;		/* the last function line, file and line printed */
	int line;		/* the last line objdump -l printed (-1: none since the function line) */
	unsigned disc;		/* and its discriminator */
	bool nofn;		/* objdump -l names no function: no DWARF, no .symtab */
	struct { char *path, *text; char **lines; size_t n; int last, max; } src[8];
	size_t nsrc;
};

static const char *percent_name(enum annotate_percent p)
{
	static const char *const n[] = { "local period", "global period", "local hits", "global hits" };

	return n[p];
}

static double percent(const struct lst *L, size_t k, size_t m)
{
	size_t ev = L->w->lead + m;
	const struct asym *s = L->s;
	uint64_t v, tot;

	switch (L->A->o->percent) {
	case ANNOTATE_LOCAL_PERIOD: v = L->period[k * L->w->n + m]; tot = s->period[ev]; break;
	case ANNOTATE_GLOBAL_PERIOD: v = L->period[k * L->w->n + m]; tot = L->A->tot_period[ev]; break;
	case ANNOTATE_LOCAL_HITS: v = L->nr[k * L->w->n + m]; tot = s->nr[ev]; break;
	default: v = L->nr[k * L->w->n + m]; tot = L->A->tot_nr[ev]; break;
	}
	return tot ? 100.0 * (double)v / (double)tot : 0.0;
}

/*
 * The name objdump labels the symbol's start by: the file's own
 * ("...@@GLIBC_2.2.5"), the one before it with the offset where the
 * file's symbols have none there (a local function of a stripped file
 * without -S's debug file: "mrand48_r@@GLIBC_2.2.5+0x20"), else perf's.
 */
static const char *label_of(const struct lst *L, char *buf, size_t cap)
{
	const char *n = L->s->kernel ? NULL :
			symcache__objdump_label(L->A->syms, L->s->dso, !L->A->o->no_source, L->vstart);
	size_t len;

	if (n || L->s->kernel ||
	    !symcache__objdump_name(L->A->syms, L->s->dso, !L->A->o->no_source, L->vstart, L->vstart, buf, cap) ||
	    buf[0] != '<' || (len = strlen(buf)) < 3 || buf[len - 1] != '>')
		return n ? n : L->s->name;
	buf[len - 1] = 0;
	return buf + 1;
}

/* A line that is not an instruction, numbered. */
static void text_line(struct lst *L, const char *s)
{
	if (!*s)
		fprintf(L->A->f, " %*s:\n", L->width, " ");
	else
		fprintf(L->A->f, " %*s: %-*d %s\n", L->width, " ", L->aw, L->line_nr, s);
	L->line_nr++;
}

/* A source file's lines, read once per listing; NULL when it cannot be read. */
static int src_of(struct lst *L, const char *path)
{
	size_t i, cap = 0;
	FILE *f;
	char *t = NULL;
	size_t len = 0;

	for (i = 0; i < L->nsrc; i++)
		if (!strcmp(L->src[i].path, path))
			return L->src[i].lines ? (int)i : -1;
	if (L->nsrc == sizeof(L->src) / sizeof(L->src[0]))
		return -1;
	i = L->nsrc++;
	memset(&L->src[i], 0, sizeof(L->src[i]));
	if (!(L->src[i].path = strdup(path)) || !(f = fopen(path, "r")))
		return -1;
	if (getdelim(&t, &len, 0, f) < 0) {
		fclose(f);
		free(t);
		return -1;
	}
	fclose(f);
	L->src[i].text = t;
	for (char *p = t; p && *p; ) {
		char *nl = strchr(p, '\n');

		if (ALLOC_GROW(L->src[i].lines, L->src[i].n + 1, cap))
			break;
		L->src[i].lines[L->src[i].n++] = p;
		if (nl)
			*nl = 0;
		p = nl ? nl + 1 : NULL;
	}
	return L->src[i].lines ? (int)i : -1;
}

/* A source line as perf reads objdump's: trimmed, its tabs expanded to 8 columns. */
static void source_line(struct lst *L, const char *raw)
{
	char buf[4096];
	size_t len = 0, n;

	while (isspace((unsigned char)*raw))
		raw++;
	for (n = strlen(raw); n && isspace((unsigned char)raw[n - 1]); n--)
		;
	for (size_t k = 0; k < n && len + 9 < sizeof(buf); k++) {
		if (raw[k] != '\t') {
			buf[len++] = raw[k];
			continue;
		}
		do
			buf[len++] = ' ';
		while (len % 8);
	}
	buf[len] = 0;
	text_line(L, buf);
}

/*
 * The source text objdump -S prints at a new line of a file: the line and
 * the five before it, but none it printed already (from the highest
 * printed on, or the line alone when that is past it).
 */
static void source_text(struct lst *L, const char *file, int line)
{
	int i = src_of(L, file);
	int from;

	if (i < 0 || line <= 0 || line == L->src[i].last)
		return;
	from = line > 5 ? line - 5 : 1;
	if (L->src[i].max >= from)
		from = L->src[i].max < line ? L->src[i].max + 1 : line;
	for (int l = from; l <= line && (size_t)l <= L->src[i].n; l++)
		source_line(L, L->src[i].lines[l - 1]);
	if (L->src[i].max < line)
		L->src[i].max = line;
	L->src[i].last = line;
}

/*
 * The line the DWARF places at off from the symbol's start, 0 when none:
 * a kernel symbol has none (its image's DWARF is not read).
 */
static int srcline(const struct lst *L, uint64_t off, const char **file)
{
	*file = NULL;
	return L->s->kernel ? 0 : symcache__srcline(L->A->syms, L->s->dso, L->s->start + off, file);
}

/*
 * objdump -l's "file:line" (" (discriminator N)"), as perf 6.1 reads it:
 * an absolute one (its /[^:]+:[0-9]+) is not shown but numbers the lines
 * after it by its line; any other is a line of text.
 */
static void file_line(struct lst *L, const char *file, int line, unsigned disc)
{
	char buf[4200];
	const char *colon;

	if (disc)
		snprintf(buf, sizeof(buf), "%s:%d (discriminator %u)", file, line, disc);
	else
		snprintf(buf, sizeof(buf), "%s:%d", file, line);
	colon = strchr(buf, ':');
	if (buf[0] == '/' && colon > buf + 1 && isdigit((unsigned char)colon[1]))
		L->line_nr = atoi(colon + 1);
	else
		text_line(L, buf);
}

/*
 * A PLT entry's symbol (name@plt): made up from the relocations, in no
 * symbol table, so that objdump -l names no function over its code.
 */
static bool plt_entry(const struct asym *s)
{
	size_t n = strlen(s->name);

	return n > 4 && !strcmp(s->name + n - 4, "@plt");
}

/* The functions the DWARF places over the symbol (none for a kernel symbol). */
static void scopes(struct lst *L)
{
	const char *file;

	if (L->s->kernel)
		return;
	/* the line table first: the scopes then share its DWARF */
	srcline(L, 0, &file);
	L->nsc = symcache__scopes(L->A->syms, L->s->dso, L->s->start, &L->sc);
	L->nofn = !L->nsc && (!symcache__objdump_symtab(L->A->syms, L->s->dso, !L->A->o->no_source) || plt_entry(L->s));
}

/* The innermost function the DWARF places at vaddr (the symbol's name when none). */
static const char *function_at(const struct lst *L, uint64_t vaddr)
{
	const struct symcache_scope *best = NULL;

	for (size_t i = 0; i < L->nsc; i++)
		if (vaddr >= L->sc[i].lo && vaddr < L->sc[i].hi && (!best || L->sc[i].depth > best->depth))
			best = &L->sc[i];
	return best ? best->name : L->s->name;
}

/*
 * objdump -l -C's line naming fn, the innermost function at vaddr: its
 * scope's ("unsigned long f<4>(unsigned long const*, int):", "main():"),
 * or fn's when the DWARF has none there.
 */
static void function_line(const struct lst *L, uint64_t vaddr, const char *fn, char *buf, size_t cap)
{
	const struct symcache_scope *best = NULL;

	for (size_t i = 0; i < L->nsc; i++)
		if (vaddr >= L->sc[i].lo && vaddr < L->sc[i].hi && (!best || L->sc[i].depth > best->depth))
			best = &L->sc[i];
	if (best && best->line)
		snprintf(buf, cap, "%s:", best->line);
	else
		snprintf(buf, cap, "%s():", fn);
}

/*
 * The lines objdump -l (-S) prints before the instruction at off: a new
 * function, then a new line (or discriminator) of the line table, the
 * source text of a new line of its file.
 */
static void context_lines(struct lst *L, uint64_t off)
{
	const char *fn = function_at(L, L->vstart + off);
	char file[4096], buf[4096];
	unsigned disc = 0;
	int line = L->s->kernel ? 0 :
		   symcache__srcline_objdump(L->A->syms, L->s->dso, L->s->start + off, file, sizeof(file), &disc);

	if (!L->nofn && (!L->fn || strcmp(L->fn, fn))) {
		function_line(L, L->vstart + off, fn, buf, sizeof(buf));
		text_line(L, buf);
		L->fn = fn;
		L->line = -1;
	}
	if (line <= 0)
		return;
	if (line != L->line || disc != L->disc)
		file_line(L, file, line, disc);
	if (!L->A->o->no_source)
		source_text(L, file, line);
	L->line = line;
	L->disc = disc;
}

/*
 * The symbol objdump names address to (an ELF address) by, *off then
 * to's in the symbol's space; NULL: none.  In a kernel image, the kernel
 * symbol covering it.
 */
static const struct sym *target_sym(struct lst *L, uint64_t to, uint64_t *off)
{
	struct ann *A = L->A;

	if (L->s->kernel) {
		*off = to + (L->s->start - L->vstart);
		return symcache__find_kernel(A->syms, L->s->dso, *off, NULL);
	}
	return symcache__offset(A->syms, L->s->dso, to, off) ? symcache__nearest(A->syms, L->s->dso, *off) : NULL;
}

/*
 * objdump's " <sym+0xoff>" after address to (an ELF address) of a user
 * DSO, named by the DSO's own symbols as objdump names it; false: not
 * one (a kernel symbol's) or the file has no symbols.
 */
static bool objdump_name(struct lst *L, uint64_t to, char *buf, size_t cap)
{
	buf[0] = ' ';
	if (L->s->kernel ||
	    !symcache__objdump_name(L->A->syms, L->s->dso, !L->A->o->no_source, L->vstart, to, buf + 1, cap - 1)) {
		buf[0] = 0;
		return false;
	}
	return true;
}

/* objdump's text of an instruction: mnemonic, operands, a target's symbol. */
static void insn_asm(struct lst *L, const struct dinsn *in, char *buf, size_t cap)
{
	size_t len = 0;

	if (!in->ops[0] && !in->target) {
		snprintf(buf, cap, "%s", in->mnem);
		return;
	}
	len += (size_t)snprintf(buf, cap, "%-6s ", in->mnem);
	if (in->target || in->rip) {
		uint64_t to = in->target ? in->to : in->at, off;
		char name[1024] = "";
		const struct sym *sym = objdump_name(L, to, name, sizeof(name)) ? NULL : target_sym(L, to, &off);

		if (sym && off > sym->start)
			snprintf(name, sizeof(name), " <%s+0x%" PRIx64 ">", sym->name, off - sym->start);
		else if (sym)
			snprintf(name, sizeof(name), " <%s>", sym->name);
		if (in->target)
			snprintf(buf + len, cap - len, "%" PRIx64 "%s", to, name);
		else
			snprintf(buf + len, cap - len, "%s        # %" PRIx64 "%s", in->ops, to, name);
		return;
	}
	snprintf(buf + len, cap - len, "%s", in->ops);
}

/* The text after "addr:", spaced as objdump's: bytes (--asm-raw), then insn_asm's. */
static void insn_text(struct lst *L, const struct row *r, char *buf, size_t cap)
{
	const struct dinsn *in = &r->in;
	size_t len = 0;
	int col = snprintf(NULL, 0, "%" PRIx64 ":", L->vstart + r->off);

	len += (size_t)snprintf(buf, cap, "%*s", 8 - col % 8, "");
	if (L->A->o->asm_raw) {
		size_t b0 = len;

		for (unsigned k = 0; k < in->size && k < 7; k++)
			len += (size_t)snprintf(buf + len, cap - len, "%02x ", in->bytes[k]);
		len += (size_t)snprintf(buf + len, cap - len, "%*s", (int)(21 - (len - b0)), "");
		col += (int)(len);
		len += (size_t)snprintf(buf + len, cap - len, "%*s", 8 - col % 8, "");
	}
	insn_asm(L, in, buf + len, cap - len);
}

static void insn_line(struct lst *L, size_t k)
{
	struct ann *A = L->A;
	char buf[2048];

	for (size_t m = 0; m < L->w->n; m++) {
		if (A->o->show_total_period)
			fprintf(A->f, " %11" PRIu64, L->period[k * L->w->n + m]);
		else if (A->o->show_nr_samples)
			fprintf(A->f, " %7" PRIu64, L->nr[k * L->w->n + m]);
		else
			fprintf(A->f, " %7.2f", percent(L, k, m));
	}
	insn_text(L, &L->r[k], buf, sizeof(buf));
	fprintf(A->f, " :   %*" PRIx64 ":%s", L->aw, L->vstart + L->r[k].off, buf);
	if (L->r[k].path && (!A->prev_path || strcmp(A->prev_path, L->r[k].path))) {
		fprintf(A->f, " // %s", L->r[k].path);
		free(A->prev_buf);
		A->prev_path = A->prev_buf = strdup(L->r[k].path);
	}
	fputc('\n', A->f);
	L->line_nr++;
}

/*
 * --asm-raw: objdump's lines of an instruction's bytes past its first seven,
 * seven a line, each at its address with no samples (perf reads them as
 * instructions).
 */
static void raw_rest(struct lst *L, size_t k)
{
	const struct dinsn *in = &L->r[k].in;
	FILE *f = L->A->f;

	for (unsigned from = 7; from < in->size && from < sizeof(in->bytes); from += 7) {
		uint64_t at = L->vstart + L->r[k].off + from;
		int col = snprintf(NULL, 0, "%" PRIx64 ":", at);

		for (size_t m = 0; m < L->w->n; m++)
			fputs(L->A->o->show_total_period ? "           0" : L->A->o->show_nr_samples ? "       0" : "    0.00",
			      f);
		fprintf(f, " :   %*" PRIx64 ":%*s", L->aw, at, 8 - col % 8, "");
		for (unsigned b = from; b < from + 7 && b < in->size && b < sizeof(in->bytes); b++)
			fprintf(f, "%s%02x", b > from ? " " : "", in->bytes[b]);
		fputc('\n', f);
		L->line_nr++;
	}
}

/* Disassemble the symbol's code and count its samples per instruction and member. */
static int disassemble(struct lst *L, const uint8_t *code, size_t len)
{
	size_t cap = 0, h = 0, nm = L->w->n;
	const struct asym *s = L->s;

	for (uint64_t off = 0; off < len; ) {
		struct row *r;

		if (ALLOC_GROW(L->r, L->n + 1, cap))
			return -ENOMEM;
		r = &L->r[L->n++];
		memset(r, 0, sizeof(*r));
		r->off = off;
		disasm__one(L->A->dis, code + off, len - off, L->vstart + off, &r->in);
		off += r->in.size;
	}
	if (!(L->nr = calloc(L->n * nm + 1, sizeof(*L->nr))) || !(L->period = calloc(L->n * nm + 1, sizeof(*L->period))))
		return -ENOMEM;
	for (size_t k = 0; k < L->n; k++) {
		uint64_t end = s->start + (k + 1 < L->n ? L->r[k + 1].off : len);

		for (; h < s->nhits && s->hits[h].off < end; h++) {
			const struct ahit *x = &s->hits[h];

			if (x->ev < L->w->lead || x->ev >= L->w->lead + nm)
				continue;
			L->nr[k * nm + x->ev - L->w->lead] += x->nr;
			L->period[k * nm + x->ev - L->w->lead] += x->period;
		}
	}
	return 0;
}

struct sumline {
	const char *path;
	double *pct;
};

static int sum_cmp(const void *a, const void *b, void *arg)
{
	const struct sumline *x = a, *y = b;
	size_t n = *(const size_t *)arg;

	for (size_t m = 0; m < n; m++)
		if (x->pct[m] != y->pct[m])
			return x->pct[m] < y->pct[m] ? 1 : -1;
	/* perf's ties: its tree of the paths, walked from the greatest */
	return strcmp(y->path, x->path);
}

/* -l: each instruction over MIN_GREEN gets its file:line; their sums, highest first, as perf's summary. */
static int print_summary(struct lst *L)
{
	size_t nm = L->w->n, ns = 0;
	struct sumline *v = calloc(L->n + 1, sizeof(*v));
	double *pct = calloc((L->n + 1) * nm, sizeof(*pct));
	const char *const *unused;
	FILE *f = L->A->f;

	(void)unused;
	if (!v || !pct) {
		free(v);
		free(pct);
		return -ENOMEM;
	}
	for (size_t k = 0; k < L->n; k++) {
		double max = 0;
		const char *file;
		int line;
		size_t i;
		char buf[4096];

		for (size_t m = 0; m < nm; m++)
			max = percent(L, k, m) > max ? percent(L, k, m) : max;
		if (max <= MIN_GREEN)
			continue;
		line = srcline(L, L->r[k].off, &file);
		if (line > 0)
			snprintf(buf, sizeof(buf), "%s:%d", strrchr(file, '/') ? strrchr(file, '/') + 1 : file, line);
		else
			snprintf(buf, sizeof(buf), "??:0");
		if (!(L->r[k].path = strdup(buf)))
			break;
		for (i = 0; i < ns && strcmp(v[i].path, buf); i++)
			;
		if (i == ns) {
			v[ns].path = L->r[k].path;
			v[ns++].pct = pct + i * nm;
		}
		for (size_t m = 0; m < nm; m++)
			v[i].pct[m] += percent(L, k, m);
	}
	qsort_r(v, ns, sizeof(*v), sum_cmp, &nm);
	fprintf(f, "\nSorted summary for file %s\n----------------------------------------------\n\n", L->s->dso);
	if (!ns)
		fprintf(f, " Nothing higher than %1.1f%%\n", MIN_GREEN);
	for (size_t i = 0; i < ns; i++) {
		for (size_t m = 0; m < nm; m++)
			fprintf(f, " %7.2f", v[i].pct[m]);
		fprintf(f, " %s\n", v[i].path);
	}
	free(v);
	free(pct);
	return 0;
}

/* --json: "key": [v, ...] of the view's members, from per-member array a (stride n: per row). */
static void json_u64s(FILE *f, const char *key, const uint64_t *a, size_t n)
{
	fprintf(f, "\"%s\": [", key);
	for (size_t m = 0; m < n; m++)
		fprintf(f, "%s%" PRIu64, m ? ", " : "", a[m]);
	fputc(']', f);
}

/* --json: the symbol's object up to its instructions (its counts are the view's members'). */
static void json_symbol_head(struct ann *A, const struct asym *s, const struct view *w, uint64_t vstart)
{
	FILE *f = A->f;

	fprintf(f, "%s\n  {\"dso\": ", A->njson++ ? "," : "");
	json_fputs(f, s->dso);
	fputs(", \"symbol\": ", f);
	json_fputs(f, s->name);
	fprintf(f, ", \"address\": \"0x%" PRIx64 "\", \"size\": %" PRIu64 ", \"kernel\": %s,\n   \"events\": [",
		vstart, s->end - s->start, s->kernel ? "true" : "false");
	for (size_t m = 0; m < w->n; m++) {
		fputs(m ? ", " : "", f);
		json_fputs(f, pdata__evsel(A->p, w->lead + m) ? pdata__evsel(A->p, w->lead + m)->name : "");
	}
	fputs("], ", f);
	json_u64s(f, "samples", s->nr + w->lead, w->n);
	fputs(", ", f);
	json_u64s(f, "period", s->period + w->lead, w->n);
	fputs(",\n   \"instructions\": ", f);
}

/*
 * --json's source place of the instruction at off: the line table's line
 * and its file as objdump -l and perf print the path (binutils' join of
 * the unit's directory and the file's: "./elf/./elf/dl-load.c"); 0: none.
 */
static int json_srcline(const struct lst *L, uint64_t off, char *file, size_t cap)
{
	unsigned disc;

	return L->s->kernel ? 0 : symcache__srcline_objdump(L->A->syms, L->s->dso, L->s->start + off, file, cap, &disc);
}

/* --json: one instruction's object: counts and shares per member, its text, its source place. */
static void json_insn(struct lst *L, size_t k)
{
	FILE *f = L->A->f;
	const struct row *r = &L->r[k];
	char buf[2048], file[4096];
	int line = json_srcline(L, r->off, file, sizeof(file));

	fprintf(f, "%s\n    {\"address\": \"0x%" PRIx64 "\", \"offset\": %" PRIu64 ", ", k ? "," : "",
		L->vstart + r->off, r->off);
	json_u64s(f, "samples", L->nr + k * L->w->n, L->w->n);
	fputs(", ", f);
	json_u64s(f, "period", L->period + k * L->w->n, L->w->n);
	fputs(", \"percent\": [", f);
	for (size_t m = 0; m < L->w->n; m++)
		fprintf(f, "%s%.4f", m ? ", " : "", percent(L, k, m));
	fputs("],\n     \"text\": ", f);
	insn_asm(L, &r->in, buf, sizeof(buf));
	json_fputs(f, buf);
	fputs(", \"bytes\": \"", f);
	for (unsigned b = 0; b < r->in.size && b < sizeof(r->in.bytes); b++)
		fprintf(f, "%02x", r->in.bytes[b]);
	fputs("\", \"function\": ", f);
	json_fputs(f, function_at(L, L->vstart + r->off));
	if (line > 0) {
		fputs(", \"file\": ", f);
		json_fputs(f, file);
		fprintf(f, ", \"line\": %d}", line);
	} else {
		fputs(", \"file\": null, \"line\": null}", f);
	}
}

/* --json: the symbol whose code was read and disassembled into L. */
static void json_listing(struct lst *L)
{
	json_symbol_head(L->A, L->s, L->w, L->vstart);
	scopes(L);
	fputc('[', L->A->f);
	for (size_t k = 0; k < L->n; k++)
		json_insn(L, k);
	fputs("]}", L->A->f);
}

/*
 * A symbol whose code is not here: one line saying what to give, once
 * per DSO, as perf warns once per DSO.  0: said (or said before).
 */
static int cannot(struct ann *A, const struct asym *s, const struct view *w)
{
	unsigned char id[HOST_BUILD_ID_MAX];
	char hex[2 * HOST_BUILD_ID_MAX + 1] = "";
	size_t n = pdata__build_id(A->p, s->kernel ? "[kernel.kallsyms]" : s->dso, id);

	if (A->o->json) {
		json_symbol_head(A, s, w, s->start);
		fputs("null}", A->f);
	}
	for (size_t i = 0; i < A->nwarned; i++)
		if (A->warned[i] == s->dso)
			return 0;
	if (!ALLOC_GROW(A->warned, A->nwarned + 1, A->warned_cap))
		A->warned[A->nwarned++] = s->dso;
	host_build_id_hex(id, n, hex);
	if (s->kernel)
		mperf_log(MPERF_LOG_WARN, "cannot annotate %s: no vmlinux%s%s was found: give one with "
			  "-k/--vmlinux, or add it to the build-id cache (perf buildid-cache -vu vmlinux)",
			  s->name, n ? " with build id " : "", hex);
	else
		mperf_log(MPERF_LOG_WARN, "cannot annotate %s: %s%s%s is neither here nor in the build-id cache "
			  "(~/.debug): copy the file there (perf buildid-cache -a FILE)", s->name, s->dso,
			  n ? " with build id " : "", hex);
	return 0;
}

int annotate_print(struct ann *A, struct asym *s, const struct view *w)
{
	struct lst L = { .A = A, .s = s, .w = w };
	const char *base = strrchr(s->dso, '/') ? strrchr(s->dso, '/') + 1 : s->dso;
	const char *section;
	char buf[4096], label[2048];
	uint8_t *code = NULL;
	long len;
	int hlen, err = 0;

	if (s->end <= s->start || s->end - s->start > MAX_CODE || !(code = malloc(s->end - s->start)))
		return s->end - s->start > MAX_CODE ? 0 : mperf_error(-ENOMEM, "out of memory");
	if (s->kernel)
		len = symcache__kernel_read(A->syms, s->start, code, s->end - s->start, &L.vstart);
	else
		len = symcache__read(A->syms, s->dso, s->start, code, s->end - s->start);
	if (len <= 0) {
		free(code);
		return cannot(A, s, w);
	}
	mperf_log(MPERF_LOG_DEBUG, "%s: %ld bytes at %#" PRIx64 " of %s, disassembled by capstone", s->name, len,
		  s->kernel ? s->start : symcache__vaddr(A->syms, s->dso, s->start),
		  s->kernel ? symcache__kernel_image_path(A->syms) : symcache__runtime_path(A->syms, s->dso));
	if (!s->kernel)
		L.vstart = symcache__vaddr(A->syms, s->dso, s->start);
	else	/* perf names the kernel's DSO by its image once it has read one */
		base = strrchr(symcache__kernel_image_path(A->syms), '/') ?
		       strrchr(symcache__kernel_image_path(A->syms), '/') + 1 : symcache__kernel_image_path(A->syms);
	L.cell = A->o->show_total_period ? 12 : 8;
	L.width = L.cell * (int)w->n;
	if ((err = disassemble(&L, code, (size_t)len)))
		goto out;
	L.aw = snprintf(NULL, 0, "%" PRIx64, L.vstart + L.r[L.n - 1].off);
	if (A->o->json) {
		json_listing(&L);
		goto out;
	}
	if (A->o->print_line && (err = print_summary(&L)))
		goto out;
	hlen = fprintf(A->f, " %-*.*s|\tSource code & Disassembly of %s for %s (%" PRIu64 " samples, percent: %s)\n",
		       L.width, L.width, A->o->show_total_period ? "Period" : A->o->show_nr_samples ? "Samples" : "Percent",
		       base, w->name, s->nr[w->lead], percent_name(A->o->percent));
	for (int i = 0; i < hlen + 4; i++)
		fputc('-', A->f);
	fputc('\n', A->f);
	section = s->kernel ? NULL : symcache__section(A->syms, s->dso, s->start);
	text_line(&L, "");
	text_line(&L, "");
	text_line(&L, "");
	snprintf(buf, sizeof(buf), "Disassembly of section %s:", section ? section : ".text");
	text_line(&L, buf);
	text_line(&L, "");
	snprintf(buf, sizeof(buf), "%016" PRIx64 " <%s>:", L.vstart, label_of(&L, label, sizeof(label)));
	text_line(&L, buf);
	scopes(&L);
	for (size_t k = 0; k < L.n; k++) {
		context_lines(&L, L.r[k].off);
		insn_line(&L, k);
		if (A->o->asm_raw)
			raw_rest(&L, k);
	}
out:
	for (size_t i = 0; i < L.n; i++)
		free(L.r[i].path);
	for (size_t i = 0; i < L.nsrc; i++) {
		free(L.src[i].path);
		free(L.src[i].text);
		free(L.src[i].lines);
	}
	symcache__scopes_free(L.sc, L.nsc);
	free(L.r);
	free(L.nr);
	free(L.period);
	free(code);
	return err == -ENOMEM ? mperf_error(err, "out of memory") : err;
}
