// SPDX-License-Identifier: GPL-2.0-only
/*
 * What record samples (perf's target): the workload alone, processes or
 * threads already running (-p, -t), or every task on some or all CPUs
 * (-C, -a); on every online CPU, or per thread (--per-thread).  And the
 * records that describe the tasks that ran before record attached, as
 * perf synthesizes them from /proc, so that report can name their samples.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "../host/host.h"
#include "../lib/alloc.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "internal.h"

/* Append (pid, tid); the arrays grow. */
static int add_thread(struct target *t, int pid, int tid)
{
	for (int i = 0; i < t->nr_threads; i++)
		if (t->tids[i] == tid)
			return 0;	/* -p 1,1 or a thread given twice: once is enough */
	if (ALLOC_GROW(t->tids, (size_t)t->nr_threads + 1, t->cap_tids) ||
	    ALLOC_GROW(t->pids, (size_t)t->nr_threads + 1, t->cap_pids))
		return mperf_error(-ENOMEM, "out of memory");
	t->pids[t->nr_threads] = pid;
	t->tids[t->nr_threads++] = tid;
	return 0;
}

/* "1234,5678": each a positive decimal id. */
static int for_each_id(const char *list, const char *what, int (*fn)(struct target *t, int id),
		       struct target *t)
{
	const char *s = list;

	for (;;) {
		char *end;
		long id;
		int err;

		errno = 0;
		id = strtol(s, &end, 10);
		if (end == s || id <= 0 || id > 0x7fffffff || errno || (*end && *end != ','))
			return mperf_error(-EINVAL, "invalid %s list '%s'", what, list);
		if ((err = fn(t, (int)id)))
			return err;
		if (!*end)
			return 0;
		s = end + 1;
	}
}

/* -p PID: the process and all its threads now (later ones are followed by inherit). */
static int add_process(struct target *t, int pid)
{
	char dir[64];
	int *tids, n, err = 0;

	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	n = host_proc_ids(dir, &tids);
	if (n == -ESRCH || n == 0)
		return mperf_error(-ESRCH, "no such process: %d", pid);
	if (n < 0)
		return mperf_error(n, "cannot read '%s': %s", dir, mperf_strerror(n));
	for (int i = 0; i < n && !err; i++)
		err = add_thread(t, pid, tids[i]);
	free(tids);
	return err;
}

/* -t TID: that thread only. */
static int add_tid(struct target *t, int tid)
{
	int tgid, ppid, err = host_proc_status(tid, &tgid, &ppid);

	if (err == -ESRCH)
		return mperf_error(-ESRCH, "no such thread: %d", tid);
	if (err)
		return mperf_error(err, "cannot read the status of thread %d: %s", tid, mperf_strerror(err));
	return add_thread(t, tgid, tid);
}

static int parse_cpus(struct target *t, const char *list, const int *online, int nr_online)
{
	int n = host_parse_cpu_list(list, t->cpus, RECORD_MAX_CPUS);

	if (n == -E2BIG)
		return mperf_error(n, "-C '%s': more than %d CPUs", list, RECORD_MAX_CPUS);
	if (n <= 0)
		return mperf_error(-EINVAL, "invalid CPU list '%s' (e.g. 0-1,3)", list);
	for (int i = 0; i < n; i++) {
		bool on = false;

		for (int k = 0; k < nr_online && !on; k++)
			on = online[k] == t->cpus[i];
		if (!on)
			return mperf_error(-EINVAL, "-C '%s': cpu %d is not online", list, t->cpus[i]);
		for (int k = 0; k < i; k++)
			if (t->cpus[k] == t->cpus[i])
				return mperf_error(-EINVAL, "-C '%s': cpu %d is listed twice", list, t->cpus[i]);
	}
	return n;
}

int target__init(struct target *t, const struct record_opts *o)
{
	int online[RECORD_MAX_CPUS], nr_online, err;

	memset(t, 0, sizeof(*t));
	t->cpus = malloc(RECORD_MAX_CPUS * sizeof(*t->cpus));
	if (!t->cpus)
		return mperf_error(-ENOMEM, "out of memory");
	nr_online = host_online_cpus(online, RECORD_MAX_CPUS);
	if (nr_online <= 0)
		return mperf_error(nr_online ? nr_online : -ENODEV, "cannot read the list of online CPUs");

	/* perf's precedence: a task target overrides -C and -a, saying so; -p overrides -t. */
	t->has_task = o->pids || o->tids;
	if (t->has_task && o->cpu_list)
		mperf_log(MPERF_LOG_WARN, "PID/TID switch overriding CPU");
	else if (t->has_task && o->system_wide)
		mperf_log(MPERF_LOG_WARN, "PID/TID switch overriding SYSTEM");
	t->has_cpu = !t->has_task && (o->system_wide || o->cpu_list);
	t->per_thread = o->per_thread && !t->has_cpu;
	if (o->per_thread && t->has_cpu)
		mperf_log(MPERF_LOG_WARN, "--per-thread is ignored with -a or -C: every task of a CPU is sampled");

	if (o->pids)
		err = for_each_id(o->pids, "pid", add_process, t);
	else if (o->tids)
		err = for_each_id(o->tids, "tid", add_tid, t);
	else
		/* Every task on the CPU (-a, -C), or the workload, whose pid comes later. */
		err = add_thread(t, -1, -1);
	if (err)
		return err;
	t->traces_workload = !t->has_task && !t->has_cpu;

	if (t->per_thread) {
		t->cpus[0] = -1;
		t->nr_cpus = 1;
	} else if (t->has_cpu && o->cpu_list) {
		if ((err = parse_cpus(t, o->cpu_list, online, nr_online)) < 0)
			return err;
		t->nr_cpus = err;
	} else {
		memcpy(t->cpus, online, (size_t)nr_online * sizeof(*online));
		t->nr_cpus = nr_online;
	}
	return 0;
}

void target__set_workload(struct target *t, int pid)
{
	if (t->traces_workload)
		t->pids[0] = t->tids[0] = pid;
}

void target__exit(struct target *t)
{
	free(t->cpus);
	free(t->tids);
	free(t->pids);
	memset(t, 0, sizeof(*t));
}

/* ---- the tasks that ran before record, described as perf does ---- */

struct synth {
	struct pdata_writer *w;
	struct hits *hits;
	int pid;
	bool data_maps;
	int err;		/* of the writer */
};

/*
 * An MMAP2 for each executable mapping (each one with -d), with its
 * device, inode, protection and flags, as perf reads them from
 * /proc/PID/maps; an anonymous one is perf's "//anon".
 */
static int synth_map(void *arg, const struct host_map *m)
{
	struct synth *s = arg;
	struct pd_mmap2_event e = {
		.pid = (uint32_t)s->pid, .tid = (uint32_t)s->pid,
		.start = m->start, .len = m->end - m->start, .pgoff = m->pgoff,
		.maj = m->maj, .min = m->min, .ino = m->ino,
		.prot = m->prot, .flags = m->flags,
	};
	uint16_t misc = PERF_RECORD_MISC_USER;
	const char *name = m->name[0] ? m->name : "//anon";

	if (!(m->prot & PROT_EXEC)) {
		if (!s->data_maps)
			return 0;
		misc |= PERF_RECORD_MISC_MMAP_DATA;
	}
	if (s->hits)
		hits__map(s->hits, e.pid, e.start, e.len, e.prot, name, strlen(name));
	s->err = pdw__mmap2(s->w, misc, &e, name);
	return s->err ? 1 : 0;
}

/*
 * A process that is gone meanwhile, or whose maps this user may not read
 * (perf skips them too), has no maps to describe; only a failed write fails.
 */
static int synth_maps(struct synth *s, int pid)
{
	s->pid = pid;
	s->err = 0;
	host_proc_maps(pid, synth_map, s);
	return s->err;
}

/* A thread that exited while it was read is skipped: the kernel will not sample it. */
static int synth_comm(struct pdata_writer *w, int pid, int tid)
{
	char comm[64];

	if (host_proc_comm(pid, tid, comm, sizeof(comm)))
		return 1;
	return pdw__comm(w, (uint32_t)pid, (uint32_t)tid, comm);
}

/*
 * Every task of the machine (-a, -C), as perf does: for each process a
 * FORK from its parent, its COMM and its maps, then for each other thread
 * a FORK from the leader and its COMM.
 */
static int synth_all(struct synth *s)
{
	int *pids, n = host_proc_ids("/proc", &pids), err = 0;

	if (n < 0)
		return mperf_error(n, "cannot read '/proc': %s", mperf_strerror(n));
	for (int i = 0; i < n && !err; i++) {
		char dir[64];
		int *tids, nt, tgid, ppid;

		if (host_proc_status(pids[i], &tgid, &ppid) || tgid != pids[i])
			continue;
		if ((err = pdw__fork(s->w, (uint32_t)tgid, (uint32_t)ppid, (uint32_t)tgid, (uint32_t)ppid)))
			break;
		if ((err = synth_comm(s->w, tgid, tgid)) < 0 || (err = synth_maps(s, tgid)) < 0)
			break;
		err = 0;
		snprintf(dir, sizeof(dir), "/proc/%d/task", tgid);
		if ((nt = host_proc_ids(dir, &tids)) <= 0)
			continue;
		for (int k = 0; k < nt && !err; k++) {
			if (tids[k] == tgid)
				continue;
			err = pdw__fork(s->w, (uint32_t)tgid, (uint32_t)tgid, (uint32_t)tids[k], (uint32_t)tgid);
			if (!err && (err = synth_comm(s->w, tgid, tids[k])) > 0)
				err = 0;
		}
		free(tids);
	}
	free(pids);
	return err;
}

/*
 * The threads of -p or -t, as perf does: each one's COMM, and the maps of
 * each process once (its threads share them).
 */
static int synth_tasks(struct synth *s, const struct target *t)
{
	int err;

	for (int i = 0; i < t->nr_threads; i++) {
		bool seen = false;

		if ((err = synth_comm(s->w, t->pids[i], t->tids[i])) < 0)
			return err;
		for (int k = 0; k < i && !seen; k++)
			seen = t->pids[k] == t->pids[i];
		if (!seen && (err = synth_maps(s, t->pids[i])) < 0)
			return err;
	}
	return 0;
}

int target__synthesize(const struct target *t, struct pdata_writer *w, struct hits *hits, bool data_maps)
{
	struct synth s = { .w = w, .hits = hits, .data_maps = data_maps };

	if (t->has_cpu)
		return synth_all(&s);
	if (t->has_task)
		return synth_tasks(&s, t);
	return 0;
}

int target__synthesize_process(struct pdata_writer *w, struct hits *hits, bool data_maps, int pid)
{
	struct synth s = { .w = w, .hits = hits, .data_maps = data_maps };
	char dir[64];
	int *tids, nt, err = 0;

	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	if ((nt = host_proc_ids(dir, &tids)) <= 0)
		return 0;
	/* The leader first, as perf's COMM of the process comes before its threads'. */
	if ((err = synth_comm(w, pid, pid)) < 0)
		goto out;
	for (int k = 0; k < nt; k++)
		if (tids[k] != pid && (err = synth_comm(w, pid, tids[k])) < 0)
			goto out;
	err = synth_maps(&s, pid);
out:
	free(tids);
	return err < 0 ? err : 0;
}
