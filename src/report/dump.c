// SPDX-License-Identifier: GPL-2.0-only
/*
 * `report -D`: every record in perf 6.1's dump format, in the order the
 * session delivers them, then the stats.  A session consumer; the fields
 * come from the decoders of perfdata/format.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include "../lib/err.h"
#include "../lib/log.h"
#include "../perfdata/perfdata.h"
#include "dump.h"
#include "report.h"
#include "../resolve/session.h"
#include "stats.h"
#include "../resolve/stackwalk.h"
#include "../resolve/symbols.h"

static const char hexd[] = "0123456789abcdef";

/* A byte's " xx" of the hex column (and a byte to spare) and its character of the text one. */
static char hex3[256][4], text1[256];

static void raw_tables(void)
{
	for (int c = 0; c < 256; c++) {
		hex3[c][0] = ' ';
		hex3[c][1] = hexd[c >> 4];
		hex3[c][2] = hexd[c & 15];
		text1[c] = (c >= 32 && c < 127) ? (char)c : '.';
	}
}

/* One line of the raw dump: ".  0000: " + 16 x " xx" + "  " + 16 ASCII + "\n" = 76 bytes. */
static char *raw_line(char *q, const unsigned char *p, unsigned int i, unsigned int n)
{
	/* the hex and the text columns in one pass: q[k * 3] and a[k] */
	char *a = q + 9 + 16 * 3 + 2;

	q[0] = '.';
	q[1] = q[2] = ' ';
	q[3] = hexd[(i >> 12) & 15];
	q[4] = hexd[(i >> 8) & 15];
	q[5] = hexd[(i >> 4) & 15];
	q[6] = hexd[i & 15];
	q[7] = ':';
	q[8] = ' ';
	q += 9;
	/* four bytes a copy, the fourth overwritten by the next or by the padding */
	for (unsigned int k = 0; k < n; k++, q += 3) {
		memcpy(q, hex3[p[i + k]], 4);
		a[k] = text1[p[i + k]];
	}
	for (unsigned int k = n; k < 16; k++, q += 3) {
		q[0] = q[1] = q[2] = ' ';
		a[k] = ' ';
	}
	q[0] = q[1] = ' ';
	a[16] = '\n';
	return a + 17;
}

void dump__raw(struct out *out, const char *label, uint64_t off, const struct perf_event_header *h)
{
	const unsigned char *p = (const unsigned char *)h;

	if (!hex3[0][0])
		raw_tables();
	/* "\n%#lx@%s [%#x]: event: %u\n.\n. ... raw event: size %u bytes\n" */
	out_char(out, '\n');
	out_xhex(out, off);
	out_char(out, '@');
	out_str(out, label);
	out_mem(out, " [", 2);
	out_xhex(out, h->size);
	out_mem(out, "]: event: ", 10);
	out_u64(out, h->type);
	out_mem(out, "\n.\n. ... raw event: size ", 25);
	out_u64(out, h->size);
	out_mem(out, " bytes\n", 7);
	for (unsigned int i = 0; i < h->size; i += 16) {
		char *line = out_room(out, 76);

		out->len += (size_t)(raw_line(line, p, i, h->size - i < 16 ? h->size - i : 16) - line);
	}
	out_char(out, '\n');
}

/* perf's cpu list: runs of consecutive cpus as "a-b", joined by ','. */
static void print_cpus(char *buf, size_t len, const int *cpu, size_t n)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < n && o < len; ) {
		size_t j = i;

		while (j + 1 < n && cpu[j + 1] == cpu[j] + 1)
			j++;
		if (j > i)
			o += (size_t)snprintf(buf + o, len - o, "%s%d-%d", i ? "," : "", cpu[i], cpu[j]);
		else
			o += (size_t)snprintf(buf + o, len - o, "%s%d", i ? "," : "", cpu[i]);
		i = j + 1;
	}
}

int dump__cpu_map(char *buf, size_t len, const unsigned char *p, size_t n)
{
	int cpus[4096];
	int nr = pd_cpu_map_decode(p, n, cpus, sizeof(cpus) / sizeof(cpus[0]));

	buf[0] = 0;
	if (nr < 0)
		return -1;
	print_cpus(buf, len, cpus, (size_t)nr);
	return 0;
}

static const char *const ns_names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };

static void dump_namespaces(struct out *out, const struct perf_event_header *h)
{
	struct pd_namespaces_event e;
	const size_t base = sizeof(e);

	PD_VIEW(h, &e);
	out_printf(out, " %d/%d - nr_namespaces: %u\n\t\t[", (int)e.pid, (int)e.tid, (unsigned)e.nr_namespaces);
	for (uint64_t i = 0; i < e.nr_namespaces && base + sizeof(struct pd_ns_link_info) * (i + 1) <= h->size; i++) {
		struct pd_ns_link_info li;

		pd_view_at(h, base + sizeof(li) * i, &li, sizeof(li));
		if (i > 0 && i % 4 == 0)
			out_str(out, "\n\t\t ");
		out_printf(out, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned)i,
			i < 7 ? ns_names[i] : "UNKNOWN", li.dev, li.ino, i + 1 < e.nr_namespaces ? ", " : "]\n");
	}
	if (!e.nr_namespaces)
		out_str(out, "]\n");
}

static void dump_id_index(struct out *out, const struct perf_event_header *h)
{
	struct pd_id_index_event e;
	const size_t base = sizeof(e), one = sizeof(struct pd_id_index_entry);
	bool second;

	PD_VIEW(h, &e);
	/* perf 6.0+ follows the entries with a second array, when there is room for it. */
	second = h->size >= base && (uint64_t)(h->size - base) / (one + sizeof(struct pd_id_index_entry2)) >= e.nr;
	out_printf(out, " nr: %" PRIu64 "\n", e.nr);
	for (uint64_t i = 0; i < e.nr && base + one * (i + 1) <= h->size; i++) {
		struct pd_id_index_entry ie;

		pd_view_at(h, base + one * i, &ie, sizeof(ie));
		out_printf(out, " ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64 "  tid: %" PRId64,
			ie.id, ie.idx, (int64_t)ie.cpu, (int64_t)ie.tid);
		if (second) {
			struct pd_id_index_entry2 e2;

			pd_view_at(h, base + one * e.nr + sizeof(e2) * i, &e2, sizeof(e2));
			out_printf(out, "  machine_pid: %" PRId64 "  vcpu: %" PRIu64 "\n", (int64_t)e2.machine_pid, e2.vcpu);
		} else {
			out_char(out, '\n');
		}
	}
}

static const char *switch_dir(const struct perf_event_header *h)
{
	if (!(h->misc & PERF_RECORD_MISC_SWITCH_OUT))
		return "IN         ";
	return (h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT preempt" : "OUT        ";
}

/*
 * AUXTRACE_INFO of Intel PT: its private words as perf names them, in
 * three groups, each printed when the record is long enough to hold it.
 */
static void dump_auxtrace_info(struct out *out, const struct perf_event_header *h)
{
	static const struct { const char *name; bool hex; } pt[] = {
		{ "PMU Type", 0 }, { "Time Shift", 0 }, { "Time Muliplier", 0 }, { "Time Zero", 0 },
		{ "Cap Time Zero", 0 }, { "TSC bit", 1 }, { "NoRETComp bit", 1 }, { "Have sched_switch", 0 },
		{ "Snapshot mode", 0 }, { "Per-cpu maps", 0 },
		{ "MTC bit", 1 }, { "MTC freq bits", 1 }, { "TSC:CTC numerator", 0 },
		{ "TSC:CTC denominator", 0 }, { "CYC bit", 1 }, { "Max non-turbo ratio", 0 },
		{ "Filter string len.", 0 },
	};
	static const unsigned int group_end[] = { 10, 16, 17 };
	struct pd_auxtrace_info_event e;
	const size_t base = sizeof(e);
	size_t nr = h->size > base ? (h->size - base) / 8 : 0;
	unsigned int i = 0;

	PD_VIEW(h, &e);
	out_printf(out, " type: %u\n", e.type);
	if (e.type != PD_AUXTRACE_INTEL_PT)
		return;
	for (unsigned int g = 0; g < 3 && nr >= group_end[g]; g++) {
		for (; i < group_end[g]; i++) {
			uint64_t v;

			pd_view_at(h, base + 8 * i, &v, sizeof(v));
			out_printf(out, pt[i].hex ? "  %-20s%#" PRIx64 "\n" : "  %-20s%" PRIu64 "\n", pt[i].name, v);
			if (i == 16) {
				char sb[4096];
				uint64_t len = v;

				/* The filter string follows the words, len bytes with its NUL. */
				if (len && base + 8 * 17 + len <= h->size)
					pd_rec_str(h, base + 8 * 17, sb, sizeof(sb));
				else
					sb[0] = 0;
				out_printf(out, "  %-20s%s\n", "Filter string", sb);
			}
		}
	}
}

/* The string at the end of a record whose fixed part is a struct of size fixed. */
#define REC_STR(h, fixed, sb) pd_rec_str((h), (fixed), (sb), sizeof(sb))

/* One record's details: what dump__details prints after the record's name. */
struct dump_rec {
	struct out *out;
	const struct perf_event_header *h;
	const struct pd_sample *s;
	const struct pd_evsel *ev;
	bool ordered;
};

static void rec_mmap(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	char sb[4096];
	struct pd_mmap_event e;

	PD_VIEW(h, &e);
	out_printf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n",
		(int)e.pid, (int)e.tid, e.start, e.len, e.pgoff,
		(h->misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x', REC_STR(h, sizeof(e), sb));
}

static void rec_mmap2(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	char sb[4096];
	struct pd_mmap2_event e;

	PD_VIEW(h, &e);
	out_printf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 " ",
		(int)e.pid, (int)e.tid, e.start, e.len, e.pgoff);
	if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		out_char(out, '<');
		for (unsigned int i = 0; i < e.build_id_size && i < sizeof(e.build_id); i++)
			out_printf(out, "%02x", e.build_id[i]);
		out_char(out, '>');
	} else {
		out_printf(out, "%02x:%02x %" PRIu64 " %" PRIu64, e.maj, e.min, e.ino, e.ino_generation);
	}
	out_printf(out, "]: %c%c%c%c %s\n", e.prot & PROT_READ ? 'r' : '-', e.prot & PROT_WRITE ? 'w' : '-',
		e.prot & PROT_EXEC ? 'x' : '-', e.flags & MAP_SHARED ? 's' : 'p', REC_STR(h, sizeof(e), sb));
}

static void rec_comm(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	char sb[4096];
	struct pd_comm_event e;

	PD_VIEW(h, &e);
	out_printf(out, "%s: %s:%d/%d\n", (h->misc & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "",
		REC_STR(h, sizeof(e), sb), (int)e.pid, (int)e.tid);
}

static void rec_fork(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	struct pd_fork_event e;

	PD_VIEW(h, &e);
	out_printf(out, "(%d:%d):(%d:%d)\n", (int)e.pid, (int)e.tid, (int)e.ppid, (int)e.ptid);
}

static void rec_lost(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	struct pd_lost_event e;

	PD_VIEW(h, &e);
	out_printf(out, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", e.id, e.lost);
}

static void rec_lost_samples(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	struct pd_lost_samples_event e;

	PD_VIEW(h, &e);
	out_printf(out, ": id:%" PRIu64 ": lost samples :%" PRIu64 "\n", r->s->id, e.lost);
}

static void rec_read(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	const struct pd_evsel *ev = r->ev;
	/*
	 * perf 6.1's dump reads READ through its fixed struct
	 * perf_record_read (every field at its place whatever the
	 * read_format), and -D prints its lines: so the fixed view
	 * here, not pd_read_parse, which the session's values use.
	 */
	struct pd_read_event e;

	PD_VIEW(h, &e);
	out_printf(out, ": %d %d %s %" PRIu64 "\n", (int)e.pid, (int)e.tid, ev ? ev->name : "", e.value);
	if (!ev)
		return;
	if (ev->attr.read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out_printf(out, "... time enabled : %" PRIu64 "\n", e.time_enabled);
	if (ev->attr.read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out_printf(out, "... time running : %" PRIu64 "\n", e.time_running);
	if (ev->attr.read_format & PERF_FORMAT_ID)
		out_printf(out, "... id           : %" PRIu64 "\n", e.id);
	if (ev->attr.read_format & PERF_FORMAT_LOST)
		out_printf(out, "... lost         : %" PRIu64 "\n", e.lost);
}

static void rec_switch(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;

	out_printf(out, " %s\n", switch_dir(h));
}

static void rec_switch_cpu_wide(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	struct pd_switch_cpu_wide_event e;

	PD_VIEW(h, &e);
	out_printf(out, " %s  %s pid/tid: %5d/%-5d\n", switch_dir(h),
		(h->misc & PERF_RECORD_MISC_SWITCH_OUT) ? "next" : "prev", (int)e.next_prev_pid, (int)e.next_prev_tid);
}

static void rec_namespaces(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;

	dump_namespaces(out, h);
}

static void rec_cgroup(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	char sb[4096];
	struct pd_cgroup_event e;

	PD_VIEW(h, &e);
	out_printf(out, " cgroup: %" PRIu64 " %s\n", e.id, REC_STR(h, sizeof(e), sb));
}

static void rec_ksymbol(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	char sb[4096];
	struct pd_ksymbol_event e;

	PD_VIEW(h, &e);
	out_printf(out, " addr %" PRIx64 " len %u type %u flags 0x%x name %s\n", e.addr, e.len,
		e.ksym_type, e.flags, REC_STR(h, sizeof(e), sb));
}

static void rec_bpf_event(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	struct pd_bpf_event e;

	PD_VIEW(h, &e);
	out_printf(out, " type %u, flags %u, id %u\n", e.type, e.flags, e.id);
}

static void rec_text_poke(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	struct pd_text_poke_event e;
	const size_t at = offsetof(struct pd_text_poke_event, bytes);
	const unsigned char *b = (const unsigned char *)h + at;

	PD_VIEW(h, &e);
	out_printf(out, " %" PRIx64 "  old len %u new len %u\n", e.addr, e.old_len, e.new_len);
	for (int which = 0; which < 2; which++) {
		unsigned int n = which ? e.new_len : e.old_len, base = which ? e.old_len : 0;

		if (!n)
			continue;
		out_str(out, which ? "            New bytes:" : "            Old bytes:");
		for (unsigned int i = 0; i < n && at + base + i < h->size; i++)
			out_printf(out, " %02x", b[base + i]);
		out_char(out, '\n');
	}
}

static void rec_aux(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	struct pd_aux_event e;

	PD_VIEW(h, &e);
	out_printf(out, " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s]\n",
		e.aux_offset, e.aux_size, e.flags, e.flags & PERF_AUX_FLAG_TRUNCATED ? "T" : "",
		e.flags & PERF_AUX_FLAG_OVERWRITE ? "O" : "", e.flags & PERF_AUX_FLAG_PARTIAL ? "P" : "");
}

static void rec_itrace_start(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	struct pd_itrace_start_event e;

	PD_VIEW(h, &e);
	out_printf(out, " pid: %u tid: %u\n", e.pid, e.tid);
}

static void rec_aux_output_hw_id(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	struct pd_aux_output_hw_id_event e;

	PD_VIEW(h, &e);
	out_printf(out, " hw_id: %#" PRIx64 "\n", e.hw_id);
}

static void rec_auxtrace_info(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;

	dump_auxtrace_info(out, h);
}

static void rec_auxtrace(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	struct pd_auxtrace_event e;

	/* The trace data after it is not decoded (perf decodes Intel PT's packets here). */
	PD_VIEW(h, &e);
	out_printf(out, " size: %#" PRIx64 "  offset: %#" PRIx64 "  ref: %#" PRIx64 "  idx: %u  tid: %d  cpu: %d\n",
		e.size, e.offset, e.reference, e.idx, (int)e.tid, (int)e.cpu);
}

static void rec_finished_round(const struct dump_rec *r)
{
	struct out *out = r->out;

	out_str(out, r->ordered ? "\n" : ": unhandled!\n");
}

static void rec_id_index(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;

	dump_id_index(out, h);
}

static void rec_thread_map(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	struct pd_thread_map_event e;
	const size_t one = sizeof(struct pd_thread_map_entry);

	PD_VIEW(h, &e);
	out_printf(out, " nr: %d thread%s: ", (int)e.nr, e.nr > 1 ? "s" : "");
	for (uint64_t i = 0; i < e.nr && sizeof(e) + one * (i + 1) <= h->size; i++) {
		struct pd_thread_map_entry te;

		pd_view_at(h, sizeof(e) + one * i, &te, sizeof(te));
		out_printf(out, "%s%d", i ? ", " : "", (int)te.pid);
	}
	out_str(out, "\n: unhandled!\n");
}

static void rec_cpu_map(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	char sb[4096];

	dump__cpu_map(sb, sizeof(sb), (const unsigned char *)h + sizeof(*h), h->size - sizeof(*h));
	out_printf(out, ": %s\n: unhandled!\n", sb);
}

static void rec_event_update(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	char sb[4096];
	struct pd_event_update_event e;
	const size_t at = offsetof(struct pd_event_update_event, str);

	PD_VIEW(h, &e);
	out_printf(out, "\n... id:    %" PRIu64 "\n", e.id);
	if (e.type == PD_EVENT_UPDATE_UNIT) {
		out_printf(out, "... unit:  %s\n", REC_STR(h, at, sb));
	} else if (e.type == PD_EVENT_UPDATE_SCALE) {
		out_printf(out, "... scale: %f\n", e.scale);
	} else if (e.type == PD_EVENT_UPDATE_NAME) {
		out_printf(out, "... name:  %s\n", REC_STR(h, at, sb));
	} else if (e.type == PD_EVENT_UPDATE_CPUS) {
		dump__cpu_map(sb, sizeof(sb), (const unsigned char *)h + at, h->size > at ? h->size - at : 0);
		out_printf(out, "... %s\n", sb);
	} else {
		out_str(out, "... unknown type\n");
	}
}

static void rec_time_conv(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	struct pd_time_conv_event e;

	PD_VIEW(h, &e);
	out_printf(out, "\n... Time Shift      %" PRIu64 "\n... Time Muliplier  %" PRIu64 "\n... Time Zero       %" PRIu64 "\n",
		e.time_shift, e.time_mult, e.time_zero);
	if (h->size > offsetof(struct pd_time_conv_event, time_cycles))
		out_printf(out, "... Time Cycles     %" PRIu64 "\n... Time Mask       %#" PRIx64 "\n... Cap Time Zero   %d\n... Cap Time Short  %d\n",
			e.time_cycles, e.time_mask, e.cap_user_time_zero, e.cap_user_time_short);
	out_str(out, ": unhandled!\n");
}

static void rec_stat_config(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	struct pd_stat_config_event e;
	const size_t one = sizeof(struct pd_stat_config_entry);
	uint64_t v[3] = { 0, 0, 0 };

	PD_VIEW(h, &e);
	for (uint64_t i = 0; i < e.nr && sizeof(e) + one * (i + 1) <= h->size; i++) {
		struct pd_stat_config_entry ce;

		pd_view_at(h, sizeof(e) + one * i, &ce, sizeof(ce));
		if (ce.tag < 3)
			v[ce.tag] = ce.val;
	}
	out_printf(out, "\n... aggr_mode %d\n... scale     %d\n... interval  %u\n: unhandled!\n",
		(int)v[PD_STAT_CONFIG_AGGR_MODE], (int)v[PD_STAT_CONFIG_SCALE], (unsigned)v[PD_STAT_CONFIG_INTERVAL]);
}

static void rec_stat(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	struct pd_stat_event e;

	PD_VIEW(h, &e);
	out_printf(out, "\n... id %" PRIu64 ", cpu %d, thread %d\n... value %" PRIu64 ", enabled %" PRIu64 ", running %" PRIu64 "\n: unhandled!\n",
		e.id, (int)e.cpu, (int)e.thread, e.val, e.ena, e.run);
}

static void rec_stat_round(const struct dump_rec *r)
{
	struct out *out = r->out;
	const struct perf_event_header *h = r->h;
	struct pd_stat_round_event e;

	PD_VIEW(h, &e);
	out_printf(out, "\n... time %" PRIu64 ", type %s\n: unhandled!\n", e.time,
		e.type == PD_STAT_ROUND_FINAL ? "FINAL" : "INTERVAL");
}

static void rec_unhandled(const struct dump_rec *r)
{
	out_str(r->out, ": unhandled!\n");
}

/* perf ends these lines with the next record's leading newline. */
static void rec_nothing(const struct dump_rec *r)
{
	(void)r;
}

/* The printer of each record type; a type without one is "unhandled". */
static void (*const rec_printers[])(const struct dump_rec *) = {
	[PERF_RECORD_MMAP]             = rec_mmap,
	[PERF_RECORD_MMAP2]            = rec_mmap2,
	[PERF_RECORD_COMM]             = rec_comm,
	[PERF_RECORD_FORK]             = rec_fork,
	[PERF_RECORD_EXIT]             = rec_fork,
	[PERF_RECORD_LOST]             = rec_lost,
	[PERF_RECORD_LOST_SAMPLES]     = rec_lost_samples,
	[PERF_RECORD_READ]             = rec_read,
	[PERF_RECORD_SWITCH]           = rec_switch,
	[PERF_RECORD_SWITCH_CPU_WIDE]  = rec_switch_cpu_wide,
	[PERF_RECORD_NAMESPACES]       = rec_namespaces,
	[PERF_RECORD_CGROUP]           = rec_cgroup,
	[PERF_RECORD_KSYMBOL]          = rec_ksymbol,
	[PERF_RECORD_BPF_EVENT]        = rec_bpf_event,
	[PERF_RECORD_TEXT_POKE]        = rec_text_poke,
	[PERF_RECORD_AUX]              = rec_aux,
	[PERF_RECORD_ITRACE_START]     = rec_itrace_start,
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = rec_aux_output_hw_id,
	[PD_AUXTRACE_INFO]             = rec_auxtrace_info,
	[PD_AUXTRACE]                  = rec_auxtrace,
	[PERF_RECORD_THROTTLE]         = rec_unhandled,
	[PERF_RECORD_UNTHROTTLE]       = rec_unhandled,
	[PD_FINISHED_INIT]             = rec_unhandled,
	[PD_AUXTRACE_ERROR]            = rec_unhandled,
	[PD_HEADER_ATTR]               = rec_nothing,
	[PD_HEADER_FEATURE]            = rec_nothing,
	[PD_HEADER_BUILD_ID]           = rec_nothing,
	[PD_HEADER_TRACING_DATA]       = rec_nothing,
	[PD_HEADER_EVENT_TYPE]         = rec_nothing,
	[PD_FINISHED_ROUND]            = rec_finished_round,
	[PD_ID_INDEX]                  = rec_id_index,
	[PD_THREAD_MAP]                = rec_thread_map,
	[PD_CPU_MAP]                   = rec_cpu_map,
	[PD_EVENT_UPDATE]              = rec_event_update,
	[PD_TIME_CONV]                 = rec_time_conv,
	[PD_STAT_CONFIG]               = rec_stat_config,
	[PD_STAT]                      = rec_stat,
	[PD_STAT_ROUND]                = rec_stat_round,
};

void dump__details(struct out *out, const struct perf_event_header *h, const struct pd_sample *s,
		   const struct pd_evsel *ev, bool ordered)
{
	const struct dump_rec r = { .out = out, .h = h, .s = s, .ev = ev, .ordered = ordered };
	size_t n = sizeof(rec_printers) / sizeof(rec_printers[0]);

	if (h->type < n && rec_printers[h->type])
		rec_printers[h->type](&r);
	else
		rec_unhandled(&r);
}

/* arch: perf's name of the recording machine's arch (pd_arch_normalize). */
static void dump_regs(struct out *out, const char *kind, uint64_t abi, uint64_t mask, const unsigned char *regs,
		      const char *arch)
{
	static const char *const abis[] = { "none", "32-bit", "64-bit" };
	unsigned int k = 0;

	if (!abi)
		return;
	out_printf(out, "... %s regs: mask 0x%" PRIx64 " ABI %s\n", kind, mask, abi < 3 ? abis[abi] : "unknown");
	for (unsigned int b = 0; b < 64; b++) {
		if (!(mask >> b & 1))
			continue;
		out_printf(out, ".... %-5s 0x%016" PRIx64 "\n", pd_reg_name(arch, b), pd_sample_reg(regs, k));
		k++;
	}
}

static void page_size_name(char *buf, size_t len, uint64_t size)
{
	static const char units[] = "BKMG";
	int i = 0;

	if (!size) {
		snprintf(buf, len, "N/A");
		return;
	}
	while (i < 3 && size / 1024 > 1) {
		size /= 1024;
		i++;
	}
	snprintf(buf, len, "%" PRIu64 "%c", size, units[i]);
}

static void dump_read(struct out *out, const struct pd_sample *s, uint64_t rf)
{
	struct pd_read_values rv;

	out_str(out, "... sample_read:\n");
	if (pd_read_parse(rf, s->read, s->read_len, &rv) < 0)
		return;
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out_printf(out, "...... time enabled %016" PRIx64 "\n", rv.time_enabled);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out_printf(out, "...... time running %016" PRIx64 "\n", rv.time_running);
	if (rf & PERF_FORMAT_GROUP)
		out_printf(out, ".... group nr %" PRIu64 "\n", rv.nr);
	for (uint64_t i = 0; i < rv.nr; i++) {
		struct pd_read_value v;

		pd_read_value(&rv, i, &v);
		out_printf(out, "..... id %016" PRIx64 ", value %016" PRIx64, v.id, v.value);
		if (rf & PERF_FORMAT_LOST)
			out_printf(out, ", lost %" PRIu64, v.lost);
		out_char(out, '\n');
	}
}

/*
 * With LBR call stacks (branch_sample_type CALL_STACK) the user part of
 * the chain is in the branch stack: the kernel part up to
 * PERF_CONTEXT_USER, then the first entry's "to" and every "from".
 */
static void dump_lbr_chain(struct out *out, const struct pd_sample *s)
{
	uint64_t k, nr = s->callchain_nr;
	struct pd_branch_entry e;

	for (k = 0; k < nr; k++)
		if (pd_sample_callchain(s, k) == (uint64_t)PERF_CONTEXT_USER)
			break;
	if (k == nr || !s->branch_nr)
		return;
	out_printf(out, "... LBR call chain: nr:%" PRIu64 "\n", k + 1 + s->branch_nr + 1);
	for (uint64_t i = 0; i <= k; i++)
		out_printf(out, "..... %2d: %016" PRIx64 "\n", (int)i, pd_sample_callchain(s, i));
	pd_sample_branch(s, 0, &e);
	out_printf(out, "..... %2d: %016" PRIx64 "\n", (int)(k + 1), e.to);
	for (uint64_t i = 0; i < s->branch_nr; i++) {
		pd_sample_branch(s, i, &e);
		out_printf(out, "..... %2d: %016" PRIx64 "\n", (int)(i + k + 2), e.from);
	}
}

void dump__sample(struct out *out, const struct perf_event_header *h, const struct perf_event_attr *attr,
		  const struct pd_sample *s, const char *arch)
{
	uint64_t st = attr->sample_type;
	bool callstack = attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK;
	char buf[32];

	/* "(IP, 0x%x): %d/%d: %#lx period: %lu addr: %#lx\n" */
	out_mem(out, "(IP, 0x", 7);
	out_hex(out, h->misc);
	out_mem(out, "): ", 3);
	out_i64(out, (int32_t)s->pid);
	out_char(out, '/');
	out_i64(out, (int32_t)s->tid);
	out_mem(out, ": ", 2);
	out_xhex(out, s->ip);
	out_mem(out, " period: ", 9);
	out_u64(out, s->period);
	out_mem(out, " addr: ", 7);
	out_xhex(out, s->addr);
	out_char(out, '\n');
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (callstack && (st & PERF_SAMPLE_BRANCH_STACK))
			dump_lbr_chain(out, s);
		out_printf(out, "... FP chain: nr:%" PRIu64 "\n", s->callchain_nr);
		for (uint64_t i = 0; i < s->callchain_nr; i++)
			out_printf(out, "..... %2d: %016" PRIx64 "\n", (int)i, pd_sample_callchain(s, i));
	}
	if ((st & PERF_SAMPLE_BRANCH_STACK) && callstack) {
		/* A call stack of nr branches is nr + 1 frames: the first "to", then each "from". */
		out_printf(out, "... branch callstack: nr:%" PRIu64 "\n", s->branch_nr + 1);
		for (uint64_t i = 0; i < s->branch_nr; i++) {
			struct pd_branch_entry e;

			pd_sample_branch(s, i, &e);
			if (!i)
				out_printf(out, "..... %2" PRIu64 ": %016" PRIx64 "\n", i, e.to);
			out_printf(out, "..... %2" PRIu64 ": %016" PRIx64 "\n", i + 1, e.from);
		}
	} else if (st & PERF_SAMPLE_BRANCH_STACK) {
		out_printf(out, "... branch stack: nr:%" PRIu64 "\n", s->branch_nr);
		for (uint64_t i = 0; i < s->branch_nr; i++) {
			struct pd_branch_entry e;
			uint64_t f;

			pd_sample_branch(s, i, &e);
			f = e.flags;

			out_printf(out, "..... %2" PRIu64 ": %016" PRIx64 " -> %016" PRIx64 " %hu cycles %s%s%s%s %x %s\n",
				i, e.from, e.to, (unsigned short)(f >> 4 & 0xffff),
				f & 1 ? "M" : " ", f & 2 ? "P" : " ", f & 8 ? "A" : " ", f & 4 ? "T" : " ",
				(unsigned)(f >> 33), "");
		}
	}
	if (st & PERF_SAMPLE_REGS_USER)
		dump_regs(out, "user", s->user_abi, s->user_mask, s->user_regs, arch);
	if (st & PERF_SAMPLE_REGS_INTR)
		dump_regs(out, "intr", s->intr_abi, s->intr_mask, s->intr_regs, arch);
	if (st & PERF_SAMPLE_STACK_USER)
		out_printf(out, "... ustack: size %" PRIu64 ", offset 0x%x\n", s->stack_dyn_size, (unsigned)s->stack_size_off);
	if (st & PERF_SAMPLE_WEIGHT_STRUCT)
		out_printf(out, "... weight: %u,0x%x,0x0\n", s->weight_struct_lo, s->weight_struct_hi);
	else if (st & PERF_SAMPLE_WEIGHT)
		out_printf(out, "... weight: %" PRIu64 "\n", s->weight);
	if (st & PERF_SAMPLE_DATA_SRC)
		out_printf(out, " . data_src: 0x%" PRIx64 "\n", s->data_src);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		out_printf(out, " .. phys_addr: 0x%" PRIx64 "\n", s->phys_addr);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE) {
		page_size_name(buf, sizeof(buf), s->data_page_size);
		out_printf(out, " .. data page size: %s\n", buf);
	}
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE) {
		page_size_name(buf, sizeof(buf), s->code_page_size);
		out_printf(out, " .. code page size: %s\n", buf);
	}
	if (st & PERF_SAMPLE_TRANSACTION)
		out_printf(out, "... transaction: %" PRIx64 "\n", s->transaction);
	if ((st & PERF_SAMPLE_READ) && s->read)
		dump_read(out, s, attr->read_format);
}

/* ---- the dump, a session consumer ---- */

struct dump {
	struct pdata *p;
	const char *label;	/* after '@' in each record's first line */
	struct out out;
	struct stats *stats;
	bool ordered;
	const char *host_arch;	/* perf names registers by this machine's arch when the file has no ARCH */
	struct symcache *syms;	/* perf's warning for another machine's kernel; a kernel image, if found */
	bool krange_read, krange;	/* the range of the kernel image's symbols, read, and known */
	uint64_t kstart, kend;
};

/*
 * The DSO a sample's dso line names: its map's, by perf's long name.
 * perf loads the kernel's symbols as it resolves a sample there, before
 * the line: from a kernel image (when a place perf looks in has one with
 * the recorded build id), the kernel's map is then the image's (its
 * path), an image section's map keeps the name the kernel had, and an
 * address past the image's symbols is in no map.  Without an image
 * (kallsyms) nothing changes, and nothing is read.
 */
static const char *sample_dso(struct dump *d, const struct session_sample *ss, char *buf, size_t len)
{
	const struct resolved *w = &ss->where;
	const char *img;

	if (!w->found)
		return w->dso;
	if (ss->cpumode != PERF_RECORD_MISC_KERNEL || strcmp(w->dso, "[kernel.kallsyms]") ||
	    !(img = symcache__kernel_image_path(d->syms)))
		return symcache__kernel_dso_name(d->syms, w->dso, SYMCACHE_KNAME_LONG, buf, len);
	if (symcache__kernel_section(d->syms, ss->smp->ip))
		return symcache__kernel_dso_name(d->syms, w->dso, SYMCACHE_KNAME_LONG, buf, len);
	if (!d->krange_read) {
		d->krange = symcache__kernel_range(d->syms, &d->kstart, &d->kend);
		d->krange_read = true;
	}
	return d->krange && (ss->smp->ip < d->kstart || ss->smp->ip >= d->kend) ? "<not found>" : img;
}

/*
 * "<cpu> <time> " before the offset.  nr_visible: the events known when
 * the record is printed (a pipe-mode ATTR is printed before it is added).
 */
static void print_prefix(struct dump *d, const struct perf_event_header *h, const struct pd_sample *smp,
			 size_t nr_visible)
{
	uint64_t st = 0;

	if (!nr_visible || (h->type != PERF_RECORD_SAMPLE && !pdata__evsel(d->p, 0)->attr.sample_id_all)) {
		out_str(&d->out, "-1 -1 ");
		return;
	}
	for (size_t i = 0; i < nr_visible; i++)
		st |= pdata__evsel(d->p, i)->attr.sample_type;
	if (st & PERF_SAMPLE_CPU) {
		out_u64(&d->out, smp->cpu);
		out_char(&d->out, ' ');
	}
	if (st & PERF_SAMPLE_TIME) {
		out_u64(&d->out, smp->time);
		out_char(&d->out, ' ');
	}
}

static int dump_record(void *arg, const struct session_record *r)
{
	struct dump *d = arg;
	const struct perf_event_header *h = r->h;
	const char *name = pd_record_name(h->type);
	const struct pd_evsel *ev = r->ev;
	size_t nr_visible = pdata__nr_evsel(d->p);
	int err;

	if (d->out.err)		/* nobody reads the rest (a closed pipe, a full disk) */
		return -d->out.err;
	symcache__kernel_mmap(d->syms, h);	/* the kernel's reference symbol, for an image's range */
	if ((err = stats__record(d->stats, r)))
		return err;
	/* perf counts a compressed record and dumps the records it holds, not it. */
	if (h->type == PD_COMPRESSED || h->type == PD_COMPRESSED2)
		return 0;
	if (h->type == PD_HEADER_ATTR && pdata__is_pipe(d->p))
		nr_visible--;	/* printed as perf does: before the event exists */
	dump__raw(&d->out, r->path ? r->path : d->label, r->off, h);
	print_prefix(d, h, r->smp, nr_visible);
	out_xhex(&d->out, r->off);
	out_mem(&d->out, " [", 2);
	out_xhex(&d->out, h->size);
	out_mem(&d->out, "]: PERF_RECORD_", 15);
	out_str(&d->out, name ? name : "UNKNOWN");
	if (h->type >= PD_RECORD_MAX || !name)
		out_str(&d->out, ": unhandled!\n");
	else if (h->type == PERF_RECORD_SAMPLE && ev)
		dump__sample(&d->out, h, &ev->attr, r->smp,
			     pd_arch_normalize(pdata__arch(d->p) ? pdata__arch(d->p) : d->host_arch));
	else
		dump__details(&d->out, h, r->smp, ev, d->ordered);
	return 0;
}

/* The thread and DSO of each sample (of each READ value): perf's two lines. */
static int dump_sample(void *arg, const struct session_sample *ss)
{
	struct dump *d = arg;
	char kname[256];
	int err;

	if ((err = stats__sample(d->stats, ss)))
		return err;
	/* perf resolves the sample, and so loads the kernel's map (its warning) */
	stackwalk_kernel_hit(d->syms, ss->cpumode, &ss->where);
	out_mem(&d->out, " ... thread: ", 13);
	out_str(&d->out, ss->where.comm);
	out_char(&d->out, ':');
	out_i64(&d->out, ss->where.tid);
	out_mem(&d->out, "\n ...... dso: ", 14);
	out_str(&d->out, sample_dso(d, ss, kname, sizeof(kname)));
	out_char(&d->out, '\n');
	return 0;
}

static void dump_thread_removed(void *arg, int pid, int tid)
{
	struct dump *d = arg;

	out_printf(&d->out, "removing erroneous parent thread %d/%d\n", pid, tid);
}

static int dump_finish(void *arg, struct machine *m)
{
	struct dump *d = arg;

	(void)m;
	stats__print(d->stats, &d->out, true);
	return 0;
}

int report__dump(struct pdata *p, const char *label, FILE *f)
{
	struct dump d = { .p = p, .label = pdata__is_pipe(p) ? "pipe" : label };
	struct session_ops ops = {
		.record = dump_record, .sample = dump_sample, .thread_removed = dump_thread_removed,
		.finish = dump_finish, .arg = &d, .machine = true,
	};
	struct utsname uts;
	int ret;

	d.host_arch = uname(&uts) ? "x86_64" : uts.machine;
	if (!(d.syms = symcache__for_file(p, NULL, NULL, NULL)))
		return -ENOMEM;
	if (out_init(&d.out, f) || !(d.stats = stats__new(p))) {
		stats__delete(d.stats);
		symcache__delete(d.syms);
		out_finish(&d.out);
		return mperf_error(-ENOMEM, "out of memory");
	}
	/* perf turns ordering off for files whose events lack sample_id_all (not for pipes). */
	d.ordered = pdata__is_pipe(p) || pdata__sample_id_all(p);
	if (!d.ordered)
		out_str(&d.out, "WARNING: No sample_id_all support, falling back to unordered processing\n");
	out_str(&d.out, "# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	ret = session__run(p, label, &ops);
	if (ret == -d.out.err && d.out.err)
		ret = 0;	/* a write error: out_finish says which */
	ret = out_close(&d.out, ret, label);
	stats__delete(d.stats);
	symcache__delete(d.syms);
	return ret;
}
