/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_LIB_PROPTEST_H
#define MPERF_LIB_PROPTEST_H

#include <stddef.h>

/*
 * Whether a proportion grew from side a to side b, each side one run or
 * several: the one-sided two-proportion z test on the pooled counts, with
 * the run-to-run variance added when a side has several runs.
 *
 * Run i of a side counts x[i] hits of n[i] draws (a profile: an entry's
 * samples of its event's).  Each side's proportion is its pooled one,
 * sum(x) / sum(n).  Under "no change" its variance is the binomial one of
 * the pooled proportion of both sides, p (1 - p) / N, times the side's
 * dispersion: 1 with one run (the sampling noise alone), else Pearson's
 * chi-square of its runs over its degrees of freedom, sum((x[i] - n[i]
 * p) ^ 2 / (n[i] p (1 - p))) / (runs - 1), never below 1 (runs that
 * differ more than sampling makes them widen the test, as the
 * quasi-binomial model does).  z is the change over the square root of
 * the summed variances; p = P(Z >= z), the standard normal's tail.
 */
struct prop_test {
	double pa, pb;		/* each side's pooled proportion */
	double disp_a, disp_b;	/* each side's dispersion (>= 1) */
	double z, p;
};

/* 0, or -1 when a side has no run or no draw. */
int prop_greater(const double *xa, const double *na, size_t ra, const double *xb, const double *nb, size_t rb,
		 struct prop_test *r);

#endif
