// SPDX-License-Identifier: GPL-2.0-only
/*
 * mperf record: open every event on every online CPU for the workload,
 * funnel all events of a CPU into one ring buffer, and drain the buffers
 * into a perf.data file until the workload ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../lib/err.h"
#include "../lib/log.h"
#include "../perfdata/perfdata.h"
#include "../ring/ring.h"
#include "internal.h"
#include "record.h"

#define MAX_CPUS	1024
/*
 * The kernel wakes pollers of every fd sharing a buffer (since commit
 * 10c6db110d0e, 2011), but a missed wakeup must only ever delay a drain:
 * poll never waits longer than this.
 */
#define POLL_TIMEOUT_MS	100

/*
 * The only global: set by the signal handlers, read by the loop.  It holds
 * the signal that ended the recording (SIGCHLD: the workload exited), or
 * -1 when the buffers hung up because every traced task was gone.
 */
static volatile sig_atomic_t record_done;

static void on_signal(int sig)
{
	if (!record_done || sig != SIGCHLD)
		record_done = sig;
}

struct cpu_buf {
	int cpu;
	int leader_fd;	/* first event's fd on this CPU: owns the mmap */
	struct ring ring;
};

struct rec {
	const struct record_opts *opts;
	struct record_result *res;
	struct perf_event_attr attr[RECORD_MAX_EVENTS];
	int *fd;		/* [event][cpu] */
	uint64_t *id;		/* [event][cpu] */
	int cpus[MAX_CPUS];
	int nr_cpus;
	size_t nr_ev;
	struct cpu_buf *buf;
	struct pdata_writer *w;
	int id_slot;		/* u64 word of a SAMPLE body holding the id, -1 if none */
	int time_slot;
	uint64_t first_time, last_time;
	/* The kernel MMAP's length (_etext - _text) is found while the workload runs. */
	uint64_t ktext_start, ktext_end;
	int64_t kmmap_pos;	/* data position of the kernel MMAP record, -1 if none */
	pthread_t ktext_thread;
	bool ktext_running;
	int ktext_err;
	struct hits *hits;	/* DSOs hit, for BUILD_ID */
};

static int fail(struct record_result *res, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct record_result *res, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->err, sizeof(res->err), fmt, ap);
	va_end(ap);
	return err;
}

static void setup_attr(struct rec *r, size_t i)
{
	struct perf_event_attr *a = &r->attr[i];
	const struct record_opts *o = r->opts;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = o->events[i].type;
	a->config = o->events[i].config;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	/* Several events share a buffer: each sample must say whose it is. */
	if (r->nr_ev > 1)
		a->sample_type |= PERF_SAMPLE_ID;
	a->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	if (o->freq) {
		a->freq = 1;
		a->sample_freq = o->freq;
	} else {
		a->sample_period = o->period;
	}
	a->disabled = 1;
	a->inherit = 1;
	a->enable_on_exec = 1;
	a->sample_id_all = 1;
	/* Like perf: without it, perf names the event "cycles:HG". */
	a->exclude_guest = 1;
	if (i == 0) {
		/* One event is enough to carry the side-band records. */
		a->mmap = 1;
		a->comm = 1;
		a->task = 1;
		a->mmap2 = 1;
		a->comm_exec = 1;
	}
}

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static bool is_cycles(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_CPU_CYCLES;
}

static int read_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = INT_MIN;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = INT_MIN;
		fclose(f);
	}
	return v;
}

void record__open_error(char *buf, size_t len, const char *event, int cpu, int err, int paranoid)
{
	int n = snprintf(buf, len, "cannot open event '%s' on cpu %d: %s", event, cpu, strerror(err));

	if (n < 0 || (size_t)n >= len)
		return;
	if (err == EACCES || err == EPERM) {
		if (paranoid != INT_MIN)
			snprintf(buf + n, len - (size_t)n,
				 " (kernel.perf_event_paranoid is %d: lower it, e.g. 'sysctl kernel.perf_event_paranoid=1', or run with CAP_PERFMON)",
				 paranoid);
		else
			snprintf(buf + n, len - (size_t)n,
				 " (check kernel.perf_event_paranoid, or run with CAP_PERFMON)");
	} else if (err == EMFILE || err == ENFILE) {
		snprintf(buf + n, len - (size_t)n,
			 " (mperf needs one per event and CPU: raise the limit with 'ulimit -n')");
	}
}

static int open_events(struct rec *r, pid_t pid)
{
	struct record_result *res = r->res;

	for (size_t i = 0; i < r->nr_ev; i++) {
		for (int c = 0; c < r->nr_cpus; c++) {
			int fd;
again:
			fd = sys_perf_event_open(&r->attr[i], pid, r->cpus[c]);
			if (fd < 0 && (errno == ENOENT || errno == ENODEV || errno == ENXIO ||
				       errno == EOPNOTSUPP) && is_cycles(&r->attr[i])) {
				/* No PMU (a VM): perf falls back to the cpu-clock timer. */
				r->attr[i].type = PERF_TYPE_SOFTWARE;
				r->attr[i].config = PERF_COUNT_SW_CPU_CLOCK;
				snprintf(res->ev[i].name, sizeof(res->ev[i].name), "cpu-clock");
				if (!res->fell_back)
					mperf_log(MPERF_LOG_NOTICE,
						  "cycles is not supported on this machine (%s): falling back to cpu-clock",
						  strerror(errno));
				res->fell_back = true;
				goto again;
			}
			if (fd < 0 && errno == EINVAL && (r->attr[i].read_format & PERF_FORMAT_LOST)) {
				/* Kernels before 6.0 do not know PERF_FORMAT_LOST. */
				for (size_t j = 0; j < r->nr_ev; j++)
					r->attr[j].read_format &= ~(uint64_t)PERF_FORMAT_LOST;
				goto again;
			}
			if (fd < 0) {
				int e = errno;

				record__open_error(res->err, sizeof(res->err), res->ev[i].name, r->cpus[c], e,
						   e == EACCES || e == EPERM ? read_paranoid() : INT_MIN);
				return -e;
			}
			r->fd[i * r->nr_cpus + c] = fd;
			if (ioctl(fd, PERF_EVENT_IOC_ID, &r->id[i * r->nr_cpus + c]) < 0)
				return fail(res, -errno, "cannot read the id of event '%s': %s",
					    res->ev[i].name, strerror(errno));
		}
	}
	return 0;
}

/*
 * One buffer per CPU, owned by the first event's fd; every other event's
 * fd on that CPU writes into it (SET_OUTPUT needs the same CPU and an fd
 * without a mapping of its own).
 */
static int map_buffers(struct rec *r)
{
	for (int c = 0; c < r->nr_cpus; c++) {
		struct cpu_buf *b = &r->buf[c];
		int err;

		b->cpu = r->cpus[c];
		b->leader_fd = r->fd[c];
		err = ring__mmap(&b->ring, b->leader_fd, r->opts->mmap_pages);
		if (err == -EPERM || err == -ENOMEM)
			return fail(r->res, err, "cannot mmap the buffer of cpu %d (%zu pages): %s (the limit is kernel.perf_event_mlock_kb; use a smaller -m or raise it)",
				    b->cpu, r->opts->mmap_pages, mperf_strerror(err));
		if (err)
			return fail(r->res, err, "cannot mmap the buffer of cpu %d: %s", b->cpu, mperf_strerror(err));
		for (size_t i = 1; i < r->nr_ev; i++)
			if (ioctl(r->fd[i * r->nr_cpus + c], PERF_EVENT_IOC_SET_OUTPUT, b->leader_fd) < 0)
				return fail(r->res, -errno, "cannot redirect event '%s' into the buffer of cpu %d: %s",
					    r->res->ev[i].name, b->cpu, strerror(errno));
	}
	return 0;
}

/* Bytes of the sample_id trailer for the first event (synthesized records carry zeros). */
static size_t trailer_size(const struct perf_event_attr *a)
{
	uint64_t st = a->sample_type;

	return 8 * (size_t)(!!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
			    !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
			    !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_IDENTIFIER));
}

/* A record with a NUL-terminated string at its end, padded to 8, then the trailer. */
static int write_with_string(struct rec *r, uint32_t type, uint16_t misc, const void *body,
			     size_t body_len, const char *s)
{
	unsigned char rec[512];
	size_t slen = strlen(s) + 1, pad = (slen + 7) & ~(size_t)7;
	size_t size = 8 + body_len + pad + trailer_size(&r->attr[0]);
	struct perf_event_header h = { .type = type, .misc = misc, .size = (uint16_t)size };

	if (size > sizeof(rec))
		return -ENAMETOOLONG;
	memset(rec, 0, size);
	memcpy(rec, &h, 8);
	memcpy(rec + 8, body, body_len);
	memcpy(rec + 8 + body_len, s, slen);
	return pdw__write(r->w, rec, size);
}

static void *ktext_scan(void *arg)
{
	struct rec *r = arg;

	r->ktext_err = host__kernel_end(&r->ktext_end);
	return NULL;
}

struct kernel_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
};

/*
 * What perf report needs before the first sample: the workload's COMM and
 * the kernel map.  _text is at the head of /proc/kallsyms; the map's length
 * is patched in by finish_kernel_mmap() once the scan for _etext is done.
 */
static int synthesize(struct rec *r, pid_t pid)
{
	uint32_t ids[2] = { (uint32_t)pid, (uint32_t)pid };
	int err;

	if ((err = write_with_string(r, PERF_RECORD_COMM, 0, ids, sizeof(ids), "mperf-exec")))
		return err;
	r->kmmap_pos = -1;
	if (host__kernel_start(&r->ktext_start) == 0) {
		struct kernel_mmap m = { (uint32_t)-1, 0, r->ktext_start, 0, r->ktext_start };

		r->kmmap_pos = (int64_t)pdw__data_size(r->w);
		err = write_with_string(r, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, &m, sizeof(m),
					"[kernel.kallsyms]_text");
		if (!err && pthread_create(&r->ktext_thread, NULL, ktext_scan, r) == 0)
			r->ktext_running = true;
		else if (!err)
			ktext_scan(r);
	} else {
		mperf_log(MPERF_LOG_WARN, "kernel addresses are hidden (kptr_restrict): kernel samples will not resolve");
	}
	return err;
}

static int finish_kernel_mmap(struct rec *r)
{
	uint64_t len;

	if (r->ktext_running) {
		pthread_join(r->ktext_thread, NULL);
		r->ktext_running = false;
	}
	if (r->kmmap_pos < 0)
		return 0;
	/* Without _etext, the map runs to the top of the address space. */
	len = !r->ktext_err && r->ktext_end > r->ktext_start ? r->ktext_end - r->ktext_start
							      : UINT64_MAX - r->ktext_start;
	return pdw__patch(r->w, (uint64_t)r->kmmap_pos + sizeof(struct perf_event_header) +
			  offsetof(struct kernel_mmap, len), &len, sizeof(len));
}

static int event_of_id(const struct rec *r, uint64_t id)
{
	for (size_t k = 0; k < r->nr_ev * (size_t)r->nr_cpus; k++)
		if (r->id[k] == id)
			return (int)(k / (size_t)r->nr_cpus);
	return -1;
}

/* Account for the records of one pass (samples per event, times, lost). */
static void account(struct rec *r, struct ring *ring)
{
	const struct perf_event_header *h;

	while ((h = ring__read_event(ring))) {
		const uint64_t *w = (const uint64_t *)(h + 1);
		size_t words = (h->size - sizeof(*h)) / 8;

		if (h->type == PERF_RECORD_SAMPLE) {
			int ev = 0;

			/* IP, then pid/tid: the first two words of every sample here. */
			if (r->hits && words >= 2)
				hits__sample(r->hits, h->misc, (uint32_t)w[1], w[0]);
			if (r->id_slot >= 0 && (size_t)r->id_slot < words)
				ev = event_of_id(r, w[r->id_slot]);
			if (ev >= 0)
				r->res->ev[ev].samples++;
			r->res->samples++;
			if ((size_t)r->time_slot < words) {
				uint64_t t = w[r->time_slot];

				if (!r->first_time || t < r->first_time)
					r->first_time = t;
				if (t > r->last_time)
					r->last_time = t;
			}
		} else if (h->type == PERF_RECORD_MMAP2 && r->hits) {
			hits__mmap2(r->hits, h);
		} else if (h->type == PERF_RECORD_LOST && words >= 2) {
			r->res->lost_records++;
			r->res->lost_events += w[1];
		}
	}
}

/* Drain every buffer once.  Returns bytes written or a negative error. */
static int64_t drain(struct rec *r)
{
	int64_t total = 0;

	for (int c = 0; c < r->nr_cpus; c++) {
		struct ring *ring = &r->buf[c].ring;
		const void *chunk[2];
		size_t len[2];
		int n;

		if (ring__read_init(ring) <= 0)
			continue;
		account(r, ring);
		n = ring__span(ring, chunk, len);
		for (int k = 0; k < n; k++) {
			int err = pdw__write(r->w, chunk[k], len[k]);

			if (err)
				return err;
			total += (int64_t)len[k];
		}
		ring__consume(ring);
	}
	return total;
}

static int write_round(struct rec *r)
{
	struct perf_event_header h = { .type = PD_FINISHED_ROUND, .size = sizeof(h) };

	return pdw__write(r->w, &h, sizeof(h));
}

static int poll_loop(struct rec *r, const sigset_t *waitmask)
{
	struct pollfd *pfd = calloc((size_t)r->nr_cpus, sizeof(*pfd));
	struct timespec ts = { POLL_TIMEOUT_MS / 1000, (POLL_TIMEOUT_MS % 1000) * 1000000L };
	int err = 0;

	if (!pfd)
		return -ENOMEM;
	for (int c = 0; c < r->nr_cpus; c++) {
		pfd[c].fd = r->buf[c].leader_fd;
		pfd[c].events = POLLIN;
	}
	for (;;) {
		int stop = record_done, hup = 0, n;
		int64_t wrote = drain(r);

		if (wrote < 0) {
			err = (int)wrote;
			break;
		}
		if (wrote && (err = write_round(r)))
			break;
		if (stop)
			break;
		/* The signals stay blocked except inside ppoll: none is missed. */
		n = ppoll(pfd, (nfds_t)r->nr_cpus, &ts, waitmask);
		if (n < 0 && errno != EINTR) {
			err = -errno;
			break;
		}
		if (n == 0)
			r->res->timeouts++;
		if (n > 0) {
			r->res->wakeups++;
			for (int c = 0; c < r->nr_cpus; c++) {
				if (pfd[c].revents & (POLLHUP | POLLERR)) {
					pfd[c].fd = -1;	/* the events are gone; stop polling it */
					hup++;
				} else if (pfd[c].fd < 0) {
					hup++;
				}
			}
			if (hup == r->nr_cpus && !record_done)
				record_done = -1;
		}
	}
	free(pfd);
	return err;
}

/* read() each fd: {value, id, lost}.  Write LOST_SAMPLES for what the kernel dropped. */
static int read_lost(struct rec *r)
{
	size_t tsz = trailer_size(&r->attr[0]);

	if (!(r->attr[0].read_format & PERF_FORMAT_LOST))
		return 0;
	for (size_t i = 0; i < r->nr_ev; i++) {
		for (int c = 0; c < r->nr_cpus; c++) {
			uint64_t v[3];
			unsigned char rec[64] = { 0 };
			struct perf_event_header h = { .type = PERF_RECORD_LOST_SAMPLES };
			int err;

			if (read(r->fd[i * r->nr_cpus + c], v, sizeof(v)) != (ssize_t)sizeof(v) || !v[2])
				continue;
			r->res->ev[i].lost += v[2];
			/* Trailer all zero but the id: pid, tid, time 0 as perf writes it. */
			h.size = (uint16_t)(16 + tsz);
			memcpy(rec, &h, 8);
			memcpy(rec + 8, &v[2], 8);
			if (r->attr[i].sample_type & PERF_SAMPLE_ID)
				memcpy(rec + 16 + tsz - 8, &v[1], 8);
			if ((err = pdw__write(r->w, rec, h.size)))
				return err;
		}
	}
	return 0;
}

static int rename_old(const char *path)
{
	struct stat st;
	char old[4096];

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || !st.st_size)
		return 0;
	if ((size_t)snprintf(old, sizeof(old), "%s.old", path) >= sizeof(old))
		return -ENAMETOOLONG;
	return rename(path, old) < 0 ? -errno : 0;
}

static void close_all(struct rec *r)
{
	if (r->buf)
		for (int c = 0; c < r->nr_cpus; c++)
			ring__exit(&r->buf[c].ring);
	if (r->fd)
		for (size_t k = 0; k < r->nr_ev * (size_t)r->nr_cpus; k++)
			if (r->fd[k] >= 0)
				close(r->fd[k]);
	free(r->buf);
	free(r->fd);
	free(r->id);
	hits__delete(r->hits);
}

int record__run(const struct record_opts *o, struct record_result *res)
{
	struct rec r = { .opts = o, .res = res, .nr_ev = o->nr_events };
	struct workload wl = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, orig;
	int err, status = 0;
	struct stat st;

	memset(res, 0, sizeof(*res));
	if (!o->nr_events || o->nr_events > RECORD_MAX_EVENTS)
		return fail(res, -EINVAL, "between 1 and %d events can be recorded", RECORD_MAX_EVENTS);
	res->nr_events = o->nr_events;
	for (size_t i = 0; i < o->nr_events; i++) {
		snprintf(res->ev[i].name, sizeof(res->ev[i].name), "%s", o->events[i].name);
		setup_attr(&r, i);
	}
	r.id_slot = r.nr_ev > 1 ? 3 : -1;	/* IP, TID, TIME, then ID */
	r.time_slot = 2;
	r.nr_cpus = host__online_cpus(r.cpus, MAX_CPUS);
	if (r.nr_cpus <= 0)
		return fail(res, r.nr_cpus ? r.nr_cpus : -ENODEV, "cannot read the list of online CPUs");
	r.hits = hits__new();
	r.fd = malloc(r.nr_ev * (size_t)r.nr_cpus * sizeof(int));
	r.id = calloc(r.nr_ev * (size_t)r.nr_cpus, sizeof(uint64_t));
	r.buf = calloc((size_t)r.nr_cpus, sizeof(*r.buf));
	if (!r.fd || !r.id || !r.buf || !r.hits) {
		close_all(&r);
		return fail(res, -ENOMEM, "out of memory");
	}
	for (size_t k = 0; k < r.nr_ev * (size_t)r.nr_cpus; k++)
		r.fd[k] = -1;

	/* Signals are only taken inside ppoll, so the loop cannot miss one. */
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &orig);
	record_done = 0;
	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	if ((err = workload__prepare(&wl, o->argv))) {
		fail(res, err, "cannot start the workload: %s", strerror(-err));
		goto out;
	}
	if ((err = open_events(&r, wl.pid)) || (err = map_buffers(&r)))
		goto out;

	if ((err = rename_old(o->output))) {
		fail(res, err, "cannot rename '%s' to '%s.old': %s", o->output, o->output, strerror(-err));
		goto out;
	}
	r.w = pdw__create(o->output);
	if (!r.w) {
		err = fail(res, -errno, "cannot create '%s': %s", o->output, strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < r.nr_ev; i++) {
		if ((err = pdw__add_event(r.w, &r.attr[i], res->ev[i].name, &r.id[i * r.nr_cpus],
					  (size_t)r.nr_cpus)))
			goto write_err;
	}
	if ((err = pdw__begin_data(r.w)) || (err = synthesize(&r, wl.pid)))
		goto write_err;

	res->exec_errno = workload__start(&wl);
	if (res->exec_errno) {
		err = fail(res, -res->exec_errno, "%s: %s", o->argv[0],
			   res->exec_errno == ENOENT ? "command not found" : strerror(res->exec_errno));
		goto out;
	}
	{
		sigset_t waitmask = orig;

		sigdelset(&waitmask, SIGCHLD);
		sigdelset(&waitmask, SIGINT);
		sigdelset(&waitmask, SIGTERM);
		sigdelset(&waitmask, SIGHUP);
		err = poll_loop(&r, &waitmask);
	}
	if (err)
		goto write_err;
	/* Stopped by SIGINT/SIGTERM/SIGHUP while the workload still runs: end it, like perf. */
	if (record_done > 0 && record_done != SIGCHLD && waitpid(wl.pid, &status, WNOHANG) == 0)
		kill(wl.pid, SIGTERM);
	while (waitpid(wl.pid, &status, 0) < 0 && errno == EINTR)
		;
	wl.pid = -1;
	res->wait_status = status;
	/* What the workload did while it was being ended (its last samples, its EXIT). */
	{
		int64_t wrote = drain(&r);

		if (wrote < 0 || (wrote && (err = write_round(&r)))) {
			err = wrote < 0 ? (int)wrote : err;
			goto write_err;
		}
	}
	if ((err = read_lost(&r)) || (err = finish_kernel_mmap(&r)))
		goto write_err;
	if ((err = host__write_features(r.w, o->cmd_argc, o->cmd_argv)) ||
	    (err = hits__write(r.hits, r.w)) ||
	    (r.first_time && (err = pdw__feat_sample_time(r.w, r.first_time, r.last_time))) ||
	    (err = pdw__finish(r.w)))
		goto write_err;
	if (stat(o->output, &st) == 0)
		res->file_size = (uint64_t)st.st_size;
	err = 0;
	goto out;

write_err:
	fail(res, err, "cannot write '%s': %s", o->output, mperf_strerror(err));
out:
	if (wl.pid > 0 && (wl.go_fd >= 0 || err)) {
		if (wl.go_fd < 0)
			kill(wl.pid, SIGTERM);
		workload__abort(&wl);
	}
	if (r.ktext_running)
		pthread_join(r.ktext_thread, NULL);
	pdw__close(r.w);
	close_all(&r);
	sigaction(SIGCHLD, &(struct sigaction){ .sa_handler = SIG_DFL }, NULL);
	sigaction(SIGINT, &(struct sigaction){ .sa_handler = SIG_DFL }, NULL);
	sigaction(SIGTERM, &(struct sigaction){ .sa_handler = SIG_DFL }, NULL);
	sigaction(SIGHUP, &(struct sigaction){ .sa_handler = SIG_DFL }, NULL);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	return err;
}
