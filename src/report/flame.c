// SPDX-License-Identifier: GPL-2.0-only
/*
 * mperf report --format=svg: an interactive flame graph of the stacks
 * export.c gathered, one per event in one file (a switcher shows one at a
 * time).  Each frame is a rectangle as wide as its samples, stacked on its
 * caller, siblings in name order; its name is cut to fit, whole in its
 * tooltip.  The embedded script zooms into a clicked frame, searches
 * names (a regular expression; matches turn magenta, their share is
 * shown) and switches events.  Colours say what a frame is: user code,
 * the kernel, JIT code (/tmp/perf-PID.map), an inline frame, or no map.
 *
 * mperf diff --format=svg draws the new side's graph the same way, each
 * frame coloured by how its share of the event moved since the baseline
 * (the share of the same path of names there), as Brendan Gregg's
 * difffolded.pl and flamegraph.pl draw it: red grew, blue shrank, the
 * deeper the larger the move, against the largest move of the graph.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "../lib/err.h"
#include "../lib/hash.h"
#include "../lib/log.h"
#include "export.h"
#include "out.h"

#define IMG_WIDTH 1200
#define XPAD 10
#define FRAME_H 16
#define TOP 88			/* title, events, legend */
#define BOTTOM 34		/* the details line */
#define FONT_W 7.2		/* px per character of the 12px font, about */
#define MIN_W 0.1		/* narrower frames are left out, as flame graph tools do */

/* A node of an event's tree: a frame name under its caller. */
enum { NK_ROOT = 100, NK_COMM };

struct fnode {
	const char *name;
	int kind;		/* enum xkind, NK_ROOT or NK_COMM */
	uint32_t parent;
	uint32_t kids, next;	/* first child, next sibling, + 1 (0: none) */
	uint32_t depth;
	uint64_t n;		/* samples */
	uint64_t x;		/* its first sample, in the event's order */
};

struct tree {
	struct fnode *v;
	size_t n, cap;
	uint32_t *h;		/* (parent, name) -> node + 1 */
	size_t hcap;
	uint32_t max_depth;
};

static uint64_t node_hash(uint32_t parent, const char *name)
{
	return hash_u64(hash_mix(hash_str(name), parent));
}

static int tree_grow_hash(struct tree *t)
{
	size_t ncap = t->hcap ? t->hcap * 2 : 1024;
	uint32_t *h = calloc(ncap, sizeof(*h));

	if (!h)
		return -ENOMEM;
	for (size_t i = 1; i < t->n; i++) {
		size_t b = (size_t)node_hash(t->v[i].parent, t->v[i].name) & (ncap - 1);

		while (h[b])
			b = (b + 1) & (ncap - 1);
		h[b] = (uint32_t)i + 1;
	}
	free(t->h);
	t->h = h;
	t->hcap = ncap;
	return 0;
}

/* The child of parent named name, or -1. */
static int64_t find_child(const struct tree *t, uint32_t parent, const char *name)
{
	if (!t->hcap)
		return -1;
	for (size_t b = (size_t)node_hash(parent, name) & (t->hcap - 1); t->h[b]; b = (b + 1) & (t->hcap - 1)) {
		const struct fnode *c = &t->v[t->h[b] - 1];

		if (c->parent == parent && !strcmp(c->name, name))
			return t->h[b] - 1;
	}
	return -1;
}

/* The child of parent named name (added, of kind, when new), or -ENOMEM. */
static int64_t child(struct tree *t, uint32_t parent, const char *name, int kind)
{
	size_t b;
	struct fnode *c;

	if ((t->n + 1) * 2 > t->hcap && tree_grow_hash(t))
		return -ENOMEM;
	b = (size_t)node_hash(parent, name) & (t->hcap - 1);
	for (; t->h[b]; b = (b + 1) & (t->hcap - 1)) {
		c = &t->v[t->h[b] - 1];
		if (c->parent == parent && !strcmp(c->name, name))
			return t->h[b] - 1;
	}
	if (t->n >= UINT32_MAX - 1 || ALLOC_GROW(t->v, t->n + 1, t->cap))
		return -ENOMEM;
	c = &t->v[t->n];
	*c = (struct fnode){ .name = name, .kind = kind, .parent = parent, .depth = t->v[parent].depth + 1 };
	if (c->depth > t->max_depth)
		t->max_depth = c->depth;
	t->h[b] = (uint32_t)++t->n;
	return (int64_t)(t->n - 1);
}

/* The tree of event e: "all", then each stack's comm and frames, merged by name. */
static int build(const struct export *X, size_t e, struct tree *t)
{
	memset(t, 0, sizeof(*t));
	if (ALLOC_GROW(t->v, 1, t->cap))
		return -ENOMEM;
	t->v[0] = (struct fnode){ .name = "all", .kind = NK_ROOT };
	t->n = 1;
	for (size_t i = 0; i < X->ns; i++) {
		const struct xstack *s = &X->sv[i];
		int64_t at;

		if ((size_t)s->evsel != e)
			continue;
		t->v[0].n += s->count;
		if ((at = child(t, 0, s->comm, NK_COMM)) < 0)
			return -ENOMEM;
		t->v[at].n += s->count;
		for (uint32_t f = 0; f < s->n; f++) {
			const struct xframe *x = xstack_frame(X, s, f);

			if ((at = child(t, (uint32_t)at, x->name, x->kind)) < 0)
				return -ENOMEM;
			t->v[at].n += s->count;
		}
	}
	return 0;
}

static const struct tree *sort_tree;

static int by_name(const void *a, const void *b)
{
	const struct fnode *x = &sort_tree->v[*(const uint32_t *)a], *y = &sort_tree->v[*(const uint32_t *)b];

	return strcmp(x->name, y->name);
}

/*
 * Link each node's children in name order and give every node its first
 * sample: a parent's children follow each other from the parent's own.
 * Nodes come after their parents, so one pass in order places them all.
 */
static int layout(struct tree *t)
{
	uint32_t *order = malloc((t->n ? t->n : 1) * sizeof(*order));
	uint32_t *cnt = calloc(t->n ? t->n : 1, sizeof(*cnt));
	uint32_t *start = calloc(t->n + 1, sizeof(*start));

	if (!order || !cnt || !start) {
		free(order);
		free(cnt);
		free(start);
		return -ENOMEM;
	}
	/* Children grouped by parent (a counting sort), then each group by name. */
	for (size_t i = 1; i < t->n; i++)
		cnt[t->v[i].parent]++;
	for (size_t i = 0; i < t->n; i++)
		start[i + 1] = start[i] + cnt[i];
	memset(cnt, 0, t->n * sizeof(*cnt));
	for (size_t i = 1; i < t->n; i++) {
		uint32_t p = t->v[i].parent;

		order[start[p] + cnt[p]++] = (uint32_t)i;
	}
	sort_tree = t;
	for (size_t p = 0; p < t->n; p++) {
		uint64_t x = t->v[p].x;
		uint32_t *kids = order + start[p];

		qsort(kids, cnt[p], sizeof(*kids), by_name);
		for (uint32_t k = 0; k < cnt[p]; k++) {
			t->v[kids[k]].x = x;
			x += t->v[kids[k]].n;
			t->v[kids[k]].next = k + 1 < cnt[p] ? kids[k + 1] + 1 : 0;
		}
		t->v[p].kids = cnt[p] ? kids[0] + 1 : 0;
	}
	free(order);
	free(cnt);
	free(start);
	return 0;
}

/* The text shown in a frame w px wide: the name, cut with ".." to fit, or none (*len 0). */
static size_t fit(const char *name, double w, bool *cut)
{
	size_t chars = w > 6 ? (size_t)((w - 6) / FONT_W) : 0, len = strlen(name);

	*cut = false;
	if (chars < 3)
		return 0;
	if (len <= chars)
		return len;
	/* never inside a UTF-8 sequence */
	len = chars - 2;
	while (len && ((unsigned char)name[len] & 0xc0) == 0x80)
		len--;
	*cut = true;
	return len;
}

/* A frame's colour: the family of its kind, the shade from its name. */
static void colour(struct out *o, const char *name, int kind)
{
	uint64_t h = hash_str(name);
	unsigned v1 = (unsigned)(h & 0xff), v2 = (unsigned)((h >> 8) & 0xff), v3 = (unsigned)((h >> 16) & 0xff);
	unsigned r, g, b;

	switch (kind) {
	case XK_KERNEL: r = 230 + v1 * 25 / 255; g = 140 + v2 * 60 / 255; b = v3 * 60 / 255; break;
	case XK_JIT: r = 50 + v1 * 60 / 255; g = 180 + v2 * 60 / 255; b = 50 + v3 * 60 / 255; break;
	case XK_INLINED: r = 60 + v1 * 50 / 255; g = 190 + v2 * 40 / 255; b = 190 + v3 * 40 / 255; break;
	case XK_UNKNOWN: r = g = b = 175 + v1 * 35 / 255; break;
	case NK_ROOT: r = g = b = 200; break;
	case NK_COMM: r = 215 + v1 * 25 / 255; g = 215 + v1 * 25 / 255; b = 110 + v3 * 40 / 255; break;
	default: r = 205 + v1 * 50 / 255; g = 40 + v2 * 70 / 255; b = 40 + v3 * 50 / 255; break;
	}
	out_printf(o, "rgb(%u,%u,%u)", r, g, b);
}

/*
 * The change of each node's share of nt (points) since ot, the same path
 * of names there (ot NULL or empty: the whole share is new), in delta[];
 * the largest move in *maxd.  Parents come before their children.
 */
static int diff_deltas(const struct tree *nt, const struct tree *ot, double *delta, double *maxd)
{
	int64_t *at = malloc(nt->n * sizeof(*at));
	double ototal = ot && ot->n ? (double)ot->v[0].n : 0;

	if (!at)
		return -ENOMEM;
	*maxd = 0;
	for (size_t i = 0; i < nt->n; i++) {
		const struct fnode *f = &nt->v[i];
		double was = 0;

		at[i] = !ototal ? -1 : i == 0 ? 0 : at[f->parent] < 0 ? -1 : find_child(ot, (uint32_t)at[f->parent], f->name);
		if (at[i] >= 0)
			was = 100.0 * (double)ot->v[at[i]].n / ototal;
		delta[i] = 100.0 * (double)f->n / (double)nt->v[0].n - was;
		if (fabs(delta[i]) > *maxd)
			*maxd = fabs(delta[i]);
	}
	free(at);
	return 0;
}

/* A frame's colour in the differential graph: white to red as it grew, to blue as it shrank. */
static void diff_colour(struct out *o, double d, double maxd)
{
	unsigned v = maxd > 0 ? (unsigned)(210.0 * (1.0 - fabs(d) / maxd) + 0.5) : 210;

	if (fabs(d) < 0.005)
		out_str(o, "rgb(245,245,245)");
	else if (d > 0)
		out_printf(o, "rgb(255,%u,%u)", v, v);
	else
		out_printf(o, "rgb(%u,%u,255)", v, v);
}

static const char *kind_name(int kind)
{
	switch (kind) {
	case XK_KERNEL: return "kernel";
	case XK_JIT: return "JIT";
	case XK_INLINED: return "inlined";
	case XK_UNKNOWN: return "no map";
	case NK_ROOT: return "all samples";
	case NK_COMM: return "command";
	default: return "user";
	}
}

/* The frames of t; delta (NULL: report's graph) the change of each one's share, maxd the largest. */
static void print_frames(struct out *o, const struct tree *t, int height, const double *delta, double maxd)
{
	double scale = (double)(IMG_WIDTH - 2 * XPAD) / (double)t->v[0].n;

	for (size_t i = 0; i < t->n; i++) {
		const struct fnode *f = &t->v[i];
		double w = (double)f->n * scale, x = XPAD + (double)f->x * scale;
		int y = height - BOTTOM - (int)(f->depth + 1) * FRAME_H;
		size_t len;
		bool cut;

		if (w < MIN_W)
			continue;
		out_printf(o, "<g class=\"f\" data-x=\"%" PRIu64 "\" data-n=\"%" PRIu64 "\"><title>", f->x, f->n);
		out_xml(o, f->name, SIZE_MAX);
		out_printf(o, "\n%" PRIu64 " sample%s, %.2f%%, ", f->n, f->n == 1 ? "" : "s",
			   100.0 * (double)f->n / (double)t->v[0].n);
		if (delta)
			out_printf(o, "%+.2f points since the baseline (%.2f%%)", delta[i],
				   100.0 * (double)f->n / (double)t->v[0].n - delta[i]);
		else
			out_str(o, kind_name(f->kind));
		out_printf(o, "</title><rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" rx=\"2\" fill=\"", x, y, w,
			   FRAME_H - 1);
		if (delta)
			diff_colour(o, delta[i], maxd);
		else
			colour(o, f->name, f->kind);
		out_printf(o, "\"/><text x=\"%.2f\" y=\"%d\"%s>", x + 3, y + 11,
			   /* white on the deepest reds and blues */
			   delta && maxd > 0 && fabs(delta[i]) > maxd * 0.6 ? " style=\"fill: rgb(255,255,255)\"" : "");
		if ((len = fit(f->name, w, &cut))) {
			out_xml(o, f->name, len);
			if (cut)
				out_str(o, "..");
		}
		out_str(o, "</text></g>\n");
	}
}

/* The viewer: zoom, search, events.  Written for this file's elements. */
static const char script[] =
	"\"use strict\";\n"
	"var svg, cur, details, matched, unzoom, title, term = null;\n"
	"var XPAD = " "10" ", FW = " "1180" ", FONT_W = 7.2, MIN_W = 0.1;\n"
	"function init() {\n"
	"  svg = document.documentElement;\n"
	"  details = document.getElementById(\"details\");\n"
	"  matched = document.getElementById(\"matched\");\n"
	"  unzoom = document.getElementById(\"unzoom\");\n"
	"  title = document.getElementById(\"subtitle\");\n"
	"  svg.addEventListener(\"click\", function (e) {\n"
	"    var g = frameOf(e.target);\n"
	"    if (g) zoom(g);\n"
	"  });\n"
	"  svg.addEventListener(\"mouseover\", function (e) {\n"
	"    var g = frameOf(e.target);\n"
	"    details.textContent = g ? g.querySelector(\"title\").textContent.replace(\"\\n\", \" \\u2014 \") : \" \";\n"
	"  });\n"
	"  document.getElementById(\"search\").addEventListener(\"click\", function () {\n"
	"    if (term !== null) clearSearch(); else ask();\n"
	"  });\n"
	"  unzoom.addEventListener(\"click\", function () { zoomTo(null); });\n"
	"  var sw = document.querySelectorAll(\".evsel\");\n"
	"  for (var i = 0; i < sw.length; i++)\n"
	"    sw[i].addEventListener(\"click\", (function (k) { return function () { show(k); }; })(i));\n"
	"  window.addEventListener(\"keydown\", function (e) {\n"
	"    if (e.keyCode === 114 || ((e.ctrlKey || e.metaKey) && e.keyCode === 70)) {\n"
	"      e.preventDefault();\n"
	"      ask();\n"
	"    } else if (e.keyCode === 27) {\n"
	"      zoomTo(null);\n"
	"      clearSearch();\n"
	"    }\n"
	"  });\n"
	/* file.svg?e=N&s=REGEX&z=NAME: event N (from 0), names matching REGEX searched, the widest NAME zoomed */
	"  var q = {}, a = location.search.slice(1).split(\"&\");\n"
	"  for (var j = 0; j < a.length; j++) {\n"
	"    var kv = a[j].split(\"=\");\n"
	"    if (kv.length === 2) q[kv[0]] = decodeURIComponent(kv[1]);\n"
	"  }\n"
	"  show(q.e && +q.e < sw.length ? +q.e : 0);\n"
	"  if (q.s) search(q.s);\n"
	"  if (q.z) {\n"
	"    var fs = frames(), best = null;\n"
	"    for (var m = 0; m < fs.length; m++)\n"
	"      if (nameOf(fs[m]) === q.z && (!best || +fs[m].getAttribute(\"data-n\") > +best.getAttribute(\"data-n\")))\n"
	"        best = fs[m];\n"
	"    if (best) zoom(best);\n"
	"  }\n"
	"}\n"
	"function frameOf(t) {\n"
	"  for (; t && t !== svg; t = t.parentNode)\n"
	"    if (t.classList && t.classList.contains(\"f\")) return t;\n"
	"  return null;\n"
	"}\n"
	"function frames() { return cur ? cur.querySelectorAll(\"g.f\") : []; }\n"
	"function nameOf(g) { var s = g.querySelector(\"title\").textContent; return s.slice(0, s.indexOf(\"\\n\")); }\n"
	"function label(t, name, w) {\n"
	"  var chars = w > 6 ? Math.floor((w - 6) / FONT_W) : 0;\n"
	"  t.textContent = chars < 3 ? \"\" : name.length <= chars ? name : name.slice(0, chars - 2) + \"..\";\n"
	"}\n"
	/* every frame laid out for the view [x0, x0 + n0) of the event's samples */
	"function place(x0, n0) {\n"
	"  var fs = frames();\n"
	"  for (var i = 0; i < fs.length; i++) {\n"
	"    var g = fs[i], x = +g.getAttribute(\"data-x\"), n = +g.getAttribute(\"data-n\");\n"
	"    var lo = Math.max(x, x0), hi = Math.min(x + n, x0 + n0), w = (hi - lo) * FW / n0;\n"
	"    if (hi <= lo || w < MIN_W) { g.style.display = \"none\"; continue; }\n"
	"    g.style.display = \"\";\n"
	"    g.classList.toggle(\"anc\", x < x0 || x + n > x0 + n0);\n"
	"    var r = g.querySelector(\"rect\"), t = g.querySelector(\"text\"), px = XPAD + (lo - x0) * FW / n0;\n"
	"    r.setAttribute(\"x\", px.toFixed(2));\n"
	"    r.setAttribute(\"width\", w.toFixed(2));\n"
	"    t.setAttribute(\"x\", (px + 3).toFixed(2));\n"
	"    label(t, nameOf(g), w);\n"
	"  }\n"
	"}\n"
	"function zoomTo(g) {\n"
	"  if (!cur) return;\n"
	"  if (g) place(+g.getAttribute(\"data-x\"), +g.getAttribute(\"data-n\"));\n"
	"  else place(0, +cur.getAttribute(\"data-total\"));\n"
	"  unzoom.classList.toggle(\"hide\", !g);\n"
	"}\n"
	"function zoom(g) { zoomTo(+g.getAttribute(\"data-n\") >= +cur.getAttribute(\"data-total\") ? null : g); }\n"
	"function ask() {\n"
	"  var s = prompt(\"Search frames (a regular expression)\", term || \"\");\n"
	"  if (s) search(s);\n"
	"}\n"
	"function search(s) {\n"
	"  var re;\n"
	"  try { re = new RegExp(s); } catch (e) { alert(\"Not a regular expression: \" + s); return; }\n"
	"  clearSearch();\n"
	"  term = s;\n"
	"  var fs = frames(), spans = [];\n"
	"  for (var i = 0; i < fs.length; i++) {\n"
	"    if (!re.test(nameOf(fs[i]))) continue;\n"
	"    var r = fs[i].querySelector(\"rect\");\n"
	"    r.setAttribute(\"data-fill\", r.getAttribute(\"fill\"));\n"
	"    r.setAttribute(\"fill\", \"rgb(230,0,230)\");\n"
	"    spans.push([+fs[i].getAttribute(\"data-x\"), +fs[i].getAttribute(\"data-n\")]);\n"
	"  }\n"
	/* the share of samples under a match: matches inside matches count once */
	"  spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });\n"
	"  var sum = 0, end = -1;\n"
	"  for (var k = 0; k < spans.length; k++) {\n"
	"    if (spans[k][0] >= end) { sum += spans[k][1]; end = spans[k][0] + spans[k][1]; }\n"
	"  }\n"
	"  var total = +cur.getAttribute(\"data-total\");\n"
	"  matched.textContent = \"Matched: \" + (100 * sum / total).toFixed(2) + \"% (\" + spans.length + \" frames)\";\n"
	"  document.getElementById(\"search\").textContent = \"Reset search\";\n"
	"}\n"
	"function clearSearch() {\n"
	"  var rs = svg.querySelectorAll(\"rect[data-fill]\");\n"
	"  for (var i = 0; i < rs.length; i++) {\n"
	"    rs[i].setAttribute(\"fill\", rs[i].getAttribute(\"data-fill\"));\n"
	"    rs[i].removeAttribute(\"data-fill\");\n"
	"  }\n"
	"  term = null;\n"
	"  matched.textContent = \" \";\n"
	"  document.getElementById(\"search\").textContent = \"Search\";\n"
	"}\n"
	"function show(k) {\n"
	"  var evs = svg.querySelectorAll(\"g.event\"), sw = svg.querySelectorAll(\".evsel\");\n"
	"  if (!evs.length) return;\n"
	"  clearSearch();\n"
	"  for (var i = 0; i < evs.length; i++) {\n"
	"    evs[i].style.display = i === k ? \"\" : \"none\";\n"
	"    if (sw[i]) sw[i].classList.toggle(\"on\", i === k);\n"
	"  }\n"
	"  cur = evs[k];\n"
	"  title.textContent = cur.getAttribute(\"data-title\");\n"
	"  zoomTo(null);\n"
	"}\n";

/* What the differential graph adds, per event of the new side: the baseline's tree, each frame's change. */
struct diffg {
	const struct export *old;
	struct tree *otrees;
	double **delta;
	double *maxd;
};

static void svg_head(struct out *o, const struct export *X, const struct diffg *d, int height)
{
	out_printf(o, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		   "<!-- a %sflame graph by mperf %s: frames as wide as their samples, callers below -->\n"
		   "<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" onload=\"init()\" "
		   "xmlns=\"http://www.w3.org/2000/svg\">\n", d ? "differential " : "", d ? "diff" : "report",
		   IMG_WIDTH, height, IMG_WIDTH, height);
	out_str(o, "<style>\n"
		   "text { font-family: Verdana, sans-serif; font-size: 12px; fill: rgb(0,0,0); }\n"
		   "#title { font-size: 17px; }\n"
		   ".f text { pointer-events: none; }\n"
		   ".f:hover rect { stroke: rgb(0,0,0); stroke-width: 0.5; cursor: pointer; }\n"
		   ".anc rect { opacity: 0.6; }\n"
		   "#search, #unzoom, .evsel { cursor: pointer; fill: rgb(0,0,160); }\n"
		   ".evsel.on { font-weight: bold; fill: rgb(0,0,0); }\n"
		   ".hide { display: none; }\n"
		   "</style>\n<script type=\"text/ecmascript\"><![CDATA[\n");
	out_str(o, script);
	out_str(o, "]]></script>\n");
	out_printf(o, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"rgb(248,248,240)\"/>\n", IMG_WIDTH, height);
	out_printf(o, "<text id=\"title\" x=\"%d\" y=\"24\" text-anchor=\"middle\">%s", IMG_WIDTH / 2,
		   d ? "Differential flame graph: " : "Flame graph: ");
	if (d) {
		out_xml(o, d->old->title, SIZE_MAX);
		out_str(o, " \xe2\x86\x92 ");
	}
	out_xml(o, X->title, SIZE_MAX);
}

/* An event's title: "NAME: N samples", and the baseline's in the differential graph. */
static void event_title(struct out *o, const struct export *X, const struct tree *trees, const struct diffg *d,
			size_t e)
{
	out_xml(o, X->ev[e].name, SIZE_MAX);
	out_printf(o, ": %" PRIu64 " sample%s", trees[e].v[0].n, trees[e].v[0].n == 1 ? "" : "s");
	if (d)
		out_printf(o, " (baseline: %" PRIu64 "); largest move %.2f points", d->otrees[e].n ? d->otrees[e].v[0].n : 0,
			   d->maxd[e]);
}

static void legend(struct out *o, const struct diffg *d)
{
	static const int kinds[] = { XK_USER, XK_KERNEL, XK_JIT, XK_INLINED, XK_UNKNOWN };
	static const struct { double d; const char *name; } moves[] = {
		{ -1, "shrank" }, { -0.5, "" }, { 0, "same share" }, { 0.5, "" }, { 1, "grew (share of the event)" },
	};
	int x = XPAD;

	if (d) {
		for (size_t k = 0; k < sizeof(moves) / sizeof(moves[0]); k++) {
			out_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"", x, TOP - 26);
			diff_colour(o, moves[k].d, 1);
			out_printf(o, "\"/><text x=\"%d\" y=\"%d\">%s</text>\n", x + 16, TOP - 16, moves[k].name);
			x += 20 + (int)(strlen(moves[k].name) * FONT_W);
		}
		return;
	}
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		out_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"", x, TOP - 26);
		colour(o, "legend", kinds[k]);
		out_printf(o, "\"/><text x=\"%d\" y=\"%d\">%s</text>\n", x + 16, TOP - 16, kind_name(kinds[k]));
		x += 24 + (int)(strlen(kind_name(kinds[k])) * FONT_W);
	}
}

/* The switcher when there are several events, then each event's frames. */
static void svg_events(struct out *o, const struct export *X, const struct tree *trees, const struct diffg *d,
		       size_t shown, int height)
{
	if (shown > 1) {
		int x = XPAD;

		out_printf(o, "<text x=\"%d\" y=\"%d\">Events:</text>\n", x, 44);
		x += 60;
		for (size_t e = 0; e < X->nev; e++) {
			if (!X->ev[e].samples)
				continue;
			out_printf(o, "<text class=\"evsel\" x=\"%d\" y=\"44\">", x);
			out_xml(o, X->ev[e].name, SIZE_MAX);
			out_str(o, "</text>\n");
			x += 16 + (int)(strlen(X->ev[e].name) * FONT_W);
		}
	}
	if (!shown)
		out_printf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">No samples</text>\n", IMG_WIDTH / 2,
			   TOP + FRAME_H);
	for (size_t e = 0, first = 1; e < X->nev; e++) {
		if (!X->ev[e].samples)
			continue;
		out_str(o, "<g class=\"event\" data-name=\"");
		out_xml(o, X->ev[e].name, SIZE_MAX);
		out_printf(o, "\" data-total=\"%" PRIu64 "\" data-title=\"", trees[e].v[0].n);
		event_title(o, X, trees, d, e);
		out_printf(o, "\"%s>\n", first ? "" : " style=\"display: none\"");
		first = 0;
		print_frames(o, &trees[e], height, d ? d->delta[e] : NULL, d ? d->maxd[e] : 0);
		out_str(o, "</g>\n");
	}
}

/* The baseline's tree of each event of X that has samples, and each frame's change, into d. */
static int diff_trees(const struct export *X, const struct tree *trees, struct diffg *d)
{
	d->otrees = calloc(X->nev ? X->nev : 1, sizeof(*d->otrees));
	d->delta = calloc(X->nev ? X->nev : 1, sizeof(*d->delta));
	d->maxd = calloc(X->nev ? X->nev : 1, sizeof(*d->maxd));
	if (!d->otrees || !d->delta || !d->maxd)
		return -ENOMEM;
	for (size_t e = 0; e < X->nev; e++) {
		int eo = export__same_event(d->old, X, e);

		if (!X->ev[e].samples)
			continue;
		if (eo >= 0 && d->old->ev[eo].samples && build(d->old, (size_t)eo, &d->otrees[e]))
			return -ENOMEM;
		if (!(d->delta[e] = malloc(trees[e].n * sizeof(double))) ||
		    diff_deltas(&trees[e], &d->otrees[e], d->delta[e], &d->maxd[e]))
			return -ENOMEM;
	}
	return 0;
}

static void diffg_free(struct diffg *d, size_t nev)
{
	for (size_t e = 0; d->otrees && e < nev; e++) {
		free(d->otrees[e].v);
		free(d->otrees[e].h);
		free(d->delta[e]);
	}
	free(d->otrees);
	free(d->delta);
	free(d->maxd);
}

/* X's flame graph; with d (its old set), the differential one. */
static int svg(const struct export *X, struct diffg *d, struct out *o)
{
	struct tree *trees = calloc(X->nev ? X->nev : 1, sizeof(*trees));
	uint32_t depth = 0;
	size_t shown = 0;
	int height, ret = 0;

	if (!trees)
		return mperf_error(-ENOMEM, "out of memory");
	for (size_t e = 0; e < X->nev && !ret; e++) {
		if (!X->ev[e].samples)
			continue;
		if (build(X, e, &trees[e]) || layout(&trees[e]))
			ret = -ENOMEM;
		else if (trees[e].max_depth > depth)
			depth = trees[e].max_depth;
		shown++;
	}
	if (!ret && d)
		ret = diff_trees(X, trees, d);
	if (ret)
		goto done;
	height = TOP + BOTTOM + (int)(depth + 1) * FRAME_H;
	svg_head(o, X, d, height);
	/* the first event's title, which the script sets as events are switched */
	out_printf(o, "</text>\n<text id=\"subtitle\" x=\"%d\" y=\"44\" text-anchor=\"middle\">", IMG_WIDTH / 2);
	for (size_t e = 0; e < X->nev; e++)
		if (X->ev[e].samples) {
			event_title(o, X, trees, d, e);
			break;
		}
	out_str(o, "</text>\n");
	out_printf(o, "<text id=\"search\" x=\"%d\" y=\"24\" text-anchor=\"end\">Search</text>\n", IMG_WIDTH - XPAD);
	out_printf(o, "<text id=\"unzoom\" class=\"hide\" x=\"%d\" y=\"24\">Reset zoom</text>\n", XPAD);
	out_printf(o, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n", XPAD, height - 12);
	out_printf(o, "<text id=\"matched\" x=\"%d\" y=\"%d\" text-anchor=\"end\"> </text>\n", IMG_WIDTH - XPAD,
		   height - 12);
	legend(o, d);
	svg_events(o, X, trees, d, shown, height);
	out_str(o, "</svg>\n");
	ret = o->err ? -o->err : 0;
done:
	if (d)
		diffg_free(d, X->nev);
	for (size_t e = 0; e < X->nev; e++) {
		free(trees[e].v);
		free(trees[e].h);
	}
	free(trees);
	return ret == -ENOMEM ? mperf_error(ret, "out of memory") : ret;
}

int export__svg(const struct export *X, struct out *o)
{
	return svg(X, NULL, o);
}

int export__svg_diff(const struct export *old, const struct export *new_, struct out *o)
{
	struct diffg d = { .old = old };

	return svg(new_, &d, o);
}
