/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_PERFDATA_H
#define MPERF_PERFDATA_H

/*
 * perf.data, as Linux perf 6.1 reads and writes it: the file header, the
 * attrs and ids, the record stream, the feature sections, and pipe mode.
 * This module is the only code that knows the on-disk layouts (format.h);
 * record and report go through the writer and the reader declared here.
 *
 * Errors: a failing call logs one line (mperf_log, MPERF_LOG_ERROR) that
 * names the file, the problem and its offset, and returns a negative
 * code; constructors return NULL with errno set.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <linux/perf_event.h>
#include "../lib/hash.h"
#include "format.h"

/* ---- reader ---- */

struct pd_evsel {
	struct perf_event_attr attr;	/* zero-extended copy of the on-disk attr */
	struct pd_sample_layout layout;	/* where its samples hold ID, TIME... */
	char *name;			/* from EVENT_DESC / EVENT_UPDATE, else derived */
	uint64_t *ids;
	size_t nr_ids;
};

struct pd_record {
	uint64_t off;		/* file offset (pipe mode: stream offset after the header) */
	const struct perf_event_header *hdr;
	bool stable;		/* hdr stays valid until the reader is closed */
	int buf;		/* the reader's buffer hdr is in (pdata__hold), or -1 */
	/*
	 * A directory's (perf record --threads): the file it is in, "DIR/data"
	 * or "DIR/data.N" (off is in that file), as perf's -D names it; NULL
	 * for a single file.
	 */
	const char *path;
};

struct pdata;

/*
 * Open a file ("-" = stdin), or a directory in perf's directory format
 * (perf record --threads: DIR/data, then the records of every DIR/data.N,
 * in the order perf reads them).  NULL with errno set, the reason logged.
 */
struct pdata *pdata__open(const char *path);
/* Read a file image in memory (not copied: buf must outlive the reader). */
struct pdata *pdata__open_mem(const void *buf, size_t len);
/*
 * A stream in memory that grew (mperf top's): buf's first len bytes, the
 * same stream as before and longer, at the same address.  The records
 * after the last one read are read next.
 */
void pdata__mem_grow(struct pdata *p, size_t len);
void pdata__close(struct pdata *p);

bool pdata__is_pipe(const struct pdata *p);
/* A file whose header says data size 0: its recorder did not finish (was killed). */
bool pdata__unfinished(const struct pdata *p);
/*
 * Next record: 1 and *rec filled, 0 at the end, negative on error (logged,
 * naming the problem and its offset).  In pipe mode ATTR, FEATURE and
 * EVENT_UPDATE records update the event list before they are returned.
 * Unless rec->stable, the record is valid until the next call (or while
 * its buffer is held, pdata__hold).  A file
 * whose data size is 0 (its recorder was killed) is read to its last
 * whole record, and where it stopped is logged as a warning.
 */
int pdata__next(struct pdata *p, struct pd_record *rec);
/*
 * A record whose buf is not -1 stays valid while its buffer is held: hold
 * it for each record kept past the next call, release it once done with
 * that record.
 */
void pdata__hold(struct pdata *p, int buf);
void pdata__release(struct pdata *p, int buf);
/*
 * Read a file's records again from the first, as if just opened: the
 * per-id values kept in pdata__id are 0 again.  -ESPIPE for a stream,
 * whose records are gone once read.
 */
int pdata__rewind(struct pdata *p);

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
/*
 * The id's slot: its event (idx) and one u64 its user may keep there
 * (report keeps a READ value's last value), or NULL for an unknown id.
 */
struct idmap_slot *pdata__id(struct pdata *p, uint64_t id);
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
 * The TRACING_DATA image (pd_tracing_data_decode): the feature of a file,
 * or in pipe mode the payload of the stream's first TRACING_DATA record,
 * once a record after it has been read.  NULL when there is none.
 */
const unsigned char *pdata__tracing_data(const struct pdata *p, size_t *len);
/*
 * The build id the BUILD_ID feature records for a DSO name (as the MMAP
 * records name it): its length (up to 20), 0 when the file has none.
 */
size_t pdata__build_id(const struct pdata *p, const char *name, unsigned char id[20]);
/*
 * The BUILD_ID feature's entries in file order: start with *pos 0; false
 * after the last (or at one that does not decode).  An entry whose name
 * does not end inside it is skipped.
 */
bool pdata__build_id_next(const struct pdata *p, size_t *pos, struct pd_build_id *e);
/* Where the data and the feature table are (file mode; zeros in pipe mode). */
void pdata__layout(const struct pdata *p, uint64_t *data_off, uint64_t *data_size, uint64_t *feat_off);
/* Whether the feature bitmap has bit feat (file mode). */
bool pdata__has_feat(const struct pdata *p, int feat);
/* A feature whose section does not parse: warned about when opening, then skipped. */
bool pdata__feat_bad(const struct pdata *p, int feat);
/*
 * The event groups GROUP_DESC describes (the feature of a file, a
 * stream's FEATURE record once read), in its order: each leader's index
 * and its number of members, which follow it.  A description that does
 * not match the events is left out whole (one warning), as perf drops it.
 */
size_t pdata__nr_groups(const struct pdata *p);
const struct pd_group_desc *pdata__group(const struct pdata *p, size_t i);
/* The ARCH feature ("x86_64", "aarch64"...), NULL when the file has none. */
const char *pdata__arch(const struct pdata *p);
/* A directory's (perf record --threads): the mtime of its header file DIR/data; 0 otherwise. */
time_t pdata__dir_mtime(const struct pdata *p);
/* The header's version as perf numbers it: 0 for "PERFFILE", 1 for "PERFILE2". */
int pdata__version(const struct pdata *p);

/* ---- writer (file mode) ---- */

struct pdata_writer;

/*
 * Create path (O_TRUNC), or "-": a pipe-mode stream on standard output.
 * NULL with errno set, the reason logged.  The writer logs its first
 * failure ("cannot write 'path': ...", but not EPIPE: the reader went
 * away) and refuses every later write with the same code.
 */
struct pdata_writer *pdw__create(const char *path);
/*
 * A directory's data.N file (perf record --threads): records alone, as
 * the ring buffers hold them, with no header (pdw__write, pdw__finish).
 */
struct pdata_writer *pdw__create_raw(const char *path);
/* A pipe-mode stream on fd (dup'd), as "-" writes on standard output (mperf top's memory file). */
struct pdata_writer *pdw__create_stream(int fd);
/* What the writer holds written out to its fd: 0 or a negative code. */
int pdw__flush(struct pdata_writer *w);
/*
 * Pipe mode: the features must be given before pdw__begin_data, which
 * streams them (later ones are dropped), and nothing can be patched.
 */
bool pdw__is_pipe(const struct pdata_writer *w);
/* Describe one event; ids are the PERF_EVENT_IOC_ID values of its fds. Before pdw__begin_data. */
int pdw__add_event(struct pdata_writer *w, const struct perf_event_attr *attr, const char *name,
		   const uint64_t *ids, size_t nr_ids);
/* Write the header placeholder, ids and attrs; records follow. */
int pdw__begin_data(struct pdata_writer *w);
/* Append record bytes (as the ring buffer holds them) to the data section. */
int pdw__write(struct pdata_writer *w, const void *buf, size_t len);
uint64_t pdw__data_size(const struct pdata_writer *w);
/* The disk filled up under the data (ENOSPC, not said: the caller salvages and says it). */
bool pdw__disk_full(const struct pdata_writer *w);
/*
 * After pdw__disk_full: cut the data at the end of the last whole record
 * that leaves room for the features and reserve more bytes (the records
 * still to come: LOST_SAMPLES), so that pdw__finish can end a readable
 * file.  *samples: the SAMPLE records kept (COMPRESSED ones not looked
 * into).  0, or an error logged.
 */
int pdw__salvage(struct pdata_writer *w, uint64_t reserve, uint64_t *samples);
/*
 * A directory's data.N files (pdw__create_raw's) on a full disk: each
 * written out, those the disk refused cut at their last whole record, the
 * largest of them last, leaving reserve bytes free (for the header
 * file's end).  *samples: the SAMPLE records they all keep.  0, or an error.
 */
int pdw__salvage_parts(struct pdata_writer **w, int n, uint64_t reserve, uint64_t *samples);
/* What pdw__finish has yet to write: the bytes held, the feature table and sections known so far. */
uint64_t pdw__pending(const struct pdata_writer *w);
/*
 * record -z: level (zstd's, 1 to 22) for pdw__write_compressed, and the
 * COMPRESSED feature (mmap_len: each ring buffer's mapping, control page
 * included, as perf says it).  Before pdw__begin_data.
 */
int pdw__compress(struct pdata_writer *w, int level, uint32_t mmap_len);
/*
 * Append record bytes as COMPRESSED records: one zstd stream over every
 * call, flushed at the end of each (what one call gives is readable once
 * its last record is).  Without pdw__compress, pdw__write.
 */
int pdw__write_compressed(struct pdata_writer *w, const void *buf, size_t len);
/* The bytes pdw__write_compressed was given, and the bytes of the records it wrote for them. */
void pdw__compressed_bytes(const struct pdata_writer *w, uint64_t *in, uint64_t *out);
/*
 * Bytes compressed into other files (a directory's data.N) that w's
 * COMPRESSED feature counts in its ratio, and pdw__compressed_bytes in its sums.
 */
void pdw__compressed_count(struct pdata_writer *w, uint64_t in, uint64_t out);

/*
 * Records mperf makes itself, each with the sample_id trailer its event
 * needs.  Synthesized side-band records take the first event's trailer,
 * all zeros, as perf writes them.
 */
int pdw__comm(struct pdata_writer *w, uint32_t pid, uint32_t tid, const char *comm);
/* An MMAP record; *pos gets its data position, for pdw__patch_mmap_len(). */
int pdw__mmap(struct pdata_writer *w, uint16_t misc, uint32_t pid, uint32_t tid, uint64_t start,
	      uint64_t len, uint64_t pgoff, const char *filename, uint64_t *pos);
/* An MMAP2 record: pid, tid and the fields after them from m (its header is ignored). */
int pdw__mmap2(struct pdata_writer *w, uint16_t misc, const struct pd_mmap2_event *m, const char *filename);
/* A FORK record (time 0), as perf synthesizes one for a task that was running before record. */
int pdw__fork(struct pdata_writer *w, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid);
/* Overwrite the len of the MMAP record at pos (a length known late). */
int pdw__patch_mmap_len(struct pdata_writer *w, uint64_t pos, uint64_t len);
/* LOST_SAMPLES for the event added as number ev, whose fd has this id. */
int pdw__lost_samples(struct pdata_writer *w, size_t ev, uint64_t id, uint64_t lost);
int pdw__finished_round(struct pdata_writer *w);
/* FINISHED_INIT: the synthesized records are written (perf 6.1 writes it after them). */
int pdw__finished_init(struct pdata_writer *w);

/* Feature payloads, kept until pdw__finish writes them in bit order. */
int pdw__feat_string(struct pdata_writer *w, int feat, const char *s);
int pdw__feat_strings(struct pdata_writer *w, int feat, const char *const *s, size_t n);
int pdw__feat_u64(struct pdata_writer *w, int feat, uint64_t v);
int pdw__feat_nrcpus(struct pdata_writer *w, uint32_t avail, uint32_t online);
int pdw__feat_sample_time(struct pdata_writer *w, uint64_t first, uint64_t last);
/* GROUP_DESC: the event groups (members follow their leader, by index). */
int pdw__feat_group_desc(struct pdata_writer *w, const struct pd_group_desc *g, size_t n);
/* A u32 (BPF_PROG_INFO and BPF_BTF with no entries are a count of 0). */
int pdw__feat_u32(struct pdata_writer *w, int feat, uint32_t v);

/* CPU_TOPOLOGY (format.h): the sibling lists, and the ids of each CPU of NRCPUS's "available". */
struct pdw_cpu_topology {
	uint32_t nr_packages, nr_cores, nr_dies;	/* nr_dies 0: no die part */
	const char *const *packages, *const *cores, *const *dies;
	uint32_t nr_cpus;
	const struct pd_cpu_ids *cpus;
};
int pdw__feat_cpu_topology(struct pdata_writer *w, const struct pdw_cpu_topology *t);
int pdw__feat_numa_topology(struct pdata_writer *w, const struct pd_numa_node *n, uint32_t nr);
int pdw__feat_cache(struct pdata_writer *w, const struct pd_cache_level *l, uint32_t nr);
/* MEM_TOPOLOGY: each node's bits are nr_bits bits in (nr_bits + 63) / 64 u64 words (nr_words unused). */
int pdw__feat_mem_topology(struct pdata_writer *w, uint64_t block_size, const struct pd_mem_node *n, uint64_t nr);
int pdw__feat_pmu_mappings(struct pdata_writer *w, const struct pd_pmu_mapping *m, uint32_t nr);
/* One PMU's capabilities: nr_caps name and value pairs. */
struct pdw_pmu_caps {
	const char *pmu;
	uint32_t nr_caps;
	const char *const *names, *const *values;
};
/* PMU_CAPS: the PMUs other than "cpu" that have capabilities; CPU_PMU_CAPS: those of "cpu". */
int pdw__feat_pmu_caps(struct pdata_writer *w, const struct pdw_pmu_caps *pc, uint32_t nr);
int pdw__feat_cpu_pmu_caps(struct pdata_writer *w, const struct pdw_pmu_caps *pc);
/* HYBRID_TOPOLOGY: the core PMUs of a hybrid CPU and their CPUs. */
int pdw__feat_hybrid_topology(struct pdata_writer *w, const struct pd_hybrid_node *n, uint32_t nr);
/* CLOCK_DATA (with CLOCKID, a u64: the clock's resolution in ns), for a clock other than perf's. */
int pdw__feat_clock_data(struct pdata_writer *w, const struct pd_feat_clock_data *cd);
/* BUILD_ID entry; misc is the cpumode (PERF_RECORD_MISC_KERNEL/USER). */
int pdw__feat_build_id(struct pdata_writer *w, uint16_t misc, int32_t pid,
		       const unsigned char *id, size_t id_len, const char *name);

/*
 * TRACING_DATA: the tracepoints' formats (pd_tracing_data, format.h).  In
 * pipe mode it follows the features as a TRACING_DATA record and its
 * payload, as perf sends it.
 */
int pdw__feat_tracing_data(struct pdata_writer *w, const struct pd_tracing_data *td);

/* Write EVENT_DESC and the features, patch the header, close the file. */
int pdw__finish(struct pdata_writer *w);
/* Close; when the file was not finished it is removed (never left looking complete). */
void pdw__close(struct pdata_writer *w);

#endif
