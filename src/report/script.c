// SPDX-License-Identifier: GPL-2.0-only
/*
 * `mperf script`: every sample as one line in perf script 6.1's shape
 * (comm, tid, cpu, time, period, event, ip, symbol+offset, dso), its call
 * chain as one line per frame, and a tracepoint's fields as the event's
 * print format says, decoded by libtraceevent from the formats the file's
 * TRACING_DATA carries.  A session consumer: samples come in perf's order
 * (the ordered-events queue), each resolved through the machine.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/strset.h"
#include "dump.h"
#include "filter.h"
#include "out.h"
#include "report.h"
#include "srcline.h"
#include "tracefmt.h"
#include "../resolve/session.h"
#include "../resolve/stackwalk.h"
#include "../resolve/symbols.h"

/* perf's output types: the attr types below PERF_TYPE_MAX, then every other PMU. */
#define TYPE_OTHER (SCRIPT_NR_TYPES - 1)

/* perf keeps at most this many frames of a chain (PERF_MAX_STACK_DEPTH, its --max-stack default). */
#define MAX_STACK 127

#define ALL_FIELDS (SCRIPT_F_COMM | SCRIPT_F_TID | SCRIPT_F_PID | SCRIPT_F_TIME | SCRIPT_F_CPU | \
		    SCRIPT_F_EVENT | SCRIPT_F_TRACE | SCRIPT_F_IP | SCRIPT_F_SYM | SCRIPT_F_DSO | \
		    SCRIPT_F_SYMOFF | SCRIPT_F_PERIOD)

static const struct {
	const char *name;
	unsigned field;
} field_names[] = {
	{ "comm", SCRIPT_F_COMM }, { "tid", SCRIPT_F_TID }, { "pid", SCRIPT_F_PID },
	{ "time", SCRIPT_F_TIME }, { "cpu", SCRIPT_F_CPU }, { "event", SCRIPT_F_EVENT },
	{ "trace", SCRIPT_F_TRACE }, { "ip", SCRIPT_F_IP }, { "sym", SCRIPT_F_SYM },
	{ "dso", SCRIPT_F_DSO }, { "symoff", SCRIPT_F_SYMOFF }, { "period", SCRIPT_F_PERIOD },
	{ "srcline", SCRIPT_F_SRCLINE }, { "insn", SCRIPT_F_INSN }, { "insnlen", SCRIPT_F_INSNLEN },
	{ "callindent", SCRIPT_F_CALLINDENT }, { "misc", SCRIPT_F_MISC }, { "ipc", SCRIPT_F_IPC },
};

/* Fields perf script knows that mperf does not print: refused by name. */
static const char *const perf_only_fields[] = {
	"addr", "iregs", "uregs", "brstack", "brstacksym", "data_src", "weight",
	"bpf-output", "synth", "brstackinsn", "brstackoff",
	"phys_addr", "metric", "srccode", "tod", "data_page_size",
	"code_page_size", "ins_lat", "machine_pid", "vcpu", "cgroup", "retire_lat", "dsoff",
};

static const char *const type_names[SCRIPT_NR_TYPES] = {
	[PERF_TYPE_HARDWARE] = "hw", [PERF_TYPE_SOFTWARE] = "sw", [PERF_TYPE_TRACEPOINT] = "trace",
	[PERF_TYPE_HW_CACHE] = NULL, [PERF_TYPE_RAW] = "raw", [PERF_TYPE_BREAKPOINT] = "break",
	[TYPE_OTHER] = NULL,
};

/* How perf's messages name the types. */
static const char *const type_words[SCRIPT_NR_TYPES] = {
	[PERF_TYPE_HARDWARE] = "hardware", [PERF_TYPE_SOFTWARE] = "software",
	[PERF_TYPE_TRACEPOINT] = "tracepoint", [PERF_TYPE_HW_CACHE] = "hardware-cache",
	[PERF_TYPE_RAW] = "raw", [PERF_TYPE_BREAKPOINT] = "hardware breakpoint", [TYPE_OTHER] = "unknown",
};

/* What each type of event cannot print at all: only tracepoints have fields. */
static unsigned invalid_fields(int t)
{
	return t == PERF_TYPE_TRACEPOINT ? 0 : SCRIPT_F_TRACE;
}

void report__script_defaults(struct report_script_opts *o)
{
	const unsigned sampled = SCRIPT_F_COMM | SCRIPT_F_TID | SCRIPT_F_CPU | SCRIPT_F_TIME | SCRIPT_F_EVENT |
				 SCRIPT_F_IP | SCRIPT_F_SYM | SCRIPT_F_SYMOFF | SCRIPT_F_DSO | SCRIPT_F_PERIOD;

	memset(o, 0, sizeof(*o));
	for (int t = 0; t < SCRIPT_NR_TYPES; t++)
		o->type[t].fields = sampled;
	o->type[PERF_TYPE_TRACEPOINT].fields = SCRIPT_F_COMM | SCRIPT_F_TID | SCRIPT_F_CPU | SCRIPT_F_TIME |
					       SCRIPT_F_EVENT | SCRIPT_F_TRACE;
}

static int usage_error(const char *arg, const char *why)
{
	return mperf_error(-MPERF_ERR_USAGE, "-F '%s': %s", arg, why);
}

int report__script_fields(struct report_script_opts *o, const char *arg)
{
	enum { DEFAULT, SET, ADD, REMOVE } change = DEFAULT;
	const char *colon = strchr(arg, ':'), *list = arg;
	int type = -1;
	char why[256];

	if (colon) {
		for (int t = 0; t < SCRIPT_NR_TYPES; t++)
			if (type_names[t] && strlen(type_names[t]) == (size_t)(colon - arg) &&
			    !strncmp(arg, type_names[t], (size_t)(colon - arg)))
				type = t;
		if (type < 0)
			return usage_error(arg, "unknown event type (types: hw, sw, trace, raw, break)");
		list = colon + 1;
	}
	for (const char *p = list; ; ) {
		size_t len = strcspn(p, ",");
		const char *tok = p;
		unsigned field = 0;

		if (*tok == '+' || *tok == '-') {
			if (change == SET)
				return usage_error(arg, "cannot set fields and add or remove them at once");
			change = *tok == '+' ? ADD : REMOVE;
			tok++;
			len--;
		} else if (len) {
			if (change == ADD || change == REMOVE)
				return usage_error(arg, "cannot set fields and add or remove them at once");
			if (change == DEFAULT) {
				/* Setting replaces what was there (for one type, or all). */
				for (int t = 0; t < SCRIPT_NR_TYPES; t++) {
					if (type >= 0 && t != type)
						continue;
					o->type[t].fields = o->type[t].named = 0;
					o->type[t].user_set = true;
					o->type[t].named_any = type < 0;
				}
			}
			change = SET;
		}
		for (size_t i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++)
			if (strlen(field_names[i].name) == len && !strncmp(tok, field_names[i].name, len))
				field = field_names[i].field;
		if (len == 5 && !strncmp(tok, "flags", 5)) {
			/* perf's print_flags: every type's, and no field of the type's */
			o->flags = change != REMOVE;
		} else if (!field && len) {
			for (size_t i = 0; i < sizeof(perf_only_fields) / sizeof(perf_only_fields[0]); i++)
				if (strlen(perf_only_fields[i]) == len && !strncmp(tok, perf_only_fields[i], len)) {
					snprintf(why, sizeof(why), "field '%.*s' is not supported (mperf script prints "
						 "comm, tid, pid, time, cpu, event, trace, ip, sym, symoff, dso, period, "
						 "srcline, misc, insn, insnlen, flags, ipc, callindent)",
						 (int)len, tok);
					return usage_error(arg, why);
				}
			snprintf(why, sizeof(why), "unknown field '%.*s'", (int)len, tok);
			return usage_error(arg, why);
		}
		if (!len && !p[len] && p == list)
			return usage_error(arg, "no fields");
		if (type >= 0 && field && (invalid_fields(type) & field)) {
			snprintf(why, sizeof(why), "'%.*s' is not valid for %s events", (int)len, tok, type_names[type]);
			return usage_error(arg, why);
		}
		for (int t = 0; field && t < SCRIPT_NR_TYPES; t++) {
			if ((type >= 0 && t != type) || (invalid_fields(t) & field))
				continue;	/* perf warns and goes on */
			if (change == REMOVE) {
				o->type[t].fields &= ~field;
				o->type[t].named &= ~field;
			} else {
				o->type[t].fields |= field;
				o->type[t].named |= field;
			}
			o->type[t].user_set = o->type[t].named_any = true;
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	return 0;
}

/* ---- the consumer ---- */

struct script {
	struct pdata *p;
	const char *label;
	struct report_script_opts o;	/* the fields, checked against the events */
	bool checked;			/* ... once the events are known */
	bool use_callchain;		/* some event records call chains */
	int name_width;			/* of the event column: the longest name, at the first sample */
	struct out out;
	struct symcache *syms;
	bool kernel_loaded;		/* kallsyms has been read: the kernel's map is perf's */
	bool sample_seen;
	struct tracefmt tf;		/* the tracepoints' formats, from TRACING_DATA */
	/* --call-graph dwarf samples: their user frames unwound as report unwinds them */
	struct strset strs;
	struct stackwalk walk;
	bool have_walk;
	struct srclines src;		/* -F srcline's lookups */
	struct sfilter filt;		/* -C, --time */
	unsigned max_stack;		/* frames of a chain printed */
	uint64_t initial_time, previous_time;	/* --reltime's first sample, --deltatime's last */
};

static int output_type(const struct perf_event_attr *a)
{
	return a->type < PERF_TYPE_MAX ? (int)a->type : TYPE_OTHER;
}

/* The first event of output type t, or NULL (perf checks a type's fields against it). */
static const struct pd_evsel *first_of_type(const struct script *S, int t)
{
	for (size_t i = 0; i < pdata__nr_evsel(S->p); i++) {
		const struct pd_evsel *ev = pdata__evsel(S->p, i);

		if (output_type(&ev->attr) == t)
			return ev;
	}
	return NULL;
}

/*
 * A field whose sample bit the event lacks: dropped when it is a
 * default, refused when -F named it.
 */
static int need_bit(struct script *S, int t, const struct pd_evsel *ev, uint64_t bit, const char *bitname,
		    unsigned field, const char *fname)
{
	if (ev->attr.sample_type & bit)
		return 0;
	if (S->o.type[t].named & field) {
		if (bit == PERF_SAMPLE_CPU && pdata__has_feat(S->p, PD_FEAT_AUXTRACE))
			return 0;
		return mperf_error(-MPERF_ERR_USAGE, "'%s': samples for '%s' event do not have %s attribute set: cannot print '%s' field",
				   S->label, ev->name, bitname, fname);
	}
	S->o.type[t].fields &= ~field;
	return 0;
}

/* perf script's check of the fields against the events, once they are known. */
static int check_fields(struct script *S)
{
	S->checked = true;
	for (size_t i = 0; i < pdata__nr_evsel(S->p) && !S->o.hide_call_graph; i++)	/* -G: perf's no_callchain */
		if (pdata__evsel(S->p, i)->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			S->use_callchain = true;
	if (pdata__has_feat(S->p, PD_FEAT_STAT))
		return 0;	/* perf stat record's file: perf checks nothing */
	for (int t = 0; t < SCRIPT_NR_TYPES; t++) {
		const struct pd_evsel *ev = first_of_type(S, t);
		unsigned *f = &S->o.type[t].fields;
		int err;

		/*
		 * perf 6.1 takes -F TYPE:FIELDS for a type the file has none of
		 * without a word, but not one that named no field of the type's
		 * ("TYPE:flags", "TYPE:"): its wildcard_set.
		 */
		if (!ev && S->o.type[t].user_set && !S->o.type[t].named_any)
			return mperf_error(-MPERF_ERR_USAGE, "'%s': %s events do not exist: remove the -F option that names them",
					   S->label, type_words[t]);
		if (!ev || !*f)
			continue;
		if ((*f & SCRIPT_F_TRACE) && !S->tf.tep)
			return mperf_error(-MPERF_ERR_USAGE, "'%s': no tracing data in the file: cannot print the fields of '%s'",
					   S->label, ev->name);
		if ((err = need_bit(S, t, ev, PERF_SAMPLE_IP, "IP", SCRIPT_F_IP, "ip")))
			return err;
		/* perf 6.1 prints nothing for sym or dso without ip, and refuses symoff without sym. */
		if ((*f & SCRIPT_F_SYMOFF) && !(*f & SCRIPT_F_SYM))
			return mperf_error(-MPERF_ERR_USAGE, "'%s': -F symoff needs sym", S->label);
		if ((*f & SCRIPT_F_SRCLINE) && !(*f & SCRIPT_F_IP))
			return mperf_error(-MPERF_ERR_USAGE, "'%s': -F srcline needs ip (the address to find the line of)",
					   S->label);
		if ((*f & (SCRIPT_F_PID | SCRIPT_F_TID)) &&
		    (err = need_bit(S, t, ev, PERF_SAMPLE_TID, "TID", SCRIPT_F_TID | SCRIPT_F_PID,
				    *f & SCRIPT_F_TID ? "tid" : "pid")))
			return err;
		if ((*f & SCRIPT_F_TIME) && (err = need_bit(S, t, ev, PERF_SAMPLE_TIME, "TIME", SCRIPT_F_TIME, "time")))
			return err;
		if ((*f & SCRIPT_F_CPU) && (err = need_bit(S, t, ev, PERF_SAMPLE_CPU, "CPU", SCRIPT_F_CPU, "cpu")))
			return err;
		/* No check of PERIOD: without it perf prints the attr's period. */
	}
	/* Tracepoints that record call chains print them, and so their ips. */
	if (S->use_callchain && !S->o.type[PERF_TYPE_TRACEPOINT].user_set)
		for (size_t i = 0; i < pdata__nr_evsel(S->p); i++) {
			const struct pd_evsel *ev = pdata__evsel(S->p, i);

			if (ev->attr.type == PERF_TYPE_TRACEPOINT && (ev->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
				S->o.type[PERF_TYPE_TRACEPOINT].fields |= SCRIPT_F_IP | SCRIPT_F_SYM | SCRIPT_F_SYMOFF |
									  SCRIPT_F_DSO;
				break;
			}
		}
	return 0;
}

/* ---- tracepoints ---- */

static void print_trace(struct script *S, int evsel, const struct pd_evsel *ev, const struct pd_sample *smp)
{
	size_t len;
	const char *s = tracefmt__info(&S->tf, evsel, ev, smp, &len);

	if (s)
		out_mem(&S->out, s, len);
}

/* ---- a sample's line ---- */

static void pad(struct out *o, int n)
{
	while (n-- > 0)
		out_char(o, ' ');
}

static int digits(uint64_t v, int base)
{
	int n = 1;

	while (v >= (uint64_t)base) {
		v /= (uint64_t)base;
		n++;
	}
	return n;
}

/* %Nd of a signed value */
static void out_dec_w(struct out *o, int64_t v, int width, bool left)
{
	int n = v < 0 ? digits((uint64_t)-v, 10) + 1 : digits((uint64_t)v, 10);

	if (!left)
		pad(o, width - n);
	out_i64(o, v);
	if (left)
		pad(o, width - n);
}

static void out_hex_w(struct out *o, uint64_t v, int width)
{
	pad(o, width - digits(v, 16));
	out_hex(o, v);
}

static void out_str_w(struct out *o, const char *s, int width)
{
	pad(o, width - (int)strlen(s));
	out_str(o, s);
}

/* The symbol at ip, in the map r found; *addr gets the dso-relative address. */
static const struct sym *find_sym(struct script *S, const struct resolved *r, int cpumode, uint64_t ip,
				  uint64_t *addr)
{
	*addr = ip - r->map_start + r->map_pgoff;
	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL) {
		/* kallsyms addresses are the kernel's own: the offset is from the ip. */
		*addr = ip;
		return cpumode == PERF_RECORD_MISC_KERNEL ? symcache__find_kernel(S->syms, r->dso, ip, NULL) : NULL;
	}
	/* An anonymous executable map (a JIT's): an identity map, with no symbols. */
	if (!strncmp(r->dso, "/tmp/perf-", 10)) {
		*addr = ip;
		return NULL;
	}
	return symcache__find(S->syms, r->dso, r->map_start, r->map_pgoff, ip, addr);
}

/*
 * The kernel's map as perf has it once it has read kallsyms, at its first
 * lookup there (map__fixup_start, map__fixup_end): from the kernel's first
 * symbol to the end of its last.  Init text after _etext, which the
 * recorded map leaves out, becomes the kernel's; an address past the
 * symbols, which another machine's map spans, no longer is.
 */
static void kernel_map(struct script *S, int cpumode, uint64_t ip, struct resolved *r)
{
	uint64_t start, end;

	if (cpumode != PERF_RECORD_MISC_KERNEL || (r->found && strcmp(r->dso, "[kernel.kallsyms]")))
		return;
	if (!symcache__kernel_range(S->syms, &start, &end))
		return;
	if (r->found) {
		/* The first sample finds the map as recorded; perf reads kallsyms after. */
		if (S->kernel_loaded && (ip < start || ip >= end)) {
			const char *dso = r->dso;

			/* a kernel image's other sections are maps of their own */
			if (symcache__kernel_map(S->syms, ip, &dso) && dso != r->dso)
				r->dso = dso;
			else
				r->found = false;
		}
		return;
	}
	if (symcache__kernel_section(S->syms, ip)) {
		r->found = true;
		r->dso = symcache__kernel_section(S->syms, ip);
		r->map_start = r->map_pgoff = 0;
		return;
	}
	if (ip < start || ip >= end || !symcache__find_kernel(S->syms, NULL, ip, NULL))
		return;
	r->found = true;
	r->dso = "[kernel.kallsyms]";
	r->map_start = r->map_pgoff = 0;
}

/*
 * The name perf prints for a dso: a kernel module's file is "[name]" (its
 * file name up to ".ko", '-' as '_') unless the recording's build ids name
 * the file (perf's dso then has the file's name), everything else as the
 * map names it.
 */
static const char *dso_name(const struct script *S, const struct resolved *r, char *buf, size_t len)
{
	unsigned char id[20];
	const char *base, *ko, *kname;
	size_t n;

	if (!r->found)
		return "[unknown]";
	/* the kernel's, by the vmlinux the recording names it by */
	if ((kname = symcache__kernel_dso_name(S->syms, r->dso, SYMCACHE_KNAME_NAME, buf, len)) != r->dso)
		return kname;
	if (r->dso[0] != '/' || !(base = strrchr(r->dso, '/') + 1) || !(ko = strstr(base, ".ko")) ||
	    (ko[3] && ko[3] != '.') || (n = (size_t)(ko - base)) + 3 > len || pdata__build_id(S->p, r->dso, id))
		return r->dso;
	buf[0] = '[';
	for (size_t i = 0; i < n; i++)
		buf[i + 1] = base[i] == '-' ? '_' : base[i];
	buf[n + 1] = ']';
	buf[n + 2] = 0;
	return buf;
}

/* " sym+0xoff (dso)", as the fields say. */
static void print_sym_dso(struct script *S, unsigned f, const struct resolved *r, const struct sym *sym,
			  uint64_t addr)
{
	struct out *o = &S->out;

	if (f & SCRIPT_F_SYM) {
		out_char(o, ' ');
		if (sym) {
			out_str(o, sym->name);	/* demangled as the symbols were read */
			if (f & SCRIPT_F_SYMOFF) {
				out_str(o, "+0x");
				out_hex(o, addr - sym->start);
			}
		} else {
			out_str(o, "[unknown]");
		}
	}
	if (f & SCRIPT_F_DSO) {
		char buf[256];

		out_str(o, " (");
		out_str(o, dso_name(S, r, buf, sizeof(buf)));
		out_char(o, ')');
	}
}

/*
 * -F srcline: perf's map__fprintf_srcline, "\n  " and the line of a
 * user DSO's address from its line table (srcline.c), else (the kernel,
 * a DSO without lines) perf's "dso[addr]" of its short name and objdump
 * address; nothing without a map, nor for a line "??:0" (but where
 * keep_unknown: an unwound frame with a symbol, whose line perf takes
 * from addr2line's inline list as it is).
 */
static int print_srcline(struct script *S, int cpumode, const struct resolved *r, uint64_t ip, bool keep_unknown)
{
	struct out *o = &S->out;
	const char *name, *file;
	char buf[4096], nbuf[256];
	uint64_t addr;
	bool found;

	if (!r->found)
		return 0;
	find_sym(S, r, cpumode, ip, &addr);
	found = cpumode != PERF_RECORD_MISC_KERNEL && cpumode != PERF_RECORD_MISC_GUEST_KERNEL &&
		srclines_find(&S->src, r->dso, addr, buf, sizeof(buf), &file);
	if (r->dso[0] == '/' && cpumode == PERF_RECORD_MISC_USER && srclines_note(&S->src, r->dso, found))
		return -ENOMEM;
	if (!found) {
		name = symcache__kernel_dso_name(S->syms, r->dso, SYMCACHE_KNAME_SHORT, nbuf, sizeof(nbuf));
		if (name == r->dso)
			name = dso_name(S, r, nbuf, sizeof(nbuf));
		if (name[0] == '/') {
			name = strrchr(name, '/') + 1;
			addr = symcache__vaddr(S->syms, r->dso, addr);
		}
		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", name, addr);
	}
	/* perf prints no line that starts as its unknown one does (but an unwound frame's, from its inline list) */
	if ((found && keep_unknown) || strncmp(buf, "??:0", 4)) {
		out_str(o, "\n  ");
		out_str(o, buf);
	}
	return 0;
}

/*
 * The chain, callee first, one line per frame: "\t%16lx sym+off (dso)".
 * Context markers switch the cpumode the next ips are resolved in; an
 * unknown one makes perf drop the whole chain.  A frame's address is
 * printed relative to its dso, as perf 6.1 prints it.
 */
static int print_chain(struct script *S, unsigned f, struct machine *m, const struct pd_sample *smp)
{
	struct out *o = &S->out;
	int cpumode = PERF_RECORD_MISC_USER, n = 0;

	for (uint64_t i = 0; i < smp->callchain_nr && n < (int)S->max_stack; i++) {
		uint64_t ip = pd_sample_callchain(smp, i);

		if (ip < PERF_CONTEXT_MAX)
			n++;
		else if (ip != PERF_CONTEXT_HV && ip != PERF_CONTEXT_KERNEL && ip != PERF_CONTEXT_USER)
			return 0;
	}
	n = 0;
	for (uint64_t i = 0; i < smp->callchain_nr && n < (int)S->max_stack; i++) {
		uint64_t ip = pd_sample_callchain(smp, i), addr = ip;
		const struct sym *sym = NULL;
		struct resolved r;

		if (ip >= PERF_CONTEXT_MAX) {
			cpumode = ip == PERF_CONTEXT_HV ? PERF_RECORD_MISC_HYPERVISOR :
				  ip == PERF_CONTEXT_KERNEL ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
			continue;
		}
		n++;
		if (machine__resolve(m, (int)smp->pid, (int)smp->tid, cpumode, ip, &r))
			return -ENOMEM;
		stackwalk_kernel_hit(S->syms, cpumode, &r);
		kernel_map(S, cpumode, ip, &r);
		if (r.found)
			sym = find_sym(S, &r, cpumode, ip, &addr);
		out_char(o, '\t');
		if (f & SCRIPT_F_IP)
			out_hex_w(o, r.found ? addr : ip, 16);
		print_sym_dso(S, f, &r, sym, addr);
		if ((f & SCRIPT_F_SRCLINE) && print_srcline(S, cpumode, &r, ip, false))
			return -ENOMEM;
		out_char(o, '\n');
	}
	return 0;
}

/*
 * A --call-graph dwarf sample's chain: the recorded kernel part, then the
 * user frames libdw unwinds from its registers and stack copy, with perf's
 * inline frames, which perf script prints as "\t%16lx NAME+off (inlined)"
 * (the offset from the symbol they are inlined in).
 */
/* The inline frames of one address, as print_unwound goes through them. */
struct inline_run {
	bool on;		/* the frames at ip began with an inline frame */
	uint64_t ip;
	size_t j, n;		/* this frame's place in the run (0: the innermost), the call sites known */
	char calls[16][256];	/* where each level was inlined (symcache__inline_calls) */
};

/*
 * A frame's srcline: perf takes an inline run's lines from its inline
 * list, the innermost frame's where the address is, each outer one's
 * where the level inside it was inlined (its call site); every other
 * frame's is the address's, "??:0" too where a symbol holds it (but
 * under --no-inline, where perf makes no inline list).
 */
static int frame_srcline(struct script *S, struct inline_run *run, const struct cc_frame *fr, int cpumode,
			 const struct resolved *r, uint64_t addr, bool sym)
{
	if (!run->on || fr->ip != run->ip) {
		run->on = fr->inlined && r->found;
		run->ip = fr->ip;
		run->j = 0;
		run->n = run->on ? symcache__inline_calls(S->syms, r->dso, addr, run->calls, 16) : 0;
	} else {
		run->j++;
	}
	if (!run->j || run->j > run->n)
		return print_srcline(S, cpumode, r, fr->ip, sym);
	if (strncmp(run->calls[run->j - 1], "??:0", 4)) {
		out_str(&S->out, "\n  ");
		out_str(&S->out, run->calls[run->j - 1]);
	}
	return 0;
}

static int print_unwound(struct script *S, unsigned f, const struct session_sample *ss)
{
	struct out *o = &S->out;
	struct inline_run run = { .on = false };
	ssize_t n;

	if (!S->have_walk) {
		stackwalk__init(&S->walk, S->syms, &S->strs);
		S->walk.no_inline = S->o.no_inline;
		if (S->max_stack < S->walk.max_stack)
			S->walk.max_stack = S->max_stack;
		S->have_walk = true;
	}
	if ((n = stackwalk__chain(&S->walk, ss)) < 0)
		return (int)n;
	for (ssize_t i = 0; i < n; i++) {
		const struct cc_frame *fr = &S->walk.fr[i];
		int cpumode = S->walk.lvl[i] == 'k' ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
		uint64_t addr = fr->ip;
		const struct sym *sym = NULL;
		struct resolved r;

		if (machine__resolve(ss->machine, (int)ss->smp->pid, (int)ss->smp->tid, cpumode, fr->ip, &r))
			return -ENOMEM;
		kernel_map(S, cpumode, fr->ip, &r);
		if (r.found)
			sym = find_sym(S, &r, cpumode, fr->ip, &addr);
		out_char(o, '\t');
		if (f & SCRIPT_F_IP)
			out_hex_w(o, r.found ? addr : fr->ip, 16);
		if (fr->inlined && sym) {
			size_t len = strlen(fr->sym) - (sizeof(" (inlined)") - 1);

			if (f & SCRIPT_F_SYM) {
				out_char(o, ' ');
				out_mem(o, fr->sym, len);
				if (f & SCRIPT_F_SYMOFF) {
					out_str(o, "+0x");
					out_hex(o, addr - sym->start);
				}
			}
			if ((f & SCRIPT_F_SRCLINE) && frame_srcline(S, &run, fr, cpumode, &r, addr, sym && !S->o.no_inline))
				return -ENOMEM;
			out_str(o, " (inlined)");	/* perf's, whatever the fields: in place of the dso */
		} else {
			print_sym_dso(S, f, &r, sym, addr);
			if ((f & SCRIPT_F_SRCLINE) && frame_srcline(S, &run, fr, cpumode, &r, addr, sym && !S->o.no_inline))
				return -ENOMEM;
		}
		if (!fr->inlined)
			run.on = false;
		out_char(o, '\n');
	}
	return 0;
}

/* perf's time column: --reltime from the first sample printed, --deltatime from the last; --ns. */
static void print_time(struct script *S, uint64_t time)
{
	uint64_t t = time;
	char buf[48];

	if (S->o.reltime) {
		if (!S->initial_time)
			S->initial_time = time;
		t = time - S->initial_time;
	} else if (S->o.deltatime) {
		t = S->previous_time ? time - S->previous_time : 0;
		S->previous_time = time;
	}
	if (S->o.ns) {
		snprintf(buf, sizeof(buf), "%5" PRIu64 ".%09" PRIu64 ": ", t / 1000000000, t % 1000000000);
		out_str(&S->out, buf);
		return;
	}
	snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64, t / 1000000000, t % 1000000000 / 1000);
	out_str_w(&S->out, buf, 12);
	out_str(&S->out, ": ");
}

/*
 * -F misc: perf's letters for the record's misc bits, each a test of
 * (misc & value) == value (so that a hypervisor sample, 3, is "KUH"),
 * and the type's own bit, then spaces to six columns (one at least).
 */
static void print_misc(struct out *o, const struct perf_event_header *h)
{
	static const struct {
		uint16_t value;
		char c;
	} modes[] = {
		{ PERF_RECORD_MISC_KERNEL, 'K' }, { PERF_RECORD_MISC_USER, 'U' },
		{ PERF_RECORD_MISC_HYPERVISOR, 'H' }, { PERF_RECORD_MISC_GUEST_KERNEL, 'G' },
		{ PERF_RECORD_MISC_GUEST_USER, 'g' },
	};
	uint16_t misc = h->misc;
	char buf[8];
	int n = 0;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if ((misc & modes[i].value) == modes[i].value)
			buf[n++] = modes[i].c;
	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (misc & PERF_RECORD_MISC_MMAP_DATA)
			buf[n++] = 'M';
		break;
	case PERF_RECORD_COMM:
		if (misc & PERF_RECORD_MISC_COMM_EXEC)
			buf[n++] = 'E';
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (misc & PERF_RECORD_MISC_SWITCH_OUT) {
			buf[n++] = 'S';
			if (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
				buf[n++] = 'p';
		}
		break;
	}
	out_mem(o, buf, (size_t)n);
	pad(o, n < 5 ? 6 - n : 1);
}

/*
 * perf's perf_sample__fprintf_start: the command (unpadded when a chain
 * follows), the pid and tid, the CPU and the time of a sample, or of a
 * side-band record (smp: its sample_id fields).
 */
static void print_start(struct script *S, unsigned f, const char *comm, const struct pd_sample *smp, bool chain,
			const struct perf_event_header *h)
{
	struct out *o = &S->out;

	if (f & SCRIPT_F_COMM) {
		if (S->o.latency)	/* %8.8s */
			out_printf(o, "%8.8s", comm);
		else if (chain)
			out_str(o, comm);
		else
			out_str_w(o, comm, 16);
		out_char(o, ' ');
	}
	if ((f & SCRIPT_F_PID) && (f & SCRIPT_F_TID)) {
		out_dec_w(o, (int32_t)smp->pid, 5, false);
		out_char(o, '/');
		out_dec_w(o, (int32_t)smp->tid, 5, true);
		out_char(o, ' ');
	} else if (f & (SCRIPT_F_PID | SCRIPT_F_TID)) {
		out_dec_w(o, (int32_t)(f & SCRIPT_F_PID ? smp->pid : smp->tid), 5, false);
		out_char(o, ' ');
	}
	if ((f & SCRIPT_F_CPU) && S->o.latency) {
		out_dec_w(o, (int32_t)smp->cpu, 3, false);
		out_char(o, ' ');
	} else if (f & SCRIPT_F_CPU) {
		int32_t cpu = (int32_t)smp->cpu;

		out_char(o, '[');
		if (cpu >= 0)
			for (int d = digits((uint64_t)cpu, 10); d < 3; d++)
				out_char(o, '0');
		else
			out_char(o, '-');
		out_i64(o, cpu < 0 ? -(int64_t)cpu : cpu);
		out_str(o, "] ");
	}
	if (f & SCRIPT_F_MISC)
		print_misc(o, h);
	if (f & SCRIPT_F_TIME)
		print_time(S, smp->time);
}

/*
 * perf's al.filtered: --comms, --pid, --tid, and -S by the name of the
 * sample's symbol; an unresolved sample is hidden by -S.
 */
static bool hidden(struct script *S, const struct session_sample *ss)
{
	const struct report_script_opts *o = &S->o;
	const struct sym *sym = NULL;
	struct resolved r = ss->where;
	uint64_t addr = ss->smp->ip;

	if ((o->comm && !sfilter_listed(o->comm, ss->where.comm)) ||
	    (o->pid && !sfilter_listed_id(o->pid, ss->where.pid)) || (o->tid && !sfilter_listed_id(o->tid, ss->where.tid)))
		return true;
	if (!o->sym)
		return false;
	kernel_map(S, ss->cpumode, ss->smp->ip, &r);
	if (r.found)
		sym = find_sym(S, &r, ss->cpumode, ss->smp->ip, &addr);
	if (!sym)
		return true;
	return !sfilter_listed(o->sym, sym->name);
}

static int max_name_len(const struct script *S)
{
	int w = 0;

	for (size_t i = 0; i < pdata__nr_evsel(S->p); i++) {
		int n = (int)strlen(pdata__evsel(S->p, i)->name);

		if (n > w)
			w = n;
	}
	return w;
}

/*
 * -F insnlen, insn: " ilen: N" and " insn: xx xx ...", the instruction at
 * a user sample's ip as perf reads it from the file that ran (at most 16
 * bytes) and decodes it as x86-64; a length of 0 (and no bytes) where
 * there is no file to read (the kernel, a JIT's map).
 */
static void print_insn(struct script *S, unsigned f, const struct session_sample *ss)
{
	struct resolved r = ss->where;
	uint8_t code[16];
	unsigned len = 0;
	uint64_t addr;
	long n;

	if (S->o.insn_length && ss->cpumode == PERF_RECORD_MISC_USER && r.found &&
	    (r.dso[0] == '/' || !strcmp(r.dso, "[vdso]")) && strncmp(r.dso, "/tmp/perf-", 10)) {
		find_sym(S, &r, ss->cpumode, ss->smp->ip, &addr);
		if ((n = symcache__read(S->syms, r.dso, addr, code, sizeof(code))) > 0)
			len = S->o.insn_length(S->o.insn_ctx, code, (size_t)n);
	}
	if (f & SCRIPT_F_INSNLEN)
		out_printf(&S->out, " ilen: %u", len);
	if (!(f & SCRIPT_F_INSN) || !len)
		return;
	out_str(&S->out, " insn:");
	for (unsigned i = 0; i < len; i++)
		out_printf(&S->out, " %02x", code[i]);
}

static int on_sample(void *arg, const struct session_sample *ss)
{
	struct script *S = arg;
	const struct pd_evsel *ev = pdata__evsel(S->p, (size_t)ss->evsel);
	const struct pd_sample *smp = ss->smp;
	struct out *o = &S->out;
	bool chain;
	unsigned f;
	int err;

	/* perf script has read kallsyms once its first sample is resolved (as far as we can tell). */
	S->kernel_loaded = S->sample_seen;
	S->sample_seen = true;
	if (!S->tf.loaded && (err = tracefmt__load(&S->tf, S->p, S->label)))
		return err;
	if (!S->checked && (err = check_fields(S)))
		return err;
	if (sfilter_skip(&S->filt, smp))
		return 0;	/* perf drops it before it resolves it */
	/* perf resolves every sample, whatever the fields show of it */
	stackwalk_kernel_hit(S->syms, ss->cpumode, &ss->where);
	if ((S->o.comm || S->o.pid || S->o.tid || S->o.sym) && hidden(S, ss))
		return 0;
	f = S->o.type[output_type(&ev->attr)].fields;
	if (!f)
		return 0;
	if (!S->name_width)
		S->name_width = max_name_len(S);
	chain = (f & SCRIPT_F_IP) && S->use_callchain && (ev->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
	print_start(S, f, ss->where.comm, smp, chain,
		    &(struct perf_event_header){ .type = PERF_RECORD_SAMPLE, .misc = (uint16_t)ss->cpumode });
	if (f & SCRIPT_F_PERIOD) {
		uint64_t period = ss->from_read || (ev->attr.sample_type & PERF_SAMPLE_PERIOD) ?
				  ss->period : ev->attr.sample_period;

		pad(o, 10 - digits(period, 10));
		out_u64(o, period);
		out_char(o, ' ');
	}
	if (f & SCRIPT_F_EVENT) {
		out_str_w(o, ev->name, S->name_width);
		out_str(o, ": ");
	}
	if (S->o.flags)
		pad(o, 24);	/* "  %-21s " of perf's branch flags, none without an instruction trace */
	if ((f & SCRIPT_F_TRACE) && S->tf.tep)
		print_trace(S, ss->evsel, ev, smp);
	if (f & SCRIPT_F_IP) {
		if (chain) {
			out_char(o, '\n');
			if ((err = smp->user_regs && smp->stack && smp->stack_size ? print_unwound(S, f, ss) :
				   print_chain(S, f, ss->machine, smp)))
				return mperf_error(err, "out of memory");
		} else {
			const struct sym *sym = NULL;
			uint64_t addr = smp->ip;
			struct resolved r = ss->where;

			out_char(o, ' ');
			out_hex_w(o, smp->ip, 16);
			kernel_map(S, ss->cpumode, smp->ip, &r);
			if (r.found && (f & SCRIPT_F_SYM))
				sym = find_sym(S, &r, ss->cpumode, smp->ip, &addr);
			print_sym_dso(S, f, &r, sym, addr);
			if ((f & SCRIPT_F_SRCLINE) && print_srcline(S, ss->cpumode, &r, smp->ip, false))
				return mperf_error(-ENOMEM, "out of memory");
		}
	}
	if (f & (SCRIPT_F_INSN | SCRIPT_F_INSNLEN))
		print_insn(S, f, ss);
	/* perf's IPC and call indent come from an instruction trace (Intel PT): nothing of a sample */
	out_char(o, '\n');
	return o->err ? -o->err : 0;
}

/* Whether --show-*-events asks for a record of this type. */
static bool side_wanted(const struct script *S, uint32_t type)
{
	switch (type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return S->o.show_task;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return S->o.show_mmap;
	case PERF_RECORD_LOST:
		return S->o.show_lost;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return S->o.show_switch;
	}
	return false;
}

/*
 * A side-band record as perf script's --show-*-events print it: the
 * sample's start (the thread the record names, after the machine applied
 * it; an EXIT's before), then perf_event__fprintf's line, which for these
 * types is -D's but for LOST.  Without sample_id_all, perf takes the
 * pid and tid from the record, CPU and time 0.
 */
static int print_side(struct script *S, const struct session_record *r)
{
	const struct perf_event_header *h = r->h;
	const struct pd_evsel *ev = r->ev ? r->ev : pdata__nr_evsel(S->p) ? pdata__evsel(S->p, 0) : NULL;
	struct pd_sample smp = *r->smp;
	const char *comm = NULL;
	char buf[32], sb[4096];
	int tid = (int)smp.tid, pid = (int)smp.pid;
	struct pd_mmap mm;
	unsigned f;

	if (!ev)
		return 0;
	if (h->type == PERF_RECORD_COMM) {
		struct pd_comm_event e;

		PD_VIEW(h, &e);
		pid = (int)e.pid, tid = (int)e.tid;
	} else if (h->type == PERF_RECORD_FORK || h->type == PERF_RECORD_EXIT) {
		struct pd_fork_event e;

		PD_VIEW(h, &e);
		pid = (int)e.pid, tid = (int)e.tid;
	} else if (pd_mmap_view(h, &mm, sb, sizeof(sb))) {
		pid = (int)mm.pid, tid = (int)mm.tid;
	}
	if (!ev->attr.sample_id_all) {
		smp.cpu = 0, smp.time = 0;
		smp.pid = (uint32_t)pid, smp.tid = (uint32_t)tid;
	}
	if (sfilter_skip_cpu(&S->filt, &smp))
		return 0;	/* perf's filter_cpu, not --time */
	if (!S->tf.loaded || !S->checked) {
		int err = !S->tf.loaded ? tracefmt__load(&S->tf, S->p, S->label) : 0;

		if (err || (!S->checked && (err = check_fields(S))))
			return err;
	}
	f = S->o.type[output_type(&ev->attr)].fields;
	if (r->machine)
		comm = machine__thread_comm(r->machine, tid);
	if (!comm) {
		snprintf(buf, sizeof(buf), ":%d", tid);	/* perf's name of a thread it makes */
		comm = buf;
	}
	print_start(S, f, comm, &smp, (f & SCRIPT_F_IP) && S->use_callchain &&
					  (ev->attr.sample_type & PERF_SAMPLE_CALLCHAIN), h);
	out_str(&S->out, "PERF_RECORD_");
	out_str(&S->out, pd_record_name(h->type));
	if (h->type == PERF_RECORD_LOST) {
		struct pd_lost_event e;

		PD_VIEW(h, &e);
		out_printf(&S->out, " lost %" PRIu64 "\n", e.lost);
	} else {
		dump__details(&S->out, h, &smp, ev, true);
	}
	return S->out.err ? -S->out.err : 0;
}

/* The kernel's MMAP names the symbol its address is given for: kallsyms are moved to it. */
static int on_record(void *arg, const struct session_record *r)
{
	struct script *S = arg;

	symcache__kernel_mmap(S->syms, r->h);
	/* --show-round-events: perf_event__fprintf's line alone, no sample's start */
	if (r->h->type == PD_FINISHED_ROUND && S->o.show_round) {
		out_str(&S->out, "PERF_RECORD_FINISHED_ROUND\n");
		return S->out.err ? -S->out.err : 0;
	}
	/* perf prints an EXIT before its thread goes */
	return r->h->type == PERF_RECORD_EXIT && side_wanted(S, r->h->type) ? print_side(S, r) : 0;
}

static int on_applied(void *arg, const struct session_record *r)
{
	struct script *S = arg;

	return r->h->type != PERF_RECORD_EXIT && side_wanted(S, r->h->type) ? print_side(S, r) : 0;
}

int report__script(struct pdata *p, const char *label, const struct report_script_opts *o, FILE *f)
{
	struct script S = { .p = p, .label = label, .o = *o, .max_stack = o->max_stack ? o->max_stack : MAX_STACK };
	struct session_ops ops = { .record = on_record, .sample = on_sample, .applied = on_applied, .arg = &S,
				   .machine = true, .unordered = o->show_round };
	int ret = 0;

	if (!(S.syms = symcache__for_file(p, o->vmlinux, o->kallsyms, NULL)))
		return -ENOMEM;
	if (out_init(&S.out, f)) {
		symcache__delete(S.syms);
		return mperf_error(-ENOMEM, "out of memory");
	}
	symcache__load_kernel_for(S.syms, p);
	srclines_init(&S.src, S.syms);
	/* A file's events are known now; a stream's come with it (checked at its first sample). */
	ret = sfilter_init(&S.filt, &o->filter, p, label);
	if (!ret && !pdata__is_pipe(p) && !(ret = tracefmt__load(&S.tf, S.p, S.label)))
		ret = check_fields(&S);
	if (!ret)
		ret = session__run(p, label, &ops);
	ret = out_close(&S.out, ret, label);
	tracefmt__release(&S.tf);
	if (S.have_walk)
		stackwalk__release(&S.walk);
	strset_free(&S.strs);
	sfilter_release(&S.filt);
	srclines_release(&S.src);
	symcache__delete(S.syms);
	return ret;
}
