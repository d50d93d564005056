// SPDX-License-Identifier: GPL-2.0-only
/*
 * The DSOs a recording names and their build ids, in the order perf 6.1's
 * buildid-list keeps them: the BUILD_ID feature's entries first (one DSO
 * per name and machine, the last id winning), then, when the records are
 * read (a pipe-mode stream, whose build ids are HEADER_BUILD_ID records,
 * or -H), each DSO an mmap names for the first time, with the id an MMAP2
 * carries.  -H keeps the DSOs a sample's ip falls in (not its call chain:
 * perf marks only those).  The host's DSOs come first, then each guest
 * machine's (entries with another pid), by pid.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "../host/host.h"
#include "../lib/alloc.h"
#include "../lib/hash.h"
#include "../lib/log.h"
#include "report.h"
#include "../resolve/session.h"
#include "../resolve/symbols.h"

#define BD_BUCKETS 256

struct bdso {
	struct report_dso d;
	char *name;
	char *kmod;		/* a module's short name, "[name]", when it is one */
	struct bdso *next;	/* hash chain, by name */
};

struct bmachine {
	int32_t pid;
	struct bdso **v;	/* in the order they were made */
	size_t n, cap;
	struct bdso *b[BD_BUCKETS];
	struct bdso *kernel;	/* the dso the kernel's map has */
};

struct bd {
	struct pdata *p;
	struct bmachine *m;	/* [0] is the host; guests follow, sorted by pid */
	size_t nm, mcap;
	int err;
	struct symcache *syms;	/* loads nothing: says perf's warning for another machine's kernel */
};

/*
 * perf's kmod_path rule: "[x]" is a module unless it is the kernel's or a
 * vdso's name; a path is one when its name ends in .ko (compressed or
 * not).  The module's short name is "[base]", dashes made underscores.
 */
static char *kmod_name(const char *path)
{
	const char *base = strrchr(path, '/'), *ko;
	char *s;
	size_t n;

	base = base ? base + 1 : path;
	if (base[0] == '[') {
		static const char *const not[] = { "[kernel.kallsyms]", "[guest.kernel.kallsyms", "[vdso]",
						   "[vdso32]", "[vdsox32]", "[vsyscall]" };

		for (size_t i = 0; i < sizeof(not) / sizeof(not[0]); i++)
			if (!strncmp(base, not[i], strlen(not[i])))
				return NULL;
		return strdup(base);
	}
	ko = strrchr(base, '.');
	if (ko && ko > base && (!strcmp(ko, ".gz") || !strcmp(ko, ".xz") || !strcmp(ko, ".zst"))) {
		const char *k = ko - 3;

		ko = k > base ? k : NULL;
	}
	if (!ko || ko == base || strncmp(ko, ".ko", 3))
		return NULL;
	n = (size_t)(ko - base);
	if (!(s = malloc(n + 3)))
		return NULL;
	s[0] = '[';
	for (size_t i = 0; i < n; i++)
		s[i + 1] = base[i] == '-' ? '_' : base[i];
	s[n + 1] = ']';
	s[n + 2] = 0;
	return s;
}

static struct bmachine *machine_of(struct bd *b, int32_t pid)
{
	size_t i;

	if (pid != -1)
		for (i = 1; i < b->nm; i++)
			if (b->m[i].pid == pid)
				return &b->m[i];
	if (pid == -1 && b->nm)
		return &b->m[0];
	if (ALLOC_GROW(b->m, b->nm + 1, b->mcap))
		return NULL;
	if (!b->nm) {
		memset(&b->m[0], 0, sizeof(b->m[0]));
		b->m[0].pid = -1;
		b->nm = 1;
		if (pid == -1)
			return &b->m[0];
	}
	/* Guests in pid order, after the host. */
	for (i = 1; i < b->nm && b->m[i].pid < pid; i++)
		;
	memmove(&b->m[i + 1], &b->m[i], (b->nm - i) * sizeof(*b->m));
	memset(&b->m[i], 0, sizeof(b->m[i]));
	b->m[i].pid = pid;
	b->nm++;
	return &b->m[i];
}

static struct bdso *find(struct bmachine *m, const char *name)
{
	for (struct bdso *d = m->b[hash_str(name) % BD_BUCKETS]; d; d = d->next)
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}

static struct bdso *findnew(struct bd *b, struct bmachine *m, const char *name)
{
	struct bdso *d = find(m, name);
	size_t h;

	if (d)
		return d;
	if (ALLOC_GROW(m->v, m->n + 1, m->cap) || !(d = calloc(1, sizeof(*d))) || !(d->name = strdup(name))) {
		free(d);
		b->err = -ENOMEM;
		return NULL;
	}
	d->d.name = d->name;
	d->d.machine = m->pid;
	d->kmod = kmod_name(name);
	h = hash_str(name) % BD_BUCKETS;
	d->next = m->b[h];
	m->b[h] = d;
	m->v[m->n++] = d;
	return d;
}

static void set_id(struct bdso *d, const uint8_t *id, size_t len)
{
	memcpy(d->d.id, id, len);
	d->d.id_len = len;
	d->d.has_id = true;
}

/* A BUILD_ID entry or HEADER_BUILD_ID record, as perf's __event_process_build_id takes it. */
static void build_id_entry(struct bd *b, const struct pd_build_id *e)
{
	int cpumode = e->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct bmachine *m;
	struct bdso *d;

	if (cpumode != PERF_RECORD_MISC_KERNEL && cpumode != PERF_RECORD_MISC_GUEST_KERNEL &&
	    cpumode != PERF_RECORD_MISC_USER && cpumode != PERF_RECORD_MISC_GUEST_USER)
		return;
	if (!(m = machine_of(b, e->pid))) {
		b->err = -ENOMEM;
		return;
	}
	if (!(d = findnew(b, m, e->name)))
		return;
	set_id(d, e->id, e->len);
	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		d->d.kernel = true;
}

/* A kernel mmap's dso: the kernel's own (the first kernel dso that is no module) or a module's. */
static struct bdso *kernel_mmap(struct bd *b, struct bmachine *m, const char *dso, const char *filename)
{
	struct bdso *d = NULL;
	char *k;

	if (!strncmp(filename, "[kernel.kallsyms", 16)) {
		for (size_t i = 0; i < m->n && !m->kernel; i++)
			if (m->v[i]->d.kernel && !m->v[i]->kmod)
				m->kernel = m->v[i];
		if (!m->kernel)
			m->kernel = findnew(b, m, "[kernel.kallsyms]");
		if (m->kernel)
			m->kernel->d.kernel = true;
		return m->kernel;
	}
	/* perf finds a module's dso by its short name, "[name]". */
	if ((k = kmod_name(dso))) {
		for (size_t i = 0; i < m->n && !d; i++)
			if (m->v[i]->kmod && !strcmp(m->v[i]->kmod, k))
				d = m->v[i];
		free(k);
	}
	if (!d && (d = findnew(b, m, dso)))
		d->d.kernel = true;
	return d;
}

static int on_record(void *arg, const struct session_record *r)
{
	struct bd *b = arg;
	const struct perf_event_header *h = r->h;
	int cpumode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	char nbuf[4096], buf[MACHINE_DSO_BUF];
	struct pd_mmap mm;
	const char *dso, *name;
	struct bmachine *host;
	uint8_t id[20];
	size_t id_len = 0;
	struct bdso *d;

	if (h->type == PD_HEADER_BUILD_ID) {
		struct pd_build_id e;

		if (pd_build_id_decode(h, h->size, &e) && e.name)
			build_id_entry(b, &e);
		return b->err;
	}
	if (h->type != PERF_RECORD_MMAP && h->type != PERF_RECORD_MMAP2)
		return 0;
	if (!(host = machine_of(b, -1)))
		return -ENOMEM;
	if (!pd_mmap_view(h, &mm, nbuf, sizeof(nbuf)))
		return 0;
	name = mm.filename;
	dso = machine__mmap_dso(cpumode, (int)mm.pid, mm.exec, mm.flags, name, buf);
	/* The id an MMAP2 carries is the dso's. */
	id_len = mm.build_id_size;
	memcpy(id, mm.build_id, id_len);
	if (!dso)
		return 0;
	if (cpumode == PERF_RECORD_MISC_KERNEL)
		d = kernel_mmap(b, host, dso, name);
	else
		d = findnew(b, host, dso);
	if (d && id_len)
		set_id(d, id, id_len);
	return b->err;
}

static int on_sample(void *arg, const struct session_sample *ss)
{
	struct bd *b = arg;
	struct bmachine *host = b->nm ? &b->m[0] : NULL;
	struct bdso *d = NULL;

	if (!ss->where.found || !host)
		return 0;
	if (ss->cpumode == PERF_RECORD_MISC_KERNEL && !strcmp(ss->where.dso, "[kernel.kallsyms]")) {
		/* perf loads the kernel's map here: its warning when the kernel is nowhere */
		symcache__kernel_hit(b->syms);
		d = host->kernel;
	} else if (ss->cpumode == PERF_RECORD_MISC_KERNEL) {
		char *k = kmod_name(ss->where.dso);

		for (size_t i = 0; k && i < host->n && !d; i++)
			if (host->v[i]->kmod && !strcmp(host->v[i]->kmod, k))
				d = host->v[i];
		free(k);
	}
	if (!d)
		d = find(host, ss->where.dso);
	if (d)
		d->d.hit = true;
	return 0;
}

static void bd_free(struct bd *b)
{
	for (size_t i = 0; i < b->nm; i++) {
		for (size_t k = 0; k < b->m[i].n; k++) {
			free(b->m[i].v[k]->name);
			free(b->m[i].v[k]->kmod);
			free(b->m[i].v[k]);
		}
		free(b->m[i].v);
	}
	free(b->m);
}

int report__dsos(struct pdata *p, const char *label, bool with_hits,
		 int (*fn)(void *arg, const struct report_dso *d), void *arg)
{
	struct bd b = { .p = p };
	struct pd_build_id e;
	size_t pos = 0;
	int err = 0;

	if (!machine_of(&b, -1))
		return mperf_error(-ENOMEM, "out of memory");
	while (pdata__build_id_next(p, &pos, &e) && !b.err)
		build_id_entry(&b, &e);
	/* perf takes every DSO of a file with AUX area data: it does not decode the trace. */
	if (!pdata__is_pipe(p) && pdata__has_feat(p, PD_FEAT_AUXTRACE))
		with_hits = false;
	/* Without the feature (a stream has no feature bits) perf keeps the DSOs hit only. */
	if (pdata__is_pipe(p) || !pdata__has_feat(p, PD_FEAT_BUILD_ID))
		with_hits = true;
	if (!b.err && with_hits) {
		struct session_ops ops = { .record = on_record, .sample = on_sample, .arg = &b, .machine = true };

		b.syms = symcache__for_file(p, NULL, NULL, NULL);
		err = b.syms ? session__run(p, label, &ops) : -ENOMEM;
	}
	if (b.err)
		err = mperf_error(b.err, "out of memory");
	for (size_t i = 0; !err && i < b.nm; i++)
		for (size_t k = 0; !err && k < b.m[i].n; k++)
			if (!with_hits || b.m[i].v[k]->d.hit)
				err = fn(arg, &b.m[i].v[k]->d);
	bd_free(&b);
	symcache__delete(b.syms);
	return err;
}

static int print_dso(void *arg, const struct report_dso *d)
{
	char hex[2 * HOST_BUILD_ID_MAX + 1];

	host_build_id_hex(d->id, d->id_len, hex);
	if (fprintf(arg, "%-40s %s\n", hex, d->name) < 0)
		return -errno;
	return 0;
}

int report__buildid_list(struct pdata *p, const char *label, bool with_hits, FILE *out)
{
	return report__dsos(p, label, with_hits, print_dso, out);
}
