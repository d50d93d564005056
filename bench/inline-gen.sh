#!/bin/bash
# Writes the C++ sources of the inline-heavy program bench/inline-vs-perf.sh
# profiles into DIR: UNITS translation units of FUNCS functions each (kept
# out of line), every one a loop over templates from one header that -O2
# inlines, several levels deep, so that most samples fall in inline frames
# of code spread over thousands of addresses; main.cpp calls them all,
# round after round, for SECS seconds of CPU.
set -euo pipefail

dir=$1 units=${2:-8} funcs=${3:-256}
mkdir -p "$dir"

cat >"$dir/mix.h" <<'HDR'
// Templates every unit instantiates and -O2 inlines, three levels deep.
#pragma once
#include <cstdint>

template <int K> struct Mix {
	static inline uint64_t step(uint64_t x)
	{
		x ^= x >> (K % 29 + 3);
		return x * (0x9e3779b97f4a7c15ull + 2 * K + 1);
	}
};

template <int K> inline uint64_t twice(uint64_t x)
{
	return Mix<K>::step(Mix<K + 1>::step(x)) + K;
}

template <typename T, int K> inline T fold(const T *v, int n)
{
	T s = 0;
	for (int i = 0; i < n; i++)
		s += twice<K>(v[i] ^ s);
	return s;
}
HDR

for ((u = 0; u < units; u++)); do
	{
		echo '#include "mix.h"'
		for ((f = 0; f < funcs; f++)); do
			k=$(((u * funcs + f) % 61))
			echo "__attribute__((noinline)) uint64_t u${u}_f${f}(const uint64_t *v, int n)"
			echo "{ return fold<uint64_t, $k>(v, n) + twice<$(((k + 7) % 61))>(n); }"
		done
		echo "typedef uint64_t (*fn_t)(const uint64_t *, int);"
		echo "extern const fn_t u${u}_table[] = {"
		for ((f = 0; f < funcs; f++)); do
			echo "	u${u}_f${f},"
		done
		echo "};"
	} >"$dir/u$u.cpp"
done

{
	echo '#include <cstdio>'
	echo '#include <cstdlib>'
	echo '#include <ctime>'
	echo '#include "mix.h"'
	echo "typedef uint64_t (*fn_t)(const uint64_t *, int);"
	for ((u = 0; u < units; u++)); do
		echo "extern const fn_t u${u}_table[];"
	done
	echo "static const fn_t *const tables[] = {"
	for ((u = 0; u < units; u++)); do
		echo "	u${u}_table,"
	done
	echo "};"
	cat <<MAIN
__attribute__((noinline)) static uint64_t round_of(const uint64_t *v, uint64_t x)
{
	for (int u = 0; u < $units; u++)
		for (int f = 0; f < $funcs; f++)
			x += tables[u][f](v, 64 + (int)(x & 63));
	return x;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	uint64_t v[128], x = 1;

	for (int i = 0; i < 128; i++)
		v[i] = twice<3>(i);
	while ((double)clock() / CLOCKS_PER_SEC < secs)
		x = round_of(v, x);
	printf("%llu\n", (unsigned long long)(x & 1));
	return 0;
}
MAIN
} >"$dir/main.cpp"
