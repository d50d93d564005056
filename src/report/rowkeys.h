/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_REPORT_ROWKEYS_H
#define MPERF_REPORT_ROWKEYS_H

/*
 * The fields of a histogram's entry that perf takes from the sample and
 * the records around it rather than from where the ip lies: the time key's
 * time (cut to --time-quantum), the addr key's address, the cgroup key's
 * id and path (PERF_SAMPLE_CGROUP, CGROUP records), cgroup_id's namespace
 * (NAMESPACES records, by thread), and the parent key's symbol: the
 * first frame of the chain, in the order perf walks it, whose symbol
 * -p/--parent's regex matches.  hist.c keeps one and asks it per sample.
 */
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../lib/hash.h"
#include "report.h"
#include "tracefmt.h"

struct perf_event_header;
struct pd_sample;
struct pdata;
struct session_sample;
struct sort_row;
struct strset;
struct cc_frame;

struct rowkeys {
	uint64_t quantum;		/* ns */
	bool parent;			/* the parent key is compared (or -x hides by it) */
	bool cgroup, ns;		/* CGROUP and NAMESPACES records are kept */
	regex_t re;
	struct strset *strs;
	struct idmap cg_ids;		/* cgroup id -> its path's index */
	const char **cg_path;
	size_t nr_cg, cg_cap;
	struct idmap ns_tids;		/* tid -> its namespace's index */
	uint64_t (*ns_of)[2];		/* dev, ino */
	size_t nr_ns, ns_cap;
	bool trace;			/* the trace key: the tracepoints' formats are read */
	struct pdata *p;
	const char *label;
	struct tracefmt tf;
};

/* perf's default parent regex, and its default time quantum (100 ms). */
#define ROWKEYS_PARENT_DEFAULT "^sys_|^do_page_fault"
#define ROWKEYS_QUANTUM_DEFAULT 100000000ULL

/* A sample's time as the time key has it: cut to o's quantum. */
uint64_t rowkeys_time(const struct report_hist_opts *o, uint64_t t);

/*
 * For o's keys (key[k]: key k is compared) of recording p (label in
 * messages); strs interns the paths.  0, or a negative code, logged.
 */
int rowkeys__init(struct rowkeys *rk, const struct report_hist_opts *o, const bool *key, struct strset *strs,
		  struct pdata *p, const char *label);
void rowkeys__release(struct rowkeys *rk);
/* A record before the samples after it: CGROUP and NAMESPACES.  0 or -ENOMEM. */
int rowkeys__record(struct rowkeys *rk, const struct perf_event_header *h);
/* The sample's time, address, cgroup, namespace and trace output into k.  0 or -ENOMEM. */
int rowkeys__sample(struct rowkeys *rk, struct sort_row *k, const struct session_sample *ss);
/* What a sample weighs in perf's memory mode (--mem-mode): its weight, 1 without one. */
uint64_t rowkeys__mem_cost(struct rowkeys *rk, const struct session_sample *ss);
/*
 * The parent key's symbol of a chain of n frames (fr, their levels lvl),
 * walked in perf's order; unwound: the user frames were unwound (dwarf),
 * which perf never matches.  0 or -ENOMEM.
 */
int rowkeys__parent(struct rowkeys *rk, struct sort_row *k, const struct cc_frame *fr, const char *lvl,
		    size_t n, bool unwound);

#endif
