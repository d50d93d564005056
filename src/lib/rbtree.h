/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_LIB_RBTREE_H
#define MPERF_LIB_RBTREE_H

#include <stdbool.h>

/*
 * A red-black tree with the textbook rebalancing, which is the kernel's
 * (lib/rbtree.c gives the same shapes for the same insertions and
 * erasures): where perf's output depends on the shape of one of its
 * trees, mperf replays the same operations on this one.  Intrusive: embed
 * a struct rb_node and descend from the root yourself, then link the new
 * node at the empty slot the descent ended on.
 */
struct rb_node {
	struct rb_node *left, *right, *parent;
	bool red;
};

/* Link node at *link, the empty child slot of parent (NULL: the root), and rebalance. */
void rb_insert(struct rb_node **root, struct rb_node *node, struct rb_node *parent, struct rb_node **link);
/* Take node out of the tree, as the kernel's rb_erase(). */
void rb_erase(struct rb_node **root, struct rb_node *node);
/* In-order walk: the first node, and the one after node (NULL at the end). */
struct rb_node *rb_first(struct rb_node *root);
struct rb_node *rb_next(const struct rb_node *node);
/*
 * *out: a copy of the tree at root of the same shape, each node made by
 * copy (which copies its payload; left, right, parent and red are set
 * after).  0, or -1 when a copy failed: *out then holds the nodes made,
 * linked, for the caller to free.
 */
int rb_clone(const struct rb_node *root, struct rb_node **out,
	     struct rb_node *(*copy)(const struct rb_node *n, void *ctx), void *ctx);

#endif
