// SPDX-License-Identifier: GPL-2.0-only
/* mperf record: options -> record__run() -> summary and exit status. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../src/host/host.h"
#include "../src/lib/err.h"
#include "../src/perfdata/format.h"
#include "../src/record/record.h"
#include "../src/stat/stat.h"
#include "cmd.h"
#include "options.h"

/*
 * The synopsis (up to the first blank line) is the SYNOPSIS of
 * man/mperf-record.1, word for word (t0020 compares them).
 */
static const char record_usage[] =
	"usage: mperf record [-e list [--filter filter]]... [-F hz | -c period] [-g | --call-graph mode]\n"
	"                    [-m pages] [-o file] [-q] [--] cmd [args]\n"
	"   or: mperf record [-e list [--filter filter]]... [options] {-p pid | -t tid | -a | -C cpus}\n"
	"                    [[--] cmd [args]]\n"
	"   or: mperf record -h\n"
	"\n";

/* What follows the options in -h: the syntax of -e. */
static const char record_events_help[] =
	"\n"
	"EVENTS (perf's syntax; mperf record -e accepts what perf record -e does;\n"
	"        'mperf list' shows the events of this machine)\n"
	"    NAME[:MODS]           cycles instructions cache-references cache-misses branches\n"
	"                          branch-misses bus-cycles ref-cycles stalled-cycles-frontend\n"
	"                          stalled-cycles-backend cpu-clock task-clock page-faults (faults)\n"
	"                          minor-faults major-faults context-switches (cs) cpu-migrations\n"
	"                          (migrations) alignment-faults emulation-faults dummy bpf-output\n"
	"                          cgroup-switches; cache events like L1-dcache-load-misses\n"
	"    rHEX[:MODS]           raw PMU config, e.g. r1a8\n"
	"    PMU/TERMS/[MODS]      a PMU of /sys/bus/event_source/devices, e.g. software/config=0/;\n"
	"                          TERMS: config=, config1=, config2=, period=, freq=, name=, the\n"
	"                          PMU's format/ fields and events/ aliases, and the call graph\n"
	"                          terms; NAME/TERMS/ and rHEX/TERMS/ too: cpu-clock/period=1000/\n"
	"    call graph terms      call-graph=fp|dwarf|no, stack-size=SIZE (dwarf's stack copy),\n"
	"                          max-stack=DEPTH: this event's call graph, instead of -g or\n"
	"                          --call-graph, e.g. cpu-clock/call-graph=dwarf,stack-size=4096/\n"
	"    mem:ADDR[/LEN][:rwx][:MODS]  a hardware breakpoint\n"
	"    SYS:NAME[/TERMS/][:MODS]  a tracepoint (tracefs mounted); globs: 'sched:*'; TERMS:\n"
	"                          the call graph terms only\n"
	"    {EV,EV,...}[:MODS]    a group; {...}:S leader sampling (the leader reads the members)\n"
	"    MODS: u user, k kernel, h hypervisor, G guest, H host, I no idle, p/pp/ppp precise,\n"
	"          P max precise, S leader sampling (groups only), D pinned, e exclusive\n";

/* One line and a hint, never the whole usage for one bad value. */
#define usage_error(...) cmd_usage_error("record", __VA_ARGS__)

/* A decimal number, as perf reads -c and -F (0100000 is a hundred thousand, not octal). */
static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return *end || errno ? -1 : 0;
}

/*
 * -F: a rate, or "max", which is perf_event_max_sample_rate; above that
 * rate perf throttles to it with a warning (--strict-freq refuses).
 */
static int parse_freq(const char *arg, bool strict, uint64_t *freq)
{
	int max = host_max_sample_rate();

	if (!strcasecmp(arg, "max")) {
		if (max <= 0)
			return usage_error("%s", "-F max: cannot read kernel.perf_event_max_sample_rate (is /proc mounted?)");
		fprintf(stderr, "info: Using a maximum frequency rate of %d Hz\n", max);
		*freq = (uint64_t)max;
		return 0;
	}
	if (parse_u64(arg, freq) || !*freq)
		return usage_error("invalid frequency '%s' for -F/--freq (samples per second, a positive decimal number, or max)", arg);
	if (max > 0 && *freq > (uint64_t)max) {
		if (strict)
			return usage_error("Maximum frequency rate (%d Hz) exceeded: -F %llu (--strict-freq)", max,
					   (unsigned long long)*freq);
		fprintf(stderr, "warning: Maximum frequency rate (%d Hz) exceeded, throttling from %llu Hz to %d Hz.\n"
			"         The limit can be raised via /proc/sys/kernel/perf_event_max_sample_rate.\n"
			"         The kernel will lower it when perf's interrupts take too long.\n"
			"         Use --strict-freq to disable this throttling, refusing to record.\n",
			max, (unsigned long long)*freq, max);
		*freq = (uint64_t)max;
	}
	return 0;
}

/* perf's size in its units: 16K, 4M, 1024B. */
static void size_name(uint64_t n, char *buf, size_t len)
{
	static const char units[] = "BKMG";
	int i = 0;

	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(buf, len, "%llu%c", (unsigned long long)n, units[i]);
}

/*
 * A number, or a size with a B, K, M or G suffix (perf's tags): *v the
 * number, *mult the suffix's bytes (0: none).
 */
static int parse_size(const char *s, uint64_t *v, uint64_t *mult)
{
	char *end;

	*mult = 0;
	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case 0: break;
	case 'B': case 'b': *mult = 1; break;
	case 'K': case 'k': *mult = 1ULL << 10; break;
	case 'M': case 'm': *mult = 1ULL << 20; break;
	case 'G': case 'g': *mult = 1ULL << 30; break;
	default: return -1;
	}
	if (*end && end[1])
		return -1;
	return *mult && *v > UINT64_MAX / *mult ? -1 : 0;
}

/*
 * -m DATA[,AUX]: DATA is pages, or a size with a B, K, M or G suffix;
 * rounded up to a power of two of pages as perf does (saying so in
 * *rounded).  AUX (for AUX-area tracing) is accepted and unused.
 */
static int parse_mmap_pages(const char *arg, size_t *pages, bool *rounded)
{
	const long page = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;
	const char *comma = strchr(arg, ',');
	char data[64];
	uint64_t v, mult, p = 1;

	*rounded = false;
	if ((size_t)(comma ? comma - arg : (ptrdiff_t)strlen(arg)) >= sizeof(data))
		return -1;
	snprintf(data, sizeof(data), "%.*s", comma ? (int)(comma - arg) : (int)strlen(arg), arg);
	if (comma) {
		size_t aux;
		bool r;

		if (strchr(comma + 1, ',') || (comma[1] && parse_mmap_pages(comma + 1, &aux, &r)))
			return -1;
	}
	if (!data[0])
		return 0;	/* ",AUX": the data size stays */
	if (parse_size(data, &v, &mult))
		return -1;
	if (mult)
		v = (v * mult + (uint64_t)page - 1) / (uint64_t)page;
	while (p < v && p <= RECORD_MAX_PAGES)
		p <<= 1;
	if (p > RECORD_MAX_PAGES)
		return -1;
	*rounded = p != v;
	*pages = (size_t)p;
	return 0;
}

/*
 * -z, --compression-level[=N]: zstd's level N, 1 (fastest, -z alone) to
 * 22.  perf 6.1 takes anything (0 or a word as 1, above 22 as 22): a
 * level out of range is refused here rather than changed silently.
 */
static int parse_comp_level(const char *arg, int *level)
{
	uint64_t v;

	if (!arg) {
		*level = 1;
		return 0;
	}
	if (parse_u64(arg, &v) || v < 1 || v > 22)
		return usage_error("invalid compression level '%s' for -z/--compression-level (1 to 22)", arg);
	*level = (int)v;
	return 0;
}

/*
 * --switch-output[=WHEN], as perf 6.1 reads it: signal (the default) is
 * SIGUSR2; a size is a number with B, K, M or G; a time one with s, m, h
 * or d (1M is a mebibyte, 1m a minute).
 */
static int parse_switch_output(const char *arg, struct record_switch *sw)
{
	static const struct { char tag; uint64_t mult; bool time; } tags[] = {
		{ 'B', 1, false }, { 'K', 1ULL << 10, false }, { 'M', 1ULL << 20, false }, { 'G', 1ULL << 30, false },
		{ 's', 1, true }, { 'm', 60, true }, { 'h', 3600, true }, { 'd', 86400, true },
	};
	uint64_t v;
	char *end;

	sw->enabled = true;
	sw->signal = false;
	sw->size = sw->secs = 0;
	if (!arg || !strcmp(arg, "signal")) {
		sw->signal = true;
		return 0;
	}
	errno = 0;
	v = isdigit((unsigned char)arg[0]) ? strtoull(arg, &end, 10) : 0;
	for (size_t i = 0; v && !errno && i < sizeof(tags) / sizeof(tags[0]); i++) {
		if (end[0] != tags[i].tag || end[1] || v > UINT64_MAX / tags[i].mult)
			continue;
		if (tags[i].time)
			sw->secs = v * tags[i].mult;
		else
			sw->size = v * tags[i].mult;
		return 0;
	}
	return usage_error("invalid --switch-output '%s' (signal, a size with B, K, M or G, or a time with s, m, h or d)",
			   arg);
}

/*
 * -k/--clockid CLOCK: perf's name or alias of a clock (CLOCK_ before it
 * and any case too), or its number; given once, as perf takes it.
 */
static int parse_clockid(const char *arg, struct record_opts *o)
{
	char *end;
	long v;

	if (o->use_clockid)
		return usage_error("-k/--clockid given twice: '%s'", arg);
	errno = 0;
	v = strtol(arg, &end, 10);
	if (*arg && !*end && !errno && v >= INT_MIN && v <= INT_MAX)
		o->clockid = (int)v;
	else if (pd_clock_parse(arg, &o->clockid))
		return usage_error("unknown clockid '%s' for -k/--clockid (monotonic, monotonic_raw, realtime, "
				   "boottime, tai, or a number)", arg);
	o->use_clockid = true;
	return 0;
}

/*
 * --call-graph MODE[,ARGS]: fp is frame-pointer call chains (what -g
 * records); dwarf[,SIZE] copies SIZE bytes of the user stack (perf's
 * 8192 by default; rounded up to 8, at most 65528, as perf takes it) and
 * the user registers, for report to unwind.  lbr needs Intel's last
 * branch records: refused in one line (exit 1), as perf fails to open it
 * without them.
 */
static int parse_call_graph(const char *arg, struct record_opts *o)
{
	size_t len = strcspn(arg, ",");

	if (len == 2 && !strncmp(arg, "fp", 2)) {
		if (arg[len])
			return usage_error("--call-graph fp takes no more arguments: '%s'", arg);
		o->callchain = true;
		o->dwarf = false;
		return 0;
	}
	if (len == 5 && !strncmp(arg, "dwarf", 5)) {
		const char *sz = arg[len] ? arg + len + 1 : NULL;
		unsigned long long v = RECORD_DEFAULT_STACK_SIZE;
		char *end;

		if (sz) {
			/* perf reads the size in C's bases (0x2000 is 8192) */
			errno = 0;
			v = isdigit((unsigned char)*sz) ? strtoull(sz, &end, 0) : 0;
			if (!isdigit((unsigned char)*sz) || *end || errno)
				v = 0;
			v = (v + 7) & ~7ULL;
			if (!v || v > RECORD_MAX_STACK_SIZE)
				return usage_error("incorrect stack dump size (max %d): '%s'", RECORD_MAX_STACK_SIZE, sz);
		}
		o->dwarf = true;
		o->callchain = false;
		o->stack_size = (uint32_t)v;
		return 0;
	}
	if (len == 3 && !strncmp(arg, "lbr", 3)) {
		if (access("/sys/bus/event_source/devices/cpu/caps/branches", F_OK))
			cmd_error("record", "--call-graph lbr needs a PMU with last branch records, and this machine has none");
		else
			cmd_error("record", "--call-graph lbr is not supported yet (use fp or dwarf)");
		return EXIT_MPERF;
	}
	return usage_error("unknown --call-graph mode '%s' (fp, dwarf[,SIZE] or lbr)", arg);
}

/*
 * The x86_64 user registers --user-regs offers: those of the mask a DWARF
 * call graph samples (the kernel samples no segment register but CS and
 * SS there), named by perfdata's register table, the names -D prints.
 */
static const char *user_reg_name(int bit)
{
	return RECORD_DWARF_REGS >> bit & 1 ? pd_reg_name("x86", (unsigned int)bit) : NULL;
}

/*
 * --user-regs[=REG,...]: sample those user registers (all of them without
 * a list); '?' lists the names, as perf does.  0, or the exit status.
 */
static int parse_user_regs(const char *arg, uint64_t *mask, bool *listed_only)
{
	*listed_only = false;
	if (!arg || !*arg) {
		*mask = RECORD_DWARF_REGS;
		return 0;
	}
	if (!strcmp(arg, "?")) {
		fputs("available registers:", stdout);
		for (int bit = 0; bit < 64; bit++)
			if (user_reg_name(bit))
				printf(" %s", user_reg_name(bit));
		putchar('\n');
		*listed_only = true;
		return 0;
	}
	*mask = 0;
	for (const char *p = arg; *p; ) {
		size_t n = strcspn(p, ",");
		const char *name = NULL;
		int bit;

		for (bit = 0; bit < 64; bit++)
			if ((name = user_reg_name(bit)) && strlen(name) == n && !strncasecmp(p, name, n))
				break;
		if (bit == 64)
			return usage_error("unknown register '%.*s' in --user-regs (--user-regs=? lists them)", (int)n, p);
		*mask |= 1ULL << bit;
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

/* The classes of options, for the conflicts. */
enum {
	REC_FREQ = 1 << 0, REC_COUNT = 1 << 1, REC_QUIET = 1 << 2, REC_VERBOSE = 1 << 3,
	REC_ALL_USER = 1 << 4, REC_ALL_KERNEL = 1 << 5,
};

static const struct cmd_opt record_opts_table[] = {
	{ 'e', 'e', "event", CMD_ARG_REQUIRED, "LIST",
	  "events to sample, comma-separated; -e may be repeated\n"
	  "(default: cycles:P, as perf); see EVENTS below" },
	{ 'f', 0, "filter", CMD_ARG_REQUIRED, "FILTER",
	  "a tracepoint filter (kernel syntax: 'prev_pid == 0 && cpu == 1')\n"
	  "for the tracepoints of the -e before it; may be repeated: (a) && (b)" },
	{ 'F', 'F', "freq", CMD_ARG_REQUIRED, "HZ|max",
	  "sample at HZ samples per second (default: 4000); above\n"
	  "kernel.perf_event_max_sample_rate, or with max, that rate", NULL, REC_FREQ },
	{ 'S', 0, "strict-freq", CMD_ARG_NONE, NULL, "refuse a -F above that rate instead of throttling to it" },
	{ 'c', 'c', "count", CMD_ARG_REQUIRED, "PERIOD", "sample every PERIOD events (decimal; instead of -F)", NULL,
	  REC_COUNT },
	{ 'm', 'm', "mmap-pages", CMD_ARG_REQUIRED, "N[,A]",
	  "data pages per CPU buffer, or a size with B, K, M or G;\n"
	  "rounded up to a power of two (default: 128); A (AUX) unused" },
	{ 'M', 0, "mmap-flush", CMD_ARG_REQUIRED, "BYTES",
	  "drain a buffer once it holds BYTES (B, K, M or G; default 1,\n"
	  "at most a quarter of the buffer); the last drain takes all" },
	{ 'z', 'z', "compression-level", CMD_ARG_OPTIONAL, "[=N]",
	  "write the buffers' data as zstd COMPRESSED records, level N\n"
	  "(1 to 22; -z: 1), compressed beside the drain" },
	{ 'D', 'D', "delay", CMD_ARG_REQUIRED, "MS",
	  "start the events MS ms after the command (-1: disabled\n"
	  "until a --control command enables them); the maps and\n"
	  "comms are recorded from the start" },
	{ 'L', 0, "control", CMD_ARG_REQUIRED, "SPEC",
	  "fifo:CTL[,ACK] or fd:CTL[,ACK]: take commands from CTL, one\n"
	  "a line: enable, disable [EVENT], snapshot, stop, ping,\n"
	  "evlist; each acknowledged on ACK with \"ack\\n\", as perf" },
	{ 'x', 0, "max-size", CMD_ARG_REQUIRED, "SIZE",
	  "stop once the data reaches SIZE bytes (B, K, M or G), the\n"
	  "file finished and the workload ended, as perf" },
	{ 'o', 'o', "output", CMD_ARG_REQUIRED, "FILE",
	  "output file (default: perf.data; an old file or directory\n"
	  "becomes FILE.old, as perf);\n"
	  "- writes a pipe-mode stream to standard output" },
	{ 'w', 0, "timestamp-filename", CMD_ARG_NONE, NULL,
	  "rename the finished file FILE.YYYYMMDDhhmmssCC (the time\n"
	  "it ended, to the hundredth of a second), as perf" },
	{ 'V', 0, "switch-output", CMD_ARG_OPTIONAL, "[=WHEN]",
	  "end the file and begin the next, each whole and renamed as\n"
	  "--timestamp-filename does: on SIGUSR2 (signal, the default),\n"
	  "when it holds SIZE (B, K, M, G), or every TIME (s, m, h, d)" },
	{ 'J', 0, "switch-max-files", CMD_ARG_REQUIRED, "N",
	  "with --switch-output, keep the last N files (0: all)" },
	{ 'O', 0, "overwrite", CMD_ARG_NONE, NULL,
	  "a flight recorder: the events' buffers keep their newest\n"
	  "samples, written at the end (and on SIGUSR2 with\n"
	  "--switch-output); the maps and comms are all kept" },
	{ 'Y', 0, "threads", CMD_ARG_OPTIONAL, "[=SPEC]",
	  "perf's parallel streaming: FILE is a directory, FILE/data and\n"
	  "a FILE/data.N per CPU buffer, drained by a thread per mask of\n"
	  "SPEC: cpu (the default), core, package, numa, or MAPS/AFF[:...]" },
	{ 'p', 'p', "pid", CMD_ARG_REQUIRED, "PID[,PID]",
	  "sample running processes, all their threads (until they\n"
	  "exit, CMD ends, or SIGINT/SIGTERM)" },
	{ 't', 't', "tid", CMD_ARG_REQUIRED, "TID[,TID]", "sample running threads only (implies --no-inherit)" },
	{ 'a', 'a', "all-cpus", CMD_ARG_NONE, NULL, "sample every task on every CPU" },
	{ 'C', 'C', "cpu", CMD_ARG_REQUIRED, "CPUS", "sample every task on these CPUs (0-1,3)" },
	{ 'P', 0, "per-thread", CMD_ARG_NONE, NULL, "events per thread, not per CPU (no timestamps without -T)" },
	{ 'g', 'g', NULL, CMD_ARG_NONE, NULL, "record call chains (frame pointers), as --call-graph fp" },
	{ 'G', 0, "call-graph", CMD_ARG_REQUIRED, "MODE",
	  "call chains: fp (frame pointers), or dwarf[,SIZE]: the user\n"
	  "registers and SIZE bytes of user stack (default 8192, at\n"
	  "most 65528), unwound by report; lbr is refused" },
	{ 'U', 0, "user-regs", CMD_ARG_OPTIONAL, "[=REGS]",
	  "sample user registers (all, or a list: AX,BX,...;\n"
	  "--user-regs=? lists them)" },
	{ 'E', 0, "sample-cpu", CMD_ARG_NONE, NULL, "samples say their CPU (CPU in every sample)" },
	{ 'R', 'R', "raw-samples", CMD_ARG_NONE, NULL, "samples carry their raw data (RAW, with CPU and TIME)" },
	{ 'u', 0, "all-user", CMD_ARG_NONE, NULL, "every event samples user space only (exclude_kernel)", NULL,
	  REC_ALL_USER },
	{ 'b', 0, "all-kernel", CMD_ARG_NONE, NULL, "every event samples the kernel only (exclude_user)", NULL,
	  REC_ALL_KERNEL },
	{ 's', 's', "stat", CMD_ARG_NONE, NULL, "per-thread counts: READ records at each thread's exit" },
	{ 'd', 'd', "data", CMD_ARG_NONE, NULL, "sample data addresses (ADDR, DATA_SRC, data mmaps)" },
	{ 'W', 'W', "weight", CMD_ARG_NONE, NULL, "sample weights" },
	{ 'X', 0, "switch-events", CMD_ARG_NONE, NULL, "record context switches" },
	{ 'n', 0, "namespaces", CMD_ARG_NONE, NULL, "record namespace information" },
	{ 'B', 0, "no-bpf-event", CMD_ARG_NONE, NULL, "do not ask for BPF program events (bpf_event)" },
	{ 'i', 0, "no-inherit", CMD_ARG_NONE, NULL, "do not follow the workload's children" },
	{ 'T', 'T', "timestamp", CMD_ARG_NONE, NULL, "sample times, also --per-thread" },
	{ 'k', 'k', "clockid", CMD_ARG_REQUIRED, "CLOCK",
	  "sample times from CLOCK: monotonic, monotonic_raw,\n"
	  "realtime, boottime, tai (mono, raw, real, boot), or a number" },
	{ 'N', 'N', "no-buildid-cache", CMD_ARG_NONE, NULL,
	  "do not add the DSOs the samples hit to the build-id\n"
	  "cache (~/.debug), which record fills as it ends" },
	{ 'K', 0, "check", CMD_ARG_NONE, NULL,
	  "exit 3 when an event lost samples, was throttled, ran less than\n"
	  "enabled, or is more than the tolerance below a like event\n"
	  "(the workload's own failure wins: see --check-status)" },
	{ 'y', 0, "check-tolerance", CMD_ARG_REQUIRED, "PCT", "how far like events may differ (default: 5)" },
	{ 'Z', 0, "check-status", CMD_ARG_REQUIRED, "N",
	  "exit N (1 to 124) when the check fails, instead of 3: one the\n"
	  "workload never exits with, to tell the two apart" },
	{ 'j', 0, "json-summary", CMD_ARG_REQUIRED, "FILE",
	  "every event's samples, lost, throttles as JSON (see mperf-record(1))" },
	{ 'q', 'q', "quiet", CMD_ARG_NONE, NULL, "print only errors, the check's findings and lost samples", NULL, REC_QUIET },
	{ 'v', 'v', "verbose", CMD_ARG_NONE, NULL, "also print each perf_event_open", NULL, REC_VERBOSE },
	{ 'h', 'h', "help", CMD_ARG_NONE, NULL, "show this help" },
};

static const struct cmd_conflict record_conflicts[] = {
	{ { REC_FREQ }, { REC_COUNT }, 0,
	  "-F and -c cannot be used together: -F samples at a rate, -c every PERIOD events" },
	{ { REC_QUIET }, { REC_VERBOSE }, 0, "-q and -v cannot be used together" },
	{ { REC_ALL_USER }, { REC_ALL_KERNEL }, 0, "--all-user and --all-kernel cannot be used together" },
};

/* What the options ask for. */
struct record_args {
	struct record_event events[RECORD_MAX_EVENTS];
	size_t nr_events, last_e;	/* events[last_e..nr_events): the last -e's */
	struct record_opts o;
	const char *json_summary;
	struct cmd_out summary;		/* --json-summary's file, open before the recording */
	const char *freq_arg;		/* checked once --strict-freq is known */
	double tolerance;
	int check_status;
	bool check, quiet, verbose, have_c, strict_freq, rounded;
};

/* The options that set one flag of struct record_opts. */
static bool *record_flag(struct record_opts *o, int id)
{
	switch (id) {
	case 's': return &o->stat;
	case 'E': return &o->sample_cpu;
	case 'R': return &o->raw_samples;
	case 'u': return &o->all_user;
	case 'b': return &o->all_kernel;
	case 'w': return &o->timestamp_filename;
	case 'O': return &o->overwrite;
	case 'd': return &o->data_addr;
	case 'W': return &o->weight;
	case 'X': return &o->switch_events;
	case 'n': return &o->namespaces;
	case 'B': return &o->no_bpf_event;
	case 'i': return &o->no_inherit;
	case 'T': return &o->sample_time;	/* samples carry their time by default; -T also per thread */
	case 'N': return &o->no_buildid_cache;
	case 'a': return &o->system_wide;
	case 'P': return &o->per_thread;
	}
	return NULL;
}

/* The options whose argument is kept as given, checked where it is used. */
static const char **record_string(struct record_args *a, int id)
{
	switch (id) {
	case 'p': return &a->o.pids;
	case 't': return &a->o.tids;
	case 'C': return &a->o.cpu_list;
	case 'o': return &a->o.output;
	case 'j': return &a->json_summary;
	case 'F': return &a->freq_arg;	/* checked once --strict-freq is known */
	}
	return NULL;
}

/* The options with a number or a size for argument. */
static int record_number(struct record_args *a, int id, char *arg)
{
	struct record_opts *o = &a->o;
	uint64_t v, mult;
	long lv;

	switch (id) {
	case 'c':
		if (parse_u64(arg, &v) || !v)
			return usage_error("invalid period '%s' for -c/--count (events per sample, a positive decimal number)", arg);
		o->period = v;
		o->freq = 0;
		o->rate_given = true;
		a->have_c = true;
		break;
	case 'm':
		if (parse_mmap_pages(arg, &o->mmap_pages, &a->rounded))
			return usage_error("invalid argument for -m/--mmap-pages: '%s' (pages, or a size in B, K, M or G, up to %u pages)",
					   arg, RECORD_MAX_PAGES);
		break;
	case 'M':
		if (parse_size(arg, &v, &mult))
			return usage_error("invalid --mmap-flush '%s' (bytes, or a size in B, K, M or G)", arg);
		o->mmap_flush = mult ? v * mult : v;
		break;
	case 'x':
		if (parse_size(arg, &v, &mult) || !(mult ? v * mult : v))
			return usage_error("invalid --max-size '%s' (bytes, or a size in B, K, M or G)", arg);
		o->max_size = mult ? v * mult : v;
		break;
	case 'D':
		if (cmd_parse_long(arg, -1, INT_MAX, &lv))
			return usage_error("invalid -D/--delay '%s' (milliseconds, or -1: start disabled)", arg);
		o->delay_ms = (int)lv;
		break;
	case 'J':
		if (cmd_parse_long(arg, 0, INT_MAX, &lv))
			return usage_error("invalid --switch-max-files '%s' (the number of files kept, 0: all)", arg);
		o->switch_output.max_files = (unsigned)lv;
		break;
	case 'y':
		if (cmd_parse_tolerance(arg, &a->tolerance))
			return usage_error("invalid --check-tolerance '%s' (a percentage, 0 to 100)", arg);
		break;
	case 'Z':
		if (cmd_parse_check_status(arg, &a->check_status))
			return usage_error("invalid --check-status '%s' (an exit status, 1 to 124)", arg);
		break;
	}
	return 0;
}

/* -e: each adds its events; the parser says what is wrong in one line. */
static int record_events(struct record_args *a, const char *arg)
{
	a->last_e = a->nr_events;
	if (cmd_parse_events("record", arg, a->events, &a->nr_events))
		return EXIT_USAGE;
	for (size_t i = a->last_e; i < a->nr_events; i++)
		if (a->events[i].attr.type == RECORD_TYPE_TOOL)
			return cmd_usage_error("record", "'%s' is a tool event: mperf stat counts it, record cannot sample it",
					       a->events[i].name);
	return 0;
}

static int record_option(void *ctx, const struct cmd_opt *opt, char *arg)
{
	struct record_args *a = ctx;
	struct record_opts *o = &a->o;
	bool *flag = record_flag(o, opt->id), listed_only;
	const char **str = record_string(a, opt->id);
	int ret;

	if (flag) {
		*flag = true;
		return 0;
	}
	if (str) {
		*str = arg;
		o->rate_given |= opt->id == 'F';
		return 0;
	}
	switch (opt->id) {
	case 'g':
		o->callchain = true;
		o->dwarf = false;
		return 0;
	case 'G':
		return parse_call_graph(arg, o);
	case 'U':
		if ((ret = parse_user_regs(arg, &o->user_regs, &listed_only)))
			return ret;
		return listed_only ? CMD_EXIT_OK : 0;
	case 'v': a->verbose = true; return 0;
	case 'S': a->strict_freq = true; return 0;
	case 'q': a->quiet = true; return 0;
	case 'K': a->check = true; return 0;
	case 'e':
		return record_events(a, arg);
	case 'f':
		/* As perf: for every event of the -e before it; said in one line. */
		return record__add_filter(a->events, a->last_e, a->nr_events, arg) < 0 ? EXIT_USAGE : 0;
	case 'z':
		return parse_comp_level(arg, &o->comp_level);
	case 'L':
		return record__parse_control(arg, &o->control) < 0 ? EXIT_USAGE : 0;
	case 'k':
		return parse_clockid(arg, o);
	case 'V':
		return parse_switch_output(arg, &o->switch_output);
	case 'Y':
		if (arg && !record__threads_spec_ok(arg))
			return usage_error("invalid --threads '%s' (cpu, core, package, numa, or MAPS/AFFINITY[:MAPS/AFFINITY]... of CPU lists)",
					   arg);
		o->threads = arg ? arg : "";
		return 0;
	}
	return record_number(a, opt->id, arg);
}

static const struct cmd_options record_options = {
	.cmd = "record",
	.usage = record_usage,
	.trailer = record_events_help,
	.help_col = 26,
	.stop_at_operand = true,
	.opts = record_opts_table,
	.nr_opts = sizeof(record_opts_table) / sizeof(record_opts_table[0]),
	.conflicts = record_conflicts,
	.nr_conflicts = sizeof(record_conflicts) / sizeof(record_conflicts[0]),
	.set = record_option,
};

/* --switch-output's files, said as perf says them (not with -q). */
static void say_dumped(void *ctx, const char *path, uint64_t wakeups)
{
	const struct record_args *a = ctx;

	if (a->quiet)
		return;
	fprintf(stderr, "[ mperf record: dump data: Woken up %llu times ]\n", (unsigned long long)wakeups);
	fprintf(stderr, "[ mperf record: Dump %s ]\n", path);
}

/*
 * --switch-output: files, renamed as --timestamp-filename does, said as
 * they are done; perf's warning when a size is below half a buffer,
 * where the kernel wakes the drain.  0, or the exit status.
 */
static int settle_switch(struct record_args *a)
{
	struct record_switch *sw = &a->o.switch_output;
	uint64_t wakeup = ((uint64_t)a->o.mmap_pages + 1) * (uint64_t)sysconf(_SC_PAGESIZE) / 2;

	if (!sw->enabled)
		return 0;
	if (!strcmp(a->o.output, "-"))
		return usage_error("%s", "--switch-output writes one file after another: not with -o -");
	a->o.timestamp_filename = true;
	sw->dumped = say_dumped;
	sw->ctx = a;
	if (sw->size && sw->size < wakeup && !a->quiet) {
		char size[32];

		size_name(wakeup, size, sizeof(size));
		fprintf(stderr, "WARNING: switch-output data size lower than wakeup kernel buffer size (%s) expect bigger perf.data sizes\n",
			size);
	}
	return 0;
}

/*
 * --threads writes perf's directory: what perf refuses with it (a stream,
 * --per-thread, --switch-output).
 */
static int settle_threads(const struct record_opts *o)
{
	if (!o->threads)
		return 0;
	if (!strcmp(o->output, "-"))
		return usage_error("%s", "--threads writes a directory: not with -o - (perf: parallel streaming is not available in pipe mode)");
	if (o->per_thread)
		return usage_error("%s", "--threads drains CPU buffers: not with --per-thread");
	if (o->switch_output.enabled)
		return usage_error("%s", "--switch-output is not available with --threads (parallel streaming), as in perf");
	return 0;
}

/*
 * What the options mean together, once all are known: the conflicts, -F
 * against the kernel's rate, the default rate, -m's rounding said, a
 * target; then the default event.  0, or the exit status.
 */
static int record_settle(struct record_args *a, int argc, char **argv, const struct cmd_parse *parse)
{
	struct record_opts *o = &a->o;
	int ret;

	if ((ret = cmd_options_conflicts(parse)))
		return ret;
	if (a->json_summary && !strcmp(a->json_summary, "-") && !strcmp(o->output, "-"))
		return usage_error("%s", "--json-summary - and -o - cannot both use standard output");
	if (o->timestamp_filename && !strcmp(o->output, "-"))
		return usage_error("%s", "--timestamp-filename renames a file: not with -o -");
	if ((ret = settle_switch(a)) || (ret = settle_threads(o)))
		return ret;
	if (o->dwarf && o->user_regs && (o->user_regs | RECORD_MINIMAL_REGS) != RECORD_DWARF_REGS && !a->quiet)
		fprintf(stderr, "warning: --call-graph dwarf may need every user register: with --user-regs, "
			"ip and sp are added and unwinding may stop early\n");
	if (a->freq_arg && (ret = parse_freq(a->freq_arg, a->strict_freq, &o->freq)))
		return ret;
	if (!a->freq_arg && !a->have_c) {
		/*
		 * The kernel lowers kernel.perf_event_max_sample_rate itself when
		 * its sampling interrupts take too long (a busy VM): the default
		 * rate follows it down, as perf's does, rather than fail.
		 */
		int max = host_max_sample_rate();

		if (max > 0 && o->freq > (uint64_t)max) {
			if (!a->quiet)
				fprintf(stderr, "info: Lowering default frequency rate from %llu to %d.\n"
					"Please consider tweaking /proc/sys/kernel/perf_event_max_sample_rate.\n",
					(unsigned long long)o->freq, max);
			o->freq = (uint64_t)max;
		}
	}
	if (a->rounded && !a->quiet) {
		char size[32];

		size_name((uint64_t)o->mmap_pages * (uint64_t)sysconf(_SC_PAGESIZE), size, sizeof(size));
		fprintf(stderr, "rounding mmap pages size to %s (%zu pages)\n", size, o->mmap_pages);
	}
	if (optind >= argc && !o->pids && !o->tids && !o->system_wide && !o->cpu_list)
		return usage_error("%s", "no command given to run, and no target (-p, -t, -a, -C) to sample");
	if (!a->nr_events) {
		char vendor[64];

		host_cpu_vendor(vendor, sizeof(vendor));
		if (record__default_event(a->events, RECORD_MAX_EVENTS, &a->nr_events, !strcmp(vendor, "AuthenticAMD")) < 0)
			return EXIT_MPERF;
	}
	o->events = a->events;
	o->nr_events = a->nr_events;
	o->argv = optind < argc ? argv + optind : NULL;
	return 0;
}

/* perf's summary of the recording on stderr, and the losses whenever they could hide a problem. */
static void record_summary(const struct record_args *a, const struct record_result *res)
{
	size_t nr_user = 0;
	char output[4200];

	snprintf(output, sizeof(output), "%s%s", a->o.output, res->renamed[0] ? ".<timestamp>" : "");

	if (res->size_limited)
		fprintf(stderr, "[ mperf record: perf size limit reached (%llu KB), stopping session ]\n",
			(unsigned long long)(res->data_size >> 10));
	if (!a->quiet) {
		fprintf(stderr, "[ mperf record: Woken up %llu times to write data ]\n",
			(unsigned long long)res->file_wakeups);
		/* perf says the new name, then the old one with <timestamp> for the date */
		if (res->renamed[0])
			fprintf(stderr, "[ mperf record: Dump %s ]\n", res->renamed);
		if (a->o.comp_level)
			fprintf(stderr, "[ mperf record: Captured and wrote %.3f MB %s, compressed (original %.3f MB, ratio is %.3f) (%llu samples) ]\n",
				(double)res->file_size / 1024.0 / 1024.0, output,
				(double)res->comp_in / 1024.0 / 1024.0,
				res->comp_out ? (double)res->comp_in / (double)res->comp_out : 0.0,
				(unsigned long long)res->samples);
		else
			fprintf(stderr, "[ mperf record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
				(double)res->file_size / 1024.0 / 1024.0, output,
				(unsigned long long)res->samples);
	}
	for (size_t i = 0; i < res->nr_events; i++)
		nr_user += !res->ev[i].tracking;
	for (size_t i = 0; i < res->nr_events; i++) {
		if (res->ev[i].tracking && !res->ev[i].lost)
			continue;	/* perf's dummy:HG of -a/-C: it samples nothing */
		if (res->ev[i].lost || (!a->quiet && nr_user > 1))
			fprintf(stderr, "[ mperf record: event '%s': %llu samples, %llu lost ]\n",
				res->ev[i].name, (unsigned long long)res->ev[i].samples,
				(unsigned long long)res->ev[i].lost);
	}
	for (size_t i = 0; i < res->nr_events; i++)
		if (res->ev[i].throttles)
			fprintf(stderr, "[ mperf record: event '%s' was throttled %llu times: the kernel stopped its sampling for a while (over kernel.perf_event_max_sample_rate) ]\n",
				res->ev[i].name, (unsigned long long)res->ev[i].throttles);
	if (res->lost_records)
		fprintf(stderr, "[ mperf record: %llu LOST records: %llu events lost, buffer too small? (try -m) ]\n",
			(unsigned long long)res->lost_records, (unsigned long long)res->lost_events);
}

/* The workload's exit status as a shell gives it (128+N for signal N); -1 when nothing ran. */
static int wait_exit_status(const struct record_args *a, const struct record_result *res)
{
	if (!a->o.argv)
		return -1;
	if (WIFEXITED(res->wait_status))
		return WEXITSTATUS(res->wait_status);
	if (WIFSIGNALED(res->wait_status))
		return 128 + WTERMSIG(res->wait_status);
	return -1;
}

/*
 * --check and --json-summary on every event's numbers: the findings said
 * (one line each) and in the summary.  0, 1 when the check failed, or
 * EXIT_MPERF when the summary could not be written.
 */
static int record_checks(struct record_args *a, const struct record_result *res)
{
	struct check_event *checks = calloc(res->nr_events ? res->nr_events : 1, sizeof(*checks));
	struct check_findings found = { 0 };
	int failed = 0, status = wait_exit_status(a, res);

	if (!checks) {
		cmd_error("record", "out of memory");
		return EXIT_MPERF;
	}
	for (size_t i = 0; i < res->nr_events; i++) {
		const struct record_event_stats *e = &res->ev[i];

		checks[i] = (struct check_event){ .attr = e->attr, .tracking = e->tracking, .value = e->samples,
						  .lost = e->lost, .throttles = e->throttles,
						  .has_times = e->has_times, .ena = e->ena, .run = e->run };
		snprintf(checks[i].name, sizeof(checks[i].name), "%s", e->name);
	}
	if (a->check) {
		failed = stat__check(checks, res->nr_events, a->tolerance, &found) ? 1 : 0;
		cmd_check_say("record", &found);
	}
	if (a->json_summary) {
		struct stat_summary s = {
			.source = "record", .file = res->renamed[0] ? res->renamed : a->o.output, .ev = checks, .nr_events = res->nr_events,
			.samples = res->samples, .lost_records = res->lost_records, .lost_events = res->lost_events,
			.has_run = true, .elapsed_ns = res->elapsed_ns, .wakeups = res->wakeups,
			.poll_timeouts = res->timeouts, .passes = res->passes, .sleeps = res->sleeps,
			.fell_back = res->fell_back, .user_only = res->user_only,
			.has_workload = status >= 0, .workload_status = status,
			.check = a->check ? &found : NULL, .tolerance = a->tolerance,
		};

		if (cmd_write_json("record", &a->summary, &s) ||
		    cmd_out_close("record", &a->summary, true))
			failed = EXIT_MPERF;
	}
	check_findings__free(&found);
	free(checks);
	return failed;
}

int cmd_record(int argc, char **argv)
{
	struct record_args *a = calloc(1, sizeof(*a));
	struct record_result *res = calloc(1, sizeof(*res));
	struct cmd_parse parse;
	int ret, failed;

	if (!a || !res) {
		free(a);
		free(res);
		cmd_error("record", "out of memory");
		return EXIT_MPERF;
	}
	a->o = (struct record_opts){
		.freq = RECORD_DEFAULT_FREQ,
		.mmap_pages = RECORD_DEFAULT_PAGES,
		.output = "perf.data",
		.control = { .fd = -1, .ack = -1 },
		.cmd_argc = argc,
		.cmd_argv = argv,
	};
	a->tolerance = STAT_CHECK_TOLERANCE;
	a->check_status = STAT_EXIT_CHECK;
	if ((ret = cmd_options_parse(&parse, &record_options, argc, argv, a)) != CMD_OPTS_OK ||
	    (ret = record_settle(a, argc, argv, &parse)))
		goto out;
	if (a->quiet)
		cmd_set_quiet();
	else if (a->verbose)
		cmd_set_verbose();
	/* Before the workload runs: a summary that cannot be written fails now, not after. */
	if (a->json_summary && (ret = cmd_out_open("record", &a->summary, a->json_summary)))
		goto out;
	ret = record__run(&a->o, res);
	if (ret < 0) {
		/*
		 * Said by record__run (but for EPIPE: the reader of -o - went away,
		 * and main ends quietly as perf would, 141); the shell's codes when
		 * the command could not be run.
		 */
		ret = cmd_exec_status(res->exec_errno, ret);
		goto out;
	}
	record_summary(a, res);
	failed = record_checks(a, res);
	if (failed == EXIT_MPERF) {
		ret = EXIT_MPERF;
		goto out;
	}
	if (res->stop_signal) {
		/*
		 * Stopped by SIGINT, SIGTERM or SIGHUP: the file is complete and the
		 * summary said; now end as the signal would have, as perf does
		 * (a shell sees 130 for Ctrl-C, not the workload's status).
		 */
		int sig = res->stop_signal;

		fflush(stderr);
		signal(sig, SIG_DFL);
		raise(sig);
		ret = 128 + sig;
		goto out;
	}
	if ((ret = wait_exit_status(a, res)) < 0)
		ret = a->o.argv ? EXIT_MPERF : 0;
	/* A failed check fails the job, unless the workload's own failure says more. */
	if (failed && !ret)
		ret = a->check_status;
out:
	cmd_out_close("record", &a->summary, false);
	free(res);
	free(a);
	return ret;
}
