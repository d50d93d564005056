// SPDX-License-Identifier: GPL-2.0-only
/*
 * shares [N]: burn N seconds of this process's CPU time (default 1) in two
 * hot functions whose shares are fixed at build time, for the diff tests:
 *
 *   -DF_SHARE=70 -DG_SHARE=25 -DOLD_ONLY=5   (shares-old: f 70%, g 25%, old_only 5%)
 *   -DF_SHARE=40 -DG_SHARE=55 -DNEW_ONLY=5   (shares-new: f 40%, g 55%, new_only 5%)
 *
 * so that two recordings differ by known deltas, and each has an entry the
 * other lacks.  For the gate's tests, -DSCALE=115 does 15% more work in
 * every function, and `shares -n ROUNDS` does a fixed amount of work
 * (ROUNDS rounds) instead of running for a time.  Built -O0 -fno-inline: each function keeps its name.  As in
 * cpuspin, the clock (a system call) is read between rounds only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef F_SHARE
#define F_SHARE 70
#endif
#ifndef G_SHARE
#define G_SHARE 30
#endif

#ifndef SCALE
#define SCALE 100	/* percent of the work of each function */
#endif

#define UNIT (2000L * SCALE / 100)	/* iterations per percent of a round */

static volatile unsigned long sink;

static double cpu_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)) {
		perror("shares: clock_gettime");
		exit(1);
	}
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void f(long n)
{
	for (long i = 0; i < n; i++)
		sink++;
}

void g(long n)
{
	for (long i = 0; i < n; i++)
		sink++;
}

#ifdef OLD_ONLY
void old_only(long n)
{
	for (long i = 0; i < n; i++)
		sink++;
}
#endif

#ifdef NEW_ONLY
void new_only(long n)
{
	for (long i = 0; i < n; i++)
		sink++;
}
#endif

int main(int argc, char **argv)
{
	double secs = 1.0;
	long rounds = -1;
	char *end = NULL;

	if (argc == 3 && !strcmp(argv[1], "-n"))
		rounds = strtol(argv[2], &end, 10);
	else if (argc > 1)
		secs = strtod(argv[1], &end);
	if ((argc > 2 && rounds < 0) || argc > 3 || (end && (end == argv[argc - 1] || *end)) || !(secs >= 0)) {
		fprintf(stderr, "usage: shares [CPU-SECONDS | -n ROUNDS]\n");
		return 2;
	}
	while (rounds >= 0 ? rounds-- > 0 : cpu_now() < secs) {
		f((long)F_SHARE * UNIT);
		g((long)G_SHARE * UNIT);
#ifdef OLD_ONLY
		old_only((long)OLD_ONLY * UNIT);
#endif
#ifdef NEW_ONLY
		new_only((long)NEW_ONLY * UNIT);
#endif
	}
	return 0;
}
