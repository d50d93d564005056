// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpuspin [N [THREADS [DUTY]]]: spin until this process has used N seconds
 * of CPU time (default 1), in THREADS threads (default 1), then exit 0.
 * With DUTY (1-100, default 100), each thread spins DUTY% of every 10 ms
 * and sleeps the rest: a background task for a test that needs a busy
 * process to sample, not the CPUs the test's own commands want.
 *
 * noploop N spins for N seconds of wall time, so what it burns, and what a
 * cpu-clock event samples, depends on how busy the machine is.  cpuspin
 * burns the same CPU time however long that takes, so a test can predict a
 * sample count: N s / the period.  The clock is read every ~100 us of work
 * (reading it is a system call), which bounds the overshoot.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double secs = 1.0;
static long duty = 100;

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)) {
		perror("cpuspin: clock_gettime");
		exit(1);
	}
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The process's CPU time counts every thread's: all stop once the total is spent. */
static void *spin(void *arg)
{
	volatile unsigned long n = 0;

	(void)arg;
	double period_end = mono_now() + 0.010;

	while (cpu_now() < secs) {
		for (int i = 0; i < 100000; i++)
			n++;
		if (duty < 100 && mono_now() > period_end - 0.010 * (100 - duty) / 100) {
			struct timespec ts = { .tv_nsec = 100000L * (100 - duty) };

			nanosleep(&ts, NULL);
			period_end = mono_now() + 0.010;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	char *end = NULL, *tend = NULL, *dend = NULL;
	long threads = argc > 2 ? strtol(argv[2], &tend, 10) : 1;
	pthread_t t[64];

	if (argc > 1)
		secs = strtod(argv[1], &end);
	if (argc > 3)
		duty = strtol(argv[3], &dend, 10);
	if (argc > 4 || (end && (end == argv[1] || *end)) || !(secs >= 0) ||
	    (tend && (tend == argv[2] || *tend)) || threads < 1 || threads > 64 ||
	    (dend && (dend == argv[3] || *dend)) || duty < 1 || duty > 100) {
		fprintf(stderr, "usage: cpuspin [CPU-SECONDS [THREADS (1-64) [DUTY%% (1-100)]]]\n");
		return 2;
	}
	for (long i = 1; i < threads; i++)
		if (pthread_create(&t[i], NULL, spin, NULL)) {
			perror("cpuspin: pthread_create");
			return 1;
		}
	spin(NULL);
	for (long i = 1; i < threads; i++)
		pthread_join(t[i], NULL);
	/* A task that only spins may never be switched out before it exits on
	 * an idle machine: a 1 ms sleep gives the tracepoint tests the
	 * sched_switch of prev_comm=cpuspin they look for. */
	nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	return 0;
}
