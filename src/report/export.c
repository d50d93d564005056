// SPDX-License-Identifier: GPL-2.0-only
/*
 * mperf report --format: the file's stacks, gathered once (every sample's
 * chain as stackwalk.c walks it for the histograms, or its ip alone
 * without one), then written as folded stacks (here), a flame graph
 * (flame.c) or a pprof profile (pprof.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "../lib/buf.h"
#include "../lib/err.h"
#include "../lib/hash.h"
#include "../lib/log.h"
#include "export.h"
#include "out.h"
#include "report.h"
#include "../resolve/session.h"
#include "../resolve/stackwalk.h"
#include "../resolve/symbols.h"

struct gather {
	struct export X;
	struct symcache *syms;
	struct stackwalk walk;
	bool chains;			/* some event samples CALLCHAIN */
	uint32_t *path;			/* the current sample's frame ids, root first */
	size_t path_cap;
	const char *last_comm_raw, *last_comm;
	/* several files (diff's runs of a side): each one's events by name onto the first's */
	int *evmap;			/* the current file's event -> X.ev index, -1: not yet */
	size_t nevmap;
	struct symcache **done;		/* the symbols of the files read: their names are the frames' */
	size_t ndone, done_cap;
};

static const char unknown[] = "[unknown]";

static uint64_t frame_hash(const struct cc_frame *f, char level)
{
	uint64_t h = HASH_FNV_INIT;

	h = hash_mix(h, (uintptr_t)f->dso);
	h = hash_mix(h, (uintptr_t)f->sym);
	h = hash_mix(h, f->ip);
	h = hash_mix(h, (uint64_t)(unsigned char)level);
	return hash_u64(h);
}

/* Double a hash table of ids + 1 (0: empty), rehashing with hash(i). */
static int rehash(uint32_t **tab, size_t *cap, size_t n, uint64_t (*hash)(const struct gather *, uint32_t),
		  const struct gather *G)
{
	size_t ncap = *cap ? *cap * 2 : 1024;
	uint32_t *t = calloc(ncap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		size_t b = (size_t)hash(G, i) & (ncap - 1);

		while (t[b])
			b = (b + 1) & (ncap - 1);
		t[b] = i + 1;
	}
	free(*tab);
	*tab = t;
	*cap = ncap;
	return 0;
}

static uint64_t stored_frame_hash(const struct gather *G, uint32_t i)
{
	const struct xframe *x = &G->X.fv[i];
	struct cc_frame f = { .dso = x->dso, .sym = x->has_sym ? x->name : NULL, .ip = x->ip };

	return frame_hash(&f, x->kernel ? 'k' : '.');
}

static enum xkind kind_of(const struct cc_frame *f, char level)
{
	if (!f->dso)
		return XK_UNKNOWN;
	if (f->inlined)
		return XK_INLINED;
	if (level == 'k' || level == 'g')
		return XK_KERNEL;
	if (stackwalk_is_jit(f->dso))
		return XK_JIT;
	return XK_USER;
}

/*
 * The id of frame f (level: its map's), added when new, with the map that
 * covers it now (for pprof's mappings).  -ENOMEM, or 0 and *id.
 */
static int frame_id(struct gather *G, const struct session_sample *ss, const struct cc_frame *f, char level,
		    uint32_t *id)
{
	struct export *X = &G->X;
	char lv = level == 'k' || level == 'g' ? 'k' : '.';
	size_t b;
	struct xframe *x;
	struct resolved r;

	if ((X->nf + 1) * 2 > X->fh_cap && rehash(&X->fh, &X->fh_cap, X->nf, stored_frame_hash, G))
		return -ENOMEM;
	b = (size_t)frame_hash(f, lv) & (X->fh_cap - 1);
	for (; X->fh[b]; b = (b + 1) & (X->fh_cap - 1)) {
		x = &X->fv[X->fh[b] - 1];
		if (x->ip == f->ip && x->dso == f->dso && (x->has_sym ? x->name : NULL) == f->sym &&
		    x->kernel == (lv == 'k')) {
			*id = X->fh[b] - 1;
			return 0;
		}
	}
	if (X->nf >= UINT32_MAX - 1 || ALLOC_GROW(X->fv, X->nf + 1, X->f_cap))
		return -ENOMEM;
	x = &X->fv[X->nf];
	memset(x, 0, sizeof(*x));
	x->name = f->sym ? f->sym : unknown;
	x->has_sym = f->sym != NULL;
	x->dso = f->dso;
	x->dso_name = f->dso ? f->dso_name : unknown;
	x->ip = f->ip;
	x->sym_start = f->start;
	x->kind = kind_of(f, level);
	x->kernel = lv == 'k';
	x->inlined = f->inlined;
	if (f->dso && ss->machine &&
	    !machine__resolve(ss->machine, ss->where.pid, ss->where.tid,
			      lv == 'k' ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER, f->ip, &r) && r.found) {
		x->map_start = r.map_start;
		x->map_end = r.map_end;
		x->map_pgoff = r.map_pgoff;
	}
	X->fh[b] = (uint32_t)++X->nf;
	*id = (uint32_t)(X->nf - 1);
	return 0;
}

static uint64_t path_hash(int evsel, const char *comm, const uint32_t *ids, size_t n)
{
	uint64_t h = HASH_FNV_INIT;

	h = hash_mix(h, (uint64_t)(unsigned)evsel);
	h = hash_mix(h, (uintptr_t)comm);
	for (size_t i = 0; i < n; i++)
		h = hash_mix(h, ids[i]);
	return hash_u64(h);
}

static uint64_t stored_stack_hash(const struct gather *G, uint32_t i)
{
	const struct xstack *s = &G->X.sv[i];

	return path_hash(s->evsel, s->comm, G->X.ids + s->first, s->n);
}

/* Count the sample whose frames are G->path[0..n) in its stack. */
static int add_stack(struct gather *G, const struct session_sample *ss, int evsel, const char *comm, size_t n)
{
	struct export *X = &G->X;
	size_t b;
	struct xstack *s;

	if ((X->ns + 1) * 2 > X->sh_cap && rehash(&X->sh, &X->sh_cap, X->ns, stored_stack_hash, G))
		return -ENOMEM;
	b = (size_t)path_hash(evsel, comm, G->path, n) & (X->sh_cap - 1);
	for (; X->sh[b]; b = (b + 1) & (X->sh_cap - 1)) {
		s = &X->sv[X->sh[b] - 1];
		if (s->evsel == evsel && s->comm == comm && s->n == n &&
		    !memcmp(X->ids + s->first, G->path, n * sizeof(*G->path)))
			goto found;
	}
	if (X->ns >= UINT32_MAX - 1 || X->nids + n >= UINT32_MAX || ALLOC_GROW(X->sv, X->ns + 1, X->s_cap) ||
	    ALLOC_GROW(X->ids, X->nids + n, X->ids_cap))
		return -ENOMEM;
	s = &X->sv[X->ns];
	*s = (struct xstack){ .evsel = evsel, .comm = comm, .n = (uint32_t)n, .first = (uint32_t)X->nids };
	memcpy(X->ids + X->nids, G->path, n * sizeof(*G->path));
	X->nids += n;
	X->sh[b] = (uint32_t)++X->ns;
found:
	s->count++;
	s->period += ss->period;
	return 0;
}

static bool time_event(const struct pd_evsel *ev)
{
	return ev->attr.type == PERF_TYPE_SOFTWARE &&
	       (ev->attr.config == PERF_COUNT_SW_CPU_CLOCK || ev->attr.config == PERF_COUNT_SW_TASK_CLOCK);
}

/*
 * The index in X.ev of the current file's event evsel: the same index for
 * the first file; for the next ones, the first's event of the same name
 * (the n-th of that name for the file's n-th), or a new one.
 */
static int event_index(struct gather *G, int evsel)
{
	struct export *X = &G->X;
	const struct pd_evsel *ev = pdata__evsel(X->p, (size_t)evsel);
	const char *name = ev && ev->name ? ev->name : "unknown";
	size_t nth = 0, i;

	if (!G->ndone || evsel < 0)
		return evsel;
	if ((size_t)evsel < G->nevmap && G->evmap[evsel] >= 0)
		return G->evmap[evsel];
	for (int j = 0; j < evsel; j++) {
		const struct pd_evsel *o = pdata__evsel(X->p, (size_t)j);

		nth += o && o->name && !strcmp(o->name, name);
	}
	for (i = 0; i < X->nev; i++)
		if (X->ev[i].name && !strcmp(X->ev[i].name, name) && !nth--)
			break;
	if ((size_t)evsel < G->nevmap)
		G->evmap[evsel] = (int)i;
	return (int)i;
}

static struct xevent *event_of(struct gather *G, int evsel)
{
	struct export *X = &G->X;
	const struct pd_evsel *ev = pdata__evsel(X->p, (size_t)evsel);
	int at = event_index(G, evsel);

	if ((size_t)at >= X->nev) {
		size_t n = (size_t)at + 1;

		if (ALLOC_GROW(X->ev, n, X->ev_cap))
			return NULL;
		memset(X->ev + X->nev, 0, (n - X->nev) * sizeof(*X->ev));
		X->nev = n;
	}
	if (!X->ev[at].name) {
		X->ev[at].name = ev && ev->name ? ev->name : "unknown";
		X->ev[at].time = ev && time_event(ev);
	}
	return &X->ev[at];
}

static int gather_sample(struct gather *G, const struct session_sample *ss)
{
	struct export *X = &G->X;
	struct stackwalk *W = &G->walk;
	struct xevent *e = event_of(G, ss->evsel);
	const struct pd_sample *smp = ss->smp;
	ssize_t n = 0;

	if (!e)
		return -ENOMEM;
	if (ss->where.comm != G->last_comm_raw) {
		if (!(G->last_comm = strset_intern(&X->strs, ss->where.comm ? ss->where.comm : unknown)))
			return -ENOMEM;
		G->last_comm_raw = ss->where.comm;
	}
	e->samples++;
	e->period += ss->period;
	if (smp->time && (!X->first_time || smp->time < X->first_time))
		X->first_time = smp->time;
	if (smp->time > X->last_time)
		X->last_time = smp->time;
	if (!ss->machine)
		return 0;
	if (G->chains && smp->callchain)
		n = stackwalk__chain(W, ss);
	/* No chain (or one perf drops): the sample's own ip, one frame. */
	if (n == 0)
		n = stackwalk__ip(W, ss);
	if (n < 0)
		return (int)n;
	if (ALLOC_GROW(G->path, (size_t)n, G->path_cap))
		return -ENOMEM;
	/* The walk is leaf first (perf's cursor keeps the frames nearest the leaf): root first here. */
	for (ssize_t i = 0; i < n; i++)
		if (frame_id(G, ss, &W->fr[i], W->lvl[i], &G->path[n - 1 - i]))
			return -ENOMEM;
	return add_stack(G, ss, (int)(e - X->ev), G->last_comm, (size_t)n);
}

static int on_sample(void *arg, const struct session_sample *ss)
{
	return gather_sample(arg, ss) ? mperf_error(-ENOMEM, "out of memory") : 0;
}

/* The kernel's MMAP names the symbol its address is given for: kallsyms are moved to it. */
static int on_record(void *arg, const struct session_record *r)
{
	struct gather *G = arg;

	symcache__kernel_mmap(G->syms, r->h);
	return 0;
}

/* ---- folded stacks ---- */

struct fline {
	char *s;
	uint64_t count;
};

static int fline_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fline *)a)->s, ((const struct fline *)b)->s);
}

/* A name in a folded line: ';' separates frames, a newline ends the line. */
static int add_name(struct mbuf *b, const char *s)
{
	size_t n = strlen(s);

	if (mbuf_reserve(b, n))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		b->p[b->len++] = s[i] == ';' || s[i] == '\n' ? '_' : s[i];
	return 0;
}

/*
 * Event e's folded stacks, sorted, stacks that differ only by addresses
 * merged: one line per path, in *v (*n of them, each s malloc'ed).
 */
static int folded_lines(const struct export *X, size_t e, struct fline **v, size_t *n)
{
	size_t cap = 0, m = 0;

	*v = NULL;
	*n = 0;
	for (size_t i = 0; i < X->ns; i++) {
		const struct xstack *s = &X->sv[i];
		struct mbuf b = { 0 };
		int ret = 0;

		if ((size_t)s->evsel != e)
			continue;
		if (ALLOC_GROW(*v, *n + 1, cap) || add_name(&b, s->comm))
			ret = -ENOMEM;
		for (uint32_t f = 0; f < s->n && !ret; f++)
			if (mbuf_add(&b, ";", 1) || add_name(&b, xstack_frame(X, s, f)->name))
				ret = -ENOMEM;
		if (ret || mbuf_add(&b, "", 1)) {
			mbuf_free(&b);
			return -ENOMEM;
		}
		(*v)[*n].s = b.p;
		(*v)[(*n)++].count = s->count;
	}
	if (*n)
		qsort(*v, *n, sizeof(**v), fline_cmp);
	for (size_t i = 0; i < *n; ) {
		size_t j = i + 1;

		for (; j < *n && !strcmp((*v)[j].s, (*v)[i].s); j++) {
			(*v)[i].count += (*v)[j].count;
			free((*v)[j].s);
		}
		(*v)[m++] = (*v)[i];
		i = j;
	}
	*n = m;
	return 0;
}

static void flines_free(struct fline *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].s);
	free(v);
}

int export__folded(const struct export *X, struct out *out)
{
	for (size_t e = 0; e < X->nev; e++) {
		struct fline *v;
		size_t n;

		if (!X->ev[e].samples)
			continue;
		if (folded_lines(X, e, &v, &n))
			return mperf_error(-ENOMEM, "out of memory");
		out_str(out, "# event: ");
		out_str(out, X->ev[e].name);
		out_char(out, '\n');
		for (size_t i = 0; i < n; i++) {
			out_str(out, v[i].s);
			out_char(out, ' ');
			out_u64(out, v[i].count);
			out_char(out, '\n');
		}
		flines_free(v, n);
	}
	return out->err ? -out->err : 0;
}

int export__same_event(const struct export *old, const struct export *new_, size_t e)
{
	for (size_t i = 0; i < old->nev; i++)
		if (old->ev[i].name && !strcmp(old->ev[i].name, new_->ev[e].name))
			return (int)i;
	return -1;
}

/* Event eo of old (-1: none) and en of new (-1: none) as difffolded.pl writes them: "stack old new". */
static int folded_pair(const struct export *old, int eo, const struct export *new_, int en, struct out *out)
{
	struct fline *a = NULL, *b = NULL;
	size_t na = 0, nb = 0, i = 0, j = 0;

	if ((eo >= 0 && folded_lines(old, (size_t)eo, &a, &na)) || (en >= 0 && folded_lines(new_, (size_t)en, &b, &nb))) {
		flines_free(a, na);
		flines_free(b, nb);
		return -ENOMEM;
	}
	out_str(out, "# event: ");
	out_str(out, en >= 0 ? new_->ev[en].name : old->ev[eo].name);
	out_char(out, '\n');
	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : strcmp(a[i].s, b[j].s);

		out_str(out, c <= 0 ? a[i].s : b[j].s);
		out_char(out, ' ');
		out_u64(out, c <= 0 ? a[i].count : 0);
		out_char(out, ' ');
		out_u64(out, c >= 0 ? b[j].count : 0);
		out_char(out, '\n');
		i += c <= 0;
		j += c >= 0;
	}
	flines_free(a, na);
	flines_free(b, nb);
	return 0;
}

int export__folded_diff(const struct export *old, const struct export *new_, struct out *out)
{
	for (size_t e = 0; e < new_->nev; e++) {
		int eo = export__same_event(old, new_, e);

		if ((new_->ev[e].samples || (eo >= 0 && old->ev[eo].samples)) && folded_pair(old, eo, new_, (int)e, out))
			return mperf_error(-ENOMEM, "out of memory");
	}
	/* the baseline's events the new side lacks: their stacks, at 0 */
	for (size_t e = 0; e < old->nev; e++)
		if (old->ev[e].samples && export__same_event(new_, old, e) < 0 && folded_pair(old, (int)e, new_, -1, out))
			return mperf_error(-ENOMEM, "out of memory");
	return out->err ? -out->err : 0;
}

/* ---- the entry points ---- */

/* File p's samples, added to G's stacks; its symbols are kept with G's. */
static int gather_file(struct gather *G, struct pdata *p, const char *label, const char *vmlinux,
		       const char *kallsyms)
{
	struct session_ops ops = { .record = on_record, .sample = on_sample, .arg = G, .machine = true };
	int ret = 0;

	G->X.p = p;
	G->X.label = label;
	G->chains = false;
	G->last_comm_raw = NULL;
	if (!(G->syms = symcache__for_file(p, vmlinux, kallsyms, NULL)))
		return -ENOMEM;
	if (ALLOC_GROW(G->done, G->ndone + 1, G->done_cap)) {
		symcache__delete(G->syms);
		return mperf_error(-ENOMEM, "out of memory");
	}
	free(G->evmap);
	G->nevmap = pdata__nr_evsel(p);
	if (!(G->evmap = malloc((G->nevmap ? G->nevmap : 1) * sizeof(*G->evmap)))) {
		symcache__delete(G->syms);
		return mperf_error(-ENOMEM, "out of memory");
	}
	memset(G->evmap, 0xff, G->nevmap * sizeof(*G->evmap));
	stackwalk__init(&G->walk, G->syms, &G->X.strs);
	for (size_t i = 0; i < pdata__nr_evsel(p); i++)
		if (pdata__evsel(p, i)->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			G->chains = true;
	/* A stream's events come with it: chains are walked when its samples have them. */
	if (pdata__is_pipe(p))
		G->chains = true;
	/* Kernel frames are resolved as they come: the first that needs kallsyms waits for it. */
	G->walk.kernel_end_wanted = G->chains;
	symcache__load_kernel_for(G->syms, p);
	/* Every event of the file has its block, or its sample type, even without samples. */
	for (size_t i = 0; i < pdata__nr_evsel(p) && !ret; i++)
		if (!event_of(G, (int)i))
			ret = mperf_error(-ENOMEM, "out of memory");
	if (!ret)
		ret = session__run(p, label, &ops);
	stackwalk__release(&G->walk);
	G->done[G->ndone++] = G->syms;
	return ret < 0 ? ret : 0;
}

static void gather_free(struct gather *G)
{
	free(G->path);
	free(G->evmap);
	free(G->X.fv);
	free(G->X.fh);
	free(G->X.ids);
	free(G->X.sv);
	free(G->X.sh);
	free(G->X.ev);
	strset_free(&G->X.strs);
	for (size_t i = 0; i < G->ndone; i++)
		symcache__delete(G->done[i]);
	free(G->done);
}

static void warn_empty(const struct export *X)
{
	uint64_t all = 0;

	for (size_t e = 0; e < X->nev; e++)
		all += X->ev[e].samples;
	if (!all)
		mperf_log(MPERF_LOG_WARN, "the file has no samples");
}

int report__export(struct pdata *p, const char *label, const struct report_export_opts *o, FILE *f)
{
	struct gather G = { .X = { .title = o->title ? o->title : label } };
	struct out out;
	int ret;

	if ((ret = gather_file(&G, p, label, o->vmlinux, o->kallsyms)) < 0)
		goto done;
	warn_empty(&G.X);
	if (o->format == REPORT_EXPORT_PPROF) {
		ret = export__pprof(&G.X, f);
	} else if (out_init(&out, f)) {
		ret = mperf_error(-ENOMEM, "out of memory");
	} else {
		ret = o->format == REPORT_EXPORT_SVG ? export__svg(&G.X, &out) : export__folded(&G.X, &out);
		ret = out_close(&out, ret, label);
	}
done:
	gather_free(&G);
	return ret;
}

int report__diff_export(const struct report_diff_side *old, const struct report_diff_side *new_, bool svg,
			const char *vmlinux, const char *kallsyms, FILE *f)
{
	struct gather G[2] = { { .X = { .title = old->labels[0] } }, { .X = { .title = new_->labels[0] } } };
	const struct report_diff_side *side[2] = { old, new_ };
	struct out out;
	int ret = 0;

	for (int s = 0; s < 2 && !ret; s++)
		for (size_t i = 0; i < side[s]->n && !ret; i++)
			ret = gather_file(&G[s], side[s]->p[i], side[s]->labels[i], vmlinux, kallsyms);
	if (ret < 0)
		goto done;
	if (out_init(&out, f)) {
		ret = mperf_error(-ENOMEM, "out of memory");
		goto done;
	}
	ret = svg ? export__svg_diff(&G[0].X, &G[1].X, &out) : export__folded_diff(&G[0].X, &G[1].X, &out);
	ret = out_close(&out, ret, new_->labels[0]);
done:
	gather_free(&G[0]);
	gather_free(&G[1]);
	return ret;
}
