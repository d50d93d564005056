// SPDX-License-Identifier: GPL-2.0-only
/*
 * record --threads: perf 6.1's parallel streaming.  The output is a
 * directory in perf's format: OUTPUT/data is the file record writes
 * anyway (the header, the events, the records mperf makes itself, the
 * features, DIR_FORMAT among them), and OUTPUT/data.N holds the records
 * of CPU buffer N as the kernel wrote them, one file per buffer as perf
 * writes it.  The buffers are shared out among drain threads by the
 * masks of --threads (cpu, core, package, numa, or MAPS/AFFINITY:...):
 * each thread polls its buffers' fds and writes each buffer into its own
 * file, so that nothing is shared on the way but the DSOs hit (under a
 * lock).  The main thread takes the signals and --control's commands.
 * With -z each data.N is a zstd stream of its own, compressed by the
 * thread that drains it, as perf's threads compress; with --overwrite
 * each CPU's backward buffer is read at the end into its data.N.
 * No FINISHED_ROUND is written, as perf writes none there: each file is
 * in time order, and the reader sorts them all.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "../host/host.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "internal.h"

#define POLL_MS	100

/* One mask of --threads: the CPUs whose buffers a thread drains, and where it runs. */
struct tmask {
	cpu_set_t maps, affinity;
};

struct dthread {
	struct drain d;			/* its rings (copies of the run's), its fds, its counts */
	struct record_result res;	/* its counts, added to the run's at the end */
	struct threads *th;
	cpu_set_t affinity;
	pthread_t id;
	bool started;
	atomic_int err;			/* its failure (logged), 0 while it runs well */
	atomic_bool hung;		/* every fd it polls hung up: its tasks are gone */
	atomic_uint_least64_t written;	/* bytes drained */
};

struct threads {
	struct dthread *t;
	int nr;
	struct pdata_writer **files;	/* [ring]: its data.N (one of parts) */
	struct pdata_writer **parts;	/* data.0, data.1...: one per CPU buffer */
	int nr_parts;
	int nr_rings;			/* the run's, taken while the threads run */
	int wake[2];			/* a byte on wake[1]: stop */
	char *header;			/* "OUTPUT/data" */
	atomic_bool stop;
	pthread_mutex_t hits_lock;
};

/* ---- the masks ---- */

/* A CPU list into set: 0 or -EINVAL. */
static int list_set(const char *s, size_t len, cpu_set_t *set)
{
	int cpus[CPU_SETSIZE], n;
	char buf[256];

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = 0;
	if ((n = host_parse_cpu_list(buf, cpus, CPU_SETSIZE)) <= 0)
		return -EINVAL;
	CPU_ZERO(set);
	for (int i = 0; i < n; i++) {
		if (cpus[i] >= CPU_SETSIZE)
			return -EINVAL;
		CPU_SET(cpus[i], set);
	}
	return 0;
}

static int add_mask(struct tmask **m, int *n, const cpu_set_t *maps, const cpu_set_t *affinity)
{
	struct tmask *v = realloc(*m, ((size_t)*n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	v[*n].maps = *maps;
	v[*n].affinity = *affinity;
	*m = v;
	(*n)++;
	return 0;
}

/* MAPS/AFFINITY[:MAPS/AFFINITY]..., perf's user-defined masks. */
static int user_masks(const char *spec, struct tmask **m, int *n)
{
	for (const char *p = spec; ; p++) {
		size_t len = strcspn(p, ":"), slash = strcspn(p, "/");
		cpu_set_t maps, aff;
		int err;

		if (slash >= len || list_set(p, slash, &maps) || list_set(p + slash + 1, len - slash - 1, &aff))
			return -EINVAL;
		if ((err = add_mask(m, n, &maps, &aff)))
			return err;
		p += len;
		if (!*p)
			return 0;
	}
}

/* One mask per list (its maps its affinity): the sibling lists of the topology. */
static int list_masks(char *const *lists, uint32_t nr, struct tmask **m, int *n)
{
	for (uint32_t i = 0; i < nr; i++) {
		cpu_set_t set;
		int err;

		if (list_set(lists[i], strlen(lists[i]), &set))
			return -EINVAL;
		if ((err = add_mask(m, n, &set, &set)))
			return err;
	}
	return 0;
}

/* cpu, core, package, numa: from this machine's topology, as perf reads it. */
static int topology_masks(const char *kind, struct tmask **m, int *n)
{
	struct host_topology t;
	int err;

	if ((err = host_topology_read(&t, "/sys")))
		return err;
	if (!strcmp(kind, "core")) {
		err = list_masks(t.cores, t.nr_cores, m, n);
	} else if (!strcmp(kind, "package")) {
		err = list_masks(t.packages, t.nr_packages, m, n);
	} else if (!strcmp(kind, "numa")) {
		for (uint32_t i = 0; i < t.nr_numa && !err; i++)
			err = list_masks(&t.numa[i].cpus, 1, m, n);
	} else {
		for (int c = 0; c < t.nr_cpus && c < CPU_SETSIZE && !err; c++) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(c, &set);
			err = add_mask(m, n, &set, &set);
		}
	}
	host_topology_free(&t);
	return err;
}

static bool topology_kind(const char *spec)
{
	return !*spec || !strcmp(spec, "cpu") || !strcmp(spec, "core") || !strcmp(spec, "package") ||
	       !strcmp(spec, "numa");
}

bool record__threads_spec_ok(const char *spec)
{
	struct tmask *m = NULL;
	int n = 0, err;

	if (topology_kind(spec))
		return true;
	err = user_masks(spec, &m, &n);
	free(m);
	return !err;
}

/* ---- the directory ---- */

/* OUTPUT made a new directory (an old one was renamed OUTPUT.old by record_backup, as perf does). */
static int make_dir(const char *out)
{
	if (mkdir(out, 0700) < 0)
		return mperf_error(-errno, "cannot create the directory '%s': %s", out, strerror(errno));
	return 0;
}

/* ---- the threads ---- */

/* The mask that takes CPU cpu's buffer: its index, or -1. */
static int mask_of(const struct tmask *m, int n, int cpu)
{
	for (int i = 0; i < n; i++)
		if (cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &m[i].maps))
			return i;
	return -1;
}

/* The first event that writes forward: its fds are polled (--overwrite's backward ones are not). */
static size_t first_forward(const struct evlist *el)
{
	size_t i = 0;

	while (i + 1 < el->nr_ev && el->attr[i].write_backward)
		i++;
	return i;
}

/*
 * Ring r of the run for thread t: a copy of its state, its fds to poll
 * (none for a backward ring, read at the end; its file comes later).
 */
static int give_ring(struct dthread *t, const struct drain *d, int r)
{
	struct drain *td = &t->d;
	const struct evlist *el = d->el;
	int c = d->ring_idx[r];
	size_t ev = first_forward(el);

	td->ring[td->nr_rings] = d->ring[r];
	td->ring_fd[td->nr_rings] = d->ring_fd[r];
	td->ring_idx[td->nr_rings] = c;
	td->nr_rings++;
	for (int th = 0; th < el->nr_threads && !d->ring[r].backward; th++) {
		int fd = evlist__fd(el, ev, c, th);

		if (fd >= 0)
			td->pfd[td->nr_pfd++] = (struct pollfd){ .fd = fd, .events = POLLIN };
	}
	return 0;
}

/* Thread t's drain, on the run's events and build-id bookkeeping, with room for n rings. */
static int thread_init(struct dthread *t, struct threads *th, const struct drain *d, int n)
{
	struct drain *td = &t->d;

	t->th = th;
	td->el = d->el;
	td->res = &t->res;
	td->hits = d->hits;
	td->hits_lock = &th->hits_lock;
	td->ring = calloc((size_t)n, sizeof(*td->ring));
	td->ring_fd = calloc((size_t)n, sizeof(*td->ring_fd));
	td->ring_idx = calloc((size_t)n, sizeof(*td->ring_idx));
	td->ring_w = calloc((size_t)n, sizeof(*td->ring_w));
	/* every fd of each CPU (a thread's own, of -p or -t), and the stop pipe */
	td->pfd = calloc((size_t)n * (size_t)d->el->nr_threads + 1, sizeof(*td->pfd));
	if (!td->ring || !td->ring_fd || !td->ring_idx || !td->ring_w || !td->pfd)
		return mperf_error(-ENOMEM, "out of memory");
	return 0;
}

/* The threads of the masks that take a buffer, each with its buffers. */
static int share_rings(struct threads *th, struct drain *d, const struct tmask *m, int nm)
{
	int *of = calloc((size_t)nm, sizeof(int)), *idx = calloc((size_t)nm, sizeof(int)), err = 0;

	if (!of || !idx || !(th->t = calloc((size_t)nm, sizeof(*th->t))))
		err = mperf_error(-ENOMEM, "out of memory");
	for (int r = 0; r < d->nr_rings && !err; r++) {
		int cpu = d->el->t->cpus[d->ring_idx[r]], k = mask_of(m, nm, cpu);

		if (k < 0)
			err = mperf_error(-EINVAL, "--threads: the buffer of CPU %d is in no mask", cpu);
		else
			of[k]++;
	}
	for (int k = 0; k < nm && !err; k++) {
		idx[k] = of[k] ? th->nr : -1;
		if (of[k] && !(err = thread_init(&th->t[th->nr], th, d, of[k])))
			th->t[th->nr++].affinity = m[k].affinity;
	}
	for (int r = 0; r < d->nr_rings && !err; r++) {
		int k = mask_of(m, nm, d->el->t->cpus[d->ring_idx[r]]);

		err = give_ring(&th->t[idx[k]], d, r);
	}
	free(of);
	free(idx);
	return err;
}

/* The first ring before r of the same CPU (its backward and forward rings share a data.N), or r. */
static int first_of_cpu(const struct drain *d, int r)
{
	for (int q = 0; q < r; q++)
		if (d->ring_idx[q] == d->ring_idx[r])
			return q;
	return r;
}

/*
 * OUTPUT/data.N, one per CPU buffer as perf numbers them (with --overwrite
 * the CPU's backward ring writes into it too); with -z each a zstd stream
 * of its own, as perf compresses each file.  Then each thread's rings' files.
 */
static int make_files(struct threads *th, const struct drain *d, const struct record_opts *o)
{
	uint32_t mmap_len = (uint32_t)((o->mmap_pages + 1) * (size_t)sysconf(_SC_PAGESIZE));
	int err;

	th->files = calloc((size_t)d->nr_rings + 1, sizeof(*th->files));
	th->parts = calloc((size_t)d->nr_rings + 1, sizeof(*th->parts));
	if (!th->files || !th->parts)
		return mperf_error(-ENOMEM, "out of memory");
	for (int r = 0, q; r < d->nr_rings; r++) {
		char path[4096];

		if ((q = first_of_cpu(d, r)) < r) {
			th->files[r] = th->files[q];
			continue;
		}
		snprintf(path, sizeof(path), "%s/data.%d", o->output, th->nr_parts);
		if (!(th->files[r] = th->parts[th->nr_parts] = pdw__create_raw(path)))
			return -errno;
		th->nr_parts++;
		if (o->comp_level && (err = pdw__compress(th->files[r], o->comp_level, mmap_len)))
			return err;
	}
	for (int i = 0; i < th->nr; i++)
		for (int k = 0; k < th->t[i].d.nr_rings; k++)
			for (int r = 0; r < d->nr_rings; r++)
				if (d->ring_fd[r] == th->t[i].d.ring_fd[k])
					th->t[i].d.ring_w[k] = th->files[r];
	return 0;
}

int threads__init(struct drain *d, const struct record_opts *o, const char **header)
{
	struct threads *th = calloc(1, sizeof(*th));
	struct tmask *m = NULL;
	int nm = 0, err;

	if (!th)
		return mperf_error(-ENOMEM, "out of memory");
	th->wake[0] = th->wake[1] = -1;
	pthread_mutex_init(&th->hits_lock, NULL);
	d->threads = th;
	th->nr_rings = d->nr_rings;
	err = topology_kind(o->threads) ? topology_masks(o->threads, &m, &nm) : user_masks(o->threads, &m, &nm);
	if (err == -EINVAL)
		err = mperf_error(err, "invalid --threads '%s'", o->threads);
	else if (err)
		err = mperf_error(err, "--threads: cannot read this machine's topology: %s", strerror(-err));
	if (!err && d->el->t->per_thread)
		err = mperf_error(-EINVAL, "--threads drains CPU buffers: not with --per-thread");
	if (!err)
		err = share_rings(th, d, m, nm);
	free(m);
	if (err || (err = make_dir(o->output)) || (err = make_files(th, d, o)))
		return err;
	if (pipe2(th->wake, O_CLOEXEC) < 0)
		return mperf_error(-errno, "cannot make a pipe: %s", strerror(errno));
	if (asprintf(&th->header, "%s/data", o->output) < 0)
		return mperf_error(-ENOMEM, "out of memory");
	*header = th->header;
	return 0;
}

/*
 * One thread: drain its buffers until stopped, again at once after a pass
 * that found data, else when the kernel wakes it (or every POLL_MS).
 */
static void *drain_thread(void *arg)
{
	struct dthread *t = arg;
	struct drain *d = &t->d;
	int nfd = d->nr_pfd, live = d->nr_pfd;

	if (CPU_COUNT(&t->affinity))
		pthread_setaffinity_np(pthread_self(), sizeof(t->affinity), &t->affinity);
	d->pfd[nfd] = (struct pollfd){ .fd = t->th->wake[0], .events = POLLIN };
	for (;;) {
		bool stopping = atomic_load(&t->th->stop);
		int64_t wrote = drain__once(d, stopping);
		bool peek;
		int n;

		if (wrote < 0) {
			atomic_store(&t->err, (int)wrote);
			break;
		}
		atomic_fetch_add(&t->written, (uint64_t)wrote);
		if (stopping)
			break;
		peek = drain__peek(d, wrote);
		n = poll(d->pfd, (nfds_t)nfd + 1, peek ? 0 : POLL_MS);
		if (n < 0 && errno != EINTR) {
			atomic_store(&t->err, mperf_error(-errno, "poll failed: %s", strerror(errno)));
			break;
		}
		drain__polled(d, peek, n);
		if (n <= 0)
			continue;
		for (int k = 0; k < nfd; k++)
			if (d->pfd[k].fd >= 0 && (d->pfd[k].revents & (POLLHUP | POLLERR))) {
				d->pfd[k].fd = -1;	/* its task is gone; stop polling it */
				live--;
			}
		if (!live && nfd)
			atomic_store(&t->hung, true);
	}
	return NULL;
}

int threads__start(struct drain *d)
{
	struct threads *th = d->threads;
	int err;

	for (int i = 0; i < th->nr; i++) {
		th->t[i].d.flush = d->flush;
		if ((err = pthread_create(&th->t[i].id, NULL, drain_thread, &th->t[i])))
			return mperf_error(-err, "cannot start a drain thread: %s", strerror(err));
		th->t[i].started = true;
	}
	/* The threads drain the rings from now on. */
	d->nr_rings = 0;
	return 0;
}

int threads__loop(struct drain *d, const sigset_t *waitmask, volatile sig_atomic_t *stop)
{
	struct threads *th = d->threads;
	int err = 0;

	while (!*stop) {
		int ms = control__timeout_ms(d->ctl, POLL_MS), n, hung = 0;
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
		struct pollfd pfd = { .fd = d->ctl && d->ctl->polled ? d->ctl->fd : -1, .events = POLLIN };
		uint64_t written = 0;

		n = ppoll(&pfd, 1, &ts, waitmask);
		if (n < 0 && errno != EINTR)
			return mperf_error(-errno, "poll failed: %s", strerror(errno));
		if (d->ctl && (err = control__process(d->ctl, d->el, d->res, n > 0 ? pfd.revents : 0, stop)))
			return err;
		for (int i = 0; i < th->nr; i++) {
			if ((err = atomic_load(&th->t[i].err)))
				return err;
			hung += atomic_load(&th->t[i].hung);
			written += atomic_load(&th->t[i].written);
		}
		if (th->nr && hung == th->nr && !*stop)
			*stop = -1;
		if (d->max_size && d->written + written >= d->max_size && !*stop) {
			/* perf's --max-size: stop as a signal would, the files finished as always. */
			d->res->size_limited = true;
			*stop = RECORD_STOP_SIZE;
		}
	}
	return 0;
}

/* A thread's counts and times added to the run's. */
static void add_counts(struct drain *d, const struct dthread *t)
{
	const struct record_result *r = &t->res;

	d->res->samples += r->samples;
	d->res->lost_records += r->lost_records;
	d->res->lost_events += r->lost_events;
	d->res->wakeups += r->wakeups;
	d->res->timeouts += r->timeouts;
	d->res->passes += r->passes;
	d->res->sleeps += r->sleeps;
	for (size_t e = 0; e < RECORD_MAX_EVENTS; e++) {
		d->res->ev[e].samples += r->ev[e].samples;
		d->res->ev[e].throttles += r->ev[e].throttles;
	}
	if (t->d.first_time && (!d->first_time || t->d.first_time < d->first_time))
		d->first_time = t->d.first_time;
	if (t->d.last_time > d->last_time)
		d->last_time = t->d.last_time;
	d->written += atomic_load(&t->written);
}

/* Join the threads; their rings' states back in the run's. */
static int join(struct drain *d)
{
	struct threads *th = d->threads;
	int err = 0;

	atomic_store(&th->stop, true);
	if (th->wake[1] >= 0 && write(th->wake[1], "", 1) < 0)
		err = mperf_error(-errno, "cannot wake the drain threads: %s", strerror(errno));
	for (int i = 0; i < th->nr; i++) {
		struct dthread *t = &th->t[i];

		if (!t->started)
			continue;
		pthread_join(t->id, NULL);
		t->started = false;
		if (!err)
			err = atomic_load(&t->err);
		for (int k = 0; k < t->d.nr_rings; k++)
			for (int r = 0; r < th->nr_rings; r++)
				if (d->ring_fd[r] == t->d.ring_fd[k])
					d->ring[r] = t->d.ring[k];
	}
	d->nr_rings = th->nr_rings;
	return err;
}

/* a + b bytes, or b's error. */
static int64_t add_bytes(int64_t a, int64_t b)
{
	return b < 0 ? b : a + b;
}

int64_t threads__stop(struct drain *d)
{
	struct threads *th = d->threads;
	int64_t wrote;
	int err = join(d);

	for (int i = 0; i < th->nr; i++)
		add_counts(d, &th->t[i]);
	/* What came since the threads' last pass (system-wide events run on), into the same files. */
	d->ring_w = th->files;
	wrote = err ? 0 : drain__once(d, true);
	/* --overwrite: each CPU's backward buffer, newest first, into its data.N as perf's. */
	if (!err && wrote >= 0 && d->el->attr[0].write_backward)
		wrote = add_bytes(wrote, drain__backward(d));
	d->ring_w = NULL;
	if (wrote < 0)
		err = (int)wrote;
	for (int i = 0; i < th->nr_parts && !err; i++) {
		uint64_t in, out;

		d->res->file_size += pdw__data_size(th->parts[i]);
		/* -z: the header's COMPRESSED feature says the ratio of them all, as perf's. */
		pdw__compressed_bytes(th->parts[i], &in, &out);
		pdw__compressed_count(d->w, in, out);
		err = pdw__finish(th->parts[i]);
	}
	return err ? err : wrote;
}

int threads__salvage(struct drain *d, uint64_t reserve, uint64_t *samples, uint64_t *size)
{
	struct threads *th = d->threads;
	int err;

	join(d);	/* their errors: the same full disk */
	for (int i = 0; i < th->nr; i++)
		add_counts(d, &th->t[i]);
	*size = 0;
	if ((err = pdw__salvage_parts(th->parts, th->nr_parts, reserve, samples)))
		return err;
	for (int i = 0; i < th->nr_parts; i++) {
		*size += pdw__data_size(th->parts[i]);
		if ((err = pdw__finish(th->parts[i])))
			return err;
	}
	return 0;
}

void threads__free(struct drain *d)
{
	struct threads *th = d->threads;

	if (!th)
		return;
	if (th->t)
		join(d);
	for (int i = 0; i < th->nr; i++) {
		free(th->t[i].d.ring);
		free(th->t[i].d.ring_fd);
		free(th->t[i].d.ring_idx);
		free(th->t[i].d.ring_w);
		free(th->t[i].d.pfd);
	}
	for (int i = 0; i < th->nr_parts; i++)
		pdw__close(th->parts[i]);
	free(th->parts);
	free(th->files);
	free(th->t);
	if (th->wake[0] >= 0)
		close(th->wake[0]);
	if (th->wake[1] >= 0)
		close(th->wake[1]);
	pthread_mutex_destroy(&th->hits_lock);
	free(th->header);
	free(th);
	d->threads = NULL;
}
