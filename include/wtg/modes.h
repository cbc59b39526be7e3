/* modes.h: two states named. Whether samples fall into two separated clusters (a machine that
 * flips between a fast and a slow state), by Hartigan's dip test of unimodality, and if so the
 * clusters' medians and shares (src/base/modes.c). */
#ifndef WTG_MODES_H
#define WTG_MODES_H

#include <stdbool.h>
#include <stddef.h>

/* Hartigan's dip of the n sorted values: the largest distance between their empirical distribution
 * and the nearest unimodal one, 1 / (2n) (one mode at its plainest) to 1/4 (two equal point masses).
 * NAN out of memory. */
double wtg_dip(const double *sorted, size_t n);
/* The dip test's p-value: the chance that n values drawn from the uniform (the unimodal law whose dip
 * is largest) dip this much or more, read from a table simulated with the seeded generator (sqrt(n)
 * dip's quantiles at n = 10 .. 2000; above 2000 the last row: it has settled), interpolated in log(p);
 * at most 0.5 and at least 0.001 (the table's ends). NAN below 10 values. */
double wtg_dip_p(double dip, size_t n);

/* The rule for two regimes: the dip test's p below WTG_MODES_P, the two-means split's clusters (of the
 * values inside Tukey's outer fences, 3 IQR past the quartiles) each at
 * least WTG_MODES_MIN_SHARE of the values, apart by Ashman's D > WTG_MODES_MIN_D (sqrt 2 |m1 - m2| /
 * sqrt(s1^2 + s2^2), Ashman, Bird and Zepf 1994), each with WTG_MODES_MIN_DISTINCT values of its own
 * or more (a timer's few ticks are not two states), from WTG_MODES_MIN_N values on. */
#define WTG_MODES_P 0.01
#define WTG_MODES_MIN_SHARE 0.1
#define WTG_MODES_MIN_D 2.0
#define WTG_MODES_MIN_DISTINCT 3
#define WTG_MODES_MIN_N 10

struct wtg_modes {
	size_t n;		/* the finite values */
	double dip, p;		/* the dip and its p-value (NAN: too few values) */
	double mode[2];		/* the medians of the lower and the upper cluster */
	double share[2];	/* their shares of the values */
	double ashman_d;
	bool two;		/* two regimes, by the rule above */
};
/* Read the n values (any order; non-finite ones left out). Returns 0, or -1 out of memory. */
int wtg_two_modes(const double *v, size_t n, struct wtg_modes *out);
/* The two modes in words: "85 ns (60%) and 103 ns (40%): two regimes" (unit may be "" or NULL).
 * Returns the length written. */
int wtg_modes_words(char *buf, size_t len, const struct wtg_modes *m, const char *unit);

#endif
