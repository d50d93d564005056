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
#include "../lib/err.h"
#include "out.h"
#include "report.h"
#include "session.h"
#include "symbols.h"

#define HBUCKETS 4096
#define SBUCKETS 1024

struct hent {
	struct hent *next;		/* hash chain */
	const char *comm;		/* interned */
	int pid, tid;			/* of the first sample */
	size_t comm_width;		/* perf sizes the column by the thread's last comm */
	const char *dso;		/* short name, interned */
	const char *sym;		/* NULL: unresolved, addr is shown */
	uint64_t addr;
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

struct istr {
	struct istr *next;
	char s[];
};

struct hist {
	const struct report_hist_opts *o;
	struct pdata *p;
	struct hists *h;		/* one per event */
	size_t nr;
	struct symcache *syms;
	struct istr *strs[SBUCKETS];
	bool key[4];			/* which of comm, pid, dso, sym identify an entry */
	pthread_t kthread;		/* reads kallsyms while the samples are read */
	bool kthread_running;
	uint64_t total_lost;
};

enum { K_COMM, K_PID, K_DSO, K_SYM };

static const char *intern(struct hist *H, const char *s)
{
	uint32_t h = 2166136261u;
	size_t len = strlen(s);
	struct istr *e;

	for (const char *p = s; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	for (e = H->strs[h % SBUCKETS]; e; e = e->next)
		if (!strcmp(e->s, s))
			return e->s;
	e = malloc(sizeof(*e) + len + 1);
	if (!e)
		return NULL;
	memcpy(e->s, s, len + 1);
	e->next = H->strs[h % SBUCKETS];
	H->strs[h % SBUCKETS] = e;
	return e->s;
}

/* perf shows a user DSO by its file name, everything else as it is named. */
static const char *short_name(const char *dso)
{
	const char *slash = dso[0] == '/' ? strrchr(dso, '/') : NULL;

	return slash ? slash + 1 : dso;
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
	if (H->key[K_COMM] && a->comm != b->comm)
		return false;
	if (H->key[K_PID] && a->pid != b->pid)
		return false;
	if (H->key[K_DSO] && a->dso != b->dso)
		return false;
	if (H->key[K_SYM] && (a->sym != b->sym || a->level != b->level || (!a->sym && a->addr != b->addr)))
		return false;
	return true;
}

static uint64_t hash_ent(const struct hist *H, const struct hent *e)
{
	uint64_t h = 1469598103934665603ULL;

	if (H->key[K_COMM])
		h = (h ^ (uintptr_t)e->comm) * 1099511628211ULL;
	if (H->key[K_PID])
		h = (h ^ (uint64_t)(unsigned)e->pid) * 1099511628211ULL;
	if (H->key[K_DSO])
		h = (h ^ (uintptr_t)e->dso) * 1099511628211ULL;
	if (H->key[K_SYM])
		h = (h ^ (uintptr_t)e->sym ^ (e->sym ? 0 : e->addr) ^ (uint64_t)e->level) * 1099511628211ULL;
	return h ^ (h >> 29);
}

static int add(struct hist *H, struct hists *hs, const struct hent *key, uint64_t period)
{
	uint64_t h = hash_ent(H, key) % HBUCKETS;
	struct hent *e;

	for (e = hs->buckets[h]; e; e = e->next)
		if (same(H, e, key))
			break;
	if (!e) {
		if (hs->n == hs->cap) {
			size_t cap = hs->cap ? hs->cap * 2 : 256;
			struct hent **v = realloc(hs->v, cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			hs->v = v;
			hs->cap = cap;
		}
		e = malloc(sizeof(*e));
		if (!e)
			return -ENOMEM;
		*e = *key;
		e->period = e->nr = 0;
		e->next = hs->buckets[h];
		hs->buckets[h] = e;
		hs->v[hs->n++] = e;
	}
	e->period += period;
	e->nr++;
	return 0;
}

/* Pipe mode adds events as the stream goes: grow with them. */
static struct hists *hists_of(struct hist *H, int evsel)
{
	if ((size_t)evsel >= H->nr) {
		size_t n = (size_t)evsel + 1;
		struct hists *v = realloc(H->h, n * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + H->nr, 0, (n - H->nr) * sizeof(*v));
		H->h = v;
		H->nr = n;
	}
	return &H->h[evsel];
}

/* Put entry h into hs, adding it to an equal entry if there is one (h is then freed). */
static int merge(struct hist *H, struct hists *hs, struct hent *h)
{
	uint64_t b = hash_ent(H, h) % HBUCKETS;
	struct hent *e;

	for (e = hs->buckets[b]; e; e = e->next)
		if (same(H, e, h)) {
			e->period += h->period;
			e->nr += h->nr;
			free(h);
			return 0;
		}
	if (hs->n == hs->cap) {
		size_t cap = hs->cap ? hs->cap * 2 : 256;
		struct hent **v = realloc(hs->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		hs->v = v;
		hs->cap = cap;
	}
	h->next = hs->buckets[b];
	hs->buckets[b] = h;
	hs->v[hs->n++] = h;
	return 0;
}

static int on_sample(void *arg, const struct session_sample *ss)
{
	struct hist *H = arg;
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
	k.comm = intern(H, w->comm);
	if (w->found) {
		k.dso = intern(H, short_name(w->dso));
		/* Symbols are read only when they are a key (or when --json wants them). */
		if (!H->key[K_SYM])
			;
		else if (k.level == 'k')
			k.kernel_pending = true;	/* kallsyms is still being read */
		else
			sym = symcache__find(H->syms, w->dso, w->map_start, w->map_pgoff, ss->smp->ip, &k.addr);
	} else {
		k.dso = intern(H, "[unknown]");
	}
	if (!k.comm || !k.dso || !hs)
		return -ENOMEM;
	k.sym = sym ? sym->name : NULL;
	if (H->o->comm && !listed(H->o->comm, k.comm))
		return 0;
	if (H->o->dso && !listed(H->o->dso, k.dso))
		return 0;
	hs->total_period += ss->period;
	hs->nr_samples++;
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
				h->sym = sym ? sym->name : NULL;
				h->kernel_pending = false;
			}
			err = merge(H, hs, h);
			if (err)
				return err;
		}
		free(old.v);
	}
	return 0;
}

static void on_finish(void *arg, struct machine *m)
{
	struct hist *H = arg;

	for (size_t i = 0; i < H->nr; i++)
		for (size_t e = 0; e < H->h[i].n; e++) {
			struct hent *h = H->h[i].v[e];
			const char *c = machine__thread_comm(m, h->tid);

			h->comm_width = strlen(c ? c : h->comm);
		}
}

static void on_lost(void *arg, int evsel, uint64_t lost)
{
	struct hist *H = arg;
	struct hists *hs = hists_of(H, evsel);

	if (hs)
		hs->lost += lost;
	H->total_lost += lost;
}

/* ---- output ---- */

static const struct hist *sort_ctx;

static int ent_cmp(const void *pa, const void *pb)
{
	const struct hent *a = *(const struct hent *const *)pa, *b = *(const struct hent *const *)pb;
	const struct hist *H = sort_ctx;
	int c;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	for (int i = 0; i < H->o->nr_keys; i++) {
		switch (H->o->keys[i]) {
		case REPORT_KEY_COMM:
			if ((c = strcmp(a->comm, b->comm)))
				return c;
			break;
		case REPORT_KEY_PID:
			if (a->pid != b->pid)
				return a->pid < b->pid ? -1 : 1;
			break;
		case REPORT_KEY_DSO:
			if ((c = strcmp(a->dso, b->dso)))
				return c;
			break;
		case REPORT_KEY_SYM:
			if (a->sym && b->sym && (c = strcmp(a->sym, b->sym)))
				return c;
			if (!a->sym != !b->sym)
				return a->sym ? -1 : 1;
			if (!a->sym && a->addr != b->addr)
				return a->addr < b->addr ? -1 : 1;
			break;
		}
	}
	return 0;
}

static int sym_text(char *buf, size_t len, const struct hent *e)
{
	if (e->sym)
		return snprintf(buf, len, "[%c] %s", e->level, e->sym);
	return snprintf(buf, len, "[%c] %#018" PRIx64, e->level, e->addr);
}

static int key_text(char *buf, size_t len, const struct hent *e, enum report_key k)
{
	switch (k) {
	case REPORT_KEY_COMM: return snprintf(buf, len, "%s", e->comm);
	case REPORT_KEY_PID: return snprintf(buf, len, "%7d:%s", e->pid, e->comm);
	case REPORT_KEY_DSO: return snprintf(buf, len, "%s", e->dso);
	case REPORT_KEY_SYM: return sym_text(buf, len, e);
	}
	return 0;
}

static const char *const key_header[] = {
	[REPORT_KEY_COMM] = "Command", [REPORT_KEY_PID] = "  Pid:Command",
	[REPORT_KEY_DSO] = "Shared Object", [REPORT_KEY_SYM] = "Symbol",
};

/* "1K": perf's abbreviated sample count (integer division, ' ' below a thousand). */
static void samples_abbrev(struct out *out, uint64_t n)
{
	char unit = ' ';

	if (n > 1000000000ULL) {
		n /= 1000000000ULL;
		unit = 'G';
	} else if (n > 1000000ULL) {
		n /= 1000000ULL;
		unit = 'M';
	} else if (n > 1000ULL) {
		n /= 1000ULL;
		unit = 'K';
	}
	out_printf(out, "%" PRIu64 "%c", n, unit);
}

static void print_text(struct hist *H, struct out *out)
{
	const struct report_hist_opts *o = H->o;
	char buf[4096];

	out_str(out, "# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	out_printf(out, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", H->total_lost);
	for (size_t i = 0, printed = 0; i < H->nr; i++) {
		struct hists *hs = &H->h[i];
		size_t width[REPORT_MAX_KEYS] = { 0 }, shown = 0;

		if (!hs->nr_samples)
			continue;	/* like perf (report.skip-empty) */

		sort_ctx = H;
		qsort(hs->v, hs->n, sizeof(*hs->v), ent_cmp);
		for (size_t e = 0; e < hs->n; e++) {
			double pct = hs->total_period ? 100.0 * (double)hs->v[e]->period / (double)hs->total_period : 0;

			if (pct < o->percent_limit)
				break;
			shown = e + 1;
		}
		for (int k = 0; k < o->nr_keys; k++) {
			width[k] = strlen(key_header[o->keys[k]]);
			/* perf sizes the columns before --percent-limit hides rows. */
			for (size_t e = 0; e < hs->n; e++) {
				size_t n = o->keys[k] == REPORT_KEY_COMM ? hs->v[e]->comm_width
					   : (size_t)key_text(buf, sizeof(buf), hs->v[e], o->keys[k]);

				if (n > width[k])
					width[k] = n;
			}
		}
		if (printed++)
			out_str(out, "\n\n");
		out_str(out, "# Samples: ");
		samples_abbrev(out, hs->nr_samples);
		out_printf(out, " of event '%s'\n", pdata__evsel(H->p, i)->name);
		out_printf(out, "# Event count (approx.): %" PRIu64 "\n#\n", hs->total_period);
		out_str(out, "# Overhead");
		for (int k = 0; k < o->nr_keys; k++)
			out_printf(out, "  %-*s", (int)width[k], key_header[o->keys[k]]);
		out_str(out, "\n# ........");
		for (int k = 0; k < o->nr_keys; k++) {
			out_str(out, "  ");
			for (size_t d = 0; d < width[k]; d++)
				out_char(out, '.');
		}
		out_str(out, "\n#\n");
		for (size_t e = 0; e < shown; e++) {
			const struct hent *h = hs->v[e];

			out_printf(out, "  %7.2f%%", hs->total_period ? 100.0 * (double)h->period / (double)hs->total_period : 0.0);
			for (int k = 0; k < o->nr_keys; k++) {
				key_text(buf, sizeof(buf), h, o->keys[k]);
				/* A comm wider than its column is cut, as perf cuts it. */
				if (o->keys[k] == REPORT_KEY_COMM)
					out_printf(out, "  %-*.*s", (int)width[k], (int)width[k], buf);
				else if (k + 1 < o->nr_keys)
					out_printf(out, "  %-*s", (int)width[k], buf);
				else
					out_printf(out, "  %s", buf);
			}
			out_char(out, '\n');
		}
	}
	out_str(out, "\n\n#\n# (Tip: mperf report -D shows every record, perf's way)\n#\n");
}

int report__hist(struct pdata *p, const struct report_hist_opts *o, FILE *f, char *err, size_t errlen)
{
	struct hist H = { .o = o, .p = p };
	struct session_ops ops = { .sample = on_sample, .lost = on_lost, .finish = on_finish, .arg = &H };
	struct out out;
	int ret;

	H.syms = symcache__new();
	if (!H.syms)
		return -ENOMEM;
	for (int k = 0; k < o->nr_keys; k++)
		H.key[o->keys[k]] = true;
	/* The session may add events (pipe mode): size for the most there can be. */
	H.nr = pdata__nr_evsel(p);
	H.h = calloc(H.nr ? H.nr : 1, sizeof(*H.h));
	if (H.key[K_SYM] && pthread_create(&H.kthread, NULL, load_kernel_symbols, H.syms) == 0)
		H.kthread_running = true;
	ret = H.h ? session__run(p, "", f, SESSION_HIST, &ops, err, errlen) : -ENOMEM;
	if (ret >= 0)
		ret = resolve_kernel(&H);
	else if (H.kthread_running)
		pthread_join(H.kthread, NULL);
	if (ret >= 0 && out_init(&out, f) == 0) {
		print_text(&H, &out);
		ret = out_finish(&out);
		if (ret < 0 && ret != -EPIPE)
			snprintf(err, errlen, "write error on the output: %s", strerror(-ret));
	}
	for (size_t i = 0; H.h && i < H.nr; i++) {
		for (size_t e = 0; e < H.h[i].n; e++)
			free(H.h[i].v[e]);
		free(H.h[i].v);
	}
	for (int b = 0; b < SBUCKETS; b++)
		for (struct istr *s = H.strs[b], *n; s; s = n) {
			n = s->next;
			free(s);
		}
	free(H.h);
	symcache__delete(H.syms);
	return ret;
}
