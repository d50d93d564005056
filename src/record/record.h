/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_RECORD_H
#define MPERF_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/perf_event.h>
#include "../host/host.h"

#define RECORD_DEFAULT_FREQ	4000
#define RECORD_DEFAULT_PAGES	128
#define RECORD_MAX_PAGES	(1u << 20)	/* data pages per CPU buffer: 4 GiB of 4 KiB pages */
#define RECORD_MAX_EVENTS	64
#define RECORD_MAX_FILTERS	8	/* --filter options on one event */
/* --call-graph dwarf: perf's default stack copy, and the most the kernel takes (a u16, 8-aligned). */
#define RECORD_DEFAULT_STACK_SIZE	8192
#define RECORD_MAX_STACK_SIZE	65528
/*
 * The user registers perf samples for DWARF unwinding on x86_64: every
 * general register, ip, flags, cs and ss, but not ds, es, fs and gs
 * (bits 12-15 of perf_regs.h's numbering); ip and sp are the least any
 * unwinding needs.
 */
#define RECORD_DWARF_REGS	0xff0fffULL
#define RECORD_MINIMAL_REGS	((1ULL << 7) | (1ULL << 8))

/* A call-graph= term: none given, no, fp or dwarf (lbr is refused by the parser). */
enum record_cg_mode { RECORD_CG_UNSET, RECORD_CG_NO, RECORD_CG_FP, RECORD_CG_DWARF };

/*
 * One event of -e, as perf 6.1 parses it.  attr holds only what the event
 * string sets (type, config*, bp_*, the exclude bits, precise_ip, pinned,
 * exclusive; sample_period or freq + sample_freq when a term or the kind
 * of event sets them); record adds its own defaults when it opens it.
 */
/*
 * perf's tool events, which stat alone counts (no kernel event: mperf
 * measures them): attr.type RECORD_TYPE_TOOL, attr.config which.
 */
#define RECORD_TYPE_TOOL	0x7f000000u
enum record_tool { RECORD_TOOL_DURATION, RECORD_TOOL_USER, RECORD_TOOL_SYSTEM, RECORD_NR_TOOLS };
extern const char *const record_tool_names[RECORD_NR_TOOLS];	/* "duration_time", "user_time", "system_time" */

struct record_event {
	char name[128];		/* perf's name: as written ("cycles:u", "software/config=0/"),
				   the name= term, or SYS:NAME for a tracepoint */
	struct perf_event_attr attr;
	/*
	 * A period= or freq= term fixed the sampling: -c/-F never override it.
	 * attr.sample_period set without them is the kind's default (1 for a
	 * tracepoint, a breakpoint, bpf-output): kept unless -c or -F is given,
	 * as perf does.
	 */
	bool period_set, freq_set;
	int leader;		/* index in the array of its group's leader; itself when alone or leading */
	int group_size;		/* on a leader: its group's number of events (1 when alone) */
	char group_name[64];	/* on a leader: the group's name (foo{a,b}), or "" */
	bool sample_read;	/* :S: leader sampling (PERF_SAMPLE_READ, read_format GROUP in a group) */
	bool precise_max;	/* :P: attr.precise_ip is 3, to be lowered until the kernel takes it */
	bool mod_set;		/* a modifier was given: the exclude bits are what the user asked */
	/*
	 * --filter strings for a tracepoint (argv's, not copied), in the order
	 * given; set on the kernel's event as perf combines them: (a) && (b).
	 */
	const char *filters[RECORD_MAX_FILTERS];
	int nr_filters;
	/*
	 * The event's own call graph: call-graph=, stack-size=, max-stack=
	 * (the last of each wins).  Any of them replaces -g/--call-graph for
	 * this event, as perf 6.1 applies them (setup_attr in events.c).
	 * record only: mperf stat refuses them (cg_term names the first).
	 */
	enum record_cg_mode cg_mode;
	uint32_t cg_stack_size;	/* stack-size=, rounded up to 8; 0 when not given */
	uint16_t cg_max_stack;	/* max-stack=; 0 when not given */
	const char *cg_term;	/* "call-graph", "stack-size" or "max-stack": the first given, or NULL */
};

/*
 * Parse spec, one -e argument, and append its events to ev[*n..max).
 * Returns 0, or a negative code with the reason logged in one line and *n
 * unchanged: -MPERF_ERR_NOEVENT for an unknown event, PMU, term or
 * tracepoint, -EOPNOTSUPP for what perf takes and mperf does not
 * (inherit, call-graph=lbr...), -E2BIG past max, -ENOENT when
 * tracepoints are asked for and tracefs is not mounted, -EINVAL for bad
 * syntax or a term's bad value.
 */
int record__parse_events(const char *spec, struct record_event *ev, size_t max, size_t *n);

/*
 * The event record samples when no -e is given, as perf 6.1 makes it
 * (evsel__new_cycles, not the parser): cycles as precise as the PMU
 * allows, guests excluded (perf's default for every event it makes) except
 * on AMD, where precise cycles go through IBS, which cannot filter guests,
 * so perf clears exclude_guest there.  amd: the CPU's vendor is
 * AuthenticAMD.  The kernel may still refuse exclude_guest: events.c
 * drops it then, as perf's missing-features probe does.
 */
int record__default_event(struct record_event *ev, size_t max, size_t *n, bool amd);

/*
 * --filter FILTER, as perf: it applies to every event of the last -e
 * (ev[first..n)), which must all be tracepoints.  0, or -EINVAL with the
 * reason logged in one line (no -e before it, an event that is not a
 * tracepoint, too many filters).  Field names are checked by record__run,
 * against the events' formats, before anything is opened.
 */
int record__add_filter(struct record_event *ev, size_t first, size_t n, const char *filter);

/* Where the parser finds PMUs and tracepoints, for tests: NULL is this machine's. */
struct record_parse_env {
	const char *pmu_dir;	/* default /sys/bus/event_source/devices */
	const char *tracing_dir;	/* default /sys/kernel/tracing, then /sys/kernel/debug/tracing */
};
int record__parse_events_env(const char *spec, struct record_event *ev, size_t max, size_t *n,
			     const struct record_parse_env *env);

/* Why perf_event_open said EACCES or EPERM, as far as this machine tells. */
struct record_denial {
	int paranoid;		/* kernel.perf_event_paranoid, or INT_MIN when unknown */
	bool cpu_wide;		/* every task of a CPU (pid -1: -a, -C): needs paranoid 0 or less */
	bool kernel;		/* the kernel too: needs 1 or less (user space alone: 2) */
	enum host_denier denier;	/* a seccomp filter or another that refuses every open (doctor's probe) */
};
/*
 * Whether an event refused the kernel (EACCES) may open for user space
 * alone, perf's fallback: not for every task of a CPU (pid -1), which
 * needs the paranoid level that allows the kernel too, nor under a filter
 * that refuses every open.
 */
bool record__user_only_helps(int pid);
/* d filled for a refused open of attr on pid (-1: every task of a CPU); returns d. */
const struct record_denial *record__denial(const struct perf_event_attr *attr, int pid, struct record_denial *d);

/*
 * The message for a refused perf_event_open(), in the user's terms: an
 * event this machine does not have (no PMU, no such PMU, one that cannot
 * sample it), no permission (d: the perf_event_paranoid value the mode
 * needs against the machine's, CAP_PERFMON; a seccomp filter named as
 * such; d NULL: unknown), the fd limit, a busy PMU, attributes the kernel
 * refuses.  type is the attr's.
 */
void record__open_error(char *buf, size_t len, const char *event, uint32_t type, int cpu, int err,
			const struct record_denial *d);

/*
 * mperf list: print to out the events record -e can open here, in perf
 * list's shape and order; filter is NULL, a class (hw, sw, cache, pmu,
 * tracepoint) or a glob matched anywhere in the name.  Hardware and cache
 * events are listed when the kernel opens them, cycles also when record
 * falls back to cpu-clock (said in its line).  pmu_dir NULL is
 * /sys/bus/event_source/devices.  0, or a negative code, logged.
 */
int record__list(const char *filter, const char *pmu_dir, FILE *out);

/*
 * --control=fifo:CTL[,ACK] or fd:CTL[,ACK], as perf: commands (enable,
 * disable [EVENT], snapshot, stop, ping, evlist) read one a line from CTL,
 * each acknowledged with perf's "ack\n" (and its NUL) on ACK.
 */
struct record_control {
	int fd, ack;		/* -1 when none; the FIFOs' once record__run opened them */
	const char *ctl_path, *ack_path;	/* fifo: the paths (ack_path NULL: no ACK) */
	char paths[2][4096];
};
/*
 * Parse spec as perf does (fifo:CTL[,ACK], fd:N[,M]) into c, opening
 * nothing.  0, or -EINVAL with the reason logged in one line.
 */
int record__parse_control(const char *spec, struct record_control *c);

struct record_live {
	int fd;
	uint64_t every_ms;
	int (*tick)(void *ctx, uint64_t last_time);
	void *ctx;
};

struct record_opts {
	const struct record_event *events;
	size_t nr_events;
	uint64_t freq;		/* samples per second, or 0 when period is used */
	uint64_t period;
	bool rate_given;	/* -F or -c was given: it replaces an event kind's default period */
	size_t mmap_pages;	/* data pages per CPU buffer, a power of two */
	int comp_level;		/* -z: zstd's level (1 to 22) for COMPRESSED records; 0: none */
	uint64_t mmap_flush;	/* --mmap-flush: bytes a buffer holds before a drain takes them (at most a quarter) */
	/* perf's attr options, set as perf sets them (perf evlist -v of the same command agrees). */
	bool stat;		/* -s: per-thread counts (inherit_stat, READ records at exit, times) */
	bool data_addr;		/* -d: sample addresses (ADDR, DATA_SRC, data mmaps) */
	bool weight;		/* -W: sample weights (WEIGHT_STRUCT) */
	bool switch_events;	/* --switch-events: context switch records */
	bool namespaces;	/* --namespaces: namespace records */
	bool no_bpf_event;	/* --no-bpf-event: no BPF_EVENT records (perf's attr bit) */
	bool no_inherit;	/* --no-inherit: children are not followed */
	bool callchain;		/* -g, --call-graph fp: PERF_SAMPLE_CALLCHAIN on every event */
	bool sample_time;	/* -T: samples carry their time even --per-thread */
	bool no_buildid_cache;	/* -N: leave perf's build-id cache (~/.debug) alone */
	/*
	 * -k/--clockid: every event's times from this clock (use_clockid),
	 * and the CLOCKID and CLOCK_DATA features that say which, as perf.
	 */
	bool use_clockid;
	int clockid;
	bool sample_cpu;	/* --sample-cpu: every sample says its CPU */
	bool raw_samples;	/* -R: RAW, CPU and TIME in every sample, as perf sets them */
	bool all_user;		/* --all-user: every event excludes the kernel (its other modifiers stay) */
	bool all_kernel;	/* --all-kernel: every event excludes user space */
	/* --timestamp-filename: the finished file renamed to OUTPUT.YYYYMMDDhhmmssCC, as perf */
	bool timestamp_filename;
	/*
	 * The target, as perf's: none is the workload (and its children);
	 * -p and -t tasks already running (the workload, if any, only says how
	 * long to record); -a or -C every task on all or some CPUs.
	 */
	const char *pids;	/* -p: comma-separated processes, with all their threads */
	const char *tids;	/* -t: comma-separated threads */
	const char *cpu_list;	/* -C: "0-1,3" */
	bool system_wide;	/* -a */
	bool per_thread;	/* --per-thread: events per thread, not per CPU */
	/*
	 * --call-graph dwarf[,SIZE]: the kernel's chain (CALLCHAIN with
	 * exclude_callchain_user), the user registers and SIZE bytes of the
	 * user stack, for report to unwind; and sample addresses, as perf.
	 */
	bool dwarf;
	uint32_t stack_size;	/* a multiple of 8, at most RECORD_MAX_STACK_SIZE */
	uint64_t user_regs;	/* --user-regs: sample these registers (REGS_USER), 0 for none */
	/*
	 * -D/--delay: the events start MS ms after the workload does (0: at
	 * once; -1: disabled until a control command enables them).  The
	 * side-band records (perf's dummy:HG) start at once all the same.
	 */
	int delay_ms;
	/*
	 * --max-size: stop, as SIGINT would, once the data written reaches
	 * this many bytes (-z: the bytes before compression); 0: no limit.
	 */
	uint64_t max_size;
	struct record_control control;	/* --control: fd -1 when none */
	/*
	 * --switch-output: the output finished, renamed OUTPUT.<timestamp>
	 * (--timestamp-filename, implied) and begun again, each file whole
	 * (its header, the kernel map, the running tasks' comms and maps): on
	 * SIGUSR2 (signal), once a file's data reaches size bytes, or every
	 * secs seconds; and at the end.  Without it SIGUSR2 is ignored, as perf.
	 */
	struct record_switch {
		bool enabled, signal;
		uint64_t size;
		uint64_t secs;
		unsigned max_files;	/* --switch-max-files: keep the last N files (the oldest removed); 0: all */
		/* Each file switched away from (not the last), for cmd/ to say: its name, polls since the last. */
		void (*dumped)(void *ctx, const char *path, uint64_t wakeups);
		void *ctx;
	} switch_output;
	/*
	 * --overwrite: the events write into backward rings (write_backward),
	 * a flight recorder that keeps the newest records, read at the end (and
	 * on SIGUSR2 with --switch-output); perf's dummy:HG carries the
	 * side-band records in rings drained as usual, so that every sample
	 * kept resolves.
	 */
	bool overwrite;
	const char *output;
	/*
	 * --threads[=SPEC]: perf's parallel streaming, the output a directory
	 * (OUTPUT/data, OUTPUT/data.N per CPU buffer), the buffers drained by
	 * one thread per mask of SPEC: cpu ("" too), core, package, numa, or
	 * MAPS/AFFINITY[:MAPS/AFFINITY]... (CPU lists).  NULL: one file.
	 */
	const char *threads;
	/*
	 * mperf top: the data go to live->fd as a pipe-mode stream, not to
	 * output, and every every_ms (at the drain loop's pace, once the
	 * writer flushed) tick is called with the newest sample's time; its
	 * non-zero return stops the recording (> 0, as a control stop) or
	 * fails it (< 0).  NULL for record's file.
	 */
	const struct record_live *live;
	char *const *argv;	/* the workload, or NULL: record until SIGINT/SIGTERM (or the tasks end) */
	int cmd_argc;		/* the command's arguments from "record" on, for the CMDLINE feature */
	char *const *cmd_argv;
};

struct record_event_stats {
	char name[128];
	bool tracking;		/* perf's dummy:HG for the side-band records of -a/-C, not asked for */
	uint64_t samples;	/* SAMPLE records written for this event */
	uint64_t lost;		/* samples the kernel dropped (read_format LOST) */
	uint64_t throttles;	/* THROTTLE records: times the kernel stopped sampling it */
	struct perf_event_attr attr;	/* as opened (after a fallback) */
	bool has_times;		/* -s: read_format has the times, ena and run are their sums */
	uint64_t ena, run;	/* ns enabled and running, over every fd (multiplexed when run < ena) */
};

struct record_result {
	int wait_status;	/* the workload's, from waitpid() */
	int exec_errno;		/* non-zero when the command could not be run */
	int stop_signal;	/* SIGINT, SIGTERM or SIGHUP that stopped the recording, or 0 */
	bool control_stop;	/* a control command (stop) ended the recording */
	bool disk_full;		/* the disk filled up: the file keeps what fit (record__run fails, -ENOSPC) */
	bool size_limited;	/* --max-size was reached and ended the recording */
	uint64_t data_size;	/* the data's bytes when the limit was checked last (before -z) */
	uint64_t control_cmds;	/* control commands taken (and acknowledged when they are) */
	bool fell_back;		/* cycles was replaced by cpu-clock */
	bool user_only;		/* the paranoid fallback: events record user space only (NAME:u) */
	uint64_t wakeups;	/* polls that returned ready */
	uint64_t timeouts;	/* polls that timed out (drained anyway) */
	uint64_t passes;	/* the drain's passes over the buffers, each followed by a poll */
	uint64_t sleeps;	/* the polls that waited: after a pass that found nothing */
	uint64_t file_size;	/* --switch-output: every file's, the removed ones too */
	char renamed[4096];	/* --timestamp-filename: the file's name once renamed, or "" */
	uint64_t files;		/* --switch-output: the files written (the last one too) */
	uint64_t file_wakeups;	/* the polls that returned ready while the last file was written */
	uint64_t comp_in, comp_out;	/* -z: the data's bytes, and the bytes of the COMPRESSED records they became */
	uint64_t samples;
	uint64_t lost_records;	/* PERF_RECORD_LOST seen in the buffers */
	uint64_t lost_events;	/* events those records say were lost */
	uint64_t elapsed_ns;	/* from the start of the workload (or the enable) to the end of the drain */
	size_t nr_events;
	struct record_event_stats ev[RECORD_MAX_EVENTS];
};

/*
 * Run the workload (if any) and sample the target, writing opts->output.  Returns 0
 * when the recording is complete (whatever the workload's exit status),
 * or a negative error, logged (res->exec_errno says when the command
 * could not be run).  An existing regular output file is renamed to
 * "<output>.old" first, as perf does.
 */
int record__run(const struct record_opts *opts, struct record_result *res);
/* Whether SPEC reads as --threads=SPEC (its CPUs are checked against the recording's by record__run). */
bool record__threads_spec_ok(const char *spec);

/* ---- counting (mperf stat): the same events and targets, counted, not sampled ---- */

struct count_result;

struct count_opts {
	const struct record_event *events;
	size_t nr_events;
	/* The target, as record's (see struct record_opts). */
	const char *pids, *tids, *cpu_list;
	bool system_wide;
	bool no_inherit;	/* children are not counted (-t implies it) */
	char *const *argv;	/* the workload, or NULL: count until SIGINT/SIGTERM (or the tasks end) */
	/*
	 * -I: every interval_ms from the start, the counts of that interval
	 * (deltas, each fd scaled by its own) handed to tick, and once more
	 * for the part interval at the end; tick's non-zero return stops the
	 * count.  0: none.
	 */
	long interval_ms;
	long interval_count;	/* --interval-count: stop after that many intervals (0: no limit) */
	long timeout_ms;	/* --timeout: stop after that long (0: none) */
	long delay_ms;		/* -D: the events enabled that long after the start (0: at once); the times from then; -1: by --control */
	struct record_control control;	/* --control: enable, disable... (fd -1 when none) */
	int (*tick)(void *ctx, const struct count_result *interval);
	void *tick_ctx;
};

struct count_value {
	char name[128];		/* as -e named it (NAME:u after the paranoid fallback) */
	struct perf_event_attr attr;	/* as opened */
	bool supported;		/* false: the kernel has no such event here (perf's <not supported>) */
	uint64_t raw;		/* the sum of every fd's count */
	double val;		/* the sum of every fd's count scaled by enabled/running (perf's scaling) */
	uint64_t ena, run;	/* the sums of TOTAL_TIME_ENABLED and TOTAL_TIME_RUNNING */
};

/* One fd's count: an event on one CPU (or -1) for one thread (or -1), scaled. */
struct count_cell {
	double val;
	uint64_t ena, run;
};

struct count_result {
	int wait_status;	/* the workload's, from wait4() */
	int exec_errno;		/* non-zero when the command could not be run */
	int stop_signal;	/* SIGINT, SIGTERM or SIGHUP that stopped the count, or 0 */
	bool user_only;		/* the paranoid fallback: user space only (NAME:u) */
	bool has_workload;	/* the command is what was counted (its rusage is below) */
	bool has_cpu;		/* -a or -C: every task of the CPUs */
	uint64_t elapsed_ns;	/* from the workload's start (or the enable) to its end */
	uint64_t utime_ns, stime_ns;	/* the workload's user and system time (wait4) */
	bool stopped;		/* --timeout or --interval-count ended the count (the workload SIGTERMed) */
	uint64_t ts_ns;		/* an interval's end, from the start */
	size_t nr_events;
	struct count_value ev[RECORD_MAX_EVENTS];
	/*
	 * Every fd's count, for -A and the --per-* modes: cell[(event *
	 * nr_cpus + cpu) * nr_threads + thread], cpus[cpu] the CPU (-1: any)
	 * and tids[thread] the thread (-1: any); NULL when nothing was read.
	 */
	struct count_cell *cell;
	int nr_cpus, nr_threads;
	int *cpus, *tids;
};

/*
 * Count o's events on the target as perf stat does: read_format
 * TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING, inherit, enable_on_exec for the
 * workload, one fd per thread (cpu -1) for a task target, one per CPU
 * (pid -1) with -a or -C; every fd read at the end (and each -I
 * interval) and summed, each fd's count kept in res->cell.  res is zeroed
 * before the first call (a later call releases what the last kept).  An
 * event the kernel does not have here is reported unsupported, not an
 * error.  Returns 0 (whatever the workload's status), or a negative code,
 * logged (res->exec_errno says when the command could not be run).
 */
int record__count(const struct count_opts *o, struct count_result *res);
/* What record__count allocated in res (its cells); res zeroed, or as a previous call left it. */
void record__count_release(struct count_result *res);

#endif
