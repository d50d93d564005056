// SPDX-License-Identifier: GPL-2.0-only
/*
 * libpaths-main [N]: burn N seconds of CPU time (default 1) along call
 * paths that cross into libpaths.so and back (see libpaths.c): main ->
 * lib_a -> lib_b -> lib_leaf half the work, main -> lib_a -> cb ->
 * cb_leaf a quarter, main -> lib_b -> lib_leaf a quarter.  The clock (a
 * system call) is read between rounds only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void lib_a(int n, void (*cb)(int));
void lib_b(int n);

static volatile unsigned long sink;

void cb_leaf(int n)
{
	for (int i = 0; i < n; i++)
		sink++;
}

void cb(int n)
{
	cb_leaf(n);
}

static double cpu_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)) {
		perror("libpaths-main: clock_gettime");
		exit(1);
	}
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double end = cpu_now() + (argc > 1 ? atof(argv[1]) : 1.0);

	while (cpu_now() < end)
		for (int r = 0; r < 20; r++) {
			lib_a(20000, cb);
			lib_b(20000);
		}
	return 0;
}
