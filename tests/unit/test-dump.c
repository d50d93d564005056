// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sample lines of -D that depend on the recording machine or on the
 * attr, on hand-built samples: LBR call stacks (perf's "LBR call chain"
 * and "branch callstack" blocks) and register names by arch; and the
 * number writers of out.h against printf's, at the buffer's end too.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/report/dump.h"
#include "tap.h"

/* Print one SAMPLE (words after the header) through dump__sample; the text, to free. */
static char *dump_one(const struct perf_event_attr *attr, const uint64_t *words, size_t n, const char *arch)
{
	uint64_t rec[64];
	struct perf_event_header *h = (struct perf_event_header *)rec;
	struct pd_sample s;
	struct out out;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	h->type = PERF_RECORD_SAMPLE;
	h->misc = PERF_RECORD_MISC_USER;
	h->size = (uint16_t)(8 + 8 * n);
	memcpy(rec + 1, words, 8 * n);
	if (pd_parse_sample(attr, rec, &s)) {
		fclose(f);
		free(text);
		return strdup("(parse failed)");
	}
	out_init(&out, f);
	dump__sample(&out, h, attr, &s, arch);
	out_close(&out, 0, "test");
	fclose(f);
	return text;
}

static void test_lbr(void)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK,
		.branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK,
	};
	const uint64_t w[] = {
		0x401000,				/* ip */
		3, (uint64_t)PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL, (uint64_t)PERF_CONTEXT_USER,
		2, 0x401100, 0x401200, 0, 0x401300, 0x401400, 0,	/* two branches */
	};
	char *t = dump_one(&a, w, sizeof(w) / 8, "x86");

	is_str(t, "(IP, 0x2): -1/-1: 0x401000 period: 0 addr: 0\n"
		  "... LBR call chain: nr:6\n"
		  ".....  0: ffffffffffffff80\n"
		  ".....  1: ffffffff81000010\n"
		  ".....  2: fffffffffffffe00\n"
		  ".....  3: 0000000000401200\n"
		  ".....  4: 0000000000401100\n"
		  ".....  5: 0000000000401300\n"
		  "... FP chain: nr:3\n"
		  ".....  0: ffffffffffffff80\n"
		  ".....  1: ffffffff81000010\n"
		  ".....  2: fffffffffffffe00\n"
		  "... branch callstack: nr:3\n"
		  ".....  0: 0000000000401200\n"
		  ".....  1: 0000000000401100\n"
		  ".....  2: 0000000000401300\n",
	       "LBR call stack: the LBR call chain, the FP chain, the branch callstack");
	free(t);

	/* Without PERF_CONTEXT_USER in the chain there is no LBR call chain. */
	{
		const uint64_t w2[] = { 0x401000, 1, 0xffffffff81000010ULL, 1, 0x401100, 0x401200, 0 };

		t = dump_one(&a, w2, sizeof(w2) / 8, "x86");
		ok(t && !strstr(t, "LBR call chain") && strstr(t, "... branch callstack: nr:2\n"),
		   "no user context: no LBR call chain, the callstack still");
		free(t);
	}
}

static void test_regs(void)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER,
		.sample_regs_user = (1ULL << 0) | (1ULL << 30) | (1ULL << 32) | (1ULL << 46),
	};
	const uint64_t w[] = { 0x1000, 2 /* ABI 64 */, 10, 11, 12, 13 };
	char *t;

	t = dump_one(&a, w, sizeof(w) / 8, "arm64");
	ok(t && strstr(t, ".... x0    0x000000000000000a\n.... lr    0x000000000000000b\n"
			  ".... pc    0x000000000000000c\n.... vg    0x000000000000000d\n"),
	   "arm64 registers by their names");
	free(t);
	t = dump_one(&a, w, sizeof(w) / 8, "x86");
	ok(t && strstr(t, ".... AX    0x000000000000000a\n.... unknown 0x000000000000000b\n"),
	   "x86 registers by theirs");
	free(t);
	is_str(pd_reg_name("arm", 11), "fp", "arm r11 is fp");
	is_str(pd_reg_name("arm", 15), "pc", "arm r15 is pc");
	is_str(pd_reg_name("x86", 34), "XMM1", "x86 id 34 is XMM1");
	is_str(pd_arch_normalize("aarch64"), "arm64", "aarch64 is perf's arm64");
	is_str(pd_arch_normalize("armv7l"), "arm", "armv7l is perf's arm");
	is_str(pd_arch_normalize("i686"), "x86", "i686 is perf's x86");
	is_str(pd_arch_normalize("x86_64"), "x86", "x86_64 is perf's x86");
}

/*
 * out_u64, out_i64, out_hex and out_xhex print as %lu, %ld, %lx and %#lx,
 * whatever room is left: around every length of digits (each power of 10
 * and of 2, and one less) and a few thousand others.
 */
static void test_numbers(void)
{
	static uint64_t v[4096];
	size_t nv = 0;
	uint64_t p10 = 1, x = 88172645463325252ULL;
	char *text = NULL, *want = NULL;
	size_t len = 0, wlen = 0;
	FILE *f = open_memstream(&text, &len), *w = open_memstream(&want, &wlen);
	struct out out;

	for (int i = 0; i < 20; i++, p10 *= 10) {
		v[nv++] = p10 - 1;
		v[nv++] = p10;
		v[nv++] = p10 + 1;
	}
	for (int b = 0; b < 64; b++) {
		v[nv++] = (1ULL << b) - 1;
		v[nv++] = 1ULL << b;
	}
	v[nv++] = UINT64_MAX;
	while (nv < sizeof(v) / sizeof(v[0])) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v[nv++] = x >> (x & 63);	/* every length */
	}
	out_init(&out, f);
	/* every number at every distance from the buffer's end */
	for (size_t pad = 0; pad < 24; pad++) {
		out_flush(&out);
		out.len = out.cap - pad;
		memset(out.buf, 'x', out.len);
		for (size_t k = 0; k < out.len; k++)
			fputc('x', w);
		for (size_t i = 0; i < nv; i++) {
			out_u64(&out, v[i]);
			out_char(&out, ' ');
			out_i64(&out, (int64_t)v[i]);
			out_char(&out, ' ');
			out_hex(&out, v[i]);
			out_char(&out, ' ');
			out_xhex(&out, v[i]);
			out_char(&out, '\n');
			fprintf(w, "%" PRIu64 " %" PRId64 " %" PRIx64 " %#" PRIx64 "\n", v[i], (int64_t)v[i], v[i], v[i]);
		}
	}
	out_close(&out, 0, "test");
	fclose(f);
	fclose(w);
	ok(len == wlen && !memcmp(text, want, len), "numbers as printf prints them, at the buffer's end too");
	free(text);
	free(want);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_lbr();
	test_regs();
	test_numbers();
	return done_testing();
}
