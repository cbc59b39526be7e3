/* stats.h: the one place for quantiles, the seeded generator, shuffles and bootstrap. */
#ifndef WTG_STATS_H
#define WTG_STATS_H

#include <stddef.h>
#include <stdint.h>

/* xoshiro256** seeded through splitmix64: the same seed gives the same stream everywhere. */
struct wtg_rng {
	uint64_t s[4];
};

void wtg_rng_seed(struct wtg_rng *r, uint64_t seed);
uint64_t wtg_rng_next(struct wtg_rng *r);
/* The next n values of r into w: the same values as n calls of wtg_rng_next, faster. */
void wtg_rng_words(struct wtg_rng *r, uint64_t *w, size_t n);
/* Uniform integer in [0, n) without modulo bias; n > 0. */
uint64_t wtg_rng_below(struct wtg_rng *r, uint64_t n);
/* Uniform double in [0, 1). */
double wtg_rng_unit(struct wtg_rng *r);
/* Fisher-Yates shuffle. */
void wtg_shuffle_int(struct wtg_rng *r, int *a, size_t n);

/* Ascending sort of doubles in place. */
void wtg_sort(double *v, size_t n);
/* Hyndman-Fan type 7: linear interpolation at position q*(n-1) of sorted data. n > 0, 0<=q<=1. */
double wtg_quantile_sorted(const double *sorted, size_t n, double q);
/* Same, on unsorted data (copies and sorts; returns NAN on n == 0 or allocation failure). */
double wtg_quantile(const double *v, size_t n, double q);
double wtg_mean(const double *v, size_t n);
/* The type-7 median of the finite ones of the n values at v (NAN when none: an unknown per-sample
 * figure is NAN); tmp has room for n values. */
double wtg_median_finite(const double *v, size_t n, double *tmp);

#define WTG_BOOTSTRAP_RESAMPLES 5000
#define WTG_BOOTSTRAP_CONF 0.95

/* Percentile bootstrap interval of the median: `resamples` resamples drawn with replacement from
 * the generator seeded with `seed`, then the (1-conf)/2 and (1+conf)/2 type-7 quantiles of the
 * resampled medians. Deterministic for the same input and seed. Returns 0, or -1 (n == 0 / ENOMEM). */
int wtg_bootstrap_median_ci(const double *v, size_t n, int resamples, double conf, uint64_t seed,
			    double *lo, double *hi);

/* The two-level percentile bootstrap of the median for samples taken in replicas (blocks measured
 * at separate times): v holds nrep replicas one after another, replica j len[j] > 0 values. Each
 * resample draws nrep replicas with replacement, then from each drawn replica as many values as it
 * holds, with replacement, and takes the type-7 median of all of them; the interval is the
 * (1-conf)/2 and (1+conf)/2 quantiles of the resampled medians. So the spread between replicas
 * widens it, where the one-level bootstrap sees one regime only. With nrep == 1 it is exactly
 * wtg_bootstrap_median_ci (the same draws). Deterministic for the same input and seed. Returns 0,
 * or -1 (no values, an empty replica, ENOMEM). */
int wtg_bootstrap_median_ci_replicas(const double *v, const size_t *len, size_t nrep, int resamples,
				     double conf, uint64_t seed, double *lo, double *hi);

/* The same interval for large samples, from the sorted data: a resample's median is drawn exactly in
 * distribution through order statistics of uniforms (the k-th smallest of n uniforms is
 * Beta(k, n-k+1)), in O(1) per resample instead of O(n). Deterministic for the same input and seed;
 * the draws differ from wtg_bootstrap_median_ci's, so the two agree within resampling noise. */
int wtg_bootstrap_median_ci_sorted_os(const double *sorted, size_t n, int resamples, double conf,
				      uint64_t seed, double *lo, double *hi);
/* Above this many samples wtg_summarize uses the order-statistics bootstrap. */
#define WTG_BOOTSTRAP_DIRECT_MAX 20000

/* The full distribution summary the SPEC asks for. v is in time order (drift uses the order). */
struct wtg_summary {
	size_t n;
	double mean, min, median, p90, p99, max;
	double ci_low, ci_high;		/* bootstrap CI of the median */
	double first_half_median;	/* drift check: median of the first floor(n/2) samples */
	double second_half_median;	/* ... and of the rest */
	double drift;			/* (second - first) / first, a fraction */
};
int wtg_summarize(const double *v, size_t n, uint64_t seed, struct wtg_summary *out);
/* The same with `resamples` bootstrap resamples; 0 leaves the CI out (NAN), for a caller that draws
 * its own (the rounds engine's two-level interval). */
int wtg_summarize_resamples(const double *v, size_t n, uint64_t seed, int resamples, struct wtg_summary *out);

/* Wilson score interval for a proportion: k successes in n trials at confidence conf (0.95: z =
 * 1.96). Never leaves [0, 1] and stays honest at k = 0 or k = n, unlike p +- z sqrt(p(1-p)/n).
 * Returns 0, or -1 when n == 0 or k > n. */
int wtg_wilson_interval(uint64_t k, uint64_t n, double conf, double *lo, double *hi);

/* Distribution-free interval for the median (the sign test's): the order statistics x(k) and
 * x(n-k+1) of the n values (1-based), k the largest rank with P(Binomial(n, 1/2) < k) <= (1-conf)/2,
 * so the interval covers the true median with probability *coverage >= conf (exact, not
 * asymptotic). Returns 0, or -1 when n is too small for any such interval (n < 6 at 95%) or out of
 * memory; then *lo and *hi are NAN and *coverage the coverage of [min, max]. k may be NULL. */
/* The exact two-sided sign test: with `up` positive and `down` negative differences (ties dropped),
 * the probability of a split at least this uneven were up and down equally likely:
 * min(1, 2 P(Binomial(up + down, 1/2) <= min(up, down))); 1 when up + down == 0. */
double wtg_sign_test_p(uint64_t up, uint64_t down);

int wtg_sign_test_median_ci(const double *v, size_t n, double conf, double *lo, double *hi, double *coverage,
			    size_t *k);

/* Percentile bootstrap interval of quantile_q(num) / quantile_q(den) (q = 0.5: the ratio of the
 * medians): `resamples` times, each side resampled with replacement from its own finite samples
 * (the sides independent, sizes may differ), the type-7 quantile of each taken and their ratio
 * kept (resamples with a zero denominator dropped); the (1-conf)/2 and (1+conf)/2 type-7 quantiles
 * of the kept ratios. Deterministic for the same input and seed. Returns 0, or -1 with NAN bounds
 * when a side has no finite sample, most denominators are zero, or memory runs out. */
int wtg_bootstrap_ratio_ci(const double *num, size_t nnum, const double *den, size_t nden, double q,
			   int resamples, double conf, uint64_t seed, double *lo, double *hi);

/* The most replicas a side of wtg_bootstrap_ratio_ci_replicas may have. */
#define WTG_BOOT_MAX_REPLICAS 16

/* The same interval for sides measured in replicas (blocks at separate times): num holds nnrep
 * replicas one after another, replica j nlen[j] values (den likewise). A side of one replica is
 * drawn as wtg_bootstrap_ratio_ci draws it (the same draws); a side of several in two levels, as
 * wtg_bootstrap_median_ci_replicas draws it (nrep replicas with replacement, then as many values as
 * each holds, with replacement, the quantile of them all), so the spread between a side's replicas
 * widens the ratio's interval as it widens the side's own. Non-finite values are left out, and a
 * replica left with none. Returns as wtg_bootstrap_ratio_ci does (-1 also for more than
 * WTG_BOOT_MAX_REPLICAS replicas). */
int wtg_bootstrap_ratio_ci_replicas(const double *num, const size_t *nlen, size_t nnrep, const double *den,
				    const size_t *dlen, size_t ndrep, double q, int resamples, double conf,
				    uint64_t seed, double *lo, double *hi);

/* The same draws for quantile_q(num) - quantile_q(den), in the values' unit: the interval of a
 * difference of two runs' figures (a figure that is itself a difference, which may be zero or
 * negative, is never put in a ratio). */
int wtg_bootstrap_diff_ci_replicas(const double *num, const size_t *nlen, size_t nnrep, const double *den,
				   const size_t *dlen, size_t ndrep, double q, int resamples, double conf,
				   uint64_t seed, double *lo, double *hi);

/* The quantile p (0 < p < 1) of Student's t distribution with df >= 1 degrees of freedom: its
 * exact CDF for whole df (a finite series) inverted by bisection. NAN for p or df out of range. */
double wtg_t_quantile(double p, int df);

/* Estimates of one figure from k separate runs pooled across them: a random-effects meta-analysis,
 * the runs as its studies. Run i gives the estimate v[i] and a conf interval [lo[i], hi[i]], whose
 * width over 2 z (z the normal quantile of conf) is taken as its standard error. Cochran's Q (the
 * runs' squared distances from their precision-weighted mean, in standard errors) against its k - 1
 * degrees of freedom gives I^2 = (Q - (k - 1)) / Q, at least 0: the share of the spread between runs
 * that the runs' own intervals do not account for; tau^2 (DerSimonian-Laird) is that between-run
 * variance. The pooled value weights each run by 1 / (se^2 + tau^2); its interval is
 * Hartung-Knapp's, t with k - 1 degrees of freedom times a standard error that holds the weighted
 * spread of the runs about it (never less than the weights alone give). Every width comes from the
 * runs' measured intervals and the measured spread between them. Runs with a non-finite value or
 * interval, or a zero-width one, are left out (k counts the others), and runs past WTG_POOL_MAX.
 * With four runs or more, the interval a next run's figure should fall in (a prediction interval,
 * Higgins, Thompson and Spiegelhalter 2009): the pooled value +- t with k - 2 degrees of freedom times
 * sqrt(tau^2 + the pooled value's squared standard error + the runs' mean squared standard error), the
 * last because the next run's figure carries its own sampling error as theirs did (three runs would
 * leave t one degree of freedom, 12.7: an interval too wide to say anything).
 * Returns 0, or -1 when fewer than two runs are left. */
#define WTG_POOL_MAX 64
struct wtg_pooled {
	int k;			/* runs pooled */
	double q, i2_pct, tau;	/* Cochran's Q, I^2 in %, tau = sqrt(tau^2) in the figure's unit */
	double value, lo, hi;	/* the pooled value and its interval */
	double next_lo, next_hi;	/* where a next run's figure should fall (k < 4: NAN) */
};
int wtg_pool_runs(const double *v, const double *lo, const double *hi, int n, double conf, struct wtg_pooled *out);

#endif
