// SPDX-License-Identifier: GPL-2.0-only
/*
 * Symbol tables, perf's way: functions, objects and text labels from the
 * ELF .symtab (else .dynsym, else the .symtab of separate debug info),
 * in file-offset space (ET_EXEC symbols are moved from their section's
 * address to its file offset; ET_DYN ones are used as they are), sorted,
 * duplicates resolved as perf resolves them, and zero-sized symbols
 * extended to the next one.  Kernel symbols come from /proc/kallsyms.
 *
 * This file is the cache itself (its DSOs by path, the recording's build
 * ids), the building of a table and the lookups in it.  The symbols come
 * from symbols-elf.c (ELF files, separate debug info), symbols-kernel.c
 * (kallsyms, vmlinux, modules) and symbols-inline.c (DWARF inline
 * frames); names are demangled by demangle.c.  What they share is
 * symbols-internal.h.
 */
#include <errno.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../host/host.h"
#include "../lib/alloc.h"
#include "../lib/buf.h"
#include "../lib/hash.h"
#include "../lib/log.h"
#include "../lib/rbtree.h"
#include "../perfdata/perfdata.h"
#include "symbols-internal.h"
#include "symbols.h"

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

struct symcache *symcache__new(void)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	return calloc(1, sizeof(struct symcache));
}

void dso_free_tables(struct dso *d)
{
	free(d->syms);
	free(d->names);
	free(d->objects);
	d->objects = NULL;
}

void dso_free(struct dso *d)
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
	dso_free_lines(d);
	dso_free_tables(d);
	free(d);
}

void symcache__set_build_ids(struct symcache *c, symcache_build_id_fn fn, void *arg)
{
	kernel_join(c);	/* the thread asks them */
	c->build_id = fn;
	c->build_id_arg = arg;
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
	free(c->symfs);
	free(c->os_release);
	free(c);
}

void symcache__no_demangle(struct symcache *c)
{
	c->raw_names = true;
}

int symcache__set_symfs(struct symcache *c, const char *dir)
{
	free(c->symfs);
	c->symfs = NULL;
	if (dir && !(c->symfs = strdup(dir)))
		return -ENOMEM;
	return 0;
}

static size_t recorded_build_id(void *arg, const char *name, unsigned char id[20])
{
	return pdata__build_id(arg, name, id);
}

struct symcache *symcache__for_file(struct pdata *p, const char *vmlinux, const char *kallsyms, const char *symfs)
{
	struct symcache *c = symcache__new();

	if (!c || symcache__set_symfs(c, symfs)) {
		symcache__delete(c);
		mperf_error(-ENOMEM, "out of memory");
		return NULL;
	}
	symcache__set_build_ids(c, recorded_build_id, p);
	symcache__set_kernel_files(c, p, vmlinux, kallsyms);
	return c;
}

/* ---- building a table ---- */

int add_sym(struct loader *l, uint64_t start, uint64_t size, const char *name, unsigned char bind)
{
	if (ALLOC_GROW(l->v, l->n + 1, l->cap))
		return -ENOMEM;
	if (l->names.len > UINT32_MAX || l->n >= (1u << 27))
		return -E2BIG;
	l->v[l->n].start = start;
	l->v[l->n].end = start + size;
	l->v[l->n].name = (uint32_t)l->names.len;
	l->v[l->n].bind = bind & 0xf;
	l->v[l->n].object = (bind & ADD_SYM_OBJECT) != 0;
	l->v[l->n].order = (uint32_t)l->n;
	l->n++;
	return mbuf_add(&l->names, name, strlen(name) + 1);
}

int rsym_cmp(const void *a, const void *b)
{
	const struct rsym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

size_t leading_underscores(const char *s)
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

uint64_t roundup_page(uint64_t x)
{
	return (x + SYM_PAGE - 1) & ~(SYM_PAGE - 1);
}

/*
 * As perf does it, in this order: sort by address (symbols at one address
 * keep their table order), give each zero-sized symbol the next one's
 * start as its end, then keep one symbol per address.
 */
int finish_table(struct loader *l, struct dso *d)
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
	for (size_t i = 0; i < k && !d->objects; i++)
		if (l->v[i].object && !(d->objects = calloc((k + 7) / 8, 1)))
			return -ENOMEM;
	d->syms = (struct sym *)l->v;
	for (size_t i = 0; i < k; i++) {
		struct rsym r = l->v[i];

		if (r.object)
			d->objects[i / 8] |= (unsigned char)(1u << (i % 8));
		d->syms[i].start = r.start;
		d->syms[i].end = r.end;
		d->syms[i].name = d->names + r.name;
	}
	l->v = NULL;
	l->n = l->cap = 0;
	d->n = k;
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

const struct sym *tree_find(const struct stree *t, uint64_t ip)
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
bool overlaps(const struct dso *d)
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
int replay_tree(struct dso *d, const struct rsym *tab, size_t n)
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

/* The index of d's first symbol (by start) that starts after addr. */
size_t first_after(const struct dso *d, uint64_t addr)
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

const struct sym *find_in(const struct dso *d, uint64_t addr)
{
	size_t lo = first_after(d, addr);

	/* the symbol before lo may cover addr */
	if (lo && addr < d->syms[lo - 1].end)
		return &d->syms[lo - 1];
	return NULL;
}

/* The build id the recording gives for name: its length, 0 if none (or all zeros). */
size_t recorded_id(const struct symcache *c, const char *name, unsigned char id[HOST_BUILD_ID_MAX])
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
bool other_machine(const struct symcache *c, const char *name,
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
	d->raw_names = c->raw_names;
	/* Real files, and the vdso: the kernel's, the same one this process has. */
	if (path[0] == '/') {
		unsigned char id[HOST_BUILD_ID_MAX];
		char want[2 * HOST_BUILD_ID_MAX + 1];
		size_t n = recorded_id(c, path, id);

		host_build_id_hex(id, n, want);
		load_dso(d, want, "elf", c->symfs);
	} else if (!strcmp(path, "[vdso]")) {
		/*
		 * perf makes the dso of a build id the file names before any
		 * record: its image is then the cache's alone (this machine's
		 * vdso or not); without one, this machine's.
		 */
		unsigned char id[HOST_BUILD_ID_MAX];
		char want[2 * HOST_BUILD_ID_MAX + 1];
		size_t n = recorded_id(c, path, id);

		host_build_id_hex(id, n, want);
		if (n)
			load_dso(d, want, "vdso", NULL);
		else
			load_vdso(d);
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
struct dso *dso_by_name(struct symcache *c, const char *path)
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

bool symcache__sym_object(const struct symcache *c, const struct sym *s)
{
	const struct dso *d = c->last_dso;
	size_t i;

	if (!d || !d->objects || !s || s < d->syms || s >= d->syms + d->n)
		return false;	/* a PLT entry's, or another table's */
	i = (size_t)(s - d->syms);
	return (d->objects[i / 8] >> (i % 8)) & 1;
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

char symcache__origin(struct symcache *c, const char *path)
{
	struct dso *d;

	if (!strcmp(path, "[kernel.kallsyms]"))
		return c->kimage ? 'v' : c->kallsyms ? 'k' : '!';
	if (path[0] != '/' && strcmp(path, "[vdso]"))
		return '!';
	d = get_dso(c, path);
	return d && d->usable && d->origin ? d->origin : '!';
}

const char *symcache__runtime_path(struct symcache *c, const char *path)
{
	struct dso *d = dso_by_name(c, path);

	if (!d || (path[0] != '/' && strcmp(path, "[vdso]")) || !d->usable)
		return NULL;
	c->last_path = path;
	c->last_dso = d;
	return d->runtime ? d->runtime : d->path;
}
