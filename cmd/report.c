// SPDX-License-Identifier: GPL-2.0-only
/* mperf report: options -> open the file -> report__dump/stats/hist/header -> exit status. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../src/host/host.h"
#include "../src/lib/err.h"
#include "../src/perfdata/perfdata.h"
#include "../src/report/report.h"
#include "../src/stat/stat.h"
#include "cmd.h"
#include "options.h"
#include "ui/ui.h"

/*
 * The synopsis (up to the first blank line) is the SYNOPSIS of
 * man/mperf-report.1, word for word (t0020 compares them).
 */
static const char report_usage[] =
	"usage: mperf report [-i file] [--stdio | --tui | --json] [-s keys] [-F fields | --hierarchy]\n"
	"                    [--percent-limit p] [--percentage relative|absolute] [--comms list]\n"
	"                    [--dsos list] [-S list] [--pid list] [--tid list] [--header | --header-only]\n"
	"                    [-I] [--children | --no-children] [-g [args]] [-G] [--max-stack n]\n"
	"                    [--inline | --no-inline] [--ignore-callees regex]\n"
	"                    [-p regex] [-x] [--time-quantum t] [--symfs dir] [--full-source-path]\n"
	"                    [--no-demangle] [-v]\n"
	"                    [--group | --no-group] [--group-sort-idx n] [-n] [--show-total-period] [-T]\n"
	"                    [--tasks | --mmaps]\n"
	"                    [-b | --no-branch-stack] [--mem-mode] [-C cpus] [--time ranges]\n"
	"                    [--symbol-filter part] [-f] [-q] [-k file | --kallsyms file]\n"
	"   or: mperf report [-i file] [--header] (-D | --stats)\n"
	"   or: mperf report [-i file] --stats --json [--check [--check-tolerance pct]]\n"
	"   or: mperf report [-i file] --check [--check-tolerance pct]\n"
	"   or: mperf report [-i file] --format=folded|svg|pprof [-o file] [-k file | --kallsyms file]\n"
	"   or: mperf report -h\n"
	"\n";

static const char report_trailer[] =
	"\n"
	"Chains recorded with --call-graph dwarf are unwound from each sample's registers and\n"
	"stack copy (libdw), with perf's inline frames.\n";

/*
 * The classes of options, for the conflicts: the modes and views, and
 * R_HIST, every option that shapes the histograms.
 */
enum {
	R_DUMP = 1 << 0, R_STATS = 1 << 1, R_JSON = 1 << 2, R_STDIO = 1 << 3, R_HEADER_ONLY = 1 << 4,
	R_HEADER = 1 << 5, R_CHECK = 1 << 6, R_HIST = 1 << 7, R_FORMAT = 1 << 8, R_OUTPUT = 1 << 9,
	R_VMLINUX = 1 << 10, R_KALLSYMS = 1 << 11, R_TUI = 1 << 12, R_TEXT = 1 << 13,
	R_TASKS = 1 << 14, R_FIELDS = 1 << 15, R_HIER = 1 << 16,
};

/* Ids of options whose letter another option's id already is. */
enum { OPT_CPU = 1000, OPT_TIME, OPT_SYMFILTER, OPT_FORCE, OPT_THREADS, OPT_TASKS, OPT_MMAPS, OPT_INLINE,
       OPT_NO_INLINE, OPT_MEM_MODE, OPT_IGNORE_CALLEES, OPT_PARENT, OPT_EXCLUDE_OTHER, OPT_TIME_QUANTUM, OPT_SYMFS, OPT_FIELDS, OPT_HIERARCHY,
       OPT_FULL_SOURCE_PATH, OPT_NO_DEMANGLE, OPT_VERBOSE };

static const struct cmd_opt report_opts[] = {
	{ 'i', 'i', "input", CMD_ARG_REQUIRED, "FILE",
	  "input file (default: perf.data, or stdin when it is a pipe;\n"
	  "'-' reads a pipe-mode stream from stdin)" },
	{ 'D', 'D', "dump-raw-trace", CMD_ARG_NONE, NULL,
	  "dump every record as perf report -D does, then per-event stats", "-D", R_DUMP },
	{ 'W', 0, "stats", CMD_ARG_NONE, NULL,
	  "only the per-event stats that end -D; with --json every event's\n"
	  "samples, lost and throttles as JSON (see mperf-record(1))", NULL, R_STATS },
	{ 'K', 0, "check", CMD_ARG_NONE, NULL,
	  "exit 3 when an event lost samples, was throttled, or is more than\n"
	  "the tolerance below a like event, or the recording did not finish\n"
	  "(one line each on stderr)", NULL, R_CHECK },
	{ 'Q', 0, "check-tolerance", CMD_ARG_REQUIRED, "PCT", "how far like events may differ (default: 5)" },
	{ 'Z', 0, "check-status", CMD_ARG_REQUIRED, "N",
	  "exit N (1 to 124) when the check fails, instead of 3" },
	{ 'T', 0, "stdio", CMD_ARG_NONE, NULL,
	  "text output, perf report --stdio's (the default when standard\n"
	  "output is not a terminal), through the pager on a terminal", NULL, R_STDIO },
	{ 'T', 0, "no-tui", CMD_ARG_NONE, NULL, "the same as --stdio", NULL, R_STDIO },
	{ 'V', 0, "tui", CMD_ARG_NONE, NULL,
	  "browse the histograms on the terminal, as perf's TUI (the default\n"
	  "when standard input and output are a terminal; see BROWSER in\n"
	  "mperf-report(1))", NULL, R_TUI },
	{ 'z', 0, "no-color", CMD_ARG_NONE, NULL, "no colours in the browser (also: NO_COLOR set)" },
	{ 'J', 0, "json", CMD_ARG_NONE, NULL, "the histograms as one JSON document (see mperf-report(1))", NULL,
	  R_JSON },
	{ 'H', 0, "header", CMD_ARG_NONE, NULL, "print the file's header and features first", NULL, R_HEADER },
	{ 'O', 0, "header-only", CMD_ARG_NONE, NULL,
	  "print only the file's header and features (a stream's too)", NULL, R_HEADER_ONLY },
	{ 'I', 'I', "show-info", CMD_ARG_NONE, NULL,
	  "with --header(-only): the topologies whole (CPUs, NUMA nodes, caches,\n"
	  "memory), as perf report -I" },
	{ 's', 's', "sort", CMD_ARG_REQUIRED, "KEYS",
	  "histogram keys, comma-separated: comm, pid, dso, symbol (sym), cpu,\n"
	  "socket, symbol_size, srcline, srcfile, dso_size, parent, cgroup,\n"
	  "cgroup_id, trace, time, addr, local_weight, weight, transaction,\n"
	  "code_page_size, local_ins_lat, ins_lat, local_p_stage_cyc, p_stage_cyc\n"
	  "(default: comm,dso,sym; trace when every\n"
	  "event is a tracepoint), and -F's value\n"
	  "columns (overhead, sample, period...), which sort where they come;\n"
	  "in the branch view comm, pid, dso_from, dso_to, symbol_from, symbol_to,\n"
	  "mispredict, in_tx, abort, cycles, srcline_from, srcline_to, addr_from,\n"
	  "addr_to\n"
	  "(default: comm,dso_from,symbol_from,symbol_to,cycles);\n"
	  "+KEYS adds KEYS after the default keys", NULL, R_HIST },
	{ OPT_FIELDS, 'F', "fields", CMD_ARG_REQUIRED, "FIELDS",
	  "the columns, comma-separated, as perf: overhead, overhead_sys,\n"
	  "overhead_us, overhead_guest_sys, overhead_guest_us, overhead_children,\n"
	  "sample, period, the sort keys and ipc_null (the branch view's:\n"
	  "overhead, sample, period, its keys and ipc_null); +FIELDS adds them after the\n"
	  "default columns; the --sort keys are shown after them, and\n"
	  "entries are sorted by them after the --sort keys", NULL, R_HIST | R_TEXT | R_FIELDS },
	{ OPT_NO_DEMANGLE, 0, "no-demangle", CMD_ARG_NONE, NULL,
	  "user-space symbols as their files name them (C++'s _ZN2ns3BoxIlE4spinEl),\n"
	  "not demangled", NULL, R_HIST },
	{ OPT_VERBOSE, 'v', "verbose", CMD_ARG_NONE, NULL,
	  "as perf -v: the DSOs by their paths, each symbol after its first\n"
	  "sample's address and the letter of where its symbols came from\n"
	  "(text only)", NULL, R_HIST | R_TEXT | R_STDIO },
	{ OPT_FULL_SOURCE_PATH, 0, "full-source-path", CMD_ARG_NONE, NULL,
	  "srcline and srcfile with the source file's whole path, as the line\n"
	  "table names it (not its base name)", NULL, R_HIST },
	{ OPT_HIERARCHY, 0, "hierarchy", CMD_ARG_NONE, NULL,
	  "the entries as perf's tree, a level per sort key: each command,\n"
	  "its shared objects, their symbols (text only)", NULL, R_HIST | R_TEXT | R_STDIO | R_HIER },
	{ OPT_TASKS, 0, "tasks", CMD_ARG_NONE, NULL,
	  "instead of the histograms, perf's tree of the file's threads: pid,\n"
	  "tid, parent and comm of each", NULL, R_TASKS },
	{ OPT_MMAPS, 0, "mmaps", CMD_ARG_NONE, NULL, "--tasks, with each thread's maps", NULL, R_TASKS },
	{ OPT_MEM_MODE, 0, "mem-mode", CMD_ARG_NONE, NULL,
	  "perf's memory mode: each sample weighs its weight (1 without one),\n"
	  "the memory keys (symbol_daddr, dso_daddr, symbol_iaddr, mem, tlb,\n"
	  "snoop, locked, blocked, dcacheline, phys_daddr, data_page_size) are\n"
	  "taken, the default order is local_weight,mem,sym,dso,symbol_daddr,\n"
	  "dso_daddr,snoop,tlb,locked,blocked,local_ins_lat (perf record -d)", NULL, R_HIST },
	{ 'b', 'b', "branch-stack", CMD_ARG_NONE, NULL,
	  "the branch view: an entry per branch of the samples' branch stacks\n"
	  "(the default for a file recorded with them, perf record -b)", NULL, R_HIST },
	{ 'B', 0, "no-branch-stack", CMD_ARG_NONE, NULL, "the usual view of such a file, an entry per sample", NULL,
	  R_HIST },
	{ 'n', 'n', "show-nr-samples", CMD_ARG_NONE, NULL,
	  "a Samples column: each entry's samples (branches in the branch\n"
	  "view; one per member in a group)", NULL, R_HIST },
	{ 'P', 0, "percent-limit", CMD_ARG_REQUIRED, "P", "hide entries below P percent", NULL, R_HIST },
	{ 'R', 0, "percentage", CMD_ARG_REQUIRED, "HOW",
	  "relative: shares (and the header's totals) of what --comms,\n"
	  "--dsos, -S, --pid and --tid show; absolute (the default): shares\n"
	  "of every sample", NULL, R_HIST },
	{ 'c', 'c', "comms", CMD_ARG_REQUIRED, "C", "only these commands (comma-separated)", "--comms", R_HIST },
	{ 'c', 0, "comm", CMD_ARG_REQUIRED, NULL, NULL, "--comms", R_HIST },
	{ 'd', 'd', "dsos", CMD_ARG_REQUIRED, "D", "only these shared objects (comma-separated)", "--dsos", R_HIST },
	{ 'd', 0, "dso", CMD_ARG_REQUIRED, NULL, NULL, "--dsos", R_HIST },
	{ 'S', 'S', "symbols", CMD_ARG_REQUIRED, "S", "only these symbols, by name (comma-separated)", NULL, R_HIST },
	{ 'p', 0, "pid", CMD_ARG_REQUIRED, "PIDS", "only these processes (comma-separated)", NULL, R_HIST },
	{ 't', 0, "tid", CMD_ARG_REQUIRED, "TIDS", "only these threads (comma-separated)", NULL, R_HIST },
	{ OPT_CPU, 'C', "cpu", CMD_ARG_REQUIRED, "CPUS",
	  "only the samples of these CPUs (0,2-3); the file must record them", NULL, R_HIST },
	{ OPT_TIME, 0, "time", CMD_ARG_REQUIRED, "RANGES",
	  "only the samples in these times, as perf: start,stop in seconds\n"
	  "(several separated by spaces), or percent slices of the file's\n"
	  "time: 10%/2, 0%-10%,30%-40%, 25%", NULL, R_HIST },
	{ OPT_SYMFILTER, 0, "symbol-filter", CMD_ARG_REQUIRED, "PART",
	  "only the symbols whose name holds PART", NULL, R_HIST },
	{ OPT_FORCE, 'f', "force", CMD_ARG_NONE, NULL,
	  "accepted as perf takes it (mperf reads files of any owner)" },
	{ 'C', 0, "children", CMD_ARG_NONE, NULL,
	  "with call chains (the default when the file has them): each\n"
	  "entry also gets what its callees cost (Children), with its chains", NULL, R_HIST },
	{ 'N', 0, "no-children", CMD_ARG_NONE, NULL, "the Self overhead only, each entry with the chains to it", NULL,
	  R_HIST },
	{ 'g', 'g', "call-graph", CMD_ARG_OPTIONAL, "[=ARGS]",
	  "how chains show, comma-separated, as perf: graph, flat, fractal,\n"
	  "folded or none; caller or callee; function; percent, period or\n"
	  "count; a threshold in percent; a limit of chains per entry\n"
	  "(-g alone: graph,0.5,caller,function,percent)", NULL, R_HIST },
	{ 'G', 'G', "inverted", CMD_ARG_NONE, NULL, "the caller order (root first)", NULL, R_HIST },
	{ 'M', 0, "max-stack", CMD_ARG_REQUIRED, "N",
	  "keep N frames of each chain, from the sample's end (default and\n"
	  "at most: 127, perf's)", NULL, R_HIST },
	{ OPT_IGNORE_CALLEES, 0, "ignore-callees", CMD_ARG_REQUIRED, "REGEX",
	  "a chain's frame whose symbol matches (an extended regex) takes the\n"
	  "sample, and its callees are dropped, as perf", NULL, R_HIST },
	{ OPT_PARENT, 'p', "parent", CMD_ARG_REQUIRED, "REGEX",
	  "the parent key's regex (default: ^sys_|^do_page_fault): an entry's\n"
	  "parent is the first frame of its chain whose symbol matches; adds\n"
	  "the key to --sort", NULL, R_HIST },
	{ OPT_EXCLUDE_OTHER, 'x', "exclude-other", CMD_ARG_NONE, NULL,
	  "only the entries with a parent (counted in the totals still)", NULL, R_HIST },
	{ OPT_TIME_QUANTUM, 0, "time-quantum", CMD_ARG_REQUIRED, "T",
	  "the time key's slices: a number of ns, us, ms or s (default: 100ms)", NULL, R_HIST },
	{ OPT_INLINE, 0, "inline", CMD_ARG_NONE, NULL,
	  "perf's inline frames in the chains libdw unwinds (--call-graph\n"
	  "dwarf), marked (inlined): the default", NULL, R_HIST },
	{ OPT_NO_INLINE, 0, "no-inline", CMD_ARG_NONE, NULL, "the chains without them", NULL, R_HIST },
	{ 'U', 0, "group", CMD_ARG_NONE, NULL,
	  "show each event group (the file's, else every event in one) as\n"
	  "one histogram, its leader's, a column per member (the default\n"
	  "for a file with groups)", NULL, R_HIST },
	{ 'u', 0, "no-group", CMD_ARG_NONE, NULL, "one histogram per event, group members too", NULL, R_HIST },
	{ 'X', 0, "group-sort-idx", CMD_ARG_REQUIRED, "N",
	  "sort a group's entries by its member N (0: the leader) first", NULL, R_HIST },
	{ 'Y', 0, "show-total-period", CMD_ARG_NONE, NULL, "a Period column (per member in a group)", NULL, R_HIST },
	{ OPT_THREADS, 'T', "threads", CMD_ARG_NONE, NULL,
	  "after the histograms, each thread's counts of each event from the\n"
	  "file's READ records (perf record -s), as perf", NULL, R_HIST | R_TEXT },
	{ 'F', 0, "format", CMD_ARG_REQUIRED, "FMT",
	  "the samples' stacks instead of histograms: folded (one line per\n"
	  "stack and event, for flame graph tools), svg (an interactive\n"
	  "flame graph: click to zoom, search, one view per event) or\n"
	  "pprof (a gzipped profile.proto, for go tool pprof)", NULL, R_FORMAT },
	{ 'o', 'o', "output", CMD_ARG_REQUIRED, "FILE",
	  "write --format's output to FILE (default: standard output)", NULL, R_OUTPUT },
	{ 'q', 'q', "quiet", CMD_ARG_NONE, NULL, "the rows alone, without perf's header lines; no warnings" },
	{ 'k', 'k', "vmlinux", CMD_ARG_REQUIRED, "FILE",
	  "the kernel's symbols from this image (vmlinux), and no other,\n"
	  "if its build id is the recorded kernel's (default: as perf looks\n"
	  "for one by build id, then kallsyms: see mperf-report(1))", NULL, R_VMLINUX },
	{ 'L', 0, "kallsyms", CMD_ARG_REQUIRED, "FILE", "the kernel's symbols from this kallsyms file", NULL,
	  R_KALLSYMS },
	{ OPT_SYMFS, 0, "symfs", CMD_ARG_REQUIRED, "DIR",
	  "look for the recording's files under DIR: /usr/bin/x is DIR/usr/bin/x", NULL, R_HIST },
	{ 'h', 'h', "help", CMD_ARG_NONE, NULL, "show this help" },
};

/*
 * Refused, never resolved silently: -D and --stats print the records and
 * their totals, not the histograms the others shape, JSON has no header,
 * and --format writes stacks, not histograms.
 */
#define CHECK_ALONE "--check goes alone or with --stats --json (one reading of the file)"
static const struct cmd_conflict report_conflicts[] = {
	{ { R_OUTPUT }, { 0 }, R_FORMAT, "-o/--output goes with --format (the histograms go to standard output)" },
	{ { R_FORMAT }, { R_DUMP, R_STATS, R_JSON, R_STDIO, R_HEADER_ONLY, R_HEADER, R_CHECK, R_HIST }, 0,
	  "--format cannot be used with {b}: it writes the samples' stacks, not the histograms" },
	{ { R_VMLINUX }, { R_KALLSYMS }, 0,
	  "-k/--vmlinux and --kallsyms cannot be used together (one source of kernel symbols)" },
	{ { R_VMLINUX, R_KALLSYMS }, { R_DUMP, R_STATS, R_CHECK, R_HEADER_ONLY }, 0,
	  "{a} cannot be used with {b}, which names no symbols" },
	{ { R_DUMP }, { R_STATS }, 0, "-D and --stats cannot be used together (-D ends with the stats)" },
	{ { R_TASKS }, { R_DUMP, R_STATS, R_JSON, R_TUI, R_HEADER_ONLY, R_HEADER, R_CHECK, R_HIST }, 0,
	  "{a} cannot be used with {b}: it prints the tree of the file's threads alone" },
	{ { R_TUI }, { R_STDIO, R_JSON, R_DUMP, R_STATS, R_FORMAT, R_HEADER_ONLY, R_HEADER, R_CHECK }, 0,
	  "--tui cannot be used with {b}: the browser shows the histograms alone" },
	{ { R_HIST }, { R_DUMP, R_STATS }, 0,
	  "{a} cannot be used with {b}, which prints records and their totals, not histograms" },
	{ { R_HEADER_ONLY }, { R_DUMP, R_STATS }, 0, "--header-only cannot be used with {b}" },
	{ { R_JSON }, { R_HEADER_ONLY, R_HEADER }, 0, "--json cannot be used with {b}: the JSON document has no header" },
	{ { R_TEXT }, { R_JSON }, 0, "{a} cannot be used with --json: it adds to the text view" },
	{ { R_FIELDS }, { R_HIER }, 0, "-F/--fields and --hierarchy cannot be used together, as in perf" },
	{ { R_DUMP }, { R_JSON }, 0, "--json cannot be used with -D (with --stats it gives the stats as JSON)" },
	{ { R_CHECK }, { R_DUMP }, 0, CHECK_ALONE },
	{ { R_CHECK }, { R_HEADER_ONLY, R_HEADER }, 0, CHECK_ALONE },
	{ { R_CHECK }, { R_JSON }, R_STATS, CHECK_ALONE },
	{ { R_CHECK }, { R_STATS }, R_JSON, CHECK_ALONE },
};

/*
 * --sort KEYS, for both views: which one applies is the file's to say, so
 * a key only the other view knows is kept in o->sort_unfit for then.
 */
static int parse_keys(const char *list, struct report_hist_opts *o)
{
	return cmd_parse_sort_keys("report", list, o);
}

/* perf puts Overhead (and Children) first in its sort order unless the --sort text names them. */
static void sort_values_init(const char *list, struct report_hist_opts *o)
{
	o->nr_sort_values = 0;
	o->sort_names_overhead = strstr(list, "overhead") != NULL;
	o->sort_names_children = strstr(list, "overhead_children") != NULL;
}

/*
 * A value key of --sort (perf's hpp fields, matched after its usual keys
 * and before its branch keys): kept, once, where it comes among the keys;
 * the branch view has none of them.  False: not a value key.
 */
static bool sort_value(const char *p, size_t len, struct report_hist_opts *o)
{
	struct report_field f;

	if (report_field_find(p, len, &f) || !f.value)
		return false;
	for (int i = 0; i < o->nr_sort_values; i++)
		if (o->sort_values[i].v == (enum report_value)f.id)
			return true;
	o->sort_values[o->nr_sort_values++] = (struct report_sort_value){ (enum report_value)f.id, o->nr_keys };
	if (!o->sort_unfit[1][0])
		snprintf(o->sort_unfit[1], sizeof(o->sort_unfit[1]), "%.*s", (int)len, p);
	return true;
}

/* perf 6.1 on x86 drops these keys, given whole, from --sort (a prefix of one is the key) */
static bool arch_dropped(const char *p, size_t len)
{
	return (len == 11 && !strncmp(p, "p_stage_cyc", len)) || (len == 17 && !strncmp(p, "local_p_stage_cyc", len));
}

int cmd_parse_sort_keys(const char *cmd, const char *list, struct report_hist_opts *o)
{
	int nr = 0, dropped = 0;

	o->nr_keys = o->nr_bkeys = 0;
	o->sort_unfit[0][0] = o->sort_unfit[1][0] = '\0';
	/* perf adds its IPC column to the branch view when the text names a symbol key */
	o->sort_symbol = strstr(list, "symbol") != NULL;
	sort_values_init(list, o);
	for (const char *p = list; *p; ) {
		size_t len = strcspn(p, ",");
		/* the memory keys too: whether --mem-mode takes them is cmd_sort_mem_check's to say */
		int k = report_sort_key_find(p, len, REPORT_SORT_MEM);
		int b = report_sort_key_find(p, len, REPORT_SORT_BRANCH);

		if (arch_dropped(p, len))
			dropped++;
		if (arch_dropped(p, len) || (k < 0 && sort_value(p, len, o))) {
			p += len + (p[len] == ',');
			continue;
		}
		if (k < 0 && b < 0) {
			char usual[512], branch[512];

			report_sort_key_list(usual, sizeof(usual), REPORT_SORT_USUAL, -1);
			report_sort_key_list(branch, sizeof(branch), REPORT_SORT_BRANCH, REPORT_SORT_USUAL);
			cmd_usage_error(cmd, "unknown sort key '%.*s' (keys: %s; in the branch view %s)",
					(int)len, p, usual, branch);
			return -1;
		}
		/* perf takes a key once: given again, it is ignored */
		bool dup_k = false, dup_b = false;

		for (int i = 0; k >= 0 && i < o->nr_keys; i++)
			dup_k |= o->keys[i] == (enum report_key)k;
		for (int i = 0; b >= 0 && i < o->nr_bkeys; i++)
			dup_b |= o->bkeys[i] == (enum report_key)b;
		if ((k < 0 || dup_k) && (b < 0 || dup_b) && (dup_k || dup_b)) {
			p += len + (p[len] == ',');
			continue;
		}
		if (nr++ == REPORT_MAX_KEYS) {
			cmd_usage_error(cmd, "too many sort keys in '%s' (at most %d)", list, REPORT_MAX_KEYS);
			return -1;
		}
		if (k >= 0 && !dup_k)
			o->keys[o->nr_keys++] = (enum report_key)k;
		else if (k < 0 && !o->sort_unfit[0][0])
			snprintf(o->sort_unfit[0], sizeof(o->sort_unfit[0]), "%.*s", (int)len, p);
		if (b >= 0 && !dup_b)
			o->bkeys[o->nr_bkeys++] = (enum report_key)b;
		else if (b < 0 && !o->sort_unfit[1][0])
			snprintf(o->sort_unfit[1], sizeof(o->sort_unfit[1]), "%.*s", (int)len, p);
		p += len;
		if (*p == ',')
			p++;
	}
	if (!nr && !o->nr_sort_values && !dropped) {
		char usual[512];

		report_sort_key_list(usual, sizeof(usual), REPORT_SORT_USUAL, -1);
		cmd_usage_error(cmd, "empty sort key list (keys: %s)", usual);
		return -1;
	}
	return 0;
}

int cmd_sort_mem_check(const char *cmd, const struct report_hist_opts *o)
{
	for (int i = 0; !o->mem_mode && i < o->nr_keys; i++)
		if (report_sort_key_mem(o->keys[i]))
			return cmd_usage_error(cmd, "invalid --sort key '%s': a memory key, for --mem-mode (as perf)",
					       report_sort_key_name(o->keys[i]));
	return 0;
}

/* perf matches a -g word by any prefix of a name, in this order. */
static bool word(const char *tok, const char *name)
{
	return !strncmp(tok, name, strlen(tok));
}

/*
 * -g ARGS as perf report parses them: words for the mode, the order, the
 * key and the value, then numbers: the threshold, then the print limit.
 * "none" ends the list.  Keys other than function are refused: not yet.
 */
static int parse_call_graph(const char *arg, struct report_hist_opts *o)
{
	char buf[256], *save = NULL, *tok;
	bool have_min = false;

	o->cc_asked = true;
	if (strlen(arg) >= sizeof(buf)) {
		cmd_usage_error("report", "invalid -g argument '%s'", arg);
		return -1;
	}
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;

		if (word(tok, "none")) {
			o->cc_mode = REPORT_CC_NONE;
			return 0;
		}
		if (word(tok, "graph"))
			o->cc_mode = REPORT_CC_GRAPH;
		else if (word(tok, "flat"))
			o->cc_mode = REPORT_CC_FLAT;
		else if (word(tok, "fractal"))
			o->cc_mode = REPORT_CC_FRACTAL;
		else if (word(tok, "folded"))
			o->cc_mode = REPORT_CC_FOLDED;
		else if (word(tok, "caller") || word(tok, "callee")) {
			o->cc_order = word(tok, "caller") ? REPORT_CC_CALLER : REPORT_CC_CALLEE;
			o->cc_order_set = true;
		} else if (word(tok, "function"))
			;
		else if (word(tok, "address") || word(tok, "srcline") || word(tok, "branch")) {
			cmd_usage_error("report", "-g %s is not supported yet (function is)", tok);
			return -1;
		} else if (word(tok, "percent"))
			o->cc_value = REPORT_CC_PERCENT;
		else if (word(tok, "period"))
			o->cc_value = REPORT_CC_PERIOD;
		else if (word(tok, "count"))
			o->cc_value = REPORT_CC_COUNT;
		else if (!have_min) {
			o->cc_min_percent = strtod(tok, &end);
			if (end == tok) {
				cmd_usage_error("report", "invalid -g argument '%s' (%s)", arg, tok);
				return -1;
			}
			have_min = true;
		} else {
			unsigned long v = strtoul(tok, &end, 0);

			if (end == tok) {
				cmd_usage_error("report", "invalid -g argument '%s' (%s)", arg, tok);
				return -1;
			}
			o->cc_print_limit = (unsigned)v;
		}
	}
	return 0;
}

/* What the options ask for. */
struct report_args {
	const char *input;
	bool dump, stats, header, header_only, show_info, check, inverted;
	bool stdio, tui, no_color;	/* --stdio/--no-tui, --tui, --no-color */
	bool tasks, mmaps;		/* --tasks, --mmaps */
	struct report_hist_opts ho;
	const char *sort_add;	/* --sort +KEYS: KEYS, added after the file's default order */
	char mem_sort[1024];	/* --mem-mode's order with them */
	struct report_export_opts eo;
	const char *output;
	struct cmd_out out;	/* --format's -o, open before the file is read */
	double tolerance;
	int check_status;
	int argc;		/* -g takes the next word (argv[optind]) */
	char **argv;
};

/*
 * --stats --json and --check: every event's samples, lost and throttles,
 * from one reading of the file; the summary on stdout, the check's
 * findings on stderr, and the exit status: the damage's, as every view's,
 * else the check's.  A recording that did not finish (data size 0: its
 * recorder was killed) fails the check.
 */
static int summarize(struct pdata *p, const char *label, const struct report_args *a)
{
	struct report_file_stats fs;
	struct check_findings found = { 0 };
	struct check_event *ev;
	uint64_t samples = 0;
	bool json = a->stats && a->ho.json;
	int ret = report__file_stats(p, label, &fs), damage = cmd_damaged(ret) == EXIT_DAMAGED;

	if (ret < 0 && !damage) {
		free(fs.ev);
		return ret;
	}
	ev = calloc(fs.nr_events ? fs.nr_events : 1, sizeof(*ev));
	if (!ev) {
		free(fs.ev);
		cmd_error("report", "out of memory");
		return EXIT_MPERF;
	}
	for (size_t i = 0; i < fs.nr_events; i++) {
		const struct report_event_stats *e = &fs.ev[i];

		ev[i] = (struct check_event){ .attr = *e->attr, .value = e->samples, .lost = e->lost,
					      .throttles = e->throttles };
		/* perf's dummy:HG of -a/-C: it carries the side band, it samples nothing. */
		ev[i].tracking = e->attr->type == PERF_TYPE_SOFTWARE && e->attr->config == PERF_COUNT_SW_DUMMY;
		snprintf(ev[i].name, sizeof(ev[i].name), "%s", e->name ? e->name : "");
		samples += e->samples;
	}
	if (a->check) {
		if (pdata__unfinished(p))
			check_findings__add(&found, "check: '%s' is an unfinished recording (data size 0 in its header: "
					    "its recorder was killed?)", label);
		stat__check(ev, fs.nr_events, a->tolerance, &found);
		cmd_check_say("report", &found);
	}
	if (json) {
		struct stat_summary s = {
			.source = "report", .file = a->input, .ev = ev, .nr_events = fs.nr_events, .samples = samples,
			.lost_records = fs.lost_records, .lost_events = fs.lost_events,
			.first_time = fs.first_time, .last_time = fs.last_time,
			.unfinished = pdata__unfinished(p), .damaged = damage,
			.check = a->check ? &found : NULL, .tolerance = a->tolerance,
		};

		/* A write error on stdout is main's to say (or a quiet 141). */
		stat__summary_json(stdout, &s);
	}
	free(ev);
	free(fs.ev);
	ret = damage ? EXIT_DAMAGED : found.failed ? a->check_status : 0;
	check_findings__free(&found);
	return ret;
}

static int parse_format(const char *arg, enum report_export_format *f)
{
	static const char *const names[] = {
		[REPORT_EXPORT_FOLDED] = "folded", [REPORT_EXPORT_SVG] = "svg", [REPORT_EXPORT_PPROF] = "pprof",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arg, names[i])) {
			*f = (enum report_export_format)i;
			return 0;
		}
	return cmd_usage_error("report", "unknown --format '%s' (formats: folded, svg, pprof)", arg);
}

/*
 * --format's output, into the file cmd_out_open made before the input was
 * read (standard output without -o): renamed over -o's path once whole,
 * never left half-written under it.
 */
static int export_to(struct pdata *p, const char *label, const struct report_export_opts *eo, struct cmd_out *out)
{
	int ret = report__export(p, label, eo, out->f ? out->f : stdout);
	int cret = cmd_out_close("report", out, ret == 0);

	return cmd_damaged(ret ? ret : cret);
}

/*
 * The first entry of a -S list that perf takes for an address (one that
 * reads whole as a hex number: "b", "0x4005d6"), which it filters by
 * the sample's or its symbol's address, not by name; NULL if none.
 * *len gets the entry's length.
 */
static const char *address_entry(const char *list, size_t *len)
{
	for (const char *p = list; p && *p; ) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		char buf[64], *end;

		if (n && n < sizeof(buf)) {
			memcpy(buf, p, n);
			buf[n] = 0;
			errno = 0;
			(void)strtoul(buf, &end, 16);
			while (end > buf && *end && isspace((unsigned char)*end))
				end++;
			if (!errno && end != buf && !*end) {
				*len = n;
				return p;
			}
		}
		p = comma ? comma + 1 : NULL;
	}
	return NULL;
}

/*
 * The histograms: perf's branch view for a file recorded with branch
 * stacks (or -b), the usual one otherwise; a header that contradicts its
 * events is damage, returned after the view.
 */
static int hist_view(struct pdata *p, const char *label, const struct report_hist_opts *ho)
{
	int damage, ret = report__branch_wanted(p, label, ho, &damage);

	if (ret > 0)
		return report__branch(p, label, ho, stdout);
	if (ret == 0)
		ret = report__hist(p, label, ho, stdout);
	return ret >= 0 && damage ? damage : ret;
}

/*
 * The browser on the histograms' text (hist_view's, cut by
 * report__hist_doc); the text through the pager when the terminal cannot
 * take the browser.  A file with branch stacks gets hist_view's text.
 */
static int browse_view(struct pdata *p, const char *label, const struct report_args *a)
{
	struct report_hist_doc d;
	struct ui_report r = { .p = p, .label = label, .doc = &d, .color = !a->no_color,
			       .vmlinux = a->ho.vmlinux, .kallsyms = a->ho.kallsyms };
	const char *no_color = getenv("NO_COLOR");
	struct stat st;
	int damage, ret = report__branch_wanted(p, label, &a->ho, &damage);

	if (ret != 0) {
		cmd_pager_start();
		return ret > 0 ? report__branch(p, label, &a->ho, stdout) : ret;
	}
	ret = report__hist_doc(p, label, &a->ho, &d);
	if (ret < 0 && cmd_damaged(ret) != EXIT_DAMAGED)
		return ret;
	if (no_color && *no_color)
		r.color = false;
	r.mtime = strcmp(a->input, "-") && stat(a->input, &st) == 0 ? st.st_mtime : 0;
	if (ui_report_browse(&r) < 0) {
		cmd_pager_start();
		fwrite(d.text, 1, d.len, stdout);
	}
	report_hist_doc__free(&d);
	return ret < 0 ? ret : damage;
}

/* An option that filters the samples the histograms count. */
static int report_filter_option(struct report_hist_opts *ho, int id, char *arg)
{
	size_t n;

	switch (id) {
	case OPT_CPU:
		ho->filter.cpu_list = arg;
		break;
	case OPT_TIME:
		ho->filter.time = arg;
		break;
	case OPT_SYMFILTER:
		ho->symbol_filter = arg;
		break;
	case 'c':
		ho->comm = arg;
		break;
	case 'd':
		ho->dso = arg;
		break;
	case 'S': {
		const char *addr = address_entry(arg, &n);

		if (addr)
			return cmd_usage_error("report", "-S/--symbols: '%.*s' is an address to perf (it reads as "
					       "hex), which mperf does not filter by yet", (int)n, addr);
		ho->sym = arg;
		break;
	}
	case 'p':
	case 't':
		if (!cmd_id_list(arg))
			return cmd_usage_error("report", "invalid %s list '%s' (comma-separated ids)",
					       id == 'p' ? "--pid" : "--tid", arg);
		*(id == 'p' ? &ho->pid : &ho->tid) = arg;
		break;
	}
	return 0;
}

/* An option that shapes the histograms. */
static int report_hist_option(struct report_args *a, int id, char *arg)
{
	struct report_hist_opts *ho = &a->ho;
	const char *cg = arg;
	char *end;
	size_t n;

	switch (id) {
	case 's':
		/* As perf: a leading '+' adds the keys after the file's default order (report_sort_order) */
		a->sort_add = arg[0] == '+' ? arg + 1 : NULL;
		if (a->sort_add && !*a->sort_add)
			return cmd_usage_error("report", "invalid --sort key '+' (+KEYS adds keys after the default ones)");
		if (parse_keys(a->sort_add ? a->sort_add : arg, ho))
			return EXIT_USAGE;
		ho->sort_given = true;
		ho->mem_sort = arg;
		break;
	case 'C':
	case 'N':
		ho->children = id == 'C';
		break;
	case 'g':
		/* As perf: a next word not starting with '-' is -g's argument. */
		if (!cg && optind < a->argc && a->argv[optind][0] != '-')
			cg = a->argv[optind++];
		return parse_call_graph(cg ? cg : "graph,0.5,caller,function,percent", ho) ? EXIT_USAGE : 0;
	case 'G':
		a->inverted = true;
		break;
	case 'M':
		errno = 0;
		n = strtoul(arg, &end, 10);
		if (end == arg || *end || errno || !n || arg[0] == '-')
			return cmd_usage_error("report", "invalid --max-stack '%s' (a number of frames, 1 or more)", arg);
		ho->max_stack = n > 127 ? 127 : (unsigned)n;
		break;
	case 'U':
	case 'u':
		ho->group_set = true;
		ho->no_group = id == 'u';
		break;
	case 'X': {
		long v;

		if (cmd_parse_long(arg, 0, 65535, &v))
			return cmd_usage_error("report", "invalid --group-sort-idx '%s' (a member's index in its group, 0 or more)",
					       arg);
		ho->group_sort_idx = (int)v;
		break;
	}
	case 'n':
		ho->show_nr = true;
		break;
	case 'Y':
		ho->show_period = true;
		break;
	case 'b':
	case 'B':
		ho->branch = id == 'b';
		break;
	case 'P':
		ho->percent_limit = strtod(arg, &end);
		if (end == arg || *end || ho->percent_limit < 0)
			return cmd_usage_error("report", "invalid percent limit '%s' for --percent-limit (a number of percent, 0 or more)",
					       arg);
		ho->cc_min_percent = ho->percent_limit;	/* perf's threshold for chains too, until a -g sets one */
		break;
	case 'R':
		if (strcmp(arg, "relative") && strcmp(arg, "absolute"))
			return cmd_usage_error("report", "invalid --percentage '%s' (relative or absolute)", arg);
		ho->relative = !strcmp(arg, "relative");
		break;
	default:
		return report_filter_option(ho, id, arg);
	}
	return 0;
}

/* An option of perf's text views beyond the histograms' keys and filters. */
static int report_view_option(struct report_args *a, int id, char *arg)
{
	switch (id) {
	case OPT_THREADS:
		a->ho.show_threads = true;
		break;
	case OPT_IGNORE_CALLEES: {
		regex_t re;

		if (regcomp(&re, arg, REG_EXTENDED | REG_NOSUB))
			return cmd_usage_error("report", "invalid --ignore-callees regex '%s'", arg);
		regfree(&re);
		a->ho.ignore_callees = arg;
		break;
	}
	case OPT_INLINE:
	case OPT_NO_INLINE:
		a->ho.no_inline = id == OPT_NO_INLINE;
		break;
	case OPT_MEM_MODE:
		a->ho.mem_mode = true;
		break;
	case OPT_TASKS:
	case OPT_MMAPS:
		a->tasks = true;
		a->mmaps |= id == OPT_MMAPS;
		break;
	}
	return 0;
}

/* --time-quantum as perf reads it: a number (ns) with an optional unit, not 0. */
static int parse_time_quantum(const char *arg, uint64_t *ns)
{
	static const struct { const char *unit; uint64_t mult; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 0);
	while (*end == ' ' || *end == '\t')
		end++;
	for (size_t i = 0; end != arg && !errno && v && arg[0] != '-' && i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			*ns = v * units[i].mult;
			return 0;
		}
	return cmd_usage_error("report", "invalid --time-quantum '%s' (a number above 0, with ns, us, ms or s)", arg);
}

/* A branch view's key as a field (its whole name), which the usual view lacks; 0, or -1: none. */
static int field_of_branch(const char *p, size_t len, struct report_field *f, struct report_hist_opts *o)
{
	int b = report_sort_key_find(p, len, REPORT_SORT_BRANCH);

	if (b < 0)
		return -1;
	*f = (struct report_field){ .value = false, .id = b };
	if (!o->fields_unfit[0][0])
		snprintf(o->fields_unfit[0], sizeof(o->fields_unfit[0]), "%.*s", (int)len, p);
	return 0;
}

/* A field the branch view lacks: a key of the usual view alone (but ipc_null), a value but overhead, sample and period. */
static void field_fit(const char *p, size_t len, struct report_field f, struct report_hist_opts *o)
{
	bool fits = f.value ? f.id == REPORT_VALUE_OVERHEAD || f.id == REPORT_VALUE_SAMPLE || f.id == REPORT_VALUE_PERIOD
			    : f.id == REPORT_KEY_IPC_NULL || report_sort_key_find(report_sort_key_name((enum report_key)f.id),
						   strlen(report_sort_key_name((enum report_key)f.id)), REPORT_SORT_BRANCH) == f.id;

	if (!fits && !o->fields_unfit[1][0])
		snprintf(o->fields_unfit[1], sizeof(o->fields_unfit[1]), "%.*s", (int)len, p);
}

/* -F/--fields, as perf reads it: fields split at commas and spaces, a leading '+' adds them. */
static int parse_fields(const char *arg, struct report_hist_opts *o)
{
	const char *p = arg;

	o->fields_add = *p == '+';
	p += o->fields_add;
	o->nr_fields = 0;
	o->fields_unfit[0][0] = o->fields_unfit[1][0] = '\0';
	while (*p) {
		size_t len = strcspn(p, ", ");
		struct report_field f;
		char names[512];

		if (!len) {
			p++;
			continue;
		}
		if (report_field_find(p, len, &f) && field_of_branch(p, len, &f, o)) {
			report_field_list(names, sizeof(names));
			return cmd_usage_error("report", "unknown -F/--fields field '%.*s' (fields: %s)", (int)len, p, names);
		}
		field_fit(p, len, f, o);
		if (o->nr_fields == REPORT_MAX_FIELDS)
			return cmd_usage_error("report", "too many -F/--fields fields in '%s' (at most %d)", arg,
					       REPORT_MAX_FIELDS);
		o->fields[o->nr_fields++] = f;
		p += len;
	}
	if (!o->nr_fields)
		return cmd_usage_error("report", "invalid -F/--fields '%s': no field", arg);
	return 0;
}

/* The parent key's options: -p/--parent, -x/--exclude-other; the time key's --time-quantum; --symfs; -F. */
static int report_key_option(struct report_args *a, int id, char *arg)
{
	regex_t re;

	switch (id) {
	case OPT_PARENT:
		if (regcomp(&re, arg, REG_EXTENDED | REG_NOSUB))
			return cmd_usage_error("report", "invalid -p/--parent regex '%s'", arg);
		regfree(&re);
		a->ho.parent = arg;
		break;
	case OPT_EXCLUDE_OTHER:
		a->ho.exclude_other = true;
		break;
	case OPT_TIME_QUANTUM:
		return parse_time_quantum(arg, &a->ho.time_quantum);
	case OPT_SYMFS:
		a->ho.symfs = arg;
		break;
	case OPT_FIELDS:
		return parse_fields(arg, &a->ho);
	case OPT_FULL_SOURCE_PATH:
		a->ho.full_source_path = true;
		break;
	case OPT_NO_DEMANGLE:
		a->ho.no_demangle = true;
		break;
	case OPT_VERBOSE:
		a->ho.verbose = true;
		a->stdio = true;	/* the browser has no verbose cells: the text, as --stdio */
		break;
	case OPT_HIERARCHY:
		a->ho.hierarchy = true;
		a->stdio = true;	/* the browser has no tree: the text, as --stdio */
		break;
	}
	return 0;
}

/* What perf 6.1's tree garbles, refused: --symbol-filter and --sort's value keys. */
static int report_hierarchy_check(const struct report_hist_opts *o)
{
	const char *f = o->symbol_filter ? "--symbol-filter (perf 6.1 prints nodes without the levels above them)" :
			o->nr_sort_values ? "a value key in --sort (perf 6.1 prints garbled levels)" : NULL;

	if (o->hierarchy && f)
		return cmd_usage_error("report", "--hierarchy does not take %s", f);
	return 0;
}

/* perf adds the parent key after the --sort keys when -p is given (once). */
static int report_parent_key(struct report_hist_opts *o)
{
	for (int i = 0; o->parent && i < o->nr_keys; i++)
		if (o->keys[i] == REPORT_KEY_PARENT)
			return 0;
	if (!o->parent)
		return 0;
	if (o->nr_keys == REPORT_MAX_KEYS)
		return cmd_usage_error("report", "too many sort keys with -p's parent (at most %d)", REPORT_MAX_KEYS);
	o->keys[o->nr_keys++] = REPORT_KEY_PARENT;
	return 0;
}

/*
 * Whether perf 6.1 takes p for a tracepoint file: every event of its
 * header a tracepoint (a pipe-mode stream's events come after perf chose).
 */
static bool all_tracepoints(const struct pdata *p)
{
	size_t n = pdata__is_pipe(p) ? 0 : pdata__nr_evsel(p);

	for (size_t i = 0; i < n; i++)
		if (pdata__evsel(p, i)->attr.type != PERF_TYPE_TRACEPOINT)
			return false;
	return n > 0;
}

/*
 * perf's default sort order is the file's: trace ("Trace output") for a
 * tracepoint file, comm,dso,symbol otherwise (the branch view's its own);
 * --sort +KEYS adds KEYS after it, each view's.  Then -p's parent key.
 */
static int report_sort_order(struct report_args *a, const struct pdata *p)
{
	struct report_hist_opts *o = &a->ho, b;
	bool trace = all_tracepoints(p);
	char list[1024];

	if (o->mem_mode && !a->sort_add && !o->sort_given) {
		if (cmd_parse_sort_keys("report", REPORT_MEM_SORT_ORDER, o))
			return EXIT_USAGE;
		o->sort_symbol = false;	/* perf's default order is not a --sort text: no IPC column */
	} else if (o->mem_mode && a->sort_add) {
		snprintf(a->mem_sort, sizeof(a->mem_sort), "%s,%s", REPORT_MEM_SORT_ORDER, a->sort_add);
		if (cmd_parse_sort_keys("report", a->mem_sort, o))
			return EXIT_USAGE;
		o->mem_sort = a->mem_sort;	/* what perf's header shows */
		o->sort_symbol = strstr(a->sort_add, "symbol") != NULL;	/* perf looks at the text given */
	} else if (a->sort_add) {
		b = *o;
		snprintf(list, sizeof(list), "comm,dso_from,symbol_from,symbol_to,cycles,%s", a->sort_add);
		if (cmd_parse_sort_keys("report", list, &b))
			return EXIT_USAGE;
		snprintf(list, sizeof(list), "%s,%s", trace ? "trace" : "comm,dso,symbol", a->sort_add);
		if (cmd_parse_sort_keys("report", list, o))
			return EXIT_USAGE;
		memcpy(o->bkeys, b.bkeys, sizeof(o->bkeys));
		o->nr_bkeys = b.nr_bkeys;
		memcpy(o->sort_unfit[1], b.sort_unfit[1], sizeof(o->sort_unfit[1]));
		o->sort_symbol = strstr(a->sort_add, "symbol") != NULL;	/* perf looks at the text given */
	} else if (!o->sort_given && trace) {
		o->keys[0] = REPORT_KEY_TRACE;
		o->nr_keys = 1;
	}
	return report_parent_key(o);
}

static int report_option(void *ctx, const struct cmd_opt *opt, char *arg)
{
	struct report_args *a = ctx;

	if (opt->id >= OPT_PARENT)
		return report_key_option(a, opt->id, arg);
	if (opt->id >= OPT_THREADS)
		return report_view_option(a, opt->id, arg);
	if (opt->cls == R_HIST)
		return report_hist_option(a, opt->id, arg);
	switch (opt->id) {
	case 'i':
		a->input = arg;
		break;
	case 'D':
		a->dump = true;
		break;
	case 'W':
		a->stats = true;
		break;
	case 'F':
		return parse_format(arg, &a->eo.format) ? EXIT_USAGE : 0;
	case 'o':
		a->output = arg;
		break;
	case 'J':
		a->ho.json = true;
		break;
	case 'T':
	case 'V':
		*(opt->id == 'T' ? &a->stdio : &a->tui) = true;
		break;
	case 'z':
		a->no_color = true;
		break;
	case 'H':
	case 'O':
		a->header = true;
		a->header_only |= opt->id == 'O';
		break;
	case 'I':
		a->show_info = true;
		break;
	case 'K':
		a->check = true;
		break;
	case 'q':
		a->ho.quiet = true;
		cmd_set_quiet();
		break;
	case 'k':
	case 'L':
		if (cmd_kernel_file("report", opt->id, arg))
			return EXIT_MPERF;
		*(opt->id == 'k' ? &a->ho.vmlinux : &a->ho.kallsyms) = arg;
		*(opt->id == 'k' ? &a->eo.vmlinux : &a->eo.kallsyms) = arg;
		break;
	case 'Q':
		if (cmd_parse_tolerance(arg, &a->tolerance))
			return cmd_usage_error("report", "invalid --check-tolerance '%s' (a percentage, 0 to 100)", arg);
		break;
	case 'Z':
		if (cmd_parse_check_status(arg, &a->check_status))
			return cmd_usage_error("report", "invalid --check-status '%s' (an exit status, 1 to 124)", arg);
		break;
	}
	return 0;
}

static const struct cmd_options report_options = {
	.cmd = "report",
	.usage = report_usage,
	.trailer = report_trailer,
	.help_col = 27,
	.opts = report_opts,
	.nr_opts = sizeof(report_opts) / sizeof(report_opts[0]),
	.conflicts = report_conflicts,
	.nr_conflicts = sizeof(report_conflicts) / sizeof(report_conflicts[0]),
	.set = report_option,
};

/* --tasks and --mmaps: the tree of the threads, through the pager on a terminal. */
static int tasks_view(struct pdata *p, const char *label, bool mmaps)
{
	cmd_pager_start();
	return report__tasks(p, label, mmaps, stdout);
}

/* The view the options chose, on the open file p; the exit status. */
static int report_view(struct report_args *a, struct pdata *p, const char *label, bool format)
{
	static char obuf[1 << 16];
	int ret;

	/* As perf: the sort by a member needs groups the file names before its samples. */
	if (a->ho.group_sort_idx && (pdata__is_pipe(p) || !pdata__nr_groups(p)))
		return cmd_usage_error("report", "--group-sort-idx needs a file with event groups (%s)",
				       pdata__is_pipe(p) ? "perf refuses it for a pipe-mode stream, whose groups come later" :
				       "this one has none");
	/* perf's names and letters under --symfs and -k follow lookups not compared here yet */
	if (a->ho.verbose && (a->ho.symfs || a->ho.vmlinux))
		return cmd_usage_error("report", "-v/--verbose cannot be used with %s", a->ho.symfs ? "--symfs" : "-k/--vmlinux");
	if (a->tasks)
		return cmd_damaged(tasks_view(p, label, a->mmaps));
	if (!a->stdio && !a->header && !format && !a->check && !a->stats && !a->dump && !a->ho.json &&
	    (a->tui || isatty(STDOUT_FILENO)) && ui_usable())
		return cmd_damaged(browse_view(p, label, a));
	cmd_pager_start();
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	if (a->header) {
		struct stat st;

		if (pdata__is_pipe(p) && !a->header_only) {
			cmd_error("report", "--header needs a file-mode perf.data, not a pipe-mode stream (--header-only reads either)");
			return EXIT_MPERF;
		}
		/* perf's "captured on" is the input's mtime, a pipe's too. */
		ret = report__header(p, label, (strcmp(a->input, "-") ? stat(a->input, &st) : fstat(0, &st)) == 0 ?
				     st.st_mtime : 0, a->show_info, stdout);
		if (ret < 0 || a->header_only)
			return ret;
		a->ho.after_header = true;
	}
	if (format) {
		a->eo.title = a->input;
		return export_to(p, label, &a->eo, &a->out);
	}
	if (a->check || (a->stats && a->ho.json))
		return summarize(p, label, a);
	if (a->dump)
		return cmd_damaged(report__dump(p, label, stdout));
	if (a->stats)
		return cmd_damaged(report__stats(p, label, stdout));
	return cmd_damaged(hist_view(p, label, &a->ho));
}

/*
 * A large file's report faults in thousands of heap pages: the heap in
 * huge pages (host_heap_hugepages), where it pays for a few of them.
 */
#define HEAP_BIG_INPUT	(8 << 20)
#define HEAP_RESERVE	(64 << 20)

static void heap_for(const char *input)
{
	struct stat st;

	if (strcmp(input, "-") && !stat(input, &st) && S_ISREG(st.st_mode) && st.st_size >= HEAP_BIG_INPUT)
		host_heap_hugepages(HEAP_RESERVE);
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = {
		.input = cmd_default_input(),
		.eo = { .format = REPORT_EXPORT_FOLDED },
		.tolerance = STAT_CHECK_TOLERANCE,
		.check_status = STAT_EXIT_CHECK,
		.argc = argc,
		.argv = argv,
		.ho = {
			.keys = { REPORT_KEY_COMM, REPORT_KEY_DSO, REPORT_KEY_SYM },
			.nr_keys = 3,
			.children = -1,
			.cc_min_percent = 0.5,
			.branch = -1,
			.bkeys = { REPORT_KEY_COMM, REPORT_KEY_DSO_FROM, REPORT_KEY_SYM_FROM, REPORT_KEY_SYM_TO,
				   REPORT_KEY_CYCLES },
			.nr_bkeys = 5,
		},
	};
	struct cmd_parse parse;
	struct pdata *p;
	int ret;

	if ((ret = cmd_options_parse(&parse, &report_options, argc, argv, &a)) != CMD_OPTS_OK)
		return ret;
	if (optind < argc)
		return cmd_usage_error("report", "unexpected argument '%s' (the input is given with -i)", argv[optind]);
	if ((ret = cmd_options_conflicts(&parse)))
		return ret;
	if ((ret = report_hierarchy_check(&a.ho)) || (ret = cmd_sort_mem_check("report", &a.ho)))
		return ret;
	if (a.ho.mem_mode && a.ho.branch == 1)
		return cmd_usage_error("report", "--mem-mode and -b/--branch-stack cannot be used together, as in perf");
	if (a.ho.mem_mode) {	/* perf's memory mode has no branch view and no Children */
		a.ho.branch = 0;
		a.ho.children = 0;
	}
	if (a.inverted) {	/* -G wins over an order -g gave, as in perf */
		a.ho.cc_order = REPORT_CC_CALLER;
		a.ho.cc_order_set = true;
	}
	/*
	 * A closed reader of our stdout ends us through write errors, not
	 * SIGPIPE (record leaves SIGPIPE alone: its workload inherits it).
	 */
	signal(SIGPIPE, SIG_IGN);
	/* Before the input is read: an output that cannot be written fails now. */
	if (a.output && (ret = cmd_out_open("report", &a.out, a.output)))
		return ret;
	heap_for(a.input);
	p = pdata__open(a.input);
	if (!p) {
		cmd_out_close("report", &a.out, false);
		return -errno;	/* said by the reader */
	}
	ret = report_sort_order(&a, p);
	if (!ret)
		ret = report_view(&a, p, strcmp(a.input, "-") ? a.input : "stdin", cmd_given(&parse, R_FORMAT));
	cmd_out_close("report", &a.out, false);
	pdata__close(p);
	/* An option this file's view cannot take (said by the view): a usage error. */
	return ret == -MPERF_ERR_USAGE ? EXIT_USAGE : ret;
}
