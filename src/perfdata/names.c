// SPDX-License-Identifier: GPL-2.0-only
/* Record-type names and generic event names, as perf spells them. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "../lib/err.h"
#include "perfdata.h"

static const char *const record_names[PD_RECORD_MAX] = {
	[0] = "TOTAL",
	[PERF_RECORD_MMAP] = "MMAP",
	[PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[21] = "AUX_OUTPUT_HW_ID",
	[PD_HEADER_ATTR] = "ATTR",
	[PD_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[PD_HEADER_TRACING_DATA] = "TRACING_DATA",
	[PD_HEADER_BUILD_ID] = "BUILD_ID",
	[PD_FINISHED_ROUND] = "FINISHED_ROUND",
	[PD_ID_INDEX] = "ID_INDEX",
	[PD_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[PD_AUXTRACE] = "AUXTRACE",
	[PD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[PD_THREAD_MAP] = "THREAD_MAP",
	[PD_CPU_MAP] = "CPU_MAP",
	[PD_STAT_CONFIG] = "STAT_CONFIG",
	[PD_STAT] = "STAT",
	[PD_STAT_ROUND] = "STAT_ROUND",
	[PD_EVENT_UPDATE] = "EVENT_UPDATE",
	[PD_TIME_CONV] = "TIME_CONV",
	[PD_HEADER_FEATURE] = "FEATURE",
	[PD_COMPRESSED] = "COMPRESSED",
	[PD_FINISHED_INIT] = "FINISHED_INIT",
	[PD_COMPRESSED2] = "COMPRESSED2",
};

const char *pd_record_name(uint32_t type)
{
	return type < PD_RECORD_MAX ? record_names[type] : NULL;
}

static const char *const feature_names[PD_FEAT_LAST_6_1] = {
	[PD_FEAT_TRACING_DATA] = "TRACING_DATA", [PD_FEAT_BUILD_ID] = "BUILD_ID",
	[PD_FEAT_HOSTNAME] = "HOSTNAME", [PD_FEAT_OSRELEASE] = "OSRELEASE",
	[PD_FEAT_VERSION] = "VERSION", [PD_FEAT_ARCH] = "ARCH", [PD_FEAT_NRCPUS] = "NRCPUS",
	[PD_FEAT_CPUDESC] = "CPUDESC", [PD_FEAT_CPUID] = "CPUID", [PD_FEAT_TOTAL_MEM] = "TOTAL_MEM",
	[PD_FEAT_CMDLINE] = "CMDLINE", [PD_FEAT_EVENT_DESC] = "EVENT_DESC",
	[PD_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY", [PD_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[PD_FEAT_BRANCH_STACK] = "BRANCH_STACK", [PD_FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[PD_FEAT_GROUP_DESC] = "GROUP_DESC", [PD_FEAT_AUXTRACE] = "AUXTRACE", [PD_FEAT_STAT] = "STAT",
	[PD_FEAT_CACHE] = "CACHE", [PD_FEAT_SAMPLE_TIME] = "SAMPLE_TIME", [22] = "MEM_TOPOLOGY",
	[23] = "CLOCKID", [24] = "DIR_FORMAT", [25] = "BPF_PROG_INFO", [26] = "BPF_BTF",
	[27] = "COMPRESSED", [28] = "CPU_PMU_CAPS", [29] = "CLOCK_DATA", [30] = "HYBRID_TOPOLOGY",
	[31] = "PMU_CAPS",
};

const char *pd_feature_name(int feat)
{
	return feat > 0 && feat < PD_FEAT_LAST_6_1 ? feature_names[feat] : NULL;
}

struct event_name {
	const char *name;
	uint32_t type;
	uint64_t config;
	bool unnamed;		/* perf 6.1 takes the name but prints "unknown-software" for the attr */
};

/* The first name for a (type, config) is the one perf prints. */
static const struct event_name events[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "bpf-output", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT, true },
	{ "cgroup-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES, true },
};

/*
 * Cache events: CACHE[-WORD[-WORD]], the cache in config bits 0-7, the
 * operation in 8-15, the result in 16-23.  The spellings are the ones
 * perf 6.1 accepts (case matters); the first of each cache is the one perf
 * prints.  Each WORD is an operation or a result: the first operation and
 * the first result count, a later word of a kind already seen is ignored
 * (perf takes "L1-dcache-load-store" as L1-dcache-loads).  Without an
 * operation it is a read, without a result an access.
 */
static const struct {
	const char *names[4];
	unsigned int ops;	/* the operations the cache has: bit per PERF_COUNT_HW_CACHE_OP_* */
} caches[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = { { "L1-dcache", "l1-d", "l1d", "L1-data" }, 7 },
	[PERF_COUNT_HW_CACHE_L1I] = { { "L1-icache", "l1-i", "l1i", "L1-instruction" }, 5 },
	[PERF_COUNT_HW_CACHE_LL] = { { "LLC", "L2" }, 7 },
	[PERF_COUNT_HW_CACHE_DTLB] = { { "dTLB", "d-tlb", "Data-TLB" }, 7 },
	[PERF_COUNT_HW_CACHE_ITLB] = { { "iTLB", "i-tlb", "Instruction-TLB" }, 1 },
	/* perf also lists "branches" here, but its parser reads that as the hardware event. */
	[PERF_COUNT_HW_CACHE_BPU] = { { "branch", "bpu", "btb", "bpc" }, 1 },
	[PERF_COUNT_HW_CACHE_NODE] = { { "node" }, 7 },
};

static const struct cache_word {
	const char *word;
	bool is_op;
	unsigned int value;
} cache_words[] = {
	{ "load", true, PERF_COUNT_HW_CACHE_OP_READ },
	{ "loads", true, PERF_COUNT_HW_CACHE_OP_READ },
	{ "read", true, PERF_COUNT_HW_CACHE_OP_READ },
	{ "store", true, PERF_COUNT_HW_CACHE_OP_WRITE },
	{ "stores", true, PERF_COUNT_HW_CACHE_OP_WRITE },
	{ "write", true, PERF_COUNT_HW_CACHE_OP_WRITE },
	{ "prefetch", true, PERF_COUNT_HW_CACHE_OP_PREFETCH },
	{ "prefetches", true, PERF_COUNT_HW_CACHE_OP_PREFETCH },
	{ "speculative-read", true, PERF_COUNT_HW_CACHE_OP_PREFETCH },
	{ "speculative-load", true, PERF_COUNT_HW_CACHE_OP_PREFETCH },
	{ "refs", false, PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "Reference", false, PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "ops", false, PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "access", false, PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "misses", false, PERF_COUNT_HW_CACHE_RESULT_MISS },
	{ "miss", false, PERF_COUNT_HW_CACHE_RESULT_MISS },
};

/* The length of word if s starts with it as a whole word (followed by '-' or the end), else 0. */
static size_t starts_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	return !strncmp(s, word, n) && (s[n] == '-' || !s[n]) ? n : 0;
}

static const struct cache_word *cache_word_at(const char *s, size_t *len)
{
	for (size_t i = 0; i < sizeof(cache_words) / sizeof(cache_words[0]); i++)
		if ((*len = starts_word(s, cache_words[i].word)))
			return &cache_words[i];
	return NULL;
}

static int cache_lookup(const char *name, uint64_t *config)
{
	for (unsigned int c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++) {
		for (size_t k = 0; k < 4 && caches[c].names[k]; k++) {
			size_t n = starts_word(name, caches[c].names[k]);
			int op = -1, result = -1;
			const char *p = name + n;

			if (!n)
				continue;
			for (int w = 0; w < 2 && *p == '-'; w++) {
				const struct cache_word *cw = cache_word_at(p + 1, &n);

				if (!cw)
					return -MPERF_ERR_NOEVENT;
				if (cw->is_op && op < 0) {
					if (!(caches[c].ops & (1u << cw->value)))
						return -EOPNOTSUPP;
					op = (int)cw->value;
				} else if (!cw->is_op && result < 0) {
					result = (int)cw->value;
				}
				p += 1 + n;
			}
			if (*p)
				return -MPERF_ERR_NOEVENT;
			*config = c | (uint64_t)(op < 0 ? PERF_COUNT_HW_CACHE_OP_READ : op) << 8 |
				  (uint64_t)(result < 0 ? PERF_COUNT_HW_CACHE_RESULT_ACCESS : result) << 16;
			return 0;
		}
	}
	return -MPERF_ERR_NOEVENT;
}

int pd_event_lookup(const char *name, uint32_t *type, uint64_t *config)
{
	int err;

	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		if (!strcmp(events[i].name, name)) {
			*type = events[i].type;
			*config = events[i].config;
			return 0;
		}
	}
	err = cache_lookup(name, config);
	if (!err)
		*type = PERF_TYPE_HW_CACHE;
	return err;
}

/*
 * perf's name of a cache event: "L1-dcache-load-misses", "L1-dcache-loads"
 * (bits above 23 ignored), or what perf says of a config it cannot name.
 */
static void cache_name(uint64_t config, char *buf, size_t len)
{
	static const char *const op[][2] = {
		{ "load", "loads" }, { "store", "stores" }, { "prefetch", "prefetches" },
	};
	unsigned int c = config & 0xff, o = (config >> 8) & 0xff, r = (config >> 16) & 0xff;

	if (c >= PERF_COUNT_HW_CACHE_MAX)
		snprintf(buf, len, "unknown-ext-hardware-cache-type");
	else if (o >= PERF_COUNT_HW_CACHE_OP_MAX)
		snprintf(buf, len, "unknown-ext-hardware-cache-op");
	else if (r >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		snprintf(buf, len, "unknown-ext-hardware-cache-result");
	else if (!(caches[c].ops & (1u << o)))
		snprintf(buf, len, "invalid-cache");
	else if (r == PERF_COUNT_HW_CACHE_RESULT_MISS)
		snprintf(buf, len, "%s-%s-misses", caches[c].names[0], op[o][0]);
	else
		snprintf(buf, len, "%s-%s", caches[c].names[0], op[o][1]);
}

/*
 * perf's modifier suffix: k/u/h for the contexts that are counted when any
 * is excluded, p's for precise_ip, then H/G unless exclude_guest has its
 * default (set when a k/u/h or p modifier was given, clear otherwise).
 */
static void add_modifiers(const struct perf_event_attr *a, char *buf, size_t len)
{
	char mod[16];
	size_t n = 0;
	bool guest_default = false;

	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_kernel)
			mod[n++] = 'k';
		if (!a->exclude_user)
			mod[n++] = 'u';
		if (!a->exclude_hv)
			mod[n++] = 'h';
		guest_default = true;
	}
	for (unsigned int i = 0; i < a->precise_ip && i < 3; i++)
		mod[n++] = 'p';
	if (a->precise_ip)
		guest_default = true;
	if (a->exclude_host || (bool)a->exclude_guest == guest_default) {
		if (!a->exclude_host)
			mod[n++] = 'H';
		if (!a->exclude_guest)
			mod[n++] = 'G';
	}
	if (n) {
		size_t used = strlen(buf);

		snprintf(buf + used, len > used ? len - used : 0, ":%.*s", (int)n, mod);
	}
}

void pd_event_name(const struct perf_event_attr *a, char *buf, size_t len)
{
	const char *base = NULL;

	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		if (events[i].type == a->type && events[i].config == a->config && !events[i].unnamed) {
			base = events[i].name;
			break;
		}
	}
	if (base)
		snprintf(buf, len, "%s", base);
	else if (a->type == PERF_TYPE_HW_CACHE)
		cache_name(a->config, buf, len);
	else if (a->type == PERF_TYPE_TRACEPOINT)
		snprintf(buf, len, "unknown:unknown");
	else if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_SOFTWARE)
		snprintf(buf, len, "unknown-%s", a->type == PERF_TYPE_HARDWARE ? "hardware" : "software");
	else
		snprintf(buf, len, "raw 0x%llx", (unsigned long long)a->config);
	if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_SOFTWARE ||
	    a->type == PERF_TYPE_HW_CACHE || a->type == PERF_TYPE_RAW)
		add_modifiers(a, buf, len);
}

/* ---- registers ---- */

const char *pd_arch_normalize(const char *m)
{
	if (!strcmp(m, "x86_64") || (m[0] == 'i' && m[1] && m[2] == '8' && m[3] == '6'))
		return "x86";
	if (!strncmp(m, "aarch64", 7) || !strncmp(m, "arm64", 5))
		return "arm64";
	if (!strncmp(m, "arm", 3) || !strcmp(m, "sa110"))
		return "arm";
	if (!strcmp(m, "sun4u") || !strncmp(m, "sparc", 5))
		return "sparc";
	if (!strncmp(m, "s390", 4))
		return "s390";
	if (!strncmp(m, "parisc", 6))
		return "parisc";
	if (!strncmp(m, "powerpc", 7) || !strncmp(m, "ppc", 3))
		return "powerpc";
	if (!strncmp(m, "mips", 4))
		return "mips";
	if (!strncmp(m, "sh", 2) && m[2] >= '0' && m[2] <= '9')
		return "sh";
	if (!strncmp(m, "loongarch", 9))
		return "loongarch";
	return m;
}

/* The kernel's PERF_REG_<ARCH>_* numbers (arch/<arch>/include/uapi/asm/perf_regs.h). */
static const char *const x86_regs[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};
static const char *const arm_regs[] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "fp", "ip", "sp", "lr", "pc",
};

const char *pd_reg_name(const char *arch, unsigned int id)
{
	static const char *const xmm[] = {
		"XMM0", "XMM1", "XMM2", "XMM3", "XMM4", "XMM5", "XMM6", "XMM7",
		"XMM8", "XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
	};
	static const char *const arm64_x[] = {
		"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14",
		"x15", "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27",
		"x28", "x29", "lr", "sp", "pc",
	};

	if (!strcmp(arch, "x86")) {
		if (id < sizeof(x86_regs) / sizeof(x86_regs[0]))
			return x86_regs[id];
		/* XMM registers take two ids each, from 32. */
		if (id >= 32 && id < 64 && !(id & 1))
			return xmm[(id - 32) / 2];
	} else if (!strcmp(arch, "arm64")) {
		if (id < sizeof(arm64_x) / sizeof(arm64_x[0]))
			return arm64_x[id];
		if (id == 46)
			return "vg";	/* the SVE vector granule */
	} else if (!strcmp(arch, "arm")) {
		if (id < sizeof(arm_regs) / sizeof(arm_regs[0]))
			return arm_regs[id];
	}
	return "unknown";
}

int pd_event_foreach(int (*fn)(void *arg, const char *name, uint32_t type, uint64_t config), void *arg)
{
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		int r = fn(arg, events[i].name, events[i].type, events[i].config);

		if (r)
			return r;
	}
	return 0;
}

int pd_cache_event_foreach(int (*fn)(void *arg, const char *name, uint64_t config), void *arg)
{
	for (unsigned int c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++)
		for (unsigned int o = 0; o < PERF_COUNT_HW_CACHE_OP_MAX; o++) {
			if (!(caches[c].ops & (1u << o)))
				continue;
			for (unsigned int r = 0; r < 2; r++) {
				uint64_t config = c | (uint64_t)o << 8 |
						  (uint64_t)(r ? PERF_COUNT_HW_CACHE_RESULT_MISS :
								 PERF_COUNT_HW_CACHE_RESULT_ACCESS) << 16;
				char name[64];
				int ret;

				cache_name(config, name, sizeof(name));
				ret = fn(arg, name, config);
				if (ret)
					return ret;
			}
		}
	return 0;
}

/*
 * perf's clock names: the five a perf event can use, then the short
 * aliases perf takes for them (-k mono); the first name of an id is the
 * one perf prints.
 */
static const struct { const char *name; int id; } clocks[] = {
	{ "monotonic", CLOCK_MONOTONIC }, { "monotonic_raw", CLOCK_MONOTONIC_RAW },
	{ "realtime", CLOCK_REALTIME }, { "boottime", CLOCK_BOOTTIME }, { "tai", CLOCK_TAI },
	{ "mono", CLOCK_MONOTONIC }, { "raw", CLOCK_MONOTONIC_RAW },
	{ "real", CLOCK_REALTIME }, { "boot", CLOCK_BOOTTIME },
};

const char *pd_clock_name(uint32_t id)
{
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if ((uint32_t)clocks[i].id == id)
			return clocks[i].name;
	return NULL;
}

int pd_clock_parse(const char *s, int *id)
{
	if (!strncasecmp(s, "CLOCK_", 6))
		s += 6;
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcasecmp(s, clocks[i].name)) {
			*id = clocks[i].id;
			return 0;
		}
	return -1;
}
