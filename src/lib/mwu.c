// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one-sided Mann-Whitney U test (mwu.h).  The exact distribution of
 * U for sizes (m, n) is counted with the recurrence of Mann and Whitney
 * (1947): c(m, n, u) = c(m - 1, n, u - n) + c(m, n - 1, u), the orderings
 * whose largest value is from the first sample or from the second.
 */
#include <math.h>
#include <stdlib.h>
#include "mwu.h"

#define EXACT_MAX 40

/* P(U <= k) for sizes m, n, with the recurrence over one table per m, in doubles (C(40, 20) fits). */
static int exact_cdf(size_t m, size_t n, size_t k, double *p)
{
	size_t umax = m * n, w = umax + 1;
	double *c = calloc((m + 1) * (n + 1) * w, sizeof(*c)), sum = 0, all = 0;

	if (!c)
		return -1;
#define C(i, j, u) c[((i) * (n + 1) + (j)) * w + (u)]
	for (size_t i = 0; i <= m; i++)
		for (size_t j = 0; j <= n; j++)
			for (size_t u = 0; u <= i * j; u++) {
				if (!i || !j) {
					C(i, j, u) = u == 0;
					continue;
				}
				C(i, j, u) = (u >= j ? C(i - 1, j, u - j) : 0) + C(i, j - 1, u);
			}
	for (size_t u = 0; u <= umax; u++) {
		all += C(m, n, u);
		if (u <= k)
			sum += C(m, n, u);
	}
#undef C
	free(c);
	*p = sum / all;
	return 0;
}

int mwu_greater(const double *a, size_t na, const double *b, size_t nb, struct mwu *r)
{
	double u = 0;

	if (!na || !nb || na > 100000 / nb)
		return -1;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			u += a[i] > b[j] ? 1.0 : a[i] == b[j] ? 0.5 : 0.0;
	r->u = u;
	if (na + nb <= EXACT_MAX)
		/* a tie's half rounds up: the test stays on the safe side */
		return exact_cdf(na, nb, (size_t)ceil(u), &r->p);
	{
		double mu = (double)na * (double)nb / 2;
		double sd = sqrt((double)na * (double)nb * (double)(na + nb + 1) / 12);
		double z = (u + 0.5 - mu) / sd;

		r->p = 0.5 * erfc(-z / sqrt(2));
	}
	return 0;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

double median_in_place(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
