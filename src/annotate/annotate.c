// SPDX-License-Identifier: GPL-2.0-only
/*
 * mperf annotate (annotate.h): a session consumer that counts each
 * sample at its address within its symbol, per event, then, at the end,
 * prints each symbol (print.c), hottest first, for each group of events
 * shown together, as perf annotate 6.1 goes through its histograms.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "../host/host.h"
#include "../lib/alloc.h"
#include "../lib/err.h"
#include "../lib/hash.h"
#include "../lib/json.h"
#include "../lib/log.h"
#include "../perfdata/perfdata.h"
#include "../resolve/session.h"
#include "../resolve/stackwalk.h"
#include "../resolve/symbols.h"
#include "disasm.h"
#include "internal.h"

int annotate__percent_type(const char *s, enum annotate_percent *p)
{
	static const struct { const char *a, *b; enum annotate_percent t; } names[] = {
		{ "local-period", "period-local", ANNOTATE_LOCAL_PERIOD },
		{ "global-period", "period-global", ANNOTATE_GLOBAL_PERIOD },
		{ "local-hits", "hits-local", ANNOTATE_LOCAL_HITS },
		{ "global-hits", "hits-global", ANNOTATE_GLOBAL_HITS },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].a) || !strcmp(s, names[i].b)) {
			*p = names[i].t;
			return 0;
		}
	return -EINVAL;
}

const char *annotate_percent_key(enum annotate_percent p)
{
	static const char *const n[] = { "local-period", "global-period", "local-hits", "global-hits" };

	return n[p];
}

/* Whether dso is one of -d's list, by its path or its file name, as perf matches --dsos. */
bool dso_wanted(const struct annotate_opts *o, const char *dso)
{
	const char *base = strrchr(dso, '/') ? strrchr(dso, '/') + 1 : dso;

	if (!o->dsos)
		return true;
	for (const char *s = o->dsos; *s; ) {
		size_t len = strcspn(s, ",");

		if ((strlen(dso) == len && !strncmp(dso, s, len)) || (strlen(base) == len && !strncmp(base, s, len)))
			return true;
		s += len + (s[len] == ',');
	}
	return false;
}

static bool sym_wanted(const struct annotate_opts *o, const char *name)
{
	if (!o->nr_symbols)
		return true;
	for (size_t i = 0; i < o->nr_symbols; i++)
		if (!strcmp(o->symbols[i], name))
			return true;
	return false;
}

static int grow_slots(struct ann *A)
{
	size_t n = A->nslot ? A->nslot * 2 : 1024;
	size_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < A->n; i++) {
		size_t h = (size_t)hash_mix(hash_u64((uintptr_t)A->v[i].dso), A->v[i].start) & (n - 1);

		while (s[h])
			h = (h + 1) & (n - 1);
		s[h] = i + 1;
	}
	free(A->slot);
	A->slot = s;
	A->nslot = n;
	return 0;
}

/* The entry of symbol [start, end) name in dso, made at its first sample; NULL without memory. */
static struct asym *asym_of(struct ann *A, const char *dso, const char *name, uint64_t start, uint64_t end,
			    bool kernel)
{
	size_t h;
	struct asym *s;

	if ((A->n + 1) * 2 > A->nslot && grow_slots(A))
		return NULL;
	h = (size_t)hash_mix(hash_u64((uintptr_t)dso), start) & (A->nslot - 1);
	for (; A->slot[h]; h = (h + 1) & (A->nslot - 1))
		if (A->v[A->slot[h] - 1].dso == dso && A->v[A->slot[h] - 1].start == start)
			return &A->v[A->slot[h] - 1];
	if (ALLOC_GROW(A->v, A->n + 1, A->cap))
		return NULL;
	s = &A->v[A->n];
	*s = (struct asym){ .dso = dso, .start = start, .end = end, .kernel = kernel };
	if (!(s->name = strdup(name)) || !(s->nr = calloc(A->nev, sizeof(*s->nr))) ||
	    !(s->period = calloc(A->nev, sizeof(*s->period)))) {
		free(s->name);
		free(s->nr);
		return NULL;
	}
	A->slot[h] = ++A->n;
	return s;
}

/* Room for one more event: a pipe-mode stream's come with its records. */
int grow_events(struct ann *A, size_t nev)
{
	uint64_t *a, *b;

	if (nev <= A->nev)
		return 0;
	if (!(a = realloc(A->tot_nr, nev * sizeof(*a))))
		return -ENOMEM;
	A->tot_nr = a;
	if (!(b = realloc(A->tot_period, nev * sizeof(*b))))
		return -ENOMEM;
	A->tot_period = b;
	for (size_t i = A->nev; i < nev; i++)
		a[i] = b[i] = 0;
	for (size_t k = 0; k < A->n; k++) {
		uint64_t *x = realloc(A->v[k].nr, nev * sizeof(*x)), *y;

		if (!x)
			return -ENOMEM;
		A->v[k].nr = x;
		if (!(y = realloc(A->v[k].period, nev * sizeof(*y))))
			return -ENOMEM;
		A->v[k].period = y;
		for (size_t i = A->nev; i < nev; i++)
			x[i] = y[i] = 0;
	}
	A->nev = nev;
	return 0;
}

/* A sample in a DSO whose file is not here: counted, to say once at the end. */
static int missing(struct ann *A, const char *dso)
{
	size_t i;

	for (i = 0; i < A->nmissing && A->missing[i].dso != dso; i++)
		;
	if (i == A->nmissing) {
		if (ALLOC_GROW(A->missing, A->nmissing + 1, A->missing_cap))
			return mperf_error(-ENOMEM, "out of memory");
		A->missing[A->nmissing].dso = dso;
		A->missing[A->nmissing++].nr = 0;
	}
	A->missing[i].nr++;
	return 0;
}

/*
 * The kernel's samples when the -k/--vmlinux image given is not the
 * recorded kernel: say so, rather than ask for the option given (perf
 * drops them without a word).
 */
static void say_wrong_vmlinux(const struct ann *A, const struct missing *m, const char *hex)
{
	if (hex)
		mperf_log(MPERF_LOG_WARN, "cannot annotate the %" PRIu64 " samples in %s: -k/--vmlinux %s is not the "
			  "recorded kernel (build id %s)", m->nr, m->dso, A->o->vmlinux, hex);
	else
		mperf_log(MPERF_LOG_WARN, "cannot annotate the %" PRIu64 " samples in %s: -k/--vmlinux %s does not "
			  "hold their addresses", m->nr, m->dso, A->o->vmlinux);
}

/* One line per DSO whose samples cannot be annotated: which build id to give. */
static void say_missing(struct ann *A)
{
	for (size_t i = 0; i < A->nmissing; i++) {
		unsigned char id[HOST_BUILD_ID_MAX];
		char hex[2 * HOST_BUILD_ID_MAX + 1] = "";
		size_t n = pdata__build_id(A->p, A->missing[i].dso, id);

		host_build_id_hex(id, n, hex);
		if (A->o->json) {
			fprintf(A->f, "%s\n  {\"dso\": ", i ? "," : "");
			json_fputs(A->f, A->missing[i].dso);
			fprintf(A->f, ", \"build-id\": ");
			json_fputs(A->f, n ? hex : NULL);
			fprintf(A->f, ", \"samples\": %" PRIu64 "}", A->missing[i].nr);
		}
		if (A->missing[i].dso[0] == '[' && A->o->vmlinux)
			say_wrong_vmlinux(A, &A->missing[i], n ? hex : NULL);
		else if (A->missing[i].dso[0] == '[')
			mperf_log(MPERF_LOG_WARN, "cannot annotate the %" PRIu64 " samples in %s: no vmlinux or kallsyms%s%s "
				  "is here: give one with -k/--vmlinux", A->missing[i].nr, A->missing[i].dso,
				  n ? " with build id " : "", hex);
		else
			mperf_log(MPERF_LOG_WARN, "cannot annotate the %" PRIu64 " samples in %s: the file%s%s is neither "
				  "here nor in the build-id cache (~/.debug)", A->missing[i].nr, A->missing[i].dso,
				  n ? " with build id " : "", hex);
	}
}

static int on_sample(void *arg, const struct session_sample *ss)
{
	struct ann *A = arg;
	const struct resolved *r = &ss->where;
	const struct sym *sym = NULL;
	bool kernel = ss->cpumode == PERF_RECORD_MISC_KERNEL;
	uint64_t ip = ss->smp->ip, off = ip;
	struct asym *s;

	if (grow_events(A, (size_t)ss->evsel + 1))
		return mperf_error(-ENOMEM, "out of memory");
	stackwalk_kernel_hit(A->syms, ss->cpumode, r);
	if (r->found && !dso_wanted(A->o, r->dso))
		return 0;
	if (r->found && kernel)
		sym = symcache__find_kernel(A->syms, r->dso, ip, NULL);
	else if (r->found && ss->cpumode == PERF_RECORD_MISC_USER && strncmp(r->dso, "/tmp/perf-", 10))
		sym = symcache__find(A->syms, r->dso, r->map_start, r->map_pgoff, ip, &off);
	/* perf annotate drops a sample outside the symbols asked for, before it counts it */
	if (A->o->nr_symbols && (!sym || !sym_wanted(A->o, sym->name)))
		return 0;
	A->tot_nr[ss->evsel]++;
	A->tot_period[ss->evsel] += ss->period;
	if (!sym && r->found && ((ss->cpumode == PERF_RECORD_MISC_USER && r->dso[0] == '/' &&
				  strncmp(r->dso, "/tmp/perf-", 10) && !symcache__runtime_path(A->syms, r->dso)) ||
				 (kernel && !strcmp(r->dso, "[kernel.kallsyms]"))))
		return missing(A, r->dso);
	if (!sym)
		return 0;
	if (!(s = asym_of(A, r->dso, sym->name, sym->start, sym->end, kernel)) ||
	    ALLOC_GROW(s->hits, s->nhits + 1, s->cap))
		return mperf_error(-ENOMEM, "out of memory");
	s->hits[s->nhits++] = (struct ahit){ .off = off, .ev = (uint32_t)ss->evsel, .nr = 1, .period = ss->period };
	s->nr[ss->evsel]++;
	s->period[ss->evsel] += ss->period;
	return 0;
}

static int on_record(void *arg, const struct session_record *r)
{
	struct ann *A = arg;

	symcache__kernel_mmap(A->syms, r->h);
	return 0;
}

static int hit_cmp(const void *a, const void *b)
{
	const struct ahit *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* The symbols of a view, hottest first (its leader's period). */
static int asym_cmp(const void *a, const void *b, void *arg)
{
	const struct asym *x = *(struct asym *const *)a, *y = *(struct asym *const *)b;
	size_t view_lead = *(const size_t *)arg;

	if (x->period[view_lead] != y->period[view_lead])
		return x->period[view_lead] < y->period[view_lead] ? 1 : -1;
	/* perf's ties: by the DSO's short name, then by the symbol's name (its output sort), then by address */
	const char *bx = strrchr(x->dso, '/') ? strrchr(x->dso, '/') + 1 : x->dso;
	const char *by = strrchr(y->dso, '/') ? strrchr(y->dso, '/') + 1 : y->dso;
	int c = strcmp(bx, by);

	if (c || (c = strcmp(x->name, y->name)))
		return c;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* perf's name of a group: its name (or "anon group") and its members in braces; forced: the members. */
static void view_name(struct ann *A, struct view *w, const char *gname, bool forced)
{
	size_t len = 0;

	if (w->n == 1) {
		w->name = pdata__evsel(A->p, w->lead) ? pdata__evsel(A->p, w->lead)->name : "";
		return;
	}
	if (!forced)
		len += (size_t)snprintf(w->buf, sizeof(w->buf), "%s { ", gname ? gname : "anon group");
	for (size_t m = 0; m < w->n && len < sizeof(w->buf); m++)
		len += (size_t)snprintf(w->buf + len, sizeof(w->buf) - len, "%s%s", m ? ", " : "",
					pdata__evsel(A->p, w->lead + m) ? pdata__evsel(A->p, w->lead + m)->name : "");
	if (!forced && len < sizeof(w->buf))
		snprintf(w->buf + len, sizeof(w->buf) - len, " }");
	w->name = w->buf;
}

/* The views perf annotate shows: each group (the file's, or all events with --group), each other event. */
int make_views(struct ann *A, struct view **out, size_t *nout)
{
	size_t n = A->nev, ng = pdata__nr_groups(A->p), nv = 0;
	struct view *v = calloc(n ? n : 1, sizeof(*v));
	size_t *lead = calloc(n ? n : 1, sizeof(*lead));

	if (!v || !lead) {
		free(v);
		free(lead);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		lead[i] = i;
	for (size_t g = 0; g < ng; g++) {
		const struct pd_group_desc *d = pdata__group(A->p, g);

		for (size_t m = 0; m < d->nr_members && d->leader + m < n; m++)
			lead[d->leader + m] = d->leader;
	}
	if (!ng && A->o->group)
		for (size_t i = 0; i < n; i++)
			lead[i] = 0;
	for (size_t i = 0; i < n; i++) {
		const char *gname = NULL;
		size_t m = 1;

		if (lead[i] != i)
			continue;
		while (i + m < n && lead[i + m] == i)
			m++;
		for (size_t g = 0; g < ng; g++)
			if (pdata__group(A->p, g)->leader == i)
				gname = pdata__group(A->p, g)->name;
		v[nv].lead = i;
		v[nv].n = m;
		view_name(A, &v[nv], gname, !ng);
		nv++;
	}
	free(lead);
	*out = v;
	*nout = nv;
	return 0;
}

/* One view: its symbols hottest first, those over --percent-limit. */
static int print_view(struct ann *A, const struct view *w)
{
	struct asym **order = malloc((A->n ? A->n : 1) * sizeof(*order));
	size_t n = 0;
	int err = 0;

	if (!order)
		return mperf_error(-ENOMEM, "out of memory");
	for (size_t i = 0; i < A->n; i++) {
		uint64_t any = 0;

		for (size_t m = 0; m < w->n; m++)
			any += A->v[i].nr[w->lead + m];
		if (!any)
			continue;
		if (A->o->percent_limit > 0 && (!A->tot_period[w->lead] ||
		    100.0 * (double)A->v[i].period[w->lead] / (double)A->tot_period[w->lead] < A->o->percent_limit))
			continue;
		order[n++] = &A->v[i];
	}
	qsort_r(order, n, sizeof(*order), asym_cmp, (void *)&w->lead);
	for (size_t i = 0; i < n && !err; i++)
		err = annotate_print(A, order[i], w);
	free(order);
	return err;
}

/* --json: the document's head, its events' totals (the samples kept), and its symbols' list opened. */
static void json_begin(struct ann *A)
{
	FILE *f = A->f;
	bool first = true;

	fputc('{', f);
	json_fhead(f, "annotate", ANNOTATE_JSON_VERSION);
	fprintf(f, ",\n \"percent-type\": \"%s\",\n \"events\": [", annotate_percent_key(A->o->percent));
	for (size_t i = 0; i < A->nev; i++) {
		fprintf(f, "%s\n  {\"name\": ", first ? "" : ",");
		json_fputs(f, pdata__evsel(A->p, i) ? pdata__evsel(A->p, i)->name : "");
		fprintf(f, ", \"samples\": %" PRIu64 ", \"period\": %" PRIu64 "}", A->tot_nr[i], A->tot_period[i]);
		first = false;
	}
	fputs("],\n \"symbols\": [", f);
}

static int on_finish(void *arg, struct machine *m)
{
	struct ann *A = arg;
	struct view *v = NULL;
	size_t nv = 0;
	int err;

	(void)m;
	if ((err = grow_events(A, pdata__nr_evsel(A->p))) || (err = make_views(A, &v, &nv)))
		return mperf_error(err, "out of memory");
	for (size_t i = 0; i < A->n; i++)
		qsort(A->v[i].hits, A->v[i].nhits, sizeof(*A->v[i].hits), hit_cmp);
	if (A->o->json)
		json_begin(A);
	for (size_t i = 0; i < nv && !err; i++)
		if (!A->o->one_event || v[i].lead == A->o->event)
			err = print_view(A, &v[i]);
	if (!err && A->o->json)
		fputs("],\n \"missing\": [", A->f);
	if (!err)
		say_missing(A);
	if (!err && A->o->json)
		fputs("]\n}\n", A->f);
	free(v);
	return err;
}

/* A's disassembler and symbols for p: 0, or a negative code (said). */
int annotate_setup(struct ann *A)
{
	struct pdata *p = A->p;
	const struct annotate_opts *o = A->o;

	if (!(A->dis = disasm__new(pdata__arch(p), o->intel)))
		return mperf_error(-errno, "'%s': cannot disassemble %s code%s", A->label,
				   pdata__arch(p) ? pdata__arch(p) : "this machine's",
				   errno == EOPNOTSUPP ? " (x86_64 and aarch64 only)" :
				   errno == ELIBACC ? " (libcapstone cannot be loaded)" : "");
	if (!A->syms && !(A->syms = symcache__for_file(p, o->vmlinux, o->kallsyms, o->symfs))) {
		disasm__delete(A->dis);
		A->dis = NULL;
		return -ENOMEM;
	}
	if (!A->syms_borrowed)
		symcache__load_kernel_for(A->syms, p);
	return grow_events(A, pdata__nr_evsel(p)) ? mperf_error(-ENOMEM, "out of memory") : 0;
}

void annotate_consumer(struct ann *A, struct session_ops *ops)
{
	*ops = (struct session_ops){ .record = on_record, .sample = on_sample, .finish = on_finish, .arg = A,
				     .machine = true };
}

void annotate_release(struct ann *A)
{
	for (size_t i = 0; i < A->n; i++) {
		free(A->v[i].name);
		free(A->v[i].hits);
		free(A->v[i].nr);
		free(A->v[i].period);
	}
	free(A->v);
	free(A->slot);
	free(A->tot_nr);
	free(A->tot_period);
	free(A->prev_buf);
	free(A->warned);
	free(A->missing);
	if (!A->syms_borrowed)
		symcache__delete(A->syms);
	disasm__delete(A->dis);
}

int annotate__run(struct pdata *p, const char *label, const struct annotate_opts *o, FILE *f)
{
	struct ann A = { .p = p, .label = label, .o = o, .f = f };
	struct session_ops ops;
	int ret;

	if ((ret = annotate_setup(&A)) < 0) {
		if (A.dis)
			annotate_release(&A);
		return ret;
	}
	annotate_consumer(&A, &ops);
	ret = session__run(p, label, &ops);
	if (fflush(f) && !ret)
		ret = errno == EPIPE ? -EPIPE : mperf_error(-errno, "cannot write the annotation: %s", strerror(errno));
	annotate_release(&A);
	return ret;
}
