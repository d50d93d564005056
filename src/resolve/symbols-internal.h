/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_RESOLVE_SYMBOLS_INTERNAL_H
#define MPERF_RESOLVE_SYMBOLS_INTERNAL_H

/*
 * What the files of the symbol cache share (symbols.c, symbols-elf.c,
 * symbols-kernel.c, symbols-inline.c, demangle.c): struct symcache, a
 * DSO's tables and the helpers one file gives another.  Private to
 * src/resolve; the interface is symbols.h.
 */
#include <elfutils/libdw.h>
#include <gelf.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../host/host.h"
#include "../lib/buf.h"
#include "symbols.h"

struct stree;	/* perf's symbol tree, replayed (symbols.c) */
struct ksyms;	/* kallsyms, split (symbols-kernel.c) */
struct kimage;	/* a kernel image's or a .ko's symbols (symbols-kernel.c) */
struct kmod;	/* a module the recording names (symbols-kernel.c) */

#define DSO_BUCKETS 256
/* perf ends a last or open-ended symbol at a page boundary (its PAGE_SIZE, 4 KiB on x86). */
#define SYM_PAGE 4096ULL

struct rsym {		/* while loading; becomes a struct sym in place */
	uint64_t start, end;
	uint32_t name;		/* offset in the name pool */
	uint32_t order : 27;	/* position in the table, to keep aliases in order */
	uint32_t object : 1;	/* STT_OBJECT: perf shows a data address in it as sym+offset */
	uint32_t bind : 4;
};
_Static_assert(sizeof(struct rsym) == sizeof(struct sym), "a table is converted in place");

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
	unsigned char *objects;	/* a bit per symbol: an STT_OBJECT (NULL: none is) */
	size_t n;
	char *names;
	bool raw_names;		/* perf's --no-demangle: its names as the file has them */
	struct dso *plt;	/* name@plt entries: used where no other symbol covers */
	struct stree *tree;	/* perf's tree, replayed where symbols overlap (else NULL) */
	/* Inline frames: from the DWARF of the file the symbols came from (perf's symsrc). */
	char *symsrc;
	char *runtime;		/* the copy that ran, when the file at path is another build */
	bool usable;		/* the file that ran could be opened */
	char origin;		/* perf's letter for where its symbols came from (symcache__origin) */
	struct segs sg;		/* the runtime image's, to go back from file offsets to addresses */
	Dwarf *dw;
	Elf *dw_elf;		/* what dw reads (its unused sections renamed away) */
	int dw_fd;
	bool dw_tried;
	struct inl **inl;	/* [INL_BUCKETS], made at the first lookup */
	/* Annotation's line table and sections (symbols-line.c), opened at its first lookup. */
	Dwarf *ln_dw;		/* the symbol file's DWARF, its line table kept */
	Elf *ln_elf, *img_elf;	/* that file; the runtime image (section names, code bytes) */
	int ln_fd, img_fd;
	bool ln_tried, img_tried;
	struct lfcache *lf;	/* binutils' files of its DWARF 5 line programs (symbols-linefile.c) */
	/* addr2line's file of a function symbol, where the line table has no line (symbols-line.c) */
	struct fsym *fsyms;
	size_t nfsyms;
	Elf *fs_elf;		/* the ELF they were read from */
	bool fs_tried;
	/* The symbols objdump names addresses by (symbols-objdump.c), read at the first name asked for. */
	struct odtab *od;
	bool od_tried, od_links;
};

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
	char *symfs;		/* perf's --symfs: a DSO's file under this directory (NULL: none) */
	bool raw_names;		/* perf's --no-demangle (symcache__no_demangle) */
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
	bool want_lines;	/* symcache__want_lines: inline frames from the whole DWARF */
	int64_t kdelta;		/* this machine's address of it - the recorded one */
	struct sym kfound;	/* the last kernel lookup's answer */
};

struct loader {
	struct rsym *v;
	size_t n, cap;
	struct mbuf names;
	char *src;		/* the file whose table was loaded, when not the runtime file */
	char origin;		/* perf's letter for where src came from (dso__symtab_origin), 0: the runtime file */
	bool raw;		/* names as the file has them, not demangled */
};

/* symbols.c: the cache, its DSOs and the tables */

/* Free a DSO's symbols and names (not the DSO). */
void dso_free_tables(struct dso *d);
/* Free a DSO and all it holds (NULL: nothing). */
void dso_free(struct dso *d);
/* Add a symbol to the table being loaded (bind: its STB_*, | ADD_SYM_OBJECT for an STT_OBJECT): 0 or a negative errno. */
#define ADD_SYM_OBJECT 0x10
int add_sym(struct loader *l, uint64_t start, uint64_t size, const char *name, unsigned char bind);
/* qsort's order of loaded symbols: by address, then table order. */
int rsym_cmp(const void *a, const void *b);
size_t leading_underscores(const char *s);
uint64_t roundup_page(uint64_t x);
/* Sort, end and deduplicate l's symbols as perf does, into d's table. */
int finish_table(struct loader *l, struct dso *d);
/* The symbol perf's replayed tree t finds at ip, or NULL. */
const struct sym *tree_find(const struct stree *t, uint64_t ip);
/* Whether d's symbols overlap each other or its PLT entries. */
bool overlaps(const struct dso *d);
/* Replay perf's tree of d's symbols (tab: as loaded) into d->tree. */
int replay_tree(struct dso *d, const struct rsym *tab, size_t n);
/* The index of d's first symbol that starts after addr. */
size_t first_after(const struct dso *d, uint64_t addr);
/* The symbol of d's table covering addr, or NULL. */
const struct sym *find_in(const struct dso *d, uint64_t addr);
/* The build id the recording gives for name: its length, 0 if none. */
size_t recorded_id(const struct symcache *c, const char *name, unsigned char id[HOST_BUILD_ID_MAX]);
/* Whether the recorded build id of name is another than this machine's (host_id). */
bool other_machine(const struct symcache *c, const char *name,
		   size_t (*host_id)(unsigned char id[HOST_BUILD_ID_MAX]));
/* The DSO at path, loaded at its first use; NULL without memory. */
struct dso *dso_by_name(struct symcache *c, const char *path);

/* symbols-elf.c: ELF files */

/* e's first section of type type (its header in *out), or NULL. */
Elf_Scn *find_section(Elf *e, Elf64_Word type, GElf_Shdr *out);
/* The file named base in perf's build-id cache for build id bid, in p. */
bool cache_file(char *p, size_t len, const char *bid, const char *base);
/* The ELF at path, open, if its build id is want; else -1. */
int open_matching(const char *path, const char *want);
/* Load d's symbols from the file that ran (build id want, else the cache's base). */
void load_dso(struct dso *d, const char *want, const char *base, const char *symfs);
/* Load d's symbols from this process's vdso. */
void load_vdso(struct dso *d);

/* symbols-kernel.c: the kernel */

/* The thread reading the kernel's symbols, finished. */
void kernel_join(struct symcache *c);
/* The comparison of the kallsyms copy with /proc/kallsyms, finished. */
void copy_join(struct symcache *c);
void ksyms_free(struct ksyms *k);
void kimage_free(struct kimage *ki);
void kmods_free(struct kmod *m);

/* symbols-inline.c */

/* The address the DWARF uses for an address of d's file-offset space. */
uint64_t offset_to_vaddr(const struct dso *d, uint64_t off);

/* symbols-line.c */

/* Close what annotation's lookups opened of d. */
void dso_free_lines(struct dso *d);
/* The DSO at path with its runtime image open (d->img_elf), or NULL. */
struct dso *image_dso(struct symcache *c, const char *path);

/* symbols-linefile.c */

struct lfcache;
/*
 * The file binutils names for line l of unit cu of d's line DWARF, where
 * libdw names file: file 0 for a DWARF 5 row a sequence has before it
 * sets its file, else file.
 */
const char *line_file_binutils(struct dso *d, Dwarf_Die *cu, Dwarf_Line *l, const char *file);
void line_file_free(struct dso *d);

/* symbols-objdump.c */

void dso_free_objdump(struct dso *d);

/* demangle.c */

/* name demangled as perf shows it (malloc'ed), or NULL when not mangled. */
char *demangle(const char *name);
/* name demangled as objdump -C prints it (with parameters, "@..." kept after), or NULL. */
char *demangle_params(const char *name);

/* The symbol file's whole DWARF, its line table kept (symbols-line.c), opened once. */
Dwarf *line_dwarf(struct dso *d);

#endif
