/* passes.c: Is one warm pass a number?
 *
 * A warm-up with a stopping rule fixed before measuring (wtg/warmup.h): windows of 3 unreported
 * passes until the medians of five consecutive windows lie within 1% of each other, or 10 windows;
 * then 30 buffered passes over the warm file with a 1 MiB buffer. Every pass is kept, in time order,
 * with its own fault counts: the spread of the 30 is the answer, and a slow pass with zero faults
 * rules the page cache out as its cause. Every warm-up window's median is kept too. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "io.h"
#include "wtg/ctx.h"
#include "wtg/plan.h"
#include "wtg/warmup.h"
#include "why.h"

#define NPASSES 30
#define WARM_WINDOW 3	/* passes in a warm-up window */
#define WARM_MAX 10	/* warm-up windows at most */
#define BUF (1u << 20)
#define HEADLINE_MAX (64ull << 20)

extern const struct wtg_experiment wtg_exp_passes;

static const struct wtg_column cols[] = {
	WTG_DISTRIBUTION("operation"),
	{ "minflt_total", "count", WTG_T_INT, 0 },
	{ "majflt_total", "count", WTG_T_INT, 0 },
	{ "median_ms", "ms", WTG_T_REAL, 3 },
	{ "gbps", "GB/s", WTG_T_REAL, 2 },
	{ "gbps_ci_low", "GB/s", WTG_T_REAL, 2 },
	{ "gbps_ci_high", "GB/s", WTG_T_REAL, 2 },
	{ "gbps_min", "GB/s", WTG_T_REAL, 2 },
	{ "gbps_max", "GB/s", WTG_T_REAL, 2 },
	{ "bytes", "B", WTG_T_INT, 0 },		/* a pass: the whole file, whose size --size sets */
	{ "warmup_windows", "count", WTG_T_INT, 0 },
};

/* GB/s of a pass of `bytes` that took ns (bytes per ns), n/a for no time. */
static struct wtg_value gbps_of(uint64_t bytes, double ns)
{
	return ns > 0 ? WTG_REAL((double)bytes / ns) : WTG_NA;
}

/* What the passes share: the buffer, the last pass, the sum mismatches so far, the passes run. */
struct pass_run {
	struct wtg_ctx *ctx;
	unsigned char *buf;
	struct wtg_read_pass p;
	int bad, done;
	double warm[WARM_MAX];	/* each warm-up window's median ns */
	int nwarm;
	bool met;
};

/* One pass over the file as step `step` of the run, its sum checked against the known sum. */
static int one_pass(struct pass_run *pr, int step, const char *label)
{
	struct wtg_ctx *ctx = pr->ctx;
	wtg_ctx_progress(ctx, step, WARM_WINDOW * WARM_MAX + NPASSES, label);
	int rc = wtg_read_pass(ctx, pr->buf, BUF, ctx->df->size, "pass", &pr->p);
	if (rc == WTG_OK && wtg_ctx_cancelled(ctx))
		rc = WTG_CANCELLED;
	if (rc != WTG_OK)
		return rc;
	pr->done++;
	int64_t known = wtg_datafile_prefix_sum(ctx->df, pr->p.bytes);
	if (pr->p.sum != known) {
		pr->bad++;
		wtg_table_fail(ctx->t, "%s: sum %lld does not equal the known sum %lld", label, (long long)pr->p.sum,
			       (long long)known);
	}
	return WTG_OK;
}

/* The warm-up: windows of WARM_WINDOW unreported passes until the rule (wtg/warmup.h) is met or
 * WARM_MAX windows ran; each window's median pass time kept, in the table's warm-up log too. */
static int warm_up(struct pass_run *pr)
{
	enum wtg_warmup_state state = WTG_WARMUP_GOING;
	while (state == WTG_WARMUP_GOING) {
		double ns[WARM_WINDOW];
		for (int k = 0; k < WARM_WINDOW; k++) {
			char label[48];
			snprintf(label, sizeof label, "warm-up window %d (at most %d)", pr->nwarm + 1, WARM_MAX);
			int rc = one_pass(pr, pr->nwarm * WARM_WINDOW + k, label);
			if (rc != WTG_OK)
				return rc;
			ns[k] = pr->p.res.wall_ms * 1e6;
		}
		pr->warm[pr->nwarm++] = wtg_quantile(ns, WARM_WINDOW, 0.5);
		state = wtg_warmup_decide(pr->warm, (size_t)pr->nwarm, WARM_MAX);
	}
	pr->met = state == WTG_WARMUP_MET;
	char sz[32], window[64];
	wtg_fmt_size(sz, sizeof sz, pr->p.bytes);
	snprintf(window, sizeof window, "%d passes over %s", WARM_WINDOW, sz);
	wtg_table_add_warmup(pr->ctx->t, "pass", "ns", window, WARM_MAX, pr->warm, (size_t)pr->nwarm, pr->met);
	return WTG_OK;
}

/* The rule, its outcome and every window's median, before the passes' own notes. */
static void warm_note(struct wtg_ctx *ctx, const struct pass_run *pr, const char *sz)
{
	char meds[WARM_MAX * 16] = "";
	size_t at = 0;
	for (int i = 0; i < pr->nwarm && at < sizeof meds; i++) {
		int k = snprintf(meds + at, sizeof meds - at, "%s%.3f", i ? ", " : "", pr->warm[i] / 1e6);
		at += k > 0 ? (size_t)k : 0;
	}
	wtg_table_note(ctx->t,
		       "warm-up (a rule fixed before measuring): windows of %d unreported passes until the "
		       "medians of %d consecutive windows lie within %.0f%% of each other (largest / smallest "
		       "- 1 <= %.0f%%), or %d windows; here %s after %d window%s (medians %s ms; JSON "
		       "warmup); then %d passes over %s with a 1 MiB buffer, every one kept in time order "
		       "(series \"pass\", ns)",
		       WARM_WINDOW, WTG_WARMUP_STABLE, 100 * WTG_WARMUP_TOLERANCE, 100 * WTG_WARMUP_TOLERANCE,
		       WARM_MAX, pr->met ? "the rule was met" : "the maximum was reached", pr->nwarm,
		       pr->nwarm == 1 ? "" : "s", meds, NPASSES, sz);
}

static int passes_run(struct wtg_ctx *ctx)
{
	struct wtg_datafile *df = ctx->df;
	wtg_experiment_columns(&wtg_exp_passes, ctx->t);

	struct pass_run pr = { .ctx = ctx, .buf = wtg_aligned_alloc(wtg_io_align(df), BUF) };
	double ns[NPASSES], minflt[NPASSES], majflt[NPASSES];
	if (!pr.buf) {
		wtg_table_fail(ctx->t, "out of memory");
		return WTG_ERR;
	}
	memset(pr.buf, 0, BUF); /* the buffer's own faults happen here, not in pass 1 */

	struct wtg_probe_result total;
	memset(&total, 0, sizeof total);
	int rc = warm_up(&pr);
	for (int i = 0; rc == WTG_OK && i < NPASSES; i++) {
		char label[32];
		snprintf(label, sizeof label, "pass %d of %d", i + 1, NPASSES);
		rc = one_pass(&pr, WARM_WINDOW * WARM_MAX + i, label);
		if (rc != WTG_OK)
			break;
		ns[i] = pr.p.res.wall_ms * 1e6;
		minflt[i] = (double)pr.p.res.minflt;
		majflt[i] = (double)pr.p.res.majflt;
		wtg_probe_accumulate(&total, &pr.p.res);
	}
	free(pr.buf);
	if (rc != WTG_OK)
		return rc;
	uint64_t bytes = pr.p.bytes;
	wtg_table_check(ctx->t, "sum", pr.bad == 0,
			"%d of %d passes (warm-up included) summed %llu bytes to the known sum %lld",
			pr.done - pr.bad, pr.done, (unsigned long long)bytes,
			(long long)wtg_datafile_prefix_sum(df, bytes));

	struct wtg_summary s;
	if (wtg_summarize(ns, NPASSES, wtg_ctx_seed(ctx, 0), &s) < 0) {
		wtg_table_fail(ctx->t, "out of memory summarizing");
		return WTG_ERR;
	}
	const struct wtg_value ev[] = {
		WTG_INT(total.minflt),
		WTG_INT(total.majflt),
		WTG_REAL(s.median / 1e6),
		gbps_of(bytes, s.median),
		/* the pass time's interval and range, turned into GB/s (the slow end is the low one) */
		gbps_of(bytes, s.ci_high),
		gbps_of(bytes, s.ci_low),
		gbps_of(bytes, s.max),
		gbps_of(bytes, s.min),
		WTG_INT(bytes),
		WTG_INT(pr.nwarm),
	};
	wtg_add_summary_row(ctx, "pass", &s, ns, NPASSES, &total, ev, (int)WTG_ARRAY_LEN(ev));
	wtg_regime_modes(ctx, "pass", "ns", ns, NPASSES, "passes", true);
	wtg_table_add_series(ctx->t, "pass minflt", "count", minflt, NPASSES);
	wtg_table_add_series(ctx->t, "pass majflt", "count", majflt, NPASSES);

	char sz[32];
	wtg_fmt_size(sz, sizeof sz, bytes);
	int slowest = 0;
	for (int i = 1; i < NPASSES; i++)
		if (ns[i] > ns[slowest])
			slowest = i;
	warm_note(ctx, &pr, sz);
	wtg_table_note(ctx->t,
		       "faults over the %d passes: %lld minor, %lld major; the slowest pass (#%d, %.3f ms) "
		       "had %.0f minor and %.0f major",
		       NPASSES, (long long)total.minflt, (long long)total.majflt, slowest + 1,
		       ns[slowest] / 1e6, minflt[slowest], majflt[slowest]);
	wtg_table_note(ctx->t,
		       "the CI is the bootstrap interval of the median over these %d passes: it says how "
		       "well this run's median is located, not where the next run's will be",
		       NPASSES);
	if (fabs(s.drift) > 0.05)
		wtg_table_note(ctx->t,
			       "drift: the last 15 passes' median differs from the first 15's by %+.1f%%",
			       s.drift * 100.0);
	if (wtg_uncached_requested())
		wtg_table_note(ctx->t, "uncached I/O: %s before each pass",
			       wtg_iomode_name(wtg_iomode_effective(df)));
	return WTG_OK;
}

/* compare's figure: ms per buffered 1 MiB-buffer pass over the first 64 MiB at most (the quick
 * file): tens of ms warm */
static double pairing_figure(struct wtg_ctx *ctx)
{
	struct wtg_read_pass p;
	return wtg_checked_pass(ctx, "passes", BUF, HEADLINE_MAX, &p) == WTG_OK ? p.res.wall_ms : NAN;
}

/* --dry-run: one row, NPASSES timed passes over the data file after the warm-up windows; the time
 * scales with the file's size against the default one. */
static void passes_plan(struct wtg_plan *p)
{
	static const char *const row[] = { "pass" };
	wtg_plan_labels(p, "operation", row, 1, NPASSES, 0);
	p->warm_window = WARM_WINDOW;
	p->warm_max = WARM_MAX;
	p->work = (double)p->file_size;
	p->ref_work = (double)(p->opt->quick ? WTG_QUICK_SIZE : WTG_DEFAULT_SIZE);
	snprintf(p->how, sizeof p->how, "typical time x the file's size / the default size");
}

/* "a warm pass = 4.2 ms; the first was the slowest". */
static int passes_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	double med = wtg_verdict_value(t, "operation", "pass", "median_ns");
	const struct wtg_series *sr = NULL;
	for (int i = 0; i < t->nseries; i++)
		if (strcmp(t->series[i].name, "pass") == 0)
			sr = &t->series[i];
	int slowest = 0;
	for (size_t i = 1; sr && i < sr->n; i++)
		if (sr->v[i] > sr->v[slowest])
			slowest = (int)i;
	if (!sr || sr->n == 0)
		return wtg_verdict_fmt(buf, len, isfinite(med), "a warm pass = %.2f ms", med / 1e6);
	return wtg_verdict_fmt(buf, len, isfinite(med), "a warm pass = %.2f ms; the slowest was pass %d of %zu", med / 1e6,
			       slowest + 1, sr->n);
}

const struct wtg_experiment wtg_exp_passes = {
	.name = "passes",
	.question = "Is one warm pass a number?",
	.runs = "warm-up windows of 3 passes until 5 lie within 1% (at most 10), then 30 buffered 1 MiB passes with fault deltas; CI of the median",
	.needs_datafile = true,
	.not_cold = "it times warm passes, after a warm-up",
	.not_alternating = "answers with the spread of 30 consecutive passes in time order, which "
			   "alternating arms would break",
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_HISTOGRAM,
	.hist = { .label = "operation" },
	/* a pass is the whole file: runs of different sizes are not compared */
	.headline = { { "ns per buffered pass", "operation", "pass", "median_ns", "ci_low_ns", "ci_high_ns", "pass",
			"ns", false, .work_col = "bytes" } },
	.compare = { pairing_figure, "median_ms", 2, "ms per buffered pass over the file (1 MiB buffer)" },
	.typical_s = 1,
	.typical_quick_s = 1,
	.verdict = passes_verdict,
	.essay = { "30 warm 64 MiB passes spread, median 6.7 ms (10 GB/s), the first the slowest", NULL,
		   .value = 10, .here = wtg_why_passes_gbps, .why = wtg_why_passes },
	.terms = WTG_TERMS("coldwarm", "median", "ci", "bootstrap", "drift", "minflt"),
	.run = passes_run,
	.plan = passes_plan,
};
