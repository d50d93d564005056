// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-event histograms: every sample lands in the entry of its sort keys
 * (comm, pid, dso, sym), weighted by its period; entries are printed in
 * perf report --stdio's shape, or as JSON.
 */
#include <errno.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <inttypes.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "../lib/err.h"
#include "../lib/hash.h"
#include "../lib/log.h"
#include "../lib/rbtree.h"
#include "../lib/strset.h"
#include "callchain.h"
#include "fields.h"
#include "filter.h"
#include "out.h"
#include "readvals.h"
#include "rowkeys.h"
#include "report.h"
#include "sortkey.h"
#include "srcline.h"
#include "../resolve/session.h"
#include "../resolve/symbols.h"
#include "../resolve/stackwalk.h"

#define HBUCKETS 4096

struct hent {
	struct hent *next;		/* hash chain */
	SORT_ROW;			/* what the sort keys look at: comm, tid, dso, sym... (sortkey.h) */
	bool filtered;			/* hidden by --comms/--dsos: counted, not shown */
	bool filtered_other;		/* hidden by the filters but --symbol-filter (a sample's key, for its chain's entries) */
	bool kernel_pending;		/* a kernel ip whose symbol is looked up at the end */
	bool kfirst;			/* holds the first sample in the kernel's map (which perf finds as recorded) */
	uint64_t period;		/* and nr, the row's */
	uint64_t acc;			/* Children: the period of the samples whose chains hold it */
	uint64_t mode_period[4];	/* the Self period by the samples' cpumode: sys, usr, guest sys, guest usr */
	struct cc_tree *cc;		/* its call chains, or NULL */
	struct hent **pair;		/* group view, a leader's entry: each member's entry, [0] itself, or NULL */
	struct rb_node in;		/* in perf's input tree (files with chains) */
};

struct hists {
	struct hent *buckets[HBUCKETS];
	struct hent **v;		/* every entry, for sorting */
	size_t n, cap;
	uint64_t total_period, nr_samples, lost;
	uint64_t shown_period;		/* of the samples the filters keep */
	/*
	 * What shares are of, and what the header counts: the event's totals,
	 * or with --percentage relative those of the entries the filters
	 * show (perf's total_non_filtered_period and nr_non_filtered_samples:
	 * by entry, which is shown or hidden as its first sample was).
	 */
	uint64_t pct_total, pct_samples;
	struct rb_node *in_root;	/* perf's input tree, replayed when the samples have chains; collapsed: its collapse tree */
	bool collapsed;			/* in_root is the tree perf's output order is made from */
	/*
	 * With chains, the hash finds an entry before the input tree's
	 * descent would, while perf_cmp is a total order on the entries
	 * (total_order): unresolved addresses within one half of the
	 * address circle (addr_lo, addr_hi: signed), and, unless the dso
	 * key comes before sym, all of one dso (addr_dso).
	 */
	bool partial_order;		/* perf_cmp stopped being a total order: the tree alone decides */
	bool have_addr;
	int64_t addr_lo, addr_hi;
	const char *addr_dso;
};

/* An entry a chain added to, and the node of its tree where the chain ended then (and that node's run). */
struct cm_ent {
	struct hent *e;
	struct cc_node *leaf;
	size_t nval;
};

/* A chain, of one sample's entry, and what it added to. */
struct chain_memo {
	uint64_t h;
	const struct hists *hs;
	const struct hent *self;
	struct cc_frame *fr;
	size_t n, fr_cap;
	struct cm_ent *ent;
	size_t nent, ent_cap;
};

#define CMEMO 64

struct hist {
	int damage;		/* the input's error, said: what was read before it is shown, then it is returned */
	bool no_symfilter;	/* filtered() without --symbol-filter, for the Children entries' own (perf's hists filter) */
	/*
	 * --symbol-filter applies to the histogram being filled: perf 6.1
	 * gives its string to the file's first event's alone (and in the
	 * group view the leader's entries made for a member's lack it).
	 */
	bool symfilter_here;
	bool finished;		/* the session ended (after damage too) */
	bool copy;		/* kallsyms may come from the build-id cache's copy (hist_read_fast) */
	const char *kdso;	/* the kernel's map as entries show it (symcache__kernel_dso_name) */
	const struct report_hist_opts *o;
	struct pdata *p;
	struct hists *h;		/* one per event */
	size_t nr, h_cap;
	struct symcache *syms;
	struct strset strs;		/* comms and dso names */
	struct sfilter filt;		/* -C, --time */
	struct readvals rv;		/* -T */
	struct rowkeys rk;		/* time, addr, cgroup, cgroup_id, parent */
	bool key[REPORT_NR_KEYS];	/* which of comm, pid, dso, sym identify an entry */
	int32_t *socket_of;		/* each CPU's socket, from the file's CPU_TOPOLOGY (the socket key's) */
	uint32_t nr_socket_of;
	enum report_key keys[FIELDS_MAX];	/* the compared keys: o's, perf's ipc_null where o names "symbol", -F's */
	int nr_keys;
	bool elided[REPORT_NR_KEYS];	/* a column a single-value filter removes: perf's sort skips it too */
	bool collapses;			/* a key has a collapse function: perf builds its collapse tree */
	struct field_list sorted;	/* the output order's comparisons, values and keys (fields.h) */
	/* Samples come in runs from one thread and one map: remember the last ones. */
	const char *last_comm_raw, *last_comm;
	const char *last_dso_raw, *last_dso;
	bool last_jit;
	bool kmap_seen;			/* a sample was in the kernel's map: perf has read kallsyms */
	bool kfirst;			/* this sample is the first there */
	bool krange;			/* kallsyms has kernel symbols: [kstart, walk.kernel_end) is perf's kernel map */
	uint64_t kstart;
	bool ksyms_ready;		/* with chains: kallsyms read, krange and walk.kernel_end set */
	const char *label;
	bool decided;			/* chains decided (decide_chains) */
	uint64_t total_lost;
	uint64_t total_samples;
	/* Call chains (a file whose samples have them). */
	bool chains;			/* some event samples CALLCHAIN */
	bool children;			/* the Children view: chains accumulate into their frames' entries */
	bool show;			/* chains are aggregated (not -g none) */
	struct stackwalk walk;		/* the current sample's chain, resolved (shared with the exports) */
	regex_t ignore;			/* --ignore-callees, compiled (has_ignore) */
	bool has_ignore;
	ssize_t cut;			/* the current sample's chain starts at this frame (--ignore-callees), or -1 */
	struct hent **seen;		/* the entries a sample's chain already added to (recursion) */
	size_t seen_cap;
	struct chain_memo *cmemo;	/* what recent chains added to (CMEMO slots), or NULL */
	struct cm_ent *cm_new;		/* the current sample's, while it is added */
	size_t cm_new_cap;
	struct srclines src;		/* perf's addr2line state of each DSO asked (a2l_note) */
	/* Event groups (set up once read): each event's leader, a leader's number of members. */
	size_t *lead, *nmemb;
	const char **gname;		/* a leader's group name, NULL: "anon group" */
	bool group_view;		/* perf's event_group: a group shows as its leader's histogram */
	bool forced;			/* --group of a file without groups: every event in one */
	size_t sort_nm;			/* the members of the histogram being sorted */
	/* report__hist_doc: where print_text's parts begin (NULL for --stdio) */
	struct report_hist_doc *doc;
	size_t sec_cap, row_cap;
	int doc_err;
};

static const char *intern(struct hist *H, const char *s)
{
	return strset_intern(&H->strs, s);
}

/* Whether --symbols hides entry k, by its symbol's name (an unresolved address: hidden). */
static bool sym_hidden(const struct hist *H, const struct hent *k)
{
	if (H->o->symbol_filter && H->symfilter_here && !H->no_symfilter && !(k->sym && strstr(k->sym, H->o->symbol_filter)))
		return true;	/* perf's --symbol-filter: a part of the name; no symbol, hidden */
	return H->o->sym && !(k->sym && sfilter_listed(H->o->sym, k->sym));
}

/*
 * Whether --dsos lists an entry's dso (NULL: none) by its short name or
 * its long one; with -v, entries hold the long one.
 */
static bool dso_listed(const struct hist *H, const char *dso, const char *dso_long)
{
	char buf[256], kname[256];
	const char *shown = dso;

	if (!dso)
		return false;
	if (H->o->verbose)
		shown = symcache__kernel_dso_name(H->syms, stackwalk_short_name(dso, buf, sizeof(buf)),
						  SYMCACHE_KNAME_SHORT, kname, sizeof(kname));
	return sfilter_listed(H->o->dso, shown) || (dso_long && sfilter_listed(H->o->dso, dso_long));
}

/*
 * Whether perf's filters hide entry k: --comms, --symbols (by name; an
 * unresolved address is hidden), --pid/--tid, and --dsos
 * by the DSO's short name or its long one (dso_long: a file's path, the
 * kernel's vmlinux if the recording names one).
 */
static bool filtered(const struct hist *H, const struct hent *k, const char *dso_long)
{
	if (H->o->exclude_other && !k->parent)
		return true;	/* perf's -x: the entries without a parent */
	if (H->o->comm && !sfilter_listed(H->o->comm, k->comm))
		return true;
	if (H->o->dso && !dso_listed(H, k->dso, dso_long))
		return true;
	if (!k->kernel_pending && sym_hidden(H, k))
		return true;	/* a kernel sample's symbol is checked once kallsyms is read */
	return (H->o->pid && !sfilter_listed_id(H->o->pid, k->pid)) || (H->o->tid && !sfilter_listed_id(H->o->tid, k->tid));
}

/*
 * perf's long name of the DSO of the map named dso, for --dsos: the
 * kernel's, once its symbols are loaded (ready) from a kernel image, is
 * the image's path.
 */
static const char *dso_long_name(struct hist *H, const char *dso, bool ready, char *buf, size_t len)
{
	const char *img;

	if (ready && dso && !strcmp(dso, "[kernel.kallsyms]") && (img = symcache__kernel_image_path(H->syms)))
		return img;
	return symcache__kernel_dso_name(H->syms, dso, SYMCACHE_KNAME_LONG, buf, len);
}

/*
 * Whether kernel samples waiting for kallsyms are kept apart by address:
 * the dso is a key (or filters), the symbol not.
 */
static bool pending_by_addr(const struct hist *H)
{
	return (H->key[REPORT_KEY_DSO] || H->key[REPORT_KEY_SRCLINE] || H->key[REPORT_KEY_SRCFILE] ||
		H->o->dso || H->o->sym) && !H->key[REPORT_KEY_SYM];
}

static bool same(const struct hist *H, const struct hent *a, const struct hent *b)
{
	/* Kept apart until kallsyms is read: the first sample in the kernel's map may keep it when others lose it. */
	if (a->kernel_pending && b->kernel_pending && a->kfirst != b->kfirst)
		return false;
	/* and each address, where its symbol may change its dso (a section's map, or none) */
	if (a->kernel_pending && b->kernel_pending && pending_by_addr(H) && a->addr != b->addr)
		return false;
	for (int i = 0; i < H->nr_keys; i++)
		if (!sort_key(H->keys[i])->eq(&a->k, &b->k))
			return false;
	/*
	 * Not the filter: as in perf, an entry is hidden or shown as its first
	 * sample was (which matters for the entries a chain passes through).
	 */
	return true;
}

/* The hash of what same() compares. */
static uint64_t hash_ent(const struct hist *H, const struct hent *e)
{
	uint64_t h = HASH_FNV_INIT;

	for (int i = 0; i < H->nr_keys; i++)
		h = sort_key(H->keys[i])->hash(h, &e->k);
	if (!H->key[REPORT_KEY_SYM] && e->kernel_pending && pending_by_addr(H))
		h = hash_mix(h, e->addr);
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
 * perf's hist_entry__cmp(l, r) over the sort keys, signs and all: its
 * input tree descends left when cmp(existing, new) < 0.  Unresolved
 * addresses compare by their difference as a signed number, which is not
 * a total order for addresses 2^63 apart (garbage in a frame-pointer
 * chain): equal entries can then miss each other, as in perf.
 */
static int64_t perf_cmp(const struct hist *H, const struct hent *l, const struct hent *r)
{
	int64_t c;

	for (int i = 0; i < H->nr_keys; i++)
		if ((c = sort_key(H->keys[i])->cmp(&l->k, &r->k)))
			return c;
	return 0;
}

#define HENT_OF_IN(n) ((struct hent *)((char *)(n) - offsetof(struct hent, in)))

/*
 * perf_cmp(a, b) == 0, where perf_cmp is a total order (see total_order):
 * interned names are equal when their pointers are, and a resolved
 * symbol is its dso and range whatever its name.
 */
static bool perf_eq(const struct hist *H, const struct hent *a, const struct hent *b)
{
	for (int i = 0; i < H->nr_keys; i++) {
		const struct sort_key *k = sort_key(H->keys[i]);

		if (!(k->eq_cmp ? k->eq_cmp : k->eq)(&a->k, &b->k))
			return false;
	}
	return true;
}

/* A hash of what perf_eq compares. */
static uint64_t perf_hash(const struct hist *H, const struct hent *e)
{
	uint64_t h = HASH_FNV_INIT;

	for (int i = 0; i < H->nr_keys; i++) {
		const struct sort_key *k = sort_key(H->keys[i]);

		h = (k->hash_cmp ? k->hash_cmp : k->hash)(h, &e->k);
	}
	return h ^ (h >> 29);
}

/* The hash bucket of an entry: by perf_eq's fields with chains (the input tree's equality), else by same()'s. */
static size_t bucket_of(const struct hist *H, const struct hent *e)
{
	return (size_t)((H->chains ? perf_hash(H, e) : hash_ent(H, e)) % HBUCKETS);
}

/* Whether the dso key is compared before the sym key. */
static bool dso_before_sym(const struct hist *H)
{
	for (int i = 0; i < H->nr_keys; i++) {
		if (H->keys[i] == REPORT_KEY_DSO)
			return true;
		if (H->keys[i] == REPORT_KEY_SYM)
			return false;
	}
	return false;
}

/*
 * Whether perf_cmp is still a total order on hs's entries with key among
 * them, perf_eq its equality: then the input tree holds one entry per
 * class and its descent finds key's, which the hash finds as well.  Each
 * key's comparison is a total order (interned names, the tid) but sym's:
 * unresolved addresses compare by their difference as a signed number
 * (total while they all lie within 2^63 of each other, counted as signed
 * numbers), and against resolved symbols by dso first, which, unless
 * the dso key is compared before, is an order only when every
 * unresolved entry has one dso; inline frames compare by overlapping
 * ranges.  Once false, false for good: the tree alone finds entries.
 */
static bool total_order(const struct hist *H, struct hists *hs, const struct hent *key)
{
	if (hs->partial_order || !H->key[REPORT_KEY_SYM])
		return !hs->partial_order;
	if (key->inlined) {
		hs->partial_order = true;
	} else if (!key->sym) {
		int64_t a = (int64_t)key->addr;

		if (!hs->have_addr) {
			hs->have_addr = true;
			hs->addr_lo = hs->addr_hi = a;
			hs->addr_dso = key->dso;
		}
		if (a < hs->addr_lo)
			hs->addr_lo = a;
		if (a > hs->addr_hi)
			hs->addr_hi = a;
		if ((uint64_t)hs->addr_hi - (uint64_t)hs->addr_lo >= (uint64_t)1 << 63)
			hs->partial_order = true;
		if (key->dso != hs->addr_dso && !dso_before_sym(H))
			hs->partial_order = true;
	}
	return !hs->partial_order;
}

/*
 * perf's tree descent by perf_cmp: the entry equal to key in the tree at
 * *root, or NULL with *linkp and *parentp where key goes.
 */
static struct hent *in_tree_find(const struct hist *H, struct rb_node **root, const struct hent *key,
				 struct rb_node ***linkp, struct rb_node **parentp)
{
	struct rb_node **link = root, *parent = NULL;

	while (*link) {
		int64_t c = perf_cmp(H, HENT_OF_IN(*link), key);

		parent = *link;
		if (!c)
			return HENT_OF_IN(parent);
		link = c < 0 ? &parent->left : &parent->right;
	}
	*linkp = link;
	*parentp = parent;
	return NULL;
}

/*
 * One sample of weight period into the entry of key's sort keys: its own
 * (self), or one its chain passes through (only the Children share).
 * The entry, or NULL when out of memory.
 */
static struct hent *add(struct hist *H, struct hists *hs, const struct hent *key, uint64_t period, bool self)
{
	size_t b;
	struct hent *e = NULL;
	struct rb_node **link = &hs->in_root, *parent = NULL;

	if (!H->chains) {
		e = lookup(H, hs, key, &b);
	} else {
		/*
		 * perf's input tree (kernel symbols are known by now): where
		 * garbage chain addresses make its comparisons cyclic, an entry
		 * can miss its equal and be made twice, as in perf.  While they
		 * are a total order, the hash finds what the descent would.
		 */
		b = bucket_of(H, key);
		if (total_order(H, hs, key))
			for (e = hs->buckets[b]; e && !perf_eq(H, e, key); e = e->next)
				;
		if (!e)
			e = in_tree_find(H, &hs->in_root, key, &link, &parent);
	}
	if (!e) {
		if (!(e = malloc(sizeof(*e))))
			return NULL;
		*e = *key;
		e->period = e->nr = e->acc = 0;
		memset(e->mode_period, 0, sizeof(e->mode_period));
		e->cc = NULL;
		e->pair = NULL;
		if (H->show && !(e->cc = calloc(1, sizeof(*e->cc)))) {
			free(e);
			return NULL;
		}
		if (insert(hs, b, e)) {
			if (e->cc)
				free(e->cc);
			return NULL;
		}
		if (H->chains)
			rb_insert(&hs->in_root, &e->in, parent, link);
	}
	if (self) {
		e->period += period;
		e->nr++;
	}
	e->acc += period;
	return e;
}

/* perf's he_stat__add_cpumode_period: a sample's Self period by its cpumode (-F overhead_sys...). */
static void mode_period_count(struct hent *e, int cpumode, uint64_t period)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL: e->mode_period[0] += period; break;
	case PERF_RECORD_MISC_USER: e->mode_period[1] += period; break;
	case PERF_RECORD_MISC_GUEST_KERNEL: e->mode_period[2] += period; break;
	case PERF_RECORD_MISC_GUEST_USER: e->mode_period[3] += period; break;
	default: break;
	}
}

static void mode_period_add(struct hent *into, const struct hent *from)
{
	for (size_t i = 0; i < 4; i++)
		into->mode_period[i] += from->mode_period[i];
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
	mode_period_add(e, h);
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

static bool source_keyed(const struct hist *H);
static bool a2l_open(const struct hist *H);
static int a2l_note(struct hist *H, const char *path, bool found);

/*
 * Whether two frames of one symbol may add to different entries: the
 * srcline and srcfile keys are of the frame's address, which the memo
 * then compares too (else a chain through other lines of the same
 * functions added to the lines of the chain last in its slot: which
 * one, with the slots hashed by pointers, varied from run to run).
 */
static bool memo_ip_differs(const struct hist *H, const struct cc_frame *a, const struct cc_frame *b)
{
	return source_keyed(H) && a->ip != b->ip;
}

/*
 * A hash of what a chain adds to, when it can be added again as it was:
 * the sample's entry and the chain's frames, every one with a symbol and
 * none inline (cc_tree_again), while the input tree's entries are found
 * by the hash (total_order).  False otherwise.
 */
static bool chain_memo_hash(const struct hist *H, const struct hists *hs, const struct hent *self,
			    const struct cc_frame *f, size_t n, uint64_t *h)
{
	uint64_t x = hash_mix(hash_mix(HASH_FNV_INIT, (uintptr_t)self), n);

	if (!n || (H->key[REPORT_KEY_SYM] && hs->partial_order))
		return false;
	if (H->key[REPORT_KEY_ADDR])
		return false;	/* its frames' entries are their addresses, which the memo does not compare */
	if (a2l_open(H))
		return false;	/* each frame's lookup counts toward perf's addr2line limit (a2l_note) */
	for (size_t i = 0; i < n; i++) {
		if (!f[i].sym || f[i].inlined)
			return false;
		x = (x ^ (uintptr_t)f[i].sym ^ (f[i].start * 0x9e3779b97f4a7c15ULL)) * 1099511628211ULL;
		if (source_keyed(H))	/* memo_ip_differs: each line's chain a slot of its own */
			x = (x ^ f[i].ip) * 1099511628211ULL;
	}
	*h = x ^ (x >> 29);
	return true;
}

/*
 * The same chain again (the same frames, symbols and ranges, of the same
 * entry): each entry it added to is found again by the hash, its
 * duplicates are the same, and each tree takes it where it ended, when
 * every such node is still whole.  Then added so; false when not.
 */
static bool chain_again(struct hist *H, const struct hists *hs, const struct hent *self, const struct cc_frame *f,
			size_t n, uint64_t h, uint64_t period)
{
	struct chain_memo *m = &H->cmemo[h % CMEMO];

	if (m->h != h || m->hs != hs || m->self != self || m->n != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (m->fr[i].sym != f[i].sym || m->fr[i].dso != f[i].dso || m->fr[i].start != f[i].start ||
		    m->fr[i].end != f[i].end || memo_ip_differs(H, &m->fr[i], &f[i]))
			return false;
	for (size_t i = 0; i < m->nent; i++)
		if (m->ent[i].e->cc && !cc_tree_again(m->ent[i].e->cc, m->ent[i].leaf, m->ent[i].nval))
			return false;
	for (size_t i = 0; i < m->nent; i++) {
		if (i)	/* the first is the sample's own entry, added to by now */
			m->ent[i].e->acc += period;
		if (m->ent[i].e->cc)
			cc_tree_add_again(m->ent[i].leaf, period);
	}
	return true;
}

/* Remember what the chain just added to (H->cm_new[0..nent)). */
static int chain_remember(struct hist *H, const struct hists *hs, const struct hent *self, const struct cc_frame *f,
			  size_t n, uint64_t h, size_t nent)
{
	struct chain_memo *m = &H->cmemo[h % CMEMO];

	m->hs = NULL;
	if (ALLOC_GROW(m->fr, n, m->fr_cap) || ALLOC_GROW(m->ent, nent, m->ent_cap))
		return -ENOMEM;
	memcpy(m->fr, f, n * sizeof(*f));
	memcpy(m->ent, H->cm_new, nent * sizeof(*m->ent));
	m->n = n;
	m->nent = nent;
	m->h = h;
	m->self = self;
	m->hs = hs;
	return 0;
}

/* Whether the sample's user frames were unwound from its stack (dwarf), not recorded. */
static bool chain_unwound(const struct hist *H, const struct session_sample *ss)
{
	return ss->evsel >= 0 && (pdata__evsel(H->p, (size_t)ss->evsel)->attr.sample_type & PERF_SAMPLE_STACK_USER);
}

/*
 * A sample's chain: into its own entry's tree, whole; and, for the
 * Children view, to each entry its frames name, once per sample however
 * often recursion repeats it, with the part of the chain from that frame
 * on.
 */
static int source_frame(struct hist *H, struct hent *k, const struct cc_frame *f);
/*
 * --ignore-callees, as perf's add_callchain_ip: walking a recorded chain
 * in its order, a frame whose symbol matches resets the chain, which
 * starts again at it, and makes it the sample's entry.  The last match
 * wins; perf never checks the frames it unwinds (dwarf), so only the
 * kernel's recorded frames of a dwarf sample count.  H->cut: the frame,
 * or -1.  Returns whether the walk failed.
 */
static int ignore_find(struct hist *H, const struct session_sample *ss)
{
	bool unwound = chain_unwound(H, ss);
	ssize_t n;

	H->cut = -1;
	if (!H->has_ignore || !H->chains || !ss->smp->callchain || !ss->machine)
		return 0;
	if ((n = stackwalk__chain(&H->walk, ss)) < 0)
		return -1;
	for (ssize_t i = 0; i < n; i++) {
		const struct cc_frame *f = &H->walk.fr[i];

		if (f->sym && !f->inlined && (!unwound || H->walk.lvl[i] == 'k') && !regexec(&H->ignore, f->sym, 0, NULL, 0))
			H->cut = i;
	}
	return 0;
}

/* How entries name a kernel map: perf's short name, with -v its long one. */
static enum symcache_kname shown_kname(const struct hist *H)
{
	return H->o->verbose ? SYMCACHE_KNAME_LONG : SYMCACHE_KNAME_SHORT;
}

/* A map's dso as entries show it: its short name, with -v its long one (interned; NULL: out of memory). */
static const char *shown_dso(struct hist *H, const char *dso)
{
	char jit[64], kname[256];

	return intern(H, symcache__kernel_dso_name(H->syms, H->o->verbose ? dso : stackwalk_short_name(dso, jit, sizeof(jit)),
						   shown_kname(H), kname, sizeof(kname)));
}

/* A chain frame's dso as entries show it: its short name, with -v perf's long name (interned). */
static const char *frame_dso(struct hist *H, const struct cc_frame *f)
{
	char kname[256];

	if (!f->dso)
		return NULL;
	if (!H->o->verbose)
		return f->dso_name;
	return intern(H, symcache__kernel_dso_name(H->syms, f->dso, SYMCACHE_KNAME_LONG, kname, sizeof(kname)));
}

/* The sample's key made the frame's ignore_find chose, as a chain's frame is keyed. */
static void ignore_key(struct hist *H, struct hent *k)
{
	const struct cc_frame *f = &H->walk.fr[H->cut];

	k->level = H->walk.lvl[H->cut];
	k->dso = frame_dso(H, f);
	k->sym = f->sym;
	k->sym_start = f->start;
	k->sym_end = f->end;
	k->inlined = f->inlined;
	k->addr = f->ip;
	k->object = false;
	k->sym_len = 0;
	k->module_addr = 0;
	k->kernel_pending = false;
}

/* The walked chain from H->cut on, when --ignore-callees cut it: its frames. */
static ssize_t ignore_cut(struct hist *H, ssize_t n)
{
	if (H->cut <= 0 || H->cut >= n)
		return n;
	memmove(H->walk.fr, H->walk.fr + H->cut, (size_t)(n - H->cut) * sizeof(*H->walk.fr));
	memmove(H->walk.lvl, H->walk.lvl + H->cut, (size_t)(n - H->cut));
	return n - H->cut;
}

/*
 * Whether perf's check of a chain's frame against the entries the sample
 * already added to (its he_tmp, which has no socket, time, cgroup,
 * weight, instruction latency or code page size) can
 * never match: a key it compares whose value in the sample is not 0.
 * Then every frame counts again.
 */
static bool tmp_differs(const struct hist *H, const struct hent *k)
{
	return (H->key[REPORT_KEY_SOCKET] && k->socket) || (H->key[REPORT_KEY_TIME] && k->time) ||
	       (H->key[REPORT_KEY_CGROUP] && k->cgroup) ||
	       ((H->key[REPORT_KEY_WEIGHT] || H->key[REPORT_KEY_LOCAL_WEIGHT]) && k->weight) ||
	       ((H->key[REPORT_KEY_INS_LAT] || H->key[REPORT_KEY_LOCAL_INS_LAT]) && k->ins_lat) ||
	       (H->key[REPORT_KEY_CODE_PAGE_SIZE] && k->code_page_size) ||
	       (H->key[REPORT_KEY_CGROUP_ID] && (k->cgroup_dev || k->cgroup_ino));
}

/*
 * The addr key's address of a chain's frame: perf keeps the frame's
 * address as recorded where it keeps a sample's in its map, and maps it
 * out again (map__unmap_ip): a user frame's, or a module's, is off by
 * what that adds.
 */
static uint64_t frame_ip(const struct cc_frame *f)
{
	return f->ip + f->unmap;
}

static int add_chain(struct hist *H, struct hists *hs, const struct session_sample *ss, struct hent *self,
		     const struct hent *key)
{
	ssize_t n = stackwalk__chain(&H->walk, ss);
	size_t nseen = 0, nent = 0;
	struct hent k;
	uint64_t h = 0;
	bool memo, fcount = source_keyed(H) && !chain_unwound(H, ss);	/* a2l_note: perf's lookups fail */

	if (n < 0)
		return (int)n;
	n = ignore_cut(H, n);
	memo = chain_memo_hash(H, hs, self, H->walk.fr, (size_t)n, &h);
	if (memo && !H->cmemo && !(H->cmemo = calloc(CMEMO, sizeof(*H->cmemo))))
		return -ENOMEM;
	if (memo && chain_again(H, hs, self, H->walk.fr, (size_t)n, h, ss->period))
		return 0;
	if (ALLOC_GROW(H->cm_new, (size_t)n + 1, H->cm_new_cap))
		return -ENOMEM;
	H->cm_new[nent] = (struct cm_ent){ .e = self };
	if (self->cc && cc_tree_append_leaf(self->cc, H->walk.fr, (size_t)n, ss->period, &H->cm_new[nent].leaf))
		return -ENOMEM;
	/* the node's run as the append left it: one split later (in this sample too) tells */
	H->cm_new[nent].nval = H->cm_new[nent].leaf ? H->cm_new[nent].leaf->nval : 0;
	nent++;
	if (!H->children)
		return memo ? chain_remember(H, hs, self, H->walk.fr, (size_t)n, h, nent) : 0;
	if (ALLOC_GROW(H->seen, (size_t)n + 1, H->seen_cap))
		return -ENOMEM;
	H->seen[nseen++] = self;
	/* The sample's key, with each frame's fields in turn (all of them, every time). */
	k = *key;
	for (ssize_t i = 0; i < n; i++) {
		const struct cc_frame *f = &H->walk.fr[i];
		struct hent *e;
		bool dup = false;

		k.level = H->walk.lvl[i];
		k.dso = frame_dso(H, f);
		k.sym = f->sym;
		k.sym_start = f->start;
		k.sym_end = f->end;
		k.inlined = f->inlined;
		k.addr = f->ip;
		k.ip = frame_ip(f);
		k.object = false;	/* the sample's own symbol's, not the frame's */
		k.sym_len = 0;
		k.kfirst = false;
		/* Filters are the sample's: perf's --dsos hides the chains of a hidden sample, whole. */
		k.kernel_pending = false;
		if (H->o->symbol_filter && H->symfilter_here)	/* but --symbol-filter's, the entry's own symbol's */
			k.filtered = key->filtered_other || !(k.sym && strstr(k.sym, H->o->symbol_filter));
		if (source_frame(H, &k, f) || (fcount && f->dso && a2l_note(H, f->dso, false)))
			return -ENOMEM;	/* the check's lookup (perf's he_tmp) */
		/*
		 * perf's check (hist_entry__cmp() == 0), which the entry was
		 * found with: two dsos of one short name, their symbols of one
		 * range, are one entry, whose key is the first sample's.  It
		 * compares a socket of 0 (its he_tmp has none): where the
		 * sample's is not 0, every frame counts again.  An entry
		 * waiting for kallsyms is keyed by its address until then:
		 * same() knows it.
		 */
		for (size_t j = 0; j < nseen && !dup && !tmp_differs(H, &k); j++)
			dup = H->chains && !H->seen[j]->kernel_pending ? !perf_cmp(H, H->seen[j], &k) :
									same(H, H->seen[j], &k);
		if (dup)
			continue;
		if (fcount && f->dso && a2l_note(H, f->dso, false))
			return -ENOMEM;	/* the insertion's lookup */
		if (!(e = add(H, hs, &k, ss->period, false)))
			return -ENOMEM;
		H->seen[nseen++] = e;
		H->cm_new[nent] = (struct cm_ent){ .e = e };
		if (e->cc && cc_tree_append_leaf(e->cc, H->walk.fr + i, (size_t)(n - i), ss->period,
						 &H->cm_new[nent].leaf))
			return -ENOMEM;
		H->cm_new[nent].nval = H->cm_new[nent].leaf ? H->cm_new[nent].leaf->nval : 0;
		nent++;
	}
	return memo ? chain_remember(H, hs, self, H->walk.fr, (size_t)n, h, nent) : 0;
}

/*
 * perf's kernel map as the symbol cache has it now (waiting for the
 * kernel's symbols): kept in H and in the walk, which then asks no more.
 */
static void kernel_range_read(struct hist *H)
{
	struct stackwalk *W = &H->walk;

	W->kernel_range = symcache__kernel_range(H->syms, &W->kernel_start, &W->kernel_end);
	W->kernel_end_known = true;
	H->krange = W->kernel_range;
	H->kstart = W->kernel_start;
}

/*
 * Where the sample's ip is: as the session found it, but for init text
 * past the kernel's map, which perf's map reaches once symbols are known
 * (resolved again into *again).  NULL when out of memory.
 */
static const struct resolved *where_of(struct hist *H, const struct session_sample *ss, struct resolved *again)
{
	const struct resolved *w = &ss->where;

	/* The first sample in the kernel's map finds it as recorded; perf reads kallsyms then. */
	if (w->found && ss->cpumode == PERF_RECORD_MISC_KERNEL && !strcmp(w->dso, "[kernel.kallsyms]")) {
		bool first = !H->kmap_seen;

		H->kmap_seen = true;
		/* perf reads the kernel's symbols now, after the kernel's MMAP: its map is known from here */
		if (first && H->chains)
			kernel_range_read(H);
		/* a kernel image's section past .text: a map of its own once perf has read the image */
		const char *sec = first || !H->chains ? NULL : symcache__kernel_section(H->syms, ss->smp->ip);

		if (sec) {
			*again = *w;
			again->dso = sec;
			return again;
		}
		if (H->chains && !first && H->krange &&
		    (ss->smp->ip < H->kstart || ss->smp->ip >= H->walk.kernel_end)) {
			*again = *w;
			again->found = false;	/* past the kernel's symbols: no map, as in perf */
			again->dso = "<not found>";
			return again;
		}
		if (first)
			H->kfirst = true;
	}
	if (w->found || !H->chains || !ss->machine || ss->cpumode != PERF_RECORD_MISC_KERNEL ||
	    ss->smp->ip >= H->walk.kernel_end)
		return w;
	machine__fixup_kernel_end(ss->machine, H->walk.kernel_end);
	return machine__resolve(ss->machine, w->pid, w->tid, ss->cpumode, ss->smp->ip, again) ? NULL : again;
}

/*
 * perf 6.1 gives up on a DSO's source lines (its has_srcline) after
 * SRCLINES_LIMIT lookups that all failed before any succeeded: from then on each of its
 * addresses is sym+offset.  In the Children view every frame's lookup
 * fails (its address as recorded), twice for a frame that adds to an
 * entry (the check against the sample's entries and the insertion),
 * once for one that does not: a DSO seen in chains before any sample
 * of it succeeded has no lines at all.  a2l_note: one lookup of it,
 * found or not (srcline.h).
 */
static int a2l_note(struct hist *H, const char *path, bool found)
{
	return srclines_note(&H->src, path, found);
}

/* Whether some DSO's lookups still count (the chain memo, which skips them, waits). */
static bool a2l_open(const struct hist *H)
{
	return source_keyed(H) && H->src.undecided;
}

/*
 * Where the srcline and srcfile keys look an address up (srclines_of):
 * srcfile is the line's file alone, "" for the others.
 */
struct source_addr {
	bool ask;		/* the file may be asked (perf's address is a real one) */
	uint64_t off;		/* the address in the DSO's file-offset space, to ask at */
	uint64_t ip;		/* perf's he->ip, which sym+offset is of */
	uint64_t objdump;	/* what dso[addr] shows */
	bool sample;		/* the sample's own address (a2l_note), not a frame's */
};

static int source_of(struct hist *H, struct hent *k, const char *path, const struct source_addr *a)
{
	const struct srcline_at at = {
		.path = path, .dso = k->dso, .sym = k->sym, .sym_start = k->sym_start,
		.ask = a->ask && k->level != 'k', .off = a->off, .ip = a->ip, .objdump = a->objdump,
	};
	const char *file;
	char buf[4096];
	bool found = srclines_of(&H->src, &at, buf, sizeof(buf), &file);

	k->srcline = intern(H, buf);
	k->srcfile = intern(H, file ? file : "");
	if (a->sample && path && k->dso && a2l_note(H, path, found))
		return -ENOMEM;	/* a frame's are add_chain's */
	return k->srcline && k->srcfile ? 0 : -ENOMEM;
}

/* perf's size of k's map (size: as recorded): the kernel's from its first symbol to its last's end. */
static int64_t map_size(struct hist *H, const struct hent *k, uint64_t size)
{
	uint64_t ks, ke;

	if (H->key[REPORT_KEY_DSO_SIZE] && k->dso && k->dso == H->kdso && symcache__kernel_range(H->syms, &ks, &ke))
		return (int64_t)(ke - ks);
	return k->dso ? (int64_t)size : -1;
}

static bool source_keyed(const struct hist *H)
{
	return H->key[REPORT_KEY_SRCLINE] || H->key[REPORT_KEY_SRCFILE];
}

/* The srcline, srcfile and dso_size keys' fields, where a key asks for them (a kernel symbol waiting: later). */
static int source_keys(struct hist *H, struct hent *k, const struct resolved *w)
{
	k->dso_size = map_size(H, k, w->found ? w->map_end - w->map_start : 0);
	if (!source_keyed(H) || k->kernel_pending)
		return 0;
	return source_of(H, k, w->found ? w->dso : NULL, &(struct source_addr){ true, k->addr, k->addr, k->addr, true });
}

/*
 * The same for a frame of the sample's chain (the Children view's
 * entries): perf keeps a user frame's address as recorded, which it then
 * takes for one in the DSO, so that its line is never found (as perf,
 * for a shared object or a PIE): sym+offset from the frame's address.
 */
static int source_frame(struct hist *H, struct hent *k, const struct cc_frame *f)
{
	k->dso_size = map_size(H, k, f->map_size);
	if (!source_keyed(H))
		return 0;
	return source_of(H, k, f->dso, &(struct source_addr){ k->level == 'k', f->rel, f->ip, f->ip });
}

/* Whether a memory key looks at where the data address lies. */
static bool daddr_keyed(const struct hist *H)
{
	return H->key[REPORT_KEY_SYM_DADDR] || H->key[REPORT_KEY_DSO_DADDR] || H->key[REPORT_KEY_DCACHELINE];
}

/*
 * The data address's map and symbol, as perf's ip__resolve_data finds
 * them: in the maps of the sample's mode (a kernel sample's user address
 * has none).  perf shows a data symbol (STT_OBJECT) as sym+offset.
 */
static int daddr_of(struct hist *H, struct hent *k, const struct session_sample *ss)
{
	struct sort_daddr *d = &k->d;
	const struct sym *sym = NULL;
	struct ksym_info ki = { 0 };
	struct resolved r;

	*d = (struct sort_daddr){ .addr = ss->smp->addr, .al_addr = ss->smp->addr, .cpumode = ss->cpumode, .pid = -1 };
	if (!ss->machine)
		return 0;
	if (machine__resolve(ss->machine, k->pid, k->tid, ss->cpumode, d->addr, &r))
		return -ENOMEM;
	if (!r.found)
		return 0;
	if (!(d->dso = shown_dso(H, r.dso)))
		return -ENOMEM;
	d->mapped = true;
	d->unmap = r.map_identity ? 0 : r.map_start - r.map_pgoff;
	d->al_addr = d->addr - d->unmap;
	d->shared = (r.map_flags & MAP_SHARED) != 0;
	d->exec = (r.map_prot & PROT_EXEC) != 0;
	d->ino = r.map_ino;
	d->pid = k->pid;
	if (ss->cpumode == PERF_RECORD_MISC_KERNEL) {
		if (!H->chains)
			symcache__load_kernel(H->syms);	/* a kernel data address: its symbols now */
		sym = symcache__find_kernel(H->syms, r.dso, d->addr, &ki);
		d->unmap = 0;
		d->al_addr = d->addr;
		d->object = ki.object;
	} else {
		sym = symcache__find(H->syms, r.dso, r.map_start, r.map_pgoff, d->addr, &d->al_addr);
		d->object = symcache__sym_object(H->syms, sym);
		if (r.map_identity)
			d->al_addr = d->addr;
	}
	if (sym) {
		d->sym = sym->name;
		d->sym_start = sym->start;
		d->sym_len = ki.namelen ? ki.namelen : strlen(sym->name);
	}
	return 0;
}

/* The keys of the sample itself (rowkeys.h); the parent from its chain, walked as perf walks it. */
static int sample_keys(struct hist *H, struct hent *k, const struct session_sample *ss)
{
	bool unwound;
	ssize_t n;

	if (rowkeys__sample(&H->rk, &k->k, ss) || (daddr_keyed(H) && daddr_of(H, k, ss)))
		return -1;
	if (!H->rk.parent || !H->chains || !ss->smp->callchain || !ss->machine)
		return 0;
	unwound = chain_unwound(H, ss);
	if ((n = stackwalk__chain(&H->walk, ss)) < 0)
		return -1;
	return rowkeys__parent(&H->rk, &k->k, H->walk.fr, H->walk.lvl, (size_t)n, unwound);
}

/* perf refuses the parent key of a file without chains (a stream's events are not known yet). */
static int parent_check(struct hist *H)
{
	if (!H->key[REPORT_KEY_PARENT] || H->chains || pdata__is_pipe(H->p))
		return 0;
	return mperf_error(-MPERF_ERR_USAGE, "'%s' has no call chains for the parent key (--sort parent, -p): "
			   "was it recorded without -g?", H->label);
}

/* k's filters but --symbol-filter, whose test perf makes on each entry's own symbol, a chain's frames' too. */
static bool filtered_other(struct hist *H, const struct hent *k, const char *dso_long)
{
	bool f;

	H->no_symfilter = true;
	f = filtered(H, k, dso_long);
	H->no_symfilter = false;
	return f;
}

/* A sample's comm, interned: the machine's strings are stable while they live, so compare before interning again. */
static const char *sample_comm(struct hist *H, const char *comm)
{
	if (comm != H->last_comm_raw || strcmp(comm, H->last_comm)) {
		H->last_comm = intern(H, comm);
		H->last_comm_raw = H->last_comm ? comm : NULL;
	}
	return H->last_comm;
}

static int add_sample(struct hist *H, const struct session_sample *ss)
{
	struct hists *hs = hists_of(H, ss->evsel);
	struct resolved again;
	const struct resolved *w = where_of(H, ss, &again);
	struct hent k = { 0 }, *e;
	const struct sym *sym = NULL;
	struct ksym_info ki = { 0 };
	char kname[256];
	const char *dso_long;

	if (!w)
		return -ENOMEM;
	H->symfilter_here = ss->evsel == 0;
	k.kfirst = H->kfirst;
	H->kfirst = false;
	k.pid = w->pid;
	k.tid = w->tid;
	k.cpu = (int)ss->smp->cpu;
	k.socket = k.cpu >= 0 && (uint32_t)k.cpu < H->nr_socket_of ? H->socket_of[k.cpu] : -1;
	k.addr = ss->smp->ip;
	if (sample_keys(H, &k, ss))
		return -ENOMEM;

	k.level = stackwalk_level(ss->cpumode);
	k.comm = sample_comm(H, w->comm);
	if (w->found) {
		stackwalk_kernel_hit(H->syms, ss->cpumode, w);

		if (w->dso != H->last_dso_raw) {
			H->last_dso = shown_dso(H, w->dso);
			H->last_jit = stackwalk_is_jit(w->dso);
			H->last_dso_raw = H->last_dso ? w->dso : NULL;
		}
		k.dso = H->last_dso;
		/* perf shows a module's unresolved sample by its address in the module's map */
		if (k.level == 'k' && stackwalk_is_module(w->dso))
			k.module_addr = ss->smp->ip - w->map_start + w->map_pgoff;
		/* perf resolves every sample: the first one's symbol also sizes the columns. */
		if (k.level == 'k' && H->chains)
			sym = symcache__find_kernel(H->syms, w->dso, ss->smp->ip, &ki);	/* read before the samples */
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
		k.object = ki.object;
		k.sym_len = ki.namelen;
	} else if (ki.mapped) {
		k.addr = ki.addr;	/* a kernel image's (or .ko's) map: the address in the image */
	} else if (k.module_addr && !k.kernel_pending) {
		k.addr = k.module_addr;
	}
	if (ignore_find(H, ss))
		return -ENOMEM;
	if (H->cut >= 0)
		ignore_key(H, &k);
	if (source_keys(H, &k, w))
		return -ENOMEM;
	/* Filtered samples still count in the totals: perf's percentages are absolute. */
	dso_long = H->o->dso ? dso_long_name(H, w->dso, H->ksyms_ready, kname, sizeof(kname)) : NULL;
	k.filtered = filtered(H, &k, dso_long);
	if (H->o->symbol_filter && H->children)
		k.filtered_other = filtered_other(H, &k, dso_long);
	hs->total_period += ss->period;
	if (!k.filtered)
		hs->shown_period += ss->period;
	hs->nr_samples++;
	H->total_samples++;
	if (!(e = add(H, hs, &k, ss->period, true)))
		return -ENOMEM;
	mode_period_count(e, ss->cpumode, ss->period);
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
	H->children = o->children != 0 && !pdata__is_pipe(H->p) && !o->hierarchy;	/* perf's --hierarchy has none */
	if (o->children > 0 && pdata__is_pipe(H->p))
		mperf_log(MPERF_LOG_WARN, "'%s' is a pipe-mode stream: perf shows it without --children, and so do we",
			  H->label);
	H->show = o->cc_mode != REPORT_CC_NONE;
	/* perf's orders: caller when --children was asked (even if then cancelled), else callee. */
	H->walk.caller = o->cc_order_set ? o->cc_order == REPORT_CC_CALLER : o->children != 0;
	/* Kernel frames are resolved as they come; kernel_symbols_ready reads their map. */
	H->walk.kernel_end_wanted = true;
	return 0;
}

/*
 * Kernel frames are resolved as they come: kallsyms must be read by the
 * first sample of a file with chains that is not a user one (the records
 * before it go on being read meanwhile, by the symbol cache's thread); a
 * user sample's chain has no kernel frame, and a file of user samples
 * never reads it.
 */
static void kernel_symbols_ready(struct hist *H)
{
	kernel_range_read(H);
	H->ksyms_ready = true;
}

/* The machine's name of the kernel's map for an entry's dso as it is shown (H->kdso). */
static const char *machine_dso(const struct hist *H, const char *dso)
{
	return dso == H->kdso ? "[kernel.kallsyms]" : dso;
}

/*
 * -v's origin letters, once every entry's dso is known: where the symbol
 * cache read each dso's symbols ('!' no dso, or none found).
 */
static void set_origins(struct hist *H)
{
	if (!H->o->verbose)
		return;
	for (size_t i = 0; i < H->nr; i++)
		for (size_t e = 0; e < H->h[i].n; e++) {
			struct hent *h = H->h[i].v[e];

			h->origin = stackwalk_origin(H->syms, h->dso ? machine_dso(H, h->dso) : NULL);
		}
}

/* Kernel samples were kept by ip: now that kallsyms is read, merge them by symbol. */
static int resolve_kernel(struct hist *H)
{
	uint64_t kstart = 0, kend = 0;
	struct ksym_info ki;
	bool krange = false, krange_read = false;

	for (size_t i = 0; i < H->nr; i++) {
		struct hists *hs = &H->h[i], old = *hs;
		bool any = false;

		H->symfilter_here = i == 0;

		for (size_t e = 0; e < old.n && !any; e++)
			any = old.v[e]->kernel_pending;
		if (!any)
			continue;
		/* perf's kernel map once kallsyms is read (waited for here, not before) */
		if (!krange_read) {
			krange = symcache__kernel_range(H->syms, &kstart, &kend);
			krange_read = true;
		}
		memset(hs, 0, sizeof(*hs));
		hs->total_period = old.total_period;
		hs->shown_period = old.shown_period;
		hs->nr_samples = old.nr_samples;
		hs->lost = old.lost;
		for (size_t e = 0; e < old.n; e++) {
			struct hent *h = old.v[e];
			const struct sym *sym;
			bool source = false;	/* the srcline and srcfile keys', now the symbol is known */
			int err;

			const char *sec = h->kernel_pending && !h->kfirst && h->dso && h->dso == H->kdso ?
					  symcache__kernel_section(H->syms, h->addr) : NULL;
			const char *map = sec ? sec : machine_dso(H, h->dso);	/* as the symbol cache names it */
			char kname[256];

			/* a kernel image's section past .text: a map of its own once perf has read the image */
			if (sec && !(h->dso = intern(H, symcache__kernel_dso_name(H->syms, sec, shown_kname(H), kname, sizeof(kname))))) {
				while (++e < old.n)
					free(old.v[e]);
				free(old.v);
				return -ENOMEM;
			}
			if (h->kernel_pending && krange && !h->kfirst && h->dso && h->dso == H->kdso &&
			    (h->addr < kstart || h->addr >= kend)) {
				h->dso = NULL;	/* past the kernel's symbols: once perf has read them, no map */
				h->kernel_pending = false;
				sec = "";
			}
			/* its map known, perf's --dsos decides again (a section's long name is the kernel's first) */
			if (H->o->dso && (sec || (h->kernel_pending && h->dso == H->kdso)) &&
			    filtered(H, h, !h->dso ? NULL : sec ? symcache__kernel_dso_name(H->syms, sec, SYMCACHE_KNAME_LONG, NULL, 0) :
						dso_long_name(H, "[kernel.kallsyms]", true, NULL, 0)) != h->filtered) {
				h->filtered = !h->filtered;
				if (h->filtered)
					hs->shown_period -= h->period;
				else
					hs->shown_period += h->period;
			}
			if (h->kernel_pending) {
				sym = symcache__find_kernel(H->syms, map, h->addr, &ki);
				if (sym) {
					h->object = ki.object;
					h->sym_len = ki.namelen;
					h->sym = sym->name;
					h->sym_start = sym->start;
					h->sym_end = sym->end;
				} else if (ki.mapped) {
					h->addr = ki.addr;	/* a kernel image's (or .ko's) map: the address in the image */
				} else if (h->module_addr) {
					h->addr = h->module_addr;
				}
				h->kernel_pending = false;
				source = source_keyed(H);
				/* --symbols, now that the symbol is known */
				if (!h->filtered && sym_hidden(H, h)) {
					h->filtered = true;
					hs->shown_period -= h->period;
				}
			}
			if (source && (err = source_of(H, h, map, &(struct source_addr){ true, h->addr, h->addr, h->addr, true })))
				free(h);
			else
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

	if (H->copy && symcache__kallsyms_stale(H->syms, false))
		return -ECANCELED;	/* read again: hist_read_fast */
	if (sfilter_skip(&H->filt, ss->smp))
		return 0;	/* perf drops it before it counts anywhere */
	if (!H->decided && decide_chains(H))
		return -1;	/* said */
	if (H->chains && !H->ksyms_ready && ss->cpumode != PERF_RECORD_MISC_USER)
		kernel_symbols_ready(H);
	if (H->o->mem_mode) {	/* perf's memory mode: a sample weighs its weight */
		struct session_sample mss = *ss;

		mss.period = rowkeys__mem_cost(&H->rk, ss);
		return add_sample(arg, &mss) ? mperf_error(-ENOMEM, "out of memory") : 0;
	}
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
	H->finished = true;
	return 0;
}

/* LOST_SAMPLES records: perf's "Total Lost Samples", by event; the kernel's MMAP (its reference symbol). */
static int on_record(void *arg, const struct session_record *r)
{
	struct hist *H = arg;
	struct pd_lost_samples_event e;
	struct hists *hs;

	symcache__kernel_mmap(H->syms, r->h);
	if (rowkeys__record(&H->rk, r->h))
		return mperf_error(-ENOMEM, "out of memory");
	if (H->o->show_threads && readvals__add(&H->rv, r))
		return mperf_error(-ENOMEM, "out of memory");
	if (r->h->type != PERF_RECORD_LOST_SAMPLES || r->evsel < 0 || !PD_VIEW(r->h, &e))
		return 0;
	if (!(hs = hists_of(H, r->evsel)))
		return mperf_error(-ENOMEM, "out of memory");
	hs->lost += e.lost;
	H->total_lost += e.lost;
	return 0;
}

/* ---- output ---- */

/*
 * perf's output order: period, then each key's sort function (names, a
 * resolved symbol before an unresolved one), then, for what is still equal,
 * the order entries were collapsed in: each key's compare function (symbol
 * addresses, unresolved ones by address).
 */
static int collapse_order(const struct hent *a, const struct hent *b, const struct hist *H);

enum gfield { G_PERIOD, G_NR, G_ACC, G_SYS, G_US, G_GUEST_SYS, G_GUEST_US };

/* Member m's value of a (leader's) entry: 0 where that member has no entry. */
static uint64_t gval(const struct hent *h, size_t m, enum gfield f)
{
	const struct hent *x = h->pair ? h->pair[m] : m ? NULL : h;

	if (!x)
		return 0;
	if (f >= G_SYS)
		return x->mode_period[f - G_SYS];
	return f == G_PERIOD ? x->period : f == G_NR ? x->nr : x->acc;
}

static int desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

/*
 * perf's order of one value column in a group: the leader's, then each
 * member's; with --group-sort-idx N (a member of the group), member N's,
 * then the other members' -- and then not the leader's at all, as perf
 * 6.1 has it.  An N past the group sorts by the leader alone.
 */
static int group_cmp(const struct hist *H, const struct hent *a, const struct hent *b, enum gfield f)
{
	size_t nm = H->sort_nm ? H->sort_nm : 1, idx = (size_t)H->o->group_sort_idx;
	int c;

	if (nm > 1 && H->o->group_sort_idx) {
		if (H->o->group_sort_idx < 1 || idx >= nm)
			return desc(gval(a, 0, f), gval(b, 0, f));
		if ((c = desc(gval(a, idx, f), gval(b, idx, f))))
			return c;
		for (size_t m = 1; m < nm; m++)
			if (m != idx && (c = desc(gval(a, m, f), gval(b, m, f))))
				return c;
		return 0;
	}
	for (size_t m = 0; m < nm; m++)
		if ((c = desc(gval(a, m, f), gval(b, m, f))))
			return c;
	return 0;
}

/* A value column's member values: its gval field. */
static enum gfield value_gfield(enum report_value v)
{
	switch (v) {
	case REPORT_VALUE_OVERHEAD_SYS: return G_SYS;
	case REPORT_VALUE_OVERHEAD_US: return G_US;
	case REPORT_VALUE_OVERHEAD_GUEST_SYS: return G_GUEST_SYS;
	case REPORT_VALUE_OVERHEAD_GUEST_US: return G_GUEST_US;
	case REPORT_VALUE_OVERHEAD_CHILDREN: return G_ACC;
	case REPORT_VALUE_SAMPLE: return G_NR;
	default: return G_PERIOD;
	}
}

/*
 * perf's Children comparison: the larger first; perf puts the caller
 * above its callee when their Children are equal, by the depth of their
 * chains (deeper first in the caller order), when they are of one thread.
 * Nothing outside the Children view.
 */
static int children_cmp(const struct hist *H, const struct hent *a, const struct hent *b)
{
	if (!H->children)
		return 0;
	if (a->acc != b->acc)
		return a->acc > b->acc ? -1 : 1;
	if (a->tid == b->tid) {
		size_t da = a->cc ? a->cc->max_depth : 0, db = b->cc ? b->cc->max_depth : 0;

		if (da != db)
			return (da > db) == H->walk.caller ? -1 : 1;
	}
	return 0;
}

/*
 * perf's output comparison: 0 for entries it cannot tell apart, which its
 * output tree then keeps in the order it met them (the collapse tree's).
 * Its sort list (fields.h): by default [Children,] Overhead, the keys,
 * then the Samples and Period columns it shows.
 */
static int out_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct hent *a = *(const struct hent *const *)pa, *b = *(const struct hent *const *)pb;
	const struct hist *H = ctx;
	int c;

	for (int i = 0; i < H->sorted.n; i++) {
		struct report_field f = H->sorted.f[i];

		if (!f.value)
			c = H->elided[f.id] ? 0 : sort_key((enum report_key)f.id)->sort(&a->k, &b->k);
		else if (f.id == REPORT_VALUE_OVERHEAD_CHILDREN)
			c = children_cmp(H, a, b);
		else
			c = group_cmp(H, a, b, value_gfield((enum report_value)f.id));
		if (c)
			return c;
	}
	return 0;
}

/*
 * The same, with ties in collapse order: for a sort (not stable) of
 * entries that did not come through perf's trees.
 */
static int ent_cmp(const void *pa, const void *pb, void *ctx)
{
	int c = out_cmp(pa, pb, ctx);

	return c ? c : collapse_order(*(const struct hent *const *)pa, *(const struct hent *const *)pb, ctx);
}

/* The order perf collapses entries in: each key's compare function. */
static int collapse_order(const struct hent *a, const struct hent *b, const struct hist *H)
{
	int c;

	for (int i = 0; i < H->nr_keys; i++)
		if ((c = sort_key(H->keys[i])->collapse(&a->k, &b->k)))
			return c;
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
 * perf's collapse tree (when a key has a collapse function: comm): the input
 * tree's entries, in its order, into a second tree by the same
 * comparisons, an entry that finds its equal merged into it, chains and
 * all.  The comparisons are not a total order, so this merges entries the
 * input tree kept apart, and not all of them.  hs->v gets the survivors,
 * in order.
 */
static void v_from_tree(struct hists *hs)
{
	hs->n = 0;
	for (struct rb_node *x = rb_first(hs->in_root); x; x = rb_next(x))
		hs->v[hs->n++] = HENT_OF_IN(x);
}

/* Entry e out of hs's hash chains (before it is freed). */
static void unhash(const struct hist *H, struct hists *hs, const struct hent *e)
{
	struct hent **pp = &hs->buckets[bucket_of(H, e)];

	while (*pp && *pp != e)
		pp = &(*pp)->next;
	if (*pp)
		*pp = e->next;
}

static int collapse(struct hist *H, struct hists *hs)
{
	struct rb_node *root = NULL;
	size_t n;

	if (hs->collapsed)
		return 0;
	hs->collapsed = true;
	v_from_tree(hs);
	if (!H->collapses)
		return 0;	/* no key has a collapse function: perf has no collapse tree, the input tree stands */
	n = hs->n;
	hs->in_root = NULL;
	for (size_t i = 0; i < n; i++) {
		struct hent *e = hs->v[i], *eq;
		struct rb_node **link, *parent;

		if (!(eq = in_tree_find(H, &root, e, &link, &parent))) {
			rb_insert(&root, &e->in, parent, link);
			continue;
		}
		eq->period += e->period;
		eq->nr += e->nr;
		eq->acc += e->acc;
		mode_period_add(eq, e);
		if (eq->cc && e->cc && cc_tree_merge(eq->cc, e->cc))
			return -ENOMEM;
		if (e->cc) {
			cc_tree_free(e->cc);
			free(e->cc);
		}
		unhash(H, hs, e);
		free(e);
		hs->v[i] = NULL;
	}
	hs->in_root = root;
	v_from_tree(hs);
	return 0;
}

/*
 * Entries in perf's output order.  With chains, the entries were made in
 * perf's input tree itself (add): its order, its collapse tree, then its
 * output tree.  Without, hs->v is in the order entries were made (the
 * order perf's samples made them), sorted by the keys' compare functions
 * (perf's input tree, where they are a total order), then perf's output
 * order.  What this cannot replay: perf compares some keys by the
 * addresses of its objects (DSOs), so among tied entries of a system-wide
 * recording a few may still come in another order.
 */
static int order_entries(struct hist *H, struct hists *hs)
{
	struct rbn *nodes;

	if (H->chains && (hs->in_root || hs->collapsed)) {
		if (collapse(H, hs))
			return -ENOMEM;
		if (hs->n < 2)
			return 0;
		if (!(nodes = calloc(hs->n, sizeof(*nodes))))
			return -ENOMEM;
		rb_replay(hs->v, hs->n, nodes, out_cmp, H);
		free(nodes);
		return 0;
	}
	if (!H->children || !H->key[REPORT_KEY_SYM] || hs->n < 2) {
		qsort_r(hs->v, hs->n, sizeof(*hs->v), ent_cmp, H);
		return 0;
	}
	if (!(nodes = calloc(hs->n, sizeof(*nodes))))
		return -ENOMEM;
	rb_replay(hs->v, hs->n, nodes, collapse_cmp, H);
	rb_replay(hs->v, hs->n, nodes, out_cmp, H);
	free(nodes);
	return 0;
}

/*
 * Member m's entries linked to their leader's equal entry (perf's
 * hists__link): one the leader has not is made, with nothing of its own
 * and no chains, from the member's.
 */
static int link_group(struct hist *H, size_t l)
{
	struct hists *hl = &H->h[l];
	size_t nm = H->nmemb[l];

	/*
	 * With chains, as in perf: each histogram's collapse first, then a
	 * member's entry finds the leader's in its collapse tree (or input
	 * tree), where one the leader lacks is made.
	 */
	for (size_t m = 0; H->chains && m < nm; m++)
		if (collapse(H, &H->h[l + m]))
			return -ENOMEM;
	for (size_t e = 0; e < hl->n; e++) {
		if (!(hl->v[e]->pair = calloc(nm, sizeof(*hl->v[e]->pair))))
			return -ENOMEM;
		hl->v[e]->pair[0] = hl->v[e];
	}
	for (size_t m = 1; m < nm; m++) {
		const struct hists *hm = &H->h[l + m];

		for (size_t e = 0; e < hm->n; e++) {
			struct hent *me = hm->v[e], *x;
			struct rb_node **link = NULL, *parent = NULL;
			size_t b;

			if (H->chains) {
				b = bucket_of(H, me);
				x = in_tree_find(H, &hl->in_root, me, &link, &parent);
			} else {
				x = lookup(H, hl, me, &b);
			}
			if (!x) {
				if (!(x = malloc(sizeof(*x))))
					return -ENOMEM;
				*x = *me;
				x->period = x->nr = x->acc = 0;
				memset(x->mode_period, 0, sizeof(x->mode_period));	/* a dummy: none of the member's */
				x->cc = NULL;
				x->pair = NULL;
				if (insert(hl, b, x) || !(x->pair = calloc(nm, sizeof(*x->pair))))
					return -ENOMEM;
				x->pair[0] = x;
				if (H->chains)
					rb_insert(&hl->in_root, &x->in, parent, link);
			}
			x->pair[m] = me;
		}
	}
	if (H->chains)
		v_from_tree(hl);
	return 0;
}

/*
 * The groups, as perf sets them up once the events are known: the
 * file's (GROUP_DESC); without any, when --group or --no-group was given,
 * every event in the first one's (perf's forced leader).  In the group
 * view each group with members is linked into its leader's histogram.
 */
static int setup_groups(struct hist *H)
{
	size_t n = pdata__nr_evsel(H->p) > H->nr ? pdata__nr_evsel(H->p) : H->nr;
	size_t ng = pdata__nr_groups(H->p);
	int err;

	if (!n)
		return 0;
	if (!hists_of(H, (int)n - 1) || !(H->lead = calloc(n, sizeof(*H->lead))) ||
	    !(H->nmemb = calloc(n, sizeof(*H->nmemb))) || !(H->gname = calloc(n, sizeof(*H->gname))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		H->lead[i] = i;
		H->nmemb[i] = 1;
	}
	for (size_t g = 0; g < ng; g++) {
		const struct pd_group_desc *d = pdata__group(H->p, g);

		for (size_t m = 0; m < d->nr_members && d->leader + m < n; m++)
			H->lead[d->leader + m] = d->leader;
		H->nmemb[d->leader] = d->nr_members;
		H->gname[d->leader] = d->name;
	}
	if (!ng && H->o->group_set) {
		H->forced = true;
		for (size_t i = 0; i < n; i++)
			H->lead[i] = 0;
		H->nmemb[0] = n;
	}
	H->group_view = !H->o->no_group;
	for (size_t l = 0; H->group_view && l < n; l++)
		if (H->lead[l] == l && H->nmemb[l] > 1 && (err = link_group(H, l)))
			return err;
	return 0;
}

/* The members a histogram shows: its group's in the group view, else itself. */
static size_t shown_members(const struct hist *H, size_t i)
{
	return H->group_view && H->nmemb ? H->nmemb[i] : 1;
}

/* perf's name of a group: "anon group { a, b }" (the group's name for anon), or "a, b" when forced. */
static void group_desc(struct out *out, const struct hist *H, size_t l, bool json)
{
	char buf[4096];
	size_t len = 0;

	if (!H->forced)
		len += (size_t)snprintf(buf, sizeof(buf), "%s { ", H->gname[l] ? H->gname[l] : "anon group");
	for (size_t m = 0; m < H->nmemb[l] && len < sizeof(buf); m++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", m ? ", " : "",
					pdata__evsel(H->p, l + m) ? pdata__evsel(H->p, l + m)->name : "");
	if (!H->forced && len < sizeof(buf))
		snprintf(buf + len, sizeof(buf) - len, " }");
	if (json)
		out_json_str(out, buf);
	else
		out_str(out, buf);
}

/* An entry as the report's callers see it. */
static void entry_of(const struct hent *h, struct report_entry *r)
{
	*r = (struct report_entry){
		.comm = h->comm, .thread_comm = h->last_comm ? h->last_comm : h->comm, .tid = h->tid, .cpu = h->cpu,
		.socket = h->socket,
		.dso = h->dso, .sym = h->sym, .sym_start = h->sym_start, .sym_end = h->sym_end, .addr = h->addr,
		.level = h->level, .inlined = h->inlined, .object = h->object,
		.object_off = (h->module_addr ? h->module_addr : h->addr) - h->sym_start,
		.filtered = h->filtered, .period = h->period, .samples = h->nr,
	};
}

static double share(const struct hists *hs, uint64_t period)
{
	return hs->pct_total ? 100.0 * (double)period / (double)hs->pct_total : 0.0;
}

/* Each event's pct_total and pct_samples, once the filters are final. */
static void percent_base(struct hist *H)
{
	for (size_t i = 0; i < H->nr; i++) {
		struct hists *hs = &H->h[i];

		hs->pct_total = hs->total_period;
		hs->pct_samples = hs->nr_samples;
		if (!H->o->relative)
			continue;
		hs->pct_total = hs->pct_samples = 0;
		for (size_t e = 0; e < hs->n; e++)
			if (!hs->v[e]->filtered) {
				hs->pct_total += hs->v[e]->period;
				hs->pct_samples += hs->v[e]->nr;
			}
	}
}

/*
 * Choose and order each entry's chains for the print mode.  perf's
 * threshold is a share of the event's total (min_callchain_hits), or, in
 * fractal mode, of each parent.
 */
static int sort_chains(struct hist *H, struct hists *hs)
{
	const struct report_hist_opts *o = H->o;
	uint64_t min_hit = (uint64_t)((double)hs->pct_total * (o->cc_min_percent / 100.0));

	if (!H->show)
		return 0;
	for (size_t e = 0; e < hs->n; e++)
		if (hs->v[e]->cc && cc_tree_sort(hs->v[e]->cc, o->cc_mode, min_hit, o->cc_min_percent))
			return -ENOMEM;
	return 0;
}

/*
 * Member m's value of entry h in value column v, perf's hpp cell (each
 * value is one column's width, the header spans them); ms is that
 * member's histogram (its total).
 */
static void print_value(struct out *out, const struct hist *H, const struct hists *ms, const struct hent *h, size_t m,
			enum report_value v)
{
	int w = fields_value_len(v);

	if (v == REPORT_VALUE_SAMPLE || v == REPORT_VALUE_PERIOD)
		out_printf(out, " %*" PRIu64, w - 1, gval(h, m, value_gfield(v)));
	else if (v == REPORT_VALUE_OVERHEAD_CHILDREN && !H->children)
		out_printf(out, " %*s", w - 1, "N/A");
	else
		out_printf(out, " %*.2f%%", w - 2, share(ms, gval(h, m, value_gfield(v))));
}

/* ---- the browser's document (report__hist_doc): where print_text's parts begin ---- */

static size_t doc_off(struct out *out)
{
	off_t off;

	out_flush(out);
	off = ftello(out->f);
	return off < 0 ? 0 : (size_t)off;
}

/* A histogram begins (shown: print_text prints it, from here). */
static void doc_section(struct hist *H, struct out *out, size_t i, bool shown)
{
	struct report_hist_doc *d = H->doc;
	struct report_hist_section *sec;
	uint64_t samples = 0;

	if (!d || H->doc_err || (H->doc_err = ALLOC_GROW(d->sec, d->nr_sec + 1, H->sec_cap)))
		return;
	for (size_t m = 0; m < shown_members(H, i); m++)
		samples += H->h[i + m].nr_samples;
	sec = &d->sec[d->nr_sec++];
	*sec = (struct report_hist_section){
		.ev = i, .name = pdata__evsel(H->p, i) ? pdata__evsel(H->p, i)->name : "", .samples = samples,
		.lost = H->h[i].lost, .shown = shown, .first_row = d->nr_rows,
	};
	if (shown)
		sec->head = sec->cols = doc_off(out);
}

enum doc_mark { DOC_HEAD_END, DOC_COLS, DOC_COLS_END };

/* The end of the header lines, the column line's beginning or its end. */
static void doc_mark(struct hist *H, struct out *out, enum doc_mark what)
{
	struct report_hist_section *sec;
	size_t off;

	if (!H->doc || H->doc_err || !H->doc->nr_sec)
		return;
	sec = &H->doc->sec[H->doc->nr_sec - 1];
	off = doc_off(out);
	if (what == DOC_HEAD_END)
		sec->head_len = off - sec->head - 1;	/* without the last '\n' */
	else if (what == DOC_COLS)
		sec->cols = off;
	else
		sec->cols_len = off - sec->cols - 1;
}

/* An entry's line begins (chain false), or its chain lines (true). */
static void doc_row(struct hist *H, struct out *out, const struct hent *h, bool chain)
{
	struct report_hist_doc *d = H->doc;
	struct report_hist_row *r;

	if (!d || H->doc_err)
		return;
	if (chain) {
		r = &d->row[d->nr_rows - 1];
		r->line_len = doc_off(out) - r->line - 1;
		r->chain = r->line + r->line_len + 1;
		return;
	}
	if ((H->doc_err = ALLOC_GROW(d->row, d->nr_rows + 1, H->row_cap)))
		return;
	r = &d->row[d->nr_rows++];
	memset(r, 0, sizeof(*r));
	r->line = doc_off(out);
	entry_of(h, &r->e);
	d->sec[d->nr_sec - 1].nr_rows++;
}

/* The end of the current entry's chain lines. */
static void doc_row_end(struct hist *H, struct out *out)
{
	struct report_hist_row *r;

	if (!H->doc || H->doc_err)
		return;
	r = &H->doc->row[H->doc->nr_rows - 1];
	r->chain_len = doc_off(out) - r->chain;
}

/* The text view's columns, left to right: perf's output fields (fields.h), but the keys it elides. */
struct text_cols {
	struct report_field col[FIELDS_MAX];
	int width[FIELDS_MAX];		/* a key's, of the section being printed */
	int n;
};

/*
 * A key of one value in every entry is said once above the table, not as
 * a column (perf's elision); unless every key column would go.
 */
static void text_columns(const struct hist *H, struct out *out, struct text_cols *t)
{
	struct field_lists l;
	bool elide[FIELDS_MAX] = { false }, all = true;

	fields_setup(H->o, H->children, &l);
	for (int i = 0; i < l.out.n; i++) {
		const char *v;

		if (l.out.f[i].value)
			continue;
		v = sort_key_single_value((enum report_key)l.out.f[i].id, H->o);
		if (v)
			out_printf(out, "# %s: %s\n", sort_key((enum report_key)l.out.f[i].id)->name, v);
		elide[i] = v != NULL;
		all &= elide[i];
	}
	t->n = 0;
	for (int i = 0; i < l.out.n; i++)
		if (all || !elide[i] || H->o->hierarchy)	/* perf's tree keeps every level */
			t->col[t->n++] = l.out.f[i];
}

/* The keys perf compares before the trace key, for trace_width: entries a and b in collapse order of those. */
struct trace_prefix {
	const struct hist *H;
	int n;
};

static int trace_prefix_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct hent *a = *(const struct hent *const *)pa, *b = *(const struct hent *const *)pb;
	const struct trace_prefix *tp = ctx;
	int c;

	for (int i = 0; i < tp->n; i++)
		if ((c = sort_key(tp->H->keys[i])->collapse(&a->k, &b->k)))
			return c;
	return 0;
}

/*
 * The trace column's width, as perf 6.1 has it: it makes an entry's trace
 * output only when it compares the entry with another on the trace key,
 * which its input tree does where two samples have the same values of the
 * keys compared before it (every sample, with trace first), and the
 * Children view for every sample with a chain (its check of the chain's
 * entries against the sample's); the others do not widen the column
 * (and their cells are cut to it).  Not counted: a tie in the output
 * order on the overhead and those keys' sort alone.
 */
static int trace_width(const struct hist *H, const struct hists *hs)
{
	struct trace_prefix tp = { .H = H };
	struct hent **v;
	size_t w = strlen(sort_key(REPORT_KEY_TRACE)->header);

	while (tp.n < H->nr_keys && H->keys[tp.n] != REPORT_KEY_TRACE)
		tp.n++;
	if (!hs->n || !(v = malloc(hs->n * sizeof(*v))))
		return (int)w;
	memcpy(v, hs->v, hs->n * sizeof(*v));
	qsort_r(v, hs->n, sizeof(*v), trace_prefix_cmp, &tp);
	for (size_t a = 0, b; a < hs->n; a = b) {
		uint64_t nr = v[a]->nr;

		for (b = a + 1; b < hs->n && !trace_prefix_cmp(&v[a], &v[b], &tp); b++)
			nr += v[b]->nr;
		for (size_t e = a; (nr > 1 || H->children) && e < b; e++)
			if (!v[e]->filtered && sort_key(REPORT_KEY_TRACE)->width(&v[e]->k) > w)
				w = sort_key(REPORT_KEY_TRACE)->width(&v[e]->k);
	}
	free(v);
	return (int)w;
}

/* Columns fit every shown entry, including those --percent-limit hides. */
static void text_widths(const struct hist *H, const struct hists *hs, struct text_cols *t)
{
	bool unresolved = false;

	for (int c = 0; c < t->n; c++)
		if (!t->col[c].value)
			t->width[c] = (int)strlen(sort_key((enum report_key)t->col[c].id)->header);
	for (size_t e = 0; e < hs->n; e++) {
		if (hs->v[e]->filtered)
			continue;
		unresolved |= !hs->v[e]->sym;
		for (int c = 0; c < t->n; c++) {
			int w;

			if (t->col[c].value)
				continue;
			w = (int)sort_key((enum report_key)t->col[c].id)->width(&hs->v[e]->k);
			if (w > t->width[c])
				t->width[c] = w;
		}
	}
	for (int c = 0; c < t->n; c++)
		if (!t->col[c].value && t->col[c].id == REPORT_KEY_TRACE)
			t->width[c] = trace_width(H, hs);
	/* An unresolved symbol prints as 16 hex digits: perf widens the dso column to match. */
	for (int c = 0; c < t->n; c++)
		if (!t->col[c].value && t->col[c].id == REPORT_KEY_DSO && unresolved && !H->o->dso && t->width[c] < 16)
			t->width[c] = 16;
}

/* A value column's width: a value per member, at least its header's. */
static int value_width(const struct hist *H, size_t nm, enum report_value v)
{
	int w = (int)nm * fields_value_len(v), hl = (int)strlen(fields_value_header(v, H->o, H->children));

	return w > hl ? w : hl;
}

/* The line naming the columns, then its dots. */
static void text_titles(const struct hist *H, struct out *out, size_t nm, const struct text_cols *t)
{
	for (int c = 0; c < t->n; c++) {
		enum report_value v = (enum report_value)t->col[c].id;

		if (t->col[c].value)
			out_printf(out, "%s%*s", c ? "  " : "# ", value_width(H, nm, v), fields_value_header(v, H->o, H->children));
		else
			out_printf(out, "%s%-*.*s", c ? "  " : "# ", t->width[c], t->width[c],
				   sort_key((enum report_key)t->col[c].id)->header);
	}
	out_char(out, '\n');
}

static void text_dots(const struct hist *H, struct out *out, size_t nm, const struct text_cols *t)
{
	for (int c = 0; c < t->n; c++)
		out_dots(out, c ? "  " : "# ", t->col[c].value ? (size_t)value_width(H, nm, (enum report_value)t->col[c].id)
							     : (size_t)t->width[c]);
	out_str(out, "\n#\n");
}

/* The output order's comparisons, once the view (Children or not) is known. */
static void sort_setup(struct hist *H)
{
	struct field_lists l;

	fields_setup(H->o, H->children, &l);
	H->sorted = l.sort;
}

static void hier_head(const struct hist *H, struct out *out, size_t nm, const struct text_cols *t);

/* One event's (or group's) header lines: samples, event count, the column titles. */
static void text_head(struct hist *H, struct out *out, size_t i, size_t nm, const struct text_cols *t)
{
	const struct report_hist_opts *o = H->o;
	uint64_t nr_samples = 0, nr_events = 0;

	/* A group's header counts every member's samples and periods. */
	for (size_t m = 0; m < nm; m++) {
		nr_samples += H->h[i + m].pct_samples;
		nr_events += H->h[i + m].pct_total;
	}
	out_str(out, "# Samples: ");
	out_samples_abbrev(out, nr_samples);
	/* "events" for a leader of members, even when they are shown apart (--no-group), as perf */
	out_printf(out, " of event%s '", H->nmemb && H->lead[i] == i && H->nmemb[i] > 1 ? "s" : "");
	if (nm > 1)
		group_desc(out, H, i, false);
	else
		out_str(out, pdata__evsel(H->p, i)->name);
	out_char(out, '\'');
	if (o->filter.time)	/* perf's, whatever the form */
		out_printf(out, " (time slices: %s)", o->filter.time);
	if (o->mem_mode)	/* perf's memory mode: its total of weights, and the --sort text */
		out_printf(out, "\n# Total weight : %" PRIu64 "\n# Sort order   : %s%s\n", nr_events,
			   o->mem_sort ? o->mem_sort : REPORT_MEM_SORT_ORDER, o->mem_sort && o->sort_symbol ? ",ipc_null" : "");
	else
		out_printf(out, "\n# Event count (approx.): %" PRIu64 "\n", nr_events);
	doc_mark(H, out, DOC_HEAD_END);
	out_str(out, "#\n");
	doc_mark(H, out, DOC_COLS);
	if (o->hierarchy) {
		hier_head(H, out, nm, t);
		return;
	}
	text_titles(H, out, nm, t);
	doc_mark(H, out, DOC_COLS_END);
	text_dots(H, out, nm, t);
}

/* One event's (or group's) rows, each with its call chains. */
static void text_rows(struct hist *H, struct out *out, size_t i, size_t nm, const struct text_cols *t,
		      const struct cc_print *pp)
{
	const struct hists *hs = &H->h[i];

	for (size_t e = 0; e < hs->n; e++) {
		const struct hent *h = hs->v[e];
		double pct = share(hs, h->period), acc = share(hs, h->acc);

		/* perf's --percent-limit looks at the Children share when there is one. */
		if (h->filtered || (float)(H->children ? acc : pct) < (float)H->o->percent_limit)
			continue;
		doc_row(H, out, h, false);
		for (int c = 0; c < t->n; c++) {
			out_str(out, "  ");
			if (!t->col[c].value)
				sort_key((enum report_key)t->col[c].id)->print(out, &h->k, t->width[c], c + 1 == t->n, NULL);
			for (size_t m = 0; t->col[c].value && m < nm; m++)
				print_value(out, H, &H->h[i + m], h, m, (enum report_value)t->col[c].id);
		}
		out_char(out, '\n');
		doc_row(H, out, h, true);
		if (h->cc && H->show)
			cc_tree_print(out, h->cc, pp, hs->total_period, H->children ? h->acc : h->period);
		doc_row_end(H, out);
	}
}

/* ---- --hierarchy: perf's tree of the key columns, a level each, for --stdio ---- */

#define HIER_INDENT 3	/* perf's HIERARCHY_INDENT */

/* The header's key titles, " / "-joined (each trimmed, as perf's strim), and their length. */
static size_t hier_title(struct out *out, const struct text_cols *t)
{
	size_t len = 0;
	bool first = true;

	for (int c = 0; c < t->n; c++) {
		const char *h = sort_key((enum report_key)t->col[c].id)->header;
		size_t n;

		if (t->col[c].value)
			continue;
		if (!first) {
			out_str(out, " / ");
			len += 3;
		}
		first = false;
		while (*h == ' ')
			h++;
		for (n = strlen(h); n && h[n - 1] == ' '; n--)
			;
		out_mem(out, h, n);
		len += n;
	}
	return len;
}

static int hier_levels(const struct text_cols *t)
{
	int n = 0;

	for (int c = 0; c < t->n; c++)
		n += !t->col[c].value;
	return n;
}

/* perf's print_hierarchy_header: the titles after the deepest level's indent, then the dots. */
static void hier_head(const struct hist *H, struct out *out, size_t nm, const struct text_cols *t)
{
	int indent = (hier_levels(t) - 1) * HIER_INDENT, depth = 0;
	size_t title, dots = 0;
	bool first = true;

	out_printf(out, "# %*s", indent > 0 ? indent : 0, "");
	for (int c = 0; c < t->n; c++)
		if (t->col[c].value)
			out_printf(out, "%*s  ", value_width(H, nm, (enum report_value)t->col[c].id),
				   fields_value_header((enum report_value)t->col[c].id, H->o, H->children));
	title = hier_title(out, t);
	out_str(out, "\n# ");
	for (int i = 0; i < indent; i++)
		out_char(out, '.');
	for (int c = 0; c < t->n; c++) {
		if (!t->col[c].value) {
			if ((size_t)(depth * HIER_INDENT + t->width[c]) > dots)
				dots = (size_t)(depth * HIER_INDENT + t->width[c]);
			depth++;
			continue;
		}
		out_dots(out, first ? "" : "..", (size_t)value_width(H, nm, (enum report_value)t->col[c].id));
		first = false;
	}
	out_dots(out, "  ", title > dots ? title : dots);
	out_str(out, "\n#\n");
}

/*
 * A leaf of the tree (a histogram's entry), its place in the output order,
 * its place in perf's input order (which makes the nodes) and the filters
 * that hide it (HF_*).
 */
struct hleaf {
	struct hent *h;
	size_t idx, rank;
	unsigned bits;
};

/*
 * perf's filters in its tree (its hist_entry__check_and_remove_filter):
 * a node of a level of the filter's key (a command's or thread's, a
 * DSO's, a symbol's) is hidden as its first sample was, and shows its
 * levels above; another level's node is hidden at the top, else as its
 * first sample was or as the node above it was when it was made.  -x's
 * is the first sample's at every level.
 */
enum { HF_THREAD = 1, HF_DSO = 2, HF_SYM = 4, HF_PARENT = 8 };
#define HF_KEYED 3	/* the filters a level of their key takes as they are */

/* A node of one level: its leaves, and its values summed, one hent per member (sum[0] the node's). */
struct hgroup {
	struct hleaf *leaf;
	size_t n, idx;
	struct hent *sum;
	struct hgroup *kid;		/* the level below's nodes, in perf's output order */
	size_t nkid;
	struct hleaf first;		/* the leaf that made it, in perf's input order */
	unsigned init, bits;		/* the filters hiding it (HF_*): when made, at the end */
	size_t clear[HF_KEYED];		/* when a node below first showed it (its first's rank), SIZE_MAX never */
};

struct hier {
	struct hist *H;
	struct out *out;
	size_t i, nm;			/* the histogram's (its leader's) event, its members */
	const struct text_cols *t;
	int col[FIELDS_MAX];		/* each level's column in t */
	int nlevels;
	const struct cc_print *pp;
	enum report_key key;		/* the level being sorted */
};

static int hleaf_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct hleaf *a = pa, *b = pb;
	const struct hier *X = ctx;
	int c = sort_key(X->key)->collapse(&a->h->k, &b->h->k);

	return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

/* perf's output order of a level's nodes (its sort list, on each node's first entry's keys), ties as collapsed. */
static int hgroup_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct hgroup *a = pa, *b = pb;
	const struct hier *X = ctx;
	const struct hent *sa = a->sum, *sb = b->sum;
	int c = out_cmp(&sa, &sb, X->H);

	return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

/* g's values: its leaves', member by member (a group's leader links its members' entries). */
static int hgroup_sum(const struct hier *X, struct hgroup *g)
{
	if (!(g->sum = calloc(X->nm, sizeof(*g->sum) + sizeof(struct hent *))))
		return -ENOMEM;
	g->sum[0] = *g->leaf[0].h;
	g->sum[0].pair = X->nm > 1 ? (struct hent **)(g->sum + X->nm) : NULL;
	for (size_t m = 0; m < X->nm; m++) {
		struct hent *s = &g->sum[m];

		if (m)
			*s = g->sum[0];
		s->period = s->nr = s->acc = 0;
		memset(s->mode_period, 0, sizeof(s->mode_period));
		s->cc = NULL;
		if (g->sum[0].pair)
			g->sum[0].pair[m] = s;
		for (size_t l = 0; l < g->n; l++) {
			const struct hent *x = g->leaf[l].h->pair ? g->leaf[l].h->pair[m] : m ? NULL : g->leaf[l].h;

			if (!x)
				continue;
			s->period += x->period;
			s->nr += x->nr;
			s->acc += x->acc;
			mode_period_add(s, x);
		}
	}
	g->sum[0].pair = X->nm > 1 ? g->sum[0].pair : NULL;
	return 0;
}

/* One node's line: its indent, its values, the deepest indent, its key's cell without leading blanks. */
static void hier_row(const struct hier *X, const struct hgroup *g, int level)
{
	const struct text_cols *t = X->t;
	struct out *out = X->out;
	int c = X->col[level];
	size_t start, skip = 0;

	out_printf(out, "%*s", level * HIER_INDENT, "");
	for (int v = 0; v < t->n; v++) {
		if (!t->col[v].value)
			continue;
		out_str(out, "  ");
		for (size_t m = 0; m < X->nm; m++)
			print_value(out, X->H, &X->H->h[X->i + m], g->sum, m, (enum report_value)t->col[v].id);
	}
	out_printf(out, "%*s  ", (X->nlevels - 1) * HIER_INDENT, "");
	out_flush(out);
	start = out->len;
	sort_key((enum report_key)t->col[c].id)->print(out, &g->sum->k, t->width[c], true, NULL);
	while (start + skip < out->len && out->buf[start + skip] == ' ')
		skip++;
	memmove(out->buf + start, out->buf + start + skip, out->len - start - skip);
	out->len -= skip;
	out_char(out, '\n');
}

/* perf's line under a node whose nodes below --percent-limit hides, all of them. */
static void hier_no_entry(const struct hier *X, int level)
{
	int width = 0, nv = 0;

	for (int c = 0; c < X->t->n; c++)
		if (X->t->col[c].value)
			width += (nv++ ? 2 : 0) + value_width(X->H, X->nm, (enum report_value)X->t->col[c].id);
	out_printf(X->out, "%*s%*sno entry >= %.2f%%\n", (X->nlevels + level) * HIER_INDENT, "", width + 4, "",
		   X->H->o->percent_limit);
}

/* The filters (HF_*) o gives the tree. */
static unsigned hier_filters(const struct report_hist_opts *o)
{
	return (o->comm || o->pid || o->tid ? HF_THREAD : 0) | (o->dso ? HF_DSO : 0) | (o->sym ? HF_SYM : 0) |
	       (o->exclude_other ? HF_PARENT : 0);
}

/* The filters that hide entry h, each apart (filtered() says whether any does). */
static unsigned hleaf_bits(struct hist *H, const struct hent *h)
{
	const struct report_hist_opts *o = H->o;
	char kname[256];
	const char *dso_long = h->dso ? dso_long_name(H, h->dso, true, kname, sizeof(kname)) : NULL;
	unsigned b = 0;

	if ((o->comm && !sfilter_listed(o->comm, h->comm)) || (o->pid && !sfilter_listed_id(o->pid, h->pid)) ||
	    (o->tid && !sfilter_listed_id(o->tid, h->tid)))
		b |= HF_THREAD;
	if (o->dso && !dso_listed(H, h->dso, dso_long))
		b |= HF_DSO;
	if (o->sym && !(h->sym && sfilter_listed(o->sym, h->sym)))
		b |= HF_SYM;
	if (o->exclude_other && !h->parent)
		b |= HF_PARENT;
	return b;
}

/* The filter a level's key takes as it is (perf's check_thread_entry, dso and sym entries), or 0. */
static unsigned level_filter(const struct hier *X, int level)
{
	switch ((enum report_key)X->t->col[X->col[level]].id) {
	case REPORT_KEY_COMM: case REPORT_KEY_PID: return HF_THREAD;
	case REPORT_KEY_DSO: return HF_DSO;
	case REPORT_KEY_SYM: return HF_SYM;
	default: return 0;
	}
}

/* The nodes leaf[0..n) make at level, in perf's output order, each with the levels below. */
static int hier_build(struct hier *X, struct hleaf *leaf, size_t n, int level, struct hgroup **pg, size_t *png)
{
	struct hgroup *g = calloc(n ? n : 1, sizeof(*g));
	size_t ng = 0;
	int err = 0;

	if (!(*pg = g))
		return -ENOMEM;
	X->key = (enum report_key)X->t->col[X->col[level]].id;
	qsort_r(leaf, n, sizeof(*leaf), hleaf_cmp, X);
	for (size_t l = 0; l < n; l++) {
		if (!ng || sort_key(X->key)->collapse(&g[ng - 1].leaf[0].h->k, &leaf[l].h->k)) {
			g[ng] = (struct hgroup){ .leaf = &leaf[l], .idx = ng, .first = leaf[l] };
			ng++;
		}
		if (leaf[l].rank < g[ng - 1].first.rank)
			g[ng - 1].first = leaf[l];
		g[ng - 1].n++;
	}
	*png = ng;
	for (size_t k = 0; k < ng && !err; k++) {
		err = hgroup_sum(X, &g[k]);
		if (!err && level + 1 < X->nlevels)
			err = hier_build(X, g[k].leaf, g[k].n, level + 1, &g[k].kid, &g[k].nkid);
	}
	if (!err)
		qsort_r(g, ng, sizeof(*g), hgroup_cmp, X);
	return err;
}
static void hier_free(struct hgroup *g, size_t ng)
{
	for (size_t k = 0; g && k < ng; k++) {
		hier_free(g[k].kid, g[k].nkid);
		free(g[k].sum);
	}
	free(g);
}

/* When the nodes below g first showed it, filter by filter: perf's clearing of the levels above. */
static void hier_clear(const struct hier *X, struct hgroup *g, int level)
{
	unsigned below = level + 1 < X->nlevels ? level_filter(X, level + 1) : 0;

	for (int f = 0; f < HF_KEYED; f++)
		g->clear[f] = SIZE_MAX;
	for (size_t k = 0; k < g->nkid; k++) {
		struct hgroup *c = &g->kid[k];

		hier_clear(X, c, level + 1);
		for (int f = 0; f < HF_KEYED; f++) {
			if (c->clear[f] < g->clear[f])
				g->clear[f] = c->clear[f];
			if ((below & (1u << f)) && !(c->first.bits & (1u << f)) && c->first.rank < g->clear[f])
				g->clear[f] = c->first.rank;
		}
	}
}

/* g's filters when made and at the end, under up (NULL at the top), and its nodes'. */
static void hier_bits(const struct hier *X, struct hgroup *g, int level, const struct hgroup *up)
{
	unsigned keyed = level_filter(X, level), on = hier_filters(X->H->o);

	g->init = g->first.bits & HF_PARENT;
	for (int f = 0; f < HF_KEYED; f++) {
		unsigned b = 1u << f;

		if (!(on & b))
			continue;
		if ((keyed & b) || (up && !(up->init & b)) || (up && up->clear[f] < g->first.rank))
			g->init |= g->first.bits & b;	/* its own; or below a node shown when it was made */
		else
			g->init |= b;			/* at the top, or below a hidden node */
		if ((g->init & b) && g->clear[f] == SIZE_MAX)
			g->bits |= b;
	}
	g->bits |= g->init & HF_PARENT;
	for (size_t k = 0; k < g->nkid; k++)
		hier_bits(X, &g->kid[k], level + 1, g);
}

static bool hier_shown(const struct hier *X, const struct hgroup *g)
{
	return !g->bits && !((float)share(&X->H->h[X->i], g->sum->period) < (float)X->H->o->percent_limit);
}

/* perf's hierarchy_has_children: the first node below not filtered is over --percent-limit. */
static bool hier_has_kids(const struct hier *X, const struct hgroup *g)
{
	for (size_t k = 0; k < g->nkid; k++)
		if (!g->kid[k].bits)
			return hier_shown(X, &g->kid[k]);
	return false;
}

/* The nodes g[0..ng) at level and below, as perf walks them (into a hidden node's too). */
static void hier_show(struct hier *X, const struct hgroup *g, size_t ng, int level)
{
	const struct hists *hs = &X->H->h[X->i];

	for (size_t k = 0; k < ng; k++) {
		const struct hent *lead = g[k].leaf[0].h;

		if (hier_shown(X, &g[k])) {
			hier_row(X, &g[k], level);
			if (level + 1 < X->nlevels && !hier_has_kids(X, &g[k]))
				hier_no_entry(X, level);
			else if (level + 1 == X->nlevels && lead->cc && X->H->show)	/* perf's hists__total_period */
				cc_tree_print(X->out, lead->cc, X->pp, hs->pct_total, lead->period);
		}
		hier_show(X, g[k].kid, g[k].nkid, level + 1);
	}
}

static int hleaf_rank_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct hleaf *a = *(const struct hleaf *const *)pa, *b = *(const struct hleaf *const *)pb;
	int64_t c = perf_cmp(ctx, b->h, a->h);

	return c ? (c < 0 ? -1 : 1) : (a->idx > b->idx) - (a->idx < b->idx);
}

/*
 * The event's tree: its entries (with the filters, all of them, since a
 * node counts every sample under it), their ranks in perf's input order,
 * and the nodes with their filters.  *pleaf to free after the nodes.
 */
static int hier_tree(struct hier *X, struct hleaf **pleaf, struct hgroup **pg, size_t *png)
{
	const struct hists *hs = &X->H->h[X->i];
	bool all = hier_filters(X->H->o) != 0;
	struct hleaf *leaf = calloc(hs->n ? hs->n : 1, sizeof(*leaf)), **by = NULL;
	size_t n = 0;
	int err = 0;

	*pleaf = leaf;
	*pg = NULL;
	*png = 0;
	for (int c = 0; c < X->t->n; c++)
		if (!X->t->col[c].value)
			X->col[X->nlevels++] = c;
	if (!leaf || !(by = calloc(hs->n ? hs->n : 1, sizeof(*by)))) {
		free(by);
		return -ENOMEM;
	}
	for (size_t e = 0; e < hs->n; e++)
		if (all || !hs->v[e]->filtered)
			leaf[n++] = (struct hleaf){ .h = hs->v[e], .idx = e, .bits = all ? hleaf_bits(X->H, hs->v[e]) : 0 };
	for (size_t l = 0; l < n; l++)
		by[l] = &leaf[l];
	qsort_r(by, n, sizeof(*by), hleaf_rank_cmp, X->H);
	for (size_t l = 0; l < n; l++)
		by[l]->rank = l;
	free(by);
	if (X->nlevels && n && !(err = hier_build(X, leaf, n, 0, pg, png)))
		for (size_t k = 0; k < *png; k++) {
			hier_clear(X, &(*pg)[k], 0);
			hier_bits(X, &(*pg)[k], 0, NULL);
		}
	return err;
}

static void hier_widen(const struct hgroup *g, size_t ng, struct text_cols *t, bool *unresolved)
{
	for (size_t k = 0; k < ng; k++) {
		for (int c = 0; !g[k].bits && c < t->n; c++) {
			int w;

			if (t->col[c].value || t->col[c].id == REPORT_KEY_TRACE)
				continue;
			w = (int)sort_key((enum report_key)t->col[c].id)->width(&g[k].first.h->k);
			if (w > t->width[c])
				t->width[c] = w;
		}
		*unresolved |= !g[k].bits && !g[k].first.h->sym;
		hier_widen(g[k].kid, g[k].nkid, t, unresolved);
	}
}

/*
 * With --percentage relative, what shares are of in perf's tree: the
 * periods of the top nodes the filters show, every sample under them.
 */
static void hier_relative(struct hist *H, size_t i, size_t nm, const struct hgroup *g, size_t ng)
{
	for (size_t m = 0; H->o->relative && m < nm; m++) {
		H->h[i + m].pct_total = 0;
		for (size_t k = 0; k < ng; k++)
			if (!g[k].bits)
				H->h[i + m].pct_total += g[k].sum[m].period;
	}
}

/*
 * With filters, the columns' widths in perf's tree: those of the keys of
 * every node it shows, each node a copy of its first entry, all its keys
 * (a command's node can widen the DSO column with its first sample's);
 * and hier_relative's totals.
 */
static int hier_prepare(struct hist *H, size_t i, size_t nm, struct text_cols *t)
{
	struct hier X = { .H = H, .i = i, .nm = nm, .t = t };
	struct hleaf *leaf;
	struct hgroup *g;
	size_t ng;
	bool unresolved = false;
	int err;

	if (!hier_filters(H->o))
		return 0;
	if (!(err = hier_tree(&X, &leaf, &g, &ng))) {
		for (int c = 0; c < t->n; c++)
			if (!t->col[c].value && t->col[c].id != REPORT_KEY_TRACE)
				t->width[c] = (int)strlen(sort_key((enum report_key)t->col[c].id)->header);
		hier_widen(g, ng, t, &unresolved);
		hier_relative(H, i, nm, g, ng);
		for (int c = 0; c < t->n; c++)
			if (!t->col[c].value && t->col[c].id == REPORT_KEY_DSO && unresolved && !H->o->dso && t->width[c] < 16)
				t->width[c] = 16;
	}
	hier_free(g, ng);
	free(leaf);
	return err;
}

/* One event's (or group's) rows as perf's --hierarchy tree. */
static int hier_rows(struct hist *H, struct out *out, size_t i, size_t nm, const struct text_cols *t,
		     const struct cc_print *pp)
{
	struct hier X = { .H = H, .out = out, .i = i, .nm = nm, .t = t, .pp = pp };
	struct hleaf *leaf;
	struct hgroup *g;
	size_t ng;
	int err = hier_tree(&X, &leaf, &g, &ng);

	if (!err)
		hier_show(&X, g, ng, 0);
	hier_free(g, ng);
	free(leaf);
	return err;
}

/* The --sort text begins with a symbol key (not a value key). */
static bool sort_starts_sym(const struct report_hist_opts *o)
{
	if (!o->nr_keys || (o->nr_sort_values && !o->sort_values[0].at))
		return false;
	return o->keys[0] == REPORT_KEY_SYM || o->keys[0] == REPORT_KEY_SYM_SIZE;
}

static int print_text(struct hist *H, struct out *out)
{
	const struct report_hist_opts *o = H->o;
	struct text_cols t;
	size_t printed = 0;
	struct cc_print pp = {
		.mode = o->cc_mode, .value = o->cc_value, .print_limit = o->cc_print_limit,
		/* perf leaves out the first frame of a single root when the sort starts with sym, without -F */
		.skip_first = o->sort_given && !o->nr_fields && sort_starts_sym(o),
	};

	if (!o->after_header && !o->quiet)
		out_str(out, "# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	if (!H->total_samples) {
		mperf_log(MPERF_LOG_WARN, "the file has no samples");
		return 0;
	}
	text_columns(H, out, &t);
	sort_setup(H);
	if (!o->quiet)
		out_printf(out, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", H->total_lost);
	for (size_t i = 0; i < H->nr; i++) {
		struct hists *hs = &H->h[i];
		size_t nm = shown_members(H, i);

		if (H->group_view && H->lead && H->lead[i] != i)
			continue;	/* shown in its leader's */
		if (!hs->nr_samples) {
			doc_section(H, out, i, false);
			continue;	/* like perf (report.skip-empty) */
		}
		H->sort_nm = nm;
		/* the chains of entries the collapse merged are sorted whole */
		if (order_entries(H, hs) || sort_chains(H, hs))
			return mperf_error(-ENOMEM, "out of memory");
		text_widths(H, hs, &t);
		if (o->hierarchy && hier_prepare(H, i, nm, &t))
			return mperf_error(-ENOMEM, "out of memory");
		if (printed++)
			out_str(out, "\n\n");
		doc_section(H, out, i, true);
		if (!o->quiet)	/* perf -q: the rows alone */
			text_head(H, out, i, nm, &t);
		if (!o->hierarchy)
			text_rows(H, out, i, nm, &t, &pp);
		else if (hier_rows(H, out, i, nm, &t, &pp))
			return mperf_error(-ENOMEM, "out of memory");
	}
	/* Nothing shown when every sample is a group's whose leader has none (perf skips it whole). */
	if (o->quiet)
		out_str(out, printed ? "\n\n" : "");
	else
		out_str(out, printed ? "\n\n#\n# (Tip: mperf report -D shows every record, perf's way)\n#\n" :
			     "#\n# (Tip: mperf report -D shows every record, perf's way)\n#\n");
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

	out_str(out, "{\n  ");
	out_json_head(out, "report", REPORT_JSON_VERSION);
	out_printf(out, ",\n  \"total-lost-samples\": %" PRIu64 ",\n  \"sort\": [", H->total_lost);
	for (int k = 0; k < o->nr_keys; k++)
		out_printf(out, "%s\"%s\"", k ? ", " : "", sort_key(o->keys[k])->name);
	out_str(out, "],\n  \"children\": ");
	out_str(out, H->children ? "true" : "false");
	out_printf(out, ",\n  \"percentage\": \"%s\"", o->relative ? "relative" : "absolute");
	out_str(out, ",\n  \"call-graph\": ");
	if (H->chains && H->show)
		out_printf(out, "{\"order\": \"%s\", \"threshold\": %g}", H->walk.caller ? "caller" : "callee",
			   o->cc_min_percent);
	else
		out_str(out, "null");
	out_str(out, ",\n  \"events\": [");
	sort_setup(H);
	for (size_t i = 0; i < H->nr; i++) {
		struct hists *hs = &H->h[i];
		bool first_row = true;
		uint64_t min_hit = (uint64_t)((double)hs->pct_total * (o->cc_min_percent / 100.0));
		size_t nm = shown_members(H, i);

		if (H->group_view && H->lead && H->lead[i] != i)
			continue;	/* in its leader's rows */
		if (!hs->nr_samples)
			continue;
		H->sort_nm = nm;
		if (order_entries(H, hs))
			return mperf_error(-ENOMEM, "out of memory");
		out_str(out, first_ev ? "\n    {\"name\": " : ",\n    {\"name\": ");
		first_ev = false;
		out_json_str(out, pdata__evsel(H->p, i)->name);
		out_printf(out, ", \"samples\": %" PRIu64 ", \"event-count\": %" PRIu64 ", \"lost-samples\": %" PRIu64,
			   hs->pct_samples, hs->pct_total, hs->lost);
		if (nm > 1) {	/* the group view: the group, and each member's totals, the leader first */
			out_str(out, ",\n     \"group\": ");
			group_desc(out, H, i, true);
			out_str(out, ", \"members\": [");
			for (size_t m = 0; m < nm; m++) {
				const struct hists *ms = &H->h[i + m];

				out_str(out, m ? ", {\"name\": " : "{\"name\": ");
				out_json_str(out, pdata__evsel(H->p, i + m) ? pdata__evsel(H->p, i + m)->name : "");
				out_printf(out, ", \"samples\": %" PRIu64 ", \"event-count\": %" PRIu64 ", \"lost-samples\": %" PRIu64 "}",
					   ms->pct_samples, ms->pct_total, ms->lost);
			}
			out_char(out, ']');
		}
		out_str(out, ",\n     \"rows\": [");
		for (size_t e = 0; e < hs->n; e++) {
			const struct hent *h = hs->v[e];
			double pct = share(hs, h->period), acc = share(hs, h->acc);

			if (h->filtered || (float)(H->children ? acc : pct) < (float)o->percent_limit)
				continue;
			out_printf(out, "%s\n      {\"overhead\": %.4f, \"period\": %" PRIu64 ", \"samples\": %" PRIu64,
				   first_row ? "" : ",", pct, h->period, h->nr);
			if (H->children)
				out_printf(out, ", \"children-overhead\": %.4f, \"children-period\": %" PRIu64, acc, h->acc);
			if (nm > 1) {	/* every member's values, as the text's columns show them */
				out_str(out, ", \"members\": [");
				for (size_t m = 0; m < nm; m++) {
					const struct hists *ms = &H->h[i + m];

					out_printf(out, "%s{\"overhead\": %.4f, \"period\": %" PRIu64 ", \"samples\": %" PRIu64,
						   m ? ", " : "", share(ms, gval(h, m, G_PERIOD)), gval(h, m, G_PERIOD),
						   gval(h, m, G_NR));
					if (H->children)
						out_printf(out, ", \"children-overhead\": %.4f, \"children-period\": %" PRIu64,
							   share(ms, gval(h, m, G_ACC)), gval(h, m, G_ACC));
					out_char(out, '}');
				}
				out_char(out, ']');
			}
			first_row = false;
			for (int k = 0; k < o->nr_keys; k++)
				sort_key(o->keys[k])->json(out, &h->k, false);
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

/*
 * The sort keys, perf's sort list's (fields.h: o's, its ipc_null, -F's
 * keys), and which of them a single-value filter elides (every one: none).
 */
static void set_keys(struct hist *H)
{
	const struct report_hist_opts *o = H->o;
	struct field_lists l;
	bool all = true;

	fields_setup(o, false, &l);
	H->nr_keys = 0;
	for (int i = 0; i < l.sort.n; i++) {
		enum report_key key = (enum report_key)l.sort.f[i].id;

		if (l.sort.f[i].value)
			continue;
		H->keys[H->nr_keys++] = key;
		H->key[key] = true;
		if (key == REPORT_KEY_IPC_NULL) {	/* perf's, sym's comparison, where the --sort text names "symbol" */
			H->key[REPORT_KEY_SYM] = true;	/* entries are told apart by their symbol */
			continue;
		}
		H->collapses |= sort_key(key)->collapses;
		H->elided[key] = sort_key_single_value(key, o) != NULL;
		all &= H->elided[key];
	}
	if (all)
		memset(H->elided, 0, sizeof(H->elided));
}

/*
 * Each CPU's socket as perf's env has it: CPU_TOPOLOGY's ids for NRCPUS's
 * available CPUs; none (-1 for every sample) without the two sections.
 */
static int read_sockets(struct hist *H)
{
	struct pd_feat_nrcpus nr;
	struct pd_cpu_topology t;
	const unsigned char *q;
	size_t len;

	q = pdata__feature(H->p, PD_FEAT_NRCPUS, &len);
	if (!q || pdata__feat_bad(H->p, PD_FEAT_NRCPUS) || !pd_feat_nrcpus_decode(q, len, &nr))
		return 0;
	q = pdata__feature(H->p, PD_FEAT_CPU_TOPOLOGY, &len);
	if (!q || pdata__feat_bad(H->p, PD_FEAT_CPU_TOPOLOGY) || !pd_cpu_topology_decode(q, len, nr.available, &t) || !t.ids)
		return 0;
	if (!(H->socket_of = calloc(nr.available ? nr.available : 1, sizeof(*H->socket_of))))
		return -ENOMEM;
	H->nr_socket_of = nr.available;
	for (uint32_t i = 0; i < nr.available; i++)
		H->socket_of[i] = pd_cpu_topology_ids(&t, i).socket;
	return 0;
}

/* perf refuses --mem-mode on a file whose events have no data source (a stream's are not known yet). */
static int mem_mode_check(struct hist *H)
{
	if (!H->o->mem_mode || pdata__is_pipe(H->p))
		return 0;
	for (size_t i = 0; i < pdata__nr_evsel(H->p); i++)
		if (pdata__evsel(H->p, i)->attr.sample_type & PERF_SAMPLE_DATA_SRC)
			return 0;
	return mperf_error(-MPERF_ERR_USAGE, "'%s' has no memory data for --mem-mode (PERF_SAMPLE_DATA_SRC): "
			   "was it recorded without -d?", H->label);
}

/* H set up to read p: its symbols, filters, keys and events; kallsyms from the build-id cache's copy if it may (copy). */
static int hist_init(struct hist *H, struct pdata *p, const char *label, const struct report_hist_opts *o, bool copy)
{
	int ret;

	memset(H, 0, sizeof(*H));
	H->o = o;
	H->p = p;
	H->label = label;
	H->copy = copy;
	H->syms = symcache__for_file(p, o->vmlinux, o->kallsyms, o->symfs);
	srclines_init(&H->src, H->syms);
	H->src.full_path = o->full_source_path;
	if (!H->syms)
		return -ENOMEM;
	if (o->no_demangle)
		symcache__no_demangle(H->syms);
	if (copy)
		symcache__use_kallsyms_copy(H->syms);
	H->kdso = intern(H, symcache__kernel_dso_name(H->syms, "[kernel.kallsyms]", shown_kname(H), NULL, 0));
	if (!H->kdso)
		return mperf_error(-ENOMEM, "out of memory");
	stackwalk__init(&H->walk, H->syms, &H->strs);
	if ((ret = sfilter_init(&H->filt, &o->filter, p, label)))
		return ret;
	if (o->max_stack && o->max_stack < H->walk.max_stack)
		H->walk.max_stack = o->max_stack;
	H->walk.no_inline = o->no_inline;
	if (o->ignore_callees && regcomp(&H->ignore, o->ignore_callees, REG_EXTENDED | REG_NOSUB))
		return mperf_error(-MPERF_ERR_USAGE, "invalid --ignore-callees regex '%s'", o->ignore_callees);
	H->has_ignore = o->ignore_callees != NULL;
	set_keys(H);
	if ((ret = mem_mode_check(H)) || (ret = rowkeys__init(&H->rk, o, H->key, &H->strs, p, label)))
		return ret;
	if (source_keyed(H))
		symcache__want_lines(H->syms);
	if (H->key[REPORT_KEY_SOCKET] && read_sockets(H))
		return mperf_error(-ENOMEM, "out of memory");
	/* Pipe mode adds events as it goes: hists_of() grows the array then. */
	H->nr = H->h_cap = pdata__nr_evsel(p);
	H->h = calloc(H->nr ? H->nr : 1, sizeof(*H->h));
	if (!H->nr)
		H->h_cap = 1;
	symcache__load_kernel_for(H->syms, p);
	/* A file's events are known now (a stream's at its first sample): -g is refused before reading. */
	return !H->h ? mperf_error(-ENOMEM, "out of memory") : pdata__is_pipe(p) ? 0 : decide_chains(H);
}

/*
 * Read p through the session into H: every event's entries, kernel symbols
 * resolved; kallsyms from the build-id cache's copy if it may (copy).
 */
static int hist_read(struct hist *H, struct pdata *p, const char *label, const struct report_hist_opts *o, bool copy)
{
	struct session_ops ops = {
		.record = on_record, .sample = on_sample, .finish = on_finish, .arg = H, .machine = true,
		.partial = true,
	};
	int ret = hist_init(H, p, label, o, copy);

	if (ret >= 0)
		ret = parent_check(H);
	if (ret >= 0)
		ret = session__run(p, label, &ops);
	/* A file cut mid-record (said by now): the samples before the cut are the report's. */
	if (ret < 0 && H->finished) {
		H->damage = ret;
		ret = 0;
	}
	if (ret >= 0 && (ret = resolve_kernel(H)))
		ret = mperf_error(ret, "out of memory");
	if (ret >= 0)
		set_origins(H);
	return ret;
}

static void hist_free(struct hist *H);

/*
 * hist_read for report, which waits for kallsyms at its first chain: from
 * the build-id cache's copy, which reads fast, while a thread checks it
 * against /proc/kallsyms.  Should they differ (a module or BPF program
 * came or went since the recording), the file is read again from its
 * first record with /proc/kallsyms, and only that run's messages are said.
 */
static int hist_read_fast(struct hist *H, struct pdata *p, const char *label, const struct report_hist_opts *o)
{
	int ret;
	bool stale;

	if (pdata__is_pipe(p))
		return hist_read(H, p, label, o, false);	/* read once */
	mperf_log_hold();
	ret = hist_read(H, p, label, o, true);
	stale = H->syms && symcache__kallsyms_stale(H->syms, true);
	mperf_log_release(!stale);
	if (!stale)
		return ret;
	hist_free(H);
	if ((ret = pdata__rewind(p)))
		return mperf_error(ret, "cannot read '%s' again: %s", label, mperf_strerror(ret));
	return hist_read(H, p, label, o, false);
}

/* hs's entries, their chains and group links, freed; hs left empty. */
static void hists_release(struct hists *hs)
{
	for (size_t e = 0; e < hs->n; e++) {
		if (hs->v[e]->cc) {
			cc_tree_free(hs->v[e]->cc);
			free(hs->v[e]->cc);
		}
		free(hs->v[e]->pair);
		free(hs->v[e]);
	}
	free(hs->v);
	hs->v = NULL;
	hs->n = hs->cap = 0;
	memset(hs->buckets, 0, sizeof(hs->buckets));
	hs->in_root = NULL;
}

static void hist_free(struct hist *H)
{
	for (size_t i = 0; H->h && i < H->nr; i++)
		hists_release(&H->h[i]);
	stackwalk__release(&H->walk);
	sfilter_release(&H->filt);
	readvals__release(&H->rv);
	rowkeys__release(&H->rk);
	if (H->has_ignore)
		regfree(&H->ignore);
	free(H->seen);
	free(H->socket_of);
	for (size_t i = 0; H->cmemo && i < CMEMO; i++) {
		free(H->cmemo[i].fr);
		free(H->cmemo[i].ent);
	}
	free(H->cmemo);
	srclines_release(&H->src);
	free(H->cm_new);
	free(H->lead);
	free(H->nmemb);
	free(H->gname);
	strset_free(&H->strs);
	free(H->h);
	symcache__delete(H->syms);
}

int report__hist(struct pdata *p, const char *label, const struct report_hist_opts *o, FILE *f)
{
	struct hist H;
	struct out out;
	int ret = hist_read_fast(&H, p, label, o);

	if (ret >= 0 && (setup_groups(&H) || out_init(&out, f))) {
		ret = mperf_error(-ENOMEM, "out of memory");
	} else if (ret >= 0) {
		percent_base(&H);
		if (o->json)
			ret = print_json(&H, &out);
		else
			ret = print_text(&H, &out);
		if (ret >= 0 && o->show_threads && !o->json)
			readvals__print(&H.rv, &out);
		ret = out_close(&out, ret, label);
	}
	if (ret >= 0 && H.damage)
		ret = H.damage;
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
	ret = hist_read(&rh->H, p, label, &rh->o, false);	/* two files read at once: not twice */
	if (ret >= 0 && rh->H.damage)
		ret = rh->H.damage;	/* mperf diff compares whole files only */
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
	entry_of(rh->H.h[ev].v[i], r);
}

void report_hists__free(struct report_hists *rh)
{
	if (!rh)
		return;
	hist_free(&rh->H);
	free(rh);
}

/* ---- the browser's document ---- */

/* H's histograms printed as --stdio prints them into d, cut into its parts. */
static int doc_print(struct hist *H, struct report_hist_doc *d, const char *label)
{
	struct out out;
	FILE *f;
	int ret;

	H->doc = d;
	f = open_memstream(&d->text, &d->len);
	if (!f || setup_groups(H) || out_init(&out, f)) {
		if (f)
			fclose(f);
		return mperf_error(-ENOMEM, "out of memory");
	}
	percent_base(H);
	ret = out_close(&out, print_text(H, &out), label);
	if (fclose(f) && ret >= 0)
		ret = mperf_error(-ENOMEM, "out of memory");
	if (ret >= 0 && H->doc_err)
		ret = mperf_error(H->doc_err, "out of memory");
	return ret;
}

int report__hist_doc(struct pdata *p, const char *label, const struct report_hist_opts *o, struct report_hist_doc *d)
{
	struct report_hists *rh = calloc(1, sizeof(*rh));
	int ret;

	memset(d, 0, sizeof(*d));
	if (!rh)
		return mperf_error(-ENOMEM, "out of memory");
	d->h = rh;
	rh->o = *o;
	rh->o.json = false;
	ret = hist_read_fast(&rh->H, p, label, &rh->o);
	if (ret < 0 || (ret = doc_print(&rh->H, d, label)) < 0)
		goto fail;
	/* A damaged file: what came before the damage, and the damage. */
	return rh->H.damage;
fail:
	report_hist_doc__free(d);
	return ret;
}

void report_hist_doc__free(struct report_hist_doc *d)
{
	report_hists__free(d->h);
	free(d->text);
	free(d->sec);
	free(d->row);
	memset(d, 0, sizeof(*d));
}

/* ---- mperf top: the histograms of a stream that grows, read once ---- */

struct report_live {
	struct hist H;
	struct report_hist_opts o;	/* H.o points here */
	struct session_ops ops;
	struct session *s;
	const struct session_ops *also;	/* another consumer of the same records (report_live__also) */
};

int report_live__open(struct pdata *p, const char *label, const struct report_hist_opts *o, struct report_live **out)
{
	struct report_live *l = calloc(1, sizeof(*l));
	int ret;

	*out = NULL;
	if (!l)
		return mperf_error(-ENOMEM, "out of memory");
	l->o = *o;
	l->o.json = false;
	l->ops = (struct session_ops){ .record = on_record, .sample = on_sample, .arg = &l->H, .machine = true,
				       .drop_exited = true };
	if ((ret = hist_init(&l->H, p, label, &l->o, false)) < 0 || !(l->s = session__open(p, label, &l->ops))) {
		ret = ret < 0 ? ret : -errno;
		report_live__free(l);
		return ret;
	}
	*out = l;
	return 0;
}

/* What the last document's setup_groups made, for the next one's. */
static void live_groups_free(struct hist *H)
{
	free(H->lead);
	free(H->nmemb);
	free(H->gname);
	H->lead = H->nmemb = NULL;
	H->gname = NULL;
}

/*
 * Printing changes histograms with chains, or groups: perf's collapse
 * merges entries and makes the input tree a collapse tree, and the group
 * view links members' entries into the leader's histogram (making those
 * its leader lacks).  Then the live histograms, which go on growing, are
 * never printed: a copy of them is, then freed.  Chains whose keys do not
 * collapse (top's dso,sym) are printed in place: their sorting is made
 * again each time (cc_tree_sort), and the entries' order from the input
 * tree (live_uncollapse).
 */
static bool live_copied(const struct hist *H)
{
	return pdata__nr_groups(H->p) || H->o->group_set || (H->chains && H->collapses);
}

/* After an in-place print: the next one takes the entries from the input tree again (collapse). */
static void live_uncollapse(struct hist *H)
{
	for (size_t i = 0; i < H->nr; i++)
		H->h[i].collapsed = false;
}

/* An entry's copy, its chains too, not yet in any hists. */
static struct hent *hent_copy(const struct hent *o)
{
	struct hent *e = malloc(sizeof(*e));

	if (!e)
		return NULL;
	*e = *o;
	e->next = NULL;
	e->pair = NULL;
	e->cc = NULL;
	if (o->cc && (!(e->cc = malloc(sizeof(*e->cc))) || cc_tree_clone(e->cc, o->cc))) {
		free(e->cc);
		free(e);
		return NULL;
	}
	return e;
}

struct live_copy {
	const struct hist *H;
	struct hists *to;
};

/* rb_clone's copy of an input tree's entry, put into the copy's hash and entries. */
static struct rb_node *in_copy(const struct rb_node *n, void *ctx)
{
	struct live_copy *c = ctx;
	struct hent *e = hent_copy(HENT_OF_IN(n));

	if (!e || insert(c->to, bucket_of(c->H, e), e))
		return NULL;	/* insert frees what it cannot keep */
	return &e->in;
}

/* to: a copy of hs, its entries in the same order (with chains, its input tree of the same shape). */
static int hists_copy(const struct hist *H, struct hists *to, const struct hists *hs)
{
	struct live_copy c = { H, to };

	*to = *hs;
	to->v = NULL;
	to->n = to->cap = 0;
	memset(to->buckets, 0, sizeof(to->buckets));
	to->in_root = NULL;
	if (H->chains)
		return rb_clone(hs->in_root, &to->in_root, in_copy, &c) ? -ENOMEM : 0;
	for (size_t e = 0; e < hs->n; e++) {
		struct hent *x = hent_copy(hs->v[e]);

		if (!x || insert(to, bucket_of(H, x), x))
			return -ENOMEM;
	}
	return 0;
}

/* d printed from a copy of H's histograms, which stay as they were. */
static int live_print_copy(struct hist *H, struct report_hist_doc *d)
{
	struct hists *live = H->h, *copy = calloc(H->nr ? H->nr : 1, sizeof(*copy));
	size_t nr = H->nr, cap = H->h_cap;
	int ret = 0;

	if (!copy)
		return mperf_error(-ENOMEM, "out of memory");
	for (size_t i = 0; i < nr && !ret; i++)
		ret = hists_copy(H, &copy[i], &live[i]);
	H->h = copy;
	H->h_cap = nr ? nr : 1;
	ret = ret ? mperf_error(ret, "out of memory") : doc_print(H, d, H->label);
	/* setup_groups may have grown the copy's array (hists_of) */
	for (size_t i = 0; i < H->nr; i++)
		hists_release(&H->h[i]);
	free(H->h);
	H->h = live;
	H->nr = nr;
	H->h_cap = cap;
	return ret;
}

int report_live__doc(struct report_live *l, struct report_hist_doc *d)
{
	struct hist *H = &l->H;
	int ret;

	memset(d, 0, sizeof(*d));
	if ((ret = session__more(l->s)) < 0 || (ret = on_finish(H, session__machine(l->s))) < 0)
		return ret;
	if ((ret = resolve_kernel(H)))
		return mperf_error(ret, "out of memory");
	if (!H->total_samples)
		return 0;	/* no samples yet (or since the last zero): an empty document, nothing said */
	live_groups_free(H);
	H->sec_cap = H->row_cap = 0;
	H->doc_err = 0;
	if (live_copied(H)) {
		ret = live_print_copy(H, d);
	} else {
		ret = doc_print(H, d, H->label);
		live_uncollapse(H);
	}
	H->doc = NULL;
	if (ret < 0)
		report_hist_doc__free(d);
	return ret;
}

void report_live__zero(struct report_live *l)
{
	struct hist *H = &l->H;

	for (size_t i = 0; i < H->nr; i++) {
		struct hists *hs = &H->h[i];

		hists_release(hs);
		hs->total_period = hs->shown_period = hs->nr_samples = 0;
		hs->partial_order = hs->have_addr = false;
	}
	/* what recent chains added to is gone: the memo forgets it (a new entry may reuse an address) */
	for (size_t i = 0; H->cmemo && i < CMEMO; i++)
		H->cmemo[i].hs = NULL;
	H->total_samples = 0;
}

void report_live__free(struct report_live *l)
{
	if (!l)
		return;
	session__close(l->s);
	hist_free(&l->H);
	free(l);
}

const void *report_live__held(const struct report_live *l)
{
	return session__held(l->s);
}

struct symcache *report_live__symcache(struct report_live *l)
{
	return l->H.syms;
}

/* The histograms' callbacks, then the other consumer's. */
static int live_record(void *arg, const struct session_record *r)
{
	struct report_live *l = arg;
	int ret = on_record(&l->H, r);

	return ret < 0 ? ret : l->also->record(l->also->arg, r);
}

static int live_sample(void *arg, const struct session_sample *ss)
{
	struct report_live *l = arg;
	int ret = on_sample(&l->H, ss);

	return ret < 0 ? ret : l->also->sample(l->also->arg, ss);
}

void report_live__also(struct report_live *l, const struct session_ops *also)
{
	l->also = also;
	l->ops.record = live_record;
	l->ops.sample = live_sample;
	l->ops.arg = l;
}
