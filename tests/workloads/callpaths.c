// SPDX-License-Identifier: GPL-2.0-only
/*
 * callpaths [N]: burn N seconds of this process's CPU time (default 1)
 * along known call paths, for the call-graph tests.  Built -O0
 * -fno-omit-frame-pointer -fno-inline, so that every function below has a
 * frame and a frame-pointer unwind sees each call:
 *
 *   main -> a -> b -> leaf            (half of the work)
 *   main -> c -> helper -> leaf       (a shared helper, called from c ...)
 *   main -> a -> helper -> leaf       (... and from a)
 *   main -> rec -> rec -> rec -> leaf (recursion)
 *
 * Like cpuspin, the clock (a system call) is read between rounds only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static double cpu_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)) {
		perror("callpaths: clock_gettime");
		exit(1);
	}
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void leaf(int n)
{
	for (int i = 0; i < n; i++)
		sink++;
}

void helper(int n)
{
	leaf(n);
}

void b(int n)
{
	leaf(n);
}

void a(int n)
{
	b(4 * n);
	helper(n);
}

void c(int n)
{
	helper(n);
}

void rec(int depth, int n)
{
	if (depth > 0)
		rec(depth - 1, n);
	else
		leaf(n);
}

int main(int argc, char **argv)
{
	char *end = NULL;
	double secs = argc > 1 ? strtod(argv[1], &end) : 1.0;

	if (argc > 2 || (end && (end == argv[1] || *end)) || !(secs >= 0)) {
		fprintf(stderr, "usage: callpaths [CPU-SECONDS]\n");
		return 2;
	}
	while (cpu_now() < secs) {
		a(20000);
		c(10000);
		rec(3, 10000);
	}
	return 0;
}
