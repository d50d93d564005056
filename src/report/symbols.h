/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_REPORT_SYMBOLS_H
#define MPERF_REPORT_SYMBOLS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Symbols of the DSOs a report touches, each loaded once (ELF .symtab, else
 * .dynsym, else separate debug info found by build id or .gnu_debuglink,
 * through libelf) and searched by binary search; kernel symbols come from
 * /proc/kallsyms.
 */
struct sym {
	uint64_t start, end;	/* [start, end) in the DSO's ELF address space */
	const char *name;
};

struct symcache;

struct symcache *symcache__new(void);
/*
 * Where the recording's build ids come from (the BUILD_ID feature): a DSO
 * whose file has another build id is not the one that ran, and gets no
 * symbols, unless perf's build-id cache (~/.debug) has the right one.
 */
typedef size_t (*symcache_build_id_fn)(void *arg, const char *name, unsigned char id[20]);
void symcache__set_build_ids(struct symcache *c, symcache_build_id_fn fn, void *arg);
void symcache__delete(struct symcache *c);

/*
 * The symbol for a user-space sample in the DSO at path, mapped at
 * map_start with file offset pgoff.  *addr gets the address perf prints
 * for an unresolved sample (the DSO-relative one).  NULL when the DSO
 * cannot be read or no symbol covers the address.  path must not change
 * while the cache lives (it is compared by address first).
 */
const struct sym *symcache__find(struct symcache *c, const char *path, uint64_t map_start,
				 uint64_t pgoff, uint64_t ip, uint64_t *addr);
/*
 * perf's inline frames of a user address (its default, inline names on):
 * the functions the DWARF of the DSO's symbol file places at addr (the
 * DSO-relative address symcache__find gives), innermost first, as
 * addr2line -i names them; 0 when there is no such DWARF.  *names stays
 * valid while the cache lives.
 */
size_t symcache__inlines(struct symcache *c, const char *path, uint64_t addr, const char *const **names);
/*
 * The file that ran for the DSO at path: path itself when its build id is
 * the recorded one, else perf's build-id cache copy; NULL when neither
 * can be read (or path is not a file).  Valid while the cache lives.
 */
const char *symcache__runtime_path(struct symcache *c, const char *path);
/*
 * The kernel and the vdso of this machine serve a recording that names no
 * build id for them, or the same as theirs; another id gets no symbols.
 *
 * Read /proc/kallsyms now (the kernel makes it slowly: a tenth of a
 * second), or start reading it on a thread of its own, which the first
 * lookup of a kernel symbol (symcache__find_kernel, symcache__kernel_end)
 * waits for.  The thread asks the recording's build ids (which kernel it
 * was): not for a pipe-mode stream, whose ids arrive with its records.
 * Only the kernel's lookups touch what it loads.
 */
void symcache__load_kernel(struct symcache *c);
void symcache__load_kernel_async(struct symcache *c);
/* The end of the kernel's last symbol (not a module's), or 0. */
uint64_t symcache__kernel_end(struct symcache *c);
/*
 * The recording's kernel map names a reference symbol ("_text", in its
 * MMAP's "[kernel.kallsyms]_text") and where the recorded kernel had it
 * (the MMAP's pgoff): kernel symbols are moved by the difference, as perf
 * moves them (another KASLR offset after a reboot).  The first call counts.
 */
void symcache__set_kernel_ref(struct symcache *c, const char *name, uint64_t addr);
/* The kernel symbol covering ip (from /proc/kallsyms), or NULL; valid until the next call. */
const struct sym *symcache__find_kernel(struct symcache *c, uint64_t ip);

#endif
