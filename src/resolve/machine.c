// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine perf report models: threads keyed by tid, each with the maps
 * of its process, plus the kernel's maps.  The rules (which thread a pid
 * joins, how an mmap cuts older maps, what a map's dso is called) follow
 * perf 6.1's behaviour so that the `... thread:` / `...... dso:` lines of
 * a dump come out the same.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/perf_event.h>
#include "../lib/alloc.h"
#include "../lib/strset.h"
#include "machine.h"

#define THREAD_BUCKETS	4096

struct map {
	uint64_t start, end, pgoff;
	uint64_t ino;		/* what --mmaps prints: MMAP2's inode, protection and flags */
	uint32_t prot, flags;
	const char *dso;	/* interned */
	bool is_kernel;		/* the vmlinux map: KSYMBOL unregister never removes it */
};

struct maps {
	int refcnt;
	struct map *v;		/* sorted by start, never overlapping */
	size_t n, cap;
};

struct thread {
	int pid, tid;
	int ppid;		/* the tid of the thread it forked from, -1: none seen (perf's ppid) */
	char *comm;
	bool comm_set;
	struct maps *maps;
	struct thread *next;	/* hash chain */
};

#define DSO_BUCKETS	256

/*
 * The order perf made its dso objects in, which orders them as their
 * addresses do: the BUILD_ID feature's in file order, then as the mmaps
 * name the others (the kernel's too, when the feature lacks it).
 */
struct dso_rank {
	const char *dso;	/* interned */
	uint32_t rank;
	struct dso_rank *next;
};

struct machine {
	struct thread *threads[THREAD_BUCKETS];
	struct maps kmaps;
	struct strset strs;
	struct dso_rank *ranks[DSO_BUCKETS];
	uint32_t nr_ranks;
	uint64_t gen;		/* changes whenever an address could resolve otherwise */
};

/* dso names are shared by many maps: one interned copy each. */
static const char *intern(struct machine *m, const char *s)
{
	return strset_intern(&m->strs, s);
}

static size_t dso_bucket(const char *dso)
{
	return (size_t)(((uintptr_t)dso >> 4) * 0x9e3779b97f4a7c15ULL >> 56) % DSO_BUCKETS;
}

static uint32_t dso_rank(const struct machine *m, const char *dso)
{
	for (const struct dso_rank *r = m->ranks[dso_bucket(dso)]; r; r = r->next)
		if (r->dso == dso)
			return r->rank;
	return 0;	/* none made */
}

static int note_dso(struct machine *m, const char *dso)
{
	size_t b = dso_bucket(dso);
	struct dso_rank *r;

	if (dso_rank(m, dso))
		return 0;
	if (!(r = malloc(sizeof(*r))))
		return -ENOMEM;
	r->dso = dso;
	r->rank = ++m->nr_ranks;
	r->next = m->ranks[b];
	m->ranks[b] = r;
	return 0;
}

/* ---- maps ---- */

static struct maps *maps__new(void)
{
	struct maps *ms = calloc(1, sizeof(*ms));

	if (ms)
		ms->refcnt = 1;
	return ms;
}

static void maps__put(struct maps *ms)
{
	if (ms && --ms->refcnt == 0) {
		free(ms->v);
		free(ms);
	}
}

static int maps__reserve(struct maps *ms, size_t extra)
{
	return ALLOC_GROW(ms->v, ms->n + extra, ms->cap);
}

/* Index of the first map whose end is above addr. */
static size_t maps__lower(const struct maps *ms, uint64_t addr)
{
	size_t lo = 0, hi = ms->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ms->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct map *maps__find(const struct maps *ms, uint64_t addr)
{
	size_t i = maps__lower(ms, addr);

	return i < ms->n && ms->v[i].start <= addr ? &ms->v[i] : NULL;
}

/* Insert nm; older maps keep only the parts it does not cover. */
static int maps__insert(struct maps *ms, const struct map *nm)
{
	size_t i = maps__lower(ms, nm->start), j = i;
	struct map left = { 0 }, right = { 0 };
	bool has_left = false, has_right = false;

	if (nm->end <= nm->start)
		return 0;
	while (j < ms->n && ms->v[j].start < nm->end)
		j++;
	/* Maps [i, j) overlap nm; only the first can stick out left, the last right. */
	if (i < j && ms->v[i].start < nm->start) {
		left = ms->v[i];
		left.end = nm->start;
		has_left = true;
	}
	if (i < j && ms->v[j - 1].end > nm->end) {
		right = ms->v[j - 1];
		right.pgoff += nm->end - right.start;
		right.start = nm->end;
		has_right = true;
	}
	if (maps__reserve(ms, 3))
		return -ENOMEM;
	size_t keep = (size_t)has_left + 1 + (size_t)has_right;
	memmove(&ms->v[i + keep], &ms->v[j], (ms->n - j) * sizeof(*ms->v));
	ms->n = ms->n - (j - i) + keep;
	if (has_left)
		ms->v[i++] = left;
	ms->v[i++] = *nm;
	if (has_right)
		ms->v[i] = right;
	return 0;
}

static void maps__remove_at(struct maps *ms, size_t i)
{
	memmove(&ms->v[i], &ms->v[i + 1], (ms->n - i - 1) * sizeof(*ms->v));
	ms->n--;
}

static int maps__copy_into(struct maps *dst, const struct maps *src)
{
	for (size_t i = 0; i < src->n; i++)
		if (maps__insert(dst, &src->v[i]))
			return -ENOMEM;
	return 0;
}

/* ---- threads ---- */

static struct thread *find_thread(struct machine *m, int tid)
{
	for (struct thread *t = m->threads[(unsigned)tid % THREAD_BUCKETS]; t; t = t->next)
		if (t->tid == tid)
			return t;
	return NULL;
}

static void unlink_thread(struct machine *m, struct thread *th)
{
	struct thread **pp = &m->threads[(unsigned)th->tid % THREAD_BUCKETS];

	while (*pp && *pp != th)
		pp = &(*pp)->next;
	if (*pp)
		*pp = th->next;
}

static void free_thread(struct thread *th)
{
	maps__put(th->maps);
	free(th->comm);
	free(th);
}

static void remove_thread(struct machine *m, struct thread *th)
{
	unlink_thread(m, th);
	free_thread(th);
}

static struct thread *findnew_thread(struct machine *m, int pid, int tid);

/* A thread first seen without a pid joins its process's maps once the pid is known. */
static void update_pid(struct machine *m, struct thread *th, int pid)
{
	struct thread *leader;

	if (pid == th->pid || pid == -1 || th->pid != -1)
		return;
	th->pid = pid;
	m->gen++;
	if (pid == th->tid)
		return;
	leader = findnew_thread(m, pid, pid);
	if (!leader || th->maps == leader->maps)
		return;
	maps__put(th->maps);
	th->maps = leader->maps;
	th->maps->refcnt++;
}

static struct thread *findnew_thread(struct machine *m, int pid, int tid)
{
	struct thread *th = find_thread(m, tid), *leader;
	char comm[32];

	if (th) {
		update_pid(m, th, pid);
		return th;
	}
	m->gen++;
	th = calloc(1, sizeof(*th));
	snprintf(comm, sizeof(comm), ":%d", tid);
	if (!th || !(th->comm = strdup(comm))) {
		free(th);
		return NULL;
	}
	th->pid = pid;
	th->tid = tid;
	th->ppid = -1;
	th->next = m->threads[(unsigned)tid % THREAD_BUCKETS];
	m->threads[(unsigned)tid % THREAD_BUCKETS] = th;
	if (pid == tid || pid == -1) {
		th->maps = maps__new();
	} else {
		leader = findnew_thread(m, pid, pid);
		if (leader) {
			th->maps = leader->maps;
			th->maps->refcnt++;
		}
	}
	if (!th->maps) {
		remove_thread(m, th);
		return NULL;
	}
	return th;
}

static int set_comm(struct thread *th, const char *comm)
{
	char *c = strdup(comm);

	if (!c)
		return -ENOMEM;
	free(th->comm);
	th->comm = c;
	th->comm_set = true;
	return 0;
}

struct machine *machine__new(void)
{
	struct machine *m = calloc(1, sizeof(*m));
	struct thread *swapper;

	if (!m)
		return NULL;
	m->kmaps.refcnt = 1;
	/* perf starts with the idle thread, 0/0, already named. */
	swapper = findnew_thread(m, 0, 0);
	if (!swapper) {
		machine__delete(m);
		return NULL;
	}
	set_comm(swapper, "swapper");
	return m;
}

void machine__delete(struct machine *m)
{
	if (!m)
		return;
	for (int b = 0; b < THREAD_BUCKETS; b++)
		while (m->threads[b])
			remove_thread(m, m->threads[b]);
	for (int b = 0; b < DSO_BUCKETS; b++)
		for (struct dso_rank *r = m->ranks[b], *next; r; r = next) {
			next = r->next;
			free(r);
		}
	strset_free(&m->strs);
	free(m->kmaps.v);
	free(m);
}

int machine__recorded_dso(struct machine *m, const char *dso)
{
	const char *d = intern(m, dso);

	return d ? note_dso(m, d) : -ENOMEM;
}

int machine__comm(struct machine *m, int pid, int tid, const char *comm)
{
	struct thread *th = findnew_thread(m, pid, tid);

	return th ? set_comm(th, comm) : -ENOMEM;
}

int machine__fork(struct machine *m, int pid, int tid, int ppid, int ptid, bool synthesized,
		  int *removed_pid, int *removed_tid)
{
	struct thread *parent = findnew_thread(m, ppid, ptid), *th, *detached = NULL;
	int err = 0;

	m->gen++;
	*removed_tid = -2;
	if (parent && parent->pid != ppid) {
		*removed_pid = parent->pid;
		*removed_tid = parent->tid;
		remove_thread(m, parent);
		parent = findnew_thread(m, ppid, ptid);
	}
	/* A stale thread with the child's tid goes (it may be the parent itself: keep that alive). */
	th = find_thread(m, tid);
	if (th == parent && th) {
		unlink_thread(m, th);
		detached = th;
	} else if (th) {
		remove_thread(m, th);
	}
	th = findnew_thread(m, pid, tid);
	if (!th || !parent) {
		err = -ENOMEM;
		goto out;
	}
	if (parent->comm_set)
		set_comm(th, parent->comm);
	th->ppid = parent->tid;
	/* A new process gets a copy of its parent's maps (perf's own synthesized forks: none). */
	if (th->pid != parent->pid && th->maps != parent->maps && !synthesized)
		err = maps__copy_into(th->maps, parent->maps);
out:
	if (detached)
		free_thread(detached);
	return err;
}

void machine__exit(struct machine *m, int tid)
{
	struct thread *th = find_thread(m, tid);

	if (!th)
		return;
	m->gen++;
	remove_thread(m, th);
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* perf's maps without a file behind them (anonymous memory, the stack, the heap): addresses map to themselves. */
static bool fileless(const char *filename, uint32_t flags)
{
	return !strcmp(filename, "//anon") || starts(filename, "/dev/zero") || starts(filename, "/anon_hugepage") ||
	       (flags & MAP_HUGETLB) || starts(filename, "[stack") || starts(filename, "/SYSV") ||
	       !strcmp(filename, "[heap]");
}

const char *machine__mmap_dso(int cpumode, int pid, bool exec, uint32_t flags, const char *filename,
			      char buf[MACHINE_DSO_BUF])
{
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		if (starts(filename, "[kernel.kallsyms"))
			return "[kernel.kallsyms]";
		return filename[0] == '/' || filename[0] == '[' ? filename : NULL;
	}
	if (cpumode != PERF_RECORD_MISC_USER)
		return NULL;	/* guest and hypervisor maps: samples there print [hypervisor] */
	/* Anonymous executable memory: perf looks for a JIT's /tmp/perf-PID.map. */
	if (exec && fileless(filename, flags)) {
		snprintf(buf, MACHINE_DSO_BUF, "/tmp/perf-%d.map", pid);
		return buf;
	}
	return filename;
}

int machine__mmap(struct machine *m, int cpumode, int pid, int tid, uint64_t start, uint64_t len,
		  uint64_t pgoff, bool exec, uint32_t flags, const char *filename)
{
	return machine__mmap_prot(m, cpumode, pid, tid, start, len, pgoff, exec, flags,
				  exec ? PROT_EXEC : 0, 0, filename);
}

int machine__mmap_prot(struct machine *m, int cpumode, int pid, int tid, uint64_t start, uint64_t len,
		       uint64_t pgoff, bool exec, uint32_t flags, uint32_t prot, uint64_t ino, const char *filename)
{
	struct map nm = { .start = start, .end = start + len, .pgoff = pgoff, .ino = ino, .prot = prot,
			  .flags = flags };
	struct thread *th;
	char buf[MACHINE_DSO_BUF];
	const char *dso = machine__mmap_dso(cpumode, pid, exec, flags, filename, buf);

	if (!dso)
		return 0;
	m->gen++;
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		if (starts(filename, "[kernel.kallsyms")) {
			if (!start && !len)
				nm.end = UINT64_MAX;
			nm.is_kernel = true;
		}
		nm.dso = intern(m, dso);
		return !nm.dso || note_dso(m, nm.dso) ? -ENOMEM : maps__insert(&m->kmaps, &nm);
	}
	th = findnew_thread(m, pid, tid);
	if (!th)
		return -ENOMEM;
	nm.dso = intern(m, dso);
	return !nm.dso || note_dso(m, nm.dso) ? -ENOMEM : maps__insert(th->maps, &nm);
}

int machine__ksymbol(struct machine *m, uint64_t addr, uint32_t len, const char *name, bool unregister)
{
	struct map *cur = maps__find(&m->kmaps, addr);
	struct map nm = { .start = addr, .end = addr + len };

	m->gen++;
	if (unregister) {
		if (cur && !cur->is_kernel)
			maps__remove_at(&m->kmaps, (size_t)(cur - m->kmaps.v));
		return 0;
	}
	if (cur)
		return 0;
	/* perf gives trampolines and dispatchers a dso with an empty name. */
	nm.dso = intern(m, starts(name, "bpf_trampoline_") || starts(name, "bpf_dispatcher_") ? "" : name);
	return !nm.dso || note_dso(m, nm.dso) ? -ENOMEM : maps__insert(&m->kmaps, &nm);
}

const char *machine__thread_comm(struct machine *m, int tid)
{
	struct thread *th = find_thread(m, tid);

	return th ? th->comm : NULL;
}

void machine__fixup_kernel_end(struct machine *m, uint64_t end)
{
	for (size_t i = 0; i < m->kmaps.n; i++) {
		struct map *k = &m->kmaps.v[i];

		if (!k->is_kernel || k->end >= end)
			continue;
		/* Never over the next map (a module's). */
		if (i + 1 < m->kmaps.n && m->kmaps.v[i + 1].start < end)
			end = m->kmaps.v[i + 1].start;
		if (end > k->end) {
			k->end = end;
			m->gen++;
		}
		return;
	}
}

uint64_t machine__generation(const struct machine *m)
{
	return m->gen;
}

int machine__tasks(struct machine *m, struct machine_task **out, size_t *nr)
{
	size_t n = 0, cap = 0;

	*out = NULL;
	for (int b = 0; b < THREAD_BUCKETS; b++)
		for (struct thread *t = m->threads[b]; t; t = t->next) {
			if (ALLOC_GROW(*out, n + 1, cap)) {
				free(*out);
				*out = NULL;
				return -ENOMEM;
			}
			(*out)[n++] = (struct machine_task){ t->pid, t->tid, t->ppid, t->comm, t->maps };
		}
	*nr = n;
	return 0;
}

int machine__maps(struct machine *m, const void *maps, struct machine_map **out, size_t *nr)
{
	const struct maps *ms = maps;

	(void)m;
	*nr = 0;
	*out = calloc(ms->n ? ms->n : 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < ms->n; i++) {
		const struct map *p = &ms->v[i];

		/* perf's map of the vdso has offset 0 whatever the record said. */
		(*out)[i] = (struct machine_map){ p->start, p->end, strcmp(p->dso, "[vdso]") ? p->pgoff : 0, p->ino, p->prot,
						  (p->flags & MAP_SHARED) != 0, p->dso };
	}
	*nr = ms->n;
	return 0;
}

const void *machine__user_maps(struct machine *m, int pid, int tid)
{
	struct thread *th = findnew_thread(m, pid, tid);

	return th ? th->maps : NULL;
}

int machine__resolve(struct machine *m, int pid, int tid, int cpumode, uint64_t ip, struct resolved *r)
{
	struct thread *th = findnew_thread(m, pid, tid);
	struct map *map = NULL;

	if (!th)
		return -ENOMEM;
	r->comm = th->comm;
	r->pid = th->pid;
	r->tid = th->tid;
	r->found = false;
	if (cpumode == PERF_RECORD_MISC_KERNEL)
		map = maps__find(&m->kmaps, ip);
	else if (cpumode == PERF_RECORD_MISC_USER)
		map = maps__find(th->maps, ip);
	else {
		r->dso = "[hypervisor]";
		return 0;
	}
	r->dso = map ? map->dso : "<not found>";
	if (map) {
		r->found = true;
		r->dso_rank = dso_rank(m, map->dso);
		r->map_start = map->start;
		r->map_end = map->end;
		r->map_pgoff = map->pgoff;
		r->map_prot = map->prot;
		r->map_flags = map->flags;
		r->map_ino = map->ino;
		r->map_identity = cpumode == PERF_RECORD_MISC_USER && fileless(map->dso, map->flags);
	}
	return 0;
}
