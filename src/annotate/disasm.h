/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_ANNOTATE_DISASM_H
#define MPERF_ANNOTATE_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Machine code to text, in-process through libcapstone (x86-64, aarch64):
 * AT&T syntax by default as objdump prints it, Intel syntax on request.
 * Private to src/annotate.
 */
struct disasm;

/* For the recording's arch (perf's name: "x86_64", "aarch64"); NULL with errno EOPNOTSUPP or ENOMEM. */
struct disasm *disasm__new(const char *arch, bool intel);
void disasm__delete(struct disasm *d);

struct dinsn {
	unsigned size;		/* bytes; of "(bad)": its length when known, else 1 */
	char mnem[32];
	char ops[160];		/* objdump's spacing: no space after a comma in AT&T */
	bool target;		/* a direct jump or call: to */
	bool rip;		/* a RIP-relative operand: at */
	uint64_t to, at;
	uint8_t bytes[16];
};

/*
 * The length of the x86-64 VEX or EVEX instruction at code, from its
 * encoding (x86-length.c), 0 when it is not one or is cut short.
 */
size_t disasm_x86_vex_length(const uint8_t *code, size_t len);

/*
 * The AVX-512 or mask instruction at code as objdump prints it, where
 * capstone 4 cannot (x86-evex.c): out filled (its text, or "(bad)" of its
 * length for an EVEX encoding capstone is known to misread), else false.
 */
bool disasm_x86_evex(const uint8_t *code, size_t len, uint64_t addr, bool intel, struct dinsn *out);
/*
 * Capstone's AT&T operands of AVX-512 as objdump's, in place: "{%k1}{z}"
 * without capstone's spaces, a vector index's scale ("(%rax,%zmm7,1)").
 */
void disasm_x86_evex_text(char *ops, size_t cap);

/*
 * The instruction of code[0..len) at address addr (len > 0); one capstone
 * cannot decode is "(bad)", of its length where x86-length.c knows it.
 */
void disasm__one(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr, struct dinsn *out);

/* A text of cap bytes at p, n of them written: the x86 texts' writer. */
struct dtext {
	char *p;
	size_t cap, n;
};

/* Append printf's text of fmt to o, cut at its end (always terminated). */
__attribute__((format(printf, 2, 3))) void dtext_put(struct dtext *o, const char *fmt, ...);

#endif
