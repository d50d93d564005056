// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-event histograms: every sample lands in the entry of its sort keys
 * (comm, pid, dso, sym), weighted by its period; entries are printed in
 * perf report --stdio's shape, or as JSON.
 */
#include <errno.h>
#include <sys/types.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "../lib/err.h"
#include "../lib/hash.h"
#include "../lib/log.h"
#include "../lib/rbtree.h"
#include "../lib/strset.h"
#include "callchain.h"
#include "out.h"
#include "report.h"
#include "session.h"
#include "symbols.h"
#include "stackwalk.h"

#define HBUCKETS 4096

struct hent {
	struct hent *next;		/* hash chain */
	const char *comm;		/* interned */
	int pid, tid;			/* of the first sample */
	size_t comm_width;		/* perf sizes the column by the thread's last comm */
	const char *dso;		/* short name, interned */
	const char *sym;		/* NULL: unresolved, addr is shown */
	uint64_t sym_start, sym_end;
	uint64_t addr;			/* the first sample's map-relative address */
	const char *last_comm;		/* the thread's comm at the end (pid column) */
	bool filtered;			/* hidden by --comms/--dsos: counted, not shown */
	char level;			/* '.' user, 'k' kernel, 'H' hypervisor... */
	bool kernel_pending;		/* a kernel ip whose symbol is looked up at the end */
	uint64_t module_addr;		/* a kernel module's sample: its address in the module's map */
	bool inlined;			/* an inline frame's entry: sym ends in " (inlined)" */
	uint64_t period, nr;
	uint64_t acc;			/* Children: the period of the samples whose chains hold it */
	struct cc_tree *cc;		/* its call chains, or NULL */
};

struct hists {
	struct hent *buckets[HBUCKETS];
	struct hent **v;		/* every entry, for sorting */
	size_t n, cap;
	uint64_t total_period, nr_samples, lost;
	uint64_t shown_period;		/* of the samples the filters keep */
};

struct hist {
	const struct report_hist_opts *o;
	struct pdata *p;
	struct hists *h;		/* one per event */
	size_t nr, h_cap;
	struct symcache *syms;
	struct strset strs;		/* comms and dso names */
	bool key[REPORT_NR_KEYS];	/* which of comm, pid, dso, sym identify an entry */
	bool elided[REPORT_NR_KEYS];	/* a column a single-value filter removes: perf's sort skips it too */
	/* Samples come in runs from one thread and one map: remember the last ones. */
	const char *last_comm_raw, *last_comm;
	const char *last_dso_raw, *last_dso;
	bool last_jit;
	const char *label;
	bool decided;			/* chains decided (decide_chains) */
	uint64_t total_lost;
	uint64_t total_samples;
	/* Call chains (a file whose samples have them). */
	bool chains;			/* some event samples CALLCHAIN */
	bool children;			/* the Children view: chains accumulate into their frames' entries */
	bool show;			/* chains are aggregated (not -g none) */
	struct stackwalk walk;		/* the current sample's chain, resolved (shared with the exports) */
	struct hent **seen;		/* the entries a sample's chain already added to (recursion) */
	size_t seen_cap;
};


static const char *intern(struct hist *H, const char *s)
{
	return strset_intern(&H->strs, s);
}

static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p; ) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return true;
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

static bool same(const struct hist *H, const struct hent *a, const struct hent *b)
{
	if (H->key[REPORT_KEY_COMM] && a->comm != b->comm)
		return false;
	if (H->key[REPORT_KEY_PID] && a->tid != b->tid)	/* perf's "pid" key is the thread */
		return false;
	if (H->key[REPORT_KEY_DSO] && a->dso != b->dso)
		return false;
	/* perf's symbol key ignores the level: an entry shows its first sample's. */
	if (H->key[REPORT_KEY_SYM] && (a->sym != b->sym || a->sym_start != b->sym_start ||
			      (!a->sym && a->addr != b->addr)))
		return false;
	/*
	 * Not the filter: as in perf, an entry is hidden or shown as its first
	 * sample was (which matters for the entries a chain passes through).
	 */
	return true;
}

static uint64_t hash_ent(const struct hist *H, const struct hent *e)
{
	uint64_t h = HASH_FNV_INIT;

	if (H->key[REPORT_KEY_COMM])
		h = hash_mix(h, (uintptr_t)e->comm);
	if (H->key[REPORT_KEY_PID])
		h = hash_mix(h, (uint64_t)(unsigned)e->tid);
	if (H->key[REPORT_KEY_DSO])
		h = hash_mix(h, (uintptr_t)e->dso);
	if (H->key[REPORT_KEY_SYM])
		h = hash_mix(h, (uintptr_t)e->sym ^ (e->sym ? 0 : e->addr));
	return h ^ (h >> 29);
}

/* The entry equal to key under the sort keys, or NULL; *bucket gets its hash bucket. */
static struct hent *lookup(const struct hist *H, const struct hists *hs, const struct hent *key, size_t *bucket)
{
	*bucket = hash_ent(H, key) % HBUCKETS;
	for (struct hent *e = hs->buckets[*bucket]; e; e = e->next)
		if (same(H, e, key))
			return e;
	return NULL;
}

/* Insert a new entry (taken over: freed if it cannot be kept). */
static int insert(struct hists *hs, size_t bucket, struct hent *h)
{
	if (ALLOC_GROW(hs->v, hs->n + 1, hs->cap)) {
		free(h);
		return -ENOMEM;
	}
	h->next = hs->buckets[bucket];
	hs->buckets[bucket] = h;
	hs->v[hs->n++] = h;
	return 0;
}

/*
 * One sample of weight period into the entry of key's sort keys: its own
 * (self), or one its chain passes through (only the Children share).
 * The entry, or NULL when out of memory.
 */
static struct hent *add(struct hist *H, struct hists *hs, const struct hent *key, uint64_t period, bool self)
{
	size_t b;
	struct hent *e = lookup(H, hs, key, &b);

	if (!e) {
		if (!(e = malloc(sizeof(*e))))
			return NULL;
		*e = *key;
		e->period = e->nr = e->acc = 0;
		e->cc = NULL;
		if (H->show && !(e->cc = calloc(1, sizeof(*e->cc)))) {
			free(e);
			return NULL;
		}
		if (insert(hs, b, e)) {
			if (e->cc)
				free(e->cc);
			return NULL;
		}
	}
	if (self) {
		e->period += period;
		e->nr++;
	}
	e->acc += period;
	return e;
}

/* Put entry h into hs, adding it to an equal entry if there is one (h is then freed). */
static int merge(struct hist *H, struct hists *hs, struct hent *h)
{
	size_t b;
	struct hent *e = lookup(H, hs, h, &b);

	if (!e)
		return insert(hs, b, h);
	e->period += h->period;
	e->nr += h->nr;
	e->acc += h->acc;
	free(h);	/* no chains: with chains, kernel symbols are found before the samples come */
	return 0;
}

/* Pipe mode adds events as the stream goes: grow with them. */
static struct hists *hists_of(struct hist *H, int evsel)
{
	if ((size_t)evsel >= H->nr) {
		size_t n = (size_t)evsel + 1;

		if (ALLOC_GROW(H->h, n, H->h_cap))
			return NULL;
		memset(H->h + H->nr, 0, (n - H->nr) * sizeof(*H->h));
		H->nr = n;
	}
	return &H->h[evsel];
}

/*
 * A sample's chain: into its own entry's tree, whole; and, for the
 * Children view, to each entry its frames name, once per sample however
 * often recursion repeats it, with the part of the chain from that frame
 * on.
 */
static int add_chain(struct hist *H, struct hists *hs, const struct session_sample *ss, struct hent *self,
		     const struct hent *key)
{
	ssize_t n = stackwalk__chain(&H->walk, ss);
	size_t nseen = 0;

	if (n < 0)
		return (int)n;
	if (self->cc && cc_tree_append(self->cc, H->walk.fr, (size_t)n, ss->period))
		return -ENOMEM;
	if (!H->children)
		return 0;
	if (ALLOC_GROW(H->seen, (size_t)n + 1, H->seen_cap))
		return -ENOMEM;
	H->seen[nseen++] = self;
	for (ssize_t i = 0; i < n; i++) {
		const struct cc_frame *f = &H->walk.fr[i];
		struct hent k = *key, *e;
		bool dup = false;

		k.level = H->walk.lvl[i];
		k.dso = f->dso ? f->dso_name : NULL;
		k.sym = f->sym;
		k.sym_start = f->start;
		k.sym_end = f->end;
		k.inlined = f->inlined;
		k.addr = f->ip;
		/* Filters are the sample's: perf's --dsos hides the chains of a hidden sample, whole. */
		k.kernel_pending = false;
		for (size_t j = 0; j < nseen && !dup; j++)
			dup = same(H, H->seen[j], &k);
		if (dup)
			continue;
		if (!(e = add(H, hs, &k, ss->period, false)))
			return -ENOMEM;
		H->seen[nseen++] = e;
		if (e->cc && cc_tree_append(e->cc, H->walk.fr + i, (size_t)(n - i), ss->period))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Where the sample's ip is: as the session found it, but for init text
 * past the kernel's map, which perf's map reaches once symbols are known
 * (resolved again into *again).  NULL when out of memory.
 */
static const struct resolved *where_of(struct hist *H, const struct session_sample *ss, struct resolved *again)
{
	const struct resolved *w = &ss->where;

	if (w->found || !H->chains || !ss->machine || ss->cpumode != PERF_RECORD_MISC_KERNEL ||
	    ss->smp->ip >= stackwalk__kernel_end(&H->walk))
		return w;
	machine__fixup_kernel_end(ss->machine, H->walk.kernel_end);
	return machine__resolve(ss->machine, w->pid, w->tid, ss->cpumode, ss->smp->ip, again) ? NULL : again;
}

static int add_sample(struct hist *H, const struct session_sample *ss)
{
	struct hists *hs = hists_of(H, ss->evsel);
	struct resolved again;
	const struct resolved *w = where_of(H, ss, &again);
	struct hent k = { 0 }, *e;
	const struct sym *sym = NULL;

	if (!w)
		return -ENOMEM;
	k.pid = w->pid;
	k.tid = w->tid;
	k.addr = ss->smp->ip;

	k.level = stackwalk_level(ss->cpumode);
	/* The machine's strings are stable while they live: compare before interning again. */
	if (w->comm != H->last_comm_raw || strcmp(w->comm, H->last_comm)) {
		H->last_comm = intern(H, w->comm);
		H->last_comm_raw = H->last_comm ? w->comm : NULL;
	}
	k.comm = H->last_comm;
	if (w->found) {
		char jit[64];

		if (w->dso != H->last_dso_raw) {
			H->last_dso = intern(H, stackwalk_short_name(w->dso, jit, sizeof(jit)));
			H->last_jit = stackwalk_is_jit(w->dso);
			H->last_dso_raw = H->last_dso ? w->dso : NULL;
		}
		k.dso = H->last_dso;
		/* perf shows a module's unresolved sample by its address in the module's map */
		if (k.level == 'k' && stackwalk_is_module(w->dso))
			k.module_addr = ss->smp->ip - w->map_start + w->map_pgoff;
		/* perf resolves every sample: the first one's symbol also sizes the columns. */
		if (k.level == 'k' && H->chains)
			sym = symcache__find_kernel(H->syms, ss->smp->ip);	/* read before the samples */
		else if (k.level == 'k') {
			k.kernel_pending = true;	/* kallsyms is still being read */
			/*
			 * A stream starts no thread: its kallsyms is read at its first
			 * kernel sample, where perf reads it, with the build ids come by then.
			 */
			if (pdata__is_pipe(H->p))
				symcache__load_kernel(H->syms);
		}
		else if (H->last_jit)
			k.addr = ss->smp->ip;		/* an identity map, no symbols */
		else
			sym = symcache__find(H->syms, w->dso, w->map_start, w->map_pgoff, ss->smp->ip, &k.addr);
	} else {
		k.dso = NULL;	/* no map: "[unknown]" */
	}
	if (!k.comm || (w->found && !k.dso) || !hs)
		return -ENOMEM;
	if (sym) {
		k.sym = sym->name;
		k.sym_start = sym->start;
		k.sym_end = sym->end;
	} else if (k.module_addr && !k.kernel_pending) {
		k.addr = k.module_addr;
	}
	/* Filtered samples still count in the totals: perf's percentages are absolute. */
	if (H->o->comm && !listed(H->o->comm, k.comm))
		k.filtered = true;
	if (H->o->dso && !(k.dso && (listed(H->o->dso, k.dso) || listed(H->o->dso, w->dso))))
		k.filtered = true;
	hs->total_period += ss->period;
	if (!k.filtered)
		hs->shown_period += ss->period;
	hs->nr_samples++;
	H->total_samples++;
	if (!(e = add(H, hs, &k, ss->period, true)))
		return -ENOMEM;
	if (H->chains && ss->smp->callchain && ss->machine && (H->show || H->children))
		return add_chain(H, hs, ss, e, &k);
	return 0;
}

static bool file_has_chains(struct pdata *p)
{
	for (size_t i = 0; i < pdata__nr_evsel(p); i++)
		if (pdata__evsel(p, i)->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			return true;
	return false;
}

/*
 * What the chains show, decided once the events are known (in pipe mode,
 * at the first sample), as perf decides it: the Children view and the
 * graph by default when some event samples CALLCHAIN; -g asked of a file
 * without chains is refused; --children without them is said, once.
 */
static int decide_chains(struct hist *H)
{
	const struct report_hist_opts *o = H->o;

	H->decided = true;
	H->chains = file_has_chains(H->p);
	for (size_t i = 0; H->chains && i < pdata__nr_evsel(H->p); i++) {
		const struct pd_evsel *ev = pdata__evsel(H->p, i);
		uint64_t st = ev->attr.sample_type;

		/* What perf would add to these chains and mperf cannot yet: said, not dropped. */
		if ((st & PERF_SAMPLE_BRANCH_STACK) && (ev->attr.branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK))
			mperf_log(MPERF_LOG_WARN, "'%s': event '%s' has LBR call stacks (--call-graph lbr), which mperf "
				  "does not read yet: its chains are the frame-pointer ones", H->label, ev->name);
		else if (!(st & PERF_SAMPLE_CALLCHAIN) && o->cc_asked && o->cc_mode != REPORT_CC_NONE)
			mperf_log(MPERF_LOG_WARN, "'%s': event '%s' has no call chains (-g): its entries show none",
				  H->label, ev->name);
	}
	if (!H->chains) {
		if (o->cc_asked && o->cc_mode != REPORT_CC_NONE)
			return mperf_error(-EINVAL, "'%s' has no call chains to show (-g): was it recorded without -g?",
					   H->label);
		if (o->children > 0)
			mperf_log(MPERF_LOG_WARN, "'%s' has no call chains: --children shows the Self overhead only",
				  H->label);
		else if (o->cc_order_set)
			mperf_log(MPERF_LOG_WARN, "'%s' has no call chains: -G shows none", H->label);
		return 0;
	}
	/*
	 * perf decides the Children view before it reads a stream's events,
	 * and without them it has none: a pipe-mode stream shows Self only.
	 */
	H->children = o->children != 0 && !pdata__is_pipe(H->p);
	if (o->children > 0 && pdata__is_pipe(H->p))
		mperf_log(MPERF_LOG_WARN, "'%s' is a pipe-mode stream: perf shows it without --children, and so do we",
			  H->label);
	H->show = o->cc_mode != REPORT_CC_NONE;
	/* perf's orders: caller when --children was asked (even if then cancelled), else callee. */
	H->walk.caller = o->cc_order_set ? o->cc_order == REPORT_CC_CALLER : o->children != 0;
	/* Kernel frames are resolved as they come: the first that needs kallsyms waits for it. */
	H->walk.kernel_end_wanted = true;
	return 0;
}

/* Kernel samples were kept by ip: now that kallsyms is read, merge them by symbol. */
static int resolve_kernel(struct hist *H)
{
	for (size_t i = 0; i < H->nr; i++) {
		struct hists *hs = &H->h[i], old = *hs;
		bool any = false;

		for (size_t e = 0; e < old.n && !any; e++)
			any = old.v[e]->kernel_pending;
		if (!any)
			continue;
		memset(hs, 0, sizeof(*hs));
		hs->total_period = old.total_period;
		hs->shown_period = old.shown_period;
		hs->nr_samples = old.nr_samples;
		hs->lost = old.lost;
		for (size_t e = 0; e < old.n; e++) {
			struct hent *h = old.v[e];
			const struct sym *sym;
			int err;

			if (h->kernel_pending) {
				sym = symcache__find_kernel(H->syms, h->addr);
				if (sym) {
					h->sym = sym->name;
					h->sym_start = sym->start;
					h->sym_end = sym->end;
				} else if (h->module_addr) {
					h->addr = h->module_addr;
				}
				h->kernel_pending = false;
			}
			err = merge(H, hs, h);
			if (err) {
				while (++e < old.n)
					free(old.v[e]);
				free(old.v);
				return err;
			}
		}
		free(old.v);
	}
	return 0;
}

static int on_sample(void *arg, const struct session_sample *ss)
{
	struct hist *H = arg;

	if (!H->decided && decide_chains(H))
		return -1;	/* said */
	return add_sample(arg, ss) ? mperf_error(-ENOMEM, "out of memory") : 0;
}

static int on_finish(void *arg, struct machine *m)
{
	struct hist *H = arg;

	for (size_t i = 0; i < H->nr; i++)
		for (size_t e = 0; e < H->h[i].n; e++) {
			struct hent *h = H->h[i].v[e];
			const char *c = machine__thread_comm(m, h->tid);

			h->last_comm = c ? intern(H, c) : h->comm;
			if (!h->last_comm)
				h->last_comm = h->comm;
			h->comm_width = strlen(h->last_comm);
		}
	return 0;
}

/* LOST_SAMPLES records: perf's "Total Lost Samples", by event. */
static int on_record(void *arg, const struct session_record *r)
{
	struct hist *H = arg;
	struct pd_lost_samples_event e;
	struct hists *hs;

	if (r->h->type != PERF_RECORD_LOST_SAMPLES || r->evsel < 0 || !PD_VIEW(r->h, &e))
		return 0;
	if (!(hs = hists_of(H, r->evsel)))
		return mperf_error(-ENOMEM, "out of memory");
	hs->lost += e.lost;
	H->total_lost += e.lost;
	return 0;
}

/* ---- output ---- */

static int strcmp_null_last(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;
	return strcmp(a, b);
}

/*
 * perf's output order: period, then each key's sort function (names, a
 * resolved symbol before an unresolved one), then, for what is still equal,
 * the order entries were collapsed in: each key's compare function (symbol
 * addresses, unresolved ones by address).
 */
/* A single-value filter on a sorted key removes that column (perf's "elided" columns). */
static const char *single_value(const char *list)
{
	return list && !strchr(list, ',') ? list : NULL;
}

static int collapse_order(const struct hent *a, const struct hent *b, const struct hist *H);

static int ent_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct hent *a = *(const struct hent *const *)pa, *b = *(const struct hent *const *)pb;
	const struct hist *H = ctx;
	int c;

	if (H->children) {
		if (a->acc != b->acc)
			return a->acc > b->acc ? -1 : 1;
		/*
		 * perf puts the caller above its callee when their Children are
		 * equal, by the depth of their chains (deeper first in the
		 * caller order), when they are of one thread.
		 */
		if (a->tid == b->tid && H->key[REPORT_KEY_SYM]) {
			size_t da = a->cc ? a->cc->max_depth : 0, db = b->cc ? b->cc->max_depth : 0;

			if (da != db)
				return (da > db) == H->walk.caller ? -1 : 1;
		}
	}
	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	for (int i = 0; i < H->o->nr_keys; i++) {
		if (H->elided[H->o->keys[i]])
			continue;
		switch (H->o->keys[i]) {
		case REPORT_KEY_COMM:
			c = strcmp(a->comm, b->comm);
			break;
		case REPORT_KEY_PID:
			c = (a->tid > b->tid) - (a->tid < b->tid);
			break;
		case REPORT_KEY_DSO:
			c = strcmp_null_last(a->dso, b->dso);
			break;
		case REPORT_KEY_SYM:
			c = a->sym && b->sym ? strcmp(a->sym, b->sym) : !a->sym - !b->sym;
			break;
		default:
			c = 0;
		}
		if (c)
			return c;
	}
	return collapse_order(a, b, H);
}

/* The names of two symbols, one of them an inline frame's, without " (inlined)". */
static int inline_name_cmp(const struct hent *a, const struct hent *b)
{
	size_t la = strlen(a->sym) - (a->inlined ? sizeof(" (inlined)") - 1 : 0);
	size_t lb = strlen(b->sym) - (b->inlined ? sizeof(" (inlined)") - 1 : 0);
	int c = strncmp(a->sym, b->sym, la < lb ? la : lb);

	return c ? (c < 0 ? -1 : 1) : (la > lb) - (la < lb);
}

/*
 * perf compares addresses by their difference as a signed 64-bit number:
 * the usual order, but for garbage far apart (a frame-pointer walk through
 * code without frame pointers), which it orders the other way.
 */
static int addr_order(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(b - a);

	return d > 0 ? -1 : d < 0;
}

/* The order perf collapses entries in: each key's compare function. */
static int collapse_order(const struct hent *a, const struct hent *b, const struct hist *H)
{
	int c;

	for (int i = 0; i < H->o->nr_keys; i++) {
		switch (H->o->keys[i]) {
		case REPORT_KEY_COMM:
			c = strcmp(a->comm, b->comm);
			break;
		case REPORT_KEY_PID:
			c = (a->tid > b->tid) - (a->tid < b->tid);
			break;
		case REPORT_KEY_DSO:
			c = strcmp_null_last(a->dso, b->dso);
			break;
		case REPORT_KEY_SYM:
			if ((c = strcmp_null_last(a->dso, b->dso)))
				break;
			if (!a->sym != !b->sym) {
				c = a->sym ? 1 : -1;
				break;
			}
			if (!a->sym)
				c = addr_order(a->addr, b->addr);
			else if ((a->inlined || b->inlined) && (c = inline_name_cmp(b, a)))
				break;	/* perf compares inline symbols by name first (reversed, as its collapse order is) */
			else if (a->sym_start != b->sym_start)
				c = a->sym_start < b->sym_start ? -1 : 1;
			else
				c = (a->sym_end > b->sym_end) - (a->sym_end < b->sym_end);
			break;
		default:
			c = 0;
		}
		if (c)
			return c;
	}
	return 0;
}

static int collapse_cmp(const void *pa, const void *pb, void *ctx)
{
	return collapse_order(*(const struct hent *const *)pa, *(const struct hent *const *)pb, ctx);
}

/*
 * perf's output tree, for the one order whose comparison is not a total
 * order: in the Children view, entries with equal Children compare by the
 * depth of their chains only when they are of one thread, so the result
 * depends on how perf's red-black tree met them.  Replayed here: entries
 * inserted in collapse order, descending left when they sort first, with
 * the kernel's (the textbook) rebalancing; then read in order.
 */
struct rbn {
	struct rb_node n;	/* first: a node is its entry's */
	struct hent *e;
};

typedef int (*rb_cmp_fn)(const void *a, const void *b, void *ctx);

/* Insert v[0..n) in that order into a tree ordered by cmp; v gets the tree's order. */
static void rb_replay(struct hent **v, size_t n, struct rbn *nodes, rb_cmp_fn cmp, const struct hist *H)
{
	struct rb_node *root = NULL;
	size_t i = 0;

	for (size_t e = 0; e < n; e++) {
		struct rb_node **link = &root, *parent = NULL;

		nodes[e].e = v[e];
		while (*link) {
			parent = *link;
			link = cmp(&nodes[e].e, &((struct rbn *)parent)->e, (void *)H) < 0 ? &parent->left : &parent->right;
		}
		rb_insert(&root, &nodes[e].n, parent, link);
	}
	for (struct rb_node *x = rb_first(root); x; x = rb_next(x))
		v[i++] = ((struct rbn *)x)->e;
}

/*
 * Entries in perf's output order.  hs->v is in the order entries were
 * made (the order perf's samples made them): perf's input tree by the
 * keys' compare functions (its collapse tree compares the same way), then
 * its output tree.  What this cannot replay: perf compares some keys by
 * the addresses of its objects (DSOs), so among tied entries of a
 * system-wide recording a few may still come in another order.
 */
static int order_entries(struct hist *H, struct hists *hs)
{
	struct rbn *nodes;

	if (!H->children || !H->key[REPORT_KEY_SYM] || hs->n < 2) {
		qsort_r(hs->v, hs->n, sizeof(*hs->v), ent_cmp, H);
		return 0;
	}
	if (!(nodes = calloc(hs->n, sizeof(*nodes))))
		return -ENOMEM;
	rb_replay(hs->v, hs->n, nodes, collapse_cmp, H);
	rb_replay(hs->v, hs->n, nodes, ent_cmp, H);
	free(nodes);
	return 0;
}

static const char *const key_header[] = {
	[REPORT_KEY_COMM] = "Command", [REPORT_KEY_PID] = "    Pid:Command",
	[REPORT_KEY_DSO] = "Shared Object", [REPORT_KEY_SYM] = "Symbol",
};

static const char *const key_name[] = {
	[REPORT_KEY_COMM] = "comm", [REPORT_KEY_PID] = "pid",
	[REPORT_KEY_DSO] = "dso", [REPORT_KEY_SYM] = "symbol",
};

/* The width perf computes for an entry's cell (its col_len). */
static size_t cell_len(const struct hent *e, enum report_key k)
{
	switch (k) {
	case REPORT_KEY_COMM: return e->comm_width;
	case REPORT_KEY_PID: return e->comm_width + 8;
	case REPORT_KEY_DSO: return e->dso ? strlen(e->dso) : 0;
	/* perf sizes an inline frame's symbol by its name, without " (inlined)" */
	case REPORT_KEY_SYM: return e->sym ? strlen(e->sym) + 4 - (e->inlined ? sizeof(" (inlined)") - 1 : 0) : 16 + 4 + 2;
	}
	return 0;
}

/* One cell; the last column is printed unpadded only for the symbol. */
static void print_cell(struct out *out, const struct hent *e, enum report_key k, int width, bool last)
{
	switch (k) {
	case REPORT_KEY_COMM:
		out_printf(out, "%-*.*s", width, width, e->comm);
		break;
	case REPORT_KEY_PID: {
		int w = (width > 7 ? width : 7) - 8;

		out_printf(out, "%7d:%-*.*s", e->tid, w, w < 0 ? 0 : w, e->last_comm);
		break;
	}
	case REPORT_KEY_DSO:
		out_printf(out, "%-*.*s", width, width, e->dso ? e->dso : "[unknown]");
		break;
	case REPORT_KEY_SYM: {
		char buf[4096];

		if (e->sym)
			snprintf(buf, sizeof(buf), "[%c] %s", e->level, e->sym);
		else
			snprintf(buf, sizeof(buf), "[%c] %#.16" PRIx64, e->level, e->addr);	/* perf: 0 without 0x */
		if (last)
			out_str(out, buf);
		else
			out_printf(out, "%-*s", width, buf);
		break;
	}
	}
}

/* "1K": perf's abbreviated sample count (strictly above 1000, divided down step by step). */
static void samples_abbrev(struct out *out, uint64_t n)
{
	char unit = ' ';

	if (n > 1000) {
		n /= 1000;
		unit = 'K';
	}
	if (n > 1000) {
		n /= 1000;
		unit = 'M';
	}
	if (n > 1000)
		unit = 'G';
	out_printf(out, "%" PRIu64 "%c", n, unit);
}


static double share(const struct hists *hs, uint64_t period)
{
	return hs->total_period ? 100.0 * (double)period / (double)hs->total_period : 0.0;
}

/*
 * Choose and order each entry's chains for the print mode.  perf's
 * threshold is a share of the event's total (min_callchain_hits), or, in
 * fractal mode, of each parent.
 */
static int sort_chains(struct hist *H, struct hists *hs)
{
	const struct report_hist_opts *o = H->o;
	uint64_t min_hit = (uint64_t)((double)hs->total_period * (o->cc_min_percent / 100.0));

	if (!H->show)
		return 0;
	for (size_t e = 0; e < hs->n; e++)
		if (hs->v[e]->cc && cc_tree_sort(hs->v[e]->cc, o->cc_mode, min_hit, o->cc_min_percent))
			return -ENOMEM;
	return 0;
}

static int print_text(struct hist *H, struct out *out)
{
	const struct report_hist_opts *o = H->o;
	enum report_key cols[REPORT_MAX_KEYS];
	int nc = 0;
	struct cc_print pp = {
		.mode = o->cc_mode, .value = o->cc_value, .print_limit = o->cc_print_limit,
		/* perf leaves out the first frame of a single root when the sort starts with sym */
		.skip_first = o->sort_given && o->keys[0] == REPORT_KEY_SYM,
	};

	if (!o->after_header)
		out_str(out, "# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	if (!H->total_samples) {
		mperf_log(MPERF_LOG_WARN, "the file has no samples");
		return 0;
	}
	for (int k = 0; k < o->nr_keys; k++) {
		enum report_key key = o->keys[k];
		const char *v = key == REPORT_KEY_COMM ? single_value(o->comm)
				: key == REPORT_KEY_DSO ? single_value(o->dso) : NULL;

		if (v)
			out_printf(out, "# %s: %s\n", key_name[key], v);
		else
			cols[nc++] = key;
	}
	if (!nc) {	/* every column elided: perf shows them all again */
		for (int k = 0; k < o->nr_keys; k++)
			cols[nc++] = o->keys[k];
	}
	out_printf(out, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", H->total_lost);
	for (size_t i = 0, printed = 0; i < H->nr; i++) {
		struct hists *hs = &H->h[i];
		int width[REPORT_MAX_KEYS] = { 0 };
		bool unresolved = false;

		if (!hs->nr_samples)
			continue;	/* like perf (report.skip-empty) */
		if (sort_chains(H, hs) || order_entries(H, hs))
			return mperf_error(-ENOMEM, "out of memory");
		/* Columns fit every shown entry, including those --percent-limit hides. */
		for (int c = 0; c < nc; c++)
			width[c] = (int)strlen(key_header[cols[c]]);
		for (size_t e = 0; e < hs->n; e++) {
			if (hs->v[e]->filtered)
				continue;
			unresolved |= !hs->v[e]->sym;
			for (int c = 0; c < nc; c++)
				if ((int)cell_len(hs->v[e], cols[c]) > width[c])
					width[c] = (int)cell_len(hs->v[e], cols[c]);
		}
		/* An unresolved symbol prints as 16 hex digits: perf widens the dso column to match. */
		for (int c = 0; c < nc; c++)
			if (cols[c] == REPORT_KEY_DSO && unresolved && !o->dso && width[c] < 16)
				width[c] = 16;
		if (printed++)
			out_str(out, "\n\n");
		out_str(out, "# Samples: ");
		samples_abbrev(out, hs->nr_samples);
		out_printf(out, " of event '%s'\n", pdata__evsel(H->p, i)->name);
		out_printf(out, "# Event count (approx.): %" PRIu64 "\n#\n", hs->total_period);
		out_str(out, H->children ? "# Children      Self" : "# Overhead");
		for (int c = 0; c < nc; c++)
			out_printf(out, "  %-*.*s", width[c], width[c], key_header[cols[c]]);
		out_str(out, H->children ? "\n# ........  ........" : "\n# ........");
		for (int c = 0; c < nc; c++) {
			out_str(out, "  ");
			for (int d = 0; d < width[c]; d++)
				out_char(out, '.');
		}
		out_str(out, "\n#\n");
		for (size_t e = 0; e < hs->n; e++) {
			const struct hent *h = hs->v[e];
			double pct = share(hs, h->period), acc = share(hs, h->acc);

			/* perf's --percent-limit looks at the Children share when there is one. */
			if (h->filtered || (float)(H->children ? acc : pct) < (float)o->percent_limit)
				continue;
			if (H->children)
				out_printf(out, "  %7.2f%%", acc);
			out_printf(out, "  %7.2f%%", pct);
			for (int c = 0; c < nc; c++) {
				out_str(out, "  ");
				print_cell(out, h, cols[c], width[c], c + 1 == nc);
			}
			out_char(out, '\n');
			if (h->cc && H->show)
				cc_tree_print(out, h->cc, &pp, hs->total_period, H->children ? h->acc : h->period);
		}
	}
	out_str(out, "\n\n#\n# (Tip: mperf report -D shows every record, perf's way)\n#\n");
	return 0;
}

static void json_frames(struct out *out, const struct cc_node *n, bool *first)
{
	if (!n || !n->parent)
		return;
	json_frames(out, n->parent, first);
	for (size_t i = 0; i < n->nval; i++) {
		const struct cc_frame *f = &n->val[i];

		out_str(out, *first ? "{\"symbol\": " : ", {\"symbol\": ");
		*first = false;
		if (f->sym)
			out_json_str(out, f->sym);
		else
			out_str(out, "null");
		out_str(out, ", \"dso\": ");
		out_json_str(out, f->dso_name);
		out_printf(out, ", \"address\": \"%#" PRIx64 "\"}", f->sym ? f->start : f->ip);
	}
}

/* Every chain of an entry at or above the threshold, as -g folded lists them, with its frames. */
static void json_chains(struct out *out, const struct cc_tree *t, uint64_t total)
{
	out_str(out, ",\n       \"callchains\": [");
	for (size_t i = 0; i < t->nflat; i++) {
		const struct cc_node *n = t->flat[i];
		bool first = true;

		out_printf(out, "%s\n        {\"overhead\": %.4f, \"period\": %" PRIu64 ", \"samples\": %" PRIu64
			   ", \"frames\": [", i ? "," : "", total ? 100.0 * (double)n->hit / (double)total : 0.0, n->hit,
			   n->count);
		json_frames(out, n, &first);
		out_str(out, "]}");
	}
	out_str(out, t->nflat ? "\n       ]" : "]");
}

/* The schema is documented in man/mperf-report.1 (JSON OUTPUT); keep them in step. */
static int print_json(struct hist *H, struct out *out)
{
	const struct report_hist_opts *o = H->o;
	bool first_ev = true;

	out_printf(out, "{\n  \"schema\": \"mperf-report/1\",\n  \"total_lost_samples\": %" PRIu64 ",\n  \"sort\": [",
		   H->total_lost);
	for (int k = 0; k < o->nr_keys; k++)
		out_printf(out, "%s\"%s\"", k ? ", " : "", key_name[o->keys[k]]);
	out_str(out, "],\n  \"children\": ");
	out_str(out, H->children ? "true" : "false");
	out_str(out, ",\n  \"call_graph\": ");
	if (H->chains && H->show)
		out_printf(out, "{\"order\": \"%s\", \"threshold\": %g}", H->walk.caller ? "caller" : "callee",
			   o->cc_min_percent);
	else
		out_str(out, "null");
	out_str(out, ",\n  \"events\": [");
	for (size_t i = 0; i < H->nr; i++) {
		struct hists *hs = &H->h[i];
		bool first_row = true;
		uint64_t min_hit = (uint64_t)((double)hs->total_period * (o->cc_min_percent / 100.0));

		if (!hs->nr_samples)
			continue;
		if (order_entries(H, hs))
			return mperf_error(-ENOMEM, "out of memory");
		out_str(out, first_ev ? "\n    {\"name\": " : ",\n    {\"name\": ");
		first_ev = false;
		out_json_str(out, pdata__evsel(H->p, i)->name);
		out_printf(out, ", \"samples\": %" PRIu64 ", \"event_count\": %" PRIu64 ", \"lost_samples\": %" PRIu64 ",\n     \"rows\": [",
			   hs->nr_samples, hs->total_period, hs->lost);
		for (size_t e = 0; e < hs->n; e++) {
			const struct hent *h = hs->v[e];
			double pct = share(hs, h->period), acc = share(hs, h->acc);

			if (h->filtered || (float)(H->children ? acc : pct) < (float)o->percent_limit)
				continue;
			out_printf(out, "%s\n      {\"overhead\": %.4f, \"period\": %" PRIu64 ", \"samples\": %" PRIu64,
				   first_row ? "" : ",", pct, h->period, h->nr);
			if (H->children)
				out_printf(out, ", \"children_overhead\": %.4f, \"children_period\": %" PRIu64, acc, h->acc);
			first_row = false;
			for (int k = 0; k < o->nr_keys; k++) {
				switch (o->keys[k]) {
				case REPORT_KEY_COMM:
					out_str(out, ", \"comm\": ");
					out_json_str(out, h->comm);
					break;
				case REPORT_KEY_PID:
					out_printf(out, ", \"tid\": %d, \"thread_comm\": ", h->tid);
					out_json_str(out, h->last_comm ? h->last_comm : h->comm);
					break;
				case REPORT_KEY_DSO:
					out_str(out, ", \"dso\": ");
					out_json_str(out, h->dso ? h->dso : "[unknown]");
					break;
				case REPORT_KEY_SYM:
					out_printf(out, ", \"level\": \"%c\", \"symbol\": ", h->level);
					if (h->sym)
						out_json_str(out, h->sym);
					else
						out_str(out, "null");
					out_printf(out, ", \"address\": \"%#" PRIx64 "\"", h->sym ? h->sym_start : h->addr);
					break;
				}
			}
			if (h->cc && H->show) {
				if (cc_tree_sort(h->cc, REPORT_CC_FOLDED, min_hit, o->cc_min_percent))
					return mperf_error(-ENOMEM, "out of memory");
				json_chains(out, h->cc, hs->total_period);
			}
			out_char(out, '}');
		}
		out_str(out, first_row ? "]}" : "\n     ]}");
	}
	out_str(out, first_ev ? "]\n}\n" : "\n  ]\n}\n");
	return 0;
}

/* The sort keys, and which of them a single-value filter elides (every one: none). */
static void set_keys(struct hist *H)
{
	const struct report_hist_opts *o = H->o;
	bool all = true;

	for (int k = 0; k < o->nr_keys; k++) {
		enum report_key key = o->keys[k];

		H->key[key] = true;
		H->elided[key] = (key == REPORT_KEY_COMM && single_value(o->comm)) ||
				 (key == REPORT_KEY_DSO && single_value(o->dso));
		all &= H->elided[key];
	}
	if (all)
		memset(H->elided, 0, sizeof(H->elided));
}

static size_t recorded_build_id(void *arg, const char *name, unsigned char id[20])
{
	return pdata__build_id(arg, name, id);
}

/* Read p through the session into H: every event's entries, kernel symbols resolved. */
static int hist_read(struct hist *H, struct pdata *p, const char *label, const struct report_hist_opts *o)
{
	struct session_ops ops = {
		.record = on_record, .sample = on_sample, .finish = on_finish, .arg = H, .machine = true,
	};
	int ret;

	memset(H, 0, sizeof(*H));
	H->o = o;
	H->p = p;
	H->label = label;
	H->syms = symcache__new();
	if (!H->syms)
		return mperf_error(-ENOMEM, "out of memory");
	symcache__set_build_ids(H->syms, recorded_build_id, p);
	stackwalk__init(&H->walk, H->syms, &H->strs);
	if (o->max_stack && o->max_stack < H->walk.max_stack)
		H->walk.max_stack = o->max_stack;
	set_keys(H);
	/* Pipe mode adds events as it goes: hists_of() grows the array then. */
	H->nr = H->h_cap = pdata__nr_evsel(p);
	H->h = calloc(H->nr ? H->nr : 1, sizeof(*H->h));
	if (!H->nr)
		H->h_cap = 1;
	/* A stream's build ids come with its records: its kallsyms is read when first needed. */
	if (!pdata__is_pipe(p))
		symcache__load_kernel_async(H->syms);
	/* A file's events are known now (a stream's at its first sample): -g is refused before reading. */
	ret = !H->h ? mperf_error(-ENOMEM, "out of memory") : pdata__is_pipe(p) ? 0 : decide_chains(H);
	if (ret >= 0)
		ret = session__run(p, label, &ops);
	if (ret >= 0 && (ret = resolve_kernel(H)))
		ret = mperf_error(ret, "out of memory");
	return ret;
}

static void hist_free(struct hist *H)
{
	for (size_t i = 0; H->h && i < H->nr; i++) {
		for (size_t e = 0; e < H->h[i].n; e++) {
			if (H->h[i].v[e]->cc) {
				cc_tree_free(H->h[i].v[e]->cc);
				free(H->h[i].v[e]->cc);
			}
			free(H->h[i].v[e]);
		}
		free(H->h[i].v);
	}
	stackwalk__release(&H->walk);
	free(H->seen);
	strset_free(&H->strs);
	free(H->h);
	symcache__delete(H->syms);
}

int report__hist(struct pdata *p, const char *label, const struct report_hist_opts *o, FILE *f)
{
	struct hist H;
	struct out out;
	int ret = hist_read(&H, p, label, o);

	if (ret >= 0 && out_init(&out, f)) {
		ret = mperf_error(-ENOMEM, "out of memory");
	} else if (ret >= 0) {
		if (o->json)
			ret = print_json(&H, &out);
		else
			ret = print_text(&H, &out);
		ret = out_close(&out, ret, label);
	}
	hist_free(&H);
	return ret;
}

/* ---- the entries, for other consumers (report.h: mperf diff) ---- */

struct report_hists {
	struct hist H;
	struct report_hist_opts o;	/* H.o points here */
};

int report__hists_read(struct pdata *p, const char *label, const struct report_hist_opts *o,
		       struct report_hists **out)
{
	struct report_hists *rh = malloc(sizeof(*rh));
	int ret;

	*out = NULL;
	if (!rh)
		return mperf_error(-ENOMEM, "out of memory");
	rh->o = *o;
	/* Self periods only: no Children, no chains kept. */
	rh->o.children = 0;
	rh->o.cc_mode = REPORT_CC_NONE;
	rh->o.cc_asked = false;
	rh->o.json = false;
	ret = hist_read(&rh->H, p, label, &rh->o);
	if (ret < 0) {
		hist_free(&rh->H);
		free(rh);
		return ret;
	}
	/* In perf's input order: its compare functions, as its input tree holds them. */
	for (size_t i = 0; i < rh->H.nr; i++)
		qsort_r(rh->H.h[i].v, rh->H.h[i].n, sizeof(*rh->H.h[i].v), collapse_cmp, &rh->H);
	*out = rh;
	return 0;
}

size_t report_hists__nr_events(const struct report_hists *rh)
{
	return rh->H.nr;
}

void report_hists__event(const struct report_hists *rh, size_t ev, struct report_event_hist *e)
{
	const struct hists *hs = &rh->H.h[ev];

	*e = (struct report_event_hist){
		.total_period = hs->total_period, .shown_period = hs->shown_period, .nr_samples = hs->nr_samples, .lost = hs->lost, .nr_entries = hs->n,
	};
}

void report_hists__entry(const struct report_hists *rh, size_t ev, size_t i, struct report_entry *r)
{
	const struct hent *h = rh->H.h[ev].v[i];

	*r = (struct report_entry){
		.comm = h->comm, .thread_comm = h->last_comm ? h->last_comm : h->comm, .tid = h->tid,
		.dso = h->dso, .sym = h->sym, .sym_start = h->sym_start, .sym_end = h->sym_end, .addr = h->addr,
		.level = h->level, .inlined = h->inlined, .filtered = h->filtered, .period = h->period,
		.samples = h->nr,
	};
}

void report_hists__free(struct report_hists *rh)
{
	if (!rh)
		return;
	hist_free(&rh->H);
	free(rh);
}
