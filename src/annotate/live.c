// SPDX-License-Identifier: GPL-2.0-only
/*
 * mperf top's annotations (annotate.h: annotate_live): annotate.c's
 * counting on a session read in steps (session__open/more), its hits
 * merged now and then so that one address's samples are one hit, and one
 * symbol printed on demand by print.c, as annotate --stdio -s SYM.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "../lib/log.h"
#include "../perfdata/perfdata.h"
#include "../resolve/session.h"
#include "internal.h"

struct annotate_live {
	struct ann A;
	struct annotate_opts o;		/* A.o while counting: every symbol */
	struct session_ops ops;
	struct session *s;
	size_t *merged;			/* per symbol: its hits at the last merge */
	size_t merged_cap;
};

struct annotate_live *annotate_live__open(struct pdata *p, const char *label, struct symcache *syms)
{
	struct annotate_live *l = calloc(1, sizeof(*l));
	int err;

	if (!l) {
		errno = -mperf_error(-ENOMEM, "out of memory");
		return NULL;
	}
	l->A = (struct ann){ .p = p, .label = label, .o = &l->o, .syms = syms, .syms_borrowed = syms != NULL };
	if ((err = annotate_setup(&l->A)) < 0) {
		if (l->A.dis)
			annotate_release(&l->A);
		free(l);
		errno = -err;
		return NULL;
	}
	annotate_consumer(&l->A, &l->ops);
	l->ops.finish = NULL;		/* printed on demand */
	if (!(l->s = session__open(p, label, &l->ops))) {
		err = errno;
		annotate_release(&l->A);
		free(l);
		errno = err;
		return NULL;
	}
	return l;
}

static int hit_order(const void *a, const void *b)
{
	const struct ahit *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* s's hits in address order, those of one address and event made one. */
static void merge_hits(struct asym *s)
{
	size_t n = 0;

	qsort(s->hits, s->nhits, sizeof(*s->hits), hit_order);
	for (size_t i = 0; i < s->nhits; i++) {
		if (n && s->hits[n - 1].off == s->hits[i].off && s->hits[n - 1].ev == s->hits[i].ev) {
			s->hits[n - 1].nr += s->hits[i].nr;
			s->hits[n - 1].period += s->hits[i].period;
		} else {
			s->hits[n++] = s->hits[i];
		}
	}
	s->nhits = n;
}

const struct session_ops *annotate_live__ops(struct annotate_live *l)
{
	session__close(l->s);
	l->s = NULL;
	return &l->ops;
}

int annotate_live__more(struct annotate_live *l)
{
	struct ann *A = &l->A;
	size_t had = l->merged_cap;
	int ret = l->s ? session__more(l->s) : 0;

	if (A->n > had) {
		if (ALLOC_GROW(l->merged, A->n, l->merged_cap))
			return mperf_error(-ENOMEM, "out of memory");
		memset(l->merged + had, 0, (l->merged_cap - had) * sizeof(*l->merged));
	}
	/* a symbol's hits merged when they doubled: the work stays in proportion to the samples */
	for (size_t i = 0; i < A->n; i++)
		if (A->v[i].nhits >= 2 * l->merged[i] + 64) {
			merge_hits(&A->v[i]);
			l->merged[i] = A->v[i].nhits;
		}
	return ret;
}

/* The symbol o asks for: its name in one of its DSOs; NULL when it has no samples. */
static struct asym *find_sym(struct ann *A, const struct annotate_opts *o)
{
	for (size_t i = 0; i < A->n; i++)
		if (!strcmp(A->v[i].name, o->symbols[0]) && dso_wanted(o, A->v[i].dso))
			return &A->v[i];
	return NULL;
}

int annotate_live__print(struct annotate_live *l, const struct annotate_opts *o, FILE *f)
{
	struct ann *A = &l->A;
	struct asym *s = o->nr_symbols ? find_sym(A, o) : NULL;
	struct view *v = NULL;
	size_t nv = 0;
	int err = 0;

	if (!s)
		return -ENOENT;
	if (grow_events(A, pdata__nr_evsel(A->p)) || make_views(A, &v, &nv))
		return mperf_error(-ENOMEM, "out of memory");
	merge_hits(s);
	A->o = o;
	A->f = f;
	err = -ENOENT;
	for (size_t i = 0; i < nv; i++)
		if (o->event >= v[i].lead && o->event < v[i].lead + v[i].n) {
			uint64_t any = 0;

			for (size_t m = 0; m < v[i].n; m++)
				any += s->nr[v[i].lead + m];
			err = any ? annotate_print(A, s, &v[i]) : -ENOENT;
		}
	A->o = &l->o;
	A->f = NULL;
	free(v);
	return err;
}

void annotate_live__zero(struct annotate_live *l)
{
	struct ann *A = &l->A;

	for (size_t i = 0; i < A->n; i++) {
		A->v[i].nhits = 0;
		memset(A->v[i].nr, 0, A->nev * sizeof(*A->v[i].nr));
		memset(A->v[i].period, 0, A->nev * sizeof(*A->v[i].period));
		if (i < l->merged_cap)
			l->merged[i] = 0;
	}
	memset(A->tot_nr, 0, A->nev * sizeof(*A->tot_nr));
	memset(A->tot_period, 0, A->nev * sizeof(*A->tot_period));
}

const void *annotate_live__held(const struct annotate_live *l)
{
	return l->s ? session__held(l->s) : NULL;
}

void annotate_live__free(struct annotate_live *l)
{
	if (!l)
		return;
	session__close(l->s);
	annotate_release(&l->A);
	free(l->merged);
	free(l);
}
