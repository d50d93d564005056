// SPDX-License-Identifier: GPL-2.0-only
/* `report -D` text for each record type, in perf 6.1's shapes. */
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>
#include "../perfdata/perfdata.h"
#include "dump.h"

static const char hexd[] = "0123456789abcdef";

void dump__raw(struct out *out, const char *label, uint64_t off, const struct perf_event_header *h)
{
	const unsigned char *p = (const unsigned char *)h;

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
		unsigned int n = h->size - i < 16 ? h->size - i : 16;
		/* ".  0000: " + 16 x " xx" + "  " + 16 ASCII + "\n" = 76 bytes */
		char *line = out_room(out, 76), *q = line;

		*q++ = '.';
		*q++ = ' ';
		*q++ = ' ';
		*q++ = hexd[(i >> 12) & 15];
		*q++ = hexd[(i >> 8) & 15];
		*q++ = hexd[(i >> 4) & 15];
		*q++ = hexd[i & 15];
		*q++ = ':';
		*q++ = ' ';
		for (unsigned int k = 0; k < 16; k++) {
			*q++ = ' ';
			*q++ = k < n ? hexd[p[i + k] >> 4] : ' ';
			*q++ = k < n ? hexd[p[i + k] & 15] : ' ';
		}
		*q++ = ' ';
		*q++ = ' ';
		for (unsigned int k = 0; k < 16; k++) {
			unsigned char c = k < n ? p[i + k] : ' ';

			*q++ = (c >= 32 && c < 127) ? (char)c : '.';
		}
		*q++ = '\n';
		out->len += (size_t)(q - line);
	}
	out_char(out, '\n');
}

/* A string field that starts at byte off of the record and ends by its end. */
static const char *rec_str(const struct perf_event_header *h, size_t off, char *buf, size_t len)
{
	const char *s = (const char *)h + off;
	size_t max = h->size > off ? h->size - off : 0;
	size_t n = strnlen(s, max);

	if (n < max)
		return s;
	snprintf(buf, len, "%.*s", (int)(n < len - 1 ? n : len - 1), s);
	return buf;
}

/* Word at byte off, or 0 past the end (perf would read whatever is there). */
static uint64_t w64(const struct perf_event_header *h, size_t off)
{
	return off + 8 <= h->size ? pd_u64((const char *)h + off) : 0;
}
static uint32_t w32(const struct perf_event_header *h, size_t off)
{
	return off + 4 <= h->size ? pd_u32((const char *)h + off) : 0;
}
static uint16_t w16(const struct perf_event_header *h, size_t off)
{
	return off + 2 <= h->size ? pd_u16((const char *)h + off) : 0;
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
	size_t nr = 0;
	uint16_t type;

	buf[0] = 0;
	if (n < 2)
		return -1;
	type = pd_u16(p);
	if (type == 0) {		/* u16 nr, u16 cpu[nr] */
		uint16_t cnt = n >= 4 ? pd_u16(p + 2) : 0;

		for (size_t i = 0; i < cnt && 4 + 2 * i + 2 <= n && nr < 4096; i++) {
			uint16_t c = pd_u16(p + 4 + 2 * i);

			cpus[nr++] = c == 0xffff ? -1 : c;
		}
	} else if (type == 1) {		/* u16 nr, u16 long_size, masks */
		uint16_t cnt = n >= 4 ? pd_u16(p + 2) : 0, lsz = n >= 6 ? pd_u16(p + 4) : 0;
		size_t base = lsz == 8 ? 10 : 6;

		if (lsz != 4 && lsz != 8)
			return -1;
		for (size_t i = 0; i < cnt && base + lsz * (i + 1) <= n; i++) {
			uint64_t m = lsz == 8 ? pd_u64(p + base + 8 * i) : pd_u32(p + base + 4 * i);

			for (unsigned int b = 0; b < lsz * 8u && nr < 4096; b++)
				if (m >> b & 1)
					cpus[nr++] = (int)(i * lsz * 8 + b);
		}
	} else if (type == 2) {		/* u8 any_cpu, u8 pad, u16 start, u16 end */
		if (n < 8)
			return -1;
		if (p[2])
			cpus[nr++] = -1;
		for (unsigned int c = pd_u16(p + 4); c <= pd_u16(p + 6) && nr < 4096; c++)
			cpus[nr++] = (int)c;
	} else {
		return -1;
	}
	print_cpus(buf, len, cpus, nr);
	return 0;
}

static const char *const ns_names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };

static void dump_namespaces(struct out *out, const struct perf_event_header *h)
{
	uint64_t nr = w64(h, 16);

	out_printf(out, " %d/%d - nr_namespaces: %u\n\t\t[", (int)w32(h, 8), (int)w32(h, 12), (unsigned)nr);
	for (uint64_t i = 0; i < nr && 24 + 16 * (i + 1) <= h->size; i++) {
		if (i > 0 && i % 4 == 0)
			out_str(out, "\n\t\t ");
		out_printf(out, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned)i,
			i < 7 ? ns_names[i] : "UNKNOWN", w64(h, 24 + 16 * i), w64(h, 32 + 16 * i),
			i + 1 < nr ? ", " : "]\n");
	}
	if (!nr)
		out_str(out, "]\n");
}

static void dump_id_index(struct out *out, const struct perf_event_header *h)
{
	uint64_t nr = w64(h, 8);
	bool second = h->size >= 16 && (uint64_t)(h->size - 16) / 48 >= nr;

	out_printf(out, " nr: %" PRIu64 "\n", nr);
	for (uint64_t i = 0; i < nr && 16 + 32 * (i + 1) <= h->size; i++) {
		size_t e = 16 + 32 * i;

		out_printf(out, " ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64 "  tid: %" PRId64,
			w64(h, e), w64(h, e + 8), (int64_t)w64(h, e + 16), (int64_t)w64(h, e + 24));
		if (second) {
			size_t e2 = 16 + 32 * nr + 16 * i;

			out_printf(out, "  machine_pid: %" PRId64 "  vcpu: %" PRIu64 "\n",
				(int64_t)w64(h, e2), w64(h, e2 + 8));
		} else {
			out_char(out, '\n');
		}
	}
}

void dump__details(struct out *out, const struct perf_event_header *h, const struct pd_sample *s,
		   const char *evsel_name, bool ordered)
{
	char sb[4096];

	switch (h->type) {
	case PERF_RECORD_MMAP:
		out_printf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n",
			(int)w32(h, 8), (int)w32(h, 12), w64(h, 16), w64(h, 24), w64(h, 32),
			(h->misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x', rec_str(h, 40, sb, sizeof(sb)));
		break;
	case PERF_RECORD_MMAP2: {
		uint32_t prot = w32(h, 64), flags = w32(h, 68);

		out_printf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 " ",
			(int)w32(h, 8), (int)w32(h, 12), w64(h, 16), w64(h, 24), w64(h, 32));
		if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			unsigned int n = h->size > 40 ? ((const unsigned char *)h)[40] : 0;

			out_char(out, '<');
			for (unsigned int i = 0; i < n && i < 20 && 44 + i < h->size; i++)
				out_printf(out, "%02x", ((const unsigned char *)h)[44 + i]);
			out_char(out, '>');
		} else {
			out_printf(out, "%02x:%02x %" PRIu64 " %" PRIu64, w32(h, 40), w32(h, 44), w64(h, 48), w64(h, 56));
		}
		out_printf(out, "]: %c%c%c%c %s\n", prot & 1 ? 'r' : '-', prot & 2 ? 'w' : '-',
			prot & 4 ? 'x' : '-', flags & 1 ? 's' : 'p', rec_str(h, 72, sb, sizeof(sb)));
		break;
	}
	case PERF_RECORD_COMM:
		out_printf(out, "%s: %s:%d/%d\n", (h->misc & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "",
			rec_str(h, 16, sb, sizeof(sb)), (int)w32(h, 8), (int)w32(h, 12));
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		out_printf(out, "(%d:%d):(%d:%d)\n", (int)w32(h, 8), (int)w32(h, 16), (int)w32(h, 12), (int)w32(h, 20));
		break;
	case PERF_RECORD_LOST:
		out_printf(out, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", w64(h, 8), w64(h, 16));
		break;
	case PERF_RECORD_LOST_SAMPLES:
		out_printf(out, ": id:%" PRIu64 ": lost samples :%" PRIu64 "\n", s->id, w64(h, 8));
		break;
	case PERF_RECORD_READ:
		/* perf reads fixed offsets whatever read_format says. */
		out_printf(out, ": %d %d %s %" PRIu64 "\n", (int)w32(h, 8), (int)w32(h, 12),
			evsel_name ? evsel_name : "", w64(h, 16));
		break;
	case PERF_RECORD_SWITCH:
		out_printf(out, " %s\n", !(h->misc & PERF_RECORD_MISC_SWITCH_OUT) ? "IN         " :
			(h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT preempt" : "OUT        ");
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		bool o = h->misc & PERF_RECORD_MISC_SWITCH_OUT;

		out_printf(out, " %s  %s pid/tid: %5d/%-5d\n",
			!o ? "IN         " : (h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT preempt" : "OUT        ",
			o ? "next" : "prev", (int)w32(h, 8), (int)w32(h, 12));
		break;
	}
	case PERF_RECORD_NAMESPACES:
		dump_namespaces(out, h);
		break;
	case PERF_RECORD_CGROUP:
		out_printf(out, " cgroup: %" PRIu64 " %s\n", w64(h, 8), rec_str(h, 16, sb, sizeof(sb)));
		break;
	case PERF_RECORD_KSYMBOL:
		out_printf(out, " addr %" PRIx64 " len %u type %u flags 0x%x name %s\n", w64(h, 8), w32(h, 16),
			w16(h, 20), w16(h, 22), rec_str(h, 24, sb, sizeof(sb)));
		break;
	case PERF_RECORD_BPF_EVENT:
		out_printf(out, " type %u, flags %u, id %u\n", w16(h, 8), w16(h, 10), w32(h, 12));
		break;
	case PERF_RECORD_TEXT_POKE: {
		uint16_t ol = w16(h, 16), nl = w16(h, 18);
		const unsigned char *b = (const unsigned char *)h + 20;

		out_printf(out, " %" PRIx64 "  old len %u new len %u\n", w64(h, 8), ol, nl);
		for (int which = 0; which < 2; which++) {
			unsigned int n = which ? nl : ol, base = which ? ol : 0;

			if (!n)
				continue;
			out_str(out, which ? "            New bytes:" : "            Old bytes:");
			for (unsigned int i = 0; i < n && 20 + base + i < h->size; i++)
				out_printf(out, " %02x", b[base + i]);
			out_char(out, '\n');
		}
		break;
	}
	case PERF_RECORD_AUX: {
		uint64_t f = w64(h, 24);

		out_printf(out, " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s]\n",
			w64(h, 8), w64(h, 16), f, f & 1 ? "T" : "", f & 2 ? "O" : "", f & 4 ? "P" : "");
		break;
	}
	case PERF_RECORD_ITRACE_START:
		out_printf(out, " pid: %u tid: %u\n", w32(h, 8), w32(h, 12));
		break;
	case 21:	/* AUX_OUTPUT_HW_ID */
		out_printf(out, " hw_id: %#" PRIx64 "\n", w64(h, 8));
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PD_FINISHED_INIT:
	case PD_AUXTRACE_ERROR:
		out_str(out, ": unhandled!\n");
		break;
	case PD_HEADER_ATTR:
	case PD_HEADER_FEATURE:
	case PD_HEADER_BUILD_ID:
	case PD_HEADER_TRACING_DATA:
	case PD_HEADER_EVENT_TYPE:
		break;	/* perf ends these lines with the next record's leading newline */
	case PD_FINISHED_ROUND:
		out_str(out, ordered ? "\n" : ": unhandled!\n");
		break;
	case PD_ID_INDEX:
		dump_id_index(out, h);
		break;
	case PD_THREAD_MAP: {
		uint64_t nr = w64(h, 8);

		out_printf(out, " nr: %d thread%s: ", (int)nr, nr > 1 ? "s" : "");
		for (uint64_t i = 0; i < nr && 16 + 24 * (i + 1) <= h->size; i++)
			out_printf(out, "%s%d", i ? ", " : "", (int)w64(h, 16 + 24 * i));
		out_str(out, "\n: unhandled!\n");
		break;
	}
	case PD_CPU_MAP:
		dump__cpu_map(sb, sizeof(sb), (const unsigned char *)h + 8, h->size - 8u);
		out_printf(out, ": %s\n: unhandled!\n", sb);
		break;
	case PD_EVENT_UPDATE: {
		uint64_t type = w64(h, 8);

		out_printf(out, "\n... id:    %" PRIu64 "\n", w64(h, 16));
		if (type == 0) {
			out_printf(out, "... unit:  %s\n", rec_str(h, 24, sb, sizeof(sb)));
		} else if (type == 1) {
			double d;
			uint64_t v = w64(h, 24);

			memcpy(&d, &v, sizeof(d));
			out_printf(out, "... scale: %f\n", d);
		} else if (type == 2) {
			out_printf(out, "... name:  %s\n", rec_str(h, 24, sb, sizeof(sb)));
		} else if (type == 3) {
			dump__cpu_map(sb, sizeof(sb), (const unsigned char *)h + 24, h->size > 24 ? h->size - 24u : 0);
			out_printf(out, "... %s\n", sb);
		} else {
			out_str(out, "... unknown type\n");
		}
		break;
	}
	case PD_TIME_CONV:
		out_printf(out, "\n... Time Shift      %" PRIu64 "\n... Time Muliplier  %" PRIu64 "\n... Time Zero       %" PRIu64 "\n",
			w64(h, 8), w64(h, 16), w64(h, 24));
		if (h->size > 32)
			out_printf(out, "... Time Cycles     %" PRIu64 "\n... Time Mask       %#" PRIx64 "\n... Cap Time Zero   %d\n... Cap Time Short  %d\n",
				w64(h, 32), w64(h, 40), h->size > 48 ? ((const unsigned char *)h)[48] : 0,
				h->size > 49 ? ((const unsigned char *)h)[49] : 0);
		out_str(out, ": unhandled!\n");
		break;
	case PD_STAT_CONFIG: {
		uint64_t nr = w64(h, 8), v[3] = { 0, 0, 0 };

		for (uint64_t i = 0; i < nr && 16 + 16 * (i + 1) <= h->size; i++) {
			uint64_t tag = w64(h, 16 + 16 * i);

			if (tag < 3)
				v[tag] = w64(h, 24 + 16 * i);
		}
		out_printf(out, "\n... aggr_mode %d\n... scale     %d\n... interval  %u\n: unhandled!\n",
			(int)v[0], (int)v[2], (unsigned)v[1]);
		break;
	}
	case PD_STAT:
		out_printf(out, "\n... id %" PRIu64 ", cpu %d, thread %d\n... value %" PRIu64 ", enabled %" PRIu64 ", running %" PRIu64 "\n: unhandled!\n",
			w64(h, 8), (int)w32(h, 16), (int)w32(h, 20), w64(h, 24), w64(h, 32), w64(h, 40));
		break;
	case PD_STAT_ROUND:
		out_printf(out, "\n... time %" PRIu64 ", type %s\n: unhandled!\n", w64(h, 16),
			w64(h, 8) == 1 ? "FINAL" : "INTERVAL");
		break;
	default:
		out_str(out, ": unhandled!\n");
		break;
	}
}

static const char *const x86_regs[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};

static void dump_regs(struct out *out, const char *kind, uint64_t abi, uint64_t mask, const unsigned char *regs)
{
	static const char *const abis[] = { "none", "32-bit", "64-bit" };
	unsigned int k = 0;

	if (!abi)
		return;
	out_printf(out, "... %s regs: mask 0x%" PRIx64 " ABI %s\n", kind, mask, abi < 3 ? abis[abi] : "unknown");
	for (unsigned int b = 0; b < 64; b++) {
		if (!(mask >> b & 1))
			continue;
		out_printf(out, ".... %-5s 0x%016" PRIx64 "\n", b < 24 ? x86_regs[b] : "unknown", pd_u64(regs + 8 * k));
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

static void dump_read(struct out *out, uint64_t rf, const unsigned char *p)
{
	size_t o = 0;
	uint64_t nr = 1;

	out_str(out, "... sample_read:\n");
	if (rf & PERF_FORMAT_GROUP) {
		nr = pd_u64(p);
		o = 8;
	}
	uint64_t first = rf & PERF_FORMAT_GROUP ? 0 : pd_u64(p);
	if (!(rf & PERF_FORMAT_GROUP))
		o = 8;
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) {
		out_printf(out, "...... time enabled %016" PRIx64 "\n", pd_u64(p + o));
		o += 8;
	}
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) {
		out_printf(out, "...... time running %016" PRIx64 "\n", pd_u64(p + o));
		o += 8;
	}
	if (rf & PERF_FORMAT_GROUP)
		out_printf(out, ".... group nr %" PRIu64 "\n", nr);
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t value, id = 0, lost = 0;

		if (rf & PERF_FORMAT_GROUP) {
			value = pd_u64(p + o);
			o += 8;
		} else {
			value = first;
		}
		if (rf & PERF_FORMAT_ID) {
			id = pd_u64(p + o);
			o += 8;
		}
		if (rf & PERF_FORMAT_LOST) {
			lost = pd_u64(p + o);
			o += 8;
		}
		out_printf(out, "..... id %016" PRIx64 ", value %016" PRIx64, id, value);
		if (rf & PERF_FORMAT_LOST)
			out_printf(out, ", lost %" PRIu64, lost);
		out_char(out, '\n');
	}
}

void dump__sample(struct out *out, const struct perf_event_header *h, const struct perf_event_attr *attr,
		  const struct pd_sample *s)
{
	uint64_t st = attr->sample_type;
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
		out_printf(out, "... FP chain: nr:%" PRIu64 "\n", s->callchain_nr);
		for (uint64_t i = 0; i < s->callchain_nr; i++)
			out_printf(out, "..... %2d: %016" PRIx64 "\n", (int)i, pd_u64(s->callchain + 8 * i));
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		out_printf(out, "... branch stack: nr:%" PRIu64 "\n", s->branch_nr);
		for (uint64_t i = 0; i < s->branch_nr; i++) {
			const unsigned char *e = s->branch + 24 * i;
			uint64_t f = pd_u64(e + 16);

			out_printf(out, "..... %2" PRIu64 ": %016" PRIx64 " -> %016" PRIx64 " %hu cycles %s%s%s%s %x %s\n",
				i, pd_u64(e), pd_u64(e + 8), (unsigned short)(f >> 4 & 0xffff),
				f & 1 ? "M" : " ", f & 2 ? "P" : " ", f & 8 ? "A" : " ", f & 4 ? "T" : " ",
				(unsigned)(f >> 33), "");
		}
	}
	if (st & PERF_SAMPLE_REGS_USER)
		dump_regs(out, "user", s->user_abi, s->user_mask, s->user_regs);
	if (st & PERF_SAMPLE_REGS_INTR)
		dump_regs(out, "intr", s->intr_abi, s->intr_mask, s->intr_regs);
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
		dump_read(out, attr->read_format, s->read);
}
