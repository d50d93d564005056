// SPDX-License-Identifier: GPL-2.0-only
/* --header / --header-only: the file's header and feature sections, in perf 6.1's lines. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../host/host.h"
#include "../lib/log.h"
#include "../perfdata/perfdata.h"
#include "out.h"
#include "report.h"

static void flags(struct out *out, const char *label, uint64_t v, const char *const *names, int n)
{
	bool first = true;

	out_printf(out, ", %s = ", label);
	for (int b = 0; b < n; b++) {
		if (!(v >> b & 1) || !names[b])
			continue;
		out_printf(out, "%s%s", first ? "" : "|", names[b]);
		first = false;
	}
}

static const char *const sample_bits[] = {
	"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD", "STREAM_ID", "RAW",
	"BRANCH_STACK", "REGS_USER", "STACK_USER", "WEIGHT", "DATA_SRC", "IDENTIFIER", "TRANSACTION",
	"REGS_INTR", "PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE", "CODE_PAGE_SIZE", "WEIGHT_STRUCT",
};
static const char *const read_bits[] = { "TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST" };
/* PERF_SAMPLE_BRANCH_*, bit by bit, as perf 6.1 names them. */
static const char *const branch_bits[] = {
	"USER", "KERNEL", "HV", "ANY", "ANY_CALL", "ANY_RETURN", "IND_CALL", "ABORT_TX", "IN_TX",
	"NO_TX", "COND", "CALL_STACK", "IND_JUMP", "CALL", "NO_FLAGS", "NO_CYCLES", "TYPE_SAVE",
	"HW_INDEX", "PRIV_SAVE",
};

/* perf's "# event : name = ..." line: only the attr fields that are not zero. */
static void event_line(struct out *out, const struct pd_evsel *e)
{
	const struct perf_event_attr *a = &e->attr;
	uint64_t fl;

	out_printf(out, "# event : name = %s, ", e->name);
	if (e->nr_ids) {
		out_str(out, ", id = {");
		for (size_t i = 0; i < e->nr_ids; i++)
			out_printf(out, "%s %" PRIu64, i ? "," : "", e->ids[i]);
		out_str(out, " }");
	}
#define U(label, v) do { if (v) out_printf(out, ", %s = %" PRIu64, label, (uint64_t)(v)); } while (0)
#define X(label, v) do { if (v) out_printf(out, ", %s = %#" PRIx64, label, (uint64_t)(v)); } while (0)
	U("type", a->type);
	U("size", a->size);
	X("config", a->config);
	U("{ sample_period, sample_freq }", a->sample_period);
	if (a->sample_type) {
		/* perf prints the names in its own table's order (not quite bit order). */
		static const int order[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 18, 15, 14, 19, 20, 21, 22, 23, 24 };
		bool first = true;

		out_str(out, ", sample_type = ");
		for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
			int b = order[k];

			if (!(a->sample_type >> b & 1))
				continue;
			out_printf(out, "%s%s", first ? "" : "|", sample_bits[b]);
			first = false;
		}
	}
	if (a->read_format)
		flags(out, "read_format", a->read_format, read_bits, 5);
	fl = pd_attr_flags(a);
	static const char *const flag_names[] = {
		"disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel", "exclude_hv",
		"exclude_idle", "mmap", "comm", "freq", "inherit_stat", "enable_on_exec", "task", "watermark",
		NULL /* precise_ip: two bits */, NULL, "mmap_data", "sample_id_all", "exclude_host",
		"exclude_guest", "exclude_callchain_kernel", "exclude_callchain_user", "mmap2", "comm_exec",
		"use_clockid", "context_switch", "write_backward", "namespaces", "ksymbol", "bpf_event",
		"aux_output", "cgroup", "text_poke", "build_id", "inherit_thread", "remove_on_exec", "sigtrap",
	};
	for (int b = 0; b < (int)(sizeof(flag_names) / sizeof(flag_names[0])); b++) {
		if (b == 15) {
			U("precise_ip", a->precise_ip);
			continue;
		}
		if (flag_names[b] && (fl >> b & 1))
			out_printf(out, ", %s = 1", flag_names[b]);
	}
	U("{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	U("bp_type", a->bp_type);
	X("{ bp_addr, config1 }", a->config1);
	X("{ bp_len, config2 }", a->config2);
	if (a->branch_sample_type)
		flags(out, "branch_sample_type", a->branch_sample_type, branch_bits,
		      (int)(sizeof(branch_bits) / sizeof(branch_bits[0])));
	X("sample_regs_user", a->sample_regs_user);
	U("sample_stack_user", a->sample_stack_user);
	if (a->clockid)
		out_printf(out, ", clockid = %d", a->clockid);
	X("sample_regs_intr", a->sample_regs_intr);
	U("aux_watermark", a->aux_watermark);
	U("sample_max_stack", a->sample_max_stack);
	U("aux_sample_size", a->aux_sample_size);
	U("sig_data", a->sig_data);
#undef U
#undef X
	out_char(out, '\n');
}

/* The BTF blob of id in the BPF_BTF section (the first of that id), or NULL. */
static const unsigned char *find_btf(const unsigned char *q, size_t len, uint32_t id, size_t *blen)
{
	struct pd_cursor c = { q, q ? q + len : q };
	struct pd_btf_entry e;
	uint32_t nr;

	if (!q || !id || !pd_cursor_u32(&c, &nr))
		return NULL;
	for (uint32_t i = 0; i < nr && pd_btf_next(&c, &e); i++)
		if (e.id == id) {
			*blen = e.size;
			return e.data;
		}
	return NULL;
}

struct prog_at {
	struct pd_bpf_prog bp;
	size_t at;		/* its place in the section: the first of an id is kept */
};

static int prog_cmp(const void *a, const void *b)
{
	const struct prog_at *x = a, *y = b;

	if (x->bp.id != y->bp.id)
		return x->bp.id < y->bp.id ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

static void prog_name(char *buf, size_t len, const struct pd_bpf_prog *bp, uint32_t i,
		      const unsigned char *btf, size_t blen)
{
	const char *short_name = NULL;
	size_t o = (size_t)snprintf(buf, len, "bpf_prog_");

	for (int k = 0; k < 8 && o + 2 < len; k++)
		o += (size_t)snprintf(buf + o, len - o, "%02x", bp->tags[8 * i + k]);
	if (btf) {
		if (i < bp->nr_func_info)
			short_name = pd_btf_type_name(btf, blen, pd_bpf_prog_func_type(bp, i));
	} else if (i == 0 && bp->nr_ksyms == 1) {
		if (bp->name[0])
			short_name = bp->name;
	} else {
		short_name = "F";
	}
	if (short_name && o < len)
		snprintf(buf + o, len - o, "_%s", short_name);
}

/*
 * BPF_PROG_INFO: the programs by id, as perf keeps them, each named as
 * perf names its kernel symbols (tag and function name, from the
 * program's BTF when the file has it).
 */
static void bpf_prog_info(struct out *out, struct pdata *p, const unsigned char *q, size_t len)
{
	struct pd_cursor c = { q, q ? q + len : q };
	const unsigned char *btfs = NULL;
	struct prog_at *v;
	size_t n = 0, btfs_len = 0;
	uint32_t nr;

	if (!q || !pd_cursor_u32(&c, &nr))
		return;
	/* Each program takes at least 16 bytes: the count is bounded by the section. */
	if (!(v = calloc(nr < len / 16 ? nr : len / 16 + 1, sizeof(*v))))
		return;
	while (n < nr && n <= len / 16 && pd_bpf_prog_next(&c, &v[n].bp)) {
		v[n].at = n;
		n++;
	}
	qsort(v, n, sizeof(*v), prog_cmp);
	/* In pipe mode BPF_BTF comes after this feature: perf has no BTF yet. */
	if (!pdata__is_pipe(p))
		btfs = pdata__feature(p, PD_FEAT_BPF_BTF, &btfs_len);
	for (size_t i = 0; i < n; i++) {
		const struct pd_bpf_prog *bp = &v[i].bp;
		const unsigned char *btf;
		size_t blen = 0;
		char name[512];

		if ((i && bp->id == v[i - 1].bp.id) || !bp->consistent)
			continue;
		btf = bp->btf_id ? find_btf(btfs, btfs_len, bp->btf_id, &blen) : NULL;
		if (bp->nr_ksyms == 1) {
			prog_name(name, sizeof(name), bp, 0, btf, blen);
			out_printf(out, "# bpf_prog_info %u: %s addr 0x%" PRIx64 " size %u\n", bp->id, name,
				   pd_bpf_prog_addr(bp, 0), pd_bpf_prog_len(bp, 0));
			continue;
		}
		out_printf(out, "# bpf_prog_info %u:\n", bp->id);
		for (uint32_t k = 0; k < bp->nr_ksyms; k++) {
			prog_name(name, sizeof(name), bp, k, btf, blen);
			out_printf(out, "# \tsub_prog %u: %s addr 0x%" PRIx64 " size %u\n", k, name,
				   pd_bpf_prog_addr(bp, k), pd_bpf_prog_len(bp, k));
		}
	}
	free(v);
}

/* A PMU's capabilities, "name=value" pairs. */
static void pmu_caps(struct out *out, const struct pd_pmu_caps *pc)
{
	struct pd_cursor pairs = pc->pairs;
	const char *pmu = pc->pmu ? pc->pmu : "";

	if (!pc->nr_caps) {
		out_printf(out, "# %s pmu capabilities: not available\n", pmu);
		return;
	}
	out_printf(out, "# %s pmu capabilities: ", pmu);
	for (uint32_t i = 0; i < pc->nr_caps; i++) {
		const char *name, *value;

		if (!pd_pmu_cap_next(&pairs, &name, &value))
			break;	/* a stream's record is checked by nobody else: its count is not the word */
		out_printf(out, "%s%s=%s", i ? ", " : "", name, value);
	}
	out_char(out, '\n');
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* BPF_BTF: perf keeps the entries by id (one per id) and prints only that. */
static void btf_ids(struct out *out, struct pd_cursor *c)
{
	struct pd_btf_entry e;
	uint32_t nr, *ids;
	size_t n = 0, max = (size_t)(c->end - c->p) / 8;

	if (!pd_cursor_u32(c, &nr) || !(ids = calloc(max + 1, sizeof(*ids))))
		return;
	while (n < nr && n < max && pd_btf_next(c, &e))
		ids[n++] = e.id;
	qsort(ids, n, sizeof(*ids), u32_cmp);
	for (size_t i = 0; i < n; i++)
		if (!i || ids[i] != ids[i - 1])
			out_printf(out, "# btf info of id %u\n", ids[i]);
	free(ids);
}

static const char *clock_name(uint32_t id)
{
	const char *name = pd_clock_name(id);

	return name ? name : "(not found)";
}

/* What print_feature keeps from one feature for the next. */
struct hdr_ctx {
	bool full;		/* -I: the topologies whole */
	uint32_t nr_cpus;	/* NRCPUS's available CPUs, which CPU_TOPOLOGY's ids follow */
};

/* A CPU list as perf reprints it (its cpu map: sorted, runs as a-b, "-1" when empty). */
static void cpu_list(struct out *out, const char *s)
{
	int cpus[4096], n = host_parse_cpu_list(s, cpus, 4096), start = 0;

	if (n < 0) {
		out_str(out, s);
		return;
	}
	if (!n) {
		out_str(out, "-1");
		return;
	}
	for (int i = 1; i <= n; i++) {
		if (i < n && cpus[i] == cpus[i - 1] + 1)
			continue;
		out_printf(out, start ? ",%d" : "%d", cpus[start]);
		if (i - 1 > start)
			out_printf(out, "-%d", cpus[i - 1]);
		start = i;
	}
}

static void cpu_topology(struct out *out, const unsigned char *q, size_t len, uint32_t nr_cpus)
{
	struct pd_cpu_topology t;
	const char *s;

	if (!pd_cpu_topology_decode(q, len, nr_cpus, &t))
		return;
	while ((s = pd_cursor_string(&t.packages)))
		out_printf(out, "# sibling sockets : %s\n", s);
	while ((s = pd_cursor_string(&t.dies)))
		out_printf(out, "# sibling dies    : %s\n", s);
	while ((s = pd_cursor_string(&t.cores)))
		out_printf(out, "# sibling threads : %s\n", s);
	if (!t.ids)
		out_str(out, "# Core ID and Socket ID information is not available\n");
	for (uint32_t i = 0; t.ids && i < nr_cpus; i++) {
		struct pd_cpu_ids ids = pd_cpu_topology_ids(&t, i);

		if (t.nr_dies)
			out_printf(out, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i, ids.core, ids.die, ids.socket);
		else
			out_printf(out, "# CPU %u: Core ID %d, Socket ID %d\n", i, ids.core, ids.socket);
	}
}

/* A size as perf's unit_number__scnprintf gives it: divided by 1024 while that leaves more than 1. */
static void unit_number(struct out *out, uint64_t n)
{
	static const char unit[] = "BKMGTPEZY";
	size_t i = 0;

	while (n / 1024 > 1 && i < sizeof(unit) - 2) {
		n /= 1024;
		i++;
	}
	out_printf(out, "%" PRIu64 "%c", n, unit[i]);
}

static void mem_topology(struct out *out, const unsigned char *q, size_t len)
{
	struct pd_cursor c = { q, q + len };
	uint64_t version, bsize, nr;
	struct pd_mem_node n;

	if (!pd_cursor_u64(&c, &version) || !pd_cursor_u64(&c, &bsize) || !pd_cursor_u64(&c, &nr))
		return;
	out_printf(out, "# memory nodes (nr %d, block size 0x%llx):\n", (int)nr, (unsigned long long)bsize);
	for (uint64_t i = 0; i < nr && pd_mem_node_next(&c, &n); i++) {
		uint64_t weight = 0;
		bool first = true;
		/* no bit is set past the bitmap's words, whatever size the node claims */
		uint64_t nbits = n.nr_bits < n.nr_words * 64 ? n.nr_bits : n.nr_words * 64;

		for (uint64_t b = 0; b < nbits; b++)
			weight += pd_mem_node_bit(&n, b);
		out_printf(out, "#  %3" PRIu64 " [", n.node);
		unit_number(out, bsize * weight);
		out_str(out, "]: ");
		for (uint64_t b = 0; b < nbits; b++) {
			uint64_t e = b;

			if (!pd_mem_node_bit(&n, b))
				continue;
			while (e + 1 < nbits && pd_mem_node_bit(&n, e + 1))
				e++;
			out_printf(out, "%s%" PRIu64, first ? "" : ",", b);
			if (e > b)
				out_printf(out, "-%" PRIu64, e);
			first = false;
			b = e;
		}
		out_char(out, '\n');
	}
}

/* CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE, MEM_TOPOLOGY, HYBRID_TOPOLOGY with -I, as perf 6.1 prints them. */
static void full_info(struct out *out, int feat, const unsigned char *q, size_t len, const struct hdr_ctx *ctx)
{
	struct pd_cursor c = { q, q + len };
	uint32_t nr, version;

	switch (feat) {
	case PD_FEAT_CPU_TOPOLOGY:
		cpu_topology(out, q, len, ctx->nr_cpus);
		break;
	case PD_FEAT_NUMA_TOPOLOGY: {
		struct pd_numa_node n;

		if (pd_cursor_u32(&c, &nr))
			for (uint32_t i = 0; i < nr && pd_numa_node_next(&c, &n); i++) {
				out_printf(out, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n",
					   n.node, n.mem_total, n.mem_free);
				out_printf(out, "# node%u cpu list : ", n.node);
				cpu_list(out, n.cpus);
				out_char(out, '\n');
			}
		break;
	}
	case PD_FEAT_CACHE: {
		struct pd_cache_level l;

		if (!pd_cursor_u32(&c, &version) || !pd_cursor_u32(&c, &nr))
			break;
		out_str(out, "# CPU cache info:\n");
		for (uint32_t i = 0; i < nr && pd_cache_level_next(&c, &l); i++)
			out_printf(out, "#  L%d %-15s %8s [%s]\n", (int)l.level, l.type, l.size, l.map);
		break;
	}
	case PD_FEAT_MEM_TOPOLOGY:
		mem_topology(out, q, len);
		break;
	case PD_FEAT_HYBRID_TOPOLOGY: {
		struct pd_hybrid_node n;

		out_str(out, "# hybrid cpu system:\n");
		if (pd_cursor_u32(&c, &nr))
			for (uint32_t i = 0; i < nr && pd_hybrid_node_next(&c, &n); i++)
				out_printf(out, "# %s cpu list : %s\n", n.pmu, n.cpus);
		break;
	}
	default:
		break;
	}
}

/* One feature's section, for its printer. */
struct feat_in {
	struct out *out;
	struct pdata *p;
	int feat;
	const unsigned char *q;	/* never NULL: "" for a feature without a section */
	size_t len;
	bool bad;		/* the section did not parse (perf prints what it had: NULL strings, zeros) */
	struct hdr_ctx *ctx;
};

static struct pd_cursor feat_cursor(const struct feat_in *f)
{
	return (struct pd_cursor){ f->q, f->q + f->len };
}

static void feat_string(const struct feat_in *f)
{
	static const char *const labels[PD_FEAT_LAST_6_1] = {
		[PD_FEAT_HOSTNAME] = "hostname", [PD_FEAT_OSRELEASE] = "os release",
		[PD_FEAT_VERSION] = "perf version", [PD_FEAT_ARCH] = "arch",
		[PD_FEAT_CPUDESC] = "cpudesc", [PD_FEAT_CPUID] = "cpuid",
	};
	struct pd_cursor c = feat_cursor(f);
	const char *str = f->bad ? NULL : pd_cursor_string(&c);

	out_printf(f->out, "# %s : %s\n", labels[f->feat], str ? str : "(null)");
}

static void feat_nrcpus(const struct feat_in *f)
{
	struct pd_feat_nrcpus nrcpus;

	if (pd_feat_nrcpus_decode(f->q, f->len, &nrcpus) || f->bad)
		out_printf(f->out, "# nrcpus online : %u\n# nrcpus avail : %u\n", nrcpus.online, nrcpus.available);
	f->ctx->nr_cpus = nrcpus.available;
}

static void feat_total_mem(const struct feat_in *f)
{
	uint64_t v = 0;

	if (pd_feat_total_mem_decode(f->q, f->len, &v) || f->bad)
		out_printf(f->out, "# total memory : %" PRIu64 " kB\n", v);
}

static void feat_dir_format(const struct feat_in *f)
{
	uint64_t v = 0;

	if (pd_feat_dir_format_decode(f->q, f->len, &v) || f->bad)
		out_printf(f->out, "# directory data version : %" PRIu64 "\n", v);
}

static void feat_cmdline(const struct feat_in *f)
{
	struct pd_cmdline cl;
	const char *arg;

	if (!pd_cmdline_init(&cl, f->q, f->len) && !f->bad)
		return;
	out_str(f->out, "# cmdline : ");
	/* It may end before its count (a stream's record, which nothing else checks). */
	while (!f->bad && (arg = pd_cmdline_next(&cl))) {
		for (const char *ch = arg; *ch; ch++) {
			if (*ch == '\'')
				out_char(f->out, '\\');
			out_char(f->out, *ch);
		}
		out_char(f->out, ' ');
	}
	out_char(f->out, '\n');
}

static void feat_event_desc(const struct feat_in *f)
{
	struct pd_cursor c = feat_cursor(f);
	struct pd_feat_event_desc d;
	uint64_t ids[4096];

	if (!pdata__is_pipe(f->p)) {
		for (size_t i = 0; i < pdata__nr_evsel(f->p); i++)
			event_line(f->out, pdata__evsel(f->p, i));
		return;
	}
	/* A stream may send its features before its attrs: the section says it all. */
	if (f->len < sizeof(d))
		return;
	memcpy(&d, f->q, sizeof(d));
	pd_cursor_skip(&c, sizeof(d));
	for (uint32_t i = 0; i < d.nr; i++) {
		struct pd_evsel e = { .ids = ids };
		const unsigned char *idp;
		const char *name;
		uint32_t n;

		if (!pd_event_desc_next(&c, d.attr_size, &e.attr, &name, &idp, &n))
			break;
		e.name = (char *)name;
		e.nr_ids = n < 4096 ? n : 4096;
		memcpy(ids, idp, 8 * e.nr_ids);
		event_line(f->out, &e);
	}
}

static void feat_topology(const struct feat_in *f)
{
	if (f->ctx->full)
		full_info(f->out, f->feat, f->q, f->len, f->ctx);
	else
		out_printf(f->out, "# %s info available, use -I to display\n", pd_feature_name(f->feat));
}

static void feat_pmu_mappings(const struct feat_in *f)
{
	struct pd_cursor c = feat_cursor(f);
	struct pd_pmu_mapping m;
	uint32_t nr;

	if (!pd_cursor_u32(&c, &nr) || !nr) {
		out_str(f->out, "# pmu mappings: not available\n");
		return;
	}
	out_str(f->out, "# pmu mappings: ");
	for (uint32_t i = 0; i < nr && pd_pmu_mapping_next(&c, &m); i++)
		out_printf(f->out, "%s%s = %u", i ? ", " : "", m.name ? m.name : "", m.type);
	out_char(f->out, '\n');
}

static void feat_sample_time(const struct feat_in *f)
{
	struct pd_feat_sample_time stime;

	if (pd_feat_sample_time_decode(f->q, f->len, &stime) || f->bad) {
		uint64_t a = stime.first, b = stime.last;

		out_printf(f->out, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n", a / 1000000000, a % 1000000000 / 1000);
		out_printf(f->out, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n", b / 1000000000, b % 1000000000 / 1000);
		out_printf(f->out, "# sample duration : %10.3f ms\n", (double)(b - a) / 1e6);
	}
}

/* u32 nr; per group: name, u32 leader index, u32 members ("{anon_group}" is unnamed). */
static void feat_group_desc(const struct feat_in *f)
{
	struct pd_cursor c = feat_cursor(f);
	size_t nr_evsel = pdata__nr_evsel(f->p);
	uint32_t nr;

	if (!pd_cursor_u32(&c, &nr))
		return;
	for (uint32_t g = 0; g < nr; g++) {
		struct pd_group_desc gd;

		if (!pd_group_desc_next(&c, &gd))
			break;
		/* Only events the file has: the counts are the file's word. */
		if (gd.leader > nr_evsel || gd.nr_members > nr_evsel - gd.leader)
			break;
		out_printf(f->out, "# group: %s{", gd.name ? gd.name : "");
		for (uint32_t m = 0; m < gd.nr_members; m++) {
			const struct pd_evsel *e = pdata__evsel(f->p, gd.leader + m);

			out_printf(f->out, "%s%s", m ? "," : "", e ? e->name : "?");
		}
		out_str(f->out, "}\n");
	}
}

/* The features whose presence is their whole news. */
static void feat_flag(const struct feat_in *f)
{
	static const char *const lines[PD_FEAT_LAST_6_1] = {
		[PD_FEAT_BRANCH_STACK] = "# contains samples with branch stack\n",
		[PD_FEAT_AUXTRACE] = "# contains AUX area data (e.g. instruction trace)\n",
		[PD_FEAT_STAT] = "# contains stat data\n",
	};

	out_str(f->out, lines[f->feat]);
}

/* The clock's resolution in ns; perf multiplies where it means to divide. */
static void feat_clockid(const struct feat_in *f)
{
	struct pd_cursor c = feat_cursor(f);
	uint64_t v = 0;

	if (pd_cursor_u64(&c, &v) || f->bad)
		out_printf(f->out, "# clockid frequency: %" PRIu64 " MHz\n", v * 1000);
}

static void feat_clock_data(const struct feat_in *f)
{
	struct pd_feat_clock_data cd;
	char date[64] = "<error>";
	struct tm tm;

	if (!pd_feat_clock_data_decode(f->q, f->len, &cd)) {
		out_str(f->out, "# reference time disabled\n");
		return;
	}
	time_t sec = (time_t)(cd.tod_ns / 1000000000);
	int usec = (int)(cd.tod_ns % 1000000000 / 1000);

	if (localtime_r(&sec, &tm))
		strftime(date, sizeof(date), "%F %T", &tm);
	out_printf(f->out, "# clockid: %s (%u)\n", clock_name(cd.clockid), cd.clockid);
	out_printf(f->out, "# reference time: %s.%06d = %ld.%06d (TOD) = %ld.%09ld (%s)\n", date, usec,
		   (long)sec, usec, (long)(cd.clockid_ns / 1000000000), (long)(cd.clockid_ns % 1000000000),
		   clock_name(cd.clockid));
}

static void feat_compressed(const struct feat_in *f)
{
	struct pd_feat_compressed fc;

	if (pd_feat_compressed_decode(f->q, f->len, &fc) || f->bad)
		out_printf(f->out, "# compressed : %s, level = %d, ratio = %d\n",
			   fc.type == PD_COMP_ZSTD ? "Zstd" : "Unknown", (int)fc.level, (int)fc.ratio);
}

static void feat_cpu_pmu_caps(const struct feat_in *f)
{
	struct pd_pmu_caps pc;

	if (pd_cpu_pmu_caps_decode(f->q, f->len, &pc))
		pmu_caps(f->out, &pc);
}

static void feat_pmu_caps(const struct feat_in *f)
{
	struct pd_cursor c = feat_cursor(f);
	struct pd_pmu_caps pc;
	uint32_t nr;

	if (pd_cursor_u32(&c, &nr))
		for (uint32_t i = 0; i < nr && pd_pmu_caps_next(&c, &pc); i++)
			pmu_caps(f->out, &pc);
}

static void feat_bpf_prog_info(const struct feat_in *f)
{
	bpf_prog_info(f->out, f->p, f->q, f->len);
}

static void feat_bpf_btf(const struct feat_in *f)
{
	struct pd_cursor c = feat_cursor(f);

	btf_ids(f->out, &c);
}

/* Each feature's printer; BUILD_ID and TRACING_DATA print nothing here. */
static void (*const feat_printers[PD_FEAT_LAST_6_1])(const struct feat_in *) = {
	[PD_FEAT_HOSTNAME] = feat_string, [PD_FEAT_OSRELEASE] = feat_string,
	[PD_FEAT_VERSION] = feat_string, [PD_FEAT_ARCH] = feat_string,
	[PD_FEAT_CPUDESC] = feat_string, [PD_FEAT_CPUID] = feat_string,
	[PD_FEAT_NRCPUS] = feat_nrcpus,
	[PD_FEAT_TOTAL_MEM] = feat_total_mem,
	[PD_FEAT_CMDLINE] = feat_cmdline,
	[PD_FEAT_EVENT_DESC] = feat_event_desc,
	[PD_FEAT_CPU_TOPOLOGY] = feat_topology, [PD_FEAT_NUMA_TOPOLOGY] = feat_topology,
	[PD_FEAT_CACHE] = feat_topology, [PD_FEAT_MEM_TOPOLOGY] = feat_topology,
	[PD_FEAT_HYBRID_TOPOLOGY] = feat_topology,
	[PD_FEAT_PMU_MAPPINGS] = feat_pmu_mappings,
	[PD_FEAT_SAMPLE_TIME] = feat_sample_time,
	[PD_FEAT_GROUP_DESC] = feat_group_desc,
	[PD_FEAT_BRANCH_STACK] = feat_flag, [PD_FEAT_AUXTRACE] = feat_flag, [PD_FEAT_STAT] = feat_flag,
	[PD_FEAT_CLOCKID] = feat_clockid,
	[PD_FEAT_DIR_FORMAT] = feat_dir_format,
	[PD_FEAT_CLOCK_DATA] = feat_clock_data,
	[PD_FEAT_COMPRESSED] = feat_compressed,
	[PD_FEAT_CPU_PMU_CAPS] = feat_cpu_pmu_caps,
	[PD_FEAT_PMU_CAPS] = feat_pmu_caps,
	[PD_FEAT_BPF_PROG_INFO] = feat_bpf_prog_info,
	[PD_FEAT_BPF_BTF] = feat_bpf_btf,
};

/*
 * One feature section (file mode) or FEATURE record payload (pipe mode),
 * as perf 6.1's --header-only prints it.  bad: the section did not parse
 * (perf prints what it had before it: NULL strings, zeros).
 */
static void print_feature(struct out *out, struct pdata *p, int feat, const unsigned char *q, size_t len, bool bad,
			  struct hdr_ctx *ctx)
{
	const struct feat_in f = {
		.out = out, .p = p, .feat = feat, .q = q ? q : (const unsigned char *)"", .len = q ? len : 0,
		.bad = bad, .ctx = ctx,
	};

	if (feat >= 0 && feat < PD_FEAT_LAST_6_1 && feat_printers[feat])
		feat_printers[feat](&f);
}

static void header_block(struct out *out, struct pdata *p, time_t mtime)
{
	uint64_t doff, dsize, foff;
	char when[64];

	pdata__layout(p, &doff, &dsize, &foff);
	ctime_r(&mtime, when);
	out_printf(out, "# ========\n# captured on    : %s", when);
	out_printf(out, "# header version : %d\n# data offset    : %" PRIu64 "\n# data size      : %" PRIu64
		   "\n# feat offset    : %" PRIu64 "\n", pdata__version(p), doff, dsize, foff);
}

/*
 * Pipe mode: the features come as FEATURE records after the header
 * block, each printed as it comes, until perf's end-of-features mark
 * (feature number HEADER_LAST_FEATURE) or the end of the stream.
 */
static int pipe_features(struct out *out, struct pdata *p, struct hdr_ctx *ctx)
{
	struct pd_record r;
	int ret;

	out_str(out, "# ========\n#\n");
	while ((ret = pdata__next(p, &r)) > 0) {
		struct pd_feature_event fe;

		if (r.hdr->type != PD_HEADER_FEATURE || !PD_VIEW(r.hdr, &fe))
			continue;
		if (fe.feat_id >= PD_FEAT_LAST_6_1)
			break;
		if (!fe.feat_id)
			continue;
		print_feature(out, p, (int)fe.feat_id, (const unsigned char *)r.hdr + sizeof(fe),
			      r.hdr->size - sizeof(fe), false, ctx);
	}
	return ret < 0 ? ret : 0;
}

int report__header(struct pdata *p, const char *label, time_t mtime, bool full, FILE *f)
{
	struct hdr_ctx ctx = { .full = full };
	struct out out;
	int ret = 0;

	if (out_init(&out, f))
		return mperf_error(-ENOMEM, "out of memory");
	if (pdata__dir_mtime(p))	/* perf's "captured on" of a directory is its header file's */
		mtime = pdata__dir_mtime(p);
	header_block(&out, p, mtime);
	if (pdata__is_pipe(p)) {
		ret = pipe_features(&out, p, &ctx);
		return out_close(&out, ret, label);
	}
	for (int feat = 1; feat < PD_FEAT_LAST_6_1; feat++) {
		size_t len = 0;
		const unsigned char *q;

		if (!pdata__has_feat(p, feat))
			continue;
		q = pdata__feature(p, feat, &len);
		print_feature(&out, p, feat, q, len, pdata__feat_bad(p, feat), &ctx);
	}
	out_str(&out, "# missing features: ");
	for (int feat = 1; feat < PD_FEAT_LAST_6_1; feat++)
		if (!pdata__has_feat(p, feat) && pd_feature_name(feat))
			out_printf(&out, "%s ", pd_feature_name(feat));
	out_str(&out, "\n# ========\n#\n");
	return out_close(&out, ret, label);
}
