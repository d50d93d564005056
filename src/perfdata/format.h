/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_PERFDATA_FORMAT_H
#define MPERF_PERFDATA_FORMAT_H

/*
 * Every byte layout of perf.data and of the kernel's ring buffer, as perf
 * 6.1 reads and writes them, with its one decoder.  Nothing outside
 * src/perfdata reads a record, a sample or a section by byte offset: it
 * views the record as one of the structs below (pd_view), walks a sample
 * with pd_parse_sample, finds the id and the time through the per-event
 * pd_sample_layout, and reads values through pd_read_parse.
 *
 * The structs are the file's little-endian layout on a little-endian host
 * (mperf refuses files of the other endianness), checked by the static
 * asserts in format.c.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* ---- the file header (file mode) and the pipe header ---- */

/* "PERFILE2" read as a little-endian u64. */
#define PD_MAGIC		0x32454c4946524550ULL
#define PD_MAGIC_SWAPPED	0x50455246494c4532ULL
/* "PERFFILE": perf's first header version, the same layout (perf 6.1 still reads it). */
#define PD_MAGIC_V1		0x454c494646524550ULL
#define PD_MAGIC_V1_SWAPPED	0x5045524646494c45ULL
/* perf 6.1 rejects attr.size > 128; newer kernels' headers say 136. */
#define PD_ATTR_SIZE		128

struct pd_section {
	uint64_t offset, size;
};

struct pd_file_header {
	uint64_t magic;
	uint64_t size;			/* of this header: 104 (72 before the feature bitmap) */
	uint64_t attr_size;		/* of one attrs entry: an attr, then its ids section */
	struct pd_section attrs;
	struct pd_section data;
	struct pd_section event_types;	/* unused since perf 3.x */
	uint64_t features[4];		/* bitmap of PD_FEAT_* */
};
#define PD_HEADER_SIZE		sizeof(struct pd_file_header)
#define PD_HEADER_SIZE_V0	offsetof(struct pd_file_header, features)

struct pd_pipe_header {
	uint64_t magic;
	uint64_t size;			/* 16: says "pipe mode" */
};
#define PD_PIPE_HEADER_SIZE	sizeof(struct pd_pipe_header)

/* An attrs entry is attr.size bytes of attr, then this. */
struct pd_attr_ids {
	struct pd_section ids;		/* u64 ids of the event's fds */
};

/* The feature table at data.offset + data.size: one section per set bit, ascending. */

/* ---- record types ---- */

/* User record types (perf's, not the kernel's). */
enum {
	PD_HEADER_ATTR = 64, PD_HEADER_EVENT_TYPE, PD_HEADER_TRACING_DATA,
	PD_HEADER_BUILD_ID, PD_FINISHED_ROUND, PD_ID_INDEX, PD_AUXTRACE_INFO,
	PD_AUXTRACE, PD_AUXTRACE_ERROR, PD_THREAD_MAP, PD_CPU_MAP,
	PD_STAT_CONFIG, PD_STAT, PD_STAT_ROUND, PD_EVENT_UPDATE, PD_TIME_CONV,
	PD_HEADER_FEATURE, PD_COMPRESSED, PD_FINISHED_INIT,
	PD_COMPRESSED2,		/* perf 6.16 */
	PD_RECORD_MAX		/* 84: types from here on are unknown */
};
/* 1..21 are the kernel types perf 6.1 knows (PERF_RECORD_AUX_OUTPUT_HW_ID is the last). */
#define PD_KERNEL_RECORD_MAX	22

/* perf's header misc bit: a BUILD_ID entry carries its id's length (perf's MISC_BUILD_ID_SIZE). */
#define PD_MISC_BUILD_ID_SIZE	(1 << 15)

/* Name of a record type as perf's stats print it ("SAMPLE", "ATTR"...), NULL if unknown. */
const char *pd_record_name(uint32_t type);

/* ---- feature bits ---- */

enum {
	PD_FEAT_TRACING_DATA = 1, PD_FEAT_BUILD_ID, PD_FEAT_HOSTNAME,
	PD_FEAT_OSRELEASE, PD_FEAT_VERSION, PD_FEAT_ARCH, PD_FEAT_NRCPUS,
	PD_FEAT_CPUDESC, PD_FEAT_CPUID, PD_FEAT_TOTAL_MEM, PD_FEAT_CMDLINE,
	PD_FEAT_EVENT_DESC, PD_FEAT_CPU_TOPOLOGY, PD_FEAT_NUMA_TOPOLOGY,
	PD_FEAT_BRANCH_STACK, PD_FEAT_PMU_MAPPINGS, PD_FEAT_GROUP_DESC,
	PD_FEAT_AUXTRACE, PD_FEAT_STAT, PD_FEAT_CACHE, PD_FEAT_SAMPLE_TIME,
	PD_FEAT_MEM_TOPOLOGY, PD_FEAT_CLOCKID, PD_FEAT_DIR_FORMAT,
	PD_FEAT_BPF_PROG_INFO, PD_FEAT_BPF_BTF, PD_FEAT_COMPRESSED,
	PD_FEAT_CPU_PMU_CAPS, PD_FEAT_CLOCK_DATA, PD_FEAT_HYBRID_TOPOLOGY,
	PD_FEAT_PMU_CAPS,
	PD_FEAT_LAST_6_1	/* 32: HEADER_LAST_FEATURE of perf 6.1 */
};
#define PD_FEAT_BITS		256

/*
 * perf's name for a machine ("x86_64", "i686" -> "x86"; "aarch64" ->
 * "arm64"; "armv7l" -> "arm"...), and the name of register id of that
 * arch as perf 6.1's -D prints it ("unknown" when it has none).
 */
const char *pd_arch_normalize(const char *machine);
const char *pd_reg_name(const char *arch, unsigned int id);

/*
 * The clocks perf's -k names: a clock's name as perf prints it
 * ("monotonic_raw"), NULL if it has none; and the id of a name or alias
 * perf takes ("mono", "CLOCK_REALTIME", any case): 0, or -1 if unknown.
 */
const char *pd_clock_name(uint32_t id);
int pd_clock_parse(const char *s, int *id);

/* perf's name of a feature bit ("HOSTNAME"), NULL if unknown. */
const char *pd_feature_name(int feat);

struct pd_cursor;

/* Feature payloads with a fixed layout. */
struct pd_feat_nrcpus {
	uint32_t available;	/* this order, whatever old docs say */
	uint32_t online;
};

struct pd_feat_sample_time {
	uint64_t first, last;
};

/* COMPRESSED: how the records of the file were compressed. */
enum { PD_COMP_NONE, PD_COMP_ZSTD };
struct pd_feat_compressed {
	uint32_t version, type, level, ratio, mmap_len;
};

/* CLOCK_DATA: the samples' clock and, at one instant, its time and the time of day. */
struct pd_feat_clock_data {
	uint32_t version;	/* 1 */
	uint32_t clockid;
	uint64_t tod_ns, clockid_ns;
};
/* A CLOCK_DATA section of len bytes: false when short or of another version (perf ignores it). */
bool pd_feat_clock_data_decode(const void *q, size_t len, struct pd_feat_clock_data *cd);

/*
 * BPF_BTF: u32 nr; per entry: u32 id, u32 size, size bytes of BTF.
 * BPF_PROG_INFO: u32 nr; per program: u32 info_len, u32 data_len, u64
 * arrays (a bit per array the data holds), info_len bytes of the kernel's
 * struct bpf_prog_info, data_len bytes of arrays; the info's array fields
 * are offsets into the data.  perf 6.1 refuses an info_len above its own
 * struct's 232 bytes, and the rest of the section with it.
 */
#define PD_BPF_PROG_INFO_MAX	232
struct pd_btf_entry {
	uint32_t id, size;
	const unsigned char *data;
};
struct pd_bpf_prog {
	uint32_t id, btf_id;
	char name[17];			/* the kernel's short name */
	bool consistent;		/* the three arrays agree and fit: perf prints the program */
	uint32_t nr_ksyms;		/* its functions */
	const unsigned char *tags;	/* nr_ksyms x 8 bytes */
	const unsigned char *ksyms;	/* nr_ksyms x u64 addresses */
	const unsigned char *lens;	/* nr_ksyms x u32 sizes */
	const unsigned char *func_info;	/* nr_func_info x rec_size: u32 insn_off, u32 BTF type id */
	uint32_t nr_func_info, func_info_rec_size;
};
/* The next entry after the u32 count: false when it does not fit (the cursor is then spent). */
bool pd_btf_next(struct pd_cursor *c, struct pd_btf_entry *e);
bool pd_bpf_prog_next(struct pd_cursor *c, struct pd_bpf_prog *bp);
/* Function k of a consistent program (k < nr_ksyms): its kernel address and its size. */
uint64_t pd_bpf_prog_addr(const struct pd_bpf_prog *bp, uint32_t k);
uint32_t pd_bpf_prog_len(const struct pd_bpf_prog *bp, uint32_t k);
/* The BTF type id of func_info entry k (k < nr_func_info). */
uint32_t pd_bpf_prog_func_type(const struct pd_bpf_prog *bp, uint32_t k);
/* The name of type type_id in a BTF blob, or NULL (not found, or not well-formed BTF). */
const char *pd_btf_type_name(const unsigned char *btf, size_t len, uint32_t type_id);

/* EVENT_DESC: this, then per event: attr (attr_size), u32 nr_ids, a header string, u64 ids[]. */
struct pd_feat_event_desc {
	uint32_t nr;
	uint32_t attr_size;
};
/*
 * The next event of an EVENT_DESC, the cursor past its header: the attr
 * zero-extended, its name and its ids (nr_ids u64s in place).  False when
 * it does not fit.
 */
bool pd_event_desc_next(struct pd_cursor *c, uint32_t attr_size, struct perf_event_attr *attr,
			const char **name, const unsigned char **ids, uint32_t *nr_ids);

/*
 * GROUP_DESC: u32 nr; per group: a header string (its name, "{anon_group}"
 * when it has none), u32 leader index, u32 number of members.
 */
struct pd_group_desc {
	const char *name;	/* NULL: "{anon_group}" */
	uint32_t leader, nr_members;
};

/* The next group of a GROUP_DESC, the cursor past its u32 count: false when it does not fit. */
bool pd_group_desc_next(struct pd_cursor *c, struct pd_group_desc *g);

/*
 * TRACING_DATA (the feature section, and the payload that follows a
 * TRACING_DATA record in pipe mode), perf 6.1's layout, version "0.6":
 *   "\027\010\104tracing" (10 bytes), "0.6\0", u8 big_endian, u8 sizeof(long),
 *   u32 page_size,
 *   "header_page\0" u64 size, text; "header_event\0" u64 size, text,
 *   u32 nr ftrace formats, nr x { u64 size, text },
 *   u32 nr systems, nr x { system name "\0", u32 nr, nr x { u64 size, format } },
 *   u32 size, kallsyms text (perf 6.1 writes 0), u32 size, printk_formats,
 *   u64 size, saved_cmdlines.
 * Counts and sizes are in the writer's byte order; texts are not
 * NUL-terminated.  Each event's format is its tracefs events/SYS/NAME/format.
 */
#define PD_TRACING_MAGIC	"\027\010\104tracing"
#define PD_TRACING_MAGIC_LEN	10
#define PD_TRACING_VERSION	"0.6"

struct pd_tracing_text {
	const char *p;		/* NULL with len 0: an empty file */
	size_t len;
};

struct pd_tracing_event {
	const char *sys;	/* "ftrace": in the ftrace list, not a system of its own */
	struct pd_tracing_text format;
};

struct pd_tracing_data {
	bool big_endian;
	uint8_t long_size;
	uint32_t page_size;
	struct pd_tracing_text header_page, header_event;
	/* The events, those of one system next to each other (the writer groups them so). */
	const struct pd_tracing_event *events;
	size_t nr_events;
	struct pd_tracing_text kallsyms, printk, cmdlines;
};

/*
 * Decode a TRACING_DATA image of len bytes: td's texts point into buf,
 * the events go to ev[0..max) (*nr of them in all, which may be more than
 * max).  0, -MPERF_ERR_CORRUPT for a short or malformed image, or
 * -MPERF_ERR_UNSUPP for another magic or version, or foreign byte order.
 */
int pd_tracing_data_decode(const void *buf, size_t len, struct pd_tracing_data *td,
			   struct pd_tracing_event *ev, size_t max, size_t *nr);

/*
 * A tracepoint's name and id from its format text ("name: X", "ID: N"
 * lines): false when it has either missing.
 */
bool pd_tracing_format_id(const struct pd_tracing_text *format, char *name, size_t len, uint64_t *id);

/* One BUILD_ID entry (also the HEADER_BUILD_ID record of pipe mode); size is header.size. */
struct pd_build_id_entry {
	struct perf_event_header header;	/* misc: cpumode | PD_MISC_BUILD_ID_SIZE */
	int32_t pid;
	uint8_t build_id[20];
	uint8_t build_id_size;			/* valid with PD_MISC_BUILD_ID_SIZE */
	uint8_t reserved[3];
	char filename[];			/* NUL-terminated, padded to 64 */
};

/* A BUILD_ID entry as perf 6.1 reads it. */
struct pd_build_id {
	uint16_t misc;		/* the cpumode (misc & PERF_RECORD_MISC_CPUMODE_MASK) and flags */
	int32_t pid;		/* the machine: -1 the host, else a guest's pid */
	size_t len;		/* build_id_size with PD_MISC_BUILD_ID_SIZE (at most 20), else 20 */
	uint8_t id[20];
	const char *name;	/* in the entry, NUL-terminated */
};
/*
 * Decode the entry (or HEADER_BUILD_ID record) at buf, len bytes being
 * left: its size (header.size, which the next one follows), or 0 when
 * it is shorter than its head or runs past len.  *e is set only when
 * its name ends inside it: otherwise e->name is NULL.
 */
size_t pd_build_id_decode(const void *buf, size_t len, struct pd_build_id *e);

/* Strings in header sections: u32 len (NUL included, padded to 64), then len bytes. */
#define PD_NAME_ALIGN		64

/*
 * A cursor over a feature section (or any header payload): each call
 * takes the next field, or fails (NULL / false) when it does not fit, and
 * then the cursor is spent.
 */
struct pd_cursor {
	const unsigned char *p, *end;
};
const char *pd_cursor_string(struct pd_cursor *c);	/* a header string holding its NUL */
bool pd_cursor_u32(struct pd_cursor *c, uint32_t *v);
bool pd_cursor_u64(struct pd_cursor *c, uint64_t *v);
bool pd_cursor_skip(struct pd_cursor *c, size_t n);

/*
 * The header features as perf 6.1 writes them, one decoder each (report's
 * --header prints what they give).  q, len: the section, or a FEATURE
 * record's payload.
 *
 * NRCPUS, TOTAL_MEM (u64 kB), SAMPLE_TIME, COMPRESSED: fixed structs; false
 * when the section is shorter (*out zeroed).
 */
bool pd_feat_nrcpus_decode(const void *q, size_t len, struct pd_feat_nrcpus *out);
bool pd_feat_total_mem_decode(const void *q, size_t len, uint64_t *kb);
/* DIR_FORMAT: the directory format's version (a u64; perf 6.1 writes and reads PD_DIR_VERSION). */
#define PD_DIR_VERSION	1
bool pd_feat_dir_format_decode(const void *q, size_t len, uint64_t *version);
bool pd_feat_sample_time_decode(const void *q, size_t len, struct pd_feat_sample_time *out);
bool pd_feat_compressed_decode(const void *q, size_t len, struct pd_feat_compressed *out);

/* CMDLINE: u32 nr, then nr header strings (the arguments). */
struct pd_cmdline {
	struct pd_cursor c;
	uint32_t nr;		/* the arguments the section says it has */
	uint32_t i;		/* those read so far */
};
/* False when the section has no count. */
bool pd_cmdline_init(struct pd_cmdline *cl, const void *q, size_t len);
/* The next argument, or NULL: the end (i == nr), or one that does not fit (i < nr). */
const char *pd_cmdline_next(struct pd_cmdline *cl);

/* PMU_MAPPINGS: u32 nr; per PMU: u32 type, a header string (its name). */
struct pd_pmu_mapping {
	uint32_t type;
	const char *name;	/* NULL: it does not fit */
};
/* The next PMU, the cursor past the u32 count: false when its type does not fit. */
bool pd_pmu_mapping_next(struct pd_cursor *c, struct pd_pmu_mapping *m);

/*
 * PMU_CAPS: u32 nr; per PMU: u32 nr_caps, nr_caps pairs of header strings
 * (name, value), then the PMU's name.  CPU_PMU_CAPS: u32 nr_caps and the
 * pairs of the PMU "cpu".
 */
struct pd_pmu_caps {
	uint32_t nr_caps;
	struct pd_cursor pairs;	/* read with pd_pmu_cap_next */
	const char *pmu;	/* NULL: it does not fit */
};
/* The next PMU of PMU_CAPS, the cursor past the u32 count: false when its count or a pair does not fit. */
bool pd_pmu_caps_next(struct pd_cursor *c, struct pd_pmu_caps *pc);
/* CPU_PMU_CAPS: false when it has no count. */
bool pd_cpu_pmu_caps_decode(const void *q, size_t len, struct pd_pmu_caps *pc);
/* The next capability of pc->pairs: false when its name or value does not fit. */
bool pd_pmu_cap_next(struct pd_cursor *pairs, const char **name, const char **value);

/*
 * CPU_TOPOLOGY: u32 nr, nr header strings (each package's CPU list, as
 * sysfs's package_cpus_list); u32 nr, nr strings (each core's CPU list,
 * core_cpus_list); per CPU of NRCPUS's "available": u32 core id, u32
 * socket id (-1 for a CPU that is not online); then, where perf knows dies
 * (x86_64, s390x), u32 nr, nr strings (die_cpus_list) and per CPU a u32
 * die id.  The CPUs' count is not in the section: it is NRCPUS's.
 */
struct pd_cpu_topology {
	uint32_t nr_packages, nr_cores, nr_dies;	/* nr_dies 0: no die part */
	struct pd_cursor packages, cores, dies;		/* the lists, read with pd_cursor_string */
	uint32_t nr_cpus;
	const unsigned char *ids;	/* nr_cpus x { u32 core, u32 socket }; NULL: none that perf 6.1 sees */
	const unsigned char *die_ids;	/* nr_cpus x u32; NULL without the die part */
};
/* False when a list or an id does not fit (the ids and the die part are optional, as perf reads them). */
bool pd_cpu_topology_decode(const void *q, size_t len, uint32_t nr_cpus, struct pd_cpu_topology *t);
/* The ids of CPU cpu (< nr_cpus): -1 where the section has none. */
struct pd_cpu_ids {
	int32_t core, socket, die;
};
struct pd_cpu_ids pd_cpu_topology_ids(const struct pd_cpu_topology *t, uint32_t cpu);

/* NUMA_TOPOLOGY: u32 nr; per node: u32 node, u64 MemTotal kB, u64 MemFree kB, a string (its cpulist). */
struct pd_numa_node {
	uint32_t node;
	uint64_t mem_total, mem_free;
	const char *cpus;
};
/* The next node, the cursor past the u32 count: false when it does not fit. */
bool pd_numa_node_next(struct pd_cursor *c, struct pd_numa_node *n);

/*
 * CACHE: u32 version (1), u32 nr; per cache: u32 level, line size, sets,
 * ways, then strings: type ("Data", "Instruction", "Unified"), size
 * ("32K"), the CPUs sharing it ("0-1").  perf lists each cache once, by level.
 */
#define PD_CACHE_VERSION	1
struct pd_cache_level {
	uint32_t level, line_size, sets, ways;
	const char *type, *size, *map;
};
/* The next cache, the cursor past version and count: false when it does not fit. */
bool pd_cache_level_next(struct pd_cursor *c, struct pd_cache_level *l);

/*
 * MEM_TOPOLOGY: u64 version (1), u64 block size (bytes), u64 nr; per
 * node: u64 node, u64 bits, then the bitmap of its memory blocks: u64
 * bits again and (bits + 63) / 64 u64 words (bit i: block memoryI of
 * /sys/devices/system/memory).
 */
#define PD_MEM_TOPOLOGY_VERSION	1
struct pd_mem_node {
	uint64_t node, nr_bits;
	uint64_t nr_words;	/* the bitmap's own size, in u64 words */
	const void *bits;	/* nr_words u64 words (maybe unaligned) */
};
/* The next node, the cursor past the three u64s: false when it does not fit. */
bool pd_mem_node_next(struct pd_cursor *c, struct pd_mem_node *n);
bool pd_mem_node_bit(const struct pd_mem_node *n, uint64_t i);

/* HYBRID_TOPOLOGY: u32 nr; per core PMU of a hybrid CPU ("cpu_core", "cpu_atom"): its name, its CPUs. */
struct pd_hybrid_node {
	const char *pmu, *cpus;
};
/* The next PMU, the cursor past the u32 count: false when it does not fit. */
bool pd_hybrid_node_next(struct pd_cursor *c, struct pd_hybrid_node *n);

/* ---- kernel records (the ring buffer's layouts; a sample_id trailer may follow) ---- */

struct pd_mmap_event {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	char filename[];
};

struct pd_mmap2_event {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	union {
		struct {
			uint32_t maj, min;
			uint64_t ino, ino_generation;
		};
		struct {	/* with PERF_RECORD_MISC_MMAP_BUILD_ID */
			uint8_t build_id_size;
			uint8_t reserved[3];
			uint8_t build_id[20];
		};
	};
	uint32_t prot, flags;
	char filename[];
};

struct pd_comm_event {
	struct perf_event_header header;
	uint32_t pid, tid;
	char comm[];
};

/* FORK and EXIT. */
struct pd_fork_event {
	struct perf_event_header header;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct pd_lost_event {
	struct perf_event_header header;
	uint64_t id, lost;
};

/* THROTTLE and UNTHROTTLE: the kernel stopped (resumed) sampling event id, too many interrupts. */
struct pd_throttle_event {
	struct perf_event_header header;
	uint64_t time, id, stream_id;
};

struct pd_lost_samples_event {
	struct perf_event_header header;
	uint64_t lost;
};

/*
 * READ: pid, tid, then a read_format block.  perf 6.1 reads it with this
 * fixed layout whatever read_format says (right for ENABLED|RUNNING|ID|LOST,
 * the layout perf writes), and prints each field whose bit is set.
 */
struct pd_read_event {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t value;
	uint64_t time_enabled, time_running, id, lost;
};

struct pd_switch_cpu_wide_event {
	struct perf_event_header header;
	uint32_t next_prev_pid, next_prev_tid;
};

struct pd_ns_link_info {
	uint64_t dev, ino;
};

struct pd_namespaces_event {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t nr_namespaces;
	struct pd_ns_link_info link_info[];
};

struct pd_cgroup_event {
	struct perf_event_header header;
	uint64_t id;
	char path[];
};

struct pd_ksymbol_event {
	struct perf_event_header header;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type;
	uint16_t flags;
	char name[];
};

struct pd_bpf_event {
	struct perf_event_header header;
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[8];
};

struct pd_text_poke_event {
	struct perf_event_header header;
	uint64_t addr;
	uint16_t old_len, new_len;
	uint8_t bytes[];	/* old bytes, then new bytes */
};

struct pd_aux_event {
	struct perf_event_header header;
	uint64_t aux_offset, aux_size, flags;
};

struct pd_itrace_start_event {
	struct perf_event_header header;
	uint32_t pid, tid;
};

struct pd_aux_output_hw_id_event {
	struct perf_event_header header;
	uint64_t hw_id;
};

/* ---- user records ---- */

struct pd_id_index_entry {
	uint64_t id, idx, cpu, tid;
};
/* perf 6.0+ appends nr of these after the entries, when the record has room. */
struct pd_id_index_entry2 {
	uint64_t machine_pid, vcpu;
};
struct pd_id_index_event {
	struct perf_event_header header;
	uint64_t nr;
	struct pd_id_index_entry entries[];
};

struct pd_thread_map_entry {
	uint64_t pid;
	char comm[16];
};
struct pd_thread_map_event {
	struct perf_event_header header;
	uint64_t nr;
	struct pd_thread_map_entry entries[];
};

/* CPU_MAP's payload (and EVENT_UPDATE's cpus), by type. */
enum { PD_CPUS_LIST = 0, PD_CPUS_MASK = 1, PD_CPUS_RANGE = 2 };

enum { PD_EVENT_UPDATE_UNIT, PD_EVENT_UPDATE_SCALE, PD_EVENT_UPDATE_NAME, PD_EVENT_UPDATE_CPUS };
struct pd_event_update_event {
	struct perf_event_header header;
	uint64_t type;		/* PD_EVENT_UPDATE_* */
	uint64_t id;
	union {
		char str[0];	/* unit, name */
		double scale;
		unsigned char cpus[0];
	};
};

struct pd_time_conv_event {
	struct perf_event_header header;
	uint64_t time_shift, time_mult, time_zero;
	uint64_t time_cycles, time_mask;	/* perf 5.10+: present when the record is larger */
	uint8_t cap_user_time_zero, cap_user_time_short;
	uint8_t reserved[6];
};

enum { PD_STAT_CONFIG_AGGR_MODE, PD_STAT_CONFIG_INTERVAL, PD_STAT_CONFIG_SCALE };
struct pd_stat_config_entry {
	uint64_t tag, val;
};
struct pd_stat_config_event {
	struct perf_event_header header;
	uint64_t nr;
	struct pd_stat_config_entry data[];
};

struct pd_stat_event {
	struct perf_event_header header;
	uint64_t id;
	uint32_t cpu, thread;
	uint64_t val, ena, run;
};

enum { PD_STAT_ROUND_INTERVAL, PD_STAT_ROUND_FINAL };
struct pd_stat_round_event {
	struct perf_event_header header;
	uint64_t type, time;
};

/*
 * AUXTRACE: size bytes of trace data (Intel PT, CoreSight...) follow the
 * record, outside header.size, in file and pipe mode alike.
 */
struct pd_auxtrace_event {
	struct perf_event_header header;
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu, reserved;
};

/* AUXTRACE_INFO: the PMU's type (PD_AUXTRACE_*), then its private u64s. */
enum { PD_AUXTRACE_INTEL_PT = 1 };
struct pd_auxtrace_info_event {
	struct perf_event_header header;
	uint32_t type, reserved;
	uint64_t priv[];
};

/*
 * COMPRESSED: the rest of the record is zstd data; COMPRESSED2 (perf
 * 6.16) says how many bytes of it there are, the record padded to 8.
 * Decompressed, they are records as the data section holds them, and one
 * may continue in the next compressed record.
 */
struct pd_compressed_event {
	struct perf_event_header header;
	unsigned char data[];
};
struct pd_compressed2_event {
	struct perf_event_header header;
	uint64_t data_size;
	unsigned char data[];
};

/* TRACING_DATA: the payload (size bytes) follows the record in the stream. */
struct pd_tracing_data_event {
	struct perf_event_header header;
	uint32_t size;
	uint32_t pad;
};

/* FEATURE (pipe mode): a feature section as a record. */
struct pd_feature_event {
	struct perf_event_header header;
	uint64_t feat_id;
	unsigned char data[];
};

/*
 * Copy the record h into the struct at dst (dst_size bytes): the bytes the
 * record has, zeros for the rest (perf prints whatever its struct holds;
 * mperf prints 0 for what a short record lacks).  Returns true when the
 * record holds the whole struct.
 */
bool pd_view(const struct perf_event_header *h, void *dst, size_t dst_size);
#define PD_VIEW(h, dst) pd_view((h), (dst), sizeof(*(dst)))
/* The same for a struct at byte off of the record (array entries). */
bool pd_view_at(const struct perf_event_header *h, size_t off, void *dst, size_t dst_size);
/*
 * The string that starts at byte off of the record and ends by its end:
 * in place when NUL-terminated within the record, else a copy in buf.
 */
const char *pd_rec_str(const struct perf_event_header *h, size_t off, char *buf, size_t len);

/*
 * MMAP and MMAP2 as one view, what a map is made of whichever record
 * brought it.  exec: MMAP2's PROT_EXEC, or an MMAP not marked
 * PERF_RECORD_MISC_MMAP_DATA; prot and flags: MMAP2's (0 for an MMAP);
 * build_id: an MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID whose id is not
 * all zeros (else build_id_size 0).  The file name is in the record, or a
 * copy in buf (len bytes) when the record does not end it.
 */
struct pd_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	bool exec;
	uint32_t prot, flags;
	uint64_t ino;			/* MMAP2's, 0 with a build id or for MMAP */
	uint8_t build_id_size;
	uint8_t build_id[20];
	const char *filename;
};
/* False for another record type, or a record shorter than its struct. */
bool pd_mmap_view(const struct perf_event_header *h, struct pd_mmap *m, char *buf, size_t len);

/* ---- the sample layout of an event ---- */

/*
 * Where an event's samples and sample_id trailers hold their fields,
 * computed once per event from its attr (perf's id_pos and is_pos).  In a
 * SAMPLE: the u64 word after the header; in the trailer of another kernel
 * record: the u64 word counted back from the end (1 = the last word).
 * -1 where the event does not record the field.
 */
struct pd_sample_layout {
	int ip_pos, tid_pos, time_pos, id_pos;	/* in a SAMPLE */
	int tid_is_pos, time_is_pos, id_is_pos;	/* in the trailer */
	size_t trailer_size;			/* bytes of the trailer, 0 without sample_id_all */
};

void pd_sample_layout(const struct perf_event_attr *attr, struct pd_sample_layout *l);

/* Inline below (every record of a file goes through them): */
/* The u64 at word pos of a SAMPLE's body, false when the record is too short. */
static inline bool pd_sample_word(const struct perf_event_header *h, int pos, uint64_t *v);
/* The u64 at word is_pos from the end of a kernel record's trailer. */
static inline bool pd_trailer_word(const struct perf_event_header *h, int is_pos, uint64_t *v);
/* The TIME of a SAMPLE or of another kernel record's trailer: false if it has none. */
static inline bool pd_record_time(const struct pd_sample_layout *l, const struct perf_event_header *h,
				  uint64_t *time);
/* The id of a SAMPLE or of another kernel record's trailer: false if it has none. */
static inline bool pd_record_id(const struct pd_sample_layout *l, const struct perf_event_header *h,
				uint64_t *id);

/* ---- read_format: one walker for samples, READ records and read(2) of an fd ---- */

struct pd_read_values {
	uint64_t read_format;
	uint64_t nr;			/* values: the group's nr, or 1 */
	uint64_t time_enabled;		/* 0 when not recorded */
	uint64_t time_running;
	const unsigned char *p;		/* the block */
};

struct pd_read_value {
	uint64_t value, id, lost;	/* id and lost are 0 when not recorded */
};

/*
 * Check a read_format block of at most len bytes at p: the bytes it uses,
 * or -1 when it does not fit.
 */
long pd_read_parse(uint64_t read_format, const void *p, size_t len, struct pd_read_values *r);
/* Value i (< r->nr) of a block pd_read_parse accepted. */
void pd_read_value(const struct pd_read_values *r, uint64_t i, struct pd_read_value *v);

/* ---- decoded sample ---- */

struct pd_sample {
	uint64_t ip, time, addr, id, stream_id, period;
	uint32_t pid, tid, cpu;
	uint64_t weight, data_src, transaction, phys_addr, cgroup;
	uint64_t data_page_size, code_page_size;
	uint32_t weight_struct_lo;
	uint16_t weight_struct_hi;
	const unsigned char *read;	/* read_format block (see pd_read_parse) */
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
	uint64_t stack_size, stack_dyn_size;	/* dyn_size as recorded: check it against stack_size */
	const unsigned char *stack;	/* stack_size bytes of user stack, from the sample's sp */
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

/* Entries of a decoded sample's arrays. */
struct pd_branch_entry {
	uint64_t from, to, flags;
};
uint64_t pd_sample_callchain(const struct pd_sample *s, uint64_t i);	/* i < callchain_nr */
void pd_sample_branch(const struct pd_sample *s, uint64_t i, struct pd_branch_entry *e);	/* i < branch_nr */
/*
 * A branch entry's flags word, the kernel's bit-fields (little-endian,
 * first field lowest): mispred, predicted, in_tx, abort, cycles:16,
 * type:4, spec:2, new_type:4, priv:3.
 */
struct pd_branch_flags {
	bool mispred, predicted, in_tx, abort;
	uint16_t cycles;		/* 0: unknown */
	uint8_t type, spec;
};
void pd_branch_flags(uint64_t flags, struct pd_branch_flags *f);
/* Register k (in mask order) of a regs block (user_regs, intr_regs). */
uint64_t pd_sample_reg(const unsigned char *regs, unsigned int k);

/*
 * A perf cpu map payload (CPU_MAP, EVENT_UPDATE's cpus) of n bytes: up to
 * max cpus into cpus (-1 = "any cpu"); their number, or -1 if malformed.
 */
int pd_cpu_map_decode(const unsigned char *p, size_t n, int *cpus, size_t max);

/* The attr's bit-field word (disabled, inherit, ... sigtrap), bit 0 = disabled. */
uint64_t pd_attr_flags(const struct perf_event_attr *attr);

/* ---- event names (shared by record's parser and report's fallback names) ---- */

/*
 * Look up a generic event name as perf 6.1 spells it: hardware and software
 * ("cycles", "cs", ...) and cache events ("L1-dcache-load-misses": type
 * PERF_TYPE_HW_CACHE).  0, -MPERF_ERR_NOEVENT, or -EOPNOTSUPP for a cache
 * operation that cache does not have ("iTLB-stores").
 */
int pd_event_lookup(const char *name, uint32_t *type, uint64_t *config);
/*
 * Every name of the generic table (hardware and software events, aliases
 * included: "cycles" and "cpu-cycles"), in the table's order, the name
 * perf prints for an attr first; stops at and returns fn's first non-zero.
 */
int pd_event_foreach(int (*fn)(void *arg, const char *name, uint32_t type, uint64_t config), void *arg);
/* Every cache event as perf names it ("L1-dcache-loads", "L1-dcache-load-misses"), the same way. */
int pd_cache_event_foreach(int (*fn)(void *arg, const char *name, uint64_t config), void *arg);
/* perf's name for an attr when the file carries none, e.g. "cycles:u". */
void pd_event_name(const struct perf_event_attr *attr, char *buf, size_t len);

/* Little-endian loads from possibly unaligned memory (for the decoders above). */
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

static inline bool pd_sample_word(const struct perf_event_header *h, int pos, uint64_t *v)
{
	size_t words = (h->size - sizeof(*h)) / 8;

	if (pos < 0 || h->size < sizeof(*h) || (size_t)pos >= words)
		return false;
	*v = pd_u64((const unsigned char *)(h + 1) + 8 * (size_t)pos);
	return true;
}

static inline bool pd_trailer_word(const struct perf_event_header *h, int is_pos, uint64_t *v)
{
	size_t words = (h->size - sizeof(*h)) / 8;

	if (is_pos <= 0 || h->size < sizeof(*h) || (size_t)is_pos > words)
		return false;
	*v = pd_u64((const unsigned char *)(h + 1) + 8 * (words - (size_t)is_pos));
	return true;
}

static inline bool pd_record_time(const struct pd_sample_layout *l, const struct perf_event_header *h,
				  uint64_t *time)
{
	if (h->type == PERF_RECORD_SAMPLE)
		return pd_sample_word(h, l->time_pos, time);
	return pd_trailer_word(h, l->time_is_pos, time);
}

static inline bool pd_record_id(const struct pd_sample_layout *l, const struct perf_event_header *h,
				uint64_t *id)
{
	if (h->type == PERF_RECORD_SAMPLE)
		return pd_sample_word(h, l->id_pos, id);
	return pd_trailer_word(h, l->id_is_pos, id);
}

#endif
