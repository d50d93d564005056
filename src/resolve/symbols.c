// SPDX-License-Identifier: GPL-2.0-only
/*
 * Symbol tables, perf's way: functions, objects and text labels from the
 * ELF .symtab (else .dynsym, else the .symtab of separate debug info),
 * in file-offset space (ET_EXEC symbols are moved from their section's
 * address to its file offset; ET_DYN ones are used as they are), sorted,
 * duplicates resolved as perf resolves them, and zero-sized symbols
 * extended to the next one.  Kernel symbols come from /proc/kallsyms.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <ctype.h>
#include <gelf.h>
#include <libiberty/demangle.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../host/host.h"
#include "../lib/alloc.h"
#include "../lib/rbtree.h"
#include "../lib/buf.h"
#include "../lib/hash.h"
#include "../lib/log.h"
#include "../perfdata/perfdata.h"
#include "symbols.h"

#define DSO_BUCKETS 256
/* perf ends a last or open-ended symbol at a page boundary (its PAGE_SIZE, 4 KiB on x86). */
#define SYM_PAGE 4096ULL

struct rsym {		/* while loading; becomes a struct sym in place */
	uint64_t start, end;
	uint32_t name;		/* offset in the name pool */
	uint32_t order : 28;	/* position in the table, to keep aliases in order */
	uint32_t bind : 4;
};
_Static_assert(sizeof(struct rsym) == sizeof(struct sym), "a table is converted in place");

/* perf's symbol tree, replayed (replay_tree()) */
struct tnode {
	struct rb_node n;	/* first: a node is its tnode */
	struct rsym s;
	const struct sym *sym;	/* the entry of the dso's tables a lookup here returns */
};

struct stree {
	struct rb_node *root;
	struct tnode *nodes;
};

struct segs {
	GElf_Phdr v[32];
	size_t n;
};

/* The functions DWARF places at an address, innermost first (perf's inline list). */
struct inl {
	struct inl *next;
	uint64_t addr;		/* in file-offset space */
	size_t n;
	const char **names;	/* in the dso's pool */
};

#define INL_BUCKETS 1024

struct dso {
	struct dso *next;
	char *path;
	struct sym *syms;
	size_t n;
	char *names;
	struct dso *plt;	/* name@plt entries: used where no other symbol covers */
	struct stree *tree;	/* perf's tree, replayed where symbols overlap (else NULL) */
	/* Inline frames: from the DWARF of the file the symbols came from (perf's symsrc). */
	char *symsrc;
	char *runtime;		/* the copy that ran, when the file at path is another build */
	bool usable;		/* the file that ran could be opened */
	struct segs sg;		/* the runtime image's, to go back from file offsets to addresses */
	Dwarf *dw;
	Elf *dw_elf;		/* what dw reads (its unused sections renamed away) */
	int dw_fd;
	bool dw_tried;
	struct inl **inl;	/* [INL_BUCKETS], made at the first lookup */
};

static void dso_free_tables(struct dso *d)
{
	free(d->syms);
	free(d->names);
}

/* A kallsyms symbol as perf keeps it, its module apart. */
struct ksym {
	uint64_t start, end;
	uint32_t name;		/* offset in the text */
	uint32_t mod;		/* offset in the text of its module's "[name]", or KMOD_NONE */
	uint32_t line;		/* its line in the file */
	char type;		/* kallsyms' letter: 'T', 't', 'W', 'D'... */
};
#define KMOD_NONE UINT32_MAX

/* kallsyms, split: the kernel's symbols by address, then each module's by address. */
struct ksyms {
	char *text;
	struct ksym *v;
	size_t n, nkernel, cap;
	/* The first function lines named _text and _stext (perf's reference symbols). */
	uint64_t text_addr, stext_addr;
	bool has_text, has_stext;
	char *path;		/* the file read */
};

static void ksyms_free(struct ksyms *k);

/*
 * A kernel image (vmlinux) found by build id, as perf loads it: its
 * symbols in file-offset space (each moved by its section's address less
 * its offset), those of .text for the kernel's map, each other section's
 * for a map of its own, "[kernel.kallsyms]" and the section's name.
 */
struct ksec {
	char *dso;		/* perf's name of the section's map */
	uint64_t addr, size, off;	/* the section's sh_addr, sh_size, sh_offset */
	struct dso *d;		/* its symbols */
};

struct kimage {
	char *path;
	struct ksec *v;		/* in the order perf makes the maps: first symbol first */
	size_t n, cap;
	int text;		/* the index of .text's, or -1 */
	/* The first symbols named _text and _stext (perf's reference symbols), unmoved. */
	uint64_t text_addr, stext_addr;
	bool has_text, has_stext;
};

static void kimage_free(struct kimage *ki);
struct kmod;
static void kmods_free(struct kmod *m);

struct symcache {
	symcache_build_id_fn build_id;
	void *build_id_arg;
	struct dso *dsos[DSO_BUCKETS];
	struct ksyms *kallsyms;
	bool kernel_tried;
	bool kernel_hit;	/* a sample or frame was in the kernel's map: warned if need be */
	pthread_t kthread;	/* reads kallsyms while samples are read (symcache__load_kernel_async) */
	bool kthread_running;
	/* The build-id cache's copy of /proc/kallsyms, read instead of it (symcache__use_kallsyms_copy). */
	bool copy_ok;		/* it may be */
	char *copy_path;	/* it was: a thread compares it with /proc/kallsyms */
	pthread_t vthread;
	bool vthread_running;
	atomic_int copy_state;	/* 0: not known yet, 1: the same, -1: they differ */
	const char *last_path;	/* samples come in runs from one DSO */
	struct { const char *path; struct dso *d; } recent[16];	/* by the name's address */
	struct dso *last_dso;
	char *kallsyms_file;	/* read instead of /proc/kallsyms */
	char *vmlinux_file;	/* the kernel image asked for (perf's -k), and only it */
	char *os_release;	/* the recording's kernel release (its OSRELEASE) */
	struct kimage *kimage;	/* the kernel's symbols come from this image, not kallsyms */
	struct kmod *kmods;	/* the recording's modules, for their .ko */
	/* The kernel's recorded build id, as perf finds the kernel among the BUILD_ID entries. */
	unsigned char kid[HOST_BUILD_ID_MAX];
	size_t kid_len;
	bool kid_set;
	char *kname;		/* that entry's name when a vmlinux's (symcache__kernel_dso_name) */
	bool kimage_looked;	/* symcache__kernel_image_path looked for one */
	/* The recording's kernel reference symbol and where it was (its kernel MMAP). */
	char kref[64];
	uint64_t kref_addr;
	bool kref_set;
	bool kref_done;		/* kdelta is known */
	bool kref_missing;	/* this kallsyms has no such symbol: no kallsyms symbols */
	int64_t kdelta;		/* this machine's address of it - the recorded one */
	struct sym kfound;	/* the last kernel lookup's answer */
};

struct symcache *symcache__new(void)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	return calloc(1, sizeof(struct symcache));
}

static void dso_free(struct dso *d)
{
	if (!d)
		return;
	if (d->plt) {
		dso_free_tables(d->plt);
		free(d->plt);
	}
	if (d->tree) {
		free(d->tree->nodes);
		free(d->tree);
	}
	free(d->path);
	free(d->symsrc);
	free(d->runtime);
	if (d->dw)
		dwarf_end(d->dw);
	if (d->dw_elf)
		elf_end(d->dw_elf);
	if (d->dw_tried && d->dw_fd >= 0)
		close(d->dw_fd);
	for (size_t b = 0; d->inl && b < INL_BUCKETS; b++)
		for (struct inl *i = d->inl[b], *next; i; i = next) {
			next = i->next;
			for (size_t k = 0; k < i->n; k++)
				free((char *)i->names[k]);
			free(i->names);
			free(i);
		}
	free(d->inl);
	dso_free_tables(d);
	free(d);
}

/*
 * The thread symcache__load_kernel_async started, finished: what it
 * wrote (kernel_tried, kallsyms) is the caller's to read from here on.
 */
static void kernel_join(struct symcache *c)
{
	if (c->kthread_running) {
		pthread_join(c->kthread, NULL);
		c->kthread_running = false;
	}
}

void symcache__set_build_ids(struct symcache *c, symcache_build_id_fn fn, void *arg)
{
	kernel_join(c);	/* the thread asks them */
	c->build_id = fn;
	c->build_id_arg = arg;
}

/* The comparison of the copy read with /proc/kallsyms, finished. */
static void copy_join(struct symcache *c)
{
	kernel_join(c);	/* the thread that starts it */
	if (c->vthread_running) {
		pthread_join(c->vthread, NULL);
		c->vthread_running = false;
	}
}

void symcache__delete(struct symcache *c)
{
	if (!c)
		return;
	copy_join(c);
	free(c->copy_path);
	for (int b = 0; b < DSO_BUCKETS; b++)
		for (struct dso *d = c->dsos[b], *n; d; d = n) {
			n = d->next;
			dso_free(d);
		}
	ksyms_free(c->kallsyms);
	kimage_free(c->kimage);
	kmods_free(c->kmods);
	free(c->kname);
	free(c->kallsyms_file);
	free(c->vmlinux_file);
	free(c->os_release);
	free(c);
}

/* ---- names ---- */

static int hexval(char c)
{
	return isdigit((unsigned char)c) ? c - '0' : (tolower((unsigned char)c) - 'a' + 10);
}

/*
 * OCaml's native symbols: "caml" and a capitalised module path whose
 * dots are "__" and whose other characters may be "$xx" in hex
 * (camlStdlib__List__map_281 is Stdlib.List.map_281), as perf reads them.
 */
static char *ocaml_demangle(const char *s)
{
	size_t n = strlen(s), j = 0;
	char *out;

	if (strncmp(s, "caml", 4) || !isupper((unsigned char)s[4]) || !(out = malloc(n + 1)))
		return NULL;
	for (size_t i = 4; i < n;) {
		if (s[i] == '_' && s[i + 1] == '_') {
			out[j++] = '.';
			i += 2;
		} else if (s[i] == '$' && isxdigit((unsigned char)s[i + 1]) && isxdigit((unsigned char)s[i + 2])) {
			out[j++] = (char)(hexval(s[i + 1]) << 4 | hexval(s[i + 2]));
			i += 3;
		} else {
			out[j++] = s[i++];
		}
	}
	out[j] = 0;
	return out;
}

/*
 * A user-space symbol's name as perf shows it: demangled by the
 * toolchain's demangler (libiberty's, as perf 6.1 is built on Debian:
 * C++ and Rust, without parameters), else as OCaml's; NULL when the name
 * is not mangled.  Kernel symbols are not demangled (perf's default).
 */
static char *demangle(const char *name)
{
	char *d = cplus_demangle(name, DMGL_NO_OPTS);

	return d ? d : ocaml_demangle(name);
}

/* ---- building a table ---- */

struct loader {
	struct rsym *v;
	size_t n, cap;
	struct mbuf names;
	char *src;		/* the file whose table was loaded, when not the runtime file */
};

static int add_sym(struct loader *l, uint64_t start, uint64_t size, const char *name, unsigned char bind)
{
	if (ALLOC_GROW(l->v, l->n + 1, l->cap))
		return -ENOMEM;
	if (l->names.len > UINT32_MAX || l->n >= (1u << 28))
		return -E2BIG;
	l->v[l->n].start = start;
	l->v[l->n].end = start + size;
	l->v[l->n].name = (uint32_t)l->names.len;
	l->v[l->n].bind = bind;
	l->v[l->n].order = (uint32_t)l->n;
	l->n++;
	return mbuf_add(&l->names, name, strlen(name) + 1);
}

static int rsym_cmp(const void *a, const void *b)
{
	const struct rsym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's preference between two symbols at one address: true keeps a. */
static bool better(const struct rsym *a, const struct rsym *b, const char *pool)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	const char *na = pool + a->name, *nb = pool + b->name;
	size_t ua, ub;

	if (!lb && la)
		return true;
	if (!la && lb)
		return false;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return b->bind == STB_WEAK;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL;
	ua = leading_underscores(na);
	ub = leading_underscores(nb);
	if (ua != ub)
		return ua < ub;
	return strlen(na) >= strlen(nb);
}

static uint64_t roundup_page(uint64_t x)
{
	return (x + SYM_PAGE - 1) & ~(SYM_PAGE - 1);
}

/*
 * As perf does it, in this order: sort by address (symbols at one address
 * keep their table order), give each zero-sized symbol the next one's
 * start as its end, then keep one symbol per address.
 */
static int finish_table(struct loader *l, struct dso *d)
{
	size_t k = 0;
	bool sorted = true;

	/* Tables usually come sorted: do not pay for a sort then. */
	for (size_t i = 1; i < l->n && sorted; i++)
		sorted = l->v[i - 1].start <= l->v[i].start;
	if (!sorted)
		qsort(l->v, l->n, sizeof(*l->v), rsym_cmp);
	for (size_t i = 0; i + 1 < l->n; i++) {
		struct rsym *a = &l->v[i], *b = &l->v[i + 1];

		if (a->end == a->start)
			a->end = b->start;
	}
	if (l->n && l->v[l->n - 1].end == l->v[l->n - 1].start)
		l->v[l->n - 1].end = roundup_page(l->v[l->n - 1].start) + SYM_PAGE;
	for (size_t i = 0; i < l->n; i++) {
		if (k && l->v[k - 1].start == l->v[i].start) {
			if (!better(&l->v[k - 1], &l->v[i], l->names.p))
				l->v[k - 1] = l->v[i];
			continue;
		}
		l->v[k++] = l->v[i];
	}
	d->names = l->names.p;
	l->names.p = NULL;
	d->syms = (struct sym *)l->v;
	for (size_t i = 0; i < k; i++) {
		struct rsym r = l->v[i];

		d->syms[i].start = r.start;
		d->syms[i].end = r.end;
		d->syms[i].name = d->names + r.name;
	}
	l->v = NULL;
	l->n = l->cap = 0;
	d->n = k;
	return 0;
}

/* ---- ELF ---- */

static Elf_Scn *find_section(Elf *e, Elf64_Word type, GElf_Shdr *out)
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
		/* Functions and objects of any section the program loads; labels of text. */
		if (!(ssh.sh_flags & SHF_ALLOC) || (is_label && (!secname || !strstr(secname, "text"))))
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
		char *dm = demangle(name);
		int err = add_sym(l, start, s.st_size, dm ? dm : name, (unsigned char)GELF_ST_BIND(s.st_info));

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
static int try_symtab(const char *path, const char *bid, const struct segs *sg, struct loader *l)
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
static bool cache_file(char *p, size_t len, const char *bid, const char *base)
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
		if (try_symtab(link, bid, sg, l) == 0)
			return 0;
		snprintf(p, sizeof(p), "%s/%s", dir, link);
		if (strcmp(p, path) && try_symtab(p, bid, sg, l) == 0)
			return 0;
		snprintf(p, sizeof(p), "%s/.debug/%s", dir, link);
		if (try_symtab(p, bid, sg, l) == 0)
			return 0;
		snprintf(p, sizeof(p), "/usr/lib/debug%s/%s", dir, link);
		if (try_symtab(p, bid, sg, l) == 0)
			return 0;
	}
	if (have_bid) {
		if (cache_file(p, sizeof(p), bid, "elf") && try_symtab(p, bid, sg, l) == 0)
			return 0;
		if (cache_file(p, sizeof(p), bid, "debug") && try_symtab(p, bid, sg, l) == 0)
			return 0;
	}
	snprintf(p, sizeof(p), "/usr/lib/debug%s.debug", path);
	if (try_symtab(p, bid, sg, l) == 0)
		return 0;
	snprintf(p, sizeof(p), "/usr/lib/debug%s", path);
	if (try_symtab(p, bid, sg, l) == 0)
		return 0;
	if (have_bid) {
		if (!host_system_debug_path(bid, p, sizeof(p)) && try_symtab(p, bid, sg, l) == 0)
			return 0;
	}
	return load_elf_symbols(e, sg, true, l) ? -1 : 0;
}

/*
 * perf names PLT entries after their relocation: entry k of .plt (after the
 * header entry) is "<dynamic symbol>@plt" ("@plt" when the relocation has
 * no symbol, as IRELATIVE ones).  Added after the fixups, with their size.
 */
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
		} else if (!strcmp(name, ".rela.plt") && sh.sh_type == SHT_RELA) {
			rela = scn;
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

		if (!gelf_getrela(rd, (int)k, &r))
			continue;
		idx = GELF_R_SYM(r.r_info);
		if (idx && gelf_getsym(dd, (int)idx, &sym) && !(name = elf_strptr(e, dyn_sh.sh_link, sym.st_name)))
			name = "";
		char *dm = demangle(name);

		snprintf(buf, sizeof(buf), "%s@plt", dm ? dm : name);
		free(dm);
		if (add_sym(l, plt_sh.sh_offset + plt_sh.sh_entsize * (k + 1), plt_sh.sh_entsize, buf, STB_GLOBAL))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Where a DSO's symbols overlap (perf stretches zero-sized ones such as
 * _init over .plt, then adds the PLT entries; some tables hold symbols
 * inside others), the symbol perf names depends on the shape of its
 * red-black tree, which a lookup descends and stops in at the first node
 * that covers the address.  That tree is replayed: the symbols inserted
 * in table order, the zero-sized stretched in address order, aliases
 * erased as symbols__fixup_duplicate() erases them, the PLT entries
 * inserted last; lookups then descend it as perf's do.
 */
static void tree_insert(struct stree *t, struct tnode *z)
{
	struct rb_node **link = &t->root, *parent = NULL;

	while (*link) {
		parent = *link;
		link = z->s.start < ((struct tnode *)parent)->s.start ? &parent->left : &parent->right;
	}
	rb_insert(&t->root, &z->n, parent, link);
}

static const struct sym *tree_find(const struct stree *t, uint64_t ip)
{
	const struct rb_node *x = t->root;

	while (x) {
		const struct tnode *z = (const struct tnode *)x;

		if (ip < z->s.start)
			x = x->left;
		else if (ip > z->s.end || (ip == z->s.end && ip != z->s.start))
			x = x->right;
		else
			return z->sym;
	}
	return NULL;
}

/* The symbol of d's table (sorted, one per address) that starts at start. */
static const struct sym *sym_at(const struct dso *d, uint64_t start)
{
	size_t lo = 0, hi = d->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (d->syms[mid].start < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->n && d->syms[lo].start == start ? &d->syms[lo] : NULL;
}

/* Whether d's symbols overlap each other or its PLT entries. */
static bool overlaps(const struct dso *d)
{
	for (size_t i = 0; i + 1 < d->n; i++)
		if (d->syms[i].end > d->syms[i + 1].start)
			return true;
	for (size_t j = 0; d->plt && j < d->plt->n; j++) {
		const struct sym *p = &d->plt->syms[j];
		size_t lo = 0, hi = d->n;

		/* The last symbol starting before p ends: it overlaps p if it ends after p starts. */
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (d->syms[mid].start < p->end)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo && d->syms[lo - 1].end > p->start)
			return true;
	}
	return false;
}

/* tab[0..n): d's symbols as loaded, in table order, before finish_table(). */
static int replay_tree(struct dso *d, const struct rsym *tab, size_t n)
{
	size_t nplt = d->plt ? d->plt->n : 0;
	struct stree *t = calloc(1, sizeof(*t));
	struct rb_node *x;

	if (!t || !(t->nodes = calloc(n + nplt, sizeof(*t->nodes)))) {
		free(t);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		t->nodes[i].s = tab[i];
		tree_insert(t, &t->nodes[i]);
	}
	for (x = rb_first(t->root); x; x = rb_next(x)) {
		struct tnode *a = (struct tnode *)x, *b = (struct tnode *)rb_next(x);

		if (a->s.end == a->s.start)
			a->s.end = b ? b->s.start : roundup_page(a->s.start) + SYM_PAGE;
	}
	for (x = rb_first(t->root); x;) {
		struct tnode *a = (struct tnode *)x, *b;
		struct rb_node *next = rb_next(x);

		if (!next)
			break;
		b = (struct tnode *)next;
		if (a->s.start != b->s.start) {
			x = next;
			continue;
		}
		if (better(&a->s, &b->s, d->names)) {
			rb_erase(&t->root, next);	/* and compare a with the one after */
		} else {
			rb_erase(&t->root, x);
			x = next;
		}
	}
	for (x = rb_first(t->root); x; x = rb_next(x))
		((struct tnode *)x)->sym = sym_at(d, ((struct tnode *)x)->s.start);
	for (size_t j = 0; j < nplt; j++) {
		struct tnode *z = &t->nodes[n + j];

		z->s.start = d->plt->syms[j].start;
		z->s.end = d->plt->syms[j].end;
		z->sym = &d->plt->syms[j];
		tree_insert(t, z);
	}
	d->tree = t;
	return 0;
}

/* The ELF at path, open, if its build id is want; else -1. */
static int open_matching(const char *path, const char *want)
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
 * The file that ran: path itself if its build id is the recorded one,
 * else the copy in perf's build-id cache (named base there), which is
 * all there is once the file is gone or rebuilt, or on another machine.
 */
static int open_runtime(const char *path, const char *want, const char *base, char **used)
{
	char p[4096];
	int fd;

	*used = NULL;
	if (!want[0])
		return host_open_regular(path);
	if ((fd = open_matching(path, want)) >= 0)
		return fd;
	if (!cache_file(p, sizeof(p), want, base) || (fd = open_matching(p, want)) < 0)
		return -1;
	if (!(*used = strdup(p))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void load_dso(struct dso *d, const char *want, const char *base)
{
	struct loader l = { 0 };
	struct rsym *tab = NULL;
	size_t ntab = 0;
	int fd = open_runtime(d->path, want, base, &d->runtime);
	struct segs sg;
	Elf *e = NULL;

	if (fd < 0)
		return;
	d->usable = true;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_ELF) {
		struct loader pl = { 0 };
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
		d->symsrc = l.src ? l.src : d->runtime ? strdup(d->runtime) : NULL;
		l.src = NULL;
		if (add_plt_symbols(e, &pl) == 0 && pl.n) {
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
 * perf reads the vdso of its own process for [vdso] samples: on the machine
 * that recorded, it is the same image.
 */
static void load_vdso(struct dso *d)
{
	struct loader l = { 0 };
	const void *img;
	size_t len;
	struct segs sg;
	Elf *e;

	if (host_vdso(&img, &len))
		return;
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

/* The index of d's first symbol (by start) that starts after addr. */
static size_t first_after(const struct dso *d, uint64_t addr)
{
	size_t lo = 0, hi = d->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (d->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct sym *find_in(const struct dso *d, uint64_t addr)
{
	size_t lo = first_after(d, addr);

	/* the symbol before lo may cover addr */
	if (lo && addr < d->syms[lo - 1].end)
		return &d->syms[lo - 1];
	return NULL;
}

/* The build id the recording gives for name: its length, 0 if none (or all zeros). */
static size_t recorded_id(const struct symcache *c, const char *name, unsigned char id[HOST_BUILD_ID_MAX])
{
	size_t n = c->build_id ? c->build_id(c->build_id_arg, name, id) : 0;

	if (c->kid_set && !strcmp(name, "[kernel.kallsyms]")) {
		memcpy(id, c->kid, c->kid_len);
		n = c->kid_len;
	}

	/* An all-zero id says nothing (perf writes them for what it cannot read). */
	for (size_t i = 0; i < n; i++)
		if (id[i])
			return n;
	return 0;
}

/*
 * The recording names, for the kernel or the vdso, another build id than
 * this machine's: it was made elsewhere (or before a reboot into another
 * kernel), and perf resolves nothing there against this machine.  Without
 * a recorded id perf uses this machine's, and so does mperf.
 */
static bool other_machine(const struct symcache *c, const char *name,
			  size_t (*host_id)(unsigned char id[HOST_BUILD_ID_MAX]))
{
	unsigned char rec[HOST_BUILD_ID_MAX], host[HOST_BUILD_ID_MAX];
	size_t n = recorded_id(c, name, rec), h;

	if (!n)
		return false;
	h = host_id(host);
	return h != n || memcmp(rec, host, n);
}

static struct dso *get_dso(struct symcache *c, const char *path)
{
	uint64_t h = hash_str(path);
	struct dso *d;

	for (d = c->dsos[h % DSO_BUCKETS]; d; d = d->next)
		if (!strcmp(d->path, path))
			return d;
	d = calloc(1, sizeof(*d));
	if (!d || !(d->path = strdup(path))) {
		free(d);
		return NULL;
	}
	/* Real files, and the vdso: the kernel's, the same one this process has. */
	if (path[0] == '/') {
		unsigned char id[HOST_BUILD_ID_MAX];
		char want[2 * HOST_BUILD_ID_MAX + 1];
		size_t n = recorded_id(c, path, id);

		host_build_id_hex(id, n, want);
		load_dso(d, want, "elf");
	} else if (!strcmp(path, "[vdso]") && !other_machine(c, path, host_vdso_build_id)) {
		load_vdso(d);
	} else if (!strcmp(path, "[vdso]")) {
		/* Another machine's vdso: perf's cache may have its image. */
		unsigned char id[HOST_BUILD_ID_MAX];
		char want[2 * HOST_BUILD_ID_MAX + 1];

		host_build_id_hex(id, recorded_id(c, path, id), want);
		load_dso(d, want, "vdso");
	}
	d->next = c->dsos[h % DSO_BUCKETS];
	c->dsos[h % DSO_BUCKETS] = d;
	return d;
}

/*
 * The DSO at path, by the name's address first (the callers' names are
 * stable): an unwound chain goes from DSO to DSO and back, which the last
 * one alone does not cover; hashing and comparing its path for every
 * frame did.
 */
static struct dso *dso_by_name(struct symcache *c, const char *path)
{
	size_t r = (size_t)(hash_u64((uint64_t)(uintptr_t)path) % (sizeof(c->recent) / sizeof(c->recent[0])));
	struct dso *d;

	if (path == c->last_path)
		return c->last_dso;
	if (c->recent[r].path == path)
		return c->recent[r].d;
	if ((d = get_dso(c, path))) {
		c->recent[r].path = path;
		c->recent[r].d = d;
	}
	return d;
}

const struct sym *symcache__find(struct symcache *c, const char *path, uint64_t map_start,
				 uint64_t pgoff, uint64_t ip, uint64_t *addr)
{
	/* The same string as before (the caller's names are stable): no hashing. */
	struct dso *d = dso_by_name(c, path);

	const struct sym *sym;

	*addr = ip - map_start + pgoff;
	if (!d)
		return NULL;
	c->last_path = path;
	c->last_dso = d;
	/* Overlapping symbols: the one perf's tree finds (replay_tree()). */
	if (d->tree)
		return tree_find(d->tree, *addr);
	sym = find_in(d, *addr);
	if (!sym && d->plt)
		sym = find_in(d->plt, *addr);
	return sym;
}

/* ---- kernel ---- */

static bool kallsyms_type(char t)
{
	/* perf keeps text, weak, data and bss symbols. */
	return strchr("TtWwDdBb", t) != NULL && t;
}

/*
 * /proc/kallsyms: about 120k lines of "ffffffff81000000 T _text" (module
 * symbols add "\t[module]").  perf reads them all into one table, sorted
 * by address (lines at one address in file order), ends each symbol where
 * the next one starts (a page on, rounded, where the kernel's symbols give
 * way to a module's or the other way round, and after the last), keeps
 * one symbol per address (choose_best() below), and only then splits
 * them among the recording's kernel maps: the kernel's own, moved by its
 * reference symbol, to the kernel map; a module's, where they are, to the
 * recorded module of that name; the others nowhere.
 */
struct kload {
	struct ksyms *k;
	struct mbuf pool;
	bool sorted;
	uint32_t line;
	uint32_t last_mod;	/* the module name the previous line stored */
};

static int ksyms_push(void *arg, const struct host_ksym *s)
{
	struct kload *kl = arg;
	struct ksyms *k = kl->k;
	char t = (char)toupper((unsigned char)s->type);
	struct ksym *e;

	kl->line++;
	/* perf's reference symbols: the first line of a function (or absolute) symbol of the name */
	if (!s->module && (t == 'T' || t == 'W' || t == 'A')) {
		if (!k->has_text && s->name_len == 5 && !memcmp(s->name, "_text", 5)) {
			k->text_addr = s->addr;
			k->has_text = true;
		} else if (!k->has_stext && s->name_len == 6 && !memcmp(s->name, "_stext", 6)) {
			k->stext_addr = s->addr;
			k->has_stext = true;
		}
	}
	if (!s->addr || !kallsyms_type(s->type) || s->name[0] == '$')
		return 0;
	if (k->n && s->addr < k->v[k->n - 1].start)
		kl->sorted = false;
	if (ALLOC_GROW(k->v, k->n + 1, k->cap))
		return -ENOMEM;
	if (kl->pool.len >= 0x7fffffffu)
		return -E2BIG;
	e = &k->v[k->n++];
	memset(e, 0, sizeof(*e));
	e->start = s->addr;
	e->line = kl->line;
	e->type = s->type;
	e->name = (uint32_t)kl->pool.len;
	if (mbuf_add(&kl->pool, s->name, s->name_len) || mbuf_add(&kl->pool, "", 1))
		return -ENOMEM;
	e->mod = KMOD_NONE;
	if (s->module) {
		/* A module's lines come together: its name is stored once per run. */
		if (kl->last_mod == KMOD_NONE || strlen(kl->pool.p + kl->last_mod) != s->module_len ||
		    memcmp(kl->pool.p + kl->last_mod, s->module_name, s->module_len)) {
			kl->last_mod = (uint32_t)kl->pool.len;
			if (mbuf_add(&kl->pool, s->module_name, s->module_len) || mbuf_add(&kl->pool, "", 1))
				return -ENOMEM;
		}
		e->mod = kl->last_mod;
	}
	return 0;
}

static int ksym_by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);	/* file order at one address */
}

static const char *ksyms_mod(const struct ksyms *k, const struct ksym *e)
{
	return e->mod == KMOD_NONE ? NULL : k->text + e->mod;
}

/* The split table's order: the kernel's symbols by address, then each module's by address. */
static int ksym_split_order(const void *a, const void *b, void *arg)
{
	const struct ksyms *k = arg;
	const struct ksym *x = a, *y = b;
	int c;

	if ((x->mod == KMOD_NONE) != (y->mod == KMOD_NONE))
		return x->mod == KMOD_NONE ? -1 : 1;
	if (x->mod != KMOD_NONE && x->mod != y->mod && (c = strcmp(ksyms_mod(k, x), ksyms_mod(k, y))))
		return c;
	return ksym_by_addr(a, b);
}

/* A symbol's name as perf compares it while the table is whole: "name\t[module]". */
static size_t ksym_name_len(const struct ksyms *k, const struct ksym *e)
{
	size_t n = strlen(k->text + e->name);

	return e->mod == KMOD_NONE ? n : n + 1 + strlen(k->text + e->mod);
}

/*
 * Of two symbols at one address, whether perf keeps the first: the one
 * with a size, then not weak ('W'), then global (an upper-case letter),
 * then the fewer leading underscores, then the longer name, then the first.
 * (Every line but the last at an address ends where it starts, so the
 * last one listed is kept, unless the module boundary gave another a size.)
 */
static bool ksym_first_wins(const struct ksyms *k, const struct ksym *a, const struct ksym *b)
{
	bool sa = a->end != a->start, sb = b->end != b->start;
	bool wa = a->type == 'W', wb = b->type == 'W';
	bool ga = !wa && isupper((unsigned char)a->type), gb = !wb && isupper((unsigned char)b->type);
	size_t ua = leading_underscores(k->text + a->name), ub = leading_underscores(k->text + b->name);
	size_t na = ksym_name_len(k, a), nb = ksym_name_len(k, b);

	if (sa != sb)
		return sa;
	if (wa != wb)
		return wb;
	if (ga != gb)
		return ga;
	if (ua != ub)
		return ua < ub;
	return na >= nb;
}

/* The table as perf makes it (see above): sorted, ended, one per address, split. */
static int ksyms_finish(struct ksyms *k, bool sorted)
{
	size_t j = 0, nk = 0;

	if (!sorted)
		qsort(k->v, k->n, sizeof(*k->v), ksym_by_addr);
	for (size_t i = 0; i < k->n; i++) {
		struct ksym *a = &k->v[i];

		if (i + 1 == k->n)
			a->end = roundup_page(a->start) + SYM_PAGE;
		else if ((a->mod == KMOD_NONE) != (k->v[i + 1].mod == KMOD_NONE))
			a->end = roundup_page(a->start + SYM_PAGE);
		else
			a->end = k->v[i + 1].start;
	}
	for (size_t i = 0; i < k->n; i++) {
		struct ksym cur = k->v[i];

		while (i + 1 < k->n && k->v[i + 1].start == cur.start) {
			if (!ksym_first_wins(k, &cur, &k->v[i + 1]))
				cur = k->v[i + 1];
			i++;
		}
		k->v[j++] = cur;
		nk += cur.mod == KMOD_NONE;
	}
	k->n = j;
	/* The kernel's symbols first, by address; then each module's, by address (often so already). */
	for (size_t i = 1; i < k->n; i++)
		if (ksym_split_order(&k->v[i - 1], &k->v[i], k) > 0) {
			qsort_r(k->v, k->n, sizeof(*k->v), ksym_split_order, k);
			break;
		}
	k->nkernel = nk;
	return 0;
}

/*
 * perf's cache of another kernel's symbols: ~/.debug/[kernel.kallsyms]/<build id>/kallsyms
 * (perf record copies /proc/kallsyms there), or the old layout's file
 * [kernel.kallsyms]/<build id>.
 */
static bool cached_kallsyms(const struct symcache *c, char *path, size_t len)
{
	unsigned char id[HOST_BUILD_ID_MAX];
	char hex[2 * HOST_BUILD_ID_MAX + 1], dir[4096];
	size_t n = recorded_id(c, "[kernel.kallsyms]", id);
	struct stat st;

	if (!n || host_bidcache_dir(dir, sizeof(dir)))
		return false;
	host_build_id_hex(id, n, hex);
	if (host_bidcache_path(dir, "[kernel.kallsyms]", hex, host_bidcache_base("[kernel.kallsyms]", true), path, len))
		return false;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return true;
	return host_bidcache_path(dir, "[kernel.kallsyms]", hex, NULL, path, len) == 0 &&
	       stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void ksyms_free(struct ksyms *k)
{
	if (!k)
		return;
	free(k->text);
	free(k->v);
	free(k->path);
	free(k);
}

static void load_kernel(struct symcache *c);
static void kernel_wait(struct symcache *c);
static const char *kernel_map_module(const char *map, char *buf, size_t len);

/* ---- kernel images (vmlinux) ---- */

static void kimage_free(struct kimage *ki)
{
	if (!ki)
		return;
	for (size_t i = 0; i < ki->n; i++) {
		free(ki->v[i].dso);
		dso_free(ki->v[i].d);
	}
	free(ki->v);
	free(ki->path);
	free(ki);
}

/* A section's symbols as perf keeps them outside .text: sorted, as they are (no fixups). */
static void raw_table(struct loader *l, struct dso *d)
{
	qsort(l->v, l->n, sizeof(*l->v), rsym_cmp);
	d->names = l->names.p;
	l->names.p = NULL;
	d->syms = (struct sym *)l->v;
	for (size_t i = 0; i < l->n; i++) {
		struct rsym r = l->v[i];

		d->syms[i].start = r.start;
		d->syms[i].end = r.end;
		d->syms[i].name = d->names + r.name;
	}
	d->n = l->n;
	l->v = NULL;
	l->n = l->cap = 0;
}

/*
 * The symbols of kernel image e, as perf's loader takes a vmlinux's: from
 * .symtab (else .dynsym), functions and objects of the sections the kernel
 * loads and labels of its text sections, each moved to file-offset space
 * by its section; .text's make the kernel's table (ends fixed, one per
 * address, as a DSO's), each other section's a table of its own, as they
 * are.  0, or -1 when e has no symbols or one perf cannot place (perf then
 * keeps none).
 */
static int kimage_load(struct kimage *ki, Elf *e)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(e, SHT_SYMTAB, &sh);
	size_t shstrndx, shnum, total = 0;
	struct loader *ls = NULL;
	size_t lcap = 0;
	int *secmap = NULL, err = -1;
	Elf_Data *data;

	if (!scn)
		scn = find_section(e, SHT_DYNSYM, &sh);
	if (!scn || elf_getshdrstrndx(e, &shstrndx) || elf_getshdrnum(e, &shnum) || !sh.sh_entsize ||
	    !(data = elf_getdata(scn, NULL)) || !(secmap = calloc(shnum, sizeof(*secmap))))
		goto out;
	ki->text = -1;
	for (size_t i = 0, n = sh.sh_size / sh.sh_entsize; i < n; i++) {
		GElf_Sym s;
		GElf_Shdr ssh;
		Elf_Scn *sscn;
		const char *name, *secname;
		int type, vis, k;
		bool is_label;

		if (!gelf_getsym(data, (int)i, &s) || !s.st_name || !(name = elf_strptr(e, sh.sh_link, s.st_name)))
			continue;
		/* perf's reference symbols: the first of the name, whatever it is */
		if (!ki->has_text && !strcmp(name, "_text")) {
			ki->text_addr = s.st_value;
			ki->has_text = true;
		} else if (!ki->has_stext && !strcmp(name, "_stext")) {
			ki->stext_addr = s.st_value;
			ki->has_stext = true;
		}
		type = GELF_ST_TYPE(s.st_info);
		vis = GELF_ST_VISIBILITY(s.st_other);
		is_label = type == STT_NOTYPE && s.st_shndx != SHN_ABS && vis != STV_HIDDEN && vis != STV_INTERNAL;
		if (s.st_shndx == SHN_UNDEF ||
		    (!is_label && type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT))
			continue;
		/* absolute symbols are skipped; another perf finds no section for ends its load: no symbols */
		if (s.st_shndx == SHN_ABS)
			continue;
		if (s.st_shndx >= shnum || !(sscn = elf_getscn(e, s.st_shndx)) || !gelf_getshdr(sscn, &ssh))
			goto out;
		secname = elf_strptr(e, shstrndx, ssh.sh_name);
		if (!(ssh.sh_flags & SHF_ALLOC) || !secname || (is_label && !strstr(secname, "text")))
			continue;
		if (!(k = secmap[s.st_shndx])) {
			/* the section's map: by name, made at its first symbol */
			for (size_t j = 0; j < ki->n && !k; j++)
				if (!strcmp(ki->v[j].dso + strlen("[kernel.kallsyms]"), strcmp(secname, ".text") ? secname : ""))
					k = (int)j + 1;
			if (!k) {
				struct ksec *ks;
				size_t dn = strlen(secname) + sizeof("[kernel.kallsyms]");

				if (ALLOC_GROW(ki->v, ki->n + 1, ki->cap) || ALLOC_GROW(ls, ki->n + 1, lcap))
					goto out;
				ks = &ki->v[ki->n];
				memset(ks, 0, sizeof(*ks));
				memset(&ls[ki->n], 0, sizeof(*ls));
				if (!(ks->d = calloc(1, sizeof(*ks->d))) || !(ks->dso = malloc(dn)))
					goto out_section;
				snprintf(ks->dso, dn, "[kernel.kallsyms]%s", strcmp(secname, ".text") ? secname : "");
				ks->addr = ssh.sh_addr;
				ks->size = ssh.sh_size;
				ks->off = ssh.sh_offset;
				if (!strcmp(secname, ".text"))
					ki->text = (int)ki->n;
				k = (int)++ki->n;
			}
			secmap[s.st_shndx] = k;
		}
		if (add_sym(&ls[k - 1], s.st_value - (ssh.sh_addr - ssh.sh_offset), s.st_size, name,
			    (unsigned char)GELF_ST_BIND(s.st_info)))
			goto out;
		total++;
	}
	for (size_t j = 0; j < ki->n; j++) {
		struct dso *d = ki->v[j].d;
		struct loader *l = &ls[j];

		if ((int)j != ki->text) {
			raw_table(l, d);
			continue;
		}
		struct rsym *tab = l->n ? malloc(l->n * sizeof(*tab)) : NULL;
		size_t ntab = l->n;

		if (tab)
			memcpy(tab, l->v, l->n * sizeof(*tab));
		finish_table(l, d);
		if (tab && overlaps(d))
			(void)replay_tree(d, tab, ntab);
		free(tab);
	}
	err = total ? 0 : -1;
	goto out;
out_section:
	free(ki->v[ki->n].dso);
	free(ki->v[ki->n].d);
out:
	for (size_t j = 0; ls && j < ki->n; j++) {
		free(ls[j].v);
		mbuf_free(&ls[j].names);
		free(ls[j].src);
	}
	free(ls);
	free(secmap);
	return err;
}

/* The kernel image at path, if its build id is want (any ELF when want is empty): loaded, with symbols. */
static struct kimage *kimage_open(const char *path, const char *want)
{
	int fd = want[0] ? open_matching(path, want) : host_open_regular(path);
	struct kimage *ki;
	Elf *e;

	if (fd < 0)
		return NULL;
	ki = calloc(1, sizeof(*ki));
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!ki || !e || elf_kind(e) != ELF_K_ELF || !(ki->path = strdup(path)) || kimage_load(ki, e)) {
		kimage_free(ki);
		ki = NULL;
	}
	elf_end(e);
	close(fd);
	return ki;
}

/*
 * perf's places for the kernel's image, in its order, after the one -k
 * names (which alone is tried then): the build-id cache's entry of the
 * recorded id (~/.debug/.build-id/xx/rest, the file itself in the old
 * layout, else its "elf": what perf buildid-cache --add vmlinux writes),
 * then vmlinux (here), /boot/vmlinux, and by the recording's kernel
 * release /boot/vmlinux-R, /usr/lib/debug/boot/vmlinux-R,
 * /lib/modules/R/build/vmlinux, /usr/lib/debug/lib/modules/R/vmlinux,
 * /usr/lib/debug/boot/vmlinux-R.debug (R: the recording's kernel release,
 * "(null)" when it names none, as perf makes the name).  Each must have the recorded
 * build id (any, when the recording names none).  Candidate i in path:
 * false past the last.
 */
static bool kimage_candidate(const struct symcache *c, const char *want, int i, char *path, size_t len)
{
	static const char *const fixed[] = { "vmlinux", "/boot/vmlinux" };
	static const char *const by_release[][2] = {	/* before and after the release */
		{ "/boot/vmlinux-", "" }, { "/usr/lib/debug/boot/vmlinux-", "" }, { "/lib/modules/", "/build/vmlinux" },
		{ "/usr/lib/debug/lib/modules/", "/vmlinux" }, { "/usr/lib/debug/boot/vmlinux-", ".debug" },
	};

	path[0] = 0;
	if (i == 0) {
		if (!want[0] || !cache_file(path, len, want, "elf"))
			path[0] = 0;
		return true;
	}
	if (--i < 2) {
		snprintf(path, len, "%s", fixed[i]);
		return true;
	}
	if ((i -= 2) < 5) {
		/* perf's release: the recording's; a recording without one names "(null)", as perf prints it */
		snprintf(path, len, "%s%s%s", by_release[i][0], c->os_release ? c->os_release : "(null)",
			 by_release[i][1]);
		return true;
	}
	return false;
}

/* The recorded kernel's build id, as hex ("" for none). */
static void kernel_want(const struct symcache *c, char want[2 * HOST_BUILD_ID_MAX + 1])
{
	unsigned char id[HOST_BUILD_ID_MAX];

	host_build_id_hex(id, recorded_id(c, "[kernel.kallsyms]", id), want);
}

/* Whether some place perf looks in has the recorded kernel's image (not loaded). */
static bool kimage_exists(const struct symcache *c)
{
	char want[2 * HOST_BUILD_ID_MAX + 1], path[4096];
	int fd;

	if (c->vmlinux_file)
		return true;	/* perf says nothing of the image it was given */
	kernel_want(c, want);
	for (int i = 0; kimage_candidate(c, want, i, path, sizeof(path)); i++) {
		if (!path[0] || (fd = want[0] ? open_matching(path, want) : host_open_regular(path)) < 0)
			continue;
		close(fd);
		return true;
	}
	return false;
}

/* The kernel's image, loaded from the first place that has it; false when none has. */
static bool load_kimage(struct symcache *c)
{
	char want[2 * HOST_BUILD_ID_MAX + 1], path[4096];

	kernel_want(c, want);
	if (c->vmlinux_file) {
		/* -k: that image, no other (and none if its build id is another) */
		c->kimage = kimage_open(c->vmlinux_file, want);
		return true;
	}
	for (int i = 0; kimage_candidate(c, want, i, path, sizeof(path)); i++)
		if (path[0] && (c->kimage = kimage_open(path, want)))
			return true;
	return false;
}

/* The value of the first symbol named name in the ELF at path (perf's reference symbol), or 0. */
static uint64_t elf_symbol_value(const char *path, const char *name)
{
	int fd = host_open_regular(path);
	uint64_t v = 0;
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *data;
	Elf *e;

	if (fd < 0)
		return 0;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && ((scn = find_section(e, SHT_SYMTAB, &sh)) || (scn = find_section(e, SHT_DYNSYM, &sh))) &&
	    sh.sh_entsize && (data = elf_getdata(scn, NULL)))
		for (size_t i = 0, n = sh.sh_size / sh.sh_entsize; i < n && !v; i++) {
			GElf_Sym s;
			const char *nm;

			if (gelf_getsym(data, (int)i, &s) && s.st_name && (nm = elf_strptr(e, sh.sh_link, s.st_name)) &&
			    !strcmp(nm, name))
				v = s.st_value ? s.st_value : 1;	/* found at 0: as not found */
		}
	elf_end(e);
	close(fd);
	return v == 1 ? 0 : v;
}

/*
 * How far the recorded kernel sits from its image (perf's map->reloc):
 * where it had the reference symbol less the image's address of it; 0
 * when the recording names none or the image has no such symbol (or has
 * it at 0), and the image's symbols are used where they are.
 */
static int64_t kimage_reloc(struct symcache *c)
{
	const struct kimage *ki = c->kimage;

	if (!c->kref_done) {
		uint64_t at = 0;

		c->kref_done = true;
		c->kdelta = 0;
		if (c->kref_set && !strcmp(c->kref, "_text"))
			at = ki->has_text ? ki->text_addr : 0;
		else if (c->kref_set && !strcmp(c->kref, "_stext"))
			at = ki->has_stext ? ki->stext_addr : 0;
		else if (c->kref_set && c->kref[0])
			at = elf_symbol_value(ki->path, c->kref);
		if (at)
			c->kdelta = (int64_t)(c->kref_addr - at);
	}
	return c->kdelta;
}

/* In section map s (not .text), the symbol at file offset off, as perf's lookup finds it. */
static const struct sym *ksec_find(const struct dso *d, uint64_t off)
{
	size_t lo = first_after(d, off);

	if (!lo)
		return NULL;
	const struct sym *s = &d->syms[lo - 1];

	/* the table's own sizes: a zero-sized symbol covers its address alone */
	return off < s->end || off == s->start ? s : NULL;
}

static const struct sym *kimage_find(struct symcache *c, const char *map, uint64_t ip, struct ksym_info *info)
{
	const struct kimage *ki = c->kimage;
	const struct ksec *s = NULL;
	const struct sym *sym;
	int64_t reloc = kimage_reloc(c);
	uint64_t off;
	size_t kl = strlen("[kernel.kallsyms]");

	if (!map || !strcmp(map, "[kernel.kallsyms]")) {
		s = ki->text >= 0 ? &ki->v[ki->text] : NULL;
	} else if (!strncmp(map, "[kernel.kallsyms]", kl) && map[kl] == '.') {
		for (size_t i = 0; i < ki->n && !s; i++)
			if (!strcmp(ki->v[i].dso, map))
				s = &ki->v[i];
	}
	if (!s)
		return NULL;	/* a module's map: its symbols are not in the kernel's image */
	off = ip - (uint64_t)reloc - (s->addr - s->off);
	if (info) {
		info->mapped = true;	/* perf's map of the image shows an address by its offset */
		info->addr = off;
	}
	if ((int)(s - ki->v) != ki->text)
		sym = ksec_find(s->d, off);
	else if (s->d->tree)
		sym = tree_find(s->d->tree, off);
	else
		sym = find_in(s->d, off);
	if (!sym)
		return NULL;
	c->kfound.start = sym->start + (s->addr - s->off) + (uint64_t)reloc;
	c->kfound.end = sym->end + (s->addr - s->off) + (uint64_t)reloc;
	c->kfound.name = sym->name;
	if (info)
		info->namelen = strlen(sym->name);
	return &c->kfound;
}

/* ---- kernel modules (.ko) by build id ---- */

/*
 * A module the recording names (its BUILD_ID entry, its kernel MMAP),
 * whose symbols perf reads from its .ko when kallsyms does not give them
 * and it knows the module by a path: the build-id cache's copy of the
 * recorded id ("elf", then "debug"), then that path, each only with that
 * id (any, when none was recorded).  Its .text symbols, in
 * file-offset space, as a kernel image's (perf maps the module's address
 * to the .ko's .text by its offset).
 */
struct kmod {
	struct kmod *next;
	char *name;		/* "[name]", as kernel_map_module() names it */
	char *path;		/* perf's name of it when a path (its BUILD_ID entry's, else its MMAP's), or NULL */
	bool named;		/* the BUILD_ID entry named it */
	char id[2 * HOST_BUILD_ID_MAX + 1];	/* the recorded build id, "" for none */
	uint64_t start, pgoff;	/* its map's (the last MMAP of it) */
	bool mapped;
	bool tried;
	struct kimage *img;	/* the .ko read, or NULL */
};

static void kmods_free(struct kmod *m)
{
	for (struct kmod *next; m; m = next) {
		next = m->next;
		free(m->name);
		free(m->path);
		kimage_free(m->img);
		free(m);
	}
}

static struct kmod *kmod_get(struct symcache *c, const char *name, bool add)
{
	struct kmod *m;

	for (m = c->kmods; m; m = m->next)
		if (!strcmp(m->name, name))
			return m;
	if (!add || !(m = calloc(1, sizeof(*m))) || !(m->name = strdup(name))) {
		free(m);
		return NULL;
	}
	m->next = c->kmods;
	c->kmods = m;
	return m;
}

/* The recording's modules and their build ids: its BUILD_ID entries of kernel modules. */
static void kmods_from_file(struct symcache *c, struct pdata *p)
{
	struct pd_build_id e;
	size_t pos = 0;
	char buf[256];

	while (pdata__build_id_next(p, &pos, &e)) {
		const char *mod, *base = strrchr(e.name, '/'), *ko;
		/* an id of size 0 is taken as the full 20 bytes, as the reader takes it */
		size_t len = (e.misc & PD_MISC_BUILD_ID_SIZE) && e.len ? e.len : sizeof(e.id);
		struct kmod *m;

		if ((e.misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL || e.pid != -1)
			continue;
		/*
		 * perf's kernel is the first entry of the kernel's that is not a
		 * module's: [kernel.kallsyms], or the vmlinux perf record used.
		 */
		ko = base ? strstr(base, ".ko") : NULL;
		if (e.name[0] == '/' ? !(ko && (!ko[3] || ko[3] == '.')) : !strncmp(e.name, "[kernel.kallsyms", 16)) {
			if (!c->kid_set) {
				c->kid_set = true;
				c->kid_len = len;
				memcpy(c->kid, e.id, len);
				/* perf's kernel DSO is then named by it */
				if (strstr(e.name, "vmlinux"))
					c->kname = strdup(e.name);
			}
			continue;
		}
		if (!(mod = kernel_map_module(e.name, buf, sizeof(buf))) || !mod[0] || !strcmp(mod, "[vdso]") ||
		    !(m = kmod_get(c, mod, true)) || m->named)
			continue;
		m->named = true;
		host_build_id_hex(e.id, len, m->id);
		if (e.name[0] == '/')
			m->path = strdup(e.name);
	}
}

/* The module's .ko, read at its first lookup: NULL when no place has it. */
static const struct kimage *kmod_image(struct kmod *m)
{
	static const char *const bases[] = { "elf", "debug" };
	char p[4096];

	if (m->tried)
		return m->img;
	m->tried = true;
	/* perf takes a module named "[name]" for kallsyms: its cache entry's "kallsyms", never a .ko */
	if (!m->path)
		return NULL;
	for (size_t i = 0; i < 2 && !m->img && m->id[0]; i++)
		if (cache_file(p, sizeof(p), m->id, bases[i]))
			m->img = kimage_open(p, m->id);
	if (!m->img && m->path)
		m->img = kimage_open(m->path, m->id);
	if (m->img && m->img->text < 0) {
		kimage_free(m->img);
		m->img = NULL;
	}
	return m->img;
}

/* A module's symbol from its .ko; NULL when there is none (or no .ko): *handled says which. */
static const struct sym *kmod_find(struct symcache *c, const char *mod, uint64_t ip, struct ksym_info *info,
				   bool *handled)
{
	struct kmod *m = kmod_get(c, mod, false);
	const struct kimage *ki;
	const struct ksec *s;
	const struct sym *sym;
	uint64_t off;

	*handled = false;
	if (!m || !m->mapped)
		return NULL;
	if (info) {
		info->mapped = true;	/* a module's map is not an identity one: perf shows the offset in it */
		info->addr = ip - m->start + m->pgoff;
	}
	if (!(ki = kmod_image(m)))
		return NULL;
	*handled = true;
	s = &ki->v[ki->text];
	off = ip - m->start + s->off;
	if (info) {
		info->mapped = true;	/* perf's map of the .ko shows an address by its offset */
		info->addr = off;
	}
	sym = s->d->tree ? tree_find(s->d->tree, off) : find_in(s->d, off);
	if (!sym)
		return NULL;
	c->kfound.start = sym->start - s->off + m->start;
	c->kfound.end = sym->end - s->off + m->start;
	c->kfound.name = sym->name;
	if (info)
		info->namelen = strlen(sym->name);
	return &c->kfound;
}

bool symcache__kernel_map(struct symcache *c, uint64_t ip, const char **dso)
{
	const char *sec;
	uint64_t start, end;

	kernel_wait(c);
	if (!c->kimage || !symcache__kernel_range(c, &start, &end) || (ip >= start && ip < end))
		return true;
	if (!(sec = symcache__kernel_section(c, ip)))
		return false;
	*dso = sec;
	return true;
}

const char *symcache__kernel_dso_name(const struct symcache *c, const char *dso, enum symcache_kname which,
				     char *buf, size_t len)
{
	size_t n = strlen("[kernel.kallsyms]");

	if (!dso || strncmp(dso, "[kernel.kallsyms]", n))
		return dso;
	/* a section's map shares the kernel's long name */
	if (which == SYMCACHE_KNAME_LONG)
		return c->kname ? c->kname : "[kernel.kallsyms]";
	if (!c->kname)
		return dso;
	if (!dso[n])
		return which == SYMCACHE_KNAME_NAME ? c->kname : "[kernel.vmlinux]";
	snprintf(buf, len, "[kernel.vmlinux]%s", dso + n);
	return buf;
}

const char *symcache__kernel_image_path(struct symcache *c)
{
	if (!c->kimage_looked) {
		c->kimage_looked = true;
		if (kimage_exists(c))
			kernel_wait(c);	/* the image first: kallsyms is not read when there is one */
	}
	return c->kimage ? c->kimage->path : NULL;
}

const char *symcache__kernel_section(struct symcache *c, uint64_t ip)
{
	const struct kimage *ki;
	int64_t reloc;

	kernel_wait(c);
	if (!(ki = c->kimage))
		return NULL;
	reloc = kimage_reloc(c);
	for (size_t i = 0; i < ki->n; i++) {
		const struct ksec *s = &ki->v[i];
		uint64_t start = s->addr + (uint64_t)reloc;

		if ((int)i != ki->text && ip >= start && ip < start + s->size)
			return s->dso;
	}
	return NULL;
}

static void *copy_check(void *arg)
{
	struct symcache *c = arg;

	atomic_store(&c->copy_state, host_kallsyms_same(c->copy_path, 0) == 1 ? 1 : -1);
	return NULL;
}

/*
 * This kernel's kallsyms as the build-id cache keeps it (what a recording
 * copied there), when it may stand for /proc/kallsyms: written since boot
 * (an older one has another boot's modules and addresses), its head the
 * same as /proc/kallsyms' (the kernel's own addresses), and a thread to
 * compare the rest while it is used.  The kernel makes /proc/kallsyms as
 * it is read, about 50 ms of a CPU for 120k lines; the copy reads in a
 * few.  The path to read in path, or false.
 */
static bool kallsyms_copy(struct symcache *c, char *path, size_t len)
{
	unsigned char id[HOST_BUILD_ID_MAX];
	char hex[2 * HOST_BUILD_ID_MAX + 1], dir[4096];
	size_t n;
	struct stat st;

	if (!c->copy_ok || !(n = host_kernel_build_id(id)) || host_bidcache_dir(dir, sizeof(dir)))
		return false;
	host_build_id_hex(id, n, hex);
	if (host_bidcache_path(dir, "[kernel.kallsyms]", hex, host_bidcache_base("[kernel.kallsyms]", true), path, len) ||
	    stat(path, &st) || !S_ISREG(st.st_mode) || !host_written_since_boot(st.st_mtime) ||
	    host_kallsyms_same(path, 16 << 10) != 1 || !(c->copy_path = strdup(path)))
		return false;
	c->vthread_running = pthread_create(&c->vthread, NULL, copy_check, c) == 0;
	if (c->vthread_running)
		return true;
	free(c->copy_path);
	c->copy_path = NULL;
	return false;
}

static void load_kernel(struct symcache *c)
{
	struct kload kl = { .k = calloc(1, sizeof(*kl.k)), .sorted = true, .last_mod = KMOD_NONE };
	struct ksyms *k = kl.k;
	char path[4096];
	int err;

	c->kernel_tried = true;
	if (!k || mbuf_reserve(&kl.pool, 4 << 20))
		goto out;
	/* perf's order: the kallsyms file asked for; the image -k names, else one found by build id; kallsyms */
	if (!c->kallsyms_file && load_kimage(c))
		goto out;
	if (c->kallsyms_file) {
		snprintf(path, sizeof(path), "%s", c->kallsyms_file);
	} else if (other_machine(c, "[kernel.kallsyms]", host_kernel_build_id)) {
		/* Another kernel's: perf reads the copy of its kallsyms its build-id cache may keep. */
		if (!cached_kallsyms(c, path, sizeof(path)))
			goto out;
	} else if (!kallsyms_copy(c, path, sizeof(path))) {
		snprintf(path, sizeof(path), "/proc/kallsyms");
	}
	if (!(k->path = strdup(path)))
		goto out;
	/* Only the kept lines' addresses and names are stored; a read that fails midway keeps what it read. */
	err = host_kallsyms_stream_file(path, ksyms_push, &kl);
	if (err == -ENOMEM || err == -E2BIG || err == -EINVAL)
		goto out;
	k->text = kl.pool.p;
	kl.pool.p = NULL;
	if (k->n && !ksyms_finish(k, kl.sorted)) {
		c->kallsyms = k;
		k = NULL;
	}
out:
	ksyms_free(k);
	mbuf_free(&kl.pool);
}

/* The kernel's symbols, read: by the thread that reads them, or now. */
static void kernel_wait(struct symcache *c)
{
	kernel_join(c);
	if (!c->kernel_tried)
		load_kernel(c);
}

void symcache__kernel_hit(struct symcache *c)
{
	unsigned char id[HOST_BUILD_ID_MAX];
	char hex[2 * HOST_BUILD_ID_MAX + 1], path[4096];

	if (c->kernel_hit)
		return;
	c->kernel_hit = true;
	if (c->kallsyms_file || kimage_exists(c) || !other_machine(c, "[kernel.kallsyms]", host_kernel_build_id) ||
	    cached_kallsyms(c, path, sizeof(path)))
		return;
	host_build_id_hex(id, recorded_id(c, "[kernel.kallsyms]", id), hex);
	/* perf's words, as it says them when it loads the kernel's map and finds nothing */
	mperf_log(MPERF_LOG_WARN, "No kallsyms or vmlinux with build-id %s was found", hex);
}

void symcache__set_kallsyms(struct symcache *c, const char *path)
{
	/* A thread that reads the old one is done with it first. */
	kernel_join(c);
	free(c->kallsyms_file);
	c->kallsyms_file = path ? strdup(path) : NULL;
}

void symcache__set_vmlinux(struct symcache *c, const char *path)
{
	kernel_join(c);
	free(c->vmlinux_file);
	c->vmlinux_file = path ? strdup(path) : NULL;
}

void symcache__set_os_release(struct symcache *c, const char *release)
{
	free(c->os_release);
	c->os_release = release ? strdup(release) : NULL;
}

void symcache__set_kernel_files(struct symcache *c, struct pdata *p, const char *vmlinux, const char *kallsyms)
{
	size_t len;
	const unsigned char *q = pdata__feature(p, PD_FEAT_OSRELEASE, &len);
	struct pd_cursor cur = { q, q ? q + len : q };
	const char *rel = q ? pd_cursor_string(&cur) : NULL;

	kernel_join(c);	/* a thread reading the kernel's files is done with them first */
	symcache__set_os_release(c, rel);
	kmods_from_file(c, p);
	if (vmlinux)
		symcache__set_vmlinux(c, vmlinux);
	if (kallsyms)
		symcache__set_kallsyms(c, kallsyms);
}

static size_t recorded_build_id(void *arg, const char *name, unsigned char id[20])
{
	return pdata__build_id(arg, name, id);
}

struct symcache *symcache__for_file(struct pdata *p, const char *vmlinux, const char *kallsyms)
{
	struct symcache *c = symcache__new();

	if (!c) {
		mperf_error(-ENOMEM, "out of memory");
		return NULL;
	}
	symcache__set_build_ids(c, recorded_build_id, p);
	symcache__set_kernel_files(c, p, vmlinux, kallsyms);
	return c;
}

void symcache__use_kallsyms_copy(struct symcache *c)
{
	c->copy_ok = true;
}

bool symcache__kallsyms_stale(struct symcache *c, bool wait)
{
	if (wait)
		copy_join(c);
	return atomic_load_explicit(&c->copy_state, memory_order_relaxed) < 0;
}

void symcache__load_kernel(struct symcache *c)
{
	kernel_wait(c);
}

static void *kernel_thread(void *arg)
{
	load_kernel(arg);
	return NULL;
}

void symcache__load_kernel_async(struct symcache *c)
{
	if (c->kernel_tried || c->kthread_running)
		return;
	/* Without a thread, the first lookup reads them. */
	c->kthread_running = pthread_create(&c->kthread, NULL, kernel_thread, c) == 0;
}

void symcache__set_kernel_ref(struct symcache *c, const char *name, uint64_t addr)
{
	if (c->kref_set || strlen(name) >= sizeof(c->kref))
		return;
	strcpy(c->kref, name);
	c->kref_addr = addr;
	c->kref_set = true;
	c->kref_done = false;	/* a lookup before the kernel's MMAP had none to move by */
}

void symcache__kernel_mmap(struct symcache *c, const struct perf_event_header *h)
{
	char name[256];
	const char *fn;
	uint64_t pgoff, start;
	struct pd_mmap mm;

	if ((h->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL ||
	    !pd_mmap_view(h, &mm, name, sizeof(name)))
		return;
	pgoff = mm.pgoff;
	start = mm.start;
	fn = mm.filename;
	if (strncmp(fn, "[kernel.kallsyms", 16)) {
		/* a module's map: where its .ko's .text was */
		char buf[256];
		const char *mod = kernel_map_module(fn, buf, sizeof(buf));
		struct kmod *m = mod && mod[0] ? kmod_get(c, mod, true) : NULL;

		if (m) {
			m->start = start;
			m->pgoff = pgoff;
			m->mapped = true;
			if (fn[0] == '/' && !m->path && !m->named)
				m->path = strdup(fn);
		}
		return;
	}
	/* perf takes "[kernel.kallsyms" for the kernel; a pgoff of 0 (kptr_restrict) names no reference. */
	if (!pgoff)
		return;
	symcache__set_kernel_ref(c, fn[16] ? fn + 17 : "", pgoff);
}

struct kfind {
	const char *name;
	uint64_t addr;
	bool found;
};

static int kfind_push(void *arg, const struct host_ksym *s)
{
	struct kfind *f = arg;
	char t = (char)toupper((unsigned char)s->type);

	if (s->module || (t != 'T' && t != 'W' && t != 'A') || s->name_len != strlen(f->name) ||
	    memcmp(s->name, f->name, s->name_len))
		return 0;
	f->addr = s->addr;
	f->found = true;
	return 1;
}

/*
 * How far this machine's kernel symbols sit from the recorded kernel's:
 * its address of the recording's reference symbol less the recorded one
 * (0 when the recording names none).  False when this kallsyms has no
 * such symbol: perf then loads no kallsyms symbols at all.
 */
static bool kernel_delta(struct symcache *c, const struct ksyms *k, int64_t *delta)
{
	if (!c->kref_done) {
		struct kfind f = { .name = c->kref };

		c->kref_done = true;
		c->kref_missing = false;
		c->kdelta = 0;
		if (c->kref_set) {
			if (!strcmp(c->kref, "_text") || !strcmp(c->kref, "_stext")) {
				f.found = c->kref[1] == 't' ? k->has_text : k->has_stext;
				f.addr = c->kref[1] == 't' ? k->text_addr : k->stext_addr;
			} else if (c->kref[0]) {
				host_kallsyms_stream_file(k->path, kfind_push, &f);
			}
			if (f.found)
				c->kdelta = (int64_t)(f.addr - c->kref_addr);
			c->kref_missing = !f.found;
		}
	}
	*delta = c->kdelta;
	return !c->kref_missing;
}

/* In v[lo, hi) (by address), the symbol covering addr. */
static const struct ksym *ksyms_search(const struct ksyms *k, size_t lo, size_t hi, uint64_t addr)
{
	size_t first = lo;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == first || addr >= k->v[lo - 1].end)
		return NULL;
	return &k->v[lo - 1];
}

/*
 * Which of kallsyms' parts the kernel map named map sees: NULL for the
 * kernel's own ("[kernel.kallsyms]", or no name); a module's "[name]"
 * (its path's name up to ".ko", '-' as '_', in buf, or its short name as
 * it is); "" for another map (a KSYMBOL's): any module's, by address.
 */
static const char *kernel_map_module(const char *map, char *buf, size_t len)
{
	const char *base, *ko;
	size_t n;

	if (!map || !strncmp(map, "[kernel.kallsyms", 16))
		return NULL;
	if (map[0] == '[')
		return map;
	if (map[0] != '/')
		return "";
	base = strrchr(map, '/') + 1;
	ko = strstr(base, ".ko");
	n = ko ? (size_t)(ko - base) : strlen(base);
	if (n + 3 > len)
		n = len - 3;
	buf[0] = '[';
	for (size_t i = 0; i < n; i++)
		buf[i + 1] = base[i] == '-' ? '_' : base[i];
	buf[n + 1] = ']';
	buf[n + 2] = 0;
	return buf;
}

const struct sym *symcache__find_kernel(struct symcache *c, const char *map, uint64_t ip, struct ksym_info *info)
{
	const struct ksyms *k;
	const struct ksym *e;
	const char *mod;
	char buf[256];
	int64_t delta;

	if (info)
		memset(info, 0, sizeof(*info));
	kernel_wait(c);
	if (c->kimage || !c->kallsyms) {
		/* a module's symbols from its .ko when kallsyms does not give them */
		bool handled;
		const struct sym *s;

		mod = kernel_map_module(map, buf, sizeof(buf));
		if (mod && mod[0]) {
			s = kmod_find(c, mod, ip, info, &handled);
			if (handled || c->kimage)
				return s;
		}
		if (c->kimage)
			return kimage_find(c, map, ip, info);
	}
	k = c->kallsyms;
	if (!k || !kernel_delta(c, k, &delta))
		return NULL;
	mod = kernel_map_module(map, buf, sizeof(buf));
	if (!mod) {
		/* The kernel's own symbols, moved to where the recorded kernel had them. */
		e = ksyms_search(k, 0, k->nkernel, ip + (uint64_t)delta);
	} else if (!mod[0]) {
		e = NULL;
		for (size_t a = k->nkernel, b; a < k->n && !e; a = b) {
			for (b = a + 1; b < k->n && k->v[b].mod == k->v[a].mod; b++)
				;
			e = ksyms_search(k, a, b, ip);
		}
		delta = 0;
	} else {
		/* A module's: where this machine has the module of that name, unmoved. */
		size_t lo = k->nkernel, hi = k->n, a, b;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (strcmp(ksyms_mod(k, &k->v[mid]), mod) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		a = lo;
		for (hi = k->n; lo < hi;) {
			size_t mid = lo + (hi - lo) / 2;

			if (strcmp(ksyms_mod(k, &k->v[mid]), mod) <= 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		b = lo;
		e = ksyms_search(k, a, b, ip);
		delta = 0;
	}
	if (!e)
		return NULL;
	c->kfound.start = e->start - (uint64_t)delta;
	c->kfound.end = e->end - (uint64_t)delta;
	c->kfound.name = k->text + e->name;
	if (info) {
		info->object = tolower((unsigned char)e->type) == 'd' || tolower((unsigned char)e->type) == 'b';
		info->namelen = ksym_name_len(k, e);	/* perf counts the name as it was read, module and all */
	}
	return &c->kfound;
}

bool symcache__kernel_range(struct symcache *c, uint64_t *start, uint64_t *end)
{
	const struct ksyms *k;
	int64_t delta;

	*start = *end = 0;
	kernel_wait(c);
	if (c->kimage) {
		/* perf's kernel map, once it has read the image, is the image's .text */
		const struct kimage *ki = c->kimage;

		if (ki->text < 0)
			return false;
		*start = ki->v[ki->text].addr + (uint64_t)kimage_reloc(c);
		*end = *start + ki->v[ki->text].size;
		return true;
	}
	k = c->kallsyms;
	if (!k || !k->nkernel || !kernel_delta(c, k, &delta))
		return false;
	*start = k->v[0].start - (uint64_t)delta;
	*end = k->v[k->nkernel - 1].end - (uint64_t)delta;
	return true;
}

uint64_t symcache__kernel_end(struct symcache *c)
{
	uint64_t start, end;

	return symcache__kernel_range(c, &start, &end) ? end : 0;
}

/* ---- inline frames ---- */

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

/* The address the DWARF uses for an address of file-offset space. */
static uint64_t offset_to_vaddr(const struct dso *d, uint64_t off)
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
static int add_inline_name(struct inl *i, const char *name)
{
	const char **v = realloc(i->names, (i->n + 1) * sizeof(*v));
	char *copy;

	if (v)
		i->names = v;
	if (!v || (!(copy = demangle(name)) && !(copy = strdup(name))))
		return -ENOMEM;
	i->names[i->n++] = copy;
	return 0;
}

/* The first function (subprogram or inlined instance) of scopes[from..n), or -1. */
static int first_function(Dwarf_Die *scopes, int from, int n)
{
	for (int k = from; k < n; k++) {
		int tag = dwarf_tag(&scopes[k]);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
			return k;
	}
	return -1;
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
	Dwarf_Die cu, *scopes = NULL, fn;
	int n, k, depth = 0;

	if (!dw || !dwarf_addrdie(dw, pc, &cu) || (n = dwarf_getscopes(&cu, pc, &scopes)) <= 0)
		return 0;
	k = first_function(scopes, 0, n);
	if (k < 0) {
		free(scopes);
		return 0;
	}
	fn = scopes[k];
	free(scopes);
	for (;;) {
		const char *name = !i->n && dwarf_tag(&fn) == DW_TAG_subprogram ? last_alias_name(&fn, pc) : die_name(&fn);

		if (name && add_inline_name(i, name))
			return -ENOMEM;
		if (dwarf_tag(&fn) != DW_TAG_inlined_subroutine || ++depth > 64)
			return 0;
		/* Where the instance sits: the function it was inlined into. */
		if ((n = dwarf_getscopes_die(&fn, &scopes)) <= 1 || (k = first_function(scopes, 1, n)) < 0) {
			free(scopes);
			return 0;
		}
		fn = scopes[k];
		free(scopes);
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

const char *symcache__runtime_path(struct symcache *c, const char *path)
{
	struct dso *d = dso_by_name(c, path);

	if (!d || path[0] != '/' || !d->usable)
		return NULL;
	c->last_path = path;
	c->last_dso = d;
	return d->runtime ? d->runtime : d->path;
}
