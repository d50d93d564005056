// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine model: threads and their maps rebuilt from COMM, FORK, MMAP
 * and KSYMBOL records, then asked which comm and dso an ip belongs to.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "../../src/resolve/machine.h"
#include "tap.h"

#define USER	2
#define KERNEL	1
#define HV	3

#define KSTART	0xffffffff81000000ULL
#define KLEN	0x1000000ULL

static struct resolved res(struct machine *m, int pid, int tid, int cpumode, uint64_t ip)
{
	struct resolved r;

	memset(&r, 0xa5, sizeof(r));
	if (machine__resolve(m, pid, tid, cpumode, ip, &r)) {
		diag("machine__resolve(%d, %d, %d, %#" PRIx64 ") failed", pid, tid, cpumode, ip);
		memset(&r, 0, sizeof(r));
	}
	return r;
}

/* ip in (pid, tid) resolves to dso, with the map's start and pgoff when found. */
static void is_map(struct machine *m, int pid, int tid, uint64_t ip, const char *dso, uint64_t start,
		   uint64_t pgoff)
{
	struct resolved r = res(m, pid, tid, USER, ip);

	is_str(r.dso, dso, "%d/%d %#" PRIx64 ": dso %s", pid, tid, ip, dso);
	ok(r.found && r.map_start == start && r.map_pgoff == pgoff,
	   "%d/%d %#" PRIx64 ": map start %#" PRIx64 " pgoff %#" PRIx64 " (got found=%d %#" PRIx64 " %#" PRIx64 ")",
	   pid, tid, ip, start, pgoff, r.found, r.found ? r.map_start : 0, r.found ? r.map_pgoff : 0);
}

static void is_unmapped(struct machine *m, int pid, int tid, int cpumode, uint64_t ip)
{
	struct resolved r = res(m, pid, tid, cpumode, ip);

	ok(!r.found && r.dso && !strcmp(r.dso, "<not found>"), "%d/%d %#" PRIx64 " (cpumode %d): <not found> (got %s)",
	   pid, tid, ip, cpumode, r.dso ? r.dso : "NULL");
}

static void test_new(void)
{
	struct machine *m = machine__new();
	struct resolved r;

	ok(m != NULL, "machine__new");
	if (!m)
		exit(1);
	is_str(machine__thread_comm(m, 0), "swapper", "a new machine knows thread 0 as swapper");
	r = res(m, 0, 0, KERNEL, KSTART);
	is_str(r.comm, "swapper", "0/0 resolves with comm swapper");
	is_int(r.tid, 0, "0/0: tid 0");
	is_int(r.pid, 0, "0/0: pid 0");

	is_str(machine__thread_comm(m, 4242), NULL, "an unknown tid has no comm");
	r = res(m, 4242, 4242, USER, 0x400000);
	is_str(r.comm, ":4242", "an unknown tid resolves with comm :<tid>");
	is_str(r.dso, "<not found>", "an unknown tid: a user ip is <not found>");
	ok(!r.found, "an unknown tid: not found");
	is_int(r.pid, 4242, "an unknown tid: pid as asked");
	is_str(machine__thread_comm(m, 4242), ":4242", "resolving made the thread");
	r = res(m, 4242, 4242, KERNEL, KSTART + 0x10);
	is_str(r.dso, "<not found>", "no kernel map yet: a kernel ip is <not found>");
	machine__delete(m);
	machine__delete(NULL);
}

static void test_mmap(void)
{
	struct machine *m = machine__new();
	struct resolved r;

	machine__comm(m, 100, 100, "x");
	is_str(machine__thread_comm(m, 100), "x", "COMM sets the comm");
	is_int(machine__mmap(m, USER, 100, 100, 0x1000, 0x2000, 0x1000, true, 0, "/bin/x"), 0, "MMAP /bin/x");
	r = res(m, 100, 100, USER, 0x1800);
	is_str(r.comm, "x", "100/100: comm x");
	is_map(m, 100, 100, 0x1800, "/bin/x", 0x1000, 0x1000);
	is_map(m, 100, 100, 0x1000, "/bin/x", 0x1000, 0x1000);
	is_map(m, 100, 100, 0x2fff, "/bin/x", 0x1000, 0x1000);
	is_unmapped(m, 100, 100, USER, 0x3000);
	is_unmapped(m, 100, 100, USER, 0xfff);
	is_unmapped(m, 100, 100, KERNEL, 0x1800);

	/* A newer map cuts the older one in two. */
	machine__mmap(m, USER, 100, 100, 0x2000, 0x800, 0, true, 0, "/lib/y");
	is_map(m, 100, 100, 0x1800, "/bin/x", 0x1000, 0x1000);
	is_map(m, 100, 100, 0x2400, "/lib/y", 0x2000, 0);
	is_map(m, 100, 100, 0x27ff, "/lib/y", 0x2000, 0);
	is_map(m, 100, 100, 0x2c00, "/bin/x", 0x2800, 0x1000 + 0x1800);
	is_map(m, 100, 100, 0x2800, "/bin/x", 0x2800, 0x2800);
	is_unmapped(m, 100, 100, USER, 0x3000);

	/* One map over the tail of one, all of another, and the head of a third. */
	machine__mmap(m, USER, 150, 150, 0x10000, 0x10000, 0, true, 0, "/a");
	machine__mmap(m, USER, 150, 150, 0x20000, 0x10000, 0, true, 0, "/b");
	machine__mmap(m, USER, 150, 150, 0x30000, 0x10000, 0x100000, true, 0, "/c");
	machine__mmap(m, USER, 150, 150, 0x18000, 0x20000, 0x5000, true, 0, "/d");
	is_map(m, 150, 150, 0x17fff, "/a", 0x10000, 0);
	is_map(m, 150, 150, 0x18000, "/d", 0x18000, 0x5000);
	is_map(m, 150, 150, 0x28000, "/d", 0x18000, 0x5000);
	is_map(m, 150, 150, 0x37fff, "/d", 0x18000, 0x5000);
	is_map(m, 150, 150, 0x38000, "/c", 0x38000, 0x108000);
	is_unmapped(m, 150, 150, USER, 0x40000);
	/* The same range again replaces it; a map over everything leaves only itself. */
	machine__mmap(m, USER, 150, 150, 0x18000, 0x20000, 0, true, 0, "/e");
	is_map(m, 150, 150, 0x20000, "/e", 0x18000, 0);
	machine__mmap(m, USER, 150, 150, 0x8000, 0x40000, 0, false, 0, "/f");
	is_map(m, 150, 150, 0x10000, "/f", 0x8000, 0);
	is_map(m, 150, 150, 0x3ffff, "/f", 0x8000, 0);
	is_map(m, 150, 150, 0x47fff, "/f", 0x8000, 0);
	is_unmapped(m, 150, 150, USER, 0x48000);
	/* An empty map changes nothing. */
	machine__mmap(m, USER, 150, 150, 0x9000, 0, 0, true, 0, "/g");
	is_map(m, 150, 150, 0x9000, "/f", 0x8000, 0);
	/* Maps are per process. */
	is_map(m, 100, 100, 0x2400, "/lib/y", 0x2000, 0);
	is_unmapped(m, 100, 100, USER, 0x10000);
	machine__delete(m);
}

static void test_threads(void)
{
	struct machine *m = machine__new();
	struct resolved r;
	int rpid = -7, rtid = -7;

	machine__comm(m, 100, 100, "x");
	machine__mmap(m, USER, 100, 100, 0x1000, 0x2000, 0x1000, true, 0, "/bin/x");

	/* Threads share the leader's maps. */
	is_map(m, 100, 101, 0x1800, "/bin/x", 0x1000, 0x1000);
	r = res(m, 100, 101, USER, 0x1800);
	is_int(r.pid, 100, "thread 101: pid 100");
	is_int(r.tid, 101, "thread 101: tid 101");
	is_str(r.comm, ":101", "thread 101: its own comm, not the leader's");
	/* A map made through a thread is the process's. */
	machine__mmap(m, USER, 100, 101, 0x8000, 0x1000, 0, true, 0, "/lib/t");
	is_map(m, 100, 100, 0x8800, "/lib/t", 0x8000, 0);
	/* A thread first seen without its pid joins the process once the pid is known. */
	machine__comm(m, -1, 102, "early");
	is_unmapped(m, -1, 102, USER, 0x1800);
	is_map(m, 100, 102, 0x1800, "/bin/x", 0x1000, 0x1000);
	is_str(machine__thread_comm(m, 102), "early", "thread 102 keeps its comm");

	/* FORK of a new process: a copy of the maps, and the comm. */
	is_int(machine__fork(m, 200, 200, 100, 100, false, &rpid, &rtid), 0, "FORK 200 from 100");
	is_int(rtid, -2, "FORK 200: no parent removed");
	is_str(machine__thread_comm(m, 200), "x", "FORK 200: the parent's comm");
	is_map(m, 200, 200, 0x1800, "/bin/x", 0x1000, 0x1000);
	is_map(m, 200, 200, 0x8800, "/lib/t", 0x8000, 0);
	/* A copy: later maps of either do not show in the other. */
	machine__mmap(m, USER, 200, 200, 0x1000, 0x1000, 0, true, 0, "/bin/new");
	is_map(m, 200, 200, 0x1800, "/bin/new", 0x1000, 0);
	is_map(m, 100, 100, 0x1800, "/bin/x", 0x1000, 0x1000);
	machine__mmap(m, USER, 100, 100, 0x9000, 0x1000, 0, true, 0, "/lib/late");
	is_unmapped(m, 200, 200, USER, 0x9800);
	machine__comm(m, 200, 200, "child");
	is_str(machine__thread_comm(m, 200), "child", "COMM in the child");
	is_str(machine__thread_comm(m, 100), "x", "the parent's comm is untouched");

	/* FORK of a thread: the process's maps, shared. */
	is_int(machine__fork(m, 100, 103, 100, 100, false, &rpid, &rtid), 0, "FORK thread 103 in 100");
	machine__mmap(m, USER, 100, 100, 0xa000, 0x1000, 0, true, 0, "/lib/later");
	is_map(m, 100, 103, 0xa800, "/lib/later", 0xa000, 0);
	r = res(m, 100, 103, USER, 0xa800);
	is_str(r.comm, "x", "thread 103: the comm of the thread it forked from");

	/* perf's own synthesized FORK: the child's maps stay empty. */
	is_int(machine__fork(m, 300, 300, 100, 100, true, &rpid, &rtid), 0, "synthesized FORK 300 from 100");
	is_int(rtid, -2, "synthesized FORK: no parent removed");
	is_unmapped(m, 300, 300, USER, 0x1800);

	/* A parent known with another pid is dropped and made anew. */
	machine__comm(m, 500, 500, "p");
	rpid = rtid = -7;
	is_int(machine__fork(m, 600, 600, 501, 500, false, &rpid, &rtid), 0, "FORK 600 from 501/500");
	is_int(rtid, 500, "FORK from a parent with another pid: removed_tid");
	is_int(rpid, 500, "FORK from a parent with another pid: removed_pid");
	r = res(m, 501, 500, USER, 0x1800);
	is_int(r.pid, 501, "the parent made anew has the FORK's pid");
	is_str(r.comm, ":500", "the parent made anew has no comm");

	/* A FORK over a stale thread with the child's tid replaces it. */
	machine__comm(m, 700, 700, "stale");
	machine__mmap(m, USER, 700, 700, 0x1000, 0x1000, 0, true, 0, "/bin/stale");
	is_int(machine__fork(m, 700, 700, 100, 100, false, &rpid, &rtid), 0, "FORK 700 (reused tid) from 100");
	is_str(machine__thread_comm(m, 700), "x", "reused tid: the parent's comm, not the stale one");
	is_map(m, 700, 700, 0x1800, "/bin/x", 0x1000, 0x1000);

	/* EXIT (mperf top's): the thread goes; its process's maps stay with the threads left. */
	machine__exit(m, 100);
	is_str(machine__thread_comm(m, 100), NULL, "EXIT of 100: the thread is gone");
	is_map(m, 100, 103, 0xa800, "/lib/later", 0xa000, 0);
	machine__exit(m, 103);
	machine__exit(m, 101);
	machine__exit(m, 102);
	machine__exit(m, 4242);
	is_str(machine__thread_comm(m, 103), NULL, "EXIT of every thread: none is left");
	r = res(m, 100, 100, USER, 0xa800);
	is_str(r.comm, ":100", "a sample of an exited process: a thread made anew, no maps");
	is_int(r.found, 0, "a sample of an exited process: its maps went with it");
	machine__delete(m);
}

static void test_names(void)
{
	struct machine *m = machine__new();
	struct resolved r;

	machine__mmap(m, USER, 800, 800, 0x5000, 0x1000, 0, true, 0, "//anon");
	r = res(m, 800, 800, USER, 0x5800);
	is_str(r.dso, "/tmp/perf-800.map", "exec //anon: /tmp/perf-<pid>.map");
	machine__mmap(m, USER, 800, 801, 0x6000, 0x1000, 0, true, 0, "//anon");
	r = res(m, 800, 800, USER, 0x6800);
	is_str(r.dso, "/tmp/perf-800.map", "exec //anon through a thread: the pid's map file");
	machine__mmap(m, USER, 800, 800, 0x7000, 0x1000, 0, false, 0, "//anon");
	r = res(m, 800, 800, USER, 0x7800);
	is_str(r.dso, "//anon", "non-exec //anon keeps its name");
	machine__mmap(m, USER, 800, 800, 0x8000, 0x1000, 0, false, 0, "[heap]");
	r = res(m, 800, 800, USER, 0x8800);
	is_str(r.dso, "[heap]", "non-exec [heap] keeps its name");
	machine__mmap(m, USER, 800, 800, 0x9000, 0x1000, 0, false, 0, "[stack]");
	r = res(m, 800, 800, USER, 0x9800);
	is_str(r.dso, "[stack]", "non-exec [stack] keeps its name");
	machine__mmap(m, USER, 800, 800, 0xa000, 0x1000, 0, true, 0, "[vdso]");
	r = res(m, 800, 800, USER, 0xa800);
	is_str(r.dso, "[vdso]", "[vdso] keeps its name");
	machine__mmap(m, USER, 800, 800, 0xb000, 0x1000, 0, true, 0x40000, "/some/hugepage");
	r = res(m, 800, 800, USER, 0xb800);
	is_str(r.dso, "/tmp/perf-800.map", "exec MAP_HUGETLB memory: /tmp/perf-<pid>.map");
	/* Guest and hypervisor maps are not kept. */
	machine__mmap(m, HV, 800, 800, 0xc000, 0x1000, 0, true, 0, "/bin/guest");
	is_unmapped(m, 800, 800, USER, 0xc800);
	machine__delete(m);
}

static void test_kernel(void)
{
	struct machine *m = machine__new();
	struct resolved r;

	is_int(machine__mmap(m, KERNEL, -1, 0, KSTART, KLEN, KSTART, true, 0, "[kernel.kallsyms]_text"), 0,
	       "kernel MMAP [kernel.kallsyms]_text");
	machine__comm(m, 100, 100, "x");
	r = res(m, 100, 100, KERNEL, KSTART + 0x123456);
	is_str(r.dso, "[kernel.kallsyms]", "kernel ip, cpumode 1: [kernel.kallsyms]");
	ok(r.found && r.map_start == KSTART, "kernel ip: the kernel map");
	is_str(r.comm, "x", "kernel ip: the thread's comm");
	is_unmapped(m, 100, 100, KERNEL, KSTART + KLEN);
	is_unmapped(m, 100, 100, USER, KSTART + 0x123456);
	r = res(m, 100, 100, HV, KSTART + 0x123456);
	is_str(r.dso, "[hypervisor]", "cpumode 3: [hypervisor]");
	ok(!r.found, "cpumode 3: no map");
	r = res(m, 100, 100, HV, 0x1234);
	is_str(r.dso, "[hypervisor]", "cpumode 3, any ip: [hypervisor]");

	/* A module, by its path. */
	machine__mmap(m, KERNEL, -1, 0, 0xffffffffc0000000ULL, 0x10000, 0, true, 0, "/lib/modules/x/kernel/foo.ko");
	r = res(m, 0, 0, KERNEL, 0xffffffffc0001000ULL);
	is_str(r.dso, "/lib/modules/x/kernel/foo.ko", "a module's map");

	/* KSYMBOL outside the kernel map: a map named after the symbol. */
	is_int(machine__ksymbol(m, 0xffffffffc1000000ULL, 0x100, "bpf_prog_abc_f", false), 0, "KSYMBOL bpf_prog_abc_f");
	r = res(m, 0, 0, KERNEL, 0xffffffffc1000080ULL);
	is_str(r.dso, "bpf_prog_abc_f", "KSYMBOL: its map is named after it");
	is_unmapped(m, 0, 0, KERNEL, 0xffffffffc1000100ULL);
	machine__ksymbol(m, 0xffffffffc1001000ULL, 0x80, "bpf_trampoline_x", false);
	r = res(m, 0, 0, KERNEL, 0xffffffffc1001010ULL);
	is_str(r.dso, "", "KSYMBOL bpf_trampoline_x: an empty dso name");
	ok(r.found, "KSYMBOL bpf_trampoline_x: found");
	machine__ksymbol(m, 0xffffffffc1002000ULL, 0x80, "bpf_dispatcher_xdp", false);
	r = res(m, 0, 0, KERNEL, 0xffffffffc1002010ULL);
	is_str(r.dso, "", "KSYMBOL bpf_dispatcher_xdp: an empty dso name");
	/* Inside the kernel map: nothing added. */
	machine__ksymbol(m, KSTART + 0x1000, 0x100, "inside", false);
	r = res(m, 0, 0, KERNEL, KSTART + 0x1010);
	is_str(r.dso, "[kernel.kallsyms]", "KSYMBOL inside the kernel map adds nothing");

	/* Unregister. */
	machine__ksymbol(m, 0xffffffffc1000000ULL, 0x100, "bpf_prog_abc_f", true);
	is_unmapped(m, 0, 0, KERNEL, 0xffffffffc1000080ULL);
	r = res(m, 0, 0, KERNEL, 0xffffffffc1001010ULL);
	is_str(r.dso, "", "unregistering one KSYMBOL leaves the others");
	machine__ksymbol(m, KSTART + 0x1000, 0x100, "inside", true);
	r = res(m, 0, 0, KERNEL, KSTART + 0x1010);
	is_str(r.dso, "[kernel.kallsyms]", "KSYMBOL unregister never removes the kernel map");
	machine__ksymbol(m, 0xffffffffc0000000ULL, 0x10, "foo_fn", true);
	r = res(m, 0, 0, KERNEL, 0xffffffffc0001000ULL);
	ok(1, "KSYMBOL unregister over a module map: %s", r.dso);
	is_int(machine__ksymbol(m, 0xffffffffc1005000ULL, 0x10, "never_registered", true), 0,
	       "unregistering an unknown KSYMBOL");

	/* A kernel map with no start and length covers everything. */
	machine__delete(m);
	m = machine__new();
	machine__mmap(m, KERNEL, -1, 0, 0, 0, 0, true, 0, "[kernel.kallsyms]");
	r = res(m, 0, 0, KERNEL, 0xffffffff8abcdef0ULL);
	is_str(r.dso, "[kernel.kallsyms]", "a kernel map of length 0 at 0 covers all kernel ips");
	/* Kernel MMAPs with names that are no path are ignored. */
	machine__mmap(m, KERNEL, -1, 0, 0x1000, 0x1000, 0, true, 0, "weird");
	r = res(m, 0, 0, KERNEL, 0x1800);
	is_str(r.dso, "[kernel.kallsyms]", "a kernel MMAP of a bare name is ignored");
	machine__delete(m);
}

static void test_thread_comm(void)
{
	struct machine *m = machine__new();

	is_str(machine__thread_comm(m, 900), NULL, "thread_comm of an unknown tid: NULL");
	is_str(machine__thread_comm(m, 900), NULL, "thread_comm does not make the thread");
	machine__comm(m, 900, 900, "first");
	is_str(machine__thread_comm(m, 900), "first", "thread_comm after COMM");
	machine__comm(m, 900, 900, "second-name-that-is-long");
	is_str(machine__thread_comm(m, 900), "second-name-that-is-long", "thread_comm: the current comm");
	machine__comm(m, 900, 901, "worker");
	is_str(machine__thread_comm(m, 901), "worker", "thread_comm of a thread");
	is_str(machine__thread_comm(m, 900), "second-name-that-is-long", "the leader's comm is its own");
	is_str(machine__thread_comm(m, -5), NULL, "thread_comm of a negative tid: NULL");
	machine__delete(m);
}

/* --tasks and --mmaps: perf's ppid (the tid forked from), the idle thread 0/0, the maps' attributes. */
static const struct machine_task *task_of(const struct machine_task *v, size_t n, int tid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].tid == tid)
			return &v[i];
	return NULL;
}

static void test_tasks(void)
{
	struct machine *m = machine__new();
	struct machine_task *v = NULL;
	const struct machine_task *t;
	struct machine_map *mm = NULL;
	size_t n = 0, nm = 0;
	int rpid, rtid;

	machine__comm(m, 100, 100, "sh");
	machine__mmap_prot(m, USER, 100, 100, 0x1000, 0x2000, 0x1000, true, MAP_SHARED, PROT_READ | PROT_EXEC, 42, "/bin/sh");
	machine__mmap_prot(m, USER, 100, 100, 0x8000, 0x1000, 0x7000, true, 0, PROT_READ | PROT_EXEC, 0, "[vdso]");
	machine__fork(m, 200, 200, 100, 100, false, &rpid, &rtid);
	machine__fork(m, 200, 201, 200, 200, false, &rpid, &rtid);
	is_int(machine__tasks(m, &v, &n), 0, "machine__tasks");
	is_int(n, 4, "four threads: swapper, sh, its child and the child's thread");
	t = task_of(v, n, 0);
	ok(t && t->pid == 0 && t->ppid == -1 && !strcmp(t->comm, "swapper"), "swapper is 0/0, no parent");
	t = task_of(v, n, 100);
	ok(t && t->ppid == -1, "sh: no parent seen");
	t = task_of(v, n, 200);
	ok(t && t->ppid == 100 && !strcmp(t->comm, "sh"), "the child: ppid 100, the parent's comm");
	t = task_of(v, n, 201);
	ok(t && t->pid == 200 && t->ppid == 200, "the thread: ppid its creator's tid");
	ok(t && t->maps == task_of(v, n, 200)->maps, "a thread shares its process's maps");
	t = task_of(v, n, 200);
	is_int(t ? machine__maps(m, t->maps, &mm, &nm) : -1, 0, "machine__maps");
	is_int(nm, 2, "the child has its parent's two maps");
	ok(nm == 2 && mm[0].start == 0x1000 && mm[0].end == 0x3000 && mm[0].pgoff == 0x1000 && mm[0].ino == 42 &&
	   mm[0].prot == (PROT_READ | PROT_EXEC) && mm[0].shared && !strcmp(mm[0].dso, "/bin/sh"),
	   "a map's range, offset, inode, protection and sharing");
	ok(nm == 2 && mm[1].pgoff == 0 && !mm[1].shared, "the vdso's map shows offset 0, as perf");
	free(mm);
	free(v);
	machine__delete(m);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_new();
	test_mmap();
	test_threads();
	test_names();
	test_kernel();
	test_thread_comm();
	test_tasks();
	return done_testing();
}
