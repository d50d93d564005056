// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which DSOs the samples hit, and their build ids for the BUILD_ID feature:
 * perf report on another machine uses them to find the right binaries.
 * The maps come from the MMAP2 records as they are drained; a sample's
 * (pid, ip) marks the map it falls in.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../lib/err.h"
#include "internal.h"

struct hmap {
	uint32_t pid;
	uint64_t start, end;
	char *name;
	bool hit;
};

struct hits {
	struct hmap *v;
	size_t n, cap, last;
	bool kernel_hit;
};

struct hits *hits__new(void)
{
	return calloc(1, sizeof(struct hits));
}

void hits__delete(struct hits *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->n; i++)
		free(h->v[i].name);
	free(h->v);
	free(h);
}

void hits__mmap2(struct hits *h, const struct perf_event_header *hdr)
{
	const unsigned char *b = (const unsigned char *)hdr;
	struct hmap *m;
	size_t max;

	/* u32 pid, tid; u64 start, len, pgoff; 24 bytes of ids; u32 prot, flags; name */
	if (hdr->size < 80 || (hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER ||
	    !(pd_u32(b + 64) & 4) || b[72] != '/')
		return;
	if (h->n == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 64;
		struct hmap *v = realloc(h->v, cap * sizeof(*v));

		if (!v)
			return;
		h->v = v;
		h->cap = cap;
	}
	max = hdr->size - 72u;
	m = &h->v[h->n];
	m->name = strndup((const char *)b + 72, max);
	if (!m->name)
		return;
	m->pid = pd_u32(b + 8);
	m->start = pd_u64(b + 16);
	m->end = m->start + pd_u64(b + 24);
	m->hit = false;
	h->n++;
}

void hits__sample(struct hits *h, uint16_t misc, uint32_t pid, uint64_t ip)
{
	int mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;

	if (mode == PERF_RECORD_MISC_KERNEL) {
		h->kernel_hit = true;
		return;
	}
	if (mode != PERF_RECORD_MISC_USER)
		return;
	/* Samples come in runs from one map: try the last one first. */
	if (h->last < h->n && h->v[h->last].pid == pid && ip >= h->v[h->last].start && ip < h->v[h->last].end) {
		h->v[h->last].hit = true;
		return;
	}
	for (size_t i = h->n; i-- > 0; ) {
		struct hmap *m = &h->v[i];

		if (m->pid == pid && ip >= m->start && ip < m->end) {
			m->hit = true;
			h->last = i;
			return;
		}
	}
}

/* The GNU build id in a buffer of ELF notes. */
static size_t notes_build_id(const unsigned char *p, size_t len, unsigned char id[20])
{
	while (len >= 12) {
		uint32_t namesz = pd_u32(p), descsz = pd_u32(p + 4), type = pd_u32(p + 8);
		size_t nlen = (namesz + 3) & ~3u, dlen = (descsz + 3) & ~3u;

		if (12 + nlen + dlen > len)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + 12, "GNU", 4) && descsz && descsz <= 20) {
			memcpy(id, p + 12 + nlen, descsz);
			return descsz;
		}
		p += 12 + nlen + dlen;
		len -= 12 + nlen + dlen;
	}
	return 0;
}

static size_t elf_build_id(Elf *e, unsigned char id[20])
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn))) {
		Elf_Data *d;
		size_t n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE || !(d = elf_getdata(scn, NULL)))
			continue;
		if ((n = notes_build_id(d->d_buf, d->d_size, id)))
			return n;
	}
	return 0;
}

static size_t file_build_id(const char *path, unsigned char id[20])
{
	/* Only regular files: a FIFO named by a mapping must not block us. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	size_t n = 0;
	Elf *e;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_ELF)
		n = elf_build_id(e, id);
	elf_end(e);
	close(fd);
	return n;
}

static size_t kernel_build_id(unsigned char id[20])
{
	unsigned char buf[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 ? notes_build_id(buf, (size_t)n, id) : 0;
}

/* This process's vdso: the kernel's, the same the workload had. */
static size_t vdso_build_id(unsigned char id[20])
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	size_t n = 0;

	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return 0;
	for (int i = 0; i < eh->e_phnum && !n; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff + (size_t)i * eh->e_phentsize);

		if (ph->p_type == PT_NOTE)
			n = notes_build_id((const unsigned char *)base + ph->p_offset, ph->p_filesz, id);
	}
	return n;
}

int hits__write(struct hits *h, struct pdata_writer *w)
{
	unsigned char id[20];
	size_t n;
	int err;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return 0;
	if (h->kernel_hit && (n = kernel_build_id(id)) &&
	    (err = pdw__feat_build_id(w, PERF_RECORD_MISC_KERNEL, -1, id, n, "[kernel.kallsyms]")))
		return err;
	for (size_t i = 0; i < h->n; i++) {
		bool seen = false;

		if (!h->v[i].hit)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = h->v[j].hit && !strcmp(h->v[j].name, h->v[i].name);
		if (seen || !(n = file_build_id(h->v[i].name, id)))
			continue;
		if ((err = pdw__feat_build_id(w, PERF_RECORD_MISC_USER, -1, id, n, h->v[i].name)))
			return err;
	}
	/*
	 * Always a [vdso] entry (a zero id if ours cannot be read): without one
	 * perf names vdso samples after a temporary file.
	 */
	memset(id, 0, sizeof(id));
	n = vdso_build_id(id);
	return pdw__feat_build_id(w, PERF_RECORD_MISC_USER, -1, id, n ? n : 20, "[vdso]");
}
