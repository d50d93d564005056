// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fields perf's hist entries take from the sample and the records
 * around it (rowkeys.h): time, addr, cgroup, cgroup_id, parent, the
 * weights and the code page size.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/strset.h"
#include "../perfdata/format.h"
#include "../perfdata/perfdata.h"
#include "../resolve/session.h"
#include "../resolve/stackwalk.h"
#include "memsrc.h"
#include "rowkeys.h"
#include "sortkey.h"

/* perf's index of the cgroup namespace in a NAMESPACES record's links */
#define NS_CGROUP 6

uint64_t rowkeys_time(const struct report_hist_opts *o, uint64_t t)
{
	uint64_t q = o->time_quantum ? o->time_quantum : ROWKEYS_QUANTUM_DEFAULT;

	return t / q * q;
}

int rowkeys__init(struct rowkeys *rk, const struct report_hist_opts *o, const bool *key, struct strset *strs,
		  struct pdata *p, const char *label)
{
	const char *re = o->parent ? o->parent : ROWKEYS_PARENT_DEFAULT;
	int ret;

	memset(rk, 0, sizeof(*rk));
	rk->strs = strs;
	rk->p = p;
	rk->label = label;
	rk->trace = key[REPORT_KEY_TRACE];
	/* a stream's formats come with it: read at its first sample */
	if (rk->trace && !pdata__is_pipe(p) && (ret = tracefmt__load(&rk->tf, p, label)))
		return ret;
	rk->quantum = o->time_quantum ? o->time_quantum : ROWKEYS_QUANTUM_DEFAULT;
	rk->cgroup = key[REPORT_KEY_CGROUP];
	rk->ns = key[REPORT_KEY_CGROUP_ID];
	if (!key[REPORT_KEY_PARENT])	/* -x alone: perf finds no parent, every entry is hidden */
		return 0;
	if (regcomp(&rk->re, re, REG_EXTENDED | REG_NOSUB))
		return mperf_error(-MPERF_ERR_USAGE, "invalid -p/--parent regex '%s'", re);
	rk->parent = true;
	return 0;
}

void rowkeys__release(struct rowkeys *rk)
{
	if (rk->parent)
		regfree(&rk->re);
	idmap_free(&rk->cg_ids);
	idmap_free(&rk->ns_tids);
	free(rk->cg_path);
	free(rk->ns_of);
	tracefmt__release(&rk->tf);
	memset(rk, 0, sizeof(*rk));
}

/* perf keeps the first path of an id */
static int cgroup_record(struct rowkeys *rk, const struct perf_event_header *h)
{
	struct pd_cgroup_event e;
	char buf[4096];
	const char *path;

	if (!PD_VIEW(h, &e) || idmap_find(&rk->cg_ids, e.id))
		return 0;
	path = strset_intern(rk->strs, pd_rec_str(h, sizeof(e), buf, sizeof(buf)));
	if (!path || ALLOC_GROW(rk->cg_path, rk->nr_cg + 1, rk->cg_cap) ||
	    idmap_add(&rk->cg_ids, e.id, (int)rk->nr_cg))
		return -ENOMEM;
	rk->cg_path[rk->nr_cg++] = path;
	return 0;
}

/* a thread's namespaces are its last NAMESPACES record's */
static int ns_record(struct rowkeys *rk, const struct perf_event_header *h)
{
	struct pd_namespaces_event e;
	struct pd_ns_link_info li;
	struct idmap_slot *s;

	if (!PD_VIEW(h, &e) || e.nr_namespaces <= NS_CGROUP ||
	    !pd_view_at(h, sizeof(e) + NS_CGROUP * sizeof(li), &li, sizeof(li)))
		return 0;
	if (!(s = idmap_find(&rk->ns_tids, e.tid))) {
		if (ALLOC_GROW(rk->ns_of, rk->nr_ns + 1, rk->ns_cap) || idmap_add(&rk->ns_tids, e.tid, (int)rk->nr_ns))
			return -ENOMEM;
		s = idmap_find(&rk->ns_tids, e.tid);
		rk->nr_ns++;
	}
	rk->ns_of[s->idx][0] = li.dev;
	rk->ns_of[s->idx][1] = li.ino;
	return 0;
}

int rowkeys__record(struct rowkeys *rk, const struct perf_event_header *h)
{
	if (rk->cgroup && h->type == PERF_RECORD_CGROUP)
		return cgroup_record(rk, h);
	if (rk->ns && h->type == PERF_RECORD_NAMESPACES)
		return ns_record(rk, h);
	return 0;
}

/* perf's trace output of a tracepoint's sample (its fields, "" where they cannot be read); NULL for another event */
static int trace_of(struct rowkeys *rk, struct sort_row *k, const struct session_sample *ss)
{
	const struct pd_evsel *ev = ss->evsel >= 0 ? pdata__evsel(rk->p, (size_t)ss->evsel) : NULL;
	const char *text;
	size_t len;

	k->trace = NULL;
	if (!ev || ev->attr.type != PERF_TYPE_TRACEPOINT)
		return 0;
	if (!rk->tf.loaded && tracefmt__load(&rk->tf, rk->p, rk->label))
		return 0;	/* said; its samples show no fields */
	text = tracefmt__info(&rk->tf, ss->evsel, ev, ss->smp, &len);
	return (k->trace = strset_intern(rk->strs, text ? text : "")) ? 0 : -ENOMEM;
}

/*
 * The weight keys' fields as perf 6.1 (x86's) reads them: WEIGHT whole,
 * or WEIGHT_STRUCT's low 32 bits and its instruction latency after them.
 */
static void weight_of(struct rowkeys *rk, struct sort_row *k, const struct session_sample *ss)
{
	const struct pd_evsel *ev = ss->evsel >= 0 ? pdata__evsel(rk->p, (size_t)ss->evsel) : NULL;
	bool whole = ev && (ev->attr.sample_type & PERF_SAMPLE_WEIGHT);

	k->weight = whole ? ss->smp->weight : ss->smp->weight_struct_lo;
	k->ins_lat = whole ? 0 : ss->smp->weight_struct_hi;
	k->code_page_size = ss->smp->code_page_size;
	/* perf's data_src of a sample without one says "not available" in every part */
	k->data_src = ev && (ev->attr.sample_type & PERF_SAMPLE_DATA_SRC) ? ss->smp->data_src : MEMSRC_NONE;
	k->phys_addr = ss->smp->phys_addr;
	k->data_page_size = ss->smp->data_page_size;
	k->transaction = ss->smp->transaction;
}

uint64_t rowkeys__mem_cost(struct rowkeys *rk, const struct session_sample *ss)
{
	struct sort_row k;

	weight_of(rk, &k, ss);
	return k.weight ? k.weight : 1;
}

int rowkeys__sample(struct rowkeys *rk, struct sort_row *k, const struct session_sample *ss)
{
	const struct pd_sample *smp = ss->smp;
	const struct idmap_slot *s;

	weight_of(rk, k, ss);
	k->ip = smp->ip;
	k->time = smp->time / rk->quantum * rk->quantum;
	k->cgroup = smp->cgroup;
	k->cgroup_name = (s = idmap_find(&rk->cg_ids, smp->cgroup)) ? rk->cg_path[s->idx] : NULL;
	if ((s = idmap_find(&rk->ns_tids, smp->tid))) {
		k->cgroup_dev = rk->ns_of[s->idx][0];
		k->cgroup_ino = rk->ns_of[s->idx][1];
	}
	k->parent = NULL;
	return rk->trace ? trace_of(rk, k, ss) : 0;
}

int rowkeys__parent(struct rowkeys *rk, struct sort_row *k, const struct cc_frame *fr, const char *lvl,
		    size_t n, bool unwound)
{
	for (size_t i = 0; rk->parent && i < n; i++)
		if (fr[i].sym && !fr[i].inlined && (!unwound || lvl[i] == 'k') && !regexec(&rk->re, fr[i].sym, 0, NULL, 0)) {
			/* by name, as perf compares parents */
			return (k->parent = strset_intern(rk->strs, fr[i].sym)) ? 0 : -ENOMEM;
		}
	return 0;
}
