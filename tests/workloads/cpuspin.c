// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpuspin [N]: spin until this process has used N seconds of CPU time
 * (default 1), then exit 0.
 *
 * noploop N spins for N seconds of wall time, so what it burns, and what a
 * cpu-clock event samples, depends on how busy the machine is.  cpuspin
 * burns the same CPU time however long that takes, so a test can predict a
 * sample count: N s / the period.  The clock is read every ~100 us of work
 * (reading it is a system call), which bounds the overshoot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)) {
		perror("cpuspin: clock_gettime");
		exit(1);
	}
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	char *end = NULL;
	double secs = argc > 1 ? strtod(argv[1], &end) : 1.0;
	volatile unsigned long n = 0;

	if (argc > 2 || (end && (end == argv[1] || *end)) || !(secs >= 0)) {
		fprintf(stderr, "usage: cpuspin [CPU-SECONDS]\n");
		return 2;
	}
	while (cpu_now() < secs)
		for (int i = 0; i < 100000; i++)
			n++;
	return 0;
}
