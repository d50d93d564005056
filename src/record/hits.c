// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which DSOs the samples hit, and their build ids for the BUILD_ID feature:
 * perf report on another machine uses them to find the right binaries.
 * The maps come from the MMAP2 records as they are drained; a sample's
 * (pid, ip) marks the map it falls in.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "../host/host.h"
#include "../lib/alloc.h"
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

void hits__map(struct hits *h, uint32_t pid, uint64_t start, uint64_t len, uint32_t prot, const char *name,
	       size_t name_len)
{
	struct hmap *m;

	/* Executable file mappings of user space: the DSOs a sample can hit. */
	if (!(prot & PROT_EXEC) || !name_len || name[0] != '/')
		return;
	if (ALLOC_GROW(h->v, h->n + 1, h->cap))
		return;
	m = &h->v[h->n];
	m->name = strndup(name, name_len);
	if (!m->name)
		return;
	m->pid = pid;
	m->start = start;
	m->end = start + len;
	m->hit = false;
	h->n++;
}

void hits__mmap2(struct hits *h, const struct perf_event_header *hdr)
{
	struct pd_mmap2_event e;
	const char *name = (const char *)hdr + sizeof(e);

	if (!PD_VIEW(hdr, &e) || hdr->size <= sizeof(e) ||
	    (hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER)
		return;
	hits__map(h, e.pid, e.start, e.len, e.prot, name, strnlen(name, hdr->size - sizeof(e)));
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

int hits__write(struct hits *h, struct pdata_writer *w)
{
	unsigned char id[HOST_BUILD_ID_MAX];
	size_t n;
	int err;

	if (h->kernel_hit && (n = host_kernel_build_id(id)) &&
	    (err = pdw__feat_build_id(w, PERF_RECORD_MISC_KERNEL, -1, id, n, "[kernel.kallsyms]")))
		return err;
	for (size_t i = 0; i < h->n; i++) {
		bool seen = false;

		if (!h->v[i].hit)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = h->v[j].hit && !strcmp(h->v[j].name, h->v[i].name);
		if (seen || !(n = host_file_build_id(h->v[i].name, id)))
			continue;
		if ((err = pdw__feat_build_id(w, PERF_RECORD_MISC_USER, -1, id, n, h->v[i].name)))
			return err;
	}
	/*
	 * Always a [vdso] entry (a zero id if ours cannot be read): without one
	 * perf names vdso samples after a temporary file.
	 */
	memset(id, 0, sizeof(id));
	n = host_vdso_build_id(id);
	return pdw__feat_build_id(w, PERF_RECORD_MISC_USER, -1, id, n ? n : sizeof(id), "[vdso]");
}
