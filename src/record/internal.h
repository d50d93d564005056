/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_RECORD_INTERNAL_H
#define MPERF_RECORD_INTERNAL_H

/*
 * The parts of record, by job: events.c opens the events and knows their
 * fds and ids; drain.c maps one buffer per CPU and drains the buffers
 * into the writer (compress.c's thread writes them with -z); workload.c
 * holds the command until the events are open; features.c and hits.c say what the feature sections hold; run.c
 * puts it together (signals, synthesized records, the end of the file).
 */

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "../lib/hash.h"
#include "../perfdata/perfdata.h"
#include "../ring/ring.h"
#include "record.h"

#define RECORD_MAX_CPUS	1024

/* ---- target.c: what is sampled, and the tasks that ran before record ---- */

struct hits;

struct target {
	int *cpus;		/* the CPUs, or one -1 (--per-thread: wherever the thread runs) */
	int nr_cpus;
	int *tids, *pids;	/* each thread and its process; one -1: every task of the CPUs */
	int nr_threads;
	size_t cap_tids, cap_pids;
	bool has_task;		/* -p or -t: tasks already running */
	bool has_cpu;		/* -a or -C: every task on the CPUs */
	bool per_thread;	/* --per-thread: no CPU, a buffer per thread */
	bool traces_workload;	/* no -p, -t, -a, -C: the workload is what is sampled */
};

/* Resolve -p, -t, -a, -C and --per-thread (errors logged, perf's overrides warned). */
int target__init(struct target *t, const struct record_opts *o);
/* The workload's pid, once forked: the thread sampled when it is the target. */
void target__set_workload(struct target *t, int pid);
/* COMM, FORK and MMAP2 records for the tasks of -p, -t, -a, -C, from /proc (their maps to hits). */
int target__synthesize(const struct target *t, struct pdata_writer *w, struct hits *hits, bool data_maps);
/*
 * A process as it runs now (the workload, in a new --switch-output file):
 * its threads' COMM records and its maps; nothing when it is gone.
 */
int target__synthesize_process(struct pdata_writer *w, struct hits *hits, bool data_maps, int pid);
void target__exit(struct target *t);

/* ---- events.c: the events, opened on every CPU and thread of the target ---- */

struct evlist {
	size_t nr_ev;
	const struct target *t;
	int nr_cpus, nr_threads;	/* t's, for the fd index */
	struct perf_event_attr attr[RECORD_MAX_EVENTS];
	int leader[RECORD_MAX_EVENTS];		/* its group's leader (itself when alone) */
	bool precise_max[RECORD_MAX_EVENTS];	/* :P: the highest precise_ip the PMU takes */
	bool renamed[RECORD_MAX_EVENTS];	/* fell back to another event: named from its attr once open */
	/* Where samples hold ip, tid, time and id: the same for every event here. */
	struct pd_sample_layout layout;
	int *fd;		/* [event][cpu][thread], -1 when not open */
	uint64_t *id;		/* [event][cpu][thread]: PERF_EVENT_IOC_ID, 0 when not open */
	uint64_t *lost_seen;	/* [event][cpu][thread]: its lost count at the last evlist__read_lost */
	bool *gone;		/* [thread]: exited before its events could be opened */
	struct idmap ids;	/* id -> event */
	const char *filter[RECORD_MAX_EVENTS];	/* a tracepoint's filter, set on each fd, or NULL */
};

/*
 * The attrs of opts' events for target t, as perf sets them up; with -a
 * or -C, perf's dummy:HG tracking event is added last.  Names (and
 * fallbacks) go to res->ev[].
 */
int evlist__init(struct evlist *el, const struct record_opts *o, struct record_result *res,
		 const struct target *t);
/* Open every event on every CPU and thread of the target (falling back from cycles to cpu-clock). */
int evlist__open(struct evlist *el, struct record_result *res);
/* Start the events that do not start at the workload's exec (a target other than the workload). */
int evlist__enable(struct evlist *el, struct record_result *res);
/*
 * Enable or disable event ev, or (ev -1) every event but the tracking
 * dummy, whose side-band records go on: the -D and --control switch.
 */
int evlist__set_enabled(struct evlist *el, const struct record_result *res, int ev, bool on);
static inline size_t evlist__idx(const struct evlist *el, size_t ev, int cpu_idx, int thread_idx)
{
	return (ev * (size_t)el->nr_cpus + (size_t)cpu_idx) * (size_t)el->nr_threads + (size_t)thread_idx;
}
static inline int evlist__fd(const struct evlist *el, size_t ev, int cpu_idx, int thread_idx)
{
	return el->fd[evlist__idx(el, ev, cpu_idx, thread_idx)];
}
/* Write each event's attr, name and ids (of the fds that are open). */
int evlist__add_to(const struct evlist *el, const struct record_result *res, struct pdata_writer *w);
/* GROUP_DESC for the groups of o's events, if any (before the data: a stream sends it first). */
int evlist__write_groups(const struct record_opts *o, struct pdata_writer *w);
/* The event a sample id belongs to, or -1. */
int evlist__event_of_id(const struct evlist *el, uint64_t id);
/*
 * read() every fd's lost count: res->ev[].lost, and a LOST_SAMPLES record
 * per fd that lost since the last call; with -s also the times enabled and
 * running (res->ev[].ena, run: the sums of this read).
 */
int evlist__read_lost(struct evlist *el, struct record_result *res, struct pdata_writer *w);
void evlist__close(struct evlist *el);

/* ---- tracing.c: the tracepoints' formats, their filters, TRACING_DATA ---- */

struct tep_handle;
struct tep_event;

struct tracing_tp {
	char sys[128], name[128];
	char *format;			/* events/SYS/NAME/format, as tracefs gives it */
	size_t format_len;
	struct tep_event *event;	/* parsed by libtraceevent (owned by tep) */
};

struct tracing {
	char dir[512];			/* where tracefs is mounted */
	struct tep_handle *tep;		/* NULL: no tracepoint */
	struct tracing_tp tp[RECORD_MAX_EVENTS];	/* each recorded tracepoint once */
	size_t nr;
	char *filter[RECORD_MAX_EVENTS];	/* [event]: what PERF_EVENT_IOC_SET_FILTER sets, or NULL */
};

/*
 * Read and parse the format of each tracepoint of o, and check each
 * --filter's field names against its event's fields (one line for the
 * first unknown one).  Nothing to do without tracepoints.
 */
int tracing__init(struct tracing *t, const struct record_opts *o);
/* The TRACING_DATA feature (nothing without tracepoints). */
int tracing__write(const struct tracing *t, struct pdata_writer *w);
void tracing__free(struct tracing *t);

/* ---- compress.c: record -z, the thread that compresses and writes the drained data ---- */

struct compressor;
/*
 * Start the thread, from now on w's only user until compressor__stop.
 * max: the bytes that may wait to be compressed before compressor__put
 * waits.  NULL with errno set, the reason logged.
 */
struct compressor *compressor__start(struct pdata_writer *w, size_t max);
/* Copy n chunks of records for the thread (waiting for room past max): 0 or the thread's error. */
int compressor__put(struct compressor *c, const void *const chunk[], const size_t len[], int n);
/* The end of a round: the thread writes FINISHED_ROUND after what was put.  0 or its error. */
int compressor__round(struct compressor *c);
/* Let the thread write what waits, and end it: 0 or its first error (logged).  NULL does nothing. */
int compressor__stop(struct compressor *c);

/* ---- control.c: -D/--delay and --control, a harness's commands ---- */

/* What record_signals_flag() holds when a control command (stop) ended the recording. */
#define RECORD_STOP_CONTROL	(-2)
/* ... and when --max-size did (drain.c). */
#define RECORD_STOP_SIZE	(-3)

struct control {
	int fd, ack;		/* -1 when none */
	bool own;		/* the FIFOs, opened by control__open: closed by control__close */
	bool polled;		/* fd is polled (until a pipe's writers are gone) */
	bool ack_failed;	/* said once */
	uint64_t enable_at;	/* -D MS: when the events start (CLOCK_MONOTONIC ns), or 0 */
	char line[64];		/* the command being read, as perf's at most 63 bytes */
	size_t len;
	uint64_t cmds;		/* commands taken (and acknowledged) */
};

/* What the commands act on: record's events, or stat's counters. */
struct control_ops {
	void *ctx;
	size_t nr;		/* events */
	const char *(*name)(void *ctx, size_t i);	/* event i's name, as evlist lists it */
	bool (*hidden)(void *ctx, size_t i);	/* NULL, or true: "enable EVENT" does not name event i (perf's dummy) */
	int (*set_enabled)(void *ctx, int ev, bool on);	/* ev -1: every event.  0 or an error logged */
	void (*stop)(void *ctx);	/* NULL: stop is acknowledged alone (stat, as perf stat) */
};
/* Open rc's FIFOs (or take its fds): 0, or the error logged. */
int control__open(struct control *ctl, const struct record_control *rc);
void control__close(struct control *ctl);
/* -D: say the events are disabled (delay_ms != 0) and when they start (> 0). */
void control__delay(struct control *ctl, int delay_ms);
/* How long the drain may wait: max ms, or less when the delay ends sooner. */
int control__timeout_ms(const struct control *ctl, int max);
/*
 * The delay's end, then every whole command line waiting on the fd
 * (revents: its poll result), each done and acknowledged; stop sets *stop
 * to RECORD_STOP_CONTROL.  0, or an error logged.
 */
int control__process(struct control *ctl, struct evlist *el, struct record_result *res, short revents,
		     volatile sig_atomic_t *stop);
/* Every whole command line waiting on ctl's fd (revents: its poll result), each done on ops and acknowledged.  0 or an error logged. */
int control__commands(struct control *ctl, const struct control_ops *ops, short revents);

/* ---- drain.c: one buffer per CPU, drained into the file ---- */

struct pollfd;

struct drain {
	struct evlist *el;
	struct record_result *res;
	struct pdata_writer *w;
	struct hits *hits;		/* DSOs the samples hit, or NULL */
	struct compressor *comp;	/* -z: the data goes through it, or NULL: straight to w */
	struct control *ctl;		/* -D, --control: polled and processed by the loop, or NULL */
	uint64_t flush;			/* --mmap-flush: bytes a buffer holds before it is drained */
	/*
	 * [cpu], or [thread] per thread; with --overwrite the events' backward
	 * rings, then the tracking dummy's, drained as usual.
	 */
	struct ring *ring;
	int *ring_fd;			/* the fd that owns each ring (a backward one is paused through it) */
	int nr_rings;
	struct pollfd *pfd;		/* the first forward event's fd of each CPU and thread */
	int nr_pfd;
	uint64_t first_time, last_time;	/* of the samples, for SAMPLE_TIME */
	uint64_t max_size;		/* --max-size, or 0 */
	uint64_t written;		/* the data's bytes: synthesized, then drained */
	/* mperf top: the tick (record_opts.live, or NULL) and when it is due next (CLOCK_MONOTONIC ns, 0: not set) */
	const struct record_live *live;
	uint64_t live_at;
	/* --switch-output: when drain__loop returns DRAIN_SWITCH */
	volatile sig_atomic_t *switch_sig;	/* SIGUSR2 came, or NULL */
	uint64_t switch_size;		/* a file's data reached this many bytes, or 0 */
	uint64_t switch_at;		/* CLOCK_MONOTONIC ns at which the file is old enough, or 0 */
	uint64_t file_written;		/* this file's data bytes (written counts the run's) */
	/*
	 * --threads (threads.c): the drain threads, which take the rings from
	 * drain__map to the end (drain__loop waits for them), or NULL.  In a
	 * drain thread's own drain: each ring's data.N (no FINISHED_ROUND is
	 * written there), and the lock of the DSOs hit, which they share.
	 */
	struct threads *threads;
	struct pdata_writer **ring_w;
	pthread_mutex_t *hits_lock;
	int *ring_idx;			/* each ring's CPU (or thread) index in the target */
};

/* ---- backup.c: the output's old copy ---- */

/*
 * perf's backup of an output that exists and is not empty (a file or a
 * directory): renamed OUTPUT.old, an earlier one removed first (a file, or
 * a directory of perf's data files alone).  0, or the error logged.
 */
int record_backup(const char *out);

/* ---- threads.c: record --threads, perf's directory format ---- */

/*
 * After drain__map: the masks of o->threads, the directory o->output (an
 * old one renamed .old) with a data.N per ring, the drain threads made
 * (not started) with the rings they take; *header: "OUTPUT/data", for
 * the writer (until threads__free).  0, or an error logged.
 */
int threads__init(struct drain *d, const struct record_opts *o, const char **header);
/* Start the drain threads (after the writer's beginning: d->flush is known). */
int threads__start(struct drain *d);
/* drain__loop's with the threads: signals and --control here, until *stop. */
int threads__loop(struct drain *d, const sigset_t *waitmask, volatile sig_atomic_t *stop);
/*
 * Stop and join the threads, their counts added to d's, the rings given
 * back and drained a last time (record__run's last drain__once), every
 * data.N finished.  The bytes of that drain, or < 0.
 */
int64_t threads__stop(struct drain *d);
/*
 * A full disk under a data.N: the threads stopped (their counts added),
 * every data.N kept whole to its last whole record, leaving reserve
 * bytes free for the header file's end, and finished.  *samples: the
 * SAMPLE records kept; *size: the data.N's bytes.  0, or an error logged.
 */
int threads__salvage(struct drain *d, uint64_t reserve, uint64_t *samples, uint64_t *size);
/* What threads__init made, the threads stopped if they run (their files removed unless finished). */
void threads__free(struct drain *d);

/* drain__loop's return when a new file is due (--switch-output): every buffer is drained. */
#define DRAIN_SWITCH	1

/*
 * One buffer per CPU, owned by the first event's fd there (of the first
 * thread); every other fd on that CPU writes into it
 * (PERF_EVENT_IOC_SET_OUTPUT).  Per thread (no CPU), one buffer per thread.
 */
int drain__map(struct drain *d, size_t pages);
/*
 * Drain every buffer holding at least d->flush bytes (all: any byte) once,
 * then FINISHED_ROUND if anything was drained.  Bytes, or < 0.
 */
int64_t drain__once(struct drain *d, bool all);
/*
 * --overwrite: pause every backward ring, write what it holds since the
 * last time (newest first, as perf), and let it run again.  Bytes, or < 0.
 */
int64_t drain__backward(struct drain *d);
/*
 * Drain until *stop is set (by a signal, or to -1 here when every buffer
 * hung up), then once more, every byte: 0, or < 0.  DRAIN_SWITCH, every
 * buffer drained, when --switch-output's file is due: call it again once
 * switched.  Signals are taken only inside ppoll, with waitmask as the mask.
 */
int drain__loop(struct drain *d, const sigset_t *waitmask, volatile sig_atomic_t *stop);
/*
 * The loops' rule, perf's: before the poll after a pass that wrote WROTE
 * bytes, true when it is to peek (timeout 0: the pass found data, another
 * comes at once), false when it may sleep; the pass counted.
 */
bool drain__peek(struct drain *d, int64_t wrote);
/* After that poll, what it returned (N) counted: a wakeup, a sleep, a timeout. */
void drain__polled(struct drain *d, bool peek, int n);
void drain__unmap(struct drain *d);

/* ---- run.c: the signals record takes while it runs ---- */

#define RECORD_NR_SIGNALS	4	/* SIGCHLD, SIGINT, SIGTERM, SIGHUP */

struct record_signals {
	struct sigaction old[RECORD_NR_SIGNALS];
	struct sigaction old_usr2;	/* record_signals_usr2 changed SIGUSR2 */
	bool usr2_set;
	struct sigaction old_pipe;	/* SIGPIPE is ignored while recording */
	sigset_t old_mask;
	sigset_t wait_mask;	/* the mask inside ppoll: ours unblocked */
};
/*
 * Block SIGCHLD, SIGINT, SIGTERM and SIGHUP (but an ignored SIGHUP) and
 * catch them into *record_signals_flag(), to be taken only while waiting
 * with wait_mask; SIGPIPE is ignored.
 */
void record_signals_install(struct record_signals *s);
/*
 * SIGUSR2, as perf record takes it: with take (--switch-output's signal)
 * caught into *record_signals_switch() inside ppoll, else ignored.
 */
void record_signals_usr2(struct record_signals *s, bool take);
/* Set by SIGUSR2 when taken: a switch is asked for (the drain clears it). */
volatile sig_atomic_t *record_signals_switch(void);
/* The signal that arrived last (SIGCHLD only when nothing else did), or 0; -1 set by the drain. */
volatile sig_atomic_t *record_signals_flag(void);
/* Put back the handlers and the mask record found (in record, and in the workload before exec). */
void record_signals_restore(const struct record_signals *s);

/* ---- workload.c: a child forked now and exec'd on workload__start() ---- */

struct workload {
	pid_t pid;
	int go_fd;	/* write end: one byte releases the child */
	int err_fd;	/* read end: the child's errno if exec fails, EOF if it worked */
};
/*
 * Fork the child, which restores sigs (the dispositions and mask record's
 * caller had: an ignored SIGHUP stays ignored under nohup) and waits.
 * With stdout_to_stderr (-o -: standard output is the stream), the
 * command's standard output goes to standard error, as perf does.
 */
int workload__prepare(struct workload *wl, char *const *argv, const struct record_signals *sigs,
		      bool stdout_to_stderr);
/*
 * Release the child: 0, or when its exec failed (the child has exited) the
 * negative errno, said in one line ("argv0: command not found"), whose
 * errno *exec_errno keeps.
 */
int workload__start(struct workload *wl, const char *argv0, int *exec_errno);
void workload__abort(struct workload *wl);

/* ---- features.c: what the feature sections say about this machine ---- */

int features__write(struct pdata_writer *w, const struct record_opts *o);

/* ---- hits.c: the DSOs the samples hit, for the BUILD_ID feature ---- */

struct hits *hits__new(void);
void hits__delete(struct hits *h);
void hits__mmap2(struct hits *h, const struct perf_event_header *hdr);
/* A user map (executable, with a path) of process pid, from an MMAP2 or from /proc. */
void hits__map(struct hits *h, uint32_t pid, uint64_t start, uint64_t len, uint32_t prot, const char *name,
	       size_t name_len);
void hits__sample(struct hits *h, uint16_t misc, uint32_t pid, uint64_t ip);
/* BUILD_ID entries: the kernel if hit, each hit DSO with a build id, and [vdso]. */
int hits__write(struct hits *h, struct pdata_writer *w);
/*
 * Put the DSOs hits__write wrote, with their ids, into perf's build-id
 * cache in dir, as perf record does; a cache that cannot be written is
 * one warning, and no failure.
 */
void hits__cache(const struct hits *h, const char *dir);

#endif
