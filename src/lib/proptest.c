// SPDX-License-Identifier: GPL-2.0-only
/*
 * The two-proportion test over runs (proptest.h): the pooled counts'
 * binomial variance, widened by each side's overdispersion.
 */
#include <math.h>
#include "proptest.h"

/* The side's sums; -1 when it has no draw. */
static int sums(const double *x, const double *n, size_t runs, double *sx, double *sn)
{
	*sx = *sn = 0;
	for (size_t i = 0; i < runs; i++) {
		*sx += x[i];
		*sn += n[i];
	}
	return runs && *sn > 0 ? 0 : -1;
}

/* Pearson's chi-square of the runs against p, over runs - 1; at least 1. */
static double dispersion(const double *x, const double *n, size_t runs, double p)
{
	double chi = 0;
	size_t df = 0;

	if (runs < 2 || p <= 0 || p >= 1)
		return 1;
	for (size_t i = 0; i < runs; i++)
		if (n[i] > 0) {
			double d = x[i] - n[i] * p;

			chi += d * d / (n[i] * p * (1 - p));
			df++;
		}
	return df > 1 && chi / (double)(df - 1) > 1 ? chi / (double)(df - 1) : 1;
}

int prop_greater(const double *xa, const double *na, size_t ra, const double *xb, const double *nb, size_t rb,
		 struct prop_test *r)
{
	double sxa, sna, sxb, snb, p, var;

	if (sums(xa, na, ra, &sxa, &sna) || sums(xb, nb, rb, &sxb, &snb))
		return -1;
	r->pa = sxa / sna;
	r->pb = sxb / snb;
	r->disp_a = dispersion(xa, na, ra, r->pa);
	r->disp_b = dispersion(xb, nb, rb, r->pb);
	p = (sxa + sxb) / (sna + snb);
	var = p * (1 - p) * (r->disp_a / sna + r->disp_b / snb);
	if (var > 0)
		r->z = (r->pb - r->pa) / sqrt(var);
	else
		r->z = r->pb > r->pa ? INFINITY : r->pb < r->pa ? -INFINITY : 0;
	r->p = 0.5 * erfc(r->z / sqrt(2));
	return 0;
}
