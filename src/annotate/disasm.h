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
	unsigned size;		/* bytes; 1 for an undecodable byte ("(bad)") */
	char mnem[32];
	char ops[160];		/* objdump's spacing: no space after a comma in AT&T */
	bool target;		/* a direct jump or call: to */
	bool rip;		/* a RIP-relative operand: at */
	uint64_t to, at;
	uint8_t bytes[16];
};

/* The instruction of code[0..len) at address addr (len > 0). */
void disasm__one(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr, struct dinsn *out);

#endif
