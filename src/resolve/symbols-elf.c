// SPDX-License-Identifier: GPL-2.0-only
/*
 * The symbols of an ELF file as perf reads a DSO's (load_dso, load_vdso):
 * the file that ran (by its recorded build id, else perf's build-id
 * cache's copy), its .symtab or that of its separate debug info
 * (.gnu_debuglink, the build-id cache, /usr/lib/debug), else its .dynsym,
 * and its PLT entries.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../host/host.h"
#include "../lib/buf.h"
#include "symbols-internal.h"

Elf_Scn *find_section(Elf *e, Elf64_Word type, GElf_Shdr *out)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, out) && out->sh_type == type)
			return scn;
	return NULL;
}

/* The PT_LOAD segments of the runtime image, which place symbols in file-offset space. */
static void load_segments(Elf *e, struct segs *sg)
{
	size_t n;

	sg->n = 0;
	if (elf_getphdrnum(e, &n))
		return;
	for (size_t i = 0; i < n && sg->n < 32; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
			sg->v[sg->n++] = ph;
	}
}

/*
 * Symbols of e's .symtab (want_symtab) or .dynsym, as perf takes them:
 * functions and objects of the sections the program loads, and labels
 * of text sections.  An address moves to
 * file-offset space by the runtime image's segment that holds it, else by
 * its section.  Returns -ENOENT when e has no such table.
 */
static int load_elf_symbols(Elf *e, const struct segs *sg, bool want_symtab, struct loader *l)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(e, want_symtab ? SHT_SYMTAB : SHT_DYNSYM, &sh);
	size_t shstrndx;
	Elf_Data *data;

	if (!scn || elf_getshdrstrndx(e, &shstrndx))
		return -ENOENT;
	/* Debug files may carry compressed sections (SHF_COMPRESSED): libelf inflates them. */
	if (sh.sh_flags & SHF_COMPRESSED)
		elf_compress(scn, 0, 0);
	Elf_Scn *strscn = elf_getscn(e, sh.sh_link);
	GElf_Shdr strsh;

	if (strscn && gelf_getshdr(strscn, &strsh) && (strsh.sh_flags & SHF_COMPRESSED))
		elf_compress(strscn, 0, 0);
	data = elf_getdata(scn, NULL);
	if (!data || !sh.sh_entsize)
		return -ENOENT;
	for (size_t i = 0, n = sh.sh_size / sh.sh_entsize; i < n; i++) {
		GElf_Sym s;
		GElf_Shdr ssh;
		Elf_Scn *sscn;
		const char *name, *secname;
		int type;
		bool is_func, is_label;
		uint64_t start;
		size_t k;

		if (!gelf_getsym(data, (int)i, &s) || !s.st_name || s.st_shndx == SHN_UNDEF ||
		    s.st_shndx == SHN_ABS || s.st_shndx >= SHN_LORESERVE)
			continue;
		type = GELF_ST_TYPE(s.st_info);
		is_func = type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT;
		is_label = type == STT_NOTYPE && GELF_ST_VISIBILITY(s.st_other) != STV_HIDDEN &&
			   GELF_ST_VISIBILITY(s.st_other) != STV_INTERNAL;
		if (!is_func && !is_label)
			continue;
		sscn = elf_getscn(e, s.st_shndx);
		if (!sscn || !gelf_getshdr(sscn, &ssh))
			continue;
		secname = elf_strptr(e, shstrndx, ssh.sh_name);
		/* Functions and objects of any section the program loads; labels of text and data (perf's elf_sec__filter). */
		if (!(ssh.sh_flags & SHF_ALLOC) ||
		    (is_label && (!secname || (!strstr(secname, "text") && !strstr(secname, "data")))))
			continue;
		name = elf_strptr(e, sh.sh_link, s.st_name);
		if (!name || !*name || name[0] == '$')
			continue;
		start = s.st_value;
		for (k = 0; k < sg->n; k++)
			if (start >= sg->v[k].p_vaddr && start < sg->v[k].p_vaddr + sg->v[k].p_memsz)
				break;
		if (k < sg->n)
			start -= sg->v[k].p_vaddr - sg->v[k].p_offset;
		else
			start -= ssh.sh_addr - ssh.sh_offset;
		char *dm = l->raw ? NULL : demangle(name);
		int err = add_sym(l, start, s.st_size, dm ? dm : name,
				  (unsigned char)(GELF_ST_BIND(s.st_info) | (type == STT_OBJECT ? ADD_SYM_OBJECT : 0)));

		free(dm);
		if (err)
			return err;
	}
	return 0;
}

/* The build id of an ELF, as lowercase hex; 0 or -1. */
static int elf_build_id(Elf *e, char hex[2 * HOST_BUILD_ID_MAX + 1])
{
	unsigned char id[HOST_BUILD_ID_MAX];
	size_t n = host_elf_build_id(e, id);

	if (!n)
		return -1;
	host_build_id_hex(id, n, hex);
	return 0;
}

/*
 * Load the .symtab of the ELF at path into l: 0, or -1 when it has none,
 * or its build id is not bid (when bid is not empty).
 */
static int try_symtab(const char *path, char origin, const char *bid, const struct segs *sg, struct loader *l)
{
	int fd = host_open_regular(path), err = -1;
	char have[2 * HOST_BUILD_ID_MAX + 1];
	Elf *e;

	if (fd < 0)
		return -1;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_ELF && find_section(e, SHT_SYMTAB, &(GElf_Shdr){ 0 }) &&
	    (!bid[0] || (elf_build_id(e, have) == 0 && !strcmp(have, bid))))
		err = load_elf_symbols(e, sg, true, l) ? -1 : 0;
	if (!err) {
		free(l->src);
		l->src = strdup(path);
		l->origin = origin;
	}
	elf_end(e);
	close(fd);
	return err;
}

/* The name in e's .gnu_debuglink, or NULL. */
static const char *debuglink(Elf *e)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		const char *name;
		Elf_Data *data;

		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(e, shstrndx, sh.sh_name)) &&
		    !strcmp(name, ".gnu_debuglink") && (data = elf_getdata(scn, NULL)) && data->d_size &&
		    memchr(data->d_buf, 0, data->d_size))
			return data->d_buf;
	}
	return NULL;
}

/*
 * perf's build-id cache (src/host/bidcache.c has its layout): the link
 * ~/.debug/.build-id/xx/<rest> leads to a directory holding "elf" and
 * maybe "debug"; in the old layout the link was the file itself.  perf's
 * archive unpacks the same tree.  The name of base for build id bid, in
 * p: false without HOME or an id.
 */
bool cache_file(char *p, size_t len, const char *bid, const char *base)
{
	char dir[4096];
	struct stat st;

	if (host_bidcache_dir(dir, sizeof(dir)) || host_bidcache_link(dir, bid, NULL, p, len))
		return false;
	if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
		return true;
	return host_bidcache_link(dir, bid, base, p, len) == 0;
}

/*
 * perf's order of places for a DSO's symbols; the first with a .symtab
 * wins: the .gnu_debuglink target (as named, next to the file, in its
 * .debug/, under /usr/lib/debug), perf's build-id cache, then
 * /usr/lib/debug by path and by build id, then the file itself.
 */
static int load_symtab(Elf *e, const char *path, const struct segs *sg, struct loader *l)
{
	const char *link = debuglink(e);
	char bid[2 * HOST_BUILD_ID_MAX + 1] = "", dir[4096], p[8400];
	bool have_bid = elf_build_id(e, bid) == 0 && strlen(bid) > 2;
	char *slash;

	if (!have_bid)
		bid[0] = 0;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	if (link) {
		if (try_symtab(link, 'l', bid, sg, l) == 0)
			return 0;
		snprintf(p, sizeof(p), "%s/%s", dir, link);
		if (strcmp(p, path) && try_symtab(p, 'l', bid, sg, l) == 0)
			return 0;
		snprintf(p, sizeof(p), "%s/.debug/%s", dir, link);
		if (try_symtab(p, 'l', bid, sg, l) == 0)
			return 0;
		snprintf(p, sizeof(p), "/usr/lib/debug%s/%s", dir, link);
		if (try_symtab(p, 'l', bid, sg, l) == 0)
			return 0;
	}
	if (have_bid) {
		if (cache_file(p, sizeof(p), bid, "elf") && try_symtab(p, 'B', bid, sg, l) == 0)
			return 0;
		if (cache_file(p, sizeof(p), bid, "debug") && try_symtab(p, 'D', bid, sg, l) == 0)
			return 0;
	}
	snprintf(p, sizeof(p), "/usr/lib/debug%s.debug", path);
	if (try_symtab(p, 'f', bid, sg, l) == 0)
		return 0;
	snprintf(p, sizeof(p), "/usr/lib/debug%s", path);
	if (try_symtab(p, 'u', bid, sg, l) == 0)
		return 0;
	if (have_bid) {
		if (!host_system_debug_path(bid, p, sizeof(p)) && try_symtab(p, 'b', bid, sg, l) == 0)
			return 0;
	}
	return load_elf_symbols(e, sg, true, l) ? -1 : 0;
}

/*
 * perf names PLT entries after their relocation: entry k of .plt (after the
 * header entry) is "<dynamic symbol>@plt" ("@plt" when the relocation has
 * no symbol, as IRELATIVE ones), from .rela.plt (else .rel.plt).  Added
 * after the fixups, with their size, and only for a file whose symbol
 * table (.symtab, else .dynsym) gave symbols: a stripped program whose
 * .dynsym defines none has no PLT symbols in perf ([unknown]).
 */
/* Relocation k of a .rela.plt or a .rel.plt (its r_info alone matters). */
static bool plt_reloc(Elf_Data *rd, GElf_Word type, size_t k, GElf_Rela *r)
{
	GElf_Rel rel;

	if (type == SHT_RELA)
		return gelf_getrela(rd, (int)k, r) != NULL;
	if (!gelf_getrel(rd, (int)k, &rel))
		return false;
	r->r_offset = rel.r_offset;
	r->r_info = rel.r_info;
	r->r_addend = 0;
	return true;
}

static int add_plt_symbols(Elf *e, struct loader *l)
{
	Elf_Scn *scn = NULL, *plt = NULL, *rela = NULL;
	GElf_Shdr sh, plt_sh = { 0 }, rela_sh = { 0 }, dyn_sh;
	size_t shstrndx;

	if (elf_getshdrstrndx(e, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(e, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)))
			continue;
		if (!strcmp(name, ".plt")) {
			plt = scn;
			plt_sh = sh;
		} else if ((!strcmp(name, ".rela.plt") && sh.sh_type == SHT_RELA) ||
			   (!rela && !strcmp(name, ".rel.plt") && sh.sh_type == SHT_REL)) {
			rela = scn;	/* perf's: .rela.plt, else .rel.plt */
			rela_sh = sh;
		}
	}
	if (!plt || !rela || !plt_sh.sh_entsize || !rela_sh.sh_entsize)
		return 0;
	Elf_Scn *dyn = elf_getscn(e, rela_sh.sh_link);
	Elf_Data *rd = elf_getdata(rela, NULL), *dd;

	if (!dyn || !gelf_getshdr(dyn, &dyn_sh) || !rd || !(dd = elf_getdata(dyn, NULL)))
		return 0;
	for (size_t k = 0, n = rela_sh.sh_size / rela_sh.sh_entsize; k < n; k++) {
		GElf_Rela r;
		GElf_Sym sym;
		const char *name = "";
		char buf[1024];
		size_t idx;

		if (!plt_reloc(rd, rela_sh.sh_type, k, &r))
			continue;
		idx = GELF_R_SYM(r.r_info);
		if (idx && gelf_getsym(dd, (int)idx, &sym) && !(name = elf_strptr(e, dyn_sh.sh_link, sym.st_name)))
			name = "";
		char *dm = l->raw ? NULL : demangle(name);

		snprintf(buf, sizeof(buf), "%s@plt", dm ? dm : name);
		free(dm);
		if (add_sym(l, plt_sh.sh_offset + plt_sh.sh_entsize * (k + 1), plt_sh.sh_entsize, buf, STB_GLOBAL))
			return -ENOMEM;
	}
	return 0;
}

/* The ELF at path, open, if its build id is want; else -1. */
int open_matching(const char *path, const char *want)
{
	int fd = host_open_regular(path);
	char have[2 * HOST_BUILD_ID_MAX + 1];
	Elf *e;
	bool ok;

	if (fd < 0)
		return -1;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	ok = e && elf_kind(e) == ELF_K_ELF && elf_build_id(e, have) == 0 && !strcmp(have, want);
	elf_end(e);
	if (ok)
		return fd;
	close(fd);
	return -1;
}

/*
 * The file that ran: path itself if its build id is the recorded one (with
 * symfs, perf's --symfs, symfs/path and never path), else the copy in
 * perf's build-id cache (named base there), which is all there is once
 * the file is gone or rebuilt, or on another machine.
 */
static int open_runtime(const char *path, const char *want, const char *base, const char *symfs, char **used)
{
	char p[4096];
	int fd;

	*used = NULL;
	if (symfs && snprintf(p, sizeof(p), "%s%s", symfs, path) < (int)sizeof(p) &&
	    (fd = want[0] ? open_matching(p, want) : host_open_regular(p)) >= 0) {
		if (!(*used = strdup(p))) {
			close(fd);
			return -1;
		}
		return fd;
	}
	if (!symfs && !want[0])
		return host_open_regular(path);
	if (!symfs && (fd = open_matching(path, want)) >= 0)
		return fd;
	if (!want[0] || !cache_file(p, sizeof(p), want, base) || (fd = open_matching(p, want)) < 0)
		return -1;
	if (!(*used = strdup(p))) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * perf's letter for a table read from the file that ran: the first place
 * in its order with a .dynsym, the build-id cache ('B') before the file
 * at its path ('d').
 */
static char runtime_origin(const struct dso *d, const char *want, const char *symfs)
{
	char p[4096];

	if (d->runtime && !symfs)
		return 'B';
	return want[0] && cache_file(p, sizeof(p), want, "elf") && access(p, R_OK) == 0 ? 'B' : 'd';
}

void load_dso(struct dso *d, const char *want, const char *base, const char *symfs)
{
	struct loader l = { .raw = d->raw_names };
	struct rsym *tab = NULL;
	size_t ntab = 0;
	int fd = open_runtime(d->path, want, base, symfs, &d->runtime);
	struct segs sg;
	Elf *e = NULL;

	if (fd < 0)
		return;
	d->usable = true;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_ELF) {
		struct loader pl = { .raw = d->raw_names };
		struct dso plt = { 0 };

		load_segments(e, &sg);
		d->sg = sg;
		if (load_symtab(e, d->path, &sg, &l)) {
			l.n = 0;
			l.names.len = 0;
			load_elf_symbols(e, &sg, false, &l);
		}
		tab = l.n ? malloc(l.n * sizeof(*tab)) : NULL;
		if (tab)
			memcpy(tab, l.v, l.n * sizeof(*tab));
		ntab = l.n;
		finish_table(&l, d);
		d->origin = l.origin ? l.origin : runtime_origin(d, want, symfs);
		d->symsrc = l.src ? l.src : d->runtime ? strdup(d->runtime) : NULL;
		l.src = NULL;
		/* perf synthesizes a PLT only for a file whose symbol table gave it symbols */
		if (ntab && add_plt_symbols(e, &pl) == 0 && pl.n) {
			/* No fixups for these: build their table by hand. */
			plt.syms = malloc(pl.n * sizeof(*plt.syms));
			if (plt.syms) {
				for (size_t i = 0; i < pl.n; i++) {
					plt.syms[i].start = pl.v[i].start;
					plt.syms[i].end = pl.v[i].end;
					plt.syms[i].name = pl.names.p + pl.v[i].name;
				}
				plt.names = pl.names.p;
				pl.names.p = NULL;
				plt.n = pl.n;
				d->plt = malloc(sizeof(*d->plt));
				if (d->plt)
					*d->plt = plt;
				else
					dso_free_tables(&plt);
			}
		}
		free(pl.v);
		mbuf_free(&pl.names);
		/* Without memory for the replay, lookups fall back on the tables. */
		if (tab && overlaps(d))
			(void)replay_tree(d, tab, ntab);
		free(tab);
	}
	elf_end(e);
	close(fd);
	free(l.v);
	mbuf_free(&l.names);
}

/*
 * perf reads the vdso of its own process for [vdso] samples of a file that
 * names no build id for it (its dso is made at the first [vdso] map, from
 * a copy of perf's own); when the file names one, only perf's build-id
 * cache has it (load_dso).
 */
void load_vdso(struct dso *d)
{
	struct loader l = { .raw = d->raw_names };
	const void *img;
	size_t len;
	struct segs sg;
	Elf *e;

	if (host_vdso(&img, &len))
		return;
	d->usable = true;
	d->origin = 'B';	/* perf's copy of its vdso goes through its build-id cache */
	e = elf_memory((char *)(uintptr_t)img, len);
	if (e && elf_kind(e) == ELF_K_ELF) {
		load_segments(e, &sg);
		if (load_elf_symbols(e, &sg, true, &l)) {
			l.n = 0;
			l.names.len = 0;
			load_elf_symbols(e, &sg, false, &l);
		}
		finish_table(&l, d);
	}
	elf_end(e);
	free(l.v);
	mbuf_free(&l.names);
}
