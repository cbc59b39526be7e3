/* zerofill.c: What does one page fault cost?
 *
 * Fresh anonymous memory has no pages behind it: the first write to each page traps, and the kernel
 * finds a free page, zeroes it and maps it. Touching one byte per page of a new mapping therefore
 * times one zero-fill fault per page. Huge pages are refused with MADV_NOHUGEPAGE so that every
 * base page faults on its own (a 2 MiB THP or an mTHP folio would fault once for many pages).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"
#include "pages.h"
#include "why.h"
#include "wtg/ctx.h"
#include "wtg/plan.h"

#define ZF_SIZE (256ull << 20)
#define ZF_QUICK_SIZE (16ull << 20)	/* 4096 faults: tens of ms at 1.5-11 us a fault */
#define ZF_HEADLINE_SIZE (16ull << 20)
#define ZF_REPS 5
#define ZF_CANCEL_EVERY 1024	/* pages between cancel checks (a few ms) */
#define ZF_GETPID_BATCHES 21	/* the yardstick: median of 21 batches of 1000 raw getpids */
#define ZF_GETPID_CALLS 1000

struct zf_run {
	int64_t pages;
	struct wtg_probe_result pr;
	bool cancelled;
};

/* Map `bytes` of fresh anonymous memory, write one byte per page inside the probe, unmap.
 * ctx may be NULL (no cancel checks). Returns 0, 1 when cancelled, -1 with errno on failure. */
static int zf_touch(struct wtg_ctx *ctx, size_t bytes, long page, struct zf_run *out)
{
	memset(out, 0, sizeof *out);
	unsigned char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	/* refuse THP and mTHP folios so each base page takes its own fault; failure only means
	 * the kernel has no THP at all, which is the same thing */
	(void)madvise(p, bytes, MADV_NOHUGEPAGE);
	volatile unsigned char *vp = p;
	size_t pages = bytes / (size_t)page;
	struct wtg_probe pb;
	int rc = 0;
	wtg_probe_begin(&pb);
	for (size_t i = 0; i < pages; i++) {
		vp[i * (size_t)page] = (unsigned char)(i | 1);	/* a write: a read would map the zero page */
		if (ctx && (i % ZF_CANCEL_EVERY) == ZF_CANCEL_EVERY - 1 && wtg_ctx_cancelled(ctx)) {
			rc = 1;
			pages = i + 1;
			break;
		}
	}
	wtg_probe_end(&pb, &out->pr);
	wtg_sink += vp[0];
	munmap(p, bytes);
	out->pages = (int64_t)pages;
	out->cancelled = rc == 1;
	return rc;
}

static double zf_ns_per_fault(const struct zf_run *r)
{
	return r->pages > 0 ? r->pr.wall_ms * 1e6 / (double)r->pages : NAN;
}

extern const struct wtg_experiment wtg_exp_zerofill;

static const struct wtg_column cols[] = {
	{ "pages", "count", WTG_T_INT, 0 },
	{ "ns_per_fault", "ns", WTG_T_REAL, 1 },
	{ "minflt", "count", WTG_T_INT, 0 },
	{ "ms", "ms", WTG_T_REAL, 2 },
	{ "rep", "", WTG_T_INT, 0 },
	{ "faults_per_page", "", WTG_T_REAL, 4 },
	{ "majflt", "count", WTG_T_INT, 0 },
	{ "bytes", "B", WTG_T_INT, 0 },
	{ "page_size", "B", WTG_T_INT, 0 },
	{ "getpid_ns", "ns", WTG_T_REAL, 1 },
	{ "getpids_per_fault", "", WTG_T_REAL, 1 },
};

/* The essay's yardstick for a fault: a raw getpid on this machine, measured just before the faults
 * (the median of ZF_GETPID_BATCHES batches, so one preempted batch does not move it). */
static double zf_getpid_ns(void)
{
	double v[ZF_GETPID_BATCHES];
	for (int i = 0; i < ZF_GETPID_BATCHES; i++)
		v[i] = wtg_time_getpid_batch(ZF_GETPID_CALLS);
	return wtg_quantile(v, ZF_GETPID_BATCHES, 0.5);
}

/* The anonymous mapping a repetition touches. */
static size_t zf_bytes(const struct wtg_options *o)
{
	return (size_t)(o && o->quick ? ZF_QUICK_SIZE : ZF_SIZE);
}

static int zerofill_run(struct wtg_ctx *ctx)
{
	wtg_experiment_columns(&wtg_exp_zerofill, ctx->t);
	long page = wtg_page_size();
	size_t bytes = zf_bytes(ctx->opt);
	double ns[ZF_REPS];
	int n = 0;
	bool enough = true;
	int64_t worst_extra = INT64_MAX;
	double getpid_ns = zf_getpid_ns();
	for (int rep = 0; rep < ZF_REPS; rep++) {
		char label[48];
		snprintf(label, sizeof label, "repetition %d of %d", rep + 1, ZF_REPS);
		wtg_ctx_progress(ctx, rep, ZF_REPS, label);
		if (wtg_ctx_cancelled(ctx))
			return WTG_CANCELLED;
		struct zf_run r;
		int rc = zf_touch(ctx, bytes, page, &r);
		if (rc < 0) {
			wtg_table_fail(ctx->t, "mmap of %zu bytes of anonymous memory failed", bytes);
			return WTG_ERR;
		}
		if (rc == 1)
			return WTG_CANCELLED;
		ns[n++] = zf_ns_per_fault(&r);
		const struct wtg_value v[] = {
			WTG_INT(r.pages),
			WTG_REAL(ns[n - 1]),
			WTG_INT(r.pr.minflt),
			WTG_REAL(r.pr.wall_ms),
			WTG_INT(rep + 1),
			WTG_REAL((double)r.pr.minflt / (double)r.pages),
			WTG_INT(r.pr.majflt),
			WTG_INT((int64_t)bytes),
			WTG_INT(page),
			WTG_REAL(getpid_ns),
			WTG_REAL(getpid_ns > 0 ? ns[n - 1] / getpid_ns : NAN),
		};
		wtg_table_add_row(ctx->t, v, (int)WTG_ARRAY_LEN(v), &r.pr);
		if (r.pr.minflt < r.pages)
			enough = false;
		if (r.pr.minflt - r.pages < worst_extra)
			worst_extra = r.pr.minflt - r.pages;
	}
	wtg_ctx_progress(ctx, ZF_REPS, ZF_REPS, "done");
	int64_t pages = (int64_t)(bytes / (size_t)page);
	wtg_table_check(ctx->t, "faults", enough,
			"every repetition counted at least one minor fault per touched page (%lld pages; "
			"fewest extra faults %lld)",
			(long long)pages, (long long)worst_extra);
	wtg_table_add_series(ctx->t, "ns per fault", "ns", ns, (size_t)n);
	wtg_table_note(ctx->t,
		       "median of %d repetitions: %.1f ns per zero-fill fault (%lld pages of %ld B each, "
		       "one written byte per page; ns per fault = wall time / pages)",
		       n, wtg_quantile(ns, (size_t)n, 0.5), (long long)pages, page);
	wtg_table_note(ctx->t,
		       "MADV_NOHUGEPAGE: no huge or multi-size folios, so every %ld B page faults once; "
		       "the time includes the kernel zeroing each page",
		       page);
	wtg_table_note(ctx->t,
		       "yardstick: a raw getpid costs %.1f ns here (median of %d batches of %d, measured just "
		       "before the faults), so a zero-fill fault = %.1f getpids",
		       getpid_ns, ZF_GETPID_BATCHES, ZF_GETPID_CALLS,
		       wtg_quantile(ns, (size_t)n, 0.5) / getpid_ns);
	return WTG_OK;
}

/* compare's figure: ns per zero-fill page fault */
static double pairing_figure(struct wtg_ctx *ctx)
{
	struct zf_run r;
	int rc = zf_touch(NULL, (size_t)ZF_HEADLINE_SIZE, wtg_page_size(), &r);
	if (rc < 0) {
		wtg_table_fail(ctx->t, "zerofill: mmap of %llu bytes of anonymous memory failed",
			       (unsigned long long)ZF_HEADLINE_SIZE);
		return NAN;
	}
	return zf_ns_per_fault(&r);
}

/* --dry-run: ZF_REPS rows, each a fresh mapping of zf_bytes() touched once per page. */
static void zerofill_plan(struct wtg_plan *p)
{
	static const char *const names[] = { "rep", "pages", "bytes", "page_size" };
	const long page = wtg_page_size();
	const size_t bytes = zf_bytes(p->opt);
	wtg_plan_columns(p, names, 4);
	for (int rep = 0; rep < ZF_REPS; rep++) {
		const struct wtg_value row[] = { WTG_INT(rep + 1), WTG_INT(bytes / (size_t)page), WTG_INT(bytes),
						 WTG_INT(page) };
		wtg_plan_row(p, row);
	}
}

/* "a zero-fill fault = 1,210 ns = 12 getpids": the median of the repetitions, and in getpids (the
 * essay's yardstick) when the row has one. */
static int zerofill_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	double ns = wtg_verdict_value(t, NULL, "ns per fault", NULL);
	double gp = wtg_verdict_value(t, NULL, NULL, "getpid_ns");
	char n[32];
	wtg_fmt_thousands(n, sizeof n, isfinite(ns) ? (int64_t)llround(ns) : 0);
	if (isfinite(ns) && isfinite(gp) && gp > 0)
		return wtg_verdict_fmt(buf, len, true, "a zero-fill fault = %s ns = %.0f getpids", n, ns / gp);
	return wtg_verdict_fmt(buf, len, isfinite(ns), "a zero-fill fault = %s ns", n);
}

const struct wtg_experiment wtg_exp_zerofill = {
	.name = "zerofill",
	.question = "What does one page fault cost?",
	.runs = "map fresh anonymous memory, touch one byte per page; ns per fault",
	.needs_datafile = false,
	.not_alternating = "takes 5 repetitions, too few to pair: a sign-test interval at 95% needs 6 "
			   "rounds or more",
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_COUNTERS,
	.counters = { .counter = "rep" },
	.bars = { .label = { "rep" }, .value = "ns_per_fault", .extra = "getpids_per_fault", .named = true,
		  .caption = "ns per zero-fill fault, one bar per repeat (lower is better); every counter in the table" },
	.headline = { { "ns per zero-fill fault", NULL, NULL, NULL, NULL, NULL, "ns per fault", "ns", false } },
	.compare = { pairing_figure, "ns_per_fault", 0, "ns per zero-fill page fault" },
	.typical_s = 5,
	.typical_quick_s = 1,
	.verdict = zerofill_verdict,
	.essay = { "1,280 ns a zero-fill fault, 13 getpids (16 KiB pages)", NULL, .value = 1280,
		   .why = wtg_why_zerofill },
	.terms = WTG_TERMS("zerofill", "page", "minflt", "getpid", "hugepage"),
	.run = zerofill_run,
	.plan = zerofill_plan,
};
