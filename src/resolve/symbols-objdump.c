// SPDX-License-Identifier: GPL-2.0-only
/*
 * The symbols objdump names addresses by in its listing, which perf
 * annotate shows (perf runs objdump -l on the file that ran): that file's
 * .symtab and its separate debug file's (objdump -S follows the link to
 * it), else the file's .dynsym with each symbol's version ("@@GLIBC_2.2.5", "@" when hidden,
 * "@@Base" for the file's base version), and x86-64's PLT entries as
 * "name@plt" ("*ABS*+0xaddend@plt" for a relocation without a symbol).
 * Section and file symbols do not count.  They are ordered as objdump
 * orders them (by address; then functions, objects, non-local, global,
 * larger, not starting with '.', by name) and an address takes the first
 * of the last address at or before it, preferring one of the section of
 * the instruction that names it.
 */
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../lib/alloc.h"
#include "../lib/buf.h"
#include "symbols-internal.h"

enum { OD_FUNC = 1, OD_OBJECT = 2, OD_LOCAL = 4, OD_GLOBAL = 8, OD_FILE = 16, OD_SYNTH = 32 };

struct odsym {
	uint64_t value, size;
	uint32_t name;		/* in the pool: demangled as objdump -C prints it */
	uint32_t raw;		/* in the pool: the name objdump sorts by */
	uint32_t shndx;
	uint32_t flags;
	uint32_t order;		/* in the file: objdump's sort keeps it between equals */
};

struct dynrel {			/* a dynamic relocation's slot, named by its symbol */
	uint64_t at, value;
	uint32_t name;		/* in the pool, as objdump prints it */
	bool undef;		/* printed without an offset */
};

struct odtab {
	struct odsym *v;
	size_t n, cap;
	struct dynrel *rel;	/* sorted by at */
	size_t nrel;
	struct mbuf names;
	bool symtab;		/* from a .symtab: objdump -l names functions by it */
};

void dso_free_objdump(struct dso *d)
{
	if (!d->od)
		return;
	free(d->od->v);
	free(d->od->rel);
	mbuf_free(&d->od->names);
	free(d->od);
	d->od = NULL;
}

static int pool_add(struct odtab *t, const char *s, uint32_t *at)
{
	*at = (uint32_t)t->names.len;
	return mbuf_add(&t->names, s, strlen(s) + 1);
}

/*
 * A symbol into t: raw, the name objdump sorts by; shown, the one it
 * prints (with a version), demangled as -C does.
 */
static int add(struct odtab *t, const char *raw, const char *shown, uint64_t value, uint64_t size, uint32_t shndx,
	       uint32_t flags)
{
	struct odsym *s;
	char *dm;
	int err;

	if (ALLOC_GROW(t->v, t->n + 1, t->cap))
		return -1;
	s = &t->v[t->n];
	*s = (struct odsym){ .value = value, .size = size, .shndx = shndx, .flags = flags, .order = (uint32_t)t->n };
	if ((err = pool_add(t, raw, &s->raw)))
		return err;
	dm = demangle_params(shown);
	err = pool_add(t, dm ? dm : shown, &s->name);
	free(dm);
	t->n += !err;
	return err;
}

struct vers {			/* a file's version names by index */
	const char **name;
	bool *need;		/* a version it needs (.gnu.version_r): objdump's "@" */
	size_t n, ndefs;	/* ndefs: the highest definition's index */
	bool base;		/* the first definition is the file's base version */
	Elf_Data *sym;		/* .gnu.version: each dynamic symbol's index */
};

static int vers_set(struct vers *v, size_t i, const char *name, bool need, size_t *cap)
{
	if (i >= v->n) {
		size_t cap2 = *cap;

		if (ALLOC_GROW(v->name, i + 1, *cap) || ALLOC_GROW(v->need, i + 1, cap2))
			return -1;
		memset(v->name + v->n, 0, (i + 1 - v->n) * sizeof(*v->name));
		memset(v->need + v->n, 0, (i + 1 - v->n) * sizeof(*v->need));
		v->n = i + 1;
	}
	v->name[i] = name;
	v->need[i] = need;
	return 0;
}

/* The names of e's .gnu.version_d and .gnu.version_r by index. */
static void vers_read(Elf *e, struct vers *v)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(e, SHT_GNU_verdef, &sh);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	size_t cap = 0, off = 0;

	for (int k = 0; d && k < 65536; k++) {
		GElf_Verdef vd;
		GElf_Verdaux va;

		if (!gelf_getverdef(d, (int)off, &vd) || !gelf_getverdaux(d, (int)(off + vd.vd_aux), &va) ||
		    vers_set(v, vd.vd_ndx, elf_strptr(e, sh.sh_link, va.vda_name), false, &cap))
			break;
		v->base |= k == 0 && (vd.vd_flags & VER_FLG_BASE);
		v->ndefs = vd.vd_ndx > v->ndefs ? vd.vd_ndx : v->ndefs;
		if (!vd.vd_next)
			break;
		off += vd.vd_next;
	}
	scn = find_section(e, SHT_GNU_verneed, &sh);
	d = scn ? elf_getdata(scn, NULL) : NULL;
	off = 0;
	for (int k = 0; d && k < 65536; k++) {
		GElf_Verneed vn;
		size_t aoff = off;

		if (!gelf_getverneed(d, (int)off, &vn))
			break;
		aoff += vn.vn_aux;
		for (unsigned j = 0; j < vn.vn_cnt; j++) {
			GElf_Vernaux va;

			if (!gelf_getvernaux(d, (int)aoff, &va) ||
			    vers_set(v, va.vna_other & 0x7fff, elf_strptr(e, sh.sh_link, va.vna_name), true, &cap))
				break;
			if (!va.vna_next)
				break;
			aoff += va.vna_next;
		}
		if (!vn.vn_next)
			break;
		off += vn.vn_next;
	}
	if ((scn = find_section(e, SHT_GNU_versym, &sh)))
		v->sym = elf_getdata(scn, NULL);
}

static void vers_free(struct vers *v)
{
	free(v->name);
	free(v->need);
}

/*
 * Dynamic symbol i's name as objdump prints it: with "@@VERSION" or
 * "@VERSION" (a hidden or needed one, or the version of an undefined
 * symbol).  Whether its version is one the file needs (of another file).
 */
static bool versioned(const struct vers *v, size_t i, bool undef, const char *name, char *buf, size_t cap)
{
	GElf_Versym x;
	const char *ver = "";
	bool hidden, need = false;

	if (v->sym && gelf_getversym(v->sym, (int)i, &x)) {
		hidden = (x & 0x8000) || undef;
		x &= 0x7fff;
		if (x == 1 && (x > v->ndefs || v->base))
			ver = "Base";
		else if (x && x < v->n && v->name[x])
			ver = v->name[x], hidden |= need = v->need[x];
		snprintf(buf, cap, "%s%s%s", name, !*ver ? "" : hidden ? "@" : "@@", ver);
		return need;
	}
	snprintf(buf, cap, "%s", name);
	return false;
}

/*
 * The symbols of e's table of type (SHT_SYMTAB or SHT_DYNSYM) objdump
 * keeps (foreign: e is the separate debug file): their count, or -1.
 */
static long read_table(Elf *e, Elf64_Word type, bool foreign, struct odtab *t)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(e, type, &sh);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	struct vers v = { 0 };
	size_t before = t->n;
	long err = 0;

	if (!d || !sh.sh_entsize)
		return 0;
	if (type == SHT_DYNSYM)
		vers_read(e, &v);
	for (size_t i = 1, n = sh.sh_size / sh.sh_entsize; i < n && !err; i++) {
		GElf_Sym s;
		const char *name;
		char buf[4096];
		int st, bind;
		uint32_t fl = 0;

		if (!gelf_getsym(d, (int)i, &s) || !(name = elf_strptr(e, sh.sh_link, s.st_name)) || !*name)
			continue;
		st = GELF_ST_TYPE(s.st_info);
		bind = GELF_ST_BIND(s.st_info);
		if (st == STT_SECTION || st == STT_FILE || s.st_shndx == SHN_UNDEF || s.st_shndx == SHN_COMMON)
			continue;
		/* an IFUNC is not a function to objdump's order (BSF_GNU_INDIRECT_FUNCTION alone) */
		fl |= st == STT_FUNC ? OD_FUNC : st == STT_OBJECT ? OD_OBJECT : 0;
		fl |= bind == STB_LOCAL ? OD_LOCAL : bind == STB_GLOBAL || bind == STB_GNU_UNIQUE ? OD_GLOBAL : 0;
		versioned(&v, type == SHT_DYNSYM ? i : 0, false, name, buf, sizeof(buf));
		/* a separate debug file's sections are never the listing's */
		err = add(t, name, buf, s.st_value, s.st_size, foreign ? UINT32_MAX : s.st_shndx, fl);
	}
	vers_free(&v);
	return err ? -1 : (long)(t->n - before);
}

struct slot {
	uint64_t got;
	uint32_t name;		/* in a pool: the entry's "...@plt" */
};

static int slot_cmp(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	return x->got < y->got ? -1 : x->got > y->got;
}

/* The GOT slots of e's jump-slot, GLOB_DAT and IRELATIVE relocations, sorted, with their PLT names. */
static struct slot *slots(Elf *e, size_t *n, struct mbuf *pool)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh, dsh;
	struct slot *v = NULL;
	size_t cap = 0;

	*n = 0;
	while ((scn = elf_nextscn(e, scn))) {
		Elf_Data *d, *dd;
		Elf_Scn *dyn;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
			continue;
		dyn = elf_getscn(e, sh.sh_link);
		dd = dyn && gelf_getshdr(dyn, &dsh) ? elf_getdata(dyn, NULL) : NULL;
		for (size_t k = 0, nr = sh.sh_size / sh.sh_entsize; k < nr; k++) {
			GElf_Rela r;
			GElf_Sym s;
			const char *sn = NULL;
			char name[1024];
			uint64_t t;

			if (!gelf_getrela(d, (int)k, &r))
				continue;
			t = GELF_R_TYPE(r.r_info);
			if (t != R_X86_64_JUMP_SLOT && t != R_X86_64_GLOB_DAT && t != R_X86_64_IRELATIVE)
				continue;
			if (GELF_R_SYM(r.r_info) && (!dd || !gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &s) ||
						     !(sn = elf_strptr(e, dsh.sh_link, s.st_name))))
				continue;
			if (!sn)
				snprintf(name, sizeof(name), "*ABS*+0x%" PRIx64 "@plt", (uint64_t)r.r_addend);
			else
				snprintf(name, sizeof(name), r.r_addend ? "%s+0x%" PRIx64 "@plt" : "%s@plt", sn,
					 (uint64_t)r.r_addend);
			if (ALLOC_GROW(v, *n + 1, cap))
				break;
			v[*n].got = r.r_offset;
			v[*n].name = (uint32_t)pool->len;
			if (mbuf_add(pool, name, strlen(name) + 1))
				break;
			++*n;
		}
	}
	if (*n)
		qsort(v, *n, sizeof(*v), slot_cmp);
	return v;
}

/* x86-64's PLT entries (.plt, .plt.sec, .plt.got): each "jmp *slot(%rip)" named by its slot's relocation. */
static int add_plt(Elf *e, struct odtab *t)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	size_t shstrndx, ns = 0;
	struct mbuf pool = { 0 };
	struct slot *sl;
	int err = 0;

	if (!gelf_getehdr(e, &eh) || eh.e_machine != EM_X86_64 || elf_getshdrstrndx(e, &shstrndx))
		return 0;
	sl = slots(e, &ns, &pool);
	while (ns && !err && (scn = elf_nextscn(e, scn))) {
		const char *sn;
		Elf_Data *d;
		uint64_t ent;

		if (!gelf_getshdr(scn, &sh) || !(sn = elf_strptr(e, shstrndx, sh.sh_name)) || sh.sh_type != SHT_PROGBITS ||
		    (strcmp(sn, ".plt") && strcmp(sn, ".plt.sec") && strcmp(sn, ".plt.got")) ||
		    !(d = elf_getdata(scn, NULL)) || d->d_size < sh.sh_size)
			continue;
		ent = sh.sh_entsize >= 8 ? sh.sh_entsize : 16;
		for (uint64_t o = 0; !err && o + ent <= sh.sh_size; o += ent) {
			const uint8_t *b = (const uint8_t *)d->d_buf + o;

			for (uint64_t k = 0; k + 6 <= ent; k++) {
				struct slot key, *hit;
				int32_t disp;

				if (b[k] != 0xff || b[k + 1] != 0x25)
					continue;
				memcpy(&disp, b + k + 2, 4);
				key.got = sh.sh_addr + o + k + 6 + (uint64_t)(int64_t)disp;
				if ((hit = bsearch(&key, sl, ns, sizeof(*sl), slot_cmp)))
					err = add(t, pool.p + hit->name, pool.p + hit->name, sh.sh_addr + o, 0, (uint32_t)elf_ndxscn(scn),
						  OD_SYNTH | OD_GLOBAL);
				break;
			}
		}
	}
	free(sl);
	mbuf_free(&pool);
	return err ? -1 : 0;
}

static int rel_cmp(const void *a, const void *b)
{
	const struct dynrel *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/* One relocation section's entries with a dynamic symbol into t->rel. */
static int read_rels(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, const struct vers *v, struct odtab *t, size_t *cap)
{
	Elf_Data *d = elf_getdata(scn, NULL), *dd;
	Elf_Scn *dyn = elf_getscn(e, sh->sh_link);
	GElf_Shdr dsh;

	if (!d || !dyn || !gelf_getshdr(dyn, &dsh) || dsh.sh_type != SHT_DYNSYM || !(dd = elf_getdata(dyn, NULL)))
		return 0;
	for (size_t k = 0, n = sh->sh_size / sh->sh_entsize; k < n; k++) {
		GElf_Rela r;
		GElf_Sym s;
		const char *sn;
		char buf[4096], *dm;
		struct dynrel *x;
		int err;

		if (!gelf_getrela(d, (int)k, &r) || !GELF_R_SYM(r.r_info) ||
		    !gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &s) || !(sn = elf_strptr(e, dsh.sh_link, s.st_name)) || !*sn)
			continue;
		/* objdump does not name a copied symbol's slot (defined here, in a version needed) by it */
		if (versioned(v, GELF_R_SYM(r.r_info), s.st_shndx == SHN_UNDEF, sn, buf, sizeof(buf)) &&
		    s.st_shndx != SHN_UNDEF)
			continue;
		if (ALLOC_GROW(t->rel, t->nrel + 1, *cap))
			return -1;
		x = &t->rel[t->nrel];
		*x = (struct dynrel){ .at = r.r_offset, .value = s.st_value, .undef = s.st_shndx == SHN_UNDEF };
		dm = demangle_params(buf);
		err = pool_add(t, dm ? dm : buf, &x->name);
		free(dm);
		if (err)
			return -1;
		t->nrel++;
	}
	return 0;
}

/*
 * The dynamic relocations with a symbol (a GOT slot's, a copy's): objdump
 * names an address that is one's slot by its symbol.
 */
static int read_dynrels(Elf *e, struct odtab *t)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	struct vers v = { 0 };
	size_t cap = 0;
	int err = 0;

	vers_read(e, &v);
	while (!err && (scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_RELA && sh.sh_entsize)
			err = read_rels(e, scn, &sh, &v, t, &cap);
	vers_free(&v);
	if (t->nrel)
		qsort(t->rel, t->nrel, sizeof(*t->rel), rel_cmp);
	return err;
}

static bool file_like(const char *n)
{
	size_t l = strlen(n);

	return l > 2 && n[l - 2] == '.' && (n[l - 1] == 'o' || n[l - 1] == 'a');
}

/* objdump's order of its symbols. */
static int od_cmp(const void *pa, const void *pb, void *arg)
{
	const struct odsym *a = pa, *b = pb;
	const char *pool = arg, *an = pool + a->raw, *bn = pool + b->raw;
	static const uint32_t first[] = { OD_FUNC, OD_OBJECT };

	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	if (file_like(an) != file_like(bn))
		return file_like(an) ? 1 : -1;
	for (size_t k = 0; k < 2; k++)
		if ((a->flags & first[k]) != (b->flags & first[k]))
			return a->flags & first[k] ? -1 : 1;
	if ((a->flags & OD_LOCAL) != (b->flags & OD_LOCAL))
		return a->flags & OD_LOCAL ? 1 : -1;
	if ((a->flags & OD_GLOBAL) != (b->flags & OD_GLOBAL))
		return a->flags & OD_GLOBAL ? -1 : 1;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	if ((an[0] == '.') != (bn[0] == '.'))
		return an[0] == '.' ? 1 : -1;
	if (strcmp(an, bn))
		return strcmp(an, bn);
	return a->order < b->order ? -1 : a->order > b->order;
}

/* The .symtab of the separate debug file at path, which objdump -S reads beside the file's: the count, or -1. */
static long read_debug(const char *path, struct odtab *t)
{
	int fd = path ? host_open_regular(path) : -1;
	Elf *e;
	long n = 0;

	if (fd < 0)
		return 0;
	if ((e = elf_begin(fd, ELF_C_READ_MMAP, NULL)) && elf_kind(e) == ELF_K_ELF)
		n = read_table(e, SHT_SYMTAB, true, t);
	elf_end(e);
	close(fd);
	return n;
}

/*
 * objdump's symbols of e: its .symtab and that of its separate debug
 * file (debug, NULL: none), which perf's objdump -S finds, else its
 * .dynsym; then the PLT entries; sorted.
 */
static struct odtab *load(Elf *e, const char *debug)
{
	struct odtab *t = calloc(1, sizeof(*t));
	long n, m = 0;

	if (!t)
		return NULL;
	n = read_table(e, SHT_SYMTAB, false, t);
	if (n >= 0)
		m = read_debug(debug, t);
	t->symtab = n > 0 || m > 0;
	if (n == 0 && m == 0)
		n = read_table(e, SHT_DYNSYM, false, t);
	if (n < 0 || m < 0 || add_plt(e, t) || read_dynrels(e, t)) {
		free(t->v);
		free(t->rel);
		mbuf_free(&t->names);
		free(t);
		return NULL;
	}
	qsort_r(t->v, t->n, sizeof(*t->v), od_cmp, t->names.p);
	return t;
}

/* The index of the allocated section of e holding vaddr, 0 when none. */
static uint32_t section_at(Elf *e, uint64_t vaddr)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) && vaddr >= sh.sh_addr &&
		    vaddr < sh.sh_addr + sh.sh_size)
			return (uint32_t)elf_ndxscn(scn);
	return 0;
}

/* "<name>", "<name+0xoff>" or "<name-0xoff>": vaddr from value. */
static void name_at(const char *name, uint64_t value, uint64_t vaddr, char *buf, size_t cap)
{
	if (value == vaddr)
		snprintf(buf, cap, "<%s>", name);
	else
		snprintf(buf, cap, "<%s%s0x%" PRIx64 ">", name, value < vaddr ? "+" : "-",
			 value < vaddr ? vaddr - value : value - vaddr);
}

/* A dynamic relocation's slot at vaddr: "<sym>" (undefined), else "<sym+-0xoff>" from its value. */
static bool named_slot(const struct odtab *t, uint64_t vaddr, char *buf, size_t cap)
{
	struct dynrel key = { .at = vaddr };
	const struct dynrel *r = t->nrel ? bsearch(&key, t->rel, t->nrel, sizeof(*t->rel), rel_cmp) : NULL;

	if (!r)
		return false;
	while (r > t->rel && r[-1].at == vaddr)
		r--;
	name_at(t->names.p + r->name, r->undef ? vaddr : r->value, vaddr, buf, cap);
	return true;
}

/*
 * The objdump symbols of path's image, read at the first call (again if
 * links changes: objdump -S follows the link to the debug file, perf
 * annotate's --no-source runs it without); NULL: none.
 */
static const struct odtab *table(struct symcache *c, const char *path, bool links, struct dso **dp)
{
	struct dso *d = image_dso(c, path);

	if (!d || !d->img_elf)
		return NULL;
	if (!d->od_tried || d->od_links != links) {
		const char *img = d->runtime ? d->runtime : d->path;

		dso_free_objdump(d);
		d->od_tried = true;
		d->od_links = links;
		d->od = load(d->img_elf, links && d->symsrc && strcmp(d->symsrc, img) ? d->symsrc : NULL);
	}
	*dp = d;
	return d->od && d->od->n ? d->od : NULL;
}

/*
 * objdump's symbol for vaddr: the first of the last address at or before
 * it (the first symbol when none is), one of section sec if one of that
 * address is.
 */
static size_t find(const struct odtab *t, uint32_t sec, uint64_t vaddr)
{
	size_t lo = 0, hi = t->n, at;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].value <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	at = lo ? lo - 1 : 0;
	while (at && t->v[at - 1].value == t->v[at].value)
		at--;
	for (size_t k = at; k < t->n && t->v[k].value == t->v[at].value; k++)
		if (t->v[k].shndx == sec)
			return k;
	return at;
}

bool symcache__objdump_name(struct symcache *c, const char *path, bool links, uint64_t from, uint64_t vaddr,
			    char *buf, size_t cap)
{
	struct dso *d = NULL;
	const struct odtab *t = table(c, path, links, &d);
	const struct odsym *s;
	uint32_t sec;

	if (!t)
		return false;
	sec = section_at(d->img_elf, from);
	s = &t->v[find(t, sec, vaddr)];
	/*
	 * a dynamic relocation's slot is named by its symbol, but where a PLT
	 * entry is, or where the nearest symbol is in the instruction's own
	 * section (objdump takes that one before it looks at relocations:
	 * gdb's .text names its GOT slots by the symbol before them, its
	 * .plt.got by their relocations)
	 */
	if (!(s->flags & OD_SYNTH) && !(sec && s->shndx == sec) && named_slot(t, vaddr, buf, cap))
		return true;
	name_at(t->names.p + s->name, s->value, vaddr, buf, cap);
	return true;
}

const char *symcache__objdump_label(struct symcache *c, const char *path, bool links, uint64_t vaddr)
{
	struct dso *d = NULL;
	const struct odtab *t = table(c, path, links, &d);
	const struct odsym *s;

	if (!t)
		return NULL;
	s = &t->v[find(t, section_at(d->img_elf, vaddr), vaddr)];
	return s->value == vaddr ? t->names.p + s->name : NULL;
}

bool symcache__objdump_symtab(struct symcache *c, const char *path, bool links)
{
	struct dso *d = NULL;
	const struct odtab *t = table(c, path, links, &d);

	return t && t->symtab;
}
