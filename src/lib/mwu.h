/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_LIB_MWU_H
#define MPERF_LIB_MWU_H

#include <stddef.h>

/*
 * The Mann-Whitney U test, one-sided: whether the values b[] tend to be
 * larger than a[], without assuming any distribution.  U counts the pairs
 * (a[i], b[j]) with a[i] > b[j], a tie as one half: 0 when every b is
 * above every a.  The p-value is P(U <= u) when a and b come from one
 * distribution: exact (every ordering of the na + nb values equally
 * likely, ties broken) up to 40 values in all, the normal approximation
 * with a continuity correction above.  With one value a side, U is 0 or
 * 1 and p 0.5 or 1.
 */
struct mwu {
	double u;
	double p;
};

/* 0, or -1 when a side is empty, the sizes too large, or out of memory. */
int mwu_greater(const double *a, size_t na, const double *b, size_t nb, struct mwu *r);

/* The median of v[0..n), n > 0, v sorted in place (the statistic of rank tests' estimates). */
double median_in_place(double *v, size_t n);

#endif
