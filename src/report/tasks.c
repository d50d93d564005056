// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --tasks and --mmaps: perf 6.1's task tree.  perf reads only the
 * side band (COMM, FORK, EXIT; with --mmaps MMAP and MMAP2 too), then
 * lists its threads' table in its order (tid modulo 256, then by tid): a
 * thread without a parent is a root, in that order; any other one becomes
 * its parent's child, children in the order they were met.  Each line is
 * pid, tid, ppid and the comm, indented by depth; with --mmaps the
 * thread's maps follow it, by address.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../resolve/machine.h"
#include "../resolve/session.h"
#include "out.h"
#include "report.h"

struct task {
	struct machine_task t;
	struct task *parent;
	size_t *kids, nr_kids, kids_cap;	/* indexes of the children, in the order met */
	bool listed;			/* a root, or in its parent's children */
};

struct tasks {
	struct task *v;
	size_t n;
	size_t *roots, nr_roots, roots_cap;
	bool mmaps;
	struct machine *m;
	struct out *out;
};

/* perf's threads table: 256 trees by tid modulo 256, each by tid. */
static int table_order(const void *pa, const void *pb)
{
	const struct machine_task *a = pa, *b = pb;
	unsigned ba = (unsigned)a->tid % 256, bb = (unsigned)b->tid % 256;

	if (ba != bb)
		return ba < bb ? -1 : 1;
	return (a->tid > b->tid) - (a->tid < b->tid);
}

static struct task *task_of_tid(struct tasks *T, int tid)
{
	for (size_t i = 0; i < T->n; i++)
		if (T->v[i].t.tid == tid)
			return &T->v[i];
	return NULL;
}

/*
 * perf's tasks_list: link t under its parent, and so on up to the first
 * one already linked (NULL) or a root (returned).
 */
static int link_up(struct tasks *T, struct task *t, struct task **root)
{
	struct task *parent;

	for (*root = NULL; !t->listed; t = parent) {
		if (t->t.ppid == -1) {
			*root = t;
			return 0;
		}
		if (!(parent = task_of_tid(T, t->t.ppid)))
			return mperf_error(-MPERF_ERR_CORRUPT, "failed to process tasks: the parent %d of thread %d "
					   "is not in the file", t->t.ppid, t->t.tid);
		if (ALLOC_GROW(parent->kids, parent->nr_kids + 1, parent->kids_cap))
			return -ENOMEM;
		parent->kids[parent->nr_kids++] = (size_t)(t - T->v);
		t->listed = true;
	}
	return 0;
}

static int build(struct tasks *T)
{
	for (size_t i = 0; i < T->n; i++) {
		struct task *root;
		int err;

		if (T->v[i].listed)
			continue;
		if ((err = link_up(T, &T->v[i], &root)))
			return err;
		if (!root)
			continue;
		if (ALLOC_GROW(T->roots, T->nr_roots + 1, T->roots_cap))
			return -ENOMEM;
		T->roots[T->nr_roots++] = (size_t)(root - T->v);
		root->listed = true;
	}
	return 0;
}

static void print_maps(struct tasks *T, struct out *out, const struct task *t, int indent)
{
	struct machine_map *v;
	size_t n;

	if (!T->mmaps || machine__maps(T->m, t->t.maps, &v, &n))
		return;
	for (size_t i = 0; i < n; i++)
		out_printf(out, "%*s  %" PRIx64 "-%" PRIx64 " %c%c%c%c %08" PRIx64 " %" PRIu64 " %s\n", indent, "",
			   v[i].start, v[i].end, v[i].prot & 1 ? 'r' : '-', v[i].prot & 2 ? 'w' : '-',
			   v[i].prot & 4 ? 'x' : '-', v[i].shared ? 's' : 'p', v[i].pgoff, v[i].ino, v[i].dso);
	free(v);
}

static void print_level(struct tasks *T, struct out *out, const struct task *t, int level)
{
	char head[64];
	int indent = snprintf(head, sizeof(head), "  %8d %8d %8d |%*s", t->t.pid, t->t.tid, t->t.ppid, level, "");

	out_str(out, head);
	out_str(out, t->t.comm ? t->t.comm : "");
	out_char(out, '\n');
	print_maps(T, out, t, indent);
	/* A parent loop (a damaged file) stops where perf's would not. */
	if (level > 4096)
		return;
	for (size_t k = 0; k < t->nr_kids; k++)
		print_level(T, out, &T->v[t->kids[k]], level + 1);
}

static int on_finish(void *arg, struct machine *m)
{
	struct tasks *T = arg;
	struct machine_task *mt;
	size_t n;
	int err;

	if (!m || (err = machine__tasks(m, &mt, &n)))
		return m ? -ENOMEM : 0;
	qsort(mt, n, sizeof(*mt), table_order);
	T->v = calloc(n ? n : 1, sizeof(*T->v));
	if (!T->v) {
		free(mt);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		T->v[i].t = mt[i];
	T->n = n;
	T->m = m;
	free(mt);
	if ((err = build(T)))
		return err;
	/* Printed now: the comms and maps are the machine's, which ends with the session. */
	out_printf(T->out, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
	for (size_t r = 0; r < T->nr_roots; r++)
		print_level(T, T->out, &T->v[T->roots[r]], 0);
	return 0;
}

static void tasks_free(struct tasks *T)
{
	for (size_t i = 0; i < T->n; i++)
		free(T->v[i].kids);
	free(T->v);
	free(T->roots);
}

int report__tasks(struct pdata *p, const char *label, bool mmaps, FILE *f)
{
	struct out out;
	struct tasks T = { .mmaps = mmaps, .out = &out };
	struct session_ops ops = { .finish = on_finish, .arg = &T, .machine = true, .no_maps = !mmaps,
				   .partial = true };
	int ret;

	if (out_init(&out, f))
		return mperf_error(-ENOMEM, "out of memory");
	ret = session__run(p, label, &ops);
	if (ret == -ENOMEM)
		ret = mperf_error(ret, "out of memory");
	/* Damage (said): the tree of the records before it is shown, then the error returned. */
	ret = out_close(&out, ret, label);
	tasks_free(&T);
	return ret;
}
