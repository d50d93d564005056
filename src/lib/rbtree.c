// SPDX-License-Identifier: GPL-2.0-only
#include "rbtree.h"

#include <stddef.h>

static void replace_child(struct rb_node **root, struct rb_node *old, struct rb_node *new)
{
	struct rb_node *p = old->parent;

	if (!p)
		*root = new;
	else if (p->left == old)
		p->left = new;
	else
		p->right = new;
	if (new)
		new->parent = p;
}

/* Rotate x down to the left (its right child comes up) or to the right. */
static void rotate(struct rb_node **root, struct rb_node *x, bool left)
{
	struct rb_node *y = left ? x->right : x->left;
	struct rb_node *mid = left ? y->left : y->right;

	if (left)
		x->right = mid;
	else
		x->left = mid;
	if (mid)
		mid->parent = x;
	replace_child(root, x, y);
	if (left)
		y->left = x;
	else
		y->right = x;
	x->parent = y;
}

static bool is_red(const struct rb_node *n)
{
	return n && n->red;
}

void rb_insert(struct rb_node **root, struct rb_node *z, struct rb_node *parent, struct rb_node **link)
{
	z->left = z->right = NULL;
	z->parent = parent;
	z->red = true;
	*link = z;
	while (is_red(z->parent)) {
		struct rb_node *p = z->parent, *g = p->parent;
		bool pleft = p == g->left;
		struct rb_node *u = pleft ? g->right : g->left;

		if (is_red(u)) {
			p->red = false;
			u->red = false;
			g->red = true;
			z = g;
			continue;
		}
		if (z == (pleft ? p->right : p->left)) {
			z = p;
			rotate(root, z, pleft);
		}
		z->parent->red = false;
		g->red = true;
		rotate(root, g, !pleft);
	}
	(*root)->red = false;
}

/* x (maybe NULL), a child of p, is short of one black: restore the black heights. */
static void erase_fixup(struct rb_node **root, struct rb_node *x, struct rb_node *p)
{
	while (p && !is_red(x)) {
		bool xleft = x == p->left;
		struct rb_node *w = xleft ? p->right : p->left;

		if (is_red(w)) {
			w->red = false;
			p->red = true;
			rotate(root, p, xleft);
			w = xleft ? p->right : p->left;
		}
		if (!is_red(w->left) && !is_red(w->right)) {
			w->red = true;
			x = p;
			p = x->parent;
			continue;
		}
		if (!is_red(xleft ? w->right : w->left)) {
			(xleft ? w->left : w->right)->red = false;
			w->red = true;
			rotate(root, w, !xleft);
			w = xleft ? p->right : p->left;
		}
		w->red = p->red;
		p->red = false;
		(xleft ? w->right : w->left)->red = false;
		rotate(root, p, xleft);
		x = *root;
		p = NULL;
	}
	if (x)
		x->red = false;
}

void rb_erase(struct rb_node **root, struct rb_node *z)
{
	struct rb_node *x, *xp;
	bool removed_red;

	if (!z->left || !z->right) {
		x = z->left ? z->left : z->right;
		xp = z->parent;
		removed_red = z->red;
		replace_child(root, z, x);
	} else {
		struct rb_node *y = z->right;

		while (y->left)
			y = y->left;
		removed_red = y->red;
		x = y->right;
		if (y->parent == z) {
			xp = y;
		} else {
			xp = y->parent;
			replace_child(root, y, x);
			y->right = z->right;
			y->right->parent = y;
		}
		replace_child(root, z, y);
		y->left = z->left;
		y->left->parent = y;
		y->red = z->red;
	}
	if (!removed_red)
		erase_fixup(root, x, xp);
}

struct rb_node *rb_first(struct rb_node *n)
{
	while (n && n->left)
		n = n->left;
	return n;
}

struct rb_node *rb_next(const struct rb_node *n)
{
	const struct rb_node *p;

	if (n->right)
		return rb_first(n->right);
	while ((p = n->parent) && n == p->right)
		n = p;
	return (struct rb_node *)p;
}

/*
 * A copy of the tree at root, node for node, red for red: copy makes the
 * node of each node of it (its payload copied), which is then linked as
 * the original is.  The copy's root, or NULL (an empty tree, or copy's
 * NULL: the nodes made so far are linked, for the caller to free).
 */
static struct rb_node *clone_at(const struct rb_node *n, struct rb_node *parent,
				struct rb_node *(*copy)(const struct rb_node *n, void *ctx), void *ctx, bool *failed)
{
	struct rb_node *c;

	if (!n || *failed)
		return NULL;
	if (!(c = copy(n, ctx))) {
		*failed = true;
		return NULL;
	}
	c->parent = parent;
	c->red = n->red;
	c->left = clone_at(n->left, c, copy, ctx, failed);
	c->right = clone_at(n->right, c, copy, ctx, failed);
	return c;
}

int rb_clone(const struct rb_node *root, struct rb_node **out,
	     struct rb_node *(*copy)(const struct rb_node *n, void *ctx), void *ctx)
{
	bool failed = false;

	*out = clone_at(root, NULL, copy, ctx, &failed);
	return failed ? -1 : 0;
}
