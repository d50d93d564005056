/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_REPORT_CALLCHAIN_H
#define MPERF_REPORT_CALLCHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "report.h"
#include "../lib/rbtree.h"
#include "../resolve/stackwalk.h"	/* struct cc_frame */

/*
 * The call chains of one histogram entry, aggregated as perf report does:
 * a radix tree of frames (a node holds a run of frames that every chain
 * through it shares, and splits where chains part), with the period of
 * the chains that end in each node (hit) and below it (children_hit).
 */
struct cc_node {
	struct cc_node *parent;
	struct cc_frame *val;	/* the frames of this node, in chain order */
	size_t nval;
	struct cc_node **kid;	/* in perf's insertion-tree order: by (dso, address), descending */
	size_t nkid, kcap;
	/*
	 * The children's insertion tree itself, a red-black tree as perf's
	 * rb_root_in: its comparison of frames with and without a symbol is
	 * no total order, so where a chain goes (and whether it finds its
	 * equal) depends on the tree's shape, which this one has.
	 */
	struct rb_node *rb_root;	/* of the children */
	struct rb_node rb;	/* among the parent's children */
	struct cc_node **out;	/* after cc_tree_sort: the children shown, in print order */
	size_t nout;
	uint64_t hit, children_hit;
	uint64_t count, children_count;
};

struct cc_tree {
	struct cc_node root;	/* no frames of its own */
	size_t max_depth;	/* the longest chain appended (perf sorts equal entries by it) */
	struct cc_node **flat;	/* after cc_tree_sort in flat or folded mode: the chains shown */
	size_t nflat;
	bool addr_frames;	/* a frame without a symbol or an inline one was appended: no memo */
	struct cc_memo *memo;	/* where recent chains ended (callchain.c) */
};

/* Add a chain of n frames (n may be 0: nothing is added) weighing period. 0 or -ENOMEM. */
int cc_tree_append(struct cc_tree *t, const struct cc_frame *f, size_t n, uint64_t period);
/* The same; *leaf gets the node where the chain ended (NULL for an empty one). */
int cc_tree_append_leaf(struct cc_tree *t, const struct cc_frame *f, size_t n, uint64_t period,
			struct cc_node **leaf);
/*
 * Whether a chain that ended at leaf, whose run then had nval frames, can
 * be added there again with cc_tree_add_again, as cc_tree_append would
 * add it: while the tree's frames all have symbols and no inline frame
 * (match_cmp orders them by dso and symbol start alone, a total order),
 * the path to leaf still spells that chain as long as leaf was not split.
 */
bool cc_tree_again(struct cc_tree *t, const struct cc_node *leaf, size_t nval);
void cc_tree_add_again(struct cc_node *leaf, uint64_t period);
void cc_tree_free(struct cc_tree *t);
/*
 * Merge src into dst as perf's callchain_merge does (two entries that
 * its collapse tree finds equal): each chain that ends in a node of src,
 * in src's order, appended to dst once with that node's period.
 */
int cc_tree_merge(struct cc_tree *dst, const struct cc_tree *src);
/*
 * dst: a copy of src, node for node (each node's children tree of the same
 * shape), unsorted, with no memo: what src holds, to sort and print while
 * src grows on.  0, or -ENOMEM (dst then empty).
 */
int cc_tree_clone(struct cc_tree *dst, const struct cc_tree *src);

/*
 * Choose and order what is shown, as perf's callchain sort does for mode:
 * graph keeps the children whose total is at least min_hit; fractal those
 * at least min_percent of their parent's; flat and folded list the nodes
 * where at least min_hit of chains end.  0 or -ENOMEM.
 */
int cc_tree_sort(struct cc_tree *t, enum report_cc_mode mode, uint64_t min_hit, double min_percent);

struct out;

struct cc_print {
	enum report_cc_mode mode;
	enum report_cc_value value;
	unsigned print_limit;	/* 0: no limit */
	bool skip_first;	/* sorted by symbol first: the single root's first frame is the entry's */
};

/*
 * The chains under an entry, in perf report --stdio's shape: total is the
 * event's total period, parent the entry's own (its Children share when
 * accumulating, else its Self).
 */
void cc_tree_print(struct out *out, const struct cc_tree *t, const struct cc_print *p, uint64_t total,
		   uint64_t parent);

/* The name perf prints for a frame: its symbol, or its address in hex. */
const char *cc_frame_name(const struct cc_frame *f, char *buf, size_t len);

#endif
