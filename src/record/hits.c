// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which DSOs the samples hit, and their build ids for the BUILD_ID feature:
 * perf report on another machine uses them to find the right binaries.
 * The maps come from the MMAP2 records as they are drained; a sample's
 * (pid, ip) marks the map it falls in.  The same DSOs go to perf's
 * build-id cache (~/.debug) as the recording ends, as perf record puts them.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "../host/host.h"
#include "../lib/alloc.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "internal.h"

struct hmap {
	uint32_t pid;
	uint64_t start, end;
	char *name;
	bool hit;
	unsigned char id[HOST_BUILD_ID_MAX];
	size_t id_len;		/* written to BUILD_ID with this id (0: not written) */
};

struct hits {
	struct hmap *v;
	size_t n, cap, last;
	bool kernel_hit;
	/* The kernel's and the vdso's ids, as written (0: none). */
	unsigned char kernel_id[HOST_BUILD_ID_MAX], vdso_id[HOST_BUILD_ID_MAX];
	size_t kernel_id_len, vdso_id_len;
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
	m->id_len = 0;
	h->n++;
}

void hits__mmap2(struct hits *h, const struct perf_event_header *hdr)
{
	char buf[PATH_MAX];
	struct pd_mmap mm;

	if ((hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER ||
	    hdr->type != PERF_RECORD_MMAP2 || !pd_mmap_view(hdr, &mm, buf, sizeof(buf)))
		return;
	hits__map(h, mm.pid, mm.start, mm.len, mm.prot, mm.filename, strlen(mm.filename));
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

	if (h->kernel_hit && (n = host_kernel_build_id(id))) {
		if ((err = pdw__feat_build_id(w, PERF_RECORD_MISC_KERNEL, -1, id, n, "[kernel.kallsyms]")))
			return err;
		memcpy(h->kernel_id, id, n);
		h->kernel_id_len = n;
	}
	for (size_t i = 0; i < h->n; i++) {
		struct hmap *m = &h->v[i];
		bool seen = false;

		if (!m->hit)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = h->v[j].hit && !strcmp(h->v[j].name, m->name);
		if (seen || !(n = host_file_build_id(m->name, m->id)))
			continue;
		if ((err = pdw__feat_build_id(w, PERF_RECORD_MISC_USER, -1, m->id, n, m->name)))
			return err;
		m->id_len = n;
	}
	/*
	 * Always a [vdso] entry (a zero id if ours cannot be read): without one
	 * perf names vdso samples after a temporary file.
	 */
	memset(id, 0, sizeof(id));
	n = host_vdso_build_id(id);
	if ((err = pdw__feat_build_id(w, PERF_RECORD_MISC_USER, -1, id, n ? n : sizeof(id), "[vdso]")))
		return err;
	memcpy(h->vdso_id, id, n);
	h->vdso_id_len = n;
	return 0;
}

/* One DSO into the cache: false (said once, as a warning) when the cache cannot be written. */
static bool cache_one(const char *dir, const char *name, bool kernel, const unsigned char *id, size_t n)
{
	char hex[2 * HOST_BUILD_ID_MAX + 1];
	int r;

	host_build_id_hex(id, n, hex);
	r = host_bidcache_add(dir, name, kernel, hex);
	if (r < 0)
		mperf_log(MPERF_LOG_WARN, "cannot add '%s' to the build-id cache '%s': %s (the recording is complete)",
			  name, dir, mperf_strerror(r));
	return r >= 0;
}

void hits__cache(const struct hits *h, const char *dir)
{
	if (h->kernel_id_len && !cache_one(dir, "[kernel.kallsyms]", true, h->kernel_id, h->kernel_id_len))
		return;
	for (size_t i = 0; i < h->n; i++)
		if (h->v[i].id_len && !cache_one(dir, h->v[i].name, false, h->v[i].id, h->v[i].id_len))
			return;
	if (h->vdso_id_len)
		cache_one(dir, "[vdso]", false, h->vdso_id, h->vdso_id_len);
}
