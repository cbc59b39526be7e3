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
#include "io.h"
#include "wtg/ctx.h"
#include "wtg/paired.h"
#include "wtg/plan.h"
#include "why.h"

extern const struct wtg_experiment wtg_exp_clock;

static const struct wtg_column cols[] = {
	WTG_DISTRIBUTION("operation"),
	{ "zero_pairs", "count", WTG_T_INT, 0 },
	{ "zero_pct", "%", WTG_T_REAL, 1 },
	{ "resolution_ns", "ns", WTG_T_INT, 0 },
};

#define ROW "clock_gettime pair"

/* Pairs of clock reads a run times. */
static size_t npairs(const struct wtg_options *o)
{
	return o->quick ? 50000 : 200000;
}

static void clock_runs(bool quick, char *buf, size_t len)
{
	snprintf(buf, len, "%zu back-to-back clock_gettime(CLOCK_MONOTONIC) pairs; zero pairs; distribution",
		 npairs(&(const struct wtg_options){ .quick = quick }));
}

/* Pairs [from, to) of n into d, their probe added to res; progress per 10000 pairs (well under a
 * millisecond), counted from done0. Returns WTG_OK or WTG_CANCELLED. */
static int clock_pairs(struct wtg_ctx *ctx, double *d, size_t from, size_t to, size_t done0, size_t total,
		       struct wtg_probe_result *res)
{
	const size_t step = 10000;
	struct wtg_probe p;
	struct wtg_probe_result part;
	for (size_t done = from; done < to; done += step) {
		size_t end = done + step < to ? done + step : to;
		wtg_probe_begin(&p);
		for (size_t i = done; i < end; i++) {
			struct timespec a, b;
			clock_gettime(CLOCK_MONOTONIC, &a);
			clock_gettime(CLOCK_MONOTONIC, &b);
			int64_t diff = (int64_t)(b.tv_sec - a.tv_sec) * 1000000000 + (b.tv_nsec - a.tv_nsec);
			d[i] = (double)diff;
		}
		wtg_probe_end(&p, &part);
		wtg_probe_accumulate(res, &part);
		char label[48];
		size_t now = done0 + end - from;
		snprintf(label, sizeof label, "%zu of %zu pairs", now, total);
		wtg_ctx_progress(ctx, (int)(now / step), (int)((total + step - 1) / step), label);
		if (wtg_ctx_cancelled(ctx))
			return WTG_CANCELLED;
	}
	return WTG_OK;
}

/* A paired run (--versus): each arm's n pairs in WTG_ROUNDS_MIN rounds, each round a slice of them
 * in each arm, the arms in seeded order; per[arm][r] the median of round r's slice. */
static int clock_paired(struct wtg_ctx *ctx, double *d[2], size_t n, struct wtg_probe_result res[2],
			double per[2][WTG_PAIRED_ROUNDS])
{
	const int rounds = WTG_PAIRED_ROUNDS;
	size_t done = 0;
	int rc = WTG_OK;
	wtg_arms_begin(ctx);
	for (int r = 0; r < rounds && rc == WTG_OK; r++) {
		bool b_first = wtg_arms_b_first(ctx, r);
		size_t from = n * (size_t)r / (size_t)rounds, to = n * (size_t)(r + 1) / (size_t)rounds;
		for (int pass = 0; pass < 2 && rc == WTG_OK; pass++) {
			int arm = (pass == 0) == b_first;
			rc = wtg_arms_enter(ctx, arm);
			if (rc == WTG_OK)
				rc = clock_pairs(ctx, d[arm], from, to, done, 2 * n, &res[arm]);
			done += to - from;
			if (rc == WTG_OK)
				per[arm][r] = wtg_quantile(d[arm] + from, to - from, 0.5);
		}
	}
	return rc;
}

/* The row of arm's n pairs d (res_ns: the clock's resolution, -1 unknown); its zero and backward
 * pairs. Returns -1 out of memory. */
static int clock_row(struct wtg_ctx *ctx, const double *d, size_t n, const struct wtg_probe_result *res, int arm,
		     int64_t res_ns, struct wtg_summary *s, int64_t *zeros, int64_t *negative)
{
	*zeros = *negative = 0;
	for (size_t i = 0; i < n; i++) {
		*zeros += d[i] == 0;
		*negative += d[i] < 0;
	}
	if (wtg_summarize(d, n, wtg_ctx_seed(ctx, (unsigned)arm), s) < 0) {
		wtg_table_fail(ctx->t, "out of memory summarizing %zu samples", n);
		return -1;
	}
	const struct wtg_value ev[] = {
		WTG_INT(*zeros),
		WTG_REAL(100.0 * (double)*zeros / (double)n),
		res_ns >= 0 ? WTG_INT(res_ns) : WTG_NA,
	};
	(void)wtg_arms_enter(ctx, arm);	/* the row says its arm's conditions */
	wtg_add_summary_row_arm(ctx, ROW, s, d, n, res, ev, (int)WTG_ARRAY_LEN(ev), arm);
	return 0;
}

static int clock_run(struct wtg_ctx *ctx)
{
	const size_t n = npairs(ctx->opt);
	const int arms = ctx->arms ? 2 : 1;
	wtg_experiment_columns(&wtg_exp_clock, ctx->t);

	double *d[2] = { malloc(n * sizeof(double)), arms == 2 ? malloc(n * sizeof(double)) : NULL };
	if (!d[0] || (arms == 2 && !d[1])) {
		free(d[0]);
		free(d[1]);
		wtg_table_fail(ctx->t, "out of memory for %zu samples", n);
		return WTG_ERR;
	}
	struct wtg_probe_result res[2];
	memset(res, 0, sizeof res);
	double per[2][WTG_PAIRED_ROUNDS];
	int rc = arms == 2 ? clock_paired(ctx, d, n, res, per) : clock_pairs(ctx, d[0], 0, n, 0, n, &res[0]);
	struct wtg_summary s, sb;
	int64_t zeros = 0, negative = 0, zb = 0, nb = 0;
	struct timespec resol = { 0, 0 };
	int64_t res_ns = clock_getres(CLOCK_MONOTONIC, &resol) == 0
				 ? (int64_t)resol.tv_sec * 1000000000 + resol.tv_nsec
				 : -1;
	int first = ctx->t->nrows;
	if (rc == WTG_OK && (clock_row(ctx, d[0], n, &res[0], 0, res_ns, &s, &zeros, &negative) < 0 ||
			     (arms == 2 && clock_row(ctx, d[1], n, &res[1], 1, res_ns, &sb, &zb, &nb) < 0)))
		rc = WTG_ERR;
	if (rc == WTG_OK && arms == 2)
		wtg_arms_record(ctx, first, "ns", per[0], per[1], WTG_PAIRED_ROUNDS);
	if (arms == 2)
		wtg_arms_end(ctx, rc);
	free(d[0]);
	free(d[1]);
	if (rc != WTG_OK)
		return rc;
	negative += nb;

	wtg_table_check(ctx->t, "monotonic", negative == 0,
			"%lld of %zu pairs went backwards (CLOCK_MONOTONIC never should)",
			(long long)negative, n * (size_t)arms);
	wtg_table_note(ctx->t,
		       "each sample is b - a for clock_gettime(CLOCK_MONOTONIC, &a); "
		       "clock_gettime(CLOCK_MONOTONIC, &b) "
		       "with nothing between: %zu pairs, %lld of them zero (the same timestamp twice)%s",
		       n, (long long)zeros, arms == 2 ? " in arm A; each arm's pairs in 15 rounds of slices" : "");
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

/* --dry-run: one row of npairs() back-to-back pairs. */
static void clock_plan(struct wtg_plan *p)
{
	static const char *const row[] = { ROW };
	wtg_plan_labels(p, "operation", row, 1, (int)npairs(p->opt), 0);
}

/* "a clock pair = 24 ns, 0 zero pairs". */
static int clock_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	double ns = wtg_verdict_value(t, NULL, NULL, "median_ns");
	double zero = wtg_verdict_value(t, NULL, NULL, "zero_pairs");
	char z[32];
	wtg_fmt_thousands(z, sizeof z, isfinite(zero) ? (int64_t)zero : 0);
	return wtg_verdict_fmt(buf, len, isfinite(ns), "a clock pair = %.0f ns, %s zero pairs", ns, z);
}

/* The essay's zero pairs come from a coarse clock; a fine one (tsc) gives none. */
static const char *clock_cannot(const struct wtg_table *t)
{
	double zero = wtg_verdict_value(t, NULL, NULL, "zero_pairs");
	return zero == 0 ? "none: a finer clock" : NULL;
}

const struct wtg_experiment wtg_exp_clock = {
	.name = "clock",
	.question = "How fine is the stopwatch?",
	.runs = "200000 back-to-back clock_gettime(CLOCK_MONOTONIC) pairs; zero pairs; distribution",
	.runs_with = clock_runs,
	.needs_datafile = false,
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_HISTOGRAM,
	.hist = { .label = "operation" },
	.headline = { { "ns per clock_gettime pair (median)", NULL, NULL, "median_ns", "ci_low_ns", "ci_high_ns",
			"clock_gettime pair", "ns", false } },
	.typical_s = 1,
	.typical_quick_s = 1,
	.verdict = clock_verdict,
	.essay = { "88,096 of 200,000 pairs read 0 ns, the median pair 41 ns", clock_cannot, .value = 41,
		   .why = wtg_why_clock },
	.terms = WTG_TERMS("clockpair", "clocksource", "median", "p99", "batch"),
	.alternates = true,
	.run = clock_run,
	.plan = clock_plan,
};
