// SPDX-License-Identifier: GPL-2.0-only
/*
 * callpaths [N [THREADS]]: burn N seconds of this process's CPU time
 * (default 1) along known call paths, for the call-graph tests, in
 * THREADS threads (default 1: main alone).  Built -O0
 * -fno-omit-frame-pointer -fno-inline, so that every function below has a
 * frame and a frame-pointer unwind sees each call:
 *
 *   spin -> a -> b -> leaf            (two thirds of the work)
 *   spin -> c -> helper -> leaf       (a shared helper, called from c ...)
 *   spin -> a -> helper -> leaf       (... and from a)
 *   spin -> rec -> rec -> rec -> leaf (recursion)
 *
 * spin is called by main, and is each other thread's start.
 *
 * Like cpuspin, the clock (a system call) is read between rounds only.
 */
#include <pthread.h>
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

static double secs = 1.0;

static void *spin(void *arg)
{
	while (cpu_now() < secs) {
		a(20000);
		c(10000);
		rec(3, 10000);
	}
	return arg;
}

int main(int argc, char **argv)
{
	char *end = NULL, *tend = NULL;
	long threads = argc > 2 ? strtol(argv[2], &tend, 10) : 1;
	pthread_t t[64];

	if (argc > 1)
		secs = strtod(argv[1], &end);
	if (argc > 3 || (end && (end == argv[1] || *end)) || !(secs >= 0) ||
	    (tend && (tend == argv[2] || *tend)) || threads < 1 || threads > 64) {
		fprintf(stderr, "usage: callpaths [CPU-SECONDS [THREADS]]\n");
		return 2;
	}
	for (long i = 1; i < threads; i++)
		if (pthread_create(&t[i], NULL, spin, NULL)) {
			perror("callpaths: pthread_create");
			return 1;
		}
	spin(NULL);
	for (long i = 1; i < threads; i++)
		pthread_join(t[i], NULL);
	return 0;
}
