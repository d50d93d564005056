/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_RESOLVE_SESSION_H
#define MPERF_RESOLVE_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include "../perfdata/perfdata.h"
#include "machine.h"

/*
 * Reading a file the way perf report does: records in perf's order (the
 * ordered-events queue), each decoded once and delivered to one consumer
 * (the dump, the stats, the histograms), with the machine model (threads
 * and maps) kept up to date when the consumer wants it.  The session only
 * orders and delivers; what is printed or counted is the consumer's.
 */

/* A record as delivered: every record of the file, once, in perf's order. */
struct session_record {
	uint64_t off;				/* where it is in the file (or stream) */
	const char *path;			/* a directory's file it is in (pd_record.path), or NULL */
	const struct perf_event_header *h;
	int evsel;				/* its event; -1 for user records */
	const struct pd_evsel *ev;		/* that event, or NULL */
	const struct pd_sample *smp;		/* its sample, or sample_id fields (zeros for user records) */
	struct machine *machine;		/* the threads and maps (NULL without ops->machine) */
};

/* A sample's weight for one event: a SAMPLE, or one changed value of a READ sample. */
struct session_sample {
	int evsel;
	const struct pd_sample *smp;
	int cpumode;			/* misc & PERF_RECORD_MISC_CPUMODE_MASK */
	uint64_t period;		/* what the sample weighs (a READ value's increase) */
	bool from_read;			/* one value of a sample's read_format */
	struct resolved where;		/* thread and map of the ip (with ops->machine) */
	struct machine *machine;	/* where it was resolved (NULL without ops->machine), for its call chain */
};

/*
 * The consumer.  Each callback returns 0, or a negative code that stops
 * the session and is returned by session__run (the consumer logs it, if
 * it needs saying: -EPIPE does not).
 */
struct session_ops {
	/* Every record, before the machine applies it. */
	int (*record)(void *arg, const struct session_record *r);
	/*
	 * Each sample, after record(): a SAMPLE once, a READ sample once per
	 * value whose id is known and that changed since that id was last seen
	 * (perf's per-id period starts at 0).
	 */
	int (*sample)(void *arg, const struct session_sample *ss);
	/* A record that is not a sample, after the machine applied it. */
	int (*applied)(void *arg, const struct session_record *r);
	/* The machine dropped a parent thread it found with another pid (perf says so in -D). */
	void (*thread_removed)(void *arg, int pid, int tid);
	/*
	 * After the last record, with the machine as it ended (NULL without
	 * one); with partial, also after the last record read before damage
	 * (a file cut mid-record, a record that does not decode), whose error
	 * session__run returns after it.
	 */
	int (*finish)(void *arg, struct machine *m);
	void *arg;
	bool machine;			/* keep threads and maps; resolve each sample's ip */
	bool partial;			/* finish() even after damage (not after a callback's failure) */
	bool no_maps;			/* the machine's threads alone: MMAP and MMAP2 are not applied (perf's --tasks) */
	bool drop_exited;		/* EXIT drops the thread (machine__exit): mperf top, whose machine lives on */
	bool unordered;			/* every record as it is read: perf's ordered_events off (script --show-round-events) */
};

/*
 * Read every record of p and deliver it to ops.  label names the input in
 * messages.  Returns 0 or a negative code: the session's own failures (a
 * record that does not decode, an unknown id) are logged, naming the
 * record's offset.  Records read before a failure are still delivered.
 */
int session__run(struct pdata *p, const char *label, const struct session_ops *ops);

/*
 * session__run in steps, on a stream that grows (pdata__mem_grow: mperf
 * top's).  session__open sets it up (NULL with errno set, the reason
 * logged); session__more reads every record there is now, delivering them
 * as session__run does, ordered ones up to the last round, and returns 0
 * or the first failure; the machine as it is now; session__close frees it
 * all, delivering nothing more (finish is the consumer's to call).
 */
struct session;
struct session *session__open(struct pdata *p, const char *label, const struct session_ops *ops);
int session__more(struct session *s);
struct machine *session__machine(struct session *s);
void session__close(struct session *s);
/*
 * The lowest address of the input's image that a record still queued (not
 * yet delivered) is read from, NULL when none: what is before it and
 * before the read position was delivered (mperf top frees it).
 */
const void *session__held(const struct session *s);

#endif
