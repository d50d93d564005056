// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's symbols, as perf finds them: /proc/kallsyms (or the file
 * --kallsyms names, or the build-id cache's copy), split among the
 * recording's kernel maps; else a kernel image (vmlinux) with the
 * recorded build id, and the .ko of each module the recording names.
 * kallsyms is read on a thread of its own while the samples are read.
 */
#include <ctype.h>
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../host/host.h"
#include "../lib/alloc.h"
#include "../lib/buf.h"
#include "../lib/log.h"
#include "../perfdata/perfdata.h"
#include "symbols-internal.h"
#include "symbols.h"

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

/*
 * The thread symcache__load_kernel_async started, finished: what it
 * wrote (kernel_tried, kallsyms) is the caller's to read from here on.
 */
void kernel_join(struct symcache *c)
{
	if (c->kthread_running) {
		pthread_join(c->kthread, NULL);
		c->kthread_running = false;
	}
}

/* The comparison of the copy read with /proc/kallsyms, finished. */
void copy_join(struct symcache *c)
{
	kernel_join(c);	/* the thread that starts it */
	if (c->vthread_running) {
		pthread_join(c->vthread, NULL);
		c->vthread_running = false;
	}
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

#define KSYMS_GUESS	(1 << 17)	/* kallsyms has 100k to 200k lines */

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

void ksyms_free(struct ksyms *k)
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

void kimage_free(struct kimage *ki)
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
/* perf's reference symbols: the first of the name, whatever it is. */
static void kimage_ref_symbol(struct kimage *ki, const char *name, uint64_t value)
{
	if (!ki->has_text && !strcmp(name, "_text")) {
		ki->text_addr = value;
		ki->has_text = true;
	} else if (!ki->has_stext && !strcmp(name, "_stext")) {
		ki->stext_addr = value;
		ki->has_stext = true;
	}
}

/*
 * The map of section secname: by name, made at its first symbol, with its
 * loader in (*ls)[k - 1]; its k (index + 1), or -1 out of memory.
 */
static int kimage_section(struct kimage *ki, struct loader **ls, size_t *lcap, const char *secname,
			  const GElf_Shdr *ssh)
{
	const char *suffix = strcmp(secname, ".text") ? secname : "";
	size_t dn = strlen(secname) + sizeof("[kernel.kallsyms]");
	struct ksec *ks;

	for (size_t j = 0; j < ki->n; j++)
		if (!strcmp(ki->v[j].dso + strlen("[kernel.kallsyms]"), suffix))
			return (int)j + 1;
	if (ALLOC_GROW(ki->v, ki->n + 1, ki->cap) || ALLOC_GROW(*ls, ki->n + 1, *lcap))
		return -1;
	ks = &ki->v[ki->n];
	memset(ks, 0, sizeof(*ks));
	memset(&(*ls)[ki->n], 0, sizeof(**ls));
	if (!(ks->d = calloc(1, sizeof(*ks->d))) || !(ks->dso = malloc(dn))) {
		free(ks->dso);
		free(ks->d);
		return -1;
	}
	snprintf(ks->dso, dn, "[kernel.kallsyms]%s", suffix);
	ks->addr = ssh->sh_addr;
	ks->size = ssh->sh_size;
	ks->off = ssh->sh_offset;
	if (!*suffix)
		ki->text = (int)ki->n;
	return (int)++ki->n;
}

/* .text's table as a DSO's (ends fixed, one per address); every other section's as it is. */
static void kimage_tables(struct kimage *ki, struct loader *ls)
{
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
}

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
		kimage_ref_symbol(ki, name, s.st_value);
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
		if (!(k = secmap[s.st_shndx]) && (k = secmap[s.st_shndx] = kimage_section(ki, &ls, &lcap, secname, &ssh)) < 0)
			goto out;
		if (add_sym(&ls[k - 1], s.st_value - (ssh.sh_addr - ssh.sh_offset), s.st_size, name,
			    (unsigned char)GELF_ST_BIND(s.st_info)))
			goto out;
		total++;
	}
	kimage_tables(ki, ls);
	err = total ? 0 : -1;
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

void kmods_free(struct kmod *m)
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
	/* Room for a kernel's lines at once: grown by doubling, the table was copied (and faulted in) 14 times. */
	if (!k || mbuf_reserve(&kl.pool, 4 << 20) || ALLOC_GROW(k->v, KSYMS_GUESS, k->cap))
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

void symcache__load_kernel_for(struct symcache *c, const struct pdata *p)
{
	if (pdata__is_pipe(p))
		return;
	for (size_t i = 0; i < pdata__nr_evsel(p); i++)
		if (!(pd_attr_flags(&pdata__evsel(p, i)->attr) & 1u << 5)) {	/* exclude_kernel */
			symcache__load_kernel_async(c);
			return;
		}
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

/* The file offset of vaddr in the image's ELF: in a section with its bytes (not NOBITS), else false. */
static bool kimage_file_offset(Elf *e, uint64_t vaddr, uint64_t *off, uint64_t *left)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size ||
		    vaddr < sh.sh_addr || vaddr >= sh.sh_addr + sh.sh_size)
			continue;
		if (sh.sh_type != SHT_PROGBITS)
			return false;	/* a debug-only image: the code is not in it */
		*off = sh.sh_offset + (vaddr - sh.sh_addr);
		*left = sh.sh_addr + sh.sh_size - vaddr;
		return true;
	}
	return false;
}

long symcache__kernel_read(struct symcache *c, uint64_t ip, void *buf, size_t len, uint64_t *vaddr)
{
	uint64_t off, left;
	long n = -ENOENT;
	Elf *e;
	int fd;

	kernel_wait(c);
	if (!c->kimage)
		return -ENOENT;	/* kallsyms' symbols: no code to read */
	*vaddr = ip - (uint64_t)kimage_reloc(c);
	if ((fd = host_open_regular(c->kimage->path)) < 0)
		return -errno;
	if ((e = elf_begin(fd, ELF_C_READ_MMAP, NULL)) && kimage_file_offset(e, *vaddr, &off, &left)) {
		ssize_t r = pread(fd, buf, len < left ? len : left, (off_t)off);

		n = r < 0 ? -errno : (long)r;
	}
	if (e)
		elf_end(e);
	close(fd);
	return n;
}
