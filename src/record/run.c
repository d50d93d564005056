// SPDX-License-Identifier: GPL-2.0-only
/*
 * mperf record: open every event on every online CPU for the workload,
 * funnel all events of a CPU into one ring buffer, and drain the buffers
 * into a perf.data file until the workload ends.
 *
 * record__run, step by step: the target (target.c) and the events
 * (evlist__init), the tracepoints' formats and filters checked
 * (tracing__init), all before anything runs; the signal table installed
 * (SIGCHLD, SIGINT, SIGTERM, SIGHUP blocked but inside ppoll; the old
 * handlers and mask restored at the end); the workload forked, held on a
 * pipe (workload.c: the child puts back the handlers and mask found here
 * before it execs); evlist__open on every CPU and thread; drain__map, one
 * buffer per CPU (the first event's fd owns it, the others are redirected
 * with PERF_EVENT_IOC_SET_OUTPUT); the old output renamed to .old (backup.c); the
 * writer, the events, the host's features, GROUP_DESC, TRACING_DATA;
 * synthesize (the kernel map, its length patched in at the end but found
 * first in pipe mode; the tasks already running; COMM; FINISHED_INIT);
 * with -z the compressing thread started (compress.c), the writer's from
 * then until the last drain is written; the workload released (its events start at its exec) or a running
 * target's events enabled (with -D, after the delay or on --control's
 * enable: control.c); drain__loop until a signal, a control stop or every buffer
 * hangs up (--switch-output: each time a file is due, switch_file ends it,
 * renames it and begins the next, as begin_file began the first); the workload ended if a signal stopped the recording or the
 * traced tasks are gone (wind_down: SIGTERM, draining while it exits); a
 * last drain (--overwrite: then the backward buffers); finish (LOST_SAMPLES from read(2) of every
 * fd, the kernel map's length, BUILD_ID, SAMPLE_TIME, pdw__finish, then
 * perf's build-id cache).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../host/host.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "internal.h"

/*
 * The only global: set by the signal handlers, read by the loop.  It holds
 * the signal that ended the recording (SIGCHLD: the workload exited), or
 * -1 when the buffers hung up because every traced task was gone.
 */
static volatile sig_atomic_t record_done;
/* The other: SIGUSR2 asked for a new file (--switch-output), cleared by the drain. */
static volatile sig_atomic_t record_switch;

static void on_signal(int sig)
{
	if (!record_done || sig != SIGCHLD)
		record_done = sig;
}

static void on_usr2(int sig)
{
	(void)sig;
	record_switch = 1;
}

/* ---- signals: taken only inside ppoll, restored as they were ---- */

static const int record_signals[RECORD_NR_SIGNALS] = { SIGCHLD, SIGINT, SIGTERM, SIGHUP };
#define NR_SIGNALS RECORD_NR_SIGNALS

void record_signals_install(struct record_signals *s)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block;

	sigemptyset(&block);
	for (size_t i = 0; i < NR_SIGNALS; i++)
		sigaddset(&block, record_signals[i]);
	sigprocmask(SIG_BLOCK, &block, &s->old_mask);
	s->wait_mask = s->old_mask;
	s->usr2_set = false;
	record_done = 0;
	/* A reader of -o - that goes away is a write error (EPIPE), not our death. */
	sigaction(SIGPIPE, &(struct sigaction){ .sa_handler = SIG_IGN }, &s->old_pipe);
	for (size_t i = 0; i < NR_SIGNALS; i++) {
		sigaction(record_signals[i], NULL, &s->old[i]);
		/* Under nohup a hangup must not end the recording (perf never catches SIGHUP). */
		if (record_signals[i] == SIGHUP && s->old[i].sa_handler == SIG_IGN)
			continue;
		sigaction(record_signals[i], &sa, NULL);
		sigdelset(&s->wait_mask, record_signals[i]);
	}
}

void record_signals_usr2(struct record_signals *s, bool take)
{
	sigset_t usr2;

	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	record_switch = 0;
	/* Like the others: blocked but inside ppoll, so that it is taken only there. */
	if (take) {
		sigprocmask(SIG_BLOCK, &usr2, NULL);
		sigdelset(&s->wait_mask, SIGUSR2);
	}
	sigaction(SIGUSR2, &(struct sigaction){ .sa_handler = take ? on_usr2 : SIG_IGN }, &s->old_usr2);
	s->usr2_set = true;
}

volatile sig_atomic_t *record_signals_switch(void)
{
	return &record_switch;
}

volatile sig_atomic_t *record_signals_flag(void)
{
	return &record_done;
}

void record_signals_restore(const struct record_signals *s)
{
	if (s->usr2_set)
		sigaction(SIGUSR2, &s->old_usr2, NULL);
	sigaction(SIGPIPE, &s->old_pipe, NULL);
	for (size_t i = 0; i < NR_SIGNALS; i++)
		sigaction(record_signals[i], &s->old[i], NULL);
	sigprocmask(SIG_SETMASK, &s->old_mask, NULL);
}

/* ---- the kernel map: its length is found while the workload runs ---- */

struct kernel_map {
	uint64_t start, end;
	uint64_t pos;		/* data position of the MMAP record */
	bool found;		/* start is known (kallsyms shows addresses) */
	bool written;		/* at pos, to be patched (the first file's) */
	pthread_t thread;
	bool running;
	int err;
};

static void *find_etext(void *arg)
{
	struct kernel_map *k = arg;

	/* _etext needs a scan of most of kallsyms (slow): overlap it with the workload. */
	k->err = host_kernel_etext(k->start, &k->end);
	return NULL;
}

/*
 * What perf report needs before the first sample: the workload's COMM and
 * the kernel map.  _text is at the head of /proc/kallsyms; the map's
 * length is patched in by finish_kernel_map().
 */
static uint64_t kernel_map_len(const struct kernel_map *k)
{
	/* Without _etext, the map runs to the top of the address space. */
	return !k->err && k->end > k->start ? k->end - k->start : UINT64_MAX - k->start;
}

static void join_kernel_map(struct kernel_map *k);

/*
 * perf's order: the kernel map, the tasks already running (-p, -t, -a,
 * -C), the workload's COMM, FINISHED_INIT.  A later file of
 * --switch-output (first false) has the kernel map's length at once, and
 * the workload as it runs now: its comms and maps, as perf writes them.
 */
static int synthesize(struct drain *d, const struct target *t, pid_t pid, struct kernel_map *k, bool data_maps,
		      bool first)
{
	struct pdata_writer *w = d->w;
	int err;

	if (!first) {
		join_kernel_map(k);
		k->written = false;
		if (k->found && (err = pdw__mmap(w, PERF_RECORD_MISC_KERNEL, (uint32_t)-1, 0, k->start, kernel_map_len(k),
						 k->start, "[kernel.kallsyms]_text", &k->pos)))
			return err;
	} else if (host_kallsyms_find("_text", &k->start)) {
		mperf_log(MPERF_LOG_WARN, "kernel addresses are hidden (kptr_restrict): kernel samples will not resolve");
	} else {
		k->found = true;
		/* A stream cannot be patched: find the map's length first. */
		if (pdw__is_pipe(w))
			find_etext(k);
		if ((err = pdw__mmap(w, PERF_RECORD_MISC_KERNEL, (uint32_t)-1, 0, k->start,
				     pdw__is_pipe(w) ? kernel_map_len(k) : 0, k->start, "[kernel.kallsyms]_text",
				     &k->pos)))
			return err;
		k->written = !pdw__is_pipe(w);
		if (k->written && pthread_create(&k->thread, NULL, find_etext, k) == 0)
			k->running = true;
		else if (k->written)
			find_etext(k);
	}
	if ((err = target__synthesize(t, w, d->hits, data_maps)))
		return err;
	if (pid > 0 && first && (err = pdw__comm(w, (uint32_t)pid, (uint32_t)pid, "mperf-exec")))
		return err;
	if (pid > 0 && !first && (err = target__synthesize_process(w, d->hits, data_maps, pid)))
		return err;
	return pdw__finished_init(w);
}

static void join_kernel_map(struct kernel_map *k)
{
	if (k->running)
		pthread_join(k->thread, NULL);
	k->running = false;
}

static int finish_kernel_map(struct pdata_writer *w, struct kernel_map *k)
{
	join_kernel_map(k);
	if (!k->written)
		return 0;
	return pdw__patch_mmap_len(w, k->pos, kernel_map_len(k));
}

/*
 * --timestamp-filename: the finished file renamed to PATH.YYYYMMDDhhmmssCC
 * (local time, to the hundredth of a second), perf's name for it.
 */
static int rename_timestamp(const char *path, char *to, size_t len)
{
	for (;;) {
		struct timeval tv;
		struct tm tm;
		char when[32];

		if (gettimeofday(&tv, NULL) || !localtime_r(&tv.tv_sec, &tm) ||
		    !strftime(when, sizeof(when), "%Y%m%d%H%M%S", &tm))
			return mperf_error(-EINVAL, "cannot read the time of day for --timestamp-filename");
		if ((size_t)snprintf(to, len, "%s.%s%02u", path, when, (unsigned)(tv.tv_usec / 10000)) >= len)
			return mperf_error(-ENAMETOOLONG, "cannot rename '%s': name too long", path);
		/* Never over an earlier file (--switch-output twice in a hundredth): the next hundredth's name. */
		if (link(path, to) == 0) {
			if (unlink(path) == 0)
				return 0;
			break;
		}
		if (errno == EEXIST) {
			usleep(10000);
			continue;
		}
		/* A file system without hard links: a rename, once the name is free. */
		if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOSYS)
			break;
		if (access(to, F_OK) == 0) {
			usleep(10000);
			continue;
		}
		if (rename(path, to) == 0)
			return 0;
		break;
	}
	return mperf_error(-errno, "cannot rename '%s' to '%s': %s", path, to, strerror(errno));
}

/*
 * The recording was stopped by a signal while the workload runs: end the
 * workload as perf does (SIGTERM) and wait for it, draining meanwhile so
 * that what it does until then is kept.  A workload that ignores SIGTERM
 * runs on, as under perf, until a second SIGINT, SIGTERM or SIGHUP, which
 * kills it (SIGKILL).
 */
static int wind_down(struct drain *d, pid_t pid, const struct record_signals *sigs, int *status)
{
	struct timespec ts = { 0, 100 * 1000000L };

	kill(pid, SIGTERM);
	record_done = 0;
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		int64_t wrote;

		if (r == pid || (r < 0 && errno != EINTR))
			return 0;
		if ((wrote = drain__once(d, false)) < 0)
			return (int)wrote;
		/* Signals are taken only here, as in the drain loop. */
		ppoll(NULL, 0, &ts, &sigs->wait_mask);
		if (record_done > 0 && record_done != SIGCHLD) {
			mperf_log(MPERF_LOG_NOTICE, "SIG%s again: killing the workload (pid %d), which did not end on SIGTERM",
				  sigabbrev_np(record_done), (int)pid);
			kill(pid, SIGKILL);
		}
		record_done = 0;
	}
}

/* The end of the file: lost counts, the kernel map's length, the features. */
static int finish(struct drain *d, struct kernel_map *k, bool no_cache)
{
	char dir[4096];
	int err;

	/* The host's features were given before the data; these are known only now (dropped in a stream). */
	if ((err = evlist__read_lost(d->el, d->res, d->w)) || (err = finish_kernel_map(d->w, k)) ||
	    (d->hits && (err = hits__write(d->hits, d->w))))
		return err;
	if (d->first_time && (err = pdw__feat_sample_time(d->w, d->first_time, d->last_time)))
		return err;
	if ((err = pdw__finish(d->w)))
		return err;
	/*
	 * perf's build-id cache, filled as perf record fills it: not for a
	 * stream (perf writes no BUILD_ID there), nor without a home.
	 */
	if (!no_cache && !pdw__is_pipe(d->w) && host_bidcache_dir(dir, sizeof(dir)) == 0)
		hits__cache(d->hits, dir);
	return 0;
}

/*
 * -z: the writer compresses, and says so in the COMPRESSED feature with
 * the size of each buffer's mapping (its control page too), as perf;
 * --mmap-flush is at most a quarter of a buffer, as perf clamps it.
 */
static int compress_setup(struct drain *d, const struct record_opts *o)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), data = (uint64_t)o->mmap_pages * page;

	d->flush = o->mmap_flush < data / 4 ? o->mmap_flush : data / 4;
	if (!o->comp_level)
		return 0;
	return pdw__compress(d->w, o->comp_level, (uint32_t)(data + page));
}

/*
 * What may wait to be compressed: four times what the buffers hold, at
 * least 8 MiB.  Only a compressor slower than the data for long fills it;
 * then the buffers wait, as they would without -z.
 */
static size_t compress_max(const struct drain *d)
{
	size_t held = 0;

	for (int r = 0; r < d->nr_rings; r++)
		held += d->ring[r].size;
	return held * 4 > ((size_t)8 << 20) ? held * 4 : (size_t)8 << 20;
}

/*
 * The disk filled up under the data: end the workload (its status kept),
 * keep the whole records that fit (in each data.N with --threads), leaving
 * room for the end of the file (path: the output, or OUTPUT/data),
 * and finish it, so that perf and mperf read what was recorded; say so in
 * one line, and fail (-ENOSPC) all the same.
 */
static int disk_full(struct drain *d, struct workload *wl, struct kernel_map *k, const struct record_opts *o,
		     const char *path, struct record_result *res)
{
	uint64_t samples, parts = 0;
	struct stat st;
	int err;

	if (wl->pid > 0) {
		kill(wl->pid, SIGTERM);
		while (waitpid(wl->pid, &res->wait_status, 0) < 0 && errno == EINTR)
			;
		wl->pid = -1;
	}
	compressor__stop(d->comp);	/* its error is the same full disk */
	d->comp = NULL;
	/* --threads: the data.N leave room for the header file's end (its records held, its features). */
	err = d->threads ? threads__salvage(d, pdw__pending(d->w) + (64 << 10), &samples, &parts) :
			   pdw__salvage(d->w, 64 << 10, &samples);
	if (err || (err = finish(d, k, true)))
		return err;
	res->samples = samples;
	res->disk_full = true;
	if (stat(path, &st) == 0)
		res->file_size = parts + (uint64_t)st.st_size;
	if (o->comp_level)
		return mperf_error(-ENOSPC, "the disk is full: '%s' keeps what fit, %.3f MB of compressed records, readable",
				   o->output, (double)res->file_size / 1024.0 / 1024.0);
	return mperf_error(-ENOSPC, "the disk is full: '%s' keeps the first %llu samples (%.3f MB), readable",
			   o->output, (unsigned long long)samples, (double)res->file_size / 1024.0 / 1024.0);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The recording's parts an output file is made of, for --switch-output
 * to end one file and begin the next.
 */
struct output {
	const struct record_opts *o;
	const char *path;	/* the file the header goes to: the output, or with --threads OUTPUT/data */
	struct evlist *el;
	struct record_result *res;
	const struct tracing *tr;
	const struct target *t;
	struct kernel_map *k;
	pid_t pid;		/* the workload, or -1 */
	char **kept;		/* --switch-max-files: the names of the last files, a ring of max_files */
	unsigned next;		/* the slot of kept the next file takes */
	uint64_t wakeups;	/* res->wakeups when this file began */
};

/*
 * Create the output and write its beginning: the events, the features,
 * the groups, TRACING_DATA, then the synthesized records; with -z the
 * compressing thread started.  first: the recording's first file.
 */
static int begin_file(struct drain *d, struct output *f, bool first)
{
	const struct record_opts *o = f->o;
	int err;

	if (!(d->w = o->live ? pdw__create_stream(o->live->fd) : pdw__create(f->path)))
		return -errno;
	if ((err = evlist__add_to(f->el, f->res, d->w)) || (err = features__write(d->w, o)) ||
	    (err = evlist__write_groups(o, d->w)) || (err = tracing__write(f->tr, d->w)) ||
	    (err = compress_setup(d, o)) || (err = pdw__begin_data(d->w)) ||
	    (err = synthesize(d, f->t, f->pid, f->k, o->data_addr, first)))
		return err;
	/*
	 * -z: from now on the compressing thread writes the data (the
	 * synthesized records stay as they are); --threads' data.N compress their own.
	 */
	if (o->comp_level && !d->threads && !(d->comp = compressor__start(d->w, compress_max(d))))
		return -errno;
	d->first_time = d->last_time = 0;
	d->file_written = pdw__data_size(d->w);
	d->written += d->file_written;
	d->switch_at = o->switch_output.secs ? now_ns() + o->switch_output.secs * 1000000000ull : 0;
	f->wakeups = f->res->wakeups;
	return 0;
}

/* -z: the file's bytes compressed and what they became, added to the run's. */
static void add_compressed(const struct drain *d, struct record_result *res)
{
	uint64_t in, out;

	pdw__compressed_bytes(d->w, &in, &out);
	res->comp_in += in;
	res->comp_out += out;
}

/* --switch-max-files: name is kept, and the file it takes the place of removed. */
static void keep_file(struct output *f, const char *name)
{
	unsigned n = f->o->switch_output.max_files;

	if (!n || !f->kept)
		return;
	if (f->kept[f->next]) {
		unlink(f->kept[f->next]);
		free(f->kept[f->next]);
	}
	f->kept[f->next] = strdup(name);
	f->next = (f->next + 1) % n;
}

/*
 * --switch-output: the file is due.  With --overwrite what the backward
 * buffers hold goes in first; then the file is finished (build-id cache
 * left for the end), renamed OUTPUT.<timestamp>, said, and the next begun.
 */
static int switch_file(struct drain *d, struct output *f)
{
	const struct record_opts *o = f->o;
	char name[4096];
	int64_t wrote = f->o->overwrite ? drain__backward(d) : 0;
	struct stat st;
	int err;

	if (wrote < 0)
		return (int)wrote;
	err = compressor__stop(d->comp);
	d->comp = NULL;
	if (err || (err = finish(d, f->k, true)))
		return err;
	add_compressed(d, f->res);
	if (stat(o->output, &st) == 0)
		f->res->file_size += (uint64_t)st.st_size;
	pdw__close(d->w);
	d->w = NULL;
	if ((err = rename_timestamp(o->output, name, sizeof(name))))
		return err;
	keep_file(f, name);
	f->res->files++;
	if (o->switch_output.dumped)
		o->switch_output.dumped(o->switch_output.ctx, name, f->res->wakeups - f->wakeups);
	return begin_file(d, f, false);
}

/*
 * The end of the file: with --overwrite the backward buffers' last
 * records, then what waits to be compressed, the features; the file
 * renamed with --timestamp-filename (and --switch-output).
 */
static int end_recording(struct drain *d, struct output *f)
{
	const struct record_opts *o = f->o;
	struct record_result *res = f->res;
	/* (--threads read the backward buffers into their data.N, in threads__stop) */
	int64_t wrote = o->overwrite && !d->threads ? drain__backward(d) : 0;
	struct stat st;
	int err;

	if (wrote < 0)
		return (int)wrote;
	/* Everything drained is written before the end of the file. */
	err = compressor__stop(d->comp);
	d->comp = NULL;
	if (err)
		return err;
	res->data_size = d->written;
	add_compressed(d, res);
	if ((err = finish(d, f->k, o->no_buildid_cache)))
		return err;
	if (pdw__is_pipe(d->w))
		res->file_size = pdw__data_size(d->w);
	else if (stat(f->path, &st) == 0)
		res->file_size += (uint64_t)st.st_size;
	res->files++;
	res->file_wakeups = res->wakeups - f->wakeups;
	if (!o->timestamp_filename || pdw__is_pipe(d->w))
		return 0;
	if ((err = rename_timestamp(o->output, res->renamed, sizeof(res->renamed))))
		return err;
	keep_file(f, res->renamed);
	return 0;
}

/* What record__run refuses before it opens anything: say so rather than record something else. */
static int check_events(const struct record_opts *o)
{
	if (!o->nr_events || o->nr_events > RECORD_MAX_EVENTS)
		return mperf_error(-EINVAL, "between 1 and %d events can be recorded", RECORD_MAX_EVENTS);
	for (size_t i = 0; i < o->nr_events; i++) {
		const struct record_event *ev = &o->events[i];

		if (ev->sample_read && ev->leader == (int)i && ev->group_size < 2)
			return mperf_error(-EOPNOTSUPP, "the S modifier (sample read) outside a group is not supported yet: '%s'",
					   ev->name);
	}
	return 0;
}

/*
 * The workload's end, its wait status in *status.  Ended by a signal, a
 * control stop, --max-size, or (-p, -t) every sampled task is gone while
 * the workload, which only says how long to record, runs on: perf ends it
 * with SIGTERM.  Otherwise it is waited for.
 */
static int end_workload(struct drain *d, struct workload *wl, struct record_signals *sigs, bool traces_workload,
			int *status)
{
	bool end_it = d->res->stop_signal || record_done == RECORD_STOP_CONTROL ||
		      record_done == RECORD_STOP_SIZE || (!traces_workload && record_done == -1);
	pid_t reaped = end_it ? waitpid(wl->pid, status, WNOHANG) : -1;
	int err;

	if (reaped == 0) {
		if ((err = wind_down(d, wl->pid, sigs, status)))
			return err;
	} else if (reaped != wl->pid) {
		while (waitpid(wl->pid, status, 0) < 0 && errno == EINTR)
			;
	}
	wl->pid = -1;
	return 0;
}

/*
 * The targets, the events and the tracepoints set up (their formats and
 * filters checked) before anything runs; all undone on a failure.
 */
static int setup(const struct record_opts *o, struct target *t, struct drain *d, struct tracing *tr,
		 bool has_workload)
{
	struct evlist *el = d->el;
	int err;

	if ((err = target__init(t, o))) {
		target__exit(t);
		return err;
	}
	if (t->traces_workload && !has_workload) {
		target__exit(t);
		return mperf_error(-EINVAL, "nothing to record: give a command, or a target (-p, -t, -a, -C)");
	}
	/* top's stream in memory has no BUILD_ID feature: no DSO hit is noted (its maps nor its samples) */
	d->hits = o->live ? NULL : hits__new();
	if ((err = evlist__init(el, o, d->res, t)) || (!o->live && !d->hits) || (err = tracing__init(tr, o))) {
		evlist__close(el);
		hits__delete(d->hits);
		tracing__free(tr);
		target__exit(t);
		return err ? err : mperf_error(-ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < el->nr_ev; i++)
		el->filter[i] = tr->filter[i];
	return 0;
}

int record__run(const struct record_opts *o, struct record_result *res)
{
	struct target t;
	struct evlist el = { 0 };
	struct drain d = { .el = &el, .res = res };
	struct kernel_map k = { 0 };
	struct tracing tr = { 0 };
	struct workload wl = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	struct control ctl = { .fd = -1, .ack = -1 };
	struct record_signals sigs;
	struct output f = { .o = o, .path = o->output, .el = &el, .res = res, .tr = &tr, .t = &t, .k = &k, .pid = -1 };
	bool has_workload = o->argv && o->argv[0];
	int err, status = 0;
	int64_t wrote;
	uint64_t t0 = 0;

	memset(res, 0, sizeof(*res));
	if ((err = check_events(o)) || (err = setup(o, &t, &d, &tr, has_workload)))
		return err;

	record_signals_install(&sigs);
	record_signals_usr2(&sigs, o->switch_output.signal);
	if (o->switch_output.signal)
		d.switch_sig = record_signals_switch();
	d.switch_size = o->switch_output.size;
	/* The FIFOs are open before the workload runs: a harness may write at once. */
	if ((err = control__open(&ctl, &o->control)))
		goto out;
	if (o->delay_ms || ctl.fd >= 0)
		d.ctl = &ctl;
	if (has_workload) {
		if ((err = workload__prepare(&wl, o->argv, &sigs, !strcmp(o->output, "-")))) {
			mperf_error(err, "cannot start the workload: %s", strerror(-err));
			goto out;
		}
		target__set_workload(&t, wl.pid);
	}
	if ((err = evlist__open(&el, res)) || (err = drain__map(&d, o->mmap_pages)) ||
	    (err = record_backup(o->output)) || (o->threads && (err = threads__init(&d, o, &f.path))))
		goto out;
	for (size_t i = 0; i < el.nr_ev; i++)
		res->ev[i].attr = el.attr[i];
	f.pid = wl.pid;
	if (o->switch_output.max_files && !(f.kept = calloc(o->switch_output.max_files, sizeof(*f.kept)))) {
		err = mperf_error(-ENOMEM, "out of memory");
		goto out;
	}
	d.max_size = o->max_size;
	d.live = o->live;
	if ((err = begin_file(&d, &f, true)) || (d.threads && (err = threads__start(&d))))
		goto out;
	t0 = now_ns();
	if (has_workload && (err = workload__start(&wl, o->argv[0], &res->exec_errno)))
		goto out;
	/* A running target's events start now (the workload's started at its exec); with -D later. */
	if (!t.traces_workload && !o->delay_ms && (err = evlist__enable(&el, res)))
		goto out;
	control__delay(&ctl, o->delay_ms);
	while ((err = drain__loop(&d, &sigs.wait_mask, &record_done)) == DRAIN_SWITCH &&
	       !(err = switch_file(&d, &f)))
		;
	/* (a drain thread's data.N, with --threads: the header file is not written meanwhile) */
	if (err == -ENOSPC && (pdw__disk_full(d.w) || d.threads))
		err = disk_full(&d, &wl, &k, o, f.path, &res[0]);
	if (err)
		goto out;
	/* Stopped by SIGINT/SIGTERM/SIGHUP while the workload still runs: end it, like perf. */
	res->stop_signal = record_done > 0 && record_done != SIGCHLD ? (int)record_done : 0;
	if (has_workload && (err = end_workload(&d, &wl, &sigs, t.traces_workload, &status)))
		goto out;
	res->wait_status = status;
	/* What the workload did while it was being ended (its last samples, its EXIT). */
	if ((wrote = d.threads ? threads__stop(&d) : drain__once(&d, true)) < 0) {
		err = (int)wrote;
		goto out;
	}
	res->elapsed_ns = now_ns() - t0;
	err = end_recording(&d, &f);
out:
	if (wl.pid > 0 && (wl.go_fd >= 0 || err)) {
		if (wl.go_fd < 0)
			kill(wl.pid, SIGTERM);
		workload__abort(&wl);
	}
	compressor__stop(d.comp);
	control__close(&ctl);
	join_kernel_map(&k);
	pdw__close(d.w);
	threads__free(&d);
	drain__unmap(&d);
	evlist__close(&el);
	hits__delete(d.hits);
	tracing__free(&tr);
	target__exit(&t);
	record_signals_restore(&sigs);
	for (unsigned i = 0; f.kept && i < o->switch_output.max_files; i++)
		free(f.kept[i]);
	free(f.kept);
	return err;
}
