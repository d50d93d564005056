// SPDX-License-Identifier: GPL-2.0-only
/*
 * A sample's stack walked and resolved as perf report does (see
 * stackwalk.h): shared by the histograms' call chains and the exports.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "../lib/hash.h"
#include "../lib/strset.h"
#include "session.h"
#include "stackwalk.h"
#include "symbols.h"
#include "unwind.h"

#define MAX_STACK STACKWALK_MAX_STACK
#define DBUCKETS STACKWALK_DBUCKETS
/* In the walk's levels: a frame of the unwinder's, not of the recorded chain. */
#define UNWOUND 0x40
#define UMEMO_SLOTS 4096

/* An unwound user frame as resolve_frame_now resolved it (struct stackwalk's umemo). */
struct stackwalk_umemo {
	uint64_t gen, ip;
	const void *maps;	/* NULL: an empty slot */
	bool with_inl;		/* asked for the inline list (an unwound frame) */
	bool found;		/* a map covers ip: level is '.' */
	struct cc_frame f;
	const char *const *inl;	/* the symbol cache's, stable */
	size_t ninl;
};
/* Context markers in a chain (perf_event.h): at or above this, not an address. */
#define CONTEXT_MAX ((uint64_t)-4095)

static const char *intern(struct stackwalk *W, const char *s)
{
	return strset_intern(W->strs, s);
}

const char *stackwalk_short_name(const char *dso, char *buf, size_t len)
{
	const char *slash = dso[0] == '/' ? strrchr(dso, '/') : NULL;
	int pid;
	char tail;

	if (!strncmp(dso, "/tmp/perf-", 10) && sscanf(dso, "/tmp/perf-%d.ma%c", &pid, &tail) == 2 && tail == 'p') {
		snprintf(buf, len, "[JIT] tid %d", pid);
		return buf;
	}
	if (stackwalk_is_module(dso)) {
		const char *ko = strstr(slash + 1, ".ko");
		size_t n = (size_t)(ko - (slash + 1)), i;

		if (n + 3 <= len) {
			buf[0] = '[';
			for (i = 0; i < n; i++)
				buf[i + 1] = slash[1 + i] == '-' ? '_' : slash[1 + i];
			buf[n + 1] = ']';
			buf[n + 2] = 0;
			return buf;
		}
	}
	return slash ? slash + 1 : dso;
}

bool stackwalk_is_module(const char *dso)
{
	const char *slash = dso[0] == '/' ? strrchr(dso, '/') : NULL, *ko;

	if (!slash || !(ko = strstr(slash + 1, ".ko")) || ko == slash + 1)
		return false;
	/* NAME.ko, or compressed as the kernel installs modules */
	return !ko[3] || !strcmp(ko + 3, ".gz") || !strcmp(ko + 3, ".xz") || !strcmp(ko + 3, ".zst") ||
	       !strcmp(ko + 3, ".bz2");
}

char stackwalk_origin(struct symcache *syms, const char *path)
{
	const char *ko;

	if (!path)
		return '!';
	if (!stackwalk_is_module(path))
		return symcache__origin(syms, path);
	ko = strrchr(path, '.');
	return ko && strcmp(ko, ".ko") ? 'm' : 'K';
}

void stackwalk_kernel_hit(struct symcache *syms, int cpumode, const struct resolved *r)
{
	if (cpumode == PERF_RECORD_MISC_KERNEL && r->found && !strcmp(r->dso, "[kernel.kallsyms]"))
		symcache__kernel_hit(syms);
}

bool stackwalk_is_jit(const char *dso)
{
	int pid;
	char tail;

	return !strncmp(dso, "/tmp/perf-", 10) && sscanf(dso, "/tmp/perf-%d.ma%c", &pid, &tail) == 2 && tail == 'p';
}

/*
 * The DSO the machine names dso: the machine interns its DSO names, so the
 * pointer is the DSO while the session runs; id, interned here, outlives it.
 */
struct stackwalk_dso *stackwalk__dso(struct stackwalk *W, const char *dso, uint32_t rank)
{
	size_t b = (size_t)(hash_u64((uintptr_t)dso) % DBUCKETS);
	struct stackwalk_dso *d;
	char jit[64], kname[256];

	for (d = W->dsos[b]; d; d = d->next)
		if (d->raw == dso)
			return d;
	if (!(d = calloc(1, sizeof(*d))))
		return NULL;
	d->raw = dso;
	d->id = intern(W, dso);
	d->name = intern(W, symcache__kernel_dso_name(W->syms, stackwalk_short_name(dso, jit, sizeof(jit)), SYMCACHE_KNAME_SHORT, kname,
							    sizeof(kname)));
	d->jit = stackwalk_is_jit(dso);
	d->rank = rank;
	if (!d->id || !d->name) {
		free(d);
		return NULL;
	}
	d->next = W->dsos[b];
	W->dsos[b] = d;
	return d;
}

/* The map of a user ip the unwinder looked up for this sample: true and *r, or false. */
static bool seen_map(const struct stackwalk *W, int cpumode, uint64_t ip, struct resolved *r)
{
	if (cpumode != PERF_RECORD_MISC_USER)
		return false;
	for (size_t i = 0; i < W->nseen; i++)
		if (W->seen_ip[i] == ip) {
			*r = W->seen[i];
			return true;
		}
	return false;
}

/*
 * One address of a chain, as perf resolves it: in the kernel's maps or the
 * thread's, by the context the last marker before it set.  *level becomes
 * the frame's map's ('k' or '.'); without a map it stays what it was, as
 * perf leaves it.  With inl, the frame's inline functions (*inl, *ninl).
 */
__attribute__((noinline)) static int resolve_frame_now(struct stackwalk *W, const struct session_sample *ss, int cpumode, uint64_t ip,
			     struct cc_frame *f, char *level, const char *const **inl, size_t *ninl)
{
	struct resolved r;
	const struct sym *sym = NULL;
	struct stackwalk_dso *d;
	uint64_t addr;
	struct stackwalk_umemo *mo = NULL;

	*ninl = 0;
	/* An unwound frame (asked with its inline list): resolve_frame's memo does not take those. */
	if (inl && cpumode == PERF_RECORD_MISC_USER && W->cur_maps) {
		if (!W->umemo && !(W->umemo = calloc(UMEMO_SLOTS, sizeof(*W->umemo))))
			return -ENOMEM;
		mo = &W->umemo[(size_t)hash_u64(ip ^ (uint64_t)(uintptr_t)W->cur_maps) & (UMEMO_SLOTS - 1)];
		if (mo->maps == W->cur_maps && mo->ip == ip && mo->gen == W->cur_gen && mo->with_inl == (inl != NULL)) {
			*f = mo->f;
			if (mo->found)
				*level = '.';
			if (inl) {
				*inl = mo->inl;
				*ninl = mo->ninl;
			}
			return 0;
		}
	}
	memset(f, 0, sizeof(*f));
	f->ip = f->rel = ip;
	f->dso_name = "[unknown]";
	if (!seen_map(W, cpumode, ip, &r) && machine__resolve(ss->machine, ss->where.pid, ss->where.tid, cpumode, ip, &r))
		return -ENOMEM;
	if (!r.found && cpumode == PERF_RECORD_MISC_KERNEL && ip < stackwalk__kernel_end(W)) {
		machine__fixup_kernel_end(ss->machine, W->kernel_end);
		if (machine__resolve(ss->machine, ss->where.pid, ss->where.tid, cpumode, ip, &r))
			return -ENOMEM;
	}
	if (mo) {
		/* Kept as it will be returned: filled in below when found. */
		mo->maps = NULL;
	}
	if (!r.found) {
		if (mo) {
			mo->f = *f;
			mo->found = false;
			mo->inl = NULL;
			mo->ninl = 0;
			goto keep;
		}
		return 0;
	}
	stackwalk_kernel_hit(W->syms, cpumode, &r);
	/* a kernel image's .text is the kernel's map; its other sections are maps of their own */
	if (cpumode == PERF_RECORD_MISC_KERNEL && !strcmp(r.dso, "[kernel.kallsyms]") &&
	    !symcache__kernel_map(W->syms, ip, &r.dso))
		return 0;
	if (!(d = stackwalk__dso(W, r.dso, r.dso_rank)))
		return -ENOMEM;
	f->dso = d->id;
	f->dso_rank = d->rank;
	f->dso_name = d->name;
	*level = cpumode == PERF_RECORD_MISC_KERNEL ? 'k' : '.';
	if (cpumode == PERF_RECORD_MISC_KERNEL)
		sym = symcache__find_kernel(W->syms, r.dso, ip, NULL);
	else if (!d->jit) {
		sym = symcache__find(W->syms, r.dso, r.map_start, r.map_pgoff, ip, &addr);
		f->rel = addr;
	}
	f->map_size = r.map_end - r.map_start;
	f->unmap = cpumode != PERF_RECORD_MISC_KERNEL ? f->ip - f->rel : stackwalk_is_module(r.dso) ? r.map_start : 0;
	if (sym) {
		f->sym = sym->name;
		f->start = sym->start;
		f->end = sym->end;
		/* perf's inline frames: the functions the DSO's DWARF has at the address */
		if (inl && cpumode != PERF_RECORD_MISC_KERNEL)
			*ninl = symcache__inlines(W->syms, r.dso, addr, inl);
	}
	if (!mo)
		return 0;
	mo->f = *f;
	mo->found = true;
	mo->inl = inl ? *inl : NULL;
	mo->ninl = *ninl;
keep:
	mo->ip = ip;
	mo->gen = W->cur_gen;
	mo->with_inl = inl != NULL;
	mo->maps = W->cur_maps;
	return 0;
}

/*
 * Frames resolved without inline lists, by the machine's generation,
 * thread and address: a chain's addresses come back sample after sample,
 * and while the machine's maps stay as they were, each resolves as it
 * did (the symbols of a DSO never change once read).
 */
#define MEMO_SLOTS 4096	/* 1 << 12: the slot is the top 12 bits of a product */

/*
 * Whole chains, the same way: a recorded chain (no unwound frames) is
 * resolved from its addresses, the sample's thread and cpumode and the
 * machine's state alone; the same again gives the same frames.
 */
#define CHAIN_SLOTS 256

struct stackwalk_memo {
	struct memo_slot {
		uint64_t gen, ip;
		int pid, tid, cpumode;
		bool used, found;
		char level;
		struct cc_frame f;
	} slot[MEMO_SLOTS];
	struct chain_slot {
		uint64_t h, gen;
		int pid, tid, cpumode;
		bool used;
		uint64_t *ips;		/* the recorded chain, markers and all */
		size_t nips, ips_cap;
		struct cc_frame *fr;	/* what it resolved to */
		char *lvl;
		size_t n, fr_cap, lvl_cap;
	} chain[CHAIN_SLOTS];
};

static int resolve_frame(struct stackwalk *W, const struct session_sample *ss, int cpumode, uint64_t ip,
			 struct cc_frame *f, char *level, const char *const **inl, size_t *ninl)
{
	struct memo_slot *m;
	uint64_t gen;
	char was = *level;
	int err;

	if (inl || !ss->machine)
		return resolve_frame_now(W, ss, cpumode, ip, f, level, inl, ninl);
	if (!W->memo && !(W->memo = calloc(1, sizeof(*W->memo))))
		return -ENOMEM;
	gen = machine__generation(ss->machine);
	m = &W->memo->slot[((ip ^ ((uint64_t)(unsigned)ss->where.tid << 20) ^ (uint64_t)cpumode) *
			    0x9e3779b97f4a7c15ULL) >> 52];
	if (m->used && m->gen == gen && m->ip == ip && m->tid == ss->where.tid && m->pid == ss->where.pid &&
	    m->cpumode == cpumode) {
		*f = m->f;
		if (m->found)
			*level = m->level;
		*ninl = 0;
		return 0;
	}
	*level = 0;
	if ((err = resolve_frame_now(W, ss, cpumode, ip, f, level, inl, ninl)))
		return err;
	*m = (struct memo_slot){
		.gen = machine__generation(ss->machine), .ip = ip, .pid = ss->where.pid, .tid = ss->where.tid,
		.cpumode = cpumode, .used = true, .found = *level != 0, .level = *level, .f = *f,
	};
	if (!*level)
		*level = was;
	return 0;
}

static uint64_t chain_key(const struct session_sample *ss)
{
	const struct pd_sample *s = ss->smp;
	uint64_t h = hash_mix(hash_mix(hash_mix(HASH_FNV_INIT, (uint64_t)(unsigned)ss->where.tid),
				       (uint64_t)(unsigned)ss->where.pid), (uint64_t)(unsigned)ss->cpumode);

	for (uint64_t i = 0; i < s->callchain_nr; i++)
		h = (h ^ pd_sample_callchain(s, i)) * 1099511628211ULL;
	return h ^ (h >> 31);
}

/* The frames of the same recorded chain resolved before, into W->fr and W->lvl: their number, or -1. */
static ssize_t chain_again(struct stackwalk *W, const struct session_sample *ss, uint64_t h)
{
	const struct pd_sample *s = ss->smp;
	struct chain_slot *c = &W->memo->chain[h % CHAIN_SLOTS];

	if (!c->used || c->h != h || c->gen != machine__generation(ss->machine) || c->pid != ss->where.pid ||
	    c->tid != ss->where.tid || c->cpumode != ss->cpumode || c->nips != s->callchain_nr)
		return -1;
	for (uint64_t i = 0; i < s->callchain_nr; i++)
		if (c->ips[i] != pd_sample_callchain(s, i))
			return -1;
	if (ALLOC_GROW(W->fr, c->n, W->fr_cap) || ALLOC_GROW(W->lvl, c->n, W->lvl_cap))
		return -1;	/* resolved again, which says it */
	if (c->n) {	/* an empty chain may have no buffers */
		memcpy(W->fr, c->fr, c->n * sizeof(*c->fr));
		memcpy(W->lvl, c->lvl, c->n);
	}
	return (ssize_t)c->n;
}

/* Keep what the recorded chain resolved to (W->fr[0..n)), under the machine's state after it. */
static void chain_keep(struct stackwalk *W, const struct session_sample *ss, uint64_t h, size_t n)
{
	const struct pd_sample *s = ss->smp;
	struct chain_slot *c = &W->memo->chain[h % CHAIN_SLOTS];

	c->used = false;
	if (ALLOC_GROW(c->ips, s->callchain_nr + 1, c->ips_cap) || ALLOC_GROW(c->fr, n + 1, c->fr_cap) ||
	    ALLOC_GROW(c->lvl, n + 1, c->lvl_cap))
		return;	/* not kept: the slot stays empty */
	for (uint64_t i = 0; i < s->callchain_nr; i++)
		c->ips[i] = pd_sample_callchain(s, i);
	c->nips = s->callchain_nr;
	if (n) {	/* W->fr is NULL until a chain had a frame */
		memcpy(c->fr, W->fr, n * sizeof(*c->fr));
		memcpy(c->lvl, W->lvl, n);
	}
	c->n = n;
	c->h = h;
	c->gen = machine__generation(ss->machine);
	c->pid = ss->where.pid;
	c->tid = ss->where.tid;
	c->cpumode = ss->cpumode;
	c->used = true;
}

/* Where an unwound frame's inline list goes (NULL: none asked, a recorded frame's or under --no-inline). */
static const char *const **unwound_inl(const struct stackwalk *W, char lvl, const char *const **inl)
{
	return (lvl & UNWOUND) && !W->no_inline ? inl : NULL;
}

/*
 * Frame f as perf's inline list for its address gives it: one frame per
 * function there, innermost first (outermost first in the caller order),
 * each the frame's own symbol when it has that name, else a symbol of
 * that name marked inlined, over the same range.  Appended to W->fx.
 */
static int append_inlines(struct stackwalk *W, const struct cc_frame *f, char level, const char *const *names,
			  size_t n, size_t *m)
{
	if (ALLOC_GROW(W->fx, *m + n, W->fx_cap) || ALLOC_GROW(W->lx, *m + n, W->lx_cap))
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		const char *name = names[W->caller ? n - 1 - k : k];
		struct cc_frame g = *f;

		if (name != f->sym && strcmp(name, f->sym)) {
			size_t b = (size_t)hash_u64((uint64_t)(uintptr_t)name) % (sizeof(W->inl_names) / sizeof(W->inl_names[0]));

			if (W->inl_names[b].name != name) {
				char buf[4096];

				snprintf(buf, sizeof(buf), "%s (inlined)", name);
				if (!(W->inl_names[b].inlined = intern(W, buf)))
					return -ENOMEM;
				W->inl_names[b].name = name;
			}
			g.sym = W->inl_names[b].inlined;
			g.inlined = true;
		}
		W->fx[*m] = g;
		W->lx[(*m)++] = level;
	}
	return 0;
}

bool stackwalk__kernel_range(struct stackwalk *W, uint64_t *start, uint64_t *end)
{
	if (!W->kernel_end_known && W->kernel_end_wanted) {
		W->kernel_range = symcache__kernel_range(W->syms, &W->kernel_start, &W->kernel_end);
		W->kernel_end_known = true;
	}
	*start = W->kernel_start;
	*end = W->kernel_end;
	return W->kernel_range;
}

uint64_t stackwalk__kernel_end(struct stackwalk *W)
{
	uint64_t start, end;

	stackwalk__kernel_range(W, &start, &end);
	return end;
}

/* The sample's process's map of addr, for the unwinder. */
struct unwind_ctx {
	struct stackwalk *W;
	const struct session_sample *ss;
};

static int unwind_find_map(void *arg, uint64_t addr, struct unwind_map *m)
{
	const struct unwind_ctx *u = arg;
	const struct session_sample *ss = u->ss;
	struct stackwalk *W = u->W;
	struct resolved r;

	if (machine__resolve(ss->machine, ss->where.pid, ss->where.tid, PERF_RECORD_MISC_USER, addr, &r))
		return -ENOMEM;
	/* The frames' maps, for resolve_frame: the machine does not change within a sample. */
	if (W->nseen < sizeof(W->seen_ip) / sizeof(W->seen_ip[0])) {
		W->seen_ip[W->nseen] = addr;
		W->seen[W->nseen++] = r;
	}
	if (!r.found)
		return 0;
	m->path = r.dso;
	/*
	 * the build that ran, as its symbols are read: perf's cache copy when
	 * the file changed; for the vdso, "[vdso]" when it is this machine's
	 */
	m->file = symcache__runtime_path(W->syms, r.dso);
	m->start = r.map_start;
	m->end = r.map_end;
	m->pgoff = r.map_pgoff;
	return 1;
}

/*
 * The user frames of a sample with registers and a stack copy
 * (--call-graph dwarf), unwound into W->uips, leaf first: as many as
 * perf's --max-stack lets its unwinder give.  Their number, or -ENOMEM.
 */
static ssize_t unwind_user(struct stackwalk *W, const struct session_sample *ss)
{
	const struct pd_sample *s = ss->smp;
	struct unwind_ctx ctx = { .W = W, .ss = ss };
	struct unwind_sample us = {
		.pid = ss->where.pid, .tid = ss->where.tid, .regs_mask = s->user_mask, .regs = s->user_regs,
		.stack = s->stack, .find_map = unwind_find_map, .arg = &ctx,
		.maps = W->cur_maps, .gen = W->cur_gen,
	};

	if (!s->user_regs || !s->stack || !s->stack_size || !ss->machine)
		return 0;
	/* The valid part of the copy: never more than the record holds. */
	us.stack_size = s->stack_dyn_size < s->stack_size ? s->stack_dyn_size : s->stack_size;
	if (!W->unwinder && !(W->unwinder = unwinder__new()))
		return -ENOMEM;
	return unwinder__unwind(W->unwinder, &us, W->uips, W->max_stack);
}

static void reverse_frames(struct cc_frame *fr, char *lvl, size_t n)
{
	for (size_t i = 0; i < n / 2; i++) {
		struct cc_frame t = fr[i];
		char c = lvl[i];

		fr[i] = fr[n - 1 - i];
		fr[n - 1 - i] = t;
		lvl[i] = lvl[n - 1 - i];
		lvl[n - 1 - i] = c;
	}
}

/*
 * The recorded chain into W->fr, callee order: each address with the
 * context its last marker set; false for a chain perf drops (a guest's, or
 * a corrupt marker).
 */
static bool chain_recorded(struct stackwalk *W, const struct pd_sample *s, uint64_t *n)
{
	int cpumode = PERF_RECORD_MISC_USER;

	*n = 0;
	for (uint64_t i = 0; i < s->callchain_nr; i++) {
		uint64_t ip = pd_sample_callchain(s, i);

		if (ip >= CONTEXT_MAX) {
			switch (ip) {
			case (uint64_t)PERF_CONTEXT_HV: cpumode = PERF_RECORD_MISC_HYPERVISOR; break;
			case (uint64_t)PERF_CONTEXT_KERNEL: cpumode = PERF_RECORD_MISC_KERNEL; break;
			case (uint64_t)PERF_CONTEXT_USER: cpumode = PERF_RECORD_MISC_USER; break;
			default: return false;
			}
			continue;
		}
		W->fr[*n].ip = ip;
		W->lvl[(*n)++] = (char)cpumode;	/* the context, for now */
	}
	return true;
}

/* The nu unwound user frames after the n recorded ones, or before them in the caller order. */
static void chain_add_unwound(struct stackwalk *W, uint64_t n, ssize_t nu)
{
	if (W->caller) {
		memmove(W->fr + nu, W->fr, (size_t)n * sizeof(*W->fr));
		memmove(W->lvl + nu, W->lvl, (size_t)n);
		for (ssize_t i = 0; i < nu; i++) {
			W->fr[i].ip = W->uips[nu - 1 - i];
			W->lvl[i] = PERF_RECORD_MISC_USER | UNWOUND;
		}
	} else {
		for (ssize_t i = 0; i < nu; i++) {
			W->fr[n + (uint64_t)i].ip = W->uips[i];
			W->lvl[n + (uint64_t)i] = PERF_RECORD_MISC_USER | UNWOUND;
		}
	}
}

/* The expanded frames (W->fx, W->lx) become the chain; the old arrays are kept for the next one. */
static void chain_take_expanded(struct stackwalk *W)
{
	struct cc_frame *tf = W->fr;
	char *tl = W->lvl;
	size_t tc = W->fr_cap, tlc = W->lvl_cap;

	W->fr = W->fx;
	W->lvl = W->lx;
	W->fr_cap = W->fx_cap;
	W->lvl_cap = W->lx_cap;
	W->fx = tf;
	W->lx = tl;
	W->fx_cap = tc;
	W->lx_cap = tlc;
}

/*
 * Each of the n frames resolved, the levels carried over a frame without
 * a map from the sample's own; an unwound frame's inline frames inserted
 * (perf 6.1 adds them to the frames it unwinds only, not to recorded
 * chains).  The number of frames, *expanded when inline frames were added.
 */
static ssize_t chain_resolve(struct stackwalk *W, const struct session_sample *ss, uint64_t n, bool *expanded)
{
	char level = stackwalk_level(ss->cpumode);
	size_t m = 0;	/* frames in W->fx, once some address has inline frames */

	*expanded = false;
	for (uint64_t i = 0; i < n; i++) {
		int mode = W->lvl[i] & ~UNWOUND;
		const char *const *inl;
		size_t ninl;
		struct cc_frame f;

		if (resolve_frame(W, ss, mode, W->fr[i].ip, &f, &level, unwound_inl(W, W->lvl[i], &inl), &ninl))
			return -ENOMEM;
		if (ninl && !*expanded) {
			/* the frames so far, then this one's inline list */
			if (ALLOC_GROW(W->fx, n, W->fx_cap) || ALLOC_GROW(W->lx, n, W->lx_cap))
				return -ENOMEM;
			memcpy(W->fx, W->fr, i * sizeof(*W->fx));
			memcpy(W->lx, W->lvl, i);
			m = i;
			*expanded = true;
		}
		if (*expanded && ninl) {
			if (append_inlines(W, &f, level, inl, ninl, &m))
				return -ENOMEM;
		} else if (*expanded) {
			if (ALLOC_GROW(W->fx, m + 1, W->fx_cap) || ALLOC_GROW(W->lx, m + 1, W->lx_cap))
				return -ENOMEM;
			W->fx[m] = f;
			W->lx[m++] = level;
		} else {
			W->fr[i] = f;
			W->lvl[i] = level;
		}
	}
	if (!*expanded)
		return (ssize_t)n;
	chain_take_expanded(W);
	return (ssize_t)m;
}

/*
 * The sample's chain as perf's cursor holds it: every address (markers
 * only set the context of the addresses after them, and any other marker
 * drops the chain), leaf first, or root first for the caller order; at
 * most MAX_STACK addresses, counted from the end the order starts at.
 * A --call-graph dwarf sample's chain is the kernel's part (CALLCHAIN)
 * then the user frames unwound from its stack copy, each part limited on
 * its own, as perf appends its unwinder's frames to the recorded chain
 * (before it, root first, in the caller order).
 * The number of frames in W->fr, or a negative code.
 */
ssize_t stackwalk__chain(struct stackwalk *W, const struct session_sample *ss)
{
	const struct pd_sample *s = ss->smp;
	uint64_t nr = s->callchain_nr, n = 0;
	ssize_t nu, again, got;
	uint64_t key = 0;
	bool memo, expanded;

	W->nseen = 0;	/* this sample's maps only */
	/* The unwound frames' memo and the unwinder's rules go by the process's maps and the machine's state. */
	if (ss->machine && s->user_regs && s->stack && s->stack_size) {
		W->cur_maps = machine__user_maps(ss->machine, ss->where.pid, ss->where.tid);
		W->cur_gen = machine__generation(ss->machine);
	} else {
		W->cur_maps = NULL;
		W->cur_gen = 0;
	}
	nu = unwind_user(W, ss);
	memo = !nu && ss->machine;

	if (nu < 0)
		return nu;
	if (memo && !W->memo && !(W->memo = calloc(1, sizeof(*W->memo))))
		return -ENOMEM;
	if (memo && (again = chain_again(W, ss, key = chain_key(ss))) >= 0)
		return again;
	if (ALLOC_GROW(W->fr, nr + (uint64_t)nu, W->fr_cap) || ALLOC_GROW(W->lvl, nr + (uint64_t)nu, W->lvl_cap))
		return -ENOMEM;
	if (!chain_recorded(W, s, &n))
		return 0;	/* perf drops it */
	if (W->caller)
		reverse_frames(W->fr, W->lvl, (size_t)n);
	if (n > W->max_stack)
		n = W->max_stack;
	if (nu) {
		chain_add_unwound(W, n, nu);
		n += (uint64_t)nu;
	}
	got = chain_resolve(W, ss, n, &expanded);
	if (got >= 0 && memo && !expanded)
		chain_keep(W, ss, key, (size_t)got);
	return got;
}


ssize_t stackwalk__ip(struct stackwalk *W, const struct session_sample *ss)
{
	char level = stackwalk_level(ss->cpumode);
	size_t ninl;

	W->nseen = 0;
	W->cur_maps = NULL;	/* no memo: one frame */
	if (ALLOC_GROW(W->fr, 1, W->fr_cap) || ALLOC_GROW(W->lvl, 1, W->lvl_cap))
		return -ENOMEM;
	if (resolve_frame(W, ss, ss->cpumode, ss->smp->ip, &W->fr[0], &level, NULL, &ninl))
		return -ENOMEM;
	W->lvl[0] = level;
	return 1;
}

char stackwalk_level(int cpumode)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL: return 'k';
	case PERF_RECORD_MISC_USER: return '.';
	case PERF_RECORD_MISC_GUEST_KERNEL: return 'g';
	case PERF_RECORD_MISC_GUEST_USER: return 'u';
	default: return 'H';
	}
}

void stackwalk__init(struct stackwalk *W, struct symcache *syms, struct strset *strs)
{
	memset(W, 0, sizeof(*W));
	W->syms = syms;
	W->strs = strs;
	W->max_stack = MAX_STACK;
}

void stackwalk__release(struct stackwalk *W)
{
	for (size_t b = 0; b < DBUCKETS; b++)
		for (struct stackwalk_dso *d = W->dsos[b], *next; d; d = next) {
			next = d->next;
			free(d);
		}
	free(W->fr);
	free(W->lvl);
	free(W->fx);
	free(W->lx);
	free(W->umemo);
	W->umemo = NULL;
	unwinder__delete(W->unwinder);
	for (size_t i = 0; W->memo && i < CHAIN_SLOTS; i++) {
		free(W->memo->chain[i].ips);
		free(W->memo->chain[i].fr);
		free(W->memo->chain[i].lvl);
	}
	free(W->memo);
	W->memo = NULL;
	memset(W->dsos, 0, sizeof(W->dsos));
	W->fr = W->fx = NULL;
	W->lvl = W->lx = NULL;
	W->unwinder = NULL;
}
