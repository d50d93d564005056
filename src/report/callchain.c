// SPDX-License-Identifier: GPL-2.0-only
/*
 * Call-chain trees: chains of frames merged into a radix tree, sorted and
 * filtered for one of perf's print modes, and printed in the shapes of
 * perf report --stdio (graph with its "---", "|--", "--N.NN%--" lines,
 * fractal, flat, folded).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "callchain.h"
#include "out.h"

/* Markers between contexts in a chain; perf prints none of them. */
#define CONTEXT_MAX ((uint64_t)-4095)

/*
 * perf's frame order (match_chain): the DSO first, then the symbol start
 * when both frames have a symbol, else the address.  <0, 0, >0.
 */
static inline int frame_cmp(const struct cc_frame *a, const struct cc_frame *b)
{
	if (a->dso != b->dso)
		return a->dso_rank < b->dso_rank ? -1 : a->dso_rank > b->dso_rank ? 1 : a->dso < b->dso ? -1 : 1;
	if (a->sym && b->sym)
		return a->start < b->start ? -1 : a->start > b->start;
	return a->ip < b->ip ? -1 : a->ip > b->ip;
}

/* Two symbols, one of them an inline frame's, by name without " (inlined)". */
static int inline_cmp(const struct cc_frame *a, const struct cc_frame *b)
{
	size_t la = strlen(a->sym) - (a->inlined ? sizeof(" (inlined)") - 1 : 0);
	size_t lb = strlen(b->sym) - (b->inlined ? sizeof(" (inlined)") - 1 : 0);
	int c = strncmp(a->sym, b->sym, la < lb ? la : lb);

	if (c || la != lb)
		return c ? (c < 0 ? -1 : 1) : la < lb ? -1 : 1;
	return 0;
}

/*
 * perf compares inline frames (which share their symbol's start) by name,
 * whatever their DSO; the others as frame_cmp does.  Inline: the kids'
 * binary search calls it at every level of every chain.
 */
static inline int match_cmp(const struct cc_frame *a, const struct cc_frame *b)
{
	if (__builtin_expect(a->inlined || b->inlined, 0) && a->sym && b->sym) {
		if (a->sym == b->sym && a->inlined == b->inlined)
			return 0;	/* one name (the walk interns them) */
		return inline_cmp(a, b);
	}
	return frame_cmp(a, b);
}

/* match_cmp(a, b) == 0, without its order: what the chain's runs are matched with. */
static inline bool match_eq(const struct cc_frame *a, const struct cc_frame *b)
{
	if (__builtin_expect(a->inlined || b->inlined, 0))
		return !match_cmp(a, b);
	if (a->dso != b->dso)
		return false;
	return a->sym && b->sym ? a->start == b->start : a->ip == b->ip;
}

static uint64_t cumul(const struct cc_node *n)
{
	return n->hit + n->children_hit;
}

static uint64_t cumul_count(const struct cc_node *n)
{
	return n->count + n->children_count;
}

static struct cc_node *new_node(struct cc_node *parent, const struct cc_frame *f, size_t n)
{
	struct cc_node *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->parent = parent;
	if (n) {
		c->val = malloc(n * sizeof(*f));
		if (!c->val) {
			free(c);
			return NULL;
		}
		memcpy(c->val, f, n * sizeof(*f));
	}
	c->nval = n;
	return c;
}

static void free_node(struct cc_node *n)
{
	for (size_t i = 0; i < n->nkid; i++) {
		free_node(n->kid[i]);
		free(n->kid[i]);
	}
	free(n->kid);
	free(n->out);
	free(n->val);
}

#define CC_NODE_OF(n) ((struct cc_node *)((char *)(n) - offsetof(struct cc_node, rb)))

/*
 * p's children are kept twice: in the red-black tree perf searches
 * (rb_root), and in its in-order sequence (kid), which the sorting,
 * merging and freeing walk.  Where the chain whose first frame is f goes,
 * searched as perf's append_chain_children does: left when the node met
 * compares smaller than f (perf's MATCH_LT), right when greater.  Returns
 * the node equal to f, or NULL with *up and *left saying where f's node
 * hangs.
 */
static struct cc_node *kid_find(const struct cc_node *p, const struct cc_frame *f, struct cc_node **up,
				bool *left)
{
	struct rb_node *x = p->rb_root;

	*up = NULL;
	*left = false;
	while (x) {
		struct cc_node *c = CC_NODE_OF(x);
		int cmp = match_cmp(&c->val[0], f);

		if (!cmp)
			return c;
		*up = c;
		*left = cmp < 0;
		x = *left ? x->left : x->right;
	}
	return NULL;
}

/*
 * Hang c under up (on its left or right; up NULL: c is the first child)
 * in p's tree, and in p's in-order sequence just before or after up.
 */
static int insert_kid(struct cc_node *p, struct cc_node *up, bool left, struct cc_node *c)
{
	size_t pos = 0;

	if (ALLOC_GROW(p->kid, p->nkid + 1, p->kcap))
		return -ENOMEM;
	if (up) {
		while (p->kid[pos] != up)
			pos++;
		pos += !left;
	}
	memmove(p->kid + pos + 1, p->kid + pos, (p->nkid - pos) * sizeof(*p->kid));
	p->kid[pos] = c;
	p->nkid++;
	rb_insert(&p->rb_root, &c->rb, up ? &up->rb : NULL,
		  !up ? &p->rb_root : left ? &up->rb.left : &up->rb.right);
	return 0;
}

static int append_children(struct cc_node *p, const struct cc_frame *f, size_t n, uint64_t period,
			   struct cc_node **leaf);

/*
 * The chain f[0..n) enters node c, whose first frame equals f[0].  As
 * perf: match as much of c's run as the chain shares, split c where they
 * part, and go on below.
 */
static int append_node(struct cc_node *c, const struct cc_frame *f, size_t n, uint64_t period,
		       struct cc_node **leaf)
{
	size_t m = 0;

	while (m < c->nval && m < n && match_eq(&c->val[m], &f[m]))
		m++;
	if (m < c->nval) {
		/* Split: the tail of c, with its children and hits, moves to a new child. */
		struct cc_node *tail = new_node(c, c->val + m, c->nval - m);

		if (!tail)
			return -ENOMEM;
		tail->kid = c->kid;
		tail->nkid = c->nkid;
		tail->kcap = c->kcap;
		tail->rb_root = c->rb_root;
		for (size_t i = 0; i < tail->nkid; i++)
			tail->kid[i]->parent = tail;
		tail->hit = c->hit;
		tail->children_hit = c->children_hit;
		tail->count = c->count;
		tail->children_count = c->children_count;
		c->kid = NULL;
		c->nkid = c->kcap = 0;
		c->rb_root = NULL;
		c->nval = m;
		if (insert_kid(c, NULL, false, tail)) {
			free_node(tail);
			free(tail);
			return -ENOMEM;
		}
		c->children_hit = cumul(tail);
		c->children_count = cumul_count(tail);
		if (m < n) {
			struct cc_node *rest = new_node(c, f + m, n - m);

			if (!rest)
				return -ENOMEM;
			rest->hit = period;
			rest->count = 1;
			*leaf = rest;
			c->hit = 0;
			c->count = 0;
			c->children_hit += period;
			c->children_count++;
			/* the second child: beside the first, as perf's split_add_child hangs it */
			if (insert_kid(c, tail, match_cmp(&tail->val[0], &f[m]) < 0, rest)) {
				free_node(rest);
				free(rest);
				return -ENOMEM;
			}
		} else {
			c->hit = period;
			c->count = 1;
			*leaf = c;
		}
		return 0;
	}
	if (m == n) {
		c->hit += period;
		c->count++;
		*leaf = c;
		return 0;
	}
	return append_children(c, f + m, n - m, period, leaf);
}

static int append_children(struct cc_node *p, const struct cc_frame *f, size_t n, uint64_t period,
			   struct cc_node **leaf)
{
	struct cc_node *up, *found;
	bool left;
	int err;

	if ((found = kid_find(p, f, &up, &left))) {
		err = append_node(found, f, n, period, leaf);
	} else {
		struct cc_node *c = new_node(p, f, n);

		if (!c)
			return -ENOMEM;
		c->hit = period;
		c->count = 1;
		*leaf = c;
		err = insert_kid(p, up, left, c);
		if (err) {
			free_node(c);
			free(c);
		}
	}
	if (err)
		return err;
	p->children_hit += period;
	p->children_count++;
	return 0;
}

/*
 * The chains a tree was given last, by a hash of their frames: where each
 * ended.  While every frame of the tree has a symbol and is no inline
 * frame, match_cmp orders frames by their dso and symbol start alone, a
 * total order, so a chain whose frames have the dso and start of those on
 * the path from the root to a node goes down that very path: when that
 * path spells the chain whole, appending it only adds its period there
 * and to the nodes above, as append_children would.
 */
#define CC_MEMO 8

struct cc_memo {
	uint64_t h;
	size_t n;
	struct cc_node *leaf;
};

/* A hash of the chain's dso and symbol starts; false if some frame is not compared by them. */
static bool chain_hash(const struct cc_frame *f, size_t n, uint64_t *h)
{
	uint64_t x = 14695981039346656037ULL;

	for (size_t i = 0; i < n; i++) {
		if (!f[i].sym || f[i].inlined)
			return false;
		x = (x ^ (uintptr_t)f[i].dso ^ (f[i].start * 0x9e3779b97f4a7c15ULL)) * 1099511628211ULL;
	}
	*h = x ^ (x >> 29);
	return true;
}

/* Whether the path from the root to leaf is f[0..n), frame by frame (dso and symbol start). */
static bool path_is(const struct cc_node *leaf, const struct cc_frame *f, size_t n)
{
	for (const struct cc_node *x = leaf; x->parent; x = x->parent)
		for (size_t j = x->nval; j-- > 0; ) {
			if (!n--)
				return false;
			if (x->val[j].dso != f[n].dso || x->val[j].start != f[n].start)
				return false;
		}
	return !n;
}

/* Add period where a chain ended, and to every node above, as the descent does. */
static void credit(struct cc_node *leaf, uint64_t period)
{
	leaf->hit += period;
	leaf->count++;
	for (struct cc_node *x = leaf->parent; x; x = x->parent) {
		x->children_hit += period;
		x->children_count++;
	}
}

bool cc_tree_again(struct cc_tree *t, const struct cc_node *leaf, size_t nval)
{
	return !t->addr_frames && leaf && leaf->nval == nval;
}

void cc_tree_add_again(struct cc_node *leaf, uint64_t period)
{
	credit(leaf, period);
}

int cc_tree_append(struct cc_tree *t, const struct cc_frame *f, size_t n, uint64_t period)
{
	return cc_tree_append_leaf(t, f, n, period, NULL);
}

int cc_tree_append_leaf(struct cc_tree *t, const struct cc_frame *f, size_t n, uint64_t period,
			struct cc_node **leafp)
{
	struct cc_node *leaf = NULL;
	struct cc_memo *m = NULL;
	uint64_t h = 0;
	int err;

	if (leafp)
		*leafp = NULL;
	if (!n)
		return 0;
	if (!t->addr_frames && chain_hash(f, n, &h)) {
		if (!t->memo && !(t->memo = calloc(CC_MEMO, sizeof(*t->memo))))
			return -ENOMEM;
		m = &t->memo[h % CC_MEMO];
		if (m->leaf && m->h == h && m->n == n && path_is(m->leaf, f, n)) {
			credit(m->leaf, period);
			if (leafp)
				*leafp = m->leaf;
			return 0;	/* n <= max_depth: it came before */
		}
	} else {
		t->addr_frames = true;	/* for good: the memo is not used again */
	}
	if ((err = append_children(&t->root, f, n, period, &leaf)))
		return err;
	if (m)
		*m = (struct cc_memo){ .h = h, .n = n, .leaf = leaf };
	if (leafp)
		*leafp = leaf;
	if (n > t->max_depth)
		t->max_depth = n;
	return 0;
}

static int merge_branch(struct cc_tree *dst, const struct cc_node *n, struct cc_frame **path, size_t *cap,
			size_t len)
{
	int err;

	if (ALLOC_GROW(*path, len + n->nval, *cap))
		return -ENOMEM;
	if (n->nval)
		memcpy(*path + len, n->val, n->nval * sizeof(**path));
	len += n->nval;
	if (n->hit && (err = cc_tree_append(dst, *path, len, n->hit)))
		return err;
	for (size_t i = 0; i < n->nkid; i++)
		if ((err = merge_branch(dst, n->kid[i], path, cap, len)))
			return err;
	return 0;
}

int cc_tree_merge(struct cc_tree *dst, const struct cc_tree *src)
{
	struct cc_frame *path = NULL;
	size_t cap = 0;
	size_t depth = dst->max_depth;
	int err = merge_branch(dst, &src->root, &path, &cap, 0);

	/* perf's merge leaves the depth alone: a merged entry ties by its first part's */
	dst->max_depth = depth;
	free(path);
	return err;
}

void cc_tree_free(struct cc_tree *t)
{
	free(t->memo);
	free_node(&t->root);
	free(t->flat);
	memset(t, 0, sizeof(*t));
}

/* ---- copying (mperf top prints a copy of the trees it goes on growing) ---- */

static int clone_kids(struct cc_node *dst, const struct cc_node *src);

/* rb_clone's copy: the node of a child of ctx's original, its frames, counts and children copied. */
static struct rb_node *clone_kid(const struct rb_node *n, void *ctx)
{
	const struct cc_node *o = CC_NODE_OF(n);
	struct cc_node *c = new_node(ctx, o->val, o->nval);

	if (!c)
		return NULL;
	c->hit = o->hit;
	c->children_hit = o->children_hit;
	c->count = o->count;
	c->children_count = o->children_count;
	if (clone_kids(c, o)) {
		free_node(c);
		free(c);
		return NULL;
	}
	return &c->rb;
}

/* src's children into dst (which has none): the same tree of the same shape, the same sequence. */
static int clone_kids(struct cc_node *dst, const struct cc_node *src)
{
	int err;

	if (!src->nkid)
		return 0;
	if (!(dst->kid = malloc(src->nkid * sizeof(*dst->kid))))
		return -ENOMEM;
	dst->kcap = src->nkid;
	err = rb_clone(src->rb_root, &dst->rb_root, clone_kid, dst);
	/* kid is the tree's in-order sequence (insert_kid): made again from the copy, whole or not */
	for (struct rb_node *x = rb_first(dst->rb_root); x && dst->nkid < dst->kcap; x = rb_next(x))
		dst->kid[dst->nkid++] = CC_NODE_OF(x);
	return err ? -ENOMEM : 0;
}

int cc_tree_clone(struct cc_tree *dst, const struct cc_tree *src)
{
	int err;

	memset(dst, 0, sizeof(*dst));
	dst->max_depth = src->max_depth;
	dst->addr_frames = src->addr_frames;
	dst->root.hit = src->root.hit;
	dst->root.children_hit = src->root.children_hit;
	dst->root.count = src->root.count;
	dst->root.children_count = src->root.children_count;
	if ((err = clone_kids(&dst->root, &src->root)))
		cc_tree_free(dst);
	return err;
}

/* ---- sorting ---- */

/*
 * Sort v by key, descending; equal keys keep their order (perf inserts
 * them into its output tree to the right of their equals).
 */
static void sort_desc(struct cc_node **v, size_t n, bool by_hit)
{
	/* Insertion sort: children lists are short, and it is stable. */
	for (size_t i = 1; i < n; i++) {
		struct cc_node *x = v[i];
		uint64_t kx = by_hit ? x->hit : cumul(x);
		size_t j = i;

		while (j > 0 && (by_hit ? v[j - 1]->hit : cumul(v[j - 1])) < kx) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

static int sort_graph(struct cc_node *n, bool rel, uint64_t min_hit, double min_frac)
{
	free(n->out);
	n->out = NULL;
	n->nout = 0;
	if (rel)
		min_hit = (uint64_t)ceil((double)n->children_hit * min_frac);
	if (n->nkid && !(n->out = malloc(n->nkid * sizeof(*n->out))))
		return -ENOMEM;
	for (size_t i = 0; i < n->nkid; i++) {
		int err = sort_graph(n->kid[i], rel, min_hit, min_frac);

		if (err)
			return err;
		if (cumul(n->kid[i]) >= min_hit)
			n->out[n->nout++] = n->kid[i];
	}
	sort_desc(n->out, n->nout, false);
	return 0;
}

struct flat_list {
	struct cc_node **v;
	size_t n, cap;
};

/* Every node where chains end, children before their parent, as perf walks them. */
static int collect_flat(struct cc_node *n, uint64_t min_hit, struct flat_list *l)
{
	for (size_t i = 0; i < n->nkid; i++) {
		int err = collect_flat(n->kid[i], min_hit, l);

		if (err)
			return err;
	}
	if (n->hit && n->hit >= min_hit) {
		if (ALLOC_GROW(l->v, l->n + 1, l->cap))
			return -ENOMEM;
		l->v[l->n++] = n;
	}
	return 0;
}

int cc_tree_sort(struct cc_tree *t, enum report_cc_mode mode, uint64_t min_hit, double min_percent)
{
	struct flat_list l = { 0 };
	int err;

	switch (mode) {
	case REPORT_CC_GRAPH:
	case REPORT_CC_FRACTAL:
		return sort_graph(&t->root, mode == REPORT_CC_FRACTAL, min_hit, min_percent / 100.0);
	case REPORT_CC_FLAT:
	case REPORT_CC_FOLDED:
		free(t->flat);
		t->flat = NULL;
		t->nflat = 0;
		if ((err = collect_flat(&t->root, min_hit, &l))) {
			free(l.v);
			return err;
		}
		sort_desc(l.v, l.n, true);
		t->flat = l.v;
		t->nflat = l.n;
		return 0;
	case REPORT_CC_NONE:
		break;
	}
	return 0;
}

/* ---- printing ---- */

const char *cc_frame_name(const struct cc_frame *f, char *buf, size_t len)
{
	if (f->sym)
		return f->sym;
	snprintf(buf, len, "%#" PRIx64, f->ip);
	return buf;
}

struct printer {
	struct out *out;
	const struct cc_print *p;
};

/*
 * perf keeps its depth mask in an int and shifts by the depth: past 31
 * levels the x86 shift count wraps, and so does ours.
 */
static unsigned bit(int i)
{
	return 1u << (i & 31);
}

static void value(struct printer *pr, uint64_t hit, uint64_t count, uint64_t total)
{
	switch (pr->p->value) {
	case REPORT_CC_PERIOD:
		out_u64(pr->out, hit);
		break;
	case REPORT_CC_COUNT:
		out_printf(pr->out, "%u", (unsigned)count);
		break;
	case REPORT_CC_PERCENT:
		out_printf(pr->out, "%.2f%%", total ? (double)hit * 100.0 / (double)total : 0.0);
		break;
	}
}

static void node_value(struct printer *pr, const struct cc_node *n, uint64_t total)
{
	if (pr->p->mode == REPORT_CC_FOLDED)
		value(pr, n->hit, n->count, total);
	else
		value(pr, cumul(n), cumul_count(n), total);
}

static const char margin[] = "            ";	/* perf's left margin: 12 spaces */

static void graph_line(struct printer *pr, int depth, unsigned mask, int left)
{
	out_str(pr->out, margin);
	for (int i = 0; i < left; i++)
		out_char(pr->out, ' ');
	for (int i = 0; i < depth; i++)
		out_str(pr->out, mask & bit(i) ? "|          " : "           ");
	out_char(pr->out, '\n');
}

/* One frame line; the first of a node carries the node's value: "|--12.34%--name". */
static void frame_line(struct printer *pr, uint64_t hit, uint64_t count, const char *name, int depth, unsigned mask,
		       bool first, uint64_t total, int left)
{
	out_str(pr->out, margin);
	for (int i = 0; i < left; i++)
		out_char(pr->out, ' ');
	for (int i = 0; i < depth; i++) {
		out_char(pr->out, mask & bit(i) ? '|' : ' ');
		if (first && i == depth - 1) {
			out_str(pr->out, "--");
			value(pr, hit, count, total);
			out_str(pr->out, "--");
		} else {
			out_str(pr->out, "          ");
		}
	}
	out_str(pr->out, name);
	out_char(pr->out, '\n');
}

/* The children of n at depth, perf's __callchain__fprintf_graph. Returns whether it printed. */
static bool graph_level(struct printer *pr, const struct cc_node *n, uint64_t total, int depth, unsigned mask,
			int left)
{
	const bool rel = pr->p->mode == REPORT_CC_FRACTAL;
	unsigned new_mask = mask;
	uint64_t remaining = total, counted = 0;
	const struct cc_node *child = NULL;
	unsigned printed = 0;
	char buf[64];

	for (size_t k = 0; k < n->nout; k++) {
		child = n->out[k];
		remaining -= cumul(child);
		counted += cumul_count(child);
		/* The last child closes its level's pipe, unless fractal mode's remainder follows. */
		if (k + 1 == n->nout && (!rel || !remaining))
			new_mask &= ~bit(depth - 1);
		graph_line(pr, depth, mask, left);
		for (size_t i = 0; i < child->nval; i++)
			frame_line(pr, cumul(child), cumul_count(child), cc_frame_name(&child->val[i], buf, sizeof(buf)),
				   depth, new_mask, i == 0, total, left);
		graph_level(pr, child, rel ? child->children_hit : total, depth + 1, new_mask | bit(depth), left);
		if (++printed == pr->p->print_limit)
			break;
	}
	if (rel && remaining && remaining != total) {
		uint64_t count = 0;

		if (pr->p->value == REPORT_CC_COUNT && child && child->parent) {
			int64_t c = (int64_t)child->parent->children_count - (int64_t)counted;

			if (c <= 0)
				return n->nout != 0;
			count = (uint64_t)c;
		}
		new_mask &= ~bit(depth - 1);
		/*
		 * perf 6.1 names the filtered remainder with a symbol whose flags
		 * it leaves uninitialised: it may print as "[...] (inlined)", as
		 * the heap has it.  The name is "[...]".
		 */
		frame_line(pr, remaining, count, "[...]", depth, new_mask, true, total, left);
	}
	return n->nout != 0 || (rel && remaining && remaining != total);
}

static void print_graph(struct printer *pr, const struct cc_tree *t, uint64_t total, uint64_t parent)
{
	const struct cc_node *root = &t->root;
	bool printed = false;
	int left = 0;
	char buf[64];

	/*
	 * One root holding the whole entry: no percentage for it (it would
	 * repeat the entry's), and its frames open the graph with "---".
	 */
	if (root->nout == 1 && cumul(root->out[0]) == parent) {
		const struct cc_node *c = root->out[0];
		unsigned shown = 0;

		for (size_t i = 0; i < c->nval; i++) {
			if (!i && pr->p->skip_first)
				continue;
			out_str(pr->out, margin);
			for (int s = 0; s < left; s++)
				out_char(pr->out, ' ');
			if (!printed) {
				out_str(pr->out, "|\n");
				out_str(pr->out, margin);
				out_str(pr->out, "---");
				left += 3;
				printed = true;
			}
			out_str(pr->out, cc_frame_name(&c->val[i], buf, sizeof(buf)));
			out_char(pr->out, '\n');
			if (++shown == pr->p->print_limit)
				break;
		}
		root = c;
	}
	if (pr->p->mode == REPORT_CC_FRACTAL)
		total = parent;
	if (graph_level(pr, root, total, 1, 1, left) || printed)
		out_char(pr->out, '\n');
}

/* The frames from the top of the tree down to n, each as print() wants it. */
static void path(struct printer *pr, const struct cc_node *n, bool folded, bool *first)
{
	char buf[64];

	if (!n || !n->parent)
		return;
	path(pr, n->parent, folded, first);
	for (size_t i = 0; i < n->nval; i++) {
		if (n->val[i].ip >= CONTEXT_MAX)
			continue;
		if (folded) {
			if (!*first)
				out_char(pr->out, ';');
			*first = false;
			out_str(pr->out, cc_frame_name(&n->val[i], buf, sizeof(buf)));
		} else {
			out_str(pr->out, "                ");
			out_str(pr->out, cc_frame_name(&n->val[i], buf, sizeof(buf)));
			out_char(pr->out, '\n');
		}
	}
}

void cc_tree_print(struct out *out, const struct cc_tree *t, const struct cc_print *p, uint64_t total,
		   uint64_t parent)
{
	struct printer pr = { .out = out, .p = p };

	switch (p->mode) {
	case REPORT_CC_GRAPH:
	case REPORT_CC_FRACTAL:
		print_graph(&pr, t, total, parent);
		break;
	case REPORT_CC_FLAT:
		for (size_t i = 0; i < t->nflat; i++) {
			bool first = true;

			out_str(out, "           ");
			node_value(&pr, t->flat[i], total);
			out_char(out, '\n');
			path(&pr, t->flat[i], false, &first);
			out_char(out, '\n');
			if (i + 1 == p->print_limit)
				break;
		}
		break;
	case REPORT_CC_FOLDED:
		for (size_t i = 0; i < t->nflat; i++) {
			bool first = true;

			node_value(&pr, t->flat[i], total);
			out_char(out, ' ');
			path(&pr, t->flat[i], true, &first);
			out_char(out, '\n');
			if (i + 1 == p->print_limit)
				break;
		}
		break;
	case REPORT_CC_NONE:
		break;
	}
}
