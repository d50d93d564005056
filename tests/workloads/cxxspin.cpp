// SPDX-License-Identifier: GPL-2.0-only
// cxxspin [CPU-SECONDS]: C++ names for the demangling tests: a class
// template's member in a namespace, instantiated twice, an overloaded
// function and an operator, each burning part of the CPU time.
#include <cstdlib>
#include <ctime>

namespace ns {
template <typename T> struct Box {
	T v;
	__attribute__((noinline)) T spin(long n)
	{
		for (long i = 0; i < n; i++)
			v = v * 3 + (T)i;
		return v;
	}
	__attribute__((noinline)) Box &operator+=(long n)
	{
		for (long i = 0; i < n; i++)
			v = v * 5 + (T)i;
		return *this;
	}
};
}

__attribute__((noinline)) long twice(long n)
{
	volatile long s = 0;

	for (long i = 0; i < n; i++)
		s = s + i;
	return s;
}

__attribute__((noinline)) double twice(double x, long n)
{
	for (long i = 0; i < n; i++)
		x = x * 0.5 + 1;
	return x;
}

static volatile long sink;	// the results are used, and the exit status is 0

static double cpu_now()
{
	timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	ns::Box<long> b{1};
	ns::Box<double> d{1};
	double secs = argc > 1 ? atof(argv[1]) : 0.3, x = 0;
	long r = 0;

	while (cpu_now() < secs) {
		r += b.spin(100000);
		r += (long)d.spin(50000);
		b += 30000;
		r += twice(20000);
		x += twice(x, 20000);
	}
	sink = r + (long)x;
	return 0;
}
