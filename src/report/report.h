/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_REPORT_H
#define MPERF_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/*
 * What `mperf report` shows of a perf.data file, each a consumer of the
 * session (session.h).  label names the input: in messages, and after
 * '@' in each record's first line of -D ("pipe" for pipe mode, whatever
 * the source).  Each returns 0 or a negative code, whose cause is logged
 * (one line naming the problem and its offset), except -EPIPE: the
 * reader of the output went away, and the output stopped early.
 * report__dump is in dump.c, report__stats in stats.c, report__hist in
 * hist.c, report__header in header.c.
 */
struct pdata;
struct perf_event_attr;

/*
 * `report -D`: print every record of p in perf 6.1's dump format, ordered
 * as perf orders them, then the aggregated and per-event stats.
 */
int report__dump(struct pdata *p, const char *label, FILE *out);

/* The end block of -D alone (aggregated and per-event stats), read the same way. */
int report__stats(struct pdata *p, const char *label, FILE *out);

/* What --check and --stats --json need of each event of a file. */
struct report_event_stats {
	const char *name;		/* the file's (valid while p is open) */
	const struct perf_event_attr *attr;
	uint64_t samples;		/* SAMPLE records (and READ values with :S) */
	uint64_t lost;			/* samples lost: LOST_SAMPLES (else LOST records' counts, by id) */
	uint64_t throttles;		/* THROTTLE records */
};

struct report_file_stats {
	uint64_t records;		/* every record */
	uint64_t lost_records;		/* PERF_RECORD_LOST */
	uint64_t lost_events;		/* the events those say were lost */
	uint64_t first_time, last_time;	/* of the samples, ns, 0 when unknown */
	size_t nr_events;
	struct report_event_stats *ev;	/* [nr_events], every event of the file, by index (malloc'd) */
};

/*
 * Read p through the session and fill fs: per event (every one, those
 * without a sample too) its samples, lost samples and throttles.
 * Free fs->ev with free().  0; or the damage (-MPERF_ERR_TRUNCATED,
 * -MPERF_ERR_CORRUPT, said by the reader) with fs filled from the records
 * before it; or another negative code.
 */
int report__file_stats(struct pdata *p, const char *label, struct report_file_stats *fs);

/*
 * The sort keys (sortkey.c has one entry per key: its name, header,
 * comparisons, cell).  The usual view (and mperf diff) takes comm, pid,
 * dso, symbol, cpu; the branch view (perf's branch mode: an entry per branch of
 * the samples' branch stacks) comm, pid and the branch keys after CPU.
 * Defaults comm,dso,sym and comm,dso_from,symbol_from,symbol_to,cycles.
 * The memory keys after CYCLES are perf's memory mode's (--mem-mode).
 */
enum report_key {
	REPORT_KEY_COMM, REPORT_KEY_PID, REPORT_KEY_DSO, REPORT_KEY_SYM, REPORT_KEY_CPU, REPORT_KEY_SOCKET, REPORT_KEY_SYM_SIZE,
	REPORT_KEY_SRCLINE, REPORT_KEY_SRCFILE, REPORT_KEY_DSO_SIZE,
	REPORT_KEY_PARENT, REPORT_KEY_CGROUP, REPORT_KEY_CGROUP_ID, REPORT_KEY_TRANSACTION, REPORT_KEY_TRACE, REPORT_KEY_TIME, REPORT_KEY_ADDR,
	REPORT_KEY_LOCAL_WEIGHT, REPORT_KEY_WEIGHT, REPORT_KEY_CODE_PAGE_SIZE, REPORT_KEY_LOCAL_INS_LAT, REPORT_KEY_INS_LAT,
	REPORT_KEY_LOCAL_P_STAGE_CYC, REPORT_KEY_P_STAGE_CYC, REPORT_KEY_IPC_NULL,
	REPORT_KEY_DSO_FROM, REPORT_KEY_DSO_TO, REPORT_KEY_SYM_FROM, REPORT_KEY_SYM_TO,
	REPORT_KEY_MISPREDICT, REPORT_KEY_IN_TX, REPORT_KEY_ABORT, REPORT_KEY_CYCLES,
	REPORT_KEY_SRCLINE_FROM, REPORT_KEY_SRCLINE_TO, REPORT_KEY_ADDR_FROM, REPORT_KEY_ADDR_TO,
	REPORT_KEY_SYM_DADDR, REPORT_KEY_SYM_IADDR, REPORT_KEY_DSO_DADDR, REPORT_KEY_LOCKED, REPORT_KEY_TLB,
	REPORT_KEY_MEM, REPORT_KEY_SNOOP, REPORT_KEY_DCACHELINE, REPORT_KEY_PHYS_DADDR, REPORT_KEY_DATA_PAGE_SIZE,
	REPORT_KEY_BLOCKED,
	REPORT_NR_KEYS
};
#define REPORT_MAX_KEYS 16

/*
 * The views report_sort_key_find looks in: the usual one (also diff's), the
 * branch view, and the usual one with the memory keys (--mem-mode).
 */
enum report_sort_view { REPORT_SORT_USUAL, REPORT_SORT_BRANCH, REPORT_SORT_MEM };

/*
 * The key p[0..len) names in view, or -1.  The usual view matches as perf
 * does: the first key p begins, in any case ("sym", "Symbol", "d"); the
 * branch view its own keys by their whole names, comm and pid as the
 * usual view.
 */
int report_sort_key_find(const char *p, size_t len, enum report_sort_view view);
const char *report_sort_key_name(enum report_key k);
/* Whether k is a memory key, which only --mem-mode takes. */
bool report_sort_key_mem(enum report_key k);
/* perf's default sort order in memory mode (x86 drops its local_p_stage_cyc). */
#define REPORT_MEM_SORT_ORDER "local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked,local_ins_lat,local_p_stage_cyc"
/*
 * The names of view's keys (but those of the view except, or -1),
 * ", "-separated, into buf (of len bytes, at least 1): for messages.
 */
void report_sort_key_list(char *buf, size_t len, enum report_sort_view view, int except);

/*
 * -F/--fields (fields.c): perf's output fields, each a value column (its
 * hpp formats: overhead, overhead_sys, overhead_us, overhead_guest_sys,
 * overhead_guest_us, overhead_children, sample, period) or a sort key, in
 * the order given.  As perf, they and --sort make each other: a sort key
 * not among the fields is shown after them, a field not among the sort
 * keys is compared after them.
 */
enum report_value {
	REPORT_VALUE_OVERHEAD, REPORT_VALUE_OVERHEAD_SYS, REPORT_VALUE_OVERHEAD_US, REPORT_VALUE_OVERHEAD_GUEST_SYS,
	REPORT_VALUE_OVERHEAD_GUEST_US, REPORT_VALUE_OVERHEAD_CHILDREN, REPORT_VALUE_SAMPLE, REPORT_VALUE_PERIOD,
	REPORT_NR_VALUES
};

struct report_field {
	bool value;		/* id is an enum report_value, else an enum report_key */
	int id;
};
#define REPORT_MAX_FIELDS 16

/*
 * The field p[0..len) names, matched as perf matches a --fields key: the
 * first sort key, then value, p begins, in any case.  0, or -1: unknown.
 */
int report_field_find(const char *p, size_t len, struct report_field *f);
/* The fields' names, ", "-separated, into buf (of len bytes, at least 1): for messages. */
void report_field_list(char *buf, size_t len);

/* perf's -g print modes, orders and values (-g graph,0.5,caller,function,percent). */
enum report_cc_mode { REPORT_CC_GRAPH, REPORT_CC_FRACTAL, REPORT_CC_FLAT, REPORT_CC_FOLDED, REPORT_CC_NONE };
enum report_cc_order { REPORT_CC_CALLEE, REPORT_CC_CALLER };
enum report_cc_value { REPORT_CC_PERCENT, REPORT_CC_PERIOD, REPORT_CC_COUNT };

/*
 * The versions of report --json's document (mperf-report) and diff
 * --json's (mperf-diff), in man/mperf-report.1 and man/mperf-diff.1: 2
 * renamed version 1's snake_case keys to kebab-case, the style of every
 * document of mperf's; diff's 3 gives an event's total under --check as the
 * median of each side's runs (2: their mean, with a p-value).
 */
#define REPORT_JSON_VERSION 2
#define REPORT_DIFF_JSON_VERSION 3

/*
 * The samples report and script keep, as perf drops them before they
 * count anywhere: -C/--cpu's CPUs ("0,2-3") and --time's ranges, in
 * perf's forms ("start,stop" in seconds, several separated by spaces;
 * "10%/2", "0%-10%,30%-40%", "25%" of the file's sample times).
 */
struct report_sample_filter {
	const char *cpu_list;			/* -C, or NULL */
	const char *time;			/* --time, or NULL */
	bool reltime;				/* script --reltime: --time's values from the first sample */
};

struct report_hist_opts {
	enum report_key keys[REPORT_MAX_KEYS];	/* sort order (default comm,dso,sym) */
	int nr_keys;
	double percent_limit;			/* hide entries below this share */
	struct report_field fields[REPORT_MAX_FIELDS];	/* -F/--fields, in order */
	int nr_fields;				/* 0: not given */
	bool fields_add;			/* -F +a,b: after perf's default columns (else those alone) */
	bool hierarchy;				/* --hierarchy: the entries as a tree, a level per key column */
	const char *comm;			/* comma-separated commands to keep, or NULL */
	const char *dso;			/* comma-separated DSO names to keep, or NULL */
	const char *sym;			/* comma-separated symbol names to keep, or NULL */
	const char *pid, *tid;			/* comma-separated process / thread ids to keep, or NULL */
	const char *symbol_filter;		/* --symbol-filter: only symbols whose name holds it */
	struct report_sample_filter filter;	/* -C, --time */
	bool relative;				/* --percentage relative: shares of what the filters show */
	bool json;				/* one JSON document instead of text */
	bool after_header;			/* --header came first: no prologue line */
	bool quiet;				/* -q: the rows alone, no header lines (perf's) */
	/*
	 * Call chains, for files whose samples have them: perf's defaults
	 * are the Children view with a caller graph, or callee without it.
	 */
	int children;				/* -1: perf's default (on when the file has chains) */
	bool cc_asked;				/* -g/--call-graph or -G was given */
	enum report_cc_mode cc_mode;
	enum report_cc_order cc_order;
	bool cc_order_set;			/* an order was given (-g caller/callee, -G) */
	enum report_cc_value cc_value;
	double cc_min_percent;			/* the threshold (default 0.5) */
	unsigned cc_print_limit;		/* chains printed per entry, 0: all */
	bool sort_given;			/* --sort was given (perf elides a graph's first frame for sym...) */
	unsigned max_stack;			/* --max-stack: frames of a chain kept, 0: perf's 127 */
	/*
	 * perf's event groups: by default a group (the file's GROUP_DESC)
	 * shows as one histogram, its leader's, with a value per member.
	 * --group or --no-group (group_set) with a file without groups makes
	 * every event a member of the first one's group, as perf forces it.
	 */
	bool no_group;				/* --no-group: one histogram per event */
	bool group_set;				/* --group or --no-group was given */
	int group_sort_idx;			/* --group-sort-idx: sort by this member first */
	bool show_nr;				/* -n: a Samples column */
	bool show_period;			/* --show-total-period: a Period column */
	bool show_threads;			/* -T: the READ records' counts per thread, after the text */
	bool no_inline;				/* --no-inline: chains without perf's inline frames */
	const char *ignore_callees;		/* --ignore-callees: an extended regex of symbols, or NULL */
	const char *parent;			/* -p/--parent: the parent key's regex, NULL: perf's "^sys_|^do_page_fault" */
	bool exclude_other;			/* -x/--exclude-other: hide the entries without a parent */
	uint64_t time_quantum;			/* --time-quantum: the time key's, in ns (0: perf's 100 ms) */
	/*
	 * The branch view: -1 as perf chooses (a file-mode file with the
	 * BRANCH_STACK feature), 0 never (--no-branch-stack), 1 always (-b).
	 */
	int branch;
	enum report_key bkeys[REPORT_MAX_KEYS];	/* its sort order (the branch view's keys) */
	int nr_bkeys;
	/*
	 * --mem-mode: perf's memory mode, its memory keys, each sample
	 * weighing its weight (1 without one), its default order
	 * local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked,local_ins_lat
	 * (mem_sort: the --sort text its header shows, NULL: that default).
	 */
	bool mem_mode;
	const char *mem_sort;
	bool sort_symbol;			/* the --sort text names "symbol": perf adds its IPC column */
	/*
	 * --sort's value keys (perf's hpp fields: overhead, sample, period...),
	 * in the order given, each before keys[at] (at == nr_keys: after them);
	 * and whether the text names "overhead" or "overhead_children": perf
	 * puts those first in the sort order only where it does not.
	 */
	struct report_sort_value { enum report_value v; int at; } sort_values[REPORT_NR_VALUES];
	int nr_sort_values;
	bool sort_names_overhead, sort_names_children;
	char sort_unfit[2][32];			/* a --sort key the usual [0] or the branch [1] view lacks, or "" */
	char fields_unfit[2][32];		/* the same of -F's fields */
	/* The kernel's symbols from these files, as perf's -k/--vmlinux and --kallsyms (NULL: as perf finds them). */
	const char *vmlinux, *kallsyms;
	const char *symfs;			/* --symfs: the recording's files under this directory, or NULL */
	bool no_demangle;			/* --no-demangle: user-space names as the files have them */
	bool verbose;				/* -v: DSOs by their long names, symbols after address and origin */
	bool full_source_path;			/* --full-source-path: srcline and srcfile keep the file's directories */
};

/* The per-event histograms of perf report --stdio (cmd/ picks the branch view below when it applies). */
int report__hist(struct pdata *p, const char *label, const struct report_hist_opts *o, FILE *out);

/* --tasks (tasks.c): perf's tree of the file's threads; with mmaps (--mmaps) each one's maps too. */
int report__tasks(struct pdata *p, const char *label, bool mmaps, FILE *out);

/*
 * The branch view (branch.c): whether p gets it under o (1, or 0; a
 * negative code, logged, when o cannot be honoured), and the view itself.
 * A file whose header says it has branch stacks when none of its events
 * samples them is damaged: 0 (the usual view), with -MPERF_ERR_CORRUPT,
 * logged, in *damage, for the caller to return after its output.
 */
int report__branch_wanted(struct pdata *p, const char *label, const struct report_hist_opts *o, int *damage);
int report__branch(struct pdata *p, const char *label, const struct report_hist_opts *o, FILE *out);

/*
 * The per-event entries report__hist counts, for other consumers (mperf
 * diff): read once with report__hists_read (Self periods: chains and the
 * Children view are left out, whatever o says of them), then looked at
 * event by event and entry by entry, in perf's input order (its compare
 * functions: an unresolved address after the symbols of its DSO, by
 * address).  Strings stay valid until report_hists__free.
 */
struct report_hists;

struct report_entry {
	const char *comm;		/* the first sample's command */
	const char *thread_comm;	/* its thread's at the end of the file (the pid column's) */
	int tid;
	int cpu;			/* the first sample's, -1: the file's samples do not say */
	int socket;			/* its socket in the file's CPU_TOPOLOGY, -1: unknown */
	const char *dso;		/* short name, as perf shows it; NULL: no map ("[unknown]") */
	const char *sym;		/* NULL: unresolved, addr is shown */
	uint64_t sym_start, sym_end;
	uint64_t addr;			/* the first sample's map-relative address */
	char level;			/* '.' user, 'k' kernel, ... */
	bool inlined;			/* sym ends in " (inlined)" */
	bool object;			/* a kallsyms data symbol: shown as sym+0xobject_off */
	uint64_t object_off;		/* the first sample's offset in it */
	bool filtered;			/* hidden by o's comm/dso filters: in the totals, not shown */
	uint64_t period, samples;
};

struct report_event_hist {
	uint64_t total_period;		/* every sample's, filtered ones too */
	uint64_t shown_period;		/* the samples' the filters keep */
	uint64_t nr_samples, lost;
	size_t nr_entries;
};

/* 0 and *out, or a negative code (logged). */
int report__hists_read(struct pdata *p, const char *label, const struct report_hist_opts *o,
		       struct report_hists **out);
/* The file's events, by index (pdata__evsel's): a stream may add some while it is read. */
size_t report_hists__nr_events(const struct report_hists *h);
void report_hists__event(const struct report_hists *h, size_t ev, struct report_event_hist *e);
void report_hists__entry(const struct report_hists *h, size_t ev, size_t i, struct report_entry *r);
void report_hists__free(struct report_hists *h);

/*
 * The text of report__hist, cut into its parts, for the report browser
 * (cmd/ui): the same bytes as --stdio prints, and where each event's
 * histogram, its column header, each entry's line and its call-chain
 * lines begin, with the entry's keys (to zoom and filter by).  Offsets
 * are into text; a line's length leaves out its '\n'.
 */
struct report_hist_row {
	size_t line, line_len;		/* the entry's line */
	size_t chain, chain_len;	/* its chain's lines, each ending in '\n' (0 long: none) */
	struct report_entry e;		/* its keys (strings valid until report_hist_doc__free) */
};

struct report_hist_section {
	size_t ev;			/* the event (a group's leader) */
	const char *name;		/* the event's name (valid while p is open) */
	uint64_t samples, lost;		/* the event's samples (a group's, every member's) and lost samples */
	bool shown;			/* --stdio prints it (it has samples) */
	size_t head, head_len;		/* its "# Samples:" and "# Event count" lines, or 0 long (-q) */
	size_t cols, cols_len;		/* the line naming the columns, or 0 long (-q) */
	size_t first_row, nr_rows;	/* its entries, in rows */
};

struct report_hist_doc {
	char *text;
	size_t len;
	struct report_hist_section *sec;	/* every event but group members, in the file's order */
	size_t nr_sec;
	struct report_hist_row *row;
	size_t nr_rows;
	struct report_hists *h;		/* what the rows' strings point into */
};

/* d filled as report__hist prints p's histograms (the usual view); 0 or a negative code (logged). */
int report__hist_doc(struct pdata *p, const char *label, const struct report_hist_opts *o, struct report_hist_doc *d);
void report_hist_doc__free(struct report_hist_doc *d);

/*
 * mperf top: the histograms of a stream in memory that grows (a pipe-mode
 * pdata__open_mem, grown with pdata__mem_grow), kept from one document to
 * the next: each report_live__doc reads only the records that came since
 * the last one and prints every event's histogram so far into d, as
 * report__hist_doc does (its strings valid until report_live__free; free
 * d with report_hist_doc__free).  With call chains or groups, whose
 * printing changes the histograms, a copy of them is printed; no samples,
 * no sections.  report_live__zero drops every entry, its chains and the
 * totals (not the lost samples): perf top's -z.
 */
struct report_live;
int report_live__open(struct pdata *p, const char *label, const struct report_hist_opts *o, struct report_live **out);
int report_live__doc(struct report_live *l, struct report_hist_doc *d);
void report_live__zero(struct report_live *l);
void report_live__free(struct report_live *l);
/* The lowest byte of the stream still needed (a record queued in place, session__held), NULL when none. */
const void *report_live__held(const struct report_live *l);
/* Its symbols, for another view of the same stream (top's annotations): valid until report_live__free. */
struct symcache;
struct symcache *report_live__symcache(struct report_live *l);
/*
 * Every record and sample the histograms read handed to also's record and
 * sample callbacks too (both set; its finish is not called), from the
 * next report_live__doc on: a second view of the stream, its records read
 * and resolved once (top's annotations).
 */
struct session_ops;
void report_live__also(struct report_live *l, const struct session_ops *also);

/* mperf diff's computations, as perf diff's -c names them. */
enum report_diff_compute { REPORT_DIFF_DELTA, REPORT_DIFF_DELTA_ABS, REPORT_DIFF_RATIO, REPORT_DIFF_WDIFF };

/*
 * mperf diff --check's rules (diff.c): an entry or event breaks a rule when
 * its change is beyond the rule's tolerance and beyond the noise: for a
 * share, the two-proportion test over the runs (lib/proptest.h, Bonferroni
 * over the entries, at REPORT_GATE_ALPHA); for a total, the median of each
 * side's run totals (one run in a burst of load moves it not: diff.c).  A
 * rule whose on bit is clear is not checked.
 */
enum report_gate_rule { REPORT_GATE_SHARE = 1u << 0, REPORT_GATE_NEW = 1u << 1, REPORT_GATE_TOTAL = 1u << 2 };

struct report_gate {
	unsigned on;			/* enum report_gate_rule bits */
	double share;			/* share: grew by more than this many points ... */
	bool share_pct;			/* ... or this percent of the baseline's share */
	double new_share;		/* new: an entry only the new side has, above this share */
	double total;			/* total: the median of the event's run periods moved by more than this percent */
	bool total_up;			/* ... grew only (total:+N) */
};

#define REPORT_GATE_ALPHA 0.05

/* One entry (or an event's total: entry NULL) that broke rules. */
struct report_gate_break {
	char event[128];
	char *entry;			/* its keys as the text shows them, malloc'ed; NULL: the event's total */
	unsigned rules;			/* enum report_gate_rule bits */
	double old, new_;		/* shares (percent), or the median run periods */
	double p;			/* a share's test's p-value (0 for a total) */
};

struct report_gate_result {
	struct report_gate_break *v;
	size_t n, cap;
};

void report_gate_result_free(struct report_gate_result *r);
/* rule (one bit) as --check spells it: "share:5", "new:2", "total:+10"... */
void report_gate_rule_text(const struct report_gate *g, unsigned rule, char *buf, size_t len);

/* NONE: the check alone (its verdict in the result), for the flame graph beside it. */
enum report_diff_format { REPORT_DIFF_TEXT, REPORT_DIFF_JSON, REPORT_DIFF_MARKDOWN, REPORT_DIFF_JUNIT, REPORT_DIFF_NONE };

struct report_diff_opts {
	struct report_hist_opts hist;	/* the keys and filters (comm, dso) */
	enum report_diff_compute compute;	/* default delta-abs, as perf 6.1 */
	long long wdiff_w1, wdiff_w2;	/* -c wdiff:W1,W2 */
	unsigned order;			/* -o: 0 by baseline, 1 (default) by the computed column */
	bool period;			/* -p: the periods too */
	bool formula;			/* -F: the formula too */
	bool baseline_only;		/* -b: only the entries that have a match in the baseline */
	bool relative;			/* --percentage relative: shares of what the filters keep */
	bool quiet;			/* -q: the entries alone, without the headers */
	enum report_diff_format format;	/* text (perf's), JSON (largest moves first), markdown, JUnit XML */
	struct report_gate gate;	/* --check's rules (gate.on 0: no check) */
	const char *rules;		/* --check's rules as given, for the outputs */
	unsigned top;			/* markdown: the largest moves shown per event */
};

/* One side of a diff: one recording, or several runs of one build. */
struct report_diff_side {
	struct pdata **p;
	const char **labels;
	size_t n;
};

/*
 * `mperf diff`: every event of the baseline old, its entries matched with
 * the new file's by the sort keys' names (the same DSO and symbol name,
 * whatever their addresses), as perf diff 6.1 prints them; in diff.c.
 * Several runs a side are pooled (their periods summed) and the rules of
 * o->gate tested over them; res (may be NULL without rules) gets what
 * broke them.
 */
int report__diff_runs(const struct report_diff_side *old, const struct report_diff_side *new_,
		      const struct report_diff_opts *o, struct report_gate_result *res, FILE *out);
int report__diff(struct pdata *old, const char *old_label, struct pdata *new_, const char *new_label,
		 const struct report_diff_opts *o, FILE *out);

/*
 * mperf diff --format=svg or folded: the new side's stacks as a flame graph
 * whose frames are coloured by the change of their share (red grew, blue
 * shrank), or each folded stack with its samples on both sides; in
 * export.c and flame.c.
 */
int report__diff_export(const struct report_diff_side *old, const struct report_diff_side *new_, bool svg,
			const char *vmlinux, const char *kallsyms, FILE *out);

/*
 * --format: the stacks of every sample (its call chain, fp or dwarf, as
 * the histograms walk it; its ip alone without one), per event, as folded
 * stacks, an interactive flame graph (SVG) or a pprof profile (gzipped
 * protobuf); in export.c, flame.c and pprof.c.
 */
enum report_export_format { REPORT_EXPORT_FOLDED, REPORT_EXPORT_SVG, REPORT_EXPORT_PPROF };

struct report_export_opts {
	enum report_export_format format;
	const char *title;		/* the input's name in titles (default: label) */
	const char *vmlinux, *kallsyms;	/* as report_hist_opts' */
};

int report__export(struct pdata *p, const char *label, const struct report_export_opts *o, FILE *out);

/*
 * --header-only: the header and features, as perf report --header-only
 * prints them; full (-I, --show-info): the topologies whole (CPU, NUMA,
 * caches, memory, hybrid), not "use -I to display".
 */
int report__header(struct pdata *p, const char *label, time_t mtime, bool full, FILE *out);

/*
 * The DSOs a recording names, as perf buildid-list 6.1 finds them (in
 * buildid.c): the BUILD_ID feature's, then (in pipe mode, or with_hits)
 * those its mmaps name, each once per machine, in perf's order.
 */
struct report_dso {
	const char *name;		/* as perf names it: a path, [kernel.kallsyms], [vdso]... */
	unsigned char id[20];
	size_t id_len;			/* 0: none known */
	bool has_id;			/* the recording gave one (of id_len bytes, maybe 0) */
	bool kernel;			/* the kernel's or a module's */
	bool hit;			/* a sample's ip fell in it (known with_hits) */
	int32_t machine;		/* -1: the host, else the guest's pid */
};
/*
 * Call fn for each DSO (with_hits: those a sample's ip fell in, as perf
 * marks them; not for a file with AUX area data, whose every DSO perf
 * takes).  fn's negative return stops the walk and is returned.
 */
int report__dsos(struct pdata *p, const char *label, bool with_hits,
		 int (*fn)(void *arg, const struct report_dso *d), void *arg);
/* perf buildid-list's lines: "<build id, padded to 40> <name>" per DSO. */
int report__buildid_list(struct pdata *p, const char *label, bool with_hits, FILE *out);

/*
 * `mperf archive` (archive.c): the build-id cache entries of the DSOs
 * samples fell in (those with an id), made first in debugdir (perf's
 * ~/.debug layout) from this machine's files when missing and their ids
 * are the recorded ones, packed by tar(1) into input + ".tar.bz2" (or
 * ".tar.gz" without bzip2, ".tar" without gzip).  A DSO this machine has
 * no copy of is one warning and is left out.  No tarball when nothing
 * is archived (res->archived 0).
 */
struct report_archive {
	size_t archived;		/* DSOs in the tarball */
	size_t added;			/* of which the cache did not have before */
	size_t missing;			/* left out: neither in the cache nor here */
	char output[4096 + 16];		/* the tarball written */
};
int report__archive(struct pdata *p, const char *label, const char *debugdir, const char *input,
		    struct report_archive *res);

/*
 * `mperf script`: one line per sample as perf script 6.1 prints it (and
 * its call chain, one line per frame), tracepoints' fields decoded with
 * libtraceevent from the file's TRACING_DATA; in script.c.
 */

/* The fields perf script's -F names that mperf prints. */
enum script_field {
	SCRIPT_F_COMM = 1u << 0, SCRIPT_F_TID = 1u << 1, SCRIPT_F_PID = 1u << 2,
	SCRIPT_F_TIME = 1u << 3, SCRIPT_F_CPU = 1u << 4, SCRIPT_F_EVENT = 1u << 5,
	SCRIPT_F_TRACE = 1u << 6, SCRIPT_F_IP = 1u << 7, SCRIPT_F_SYM = 1u << 8,
	SCRIPT_F_DSO = 1u << 9, SCRIPT_F_SYMOFF = 1u << 10, SCRIPT_F_PERIOD = 1u << 11,
	SCRIPT_F_SRCLINE = 1u << 12, SCRIPT_F_INSN = 1u << 13, SCRIPT_F_INSNLEN = 1u << 14,
	SCRIPT_F_CALLINDENT = 1u << 15, SCRIPT_F_MISC = 1u << 16, SCRIPT_F_IPC = 1u << 17,
};

/*
 * perf script prints fields by kind of event: hardware, software,
 * tracepoint, hardware cache, raw, breakpoint (the attr types), and any
 * other PMU.
 */
#define SCRIPT_NR_TYPES 7

struct report_script_opts {
	struct {
		unsigned fields;	/* what to print */
		unsigned named;		/* what -F named: refused when the samples lack it */
		bool user_set;		/* -F decided this type's fields */
		bool named_any;		/* perf's wildcard_set: else a type -F set has to be in the file */
	} type[SCRIPT_NR_TYPES];
	bool flags;			/* -F flags: perf's print_flags, for every type */
	bool header;			/* --header: the file's header first */
	struct report_sample_filter filter;	/* -C, --time (with --reltime) */
	const char *comm, *pid, *tid;	/* --comms, --pid, --tid: comma-separated, or NULL */
	const char *sym;		/* -S/--symbols: comma-separated names (or 0x addresses) */
	bool ns;			/* --ns: the time in nanoseconds */
	bool reltime, deltatime;	/* --reltime, --deltatime: from the first sample, the previous one */
	bool hide_call_graph;		/* -G/--hide-call-graph */
	unsigned max_stack;		/* --max-stack: frames of a chain printed, 0: perf's 127 */
	bool show_task, show_mmap, show_lost;	/* --show-task-events, --show-mmap-events, --show-lost-events */
	bool no_inline;			/* --no-inline: unwound chains without perf's inline frames */
	bool latency;			/* -L/--Latency: perf's latency_format (comm %8.8s, cpu %3d) */
	bool show_switch, show_round;	/* --show-switch-events, --show-round-events (file order) */
	/* -F insn, insnlen: the length of the x86 instruction at code (cmd's disassembler); NULL: 0 */
	unsigned (*insn_length)(void *ctx, const uint8_t *code, size_t len);
	void *insn_ctx;
	const char *vmlinux;		/* -k: the kernel's symbols from this image only */
	const char *kallsyms;		/* --kallsyms: from this kallsyms file */
};

/* perf's defaults (no -F). */
void report__script_defaults(struct report_script_opts *o);
/*
 * One -F argument, as perf script takes it: "[TYPE:]FIELD,..." sets the
 * fields (of TYPE: hw, sw, trace, raw, break, or all), "+FIELD" adds to
 * what is set and "-FIELD" takes away.  0, or -MPERF_ERR_USAGE (logged).
 */
int report__script_fields(struct report_script_opts *o, const char *arg);
int report__script(struct pdata *p, const char *label, const struct report_script_opts *o, FILE *out);

#endif
