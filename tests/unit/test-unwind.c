// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dwarf unwinder against samples a damaged or crafted file can give:
 * a map longer than its file, with a saved register read from the part of
 * the map past the file's segments.  libdw's walk asks the unwinder for
 * that word while it holds the frame's CFI; the unwinder must not change
 * libdw's modules then (libdw frees a module reported again with another
 * descriptor, and the walk goes on with its freed CFI).  Under ASan (the
 * CI's second run) a use after free fails this test; in the plain build
 * it may crash.
 *
 * And a register the CFI gives no rule: perf's libunwind takes the
 * callee's value, where libdw's x86_64 defaults leave rbx unknown.  A
 * sample at a frame that has not saved rbx, called from one whose CFA is
 * rbx plus an offset (ld.so's _dl_runtime_resolve calling _dl_fixup),
 * goes on to the caller's caller, as perf's chain does, through the cached
 * rules and through libdw's own walk (MPERF_UNWIND=libdw).
 */
#include <dlfcn.h>
#include <sys/auxv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include "../../src/resolve/unwind.h"
#include "tap.h"

#define BASE 0x7f0000000000ULL
#define MAP_LEN (1ULL << 32)

static const char *libc_path;

/* The file mapped at BASE (arg, else libc). */
static int find_map(void *arg, uint64_t addr, struct unwind_map *m)
{
	if (addr < BASE || addr >= BASE + MAP_LEN)
		return 0;
	m->path = arg ? arg : libc_path;
	m->file = m->path;
	m->start = BASE;
	m->end = BASE + MAP_LEN;
	m->pgoff = 0;
	return 1;
}

/*
 * An address of the file's text whose CFA is rsp plus at least 24 and
 * whose return address is saved at CFA - 8: the caller's return address
 * is then read past the sample's 8-byte stack copy.  0 if none.
 */
static uint64_t pick_pc(const char *path, int64_t *cfa_off)
{
	int fd = open(path, O_RDONLY);
	Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	Dwarf_CFI *cfi = e ? dwarf_getcfi_elf(e) : NULL;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	uint64_t found = 0;

	if (!cfi || elf_getshdrstrndx(e, &shstrndx))
		goto out;
	while (!found && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)) ||
		    strcmp(name, ".text"))
			continue;
		for (uint64_t pc = sh.sh_addr; !found && pc < sh.sh_addr + sh.sh_size && pc < sh.sh_addr + 0x100000; pc++) {
			Dwarf_Frame *f = NULL;
			Dwarf_Op *ops, mem[3];
			size_t nops;

			if (dwarf_cfi_addrframe(cfi, pc, &f))
				continue;
			if (!dwarf_frame_cfa(f, &ops, &nops) && nops == 1 &&
			    ((ops[0].atom == DW_OP_breg7 && (int64_t)ops[0].number >= 24) ||
			     (ops[0].atom == DW_OP_bregx && ops[0].number == 7 && (int64_t)ops[0].number2 >= 24))) {
				int64_t off = (int64_t)(ops[0].atom == DW_OP_bregx ? ops[0].number2 : ops[0].number);

				if (!dwarf_frame_register(f, 16, mem, &ops, &nops) && nops >= 1 &&
				    ops[0].atom == DW_OP_call_frame_cfa) {
					found = pc;
					*cfa_off = off;
				}
			}
			free(f);
		}
	}
out:
	if (cfi)
		dwarf_cfi_end(cfi);
	elf_end(e);
	if (fd >= 0)
		close(fd);
	return found;
}

/* The rules at pc: the CFA's register and offset, the return address's offset from the CFA. */
struct rules {
	int cfa_reg;
	int64_t cfa_off, ra_off;
	bool ra_undef, rbx_undef;
};

static bool rules_at(Dwarf_CFI *cfi, uint64_t pc, struct rules *r)
{
	Dwarf_Frame *f = NULL;
	Dwarf_Op *ops, mem[3];
	size_t nops;
	bool got = false;

	if (dwarf_cfi_addrframe(cfi, pc, &f))
		return false;
	if (dwarf_frame_cfa(f, &ops, &nops) || nops != 1)
		goto out;
	if (ops[0].atom == DW_OP_bregx) {
		r->cfa_reg = (int)ops[0].number;
		r->cfa_off = (int64_t)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg16) {
		r->cfa_reg = ops[0].atom - DW_OP_breg0;
		r->cfa_off = (int64_t)ops[0].number;
	} else {
		goto out;
	}
	if (dwarf_frame_register(f, 3, mem, &ops, &nops))
		goto out;
	r->rbx_undef = nops == 0 && ops == mem;
	if (dwarf_frame_register(f, 16, mem, &ops, &nops))
		goto out;
	r->ra_undef = nops == 0 && ops == mem;
	r->ra_off = 0;
	if (nops == 2 && ops[0].atom == DW_OP_call_frame_cfa && ops[1].atom == DW_OP_plus_uconst)
		r->ra_off = (int64_t)ops[1].number;
	got = r->ra_undef || (nops >= 1 && ops[0].atom == DW_OP_call_frame_cfa);
out:
	free(f);
	return got;
}

/*
 * In path's .text: pc[0] a frame at rsp + 8 that leaves rbx without a
 * rule, pc[1] one whose CFA is rbx plus an offset.  False if the file
 * lacks one.
 */
static bool pick_rbx_case(const char *path, uint64_t pc[2], struct rules *r1)
{
	int fd = open(path, O_RDONLY);
	Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	Dwarf_CFI *cfi = e ? dwarf_getcfi_elf(e) : NULL;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	pc[0] = pc[1] = 0;
	while (cfi && !elf_getshdrstrndx(e, &shstrndx) && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)) || strcmp(name, ".text"))
			continue;
		for (uint64_t a = sh.sh_addr; a < sh.sh_addr + sh.sh_size && (!pc[0] || !pc[1]); a++) {
			struct rules r;

			if (!rules_at(cfi, a, &r))
				continue;
			if (!pc[0] && r.cfa_reg == 7 && r.cfa_off == 8 && r.rbx_undef && !r.ra_undef && r.ra_off == -8)
				pc[0] = a;
			if (!pc[1] && r.cfa_reg == 3 && r.cfa_off >= 16 && !r.ra_undef && r.ra_off == -8) {
				pc[1] = a;
				*r1 = r;
			}
		}
		break;
	}
	if (cfi)
		dwarf_cfi_end(cfi);
	elf_end(e);
	if (fd >= 0)
		close(fd);
	return pc[0] && pc[1];
}

/* The rbx case in ld.so (see the top), by both paths: 2 tests. */
static void rbx_case(void)
{
	Dl_info info;
	uint64_t pc[2], regs[17], stack[64] = { 0 }, ips[64];
	const uint64_t sp = 0x7ff000000000ULL;	/* no map: only the copy is there */
	struct rules r1;
	const char *ld;

	if (!getauxval(AT_BASE) || !dladdr((void *)getauxval(AT_BASE), &info) || !info.dli_fname ||
	    info.dli_fname[0] != '/' || !pick_rbx_case(ld = info.dli_fname, pc, &r1) ||
	    r1.cfa_off > 256) {
		skip(2, "no ld.so with a frame whose CFA is rbx plus an offset");
		return;
	}
	note("%s: %#llx called from %#llx (CFA rbx + %lld)", ld, (unsigned long long)pc[0],
	     (unsigned long long)pc[1], (long long)r1.cfa_off);
	for (int i = 0; i < 17; i++)
		regs[i] = 0x1000 + (uint64_t)i;
	regs[7] = sp;			/* perf's order: ax bx cx dx si di bp sp ip, r8-r15 */
	regs[8] = BASE + pc[0];		/* ip: the frame at rsp + 8, rbx not saved */
	regs[1] = sp + 128;		/* rbx: the caller's CFA is rbx + cfa_off */
	stack[0] = BASE + pc[1] + 1;	/* the return address into the rbx-based frame */
	/* Its return address: pc[0] again, whose return address (0, the stack's word there) ends the chain. */
	stack[(128 + r1.cfa_off - 8) / 8] = BASE + pc[0] + 1;
	struct unwind_sample s = {
		.pid = 43, .tid = 43,
		.regs_mask = 0xff01ffULL,
		.regs = (const unsigned char *)regs,
		.stack = (const unsigned char *)stack,
		.stack_size = sizeof(stack),
		.find_map = find_map,
		.arg = (void *)ld,
	};
	for (int libdw = 0; libdw < 2; libdw++) {
		struct unwinder *u;
		ssize_t n;

		if (libdw)
			setenv("MPERF_UNWIND", "libdw", 1);
		u = unwinder__new();
		n = u ? unwinder__unwind(u, &s, ips, 64) : -1;
		ok(n == 3 && ips[0] == BASE + pc[0] && ips[1] == BASE + pc[1] && ips[2] == BASE + pc[0],
		   "%s: rbx kept where no rule says, the rbx-based caller's caller found (%zd frames)",
		   libdw ? "libdw's walk" : "the cached rules", n);
		unwinder__delete(u);
		unsetenv("MPERF_UNWIND");
	}
}

int main(void)
{
	Dl_info info;
	uint64_t pc, regs[17] = { 0 }, ips[64], stack = 0;
	int64_t cfa_off = 0;
	struct unwinder *u;
	ssize_t n;

	plan(6);
	elf_version(EV_CURRENT);
	if (!dladdr((void *)printf, &info) || !info.dli_fname || info.dli_fname[0] != '/') {
		skip(4, "libc's path is not known");
		rbx_case();
		return done_testing();
	}
	libc_path = info.dli_fname;
	if (!(pc = pick_pc(libc_path, &cfa_off))) {
		skip(4, "no frame in libc with its CFA at rsp + 24 or more");
		rbx_case();
		return done_testing();
	}
	note("%s: pc %#llx, CFA rsp + %lld", libc_path, (unsigned long long)pc, (long long)cfa_off);
	/* perf's x86_64 order: ax bx cx dx si di bp sp ip flags cs ss (ds es fs gs) r8-r15. */
	struct unwind_sample s = {
		.pid = 42, .tid = 42,
		.regs_mask = 0xff01ffULL,	/* ax..ip, r8..r15: 17 registers */
		.stack = (const unsigned char *)&stack,
		.stack_size = 8,
		.find_map = find_map,
	};
	for (int i = 0; i < 17; i++)
		regs[i] = BASE + 0x1000;
	regs[7] = BASE + (MAP_LEN >> 1);	/* sp: in the map, past the file's segments */
	regs[8] = BASE + pc;			/* ip */
	s.regs = (const unsigned char *)regs;
	u = unwinder__new();
	n = u ? unwinder__unwind(u, &s, ips, 64) : -1;
	ok(n >= 1 && ips[0] == BASE + pc, "the sample's ip is its first frame (%zd frames)", n);
	/* A second sample of the process, through the same Dwfl. */
	n = u ? unwinder__unwind(u, &s, ips, 64) : -1;
	ok(n >= 1 && ips[0] == BASE + pc, "and again, with the process's modules kept (%zd frames)", n);
	/* No stack copied (dyn_size 0): perf bails out before the walk, no frames. */
	s.stack_size = 0;
	n = u ? unwinder__unwind(u, &s, ips, 64) : -1;
	is_int((int)n, 0, "an empty stack copy: no user frames, not even the ip, as perf");
	s.stack_size = 8;
	/* An ip no map covers (a sample inside execve): perf's libdw walk cannot start, no frames. */
	regs[8] = BASE - 0x1000;
	n = u ? unwinder__unwind(u, &s, ips, 64) : -1;
	is_int((int)n, 0, "an ip outside every map: no user frames, not even the ip, as perf");
	unwinder__delete(u);
	rbx_case();
	return done_testing();
}
