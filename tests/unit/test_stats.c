/* test_stats.c: quantiles, mean, the seeded generator, shuffles, bootstrap and the summary, checked
 * against numbers computed independently in Python (the one-liners are next to the constants). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "wtg/stats.h"
#include "wtg/util.h"

#define EPS 1e-9

static const double qs[6] = { 0, 0.25, 0.5, 0.9, 0.99, 1 };

struct qcase {
	const char *name;
	double data[16];
	size_t n;
	double want[6];	/* at qs[] */
	double mean;
};

/* want[] for q = 0.25 .. 0.99 is Python's
 *   q = statistics.quantiles(d, n=100, method='inclusive'); [q[24], q[49], q[89], q[98]]
 * with min(d) and max(d) at q = 0 and 1, and mean = statistics.fmean(d). For n = 1 Python 3.11
 * refuses ("must have at least two data points"), so that row is the type-7 formula by hand:
 *   s = sorted(d); h = q * (len(s) - 1); i = int(h); j = min(i + 1, len(s) - 1)
 *   s[i] + (s[j] - s[i]) * (h - i)
 * which agrees with statistics.quantiles on every other row. */
static const struct qcase cases[] = {
	{ "odd n, unsorted", { 3.5, 1.0, 7.25, 2.0, 9.0, 4.0, 6.5 }, 7,
	  { 1.0, 2.75, 4.0, 7.95, 8.895, 9.0 }, 4.75 },
	{ "even n, unsorted", { 40, 10, 80, 30, 20, 70, 60, 50 }, 8,
	  { 10.0, 27.5, 45.0, 73.0, 79.3, 80.0 }, 45.0 },
	{ "n = 1", { 42.0 }, 1,
	  { 42.0, 42.0, 42.0, 42.0, 42.0, 42.0 }, 42.0 },
	{ "n = 2", { 1.0, 3.0 }, 2,
	  { 1.0, 1.5, 2.0, 2.8, 2.98, 3.0 }, 2.0 },
	{ "ties", { 5, 5, 5, 1, 1, 9, 9, 9, 9, 2 }, 10,
	  { 1.0, 2.75, 5.0, 9.0, 9.0, 9.0 }, 5.5 },
	{ "odd n = 13, spread",
	  { 0.31, 12.5, 7.75, 3.0, 100.0, 0.5, 2.25, 9.0, 15.125, 4.5, 1.0, 6.0, 8.5 }, 13,
	  { 0.31, 2.25, 6.0, 14.6, 89.815, 100.0 }, 13.110384615384616 },
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void test_quantiles(void)
{
	for (size_t k = 0; k < WTG_ARRAY_LEN(cases); k++) {
		const struct qcase *c = &cases[k];
		double copy[16];
		memcpy(copy, c->data, sizeof copy);
		for (int i = 0; i < 6; i++) {
			CHECK_NEAR(wtg_quantile(c->data, c->n, qs[i]), c->want[i], EPS);
			if (fabs(wtg_quantile(c->data, c->n, qs[i]) - c->want[i]) > EPS)
				fprintf(stderr, "  case \"%s\", q = %g\n", c->name, qs[i]);
		}
		/* wtg_quantile works on a copy: the caller's order is kept */
		CHECK(memcmp(copy, c->data, sizeof copy) == 0);
		double sorted[16];
		memcpy(sorted, c->data, c->n * sizeof *sorted);
		wtg_sort(sorted, c->n);
		for (size_t i = 1; i < c->n; i++)
			CHECK(sorted[i - 1] <= sorted[i]);
		for (int i = 0; i < 6; i++)
			CHECK_NEAR(wtg_quantile_sorted(sorted, c->n, qs[i]), c->want[i], EPS);
		CHECK_NEAR(wtg_mean(c->data, c->n), c->mean, EPS);
	}
	CHECK(isnan(wtg_quantile(NULL, 0, 0.5)));
	CHECK(isnan(wtg_mean(NULL, 0)));
}

/* Reference outputs of xoshiro256** seeded through splitmix64, from a Python transcription of the
 * two published algorithms (64-bit masks; the generator's first outputs for seeds 1 and 0). */
static void test_rng_reference(void)
{
	struct wtg_rng r;
	wtg_rng_seed(&r, 1);
	CHECK(wtg_rng_next(&r) == 0xb3f2af6d0fc710c5ull);
	CHECK(wtg_rng_next(&r) == 0x853b559647364ceaull);
	CHECK(wtg_rng_next(&r) == 0x92f89756082a4514ull);
	wtg_rng_seed(&r, 0);
	CHECK(wtg_rng_next(&r) == 0x99ec5f36cb75f2b4ull);
	CHECK(wtg_rng_next(&r) == 0xbf6e1f784956452aull);
}

static void test_rng(void)
{
	struct wtg_rng a, b, c;
	wtg_rng_seed(&a, 12345);
	wtg_rng_seed(&b, 12345);
	wtg_rng_seed(&c, 12346);
	int same = 0, differ = 0;
	for (int i = 0; i < 1000; i++) {
		uint64_t x = wtg_rng_next(&a), y = wtg_rng_next(&b), z = wtg_rng_next(&c);
		same += x == y;
		differ += x != z;
	}
	CHECK(same == 1000);
	CHECK(differ == 1000);

	/* wtg_rng_below stays in range, also for n = 1 and n just above 2^63 (half the draws rejected) */
	static const uint64_t ns[] = { 1, 2, 3, 7, 1000, (1ull << 63) + 1, UINT64_MAX };
	bool in_range = true;
	for (size_t k = 0; k < WTG_ARRAY_LEN(ns); k++)
		for (int i = 0; i < 2000; i++)
			if (wtg_rng_below(&a, ns[k]) >= ns[k])
				in_range = false;
	CHECK(in_range);

	/* rough uniformity: chi-square over 10 buckets, 100000 draws, a fixed seed (so the test is
	 * deterministic); 9 degrees of freedom, 40 is far out in the tail (p < 1e-5) */
	struct wtg_rng u;
	wtg_rng_seed(&u, 2024);
	long bucket[10] = { 0 };
	const long draws = 100000;
	for (long i = 0; i < draws; i++)
		bucket[wtg_rng_below(&u, 10)]++;
	double chi = 0, expect = (double)draws / 10;
	for (int i = 0; i < 10; i++)
		chi += ((double)bucket[i] - expect) * ((double)bucket[i] - expect) / expect;
	CHECK(chi < 40.0);
	CHECK(chi > 0.0);	/* exactly equal buckets would be a sign of a broken generator */

	bool unit_ok = true;
	double sum = 0;
	for (int i = 0; i < 100000; i++) {
		double x = wtg_rng_unit(&u);
		if (!(x >= 0.0 && x < 1.0))
			unit_ok = false;
		sum += x;
	}
	CHECK(unit_ok);
	CHECK_NEAR(sum / 100000, 0.5, 0.01);
}

static void test_shuffle(void)
{
	int a[50], b[50], c[50];
	for (int i = 0; i < 50; i++)
		a[i] = b[i] = c[i] = i;
	struct wtg_rng r1, r2, r3;
	wtg_rng_seed(&r1, 99);
	wtg_rng_seed(&r2, 99);
	wtg_rng_seed(&r3, 100);
	wtg_shuffle_int(&r1, a, 50);
	wtg_shuffle_int(&r2, b, 50);
	wtg_shuffle_int(&r3, c, 50);
	CHECK(memcmp(a, b, sizeof a) == 0);
	CHECK(memcmp(a, c, sizeof a) != 0);
	int moved = 0;
	for (int i = 0; i < 50; i++)
		moved += a[i] != i;
	CHECK(moved > 25);
	/* a permutation: every value once */
	int seen[50] = { 0 };
	bool perm = true;
	for (int i = 0; i < 50; i++) {
		if (a[i] < 0 || a[i] >= 50 || seen[a[i]]++)
			perm = false;
	}
	CHECK(perm);

	/* Python, same generator (xoshiro256** seeded by splitmix64; below(n): Lemire's multiply, the
	 * high word of next() * n, rejecting low words under 2^64 mod n): r = R(3); a = list(range(10));
	 * for i in range(10, 1, -1): j = r.below(i); a[i-1], a[j] = a[j], a[i-1] */
	static const int want[10] = { 9, 4, 8, 0, 7, 2, 3, 1, 5, 6 };
	int d[10];
	for (int i = 0; i < 10; i++)
		d[i] = i;
	struct wtg_rng r4;
	wtg_rng_seed(&r4, 3);
	wtg_shuffle_int(&r4, d, 10);
	CHECK(memcmp(d, want, sizeof d) == 0);

	int one = 5;
	wtg_shuffle_int(&r4, &one, 1);
	CHECK(one == 5);
	wtg_shuffle_int(&r4, NULL, 0);
}

static void test_bootstrap(void)
{
	double lo, hi, lo2, hi2;
	/* Python, the generator above plus type 7 (see test_rng_reference):
	 *   r = R(seed); meds = sorted(t7(sorted(v[r.below(n)] for _ in range(n)), .5) for _ in range(5000))
	 *   t7(meds, .025), t7(meds, .975) */
	const double d1[] = { 12.0, 15.5, 11.25, 30.0, 14.0, 13.5, 12.75, 16.0, 100.0, 14.5, 13.0 };
	CHECK(wtg_bootstrap_median_ci(d1, 11, 5000, 0.95, 42, &lo, &hi) == 0);
	CHECK_NEAR(lo, 12.75, EPS);
	CHECK_NEAR(hi, 16.0, EPS);
	CHECK(wtg_bootstrap_median_ci(d1, 11, 5000, 0.95, 42, &lo2, &hi2) == 0);
	CHECK(lo == lo2 && hi == hi2);	/* deterministic for a fixed seed */
	const double d2[] = { 3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0 };
	CHECK(wtg_bootstrap_median_ci(d2, 9, 5000, 0.95, 7, &lo, &hi) == 0);
	CHECK_NEAR(lo, 1.0, EPS);
	CHECK_NEAR(hi, 6.0, EPS);

	/* lo <= median <= hi on several inputs */
	for (size_t k = 0; k < WTG_ARRAY_LEN(cases); k++) {
		const struct qcase *c = &cases[k];
		CHECK(wtg_bootstrap_median_ci(c->data, c->n, 2000, 0.95, 1, &lo, &hi) == 0);
		double med = wtg_quantile(c->data, c->n, 0.5);
		CHECK(lo <= med && med <= hi);
	}

	/* constant data: a zero-width interval at the value */
	double k7[20];
	for (int i = 0; i < 20; i++)
		k7[i] = 7.5;
	CHECK(wtg_bootstrap_median_ci(k7, 20, 1000, 0.95, 5, &lo, &hi) == 0);
	CHECK(lo == 7.5 && hi == 7.5);

	/* more spread, wider interval: the same draws around the same centre, ten times the spread */
	double narrow[41], wide[41];
	struct wtg_rng r;
	wtg_rng_seed(&r, 77);
	for (int i = 0; i < 41; i++) {
		double noise = wtg_rng_unit(&r) - 0.5;
		narrow[i] = 100 + noise;
		wide[i] = 100 + 10 * noise;
	}
	CHECK(wtg_bootstrap_median_ci(narrow, 41, 2000, 0.95, 9, &lo, &hi) == 0);
	CHECK(wtg_bootstrap_median_ci(wide, 41, 2000, 0.95, 9, &lo2, &hi2) == 0);
	CHECK(hi - lo > 0);
	CHECK(hi2 - lo2 > 5 * (hi - lo));

	CHECK(wtg_bootstrap_median_ci(d1, 0, 5000, 0.95, 1, &lo, &hi) == -1);
}

/* The two-level bootstrap (replicas, then samples within each): one replica is the one-level
 * bootstrap draw for draw; replicas from one regime give about the one-level interval of the pooled
 * samples; replicas in different regimes widen it to hold them. */
static void test_bootstrap_replicas(void)
{
	double lo, hi, lo1, hi1;
	const double d1[] = { 12.0, 15.5, 11.25, 30.0, 14.0, 13.5, 12.75, 16.0, 100.0, 14.5, 13.0 };
	size_t n1 = WTG_ARRAY_LEN(d1);
	CHECK(wtg_bootstrap_median_ci_replicas(d1, &n1, 1, 5000, 0.95, 42, &lo, &hi) == 0);
	CHECK_NEAR(lo, 12.75, EPS);	/* the reference numbers of test_bootstrap */
	CHECK_NEAR(hi, 16.0, EPS);

	/* identical replicas: drawing a replica changes nothing, so the interval is the one-level
	 * one of the pooled samples, within resampling noise */
	double same[15], noisy[15], shifted[15];
	struct wtg_rng r;
	wtg_rng_seed(&r, 11);
	for (int i = 0; i < 15; i++) {
		double noise = 2 * wtg_rng_unit(&r) - 1;
		same[i] = i < 5 ? 100 + noise : same[i % 5];
		noisy[i] = 100 + noise;
		shifted[i] = 100 + (i / 5) + 0.5 * noise;	/* replicas at 100, 101, 102 */
	}
	const size_t len[3] = { 5, 5, 5 };
	CHECK(wtg_bootstrap_median_ci(same, 15, 5000, 0.95, 3, &lo1, &hi1) == 0);
	CHECK(wtg_bootstrap_median_ci_replicas(same, len, 3, 5000, 0.95, 3, &lo, &hi) == 0);
	unit_diag("identical replicas: one-level [%.3f, %.3f], two-level [%.3f, %.3f]", lo1, hi1, lo, hi);
	double w1 = hi1 - lo1;
	CHECK(fabs(lo - lo1) < 0.15 * w1 && fabs(hi - hi1) < 0.15 * w1);

	/* replicas from one regime (different draws of 100 +- 1): it holds the one-level interval and
	 * stays the same size within a factor 2.5 (the two levels count the noise within a replica
	 * twice over, a little wider, never narrower) */
	CHECK(wtg_bootstrap_median_ci(noisy, 15, 5000, 0.95, 3, &lo1, &hi1) == 0);
	CHECK(wtg_bootstrap_median_ci_replicas(noisy, len, 3, 5000, 0.95, 3, &lo, &hi) == 0);
	unit_diag("one regime: one-level [%.3f, %.3f], two-level [%.3f, %.3f]", lo1, hi1, lo, hi);
	CHECK(lo <= lo1 && hi1 <= hi && hi - lo < 2.5 * (hi1 - lo1));

	/* three regimes: wider than the one-level interval, and it holds every replica's median */
	CHECK(wtg_bootstrap_median_ci(shifted, 15, 5000, 0.95, 3, &lo1, &hi1) == 0);
	CHECK(wtg_bootstrap_median_ci_replicas(shifted, len, 3, 5000, 0.95, 3, &lo, &hi) == 0);
	unit_diag("three regimes: one-level [%.3f, %.3f], two-level [%.3f, %.3f]", lo1, hi1, lo, hi);
	CHECK(hi - lo > hi1 - lo1);
	for (int j = 0; j < 3; j++) {
		double m = wtg_quantile(shifted + 5 * j, 5, 0.5);
		unit_diag("replica %d: median %.3f", j + 1, m);
		CHECK(lo <= m && m <= hi);
	}

	/* the median of the known values: NAN marks an unknown one */
	const double part[] = { 3, NAN, 1, 2, NAN, 10 };
	double tmp[6];
	CHECK_NEAR(wtg_median_finite(part, 6, tmp), 2.5, EPS);
	CHECK(isnan(wtg_median_finite(part + 1, 1, tmp)));

	/* deterministic, and an empty replica is refused */
	double lo2, hi2;
	CHECK(wtg_bootstrap_median_ci_replicas(shifted, len, 3, 5000, 0.95, 3, &lo2, &hi2) == 0);
	CHECK(lo2 == lo && hi2 == hi);
	const size_t holes[3] = { 5, 0, 10 };
	CHECK(wtg_bootstrap_median_ci_replicas(shifted, holes, 3, 5000, 0.95, 3, &lo2, &hi2) == -1);
}

static void test_summarize(void)
{
	/* time order matters for drift. Python:
	 *   v = [3, 1, 4, 1, 5, 9, 2, 6, 5]; q = statistics.quantiles(v, n=100, method='inclusive')
	 *   fmean(v), min(v), median(v), q[89], q[98], max(v), median(v[:4]), median(v[4:])
	 *   -> 4.0 1.0 4.0 6.6 8.76 9.0 2.0 5.0 */
	const double v[] = { 3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0 };
	struct wtg_summary s;
	CHECK(wtg_summarize(v, 9, 7, &s) == 0);
	CHECK(s.n == 9);
	CHECK_NEAR(s.mean, 4.0, EPS);
	CHECK_NEAR(s.min, 1.0, EPS);
	CHECK_NEAR(s.median, 4.0, EPS);
	CHECK_NEAR(s.p90, 6.6, EPS);
	CHECK_NEAR(s.p99, 8.76, EPS);
	CHECK_NEAR(s.max, 9.0, EPS);
	CHECK_NEAR(s.ci_low, 1.0, EPS);	/* the same bootstrap as test_bootstrap's d2, seed 7 */
	CHECK_NEAR(s.ci_high, 6.0, EPS);
	CHECK_NEAR(s.first_half_median, 2.0, EPS);
	CHECK_NEAR(s.second_half_median, 5.0, EPS);
	CHECK_NEAR(s.drift, 1.5, EPS);	/* (5 - 2) / 2 */

	/* sorted input has the same quantiles but another drift: order is what drift reads */
	double sorted[9];
	memcpy(sorted, v, sizeof sorted);
	qsort(sorted, 9, sizeof *sorted, cmp_double);
	struct wtg_summary t;
	CHECK(wtg_summarize(sorted, 9, 7, &t) == 0);
	CHECK_NEAR(t.median, s.median, EPS);
	CHECK_NEAR(t.first_half_median, 1.5, EPS);	/* statistics.median([1, 1, 2, 3]) */
	CHECK_NEAR(t.second_half_median, 5.0, EPS);	/* statistics.median([4, 5, 5, 6, 9]) */
	CHECK_NEAR(t.drift, (5.0 - 1.5) / 1.5, EPS);

	struct wtg_summary one;
	const double x = 3.25;
	CHECK(wtg_summarize(&x, 1, 1, &one) == 0);
	CHECK(one.n == 1 && one.median == 3.25 && one.ci_low == 3.25 && one.ci_high == 3.25);
	CHECK(one.first_half_median == 3.25 && one.second_half_median == 3.25 && one.drift == 0);

	CHECK(wtg_summarize(v, 0, 1, &one) == -1);
	CHECK(one.n == 0);
}

/* The order-statistics bootstrap agrees with the resampling one on large samples. */
static void test_bootstrap_order_statistics(void)
{
	for (size_t n = 25000; n <= 25001; n++) {
		double *v = malloc(n * sizeof *v), *sorted = malloc(n * sizeof *sorted);
		struct wtg_rng r;
		wtg_rng_seed(&r, 99);
		for (size_t i = 0; i < n; i++)
			v[i] = 100.0 + 50.0 * wtg_rng_unit(&r) * wtg_rng_unit(&r);
		memcpy(sorted, v, n * sizeof *v);
		wtg_sort(sorted, n);
		double med = wtg_quantile_sorted(sorted, n, 0.5);
		double lo1, hi1, lo2, hi2, lo3, hi3;
		CHECK(wtg_bootstrap_median_ci(v, n, 5000, 0.95, 7, &lo1, &hi1) == 0);
		CHECK(wtg_bootstrap_median_ci_sorted_os(sorted, n, 5000, 0.95, 7, &lo2, &hi2) == 0);
		CHECK(wtg_bootstrap_median_ci_sorted_os(sorted, n, 5000, 0.95, 7, &lo3, &hi3) == 0);
		CHECK(lo2 == lo3 && hi2 == hi3);		/* deterministic per seed */
		CHECK(lo2 <= med && med <= hi2);
		CHECK(lo2 < hi2);
		double w = hi1 - lo1;
		CHECK_NEAR(lo2, lo1, 0.2 * w);		/* same interval within resampling noise */
		CHECK_NEAR(hi2, hi1, 0.2 * w);
		CHECK_NEAR(hi2 - lo2, w, 0.2 * w);
		/* wtg_summarize switches to it above WTG_BOOTSTRAP_DIRECT_MAX */
		struct wtg_summary s;
		CHECK(wtg_summarize(v, n, 7, &s) == 0);
		CHECK(s.ci_low == lo2 && s.ci_high == hi2);
		free(v);
		free(sorted);
	}
	double one = 5.0, lo, hi;
	CHECK(wtg_bootstrap_median_ci_sorted_os(&one, 1, 100, 0.95, 1, &lo, &hi) == 0);
	CHECK(lo == 5.0 && hi == 5.0);
	CHECK(wtg_bootstrap_median_ci_sorted_os(&one, 0, 100, 0.95, 1, &lo, &hi) == -1);
}

/* Hand-checked with Python:
 *   from math import sqrt; z = 1.959963984540054
 *   p = k/n; d = 1 + z*z/n; c = (p + z*z/(2*n))/d; h = z/d*sqrt(p*(1-p)/n + z*z/(4*n*n)); c-h, c+h */
static void test_wilson(void)
{
	double lo, hi;
	CHECK(wtg_wilson_interval(5, 100, 0.95, &lo, &hi) == 0);
	CHECK_NEAR(lo, 0.02154367915436796, 1e-9);
	CHECK_NEAR(hi, 0.11175046923191913, 1e-9);
	CHECK(wtg_wilson_interval(12, 1000, 0.95, &lo, &hi) == 0);
	CHECK_NEAR(lo, 0.006877647806403522, 1e-9);
	CHECK_NEAR(hi, 0.02085726847549828, 1e-9);
	CHECK(wtg_wilson_interval(1, 2, 0.95, &lo, &hi) == 0);
	CHECK_NEAR(lo, 0.09453120573423074, 1e-9);
	CHECK_NEAR(hi, 0.9054687942657693, 1e-9);
	/* no successes: the lower bound is 0, the upper one still above 0 */
	CHECK(wtg_wilson_interval(0, 1000, 0.95, &lo, &hi) == 0);
	CHECK(lo == 0.0);
	CHECK_NEAR(hi, 0.0038267584855551234, 1e-9);
	CHECK(wtg_wilson_interval(1000, 1000, 0.95, &lo, &hi) == 0);
	CHECK_NEAR(lo, 0.996173241514445, 1e-9);
	CHECK(hi == 1.0);
	CHECK(wtg_wilson_interval(0, 0, 0.95, &lo, &hi) == -1);
	CHECK(wtg_wilson_interval(3, 2, 0.95, &lo, &hi) == -1);
}

/* Ranks and coverages from Python:
 *   c = 0; k = max(i + 1 for i in range(n + 1) if sum(comb(n, j) for j in range(i + 1)) / 2**n <= 0.025)
 *   coverage = 1 - 2 * sum(comb(n, j) for j in range(k)) / 2**n
 * n = 6: k 1, 0.96875; n = 10: k 2, 0.978515625; n = 20: k 6, 0.9586105346679688;
 * n = 30: k 10, 0.9572260547429323; n = 100: k 40, 0.9647997997822952; n = 5: none. */
static void test_sign_test(void)
{
	static const struct {
		size_t n, k;
		double coverage;
	} want[] = { { 6, 1, 0.96875 }, { 10, 2, 0.978515625 }, { 20, 6, 0.9586105346679688 },
		     { 30, 10, 0.9572260547429323 }, { 100, 40, 0.9647997997822952 } };
	double v[100];
	for (size_t w = 0; w < WTG_ARRAY_LEN(want); w++) {
		size_t n = want[w].n, k = 0;
		/* the values n-1 .. 0 descending, times 10: x(k) (1-based) is 10 (k - 1) */
		for (size_t i = 0; i < n; i++)
			v[i] = 10.0 * (double)(n - 1 - i);
		double lo, hi, cov;
		CHECK(wtg_sign_test_median_ci(v, n, 0.95, &lo, &hi, &cov, &k) == 0);
		CHECK(k == want[w].k);
		CHECK_NEAR(cov, want[w].coverage, 1e-9);
		CHECK_NEAR(lo, 10.0 * (double)(want[w].k - 1), EPS);
		CHECK_NEAR(hi, 10.0 * (double)(n - want[w].k), EPS);
		CHECK(v[0] == 10.0 * (double)(n - 1));	/* the caller's order is kept */
	}
	/* n = 5: even [min, max] covers only 1 - 2/32 */
	double lo, hi, cov;
	CHECK(wtg_sign_test_median_ci(v, 5, 0.95, &lo, &hi, &cov, NULL) == -1);
	CHECK(isnan(lo) && isnan(hi));
	CHECK_NEAR(cov, 0.9375, EPS);
	/* a known small case: 8 paired differences, k = 1 -> [min, max] at coverage 1 - 2/256 */
	const double d[8] = { 3, -1, 4, 1, -5, 9, 2, 6 };
	CHECK(wtg_sign_test_median_ci(d, 8, 0.95, &lo, &hi, &cov, NULL) == 0);
	CHECK(lo == -5 && hi == 9);
	CHECK_NEAR(cov, 0.9921875, EPS);
	/* the sign test's p: 2 up of 10: 2 (1 + 10 + 45) / 1024; 0 of 6: 2 / 64; 15 of 30: capped at 1 */
	CHECK_NEAR(wtg_sign_test_p(2, 8), 0.109375, 1e-12);
	CHECK_NEAR(wtg_sign_test_p(8, 2), 0.109375, 1e-12);
	CHECK_NEAR(wtg_sign_test_p(0, 6), 0.03125, 1e-12);
	CHECK(wtg_sign_test_p(15, 15) == 1.0);
	CHECK(wtg_sign_test_p(0, 0) == 1.0);
}

/* The interval of a ratio of two samples' quantiles: deterministic, around the point ratio, wider
 * when the samples spread more, exact on constant data, none without a denominator. */
static void test_bootstrap_ratio(void)
{
	double lo, hi, lo2, hi2;
	double a[31], b[25], wa[31], wb[25];
	struct wtg_rng r;
	wtg_rng_seed(&r, 5);
	for (int i = 0; i < 31; i++) {
		double noise = wtg_rng_unit(&r) - 0.5;
		a[i] = 200 + 4 * noise;
		wa[i] = 200 + 40 * noise;
	}
	for (int i = 0; i < 25; i++) {
		double noise = wtg_rng_unit(&r) - 0.5;
		b[i] = 100 + 2 * noise;
		wb[i] = 100 + 20 * noise;
	}
	CHECK(wtg_bootstrap_ratio_ci(a, 31, b, 25, 0.5, 5000, 0.95, 3, &lo, &hi) == 0);
	CHECK(wtg_bootstrap_ratio_ci(a, 31, b, 25, 0.5, 5000, 0.95, 3, &lo2, &hi2) == 0);
	CHECK(lo == lo2 && hi == hi2);	/* deterministic for a fixed seed */
	double point = wtg_quantile(a, 31, 0.5) / wtg_quantile(b, 25, 0.5);
	CHECK(lo <= point && point <= hi);
	CHECK(lo > 1.9 && hi < 2.1);
	CHECK(wtg_bootstrap_ratio_ci(a, 31, b, 25, 0.5, 5000, 0.95, 4, &lo2, &hi2) == 0);
	CHECK(lo2 != lo || hi2 != hi);	/* another seed, other draws */
	/* ten times the spread on both sides: a much wider interval around the same ratio */
	CHECK(wtg_bootstrap_ratio_ci(wa, 31, wb, 25, 0.5, 5000, 0.95, 3, &lo2, &hi2) == 0);
	CHECK(hi2 - lo2 > 5 * (hi - lo));
	point = wtg_quantile(wa, 31, 0.5) / wtg_quantile(wb, 25, 0.5);
	CHECK(lo2 <= point && point <= hi2);
	/* another quantile: p99 of each side */
	CHECK(wtg_bootstrap_ratio_ci(wa, 31, wb, 25, 0.99, 2000, 0.95, 3, &lo, &hi) == 0);
	point = wtg_quantile(wa, 31, 0.99) / wtg_quantile(wb, 25, 0.99);
	CHECK(lo <= point && point <= hi);
	/* the order-statistic draws give the interval of a plain resampling bootstrap (n index draws
	 * with replacement per side, the type-7 quantile of the resample): both with 20000 resamples */
	for (int t = 0; t < 2; t++) {
		const double q = t == 0 ? 0.5 : 0.9;
		enum { NB = 20000 };
		static double ratios[NB], ra[31], rb[25];
		struct wtg_rng g;
		wtg_rng_seed(&g, 11);
		for (int i = 0; i < NB; i++) {
			for (int j = 0; j < 31; j++)
				ra[j] = wa[wtg_rng_below(&g, 31)];
			for (int j = 0; j < 25; j++)
				rb[j] = wb[wtg_rng_below(&g, 25)];
			ratios[i] = wtg_quantile(ra, 31, q) / wtg_quantile(rb, 25, q);
		}
		wtg_sort(ratios, NB);
		double blo = wtg_quantile_sorted(ratios, NB, 0.025), bhi = wtg_quantile_sorted(ratios, NB, 0.975);
		CHECK(wtg_bootstrap_ratio_ci(wa, 31, wb, 25, q, NB, 0.95, 3, &lo, &hi) == 0);
		CHECK(fabs(lo - blo) < 0.05 * (bhi - blo) && fabs(hi - bhi) < 0.05 * (bhi - blo));
	}
	/* constant sides: the ratio exactly, zero width */
	double k3[9] = { 3, 3, 3, 3, 3, 3, 3, 3, 3 }, k2[4] = { 2, 2, 2, 2 };
	CHECK(wtg_bootstrap_ratio_ci(k3, 9, k2, 4, 0.5, 1000, 0.95, 1, &lo, &hi) == 0);
	CHECK(lo == 1.5 && hi == 1.5);
	/* no denominator: all zero, empty, or no finite value */
	double z[5] = { 0, 0, 0, 0, 0 }, nan5[2] = { NAN, INFINITY };
	CHECK(wtg_bootstrap_ratio_ci(k3, 9, z, 5, 0.5, 1000, 0.95, 1, &lo, &hi) == -1 && isnan(lo) && isnan(hi));
	CHECK(wtg_bootstrap_ratio_ci(k3, 9, k2, 0, 0.5, 1000, 0.95, 1, &lo, &hi) == -1);
	CHECK(wtg_bootstrap_ratio_ci(k3, 9, nan5, 2, 0.5, 1000, 0.95, 1, &lo, &hi) == -1);
	CHECK(wtg_bootstrap_ratio_ci(k3, 9, k2, 4, 1.5, 1000, 0.95, 1, &lo, &hi) == -1);
}

/* The ratio of sides measured in replicas: one replica per side is the one-level interval (the same
 * draws); replicas whose medians differ widen it, as a plain two-level resampling bootstrap (replicas,
 * then values within each, the median of them all) says; non-finite values and replicas left empty
 * are dropped; too many replicas is refused. */
static void test_bootstrap_ratio_replicas(void)
{
	double lo, hi, lo1, hi1;
	enum { R = 5, PER = 3, N = R * PER };
	double a[N], b[N], flat_a[N], flat_b[N];
	size_t la[R], lb[R], one_a = N, one_b = N;
	struct wtg_rng g;
	wtg_rng_seed(&g, 17);
	for (int j = 0; j < R; j++) {
		la[j] = lb[j] = PER;
		for (int i = 0; i < PER; i++) {
			double na = wtg_rng_unit(&g) - 0.5, nb = wtg_rng_unit(&g) - 0.5;
			/* the numerator's replicas sit at 190, 195, .. 210: a regime per replica */
			a[j * PER + i] = 190 + 5 * j + 2 * na;
			b[j * PER + i] = 100 + 1 * nb;
			flat_a[j * PER + i] = 200 + 2 * na;
			flat_b[j * PER + i] = 100 + 1 * nb;
		}
	}
	/* one replica a side: exactly wtg_bootstrap_ratio_ci */
	CHECK(wtg_bootstrap_ratio_ci(a, N, b, N, 0.5, 2000, 0.95, 7, &lo1, &hi1) == 0);
	CHECK(wtg_bootstrap_ratio_ci_replicas(a, &one_a, 1, b, &one_b, 1, 0.5, 2000, 0.95, 7, &lo, &hi) == 0);
	CHECK(lo == lo1 && hi == hi1);
	/* the same values in five replicas: deterministic, around the point ratio, and wider than the
	 * one-level interval, since the replicas' medians spread (190 .. 210) */
	CHECK(wtg_bootstrap_ratio_ci_replicas(a, la, R, b, lb, R, 0.5, 5000, 0.95, 7, &lo, &hi) == 0);
	double lo2, hi2;
	CHECK(wtg_bootstrap_ratio_ci_replicas(a, la, R, b, lb, R, 0.5, 5000, 0.95, 7, &lo2, &hi2) == 0);
	CHECK(lo == lo2 && hi == hi2);
	double point = wtg_quantile(a, N, 0.5) / wtg_quantile(b, N, 0.5);
	CHECK(lo <= point && point <= hi);
	CHECK(wtg_bootstrap_ratio_ci(a, N, b, N, 0.5, 5000, 0.95, 7, &lo1, &hi1) == 0);
	CHECK(hi - lo > hi1 - lo1);
	/* replicas that agree: about the one-level width (no spread between them to add) */
	CHECK(wtg_bootstrap_ratio_ci_replicas(flat_a, la, R, flat_b, lb, R, 0.5, 5000, 0.95, 7, &lo2, &hi2) == 0);
	CHECK(wtg_bootstrap_ratio_ci(flat_a, N, flat_b, N, 0.5, 5000, 0.95, 7, &lo1, &hi1) == 0);
	CHECK(hi2 - lo2 < 1.5 * (hi1 - lo1) && hi2 - lo2 > 0.5 * (hi1 - lo1));
	/* against a plain two-level resampling bootstrap, 20000 resamples each */
	{
		enum { NB = 20000 };
		static double ratios[NB];
		double ra[N], rb[N];
		struct wtg_rng r;
		wtg_rng_seed(&r, 23);
		for (int k = 0; k < NB; k++) {
			for (int j = 0; j < R; j++) {
				size_t ja = wtg_rng_below(&r, R), jb = wtg_rng_below(&r, R);
				for (int i = 0; i < PER; i++) {
					ra[j * PER + i] = a[ja * PER + wtg_rng_below(&r, PER)];
					rb[j * PER + i] = b[jb * PER + wtg_rng_below(&r, PER)];
				}
			}
			ratios[k] = wtg_quantile(ra, N, 0.5) / wtg_quantile(rb, N, 0.5);
		}
		wtg_sort(ratios, NB);
		double blo = wtg_quantile_sorted(ratios, NB, 0.025), bhi = wtg_quantile_sorted(ratios, NB, 0.975);
		CHECK(wtg_bootstrap_ratio_ci_replicas(a, la, R, b, lb, R, 0.5, NB, 0.95, 7, &lo, &hi) == 0);
		CHECK(fabs(lo - blo) < 0.05 * (bhi - blo) && fabs(hi - bhi) < 0.05 * (bhi - blo));
	}
	/* a replica of non-finite values only is dropped: the same interval as without it */
	double with_nan[N + 2];
	size_t lnan[R + 1];
	memcpy(with_nan, a, sizeof a);
	with_nan[N] = NAN;
	with_nan[N + 1] = INFINITY;
	memcpy(lnan, la, sizeof la);
	lnan[R] = 2;
	CHECK(wtg_bootstrap_ratio_ci_replicas(a, la, R, b, lb, R, 0.5, 2000, 0.95, 9, &lo, &hi) == 0);
	CHECK(wtg_bootstrap_ratio_ci_replicas(with_nan, lnan, R + 1, b, lb, R, 0.5, 2000, 0.95, 9, &lo2, &hi2) == 0);
	CHECK(lo == lo2 && hi == hi2);
	/* constant sides in replicas: the ratio exactly */
	double k3[6] = { 3, 3, 3, 3, 3, 3 }, k2[4] = { 2, 2, 2, 2 };
	size_t l3[3] = { 2, 2, 2 }, l2[2] = { 3, 1 };
	CHECK(wtg_bootstrap_ratio_ci_replicas(k3, l3, 3, k2, l2, 2, 0.5, 1000, 0.95, 1, &lo, &hi) == 0);
	CHECK(lo == 1.5 && hi == 1.5);
	/* more replicas than it takes, or none */
	size_t many[WTG_BOOT_MAX_REPLICAS + 1];
	double ones[WTG_BOOT_MAX_REPLICAS + 1];
	for (int j = 0; j <= WTG_BOOT_MAX_REPLICAS; j++)
		many[j] = 1, ones[j] = 1;
	CHECK(wtg_bootstrap_ratio_ci_replicas(ones, many, WTG_BOOT_MAX_REPLICAS + 1, k2, l2, 2, 0.5, 100, 0.95, 1,
					      &lo, &hi) == -1 && isnan(lo));
	CHECK(wtg_bootstrap_ratio_ci_replicas(ones, many, WTG_BOOT_MAX_REPLICAS, k2, l2, 0, 0.5, 100, 0.95, 1,
					      &lo, &hi) == -1);
}


/* Student's t quantiles against published values (scipy.stats.t.ppf, 9 digits). */
static void test_t_quantile(void)
{
	CHECK_NEAR(wtg_t_quantile(0.975, 1), 12.7062047, 1e-5);
	CHECK_NEAR(wtg_t_quantile(0.975, 2), 4.30265273, 1e-5);
	CHECK_NEAR(wtg_t_quantile(0.975, 4), 2.77644511, 1e-5);
	CHECK_NEAR(wtg_t_quantile(0.975, 10), 2.22813885, 1e-5);
	CHECK_NEAR(wtg_t_quantile(0.975, 30), 2.04227246, 1e-5);
	CHECK_NEAR(wtg_t_quantile(0.995, 3), 5.84090931, 1e-5);
	CHECK_NEAR(wtg_t_quantile(0.025, 4), -2.77644511, 1e-5);
	CHECK_NEAR(wtg_t_quantile(0.975, 100000), 1.95996398, 1e-4);	/* the normal's */
	CHECK(wtg_t_quantile(0.5, 3) == 0);
	CHECK(isnan(wtg_t_quantile(0.975, 0)) && isnan(wtg_t_quantile(1.0, 3)) && isnan(wtg_t_quantile(0, 3)));
}

/* Runs pooled across them: the numbers worked by hand, the runs that are left out, and the
 * coverage of the pooled interval over synthetic runs whose true centre is known. */
static void test_pool_runs(void)
{
	const double z = 1.959963984540054;
	struct wtg_pooled p;
	/* three runs 10 apart, each CI of standard error 2: Q = 200 / 4 = 50 on 2 degrees of freedom,
	 * I^2 = 48 / 50, tau^2 = 48 / (0.75 - 0.1875 / 0.75) = 96; each weight 1 / 100, the pooled 110
	 * with the standard error sqrt(1 / 0.03) and t(2) = 4.30265 */
	double v[] = { 100, 110, 120 }, lo[3], hi[3];
	for (int i = 0; i < 3; i++) {
		lo[i] = v[i] - 2 * z;
		hi[i] = v[i] + 2 * z;
	}
	CHECK(wtg_pool_runs(v, lo, hi, 3, 0.95, &p) == 0);
	CHECK(p.k == 3);
	CHECK_NEAR(p.q, 50, 1e-9);
	CHECK_NEAR(p.i2_pct, 96, 1e-9);
	CHECK_NEAR(p.tau, sqrt(96), 1e-9);
	CHECK_NEAR(p.value, 110, 1e-9);
	CHECK_NEAR(p.lo, 110 - 4.30265273 * sqrt(1 / 0.03), 1e-4);
	CHECK_NEAR(p.hi, 110 + 4.30265273 * sqrt(1 / 0.03), 1e-4);
	CHECK(isnan(p.next_lo) && isnan(p.next_hi));	/* three runs: t(1) = 12.7 would say nothing */
	/* four runs 10 apart, each of standard error 2: Q = 500 / 4 = 125 on 3 degrees of freedom,
	 * tau^2 = 122 / (1 - 0.25) = 162.67; each weight 1 / (4 + tau^2), their spread about 115 one
	 * standard error each, so the pooled variance is (4 + tau^2) / 4; a next run: t(2) = 4.30265 times
	 * sqrt(tau^2 + the pooled variance + the runs' own variance 4) */
	double v4[] = { 100, 110, 120, 130 }, lo4[4], hi4[4];
	for (int i = 0; i < 4; i++) {
		lo4[i] = v4[i] - 2 * z;
		hi4[i] = v4[i] + 2 * z;
	}
	CHECK(wtg_pool_runs(v4, lo4, hi4, 4, 0.95, &p) == 0);
	const double tau2 = 122 / 0.75;
	CHECK_NEAR(p.tau, sqrt(tau2), 1e-9);
	CHECK_NEAR(p.value, 115, 1e-9);
	CHECK_NEAR(p.next_lo, 115 - 4.30265273 * sqrt(tau2 + (4 + tau2) / 4 + 4), 1e-4);
	CHECK_NEAR(p.next_hi, 115 + 4.30265273 * sqrt(tau2 + (4 + tau2) / 4 + 4), 1e-4);
	for (int i = 0; i < 3; i++) {	/* the three runs again, for the cases below */
		lo[i] = v[i] - 2 * z;
		hi[i] = v[i] + 2 * z;
	}
	/* runs that agree within their CIs: Q = 0.5 below its 2 degrees of freedom, so I^2 = 0 and
	 * tau = 0; the spread about the mean is smaller than the weights say, so the weights alone
	 * set the standard error, sqrt(1 / 0.75) */
	double a[] = { 100, 101, 99 };
	for (int i = 0; i < 3; i++) {
		lo[i] = a[i] - 2 * z;
		hi[i] = a[i] + 2 * z;
	}
	CHECK(wtg_pool_runs(a, lo, hi, 3, 0.95, &p) == 0);
	CHECK_NEAR(p.q, 0.5, 1e-9);
	CHECK(p.i2_pct == 0 && p.tau == 0);
	CHECK_NEAR(p.value, 100, 1e-9);
	CHECK_NEAR(p.hi - p.value, 4.30265273 * sqrt(1 / 0.75), 1e-4);
	CHECK_NEAR(p.value - p.lo, p.hi - p.value, 1e-9);
	CHECK(isnan(p.next_lo));
	/* a run without a value, without a CI or with a zero-width one is left out */
	double b[] = { 100, NAN, 110, 120, 130 }, blo[5], bhi[5];
	for (int i = 0; i < 5; i++) {
		blo[i] = b[i] - 2 * z;
		bhi[i] = b[i] + 2 * z;
	}
	blo[3] = NAN;
	blo[4] = bhi[4] = 130;
	CHECK(wtg_pool_runs(b, blo, bhi, 5, 0.95, &p) == 0);
	CHECK(p.k == 2);
	CHECK_NEAR(p.value, 105, 1e-9);
	CHECK(isnan(p.next_lo) && isnan(p.next_hi));	/* two runs: nothing to predict from */
	CHECK(wtg_pool_runs(b + 2, blo + 2, bhi + 2, 3, 0.95, &p) == -1 && p.k == 1 && isnan(p.value));
	/* 2000 sets of 5 runs, each run's centre drawn about the true 0 with a between-run sd of 1 and
	 * its median about that centre with a standard error of 0.5 (its CI +- 1.96 x 0.5): the pooled
	 * 95% interval holds 0 in 92-98% of the sets, a single run's CI about 62% of the time */
	struct wtg_rng r;
	wtg_rng_seed(&r, 11);
	int pooled_holds = 0, run_holds = 0, pooled = 0, next_holds = 0, next_run_holds = 0;
	for (int s = 0; s < 2000; s++) {
		double m[6], l5[6], h5[6];
		for (int i = 0; i < 6; i++) {	/* the sixth: the next run */
			double u1 = 1 - wtg_rng_unit(&r), u2 = wtg_rng_unit(&r), u3 = 1 - wtg_rng_unit(&r),
			       u4 = wtg_rng_unit(&r);
			double centre = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
			m[i] = centre + 0.5 * sqrt(-2 * log(u3)) * cos(2 * M_PI * u4);
			l5[i] = m[i] - z * 0.5;
			h5[i] = m[i] + z * 0.5;
		}
		pooled += wtg_pool_runs(m, l5, h5, 5, 0.95, &p) == 0;
		pooled_holds += p.lo <= 0 && 0 <= p.hi;
		run_holds += l5[0] <= 0 && 0 <= h5[0];
		next_holds += p.next_lo <= m[5] && m[5] <= p.next_hi;
		next_run_holds += l5[0] <= m[5] && m[5] <= h5[0];
	}
	printf("# runs pooled: the pooled 95%% interval held the true centre in %d of 2000 sets of 5 runs, "
	       "one run's CI in %d\n", pooled_holds, run_holds);
	printf("# the next run's figure: inside the 5 runs' prediction interval in %d of 2000, inside one run's "
	       "CI in %d\n", next_holds, next_run_holds);
	CHECK(pooled == 2000);
	CHECK(pooled_holds >= 1840 && pooled_holds <= 1960);
	CHECK(run_holds < 1400);	/* P(|N(0, 1.25)| < 0.98) = 62% */
	CHECK(next_holds >= 1840 && next_holds <= 1980);
	CHECK(next_run_holds < 1100);	/* P(|N(0, 2.5)| < 0.98) = 46% */
}

int main(void)
{
	test_t_quantile();
	test_pool_runs();
	test_wilson();
	test_sign_test();
	test_quantiles();
	test_rng_reference();
	test_rng();
	test_shuffle();
	test_bootstrap();
	test_bootstrap_replicas();
	test_summarize();
	test_bootstrap_order_statistics();
	test_bootstrap_ratio();
	test_bootstrap_ratio_replicas();
	return unit_done("test_stats");
}
