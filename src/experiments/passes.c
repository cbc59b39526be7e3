/* passes.c: Is one warm pass a number?
 *
 * One unreported warm-up pass, then 30 buffered passes over the warm file with a 1 MiB buffer.
 * Every pass is kept, in time order, with its own fault counts: the spread of the 30 is the
 * answer, and a slow pass with zero faults rules the page cache out as its cause. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "wtg/plan.h"

#define NPASSES 30
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
};

/* GB/s of a pass of `bytes` that took ns (bytes per ns), n/a for no time. */
static struct wtg_value gbps_of(uint64_t bytes, double ns)
{
	return ns > 0 ? WTG_REAL((double)bytes / ns) : WTG_NA;
}

static int passes_run(struct wtg_ctx *ctx)
{
	struct wtg_datafile *df = ctx->df;
	wtg_experiment_columns(&wtg_exp_passes, ctx->t);

	unsigned char *buf = wtg_aligned_alloc(wtg_io_align(df), BUF);
	double ns[NPASSES], minflt[NPASSES], majflt[NPASSES];
	if (!buf) {
		wtg_table_fail(ctx->t, "out of memory");
		return WTG_ERR;
	}
	memset(buf, 0, BUF); /* the buffer's own faults happen here, not in pass 1 */

	struct wtg_probe_result total;
	memset(&total, 0, sizeof total);
	struct wtg_read_pass p = { 0 };
	int bad = 0, rc = WTG_OK;
	for (int i = -1; i < NPASSES; i++) { /* pass -1 is the warm-up */
		char label[32];
		snprintf(label, sizeof label, i < 0 ? "warm-up pass" : "pass %d of %d", i + 1, NPASSES);
		wtg_ctx_progress(ctx, i + 1, NPASSES, label);
		rc = wtg_read_pass(ctx, buf, BUF, df->size, "pass", &p);
		if (rc == WTG_OK && wtg_ctx_cancelled(ctx))
			rc = WTG_CANCELLED;
		if (rc != WTG_OK)
			break;
		int64_t known = wtg_datafile_prefix_sum(df, p.bytes);
		if (p.sum != known) {
			bad++;
			wtg_table_fail(ctx->t, "%s: sum %lld does not equal the known sum %lld", label,
				       (long long)p.sum, (long long)known);
		}
		if (i < 0)
			continue;
		ns[i] = p.res.wall_ms * 1e6;
		minflt[i] = (double)p.res.minflt;
		majflt[i] = (double)p.res.majflt;
		wtg_probe_accumulate(&total, &p.res);
	}
	free(buf);
	if (rc != WTG_OK)
		return rc;
	uint64_t bytes = p.bytes;
	wtg_table_check(ctx->t, "sum", bad == 0,
			"%d of %d passes (warm-up included) summed %llu bytes to the known sum %lld",
			NPASSES + 1 - bad, NPASSES + 1, (unsigned long long)bytes,
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
	};
	wtg_add_summary_row(ctx, "pass", &s, ns, NPASSES, &total, ev, (int)WTG_ARRAY_LEN(ev));
	wtg_table_add_series(ctx->t, "pass minflt", "count", minflt, NPASSES);
	wtg_table_add_series(ctx->t, "pass majflt", "count", majflt, NPASSES);

	char sz[32];
	wtg_fmt_size(sz, sizeof sz, bytes);
	int slowest = 0;
	for (int i = 1; i < NPASSES; i++)
		if (ns[i] > ns[slowest])
			slowest = i;
	wtg_table_note(ctx->t,
		       "warm-up (fixed before measuring): one unreported pass; then %d passes over %s with a "
		       "1 MiB buffer, every one kept in time order (series \"pass\", ns)",
		       NPASSES, sz);
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
static double headline(struct wtg_ctx *ctx)
{
	struct wtg_read_pass p;
	return wtg_checked_pass(ctx, "passes", BUF, HEADLINE_MAX, &p) == WTG_OK ? p.res.wall_ms : NAN;
}

/* --dry-run: one row, NPASSES timed passes over the data file after a warm-up pass; the time
 * scales with the file's size against the default one. */
static void passes_plan(struct wtg_plan *p)
{
	static const char *const row[] = { "pass" };
	wtg_plan_labels(p, "operation", row, 1, NPASSES, 1);
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
	.runs = "one warm-up pass, then 30 buffered 1 MiB passes with fault deltas; CI of the median",
	.needs_datafile = true,
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_HISTOGRAM,
	.hist = { .label = "operation" },
	/* a pass is the whole file: runs of different sizes are not compared */
	.headline = { { "ns per buffered pass", "operation", "pass", "median_ns", "ci_low_ns", "ci_high_ns", "pass",
			"ns", false, .work_col = "bytes" } },
	.compare = { headline, "median_ms", 2, "ms per buffered pass over the file (1 MiB buffer)" },
	.typical_s = 1,
	.typical_quick_s = 1,
	.verdict = passes_verdict,
	.essay = { "30 warm passes spread, the first the slowest", NULL },
	.terms = WTG_TERMS("coldwarm", "median", "ci", "bootstrap", "drift", "minflt"),
	.run = passes_run,
	.plan = passes_plan,
};
