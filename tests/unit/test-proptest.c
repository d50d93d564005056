// SPDX-License-Identifier: GPL-2.0-only
/*
 * The gate's share test, against values worked by hand: the
 * two-proportion test over runs (lib/proptest.h: the pooled binomial
 * variance, widened by the runs' dispersion).
 */
#include <math.h>
#include "../../src/lib/proptest.h"
#include "tap.h"

static bool near(double a, double b, double eps)
{
	return fabs(a - b) < eps;
}

static void test_prop(void)
{
	/* f: 700 of 950 samples, then 840 of 1090: pooled p 1540/2040 */
	double xa[] = { 700 }, na[] = { 950 }, xb[] = { 840 }, nb[] = { 1090 };
	double p = 1540.0 / 2040, z = (840.0 / 1090 - 700.0 / 950) / sqrt(p * (1 - p) * (1.0 / 950 + 1.0 / 1090));
	/* the same counts over three runs each: tight, then spread far wider than sampling spreads them */
	double xa3[] = { 700, 708, 692 }, na3[] = { 950, 960, 940 };
	double xw[] = { 570, 902, 722 }, nw[] = { 950, 950, 950 }, xt[] = { 730, 733, 731 };
	struct prop_test t;
	int r;

	r = prop_greater(xa, na, 1, xb, nb, 1, &t);
	ok(!r && near(t.z, z, 1e-12) && near(t.z, 1.7708, 1e-3),
	   "one run a side: the two-proportion z (%g)", t.z);
	ok(near(t.p, 0.5 * erfc(z / sqrt(2)), 1e-12) && t.disp_a == 1 && t.disp_b == 1, "p the normal tail (%g), no dispersion", t.p);
	r = prop_greater(xb, nb, 1, xa, na, 1, &t);
	ok(!r && near(t.z, -z, 1e-12) && t.p > 0.95, "the other way: p near 1");
	r = prop_greater(xa3, na3, 3, xt, nw, 3, &t);
	ok(!r && t.disp_a == 1 && t.disp_b == 1 && t.p < 0.01,
	   "three runs as steady as sampling: the pooled test (p %g)", t.p);
	r = prop_greater(xa3, na3, 3, xw, nw, 3, &t);
	ok(!r && t.disp_b > 100 && t.p > 0.3,
	   "three runs that disagree: dispersion %g widens the test (p %g)", t.disp_b, t.p);
	r = prop_greater(xa, na, 1, xa, na, 1, &t);
	ok(!r && t.z == 0 && t.p == 0.5, "no change: z 0, p 1/2");
	{
		double zero[] = { 0 }, some[] = { 30 };

		r = prop_greater(zero, na, 1, some, nb, 1, &t);
		ok(!r && t.z > 3 && t.p < 0.01, "a new entry: from 0 (z %g)", t.z);
		r = prop_greater(zero, na, 1, zero, nb, 1, &t);
		ok(!r && t.p == 0.5, "0 and 0: p 1/2");
	}
	r = prop_greater(xa, na, 0, xb, nb, 1, &t);
	ok(r == -1, "no run: refused");
}

int main(void)
{
	plan(9);
	test_prop();
	return done_testing();
}
