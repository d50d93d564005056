/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_RECORD_H
#define MPERF_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RECORD_DEFAULT_FREQ	4000
#define RECORD_DEFAULT_PAGES	128
#define RECORD_MAX_PAGES	(1u << 20)	/* data pages per CPU buffer: 4 GiB of 4 KiB pages */
#define RECORD_MAX_EVENTS	64

struct record_event {
	char name[64];		/* as given (after a fallback: the event used) */
	uint32_t type;
	uint64_t config;
};

/*
 * Parse "a,b,c" into events.  Returns the number of events, or a negative
 * error; an unknown name is -MPERF_ERR_NOEVENT with the name copied to bad.
 */
int record__parse_events(const char *list, struct record_event *ev, size_t max,
			 char *bad, size_t badlen);

/*
 * The message for a refused perf_event_open(): what failed, why, and what
 * to change (perf_event_paranoid with its value, CAP_PERFMON, the fd
 * limit).  paranoid is the value of /proc/sys/kernel/perf_event_paranoid,
 * or INT_MIN when unknown.
 */
void record__open_error(char *buf, size_t len, const char *event, int cpu, int err, int paranoid);

struct record_opts {
	const struct record_event *events;
	size_t nr_events;
	uint64_t freq;		/* samples per second, or 0 when period is used */
	uint64_t period;
	size_t mmap_pages;	/* data pages per CPU buffer, a power of two */
	const char *output;
	char *const *argv;	/* the workload */
	int cmd_argc;		/* the command's arguments from "record" on, for the CMDLINE feature */
	char *const *cmd_argv;
};

struct record_event_stats {
	char name[64];
	uint64_t samples;	/* SAMPLE records written for this event */
	uint64_t lost;		/* samples the kernel dropped (read_format LOST) */
};

struct record_result {
	int wait_status;	/* the workload's, from waitpid() */
	int exec_errno;		/* non-zero when the command could not be run */
	int stop_signal;	/* SIGINT, SIGTERM or SIGHUP that stopped the recording, or 0 */
	bool fell_back;		/* cycles was replaced by cpu-clock */
	uint64_t wakeups;	/* polls that returned ready */
	uint64_t timeouts;	/* polls that timed out (drained anyway) */
	uint64_t file_size;
	uint64_t samples;
	uint64_t lost_records;	/* PERF_RECORD_LOST seen in the buffers */
	uint64_t lost_events;	/* events those records say were lost */
	size_t nr_events;
	struct record_event_stats ev[RECORD_MAX_EVENTS];
};

/*
 * Run the workload under the events and write opts->output.  Returns 0
 * when the recording is complete (whatever the workload's exit status),
 * or a negative error, logged (res->exec_errno says when the command
 * could not be run).  An existing regular output file is renamed to
 * "<output>.old" first, as perf does.
 */
int record__run(const struct record_opts *opts, struct record_result *res);

#endif
