// SPDX-License-Identifier: GPL-2.0-only
/*
 * The call-chain tree: chains merged as perf merges them (runs of shared
 * frames in one node, split where chains part or end), the hits of each
 * node, sibling order, and the printed shapes of graph, folded and flat
 * mode for a hand-built set of chains.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/report/callchain.h"
#include "../../src/report/out.h"
#include "tap.h"

static const char dso_a[] = "/bin/a", dso_b[] = "/lib/b.so";

/* A frame named by one letter: symbol start 0x100 * letter, in dso_a unless upper case. */
static struct cc_frame fr(char c)
{
	static char names[26][2];
	struct cc_frame f = { 0 };
	int i = (c | 0x20) - 'a';

	names[i][0] = (char)(c | 0x20);
	f.sym = names[i];
	f.dso = c >= 'a' ? dso_a : dso_b;
	f.dso_rank = c >= 'a' ? 1 : 2;
	f.dso_name = c >= 'a' ? "a" : "b.so";
	f.start = 0x100u * (unsigned)(i + 1);
	f.end = f.start + 0x100;
	f.ip = f.start + 8;
	return f;
}

/* Append the chain spelled by s ("mab": m, a, b) with period p. */
static int add(struct cc_tree *t, const char *s, uint64_t p)
{
	struct cc_frame f[32];
	size_t n = 0;

	for (; *s && n < 32; s++)
		f[n++] = fr(*s);
	return cc_tree_append(t, f, n, p);
}

/* The node's frames as letters. */
static const char *run(const struct cc_node *n)
{
	static char buf[64];
	size_t i;

	for (i = 0; i < n->nval && i + 1 < sizeof(buf); i++)
		buf[i] = n->val[i].sym[0];
	buf[i] = 0;
	return buf;
}

static char *print(const struct cc_tree *t, enum report_cc_mode mode, uint64_t total, uint64_t parent)
{
	struct cc_print p = { .mode = mode, .value = REPORT_CC_PERCENT };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct out o;

	if (!f || out_init(&o, f))
		return NULL;
	cc_tree_print(&o, t, &p, total, parent);
	out_finish(&o);
	free(o.buf);
	fclose(f);
	return buf;
}

static void test_merge_and_split(void)
{
	struct cc_tree t = { 0 };
	const struct cc_node *r, *mab, *c, *d;

	ok(!add(&t, "mabc", 10) && !add(&t, "mabd", 5) && !add(&t, "mab", 2) && !add(&t, "mabc", 1),
	   "four chains appended");
	r = &t.root;
	is_int((long long)r->nkid, 1, "one root child: every chain starts m a b");
	mab = r->kid[0];
	is_str(run(mab), "mab", "the shared run is one node");
	is_u64(mab->hit, 2, "a chain ending in the run hits it");
	is_u64(mab->children_hit, 16, "and the rest is below");
	is_u64(r->children_hit, 18, "the root holds every period");
	is_int((long long)mab->nkid, 2, "two children where the chains part");
	/* perf's insertion order: the greater symbol start first */
	d = mab->kid[0];
	c = mab->kid[1];
	is_str(run(d), "d", "siblings: d (start 0x400) before c");
	is_u64(c->hit, 11, "c: 10 + 1");
	is_u64(c->count, 2, "c: two samples");
	is_u64(d->hit, 5, "d: 5");
	is_int((long long)t.max_depth, 4, "max depth is the longest chain");
	cc_tree_free(&t);
}

static void test_sort_and_print(void)
{
	struct cc_tree t = { 0 };
	char *s;

	add(&t, "mabc", 60);
	add(&t, "mabd", 30);
	add(&t, "mx", 10);
	ok(!cc_tree_sort(&t, REPORT_CC_GRAPH, 0, 0.5), "graph sort");
	s = print(&t, REPORT_CC_GRAPH, 100, 100);
	is_str(s,
	       "            |\n"
	       "            ---m\n"
	       "               |          \n"
	       "               |--90.00%--a\n"
	       "               |          b\n"
	       "               |          |          \n"
	       "               |          |--60.00%--c\n"
	       "               |          |          \n"
	       "               |           --30.00%--d\n"
	       "               |          \n"
	       "                --10.00%--x\n"
	       "\n",
	       "graph: one root opens with ---, branches with --N%%--");
	free(s);
	ok(!cc_tree_sort(&t, REPORT_CC_GRAPH, 20, 0.5), "graph sort, threshold 20");
	s = print(&t, REPORT_CC_GRAPH, 100, 100);
	ok(s && !strstr(s, "--10.00%--x") && strstr(s, "--30.00%--d"), "the threshold hides x, keeps d");
	free(s);
	s = print(&t, REPORT_CC_GRAPH, 200, 50);
	ok(s && strstr(s, "--100.00%--m") == NULL && strstr(s, "--50.00%--m"),
	   "a root not the whole entry gets its percentage");
	free(s);
	ok(!cc_tree_sort(&t, REPORT_CC_FOLDED, 0, 0.5), "folded sort");
	s = print(&t, REPORT_CC_FOLDED, 100, 100);
	is_str(s, "60.00% m;a;b;c\n30.00% m;a;b;d\n10.00% m;x\n", "folded: one line per chain, by hits");
	free(s);
	ok(!cc_tree_sort(&t, REPORT_CC_FLAT, 15, 0.5), "flat sort, threshold 15");
	s = print(&t, REPORT_CC_FLAT, 100, 100);
	is_str(s,
	       "           60.00%\n                m\n                a\n                b\n                c\n\n"
	       "           30.00%\n                m\n                a\n                b\n                d\n\n",
	       "flat: each chain from the top, below the threshold left out");
	free(s);
	cc_tree_free(&t);
}

static void test_dsos_and_addresses(void)
{
	struct cc_tree t = { 0 };
	struct cc_frame f[2] = { fr('m'), fr('a') }, g[2] = { fr('m'), fr('A') };
	char buf[32];

	/* The same symbol start in two DSOs: two frames; the later DSO sorts first. */
	add(&t, "m", 1);
	cc_tree_append(&t, f, 2, 1);
	cc_tree_append(&t, g, 2, 1);
	is_int((long long)t.root.kid[0]->nkid, 2, "a and A (same start, other dso) are two children");
	is_str(t.root.kid[0]->kid[0]->val[0].dso_name, "b.so", "the higher-ranked dso first");
	/* Unresolved frames match by address, and print it. */
	f[1].sym = NULL;
	f[1].ip = 0x401234;
	is_str(cc_frame_name(&f[1], buf, sizeof(buf)), "0x401234", "an unresolved frame prints its address");
	ok(!cc_tree_append(&t, f, 0, 5), "an empty chain adds nothing");
	is_u64(t.root.children_hit, 3, "and weighs nothing");
	cc_tree_free(&t);
}

/* perf's collapse merges an entry's chains into an equal one's, its depth left as it was. */
static void test_tree_merge(void)
{
	struct cc_tree dst = { 0 }, src = { 0 };
	char *s;

	add(&dst, "mab", 3);
	add(&src, "mabcd", 2);
	add(&src, "mx", 1);
	ok(!cc_tree_merge(&dst, &src), "merged");
	is_u64(dst.root.children_hit, 6, "every period");
	is_int((long long)dst.max_depth, 3, "the depth is the first part's: the merged entry ties as perf's does");
	ok(!cc_tree_sort(&dst, REPORT_CC_FOLDED, 0, 0), "sorted after the merge");
	s = print(&dst, REPORT_CC_FOLDED, 6, 6);
	is_str(s, "50.00% m;a;b\n33.33% m;a;b;c;d\n16.67% m;x\n", "the merged chains, whole");
	free(s);
	cc_tree_free(&dst);
	cc_tree_free(&src);
}

/* Whether two trees have the same nodes, runs, order and hits. */
static bool same_tree(const struct cc_node *a, const struct cc_node *b)
{
	if (a->nval != b->nval || a->nkid != b->nkid || a->hit != b->hit || a->count != b->count ||
	    a->children_hit != b->children_hit || a->children_count != b->children_count)
		return false;
	for (size_t i = 0; i < a->nval; i++)
		if (a->val[i].sym != b->val[i].sym || a->val[i].ip != b->val[i].ip)
			return false;
	for (size_t i = 0; i < a->nkid; i++)
		if (a->kid[i]->parent != a || !same_tree(a->kid[i], b->kid[i]))
			return false;
	return true;
}

/*
 * Chains that come back, as a report's do: where they ended is kept, and
 * adding them there must leave the tree as the descent would, across
 * splits above and at that node, and chains that end inside a run.
 */
static void test_repeated_chains(void)
{
	static const char *const seq[] = {
		"mabc", "mabc", "mabd", "mabc", "mab", "mabc", "ma", "mab", "mabd", "mxy", "mabc",
		"m", "mxy", "mx", "mabc", "mabd", "mab", "ma", "m", "mxyz", "mxy",
	};
	struct cc_tree t = { 0 }, ref = { .addr_frames = true };	/* ref: the descent alone */
	bool okay = true;

	for (int round = 0; round < 3; round++)
		for (size_t i = 0; i < sizeof(seq) / sizeof(*seq); i++)
			okay &= !add(&t, seq[i], i + 1) && !add(&ref, seq[i], i + 1);
	ok(okay, "chains appended, again and again");
	ok(same_tree(&t.root, &ref.root), "the same tree as the descent alone makes");
	is_int((long long)t.max_depth, (long long)ref.max_depth, "the same depth");
	cc_tree_free(&t);
	cc_tree_free(&ref);
}

int main(void)
{
	test_merge_and_split();
	test_repeated_chains();
	test_tree_merge();
	test_sort_and_print();
	test_dsos_and_addresses();
	return done_testing();
}
