/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_PERFDATA_H
#define MPERF_PERFDATA_H

/*
 * perf.data, as Linux perf 6.1 reads and writes it: the file header, the
 * attrs and ids, the record stream, the feature sections, and pipe mode.
 * This module is the only code that knows the on-disk layouts; record and
 * report go through the writer, the reader and the decoders declared here.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* "PERFILE2" read as a little-endian u64. */
#define PD_MAGIC		0x32454c4946524550ULL
#define PD_MAGIC_SWAPPED	0x50455246494c4532ULL
#define PD_HEADER_SIZE		104
#define PD_PIPE_HEADER_SIZE	16
/* perf 6.1 rejects attr.size > 128; newer kernels' headers say 136. */
#define PD_ATTR_SIZE		128

/* User record types (perf's, not the kernel's). */
enum {
	PD_HEADER_ATTR = 64, PD_HEADER_EVENT_TYPE, PD_HEADER_TRACING_DATA,
	PD_HEADER_BUILD_ID, PD_FINISHED_ROUND, PD_ID_INDEX, PD_AUXTRACE_INFO,
	PD_AUXTRACE, PD_AUXTRACE_ERROR, PD_THREAD_MAP, PD_CPU_MAP,
	PD_STAT_CONFIG, PD_STAT, PD_STAT_ROUND, PD_EVENT_UPDATE, PD_TIME_CONV,
	PD_HEADER_FEATURE, PD_COMPRESSED, PD_FINISHED_INIT,
	PD_RECORD_MAX		/* 83: types from here on are unknown */
};
#define PD_KERNEL_RECORD_MAX	22	/* 1..21 are the kernel types 6.1 knows */

/* Feature bits. */
enum {
	PD_FEAT_TRACING_DATA = 1, PD_FEAT_BUILD_ID, PD_FEAT_HOSTNAME,
	PD_FEAT_OSRELEASE, PD_FEAT_VERSION, PD_FEAT_ARCH, PD_FEAT_NRCPUS,
	PD_FEAT_CPUDESC, PD_FEAT_CPUID, PD_FEAT_TOTAL_MEM, PD_FEAT_CMDLINE,
	PD_FEAT_EVENT_DESC, PD_FEAT_CPU_TOPOLOGY, PD_FEAT_NUMA_TOPOLOGY,
	PD_FEAT_BRANCH_STACK, PD_FEAT_PMU_MAPPINGS, PD_FEAT_GROUP_DESC,
	PD_FEAT_AUXTRACE, PD_FEAT_STAT, PD_FEAT_CACHE, PD_FEAT_SAMPLE_TIME,
	PD_FEAT_LAST_6_1 = 32	/* HEADER_LAST_FEATURE of perf 6.1 */
};

/* perf's name of a feature bit ("HOSTNAME"), NULL if unknown. */
const char *pd_feature_name(int feat);
/* Name of a record type as perf's stats print it ("SAMPLE", "ATTR"...), NULL if unknown. */
const char *pd_record_name(uint32_t type);

/* ---- event names (shared by record's parser and report's fallback names) ---- */

/* Look up a generic event name ("cycles", "cs"...). 0 or -MPERF_ERR_NOEVENT. */
int pd_event_lookup(const char *name, uint32_t *type, uint64_t *config);
/* perf's name for an attr when the file carries none, e.g. "cycles:u". */
void pd_event_name(const struct perf_event_attr *attr, char *buf, size_t len);

/* ---- decoded sample ---- */

struct pd_sample {
	uint64_t ip, time, addr, id, stream_id, period;
	uint32_t pid, tid, cpu;
	uint64_t weight, data_src, transaction, phys_addr, cgroup;
	uint64_t data_page_size, code_page_size;
	uint32_t weight_struct_lo;
	uint16_t weight_struct_hi;
	const unsigned char *read;	/* read_format block */
	size_t read_len;
	uint64_t callchain_nr;
	const unsigned char *callchain;	/* callchain_nr u64s */
	uint32_t raw_size;
	const unsigned char *raw;
	uint64_t branch_nr;
	const unsigned char *branch;	/* branch_nr x {from, to, flags} */
	bool branch_hw_idx;
	uint64_t user_abi, user_mask;
	const unsigned char *user_regs;
	uint64_t stack_size, stack_dyn_size;
	size_t stack_size_off;		/* offset of the size word in the record */
	uint64_t intr_abi, intr_mask;
	const unsigned char *intr_regs;
	uint64_t aux_size;
	const char *bad;		/* after an error: the field that did not fit */
};

/*
 * Decode a SAMPLE body, or the sample_id trailer of another kernel record,
 * by the attr's sample_type.  Fields the attr lacks are -1 (pid, tid,
 * cpu, time, id...) as perf leaves them.  Pointers point into rec.
 * Returns 0 or -MPERF_ERR_CORRUPT when the record is shorter than its
 * layout says.
 */
int pd_parse_sample(const struct perf_event_attr *attr, const void *rec, struct pd_sample *s);

/* Just the TIME of a SAMPLE or of another record's trailer: 0, or -1 if it has none. */
int pd_sample_time(const struct perf_event_attr *attr, const void *rec, uint64_t *time);

/* Little-endian loads from possibly unaligned memory. */
static inline uint64_t pd_u64(const void *p)
{
	uint64_t v;
	__builtin_memcpy(&v, p, 8);
	return v;
}
static inline uint32_t pd_u32(const void *p)
{
	uint32_t v;
	__builtin_memcpy(&v, p, 4);
	return v;
}
static inline uint16_t pd_u16(const void *p)
{
	uint16_t v;
	__builtin_memcpy(&v, p, 2);
	return v;
}

/* ---- reader ---- */

struct pd_evsel {
	struct perf_event_attr attr;	/* zero-extended copy of the on-disk attr */
	char *name;			/* from EVENT_DESC / EVENT_UPDATE, else derived */
	uint64_t *ids;
	size_t nr_ids;
};

struct pd_record {
	uint64_t off;		/* file offset (pipe mode: stream offset after the header) */
	const struct perf_event_header *hdr;
	bool stable;		/* hdr stays valid until the reader is closed */
};

struct pdata;

/* Open a file ("-" = stdin).  NULL with errno set and err holding one line that explains. */
struct pdata *pdata__open(const char *path, char *err, size_t errlen);
/* Read a file image in memory (not copied: buf must outlive the reader). */
struct pdata *pdata__open_mem(const void *buf, size_t len, char *err, size_t errlen);
void pdata__close(struct pdata *p);

bool pdata__is_pipe(const struct pdata *p);
/*
 * Next record: 1 and *rec filled, 0 at the end, negative on error with
 * pdata__errmsg() naming the problem and its offset.  In pipe mode ATTR,
 * FEATURE and EVENT_UPDATE records update the event list before they are
 * returned.  Unless rec->stable, the record is valid until the next call.
 */
int pdata__next(struct pdata *p, struct pd_record *rec);
const char *pdata__errmsg(const struct pdata *p);
/* Warnings met while opening (e.g. data size 0), or NULL. */
const char *pdata__warning(const struct pdata *p);

size_t pdata__nr_evsel(const struct pdata *p);
const struct pd_evsel *pdata__evsel(const struct pdata *p, size_t idx);
/*
 * Index of the event a kernel record belongs to, by perf's rules (one
 * event: always it; otherwise the id at the fixed slot, id 0 = first
 * event).  -1 for user records, -MPERF_ERR_CORRUPT for an id in no ids
 * section or a record too short to hold one.
 */
int pdata__evsel_of(const struct pdata *p, const struct perf_event_header *hdr);
/* Index of the event that owns id, or -1. */
int pdata__evsel_by_id(const struct pdata *p, uint64_t id);
/* OR of every event's sample_type, and the first event's sample_id_all. */
uint64_t pdata__sample_type_all(const struct pdata *p);
bool pdata__sample_id_all(const struct pdata *p);
/*
 * A feature section of a file-mode file, checked against the file (string
 * features hold their NUL), or NULL.  Valid until the reader is closed
 * (pages the reader hands back are read from the file again if touched).
 */
const unsigned char *pdata__feature(const struct pdata *p, int feat, size_t *len);
/*
 * The build id the BUILD_ID feature records for a DSO name (as the MMAP
 * records name it): its length (up to 20), 0 when the file has none.
 */
size_t pdata__build_id(const struct pdata *p, const char *name, unsigned char id[20]);
/* Where the data and the feature table are (file mode; zeros in pipe mode). */
void pdata__layout(const struct pdata *p, uint64_t *data_off, uint64_t *data_size, uint64_t *feat_off);
/* Whether the feature bitmap has bit feat (file mode). */
bool pdata__has_feat(const struct pdata *p, int feat);

/* ---- writer (file mode) ---- */

struct pdata_writer;

/* Create path (O_TRUNC).  NULL with errno set. */
struct pdata_writer *pdw__create(const char *path);
/* Describe one event; ids are the PERF_EVENT_IOC_ID values of its fds. Before pdw__begin_data. */
int pdw__add_event(struct pdata_writer *w, const struct perf_event_attr *attr, const char *name,
		   const uint64_t *ids, size_t nr_ids);
/* Write the header placeholder, ids and attrs; records follow. */
int pdw__begin_data(struct pdata_writer *w);
/* Append record bytes to the data section. */
int pdw__write(struct pdata_writer *w, const void *buf, size_t len);
uint64_t pdw__data_size(const struct pdata_writer *w);
/* Overwrite bytes already written at data position pos (for values known late). */
int pdw__patch(struct pdata_writer *w, uint64_t pos, const void *buf, size_t len);

/* Feature payloads, kept until pdw__finish writes them in bit order. */
int pdw__feat_string(struct pdata_writer *w, int feat, const char *s);
int pdw__feat_strings(struct pdata_writer *w, int feat, const char *const *s, size_t n);
int pdw__feat_u64(struct pdata_writer *w, int feat, uint64_t v);
int pdw__feat_nrcpus(struct pdata_writer *w, uint32_t avail, uint32_t online);
int pdw__feat_sample_time(struct pdata_writer *w, uint64_t first, uint64_t last);
/* BUILD_ID entry; misc is the cpumode (PERF_RECORD_MISC_KERNEL/USER). */
int pdw__feat_build_id(struct pdata_writer *w, uint16_t misc, int32_t pid,
		       const unsigned char *id, size_t id_len, const char *name);

/* Write EVENT_DESC and the features, patch the header, close the file. */
int pdw__finish(struct pdata_writer *w);
/* Close; when the file was not finished it is removed (never left looking complete). */
void pdw__close(struct pdata_writer *w);

#endif
