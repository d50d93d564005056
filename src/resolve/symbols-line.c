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
static struct dso *image_dso(struct symcache *c, const char *path)
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
static Dwarf *line_dwarf(struct dso *d)
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
	return *file ? line : 0;
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
