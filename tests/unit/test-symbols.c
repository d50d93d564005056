// SPDX-License-Identifier: GPL-2.0-only
/*
 * The symbol cache on real objects: this test program's own functions
 * (found through its mapping in /proc/self/maps), a libc function, a file
 * that does not exist, this process's vdso, /proc/kallsyms, and a stripped
 * program built at run time whose symbols live in a .gnu_debuglink file.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
#include "../../src/perfdata/format.h"
#include "../../src/resolve/symbols.h"
#include "tap.h"

/* ---- functions of our own to resolve (different bodies: no identical-code folding) ---- */

volatile int mperf_test_sink;

__attribute__((noinline, used)) int mperf_test_sym_alpha(int n)
{
	for (int i = 0; i < n; i++)
		mperf_test_sink += i * 3 + 1;
	return mperf_test_sink;
}

__attribute__((noinline, used)) int mperf_test_sym_beta(int n)
{
	for (int i = 0; i < n; i++)
		mperf_test_sink ^= (i << 2) | 5;
	return mperf_test_sink - n;
}

/* ---- /proc/self/maps ---- */

struct mapping {
	uint64_t start, end, pgoff;
	char perms[8];
	char path[PATH_MAX];
};

/*
 * The first mapping that contains addr (when path is NULL) or whose path is
 * path and that is executable (when path is given).  0 when found.
 */
static int find_mapping(const char *path, uint64_t addr, struct mapping *out)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[PATH_MAX + 256];
	int err = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, b, off;
		char perms[8];
		int n = 0;
		char *p, *nl;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s%n", &a, &b, perms, &off, &n) != 4 || !n)
			continue;
		p = line + n;
		while (*p == ' ')
			p++;
		nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		if (path ? strcmp(p, path) || !strchr(perms, 'x') : addr < a || addr >= b)
			continue;
		out->start = a;
		out->end = b;
		out->pgoff = off;
		snprintf(out->perms, sizeof(out->perms), "%s", perms);
		snprintf(out->path, sizeof(out->path), "%s", p);
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

/* ---- our own functions ---- */

static void test_own_functions(struct symcache *c)
{
	enum { N = 12 };
	char exe[PATH_MAX];
	struct mapping mp;
	const struct sym *s;
	uint64_t ip, addr, want, alpha_end = 0;
	const uint64_t alpha = (uint64_t)(uintptr_t)&mperf_test_sym_alpha;
	const uint64_t beta = (uint64_t)(uintptr_t)&mperf_test_sym_beta;

	if (!realpath("/proc/self/exe", exe) || find_mapping(exe, 0, &mp)) {
		skip(N, "no executable mapping of /proc/self/exe in /proc/self/maps");
		return;
	}
	note("%s mapped at %#" PRIx64 "-%#" PRIx64 " pgoff %#" PRIx64, exe, mp.start, mp.end, mp.pgoff);

	ip = alpha + 3;
	want = ip - mp.start + mp.pgoff;
	addr = 0;
	s = symcache__find(c, exe, mp.start, mp.pgoff, ip, &addr);
	is_u64(addr, want, "alpha+3: addr is ip - map start + pgoff");
	is_str(s ? s->name : NULL, "mperf_test_sym_alpha", "alpha+3 resolves to mperf_test_sym_alpha");
	ok(s && s->start <= addr && addr < s->end, "alpha+3: the symbol covers addr");
	is_u64(s ? s->start : 0, alpha - mp.start + mp.pgoff, "alpha: symbol start is the function's file offset");
	if (s)
		alpha_end = s->end;

	/* The last byte of alpha (by the symbol's own end) is still alpha; its end is not. */
	if (alpha_end) {
		ip = mp.start + (alpha_end - 1) - mp.pgoff;
		s = symcache__find(c, exe, mp.start, mp.pgoff, ip, &addr);
		is_str(s ? s->name : NULL, "mperf_test_sym_alpha", "alpha's last byte resolves to alpha");
		ip = mp.start + alpha_end - mp.pgoff;
		s = symcache__find(c, exe, mp.start, mp.pgoff, ip, &addr);
		ok(!s || strcmp(s->name, "mperf_test_sym_alpha"), "alpha's end is not alpha (got %s)",
		   s ? s->name : "NULL");
	} else {
		skip(2, "alpha did not resolve");
	}

	ip = beta + 1;
	want = ip - mp.start + mp.pgoff;
	s = symcache__find(c, exe, mp.start, mp.pgoff, ip, &addr);
	is_u64(addr, want, "beta+1: addr is ip - map start + pgoff");
	is_str(s ? s->name : NULL, "mperf_test_sym_beta", "beta+1 resolves to mperf_test_sym_beta");
	ok(s && s->start <= addr && addr < s->end, "beta+1: the symbol covers addr");
	ok(s && s->start == beta - mp.start + mp.pgoff, "beta: symbol start is the function's file offset");

	/* main too, and a second lookup answers from the cache with the same entry. */
	{
		const struct sym *s1, *s2;
		uint64_t a1, a2;

		s1 = symcache__find(c, exe, mp.start, mp.pgoff, alpha, &a1);
		s2 = symcache__find(c, exe, mp.start, mp.pgoff, alpha, &a2);
		ok(s1 && s1 == s2 && a1 == a2, "a repeated lookup gives the same cached symbol");
	}
	ip = mp.start - 0x100000;	/* far below the mapping: a negative offset wraps, no symbol */
	s = symcache__find(c, exe, mp.start, mp.pgoff, ip, &addr);
	ok(!s, "an address below the mapping (addr wraps): no symbol");
}

/* ---- libc ---- */

static void test_libc(struct symcache *c)
{
	enum { N = 3 };
	pid_t (*volatile fn)(void) = getpid;
	uint64_t ip = (uint64_t)(uintptr_t)fn, addr;
	struct mapping mp;
	const struct sym *s;

	(void)fn();
	if (find_mapping(NULL, ip, &mp) || !strstr(mp.path, "libc") || !strchr(mp.perms, 'x')) {
		skip(N, "getpid's address is not in libc's text mapping");
		return;
	}
	note("getpid at %#" PRIx64 " in %s", ip, mp.path);
	s = symcache__find(c, mp.path, mp.start, mp.pgoff, ip, &addr);
	ok(s && strstr(s->name, "getpid"), "getpid in %s resolves to a getpid name (got %s)", mp.path,
	   s ? s->name : "NULL");
	ok(s && s->start == addr, "getpid's own address is its symbol's start");
	s = symcache__find(c, mp.path, mp.start, mp.pgoff, ip + 1, &addr);
	ok(s && strstr(s->name, "getpid"), "getpid+1 resolves to getpid too");
}

/* ---- things that are not there ---- */

static void test_missing(struct symcache *c)
{
	uint64_t addr = 0;
	const struct sym *s;

	s = symcache__find(c, "/nonexistent/mperf-test/libnothing.so", 0x400000, 0x1000, 0x400123, &addr);
	ok(!s, "a missing file: no symbol");
	is_u64(addr, 0x1123, "a missing file: addr is still ip - start + pgoff");
	s = symcache__find(c, "/nonexistent/mperf-test/libnothing.so", 0x400000, 0x1000, 0x400456, &addr);
	ok(!s, "a missing file, asked again (cached): no symbol");
	s = symcache__find(c, "//anon", 0x7000, 0, 0x7010, &addr);
	ok(!s, "a name that is no file (//anon): no symbol");
	s = symcache__find(c, "/proc/self/status", 0, 0, 0x10, &addr);
	ok(!s, "a file that is not ELF: no symbol");
}

/* ---- vdso ---- */

static void test_vdso(struct symcache *c)
{
	enum { N = 4 };
	uint64_t base = getauxval(AT_SYSINFO_EHDR), addr;
	struct mapping mp;
	const struct sym *s;
	int resolved = 0, named = 0, covered = 0;
	char first[128] = "";

	if (!base || find_mapping(NULL, base, &mp) || strcmp(mp.path, "[vdso]")) {
		skip(N, "no vdso in this process (under valgrind?)");
		return;
	}
	s = symcache__find(c, "[vdso]", mp.start, 0, mp.start, &addr);
	ok(1, "[vdso] at its base: no crash (%s)", s ? s->name : "NULL");
	is_u64(addr, 0, "[vdso] at its base: addr 0");
	for (uint64_t ip = mp.start; ip < mp.end; ip += 16) {
		s = symcache__find(c, "[vdso]", mp.start, 0, ip, &addr);
		if (!s)
			continue;
		resolved++;
		if (s->start <= addr && addr < s->end)
			covered++;
		if (strstr(s->name, "vdso") || strstr(s->name, "clock") || strstr(s->name, "time")) {
			if (!named++)
				snprintf(first, sizeof(first), "%s", s->name);
		}
	}
	note("[vdso]: %d of %" PRIu64 " addresses resolved", resolved, (mp.end - mp.start) / 16);
	ok(named > 0, "[vdso] text resolves to vdso/clock/time names (first: %s)", first);
	ok(covered == resolved, "every [vdso] symbol found covers its address");
}

/* ---- kernel ---- */

static bool kept_type(char t)
{
	return t && strchr("TtWwDdBb", t);
}

struct kline {
	uint64_t addr;
	char name[256];
	char module[64];	/* "[ext4]", or "" */
};

/* The kept lines of /proc/kallsyms, in file order; NULL when unreadable. */
static struct kline *read_kallsyms(size_t *n, bool *nonzero)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	struct kline *v = NULL;
	size_t cap = 0;
	char line[1024];

	*n = 0;
	*nonzero = false;
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char t, name[256];

		if (sscanf(line, "%llx %c %255s", &a, &t, name) != 3)
			continue;
		if (a)
			*nonzero = true;
		if (!a || !kept_type(t) || name[0] == '$')
			continue;
		if (*n == cap) {
			struct kline *nv;

			cap = cap ? cap * 2 : 1 << 17;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				fclose(f);
				return NULL;
			}
			v = nv;
		}
		v[*n].addr = a;
		snprintf(v[*n].name, sizeof(v[*n].name), "%s", name);
		v[*n].module[0] = 0;
		if (strchr(line, '\t'))
			sscanf(strchr(line, '\t') + 1, "%63s", v[*n].module);
		(*n)++;
	}
	fclose(f);
	return v;
}

static void test_kernel(struct symcache *c)
{
	enum { N = 12 };
	size_t n = 0, g = SIZE_MAX, gend = 0, last_vmlinux = SIZE_MAX, text = SIZE_MAX, stext = SIZE_MAX;
	size_t mod = SIZE_MAX;
	uint64_t lowest = UINT64_MAX, lowest_module = UINT64_MAX;
	bool nonzero, sorted = true;
	struct kline *k = read_kallsyms(&n, &nonzero);
	const struct sym *s;
	struct sym got;

	if (!k || !n || !nonzero) {
		skip(N, "no /proc/kallsyms addresses (kptr_restrict?)");
		free(k);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (text == SIZE_MAX && !strcmp(k[i].name, "_text"))
			text = i;
		if (stext == SIZE_MAX && !strcmp(k[i].name, "_stext"))
			stext = i;
		if (i && k[i].addr < k[i - 1].addr)
			sorted = false;
		if (k[i].addr < lowest)
			lowest = k[i].addr;
		if (k[i].module[0] && k[i].addr < lowest_module)
			lowest_module = k[i].addr;
		if (!k[i].module[0] && (last_vmlinux == SIZE_MAX || k[i].addr >= k[last_vmlinux].addr))
			last_vmlinux = i;
	}
	if (text == SIZE_MAX)
		text = stext;
	/*
	 * An alias group: several kept vmlinux names at one address, followed
	 * by a kept vmlinux line; memcpy's if there is one, else the first.
	 * (The vmlinux part of kallsyms is sorted by address.)
	 */
	for (size_t i = 0, j; i < n; i = j) {
		bool want = false;

		for (j = i; j < n && k[j].addr == k[i].addr; j++)
			want |= !strcmp(k[j].name, "memcpy") || !strcmp(k[j].name, "__memcpy");
		if (j - i < 2 || j == n || k[i].module[0] || k[j].module[0] || k[j].addr < k[i].addr)
			continue;
		if (g == SIZE_MAX || want) {
			g = i;
			gend = j;
			if (want)
				break;
		}
	}

	/*
	 * The last module line in file order that has its address to itself:
	 * in an unsorted kallsyms, the one least likely to be where a search
	 * of the lines as read would look.
	 */
	for (size_t i = n, tries = 0; i-- > 0 && mod == SIZE_MAX && tries < 16;) {
		size_t j = 0;

		if (!k[i].module[0])
			continue;
		tries++;
		while (j < n && (j == i || k[j].addr != k[i].addr))
			j++;
		if (j == n)
			mod = i;
	}

	/*
	 * Module and BPF lines come after vmlinux's in module-list and
	 * symbol-table order, not by address: on most machines kallsyms is
	 * unsorted, and every check below must hold all the same
	 * (t0003 runs this test on an unsorted copy).
	 */
	note("/proc/kallsyms: %zu kept lines, %s", n, sorted ? "sorted by address" : "NOT sorted by address");

	symcache__load_kernel(c);

	if (text != SIZE_MAX) {
		s = symcache__find_kernel(c, NULL, k[text].addr, NULL);
		ok(s != NULL, "kernel: %s (%#" PRIx64 ") resolves", k[text].name, k[text].addr);
		is_u64(s ? s->start : 0, k[text].addr, "kernel: its symbol starts at %s", k[text].name);
	} else {
		skip(2, "no _text or _stext in /proc/kallsyms");
	}

	s = symcache__find_kernel(c, NULL, lowest - 1, NULL);
	ok(!s, "kernel: 1 byte below the lowest kept symbol: none");
	s = symcache__find_kernel(c, NULL, 0x1000, NULL);
	ok(!s, "kernel: a user-space address: none");

	if (g != SIZE_MAX) {
		const char *last = k[gend - 1].name;

		s = symcache__find_kernel(c, NULL, k[g].addr, NULL);
		got = s ? *s : (struct sym){ 0 };
		note("alias group at %#" PRIx64 ": %zu names, %s .. %s", k[g].addr, gend - g, k[g].name, last);
		is_str(got.name, last, "kernel aliases: the last one listed wins");
		is_u64(got.start, k[g].addr, "kernel aliases: start is their address");
		is_u64(got.end, k[gend].addr, "kernel: a symbol ends where the next kept one starts");
		s = symcache__find_kernel(c, NULL, k[gend].addr - 1, NULL);
		is_str(s ? s->name : NULL, last, "kernel: the byte before the next symbol is still this one");
	} else {
		skip(4, "no kernel alias group in /proc/kallsyms");
	}

	/* The last vmlinux symbol ends a page on, not at the first module's symbol. */
	if (lowest_module != UINT64_MAX && last_vmlinux != SIZE_MAX &&
	    lowest_module > k[last_vmlinux].addr + 8192) {
		uint64_t a = k[last_vmlinux].addr, end = ((a + 4095) & ~4095ULL) + 4096;

		s = symcache__find_kernel(c, NULL, a, NULL);
		got = s ? *s : (struct sym){ 0 };
		is_u64(got.end, end, "kernel: %s, last before the modules, ends a page on", k[last_vmlinux].name);
		s = symcache__find_kernel(c, NULL, end, NULL);
		ok(!s, "kernel: the gap before the modules resolves to nothing");
	} else {
		skip(2, "no module symbols in /proc/kallsyms");
	}

	if (mod != SIZE_MAX) {
		s = symcache__find_kernel(c, k[mod].module, k[mod].addr, NULL);
		is_str(s ? s->name : NULL, k[mod].name, "kernel: module symbol %s resolves", k[mod].name);
		is_u64(s ? s->start : 0, k[mod].addr, "kernel: module symbol %s starts at its address",
		       k[mod].name);
	} else {
		skip(2, "no module symbol with an address of its own in /proc/kallsyms");
	}
	free(k);
}

/* ---- perf's kallsyms rules, on a made-up kallsyms ---- */

/*
 * Module lines out of address order, as the kernel lists them; aliases;
 * __pfx_ padding symbols; data.  Addresses are this kernel's (_text at
 * 0xffffffff81000000); the recordings below had it elsewhere.
 */
static const char made_up_kallsyms[] =
	"ffffffff81000000 T srso_alias_untrain_ret\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000010 t __pfx_alpha\n"
	"ffffffff81000020 T alpha\n"
	"ffffffff81000040 T beta\n"
	"ffffffff81000040 W __beta_weak\n"
	"ffffffff81000080 t __pfx_gamma\n"
	"ffffffff81000080 T __split_end\n"
	"ffffffff81000090 T gamma\n"
	"ffffffff81000100 r gamma_rodata\n"
	"ffffffff81001000 D some_data\n"
	"ffffffff81002000 b some_bss\n"
	"ffffffff81003000 T last_text\n"
	"ffffffffc0002000 t mod_b_fn\t[mod_b]\n"
	"ffffffffc0001000 t mod_a_fn\t[mod_a]\n"
	"ffffffffc0001000 t __mod_a_alias\t[mod_a]\n"
	"ffffffffc0001100 d mod_a_data\t[mod_a]\n";

#define LOCAL(off) (0xffffffff81000000ULL + (off))

/* The kernel's MMAP a recording made: "[kernel.kallsyms]" name, its start as pgoff. */
static void kernel_mmap(struct symcache *c, const char *name, uint64_t pgoff)
{
	union {
		struct pd_mmap_event e;
		char b[sizeof(struct pd_mmap_event) + 64];
	} r;
	size_t n = strlen(name) + 1;

	memset(&r, 0, sizeof(r));
	r.e.header.type = PERF_RECORD_MMAP;
	r.e.header.misc = PERF_RECORD_MISC_KERNEL;
	r.e.header.size = (uint16_t)(sizeof(r.e) + ((n + 7) & ~(size_t)7));
	r.e.pid = (uint32_t)-1;
	r.e.start = pgoff;
	r.e.len = 0x1000000;
	r.e.pgoff = pgoff;
	memcpy(r.e.filename, name, n);
	symcache__kernel_mmap(c, &r.e.header);
}

static struct symcache *made_up_cache(const char *path)
{
	struct symcache *c = symcache__new();

	if (c)
		symcache__set_kallsyms(c, path);
	return c;
}

static const char *name_at(struct symcache *c, const char *map, uint64_t ip)
{
	const struct sym *s = symcache__find_kernel(c, map, ip, NULL);

	return s ? s->name : NULL;
}

static void test_kallsyms_rules(void)
{
	enum { N = 29 };
	char path[] = "/tmp/mperf-test-kallsyms-XXXXXX";
	const int64_t moved = 0x1f000000;	/* the recording's _text, less this kernel's */
	struct symcache *c;
	const struct sym *s;
	struct ksym_info ki;
	uint64_t start, end;
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, made_up_kallsyms, sizeof(made_up_kallsyms) - 1) !=
			      (ssize_t)(sizeof(made_up_kallsyms) - 1)) {
		skip(N, "cannot write a kallsyms file in /tmp");
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);

	/* The recorded kernel had _text 0x1f000000 higher: every kernel symbol is moved there. */
	c = made_up_cache(path);
	kernel_mmap(c, "[kernel.kallsyms]_text", LOCAL(moved));
	s = symcache__find_kernel(c, "[kernel.kallsyms]", LOCAL(moved + 0x25), &ki);
	is_str(s ? s->name : NULL, "alpha", "kallsyms: moved to the recording's _text");
	is_u64(s ? s->start : 0, LOCAL(moved + 0x20), "kallsyms: the symbol starts where the recording had it");
	is_u64(s ? s->end : 0, LOCAL(moved + 0x40), "kallsyms: it ends at the next one, moved too");
	ok(!ki.object && ki.namelen == 5, "kallsyms: a function, its name's length");
	is_str(name_at(c, NULL, LOCAL(0x25)), NULL, "kallsyms: this kernel's own address resolves to nothing");
	/* __pfx_ padding: a symbol of its own, 16 bytes below its function. */
	is_str(name_at(c, NULL, LOCAL(moved + 0x18)), "__pfx_alpha", "kallsyms: __pfx_ before its function is its own");
	/* Aliases: every line but the last at an address ends where it starts, so the last listed is kept. */
	is_str(name_at(c, NULL, LOCAL(moved)), "_text", "kallsyms aliases: the last listed (_text)");
	is_str(name_at(c, NULL, LOCAL(moved + 0x40)), "__beta_weak", "kallsyms aliases: the last listed, weak or not");
	is_str(name_at(c, NULL, LOCAL(moved + 0x80)), "__split_end", "kallsyms aliases: a __pfx_ listed first loses");
	is_str(name_at(c, NULL, LOCAL(moved + 0x100)), "gamma", "kallsyms: read-only data is not kept");
	/* Data symbols: perf shows them as name+0xoffset. */
	s = symcache__find_kernel(c, NULL, LOCAL(moved + 0x1005), &ki);
	ok(s && !strcmp(s->name, "some_data") && ki.object, "kallsyms: a data symbol says so");
	s = symcache__find_kernel(c, NULL, LOCAL(moved + 0x2001), &ki);
	ok(s && !strcmp(s->name, "some_bss") && ki.object, "kallsyms: a bss symbol is data too");
	/* The kernel's last symbol, before the modules', ends a page on. */
	is_str(name_at(c, NULL, LOCAL(moved + 0x3fff)), "last_text", "kallsyms: the kernel's last symbol");
	is_str(name_at(c, NULL, LOCAL(moved + 0x4000)), NULL, "kallsyms: ends a page on, before the modules");
	ok(symcache__kernel_range(c, &start, &end) && start == LOCAL(moved) && end == LOCAL(moved + 0x4000),
	   "kallsyms: perf's kernel map spans the kernel's symbols, moved");
	/* Modules: a recorded module's map sees this machine's module of its name, unmoved. */
	s = symcache__find_kernel(c, "/lib/modules/3.8.0/kernel/mod-a.ko", 0xffffffffc0001010, &ki);
	is_str(s ? s->name : NULL, "__mod_a_alias", "kallsyms: a module's symbol, in the module of that name");
	is_u64(s ? s->start : 0, 0xffffffffc0001000, "kallsyms: a module's symbol is not moved");
	is_u64(ki.namelen, strlen("__mod_a_alias\t[mod_a]"), "kallsyms: a module's symbol counts its module");
	s = symcache__find_kernel(c, "[mod_a]", 0xffffffffc0001fff, &ki);
	ok(s && !strcmp(s->name, "mod_a_data") && ki.object, "kallsyms: a module's data, up to the next line");
	is_str(name_at(c, "[mod_a]", 0xffffffffc0002000), NULL, "kallsyms: another module's symbol is not mod_a's");
	is_str(name_at(c, "[mod_b]", 0xffffffffc0002fff), "mod_b_fn", "kallsyms: the last symbol ends a page on");
	is_str(name_at(c, "[mod_c]", 0xffffffffc0002000), NULL, "kallsyms: a module this machine lacks has none");
	is_str(name_at(c, "[kernel.kallsyms]", 0xffffffffc0002000 + (uint64_t)moved), NULL,
	       "kallsyms: the kernel's map sees no module's symbols");
	symcache__delete(c);

	/* A reference symbol this kallsyms lacks: no kallsyms symbols at all. */
	c = made_up_cache(path);
	kernel_mmap(c, "[kernel.kallsyms]_sinittext", LOCAL(moved));
	is_str(name_at(c, NULL, LOCAL(0x25)), NULL, "kallsyms: reference symbol missing: no kernel symbols");
	is_str(name_at(c, NULL, LOCAL(moved + 0x25)), NULL, "kallsyms: reference symbol missing: not moved either");
	is_str(name_at(c, "[mod_b]", 0xffffffffc0002000), NULL, "kallsyms: reference symbol missing: no module's");
	ok(!symcache__kernel_range(c, &start, &end), "kallsyms: reference symbol missing: the map stays as recorded");
	symcache__delete(c);

	/* A pgoff of 0 (kptr_restrict at record time) names no reference: not moved. */
	c = made_up_cache(path);
	kernel_mmap(c, "[kernel.kallsyms]_text", 0);
	is_str(name_at(c, NULL, LOCAL(0x25)), "alpha", "kallsyms: pgoff 0: not moved");
	symcache__delete(c);

	/* Another reference symbol (old perf: _stext; any function will do), found where perf finds it. */
	c = made_up_cache(path);
	kernel_mmap(c, "[kernel.kallsyms]gamma", LOCAL(0x90 - 0x1000));
	is_str(name_at(c, NULL, LOCAL(0x25 - 0x1000)), "alpha", "kallsyms: moved by another reference symbol");
	symcache__delete(c);
	unlink(path);
}

/* ---- separate debug info through .gnu_debuglink ---- */

static bool has_symtab(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *e;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	bool found = false;

	if (fd < 0)
		return false;
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && (scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			found = true;
	elf_end(e);
	close(fd);
	return found;
}

/* A virtual address of the ELF at path as a file offset, through its PT_LOAD segments. */
static int vaddr_to_offset(const char *path, uint64_t vaddr, uint64_t *off)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = -1;
	Elf *e;
	size_t n;

	if (fd < 0)
		return -1;
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && !elf_getphdrnum(e, &n)) {
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD && vaddr >= ph.p_vaddr &&
			    vaddr < ph.p_vaddr + ph.p_filesz) {
				*off = vaddr - ph.p_vaddr + ph.p_offset;
				err = 0;
				break;
			}
		}
	}
	elf_end(e);
	close(fd);
	return err;
}

static void test_debuglink(void)
{
	enum { N = 6 };
	char dir[] = "/tmp/mperf-test-symbols-XXXXXX", path[512], cmd[2048], line[512];
	unsigned long long vaddr = 0;
	uint64_t off = 0, addr;
	struct symcache *c;
	const struct sym *s;
	FILE *f;

	if (system("(command -v gcc && command -v objcopy && command -v strip && command -v nm) >/dev/null 2>&1") != 0 ||
	    !mkdtemp(dir)) {
		skip(N, "gcc, objcopy, strip or nm missing");
		return;
	}
	snprintf(path, sizeof(path), "%s/prog.c", dir);
	f = fopen(path, "w");
	if (f) {
		fputs("volatile int sink;\n"
		      "__attribute__((noinline)) int dbg_target_fn(int n)\n"
		      "{\n\tfor (int i = 0; i < n; i++)\n\t\tsink += i * 7;\n\treturn sink;\n}\n"
		      "int main(int argc, char **argv)\n{\n\t(void)argv;\n\treturn dbg_target_fn(argc);\n}\n",
		      f);
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd),
		 "(cd '%s' && gcc -O1 -o prog prog.c && objcopy --only-keep-debug prog prog.debug && "
		 "strip prog && objcopy --add-gnu-debuglink=prog.debug prog) >/dev/null 2>&1", dir);
	if (!f || system(cmd) != 0) {
		skip(N, "could not build the stripped program");
		goto out;
	}
	snprintf(cmd, sizeof(cmd), "nm '%s/prog.debug' 2>/dev/null", dir);
	f = popen(cmd, "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char t, name[256];

		if (sscanf(line, "%llx %c %255s", &a, &t, name) == 3 && !strcmp(name, "dbg_target_fn"))
			vaddr = a;
	}
	if (f)
		pclose(f);
	snprintf(path, sizeof(path), "%s/prog", dir);
	if (!vaddr || vaddr_to_offset(path, vaddr, &off)) {
		skip(N, "dbg_target_fn not in nm's output");
		goto out;
	}
	note("dbg_target_fn at %#llx, file offset %#" PRIx64, vaddr, off);
	ok(!has_symtab(path), "the stripped program has no .symtab of its own");

	c = symcache__new();
	s = symcache__find(c, path, 0, 0, off, &addr);
	is_str(s ? s->name : NULL, "dbg_target_fn", "stripped program: dbg_target_fn from its debuglink file");
	is_u64(addr, off, "stripped program: addr is the file offset");
	s = symcache__find(c, path, 0x5555550000, 0x1000, 0x5555550000 + off - 0x1000 + 2, &addr);
	is_str(s ? s->name : NULL, "dbg_target_fn", "stripped program mapped elsewhere: dbg_target_fn+2");
	symcache__delete(c);

	/* Without the debug file nothing names it: the debuglink was what found it. */
	snprintf(path, sizeof(path), "%s/prog.debug", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/prog", dir);
	c = symcache__new();
	s = symcache__find(c, path, 0, 0, off, &addr);
	ok(!s || strcmp(s->name, "dbg_target_fn"), "without prog.debug: no dbg_target_fn (got %s)",
	   s ? s->name : "NULL");
	symcache__delete(c);

	/* An unstripped copy: its own .symtab. */
	snprintf(cmd, sizeof(cmd), "cd '%s' && gcc -O1 -o prog2 prog.c >/dev/null 2>&1", dir);
	if (system(cmd) == 0) {
		snprintf(path, sizeof(path), "%s/prog2", dir);
		c = symcache__new();
		s = NULL;
		if (!vaddr_to_offset(path, vaddr, &off))
			s = symcache__find(c, path, 0, 0, off, &addr);
		is_str(s ? s->name : NULL, "dbg_target_fn", "unstripped program: dbg_target_fn");
		symcache__delete(c);
	} else {
		skip(1, "could not build the unstripped program");
	}
out:
	for (const char *const *p = (const char *const[]){ "prog.c", "prog", "prog.debug", "prog2", NULL }; *p; p++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *p);
		unlink(path);
	}
	rmdir(dir);
}

int main(void)
{
	struct symcache *c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	plan(12 + 3 + 5 + 4 + 12 + 29 + 6);
	c = symcache__new();
	if (!c) {
		printf("Bail out! symcache__new failed\n");
		return 1;
	}
	test_own_functions(c);
	test_libc(c);
	test_missing(c);
	test_vdso(c);
	test_kernel(c);
	symcache__delete(c);
	test_kallsyms_rules();
	test_debuglink();
	(void)mperf_test_sym_alpha(0);
	(void)mperf_test_sym_beta(0);
	return done_testing();
}
