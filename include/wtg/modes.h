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
	double cut;		/* the lower cluster's largest value: a value above it is the upper's */
	bool two;		/* two regimes, by the rule above */
};
/* Read the n values (any order; non-finite ones left out). Returns 0, or -1 out of memory. */
int wtg_two_modes(const double *v, size_t n, struct wtg_modes *out);
/* The two modes in words: "85 ns (60%) and 103 ns (40%): two regimes" (unit may be "" or NULL).
 * Returns the length written. */
int wtg_modes_words(char *buf, size_t len, const struct wtg_modes *m, const char *unit);

/* What the machine's state did with the two regimes. Per sample where read (a reading beside each
 * value: steal % of its time, MHz), else over the whole run. */
struct wtg_modes_state {
	double steal[2];	/* mean steal % of the lower and the upper cluster's samples, NAN not read */
	double mhz[2];		/* mean MHz of each cluster's samples, NAN not read */
	double run_steal;	/* steal % over the run, NAN unknown */
	double run_mhz_min, run_mhz_max;	/* the CPUs' frequency range over the run, NAN unknown */
	bool slow_high;		/* the upper cluster is the slow one (the values are times) */
};
#define WTG_MODES_STEAL_MOVED 0.5	/* percentage points of steal between the clusters */
#define WTG_MODES_MHZ_MOVED 0.02	/* a frequency 2% apart */
/* The mean of x (the reading beside each of v's n values; non-finite ones left out) over each
 * cluster: v[i] at or below m->cut is the lower's, else the upper's; NAN where a cluster has none. */
void wtg_modes_split_mean(const struct wtg_modes *m, const double *v, const double *x, size_t n, double mean[2]);
/* The state with the regimes of v's n values (unit: theirs; a time's upper cluster is the slow one):
 * steal % of each sample's time and its CPU's MHz beside it (NULL: not read per sample), else the
 * run's steal and frequency range (NAN: unknown). */
void wtg_modes_state_of(const struct wtg_modes *m, const double *v, const double *steal, const double *mhz, size_t n,
			const char *unit, double run_steal, double mhz_min, double mhz_max, struct wtg_modes_state *s);
/* In words: what moved with the regimes ("steal 0.0% vs 4.1% in the slow one"), else what did not
 * ("nothing watched moved with them: no steal over the run, frequency not readable"). Returns the
 * length written. */
int wtg_modes_state_words(char *buf, size_t len, const struct wtg_modes_state *s);

#endif
