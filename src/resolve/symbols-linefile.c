// SPDX-License-Identifier: GPL-2.0-only
/*
 * The file binutils names for a line of a DWARF 5 line table.  Each
 * sequence of a line program starts with the file register at 1, and
 * libdw reads it so; binutils 2.40 (addr2line and objdump -l, whose
 * answers perf 6.1 prints) starts a DWARF 5 sequence at file 0, the
 * unit's primary file.  Where a compiler's file 1 is a header (a
 * function of a header emitted first: glibc's dl-cacheinfo.h in
 * dl-get-cpu-features.c), the rows a sequence has before its first
 * DW_LNS_set_file get another name: binutils' file 0 for libdw's file 1.
 *
 * libdw does not say whether a row's file was set or left at 1, so the
 * unit's line program is read here, once, down to where each sequence
 * first sets its file (struct lfseq).  Only asked for a row of file 1
 * where files 0 and 1 differ.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include "symbols-internal.h"

/* One sequence of a line program: [lo, hi), and the first row with its file set (UINT64_MAX: none). */
struct lfseq {
	uint64_t lo, hi, set;
};

/* A unit's line program, by its .debug_line offset: its sequences in address order (none: no fix). */
struct lfunit {
	uint64_t off;
	struct lfseq *seq;
	size_t n;
};

struct lfcache {
	struct lfunit *u;
	size_t n, cap;
	const unsigned char *data;	/* .debug_line, inflated */
	size_t size;
	bool tried;
};

/* A bounded reader of .debug_line's bytes: any read past end leaves bad set and gives 0. */
struct lcur {
	const unsigned char *p, *end;
	bool bad;
};

static uint64_t rd_n(struct lcur *c, size_t n)
{
	uint64_t v = 0;

	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		return 0;
	}
	for (size_t k = 0; k < n; k++)
		v |= (uint64_t)c->p[k] << (8 * k);	/* x86-64 and the DWARF it reads: little-endian */
	c->p += n;
	return v;
}

static uint64_t rd_uleb(struct lcur *c)
{
	uint64_t v = 0;
	unsigned shift = 0;
	unsigned char b;

	do {
		b = (unsigned char)rd_n(c, 1);
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while ((b & 0x80) && !c->bad);
	return v;
}

static void skip(struct lcur *c, uint64_t n)
{
	if (c->bad || (uint64_t)(c->end - c->p) < n)
		c->bad = true;
	else
		c->p += n;
}

/* The section's bytes, inflated (libdw inflated it in the same ELF already). */
static bool line_section(struct dso *d, struct lfcache *lc)
{
	Elf *e = dwarf_getelf(d->ln_dw);
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!e || elf_getshdrstrndx(e, &shstrndx))
		return false;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)) ||
		    strcmp(name, ".debug_line"))
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
			return false;
		if (!(data = elf_getdata(scn, NULL)) || !data->d_buf)
			return false;
		lc->data = data->d_buf;
		lc->size = data->d_size;
		return true;
	}
	return false;
}

struct lprog {
	unsigned min_inst, line_range, opcode_base, addr_size;
	const unsigned char *lengths;	/* the standard opcodes' operand counts */
};

/* The header of the unit at c (DWARF 5 only: false for others), c left at its program; *end its end. */
static bool read_header(struct lcur *c, struct lprog *h, const unsigned char **end)
{
	uint64_t len = rd_n(c, 4), hlen;
	unsigned offsize = 4, version;
	const unsigned char *prog;

	if (len == 0xffffffffu) {
		len = rd_n(c, 8);
		offsize = 8;
	}
	if (c->bad || len > (uint64_t)(c->end - c->p))
		return false;
	*end = c->p + len;
	c->end = *end;
	version = (unsigned)rd_n(c, 2);
	if (version < 5)
		return false;
	h->addr_size = (unsigned)rd_n(c, 1);
	rd_n(c, 1);	/* segment selector size */
	hlen = rd_n(c, offsize);
	if (c->bad || hlen > (uint64_t)(c->end - c->p))
		return false;
	prog = c->p + hlen;
	h->min_inst = (unsigned)rd_n(c, 1);
	if (rd_n(c, 1) != 1)	/* VLIW op indexes: not read */
		return false;
	rd_n(c, 2);		/* default_is_stmt, line_base */
	h->line_range = (unsigned)rd_n(c, 1);
	h->opcode_base = (unsigned)rd_n(c, 1);
	h->lengths = c->p;
	skip(c, h->opcode_base ? h->opcode_base - 1 : 0);
	if (c->bad || !h->line_range || !h->opcode_base || c->p > prog || (h->addr_size != 4 && h->addr_size != 8))
		return false;
	c->p = prog;
	return true;
}

static int seq_add(struct lfunit *u, size_t *cap, const struct lfseq *s)
{
	if (u->n == *cap) {
		size_t nc = *cap ? 2 * *cap : 16;
		struct lfseq *v = realloc(u->seq, nc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		u->seq = v;
		*cap = nc;
	}
	u->seq[u->n++] = *s;
	return 0;
}

/* One extended opcode: a sequence's end (true) or its address set. */
static bool extended(struct lcur *c, const struct lprog *h, uint64_t *addr)
{
	uint64_t len = rd_uleb(c);
	const unsigned char *next;
	unsigned op;

	if (c->bad || !len || len > (uint64_t)(c->end - c->p)) {
		c->bad = true;
		return false;
	}
	next = c->p + len;
	op = (unsigned)rd_n(c, 1);
	if (op == DW_LNE_set_address && len - 1 >= h->addr_size)
		*addr = rd_n(c, h->addr_size);
	c->p = next;
	return op == DW_LNE_end_sequence;
}

/* A row is added at addr: the sequence's first, or its first with its file set. */
static void row(struct lfseq *s, bool *any, bool file_set, uint64_t addr)
{
	if (!*any)
		s->lo = addr;
	*any = true;
	if (file_set && s->set == UINT64_MAX)
		s->set = addr;
}

/* The program at c, each sequence's range and first set file into u. */
static int read_program(struct lcur *c, const struct lprog *h, struct lfunit *u)
{
	size_t cap = 0;
	uint64_t addr = 0;
	bool any = false, file_set = false;
	struct lfseq s = { 0, 0, UINT64_MAX };

	while (c->p < c->end && !c->bad) {
		unsigned op = (unsigned)rd_n(c, 1);

		if (op >= h->opcode_base) {
			addr += (uint64_t)((op - h->opcode_base) / h->line_range) * h->min_inst;
			row(&s, &any, file_set, addr);
		} else if (op == 0) {
			if (!extended(c, h, &addr))
				continue;
			row(&s, &any, file_set, addr);
			s.hi = addr;
			if (s.hi > s.lo && seq_add(u, &cap, &s))
				return -ENOMEM;
			addr = 0, any = false, file_set = false;
			s = (struct lfseq){ 0, 0, UINT64_MAX };
		} else if (op == DW_LNS_copy) {
			row(&s, &any, file_set, addr);
		} else if (op == DW_LNS_advance_pc) {
			addr += rd_uleb(c) * h->min_inst;
		} else if (op == DW_LNS_const_add_pc) {
			addr += (uint64_t)((255 - h->opcode_base) / h->line_range) * h->min_inst;
		} else if (op == DW_LNS_fixed_advance_pc) {
			addr += rd_n(c, 2);
		} else {
			file_set |= op == DW_LNS_set_file;
			for (unsigned k = 0; k < h->lengths[op - 1]; k++)
				rd_uleb(c);	/* advance_line's is signed: its value is not needed */
		}
	}
	return 0;
}

static int seq_cmp(const void *pa, const void *pb)
{
	const struct lfseq *a = pa, *b = pb;

	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* The unit's line program at off, read at the first ask. */
static struct lfunit *unit_of(struct dso *d, struct lfcache *lc, uint64_t off)
{
	struct lfunit *u;
	struct lprog h;
	const unsigned char *end;
	struct lcur c;

	for (size_t k = 0; k < lc->n; k++)
		if (lc->u[k].off == off)
			return &lc->u[k];
	if (!lc->tried) {
		lc->tried = true;
		if (!line_section(d, lc))
			lc->data = NULL;
	}
	if (!lc->data || off >= lc->size)
		return NULL;
	if (lc->n == lc->cap) {
		size_t nc = lc->cap ? 2 * lc->cap : 8;
		struct lfunit *v = realloc(lc->u, nc * sizeof(*v));

		if (!v)
			return NULL;
		lc->u = v;
		lc->cap = nc;
	}
	u = &lc->u[lc->n++];
	*u = (struct lfunit){ off, NULL, 0 };
	c = (struct lcur){ lc->data + off, lc->data + lc->size, false };
	if (read_header(&c, &h, &end) && read_program(&c, &h, u) == 0 && !c.bad)
		qsort(u->seq, u->n, sizeof(*u->seq), seq_cmp);
	else
		u->n = 0;
	return u;
}

/* Whether the row at addr of the unit's sequences comes before its sequence set a file. */
static bool row_unset(const struct lfunit *u, uint64_t addr)
{
	size_t lo = 0, hi = u->n;

	while (lo < hi) {	/* the first sequence starting past addr */
		size_t mid = lo + (hi - lo) / 2;

		if (u->seq[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0)
		if (addr < u->seq[lo].hi)
			return addr < u->seq[lo].set;
	return false;
}

const char *line_file_binutils(struct dso *d, Dwarf_Die *cu, Dwarf_Line *l, const char *file)
{
	Dwarf_Files *files;
	size_t idx;
	const char *file0;
	Dwarf_Attribute at;
	Dwarf_Word off;
	Dwarf_Addr addr;
	struct lfunit *u;

	if (dwarf_line_file(l, &files, &idx) || idx != 1 || !(file0 = dwarf_filesrc(files, 0, NULL, NULL)) ||
	    !strcmp(file0, file) || !dwarf_attr(cu, DW_AT_stmt_list, &at) || dwarf_formudata(&at, &off) ||
	    dwarf_lineaddr(l, &addr))
		return file;
	if (!d->lf && !(d->lf = calloc(1, sizeof(*d->lf))))
		return file;
	u = unit_of(d, d->lf, off);
	return u && row_unset(u, addr) ? file0 : file;
}

void line_file_free(struct dso *d)
{
	for (size_t k = 0; d->lf && k < d->lf->n; k++)
		free(d->lf->u[k].seq);
	if (d->lf)
		free(d->lf->u);
	free(d->lf);
	d->lf = NULL;
}
