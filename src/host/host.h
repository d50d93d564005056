/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_HOST_H
#define MPERF_HOST_H

/*
 * This machine and its files, read-only: the online CPUs, their topology
 * and caches, the NUMA nodes, the PMUs, the CPU's name and the memory
 * size, the running kernel's symbols (/proc/kallsyms) and
 * build id, this process's vdso, ELF build ids, tracefs, and the one safe
 * way to open a file that a recording names.  record writes these facts into
 * the features; report reads symbols and build ids through them.  The one
 * thing written here is perf's build-id cache (~/.debug), which record
 * fills as it ends, archive packs, and report reads.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/*
 * Open path read-only, only if it is a regular file: a FIFO or a device
 * named in an MMAP record must not block or be read.  An fd, or -errno.
 */
int host_open_regular(const char *path);
/* Read up to len - 1 bytes of a small file (/proc, /sys) and NUL-terminate: bytes, or -errno. */
int host_read_small_file(const char *path, char *buf, size_t len);


/*
 * A file made anew under a temporary name beside path (path.tmp.XXXXXX)
 * and renamed over path once whole, so that a failure never leaves a
 * half-written file under path: open, write through fd (or by tmp's
 * name), commit; then always done, which closes and removes what was not
 * committed.  mode: the file's mode, whatever the umask, or
 * HOST_NEWFILE_UMASK for the mode a new file gets (0666 less the umask).
 */
struct host_newfile {
	const char *path;
	char *tmp;		/* the temporary name (also after a failed open, for its message) */
	int fd;			/* open for writing; -1 once closed (set it so when a FILE took it) */
	bool made;		/* tmp exists and is ours to remove */
};
#define HOST_NEWFILE_UMASK	(-1)
/* 0 or -errno. */
int host_newfile_open(struct host_newfile *nf, const char *path, int mode);
/* Close fd (if open) and rename tmp over path: 0 or -errno. */
int host_newfile_commit(struct host_newfile *nf);
void host_newfile_done(struct host_newfile *nf);

/*
 * A CPU list as sysfs writes it and perf's -C takes it ("0-1,3"): the
 * number of CPUs, or -EINVAL (not such a list), -E2BIG past max.
 */
int host_parse_cpu_list(const char *s, int *cpus, int max);
/* The online CPUs ("0-1,3" in sysfs): their number, or -errno (-E2BIG past max). */
int host_online_cpus(int *cpus, int max);
/* The first "model name" of /proc/cpuinfo, blanks squeezed as perf stores it ("unknown"). */
void host_cpu_desc(char *out, size_t len);
/* The first "vendor_id" of /proc/cpuinfo (x86's CPUID vendor, "AuthenticAMD"), "" if none. */
void host_cpu_vendor(char *out, size_t len);
/* MemTotal in kB, 0 if unknown. */
uint64_t host_total_mem_kb(void);
/*
 * The heap made ready for a reader of a large file: bytes of it taken
 * from the system at once (virtual memory: only pages touched count) and
 * advised for transparent huge pages, one arena for every thread, nothing
 * given back before the exit.  A page fault costs microseconds (16 us on a
 * VM), and the symbol tables, entries and chain trees of a report fault in
 * thousands of 4 KB pages one by one.  For a process that ends after one
 * reading; a no-op but for glibc's malloc.
 */
void host_heap_hugepages(size_t bytes);
/* kernel.perf_event_max_sample_rate, or -errno. */
int host_max_sample_rate(void);

/*
 * CPUID as perf 6.1 writes it: on x86 "vendor,family,model,stepping" of
 * the first CPU of /proc/cpuinfo ("AuthenticAMD,26,2,1"), on arm64 cpu0's
 * MIDR_EL1 ("0x00000000410fd0c0"): 0, or -ENOENT where perf writes none.
 */
int host_cpuid(char *out, size_t len);

/* ---- the machine's shape, as perf's header features describe it (topology.c) ---- */

struct host_cpu_ids {
	int32_t core, socket, die;	/* -1: none (an offline CPU) */
};
struct host_numa_node {
	uint32_t node;
	uint64_t mem_total, mem_free;	/* kB */
	char *cpus;			/* its cpulist, "0-1" */
};
struct host_cache {
	uint32_t level, line_size, sets, ways;
	char *type, *size, *map;	/* "Data", "32K", the CPUs sharing it */
};
struct host_mem_node {
	uint64_t node, nr_bits;
	uint64_t *bits;			/* bit N: the node has memory block memoryN */
};
struct host_pmu {
	uint32_t type;
	char *name;
	uint32_t nr_caps;
	char **cap_names, **cap_values;	/* its caps/ files and their first lines */
	char *hybrid_cpus;		/* a core PMU of a hybrid CPU ("cpu_core"): its cpus; else NULL */
};
struct host_topology {
	/* The CPUs: present ones (the highest + 1), the distinct sibling lists of the online ones. */
	bool has_cpu_topology;
	int nr_cpus;
	char **packages, **dies, **cores;	/* no dies but on x86_64 and s390x, as perf */
	uint32_t nr_packages, nr_dies, nr_cores;
	struct host_cpu_ids *cpus;		/* nr_cpus */
	bool has_numa;
	struct host_numa_node *numa;
	uint32_t nr_numa;
	bool has_cache;
	struct host_cache *caches;		/* each distinct cache once, by level */
	uint32_t nr_caches;
	bool has_mem;
	uint64_t mem_block_size;
	struct host_mem_node *mem;		/* by node */
	uint64_t nr_mem;
	struct host_pmu *pmus;			/* in the directory's order */
	uint32_t nr_pmus;
};
/*
 * Read it all from sys ("/sys", or a copy of its tree): 0, or -ENOMEM.
 * A part that cannot be read whole is left out (its has_ flag false).
 */
int host_topology_read(struct host_topology *t, const char *sys);
void host_topology_free(struct host_topology *t);
/* The PMUs of sys/bus/event_source/devices with a type, and their capabilities: 0 or -ENOMEM. */
int host_pmus(const char *sys, struct host_pmu **pmus, uint32_t *nr);
void host_pmus_free(struct host_pmu *p, uint32_t nr);

/* ---- processes and threads, from /proc ---- */

/*
 * The numeric entries of a /proc directory: every process ("/proc"), or
 * the threads of one ("/proc/PID/task"), in ascending order.  Their
 * number with *ids malloc'd (the caller frees it), or -errno (-ESRCH when
 * the directory is gone: no such process).
 */
int host_proc_ids(const char *dir, int **ids);
/* A thread's name (/proc/PID/task/TID/comm), without the newline: 0 or -errno. */
int host_proc_comm(int pid, int tid, char *buf, size_t len);
/* Tgid and PPid of a thread (/proc/TID/status): 0 or -errno. */
int host_proc_status(int tid, int *tgid, int *ppid);

/* One line of /proc/PID/maps. */
struct host_map {
	uint64_t start, end, pgoff;
	uint32_t maj, min;
	uint64_t ino;
	uint32_t prot;		/* PROT_READ | PROT_WRITE | PROT_EXEC */
	uint32_t flags;		/* MAP_SHARED or MAP_PRIVATE */
	char perms[5];		/* "r-xp" */
	const char *name;	/* the path, "[vdso]", or "" for an anonymous map */
};
/*
 * Call fn for each mapping of process pid in address order; fn returns 0
 * to go on, anything else to stop: that value is returned.  0 at the end,
 * or -errno (-ESRCH: no such process).
 */
int host_proc_maps(int pid, int (*fn)(void *arg, const struct host_map *m), void *arg);

/* ---- build ids ---- */

#define HOST_BUILD_ID_MAX	20

/*
 * The GNU build id in a buffer of ELF notes whose name and descriptor are
 * padded to align (4, or 8 for some sections): its length, or 0.
 */
size_t host_notes_build_id(const void *notes, size_t len, size_t align, unsigned char id[HOST_BUILD_ID_MAX]);
/* The build id of an ELF (a libelf handle, passed as void * to keep libelf out of this header). */
size_t host_elf_build_id(void *elf, unsigned char id[HOST_BUILD_ID_MAX]);
/* The build id of the ELF file at path (a regular file only), or 0. */
size_t host_file_build_id(const char *path, unsigned char id[HOST_BUILD_ID_MAX]);
/* The running kernel's build id (/sys/kernel/notes), or 0. */
size_t host_kernel_build_id(unsigned char id[HOST_BUILD_ID_MAX]);
/* Lowercase hex of a build id into hex (2 * n + 1 bytes). */
void host_build_id_hex(const unsigned char *id, size_t n, char *hex);

/*
 * This process's vdso image (the kernel's, the same every process of this
 * machine maps): 0 and its address and size, or -ENOENT.
 */
int host_vdso(const void **image, size_t *len);
/* The vdso's build id, or 0. */
size_t host_vdso_build_id(unsigned char id[HOST_BUILD_ID_MAX]);

/* ---- perf's build-id cache: ~/.debug (bidcache.c has its layout) ---- */

/* $HOME/.debug: 0, -ENOENT without a home (HOME unset or empty), -ENAMETOOLONG. */
int host_bidcache_dir(char *buf, size_t len);
/* dir/.build-id/<xx>/<rest> for build id hex (lowercase), and /base after it when not NULL. */
int host_bidcache_link(const char *dir, const char *hex, const char *base, char *buf, size_t len);
/*
 * The entry of name (a real path, or "[kernel.kallsyms]", "[vdso]"): dir/name/hex, and
 * /base after it when not NULL.  0, -EINVAL (another name), -ENAMETOOLONG.
 */
int host_bidcache_path(const char *dir, const char *name, const char *hex, const char *base, char *buf, size_t len);
/* The system's debug file of build id hex: /usr/lib/debug/.build-id/<xx>/<rest>.debug. */
int host_system_debug_path(const char *hex, char *buf, size_t len);
/* The file an entry keeps: "kallsyms" (the kernel's), "vdso" or "elf". */
const char *host_bidcache_base(const char *name, bool kernel);

enum { HOST_BIDCACHE_HAD, HOST_BIDCACHE_ADDED, HOST_BIDCACHE_ABSENT };
/*
 * Add name (a user DSO's path, or the kernel's or vdso's bracketed name;
 * kernel: a kernel DSO) with build id hex to the cache in dir, from this
 * machine, as perf record does: HOST_BIDCACHE_HAD when its link is there
 * already, ADDED, ABSENT when this machine has no file of that build id
 * (or shows no kernel addresses), or -errno.
 */
int host_bidcache_add(const char *dir, const char *name, bool kernel, const char *hex);
/* mkdir -p, each directory 0755: 0 or -errno. */
int host_mkdirs(const char *path);

/* ---- /proc/kallsyms ---- */

struct host_ksym {
	uint64_t addr;		/* 0 when the addresses are hidden (kptr_restrict) */
	char type;		/* 'T', 't', 'D'... */
	const char *name;	/* not NUL-terminated: name_len bytes */
	size_t name_len;
	bool module;		/* the line names a module ("\t[ext4]") */
	const char *module_name;	/* then that name, brackets and all ("[ext4]"): module_len bytes */
	size_t module_len;
};

/*
 * Stream /proc/kallsyms (about 200k lines, slow for the kernel to make)
 * through one buffer, calling fn for each line in file order.  fn returns
 * 0 to go on, anything else to stop: that value is returned.  0 at the
 * end, -errno when the file cannot be read, -EINVAL when a line is longer
 * than the buffer (not kallsyms).
 */
int host_kallsyms_stream(int (*fn)(void *arg, const struct host_ksym *s), void *arg);
/* The same for a copy of a kallsyms (perf's build-id cache keeps one per kernel). */
int host_kallsyms_stream_file(const char *path, int (*fn)(void *arg, const struct host_ksym *s), void *arg);
/* The address of the kernel symbol name: 0, or -ENOENT (absent or hidden). */
int host_kallsyms_find(const char *name, uint64_t *addr);
/*
 * The running kernel's _etext, given its _text (ktext.c): from the offset
 * remembered for this kernel's build id, else found in /proc/kallsyms
 * and remembered.  0, or host_kallsyms_find's error.
 */
int host_kernel_etext(uint64_t text, uint64_t *etext);
/*
 * Whether the file at path holds what /proc/kallsyms shows now, byte for
 * byte (its first max bytes only, when max is not 0): 1 yes, 0 no, or
 * -errno when either cannot be read.
 */
int host_kallsyms_same(const char *path, size_t max);
/* Whether a file last written at mtime (its st_mtime) was written since this machine booted. */
bool host_written_since_boot(time_t mtime);

/* ---- tracefs ---- */

/*
 * Where tracefs is mounted (the first of /sys/kernel/tracing and
 * /sys/kernel/debug/tracing that has events/): 0, -ENOENT when neither
 * does, -errno when one cannot be read.
 */
int host_tracefs_dir(char *buf, size_t len);
/*
 * The whole of a file whose size stat() does not know (tracefs, /proc):
 * 0 and *data (malloc'ed, *len bytes, not NUL-terminated), or -errno.
 */
int host_read_whole_file(const char *path, char **data, size_t *len);
/*
 * fn for each subdirectory of dir, in the order the kernel lists them;
 * stops at and returns fn's first non-zero value.  0, or -errno when dir
 * cannot be opened.
 */
int host_list_dirs(const char *dir, int (*fn)(void *arg, const char *name), void *arg);

/* ---- what profiling may do here (mperf doctor) ---- */

#define HOST_UNKNOWN	(-2147483647 - 1)	/* a number that could not be read */

/*
 * Who refuses perf_event_open outright, when a counting user-space event
 * on this process (which every perf_event_paranoid but 3 and up allows)
 * is refused: a seccomp filter (a container's profile), or something else
 * (a security module, a kernel's paranoid 3 patch).  NONE: it opens, and
 * a refusal is perf_event_paranoid's for what was asked.
 */
enum host_denier { HOST_DENIER_NONE, HOST_DENIER_SECCOMP, HOST_DENIER_OTHER };

/* The answer of one probe perf_event_open: 0 when it opened, else the errno. */
struct host_probe {
	bool ok;
	int err;
};

struct host_facts {
	int paranoid;		/* kernel.perf_event_paranoid, or HOST_UNKNOWN */
	int mlock_kb;		/* kernel.perf_event_mlock_kb */
	int max_sample_rate;	/* kernel.perf_event_max_sample_rate */
	int kptr_restrict;	/* kernel.kptr_restrict */
	unsigned euid;
	bool caps_known;	/* CapEff of /proc/self/status was read */
	bool cap_perfmon, cap_sys_admin;
	/* Counting probes on this process (pid 0, any CPU), and on CPU 0 for every task. */
	struct host_probe cycles;	/* hardware cycles: ENOENT and the like mean no PMU here */
	struct host_probe sw_user;	/* cpu-clock, user space only */
	struct host_probe sw_kernel;	/* cpu-clock, user and kernel */
	struct host_probe cpu_wide;	/* cpu-clock on CPU 0, every task (-a, -C) */
	int tracefs;		/* 0: at tracefs_dir; -ENOENT not mounted; -errno not readable */
	char tracefs_dir[256];
	int kallsyms;		/* 1: /proc/kallsyms shows addresses, 0: zeros, -errno: unreadable */
	bool vm;		/* the cpuinfo hypervisor flag, or /sys/hypervisor/type */
	char hypervisor[64];	/* /sys/hypervisor/type, or "" */
	bool container;
	char container_why[128];	/* what said so */
	int seccomp;		/* Seccomp: of /proc/self/status (2: a filter), or HOST_UNKNOWN */
	enum host_denier denier;	/* who refuses perf_event_open outright, from sw_user */
};

/* Read this machine's facts and run the probes; never fails (what is unknown says so). */
void host_facts(struct host_facts *f);
/*
 * The denier of host_facts alone (its one probe), for the message of a
 * refused perf_event_open: doctor's answer, in record's and stat's error.
 */
enum host_denier host_perf_denier(void);

/* ---- the perf_event interface (perfevent.c) ---- */

struct perf_event_attr;

/*
 * perf_event_open(2), close-on-exec (PERF_FLAG_FD_CLOEXEC), as every
 * opener of mperf calls it: record, stat, list's probes, doctor's.  An
 * fd, or -1 with errno set.
 */
int host_perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd);
/* kernel.perf_event_paranoid, or HOST_UNKNOWN (INT_MIN) when it cannot be read. */
int host_perf_event_paranoid(void);

#endif
