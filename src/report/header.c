// SPDX-License-Identifier: GPL-2.0-only
/* --header / --header-only: the file's header and feature sections, in perf 6.1's lines. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "../lib/log.h"
#include "../perfdata/perfdata.h"
#include "out.h"
#include "report.h"

/* A feature section to walk with the pd_cursor_* decoders, or false. */
static bool section(struct pdata *p, int feat, struct pd_cursor *c)
{
	size_t len;
	const unsigned char *q = pdata__feature(p, feat, &len);

	if (!q)
		return false;
	c->p = q;
	c->end = q + len;
	return true;
}

/* The next header string, or "" when there is none (the reader checked the string features). */
static const char *hstr(struct pd_cursor *c)
{
	const char *s = pd_cursor_string(c);

	return s ? s : "";
}

static void string_feature(struct out *out, struct pdata *p, int feat, const char *label)
{
	struct pd_cursor c;

	if (section(p, feat, &c))
		out_printf(out, "# %s : %s\n", label, hstr(&c));
}

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

/* perf's "# event : name = ..." line: only the attr fields that are not zero. */
static void event_line(struct out *out, const struct pd_evsel *e)
{
	const struct perf_event_attr *a = &e->attr;
	uint64_t fl;

	out_printf(out, "# event : name = %s, , id = {", e->name);
	for (size_t i = 0; i < e->nr_ids; i++)
		out_printf(out, "%s %" PRIu64, i ? "," : "", e->ids[i]);
	out_str(out, " }");
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
	X("branch_sample_type", a->branch_sample_type);
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

int report__header(struct pdata *p, const char *label, time_t mtime, FILE *f)
{
	struct out out;
	uint64_t doff, dsize, foff;
	struct pd_feat_nrcpus nrcpus;
	struct pd_feat_sample_time stime;
	struct pd_cursor c;
	uint64_t v;
	uint32_t nr;
	char when[64];

	if (out_init(&out, f))
		return mperf_error(-ENOMEM, "out of memory");
	pdata__layout(p, &doff, &dsize, &foff);
	ctime_r(&mtime, when);
	out_printf(&out, "# ========\n# captured on    : %s", when);
	out_printf(&out, "# header version : 1\n# data offset    : %" PRIu64 "\n# data size      : %" PRIu64
		   "\n# feat offset    : %" PRIu64 "\n", doff, dsize, foff);
	for (int feat = 1; feat < PD_FEAT_LAST_6_1; feat++) {
		if (!pdata__has_feat(p, feat))
			continue;
		switch (feat) {
		case PD_FEAT_HOSTNAME: string_feature(&out, p, feat, "hostname"); break;
		case PD_FEAT_OSRELEASE: string_feature(&out, p, feat, "os release"); break;
		case PD_FEAT_VERSION: string_feature(&out, p, feat, "perf version"); break;
		case PD_FEAT_ARCH: string_feature(&out, p, feat, "arch"); break;
		case PD_FEAT_CPUDESC: string_feature(&out, p, feat, "cpudesc"); break;
		case PD_FEAT_CPUID: string_feature(&out, p, feat, "cpuid"); break;
		case PD_FEAT_NRCPUS:
			if (pdata__feature_view(p, feat, &nrcpus, sizeof(nrcpus)))
				out_printf(&out, "# nrcpus online : %u\n# nrcpus avail : %u\n", nrcpus.online, nrcpus.available);
			break;
		case PD_FEAT_TOTAL_MEM:
			if (pdata__feature_view(p, feat, &v, sizeof(v)))
				out_printf(&out, "# total memory : %" PRIu64 " kB\n", v);
			break;
		case PD_FEAT_CMDLINE:
			if (section(p, feat, &c) && pd_cursor_u32(&c, &nr)) {
				out_str(&out, "# cmdline : ");
				for (uint32_t i = 0; i < nr; i++) {
					for (const char *ch = hstr(&c); *ch; ch++) {
						if (*ch == '\'')
							out_char(&out, '\\');
						out_char(&out, *ch);
					}
					out_char(&out, ' ');
				}
				out_char(&out, '\n');
			}
			break;
		case PD_FEAT_EVENT_DESC:
			for (size_t i = 0; i < pdata__nr_evsel(p); i++)
				event_line(&out, pdata__evsel(p, i));
			break;
		case PD_FEAT_CPU_TOPOLOGY: case PD_FEAT_NUMA_TOPOLOGY: case PD_FEAT_CACHE: case PD_FEAT_MEM_TOPOLOGY:
			out_printf(&out, "# %s info available, use -I to display\n", pd_feature_name(feat));
			break;
		case PD_FEAT_PMU_MAPPINGS:
			/* u32 nr; per PMU: u32 type, its name. */
			if (section(p, feat, &c) && pd_cursor_u32(&c, &nr)) {
				uint32_t type;

				out_str(&out, "# pmu mappings: ");
				for (uint32_t i = 0; i < nr && pd_cursor_u32(&c, &type); i++)
					out_printf(&out, "%s%s = %u", i ? ", " : "", hstr(&c), type);
				out_char(&out, '\n');
			}
			break;
		case PD_FEAT_SAMPLE_TIME:
			if (pdata__feature_view(p, feat, &stime, sizeof(stime))) {
				uint64_t a = stime.first, b = stime.last;

				out_printf(&out, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n", a / 1000000000, a % 1000000000 / 1000);
				out_printf(&out, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n", b / 1000000000, b % 1000000000 / 1000);
				out_printf(&out, "# sample duration : %10.3f ms\n", (double)(b - a) / 1e6);
			}
			break;
		case PD_FEAT_GROUP_DESC:
			/* u32 nr; per group: name, u32 leader index, u32 members ("{anon_group}" is unnamed). */
			if (section(p, feat, &c) && pd_cursor_u32(&c, &nr)) {
				for (uint32_t g = 0; g < nr; g++) {
					const char *name = hstr(&c);
					uint32_t leader, members;

					if (!pd_cursor_u32(&c, &leader) || !pd_cursor_u32(&c, &members))
						break;
					/* Only events the file has: the counts are the file's word. */
					if (leader > pdata__nr_evsel(p) || members > pdata__nr_evsel(p) - leader)
						break;
					out_printf(&out, "# group: %s{", strcmp(name, "{anon_group}") ? name : "");
					for (uint32_t m = 0; m < members; m++) {
						const struct pd_evsel *e = pdata__evsel(p, leader + m);

						out_printf(&out, "%s%s", m ? "," : "", e ? e->name : "?");
					}
					out_str(&out, "}\n");
				}
			}
			break;
		case PD_FEAT_BRANCH_STACK: out_str(&out, "# contains samples with branch stack\n"); break;
		case PD_FEAT_AUXTRACE: out_str(&out, "# contains AUX area data (e.g. instruction trace)\n"); break;
		case PD_FEAT_STAT: out_str(&out, "# contains stat data\n"); break;
		default: break;	/* BUILD_ID and the BPF, hybrid and PMU-caps sections print nothing here */
		}
	}
	out_str(&out, "# missing features: ");
	for (int feat = 1; feat < PD_FEAT_LAST_6_1; feat++)
		if (!pdata__has_feat(p, feat) && pd_feature_name(feat))
			out_printf(&out, "%s ", pd_feature_name(feat));
	out_str(&out, "\n# ========\n#\n");
	return out_close(&out, 0, label);
}
