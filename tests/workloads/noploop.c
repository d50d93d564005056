// SPDX-License-Identifier: GPL-2.0-only
/* noploop [N]: spin on the CPU for N seconds (default 1), then exit 0. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0, end;
	volatile unsigned long n = 0;

	if (argc > 2 || secs < 0) {
		fprintf(stderr, "usage: noploop [SECONDS]\n");
		return 2;
	}
	end = now() + secs;
	while (now() < end)
		for (int i = 0; i < 100000; i++)
			n++;
	return 0;
}
