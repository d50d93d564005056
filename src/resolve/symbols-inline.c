// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's inline frames of a user address (symcache__inlines): the
 * functions the DWARF of the DSO's symbol file places there, innermost
 * first, as addr2line -i names them, cached per DSO and address.
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
#include "../lib/hash.h"
#include "symbols-internal.h"
#include "symbols.h"

/*
 * The .debug_* sections an inline lookup never reads: the line table,
 * location lists, macros, the frame table, the name indexes.
 */
static bool unread_section(const char *name)
{
	static const char *const unread[] = {
		"line", "loc", "loclists", "macro", "macinfo", "frame", "pubnames", "pubtypes", "names",
		"gnu_pubnames", "gnu_pubtypes",
	};

	if (!strncmp(name, ".debug_", 7))
		name += 7;
	else if (!strncmp(name, ".zdebug_", 8))
		name += 8;
	else
		return false;
	for (size_t i = 0; i < sizeof(unread) / sizeof(unread[0]); i++)
		if (!strcmp(name, unread[i]))
			return true;
	return false;
}

/*
 * libdw inflates every compressed .debug_* section of a file when it
 * opens it as DWARF (the separate debug files of libc and ld.so are
 * compressed), most of them for nothing here: the file is mapped
 * privately and the sections an inline lookup never reads are renamed
 * in that copy of the section names (".debug_line" -> "_debug_line"),
 * so that libdw leaves them alone.  The file is never written.
 */
static Elf *dwarf_elf(int fd)
{
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	Elf_Scn *scn = NULL, *strscn;
	Elf_Data *names;
	size_t shstrndx;

	if (!e || elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstrndx) ||
	    !(strscn = elf_getscn(e, shstrndx)) || !(names = elf_getdata(strscn, NULL)) || !names->d_buf)
		return e;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_name >= names->d_size)
			continue;
		char *name = (char *)names->d_buf + sh.sh_name;

		if (memchr(name, 0, names->d_size - sh.sh_name) && unread_section(name))
			name[0] = '_';
	}
	return e;
}

/*
 * The DWARF of the file the DSO's symbols came from (a separate debug
 * file, or the file itself), opened at the first lookup.
 */
static Dwarf *dso_dwarf(struct dso *d)
{
	const char *src = d->symsrc ? d->symsrc : d->runtime ? d->runtime : d->path;

	/* annotation opened the whole DWARF (symbols-line.c): the same answers, inflated once */
	if (d->ln_dw)
		return d->ln_dw;
	if (d->dw_tried)
		return d->dw;
	d->dw_tried = true;
	d->dw_fd = src[0] == '/' ? host_open_regular(src) : -1;
	if (d->dw_fd >= 0 && (d->dw_elf = dwarf_elf(d->dw_fd)))
		d->dw = dwarf_begin_elf(d->dw_elf, DWARF_C_READ, NULL);
	if (d->dw_fd >= 0 && !d->dw) {
		elf_end(d->dw_elf);
		d->dw_elf = NULL;
		close(d->dw_fd);
		d->dw_fd = -1;
	}
	return d->dw;
}

uint64_t offset_to_vaddr(const struct dso *d, uint64_t off)
{
	for (size_t k = 0; k < d->sg.n; k++)
		if (off >= d->sg.v[k].p_offset && off < d->sg.v[k].p_offset + d->sg.v[k].p_filesz)
			return off - d->sg.v[k].p_offset + d->sg.v[k].p_vaddr;
	return off;
}

/* A function's name as binutils gives it: its linkage name (an asm label's) first. */
static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));

	if (!name)
		name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
	return name ? name : dwarf_diename(die);
}

/*
 * An assembler's CU has a subprogram per alias of a function, all over
 * the same range: binutils names the function after the last of them.
 */
static const char *last_alias_name(Dwarf_Die *die, uint64_t pc)
{
	Dwarf_Die cur = *die, next;
	Dwarf_Addr lo, hi, lo2, hi2;

	if (dwarf_lowpc(die, &lo) || dwarf_highpc(die, &hi))
		return die_name(die);
	while (dwarf_siblingof(&cur, &next) == 0) {
		if (dwarf_tag(&next) != DW_TAG_subprogram || dwarf_lowpc(&next, &lo2) || dwarf_highpc(&next, &hi2) ||
		    lo2 != lo || hi2 != hi || pc < lo2 || pc >= hi2)
			break;
		cur = next;
	}
	return die_name(&cur);
}

/* The functions at addr, innermost first, as addr2line -i names them: into i. */
static int add_inline_name(struct inl *i, const char *name, bool raw)
{
	const char **v = realloc(i->names, (i->n + 1) * sizeof(*v));
	char *copy;

	if (v)
		i->names = v;
	if (!v || (!(copy = raw ? NULL : demangle(name)) && !(copy = strdup(name))))
		return -ENOMEM;
	i->names[i->n++] = copy;
	return 0;
}

/* Whether a DIE is a function: a subprogram or an inlined instance. */
static bool is_function(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine;
}

/* The innermost function of path[0..k), outermost first, or -1. */
static int inner_function(Dwarf_Die *path, int k)
{
	while (--k >= 0 && !is_function(&path[k]))
		;
	return k;
}

/*
 * How dwarf_getscopes classes a DIE it walks: one whose address ranges
 * may hold pc (looked into only when they do), one without addresses
 * that may own such DIEs (always looked into), or one it never enters.
 */
enum scope_class { SCOPE_NONE, SCOPE_MATCH, SCOPE_WALK };

static enum scope_class scope_class(Dwarf_Die *die)
{
	switch (dwarf_tag(die)) {
	case DW_TAG_compile_unit: case DW_TAG_module: case DW_TAG_lexical_block: case DW_TAG_with_stmt:
	case DW_TAG_catch_block: case DW_TAG_try_block: case DW_TAG_entry_point: case DW_TAG_inlined_subroutine:
	case DW_TAG_subprogram:
		return SCOPE_MATCH;
	case DW_TAG_namespace: case DW_TAG_class_type: case DW_TAG_structure_type:
		return SCOPE_WALK;
	default:
		return SCOPE_NONE;
	}
}

#define PC_PATH_MAX 256

/*
 * The DIEs from below parent down to the innermost one that holds pc,
 * appended to path[n..): the new length, or n when none does.  The walk
 * dwarf_getscopes does (depth first, the first DIE that holds pc at each
 * level), but in the concrete tree all the way up, so that each inlined
 * instance's caller is the function above it in the path: one pass over
 * the CU's top level per address, where dwarf_getscopes_die walked the
 * whole CU for every inlined level.
 */
static int pc_path(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *path, int n)
{
	Dwarf_Die child;
	int m;

	if (n >= PC_PATH_MAX || dwarf_child(parent, &child) != 0)
		return n;
	do {
		switch (scope_class(&child)) {
		case SCOPE_MATCH:
			if (dwarf_haspc(&child, pc) != 1)
				break;
			path[n] = child;
			return pc_path(&path[n], pc, path, n + 1);
		case SCOPE_WALK:
			path[n] = child;
			if ((m = pc_path(&path[n], pc, path, n + 1)) > n + 1)
				return m;
			break;
		case SCOPE_NONE:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return n;
}

/*
 * The functions at addr, innermost first, as addr2line -i names them:
 * the innermost function at pc, then, while that is an inlined instance,
 * the function it was inlined into (its parent in the concrete tree, not
 * in the inline function's own definition, which is where dwarf_getscopes
 * goes on).  Into i.
 */
static int lookup_inlines(struct dso *d, uint64_t addr, struct inl *i)
{
	Dwarf *dw = dso_dwarf(d);
	uint64_t pc = offset_to_vaddr(d, addr);
	Dwarf_Die cu, path[PC_PATH_MAX];
	int k, depth = 0;

	if (!dw || !dwarf_addrdie(dw, pc, &cu) || (k = inner_function(path, pc_path(&cu, pc, path, 0))) < 0)
		return 0;
	for (;;) {
		Dwarf_Die *fn = &path[k];
		const char *name = !i->n && dwarf_tag(fn) == DW_TAG_subprogram ? last_alias_name(fn, pc) : die_name(fn);

		if (name && add_inline_name(i, name, d->raw_names))
			return -ENOMEM;
		if (dwarf_tag(fn) != DW_TAG_inlined_subroutine || ++depth > 64)
			return 0;
		/* Where the instance sits: the function it was inlined into. */
		if ((k = inner_function(path, k)) < 0)
			return 0;
	}
}

size_t symcache__inlines(struct symcache *c, const char *path, uint64_t addr, const char *const **names)
{
	struct dso *d = dso_by_name(c, path);
	size_t b = (size_t)(hash_u64(addr) % INL_BUCKETS);
	struct inl *i;

	*names = NULL;
	if (!d || !d->syms || !strcmp(path, "[vdso]") || !strncmp(path, "/tmp/perf-", 10))
		return 0;
	c->last_path = path;
	c->last_dso = d;
	if (!d->inl && !(d->inl = calloc(INL_BUCKETS, sizeof(*d->inl))))
		return 0;
	for (i = d->inl[b]; i; i = i->next)
		if (i->addr == addr)
			break;
	if (!i) {
		if (!(i = calloc(1, sizeof(*i))))
			return 0;
		i->addr = addr;
		if (c->want_lines)
			line_dwarf(d);	/* dso_dwarf takes it, inflated once for both */
		if (lookup_inlines(d, addr, i)) {
			for (size_t k = 0; k < i->n; k++)
				free((char *)i->names[k]);
			i->n = 0;
		}
		i->next = d->inl[b];
		d->inl[b] = i;
	}
	*names = i->names;
	return i->n;
}

size_t symcache__inline_calls(struct symcache *c, const char *path, uint64_t addr, char (*calls)[256], size_t max)
{
	struct dso *d = dso_by_name(c, path);
	Dwarf_Die cu, path_dies[PC_PATH_MAX];
	Dwarf_Files *files;
	Dwarf_Attribute at;
	Dwarf_Word fileno, line;
	Dwarf *dw;
	uint64_t pc;
	size_t n = 0, nfiles;
	int k;

	if (!d || !d->syms || path[0] != '/' || !(dw = line_dwarf(d)))
		return 0;
	pc = offset_to_vaddr(d, addr);
	if (!dwarf_addrdie(dw, pc, &cu) || dwarf_getsrcfiles(&cu, &files, &nfiles) ||
	    (k = inner_function(path_dies, pc_path(&cu, pc, path_dies, 0))) < 0)
		return 0;
	while (n < max && dwarf_tag(&path_dies[k]) == DW_TAG_inlined_subroutine) {
		const char *file = NULL, *base;

		if (dwarf_attr_integrate(&path_dies[k], DW_AT_call_file, &at) && !dwarf_formudata(&at, &fileno))
			file = dwarf_filesrc(files, fileno, NULL, NULL);
		if (!dwarf_attr_integrate(&path_dies[k], DW_AT_call_line, &at) || dwarf_formudata(&at, &line))
			line = 0;
		if (file && (base = strrchr(file, '/')))
			file = base + 1;
		snprintf(calls[n++], sizeof(calls[0]), "%s:%u", file ? file : "??", (unsigned)line);
		if ((k = inner_function(path_dies, k)) < 0)
			break;
	}
	return n;
}

/* Room for one more scope in *v: its slot, or NULL. */
static struct symcache_scope *scope_add(struct symcache_scope **v, size_t *n, size_t *cap)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		struct symcache_scope *nv = realloc(*v, c * sizeof(*nv));

		if (!nv)
			return NULL;
		*v = nv;
		*cap = c;
	}
	return &(*v)[(*n)++];
}

/*
 * The function line objdump -l -C prints for name (without its colon):
 * demangled with its parameters, whose parentheses stand for objdump's
 * "()", or the name as it is and "()".
 */
static char *objdump_function_line(const char *name)
{
	char *d = name[0] == '_' ? demangle_params(name) : NULL, *out;

	if (d)
		return d;
	return asprintf(&out, "%s()", name) < 0 ? NULL : out;
}

/* die's address ranges as scopes named name at depth, into v. */
static int add_ranges(Dwarf_Die *die, const char *name, int depth, struct symcache_scope **v, size_t *n,
		      size_t *cap)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	char *copy;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		struct symcache_scope *s = scope_add(v, n, cap);

		if (!s || (!(copy = demangle(name)) && !(copy = strdup(name))))
			return -ENOMEM;
		*s = (struct symcache_scope){ .lo = lo, .hi = hi, .name = copy, .depth = depth };
		if (!(s->line = objdump_function_line(name)))
			return -ENOMEM;
	}
	return 0;
}

/* The inlined instances under die (blocks looked into), each at its depth. */
static int walk_inlines(Dwarf_Die *die, int depth, struct symcache_scope **v, size_t *n, size_t *cap)
{
	Dwarf_Die child;
	const char *name;
	int err;

	if (depth > 64 || dwarf_child(die, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_inlined_subroutine) {
			if ((name = die_name(&child)) && (err = add_ranges(&child, name, depth + 1, v, n, cap)))
				return err;
			if ((err = walk_inlines(&child, depth + 1, v, n, cap)))
				return err;
		} else if (tag == DW_TAG_lexical_block || tag == DW_TAG_try_block || tag == DW_TAG_catch_block) {
			if ((err = walk_inlines(&child, depth, v, n, cap)))
				return err;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

size_t symcache__scopes(struct symcache *c, const char *path, uint64_t start, struct symcache_scope **out)
{
	struct dso *d = dso_by_name(c, path);
	Dwarf *dw;
	Dwarf_Die cu, fn;
	struct symcache_scope *v = NULL;
	size_t n = 0, cap = 0;
	uint64_t pc;
	const char *name;

	*out = NULL;
	if (!d || !d->syms || path[0] != '/' || !(dw = dso_dwarf(d)))
		return 0;
	c->last_path = path;
	c->last_dso = d;
	pc = offset_to_vaddr(d, start);
	if (!dwarf_addrdie(dw, pc, &cu) || dwarf_child(&cu, &fn) != 0)
		return 0;
	/* the subprogram at pc: one pass over the CU's children, not one per address */
	for (int r = 0; dwarf_tag(&fn) != DW_TAG_subprogram || dwarf_haspc(&fn, pc) != 1; ) {
		if ((r = dwarf_siblingof(&fn, &fn)) != 0)
			return 0;
	}
	if (!(name = last_alias_name(&fn, pc)) || add_ranges(&fn, name, 0, &v, &n, &cap) ||
	    walk_inlines(&fn, 0, &v, &n, &cap)) {
		symcache__scopes_free(v, n);
		return 0;
	}
	*out = v;
	return n;
}

void symcache__scopes_free(struct symcache_scope *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free((char *)v[i].name);
		free((char *)v[i].line);
	}
	free(v);
}
