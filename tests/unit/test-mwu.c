// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one-sided Mann-Whitney U test of lib/mwu.h against values worked by
 * hand and from the published tables: U and the exact p for small sizes,
 * ties, the normal approximation above 40 values, and refusals.
 */
#include <math.h>
#include "../../src/lib/mwu.h"
#include "tap.h"

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

int main(void)
{
	double a3[] = { 950, 960, 940 }, b3[] = { 1093, 1102, 1084 }, c3[] = { 945, 955, 962 };
	double one[] = { 1 }, two[] = { 2 }, tie[] = { 1, 2, 3 }, tie2[] = { 3, 4, 5 };
	double big_a[30], big_b[30];
	struct mwu m = { 0, 0 };

	ok(!mwu_greater(a3, 3, b3, 3, &m) && m.u == 0 && near(m.p, 1.0 / 20), "3 v 3 apart: U 0, p 1/20 (%g %g)", m.u, m.p);
	ok(!mwu_greater(b3, 3, a3, 3, &m) && m.u == 9 && near(m.p, 1.0), "3 v 3 the other way: U 9, p 1");
	/* a3 against c3: 950>945, 960>945, 960>955, 940<all: U = 3 */
	ok(!mwu_greater(a3, 3, c3, 3, &m) && m.u == 3 && near(m.p, 7.0 / 20), "3 v 3 mixed: U 3, p 7/20 (%g %g)", m.u,
	   m.p);
	ok(!mwu_greater(one, 1, two, 1, &m) && m.u == 0 && near(m.p, 0.5), "1 v 1: U 0, p 1/2");
	ok(!mwu_greater(two, 1, one, 1, &m) && m.u == 1 && near(m.p, 1.0), "1 v 1 the other way: p 1");
	/* a tie counts one half: U 0.5, rounded up for p: P(U <= 1) = 2/20 */
	ok(!mwu_greater(tie, 3, tie2, 3, &m) && m.u == 0.5 && near(m.p, 2.0 / 20), "a tie: U 0.5, p 1/10 (%g %g)", m.u, m.p);
	/* 5 v 5, U 2: P(U <= 2) = 4/252 (the table of Mann and Whitney) */
	{
		double a5[] = { 1, 2, 3, 4, 7 }, b5[] = { 5, 6, 8, 9, 10 };

		ok(!mwu_greater(a5, 5, b5, 5, &m) && m.u == 2 && near(m.p, 4.0 / 252), "5 v 5, U 2: p 4/252 (%g)", m.p);
	}
	for (int i = 0; i < 30; i++) {
		big_a[i] = i;
		big_b[i] = i + 10.5;
	}
	/* 60 values: the normal approximation; shifted by a third of the range, p is small but not 0 */
	ok(!mwu_greater(big_a, 30, big_b, 30, &m) && m.p > 1e-6 && m.p < 1e-3, "30 v 30 shifted: p %g", m.p);
	ok(!mwu_greater(big_a, 30, big_a, 30, &m) && m.p > 0.45 && m.p < 0.6, "30 v 30 the same: p %g", m.p);
	ok(mwu_greater(a3, 0, b3, 3, &m) == -1, "an empty side is refused");
	return done_testing();
}
