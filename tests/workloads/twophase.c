// SPDX-License-Identifier: GPL-2.0-only
/*
 * twophase WARM RUN [CTL ACK]: a benchmark with a warm-up.  It spins in
 * warmup() until it has used WARM seconds of CPU time, then in measured()
 * for RUN more seconds.  Given the control FIFOs of record --control
 * (perf's fifo:CTL,ACK), it asks for the recording around measured() as a
 * benchmark harness does: "enable" after the warm-up and "disable" after
 * the run, each waiting for its "ack\n"; it says on stderr how many acks
 * came, and exits 1 when one is missing.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Each phase spins in a function of its own, kept out of line, for the
 * samples to name: the loop is written out in each, not shared.
 */
#define SPIN(secs)							\
	do {								\
		volatile unsigned long n = 0;				\
		double end = cpu_now() + (secs);			\
									\
		while (cpu_now() < end)					\
			for (int i = 0; i < 100000; i++)		\
				n++;					\
	} while (0)

__attribute__((noinline)) void warmup(double secs)
{
	SPIN(secs);
}

__attribute__((noinline)) void measured(double secs)
{
	SPIN(secs);
}

/* Write cmd to ctl and wait (up to 5 s) for perf's five bytes "ack\n\0" on ack: 1 when they came. */
static int command(int ctl, int ack, const char *cmd)
{
	char buf[8];
	size_t got = 0;
	time_t end = time(NULL) + 5;

	if (write(ctl, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		return 0;
	while (got < 5 && time(NULL) <= end) {
		ssize_t n = read(ack, buf + got, 5 - got);

		if (n > 0)
			got += (size_t)n;
		else
			usleep(1000);
	}
	return got == 5 && !memcmp(buf, "ack\n", 5);
}

int main(int argc, char **argv)
{
	double warm, run;
	int ctl = -1, ack = -1, acks = 0;

	if (argc != 3 && argc != 5) {
		fprintf(stderr, "usage: twophase WARM RUN [CTL ACK]\n");
		return 2;
	}
	warm = atof(argv[1]);
	run = atof(argv[2]);
	if (argc == 5) {
		ctl = open(argv[3], O_WRONLY | O_NONBLOCK);
		ack = open(argv[4], O_RDONLY | O_NONBLOCK);
		if (ctl < 0 || ack < 0) {
			perror("twophase: open");
			return 1;
		}
	}
	warmup(warm);
	if (ctl >= 0)
		acks += command(ctl, ack, "enable\n");
	measured(run);
	if (ctl >= 0) {
		acks += command(ctl, ack, "disable\n");
		fprintf(stderr, "twophase: %d acks of 2\n", acks);
	}
	return ctl >= 0 && acks != 2;
}
