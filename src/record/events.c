// SPDX-License-Identifier: GPL-2.0-only
/*
 * The events: the attrs -e asked for (parse.c) with record's defaults, as
 * perf sets them up, opened on every online CPU for the workload, with the
 * id of each fd.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "../host/host.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "internal.h"

/* ---- the events, opened ---- */

/*
 * The call graph an event's own terms ask for: UNSET when it has none
 * (-g/--call-graph apply); else call-graph='s mode, fp when only
 * max-stack= is given, and none when only stack-size= is: as perf 6.1,
 * for which a size alone enables nothing but still replaces the global
 * call graph.
 */
static enum record_cg_mode event_call_graph(const struct record_event *ev)
{
	if (ev->cg_mode != RECORD_CG_UNSET)
		return ev->cg_mode;
	if (ev->cg_max_stack)
		return RECORD_CG_FP;
	return ev->cg_stack_size ? RECORD_CG_NO : RECORD_CG_UNSET;
}

/*
 * An event's call-graph terms over -g/--call-graph, as perf 6.1 applies
 * them (evlist -v of its files agrees): the global call graph's sample
 * bits are taken away (CALLCHAIN, and REGS_USER and STACK_USER when it
 * is dwarf, even those --user-regs asked for) but not its attr fields
 * (sample_regs_user, sample_stack_user, exclude_callchain_user and the
 * sampled addresses stay); then the event's own is set up: CALLCHAIN
 * with max-stack= as sample_max_stack; for dwarf, the user registers
 * (perf's set, or at least ip and sp added to --user-regs), a copy of
 * stack-size= bytes (default 8192, not --call-graph's size) of the user
 * stack, the kernel's part of the chain only, and the sampled addresses.
 */
static void apply_call_graph_terms(struct perf_event_attr *a, const struct record_opts *o,
				   const struct record_event *ev)
{
	enum record_cg_mode mode = event_call_graph(ev);

	if (mode == RECORD_CG_UNSET)
		return;
	if (o->callchain || o->dwarf)
		a->sample_type &= ~PERF_SAMPLE_CALLCHAIN;
	if (o->dwarf)
		a->sample_type &= ~(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
	if (mode == RECORD_CG_NO)
		return;
	a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	a->sample_max_stack = ev->cg_max_stack;
	if (mode == RECORD_CG_DWARF) {
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC |
				  PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user |= o->user_regs ? RECORD_MINIMAL_REGS : RECORD_DWARF_REGS;
		a->sample_stack_user = ev->cg_stack_size ? ev->cg_stack_size : RECORD_DEFAULT_STACK_SIZE;
		a->exclude_callchain_user = 1;
	}
}

/* The call chains -g and --call-graph ask for, and --user-regs. */
static void set_chain_sampling(struct perf_event_attr *a, const struct record_opts *o)
{
	/*
	 * Frame-pointer call chains, as perf 6.1 asks for them: CALLCHAIN
	 * alone, with the kernel's depth (perf_event_max_stack) and both
	 * contexts; no sample_max_stack, no exclude_callchain_*.
	 */
	if (o->callchain)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (o->user_regs) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user = o->user_regs;
	}
	/*
	 * DWARF call chains, as perf 6.1 asks for them: the kernel's part of
	 * the chain (exclude_callchain_user), the user registers (perf's set,
	 * or --user-regs with at least ip and sp) and a copy of the user stack.
	 */
	if (o->dwarf) {
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = o->user_regs ? o->user_regs | RECORD_MINIMAL_REGS : RECORD_DWARF_REGS;
		a->sample_stack_user = o->stack_size;
		a->exclude_callchain_user = 1;
	}
}

/*
 * The event's own attr (what -e said) plus record's defaults, as perf
 * record sets them.  The sampling: a period= or freq= term stays; else -c
 * or -F when given; else the kind's default period (a tracepoint's 1)
 * when it has one; else record's default frequency.  PERIOD is sampled as
 * perf does: not when the event's own fixed period is used.  The sample
 * id (ID or IDENTIFIER) is chosen once all attrs are known.
 */
static void setup_attr(struct perf_event_attr *a, const struct record_opts *o, const struct target *t,
		       const struct record_event *ev, bool member, bool sample_read)
{
	bool own = ev->period_set || ev->freq_set || (ev->attr.sample_period && !o->rate_given);
	/* perf: -t and --per-thread imply --no-inherit (and a per-thread mmap cannot inherit). */
	bool no_inherit = o->no_inherit || (o->tids && !o->pids) || t->per_thread;

	*a = ev->attr;
	a->size = sizeof(*a);
	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	/* perf leaves the time out per thread, where nothing is merged across CPUs, unless -T. */
	if (!t->per_thread || o->sample_time)
		a->sample_type |= PERF_SAMPLE_TIME;
	if (t->has_cpu || o->sample_cpu)
		a->sample_type |= PERF_SAMPLE_CPU;
	/* -R: perf asks every event, the tracking dummy too, for its raw data, with the CPU and the time. */
	if (o->raw_samples)
		a->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU | PERF_SAMPLE_TIME;
	/* --all-user, --all-kernel: over the event's own modifiers, on these two bits only, as perf. */
	if (o->all_user || o->all_kernel) {
		a->exclude_kernel = o->all_user;
		a->exclude_user = o->all_kernel;
	}
	a->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	if (o->stat) {
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		a->inherit_stat = 1;
	}
	/* perf samples data addresses for DWARF unwinding too (and maps data for them). */
	if (o->data_addr || o->dwarf)
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	if (o->weight)
		a->sample_type |= PERF_SAMPLE_WEIGHT_STRUCT;
	set_chain_sampling(a, o);
	apply_call_graph_terms(a, o, ev);
	if (!own) {
		a->freq = o->freq != 0;
		if (o->freq)
			a->sample_freq = o->freq;
		else
			a->sample_period = o->period;
	}
	/* A fixed period (-c, a period= term) needs no PERIOD in each sample: perf leaves it out. */
	if (a->freq || a->type == PERF_TYPE_TRACEPOINT)
		a->sample_type |= PERF_SAMPLE_PERIOD;
	a->disabled = 1;
	a->inherit = !no_inherit;
	/*
	 * The workload's events start at its exec; a running target's when
	 * record enables them; with -D when the delay ends or a control
	 * command enables them.
	 */
	a->enable_on_exec = t->traces_workload && !o->delay_ms;
	a->sample_id_all = 1;
	a->use_clockid = o->use_clockid;
	a->clockid = o->use_clockid ? o->clockid : 0;
	if (member) {
		/* A group member is enabled and disabled, and scheduled, with its leader. */
		a->disabled = 0;
		a->enable_on_exec = 0;
		a->pinned = 0;
		a->exclusive = 0;
	}
	if (sample_read) {
		/*
		 * Leader sampling ({a,b}:S), as perf sets it up: the leader's
		 * samples carry every member's count (READ, read_format GROUP);
		 * the members do not sample; and, as the kernel wants for
		 * PERF_SAMPLE_READ of a group, no inherit.
		 */
		a->sample_type |= PERF_SAMPLE_READ;
		a->read_format |= PERF_FORMAT_GROUP;
		a->inherit = 0;
		if (member && !ev->period_set && !ev->freq_set) {
			/* perf keeps a member's period= or freq= term */
			a->sample_period = 0;
			a->freq = 0;
		}
	}
	/* exclude_guest comes with the event: the parser sets perf's default, modifiers change it. */
}

/*
 * perf's dummy:HG: with -a or -C it carries the side-band records, so that
 * they come from the start whatever the sampled events do.  perf sets it
 * up as any other event (-c, -F, -s, -d apply to it as to a kind with a
 * default period of 1), but enabled at once, sampling nothing.
 */
static void setup_tracking_dummy(struct perf_event_attr *a, const struct record_opts *o, const struct target *t)
{
	struct record_event dummy = {
		.name = "dummy:HG",
		.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY, .sample_period = 1 },
	};

	setup_attr(a, o, t, &dummy, false, false);
	a->disabled = 0;
	a->enable_on_exec = 0;
	/* -D (or --overwrite) on the workload: its side band starts at its exec, as perf's dummy does. */
	if ((o->delay_ms || o->overwrite) && !t->has_cpu && t->traces_workload) {
		a->disabled = 1;
		a->enable_on_exec = 1;
	}
}

/*
 * The side-band records, asked of one event only (the first, or the
 * tracking dummy, whose ev is NULL).
 */
static void add_side_band(struct perf_event_attr *a, const struct record_opts *o, const struct record_event *ev)
{
	a->mmap = 1;
	a->comm = 1;
	a->task = 1;
	a->mmap2 = 1;
	a->comm_exec = 1;
	/* As perf 6.1: BPF programs and other kernel text as they come and go. */
	a->ksymbol = 1;
	a->bpf_event = !o->no_bpf_event;
	/* perf asks these of the tracking event only (data maps also when its own call graph is dwarf). */
	a->mmap_data = o->data_addr || o->dwarf || (ev && event_call_graph(ev) == RECORD_CG_DWARF);
	a->context_switch = o->switch_events;
	a->namespaces = o->namespaces;
}

int evlist__init(struct evlist *el, const struct record_opts *o, struct record_result *res,
		 const struct target *t)
{
	size_t n;
	bool same = true;
	/*
	 * perf's dummy:HG carries the side band with -a, -C and -D (while the
	 * events wait), and with --overwrite, where the events' buffers keep
	 * only their newest records: the maps and comms are all kept apart.
	 */
	bool tracking = t->has_cpu || o->delay_ms || o->overwrite;

	memset(el, 0, sizeof(*el));
	el->nr_ev = o->nr_events + (tracking ? 1 : 0);
	if (el->nr_ev > RECORD_MAX_EVENTS)
		return mperf_error(-E2BIG, "at most %d events can be recorded with -a, -C, -D or --overwrite", RECORD_MAX_EVENTS - 1);
	el->t = t;
	el->nr_cpus = t->nr_cpus;
	el->nr_threads = t->nr_threads;
	for (size_t i = 0; i < o->nr_events; i++) {
		snprintf(res->ev[i].name, sizeof(res->ev[i].name), "%s", o->events[i].name);
		const struct record_event *ev = &o->events[i];

		setup_attr(&el->attr[i], o, t, ev, ev->leader != (int)i,
			   ev->sample_read || o->events[ev->leader].sample_read);
		el->leader[i] = o->events[i].leader;
		el->precise_max[i] = o->events[i].precise_max;
		/* --overwrite: the flight recorder, the kernel's backward buffer (perf sets it on every event it was given). */
		el->attr[i].write_backward = o->overwrite;
	}
	if (tracking) {
		size_t d = o->nr_events;

		setup_tracking_dummy(&el->attr[d], o, t);
		add_side_band(&el->attr[d], o, NULL);
		/* perf names it from its attr: dummy:HG, dummy:kh with --all-kernel */
		pd_event_name(&el->attr[d], res->ev[d].name, sizeof(res->ev[d].name));
		res->ev[d].tracking = true;
		el->leader[d] = (int)d;
	} else {
		add_side_band(&el->attr[0], o, &o->events[0]);
	}
	res->nr_events = el->nr_ev;
	/*
	 * Leader sampling, as perf sets it up once every sample type is
	 * known: a member's values come in its leader's samples, and it
	 * takes its leader's sample type (a tracepoint's RAW and CPU, or
	 * its own call graph, are dropped; its other attr fields stay).
	 */
	for (size_t i = 0; i < o->nr_events; i++) {
		int l = o->events[i].leader;

		if (l != (int)i && o->events[l].sample_read)
			el->attr[i].sample_type = el->attr[l].sample_type;
	}
	/*
	 * Several events share a buffer: each sample must say whose it is.  As
	 * perf: ID when every event samples the same fields (its place is then
	 * the same in all), IDENTIFIER, at a fixed place, when they differ.
	 */
	for (size_t i = 1; i < el->nr_ev; i++)
		same = same && el->attr[i].sample_type == el->attr[0].sample_type;
	for (size_t i = 0; el->nr_ev > 1 && i < el->nr_ev; i++)
		el->attr[i].sample_type |= same ? PERF_SAMPLE_ID : PERF_SAMPLE_IDENTIFIER;
	pd_sample_layout(&el->attr[0], &el->layout);
	n = el->nr_ev * (size_t)el->nr_cpus * (size_t)el->nr_threads;
	el->fd = malloc(n * sizeof(*el->fd));
	for (size_t k = 0; el->fd && k < n; k++)
		el->fd[k] = -1;		/* before anything can fail: evlist__close closes what is >= 0 */
	el->id = calloc(n, sizeof(*el->id));
	el->lost_seen = calloc(n, sizeof(*el->lost_seen));
	el->gone = calloc((size_t)el->nr_threads, sizeof(*el->gone));
	if (!el->fd || !el->id || !el->lost_seen || !el->gone)
		return mperf_error(-ENOMEM, "out of memory");
	return 0;
}

static bool is_cycles(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_CPU_CYCLES;
}

/*
 * Why the kernel said the event does not exist here, in the user's terms:
 * ENOENT for a generic hardware or cache event is no PMU (a VM), or one
 * without that event; ENODEV and ENXIO a PMU that is not there;
 * EOPNOTSUPP a PMU that has the event and cannot sample it.
 */
static const char *unsupported_why(uint32_t type, int err)
{
	bool hw = type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE;

	switch (err) {
	case ENOENT:
		return hw ? "no hardware PMU, or one without this event" : "the kernel does not have this event";
	case ENODEV:
	case ENXIO:
		return "no such PMU";
	case EOPNOTSUPP:
		return "the PMU cannot sample it";
	default:
		return NULL;
	}
}

/* A refused perf_event_open in the terms of who refused it and what the mode needs. */
static void denied(char *buf, size_t len, const char *event, int cpu, const struct record_denial *d)
{
	char where[32] = "";
	/* What perf_event_paranoid allows a user without CAP_PERFMON: the kernel's perf-security text. */
	int need = d->cpu_wide ? 0 : d->kernel ? 1 : 2;
	const char *what = d->cpu_wide ? "every task of a CPU (-a, -C)" : d->kernel ? "the kernel" : "a task";

	if (cpu >= 0)	/* a task's event on any CPU is -1 */
		snprintf(where, sizeof(where), " on cpu %d", cpu);

	if (d->denier == HOST_DENIER_SECCOMP)
		snprintf(buf, len,
			 "no permission to open event '%s'%s: a seccomp filter refuses perf_event_open to this process "
			 "(a container's profile?), whatever kernel.perf_event_paranoid says: allow the call in the filter, "
			 "or run outside it (see 'mperf doctor')", event, where);
	else if (d->paranoid != INT_MIN && d->paranoid > need)
		snprintf(buf, len,
			 "no permission to open event '%s'%s: kernel.perf_event_paranoid is %d, and %s needs %d or less "
			 "(lower it, e.g. 'sysctl kernel.perf_event_paranoid=%d', or run with CAP_PERFMON)",
			 event, where, d->paranoid, what, need, need);
	else if (d->paranoid == INT_MIN)
		snprintf(buf, len,
			 "no permission to open event '%s'%s (check kernel.perf_event_paranoid: %s needs %d or less; or run with CAP_PERFMON)",
			 event, where, what, need);
	else
		snprintf(buf, len,
			 "no permission to open event '%s'%s, though kernel.perf_event_paranoid is %d: %s refuses perf_event_open here (see 'mperf doctor')",
			 event, where, d->paranoid,
			 d->denier == HOST_DENIER_OTHER ? "a security module (SELinux, AppArmor)" : "something other than it");
}

bool record__user_only_helps(int pid)
{
	/* Every task of a CPU needs paranoid 0, where the kernel is allowed too. */
	return pid != -1 && host_perf_denier() == HOST_DENIER_NONE;
}

const struct record_denial *record__denial(const struct perf_event_attr *attr, int pid, struct record_denial *d)
{
	*d = (struct record_denial){ .paranoid = host_perf_event_paranoid(), .cpu_wide = pid == -1,
				     .kernel = !attr->exclude_kernel, .denier = host_perf_denier() };
	return d;
}

void record__open_error(char *buf, size_t len, const char *event, uint32_t type, int cpu, int err,
			const struct record_denial *d)
{
	const char *why = unsupported_why(type, err);

	if (why) {
		snprintf(buf, len, "event '%s' is not supported on this machine (%s); see 'mperf list'", event, why);
	} else if (err == EACCES || err == EPERM) {
		struct record_denial unknown = { .paranoid = INT_MIN, .kernel = true };

		denied(buf, len, event, cpu, d ? d : &unknown);
	} else if (err == EMFILE || err == ENFILE) {
		snprintf(buf, len,
			 "too many open files to open event '%s' on cpu %d: mperf needs one per event and CPU (raise the limit with 'ulimit -n')",
			 event, cpu);
	} else if (err == EBUSY) {
		snprintf(buf, len, "event '%s' is busy on cpu %d: another user holds the PMU exclusively", event, cpu);
	} else if (err == EINVAL) {
		snprintf(buf, len,
			 "the kernel refused event '%s' on cpu %d as asked: a modifier, term or option it does not take here",
			 event, cpu);
	} else {
		snprintf(buf, len, "cannot open event '%s' on cpu %d: %s", event, cpu, strerror(err));
	}
}

/*
 * A thread of -p that exited between /proc and perf_event_open: perf
 * drops it and goes on (ESRCH); so does mperf, closing what it had.
 */
static int drop_thread(struct evlist *el, int th)
{
	int left = 0;

	for (size_t i = 0; i < el->nr_ev; i++)
		for (int c = 0; c < el->nr_cpus; c++) {
			size_t k = evlist__idx(el, i, c, th);

			if (el->fd[k] >= 0)
				close(el->fd[k]);
			el->fd[k] = -1;
			el->id[k] = 0;
		}
	el->gone[th] = true;
	for (int t = 0; t < el->nr_threads; t++)
		left += !el->gone[t];
	if (!left)
		return mperf_error(-ESRCH, "every thread of the target has exited: nothing to record");
	mperf_log(MPERF_LOG_INFO, "thread %d exited before it could be sampled", el->t->tids[th]);
	return 0;
}

static int open_one(struct evlist *el, struct record_result *res, size_t i, int c, int th);

int evlist__open(struct evlist *el, struct record_result *res)
{
	for (size_t i = 0; i < el->nr_ev; i++)
		for (int c = 0; c < el->nr_cpus; c++)
			for (int th = 0; th < el->nr_threads; th++) {
				int err;

				if (el->gone[th])
					continue;
				err = open_one(el, res, i, c, th);
				if (err == -ESRCH && el->t->has_task && el->nr_threads > 1)
					err = drop_thread(el, th);
				if (err)
					return err;
			}
	return 0;
}

/*
 * What perf does when the kernel refuses event i with err, in perf's
 * order: change the attr (or every event's, for a feature the kernel
 * lacks) and say true to open it again; false when nothing is left to try.
 */
static bool open_fallback(struct evlist *el, struct record_result *res, size_t i, int pid, int err)
{
	if (el->precise_max[i] && el->attr[i].precise_ip && (err == EINVAL || err == EOPNOTSUPP)) {
		/* :P asks for the most precise the PMU can do: step down to it, as perf does. */
		el->attr[i].precise_ip--;
		return true;
	}
	if ((err == ENOENT || err == ENODEV || err == ENXIO || err == EOPNOTSUPP) &&
	    is_cycles(&el->attr[i])) {
		/* No PMU (a VM): perf falls back to the cpu-clock timer. */
		el->attr[i].type = PERF_TYPE_SOFTWARE;
		el->attr[i].config = PERF_COUNT_SW_CPU_CLOCK;
		/*
		 * Renamed from the attr, as perf does: cycles:u becomes
		 * cpu-clock:uH.  perf names it when it is first printed, after
		 * the open: the name is made again then, with what the other
		 * fallbacks below changed.
		 */
		pd_event_name(&el->attr[i], res->ev[i].name, sizeof(res->ev[i].name));
		el->renamed[i] = true;
		if (!res->fell_back)
			mperf_log(MPERF_LOG_NOTICE,
				  "'cycles' is not supported on this machine (%s): falling back to 'cpu-clock', as perf does",
				  unsupported_why(PERF_TYPE_HARDWARE, err));
		res->fell_back = true;
		return true;
	}
	if ((err == EACCES || err == EPERM) && !el->attr[i].exclude_kernel &&
	    !el->attr[i].exclude_user && record__user_only_helps(pid)) {
		/*
		 * perf_event_paranoid refuses the kernel to this user (not a
		 * filter that refuses every open): perf
		 * records user space only then (an event that asked for the
		 * kernel alone fails instead), naming it NAME:u, or NAMEu
		 * after modifiers or a PMU's terms.  perf does it silently;
		 * mperf says so, once.  A fallen-back event's name is made
		 * from its attr here, and kept from then on, as perf does.
		 */
		size_t len;
		bool sep;

		if (el->renamed[i])
			pd_event_name(&el->attr[i], res->ev[i].name, sizeof(res->ev[i].name));
		el->renamed[i] = false;
		len = strlen(res->ev[i].name);
		sep = strchr(res->ev[i].name, ':') || strchr(res->ev[i].name, '/');

		el->attr[i].exclude_kernel = el->attr[i].exclude_hv = 1;
		snprintf(res->ev[i].name + len, sizeof(res->ev[i].name) - len, "%su", sep ? "" : ":");
		if (!res->user_only)
			mperf_log(MPERF_LOG_NOTICE,
				  "kernel.perf_event_paranoid is %d: recording user space only ('%s'), as perf does; lower it or use CAP_PERFMON to see the kernel",
				  host_perf_event_paranoid(), res->ev[i].name);
		res->user_only = true;
		return true;
	}
	if (err == EINVAL && (el->attr[i].ksymbol || el->attr[i].bpf_event)) {
		/* Kernels before 5.1 know neither (perf drops them the same way). */
		el->attr[i].ksymbol = el->attr[i].bpf_event = 0;
		return true;
	}
	if (err == EINVAL && (el->attr[i].read_format & PERF_FORMAT_LOST)) {
		/* Kernels before 6.0 do not know PERF_FORMAT_LOST. */
		for (size_t j = 0; j < el->nr_ev; j++)
			el->attr[j].read_format &= ~(uint64_t)PERF_FORMAT_LOST;
		return true;
	}
	if (err == EINVAL && (el->attr[i].exclude_guest || el->attr[i].exclude_host)) {
		/*
		 * A kernel (or PMU) that cannot tell guest from host: perf's
		 * missing-features probe then clears exclude_guest and
		 * exclude_host on every event it opens from there on.
		 */
		for (size_t j = 0; j < el->nr_ev; j++)
			el->attr[j].exclude_guest = el->attr[j].exclude_host = 0;
		return true;
	}
	return false;
}

/* The error of an event the kernel refused after every fallback, in one line. */
static int open_failed(struct evlist *el, struct record_result *res, size_t i, int pid, int cpu, int e)
{
	struct record_denial d;
	char msg[512];

	if (e == ESRCH && el->t->has_task)
		return el->nr_threads > 1 ? -ESRCH :
		       mperf_error(-ESRCH, "thread %d has exited: nothing to record", pid);
	if (e == EINVAL && el->attr[i].freq) {
		/* The kernel lowers the limit on its own when sampling takes too long. */
		int max = host_max_sample_rate();

		if (max > 0 && el->attr[i].sample_freq > (uint64_t)max)
			return mperf_error(-e, "cannot sample event '%s' at %llu Hz: kernel.perf_event_max_sample_rate is %d now (lower -F, or raise the limit)",
					   res->ev[i].name, (unsigned long long)el->attr[i].sample_freq, max);
	}
	if (e == EOVERFLOW && el->attr[i].sample_max_stack) {
		/* The kernel's answer to a chain deeper than its limit (a max-stack= term). */
		char buf[32];
		int max = -1;

		if (host_read_small_file("/proc/sys/kernel/perf_event_max_stack", buf, sizeof(buf)) > 0)
			max = atoi(buf);
		return mperf_error(-e, "cannot record call chains of %u frames for event '%s': kernel.perf_event_max_stack is %d (lower max-stack=, or raise the limit)",
				   (unsigned int)el->attr[i].sample_max_stack, res->ev[i].name, max);
	}
	record__open_error(msg, sizeof(msg), res->ev[i].name, el->attr[i].type, cpu, e,
			   e == EACCES || e == EPERM ? record__denial(&el->attr[i], pid, &d) : NULL);
	return mperf_error(-e, "%s", msg);
}

static int open_one(struct evlist *el, struct record_result *res, size_t i, int c, int th)
{
	size_t k = evlist__idx(el, i, c, th);
	int fd, pid = el->t->tids[th], cpu = el->t->cpus[c];
	/* A member joins its leader's group on the same CPU and thread (the leader opened first). */
	int group_fd = el->leader[i] != (int)i ? evlist__fd(el, (size_t)el->leader[i], c, th) : -1;

	for (;;) {
		int e;

		fd = host_perf_event_open(&el->attr[i], pid, cpu, group_fd);
		e = errno;	/* the log hook may change it */
		/* -v: each open as perf -v shows it. */
		mperf_log(MPERF_LOG_DEBUG, "sys_perf_event_open: '%s' pid %d  cpu %d  group_fd %d  flags %#lx = %d%s%s",
			  res->ev[i].name, pid, cpu, group_fd, (unsigned long)PERF_FLAG_FD_CLOEXEC, fd < 0 ? -e : fd,
			  fd < 0 ? " " : "", fd < 0 ? strerror(e) : "");
		if (fd >= 0)
			break;
		if (!open_fallback(el, res, i, pid, e))
			return open_failed(el, res, i, pid, cpu, e);
	}
	el->fd[k] = fd;
	if (el->renamed[i])
		pd_event_name(&el->attr[i], res->ev[i].name, sizeof(res->ev[i].name));
	if (el->filter[i] && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, el->filter[i]) < 0)
		return mperf_error(-errno, "cannot set --filter '%s' on '%s': %s", el->filter[i],
				   res->ev[i].name, strerror(errno));
	if (ioctl(fd, PERF_EVENT_IOC_ID, &el->id[k]) < 0)
		return mperf_error(-errno, "cannot read the id of event '%s': %s",
				   res->ev[i].name, strerror(errno));
	if (idmap_add(&el->ids, el->id[k], (int)i))
		return mperf_error(-ENOMEM, "out of memory");
	return 0;
}

int evlist__enable(struct evlist *el, struct record_result *res)
{
	for (size_t i = 0; i < el->nr_ev; i++) {
		if (!el->attr[i].disabled || el->attr[i].enable_on_exec)
			continue;
		for (int c = 0; c < el->nr_cpus; c++)
			for (int th = 0; th < el->nr_threads; th++) {
				int fd = evlist__fd(el, i, c, th);

				if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
					return mperf_error(-errno, "cannot enable event '%s': %s", res->ev[i].name,
							   strerror(errno));
			}
	}
	return 0;
}

int evlist__set_enabled(struct evlist *el, const struct record_result *res, int ev, bool on)
{
	for (size_t i = 0; i < el->nr_ev; i++) {
		/* Every event: the leaders (members follow them), the side band left running. */
		if (ev >= 0 ? (int)i != ev : res->ev[i].tracking || el->leader[i] != (int)i)
			continue;
		for (int c = 0; c < el->nr_cpus; c++)
			for (int th = 0; th < el->nr_threads; th++) {
				int fd = evlist__fd(el, i, c, th);

				if (fd >= 0 && ioctl(fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0) < 0)
					return mperf_error(-errno, "cannot %s event '%s': %s", on ? "enable" : "disable",
							   res->ev[i].name, strerror(errno));
			}
	}
	return 0;
}

int evlist__add_to(const struct evlist *el, const struct record_result *res, struct pdata_writer *w)
{
	size_t per_ev = (size_t)el->nr_cpus * (size_t)el->nr_threads;
	uint64_t *ids = malloc(per_ev * sizeof(*ids));
	int err = 0;

	if (!ids)
		return mperf_error(-ENOMEM, "out of memory");
	for (size_t i = 0; i < el->nr_ev && !err; i++) {
		size_t n = 0;

		for (size_t k = 0; k < per_ev; k++)
			if (el->id[i * per_ev + k])
				ids[n++] = el->id[i * per_ev + k];
		err = pdw__add_event(w, &el->attr[i], res->ev[i].name, ids, n);
	}
	free(ids);
	return err;
}

int evlist__write_groups(const struct record_opts *o, struct pdata_writer *w)
{
	struct pd_group_desc g[RECORD_MAX_EVENTS];
	size_t n = 0;

	for (size_t i = 0; i < o->nr_events; i++)
		if (o->events[i].leader == (int)i && o->events[i].group_size > 1)
			g[n++] = (struct pd_group_desc){ o->events[i].group_name[0] ? o->events[i].group_name : NULL,
							 (uint32_t)i, (uint32_t)o->events[i].group_size };
	return n ? pdw__feat_group_desc(w, g, n) : 0;
}

int evlist__event_of_id(const struct evlist *el, uint64_t id)
{
	struct idmap_slot *s = idmap_find(&el->ids, id);

	return s ? s->idx : -1;
}

int evlist__read_lost(struct evlist *el, struct record_result *res, struct pdata_writer *w)
{
	size_t per_ev = (size_t)el->nr_cpus * (size_t)el->nr_threads;

	if (!(el->attr[0].read_format & (PERF_FORMAT_LOST | PERF_FORMAT_TOTAL_TIME_ENABLED)))
		return 0;
	/* The times are the fds' totals: this read's replace an earlier one's. */
	for (size_t i = 0; i < el->nr_ev; i++)
		res->ev[i].ena = res->ev[i].run = 0;
	for (size_t i = 0; i < el->nr_ev; i++) {
		/* A GROUP read of the leader gives every member's values, each with its id. */
		if ((el->attr[i].read_format & PERF_FORMAT_GROUP) && el->leader[i] != (int)i)
			continue;
		for (size_t k = i * per_ev; k < (i + 1) * per_ev; k++) {
			uint64_t buf[3 + 3 * RECORD_MAX_EVENTS];
			struct pd_read_values rv;
			ssize_t n = el->fd[k] >= 0 ? read(el->fd[k], buf, sizeof(buf)) : -1;

			if (n <= 0 || pd_read_parse(el->attr[i].read_format, buf, (size_t)n, &rv) < 0)
				continue;
			if (el->attr[i].read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) {
				/* A group's read has the leader's times: its members ran with it. */
				for (size_t j = i; j < el->nr_ev; j++)
					if (j == i || ((el->attr[i].read_format & PERF_FORMAT_GROUP) && el->leader[j] == (int)i)) {
						res->ev[j].has_times = true;
						res->ev[j].ena += rv.time_enabled;
						res->ev[j].run += rv.time_running;
					}
			}
			for (uint64_t r = 0; r < rv.nr; r++) {
				struct pd_read_value v;
				uint64_t *seen;
				int ev, err;

				pd_read_value(&rv, r, &v);
				ev = (el->attr[i].read_format & PERF_FORMAT_GROUP) ? evlist__event_of_id(el, v.id) : (int)i;
				if (ev < 0)
					continue;
				/* What this fd lost since the last read: each file of --switch-output has its own. */
				seen = &el->lost_seen[(size_t)ev * per_ev + (k - i * per_ev)];
				if (v.lost <= *seen)
					continue;
				res->ev[ev].lost += v.lost - *seen;
				if ((err = pdw__lost_samples(w, (size_t)ev, v.id, v.lost - *seen)))
					return err;
				*seen = v.lost;
			}
		}
	}
	return 0;
}

void evlist__close(struct evlist *el)
{
	if (el->fd)
		for (size_t k = 0; k < el->nr_ev * (size_t)el->nr_cpus * (size_t)el->nr_threads; k++)
			if (el->fd[k] >= 0)
				close(el->fd[k]);
	free(el->fd);
	free(el->id);
	free(el->lost_seen);
	el->lost_seen = NULL;
	free(el->gone);
	el->gone = NULL;
	idmap_free(&el->ids);
	el->fd = NULL;
	el->id = NULL;
}
