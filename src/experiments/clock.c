/* clock.c: How fine is the stopwatch?
 *
 * Back-to-back clock_gettime(CLOCK_MONOTONIC) pairs: the difference of each pair is what a timed
 * region holding nothing measures. Many pairs return the same timestamp twice (zero_pairs); a
 * few are interrupted and take microseconds. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"

/* ---- bootstrap of the median through order statistics ----
 *
 * A bootstrap resample is n draws with replacement from the sorted samples s, i.e. s[floor(U*n)]
 * for n uniform U. That map is non-decreasing, so the k-th smallest resampled value is the map
 * applied to the k-th smallest of n uniforms, which is Beta(k, n-k+1) distributed; the next one
 * up is U(k) + (1 - U(k)) * (the minimum of n-k uniforms). Drawing those two numbers gives the
 * resample's type-7 median exactly in distribution, in O(1) instead of O(n log n) per resample. */

static double unit_open(struct wtg_rng *r)
{
	return 1.0 - wtg_rng_unit(r); /* (0, 1] */
}

static double std_normal(struct wtg_rng *r)
{
	double u1 = unit_open(r), u2 = wtg_rng_unit(r);
	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* Gamma(a, 1) for a >= 1 (Marsaglia and Tsang, 2000). */
static double gamma_draw(struct wtg_rng *r, double a)
{
	double d = a - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
	for (;;) {
		double x, v;
		do {
			x = std_normal(r);
			v = 1.0 + c * x;
		} while (v <= 0);
		v = v * v * v;
		double u = unit_open(r);
		if (u < 1.0 - 0.0331 * x * x * x * x || log(u) < 0.5 * x * x + d * (1.0 - v + log(v)))
			return d * v;
	}
}

static double beta_draw(struct wtg_rng *r, double a, double b)
{
	double x = gamma_draw(r, a), y = gamma_draw(r, b);
	return x / (x + y);
}

static double pick(const double *sorted, size_t n, double u)
{
	size_t i = (size_t)(u * (double)n);
	return sorted[i < n ? i : n - 1];
}

static int bootstrap_median_ci_sorted(const double *sorted, size_t n, int resamples, double conf,
				      uint64_t seed, double *lo, double *hi)
{
	if (n == 0 || resamples < 1)
		return -1;
	double *med = malloc((size_t)resamples * sizeof *med);
	if (!med)
		return -1;
	struct wtg_rng r;
	wtg_rng_seed(&r, seed);
	size_t k = n / 2 + (n & 1); /* 1-based rank of the (lower) middle value */
	for (int i = 0; i < resamples; i++) {
		double uk = beta_draw(&r, (double)k, (double)(n - k + 1));
		double m = pick(sorted, n, uk);
		if (!(n & 1)) {
			double umin = 1.0 - pow(unit_open(&r), 1.0 / (double)(n - k));
			m = (m + pick(sorted, n, uk + (1.0 - uk) * umin)) / 2.0;
		}
		med[i] = m;
	}
	wtg_sort(med, (size_t)resamples);
	*lo = wtg_quantile_sorted(med, (size_t)resamples, (1.0 - conf) / 2.0);
	*hi = wtg_quantile_sorted(med, (size_t)resamples, (1.0 + conf) / 2.0);
	free(med);
	return 0;
}

/* The summary of wtg_summarize, with the bootstrap above. */
static int summarize_large(const double *v, size_t n, uint64_t seed, struct wtg_summary *out)
{
	struct wtg_summary s = { .n = n };
	double *sorted = malloc(n * sizeof *sorted);
	if (!sorted)
		return -1;
	for (size_t i = 0; i < n; i++)
		sorted[i] = v[i];
	wtg_sort(sorted, n);
	s.mean = wtg_mean(v, n);
	s.min = sorted[0];
	s.max = sorted[n - 1];
	s.median = wtg_quantile_sorted(sorted, n, 0.5);
	s.p90 = wtg_quantile_sorted(sorted, n, 0.90);
	s.p99 = wtg_quantile_sorted(sorted, n, 0.99);
	int rc = bootstrap_median_ci_sorted(sorted, n, WTG_BOOTSTRAP_RESAMPLES, WTG_BOOTSTRAP_CONF, seed,
					    &s.ci_low, &s.ci_high);
	free(sorted);
	if (rc < 0)
		return -1;
	size_t half = n / 2;
	s.first_half_median = half ? wtg_quantile(v, half, 0.5) : s.median;
	s.second_half_median = half ? wtg_quantile(v + half, n - half, 0.5) : s.median;
	s.drift = s.first_half_median != 0
			  ? (s.second_half_median - s.first_half_median) / s.first_half_median
			  : 0;
	*out = s;
	return 0;
}

static int run(struct wtg_ctx *ctx)
{
	const size_t n = ctx->opt->quick ? 50000 : 200000;
	const size_t step = 10000; /* pairs between cancel checks: well under a millisecond */
	const struct wtg_column extra[] = {
		{ "zero_pairs", "count", WTG_T_INT, 0 },
		{ "zero_pct", "%", WTG_T_REAL, 1 },
		{ "resolution_ns", "ns", WTG_T_INT, 0 },
	};
	wtg_set_distribution_columns_ex(ctx, "operation", extra, (int)WTG_ARRAY_LEN(extra));

	double *d = malloc(n * sizeof *d);
	if (!d) {
		wtg_table_fail(ctx->t, "out of memory for %zu samples", n);
		return WTG_ERR;
	}
	struct wtg_probe p;
	struct wtg_probe_result res, part;
	memset(&res, 0, sizeof res);
	int64_t zeros = 0, negative = 0;
	for (size_t done = 0; done < n; done += step) {
		size_t end = done + step < n ? done + step : n;
		wtg_probe_begin(&p);
		for (size_t i = done; i < end; i++) {
			struct timespec a, b;
			clock_gettime(CLOCK_MONOTONIC, &a);
			clock_gettime(CLOCK_MONOTONIC, &b);
			int64_t diff = (int64_t)(b.tv_sec - a.tv_sec) * 1000000000 + (b.tv_nsec - a.tv_nsec);
			d[i] = (double)diff;
		}
		wtg_probe_end(&p, &part);
		wtg_probe_accumulate(&res, &part);
		char label[48];
		snprintf(label, sizeof label, "%zu of %zu pairs", end, n);
		wtg_ctx_progress(ctx, (int)(end / step), (int)((n + step - 1) / step), label);
		if (wtg_ctx_cancelled(ctx)) {
			free(d);
			return WTG_CANCELLED;
		}
	}
	for (size_t i = 0; i < n; i++) {
		zeros += d[i] == 0;
		negative += d[i] < 0;
	}

	struct timespec resol = { 0, 0 };
	int64_t res_ns = clock_getres(CLOCK_MONOTONIC, &resol) == 0
				 ? (int64_t)resol.tv_sec * 1000000000 + resol.tv_nsec
				 : -1;
	struct wtg_summary s;
	if (summarize_large(d, n, wtg_ctx_seed(ctx, 0), &s) < 0) {
		free(d);
		wtg_table_fail(ctx->t, "out of memory summarizing %zu samples", n);
		return WTG_ERR;
	}
	const struct wtg_value ev[] = {
		WTG_INT(zeros),
		WTG_REAL(100.0 * (double)zeros / (double)n),
		res_ns >= 0 ? WTG_INT(res_ns) : WTG_NA,
	};
	wtg_add_summary_row(ctx, "clock_gettime pair", &s, d, n, &res, ev, (int)WTG_ARRAY_LEN(ev));
	free(d);

	wtg_table_check(ctx->t, "monotonic", negative == 0,
			"%lld of %zu pairs went backwards (CLOCK_MONOTONIC never should)",
			(long long)negative, n);
	wtg_table_note(ctx->t,
		       "each sample is b - a for clock_gettime(CLOCK_MONOTONIC, &a); "
		       "clock_gettime(CLOCK_MONOTONIC, &b) "
		       "with nothing between: %zu pairs, %lld of them zero (the same timestamp twice)",
		       n, (long long)zeros);
	if (res_ns >= 0)
		wtg_table_note(ctx->t,
			       "clock_getres(CLOCK_MONOTONIC) reports %lld ns; what a pair can resolve "
			       "depends on the clock source and how it is read",
			       (long long)res_ns);
	wtg_table_note(ctx->t,
		       "bootstrap CI of the median over all %zu pairs: each of the %d resamples' median is "
		       "drawn exactly through order statistics of uniforms (Beta(k, n-k+1)), not by "
		       "sorting n values",
		       n, WTG_BOOTSTRAP_RESAMPLES);
	wtg_table_note(ctx->t,
		       "a timed region needs many times a pair's cost (mean %.1f ns, median %.0f ns) of "
		       "work before the stopwatch is negligible; the largest pair took %.0f ns, so one "
		       "subtraction cannot tell a tiny interval from an interrupted one",
		       s.mean, s.median, s.max);
	if (fabs(s.drift) > 0.05)
		wtg_table_note(ctx->t,
			       "drift: the second half's median differs from the first half's by %.1f%%",
			       s.drift * 100.0);
	return WTG_OK;
}

const struct wtg_experiment wtg_exp_clock = {
	.name = "clock",
	.question = "How fine is the stopwatch?",
	.runs = "200000 back-to-back clock_gettime(CLOCK_MONOTONIC) pairs; zero pairs; distribution",
	.view = WTG_VIEW_HISTOGRAM,
	.needs_datafile = false,
	.run = run,
};
