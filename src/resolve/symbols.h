/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_RESOLVE_SYMBOLS_H
#define MPERF_RESOLVE_SYMBOLS_H

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
/* Whether s, which the last symcache__find returned, is a data object (STT_OBJECT). */
bool symcache__sym_object(const struct symcache *c, const struct sym *s);
/*
 * perf's inline frames of a user address (its default, inline names on):
 * the functions the DWARF of the DSO's symbol file places at addr (the
 * DSO-relative address symcache__find gives), innermost first, as
 * addr2line -i names them; 0 when there is no such DWARF.  *names stays
 * valid while the cache lives.
 */
size_t symcache__inlines(struct symcache *c, const char *path, uint64_t addr, const char *const **names);
/*
 * Where each inlined level of symcache__inlines at addr was inlined, as
 * perf's inline frames show it: the call site's "file:line" (DW_AT_call_file,
 * DW_AT_call_line, the file's base name) of level k into calls[k],
 * innermost first; the count written (at most max), read through the
 * line table's DWARF handle.
 */
size_t symcache__inline_calls(struct symcache *c, const char *path, uint64_t addr, char (*calls)[256], size_t max);
/*
 * The file that ran for the DSO at path: path itself when its build id is
 * the recorded one, else perf's build-id cache copy; for [vdso], the
 * cache's copy or "[vdso]" for this machine's image (as its symbols are
 * read); NULL when none can be read (or path is no file and no vdso).
 * Valid while the cache lives.
 */
const char *symcache__runtime_path(struct symcache *c, const char *path);
/*
 * perf's letter (its dso__symtab_origin) for where the symbols of the DSO
 * at path came from: 'k' kallsyms, 'v' a kernel image, 'B' the build-id
 * cache's copy, 'D' its debug file, 'l' a .gnu_debuglink target, 'f'/'u'/'b'
 * /usr/lib/debug by path or by build id, 'd' the file at its path; '!'
 * none was found.
 */
char symcache__origin(struct symcache *c, const char *path);
/*
 * The functions the DWARF places over the code of the function at start
 * (a user DSO's file-offset address): the function itself (depth 0) and
 * each inlined instance in it, nested deeper, as address ranges of the
 * DWARF (the ELF addresses of symcache__vaddr), names demangled.  At an
 * address, the deepest range holding it is the function addr2line -i
 * names first.  Looked up once for the whole function: a lookup per
 * address (symcache__inlines) walks the compile unit each time.  The
 * count, 0 when there is no such DWARF; free with symcache__scopes_free.
 */
struct symcache_scope {
	uint64_t lo, hi;	/* [lo, hi) */
	const char *name;
	int depth;
	const char *line;	/* objdump -l -C's function line: "main()", "int f<int>(int const*)" */
};
size_t symcache__scopes(struct symcache *c, const char *path, uint64_t start, struct symcache_scope **out);
void symcache__scopes_free(struct symcache_scope *v, size_t n);
/*
 * Annotation's view of a user DSO at path, in the file-offset space of
 * symcache__find's addresses and symbols, read from the file that ran
 * (symcache__runtime_path; for the vdso, the build-id cache's image)
 * and its symbol file's DWARF:
 * symcache__vaddr gives the ELF address of off (objdump's), off itself
 * when no loaded segment holds it; symcache__offset goes back (false
 * when none holds vaddr); symcache__section names the section holding
 * off (NULL: none); symcache__read reads len bytes at off (the count, or
 * a negative errno, not logged); symcache__srcline gives the line the
 * DWARF line table places at off and its file, 0 when there is none.
 * Names stay valid while the cache lives.
 */
uint64_t symcache__vaddr(struct symcache *c, const char *path, uint64_t off);
bool symcache__offset(struct symcache *c, const char *path, uint64_t vaddr, uint64_t *off);
const char *symcache__section(struct symcache *c, const char *path, uint64_t off);
long symcache__read(struct symcache *c, const char *path, uint64_t off, void *buf, size_t len);
int symcache__srcline(struct symcache *c, const char *path, uint64_t off, const char **file);
/*
 * The same line as objdump -l prints it: the file named as binutils' DWARF
 * reader joins it (a relative directory's file under the unit's
 * DW_AT_comp_dir too: "./elf/./elf/dl-load.c", where libdw gives
 * "./elf/dl-load.c") into buf, and the line's discriminator (0: none).
 */
int symcache__srcline_objdump(struct symcache *c, const char *path, uint64_t off, char *buf, size_t cap,
			      unsigned *discriminator);
/*
 * symcache__srcline's line, its file's whole path as addr2line gives it
 * (binutils' joining, as symcache__srcline_objdump's) into buf: "" and
 * 0 where there is none.
 */
int symcache__srcline_path(struct symcache *c, const char *path, uint64_t off, char *buf, size_t cap);
/*
 * The view will ask symcache__srcline for the DSOs it asks inline frames
 * of: each DSO's DWARF is opened once, whole, for both (not pruned for
 * the inline frames first, then inflated again with its line table).
 */
void symcache__want_lines(struct symcache *c);
/* perf's --no-demangle: the DSOs' names (and inline frames') as their files have them; before any lookup. */
void symcache__no_demangle(struct symcache *c);
/* Whether the file that ran (or the vdso's image) can be read: a line table could be asked. */
bool symcache__has_image(struct symcache *c, const char *path);
/*
 * Where the line table has no line for off: addr2line's answer from the
 * symbol table, true when a function symbol holds off; *file its STT_FILE
 * name, or NULL where addr2line prints "??".
 */
bool symcache__file_symbol(struct symcache *c, const char *path, uint64_t off, const char **file);
/*
 * A kernel symbol's code, for annotation: len bytes at recorded address
 * ip, from the kernel image whose symbols were loaded (the recorded build
 * id's: -k's, the build-id cache's, perf's other places), *vaddr the
 * image's address of ip (objdump's).  The count read, or a negative errno
 * (not logged): -ENOENT when the symbols are kallsyms' (no image matches)
 * or the image has no bytes there (a debug-only image).
 */
long symcache__kernel_read(struct symcache *c, uint64_t ip, void *buf, size_t len, uint64_t *vaddr);
/*
 * The symbol objdump names an address off by (<sym+0xoff>): a PLT entry
 * covering it, else the last symbol starting at or before it; NULL: none.
 */
const struct sym *symcache__nearest(struct symcache *c, const char *path, uint64_t off);
/*
 * The name objdump -d -C prints after ELF address vaddr of path's
 * runtime image (a branch's target, a RIP-relative operand's address),
 * from that file's own symbols as objdump reads and orders them (its
 * .symtab and, with links (objdump -S), its separate debug file's, else
 * its .dynsym with versions; PLT entries as name@plt, GOT slots by their
 * relocation's symbol): "<sym>", "<sym+0xoff>" or "<sym-0xoff>" into
 * buf; from: the instruction's address (objdump prefers a symbol of its
 * section).  false: the file has no symbols.
 */
bool symcache__objdump_name(struct symcache *c, const char *path, bool links, uint64_t from, uint64_t vaddr,
			    char *buf, size_t cap);
/* The name objdump labels ELF address vaddr of path's image by ("<name>:"), NULL: none starts there. */
const char *symcache__objdump_label(struct symcache *c, const char *path, bool links, uint64_t vaddr);
/* Whether objdump reads a .symtab for path's image (the file's, or with links its debug file's): -l names functions. */
bool symcache__objdump_symtab(struct symcache *c, const char *path, bool links);
/*
 * The kernel and the vdso of this machine serve a recording that names no
 * build id for them, or the same as theirs; another id gets no symbols.
 *
 * Read /proc/kallsyms now (the kernel makes it slowly: a tenth of a
 * second), or wait for the thread reading it.  Only the kernel's lookups
 * touch what it loads.
 */
void symcache__load_kernel(struct symcache *c);
/*
 * Start reading the kernel's symbols (as symcache__load_kernel does) on a
 * thread of its own, for a file only: every kernel lookup
 * (symcache__find_kernel, symcache__kernel_range, symcache__kernel_end)
 * waits for it.  The thread reads kallsyms (the set_kallsyms file, perf's
 * cached copy or /proc/kallsyms) and the recording's build ids, which a
 * file holds from the start and a pipe-mode stream gets with its records.
 * Call symcache__set_kallsyms and symcache__set_build_ids before it.
 */
void symcache__load_kernel_async(struct symcache *c);
/*
 * symcache__load_kernel_async for the file p, when one of its events may
 * sample the kernel (not every one excludes it): a file of user samples
 * reads no kallsyms unless a lookup asks.  A stream starts no thread: its
 * build ids come with its records, its kallsyms is read when first needed.
 */
struct pdata;
void symcache__load_kernel_for(struct symcache *c, const struct pdata *p);
/*
 * Let this kernel's symbols come from the copy of /proc/kallsyms that
 * perf's build-id cache keeps (a recording puts it there), when it was
 * written since boot and starts as /proc/kallsyms does: reading it takes a
 * fraction of the time the kernel takes to make /proc/kallsyms.  A thread
 * compares the two whole meanwhile.  Only for a reader that reads its
 * samples again when they differ: call it before the kernel is loaded.
 */
void symcache__use_kallsyms_copy(struct symcache *c);
/*
 * Whether the copy of kallsyms read differs from /proc/kallsyms: as known
 * now (cheap enough for every sample), or (wait) once the comparison ends.
 * false when no copy was read.
 */
bool symcache__kallsyms_stale(struct symcache *c, bool wait);
/*
 * A sample (or a chain's frame) fell in the kernel's own map: the first
 * call says perf's warning when the recorded kernel is another machine's
 * and perf's build-id cache has no copy of its kallsyms (its samples then
 * show as addresses).  perf says it when it first loads the kernel's map,
 * which is at that first hit, whatever the output shows.  Not thread-safe:
 * call it where the samples are read.
 */
void symcache__kernel_hit(struct symcache *c);
/* Read path instead of /proc/kallsyms (before the first kernel lookup); NULL: /proc/kallsyms again. */
void symcache__set_kallsyms(struct symcache *c, const char *path);
/*
 * Where the kernel's symbols come from, in perf 6.1's order: the kallsyms
 * file set above; else the kernel image (vmlinux) path names (perf's -k),
 * and no other, if its build id is the recorded one; else the first
 * image with the recorded build id (any, when none was recorded) in
 * perf's build-id cache (~/.debug/.build-id/xx/rest, its "elf"), then
 * vmlinux, /boot/vmlinux, and by the recording's kernel release R (set
 * below) /boot/vmlinux-R, /usr/lib/debug/boot/vmlinux-R,
 * /lib/modules/R/build/vmlinux, /usr/lib/debug/lib/modules/R/vmlinux,
 * /usr/lib/debug/boot/vmlinux-R.debug; else kallsyms as said above.  An
 * image's symbols are moved by the recording's reference symbol (its
 * address there less the image's), the kernel's map becomes the image's
 * .text, and each other section with symbols a map of its own,
 * "[kernel.kallsyms]" and the section's name (symcache__kernel_section).
 * A module's map gets kallsyms' symbols when the kernel's come from
 * kallsyms; else those of its .ko with the recorded build id, from the
 * build-id cache or the path the recording names it by (perf looks for
 * none for a module named "[name]"), its .text at the module's recorded
 * address.  Set before the first kernel lookup.
 */
void symcache__set_vmlinux(struct symcache *c, const char *path);
/*
 * perf's --symfs: a DSO the recording names by path P is read from dir/P
 * (never from P itself), if its build id is the recorded one, else from
 * the build-id cache as before.  Kernel images are looked for as before.
 * Set before the first lookup; NULL: none.  0 or -ENOMEM.
 */
int symcache__set_symfs(struct symcache *c, const char *dir);
void symcache__set_os_release(struct symcache *c, const char *release);
/* The three above, from a report's options and the recording p (its OSRELEASE; its modules' build ids). */
struct pdata;
void symcache__set_kernel_files(struct symcache *c, struct pdata *p, const char *vmlinux, const char *kallsyms);
/*
 * The symbol cache of a view of recording p, the one way every view makes
 * it: the recording's build ids (its BUILD_ID feature or records), its
 * kernel's release and modules, the report's -k/--vmlinux and
 * --kallsyms files, and its --symfs directory (symcache__set_symfs; NULL:
 * none given).  NULL, logged, when out of memory.
 */
struct symcache *symcache__for_file(struct pdata *p, const char *vmlinux, const char *kallsyms, const char *symfs);
/*
 * With a kernel image, the map perf gives a kernel address outside the
 * image's .text: its section's ("[kernel.kallsyms].init.text"), NULL when
 * none holds it (or the symbols are kallsyms').  Valid while c lives.
 */
const char *symcache__kernel_section(struct symcache *c, uint64_t ip);
/*
 * The names of the kernel's map dso ("[kernel.kallsyms]", or that and a
 * section's name after it, as the machine and symcache__kernel_section
 * name them) as perf names the kernel's DSO.  When the recording's kernel
 * build-id entry is a vmlinux's path (perf record read that image):
 * SHORT, report's columns: "[kernel.vmlinux]" (and the section after it);
 * NAME, script's: the path for the kernel's own map, else as SHORT; LONG,
 * -D's and --dsos': the path, for a section's map too.  Otherwise
 * "[kernel.kallsyms]" (LONG) or dso as it is.  Any other dso is returned
 * as it is; buf holds a section's name.
 */
enum symcache_kname { SYMCACHE_KNAME_SHORT, SYMCACHE_KNAME_NAME, SYMCACHE_KNAME_LONG };
/*
 * The path of the kernel image with the recorded build id, loaded (never
 * kallsyms) when one of perf's places has it: perf's long name of the
 * kernel's DSO once it has loaded the image (-D's dso lines); else NULL.
 * Call symcache__kernel_mmap with the records first, as for a lookup.
 */
const char *symcache__kernel_image_path(struct symcache *c);
const char *symcache__kernel_dso_name(const struct symcache *c, const char *dso, enum symcache_kname which,
				     char *buf, size_t len);
/*
 * A kernel address the recorded kernel map holds, once perf has read the
 * kernel's symbols: with an image, its .text keeps *dso, another section
 * sets it to that section's map, and outside them false (no map);
 * kallsyms' keep it.
 */
bool symcache__kernel_map(struct symcache *c, uint64_t ip, const char **dso);
/*
 * Where perf's kernel map lies once it has read kallsyms (map__fixup_start
 * and map__fixup_end): from the kernel's first symbol to the end of its
 * last (not a module's), moved as the kernel's symbols are.  False when
 * there are none: the map stays as recorded.
 */
bool symcache__kernel_range(struct symcache *c, uint64_t *start, uint64_t *end);
/* The end of that range, or 0. */
uint64_t symcache__kernel_end(struct symcache *c);
/*
 * The recording's kernel map names a reference symbol ("_text", in its
 * MMAP's "[kernel.kallsyms]_text") and where the recorded kernel had it
 * (the MMAP's pgoff): kernel symbols are moved by the difference, as perf
 * moves them (another KASLR offset after a reboot), and when this
 * machine's kallsyms has no such symbol there are no kallsyms symbols at
 * all.  The first call counts.
 */
void symcache__set_kernel_ref(struct symcache *c, const char *name, uint64_t addr);
/*
 * Any record: the kernel's MMAP or MMAP2 sets the reference symbol as
 * perf sets it (a pgoff of 0, kptr_restrict's, names none).  Every reader
 * of kernel symbols (report, script, the exports) passes its records here.
 */
struct perf_event_header;
void symcache__kernel_mmap(struct symcache *c, const struct perf_event_header *h);
/*
 * The kallsyms symbol covering ip in the kernel map named map, as perf
 * splits kallsyms among the recording's kernel maps: "[kernel.kallsyms]"
 * (or NULL) sees the kernel's own symbols, moved to the recording's
 * reference symbol; a module's map (its path, or "[name]") sees only the
 * symbols of this machine's module of the same name, where they are.
 * Aliases at one address: the one perf keeps.  *info (if not NULL) gets
 * what else perf knows of it.  NULL when none; valid until the next call.
 */
struct ksym_info {
	bool object;		/* a data symbol: perf shows it as name+0xoffset */
	size_t namelen;		/* what perf sizes its column by: a module's symbol counts its "\t[module]" */
	bool mapped;		/* a kernel image's or a module's map: perf shows an address by addr, not ip */
	uint64_t addr;		/* then the address perf shows when no symbol covers ip */
};
const struct sym *symcache__find_kernel(struct symcache *c, const char *map, uint64_t ip, struct ksym_info *info);

#endif
