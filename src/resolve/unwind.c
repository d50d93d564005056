// SPDX-License-Identifier: GPL-2.0-only
/*
 * DWARF unwinding of --call-graph dwarf samples with libdw's unwinder
 * (libdwfl): a Dwfl per process holds the DSOs reported so far (each
 * file's CFI is read by libdw once, on the first frame that needs it, and
 * stays with the Dwfl for the process's later samples); each sample sets
 * the registers and the stack copy the callbacks read from, and the
 * frames are walked with dwfl_getthread_frames.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include "../host/host.h"
#include "../lib/hash.h"
#include "unwind.h"

#define PROC_BUCKETS 256
#define CFI_BUCKETS 256
#define MAX_FAILED 64
#define WHERE_SLOTS 4096	/* the fast path's memo of each address's DSO and bias */
#define NREGS 17	/* the registers libdw's x86_64 frames hold */
#define RA_REG 16	/* the return address's DWARF register */

/* perf_regs.h's x86_64 numbering: the bit of each register in sample_regs_user. */
enum { PERF_REG_SP = 7, PERF_REG_IP = 8 };

/*
 * The DWARF numbering of the x86_64 psABI (rax, rdx, rcx, rbx, rsi, rdi,
 * rbp, rsp, r8-r15, the return address rip): the perf register of each.
 */
static const int dwarf_to_perf[17] = {
	0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8,
};

struct uproc {
	struct uproc *next;
	int pid;
	Dwfl *dwfl;
	bool attached;
	struct unwinder *u;
	/* The sample being unwound: the callbacks read these. */
	const struct unwind_sample *cur;
	uint64_t sp;
	uint64_t *ips;
	size_t n, max;
	/*
	 * While libdw walks the frames, its modules must not change: libdw
	 * frees a module reported again with another descriptor (one that
	 * clashes, DWFL_E_OVERLAP), and its walk holds that module's CFI.
	 * The addresses whose module a walk lacks wait here, to be reported
	 * before the walk is redone.
	 */
	bool walking, added;	/* a walk lacked a module: walk again */
	uint64_t pending[8];
	size_t npending;
	bool stale;		/* the Dwfl holds a module the process's maps no longer have */
	bool strict;		/* a stale module ends the walk, to be redone with a new Dwfl */
	size_t nmods;		/* modules reported since the Dwfl was made */
	bool refused;		/* libdw refused the module just reported */
	/* Files that could not be reported (missing, not ELF): not tried again. */
	const char *failed[MAX_FAILED];
	size_t nfailed;
	/*
	 * The registers of the walk's last frame as perf's unwinder has them
	 * (walk_regs), whether that frame is an activation, and whether the
	 * walk was cut short (max, a zero pc, a stale module) rather than ended
	 * by libdw: walk_on goes on from there.
	 */
	uint64_t lregs[NREGS];
	uint32_t lset;
	bool lact, cut;
};

struct cfi_dso;

/* The DSO and load bias of an address in a process's maps (NULL d: none the fast path can use). */
struct where {
	const void *maps;	/* NULL: an empty slot */
	uint64_t gen, pc;
	struct cfi_dso *d;
	uint64_t bias;
};

static struct cfi_dso *cfi_dso_of(struct unwinder *u, const char *file);
static bool cfi_bias(const struct cfi_dso *d, const struct unwind_map *m, uint64_t *bias);
static bool cfi_base(const struct cfi_dso *d, const struct unwind_map *m, uint64_t *base);
static bool file_word(struct unwinder *u, const struct unwind_sample *s, uint64_t addr, uint64_t *word);
static void walk_regs(struct uproc *p, Dwfl_Frame *state, bool activation);

struct unwinder {
	struct uproc *procs[PROC_BUCKETS];
	struct cfi_dso *dsos[CFI_BUCKETS];	/* the fast path's files, by path */
	struct { const char *file; struct cfi_dso *d; } recent[16];	/* by the name's address */
	struct where *where;			/* WHERE_SLOTS, by address and maps */
	bool libdw_only;			/* MPERF_UNWIND=libdw: every sample through libdw's walk */
	char *debuginfo_path;	/* NULL: libdw's default (/usr/lib/debug) */
	Dwfl_Callbacks cb;
};

static bool reg_of(const struct unwind_sample *s, int bit, uint64_t *v)
{
	uint64_t b = 1ULL << bit;
	unsigned k;

	if (!(s->regs_mask & b) || !s->regs)
		return false;
	k = (unsigned)__builtin_popcountll(s->regs_mask & (b - 1));
	memcpy(v, s->regs + 8 * (size_t)k, 8);
	return true;
}

static bool has_failed(const struct uproc *p, const char *path)
{
	for (size_t i = 0; i < p->nfailed; i++)
		if (p->failed[i] == path || !strcmp(p->failed[i], path))
			return true;
	return false;
}

/*
 * The vdso, as perf unwinds through it: this process's image (the
 * kernel's, the same in every process of the machine that recorded),
 * given to libdw as a file in memory.
 */
static Dwfl_Module *report_vdso(struct uproc *p, uint64_t base)
{
	const void *img;
	size_t len;
	Dwfl_Module *mod;
	int fd;

	if (host_vdso(&img, &len) || (fd = memfd_create("mperf-vdso", MFD_CLOEXEC)) < 0)
		return NULL;
	if (write(fd, img, len) != (ssize_t)len) {
		close(fd);
		return NULL;
	}
	dwfl_report_begin_add(p->dwfl);
	mod = dwfl_report_elf(p->dwfl, "[vdso]", "[vdso]", fd, base, false);
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (!mod)
		close(fd);	/* libdw takes the fd only when it reports the module */
	return mod;
}

/*
 * The file of the map m, given to libdw based where it wants it (its
 * first segment's page): by the segment m maps (cfi_bias), not by start
 * - pgoff, which is right for the text of most files but not for their
 * data (mapped one page above its offset), where the unwinder may read
 * first.
 */
static Dwfl_Module *report_file(struct uproc *p, const struct unwind_map *m)
{
	struct cfi_dso *d = m->file ? cfi_dso_of(p->u, m->file) : NULL;
	uint64_t base;
	Dwfl_Module *mod;
	int fd;

	if (!d || !cfi_base(d, m, &base) || (fd = host_open_regular(m->file)) < 0)
		return NULL;
	dwfl_report_begin_add(p->dwfl);
	mod = dwfl_report_elf(p->dwfl, m->path, m->path, fd, base, false);
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (!mod) {
		close(fd);	/* taken only with the module */
		p->refused = true;
	}
	return mod;
}

/* Whether another module of the Dwfl overlaps mod (one whose place the process reused). */
struct overlap {
	Dwfl_Module *mod;
	Dwarf_Addr lo, hi;
	bool found;
};

static int overlap_cb(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr lo, void *arg)
{
	struct overlap *o = arg;
	Dwarf_Addr hi;

	(void)userdata;
	(void)name;
	if (mod == o->mod || !dwfl_module_info(mod, NULL, NULL, &hi, NULL, NULL, NULL, NULL))
		return DWARF_CB_OK;
	if (lo < o->hi && o->lo < hi) {
		o->found = true;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

static bool overlaps(Dwfl *dwfl, Dwfl_Module *mod)
{
	struct overlap o = { .mod = mod };

	if (!dwfl_module_info(mod, NULL, &o.lo, &o.hi, NULL, NULL, NULL, NULL))
		return false;
	dwfl_getmodules(dwfl, overlap_cb, &o, 0);
	return o.found;
}

/*
 * The module covering addr: the Dwfl's when it is the file the process
 * has mapped there, at that map's bias; else reported from the map
 * (files, and the vdso).  The Dwfl keeps the modules of every sample of
 * the process, and the process may have changed since (an exec, a
 * library unmapped and another mapped there): when the Dwfl has another
 * file or bias where a file is mapped, or the module reported overlaps
 * one it has, p->stale is set, and the sample is walked again with a new
 * Dwfl, as libdw would otherwise take the old file's CFI for the new.
 */
static Dwfl_Module *module_at(struct uproc *p, uint64_t addr)
{
	Dwfl_Module *mod = dwfl_addrmodule(p->dwfl, addr);
	struct unwind_map m;
	bool vdso;

	if (p->cur->find_map(p->cur->arg, addr, &m) <= 0 || !m.path)
		return NULL;
	vdso = m.file && !strcmp(m.file, "[vdso]");	/* this machine's image */
	if (mod) {
		const char *name = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
		struct cfi_dso *d;
		Dwarf_Addr bias, want;

		if (!m.file || m.start < m.pgoff)
			return NULL;	/* anonymous memory (a module's .bss), JIT code */
		if (name && !strcmp(name, m.path) && dwfl_module_getelf(mod, &bias) &&
		    (!(d = cfi_dso_of(p->u, m.file)) || !cfi_bias(d, &m, &want) || want == bias))
			return mod;
		p->stale = true;
		return NULL;
	}
	/* Files, and the vdso; anonymous memory and JIT code have no CFI to read. */
	if (has_failed(p, m.path) || m.start < m.pgoff)
		return NULL;
	if (p->walking) {
		/* Reported after the walk, which is then redone (unwinder__unwind). */
		size_t i = 0;

		while (i < p->npending && p->pending[i] != addr)
			i++;
		if (i == p->npending && p->npending < sizeof(p->pending) / sizeof(p->pending[0]))
			p->pending[p->npending++] = addr;
		p->added = true;
		return NULL;
	}
	if (vdso)
		mod = report_vdso(p, m.start - m.pgoff);
	else if (m.file)
		mod = report_file(p, &m);
	if (!mod && p->refused && p->nmods) {
		/* libdw refuses a module that clashes with one it has (DWFL_E_OVERLAP): a new Dwfl will say. */
		p->refused = false;
		p->stale = true;
		return NULL;
	}
	p->refused = false;
	if (!mod && p->nfailed < MAX_FAILED)
		p->failed[p->nfailed++] = m.path;
	if (mod) {
		p->nmods++;
		if (overlaps(p->dwfl, mod))
			p->stale = true;
	}
	return mod;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct uproc *p = arg;
	const struct unwind_sample *s = p->cur;

	(void)dwfl;
	/* The stack copy starts at the sample's sp; only its first stack_size bytes are real. */
	if (addr >= p->sp && s->stack_size >= 8 && addr - p->sp <= s->stack_size - 8) {
		memcpy(result, s->stack + (addr - p->sp), 8);
		return true;
	}
	return file_word(p->u, s, addr, result);
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct uproc *p = arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = p;
	return p->cur->tid > 0 ? p->cur->tid : p->pid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	const struct unwind_sample *s = ((struct uproc *)arg)->cur;
	Dwarf_Word regs[17];
	bool all = true;

	for (int d = 0; d < 17; d++) {
		uint64_t v;

		if (reg_of(s, dwarf_to_perf[d], &v))
			regs[d] = v;
		else
			all = false;
	}
	if (all)
		return dwfl_thread_state_registers(thread, 0, 17, regs);
	/* A --user-regs subset: the registers there are, one by one (ip and sp at least). */
	for (int d = 0; d < 17; d++) {
		uint64_t v;

		if (reg_of(s, dwarf_to_perf[d], &v)) {
			Dwarf_Word w = v;

			if (!dwfl_thread_state_registers(thread, d, 1, &w))
				return false;
		}
	}
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct uproc *p = arg;
	Dwarf_Addr pc;
	bool activation;

	p->cut = true;	/* until the frame is taken */
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	/* A caller's frame is at its return address: the call is the instruction before. */
	if (!activation)
		pc--;
	if (p->n && pc == 0)
		return DWARF_CB_ABORT;
	walk_regs(p, state, activation);
	p->ips[p->n++] = pc;
	if (p->n >= p->max)
		return DWARF_CB_ABORT;
	p->cut = false;
	/*
	 * The step from this frame needs the CFI of its DSO: report it now.
	 * libdw has taken that step already (to tell whether the frame is an
	 * activation): with a module found stale, the walk is redone.
	 */
	module_at(p, pc);
	p->cut = p->stale && p->strict;
	return p->cut ? DWARF_CB_ABORT : DWARF_CB_OK;
}

/* ---- the fast path: CFI rules cached per DSO and address ---- */

/*
 * libdw's walk looks each frame's FDE up again and interprets its CIE and
 * FDE instructions up to the address, for every frame of every sample.
 * The rules it finds at an address never change, so here they are asked
 * of libdw once per DSO and address (dwarf_cfi_addrframe and
 * dwarf_frame_register on the file's .eh_frame, as libdw's walk tries it
 * first) and kept; a sample whose every frame has such a rule is stepped
 * from them, as libdw's walk would (handle_cfi's semantics: each register
 * of the caller from the callee's registers and stack; the return address
 * ends the walk when undefined, unknown or 0), but for a register with no
 * rule, the callee's as perf has it (unruled_kind; walk_on takes libdw's
 * walk on where that ends it).  Anything else (no map, no
 * file, no FDE in .eh_frame, a signal frame, an expression other than
 * the CFA plus an offset, a read outside the stack copy, a subset of the
 * registers) sends the whole sample through libdw's own walk.
 */
enum rule_kind {
	R_UNDEF,	/* no value: unknown to the caller */
	R_SAME,		/* the callee's value */
	R_AT,		/* saved at CFA + off */
	R_VAL,		/* CFA + off */
	R_REG,		/* the callee's register off */
};

/*
 * The rule of a register libdw gives as undefined.  perf's unwinder
 * (libunwind) starts every register as the callee's value (same value)
 * before the CIE's and the FDE's instructions; libdw's x86_64 defaults
 * leave the call-clobbered registers undefined, and rbx too (elfutils'
 * table marks DWARF register 0, rax, where its comment says rbx).  Where a
 * caller's CFA is rbx plus an offset (ld.so's _dl_runtime_resolve, its
 * callee _dl_fixup not yet past saving rbx), libdw's walk ends where perf's
 * goes on to main and _start.  So such a register is the callee's here, as
 * perf has it; an undefined return address still ends the walk.  (libdw
 * gives no rule and DW_CFA_undefined alike; compilers and glibc's
 * assembly emit DW_CFA_undefined for the return address alone.)
 */
static enum rule_kind unruled_kind(int reg)
{
	return reg == RA_REG ? R_UNDEF : R_SAME;
}

struct cfi_rule {
	uint64_t pc;		/* the file's address (pc - bias) */
	bool ok;		/* false: libdw's walk must do this frame */
	uint8_t cfa_reg;
	int64_t cfa_off;
	uint32_t defined;	/* the registers whose kind is not R_UNDEF */
	uint8_t kind[NREGS];
	int64_t off[NREGS];
};

struct cfi_dso {
	struct cfi_dso *next;
	char *file;
	int fd;
	char *image;		/* the vdso's copy, which elf is read from */
	Elf *elf;
	Dwarf_CFI *eh;		/* NULL: no .eh_frame, every frame goes to libdw */
	struct { uint64_t vaddr, offset, filesz; } *seg;	/* the PT_LOAD segments */
	size_t nseg;
	uint64_t first_vaddr;	/* the first segment's, rounded down to its alignment */
	struct cfi_rule *rules;	/* open addressing on pc; pc 0 never asked (ip 0 has no map) */
	size_t nrules, cap;
};

static void cfi_dso_free(struct cfi_dso *d)
{
	free(d->rules);
	free(d->seg);
	if (d->eh)
		dwarf_cfi_end(d->eh);	/* dwarf_getcfi_elf's is the caller's */
	if (d->elf)
		elf_end(d->elf);
	if (d->fd >= 0)
		close(d->fd);
	free(d->image);
	free(d->file);
	free(d);
}

static struct cfi_dso *cfi_dso_open(const char *file)
{
	struct cfi_dso *d = calloc(1, sizeof(*d));
	size_t n;

	if (!d || !(d->file = strdup(file))) {
		free(d);
		return NULL;
	}
	d->fd = -1;
	if (!strcmp(file, "[vdso]")) {
		/* This machine's, as libdw's walk is given it (report_vdso). */
		const void *img;
		size_t len;

		if (host_vdso(&img, &len) || !(d->image = malloc(len)))
			return d;
		memcpy(d->image, img, len);
		d->elf = elf_memory(d->image, len);
	} else {
		if ((d->fd = host_open_regular(file)) < 0)
			return d;
		d->elf = elf_begin(d->fd, ELF_C_READ_MMAP, NULL);
	}
	if (!d->elf || elf_kind(d->elf) != ELF_K_ELF || elf_getphdrnum(d->elf, &n) ||
	    !(d->seg = calloc(n ? n : 1, sizeof(*d->seg))))
		return d;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(d->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (!d->nseg)
			d->first_vaddr = ph.p_align > 1 ? ph.p_vaddr & ~(ph.p_align - 1) : ph.p_vaddr;
		d->seg[d->nseg].vaddr = ph.p_vaddr;
		d->seg[d->nseg].offset = ph.p_offset;
		d->seg[d->nseg++].filesz = ph.p_filesz;
	}
	d->eh = dwarf_getcfi_elf(d->elf);
	return d;
}

static struct cfi_dso *cfi_dso_of(struct unwinder *u, const char *file)
{
	/* The names the maps give are stable: most lookups are of a name seen just before. */
	size_t r = (size_t)(hash_u64((uint64_t)(uintptr_t)file) % (sizeof(u->recent) / sizeof(u->recent[0])));
	size_t b;
	struct cfi_dso *d;

	if (u->recent[r].file == file)
		return u->recent[r].d;
	b = (size_t)(hash_str(file) % CFI_BUCKETS);
	for (d = u->dsos[b]; d; d = d->next)
		if (!strcmp(d->file, file))
			break;
	if (!d) {
		if (!(d = cfi_dso_open(file)))
			return NULL;
		d->next = u->dsos[b];
		u->dsos[b] = d;
	}
	u->recent[r].file = file;
	u->recent[r].d = d;
	return d;
}

/*
 * The load bias of the DSO in the map m, by the segment m maps: the one
 * whose first page is at m's offset, else the one holding that offset (a
 * map split later).  A page may hold the end of one segment and the
 * start of the next (as's .eh_frame and .data), and the loader maps each
 * segment from its own first page, at addresses a page apart: taking the
 * first segment holding the page would base a map of the second a page
 * off.
 */
static bool cfi_bias(const struct cfi_dso *d, const struct unwind_map *m, uint64_t *bias)
{
	size_t hit = d->nseg;

	for (size_t i = 0; i < d->nseg; i++) {
		uint64_t first = d->seg[i].offset & ~0xfffULL;

		if (m->pgoff < first || m->pgoff >= d->seg[i].offset + d->seg[i].filesz)
			continue;
		if (hit == d->nseg || first == m->pgoff)
			hit = i;
		if (first == m->pgoff)
			break;
	}
	if (hit == d->nseg)
		return false;
	*bias = m->start - (d->seg[hit].vaddr + m->pgoff - d->seg[hit].offset);
	return true;
}

/* Where libdw wants the file of m based: its first segment's page (dwfl_report_elf). */
static bool cfi_base(const struct cfi_dso *d, const struct unwind_map *m, uint64_t *base)
{
	uint64_t bias;

	if (!cfi_bias(d, m, &bias))
		return false;
	*base = bias + d->first_vaddr;
	return true;
}

/*
 * A word of the process's memory outside the stack copy: from the file
 * mapped there, read through the unwinder's own handle on it (never a
 * module reported to libdw: see struct uproc).
 */
static bool file_word(struct unwinder *u, const struct unwind_sample *s, uint64_t addr, uint64_t *word)
{
	struct unwind_map m;
	struct cfi_dso *d;
	uint64_t bias, vaddr;
	const char *raw;
	size_t size;

	if (s->find_map(s->arg, addr, &m) <= 0 || !m.path || m.start < m.pgoff)
		return false;
	if (!m.file || !(d = cfi_dso_of(u, m.file)) || !d->elf || !cfi_bias(d, &m, &bias) ||
	    !(raw = elf_rawfile(d->elf, &size)))
		return false;
	vaddr = addr - bias;
	for (size_t i = 0; i < d->nseg; i++) {
		uint64_t delta = vaddr - d->seg[i].vaddr;

		if (vaddr < d->seg[i].vaddr || d->seg[i].filesz < 8 || delta > d->seg[i].filesz - 8)
			continue;
		if (d->seg[i].offset > size || size - d->seg[i].offset < 8 || delta > size - d->seg[i].offset - 8)
			return false;
		memcpy(word, raw + d->seg[i].offset + delta, 8);
		return true;
	}
	return false;
}

/* The rules libdw gives at the file's address pc, in *r (r->ok false when they are not for us). */
static void cfi_rule_make(struct cfi_dso *d, uint64_t pc, struct cfi_rule *r)
{
	Dwarf_Frame *frame = NULL;
	Dwarf_Op *ops, mem[3];
	size_t nops;
	bool signal;

	memset(r, 0, sizeof(*r));
	r->pc = pc;
	if (dwarf_cfi_addrframe(d->eh, pc, &frame) != 0)
		return;
	if (dwarf_frame_info(frame, NULL, NULL, &signal) != RA_REG || signal)
		goto out;
	if (dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops != 1)
		goto out;
	if (ops[0].atom == DW_OP_bregx && ops[0].number < NREGS) {
		r->cfa_reg = (uint8_t)ops[0].number;
		r->cfa_off = (int64_t)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom < DW_OP_breg0 + NREGS) {
		r->cfa_reg = (uint8_t)(ops[0].atom - DW_OP_breg0);
		r->cfa_off = (int64_t)ops[0].number;
	} else {
		goto out;
	}
	for (int reg = 0; reg < NREGS; reg++) {
		size_t k = 0;

		if (dwarf_frame_register(frame, reg, mem, &ops, &nops) != 0)
			goto out;
		if (nops == 0) {
			if (ops == mem)
				r->kind[reg] = unruled_kind(reg);
			else if (!ops)
				r->kind[reg] = R_SAME;
			else
				goto out;
			continue;
		}
		if (ops[0].atom == DW_OP_regx && nops == 1 && ops[0].number < NREGS) {
			r->kind[reg] = R_REG;
			r->off[reg] = (int64_t)ops[0].number;
			continue;
		}
		if (ops[k++].atom != DW_OP_call_frame_cfa)
			goto out;
		if (k < nops && ops[k].atom == DW_OP_plus_uconst)
			r->off[reg] = (int64_t)ops[k++].number;
		r->kind[reg] = R_AT;
		if (k < nops && ops[k].atom == DW_OP_stack_value) {
			r->kind[reg] = R_VAL;
			k++;
		}
		if (k != nops)
			goto out;
	}
	for (int reg = 0; reg < NREGS; reg++)
		if (r->kind[reg] != R_UNDEF)
			r->defined |= 1u << reg;
	r->ok = true;
out:
	free(frame);
}

static const struct cfi_rule *cfi_rule_at(struct cfi_dso *d, uint64_t pc)
{
	size_t mask, i;
	struct cfi_rule *r;

	if (!d->eh)
		return NULL;
	if (2 * (d->nrules + 1) > d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 256;
		struct cfi_rule *v = calloc(cap, sizeof(*v));

		if (!v)
			return NULL;
		for (size_t j = 0; j < d->cap; j++) {
			if (!d->rules[j].pc)
				continue;
			for (i = (size_t)hash_u64(d->rules[j].pc) & (cap - 1); v[i].pc; i = (i + 1) & (cap - 1))
				;
			v[i] = d->rules[j];
		}
		free(d->rules);
		d->rules = v;
		d->cap = cap;
	}
	mask = d->cap - 1;
	for (i = (size_t)hash_u64(pc) & mask; d->rules[i].pc; i = (i + 1) & mask)
		if (d->rules[i].pc == pc)
			return &d->rules[i];
	r = &d->rules[i];
	cfi_rule_make(d, pc, r);
	if (!r->pc)
		return NULL;	/* pc 0 is not kept: it would end a probe chain */
	d->nrules++;
	return r;
}

/* A word of the stack copy at addr: false outside it (libdw's walk reads the files there). */
static bool stack_word(const struct unwind_sample *s, uint64_t sp, uint64_t addr, uint64_t *v)
{
	if (addr < sp || s->stack_size < 8 || addr - sp > s->stack_size - 8)
		return false;
	memcpy(v, s->stack + (addr - sp), 8);
	return true;
}

/*
 * The rules at the address look of the sample's process, in the DSO mapped
 * there at that map's bias (each address's DSO kept in u->where): NULL when
 * no file is mapped there or its .eh_frame has no FDE there.
 */
static const struct cfi_rule *rule_of(struct unwinder *u, const struct unwind_sample *s, uint64_t look)
{
	struct unwind_map m;
	struct cfi_dso *d;
	struct where *w;
	uint64_t bias = 0;

	w = s->maps && u->where ? &u->where[(size_t)hash_u64(look ^ (uint64_t)(uintptr_t)s->maps) & (WHERE_SLOTS - 1)] : NULL;
	if (w && w->maps == s->maps && w->pc == look && w->gen == s->gen) {
		d = w->d;
		bias = w->bias;
	} else {
		d = NULL;
		if (s->find_map(s->arg, look, &m) <= 0 || !m.path || m.start < m.pgoff)
			m.path = NULL;
		if (m.path && m.file && (d = cfi_dso_of(u, m.file)) && !cfi_bias(d, &m, &bias))
			d = NULL;
		if (w) {
			w->maps = s->maps;
			w->gen = s->gen;
			w->pc = look;
			w->d = d;
			w->bias = bias;
		}
	}
	return d ? cfi_rule_at(d, look - bias) : NULL;
}

/*
 * The frames from the one at pc (with the registers regs, those in set)
 * outward, by the cached rules, into ips[*np..max) (*np the frames so
 * far): true when the walk ends there (the outermost frame, or max), false
 * when some frame needs libdw's walk (*np the frames found until then).
 * sp is the sample's, where its stack copy starts.
 */
static bool fast_walk(struct unwinder *u, const struct unwind_sample *s, uint64_t *regs, uint32_t set,
		      uint64_t pc, uint64_t sp, uint64_t *ips, size_t max, size_t *np)
{
	size_t n = *np;

	for (;;) {
		const struct cfi_rule *r;
		uint64_t look = n ? pc - 1 : pc, nregs[NREGS], cfa = 0;
		uint32_t nset = 0;
		bool cfa_ok;

		/* The frame, as frame_cb records it. */
		if (n && look == 0)
			return true;
		ips[n++] = look;
		*np = n;
		if (n >= max)
			return true;
		/* Its caller, from the rules at its address, in the DSO mapped there. */
		if (!(r = rule_of(u, s, look)) || !r->ok)
			return false;
		cfa_ok = set & (1u << r->cfa_reg);
		if (cfa_ok)
			cfa = regs[r->cfa_reg] + (uint64_t)r->cfa_off;
		for (uint32_t todo = r->defined; todo; todo &= todo - 1) {
			int k = __builtin_ctz(todo);

			switch (r->kind[k]) {
			case R_UNDEF:
				continue;
			case R_SAME:
				if (!(set & (1u << k)))
					continue;
				nregs[k] = regs[k];
				break;
			case R_REG:
				if (!(set & (1u << r->off[k])))
					continue;
				nregs[k] = regs[r->off[k]];
				break;
			case R_VAL:
				if (!cfa_ok)
					continue;
				nregs[k] = cfa + (uint64_t)r->off[k];
				break;
			case R_AT:
				if (!cfa_ok)
					continue;
				if (!stack_word(s, sp, cfa + (uint64_t)r->off[k], &nregs[k]))
					return false;
				break;
			}
			nset |= 1u << k;
		}
		/* An undefined, unknown or zero return address: the outermost frame. */
		if (r->kind[RA_REG] == R_UNDEF || !(nset & (1u << RA_REG)) || nregs[RA_REG] == 0)
			return true;
		memcpy(regs, nregs, sizeof(nregs));
		set = nset;
		pc = regs[RA_REG];
	}
}

/*
 * The sample's frames from the cached rules, as libdw's walk gives them:
 * their number, or 0 when some frame needs libdw's walk.
 */
static size_t fast_unwind(struct unwinder *u, const struct unwind_sample *s, uint64_t *ips, size_t max)
{
	uint64_t regs[NREGS], all[64];
	uint32_t set = 0;
	size_t n = 0, i = 0;

	/* The sample's registers by perf's numbering: one pass over the mask. */
	if (!s->regs)
		return 0;
	for (uint64_t m = s->regs_mask; m; m &= m - 1)
		memcpy(&all[__builtin_ctzll(m)], s->regs + 8 * i++, 8);
	for (int d = 0; d < NREGS; d++) {
		if (!(s->regs_mask & (1ULL << dwarf_to_perf[d])))
			return 0;
		regs[d] = all[dwarf_to_perf[d]];
		set |= 1u << d;
	}
	return fast_walk(u, s, regs, set, regs[RA_REG], regs[7], ips, max, &n) ? n : 0;
}

/*
 * The registers of a frame of libdw's walk as perf's unwinder has them:
 * libdw's, and those libdw left undefined that the rules of the frame
 * below leave without a rule, the callee's (unruled_kind), kept from
 * the frame below.
 */
static void walk_regs(struct uproc *p, Dwfl_Frame *state, bool activation)
{
	const struct cfi_rule *r = p->n ? rule_of(p->u, p->cur, p->ips[p->n - 1]) : NULL;
	uint64_t regs[NREGS];
	uint32_t set = 0;

	for (int d = 0; d < NREGS; d++) {
		Dwarf_Word v;

		if (dwfl_frame_reg(state, (unsigned)d, &v) == 0) {
			regs[d] = v;
			set |= 1u << d;
		} else if (r && r->ok && r->kind[d] == R_SAME && (p->lset & (1u << d))) {
			regs[d] = p->lregs[d];
			set |= 1u << d;
		}
	}
	memcpy(p->lregs, regs, sizeof(regs));
	p->lset = set;
	p->lact = activation;
}

/*
 * libdw's walk ends where a register it left undefined is needed (see
 * unruled_kind), where perf's goes on: so does this, from the walk's last
 * frame with the registers perf has there, by the cached rules, as far as
 * they go (a frame that needs more ends it).
 */
static void walk_on(struct uproc *p)
{
	uint64_t regs[NREGS], pc;
	size_t n;

	if (p->cut || !p->n || p->n >= p->max || (p->lact && p->n > 1))
		return;
	n = p->n - 1;
	pc = n ? p->ips[n] + 1 : p->ips[0];	/* the frame again, as fast_walk records it */
	memcpy(regs, p->lregs, sizeof(regs));
	fast_walk(p->u, p->cur, regs, p->lset, pc, p->sp, p->ips, p->max, &n);
	if (n > p->n)
		p->n = n;
}

/* Whether the ELF file at fd has a .debug_frame section. */
static bool has_debug_frame(int fd)
{
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	bool found = false;

	if (!e || elf_getshdrstrndx(e, &shstrndx)) {
		elf_end(e);
		return true;	/* let libdw say what it is */
	}
	while (!found && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(e, shstrndx, sh.sh_name)))
			found = !strcmp(name, ".debug_frame") || !strcmp(name, ".zdebug_frame");
	}
	elf_end(e);
	return found;
}

/*
 * libdw's walk asks a module's separate debug file for its .debug_frame
 * when .eh_frame has no rule at an address; opening it as DWARF inflates
 * every compressed .debug_* section it has (libc's and ld.so's: most of
 * a report's time).  The file libdw finds first is the one named by the
 * build id under /usr/lib/debug: when that has no .debug_frame, there is
 * no CFI to give, and libdw is told there is no debug file, which it
 * takes as no CFI.  Any other case is libdw's own search.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			  char **debuginfo_file_name)
{
	const unsigned char *id;
	GElf_Addr vaddr;
	int len = dwfl_module_build_id(mod, &id, &vaddr);

	if (len > 1 && len <= 64) {
		char path[64 + 2 * 64];
		int n = snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%02x/", id[0]), fd;

		for (int i = 1; i < len; i++)
			n += snprintf(path + n, sizeof(path) - (size_t)n, "%02x", id[i]);
		snprintf(path + n, sizeof(path) - (size_t)n, ".debug");
		if ((fd = host_open_regular(path)) >= 0) {
			bool frame = has_debug_frame(fd);

			close(fd);
			if (!frame)
				return -1;
		}
	}
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					    debuglink_crc, debuginfo_file_name);
}

struct unwinder *unwinder__new(void)
{
	struct unwinder *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->cb.find_elf = dwfl_build_id_find_elf;
	u->cb.find_debuginfo = find_debuginfo;
	u->cb.section_address = dwfl_offline_section_address;
	u->cb.debuginfo_path = &u->debuginfo_path;
	/* A switch to compare the two paths: the fast one must give libdw's frames. */
	u->libdw_only = getenv("MPERF_UNWIND") && !strcmp(getenv("MPERF_UNWIND"), "libdw");
	u->where = calloc(WHERE_SLOTS, sizeof(*u->where));	/* without it, no memo */
	return u;
}

void unwinder__delete(struct unwinder *u)
{
	if (!u)
		return;
	for (size_t b = 0; b < PROC_BUCKETS; b++)
		for (struct uproc *p = u->procs[b], *next; p; p = next) {
			next = p->next;
			if (p->dwfl)
				dwfl_end(p->dwfl);
			free(p);
		}
	for (size_t b = 0; b < CFI_BUCKETS; b++)
		for (struct cfi_dso *d = u->dsos[b], *next; d; d = next) {
			next = d->next;
			cfi_dso_free(d);
		}
	free(u->where);
	free(u);
}

static struct uproc *proc_of(struct unwinder *u, int pid)
{
	size_t b = (size_t)(hash_u64((uint64_t)(unsigned)pid) % PROC_BUCKETS);
	struct uproc *p;

	for (p = u->procs[b]; p; p = p->next)
		if (p->pid == pid)
			return p;
	if (!(p = calloc(1, sizeof(*p))))
		return NULL;
	p->pid = pid;
	p->u = u;
	p->next = u->procs[b];
	u->procs[b] = p;
	return p;
}

/* A new session for the process (first use, or its address space changed). */
static int proc_reset(struct uproc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->attached = false;
	p->nfailed = 0;
	p->nmods = 0;
	p->dwfl = dwfl_begin(&p->u->cb);
	return p->dwfl ? 0 : -ENOMEM;
}

ssize_t unwinder__unwind(struct unwinder *u, const struct unwind_sample *s, uint64_t *ips, size_t max)
{
	struct uproc *p;
	uint64_t ip;

	struct unwind_map m;
	int found;

	/*
	 * perf bails out before its walk when the kernel copied no stack
	 * (dyn_size 0, as for some samples in a page fault of ld.so early in
	 * an exec): no user frames, not even the registers' ip.
	 */
	if (!max || !s->stack || !s->stack_size || !reg_of(s, PERF_REG_IP, &ip))
		return 0;
	/*
	 * perf reports the module of the registers' ip to libdw before the
	 * walk, on a Dwfl of the sample's own: with no map there (a sample
	 * taken inside execve, whose user ip is the old program's) libdw has
	 * no module to take the machine from, the walk cannot start, and the
	 * sample has no user frames at all, not even its ip.
	 */
	if ((found = s->find_map(s->arg, ip, &m)) <= 0)
		return found;
	ips[0] = ip;
	if (max == 1 || !reg_of(s, PERF_REG_SP, &ip) || s->stack_size < 8 || !s->stack)
		return 1;
	ip = ips[0];
	if (!u->libdw_only) {
		size_t n = fast_unwind(u, s, ips, max);

		if (n)
			return (ssize_t)n;
	}
	if (!(p = proc_of(u, s->pid)))
		return -ENOMEM;
	if (!p->dwfl && proc_reset(p))
		return -ENOMEM;
	p->cur = s;
	reg_of(s, PERF_REG_SP, &p->sp);
	p->ips = ips;
	p->max = max;
	/*
	 * An error ends the walk where it stopped: the frames up to there
	 * stand.  A module reported during the walk is not seen by libdw's
	 * step from the frame that needed it (it falls back to guessing by
	 * frame pointers): walk again, with the module known, while walks
	 * find new ones (the first samples that reach each DSO).  A stale
	 * module (module_at) starts the process's Dwfl anew, twice at most
	 * for a sample: after that, modules that overlap stay together.
	 */
	p->npending = 0;
	for (int tries = 0, resets = 0; tries < 16; tries++) {
		bool walked = false;

		p->n = 0;
		p->stale = false;
		p->cut = true;	/* no frame yet */
		p->lset = 0;
		p->strict = resets < 2;
		for (size_t i = 0; i < p->npending && !(p->stale && p->strict); i++)
			module_at(p, p->pending[i]);
		p->npending = 0;
		if (!(p->stale && p->strict) && module_at(p, ip) && !(p->stale && p->strict) &&
		    (p->attached || (p->attached = dwfl_attach_state(p->dwfl, NULL, s->pid > 0 ? s->pid : 1,
								      &thread_callbacks, p)))) {
			p->walking = true;
			p->added = false;
			dwfl_getthread_frames(p->dwfl, s->tid > 0 ? s->tid : p->pid, frame_cb, p);
			p->walking = false;
			walked = true;
		}
		if (p->stale && p->strict) {
			p->n = 0;
			resets++;
			if (proc_reset(p)) {
				p->cur = NULL;
				return -ENOMEM;
			}
			continue;
		}
		if (!walked || !p->added)
			break;
	}
	walk_on(p);
	p->cur = NULL;
	if (!p->n) {
		ips[0] = ip;
		return 1;
	}
	return (ssize_t)p->n;
}
