// SPDX-License-Identifier: GPL-2.0-only
/*
 * The red-black tree perf's tree shapes are replayed on: a hand-worked
 * shape after inserts and an erase (the kernel's and the textbook's), and
 * the invariants (order, red rule, black heights, parent links) through
 * thousands of random inserts and erases.
 */
#include <stdlib.h>
#include <string.h>
#include "../../src/lib/rbtree.h"
#include "tap.h"

struct item {
	struct rb_node n;	/* first: a node is its item */
	int key;
};

static struct rb_node *root;

static void insert(struct item *it)
{
	struct rb_node **link = &root, *parent = NULL;

	while (*link) {
		parent = *link;
		link = it->key < ((struct item *)parent)->key ? &parent->left : &parent->right;
	}
	rb_insert(&root, &it->n, parent, link);
}

static void preorder(const struct rb_node *n, char *buf)
{
	if (!n)
		return;
	sprintf(buf + strlen(buf), "%d%c ", ((const struct item *)n)->key, n->red ? 'r' : 'b');
	preorder(n->left, buf);
	preorder(n->right, buf);
}

/* The black height of n's subtree, or -1 when a rule is broken. */
static int check(const struct rb_node *n, const struct rb_node *parent)
{
	int l, r;

	if (!n)
		return 1;
	if (n->parent != parent || (n->red && ((n->left && n->left->red) || (n->right && n->right->red))))
		return -1;
	l = check(n->left, n);
	r = check(n->right, n);
	if (l < 0 || r != l)
		return -1;
	return l + !n->red;
}

static void test_shapes(void)
{
	struct item it[8];
	char buf[256] = "";

	root = NULL;
	for (int i = 1; i <= 7; i++) {
		it[i].key = i;
		insert(&it[i]);
	}
	preorder(root, buf);
	is_str(buf, "2b 1b 4r 3b 6b 5r 7r ", "1..7 ascending: the textbook shape");
	rb_erase(&root, &it[2].n);
	buf[0] = 0;
	preorder(root, buf);
	is_str(buf, "3b 1b 6r 4b 5r 7b ", "erasing the root: its successor takes its place, then a left rotation");
}

static void test_random(void)
{
	enum { N = 2000 };
	static struct item it[N];
	static bool in[N];
	bool ok = true, order = true;
	unsigned seed = 1;
	int count = 0;

	root = NULL;
	for (int step = 0; step < 20000 && ok; step++) {
		int k;

		seed = seed * 1103515245u + 12345u;
		k = (int)((seed >> 8) % N);
		if (in[k]) {
			rb_erase(&root, &it[k].n);
			in[k] = false;
			count--;
		} else {
			it[k].key = k;
			insert(&it[k]);
			in[k] = true;
			count++;
		}
		ok = check(root, NULL) > 0 && (!root || !root->red);
	}
	ok(ok, "red rule, black heights and parents hold through 20000 random inserts and erases");
	int n = 0, last = -1;

	for (struct rb_node *x = rb_first(root); x; x = rb_next(x), n++) {
		order = order && ((struct item *)x)->key > last;
		last = ((struct item *)x)->key;
	}
	ok(order, "the in-order walk is sorted");
	is_int(n, count, "the walk visits every node left in the tree");
}

static struct rb_node *copy_item(const struct rb_node *n, void *ctx)
{
	struct item *c = malloc(sizeof(*c));
	int *made = ctx;

	if (!c || ++*made > 5) {
		free(c);
		return NULL;	/* the sixth fails: a copy cut short */
	}
	c->key = ((const struct item *)n)->key;
	return &c->n;
}

static void free_items(struct rb_node *n)
{
	if (!n)
		return;
	free_items(n->left);
	free_items(n->right);
	free(n);
}

/* rb_clone: the same shape and colours, parents linked; a failed copy leaves what it made, linked. */
static void test_clone(void)
{
	struct item it[8];
	struct rb_node *copy = NULL;
	char a[256] = "", b[256] = "";
	int made = 0;

	root = NULL;
	for (int i = 1; i <= 5; i++) {
		it[i].key = 6 - i;
		insert(&it[i]);
	}
	ok(rb_clone(root, &copy, copy_item, &made) == 0 && copy != root, "clone: five nodes copied");
	preorder(root, a);
	preorder(copy, b);
	is_str(b, a, "clone: the same shape and colours");
	ok(check(copy, NULL) > 0, "clone: its parent links and rules hold");
	free_items(copy);
	it[6].key = 6;
	insert(&it[6]);
	made = 0;
	ok(rb_clone(root, &copy, copy_item, &made) < 0 && copy, "clone: a copy that fails is said");
	made = 0;
	for (struct rb_node *x = rb_first(copy); x; x = rb_next(x))
		made++;
	is_int(made, 5, "clone: the five nodes made before it are linked (walked in order by their parents)");
	free_items(copy);
}

int main(void)
{
	test_shapes();
	test_random();
	test_clone();
	return done_testing();
}
