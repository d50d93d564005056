// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-event histograms: every sample lands in the entry of its sort keys
 * (comm, pid, dso, sym), weighted by its period; entries are printed in
 * perf report --stdio's shape, or as JSON.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "../lib/err.h"
#include "../lib/hash.h"
#include "../lib/log.h"
#include "../lib/strset.h"
#include "out.h"
#include "report.h"
#include "session.h"
#include "symbols.h"

#define HBUCKETS 4096

struct hent {
	struct hent *next;		/* hash chain */
	const char *comm;		/* interned */
	int pid, tid;			/* of the first sample */
	size_t comm_width;		/* perf sizes the column by the thread's last comm */
	const char *dso;		/* short name, interned */
	const char *sym;		/* NULL: unresolved, addr is shown */
	uint64_t sym_start, sym_end;
	uint64_t addr;			/* the first sample's map-relative address */
	const char *last_comm;		/* the thread's comm at the end (pid column) */
	bool filtered;			/* hidden by --comms/--dsos: counted, not shown */
	char level;			/* '.' user, 'k' kernel, 'H' hypervisor... */
	bool kernel_pending;		/* a kernel ip whose symbol is looked up at the end */
	uint64_t period, nr;
};

struct hists {
	struct hent *buckets[HBUCKETS];
	struct hent **v;		/* every entry, for sorting */
	size_t n, cap;
	uint64_t total_period, nr_samples, lost;
};

struct hist {
	const struct report_hist_opts *o;
	struct pdata *p;
	struct hists *h;		/* one per event */
	size_t nr, h_cap;
	struct symcache *syms;
	struct strset strs;		/* comms and dso names */
	bool key[REPORT_NR_KEYS];	/* which of comm, pid, dso, sym identify an entry */
	/* Samples come in runs from one thread and one map: remember the last ones. */
	const char *last_comm_raw, *last_comm;
	const char *last_dso_raw, *last_dso;
	bool last_jit;
	pthread_t kthread;		/* reads kallsyms while the samples are read */
	bool kthread_running;
	uint64_t total_lost;
	uint64_t total_samples;
};


static const char *intern(struct hist *H, const char *s)
{
	return strset_intern(&H->strs, s);
}

/*
 * perf shows a user DSO by its file name, anonymous executable memory
 * (which the machine names /tmp/perf-PID.map) as "[JIT] tid PID", and
 * everything else as it is named.
 */
static const char *short_name(const char *dso, char *buf, size_t len)
{
	const char *slash = dso[0] == '/' ? strrchr(dso, '/') : NULL;
	int pid;
	char tail;

	if (!strncmp(dso, "/tmp/perf-", 10) && sscanf(dso, "/tmp/perf-%d.ma%c", &pid, &tail) == 2 && tail == 'p') {
		snprintf(buf, len, "[JIT] tid %d", pid);
		return buf;
	}
	return slash ? slash + 1 : dso;
}

static bool is_jit(const char *dso)
{
	int pid;
	char tail;

	return !strncmp(dso, "/tmp/perf-", 10) && sscanf(dso, "/tmp/perf-%d.ma%c", &pid, &tail) == 2 && tail == 'p';
}

static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p; ) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return true;
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

static bool same(const struct hist *H, const struct hent *a, const struct hent *b)
{
	if (H->key[REPORT_KEY_COMM] && a->comm != b->comm)
		return false;
	if (H->key[REPORT_KEY_PID] && a->tid != b->tid)	/* perf's "pid" key is the thread */
		return false;
	if (H->key[REPORT_KEY_DSO] && a->dso != b->dso)
		return false;
	if (H->key[REPORT_KEY_SYM] && (a->sym != b->sym || a->sym_start != b->sym_start || a->level != b->level ||
			      (!a->sym && a->addr != b->addr)))
		return false;
	return a->filtered == b->filtered;
}

static uint64_t hash_ent(const struct hist *H, const struct hent *e)
{
	uint64_t h = HASH_FNV_INIT;

	if (H->key[REPORT_KEY_COMM])
		h = hash_mix(h, (uintptr_t)e->comm);
	if (H->key[REPORT_KEY_PID])
		h = hash_mix(h, (uint64_t)(unsigned)e->tid);
	if (H->key[REPORT_KEY_DSO])
		h = hash_mix(h, (uintptr_t)e->dso);
	if (H->key[REPORT_KEY_SYM])
		h = hash_mix(h, (uintptr_t)e->sym ^ (e->sym ? 0 : e->addr) ^ (uint64_t)e->level);
	return h ^ (h >> 29);
}

/* The entry equal to key under the sort keys, or NULL; *bucket gets its hash bucket. */
static struct hent *lookup(const struct hist *H, const struct hists *hs, const struct hent *key, size_t *bucket)
{
	*bucket = hash_ent(H, key) % HBUCKETS;
	for (struct hent *e = hs->buckets[*bucket]; e; e = e->next)
		if (same(H, e, key))
			return e;
	return NULL;
}

/* Insert a new entry (taken over: freed if it cannot be kept). */
static int insert(struct hists *hs, size_t bucket, struct hent *h)
{
	if (ALLOC_GROW(hs->v, hs->n + 1, hs->cap)) {
		free(h);
		return -ENOMEM;
	}
	h->next = hs->buckets[bucket];
	hs->buckets[bucket] = h;
	hs->v[hs->n++] = h;
	return 0;
}

/* One sample of weight period into the entry of key's sort keys. */
static int add(struct hist *H, struct hists *hs, const struct hent *key, uint64_t period)
{
	size_t b;
	struct hent *e = lookup(H, hs, key, &b);

	if (!e) {
		if (!(e = malloc(sizeof(*e))))
			return -ENOMEM;
		*e = *key;
		e->period = e->nr = 0;
		if (insert(hs, b, e))
			return -ENOMEM;
	}
	e->period += period;
	e->nr++;
	return 0;
}

/* Put entry h into hs, adding it to an equal entry if there is one (h is then freed). */
static int merge(struct hist *H, struct hists *hs, struct hent *h)
{
	size_t b;
	struct hent *e = lookup(H, hs, h, &b);

	if (!e)
		return insert(hs, b, h);
	e->period += h->period;
	e->nr += h->nr;
	free(h);
	return 0;
}

/* Pipe mode adds events as the stream goes: grow with them. */
static struct hists *hists_of(struct hist *H, int evsel)
{
	if ((size_t)evsel >= H->nr) {
		size_t n = (size_t)evsel + 1;

		if (ALLOC_GROW(H->h, n, H->h_cap))
			return NULL;
		memset(H->h + H->nr, 0, (n - H->nr) * sizeof(*H->h));
		H->nr = n;
	}
	return &H->h[evsel];
}

static int add_sample(struct hist *H, const struct session_sample *ss)
{
	struct hists *hs = hists_of(H, ss->evsel);
	const struct resolved *w = &ss->where;
	struct hent k = { .pid = w->pid, .tid = w->tid, .addr = ss->smp->ip };
	const struct sym *sym = NULL;

	switch (ss->cpumode) {
	case PERF_RECORD_MISC_KERNEL: k.level = 'k'; break;
	case PERF_RECORD_MISC_USER: k.level = '.'; break;
	case PERF_RECORD_MISC_GUEST_KERNEL: k.level = 'g'; break;
	case PERF_RECORD_MISC_GUEST_USER: k.level = 'u'; break;
	default: k.level = 'H'; break;
	}
	/* The machine's strings are stable while they live: compare before interning again. */
	if (w->comm != H->last_comm_raw || strcmp(w->comm, H->last_comm)) {
		H->last_comm = intern(H, w->comm);
		H->last_comm_raw = H->last_comm ? w->comm : NULL;
	}
	k.comm = H->last_comm;
	if (w->found) {
		char jit[64];

		if (w->dso != H->last_dso_raw) {
			H->last_dso = intern(H, short_name(w->dso, jit, sizeof(jit)));
			H->last_jit = is_jit(w->dso);
			H->last_dso_raw = H->last_dso ? w->dso : NULL;
		}
		k.dso = H->last_dso;
		/* perf resolves every sample: the first one's symbol also sizes the columns. */
		if (k.level == 'k')
			k.kernel_pending = true;	/* kallsyms is still being read */
		else if (H->last_jit)
			k.addr = ss->smp->ip;		/* an identity map, no symbols */
		else
			sym = symcache__find(H->syms, w->dso, w->map_start, w->map_pgoff, ss->smp->ip, &k.addr);
	} else {
		k.dso = NULL;	/* no map: "[unknown]" */
	}
	if (!k.comm || (w->found && !k.dso) || !hs)
		return -ENOMEM;
	if (sym) {
		k.sym = sym->name;
		k.sym_start = sym->start;
		k.sym_end = sym->end;
	}
	/* Filtered samples still count in the totals: perf's percentages are absolute. */
	if (H->o->comm && !listed(H->o->comm, k.comm))
		k.filtered = true;
	if (H->o->dso && !(k.dso && (listed(H->o->dso, k.dso) || listed(H->o->dso, w->dso))))
		k.filtered = true;
	hs->total_period += ss->period;
	hs->nr_samples++;
	H->total_samples++;
	return add(H, hs, &k, ss->period);
}

static void *load_kernel_symbols(void *arg)
{
	symcache__load_kernel(arg);
	return NULL;
}

/* Kernel samples were kept by ip: now that kallsyms is read, merge them by symbol. */
static int resolve_kernel(struct hist *H)
{
	if (H->kthread_running) {
		pthread_join(H->kthread, NULL);
		H->kthread_running = false;
	}
	for (size_t i = 0; i < H->nr; i++) {
		struct hists *hs = &H->h[i], old = *hs;
		bool any = false;

		for (size_t e = 0; e < old.n && !any; e++)
			any = old.v[e]->kernel_pending;
		if (!any)
			continue;
		memset(hs, 0, sizeof(*hs));
		hs->total_period = old.total_period;
		hs->nr_samples = old.nr_samples;
		hs->lost = old.lost;
		for (size_t e = 0; e < old.n; e++) {
			struct hent *h = old.v[e];
			const struct sym *sym;
			int err;

			if (h->kernel_pending) {
				sym = symcache__find_kernel(H->syms, h->addr);
				if (sym) {
					h->sym = sym->name;
					h->sym_start = sym->start;
					h->sym_end = sym->end;
				}
				h->kernel_pending = false;
			}
			err = merge(H, hs, h);
			if (err) {
				while (++e < old.n)
					free(old.v[e]);
				free(old.v);
				return err;
			}
		}
		free(old.v);
	}
	return 0;
}

static int on_sample(void *arg, const struct session_sample *ss)
{
	return add_sample(arg, ss) ? mperf_error(-ENOMEM, "out of memory") : 0;
}

static int on_finish(void *arg, struct machine *m)
{
	struct hist *H = arg;

	for (size_t i = 0; i < H->nr; i++)
		for (size_t e = 0; e < H->h[i].n; e++) {
			struct hent *h = H->h[i].v[e];
			const char *c = machine__thread_comm(m, h->tid);

			h->last_comm = c ? intern(H, c) : h->comm;
			if (!h->last_comm)
				h->last_comm = h->comm;
			h->comm_width = strlen(h->last_comm);
		}
	return 0;
}

/* LOST_SAMPLES records: perf's "Total Lost Samples", by event. */
static int on_record(void *arg, const struct session_record *r)
{
	struct hist *H = arg;
	struct pd_lost_samples_event e;
	struct hists *hs;

	if (r->h->type != PERF_RECORD_LOST_SAMPLES || r->evsel < 0 || !PD_VIEW(r->h, &e))
		return 0;
	if (!(hs = hists_of(H, r->evsel)))
		return mperf_error(-ENOMEM, "out of memory");
	hs->lost += e.lost;
	H->total_lost += e.lost;
	return 0;
}

/* ---- output ---- */

static int strcmp_null_last(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;
	return strcmp(a, b);
}

/*
 * perf's output order: period, then each key's sort function (names, a
 * resolved symbol before an unresolved one), then, for what is still equal,
 * the order entries were collapsed in: each key's compare function (symbol
 * addresses, unresolved ones by address).
 */
static int ent_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct hent *a = *(const struct hent *const *)pa, *b = *(const struct hent *const *)pb;
	const struct hist *H = ctx;
	int c;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	for (int i = 0; i < H->o->nr_keys; i++) {
		switch (H->o->keys[i]) {
		case REPORT_KEY_COMM:
			c = strcmp(a->comm, b->comm);
			break;
		case REPORT_KEY_PID:
			c = (a->tid > b->tid) - (a->tid < b->tid);
			break;
		case REPORT_KEY_DSO:
			c = strcmp_null_last(a->dso, b->dso);
			break;
		case REPORT_KEY_SYM:
			c = a->sym && b->sym ? strcmp(a->sym, b->sym) : !a->sym - !b->sym;
			break;
		default:
			c = 0;
		}
		if (c)
			return c;
	}
	for (int i = 0; i < H->o->nr_keys; i++) {
		switch (H->o->keys[i]) {
		case REPORT_KEY_COMM:
			c = strcmp(a->comm, b->comm);
			break;
		case REPORT_KEY_PID:
			c = 0;
			break;
		case REPORT_KEY_DSO:
			c = strcmp_null_last(a->dso, b->dso);
			break;
		case REPORT_KEY_SYM:
			if ((c = strcmp_null_last(a->dso, b->dso)))
				break;
			if (!a->sym != !b->sym) {
				c = a->sym ? 1 : -1;
				break;
			}
			if (!a->sym)
				c = (a->addr > b->addr) - (a->addr < b->addr);
			else if (a->sym_start != b->sym_start)
				c = a->sym_start < b->sym_start ? -1 : 1;
			else
				c = (a->sym_end > b->sym_end) - (a->sym_end < b->sym_end);
			break;
		default:
			c = 0;
		}
		if (c)
			return c;
	}
	return 0;
}

static const char *const key_header[] = {
	[REPORT_KEY_COMM] = "Command", [REPORT_KEY_PID] = "    Pid:Command",
	[REPORT_KEY_DSO] = "Shared Object", [REPORT_KEY_SYM] = "Symbol",
};

static const char *const key_name[] = {
	[REPORT_KEY_COMM] = "comm", [REPORT_KEY_PID] = "pid",
	[REPORT_KEY_DSO] = "dso", [REPORT_KEY_SYM] = "symbol",
};

/* The width perf computes for an entry's cell (its col_len). */
static size_t cell_len(const struct hent *e, enum report_key k)
{
	switch (k) {
	case REPORT_KEY_COMM: return e->comm_width;
	case REPORT_KEY_PID: return e->comm_width + 8;
	case REPORT_KEY_DSO: return e->dso ? strlen(e->dso) : 0;
	case REPORT_KEY_SYM: return e->sym ? strlen(e->sym) + 4 : 16 + 4 + 2;
	}
	return 0;
}

/* One cell; the last column is printed unpadded only for the symbol. */
static void print_cell(struct out *out, const struct hent *e, enum report_key k, int width, bool last)
{
	switch (k) {
	case REPORT_KEY_COMM:
		out_printf(out, "%-*.*s", width, width, e->comm);
		break;
	case REPORT_KEY_PID: {
		int w = (width > 7 ? width : 7) - 8;

		out_printf(out, "%7d:%-*.*s", e->tid, w, w < 0 ? 0 : w, e->last_comm);
		break;
	}
	case REPORT_KEY_DSO:
		out_printf(out, "%-*.*s", width, width, e->dso ? e->dso : "[unknown]");
		break;
	case REPORT_KEY_SYM: {
		char buf[4096];

		if (e->sym)
			snprintf(buf, sizeof(buf), "[%c] %s", e->level, e->sym);
		else
			snprintf(buf, sizeof(buf), "[%c] %#018" PRIx64, e->level, e->addr);
		if (last)
			out_str(out, buf);
		else
			out_printf(out, "%-*s", width, buf);
		break;
	}
	}
}

/* "1K": perf's abbreviated sample count (strictly above 1000, divided down step by step). */
static void samples_abbrev(struct out *out, uint64_t n)
{
	char unit = ' ';

	if (n > 1000) {
		n /= 1000;
		unit = 'K';
	}
	if (n > 1000) {
		n /= 1000;
		unit = 'M';
	}
	if (n > 1000)
		unit = 'G';
	out_printf(out, "%" PRIu64 "%c", n, unit);
}

/* A single-value filter on a sorted key removes that column (perf's "elided" columns). */
static const char *single_value(const char *list)
{
	return list && !strchr(list, ',') ? list : NULL;
}

static void print_text(struct hist *H, struct out *out)
{
	const struct report_hist_opts *o = H->o;
	enum report_key cols[REPORT_MAX_KEYS];
	int nc = 0;

	if (!o->after_header)
		out_str(out, "# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	if (!H->total_samples) {
		mperf_log(MPERF_LOG_WARN, "the file has no samples");
		return;
	}
	for (int k = 0; k < o->nr_keys; k++) {
		enum report_key key = o->keys[k];
		const char *v = key == REPORT_KEY_COMM ? single_value(o->comm)
				: key == REPORT_KEY_DSO ? single_value(o->dso) : NULL;

		if (v)
			out_printf(out, "# %s: %s\n", key_name[key], v);
		else
			cols[nc++] = key;
	}
	if (!nc) {	/* every column elided: perf shows them all again */
		for (int k = 0; k < o->nr_keys; k++)
			cols[nc++] = o->keys[k];
	}
	out_printf(out, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", H->total_lost);
	for (size_t i = 0, printed = 0; i < H->nr; i++) {
		struct hists *hs = &H->h[i];
		int width[REPORT_MAX_KEYS] = { 0 };
		bool unresolved = false;

		if (!hs->nr_samples)
			continue;	/* like perf (report.skip-empty) */
		qsort_r(hs->v, hs->n, sizeof(*hs->v), ent_cmp, H);
		/* Columns fit every shown entry, including those --percent-limit hides. */
		for (int c = 0; c < nc; c++)
			width[c] = (int)strlen(key_header[cols[c]]);
		for (size_t e = 0; e < hs->n; e++) {
			if (hs->v[e]->filtered)
				continue;
			unresolved |= !hs->v[e]->sym;
			for (int c = 0; c < nc; c++)
				if ((int)cell_len(hs->v[e], cols[c]) > width[c])
					width[c] = (int)cell_len(hs->v[e], cols[c]);
		}
		/* An unresolved symbol prints as 16 hex digits: perf widens the dso column to match. */
		for (int c = 0; c < nc; c++)
			if (cols[c] == REPORT_KEY_DSO && unresolved && !o->dso && width[c] < 16)
				width[c] = 16;
		if (printed++)
			out_str(out, "\n\n");
		out_str(out, "# Samples: ");
		samples_abbrev(out, hs->nr_samples);
		out_printf(out, " of event '%s'\n", pdata__evsel(H->p, i)->name);
		out_printf(out, "# Event count (approx.): %" PRIu64 "\n#\n", hs->total_period);
		out_str(out, "# Overhead");
		for (int c = 0; c < nc; c++)
			out_printf(out, "  %-*.*s", width[c], width[c], key_header[cols[c]]);
		out_str(out, "\n# ........");
		for (int c = 0; c < nc; c++) {
			out_str(out, "  ");
			for (int d = 0; d < width[c]; d++)
				out_char(out, '.');
		}
		out_str(out, "\n#\n");
		for (size_t e = 0; e < hs->n; e++) {
			const struct hent *h = hs->v[e];
			double pct = hs->total_period ? 100.0 * (double)h->period / (double)hs->total_period : 0.0;

			if (h->filtered || (float)pct < (float)o->percent_limit)
				continue;
			out_printf(out, "  %7.2f%%", pct);
			for (int c = 0; c < nc; c++) {
				out_str(out, "  ");
				print_cell(out, h, cols[c], width[c], c + 1 == nc);
			}
			out_char(out, '\n');
		}
	}
	out_str(out, "\n\n#\n# (Tip: mperf report -D shows every record, perf's way)\n#\n");
}

static void json_str(struct out *out, const char *s)
{
	out_char(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			out_char(out, '\\');
			out_char(out, (char)c);
		} else if (c < 0x20) {
			out_printf(out, "\\u%04x", c);
		} else {
			out_char(out, (char)c);
		}
	}
	out_char(out, '"');
}

/* The schema is documented in man/mperf-report.1 (JSON OUTPUT); keep them in step. */
static void print_json(struct hist *H, struct out *out)
{
	const struct report_hist_opts *o = H->o;
	bool first_ev = true;

	out_printf(out, "{\n  \"schema\": \"mperf-report/1\",\n  \"total_lost_samples\": %" PRIu64 ",\n  \"sort\": [",
		   H->total_lost);
	for (int k = 0; k < o->nr_keys; k++)
		out_printf(out, "%s\"%s\"", k ? ", " : "", key_name[o->keys[k]]);
	out_str(out, "],\n  \"events\": [");
	for (size_t i = 0; i < H->nr; i++) {
		struct hists *hs = &H->h[i];
		bool first_row = true;

		if (!hs->nr_samples)
			continue;
		qsort_r(hs->v, hs->n, sizeof(*hs->v), ent_cmp, H);
		out_str(out, first_ev ? "\n    {\"name\": " : ",\n    {\"name\": ");
		first_ev = false;
		json_str(out, pdata__evsel(H->p, i)->name);
		out_printf(out, ", \"samples\": %" PRIu64 ", \"event_count\": %" PRIu64 ", \"lost_samples\": %" PRIu64 ",\n     \"rows\": [",
			   hs->nr_samples, hs->total_period, hs->lost);
		for (size_t e = 0; e < hs->n; e++) {
			const struct hent *h = hs->v[e];
			double pct = hs->total_period ? 100.0 * (double)h->period / (double)hs->total_period : 0.0;

			if (h->filtered || (float)pct < (float)o->percent_limit)
				continue;
			out_printf(out, "%s\n      {\"overhead\": %.4f, \"period\": %" PRIu64 ", \"samples\": %" PRIu64,
				   first_row ? "" : ",", pct, h->period, h->nr);
			first_row = false;
			for (int k = 0; k < o->nr_keys; k++) {
				switch (o->keys[k]) {
				case REPORT_KEY_COMM:
					out_str(out, ", \"comm\": ");
					json_str(out, h->comm);
					break;
				case REPORT_KEY_PID:
					out_printf(out, ", \"tid\": %d, \"thread_comm\": ", h->tid);
					json_str(out, h->last_comm ? h->last_comm : h->comm);
					break;
				case REPORT_KEY_DSO:
					out_str(out, ", \"dso\": ");
					json_str(out, h->dso ? h->dso : "[unknown]");
					break;
				case REPORT_KEY_SYM:
					out_printf(out, ", \"level\": \"%c\", \"symbol\": ", h->level);
					if (h->sym)
						json_str(out, h->sym);
					else
						out_str(out, "null");
					out_printf(out, ", \"address\": \"%#" PRIx64 "\"", h->sym ? h->sym_start : h->addr);
					break;
				}
			}
			out_char(out, '}');
		}
		out_str(out, first_row ? "]}" : "\n     ]}");
	}
	out_str(out, first_ev ? "]\n}\n" : "\n  ]\n}\n");
}

static size_t recorded_build_id(void *arg, const char *name, unsigned char id[20])
{
	return pdata__build_id(arg, name, id);
}

int report__hist(struct pdata *p, const char *label, const struct report_hist_opts *o, FILE *f)
{
	struct hist H = { .o = o, .p = p };
	struct session_ops ops = {
		.record = on_record, .sample = on_sample, .finish = on_finish, .arg = &H, .machine = true,
	};
	struct out out;
	int ret;

	H.syms = symcache__new();
	if (!H.syms)
		return mperf_error(-ENOMEM, "out of memory");
	symcache__set_build_ids(H.syms, recorded_build_id, p);
	for (int k = 0; k < o->nr_keys; k++)
		H.key[o->keys[k]] = true;
	/* Pipe mode adds events as it goes: hists_of() grows the array then. */
	H.nr = H.h_cap = pdata__nr_evsel(p);
	H.h = calloc(H.nr ? H.nr : 1, sizeof(*H.h));
	if (!H.nr)
		H.h_cap = 1;
	if (pthread_create(&H.kthread, NULL, load_kernel_symbols, H.syms) == 0)
		H.kthread_running = true;
	ret = H.h ? session__run(p, label, &ops) : mperf_error(-ENOMEM, "out of memory");
	if (ret >= 0 && (ret = resolve_kernel(&H)))
		ret = mperf_error(ret, "out of memory");
	else if (ret < 0 && H.kthread_running)
		pthread_join(H.kthread, NULL);
	if (ret >= 0 && out_init(&out, f)) {
		ret = mperf_error(-ENOMEM, "out of memory");
	} else if (ret >= 0) {
		if (o->json)
			print_json(&H, &out);
		else
			print_text(&H, &out);
		ret = out_close(&out, 0, label);
	}
	for (size_t i = 0; H.h && i < H.nr; i++) {
		for (size_t e = 0; e < H.h[i].n; e++)
			free(H.h[i].v[e]);
		free(H.h[i].v);
	}
	strset_free(&H.strs);
	free(H.h);
	symcache__delete(H.syms);
	return ret;
}
