// SPDX-License-Identifier: GPL-2.0-only
/*
 * Annotation's lookups in a user DSO (symbols.h): ELF addresses and file
 * offsets by the runtime image's loaded segments, its sections and code
 * bytes, and the DWARF line table of its symbol file.  The inline
 * lookups' DWARF (symbols-inline.c) hides the line table from libdw to
 * open faster, so the line table has a handle of its own, opened at the
 * first line asked for.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../host/host.h"
#include "symbols-internal.h"
#include "symbols.h"

void dso_free_lines(struct dso *d)
{
	if (d->ln_dw)
		dwarf_end(d->ln_dw);
	if (d->ln_elf)
		elf_end(d->ln_elf);
	if (d->ln_tried && d->ln_fd >= 0)
		close(d->ln_fd);
	if (d->img_elf)
		elf_end(d->img_elf);
	if (d->img_tried && d->img_fd >= 0)
		close(d->img_fd);
	free(d->fsyms);
	line_file_free(d);
	dso_free_objdump(d);
}

/* The file that ran for d: its own, the build-id cache's copy, or for the vdso the cache's image. */
static int open_image(struct symcache *c, struct dso *d)
{
	unsigned char id[HOST_BUILD_ID_MAX];
	char hex[2 * HOST_BUILD_ID_MAX + 1], p[4096];
	size_t n;

	if (d->path[0] == '/')
		return d->usable ? host_open_regular(d->runtime ? d->runtime : d->path) : -1;
	if (strcmp(d->path, "[vdso]") || !(n = recorded_id(c, d->path, id)))
		return -1;
	host_build_id_hex(id, n, hex);
	return cache_file(p, sizeof(p), hex, "vdso") ? open_matching(p, hex) : -1;
}

/* The DSO at path with the file that ran, or NULL. */
struct dso *image_dso(struct symcache *c, const char *path)
{
	struct dso *d = dso_by_name(c, path);

	if (!d)
		return NULL;
	c->last_path = path;
	c->last_dso = d;
	if (!d->img_tried) {
		d->img_tried = true;
		d->img_fd = open_image(c, d);
		if (d->img_fd >= 0 && !(d->img_elf = elf_begin(d->img_fd, ELF_C_READ_MMAP, NULL)))
			d->img_elf = NULL;
	}
	return d->img_fd >= 0 ? d : NULL;
}

uint64_t symcache__vaddr(struct symcache *c, const char *path, uint64_t off)
{
	struct dso *d = image_dso(c, path);

	return d ? offset_to_vaddr(d, off) : off;
}

bool symcache__offset(struct symcache *c, const char *path, uint64_t vaddr, uint64_t *off)
{
	struct dso *d = image_dso(c, path);

	for (size_t k = 0; d && k < d->sg.n; k++)
		if (vaddr >= d->sg.v[k].p_vaddr && vaddr < d->sg.v[k].p_vaddr + d->sg.v[k].p_memsz) {
			*off = vaddr - d->sg.v[k].p_vaddr + d->sg.v[k].p_offset;
			return true;
		}
	return false;
}

const char *symcache__section(struct symcache *c, const char *path, uint64_t off)
{
	struct dso *d = image_dso(c, path);
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!d || !d->img_elf || elf_getshdrstrndx(d->img_elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(d->img_elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS && (sh.sh_flags & SHF_ALLOC) &&
		    off >= sh.sh_offset && off < sh.sh_offset + sh.sh_size)
			return elf_strptr(d->img_elf, shstrndx, sh.sh_name);
	}
	return NULL;
}

long symcache__read(struct symcache *c, const char *path, uint64_t off, void *buf, size_t len)
{
	struct dso *d = image_dso(c, path);
	ssize_t n;

	if (!d)
		return -ENOENT;
	n = pread(d->img_fd, buf, len, (off_t)off);
	return n < 0 ? -errno : (long)n;
}

/* The symbol file's DWARF with its line table, opened once. */
Dwarf *line_dwarf(struct dso *d)
{
	const char *src = d->symsrc ? d->symsrc : d->runtime ? d->runtime : d->path;

	if (d->ln_tried)
		return d->ln_dw;
	d->ln_tried = true;
	d->ln_fd = src[0] == '/' ? host_open_regular(src) : -1;
	if (d->ln_fd >= 0 && (d->ln_elf = elf_begin(d->ln_fd, ELF_C_READ_MMAP, NULL)))
		d->ln_dw = dwarf_begin_elf(d->ln_elf, DWARF_C_READ, NULL);
	return d->ln_dw;
}

void symcache__want_lines(struct symcache *c)
{
	c->want_lines = true;
}

int symcache__srcline(struct symcache *c, const char *path, uint64_t off, const char **file)
{
	struct dso *d = image_dso(c, path);
	Dwarf *dw = d ? line_dwarf(d) : NULL;
	uint64_t pc;
	Dwarf_Die cu;
	Dwarf_Line *l;
	int line = 0;

	*file = NULL;
	if (!dw)
		return 0;
	pc = offset_to_vaddr(d, off);
	if (!dwarf_addrdie(dw, pc, &cu) || !(l = dwarf_getsrc_die(&cu, pc)) || dwarf_lineno(l, &line))
		return 0;
	*file = dwarf_linesrc(l, NULL, NULL);
	if (*file)
		*file = line_file_binutils(d, &cu, l, *file);
	return *file ? line : 0;
}

/*
 * joined (libdw's directory/name of a line's file) as binutils joins it:
 * a relative name whose directory is relative gets the unit's
 * DW_AT_comp_dir before it too, except before DWARF 5 in directory 0,
 * which is the unit's directory itself (libdw has joined it already).
 */
static void bfd_file_name(Dwarf_Die *cu, const char *joined, char *buf, size_t cap)
{
	Dwarf_Attribute a;
	const char *comp = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a));
	Dwarf_Half version = 0;
	size_t n = comp ? strlen(comp) : 0;

	if (comp && dwarf_cu_info(cu->cu, &version, NULL, NULL, NULL, NULL, NULL, NULL))
		version = 0;
	if (joined[0] == '/' || !n || (version < 5 && !strncmp(joined, comp, n) && joined[n] == '/'))
		snprintf(buf, cap, "%s", joined);
	else
		snprintf(buf, cap, "%s/%s", comp, joined);
}

int symcache__srcline_objdump(struct symcache *c, const char *path, uint64_t off, char *buf, size_t cap,
			      unsigned *discriminator)
{
	struct dso *d = image_dso(c, path);
	Dwarf *dw = d ? line_dwarf(d) : NULL;
	uint64_t pc;
	Dwarf_Die cu;
	Dwarf_Line *l;
	const char *joined;
	int line = 0;

	*discriminator = 0;
	if (cap)
		buf[0] = 0;
	if (!dw)
		return 0;
	pc = offset_to_vaddr(d, off);
	if (!dwarf_addrdie(dw, pc, &cu) || !(l = dwarf_getsrc_die(&cu, pc)) || dwarf_lineno(l, &line) ||
	    !(joined = dwarf_linesrc(l, NULL, NULL)))
		return 0;
	if (dwarf_linediscriminator(l, discriminator))
		*discriminator = 0;
	bfd_file_name(&cu, joined, buf, cap);
	return line;
}

int symcache__srcline_path(struct symcache *c, const char *path, uint64_t off, char *buf, size_t cap)
{
	const char *file;
	int line = symcache__srcline(c, path, off, &file);
	struct dso *d = image_dso(c, path);
	Dwarf_Die cu;

	if (cap)
		buf[0] = 0;
	if (!file || !cap)
		return line;
	/* symcache__srcline found the unit: its DWARF is open */
	if (d && dwarf_addrdie(line_dwarf(d), offset_to_vaddr(d, off), &cu))
		bfd_file_name(&cu, file, buf, cap);
	else
		snprintf(buf, cap, "%s", file);
	return line;
}

/*
 * What addr2line answers for an address its line table has no line for
 * (binutils' elf_find_function): the function symbol of the address's
 * section that starts last at or before it (the larger, then the first in
 * the symbol table, among equal starts), named with the STT_FILE symbol
 * before it in the table; a global symbol gets none once a file symbol
 * has come after another symbol (from .dynsym where there is no .symtab:
 * no files).  One entry per function symbol, in
 * (section, start, larger first, table order) order.
 */
struct fsym {
	size_t shndx;
	uint64_t value, size;
	size_t order;
	const char *file;	/* in the image's string table; NULL: "??" */
};

static int fsym_cmp(const void *pa, const void *pb)
{
	const struct fsym *a = pa, *b = pb;

	if (a->shndx != b->shndx)
		return a->shndx < b->shndx ? -1 : 1;
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	return (a->order > b->order) - (a->order < b->order);
}

/* Whether bfd counts s as a function symbol (its elf_maybe_function_sym): its size then, else 0. */
static uint64_t fsym_size(const GElf_Sym *s)
{
	int type = GELF_ST_TYPE(s->st_info);

	if (type == STT_SECTION || type == STT_FILE || type == STT_OBJECT || type == STT_COMMON || type == STT_TLS ||
	    s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE)
		return 0;
	if (!s->st_size && GELF_ST_BIND(s->st_info) == STB_LOCAL && type == STT_NOTYPE &&
	    GELF_ST_VISIBILITY(s->st_other) == STV_HIDDEN)
		return 0;
	return s->st_size ? s->st_size : 1;
}

static void fsyms_read(struct dso *d, Elf *e, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	enum { NOTHING, SYMBOL, FILE_AFTER } state = NOTHING;
	const char *file = NULL;

	if (!data || !(d->fsyms = calloc(n ? n : 1, sizeof(*d->fsyms))))
		return;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym s;
		uint64_t size;

		if (!gelf_getsym(data, (int)i, &s))
			break;
		if (GELF_ST_TYPE(s.st_info) == STT_FILE) {
			file = elf_strptr(e, sh->sh_link, s.st_name);
			state = state == SYMBOL ? FILE_AFTER : state;
			continue;
		}
		if ((size = fsym_size(&s)))
			d->fsyms[d->nfsyms++] = (struct fsym){
				.shndx = s.st_shndx, .value = s.st_value, .size = size, .order = i,
				.file = GELF_ST_BIND(s.st_info) == STB_LOCAL || state != FILE_AFTER ? file : NULL,
			};
		state = state == NOTHING ? SYMBOL : state;
	}
	qsort(d->fsyms, d->nfsyms, sizeof(*d->fsyms), fsym_cmp);
}

/* The allocated section holding vaddr (the first, as bfd looks), 0: none. */
static size_t section_of(Elf *e, uint64_t vaddr)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) && !(sh.sh_flags & SHF_TLS) &&
		    vaddr >= sh.sh_addr && vaddr < sh.sh_addr + sh.sh_size)
			return elf_ndxscn(scn);
	return 0;
}

/*
 * The ELF whose symbols addr2line looks in: the symbol file's, where its
 * DWARF is a separate file's with a symbol table (binutils' dwarf2 reader
 * then asks that file's symbols), else the image's.
 */
static Elf *fsyms_elf(struct dso *d)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (line_dwarf(d) && d->ln_elf)
		while ((scn = elf_nextscn(d->ln_elf, scn)))
			if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
				return d->ln_elf;
	return d->img_elf;
}

static void fsyms_load(struct dso *d)
{
	Elf *e = fsyms_elf(d);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	d->fs_elf = e;
	/* addr2line reads the dynamic symbols where there is no symbol table */
	for (int t = 0; e && t < 2 && !d->fsyms; t++)
		while ((scn = elf_nextscn(e, scn)))
			if (gelf_getshdr(scn, &sh) && sh.sh_type == (t ? SHT_DYNSYM : SHT_SYMTAB)) {
				fsyms_read(d, e, scn, &sh);
				break;
			}
}

bool symcache__file_symbol(struct symcache *c, const char *path, uint64_t off, const char **file)
{
	struct dso *d = image_dso(c, path);
	const struct fsym *best;
	uint64_t pc;
	size_t shndx, lo = 0, hi;

	*file = NULL;
	if (!d || !d->img_elf)
		return false;
	if (!d->fs_tried) {
		d->fs_tried = true;
		fsyms_load(d);
	}
	pc = offset_to_vaddr(d, off);
	if (!d->nfsyms || !(shndx = section_of(d->fs_elf, pc)))
		return false;
	/* the last entry at or before (shndx, pc), then the first of its start */
	hi = d->nfsyms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct fsym *f = &d->fsyms[mid];

		if (f->shndx < shndx || (f->shndx == shndx && f->value <= pc))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || d->fsyms[lo - 1].shndx != shndx)
		return false;
	best = &d->fsyms[lo - 1];
	while (best > d->fsyms && best[-1].shndx == shndx && best[-1].value == best->value)
		best--;
	*file = best->file;
	return true;
}

bool symcache__has_image(struct symcache *c, const char *path)
{
	return image_dso(c, path) != NULL;
}

const struct sym *symcache__nearest(struct symcache *c, const char *path, uint64_t off)
{
	struct dso *d = dso_by_name(c, path);
	const struct sym *s;
	size_t i;

	if (!d)
		return NULL;
	c->last_path = path;
	c->last_dso = d;
	if (d->plt && (s = find_in(d->plt, off)))
		return s;
	i = d->syms ? first_after(d, off) : 0;
	return i ? &d->syms[i - 1] : NULL;
}
