// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf report's branch view: for a file recorded with branch stacks (perf
 * record -b), one histogram entry per branch of each sample's stack, by
 * where it came from and went to, each branch weighing 1.
 *
 * perf builds it in three red-black trees (the input tree, the collapse
 * tree when a key has a collapse function, the output tree), each filled
 * from the previous one's order.  Some of its branch keys do not compare
 * as a total order (mispredict, in_tx and abort say only "differs", in
 * one direction), so which branches merge and how ties print depend on
 * those trees' shapes: they are replayed here, with perf's comparisons
 * and its descent rules, on src/lib/rbtree.c.  --hierarchy replays
 * perf's tree of levels the same way: each entry, in the input tree's
 * order, into a node per level, each level's nodes then in output order.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/rbtree.h"
#include "../lib/strset.h"
#include "fields.h"
#include "filter.h"
#include "out.h"
#include "readvals.h"
#include "rowkeys.h"
#include "report.h"
#include "sortkey.h"
#include "srcline.h"
#include "../resolve/session.h"
#include "../resolve/stackwalk.h"
#include "../resolve/symbols.h"

struct bent {
	struct rb_node node;		/* in the tree being built (first: a node is its entry) */
	SORT_ROW;			/* the keys' fields: comm, tid, last_comm (set at the end), br (sortkey.h) */
	union {				/* the branch: from, to, f (k.br points here) */
		struct sort_branch b;
		struct { SORT_BRANCH_FIELDS };
	};
	uint64_t period;		/* and nr, the row's */
};

/* A node of --hierarchy's tree: its first branch's keys, its branches' periods summed. */
struct bnode {
	struct bent e;			/* first: e.node is the node's in its level's tree */
	struct rb_node *in;		/* the level below, in perf's input order */
	struct bnode **kid;		/* the level below, in perf's output order */
	size_t nkid;
};

struct bhists {
	struct rb_node *root;		/* the input tree */
	struct bent **v;		/* after build(): the entries in perf's output order (--hierarchy: input) */
	size_t n;
	struct bnode **top;		/* --hierarchy: the first level's nodes, in perf's output order */
	size_t ntop;
	uint64_t total, nr_samples, lost;
};

struct branch {
	const struct report_hist_opts *o;
	struct sfilter filt;		/* -C, --time */
	struct readvals rv;		/* -T */
	struct pdata *p;
	const char *label;
	struct symcache *syms;
	struct strset strs;
	struct srclines src;		/* the srcline keys' lookups */
	bool want_src;			/* a srcline_from or srcline_to key */
	int src_err;			/* a lookup's error, when a comparison made it */
	struct bhists *h;		/* one per event */
	size_t nr;
	uint64_t total_lost, total_samples;
	bool need_collapse;		/* a key with a collapse function (comm): perf's second tree */
	struct sort_print print;	/* perf prints the last mispredict value shown when a branch has none */
	struct field_lists l;		/* the columns and the output order's comparisons (fields.h) */
	int nlvl;			/* --hierarchy's levels: the key columns, then the IPC's */
	int lvl_col[FIELDS_MAX + 1];	/* each level's column in l.out (l.out.n: the IPC) */
	int lvl_cmp[FIELDS_MAX + 1];	/* its entry in the sort list (field_cmp's i) */
};

static const char ipc_header[] = "IPC   [IPC Coverage]";

/* ---- which view ---- */

static uint64_t sample_types(struct pdata *p)
{
	uint64_t st = 0;

	for (size_t i = 0; i < pdata__nr_evsel(p); i++)
		st |= pdata__evsel(p, i)->attr.sample_type;
	return st;
}

int report__branch_wanted(struct pdata *p, const char *label, const struct report_hist_opts *o, int *damage)
{
	/* perf decides by the header's feature, before it reads a record: a stream has none. */
	bool want = o->branch > 0 || (o->branch < 0 && !pdata__is_pipe(p) && pdata__has_feat(p, PD_FEAT_BRANCH_STACK));

	*damage = 0;
	if (want && o->branch < 0 && !(sample_types(p) & PERF_SAMPLE_BRANCH_STACK)) {
		/*
		 * perf record sets the feature only with -b, which every event
		 * then samples: a header that says otherwise is damaged.  perf
		 * 6.1 prints an error and an empty report, with status 0; the
		 * samples are all there, so mperf shows them the usual way and
		 * says what is damaged.
		 */
		*damage = mperf_error(-MPERF_ERR_CORRUPT, "'%s': damaged header: its BRANCH_STACK feature is set, but no "
				      "event samples branch stacks; showing the usual view", label);
		want = false;
	}

	if (!want) {
		if (o->sort_unfit[0][0])
			return mperf_error(-MPERF_ERR_USAGE, "'%s': sort key '%s' is the branch view's (a file recorded "
					   "with branch stacks, or -b)", label, o->sort_unfit[0]);
		if (o->fields_unfit[0][0])
			return mperf_error(-MPERF_ERR_USAGE, "'%s': -F/--fields field '%s' is the branch view's (a file "
					   "recorded with branch stacks, or -b)", label, o->fields_unfit[0]);
		return 0;
	}
	if (!pdata__is_pipe(p) && !(sample_types(p) & PERF_SAMPLE_BRANCH_STACK))
		return mperf_error(-MPERF_ERR_USAGE, "'%s' has no branch stacks for -b: was it recorded without -b?",
				   label);
	if (o->sort_unfit[1][0]) {
		char keys[256];

		report_sort_key_list(keys, sizeof(keys), REPORT_SORT_BRANCH, -1);
		return mperf_error(-MPERF_ERR_USAGE, "'%s': sort key '%s' is not one of the branch view's (%s); "
				   "--no-branch-stack shows the usual view", label, o->sort_unfit[1], keys);
	}
	if (o->comm || o->dso || o->sym || o->pid || o->tid || o->children > 0 || o->cc_asked || o->cc_order_set || o->max_stack ||
	    o->group_set || o->group_sort_idx || o->show_period)
		return mperf_error(-MPERF_ERR_USAGE, "'%s': the branch view does not take %s yet; --no-branch-stack "
				   "shows the usual view", label,
				   o->comm ? "--comms" : o->dso ? "--dsos" : o->sym ? "--symbols" : o->pid ? "--pid" : o->tid ? "--tid" :
				   o->children > 0 ? "--children" :
				   o->max_stack ? "--max-stack" : o->group_set ? "--group/--no-group" :
				   o->group_sort_idx ? "--group-sort-idx" : o->show_period ? "--show-total-period" :
				   "-g/-G");
	if (o->fields_unfit[1][0])
		return mperf_error(-MPERF_ERR_USAGE, "'%s': -F/--fields field '%s' is not the branch view's (its keys, "
				   "overhead, sample, period); --no-branch-stack shows the usual view", label, o->fields_unfit[1]);
	return 1;
}

/* ---- reading ---- */

static int strcmp_null(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : 0;
}

/*
 * perf's comparison of one key, cmp(left, right), with its signs: the
 * input and collapse trees descend left when cmp(existing, new) < 0, the
 * output tree when cmp(new, existing) > 0.
 */
static int64_t cmp_null(const void *l, const void *r)
{
	return !l && !r ? 0 : !l ? -1 : 1;
}

static int64_t dso_cmp(const char *l, const char *r)
{
	if (!l || !r)
		return cmp_null(r, l);
	return strcmp_null(l, r);
}

static int64_t sym_only_cmp(const struct sort_bside *l, const struct sort_bside *r)
{
	if (!l->sym || !r->sym)
		return cmp_null(l->sym, r->sym);
	if (l->start != r->start)
		return (int64_t)(r->start - l->start);
	return (int64_t)(r->end - l->end);
}

/*
 * perf's IPC column is a sort key of its own, its "symbol" key on the
 * entry's symbol, which in the branch view is the target's: its DSO
 * first (right against left), as that key compares without a dso key.
 */
static int64_t ipc_cmp(const struct bent *l, const struct bent *r)
{
	int64_t c;

	if (!l->to.sym && !r->to.sym)
		return (int64_t)(r->to.ip - l->to.ip);
	if ((c = dso_cmp(r->to.dso, l->to.dso)))	/* the other way round from dso_from/dso_to */
		return c;
	return sym_only_cmp(&l->to, &r->to);
}

/*
 * The srcline keys' line of a branch's end, as perf's map__srcline has
 * it: at the address in its dso, sym+offset of it where the file has no
 * line (the kernel's is not asked), "??:0" without a map.
 */
static int side_srcline(struct branch *B, struct sort_bside *s)
{
	struct srcline_at at = {
		.path = s->path, .dso = s->dso, .sym = s->sym, .sym_start = s->start,
		.ask = s->level != 'k', .off = s->addr, .ip = s->addr, .objdump = s->addr,
	};
	char buf[4096], jit[64], kname[256];
	const char *file;
	bool found;

	if (B->o->verbose && s->dso)	/* dso[addr] is the short name's, -v or not */
		at.dso = symcache__kernel_dso_name(B->syms, stackwalk_short_name(s->path, jit, sizeof(jit)),
						   SYMCACHE_KNAME_SHORT, kname, sizeof(kname));
	found = srclines_of(&B->src, &at, buf, sizeof(buf), &file);

	if (!(s->srcline = strset_intern(&B->strs, buf)))
		return -ENOMEM;
	return s->path && s->dso ? srclines_note(&B->src, s->path, found) : 0;
}

/*
 * perf looks a branch's source line up when a comparison first needs it
 * (an entry none compares by it shows "(null)" and is not counted in the
 * column's width): the srcline keys' comparison asks here for both
 * entries' first.
 */
static void need_srcline(struct branch *B, struct sort_bside *l, struct sort_bside *r)
{
	int err = 0;

	if (!l->srcline)
		err = side_srcline(B, l);
	if (!err && !r->srcline)
		err = side_srcline(B, r);
	if (err && !B->src_err)
		B->src_err = err;
}

/*
 * Entry i of the sort list (fields.h), i == sort_own being perf's ipc_lbr
 * key, which a --sort text naming a symbol gets after its keys, before
 * -F's fields: values (larger first) in the output order, else equal.
 */
static int64_t field_cmp(struct branch *B, int i, bool values, struct bent *l, struct bent *r)
{
	struct report_field f;
	uint64_t a, b;

	if (i == B->l.sort_own)
		return B->o->sort_symbol ? ipc_cmp(l, r) : 0;
	f = B->l.sort.f[i - (i > B->l.sort_own)];
	if (!f.value && f.id == REPORT_KEY_IPC_NULL)	/* -F's: perf's symbol key, as the IPC's */
		return ipc_cmp(l, r);
	if (!f.value && f.id == REPORT_KEY_SRCLINE_FROM)
		need_srcline(B, &l->from, &r->from);
	else if (!f.value && f.id == REPORT_KEY_SRCLINE_TO)
		need_srcline(B, &l->to, &r->to);
	if (!f.value)
		return sort_key((enum report_key)f.id)->cmp(&l->k, &r->k);
	a = f.id == REPORT_VALUE_SAMPLE ? l->nr : l->period;
	b = f.id == REPORT_VALUE_SAMPLE ? r->nr : r->period;
	return !values || a == b ? 0 : a > b ? 1 : -1;
}

/* perf's hist_entry__cmp: the sort list's keys (its values compare equal). */
static int64_t ent_cmp(struct branch *B, struct bent *l, struct bent *r)
{
	int64_t c = 0;

	for (int i = 0; i <= B->l.sort.n && !c; i++)
		c = field_cmp(B, i, false, l, r);
	return c;
}

/* perf's output order: the sort list's, values larger first, keys by their comparison. */
static int64_t sort_cmp(struct branch *B, struct bent *l, struct bent *r)
{
	int64_t c = 0;

	for (int i = 0; i <= B->l.sort.n && !c; i++)
		c = field_cmp(B, i, true, l, r);
	return c;
}

/*
 * Insert e into the tree at *root as perf's input and collapse trees do:
 * an entry that compares equal takes e's period (e is freed, NULL
 * returned); else e is linked where the descent ended.
 */
static struct bent *tree_add(struct branch *B, struct rb_node **root, struct bent *e)
{
	struct rb_node **link = root, *parent = NULL;

	while (*link) {
		struct bent *x = (struct bent *)*link;
		int64_t c = ent_cmp(B, x, e);

		if (!c) {
			x->period += e->period;
			x->nr += e->nr;
			free(e);
			return NULL;
		}
		parent = *link;
		link = c < 0 ? &parent->left : &parent->right;
	}
	rb_insert(root, &e->node, parent, link);
	return e;
}

static struct bhists *hists_of(struct branch *B, int evsel)
{
	if ((size_t)evsel >= B->nr) {
		size_t n = (size_t)evsel + 1;
		struct bhists *h = realloc(B->h, n * sizeof(*h));

		if (!h)
			return NULL;
		memset(h + B->nr, 0, (n - B->nr) * sizeof(*h));
		B->h = h;
		B->nr = n;
	}
	return &B->h[evsel];
}

/*
 * One end of a branch, resolved as perf does without a cpumode: in the
 * thread's maps, then the kernel's; where neither covers it, at hypervisor
 * level without a map.
 */
static int resolve_side(struct branch *B, const struct session_sample *ss, uint64_t ip, struct sort_bside *s)
{
	static const int modes[] = { PERF_RECORD_MISC_USER, PERF_RECORD_MISC_KERNEL };
	const struct sym *sym = NULL;
	struct resolved r = { 0 };
	char buf[64], kname[256];
	int mode = 0;

	memset(s, 0, sizeof(*s));
	s->ip = s->addr = ip;
	s->level = 'H';
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]) && !r.found; i++) {
		mode = modes[i];
		if (machine__resolve(ss->machine, ss->where.pid, ss->where.tid, mode, ip, &r))
			return -ENOMEM;
	}
	if (!r.found)
		return 0;
	/* -v: perf's long names, as its dso keys then compare them */
	if (!(s->dso = strset_intern(&B->strs, symcache__kernel_dso_name(B->syms, B->o->verbose ? r.dso :
									 stackwalk_short_name(r.dso, buf, sizeof(buf)),
									 B->o->verbose ? SYMCACHE_KNAME_LONG : SYMCACHE_KNAME_SHORT,
									 kname, sizeof(kname)))))
		return -ENOMEM;
	s->level = stackwalk_level(mode);
	stackwalk_kernel_hit(B->syms, mode, &r);
	if (mode == PERF_RECORD_MISC_KERNEL) {
		sym = symcache__find_kernel(B->syms, r.dso, ip, NULL);
		/* perf shows a module's unresolved address in the module's map */
		if (!sym && stackwalk_is_module(r.dso))
			s->addr = ip - r.map_start + r.map_pgoff;
	} else if (!stackwalk_is_jit(r.dso)) {
		sym = symcache__find(B->syms, r.dso, r.map_start, r.map_pgoff, ip, &s->addr);
	}
	if (sym) {
		s->sym = sym->name;
		s->start = sym->start;
		s->end = sym->end;
	}
	if ((B->want_src || B->o->verbose) && !(s->path = strset_intern(&B->strs, r.dso)))
		return -ENOMEM;
	return 0;
}

/*
 * The time and addr keys of a branch's entry: the sample's time, and the
 * target's address as perf has it (its address in its map, mapped out
 * of the map again: off by the map's start less its offset).
 */
static void branch_keys(const struct branch *B, struct bent *e, const struct session_sample *ss)
{
	e->time = rowkeys_time(B->o, ss->smp->time);
	e->ip = e->to.ip + (e->to.ip - e->to.addr);
}

static int on_sample(void *arg, const struct session_sample *ss)
{
	struct branch *B = arg;
	const struct pd_evsel *ev = pdata__evsel(B->p, (size_t)ss->evsel);
	struct bhists *hs;
	const char *comm;

	if (sfilter_skip(&B->filt, ss->smp))
		return 0;	/* perf drops it before it counts anywhere */

	/* perf skips a sample without a branch stack (one of another event). */
	if (ss->from_read || !ev || !(ev->attr.sample_type & PERF_SAMPLE_BRANCH_STACK) || !ss->machine)
		return 0;
	if (!(hs = hists_of(B, ss->evsel)) || !(comm = strset_intern(&B->strs, ss->where.comm)))
		return mperf_error(-ENOMEM, "out of memory");
	/* perf resolves the sample's own ip first: its kernel symbols are loaded (and warned of) then */
	stackwalk_kernel_hit(B->syms, ss->cpumode, &ss->where);
	for (uint64_t i = 0; i < ss->smp->branch_nr; i++) {
		struct pd_branch_entry be;
		struct bent *e = calloc(1, sizeof(*e));

		if (!e)
			return mperf_error(-ENOMEM, "out of memory");
		pd_sample_branch(ss->smp, i, &be);
		e->comm = comm;
		e->tid = ss->where.tid;
		e->level = stackwalk_level(ss->cpumode);	/* the sample's: the addr keys show it */
		e->br = &e->b;
		pd_branch_flags(be.flags, &e->f);
		e->period = e->nr = 1;
		if (resolve_side(B, ss, be.to, &e->to) || resolve_side(B, ss, be.from, &e->from)) {
			free(e);
			return mperf_error(-ENOMEM, "out of memory");
		}
		branch_keys(B, e, ss);
		if (tree_add(B, &hs->root, e))
			hs->n++;
		hs->nr_samples++;
		hs->total++;
		B->total_samples++;
	}
	return 0;
}

/* LOST_SAMPLES records: perf's "Total Lost Samples", by event; the kernel's MMAP (its reference symbol). */
static int on_record(void *arg, const struct session_record *r)
{
	struct branch *B = arg;
	struct pd_lost_samples_event e;
	struct bhists *hs;

	symcache__kernel_mmap(B->syms, r->h);
	if (B->o->show_threads && readvals__add(&B->rv, r))
		return mperf_error(-ENOMEM, "out of memory");
	if (r->h->type != PERF_RECORD_LOST_SAMPLES || r->evsel < 0 || !PD_VIEW(r->h, &e))
		return 0;
	if (!(hs = hists_of(B, r->evsel)))
		return mperf_error(-ENOMEM, "out of memory");
	hs->lost += e.lost;
	B->total_lost += e.lost;
	return 0;
}

/* The tree's entries in order, into v (of at least their number); their number. */
static size_t in_order(struct rb_node *root, struct bent **v)
{
	size_t n = 0;

	for (struct rb_node *x = rb_first(root); x; x = rb_next(x))
		v[n++] = (struct bent *)x;
	return n;
}

/*
 * The input tree in perf's output order: collapsed (when a key has a
 * collapse function) into a second tree in the first one's order, then
 * each entry into the output tree, which descends left when the entry
 * sorts before the one it meets.
 */
static int build(struct branch *B, struct bhists *hs)
{
	struct rb_node *root = NULL;
	size_t n;

	if (!(hs->v = malloc((hs->n ? hs->n : 1) * sizeof(*hs->v))))
		return -ENOMEM;
	n = in_order(hs->root, hs->v);
	hs->root = NULL;
	if (B->need_collapse) {
		for (size_t i = 0; i < n; i++)
			tree_add(B, &root, hs->v[i]);
		n = in_order(root, hs->v);
		root = NULL;
	}
	for (size_t i = 0; i < n; i++) {
		struct bent *e = hs->v[i];
		struct rb_node **link = &root, *parent = NULL;

		while (*link) {
			parent = *link;
			link = sort_cmp(B, e, (struct bent *)parent) > 0 ? &parent->left : &parent->right;
		}
		rb_insert(&root, &e->node, parent, link);
	}
	hs->n = in_order(root, hs->v);
	return 0;
}

/* ---- --hierarchy: perf's tree, a level per key ---- */

/* --hierarchy's leaves: the input tree's entries in its order, which make the nodes. */
static int leaves(struct bhists *hs)
{
	if (!(hs->v = malloc((hs->n ? hs->n : 1) * sizeof(*hs->v))))
		return -ENOMEM;
	hs->n = in_order(hs->root, hs->v);
	hs->root = NULL;
	return 0;
}

/*
 * The levels: the key columns, then perf's IPC key where the --sort text
 * names a symbol; each compared by its entry of the sort list.
 */
static void hier_levels(struct branch *B)
{
	const struct field_lists *l = &B->l;

	B->nlvl = 0;
	for (int c = 0; c < l->out.n; c++) {
		if (l->out.f[c].value)
			continue;
		for (int j = 0; j < l->sort.n; j++)
			if (!l->sort.f[j].value && l->sort.f[j].id == l->out.f[c].id) {
				B->lvl_col[B->nlvl] = c;
				B->lvl_cmp[B->nlvl++] = j + (j >= l->sort_own);
				break;
			}
	}
	if (B->o->sort_symbol) {
		B->lvl_col[B->nlvl] = l->out.n;
		B->lvl_cmp[B->nlvl++] = l->sort_own;
	}
}

/* perf's collapse of a level: the key's collapse function (comm's), else its comparison. */
static int64_t level_cmp(struct branch *B, int level, struct bent *l, struct bent *r)
{
	int c = B->lvl_col[level];

	if (c < B->l.out.n && sort_key((enum report_key)B->l.out.f[c].id)->collapses)
		return sort_key((enum report_key)B->l.out.f[c].id)->collapse(&l->k, &r->k);
	return field_cmp(B, B->lvl_cmp[level], false, l, r);
}

/* The node of e at level in the tree at *root, made (a copy of e) when none compares equal. */
static struct bnode *hier_add(struct branch *B, struct rb_node **root, int level, struct bent *e)
{
	struct rb_node **link = root, *parent = NULL;
	struct bnode *x;

	while (*link) {
		int64_t c;

		x = (struct bnode *)*link;
		if (!(c = level_cmp(B, level, &x->e, e))) {
			x->e.period += e->period;
			x->e.nr += e->nr;
			return x;
		}
		parent = *link;
		link = c < 0 ? &parent->left : &parent->right;
	}
	if (!(x = calloc(1, sizeof(*x))))
		return NULL;
	x->e = *e;
	x->e.br = &x->e.b;
	rb_insert(root, &x->e.node, parent, link);
	return x;
}

static size_t tree_size(struct rb_node *root)
{
	size_t n = 0;

	for (struct rb_node *x = rb_first(root); x; x = rb_next(x))
		n++;
	return n;
}

/*
 * A level's nodes (the tree at in) in perf's output order, into *pv: each
 * into the output tree as the flat view's entries are, then its level
 * below, as perf's hierarchy_output_resort.
 */
static int hier_sort(struct branch *B, struct rb_node *in, struct bnode ***pv, size_t *pn)
{
	size_t n = tree_size(in), k = 0;
	struct bnode **v = malloc((n ? n : 1) * sizeof(*v));
	struct rb_node *root = NULL;

	if (!(*pv = v))
		return -ENOMEM;
	for (struct rb_node *x = rb_first(in); x; x = rb_next(x))
		v[k++] = (struct bnode *)x;
	*pn = n;
	for (k = 0; k < n; k++) {
		struct rb_node **link = &root, *parent = NULL;

		while (*link) {
			parent = *link;
			link = sort_cmp(B, &v[k]->e, (struct bent *)parent) > 0 ? &parent->left : &parent->right;
		}
		rb_insert(&root, &v[k]->e.node, parent, link);
		if (v[k]->in && hier_sort(B, v[k]->in, &v[k]->kid, &v[k]->nkid))
			return -ENOMEM;
	}
	k = 0;
	for (struct rb_node *x = rb_first(root); x; x = rb_next(x))
		v[k++] = (struct bnode *)x;
	return 0;
}

/* perf's hierarchy_insert_entry for each leaf in input order, a node per level, then the output order. */
static int hier_make(struct branch *B, struct bhists *hs)
{
	struct rb_node *top = NULL;

	for (size_t e = 0; e < hs->n; e++) {
		struct rb_node **root = &top;

		for (int level = 0; level < B->nlvl; level++) {
			struct bnode *x = hier_add(B, root, level, hs->v[e]);

			if (!x)
				return -ENOMEM;
			root = &x->in;
		}
	}
	return hier_sort(B, top, &hs->top, &hs->ntop);
}

static void hier_free(struct bnode **v, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		hier_free(v[k]->kid, v[k]->nkid);
		free(v[k]);
	}
	free(v);
}

static int on_finish(void *arg, struct machine *m)
{
	struct branch *B = arg;

	for (size_t i = 0; i < B->nr; i++) {
		if (B->o->hierarchy ? leaves(&B->h[i]) : build(B, &B->h[i]))
			return mperf_error(-ENOMEM, "out of memory");
		for (size_t k = 0; k < B->h[i].n; k++) {
			struct bent *e = B->h[i].v[k];
			const char *c = machine__thread_comm(m, e->tid);

			e->last_comm = c ? strset_intern(&B->strs, c) : NULL;
			if (!e->last_comm)
				e->last_comm = e->comm;
			e->comm_width = strlen(e->last_comm);
			if (B->o->verbose) {	/* -v's letters, the symbols all read by now */
				e->from.origin = stackwalk_origin(B->syms, e->from.dso ? e->from.path : NULL);
				e->to.origin = stackwalk_origin(B->syms, e->to.dso ? e->to.path : NULL);
			}
		}
		if (B->o->hierarchy && hier_make(B, &B->h[i]))
			return mperf_error(-ENOMEM, "out of memory");
	}
	return 0;
}

/* ---- text ---- */

static double share(const struct bhists *hs, uint64_t period)
{
	return hs->total ? 100.0 * (double)period / (double)hs->total : 0.0;
}

static bool shown(const struct branch *B, const struct bhists *hs, const struct bent *e)
{
	return (float)share(hs, e->period) >= (float)B->o->percent_limit;
}

/* The columns' widths (a value's its format's, a key's its widest entry's), the IPC's last. */
static void col_widths(const struct branch *B, const struct bhists *hs, int *width)
{
	const struct field_list *c = &B->l.out;

	for (int i = 0; i < c->n; i++)
		width[i] = c->f[i].value ? fields_value_len((enum report_value)c->f[i].id)
					 : (int)strlen(sort_key((enum report_key)c->f[i].id)->header);
	for (size_t e = 0; e < hs->n; e++)
		for (int i = 0; i < c->n; i++) {
			int w = c->f[i].value ? 0 : (int)sort_key((enum report_key)c->f[i].id)->width(&hs->v[e]->k);

			if (w > width[i])
				width[i] = w;
		}
	width[c->n] = B->o->sort_symbol ? (int)strlen(ipc_header) : 0;
}

/* The column titles and their dots. */
static void col_head(const struct branch *B, struct out *out, const int *width)
{
	const struct field_list *c = &B->l.out;

	for (int i = 0; i < c->n; i++)
		if (c->f[i].value)
			out_printf(out, "%s%*s", i ? "  " : "# ", width[i],
				   fields_value_header((enum report_value)c->f[i].id, B->o, false));
		else
			out_printf(out, "%s%-*s", i ? "  " : "# ", width[i], sort_key((enum report_key)c->f[i].id)->header);
	if (width[c->n])
		out_printf(out, "  %s", ipc_header);
	out_char(out, '\n');
	for (int i = 0; i <= c->n; i++)
		if (i < c->n || width[i])
			out_dots(out, i ? "  " : "# ", (size_t)width[i]);
	out_str(out, "\n#\n");
}

static void col_row(struct branch *B, struct out *out, const struct bhists *hs, const struct bent *h, const int *width)
{
	const struct field_list *c = &B->l.out;

	for (int i = 0; i < c->n; i++) {
		out_str(out, "  ");
		if (c->f[i].value && c->f[i].id == REPORT_VALUE_OVERHEAD)
			out_printf(out, "%*.2f%%", width[i] - 1, share(hs, h->period));
		else if (c->f[i].value)
			out_printf(out, "%*" PRIu64, width[i], c->f[i].id == REPORT_VALUE_SAMPLE ? h->nr : h->period);
		else
			sort_key((enum report_key)c->f[i].id)->print(out, &h->k, width[i], i + 1 == c->n && !width[c->n],
								     &B->print);
	}
	/* perf's IPC needs the target's disassembly: without cycles it is 0 (or "-" unresolved) */
	if (width[c->n])
		out_printf(out, "  %-*s", width[c->n], h->to.sym ? "0.00  [  0.0%]" : "-");
	out_char(out, '\n');
}

/* ---- --hierarchy's text ---- */

#define HIER_INDENT 3	/* perf's HIERARCHY_INDENT */

/* The key columns' widths over every node, as the flat view's over its entries. */
static void hier_widths(const struct branch *B, struct bnode **v, size_t n, int *width)
{
	const struct field_list *c = &B->l.out;

	for (size_t k = 0; k < n; k++) {
		for (int i = 0; i < c->n; i++) {
			int w = c->f[i].value ? 0 : (int)sort_key((enum report_key)c->f[i].id)->width(&v[k]->e.k);

			if (w > width[i])
				width[i] = w;
		}
		hier_widths(B, v[k]->kid, v[k]->nkid, width);
	}
}

/* A level's title, trimmed as perf's strim. */
static const char *level_title(const struct branch *B, int level, size_t *len)
{
	int c = B->lvl_col[level];
	const char *h = c < B->l.out.n ? sort_key((enum report_key)B->l.out.f[c].id)->header : ipc_header;

	while (*h == ' ')
		h++;
	for (*len = strlen(h); *len && h[*len - 1] == ' '; (*len)--)
		;
	return h;
}

/* perf's print_hierarchy_header: the values' titles after the deepest indent, the levels' " / "-joined. */
static void hier_head(const struct branch *B, struct out *out, const int *width)
{
	const struct field_list *c = &B->l.out;
	int indent = (B->nlvl - 1) * HIER_INDENT;
	size_t title = 0, dots = 0;
	bool first = true;

	out_printf(out, "# %*s", indent > 0 ? indent : 0, "");
	for (int i = 0; i < c->n; i++)
		if (c->f[i].value)
			out_printf(out, "%*s  ", width[i], fields_value_header((enum report_value)c->f[i].id, B->o, false));
	for (int level = 0; level < B->nlvl; level++) {
		size_t len;
		const char *h = level_title(B, level, &len);

		if (level)
			out_str(out, " / ");
		out_mem(out, h, len);
		title += len + (level ? 3 : 0);
		if ((size_t)(level * HIER_INDENT + width[B->lvl_col[level]]) > dots)
			dots = (size_t)(level * HIER_INDENT + width[B->lvl_col[level]]);
	}
	out_str(out, "\n# ");
	for (int i = 0; i < indent; i++)
		out_char(out, '.');
	for (int i = 0; i < c->n; i++)
		if (c->f[i].value) {
			out_dots(out, first ? "" : "..", (size_t)width[i]);
			first = false;
		}
	out_dots(out, "  ", title > dots ? title : dots);
	out_str(out, "\n#\n");
}

/* One node's line: its indent, its values, the deepest indent, its level's cell without leading blanks. */
static void hier_row(struct branch *B, struct out *out, const struct bhists *hs, const struct bnode *x, int level,
		     const int *width)
{
	const struct field_list *c = &B->l.out;
	int col = B->lvl_col[level];
	size_t start, skip = 0;

	out_printf(out, "%*s", level * HIER_INDENT, "");
	for (int i = 0; i < c->n; i++) {
		if (!c->f[i].value)
			continue;
		if (c->f[i].id == REPORT_VALUE_OVERHEAD)
			out_printf(out, "  %*.2f%%", width[i] - 1, share(hs, x->e.period));
		else
			out_printf(out, "  %*" PRIu64, width[i], c->f[i].id == REPORT_VALUE_SAMPLE ? x->e.nr : x->e.period);
	}
	out_printf(out, "%*s  ", (B->nlvl - 1) * HIER_INDENT, "");
	out_flush(out);
	start = out->len;
	if (col < c->n)
		sort_key((enum report_key)c->f[col].id)->print(out, &x->e.k, width[col], true, &B->print);
	else	/* the IPC's, as the flat view's */
		out_printf(out, "%-*s", width[col], x->e.to.sym ? "0.00  [  0.0%]" : "-");
	while (start + skip < out->len && out->buf[start + skip] == ' ')
		skip++;
	memmove(out->buf + start, out->buf + start + skip, out->len - start - skip);
	out->len -= skip;
	out_char(out, '\n');
}

/* perf's line under a node whose nodes below --percent-limit hides, all of them. */
static void hier_no_entry(const struct branch *B, struct out *out, int level, const int *width)
{
	int w = 0, nv = 0;

	for (int i = 0; i < B->l.out.n; i++)
		if (B->l.out.f[i].value)
			w += (nv++ ? 2 : 0) + width[i];
	out_printf(out, "%*s%*sno entry >= %.2f%%\n", (B->nlvl + level) * HIER_INDENT, "", w + 4, "",
		   B->o->percent_limit);
}

static void hier_show(struct branch *B, struct out *out, const struct bhists *hs, struct bnode **v, size_t n,
		      int level, const int *width)
{
	for (size_t k = 0; k < n; k++) {
		if (!shown(B, hs, &v[k]->e))
			continue;
		hier_row(B, out, hs, v[k], level, width);
		/* perf's hierarchy_has_children: the first node below is over the limit */
		if (v[k]->nkid && !shown(B, hs, &v[k]->kid[0]->e))
			hier_no_entry(B, out, level, width);
		hier_show(B, out, hs, v[k]->kid, v[k]->nkid, level + 1, width);
	}
}

static void print_text(struct branch *B, struct out *out)
{
	const struct report_hist_opts *o = B->o;

	if (!o->after_header && !o->quiet)
		out_str(out, "# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	if (!B->total_samples) {
		mperf_log(MPERF_LOG_WARN, "the file has no samples");
		return;
	}
	if (!o->quiet)
		out_printf(out, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", B->total_lost);
	for (size_t i = 0, printed = 0; i < B->nr; i++) {
		const struct bhists *hs = &B->h[i];
		int width[FIELDS_MAX + 1];

		if (!hs->nr_samples)
			continue;	/* like perf (report.skip-empty) */
		col_widths(B, hs, width);
		if (o->hierarchy)
			hier_widths(B, hs->top, hs->ntop, width);
		if (printed++)
			out_str(out, "\n\n");
		if (!o->quiet) {	/* perf -q: the rows alone */
			out_str(out, "# Samples: ");
			out_samples_abbrev(out, hs->nr_samples);
			out_printf(out, " of event '%s'", pdata__evsel(B->p, i)->name);
			if (o->filter.time)	/* perf's, whatever the form */
				out_printf(out, " (time slices: %s)", o->filter.time);
			out_char(out, '\n');
			out_printf(out, "# Event count (approx.): %" PRIu64 "\n#\n", hs->total);
			if (o->hierarchy)
				hier_head(B, out, width);
			else
				col_head(B, out, width);
		}
		if (o->hierarchy)
			hier_show(B, out, hs, hs->top, hs->ntop, 0, width);
		for (size_t e = 0; !o->hierarchy && e < hs->n; e++)
			if (shown(B, hs, hs->v[e]))
				col_row(B, out, hs, hs->v[e], width);
	}
	out_str(out, o->quiet ? "\n\n" : "\n\n#\n# (Tip: mperf report -D shows every record, perf's way)\n#\n");
}

/* ---- JSON ---- */

/* One end: where it is, its address as recorded and in its dso, its source line with a srcline key. */
static void json_side(struct branch *B, struct out *out, const char *name, struct sort_bside *s)
{
	out_printf(out, ", \"%s\": {\"dso\": ", name);
	out_json_str(out, s->dso ? s->dso : "[unknown]");
	out_printf(out, ", \"level\": \"%c\", \"symbol\": ", s->level);
	if (s->sym)
		out_json_str(out, s->sym);
	else
		out_str(out, "null");
	out_printf(out, ", \"address\": \"%#" PRIx64 "\", \"ip\": \"%#" PRIx64 "\", \"dso-address\": \"%#" PRIx64 "\"",
		   s->sym ? s->start : s->addr, s->ip, s->addr);
	if (B->want_src) {
		if (!s->srcline)
			need_srcline(B, s, s);
		out_str(out, ", \"srcline\": ");
		out_json_str(out, s->srcline ? s->srcline : "");
	}
	out_char(out, '}');
}

/* The schema is documented in man/mperf-report.1 (JSON OUTPUT); keep them in step. */
static void print_json(struct branch *B, struct out *out)
{
	const struct report_hist_opts *o = B->o;
	bool first_ev = true;

	out_str(out, "{\n  ");
	out_json_head(out, "report", REPORT_JSON_VERSION);
	out_printf(out, ",\n  \"total-lost-samples\": %" PRIu64 ",\n  \"sort\": [", B->total_lost);
	for (int k = 0; k < o->nr_bkeys; k++)
		out_printf(out, "%s\"%s\"", k ? ", " : "", sort_key(o->bkeys[k])->name);
	out_str(out, "],\n  \"children\": false,\n  \"call-graph\": null,\n  \"branch\": true,\n  \"events\": [");
	for (size_t i = 0; i < B->nr; i++) {
		const struct bhists *hs = &B->h[i];
		bool first_row = true;

		if (!hs->nr_samples)
			continue;
		out_str(out, first_ev ? "\n    {\"name\": " : ",\n    {\"name\": ");
		first_ev = false;
		out_json_str(out, pdata__evsel(B->p, i)->name);
		out_printf(out, ", \"samples\": %" PRIu64 ", \"event-count\": %" PRIu64 ", \"lost-samples\": %" PRIu64
			   ",\n     \"rows\": [", hs->nr_samples, hs->total, hs->lost);
		for (size_t e = 0; e < hs->n; e++) {
			struct bent *h = hs->v[e];

			if (!shown(B, hs, h))
				continue;
			out_printf(out, "%s\n      {\"overhead\": %.4f, \"period\": %" PRIu64 ", \"samples\": %" PRIu64
				   ", \"comm\": ", first_row ? "" : ",", share(hs, h->period), h->period, h->nr);
			first_row = false;
			out_json_str(out, h->comm);
			out_printf(out, ", \"tid\": %d", h->tid);
			json_side(B, out, "from", &h->from);
			json_side(B, out, "to", &h->to);
			out_printf(out, ", \"cycles\": %u, \"mispredicted\": %s, \"predicted\": %s, \"in-tx\": %s, \"abort\": %s}",
				   h->f.cycles, h->f.mispred ? "true" : "false", h->f.predicted ? "true" : "false",
				   h->f.in_tx ? "true" : "false", h->f.abort ? "true" : "false");
		}
		out_str(out, first_row ? "]}" : "\n     ]}");
	}
	out_str(out, first_ev ? "]\n}\n" : "\n  ]\n}\n");
}

int report__branch(struct pdata *p, const char *label, const struct report_hist_opts *o, FILE *f)
{
	struct branch B = { .o = o, .p = p, .label = label, .print.mispredict_shown = "N/A" };
	struct session_ops ops = {
		.record = on_record, .sample = on_sample, .finish = on_finish, .arg = &B, .machine = true,
	};
	struct out out;
	int ret;

	fields_setup_view(o, false, true, &B.l);
	hier_levels(&B);
	for (int k = 0; k < B.l.sort_own; k++)	/* perf collapses by --sort's keys, not by -F's */
		B.need_collapse |= !B.l.sort.f[k].value && sort_key((enum report_key)B.l.sort.f[k].id)->collapses;
	for (int k = 0; k < B.l.sort.n; k++)
		B.want_src |= !B.l.sort.f[k].value && (B.l.sort.f[k].id == REPORT_KEY_SRCLINE_FROM ||
						       B.l.sort.f[k].id == REPORT_KEY_SRCLINE_TO);
	if (!(B.syms = symcache__for_file(p, o->vmlinux, o->kallsyms, o->symfs)))
		return -ENOMEM;
	if (o->no_demangle)
		symcache__no_demangle(B.syms);
	srclines_init(&B.src, B.syms);
	/*
	 * Branches are resolved as they come: the first kernel address waits
	 * for the kernel's symbols, read meanwhile by the symbol cache's
	 * thread unless every event excludes the kernel (then only if one
	 * comes) or the input is a stream (its build ids come with it).
	 */
	symcache__load_kernel_for(B.syms, p);
	if (o->symbol_filter)
		ret = mperf_error(-MPERF_ERR_USAGE, "'%s': --symbol-filter is not supported in the branch view "
				  "(--no-branch-stack gives the usual one)", label);
	else
		ret = sfilter_init(&B.filt, &o->filter, p, label);
	if (ret >= 0)
		ret = session__run(p, label, &ops);
	if (ret >= 0 && B.src_err)
		ret = mperf_error(B.src_err, "out of memory");
	if (ret >= 0 && out_init(&out, f)) {
		ret = mperf_error(-ENOMEM, "out of memory");
	} else if (ret >= 0) {
		if (o->json)
			print_json(&B, &out);
		else
			print_text(&B, &out);
		if (o->show_threads && !o->json)
			readvals__print(&B.rv, &out);
		ret = out_close(&out, ret, label);
	}
	for (size_t i = 0; i < B.nr; i++) {
		if (B.h[i].v) {
			for (size_t e = 0; e < B.h[i].n; e++)
				free(B.h[i].v[e]);
		} else {
			/* not built (an error): free the input tree */
			struct bent **v = malloc((B.h[i].n ? B.h[i].n : 1) * sizeof(*v));
			size_t n = v ? in_order(B.h[i].root, v) : 0;

			for (size_t e = 0; e < n; e++)
				free(v[e]);
			free(v);
		}
		free(B.h[i].v);
		hier_free(B.h[i].top, B.h[i].ntop);
	}
	free(B.h);
	sfilter_release(&B.filt);
	readvals__release(&B.rv);
	srclines_release(&B.src);
	strset_free(&B.strs);
	symcache__delete(B.syms);
	return ret;
}
